/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Graph page on a generated iteration whose dataflow is known
 * (tests/fixtures/ovi-graph-fixture.c): what it draws around the selected
 * operator, where (producers above consumers, no two nodes on one spot),
 * that a click selects an operator on every page, that the arrow keys
 * follow the edges, zoom, and the chain line of the Overflows and
 * Operators pages. */
#include "config.h"

#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The iteration: tests/fixtures/ovi-make-graph-iteration, a small network
 * whose l2/MatMul makes NaN that reaches out/Softmax, where it is
 * absorbed. */
#define WITH_ADDRESSES 1
#define WITH_JSON 2

typedef struct
{
  OviWindow *window;
  char *tmpdir;
  OviGraphPage *page;
} GraphFixture;

static OviSession *
session_of (GraphFixture *f)
{
  return ovi_window_get_session (f->window);
}

static OviGraphState *
state_of (GraphFixture *f)
{
  return ovi_session_get_graph (session_of (f));
}

static void
setup (GraphFixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) root = NULL;
  guint flags = GPOINTER_TO_UINT (data);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  int status = 0;

  f->tmpdir = g_dir_make_tmp ("ovi-graph-page-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_nonnull (g_getenv ("OVI_MAKE_GRAPH_ITERATION"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("OVI_MAKE_GRAPH_ITERATION"));
  if (!(flags & WITH_ADDRESSES))
    g_ptr_array_add (argv, "--no-addresses");
  if (flags & WITH_JSON)
    g_ptr_array_add (argv, "--json");
  g_ptr_array_add (argv, f->tmpdir);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  f->window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 900);
  gtk_window_present (GTK_WINDOW (f->window));
  root = g_file_new_for_path (f->tmpdir);
  ovi_session_load (session_of (f), root);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  f->page = f->window->graph_page;
  ovi_test_wait_still ();
}

static void
teardown (GraphFixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  ovi_test_wait_finalized (g_steal_pointer (&f->window), TRUE);
  ovi_test_wait_still ();
  remove_tree (f->tmpdir);
  g_free (f->tmpdir);
}

/* The dump file of @op_name: the iteration's graph is built as soon as an
 * operator of it is selected, and names them all. */
static OviDumpFile *
op_file (GraphFixture *f, const char *op_name)
{
  GListModel *operators = ovi_session_get_operators (session_of (f));
  g_autoptr (OviDumpFile) first = g_list_model_get_item (operators, 0);
  OviGraph *graph;
  OviGraphNode *node;

  if (ovi_graph_state_get_graph (state_of (f)) == NULL)
    {
      ovi_session_set_selected_file (session_of (f), first);
      WAIT_UNTIL (ovi_graph_state_get_graph (state_of (f)) != NULL);
    }
  graph = ovi_graph_state_get_graph (state_of (f));
  node = ovi_graph_lookup (graph, op_name);
  g_assert_nonnull (node);
  return ovi_graph_node_get_file (node);
}

/* Shows the page around @op_name and waits until it is drawn. */
static OviGraphCanvas *
show_around (GraphFixture *f, const char *op_name)
{
  OviGraphCanvas *canvas = ovi_graph_page_get_canvas (f->page);
  OviDumpFile *file = op_file (f, op_name);

  ovi_session_set_selected_file (session_of (f), file);
  ovi_window_show_page (f->window, "graph");
  WAIT_UNTIL (g_strcmp0 (ovi_graph_page_get_state (f->page), "graph") == 0 &&
              ovi_graph_page_get_node (f->page, 0) != NULL &&
              ovi_graph_canvas_get_n_nodes (canvas) > 0 && ovi_graph_canvas_get_complete (canvas) &&
              g_strcmp0 (ovi_dump_file_get_op_name (file),
                         ovi_dump_file_get_op_name (ovi_graph_state_get_operator (state_of (f)))) ==
                  0);
  ovi_test_wait_still ();
  return canvas;
}

static guint
canvas_index (GraphFixture *f, const char *op_name)
{
  OviGraphCanvas *canvas = ovi_graph_page_get_canvas (f->page);

  for (guint i = 0; i < ovi_graph_canvas_get_n_nodes (canvas); i++)
    if (g_strcmp0 (ovi_graph_node_get_name (ovi_graph_page_get_node (f->page, i)), op_name) == 0)
      return i;
  return G_MAXUINT;
}

/* Whether the page shows every node around @op_name, @op_name selected. */
static gboolean
drawn_around (GraphFixture *f, const char *op_name)
{
  OviGraphCanvas *canvas = ovi_graph_page_get_canvas (f->page);
  guint i;

  if (!ovi_graph_canvas_get_complete (canvas) || (i = canvas_index (f, op_name)) == G_MAXUINT)
    return FALSE;
  return gtk_widget_has_css_class (ovi_graph_canvas_get_node_widget (canvas, i), "selected");
}

static graphene_rect_t
node_bounds (GraphFixture *f, guint index)
{
  OviGraphCanvas *canvas = ovi_graph_page_get_canvas (f->page);
  graphene_rect_t r;

  g_assert_true (gtk_widget_compute_bounds (ovi_graph_canvas_get_node_widget (canvas, index),
                                            GTK_WIDGET (canvas), &r));
  return r;
}

/* Around res/Add, two hops each way: its chain from l2/MatMul, what fed it
 * (l2/Relu, the Cast and its input), what it fed; every producer drawn
 * above its consumer, no two nodes overlapping, the origin marked. */
static void
test_draws_neighbourhood (GraphFixture *f, gconstpointer data)
{
  OviGraphCanvas *canvas = show_around (f, "res/Add");
  OviGraph *graph = ovi_graph_state_get_graph (state_of (f));
  guint n = ovi_graph_canvas_get_n_nodes (canvas);
  guint center = canvas_index (f, "res/Add");
  guint origin = canvas_index (f, "l2/MatMul");
  g_autoptr (GArray) expected = NULL;
  guint n_edges_checked = 0;

  expected = ovi_graph_dup_neighbourhood (
      graph, ovi_graph_node_get_index (ovi_graph_lookup (graph, "res/Add")), 2, 2);
  g_assert_cmpuint (n, ==, expected->len);
  g_assert_cmpuint (center, !=, G_MAXUINT);
  g_assert_cmpuint (origin, !=, G_MAXUINT);
  g_assert_cmpuint (canvas_index (f, "l2/Relu"), !=, G_MAXUINT);
  g_assert_cmpuint (canvas_index (f, "out/Mul"), !=, G_MAXUINT);
  g_assert_cmpuint (canvas_index (f, "out/Softmax"), !=, G_MAXUINT);
  g_assert_cmpuint (canvas_index (f, "input_ids"), ==, G_MAXUINT); /* three hops up */
  g_assert_true (
      gtk_widget_has_css_class (ovi_graph_canvas_get_node_widget (canvas, center), "selected"));
  g_assert_true (
      gtk_widget_has_css_class (ovi_graph_canvas_get_node_widget (canvas, origin), "origin"));
  g_assert_true (gtk_widget_has_css_class (
      ovi_graph_canvas_get_node_widget (canvas, canvas_index (f, "out/Softmax")), "absorbed"));

  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t a = node_bounds (f, i);
      guint n_out = 0;
      const guint *out = ovi_graph_get_out_edges (
          graph, ovi_graph_node_get_index (ovi_graph_page_get_node (f->page, i)), &n_out);

      for (guint j = i + 1; j < n; j++)
        {
          graphene_rect_t b = node_bounds (f, j);

          g_assert_false (graphene_rect_intersection (&a, &b, NULL));
        }
      for (guint k = 0; k < n_out; k++)
        {
          const char *consumer = ovi_graph_node_get_name (
              ovi_graph_get_node (graph, ovi_graph_get_edge (graph, out[k])->consumer));
          guint j = canvas_index (f, consumer);

          if (j == G_MAXUINT)
            continue;
          g_assert_cmpfloat (a.origin.y + a.size.height, <, node_bounds (f, j).origin.y);
          n_edges_checked++;
        }
    }
  g_assert_cmpuint (n_edges_checked, >=, 5);
}

/* The page and the pages that show records say how NaN reached the
 * operator; this iteration's edges come from addresses, so no run-order
 * note. */
static void
assert_chain_shown (GtkWidget *page, const char *chain)
{
  OviChainLine *line = OVI_CHAIN_LINE (find_descendant (page, OVI_TYPE_CHAIN_LINE));
  g_autofree char *expected = g_strdup_printf ("Chain: %s", chain);

  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (line)));
  g_assert_cmpstr (ovi_chain_line_get_text (line), ==, expected);
}

static void
test_chain_lines (GraphFixture *f, gconstpointer data)
{
  const char *chain = "l2/MatMul → l2/Relu → res/Add → out/Mul";

  show_around (f, "out/Mul");
  g_assert_cmpstr (ovi_graph_state_get_chain (state_of (f)), ==, chain);
  assert_chain_shown (GTK_WIDGET (f->page), chain);
  g_assert_false (gtk_widget_get_visible ((GtkWidget *) gtk_widget_get_template_child (
      GTK_WIDGET (f->page), OVI_TYPE_GRAPH_PAGE, "note_label")));

  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  assert_chain_shown (GTK_WIDGET (ovi_window_get_operators_page (f->window)), chain);

  ovi_window_show_page (f->window, "overflows");
  ovi_test_wait_still ();
  assert_chain_shown (GTK_WIDGET (ovi_window_get_overflows_page (f->window)), chain);
}

/* A click on a node selects its operator on every page; the page then
 * draws around it. */
static void
test_click_selects (GraphFixture *f, gconstpointer data)
{
  OviGraphCanvas *canvas = show_around (f, "res/Add");
  guint softmax = canvas_index (f, "out/Softmax");
  OviDumpFile *file = ovi_graph_node_get_file (ovi_graph_page_get_node (f->page, softmax));

  if (!xdotool_click (ovi_graph_canvas_get_node_widget (canvas, softmax), 1))
    return;
  WAIT_UNTIL (ovi_session_get_selected_file (session_of (f)) == file);
  WAIT_UNTIL (drawn_around (f, "out/Softmax"));
  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  g_assert_true (ovi_session_get_selected_file (session_of (f)) == file);
}

/* Up from res/Add goes to a producer, Down from there back to a consumer;
 * Return selects the node that has the focus. */
static void
test_keyboard (GraphFixture *f, gconstpointer data)
{
  OviGraphCanvas *canvas = show_around (f, "res/Add");
  guint center = canvas_index (f, "res/Add");
  OviGraph *graph = ovi_graph_state_get_graph (state_of (f));
  OviGraphNode *above;
  guint n_in = 0;
  const guint *in;
  gboolean fed = FALSE;

  g_assert_true (ovi_graph_canvas_focus_node (canvas, center));
  if (!xdotool_keys (ovi_graph_canvas_get_node_widget (canvas, center), "Up"))
    return;
  WAIT_UNTIL (ovi_graph_canvas_get_focus_node (canvas) != center);
  above = ovi_graph_page_get_node (f->page, ovi_graph_canvas_get_focus_node (canvas));
  in = ovi_graph_get_in_edges (
      graph, ovi_graph_node_get_index (ovi_graph_lookup (graph, "res/Add")), &n_in);
  for (guint k = 0; k < n_in; k++)
    fed |= ovi_graph_get_edge (graph, in[k])->producer == ovi_graph_node_get_index (above);
  g_assert_true (fed);

  xdotool_keys (GTK_WIDGET (canvas), "Down");
  WAIT_UNTIL (ovi_graph_canvas_get_focus_node (canvas) == center);
  xdotool_keys (GTK_WIDGET (canvas), "Up");
  WAIT_UNTIL (ovi_graph_canvas_get_focus_node (canvas) != center);
  above = ovi_graph_page_get_node (f->page, ovi_graph_canvas_get_focus_node (canvas));
  xdotool_keys (GTK_WIDGET (canvas), "Return");
  WAIT_UNTIL (ovi_session_get_selected_file (session_of (f)) == ovi_graph_node_get_file (above));
}

/* Ctrl+plus makes every node larger, Ctrl+0 gives the first size back. */
static void
test_zoom (GraphFixture *f, gconstpointer data)
{
  OviGraphCanvas *canvas = show_around (f, "res/Add");
  GtkWidget *node = ovi_graph_canvas_get_node_widget (canvas, 0);
  graphene_rect_t before, after;

  g_assert_true (gtk_widget_compute_bounds (node, GTK_WIDGET (f->window), &before));
  ovi_graph_canvas_focus_node (canvas, 0);
  if (!xdotool_keys (node, "ctrl+plus"))
    return;
  WAIT_UNTIL (ovi_graph_canvas_get_zoom (canvas) > 1.0);
  ovi_test_wait_still ();
  g_assert_true (gtk_widget_compute_bounds (node, GTK_WIDGET (f->window), &after));
  g_assert_cmpfloat (after.size.width, >, before.size.width * 1.2);
  xdotool_keys (node, "ctrl+0");
  WAIT_UNTIL (ovi_graph_canvas_get_zoom (canvas) == 1.0);
}

/* The same dumps without addresses and no graph JSON: no edges, and the
 * page says the blame follows run order. */
static void
test_run_order_only (GraphFixture *f, gconstpointer data)
{
  GtkWidget *note;

  show_around (f, "res/Add");
  note = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (f->page), OVI_TYPE_GRAPH_PAGE,
                                                      "note_label");
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (note)), ==,
                   ovi_graph_get_run_order_note (ovi_graph_state_get_graph (state_of (f))));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (note)), "run order"));
}

/* A followed folder gets one more operator, reading out/Cast's output:
 * the graph is built again (in a scheduler turn, once the new file is in
 * the session) and the page draws the new node below out/Cast. */
static void
test_follows_new_operator (GraphFixture *f, gconstpointer data)
{
  OviSession *session = session_of (f);
  OviDumpFile *last = NULL;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("tail/Neg");
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  const guint64 shape[] = { 2 };
  const double values[] = { 1.0, 3.0 };
  guint64 address = 0;
  GPtrArray *tensors;
  OviGraph *before;

  WAIT_UNTIL (ovi_session_get_watch (session) != NULL &&
              !ovi_folder_watch_get_busy (ovi_session_get_watch (session)));
  show_around (f, "out/Cast");
  before = ovi_graph_state_get_graph (state_of (f));
  g_assert_null (ovi_graph_lookup (before, "tail/Neg"));
  last = op_file (f, "out/Cast");
  tensors = ovi_dump_file_get_tensors (last);
  for (guint i = 0; i < tensors->len; i++)
    if (ovi_tensor_get_kind (g_ptr_array_index (tensors, i)) == OVI_TENSOR_OUTPUT)
      address = ovi_tensor_get_address (g_ptr_array_index (tensors, i));
  g_assert_cmpuint (address, !=, 0);

  /* After every operator of the iteration, in its folder. */
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, values);
  ovi_dump_writer_set_address (w, OVI_TENSOR_INPUT, 0, address);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, values);
  ovi_dump_writer_set_address (w, OVI_TENSOR_OUTPUT, 0, 0x12c0900000);
  dir = g_path_get_dirname (ovi_dump_file_get_path (last));
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, "Neg.tail_Neg.99.1.1700000000009990");

  WAIT_UNTIL (ovi_graph_state_get_graph (state_of (f)) != before &&
              ovi_graph_state_get_graph (state_of (f)) != NULL &&
              ovi_graph_lookup (ovi_graph_state_get_graph (state_of (f)), "tail/Neg") != NULL);
  g_assert_cmpstr (ovi_dump_file_get_op_name (ovi_graph_state_get_operator (state_of (f))), ==,
                   "out/Cast");
  WAIT_UNTIL (ovi_graph_canvas_get_complete (ovi_graph_page_get_canvas (f->page)) &&
              canvas_index (f, "tail/Neg") != G_MAXUINT);
  g_assert_true (drawn_around (f, "out/Cast"));
}

/* With OVI_SCREENSHOT_DIR set (tests/app/take-screenshots.sh), the page
 * as the README shows it, around res/Add: graph.png, or
 * graph-LANGUAGE.png under LANGUAGE. */
static void
test_screenshot (GraphFixture *f, gconstpointer data)
{
  const char *dir = g_getenv ("OVI_SCREENSHOT_DIR");
  const char *language = g_getenv ("LANGUAGE");
  g_autofree char *name = NULL, *path = NULL;

  if (dir == NULL)
    {
      g_test_skip ("OVI_SCREENSHOT_DIR is not set");
      return;
    }
  resize_to (f->window, 1400, 900);
  show_around (f, "res/Add");
  name = language != NULL && *language != '\0' ? g_strdup_printf ("graph-%s.png", language)
                                               : g_strdup ("graph.png");
  path = g_build_filename (dir, name, NULL);
  ovi_test_wait_still ();
  save_widget_png (GTK_WIDGET (f->window), path);
}

int
main (int argc, char *argv[])
{
  int exit_code;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;
#define ADD(path, func, flags)                                                                     \
  g_test_add (path, GraphFixture, GUINT_TO_POINTER (flags), setup, func, teardown)
  ADD ("/app/graph-page/draws-neighbourhood", test_draws_neighbourhood, WITH_ADDRESSES);
  ADD ("/app/graph-page/chain-lines", test_chain_lines, WITH_ADDRESSES);
  ADD ("/app/graph-page/click-selects", test_click_selects, WITH_ADDRESSES);
  ADD ("/app/graph-page/keyboard", test_keyboard, WITH_ADDRESSES);
  ADD ("/app/graph-page/zoom", test_zoom, WITH_ADDRESSES);
  ADD ("/app/graph-page/run-order-only", test_run_order_only, 0);
  ADD ("/app/graph-page/follows-new-operator", test_follows_new_operator, WITH_ADDRESSES);
  ADD ("/app/graph-page/screenshot", test_screenshot, WITH_ADDRESSES | WITH_JSON);
  return ovi_test_run ();
}
