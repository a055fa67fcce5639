/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Following a folder while a run writes into it (ovi-folder-watch.c): a
 * writer thread writes three iterations file by file, in chunks with
 * pauses, renames some into place, deletes one and leaves one cut short,
 * while the folder is open and followed. Run with monitoring and again
 * with polling forced. */

#define QUIET_MS 400
#define CHUNK_PAUSE_US (100 * 1000) /* well inside the quiet period */
#define N_ITERATIONS 3
#define N_OPS 4

typedef struct
{
  char *dir;                /* the run's dump path, followed */
  char *source;             /* where the files are built before they are written */
  GPtrArray *problems_seen; /* every problem's file, as it was added */
  GPtrArray *growing;       /* relative paths being written right now; locked */
  GMutex lock;
  gboolean writer_done;
  char *truncated; /* relative path of the file left cut short */
} Fixture;

static const guint64 shape[] = { 4 };
static const double clean[] = { 1, 2, 3, 4 };
static const double with_inf[] = { 1, INFINITY, 3, 4 };

static void
setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("ovi-watch-XXXXXX", NULL);
  f->source = g_dir_make_tmp ("ovi-watch-src-XXXXXX", NULL);
  f->problems_seen = g_ptr_array_new_with_free_func (g_free);
  f->growing = g_ptr_array_new_with_free_func (g_free);
  g_mutex_init (&f->lock);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  ovi_fixture_remove_tree (f->source);
  g_free (f->dir);
  g_free (f->source);
  g_free (f->truncated);
  g_ptr_array_unref (f->problems_seen);
  g_ptr_array_unref (f->growing);
  g_mutex_clear (&f->lock);
}

/* The bytes of op dump file @name: task @task on stream 5. */
static GBytes *
op_bytes (Fixture *f, const char *name, gboolean overflows)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/op");
  g_autofree char *path = NULL;
  char *contents = NULL;
  gsize length = 0;

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 1, clean);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, overflows ? with_inf : clean);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->source, name);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  return g_bytes_new_take (contents, length);
}

/* An AIC record for @task on stream 5. */
static GBytes *
record_bytes (Fixture *f, guint64 task, guint64 ts)
{
  const guint64 aic[] = { 11, 5, task, 0, 0, 0, 0x1000, 0x2000, 3, 2, 0x20 };
  g_autoptr (GBytes) payload = ovi_overflow_payload_new (0, 0, aic, G_N_ELEMENTS (aic));
  g_autofree char *path = g_build_filename (f->source, "record", NULL);
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (ovi_write_overflow_file (path, payload, OVI_LAYOUT_NEW, NULL));
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  return g_bytes_new_take (contents, length);
}

static void
set_growing (Fixture *f, const char *relative, gboolean growing)
{
  g_mutex_lock (&f->lock);
  if (growing)
    g_ptr_array_add (f->growing, g_strdup (relative));
  else
    for (guint i = 0; i < f->growing->len; i++)
      if (g_str_equal (g_ptr_array_index (f->growing, i), relative))
        g_ptr_array_remove_index (f->growing, i--);
  g_mutex_unlock (&f->lock);
}

/* Writes @bytes to @relative in three chunks with pauses; only @limit
 * bytes of them when @limit is not 0. */
static void
write_in_chunks (Fixture *f, const char *relative, GBytes *bytes, gsize limit)
{
  g_autofree char *path = g_build_filename (f->dir, relative, NULL);
  gsize length, total, done = 0;
  const guint8 *data = g_bytes_get_data (bytes, &length);
  int fd;

  total = limit ? limit : length;
  set_growing (f, relative, TRUE);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  for (int chunk = 0; chunk < 3; chunk++)
    {
      gsize n = chunk == 2 ? total - done : total / 3;
      g_assert_cmpint (write (fd, data + done, n), ==, (gssize) n);
      done += n;
      if (chunk < 2)
        g_usleep (CHUNK_PAUSE_US);
    }
  close (fd);
  if (limit == 0)
    set_growing (f, relative, FALSE);
}

/* Writes @bytes under a name that is no dump name, then renames it into
 * place, as many writers do. */
static void
write_then_rename (Fixture *f, const char *relative, GBytes *bytes)
{
  g_autofree char *path = g_build_filename (f->dir, relative, NULL);
  g_autofree char *partial = g_strconcat (path, ".partial", NULL);

  g_assert_true (g_file_set_contents (partial, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL));
  g_usleep (CHUNK_PAUSE_US);
  g_assert_cmpint (g_rename (partial, path), ==, 0);
}

/* The run: iteration 1, 2 and 3 under 20261205/0/1, each with four
 * operators (task 100 + op) and the record of the one that overflows. */
static gpointer
writer_thread (gpointer data)
{
  Fixture *f = data;

  for (int it = 1; it <= N_ITERATIONS; it++)
    {
      g_autofree char *iter = g_strdup_printf ("20261205/0/1/%d", it);
      g_autofree char *full = g_build_filename (f->dir, iter, NULL);
      guint64 overflowing = 100 + it; /* op 1, 2 or 3 */

      g_assert_cmpint (g_mkdir_with_parents (full, 0755), ==, 0);
      for (guint op = 0; op < N_OPS; op++)
        {
          guint64 task = 100 + op;
          g_autofree char *name =
              g_strdup_printf ("Add.add_%u.%" G_GUINT64_FORMAT ".5.%d%03u", op, task, it, op);
          g_autofree char *relative = g_build_filename (iter, name, NULL);
          g_autoptr (GBytes) bytes = op_bytes (f, name, task == overflowing);

          if (op == 1)
            write_then_rename (f, relative, bytes);
          else
            write_in_chunks (f, relative, bytes, 0);
        }
      {
        g_autofree char *name =
            g_strdup_printf ("Opdebug.Node_OpDebug.%" G_GUINT64_FORMAT ".5.%d900", overflowing, it);
        g_autofree char *relative = g_build_filename (iter, name, NULL);
        g_autoptr (GBytes) bytes = record_bytes (f, overflowing, 0);
        write_in_chunks (f, relative, bytes, 0);
      }
      if (it == 1)
        {
          /* A file that is read, then deleted. */
          g_autofree char *relative = g_build_filename (iter, "Mul.mul.300.5.1950", NULL);
          g_autofree char *path = g_build_filename (f->dir, relative, NULL);
          g_autoptr (GBytes) bytes = op_bytes (f, "Mul.mul.300.5.1950", FALSE);

          write_in_chunks (f, relative, bytes, 0);
          g_usleep (3 * QUIET_MS * 1000);
          g_assert_cmpint (g_unlink (path), ==, 0);
        }
      if (it == 2)
        {
          /* A file the writer gives up on half way: it stays cut short. */
          g_autoptr (GBytes) bytes = op_bytes (f, "Cast.cast.400.5.2950", FALSE);

          f->truncated = g_build_filename (iter, "Cast.cast.400.5.2950", NULL);
          write_in_chunks (f, f->truncated, bytes, g_bytes_get_size (bytes) / 2);
        }
    }
  g_atomic_int_set (&f->writer_done, TRUE);
  return NULL;
}

/* No problem may be reported for a file still being written. */
static void
problems_changed (GListModel *problems, guint position, guint removed, guint added, Fixture *f)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      const char *file = ovi_problem_get_file (p);

      g_mutex_lock (&f->lock);
      for (guint j = 0; j < f->growing->len; j++)
        if (g_str_equal (g_ptr_array_index (f->growing, j), file) &&
            !g_str_equal (file, f->truncated ? f->truncated : ""))
          g_error ("%s was reported broken while it was being written: %s", file,
                   ovi_problem_get_message (p));
      g_mutex_unlock (&f->lock);
      g_ptr_array_add (f->problems_seen, g_strdup (file));
    }
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static GPtrArray *
sorted_paths (OviDumpFolder *folder)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      g_ptr_array_add (paths, g_strdup (ovi_dump_file_get_relative_path (file)));
    }
  g_ptr_array_sort (paths, compare_strings);
  return paths;
}

static void
records_arrived (OviFolderWatch *watch, GPtrArray *records, guint *n)
{
  *n += records->len;
}

static void
test_follow (Fixture *f, gconstpointer data)
{
  OviWatchMode mode = GPOINTER_TO_INT (data);
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (f->dir);
  g_autoptr (OviDumpFolder) fresh = NULL;
  g_autoptr (OviFolderWatch) watch = ovi_folder_watch_new (folder, mode);
  g_autoptr (GPtrArray) followed = NULL;
  g_autoptr (GPtrArray) scanned = NULL;
  g_autoptr (GThread) writer = NULL;
  GListModel *records = ovi_dump_folder_get_records (folder);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  guint arrived = 0;
  gboolean saw_some_early = FALSE;

  g_signal_connect (ovi_dump_folder_get_problems (folder), "items-changed",
                    G_CALLBACK (problems_changed), f);
  g_signal_connect (watch, "records-arrived", G_CALLBACK (records_arrived), &arrived);
  ovi_folder_watch_set_quiet_ms (watch, QUIET_MS);
  ovi_folder_watch_start (watch);
  g_assert_true (ovi_folder_watch_get_running (watch));
  g_assert_cmpint (ovi_folder_watch_get_mode (watch), ==,
                   mode == OVI_WATCH_MODE_POLL ? OVI_WATCH_MODE_POLL : OVI_WATCH_MODE_MONITOR);
  g_assert_nonnull (ovi_folder_watch_describe_mode (watch));

  writer = g_thread_new ("writer", writer_thread, f);
  while (!g_atomic_int_get (&f->writer_done) || ovi_folder_watch_get_busy (watch))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
      /* Iterations appear one by one, while the run goes on. */
      if (!g_atomic_int_get (&f->writer_done) && g_list_model_get_n_items (records) > 0)
        saw_some_early = TRUE;
    }
  g_thread_join (g_steal_pointer (&writer));
  g_assert_true (saw_some_early);

  /* Exactly what was written: the same files, records and problem as a
   * fresh scan of the same folder. */
  fresh = ovi_fixture_load_folder (f->dir);
  followed = sorted_paths (folder);
  scanned = sorted_paths (fresh);
  /* four operators and an overflow file per iteration; the deleted file
   * gone, the one cut short a problem */
  g_assert_cmpuint (followed->len, ==, N_ITERATIONS * (N_OPS + 1));
  g_assert_cmpuint (followed->len, ==, scanned->len);
  for (guint i = 0; i < followed->len; i++)
    g_assert_cmpstr (g_ptr_array_index (followed, i), ==, g_ptr_array_index (scanned, i));
  g_assert_false (g_ptr_array_find_with_equal_func (followed, "20261205/0/1/1/Mul.mul.300.5.1950",
                                                    g_str_equal, NULL));

  g_assert_cmpuint (g_list_model_get_n_items (records), ==, N_ITERATIONS);
  g_assert_cmpuint (arrived, ==, N_ITERATIONS);
  for (guint i = 0; i < N_ITERATIONS; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      g_autoptr (OviOverflowRecord) s =
          g_list_model_get_item (ovi_dump_folder_get_records (fresh), i);
      OviDumpFile *op = ovi_overflow_record_get_op (r);

      g_assert_nonnull (op);
      g_assert_cmpuint (ovi_dump_file_get_task_id (op), ==, ovi_overflow_record_get_task_id (r));
      g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==,
                        ovi_overflow_record_get_task_id (s));
      g_assert_cmpint (ovi_overflow_record_get_is_first (r), ==,
                       ovi_overflow_record_get_is_first (s));
    }

  /* One problem, for the file cut short, reported once. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 1);
  g_assert_cmpuint (f->problems_seen->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->problems_seen, 0), ==, f->truncated);
  g_assert_cmpuint (ovi_folder_watch_get_pending (watch), ==, 0);
}

/* The folder opened disappears: the watch says so and the files stay. */
static void
test_root_gone (Fixture *f, gconstpointer data)
{
  OviWatchMode mode = GPOINTER_TO_INT (data);
  g_autofree char *iter = g_build_filename (f->dir, "1", NULL);
  g_autofree char *path = g_build_filename (iter, "Add.add.1.5.100", NULL);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviFolderWatch) watch = NULL;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_assert_cmpint (g_mkdir_with_parents (iter, 0755), ==, 0);
  bytes = op_bytes (f, "Add.add.1.5.100", FALSE);
  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  folder = ovi_fixture_load_folder (f->dir);
  watch = ovi_folder_watch_new (folder, mode);
  ovi_folder_watch_start (watch);
  while (ovi_folder_watch_get_busy (watch))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 1);

  ovi_fixture_remove_tree (f->dir);
  while (!ovi_folder_watch_get_root_gone (watch))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (ovi_folder_watch_get_running (watch));
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 1);
}

static gint64
cpu_time_us (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gint64) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

/* Follows @folder until its first walk is over; returns the processor
 * time it took (every thread's), in microseconds: unlike the time on the
 * clock, it does not grow with what else the machine runs. */
static gint64
first_walk (OviDumpFolder *folder, OviWatchMode mode)
{
  g_autoptr (OviFolderWatch) watch = ovi_folder_watch_new (folder, mode);
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  gint64 start = cpu_time_us ();

  ovi_folder_watch_start (watch);
  while (ovi_folder_watch_get_busy (watch))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  return cpu_time_us () - start;
}

/* A tree of @n iteration folders, each with its overflow record; loaded. */
static OviDumpFolder *
write_iterations (Fixture *f, const char *name, guint n)
{
  g_autofree char *root = g_build_filename (f->dir, name, NULL);
  g_autoptr (GBytes) record = record_bytes (f, 100, 0);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *iter = g_strdup_printf ("%s/0/1/%u", root, i);

      g_assert_cmpint (g_mkdir_with_parents (iter, 0755), ==, 0);
      g_free (ovi_fixture_write_bytes (iter, "Opdebug.Node_OpDebug.100.5.900",
                                       g_bytes_get_data (record, NULL), g_bytes_get_size (record)));
    }
  return ovi_fixture_load_folder (root);
}

/* The first pass over a tree costs what the tree holds: four times the
 * iteration folders (each with its record), about four times as long,
 * not sixteen. Measured side by side in this run; per folder, the larger
 * tree may take at most 2.5 times as long as the smaller (linear growth,
 * with room for a busy machine: the suite run two tests at a time measured
 * 2.9x with 1,000 and 4,000 folders, whose smaller walk took 40 ms; the
 * quadratic pass took 5-7x). */
static void
test_first_walk_linear (Fixture *f, gconstpointer data)
{
  OviWatchMode mode = GPOINTER_TO_INT (data);
  const guint small = 2000, large = 8000;
  g_autoptr (OviDumpFolder) a = write_iterations (f, "small", small);
  g_autoptr (OviDumpFolder) b = write_iterations (f, "large", large);
  gint64 t_small, t_large;
  double per_small, per_large;

  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (b)), ==, large);
  /* The smaller once to warm up, then each in turn, the quickest of three
   * of each: a busy machine only ever adds time. */
  first_walk (a, mode);
  t_small = t_large = G_MAXINT64;
  for (guint i = 0; i < 3; i++)
    {
      t_small = MIN (t_small, first_walk (a, mode));
      t_large = MIN (t_large, first_walk (b, mode));
    }
  per_small = (double) t_small / small;
  per_large = (double) t_large / large;
  g_test_message ("first walk: %u folders %.2f s, %u folders %.2f s of processor time (%.2fx "
                  "per folder)",
                  small, t_small / 1e6, large, t_large / 1e6, per_large / per_small);
  g_assert_cmpfloat (per_large, <, 2.5 * per_small);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (b)), ==, large);
}

typedef struct
{
  Fixture *f;
  char *path;
  GBytes *bytes;
  gsize first;     /* bytes written before the pause */
  gboolean resume; /* set once the part written was found broken */
  gboolean done;
} PausedWriter;

static gpointer
paused_writer_thread (gpointer data)
{
  PausedWriter *w = data;
  gsize length;
  const guint8 *bytes = g_bytes_get_data (w->bytes, &length);
  int fd = open (w->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, bytes, w->first), ==, (gssize) w->first);
  /* A run stalled (on NFS, say) for longer than the quiet period: until
   * what it wrote has been read and found broken. */
  while (!g_atomic_int_get (&w->resume))
    g_usleep (1000);
  g_assert_cmpint (write (fd, bytes + w->first, length - w->first), ==,
                   (gssize) (length - w->first));
  close (fd);
  g_atomic_int_set (&w->done, TRUE);
  return NULL;
}

/* A run writes the first bytes of an overflow file, stalls for longer
 * than the quiet period (the file is read and found broken), then writes
 * the rest: the record is reported, in both modes, and the problem goes. */
static void
test_paused_writer (Fixture *f, gconstpointer data)
{
  OviWatchMode mode = GPOINTER_TO_INT (data) & 0xff;
  gboolean half = (GPOINTER_TO_INT (data) & 0x100) != 0;
  g_autofree char *iter = g_build_filename (f->dir, "20261205", "0", "1", "7", NULL);
  g_autoptr (GBytes) bytes = record_bytes (f, 100, 0);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviFolderWatch) watch = NULL;
  g_autoptr (GThread) thread = NULL;
  GListModel *records, *problems;
  PausedWriter w = { f, NULL, bytes, half ? g_bytes_get_size (bytes) / 2 : 4, FALSE, FALSE };
  gint64 deadline;

  g_assert_cmpint (g_mkdir_with_parents (iter, 0755), ==, 0);
  w.path = g_build_filename (iter, "Opdebug.Node_OpDebug.100.5.900", NULL);
  folder = ovi_fixture_load_folder (f->dir);
  records = ovi_dump_folder_get_records (folder);
  problems = ovi_dump_folder_get_problems (folder);
  watch = ovi_folder_watch_new (folder, mode);
  ovi_folder_watch_set_quiet_ms (watch, QUIET_MS);
  ovi_folder_watch_start (watch);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (ovi_folder_watch_get_busy (watch))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }

  thread = g_thread_new ("paused-writer", paused_writer_thread, &w);
  /* While the writer stalls, the part written is read and found broken. */
  while (g_list_model_get_n_items (problems) == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  {
    g_autoptr (OviProblem) problem = g_list_model_get_item (problems, 0);
    g_test_message ("found broken during the pause: %s", ovi_problem_get_message (problem));
  }
  g_atomic_int_set (&w.resume, TRUE);
  /* Once written in full, it is read again: the record arrives. */
  while (g_list_model_get_n_items (records) == 0 || ovi_folder_watch_get_busy (watch))
    {
      if (g_get_monotonic_time () >= deadline)
        g_error ("no record within 60 s of a writer pausing after %" G_GSIZE_FORMAT " bytes (%s)",
                 w.first, ovi_folder_watch_describe_mode (watch));
      g_main_context_iteration (NULL, TRUE);
    }
  g_thread_join (g_steal_pointer (&thread));
  g_assert_cmpuint (g_list_model_get_n_items (records), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 0);
  g_free (w.path);
}

/* The system's queue of events overflows (a main loop held up while a
 * run writes more entries than it keeps events for): the watch cannot
 * know what it missed, so it polls from then on, says so, and reads
 * again what is there. */
static void
test_queue_overflow (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "20261205", "0", "1", "7", NULL);
  g_autofree char *text = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviFolderWatch) watch = NULL;
  g_autoptr (GBytes) bytes = record_bytes (f, 100, 0);
  guint64 queued = 16384;
  gint64 deadline;

  if (g_file_get_contents ("/proc/sys/fs/inotify/max_queued_events", &text, NULL, NULL))
    queued = g_ascii_strtoull (text, NULL, 10);
  g_assert_cmpint (g_mkdir_with_parents (iter, 0755), ==, 0);
  folder = ovi_fixture_load_folder (f->dir);
  watch = ovi_folder_watch_new (folder, OVI_WATCH_MODE_MONITOR);
  ovi_folder_watch_start (watch);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (ovi_folder_watch_get_busy (watch))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpint (ovi_folder_watch_get_mode (watch), ==, OVI_WATCH_MODE_MONITOR);

  /* Each new entry is two events (created, closed): more than the queue
   * holds, while nothing reads it. The record among them. */
  for (guint64 i = 0; i < queued / 2 + 1000; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/scratch-%" G_GUINT64_FORMAT, iter, i);
      int fd = open (name, O_WRONLY | O_CREAT | O_EXCL, 0644);

      g_assert_cmpint (fd, >=, 0);
      close (fd);
    }
  g_free (ovi_fixture_write_bytes (iter, "Opdebug.Node_OpDebug.100.5.900",
                                   g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)));
  while (ovi_folder_watch_get_mode (watch) != OVI_WATCH_MODE_POLL ||
         g_list_model_get_n_items (ovi_dump_folder_get_records (folder)) == 0)
    {
      if (g_get_monotonic_time () >= deadline)
        g_error ("after the event queue overflowed: mode %d, %u records, \"%s\"",
                 ovi_folder_watch_get_mode (watch),
                 g_list_model_get_n_items (ovi_dump_folder_get_records (folder)),
                 ovi_folder_watch_describe_mode (watch));
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_nonnull (strstr (ovi_folder_watch_describe_mode (watch), "queue overflowed"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/watch/follow/monitor", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR), setup,
              test_follow, teardown);
  g_test_add ("/watch/follow/poll", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_POLL), setup,
              test_follow, teardown);
  g_test_add ("/watch/root-gone/monitor", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR), setup,
              test_root_gone, teardown);
  g_test_add ("/watch/root-gone/poll", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_POLL), setup,
              test_root_gone, teardown);
  g_test_add ("/watch/first-walk-linear/monitor", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR),
              setup, test_first_walk_linear, teardown);
  g_test_add ("/watch/first-walk-linear/poll", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_POLL),
              setup, test_first_walk_linear, teardown);
  g_test_add ("/watch/paused-writer/monitor", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR),
              setup, test_paused_writer, teardown);
  g_test_add ("/watch/paused-writer/poll", Fixture, GINT_TO_POINTER (OVI_WATCH_MODE_POLL), setup,
              test_paused_writer, teardown);
  g_test_add ("/watch/paused-writer-half/monitor", Fixture,
              GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR | 0x100), setup, test_paused_writer,
              teardown);
  g_test_add ("/watch/paused-writer-half/poll", Fixture,
              GINT_TO_POINTER (OVI_WATCH_MODE_POLL | 0x100), setup, test_paused_writer, teardown);
  g_test_add ("/watch/queue-overflow", Fixture, NULL, setup, test_queue_overflow, teardown);
  return g_test_run ();
}
