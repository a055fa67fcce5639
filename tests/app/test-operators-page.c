/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The Operators page: the operator table and the tensor view below it
 * (statistics, the first bad value, the histogram's special bins). */

static guint64
count_in (const char *text, const char *prefix)
{
  const char *p = strstr (text, prefix);

  g_assert_nonnull (p);
  return g_ascii_strtoull (p + strlen (prefix), NULL, 10);
}

/* Selects @file's row in the operators table, as a click does. */
static void
select_op_row (OviWindow *window, OviDumpFile *file)
{
  GtkColumnView *view = ovi_window_get_op_view (window);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (view));
  GListModel *model = G_LIST_MODEL (selection);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (OviDumpFile) item = g_list_model_get_item (model, i);

      if (item == file)
        {
          gtk_single_selection_set_selected (selection, i);
          return;
        }
    }
  g_assert_not_reached ();
}

/* The label of the tensor the drop-down shows. */
static char *
shown_tensor_label (OviTensorView *view)
{
  GtkDropDown *dropdown = GTK_DROP_DOWN (tensor_view_child (view, "tensor_dropdown"));
  gpointer item = gtk_drop_down_get_selected_item (dropdown);

  return item ? ovi_tensor_dup_label (item) : NULL;
}

/* The strip of values: its bold (centred) index and value. */
static void
strip_centre (OviTensorView *view, const char **index, const char **value)
{
  GtkGrid *grid = GTK_GRID (tensor_view_child (view, "neighbour_grid"));

  *index = *value = NULL;
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (grid)));
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_has_css_class (child, "heading"))
      {
        int column, row;

        gtk_grid_query_child (grid, child, &column, &row, NULL, NULL);
        if (row == 0)
          *index = gtk_label_get_text (GTK_LABEL (child));
        else
          *value = gtk_label_get_text (GTK_LABEL (child));
      }
}

/* The CSS classes of the strip's value label under index @index. */
static GtkWidget *
strip_value (OviTensorView *view, const char *index)
{
  GtkGrid *grid = GTK_GRID (tensor_view_child (view, "neighbour_grid"));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child;
       child = gtk_widget_get_next_sibling (child))
    {
      int column, row;

      gtk_grid_query_child (grid, child, &column, &row, NULL, NULL);
      if (row == 0 && g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), index) == 0)
        return gtk_grid_get_child_at (grid, column, 1);
    }
  return NULL;
}

/* No operator selected: a status page says what to do, and no tensor
 * menu, bin controls or empty histogram are shown. */
static void
assert_empty_state (OviTensorView *view)
{
  GtkStack *stack = GTK_STACK (tensor_view_child (view, "stack"));
  AdwStatusPage *page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (stack, "empty"));

  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "empty");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "No Operator Selected");
  g_assert_nonnull (strstr (adw_status_page_get_description (page), "Select an operator"));
  g_assert_false (gtk_widget_get_mapped (tensor_view_child (view, "tensor_dropdown")));
  g_assert_false (gtk_widget_get_mapped (tensor_view_child (view, "bins_spin")));
  g_assert_false (gtk_widget_get_mapped (tensor_view_child (view, "histogram")));
}

/* Whether the selected row of the column view is in the visible part of
 * its scrolled window. */
static gboolean
selected_row_in_view (GtkColumnView *view)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *list = inner_list (view);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row;
       row = gtk_widget_get_next_sibling (row))
    {
      graphene_point_t p;

      if (!(gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) ||
          !gtk_widget_get_mapped (row))
        continue;

      if (!gtk_widget_compute_point (row, scrolled, &GRAPHENE_POINT_INIT (0, 0), &p))
        return FALSE;
      g_test_message ("selected row at %g (+%d) of %d", p.y, gtk_widget_get_height (row),
                      gtk_widget_get_height (scrolled));
      return p.y >= 0 && p.y + gtk_widget_get_height (row) <= gtk_widget_get_height (scrolled);
    }
  return FALSE;
}

/* Whether @widget is shown and lies inside @window's width. */
static gboolean
inside_window (GtkWidget *widget, OviWindow *window)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget) ||
      !gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &bounds))
    return FALSE;
  g_test_message ("%s: %.0f..%.0f of %d", G_OBJECT_TYPE_NAME (widget), bounds.origin.x,
                  bounds.origin.x + bounds.size.width, gtk_widget_get_width (GTK_WIDGET (window)));
  return bounds.origin.x >= 0 &&
         bounds.origin.x + bounds.size.width <= gtk_widget_get_width (GTK_WIDGET (window));
}

static void
test_histogram_special_bins (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) abnormal = all_abnormal_tensors (f->window);
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  OviHistogramView *histogram = ovi_tensor_view_get_histogram (tensor_view);
  guint64 nan = 0, pos_inf = 0, saturated = 0;

  g_assert_cmpuint (abnormal->len, >, 0);
  for (guint i = 0; i < abnormal->len; i++)
    {
      Abnormal *a = g_ptr_array_index (abnormal, i);
      g_autofree char *nan_text = NULL;
      g_autofree char *pos_inf_text = NULL;
      g_autofree char *neg_inf_text = NULL;
      g_autofree char *neg_sat_text = NULL;
      g_autofree char *pos_sat_text = NULL;
      g_autofree char *regular_text = NULL;
      int width, height;

      ovi_window_show_tensor (f->window, a->file, a->index);
      WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) &&
                  ovi_histogram_view_get_n_series (histogram) == 1);
      /* Shown, at the width the page gives it. */
      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (histogram)));
      ovi_test_wait_still ();
      width = gtk_widget_get_width (GTK_WIDGET (histogram));
      height = gtk_widget_get_height (GTK_WIDGET (histogram));
      g_assert_cmpint (width, >, 300);

      /* The special bins sit at fixed places: -Inf, -max left of the
       * regular bins; +max, +Inf, NaN right of them (26 px wide, 2 px
       * apart, 56 px left and 8 px right margins). */
      neg_inf_text = ovi_histogram_view_dup_text_at (histogram, 56 + 13, height / 2);
      neg_sat_text = ovi_histogram_view_dup_text_at (histogram, 56 + 26 + 2 + 13, height / 2);
      pos_sat_text =
          ovi_histogram_view_dup_text_at (histogram, width - 8 - 3 * 26 - 4 + 13, height / 2);
      pos_inf_text =
          ovi_histogram_view_dup_text_at (histogram, width - 8 - 2 * 26 - 2 + 13, height / 2);
      nan_text = ovi_histogram_view_dup_text_at (histogram, width - 8 - 13, height / 2);
      regular_text = ovi_histogram_view_dup_text_at (histogram, width / 2, height / 2);
      g_test_message ("%s: %s / %s / %s / %s / %s / %s", ovi_dump_file_get_op_name (a->file),
                      neg_inf_text, neg_sat_text, pos_sat_text, pos_inf_text, nan_text,
                      regular_text);

      g_assert_cmpuint (count_in (nan_text, "Not a number: "), ==, a->stats.nan);
      g_assert_cmpuint (count_in (pos_inf_text, "Positive infinity: "), ==, a->stats.pos_inf);
      g_assert_cmpuint (count_in (neg_inf_text, "Negative infinity: "), ==, a->stats.neg_inf);
      g_assert_cmpuint (count_in (neg_sat_text, "): ") + count_in (pos_sat_text, "): "), ==,
                        a->stats.saturated);
      g_assert_nonnull (strstr (regular_text, "Bin "));
      nan += a->stats.nan;
      pos_inf += a->stats.pos_inf;
      saturated += a->stats.saturated;
    }
  /* The example has all three kinds. */
  g_assert_cmpuint (nan, >, 0);
  g_assert_cmpuint (pos_inf, >, 0);
  g_assert_cmpuint (saturated, >, 0);

  /* More bins recompute the histogram off the main thread. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gtk_widget_get_template_child (
                                 GTK_WIDGET (tensor_view), OVI_TYPE_TENSOR_VIEW, "bins_spin")),
                             128);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) &&
              ovi_histogram_view_get_n_series (histogram) == 1);

  /* The histogram settings are kept. */
  {
    g_autoptr (GSettings) settings = g_settings_new (APP_ID);

    g_assert_cmpuint (g_settings_get_uint (settings, "histogram-bins"), ==, 128);
    gtk_check_button_set_active (GTK_CHECK_BUTTON (gtk_widget_get_template_child (
                                     GTK_WIDGET (tensor_view), OVI_TYPE_TENSOR_VIEW, "log_check")),
                                 TRUE);
    g_assert_true (g_settings_get_boolean (settings, "histogram-log-counts"));
    g_assert_true (ovi_histogram_view_get_log_counts (histogram));
    g_settings_reset (settings, "histogram-bins");
    g_settings_reset (settings, "histogram-log-counts");
  }
}

static void
test_operator_table (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_op_view (f->window);
  g_autoptr (GPtrArray) rows = NULL;
  gboolean abnormal_seen = FALSE;

  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  /* Before any header is clicked: the order the operators ran in. */
  {
    GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
    guint64 last = 0;

    g_assert_cmpuint (g_list_model_get_n_items (model), >, 10);
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr (OviDumpFile) row = g_list_model_get_item (model, i);
        guint64 t = ovi_dump_file_get_timestamp (row);

        g_assert_cmpuint (t, >=, last);
        last = t;
      }
  }
  gtk_column_view_sort_by_column (view, column_by_title (view, "NaN"), GTK_SORT_DESCENDING);
  wait_operators_listed (f->window);
  /* The list keeps its top item in view across a re-sort: scroll up as a
   * user would. */
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)), 0);
  ovi_test_wait_still ();
  /* Every column but the last, the time, beside the window's edge. */
  fold_sidebar (f->window);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >, 0);
  /* Columns: iteration, type, name, class, task, stream, inputs, outputs,
   * largest magnitude, NaN... */
  assert_sorted (rows, 9, TRUE, TRUE);
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *nan = cell (rows, i, 9);

      g_test_message ("op row %u: %s", i, (char *) g_ptr_array_index (rows, i));
      g_assert_cmpstr (nan, !=, "…");
      if (g_ascii_strtoull (nan, NULL, 10) > 0)
        abnormal_seen = TRUE;
    }
  g_assert_true (abnormal_seen);
}

/* More operators than GTK 4.8 builds rows for up front (200): the operator
 * table takes them a few rows a frame, then all the rest, and ends with
 * every operator, in the order they ran. */
static void
test_large_table (Fixture *f, gconstpointer data)
{
  g_autofree char *source =
      g_build_filename (g_getenv ("OVI_EXAMPLE_DIR"), "20251202101500", "0", "resnet50_train", "11",
                        "3", "Cast.gradients_Cast_3.57.7.1764670500000200", NULL);
  g_autofree char *time_dir = g_build_filename (f->tmpdir, "20261204000000", NULL);
  g_autofree char *iteration = g_build_filename (time_dir, "0", "1", "1", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  GtkColumnView *view = ovi_window_get_op_view (f->window);
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr (GFile) root = g_file_new_for_path (f->tmpdir);
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *first_task = NULL;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_no_errno (g_mkdir_with_parents (iteration, 0755));
  for (guint i = 0; i < 450; i++)
    {
      /* in reverse name order, so the run order is not the listing order */
      g_autofree char *name = g_strdup_printf ("Cast.op_%03u.%u.7.%" G_GUINT64_FORMAT, 449 - i,
                                               1000 + i, (guint64) 1764670500000000 + i);
      g_autofree char *path = g_build_filename (iteration, name, NULL);

      g_assert_true (g_file_set_contents (path, contents, length, NULL));
    }

  ovi_window_show_page (f->window, "operators");
  ovi_window_open_file (f->window, root);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  wait_operators_listed (f->window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 450);
  /* Every column but the last, the time, beside the window's edge. */
  fold_sidebar (f->window);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >, 0);
  first_task = cell (rows, 0, 4);
  g_assert_cmpstr (first_task, ==, "1000");
  remove_tree (time_dir);
}

/* What newer runtimes write, as the window shows it: a float8_e4m3fn
 * quantisation clamped to +-448, a statistics-mode operator with the counts
 * its CSV carries and no histogram, and a record found in the data. */
static void
test_newer_dumps (Fixture *f, gconstpointer data)
{
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  GtkLabel *message = GTK_LABEL (gtk_widget_get_template_child (
      GTK_WIDGET (tensor_view), OVI_TYPE_TENSOR_VIEW, "message_label"));
  OviDumpFile *quant = find_op (f->window, "resnet/layer4/quant", "4");
  /* Its name as the runtime wrote the CSV file, with no mapping.csv. */
  OviDumpFile *cast = find_op (f->window, "gradients_Cast_3", "12");
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (f->window));
  g_autoptr (OviOverflowRecord) last = NULL;
  g_autoptr (GString) details = g_string_new (NULL);
  g_autoptr (GPtrArray) rows = NULL;

  /* float8_e4m3fn: 67 values saturated at +-448, counted. */
  g_assert_nonnull (quant);
  ovi_window_show_tensor (f->window, quant, output_index (quant));
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) &&
              tensor_info (tensor_view, "Saturated (±max)") != NULL);
  ovi_test_wait_still ();
  g_assert_cmpstr (tensor_info (tensor_view, "Data type"), ==, "float8_e4m3fn");
  g_assert_true (g_str_has_prefix (tensor_info (tensor_view, "Saturated (±max)"), "67, first at "));
  g_assert_cmpstr (tensor_info (tensor_view, "Largest magnitude"), ==, "448");

  /* A statistics-mode Cast: the CSV's counts, and why there is no histogram. */
  g_assert_nonnull (cast);
  g_assert_true (ovi_dump_file_get_statistics_only (cast));
  ovi_window_show_tensor (f->window, cast, output_index (cast));
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) &&
              gtk_widget_get_visible (GTK_WIDGET (message)));
  ovi_test_wait_still ();
  g_assert_cmpstr (tensor_info (tensor_view, "+Inf"), ==, "20");
  g_assert_cmpstr (tensor_info (tensor_view, "NaN"), ==, "0");
  g_assert_cmpstr (tensor_info (tensor_view, "Maximum"), ==, "65178.9");
  g_assert_cmpstr (gtk_label_get_text (message), ==, ovi_statistic_why_no_values ());
  g_assert_cmpuint (ovi_histogram_view_get_n_series (ovi_tensor_view_get_histogram (tensor_view)),
                    ==, 0);

  /* The record found in the data: last in the table, unit "Data", and the
   * details say where it came from. */
  last = g_list_model_get_item (records, g_list_model_get_n_items (records) - 1);
  g_assert_cmpint (ovi_overflow_record_get_source (last), ==, OVI_RECORD_SOURCE_DATA);
  ovi_window_show_page (f->window, "overflows");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (ovi_window_get_record_view (f->window))));
  ovi_test_wait_still ();
  rows = visible_rows (ovi_window_get_record_view (f->window));
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (records));
  {
    g_autofree char *unit = cell (rows, rows->len - 1, 2);

    g_assert_cmpstr (unit, ==, "Data");
  }
  g_assert_true (ovi_window_select_record (f->window, last));
  wait_details (f->window, last);
  collect_labels (GTK_WIDGET (ovi_window_get_record_details (f->window)), details);
  g_test_message ("record details: %s", details->str);
  g_assert_nonnull (strstr (details->str, "Found in the data"));
  g_assert_null (strstr (details->str, "pc_start"));

  /* The first record is still the first overflow, and says so. */
  {
    g_autoptr (OviOverflowRecord) first = g_list_model_get_item (records, 0);
    g_autoptr (GString) title = g_string_new (NULL);

    g_assert_true (ovi_window_select_record (f->window, first));
    wait_details (f->window, first);
    collect_labels (GTK_WIDGET (ovi_window_get_record_details (f->window)), title);
    g_assert_true (g_str_has_prefix (title->str, "First overflow, AI Core"));
  }
}

/* The newer schema's fields in the tensor view: the tensor's argument
 * index, input type and workspace type, the operator's attributes and
 * dfx_message; an operator without them has none of their rows, and
 * neither has the view of no operator. */
static void
test_schema_fields (Fixture *f, gconstpointer data)
{
  const guint64 shape[] = { 2 };
  static const double v[] = { 1, 2 };
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/matmul");
  g_autoptr (OviDumpWriter) plain = ovi_dump_writer_new ("scope/add");
  g_autofree char *matmul_path = NULL;
  g_autofree char *add_path = NULL;
  g_autoptr (OviDumpFile) matmul = NULL;
  g_autoptr (OviDumpFile) add = NULL;
  g_autoptr (GError) error = NULL;
  OviTensorView *view = OVI_TENSOR_VIEW (ovi_tensor_view_new ());
  GtkWidget *window = gtk_window_new ();
  GtkWidget *op_grid = tensor_view_child (view, "op_grid");
  GtkWidget *attrs = tensor_view_child (view, "attrs_label");
  GtkWidget *dfx = tensor_view_child (view, "dfx_label");

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_fixture_add_schema_fields (w);
  matmul_path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->tmpdir, "MatMul.scope_matmul.5.3.700");
  ovi_fixture_add (plain, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_fixture_add (plain, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  add_path = ovi_fixture_write (plain, OVI_LAYOUT_NEW, f->tmpdir, "Add.scope_add.6.3.710");
  matmul = ovi_dump_file_load (matmul_path, NULL, &error);
  g_assert_no_error (error);
  add = ovi_dump_file_load (add_path, NULL, &error);
  g_assert_no_error (error);

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));

  /* The input: its argument index and input type, and the operator's
   * attributes (one a line) and dfx_message above the tensor. */
  ovi_tensor_view_set_file (view, matmul);
  g_assert_cmpstr (tensor_info (view, "Argument index"), ==, "2");
  g_assert_cmpstr (tensor_info (view, "Input type"), ==, "1");
  g_assert_null (tensor_info (view, "Workspace type"));
  g_assert_true (gtk_widget_get_visible (op_grid));
  g_assert_true (gtk_widget_get_visible (attrs));
  g_assert_cmpstr (label_text (view, "attrs_label"), ==, "tiling_key = 7\nblock_dim = 24");
  g_assert_true (gtk_widget_get_visible (dfx));
  g_assert_cmpstr (label_text (view, "dfx_label"), ==, "args of the kernel");

  /* The output: an argument index, no input type. */
  ovi_tensor_view_select_tensor (view, 1);
  g_assert_cmpstr (tensor_info (view, "Argument index"), ==, "3");
  g_assert_null (tensor_info (view, "Input type"));
  g_assert_null (tensor_info (view, "Workspace type"));

  /* The workspace: type 0 is LOG. The tensor looked at is the session's
   * (what the window exports). */
  ovi_tensor_view_select_tensor (view, 2);
  g_assert_cmpint (ovi_tensor_get_kind (ovi_tensor_view_get_tensor (view)), ==, OVI_TENSOR_SPACE);
  g_assert_cmpstr (tensor_info (view, "Argument index"), ==, "4");
  g_assert_cmpstr (tensor_info (view, "Workspace type"), ==, "LOG");
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view));

  /* An operator with none of the fields: no row for any of them. */
  ovi_tensor_view_set_file (view, add);
  g_assert_cmpstr (tensor_info (view, "Data type"), ==, "float32");
  g_assert_null (tensor_info (view, "Argument index"));
  g_assert_null (tensor_info (view, "Input type"));
  g_assert_null (tensor_info (view, "Workspace type"));
  g_assert_false (gtk_widget_get_visible (attrs));
  g_assert_false (gtk_widget_get_visible (dfx));
  g_assert_false (gtk_widget_get_visible (op_grid));
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view));

  /* No operator: nothing left over from the last one that had them. */
  ovi_tensor_view_set_file (view, matmul);
  g_assert_true (gtk_widget_get_visible (op_grid));
  ovi_tensor_view_set_file (view, NULL);
  g_assert_false (gtk_widget_get_visible (op_grid));
  g_assert_cmpstr (label_text (view, "attrs_label"), ==, "");

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
  g_unlink (matmul_path);
  g_unlink (add_path);
}

/* Opening an operator shows the tensor that went bad first: the origin
 * Cast's float16 output with its +Inf values, not its clean input 0; a
 * propagating operator its first bad input; a clean one its input 0. */
static void
test_open_shows_bad_tensor (Fixture *f, gconstpointer data)
{
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  OviDumpFile *origin = ovi_overflow_record_get_op (find_record (f->window, 272));
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (f->window));
  OviDumpFile *clean = NULL, *propagated = NULL;
  guint bad_input = 0;

  g_assert_cmpint (ovi_dump_file_get_blame (origin), ==, OVI_BLAME_ORIGIN);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      OviBlame blame = ovi_dump_file_get_blame (file);

      if (blame == OVI_BLAME_NORMAL && clean == NULL)
        clean = file;
      if (blame == OVI_BLAME_PROPAGATED && propagated == NULL)
        propagated = file;
    }
  g_assert_nonnull (clean);
  g_assert_nonnull (propagated);
  /* Its first input with abnormal values, worked out from its tensors. */
  {
    GPtrArray *tensors = ovi_dump_file_get_tensors (propagated);

    for (bad_input = 0; bad_input < tensors->len; bad_input++)
      {
        g_autoptr (OviAnalysis) a =
            ovi_tensor_analyze (g_ptr_array_index (tensors, bad_input), NULL);
        const OviStats *s = ovi_analysis_get_stats (a);

        if (s->nan + s->pos_inf + s->neg_inf + s->saturated > 0)
          break;
      }
    g_assert_cmpint (ovi_tensor_get_kind (g_ptr_array_index (tensors, bad_input)), ==,
                     OVI_TENSOR_INPUT);
  }

  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);

  select_op_row (f->window, origin);
  WAIT_UNTIL (ovi_tensor_view_get_file (tensor_view) == origin &&
              !ovi_tensor_view_get_busy (tensor_view));
  ovi_test_wait_still ();
  {
    g_autofree char *label = shown_tensor_label (tensor_view);

    g_assert_cmpstr (label, ==, "output 0");
    g_assert_cmpstr (tensor_info (tensor_view, "Data type"), ==, "float16");
    g_assert_true (g_str_has_prefix (tensor_info (tensor_view, "+Inf"), "20, first at "));
  }

  select_op_row (f->window, propagated);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  {
    g_autofree char *label = shown_tensor_label (tensor_view);
    g_autofree char *expected = ovi_tensor_dup_label (
        g_ptr_array_index (ovi_dump_file_get_tensors (propagated), bad_input));

    g_assert_cmpstr (label, ==, expected);
  }

  select_op_row (f->window, clean);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  {
    g_autofree char *label = shown_tensor_label (tensor_view);

    g_assert_cmpstr (label, ==, "input 0");
  }
}

/* A float16 output whose first bad value is a +Inf before a NaN: the
 * headline and the strip both name index 2; a locator button moves the
 * strip, and more bins do not move it back; NaN and ±Inf are marked as
 * errors in the strip and 65504 as saturated. */
static void
test_locator_agrees (Fixture *f, gconstpointer data)
{
  static const double v[] = { 1, 2, INFINITY, 4, NAN, 6, -INFINITY, 65504 };
  const guint64 shape[] = { 8 };
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/mul");
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  OviTensorView *view = OVI_TENSOR_VIEW (ovi_tensor_view_new ());
  GtkWidget *window = gtk_window_new ();
  GtkSpinButton *bins = GTK_SPIN_BUTTON (tensor_view_child (view, "bins_spin"));
  const char *index, *value;

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 1,
                   (double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, v);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->tmpdir, "Mul.scope_mul.5.3.700");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ovi_classifier_summarize (file, NULL));

  /* The window below takes the focus from the main one, whose followed
   * folder would then notify of records a watch pass reports: pause it. */
  ovi_session_set_live (ovi_window_get_session (f->window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 800);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  ovi_tensor_view_set_file (view, file);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view));
  ovi_test_wait_still ();

  /* The bad output, not the clean input, is what opens. */
  g_assert_cmpint (ovi_tensor_get_kind (ovi_tensor_view_get_tensor (view)), ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpstr (label_text (view, "first_label"), ==,
                   "First non-finite value at index 2 (2): +Inf");
  strip_centre (view, &index, &value);
  g_assert_cmpstr (index, ==, "2");
  g_assert_cmpstr (value, ==, "+Inf");

  /* Every non-finite value is an error in the strip, the saturated one a
   * warning, a plain one neither. */
  g_assert_true (gtk_widget_has_css_class (strip_value (view, "2"), "error"));
  g_assert_true (gtk_widget_has_css_class (strip_value (view, "4"), "error"));
  g_assert_true (gtk_widget_has_css_class (strip_value (view, "6"), "error"));
  g_assert_true (gtk_widget_has_css_class (strip_value (view, "5"), "numeric"));
  g_assert_false (gtk_widget_has_css_class (strip_value (view, "5"), "error"));
  g_assert_false (gtk_widget_has_css_class (strip_value (view, "5"), "warning"));
  g_assert_false (gtk_widget_has_css_class (strip_value (view, "2"), "warning"));

  /* "First NaN at 4 (4)", as the user clicks it. */
  gtk_widget_activate_action (GTK_WIDGET (view), "tensor.locate", "x", (gint64) 4);
  strip_centre (view, &index, &value);
  g_assert_cmpstr (index, ==, "4");
  g_assert_cmpstr (value, ==, "NaN");

  /* More bins recompute the histogram; the strip stays on the NaN. */
  gtk_spin_button_set_value (bins, gtk_spin_button_get_value (bins) + 4);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view));
  ovi_test_wait_still ();
  strip_centre (view, &index, &value);
  g_assert_cmpstr (index, ==, "4");
  g_assert_cmpstr (value, ==, "NaN");
  g_assert_true (gtk_widget_has_css_class (strip_value (view, "7"), "warning"));
  g_assert_cmpstr (label_text (view, "first_label"), ==,
                   "First non-finite value at index 2 (2): +Inf");

  /* Another tensor and back: the strip starts at the first bad value again. */
  ovi_tensor_view_select_tensor (view, 0);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view));
  g_assert_false (gtk_widget_get_visible (tensor_view_child (view, "neighbour_grid")));
  ovi_tensor_view_select_tensor (view, 1);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view));
  strip_centre (view, &index, &value);
  g_assert_cmpstr (index, ==, "2");

  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
  g_unlink (path);
}

/* With no operator selected the Operators page shows an empty state;
 * "Abnormal Only" hiding the selected operator clears the selection, so
 * its tensors do not stay below a table that no longer lists it, while an
 * abnormal operator stays selected. */
static void
test_operator_empty_state (Fixture *f, gconstpointer data)
{
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  GtkToggleButton *abnormal = GTK_TOGGLE_BUTTON (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_operators_page (f->window)),
                                     OVI_TYPE_OPERATORS_PAGE, "abnormal_toggle"));
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (f->window));
  OviDumpFile *origin = ovi_overflow_record_get_op (find_record (f->window, 272));
  OviDumpFile *clean = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (files) && clean == NULL; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

      if (ovi_dump_file_get_blame (file) == OVI_BLAME_NORMAL)
        clean = file;
    }
  g_assert_nonnull (clean);

  ovi_window_show_page (f->window, "operators");
  ovi_session_set_selected_file (session, NULL);
  wait_operators_listed (f->window);
  assert_empty_state (tensor_view);

  /* A clean operator, then Abnormal Only: the row goes, and so do its
   * tensors. */
  select_op_row (f->window, clean);
  WAIT_UNTIL (ovi_tensor_view_get_file (tensor_view) == clean &&
              !ovi_tensor_view_get_busy (tensor_view));
  ovi_test_wait_still ();
  g_assert_true (ovi_tensor_view_get_file (tensor_view) == clean);
  g_assert_cmpstr (
      gtk_stack_get_visible_child_name (GTK_STACK (tensor_view_child (tensor_view, "stack"))), ==,
      "tensor");
  gtk_toggle_button_set_active (abnormal, TRUE);
  wait_operators_listed (f->window);
  g_assert_null (ovi_session_get_selected_file (session));
  g_assert_null (ovi_tensor_view_get_file (tensor_view));
  assert_empty_state (tensor_view);

  /* An abnormal operator is listed and stays selected. */
  select_op_row (f->window, origin);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  gtk_toggle_button_set_active (abnormal, FALSE);
  wait_operators_listed (f->window);
  gtk_toggle_button_set_active (abnormal, TRUE);
  /* "Stays selected" is judged once the table has refiltered and nothing
   * is left to run that could still clear it. */
  wait_operators_listed (f->window);
  g_assert_true (ovi_session_get_selected_file (session) == origin);
  g_assert_true (ovi_tensor_view_get_file (tensor_view) == origin);
  gtk_toggle_button_set_active (abnormal, FALSE);
  wait_operators_listed (f->window);
}

/* An operator whose tensors hold no element: "empty tensor" in words, no
 * histogram axis made up around nothing, and the same largest magnitude,
 * "—", in the table and in the details. */
static void
test_empty_tensor (Fixture *f, gconstpointer data)
{
  g_autofree char *time_dir = g_build_filename (f->tmpdir, "20261204000000", NULL);
  g_autofree char *iteration = g_build_filename (time_dir, "0", "1", "1", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/empty");
  g_autoptr (GBytes) none = g_bytes_new (NULL, 0);
  const guint64 shape[] = { 4, 0, 3 };
  g_autofree char *path = NULL;
  g_autoptr (GFile) root = g_file_new_for_path (f->tmpdir);
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  GtkColumnView *view = ovi_window_get_op_view (f->window);
  OviDumpFile *file;
  g_autoptr (GPtrArray) rows = NULL;

  g_assert_no_errno (g_mkdir_with_parents (iteration, 0755));
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, shape, 3, none);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, 2, shape, 3, none);
  path =
      ovi_fixture_write (w, OVI_LAYOUT_NEW, iteration, "Reshape.scope_empty.5.3.1764670500000100");

  ovi_window_show_page (f->window, "operators");
  ovi_window_open_file (f->window, root);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  {
    GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (f->window));

    g_assert_cmpuint (g_list_model_get_n_items (files), ==, 1);
    file = g_list_model_get_item (files, 0);
    g_object_unref (file); /* the folder keeps it */
  }
  WAIT_UNTIL (ovi_dump_file_get_summary (file) != NULL);
  wait_operators_listed (f->window);
  select_op_row (f->window, file);
  WAIT_UNTIL (ovi_tensor_view_get_file (tensor_view) == file &&
              !ovi_tensor_view_get_busy (tensor_view));
  ovi_test_wait_still ();

  /* Every column but the last, the time, beside the window's edge. */
  fold_sidebar (f->window);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, ==, 1);
  {
    g_autofree char *table_max = cell (rows, 0, 8);

    g_test_message ("row: %s", (char *) g_ptr_array_index (rows, 0));
    g_assert_cmpstr (table_max, ==, "—");
  }
  g_assert_cmpstr (tensor_info (tensor_view, "Elements"), ==, "0");
  g_assert_cmpstr (tensor_info (tensor_view, "Largest magnitude"), ==, "—");
  g_assert_cmpstr (label_text (tensor_view, "first_label"), ==,
                   "Empty tensor: it has no elements, so no values to show.");
  g_assert_false (gtk_widget_get_visible (tensor_view_child (tensor_view, "histogram")));
  g_assert_cmpuint (ovi_histogram_view_get_n_series (ovi_tensor_view_get_histogram (tensor_view)),
                    ==, 0);
  g_assert_false (gtk_widget_get_visible (tensor_view_child (tensor_view, "locate_box")));
  remove_tree (time_dir);
}

/* A statistics-mode operator counts 20 +Inf values but records no
 * positions: the headline does not claim that all values are finite. */
static void
test_statistics_headline (Fixture *f, gconstpointer data)
{
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  OviDumpFile *cast = find_op (f->window, "gradients_Cast_3", "12");

  g_assert_nonnull (cast);
  g_assert_true (ovi_dump_file_get_statistics_only (cast));
  ovi_window_show_tensor (f->window, cast, output_index (cast));
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) && tensor_info (tensor_view, "+Inf") != NULL);
  ovi_test_wait_still ();
  g_assert_cmpstr (tensor_info (tensor_view, "+Inf"), ==, "20");
  g_assert_cmpstr (label_text (tensor_view, "first_label"), ==,
                   "Some values are not finite; the statistics do not record where.");
  g_assert_false (gtk_widget_get_visible (tensor_view_child (tensor_view, "neighbour_grid")));
}

/* Iteration 4's Conv2D output is NC1HWC0: 256 logical values stored in
 * 1024. The view's statistics are the 256 values' (numpy: mean 15855.4,
 * std 38243.1), the stored size is a line of its own, and every position
 * is logical, the flat index beside the index per dimension. */
static void
test_device_layout_statistics (Fixture *f, gconstpointer data)
{
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (f->window));
  OviDumpFile *conv = NULL;
  guint index = 0;

  for (guint i = 0; i < g_list_model_get_n_items (files) && conv == NULL; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);

      for (guint j = 0; j < tensors->len; j++)
        if (ovi_tensor_get_format (g_ptr_array_index (tensors, j)) == OVI_FORMAT_NC1HWC0)
          {
            conv = file;
            index = j;
          }
    }
  g_assert_nonnull (conv);
  g_assert_cmpstr (ovi_dump_file_get_op_type (conv), ==, "Conv2D");

  ovi_window_show_tensor (f->window, conv, index);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) && tensor_info (tensor_view, "Mean") != NULL);
  ovi_test_wait_still ();
  g_assert_cmpstr (tensor_info (tensor_view, "Format"), ==, "NC1HWC0");
  g_assert_cmpstr (tensor_info (tensor_view, "Elements"), ==, "256");
  g_assert_cmpstr (tensor_info (tensor_view, "Stored"), ==, "1024 values in NC1HWC0");
  g_assert_cmpstr (tensor_info (tensor_view, "Logical shape"), ==, "[1, 4, 8, 8] NCHW");
  g_assert_null (tensor_info (tensor_view, "Statistics"));
  g_assert_cmpstr (tensor_info (tensor_view, "Mean"), ==, "15855.4");
  g_assert_cmpstr (tensor_info (tensor_view, "Standard deviation"), ==, "38243.1");
  g_assert_cmpstr (tensor_info (tensor_view, "Finite values"), ==, "256");
  g_assert_cmpstr (tensor_info (tensor_view, "Saturated (±max)"), ==,
                   "43, first at 3 (0, 0, 0, 3)");
  /* The same element as the locator button names. */
  {
    GtkWidget *box = tensor_view_child (tensor_view, "locate_box");
    gboolean found = FALSE;

    for (GtkWidget *child = gtk_widget_get_first_child (box); child;
         child = gtk_widget_get_next_sibling (child))
      {
        GtkWidget *button = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));
        found |= g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)),
                            "First saturated value at 3 (0, 0, 0, 3)") == 0;
      }
    g_assert_true (found);
  }
}

/* A click on a header sorts again: the selected operator stays selected
 * and is scrolled into view. */
static void
test_sort_keeps_selection (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_op_view (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (template_child (
      ovi_window_get_operators_page (f->window), OVI_TYPE_OPERATORS_PAGE, "op_selection"));
  GListModel *model = G_LIST_MODEL (selection);
  g_autoptr (OviDumpFile) last = NULL;
  guint n;

  ovi_window_show_page (f->window, "operators");
  resize_to (f->window, 1280, 700);
  wait_operators_listed (f->window);
  n = g_list_model_get_n_items (model);
  g_assert_cmpuint (n, >, 12);
  /* The operator that ran last, at the bottom of the table. */
  last = g_list_model_get_item (model, n - 1);

  gtk_single_selection_set_selected (selection, n - 1);
  WAIT_UNTIL (ovi_session_get_selected_file (session) == last);
  ovi_test_wait_still ();
  g_assert_true (ovi_session_get_selected_file (session) == last);
  /* Back to the top, as a user scrolling up to the headers would. */
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (inner_list (view))), 0);
  ovi_test_wait_still ();
  g_assert_false (selected_row_in_view (view));

  /* Ascending, the operator lands low in the table, below the rows in
   * view at the top. */
  gtk_column_view_sort_by_column (view, column_by_title (view, "Op Type"), GTK_SORT_ASCENDING);
  wait_operators_listed (f->window);
  g_assert_true (gtk_single_selection_get_selected_item (selection) == last);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), >, 8);
  g_assert_true (ovi_session_get_selected_file (session) == last);
  g_assert_true (selected_row_in_view (view));
}

/* The Operators table: Op Name sized for its names and resizable, like
 * every column; the widths a user sets come back in a new window. */
static void
test_operator_column_widths (Fixture *f, gconstpointer data)
{
  GtkColumnView *ops = ovi_window_get_op_view (f->window);
  GtkColumnViewColumn *op_name = column_by_title (ops, "Op Name");
  GListModel *columns = gtk_column_view_get_columns (ops);
  g_autoptr (OviWindow) second = NULL;
  g_autoptr (PangoLayout) layout = NULL;
  GSettings *settings = ovi_application_get_settings (ovi_test_app);
  g_autoptr (GSettings) watched = g_settings_new (APP_ID);
  guint saved_widths = 0;
  int text_width = 0;

  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      g_assert_true (gtk_column_view_column_get_resizable (column));
    }
  /* The example's longest operator name fits, not "gradients/…". */
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (ops), "gradients/MatMul_grad/MatMul");
  pango_layout_get_pixel_size (layout, &text_width, NULL);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (op_name), >=, text_width + 12);

  /* What a drag on the header's edge does. */
  g_signal_connect_swapped (watched, "changed::operator-column-widths", G_CALLBACK (count_change),
                            &saved_widths);
  gtk_column_view_column_set_fixed_width (op_name, 333);
  gtk_column_view_column_set_fixed_width (column_by_title (ops, "Op Type"), 150);
  /* Saved once the drag rests (the page waits for that itself). */
  WAIT_UNTIL (saved_widths > 0);
  second = g_object_ref_sink (ovi_window_new (ovi_test_app));
  gtk_window_present (GTK_WINDOW (second));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (second)));
  ovi_test_wait_still ();
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (
                       column_by_title (ovi_window_get_op_view (second), "Op Name")),
                   ==, 333);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (
                       column_by_title (ovi_window_get_op_view (second), "Op Type")),
                   ==, 150);
  gtk_window_destroy (GTK_WINDOW (second));
  g_settings_reset (settings, "operator-column-widths");
}

/* The tensor view's first-bad-value buttons wrap, so "Abnormal Only", the
 * tensor menu and the buttons stay inside the window at 1200x800 and
 * 800x600; the Iterations page shows "Log count axis" and its tensor menu. */
static void
test_tensor_view_fits (Fixture *f, gconstpointer data)
{
  OviWindow *window = f->window;
  OviTensorView *view = ovi_window_get_tensor_view (window);
  GtkWidget *abnormal = GTK_WIDGET (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_operators_page (window)),
                                     OVI_TYPE_OPERATORS_PAGE, "abnormal_toggle"));
  GtkWidget *locate_box = tensor_view_child (view, "locate_box");
  const int sizes[][2] = { { 1200, 800 }, { 800, 600 } };
  /* Every kind of bad value in a 4-d tensor: four long buttons. */
  static const double v[] = { 1, 2, INFINITY, 4, NAN, 6, -INFINITY, 65504 };
  const guint64 shape[] = { 1, 2, 2, 2 };
  const guint most_kinds = 4;
  const gint64 first_bad = 2;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/very_long_operator_scope/mul");
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) op = NULL;
  g_autoptr (GError) error = NULL;

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 4, v);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->tmpdir, "Mul.scope_mul.5.3.700");
  op = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ovi_classifier_summarize (op, NULL));
  ovi_session_set_live (ovi_window_get_session (window), FALSE);
  ovi_window_show_page (window, "operators");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n_buttons = 0;

      resize_to (window, sizes[s][0], sizes[s][1]);
      ovi_session_set_selected_file (ovi_window_get_session (window), op);
      WAIT_UNTIL (ovi_tensor_view_get_file (view) == op && !ovi_tensor_view_get_busy (view));
      ovi_test_wait_still ();
      /* As the user clicks "First +Inf at …": the buttons show. */
      gtk_widget_activate_action (GTK_WIDGET (view), "tensor.locate", "x", first_bad);
      ovi_test_wait_still ();
      g_assert_true (inside_window (abnormal, window));
      g_assert_true (inside_window (tensor_view_child (view, "tensor_dropdown"), window));
      g_assert_true (gtk_widget_get_visible (locate_box));
      for (GtkWidget *child = gtk_widget_get_first_child (locate_box); child;
           child = gtk_widget_get_next_sibling (child), n_buttons++)
        g_assert_true (inside_window (child, window));
      g_assert_cmpuint (n_buttons, ==, most_kinds);
    }

  resize_to (window, 1200, 800);
  ovi_window_show_page (window, "iterations");
  ovi_iterations_page_select_op (ovi_window_get_iterations_view (window),
                                 most_repeated_op (window));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (ovi_window_get_iterations_view (window)));
  ovi_test_wait_still ();
  g_assert_true (inside_window (
      GTK_WIDGET (find_label_with_text (GTK_WIDGET (window), "Log count axis")), window));
  g_assert_true (inside_window (GTK_WIDGET (gtk_widget_get_template_child (
                                    GTK_WIDGET (ovi_window_get_iterations_view (window)),
                                    OVI_TYPE_ITERATIONS_PAGE, "tensor_dropdown")),
                                window));
}

/* The tensor the user looks at is the session's (what the window exports
 * as the selected tensor), whichever tensor or operator is picked. */
static void
test_selected_tensor (Fixture *f, gconstpointer data)
{
  OviSession *session = ovi_window_get_session (f->window);
  OviTensorView *view = ovi_window_get_tensor_view (f->window);
  GListModel *operators = ovi_session_get_operators (session);
  g_autoptr (OviDumpFile) first = g_list_model_get_item (operators, 0);
  g_autoptr (OviDumpFile) second = g_list_model_get_item (operators, 1);

  ovi_window_show_page (f->window, "operators");
  ovi_session_set_selected_file (session, first);
  WAIT_UNTIL (ovi_tensor_view_get_file (view) == first && !ovi_tensor_view_get_busy (view));
  g_assert_nonnull (ovi_session_get_selected_tensor (session));
  g_assert_true (ovi_session_get_selected_tensor (session) == ovi_tensor_view_get_tensor (view));
  ovi_tensor_view_select_tensor (view, 0);
  g_assert_true (ovi_session_get_selected_tensor (session) ==
                 g_ptr_array_index (ovi_dump_file_get_tensors (first), 0));
  ovi_session_set_selected_file (session, second);
  WAIT_UNTIL (ovi_tensor_view_get_file (view) == second && !ovi_tensor_view_get_busy (view));
  g_assert_true (ovi_session_get_selected_tensor (session) == ovi_tensor_view_get_tensor (view));
  g_assert_true (ovi_tensor_get_file (ovi_session_get_selected_tensor (session)) == second);
}

/* A record's "Show" (win.show-tensor) on an operator far down the table:
 * its row comes into view, selected, and has the keyboard, so that Tab
 * goes on to its tensors rather than the search field or row 1. */
static void
test_show_focuses_row (Fixture *f, gconstpointer data)
{
  OviSession *session = ovi_window_get_session (f->window);
  GtkColumnView *op_view = ovi_operators_page_get_column_view (
      OVI_OPERATORS_PAGE (ovi_window_get_operators_page (f->window)));
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (template_child (
      ovi_window_get_operators_page (f->window), OVI_TYPE_OPERATORS_PAGE, "op_selection"));
  GtkWidget *list = inner_list (op_view);
  g_autoptr (OviDumpFile) last = NULL;
  GtkWidget *focus;
  GtkWidget *row;
  graphene_rect_t bounds;
  guint n, target;

  resize_to (f->window, 1200, 600);
  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  n = g_list_model_get_n_items (G_LIST_MODEL (selection));
  g_assert_cmpuint (n, >=, 19);
  /* The lowest row a path names alone (one statistic.csv holds several
   * operators). */
  for (target = n; last == NULL && target-- > 0;)
    {
      g_autoptr (OviDumpFile) op = g_list_model_get_item (G_LIST_MODEL (selection), target);

      if (ovi_session_find_file (session, ovi_dump_file_get_path (op)) == op)
        last = g_steal_pointer (&op);
    }
  g_assert_cmpuint (target, >=, 15);
  /* From the Overflows page, with the keyboard in its table. */
  ovi_window_show_page (f->window, "overflows");
  gtk_widget_grab_focus (inner_list (ovi_window_get_record_view (f->window)));
  WAIT_UNTIL (page_shown (f->window, "overflows"));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-tensor", "(su)",
                              ovi_dump_file_get_path (last), 0);
  WAIT_UNTIL (ovi_session_get_selected_file (session) == (OviDumpFile *) last);
  WAIT_UNTIL (focus_inside (f->window, op_view));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, target);

  /* The focus is on the selected row, which is inside the list's view. */
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  for (row = focus; row != NULL && gtk_widget_get_parent (row) != list;
       row = gtk_widget_get_parent (row))
    ;
  g_assert_nonnull (row);
  g_assert_true ((gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) != 0);
  g_assert_true (gtk_widget_compute_bounds (row, list, &bounds));
  g_test_message ("row at y %.0f, height %.0f, list height %d", bounds.origin.y, bounds.size.height,
                  gtk_widget_get_height (list));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (list));
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/operators-page/histogram-special-bins", test_histogram_special_bins);
  OVI_TEST_ADD ("/app/operators-page/operator-table", test_operator_table);
  OVI_TEST_ADD ("/app/operators-page/large-table", test_large_table);
  OVI_TEST_ADD ("/app/operators-page/newer-dumps", test_newer_dumps);
  OVI_TEST_ADD ("/app/operators-page/schema-fields", test_schema_fields);
  OVI_TEST_ADD ("/app/operators-page/open-shows-bad-tensor", test_open_shows_bad_tensor);
  OVI_TEST_ADD ("/app/operators-page/locator-agrees", test_locator_agrees);
  OVI_TEST_ADD ("/app/operators-page/operator-empty-state", test_operator_empty_state);
  OVI_TEST_ADD ("/app/operators-page/empty-tensor", test_empty_tensor);
  OVI_TEST_ADD ("/app/operators-page/statistics-headline", test_statistics_headline);
  OVI_TEST_ADD ("/app/operators-page/device-layout-statistics", test_device_layout_statistics);
  OVI_TEST_ADD ("/app/operators-page/sort-keeps-selection", test_sort_keeps_selection);
  OVI_TEST_ADD ("/app/operators-page/operator-column-widths", test_operator_column_widths);
  OVI_TEST_ADD ("/app/operators-page/tensor-view-fits", test_tensor_view_fits);
  OVI_TEST_ADD ("/app/operators-page/selected-tensor", test_selected_tensor);
  OVI_TEST_ADD ("/app/operators-page/show-focuses-row", test_show_focuses_row);
  return ovi_test_run ();
}
