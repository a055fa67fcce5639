/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-graph-layout.h"

G_BEGIN_DECLS

/* A laid-out graph drawn: the edges with GtkSnapshot, each node a small
 * focusable widget named for screen readers. Arrow keys move between
 * nodes along the drawing; Return, Space or a click activates one. */
#define OVI_TYPE_GRAPH_CANVAS (ovi_graph_canvas_get_type ())
G_DECLARE_FINAL_TYPE (OviGraphCanvas, ovi_graph_canvas, OVI, GRAPH_CANVAS, GtkWidget)

/* How an edge is drawn: what it was learnt from. */
typedef enum
{
  OVI_GRAPH_CANVAS_EDGE_ADDRESS,
  OVI_GRAPH_CANVAS_EDGE_GRAPH_JSON,
} OviGraphCanvasEdgeStyle;

/* One node as drawn: @title on the first line (its op type), @subtitle
 * below (its name), @name read aloud, @style a CSS class
 * ("origin", "propagated", "absorbed", "normal", "unknown"), @stub drawn
 * small (an input from outside the dumped operators). */
typedef struct
{
  char *title;
  char *subtitle;
  char *name;
  char *tooltip;
  const char *style;
  gboolean stub;
} OviGraphCanvasNode;

void ovi_graph_canvas_node_clear (OviGraphCanvasNode *node);

GtkWidget *ovi_graph_canvas_new (void);
void ovi_graph_canvas_set_scene (OviGraphCanvas *self,
                                 OviGraphLayout *layout,
                                 GArray *nodes,
                                 const guint *edges,
                                 const OviGraphCanvasEdgeStyle *edge_styles,
                                 guint selected);
void ovi_graph_canvas_clear (OviGraphCanvas *self);
guint ovi_graph_canvas_get_n_nodes (OviGraphCanvas *self);
gboolean ovi_graph_canvas_get_complete (OviGraphCanvas *self);
GtkWidget *ovi_graph_canvas_get_node_widget (OviGraphCanvas *self, guint node);
guint ovi_graph_canvas_get_focus_node (OviGraphCanvas *self);
gboolean ovi_graph_canvas_focus_node (OviGraphCanvas *self, guint node);
double ovi_graph_canvas_get_zoom (OviGraphCanvas *self);
void ovi_graph_canvas_set_zoom (OviGraphCanvas *self, double zoom);

G_END_DECLS
