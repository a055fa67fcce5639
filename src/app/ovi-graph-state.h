/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-graph.h"

G_BEGIN_DECLS

typedef struct _OviSession OviSession;

/* The session's dataflow graph: the graph of the selected operator's
 * iteration (built by core's ovi_graph_build_async(), with the graph JSON
 * found beside the dump, once per iteration), that operator's node in it
 * and its chains. The Graph page and the chain lines of the Overflows and
 * Operators pages bind to `graph`, `operator`, `node`, `chain`,
 * `building` and `error`. */
#define OVI_TYPE_GRAPH_STATE (ovi_graph_state_get_type ())
G_DECLARE_FINAL_TYPE (OviGraphState, ovi_graph_state, OVI, GRAPH_STATE, GObject)

OviGraphState *ovi_graph_state_new (OviSession *session);
OviGraph *ovi_graph_state_get_graph (OviGraphState *self);
OviDumpFile *ovi_graph_state_get_operator (OviGraphState *self);
OviGraphNode *ovi_graph_state_get_node (OviGraphState *self);
const char *ovi_graph_state_get_chain (OviGraphState *self);
gboolean ovi_graph_state_get_building (OviGraphState *self);
const char *ovi_graph_state_get_error (OviGraphState *self);

G_END_DECLS
