/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-cluster-root.h"
#include "ovi-cluster.h"
#include "ovi-rank-list.h"

G_BEGIN_DECLS

/* What the files of OviCluster share: ordering and roles (ovi-cluster.c),
 * its JSON (ovi-cluster-json.c), its text (ovi-cluster-text.c) and the
 * reading of report files (ovi-cluster-load.c). */

struct _OviCluster
{
  GObject parent_instance;

  GPtrArray *roots;   /* OviClusterRoot */
  OviRankList *ranks; /* OviRank, in cluster order */
  OviRank *earliest;
  char *origin_note; /* ovi_cluster_dup_origin_note(), untranslated parts: the collective
                      * op types when every first overflow is on one, else NULL */
};

OviRank *ovi_cluster_dup_rank_at (OviCluster *self, guint position);
gboolean
ovi_cluster_add_roots (OviCluster *self, GPtrArray *found, const char *source_name, GError **error);
void ovi_cluster_update_ranks (OviCluster *self);
char *ovi_cluster_dup_english_origin_note (OviCluster *self);

G_END_DECLS
