#pragma once

#include <glib.h>

#include "ovi-dump-file.h"

G_BEGIN_DECLS

/* Writes synthetic dump files from the layouts in dump-format.md: the
 * project's fixtures, example folder, fuzz seeds and benchmark inputs. */

typedef struct _OviDumpWriter OviDumpWriter;

typedef struct
{
  int dtype;
  int format;
  guint n_dims;
  guint64 shape[8];
  guint n_original_dims;
  guint64 original_shape[8];
  GBytes *data;
} OviWriterTensor;

typedef enum
{
  OVI_WRITER_PACKED_DIMS = 0,
  OVI_WRITER_UNPACKED_DIMS = 1 << 0,
} OviWriterFlags;

OviDumpWriter *ovi_dump_writer_new        (const char    *op_name);
void           ovi_dump_writer_free       (OviDumpWriter *self);
void           ovi_dump_writer_set_flags  (OviDumpWriter *self,
                                           OviWriterFlags flags);
void           ovi_dump_writer_set_dump_time (OviDumpWriter *self,
                                              guint64        dump_time);
void           ovi_dump_writer_add_tensor (OviDumpWriter *self,
                                           OviTensorKind  kind,
                                           int            dtype,
                                           int            format,
                                           const guint64 *shape,
                                           guint          n_dims,
                                           GBytes        *data);
void           ovi_dump_writer_set_original_shape (OviDumpWriter *self,
                                                   OviTensorKind  kind,
                                                   guint          index,
                                                   const guint64 *shape,
                                                   guint          n_dims);
GBytes        *ovi_dump_writer_build      (OviDumpWriter *self,
                                           OviLayout      layout);
gboolean       ovi_dump_writer_write      (OviDumpWriter *self,
                                           OviLayout      layout,
                                           const char    *path,
                                           GError       **error);

/* Overflow payloads (2048 bytes). */
typedef struct
{
  guint64 model_id, stream_id, task_id, task_type;
  guint64 pc_start, para_base, kernel_code, block_idx;
  guint64 status;
} OviClassicBlock;

GBytes *ovi_overflow_payload_classic (const OviClassicBlock *dha,
                                      const OviClassicBlock *l2,
                                      const OviClassicBlock *aicore);
GBytes *ovi_overflow_payload_new     (guint32        version,
                                      guint32        acc_type,
                                      const guint64 *fields,
                                      guint          n_fields);
gboolean ovi_write_overflow_file     (const char    *path,
                                      GBytes        *payload,
                                      OviLayout      layout,
                                      GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviDumpWriter, ovi_dump_writer_free)

G_END_DECLS
