/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ovi-dump-folder.h"
#include "ovi-export.h"

G_BEGIN_DECLS

typedef enum
{
  OVI_REPORT_FULL = 0,
  OVI_REPORT_RECORDS_ONLY = 1 << 0,
  /* With RECORDS_ONLY: each record's operator without its tensors and
   * class, so that nothing reads tensor data (the window builds its
   * cluster timeline from this on the main loop). */
  OVI_REPORT_NO_TENSORS = 1 << 1,
} OviReportFlags;

JsonNode *ovi_report_build_json (OviDumpFolder *folder);
JsonNode *ovi_report_build_json_full (OviDumpFolder *folder, OviReportFlags flags);
char *ovi_report_to_json_full (OviDumpFolder *folder, OviReportFlags flags);
char *ovi_report_to_text_full (OviDumpFolder *folder, OviReportFlags flags);
JsonNode *ovi_report_record_json (OviDumpFolder *folder, OviOverflowRecord *record);
JsonNode *ovi_report_record_json_full (OviDumpFolder *folder,
                                       OviOverflowRecord *record,
                                       OviReportFlags flags);
JsonNode *ovi_report_tensor_json (OviTensor *tensor);
char *ovi_report_to_json (OviDumpFolder *folder);
char *ovi_report_to_text (OviDumpFolder *folder);
char *ovi_report_record_headline (OviOverflowRecord *record);

/* What the window exports, from a folder it shows. */
typedef enum
{
  OVI_EXPORT_REPORT_JSON,
  OVI_EXPORT_REPORT_TEXT,
  OVI_EXPORT_TENSOR_NPY,         /* the tensor given */
  OVI_EXPORT_TENSOR_TXT,         /* the tensor given */
  OVI_EXPORT_OVERFLOW_JSON,      /* the overflow file given */
  OVI_EXPORT_TENSOR_NPY_LOGICAL, /* the tensor given, a device layout back to its logical one */
  OVI_EXPORT_TENSOR_TXT_LOGICAL, /* (as `convert --layout logical` writes it) */
} OviExportTarget;

gboolean ovi_report_export (OviDumpFolder *folder,
                            OviExportTarget what,
                            gpointer item,
                            const char *path,
                            GCancellable *cancellable,
                            GError **error);
void ovi_report_export_async (OviDumpFolder *folder,
                              OviExportTarget what,
                              gpointer item,
                              const char *path,
                              GCancellable *cancellable,
                              GAsyncReadyCallback callback,
                              gpointer user_data);
gboolean ovi_report_export_finish (OviDumpFolder *folder, GAsyncResult *result, GError **error);

/* Every tensor of some op dump files, as `convert` writes them. */
gboolean ovi_report_export_tensors (OviDumpFolder *folder,
                                    GPtrArray *files,
                                    OviExportFormat format,
                                    const char *output,
                                    guint *n_written,
                                    GCancellable *cancellable,
                                    GError **error);
void ovi_report_export_tensors_async (OviDumpFolder *folder,
                                      GPtrArray *files,
                                      OviExportFormat format,
                                      const char *output,
                                      GCancellable *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer user_data);
gboolean ovi_report_export_tensors_finish (OviDumpFolder *folder,
                                           GAsyncResult *result,
                                           guint *n_written,
                                           GError **error);

G_END_DECLS
