/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The Timeline page: every device of the opened folder and of reports
 * from other machines, by first overflow. */

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
  g_autofree char *toasts = NULL;
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

  window = g_object_ref_sink (ovi_window_new (ovi_test_app));
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
  /* Nothing must be added: judged once reading it is over, which the
   * toast naming the file says. */
  WAIT_UNTIL ((g_free (toasts), toasts = toast_text (window), strstr (toasts, "foreign.json")));
  ranks = ovi_cluster_get_ranks (ovi_session_get_cluster (session));
  g_assert_cmpuint (g_list_model_get_n_items (ranks), ==, 16);

  /* The table takes the ranks a few a frame: all of them, laid out. */
  WAIT_UNTIL (timeline_fed (page));
  ovi_test_wait_still ();
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
  ovi_test_wait_still ();
  g_assert_false (timeline_shows (page, "remote_box"));
  g_assert_true (timeline_shows (page, "show_button"));
  gtk_widget_activate_action (GTK_WIDGET (page), "timeline.show-record", NULL);
  /* The record is selected where it is shown: on the Overflows page. */
  WAIT_UNTIL (page_shown (window, "overflows"));
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
  ovi_test_wait_finalized (g_steal_pointer (&window), TRUE);
  ovi_fixture_remove_tree (dir);
}

/* Types @query into the timeline's search field and waits until the table
 * lists @n devices. */
static void
search (OviTimelinePage *page, const char *query, guint n)
{
  GListModel *shown =
      G_LIST_MODEL (gtk_column_view_get_model (ovi_timeline_page_get_column_view (page)));

  gtk_editable_set_text (
      GTK_EDITABLE (template_child (page, OVI_TYPE_TIMELINE_PAGE, "search_entry")), query);
  g_test_message ("“%s”: %u devices expected", query, n);
  WAIT_UNTIL (g_list_model_get_n_items (shown) == n);
  ovi_test_wait_still ();
}

/* The one device the table lists (the table holds it). */
static OviRank *
only_shown (OviTimelinePage *page)
{
  GListModel *shown =
      G_LIST_MODEL (gtk_column_view_get_model (ovi_timeline_page_get_column_view (page)));
  OviRank *rank;

  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  rank = g_list_model_get_item (shown, 0);
  g_object_unref (rank);
  return rank;
}

/* The example of two machines (node-a's folder, node-b's report) and the
 * README's searches: each word of the query must be found in the
 * machine, the device ("device 7" through its label, a number as the
 * device number), the operator's type or name or the unit, in any case
 * and order. A query nothing matches says so, and clearing it brings the
 * table back. */
static void
test_search_words (void)
{
  g_autofree char *example = g_path_get_dirname (g_getenv ("OVI_EXAMPLE_DIR"));
  g_autofree char *node_a = g_build_filename (example, "example-cluster", "node-a", NULL);
  g_autofree char *node_b = g_build_filename (example, "example-cluster", "node-b.json", NULL);
  g_autofree char *local = NULL;
  g_autofree char *local_folded = NULL;
  g_autoptr (GFile) file_a = g_file_new_for_path (node_a);
  g_autoptr (OviWindow) window = NULL;
  OviTimelinePage *page;
  OviSession *session;
  OviRank *rank;
  GFile *reports[1];

  window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  ovi_window_open_file (window, file_a);
  WAIT_UNTIL (!ovi_window_get_busy (window));
  session = ovi_window_get_session (window);
  page = ovi_window_get_timeline_page (window);
  ovi_window_show_page (window, "timeline");
  reports[0] = g_file_new_for_path (node_b);
  ovi_window_add_reports (window, reports, 1);
  g_object_unref (reports[0]);
  WAIT_UNTIL (ovi_cluster_get_n_roots (ovi_session_get_cluster (session)) == 2);
  WAIT_UNTIL (timeline_fed (page));
  search (page, "", 16);
  g_assert_true (timeline_shows (page, "rank_view"));

  /* The machine of node-a's devices is this host and the folder's path,
   * which may hold a "b" of its own. */
  rank = ovi_cluster_get_earliest (ovi_session_get_cluster (session));
  local = g_strdup_printf ("%s:%s", ovi_rank_get_host (rank), ovi_rank_get_root (rank));
  local_folded = g_utf8_casefold (local, -1);

  search (page, "node-b", 8);
  search (page, "7", 2);
  search (page, "device 7", 2);
  search (page, "node-b device 7", 1);
  rank = only_shown (page);
  g_assert_cmpstr (ovi_rank_get_host (rank), ==, "node-b");
  g_assert_cmpstr (ovi_rank_get_device (rank), ==, "7");
  search (page, "node-b 7", 1);
  g_assert_true (only_shown (page) == rank);
  search (page, "Device 7 NODE-B", 1);
  g_assert_true (only_shown (page) == rank);
  search (page, "  node-b \t device   7 ", 1);
  g_assert_true (only_shown (page) == rank);
  search (page, "b device 7", strchr (local_folded, 'b') ? 2 : 1);
  /* A number is the device's number, not a part of one. */
  search (page, "1", 2);
  /* The operator, by type or name, and the unit. */
  search (page, "allreduce", 15);
  search (page, "allreduce node-b", 8);
  search (page, "cast", 1);
  rank = only_shown (page);
  g_assert_cmpstr (ovi_rank_get_device (rank), ==, "3");
  g_assert_true (ovi_rank_get_earliest (rank));
  search (page, "net/Cast_3", 1);
  search (page, "ai core", 16);
  search (page, "ai core device 3", 2);

  /* Nothing matches: the page says so instead of an empty table. */
  search (page, "node-b cast", 0);
  g_assert_true (timeline_shows (page, "no_match_page"));
  g_assert_false (timeline_shows (page, "rank_view"));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (
                                template_child (page, OVI_TYPE_TIMELINE_PAGE, "no_match_page"))),
                            "node-b cast"));
  search (page, "", 16);
  g_assert_true (timeline_shows (page, "rank_view"));
  g_assert_false (timeline_shows (page, "no_match_page"));

  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (g_steal_pointer (&window), TRUE);
}

/* One machine's report opened alone (data/example-cluster/node-b.json):
 * the first overflow of each of its 8 devices is an HcomAllReduce, so the
 * bad values came from a machine whose report is not open. The page says
 * so, and marks no device "Origin". */
static void
test_report_alone (void)
{
  g_autofree char *path =
      g_build_filename (g_getenv ("OVI_EXAMPLE_DIR"), "..", "example-cluster", "node-b.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (OviWindow) window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  g_autoptr (GPtrArray) rows = NULL;
  OviTimelinePage *page = ovi_window_get_timeline_page (window);
  OviSession *session = ovi_window_get_session (window);
  GListModel *ranks = ovi_cluster_get_ranks (ovi_session_get_cluster (session));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 900);
  gtk_window_present (GTK_WINDOW (window));
  ovi_window_open_files (window, &file, 1);
  WAIT_UNTIL (page_shown (window, "timeline") && g_list_model_get_n_items (ranks) == 8 &&
              timeline_fed (page));
  ovi_test_wait_still ();

  rows = visible_rows (ovi_timeline_page_get_column_view (page));
  g_assert_cmpuint (rows->len, ==, 8);
  for (guint i = 0; i < rows->len; i++)
    {
      const char *row = g_ptr_array_index (rows, i);
      g_autoptr (OviRank) rank = g_list_model_get_item (ranks, i);

      g_assert_nonnull (strstr (row, "|HcomAllReduce allreduce_1|collective|"));
      g_assert_true (g_str_has_suffix (row, "|Origin unknown"));
      g_assert_cmpint (ovi_rank_get_role (rank), ==, OVI_RANK_ROLE_UNKNOWN);
    }
  g_assert_true (timeline_shows (page, "origin_note"));
  g_assert_cmpstr (timeline_label (page, "origin_note"), ==,
                   "The first overflow on every device is a collective (HcomAllReduce): the "
                   "origin is on a machine whose report is not open.");

  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (g_steal_pointer (&window), TRUE);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add_func ("/app/timeline-page/two-machines", test_timeline);
  g_test_add_func ("/app/timeline-page/search-words", test_search_words);
  g_test_add_func ("/app/timeline-page/report-alone", test_report_alone);
  return ovi_test_run ();
}
