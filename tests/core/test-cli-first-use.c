/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ovi-fixtures.h"

/* overflow-inspector-cli as a first-time user runs it: on the wrong kind
 * of path, with a report where a folder was expected, into a folder it
 * cannot write, asking for help. */

#define LIMIT 30.0

typedef OviTmpDir Fixture;

static char *
example (const char *iteration, const char *name)
{
  return g_build_filename (SOURCE_ROOT, "data", "example-dump", "20251202101500", "0",
                           "resnet50_train", "11", iteration, name, NULL);
}

static int
run (Fixture *f, char **out, char **err, const char *const *args)
{
  return ovi_fixture_run_cli_limited (f ? f->dir : NULL, NULL, LIMIT, out, err, args);
}

/* One file that is not a dump at all: said so, not "no overflow". */
static void
test_report_not_a_dump (Fixture *f, gconstpointer data)
{
  g_autofree char *notes =
      ovi_fixture_write_bytes (f->dir, "notes.txt", "epoch 1: loss 0.25\n", 19);
  const char *args[] = { "report", notes, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run (f, &out, &err, args), ==, 1);
  g_assert_null (strstr (out, "No overflow was recorded"));
  g_assert_nonnull (strstr (out, "This file could not be read as a dump file:\n"
                                 "  notes.txt: not a dump file"));
}

/* One op dump file: what its data hold, not "no overflow in this folder"
 * above the same file listed as an origin. */
static void
test_report_one_op_file (Fixture *f, gconstpointer data)
{
  g_autofree char *cast = example ("3", "Cast.gradients_Cast_3.57.7.1764670500000200");
  g_autofree char *matmul =
      example ("3", "MatMul.gradients_MatMul_grad_MatMul.55.7.1764670500000100");
  g_autofree char *out = NULL, *err = NULL;

  {
    const char *args[] = { "report", cast, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 0);
    g_assert_null (strstr (out, "in this folder"));
    /* The window's words too (/app/overflows-page/one-file-finding-state). */
    g_assert_nonnull (strstr (out, "This is one op dump file, not a folder: it holds no overflow "
                                   "record (those are in the Opdebug files beside it), but its "
                                   "data hold 20 +Inf in output 0 of Cast gradients/Cast_3.\n"
                                   "  operator Cast gradients/Cast_3  [origin]\n"));
    g_assert_nonnull (strstr (out, "+inf 20"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "report", matmul, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 0);
    g_assert_null (strstr (out, "in this folder"));
    g_assert_nonnull (strstr (out, "This is one op dump file, not a folder: it holds no overflow "
                                   "record (those are in the Opdebug files beside it), and none of "
                                   "its values is NaN, Inf or saturated.\n"));
  }
}

static char *
cluster_example (const char *name)
{
  return g_build_filename (SOURCE_ROOT, "data", "example-cluster", name, NULL);
}

/* The hosts of the roots of a cluster report, "a b". */
static char *
hosts_of (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = json_from_string (json, &error);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) hosts = NULL;
  JsonArray *roots;

  g_assert_no_error (error);
  roots = json_object_get_array_member (json_node_get_object (root), "roots");
  for (guint i = 0; i < json_array_get_length (roots); i++)
    g_strv_builder_add (
        b, json_object_get_string_member (json_array_get_object_element (roots, i), "host"));
  hosts = g_strv_builder_end (b);
  return g_strjoinv (" ", hosts);
}

/* Report files (report --json, merge) given with folders join the cluster
 * report, as the window takes them. */
static void
test_report_with_report_files (Fixture *f, gconstpointer data)
{
  g_autofree char *node_a = cluster_example ("node-a");
  g_autofree char *node_b = cluster_example ("node-b.json");
  g_autofree char *out = NULL, *err = NULL;

  {
    const char *args[] = { "report", node_a, node_b, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_assert_nonnull (strstr (out, "machines: 2, roots: 2, ranks: 16"));
    g_assert_nonnull (strstr (out, "node-b:/data/dump, device 7"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "report", "--json", node_b, node_a, NULL };
    g_autofree char *hosts = NULL;

    g_assert_cmpint (run (f, &out, &err, args), ==, 0);
    hosts = hosts_of (out);
    g_assert_true (g_str_has_prefix (hosts, "node-b "));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    /* one report file alone is a cluster report of its roots */
    const char *args[] = { "report", node_b, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 0);
    g_assert_nonnull (strstr (out, "machines: 1, roots: 1, ranks: 8"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
}

/* A .json that is not a report, and a file that is not a dump, among
 * folders: each named once with its problem, its path not doubled. */
static void
test_report_cluster_broken_files (Fixture *f, gconstpointer data)
{
  g_autofree char *node_a = cluster_example ("node-a");
  g_autofree char *bad = ovi_fixture_write_bytes (f->dir, "other.json", "{\"a\": 1}", 8);
  g_autofree char *notes =
      ovi_fixture_write_bytes (f->dir, "notes.txt", "epoch 1: loss 0.25\n", 19);
  g_autofree char *doubled = g_build_filename (notes, "notes.txt", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "report", node_a, bad, notes, NULL };

  g_assert_cmpint (run (f, &out, &err, args), ==, 1);
  g_assert_nonnull (strstr (err, bad));
  g_assert_nonnull (strstr (err, "not an Overflow Inspector report"));
  g_assert_null (strstr (err, doubled));
  g_assert_nonnull (strstr (err, notes));
  g_assert_nonnull (strstr (err, "not a dump file"));
}

/* watch follows folders: a file is refused at once, with why. */
static void
test_watch_file (Fixture *f, gconstpointer data)
{
  g_autofree char *notes =
      ovi_fixture_write_bytes (f->dir, "notes.txt", "epoch 1: loss 0.25\n", 19);
  g_autofree char *cast = example ("3", "Cast.gradients_Cast_3.57.7.1764670500000200");
  const char *paths[] = { notes, cast };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      const char *args[] = { "watch", paths[i], NULL };
      g_autofree char *out = NULL, *err = NULL;
      g_autofree char *expected =
          g_strdup_printf ("%s: a file, not a folder: watch follows a dump folder", paths[i]);

      g_assert_cmpint (run (f, &out, &err, args), ==, 1);
      g_assert_nonnull (strstr (err, expected));
      g_assert_cmpstr (out, ==, "");
    }
}

static guint
n_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; (p = strchr (p, '\n')); p++)
    n++;
  return n;
}

/* Where every output fails the same way, one line says so, with the
 * first path and how many more. */
static void
test_convert_summary (Fixture *f, gconstpointer data)
{
  g_autofree char *in = example ("3", NULL);
  g_autofree char *in_file =
      g_build_filename (in, "Add.gradients_AddN_7.58.7.1764670500000300", NULL);
  g_autofree char *in_the_way = ovi_fixture_write_bytes (f->dir, "in-the-way", "x", 1);
  g_autofree char *blocked = g_build_filename (in_the_way, "out", NULL);
  g_autofree char *out_dir = g_build_filename (f->dir, "out", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *first = NULL;

  {
    /* 8 files: a folder cannot be made below a file */
    const char *args[] = { "convert", "-o", blocked, in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    first = g_strdup_printf ("%s: cannot create folder %s: Not a directory (and 7 more failures "
                             "like it)\n",
                             in_file, blocked);
    g_assert_cmpstr (err, ==, first);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_clear_pointer (&first, g_free);
  }
  {
    const char *args[] = { "convert", "-o", out_dir, in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    /* again: all its 16 outputs exist */
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    g_assert_cmpuint (n_lines (err), ==, 1);
    first = g_strdup_printf ("%s: %s/Add.gradients_AddN_7.58.7.1764670500000300.input.0.npy "
                             "already exists (use --force to overwrite) (and 15 more failures "
                             "like it)\n",
                             in_file, out_dir);
    g_assert_cmpstr (err, ==, first);
  }
}

/* Each command's help names the program as it is typed. */
static void
test_command_help (Fixture *f, gconstpointer data)
{
  static const char *const commands[][2] = {
    { "convert", "PATH…" }, { "merge", "REPORT…" }, { "report", "PATH…" },
    { "stats", "FILE" },    { "watch", "PATH" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *args[] = { commands[i][0], "--help", NULL };
      const char *no_path[] = { commands[i][0], NULL };
      g_autofree char *out = NULL, *err = NULL;
      g_autofree char *usage = g_strdup_printf ("Usage:\n  overflow-inspector-cli %s [OPTION…] %s",
                                                commands[i][0], commands[i][1]);

      g_assert_cmpint (run (f, &out, &err, args), ==, 0);
      g_assert_true (g_str_has_prefix (out, usage));
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      /* the help after a usage error too */
      g_assert_cmpint (run (f, &out, &err, no_path), ==, 2);
      g_assert_nonnull (strstr (err, usage));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/cli/report-not-a-dump", test_report_not_a_dump);
  ADD ("/core/cli/report-one-op-file", test_report_one_op_file);
  ADD ("/core/cli/report-with-report-files", test_report_with_report_files);
  ADD ("/core/cli/report-cluster-broken-files", test_report_cluster_broken_files);
  ADD ("/core/cli/watch-file", test_watch_file);
  ADD ("/core/cli/convert-summary", test_convert_summary);
  ADD ("/core/cli/command-help", test_command_help);
#undef ADD
  return g_test_run ();
}
