/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"
#include "ovi-tooltip.h"

/* The Problems page: files that could not be read, narrowed by the
 * sidebar's node. */

static void
test_problems (Fixture *f, gconstpointer data)
{
  GListModel *problems = ovi_dump_folder_get_problems (ovi_window_get_folder (f->window));
  GtkColumnView *view =
      ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
  g_autoptr (GPtrArray) rows = NULL;

  ovi_window_show_page (f->window, "problems");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (view)));
  ovi_test_wait_still ();
  {
    GtkWidget *button = GTK_WIDGET (
        gtk_widget_get_template_child (GTK_WIDGET (f->window), OVI_TYPE_WINDOW, "problems_button"));
    AdwButtonContent *content = ADW_BUTTON_CONTENT (gtk_widget_get_template_child (
        GTK_WIDGET (f->window), OVI_TYPE_WINDOW, "problems_content"));
    g_autofree char *expected =
        g_strdup_printf ("%u problem%s", g_list_model_get_n_items (problems),
                         g_list_model_get_n_items (problems) == 1 ? "" : "s");

    g_assert_cmpuint (g_list_model_get_n_items (problems), >, 0);
    /* Said below the header, in a banner that opens when a file fails. */
    WAIT_UNTIL (gtk_revealer_get_child_revealed (
        GTK_REVEALER (gtk_widget_get_ancestor (button, GTK_TYPE_REVEALER))));
    g_assert_true (gtk_widget_get_mapped (button));
    g_assert_cmpstr (adw_button_content_get_label (content), ==, expected);
  }
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (problems));
  for (guint i = 0; i < rows->len; i++)
    g_assert_cmpstr (strchr (g_ptr_array_index (rows, i), '|'), !=, NULL);
}

/* The Problems page follows the sidebar: the example's one unreadable
 * file is in iteration 10, so iteration 3 lists nothing and iteration 10
 * lists it. */
static void
test_problems_follow_node (Fixture *f, gconstpointer data)
{
  GListModel *tree = ovi_window_get_tree_model (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  GtkColumnView *view =
      ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
  GListModel *problems = ovi_dump_folder_get_problems (ovi_window_get_folder (f->window));
  g_autoptr (OviProblem) problem = NULL;
  guint checked = 0;

  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_true (
      g_str_has_prefix (ovi_problem_get_file (problem), "20251202101500/0/resnet50_train/11/10/"));
  ovi_window_show_page (f->window, "problems");
  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);
      const char *label = ovi_tree_node_get_label (node);
      g_autoptr (GPtrArray) rows = NULL;

      ovi_window_select_tree_row (f->window, i);
      /* The node is the session's, and the table laid out after it. */
      WAIT_UNTIL (ovi_session_get_selected_node (session) == node);
      ovi_test_wait_still ();
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
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (view)));
  ovi_test_wait_still ();
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
  WAIT_UNTIL (gtk_widget_get_mapped (
      GTK_WIDGET (ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window)))));
  ovi_test_wait_still ();
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

/* Opens @root in @f's window and waits until it is loaded, summarized and
 * walked once by what follows it: then the window shows all it will. */
static void
open_and_follow (Fixture *f, const char *root)
{
  g_autoptr (GFile) file = g_file_new_for_path (root);
  OviSession *session = ovi_window_get_session (f->window);

  ovi_window_open_file (f->window, file);
  WAIT_UNTIL (!ovi_session_get_busy (session) && ovi_session_get_watch (session) != NULL &&
              !ovi_folder_watch_get_busy (ovi_session_get_watch (session)));
  g_assert_true (ovi_folder_watch_get_running (ovi_session_get_watch (session)));
}

/* The window lists the problems core lists for @root, after its first
 * walk: the same ones, as many rows on the Problems page, and the header
 * button's count. */
static void
assert_same_problems (Fixture *f, const char *root)
{
  g_autoptr (OviDumpFolder) alone = ovi_fixture_load_folder (root);
  GListModel *shown = ovi_session_get_problems (ovi_window_get_session (f->window));
  g_autofree char *expected = ovi_fixture_problem_lines (ovi_dump_folder_get_problems (alone));
  g_autofree char *got = ovi_fixture_problem_lines (shown);
  GtkColumnView *view =
      ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
  guint n = g_list_model_get_n_items (ovi_dump_folder_get_problems (alone));
  g_autofree char *label = g_strdup_printf ("%u problem%s", n, n == 1 ? "" : "s");
  g_autoptr (GPtrArray) rows = NULL;

  g_test_message ("core:\n%swindow:\n%s", expected, got);
  g_assert_cmpstr (got, ==, expected);
  ovi_window_show_page (f->window, "problems");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (view)));
  ovi_test_wait_still ();
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, ==, n);
  g_assert_cmpstr (adw_button_content_get_label (f->window->problems_content), ==, label);
}

/* A folder that can be listed but not searched (mode 0444, for a user who
 * does not own it): core lists each of its dump files as a problem, and so
 * does the window once it has walked the folder to follow it. */
static void
test_unsearchable_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->tmpdir, "dump", NULL);
  g_autofree char *locked =
      g_build_filename (root, "20251202101500", "0", "resnet50_train", "11", "20", NULL);
  g_autoptr (OviDumpFolder) alone = NULL;

  ovi_fixture_write_example (root);
  g_assert_no_errno (g_mkdir_with_parents (locked, 0755));
  ovi_fixture_write_overflow_op (locked, "Cast", "gradients/Cast_9", 7, 2, 1764670000000000, FALSE);
  g_assert_no_errno (g_chmod (locked, 0444));
  alone = ovi_fixture_load_folder (root);
  /* The example's truncated file, and the locked folder's files. */
  if (g_list_model_get_n_items (ovi_dump_folder_get_problems (alone)) < 3)
    {
      g_chmod (locked, 0755);
      g_test_skip ("permission bits do not apply to this process");
      return;
    }

  open_and_follow (f, root);
  assert_same_problems (f, root);
  g_assert_no_errno (g_chmod (locked, 0755));
}

/* A tree 2,000 folders deep, an overflow record in the deepest: below a
 * few hundred levels its path is longer than the system opens. Core says
 * so for the first folder it cannot open (and for the mapping.csv of the
 * folders above it whose own path is too long to look for), and the
 * window, following the folder, says the same. */
static void
test_deep_tree (Fixture *f, gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->tmpdir, "deep", NULL);
  g_autoptr (OviDumpFolder) alone = NULL;
  g_autofree char *problems = NULL;

  g_assert_no_errno (g_mkdir (root, 0755));
  ovi_fixture_write_overflow_op (root, "Cast", "gradients/Cast_3", 7, 2, 1764670000000000, FALSE);
  ovi_fixture_nest (f->tmpdir, "deep", "level", 1999);
  alone = ovi_fixture_load_folder (root);
  problems = ovi_fixture_problem_lines (ovi_dump_folder_get_problems (alone));
  g_assert_nonnull (strstr (problems, "/level: cannot read the folder: File name too long\n"));

  open_and_follow (f, root);
  assert_same_problems (f, root);
  {
    GtkColumnView *view =
        ovi_problems_page_get_column_view (ovi_window_get_problems_page (f->window));
    g_autoptr (GPtrArray) rows = visible_rows (view);
    gboolean said = FALSE;

    for (guint i = 0; i < rows->len; i++)
      {
        g_autofree char *reason = cell (rows, i, 1);

        said |= g_str_equal (reason, "cannot read the folder: File name too long");
      }
    g_assert_true (said);
  }
  /* The window lets go of the tree first: it follows it. */
  {
    g_autoptr (GFile) example = g_file_new_for_path (g_getenv ("OVI_EXAMPLE_DIR"));

    ovi_window_open_file (f->window, example);
    WAIT_UNTIL (!ovi_window_get_busy (f->window));
  }
  ovi_fixture_remove_nested (f->tmpdir, "deep", "level");
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  /* Permission bits apply to these tests as they do to a user. */
  ovi_fixture_drop_dac_override ();
  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/problems-page/table", test_problems);
  OVI_TEST_ADD ("/app/problems-page/follow-node", test_problems_follow_node);
  OVI_TEST_ADD ("/app/problems-page/stray-file", test_stray_file);
  OVI_TEST_ADD ("/app/problems-page/reason-wraps", test_problem_reason_wraps);
  OVI_TEST_ADD ("/app/problems-page/unsearchable-folder", test_unsearchable_folder);
  OVI_TEST_ADD ("/app/problems-page/deep-tree", test_deep_tree);
  return ovi_test_run ();
}
