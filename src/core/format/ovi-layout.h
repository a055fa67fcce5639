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

G_END_DECLS
