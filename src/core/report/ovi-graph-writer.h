/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ovi-graph.h"

G_BEGIN_DECLS

/* An iteration's graph written out: the project's JSON (docs/cli.md,
 * `graph`), Graphviz text, Google Model Explorer's graph JSON and its node
 * data. */

JsonNode *ovi_graph_writer_json (OviGraph *graph);
char *ovi_graph_writer_dot (OviGraph *graph);
JsonNode *ovi_graph_writer_model_explorer (OviGraph *graph);
JsonNode *ovi_graph_writer_node_data (OviGraph *graph);
char *ovi_graph_writer_dup_graph_id (OviGraph *graph);
gboolean ovi_graph_writer_save (JsonNode *root, const char *path, GError **error);
GStrv ovi_graph_writer_dup_chains (OviDumpFolder *folder, OviDumpFile *op, gboolean *run_order);

G_END_DECLS
