/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-cluster-private.h"
#include "ovi-json.h"
#include "ovi-rank-private.h"

/* The cluster report as JSON: built as a tree (ovi_cluster_build_json()),
 * or written a piece at a time with report files' roots copied as they
 * are (ovi_cluster_write_json()). English in every locale. */

static void
add_string_or_null (JsonBuilder *b, const char *key, const char *v)
{
  json_builder_set_member_name (b, key);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

/**
 * ovi_cluster_build_rank_json:
 *
 * Returns: (transfer full): one element of "ranks" (schema in docs/cluster.md),
 *   in English whatever the locale
 */
JsonNode *
ovi_cluster_build_rank_json (OviRank *rank)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (OVI_IS_RANK (rank), NULL);

  json_builder_begin_object (b);
  add_string_or_null (b, "host", rank->host);
  add_string_or_null (b, "root", rank->root);
  add_string_or_null (b, "device", rank->device);
  add_string_or_null (b, "role", ovi_rank_role_name (rank->role));
  json_builder_set_member_name (b, "earliest");
  json_builder_add_boolean_value (b, rank->earliest);
  json_builder_set_member_name (b, "collective");
  json_builder_add_boolean_value (b, rank->collective);
  json_builder_set_member_name (b, "n_records");
  json_builder_add_int_value (b, rank->n_records);
  add_string_or_null (b, "first_iteration", rank->first_iteration);
  json_builder_set_member_name (b, "iteration");
  if (rank->has_iteration && rank->iteration <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) rank->iteration);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "timestamp");
  if (rank->has_first && rank->timestamp <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) rank->timestamp);
  else
    json_builder_add_null_value (b);
  add_string_or_null (b, "file", rank->file);
  add_string_or_null (b, "op_type", rank->op_type);
  add_string_or_null (b, "op_name", rank->op_name);
  add_string_or_null (b, "unit", rank->unit);
  add_string_or_null (b, "status_hex", rank->status_hex);
  /* JSON is read by programs: the same in every locale. */
  add_string_or_null (b, "status_summary",
                      rank->from_data ? OVI_FOUND_IN_DATA : rank->status_summary);
  json_builder_set_member_name (b, "iterations");
  json_builder_begin_array (b);
  for (guint i = 0; i < rank->iterations->len; i++)
    {
      OviRankIteration *it = &g_array_index (rank->iterations, OviRankIteration, i);
      if (it->iteration > G_MAXINT64)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "iteration");
      json_builder_add_int_value (b, (gint64) it->iteration);
      json_builder_set_member_name (b, "records");
      json_builder_add_int_value (b, it->n_records);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/**
 * ovi_cluster_build_ranks_json:
 *
 * Returns: (transfer full): the "ranks" array, in cluster order
 */
JsonNode *
ovi_cluster_build_ranks_json (OviCluster *self)
{
  JsonArray *a = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  guint n;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = ovi_cluster_dup_rank_at (self, i);
      json_array_add_element (a, ovi_cluster_build_rank_json (rank));
    }
  json_node_take_array (node, a);
  return node;
}

/**
 * ovi_cluster_build_json:
 *
 * Returns: (transfer full): the cluster report: `{"format":
 *   "overflow-inspector-cluster", "roots": [each root's report unchanged],
 *   "ranks": [...], "first_rank": {...} | null}`. Roots read from report
 *   files are parsed again here: to write the report, use
 *   ovi_cluster_write_json().
 */
JsonNode *
ovi_cluster_build_json (OviCluster *self)
{
  JsonObject *o = json_object_new ();
  JsonArray *roots = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  json_object_set_string_member (o, "format", OVI_CLUSTER_FORMAT);
  if (self->origin_note)
    {
      g_autofree char *note = ovi_cluster_dup_english_origin_note (self);
      json_object_set_string_member (o, "origin_unknown", note);
    }
  else
    json_object_set_null_member (o, "origin_unknown");
  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      g_autoptr (JsonParser) parser = NULL;
      gsize length;
      const char *text;

      if (r->report == NULL && r->text == NULL)
        continue; /* a folder's, which report/ writes */
      if (r->report)
        {
          /* A copy of the node shares the report's object: nothing is copied. */
          json_array_add_element (roots, json_node_copy (r->report));
          continue;
        }
      /* Read from a file, checked already. */
      parser = json_parser_new_immutable ();
      text = g_bytes_get_data (r->text, &length);
      if (json_parser_load_from_data (parser, text, length, NULL))
        json_array_add_element (roots, json_node_ref (json_parser_get_root (parser)));
      else
        g_assert_not_reached ();
    }
  json_object_set_array_member (o, "roots", roots);
  json_object_set_member (o, "ranks", ovi_cluster_build_ranks_json (self));
  if (self->earliest)
    json_object_set_member (o, "first_rank", ovi_cluster_build_rank_json (self->earliest));
  else
    json_object_set_null_member (o, "first_rank");
  json_node_take_object (node, o);
  return node;
}

static gboolean
write_text (GOutputStream *out, const char *text, GCancellable *cancellable, GError **error)
{
  return g_output_stream_write_all (out, text, strlen (text), NULL, cancellable, error);
}

static gboolean
write_node (GOutputStream *out, JsonNode *node, GCancellable *cancellable, GError **error)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (GString) s = g_string_new (NULL);

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, node);
  json_generator_to_gstring (gen, s);
  return g_output_stream_write_all (out, s->str, s->len, NULL, cancellable, error);
}

/* One rank's text as it stands in the "ranks" array json-glib writes: one
 * level in, every line indented two spaces more. */
static void
append_rank_text (GString *s, OviRank *rank)
{
  g_autoptr (JsonNode) node = ovi_cluster_build_rank_json (rank);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  g_string_append (s, "  ");
  for (const char *p = text, *nl; *p; p = nl + 1)
    {
      if (!(nl = strchr (p, '\n')))
        {
          g_string_append (s, p);
          break;
        }
      g_string_append_len (s, p, nl + 1 - p);
      g_string_append (s, "  ");
    }
}

/* The text of a root's ranks without overflow around their device id,
 * made once per root: every quiet device's text is the same but for it. */
#define DEVICE_MARK "@ovi-device-mark@"

typedef struct
{
  OviClusterRoot *root;
  char *before, *after; /* NULL when the mark was not found */
} QuietText;

static void
quiet_text_for (QuietText *q, OviClusterRoot *root)
{
  g_autoptr (OviRank) rank = NULL;
  g_autoptr (GString) s = g_string_new (NULL);
  char *at;

  if (q->root == root)
    return;
  g_clear_pointer (&q->before, g_free);
  g_clear_pointer (&q->after, g_free);
  q->root = root;
  rank = ovi_rank_new (root->host, root->root, DEVICE_MARK);
  append_rank_text (s, rank);
  /* The device follows the host and the root, and nothing after it can
   * hold the mark. */
  if ((at = g_strrstr (s->str, "\"" DEVICE_MARK "\"")))
    {
      q->before = g_strndup (s->str, at - s->str);
      q->after = g_strdup (at + strlen ("\"" DEVICE_MARK "\""));
    }
}

static gboolean
flush_text (GOutputStream *out, GString *s, GCancellable *cancellable, GError **error)
{
  gboolean ok = g_output_stream_write_all (out, s->str, s->len, NULL, cancellable, error);

  g_string_truncate (s, 0);
  return ok;
}

/* The "ranks" array, as write_node() of ovi_cluster_build_ranks_json()
 * writes it, a piece at a time: a million ranks would take gigabytes as a
 * tree and hundreds of megabytes as text. */
static gboolean
write_ranks (OviCluster *self, GOutputStream *out, GCancellable *cancellable, GError **error)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks));
  g_autoptr (GString) s = g_string_sized_new (1 << 16);
  QuietText quiet = { NULL };
  gboolean ok = TRUE;

  /* json-glib writes an empty array on one line. */
  if (n == 0)
    return write_text (out, "[]", cancellable, error);
  g_string_append (s, "[\n");
  for (guint i = 0; i < n && ok; i++)
    {
      OviClusterRoot *root = NULL;
      guint index = 0;
      OviRank *rank = ovi_rank_list_peek (self->ranks, i, &root, &index);
      const char *id = rank ? NULL : ovi_cluster_devices_get (&root->quiet, index);

      if (rank)
        append_rank_text (s, rank);
      else if (id && id[strspn (id, "0123456789")] == '\0' &&
               (quiet_text_for (&quiet, root), quiet.before))
        {
          /* Digits need no escaping. */
          g_string_append (s, quiet.before);
          g_string_append_c (s, '"');
          g_string_append (s, id);
          g_string_append_c (s, '"');
          g_string_append (s, quiet.after);
        }
      else
        {
          g_autoptr (OviRank) made = ovi_rank_new (root->host, root->root, id);
          append_rank_text (s, made);
        }
      g_string_append (s, i + 1 < n ? ",\n" : "\n");
      if (s->len >= 1 << 16)
        ok = flush_text (out, s, cancellable, error);
    }
  g_free (quiet.before);
  g_free (quiet.after);
  if (!ok)
    return FALSE;
  g_string_append_c (s, ']');
  return flush_text (out, s, cancellable, error);
}

/**
 * ovi_cluster_write_json:
 * @out: where to write
 *
 * Writes the cluster report of ovi_cluster_build_json(), with the roots
 * read from report files copied as their files have them (so that a merge
 * of hundreds of megabytes of reports neither parses them into trees nor
 * generates them again).
 *
 * Returns: %TRUE when written
 */
gboolean
ovi_cluster_write_json (OviCluster *self,
                        GOutputStream *out,
                        GCancellable *cancellable,
                        GError **error)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  if (!write_text (out, "{\n  \"format\" : \"" OVI_CLUSTER_FORMAT "\",\n  \"origin_unknown\" : ",
                   cancellable, error))
    return FALSE;
  if (self->origin_note)
    {
      g_autofree char *note = ovi_cluster_dup_english_origin_note (self);
      g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), note);
      if (!write_node (out, node, cancellable, error))
        return FALSE;
    }
  else if (!write_text (out, "null", cancellable, error))
    return FALSE;
  if (!write_text (out, ",\n  \"roots\" : [\n", cancellable, error))
    return FALSE;
  for (guint i = 0, written = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      gboolean ok;

      if (r->report == NULL && r->text == NULL)
        continue; /* a folder's, which report/ writes */
      if (written++ > 0 && !write_text (out, ",\n", cancellable, error))
        return FALSE;

      if (r->text)
        {
          gsize length;
          const char *text = g_bytes_get_data (r->text, &length);
          ok = g_output_stream_write_all (out, text, length, NULL, cancellable, error);
        }
      else
        {
          g_autofree char *text = ovi_json_to_text (r->report);
          g_strchomp (text);
          ok = write_text (out, text, cancellable, error);
        }
      if (!ok)
        return FALSE;
    }
  if (!write_text (out, "\n  ],\n  \"ranks\" : ", cancellable, error) ||
      !write_ranks (self, out, cancellable, error) ||
      !write_text (out, ",\n  \"first_rank\" : ", cancellable, error))
    return FALSE;
  if (self->earliest)
    {
      g_autoptr (JsonNode) first = ovi_cluster_build_rank_json (self->earliest);
      if (!write_node (out, first, cancellable, error))
        return FALSE;
    }
  else if (!write_text (out, "null", cancellable, error))
    return FALSE;
  return write_text (out, "\n}\n", cancellable, error);
}
