/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-atomic-file.h"
#include "ovi-dtype.h"
#include "ovi-dump-file.h"
#include "ovi-tensor.h"

G_BEGIN_DECLS

typedef enum
{
  OVI_EXPORT_NPY,
  OVI_EXPORT_TXT,
  OVI_EXPORT_BIN,
} OviExportFormat;

typedef enum
{
  OVI_EXPORT_FLAGS_NONE = 0,
  OVI_EXPORT_FLAGS_OVERWRITE = 1 << 0,
  OVI_EXPORT_FLAGS_LOGICAL = 1 << 1, /* device layouts back to NCHW / ND / NCDHW */
} OviExportFlags;

gboolean ovi_export_write_contents (
    const char *path, const char *contents, gsize length, OviExportFlags flags, GError **error);
gboolean ovi_export_tensor (OviTensor *tensor,
                            OviExportFormat format,
                            const char *path,
                            OviExportFlags flags,
                            GError **error);
int ovi_export_open_source (OviDumpFile *file, GError **error);
gboolean ovi_export_tensor_from (OviTensor *tensor,
                                 int source_fd,
                                 OviExportFormat format,
                                 const char *path,
                                 OviExportFlags flags,
                                 GError **error);
GBytes *ovi_export_read_source (OviDumpFile *file, int source_fd);
gboolean ovi_export_tensor_at (OviTensor *tensor,
                               int source_fd,
                               GBytes *source_data,
                               OviExportFormat format,
                               int dirfd,
                               const char *path,
                               OviExportFlags flags,
                               GError **error);
gboolean ovi_export_tensor_data (OviDtype dtype,
                                 const guint64 *shape,
                                 guint n_dims,
                                 GBytes *data,
                                 OviExportFormat format,
                                 const char *path,
                                 OviExportFlags flags,
                                 GError **error);
char *ovi_export_tensor_file_name (OviTensor *tensor, OviExportFormat format);
gboolean ovi_export_overflow_json (OviDumpFile *overflow_file,
                                   const char *path,
                                   OviExportFlags flags,
                                   GError **error);
char *ovi_export_overflow_file_name (OviDumpFile *overflow_file);

G_END_DECLS
