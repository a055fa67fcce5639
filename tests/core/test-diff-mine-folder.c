/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-diff-writer.h"
#include "ovi-diff.h"
#include "ovi-fixtures.h"

/* ovi_diff_set_mine_folder(): my run read from a folder loaded before (as
 * the window loads it: summarized, records found in the data looked for)
 * gives the diff a scan of mine gives, and reads no file that came after
 * the load. */

/* The JSON `diff --json` writes for @diff's result. */
static char *
diff_json (OviDiff *diff)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDiffResult) result = ovi_diff_run (diff, NULL, &error);
  g_autoptr (JsonNode) root = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (result);
  root = ovi_diff_result_to_json (result);
  return json_to_string (root, TRUE);
}

static guint
n_operators (OviDiff *diff)
{
  g_autoptr (OviDiffResult) result = ovi_diff_run (diff, NULL, NULL);

  g_assert_nonnull (result);
  return g_list_model_get_n_items (ovi_diff_result_get_operators (result));
}

static void
test_same_as_scan (OviTmpDir *f, gconstpointer data)
{
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *dir = g_build_filename (mine, "0", "model", "1", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (mine);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (OviDiff) scanned = ovi_diff_new (mine, golden);
  g_autoptr (OviDiff) reused = ovi_diff_new (mine, golden);
  g_autoptr (OviDiff) rescanned = ovi_diff_new (mine, golden);
  g_autoptr (GError) error = NULL;
  g_autofree char *want = NULL, *got = NULL, *after = NULL;
  guint n;

  ovi_fixture_write_diff_runs (f->dir);
  ovi_fixture_write_diff_overflow (f->dir);
  ovi_dump_folder_set_analyze (folder, TRUE);
  g_assert_true (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_no_error (error);

  want = diff_json (scanned);
  ovi_diff_set_mine_folder (reused, folder);
  got = diff_json (reused);
  g_assert_cmpstr (got, ==, want);
  n = n_operators (reused);

  /* Written after the load: the folder's copy does not have it, a scan
   * does (one more operator, in my run only). */
  ovi_fixture_write_overflow_op (dir, "Cast", "net/Written_Later", 7, 2,
                                 OVI_DIFF_FIXTURE_T0 + 999999, FALSE);
  after = diff_json (reused);
  g_assert_cmpstr (after, ==, want);
  g_assert_cmpuint (n_operators (rescanned), ==, n + 1);

  /* NULL: scanned again. */
  ovi_diff_set_mine_folder (reused, NULL);
  g_assert_cmpuint (n_operators (reused), ==, n + 1);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/diff/mine-folder/same-as-scan", OviTmpDir, NULL, ovi_tmp_dir_setup,
              test_same_as_scan, ovi_tmp_dir_teardown);
  return g_test_run ();
}
