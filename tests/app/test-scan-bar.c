/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The scan bar under the header: the banner of a folder that was moved or
 * deleted, and the progress area. */

#define GONE_TEXT "The folder was moved or deleted: showing what was read from it"

/* A run of @n iterations with an overflow record each, below @parent;
 * returns its dump path. */
static char *
write_run (const char *parent, guint n)
{
  char *root = g_build_filename (parent, "run", NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *iteration = g_strdup_printf ("%u", i + 1);
      g_autofree char *dir =
          g_build_filename (root, "20251202101500", "0", "resnet50_train", "11", iteration, NULL);

      g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
      ovi_fixture_write_overflow_op (dir, "Cast", "gradients/Cast_3", 7, 2,
                                     1764670000000000 + i * 1000, FALSE);
    }
  return root;
}

static gboolean
folder_gone (OviSession *session)
{
  gboolean gone = FALSE;

  g_object_get (session, "folder-gone", &gone, NULL);
  return gone;
}

/* Deleted while the window is still taking its scan in (rows listed, the
 * scan not over): the scan ends, the window says the folder went as it
 * does when that happens after the load, and the rows read stay. No delay
 * is involved: the folder goes before the session can hear the scan's
 * end, which only the main loop, here waiting, can deliver. */
static void
test_deleted_during_scan (Fixture *f, gconstpointer data)
{
  g_autofree char *root = write_run (f->tmpdir, 200);
  g_autoptr (GFile) file = g_file_new_for_path (root);
  OviSession *session = ovi_window_get_session (f->window);
  GtkWidget *live_button = find_descendant (GTK_WIDGET (f->window), OVI_TYPE_LIVE_BUTTON);
  GtkRevealer *progress =
      template_child (ovi_window_get_scan_bar (f->window), OVI_TYPE_SCAN_BAR, "progress_revealer");
  GListModel *files, *records;
  guint n_files, n_records;

  g_assert_nonnull (live_button);
  g_assert_true (
      ovi_live_button_get_shown (OVI_LIVE_BUTTON (live_button))); /* the example, followed */
  ovi_window_open_file (f->window, file);
  g_assert_true (ovi_session_get_loading (session));
  files = ovi_dump_folder_get_files (ovi_session_get_folder (session));
  records = ovi_session_get_records (session);
  WAIT_UNTIL (!ovi_session_get_loading (session) || g_list_model_get_n_items (records) >= 4);
  g_assert_true (ovi_session_get_loading (session));
  g_assert_true (gtk_revealer_get_reveal_child (progress));
  n_files = g_list_model_get_n_items (files);
  n_records = g_list_model_get_n_items (records);
  g_test_message ("%u files, %u records listed when the folder went", n_files, n_records);

  remove_tree (root);
  g_assert_false (g_file_test (root, G_FILE_TEST_EXISTS));
  WAIT_UNTIL (!ovi_session_get_busy (session));
  g_assert_true (folder_gone (session));
  ovi_test_wait_still ();
  g_assert_nonnull (find_label_with_text (GTK_WIDGET (f->window), GONE_TEXT));
  /* As after the load: not followed, the scan over and not "cancelled". */
  g_assert_false (ovi_live_button_get_shown (OVI_LIVE_BUTTON (live_button)));
  g_assert_false (gtk_revealer_get_reveal_child (progress));
  g_assert_false (ovi_session_get_cancelled (session));
  g_assert_cmpuint (g_list_model_get_n_items (files), >=, n_files);
  g_assert_cmpuint (g_list_model_get_n_items (records), >=, n_records);

  /* Open again elsewhere: the banner goes with the folder. */
  {
    g_autoptr (GFile) example = g_file_new_for_path (g_getenv ("OVI_EXAMPLE_DIR"));

    ovi_window_open_file (f->window, example);
    g_assert_false (folder_gone (session));
    WAIT_UNTIL (!ovi_session_get_busy (session));
    ovi_test_wait_still ();
    g_assert_null (find_label_with_text (GTK_WIDGET (f->window), GONE_TEXT));
  }
}

/* Deleted once loaded: the followed folder's own banner, the same. */
static void
test_deleted_after_load (Fixture *f, gconstpointer data)
{
  g_autofree char *root = write_run (f->tmpdir, 3);
  g_autoptr (GFile) file = g_file_new_for_path (root);
  OviSession *session = ovi_window_get_session (f->window);
  guint n_records;

  ovi_window_open_file (f->window, file);
  WAIT_UNTIL (!ovi_session_get_busy (session));
  n_records = g_list_model_get_n_items (ovi_session_get_records (session));
  g_assert_cmpuint (n_records, ==, 3);
  g_assert_false (folder_gone (session));
  remove_tree (root);
  WAIT_UNTIL (folder_gone (session));
  ovi_test_wait_still ();
  g_assert_nonnull (find_label_with_text (GTK_WIDGET (f->window), GONE_TEXT));
  g_assert_cmpuint (g_list_model_get_n_items (ovi_session_get_records (session)), ==, n_records);
}

/* The Live popover says how the folder is followed in one sentence:
 * "Following changes as the system reports them.", not "Following:
 * following changes …". */
static void
test_live_mode_text (Fixture *f, gconstpointer data)
{
  OviSession *session = ovi_window_get_session (f->window);
  GtkWidget *live_button = find_descendant (GTK_WIDGET (f->window), OVI_TYPE_LIVE_BUTTON);
  GtkLabel *mode = template_child (live_button, OVI_TYPE_LIVE_BUTTON, "mode_label");

  WAIT_UNTIL (ovi_session_get_watch (session) != NULL &&
              ovi_folder_watch_get_running (ovi_session_get_watch (session)));
  g_test_message ("%s", gtk_label_get_label (mode));
  g_assert_cmpstr (gtk_label_get_label (mode), ==, "Following changes as the system reports them.");
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/scan-bar/deleted-during-scan", test_deleted_during_scan);
  OVI_TEST_ADD ("/app/scan-bar/deleted-after-load", test_deleted_after_load);
  OVI_TEST_ADD ("/app/scan-bar/live-mode-text", test_live_mode_text);
  return ovi_test_run ();
}
