#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "ovi-a11y.h"
#include "ovi-accessible-row.h"
#include "ovi-application.h"
#include "ovi-fixtures.h"
#include "ovi-format.h"
#include "ovi-i18n.h"
#include "ovi-shm-pool.h"
#include "ovi-tooltip.h"
#include "ovi-tree-node.h"
#include "ovi-window-private.h"

/* UI tests: open the example dump folder in a real window and check what a
 * user sees.  Skipped when there is no display.  With OVI_SCREENSHOT_DIR set,
 * /app/screenshots also saves PNGs of the main views there. */

/* One registered application for all tests, as in the running app. */
static OviApplication *app;

typedef struct
{
  OviWindow *window;
  char *tmpdir;
} Fixture;

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @cond is true; fails the test after 20 s. */
#define WAIT_UNTIL(cond)                                                                           \
  G_STMT_START                                                                                     \
  {                                                                                                \
    gboolean timed_out_ = FALSE;                                                                   \
    guint id_ = g_timeout_add_seconds (20, timeout_cb, &timed_out_);                               \
    while (!(cond) && !timed_out_)                                                                 \
      g_main_context_iteration (NULL, TRUE);                                                       \
    if (timed_out_)                                                                                \
      g_error ("timed out waiting for %s", #cond);                                                 \
    g_source_remove (id_);                                                                         \
  }                                                                                                \
  G_STMT_END

typedef struct
{
  GtkWidget *window;
  guint frames;
} FrameCount;

static void
count_frame (FrameCount *count)
{
  /* Ask for one more frame, so there are two even when nothing changes. */
  if (++count->frames < 2)
    gtk_widget_queue_draw (count->window);
}

/* Runs the main loop for @ms, then until every open window has laid out
 * and painted twice more: on a loaded machine (sanitizer builds, tests in
 * parallel) a frame can take longer than any fixed wait. */
static void
settle (guint ms)
{
  gboolean done = FALSE;
  GListModel *toplevels = gtk_window_get_toplevels ();

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) window = g_list_model_get_item (toplevels, i);
      GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
      FrameCount count = { window, 0 };
      gulong id;

      if (clock == NULL || !gtk_widget_get_mapped (window))
        continue;
      id = g_signal_connect_swapped (clock, "after-paint", G_CALLBACK (count_frame), &count);
      gtk_widget_queue_draw (window);
      WAIT_UNTIL (count.frames >= 2);
      g_signal_handler_disconnect (clock, id);
    }
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->tmpdir = g_dir_make_tmp ("ovi-app-test-XXXXXX", &error);
  g_assert_no_error (error);

  f->window = g_object_ref_sink (ovi_window_new (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 900);
  gtk_window_present (GTK_WINDOW (f->window));
  /* What the "Open Example" button on the start page does. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-example", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  settle (200);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->window);
  settle (50);
  g_rmdir (f->tmpdir);
  g_free (f->tmpdir);
}

/* --- reading what the column view shows --------------------------------- */

static void
collect_labels (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      if (out->len > 0 && out->str[out->len - 1] != '\n')
        g_string_append_c (out, '|');
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static int
compare_y (gconstpointer a, gconstpointer b)
{
  graphene_point_t pa, pb;
  GtkWidget *wa = *(GtkWidget **) a, *wb = *(GtkWidget **) b;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (wa));

  if (!gtk_widget_compute_point (wa, root, &GRAPHENE_POINT_INIT (0, 0), &pa))
    pa.y = 0;
  if (!gtk_widget_compute_point (wb, root, &GRAPHENE_POINT_INIT (0, 0), &pb))
    pb.y = 0;
  return pa.y < pb.y ? -1 : pa.y > pb.y;
}

/* The rows the column view displays, top to bottom, each as its cell texts
 * joined by '|'.  The rows are the children of the inner list view. */
static GPtrArray *
visible_rows (GtkColumnView *view)
{
  GtkWidget *list = NULL;
  g_autoptr (GPtrArray) widgets = g_ptr_array_new ();
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      list = child;
  g_assert_nonnull (list);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) && gtk_widget_get_first_child (row) != NULL)
      g_ptr_array_add (widgets, row);
  g_ptr_array_sort (widgets, compare_y);
  for (guint i = 0; i < widgets->len; i++)
    {
      GString *text = g_string_new (NULL);

      collect_labels (g_ptr_array_index (widgets, i), text);
      g_ptr_array_add (rows, g_string_free (text, FALSE));
    }
  return rows;
}

static char *
cell (GPtrArray *rows, guint row, guint column)
{
  g_auto (GStrv) cells = g_strsplit (g_ptr_array_index (rows, row), "|", -1);

  g_assert_cmpuint (column, <, g_strv_length (cells));
  return g_strdup (cells[column]);
}

static GtkColumnViewColumn *
column_by_title (GtkColumnView *view, const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  g_assert_not_reached ();
}

static OviOverflowRecord *
find_record (OviWindow *window, guint64 status)
{
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (window));

  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);

      if (ovi_overflow_record_get_status (record) == status)
        return record;
    }
  return NULL;
}

/* --- tests -------------------------------------------------------------- */

static void
test_overflow_table (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (f->window));
  g_autoptr (GPtrArray) rows = visible_rows (view);
  guint n = g_list_model_get_n_items (records);

  g_assert_cmpuint (n, >=, 5);
  g_assert_cmpuint (rows->len, ==, n);

  /* Default order: first overflow first, numbered 1, 2, 3... and the
   * columns in the order of the issue. */
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      g_autofree char *position = cell (rows, i, 0);
      g_autofree char *iteration = cell (rows, i, 1);
      g_autofree char *unit = cell (rows, i, 2);
      g_autofree char *op_name = cell (rows, i, 4);
      g_autofree char *status = cell (rows, i, 7);
      g_autofree char *expected_position = g_strdup_printf ("%u", i + 1);
      g_autofree char *expected_status = ovi_overflow_record_dup_status_summary (record);
      OviDumpFile *op = ovi_overflow_record_get_op (record);

      g_test_message ("row %u: %s", i, (char *) g_ptr_array_index (rows, i));
      g_assert_cmpstr (position, ==, expected_position);
      g_assert_cmpstr (iteration, ==,
                       ovi_dump_file_get_iteration (ovi_overflow_record_get_file (record)));
      g_assert_cmpstr (unit, ==, ovi_overflow_record_get_unit_name (record));
      g_assert_cmpstr (status, ==, expected_status);
      if (op == NULL)
        g_assert_cmpstr (op_name, ==, _ ("No matching op dump file"));
      else
        g_assert_cmpstr (op_name, ==, ovi_dump_file_get_op_name (op));
    }

  /* The scan's counts stay in the progress line. */
  {
    GtkLabel *progress = GTK_LABEL (gtk_widget_get_template_child (
        GTK_WIDGET (ovi_window_get_scan_bar (f->window)), OVI_TYPE_SCAN_BAR, "progress_label"));
    g_autofree char *expected = g_strdup_printf ("%u overflow records", n);

    g_assert_nonnull (strstr (gtk_label_get_text (progress), expected));
  }

  /* The first overflow of the example is the AI Core record 0x110. */
  {
    g_autofree char *status = cell (rows, 0, 7);
    g_assert_cmpstr (status, ==, "0x110 FP16+INT");
  }
}

static void
assert_sorted (GPtrArray *rows, guint column, gboolean numeric, gboolean descending)
{
  for (guint i = 1; i < rows->len; i++)
    {
      g_autofree char *a = cell (rows, i - 1, column);
      g_autofree char *b = cell (rows, i, column);
      int cmp;

      if (numeric)
        {
          guint64 x = g_ascii_strtoull (a, NULL, 10), y = g_ascii_strtoull (b, NULL, 10);
          cmp = x < y ? -1 : x > y;
        }
      else
        {
          /* As GtkStringSorter compares by default: ignoring case. */
          g_autofree char *fa = g_utf8_casefold (a, -1), *fb = g_utf8_casefold (b, -1);

          cmp = g_utf8_collate (fa, fb);
        }
      if (descending)
        cmp = -cmp;
      if (cmp > 0)
        g_test_message ("not sorted at row %u: '%s' then '%s'", i, a, b);
      g_assert_cmpint (cmp, <=, 0);
    }
}

/* The tables sort incrementally, a step per main-loop turn. */
static void
wait_sorted (OviWindow *window)
{
  GtkSortListModel *sorted = GTK_SORT_LIST_MODEL (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (window)),
                                     OVI_TYPE_OVERFLOWS_PAGE, "record_sort_model"));

  settle (50);
  WAIT_UNTIL (gtk_sort_list_model_get_pending (sorted) == 0);
  settle (100);
}

static void
test_sort_by_header (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  g_autoptr (GPtrArray) before = visible_rows (view);
  g_autoptr (GPtrArray) by_task = NULL;
  g_autoptr (GPtrArray) by_unit = NULL;
  g_autoptr (GPtrArray) back = NULL;
  g_autofree char *first = NULL;

  gtk_column_view_sort_by_column (view, column_by_title (view, "Task"), GTK_SORT_DESCENDING);
  wait_sorted (f->window);
  by_task = visible_rows (view);
  g_assert_cmpuint (by_task->len, ==, before->len);
  assert_sorted (by_task, 5, TRUE, TRUE);

  gtk_column_view_sort_by_column (view, column_by_title (view, "Unit"), GTK_SORT_ASCENDING);
  wait_sorted (f->window);
  by_unit = visible_rows (view);
  assert_sorted (by_unit, 2, FALSE, FALSE);

  /* Sorting by # gives back the first-overflow-first order. */
  gtk_column_view_sort_by_column (view, column_by_title (view, "#"), GTK_SORT_ASCENDING);
  wait_sorted (f->window);
  back = visible_rows (view);
  for (guint i = 0; i < back->len; i++)
    g_assert_cmpstr (g_ptr_array_index (back, i), ==, g_ptr_array_index (before, i));
  first = cell (back, 0, 0);
  g_assert_cmpstr (first, ==, "1");
}

static void
test_search_and_unit_filter (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  GtkWidget *page = GTK_WIDGET (ovi_window_get_overflows_page (f->window));
  GtkWidget *search =
      (GtkWidget *) gtk_widget_get_template_child (page, OVI_TYPE_OVERFLOWS_PAGE, "record_search");
  GtkDropDown *units = GTK_DROP_DOWN (
      gtk_widget_get_template_child (page, OVI_TYPE_OVERFLOWS_PAGE, "unit_dropdown"));
  const char *op_type =
      ovi_dump_file_get_op_type (ovi_overflow_record_get_op (find_record (f->window, 272)));
  g_autoptr (GPtrArray) rows = NULL;

  /* The search matches op type or name. */
  gtk_editable_set_text (GTK_EDITABLE (search), op_type);
  settle (400);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >=, 1);
  for (guint i = 0; i < rows->len; i++)
    g_assert_nonnull (strstr (g_ptr_array_index (rows, i), op_type));
  g_clear_pointer (&rows, g_ptr_array_unref);

  gtk_editable_set_text (GTK_EDITABLE (search), "");
  gtk_drop_down_set_selected (units, 1 + OVI_UNIT_SDMA);
  settle (400);
  rows = visible_rows (view);
  {
    GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (f->window));
    guint n_sdma = 0;

    for (guint i = 0; i < g_list_model_get_n_items (records); i++)
      {
        g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);

        n_sdma += ovi_overflow_record_get_unit (record) == OVI_UNIT_SDMA;
      }
    g_assert_cmpuint (n_sdma, >, 0);
    g_assert_cmpuint (rows->len, ==, n_sdma);
  }
  for (guint i = 0; i < rows->len; i++)
    g_assert_nonnull (strstr (g_ptr_array_index (rows, i), "|SDMA|"));
}

static void
test_tree_narrows (Fixture *f, gconstpointer data)
{
  GListModel *tree = ovi_window_get_tree_model (f->window);
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  gboolean found = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);
      g_autoptr (GPtrArray) rows = NULL;

      if (ovi_tree_node_get_level (node) != OVI_TREE_LEVEL_ITERATION)
        continue;
      ovi_window_select_tree_row (f->window, i);
      settle (100);
      rows = visible_rows (view);
      g_test_message ("%s: %u records", ovi_tree_node_get_label (node), rows->len);
      g_assert_cmpuint (rows->len, ==, ovi_tree_node_get_count (node));
      found = TRUE;
    }
  g_assert_true (found);
}

static void
test_checklist_0x110 (Fixture *f, gconstpointer data)
{
  OviOverflowRecord *record = find_record (f->window, 272);
  g_autofree char *checklist = NULL;

  g_assert_nonnull (record);
  g_assert_true (ovi_window_select_record (f->window, record));
  checklist = ovi_record_view_dup_checklist_text (ovi_window_get_record_details (f->window));
  g_assert_cmpstr (checklist, ==,
                   "[ ] 0x8 NEG\n"
                   "[x] 0x10 INT\n"
                   "[ ] 0x20 FP\n"
                   "[ ] 0x80 F2U\n"
                   "[x] 0x100 FP16\n"
                   "[ ] 0x400 CUBE\n");
}

typedef struct
{
  OviDumpFile *file;
  guint index;
  OviStats stats;
} Abnormal;

static void
abnormal_free (gpointer data)
{
  Abnormal *a = data;

  g_object_unref (a->file);
  g_free (a);
}

/* Every tensor of the example with NaN, Inf or saturated values. */
static GPtrArray *
all_abnormal_tensors (OviWindow *window)
{
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (window));
  GPtrArray *found = g_ptr_array_new_with_free_func (abnormal_free);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);

      /* Statistics-mode operators have no values, so no histogram. */
      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP ||
          ovi_dump_file_get_statistics_only (file))
        continue;
      for (guint t = 0; tensors && t < tensors->len; t++)
        {
          g_autoptr (OviAnalysis) analysis =
              ovi_tensor_analyze (g_ptr_array_index (tensors, t), NULL);
          const OviStats *stats = analysis ? ovi_analysis_get_stats (analysis) : NULL;

          if (stats && stats->nan + stats->pos_inf + stats->neg_inf + stats->saturated > 0)
            {
              Abnormal *a = g_new0 (Abnormal, 1);

              a->file = g_object_ref (file);
              a->index = t;
              a->stats = *stats;
              g_ptr_array_add (found, a);
            }
        }
    }
  return found;
}

/* The tensor of the example with the most kinds of abnormal values. */
static gboolean
find_abnormal_tensor (OviWindow *window,
                      OviDumpFile **file_out,
                      guint *index_out,
                      OviStats *stats_out)
{
  g_autoptr (GPtrArray) found = all_abnormal_tensors (window);
  int best = 0;

  for (guint i = 0; i < found->len; i++)
    {
      const Abnormal *a = g_ptr_array_index (found, i);
      int score = (a->stats.nan > 0) + (a->stats.pos_inf > 0) + (a->stats.neg_inf > 0) +
                  (a->stats.saturated > 0);

      if (score > best)
        {
          best = score;
          g_set_object (file_out, a->file);
          *index_out = a->index;
          *stats_out = a->stats;
        }
    }
  g_test_message ("most abnormal tensor: %d kinds", best);
  return best >= 1;
}

static guint64
count_in (const char *text, const char *prefix)
{
  const char *p = strstr (text, prefix);

  g_assert_nonnull (p);
  return g_ascii_strtoull (p + strlen (prefix), NULL, 10);
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
      settle (100);
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
  settle (200);
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
  settle (50);
  WAIT_UNTIL (gtk_sort_list_model_get_pending (GTK_SORT_LIST_MODEL (gtk_widget_get_template_child (
                  GTK_WIDGET (ovi_window_get_operators_page (f->window)), OVI_TYPE_OPERATORS_PAGE,
                  "op_sort_model"))) == 0);
  settle (100);
  /* The list keeps its top item in view across a re-sort: scroll up as a
   * user would. */
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)), 0);
  settle (200);
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

static void
test_export (Fixture *f, gconstpointer data)
{
  g_autofree char *json_path = g_build_filename (f->tmpdir, "report.json", NULL);
  g_autofree char *text_path = g_build_filename (f->tmpdir, "report.txt", NULL);
  g_autofree char *npy_path = g_build_filename (f->tmpdir, "tensor.npy", NULL);
  g_autofree char *vendor_path = g_build_filename (f->tmpdir, "overflow.json", NULL);
  g_autofree char *example = ovi_application_dup_example_dir ();
  g_autofree char *inside = g_build_filename (example, "report.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  OviStats stats;
  guint index = 0;
  gsize length;

  /* Report as JSON: the same document the CLI writes. */
  g_assert_true (
      ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_REPORT_JSON, json_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (json_path, &contents, &length, &error));
  expected = ovi_report_to_json (ovi_window_get_folder (f->window));
  g_assert_cmpstr (contents, ==, expected);
  g_assert_true (json_parser_load_from_data (parser, contents, length, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  g_clear_pointer (&contents, g_free);

  g_assert_true (
      ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_REPORT_TEXT, text_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (text_path, G_FILE_TEST_IS_REGULAR));

  /* The selected tensor as .npy. */
  g_assert_true (find_abnormal_tensor (f->window, &file, &index, &stats));
  ovi_window_show_tensor (f->window, file, index);
  g_assert_true (
      ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_TENSOR_NPY, npy_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (npy_path, &contents, &length, &error));
  g_assert_cmpuint (length, >, 10);
  g_assert_cmpmem (contents, 6, "\x93NUMPY", 6);
  g_clear_pointer (&contents, g_free);

  /* The selected overflow file as the vendor JSON. */
  g_assert_true (ovi_window_select_record (f->window, find_record (f->window, 272)));
  g_assert_true (
      ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_OVERFLOW_JSON, vendor_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (vendor_path, &contents, &length, &error));
  g_assert_true (json_parser_load_from_data (parser, contents, length, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (contents, "\"AI Core\""));
  g_assert_nonnull (strstr (contents, "272"));

  /* Never inside the inspected folder. */
  g_assert_false (
      ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_REPORT_JSON, inside, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_INSIDE_DUMP);
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));

  g_unlink (json_path);
  g_unlink (text_path);
  g_unlink (npy_path);
  g_unlink (vendor_path);
}

static void
test_compare (Fixture *f, gconstpointer data)
{
  OviComparePage *compare = ovi_window_get_compare_view (f->window);
  OviHistogramView *histogram = ovi_compare_page_get_histogram (compare);
  OviOverflowRecord *record = find_record (f->window, 272);
  OviDumpFile *op = ovi_overflow_record_get_op (record);

  g_assert_nonnull (op);
  ovi_window_show_page (f->window, "compare");
  g_assert_true (ovi_compare_page_select_op (compare, ovi_dump_file_get_op_name (op)));
  WAIT_UNTIL (!ovi_compare_page_get_busy (compare));
  g_assert_cmpuint (ovi_compare_page_get_n_iterations (compare), >=, 2);
  g_assert_cmpuint (ovi_histogram_view_get_n_series (histogram), >=, 1);
}

static void
test_problems (Fixture *f, gconstpointer data)
{
  GListModel *problems = ovi_dump_folder_get_problems (ovi_window_get_folder (f->window));
  GtkColumnView *view =
      ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
  g_autoptr (GPtrArray) rows = NULL;

  ovi_window_show_page (f->window, "problems");
  settle (200);
  {
    GtkWidget *button = GTK_WIDGET (
        gtk_widget_get_template_child (GTK_WIDGET (f->window), OVI_TYPE_WINDOW, "problems_button"));
    AdwButtonContent *content = ADW_BUTTON_CONTENT (gtk_widget_get_template_child (
        GTK_WIDGET (f->window), OVI_TYPE_WINDOW, "problems_content"));
    g_autofree char *expected =
        g_strdup_printf ("%u problem%s", g_list_model_get_n_items (problems),
                         g_list_model_get_n_items (problems) == 1 ? "" : "s");

    g_assert_cmpuint (g_list_model_get_n_items (problems), >, 0);
    g_assert_true (gtk_widget_get_visible (button));
    g_assert_cmpstr (adw_button_content_get_label (content), ==, expected);
  }
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (problems));
  for (guint i = 0; i < rows->len; i++)
    g_assert_cmpstr (strchr (g_ptr_array_index (rows, i), '|'), !=, NULL);
}

static void
test_window_state (void)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  OviWindow *window;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 650);
  window = ovi_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  settle (200);
  /* The saved size is the size the window opens with. */
  {
    int width, height;

    gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
    g_assert_cmpint (width, ==, 900);
    g_assert_cmpint (height, ==, 650);
  }

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  settle (200);
  gtk_window_close (GTK_WINDOW (window));
  settle (100);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
test_open_several (void)
{
  g_autofree char *example = ovi_application_dup_example_dir ();
  g_autofree char *iteration =
      g_build_filename (example, "20261202101500", "0", "resnet50_train", "11", "4", NULL);
  g_autofree char *dump_file = NULL;
  g_autoptr (GDir) listing = g_dir_open (iteration, 0, NULL);
  GFile *files[3];
  OviWindow *opened[2];
  GList *windows;
  guint before = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
  const char *name;

  while ((name = g_dir_read_name (listing)) != NULL && dump_file == NULL)
    if (g_str_has_prefix (name, "Cast."))
      dump_file = g_build_filename (iteration, name, NULL);
  g_assert_nonnull (dump_file);
  files[0] = g_file_new_for_path (example);
  files[1] = g_file_new_for_path (dump_file);
  files[2] = g_file_new_for_path (iteration);
  /* What "overflow-inspector FOLDER FILE FOLDER" does: the folders open
   * together in one window, the dump file in a window of its own. */
  g_application_open (G_APPLICATION (app), files, 3, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, before + 2);
  /* The newest windows come first: the folders', then the file's. */
  opened[0] = g_object_ref (windows->data);
  opened[1] = g_object_ref (windows->next->data);
  for (guint i = 0; i < 2; i++)
    {
      WAIT_UNTIL (!ovi_window_get_busy (opened[i]));
      g_assert_nonnull (ovi_window_get_folder (opened[i]));
    }
  g_assert_cmpuint (ovi_dump_folder_get_n_roots (ovi_window_get_folder (opened[0])), ==, 2);
  g_assert_cmpstr (ovi_dump_folder_get_nth_root_path (ovi_window_get_folder (opened[0]), 0), ==,
                   example);
  g_assert_cmpstr (ovi_dump_folder_get_nth_root_path (ovi_window_get_folder (opened[0]), 1), ==,
                   iteration);
  g_assert_cmpuint (ovi_dump_folder_get_n_roots (ovi_window_get_folder (opened[1])), ==, 1);
  g_assert_cmpstr (ovi_dump_folder_get_root_path (ovi_window_get_folder (opened[1])), ==,
                   dump_file);
  for (guint i = 0; i < 2; i++)
    {
      gtk_window_destroy (GTK_WINDOW (opened[i]));
      g_object_unref (opened[i]);
    }
  settle (100);
  for (guint i = 0; i < 3; i++)
    g_object_unref (files[i]);
}

/* --- screenshots -------------------------------------------------------- */

static void
save_png (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("OVI_SCREENSHOT_DIR");
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  settle (300);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("saved %s", path);
}

/* The operator name dumped in the most iterations (the first overflow's
 * operator when there is a tie), for the compare view. */
static const char *
most_repeated_op (OviWindow *window)
{
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (window));
  OviDumpFile *first_op = ovi_overflow_record_get_op (find_record (window, 272));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  const char *best = ovi_dump_file_get_op_name (first_op);
  guint best_count = 0;

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      const char *name = ovi_dump_file_get_op_name (file);
      char *key;
      guint count;

      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP || name == NULL)
        continue;
      key = g_strconcat (name, "\n", ovi_dump_file_get_iteration (file), NULL);
      if (!g_hash_table_add (seen, key))
        continue;
      count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1;
      g_hash_table_insert (counts, (gpointer) name, GUINT_TO_POINTER (count));
      if (count > best_count ||
          (count == best_count && g_strcmp0 (name, ovi_dump_file_get_op_name (first_op)) == 0))
        {
          best = name;
          best_count = count;
        }
    }
  return best;
}

static void
test_screenshots (Fixture *f, gconstpointer data)
{
  GtkWidget *window = GTK_WIDGET (f->window);
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  OviComparePage *compare = ovi_window_get_compare_view (f->window);
  OviOverflowRecord *first = find_record (f->window, 272);
  OviDumpFile *op = ovi_overflow_record_get_op (first);
  GPtrArray *tensors = ovi_dump_file_get_tensors (op);
  guint index = 0;

  if (g_getenv ("OVI_SCREENSHOT_DIR") == NULL)
    {
      g_test_skip ("OVI_SCREENSHOT_DIR is not set");
      return;
    }

  /* Wide enough for every column of the overflow table. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1560, 940);
  settle (300);
  g_assert_true (ovi_window_select_record (f->window, first));
  save_png (window, "overflows.png");

  /* The output of the first overflowing operator that holds non-finite values. */
  for (guint i = 0; i < tensors->len; i++)
    {
      g_autoptr (OviAnalysis) analysis = ovi_tensor_analyze (g_ptr_array_index (tensors, i), NULL);

      if (analysis && ovi_analysis_get_stats (analysis)->first_nonfinite >= 0)
        index = i;
    }
  ovi_window_show_tensor (f->window, op, index);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  save_png (window, "tensor.png");

  ovi_window_show_page (f->window, "compare");
  ovi_compare_page_select_op (compare, most_repeated_op (f->window));
  WAIT_UNTIL (!ovi_compare_page_get_busy (compare));
  save_png (window, "compare.png");

  ovi_window_show_page (f->window, "problems");
  save_png (window, "problems.png");

  /* The blame chain: the operator table sorted by class, origin first. */
  ovi_window_show_page (f->window, "operators");
  {
    GtkColumnView *ops = ovi_window_get_op_view (f->window);
    GListModel *columns = gtk_column_view_get_columns (ops);

    for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
      {
        g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
        if (g_strcmp0 (gtk_column_view_column_get_title (column), "Class") == 0)
          gtk_column_view_sort_by_column (ops, column, GTK_SORT_ASCENDING);
      }
    settle (300);
    /* From the top, where the origins are. */
    for (GtkWidget *w = GTK_WIDGET (ops); w; w = gtk_widget_get_parent (w))
      if (GTK_IS_SCROLLED_WINDOW (w))
        {
          gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (w)),
                                    0);
          break;
        }
  }
  save_png (window, "operators.png");
}

static void
test_shortcuts (Fixture *f, gconstpointer data)
{
  static const struct
  {
    const char *action;
    const char *accel;
  } expected[] = {
    { "win.open", "<Control>o" }, { "win.search", "<Control>f" },   { "win.export", "<Control>e" },
    { "win.reload", "F5" },       { "window.close", "<Control>w" }, { "app.quit", "<Control>q" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto (GStrv) accels =
          gtk_application_get_accels_for_action (GTK_APPLICATION (app), expected[i].action);

      g_assert_true (g_strv_contains ((const char *const *) accels, expected[i].accel));
    }
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (f->window)));

  /* Ctrl+F lands in the search field of the overflow table. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL);
  settle (100);
  {
    GtkWidget *search = GTK_WIDGET (
        gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (f->window)),
                                       OVI_TYPE_OVERFLOWS_PAGE, "record_search"));

    g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)), search) ||
                   gtk_root_get_focus (GTK_ROOT (f->window)) == search);
  }

  /* The opened folder heads the recent folders of the start page. */
  {
    g_autoptr (GSettings) settings = g_settings_new (APP_ID);
    g_auto (GStrv) recent = g_settings_get_strv (settings, "recent-folders");
    g_autofree char *example = ovi_application_dup_example_dir ();

    g_assert_nonnull (recent[0]);
    g_assert_cmpstr (recent[0], ==, example);
  }

  /* The about window opens (and closes). */
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  settle (200);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    GtkWindow *about = NULL;

    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr (GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

        if (toplevel != GTK_WINDOW (f->window) && gtk_widget_get_visible (GTK_WIDGET (toplevel)) &&
            gtk_window_get_transient_for (toplevel) == GTK_WINDOW (f->window))
          about = toplevel;
      }
    g_assert_nonnull (about);
    gtk_window_destroy (about);
  }

  /* F5 rescans and gives the same records. */
  {
    guint before =
        g_list_model_get_n_items (ovi_dump_folder_get_records (ovi_window_get_folder (f->window)));

    gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
    WAIT_UNTIL (!ovi_window_get_busy (f->window));
    g_assert_cmpuint (
        g_list_model_get_n_items (ovi_dump_folder_get_records (ovi_window_get_folder (f->window))),
        ==, before);
  }
}

/* What GTK does when files from a file manager are dropped on @window. */
static gboolean
drop_files (OviWindow *window, GFile **files, guint n_files)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  GtkDropTarget *target = NULL;
  GSList *list = NULL;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  for (guint i = n_files; i > 0; i--)
    list = g_slist_prepend (list, files[i - 1]);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (list));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_slist_free (list);
  return accepted;
}

static void
test_drop_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *example = ovi_application_dup_example_dir ();
  g_autofree char *iteration =
      g_build_filename (example, "20261202101500", "0", "resnet50_train", "11", "4", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (iteration);
  g_autoptr (GPtrArray) rows = NULL;

  if (!g_file_test (iteration, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the example has no iteration folder 4");
      return;
    }
  g_assert_true (drop_files (f->window, &file, 1));

  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  settle (200);
  g_assert_cmpstr (ovi_dump_folder_get_root_path (ovi_window_get_folder (f->window)), ==,
                   iteration);
  rows = visible_rows (ovi_window_get_record_view (f->window));
  g_assert_cmpuint (
      rows->len, ==,
      g_list_model_get_n_items (ovi_dump_folder_get_records (ovi_window_get_folder (f->window))));
  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *iteration_cell = cell (rows, i, 1);
      g_assert_cmpstr (iteration_cell, ==, "4");
    }
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  /* Cancel right after starting a rescan: the scan stops, the window keeps
   * what was found and stays usable. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
  g_assert_true (ovi_window_get_loading (f->window));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.cancel", NULL);
  /* The statistics of the operators found so far still complete. */
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  settle (100);
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_template_child (
      GTK_WIDGET (ovi_window_get_scan_bar (f->window)), OVI_TYPE_SCAN_BAR, "progress_revealer"))));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_nonnull (find_record (f->window, 272));
}

static void
test_open_single_file (Fixture *f, gconstpointer data)
{
  OviOverflowRecord *record = find_record (f->window, 272);
  const char *path = ovi_dump_file_get_path (ovi_overflow_record_get_file (record));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *status = NULL;

  ovi_window_open_file (f->window, file);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  settle (200);
  rows = visible_rows (ovi_window_get_record_view (f->window));
  g_assert_cmpuint (rows->len, ==, 1);
  status = cell (rows, 0, 7);
  g_assert_cmpstr (status, ==, "0x110 FP16+INT");
}

/* --- states of the overflow table ---------------------------------------- */

static const char *
empty_title (OviWindow *window)
{
  AdwStatusPage *page = ADW_STATUS_PAGE (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (window)),
                                     OVI_TYPE_OVERFLOWS_PAGE, "record_empty_page"));

  return adw_status_page_get_title (page);
}

/* Until rows arrive, a scan shows "Scanning…", never "no overflow". */
static void
test_scanning_state (Fixture *f, gconstpointer data)
{
  OviOverflowsPage *page = ovi_window_get_overflows_page (f->window);

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
  g_assert_true (ovi_window_get_loading (f->window));
  g_assert_cmpuint (
      g_list_model_get_n_items (ovi_dump_folder_get_records (ovi_window_get_folder (f->window))),
      ==, 0);
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "scanning");
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "table");
}

static void
test_no_dump_file_state (Fixture *f, gconstpointer data)
{
  g_autoptr (GFile) empty = g_file_new_for_path (f->tmpdir);

  ovi_window_open_file (f->window, empty);
  g_assert_cmpstr (ovi_overflows_page_get_state (ovi_window_get_overflows_page (f->window)), ==,
                   "scanning");
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_cmpstr (ovi_overflows_page_get_state (ovi_window_get_overflows_page (f->window)), ==,
                   "empty");
  g_assert_cmpstr (empty_title (f->window), ==, _ ("No Dump Files"));
}

static void
test_filter_no_match_state (Fixture *f, gconstpointer data)
{
  OviOverflowsPage *page = ovi_window_get_overflows_page (f->window);
  GtkEditable *search = GTK_EDITABLE (
      gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_OVERFLOWS_PAGE, "record_search"));

  gtk_editable_set_text (search, "no-operator-has-this-name");
  settle (400);
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "empty");
  g_assert_cmpstr (empty_title (f->window), ==, _ ("No Matching Records"));
  gtk_editable_set_text (search, "");
  settle (400);
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "table");
}

/* Cancel mid-scan: the scan and the delivery stop, the progress area
 * hides, Cancel disables, and the window says what it shows is partial. */
static void
test_cancel_partial (Fixture *f, gconstpointer data)
{
  GtkWidget *window = GTK_WIDGET (f->window);
  GtkWidget *bar = GTK_WIDGET (ovi_window_get_scan_bar (f->window));
  GtkRevealer *progress =
      GTK_REVEALER (gtk_widget_get_template_child (bar, OVI_TYPE_SCAN_BAR, "progress_revealer"));
  GtkRevealer *banner =
      GTK_REVEALER (gtk_widget_get_template_child (bar, OVI_TYPE_SCAN_BAR, "cancelled_revealer"));
  GtkWidget *cancel =
      GTK_WIDGET (gtk_widget_get_template_child (bar, OVI_TYPE_SCAN_BAR, "cancel_button"));
  OviSession *session = ovi_window_get_session (f->window);

  g_assert_false (gtk_revealer_get_reveal_child (banner));
  gtk_widget_activate_action (window, "win.reload", NULL);
  g_assert_true (gtk_widget_get_sensitive (cancel));
  gtk_widget_activate_action (window, "win.cancel", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  settle (100);
  g_assert_true (ovi_session_get_cancelled (session));
  g_assert_false (gtk_revealer_get_reveal_child (progress));
  g_assert_true (gtk_revealer_get_reveal_child (banner));
  g_assert_false (gtk_widget_get_sensitive (cancel));

  /* A new scan clears the banner. */
  gtk_widget_activate_action (window, "win.reload", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_false (ovi_session_get_cancelled (session));
  g_assert_false (gtk_revealer_get_reveal_child (banner));
}

/* The details pane shows the selected record through its "record"
 * property, bound to the session's selection. */

/* The value next to @name in the tensor view's information grid. */
static const char *
tensor_info (OviTensorView *view, const char *name)
{
  GtkGrid *grid = GTK_GRID (
      gtk_widget_get_template_child (GTK_WIDGET (view), OVI_TYPE_TENSOR_VIEW, "info_grid"));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), name) == 0)
      {
        int column, row;
        GtkWidget *value;

        gtk_grid_query_child (grid, child, &column, &row, NULL, NULL);
        value = gtk_grid_get_child_at (grid, column + 1, row);
        return value ? gtk_label_get_text (GTK_LABEL (value)) : NULL;
      }
  return NULL;
}

static OviDumpFile *
find_op (OviWindow *window, const char *op_name, const char *iteration)
{
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (window));

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

      if (g_strcmp0 (ovi_dump_file_get_op_name (file), op_name) == 0 &&
          g_strcmp0 (ovi_dump_file_get_iteration (file), iteration) == 0)
        return file;
    }
  return NULL;
}

static guint
output_index (OviDumpFile *file)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);

  for (guint i = 0; i < tensors->len; i++)
    if (ovi_tensor_get_kind (g_ptr_array_index (tensors, i)) == OVI_TENSOR_OUTPUT)
      return i;
  g_assert_not_reached ();
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
  settle (50);
  g_assert_cmpstr (tensor_info (tensor_view, "Data type"), ==, "float8_e4m3fn");
  g_assert_true (g_str_has_prefix (tensor_info (tensor_view, "Saturated (±max)"), "67 "));
  g_assert_cmpstr (tensor_info (tensor_view, "Largest magnitude"), ==, "448");

  /* A statistics-mode Cast: the CSV's counts, and why there is no histogram. */
  g_assert_nonnull (cast);
  g_assert_true (ovi_dump_file_get_statistics_only (cast));
  ovi_window_show_tensor (f->window, cast, output_index (cast));
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view) &&
              gtk_widget_get_visible (GTK_WIDGET (message)));
  settle (50);
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
  settle (100);
  rows = visible_rows (ovi_window_get_record_view (f->window));
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (records));
  {
    g_autofree char *unit = cell (rows, rows->len - 1, 2);

    g_assert_cmpstr (unit, ==, "Data");
  }
  g_assert_true (ovi_window_select_record (f->window, last));
  settle (100);
  collect_labels (GTK_WIDGET (ovi_window_get_record_details (f->window)), details);
  g_test_message ("record details: %s", details->str);
  g_assert_nonnull (strstr (details->str, "Found in the data"));
  g_assert_null (strstr (details->str, "pc_start"));

  /* The first record is still the first overflow, and says so. */
  {
    g_autoptr (OviOverflowRecord) first = g_list_model_get_item (records, 0);
    g_autoptr (GString) title = g_string_new (NULL);

    g_assert_true (ovi_window_select_record (f->window, first));
    settle (100);
    collect_labels (GTK_WIDGET (ovi_window_get_record_details (f->window)), title);
    g_assert_true (g_str_has_prefix (title->str, "First overflow, AI Core"));
  }
}

/* A template child of the tensor view. */
static GtkWidget *
tensor_view_child (OviTensorView *view, const char *id)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), OVI_TYPE_TENSOR_VIEW, id));
}

static const char *
label_text (OviTensorView *view, const char *id)
{
  return gtk_label_get_text (GTK_LABEL (tensor_view_child (view, id)));
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

  /* The workspace: type 0 is LOG. */
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

  gtk_window_destroy (GTK_WINDOW (window));
  settle (50);
  g_unlink (matmul_path);
  g_unlink (add_path);
}

static void
test_record_view_follows_selection (Fixture *f, gconstpointer data)
{
  OviRecordView *details = ovi_window_get_record_details (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (f->window));

  g_assert_cmpuint (g_list_model_get_n_items (records), >=, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      g_autoptr (OviOverflowRecord) shown = NULL;

      g_assert_true (ovi_window_select_record (f->window, record));
      g_object_get (details, "record", &shown, NULL);
      g_assert_true (shown == record);
      g_assert_true (ovi_session_get_selected_record (session) == record);
    }
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* More operators than GTK 4.8 builds rows for up front (200): the operator
 * table takes them a few rows a frame, then all the rest, and ends with
 * every operator, in the order they ran. */
static void
test_large_table (Fixture *f, gconstpointer data)
{
  g_autofree char *source =
      g_build_filename (g_getenv ("OVI_EXAMPLE_DIR"), "20261202101500", "0", "resnet50_train", "11",
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
  settle (100);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 450);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >, 0);
  first_task = cell (rows, 0, 4);
  g_assert_cmpstr (first_task, ==, "1000");
  remove_tree (time_dir);
}

/* The text of a compare-page grid's cell: a label's, or a button's. */
static const char *
grid_cell (OviComparePage *page, const char *grid_id, int column, int row)
{
  GtkGrid *grid =
      GTK_GRID (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_COMPARE_PAGE, grid_id));
  GtkWidget *child = gtk_grid_get_child_at (grid, column, row);

  if (GTK_IS_BUTTON (child))
    return gtk_button_get_label (GTK_BUTTON (child));
  return GTK_IS_LABEL (child) ? gtk_label_get_text (GTK_LABEL (child)) : NULL;
}

static const char *
compare_label (OviComparePage *page, const char *id)
{
  GtkWidget *label =
      GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_COMPARE_PAGE, id));

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

/* Comparing iterations: the page opens on the selected record's operator
 * (not the alphabetically first), follows the selection, compares the
 * iterations of the chosen range and says what it leaves out, shows the
 * first and last of the range side by side with the change, and a grid cell
 * opens that operator in that iteration. */
static void
test_compare_iterations (Fixture *f, gconstpointer data)
{
  OviComparePage *compare = ovi_window_get_compare_view (f->window);
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
  ovi_window_show_page (f->window, "compare");
  settle (100);
  g_assert_cmpstr (ovi_compare_page_get_op (compare), ==, cast);

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
  g_assert_cmpstr (ovi_compare_page_get_op (compare), ==,
                   ovi_dump_file_get_op_name (ovi_overflow_record_get_op (other)));
  ovi_session_set_selected_record (session, first);
  g_assert_cmpstr (ovi_compare_page_get_op (compare), ==, cast);

  /* Iterations 3 to 4: two rows, each the tensor's own statistics. */
  g_assert_true (ovi_compare_page_set_range (compare, "3", "4"));
  WAIT_UNTIL (!ovi_compare_page_get_busy (compare));
  settle (100);
  g_assert_cmpstr (grid_cell (compare, "stats_grid", 1, 0), ==, "3");
  g_assert_cmpstr (grid_cell (compare, "stats_grid", 2, 0), ==, "4");
  g_assert_null (grid_cell (compare, "stats_grid", 3, 0));
  g_assert_cmpstr (grid_cell (compare, "stats_grid", 0, 4), ==, "Maximum");
  g_assert_cmpstr (grid_cell (compare, "stats_grid", 1, 4), ==, max_3);
  g_assert_cmpstr (grid_cell (compare, "stats_grid", 2, 4), ==, max_4);
  g_assert_cmpstr (compare_label (compare, "range_note"), ==, "2 of 4 iterations");

  /* Side by side: 3 and 4, and the change in the NaN count. */
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 1, 0), ==, "Iteration 3");
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 2, 0), ==, "Iteration 4");
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 0, 2), ==, "Maximum");
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 1, 2), ==, max_3);
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 2, 2), ==, max_4);
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 0, 6), ==, "NaN");
  nan_change = s4->nan == s3->nan  ? g_strdup ("0")
               : s4->nan > s3->nan ? g_strdup_printf ("+%" G_GUINT64_FORMAT, s4->nan - s3->nan)
                                   : g_strdup_printf ("−%" G_GUINT64_FORMAT, s3->nan - s4->nan);
  g_assert_cmpstr (grid_cell (compare, "diff_grid", 3, 6), ==, nan_change);

  /* The whole folder, for an operator that ran in two of the four
   * iterations: the others are named, not silently dropped; the grid's
   * columns follow the range. */
  g_assert_true (ovi_compare_page_set_range (compare, "3", "12"));
  g_assert_true (ovi_compare_page_select_op (compare, matmul));
  WAIT_UNTIL (!ovi_compare_page_get_busy (compare));
  settle (100);
  g_assert_cmpstr (compare_label (compare, "range_note"), ==, "4 of 4 iterations");
  g_assert_cmpstr (compare_label (compare, "stats_note"), ==,
                   "2 iterations of the range did not run this operator.");
  g_assert_cmpstr (grid_cell (compare, "spread_grid", 1, 0), ==, "3");
  g_assert_cmpstr (grid_cell (compare, "spread_grid", 4, 0), ==, "12");
  g_assert_true (ovi_compare_page_select_op (compare, cast));
  g_assert_true (ovi_compare_page_set_range (compare, "4", "4"));
  WAIT_UNTIL (!ovi_compare_page_get_busy (compare));
  settle (100);
  g_assert_cmpstr (compare_label (compare, "range_note"), ==, "1 of 4 iterations");
  g_assert_cmpstr (grid_cell (compare, "spread_grid", 1, 0), ==, "4");
  g_assert_null (grid_cell (compare, "spread_grid", 2, 0));
  g_assert_cmpstr (compare_label (compare, "diff_note"), ==,
                   "Choose a range with two iterations that ran this operator to see them side "
                   "by side.");

  /* A cell of the grid opens that operator in that iteration. */
  spread = GTK_GRID (
      gtk_widget_get_template_child (GTK_WIDGET (compare), OVI_TYPE_COMPARE_PAGE, "spread_grid"));
  for (int row = 1; cell == NULL && gtk_grid_get_child_at (spread, 0, row); row++)
    if (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (gtk_grid_get_child_at (spread, 0, row))),
                   cast) == 0)
      cell = gtk_grid_get_child_at (spread, 1, row);
  g_assert_true (GTK_IS_BUTTON (cell));
  g_signal_emit_by_name (cell, "clicked");
  settle (100);
  g_assert_true (ovi_session_get_selected_file (session) == cast_4);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (f->window->view_stack), ==, "operators");
}

/* --- honest in every state ----------------------------------------------- */

/* The first widget of @type below @widget, depth first. */
static GtkWidget *
find_descendant (GtkWidget *widget, GType type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)))
        return found;
    }
  return NULL;
}

/* The AdwActionRow titled @title below @widget. */
static GtkWidget *
find_row (GtkWidget *widget, const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_ACTION_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return child;
      if ((found = find_row (child, title)))
        return found;
    }
  return NULL;
}

/* The value of the record view's field @title, NULL when it has no such
 * row; @button_out: its copy button. */
static const char *
field_value (OviRecordView *view, const char *title, GtkWidget **button_out)
{
  GtkWidget *row = find_row (GTK_WIDGET (view), title);
  GtkWidget *label = NULL;

  if (row == NULL)
    return NULL;
  /* The value is the numeric label; the title is not. */
  {
    GPtrArray *stack = g_ptr_array_new ();

    g_ptr_array_add (stack, row);
    while (stack->len > 0 && label == NULL)
      {
        GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

        if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "numeric"))
          label = w;
        for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (stack, c);
      }
    g_ptr_array_unref (stack);
  }
  if (button_out)
    *button_out = find_descendant (row, GTK_TYPE_BUTTON);
  return label ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}

static char *
clipboard_text (GtkWidget *widget)
{
  GdkContentProvider *content = gdk_clipboard_get_content (gtk_widget_get_clipboard (widget));
  GValue value = G_VALUE_INIT;
  char *text = NULL;

  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  if (gdk_content_provider_get_value (content, &value, NULL))
    text = g_value_dup_string (&value);
  g_value_unset (&value);
  return text;
}

/* The local date and time of a dump timestamp, worked out here with the C
 * library rather than with GLib as the app does. */
static char *
expected_local_time (guint64 timestamp)
{
  time_t seconds = (time_t) (timestamp / 1000000);
  struct tm tm;
  char text[64];

  g_assert_nonnull (localtime_r (&seconds, &tm));
  strftime (text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return g_strdup_printf ("%s.%06u", text, (guint) (timestamp % 1000000));
}

/* Timestamps read as local dates in the table and the record view, with
 * the raw microseconds in the tooltip and on the clipboard, and the time
 * since the previous overflow of the run beside them. */
static void
test_local_time_and_gap (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (f->window));
  OviRecordView *details = ovi_window_get_record_details (f->window);
  g_autoptr (OviOverflowRecord) first = g_list_model_get_item (records, 0);
  g_autoptr (OviOverflowRecord) second = g_list_model_get_item (records, 1);
  guint64 t1 = ovi_dump_file_get_timestamp (ovi_overflow_record_get_file (first));
  guint64 t2 = ovi_dump_file_get_timestamp (ovi_overflow_record_get_file (second));
  g_autofree char *date1 = expected_local_time (t1);
  g_autofree char *date2 = expected_local_time (t2);
  g_autofree char *raw2 = g_strdup_printf ("%" G_GUINT64_FORMAT, t2);
  g_autoptr (GPtrArray) rows = visible_rows (view);
  GtkWidget *copy = NULL;

  /* The example's first two records are 300 µs apart in iteration 3, the
   * third a minute later in iteration 4 (file names ...0500000250,
   * ...0500000550 and ...0560000150). */
  g_assert_cmpuint (t1, ==, G_GUINT64_CONSTANT (1764670500000250));
  g_assert_cmpuint (t2 - t1, ==, 300);
  {
    g_autofree char *time_cell = cell (rows, 0, 8);
    g_autofree char *gap1 = cell (rows, 0, 9);
    g_autofree char *gap2 = cell (rows, 1, 9);
    g_autofree char *gap3 = cell (rows, 2, 9);

    g_assert_cmpstr (time_cell, ==, date1);
    /* The first overflow of the run has nothing before it. */
    g_assert_cmpstr (gap1, ==, "");
    g_assert_cmpstr (gap2, ==, "+300 µs");
    g_assert_cmpstr (gap3, ==, "+60.0 s");
  }

  /* The record view: the date, the raw value in its tooltip and copy
   * button, and the gap. */
  g_assert_true (ovi_window_select_record (f->window, second));
  settle (100);
  g_assert_cmpstr (field_value (details, "Time", &copy), ==, date2);
  {
    GtkWidget *row = find_row (GTK_WIDGET (details), "Time");
    g_autofree char *copied = NULL;
    gboolean tooltip_found = FALSE;

    /* The value label's tooltip is the raw number. */
    {
      GPtrArray *stack = g_ptr_array_new ();

      g_ptr_array_add (stack, row);
      while (stack->len > 0)
        {
          GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

          if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), date2) == 0)
            {
              g_assert_cmpstr (ovi_widget_get_tooltip (w), ==, raw2);
              tooltip_found = TRUE;
            }
          for (GtkWidget *c = gtk_widget_get_first_child (w); c;
               c = gtk_widget_get_next_sibling (c))
            g_ptr_array_add (stack, c);
        }
      g_ptr_array_unref (stack);
    }
    g_assert_true (tooltip_found);
    g_assert_nonnull (copy);
    g_signal_emit_by_name (copy, "clicked");
    copied = clipboard_text (copy);
    g_assert_cmpstr (copied, ==, raw2);
  }
  g_assert_cmpstr (field_value (details, "Since previous overflow", NULL), ==, "+300 µs");

  /* The first overflow has no gap row. */
  g_assert_true (ovi_window_select_record (f->window, first));
  settle (100);
  g_assert_cmpstr (field_value (details, "Time", NULL), ==, date1);
  g_assert_null (field_value (details, "Since previous overflow", NULL));
}

/* DHA and L2 atomic-add blocks have no kernel code and no block index
 * (dump-format.md section 4): their records show neither; the AI Core
 * record still shows both. */
static void
test_atomic_add_fields (Fixture *f, gconstpointer data)
{
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (f->window));
  OviRecordView *details = ovi_window_get_record_details (f->window);
  guint seen = 0;

  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviUnit unit = ovi_overflow_record_get_unit (record);

      g_assert_true (ovi_window_select_record (f->window, record));
      settle (50);
      g_test_message ("%s: kernel_code %s, block %s", ovi_overflow_record_get_unit_name (record),
                      field_value (details, "kernel_code", NULL),
                      field_value (details, "Block index", NULL));
      if (unit == OVI_UNIT_DHA_ATOMIC_ADD || unit == OVI_UNIT_L2_ATOMIC_ADD)
        {
          g_assert_null (field_value (details, "kernel_code", NULL));
          g_assert_null (field_value (details, "Block index", NULL));
          /* What they do have stays. */
          g_assert_nonnull (field_value (details, "pc_start", NULL));
          g_assert_nonnull (field_value (details, "para_base", NULL));
          seen |= unit == OVI_UNIT_DHA_ATOMIC_ADD ? 1 : 2;
        }
      else if (unit == OVI_UNIT_AI_CORE)
        {
          g_assert_nonnull (field_value (details, "kernel_code", NULL));
          g_assert_nonnull (field_value (details, "Block index", NULL));
          seen |= 4;
        }
    }
  /* The example has all three units. */
  g_assert_cmpuint (seen, ==, 7);
}

/* The Problems page follows the sidebar: the example's one unreadable
 * file is in iteration 10, so iteration 3 lists nothing and iteration 10
 * lists it. */
static void
test_problems_follow_node (Fixture *f, gconstpointer data)
{
  GListModel *tree = ovi_window_get_tree_model (f->window);
  GtkColumnView *view =
      ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
  GListModel *problems = ovi_dump_folder_get_problems (ovi_window_get_folder (f->window));
  g_autoptr (OviProblem) problem = NULL;
  guint checked = 0;

  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_true (
      g_str_has_prefix (ovi_problem_get_file (problem), "20261202101500/0/resnet50_train/11/10/"));
  ovi_window_show_page (f->window, "problems");
  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);
      const char *label = ovi_tree_node_get_label (node);
      g_autoptr (GPtrArray) rows = NULL;

      ovi_window_select_tree_row (f->window, i);
      settle (100);
      rows = visible_rows (view);
      g_test_message ("%s: %u problems", label, rows->len);
      if (g_strcmp0 (label, "Iteration 10") == 0 ||
          ovi_tree_node_get_level (node) < OVI_TREE_LEVEL_ITERATION)
        {
          g_autofree char *file = NULL;

          g_assert_cmpuint (rows->len, ==, 1);
          file = cell (rows, 0, 0);
          g_assert_cmpstr (file, ==, ovi_problem_get_file (problem));
          checked |= 1;
        }
      else
        {
          g_assert_cmpuint (rows->len, ==, 0);
          checked |= 2;
        }
    }
  g_assert_cmpuint (checked, ==, 3);
}

/* A text file opened directly is "not a dump file", on the Problems page,
 * not a header length. */
static void
test_stray_file (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->tmpdir, "notes.txt", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GtkColumnView *view =
      ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *name = NULL;
  g_autofree char *reason = NULL;

  g_assert_true (
      g_file_set_contents (path, "Loss went up after step 3, check the run\n", -1, NULL));
  ovi_window_open_file (f->window, file);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  ovi_window_show_page (f->window, "problems");
  settle (200);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, ==, 1);
  name = cell (rows, 0, 0);
  reason = cell (rows, 0, 1);
  g_test_message ("%s: %s", name, reason);
  g_assert_cmpstr (name, ==, "notes.txt");
  g_assert_true (g_str_has_prefix (reason, "not a dump file"));
  g_assert_null (strstr (reason, "header length"));

  /* The Overflows page, shown first, says so too. */
  {
    OviOverflowsPage *page = ovi_window_get_overflows_page (f->window);
    AdwStatusPage *empty = ADW_STATUS_PAGE (gtk_widget_get_template_child (
        GTK_WIDGET (page), OVI_TYPE_OVERFLOWS_PAGE, "record_empty_page"));

    g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "empty");
    g_assert_cmpstr (adw_status_page_get_title (empty), ==, "File Not Read");
    g_assert_true (
        g_str_has_prefix (adw_status_page_get_description (empty), "notes.txt: not a dump file"));
  }
  g_unlink (path);
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
  settle (200);

  select_op_row (f->window, origin);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  settle (50);
  {
    g_autofree char *label = shown_tensor_label (tensor_view);

    g_assert_cmpstr (label, ==, "output 0");
    g_assert_cmpstr (tensor_info (tensor_view, "Data type"), ==, "float16");
    g_assert_true (g_str_has_prefix (tensor_info (tensor_view, "+Inf"), "20 (first at "));
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
  settle (50);

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
  settle (50);
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

  gtk_window_destroy (GTK_WINDOW (window));
  settle (50);
  g_unlink (path);
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
  settle (100);
  assert_empty_state (tensor_view);

  /* A clean operator, then Abnormal Only: the row goes, and so do its
   * tensors. */
  select_op_row (f->window, clean);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  settle (50);
  g_assert_true (ovi_tensor_view_get_file (tensor_view) == clean);
  g_assert_cmpstr (
      gtk_stack_get_visible_child_name (GTK_STACK (tensor_view_child (tensor_view, "stack"))), ==,
      "tensor");
  gtk_toggle_button_set_active (abnormal, TRUE);
  settle (100);
  g_assert_null (ovi_session_get_selected_file (session));
  g_assert_null (ovi_tensor_view_get_file (tensor_view));
  assert_empty_state (tensor_view);

  /* An abnormal operator is listed and stays selected. */
  select_op_row (f->window, origin);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  gtk_toggle_button_set_active (abnormal, FALSE);
  settle (50);
  gtk_toggle_button_set_active (abnormal, TRUE);
  settle (100);
  g_assert_true (ovi_session_get_selected_file (session) == origin);
  g_assert_true (ovi_tensor_view_get_file (tensor_view) == origin);
  gtk_toggle_button_set_active (abnormal, FALSE);
  settle (50);
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
  settle (100);
  select_op_row (f->window, file);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (tensor_view));
  settle (100);

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
  settle (50);
  g_assert_cmpstr (tensor_info (tensor_view, "+Inf"), ==, "20");
  g_assert_cmpstr (label_text (tensor_view, "first_label"), ==,
                   "Some values are not finite; the statistics do not record where.");
  g_assert_false (gtk_widget_get_visible (tensor_view_child (tensor_view, "neighbour_grid")));
}

/* A histogram of an empty tensor (as the Compare page may get) has no
 * range: no bin is made up over ±0.5 for a tooltip to name, while one
 * value gives a bin again. */
static void
test_empty_histogram (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) none = g_bytes_new (NULL, 0);
  g_autoptr (GBytes) one = ovi_fixture_encode (OVI_DTYPE_FLOAT32, (double[]){ 3 }, 1);
  g_autoptr (OviAnalysis) empty = ovi_analysis_new_for_count (OVI_DTYPE_FLOAT32, none, 0, NULL);
  g_autoptr (OviAnalysis) single = ovi_analysis_new_for_count (OVI_DTYPE_FLOAT32, one, 1, NULL);
  OviHistogramView *view = OVI_HISTOGRAM_VIEW (ovi_histogram_view_new ());
  GtkWidget *window = gtk_window_new ();
  g_autofree char *empty_text = NULL;
  g_autofree char *single_text = NULL;
  int width, height;

  g_assert_nonnull (empty);
  g_assert_nonnull (single);
  /* As in /app/window/locator-agrees: no notification while unfocused. */
  ovi_session_set_live (ovi_window_get_session (f->window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 700, 300);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  ovi_histogram_view_add_series (view, NULL,
                                 ovi_analysis_histogram (empty, 16, OVI_HISTOGRAM_LINEAR, NULL));
  settle (100);
  width = gtk_widget_get_width (GTK_WIDGET (view));
  height = gtk_widget_get_height (GTK_WIDGET (view));
  empty_text = ovi_histogram_view_dup_text_at (view, width / 2, height / 2);
  g_assert_null (empty_text);

  ovi_histogram_view_clear (view);
  ovi_histogram_view_add_series (view, NULL,
                                 ovi_analysis_histogram (single, 16, OVI_HISTOGRAM_LINEAR, NULL));
  settle (100);
  single_text = ovi_histogram_view_dup_text_at (view, width / 2, height / 2);
  g_assert_nonnull (single_text);
  g_assert_nonnull (strstr (single_text, "Bin "));
  gtk_window_destroy (GTK_WINDOW (window));
  settle (50);
}

/* --- keyboard, screen readers and habits (issue 16) ---------------------- */

static gpointer
template_child (gpointer widget, GType type, const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);
}

static GtkWidget *
inner_list (GtkColumnView *view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  g_assert_not_reached ();
}

static gboolean
focus_inside (OviWindow *window, gpointer widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Escape in a search field (GtkSearchEntry's "stop-search") empties it,
 * and the table lists every row again: on both pages that have one. */
static void
test_escape_clears_search (Fixture *f, gconstpointer data)
{
  GtkColumnView *records = ovi_window_get_record_view (f->window);
  GtkWidget *record_search = template_child (ovi_window_get_overflows_page (f->window),
                                             OVI_TYPE_OVERFLOWS_PAGE, "record_search");
  GtkWidget *op_search = template_child (ovi_window_get_operators_page (f->window),
                                         OVI_TYPE_OPERATORS_PAGE, "op_search");
  GtkSingleSelection *op_selection = GTK_SINGLE_SELECTION (template_child (
      ovi_window_get_operators_page (f->window), OVI_TYPE_OPERATORS_PAGE, "op_selection"));
  g_autoptr (GPtrArray) all = visible_rows (records);
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (GPtrArray) again = NULL;
  guint all_ops;

  g_assert_cmpuint (all->len, >, 2);
  gtk_widget_grab_focus (record_search);
  gtk_editable_set_text (GTK_EDITABLE (record_search), "ReduceSum");
  settle (400);
  found = visible_rows (records);
  g_assert_cmpuint (found->len, ==, 1);

  g_signal_emit_by_name (record_search, "stop-search");
  settle (400);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (record_search)), ==, "");
  again = visible_rows (records);
  g_assert_cmpuint (again->len, ==, all->len);

  ovi_window_show_page (f->window, "operators");
  settle (300);
  all_ops = g_list_model_get_n_items (G_LIST_MODEL (op_selection));
  gtk_editable_set_text (GTK_EDITABLE (op_search), "ReduceSum");
  settle (400);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (op_selection)), <, all_ops);
  g_signal_emit_by_name (op_search, "stop-search");
  settle (400);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (op_search)), ==, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (op_selection)), ==, all_ops);
}

/* Alt+1…5 show the pages in the switcher's order, Ctrl+Page Down and Up
 * step through them (round). */
static void
test_page_keys (Fixture *f, gconstpointer data)
{
  AdwViewStack *stack = ADW_VIEW_STACK (template_child (f->window, OVI_TYPE_WINDOW, "view_stack"));
  static const struct
  {
    const char *action;
    const char *accel;
  } expected[] = {
    { "win.show-page(1)", "<Alt>1" },
    { "win.show-page(2)", "<Alt>2" },
    { "win.show-page(5)", "<Alt>5" },
    { "win.next-page", "<Control>Page_Down" },
    { "win.previous-page", "<Control>Page_Up" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto (GStrv) accels =
          gtk_application_get_accels_for_action (GTK_APPLICATION (app), expected[i].action);

      g_assert_true (g_strv_contains ((const char *const *) accels, expected[i].accel));
    }

  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "overflows");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 2);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "operators");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 4);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 5);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "problems");
  /* No sixth page: nothing changes. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 6);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "problems");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 1);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "overflows");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.next-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "operators");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.next-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "compare");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.previous-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "operators");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 1);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.previous-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "problems");
}

/* Enter on a row (the list's activate-item, which Enter and a double click
 * run) selects it and puts the keyboard in its details; Tab from a row
 * leaves the table for the next region instead of the next row. */
static void
test_enter_and_tab (Fixture *f, gconstpointer data)
{
  GtkColumnView *records = ovi_window_get_record_view (f->window);
  GtkWidget *list = inner_list (records);
  OviSession *session = ovi_window_get_session (f->window);
  g_autoptr (OviOverflowRecord) third =
      g_list_model_get_item (ovi_dump_folder_get_records (ovi_window_get_folder (f->window)), 2);
  GtkWidget *row = NULL;

  gtk_widget_grab_focus (list);
  settle (100);
  gtk_widget_activate_action (list, "list.activate-item", "u", 2);
  settle (100);
  g_assert_true (ovi_session_get_selected_record (session) == third);
  g_assert_true (focus_inside (f->window, ovi_window_get_record_details (f->window)));

  /* Back on a row of the table: Tab goes to the details, Shift+Tab to the
   * unit filter above the table, never to another row. */
  for (GtkWidget *child = gtk_widget_get_first_child (list); child;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_mapped (child) && gtk_widget_get_focusable (child) && row == NULL)
      row = child;
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_grab_focus (row));
  g_assert_true (focus_inside (f->window, records));
  g_assert_true (_ovi_window_tab_out_of_list (f->window, GTK_DIR_TAB_FORWARD));
  g_assert_false (focus_inside (f->window, records));
  g_assert_true (focus_inside (f->window, ovi_window_get_record_details (f->window)));

  g_assert_true (gtk_widget_grab_focus (row));
  g_assert_true (_ovi_window_tab_out_of_list (f->window, GTK_DIR_TAB_BACKWARD));
  g_assert_false (focus_inside (f->window, records));
  g_assert_true (
      focus_inside (f->window, template_child (ovi_window_get_overflows_page (f->window),
                                               OVI_TYPE_OVERFLOWS_PAGE, "unit_dropdown")));
  /* Elsewhere Tab is GTK's own. */
  g_assert_false (_ovi_window_tab_out_of_list (f->window, GTK_DIR_TAB_FORWARD));
}

static void
collect_row_names (GtkWidget *widget, GPtrArray *names)
{
  if (OVI_IS_ACCESSIBLE_ROW (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (names, g_strdup (ovi_accessible_row_get_label (OVI_ACCESSIBLE_ROW (widget))));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect_row_names (child, names);
}

static gboolean
names_contain (GPtrArray *names, const char *text)
{
  for (guint i = 0; i < names->len; i++)
    if (strstr (g_ptr_array_index (names, i), text) != NULL)
      return TRUE;
  return FALSE;
}

/* What a screen reader is given for a row (the e2e test window-a11y reads
 * the same through AT-SPI): a record's unit, operator and status; an
 * operator's type, name and class; a sidebar row's level and count. */
static void
test_row_names (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) ops = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) nodes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *stripped = ovi_a11y_strip_mnemonic ("_Abnormal Only a__b");

  collect_row_names (GTK_WIDGET (ovi_window_get_record_view (f->window)), records);
  g_assert_cmpuint (records->len, ==, 8);
  g_assert_cmpstr (g_ptr_array_index (records, 0), ==,
                   "First overflow, AI Core: Cast gradients/Cast_3, status 0x110 FP16+INT");
  g_assert_true (names_contain (records, "Overflow 2, DHA Atomic Add: ReduceSum loss/ReduceSum"));

  ovi_window_show_page (f->window, "operators");
  settle (300);
  collect_row_names (GTK_WIDGET (ovi_window_get_op_view (f->window)), ops);
  g_assert_cmpuint (ops->len, >, 0);
  g_assert_true (names_contain (ops, "Cast gradients/Cast_3, Origin"));

  collect_row_names (GTK_WIDGET (ovi_window_get_sidebar (f->window)), nodes);
  g_assert_true (names_contain (nodes, "Folder example-dump: 8 overflow records"));
  g_assert_true (names_contain (nodes, "Iteration 12: 1 overflow record"));

  /* Labels as read, without their mnemonic underscores. */
  g_assert_cmpstr (stripped, ==, "Abnormal Only a_b");
}

/* F5 rescans and keeps the selected record (matched by its file's
 * relative path), and the table shows it selected. */
static void
test_reload_keeps_selection (Fixture *f, gconstpointer data)
{
  OviSession *session = ovi_window_get_session (f->window);
  OviOverflowRecord *record = find_record (f->window, 0x400);
  g_autofree char *path = NULL;
  g_autofree char *op_path = NULL;
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (template_child (
      ovi_window_get_overflows_page (f->window), OVI_TYPE_OVERFLOWS_PAGE, "record_selection"));
  OviOverflowRecord *after;

  g_assert_nonnull (record);
  path = g_strdup (ovi_dump_file_get_relative_path (ovi_overflow_record_get_file (record)));
  g_assert_true (ovi_window_select_record (f->window, record));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), !=, 0);
  /* And an operator picked on the Operators page, not the record's. */
  {
    OviDumpFile *op = ovi_overflow_record_get_op (find_record (f->window, 272));

    ovi_window_show_tensor (f->window, op, 0);
    settle (200);
    op_path = g_strdup (ovi_dump_file_get_relative_path (op));
    g_assert_cmpstr (op_path, !=,
                     ovi_dump_file_get_relative_path (ovi_overflow_record_get_op (record)));
    ovi_window_show_page (f->window, "overflows");
  }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  settle (200);
  after = ovi_session_get_selected_record (session);
  g_assert_nonnull (after);
  g_assert_true (after != record); /* a new scan, new objects */
  g_assert_cmpstr (ovi_dump_file_get_relative_path (ovi_overflow_record_get_file (after)), ==,
                   path);
  g_assert_true (gtk_single_selection_get_selected_item (selection) == after);
  g_assert_cmpuint (ovi_overflow_record_get_status (after), ==, 0x400);
  g_assert_nonnull (ovi_session_get_selected_file (session));
  g_assert_cmpstr (ovi_dump_file_get_relative_path (ovi_session_get_selected_file (session)), ==,
                   op_path);
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
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 700);
  settle (400);
  n = g_list_model_get_n_items (model);
  g_assert_cmpuint (n, >, 12);
  /* The operator that ran last, at the bottom of the table. */
  last = g_list_model_get_item (model, n - 1);

  gtk_single_selection_set_selected (selection, n - 1);
  settle (200);
  g_assert_true (ovi_session_get_selected_file (session) == last);
  /* Back to the top, as a user scrolling up to the headers would. */
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (inner_list (view))), 0);
  settle (200);
  g_assert_false (selected_row_in_view (view));

  /* Ascending, the operator lands low in the table, below the rows in
   * view at the top. */
  gtk_column_view_sort_by_column (view, column_by_title (view, "Op Type"), GTK_SORT_ASCENDING);
  settle (400);
  g_assert_true (gtk_single_selection_get_selected_item (selection) == last);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), >, 8);
  g_assert_true (ovi_session_get_selected_file (session) == last);
  g_assert_true (selected_row_in_view (view));
}

/* Widgets below @widget whose type is @type_name (libadwaita's toast
 * widgets are private). */
static void
find_by_type_name (GtkWidget *widget, const char *type_name, GPtrArray *found)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), type_name))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    find_by_type_name (child, type_name, found);
}

static GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The text of the toasts shown. */
static char *
toast_text (OviWindow *window)
{
  g_autoptr (GPtrArray) toasts = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  find_by_type_name (GTK_WIDGET (window), "AdwToastWidget", toasts);
  for (guint i = 0; i < toasts->len; i++)
    collect_labels (g_ptr_array_index (toasts, i), text);
  return g_string_free (text, FALSE);
}

/* "Ignore Type" says so in a toast whose Undo takes it back; an ignored
 * record's button reads "Stop Ignoring" and takes it off the list too. */
static void
test_ignore_undo (Fixture *f, gconstpointer data)
{
  OviOverflowRecord *record = find_record (f->window, 272);
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  GtkWidget *details = GTK_WIDGET (ovi_window_get_record_details (f->window));
  GtkWidget *button;
  g_auto (GStrv) patterns = NULL;
  g_autofree char *toasts = NULL;

  g_settings_set_strv (settings, "ignore-patterns", NULL);
  g_assert_true (ovi_window_select_record (f->window, record));
  settle (200);
  button = find_button (details, "Ignore Type");
  g_assert_nonnull (button);
  gtk_widget_activate (button);
  settle (300);
  g_assert_true (ovi_overflow_record_get_ignored (record));
  toasts = toast_text (f->window);
  g_assert_nonnull (strstr (toasts, "Operators of type Cast are now ignored"));
  g_assert_nonnull (strstr (toasts, "Undo"));
  g_assert_null (find_button (details, "Ignore Type"));
  g_assert_nonnull (find_button (details, "Stop Ignoring"));

  /* The toast's Undo. */
  {
    g_autoptr (GPtrArray) toast_widgets = g_ptr_array_new ();

    find_by_type_name (GTK_WIDGET (f->window), "AdwToastWidget", toast_widgets);
    g_assert_cmpuint (toast_widgets->len, >=, 1);
    button = find_button (g_ptr_array_index (toast_widgets, toast_widgets->len - 1), "Undo");
    g_assert_nonnull (button);
    gtk_widget_activate (button);
  }
  settle (300);
  patterns = g_settings_get_strv (settings, "ignore-patterns");
  g_assert_cmpuint (g_strv_length (patterns), ==, 0);
  g_assert_false (ovi_overflow_record_get_ignored (record));
  g_assert_nonnull (find_button (details, "Ignore Type"));

  /* Ignored by a name pattern: Stop Ignoring clears it as well. */
  g_settings_set_strv (settings, "ignore-patterns",
                       (const char *const[]){ "name:gradients/*", "type:Relu", NULL });
  settle (300);
  g_assert_true (ovi_overflow_record_get_ignored (record));
  button = find_button (details, "Stop Ignoring");
  g_assert_nonnull (button);
  gtk_widget_activate (button);
  settle (300);
  g_clear_pointer (&patterns, g_strfreev);
  patterns = g_settings_get_strv (settings, "ignore-patterns");
  g_assert_cmpuint (g_strv_length (patterns), ==, 1);
  g_assert_cmpstr (patterns[0], ==, "type:Relu");
  g_assert_false (ovi_overflow_record_get_ignored (record));
  g_settings_set_strv (settings, "ignore-patterns", NULL);

  /* The list's own window opens from the menu, with its Save button. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.edit-ignore-list", NULL);
  settle (200);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    GtkWindow *editor = NULL;

    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr (GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

        if (gtk_window_get_transient_for (toplevel) == GTK_WINDOW (f->window))
          editor = toplevel;
      }
    g_assert_nonnull (editor);
    g_assert_nonnull (find_button (GTK_WIDGET (editor), "_Save"));
    gtk_window_destroy (editor);
  }
}

/* The label and target of each item of @menu (and its sections and
 * submenus), as "LABEL -> TARGET" lines. */
static void
menu_items (GMenuModel *menu, GString *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *label = NULL;
      g_autofree char *action = NULL;
      g_autoptr (GVariant) target = NULL;
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (menu, i);
      GMenuModel *linked;

      g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
      target = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET, NULL);
      if (label != NULL)
        {
          g_string_append_printf (out, "%s -> %s", label, action ? action : "");
          if (target != NULL && g_variant_is_of_type (target, G_VARIANT_TYPE_STRING))
            g_string_append_printf (out, " %s", g_variant_get_string (target, NULL));
          g_string_append_c (out, '\n');
        }
      while (g_menu_link_iter_get_next (links, NULL, &linked))
        {
          menu_items (linked, out);
          g_object_unref (linked);
        }
    }
}

/* The main menu's "Open Recent" lists the folder just opened (the start
 * page's recent folders), with a path's underscores shown as such; Ctrl+O
 * offers a folder or one dump file. */
static void
test_open_recent (Fixture *f, gconstpointer data)
{
  g_autofree char *example = ovi_application_dup_example_dir ();
  g_autofree char *with_underscore = g_build_filename (f->tmpdir, "run_1", NULL);
  GString *items = g_string_new (NULL);
  g_autofree char *text = NULL;
  g_autofree char *expected = g_strdup_printf ("-> win.open-path %s\n", example);
  g_autofree char *escaped = NULL;
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  menu_items (ovi_window_get_main_menu (f->window), items);
  text = g_string_free (items, FALSE);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Open _Recent"));
  g_assert_nonnull (strstr (text, expected));

  g_assert_no_errno (g_mkdir (with_underscore, 0700));
  ovi_application_add_recent (app, with_underscore);
  g_clear_pointer (&text, g_free);
  items = g_string_new (NULL);
  menu_items (ovi_window_get_main_menu (f->window), items);
  text = g_string_free (items, FALSE);
  escaped = g_strdup_printf ("run__1 -> win.open-path %s\n", with_underscore);
  g_assert_nonnull (strstr (text, escaped));
  g_rmdir (with_underscore);

  g_assert_true (
      gtk_widget_is_sensitive (template_child (f->window, OVI_TYPE_WINDOW, "open_button")));
  g_clear_pointer (&text, g_free);
  items = g_string_new (NULL);
  menu_items (adw_split_button_get_menu_model (
                  ADW_SPLIT_BUTTON (template_child (f->window, OVI_TYPE_WINDOW, "open_button"))),
              items);
  text = g_string_free (items, FALSE);
  g_assert_nonnull (strstr (text, "Open _Folder… -> win.open-dump-folder"));
  g_assert_nonnull (strstr (text, "Open Dump _File… -> win.open-dump-file"));
  g_assert_nonnull (strstr (text, expected));
  g_settings_reset (settings, "recent-folders");
}

/* The files below @dir, relative to it, sorted. */
static void
list_files (const char *root, const char *relative, GPtrArray *out)
{
  g_autofree char *dir_path = g_build_filename (root, relative, NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (relative, name, NULL);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        list_files (root, child, out);
      else
        g_ptr_array_add (out, g_steal_pointer (&child));
    }
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* "Tensors of the Operator" writes the files `overflow-inspector-cli
 * convert` writes for that operator, byte for byte, off the main loop; the
 * last export folder is remembered; a second export into the same folder
 * fails with a message naming the dump file, and nothing goes into the
 * inspected folder. */
static void
test_export_all_tensors (Fixture *f, gconstpointer data)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *out = g_build_filename (f->tmpdir, "window", NULL);
  g_autofree char *cli_out = g_build_filename (f->tmpdir, "cli", NULL);
  g_autofree char *example = ovi_application_dup_example_dir ();
  g_autofree char *inside = g_build_filename (example, "tensors", NULL);
  OviOverflowRecord *record = find_record (f->window, 272);
  OviDumpFile *op = ovi_overflow_record_get_op (record);
  g_autoptr (GPtrArray) written = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *toasts = NULL;
  const char *cli = g_getenv ("OVI_CLI");
  int status = -1;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (cli);
  g_assert_no_errno (g_mkdir (out, 0700));
  g_settings_reset (settings, "last-export-folder");
  g_assert_true (ovi_window_select_record (f->window, record));
  settle (100);
  /* What win.export-operator-tensors does with the folder chosen. */
  ovi_window_export_tensors (f->window, OVI_WINDOW_EXPORT_OPERATOR_TENSORS, out);
  {
    g_autofree char *last = NULL;

    WAIT_UNTIL ((g_free (last), last = g_settings_get_string (settings, "last-export-folder"),
                 g_str_equal (last, out)));
  }
  toasts = toast_text (f->window);
  g_assert_nonnull (strstr (toasts, "Exported 2 files into “window”"));

  list_files (out, "", written);
  g_ptr_array_sort (written, compare_strings);
  g_assert_cmpuint (written->len, ==, ovi_dump_file_get_tensors (op)->len);
  g_assert_cmpuint (written->len, ==, 2);

  /* What the command line writes for the whole folder, compared file by
   * file for this operator. */
  {
    const char *argv[] = { cli, "convert", "-o", cli_out, example, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                 NULL, NULL, NULL, &status, &error));
    g_assert_no_error (error);
  }
  for (guint i = 0; i < written->len; i++)
    {
      const char *relative = g_ptr_array_index (written, i);
      g_autofree char *ours_path = g_build_filename (out, relative, NULL);
      g_autofree char *theirs_path = g_build_filename (cli_out, relative, NULL);
      g_autofree char *ours = NULL;
      g_autofree char *theirs = NULL;
      gsize ours_length, theirs_length;

      g_test_message ("%s", relative);
      g_assert_true (g_str_has_prefix (relative, ovi_dump_file_get_relative_dir (op)));
      g_assert_true (g_file_get_contents (ours_path, &ours, &ours_length, NULL));
      g_assert_true (g_file_get_contents (theirs_path, &theirs, &theirs_length, NULL));
      g_assert_cmpmem (ours, ours_length, theirs, theirs_length);
    }

  /* Again into the same folder: nothing is overwritten, and the toast
   * names the dump file. */
  ovi_window_export_tensors (f->window, OVI_WINDOW_EXPORT_OPERATOR_TENSORS, out);
  WAIT_UNTIL ((g_free (toasts), toasts = toast_text (f->window),
               strstr (toasts, ovi_dump_file_get_relative_path (op)) != NULL));
  g_test_message ("%s", toasts);
  g_assert_nonnull (strstr (toasts, "already exists. Choose another folder."));
  g_assert_null (strstr (toasts, "--force"));

  /* Never into the inspected folder. */
  ovi_window_export_tensors (f->window, OVI_WINDOW_EXPORT_OPERATOR_TENSORS, inside);
  WAIT_UNTIL ((g_free (toasts), toasts = toast_text (f->window),
               strstr (toasts, "inside the inspected folder") != NULL));
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));

  remove_tree (out);
  remove_tree (cli_out);
}

/* The sidebar's selection: every operator below an iteration. */
static void
test_export_selection_tensors (Fixture *f, gconstpointer data)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *out = g_build_filename (f->tmpdir, "selection", NULL);
  GListModel *tree = ovi_window_get_tree_model (f->window);
  g_autoptr (GPtrArray) written = g_ptr_array_new_with_free_func (g_free);
  OviTreeNode *iteration = NULL;
  guint expected = 0;

  for (guint i = 0; i < g_list_model_get_n_items (tree) && iteration == NULL; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);

      if (ovi_tree_node_get_level (node) == OVI_TREE_LEVEL_ITERATION &&
          g_str_equal (ovi_tree_node_get_label (node), "Iteration 4"))
        {
          ovi_window_select_tree_row (f->window, i);
          iteration = node;
        }
    }
  g_assert_nonnull (iteration);
  {
    GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (f->window));

    for (guint i = 0; i < g_list_model_get_n_items (files); i++)
      {
        g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

        if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OP_DUMP &&
            ovi_tree_node_matches (iteration, file) && !ovi_dump_file_get_statistics_only (file))
          expected += ovi_dump_file_get_tensors (file)->len;
      }
  }
  g_assert_cmpuint (expected, >, 2);

  g_assert_no_errno (g_mkdir (out, 0700));
  ovi_window_export_tensors (f->window, OVI_WINDOW_EXPORT_SELECTION_TENSORS, out);
  {
    g_autofree char *last = NULL;

    WAIT_UNTIL ((g_free (last), last = g_settings_get_string (settings, "last-export-folder"),
                 g_str_equal (last, out)));
  }
  list_files (out, "", written);
  g_assert_cmpuint (written->len, ==, expected);
  for (guint i = 0; i < written->len; i++)
    g_assert_nonnull (
        strstr (g_ptr_array_index (written, i), G_DIR_SEPARATOR_S "4" G_DIR_SEPARATOR_S));
  remove_tree (out);
}

/* Run from the build tree, the start page shows the application's icon
 * (from the resources), not a generic one. */
static void
test_start_page_icon (void)
{
  OviWindow *window = g_object_ref_sink (ovi_window_new (app));
  AdwStatusPage *status =
      ADW_STATUS_PAGE (template_child (window->start_page, OVI_TYPE_START_PAGE, "status_page"));

  g_assert_cmpstr (adw_status_page_get_icon_name (status), ==, APP_ID);
  g_assert_true (gtk_icon_theme_has_icon (
      gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (window))), APP_ID));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

/* --- the cluster timeline --------------------------------------------------- */

/* @root's report as machine @host writes it, saved to @path. */
static void
write_report (const char *root, const char *host, const char *path)
{
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (root);
  g_autoptr (JsonNode) node = ovi_report_build_json_full (folder, OVI_REPORT_RECORDS_ONLY);
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GError) error = NULL;

  json_object_set_string_member (json_node_get_object (node), "host", host);
  json_generator_set_root (generator, node);
  g_assert_true (json_generator_to_file (generator, path, &error));
  g_assert_no_error (error);
}

static const char *
timeline_label (OviTimelinePage *page, const char *id)
{
  return gtk_label_get_text (
      GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_TIMELINE_PAGE, id)));
}

static gboolean
timeline_shows (OviTimelinePage *page, const char *id)
{
  return gtk_widget_get_mapped (
      GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_TIMELINE_PAGE, id)));
}

/* @rank is selected: the page says its data stayed on @host in @root and
 * gives the command to run there. */
static void
assert_remote_view (OviTimelinePage *page, OviRank *rank, const char *host, const char *root)
{
  g_autofree char *where = g_strdup_printf (
      "The dump files of this device stayed on %s, in %s. To see the operator's tensors, "
      "run this there:",
      host, root);
  g_autofree char *op_path = g_build_filename (root, ovi_rank_get_op_file (rank), NULL);
  g_autofree char *quoted = g_shell_quote (op_path);
  g_autofree char *command = g_strdup_printf ("overflow-inspector-cli stats %s", quoted);

  g_assert_true (ovi_timeline_page_select_rank (page, rank));
  settle (100);
  g_assert_true (timeline_shows (page, "remote_box"));
  g_assert_false (timeline_shows (page, "show_button"));
  g_assert_cmpstr (timeline_label (page, "remote_text"), ==, where);
  g_assert_cmpstr (timeline_label (page, "command_label"), ==, command);
}

/* The opened folder is machine A, whose device 3 overflows first; the
 * report of machine B (the same device ids, later, through a collective)
 * is added, and a foreign JSON file after it. The timeline lists the 16
 * ranks in order, the earliest marked and the others "Received"; a device
 * of B shows the command to run on B; a device of A leads to its record. */
static void
test_timeline (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ovi-timeline-XXXXXX", &error);
  g_autofree char *root_a = g_build_filename (dir, "A", NULL);
  g_autofree char *root_b = g_build_filename (dir, "B", NULL);
  g_autofree char *report_b = g_build_filename (dir, "B.json", NULL);
  g_autofree char *foreign = g_build_filename (dir, "foreign.json", NULL);
  g_autofree char *local_label = NULL;
  g_autoptr (GFile) file_a = NULL;
  g_autoptr (OviWindow) window = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  OviTimelinePage *page;
  OviSession *session;
  GFile *reports[1];
  GListModel *ranks, *shown;
  OviRank *earliest, *remote = NULL;
  guint64 first, last;

  g_assert_no_error (error);
  ovi_fixture_write_machine (root_a, 3, 0);
  ovi_fixture_write_machine (root_b, -1, 50);
  write_report (root_b, "nodeB", report_b);
  g_assert_true (g_file_set_contents (foreign, "{\"a\": 1}", -1, NULL));

  window = g_object_ref_sink (ovi_window_new (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  file_a = g_file_new_for_path (root_a);
  ovi_window_open_file (window, file_a);
  WAIT_UNTIL (!ovi_window_get_busy (window));
  session = ovi_window_get_session (window);
  page = ovi_window_get_timeline_page (window);
  /* The folder's devices join the timeline once it is shown. */
  g_assert_cmpuint (ovi_cluster_get_n_roots (ovi_session_get_cluster (session)), ==, 0);
  ovi_window_show_page (window, "timeline");
  WAIT_UNTIL (ovi_cluster_get_n_roots (ovi_session_get_cluster (session)) == 1);
  g_assert_cmpuint (
      g_list_model_get_n_items (ovi_cluster_get_ranks (ovi_session_get_cluster (session))), ==, 8);

  /* Dropped on the window, as from a file manager. */
  reports[0] = g_file_new_for_path (report_b);
  g_assert_true (drop_files (window, reports, 1));
  g_object_unref (reports[0]);
  WAIT_UNTIL (ovi_cluster_get_n_roots (ovi_session_get_cluster (session)) == 2);
  /* A file that is not a report adds nothing and loses nothing. */
  reports[0] = g_file_new_for_path (foreign);
  ovi_window_add_reports (window, reports, 1);
  g_object_unref (reports[0]);
  settle (300);
  ranks = ovi_cluster_get_ranks (ovi_session_get_cluster (session));
  g_assert_cmpuint (g_list_model_get_n_items (ranks), ==, 16);

  settle (200);
  shown = G_LIST_MODEL (gtk_column_view_get_model (ovi_timeline_page_get_column_view (page)));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 16);
  rows = visible_rows (ovi_timeline_page_get_column_view (page));
  g_assert_cmpuint (rows->len, >=, 8);

  /* The earliest: A's device 3, its own Cast, marked and an origin. */
  earliest = ovi_cluster_get_earliest (ovi_session_get_cluster (session));
  g_assert_cmpstr (ovi_rank_get_device (earliest), ==, "3");
  g_assert_cmpstr (ovi_rank_get_host (earliest), ==, g_get_host_name ());
  local_label = g_strdup_printf ("%s:%s|3|Earliest|5|", g_get_host_name (), root_a);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (rows, 0), local_label));
  g_assert_nonnull (strstr (g_ptr_array_index (rows, 0), "|Cast net/Cast_3|"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (rows, 0), "|Origin"));
  /* The others received it through the collective, in order. */
  for (guint i = 1; i < 8; i++)
    {
      const char *row = g_ptr_array_index (rows, i);

      g_assert_null (strstr (row, "Earliest"));
      g_assert_nonnull (strstr (row, "|HcomAllReduce allreduce_1|collective|"));
      g_assert_true (g_str_has_suffix (row, "|Received"));
    }
  g_assert_nonnull (strstr (g_ptr_array_index (rows, 1), "|5|"));

  /* The strips share the span of the iterations that overflowed. */
  ovi_timeline_page_get_span (page, &first, &last);
  g_assert_cmpuint (first, ==, 5);
  g_assert_cmpuint (last, ==, 6);

  /* A device of B: its data stayed there, and what to run there. */
  for (guint i = 0; remote == NULL && i < g_list_model_get_n_items (ranks); i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (ranks, i);

      if (g_str_equal (ovi_rank_get_host (rank), "nodeB") &&
          g_str_equal (ovi_rank_get_device (rank), "2"))
        remote = rank;
    }
  g_assert_nonnull (remote);
  g_assert_true (g_str_has_suffix (ovi_rank_get_op_file (remote),
                                   "/2/net/11/5/"
                                   "HcomAllReduce.allreduce_1.80.7.1764670500000270"));
  assert_remote_view (page, remote, "nodeB", root_b);

  /* The earliest device is the opened folder's: its record is one click away. */
  g_assert_true (ovi_timeline_page_select_rank (page, earliest));
  settle (100);
  g_assert_false (timeline_shows (page, "remote_box"));
  g_assert_true (timeline_shows (page, "show_button"));
  gtk_widget_activate_action (GTK_WIDGET (page), "timeline.show-record", NULL);
  settle (200);
  g_assert_nonnull (ovi_session_get_selected_record (session));
  g_assert_cmpstr (ovi_dump_file_get_relative_path (
                       ovi_overflow_record_get_file (ovi_session_get_selected_record (session))),
                   ==, ovi_rank_get_file (earliest));

  /* Searching by device number. */
  gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_template_child (
                             GTK_WIDGET (page), OVI_TYPE_TIMELINE_PAGE, "search_entry")),
                         "device 7");
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 2);

  gtk_window_destroy (GTK_WINDOW (window));
  settle (50);
  ovi_fixture_remove_tree (dir);
}

/* Two machines' folders and a third machine's report, opened together as
 * from the command line: the sidebar has a level per machine, the first
 * overflow is machine A's device 3 across both folders, the timeline has
 * the 24 ranks with A's device 3 earliest, a device of B (a folder) leads
 * to its own record, and a device of C says its data is on C and what to
 * run there. */
static void
test_several_folders (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ovi-several-XXXXXX", &error);
  g_autofree char *root_a = g_build_filename (dir, "A", NULL);
  g_autofree char *root_b = g_build_filename (dir, "B", NULL);
  g_autofree char *root_c = g_build_filename (dir, "C", NULL);
  g_autofree char *report_c = g_build_filename (dir, "C.json", NULL);
  g_autofree char *earliest_row = NULL;
  g_autoptr (OviWindow) window = NULL;
  g_autoptr (GPtrArray) nodes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (OviOverflowRecord) first = NULL;
  GFile *files[3];
  OviTimelinePage *page;
  OviSession *session;
  GListModel *ranks;
  OviRank *earliest, *on_b = NULL, *on_c = NULL;

  g_assert_no_error (error);
  ovi_fixture_write_machine (root_a, 3, 0);
  ovi_fixture_write_machine (root_b, -1, 50);
  ovi_fixture_write_machine (root_c, -1, 80);
  write_report (root_c, "nodeC", report_c);

  window = g_object_ref_sink (ovi_window_new (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  files[0] = g_file_new_for_path (root_a);
  files[1] = g_file_new_for_path (root_b);
  files[2] = g_file_new_for_path (report_c);
  ovi_window_open_files (window, files, 3);
  for (guint i = 0; i < 3; i++)
    g_object_unref (files[i]);
  WAIT_UNTIL (!ovi_window_get_busy (window));
  session = ovi_window_get_session (window);
  g_assert_cmpuint (ovi_dump_folder_get_n_roots (ovi_session_get_folder (session)), ==, 2);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "A, B");
  g_assert_cmpstr (adw_window_title_get_subtitle (window->window_title), ==, "2 folders");
  {
    /* The subtitle is cut in a narrow window; the full paths are in the
     * title's tooltip. */
    g_autofree char *paths = g_strconcat (root_a, "\n", root_b, NULL);

    g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (window->window_title)), ==, paths);
  }

  /* One first overflow across both folders: A's device 3, iteration 5. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_records (session)), ==, 16);
  first = g_list_model_get_item (ovi_session_get_records (session), 0);
  g_assert_true (ovi_overflow_record_get_is_first (first));
  g_assert_true (
      g_str_has_prefix (ovi_dump_file_get_path (ovi_overflow_record_get_file (first)), root_a));
  g_assert_cmpstr (ovi_dump_file_get_device (ovi_overflow_record_get_file (first)), ==, "3");
  /* Device 0's record was listed first, then device 3's earlier one came:
   * the selection follows the first overflow until the user picks one. */
  settle (100);
  g_assert_true (ovi_session_get_selected_record (session) == first);

  /* The sidebar: all, then one row per machine, then its devices. */
  settle (200);
  collect_row_names (GTK_WIDGET (ovi_window_get_sidebar (window)), nodes);
  g_assert_cmpstr (g_ptr_array_index (nodes, 0), ==, "Folder 2 Folders: 16 overflow records");
  g_assert_cmpstr (g_ptr_array_index (nodes, 1), ==, "Folder A: 8 overflow records");
  {
    GListModel *tree = ovi_session_get_tree (session);
    g_autoptr (GString) machines = g_string_new (NULL);

    for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
        g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);

        if (ovi_tree_node_get_level (node) == OVI_TREE_LEVEL_MACHINE)
          g_string_append_printf (machines, "%s:%u ", ovi_tree_node_get_label (node),
                                  ovi_tree_node_get_count (node));
      }
    g_assert_cmpstr (machines->str, ==, "A:8 B:8 ");
  }

  /* The timeline: 8 devices of each of A, B and C. */
  ovi_window_show_page (window, "timeline");
  WAIT_UNTIL (ovi_cluster_get_n_roots (ovi_session_get_cluster (session)) == 3);
  ranks = ovi_cluster_get_ranks (ovi_session_get_cluster (session));
  g_assert_cmpuint (g_list_model_get_n_items (ranks), ==, 24);
  page = ovi_window_get_timeline_page (window);
  settle (300);
  rows = visible_rows (ovi_timeline_page_get_column_view (page));
  g_assert_cmpuint (rows->len, >=, 8);
  earliest = ovi_cluster_get_earliest (ovi_session_get_cluster (session));
  g_assert_cmpstr (ovi_rank_get_device (earliest), ==, "3");
  g_assert_cmpstr (ovi_rank_get_root (earliest), ==, root_a);
  earliest_row = g_strdup_printf ("%s:%s|3|Earliest|5|", g_get_host_name (), root_a);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (rows, 0), earliest_row));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (rows, 0), "|Origin"));

  for (guint i = 0; i < g_list_model_get_n_items (ranks); i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (ranks, i);

      if (g_str_equal (ovi_rank_get_device (rank), "6") &&
          g_str_equal (ovi_rank_get_root (rank), root_b))
        on_b = rank;
      if (g_str_equal (ovi_rank_get_device (rank), "6") &&
          g_str_equal (ovi_rank_get_host (rank), "nodeC"))
        on_c = rank;
      if (rank != earliest)
        g_assert_cmpint (ovi_rank_get_role (rank), ==, OVI_RANK_ROLE_RECEIVED);
    }
  g_assert_nonnull (on_b);
  g_assert_nonnull (on_c);

  /* B's files are here: its record is one click away, B's and not A's. */
  g_assert_true (ovi_timeline_page_select_rank (page, on_b));
  settle (100);
  g_assert_false (timeline_shows (page, "remote_box"));
  g_assert_true (timeline_shows (page, "show_button"));
  gtk_widget_activate_action (GTK_WIDGET (page), "timeline.show-record", NULL);
  settle (200);
  g_assert_nonnull (ovi_session_get_selected_record (session));
  {
    OviDumpFile *file = ovi_overflow_record_get_file (ovi_session_get_selected_record (session));
    g_autofree char *expected = g_build_filename (root_b, ovi_rank_get_file (on_b), NULL);

    g_assert_cmpstr (ovi_dump_file_get_path (file), ==, expected);
  }

  /* C's stayed on nodeC. */
  ovi_window_show_page (window, "timeline");
  assert_remote_view (page, on_c, "nodeC", root_c);

  gtk_window_destroy (GTK_WINDOW (window));
  settle (50);
  ovi_fixture_remove_tree (dir);
}

/* Readable at any size: the window goes down to 800 px wide with a folder
 * open; there the page switcher moves from the header bar to the bottom. */
static void
test_narrow_window (Fixture *f, gconstpointer data)
{
  OviWindow *window = f->window;
  GtkWidget *bar = GTK_WIDGET (window->switcher_bar);
  const char *pages[] = { "overflows", "operators", "compare", "timeline", "problems" };
  g_autoptr (OviOverflowRecord) first = NULL;
  int min_width = 0;

  /* On every page, with the first overflow selected. */
  first = g_list_model_get_item (ovi_dump_folder_get_records (ovi_window_get_folder (window)), 0);
  ovi_session_set_selected_record (window->session, first);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      ovi_window_show_page (window, pages[i]);
      settle (100);
      gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL,
                          NULL, NULL);
      g_test_message ("minimum window width on %s: %d px", pages[i], min_width);
      g_assert_cmpint (min_width, <=, 800);
    }
  ovi_window_show_page (window, "overflows");
  settle (100);

  /* Wide: the switcher is in the header bar, the bottom bar is hidden. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->switcher_title)));
  g_assert_false (adw_view_switcher_bar_get_reveal (window->switcher_bar));

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  settle (300);
  /* Not pushed wider by what it holds (the default size counts the frame). */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, 760);
  /* Narrow: the header shows the title, the pages are switched at the bottom. */
  WAIT_UNTIL (adw_view_switcher_bar_get_reveal (window->switcher_bar));
  settle (300);
  g_assert_true (gtk_widget_get_mapped (bar));
  g_assert_cmpint (gtk_widget_get_width (bar), ==, gtk_widget_get_width (GTK_WIDGET (window)));

  /* Back to wide: the bottom bar goes away again. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  WAIT_UNTIL (!adw_view_switcher_bar_get_reveal (window->switcher_bar));
}

/* --- readable at any size (issue #16) ----------------------------------- */

/* The window sizes people use: a small laptop, the default, a full HD screen. */
static const struct
{
  int width, height;
} window_sizes[] = { { 800, 600 }, { 1200, 800 }, { 1920, 1080 } };

/* Collects the mapped labels under @widget whose text is cut with "…". */
static void
collect_ellipsized (GtkWidget *widget, GPtrArray *out)
{
  if (!gtk_widget_get_mapped (widget) || !gtk_widget_get_child_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) &&
      gtk_label_get_ellipsize (GTK_LABEL (widget)) != PANGO_ELLIPSIZE_NONE &&
      pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect_ellipsized (child, out);
}

/* A short name of where @widget is: its nearest ancestor with a name or a
 * project type, for the test's messages. */
static const char *
widget_place (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w; w = gtk_widget_get_parent (w))
    if (g_str_has_prefix (G_OBJECT_TYPE_NAME (w), "Ovi") || GTK_IS_COLUMN_VIEW (w))
      return G_OBJECT_TYPE_NAME (w);
  return "window";
}

/* Whether @text is in the tooltip of @widget or, when it has none, of its
 * nearest ancestor that has one. */
static gboolean
text_in_tooltip (GtkWidget *widget, const char *text)
{
  for (GtkWidget *w = widget; w; w = gtk_widget_get_parent (w))
    if (ovi_widget_get_tooltip (w) != NULL)
      return strstr (ovi_widget_get_tooltip (w), text) != NULL;
  return FALSE;
}

/* Saves @window as PAGE-WxH[-LANGUAGE].png in OVI_SIZES_DIR, when set. */
static void
grab_size (OviWindow *window, const char *page, int width, int height)
{
  const char *dir = g_getenv ("OVI_SIZES_DIR");
  const char *language = g_getenv ("LANGUAGE");
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GtkSnapshot) snapshot = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);

  if (dir == NULL)
    return;
  name = g_strdup_printf ("%s-%dx%d%s%s.png", page, width, height, language && *language ? "-" : "",
                          language ? language : "");
  path = g_build_filename (dir, name, NULL);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("saved %s", path);
}

/* Fails for every ellipsized label on @page that is not in the allow-list. */
static guint
check_ellipsized (OviWindow *window, const char *page, int width, int height)
{
  g_autoptr (GPtrArray) cut = g_ptr_array_new ();
  guint n_failed = 0;

  collect_ellipsized (GTK_WIDGET (window), cut);
  for (guint i = 0; i < cut->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (cut, i);
      const char *place = widget_place (label);
      const char *text = gtk_label_get_text (GTK_LABEL (label));

      /* Allowed: a label whose full text is in its tooltip, or in that of
       * the widget it is part of (table cells, which the user can also
       * widen; the sidebar's node names, cut in the middle so both ends
       * show; the window's subtitle, a path). */
      if (text_in_tooltip (label, text))
        continue;
      g_printerr ("%s at %dx%d: ellipsized in %s: \"%s\"\n", page, width, height, place,
                  gtk_label_get_text (GTK_LABEL (label)));
      n_failed++;
    }
  return n_failed;
}

/* Resizes @window to @width x @height and waits for the layout. */
static void
resize_to (OviWindow *window, int width, int height)
{
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  settle (300);
  settle (100); /* what changes right after a layout (columns, sidebar) */
}

/* The window's subtitle writes the home folder as GNOME does; a folder
 * that only starts like it is left alone. */
static void
test_format_path (void)
{
  static const struct
  {
    const char *path, *home, *shown;
  } cases[] = {
    { "/home/wei/runs/dump", "/home/wei", "~/runs/dump" },
    { "/home/wei", "/home/wei", "~" },
    { "/home/weiwei/dump", "/home/wei", "/home/weiwei/dump" },
    { "/data/dump", "/home/wei", "/data/dump" },
    { "/root/dump", "/", "/root/dump" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = ovi_format_path (cases[i].path, cases[i].home);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

/* A tooltip given in a .ui file or in code: the widget keeps it after the
 * builder is gone, shows it on hover (has-tooltip), and takes a new text;
 * an empty one shows nothing. */
static void
test_tooltip (void)
{
  static const char ui[] = "<interface>"
                           "  <object class=\"GtkLabel\" id=\"label\"/>"
                           "  <object class=\"OviTooltip\">"
                           "    <property name=\"widget\">label</property>"
                           "    <property name=\"text\">gradients/Cast_3</property>"
                           "  </object>"
                           "</interface>";
  g_autoptr (GtkBuilder) builder = NULL;
  g_autoptr (GtkWidget) label = NULL;
  g_autoptr (GtkWidget) button = g_object_ref_sink (gtk_button_new ());

  g_type_ensure (OVI_TYPE_TOOLTIP);
  builder = gtk_builder_new_from_string (ui, -1);
  label = g_object_ref_sink (GTK_WIDGET (gtk_builder_get_object (builder, "label")));
  g_clear_object (&builder);
  g_assert_true (gtk_widget_get_has_tooltip (label));
  g_assert_cmpstr (ovi_widget_get_tooltip (label), ==, "gradients/Cast_3");

  ovi_widget_set_tooltip (label, "loss/Mul_2");
  g_assert_cmpstr (ovi_widget_get_tooltip (label), ==, "loss/Mul_2");
  /* GTK's own tooltip stays unset: setting it is what costs a round trip. */
  g_assert_null (gtk_widget_get_tooltip_text (label));

  ovi_widget_set_tooltip (button, "Copy Task id");
  g_assert_true (gtk_widget_get_has_tooltip (button));
  g_assert_cmpstr (ovi_widget_get_tooltip (button), ==, "Copy Task id");
  ovi_widget_set_tooltip (button, NULL);
  g_assert_null (ovi_widget_get_tooltip (button));
}

/* The resident size (Rss, KiB) of this process's System V segment of
 * @size bytes, from /proc/self/smaps; 0 if there is none. */
static guint64
sysv_resident_kib (guint64 size)
{
  g_autofree char *smaps = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean in_segment = FALSE;

  g_assert_true (g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL));
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end, kib;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x", &start, &end) == 2)
        in_segment = strstr (lines[i], "/SYSV") != NULL && end - start == size;
      else if (in_segment && sscanf (lines[i], "Rss: %" G_GINT64_MODIFIER "u kB", &kib) == 1)
        return kib;
    }
  return 0;
}

/* Under X11 with the cairo renderer the window keeps a shared-memory pool
 * mapped that holds a whole-screen frame (ovi-shm-pool.c): the process maps
 * a System V segment at least that large, and keeps it. */
static void
test_shm_pool (Fixture *f, gconstpointer data)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (f->window));
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (f->window));
  g_autofree char *maps = NULL;
  g_auto (GStrv) lines = NULL;
  GdkRectangle screen = { 0 };
  guint64 largest = 0;
  GListModel *monitors;

  if (!GSK_IS_CAIRO_RENDERER (renderer) ||
      g_strcmp0 (G_OBJECT_TYPE_NAME (display), "GdkX11Display") != 0)
    {
      g_test_skip ("needs X11 and GSK_RENDERER=cairo");
      return;
    }
  g_assert_true (ovi_shm_pool_is_kept (display));

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;

      if (strstr (lines[i], "/SYSV") != NULL &&
          sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x", &start, &end) == 2)
        largest = MAX (largest, end - start);
    }
  monitors = gdk_display_get_monitors (display);
  for (guint i = 0; i < g_list_model_get_n_items (monitors); i++)
    {
      g_autoptr (GdkMonitor) monitor = g_list_model_get_item (monitors, i);
      GdkRectangle geometry;

      gdk_monitor_get_geometry (monitor, &geometry);
      gdk_rectangle_union (&screen, &geometry, &screen);
    }
  g_assert_cmpuint (largest, >=, (guint64) screen.width * screen.height * 4);

  /* Its pages are mapped in ahead of the frames, on a worker: the
   * segment's resident size reaches its whole size without a frame that
   * large having been drawn. */
  {
    gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
    guint64 resident = 0;

    while (resident < largest && g_get_monotonic_time () < deadline)
      {
        resident = sysv_resident_kib (largest) * 1024;
        if (resident < largest)
          settle (50);
      }
    g_assert_cmpuint (resident, ==, largest);
  }

  /* A second window reuses the pool. */
  {
    g_autoptr (OviWindow) other = g_object_ref_sink (ovi_window_new (app));

    gtk_window_present (GTK_WINDOW (other));
    settle (100);
    g_assert_true (ovi_shm_pool_is_kept (display));
    gtk_window_destroy (GTK_WINDOW (other));
  }
}

/* Every page, at the three sizes, in the language the test runs in: no
 * label whose text is needed is ellipsized. With OVI_SIZES_DIR set, each is
 * also saved as PAGE-WxH[-LANGUAGE].png (tests/app/take-screenshots.sh --sizes). */
static void
test_sizes (Fixture *f, gconstpointer data)
{
  OviWindow *window = f->window;
  OviOverflowRecord *first = find_record (window, 272);
  OviDumpFile *op = ovi_overflow_record_get_op (first);
  g_autoptr (OviWindow) cluster_window = NULL;
  g_autofree char *example = g_path_get_dirname (g_getenv ("OVI_EXAMPLE_DIR"));
  g_autofree char *node_a = g_build_filename (example, "example-cluster", "node-a", NULL);
  g_autofree char *node_b = g_build_filename (example, "example-cluster", "node-b.json", NULL);
  g_autoptr (GFile) file_a = g_file_new_for_path (node_a);
  GFile *reports[1];
  guint n_failed = 0;
  guint bad_index = 0;

  /* The tensor with non-finite values: its first-bad-value buttons show. */
  for (guint i = 0; i < ovi_dump_file_get_tensors (op)->len; i++)
    {
      g_autoptr (OviAnalysis) analysis =
          ovi_tensor_analyze (g_ptr_array_index (ovi_dump_file_get_tensors (op), i), NULL);

      if (analysis && ovi_analysis_get_stats (analysis)->first_nonfinite >= 0)
        bad_index = i;
    }

  /* The timeline of two machines, in a window of its own. */
  cluster_window = g_object_ref_sink (ovi_window_new (app));
  gtk_window_set_default_size (GTK_WINDOW (cluster_window), 1200, 800);
  gtk_window_present (GTK_WINDOW (cluster_window));
  ovi_window_open_file (cluster_window, file_a);
  WAIT_UNTIL (!ovi_window_get_busy (cluster_window));
  ovi_window_show_page (cluster_window, "timeline");
  reports[0] = g_file_new_for_path (node_b);
  ovi_window_add_reports (cluster_window, reports, 1);
  g_object_unref (reports[0]);
  WAIT_UNTIL (ovi_cluster_get_n_roots (
                  ovi_session_get_cluster (ovi_window_get_session (cluster_window))) == 2);

  for (guint s = 0; s < G_N_ELEMENTS (window_sizes); s++)
    {
      int width = window_sizes[s].width, height = window_sizes[s].height;

      gtk_window_present (GTK_WINDOW (window));
      resize_to (window, width, height);

      ovi_window_show_page (window, "overflows");
      g_assert_true (ovi_window_select_record (window, first));
      settle (200);
      n_failed += check_ellipsized (window, "overflows", width, height);
      grab_size (window, "overflows", width, height);

      ovi_window_show_page (window, "operators");
      ovi_session_set_selected_file (ovi_window_get_session (window), NULL);
      settle (200);
      n_failed += check_ellipsized (window, "operators", width, height);
      grab_size (window, "operators", width, height);

      ovi_window_show_tensor (window, op, bad_index);
      WAIT_UNTIL (!ovi_tensor_view_get_busy (ovi_window_get_tensor_view (window)));
      settle (200);
      n_failed += check_ellipsized (window, "tensor", width, height);
      grab_size (window, "tensor", width, height);

      ovi_window_show_page (window, "compare");
      ovi_compare_page_select_op (ovi_window_get_compare_view (window), most_repeated_op (window));
      WAIT_UNTIL (!ovi_compare_page_get_busy (ovi_window_get_compare_view (window)));
      settle (200);
      n_failed += check_ellipsized (window, "compare", width, height);
      grab_size (window, "compare", width, height);

      ovi_window_show_page (window, "problems");
      settle (200);
      n_failed += check_ellipsized (window, "problems", width, height);
      grab_size (window, "problems", width, height);

      gtk_window_present (GTK_WINDOW (cluster_window));
      resize_to (cluster_window, width, height);
      n_failed += check_ellipsized (cluster_window, "timeline", width, height);
      grab_size (cluster_window, "timeline", width, height);
    }
  gtk_window_destroy (GTK_WINDOW (cluster_window));
  g_assert_cmpuint (n_failed, ==, 0);
}

/* The titles of the overflow table's visible columns, "|"-separated. */
static char *
shown_columns (OviWindow *window)
{
  GListModel *columns = gtk_column_view_get_columns (ovi_window_get_record_view (window));
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column))
        g_string_append_printf (out, "%s%s", out->len > 0 ? "|" : "",
                                gtk_column_view_column_get_title (column));
    }
  return g_string_free (out, FALSE);
}

/* Whether the record details are below the table (else beside it). */
static gboolean
details_below (OviWindow *window)
{
  graphene_rect_t table, details;

  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (ovi_window_get_record_view (window)),
                                            GTK_WIDGET (window), &table));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (ovi_window_get_record_details (window)),
                                            GTK_WIDGET (window), &details));
  return details.origin.y >= table.origin.y + table.size.height - 1;
}

/* Narrow windows: the sidebar folds and the details go below the table,
 * which keeps #, Iteration, Unit, Op Name and Status at their width; at the
 * default 1200x800 every column shows. */
static void
test_narrow_overflow_table (Fixture *f, gconstpointer data)
{
  OviWindow *window = f->window;
  GtkWidget *sidebar = GTK_WIDGET (ovi_window_get_sidebar (window));
  g_autofree char *at_800 = NULL;
  g_autofree char *at_1200 = NULL;
  g_autofree char *at_1920 = NULL;
  GListModel *columns = gtk_column_view_get_columns (ovi_window_get_record_view (window));
  int min_width = 0;

  resize_to (window, 800, 600);
  at_800 = shown_columns (window);
  g_test_message ("columns at 800x600: %s", at_800);
  g_assert_false (gtk_widget_get_visible (sidebar));
  g_assert_true (details_below (window));
  g_assert_cmpstr (at_800, ==, "#|Iteration|Unit|Op Type|Op Name|Task|Stream|Status");
  /* The columns that matter keep the width the table gives them. */
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *title = gtk_column_view_column_get_title (column);

      if (g_strv_contains (
              (const char *const[]){ "#", "Iteration", "Unit", "Op Name", "Status", NULL }, title))
        g_assert_cmpint (gtk_column_view_column_get_fixed_width (column), >=, 36);
    }
  /* F9 brings the sidebar back over the narrow window, and folds it again. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  settle (100);
  g_assert_true (gtk_widget_get_mapped (sidebar));
  g_assert_true (gtk_toggle_button_get_active (window->sidebar_button));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  settle (100);
  g_assert_false (gtk_widget_get_mapped (sidebar));
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL,
                      NULL);
  g_assert_cmpint (min_width, <=, 800);

  /* The default size: the sidebar is back, the details below, every column. */
  resize_to (window, 1200, 800);
  at_1200 = shown_columns (window);
  g_test_message ("columns at 1200x800: %s", at_1200);
  g_assert_true (gtk_widget_get_mapped (sidebar));
  g_assert_true (details_below (window));
  g_assert_cmpstr (at_1200, ==,
                   "#|Iteration|Unit|Op Type|Op Name|Task|Stream|Status|Timestamp|Since Previous");

  /* A full HD window: the details beside the table again (when the
   * screen, Xvfb's, is that wide). */
  resize_to (window, 1920, 1080);
  at_1920 = shown_columns (window);
  g_assert_cmpstr (at_1920, ==, at_1200);
  if (gtk_widget_get_width (GTK_WIDGET (window)) >= 1900)
    g_assert_false (details_below (window));
  else
    g_test_message ("the screen is narrower than 1920 px: not checked beside");
}

/* The first mapped label under @widget whose text is @text. */
static GtkLabel *
find_label_with_text (GtkWidget *widget, const char *text)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_with_text (child, text);

      if (found)
        return found;
    }
  return NULL;
}

/* A long problem reason wraps at 800 px instead of being cut, and its
 * cells give the full reason and path in their tooltips. */
static void
test_problem_reason_wraps (Fixture *f, gconstpointer data)
{
  GListModel *problems = ovi_session_get_problems (ovi_window_get_session (f->window));
  g_autoptr (OviProblem) problem = NULL;
  g_autofree char *message = NULL;
  g_autofree char *file = NULL;
  GtkLabel *reason, *path;

  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_object_get (problem, "message", &message, "file", &file, NULL);
  g_assert_cmpstr (message, ==,
                   "the header lists 128 bytes of tensor data but 108 bytes follow it (truncated)");
  resize_to (f->window, 800, 600);
  ovi_window_show_page (f->window, "problems");
  settle (200);
  reason = find_label_with_text (GTK_WIDGET (f->window), message);
  g_assert_nonnull (reason);
  g_assert_cmpstr (ovi_widget_get_tooltip (GTK_WIDGET (reason)), ==, message);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (reason)));
  g_assert_cmpint (pango_layout_get_line_count (gtk_label_get_layout (reason)), >=, 2);
  /* The path is cut at its start, its name in view and all of it in the tooltip. */
  path = find_label_with_text (GTK_WIDGET (f->window), file);
  g_assert_nonnull (path);
  g_assert_cmpstr (ovi_widget_get_tooltip (GTK_WIDGET (path)), ==, file);
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
  GSettings *settings = ovi_application_get_settings (app);
  int text_width = 0;

  ovi_window_show_page (f->window, "operators");
  settle (200);
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
  gtk_column_view_column_set_fixed_width (op_name, 333);
  gtk_column_view_column_set_fixed_width (column_by_title (ops, "Op Type"), 150);
  settle (500);
  second = g_object_ref_sink (ovi_window_new (app));
  gtk_window_present (GTK_WINDOW (second));
  settle (100);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (
                       column_by_title (ovi_window_get_op_view (second), "Op Name")),
                   ==, 333);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (
                       column_by_title (ovi_window_get_op_view (second), "Op Type")),
                   ==, 150);
  gtk_window_destroy (GTK_WINDOW (second));
  g_settings_reset (settings, "operator-column-widths");
}

/* Histogram axis labels never overprint: at a narrow width the value
 * axis' ends ("-1.361e+04", "4.123e+04"), its zero and its title skip
 * rather than collide with each other or the special bins' labels. */
static void
test_histogram_axis_labels (void)
{
  const float values[] = { -13610.5f, -2.5f, 0.1f, 1.5f, 41234.7f, NAN, INFINITY };
  g_autoptr (GBytes) bytes = g_bytes_new (values, sizeof values);
  g_autoptr (OviAnalysis) analysis = ovi_analysis_new (OVI_DTYPE_FLOAT32, bytes, NULL);
  OviHistogram *histogram = ovi_analysis_histogram (analysis, 16, OVI_HISTOGRAM_LINEAR, NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = ovi_histogram_view_new ();
  const int widths[] = { 700, 260, 200 };

  g_assert_nonnull (histogram);
  ovi_histogram_view_add_series_full (OVI_HISTOGRAM_VIEW (view), "output 0", histogram, histogram,
                                      (GDestroyNotify) ovi_histogram_free);
  gtk_window_set_child (GTK_WINDOW (window), view);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr (GPtrArray) labels = NULL;
      gboolean has_low = FALSE;

      gtk_widget_set_size_request (view, widths[w], 160);
      gtk_window_set_default_size (GTK_WINDOW (window), widths[w], 160);
      gtk_window_present (GTK_WINDOW (window));
      settle (200);
      labels = ovi_histogram_view_get_axis_labels (OVI_HISTOGRAM_VIEW (view));
      g_assert_cmpuint (labels->len, >=, 5);
      for (guint i = 0; i < labels->len; i++)
        {
          OviAxisLabel *a = g_ptr_array_index (labels, i);

          g_test_message ("%d px: \"%s\" at %.0f..%.0f, %.0f", widths[w], a->text, a->rect.origin.x,
                          a->rect.origin.x + a->rect.size.width, a->rect.origin.y);
          has_low |= g_str_equal (a->text, "-1.361e+04");
          /* Inside the widget, not over another label. */
          g_assert_cmpfloat (a->rect.origin.x, >=, 0);
          g_assert_cmpfloat (a->rect.origin.x + a->rect.size.width, <=,
                             gtk_widget_get_width (view));
          for (guint j = i + 1; j < labels->len; j++)
            {
              OviAxisLabel *b = g_ptr_array_index (labels, j);

              if (graphene_rect_intersection (&a->rect, &b->rect, NULL))
                g_error ("at %d px \"%s\" overlaps \"%s\"", widths[w], a->text, b->text);
            }
        }
      /* The special bins are always named; the low end always shows. */
      g_assert_true (has_low);
      g_assert_cmpint (((OviAxisLabel *) g_ptr_array_index (labels, 0))->slot, ==, 0);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  settle (50);
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

/* The tensor view's first-bad-value buttons wrap, so "Abnormal Only", the
 * tensor menu and the buttons stay inside the window at 1200x800 and
 * 800x600; the Compare page shows "Log count axis" and its tensor menu. */
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
      WAIT_UNTIL (!ovi_tensor_view_get_busy (view));
      settle (100);
      /* As the user clicks "First +Inf at …": the buttons show. */
      gtk_widget_activate_action (GTK_WIDGET (view), "tensor.locate", "x", first_bad);
      settle (200);
      g_assert_true (inside_window (abnormal, window));
      g_assert_true (inside_window (tensor_view_child (view, "tensor_dropdown"), window));
      g_assert_true (gtk_widget_get_visible (locate_box));
      for (GtkWidget *child = gtk_widget_get_first_child (locate_box); child;
           child = gtk_widget_get_next_sibling (child), n_buttons++)
        g_assert_true (inside_window (child, window));
      g_assert_cmpuint (n_buttons, ==, most_kinds);
    }

  resize_to (window, 1200, 800);
  ovi_window_show_page (window, "compare");
  ovi_compare_page_select_op (ovi_window_get_compare_view (window), most_repeated_op (window));
  WAIT_UNTIL (!ovi_compare_page_get_busy (ovi_window_get_compare_view (window)));
  settle (200);
  g_assert_true (inside_window (
      GTK_WIDGET (find_label_with_text (GTK_WIDGET (window), "Log count axis")), window));
  g_assert_true (inside_window (
      GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_compare_view (window)),
                                                 OVI_TYPE_COMPARE_PAGE, "tensor_dropdown")),
      window));
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = g_dir_make_tmp ("ovi-app-xdg-XXXXXX", NULL);
  const char *vars[] = { "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR" };
  gboolean tap = FALSE;
  int ret;

  /* A private home for whatever GTK writes, before GLib reads the variables. */
  for (guint i = 0; xdg != NULL && i < G_N_ELEMENTS (vars); i++)
    {
      g_autofree char *dir = g_build_filename (xdg, vars[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (vars[i], dir, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  g_setenv ("GTK_A11Y", "none", FALSE);

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--tap"))
      tap = TRUE;

  g_test_init (&argc, &argv, NULL);
  /* The catalog, as main.c binds it: LANGUAGE=zh_CN runs the tests that
   * look at sizes in Chinese (app-window-sizes-zh_CN). */
  ovi_i18n_init ();
  if (!gtk_init_check ())
    {
      /* 77 tells meson "skipped"; under --tap the plan says it. */
      if (tap)
        {
          g_print ("1..0 # SKIP no display\n");
          return 0;
        }
      g_printerr ("No display: skipping the UI tests\n");
      return 77;
    }
  adw_init ();

  app = ovi_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  if (!g_application_register (G_APPLICATION (app), NULL, NULL))
    return 1;

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  g_test_add_func ("/app/format/path", test_format_path);
  g_test_add_func ("/app/tooltip", test_tooltip);
  ADD ("/app/window/overflow-table", test_overflow_table);
  ADD ("/app/window/shm-pool", test_shm_pool);
  ADD ("/app/window/sort-by-header", test_sort_by_header);
  ADD ("/app/window/search-and-unit-filter", test_search_and_unit_filter);
  ADD ("/app/window/tree-narrows", test_tree_narrows);
  ADD ("/app/window/checklist-0x110", test_checklist_0x110);
  ADD ("/app/window/histogram-special-bins", test_histogram_special_bins);
  ADD ("/app/window/operator-table", test_operator_table);
  ADD ("/app/window/export", test_export);
  ADD ("/app/window/compare", test_compare);
  ADD ("/app/window/compare-iterations", test_compare_iterations);
  ADD ("/app/window/problems", test_problems);
  ADD ("/app/window/shortcuts", test_shortcuts);
  ADD ("/app/window/open-single-file", test_open_single_file);
  ADD ("/app/window/drop-folder", test_drop_folder);
  ADD ("/app/window/cancel", test_cancel);
  ADD ("/app/window/large-table", test_large_table);
  ADD ("/app/window/scanning-state", test_scanning_state);
  ADD ("/app/window/no-dump-file-state", test_no_dump_file_state);
  ADD ("/app/window/filter-no-match-state", test_filter_no_match_state);
  ADD ("/app/window/cancel-partial", test_cancel_partial);
  ADD ("/app/window/record-view-follows-selection", test_record_view_follows_selection);
  ADD ("/app/window/newer-dumps", test_newer_dumps);
  ADD ("/app/window/schema-fields", test_schema_fields);
  ADD ("/app/screenshots", test_screenshots);
  g_test_add_func ("/app/window-state", test_window_state);
  g_test_add_func ("/app/open-several", test_open_several);
  ADD ("/app/window/local-time-and-gap", test_local_time_and_gap);
  ADD ("/app/window/atomic-add-fields", test_atomic_add_fields);
  ADD ("/app/window/problems-follow-node", test_problems_follow_node);
  ADD ("/app/window/stray-file", test_stray_file);
  ADD ("/app/window/open-shows-bad-tensor", test_open_shows_bad_tensor);
  ADD ("/app/window/locator-agrees", test_locator_agrees);
  ADD ("/app/window/operator-empty-state", test_operator_empty_state);
  ADD ("/app/window/empty-tensor", test_empty_tensor);
  ADD ("/app/window/statistics-headline", test_statistics_headline);
  ADD ("/app/window/empty-histogram", test_empty_histogram);
  ADD ("/app/window/escape-clears-search", test_escape_clears_search);
  ADD ("/app/window/page-keys", test_page_keys);
  ADD ("/app/window/enter-and-tab", test_enter_and_tab);
  ADD ("/app/window/row-names", test_row_names);
  ADD ("/app/window/reload-keeps-selection", test_reload_keeps_selection);
  ADD ("/app/window/sort-keeps-selection", test_sort_keeps_selection);
  ADD ("/app/window/ignore-undo", test_ignore_undo);
  ADD ("/app/window/open-recent", test_open_recent);
  ADD ("/app/window/export-all-tensors", test_export_all_tensors);
  ADD ("/app/window/export-selection-tensors", test_export_selection_tensors);
  g_test_add_func ("/app/start-page-icon", test_start_page_icon);
  g_test_add_func ("/app/timeline", test_timeline);
  g_test_add_func ("/app/several-folders", test_several_folders);
  ADD ("/app/window/narrow-window", test_narrow_window);
  /* Readable at any size. */
  ADD ("/app/window/sizes", test_sizes);
  ADD ("/app/window/narrow-overflow-table", test_narrow_overflow_table);
  ADD ("/app/window/problem-reason-wraps", test_problem_reason_wraps);
  ADD ("/app/window/operator-column-widths", test_operator_column_widths);
  g_test_add_func ("/app/histogram-axis-labels", test_histogram_axis_labels);
  ADD ("/app/window/tensor-view-fits", test_tensor_view_fits);
#undef ADD

  ret = g_test_run ();
  remove_tree (xdg);
  return ret;
}
