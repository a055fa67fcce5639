/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"

/* A followed folder lists the problems its load listed (the command-line
 * tool's): the first walk of OviFolderWatch reads every folder again, and
 * must come to the same problems, with monitoring and with polling. */

/* Loads @root, follows it until its first walk is over, and checks that
 * its problems are still those of the load, which include @expected. */
static void
assert_walk_keeps_problems (const char *root, OviWatchMode mode, const char *expected)
{
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (root);
  g_autoptr (OviFolderWatch) watch = ovi_folder_watch_new (folder, mode);
  g_autofree char *loaded = ovi_fixture_problem_lines (ovi_dump_folder_get_problems (folder));
  g_autofree char *followed = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_assert_nonnull (strstr (loaded, expected));
  ovi_folder_watch_start (watch);
  while (ovi_folder_watch_get_busy (watch))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  followed = ovi_fixture_problem_lines (ovi_dump_folder_get_problems (folder));
  g_test_message ("loaded:\n%sfollowed:\n%s", loaded, followed);
  g_assert_cmpstr (followed, ==, loaded);
  ovi_folder_watch_stop (watch);
}

/* A folder of mode 0444, for a user: listed, but its files cannot be
 * opened. Each is a problem, in the load and after the walk. */
static void
test_unsearchable (OviTmpDir *f, gconstpointer data)
{
  g_autofree char *locked = g_build_filename (f->dir, "1", "locked", NULL);
  g_autofree char *probe = g_build_filename (locked, "mapping.csv", NULL);
  GStatBuf st;

  g_assert_no_errno (g_mkdir_with_parents (locked, 0755));
  ovi_fixture_write_overflow_op (locked, "Cast", "gradients/Cast_3", 7, 2, 1764670000000000, FALSE);
  g_assert_no_errno (g_chmod (locked, 0444));
  if (g_stat (probe, &st) == 0 || errno != EACCES)
    {
      g_chmod (locked, 0755);
      g_test_skip ("permission bits do not apply to this process");
      return;
    }
  assert_walk_keeps_problems (f->dir, GPOINTER_TO_INT (data),
                              "1/locked/Cast.gradients_Cast_3.7.2.1764670000000000: "
                              "cannot open: Permission denied\n");
  g_assert_no_errno (g_chmod (locked, 0755));
}

/* A tree 2,000 folders deep: the first folder whose path is too long to
 * open is a problem, in the load and after the walk (with the mapping.csv
 * of the folders above it whose own path is too long to look for). */
static void
test_deep (OviTmpDir *f, gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "deep", NULL);

  g_assert_no_errno (g_mkdir (root, 0755));
  ovi_fixture_write_overflow_op (root, "Cast", "gradients/Cast_3", 7, 2, 1764670000000000, FALSE);
  ovi_fixture_nest (f->dir, "deep", "level", 1999);
  assert_walk_keeps_problems (root, GPOINTER_TO_INT (data),
                              "/level: cannot read the folder: File name too long\n");
  ovi_fixture_remove_nested (f->dir, "deep", "level");
}

int
main (int argc, char **argv)
{
  /* Permission bits apply to these tests as they do to a user. */
  ovi_fixture_drop_dac_override ();
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/watch-problems/unsearchable/monitor", OviTmpDir,
              GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR), ovi_tmp_dir_setup, test_unsearchable,
              ovi_tmp_dir_teardown);
  g_test_add ("/watch-problems/unsearchable/poll", OviTmpDir, GINT_TO_POINTER (OVI_WATCH_MODE_POLL),
              ovi_tmp_dir_setup, test_unsearchable, ovi_tmp_dir_teardown);
  g_test_add ("/watch-problems/deep/monitor", OviTmpDir, GINT_TO_POINTER (OVI_WATCH_MODE_MONITOR),
              ovi_tmp_dir_setup, test_deep, ovi_tmp_dir_teardown);
  g_test_add ("/watch-problems/deep/poll", OviTmpDir, GINT_TO_POINTER (OVI_WATCH_MODE_POLL),
              ovi_tmp_dir_setup, test_deep, ovi_tmp_dir_teardown);
  return g_test_run ();
}
