/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-cluster-error.h"
#include "ovi-cluster-root.h"
#include "ovi-json-scanner.h"
#include "ovi-json.h"
#include "ovi-op-type.h"
#include "ovi-rank-private.h"

/* -------------------------------------------------------- reading reports */

void
ovi_cluster_root_free (OviClusterRoot *r)
{
  g_free (r->host);
  g_free (r->root);
  g_clear_pointer (&r->report, json_node_unref);
  g_clear_pointer (&r->text, g_bytes_unref);
  g_ptr_array_unref (r->ranks);
  ovi_cluster_devices_clear (&r->quiet);
  g_clear_pointer (&r->quiet_made, g_ptr_array_unref);
  g_free (r);
}

/* ---- device ids */

void
ovi_cluster_devices_init (OviClusterDevices *d)
{
  d->ids = g_byte_array_new ();
  d->list = g_array_new (FALSE, FALSE, sizeof (OviClusterDevice));
}

void
ovi_cluster_devices_clear (OviClusterDevices *d)
{
  g_clear_pointer (&d->ids, g_byte_array_unref);
  g_clear_pointer (&d->list, g_array_unref);
}

/* @id: (nullable): NULL for "no device level" */
void
ovi_cluster_devices_add (OviClusterDevices *d, const char *id)
{
  OviClusterDevice e = { 0, OVI_DEVICE_NULL };

  if (id != NULL)
    {
      gboolean number = g_ascii_string_to_unsigned (id, 10, 0, G_MAXUINT64, &e.number, NULL);

      e.offset_kind = (guint64) d->ids->len << 2 | (number ? OVI_DEVICE_NUMBER : OVI_DEVICE_TEXT);
      g_byte_array_append (d->ids, (const guint8 *) id, strlen (id) + 1);
    }
  g_array_append_val (d->list, e);
}

guint
ovi_cluster_devices_len (const OviClusterDevices *d)
{
  return d->list ? d->list->len : 0;
}

static const char *
device_id (const OviClusterDevice *e, const guint8 *ids)
{
  return (e->offset_kind & 3) == OVI_DEVICE_NULL ? NULL
                                                 : (const char *) ids + (e->offset_kind >> 2);
}

/* Returns: (nullable): the id, NULL for no device level */
const char *
ovi_cluster_devices_get (const OviClusterDevices *d, guint i)
{
  return device_id (&g_array_index (d->list, OviClusterDevice, i), d->ids->data);
}

/**
 * ovi_cluster_compare_devices:
 * @a: (nullable): a device id, NULL for none
 *
 * Device ids are numbers mostly: "10" after "9"; numbers before other
 * ids, no device before any.
 */
int
ovi_cluster_compare_devices (const char *a, const char *b)
{
  guint64 na, nb;
  gboolean a_num, b_num;

  if (!a || !b)
    return (a != NULL) - (b != NULL);
  a_num = g_ascii_string_to_unsigned (a, 10, 0, G_MAXUINT64, &na, NULL);
  b_num = g_ascii_string_to_unsigned (b, 10, 0, G_MAXUINT64, &nb, NULL);
  if (a_num && b_num && na != nb)
    return na < nb ? -1 : 1;
  if (a_num != b_num)
    return a_num ? -1 : 1;
  return strcmp (a, b);
}

/* ovi_cluster_compare_devices() with each id's number read once. */
static int
compare_entries (gconstpointer pa, gconstpointer pb, gpointer ids)
{
  const OviClusterDevice *a = pa, *b = pb;
  guint ka = a->offset_kind & 3, kb = b->offset_kind & 3;

  if (ka == OVI_DEVICE_NULL || kb == OVI_DEVICE_NULL)
    return (ka != OVI_DEVICE_NULL) - (kb != OVI_DEVICE_NULL);
  if (ka == OVI_DEVICE_NUMBER && kb == OVI_DEVICE_NUMBER && a->number != b->number)
    return a->number < b->number ? -1 : 1;
  if (ka != kb)
    return ka == OVI_DEVICE_NUMBER ? -1 : 1;
  return strcmp (device_id (a, ids), device_id (b, ids));
}

/* Devices are keyed by their id; "no device level" by a key no id has. */
#define NO_DEVICE "\001"

/* The devices listed without a record: in order, once each. */
static void
root_finish (OviClusterRoot *r, GHashTable *by_device)
{
  GArray *list = r->quiet.list;
  const guint8 *ids = r->quiet.ids->data;
  guint kept = 0;

  g_array_sort_with_data (list, compare_entries, (gpointer) ids);
  for (guint i = 0; i < list->len; i++)
    {
      OviClusterDevice *e = &g_array_index (list, OviClusterDevice, i);
      const char *id = device_id (e, ids);

      if (kept > 0 && compare_entries (&g_array_index (list, OviClusterDevice, kept - 1), e,
                                       (gpointer) ids) == 0)
        continue;
      if (g_hash_table_contains (by_device, id ? id : NO_DEVICE))
        continue;
      g_array_index (list, OviClusterDevice, kept++) = *e;
    }
  g_array_set_size (list, kept);
}

/**
 * ovi_cluster_root_quiet_rank:
 * @index: of a device in @r's quiet devices
 *
 * Returns: (transfer none): the rank of that device, with no overflow:
 *   made once, then the same
 */
OviRank *
ovi_cluster_root_quiet_rank (OviClusterRoot *r, guint index)
{
  OviRank *rank;

  if (r->quiet_made == NULL)
    {
      r->quiet_made = g_ptr_array_new_full (r->quiet.list->len, g_object_unref);
      g_ptr_array_set_size (r->quiet_made, r->quiet.list->len);
    }
  rank = g_ptr_array_index (r->quiet_made, index);
  if (rank == NULL)
    {
      rank = ovi_rank_new (r->host, r->root, ovi_cluster_devices_get (&r->quiet, index));
      g_ptr_array_index (r->quiet_made, index) = rank;
    }
  return rank;
}

static void
record_clear (OviClusterRecord *rec)
{
  g_free (rec->iteration);
  g_free (rec->device);
  g_free (rec->file);
  g_free (rec->unit);
  g_free (rec->status_hex);
  g_free (rec->source);
  g_free (rec->op_file);
  g_free (rec->op_type);
  g_free (rec->op_name);
  memset (rec, 0, sizeof *rec);
}

/* "0x100" of the report's "flags" */
static void
record_add_flag (OviClusterRecord *rec, const char *hex)
{
  guint64 v;

  if (g_str_has_prefix (hex, "0x") &&
      g_ascii_string_to_unsigned (hex + 2, 16, 0, G_MAXUINT64, &v, NULL))
    rec->flags_mask |= v;
}

/* The iteration number: the last component of the iteration folder, when
 * it is a number ("20251202101500/3/resnet50/11/5" is iteration 5). */
static gboolean
parse_iteration (const char *dir, guint64 *number)
{
  const char *last = strrchr (dir, '/');

  last = last ? last + 1 : dir;
  return *last && g_ascii_string_to_unsigned (last, 10, 0, G_MAXUINT64, number, NULL);
}

/* The status as the report text shows it (ovi_overflow_record_dup_status_summary()). */
static char *
status_summary (const OviClusterRecord *rec)
{
  g_autofree char *words = NULL;

  if (g_strcmp0 (rec->source, "data") == 0)
    return g_strdup (_ (OVI_FOUND_IN_DATA));
  if (!rec->status_hex)
    return NULL;
  if (!rec->unit || !(g_str_equal (rec->unit, "AI Core") || g_str_equal (rec->unit, "AIC") ||
                      g_str_equal (rec->unit, "AIV")))
    return g_strdup (rec->status_hex);
  words = ovi_status_dup_summary (rec->flags_mask);
  return *words ? g_strdup_printf ("%s %s", rec->status_hex, words) : g_strdup (rec->status_hex);
}

static OviRank *
rank_for (GHashTable *by_device, OviClusterRoot *r, const char *device)
{
  OviRank *rank = g_hash_table_lookup (by_device, device ? device : NO_DEVICE);

  if (rank == NULL)
    {
      rank = ovi_rank_new (r->host, r->root, device);
      /* The rank holds the key. */
      g_hash_table_insert (by_device, rank->device ? rank->device : NO_DEVICE, rank);
      g_ptr_array_add (r->ranks, rank);
    }
  return rank;
}

/* One record into its rank; the record's strings may be taken. */
static void
root_add_record (OviClusterRoot *r, GHashTable *by_device, OviClusterRecord *rec)
{
  OviRank *rank = rank_for (by_device, r, rec->device);
  guint64 number;

  rank->n_records++;
  if (parse_iteration (rec->iteration, &number))
    ovi_rank_count_iteration (rank, number);
  if (rank->has_first || rec->ignored)
    return;
  rank->has_first = TRUE;
  rank->has_iteration = parse_iteration (rec->iteration, &rank->iteration);
  rank->timestamp = rec->timestamp;
  rank->status_summary = status_summary (rec);
  rank->from_data = g_strcmp0 (rec->source, "data") == 0;
  rank->collective = ovi_op_type_is_collective (rec->op_type);
  rank->first_iteration = g_steal_pointer (&rec->iteration);
  rank->file = g_steal_pointer (&rec->file);
  rank->op_file = g_steal_pointer (&rec->op_file);
  rank->op_type = g_steal_pointer (&rec->op_type);
  rank->op_name = g_steal_pointer (&rec->op_name);
  rank->unit = g_steal_pointer (&rec->unit);
  rank->status_hex = g_steal_pointer (&rec->status_hex);
}

static OviClusterRoot *
root_new (const char *host, const char *root)
{
  OviClusterRoot *r = g_new0 (OviClusterRoot, 1);

  /* Reports written before there was a "host" have an empty one. */
  r->host = g_strdup (host ? host : "");
  r->root = g_strdup (root);
  r->ranks = g_ptr_array_new_with_free_func (g_object_unref);
  ovi_cluster_devices_init (&r->quiet);
  return r;
}

static void
set_not_a_report (GError **error, const char *source_name, const char *where, const char *what)
{
  /* Translators: a file name, where in it ("roots[3]: " or nothing), and
   * what is missing */
  g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT,
               _ ("%s: %snot an Overflow Inspector report (%s)"), source_name, where, what);
}

static void
set_bad_record (GError **error,
                const char *source_name,
                const char *where,
                guint index,
                const OviClusterRecord *rec,
                gboolean is_object)
{
  g_autofree char *problem = NULL;

  if (!is_object)
    problem = g_strdup_printf (_ ("record %u is not a JSON object"), index + 1);
  else if (!rec->iteration)
    problem = g_strdup_printf (_ ("record %u has no \"iteration\""), index + 1);
  else
    problem = g_strdup_printf (_ ("record %u has no \"timestamp\""), index + 1);
  g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT, "%s: %s%s", source_name,
               where, problem);
}

/* ---- from a tree (a report built here, or parsed by the caller) */

/* A string member, or NULL when absent or not a string. */
static const char *
get_string (JsonObject *o, const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    return json_node_get_string (n);
  return NULL;
}

static void
record_from_object (OviClusterRecord *rec, JsonObject *o)
{
  JsonNode *n;

  rec->iteration = g_strdup (get_string (o, "iteration"));
  rec->has_timestamp =
      ovi_json_node_get_u64 (json_object_get_member (o, "timestamp"), &rec->timestamp);
  rec->device = g_strdup (get_string (o, "device"));
  n = json_object_get_member (o, "ignored");
  rec->ignored = n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_BOOLEAN &&
                 json_node_get_boolean (n);
  rec->file = g_strdup (get_string (o, "file"));
  rec->unit = g_strdup (get_string (o, "unit"));
  rec->status_hex = g_strdup (get_string (o, "status_hex"));
  rec->source = g_strdup (get_string (o, "source"));
  n = json_object_get_member (o, "flags");
  if (n && JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *bit = json_array_get_element (a, i);
          if (JSON_NODE_HOLDS_VALUE (bit) && json_node_get_value_type (bit) == G_TYPE_STRING)
            record_add_flag (rec, json_node_get_string (bit));
        }
    }
  n = json_object_get_member (o, "op");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    {
      rec->op_file = g_strdup (get_string (json_node_get_object (n), "file"));
      rec->op_type = g_strdup (get_string (json_node_get_object (n), "op_type"));
      rec->op_name = g_strdup (get_string (json_node_get_object (n), "op_name"));
    }
}

/* One single-root report. @where locates it in a cluster report
 * ("roots[3]: ") for messages. */
static OviClusterRoot *
read_root (JsonNode *node, const char *source_name, const char *where, GError **error)
{
  g_autoptr (OviClusterRoot) r = NULL;
  g_autoptr (GHashTable) by_device = NULL;
  JsonObject *o;
  JsonNode *records, *devices;
  JsonArray *a;
  const char *root;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_not_a_report (error, source_name, where, _ ("not a JSON object"));
      return NULL;
    }
  o = json_node_get_object (node);
  records = json_object_get_member (o, "records");
  if (!records || !JSON_NODE_HOLDS_ARRAY (records))
    {
      set_not_a_report (error, source_name, where, _ ("no \"records\" array"));
      return NULL;
    }
  if (!(root = get_string (o, "root")))
    {
      set_not_a_report (error, source_name, where, _ ("no \"root\""));
      return NULL;
    }

  r = root_new (get_string (o, "host"), root);
  r->report = json_node_ref (node);
  by_device = g_hash_table_new (g_str_hash, g_str_equal);

  a = json_node_get_array (records);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *rn = json_array_get_element (a, i);
      OviClusterRecord rec = { 0 };

      if (JSON_NODE_HOLDS_OBJECT (rn))
        record_from_object (&rec, json_node_get_object (rn));
      if (!rec.iteration || !rec.has_timestamp)
        {
          set_bad_record (error, source_name, where, i, &rec, JSON_NODE_HOLDS_OBJECT (rn));
          record_clear (&rec);
          return NULL;
        }
      root_add_record (r, by_device, &rec);
      record_clear (&rec);
    }

  /* Devices with files and no overflow: ranks too. */
  devices = json_object_get_member (o, "devices");
  if (devices && JSON_NODE_HOLDS_ARRAY (devices))
    {
      JsonArray *d = json_node_get_array (devices);
      for (guint i = 0; i < json_array_get_length (d); i++)
        {
          JsonNode *dn = json_array_get_element (d, i);
          if (JSON_NODE_HOLDS_NULL (dn))
            ovi_cluster_devices_add (&r->quiet, NULL);
          else if (JSON_NODE_HOLDS_VALUE (dn) && json_node_get_value_type (dn) == G_TYPE_STRING)
            ovi_cluster_devices_add (&r->quiet, json_node_get_string (dn));
        }
    }
  root_finish (r, by_device);
  return g_steal_pointer (&r);
}

/* A single-root or a cluster report: its roots, appended to @roots, or
 * nothing at all on error. */
gboolean
ovi_cluster_root_read_tree (JsonNode *node,
                            const char *source_name,
                            GPtrArray *roots,
                            GError **error)
{
  g_autoptr (GPtrArray) found =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  const char *format = NULL;

  if (node && JSON_NODE_HOLDS_OBJECT (node))
    format = get_string (json_node_get_object (node), "format");
  if (format && !g_str_equal (format, OVI_CLUSTER_FORMAT))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT,
                   _ ("%s: not an Overflow Inspector report (format “%s”)"), source_name, format);
      return FALSE;
    }
  if (format)
    {
      JsonNode *rn = json_object_get_member (json_node_get_object (node), "roots");
      JsonArray *a;

      if (!rn || !JSON_NODE_HOLDS_ARRAY (rn))
        {
          g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT,
                       _ ("%s: a cluster report without a \"roots\" array"), source_name);
          return FALSE;
        }
      a = json_node_get_array (rn);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *where = g_strdup_printf ("roots[%u]: ", i);
          /* The element is shared with the cluster report: a copy of the
           * node (which shares the object) keeps it without a parent. */
          g_autoptr (JsonNode) copy = json_node_copy (json_array_get_element (a, i));
          OviClusterRoot *r = read_root (copy, source_name, where, error);
          if (!r)
            return FALSE;
          g_ptr_array_add (found, r);
        }
    }
  else
    {
      OviClusterRoot *r = read_root (node, source_name, "", error);
      if (!r)
        return FALSE;
      g_ptr_array_add (found, r);
    }
  g_ptr_array_extend_and_steal (roots, g_steal_pointer (&found));
  return TRUE;
}

/* ---- from a folder: its records, no JSON in between */

static char *
display_path (const char *path)
{
  return g_filename_display_name (*path ? path : ".");
}

/* One root of @folder, as its report would give it to a cluster. */
static OviClusterRoot *
root_from_folder (OviDumpFolder *folder, guint root, const char *host)
{
  GListModel *records = ovi_dump_folder_get_records (folder);
  GListModel *files = ovi_dump_folder_get_files (folder);
  gboolean several = ovi_dump_folder_get_n_roots (folder) > 1;
  g_autofree char *root_path =
      g_filename_display_name (ovi_dump_folder_get_nth_root_path (folder, root));
  g_autoptr (GHashTable) by_device = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  OviClusterRoot *r = root_new (host, root_path);
  gboolean no_device = FALSE;

  for (guint i = 0, n = g_list_model_get_n_items (records); i < n; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);
      OviDumpFile *op = ovi_overflow_record_get_op (record);
      OviClusterRecord rec = { 0 };

      if (several && ovi_dump_file_get_root (file) != root)
        continue;
      rec.iteration = display_path (ovi_dump_file_get_dir_in_root (file));
      rec.has_timestamp = TRUE;
      rec.timestamp = ovi_dump_file_get_timestamp (file);
      rec.device =
          *ovi_dump_file_get_device (file) ? g_strdup (ovi_dump_file_get_device (file)) : NULL;
      rec.ignored = ovi_overflow_record_get_ignored (record);
      rec.file = display_path (ovi_dump_file_get_path_in_root (file));
      rec.unit = g_strdup (ovi_overflow_record_get_unit_name (record));
      rec.status_hex = ovi_overflow_record_dup_status_hex (record);
      rec.source = g_strdup (ovi_record_source_name (ovi_overflow_record_get_source (record)));
      rec.flags_mask = ovi_overflow_record_get_flags_mask (record);
      if (op != NULL)
        {
          rec.op_file = display_path (ovi_dump_file_get_path_in_root (op));
          rec.op_type = g_strdup (ovi_dump_file_get_op_type (op));
          rec.op_name = g_strdup (ovi_dump_file_get_op_name (op));
        }
      root_add_record (r, by_device, &rec);
      record_clear (&rec);
    }

  /* Devices with files and no overflow: ranks too, in the report's order. */
  for (guint i = 0, n = g_list_model_get_n_items (files); i < n; i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      const char *device = ovi_dump_file_get_device (f);

      if (several && ovi_dump_file_get_root (f) != root)
        continue;
      if (!*device && !no_device)
        {
          no_device = TRUE;
          ovi_cluster_devices_add (&r->quiet, NULL);
        }
      /* The files hold the strings, and the folder the files. */
      else if (*device && g_hash_table_add (seen, (char *) device))
        ovi_cluster_devices_add (&r->quiet, device);
    }
  root_finish (r, by_device);
  return r;
}

/**
 * ovi_cluster_root_read_folder:
 * @host: the machine that holds @folder
 *
 * Each root of @folder, from its records: what a report of it without
 * tensors gives a cluster (the report's JSON need not be built and read).
 */
void
ovi_cluster_root_read_folder (OviDumpFolder *folder, const char *host, GPtrArray *roots)
{
  for (guint i = 0, n = ovi_dump_folder_get_n_roots (folder); i < n; i++)
    g_ptr_array_add (roots, root_from_folder (folder, i, host));
}

/* ---- from a file's text
 *
 * Ranks need a few members of each record, and a merged report needs each
 * root's text unchanged: the scanner checks the whole text is JSON and
 * these member functions keep only that. */

static gboolean
op_member (OviJsonScanner *s, const char *key, gsize key_len, gpointer data, int depth)
{
  OviClusterRecord *rec = data;

  if (OVI_JSON_KEY_IS ("file"))
    return ovi_json_scanner_take_string (s, &rec->op_file, depth);
  if (OVI_JSON_KEY_IS ("op_type"))
    return ovi_json_scanner_take_string (s, &rec->op_type, depth);
  if (OVI_JSON_KEY_IS ("op_name"))
    return ovi_json_scanner_take_string (s, &rec->op_name, depth);
  return ovi_json_scanner_skip_value (s, depth);
}

static gboolean
record_member (OviJsonScanner *s, const char *key, gsize key_len, gpointer data, int depth)
{
  OviClusterRecord *rec = data;

  if (OVI_JSON_KEY_IS ("iteration"))
    return ovi_json_scanner_take_string (s, &rec->iteration, depth);
  if (OVI_JSON_KEY_IS ("device"))
    return ovi_json_scanner_take_string (s, &rec->device, depth);
  if (OVI_JSON_KEY_IS ("file"))
    return ovi_json_scanner_take_string (s, &rec->file, depth);
  if (OVI_JSON_KEY_IS ("unit"))
    return ovi_json_scanner_take_string (s, &rec->unit, depth);
  if (OVI_JSON_KEY_IS ("status_hex"))
    return ovi_json_scanner_take_string (s, &rec->status_hex, depth);
  if (OVI_JSON_KEY_IS ("source"))
    return ovi_json_scanner_take_string (s, &rec->source, depth);
  if (OVI_JSON_KEY_IS ("timestamp"))
    {
      if (s->p < s->end && (*s->p == '-' || g_ascii_isdigit (*s->p)))
        {
          gboolean plain;
          if (!ovi_json_scanner_number (s, &rec->timestamp, &plain))
            return FALSE;
          /* Timestamps are u64: the report writes them exactly. */
          rec->has_timestamp = plain;
          return TRUE;
        }
      rec->has_timestamp = FALSE;
      return ovi_json_scanner_skip_value (s, depth);
    }
  if (OVI_JSON_KEY_IS ("ignored"))
    {
      rec->ignored = s->p < s->end && *s->p == 't';
      return ovi_json_scanner_skip_value (s, depth);
    }
  if (OVI_JSON_KEY_IS ("flags") && s->p < s->end && *s->p == '[')
    {
      rec->flags_mask = 0;
      s->p++;
      if (ovi_json_scanner_expect (s, ']'))
        return TRUE;
      for (;;)
        {
          ovi_json_scanner_skip_ws (s);
          if (s->p < s->end && *s->p == '"')
            {
              g_autofree char *hex = NULL;
              if (!ovi_json_scanner_string (s, &hex))
                return FALSE;
              record_add_flag (rec, hex);
            }
          else if (!ovi_json_scanner_skip_value (s, depth + 1))
            return FALSE;
          if (ovi_json_scanner_expect (s, ','))
            continue;
          if (ovi_json_scanner_expect (s, ']'))
            return TRUE;
          return ovi_json_scanner_fail (s, N_ ("expected ',' or ']'"));
        }
    }
  if (OVI_JSON_KEY_IS ("op"))
    {
      g_clear_pointer (&rec->op_type, g_free);
      g_clear_pointer (&rec->op_name, g_free);
      if (s->p < s->end && *s->p == '{')
        {
          s->p++;
          return ovi_json_scanner_object (s, op_member, rec, depth);
        }
    }
  return ovi_json_scanner_skip_value (s, depth);
}

/* One root's report object as read from text. */
typedef struct
{
  const char *begin, *end; /* its text */
  gboolean is_object;
  char *root;
  char *host;
  char *format;
  gboolean has_records;
  GArray *records;      /* OviClusterRecord */
  guint bad_record;     /* 1 + the index of the first record that lacks something */
  OviClusterRecord bad; /* what that record had */
  gboolean bad_is_object;
  OviClusterDevices devices; /* none until a "devices" array */
  gboolean has_roots;
  GPtrArray *roots; /* ScannedRoot, the "roots" of a cluster report */
} ScannedRoot;

static void
scanned_root_free (ScannedRoot *sr)
{
  g_free (sr->root);
  g_free (sr->host);
  g_free (sr->format);
  if (sr->records)
    {
      for (guint i = 0; i < sr->records->len; i++)
        record_clear (&g_array_index (sr->records, OviClusterRecord, i));
      g_array_unref (sr->records);
    }
  record_clear (&sr->bad);
  ovi_cluster_devices_clear (&sr->devices);
  g_clear_pointer (&sr->roots, g_ptr_array_unref);
  g_free (sr);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ScannedRoot, scanned_root_free)

static gboolean scan_root (OviJsonScanner *s, ScannedRoot *sr, gboolean top, int depth);

static gboolean
scan_records (OviJsonScanner *s, ScannedRoot *sr, int depth)
{
  guint index = 0;

  sr->has_records = TRUE;
  if (!sr->records)
    sr->records = g_array_new (FALSE, TRUE, sizeof (OviClusterRecord));
  s->p++; /* '[' */
  if (ovi_json_scanner_expect (s, ']'))
    return TRUE;
  for (;;)
    {
      OviClusterRecord rec = { 0 };
      gboolean is_object;

      ovi_json_scanner_skip_ws (s);
      is_object = s->p < s->end && *s->p == '{';
      if (is_object)
        {
          s->p++;
          if (!ovi_json_scanner_object (s, record_member, &rec, depth + 1))
            {
              record_clear (&rec);
              return FALSE;
            }
        }
      else if (!ovi_json_scanner_skip_value (s, depth + 1))
        return FALSE;
      if (is_object && rec.iteration && rec.has_timestamp)
        g_array_append_val (sr->records, rec);
      else if (sr->bad_record == 0)
        {
          sr->bad_record = index + 1;
          sr->bad = rec;
          sr->bad_is_object = is_object;
        }
      else
        record_clear (&rec);
      index++;
      if (ovi_json_scanner_expect (s, ','))
        continue;
      if (ovi_json_scanner_expect (s, ']'))
        return TRUE;
      return ovi_json_scanner_fail (s, N_ ("expected ',' or ']'"));
    }
}

static gboolean
root_member (OviJsonScanner *s, const char *key, gsize key_len, gpointer data, int depth)
{
  ScannedRoot *sr = data;

  if (OVI_JSON_KEY_IS ("root"))
    return ovi_json_scanner_take_string (s, &sr->root, depth);
  if (OVI_JSON_KEY_IS ("host"))
    return ovi_json_scanner_take_string (s, &sr->host, depth);
  if (OVI_JSON_KEY_IS ("records") && s->p < s->end && *s->p == '[')
    return scan_records (s, sr, depth);
  if (OVI_JSON_KEY_IS ("records"))
    sr->has_records = FALSE;
  if (OVI_JSON_KEY_IS ("devices") && s->p < s->end && *s->p == '[')
    {
      ovi_cluster_devices_clear (&sr->devices);
      ovi_cluster_devices_init (&sr->devices);
      s->p++;
      if (ovi_json_scanner_expect (s, ']'))
        return TRUE;
      for (;;)
        {
          ovi_json_scanner_skip_ws (s);
          if (s->p < s->end && *s->p == '"')
            {
              g_autofree char *id = NULL;
              if (!ovi_json_scanner_string (s, &id))
                return FALSE;
              ovi_cluster_devices_add (&sr->devices, id);
            }
          else if (s->p < s->end && *s->p == 'n')
            {
              if (!ovi_json_scanner_literal (s, "null"))
                return FALSE;
              ovi_cluster_devices_add (&sr->devices, NULL);
            }
          else if (!ovi_json_scanner_skip_value (s, depth + 1))
            return FALSE;
          if (ovi_json_scanner_expect (s, ','))
            continue;
          if (ovi_json_scanner_expect (s, ']'))
            return TRUE;
          return ovi_json_scanner_fail (s, N_ ("expected ',' or ']'"));
        }
    }
  return ovi_json_scanner_skip_value (s, depth);
}

static gboolean
top_member (OviJsonScanner *s, const char *key, gsize key_len, gpointer data, int depth)
{
  ScannedRoot *sr = data;

  if (OVI_JSON_KEY_IS ("format"))
    return ovi_json_scanner_take_string (s, &sr->format, depth);
  if (OVI_JSON_KEY_IS ("roots") && s->p < s->end && *s->p == '[')
    {
      g_clear_pointer (&sr->roots, g_ptr_array_unref);
      sr->roots = g_ptr_array_new_with_free_func ((GDestroyNotify) scanned_root_free);
      sr->has_roots = TRUE;
      s->p++;
      if (ovi_json_scanner_expect (s, ']'))
        return TRUE;
      for (;;)
        {
          ScannedRoot *child = g_new0 (ScannedRoot, 1);
          g_ptr_array_add (sr->roots, child);
          if (!scan_root (s, child, FALSE, depth + 1))
            return FALSE;
          if (ovi_json_scanner_expect (s, ','))
            continue;
          if (ovi_json_scanner_expect (s, ']'))
            return TRUE;
          return ovi_json_scanner_fail (s, N_ ("expected ',' or ']'"));
        }
    }
  if (OVI_JSON_KEY_IS ("roots"))
    sr->has_roots = FALSE;
  return root_member (s, key, key_len, data, depth);
}

/* A value that should be a report: its extent, and what the ranks need. */
static gboolean
scan_root (OviJsonScanner *s, ScannedRoot *sr, gboolean top, int depth)
{
  ovi_json_scanner_skip_ws (s);
  sr->begin = s->p;
  sr->is_object = s->p < s->end && *s->p == '{';
  if (!sr->is_object)
    {
      if (!ovi_json_scanner_skip_value (s, depth))
        return FALSE;
    }
  else
    {
      s->p++;
      if (!ovi_json_scanner_object (s, top ? top_member : root_member, sr, depth))
        return FALSE;
    }
  sr->end = s->p;
  return TRUE;
}

/* "line 3, column 7" of where the text stops being JSON (1-based). */
static char *
scan_where (OviJsonScanner *s)
{
  guint line = 1;
  const char *line_start = s->start;

  for (const char *p = s->start; p < s->error_at; p++)
    if (*p == '\n')
      {
        line++;
        line_start = p + 1;
      }
  /* Translators: a place in a file */
  return g_strdup_printf (_ ("line %u, column %u"), line,
                          (guint) g_utf8_strlen (line_start, s->error_at - line_start) + 1);
}

/* The ranks of a scanned report, with its text in @bytes. */
static OviClusterRoot *
root_from_scan (
    ScannedRoot *sr, GBytes *bytes, const char *source_name, const char *where, GError **error)
{
  g_autoptr (OviClusterRoot) r = NULL;
  g_autoptr (GHashTable) by_device = NULL;
  const char *data = g_bytes_get_data (bytes, NULL);

  if (!sr->is_object)
    {
      set_not_a_report (error, source_name, where, _ ("not a JSON object"));
      return NULL;
    }
  if (!sr->has_records)
    {
      set_not_a_report (error, source_name, where, _ ("no \"records\" array"));
      return NULL;
    }
  if (!sr->root)
    {
      set_not_a_report (error, source_name, where, _ ("no \"root\""));
      return NULL;
    }
  if (sr->bad_record)
    {
      set_bad_record (error, source_name, where, sr->bad_record - 1, &sr->bad, sr->bad_is_object);
      return NULL;
    }
  r = root_new (sr->host, sr->root);
  r->text = g_bytes_new_from_bytes (bytes, sr->begin - data, sr->end - sr->begin);
  by_device = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < sr->records->len; i++)
    root_add_record (r, by_device, &g_array_index (sr->records, OviClusterRecord, i));
  if (sr->devices.list)
    {
      OviClusterDevices none = r->quiet;

      r->quiet = sr->devices;
      sr->devices = none;
    }
  root_finish (r, by_device);
  return g_steal_pointer (&r);
}

/* A report file's text (single-root or cluster): its roots, appended to
 * @roots, or nothing at all on error. */
gboolean
ovi_cluster_root_read_text (GBytes *bytes,
                            const char *source_name,
                            GPtrArray *roots,
                            GError **error)
{
  g_autoptr (GPtrArray) found =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  g_autoptr (ScannedRoot) top = g_new0 (ScannedRoot, 1);
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  OviJsonScanner s;

  /* An empty file has no data at all: no pointer to offset. */
  if (data == NULL)
    data = "";
  ovi_json_scanner_init (&s, data, length);

  /* A byte order mark is not JSON, but some editors write one. */
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    s.p += 3;
  ovi_json_scanner_skip_ws (&s);
  if (s.p >= s.end)
    ovi_json_scanner_fail (&s, N_ ("empty"));
  else if (scan_root (&s, top, TRUE, 0))
    {
      ovi_json_scanner_skip_ws (&s);
      if (s.p < s.end)
        ovi_json_scanner_fail (&s, N_ ("more after the end of the data"));
    }
  if (s.problem)
    {
      g_autofree char *place = scan_where (&s);
      /* Translators: a file name, a place in it, what is wrong there */
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_JSON, _ ("%s: not JSON: %s: %s"),
                   source_name, place, _ (s.problem));
      return FALSE;
    }

  if (top->format && !g_str_equal (top->format, OVI_CLUSTER_FORMAT))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT,
                   _ ("%s: not an Overflow Inspector report (format “%s”)"), source_name,
                   top->format);
      return FALSE;
    }
  if (top->format)
    {
      if (!top->has_roots)
        {
          g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT,
                       _ ("%s: a cluster report without a \"roots\" array"), source_name);
          return FALSE;
        }
      for (guint i = 0; i < top->roots->len; i++)
        {
          g_autofree char *where = g_strdup_printf ("roots[%u]: ", i);
          OviClusterRoot *r =
              root_from_scan (g_ptr_array_index (top->roots, i), bytes, source_name, where, error);
          if (!r)
            return FALSE;
          g_ptr_array_add (found, r);
        }
    }
  else
    {
      OviClusterRoot *r = root_from_scan (top, bytes, source_name, "", error);
      if (!r)
        return FALSE;
      g_ptr_array_add (found, r);
    }
  g_ptr_array_extend_and_steal (roots, g_steal_pointer (&found));
  return TRUE;
}
