/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* JSON trees that hold unsigned 64-bit integers exactly (report/, cluster/). */

void ovi_json_builder_add_u64 (JsonBuilder *b, guint64 v);
gboolean ovi_json_node_get_u64 (JsonNode *node, guint64 *v);
char *ovi_json_to_text (JsonNode *root);

G_END_DECLS
