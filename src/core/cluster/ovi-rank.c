/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-cluster-enums.h"
#include "ovi-rank-private.h"

/**
 * ovi_rank_role_name:
 *
 * Returns: "none", "origin", "received" or "unknown", as the cluster
 *   report writes it
 */
const char *
ovi_rank_role_name (OviRankRole role)
{
  static const char *const names[] = { "none", "origin", "received", "unknown" };

  g_return_val_if_fail (role <= OVI_RANK_ROLE_UNKNOWN, "none");
  return names[role];
}

/* ---------------------------------------------------------------- OviRank */

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

void
ovi_rank_set_role (OviRank *self, OviRankRole role, gboolean earliest)
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

/* A rank of no record yet, of @device (NULL: no device level). */
OviRank *
ovi_rank_new (const char *host, const char *root, const char *device)
{
  OviRank *rank = g_object_new (OVI_TYPE_RANK, NULL);

  rank->host = g_strdup (host);
  rank->root = g_strdup (root);
  rank->device = g_strdup (device);
  return rank;
}

/* One more record of numbered iteration @iteration. */
void
ovi_rank_count_iteration (OviRank *rank, guint64 iteration)
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
