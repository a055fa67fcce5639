/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-classifier.h"
#include "ovi-dump-file-private.h"
#include "ovi-dump-folder-private.h"
#include "ovi-error.h"
#include "ovi-level-private.h"
#include "ovi-mapping-csv.h"
#include "ovi-path.h"
#include "ovi-regular-file.h"
#include "ovi-scan.h"
#include "ovi-statistic-csv.h"
#include "ovi-worker.h"

/* The scan: every folder below a root, read on the calling thread (the
 * headers of a folder's files on the worker pool), handed over folder by
 * folder through the scan's emit function. */

static void
add_problem (OviScan *scan, OviBatch *batch, const char *relative_path, const GError *error)
{
  g_autofree char *display = g_filename_display_name (relative_path);
  g_ptr_array_add (batch->problems, ovi_problem_new (display, error));
  g_atomic_pointer_add (&scan->self->n_problems, 1);
}

/* g_build_filename (@dir, @name) for an entry's @name, at a fraction of
 * its cost: it runs a few times for every file listed. */
static char *
join_path (const char *dir, const char *name)
{
  gsize n = strlen (dir), k = n, length = strlen (name);
  char *out;

  while (k > 0 && dir[k - 1] == '/')
    k--;
  if (n == 0)
    return g_strdup (name);
  if (k == 0) /* "/" */
    return g_strconcat (dir, name, NULL);
  out = g_malloc (k + 1 + length + 1);
  memcpy (out, dir, k);
  out[k] = '/';
  memcpy (out + k + 1, name, length + 1);
  return out;
}

static char *
join_relative (const char *dir, const char *name)
{
  return join_path (dir, name);
}

static gboolean
is_below (const char *path, const char *folder)
{
  gsize n = strlen (folder);

  return g_str_equal (folder, "/") ||
         (strncmp (path, folder, n) == 0 && (path[n] == '\0' || path[n] == '/'));
}

/* Where a scan never goes, whatever folder is opened: reading there walks
 * the whole machine (/proc/PID/cwd) or blocks on a device. */
static const char *const system_folders[] = { "/proc", "/sys", "/dev" };

/* Whether the scan follows the symbolic link @name of the folder @path: only
 * when it leads to a place inside the opened folder (any of its roots), and
 * never into /proc, /sys or /dev. A link that is not followed is a problem
 * of @batch saying where it points. A link that leads nowhere (missing
 * target, loop) is left to the caller, which says so when it is named like
 * dump data. */
static gboolean
link_stays_inside (
    OviScan *scan, OviBatch *batch, const char *path, const char *name, const char *relative_dir)
{
  OviDumpFolder *self = scan->self;
  g_autofree char *full = g_build_filename (path, name, NULL);
  g_autofree char *real = realpath (full, NULL);
  g_autofree char *target = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *relative = NULL;
  g_autoptr (GError) error = NULL;
  guint n_roots = self->roots ? self->roots->len : 1;

  if (real == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (system_folders); i++)
    if (is_below (real, system_folders[i]))
      {
        target = g_file_read_link (full, NULL);
        shown = g_filename_display_name (target ? target : real);
        error = g_error_new (OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_LINK_SKIPPED,
                             _ ("a symbolic link to “%s”, in %s: not followed"), shown,
                             system_folders[i]);
        break;
      }
  for (guint i = 0; error == NULL && i < n_roots; i++)
    {
      g_autofree char *root =
          self->roots ? realpath (self->root_paths[i], NULL) : g_strdup (self->root_real);

      if (root && scan->root_is_file)
        {
          char *dir = g_path_get_dirname (root);
          g_free (root);
          root = dir;
        }
      if (root && is_below (real, root))
        return TRUE;
    }
  if (error == NULL)
    {
      target = g_file_read_link (full, NULL);
      shown = g_filename_display_name (target ? target : real);
      error = g_error_new (OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_LINK_SKIPPED,
                           _ ("a symbolic link to “%s”, outside the opened folder: not followed"),
                           shown);
    }
  relative = join_relative (relative_dir, name);
  add_problem (scan, batch, relative, error);
  return FALSE;
}

/* Whether @dir lists @name: for a folder that can be listed but not
 * entered, where lstat() says EACCES of every name, listed or not. */
static gboolean
is_listed (const char *dir, const char *name)
{
  DIR *listing = opendir (dir);
  struct dirent *ent;
  gboolean found = FALSE;

  while (listing && !found && (ent = readdir (listing)))
    found = g_str_equal (ent->d_name, name);
  if (listing)
    closedir (listing);
  return found;
}

/* The folder's mapping.csv, NULL when it has none; one that cannot be
 * read (a FIFO would block the scan for good) is a problem of @batch. */
static GHashTable *
read_mapping (OviScan *scan, OviBatch *batch, const char *dir, const char *relative_dir)
{
  g_autofree char *path = g_build_filename (dir, "mapping.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  struct stat st;
  gsize length;

  if (lstat (path, &st) != 0 && (errno == ENOENT || !is_listed (dir, "mapping.csv")))
    return NULL;
  if (S_ISLNK (st.st_mode) && !link_stays_inside (scan, batch, dir, "mapping.csv", relative_dir))
    return NULL;
  if (!ovi_regular_file_read (AT_FDCWD, path, &contents, &length, &error))
    {
      g_autofree char *relative = join_relative (relative_dir, "mapping.csv");
      add_problem (scan, batch, relative, error);
      return NULL;
    }
  return ovi_mapping_csv_parse (contents, length);
}

/* One entry of a folder whose name is a dump name, and what loading it gave. */
typedef struct
{
  char *entry;
  const char *original; /* from mapping.csv, owned by the mapping */
  OviDumpFile *file;
  GError *error;
  char *shown;        /* the file on disk when it is not @entry (statistic.csv) */
  gboolean kept;      /* @file is the one loaded before (a followed folder) */
  OviFileName parsed; /* the name's fields, until the file takes them */
} Candidate;

static void
candidate_clear (Candidate *c)
{
  g_free (c->entry);
  g_free (c->shown);
  g_clear_object (&c->file);
  g_clear_error (&c->error);
  ovi_file_name_clear (&c->parsed);
}

typedef struct
{
  OviScan *scan;
  int dirfd;
  const char *path;
  GArray *candidates;
} LoadJob;

static void
load_candidate (guint i, gpointer data)
{
  LoadJob *job = data;
  Candidate *c = &g_array_index (job->candidates, Candidate, i);
  if (c->file || c->error) /* read already, as statistics */
    return;
  /* Every candidate was a regular file when the folder was listed. */
  c->file = ovi_dump_file_load_at (job->dirfd, c->entry, join_path (job->path, c->entry),
                                   c->original, c->parsed.op_type ? &c->parsed : NULL,
                                   job->dirfd != AT_FDCWD, job->scan->self->keep_small, &c->error);
  if (c->file)
    g_atomic_pointer_add (&job->scan->self->dump_files, 1);
}

/* Reads the headers of a folder's dump files, on the worker pool when there
 * are enough of them to be worth it. */
static void
load_all (OviScan *scan, int dirfd, const char *path, GArray *candidates, gboolean alone)
{
  LoadJob job = { scan, dirfd, path, candidates };

  if (alone && candidates->len >= 64)
    ovi_parallel_for (candidates->len, load_candidate, &job, scan->cancellable);
  else
    for (guint i = 0; i < candidates->len && !g_cancellable_is_cancelled (scan->cancellable); i++)
      load_candidate (i, &job);
}

/* Loads the candidates into @batch in name order; the hierarchy is the same
 * for every file of a folder, so it is worked out once. */
static void
collect (OviScan *scan, OviBatch *batch, GArray *candidates, const char *relative_dir)
{
  OviDumpFile *first = NULL;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      g_autofree char *relative = join_relative (relative_dir, c->shown ? c->shown : c->entry);

      if (c->file == NULL)
        {
          if (c->error)
            add_problem (scan, batch, relative, c->error);
          if (c->error && scan->level)
            ovi_level_note_broken (scan->level, c->entry);
          continue;
        }
      if (c->kept)
        ; /* shown already: placed once and for all */
      else if (first == NULL)
        ovi_dump_file_set_location (c->file, relative);
      else
        ovi_dump_file_set_location_like (c->file, relative, first);
      if (!c->kept)
        ovi_dump_file_set_root (c->file, scan->root, scan->root_prefix);
      if (first == NULL)
        first = c->file;
      g_ptr_array_add (batch->files, g_steal_pointer (&c->file));
    }
}

/* Whether @name (or what mapping.csv says it stands for) is a dump name;
 * anything else in a folder is ignored. */
static gboolean
is_candidate (const char *name, GHashTable *mapping, const char **original, OviFileName *parsed)
{
  OviFileName fields;

  *original = mapping ? g_hash_table_lookup (mapping, name) : NULL;
  if (!ovi_file_name_parse (*original ? *original : name, parsed ? parsed : &fields))
    return FALSE;
  if (!parsed)
    ovi_file_name_clear (&fields);
  return TRUE;
}

/* Whether the folder's entry @name would be read if it were a file. */
static gboolean
names_dump_data (const char *name, GHashTable *mapping)
{
  const char *original;

  return is_candidate (name, mapping, &original, NULL) || ovi_statistic_is_csv_name (name, NULL) ||
         g_ascii_strcasecmp (name, "statistic.csv") == 0;
}

/* What makes two descriptions the same operator execution: one tensor
 * must not appear twice when a folder holds both its data and its
 * statistics. */
static char *
identity_key (const char *op_type, guint64 task, guint64 stream, guint64 timestamp)
{
  return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT,
                          op_type, task, stream, timestamp);
}

static char *
name_identity_key (const OviFileName *n)
{
  if (n->has_context)
    {
      g_autofree char *base = identity_key (n->op_type, n->task_id, n->stream_id, n->timestamp);
      return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT, base, n->context_id,
                              n->thread_id);
    }
  return identity_key (n->op_type, n->task_id, n->stream_id, n->timestamp);
}

/* The runtime's file-name rule (dump-format.md section 2). */
static char *
name_part (const char *s)
{
  char *out = g_strdup (s);
  for (char *p = out; *p; p++)
    if (*p == '.' || *p == '/' || *p == '\\' || *p == ' ')
      *p = '_';
  return out;
}

static OviStatisticCsv *
read_statistics (OviScan *scan, OviBatch *batch, const char *path, const char *relative)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  OviStatisticCsv *csv;
  gsize length = 0;

  if (!ovi_regular_file_read (AT_FDCWD, path, &contents, &length, &error))
    {
      add_problem (scan, batch, relative, error);
      return NULL;
    }
  csv = ovi_statistic_csv_parse (contents, length);
  for (guint i = 0; i < csv->errors->len; i++)
    {
      g_autofree char *display = g_filename_display_name (relative);
      g_ptr_array_add (batch->problems,
                       ovi_problem_new_at_line (display, g_array_index (csv->lines, guint, i),
                                                g_ptr_array_index (csv->errors, i)));
      g_atomic_pointer_add (&scan->self->n_problems, 1);
    }
  return csv;
}

static gsize
file_size_of (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 ? (gsize) st.st_size : 0;
}

/* Statistics-mode dumps: every "{op dump name}.csv" and the rows of
 * statistic.csv become op dump files whose tensors carry statistics, added
 * to @candidates, unless the folder holds the operator's data already. */
static void
add_statistics (OviScan *scan,
                OviBatch *batch,
                const char *path,
                const char *relative_dir,
                GArray *candidates,
                GPtrArray *csv_entries,
                const char *folder_csv)
{
  g_autoptr (GHashTable) known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      if (c->file && ovi_dump_file_get_kind (c->file) == OVI_FILE_KIND_OP_DUMP)
        g_hash_table_add (known, name_identity_key (ovi_dump_file_get_file_name (c->file)));
    }

  for (guint i = 0; i < csv_entries->len; i++)
    {
      const char *entry = g_ptr_array_index (csv_entries, i);
      g_autofree char *full = g_build_filename (path, entry, NULL);
      g_autofree char *relative = join_relative (relative_dir, entry);
      g_autofree char *name = NULL;
      g_autoptr (OviStatisticCsv) csv = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      OviFileName parsed;
      char *key;

      if (!ovi_statistic_is_csv_name (entry, &name) || !ovi_file_name_parse (name, &parsed))
        continue;
      key = name_identity_key (&parsed);
      ovi_file_name_clear (&parsed);
      if (g_hash_table_contains (known, key))
        {
          g_free (key);
          continue;
        }
      g_hash_table_add (known, key);
      if (!(csv = read_statistics (scan, batch, full, relative)) || csv->rows->len == 0)
        continue;
      file = ovi_dump_file_new_statistics (full, name, NULL, file_size_of (full),
                                           g_steal_pointer (&csv->rows));
      csv->rows = g_ptr_array_new ();
      {
        Candidate c = { g_strdup (entry), NULL, g_steal_pointer (&file), NULL, NULL };
        g_array_append_val (candidates, c);
        g_atomic_pointer_add (&scan->self->dump_files, 1);
      }
    }

  if (folder_csv)
    {
      g_autofree char *full = g_build_filename (path, folder_csv, NULL);
      g_autofree char *relative = join_relative (relative_dir, folder_csv);
      g_autoptr (OviStatisticCsv) csv = read_statistics (scan, batch, full, relative);
      g_autoptr (GHashTable) groups = NULL;
      g_autoptr (GPtrArray) order = NULL;
      gboolean reported = FALSE;
      gsize size = file_size_of (full);

      if (csv == NULL)
        return;
      /* Operators in the order the file first names them. */
      groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) g_ptr_array_unref);
      order = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_set_free_func (csv->rows, NULL);
      for (guint i = 0; i < csv->rows->len; i++)
        {
          OviStatisticRow *row = g_ptr_array_index (csv->rows, i);
          g_autofree char *type = NULL;
          g_autofree char *op = NULL;
          char *name;
          GPtrArray *group;

          if (!row->has_op)
            {
              if (!reported)
                {
                  g_autofree char *display = g_filename_display_name (relative);
                  g_autoptr (GError) error =
                      g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_MISSING_COLUMN,
                                   _ ("line %u: statistic.csv names no operator (Op Type and "
                                      "Op Name columns)"),
                                   row->line);
                  g_ptr_array_add (batch->problems,
                                   ovi_problem_new_at_line (display, row->line, error));
                  g_atomic_pointer_add (&scan->self->n_problems, 1);
                  reported = TRUE;
                }
              ovi_statistic_row_free (row);
              continue;
            }
          type = name_part (row->op_type);
          op = name_part (row->op_name);
          name = g_strdup_printf ("%s.%s.%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT
                                  ".%" G_GUINT64_FORMAT,
                                  type, op, row->task_id, row->stream_id, row->timestamp);
          if (!(group = g_hash_table_lookup (groups, name)))
            {
              group = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_statistic_row_free);
              g_hash_table_insert (groups, g_strdup (name), group);
              g_ptr_array_add (order, g_strdup (name));
            }
          g_ptr_array_add (group, row);
          g_free (name);
        }
      for (guint i = 0; i < order->len; i++)
        {
          const char *name = g_ptr_array_index (order, i);
          GPtrArray *group = NULL;
          g_autofree char *stolen_name = NULL;
          g_autofree char *key = NULL;
          OviStatisticRow *first;
          OviDumpFile *file;

          g_hash_table_steal_extended (groups, name, (gpointer *) &stolen_name,
                                       (gpointer *) &group);
          first = g_ptr_array_index (group, 0);
          {
            g_autofree char *type = name_part (first->op_type);
            key = identity_key (type, first->task_id, first->stream_id, first->timestamp);
          }
          if (g_hash_table_contains (known, key))
            {
              g_ptr_array_unref (group);
              continue;
            }
          g_hash_table_add (known, g_steal_pointer (&key));
          file = ovi_dump_file_new_statistics (full, name, first->op_name, size, group);
          {
            Candidate c = { g_strdup (name), NULL, file, NULL, g_strdup (folder_csv) };
            g_array_append_val (candidates, c);
            g_atomic_pointer_add (&scan->self->dump_files, 1);
          }
        }
    }
}

/* FFTS+ thread slices of one execution (same op type, op name, task,
 * stream and context id) become one operator, in the place of its first
 * slice, so the operator list and blame see the execution whole. */
static void
group_slices (OviBatch *batch)
{
  g_autoptr (GHashTable) groups =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) files = NULL;
  gboolean any = FALSE;

  for (guint i = 0; i < batch->files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (batch->files, i);
      const OviFileName *n = ovi_dump_file_get_file_name (f);
      g_autofree char *key = NULL;
      GPtrArray *group;

      if (n->kind != OVI_FILE_KIND_OP_DUMP || !n->has_context)
        continue;
      key = g_strdup_printf ("%s|%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT,
                             n->op_type, n->op_name, n->task_id, n->stream_id, n->context_id);
      if (!(group = g_hash_table_lookup (groups, key)))
        {
          group = g_ptr_array_new ();
          g_hash_table_insert (groups, g_steal_pointer (&key), group);
        }
      g_ptr_array_add (group, f);
      any |= group->len > 1;
    }
  if (!any)
    return;

  files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < batch->files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (batch->files, i);
      const OviFileName *n = ovi_dump_file_get_file_name (f);
      g_autofree char *key = NULL;
      GPtrArray *group = NULL;

      if (n->kind == OVI_FILE_KIND_OP_DUMP && n->has_context)
        {
          key = g_strdup_printf ("%s|%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT
                                 "|%" G_GUINT64_FORMAT,
                                 n->op_type, n->op_name, n->task_id, n->stream_id, n->context_id);
          group = g_hash_table_lookup (groups, key);
        }
      if (group == NULL || group->len < 2)
        g_ptr_array_add (files, g_object_ref (f));
      else if (g_ptr_array_index (group, 0) == f)
        g_ptr_array_add (files, ovi_dump_file_new_group (group));
    }
  g_ptr_array_unref (batch->files);
  batch->files = g_steal_pointer (&files);
}

static gboolean
all_linked (GPtrArray *records)
{
  for (guint i = 0; i < records->len; i++)
    if (ovi_overflow_record_get_op (g_ptr_array_index (records, i)) == NULL)
      return FALSE;
  return TRUE;
}

/* Decodes the overflow files of one folder and links each record to the op
 * dump file of the operator that overflowed. */
static void
decode_overflows (OviScan *scan, OviBatch *batch)
{
  for (guint i = 0; i < batch->files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (batch->files, i);
      g_autoptr (GPtrArray) records = NULL;
      g_autoptr (GError) error = NULL;

      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OVERFLOW)
        continue;
      /* A followed folder's records shown already stay the same objects;
       * only their link may change, as op dump files arrive. */
      if (scan->level && (records = ovi_level_lookup_records (scan->level, file)))
        {
          for (guint j = 0; j < records->len; j++)
            {
              OviOverflowRecord *record = g_ptr_array_index (records, j);
              OviDumpFile *op = ovi_overflow_match_op (record, batch->files);

              if (op != ovi_overflow_record_get_op (record))
                ovi_level_relink (scan->level, record, op);
              g_ptr_array_add (batch->records, g_object_ref (record));
            }
          records = NULL; /* borrowed */
          continue;
        }
      if (!(records = ovi_overflow_record_decode_file (file, &error)))
        {
          add_problem (scan, batch, ovi_dump_file_get_relative_path (file), error);
          if (scan->level)
            {
              g_autofree char *entry = g_path_get_basename (ovi_dump_file_get_path (file));
              ovi_level_note_broken (scan->level, entry);
            }
          continue;
        }
      for (guint j = 0; j < records->len; j++)
        {
          OviOverflowRecord *record = g_ptr_array_index (records, j);
          ovi_overflow_record_set_op (record, ovi_overflow_match_op (record, batch->files));
        }
      /* In a followed folder, a record whose operator is not there yet
       * while files are still being written waits for them: it is shown
       * once, with its operator. */
      if (scan->level && !all_linked (records) && ovi_level_hold_back (scan->level))
        continue;
      for (guint j = 0; j < records->len; j++)
        {
          g_ptr_array_add (batch->records, g_object_ref (g_ptr_array_index (records, j)));
          g_atomic_pointer_add (&scan->self->overflow_records, 1);
        }
    }
}

/* A folder with no Opdebug file (Ascend 950 / Atlas 350 in Inf/NaN mode,
 * or a saturation-mode card): the operators whose inputs are finite and
 * whose outputs are not are where overflows start, so each is a record;
 * the earliest that is not ignored is the first overflow. Classifying reads
 * the tensors (statistics-mode operators have their counts already), so
 * the folder's files are delivered first and its records after. */
static OviBatch *
find_data_records (OviScan *scan, GPtrArray *files)
{
  OviBatch *batch;
  gboolean has_ops = FALSE;
  /* In a followed folder, an operator's overflow file comes after its
   * data: records are looked for in the data only once the folder has been
   * left alone for a while, or they would come and go. */
  gboolean settled = TRUE;

  for (guint i = 0; i < files->len; i++)
    {
      OviFileKind kind = ovi_dump_file_get_kind (g_ptr_array_index (files, i));
      if (kind == OVI_FILE_KIND_OVERFLOW)
        return NULL;
      has_ops |= kind == OVI_FILE_KIND_OP_DUMP;
    }
  if (!has_ops || !scan->self->data_records)
    return NULL;
  if (scan->level)
    settled = ovi_level_is_settled (scan->level);
  batch = ovi_batch_new (OVI_BATCH_FILES);
  for (guint i = 0; i < files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (files, i);
      GPtrArray *shown;

      if (g_cancellable_is_cancelled (scan->cancellable))
        break;
      if (scan->level && (shown = ovi_level_lookup_records (scan->level, file)))
        {
          for (guint j = 0; j < shown->len; j++)
            g_ptr_array_add (batch->records, g_object_ref (g_ptr_array_index (shown, j)));
          continue;
        }
      if (!settled || ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP ||
          ovi_classifier_classify (file) != OVI_BLAME_ORIGIN)
        continue;
      g_ptr_array_add (batch->records, ovi_overflow_record_new_from_data (file));
      g_atomic_pointer_add (&scan->self->overflow_records, 1);
    }
  if (batch->records->len)
    return batch;
  ovi_batch_free (batch);
  return NULL;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return ovi_path_natural_compare (*(const char *const *) a, *(const char *const *) b);
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  return ovi_path_natural_compare (((const Candidate *) a)->entry, ((const Candidate *) b)->entry);
}

static gboolean
enter_once (OviScan *scan, dev_t dev, ino_t ino)
{
  char *key = g_strdup_printf ("%lu:%lu", (gulong) dev, (gulong) ino);

  if (g_hash_table_contains (scan->visited, key))
    {
      g_free (key);
      return FALSE;
    }
  g_hash_table_add (scan->visited, key);
  return TRUE;
}

/* A folder entry to go into, with what makes it the same folder. */
typedef struct
{
  char *name;
  dev_t dev;
  ino_t ino;
} Subdir;

static void
subdir_clear (Subdir *d)
{
  g_free (d->name);
}

static int
compare_subdirs (gconstpointer a, gconstpointer b)
{
  return ovi_path_natural_compare (((const Subdir *) a)->name, ((const Subdir *) b)->name);
}

/* One folder read, its results not handed over yet: several are read at
 * once on the worker pool, then handed over in order. */
typedef struct
{
  OviScan *scan;
  char *path;
  char *relative_dir;
  gboolean alone;    /* read on the scanning thread, the only one read now */
  OviBatch *batch;   /* its files, records and problems; NULL when gone */
  OviBatch *records; /* records found in the data, or NULL */
  GArray *subdirs;   /* Subdir, in name order */
  gboolean cancelled;
} Folder;

static void
folder_clear (Folder *f)
{
  g_free (f->path);
  g_free (f->relative_dir);
  g_clear_pointer (&f->batch, ovi_batch_free);
  g_clear_pointer (&f->records, ovi_batch_free);
  g_clear_pointer (&f->subdirs, g_array_unref);
}

/* Lists and reads one folder into @f. Touches nothing shared but the
 * scan's atomic counters (and a followed folder's level, read alone). */
static void
read_folder (OviScan *scan, Folder *f)
{
  const char *path = f->path, *relative_dir = f->relative_dir;
  g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_autoptr (GHashTable) mapping = NULL;
  g_autoptr (GPtrArray) csv_entries = g_ptr_array_new_with_free_func (g_free);
  /* Named like dump data, not regular files: listed with their reason. */
  g_autoptr (GPtrArray) unreadable = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folder_csv = NULL;
  OviBatch *batch = ovi_batch_new (OVI_BATCH_FILES);
  struct stat st;
  struct dirent *ent;
  DIR *dir;

  f->subdirs = g_array_new (FALSE, FALSE, sizeof (Subdir));
  g_array_set_clear_func (f->subdirs, (GDestroyNotify) subdir_clear);
  g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
  if (!(dir = opendir (path)))
    {
      int errsv = errno;
      g_autoptr (GError) dir_error = NULL;

      if (scan->level && errsv == ENOENT)
        {
          ovi_level_set_gone (scan->level);
          ovi_batch_free (batch);
          return;
        }
      dir_error = g_error_new (OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
                               _ ("cannot read the folder: %s"), g_strerror (errsv));
      add_problem (scan, batch, *relative_dir ? relative_dir : ".", dir_error);
      f->batch = batch;
      return;
    }
  mapping = read_mapping (scan, batch, path, relative_dir);

  while ((ent = readdir (dir)))
    {
      const char *name = ent->d_name;
      const char *original;
      OviFileName parsed;
      gboolean is_dir = ent->d_type == DT_DIR, is_file = ent->d_type == DT_REG;

      if (g_str_equal (name, ".") || g_str_equal (name, ".."))
        continue;
      if (g_cancellable_is_cancelled (scan->cancellable))
        {
          closedir (dir);
          ovi_batch_free (batch);
          f->cancelled = TRUE;
          return;
        }
      /* A symbolic link is followed only within the opened folder. */
      if ((ent->d_type == DT_LNK || ent->d_type == DT_UNKNOWN) &&
          fstatat (dirfd (dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK (st.st_mode) &&
          !link_stays_inside (scan, batch, path, name, relative_dir))
        continue;
      /* Symlinks and file systems without d_type need a stat, which follows
       * links; folder loops are cut by the visited set, when the folder's
       * results are handed over. */
      if (is_dir || (!is_file && ent->d_type != DT_FIFO && ent->d_type != DT_SOCK &&
                     ent->d_type != DT_CHR && ent->d_type != DT_BLK))
        {
          gboolean found = fstatat (dirfd (dir), name, &st, 0) == 0;

          is_dir = found && S_ISDIR (st.st_mode);
          is_file = found && S_ISREG (st.st_mode);
          if (is_dir)
            {
              Subdir d = { g_strdup (name), st.st_dev, st.st_ino };
              g_array_append_val (f->subdirs, d);
            }
        }
      if (!is_file)
        {
          /* Named like a dump file but not one that can be read (a FIFO, a
           * socket, a device, a dangling or looping link): said why. An
           * entry removed since it was listed is just gone. */
          if (!is_dir && names_dump_data (name, mapping))
            g_ptr_array_add (unreadable, g_strdup (name));
          continue;
        }
      if ((g_atomic_pointer_add (&scan->self->files_seen, 1) & 1023) == 0 && f->alone)
        ovi_scan_post_progress (scan);
      if (is_candidate (name, mapping, &original, &parsed))
        {
          Candidate c = { g_strdup (name), original, NULL, NULL, NULL, FALSE, parsed };

          if (scan->level && !ovi_level_admits (scan->level, dirfd (dir), name, &c.file))
            {
              g_free (c.entry);
              ovi_file_name_clear (&c.parsed);
              continue;
            }
          c.kept = c.file != NULL;
          g_array_append_val (candidates, c);
        }
      else if (scan->level && (ovi_statistic_is_csv_name (name, NULL) ||
                               g_ascii_strcasecmp (name, "statistic.csv") == 0))
        {
          OviDumpFile *none = NULL;

          /* Statistics are read again whenever their folder changes. */
          if (!ovi_level_admits (scan->level, dirfd (dir), name, &none))
            continue;
          if (ovi_statistic_is_csv_name (name, NULL))
            g_ptr_array_add (csv_entries, g_strdup (name));
          else if (folder_csv == NULL)
            folder_csv = g_strdup (name);
        }
      else if (ovi_statistic_is_csv_name (name, NULL))
        g_ptr_array_add (csv_entries, g_strdup (name));
      else if (g_ascii_strcasecmp (name, "statistic.csv") == 0 && folder_csv == NULL)
        folder_csv = g_strdup (name);
    }

  g_ptr_array_sort (unreadable, compare_names);
  for (guint i = 0; i < unreadable->len; i++)
    {
      const char *name = g_ptr_array_index (unreadable, i);
      g_autoptr (GError) why = NULL;

      if (fstatat (dirfd (dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          !ovi_regular_file_check (dirfd (dir), name, NULL, &why))
        {
          g_autofree char *relative = join_relative (relative_dir, name);
          add_problem (scan, batch, relative, why);
        }
    }
  g_array_sort (candidates, compare_candidates);
  load_all (scan, dirfd (dir), path, candidates, f->alone);
  closedir (dir);
  if (g_cancellable_is_cancelled (scan->cancellable))
    {
      ovi_batch_free (batch);
      f->cancelled = TRUE;
      return;
    }
  if (csv_entries->len || folder_csv)
    {
      g_ptr_array_sort (csv_entries, compare_names);
      add_statistics (scan, batch, path, *relative_dir ? relative_dir : "", candidates, csv_entries,
                      folder_csv);
      g_array_sort (candidates, compare_candidates);
    }
  collect (scan, batch, candidates, relative_dir);
  group_slices (batch);
  decode_overflows (scan, batch);
  f->records = find_data_records (scan, batch->files);
  f->batch = batch;
  g_array_sort (f->subdirs, compare_subdirs);
}

static void
read_folder_at (guint i, gpointer data)
{
  Folder *folders = data;
  read_folder (folders[i].scan, &folders[i]);
}

/* How many sibling folders are read at once, ahead of handing them over,
 * when there are at least READ_TOGETHER of them (fewer are read one by one,
 * each folder's headers on the pool when it has many files). */
#define READ_AHEAD 16
#define READ_TOGETHER 8

static gboolean scan_subdirs (OviScan *scan, Folder *parent, GError **error);

/* Hands over what @f holds, then goes into its folders. */
static gboolean
emit_folder (OviScan *scan, Folder *f, GError **error)
{
  if (f->cancelled)
    return !g_cancellable_set_error_if_cancelled (scan->cancellable, error);
  if (f->batch)
    ovi_scan_emit (scan, g_steal_pointer (&f->batch));
  if (f->records)
    ovi_scan_emit (scan, g_steal_pointer (&f->records));
  return scan_subdirs (scan, f, error);
}

/* The folders in @parent, in name order, each entered once. Without a
 * followed folder's level, up to READ_AHEAD of them are read at once on
 * the worker pool (each folder's headers then on its thread alone), and
 * handed over in order: a tree of many small iteration folders keeps both
 * cores busy. */
static gboolean
scan_subdirs (OviScan *scan, Folder *parent, GError **error)
{
  g_autoptr (GArray) children = g_array_new (FALSE, TRUE, sizeof (Folder));
  gboolean ok = TRUE;

  if (parent->subdirs == NULL)
    return TRUE;
  g_array_set_clear_func (children, (GDestroyNotify) folder_clear);
  for (guint i = 0; i < parent->subdirs->len; i++)
    {
      Subdir *d = &g_array_index (parent->subdirs, Subdir, i);
      Folder child = { scan };

      if (!enter_once (scan, d->dev, d->ino))
        continue;
      child.relative_dir = join_relative (parent->relative_dir, d->name);
      if (scan->level) /* followed folder by folder */
        {
          ovi_level_add_subdir (scan->level, g_steal_pointer (&child.relative_dir));
          continue;
        }
      child.path = join_path (parent->path, d->name);
      g_array_append_val (children, child);
    }
  for (guint first = 0, n; ok && first < children->len; first += n)
    {
      Folder *some = &g_array_index (children, Folder, first);

      n = children->len < READ_TOGETHER ? 1 : MIN (READ_AHEAD, children->len - first);

      some[0].alone = n == 1;
      if (n == 1)
        read_folder (scan, &some[0]);
      else
        ovi_parallel_for (n, read_folder_at, some, scan->cancellable);
      for (guint i = 0; ok && i < n; i++)
        {
          /* A folder the cancelled loop did not get to. */
          some[i].cancelled |= some[i].batch == NULL && some[i].subdirs == NULL;
          ok = emit_folder (scan, &some[i], error);
          folder_clear (&some[i]);
          memset (&some[i], 0, sizeof some[i]);
        }
    }
  return ok;
}

gboolean
ovi_scan_dir (OviScan *scan, const char *path, const char *relative_dir, GError **error)
{
  Folder f = { scan, g_strdup (path), g_strdup (relative_dir), TRUE };
  gboolean ok;

  read_folder (scan, &f);
  ok = emit_folder (scan, &f, error);
  folder_clear (&f);
  return ok;
}

static gboolean
scan_one_root (OviScan *scan, const char *root, GError **error)
{
  struct stat st;

  if (stat (root, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND, "%s: %s", root,
                   g_strerror (saved));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      const char *name = scan->self->roots ? scan->self->root_names[scan->root] : "";

      enter_once (scan, st.st_dev, st.st_ino);
      return ovi_scan_dir (scan, root, name, error);
    }
  if (S_ISREG (st.st_mode) && scan->self->roots)
    {
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
                   _ ("%s: a file, not a folder: folders opened together must be folders"), root);
      return FALSE;
    }
  if (S_ISREG (st.st_mode))
    {
      g_autofree char *dir = g_path_get_dirname (root);
      scan->root_is_file = TRUE;
      g_autofree char *name = g_path_get_basename (root);
      g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
      OviBatch *batch = ovi_batch_new (OVI_BATCH_FILES);
      g_autoptr (GHashTable) mapping = read_mapping (scan, batch, dir, "");
      const char *original = mapping ? g_hash_table_lookup (mapping, name) : NULL;
      Candidate c = { NULL, original, NULL, NULL };

      /* A statistics file opened on its own: its operators. */
      if (ovi_statistic_is_csv_name (name, NULL) || g_ascii_strcasecmp (name, "statistic.csv") == 0)
        {
          g_autoptr (GPtrArray) csv = g_ptr_array_new_with_free_func (g_free);
          gboolean folder_csv = !ovi_statistic_is_csv_name (name, NULL);

          g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
          if (!folder_csv)
            g_ptr_array_add (csv, g_strdup (name));
          g_atomic_pointer_add (&scan->self->files_seen, 1);
          add_statistics (scan, batch, dir, "", candidates, csv, folder_csv ? name : NULL);
          collect (scan, batch, candidates, "");
          {
            g_autoptr (GPtrArray) files =
                g_ptr_array_copy (batch->files, (GCopyFunc) g_object_ref, NULL);
            g_ptr_array_set_free_func (files, g_object_unref);
            ovi_scan_emit (scan, batch);
            if ((batch = find_data_records (scan, files)))
              ovi_scan_emit (scan, batch);
          }
          return TRUE;
        }
      /* A file opened on its own is read whatever its name. */
      c.entry = g_strdup (root);
      g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
      g_array_append_val (candidates, c);
      g_atomic_pointer_add (&scan->self->files_seen, 1);
      load_all (scan, AT_FDCWD, "", candidates, TRUE);
      g_free (g_array_index (candidates, Candidate, 0).entry);
      g_array_index (candidates, Candidate, 0).entry = g_strdup (name);
      collect (scan, batch, candidates, "");
      decode_overflows (scan, batch);
      ovi_scan_emit (scan, batch);
      return TRUE;
    }
  g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
               _ ("%s: neither a folder nor a regular file"), root);
  return FALSE;
}

/* Every root in turn: a root that cannot be read stops the load, naming it. */
gboolean
ovi_scan_root (OviScan *scan, GError **error)
{
  OviDumpFolder *self = scan->self;

  if (self->roots == NULL)
    return scan_one_root (scan, self->root_path, error);
  for (guint i = 0; i < self->roots->len; i++)
    {
      scan->root = i;
      scan->root_prefix = strlen (self->root_names[i]) + 1;
      if (!scan_one_root (scan, self->root_paths[i], error))
        return FALSE;
    }
  return TRUE;
}

/* The place of a problem in the tree: the file's path on disk, below its
 * root (or beside the file opened on its own) without the root's name. */
static void
place_problem (OviScan *scan, OviProblem *problem)
{
  OviDumpFolder *self = scan->self;
  const char *relative = ovi_problem_get_file (problem);
  const char *root = self->roots ? self->root_paths[scan->root] : self->root_path;
  g_autofree char *dir = scan->root_is_file ? g_path_get_dirname (root) : NULL;
  g_autofree char *path = NULL;

  if (self->roots)
    relative += MIN (scan->root_prefix, strlen (relative));
  path = g_build_filename (dir ? dir : root, relative, NULL);
  ovi_problem_set_place (problem, scan->root, path);
}

/* Everything a scan of the folder hands over goes through here. */
void
ovi_scan_emit (OviScan *scan, OviBatch *batch)
{
  for (guint i = 0; i < batch->problems->len; i++)
    place_problem (scan, g_ptr_array_index (batch->problems, i));
  for (guint i = 0; scan->ops && i < batch->files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (batch->files, i);

      if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OP_DUMP)
        g_ptr_array_add (scan->ops, g_object_ref (file));
    }
  scan->emit (scan, batch);
  ovi_scan_post_progress (scan);
}

/**
 * ovi_scan_post_progress:
 *
 * Hands over a progress batch when the scan has not told how far it got for
 * a while (#OviScan's progress_interval_us; 0: never), so that a long look
 * at a big folder with nothing to hand over yet still shows progress.
 */
void
ovi_scan_post_progress (OviScan *scan)
{
  gint64 now;

  if (scan->progress_interval_us == 0)
    return;
  now = g_get_monotonic_time ();
  if (now - scan->progress_at < scan->progress_interval_us)
    return;
  scan->progress_at = now;
  scan->emit (scan, ovi_batch_new (OVI_BATCH_PROGRESS));
}

static void
summarize_one (guint index, gpointer data)
{
  ovi_classifier_summarize (g_ptr_array_index ((GPtrArray *) data, index), NULL);
}

/* Operators are summarized in groups: enough for the pool's threads to
 * share, few enough that their results come steadily. */
#define SUMMARY_GROUP 64

/* On the scanning thread, once the listing is out: summarizes the listed
 * operators in the order they were found (first overflow first). */
void
ovi_scan_summarize_all (OviScan *scan)
{
  g_atomic_pointer_set (&scan->self->n_operators, (gsize) scan->ops->len);
  for (guint first = 0; first < scan->ops->len; first += SUMMARY_GROUP)
    {
      OviBatch *batch;

      if (g_cancellable_is_cancelled (scan->cancellable))
        return;
      batch = ovi_batch_new (OVI_BATCH_SUMMARIES);
      for (guint i = first; i < MIN (first + SUMMARY_GROUP, scan->ops->len); i++)
        g_ptr_array_add (batch->files, g_object_ref (g_ptr_array_index (scan->ops, i)));
      ovi_parallel_for (batch->files->len, summarize_one, batch->files, scan->cancellable);
      scan->emit (scan, batch);
      ovi_scan_post_progress (scan);
    }
}
