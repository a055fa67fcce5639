/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-dtype.h"
#include "ovi-types.h"

G_BEGIN_DECLS

typedef enum
{
  OVI_LAYOUT_NEW, /* u64 header length, DumpData header, raw data */
  OVI_LAYOUT_OLD, /* one DumpData message with the data inline */
} OviLayout;

/* One tensor as a header describes it. A folder of 100 000 files keeps
 * these rather than tensor objects, until someone asks for the tensors. */
typedef struct
{
  OviTensorKind kind;
  guint index;
  OviDtype dtype;
  OviFormat format;
  guint dims_start, n_dims; /* in the header's dims */
  guint original_start, n_original;
  guint64 size;
  guint64 offset;
  guint32 arg_index;  /* newer schema; 0 when not written */
  guint32 input_type; /* inputs only */
  gint32 space_type;  /* workspaces only: 0 = LOG */
  guint64 address;    /* inputs and outputs: the device address; 0 when unknown */
} OviTensorInfo;

/* What a dump file's header says (dump-format.md section 2). */
typedef struct
{
  /* Given by the caller before reading. */
  guint64 file_size;
  gboolean named_as_dump; /* its name follows the dump naming */
  guint64 keep_at_most;   /* keep the whole file in @whole when it is this small */

  OviLayout layout;
  char *version;
  char *op_name;
  guint64 dump_time;
  char *dfx_message; /* NULL when the header has none */
  GStrv attrs;       /* name, value, name, value...; NULL when none */
  GArray *infos;     /* OviTensorInfo: the tensors, described compactly */
  GArray *dims;      /* guint64: every shape of @infos, one after the other */
  /* New layout only: the whole file as the first read found it, when it is
   * at most @keep_at_most bytes; NULL otherwise. */
  GBytes *whole;
} OviDumpHeader;

gboolean ovi_dump_header_read (OviDumpHeader *self, int fd, GError **error);
void ovi_dump_header_clear (OviDumpHeader *self);
gboolean ovi_dump_header_read_at (int fd, void *buf, gsize length, guint64 offset, GError **error);
const char *ovi_dump_header_kind_word (OviTensorKind kind);
GBytes *ovi_dump_header_inline_data (
    const guint8 *file, gsize length, OviTensorKind kind, guint index, gboolean *parsed);
char *ovi_dump_header_copy_version (const char *version);
void ovi_dump_header_free_version (char *version);

G_END_DECLS
