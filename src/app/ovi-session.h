/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"
#include "ovi-diff-state.h"
#include "ovi-graph-state.h"
#include "ovi-tree-node.h"

G_BEGIN_DECLS

/* What one window inspects: the opened folder, its scan, the sidebar tree,
 * the filters and the selection. Pages bind to its properties; it computes
 * nothing itself (core does). */
#define OVI_TYPE_SESSION (ovi_session_get_type ())
G_DECLARE_FINAL_TYPE (OviSession, ovi_session, OVI, SESSION, GObject)

OviSession *ovi_session_new (GSettings *settings);
GSettings *ovi_session_get_settings (OviSession *self);
void ovi_session_load (OviSession *self, GFile *root);
void ovi_session_load_roots (OviSession *self, GFile *const *roots, guint n_roots);
void ovi_session_reload (OviSession *self);
void ovi_session_cancel (OviSession *self);
void ovi_session_close (OviSession *self);
OviDumpFolder *ovi_session_get_folder (OviSession *self);
OviCluster *ovi_session_get_cluster (OviSession *self);
OviDiffState *ovi_session_get_diff (OviSession *self);
OviGraphState *ovi_session_get_graph (OviSession *self);
void ovi_session_set_cluster_shown (OviSession *self, gboolean shown);
void ovi_session_add_reports_async (OviSession *self,
                                    GFile *const *files,
                                    guint n_files,
                                    GCancellable *cancellable,
                                    GAsyncReadyCallback callback,
                                    gpointer user_data);
gboolean ovi_session_add_reports_finish (OviSession *self, GAsyncResult *result, GError **error);
gboolean ovi_session_get_loading (OviSession *self);
gboolean ovi_session_get_busy (OviSession *self);
gboolean ovi_session_get_cancelled (OviSession *self);
gboolean ovi_session_get_live (OviSession *self);
void ovi_session_set_live (OviSession *self, gboolean live);
OviFolderWatch *ovi_session_get_watch (OviSession *self);
GListModel *ovi_session_get_records (OviSession *self);
GListModel *ovi_session_get_operators (OviSession *self);
OviOpIndex *ovi_session_get_op_index (OviSession *self);
GListModel *ovi_session_get_problems (OviSession *self);
guint ovi_session_get_n_problems (OviSession *self);
GListModel *ovi_session_get_tree (OviSession *self);
OviTreeNode *ovi_session_get_selected_node (OviSession *self);
void ovi_session_set_selected_node (OviSession *self, OviTreeNode *node);
OviOverflowRecord *ovi_session_get_selected_record (OviSession *self);
void ovi_session_set_selected_record (OviSession *self, OviOverflowRecord *record);
OviDumpFile *ovi_session_get_selected_file (OviSession *self);
void ovi_session_set_selected_file (OviSession *self, OviDumpFile *file);
OviTensor *ovi_session_get_selected_tensor (OviSession *self);
void ovi_session_set_selected_tensor (OviSession *self, OviTensor *tensor);
int ovi_session_get_unit_filter (OviSession *self);
void ovi_session_set_unit_filter (OviSession *self, int unit);
gboolean ovi_session_in_selected_node (OviSession *self, OviDumpFile *file);
gboolean ovi_session_record_visible (OviSession *self, OviOverflowRecord *record);
gboolean ovi_session_problem_in_selected_node (OviSession *self, OviProblem *problem);
OviDumpFile *ovi_session_find_file (OviSession *self, const char *path);
gboolean ovi_session_ignore_op_type (OviSession *self, const char *op_type);
void ovi_session_stop_ignoring (OviSession *self, const char *op_type, const char *op_name);

G_END_DECLS
