/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <time.h>

#include "ovi-fixtures.h"
#include "ovi-graph-fixture.h"

/* ovi-bench-graph [N]: one iteration's graph built from the addresses of N
 * operators (default 10 000), against the operator index of the same
 * files, in the same run. The iteration is a network through the reusing
 * allocator: each operator reads the one before, one seven back (a skip
 * connection) and a weight. Prints one JSON object: the seconds of each
 * (CPU seconds of the thread, the best of eleven taken in turns), their
 * ratio, and the first build's wall-clock seconds, which also summarises
 * every operator (reads its tensors) on the worker pool. */

/* CPU seconds of this thread: both builds run on it (the operators are
 * summarised before), and a busy machine's other processes do not count. */
static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
index_once (OviDumpFolder *folder)
{
  double start = cpu_now ();
  g_autoptr (OviOpIndex) index = ovi_op_index_new (folder);

  return cpu_now () - start;
}

static double
graph_once (OviDumpFolder *folder)
{
  double start = cpu_now ();
  g_autoptr (OviGraph) graph = ovi_graph_build (folder, NULL, NULL, NULL, NULL);

  g_assert_cmpuint (ovi_graph_get_n_edges (graph), >, 0);
  return cpu_now () - start;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 10000;
  g_autofree char *root = g_dir_make_tmp ("ovi-bench-graph-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (root, "20260101000000/0/11/0", NULL);
  g_autofree OviGraphFixtureOp *ops = g_new0 (OviGraphFixtureOp, n);
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  static const OviGraphFixtureExternal inputs[] = { { "x", "Data", FALSE },
                                                    { "w", "Const", FALSE } };
  OviGraphFixtureNet net = { inputs, G_N_ELEMENTS (inputs), NULL, n };
  OviGraphFixtureTruth truth;
  g_autoptr (OviDumpFolder) folder = NULL;
  double first, index, graph;
  gint64 start;

  g_assert_cmpuint (n, >, 8);
  for (guint i = 0; i < n; i++)
    {
      char *name = g_strdup_printf ("net/layer%u/MatMul", i);
      char *in = i == 0  ? g_strdup ("x w")
                 : i < 7 ? g_strdup_printf ("%s w", ops[i - 1].name)
                         : g_strdup_printf ("%s %s w", ops[i - 1].name, ops[i - 7].name);

      g_ptr_array_add (strings, name);
      g_ptr_array_add (strings, in);
      ops[i] =
          (OviGraphFixtureOp){ "MatMul", name, in, 0,
                               i == n / 2 ? OVI_GRAPH_FIXTURE_ORIGIN : OVI_GRAPH_FIXTURE_PASS };
    }
  net.ops = ops;
  ovi_graph_fixture_write (&net, dir, OVI_GRAPH_FIXTURE_ADDRESSES, &truth);
  folder = ovi_fixture_load_folder (root);

  start = g_get_monotonic_time ();
  {
    g_autoptr (OviGraph) g = ovi_graph_build (folder, NULL, NULL, NULL, NULL);
    g_assert_cmpuint (ovi_graph_get_n_edges (g), ==, truth.edges->len);
  }
  first = (g_get_monotonic_time () - start) / 1e6;
  /* Taken in turns, so that a busy machine slows both alike. */
  index = graph = G_MAXDOUBLE;
  for (guint i = 0; i < 11; i++)
    {
      index = MIN (index, index_once (folder));
      graph = MIN (graph, graph_once (folder));
    }
  g_print (
      "{\"operators\": %u, \"edges\": %u, \"first_build_wall_s\": %.4f, \"index_cpu_s\": %.4f, "
      "\"graph_cpu_s\": %.4f, \"graph_over_index\": %.2f}\n",
      n, truth.edges->len, first, index, graph, graph / index);
  ovi_graph_fixture_truth_clear (&truth);
  ovi_fixture_remove_tree (root);
  return 0;
}
