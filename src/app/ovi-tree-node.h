/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-core.h"

G_BEGIN_DECLS

/* One node of the machine / time / device / model / iteration hierarchy
 * shown in the sidebar, with the number of overflow records below it. The
 * machine level is there when several folders are opened together: each is
 * one machine's copy. */
typedef enum
{
  OVI_TREE_LEVEL_ROOT,
  OVI_TREE_LEVEL_MACHINE,
  OVI_TREE_LEVEL_TIME,
  OVI_TREE_LEVEL_DEVICE,
  OVI_TREE_LEVEL_MODEL,
  OVI_TREE_LEVEL_ITERATION,
} OviTreeLevel;

/* Longest machine (root) name kept, with its terminating zero */
#define OVI_TREE_MACHINE_MAX 256

#define OVI_TYPE_TREE_NODE (ovi_tree_node_get_type ())
G_DECLARE_FINAL_TYPE (OviTreeNode, ovi_tree_node, OVI, TREE_NODE, GObject)

OviTreeNode *ovi_tree_node_new_root (const char *label);
const char *ovi_tree_node_get_label (OviTreeNode *self);
guint ovi_tree_node_get_count (OviTreeNode *self);
OviTreeLevel ovi_tree_node_get_level (OviTreeNode *self);
GListModel *ovi_tree_node_get_children (OviTreeNode *self);
OviTreeNode *ovi_tree_node_add_file (OviTreeNode *self, OviDumpFile *file);
void ovi_tree_node_clear_counts (OviTreeNode *self);
void ovi_tree_node_add_record (OviTreeNode *self, OviDumpFile *file);
gboolean ovi_tree_node_matches (OviTreeNode *self, OviDumpFile *file);
gboolean ovi_tree_node_matches_values (OviTreeNode *self, const char *const *values);

G_END_DECLS
