/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-session.h"
#include "ovi-test-util.h"

/* OviSession with no window at all: what one window inspects, loaded from
 * the example dump folder (OVI_EXAMPLE_DIR) and judged by the values a
 * user checks, each waited on through the session's notifications. Runs
 * without a display. */

/* The example's numbers, as the window shows them: 8 overflow records
 * (the sidebar's "8"), the one file that cannot be read (Problems). */
#define EXAMPLE_RECORDS 8
#define EXAMPLE_PROBLEMS 1
/* The first overflow: the AI Core record 0x110 of gradients/Cast_3. */
#define FIRST_STATUS 0x110
#define FIRST_OP "gradients/Cast_3"

/* What the session told, through its notifications and signals. */
typedef struct
{
  OviSession *session;
  GHashTable *notified;  /* property name -> number of notifications */
  gboolean select_first; /* select the first record as it arrives, as the Overflows page does */
  gboolean was_busy;
  gboolean done;     /* busy, then not busy: the scan and the summaries are over */
  gboolean finished; /* load-finished emitted */
  GError *error;     /* what load-finished reported */
  guint records_at_finish;
  GListModel *records; /* followed for select_first (a reference) */
} Watch;

static guint
notified (Watch *w, const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (w->notified, name));
}

/* The Overflows page selects the first row while nothing is selected. */
static void
records_changed (Watch *w)
{
  g_autoptr (OviOverflowRecord) first = NULL;

  if (!w->select_first || ovi_session_get_selected_record (w->session) != NULL ||
      g_list_model_get_n_items (w->records) == 0)
    return;
  first = g_list_model_get_item (w->records, 0);
  ovi_session_set_selected_record (w->session, first);
}

static void
property_notified (Watch *w, GParamSpec *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  g_hash_table_insert (w->notified, (gpointer) name, GUINT_TO_POINTER (notified (w, name) + 1));
  if (g_str_equal (name, "busy"))
    {
      if (ovi_session_get_busy (w->session))
        w->was_busy = TRUE;
      else if (w->was_busy)
        w->done = TRUE;
    }
  if (g_str_equal (name, "records") && ovi_session_get_records (w->session) != w->records)
    {
      if (w->records != NULL)
        g_signal_handlers_disconnect_by_data (w->records, w);
      /* Held, so that it is there to disconnect from. */
      g_set_object (&w->records, ovi_session_get_records (w->session));
      if (w->records != NULL)
        g_signal_connect_swapped (w->records, "items-changed", G_CALLBACK (records_changed), w);
    }
}

static void
load_finished (Watch *w, const GError *error)
{
  w->finished = TRUE;
  g_clear_error (&w->error);
  w->error = error ? g_error_copy (error) : NULL;
  w->records_at_finish = g_list_model_get_n_items (ovi_session_get_records (w->session));
}

static void
watch_init (Watch *w, gboolean select_first)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  memset (w, 0, sizeof *w);
  w->session = ovi_session_new (settings);
  w->notified = g_hash_table_new (g_str_hash, g_str_equal);
  w->select_first = select_first;
  g_signal_connect_swapped (w->session, "notify", G_CALLBACK (property_notified), w);
  g_signal_connect_swapped (w->session, "load-finished", G_CALLBACK (load_finished), w);
}

/* Starts over: a new load is watched from its start. */
static void
watch_reset (Watch *w)
{
  g_hash_table_remove_all (w->notified);
  w->was_busy = w->done = w->finished = FALSE;
  g_clear_error (&w->error);
}

static void
watch_clear (Watch *w)
{
  if (w->records != NULL)
    g_signal_handlers_disconnect_by_data (w->records, w);
  g_clear_object (&w->records);
  /* Nothing of it runs into the next test. */
  ovi_test_wait_finalized (g_steal_pointer (&w->session), TRUE);
  g_hash_table_unref (w->notified);
  g_clear_error (&w->error);
}

/* Waits until the session says the load is over: load-finished emitted,
 * and busy notified back to FALSE (the summaries done too). */
static void
wait_loaded (Watch *w)
{
  WAIT_UNTIL (w->finished && w->done);
}

static GFile *
example (void)
{
  const char *dir = g_getenv ("OVI_EXAMPLE_DIR");

  g_assert_nonnull (dir);
  return g_file_new_for_path (dir);
}

/* The example loaded as a window loads it: the counts the sidebar, the
 * table and the Problems button show, the tree's top node, the first
 * record marked first and selected, its operator the selected file. */
static void
test_load_example (void)
{
  g_autoptr (GFile) root = example ();
  g_autofree char *name = g_file_get_basename (root);
  g_autoptr (OviDumpFolder) alone = NULL;
  g_autoptr (GtkTreeListRow) top_row = NULL;
  g_autoptr (OviTreeNode) top = NULL;
  g_autoptr (OviOverflowRecord) first = NULL;
  g_autoptr (OviOverflowRecord) other = NULL;
  GListModel *records, *tree, *children;
  guint n_op_dumps = 0;
  Watch w;

  watch_init (&w, TRUE);
  ovi_session_load (w.session, root);
  /* At once: loading, and said so. */
  g_assert_true (ovi_session_get_loading (w.session));
  g_assert_true (ovi_session_get_busy (w.session));
  g_assert_cmpuint (notified (&w, "loading"), ==, 1);
  g_assert_cmpuint (notified (&w, "folder"), ==, 1);
  wait_loaded (&w);

  /* load-finished reports success, and loading is over. */
  g_assert_no_error (w.error);
  g_assert_false (ovi_session_get_loading (w.session));
  g_assert_false (ovi_session_get_busy (w.session));
  g_assert_false (ovi_session_get_cancelled (w.session));
  g_assert_cmpuint (notified (&w, "loading"), ==, 2);
  g_assert_cmpuint (notified (&w, "cancelled"), ==, 0);

  /* The counts. */
  records = ovi_session_get_records (w.session);
  g_assert_cmpuint (g_list_model_get_n_items (records), ==, EXAMPLE_RECORDS);
  g_assert_cmpuint (w.records_at_finish, ==, EXAMPLE_RECORDS);
  g_assert_cmpuint (ovi_session_get_n_problems (w.session), ==, EXAMPLE_PROBLEMS);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_problems (w.session)), ==,
                    EXAMPLE_PROBLEMS);
  g_assert_cmpuint (notified (&w, "n-problems"), >=, 2); /* cleared, then the problem */
  /* Every op dump file of the folder, as core lists it alone, and no other. */
  alone = ovi_fixture_load_folder (g_getenv ("OVI_EXAMPLE_DIR"));
  for (guint i = 0; i < g_list_model_get_n_items (ovi_dump_folder_get_files (alone)); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (ovi_dump_folder_get_files (alone), i);

      n_op_dumps += ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OP_DUMP;
    }
  g_test_message ("%u operators", n_op_dumps);
  g_assert_cmpuint (n_op_dumps, >, 10);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_operators (w.session)), ==,
                    n_op_dumps);
  for (guint i = 0; i < g_list_model_get_n_items (ovi_session_get_operators (w.session)); i++)
    {
      g_autoptr (OviDumpFile) op = g_list_model_get_item (ovi_session_get_operators (w.session), i);

      g_assert_cmpint (ovi_dump_file_get_kind (op), ==, OVI_FILE_KIND_OP_DUMP);
    }

  /* The sidebar's top node: the folder, with every record below it; then
   * the dump's time folder. */
  tree = ovi_session_get_tree (w.session);
  g_assert_cmpuint (notified (&w, "tree"), >=, 1);
  g_assert_cmpuint (g_list_model_get_n_items (tree), >=, 1);
  top_row = g_list_model_get_item (tree, 0);
  top = gtk_tree_list_row_get_item (top_row);
  g_assert_cmpstr (ovi_tree_node_get_label (top), ==, name);
  g_assert_cmpint (ovi_tree_node_get_level (top), ==, OVI_TREE_LEVEL_ROOT);
  g_assert_cmpuint (ovi_tree_node_get_count (top), ==, EXAMPLE_RECORDS);
  children = ovi_tree_node_get_children (top);
  g_assert_nonnull (children);
  g_assert_cmpuint (g_list_model_get_n_items (children), ==, 1);
  {
    g_autoptr (OviTreeNode) time = g_list_model_get_item (children, 0);

    g_assert_cmpstr (ovi_tree_node_get_label (time), ==, "20251202101500");
    g_assert_cmpint (ovi_tree_node_get_level (time), ==, OVI_TREE_LEVEL_TIME);
    g_assert_cmpuint (ovi_tree_node_get_count (time), ==, EXAMPLE_RECORDS);
  }

  /* The first record is the first overflow, and the only one marked so. */
  first = g_list_model_get_item (records, 0);
  g_assert_true (ovi_overflow_record_get_is_first (first));
  g_assert_cmpuint (ovi_overflow_record_get_status (first), ==, FIRST_STATUS);
  for (guint i = 1; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);

      g_assert_false (ovi_overflow_record_get_is_first (record));
    }

  /* Selected as it arrived (as the Overflows page does): once the load is
   * over, its operator is the selected file, so that "Selected Tensor"
   * exports have a target before the user picks an operator. */
  g_assert_true (ovi_session_get_selected_record (w.session) == first);
  g_assert_cmpuint (notified (&w, "selected-record"), >=, 1);
  g_assert_nonnull (ovi_session_get_selected_file (w.session));
  g_assert_true (ovi_session_get_selected_file (w.session) == ovi_overflow_record_get_op (first));
  g_assert_cmpstr (ovi_dump_file_get_op_name (ovi_session_get_selected_file (w.session)), ==,
                   FIRST_OP);
  g_assert_cmpuint (notified (&w, "selected-file"), ==, 1);

  /* Another record: the selection is the session's, notified once; the
   * operator the user had (here: the first record's) stays selected, as
   * in the window, where only the Operators page changes it. */
  other = g_list_model_get_item (records, 1);
  ovi_session_set_selected_record (w.session, other);
  g_assert_true (ovi_session_get_selected_record (w.session) == other);
  g_assert_cmpuint (notified (&w, "selected-record"), >=, 2);
  g_assert_true (ovi_session_get_selected_file (w.session) == ovi_overflow_record_get_op (first));
  g_assert_cmpuint (notified (&w, "selected-file"), ==, 1);

  watch_clear (&w);
}

/* Cancelled before the main loop ran once: load-finished says so, the
 * session is "cancelled", and no record arrives, not even after the
 * summaries of what was found are over. A new load clears it. */
static void
test_cancel (void)
{
  g_autoptr (GFile) root = example ();
  Watch w;

  watch_init (&w, FALSE);
  ovi_session_load (w.session, root);
  ovi_session_cancel (w.session);
  wait_loaded (&w);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (ovi_session_get_cancelled (w.session));
  g_assert_cmpuint (notified (&w, "cancelled"), ==, 1);
  g_assert_false (ovi_session_get_loading (w.session));

  /* "Nothing arrives after the cancel" is judged after what would come
   * after it: load-finished, busy back to FALSE, and then nothing ready
   * to run on the main loop. */
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_test_message ("%u records when the load finished", w.records_at_finish);
  g_assert_cmpuint (w.records_at_finish, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_records (w.session)), ==, 0);
  g_assert_null (ovi_session_get_selected_record (w.session));

  /* Again, to the end: the banner's state goes. */
  watch_reset (&w);
  ovi_session_reload (w.session);
  wait_loaded (&w);
  g_assert_no_error (w.error);
  g_assert_false (ovi_session_get_cancelled (w.session));
  g_assert_cmpuint (notified (&w, "cancelled"), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_records (w.session)), ==,
                    EXAMPLE_RECORDS);

  watch_clear (&w);
}

/* A folder that does not exist: load-finished names it, nothing is
 * cancelled, nothing is listed. */
static void
test_missing_folder (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ovi-session-XXXXXX", &error);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (missing);
  Watch w;

  g_assert_no_error (error);
  watch_init (&w, TRUE);
  ovi_session_load (w.session, root);
  wait_loaded (&w);
  g_assert_error (w.error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND);
  g_test_message ("%s", w.error->message);
  g_assert_nonnull (strstr (w.error->message, missing));
  g_assert_false (ovi_session_get_cancelled (w.session));
  g_assert_false (ovi_session_get_loading (w.session));
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_records (w.session)), ==, 0);
  g_assert_cmpuint (ovi_session_get_n_problems (w.session), ==, 0);
  g_assert_null (ovi_session_get_selected_record (w.session));
  g_assert_null (ovi_session_get_selected_file (w.session));

  watch_clear (&w);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  /* No display: the session is GTK's list models, not widgets. */
  if (!ovi_test_init (&argc, &argv, FALSE, &exit_code))
    return exit_code;
  g_test_add_func ("/app/session/load-example", test_load_example);
  g_test_add_func ("/app/session/cancel", test_cancel);
  g_test_add_func ("/app/session/missing-folder", test_missing_folder);
  return ovi_test_run ();
}
