/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-dump-file.h"
#include "ovi-ignore-list.h"
#include "ovi-overflow-record.h"
#include "ovi-problem.h"

G_BEGIN_DECLS

/* OviDumpFolder: what one or several dump folders hold, the object the CLI
 * and the window both read. Loading it (ovi_dump_folder_load() or
 * _load_async()) scans every root on core's worker pool: the dump files
 * (OviDumpFile, one per operator execution), the overflow records
 * (OviOverflowRecord, first overflow first and numbered) and the problems
 * (OviProblem, every file that could not be read, with why), each a
 * GListModel that fills as the scan reads, then the operators' summaries
 * (classes, counts). Results reach the caller on the main context the load
 * started from, in batches (OviDelivery); with the "paced" property set the
 * caller takes them at its own pace (ovi_dump_folder_apply_results()).
 * Following the folder while a run writes into it is OviFolderWatch's job;
 * every output is first checked against the folders read
 * (ovi_dump_folder_check_output()), since reading never writes. */

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
void ovi_dump_folder_set_keep_small_files (OviDumpFolder *self, gboolean keep);
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
