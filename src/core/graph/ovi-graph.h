/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-dump-folder.h"
#include "ovi-graph-error.h"

G_BEGIN_DECLS

/* One iteration's dataflow graph: which operator fed which, from the
 * tensor addresses of the dumps (the last writer before the consumer, in
 * run order) or from the ATC fusion-rule graph JSON, and the blame followed
 * along its edges. Built off the main thread, once per iteration. */

typedef enum
{
  OVI_GRAPH_NODE_OPERATOR,   /* a dumped operator */
  OVI_GRAPH_NODE_INPUT,      /* a graph input (a Data op of the graph JSON) */
  OVI_GRAPH_NODE_CONSTANT,   /* a weight or constant (Const, Constant, Variable) */
  OVI_GRAPH_NODE_NOT_DUMPED, /* an operator of the graph JSON no dump file ran */
  OVI_GRAPH_NODE_EXTERNAL,   /* an address read that no dumped operator wrote, no graph names */
} OviGraphNodeKind;

typedef enum
{
  OVI_GRAPH_EDGE_ADDRESS,    /* the consumer's input address is the producer's output's */
  OVI_GRAPH_EDGE_GRAPH_JSON, /* the graph JSON's input list says so */
} OviGraphEdgeSource;

/* Producer output @output -> consumer input @input; nodes by index. */
typedef struct
{
  guint producer;
  guint output;
  guint consumer;
  guint input;
  OviGraphEdgeSource source;
  guint64 address; /* ADDRESS edges: the buffer's device address; else 0 */
} OviGraphEdge;

/* A node: a dumped operator or what the graph knows beside them. */
#define OVI_TYPE_GRAPH_NODE (ovi_graph_node_get_type ())
G_DECLARE_FINAL_TYPE (OviGraphNode, ovi_graph_node, OVI, GRAPH_NODE, GObject)

guint ovi_graph_node_get_index (OviGraphNode *self);
const char *ovi_graph_node_get_name (OviGraphNode *self);
const char *ovi_graph_node_get_op_type (OviGraphNode *self);
OviGraphNodeKind ovi_graph_node_get_kind (OviGraphNode *self);
int ovi_graph_node_get_position (OviGraphNode *self);
OviBlame ovi_graph_node_get_blame (OviGraphNode *self);
guint64 ovi_graph_node_get_nan (OviGraphNode *self);
guint64 ovi_graph_node_get_inf (OviGraphNode *self);
OviDumpFile *ovi_graph_node_get_file (OviGraphNode *self);
char *ovi_graph_node_dup_accessible_name (OviGraphNode *self);

#define OVI_TYPE_GRAPH (ovi_graph_get_type ())
G_DECLARE_FINAL_TYPE (OviGraph, ovi_graph, OVI, GRAPH, GObject)

/* Building: @iteration is a relative folder of @folder's files
 * (ovi_dump_file_get_relative_dir()), NULL for the first that has
 * operators; @graph_json the fusion-rule JSON, or NULL. */
OviGraph *ovi_graph_build (OviDumpFolder *folder,
                           const char *iteration,
                           const char *graph_json,
                           GCancellable *cancellable,
                           GError **error);
void ovi_graph_build_async (OviDumpFolder *folder,
                            const char *iteration,
                            const char *graph_json,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data);
OviGraph *ovi_graph_build_finish (GAsyncResult *result, GError **error);
OviGraph *ovi_graph_dup_edges_for_iteration (OviDumpFolder *folder,
                                             const char *iteration,
                                             GCancellable *cancellable);
char *ovi_graph_find_json (OviDumpFolder *folder, const char *iteration);
OviGraph *ovi_graph_dup_for_iteration (OviDumpFolder *folder,
                                       const char *iteration,
                                       GCancellable *cancellable);

/* What it holds. */
OviDumpFolder *ovi_graph_get_folder (OviGraph *self);
const char *ovi_graph_get_iteration (OviGraph *self);
const char *ovi_graph_get_graph_json (OviGraph *self);
GListModel *ovi_graph_get_nodes (OviGraph *self);
guint ovi_graph_get_n_nodes (OviGraph *self);
OviGraphNode *ovi_graph_get_node (OviGraph *self, guint index);
guint ovi_graph_get_n_edges (OviGraph *self);
const OviGraphEdge *ovi_graph_get_edge (OviGraph *self, guint index);
const guint *ovi_graph_get_in_edges (OviGraph *self, guint node, guint *n_edges);
const guint *ovi_graph_get_out_edges (OviGraph *self, guint node, guint *n_edges);
gboolean ovi_graph_has_edges (OviGraph *self);
const char *ovi_graph_get_run_order_note (OviGraph *self);

/* Queries. */
OviGraphNode *ovi_graph_lookup (OviGraph *self, const char *op_name);
OviGraphNode *ovi_graph_lookup_file (OviGraph *self, OviDumpFile *file);
const guint *ovi_graph_get_origins (OviGraph *self, guint node, guint *n_origins);
GPtrArray *ovi_graph_dup_chains (OviGraph *self, guint node);
char *ovi_graph_dup_chain_text (OviGraph *self, guint node);
GArray *ovi_graph_dup_neighbourhood (OviGraph *self, guint node, guint up, guint down);

G_END_DECLS
