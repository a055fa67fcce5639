/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>

#include "ovi-application.h"
#include "ovi-graph-layout.h"
#include "ovi-window-private.h"

/* The Graph page on a large neighbourhood:
 *   ovi-bench-graph-page ROOT OP_NAME
 * ROOT is an iteration written by `ovi-make-graph-iteration ROOT 500`
 * (tests/fixtures: 1,509 operators, each block passing its NaN on, so the
 * chain of block499/Add runs through 500 of them: a neighbourhood of 505).
 * The window opens ROOT on the Graph page; once it is loaded, OP_NAME is
 * selected and the page lays out the operator's neighbourhood and draws
 * it. Reported: the nodes drawn, the seconds until they are painted, the
 * longest main-loop turn until then and over the second after (as
 * ovi-bench-ui.c measures it: a 1 ms timeout notes the gaps between its
 * runs) with the main thread's CPU time in it, and the time one layout of
 * that neighbourhood takes on its own (ovi_graph_layout_compute()). */

static gint64 last, last_cpu, worst, worst_cpu;

/* The main thread's CPU time: a turn spent computing, told from one spent
 * waiting for a core (this machine's other processes). */
static gint64
thread_cpu_time (void)
{
  struct rusage usage;

  getrusage (RUSAGE_THREAD, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_GINT64_CONSTANT (1000000) +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_time ();

  if (last && now - last > worst)
    {
      worst = now - last;
      worst_cpu = cpu - last_cpu;
    }
  last = now;
  last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static gboolean
give_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
painted (GdkFrameClock *clock, gint64 *at)
{
  if (*at == 0)
    *at = g_get_monotonic_time ();
}

/* Whether the page has drawn the neighbourhood of @node. */
static gboolean
drawn (OviGraphPage *page, OviGraphNode *node)
{
  OviGraphCanvas *canvas = ovi_graph_page_get_canvas (page);

  if (g_strcmp0 (ovi_graph_page_get_state (page), "graph") != 0 ||
      !ovi_graph_canvas_get_complete (canvas))
    return FALSE;
  for (guint i = 0; i < ovi_graph_canvas_get_n_nodes (canvas); i++)
    if (ovi_graph_page_get_node (page, i) == node)
      return gtk_widget_has_css_class (ovi_graph_canvas_get_node_widget (canvas, i), "selected");
  return FALSE;
}

/* The neighbourhood the page drew, laid out again alone: its seconds. */
static double
layout_seconds (OviGraph *graph, OviGraphNode *node)
{
  g_autoptr (GArray) members =
      ovi_graph_dup_neighbourhood (graph, ovi_graph_node_get_index (node), 2, 2);
  g_autoptr (GHashTable) local = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (OviGraphLayout) layout = NULL;
  g_autoptr (GError) error = NULL;
  gint64 t0;

  for (guint i = 0; i < members->len; i++)
    g_hash_table_insert (local, GUINT_TO_POINTER (g_array_index (members, guint, i)),
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < members->len; i++)
    {
      guint n = 0;
      const guint *out = ovi_graph_get_out_edges (graph, g_array_index (members, guint, i), &n);

      for (guint k = 0; k < n; k++)
        {
          guint j = GPOINTER_TO_UINT (g_hash_table_lookup (
              local, GUINT_TO_POINTER (ovi_graph_get_edge (graph, out[k])->consumer)));

          if (j-- == 0)
            continue;
          g_array_append_val (edges, i);
          g_array_append_val (edges, j);
        }
    }
  t0 = g_get_monotonic_time ();
  layout =
      ovi_graph_layout_compute (members->len, (guint *) edges->data, edges->len / 2, NULL, &error);
  g_assert_no_error (error);
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int argc, char **argv)
{
  g_autoptr (OviApplication) app = NULL;
  g_autoptr (GFile) root = NULL;
  g_autoptr (GError) error = NULL;
  gboolean timed_out = FALSE;
  OviWindow *window;
  OviSession *session;
  OviGraphState *state;
  OviGraphCanvas *canvas;
  OviGraphNode *node;
  gint64 start, painted_at = 0, worst_until_shown;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s ROOT OP_NAME\n", argv[0]);
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
  session = ovi_window_get_session (window);
  state = ovi_session_get_graph (session);
  canvas = ovi_graph_page_get_canvas (window->graph_page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  g_timeout_add_seconds (600, give_up, &timed_out);
  root = g_file_new_for_commandline_arg (argv[1]);
  ovi_window_open_file (window, root);
  ovi_window_show_page (window, "graph");
  while (!timed_out && ovi_window_get_busy (window))
    g_main_context_iteration (NULL, TRUE);
  /* The graph of the iteration, built once (core keeps it with the folder). */
  while (!timed_out && ovi_graph_state_get_graph (state) == NULL)
    {
      GListModel *operators = ovi_session_get_operators (session);
      g_autoptr (OviDumpFile) first = g_list_model_get_item (operators, 0);

      if (ovi_graph_state_get_operator (state) == NULL)
        ovi_session_set_selected_file (session, first);
      g_main_context_iteration (NULL, TRUE);
    }
  node = ovi_graph_lookup (ovi_graph_state_get_graph (state), argv[2]);
  if (node == NULL)
    g_error ("no operator %s", argv[2]);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_timeout_add_full (G_PRIORITY_HIGH, 1, tick, NULL, NULL);
  start = g_get_monotonic_time ();
  ovi_session_set_selected_file (session, ovi_graph_node_get_file (node));
  while (!timed_out && !drawn (window->graph_page, node))
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (painted), &painted_at);
  while (!timed_out && (painted_at == 0 || g_get_monotonic_time () - painted_at < G_USEC_PER_SEC))
    g_main_context_iteration (NULL, TRUE);
  worst_until_shown = worst;

  printf ("{\"nodes\": %u, \"seconds_to_paint\": %.3f, "
          "\"worst_turn_ms\": %.1f, \"its_cpu_ms\": %.1f, \"layout_alone_ms\": %.2f, "
          "\"timed_out\": %s}\n",
          ovi_graph_canvas_get_n_nodes (canvas), (painted_at - start) / 1e6,
          (worst_until_shown - 1000) / 1000.0, worst_cpu / 1000.0,
          layout_seconds (ovi_graph_state_get_graph (state), node) * 1000,
          timed_out ? "true" : "false");
  gtk_window_destroy (GTK_WINDOW (window));
  return timed_out ? 1 : 0;
}
