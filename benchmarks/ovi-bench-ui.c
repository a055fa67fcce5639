/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "ovi-application.h"
#include "ovi-window-private.h"

/* How long the window's main loop can go without turning while it scans a
 * large dump tree and computes the histogram of a large tensor:
 *   ovi-bench-ui TREE TENSOR_FILE
 * A 1 ms timeout notes the time between its runs; the longest gap, less the
 * 1 ms, is the longest a frame or an input event could have waited. The
 * longest is reported twice: over the whole run, and from the end of the
 * first frame that shows the folder (opening switches the window to another
 * page, which the renderer draws whole once, whatever the folder).
 *
 *   ovi-bench-ui --live FOLDER WRITER [ARG...]
 * opens FOLDER, and once it is loaded runs WRITER, which writes into it as a
 * training run does, while the window follows the folder. Reported: the
 * longest turn from the writer's start until the window shows what a fresh
 * scan of the folder finds, the process's CPU time over that span as a share
 * of one core, and whether the window's files and records are the fresh
 * scan's. With OVI_BENCH_NO_TICK set, turns are not measured (worst_ms is
 * then -1), so the CPU time is the inspector's alone.
 *
 *   ovi-bench-ui --reports FILE...
 * adds report files (`merge` output, say) to an empty window, as
 * `overflow-inspector FILE...` does. Reported: the seconds until the
 * Timeline page has painted its rows, the longest turn until then and over
 * the second after it, the ranks shown and the peak resident memory. */

static glong last_faults;
static gint64 start, last, last_cpu, worst, worst_after_first_frame, ticks;
static gboolean first_frame_done, after_first_frame;

/* The main thread's CPU time, to tell a turn spent computing from one
 * spent waiting (for the X server, or for a core other processes hold). */
static gint64
thread_cpu_time (glong *faults)
{
  struct rusage usage;

  getrusage (RUSAGE_THREAD, &usage);
  *faults = usage.ru_minflt;
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_GINT64_CONSTANT (1000000) +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

/* With OVI_BENCH_TRACE set, every turn over 50 ms (or OVI_BENCH_TRACE_MS; and a 0 ms line every
 * half second) is listed with what the window was doing and how much of
 * the turn the main thread was on a CPU, to tell which phase holds the
 * loop up; the monotonic time matches `perf record -k mono` samples. */
static void
trace (OviWindow *window, gint64 now, gint64 gap, gint64 cpu, glong faults)
{
  OviDumpFolder *folder = ovi_window_get_folder (window);

  fprintf (stderr,
           "%7.3f s (monotonic %.6f): %4.0f ms turn (%3.0f ms CPU, %5ld page faults), loading %d, "
           "%u files, analyzing %d\n",
           (now - start) / 1e6, now / 1e6, gap / 1000.0, cpu / 1000.0, faults,
           ovi_window_get_loading (window),
           folder ? g_list_model_get_n_items (ovi_dump_folder_get_files (folder)) : 0,
           folder ? ovi_dump_folder_get_analyzing (folder) : 0);
}

/* Turns longer than this are traced: OVI_BENCH_TRACE_MS, else 50 ms. */
static gint64
trace_threshold (void)
{
  const char *ms = g_getenv ("OVI_BENCH_TRACE_MS");

  return (ms ? g_ascii_strtoll (ms, NULL, 10) : 50) * 1000;
}

static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  glong faults;
  gint64 cpu = thread_cpu_time (&faults);

  if (last && now - last > trace_threshold () && g_getenv ("OVI_BENCH_TRACE"))
    trace (data, now, now - last, cpu - last_cpu, faults - last_faults);
  else if (g_getenv ("OVI_BENCH_TRACE") && now / 500000 != last / 500000)
    trace (data, now, 0, 0, 0); /* and where things stand every half second */
  last_cpu = cpu;
  last_faults = faults;
  if (last && now - last > worst)
    worst = now - last;
  /* the turn that painted the first frame ends with this tick: count from
   * the next one */
  if (last && after_first_frame && now - last > worst_after_first_frame)
    worst_after_first_frame = now - last;
  after_first_frame = first_frame_done;
  last = now;
  ticks++;
  return G_SOURCE_CONTINUE;
}

static void
after_paint (GdkFrameClock *clock, gpointer data)
{
  first_frame_done = TRUE;
  g_signal_handlers_disconnect_by_func (clock, after_paint, data);
}

static gboolean
give_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static double
cpu_seconds (void)
{
  struct rusage r;

  getrusage (RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec +
         r.ru_stime.tv_usec / 1e6;
}

static void
writer_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gint64 *) data = g_get_monotonic_time ();
}

static void
fresh_scan (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_autoptr (OviDumpFolder) fresh = ovi_dump_folder_new (data);

  ovi_dump_folder_load (fresh, NULL, NULL);
  g_task_return_pointer (task, g_steal_pointer (&fresh), g_object_unref);
}

static void
fresh_done (GObject *source, GAsyncResult *result, gpointer data)
{
  *(OviDumpFolder **) data = g_task_propagate_pointer (G_TASK (result), NULL);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static GPtrArray *
paths_of (GListModel *files)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      g_ptr_array_add (paths, g_strdup (ovi_dump_file_get_relative_path (f)));
    }
  g_ptr_array_sort (paths, compare_paths);
  return paths;
}

static gboolean
same_paths (GListModel *a, GListModel *b)
{
  g_autoptr (GPtrArray) pa = paths_of (a);
  g_autoptr (GPtrArray) pb = paths_of (b);

  if (pa->len != pb->len)
    return FALSE;
  for (guint i = 0; i < pa->len; i++)
    if (!g_str_equal (g_ptr_array_index (pa, i), g_ptr_array_index (pb, i)))
      return FALSE;
  return TRUE;
}

/* The first record of a followed folder changes the overflows page from
 * its empty state to the table and the record's details, drawn once: the
 * turns after that frame are counted apart too. */
static void
first_record_shown (
    GListModel *records, guint position, guint removed, guint added, gpointer window)
{
  if (g_list_model_get_n_items (records) == 0)
    return;
  g_signal_handlers_disconnect_by_func (records, first_record_shown, window);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (after_paint), NULL);
}

static int
run_live (OviWindow *window, const char *folder, char **writer_argv)
{
  g_autoptr (GFile) root = g_file_new_for_commandline_arg (folder);
  g_autoptr (GSubprocess) writer = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GTask) scan = NULL;
  OviDumpFolder *fresh = NULL;
  OviDumpFolder *shown;
  gint64 writer_end = 0, end;
  guint written = 0;
  double cpu;
  gboolean timed_out = FALSE, match;

  ovi_window_open_file (window, root);
  while (ovi_window_get_busy (window) || !ovi_session_get_live (ovi_window_get_session (window)))
    g_main_context_iteration (NULL, TRUE);
  shown = ovi_window_get_folder (window);
  g_signal_connect (ovi_dump_folder_get_records (shown), "items-changed",
                    G_CALLBACK (first_record_shown), window);

  /* The 1 ms timer that measures turns costs CPU time of its own (a
   * thousand wakeups a second): with OVI_BENCH_NO_TICK the run measures
   * only the CPU time. */
  if (!g_getenv ("OVI_BENCH_NO_TICK"))
    g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, window, NULL);
  g_timeout_add_seconds (600, give_up, &timed_out);
  start = g_get_monotonic_time ();
  cpu = cpu_seconds ();
  writer =
      g_subprocess_newv ((const char *const *) writer_argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (writer, NULL, writer_done, &writer_end);
  while (!timed_out && writer_end == 0)
    g_main_context_iteration (NULL, TRUE);
  /* It says how many files it wrote: the window has caught up once it
   * shows them all. */
  {
    g_autoptr (GDataInputStream) out =
        g_data_input_stream_new (g_subprocess_get_stdout_pipe (writer));
    g_autofree char *line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, NULL);

    if (line == NULL || sscanf (line, "wrote %u files", &written) != 1)
      g_error ("the writer did not say how many files it wrote");
  }
  while (!timed_out && g_list_model_get_n_items (ovi_dump_folder_get_files (shown)) < written)
    g_main_context_iteration (NULL, TRUE);
  end = g_get_monotonic_time ();
  cpu = cpu_seconds () - cpu;

  /* What the folder holds, read from scratch beside the window (after the
   * measurement: it is not the window's work). */
  scan = g_task_new (NULL, NULL, fresh_done, &fresh);
  g_task_set_task_data (scan, g_object_ref (root), g_object_unref);
  g_task_run_in_thread (scan, fresh_scan);
  while (!timed_out && fresh == NULL)
    g_main_context_iteration (NULL, TRUE);
  while (!timed_out && g_list_model_get_n_items (ovi_dump_folder_get_records (shown)) !=
                           g_list_model_get_n_items (ovi_dump_folder_get_records (fresh)))
    g_main_context_iteration (NULL, TRUE);
  match = !timed_out &&
          same_paths (ovi_dump_folder_get_files (shown), ovi_dump_folder_get_files (fresh));

  printf ("{\"worst_ms\": %.1f, \"worst_after_first_record_ms\": %.1f, "
          "\"cpu_percent\": %.1f, \"seconds\": %.2f, "
          "\"caught_up_after_writer_s\": %.2f, \"files\": %u, \"records\": %u, "
          "\"fresh_files\": %u, \"fresh_records\": %u, \"match\": %s, \"timed_out\": %s}\n",
          (worst - 1000) / 1000.0, (worst_after_first_frame - 1000) / 1000.0,
          100.0 * cpu / ((end - start) / 1e6), (end - start) / 1e6, (end - writer_end) / 1e6,
          g_list_model_get_n_items (ovi_dump_folder_get_files (shown)),
          g_list_model_get_n_items (ovi_dump_folder_get_records (shown)),
          fresh ? g_list_model_get_n_items (ovi_dump_folder_get_files (fresh)) : 0,
          fresh ? g_list_model_get_n_items (ovi_dump_folder_get_records (fresh)) : 0,
          match ? "true" : "false", timed_out ? "true" : "false");
  g_clear_object (&fresh);
  gtk_window_destroy (GTK_WINDOW (window));
  return match ? 0 : 1;
}

static int
run_reports (OviWindow *window, int n_files, char **paths)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  OviCluster *cluster = ovi_session_get_cluster (ovi_window_get_session (window));
  GtkColumnView *view = ovi_timeline_page_get_column_view (ovi_window_get_timeline_page (window));
  gboolean timed_out = FALSE;
  gint64 shown = 0, end;
  struct rusage usage;

  for (int i = 0; i < n_files; i++)
    g_ptr_array_add (files, g_file_new_for_commandline_arg (paths[i]));
  g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, window, NULL);
  g_timeout_add_seconds (600, give_up, &timed_out);
  start = g_get_monotonic_time ();
  ovi_window_add_reports (window, (GFile *const *) files->pdata, files->len);
  /* Shown: the page lists the ranks and a frame has painted since. */
  while (!timed_out &&
         (ovi_cluster_get_n_roots (cluster) == 0 || !gtk_widget_get_mapped (GTK_WIDGET (view))))
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (after_paint), NULL);
  gtk_widget_queue_draw (GTK_WIDGET (window));
  while (!timed_out && !first_frame_done)
    g_main_context_iteration (NULL, TRUE);
  shown = g_get_monotonic_time ();
  while (!timed_out && g_get_monotonic_time () - shown < G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  end = g_get_monotonic_time ();
  getrusage (RUSAGE_SELF, &usage);
  printf ("{\"shown_s\": %.3f, \"worst_ms\": %.1f, \"worst_after_first_frame_ms\": %.1f, "
          "\"seconds\": %.2f, \"roots\": %u, \"ranks\": %u, \"peak_rss_mib\": %.1f, "
          "\"timed_out\": %s}\n",
          (shown - start) / 1e6, (worst - 1000) / 1000.0, (worst_after_first_frame - 1000) / 1000.0,
          (end - start) / 1e6, ovi_cluster_get_n_roots (cluster),
          g_list_model_get_n_items (ovi_cluster_get_ranks (cluster)), usage.ru_maxrss / 1024.0,
          timed_out ? "true" : "false");
  gtk_window_destroy (GTK_WINDOW (window));
  return timed_out ? 1 : 0;
}

int
main (int argc, char **argv)
{
  g_autoptr (OviApplication) app = NULL;
  g_autoptr (OviDumpFile) big = NULL;
  g_autoptr (GFile) tree = NULL;
  g_autoptr (GError) error = NULL;
  gboolean timed_out = FALSE;
  OviWindow *window;

  if (argc != 3 && !(argc >= 4 && g_str_equal (argv[1], "--live")) &&
      !(argc >= 3 && g_str_equal (argv[1], "--reports")))
    {
      fprintf (stderr,
               "usage: %s TREE TENSOR_FILE | --live FOLDER WRITER [ARG...] | --reports FILE...\n",
               argv[0]);
      return 2;
    }
  if (!gtk_init_check ())
    {
      fprintf (stderr, "no display\n");
      return 77;
    }
  app = ovi_application_new ();
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  window = ovi_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (g_str_equal (argv[1], "--live"))
    return run_live (window, argv[2], argv + 3);
  if (g_str_equal (argv[1], "--reports"))
    return run_reports (window, argc - 2, argv + 2);

  if (!(big = ovi_dump_file_load (argv[2], NULL, &error)))
    g_error ("%s", error->message);

  g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, window, NULL);
  g_timeout_add_seconds (600, give_up, &timed_out);
  start = g_get_monotonic_time ();
  tree = g_file_new_for_commandline_arg (argv[1]);
  ovi_window_open_file (window, tree);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (after_paint), NULL);
  /* The histogram of the large tensor, computed while the scan runs. */
  ovi_window_show_tensor (window, big, 0);

  while (!timed_out && (ovi_window_get_busy (window) ||
                        ovi_tensor_view_get_busy (ovi_window_get_tensor_view (window)) ||
                        g_get_monotonic_time () - start < G_USEC_PER_SEC))
    g_main_context_iteration (NULL, TRUE);

  printf ("{\"worst_ms\": %.1f, \"worst_after_first_frame_ms\": %.1f, \"ticks\": %" G_GINT64_FORMAT
          ", \"seconds\": %.2f, "
          "\"records\": %u, \"files\": %u, \"timed_out\": %s}\n",
          (worst - 1000) / 1000.0, (worst_after_first_frame - 1000) / 1000.0, ticks,
          (g_get_monotonic_time () - start) / 1e6,
          g_list_model_get_n_items (ovi_dump_folder_get_records (ovi_window_get_folder (window))),
          g_list_model_get_n_items (ovi_dump_folder_get_files (ovi_window_get_folder (window))),
          timed_out ? "true" : "false");
  gtk_window_destroy (GTK_WINDOW (window));
  return timed_out ? 1 : 0;
}
