/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ovi-cluster.h"

G_BEGIN_DECLS

/* One single-root report, unchanged (its tree, or its exact text when read
 * from a file), and its ranks. */
typedef struct
{
  char *host;
  char *root;
  JsonNode *report; /* or NULL, and then: */
  GBytes *text;     /* the report object's text, as in its file, or NULL for a
                     * folder's root (ovi_cluster_add_folder()) */
  GPtrArray *ranks; /* OviRank */
} OviClusterRoot;

/* What the ranks need of one record, however it was read. */
typedef struct
{
  char *iteration;
  gboolean has_timestamp;
  guint64 timestamp;
  char *device; /* NULL: none, or null */
  gboolean ignored;
  char *file;
  char *unit;
  char *status_hex;
  char *source;
  char *op_file;
  char *op_type;
  char *op_name;
  guint64 flags_mask;
} OviClusterRecord;

void ovi_cluster_root_free (OviClusterRoot *r);
gboolean ovi_cluster_root_read_tree (JsonNode *node,
                                     const char *source_name,
                                     GPtrArray *roots,
                                     GError **error);
gboolean ovi_cluster_root_read_text (GBytes *bytes,
                                     const char *source_name,
                                     GPtrArray *roots,
                                     GError **error);

void ovi_cluster_root_read_folder (OviDumpFolder *folder, const char *host, GPtrArray *roots);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviClusterRoot, ovi_cluster_root_free)

G_END_DECLS
