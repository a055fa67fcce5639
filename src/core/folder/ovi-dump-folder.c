/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ovi-classifier.h"
#include "ovi-dump-file-private.h"
#include "ovi-dump-folder-private.h"
#include "ovi-error.h"
#include "ovi-scan.h"
#include "ovi-worker.h"

/* The folder object: its properties, its three stores (files, records,
 * problems) and the numbering of the records, the load on the calling
 * thread or on the worker pool, and the operations over a loaded folder
 * (classifying, origins, the ignore list). The scan itself is in
 * ovi-scan.c, a followed folder's passes in ovi-level.c and
 * ovi-folder-watch.c, the output guard in ovi-output-guard.c; they share
 * the struct in ovi-dump-folder-private.h. */

G_DEFINE_FINAL_TYPE (OviDumpFolder, ovi_dump_folder, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_ROOT,
  PROP_ROOT_PATH,
  PROP_FILES_SEEN,
  PROP_DUMP_FILES,
  PROP_OVERFLOW_RECORDS,
  PROP_PROBLEM_COUNT,
  PROP_OPERATORS,
  PROP_SUMMARIZED,
  PROP_LOADING,
  PROP_ANALYZE,
  PROP_DATA_RECORDS,
  PROP_ANALYZING,
  PROP_CANCELLED,
  PROP_PACED,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum
{
  SUMMARIES_APPLIED,
  RESULTS_WAITING,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void forget_numbering (OviDumpFolder *self);
static void
records_changed (GListModel *list, guint position, guint removed, guint added, gpointer data);

static void
ovi_dump_folder_finalize (GObject *object)
{
  OviDumpFolder *self = OVI_DUMP_FOLDER (object);

  if (self->delivery)
    ovi_delivery_close (self->delivery);
  g_clear_pointer (&self->delivery, ovi_delivery_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->root);
  g_free (self->root_path);
  g_free (self->root_real);
  g_clear_pointer (&self->roots, g_ptr_array_unref);
  g_strfreev (self->root_names);
  g_strfreev (self->root_paths);
  g_clear_object (&self->files);
  g_clear_pointer (&self->dir_files, g_hash_table_unref);
  forget_numbering (self);
  g_clear_pointer (&self->numbered, g_hash_table_unref);
  /* The lists may outlive the folder (a window holds them). */
  g_signal_handlers_disconnect_by_data (self->records, self);
  g_signal_handlers_disconnect_by_data (self->problems, self);
  g_clear_pointer (&self->dir_records, g_hash_table_unref);
  g_clear_pointer (&self->dir_problems, g_hash_table_unref);
  g_clear_object (&self->records);
  g_clear_object (&self->problems);
  g_clear_pointer (&self->ignore, ovi_ignore_list_unref);
  g_clear_pointer (&self->read_dirs, g_hash_table_unref);
  g_mutex_clear (&self->read_lock);
  G_OBJECT_CLASS (ovi_dump_folder_parent_class)->finalize (object);
}

static void
ovi_dump_folder_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviDumpFolder *self = OVI_DUMP_FOLDER (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      g_value_set_object (value, self->root);
      break;
    case PROP_ROOT_PATH:
      g_value_set_string (value, self->root_path);
      break;
    case PROP_FILES_SEEN:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->files_seen));
      break;
    case PROP_DUMP_FILES:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->dump_files));
      break;
    case PROP_OVERFLOW_RECORDS:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->overflow_records));
      break;
    case PROP_PROBLEM_COUNT:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->n_problems));
      break;
    case PROP_OPERATORS:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->n_operators));
      break;
    case PROP_SUMMARIZED:
      g_value_set_uint64 (value, self->summarized);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_ANALYZE:
      g_value_set_boolean (value, self->analyze);
      break;
    case PROP_DATA_RECORDS:
      g_value_set_boolean (value, self->data_records);
      break;
    case PROP_ANALYZING:
      g_value_set_boolean (value, self->analyzing);
      break;
    case PROP_CANCELLED:
      g_value_set_boolean (value, self->cancelled);
      break;
    case PROP_PACED:
      g_value_set_boolean (value, self->paced);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_dump_folder_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  OviDumpFolder *self = OVI_DUMP_FOLDER (object);

  switch (prop_id)
    {
    case PROP_ANALYZE:
      ovi_dump_folder_set_analyze (self, g_value_get_boolean (value));
      break;
    case PROP_DATA_RECORDS:
      ovi_dump_folder_set_data_records (self, g_value_get_boolean (value));
      break;
    case PROP_PACED:
      ovi_dump_folder_set_paced (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_dump_folder_class_init (OviDumpFolderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = ovi_dump_folder_finalize;
  object_class->get_property = ovi_dump_folder_get_property;
  object_class->set_property = ovi_dump_folder_set_property;

  properties[PROP_ROOT] = g_param_spec_object ("root", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_ROOT_PATH] = g_param_spec_string ("root-path", NULL, NULL, NULL, flags);
  properties[PROP_FILES_SEEN] =
      g_param_spec_uint64 ("files-seen", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_DUMP_FILES] =
      g_param_spec_uint64 ("dump-files", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OVERFLOW_RECORDS] =
      g_param_spec_uint64 ("overflow-records", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_PROBLEM_COUNT] =
      g_param_spec_uint64 ("problem-count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  /* With #OviDumpFolder:analyze: how many operators there are to summarize
   * (known once the listing is over) and how many are done, for a
   * determinate progress bar. */
  properties[PROP_OPERATORS] =
      g_param_spec_uint64 ("operators", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SUMMARIZED] =
      g_param_spec_uint64 ("summarized", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, flags);
  properties[PROP_ANALYZE] =
      g_param_spec_boolean ("analyze", NULL, NULL, FALSE, flags | G_PARAM_WRITABLE);
  properties[PROP_DATA_RECORDS] =
      g_param_spec_boolean ("data-records", NULL, NULL, TRUE, flags | G_PARAM_WRITABLE);
  properties[PROP_ANALYZING] = g_param_spec_boolean ("analyzing", NULL, NULL, FALSE, flags);
  properties[PROP_CANCELLED] = g_param_spec_boolean ("cancelled", NULL, NULL, FALSE, flags);
  /**
   * OviDumpFolder:paced:
   *
   * Whether the caller takes in an asynchronous load's results at its own
   * pace: without it (the command-line tool, tests), every result is
   * applied as soon as it reaches the caller's main context; with it (a
   * window, which has other work between them), the folder emits
   * #OviDumpFolder::results-waiting and applies nothing until
   * ovi_dump_folder_apply_results() is called.
   */
  properties[PROP_PACED] =
      g_param_spec_boolean ("paced", NULL, NULL, FALSE, flags | G_PARAM_WRITABLE);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * OviDumpFolder::summaries-applied:
   *
   * Emitted on the main context after a group of operator summaries was
   * handed over and their files notified: tables sorted or filtered by a
   * summary redo it here.
   */
  signals[SUMMARIES_APPLIED] =
      g_signal_new ("summaries-applied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 0);
  /**
   * OviDumpFolder::results-waiting:
   *
   * With #OviDumpFolder:paced, emitted on the main context of the load
   * when results wait: call ovi_dump_folder_apply_results() until it
   * returns %FALSE, now or over the next turns of the main loop. It is
   * emitted again only after that.
   */
  signals[RESULTS_WAITING] = g_signal_new ("results-waiting", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

/* The indexes by folder hold the stores' items: any change drops them. */
static void
forget_dir_records (OviDumpFolder *self)
{
  g_clear_pointer (&self->dir_records, g_hash_table_unref);
}

static void
forget_dir_problems (OviDumpFolder *self)
{
  g_clear_pointer (&self->dir_problems, g_hash_table_unref);
}

static void
ovi_dump_folder_init (OviDumpFolder *self)
{
  self->files = g_list_store_new (OVI_TYPE_DUMP_FILE);
  self->dir_files =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->records = g_list_store_new (OVI_TYPE_OVERFLOW_RECORD);
  g_signal_connect (self->records, "items-changed", G_CALLBACK (records_changed), self);
  self->numbered =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->renumber_from = G_MAXUINT;
  self->first_position = G_MAXUINT;
  self->problems = g_list_store_new (OVI_TYPE_PROBLEM);
  g_signal_connect_swapped (self->records, "items-changed", G_CALLBACK (forget_dir_records), self);
  g_signal_connect_swapped (self->problems, "items-changed", G_CALLBACK (forget_dir_problems),
                            self);
  self->data_records = TRUE;
  self->keep_small = TRUE;
  g_mutex_init (&self->read_lock);
}

/**
 * ovi_dump_folder_new:
 * @root: a folder at any level of a dump tree, or one dump file
 */
OviDumpFolder *
ovi_dump_folder_new (GFile *root)
{
  OviDumpFolder *self;

  g_return_val_if_fail (G_IS_FILE (root), NULL);

  self = g_object_new (OVI_TYPE_DUMP_FOLDER, NULL);
  self->root = g_object_ref (root);
  self->root_path = g_file_get_path (root);
  if (self->root_path == NULL)
    self->root_path = g_file_get_uri (root);
  self->root_real = realpath (self->root_path, NULL);
  return self;
}

/**
 * ovi_dump_folder_new_for_roots:
 * @roots: (array length=n_roots): folders to open together, one per machine
 *   for example
 *
 * Files, records and problems of every root in one folder: a file's
 * relative path starts with its root's name (ovi_dump_folder_get_root_name()),
 * ovi_dump_file_get_root() says which root holds it, and records are in
 * first-overflow order across the roots. One root is ovi_dump_folder_new().
 */
OviDumpFolder *
ovi_dump_folder_new_for_roots (GFile *const *roots, guint n_roots)
{
  OviDumpFolder *self;
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) paths = g_strv_builder_new ();
  g_autoptr (GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (n_roots > 0, NULL);

  self = ovi_dump_folder_new (roots[0]);
  if (n_roots == 1)
    return self;
  self->roots = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_roots; i++)
    {
      g_autofree char *path = g_file_get_path (roots[i]);
      g_autofree char *base = g_file_get_basename (roots[i]);
      char *name = g_strdup (base && *base && !g_str_equal (base, "/") ? base : "root");

      /* Copies of each machine's folder are often named alike: "dump",
       * "dump (2)". */
      for (guint n = 2; g_hash_table_contains (taken, name); n++)
        {
          g_free (name);
          name = g_strdup_printf ("%s (%u)", base, n);
        }
      g_hash_table_add (taken, name);
      g_strv_builder_add (names, name);
      g_strv_builder_add (paths, path ? path : g_file_peek_path (roots[i]));
      g_ptr_array_add (self->roots, g_object_ref (roots[i]));
    }
  self->root_names = g_strv_builder_end (names);
  self->root_paths = g_strv_builder_end (paths);
  return self;
}

guint
ovi_dump_folder_get_n_roots (OviDumpFolder *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), 0);
  return self->roots ? self->roots->len : 1;
}

GFile *
ovi_dump_folder_get_nth_root (OviDumpFolder *self, guint index)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), NULL);
  g_return_val_if_fail (index < ovi_dump_folder_get_n_roots (self), NULL);
  return self->roots ? g_ptr_array_index (self->roots, index) : self->root;
}

const char *
ovi_dump_folder_get_nth_root_path (OviDumpFolder *self, guint index)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), NULL);
  g_return_val_if_fail (index < ovi_dump_folder_get_n_roots (self), NULL);
  return self->roots ? self->root_paths[index] : self->root_path;
}

/* The name a root's files are listed under; %NULL with one root. */
const char *
ovi_dump_folder_get_root_name (OviDumpFolder *self, guint index)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), NULL);
  g_return_val_if_fail (index < ovi_dump_folder_get_n_roots (self), NULL);
  return self->roots ? self->root_names[index] : NULL;
}

GFile *
ovi_dump_folder_get_root (OviDumpFolder *self)
{
  return self->root;
}

const char *
ovi_dump_folder_get_root_path (OviDumpFolder *self)
{
  return self->root_path;
}

int
ovi_dump_folder_compare_records (gconstpointer a, gconstpointer b, gpointer user_data)
{
  return ovi_overflow_record_compare ((OviOverflowRecord *) a, (OviOverflowRecord *) b);
}

/* A record's operator linked anew (a live pass) may make it ignored or no
 * longer: it is numbered again, from where it stands, with the next
 * numbering. */
static void
record_op_changed (OviOverflowRecord *record, GParamSpec *pspec, gpointer data)
{
  OviDumpFolder *self = data;

  if (ovi_overflow_record_get_ignored (record) !=
      ovi_dump_folder_is_ignored (self, ovi_overflow_record_get_op (record)))
    self->renumber_from = MIN (self->renumber_from, ovi_overflow_record_get_position (record));
}

static void
unwatch_record (gpointer record, gpointer self)
{
  g_signal_handlers_disconnect_by_func (record, record_op_changed, self);
  g_object_unref (record);
}

static void
unwatch_all (GPtrArray *records, gpointer self)
{
  for (guint i = 0; i < records->len; i++)
    unwatch_record (g_ptr_array_index (records, i), self);
  g_ptr_array_set_size (records, 0);
}

/* Forgets every record numbered. */
static void
forget_numbering (OviDumpFolder *self)
{
  GHashTableIter iter;
  gpointer records;

  g_hash_table_iter_init (&iter, self->numbered);
  while (g_hash_table_iter_next (&iter, NULL, &records))
    unwatch_all (records, self);
  g_hash_table_remove_all (self->numbered);
  self->first_position = G_MAXUINT;
  self->renumber_from = 0;
}

/* Whatever changes the list (a load, a live pass, a reset) says where. */
static void
records_changed (GListModel *list, guint position, guint removed, guint added, gpointer data)
{
  OviDumpFolder *self = data;

  self->renumber_from = MIN (self->renumber_from, position);
}

/* Positions in first-overflow order; the first record not ignored is the
 * first overflow. Each record's gap is to the record before it in the same
 * run, device and model: other devices run at the same time, and other
 * runs at other times.
 *
 * Only the records from the first position changed since the last call
 * are numbered again: those before it kept their positions, marks and
 * previous records, so what the walk needs of them (whether the first
 * overflow is among them, the last record of each run, device and model)
 * is kept from then. A load that adds its records in order numbers each
 * once. */
void
ovi_dump_folder_number_records (OviDumpFolder *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->records));
  guint from = MIN (self->renumber_from, n);
  /* Without an ignore list, a record's operator linked anew changes none
   * of its marks: records are watched only with one. */
  gboolean watch = self->ignore && ovi_ignore_list_get_size (self->ignore) > 0;
  gboolean first_seen;
  GHashTableIter iter;
  gpointer value;

  self->renumber_from = G_MAXUINT;
  /* Records from @from on are numbered again, or gone: let go of them (a
   * run, device and model at a time, from the end). */
  g_hash_table_iter_init (&iter, self->numbered);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GPtrArray *records = value;
      guint keep = records->len;

      while (keep > 0 &&
             ovi_overflow_record_get_position (g_ptr_array_index (records, keep - 1)) >= from)
        keep--;
      for (guint i = keep; i < records->len; i++)
        unwatch_record (g_ptr_array_index (records, i), self);
      g_ptr_array_set_size (records, keep);
      if (keep == 0)
        g_hash_table_iter_remove (&iter);
    }
  first_seen = self->first_position < from;
  if (!first_seen)
    self->first_position = G_MAXUINT;

  for (guint i = from; i < n; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (G_LIST_MODEL (self->records), i);
      gboolean ignored = ovi_dump_folder_is_ignored (self, ovi_overflow_record_get_op (r));
      OviDumpFile *file = ovi_overflow_record_get_file (r);
      char *key = g_strdup_printf ("%u\n%s\n%s\n%s", ovi_dump_file_get_root (file),
                                   ovi_dump_file_get_time (file), ovi_dump_file_get_device (file),
                                   ovi_dump_file_get_model (file));
      GPtrArray *same = g_hash_table_lookup (self->numbered, key);

      if (same == NULL)
        g_hash_table_insert (self->numbered, key, same = g_ptr_array_new ());
      else
        g_free (key);
      ovi_overflow_record_set_position (r, i);
      ovi_overflow_record_set_marks (r, ignored, !ignored && !first_seen);
      ovi_overflow_record_set_previous (r,
                                        same->len ? g_ptr_array_index (same, same->len - 1) : NULL);
      g_ptr_array_add (same, g_object_ref (r));
      if (watch)
        g_signal_connect (r, "notify::op", G_CALLBACK (record_op_changed), self);
      if (!ignored && !first_seen)
        self->first_position = i;
      first_seen |= !ignored;
    }
}

/**
 * ovi_dump_folder_set_ignore_list:
 * @list: (nullable): operators whose overflows are false positives
 *
 * Marks the records of ignored operators; they stay in the list but are
 * left out of "first overflow" and of the origins.
 */
void
ovi_dump_folder_set_ignore_list (OviDumpFolder *self, OviIgnoreList *list)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));

  g_clear_pointer (&self->ignore, ovi_ignore_list_unref);
  self->ignore = list ? ovi_ignore_list_ref (list) : NULL;
  self->renumber_from = 0;
  ovi_dump_folder_number_records (self);
}

OviIgnoreList *
ovi_dump_folder_get_ignore_list (OviDumpFolder *self)
{
  return self->ignore;
}

/**
 * ovi_dump_folder_is_ignored:
 * Returns: whether @op's overflows are false positives by the ignore list
 */
gboolean
ovi_dump_folder_is_ignored (OviDumpFolder *self, OviDumpFile *op)
{
  return self->ignore && op &&
         ovi_ignore_list_matches (self->ignore, ovi_dump_file_get_op_type (op),
                                  ovi_dump_file_get_op_name (op));
}

static void
classify_one (guint i, gpointer data)
{
  ovi_classifier_classify (g_ptr_array_index ((GPtrArray *) data, i));
}

/**
 * ovi_dump_folder_classify_all:
 *
 * Classifies every operator (reads every tensor once, on the worker pool).
 * Safe to call from a worker thread once the folder is loaded.
 */
void
ovi_dump_folder_classify_all (OviDumpFolder *self, GCancellable *cancellable)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->files));

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (files, g_list_model_get_item (G_LIST_MODEL (self->files), i));
  ovi_parallel_for (files->len, classify_one, files, cancellable);
}

/**
 * ovi_dump_folder_find_origins:
 *
 * Classifies every operator if needed, then picks in each folder (each
 * iteration) the earliest operator classified "origin" that is not ignored.
 *
 * Returns: (transfer container) (element-type OviDumpFile): one origin per
 *   iteration that has one, in first-overflow order
 */
GPtrArray *
ovi_dump_folder_find_origins (OviDumpFolder *self, GCancellable *cancellable)
{
  GPtrArray *origins = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->files));
  OviDumpFile *best = NULL;

  ovi_dump_folder_classify_all (self, cancellable);
  /* Files come folder by folder in first-overflow order. */
  for (guint i = 0; i <= n; i++)
    {
      g_autoptr (OviDumpFile) f =
          i < n ? g_list_model_get_item (G_LIST_MODEL (self->files), i) : NULL;

      if (best && (f == NULL || !g_str_equal (ovi_dump_file_get_relative_dir (f),
                                              ovi_dump_file_get_relative_dir (best))))
        {
          g_ptr_array_add (origins, best);
          best = NULL;
        }
      if (f == NULL || ovi_dump_file_get_blame (f) != OVI_BLAME_ORIGIN ||
          ovi_dump_folder_is_ignored (self, f))
        continue;
      if (best == NULL || ovi_dump_file_get_timestamp (f) < ovi_dump_file_get_timestamp (best))
        g_set_object (&best, f);
    }
  return origins;
}

static void
set_flag (OviDumpFolder *self, gboolean *flag, gboolean value, int prop)
{
  if (*flag != value)
    {
      *flag = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
    }
}

/* Notes @files in the index by folder. */
void
ovi_dump_folder_index_files (OviDumpFolder *self, GPtrArray *files)
{
  for (guint i = 0; i < files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (files, i);
      const char *dir = ovi_dump_file_get_relative_dir (f);
      GPtrArray *list = g_hash_table_lookup (self->dir_files, dir);

      if (list == NULL)
        g_hash_table_insert (self->dir_files, g_strdup (dir),
                             list = g_ptr_array_new_with_free_func (g_object_unref));
      g_ptr_array_add (list, g_object_ref (f));
    }
}

/* Runs on the thread that owns the stores. */
void
ovi_dump_folder_apply_batch (OviDumpFolder *self, OviBatch *batch)
{
  if (batch->kind == OVI_BATCH_PROGRESS)
    {
      ovi_dump_folder_notify_progress (self);
      return;
    }
  if (batch->kind == OVI_BATCH_SUMMARIES)
    {
      for (guint i = 0; i < batch->files->len; i++)
        ovi_dump_file_notify_summary (g_ptr_array_index (batch->files, i));
      self->summarized += batch->files->len;
      ovi_dump_folder_summaries_applied (self);
      return;
    }
  if (batch->files->len)
    {
      if (!batch->indexed)
        ovi_dump_folder_index_files (self, batch->files);
      g_list_store_splice (self->files, g_list_model_get_n_items (G_LIST_MODEL (self->files)), 0,
                           batch->files->pdata, batch->files->len);
    }
  for (guint i = 0; i < batch->records->len; i++)
    g_list_store_insert_sorted (self->records, g_ptr_array_index (batch->records, i),
                                ovi_dump_folder_compare_records, NULL);
  if (batch->problems->len)
    g_list_store_splice (self->problems, g_list_model_get_n_items (G_LIST_MODEL (self->problems)),
                         0, batch->problems->pdata, batch->problems->len);
  if (batch->records->len && !self->numbering_held)
    ovi_dump_folder_number_records (self);
}

void
ovi_dump_folder_notify_progress (OviDumpFolder *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_SEEN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DUMP_FILES]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERFLOW_RECORDS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEM_COUNT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPERATORS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARIZED]);
}

/* Emitted for every group of summaries applied, by a load or a pass. */
void
ovi_dump_folder_summaries_applied (OviDumpFolder *self)
{
  g_signal_emit (self, signals[SUMMARIES_APPLIED], 0);
}

/* Takes the scan's set of folders entered ("dev:ino"): the folders read,
 * for ovi_dump_folder_check_output(). Any thread. */
static void
ovi_dump_folder_keep_read_dirs (OviDumpFolder *self, GHashTable *visited)
{
  g_autoptr (GHashTable) old = NULL;

  g_mutex_lock (&self->read_lock);
  old = self->read_dirs;
  self->read_dirs = visited;
  g_mutex_unlock (&self->read_lock);
}

static void
reset (OviDumpFolder *self)
{
  g_hash_table_remove_all (self->dir_files);
  g_list_store_remove_all (self->files);
  g_list_store_remove_all (self->records);
  forget_numbering (self);
  g_list_store_remove_all (self->problems);
  self->files_seen = self->dump_files = self->overflow_records = self->n_problems = 0;
  self->n_operators = 0;
  self->summarized = 0;
  set_flag (self, &self->cancelled, FALSE, PROP_CANCELLED);
}

static void
emit_sync (OviScan *scan, OviBatch *batch)
{
  ovi_dump_folder_apply_batch (scan->self, batch);
  ovi_batch_free (batch);
}

/**
 * ovi_dump_folder_load:
 *
 * Scans the folder on the calling thread (reading headers on the worker
 * pool), then summarizes every operator when #OviDumpFolder:analyze is set.
 * The records are numbered (their positions, marks and gaps) once the
 * listing is over, not as each folder's records are added.
 * Broken files do not fail the load: they are listed by
 * ovi_dump_folder_get_problems().
 *
 * Returns: %FALSE when the root cannot be read or the scan was cancelled
 */
gboolean
ovi_dump_folder_load (OviDumpFolder *self, GCancellable *cancellable, GError **error)
{
  OviScan scan = { .self = self, .cancellable = cancellable, .emit = emit_sync };
  gboolean ok;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), FALSE);

  reset (self);
  set_flag (self, &self->loading, TRUE, PROP_LOADING);
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self->analyze)
    scan.ops = g_ptr_array_new_with_free_func (g_object_unref);
  /* Records from many devices come device after device, each into the
   * middle of the list: numbered once, at the end, the load stays linear. */
  self->numbering_held = TRUE;
  ok = ovi_scan_root (&scan, error);
  self->numbering_held = FALSE;
  ovi_dump_folder_number_records (self);
  ovi_dump_folder_keep_read_dirs (self, scan.visited);
  set_flag (self, &self->loading, FALSE, PROP_LOADING);
  if (ok && scan.ops)
    ovi_scan_summarize_all (&scan);
  g_clear_pointer (&scan.ops, g_ptr_array_unref);
  ovi_dump_folder_notify_progress (self);
  return ok;
}

static void
return_load (OviDumpFolder *self, GError *error)
{
  g_autoptr (GTask) task = g_steal_pointer (&self->load_task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }
  set_flag (self, &self->loading, FALSE, PROP_LOADING);
  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Drops the results still waiting: the load was cancelled. */
static void
end_delivery (OviDumpFolder *self)
{
  if (self->delivery)
    ovi_delivery_close (self->delivery);
  g_clear_pointer (&self->delivery, ovi_delivery_unref);
  if (self->cancel_handler)
    g_cancellable_disconnect (self->cancellable, self->cancel_handler);
  self->cancel_handler = 0;
  set_flag (self, &self->analyzing, FALSE, PROP_ANALYZING);
  ovi_dump_folder_notify_progress (self);
}

/* A load cancelled while it lists or summarizes; a followed folder's
 * results after it are not the load's. */
static gboolean
load_cancelled_now (OviDumpFolder *self)
{
  return (self->loading || self->analyzing) && g_cancellable_is_cancelled (self->cancellable);
}

/**
 * ovi_dump_folder_apply_results:
 * @max_items: how many files (or operator summaries) to take in at most
 *
 * Takes in the oldest result waiting: the files, records and problems of
 * a folder, a group of summaries, or the end of the listing, which returns
 * the load. A folder's files beyond @max_items stay waiting, its records
 * and problems with its last files. A cancelled load drops everything.
 * Call it on the main context of the load.
 *
 * Returns: whether more results wait
 */
gboolean
ovi_dump_folder_apply_results (OviDumpFolder *self, guint max_items)
{
  g_autoptr (OviDumpFolder) hold = NULL;
  g_autoptr (OviBatch) batch = NULL;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), FALSE);

  if (self->delivery == NULL)
    return FALSE;
  /* The load's callback may drop the caller's last reference. */
  hold = g_object_ref (self);
  if (load_cancelled_now (self))
    {
      set_flag (self, &self->cancelled, TRUE, PROP_CANCELLED);
      end_delivery (self);
      return_load (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              _ ("The scan was cancelled")));
      return FALSE;
    }
  if (!(batch = ovi_delivery_pop (self->delivery)))
    return FALSE;
  if ((batch->kind == OVI_BATCH_FILES || batch->kind == OVI_BATCH_SUMMARIES) &&
      batch->files->len > MAX (max_items, 1))
    {
      OviBatch *rest = g_steal_pointer (&batch);

      batch = ovi_batch_split (rest, MAX (max_items, 1));
      ovi_delivery_push_front (self->delivery, rest);
    }
  switch (batch->kind)
    {
    case OVI_BATCH_LISTED:
      ovi_dump_folder_notify_progress (self);
      return_load (self, g_steal_pointer (&batch->error));
      break;
    case OVI_BATCH_ANALYZED:
      if (self->cancel_handler)
        g_cancellable_disconnect (self->cancellable, self->cancel_handler);
      self->cancel_handler = 0;
      set_flag (self, &self->analyzing, FALSE, PROP_ANALYZING);
      ovi_dump_folder_notify_progress (self);
      break;
    default:
      ovi_dump_folder_apply_batch (self, batch);
    }
  return self->delivery != NULL && ovi_delivery_pending (self->delivery);
}

/* On the load's main context: results wait. */
static void
results_ready (gpointer data)
{
  OviDumpFolder *self = data;

  /* A cancelled load ends now, at whatever pace the caller takes results:
   * nothing queued is applied, and the load returns. */
  if (load_cancelled_now (self))
    ovi_dump_folder_apply_results (self, 0);
  else if (self->paced)
    g_signal_emit (self, signals[RESULTS_WAITING], 0);
  else
    while (ovi_dump_folder_apply_results (self, G_MAXUINT))
      ;
}

static void
ensure_delivery (OviDumpFolder *self)
{
  g_autoptr (GMainContext) context = NULL;

  if (self->delivery)
    return;
  context = g_main_context_ref_thread_default ();
  self->delivery = ovi_delivery_new (context, results_ready, self, (GDestroyNotify) ovi_batch_free);
}

/* A followed folder's files, for the caller to take in at its pace. */
void
ovi_dump_folder_hand_over (OviDumpFolder *self, OviBatch *batch)
{
  ensure_delivery (self);
  ovi_delivery_push (self->delivery, batch);
}

/* How often a scan tells how far it got, at most. */
#define PROGRESS_INTERVAL_US (100 * 1000)

static void
emit_async (OviScan *scan, OviBatch *batch)
{
  ovi_delivery_push (scan->emit_data, batch);
}

/* The scan's own task; the caller's task is returned by the listing's
 * last batch. */
static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OviDumpFolder *self = source;
  OviDelivery *delivery = task_data;
  OviScan scan = { .self = self,
                   .cancellable = cancellable,
                   .emit = emit_async,
                   .emit_data = delivery,
                   .progress_interval_us = PROGRESS_INTERVAL_US };
  OviBatch *listed = ovi_batch_new (OVI_BATCH_LISTED);
  gboolean ok;

  scan.progress_at = g_get_monotonic_time ();
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_atomic_int_get (&self->analyze))
    scan.ops = g_ptr_array_new_with_free_func (g_object_unref);
  ok = ovi_scan_root (&scan, &listed->error);
  ovi_dump_folder_keep_read_dirs (self, scan.visited);
  ovi_delivery_push (delivery, listed);
  if (ok && scan.ops)
    ovi_scan_summarize_all (&scan);
  g_clear_pointer (&scan.ops, g_ptr_array_unref);
  if (!g_cancellable_is_cancelled (cancellable))
    ovi_delivery_push (delivery, ovi_batch_new (OVI_BATCH_ANALYZED));
  g_task_return_boolean (task, TRUE);
}

/* Any thread, when the load is cancelled: the caller hears of it, and its
 * next ovi_dump_folder_apply_results() drops what waits and returns the load. */
static void
load_cancelled (GCancellable *cancellable, gpointer data)
{
  ovi_delivery_wake (data);
}

/**
 * ovi_dump_folder_load_async:
 *
 * Scans on the worker pool. The list models fill on the calling thread's
 * main context while the scan runs (at the caller's pace with
 * #OviDumpFolder:paced), and the progress properties are notified as it
 * goes. When #OviDumpFolder:analyze is set, every operator is then
 * summarized and the files' summary properties are notified, while
 * #OviDumpFolder:analyzing is %TRUE. Cancelling @cancellable stops both and
 * drops the results not yet applied.
 */
void
ovi_dump_folder_load_async (OviDumpFolder *self,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_autoptr (GTask) scan = NULL;

  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  g_return_if_fail (!self->loading);

  if (self->delivery)
    ovi_delivery_close (self->delivery);
  g_clear_pointer (&self->delivery, ovi_delivery_unref);
  reset (self);
  set_flag (self, &self->loading, TRUE, PROP_LOADING);
  set_flag (self, &self->analyzing, self->analyze, PROP_ANALYZING);
  ovi_dump_folder_notify_progress (self);
  g_clear_object (&self->cancellable);
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();

  ensure_delivery (self);
  self->cancel_handler = g_cancellable_connect (self->cancellable, G_CALLBACK (load_cancelled),
                                                ovi_delivery_ref (self->delivery),
                                                (GDestroyNotify) ovi_delivery_unref);

  self->load_task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->load_task, ovi_dump_folder_load_async);
  scan = g_task_new (self, self->cancellable, NULL, NULL);
  g_task_set_task_data (scan, ovi_delivery_ref (self->delivery),
                        (GDestroyNotify) ovi_delivery_unref);
  ovi_worker_run_in_thread (scan, load_thread);
}

/* The callback runs once every batch of the listing is in the stores;
 * summaries may still be arriving (#OviDumpFolder:analyzing). */
gboolean
ovi_dump_folder_load_finish (OviDumpFolder *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  ovi_dump_folder_notify_progress (self);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * ovi_dump_folder_set_paced:
 *
 * See #OviDumpFolder:paced.
 */
void
ovi_dump_folder_set_paced (OviDumpFolder *self, gboolean paced)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  set_flag (self, &self->paced, !!paced, PROP_PACED);
}

/* Whether files of a pass are still waiting to be added to the list: the
 * next pass waits for them, so that it sees the list as it will be. */
gboolean
ovi_dump_folder_get_delivering (OviDumpFolder *self)
{
  return self->delivery != NULL && ovi_delivery_pending (self->delivery);
}

/**
 * ovi_dump_folder_set_analyze:
 *
 * Whether a load also summarizes every operator (reads every tensor):
 * the window sets it, `report --records-only` does not.
 */
void
ovi_dump_folder_set_analyze (OviDumpFolder *self, gboolean analyze)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  set_flag (self, &self->analyze, !!analyze, PROP_ANALYZE);
}

/**
 * ovi_dump_folder_set_data_records:
 *
 * Whether a load reads the operators of an iteration that has no overflow
 * file, to find the records its data shows (set by default). `convert`
 * needs the files only, and unsets it: reading every tensor of such a
 * folder was most of its listing.
 */
void
ovi_dump_folder_set_data_records (OviDumpFolder *self, gboolean data_records)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  set_flag (self, &self->data_records, !!data_records, PROP_DATA_RECORDS);
}

/**
 * ovi_dump_folder_set_keep_small_files:
 *
 * Whether a load keeps each small dump file's bytes from the read of its
 * header, for its summary to take without opening it again (set by
 * default). The diff makes no summaries, and unsets it: both runs' bytes
 * raised its peak memory (#39).
 */
void
ovi_dump_folder_set_keep_small_files (OviDumpFolder *self, gboolean keep)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  self->keep_small = !!keep;
}

gboolean
ovi_dump_folder_get_analyzing (OviDumpFolder *self)
{
  return self->analyzing;
}

gboolean
ovi_dump_folder_get_cancelled (OviDumpFolder *self)
{
  return self->cancelled;
}

GListModel *
ovi_dump_folder_get_files (OviDumpFolder *self)
{
  return G_LIST_MODEL (self->files);
}

GListModel *
ovi_dump_folder_get_records (OviDumpFolder *self)
{
  return G_LIST_MODEL (self->records);
}

GListModel *
ovi_dump_folder_get_problems (OviDumpFolder *self)
{
  return G_LIST_MODEL (self->problems);
}

void
ovi_dump_folder_get_progress (OviDumpFolder *self, OviScanProgress *progress)
{
  progress->files_seen = self->files_seen;
  progress->dump_files = self->dump_files;
  progress->overflow_records = self->overflow_records;
  progress->problems = self->n_problems;
  progress->operators = g_atomic_pointer_get (&self->n_operators);
  progress->summarized = self->summarized;
}

gboolean
ovi_dump_folder_get_loading (OviDumpFolder *self)
{
  return self->loading;
}

/* Counts the entries a pass saw, for the progress properties: @before is
 * what the previous pass over the same folder saw. */
void
ovi_dump_folder_count_seen (OviDumpFolder *self, guint before, guint now)
{
  self->files_seen += now;
  self->files_seen -= MIN (self->files_seen, before);
  ovi_dump_folder_notify_progress (self);
}
