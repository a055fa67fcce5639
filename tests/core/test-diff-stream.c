/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-diff-private.h"
#include "ovi-fixtures.h"

/* The diff's memory (#39): --json written an operator at a time is the
 * whole tree's text byte for byte, and a diff that keeps no sources, makes
 * each operator's tensors when it compares it and lets them go after, finds
 * what the window's diff finds. */

typedef OviTmpDir Fixture;

static const guint64 shape24[] = { 2, 4 };

/* MatMul → Add → Relu, then ops named with quotes and non-ASCII; @inject
 * changes my Add; @extra adds an op to this run only. */
static char *
write_run (Fixture *f, const char *name, gboolean inject, gboolean extra)
{
  char *dir = g_build_filename (f->dir, name, "0", "model", "1", NULL);
  const double x[] = { 1, -2, 3, -4, 5, 6, -7, 8 };
  const double a[] = { 2, -1, 4, -3, 6, 7, -6, 9 };
  double b[] = { 3, 0, 5, -2, 7, 8, -5, 10 }, c[8];

  if (inject)
    b[5] += 0.5;
  for (guint i = 0; i < 8; i++)
    c[i] = MAX (b[i], 0);
  ovi_fixture_write_op (dir, "MatMul", "net/MatMul", 1, OVI_DTYPE_FLOAT32, shape24, 2, x, a);
  ovi_fixture_write_op (dir, "Add", "net/Add", 2, OVI_DTYPE_FLOAT32, shape24, 2, a, b);
  ovi_fixture_write_op (dir, "Relu", "net/Relu", 3, OVI_DTYPE_FLOAT32, shape24, 2, b, c);
  ovi_fixture_write_op (dir, "Mul", "net/\"quoted\" é", 4, OVI_DTYPE_FLOAT16, shape24, 2, c, c);
  if (extra)
    ovi_fixture_write_op (dir, "Cast", "net/Cast", 5, OVI_DTYPE_FLOAT32, shape24, 2, c, c);
  return dir;
}

static void
collect (const char *text, gpointer data)
{
  g_string_append (data, text);
}

static char *
streamed (OviDiffResult *result)
{
  GString *s = g_string_new (NULL);

  ovi_diff_result_write_json (result, collect, s);
  return g_string_free (s, FALSE);
}

static char *
whole (OviDiffResult *result)
{
  g_autoptr (JsonNode) root = ovi_diff_result_to_json (result);
  return ovi_json_to_text (root);
}

static OviDiffResult *
run_diff (const char *mine, const char *golden, gboolean keep, gboolean map)
{
  g_autoptr (OviDiff) diff = ovi_diff_new (mine, golden);
  g_autoptr (GError) error = NULL;
  OviDiffResult *result;

  ovi_diff_set_keep_sources (diff, keep);
  if (map)
    g_assert_true (ovi_diff_add_mapping (diff, "net/MatMul+net/Add", "net/Add", &error));
  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  return result;
}

/* Streamed and whole agree on agreeing, diverging and one-sided runs, and
 * without kept sources the text is the same. */
static void
test_stream (Fixture *f, gconstpointer unused)
{
  g_autofree char *mine = write_run (f, "mine", TRUE, TRUE);
  g_autofree char *golden = write_run (f, "golden", FALSE, FALSE);
  const char *pairs[][2] = { { mine, golden }, { golden, mine }, { golden, golden } };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    for (guint map = 0; map < 2; map++)
      {
        g_autoptr (OviDiffResult) kept = run_diff (pairs[i][0], pairs[i][1], TRUE, map);
        g_autoptr (OviDiffResult) lean = run_diff (pairs[i][0], pairs[i][1], FALSE, map);
        g_autofree char *a = whole (kept), *b = streamed (kept), *c = streamed (lean);

        g_assert_cmpuint (g_list_model_get_n_items (ovi_diff_result_get_operators (kept)), >=, 3);
        g_assert_cmpstr (a, ==, b);
        g_assert_cmpstr (b, ==, c);
        if (i == 0 && !map)
          g_assert_nonnull (strstr (a, "\"only_mine\" : 1"));
      }
}

/* The window's pair view still reads a compared tensor again; without kept
 * sources there is nothing to read, and it says so. */
static void
test_sources (Fixture *f, gconstpointer unused)
{
  g_autofree char *mine = write_run (f, "mine", TRUE, FALSE);
  g_autofree char *golden = write_run (f, "golden", FALSE, FALSE);
  g_autoptr (OviDiffResult) kept = run_diff (mine, golden, TRUE, FALSE);
  g_autoptr (OviDiffResult) lean = run_diff (mine, golden, FALSE, FALSE);
  g_autoptr (OviDiffOperator) a = g_list_model_get_item (ovi_diff_result_get_operators (kept), 1);
  g_autoptr (OviDiffOperator) b = g_list_model_get_item (ovi_diff_result_get_operators (lean), 1);
  OviDiffSource *ms = NULL, *gs = NULL;

  g_assert_true (ovi_diff_operator_get_sources (a, 0, &ms, &gs));
  g_assert_nonnull (ms);
  g_assert_nonnull (gs);
  g_assert_false (ovi_diff_operator_get_sources (b, 0, &ms, &gs));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/diff/stream/json", Fixture, NULL, ovi_tmp_dir_setup, test_stream,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff/stream/sources", Fixture, NULL, ovi_tmp_dir_setup, test_sources,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
