/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Which rank overflowed first across two machines of 8 devices each. */

#define T0 G_GUINT64_CONSTANT (1764670500000000)

typedef struct
{
  char *dir;
  char *root_a;
  char *root_b;
  JsonNode *report_a; /* as written on "nodeA" */
  JsonNode *report_b;
} Fixture;

static char *
iteration_dir (const char *root, guint device, guint iteration)
{
  g_autofree char *d = g_strdup_printf ("%u", device);
  g_autofree char *i = g_strdup_printf ("%u", iteration);
  return g_build_filename (root, "20251202101500", d, "net", "11", i, NULL);
}

/* The report of @root as machine @host writes it. */
static JsonNode *
report_of (const char *root, const char *host)
{
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (root);
  JsonNode *node = ovi_report_build_json_full (folder, OVI_REPORT_RECORDS_ONLY);

  json_object_set_string_member (json_node_get_object (node), "host", host);
  return node;
}

/* Machine A: device 3 overflows first, in a Cast of iteration 5; devices
 * 0-2 and 4-5 receive it through an HcomAllReduce in iteration 5, 6 and 7
 * in iteration 6. Device 3 overflows again in iteration 6. Machine B
 * (same device ids) receives it through HcomAllReduce: devices 0-3 in
 * iteration 5, later than A's, 4-7 in iteration 6. */
static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("ovi-cluster-XXXXXX", &error);
  g_assert_no_error (error);
  f->root_a = g_build_filename (f->dir, "A", NULL);
  f->root_b = g_build_filename (f->dir, "B", NULL);
  for (guint d = 0; d < 8; d++)
    {
      guint it_a = d >= 6 ? 6 : 5, it_b = d >= 4 ? 6 : 5;
      g_autofree char *dir_a = iteration_dir (f->root_a, d, it_a);
      g_autofree char *dir_b = iteration_dir (f->root_b, d, it_b);
      guint64 base_a = T0 + (it_a - 5) * 1000000, base_b = T0 + (it_b - 5) * 1000000;

      if (d == 3)
        {
          g_autofree char *dir6 = iteration_dir (f->root_a, d, 6);
          ovi_fixture_write_overflow_op (dir_a, "Cast", "net/Cast_3", 57, 7, base_a + 100, FALSE);
          ovi_fixture_write_overflow_op (dir6, "Cast", "net/Cast_3", 57, 7, T0 + 1000100, FALSE);
        }
      else
        ovi_fixture_write_overflow_op (dir_a, "HcomAllReduce", "allreduce_1", 80, 7,
                                       base_a + 200 + d * 10, TRUE);
      ovi_fixture_write_overflow_op (dir_b, "HcomAllReduce", "allreduce_1", 80, 7,
                                     base_b + 300 + d * 10, TRUE);
    }
  f->report_a = report_of (f->root_a, "nodeA");
  f->report_b = report_of (f->root_b, "nodeB");
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  json_node_unref (f->report_a);
  json_node_unref (f->report_b);
  g_free (f->root_a);
  g_free (f->root_b);
  g_free (f->dir);
}

static OviCluster *
cluster_of_both (Fixture *f)
{
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (ovi_cluster_add_report (cluster, f->report_a, "A.json", &error));
  g_assert_no_error (error);
  g_assert_true (ovi_cluster_add_report (cluster, f->report_b, "B.json", &error));
  g_assert_no_error (error);
  return g_steal_pointer (&cluster);
}

static OviRank *
rank_at (OviCluster *cluster, guint i)
{
  g_autoptr (OviRank) rank = g_list_model_get_item (ovi_cluster_get_ranks (cluster), i);
  return rank; /* the model holds it */
}

static void
test_earliest_and_roles (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = cluster_of_both (f);
  GListModel *ranks = ovi_cluster_get_ranks (cluster);
  OviRank *earliest = ovi_cluster_get_earliest (cluster);
  guint n_origin = 0, n_received = 0;

  g_assert_cmpuint (g_list_model_get_n_items (ranks), ==, 16);
  g_assert_cmpuint (ovi_cluster_get_n_roots (cluster), ==, 2);

  g_assert_nonnull (earliest);
  g_assert_cmpstr (ovi_rank_get_host (earliest), ==, "nodeA");
  g_assert_cmpstr (ovi_rank_get_root (earliest), ==, f->root_a);
  g_assert_cmpstr (ovi_rank_get_device (earliest), ==, "3");
  g_assert_true (ovi_rank_get_earliest (earliest));
  g_assert_true (rank_at (cluster, 0) == earliest);
  g_assert_cmpint (ovi_rank_get_role (earliest), ==, OVI_RANK_ROLE_ORIGIN);
  g_assert_false (ovi_rank_get_collective (earliest));
  g_assert_cmpstr (ovi_rank_get_op_type (earliest), ==, "Cast");
  g_assert_cmpstr (ovi_rank_get_op_name (earliest), ==, "net/Cast_3");
  g_assert_cmpstr (ovi_rank_get_unit (earliest), ==, "AI Core");
  g_assert_cmpstr (ovi_rank_get_status_hex (earliest), ==, "0x110");
  g_assert_cmpstr (ovi_rank_get_status_summary (earliest), ==, "0x110 FP16+INT");
  g_assert_cmpstr (ovi_rank_get_first_iteration (earliest), ==, "20251202101500/3/net/11/5");
  g_assert_true (ovi_rank_has_iteration (earliest));
  g_assert_cmpuint (ovi_rank_get_iteration (earliest), ==, 5);
  /* The Opdebug file's timestamp, written 1 µs after the operator's. */
  g_assert_cmpuint (ovi_rank_get_timestamp (earliest), ==, T0 + 101);
  g_assert_cmpuint (ovi_rank_get_n_records (earliest), ==, 2);
  {
    guint n;
    const OviRankIteration *its = ovi_rank_get_iterations (earliest, &n);
    g_assert_cmpuint (n, ==, 2);
    g_assert_cmpuint (its[0].iteration, ==, 5);
    g_assert_cmpuint (its[0].n_records, ==, 1);
    g_assert_cmpuint (its[1].iteration, ==, 6);
    g_assert_cmpuint (its[1].n_records, ==, 1);
  }
  /* The properties a window binds to say the same. */
  {
    g_autofree char *host = NULL, *device = NULL;
    OviRankRole role;
    gboolean is_earliest;
    guint64 iteration;
    g_object_get (earliest, "host", &host, "device", &device, "role", &role, "earliest",
                  &is_earliest, "iteration", &iteration, NULL);
    g_assert_cmpstr (host, ==, "nodeA");
    g_assert_cmpstr (device, ==, "3");
    g_assert_cmpint (role, ==, OVI_RANK_ROLE_ORIGIN);
    g_assert_true (is_earliest);
    g_assert_cmpuint (iteration, ==, 5);
  }

  for (guint i = 0; i < 16; i++)
    {
      OviRank *rank = rank_at (cluster, i);
      if (rank == earliest)
        continue;
      g_assert_false (ovi_rank_get_earliest (rank));
      g_assert_cmpstr (ovi_rank_get_op_type (rank), ==, "HcomAllReduce");
      g_assert_true (ovi_rank_get_collective (rank));
      g_assert_cmpint (ovi_rank_get_role (rank), ==, OVI_RANK_ROLE_RECEIVED);
      g_assert_cmpuint (ovi_rank_get_n_records (rank), ==, 1);
    }
  for (guint i = 0; i < 16; i++)
    {
      OviRankRole role = ovi_rank_get_role (rank_at (cluster, i));
      n_origin += role == OVI_RANK_ROLE_ORIGIN;
      n_received += role == OVI_RANK_ROLE_RECEIVED;
    }
  g_assert_cmpuint (n_origin, ==, 1);
  g_assert_cmpuint (n_received, ==, 15);
}

static void
test_order (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = cluster_of_both (f);
  /* Iteration 5: A3 (the Cast), A0-A2, A4, A5, then B0-B3 (later
   * timestamps); iteration 6: A6, A7, then B4-B7, by timestamp. */
  static const char *const expected[] = {
    "nodeA 3", "nodeA 0", "nodeA 1", "nodeA 2", "nodeA 4", "nodeA 5", "nodeB 0", "nodeB 1",
    "nodeB 2", "nodeB 3", "nodeA 6", "nodeA 7", "nodeB 4", "nodeB 5", "nodeB 6", "nodeB 7",
  };
  guint64 last_iteration = 0, last_timestamp = 0;

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      OviRank *rank = rank_at (cluster, i);
      g_autofree char *got =
          g_strdup_printf ("%s %s", ovi_rank_get_host (rank), ovi_rank_get_device (rank));
      g_assert_cmpstr (got, ==, expected[i]);
      g_assert_cmpuint (ovi_rank_get_iteration (rank), >=, last_iteration);
      if (ovi_rank_get_iteration (rank) == last_iteration)
        g_assert_cmpuint (ovi_rank_get_timestamp (rank), >=, last_timestamp);
      last_iteration = ovi_rank_get_iteration (rank);
      last_timestamp = ovi_rank_get_timestamp (rank);
    }
}

/* Device 0 of A and device 0 of B are two ranks. */
static void
test_same_device_two_roots (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = cluster_of_both (f);
  g_autoptr (OviCluster) same_host = ovi_cluster_new ();
  g_autoptr (GError) error = NULL;
  guint n_device0 = 0;

  for (guint i = 0; i < 16; i++)
    {
      OviRank *rank = rank_at (cluster, i);
      if (g_str_equal (ovi_rank_get_device (rank), "0"))
        n_device0++;
    }
  g_assert_cmpuint (n_device0, ==, 2);

  /* Two copies of a machine's folder opened on one host: the roots tell
   * them apart. */
  json_object_set_string_member (json_node_get_object (f->report_b), "host", "nodeA");
  g_assert_true (ovi_cluster_add_report (same_host, f->report_a, "A.json", &error));
  g_assert_true (ovi_cluster_add_report (same_host, f->report_b, "B.json", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_cluster_get_ranks (same_host)), ==, 16);
}

/* The single-root report carries its own ranks, by the same code. */
static void
test_report_ranks (Fixture *f, gconstpointer data)
{
  JsonObject *o = json_node_get_object (f->report_a);
  JsonArray *ranks = json_object_get_array_member (o, "ranks");
  JsonObject *first = json_object_get_object_member (o, "first_rank");
  JsonArray *devices = json_object_get_array_member (o, "devices");
  JsonArray *records = json_object_get_array_member (o, "records");

  g_assert_cmpstr (json_object_get_string_member (o, "root"), ==, f->root_a);
  /* Each record names its device: the one in its path. */
  g_assert_cmpuint (json_array_get_length (records), ==, 9);
  for (guint i = 0; i < json_array_get_length (records); i++)
    {
      JsonObject *r = json_array_get_object_element (records, i);
      g_auto (GStrv) parts = g_strsplit (json_object_get_string_member (r, "iteration"), "/", -1);
      g_assert_cmpstr (json_object_get_string_member (r, "device"), ==, parts[1]);
    }
  g_assert_cmpuint (json_array_get_length (devices), ==, 8);
  g_assert_cmpstr (json_array_get_string_element (devices, 0), ==, "0");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 8);
  g_assert_cmpstr (json_object_get_string_member (first, "device"), ==, "3");
  g_assert_cmpstr (json_object_get_string_member (first, "role"), ==, "origin");
  g_assert_true (json_object_get_boolean_member (first, "earliest"));
  g_assert_cmpint (json_object_get_int_member (first, "iteration"), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ranks, 1), "role"),
                   ==, "received");
  g_assert_true (
      json_object_get_boolean_member (json_array_get_object_element (ranks, 1), "collective"));
}

static void
test_cluster_json (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = cluster_of_both (f);
  g_autoptr (JsonNode) node = ovi_cluster_build_json (cluster);
  g_autoptr (OviCluster) again = ovi_cluster_new ();
  g_autoptr (JsonNode) node2 = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *o = json_node_get_object (node);
  JsonArray *roots = json_object_get_array_member (o, "roots");
  JsonObject *first = json_object_get_object_member (o, "first_rank");

  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "overflow-inspector-cluster");
  g_assert_cmpuint (json_array_get_length (roots), ==, 2);
  g_assert_true (json_node_equal (json_array_get_element (roots, 0), f->report_a));
  g_assert_true (json_node_equal (json_array_get_element (roots, 1), f->report_b));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "ranks")), ==, 16);
  g_assert_cmpstr (json_object_get_string_member (first, "host"), ==, "nodeA");
  g_assert_cmpstr (json_object_get_string_member (first, "device"), ==, "3");
  g_assert_cmpstr (json_object_get_string_member (first, "status_summary"), ==, "0x110 FP16+INT");

  /* A cluster report read back flattens to the same roots and ranks. */
  g_assert_true (ovi_cluster_add_report (again, node, "cluster.json", &error));
  g_assert_no_error (error);
  node2 = ovi_cluster_build_json (again);
  g_assert_true (json_node_equal (node, node2));
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

/* Foreign and broken reports are refused, naming the file and the
 * problem, and what was added before stays. */
static void
test_rejects (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = cluster_of_both (f);
  g_autoptr (JsonNode) foreign = parse ("{\"a\": 1}");
  g_autoptr (JsonNode) array = parse ("[1, 2]");
  g_autoptr (JsonNode) bad_record = parse ("{\"root\": \"/x\", \"records\": [{\"file\": \"f\"}]}");
  g_autoptr (JsonNode) bad_cluster =
      parse ("{\"format\": \"overflow-inspector-cluster\", \"roots\": [{\"root\": \"/y\", "
             "\"records\": []}, {\"b\": 2}]}");
  g_autoptr (JsonNode) other_format = parse ("{\"format\": \"chrome-trace\", \"records\": []}");
  g_autoptr (GError) error = NULL;

  g_assert_false (ovi_cluster_add_report (cluster, foreign, "foreign.json", &error));
  g_assert_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT);
  g_assert_cmpstr (error->message, ==,
                   "foreign.json: not an Overflow Inspector report (no \"records\" array)");
  g_clear_error (&error);
  g_assert_false (ovi_cluster_add_report (cluster, array, "array.json", &error));
  g_assert_cmpstr (error->message, ==,
                   "array.json: not an Overflow Inspector report (not a JSON object)");
  g_clear_error (&error);
  g_assert_false (ovi_cluster_add_report (cluster, bad_record, "r.json", &error));
  g_assert_cmpstr (error->message, ==, "r.json: record 1 has no \"iteration\"");
  g_clear_error (&error);
  /* One bad root in a cluster report: none of its roots is added. */
  g_assert_false (ovi_cluster_add_report (cluster, bad_cluster, "cluster.json", &error));
  g_assert_cmpstr (error->message, ==,
                   "cluster.json: roots[1]: not an Overflow Inspector report (no \"records\" "
                   "array)");
  g_clear_error (&error);
  g_assert_false (ovi_cluster_add_report (cluster, other_format, "trace.json", &error));
  g_assert_nonnull (strstr (error->message, "trace.json"));
  g_clear_error (&error);
  /* The same root twice would count its ranks twice. */
  g_assert_false (ovi_cluster_add_report (cluster, f->report_a, "again.json", &error));
  g_assert_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_DUPLICATE_ROOT);
  g_assert_nonnull (strstr (error->message, "again.json"));
  g_clear_error (&error);

  g_assert_cmpuint (ovi_cluster_get_n_roots (cluster), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_cluster_get_ranks (cluster)), ==, 16);
  g_assert_cmpstr (ovi_rank_get_device (ovi_cluster_get_earliest (cluster)), ==, "3");
}

static char *
write_json (Fixture *f, const char *name, JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);
  char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

static void
loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GError **error = user_data;

  g_assert_false (ovi_cluster_load_reports_finish (OVI_CLUSTER (source), result, error));
}

/* Report files are parsed off the main loop; the good ones are added
 * even when another is broken. */
static void
test_load_async (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autofree char *a = write_json (f, "A.json", f->report_a);
  g_autofree char *b = write_json (f, "B.json", f->report_b);
  g_autofree char *broken = g_build_filename (f->dir, "broken.json", NULL);
  GFile *files[3];
  GError *error = NULL;

  g_assert_true (g_file_set_contents (broken, "{\"root\": \"/x\", \"records\": [", -1, NULL));
  files[0] = g_file_new_for_path (a);
  files[1] = g_file_new_for_path (broken);
  files[2] = g_file_new_for_path (b);
  ovi_cluster_load_reports_async (cluster, files, 3, NULL, loaded, &error);
  /* Nothing is added before the files are read. */
  g_assert_cmpuint (ovi_cluster_get_n_roots (cluster), ==, 0);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT);
  g_assert_true (g_str_has_prefix (error->message, broken));
  g_assert_nonnull (strstr (error->message, "not JSON"));
  g_assert_null (strchr (error->message, '\n')); /* one line: one bad file */
  g_assert_cmpuint (ovi_cluster_get_n_roots (cluster), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_cluster_get_ranks (cluster)), ==, 16);
  g_assert_cmpstr (ovi_rank_get_host (ovi_cluster_get_earliest (cluster)), ==, "nodeA");
  g_error_free (error);
  for (guint i = 0; i < 3; i++)
    g_object_unref (files[i]);
}

/* A device with dump files and no overflow is a rank too, last, with no
 * role; one with only ignored records has no first overflow either. */
static void
test_no_overflow (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (JsonNode) node = parse (
      "{\"root\": \"/r\", \"host\": \"n\", \"devices\": [\"0\", \"1\", \"2\"], \"records\": ["
      "{\"iteration\": \"t/2/m/1/4\", \"device\": \"2\", \"timestamp\": 5, \"ignored\": true,"
      " \"op\": {\"op_type\": \"Cast\", \"op_name\": \"c\"}},"
      "{\"iteration\": \"t/0/m/1/4\", \"device\": \"0\", \"timestamp\": 9, \"ignored\": false,"
      " \"source\": \"data\", \"unit\": \"Data\", \"status_hex\": \"0x0\","
      " \"op\": {\"op_type\": \"HcomAllGather\", \"op_name\": \"g\"}}]}");
  g_autoptr (GError) error = NULL;
  OviRank *r;

  g_assert_true (ovi_cluster_add_report (cluster, node, "n.json", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_cluster_get_ranks (cluster)), ==, 3);
  r = rank_at (cluster, 0);
  g_assert_cmpstr (ovi_rank_get_device (r), ==, "0");
  /* A collective first overflow with no non-collective one before it:
   * its bad values came from a device that is not open, so its origin is
   * unknown (issue #30 item 5), not its own. */
  g_assert_cmpint (ovi_rank_get_role (r), ==, OVI_RANK_ROLE_UNKNOWN);
  g_assert_true (ovi_rank_get_collective (r));
  g_assert_true (ovi_rank_get_earliest (r));
  for (guint i = 1; i < 3; i++)
    {
      r = rank_at (cluster, i);
      g_assert_cmpint (ovi_rank_get_role (r), ==, OVI_RANK_ROLE_NONE);
      g_assert_false (ovi_rank_get_earliest (r));
    }
  g_assert_cmpstr (ovi_rank_get_device (rank_at (cluster, 1)), ==, "1");
  g_assert_cmpstr (ovi_rank_get_device (rank_at (cluster, 2)), ==, "2");
  g_assert_cmpuint (ovi_rank_get_n_records (rank_at (cluster, 2)), ==, 1);
}

static char *
write_text (Fixture *f, const char *name, const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* Report files are read by core's own JSON reader (json-glib's tree of
 * hundreds of megabytes is too slow): it refuses what RFC 8259 refuses
 * (as Python's json module does; json-glib lets some of it pass), decodes
 * escapes, and keeps each root's text as it is. */
static void
test_text_reader (Fixture *f, gconstpointer data)
{
  static const char *const broken[] = {
    "",
    "{\"root\": \"/x\", \"records\": [1,]}",
    "{\"root\": \"/x\", \"records\": []",
    "{\"root\": \"/x\", \"records\": []} {}",
    "{\"a\": tru}",
    "{\"a\" 1}",
    "{\"a\": \"\\x\"}",
    "{\"a\": \"\001\"}",
    "{\"a\": \"\xff\xfe\"}",
    "{\"a\": 1.}",
    "{\"a\": -}",
    "[1 2]",
  };
  const char *valid =
      "{\"root\": \"/d\\u00e9p\\\"t\", \"host\": \"h\\u00f8st\", \"x\": [1.5e3, -2, true, false, "
      "null, {}, [], \"\\ud83d\\ude00\"],\n \"records\": [{\"iteration\": \"a/5\", \"timestamp\": "
      "7, "
      "\"device\": \"\\u0033\", \"flags\": [\"0x10\", \"0x100\"], \"unit\": \"AI Core\", "
      "\"status_hex\": \"0x110\", \"op\": {\"op_type\": \"Hcom\\u0041llReduce\", \"op_name\": "
      "\"a\\/r\"}}]}";
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *path = write_text (f, "valid.json", valid);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonNode) built = NULL, written = NULL;
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  OviRank *rank;

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autofree char *name = g_strdup_printf ("broken-%u.json", i);
      g_autofree char *bad = write_text (f, name, broken[i]);
      g_autoptr (GFile) bad_file = g_file_new_for_path (bad);
      g_autofree char *prefix = g_strconcat (bad, ": not JSON: line 1, column ", NULL);

      g_test_message ("%s", broken[i]);
      g_assert_false (ovi_cluster_add_report_files (cluster, &bad_file, 1, NULL, &error));
      g_assert_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      g_clear_error (&error);
    }
  g_assert_cmpuint (ovi_cluster_get_n_roots (cluster), ==, 0);

  g_assert_true (ovi_cluster_add_report_files (cluster, &file, 1, NULL, &error));
  g_assert_no_error (error);
  rank = ovi_cluster_get_earliest (cluster);
  g_assert_cmpstr (ovi_rank_get_root (rank), ==, "/d\u00e9p\"t");
  g_assert_cmpstr (ovi_rank_get_host (rank), ==, "h\u00f8st");
  g_assert_cmpstr (ovi_rank_get_device (rank), ==, "3");
  g_assert_cmpstr (ovi_rank_get_op_type (rank), ==, "HcomAllReduce");
  g_assert_cmpstr (ovi_rank_get_op_name (rank), ==, "a/r");
  g_assert_true (ovi_rank_get_collective (rank));
  g_assert_cmpstr (ovi_rank_get_status_summary (rank), ==, "0x110 FP16+INT");
  g_assert_cmpuint (ovi_rank_get_timestamp (rank), ==, 7);

  /* The root as written and as a tree: the file's, unchanged. */
  g_assert_true (json_parser_load_from_data (parser, valid, -1, NULL));
  built = ovi_cluster_build_json (cluster);
  g_assert_true (
      json_node_equal (json_array_get_element (
                           json_object_get_array_member (json_node_get_object (built), "roots"), 0),
                       json_parser_get_root (parser)));
  g_assert_true (ovi_cluster_write_json (cluster, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  {
    g_autoptr (JsonParser) p2 = json_parser_new ();
    g_assert_true (json_parser_load_from_data (
        p2, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
        g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)), &error));
    g_assert_no_error (error);
    g_assert_true (json_node_equal (json_parser_get_root (p2), built));
  }
}

/* Devices without a record are kept as their ids and made into ranks only
 * when asked for (issue #29, item 3: a report of a million devices took
 * 3.96 GB to merge): the ranks are the same, in the same order, the same
 * object each time, and the cluster report writes them byte for byte as
 * json-glib writes the tree of ovi_cluster_build_ranks_json(). */
static void
test_quiet_devices (Fixture *f, gconstpointer data)
{
  const char *text =
      "{\"root\": \"/q\", \"host\": \"nodeQ\", \"devices\": [\"7\", \"10\", \"2\", null, "
      "\"gpu\\\"x\", \"3\", \"10\", \"007\", \"18446744073709551616\", \"5\", \"\\u00e9\"], "
      "\"records\": [{\"iteration\": \"t/5/net/11/4\", \"timestamp\": 9, \"device\": \"5\", "
      "\"ignored\": false, \"unit\": \"AI Core\", \"status_hex\": \"0x110\"}, "
      "{\"iteration\": \"t/3/net/11/4\", \"timestamp\": 8, \"device\": \"3\", \"ignored\": true}]}";
  static const char *const order[] = {
    NULL, "2", "3", "007", "7", "10", "18446744073709551616", "gpu\"x", "\u00e9"
  };
  g_autofree char *path = write_text (f, "Q.json", text);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (JsonNode) ranks = NULL;
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *expected = NULL, *written = NULL;
  GListModel *list;
  const char *start, *end;
  guint n, q = 0;

  g_assert_true (ovi_cluster_add_report (cluster, f->report_a, "A.json", &error));
  g_assert_no_error (error);
  g_assert_true (ovi_cluster_add_report_files (cluster, &file, 1, NULL, &error));
  g_assert_no_error (error);
  list = ovi_cluster_get_ranks (cluster);
  n = g_list_model_get_n_items (list);
  /* nodeA's 8 and nodeQ's 5 with an overflow first, then the others by
   * host, root and device. */
  g_assert_cmpuint (n, ==, 8 + 1 + G_N_ELEMENTS (order));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (list, i);
      g_autoptr (OviRank) same = g_list_model_get_item (list, i);

      g_assert_true (rank == same);
      if (!g_str_equal (ovi_rank_get_host (rank), "nodeQ"))
        continue;
      if (ovi_rank_get_role (rank) != OVI_RANK_ROLE_NONE)
        {
          g_assert_cmpstr (ovi_rank_get_device (rank), ==, "5");
          continue;
        }
      g_assert_cmpstr (ovi_rank_get_device (rank), ==, order[q]);
      g_assert_cmpuint (ovi_rank_get_n_records (rank), ==, g_strcmp0 (order[q], "3") == 0);
      q++;
    }
  g_assert_cmpuint (q, ==, G_N_ELEMENTS (order));

  g_assert_true (ovi_cluster_write_json (cluster, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  written = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  start = strstr (written, "\n  ],\n  \"ranks\" : ");
  end = g_strrstr (written, ",\n  \"first_rank\" : ");
  g_assert_nonnull (start);
  g_assert_nonnull (end);
  start += strlen ("\n  ],\n  \"ranks\" : ");
  ranks = ovi_cluster_build_ranks_json (cluster);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, ranks);
  expected = json_generator_to_data (gen, NULL);
  g_assert_cmpmem (start, end - start, expected, strlen (expected));

  /* No rank at all: an empty array, as json-glib writes it. */
  {
    g_autoptr (OviCluster) empty = ovi_cluster_new ();
    g_autoptr (GOutputStream) out2 = g_memory_output_stream_new_resizable ();
    g_autoptr (JsonNode) none = NULL;
    g_autofree char *text2 = NULL, *expected2 = NULL, *array = NULL;
    g_autofree char *path2 = write_text (f, "E.json", "{\"root\": \"/e\", \"records\": []}");
    g_autoptr (GFile) file2 = g_file_new_for_path (path2);

    g_assert_true (ovi_cluster_add_report_files (empty, &file2, 1, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (ovi_cluster_get_ranks (empty)), ==, 0);
    g_assert_true (ovi_cluster_write_json (empty, out2, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (out2, "", 1, NULL, NULL, NULL));
    g_assert_true (g_output_stream_close (out2, NULL, NULL));
    text2 = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out2));
    none = ovi_cluster_build_ranks_json (empty);
    json_generator_set_root (gen, none);
    array = json_generator_to_data (gen, NULL);
    expected2 = g_strconcat ("\"ranks\" : ", array, ",", NULL);
    g_assert_nonnull (strstr (text2, expected2));
  }
}

/* A report file that shrinks or is replaced after merge read it: the roots
 * hold their own copy of its text (issue #29, item 14). With the text in a
 * map of the file, writing the cluster report after the file was cut died
 * of SIGBUS; now the cluster report is the one of the file as it was read. */
static void
test_file_shrinks_after_reading (Fixture *f, gconstpointer data)
{
  g_autofree char *text = ovi_json_to_text (f->report_a);
  g_autofree char *path = write_text (f, "A.json", text);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (OviCluster) before = ovi_cluster_new ();
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (GOutputStream) expected = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;

  g_assert_true (ovi_cluster_add_report_files (before, &file, 1, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (ovi_cluster_write_json (before, expected, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (expected, NULL, NULL));

  g_assert_true (ovi_cluster_add_report_files (cluster, &file, 1, NULL, &error));
  g_assert_no_error (error);
  /* Cut to nothing, then to a few bytes: whatever the file holds now, the
   * cluster writes what it read. */
  g_assert_cmpint (truncate (path, 0), ==, 0);
  g_assert_cmpint (truncate (path, 10), ==, 0);
  g_assert_true (ovi_cluster_write_json (cluster, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                   g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)),
                   g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (expected)),
                   g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (expected)));
}

/* Timestamps are u64: a report being built marks values above 2^63 - 1
 * (ovi-report.c), a report file has them as plain numbers. */
static void
test_u64_timestamp (Fixture *f, gconstpointer data)
{
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (JsonNode) node =
      parse ("{\"root\": \"/r\", \"records\": [{\"iteration\": \"t/0/m/1/4\", \"device\": \"0\","
             " \"timestamp\": \"\\u0001u64:18446744073709551615\"}]}");
  g_autofree char *path = write_text (
      f, "u64.json",
      "{\"root\": \"/s\", \"records\": [{\"iteration\": \"t/0/m/1/4\", \"device\": \"0\","
      " \"timestamp\": 18446744073709551614}]}");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_true (ovi_cluster_add_report (cluster, node, "built", &error));
  g_assert_no_error (error);
  g_assert_true (ovi_cluster_add_report_files (cluster, &file, 1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ovi_rank_get_timestamp (rank_at (cluster, 0)), ==,
                    G_GUINT64_CONSTANT (18446744073709551614));
  g_assert_cmpuint (ovi_rank_get_timestamp (rank_at (cluster, 1)), ==, G_MAXUINT64);
}

/* The window's own folder joins the cluster from its records, with no
 * report in between: the same ranks, roles and earliest rank as from its
 * report's JSON; and it is not written into a cluster report. */
static void
test_from_folder (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpFolder) folder_a = ovi_fixture_load_folder (f->root_a);
  g_autoptr (OviCluster) direct = ovi_cluster_new ();
  g_autoptr (OviCluster) through_json = ovi_cluster_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) ranks_direct = NULL;
  g_autoptr (JsonNode) ranks_json = NULL;
  g_autoptr (JsonNode) written = NULL;
  g_autofree char *text_direct = NULL;
  g_autofree char *text_json = NULL;

  g_assert_true (ovi_cluster_add_folder (direct, folder_a, "nodeA", &error));
  g_assert_no_error (error);
  g_assert_true (ovi_cluster_add_report (direct, f->report_b, "B.json", &error));
  g_assert_true (ovi_cluster_add_report (through_json, f->report_a, "A.json", &error));
  g_assert_true (ovi_cluster_add_report (through_json, f->report_b, "B.json", &error));

  g_assert_cmpuint (g_list_model_get_n_items (ovi_cluster_get_ranks (direct)), ==, 16);
  ranks_direct = ovi_cluster_build_ranks_json (direct);
  ranks_json = ovi_cluster_build_ranks_json (through_json);
  text_direct = json_to_string (ranks_direct, TRUE);
  text_json = json_to_string (ranks_json, TRUE);
  g_assert_cmpstr (text_direct, ==, text_json);
  g_assert_cmpstr (ovi_rank_get_device (ovi_cluster_get_earliest (direct)), ==, "3");

  /* Twice is once too many. */
  g_assert_false (ovi_cluster_add_folder (direct, folder_a, "nodeA", &error));
  g_assert_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_DUPLICATE_ROOT);

  written = ovi_cluster_build_json (direct);
  g_assert_cmpuint (json_array_get_length (
                        json_object_get_array_member (json_node_get_object (written), "roots")),
                    ==, 1);
}

static void
test_collective_types (void)
{
  static const char *const yes[] = { "HcomAllReduce", "HcomAllGather", "HcomReduceScatter",
                                     "HcomBroadcast", "HcomSend",      "HcomReceive",
                                     "HcomAlltoAllV" };
  static const char *const no[] = { "Cast", "MatMul", "Hcom", "AllReduceFake", "", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (ovi_op_type_is_collective (yes[i]));
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (ovi_op_type_is_collective (no[i]));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/core/cluster/earliest-and-roles", test_earliest_and_roles);
  ADD ("/core/cluster/order", test_order);
  ADD ("/core/cluster/same-device-two-roots", test_same_device_two_roots);
  ADD ("/core/cluster/report-ranks", test_report_ranks);
  ADD ("/core/cluster/cluster-json", test_cluster_json);
  ADD ("/core/cluster/rejects", test_rejects);
  ADD ("/core/cluster/load-async", test_load_async);
  ADD ("/core/cluster/no-overflow", test_no_overflow);
  ADD ("/core/cluster/text-reader", test_text_reader);
  ADD ("/core/cluster/u64-timestamp", test_u64_timestamp);
  ADD ("/core/cluster/from-folder", test_from_folder);
  ADD ("/core/cluster/file-shrinks-after-reading", test_file_shrinks_after_reading);
  ADD ("/core/cluster/quiet-devices", test_quiet_devices);
#undef ADD
  g_test_add_func ("/core/cluster/collective-types", test_collective_types);
  return g_test_run ();
}
