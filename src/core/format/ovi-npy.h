/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-dtype.h"

G_BEGIN_DECLS

/* A NumPy .npy file (format versions 1.0, 2.0 and 3.0): its dtype, shape
 * and data. Little- and big-endian data are read (big-endian is swapped
 * into a copy); Fortran order only where it is the same as C order (at
 * most one dimension longer than 1). */
typedef struct
{
  OviDtype dtype; /* the dump dtype of the same element type */
  guint n_dims;   /* 0 for a scalar */
  guint64 *shape; /* n_dims entries */
  guint64 count;  /* elements: the product of the shape, 1 for a scalar */
  GBytes *data;   /* exactly count elements, little-endian; NULL from ovi_npy_open() */
  guint version;  /* 1, 2 or 3 */
  gboolean fortran_order;
  guint64 data_offset; /* where the data starts in the file */
  gboolean big_endian; /* the file's data is (data itself is always little-endian) */
  guint item_size;     /* bytes an element */
} OviNpy;

OviNpy *ovi_npy_parse (GBytes *contents, GError **error);
OviNpy *ovi_npy_load (const char *path, GError **error);
OviNpy *ovi_npy_open (const char *path, int *fd, GError **error);
void ovi_npy_to_little_endian (const OviNpy *self, guint8 *elements, guint64 n);
void ovi_npy_free (OviNpy *self);
char *ovi_npy_dup_shape_string (const OviNpy *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviNpy, ovi_npy_free)

G_END_DECLS
