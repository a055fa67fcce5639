/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Graph page's layout: producers above consumers, no two nodes of a
 * layer on one spot, every edge routed from its source to its target
 * through one point per layer it crosses. */
#include "config.h"

#include <math.h>

#include "ovi-graph-layout.h"

/* What a reader of the drawing checks, for any graph whose edges go
 * forward in node order, or come from a node
 * no edge reaches. */
static void
check_drawing (OviGraphLayout *layout, const guint *edges, guint n_edges)
{
  guint n = ovi_graph_layout_get_n_nodes (layout);

  for (guint i = 0; i < n_edges; i++)
    {
      OviGraphPoint s = ovi_graph_layout_get_node (layout, edges[2 * i]);
      OviGraphPoint t = ovi_graph_layout_get_node (layout, edges[2 * i + 1]);
      const OviGraphPoint *route;
      guint n_points;

      g_assert_cmpfloat (s.y, <, t.y);
      route = ovi_graph_layout_get_route (layout, i, &n_points);
      g_assert_cmpuint (n_points, ==, (guint) (t.y - s.y) + 1);
      g_assert_cmpfloat (route[0].x, ==, s.x);
      g_assert_cmpfloat (route[0].y, ==, s.y);
      g_assert_cmpfloat (route[n_points - 1].x, ==, t.x);
      g_assert_cmpfloat (route[n_points - 1].y, ==, t.y);
      for (guint k = 1; k < n_points; k++)
        g_assert_cmpfloat (route[k].y, ==, route[k - 1].y + 1);
    }
  for (guint a = 0; a < n; a++)
    for (guint b = a + 1; b < n; b++)
      {
        OviGraphPoint p = ovi_graph_layout_get_node (layout, a);
        OviGraphPoint q = ovi_graph_layout_get_node (layout, b);

        if (p.y == q.y)
          g_assert_cmpfloat (fabs (p.x - q.x), >=, 1.0);
      }
}

/* Input → Cast; Cast feeds two branches that meet in Add, then Loss. */
static void
test_diamond (void)
{
  const guint edges[] = { 0, 1, 1, 2, 1, 3, 2, 4, 3, 4, 4, 5 };
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraphLayout) layout = ovi_graph_layout_compute (6, edges, 6, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (ovi_graph_layout_get_n_layers (layout), ==, 5);
  g_assert_cmpfloat (ovi_graph_layout_get_node (layout, 2).y, ==, 2);
  g_assert_cmpfloat (ovi_graph_layout_get_node (layout, 3).y, ==, 2);
  g_assert_cmpfloat (ovi_graph_layout_get_width (layout), >=, 2);
  check_drawing (layout, edges, 6);
}

/* An edge that skips two layers goes round through two points between. */
static void
test_long_edge (void)
{
  const guint edges[] = { 0, 1, 1, 2, 2, 3, 0, 3 };
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraphLayout) layout = ovi_graph_layout_compute (4, edges, 4, NULL, &error);
  guint n_points;

  g_assert_no_error (error);
  ovi_graph_layout_get_route (layout, 3, &n_points);
  g_assert_cmpuint (n_points, ==, 4);
  check_drawing (layout, edges, 4);
}

/* A loop (an in-place write read back) has no route; isolated nodes sit
 * on the first layer. */
static void
test_loop_and_isolated (void)
{
  const guint edges[] = { 0, 0, 0, 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraphLayout) layout = ovi_graph_layout_compute (3, edges, 2, NULL, &error);
  guint n_points = 99;

  g_assert_no_error (error);
  ovi_graph_layout_get_route (layout, 0, &n_points);
  g_assert_cmpuint (n_points, ==, 0);
  ovi_graph_layout_get_route (layout, 1, &n_points);
  g_assert_cmpuint (n_points, ==, 2);
  g_assert_cmpfloat (ovi_graph_layout_get_node (layout, 2).y, ==, 0);
}

/* Nodes a graph JSON adds (inputs, weights) come after the operators
 * they feed in node order, and still sit above them. */
static void
test_inputs_listed_last (void)
{
  const guint edges[] = { 2, 0, 0, 1, 3, 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraphLayout) layout = ovi_graph_layout_compute (4, edges, 3, NULL, &error);

  g_assert_no_error (error);
  check_drawing (layout, edges, 3);
}

static void
test_bad_edge (void)
{
  const guint edges[] = { 0, 7 };
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraphLayout) layout = ovi_graph_layout_compute (2, edges, 1, NULL, &error);

  g_assert_null (layout);
  g_assert_error (error, OVI_GRAPH_LAYOUT_ERROR, OVI_GRAPH_LAYOUT_ERROR_BAD_EDGE);
}

static void
got_layout (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OviGraphLayout **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = ovi_graph_layout_compute_finish (result, &error);
  g_assert_no_error (error);
}

/* 500 operators as a transformer stack writes them: each block's two
 * branches, residual edges that skip layers. Laid out on the pool. */
static void
test_async_500 (void)
{
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
  OviGraphLayout *layout = NULL;

  for (guint v = 1; v < 500; v++)
    {
      guint u = v - 1, w = v >= 5 && v % 5 == 0 ? v - 5 : G_MAXUINT;

      g_array_append_val (edges, u);
      g_array_append_val (edges, v);
      if (w != G_MAXUINT)
        {
          g_array_append_val (edges, w);
          g_array_append_val (edges, v);
        }
    }
  ovi_graph_layout_compute_async (500, (guint *) edges->data, edges->len / 2, NULL, got_layout,
                                  &layout);
  while (layout == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (ovi_graph_layout_get_n_nodes (layout), ==, 500);
  check_drawing (layout, (guint *) edges->data, edges->len / 2);
  ovi_graph_layout_unref (layout);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/graph-layout/diamond", test_diamond);
  g_test_add_func ("/core/graph-layout/long-edge", test_long_edge);
  g_test_add_func ("/core/graph-layout/loop-and-isolated", test_loop_and_isolated);
  g_test_add_func ("/core/graph-layout/inputs-listed-last", test_inputs_listed_last);
  g_test_add_func ("/core/graph-layout/bad-edge", test_bad_edge);
  g_test_add_func ("/core/graph-layout/async-500", test_async_500);
  return g_test_run ();
}
