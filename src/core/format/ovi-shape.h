/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Shapes of tensors: the number of elements, and where a flat index is. */
gboolean ovi_shape_count (const guint64 *shape, guint n_dims, guint64 *count);
void ovi_shape_index_to_coords (guint64 index, const guint64 *shape, guint n_dims, guint64 *coords);

G_END_DECLS
