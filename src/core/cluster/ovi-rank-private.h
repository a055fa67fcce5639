/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-rank.h"

G_BEGIN_DECLS

/* A rank as the cluster fills it in (ovi-cluster.c, ovi-cluster-root.c). */
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

OviRank *ovi_rank_new (const char *host, const char *root, const char *device);
void ovi_rank_count_iteration (OviRank *rank, guint64 iteration);
void ovi_rank_set_role (OviRank *self, OviRankRole role, gboolean earliest);

G_END_DECLS
