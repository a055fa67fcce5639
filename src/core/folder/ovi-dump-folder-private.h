/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-batch.h"
#include "ovi-delivery.h"
#include "ovi-dump-folder.h"

G_BEGIN_DECLS

/* What the folder layer's files share of an OviDumpFolder. */

/* A dump folder opened at any level, or a single dump file: every dump file
 * below it, the overflow records in first-overflow order, and the files that
 * could not be read. */
struct _OviDumpFolder
{
  GObject parent_instance;

  GFile *root; /* the first root */
  char *root_path;
  char *root_real;
  /* Opened with several roots (one folder per machine): each root's files
   * are below its name, "node-a/20261202…/0/…"; NULL with one root. */
  GPtrArray *roots; /* GFile */
  GStrv root_names; /* unique among the roots */
  GStrv root_paths;
  GListStore *files;
  GListStore *records;
  GListStore *problems;
  GHashTable *dir_files; /* relative dir -> GPtrArray of the files shown from it */
  /* Built when a followed folder's pass asks, dropped whenever the store
   * changes (ovi-level.c): relative dir -> GPtrArray of the records of its
   * files, and display path -> GPtrArray of the problems of the folder or
   * file it names and of the entries in it. Borrowed from the stores. */
  GHashTable *dir_records;
  GHashTable *dir_problems;
  OviIgnoreList *ignore;
  GMutex read_lock;      /* read_dirs, set by the scanning thread */
  GHashTable *read_dirs; /* "dev:ino" of the folders the last scan entered */

  /* Numbering the records (ovi_dump_folder_number_records()) from where the
   * list changed, not from its start: a load of thousands of overflow
   * iterations adds a record or two at a time. */
  guint renumber_from;  /* the lowest position changed since; G_MAXUINT: none */
  guint first_position; /* of the record marked first; G_MAXUINT: none */
  /* Run, device and model -> GPtrArray of their records (held, each watched
   * for its operator changing), in list order. */
  GHashTable *numbered;
  /* A load on the calling thread numbers once, at its end: nothing but the
   * stores' own signal handlers runs between its batches. */
  gboolean numbering_held;

  /* Written by the scanning thread, read anywhere. */
  gsize files_seen;
  gsize dump_files;
  gsize overflow_records;
  gsize n_problems;
  gsize n_operators;  /* to summarize */
  guint64 summarized; /* summaries applied; main context */
  gboolean loading;
  gboolean analyze;      /* summarize every operator after listing */
  gboolean keep_small;   /* keep small files' bytes for their summaries */
  gboolean data_records; /* look for records in the data of iterations without overflow file */
  gboolean analyzing;    /* summaries still to come */
  gboolean cancelled;    /* the last load was cancelled: what is shown is partial */
  gboolean paced;        /* the caller takes results in (ovi_dump_folder_apply_results()) */

  /* An asynchronous load: its scan hands batches over through the delivery,
   * whose results are applied on the context the load started from; the
   * passes of a followed folder go on using it. */
  OviDelivery *delivery;
  GTask *load_task;          /* returned once the listing's last batch is applied */
  GCancellable *cancellable; /* the load's */
  gulong cancel_handler;
};

void ovi_dump_folder_apply_batch (OviDumpFolder *self, OviBatch *batch);
void ovi_dump_folder_hand_over (OviDumpFolder *self, OviBatch *batch);
void ovi_dump_folder_index_files (OviDumpFolder *self, GPtrArray *files);
void ovi_dump_folder_number_records (OviDumpFolder *self);
int ovi_dump_folder_compare_records (gconstpointer a, gconstpointer b, gpointer user_data);
void ovi_dump_folder_notify_progress (OviDumpFolder *self);
void ovi_dump_folder_summaries_applied (OviDumpFolder *self);
gboolean ovi_dump_folder_get_delivering (OviDumpFolder *self);
void ovi_dump_folder_count_seen (OviDumpFolder *self, guint before, guint now);

G_END_DECLS
