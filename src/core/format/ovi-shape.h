/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Shapes of tensors: the number of elements, and where a flat index is. */
gboolean ovi_shape_count (const guint64 *shape, guint n_dims, guint64 *count);
void ovi_shape_index_to_coords (guint64 index, const guint64 *shape, guint n_dims, guint64 *coords);
char *ovi_shape_dup_string (const guint64 *shape, guint n_dims);
char *ovi_shape_dup_position (const guint64 *shape, guint n_dims, guint64 index);

G_END_DECLS
