/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-dump-file.h"
#include "ovi-ignore-list.h"
#include "ovi-overflow-record.h"
#include "ovi-problem.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 files_seen;
  guint64 dump_files;
  guint64 overflow_records;
  guint64 problems;
  guint64 operators;  /* to summarize, known once the listing is over */
  guint64 summarized; /* summaries handed over so far */
} OviScanProgress;

#define OVI_TYPE_DUMP_FOLDER (ovi_dump_folder_get_type ())
G_DECLARE_FINAL_TYPE (OviDumpFolder, ovi_dump_folder, OVI, DUMP_FOLDER, GObject)

OviDumpFolder *ovi_dump_folder_new (GFile *root);
OviDumpFolder *ovi_dump_folder_new_for_roots (GFile *const *roots, guint n_roots);
guint ovi_dump_folder_get_n_roots (OviDumpFolder *self);
GFile *ovi_dump_folder_get_nth_root (OviDumpFolder *self, guint index);
const char *ovi_dump_folder_get_nth_root_path (OviDumpFolder *self, guint index);
const char *ovi_dump_folder_get_root_name (OviDumpFolder *self, guint index);
GFile *ovi_dump_folder_get_root (OviDumpFolder *self);
const char *ovi_dump_folder_get_root_path (OviDumpFolder *self);
gboolean ovi_dump_folder_load (OviDumpFolder *self, GCancellable *cancellable, GError **error);
void ovi_dump_folder_load_async (OviDumpFolder *self,
                                 GCancellable *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer user_data);
gboolean ovi_dump_folder_load_finish (OviDumpFolder *self, GAsyncResult *result, GError **error);
GListModel *ovi_dump_folder_get_files (OviDumpFolder *self);
GListModel *ovi_dump_folder_get_records (OviDumpFolder *self);
GListModel *ovi_dump_folder_get_problems (OviDumpFolder *self);
void ovi_dump_folder_get_progress (OviDumpFolder *self, OviScanProgress *progress);
gboolean ovi_dump_folder_get_loading (OviDumpFolder *self);
void ovi_dump_folder_set_analyze (OviDumpFolder *self, gboolean analyze);
void ovi_dump_folder_set_data_records (OviDumpFolder *self, gboolean data_records);
void ovi_dump_folder_set_paced (OviDumpFolder *self, gboolean paced);
gboolean ovi_dump_folder_apply_results (OviDumpFolder *self, guint max_items);
gboolean ovi_dump_folder_get_analyzing (OviDumpFolder *self);
gboolean ovi_dump_folder_get_cancelled (OviDumpFolder *self);
gboolean ovi_dump_folder_contains_path (OviDumpFolder *self, const char *path);
gboolean ovi_dump_folder_check_output (OviDumpFolder *self,
                                       const char *output,
                                       char **inside,
                                       GError **error);
void ovi_dump_folder_set_ignore_list (OviDumpFolder *self, OviIgnoreList *list);
OviIgnoreList *ovi_dump_folder_get_ignore_list (OviDumpFolder *self);
gboolean ovi_dump_folder_is_ignored (OviDumpFolder *self, OviDumpFile *op);
void ovi_dump_folder_classify_all (OviDumpFolder *self, GCancellable *cancellable);
GPtrArray *ovi_dump_folder_find_origins (OviDumpFolder *self, GCancellable *cancellable);

G_END_DECLS
