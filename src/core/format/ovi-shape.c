/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-shape.h"

/* Element count of a shape; FALSE when it does not fit in 64 bits. A shape
 * with no dimensions is a scalar. */
gboolean
ovi_shape_count (const guint64 *shape, guint n_dims, guint64 *count)
{
  guint64 c = 1;

  for (guint i = 0; i < n_dims; i++)
    {
      if (shape[i] != 0 && c > G_MAXUINT64 / shape[i])
        return FALSE;
      c *= shape[i];
    }
  *count = c;
  return TRUE;
}

/**
 * ovi_shape_index_to_coords:
 * @coords: (out caller-allocates): @n_dims coordinates of flat @index
 */
void
ovi_shape_index_to_coords (guint64 index, const guint64 *shape, guint n_dims, guint64 *coords)
{
  for (int i = (int) n_dims - 1; i >= 0; i--)
    {
      guint64 d = shape[i] ? shape[i] : 1;
      coords[i] = index % d;
      index /= d;
    }
}

/**
 * ovi_shape_dup_string:
 * Returns: the shape as the reports write it, "[2, 3]"
 */
char *
ovi_shape_dup_string (const guint64 *shape, guint n_dims)
{
  g_autoptr (GString) s = g_string_new ("[");

  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  /* Exactly as long as it is: a diff keeps two for each tensor pair. */
  return g_strndup (s->str, s->len);
}

/**
 * ovi_shape_dup_position:
 * Returns: flat @index and its coordinates in @shape, "30 (0, 0, 3, 6)"
 */
char *
ovi_shape_dup_position (const guint64 *shape, guint n_dims, guint64 index)
{
  GString *s = g_string_new (NULL);
  g_autofree guint64 *coords = g_new0 (guint64, MAX (n_dims, 1));

  ovi_shape_index_to_coords (index, shape, n_dims, coords);
  g_string_append_printf (s, "%" G_GUINT64_FORMAT " (", index);
  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? ", " : "", coords[i]);
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}
