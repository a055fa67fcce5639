/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-json.h"

/* json-glib holds integers as gint64; values above that (u64 ids and
 * status words can be) go in as marked strings, which ovi_json_node_get_u64()
 * reads and ovi_json_to_text() writes as plain numbers. */
#define U64_MARK "\001u64:"

/**
 * ovi_json_builder_add_u64:
 *
 * Adds @v exactly, however large.
 */
void
ovi_json_builder_add_u64 (JsonBuilder *b, guint64 v)
{
  if (v <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) v);
  else
    {
      g_autofree char *marked = g_strdup_printf (U64_MARK "%" G_GUINT64_FORMAT, v);
      json_builder_add_string_value (b, marked);
    }
}

/**
 * ovi_json_node_get_u64:
 *
 * Returns: whether @node holds a non-negative integer, plain or added with
 *   ovi_json_builder_add_u64(), and then sets @v
 */
gboolean
ovi_json_node_get_u64 (JsonNode *node, guint64 *v)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64 && json_node_get_int (node) >= 0)
    {
      *v = (guint64) json_node_get_int (node);
      return TRUE;
    }
  return json_node_get_value_type (node) == G_TYPE_STRING &&
         g_str_has_prefix (json_node_get_string (node), U64_MARK) &&
         g_ascii_string_to_unsigned (json_node_get_string (node) + strlen (U64_MARK), 10, 0,
                                     G_MAXUINT64, v, NULL);
}

/* "\u0001u64:123" (as the generator escapes the mark) becomes 123. */
static void
unmark_u64 (GString *s)
{
  const char *mark = "\"\\u0001u64:";
  gsize mark_len = strlen (mark);
  char *p;

  while ((p = strstr (s->str, mark)))
    {
      gsize start = p - s->str, end = start + mark_len;
      while (end < s->len && g_ascii_isdigit (s->str[end]))
        end++;
      if (end >= s->len || s->str[end] != '"')
        break;
      g_string_erase (s, end, 1);
      g_string_erase (s, start, mark_len);
    }
}

/**
 * ovi_json_to_text:
 * @root: a tree whose large integers were added with
 *   ovi_json_builder_add_u64()
 *
 * Returns: (transfer full): the JSON text, indented, integers above
 *   2^63 - 1 written exactly, and a final newline
 */
char *
ovi_json_to_text (JsonNode *root)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  GString *s;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, root);
  s = g_string_new (NULL);
  json_generator_to_gstring (gen, s);
  unmark_u64 (s);
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}
