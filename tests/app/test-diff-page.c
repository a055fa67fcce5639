/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-fixture-net.h"
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

  /* Named at the top in core's headline, as the CLI names it. */
  g_assert_cmpstr (ovi_diff_page_get_first_divergence_text (page), ==,
                   "First divergence: #2 Add net/Add, the origin: its inputs agree and output 0 "
                   "differs.");
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
                           "First divergence, 2: Add net/Add, origin");
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
    /* A difference has no largest finite value: no ±max bins. */
    {
      g_autoptr (GPtrArray) labels = ovi_histogram_view_get_axis_labels (differences);

      g_assert_cmpuint (labels->len, >, 0);
      for (guint i = 0; i < labels->len; i++)
        {
          OviAxisLabel *label = g_ptr_array_index (labels, i);

          g_assert_cmpstr (label->text, !=, "−max");
          g_assert_cmpstr (label->text, !=, "+max");
        }
    }
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
  g_assert_true (menu_has_action (ovi_window_get_main_menu (f->window), "win.diff-with-file"));
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
  /* The diff runs again on the folder read again: once that scan is
   * over, not before, so its result comes after the window's scan. */
  g_assert_true (ovi_diff_state_get_active (diff_state (f->window)));
  WAIT_UNTIL (ovi_diff_state_get_result (diff_state (f->window)) != NULL);
  /* The choosers start beside mine, where the golden run usually is. */
  {
    g_autoptr (GFile) start = ovi_window_get_golden_start (f->window);
    g_autoptr (GFile) root = g_file_new_for_path (f->root);

    g_assert_true (g_file_equal (start, root));
  }

  /* One golden dump file, as "Diff With a Dump File…" gives it. */
  {
    g_autofree char *add =
        g_build_filename (f->golden, "0", "model", "1", "Add.net_Add.3.7.1764670500000300", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (add);
    OviDiffResult *result;

    ovi_window_diff_with (f->window, file);
    WAIT_UNTIL (!ovi_diff_state_get_running (diff_state (f->window)));
    result = ovi_diff_state_get_result (diff_state (f->window));
    g_test_message ("%s", ovi_diff_state_get_error (diff_state (f->window)));
    g_assert_nonnull (result);
    g_assert_cmpstr (ovi_diff_result_get_golden_path (result), ==, add);
  }

  ovi_window_open_file (f->window, golden);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  g_assert_false (ovi_diff_state_get_active (diff_state (f->window)));
  g_assert_false (adw_view_stack_page_get_visible (page));
}

/* With the Diff page the switcher has seven pages: Alt+7 reaches the last. */
static void
test_page_keys (DiffFixture *f, gconstpointer data)
{
  g_auto (GStrv) accels = NULL;

  f->window = open_diff (f->mine, f->golden);
  wait_result (f->window);
  accels =
      gtk_application_get_accels_for_action (GTK_APPLICATION (ovi_test_app), "win.show-page(7)");
  g_assert_true (g_strv_contains ((const char *const *) accels, "<Alt>7"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 7);
  g_assert_true (page_shown (f->window, "problems"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 6);
  g_assert_true (page_shown (f->window, "diff"));
  /* The keyboard goes with the page, not to the header's tabs. */
  WAIT_UNTIL (focus_inside (f->window, ovi_window_get_diff_page (f->window)));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (f->window->sidebar_button)));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 1);
  WAIT_UNTIL (focus_inside (f->window, adw_view_stack_get_visible_child (f->window->view_stack)));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (f->window->sidebar_button)));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.next-page", NULL);
  WAIT_UNTIL (focus_inside (f->window, adw_view_stack_get_visible_child (f->window->view_stack)));
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
  ovi_fixture_write_diff_overflow (f->root);
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

/* --- a 1,000-operator result ---------------------------------------------- */

#define BIG_N 1000
#define BIG_FIRST 882 /* position of the first divergence */

/* Two runs of 1,000 small operators that agree up to the 883rd, where mine
 * starts to differ; every later one passes it on. */
static void
write_big_runs (const char *root)
{
  const guint64 shape[] = { 4 };

  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *dir =
          g_build_filename (root, side == 0 ? "mine" : "golden", "0", "model", "1", NULL);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      for (guint i = 0; i < BIG_N; i++)
        {
          g_autofree char *name = g_strdup_printf ("net/layer%04u", i);
          double off_in = side == 0 && i > BIG_FIRST ? 1 : 0;
          double off_out = side == 0 && i >= BIG_FIRST ? 1 : 0;
          double in[] = { i + off_in, 1, 2, 3 }, out[] = { i + 1 + off_out, 2, 3, 4 };

          ovi_fixture_write_op (dir, "Add", name, i + 1, OVI_DTYPE_FLOAT32, shape, 1, in, out);
        }
    }
}

/* The mapped row showing the first divergence, or NULL. */
static GtkWidget *
first_row (OviDiffPage *page)
{
  GtkColumnView *view = ovi_diff_page_get_column_view (page);
  g_autoptr (GPtrArray) found = g_ptr_array_new ();

  find_by_type_name (GTK_WIDGET (view), "OviAccessibleRow", found);
  for (guint i = 0; i < found->len; i++)
    {
      GtkWidget *cell = g_ptr_array_index (found, i);
      g_autofree char *label = NULL;

      g_object_get (cell, "label", &label, NULL);
      if (gtk_widget_get_mapped (cell) && label && g_str_has_prefix (label, "First divergence"))
        return cell;
    }
  return NULL;
}

/* Whether @widget lies wholly inside the table's scrolled window. */
static gboolean
in_view (OviDiffPage *page, GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (ovi_diff_page_get_column_view (page)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  if (widget == NULL || !gtk_widget_compute_bounds (widget, scrolled, &bounds))
    return FALSE;
  return bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scrolled);
}

/* As many rows are laid out as the table's view holds (not just row 1). */
static gboolean
table_full (OviDiffPage *page)
{
  GtkWidget *row = first_row (page);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (ovi_diff_page_get_column_view (page)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  guint n = n_visible_rows (ovi_diff_page_get_column_view (page));

  while (row != NULL && !GTK_IS_LIST_VIEW (gtk_widget_get_parent (row)))
    row = gtk_widget_get_parent (row);

  g_test_message ("%u rows laid out in %d px", n, gtk_widget_get_height (scrolled));
  return row != NULL &&
         n >= (guint) (gtk_widget_get_height (scrolled) / gtk_widget_get_height (row)) - 1;
}

/* The first divergence's row has the keyboard. */
static gboolean
first_focused (OviWindow *window)
{
  GtkWidget *row = first_row (ovi_window_get_diff_page (window));
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return row != NULL && focus != NULL && gtk_widget_is_ancestor (row, focus);
}

/* The table is drawn as soon as the result arrives, the first divergence
 * (row 883) selected, in view and focused once the page is shown; also
 * when the result arrives while another page is shown. */
static void
test_big_table (DiffFixture *f, gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->root, "big", NULL);
  g_autofree char *mine = g_build_filename (root, "mine", NULL);
  g_autofree char *golden = g_build_filename (root, "golden", NULL);
  g_autoptr (GFile) golden_file = g_file_new_for_path (golden);
  OviDiffPage *page;

  write_big_runs (root);
  f->window = open_diff (mine, golden);
  resize_to (f->window, 1200, 800);
  page = ovi_window_get_diff_page (f->window);
  WAIT_UNTIL (ovi_diff_state_get_result (diff_state (f->window)) != NULL);
  g_assert_cmpuint (n_rows (page), ==, BIG_N);
  g_assert_cmpuint (ovi_diff_operator_get_position (selected_op (page)), ==, BIG_FIRST);
  WAIT_UNTIL (page_shown (f->window, "diff") && first_focused (f->window));
  g_assert_true (in_view (page, first_row (page)));
  g_assert_true (table_full (page));

  /* Again, the result arriving while the Operators page is shown. */
  ovi_diff_state_start (diff_state (f->window), mine, golden);
  ovi_window_show_page (f->window, "operators");
  WAIT_UNTIL (ovi_diff_state_get_result (diff_state (f->window)) != NULL);
  ovi_test_wait_still ();
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "i", 6);
  g_assert_true (page_shown (f->window, "diff"));
  WAIT_UNTIL (first_focused (f->window));
  g_assert_true (in_view (page, first_row (page)));
  g_assert_true (table_full (page));
}

/* Whether the row of net/Add shows @text among its cells. */
static gboolean
add_row_shows (OviDiffPage *page, const char *text)
{
  g_autoptr (GPtrArray) rows = visible_rows (ovi_diff_page_get_column_view (page));

  for (guint i = 0; i < rows->len; i++)
    if (strstr (g_ptr_array_index (rows, i), "|net/Add|") != NULL)
      {
        g_test_message ("%s", (char *) g_ptr_array_index (rows, i));
        return strstr (g_ptr_array_index (rows, i), text) != NULL;
      }
  return FALSE;
}

/* Escape cancels the diff; the page offers Retry, which runs it again;
 * F5 runs it again with the same settings. */
static void
test_retry (DiffFixture *f, gconstpointer data)
{
  OviDiffPage *page;
  GtkWidget *retry;
  OviDiffResult *before;

  f->window = open_diff (f->mine, f->golden);
  page = ovi_window_get_diff_page (f->window);
  retry = template_child (page, OVI_TYPE_DIFF_PAGE, "retry_button");
  g_assert_true (ovi_diff_state_get_running (diff_state (f->window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.cancel", NULL));
  g_assert_false (ovi_diff_state_get_running (diff_state (f->window)));
  g_assert_cmpstr (ovi_diff_state_get_error (diff_state (f->window)), ==,
                   "The comparison was cancelled");
  WAIT_UNTIL (gtk_widget_get_mapped (retry));
  g_signal_emit_by_name (retry, "clicked");
  g_assert_true (ovi_diff_state_get_running (diff_state (f->window)));
  wait_result (f->window);

  /* F5, with the tolerance set in the popover. */
  ovi_diff_state_set_settings (diff_state (f->window), 0, 1.5, NULL);
  wait_result (f->window);
  before = ovi_diff_state_get_result (diff_state (f->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.reload", NULL));
  g_assert_true (ovi_diff_state_get_running (diff_state (f->window)));
  wait_result (f->window);
  g_assert_true (ovi_diff_state_get_result (diff_state (f->window)) != before);
  g_assert_cmpfloat (ovi_diff_state_get_atol (diff_state (f->window)), ==, 1.5);
  g_assert_true (add_row_shows (page, "|1 / 1,024|"));
}

static void
click_apply (OviDiffPage *page, const char *rtol, const char *atol, const char *map)
{
  gtk_editable_set_text (template_child (page, OVI_TYPE_DIFF_PAGE, "rtol_entry"), rtol);
  gtk_editable_set_text (template_child (page, OVI_TYPE_DIFF_PAGE, "atol_entry"), atol);
  gtk_editable_set_text (template_child (page, OVI_TYPE_DIFF_PAGE, "map_entry"), map);
  g_signal_emit_by_name (template_child (page, OVI_TYPE_DIFF_PAGE, "apply_button"), "clicked");
}

static char *
read_file (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&contents);
}

/* The popover's tolerance re-runs the diff and shows in the header; a
 * wrong number is refused with a message; a map file that is not there is
 * named; the exports are what `diff --json` / `--csv` write for the same
 * settings, byte for byte. */
static void
test_settings_export (DiffFixture *f, gconstpointer data)
{
  g_autofree char *json = g_build_filename (f->root, "page.json", NULL);
  g_autofree char *csv = g_build_filename (f->root, "page.csv", NULL);
  g_autofree char *cli_csv = g_build_filename (f->root, "cli.csv", NULL);
  g_autofree char *missing = g_build_filename (f->root, "no-such-map.txt", NULL);
  g_autofree char *out = NULL, *page_json = NULL, *page_csv = NULL, *want_csv = NULL;
  g_autoptr (GError) error = NULL;
  OviDiffPage *page;
  GtkLabel *settings, *problem;

  f->window = open_diff (f->mine, f->golden);
  resize_to (f->window, 1280, 900);
  wait_result (f->window);
  page = ovi_window_get_diff_page (f->window);
  settings = template_child (page, OVI_TYPE_DIFF_PAGE, "settings_label");
  problem = template_child (page, OVI_TYPE_DIFF_PAGE, "settings_error");
  g_assert_cmpstr (gtk_label_get_text (settings), ==,
                   "Relative tolerance by dtype, absolute tolerance by dtype, no map");

  click_apply (page, "abc", "", "");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (problem)));
  g_assert_cmpstr (gtk_label_get_text (problem), ==,
                   "Relative tolerance: “abc” is not a number of at least 0");
  g_assert_false (ovi_diff_state_get_running (diff_state (f->window)));

  click_apply (page, "0", "1.5", "");
  g_assert_true (ovi_diff_state_get_running (diff_state (f->window)));
  wait_result (f->window);
  g_assert_cmpstr (gtk_label_get_text (settings), ==,
                   "Relative tolerance 0, absolute tolerance 1.5, no map");
  g_assert_true (add_row_shows (page, "|1 / 1,024|"));

  g_assert_true (ovi_diff_page_export (page, FALSE, json, &error));
  g_assert_no_error (error);
  g_assert_true (ovi_diff_page_export (page, TRUE, csv, &error));
  g_assert_no_error (error);
  ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", "--json", "--rtol", "0", "--atol", "1.5",
                          f->mine, f->golden, NULL);
  page_json = read_file (json);
  g_assert_cmpstr (page_json, ==, out);
  /* Its text, on standard output, kept out of the test's own output. */
  g_clear_pointer (&out, g_free);
  ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", "--csv", cli_csv, "--rtol", "0", "--atol",
                          "1.5", f->mine, f->golden, NULL);
  g_assert_true (g_str_has_prefix (out, "Pairs:"));
  page_csv = read_file (csv);
  want_csv = read_file (cli_csv);
  g_assert_cmpstr (page_csv, ==, want_csv);

  /* Never into a run's folder. */
  {
    g_autofree char *inside = g_build_filename (f->mine, "diff.csv", NULL);

    g_assert_false (ovi_diff_page_export (page, TRUE, inside, &error));
    g_assert_nonnull (error);
    g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
    g_clear_error (&error);
  }

  /* A map file that is not there: the page names it, and offers Retry. */
  click_apply (page, "0", "1.5", missing);
  WAIT_UNTIL (!ovi_diff_state_get_running (diff_state (f->window)));
  g_assert_null (ovi_diff_state_get_result (diff_state (f->window)));
  g_test_message ("%s", ovi_diff_state_get_error (diff_state (f->window)));
  g_assert_nonnull (strstr (ovi_diff_state_get_error (diff_state (f->window)), "no-such-map.txt"));
  WAIT_UNTIL (gtk_widget_get_mapped (template_child (page, OVI_TYPE_DIFF_PAGE, "retry_button")));
  g_assert_nonnull (strstr (gtk_label_get_text (settings), missing));
}

/* An overflow record in my run only: the page lists it as the CLI does,
 * and its name leads to the operator's row. */
static void
test_overflows (DiffFixture *f, gconstpointer data)
{
  OviDiffPage *page;
  GtkLabel *label;
  OviDiffOperator *add;

  ovi_fixture_write_diff_overflow (f->root);
  f->window = open_diff (f->mine, f->golden);
  resize_to (f->window, 1280, 900);
  wait_result (f->window);
  page = ovi_window_get_diff_page (f->window);
  label = template_child (page, OVI_TYPE_DIFF_PAGE, "overflows_label");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (label)));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "Overflows only in my run: net/Add");

  /* The link selects the operator, even past a filter that hid it. */
  add = selected_op (page);
  gtk_single_selection_set_selected (
      GTK_SINGLE_SELECTION (gtk_column_view_get_model (ovi_diff_page_get_column_view (page))), 0);
  gtk_editable_set_text (GTK_EDITABLE (template_child (page, OVI_TYPE_DIFF_PAGE, "op_search")),
                         "Conv");
  WAIT_UNTIL (n_rows (page) == 1);
  g_signal_emit_by_name (label, "activate-link", "2", &(gboolean){ FALSE });
  g_assert_true (selected_op (page) == add);
  g_assert_cmpstr (ovi_diff_operator_get_name (add), ==, "net/Add");
}

/* The sidebar node labelled @label (the tree as the sidebar lists it). */
static OviTreeNode *
tree_node (OviWindow *window, const char *label)
{
  GListModel *tree = ovi_window_get_tree_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);

      if (g_str_equal (ovi_tree_node_get_label (node), label))
        return node;
    }
  return NULL;
}

/* Two devices in each run: the Device column shows, and a device chosen
 * in the sidebar narrows the table to its operators, as on the Overflows
 * page. */
static void
test_devices (DiffFixture *f, gconstpointer data)
{
  g_autofree char *mine = g_build_filename (f->root, "devices", "mine", NULL);
  g_autofree char *golden = g_build_filename (f->root, "devices", "golden", NULL);
  OviDiffPage *page;
  OviSession *session;
  GtkColumnViewColumn *device_column;
  g_autoptr (GPtrArray) rows = NULL;

  /* The fixture's runs, as devices 0 and 1 of one dump each. */
  for (guint device = 0; device < 2; device++)
    {
      g_autofree char *copy = g_strdup_printf ("%s/copy%u", f->root, device);

      ovi_fixture_write_diff_runs (copy);
      for (guint side = 0; side < 2; side++)
        {
          const char *run = side == 0 ? "mine" : "golden";
          g_autofree char *from = g_build_filename (copy, run, "0", "model", "1", NULL);
          g_autofree char *parent =
              g_strdup_printf ("%s/devices/%s/20261207120000/%u/net/1", f->root, run, device);
          g_autofree char *to = g_build_filename (parent, "0", NULL);

          g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
          g_assert_cmpint (g_rename (from, to), ==, 0);
        }
    }
  f->window = open_diff (mine, golden);
  resize_to (f->window, 1280, 900);
  WAIT_UNTIL (ovi_diff_state_get_result (diff_state (f->window)) != NULL);
  WAIT_UNTIL (first_focused (f->window));
  page = ovi_window_get_diff_page (f->window);
  session = ovi_window_get_session (f->window);
  g_assert_cmpuint (n_rows (page), ==, 14);
  device_column = template_child (page, OVI_TYPE_DIFF_PAGE, "device_column");
  WAIT_UNTIL (gtk_column_view_column_get_visible (device_column));

  WAIT_UNTIL (tree_node (f->window, "Device 1") != NULL);
  ovi_session_set_selected_node (session, tree_node (f->window, "Device 1"));
  /* My six operators of device 1; the golden run's Dropout is not mine. */
  WAIT_UNTIL (n_rows (page) == 6);
  ovi_test_wait_still ();
  rows = visible_rows (ovi_diff_page_get_column_view (page));
  for (guint i = 0; i < rows->len; i++)
    {
      g_test_message ("%s", (char *) g_ptr_array_index (rows, i));
      g_assert_nonnull (strstr (g_ptr_array_index (rows, i), "|1|"));
    }
  ovi_session_set_selected_node (session, NULL);
  WAIT_UNTIL (n_rows (page) == 14);
}

/* Statistics-mode runs (issue 36): the MLP, float16 against float32, as
 * msprobe's statistic.csv. The page shows core's headline and the class
 * that says statistics decided it (ovi_diff_operator_get_class_label()). */
static void
test_statistics (DiffFixture *f, gconstpointer data)
{
  g_autofree char *mine = g_build_filename (f->root, "stats", "mine", NULL);
  g_autofree char *golden = g_build_filename (f->root, "stats", "golden", NULL);
  g_autoptr (GPtrArray) rows = NULL;
  OviDiffPage *page;
  OviNetRun run;
  gboolean seen_agree = FALSE, seen_origin = FALSE;

  ovi_net_run_init (&run, OVI_NET_MLP, OVI_DTYPE_FLOAT16);
  run.statistics = OVI_NET_STATISTICS_MSPROBE;
  ovi_fixture_write_net (mine, &run);
  ovi_net_run_init (&run, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  run.statistics = OVI_NET_STATISTICS_MSPROBE;
  ovi_fixture_write_net (golden, &run);

  f->window = open_diff (mine, golden);
  resize_to (f->window, 1280, 900);
  page = ovi_window_get_diff_page (f->window);
  /* Thirteen rows: the first seven, up to the origin, on screen. */
  WAIT_UNTIL (ovi_diff_state_get_result (diff_state (f->window)) != NULL);
  WAIT_UNTIL (page_shown (f->window, "diff") && gtk_widget_get_mapped (GTK_WIDGET (page)));
  WAIT_UNTIL (n_visible_rows (ovi_diff_page_get_column_view (page)) >= 7);
  ovi_test_wait_still ();
  g_assert_cmpstr (ovi_diff_page_get_first_divergence_text (page), ==,
                   "First divergence: #6 Mul net/Mul, the origin: its inputs agree and output 0 "
                   "differs.");
  rows = visible_rows (ovi_diff_page_get_column_view (page));
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *name = cell (rows, i, 1);
      g_autofree char *op_class = cell (rows, i, 3);

      g_test_message ("%s", (char *) g_ptr_array_index (rows, i));
      if (g_str_equal (name, "net/fc1/MatMul"))
        {
          g_assert_cmpstr (op_class, ==, "agrees (statistics)");
          seen_agree = TRUE;
        }
      if (g_str_equal (name, OVI_NET_MLP_OVERFLOW))
        {
          g_assert_cmpstr (op_class, ==, "origin (statistics)");
          seen_origin = TRUE;
        }
      g_assert_cmpstr (op_class, !=, "not comparable");
    }
  g_assert_true (seen_agree && seen_origin);
}

/* The page reads mine from the folder the window loaded, not from a scan
 * of its own: the result is the CLI's on the same pair, byte for byte;
 * then, with following paused, an operator written into mine after the
 * window read it is not in the diff run again (F5's diff, Retry), which a
 * scan of mine would find (as an operator of my run only). */
static void
test_reuses_mine (DiffFixture *f, gconstpointer data)
{
  g_autofree char *json = g_build_filename (f->root, "page.json", NULL);
  g_autofree char *dir = g_build_filename (f->mine, "0", "model", "1", NULL);
  g_autofree char *out = NULL, *page_json = NULL;
  g_autoptr (GError) error = NULL;
  OviSession *session;
  OviDiffState *state;
  GListModel *ops;
  guint n_ops;

  ovi_fixture_write_diff_overflow (f->root);
  f->window = open_diff (f->mine, f->golden);
  session = ovi_window_get_session (f->window);
  state = diff_state (f->window);
  wait_result (f->window);
  g_assert_true (ovi_diff_page_export (ovi_window_get_diff_page (f->window), FALSE, json, &error));
  g_assert_no_error (error);
  ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", "--json", f->mine, f->golden, NULL);
  page_json = read_file (json);
  g_assert_cmpstr (page_json, ==, out);
  n_ops =
      g_list_model_get_n_items (ovi_diff_result_get_operators (ovi_diff_state_get_result (state)));

  ovi_session_set_live (session, FALSE);
  ovi_fixture_write_overflow_op (dir, "Cast", "net/Written_Later", 7, 2,
                                 OVI_DIFF_FIXTURE_T0 + 999999, FALSE);
  ovi_diff_state_rerun (state);
  g_assert_true (ovi_diff_state_get_running (state));
  WAIT_UNTIL (!ovi_diff_state_get_running (state));
  g_assert_nonnull (ovi_diff_state_get_result (state));
  ops = ovi_diff_result_get_operators (ovi_diff_state_get_result (state));
  g_assert_cmpuint (g_list_model_get_n_items (ops), ==, n_ops);
  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);

      g_assert_cmpstr (ovi_diff_operator_get_name (op), !=, "net/Written_Later");
    }
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
  g_test_add ("/app/diff-page/big-table", DiffFixture, NULL, diff_setup, test_big_table,
              diff_teardown);
  g_test_add ("/app/diff-page/retry", DiffFixture, NULL, diff_setup, test_retry, diff_teardown);
  g_test_add ("/app/diff-page/settings-export", DiffFixture, NULL, diff_setup, test_settings_export,
              diff_teardown);
  g_test_add ("/app/diff-page/overflows", DiffFixture, NULL, diff_setup, test_overflows,
              diff_teardown);
  g_test_add ("/app/diff-page/devices", DiffFixture, NULL, diff_setup, test_devices, diff_teardown);
  g_test_add ("/app/diff-page/statistics", DiffFixture, NULL, diff_setup, test_statistics,
              diff_teardown);
  g_test_add ("/app/diff-page/reuses-mine", DiffFixture, NULL, diff_setup, test_reuses_mine,
              diff_teardown);
  g_test_add ("/app/diff-page/screenshot", DiffFixture, NULL, diff_setup, test_screenshot,
              diff_teardown);
  return ovi_test_run ();
}
