#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-cluster.h"
#include "ovi-overflow-record.h"
#include "ovi-report.h"
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

/* One single-root report, unchanged (its tree, or its exact text when read
 * from a file), and its ranks. */
typedef struct
{
  char *host;
  char *root;
  JsonNode *report; /* or NULL, and then: */
  GBytes *text;     /* the report object's text, as in its file */
  GPtrArray *ranks; /* OviRank */
} Root;

static void
root_free (Root *r)
{
  g_free (r->host);
  g_free (r->root);
  g_clear_pointer (&r->report, json_node_unref);
  g_clear_pointer (&r->text, g_bytes_unref);
  g_ptr_array_unref (r->ranks);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Root, root_free)

/* What the ranks need of one record, however it was read. */
typedef struct
{
  char *iteration;
  gboolean has_timestamp;
  guint64 timestamp;
  char *device; /* NULL: none, or null */
  gboolean ignored;
  char *file;
  char *unit;
  char *status_hex;
  char *source;
  char *op_file;
  char *op_type;
  char *op_name;
  guint64 flags_mask;
} Record;

static void
record_clear (Record *rec)
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
record_add_flag (Record *rec, const char *hex)
{
  guint64 v;

  if (g_str_has_prefix (hex, "0x") &&
      g_ascii_string_to_unsigned (hex + 2, 16, 0, G_MAXUINT64, &v, NULL))
    rec->flags_mask |= v;
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

#define U64_MARK "\001u64:" /* as in ovi-report.c */

#define FOUND_IN_DATA                                                                              \
  N_ ("Found in the data: finite inputs, outputs with NaN, Inf or saturated values")

/* The status as the report text shows it (ovi_overflow_record_dup_status_summary()). */
static char *
status_summary (const Record *rec)
{
  g_autofree char *words = NULL;

  if (g_strcmp0 (rec->source, "data") == 0)
    return g_strdup (_ (FOUND_IN_DATA));
  if (!rec->status_hex)
    return NULL;
  if (!rec->unit || !(g_str_equal (rec->unit, "AI Core") || g_str_equal (rec->unit, "AIC") ||
                      g_str_equal (rec->unit, "AIV")))
    return g_strdup (rec->status_hex);
  words = ovi_status_dup_summary (rec->flags_mask);
  return *words ? g_strdup_printf ("%s %s", rec->status_hex, words) : g_strdup (rec->status_hex);
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
      /* The rank holds the key. */
      g_hash_table_insert (by_device, rank->device ? rank->device : NO_DEVICE, rank);
      g_ptr_array_add (r->ranks, rank);
    }
  return rank;
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

/* One record into its rank; the record's strings may be taken. */
static void
root_add_record (Root *r, GHashTable *by_device, Record *rec)
{
  OviRank *rank = rank_for (by_device, r, rec->device);
  guint64 number;

  rank->n_records++;
  if (parse_iteration (rec->iteration, &number))
    rank_count_iteration (rank, number);
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

static Root *
root_new (const char *host, const char *root)
{
  Root *r = g_new0 (Root, 1);

  /* Reports written before there was a "host" have an empty one. */
  r->host = g_strdup (host ? host : "");
  r->root = g_strdup (root);
  r->ranks = g_ptr_array_new_with_free_func (g_object_unref);
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
                const Record *rec,
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
record_from_object (Record *rec, JsonObject *o)
{
  JsonNode *n;

  rec->iteration = g_strdup (get_string (o, "iteration"));
  n = json_object_get_member (o, "timestamp");
  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64 &&
      json_node_get_int (n) >= 0)
    {
      rec->has_timestamp = TRUE;
      rec->timestamp = (guint64) json_node_get_int (n);
    }
  /* A report being built holds values above 2^63 - 1 as marked strings
   * (see ovi-report.c), which it writes as plain numbers. */
  else if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING &&
           g_str_has_prefix (json_node_get_string (n), U64_MARK))
    rec->has_timestamp = g_ascii_string_to_unsigned (json_node_get_string (n) + strlen (U64_MARK),
                                                     10, 0, G_MAXUINT64, &rec->timestamp, NULL);
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
      Record rec = { 0 };

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

/* ---- from a file's text
 *
 * Reports of a thousand devices run to hundreds of megabytes, which
 * json-glib parses at some 15 MB/s into a tree many times their size.
 * Ranks need a few members of each record, and a merged report needs each
 * root's text unchanged: this reader checks the whole text is JSON (RFC
 * 8259, UTF-8) and keeps only that. */

#define MAX_DEPTH 512

typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  const char *error_at; /* where the text stops being JSON */
  const char *problem;  /* what is wrong there, N_() */
} Scan;

static gboolean
fail (Scan *s, const char *problem)
{
  if (!s->problem)
    {
      s->error_at = s->p;
      s->problem = problem;
    }
  return FALSE;
}

static inline void
skip_ws (Scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

static inline gboolean
expect (Scan *s, char c)
{
  skip_ws (s);
  if (s->p < s->end && *s->p == c)
    {
      s->p++;
      return TRUE;
    }
  return FALSE;
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (const char *p, const char *end, gunichar *value)
{
  *value = 0;
  if (end - p < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int h = hex_value (p[i]);
      if (h < 0)
        return FALSE;
      *value = *value * 16 + h;
    }
  return TRUE;
}

/* A string at s->p ('"'): checked, and when @value is given, decoded. */
static gboolean
scan_string (Scan *s, char **value)
{
  const char *begin;
  gboolean high = FALSE, escapes = FALSE;
  GString *decoded = NULL;

  s->p++; /* '"' */
  begin = s->p;
  for (;;)
    {
      const char *p = s->p;
      /* The bulk of the text: plain ASCII characters. */
      while (p < s->end && (guchar) *p >= 0x20 && *p != '"' && *p != '\\' && (guchar) *p < 0x80)
        p++;
      s->p = p;
      if (p >= s->end)
        return fail (s, N_ ("unterminated string"));
      if (*p == '"')
        break;
      if ((guchar) *p < 0x20)
        return fail (s, N_ ("control character in a string"));
      if ((guchar) *p >= 0x80)
        {
          high = TRUE;
          s->p++;
          continue;
        }
      /* '\\' */
      escapes = TRUE;
      if (p + 1 >= s->end)
        return fail (s, N_ ("unterminated string"));
      switch (p[1])
        {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
          s->p = p + 2;
          break;
        case 'u':
          {
            gunichar u;
            if (!read_hex4 (p + 2, s->end, &u))
              return fail (s, N_ ("bad \\u escape"));
            s->p = p + 6;
            break;
          }
        default:
          return fail (s, N_ ("bad escape"));
        }
    }
  if (high && !g_utf8_validate (begin, s->p - begin, NULL))
    return fail (s, N_ ("JSON data must be UTF-8 encoded"));
  if (value)
    {
      if (!escapes)
        *value = g_strndup (begin, s->p - begin);
      else
        {
          decoded = g_string_sized_new (s->p - begin);
          for (const char *q = begin; q < s->p;)
            {
              gunichar u, lo;
              if (*q != '\\')
                {
                  g_string_append_c (decoded, *q++);
                  continue;
                }
              switch (q[1])
                {
                case 'b':
                  g_string_append_c (decoded, '\b');
                  break;
                case 'f':
                  g_string_append_c (decoded, '\f');
                  break;
                case 'n':
                  g_string_append_c (decoded, '\n');
                  break;
                case 'r':
                  g_string_append_c (decoded, '\r');
                  break;
                case 't':
                  g_string_append_c (decoded, '\t');
                  break;
                case 'u':
                  read_hex4 (q + 2, s->p, &u);
                  q += 6;
                  /* A surrogate pair is one character. */
                  if (u >= 0xd800 && u < 0xdc00 && q + 6 <= s->p && q[0] == '\\' && q[1] == 'u' &&
                      read_hex4 (q + 2, s->p, &lo) && lo >= 0xdc00 && lo < 0xe000)
                    {
                      u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                      q += 6;
                    }
                  else if (u >= 0xd800 && u < 0xe000)
                    u = 0xfffd;
                  g_string_append_unichar (decoded, u);
                  continue;
                default:
                  g_string_append_c (decoded, q[1]);
                }
              q += 2;
            }
          *value = g_string_free (decoded, FALSE);
        }
    }
  s->p++; /* '"' */
  return TRUE;
}

/* A number: checked; @value set when it is a plain non-negative integer. */
static gboolean
scan_number (Scan *s, guint64 *value, gboolean *is_uint)
{
  const char *p = s->p;
  gboolean plain = TRUE;
  guint64 v = 0;

  if (p < s->end && *p == '-')
    {
      plain = FALSE;
      p++;
    }
  if (p >= s->end || !g_ascii_isdigit (*p))
    return fail (s, N_ ("bad number"));
  if (*p == '0')
    p++;
  else
    while (p < s->end && g_ascii_isdigit (*p))
      {
        guint d = *p++ - '0';
        if (v > (G_MAXUINT64 - d) / 10)
          plain = FALSE;
        v = v * 10 + d;
      }
  if (p < s->end && *p == '.')
    {
      plain = FALSE;
      p++;
      if (p >= s->end || !g_ascii_isdigit (*p))
        return fail (s, N_ ("bad number"));
      while (p < s->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < s->end && (*p == 'e' || *p == 'E'))
    {
      plain = FALSE;
      p++;
      if (p < s->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= s->end || !g_ascii_isdigit (*p))
        return fail (s, N_ ("bad number"));
      while (p < s->end && g_ascii_isdigit (*p))
        p++;
    }
  s->p = p;
  if (value)
    *value = v;
  if (is_uint)
    *is_uint = plain;
  return TRUE;
}

static gboolean
scan_literal (Scan *s, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (s->end - s->p) < n || memcmp (s->p, word, n) != 0)
    return fail (s, N_ ("unexpected character"));
  s->p += n;
  return TRUE;
}

static gboolean skip_value (Scan *s, int depth);

/* Members of an object (s->p just after '{'), each key to @member, which
 * reads or skips its value. */
typedef gboolean (*MemberFunc) (Scan *s, const char *key, gsize key_len, gpointer data, int depth);

static gboolean
scan_object (Scan *s, MemberFunc member, gpointer data, int depth)
{
  if (depth > MAX_DEPTH)
    return fail (s, N_ ("nested too deeply"));
  if (expect (s, '}'))
    return TRUE;
  for (;;)
    {
      const char *key;
      gsize key_len;
      gboolean plain;

      skip_ws (s);
      if (s->p >= s->end || *s->p != '"')
        return fail (s, N_ ("expected a member name"));
      key = s->p + 1;
      if (!scan_string (s, NULL))
        return FALSE;
      key_len = s->p - 1 - key;
      /* The names compared are plain ASCII: one with escapes matches none. */
      plain = memchr (key, '\\', key_len) == NULL;
      if (!expect (s, ':'))
        return fail (s, N_ ("expected ':'"));
      skip_ws (s);
      if (!(plain ? member (s, key, key_len, data, depth + 1) : skip_value (s, depth + 1)))
        return FALSE;
      if (expect (s, ','))
        continue;
      if (expect (s, '}'))
        return TRUE;
      return fail (s, N_ ("expected ',' or '}'"));
    }
}

static gboolean
skip_member (Scan *s, const char *key, gsize key_len, gpointer data, int depth)
{
  return skip_value (s, depth);
}

static gboolean
skip_value (Scan *s, int depth)
{
  skip_ws (s);
  if (s->p >= s->end)
    return fail (s, N_ ("unexpected end of data"));
  switch (*s->p)
    {
    case '{':
      s->p++;
      return scan_object (s, skip_member, NULL, depth);
    case '[':
      s->p++;
      if (depth > MAX_DEPTH)
        return fail (s, N_ ("nested too deeply"));
      if (expect (s, ']'))
        return TRUE;
      for (;;)
        {
          if (!skip_value (s, depth + 1))
            return FALSE;
          if (expect (s, ','))
            continue;
          if (expect (s, ']'))
            return TRUE;
          return fail (s, N_ ("expected ',' or ']'"));
        }
    case '"':
      return scan_string (s, NULL);
    case 't':
      return scan_literal (s, "true");
    case 'f':
      return scan_literal (s, "false");
    case 'n':
      return scan_literal (s, "null");
    default:
      if (*s->p != '-' && !g_ascii_isdigit (*s->p))
        return fail (s, N_ ("unexpected character"));
      return scan_number (s, NULL, NULL);
    }
}

#define KEY_IS(k) (key_len == sizeof (k) - 1 && memcmp (key, k, sizeof (k) - 1) == 0)

/* A string value into *@value (replacing it), anything else skipped. */
static gboolean
take_string (Scan *s, char **value, int depth)
{
  if (s->p < s->end && *s->p == '"')
    {
      g_free (*value);
      *value = NULL;
      return scan_string (s, value);
    }
  return skip_value (s, depth);
}

static gboolean
op_member (Scan *s, const char *key, gsize key_len, gpointer data, int depth)
{
  Record *rec = data;

  if (KEY_IS ("file"))
    return take_string (s, &rec->op_file, depth);
  if (KEY_IS ("op_type"))
    return take_string (s, &rec->op_type, depth);
  if (KEY_IS ("op_name"))
    return take_string (s, &rec->op_name, depth);
  return skip_value (s, depth);
}

static gboolean
record_member (Scan *s, const char *key, gsize key_len, gpointer data, int depth)
{
  Record *rec = data;

  if (KEY_IS ("iteration"))
    return take_string (s, &rec->iteration, depth);
  if (KEY_IS ("device"))
    return take_string (s, &rec->device, depth);
  if (KEY_IS ("file"))
    return take_string (s, &rec->file, depth);
  if (KEY_IS ("unit"))
    return take_string (s, &rec->unit, depth);
  if (KEY_IS ("status_hex"))
    return take_string (s, &rec->status_hex, depth);
  if (KEY_IS ("source"))
    return take_string (s, &rec->source, depth);
  if (KEY_IS ("timestamp"))
    {
      if (s->p < s->end && (*s->p == '-' || g_ascii_isdigit (*s->p)))
        {
          gboolean plain;
          if (!scan_number (s, &rec->timestamp, &plain))
            return FALSE;
          /* Timestamps are u64: the report writes them exactly. */
          rec->has_timestamp = plain;
          return TRUE;
        }
      rec->has_timestamp = FALSE;
      return skip_value (s, depth);
    }
  if (KEY_IS ("ignored"))
    {
      rec->ignored = s->p < s->end && *s->p == 't';
      return skip_value (s, depth);
    }
  if (KEY_IS ("flags") && s->p < s->end && *s->p == '[')
    {
      rec->flags_mask = 0;
      s->p++;
      if (expect (s, ']'))
        return TRUE;
      for (;;)
        {
          skip_ws (s);
          if (s->p < s->end && *s->p == '"')
            {
              g_autofree char *hex = NULL;
              if (!scan_string (s, &hex))
                return FALSE;
              record_add_flag (rec, hex);
            }
          else if (!skip_value (s, depth + 1))
            return FALSE;
          if (expect (s, ','))
            continue;
          if (expect (s, ']'))
            return TRUE;
          return fail (s, N_ ("expected ',' or ']'"));
        }
    }
  if (KEY_IS ("op"))
    {
      g_clear_pointer (&rec->op_type, g_free);
      g_clear_pointer (&rec->op_name, g_free);
      if (s->p < s->end && *s->p == '{')
        {
          s->p++;
          return scan_object (s, op_member, rec, depth);
        }
    }
  return skip_value (s, depth);
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
  GArray *records;  /* Record */
  guint bad_record; /* 1 + the index of the first record that lacks something */
  Record bad;       /* what that record had */
  gboolean bad_is_object;
  gboolean has_devices;
  GPtrArray *devices; /* char*, NULL for null */
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
        record_clear (&g_array_index (sr->records, Record, i));
      g_array_unref (sr->records);
    }
  record_clear (&sr->bad);
  g_clear_pointer (&sr->devices, g_ptr_array_unref);
  g_clear_pointer (&sr->roots, g_ptr_array_unref);
  g_free (sr);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ScannedRoot, scanned_root_free)

static gboolean scan_root (Scan *s, ScannedRoot *sr, gboolean top, int depth);

static gboolean
scan_records (Scan *s, ScannedRoot *sr, int depth)
{
  guint index = 0;

  sr->has_records = TRUE;
  if (!sr->records)
    sr->records = g_array_new (FALSE, TRUE, sizeof (Record));
  s->p++; /* '[' */
  if (expect (s, ']'))
    return TRUE;
  for (;;)
    {
      Record rec = { 0 };
      gboolean is_object;

      skip_ws (s);
      is_object = s->p < s->end && *s->p == '{';
      if (is_object)
        {
          s->p++;
          if (!scan_object (s, record_member, &rec, depth + 1))
            {
              record_clear (&rec);
              return FALSE;
            }
        }
      else if (!skip_value (s, depth + 1))
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
      if (expect (s, ','))
        continue;
      if (expect (s, ']'))
        return TRUE;
      return fail (s, N_ ("expected ',' or ']'"));
    }
}

static gboolean
root_member (Scan *s, const char *key, gsize key_len, gpointer data, int depth)
{
  ScannedRoot *sr = data;

  if (KEY_IS ("root"))
    return take_string (s, &sr->root, depth);
  if (KEY_IS ("host"))
    return take_string (s, &sr->host, depth);
  if (KEY_IS ("records") && s->p < s->end && *s->p == '[')
    return scan_records (s, sr, depth);
  if (KEY_IS ("records"))
    sr->has_records = FALSE;
  if (KEY_IS ("devices") && s->p < s->end && *s->p == '[')
    {
      g_clear_pointer (&sr->devices, g_ptr_array_unref);
      sr->devices = g_ptr_array_new_with_free_func (g_free);
      sr->has_devices = TRUE;
      s->p++;
      if (expect (s, ']'))
        return TRUE;
      for (;;)
        {
          skip_ws (s);
          if (s->p < s->end && *s->p == '"')
            {
              char *id = NULL;
              if (!scan_string (s, &id))
                return FALSE;
              g_ptr_array_add (sr->devices, id);
            }
          else if (s->p < s->end && *s->p == 'n')
            {
              if (!scan_literal (s, "null"))
                return FALSE;
              g_ptr_array_add (sr->devices, NULL);
            }
          else if (!skip_value (s, depth + 1))
            return FALSE;
          if (expect (s, ','))
            continue;
          if (expect (s, ']'))
            return TRUE;
          return fail (s, N_ ("expected ',' or ']'"));
        }
    }
  return skip_value (s, depth);
}

static gboolean
top_member (Scan *s, const char *key, gsize key_len, gpointer data, int depth)
{
  ScannedRoot *sr = data;

  if (KEY_IS ("format"))
    return take_string (s, &sr->format, depth);
  if (KEY_IS ("roots") && s->p < s->end && *s->p == '[')
    {
      g_clear_pointer (&sr->roots, g_ptr_array_unref);
      sr->roots = g_ptr_array_new_with_free_func ((GDestroyNotify) scanned_root_free);
      sr->has_roots = TRUE;
      s->p++;
      if (expect (s, ']'))
        return TRUE;
      for (;;)
        {
          ScannedRoot *child = g_new0 (ScannedRoot, 1);
          g_ptr_array_add (sr->roots, child);
          if (!scan_root (s, child, FALSE, depth + 1))
            return FALSE;
          if (expect (s, ','))
            continue;
          if (expect (s, ']'))
            return TRUE;
          return fail (s, N_ ("expected ',' or ']'"));
        }
    }
  if (KEY_IS ("roots"))
    sr->has_roots = FALSE;
  return root_member (s, key, key_len, data, depth);
}

/* A value that should be a report: its extent, and what the ranks need. */
static gboolean
scan_root (Scan *s, ScannedRoot *sr, gboolean top, int depth)
{
  skip_ws (s);
  sr->begin = s->p;
  sr->is_object = s->p < s->end && *s->p == '{';
  if (!sr->is_object)
    {
      if (!skip_value (s, depth))
        return FALSE;
    }
  else
    {
      s->p++;
      if (!scan_object (s, top ? top_member : root_member, sr, depth))
        return FALSE;
    }
  sr->end = s->p;
  return TRUE;
}

/* "line 3, column 7" of where the text stops being JSON (1-based). */
static char *
scan_where (Scan *s)
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
static Root *
root_from_scan (
    ScannedRoot *sr, GBytes *bytes, const char *source_name, const char *where, GError **error)
{
  g_autoptr (Root) r = NULL;
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
    root_add_record (r, by_device, &g_array_index (sr->records, Record, i));
  for (guint i = 0; sr->devices && i < sr->devices->len; i++)
    rank_for (by_device, r, g_ptr_array_index (sr->devices, i));
  return g_steal_pointer (&r);
}

/* A report file's text (single-root or cluster): its roots, appended to
 * @roots, or nothing at all on error. */
static gboolean
read_report_text (GBytes *bytes, const char *source_name, GPtrArray *roots, GError **error)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) root_free);
  g_autoptr (ScannedRoot) top = g_new0 (ScannedRoot, 1);
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  Scan s;

  /* An empty file has no data at all: no pointer to offset. */
  if (data == NULL)
    data = "";
  s = (Scan){ data, data, data + length, NULL, NULL };

  /* A byte order mark is not JSON, but some editors write one. */
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    s.p += 3;
  skip_ws (&s);
  if (s.p >= s.end)
    fail (&s, N_ ("empty"));
  else if (scan_root (&s, top, TRUE, 0))
    {
      skip_ws (&s);
      if (s.p < s.end)
        fail (&s, N_ ("more after the end of the data"));
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
          Root *r =
              root_from_scan (g_ptr_array_index (top->roots, i), bytes, source_name, where, error);
          if (!r)
            return FALSE;
          g_ptr_array_add (found, r);
        }
    }
  else
    {
      Root *r = root_from_scan (top, bytes, source_name, "", error);
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
  for (guint i = 0; i < self->roots->len; i++)
    {
      Root *r = g_ptr_array_index (self->roots, i);
      g_autoptr (JsonParser) parser = NULL;
      gsize length;
      const char *text;

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
  g_autoptr (JsonNode) ranks = NULL;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  if (!write_text (out, "{\n  \"format\" : \"" OVI_CLUSTER_FORMAT "\",\n  \"roots\" : [\n",
                   cancellable, error))
    return FALSE;
  for (guint i = 0; i < self->roots->len; i++)
    {
      Root *r = g_ptr_array_index (self->roots, i);
      gboolean ok;

      if (r->text)
        {
          gsize length;
          const char *text = g_bytes_get_data (r->text, &length);
          ok = g_output_stream_write_all (out, text, length, NULL, cancellable, error);
        }
      else
        {
          g_autofree char *text = ovi_report_json_to_data (r->report);
          g_strchomp (text);
          ok = write_text (out, text, cancellable, error);
        }
      if (!ok || !write_text (out, i + 1 < self->roots->len ? ",\n" : "\n", cancellable, error))
        return FALSE;
    }
  ranks = ovi_cluster_build_ranks_json (self);
  if (!write_text (out, "  ],\n  \"ranks\" : ", cancellable, error) ||
      !write_node (out, ranks, cancellable, error) ||
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
  gint next;        /* the next file to claim */
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

/* Reads one report file into its roots (on any thread). */
static gboolean
read_report_file (GFile *file, GPtrArray *roots, GCancellable *cancellable, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GMappedFile) mapped = NULL;
  g_autoptr (GBytes) bytes = NULL;

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
  /* Mapped, not copied: the roots keep their text from the map. */
  if (!(mapped = g_mapped_file_new (path, FALSE, &local_error)))
    {
      int code = local_error->domain == G_FILE_ERROR ? local_error->code : G_FILE_ERROR_FAILED;
      /* Translators: a file name, then why it cannot be read */
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, _ ("%s: cannot read it: %s"),
                   name,
                   g_strerror (code == G_FILE_ERROR_NOENT   ? ENOENT
                               : code == G_FILE_ERROR_ACCES ? EACCES
                                                            : EIO));
      return FALSE;
    }
  bytes = g_mapped_file_get_bytes (mapped);
  return read_report_text (bytes, name, roots, error);
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

static gpointer
load_claiming (gpointer data)
{
  Load *load = data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&load->next, 1)) < load->files->len)
    if (!g_cancellable_is_cancelled (load->cancellable))
      load_one (i, load);
  return NULL;
}

/* The caller's own threads, at its priority: core's pool runs below the
 * window's thread, and on a busy machine (a login node) its threads can
 * wait seconds for a turn, which a command-line merge should not. */
static void
load_in_threads (Load *load)
{
  guint n = MIN (load->files->len, ovi_worker_get_max_threads ());
  g_autoptr (GPtrArray) threads = g_ptr_array_new ();

  for (guint i = 1; i < n; i++)
    g_ptr_array_add (threads, g_thread_new ("ovi-merge", load_claiming, load));
  load_claiming (load);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));
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
  load_in_threads (load);
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
