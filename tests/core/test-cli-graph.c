/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-graph-fixture.h"

/* overflow-inspector-cli graph: the project's JSON, Graphviz text, and
 * Google Model Explorer's graph JSON and node data, each checked against
 * the format its readers expect. */

#define ITERATION "20260101000000/0/11/0"

typedef OviTmpDir Fixture;

static const OviGraphFixtureExternal inputs[] = {
  { "input_ids", "Data", FALSE },
  { "w", "Const", FALSE },
};

/* Two branches; p goes bad, q stays clean; they meet in join/Add. */
static const OviGraphFixtureOp ops[] = {
  { "Cast", "bert/embeddings/Cast", "input_ids", 0, OVI_GRAPH_FIXTURE_PASS },
  { "MatMul", "bert/p/MatMul", "bert/embeddings/Cast w", 0, OVI_GRAPH_FIXTURE_ORIGIN },
  { "MatMul", "bert/q/MatMul", "bert/embeddings/Cast w", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Add", "join/Add", "bert/p/MatMul bert/q/MatMul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Softmax", "Softmax", "join/Add", 0, OVI_GRAPH_FIXTURE_ABSORB },
};

static const OviGraphFixtureNet net = { inputs, G_N_ELEMENTS (inputs), ops, G_N_ELEMENTS (ops) };

/* A JSON-schema-like description of Model Explorer's formats, from its
 * graph_builder.py and node_data_builder.py dataclasses and what the UI's
 * loadGraphsJson() takes: members, their types, which are required; no
 * other member is allowed. */
typedef enum
{
  T_STRING,
  T_NUMBER,
  T_BOOL,
  T_OBJECT,           /* of @sub */
  T_ARRAY,            /* of @item, objects of @sub */
  T_MAP,              /* any keys, values objects of @sub */
  T_STRING_OR_OBJECT, /* a KeyValue's value: a string or {type, nodeIds} */
} Type;

typedef struct Member Member;
struct Member
{
  const char *key;
  Type type;
  gboolean required;
  Type item;
  const Member *sub;
};

#define END                                                                                        \
  {                                                                                                \
    NULL, 0, 0, 0, NULL                                                                            \
  }

static const Member key_value[] = {
  { "key", T_STRING, TRUE, 0, NULL },
  { "value", T_STRING_OR_OBJECT, TRUE, 0, NULL },
  END,
};
static const Member metadata_item[] = {
  { "id", T_STRING, TRUE, 0, NULL },
  { "attrs", T_ARRAY, FALSE, T_OBJECT, key_value },
  END,
};
static const Member incoming_edge[] = {
  { "sourceNodeId", T_STRING, TRUE, 0, NULL },
  { "sourceNodeOutputId", T_STRING, FALSE, 0, NULL },
  { "targetNodeInputId", T_STRING, FALSE, 0, NULL },
  END,
};
static const Member node_style[] = {
  { "backgroundColor", T_STRING, FALSE, 0, NULL },
  { "borderColor", T_STRING, FALSE, 0, NULL },
  { "hoveredBorderColor", T_STRING, FALSE, 0, NULL },
  END,
};
static const Member node_config[] = {
  { "pinToGroupTop", T_BOOL, FALSE, 0, NULL },
  END,
};
static const Member graph_node[] = {
  { "id", T_STRING, TRUE, 0, NULL },
  { "label", T_STRING, TRUE, 0, NULL },
  { "namespace", T_STRING, FALSE, 0, NULL },
  { "subgraphIds", T_ARRAY, FALSE, T_STRING, NULL },
  { "attrs", T_ARRAY, FALSE, T_OBJECT, key_value },
  { "incomingEdges", T_ARRAY, FALSE, T_OBJECT, incoming_edge },
  { "outputsMetadata", T_ARRAY, FALSE, T_OBJECT, metadata_item },
  { "inputsMetadata", T_ARRAY, FALSE, T_OBJECT, metadata_item },
  { "style", T_OBJECT, FALSE, 0, node_style },
  { "config", T_OBJECT, FALSE, 0, node_config },
  END,
};
static const Member graph[] = {
  { "id", T_STRING, TRUE, 0, NULL },
  { "nodes", T_ARRAY, TRUE, T_OBJECT, graph_node },
  { "groupNodeAttributes", T_OBJECT, FALSE, 0, NULL },
  { "groupNodeConfigs", T_ARRAY, FALSE, T_OBJECT, NULL },
  { "nodeLabelsToHide", T_ARRAY, FALSE, T_STRING, NULL },
  { "tasksData", T_OBJECT, FALSE, 0, NULL },
  { "layoutConfigs", T_OBJECT, FALSE, 0, NULL },
  END,
};
static const Member graph_collection[] = {
  { "label", T_STRING, TRUE, 0, NULL },
  { "graphs", T_ARRAY, TRUE, T_OBJECT, graph },
  { "graphSorting", T_STRING, FALSE, 0, NULL },
  END,
};
static const Member node_data_result[] = {
  { "value", T_NUMBER, TRUE, 0, NULL },
  { "bgColor", T_STRING, FALSE, 0, NULL },
  { "textColor", T_STRING, FALSE, 0, NULL },
  END,
};
static const Member colour_stop[] = {
  { "value", T_NUMBER, FALSE, 0, NULL },
  { "stop", T_NUMBER, FALSE, 0, NULL },
  { "bgColor", T_STRING, FALSE, 0, NULL },
  { "textColor", T_STRING, FALSE, 0, NULL },
  END,
};
static const Member graph_node_data[] = {
  { "results", T_MAP, TRUE, 0, node_data_result },
  { "name", T_STRING, FALSE, 0, NULL },
  { "thresholds", T_ARRAY, FALSE, T_OBJECT, colour_stop },
  { "gradient", T_ARRAY, FALSE, T_OBJECT, colour_stop },
  { "hideInAggregatedStatsTable", T_BOOL, FALSE, 0, NULL },
  { "hideInChildrenStatsTable", T_BOOL, FALSE, 0, NULL },
  { "hideAggregatedStats", T_ARRAY, FALSE, T_STRING, NULL },
  { "showExpandedSummaryOnGroupNode", T_BOOL, FALSE, 0, NULL },
  { "showLabelCountColumnsInChildrenStatsTable", T_BOOL, FALSE, 0, NULL },
  END,
};

static void check_object (JsonNode *node, const Member *schema, const char *where);

static void
check_value (JsonNode *node, Type type, Type item, const Member *sub, const char *where)
{
  switch (type)
    {
    case T_STRING:
      g_assert_true (JSON_NODE_HOLDS_VALUE (node));
      g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_STRING);
      break;
    case T_NUMBER:
      g_assert_true (JSON_NODE_HOLDS_VALUE (node));
      g_assert_true (json_node_get_value_type (node) == G_TYPE_INT64 ||
                     json_node_get_value_type (node) == G_TYPE_DOUBLE);
      break;
    case T_BOOL:
      g_assert_true (JSON_NODE_HOLDS_VALUE (node));
      g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_BOOLEAN);
      break;
    case T_OBJECT:
      if (sub)
        check_object (node, sub, where);
      else
        g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      break;
    case T_ARRAY:
      g_assert_true (JSON_NODE_HOLDS_ARRAY (node));
      for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
        check_value (json_array_get_element (json_node_get_array (node), i), item, 0, sub, where);
      break;
    case T_MAP:
      {
        g_autoptr (GList) members = NULL;
        g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
        members = json_object_get_members (json_node_get_object (node));
        for (GList *l = members; l; l = l->next)
          check_object (json_object_get_member (json_node_get_object (node), l->data), sub, where);
        break;
      }
    case T_STRING_OR_OBJECT:
      g_assert_true (
          JSON_NODE_HOLDS_OBJECT (node) ||
          (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING));
      break;
    }
}

static void
check_object (JsonNode *node, const Member *schema, const char *where)
{
  JsonObject *o;
  g_autoptr (GList) members = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    g_error ("%s: not an object", where);
  o = json_node_get_object (node);
  for (const Member *m = schema; m->key; m++)
    {
      if (!json_object_has_member (o, m->key))
        {
          if (m->required)
            g_error ("%s: no \"%s\"", where, m->key);
          continue;
        }
      check_value (json_object_get_member (o, m->key), m->type, m->item, m->sub, m->key);
    }
  members = json_object_get_members (o);
  for (GList *l = members; l; l = l->next)
    {
      gboolean known = FALSE;
      for (const Member *m = schema; m->key; m++)
        known |= g_str_equal (m->key, l->data);
      if (!known)
        g_error ("%s: \"%s\" is not in the format", where, (const char *) l->data);
    }
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static JsonObject *
node_by_id (JsonArray *nodes, const char *id)
{
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      if (g_str_equal (json_object_get_string_member (n, "id"), id))
        return n;
    }
  return NULL;
}

static char *
write_net (Fixture *f, OviGraphFixtureFlags flags, OviGraphFixtureTruth *truth)
{
  g_autofree char *dir = g_build_filename (f->dir, "dump", ITERATION, NULL);

  ovi_graph_fixture_write (&net, dir, flags, truth);
  return g_build_filename (f->dir, "dump", NULL);
}

/* --format model-explorer and --node-data: Model Explorer's formats, ids
 * unique, every edge's source a node, every node-data key a node. */
static void
test_model_explorer (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autofree char *folder = write_net (f, OVI_GRAPH_FIXTURE_ADDRESSES, &truth);
  g_autofree char *node_data = g_build_filename (f->dir, "node-data.json", NULL);
  g_autofree char *out = NULL, *err = NULL, *data_text = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonNode) data_root = NULL;
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *graph_obj, *join, *results;
  JsonArray *nodes, *edges;
  const char *graph_id;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "graph", "--format", "model-explorer",
                                           "--node-data", node_data, folder, NULL),
                   ==, 0);
  g_assert_cmpstr (err, ==, "");
  root = parse (out);
  check_object (root, graph_collection, "graph collection");
  graph_obj = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (root), "graphs"), 0);
  graph_id = json_object_get_string_member (graph_obj, "id");
  nodes = json_object_get_array_member (graph_obj, "nodes");
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      const char *id =
          json_object_get_string_member (json_array_get_object_element (nodes, i), "id");
      g_assert_false (g_hash_table_contains (ids, id));
      g_hash_table_add (ids, (gpointer) id);
    }
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonArray *in =
          json_object_get_array_member (json_array_get_object_element (nodes, i), "incomingEdges");
      for (guint k = 0; k < json_array_get_length (in); k++)
        g_assert_true (g_hash_table_contains (
            ids,
            json_object_get_string_member (json_array_get_object_element (in, k), "sourceNodeId")));
    }
  /* Node ids are the header's op names, namespaces their `/` paths. */
  join = node_by_id (nodes, "join/Add");
  g_assert_nonnull (join);
  g_assert_cmpstr (json_object_get_string_member (join, "namespace"), ==, "join");
  g_assert_cmpstr (json_object_get_string_member (join, "label"), ==, "Add");
  g_assert_cmpstr (json_object_get_string_member (node_by_id (nodes, "bert/p/MatMul"), "namespace"),
                   ==, "bert/p");
  edges = json_object_get_array_member (join, "incomingEdges");
  g_assert_cmpuint (json_array_get_length (edges), ==, 2);
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (edges, 0), "sourceNodeId"), ==,
      "bert/p/MatMul");
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (edges, 1), "targetNodeInputId"),
      ==, "1");

  g_assert_true (g_file_get_contents (node_data, &data_text, NULL, NULL));
  data_root = parse (data_text);
  g_assert_true (json_object_has_member (json_node_get_object (data_root), graph_id));
  check_value (data_root, T_MAP, 0, graph_node_data, "node data");
  results = json_object_get_object_member (
      json_object_get_object_member (json_node_get_object (data_root), graph_id), "results");
  {
    g_autoptr (GList) keys = json_object_get_members (results);
    for (GList *l = keys; l; l = l->next)
      g_assert_true (g_hash_table_contains (ids, l->data));
  }
  /* The origin red, its NaN counted (one in its output). */
  g_assert_cmpstr (json_object_get_string_member (
                       json_object_get_object_member (results, "bert/p/MatMul"), "bgColor"),
                   ==, "#e01b24");
  g_assert_cmpint (json_object_get_int_member (
                       json_object_get_object_member (results, "bert/p/MatMul"), "value"),
                   ==, 1);
  ovi_graph_fixture_truth_clear (&truth);
}

/* The project's JSON: nodes with class, origins and chains; edges with
 * their source; external inputs named. */
static void
test_json (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autofree char *folder = write_net (f, OVI_GRAPH_FIXTURE_JSON, &truth);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *nodes, *edges, *externals;
  guint join = G_MAXUINT, origin = G_MAXUINT;

  /* The graph JSON lies beside the dumps: taken without --graph. */
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "graph", folder, NULL), ==, 0);
  root = parse (out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "iteration"), ==, ITERATION);
  g_assert_cmpstr (json_object_get_string_member (o, "graph_json"), ==, truth.json);
  g_assert_true (json_object_get_null_member (o, "run_order"));
  nodes = json_object_get_array_member (o, "nodes");
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      if (g_str_equal (json_object_get_string_member (n, "name"), "join/Add"))
        join = i;
      if (g_str_equal (json_object_get_string_member (n, "name"), "bert/p/MatMul"))
        origin = i;
    }
  g_assert_cmpuint (join, <, json_array_get_length (nodes));
  {
    JsonObject *n = json_array_get_object_element (nodes, join);
    JsonArray *origins = json_object_get_array_member (n, "origins");
    JsonArray *chain = json_array_get_array_element (json_object_get_array_member (n, "chains"), 0);

    g_assert_cmpstr (json_object_get_string_member (n, "class"), ==, "propagated");
    g_assert_cmpuint (json_array_get_length (origins), ==, 1);
    g_assert_cmpint (json_array_get_int_element (origins, 0), ==, origin);
    g_assert_cmpuint (json_array_get_length (chain), ==, 2);
  }
  edges = json_object_get_array_member (o, "edges");
  g_assert_cmpuint (json_array_get_length (edges), ==, truth.edges->len);
  for (guint e = 0; e < json_array_get_length (edges); e++)
    g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (edges, e), "source"), ==,
        "graph");
  externals = json_object_get_array_member (o, "external_inputs");
  g_assert_cmpuint (json_array_get_length (externals), ==, 2);
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (externals, 0), "name"), ==,
      "input_ids");
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (externals, 0), "kind"), ==,
      "graph_input");
  ovi_graph_fixture_truth_clear (&truth);
}

/* Graphviz text, and the run-order label without edges. */
static void
test_dot (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autofree char *folder = write_net (f, 0, &truth);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "graph", "--format", "dot", folder, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "digraph \"" ITERATION "\" {"));
  g_assert_true (strstr (out, "label=\"the dumps carry no addresses and no graph was given") !=
                 NULL);
  g_assert_true (strstr (out, "\\nbert/p/MatMul\\norigin\", fillcolor=\"#e01b24\"") != NULL);
  g_assert_null (strstr (out, "->"));
  ovi_graph_fixture_truth_clear (&truth);
}

/* Wrong command lines, and a node data file refused inside the folder. */
static void
test_refusals (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autofree char *folder = write_net (f, OVI_GRAPH_FIXTURE_ADDRESSES, &truth);
  g_autofree char *inside = g_build_filename (folder, "data.json", NULL);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "graph", "--format", "svg", folder, NULL), ==, 2);
  g_assert_true (strstr (err, "--format takes json, dot or model-explorer") != NULL);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "graph", "--node-data", inside, folder, NULL), ==,
      2);
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "graph", "--iteration", "nowhere", folder, NULL),
      ==, 2);
  g_assert_true (strstr (err, "nowhere") != NULL);
  ovi_graph_fixture_truth_clear (&truth);
}

/* report shows each record's chain, in text and JSON (a folder without
 * an Opdebug file: the origin found in the data is the record). */
static void
test_report_chains (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autofree char *folder = write_net (f, OVI_GRAPH_FIXTURE_ADDRESSES, &truth);
  g_autofree char *out = NULL, *err = NULL, *json = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *records;
  gboolean seen = FALSE;

  ovi_fixture_run_cli_va (NULL, &out, &err, "report", folder, NULL);
  g_assert_true (strstr (out, "    chain: bert/p/MatMul\n") != NULL);
  ovi_fixture_run_cli_va (NULL, &json, NULL, "report", "--json", folder, NULL);
  root = parse (json);
  records = json_object_get_array_member (json_node_get_object (root), "records");
  g_assert_cmpuint (json_array_get_length (records), >, 0);
  for (guint i = 0; i < json_array_get_length (records); i++)
    {
      JsonObject *op =
          json_object_get_object_member (json_array_get_object_element (records, i), "op");
      JsonArray *chains = json_object_get_array_member (op, "chains");

      g_assert_cmpstr (json_object_get_string_member (op, "chains_follow"), ==, "edges");
      if (g_str_equal (json_object_get_string_member (op, "op_name"), "bert/p/MatMul"))
        {
          g_assert_cmpuint (json_array_get_length (chains), ==, 1);
          g_assert_cmpstr (json_array_get_string_element (chains, 0), ==, "bert/p/MatMul");
          seen = TRUE;
        }
    }
  g_assert_true (seen);
  ovi_graph_fixture_truth_clear (&truth);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli-graph/model-explorer", Fixture, NULL, ovi_tmp_dir_setup, test_model_explorer,
              ovi_tmp_dir_teardown);
  g_test_add ("/cli-graph/json", Fixture, NULL, ovi_tmp_dir_setup, test_json, ovi_tmp_dir_teardown);
  g_test_add ("/cli-graph/dot", Fixture, NULL, ovi_tmp_dir_setup, test_dot, ovi_tmp_dir_teardown);
  g_test_add ("/cli-graph/refusals", Fixture, NULL, ovi_tmp_dir_setup, test_refusals,
              ovi_tmp_dir_teardown);
  g_test_add ("/cli-graph/report-chains", Fixture, NULL, ovi_tmp_dir_setup, test_report_chains,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
