/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ovi-a11y.h"
#include "ovi-fixtures.h"
#include "ovi-shm-pool.h"
#include "ovi-test-util.h"
#include "ovi-tooltip.h"

/* The window as a whole: shortcuts and page keys, opening (several
 * files, a drop, recent folders), cancelling a scan, several folders at
 * once, narrow windows, the shared-memory pool, exports and screenshots
 * (every page at the sizes people use: test-sizes.c).  With OVI_SCREENSHOT_DIR
 * set, /app/window/screenshots saves PNGs of the main views there
 * (tests/app/take-screenshots.sh). */

/* Saves what @widget shows, once the windows are still, as @name in
 * OVI_SCREENSHOT_DIR. */
static void
save_png (GtkWidget *widget, const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("OVI_SCREENSHOT_DIR"), name, NULL);

  ovi_test_wait_still ();
  save_widget_png (widget, path);
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

static gboolean
names_contain (GPtrArray *names, const char *text)
{
  for (guint i = 0; i < names->len; i++)
    if (strstr (g_ptr_array_index (names, i), text) != NULL)
      return TRUE;
  return FALSE;
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
test_window_state (void)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  OviWindow *window;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 650);
  window = ovi_window_new (ovi_test_app);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)) &&
              gtk_widget_get_width (GTK_WIDGET (window)) > 0);
  ovi_test_wait_still ();
  /* The saved size is the size the window opens with. */
  {
    int width, height;

    gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
    g_assert_cmpint (width, ==, 900);
    g_assert_cmpint (height, ==, 650);
  }

  resize_to (window, 1000, 700);
  /* Closed: gone, and what it saves on the way saved. */
  g_object_ref (window);
  gtk_window_close (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
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
      g_build_filename (example, "20251202101500", "0", "resnet50_train", "11", "4", NULL);
  g_autofree char *dump_file = NULL;
  g_autoptr (GDir) listing = g_dir_open (iteration, 0, NULL);
  GFile *files[3];
  OviWindow *opened[2];
  GList *windows;
  guint before = g_list_length (gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)));
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
  g_application_open (G_APPLICATION (ovi_test_app), files, 3, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (ovi_test_app));
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
      ovi_test_wait_finalized (opened[i], TRUE);
    }
  for (guint i = 0; i < 3; i++)
    g_object_unref (files[i]);
}

static void
test_screenshots (Fixture *f, gconstpointer data)
{
  GtkWidget *window = GTK_WIDGET (f->window);
  OviTensorView *tensor_view = ovi_window_get_tensor_view (f->window);
  OviIterationsPage *iterations = ovi_window_get_iterations_view (f->window);
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
  resize_to (window, 1560, 940);
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

  ovi_window_show_page (f->window, "iterations");
  ovi_iterations_page_select_op (iterations, most_repeated_op (f->window));
  WAIT_UNTIL (!ovi_iterations_page_get_busy (iterations));
  save_png (window, "iterations.png");

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
    wait_operators_listed (f->window);
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
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (ovi_test_app),
                                                                     expected[i].action);

      g_assert_true (g_strv_contains ((const char *const *) accels, expected[i].accel));
    }
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (f->window)));

  /* Ctrl+F lands in the search field of the overflow table. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL);
  ovi_test_wait_still ();
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
  g_action_group_activate_action (G_ACTION_GROUP (ovi_test_app), "about", NULL);
  WAIT_UNTIL (find_transient_for (GTK_WINDOW (f->window)) != NULL);
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

static void
test_drop_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *example = ovi_application_dup_example_dir ();
  g_autofree char *iteration =
      g_build_filename (example, "20251202101500", "0", "resnet50_train", "11", "4", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (iteration);
  g_autoptr (GPtrArray) rows = NULL;

  if (!g_file_test (iteration, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the example has no iteration folder 4");
      return;
    }
  g_assert_true (drop_files (f->window, &file, 1));

  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  ovi_test_wait_still ();
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
  ovi_test_wait_still ();
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
  ovi_test_wait_still ();
  rows = visible_rows (ovi_window_get_record_view (f->window));
  g_assert_cmpuint (rows->len, ==, 1);
  status = cell (rows, 0, 7);
  g_assert_cmpstr (status, ==, "0x110 FP16+INT");
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
  ovi_test_wait_still ();
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

/* Alt+1…7 show the pages in the switcher's order, Ctrl+Page Down and Up
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
    { "win.show-page(1)", "<Alt>1" },          { "win.show-page(2)", "<Alt>2" },
    { "win.show-page(5)", "<Alt>5" },          { "win.show-page(7)", "<Alt>7" },
    { "win.next-page", "<Control>Page_Down" }, { "win.previous-page", "<Control>Page_Up" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (ovi_test_app),
                                                                     expected[i].action);

      g_assert_true (g_strv_contains ((const char *const *) accels, expected[i].accel));
    }

  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "overflows");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 2);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "operators");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 3);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "graph");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 5);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "timeline");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 6);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "problems");
  /* No seventh page: nothing changes. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 7);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "problems");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 1);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "overflows");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.next-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "operators");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.next-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "graph");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.previous-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "operators");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 1);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.previous-page", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "problems");
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
  wait_operators_listed (f->window);
  collect_row_names (GTK_WIDGET (ovi_window_get_op_view (f->window)), ops);
  g_assert_cmpuint (ops->len, >, 0);
  g_assert_true (names_contain (ops, "Cast gradients/Cast_3, Origin"));

  collect_row_names (GTK_WIDGET (ovi_window_get_sidebar (f->window)), nodes);
  g_assert_true (names_contain (nodes, "Folder example-dump: 8 overflow records"));
  g_assert_true (names_contain (nodes, "Iteration 12: 1 overflow record"));

  /* Labels as read, without their mnemonic underscores. */
  g_assert_cmpstr (stripped, ==, "Abnormal Only a_b");
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
  ovi_application_add_recent (ovi_test_app, with_underscore);
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
  WAIT_UNTIL (ovi_session_get_selected_record (ovi_window_get_session (f->window)) == record);
  ovi_test_wait_still ();
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
  g_autofree char *cli_out = g_build_filename (f->tmpdir, "cli", NULL);
  g_autofree char *example = ovi_application_dup_example_dir ();
  GListModel *tree = ovi_window_get_tree_model (f->window);
  g_autoptr (GPtrArray) written = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) converted = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *iteration_dir = NULL;
  OviTreeNode *iteration = NULL;
  const char *cli = g_getenv ("OVI_CLI");
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
        if (ovi_tree_node_matches (iteration, file) && iteration_dir == NULL)
          iteration_dir = g_strdup (ovi_dump_file_get_relative_dir (file));
      }
  }
  g_assert_cmpuint (expected, >, 2);
  g_assert_nonnull (iteration_dir);

  g_assert_no_errno (g_mkdir (out, 0700));
  ovi_window_export_tensors (f->window, OVI_WINDOW_EXPORT_SELECTION_TENSORS, out);
  {
    g_autofree char *last = NULL;

    WAIT_UNTIL ((g_free (last), last = g_settings_get_string (settings, "last-export-folder"),
                 g_str_equal (last, out)));
  }
  list_files (out, "", written);
  g_ptr_array_sort (written, compare_strings);
  for (guint i = 0; i < written->len; i++)
    g_assert_nonnull (
        strstr (g_ptr_array_index (written, i), G_DIR_SEPARATOR_S "4" G_DIR_SEPARATOR_S));

  /* The same files as `convert` writes for that iteration: its tensors
   * and the vendor JSON of its overflow files, byte for byte. */
  g_assert_nonnull (cli);
  {
    const char *argv[] = { cli, "convert", "-o", cli_out, example, NULL };
    g_autoptr (GError) error = NULL;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                 NULL, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  list_files (cli_out, iteration_dir, converted);
  g_ptr_array_sort (converted, compare_strings);
  g_assert_cmpuint (converted->len, >, expected);
  for (guint i = 0; i < MAX (written->len, converted->len); i++)
    {
      const char *ours = i < written->len ? g_ptr_array_index (written, i) : "(none)";
      const char *theirs = i < converted->len ? g_ptr_array_index (converted, i) : "(none)";
      g_autofree char *ours_path = g_build_filename (out, ours, NULL);
      g_autofree char *theirs_path = g_build_filename (cli_out, theirs, NULL);
      g_autofree char *ours_data = NULL;
      g_autofree char *theirs_data = NULL;
      gsize ours_length, theirs_length;

      g_assert_cmpstr (ours, ==, theirs);
      g_assert_true (g_file_get_contents (ours_path, &ours_data, &ours_length, NULL));
      g_assert_true (g_file_get_contents (theirs_path, &theirs_data, &theirs_length, NULL));
      g_assert_cmpmem (ours_data, ours_length, theirs_data, theirs_length);
    }
  remove_tree (out);
  remove_tree (cli_out);
}

#if !GTK_CHECK_VERSION(4, 10, 0)
/* The mapped file chooser dialog, the fallback GtkFileChooserNative shows
 * outside a sandbox; NULL while there is none. */
static GtkWidget *
shown_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_widget_get_mapped (window))
        return window;
    }
  return NULL;
}
#endif

/* The folder chooser of both "All Tensors" exports says what its button
 * does: it exports into the folder, it does not open it. */
static void
test_export_chooser (Fixture *f, gconstpointer data)
{
#if GTK_CHECK_VERSION(4, 10, 0)
  g_test_skip ("GtkFileDialog shows the desktop's chooser, which the test cannot read");
#else
  const char *actions[] = { "win.export-operator-tensors", "win.export-selection-tensors" };
  OviOverflowRecord *record = find_record (f->window, 272);

  g_assert_true (ovi_window_select_record (f->window, record));
  WAIT_UNTIL (ovi_session_get_selected_record (ovi_window_get_session (f->window)) == record);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      GtkWidget *dialog = NULL;
      GtkWidget *accept;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), actions[i], NULL));
      WAIT_UNTIL ((dialog = shown_file_chooser ()) != NULL);
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      accept = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
      g_assert_nonnull (accept);
      g_test_message ("%s: the chooser's button reads “%s”", actions[i],
                      gtk_button_get_label (GTK_BUTTON (accept)));
      g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (accept)), ==, _ ("_Export"));
      gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
      G_GNUC_END_IGNORE_DEPRECATIONS
      WAIT_UNTIL (shown_file_chooser () == NULL);
    }
#endif
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

  window = g_object_ref_sink (ovi_window_new (ovi_test_app));
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
   * the selection follows the first overflow until the user picks one.
   * Judged once the records are all in and the windows still. */
  ovi_test_wait_still ();
  g_assert_true (ovi_session_get_selected_record (session) == first);

  /* The sidebar: all, then one row per machine, then its devices. */
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
  WAIT_UNTIL (timeline_fed (page));
  ovi_test_wait_still ();
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
  ovi_test_wait_still ();
  g_assert_false (timeline_shows (page, "remote_box"));
  g_assert_true (timeline_shows (page, "show_button"));
  gtk_widget_activate_action (GTK_WIDGET (page), "timeline.show-record", NULL);
  /* The record is selected where it is shown: on the Overflows page. */
  WAIT_UNTIL (page_shown (window, "overflows"));
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
  ovi_test_wait_finalized (g_steal_pointer (&window), TRUE);
  ovi_fixture_remove_tree (dir);
}

/* Readable at any size: the window goes down to 800 px wide with a folder
 * open; there the page switcher moves from the header bar to the bottom. */
static void
test_narrow_window (Fixture *f, gconstpointer data)
{
  OviWindow *window = f->window;
  GtkWidget *bar = GTK_WIDGET (window->switcher_bar);
  const char *pages[] = { "overflows", "operators", "iterations", "timeline", "problems" };
  g_autoptr (OviOverflowRecord) first = NULL;
  int min_width = 0;

  /* On every page, with the first overflow selected. */
  first = g_list_model_get_item (ovi_dump_folder_get_records (ovi_window_get_folder (window)), 0);
  ovi_session_set_selected_record (window->session, first);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      ovi_window_show_page (window, pages[i]);
      WAIT_UNTIL (gtk_widget_get_mapped (adw_view_stack_get_visible_child (window->view_stack)));
      ovi_test_wait_still ();
      gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL,
                          NULL, NULL);
      g_test_message ("minimum window width on %s: %d px", pages[i], min_width);
      g_assert_cmpint (min_width, <=, 800);
    }
  ovi_window_show_page (window, "overflows");
  WAIT_UNTIL (gtk_widget_get_mapped (adw_view_stack_get_visible_child (window->view_stack)));
  ovi_test_wait_still ();

  /* Wide: the switcher is in the header bar, the bottom bar is hidden. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->switcher_title)));
  g_assert_false (adw_view_switcher_bar_get_reveal (window->switcher_bar));

  resize_to (window, 800, 600);
  /* Not pushed wider by what it holds (the default size counts the frame). */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, 760);
  /* Narrow: the header shows the title, the pages are switched at the bottom. */
  WAIT_UNTIL (adw_view_switcher_bar_get_reveal (window->switcher_bar));
  ovi_test_wait_still ();
  g_assert_true (gtk_widget_get_mapped (bar));
  g_assert_cmpint (gtk_widget_get_width (bar), ==, gtk_widget_get_width (GTK_WIDGET (window)));

  /* Back to wide: the bottom bar goes away again. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  WAIT_UNTIL (!adw_view_switcher_bar_get_reveal (window->switcher_bar));
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
    guint64 resident = 0;

    /* No event says when the worker is done: look every 20 ms. */
    WAIT_UNTIL_POLLED ((resident = sysv_resident_kib (largest) * 1024) >= largest, 20);
    g_assert_cmpuint (resident, ==, largest);
  }

  /* A second window reuses the pool. */
  {
    g_autoptr (OviWindow) other = g_object_ref_sink (ovi_window_new (ovi_test_app));

    gtk_window_present (GTK_WINDOW (other));
    /* Laid out and painted, from the pool. */
    WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (other)) &&
                gtk_widget_get_width (GTK_WIDGET (other)) > 0);
    ovi_test_wait_still ();
    g_assert_true (ovi_shm_pool_is_kept (display));
    gtk_window_destroy (GTK_WINDOW (other));
    ovi_test_wait_finalized (g_steal_pointer (&other), TRUE);
  }
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/window/export", test_export);
  g_test_add_func ("/app/window/window-state", test_window_state);
  g_test_add_func ("/app/window/open-several", test_open_several);
  OVI_TEST_ADD ("/app/window/screenshots", test_screenshots);
  OVI_TEST_ADD ("/app/window/shortcuts", test_shortcuts);
  OVI_TEST_ADD ("/app/window/drop-folder", test_drop_folder);
  OVI_TEST_ADD ("/app/window/cancel", test_cancel);
  OVI_TEST_ADD ("/app/window/open-single-file", test_open_single_file);
  OVI_TEST_ADD ("/app/window/cancel-partial", test_cancel_partial);
  OVI_TEST_ADD ("/app/window/page-keys", test_page_keys);
  OVI_TEST_ADD ("/app/window/row-names", test_row_names);
  OVI_TEST_ADD ("/app/window/open-recent", test_open_recent);
  OVI_TEST_ADD ("/app/window/export-all-tensors", test_export_all_tensors);
  OVI_TEST_ADD ("/app/window/export-selection-tensors", test_export_selection_tensors);
  OVI_TEST_ADD ("/app/window/export-chooser", test_export_chooser);
  g_test_add_func ("/app/window/several-folders", test_several_folders);
  OVI_TEST_ADD ("/app/window/narrow-window", test_narrow_window);
  OVI_TEST_ADD ("/app/window/shm-pool", test_shm_pool);
  return ovi_test_run ();
}
