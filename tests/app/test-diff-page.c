/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The Diff page, on two runs written by the fixture writer (my Add differs
 * from the golden one at 12, 300 and 777): opened as `overflow-inspector
 * --diff MINE GOLDEN` does, it names the first divergence, selects and
 * marks its row, classes the operators, shows the pair's top difference
 * with its coordinates, and its filters narrow the table. */

typedef struct
{
  char *root;
  char *mine, *golden;
  OviWindow *window;
} DiffFixture;

static void
diff_setup (DiffFixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->root = g_dir_make_tmp ("ovi-diff-page-XXXXXX", &error);
  g_assert_no_error (error);
  ovi_fixture_write_diff_runs (f->root);
  f->mine = g_build_filename (f->root, "mine", NULL);
  f->golden = g_build_filename (f->root, "golden", NULL);
}

static void
diff_teardown (DiffFixture *f, gconstpointer data)
{
  if (f->window != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (f->window));
      ovi_test_wait_finalized (g_steal_pointer (&f->window), TRUE);
    }
  ovi_test_wait_still ();
  ovi_fixture_remove_tree (f->root);
  g_free (f->root);
  g_free (f->mine);
  g_free (f->golden);
}

/* What `overflow-inspector --diff MINE GOLDEN` hands the application. */
static OviWindow *
open_diff (const char *mine, const char *golden)
{
  GList *before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)));
  GFile *files[2] = { g_file_new_for_path (mine), g_file_new_for_path (golden) };
  OviWindow *window = NULL;

  g_application_open (G_APPLICATION (ovi_test_app), files, 2, "diff");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)); l; l = l->next)
    if (g_list_find (before, l->data) == NULL)
      window = g_object_ref (l->data);
  g_list_free (before);
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  g_assert_nonnull (window);
  return window;
}

static OviDiffState *
diff_state (OviWindow *window)
{
  return ovi_session_get_diff (ovi_window_get_session (window));
}

static OviDiffOperator *
selected_op (OviDiffPage *page)
{
  GtkSelectionModel *model = gtk_column_view_get_model (ovi_diff_page_get_column_view (page));

  return gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model));
}

static guint
n_rows (OviDiffPage *page)
{
  return g_list_model_get_n_items (
      G_LIST_MODEL (gtk_column_view_get_model (ovi_diff_page_get_column_view (page))));
}

static void
wait_result (OviWindow *window)
{
  OviDiffPage *page = ovi_window_get_diff_page (window);

  WAIT_UNTIL (ovi_diff_state_get_result (diff_state (window)) != NULL);
  WAIT_UNTIL (page_shown (window, "diff") && gtk_widget_get_mapped (GTK_WIDGET (page)));
  WAIT_UNTIL (n_visible_rows (ovi_diff_page_get_column_view (page)) == n_rows (page));
  ovi_test_wait_still ();
}

static void
test_first_divergence (DiffFixture *f, gconstpointer data)
{
  OviDiffPage *page;
  OviDiffPairView *pair_view;
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *top = NULL;
  OviDiffOperator *first;
  gboolean marked = FALSE;

  f->window = open_diff (f->mine, f->golden);
  resize_to (f->window, 1280, 900);
  page = ovi_window_get_diff_page (f->window);
  pair_view = ovi_diff_page_get_pair_view (page);
  wait_result (f->window);

  /* Named at the top, with its tensor, the count and where it starts. */
  g_assert_cmpstr (ovi_diff_page_get_first_divergence_text (page), ==,
                   "First divergence: net/Add (origin): output 0, 3 of 1,024 elements out of "
                   "tolerance, first at 12 (0, 12)");
  g_assert_nonnull (
      find_label_with_text (GTK_WIDGET (page), ovi_diff_page_get_first_divergence_text (page)));

  /* Selected when the result arrives, and marked for screen readers. */
  first = ovi_diff_result_get_first_divergence (ovi_diff_state_get_result (diff_state (f->window)));
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, OVI_DIFF_FIXTURE_FIRST);
  g_assert_true (selected_op (page) == first);
  collect_row_names (GTK_WIDGET (ovi_diff_page_get_column_view (page)), names);
  for (guint i = 0; i < names->len; i++)
    {
      g_test_message ("row: %s", (char *) g_ptr_array_index (names, i));
      if (g_str_has_prefix (g_ptr_array_index (names, i), "First divergence"))
        {
          g_assert_cmpstr (g_ptr_array_index (names, i), ==,
                           "First divergence, 3: Add net/Add, origin");
          marked = TRUE;
        }
    }
  g_assert_true (marked);

  /* Run order, and the class column. */
  rows = visible_rows (ovi_diff_page_get_column_view (page));
  g_assert_cmpuint (rows->len, ==, 7);
  {
    const char *expected[][2] = {
      { "net/Conv", "within tolerance" },
      { "net/MatMul", "identical" },
      { "net/Add", "origin" },
      { "net/Relu", "propagated" },
      { "net/Select", "absorbed" },
      { "net/Cast", "identical" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      {
        g_autofree char *name = cell (rows, i, 1);
        g_autofree char *op_class = cell (rows, i, 3);

        g_test_message ("%s", (char *) g_ptr_array_index (rows, i));
        g_assert_cmpstr (name, ==, expected[i][0]);
        g_assert_cmpstr (op_class, ==, expected[i][1]);
      }
  }
  {
    g_autofree char *dropout = cell (rows, 6, 1);
    g_autofree char *op_class = cell (rows, 6, 3);

    g_assert_cmpstr (dropout, ==, "net/Dropout");
    g_assert_cmpstr (op_class, ==, "only in the golden run");
  }

  /* The pair view: the largest difference first, in logical coordinates,
   * and both histograms once core read the pair. */
  g_assert_true (ovi_diff_pair_view_get_operator (pair_view) == first);
  top = ovi_diff_pair_view_dup_top_text (pair_view, 0);
  g_assert_nonnull (top);
  g_assert_true (g_str_has_prefix (top, "1. 300 (2, 44): mine "));
  g_assert_true (g_str_has_suffix (top, ", difference 2"));
  g_assert_nonnull (find_label_with_text (GTK_WIDGET (pair_view), top));
  WAIT_UNTIL (ovi_diff_pair_view_get_pair (pair_view) != NULL);
  {
    const OviDiffPair *pair = ovi_diff_pair_view_get_pair (pair_view);
    OviHistogramView *values =
        template_child (pair_view, OVI_TYPE_DIFF_PAIR_VIEW, "values_histogram");
    OviHistogramView *differences =
        template_child (pair_view, OVI_TYPE_DIFF_PAIR_VIEW, "difference_histogram");

    g_assert_cmpuint (pair->out_of_tolerance, ==, 3);
    g_assert_cmpuint (ovi_histogram_view_get_n_series (values), ==, 2);
    g_assert_cmpuint (ovi_histogram_view_get_n_series (differences), ==, 1);
  }
}

static void
test_filters (DiffFixture *f, gconstpointer data)
{
  OviDiffPage *page;
  GtkEditable *search;
  GtkToggleButton *divergent;

  f->window = open_diff (f->mine, f->golden);
  resize_to (f->window, 1280, 900);
  page = ovi_window_get_diff_page (f->window);
  wait_result (f->window);
  search = template_child (page, OVI_TYPE_DIFF_PAGE, "op_search");
  divergent = template_child (page, OVI_TYPE_DIFF_PAGE, "divergent_toggle");
  g_assert_cmpuint (n_rows (page), ==, 7);

  /* Only the operators whose outputs differ: the origin and Relu. */
  gtk_toggle_button_set_active (divergent, TRUE);
  WAIT_UNTIL (n_rows (page) == 2);
  ovi_test_wait_still ();
  {
    g_autoptr (GPtrArray) rows = visible_rows (ovi_diff_page_get_column_view (page));
    g_autofree char *a = cell (rows, 0, 1), *b = cell (rows, 1, 1);

    g_assert_cmpstr (a, ==, "net/Add");
    g_assert_cmpstr (b, ==, "net/Relu");
  }
  gtk_toggle_button_set_active (divergent, FALSE);
  WAIT_UNTIL (n_rows (page) == 7);

  /* Ctrl+F on this page searches this page's table. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL);
  WAIT_UNTIL (focus_inside (f->window, search));
  g_assert_true (page_shown (f->window, "diff"));

  /* The search matches the name or the type. */
  gtk_editable_set_text (search, "matmul");
  WAIT_UNTIL (n_rows (page) == 1);
  ovi_test_wait_still ();
  {
    g_autoptr (GPtrArray) rows = visible_rows (ovi_diff_page_get_column_view (page));
    g_autofree char *a = cell (rows, 0, 1);

    g_assert_cmpstr (a, ==, "net/MatMul");
  }
  gtk_editable_set_text (search, "");
  WAIT_UNTIL (n_rows (page) == 7);
}

static gboolean
selected_file_is (OviWindow *window, const char *path)
{
  OviDumpFile *file = ovi_session_get_selected_file (ovi_window_get_session (window));

  return file != NULL && g_strcmp0 (ovi_dump_file_get_path (file), path) == 0;
}

/* "Show" on my side opens the tensor on the Operators page of this
 * window; on the golden side, the golden run's file in a window of its
 * own, on the same tensor. */
static void
test_show (DiffFixture *f, gconstpointer data)
{
  OviDiffPairView *pair_view;
  GtkGrid *grid;
  const OviDiffPair *pair;
  GList *before;
  OviWindow *golden_window = NULL;
  g_autofree char *mine_path = NULL, *golden_path = NULL;

  f->window = open_diff (f->mine, f->golden);
  resize_to (f->window, 1280, 900);
  wait_result (f->window);
  pair_view = ovi_diff_page_get_pair_view (ovi_window_get_diff_page (f->window));
  WAIT_UNTIL (ovi_diff_pair_view_get_pair (pair_view) != NULL);
  ovi_test_wait_still ();
  pair = ovi_diff_pair_view_get_pair (pair_view);
  mine_path = g_strdup (pair->mine.path);
  golden_path = g_strdup (pair->golden.path);
  g_assert_true (g_str_has_prefix (mine_path, f->mine));
  g_assert_true (g_str_has_prefix (golden_path, f->golden));
  grid = template_child (pair_view, OVI_TYPE_DIFF_PAIR_VIEW, "stats_grid");

  /* Mine: the Add's output 0 (its second tensor) on the Operators page. */
  g_assert_true (gtk_widget_activate (gtk_grid_get_child_at (grid, 7, 1)));
  WAIT_UNTIL (page_shown (f->window, "operators") && selected_file_is (f->window, mine_path));
  g_assert_cmpuint (pair->mine.position, ==, 1);

  /* Golden: a window of its own, on the golden Add. */
  before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)));
  g_assert_true (gtk_widget_activate (gtk_grid_get_child_at (grid, 7, 2)));
  WAIT_UNTIL (g_list_length (gtk_application_get_windows (GTK_APPLICATION (ovi_test_app))) >
              g_list_length (before));
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)); l; l = l->next)
    if (g_list_find (before, l->data) == NULL)
      golden_window = g_object_ref (l->data);
  g_list_free (before);
  g_assert_nonnull (golden_window);
  WAIT_UNTIL (page_shown (golden_window, "operators") &&
              selected_file_is (golden_window, golden_path));
  gtk_window_destroy (GTK_WINDOW (golden_window));
  ovi_test_wait_finalized (golden_window, TRUE);
}

/* A file of the golden run that cannot be read is listed under the
 * problems, by name; the rest is compared. */
static void
test_problems (DiffFixture *f, gconstpointer data)
{
  g_autofree char *broken =
      g_build_filename (f->golden, "0", "model", "1", "Mul.net_Mul.9.7.1764670500000900", NULL);
  GtkExpander *expander;
  GtkLabel *label;

  g_assert_true (g_file_set_contents (broken, "\x10\0\0\0\0\0\0\0trunc", 13, NULL));
  f->window = open_diff (f->mine, f->golden);
  wait_result (f->window);
  expander = template_child (ovi_window_get_diff_page (f->window), OVI_TYPE_DIFF_PAGE,
                             "problems_expander");
  label =
      template_child (ovi_window_get_diff_page (f->window), OVI_TYPE_DIFF_PAGE, "problems_label");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (expander)));
  g_assert_cmpstr (gtk_expander_get_label (expander), ==, "1 problem");
  g_test_message ("%s", gtk_label_get_text (label));
  g_assert_nonnull (strstr (gtk_label_get_text (label), "Mul.net_Mul.9.7.1764670500000900"));
  g_assert_cmpstr (ovi_diff_operator_get_name (ovi_diff_result_get_first_divergence (
                       ovi_diff_state_get_result (diff_state (f->window)))),
                   ==, OVI_DIFF_FIXTURE_FIRST);
}

static gboolean
menu_has_action (GMenuModel *menu, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (menu, i);
      GMenuModel *linked;
      gboolean found = FALSE;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_str_equal (name, action))
        return TRUE;
      while (!found && g_menu_link_iter_get_next (links, NULL, &linked))
        {
          found = menu_has_action (linked, action);
          g_object_unref (linked);
        }
      if (found)
        return TRUE;
    }
  return FALSE;
}

/* From a window showing a run, as the main menu's "Diff With Another
 * Run…" does once a folder is chosen; opening another folder ends the
 * comparison and hides the page. */
static void
test_diff_with (DiffFixture *f, gconstpointer data)
{
  g_autoptr (GFile) mine = g_file_new_for_path (f->mine);
  g_autoptr (GFile) golden = g_file_new_for_path (f->golden);
  AdwViewStackPage *page;

  f->window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  resize_to (f->window, 1280, 900);
  g_assert_true (menu_has_action (ovi_window_get_main_menu (f->window), "win.diff-with"));
  ovi_window_open_file (f->window, mine);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_false (ovi_diff_state_get_active (diff_state (f->window)));
  page = adw_view_stack_get_page (f->window->view_stack,
                                  GTK_WIDGET (ovi_window_get_diff_page (f->window)));
  g_assert_false (adw_view_stack_page_get_visible (page));

  ovi_window_diff_with (f->window, golden);
  g_assert_true (ovi_diff_state_get_active (diff_state (f->window)));
  wait_result (f->window);
  g_assert_true (adw_view_stack_page_get_visible (page));

  /* F5 keeps the comparison; another folder ends it. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_nonnull (ovi_diff_state_get_result (diff_state (f->window)));
  ovi_window_open_file (f->window, golden);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_false (ovi_diff_state_get_active (diff_state (f->window)));
  g_assert_false (adw_view_stack_page_get_visible (page));
}

/* With the Diff page the switcher has six pages: Alt+6 reaches the last. */
static void
test_page_keys (DiffFixture *f, gconstpointer data)
{
  g_auto (GStrv) accels = NULL;

  f->window = open_diff (f->mine, f->golden);
  wait_result (f->window);
  accels =
      gtk_application_get_accels_for_action (GTK_APPLICATION (ovi_test_app), "win.show-page(6)");
  g_assert_true (g_strv_contains ((const char *const *) accels, "<Alt>6"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 6);
  g_assert_true (page_shown (f->window, "problems"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 5);
  g_assert_true (page_shown (f->window, "diff"));
}

static gboolean
toast_contains (OviWindow *window, const char *text)
{
  g_autofree char *toast = toast_text (window);

  return strstr (toast, text) != NULL;
}

/* A golden run that does not exist: nothing starts, and the error names it. */
static void
test_missing_golden (DiffFixture *f, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (f->root, "no-such-run", NULL);

  f->window = open_diff (f->mine, missing);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_false (ovi_diff_state_get_active (diff_state (f->window)));
  WAIT_UNTIL (toast_contains (f->window, missing));
}

/* With OVI_SCREENSHOT_DIR set (tests/app/take-screenshots.sh), the page
 * as the README shows it: diff.png, or diff-LANGUAGE.png under LANGUAGE. */
static void
test_screenshot (DiffFixture *f, gconstpointer data)
{
  const char *dir = g_getenv ("OVI_SCREENSHOT_DIR");
  const char *language = g_getenv ("LANGUAGE");
  g_autofree char *name = NULL, *path = NULL;
  OviDiffPairView *pair_view;

  if (dir == NULL)
    {
      g_test_skip ("OVI_SCREENSHOT_DIR is not set");
      return;
    }
  f->window = open_diff (f->mine, f->golden);
  resize_to (f->window, 1560, 1000);
  wait_result (f->window);
  pair_view = ovi_diff_page_get_pair_view (ovi_window_get_diff_page (f->window));
  WAIT_UNTIL (ovi_diff_pair_view_get_pair (pair_view) != NULL);
  name = language != NULL && *language != '\0' ? g_strdup_printf ("diff-%s.png", language)
                                               : g_strdup ("diff.png");
  path = g_build_filename (dir, name, NULL);
  ovi_test_wait_still ();
  save_widget_png (GTK_WIDGET (f->window), path);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add ("/app/diff-page/first-divergence", DiffFixture, NULL, diff_setup,
              test_first_divergence, diff_teardown);
  g_test_add ("/app/diff-page/filters", DiffFixture, NULL, diff_setup, test_filters, diff_teardown);
  g_test_add ("/app/diff-page/diff-with", DiffFixture, NULL, diff_setup, test_diff_with,
              diff_teardown);
  g_test_add ("/app/diff-page/show", DiffFixture, NULL, diff_setup, test_show, diff_teardown);
  g_test_add ("/app/diff-page/problems", DiffFixture, NULL, diff_setup, test_problems,
              diff_teardown);
  g_test_add ("/app/diff-page/page-keys", DiffFixture, NULL, diff_setup, test_page_keys,
              diff_teardown);
  g_test_add ("/app/diff-page/missing-golden", DiffFixture, NULL, diff_setup, test_missing_golden,
              diff_teardown);
  g_test_add ("/app/diff-page/screenshot", DiffFixture, NULL, diff_setup, test_screenshot,
              diff_teardown);
  return ovi_test_run ();
}
