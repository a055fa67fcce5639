/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-export.h"
#include "ovi-graph-writer.h"
#include "ovi-json.h"
#include "ovi-path.h"

static const char *const kind_names[] = { "operator", "graph_input", "constant", "not_dumped",
                                          "external" };
static const char *const source_names[] = { "address", "graph" };

/* Each class's colour, in Graphviz and Model Explorer alike. */
static const char *
class_colour (OviGraphNode *node)
{
  switch (ovi_graph_node_get_blame (node))
    {
    case OVI_BLAME_ORIGIN:
      return "#e01b24";
    case OVI_BLAME_PROPAGATED:
      return "#ff7800";
    case OVI_BLAME_ABSORBED:
      return "#62a0ea";
    case OVI_BLAME_NORMAL:
      return "#ffffff";
    default:
      return ovi_graph_node_get_kind (node) == OVI_GRAPH_NODE_OPERATOR ? "#deddda" : "#f6f5f4";
    }
}

/* A class, or null for a node no dump ran. */
static void
add_class (JsonBuilder *b, OviGraphNode *node)
{
  json_builder_set_member_name (b, "class");
  if (ovi_graph_node_get_file (node))
    json_builder_add_string_value (b, ovi_blame_name (ovi_graph_node_get_blame (node)));
  else
    json_builder_add_null_value (b);
}

static void
add_ids (JsonBuilder *b, const char *key, const guint *ids, guint n)
{
  if (key != NULL) /* NULL: an element of an array */
    json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (b, ids[i]);
  json_builder_end_array (b);
}

static void
add_node_json (JsonBuilder *b, OviGraph *graph, OviGraphNode *node)
{
  guint index = ovi_graph_node_get_index (node), n;
  const guint *origins = ovi_graph_get_origins (graph, index, &n);
  g_autoptr (GPtrArray) chains = ovi_graph_dup_chains (graph, index);
  OviDumpFile *file = ovi_graph_node_get_file (node);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, index);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, ovi_graph_node_get_name (node));
  json_builder_set_member_name (b, "op_type");
  json_builder_add_string_value (b, ovi_graph_node_get_op_type (node));
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kind_names[ovi_graph_node_get_kind (node)]);
  json_builder_set_member_name (b, "position");
  if (ovi_graph_node_get_position (node) >= 0)
    json_builder_add_int_value (b, ovi_graph_node_get_position (node));
  else
    json_builder_add_null_value (b);
  add_class (b, node);
  json_builder_set_member_name (b, "nan");
  ovi_json_builder_add_u64 (b, ovi_graph_node_get_nan (node));
  json_builder_set_member_name (b, "inf");
  ovi_json_builder_add_u64 (b, ovi_graph_node_get_inf (node));
  json_builder_set_member_name (b, "file");
  if (file)
    {
      g_autofree char *shown = ovi_path_display (ovi_dump_file_get_path_in_root (file));
      json_builder_add_string_value (b, shown);
    }
  else
    json_builder_add_null_value (b);
  add_ids (b, "origins", origins, n);
  json_builder_set_member_name (b, "chains");
  json_builder_begin_array (b);
  for (guint i = 0; i < chains->len; i++)
    {
      GArray *chain = g_ptr_array_index (chains, i);
      add_ids (b, NULL, (const guint *) (gconstpointer) chain->data, chain->len);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/**
 * ovi_graph_writer_json:
 *
 * The graph in the project's schema (docs/cli.md): the iteration, where
 * the edges came from, every node with its class and the origins and
 * chains that reach it, every edge with its source, the external inputs.
 *
 * Returns: (transfer full): the JSON tree
 */
JsonNode *
ovi_graph_writer_json (OviGraph *graph)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  guint n_nodes = ovi_graph_get_n_nodes (graph);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "iteration");
  json_builder_add_string_value (b, ovi_graph_get_iteration (graph));
  json_builder_set_member_name (b, "graph_json");
  if (ovi_graph_get_graph_json (graph))
    json_builder_add_string_value (b, ovi_graph_get_graph_json (graph));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "run_order");
  if (ovi_graph_get_run_order_note (graph))
    json_builder_add_string_value (b, ovi_graph_get_run_order_note (graph));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_nodes; i++)
    add_node_json (b, graph, ovi_graph_get_node (graph, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "edges");
  json_builder_begin_array (b);
  for (guint e = 0; e < ovi_graph_get_n_edges (graph); e++)
    {
      const OviGraphEdge *edge = ovi_graph_get_edge (graph, e);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "producer");
      json_builder_add_int_value (b, edge->producer);
      json_builder_set_member_name (b, "output");
      json_builder_add_int_value (b, edge->output);
      json_builder_set_member_name (b, "consumer");
      json_builder_add_int_value (b, edge->consumer);
      json_builder_set_member_name (b, "input");
      json_builder_add_int_value (b, edge->input);
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, source_names[edge->source]);
      json_builder_set_member_name (b, "address");
      if (edge->address)
        {
          g_autofree char *hex = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", edge->address);
          json_builder_add_string_value (b, hex);
        }
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "external_inputs");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_nodes; i++)
    {
      OviGraphNode *node = ovi_graph_get_node (graph, i);
      OviGraphNodeKind kind = ovi_graph_node_get_kind (node);
      const guint *out;
      guint n;

      if (kind != OVI_GRAPH_NODE_INPUT && kind != OVI_GRAPH_NODE_CONSTANT &&
          kind != OVI_GRAPH_NODE_EXTERNAL)
        continue;
      out = ovi_graph_get_out_edges (graph, i, &n);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, ovi_graph_node_get_name (node));
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, kind_names[kind]);
      json_builder_set_member_name (b, "consumers");
      json_builder_begin_array (b);
      for (guint k = 0; k < n; k++)
        json_builder_add_int_value (b, ovi_graph_get_edge (graph, out[k])->consumer);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* A Graphviz string: quotes and backslashes escaped, any bytes made
 * valid UTF-8. */
static void
append_dot_string (GString *s, const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  g_string_append_c (s, '"');
  for (const char *p = valid; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      if (*p == '\n')
        g_string_append (s, "\\n");
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

/**
 * ovi_graph_writer_dot:
 *
 * Returns: (transfer full): the graph as Graphviz text: nodes filled by
 *   class, external inputs as small ellipses, graph-JSON edges dashed
 */
char *
ovi_graph_writer_dot (OviGraph *graph)
{
  GString *s = g_string_new ("digraph ");

  append_dot_string (s, ovi_graph_get_iteration (graph));
  g_string_append (s, " {\n  node [shape=box, style=filled, fontname=\"sans\"];\n");
  if (ovi_graph_get_run_order_note (graph))
    {
      g_string_append (s, "  label=");
      append_dot_string (s, ovi_graph_get_run_order_note (graph));
      g_string_append (s, ";\n");
    }
  for (guint i = 0; i < ovi_graph_get_n_nodes (graph); i++)
    {
      OviGraphNode *node = ovi_graph_get_node (graph, i);
      gboolean op = ovi_graph_node_get_kind (node) == OVI_GRAPH_NODE_OPERATOR;
      g_autofree char *label = g_strdup_printf (
          "%s\n%s%s%s", ovi_graph_node_get_op_type (node), ovi_graph_node_get_name (node),
          op ? "\n" : "", op ? ovi_blame_name (ovi_graph_node_get_blame (node)) : "");

      g_string_append_printf (s, "  n%u [label=", i);
      append_dot_string (s, label);
      g_string_append_printf (s, ", fillcolor=\"%s\"%s];\n", class_colour (node),
                              op ? "" : ", shape=ellipse, fontsize=10");
    }
  for (guint e = 0; e < ovi_graph_get_n_edges (graph); e++)
    {
      const OviGraphEdge *edge = ovi_graph_get_edge (graph, e);

      g_string_append_printf (s, "  n%u -> n%u [label=\"%u:%u\"%s];\n", edge->producer,
                              edge->consumer, edge->output, edge->input,
                              edge->source == OVI_GRAPH_EDGE_GRAPH_JSON ? ", style=dashed" : "");
    }
  g_string_append (s, "}\n");
  return g_string_free (s, FALSE);
}

/* Model Explorer's node ids: the name, made unique by "#2", "#3" for the
 * later executions of one name. */
static GPtrArray *
node_ids (OviGraph *graph)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < ovi_graph_get_n_nodes (graph); i++)
    {
      const char *name = ovi_graph_node_get_name (ovi_graph_get_node (graph, i));
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, name)) + 1;

      g_hash_table_insert (seen, (gpointer) name, GUINT_TO_POINTER (n));
      g_ptr_array_add (ids,
                       n == 1 ? g_utf8_make_valid (name, -1) : g_strdup_printf ("%s#%u", name, n));
    }
  return ids;
}

static void
add_key_value (JsonBuilder *b, const char *key, const char *value)
{
  g_autofree char *valid = g_utf8_make_valid (value, -1);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "key");
  json_builder_add_string_value (b, key);
  json_builder_set_member_name (b, "value");
  json_builder_add_string_value (b, valid);
  json_builder_end_object (b);
}

/**
 * ovi_graph_writer_dup_graph_id:
 * Returns: (transfer full): the graph's id in Model Explorer's files
 */
char *
ovi_graph_writer_dup_graph_id (OviGraph *graph)
{
  const char *iteration = ovi_graph_get_iteration (graph);

  return g_utf8_make_valid (*iteration ? iteration : "iteration", -1);
}

static void
add_me_node (JsonBuilder *b, OviGraph *graph, GPtrArray *ids, guint i)
{
  OviGraphNode *node = ovi_graph_get_node (graph, i);
  const char *name = ovi_graph_node_get_name (node);
  const char *slash = strrchr (name, '/');
  g_autofree char *namespace = slash ? g_strndup (name, slash - name) : g_strdup ("");
  g_autofree char *valid_namespace = g_utf8_make_valid (namespace, -1);
  const char *type = ovi_graph_node_get_op_type (node);
  g_autofree char *label = g_utf8_make_valid (*type ? type : slash ? slash + 1 : name, -1);
  g_autofree char *nan = g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_graph_node_get_nan (node));
  g_autofree char *inf = g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_graph_node_get_inf (node));
  g_autofree char *chains = ovi_graph_dup_chain_text (graph, i);
  const guint *in;
  guint n_in, n_outputs = 0;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, g_ptr_array_index (ids, i));
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, label);
  json_builder_set_member_name (b, "namespace");
  json_builder_add_string_value (b, valid_namespace);
  json_builder_set_member_name (b, "attrs");
  json_builder_begin_array (b);
  add_key_value (b, "op_type", type);
  add_key_value (b, "kind", kind_names[ovi_graph_node_get_kind (node)]);
  if (ovi_graph_node_get_file (node))
    add_key_value (b, "class", ovi_blame_name (ovi_graph_node_get_blame (node)));
  add_key_value (b, "nan", nan);
  add_key_value (b, "inf", inf);
  if (chains)
    add_key_value (b, "chain", chains);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "incomingEdges");
  json_builder_begin_array (b);
  in = ovi_graph_get_in_edges (graph, i, &n_in);
  for (guint k = 0; k < n_in; k++)
    {
      const OviGraphEdge *e = ovi_graph_get_edge (graph, in[k]);
      g_autofree char *output = g_strdup_printf ("%u", e->output);
      g_autofree char *input = g_strdup_printf ("%u", e->input);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "sourceNodeId");
      json_builder_add_string_value (b, g_ptr_array_index (ids, e->producer));
      json_builder_set_member_name (b, "sourceNodeOutputId");
      json_builder_add_string_value (b, output);
      json_builder_set_member_name (b, "targetNodeInputId");
      json_builder_add_string_value (b, input);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  /* One metadata item per output: the dump's outputs, or the outputs
   * edges leave from. */
  if (ovi_graph_node_get_file (node))
    n_outputs = ovi_dump_file_count_tensors (ovi_graph_node_get_file (node), OVI_TENSOR_OUTPUT);
  else
    {
      const guint *out;
      guint n_out;
      out = ovi_graph_get_out_edges (graph, i, &n_out);
      for (guint k = 0; k < n_out; k++)
        n_outputs = MAX (n_outputs, ovi_graph_get_edge (graph, out[k])->output + 1);
    }
  json_builder_set_member_name (b, "outputsMetadata");
  json_builder_begin_array (b);
  for (guint k = 0; k < n_outputs; k++)
    {
      g_autofree char *id = g_strdup_printf ("%u", k);
      g_autofree char *tensor = g_strdup_printf ("%s:%u", name, k);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, id);
      json_builder_set_member_name (b, "attrs");
      json_builder_begin_array (b);
      add_key_value (b, "tensor_name", tensor);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/**
 * ovi_graph_writer_model_explorer:
 *
 * Google Model Explorer's graph collection (its graph_builder.py, read by
 * the UI's loadGraphsJson()): {label, graphs: [{id, nodes}]}; a node's id
 * is the operator's name as its dump header gives it, its namespace the
 * name's `/` path.
 *
 * Returns: (transfer full): the JSON tree
 */
JsonNode *
ovi_graph_writer_model_explorer (OviGraph *graph)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GPtrArray) ids = node_ids (graph);
  g_autofree char *graph_id = ovi_graph_writer_dup_graph_id (graph);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, graph_id);
  json_builder_set_member_name (b, "graphs");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, graph_id);
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < ovi_graph_get_n_nodes (graph); i++)
    add_me_node (b, graph, ids, i);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/**
 * ovi_graph_writer_node_data:
 *
 * Model Explorer's node data for the same graph (node_data_builder.py's
 * ModelNodeData): {graphId: {name, results: {nodeId: {value, bgColor}},
 * thresholds}}: the value is the node's NaN and Inf count, the colour its
 * class.
 *
 * Returns: (transfer full): the JSON tree
 */
JsonNode *
ovi_graph_writer_node_data (OviGraph *graph)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GPtrArray) ids = node_ids (graph);
  g_autofree char *graph_id = ovi_graph_writer_dup_graph_id (graph);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, graph_id);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "NaN and Inf, coloured by class");
  json_builder_set_member_name (b, "results");
  json_builder_begin_object (b);
  for (guint i = 0; i < ovi_graph_get_n_nodes (graph); i++)
    {
      OviGraphNode *node = ovi_graph_get_node (graph, i);

      if (ovi_graph_node_get_file (node) == NULL)
        continue;
      json_builder_set_member_name (b, g_ptr_array_index (ids, i));
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "value");
      json_builder_add_int_value (b, ovi_graph_node_get_nan (node) + ovi_graph_node_get_inf (node));
      json_builder_set_member_name (b, "bgColor");
      json_builder_add_string_value (b, class_colour (node));
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  /* Without a colour of its own a value would be white up to 0, red above. */
  json_builder_set_member_name (b, "thresholds");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "value");
  json_builder_add_int_value (b, 0);
  json_builder_set_member_name (b, "bgColor");
  json_builder_add_string_value (b, "#ffffff");
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/**
 * ovi_graph_writer_save:
 *
 * Writes @root as JSON to @path whole or not at all (the caller checked
 * that @path is outside the folders read).
 */
gboolean
ovi_graph_writer_save (JsonNode *root, const char *path, GError **error)
{
  g_autofree char *text = ovi_json_to_text (root);

  return ovi_export_write_contents (path, text, strlen (text), OVI_EXPORT_FLAGS_OVERWRITE, error);
}

/**
 * ovi_graph_writer_dup_chains:
 * @run_order: (out): whether the graph of @op's iteration has no edges, so
 *   that the chains follow run order
 *
 * The chains of an operator, as the report shows them: "origin → … →
 * operator", one for each origin whose values reach it. Builds the graph of
 * its iteration once (ovi_graph_dup_for_iteration()): any thread.
 *
 * Returns: (transfer full) (nullable): the chains, %NULL when no origin
 *   reaches @op
 */
GStrv
ovi_graph_writer_dup_chains (OviDumpFolder *folder, OviDumpFile *op, gboolean *run_order)
{
  g_autoptr (OviGraph) graph =
      ovi_graph_dup_for_iteration (folder, ovi_dump_file_get_relative_dir (op), NULL);
  OviGraphNode *node = ovi_graph_lookup_file (graph, op);
  g_autoptr (GPtrArray) chains =
      node ? ovi_graph_dup_chains (graph, ovi_graph_node_get_index (node)) : NULL;
  g_autoptr (GStrvBuilder) lines = g_strv_builder_new ();

  *run_order = !ovi_graph_has_edges (graph);
  if (chains == NULL || chains->len == 0)
    return NULL;
  for (guint i = 0; i < chains->len; i++)
    {
      GArray *chain = g_ptr_array_index (chains, i);
      g_autoptr (GString) line = g_string_new (NULL);

      for (guint k = 0; k < chain->len; k++)
        g_string_append_printf (
            line, "%s%s", k ? " → " : "",
            ovi_graph_node_get_name (ovi_graph_get_node (graph, g_array_index (chain, guint, k))));
      g_strv_builder_add (lines, line->str);
    }
  return g_strv_builder_end (lines);
}
