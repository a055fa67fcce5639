/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-cluster-private.h"
#include "ovi-rank-private.h"

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
 * position (iteration, then timestamp) has RECEIVED its bad values; one
 * whose first overflow is on a collective that no such rank explains got
 * them from a device that is not open (another machine's, whose report is
 * missing): its origin is UNKNOWN, and when that holds for every rank the
 * cluster says so (ovi_cluster_dup_origin_note()) rather than claiming as
 * many independent origins. Every other rank with an overflow, one whose
 * first overflow is its own (not on a collective), is an ORIGIN.
 *
 * This file orders the ranks and gives them their roles; the JSON is in
 * ovi-cluster-json.c, the text in ovi-cluster-text.c, the reading of
 * report files in ovi-cluster-load.c. */

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

  /* A window may hold the list longer: so does the list the roots. */
  g_ptr_array_unref (self->roots);
  g_object_unref (self->ranks);
  g_free (self->origin_note);
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
  self->roots = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  self->ranks = ovi_rank_list_new ();
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
  return ovi_cluster_compare_devices (a->device, b->device);
}

/* Roots by host, then root. */
static int
compare_roots (gconstpointer pa, gconstpointer pb, gpointer data)
{
  GPtrArray *roots = data;
  const OviClusterRoot *a = g_ptr_array_index (roots, *(const guint *) pa);
  const OviClusterRoot *b = g_ptr_array_index (roots, *(const guint *) pb);
  int c = strcmp (a->host, b->host);

  return c ? c : strcmp (a->root, b->root);
}

/* After the ranks with an overflow: those without, by host, root and
 * device, the quiet devices of each root among the ranks whose records are
 * all ignored. @all is sorted, from @first on without overflow. */
static GArray *
build_tail (OviCluster *self, GPtrArray *all, guint first)
{
  guint n = all->len - first;
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->roots->len);
  GArray *tail;
  guint next = first;

  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      g_array_append_val (order, i);
      n += ovi_cluster_devices_len (&r->quiet);
    }
  g_array_sort_with_data (order, compare_roots, self->roots);
  tail = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  for (guint k = 0; k < order->len; k++)
    {
      guint ri = g_array_index (order, guint, k);
      OviClusterRoot *r = g_ptr_array_index (self->roots, ri);
      guint nq = ovi_cluster_devices_len (&r->quiet), q = 0;

      /* This root's ranks come next in @all: it is in the same order. */
      for (;;)
        {
          OviRank *rank = next < all->len ? g_ptr_array_index (all, next) : NULL;
          gboolean mine =
              rank && g_str_equal (rank->host, r->host) && g_str_equal (rank->root, r->root);
          guint64 e;

          if (mine && (q == nq || ovi_cluster_compare_devices (
                                      rank->device, ovi_cluster_devices_get (&r->quiet, q)) < 0))
            e = OVI_RANK_LIST_RANK (next++);
          else if (q < nq)
            e = OVI_RANK_LIST_QUIET (ri, q++);
          else
            break;
          g_array_append_val (tail, e);
        }
    }
  g_assert (next == all->len);
  return tail;
}

/* The op types of the first overflows of @ranks (all on collectives), in
 * order of first appearance: "HcomAllReduce", "HcomAllReduce, HcomBroadcast". */
static char *
collective_types (GPtrArray *ranks)
{
  g_autoptr (GPtrArray) types = g_ptr_array_new ();

  for (guint i = 0; i < ranks->len; i++)
    {
      OviRank *rank = g_ptr_array_index (ranks, i);

      if (rank->has_first && rank->op_type &&
          !g_ptr_array_find_with_equal_func (types, rank->op_type, g_str_equal, NULL))
        g_ptr_array_add (types, rank->op_type);
    }
  g_ptr_array_add (types, NULL);
  return g_strjoinv (", ", (char **) types->pdata);
}

/* Orders every rank and gives each its role. */
void
ovi_cluster_update_ranks (OviCluster *self)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_object_unref);
  OviRank *origin = NULL, *earliest = NULL;
  guint first_quiet;

  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
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
  g_clear_pointer (&self->origin_note, g_free);
  for (guint i = 0; i < all->len; i++)
    {
      OviRank *rank = g_ptr_array_index (all, i);
      OviRankRole role = OVI_RANK_ROLE_NONE;

      if (rank->has_first && !rank->collective)
        role = OVI_RANK_ROLE_ORIGIN;
      else if (rank->has_first)
        role = origin && compare_position (origin, rank) <= 0 ? OVI_RANK_ROLE_RECEIVED
                                                              : OVI_RANK_ROLE_UNKNOWN;
      ovi_rank_set_role (rank, role, rank == earliest);
    }
  if (earliest && !origin)
    self->origin_note = collective_types (all);
  for (first_quiet = 0;
       first_quiet < all->len && ((OviRank *) g_ptr_array_index (all, first_quiet))->has_first;
       first_quiet++)
    ;

  ovi_rank_list_set (self->ranks, self->roots, all, build_tail (self, all, first_quiet));
  if (self->earliest != earliest)
    {
      self->earliest = earliest;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EARLIEST]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ROOTS]);
}

/* The rank at @position, made for the time it is used when the list has
 * not made it (a device without a record). */
OviRank *
ovi_cluster_dup_rank_at (OviCluster *self, guint position)
{
  OviClusterRoot *root = NULL;
  guint index = 0;
  OviRank *rank = ovi_rank_list_peek (self->ranks, position, &root, &index);

  if (rank)
    return g_object_ref (rank);
  return ovi_rank_new (root->host, root->root, ovi_cluster_devices_get (&root->quiet, index));
}

/* Adds @found (taking its roots) unless one of them is there already. */
gboolean
ovi_cluster_add_roots (OviCluster *self, GPtrArray *found, const char *source_name, GError **error)
{
  for (guint i = 0; i < found->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (found, i);
      for (guint j = 0; j < self->roots->len + i; j++)
        {
          OviClusterRoot *o = j < self->roots->len
                                  ? g_ptr_array_index (self->roots, j)
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
  g_autoptr (GPtrArray) found =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (source_name != NULL, FALSE);

  if (!ovi_cluster_root_read_tree (report, source_name, found, error) ||
      !ovi_cluster_add_roots (self, found, source_name, error))
    return FALSE;
  ovi_cluster_update_ranks (self);
  return TRUE;
}

/**
 * ovi_cluster_add_folder:
 * @folder: a loaded folder, of one root or several
 * @host: the machine that holds it
 *
 * Adds each root of @folder from its records, as a report of it would
 * (no tensor is read, and no report is built): the window's own folder on
 * the timeline. Such roots are left out of ovi_cluster_build_json() and
 * ovi_cluster_write_json(): writing a folder's report is report/'s job.
 *
 * Returns: %FALSE when one of its roots is in the cluster already
 */
gboolean
ovi_cluster_add_folder (OviCluster *self, OviDumpFolder *folder, const char *host, GError **error)
{
  g_autoptr (GPtrArray) found =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  g_autofree char *name = NULL;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), FALSE);

  ovi_cluster_root_read_folder (folder, host, found);
  name = g_filename_display_name (ovi_dump_folder_get_root_path (folder));
  if (!ovi_cluster_add_roots (self, found, name, error))
    return FALSE;
  ovi_cluster_update_ranks (self);
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
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);

      if (g_str_equal (r->host, host) && g_str_equal (r->root, root))
        {
          g_ptr_array_remove_index (self->roots, i);
          ovi_cluster_update_ranks (self);
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
  ovi_cluster_update_ranks (self);
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

/* What ovi_cluster_dup_origin_note() says: translated for a person,
 * English in JSON (read by programs, as every message there). */
#define ORIGIN_NOTE                                                                                \
  N_ ("The first overflow on every device is a collective (%s): the origin is on a machine "       \
      "whose report is not open.")

/**
 * ovi_cluster_dup_origin_note:
 *
 * When the first overflow of every rank that overflowed is on a collective
 * operator, none of them is where the bad values started: they came in from
 * a device that is not open (another machine's, whose report is missing).
 * This says so, naming the collectives, instead of a list of origins.
 *
 * Returns: (transfer full) (nullable): the sentence, translated, or %NULL
 *   when an origin is known (or nothing overflowed)
 */
char *
ovi_cluster_dup_origin_note (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  if (self->origin_note == NULL)
    return NULL;
  return g_strdup_printf (_ (ORIGIN_NOTE), self->origin_note);
}

/* The same in English, as JSON has it (read by programs). */
char *
ovi_cluster_dup_english_origin_note (OviCluster *self)
{
  return g_strdup_printf (ORIGIN_NOTE, self->origin_note);
}
