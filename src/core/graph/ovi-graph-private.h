/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-graph.h"

G_BEGIN_DECLS

OviGraphNode *ovi_graph_node_new (guint index,
                                  const char *name,
                                  const char *op_type,
                                  OviGraphNodeKind kind,
                                  OviDumpFile *file,
                                  int position);

G_END_DECLS
