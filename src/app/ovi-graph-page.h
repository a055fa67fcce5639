/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-graph-canvas.h"
#include "ovi-page.h"

G_BEGIN_DECLS

/* The dataflow around the selected operator: its chains, and the
 * operators a few edges up and down, laid out by core's
 * ovi_graph_layout_compute_async() and drawn by an OviGraphCanvas. */
#define OVI_TYPE_GRAPH_PAGE (ovi_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (OviGraphPage, ovi_graph_page, OVI, GRAPH_PAGE, OviPage)

OviGraphCanvas *ovi_graph_page_get_canvas (OviGraphPage *self);
/* The graph node drawn as the canvas's node @index. */
OviGraphNode *ovi_graph_page_get_node (OviGraphPage *self, guint index);
const char *ovi_graph_page_get_state (OviGraphPage *self);

G_END_DECLS
