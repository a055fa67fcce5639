/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The graph's error domain, in a header of its own: the graph JSON's
 * reader (ovi-graph-json.c) raises it without including the graph. */

#define OVI_GRAPH_ERROR (ovi_graph_error_quark ())

typedef enum
{
  OVI_GRAPH_ERROR_JSON,         /* the graph JSON cannot be read or is not a fusion-rule graph */
  OVI_GRAPH_ERROR_NO_ITERATION, /* the folder has no such iteration */
} OviGraphError;

GQuark ovi_graph_error_quark (void);

G_END_DECLS
