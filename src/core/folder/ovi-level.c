/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-classifier.h"
#include "ovi-dump-file-private.h"
#include "ovi-dump-folder-private.h"
#include "ovi-level-private.h"
#include "ovi-scan.h"
#include "ovi-worker.h"

/* One pass over one folder of a followed tree: see ovi_level_scan(). */
struct _OviLevel
{
  char *relative_dir;
  GHashTable *known;   /* entry -> OviDumpFile as loaded; borrowed */
  GHashTable *records; /* OviDumpFile -> GPtrArray of its records; borrowed */
  GHashTable *closed;  /* entries written and closed since */
  GHashTable *changed; /* entries the system reported changed since, or NULL: stat every entry */
  gint64 quiet_us;
  gint64 now_us;       /* wall clock, as file times are */
  OviBatch *batch;     /* every file, record and problem the folder holds now */
  GPtrArray *links;    /* (record, op) pairs: records already shown, linked anew */
  GPtrArray *subdirs;  /* relative paths of the folders in it */
  GPtrArray *fresh;    /* files read in this pass (not kept from before) */
  guint pending;       /* entries still being written, left for later */
  GHashTable *waiting; /* those entries: what is shown of them stays until they are read */
  gint64 newest_us;    /* when the newest entry was written */
  gboolean settling;   /* written to too recently to look for records in the data */
  guint files_seen;
  gboolean gone;      /* the folder is not there any more */
  GHashTable *broken; /* entries found broken -> what stat said of them then */
  GHashTable *read;   /* entries read in this pass -> what stat said before */
};

/* Following a folder (ovi-folder-watch.c): the watch passes over one
 * folder at a time. ovi_level_new() notes on the main context what the
 * folder shows from it, ovi_level_scan() reads it again on a worker
 * thread, reading only the entries that are new or changed, and
 * ovi_level_apply() brings the stores in line on the main context,
 * keeping every file and record that did not change. */

/* What stat says of an entry: whether it changed since. */
static char *
signature_of (const struct stat *st)
{
  return g_strdup_printf ("%lu %lld %lld.%09ld %lld.%09ld", (gulong) st->st_ino,
                          (long long) st->st_size, (long long) st->st_mtim.tv_sec,
                          st->st_mtim.tv_nsec, (long long) st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

/* In a pass over a followed folder: whether the entry is to be read now.
 * An entry that was loaded before and has not changed since keeps its file
 * (its header is not read again); one that changed within the quiet period
 * and was not seen closed is still being written, and waits for a later
 * pass. */
gboolean
ovi_level_admits (OviLevel *level, int dirfd, const char *name, OviDumpFile **kept)
{
  OviDumpFile *known = g_hash_table_lookup (level->known, name);
  struct stat st;
  gint64 mtime;

  *kept = NULL;
  /* Followed by the system, which reports every change: a file loaded
   * before and not reported since is the same. */
  if (known && level->changed && !g_hash_table_contains (level->changed, name))
    {
      *kept = g_object_ref (known);
      return TRUE;
    }
  /* Gone again; an entry that cannot be looked at (its folder lacks the
   * search permission) is read as the load reads it, to the same problem. */
  if (fstatat (dirfd, name, &st, 0) != 0)
    return errno != ENOENT;
  mtime = (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
  level->newest_us = MAX (level->newest_us, mtime);
  if (known && ovi_dump_file_get_file_size (known) == (guint64) st.st_size &&
      ovi_dump_file_get_mtime_us (known) == mtime)
    {
      *kept = g_object_ref (known);
      return TRUE;
    }
  if (level->now_us - mtime < level->quiet_us && !g_hash_table_contains (level->closed, name))
    {
      level->pending++;
      g_hash_table_add (level->waiting, g_strdup (name));
      return FALSE;
    }
  /* As it is before it is read: if it is found broken, a change after
   * this is one the pass did not see. */
  g_hash_table_insert (level->read, g_strdup (name), signature_of (&st));
  return TRUE;
}

static void
summarize_one (guint index, gpointer data)
{
  ovi_classifier_summarize (g_ptr_array_index ((GPtrArray *) data, index), NULL);
}

static gboolean
level_holds (OviLevel *level, const char *dir)
{
  gsize n = strlen (level->relative_dir);

  if (g_str_equal (dir, level->relative_dir))
    return TRUE;
  /* A folder that is gone takes its folders with it. */
  return level->gone && (n == 0 || (g_str_has_prefix (dir, level->relative_dir) && dir[n] == '/'));
}

/* The records shown from the files of @relative_dir, or NULL: looked up
 * in an index of the whole store, built once and kept until the store
 * changes, so that a pass costs what its own folder holds and a walk over
 * a tree stays linear in it. */
static GPtrArray *
records_in_dir (OviDumpFolder *self, const char *relative_dir)
{
  GListModel *records = G_LIST_MODEL (self->records);

  if (self->dir_records == NULL)
    {
      self->dir_records =
          g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
      for (guint i = 0, n = g_list_model_get_n_items (records); i < n; i++)
        {
          g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
          OviDumpFile *file = ovi_overflow_record_get_file (record);
          const char *dir;
          GPtrArray *list;

          if (file == NULL)
            continue;
          dir = ovi_dump_file_get_relative_dir (file);
          if (!(list = g_hash_table_lookup (self->dir_records, dir)))
            g_hash_table_insert (self->dir_records, (gpointer) dir, list = g_ptr_array_new ());
          g_ptr_array_add (list, record); /* the store holds it */
        }
    }
  return g_hash_table_lookup (self->dir_records, relative_dir);
}

static void
index_problem (GHashTable *index, char *key, OviProblem *problem)
{
  GPtrArray *list = g_hash_table_lookup (index, key);

  if (list == NULL)
    g_hash_table_insert (index, key, list = g_ptr_array_new ());
  else
    g_free (key);
  g_ptr_array_add (list, problem); /* the store holds it */
}

/* The problems shown of the folder @display (a display path) and of the
 * entries in it, or NULL; as records_in_dir(). */
static GPtrArray *
problems_in_dir (OviDumpFolder *self, const char *display)
{
  GListModel *problems = G_LIST_MODEL (self->problems);

  if (self->dir_problems == NULL)
    {
      self->dir_problems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                  (GDestroyNotify) g_ptr_array_unref);
      for (guint i = 0, n = g_list_model_get_n_items (problems); i < n; i++)
        {
          g_autoptr (OviProblem) problem = g_list_model_get_item (problems, i);
          const char *file = ovi_problem_get_file (problem);
          g_autofree char *parent = g_path_get_dirname (file);

          index_problem (self->dir_problems,
                         g_str_equal (parent, ".") ? g_strdup ("") : g_steal_pointer (&parent),
                         problem);
          if (*file)
            index_problem (self->dir_problems, g_strdup (file), problem);
        }
    }
  return g_hash_table_lookup (self->dir_problems, display);
}

static void
index_file (GHashTable *known, OviDumpFile *file)
{
  GPtrArray *slices = ovi_dump_file_get_slices (file);

  if (slices)
    for (guint i = 0; i < slices->len; i++)
      index_file (known, g_ptr_array_index (slices, i));
  else if (!ovi_dump_file_get_statistics_only (file))
    g_hash_table_insert (known, g_path_get_basename (ovi_dump_file_get_relative_path (file)),
                         g_object_ref (file));
}

/**
 * ovi_level_new: (skip)
 * @closed: (nullable): entries known to be written in full (closed or moved
 *   in) since the previous pass
 * @changed: (nullable): when the system reports every change of the folder,
 *   the entries it reported since the previous pass: the others are not
 *   looked at again
 *
 * Notes, on the main context, what the folder shows from @relative_dir: the
 * files as they were loaded and their records.
 */
OviLevel *
ovi_level_new (OviDumpFolder *self,
               const char *relative_dir,
               GHashTable *closed,
               GHashTable *changed,
               gint64 quiet_us)
{
  OviLevel *level = g_new0 (OviLevel, 1);
  GPtrArray *shown, *records;

  level->relative_dir = g_strdup (relative_dir);
  level->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  level->records = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  level->closed = closed ? g_hash_table_ref (closed) : g_hash_table_new (g_str_hash, g_str_equal);
  level->changed = changed ? g_hash_table_ref (changed) : NULL;
  level->quiet_us = quiet_us;
  level->batch = ovi_batch_new (OVI_BATCH_FILES);
  level->links = g_ptr_array_new_with_free_func ((GDestroyNotify) g_object_unref);
  level->subdirs = g_ptr_array_new_with_free_func (g_free);
  level->fresh = g_ptr_array_new_with_free_func (g_object_unref);
  level->waiting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  level->broken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  level->read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  shown = g_hash_table_lookup (self->dir_files, relative_dir);
  for (guint i = 0; shown && i < shown->len; i++)
    index_file (level->known, g_ptr_array_index (shown, i));
  records = records_in_dir (self, relative_dir);
  for (guint i = 0; records && i < records->len; i++)
    {
      OviOverflowRecord *record = g_ptr_array_index (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);
      GPtrArray *list;

      if (!(list = g_hash_table_lookup (level->records, file)))
        g_hash_table_insert (level->records, file,
                             list = g_ptr_array_new_with_free_func (g_object_unref));
      g_ptr_array_add (list, g_object_ref (record));
    }
  return level;
}

void
ovi_level_free (OviLevel *level)
{
  g_free (level->relative_dir);
  g_hash_table_unref (level->known);
  g_hash_table_unref (level->records);
  g_hash_table_unref (level->closed);
  g_clear_pointer (&level->changed, g_hash_table_unref);
  ovi_batch_free (level->batch);
  /* links hold (record, op-or-NULL) pairs */
  g_ptr_array_set_free_func (level->links, NULL);
  for (guint i = 0; i < level->links->len; i++)
    g_clear_object ((GObject **) &level->links->pdata[i]);
  g_ptr_array_unref (level->links);
  g_ptr_array_unref (level->subdirs);
  g_ptr_array_unref (level->fresh);
  g_hash_table_unref (level->waiting);
  g_clear_pointer (&level->broken, g_hash_table_unref);
  g_hash_table_unref (level->read);
  g_free (level);
}

gboolean
ovi_level_get_gone (OviLevel *level)
{
  return level->gone;
}

guint
ovi_level_get_pending (OviLevel *level)
{
  return level->pending;
}

/* Whether the folder changed too recently for records to be looked for in
 * its data: a later pass looks again. */
gboolean
ovi_level_get_settling (OviLevel *level)
{
  return level->settling;
}

/* (element-type utf8): the relative paths of the folders found in it */
GPtrArray *
ovi_level_get_subdirs (OviLevel *level)
{
  return level->subdirs;
}

/* What stat says of @entry of the folder @dirfd, to tell whether it changed
 * since: its inode, size and time of change ("" when it is gone). */
char *
ovi_level_entry_signature (int dirfd, const char *entry)
{
  struct stat st;

  if (fstatat (dirfd, entry, &st, 0) != 0)
    return g_strdup ("");
  return signature_of (&st);
}

/* On the scanning thread: @entry of the level's folder was read and found
 * broken. A folder followed by polling looks at it again until it changes:
 * the writer may have paused for longer than the quiet period, and writing
 * into a file does not change its folder's time. */
void
ovi_level_note_broken (OviLevel *level, const char *entry)
{
  const char *before = g_hash_table_lookup (level->read, entry);

  g_hash_table_insert (level->broken, g_strdup (entry), g_strdup (before));
}

/* (transfer full): the entries found broken -> their signature when the
 * pass looked at them. */
GHashTable *
ovi_level_steal_broken (OviLevel *level)
{
  return g_steal_pointer (&level->broken);
}

/* (nullable): the records shown already of @file, an overflow file the
 * folder held before. */
GPtrArray *
ovi_level_lookup_records (OviLevel *level, OviDumpFile *file)
{
  return g_hash_table_lookup (level->records, file);
}

/* A record shown already is now linked to @op (nullable). */
void
ovi_level_relink (OviLevel *level, OviOverflowRecord *record, OviDumpFile *op)
{
  g_ptr_array_add (level->links, g_object_ref (record));
  g_ptr_array_add (level->links, op ? g_object_ref (op) : NULL);
}

/* Whether records whose operator is not there yet wait for a later pass:
 * while entries are still being written. Each one held back counts as an
 * entry pending. */
gboolean
ovi_level_hold_back (OviLevel *level)
{
  if (level->pending == 0)
    return FALSE;
  level->pending++;
  return TRUE;
}

/* Whether the folder has been left alone long enough for records to be
 * looked for in its data; when not, the pass says it is settling. */
gboolean
ovi_level_is_settled (OviLevel *level)
{
  if (level->now_us - level->newest_us >= 2 * level->quiet_us)
    return TRUE;
  level->settling = TRUE;
  return FALSE;
}

void
ovi_level_set_gone (OviLevel *level)
{
  level->gone = TRUE;
}

/* Takes @relative_dir: a folder found in this one. */
void
ovi_level_add_subdir (OviLevel *level, char *relative_dir)
{
  g_ptr_array_add (level->subdirs, relative_dir);
}

const char *
ovi_level_get_relative_dir (OviLevel *level)
{
  return level->relative_dir;
}

static void
level_emit (OviScan *scan, OviBatch *batch)
{
  OviLevel *level = scan->level;

  g_ptr_array_extend_and_steal (level->batch->files, g_steal_pointer (&batch->files));
  g_ptr_array_extend_and_steal (level->batch->records, g_steal_pointer (&batch->records));
  g_ptr_array_extend_and_steal (level->batch->problems, g_steal_pointer (&batch->problems));
  batch->files = g_ptr_array_new ();
  batch->records = g_ptr_array_new ();
  batch->problems = g_ptr_array_new ();
  ovi_batch_free (batch);
}

/**
 * ovi_level_scan: (skip)
 *
 * Reads the folder of @level again, on any thread: its new and changed
 * entries, not the ones it was given as unchanged. Entries still being
 * written are left for a later pass and counted as pending. When
 * #OviDumpFolder:analyze is set, the operators read are summarized.
 */
void
ovi_level_scan (OviLevel *level, OviDumpFolder *self, GCancellable *cancellable)
{
  g_autoptr (OviDumpFolder) scratch = NULL;
  g_autoptr (GHashTable) kept = g_hash_table_new (NULL, NULL);
  g_autofree char *path = *level->relative_dir
                              ? g_build_filename (self->root_path, level->relative_dir, NULL)
                              : g_strdup (self->root_path);
  OviScan scan = { .cancellable = cancellable, .emit = level_emit, .level = level };
  GHashTableIter iter;
  gpointer file;

  /* Followed folders have one root: relative paths start below it. */
  g_return_if_fail (self->roots == NULL);
  scratch = ovi_dump_folder_new (self->root);
  scan.self = scratch;
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  level->now_us = g_get_real_time ();
  ovi_scan_dir (&scan, path, level->relative_dir, NULL);
  g_hash_table_unref (scan.visited);
  level->files_seen = scratch->files_seen;
  if (g_hash_table_size (level->broken))
    {
      int dirfd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      gpointer signature;

      /* One kept from before, not read again: as it is now. */
      g_hash_table_iter_init (&iter, level->broken);
      while (g_hash_table_iter_next (&iter, &file, &signature))
        if (signature == NULL)
          g_hash_table_iter_replace (&iter, dirfd >= 0 ? ovi_level_entry_signature (dirfd, file)
                                                       : g_strdup (""));
      if (dirfd >= 0)
        close (dirfd);
    }

  g_hash_table_iter_init (&iter, level->known);
  while (g_hash_table_iter_next (&iter, NULL, &file))
    g_hash_table_add (kept, file);
  for (guint i = 0; i < level->batch->files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (level->batch->files, i);
      if (!g_hash_table_contains (kept, f))
        g_ptr_array_add (level->fresh, g_object_ref (f));
    }
  if (g_atomic_int_get (&self->analyze))
    {
      g_autoptr (GPtrArray) ops = g_ptr_array_new ();

      for (guint i = 0; i < level->fresh->len; i++)
        if (ovi_dump_file_get_kind (g_ptr_array_index (level->fresh, i)) == OVI_FILE_KIND_OP_DUMP)
          g_ptr_array_add (ops, g_ptr_array_index (level->fresh, i));
      ovi_parallel_for (ops->len, summarize_one, ops, cancellable);
    }
}

static char *
file_key (OviDumpFile *file)
{
  return g_strconcat (ovi_dump_file_get_relative_path (file), "\n", ovi_dump_file_get_name (file),
                      NULL);
}

/* Whether @fresh, read in this pass, is what @shown already shows. */
static gboolean
same_file (OviDumpFile *shown, OviDumpFile *fresh)
{
  GPtrArray *a = ovi_dump_file_get_slices (shown), *b = ovi_dump_file_get_slices (fresh);

  if (shown == fresh)
    return TRUE;
  if (a && b)
    return a->len == b->len && memcmp (a->pdata, b->pdata, a->len * sizeof (gpointer)) == 0;
  return ovi_dump_file_get_statistics_only (shown) && ovi_dump_file_get_statistics_only (fresh) &&
         ovi_dump_file_get_file_size (shown) == ovi_dump_file_get_file_size (fresh);
}

/* Whether @relative_path is an entry of the level's folder still being
 * written: what is shown of it stays until it is read again. */
static gboolean
level_waits_for (OviLevel *level, const char *relative_path)
{
  g_autofree char *name = g_path_get_basename (relative_path);
  return g_hash_table_contains (level->waiting, name);
}

static gboolean
problem_in_level (OviLevel *level, OviProblem *problem)
{
  g_autofree char *parent = g_path_get_dirname (ovi_problem_get_file (problem));
  g_autofree char *display = g_filename_display_name (level->relative_dir);
  const char *dir = g_str_equal (parent, ".") ? "" : parent;

  return g_str_equal (dir, display) ||
         (*display && g_str_equal (ovi_problem_get_file (problem), display)) ||
         (level->gone && (!*display || g_str_has_prefix (dir, display)));
}

/* Removes the items of @store for which @drop says so; returns how many. */
static guint
remove_where (GListStore *store, gboolean (*drop) (gpointer item, gpointer data), gpointer data)
{
  guint removed = 0;

  for (guint i = g_list_model_get_n_items (G_LIST_MODEL (store)); i-- > 0;)
    {
      g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (store), i);
      if (drop (item, data))
        {
          g_list_store_remove (G_LIST_STORE (store), i);
          removed++;
        }
    }
  return removed;
}

/* Removes the items of @candidates (items of @store) for which @drop says
 * so; every item of @store when @candidates is NULL. Returns how many. */
static guint
remove_among (GListStore *store,
              GPtrArray *candidates,
              gboolean (*drop) (gpointer item, gpointer data),
              gpointer data)
{
  g_autoptr (GPtrArray) doomed = g_ptr_array_new_with_free_func (g_object_unref);
  guint removed = 0;

  if (candidates == NULL)
    return remove_where (store, drop, data);
  /* Chosen first: removing an item drops the index @candidates is from. */
  for (guint i = 0; i < candidates->len; i++)
    if (drop (g_ptr_array_index (candidates, i), data))
      g_ptr_array_add (doomed, g_object_ref (g_ptr_array_index (candidates, i)));
  for (guint i = 0; i < doomed->len; i++)
    {
      guint position;

      if (g_list_store_find (store, g_ptr_array_index (doomed, i), &position))
        {
          g_list_store_remove (store, position);
          removed++;
        }
    }
  return removed;
}

typedef struct
{
  OviLevel *level;
  GHashTable *found;        /* the files of this pass */
  GHashTable *fresh_by_key; /* key -> file read in this pass (not kept from before) */
  GHashTable *kept;         /* file read in this pass -> the file shown, which stays */
  GHashTable *records;      /* records of this pass */
  GHashTable *problems;     /* problem_key() of this pass's problems -> problem */
  GHashTable *subdirs;      /* the folders this pass found in it, as problems name them */
} Apply;

/* Removes the files shown from the level's folders that this pass did not
 * find the same; notes in @apply which ones stay. Returns how many went. */
static guint
drop_files (OviDumpFolder *self, Apply *apply)
{
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer dir;
  guint removed = 0;

  /* Only a folder gone takes others with it: a pass over one that is
   * there looks at its own files, not at every folder's. */
  if (!apply->level->gone)
    {
      if (g_hash_table_contains (self->dir_files, apply->level->relative_dir))
        g_ptr_array_add (dirs, g_strdup (apply->level->relative_dir));
    }
  else
    {
      g_hash_table_iter_init (&iter, self->dir_files);
      while (g_hash_table_iter_next (&iter, &dir, NULL))
        if (level_holds (apply->level, dir))
          g_ptr_array_add (dirs, g_strdup (dir));
    }
  for (guint d = 0; d < dirs->len; d++)
    {
      GPtrArray *shown = g_hash_table_lookup (self->dir_files, g_ptr_array_index (dirs, d));
      GPtrArray *staying = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < shown->len; i++)
        {
          OviDumpFile *file = g_ptr_array_index (shown, i);
          g_autofree char *key = NULL;
          OviDumpFile *fresh;
          guint position;

          /* Found again as it was: the common case, without a key. */
          if (g_hash_table_contains (apply->found, file))
            {
              g_ptr_array_add (staying, g_object_ref (file));
              continue;
            }
          key = file_key (file);
          fresh = g_hash_table_lookup (apply->fresh_by_key, key);
          if (fresh && same_file (file, fresh))
            {
              g_hash_table_insert (apply->kept, fresh, file);
              g_ptr_array_add (staying, g_object_ref (file));
            }
          else if (!fresh && level_waits_for (apply->level, ovi_dump_file_get_relative_path (file)))
            g_ptr_array_add (staying, g_object_ref (file));
          else if (g_list_store_find (self->files, file, &position))
            {
              g_list_store_remove (self->files, position);
              removed++;
            }
        }
      if (staying->len)
        g_hash_table_insert (self->dir_files, g_strdup (g_ptr_array_index (dirs, d)), staying);
      else
        {
          g_hash_table_remove (self->dir_files, g_ptr_array_index (dirs, d));
          g_ptr_array_unref (staying);
        }
    }
  return removed;
}

static gboolean
drop_record (gpointer item, gpointer data)
{
  Apply *apply = data;
  OviDumpFile *file = ovi_overflow_record_get_file (item);

  if (file == NULL || !level_holds (apply->level, ovi_dump_file_get_relative_dir (file)) ||
      g_hash_table_contains (apply->records, item))
    return FALSE;
  /* Records are looked for in the data only once nothing is being written
   * into the folder: until then, those found stay. */
  return ovi_overflow_record_get_source (item) != OVI_RECORD_SOURCE_DATA ||
         !(apply->level->settling || g_hash_table_size (apply->level->waiting) > 0);
}

static char *
problem_key (OviProblem *problem)
{
  return g_strdup_printf ("%s\n%u\n%s", ovi_problem_get_file (problem),
                          ovi_problem_get_line (problem), ovi_problem_get_message (problem));
}

/* A problem found again stays as it is: the new one is dropped instead. */
static gboolean
drop_problem (gpointer item, gpointer data)
{
  Apply *apply = data;
  g_autofree char *key = NULL;

  /* A folder found in it that could not be read: its own pass judges that,
   * and one the watch cannot follow (its path too long) keeps the load's. */
  if (!problem_in_level (apply->level, item) ||
      level_waits_for (apply->level, ovi_problem_get_file (item)) ||
      g_hash_table_contains (apply->subdirs, ovi_problem_get_file (item)))
    return FALSE;
  key = problem_key (item);
  return !g_hash_table_remove (apply->problems, key);
}

/* A record found in the data of an operator read again and found the same
 * (a statistics-only operator is read from its CSV on every pass) is the
 * record shown, not a new one. */
static void
keep_data_records (OviDumpFolder *self, Apply *apply)
{
  GPtrArray *batch = apply->level->batch->records;
  /* Data records are their operator's: those of the operators kept are
   * the folder's own. */
  GPtrArray *shown_records = records_in_dir (self, apply->level->relative_dir);
  g_autoptr (GHashTable) same_ops = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer shown;

  g_hash_table_iter_init (&iter, apply->kept);
  while (g_hash_table_iter_next (&iter, NULL, &shown))
    g_hash_table_add (same_ops, shown);
  for (guint j = 0; shown_records && j < shown_records->len; j++)
    {
      OviOverflowRecord *same = g_ptr_array_index (shown_records, j);
      OviDumpFile *op = ovi_overflow_record_get_op (same);
      gboolean replaced = FALSE;

      if (ovi_overflow_record_get_source (same) != OVI_RECORD_SOURCE_DATA ||
          !g_hash_table_contains (same_ops, op))
        continue;
      for (guint i = 0; i < batch->len; i++)
        {
          OviOverflowRecord *record = g_ptr_array_index (batch, i);
          OviDumpFile *fresh = ovi_overflow_record_get_op (record);

          if (ovi_overflow_record_get_source (record) != OVI_RECORD_SOURCE_DATA || fresh == NULL ||
              g_hash_table_lookup (apply->kept, fresh) != op)
            continue;
          g_hash_table_remove (apply->records, record);
          g_ptr_array_index (batch, i) = g_object_ref (same);
          g_object_unref (record);
          replaced = TRUE;
          break;
        }
      if (replaced)
        g_hash_table_add (apply->records, same);
    }
}

/**
 * ovi_level_apply: (skip)
 *
 * On the main context, after ovi_level_scan(): removes what is
 * gone or changed, adds what is new, links records to operators that
 * arrived since, and keeps every file and record that is the same.
 *
 * Returns: (transfer container) (element-type OviOverflowRecord): the
 *   records that are new
 */
GPtrArray *
ovi_level_apply (OviLevel *level, OviDumpFolder *self)
{
  g_autoptr (GHashTable) fresh_by_key =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) found = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) kept = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) records = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) added = g_ptr_array_new ();
  GPtrArray *new_records = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GHashTable) problems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) subdirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) shown_records = g_hash_table_new (NULL, NULL);
  g_autofree char *display = g_filename_display_name (level->relative_dir);
  GPtrArray *in_dir;
  Apply apply = { level, found, fresh_by_key, kept, records, problems, subdirs };
  GHashTableIter iter;
  gpointer problem;
  guint n_records = g_list_model_get_n_items (G_LIST_MODEL (self->records));
  guint removed, summarized = 0;

  for (guint i = 0; i < level->batch->files->len; i++)
    g_hash_table_add (found, g_ptr_array_index (level->batch->files, i));
  for (guint i = 0; i < level->fresh->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (level->fresh, i);
      g_hash_table_insert (fresh_by_key, file_key (f), f);
    }
  for (guint i = 0; i < level->batch->records->len; i++)
    g_hash_table_add (records, g_ptr_array_index (level->batch->records, i));

  removed = drop_files (self, &apply);
  keep_data_records (self, &apply);
  /* Files read in this pass are new, unless the same is shown already
   * (then that one stays). */
  for (guint i = 0; i < level->fresh->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (level->fresh, i);
      if (!g_hash_table_contains (kept, f))
        {
          g_ptr_array_add (added, f);
          summarized += ovi_dump_file_get_kind (f) == OVI_FILE_KIND_OP_DUMP &&
                        g_atomic_int_get (&self->analyze);
        }
    }
  /* Into the index now, into the list as a scan's files come: handed over,
   * for the caller to take in at its pace (a run writing a thousand files
   * a second would otherwise add hundreds at once). */
  if (added->len)
    {
      OviBatch *batch = ovi_batch_new (OVI_BATCH_FILES);

      ovi_dump_folder_index_files (self, added);
      batch->indexed = TRUE;
      for (guint i = 0; i < added->len; i++)
        g_ptr_array_add (batch->files, g_object_ref (g_ptr_array_index (added, i)));
      ovi_dump_folder_hand_over (self, batch);
    }
  self->dump_files += added->len - MIN (removed, self->dump_files + added->len);

  /* Records shown stay; those linked anew follow their operator; the
   * others come in first-overflow order. */
  /* Records stay the same objects: those of the batch shown already are
   * the folder's own. A folder gone looks at every record. */
  in_dir = records_in_dir (self, level->relative_dir);
  for (guint i = 0; in_dir && i < in_dir->len; i++)
    g_hash_table_add (shown_records, g_ptr_array_index (in_dir, i));
  remove_among (self->records, level->gone ? NULL : in_dir, drop_record, &apply);
  for (guint i = 0; i + 1 < level->links->len; i += 2)
    {
      OviDumpFile *op = g_ptr_array_index (level->links, i + 1);
      OviDumpFile *shown = op ? g_hash_table_lookup (kept, op) : NULL;
      ovi_overflow_record_set_op (g_ptr_array_index (level->links, i), shown ? shown : op);
    }
  for (guint i = 0; i < level->batch->records->len; i++)
    {
      OviOverflowRecord *record = g_ptr_array_index (level->batch->records, i);
      OviDumpFile *op = ovi_overflow_record_get_op (record);
      OviDumpFile *shown = op ? g_hash_table_lookup (kept, op) : NULL;

      if (g_hash_table_contains (shown_records, record))
        continue;
      if (shown)
        ovi_overflow_record_set_op (record, shown);
      g_list_store_insert_sorted (self->records, record, ovi_dump_folder_compare_records, NULL);
      g_ptr_array_add (new_records, g_object_ref (record));
    }
  if (g_list_model_get_n_items (G_LIST_MODEL (self->records)) != n_records || new_records->len)
    ovi_dump_folder_number_records (self);
  self->overflow_records = g_list_model_get_n_items (G_LIST_MODEL (self->records));

  for (guint i = 0; i < level->subdirs->len; i++)
    g_hash_table_add (subdirs, g_filename_display_name (g_ptr_array_index (level->subdirs, i)));
  for (guint i = 0; i < level->batch->problems->len; i++)
    g_hash_table_insert (problems, problem_key (g_ptr_array_index (level->batch->problems, i)),
                         g_ptr_array_index (level->batch->problems, i));
  removed = remove_among (self->problems, level->gone ? NULL : problems_in_dir (self, display),
                          drop_problem, &apply);
  self->n_problems -= MIN (self->n_problems, removed);
  g_hash_table_iter_init (&iter, problems);
  while (g_hash_table_iter_next (&iter, NULL, &problem))
    {
      g_list_store_append (self->problems, problem);
      self->n_problems++;
    }

  if (summarized)
    {
      self->n_operators += summarized;
      self->summarized += summarized;
      ovi_dump_folder_summaries_applied (self);
    }
  ovi_dump_folder_notify_progress (self);
  return new_records;
}

guint
ovi_level_get_files_seen (OviLevel *level)
{
  return level->files_seen;
}
