/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-rank-list.h"
#include "ovi-rank-private.h"

struct _OviRankList
{
  GObject parent_instance;

  GPtrArray *roots; /* OviClusterRoot, the cluster's (held) */
  GPtrArray *ranks; /* OviRank: those with an overflow, then the others the roots hold */
  guint n_ranked;   /* those of @ranks that come first */
  GArray *tail;     /* guint64: OVI_RANK_LIST_RANK or OVI_RANK_LIST_QUIET, in order */
};

static void list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (OviRankList,
                               ovi_rank_list,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

static void
ovi_rank_list_finalize (GObject *object)
{
  OviRankList *self = OVI_RANK_LIST (object);

  g_clear_pointer (&self->roots, g_ptr_array_unref);
  g_clear_pointer (&self->ranks, g_ptr_array_unref);
  g_clear_pointer (&self->tail, g_array_unref);
  G_OBJECT_CLASS (ovi_rank_list_parent_class)->finalize (object);
}

static void
ovi_rank_list_class_init (OviRankListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ovi_rank_list_finalize;
}

static void
ovi_rank_list_init (OviRankList *self)
{
  self->ranks = g_ptr_array_new_with_free_func (g_object_unref);
  self->tail = g_array_new (FALSE, FALSE, sizeof (guint64));
}

static GType
get_item_type (GListModel *list)
{
  return OVI_TYPE_RANK;
}

static guint
get_n_items (GListModel *list)
{
  OviRankList *self = OVI_RANK_LIST (list);

  return self->n_ranked + self->tail->len;
}

/**
 * ovi_rank_list_peek:
 * @root: (out): with no rank returned, the root of the quiet device
 * @quiet_index: (out): and its index among the root's quiet devices
 *
 * Returns: (transfer none) (nullable): the rank at @position, or %NULL
 *   for a device without a record not made into a rank
 */
OviRank *
ovi_rank_list_peek (OviRankList *self, guint position, OviClusterRoot **root, guint *quiet_index)
{
  guint64 e;

  if (position < self->n_ranked)
    return g_ptr_array_index (self->ranks, position);
  e = g_array_index (self->tail, guint64, position - self->n_ranked);
  if (e >> 63)
    return g_ptr_array_index (self->ranks, (guint) (e & G_MAXUINT32));
  *root = g_ptr_array_index (self->roots, (guint) (e >> 32));
  *quiet_index = (guint) (e & G_MAXUINT32);
  return NULL;
}

static gpointer
get_item (GListModel *list, guint position)
{
  OviRankList *self = OVI_RANK_LIST (list);
  OviClusterRoot *root = NULL;
  guint index = 0;
  OviRank *rank;

  if (position >= get_n_items (list))
    return NULL;
  rank = ovi_rank_list_peek (self, position, &root, &index);
  if (rank == NULL)
    rank = ovi_cluster_root_quiet_rank (root, index);
  return g_object_ref (rank);
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

OviRankList *
ovi_rank_list_new (void)
{
  return g_object_new (OVI_TYPE_RANK_LIST, NULL);
}

/**
 * ovi_rank_list_set:
 * @roots: the cluster's roots (held until the next call)
 * @ranks: (transfer full): the ranks with an overflow in order, then those
 *   without that the tail names
 * @tail: (transfer full): what follows the ranks with an overflow
 *
 * Replaces the whole list.
 */
void
ovi_rank_list_set (OviRankList *self, GPtrArray *roots, GPtrArray *ranks, GArray *tail)
{
  guint n_old = get_n_items (G_LIST_MODEL (self));
  guint n_ranked = 0;

  while (n_ranked < ranks->len && ((OviRank *) g_ptr_array_index (ranks, n_ranked))->has_first)
    n_ranked++;
  g_clear_pointer (&self->roots, g_ptr_array_unref);
  self->roots = roots ? g_ptr_array_ref (roots) : NULL;
  g_ptr_array_unref (self->ranks);
  self->ranks = ranks;
  self->n_ranked = n_ranked;
  g_array_unref (self->tail);
  self->tail = tail;
  if (n_old || get_n_items (G_LIST_MODEL (self)))
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_old, get_n_items (G_LIST_MODEL (self)));
}

/* How many ranks have an overflow: they come first. */
guint
ovi_rank_list_get_n_ranked (OviRankList *self)
{
  return self->n_ranked;
}
