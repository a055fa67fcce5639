/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

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

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/sidebar/tree-narrows", test_tree_narrows);
  return ovi_test_run ();
}
