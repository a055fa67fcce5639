/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "ovi-fixtures.h"

/* overflow-inspector-cli report of several roots and merge, run as a user
 * runs them (path from $OVI_CLI). */

#define N_ROOTS 64
#define T0 G_GUINT64_CONSTANT (1764670500000000)

typedef struct
{
  char *dir;
  char *roots[N_ROOTS];
} Fixture;

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

/* The iteration of root @i's overflows: root 17 overflows first. */
static guint
iteration_of (guint i)
{
  return i == 17 ? 2 : 3 + i % 5;
}

/* 64 machines' folders of two devices: device 0 overflows in a Cast,
 * device 1 receives it through an HcomAllReduce 50 µs later. */
static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("ovi-cli-cluster-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < N_ROOTS; i++)
    {
      g_autofree char *name = g_strdup_printf ("node%02u", i);
      g_autofree char *it = g_strdup_printf ("%u", iteration_of (i));
      guint64 ts = T0 + iteration_of (i) * 1000000 + i * 10;
      g_autofree char *d0 = NULL, *d1 = NULL;

      f->roots[i] = g_build_filename (f->dir, name, NULL);
      d0 = g_build_filename (f->roots[i], "20251202101500", "0", "net", "11", it, NULL);
      d1 = g_build_filename (f->roots[i], "20251202101500", "1", "net", "11", it, NULL);
      ovi_fixture_write_overflow_op (d0, "Cast", "net/Cast_3", 57, 7, ts, FALSE);
      ovi_fixture_write_overflow_op (d1, "HcomAllReduce", "allreduce_1", 80, 7, ts + 50, TRUE);
    }
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  for (guint i = 0; i < N_ROOTS; i++)
    g_free (f->roots[i]);
  g_free (f->dir);
}

static char *
report_file (Fixture *f, guint i)
{
  g_autofree char *name = g_strdup_printf ("report-%02u.json", i);
  char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", "--json", f->roots[i], NULL),
                   ==, 0);
  g_assert_true (g_file_set_contents (path, out, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* merge of the 64 roots' reports equals the report of the 64 folders
 * opened together. */
static void
test_merge_equals_report (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) report_args = g_ptr_array_new ();
  g_autoptr (GPtrArray) merge_args = g_ptr_array_new_with_free_func (NULL);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *all = NULL, *merged = NULL, *err = NULL, *err2 = NULL;
  g_autoptr (JsonNode) all_node = NULL, merged_node = NULL;
  JsonObject *o, *first;
  JsonArray *ranks;
  g_autofree char *root17 = NULL;

  g_ptr_array_add (report_args, "report");
  g_ptr_array_add (report_args, "--json");
  g_ptr_array_add (merge_args, "merge");
  for (guint i = 0; i < N_ROOTS; i++)
    {
      g_ptr_array_add (report_args, f->roots[i]);
      g_ptr_array_add (paths, report_file (f, i));
      g_ptr_array_add (merge_args, g_ptr_array_index (paths, i));
    }
  g_ptr_array_add (report_args, NULL);
  g_ptr_array_add (merge_args, NULL);

  g_assert_cmpint (ovi_fixture_run_cli (NULL, &all, &err, (const char *const *) report_args->pdata),
                   ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (
      ovi_fixture_run_cli (NULL, &merged, &err2, (const char *const *) merge_args->pdata), ==, 0);
  g_assert_cmpstr (err2, ==, "");
  all_node = parse (all);
  merged_node = parse (merged);
  g_assert_true (json_node_equal (all_node, merged_node));

  /* And what it says: 128 ranks, root 17's device 0 first. */
  o = json_node_get_object (merged_node);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "overflow-inspector-cluster");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "roots")), ==, N_ROOTS);
  for (guint i = 0; i < N_ROOTS; i++)
    {
      JsonObject *r = json_array_get_object_element (json_object_get_array_member (o, "roots"), i);
      /* Each record keeps its origin: the root's report is unchanged. */
      g_assert_cmpstr (json_object_get_string_member (r, "root"), ==, f->roots[i]);
      g_assert_cmpstr (json_object_get_string_member (r, "host"), ==, g_get_host_name ());
    }
  ranks = json_object_get_array_member (o, "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 2 * N_ROOTS);
  first = json_object_get_object_member (o, "first_rank");
  root17 = g_strdup (f->roots[17]);
  g_assert_cmpstr (json_object_get_string_member (first, "root"), ==, root17);
  g_assert_cmpstr (json_object_get_string_member (first, "device"), ==, "0");
  g_assert_cmpstr (json_object_get_string_member (first, "role"), ==, "origin");
  g_assert_cmpint (json_object_get_int_member (first, "iteration"), ==, 2);
  {
    JsonObject *second = json_array_get_object_element (ranks, 1);
    g_assert_cmpstr (json_object_get_string_member (second, "root"), ==, root17);
    g_assert_cmpstr (json_object_get_string_member (second, "device"), ==, "1");
    g_assert_cmpstr (json_object_get_string_member (second, "role"), ==, "received");
    g_assert_true (json_object_get_boolean_member (second, "collective"));
  }
}

/* A broken and a foreign file: each named with its problem, nothing on
 * stdout, exit 1. */
static void
test_merge_rejects (Fixture *f, gconstpointer data)
{
  g_autofree char *good = report_file (f, 0);
  g_autofree char *broken = g_build_filename (f->dir, "broken.json", NULL);
  g_autofree char *foreign = g_build_filename (f->dir, "foreign.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *good_before = NULL, *good_after = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *foreign_line =
      g_strconcat (foreign, ": not an Overflow Inspector report (no \"records\" array)", NULL);

  g_assert_true (g_file_set_contents (broken, "{\"root\": \"/x\", \"records\": [", -1, NULL));
  g_assert_true (g_file_set_contents (foreign, "{\"a\":1}", -1, NULL));
  g_assert_true (g_file_get_contents (good, &good_before, NULL, NULL));

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "merge", good, broken, foreign, NULL),
                   ==, 1);
  g_assert_cmpstr (out, ==, "");
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_true (g_str_has_prefix (lines[0], broken));
  g_assert_nonnull (strstr (lines[0], "not JSON"));
  g_assert_cmpstr (lines[1], ==, foreign_line);
  g_free (out);
  g_free (err);

  /* Either alone fails the same way. */
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "merge", foreign, NULL), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "foreign.json"));
  g_free (out);
  g_free (err);

  /* An output that is also an input is refused before anything is read. */
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "merge", "--output", good, good, NULL),
                   ==, 2);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "both a REPORT and the output"));
  g_assert_true (g_file_get_contents (good, &good_after, NULL, NULL));
  g_assert_cmpstr (good_after, ==, good_before);
}

/* A cluster report merged with another report flattens into one. */
static void
test_merge_cluster_report (Fixture *f, gconstpointer data)
{
  g_autofree char *cluster_text = NULL, *err = NULL, *out = NULL, *err2 = NULL;
  g_autofree char *cluster = g_build_filename (f->dir, "cluster.json", NULL);
  g_autofree char *single = report_file (f, 4);
  g_autofree char *written = g_build_filename (f->dir, "out.json", NULL);
  g_autofree char *written_text = NULL;
  g_autoptr (JsonNode) node = NULL, written_node = NULL;
  JsonArray *roots;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &cluster_text, &err, "report", "--json",
                                           f->roots[0], f->roots[1], f->roots[2], f->roots[3],
                                           NULL),
                   ==, 0);
  g_assert_true (g_file_set_contents (cluster, cluster_text, -1, NULL));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err2, "merge", cluster, single, NULL), ==,
                   0);
  node = parse (out);
  roots = json_object_get_array_member (json_node_get_object (node), "roots");
  g_assert_cmpuint (json_array_get_length (roots), ==, 5);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (roots, i), "root"), ==,
        f->roots[i]);
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (json_node_get_object (node), "ranks")),
      ==, 10);

  /* --output writes the same. */
  g_free (out);
  g_free (err2);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err2, "merge", "--output", written, cluster,
                                           single, NULL),
                   ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (written, &written_text, NULL, NULL));
  written_node = parse (written_text);
  g_assert_true (json_node_equal (node, written_node));
}

/* The text form: one line per rank in order, the earliest marked. */
static void
test_report_text (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_rank_lines = 0;
  const char *first = NULL, *second = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", f->roots[5], f->roots[17],
                                           f->roots[6], NULL),
                   ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], ", device "))
      {
        if (n_rank_lines == 0)
          first = lines[i];
        else if (n_rank_lines == 1)
          second = lines[i];
        n_rank_lines++;
      }
  g_assert_cmpuint (n_rank_lines, ==, 6);
  g_assert_nonnull (strstr (out, "roots: 3, ranks: 6, with overflow: 6"));
  g_assert_nonnull (strstr (out, "can lag the overflow"));
  g_assert_true (g_str_has_prefix (first, "*"));
  g_assert_nonnull (strstr (first, f->roots[17]));
  g_assert_nonnull (strstr (first, "device 0"));
  g_assert_nonnull (strstr (first, "Cast net/Cast_3"));
  g_assert_nonnull (strstr (first, "origin  (earliest)"));
  g_assert_false (g_str_has_prefix (second, "*"));
  g_assert_nonnull (strstr (second, "HcomAllReduce allreduce_1 [collective]"));
  g_assert_nonnull (strstr (second, "0x110 FP16+INT  received"));
}

#define ORIGIN_NOTE                                                                                \
  "The first overflow on every device is a collective (HcomAllReduce): the origin is on a "        \
  "machine whose report is not open."

/* One machine's report alone (data/example-cluster/node-b.json), whose 8
 * devices all overflowed first in an HcomAllReduce: where the bad values
 * started is on a machine whose report is missing. report and merge say so
 * and call no device an origin; with node-a's folder, whose device 3 made
 * the Inf, the origin is known again. */
static void
test_collectives_alone (Fixture *f, gconstpointer data)
{
  g_autofree char *node_a =
      g_build_filename (SOURCE_ROOT, "data", "example-cluster", "node-a", NULL);
  g_autofree char *node_b =
      g_build_filename (SOURCE_ROOT, "data", "example-cluster", "node-b.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;
  JsonArray *ranks;
  guint n_rank_lines = 0;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", node_b, NULL), ==, 0);
  g_assert_nonnull (strstr (out, ORIGIN_NOTE));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], ", device "))
      {
        g_assert_nonnull (strstr (lines[i], "HcomAllReduce allreduce_1 [collective]"));
        g_assert_nonnull (strstr (lines[i], "  origin unknown"));
        g_assert_null (strstr (lines[i], "  origin  "));
        g_assert_false (g_str_has_suffix (lines[i], "  origin"));
        n_rank_lines++;
      }
  g_assert_cmpuint (n_rank_lines, ==, 8);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "merge", node_b, NULL), ==, 0);
  node = parse (out);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "origin_unknown"), ==, ORIGIN_NOTE);
  ranks = json_object_get_array_member (o, "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 8);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (ranks, i), "role"), ==,
        "unknown");

  /* With the machine where it started, the origin is known. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&node, json_node_unref);
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "report", "--json", node_a, node_b, NULL), ==, 0);
  node = parse (out);
  o = json_node_get_object (node);
  g_assert_true (json_object_has_member (o, "origin_unknown"));
  g_assert_true (json_object_get_null_member (o, "origin_unknown"));
  g_assert_cmpstr (
      json_object_get_string_member (json_object_get_object_member (o, "first_rank"), "role"), ==,
      "origin");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", node_a, node_b, NULL), ==,
                   0);
  g_assert_null (strstr (out, ORIGIN_NOTE));
  g_assert_null (strstr (out, "origin unknown"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/core/cli-cluster/merge-equals-report", test_merge_equals_report);
  ADD ("/core/cli-cluster/merge-rejects", test_merge_rejects);
  ADD ("/core/cli-cluster/merge-cluster-report", test_merge_cluster_report);
  ADD ("/core/cli-cluster/report-text", test_report_text);
  ADD ("/core/cli-cluster/collectives-alone", test_collectives_alone);
#undef ADD
  return g_test_run ();
}
