/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-format.h"
#include "ovi-test-util.h"

/* The Iterations page: one operator across iterations. */

/* The text of an Iterations page grid's cell: a label's, or a button's. */
static const char *
grid_cell (OviIterationsPage *page, const char *grid_id, int column, int row)
{
  GtkGrid *grid = GTK_GRID (
      gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_ITERATIONS_PAGE, grid_id));
  GtkWidget *child = gtk_grid_get_child_at (grid, column, row);

  if (GTK_IS_BUTTON (child))
    return gtk_button_get_label (GTK_BUTTON (child));
  return GTK_IS_LABEL (child) ? gtk_label_get_text (GTK_LABEL (child)) : NULL;
}

static const char *
page_label (OviIterationsPage *page, const char *id)
{
  GtkWidget *label =
      GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_ITERATIONS_PAGE, id));

  return gtk_widget_get_visible (label) ? gtk_label_get_text (GTK_LABEL (label)) : "";
}

static const OviStats *
output_stats (OviDumpFile *op, OviAnalysis **analysis)
{
  OviTensor *tensor = g_ptr_array_index (ovi_dump_file_get_tensors (op), output_index (op));
  g_autoptr (GError) error = NULL;

  *analysis = ovi_tensor_analyze (tensor, &error);
  g_assert_no_error (error);
  return ovi_analysis_get_stats (*analysis);
}

static void
test_select_op (Fixture *f, gconstpointer data)
{
  OviIterationsPage *page = ovi_window_get_iterations_view (f->window);
  OviHistogramView *histogram = ovi_iterations_page_get_histogram (page);
  OviOverflowRecord *record = find_record (f->window, 272);
  OviDumpFile *op = ovi_overflow_record_get_op (record);

  g_assert_nonnull (op);
  ovi_window_show_page (f->window, "iterations");
  g_assert_true (ovi_iterations_page_select_op (page, ovi_dump_file_get_op_name (op)));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page));
  g_assert_cmpuint (ovi_iterations_page_get_n_iterations (page), >=, 2);
  g_assert_cmpuint (ovi_histogram_view_get_n_series (histogram), >=, 1);
}

/* Comparing iterations: the page opens on the selected record's operator
 * (not the alphabetically first), follows the selection, compares the
 * iterations of the chosen range and says what it leaves out, shows the
 * first and last of the range side by side with the change, and a grid cell
 * opens that operator in that iteration. */
static void
test_compare_iterations (Fixture *f, gconstpointer data)
{
  OviIterationsPage *page = ovi_window_get_iterations_view (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  OviOverflowRecord *first = find_record (f->window, 272);
  const char *cast = ovi_dump_file_get_op_name (ovi_overflow_record_get_op (first));
  OviDumpFile *cast_3 = find_op (f->window, cast, "3");
  OviDumpFile *cast_4 = find_op (f->window, cast, "4");
  const char *matmul = NULL;
  g_autoptr (OviAnalysis) analysis_3 = NULL;
  g_autoptr (OviAnalysis) analysis_4 = NULL;
  const OviStats *s3 = output_stats (cast_3, &analysis_3);
  const OviStats *s4 = output_stats (cast_4, &analysis_4);
  g_autofree char *max_3 = ovi_format_double (s3->max);
  g_autofree char *max_4 = ovi_format_double (s4->max);
  g_autofree char *nan_change = NULL;
  GtkGrid *spread;
  GtkWidget *cell = NULL;
  OviOverflowRecord *other = NULL;
  GListModel *records = ovi_session_get_records (session);

  /* The first overflow is selected when the folder opens: its operator,
   * where an alphabetical list starts with gradients/AddN_7. */
  g_assert_cmpstr (cast, ==, "gradients/Cast_3");
  for (guint i = 0; i < g_list_model_get_n_items (ovi_session_get_operators (session)); i++)
    {
      g_autoptr (OviDumpFile) op = g_list_model_get_item (ovi_session_get_operators (session), i);

      if (g_strcmp0 (ovi_dump_file_get_op_type (op), "MatMul") == 0)
        matmul = ovi_dump_file_get_op_name (op);
    }
  g_assert_nonnull (matmul);
  ovi_window_show_page (f->window, "iterations");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (page)));
  ovi_test_wait_still ();
  g_assert_cmpstr (ovi_iterations_page_get_op (page), ==, cast);

  /* Selecting another record's row moves the page to its operator. */
  for (guint i = 0; other == NULL && i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *op = ovi_overflow_record_get_op (r);

      if (op != NULL && g_strcmp0 (ovi_dump_file_get_op_name (op), cast) != 0)
        other = r;
    }
  g_assert_nonnull (other);
  ovi_session_set_selected_record (session, other);
  g_assert_cmpstr (ovi_iterations_page_get_op (page), ==,
                   ovi_dump_file_get_op_name (ovi_overflow_record_get_op (other)));
  ovi_session_set_selected_record (session, first);
  g_assert_cmpstr (ovi_iterations_page_get_op (page), ==, cast);

  /* Iterations 3 to 4: two rows, each the tensor's own statistics. */
  g_assert_true (ovi_iterations_page_set_range (page, "3", "4"));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page));
  ovi_test_wait_still ();
  g_assert_cmpstr (grid_cell (page, "stats_grid", 1, 0), ==, "3");
  g_assert_cmpstr (grid_cell (page, "stats_grid", 2, 0), ==, "4");
  g_assert_null (grid_cell (page, "stats_grid", 3, 0));
  g_assert_cmpstr (grid_cell (page, "stats_grid", 0, 4), ==, "Maximum");
  g_assert_cmpstr (grid_cell (page, "stats_grid", 1, 4), ==, max_3);
  g_assert_cmpstr (grid_cell (page, "stats_grid", 2, 4), ==, max_4);
  g_assert_cmpstr (page_label (page, "range_note"), ==, "2 of 4 iterations");

  /* Side by side: 3 and 4, and the change in the NaN count. */
  g_assert_cmpstr (grid_cell (page, "diff_grid", 1, 0), ==, "Iteration 3");
  g_assert_cmpstr (grid_cell (page, "diff_grid", 2, 0), ==, "Iteration 4");
  g_assert_cmpstr (grid_cell (page, "diff_grid", 0, 2), ==, "Maximum");
  g_assert_cmpstr (grid_cell (page, "diff_grid", 1, 2), ==, max_3);
  g_assert_cmpstr (grid_cell (page, "diff_grid", 2, 2), ==, max_4);
  g_assert_cmpstr (grid_cell (page, "diff_grid", 0, 6), ==, "NaN");
  nan_change = s4->nan == s3->nan  ? g_strdup ("0")
               : s4->nan > s3->nan ? g_strdup_printf ("+%" G_GUINT64_FORMAT, s4->nan - s3->nan)
                                   : g_strdup_printf ("−%" G_GUINT64_FORMAT, s3->nan - s4->nan);
  g_assert_cmpstr (grid_cell (page, "diff_grid", 3, 6), ==, nan_change);

  /* The whole folder, for an operator that ran in two of the four
   * iterations: the others are named, not silently dropped; the grid's
   * columns follow the range. */
  g_assert_true (ovi_iterations_page_set_range (page, "3", "12"));
  g_assert_true (ovi_iterations_page_select_op (page, matmul));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page));
  ovi_test_wait_still ();
  g_assert_cmpstr (page_label (page, "range_note"), ==, "4 of 4 iterations");
  g_assert_cmpstr (page_label (page, "stats_note"), ==,
                   "2 iterations of the range did not run this operator.");
  g_assert_cmpstr (grid_cell (page, "spread_grid", 1, 0), ==, "3");
  g_assert_cmpstr (grid_cell (page, "spread_grid", 4, 0), ==, "12");
  g_assert_true (ovi_iterations_page_select_op (page, cast));
  g_assert_true (ovi_iterations_page_set_range (page, "4", "4"));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page));
  ovi_test_wait_still ();
  g_assert_cmpstr (page_label (page, "range_note"), ==, "1 of 4 iterations");
  g_assert_cmpstr (grid_cell (page, "spread_grid", 1, 0), ==, "4");
  g_assert_null (grid_cell (page, "spread_grid", 2, 0));
  g_assert_cmpstr (page_label (page, "diff_note"), ==,
                   "Choose a range with two iterations that ran this operator to see them side "
                   "by side.");

  /* A cell of the grid opens that operator in that iteration. */
  spread = GTK_GRID (
      gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_ITERATIONS_PAGE, "spread_grid"));
  for (int row = 1; cell == NULL && gtk_grid_get_child_at (spread, 0, row); row++)
    if (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (gtk_grid_get_child_at (spread, 0, row))),
                   cast) == 0)
      cell = gtk_grid_get_child_at (spread, 1, row);
  g_assert_true (GTK_IS_BUTTON (cell));
  g_signal_emit_by_name (cell, "clicked");
  WAIT_UNTIL (page_shown (f->window, "operators"));
  g_assert_true (ovi_session_get_selected_file (session) == cast_4);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (f->window->view_stack), ==, "operators");
}

/* The spread grid's row whose first cell reads @name, or -1. */
static int
spread_row (OviIterationsPage *page, const char *name)
{
  for (int row = 1; grid_cell (page, "spread_grid", 0, row) != NULL; row++)
    if (g_strcmp0 (grid_cell (page, "spread_grid", 0, row), name) == 0)
      return row;
  return -1;
}

/* The spread grid's column of iteration @iteration, or -1. */
static int
spread_column (OviIterationsPage *page, const char *iteration)
{
  for (int column = 1; grid_cell (page, "spread_grid", column, 0) != NULL; column++)
    if (g_strcmp0 (grid_cell (page, "spread_grid", column, 0), iteration) == 0)
      return column;
  return -1;
}

/* "Where Overflows Happened" shows every record the table counts, and
 * what the data say where no record is: the AICPU record of iteration 4,
 * whose op dump file is missing, has a row of its unit (numbered 5, as in
 * the table), and iteration 10's Cast, which made 64 +Inf with no record
 * naming it (the folder's overflow files name Mul and AssignAdd; `report`
 * calls it that iteration's origin), is marked, not "·". */
static void
test_spread_every_record (Fixture *f, gconstpointer data)
{
  OviIterationsPage *page = ovi_window_get_iterations_view (f->window);
  GtkGrid *spread = template_child (page, OVI_TYPE_ITERATIONS_PAGE, "spread_grid");
  const char *cast = "gradients/Cast_3";
  OviDumpFile *cast_10 = find_op (f->window, cast, "10");
  OviDumpFile *cast_4 = find_op (f->window, cast, "4");
  g_autofree char *bad = NULL;
  GtkWidget *cell;
  int aicpu, cast_row, it4, it10;

  g_assert_nonnull (cast_10);
  ovi_window_show_page (f->window, "iterations");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_true (ovi_iterations_page_set_range (page, "3", "12"));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page));
  ovi_test_wait_still ();

  it4 = spread_column (page, "4");
  it10 = spread_column (page, "10");
  g_assert_cmpint (it4, >, 0);
  g_assert_cmpint (it10, >, 0);
  aicpu = spread_row (page, "AICPU (no operator)");
  g_assert_cmpint (aicpu, >, 0);
  g_assert_cmpstr (grid_cell (page, "spread_grid", it4, aicpu), ==, "5");
  g_assert_cmpstr (grid_cell (page, "spread_grid", it10, aicpu), ==, "");

  cast_row = spread_row (page, cast);
  g_assert_cmpint (cast_row, >, 0);
  g_assert_cmpstr (grid_cell (page, "spread_grid", 1, cast_row), ==, "1");
  cell = gtk_grid_get_child_at (spread, it10, cast_row);
  g_assert_true (GTK_IS_BUTTON (cell));
  g_assert_cmpstr (grid_cell (page, "spread_grid", it10, cast_row), ==, "!");
  g_assert_true (gtk_widget_has_css_class (cell, "data-abnormal"));
  /* Iteration 4's Cast ran clean, with no record. */
  g_assert_true (ovi_op_summary_is_abnormal (ovi_dump_file_get_summary (cast_4)) == FALSE);
  g_assert_cmpstr (grid_cell (page, "spread_grid", it4, cast_row), ==, "·");

  /* It opens that Cast, whose 64 +Inf the details give. */
  g_signal_emit_by_name (cell, "clicked");
  WAIT_UNTIL (page_shown (f->window, "operators"));
  g_assert_true (ovi_session_get_selected_file (ovi_window_get_session (f->window)) == cast_10);
  bad = ovi_classifier_dup_bad_values (cast_10);
  g_assert_cmpstr (bad, ==, "64 +Inf in output 0");
}

/* Iteration 4's second Conv2D execution keeps its output in NC1HWC0, 256
 * values stored in 1024. Opened alone (the page compares an operator's
 * first execution of each iteration), the page gives the 256 values'
 * statistics (numpy: mean 15855.4, std 38243.1), as the tensor view and
 * the report do. */
static void
test_device_layout (Fixture *f, gconstpointer data)
{
  OviIterationsPage *page = ovi_window_get_iterations_view (f->window);
  const char *name = "Conv2D.resnet_layer3_conv2.120.5.1764670560000110.4.2.0.0";
  const char *it = "20251202101500/0/resnet50_train/11/4";
  const char *example = g_getenv ("OVI_EXAMPLE_DIR");
  g_autofree char *from = g_build_filename (example ? example : "", it, name, NULL);
  g_autofree char *dir = g_build_filename (f->tmpdir, "run", it, NULL);
  g_autofree char *to = g_build_filename (dir, name, NULL);
  g_autofree char *root = g_build_filename (f->tmpdir, "run", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (root);
  gsize length;

  g_assert_nonnull (example);
  g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (g_file_set_contents (to, contents, length, NULL));
  ovi_window_open_file (f->window, file);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  ovi_window_show_page (f->window, "iterations");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_true (ovi_iterations_page_select_op (page, "resnet/layer3/conv2"));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page) && grid_cell (page, "stats_grid", 1, 5) != NULL);
  ovi_test_wait_still ();
  g_test_message ("shape %s, mean %s, std %s", grid_cell (page, "stats_grid", 1, 2),
                  grid_cell (page, "stats_grid", 1, 5), grid_cell (page, "stats_grid", 1, 6));
  g_assert_cmpstr (grid_cell (page, "stats_grid", 0, 5), ==, "Mean");
  g_assert_cmpstr (grid_cell (page, "stats_grid", 1, 5), ==, "15855.4");
  g_assert_cmpstr (grid_cell (page, "stats_grid", 0, 6), ==, "Std. dev.");
  g_assert_cmpstr (grid_cell (page, "stats_grid", 1, 6), ==, "38243.1");
}

static guint
n_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    n++;
  return n;
}

/* A hidden page does no work: selecting records on the Overflows page
 * while Iterations is not shown starts no tensor analysis there and builds
 * none of its grids; showing Iterations then does, for the last record. */
static void
test_hidden_page_does_no_work (Fixture *f, gconstpointer data)
{
  OviIterationsPage *page = ovi_window_get_iterations_view (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  GListModel *records = ovi_session_get_records (session);
  GtkWidget *stats = template_child (page, OVI_TYPE_ITERATIONS_PAGE, "stats_grid");
  GtkWidget *spread = template_child (page, OVI_TYPE_ITERATIONS_PAGE, "spread_grid");
  OviDumpFile *last_op = NULL;
  guint n = g_list_model_get_n_items (records);

  ovi_window_show_page (f->window, "overflows");
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpuint (n, ==, 8);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);

      ovi_session_set_selected_record (session, record);
      if (ovi_overflow_record_get_op (record))
        last_op = ovi_overflow_record_get_op (record);
      /* Nothing started: no analysis, no grid, and nothing waiting to run. */
      ovi_test_wait_still ();
      g_assert_false (ovi_iterations_page_get_busy (page));
      g_assert_cmpuint (n_children (stats), ==, 0);
    }
  g_assert_cmpuint (n_children (spread), ==, 0);

  ovi_window_show_page (f->window, "iterations");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (page)));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (page) && n_children (stats) > 0);
  g_assert_cmpuint (n_children (spread), >, 0);
  g_assert_nonnull (last_op);
  g_assert_cmpstr (ovi_iterations_page_get_op (page), ==,
                   ovi_op_index_get_shown_name (ovi_session_get_op_index (session),
                                                ovi_dump_file_get_op_name (last_op)));
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/iterations-page/select-op", test_select_op);
  OVI_TEST_ADD ("/app/iterations-page/page-iterations", test_compare_iterations);
  OVI_TEST_ADD ("/app/iterations-page/spread-every-record", test_spread_every_record);
  OVI_TEST_ADD ("/app/iterations-page/device-layout", test_device_layout);
  OVI_TEST_ADD ("/app/iterations-page/hidden-page-does-no-work", test_hidden_page_does_no_work);
  return ovi_test_run ();
}
