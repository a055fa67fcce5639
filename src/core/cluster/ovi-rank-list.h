/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-cluster-root.h"

G_BEGIN_DECLS

/* A cluster's ranks in cluster order, as a list model: the ranks with an
 * overflow, then those without, among which the devices a report lists
 * with no record become an #OviRank only when the list is asked for them
 * (a report may list a million). */

#define OVI_TYPE_RANK_LIST (ovi_rank_list_get_type ())
G_DECLARE_FINAL_TYPE (OviRankList, ovi_rank_list, OVI, RANK_LIST, GObject)

OviRankList *ovi_rank_list_new (void);
void ovi_rank_list_set (OviRankList *self, GPtrArray *roots, GPtrArray *ranks, GArray *tail);
guint ovi_rank_list_get_n_ranked (OviRankList *self);
OviRank *
ovi_rank_list_peek (OviRankList *self, guint position, OviClusterRoot **root, guint *quiet_index);

/* An element of the tail given to ovi_rank_list_set(): a rank of @ranks,
 * or a quiet device of a root. */
#define OVI_RANK_LIST_RANK(index) ((guint64) 1 << 63 | (index))
#define OVI_RANK_LIST_QUIET(root, index) ((guint64) (root) << 32 | (index))

G_END_DECLS
