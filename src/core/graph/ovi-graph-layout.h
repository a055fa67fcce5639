/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Where the nodes of a small directed graph (the neighbourhood the Graph
 * page draws) go: layered top to bottom by igraph's Sugiyama layout, in
 * abstract units (one column apart, one layer apart) that the page scales.
 * Computed on the worker pool; the page only draws it. */

#define OVI_GRAPH_LAYOUT_ERROR (ovi_graph_layout_error_quark ())
GQuark ovi_graph_layout_error_quark (void);

typedef enum
{
  OVI_GRAPH_LAYOUT_ERROR_BAD_EDGE, /* an edge names a node that is not there */
  OVI_GRAPH_LAYOUT_ERROR_FAILED,   /* igraph said no (the message says why) */
} OviGraphLayoutError;

typedef struct
{
  double x; /* columns */
  double y; /* layers */
} OviGraphPoint;

#define OVI_TYPE_GRAPH_LAYOUT (ovi_graph_layout_get_type ())
typedef struct _OviGraphLayout OviGraphLayout;

GType ovi_graph_layout_get_type (void);
OviGraphLayout *ovi_graph_layout_ref (OviGraphLayout *self);
void ovi_graph_layout_unref (OviGraphLayout *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviGraphLayout, ovi_graph_layout_unref)

OviGraphLayout *ovi_graph_layout_compute (
    guint n_nodes, const guint *edges, guint n_edges, GCancellable *cancellable, GError **error);
void ovi_graph_layout_compute_async (guint n_nodes,
                                     const guint *edges,
                                     guint n_edges,
                                     GCancellable *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer user_data);
OviGraphLayout *ovi_graph_layout_compute_finish (GAsyncResult *result, GError **error);

guint ovi_graph_layout_get_n_nodes (OviGraphLayout *self);
guint ovi_graph_layout_get_n_edges (OviGraphLayout *self);
OviGraphPoint ovi_graph_layout_get_node (OviGraphLayout *self, guint node);
const OviGraphPoint *ovi_graph_layout_get_route (OviGraphLayout *self, guint edge, guint *n_points);
double ovi_graph_layout_get_width (OviGraphLayout *self);
guint ovi_graph_layout_get_n_layers (OviGraphLayout *self);

G_END_DECLS
