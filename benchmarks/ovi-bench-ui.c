#include "config.h"

#include <stdio.h>

#include "ovi-application.h"
#include "ovi-window-private.h"

/* How long the window's main loop can go without turning while it scans a
 * large dump tree and computes the histogram of a large tensor:
 *   ovi-bench-ui TREE TENSOR_FILE
 * A 1 ms timeout notes the time between its runs; the longest gap, less the
 * 1 ms, is the longest a frame or an input event could have waited. The
 * longest is reported twice: over the whole run, and from the end of the
 * first frame that shows the folder (opening switches the window to another
 * page, which the renderer draws whole once, whatever the folder). */

static gint64 start, last, worst, worst_after_first_frame, ticks;
static gboolean first_frame_done, after_first_frame;

/* With OVI_BENCH_TRACE set, every turn over 50 ms (and a 0 ms line every
 * half second) is listed with what the window was doing, to tell which
 * phase holds the loop up; the monotonic time matches `perf record -k mono`
 * samples. */
static void
trace (OviWindow *window, gint64 now, gint64 gap)
{
  OviDumpFolder *folder = ovi_window_get_folder (window);

  fprintf (stderr, "%7.3f s (monotonic %.6f): %4.0f ms turn, loading %d, %u files, analyzing %d\n",
           (now - start) / 1e6, now / 1e6, gap / 1000.0, ovi_window_get_loading (window),
           folder ? g_list_model_get_n_items (ovi_dump_folder_get_files (folder)) : 0,
           folder ? ovi_dump_folder_get_analyzing (folder) : 0);
}

static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (last && now - last > 50000 && g_getenv ("OVI_BENCH_TRACE"))
    trace (data, now, now - last);
  else if (g_getenv ("OVI_BENCH_TRACE") && now / 500000 != last / 500000)
    trace (data, now, 0); /* and where things stand every half second */
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

int
main (int argc, char **argv)
{
  g_autoptr (OviApplication) app = NULL;
  g_autoptr (OviDumpFile) big = NULL;
  g_autoptr (GFile) tree = NULL;
  g_autoptr (GError) error = NULL;
  gboolean timed_out = FALSE;
  OviWindow *window;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s TREE TENSOR_FILE\n", argv[0]);
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
