#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-cluster.h"
#include "ovi-overflow-record.h"
#include "ovi-worker.h"

/* The cross-device analysis. It reads report JSON only (the "records" of
 * each root, with their "device", "iteration" and "timestamp"), so a
 * folder opened here and a report written on another machine go through
 * the same code.
 *
 * A rank is one (host, root, device): two roots that hold the same device
 * id are two ranks. A rank's first overflow is its first record that is
 * not ignored, in its report's first-overflow order. Ranks are ordered by
 * the iteration number of that record (the last component of its
 * iteration folder, when it is a number), then by its timestamp, then by
 * host, root and device so that the order is stable; ranks with no
 * overflow come last. The timestamps are those in the file names: the
 * time a file was written, which can lag the overflow itself, and clocks
 * of different machines are only as close as the cluster keeps them.
 *
 * Roles: a rank whose first overflow is on a collective operator (an HCCL
 * op type, see ovi_op_type_is_collective()) while another rank has a
 * first overflow on a non-collective operator at an earlier or equal
 * position (iteration, then timestamp) has RECEIVED its bad values; every
 * other rank with an overflow is an ORIGIN. */

G_DEFINE_QUARK (ovi - cluster - error - quark, ovi_cluster_error)

/* HCCL's op types: the ones named, and every other Hcom* type (HcomAlltoAll,
 * HcomReduce, HcomRemoteRead, ...). */
static const char *const collective_types[] = {
  "HcomAllReduce", "HcomAllGather", "HcomReduceScatter", "HcomBroadcast", "HcomSend", "HcomReceive",
};
#define COLLECTIVE_PREFIX "Hcom"

/**
 * ovi_op_type_is_collective:
 * @op_type: (nullable): an operator type, e.g. "HcomAllReduce"
 *
 * Returns: whether operators of this type move data between devices (HCCL
 *   collectives and point-to-point transfers)
 */
gboolean
ovi_op_type_is_collective (const char *op_type)
{
  if (op_type == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (collective_types); i++)
    if (g_str_equal (op_type, collective_types[i]))
      return TRUE;
  return g_str_has_prefix (op_type, COLLECTIVE_PREFIX) && op_type[strlen (COLLECTIVE_PREFIX)];
}

static const GEnumValue role_values[] = {
  { OVI_RANK_ROLE_NONE, "OVI_RANK_ROLE_NONE", "none" },
  { OVI_RANK_ROLE_ORIGIN, "OVI_RANK_ROLE_ORIGIN", "origin" },
  { OVI_RANK_ROLE_RECEIVED, "OVI_RANK_ROLE_RECEIVED", "received" },
  { 0, NULL, NULL },
};

GType
ovi_rank_role_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("OviRankRole", role_values));
  return type;
}

/**
 * ovi_rank_role_name:
 *
 * Returns: "none", "origin" or "received", as the cluster report writes it
 */
const char *
ovi_rank_role_name (OviRankRole role)
{
  g_return_val_if_fail (role <= OVI_RANK_ROLE_RECEIVED, "none");
  return role_values[role].value_nick;
}

/* ---------------------------------------------------------------- OviRank */

struct _OviRank
{
  GObject parent_instance;

  char *host;
  char *root;
  char *device; /* NULL: the layout has no device level */
  gboolean has_first;
  char *first_iteration;
  gboolean has_iteration;
  guint64 iteration;
  guint64 timestamp;
  char *file;
  char *op_file; /* the operator's dump file, when the record links to one */
  char *op_type;
  char *op_name;
  char *unit;
  char *status_hex;
  char *status_summary;
  gboolean from_data; /* found in the data: status_summary is a sentence */
  gboolean collective;
  OviRankRole role;
  gboolean earliest;
  guint n_records;
  GArray *iterations; /* OviRankIteration, by iteration */
};

G_DEFINE_FINAL_TYPE (OviRank, ovi_rank, G_TYPE_OBJECT)

enum
{
  RANK_PROP_0,
  RANK_PROP_HOST,
  RANK_PROP_ROOT,
  RANK_PROP_DEVICE,
  RANK_PROP_FIRST_ITERATION,
  RANK_PROP_ITERATION,
  RANK_PROP_TIMESTAMP,
  RANK_PROP_FILE,
  RANK_PROP_OP_TYPE,
  RANK_PROP_OP_NAME,
  RANK_PROP_UNIT,
  RANK_PROP_STATUS_HEX,
  RANK_PROP_STATUS_SUMMARY,
  RANK_PROP_COLLECTIVE,
  RANK_PROP_ROLE,
  RANK_PROP_EARLIEST,
  RANK_PROP_N_RECORDS,
  RANK_PROP_LABEL,
  RANK_N_PROPS
};

static GParamSpec *rank_props[RANK_N_PROPS];

static void
ovi_rank_finalize (GObject *object)
{
  OviRank *self = OVI_RANK (object);

  g_free (self->host);
  g_free (self->root);
  g_free (self->device);
  g_free (self->first_iteration);
  g_free (self->file);
  g_free (self->op_file);
  g_free (self->op_type);
  g_free (self->op_name);
  g_free (self->unit);
  g_free (self->status_hex);
  g_free (self->status_summary);
  g_array_unref (self->iterations);
  G_OBJECT_CLASS (ovi_rank_parent_class)->finalize (object);
}

/* Properties a window binds to: strings are "" rather than NULL. */
static const char *
or_empty (const char *s)
{
  return s ? s : "";
}

static void
ovi_rank_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviRank *self = OVI_RANK (object);

  switch (prop_id)
    {
    case RANK_PROP_HOST:
      g_value_set_string (value, self->host);
      break;
    case RANK_PROP_ROOT:
      g_value_set_string (value, self->root);
      break;
    case RANK_PROP_DEVICE:
      g_value_set_string (value, or_empty (self->device));
      break;
    case RANK_PROP_FIRST_ITERATION:
      g_value_set_string (value, or_empty (self->first_iteration));
      break;
    case RANK_PROP_ITERATION:
      g_value_set_uint64 (value, self->iteration);
      break;
    case RANK_PROP_TIMESTAMP:
      g_value_set_uint64 (value, self->timestamp);
      break;
    case RANK_PROP_FILE:
      g_value_set_string (value, or_empty (self->file));
      break;
    case RANK_PROP_OP_TYPE:
      g_value_set_string (value, or_empty (self->op_type));
      break;
    case RANK_PROP_OP_NAME:
      g_value_set_string (value, or_empty (self->op_name));
      break;
    case RANK_PROP_UNIT:
      g_value_set_string (value, or_empty (self->unit));
      break;
    case RANK_PROP_STATUS_HEX:
      g_value_set_string (value, or_empty (self->status_hex));
      break;
    case RANK_PROP_STATUS_SUMMARY:
      g_value_set_string (value, or_empty (self->status_summary));
      break;
    case RANK_PROP_COLLECTIVE:
      g_value_set_boolean (value, self->collective);
      break;
    case RANK_PROP_ROLE:
      g_value_set_enum (value, self->role);
      break;
    case RANK_PROP_EARLIEST:
      g_value_set_boolean (value, self->earliest);
      break;
    case RANK_PROP_N_RECORDS:
      g_value_set_uint (value, self->n_records);
      break;
    case RANK_PROP_LABEL:
      g_value_take_string (value, ovi_rank_dup_label (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_rank_class_init (OviRankClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_rank_finalize;
  object_class->get_property = ovi_rank_get_property;

  rank_props[RANK_PROP_HOST] = g_param_spec_string ("host", NULL, NULL, "", ro);
  rank_props[RANK_PROP_ROOT] = g_param_spec_string ("root", NULL, NULL, "", ro);
  rank_props[RANK_PROP_DEVICE] = g_param_spec_string ("device", NULL, NULL, "", ro);
  rank_props[RANK_PROP_FIRST_ITERATION] =
      g_param_spec_string ("first-iteration", NULL, NULL, "", ro);
  rank_props[RANK_PROP_ITERATION] =
      g_param_spec_uint64 ("iteration", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  rank_props[RANK_PROP_TIMESTAMP] =
      g_param_spec_uint64 ("timestamp", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  rank_props[RANK_PROP_FILE] = g_param_spec_string ("file", NULL, NULL, "", ro);
  rank_props[RANK_PROP_OP_TYPE] = g_param_spec_string ("op-type", NULL, NULL, "", ro);
  rank_props[RANK_PROP_OP_NAME] = g_param_spec_string ("op-name", NULL, NULL, "", ro);
  rank_props[RANK_PROP_UNIT] = g_param_spec_string ("unit", NULL, NULL, "", ro);
  rank_props[RANK_PROP_STATUS_HEX] = g_param_spec_string ("status-hex", NULL, NULL, "", ro);
  rank_props[RANK_PROP_STATUS_SUMMARY] = g_param_spec_string ("status-summary", NULL, NULL, "", ro);
  rank_props[RANK_PROP_COLLECTIVE] = g_param_spec_boolean ("collective", NULL, NULL, FALSE, ro);
  rank_props[RANK_PROP_ROLE] = g_param_spec_enum ("role", NULL, NULL, OVI_TYPE_RANK_ROLE,
                                                  OVI_RANK_ROLE_NONE, ro | G_PARAM_EXPLICIT_NOTIFY);
  rank_props[RANK_PROP_EARLIEST] =
      g_param_spec_boolean ("earliest", NULL, NULL, FALSE, ro | G_PARAM_EXPLICIT_NOTIFY);
  rank_props[RANK_PROP_N_RECORDS] =
      g_param_spec_uint ("n-records", NULL, NULL, 0, G_MAXUINT, 0, ro);
  rank_props[RANK_PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, "", ro);
  g_object_class_install_properties (object_class, RANK_N_PROPS, rank_props);
}

static void
ovi_rank_init (OviRank *self)
{
  self->iterations = g_array_new (FALSE, FALSE, sizeof (OviRankIteration));
}

const char *
ovi_rank_get_host (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->host;
}

const char *
ovi_rank_get_root (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->root;
}

/**
 * ovi_rank_get_device:
 *
 * Returns: (nullable): the device id, %NULL when the root's layout has no
 *   device level
 */
const char *
ovi_rank_get_device (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->device;
}

/**
 * ovi_rank_get_first_iteration:
 *
 * Returns: (nullable): the folder of the first overflow, relative to the
 *   root ("." for the root itself); %NULL without overflow
 */
const char *
ovi_rank_get_first_iteration (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->first_iteration;
}

/**
 * ovi_rank_get_iteration:
 *
 * Returns: the iteration number of the first overflow (see
 *   ovi_rank_has_iteration()), 0 when there is none
 */
guint64
ovi_rank_get_iteration (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), 0);
  return self->iteration;
}

/**
 * ovi_rank_has_iteration:
 *
 * Returns: whether the first overflow's folder is named by a number
 */
gboolean
ovi_rank_has_iteration (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), FALSE);
  return self->has_iteration;
}

/**
 * ovi_rank_get_timestamp:
 *
 * Returns: the timestamp (µs, from the file name: when the file was
 *   written) of the first overflow, 0 without overflow
 */
guint64
ovi_rank_get_timestamp (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), 0);
  return self->timestamp;
}

/**
 * ovi_rank_get_file:
 *
 * Returns: (nullable): the file of the first overflow record, relative to
 *   the root
 */
const char *
ovi_rank_get_file (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->file;
}

/* The operator's dump file the first record links to, relative to the
 * root; NULL when it links to none. */
const char *
ovi_rank_get_op_file (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->op_file;
}

/**
 * ovi_rank_get_op_type:
 *
 * Returns: (nullable): the type of the first overflow's operator, %NULL
 *   when no operator matched it or there is no overflow
 */
const char *
ovi_rank_get_op_type (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->op_type;
}

const char *
ovi_rank_get_op_name (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->op_name;
}

const char *
ovi_rank_get_unit (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->unit;
}

const char *
ovi_rank_get_status_hex (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->status_hex;
}

/**
 * ovi_rank_get_status_summary:
 *
 * Returns: (nullable): the first overflow's status as the report text
 *   shows it ("0x110 FP16+INT"), in the user's language
 */
const char *
ovi_rank_get_status_summary (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  return self->status_summary;
}

gboolean
ovi_rank_get_collective (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), FALSE);
  return self->collective;
}

OviRankRole
ovi_rank_get_role (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), OVI_RANK_ROLE_NONE);
  return self->role;
}

gboolean
ovi_rank_get_earliest (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), FALSE);
  return self->earliest;
}

/**
 * ovi_rank_get_n_records:
 *
 * Returns: how many overflow records the rank has, ignored ones included
 */
guint
ovi_rank_get_n_records (OviRank *self)
{
  g_return_val_if_fail (OVI_IS_RANK (self), 0);
  return self->n_records;
}

/**
 * ovi_rank_get_iterations:
 * @n_iterations: (out): the number of elements
 *
 * The timeline of a rank: every numbered iteration that has overflow
 * records, in increasing order, with how many (ignored ones included).
 *
 * Returns: (array length=n_iterations) (transfer none): the iterations
 */
const OviRankIteration *
ovi_rank_get_iterations (OviRank *self, guint *n_iterations)
{
  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  g_return_val_if_fail (n_iterations != NULL, NULL);
  *n_iterations = self->iterations->len;
  return (const OviRankIteration *) self->iterations->data;
}

/**
 * ovi_rank_dup_label:
 *
 * Returns: (transfer full): "host:/root, device 3" for people
 */
char *
ovi_rank_dup_label (OviRank *self)
{
  g_autofree char *where = NULL;

  g_return_val_if_fail (OVI_IS_RANK (self), NULL);
  where = *self->host ? g_strdup_printf ("%s:%s", self->host, self->root) : g_strdup (self->root);
  if (self->device == NULL)
    return g_steal_pointer (&where);
  /* Translators: a machine and folder ("node01:/data/dump"), then a device id */
  return g_strdup_printf (_ ("%s, device %s"), where, self->device);
}

static void
rank_set_role (OviRank *self, OviRankRole role, gboolean earliest)
{
  if (self->role != role)
    {
      self->role = role;
      g_object_notify_by_pspec (G_OBJECT (self), rank_props[RANK_PROP_ROLE]);
    }
  if (self->earliest != earliest)
    {
      self->earliest = earliest;
      g_object_notify_by_pspec (G_OBJECT (self), rank_props[RANK_PROP_EARLIEST]);
    }
}

/* -------------------------------------------------------- reading reports */

/* One single-root report: its JSON, unchanged, and its ranks. */
typedef struct
{
  char *host;
  char *root;
  JsonNode *report;
  GPtrArray *ranks; /* OviRank */
} Root;

static void
root_free (Root *r)
{
  g_free (r->host);
  g_free (r->root);
  json_node_unref (r->report);
  g_ptr_array_unref (r->ranks);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Root, root_free)

/* A string member, or NULL when absent or not a string. */
static const char *
get_string (JsonObject *o, const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    return json_node_get_string (n);
  return NULL;
}

static gboolean
get_uint (JsonObject *o, const char *key, guint64 *value)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64 &&
      json_node_get_int (n) >= 0)
    {
      *value = (guint64) json_node_get_int (n);
      return TRUE;
    }
  return FALSE;
}

/* The iteration number: the last component of the iteration folder, when
 * it is a number ("20261202101500/3/resnet50/11/5" is iteration 5). */
static gboolean
parse_iteration (const char *dir, guint64 *number)
{
  const char *last = strrchr (dir, '/');

  last = last ? last + 1 : dir;
  return *last && g_ascii_string_to_unsigned (last, 10, 0, G_MAXUINT64, number, NULL);
}

#define FOUND_IN_DATA                                                                              \
  N_ ("Found in the data: finite inputs, outputs with NaN, Inf or saturated values")

/* The status as the report text shows it (ovi_overflow_record_dup_status_summary()). */
static char *
status_summary (JsonObject *record, const char *unit, const char *status_hex)
{
  JsonNode *flags = json_object_get_member (record, "flags");
  const char *source = get_string (record, "source");
  g_autofree char *words = NULL;
  guint64 mask = 0;

  if (source && g_str_equal (source, "data"))
    return g_strdup (_ (FOUND_IN_DATA));
  if (!status_hex)
    return NULL;
  if (!unit ||
      !(g_str_equal (unit, "AI Core") || g_str_equal (unit, "AIC") || g_str_equal (unit, "AIV")))
    return g_strdup (status_hex);
  if (flags && JSON_NODE_HOLDS_ARRAY (flags))
    {
      JsonArray *a = json_node_get_array (flags);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *bit = json_array_get_element (a, i);
          guint64 v;
          if (JSON_NODE_HOLDS_VALUE (bit) && json_node_get_value_type (bit) == G_TYPE_STRING &&
              g_ascii_string_to_unsigned (json_node_get_string (bit) + 2, 16, 0, G_MAXUINT64, &v,
                                          NULL))
            mask |= v;
        }
    }
  words = ovi_status_dup_summary (mask);
  return *words ? g_strdup_printf ("%s %s", status_hex, words) : g_strdup (status_hex);
}

static OviRank *
rank_new (const char *host, const char *root, const char *device)
{
  OviRank *rank = g_object_new (OVI_TYPE_RANK, NULL);

  rank->host = g_strdup (host);
  rank->root = g_strdup (root);
  rank->device = g_strdup (device);
  return rank;
}

/* Devices are keyed by their id; "no device level" by a key no id has. */
#define NO_DEVICE "\001"

static OviRank *
rank_for (GHashTable *by_device, Root *r, const char *device)
{
  OviRank *rank = g_hash_table_lookup (by_device, device ? device : NO_DEVICE);

  if (rank == NULL)
    {
      rank = rank_new (r->host, r->root, device);
      g_hash_table_insert (by_device, (char *) (device ? device : NO_DEVICE), rank);
      g_ptr_array_add (r->ranks, rank);
    }
  return rank;
}

static void
rank_take_first (OviRank *rank, JsonObject *record, const char *iteration, guint64 timestamp)
{
  JsonNode *op = json_object_get_member (record, "op");

  rank->has_first = TRUE;
  rank->first_iteration = g_strdup (iteration);
  rank->has_iteration = parse_iteration (iteration, &rank->iteration);
  rank->timestamp = timestamp;
  rank->file = g_strdup (get_string (record, "file"));
  if (op && JSON_NODE_HOLDS_OBJECT (op))
    {
      rank->op_file = g_strdup (get_string (json_node_get_object (op), "file"));
      rank->op_type = g_strdup (get_string (json_node_get_object (op), "op_type"));
      rank->op_name = g_strdup (get_string (json_node_get_object (op), "op_name"));
    }
  rank->unit = g_strdup (get_string (record, "unit"));
  rank->status_hex = g_strdup (get_string (record, "status_hex"));
  rank->status_summary = status_summary (record, rank->unit, rank->status_hex);
  rank->from_data = g_strcmp0 (get_string (record, "source"), "data") == 0;
  rank->collective = ovi_op_type_is_collective (rank->op_type);
}

static void
rank_count_iteration (OviRank *rank, guint64 iteration)
{
  GArray *a = rank->iterations;
  guint lo = 0, hi = a->len;
  OviRankIteration it = { iteration, 1 };

  /* Records come mostly in order: look at the end first. */
  if (a->len && g_array_index (a, OviRankIteration, a->len - 1).iteration == iteration)
    {
      g_array_index (a, OviRankIteration, a->len - 1).n_records++;
      return;
    }
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (a, OviRankIteration, mid).iteration < iteration)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < a->len && g_array_index (a, OviRankIteration, lo).iteration == iteration)
    g_array_index (a, OviRankIteration, lo).n_records++;
  else
    g_array_insert_val (a, lo, it);
}

static gboolean
bad_report (GError **error, const char *source_name, const char *where, const char *format, ...)
    G_GNUC_PRINTF (4, 5);

static gboolean
bad_report (GError **error, const char *source_name, const char *where, const char *format, ...)
{
  g_autofree char *problem = NULL;
  va_list args;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT, "%s: %s%s", source_name,
               where, problem);
  return FALSE;
}

/* One single-root report. @where locates it in a cluster report
 * ("roots[3]: ") for messages. */
static Root *
read_root (JsonNode *node, const char *source_name, const char *where, GError **error)
{
  g_autoptr (Root) r = NULL;
  g_autoptr (GHashTable) by_device = NULL;
  JsonObject *o;
  JsonNode *records, *devices;
  JsonArray *a;
  const char *root;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT,
                   _ ("%s: %snot an Overflow Inspector report (not a JSON object)"), source_name,
                   where);
      return NULL;
    }
  o = json_node_get_object (node);
  records = json_object_get_member (o, "records");
  if (!records || !JSON_NODE_HOLDS_ARRAY (records))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT,
                   _ ("%s: %snot an Overflow Inspector report (no \"records\" array)"), source_name,
                   where);
      return NULL;
    }
  if (!(root = get_string (o, "root")))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_A_REPORT,
                   _ ("%s: %snot an Overflow Inspector report (no \"root\")"), source_name, where);
      return NULL;
    }

  r = g_new0 (Root, 1);
  /* Reports written before there was a "host" have an empty one. */
  r->host = g_strdup (get_string (o, "host") ? get_string (o, "host") : "");
  r->root = g_strdup (root);
  r->report = json_node_ref (node);
  r->ranks = g_ptr_array_new_with_free_func (g_object_unref);
  by_device = g_hash_table_new (g_str_hash, g_str_equal);

  a = json_node_get_array (records);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *rn = json_array_get_element (a, i);
      JsonObject *record;
      JsonNode *ignored;
      const char *iteration, *device;
      guint64 timestamp, number;
      OviRank *rank;

      if (!JSON_NODE_HOLDS_OBJECT (rn))
        {
          bad_report (error, source_name, where, _ ("record %u is not a JSON object"), i + 1);
          return NULL;
        }
      record = json_node_get_object (rn);
      if (!(iteration = get_string (record, "iteration")))
        {
          bad_report (error, source_name, where, _ ("record %u has no \"iteration\""), i + 1);
          return NULL;
        }
      if (!get_uint (record, "timestamp", &timestamp))
        {
          bad_report (error, source_name, where, _ ("record %u has no \"timestamp\""), i + 1);
          return NULL;
        }
      device = get_string (record, "device");
      rank = rank_for (by_device, r, device);
      rank->n_records++;
      if (parse_iteration (iteration, &number))
        rank_count_iteration (rank, number);
      ignored = json_object_get_member (record, "ignored");
      if (!rank->has_first &&
          !(ignored && JSON_NODE_HOLDS_VALUE (ignored) && json_node_get_boolean (ignored)))
        rank_take_first (rank, record, iteration, timestamp);
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
            rank_for (by_device, r, NULL);
          else if (JSON_NODE_HOLDS_VALUE (dn) && json_node_get_value_type (dn) == G_TYPE_STRING)
            rank_for (by_device, r, json_node_get_string (dn));
        }
    }
  return g_steal_pointer (&r);
}

/* A single-root or a cluster report: its roots, appended to @roots, or
 * nothing at all on error. */
static gboolean
read_report (JsonNode *node, const char *source_name, GPtrArray *roots, GError **error)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) root_free);
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
          Root *r = read_root (copy, source_name, where, error);
          if (!r)
            return FALSE;
          g_ptr_array_add (found, r);
        }
    }
  else
    {
      Root *r = read_root (node, source_name, "", error);
      if (!r)
        return FALSE;
      g_ptr_array_add (found, r);
    }
  g_ptr_array_extend_and_steal (roots, g_steal_pointer (&found));
  return TRUE;
}

/* ------------------------------------------------------------- OviCluster */

struct _OviCluster
{
  GObject parent_instance;

  GPtrArray *roots;  /* Root */
  GListStore *ranks; /* OviRank, in cluster order */
  OviRank *earliest;
};

G_DEFINE_FINAL_TYPE (OviCluster, ovi_cluster, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_RANKS,
  PROP_EARLIEST,
  PROP_N_ROOTS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
ovi_cluster_finalize (GObject *object)
{
  OviCluster *self = OVI_CLUSTER (object);

  g_ptr_array_unref (self->roots);
  g_object_unref (self->ranks);
  G_OBJECT_CLASS (ovi_cluster_parent_class)->finalize (object);
}

static void
ovi_cluster_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviCluster *self = OVI_CLUSTER (object);

  switch (prop_id)
    {
    case PROP_RANKS:
      g_value_set_object (value, self->ranks);
      break;
    case PROP_EARLIEST:
      g_value_set_object (value, self->earliest);
      break;
    case PROP_N_ROOTS:
      g_value_set_uint (value, self->roots->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_cluster_class_init (OviClusterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ovi_cluster_finalize;
  object_class->get_property = ovi_cluster_get_property;

  props[PROP_RANKS] = g_param_spec_object ("ranks", NULL, NULL, G_TYPE_LIST_MODEL,
                                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_EARLIEST] =
      g_param_spec_object ("earliest", NULL, NULL, OVI_TYPE_RANK,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  props[PROP_N_ROOTS] =
      g_param_spec_uint ("n-roots", NULL, NULL, 0, G_MAXUINT, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
ovi_cluster_init (OviCluster *self)
{
  self->roots = g_ptr_array_new_with_free_func ((GDestroyNotify) root_free);
  self->ranks = g_list_store_new (OVI_TYPE_RANK);
}

OviCluster *
ovi_cluster_new (void)
{
  return g_object_new (OVI_TYPE_CLUSTER, NULL);
}

/* Where a first overflow falls: iteration number (numbered folders before
 * others), then timestamp. */
static int
compare_position (OviRank *a, OviRank *b)
{
  if (a->has_iteration != b->has_iteration)
    return a->has_iteration ? -1 : 1;
  if (a->iteration != b->iteration)
    return a->iteration < b->iteration ? -1 : 1;
  if (a->timestamp != b->timestamp)
    return a->timestamp < b->timestamp ? -1 : 1;
  return 0;
}

/* Device ids are numbers mostly: "10" after "9". */
static int
compare_device (const char *a, const char *b)
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

static int
compare_ranks (gconstpointer pa, gconstpointer pb)
{
  OviRank *a = *(OviRank **) pa, *b = *(OviRank **) pb;
  int c;

  if (a->has_first != b->has_first)
    return a->has_first ? -1 : 1;
  if (a->has_first && (c = compare_position (a, b)))
    return c;
  if ((c = strcmp (a->host, b->host)))
    return c;
  if ((c = strcmp (a->root, b->root)))
    return c;
  return compare_device (a->device, b->device);
}

/* Orders every rank and gives each its role. */
static void
update_ranks (OviCluster *self)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);
  OviRank *origin = NULL, *earliest = NULL;
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->ranks));

  for (guint i = 0; i < self->roots->len; i++)
    {
      Root *r = g_ptr_array_index (self->roots, i);
      for (guint j = 0; j < r->ranks->len; j++)
        g_ptr_array_add (all, g_object_ref (g_ptr_array_index (r->ranks, j)));
    }
  g_ptr_array_sort (all, compare_ranks);

  for (guint i = 0; i < all->len; i++)
    {
      OviRank *rank = g_ptr_array_index (all, i);
      if (rank->has_first && !earliest)
        earliest = rank;
      if (rank->has_first && !rank->collective && !origin)
        origin = rank;
    }
  for (guint i = 0; i < all->len; i++)
    {
      OviRank *rank = g_ptr_array_index (all, i);
      OviRankRole role = OVI_RANK_ROLE_NONE;

      if (rank->has_first)
        role = rank->collective && origin && compare_position (origin, rank) <= 0
                   ? OVI_RANK_ROLE_RECEIVED
                   : OVI_RANK_ROLE_ORIGIN;
      rank_set_role (rank, role, rank == earliest);
    }

  g_list_store_splice (self->ranks, 0, n_old, all->pdata, all->len);
  if (self->earliest != earliest)
    {
      self->earliest = earliest;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EARLIEST]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ROOTS]);
}

/* Adds @found (taking its roots) unless one of them is there already. */
static gboolean
add_roots (OviCluster *self, GPtrArray *found, const char *source_name, GError **error)
{
  for (guint i = 0; i < found->len; i++)
    {
      Root *r = g_ptr_array_index (found, i);
      for (guint j = 0; j < self->roots->len + i; j++)
        {
          Root *o = j < self->roots->len ? g_ptr_array_index (self->roots, j)
                                         : g_ptr_array_index (found, j - self->roots->len);
          if (g_str_equal (r->host, o->host) && g_str_equal (r->root, o->root))
            {
              g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_DUPLICATE_ROOT,
                           /* Translators: a file name, then a machine and a folder */
                           _ ("%s: %s%s%s is already in the cluster"), source_name, r->host,
                           *r->host ? ":" : "", r->root);
              return FALSE;
            }
        }
    }
  g_ptr_array_extend_and_steal (self->roots, g_ptr_array_ref (found));
  g_ptr_array_set_size (found, 0);
  return TRUE;
}

/**
 * ovi_cluster_add_report:
 * @report: a report as `overflow-inspector-cli report --json` writes it,
 *   or a cluster report (`merge`, or `report --json` of several roots)
 * @source_name: the report's file name, for messages
 *
 * Adds the roots of @report. A report that is not one, or one whose roots
 * are in the cluster already, adds nothing: the roots added before stay.
 *
 * Returns: %TRUE when added
 */
gboolean
ovi_cluster_add_report (OviCluster *self, JsonNode *report, const char *source_name, GError **error)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) root_free);

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (source_name != NULL, FALSE);

  if (!read_report (report, source_name, found, error) ||
      !add_roots (self, found, source_name, error))
    return FALSE;
  update_ranks (self);
  return TRUE;
}

/**
 * ovi_cluster_remove_root:
 * @host: the machine, as its report names it ("" for none)
 * @root: the root path, as its report names it
 *
 * Takes a root out, to add it again as it is now (a folder followed while a
 * run writes into it).
 *
 * Returns: %TRUE when the cluster had it
 */
gboolean
ovi_cluster_remove_root (OviCluster *self, const char *host, const char *root)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);

  for (guint i = 0; i < self->roots->len; i++)
    {
      Root *r = g_ptr_array_index (self->roots, i);

      if (g_str_equal (r->host, host) && g_str_equal (r->root, root))
        {
          g_ptr_array_remove_index (self->roots, i);
          update_ranks (self);
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * ovi_cluster_clear:
 *
 * Takes every root out.
 */
void
ovi_cluster_clear (OviCluster *self)
{
  g_return_if_fail (OVI_IS_CLUSTER (self));

  if (self->roots->len == 0)
    return;
  g_ptr_array_set_size (self->roots, 0);
  update_ranks (self);
}

guint
ovi_cluster_get_n_roots (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), 0);
  return self->roots->len;
}

/**
 * ovi_cluster_get_ranks:
 *
 * Returns: (transfer none): the #OviRank of every (host, root, device), in
 *   cluster order (see the top of ovi-cluster.c): first overflow first,
 *   ranks without overflow last
 */
GListModel *
ovi_cluster_get_ranks (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);
  return G_LIST_MODEL (self->ranks);
}

/**
 * ovi_cluster_get_earliest:
 *
 * Returns: (transfer none) (nullable): the rank whose first overflow comes
 *   first, %NULL when no rank has one
 */
OviRank *
ovi_cluster_get_earliest (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);
  return self->earliest;
}

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
 * Returns: (transfer full): one element of "ranks" (schema in README.md),
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
  add_string_or_null (b, "status_summary", rank->from_data ? FOUND_IN_DATA : rank->status_summary);
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
      g_autoptr (OviRank) rank = g_list_model_get_item (G_LIST_MODEL (self->ranks), i);
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
 *   "ranks": [...], "first_rank": {...} | null}`
 */
JsonNode *
ovi_cluster_build_json (OviCluster *self)
{
  JsonObject *o = json_object_new ();
  JsonArray *roots = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  json_object_set_string_member (o, "format", OVI_CLUSTER_FORMAT);
  for (guint i = 0; i < self->roots->len; i++)
    {
      Root *r = g_ptr_array_index (self->roots, i);
      /* A copy of the node shares the report's object: nothing is copied. */
      json_array_add_element (roots, json_node_copy (r->report));
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

static const char *
role_label (OviRankRole role)
{
  switch (role)
    {
    case OVI_RANK_ROLE_ORIGIN:
      /* Translators: a device whose first overflow is its own */
      return _ ("origin");
    case OVI_RANK_ROLE_RECEIVED:
      /* Translators: a device that received bad values through a collective */
      return _ ("received");
    case OVI_RANK_ROLE_NONE:
    default:
      return _ ("no overflow");
    }
}

/**
 * ovi_cluster_to_text:
 *
 * Returns: (transfer full): the ranks for a person, one line each in
 *   cluster order, the earliest marked
 */
char *
ovi_cluster_to_text (OviCluster *self)
{
  GString *s = g_string_new (NULL);
  g_autoptr (GHashTable) hosts = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks)), n_overflow = 0;

  for (guint i = 0; i < self->roots->len; i++)
    g_hash_table_add (hosts, ((Root *) g_ptr_array_index (self->roots, i))->host);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (G_LIST_MODEL (self->ranks), i);
      n_overflow += rank->has_first;
    }
  g_string_append_printf (s, "%s\n", _ ("Cluster overflow report"));
  /* Translators: counts of machines, opened folders or reports, devices */
  g_string_append_printf (s, _ ("machines: %u, roots: %u, ranks: %u, with overflow: %u"),
                          g_hash_table_size (hosts), self->roots->len, n, n_overflow);
  g_string_append_printf (
      s, "\n%s\n\n",
      _ ("Ranks in order of their first overflow: iteration, then the timestamp of the file. "
         "Timestamps are the times the files were written, which can lag the overflow itself."));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (G_LIST_MODEL (self->ranks), i);
      g_autofree char *label = ovi_rank_dup_label (rank);

      g_string_append_printf (s, "%c %4u  %s", rank->earliest ? '*' : ' ', i + 1, label);
      if (!rank->has_first)
        {
          g_string_append_printf (s, "  %s\n", role_label (rank->role));
          continue;
        }
      g_string_append_printf (s, "  %s %s", _ ("in"), rank->first_iteration);
      g_string_append_printf (s, "  %s %s",
                              rank->op_type ? rank->op_type : _ ("operator not found"),
                              rank->op_name ? rank->op_name : "");
      if (rank->collective)
        /* Translators: shown after an operator that moves data between devices */
        g_string_append_printf (s, " [%s]", _ ("collective"));
      g_string_append_printf (s, "  %s %s  %s", or_empty (rank->unit),
                              or_empty (rank->status_summary), role_label (rank->role));
      if (rank->earliest)
        g_string_append_printf (s, "  (%s)", _ ("earliest"));
      g_string_append_c (s, '\n');
    }
  {
    g_autofree char *text = g_string_free (s, FALSE);
    return g_utf8_make_valid (text, -1);
  }
}

/* ------------------------------------------------------- report files */

/* Report files read in parallel: per file, its roots or its problem. */
typedef struct
{
  GPtrArray *files; /* GFile */
  GPtrArray *found; /* per file: GPtrArray of Root (empty on error) */
  char **errors;    /* per file: message or NULL */
  GCancellable *cancellable;
} Load;

static void
load_free (Load *load)
{
  for (guint i = 0; i < load->files->len; i++)
    g_free (load->errors[i]);
  g_free (load->errors);
  g_ptr_array_unref (load->files);
  g_ptr_array_unref (load->found);
  g_clear_object (&load->cancellable);
  g_free (load);
}

static Load *
load_new (GFile *const *files, guint n_files, GCancellable *cancellable)
{
  Load *load = g_new0 (Load, 1);

  load->files = g_ptr_array_new_with_free_func (g_object_unref);
  load->found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < n_files; i++)
    {
      g_ptr_array_add (load->files, g_object_ref (files[i]));
      g_ptr_array_add (load->found, g_ptr_array_new_with_free_func ((GDestroyNotify) root_free));
    }
  load->errors = g_new0 (char *, n_files + 1);
  load->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  return load;
}

/* json-glib's messages start with the file's name, which ours give
 * first already. */
static const char *
strip_name (const char *message, const char *path)
{
  if (g_str_has_prefix (message, path) && message[strlen (path)] == ':')
    {
      message += strlen (path) + 1;
      while (*message == ' ')
        message++;
    }
  return message;
}

/* Parses one report file into its roots (on any thread). */
static gboolean
read_report_file (GFile *file, GPtrArray *roots, GCancellable *cancellable, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local_error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (path == NULL)
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, _ ("%s: not a local file"),
                   name);
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ,
                   _ ("%s: a folder, not a report file (“report” reads folders)"), name);
      return FALSE;
    }
  /* Mapped, not copied: reports of many machines add up. */
  if (!json_parser_load_from_mapped_file (parser, path, &local_error))
    {
      if (local_error->domain == JSON_PARSER_ERROR)
        g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_NOT_JSON, _ ("%s: not JSON: %s"),
                     name, strip_name (local_error->message, path));
      else
        g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, "%s: %s", name,
                     strip_name (local_error->message, path));
      return FALSE;
    }
  return read_report (json_parser_get_root (parser), name, roots, error);
}

static void
load_one (guint index, gpointer user_data)
{
  Load *load = user_data;
  g_autoptr (GError) error = NULL;

  if (!read_report_file (g_ptr_array_index (load->files, index),
                         g_ptr_array_index (load->found, index), load->cancellable, &error))
    load->errors[index] = g_strdup (error->message);
}

/* Adds what @load read, in the order of its files; FALSE with every
 * problem, one line each, when a file added nothing. */
static gboolean
load_apply (OviCluster *self, Load *load, GError **error)
{
  g_autoptr (GPtrArray) problems = g_ptr_array_new ();
  gboolean added = FALSE;

  for (guint i = 0; i < load->files->len; i++)
    {
      GPtrArray *roots = g_ptr_array_index (load->found, i);
      g_autofree char *name = g_file_get_parse_name (g_ptr_array_index (load->files, i));
      g_autoptr (GError) local_error = NULL;

      if (load->errors[i] == NULL && roots->len == 0)
        continue;
      if (load->errors[i] == NULL && !add_roots (self, roots, name, &local_error))
        load->errors[i] = g_strdup (local_error->message);
      else if (load->errors[i] == NULL)
        added = TRUE;
      if (load->errors[i])
        g_ptr_array_add (problems, load->errors[i]);
    }
  if (added)
    update_ranks (self);
  if (problems->len == 0)
    return TRUE;
  g_ptr_array_add (problems, NULL);
  {
    g_autofree char *message = g_strjoinv ("\n", (char **) problems->pdata);
    g_set_error_literal (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT, message);
  }
  return FALSE;
}

/**
 * ovi_cluster_add_report_files:
 * @files: (array length=n_files): report files (single-root or cluster)
 *
 * Reads and parses @files on core's worker pool (and the calling thread),
 * then adds their roots in the order of @files. A file that cannot be
 * read, is not JSON or not a report adds nothing; the others are added
 * all the same.
 *
 * Returns: %TRUE when every file was added; %FALSE with @error listing
 *   each file that was not, one line each naming it and the problem
 */
gboolean
ovi_cluster_add_report_files (
    OviCluster *self, GFile *const *files, guint n_files, GCancellable *cancellable, GError **error)
{
  Load *load;
  gboolean ok;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (files != NULL || n_files == 0, FALSE);

  load = load_new (files, n_files, cancellable);
  ovi_parallel_for (n_files, load_one, load, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  else
    ok = load_apply (self, load, error);
  load_free (load);
  return ok;
}

static void
load_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Load *load = task_data;

  ovi_parallel_for (load->files->len, load_one, load, cancellable);
  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

/* Back on the caller's context: the reports read go into the cluster,
 * then the caller hears of it. */
static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OviCluster *self = OVI_CLUSTER (source);
  g_autoptr (GTask) outer = user_data;
  g_autoptr (GError) error = NULL;
  Load *load = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), &error) || !load_apply (self, load, &error))
    g_task_return_error (outer, g_steal_pointer (&error));
  else
    g_task_return_boolean (outer, TRUE);
}

/**
 * ovi_cluster_load_reports_async:
 * @files: (array length=n_files): report files (single-root or cluster)
 *
 * ovi_cluster_add_report_files() with the reading and parsing on core's
 * worker pool: the roots are added on the calling thread's main context
 * just before @callback runs, so that the main loop never parses.
 */
void
ovi_cluster_load_reports_async (OviCluster *self,
                                GFile *const *files,
                                guint n_files,
                                GCancellable *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer user_data)
{
  GTask *outer;
  g_autoptr (GTask) inner = NULL;

  g_return_if_fail (OVI_IS_CLUSTER (self));
  g_return_if_fail (files != NULL || n_files == 0);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, ovi_cluster_load_reports_async);
  inner = g_task_new (self, cancellable, load_done, outer);
  g_task_set_source_tag (inner, ovi_cluster_load_reports_async);
  g_task_set_task_data (inner, load_new (files, n_files, cancellable), (GDestroyNotify) load_free);
  ovi_worker_run_in_thread (inner, load_in_thread);
}

/**
 * ovi_cluster_load_reports_finish:
 *
 * Returns: %TRUE when every file was added; %FALSE with @error listing
 *   each file that was not (one line each, naming it and the problem)
 */
gboolean
ovi_cluster_load_reports_finish (OviCluster *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
