/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ovi-cluster-error.h"
#include "ovi-dump-folder.h"
#include "ovi-rank.h"

G_BEGIN_DECLS

/* Which rank of a cluster overflowed first: the first overflow of every
 * (host, root, device), ordered across machines, from report JSON (a
 * folder's own report, report files from other machines, merged cluster
 * reports alike). */

#define OVI_TYPE_CLUSTER (ovi_cluster_get_type ())
G_DECLARE_FINAL_TYPE (OviCluster, ovi_cluster, OVI, CLUSTER, GObject)

OviCluster *ovi_cluster_new (void);
gboolean ovi_cluster_add_report (OviCluster *self,
                                 JsonNode *report,
                                 const char *source_name,
                                 GError **error);
gboolean
ovi_cluster_add_folder (OviCluster *self, OviDumpFolder *folder, const char *host, GError **error);
gboolean ovi_cluster_remove_root (OviCluster *self, const char *host, const char *root);
void ovi_cluster_clear (OviCluster *self);
guint ovi_cluster_get_n_roots (OviCluster *self);
GListModel *ovi_cluster_get_ranks (OviCluster *self);
OviRank *ovi_cluster_get_earliest (OviCluster *self);
char *ovi_cluster_dup_origin_note (OviCluster *self);
JsonNode *ovi_cluster_build_json (OviCluster *self);
gboolean ovi_cluster_write_json (OviCluster *self,
                                 GOutputStream *out,
                                 GCancellable *cancellable,
                                 GError **error);
JsonNode *ovi_cluster_build_ranks_json (OviCluster *self);
JsonNode *ovi_cluster_build_rank_json (OviRank *rank);
char *ovi_cluster_to_text (OviCluster *self);

gboolean ovi_cluster_is_report_file (GFile *file);
gboolean ovi_cluster_add_report_files (OviCluster *self,
                                       GFile *const *files,
                                       guint n_files,
                                       GCancellable *cancellable,
                                       GError **error);
void ovi_cluster_load_reports_async (OviCluster *self,
                                     GFile *const *files,
                                     guint n_files,
                                     GCancellable *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer user_data);
gboolean ovi_cluster_load_reports_finish (OviCluster *self, GAsyncResult *result, GError **error);

G_END_DECLS
