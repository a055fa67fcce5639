/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-dump-folder.h"

G_BEGIN_DECLS

/* A folder's operators by iteration: which op dump file ran an operator in
 * an iteration, and where its overflows are, for comparing one operator
 * across iterations. */
#define OVI_TYPE_OP_INDEX (ovi_op_index_get_type ())
G_DECLARE_FINAL_TYPE (OviOpIndex, ovi_op_index, OVI, OP_INDEX, GObject)

OviOpIndex *ovi_op_index_new (OviDumpFolder *folder);
OviDumpFolder *ovi_op_index_get_folder (OviOpIndex *self);
GPtrArray *ovi_op_index_get_iterations (OviOpIndex *self);
GPtrArray *ovi_op_index_get_op_names (OviOpIndex *self);
const char *ovi_op_index_get_shown_name (OviOpIndex *self, const char *op_name);
OviDumpFile *ovi_op_index_lookup (OviOpIndex *self, const char *op_name, const char *iteration);
GPtrArray *ovi_op_index_dup_tensor_labels (OviOpIndex *self, const char *op_name);
GPtrArray *ovi_op_index_dup_overflowed_ops (OviOpIndex *self);
guint
ovi_op_index_get_first_position (OviOpIndex *self, const char *op_name, const char *iteration);
GPtrArray *ovi_op_index_get_unlinked_units (OviOpIndex *self);
guint
ovi_op_index_get_unlinked_position (OviOpIndex *self, const char *unit, const char *iteration);

G_END_DECLS
