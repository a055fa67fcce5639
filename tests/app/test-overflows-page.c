/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"
#include "ovi-tooltip.h"

/* The Overflows page: the record table (order, sorting, search and unit
 * filter, its states), the record details beside it, and keyboard use. */

static const char *
empty_title (OviWindow *window)
{
  AdwStatusPage *page = ADW_STATUS_PAGE (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (window)),
                                     OVI_TYPE_OVERFLOWS_PAGE, "record_empty_page"));

  return adw_status_page_get_title (page);
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

/* The record table after a click on a header: its sort model has nothing
 * left to sort (a sort may go a step per main-loop turn), and the rows
 * are laid out in their new order. */
static void
wait_sorted (OviWindow *window)
{
  GtkSortListModel *sorted = GTK_SORT_LIST_MODEL (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (window)),
                                     OVI_TYPE_OVERFLOWS_PAGE, "record_sort_model"));

  WAIT_UNTIL (gtk_sort_list_model_get_pending (sorted) == 0);
  ovi_test_wait_still ();
}

/* The record table after its search or a filter changed: its filter model
 * has nothing left to filter, and the rows it keeps are laid out. */
static void
wait_filtered (OviWindow *window)
{
  GtkFilterListModel *filtered = GTK_FILTER_LIST_MODEL (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (window)),
                                     OVI_TYPE_OVERFLOWS_PAGE, "record_filter_model"));

  WAIT_UNTIL (gtk_filter_list_model_get_pending (filtered) == 0);
  ovi_test_wait_still ();
}

/* The number of records the record table's filters keep. */
static guint
n_filtered (OviWindow *window)
{
  return g_list_model_get_n_items (G_LIST_MODEL (
      gtk_widget_get_template_child (GTK_WIDGET (ovi_window_get_overflows_page (window)),
                                     OVI_TYPE_OVERFLOWS_PAGE, "record_filter_model")));
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
  /* Every record is still listed; the shown rows are in order (the last
   * may be scrolled out: the row of a status found in the data wraps). */
  g_assert_cmpuint (n_filtered (f->window), ==, before->len);
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
count_sort (GtkSorter *sorter, GtkSorterChange change, guint *count)
{
  (*count)++;
}

/* A click of the first mouse button on the header of @view's column
 * titled @title, through the X server, as a user makes it: GTK 4.8 sorts
 * by the column and keeps the columns clicked before as tie breakers,
 * which gtk_column_view_sort_by_column() does not (it forgets them).
 * Returns once the column view's sorter changed. */
static void
click_header (OviWindow *window, GtkColumnView *view, const char *title)
{
  GtkWidget *header = NULL;
  GtkWidget *target = NULL;
  guint changes = 0;
  gulong handler;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (!GTK_IS_LIST_VIEW (child))
      header = child;
  g_assert_nonnull (header);
  for (GtkWidget *t = gtk_widget_get_first_child (header); t && !target;
       t = gtk_widget_get_next_sibling (t))
    if (find_label_with_text (t, title) != NULL)
      target = t;
  g_assert_nonnull (target);
  handler = g_signal_connect (gtk_column_view_get_sorter (view), "changed", G_CALLBACK (count_sort),
                              &changes);
  if (xdotool_click (target, 1))
    WAIT_UNTIL (changes > 0);
  g_signal_handler_disconnect (gtk_column_view_get_sorter (view), handler);
}

/* Rows that tie on the sorted column stay in run order ("#" ascending),
 * whatever was sorted before: the Timestamp sort clicked earlier does not
 * order the records of one iteration. */
static void
test_sort_ties_keep_run_order (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autoptr (GPtrArray) by_time = NULL;
  g_autoptr (GPtrArray) by_iteration = NULL;
  guint ties = 0;

  if (xdotool == NULL)
    {
      g_test_skip ("needs xdotool to click the headers");
      return;
    }
  click_header (f->window, view, "Timestamp");
  click_header (f->window, view, "Timestamp");
  wait_sorted (f->window);
  by_time = visible_rows (view);
  assert_sorted (by_time, 8, FALSE, TRUE);

  click_header (f->window, view, "Iteration");
  wait_sorted (f->window);
  by_iteration = visible_rows (view);
  assert_sorted (by_iteration, 1, TRUE, FALSE);
  for (guint i = 1; i < by_iteration->len; i++)
    {
      g_autofree char *iteration = cell (by_iteration, i, 1);
      g_autofree char *previous_iteration = cell (by_iteration, i - 1, 1);
      g_autofree char *position = cell (by_iteration, i, 0);
      g_autofree char *previous_position = cell (by_iteration, i - 1, 0);

      g_test_message ("row %u: %s", i, (char *) g_ptr_array_index (by_iteration, i));
      if (g_strcmp0 (iteration, previous_iteration) != 0)
        continue;
      ties++;
      g_assert_cmpuint (g_ascii_strtoull (previous_position, NULL, 10), <,
                        g_ascii_strtoull (position, NULL, 10));
    }
  /* The example has iterations with several records. */
  g_assert_cmpuint (ties, >=, 2);

  /* "#" sorts too: ascending, then descending. */
  click_header (f->window, view, "#");
  wait_sorted (f->window);
  {
    g_autoptr (GPtrArray) rows = visible_rows (view);

    assert_sorted (rows, 0, TRUE, FALSE);
  }
  click_header (f->window, view, "#");
  wait_sorted (f->window);
  {
    g_autoptr (GPtrArray) rows = visible_rows (view);

    assert_sorted (rows, 0, TRUE, TRUE);
  }
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
  wait_filtered (f->window);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >=, 1);
  g_assert_cmpuint (rows->len, ==, n_filtered (f->window));
  for (guint i = 0; i < rows->len; i++)
    g_assert_nonnull (strstr (g_ptr_array_index (rows, i), op_type));
  g_clear_pointer (&rows, g_ptr_array_unref);

  gtk_editable_set_text (GTK_EDITABLE (search), "");
  gtk_drop_down_set_selected (units, 1 + OVI_UNIT_SDMA);
  WAIT_UNTIL (ovi_session_get_unit_filter (ovi_window_get_session (f->window)) == OVI_UNIT_SDMA);
  wait_filtered (f->window);
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

/* One op dump file opened on its own, with no Opdebug file beside it but
 * 20 +Inf in its output: the page says what its data hold, as `report FILE`
 * does, not "No Overflow Records" under a green check, and offers the
 * tensor on the Operators page. */
static void
test_one_file_finding_state (Fixture *f, gconstpointer data)
{
  const guint64 shape[] = { 32 };
  double in[32], out[32];
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Cast_1");
  g_autofree char *dir = g_build_filename (f->tmpdir, "one", NULL);
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  OviOverflowsPage *page = ovi_window_get_overflows_page (f->window);
  AdwStatusPage *status = ADW_STATUS_PAGE (gtk_widget_get_template_child (
      GTK_WIDGET (page), OVI_TYPE_OVERFLOWS_PAGE, "record_empty_page"));
  GtkWidget *button;
  OviSession *session = ovi_window_get_session (f->window);
  OviTensorView *view = ovi_window_get_tensor_view (f->window);
  OviTensor *tensor;

  for (guint i = 0; i < 32; i++)
    {
      in[i] = 70000.0 * (i + 1);
      out[i] = i < 20 ? INFINITY : (double) i;
    }
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, in);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, out);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, "Cast.net_Cast_1.57.7.1764670500000200");
  file = g_file_new_for_path (path);

  ovi_window_open_file (f->window, file);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  ovi_test_wait_still ();
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "empty");
  g_assert_cmpstr (empty_title (f->window), ==, _ ("Abnormal Values in This File"));
  g_assert_cmpstr (adw_status_page_get_icon_name (status), ==, "dialog-warning-symbolic");
  g_assert_cmpstr (adw_status_page_get_description (status), ==,
                   "This is one op dump file, not a folder: it holds no overflow record (those "
                   "are in the Opdebug files beside it), but its data hold 20 +Inf in output 0 "
                   "of Cast net/Cast_1.");
  button = template_child (page, OVI_TYPE_OVERFLOWS_PAGE, "show_tensor_button");
  g_assert_true (gtk_widget_get_mapped (button));

  /* Its button shows the tensor that holds them. */
  gtk_widget_activate (button);
  WAIT_UNTIL (page_shown (f->window, "operators") && ovi_tensor_view_get_tensor (view) != NULL);
  ovi_test_wait_still ();
  g_assert_nonnull (ovi_session_get_selected_file (session));
  g_assert_cmpstr (ovi_dump_file_get_path (ovi_session_get_selected_file (session)), ==, path);
  tensor = ovi_tensor_view_get_tensor (view);
  g_assert_cmpint (ovi_tensor_get_kind (tensor), ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpuint (ovi_tensor_get_index (tensor), ==, 0);
}

static void
test_filter_no_match_state (Fixture *f, gconstpointer data)
{
  OviOverflowsPage *page = ovi_window_get_overflows_page (f->window);
  GtkEditable *search = GTK_EDITABLE (
      gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_OVERFLOWS_PAGE, "record_search"));

  gtk_editable_set_text (search, "no-operator-has-this-name");
  wait_filtered (f->window);
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "empty");
  g_assert_cmpstr (empty_title (f->window), ==, _ ("No Matching Records"));
  gtk_editable_set_text (search, "");
  wait_filtered (f->window);
  g_assert_cmpstr (ovi_overflows_page_get_state (page), ==, "table");
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
  g_autoptr (GPtrArray) rows = NULL;
  GtkWidget *copy = NULL;

  /* The time and the gap are the table's last columns. */
  fold_sidebar (f->window);
  rows = visible_rows (view);

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
  wait_details (f->window, second);
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
  wait_details (f->window, first);
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
      wait_details (f->window, record);
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
  wait_filtered (f->window);
  found = visible_rows (records);
  g_assert_cmpuint (found->len, ==, 1);

  g_signal_emit_by_name (record_search, "stop-search");
  wait_filtered (f->window);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (record_search)), ==, "");
  again = visible_rows (records);
  g_assert_cmpuint (again->len, ==, all->len);

  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  all_ops = g_list_model_get_n_items (G_LIST_MODEL (op_selection));
  gtk_editable_set_text (GTK_EDITABLE (op_search), "ReduceSum");
  wait_operators_listed (f->window);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (op_selection)), <, all_ops);
  g_signal_emit_by_name (op_search, "stop-search");
  wait_operators_listed (f->window);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (op_search)), ==, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (op_selection)), ==, all_ops);
}

/* Escape after a search that matched nothing selects again the record
 * that was selected before it, not the first row. */
static void
test_escape_restores_selection (Fixture *f, gconstpointer data)
{
  OviSession *session = ovi_window_get_session (f->window);
  GtkWidget *record_search = template_child (ovi_window_get_overflows_page (f->window),
                                             OVI_TYPE_OVERFLOWS_PAGE, "record_search");
  g_autoptr (OviOverflowRecord) third =
      g_list_model_get_item (ovi_dump_folder_get_records (ovi_window_get_folder (f->window)), 2);

  g_assert_true (ovi_window_select_record (f->window, third));
  WAIT_UNTIL (ovi_session_get_selected_record (session) == third);

  gtk_widget_grab_focus (record_search);
  gtk_editable_set_text (GTK_EDITABLE (record_search), "no-operator-has-this-name");
  wait_filtered (f->window);
  g_assert_cmpuint (n_visible_rows (ovi_window_get_record_view (f->window)), ==, 0);
  g_assert_null (ovi_session_get_selected_record (session));

  g_signal_emit_by_name (record_search, "stop-search");
  wait_filtered (f->window);
  WAIT_UNTIL (ovi_session_get_selected_record (session) != NULL);
  g_assert_true (ovi_session_get_selected_record (session) == third);
  wait_details (f->window, third);
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
  WAIT_UNTIL (focus_inside (f->window, list));
  ovi_test_wait_still ();
  gtk_widget_activate_action (list, "list.activate-item", "u", 2);
  ovi_test_wait_still ();
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
    WAIT_UNTIL (ovi_session_get_selected_file (session) == op &&
                page_shown (f->window, "operators"));
    ovi_test_wait_still ();
    op_path = g_strdup (ovi_dump_file_get_relative_path (op));
    g_assert_cmpstr (op_path, !=,
                     ovi_dump_file_get_relative_path (ovi_overflow_record_get_op (record)));
    ovi_window_show_page (f->window, "overflows");
  }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  wait_records_listed (f->window);
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
  guint changes = 0, seen;

  g_settings_set_strv (settings, "ignore-patterns", NULL);
  g_signal_connect_swapped (settings, "changed::ignore-patterns", G_CALLBACK (count_change),
                            &changes);
  g_assert_true (ovi_window_select_record (f->window, record));
  wait_details (f->window, record);
  button = find_button (details, "Ignore Type");
  g_assert_nonnull (button);
  seen = changes;
  gtk_widget_activate (button);
  /* The click writes the list, which the details then show. */
  WAIT_UNTIL (changes > seen);
  ovi_test_wait_still ();
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
    seen = changes;
    gtk_widget_activate (button);
  }
  WAIT_UNTIL (changes > seen);
  ovi_test_wait_still ();
  patterns = g_settings_get_strv (settings, "ignore-patterns");
  g_assert_cmpuint (g_strv_length (patterns), ==, 0);
  g_assert_false (ovi_overflow_record_get_ignored (record));
  g_assert_nonnull (find_button (details, "Ignore Type"));

  /* Ignored by a name pattern: Stop Ignoring clears it as well. */
  seen = changes;
  g_settings_set_strv (settings, "ignore-patterns",
                       (const char *const[]){ "name:gradients/*", "type:Relu", NULL });
  WAIT_UNTIL (changes > seen);
  ovi_test_wait_still ();
  g_assert_true (ovi_overflow_record_get_ignored (record));
  button = find_button (details, "Stop Ignoring");
  g_assert_nonnull (button);
  seen = changes;
  gtk_widget_activate (button);
  WAIT_UNTIL (changes > seen);
  ovi_test_wait_still ();
  g_clear_pointer (&patterns, g_strfreev);
  patterns = g_settings_get_strv (settings, "ignore-patterns");
  g_assert_cmpuint (g_strv_length (patterns), ==, 1);
  g_assert_cmpstr (patterns[0], ==, "type:Relu");
  g_assert_false (ovi_overflow_record_get_ignored (record));
  g_settings_set_strv (settings, "ignore-patterns", NULL);

  /* The list's own window opens from the menu, with its Save button. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.edit-ignore-list", NULL);
  WAIT_UNTIL (find_transient_for (GTK_WINDOW (f->window)) != NULL &&
              gtk_widget_get_mapped (GTK_WIDGET (find_transient_for (GTK_WINDOW (f->window)))));
  ovi_test_wait_still ();
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

/* Narrow windows: the sidebar folds and the details go below the table,
 * which keeps #, Iteration, Unit, Op Name and Status at their width; no
 * column ends past the window's edge: at the default 1200x800 the time and
 * the gap are in the details only, at 1920x1080 every column shows. */
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
  g_assert_cmpstr (at_800, ==, "#|Iteration|Unit|Op Type|Op Name|Task|Status");
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
  WAIT_UNTIL (gtk_widget_get_visible (sidebar));
  ovi_test_wait_still ();
  g_assert_true (gtk_widget_get_mapped (sidebar));
  g_assert_true (gtk_toggle_button_get_active (window->sidebar_button));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  WAIT_UNTIL (!gtk_widget_get_visible (sidebar));
  ovi_test_wait_still ();
  g_assert_false (gtk_widget_get_mapped (sidebar));
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL,
                      NULL);
  g_assert_cmpint (min_width, <=, 800);

  /* The default size: the sidebar is back, the details below; the time
   * and the time since the previous overflow, which the details show,
   * would end past the window's edge. */
  resize_to (window, 1200, 800);
  at_1200 = shown_columns (window);
  g_test_message ("columns at 1200x800: %s", at_1200);
  g_assert_true (gtk_widget_get_mapped (sidebar));
  g_assert_true (details_below (window));
  g_assert_cmpstr (at_1200, ==, "#|Iteration|Unit|Op Type|Op Name|Task|Stream|Status");

  /* A full HD window: the details beside the table again, every column
   * (when the screen, Xvfb's, is that wide). */
  resize_to (window, 1920, 1080);
  at_1920 = shown_columns (window);
  g_test_message ("columns at %dx%d: %s", gtk_widget_get_width (GTK_WIDGET (window)),
                  gtk_widget_get_height (GTK_WIDGET (window)), at_1920);
  if (gtk_widget_get_width (GTK_WIDGET (window)) >= 1900)
    {
      g_assert_false (details_below (window));
      g_assert_cmpstr (
          at_1920, ==,
          "#|Iteration|Unit|Op Type|Op Name|Task|Stream|Status|Timestamp|Since Previous");
    }
  else
    g_test_message ("the screen is narrower than 1920 px: not checked beside");
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/overflows-page/overflow-table", test_overflow_table);
  OVI_TEST_ADD ("/app/overflows-page/sort-by-header", test_sort_by_header);
  OVI_TEST_ADD ("/app/overflows-page/sort-ties-keep-run-order", test_sort_ties_keep_run_order);
  OVI_TEST_ADD ("/app/overflows-page/search-and-unit-filter", test_search_and_unit_filter);
  OVI_TEST_ADD ("/app/overflows-page/checklist-0x110", test_checklist_0x110);
  OVI_TEST_ADD ("/app/overflows-page/scanning-state", test_scanning_state);
  OVI_TEST_ADD ("/app/overflows-page/no-dump-file-state", test_no_dump_file_state);
  OVI_TEST_ADD ("/app/overflows-page/one-file-finding-state", test_one_file_finding_state);
  OVI_TEST_ADD ("/app/overflows-page/filter-no-match-state", test_filter_no_match_state);
  OVI_TEST_ADD ("/app/overflows-page/record-view-follows-selection",
                test_record_view_follows_selection);
  OVI_TEST_ADD ("/app/overflows-page/local-time-and-gap", test_local_time_and_gap);
  OVI_TEST_ADD ("/app/overflows-page/atomic-add-fields", test_atomic_add_fields);
  OVI_TEST_ADD ("/app/overflows-page/escape-clears-search", test_escape_clears_search);
  OVI_TEST_ADD ("/app/overflows-page/escape-restores-selection", test_escape_restores_selection);
  OVI_TEST_ADD ("/app/overflows-page/enter-and-tab", test_enter_and_tab);
  OVI_TEST_ADD ("/app/overflows-page/reload-keeps-selection", test_reload_keeps_selection);
  OVI_TEST_ADD ("/app/overflows-page/ignore-undo", test_ignore_undo);
  OVI_TEST_ADD ("/app/overflows-page/narrow-overflow-table", test_narrow_overflow_table);
  return ovi_test_run ();
}
