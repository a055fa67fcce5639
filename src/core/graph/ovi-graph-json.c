/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ovi-graph-error.h"
#include "ovi-graph-json.h"
#include "ovi-regular-file.h"

static void
input_clear (gpointer data)
{
  g_free (((OviGraphJsonInput *) data)->source);
}

static void
op_free (gpointer data)
{
  OviGraphJsonOp *op = data;

  g_free (op->name);
  g_free (op->type);
  g_array_unref (op->inputs);
  g_strfreev (op->original_names);
  g_free (op);
}

static gboolean
fail (GError **error, const char *path, const char *problem)
{
  g_autofree char *shown = g_filename_display_name (path);

  /* Translators: the first %s is a file, the second what is wrong with it. */
  g_set_error (error, OVI_GRAPH_ERROR, OVI_GRAPH_ERROR_JSON, _ ("%s: not a graph JSON: %s"), shown,
               problem);
  return FALSE;
}

/* A string member, or NULL when @object has none of that name. */
static const char *
string_member (JsonObject *object, const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
             ? json_node_get_string (node)
             : NULL;
}

/* attr[]: {key, value: {list: {s: [...]}}} of _datadump_original_op_names. */
static GStrv
original_names (JsonObject *op)
{
  JsonNode *attrs = json_object_get_member (op, "attr");
  JsonArray *array = attrs && JSON_NODE_HOLDS_ARRAY (attrs) ? json_node_get_array (attrs) : NULL;

  for (guint i = 0; array && i < json_array_get_length (array); i++)
    {
      JsonNode *attr = json_array_get_element (array, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (attr) ? json_node_get_object (attr) : NULL;
      JsonObject *value, *list;
      JsonArray *s;
      g_autoptr (GStrvBuilder) names = NULL;

      if (o == NULL || g_strcmp0 (string_member (o, "key"), "_datadump_original_op_names") != 0 ||
          !json_object_has_member (o, "value") ||
          !JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "value")))
        continue;
      value = json_object_get_object_member (o, "value");
      if (!json_object_has_member (value, "list") ||
          !JSON_NODE_HOLDS_OBJECT (json_object_get_member (value, "list")))
        return NULL;
      list = json_object_get_object_member (value, "list");
      if (!json_object_has_member (list, "s") ||
          !JSON_NODE_HOLDS_ARRAY (json_object_get_member (list, "s")))
        return NULL;
      s = json_object_get_array_member (list, "s");
      names = g_strv_builder_new ();
      for (guint k = 0; k < json_array_get_length (s); k++)
        {
          JsonNode *n = json_array_get_element (s, k);
          if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
            g_strv_builder_add (names, json_node_get_string (n));
        }
      return g_strv_builder_end (names);
    }
  return NULL;
}

/* input[]: "src:index" data edges; ":-1" (control) and "" are not data. */
static gboolean
read_inputs (JsonObject *op, GArray *inputs, const char *path, GError **error)
{
  JsonNode *node = json_object_get_member (op, "input");
  JsonArray *array;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, path, _ ("an op's \"input\" is not an array"));
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *text, *colon;
      OviGraphJsonInput in;
      guint64 index;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
        return fail (error, path, _ ("an op's input is not a string"));
      text = json_node_get_string (item);
      if (*text == '\0' || g_str_has_suffix (text, ":-1"))
        continue;
      colon = strrchr (text, ':');
      if (colon == NULL || colon == text ||
          !g_ascii_string_to_unsigned (colon + 1, 10, 0, G_MAXUINT, &index, NULL))
        return fail (error, path, _ ("an op's input is not \"name:index\""));
      in.source = g_strndup (text, colon - text);
      in.index = index;
      g_array_append_val (inputs, in);
    }
  return TRUE;
}

static OviGraphJsonOp *
read_op (JsonNode *node, const char *path, GError **error)
{
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *name = o ? string_member (o, "name") : NULL;
  const char *type = o ? string_member (o, "type") : NULL;
  OviGraphJsonOp *op;

  if (name == NULL || type == NULL)
    {
      fail (error, path, _ ("an op has no \"name\" or \"type\" string"));
      return NULL;
    }
  op = g_new0 (OviGraphJsonOp, 1);
  op->name = g_strdup (name);
  op->type = g_strdup (type);
  op->id = json_object_get_int_member_with_default (o, "id", 0);
  op->inputs = g_array_new (FALSE, FALSE, sizeof (OviGraphJsonInput));
  g_array_set_clear_func (op->inputs, input_clear);
  op->original_names = original_names (o);
  if (!read_inputs (o, op->inputs, path, error))
    {
      op_free (op);
      return NULL;
    }
  return op;
}

static JsonParser *
parse (const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  /* A regular file only: a FIFO or a device named *.json is no graph. */
  if (!ovi_regular_file_read (AT_FDCWD, path, &contents, &length, &local) ||
      !json_parser_load_from_data (parser, contents, length, &local))
    {
      fail (error, path, local->message);
      return NULL;
    }
  return g_steal_pointer (&parser);
}

/* The graph[] array, or NULL. */
static JsonArray *
graphs_of (JsonParser *parser)
{
  JsonNode *root = json_parser_get_root (parser);
  JsonNode *graphs;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  graphs = json_object_get_member (json_node_get_object (root), "graph");
  return graphs && JSON_NODE_HOLDS_ARRAY (graphs) ? json_node_get_array (graphs) : NULL;
}

/**
 * ovi_graph_json_read:
 * @path: a fusion-rule graph JSON
 *
 * Returns: (transfer full) (element-type OviGraphJsonOp): the ops of every
 *   graph[] in order, or %NULL with @error naming the file and the problem
 */
GPtrArray *
ovi_graph_json_read (const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = parse (path, error);
  g_autoptr (GPtrArray) ops = NULL;
  JsonArray *graphs;

  if (parser == NULL)
    return NULL;
  if ((graphs = graphs_of (parser)) == NULL)
    {
      fail (error, path, _ ("it has no \"graph\" array"));
      return NULL;
    }
  ops = g_ptr_array_new_with_free_func (op_free);
  for (guint g = 0; g < json_array_get_length (graphs); g++)
    {
      JsonNode *graph = json_array_get_element (graphs, g);
      JsonNode *list = JSON_NODE_HOLDS_OBJECT (graph)
                           ? json_object_get_member (json_node_get_object (graph), "op")
                           : NULL;
      JsonArray *array;

      if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
        {
          fail (error, path, _ ("a graph has no \"op\" array"));
          return NULL;
        }
      array = json_node_get_array (list);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          OviGraphJsonOp *op = read_op (json_array_get_element (array, i), path, error);
          if (op == NULL)
            return NULL;
          g_ptr_array_add (ops, op);
        }
    }
  return g_steal_pointer (&ops);
}

/**
 * ovi_graph_json_is_graph:
 *
 * Returns: whether @path holds a fusion-rule graph (a "graph" array), as
 *   opposed to another JSON file in a dump folder (acl_dump_0.json)
 */
gboolean
ovi_graph_json_is_graph (const char *path)
{
  g_autoptr (JsonParser) parser = parse (path, NULL);

  return parser != NULL && graphs_of (parser) != NULL;
}
