/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The sidebar: a node of the time / device / model / iteration tree
 * narrows the record table to its records. */

static void
test_tree_narrows (Fixture *f, gconstpointer data)
{
  GListModel *tree = ovi_window_get_tree_model (f->window);
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  OviSession *session = ovi_window_get_session (f->window);
  gboolean found = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);
      g_autoptr (GPtrArray) rows = NULL;

      if (ovi_tree_node_get_level (node) != OVI_TREE_LEVEL_ITERATION)
        continue;
      ovi_window_select_tree_row (f->window, i);
      /* The node is the session's, and the table laid out after it. */
      WAIT_UNTIL (ovi_session_get_selected_node (session) == node);
      ovi_test_wait_still ();
      rows = visible_rows (view);
      g_test_message ("%s: %u records", ovi_tree_node_get_label (node), rows->len);
      g_assert_cmpuint (rows->len, ==, ovi_tree_node_get_count (node));
      found = TRUE;
    }
  g_assert_true (found);
}

/* Opens @root and waits until the window follows it, its first walk done. */
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

/* Copies the files of the folder @from into a new folder @to. */
static void
copy_folder (const char *from, const char *to)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = g_dir_open (from, 0, &error);
  const char *name;

  g_assert_no_error (error);
  g_assert_no_errno (g_mkdir_with_parents (to, 0755));
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (from, name, NULL);
      g_autofree char *copy = g_build_filename (to, name, NULL);
      g_autoptr (GFile) source = g_file_new_for_path (path);
      g_autoptr (GFile) target = g_file_new_for_path (copy);

      g_assert_true (g_file_copy (source, target, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
    }
}

/* The labels of the sidebar's rows at @level, top to bottom, joined by ", ". */
static char *
tree_labels (OviWindow *window, OviTreeLevel level)
{
  GListModel *tree = ovi_window_get_tree_model (window);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);

      if (ovi_tree_node_get_level (node) != level)
        continue;
      if (out->len > 0)
        g_string_append (out, ", ");
      g_string_append (out, ovi_tree_node_get_label (node));
    }
  return g_string_free (out, FALSE);
}

/* The position of the sidebar's row labelled @label, or -1. */
static int
tree_position (OviWindow *window, const char *label)
{
  GListModel *tree = ovi_window_get_tree_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr (OviTreeNode) node = gtk_tree_list_row_get_item (row);

      if (g_str_equal (ovi_tree_node_get_label (node), label))
        return (int) i;
    }
  return -1;
}

static gboolean
tree_has (OviWindow *window, OviTreeLevel level, const char *label)
{
  g_autofree char *labels = tree_labels (window, level);
  g_auto (GStrv) each = g_strsplit (labels, ", ", -1);

  return g_strv_contains ((const char *const *) each, label);
}

/* A run writes iterations (and devices) into a followed folder out of
 * numeric order, one after the other as a writer that is not in step
 * would: each is written aside and renamed into place, and the next comes
 * once the sidebar shows it. The sidebar keeps every level in numeric
 * order as they arrive, as a new scan would list them, not in the order
 * they came. The selected node stays selected while nodes are put above
 * it. */
static void
test_live_order (Fixture *f, gconstpointer data)
{
  static const char *const iterations[] = { "105", "100", "108", "101", "20" };
  static const char *const devices[] = { "11", "2" };
  g_autofree char *root = g_build_filename (f->tmpdir, "run", NULL);
  g_autofree char *staging = g_build_filename (f->tmpdir, "staging", NULL);
  g_autofree char *time = g_build_filename (root, "20251202101500", NULL);
  g_autofree char *model = g_build_filename (time, "0", "resnet50_train", "11", NULL);
  g_autofree char *three = g_build_filename (model, "3", NULL);
  g_autofree char *got = NULL;
  g_autoptr (OviTreeNode) selected = NULL;
  OviSession *session = ovi_window_get_session (f->window);

  ovi_fixture_write_example (root);
  open_and_follow (f, root);

  for (guint i = 0; i < G_N_ELEMENTS (iterations); i++)
    {
      g_autofree char *aside = g_build_filename (staging, iterations[i], NULL);
      g_autofree char *target = g_build_filename (model, iterations[i], NULL);
      g_autofree char *label = g_strdup_printf ("Iteration %s", iterations[i]);

      copy_folder (three, aside);
      g_assert_no_errno (g_rename (aside, target));
      WAIT_UNTIL (tree_has (f->window, OVI_TREE_LEVEL_ITERATION, label));
      /* 101 and 20 come after it, and go above it. */
      if (g_str_equal (iterations[i], "108"))
        {
          ovi_window_select_tree_row (f->window, tree_position (f->window, label));
          WAIT_UNTIL (
              ovi_session_get_selected_node (session) != NULL &&
              g_str_equal (ovi_tree_node_get_label (ovi_session_get_selected_node (session)),
                           label));
          selected = g_object_ref (ovi_session_get_selected_node (session));
        }
    }
  got = tree_labels (f->window, OVI_TREE_LEVEL_ITERATION);
  g_assert_cmpstr (got, ==,
                   "Iteration 3, Iteration 4, Iteration 10, Iteration 12, Iteration 20, "
                   "Iteration 100, Iteration 101, Iteration 105, Iteration 108");
  g_clear_pointer (&got, g_free);

  /* Devices too (and the model and iteration below each). */
  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    {
      g_autofree char *aside = g_build_filename (staging, devices[i], NULL);
      g_autofree char *iteration = g_build_filename (aside, "resnet50_train", "11", "3", NULL);
      g_autofree char *target = g_build_filename (time, devices[i], NULL);
      g_autofree char *label = g_strdup_printf ("Device %s", devices[i]);

      copy_folder (three, iteration);
      g_assert_no_errno (g_rename (aside, target));
      WAIT_UNTIL (tree_has (f->window, OVI_TREE_LEVEL_DEVICE, label));
    }
  got = tree_labels (f->window, OVI_TREE_LEVEL_DEVICE);
  g_assert_cmpstr (got, ==, "Device 0, Device 2, Device 11");

  g_assert_true (ovi_session_get_selected_node (session) == selected);
  {
    GtkSingleSelection *selection = GTK_SINGLE_SELECTION (ovi_window_get_tree_model (f->window));
    GtkTreeListRow *row = gtk_single_selection_get_selected_item (selection);
    g_autoptr (OviTreeNode) node = row ? gtk_tree_list_row_get_item (row) : NULL;

    g_assert_true (node == selected);
  }
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/sidebar/tree-narrows", test_tree_narrows);
  OVI_TEST_ADD ("/app/sidebar/live-order", test_live_order);
  return ovi_test_run ();
}
