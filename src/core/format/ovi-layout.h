/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-dtype.h"

G_BEGIN_DECLS

/* Device layouts (NC1HWC0, FRACTAL_Z, FRACTAL_NZ, ...) back to the logical
 * layout of the framework (NCHW, ND, NCDHW), using the original shape that
 * the dump header stores, with the padding dropped. */

gboolean ovi_layout_is_device (OviFormat format);
GBytes *ovi_layout_to_logical (OviFormat format,
                               OviDtype dtype,
                               const guint64 *shape,
                               guint n_dims,
                               const guint64 *original_shape,
                               guint n_original,
                               GBytes *data,
                               GError **error);
OviFormat ovi_layout_logical_format (OviFormat format, guint n_original);

/* Where each logical element of a device layout is stored, without
 * copying the tensor: the statistics walk the stored elements a run of
 * real (not padding) elements at a time and name positions logically. */
typedef struct _OviLayoutMap OviLayoutMap;

OviLayoutMap *ovi_layout_map_new (OviFormat format,
                                  OviDtype dtype,
                                  const guint64 *shape,
                                  guint n_dims,
                                  const guint64 *original_shape,
                                  guint n_original,
                                  GError **error);
OviLayoutMap *ovi_layout_map_copy (const OviLayoutMap *map);
void ovi_layout_map_free (OviLayoutMap *map);
guint64 ovi_layout_map_get_count (const OviLayoutMap *map);
guint64 ovi_layout_map_get_stored_count (const OviLayoutMap *map);
guint64
ovi_layout_map_next_run (const OviLayoutMap *map, guint64 from, guint64 end, guint64 *run_end);
guint64 ovi_layout_map_to_logical (const OviLayoutMap *map, guint64 stored);
guint64 ovi_layout_map_to_stored (const OviLayoutMap *map, guint64 logical);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviLayoutMap, ovi_layout_map_free)

G_END_DECLS
