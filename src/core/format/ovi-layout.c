/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-dtype.h"
#include "ovi-error.h"
#include "ovi-layout.h"

#define N0 16 /* the cube unit's block of batch (FRACTAL_Z) and rows (FRACTAL_NZ) */

gboolean
ovi_layout_is_device (OviFormat format)
{
  return format == OVI_FORMAT_NC1HWC0 || format == OVI_FORMAT_NC1HWC0_C04 ||
         format == OVI_FORMAT_FRACTAL_Z || format == OVI_FORMAT_FRACTAL_NZ ||
         format == OVI_FORMAT_NDC1HWC0 || format == OVI_FORMAT_FRACTAL_Z_3D;
}

/**
 * ovi_layout_logical_format:
 * Returns: the format the logical layout is in: NCHW, ND or NCDHW
 */
OviFormat
ovi_layout_logical_format (OviFormat format, guint n_original)
{
  switch (format)
    {
    case OVI_FORMAT_NDC1HWC0:
    case OVI_FORMAT_FRACTAL_Z_3D:
      return OVI_FORMAT_NCDHW;
    case OVI_FORMAT_FRACTAL_NZ:
      return OVI_FORMAT_ND;
    default:
      return OVI_FORMAT_NCHW;
    }
}

static gboolean
fail (GError **error, const char *message)
{
  g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED, message);
  return FALSE;
}

/* Checks that the device shape is what the layout makes of the original
 * shape, and works out the source index of every logical element. */
typedef struct
{
  OviFormat format;
  guint64 dev[8];
  guint64 orig[6];
  guint n_orig;
} Plan;

static gboolean
plan_check (Plan *p, const guint64 *shape, guint n_dims, GError **error)
{
  guint64 c0, c1;

  switch (p->format)
    {
    case OVI_FORMAT_NC1HWC0:
    case OVI_FORMAT_NC1HWC0_C04:
      /* (N, C1, H, W, C0) from NCHW */
      if (n_dims != 5 || p->n_orig != 4)
        return fail (error, _ ("NC1HWC0 needs a 5-D shape and a 4-D (NCHW) original shape"));
      c0 = shape[4];
      if (p->format == OVI_FORMAT_NC1HWC0_C04 && c0 != 4)
        return fail (error, _ ("NC1HWC0_C04 needs C0 = 4"));
      c1 = c0 ? (p->orig[1] + c0 - 1) / c0 : 0;
      if (shape[0] != p->orig[0] || shape[1] != c1 || shape[2] != p->orig[2] ||
          shape[3] != p->orig[3])
        return fail (error, _ ("the shape does not match NC1HWC0 of the original shape"));
      break;
    case OVI_FORMAT_FRACTAL_Z:
      /* (C1*H*W, N1, N0, C0) from NCHW */
      if (n_dims != 4 || p->n_orig != 4)
        return fail (error, _ ("FRACTAL_Z needs a 4-D shape and a 4-D (NCHW) original shape"));
      c0 = shape[3];
      c1 = c0 ? (p->orig[1] + c0 - 1) / c0 : 0;
      if (shape[2] != N0 || shape[0] != c1 * p->orig[2] * p->orig[3] ||
          shape[1] != (p->orig[0] + N0 - 1) / N0)
        return fail (error, _ ("the shape does not match FRACTAL_Z of the original shape"));
      break;
    case OVI_FORMAT_FRACTAL_NZ:
      /* (..., N1, M1, M0, N0) from (..., M, N) */
      if (n_dims < 4 || p->n_orig < 2 || n_dims != p->n_orig + 2)
        return fail (error,
                     _ ("FRACTAL_NZ needs (..., N1, M1, M0, N0) and an original (..., M, N)"));
      {
        guint64 m = p->orig[p->n_orig - 2], n = p->orig[p->n_orig - 1];
        guint64 m0 = shape[n_dims - 2], n0 = shape[n_dims - 1];
        for (guint i = 0; i + 2 < p->n_orig; i++)
          if (shape[i] != p->orig[i])
            return fail (error, _ ("the batch dimensions differ from the original shape"));
        if (!m0 || !n0 || shape[n_dims - 4] != (n + n0 - 1) / n0 ||
            shape[n_dims - 3] != (m + m0 - 1) / m0)
          return fail (error, _ ("the shape does not match FRACTAL_NZ of the original shape"));
      }
      break;
    case OVI_FORMAT_NDC1HWC0:
      /* (N, D, C1, H, W, C0) from NCDHW */
      if (n_dims != 6 || p->n_orig != 5)
        return fail (error, _ ("NDC1HWC0 needs a 6-D shape and a 5-D (NCDHW) original shape"));
      c0 = shape[5];
      c1 = c0 ? (p->orig[1] + c0 - 1) / c0 : 0;
      if (shape[0] != p->orig[0] || shape[1] != p->orig[2] || shape[2] != c1 ||
          shape[3] != p->orig[3] || shape[4] != p->orig[4])
        return fail (error, _ ("the shape does not match NDC1HWC0 of the original shape"));
      break;
    case OVI_FORMAT_FRACTAL_Z_3D:
      /* (D*C1*H*W, N1, N0, C0) from NCDHW */
      if (n_dims != 4 || p->n_orig != 5)
        return fail (error, _ ("FRACTAL_Z_3D needs a 4-D shape and a 5-D (NCDHW) original shape"));
      c0 = shape[3];
      c1 = c0 ? (p->orig[1] + c0 - 1) / c0 : 0;
      if (shape[2] != N0 || shape[0] != p->orig[2] * c1 * p->orig[3] * p->orig[4] ||
          shape[1] != (p->orig[0] + N0 - 1) / N0)
        return fail (error, _ ("the shape does not match FRACTAL_Z_3D of the original shape"));
      break;
    default:
      return fail (error, _ ("not a device layout"));
    }
  memcpy (p->dev, shape, n_dims * sizeof (guint64));
  return TRUE;
}

/* Where logical element @coords (in the original shape) sits in the device
 * layout, as a flat element index. */
static guint64
source_index (const Plan *p, const guint64 *o)
{
  const guint64 *d = p->dev;

  switch (p->format)
    {
    case OVI_FORMAT_NC1HWC0:
    case OVI_FORMAT_NC1HWC0_C04:
      {
        guint64 c0 = d[4];
        return (((o[0] * d[1] + o[1] / c0) * d[2] + o[2]) * d[3] + o[3]) * c0 + o[1] % c0;
      }
    case OVI_FORMAT_FRACTAL_Z:
      {
        guint64 c0 = d[3], h = p->orig[2], w = p->orig[3];
        guint64 row = (o[1] / c0) * h * w + o[2] * w + o[3];
        return ((row * d[1] + o[0] / N0) * N0 + o[0] % N0) * c0 + o[1] % c0;
      }
    case OVI_FORMAT_NDC1HWC0:
      {
        guint64 c0 = d[5];
        return ((((o[0] * d[1] + o[2]) * d[2] + o[1] / c0) * d[3] + o[3]) * d[4] + o[4]) * c0 +
               o[1] % c0;
      }
    case OVI_FORMAT_FRACTAL_Z_3D:
      {
        guint64 c0 = d[3], c1 = (p->orig[1] + c0 - 1) / c0, h = p->orig[3], w = p->orig[4];
        guint64 row = ((o[2] * c1 + o[1] / c0) * h + o[3]) * w + o[4];
        return ((row * d[1] + o[0] / N0) * N0 + o[0] % N0) * c0 + o[1] % c0;
      }
    default: /* FRACTAL_NZ */
      {
        guint n = p->n_orig, nd = n + 2;
        guint64 batch = 0, m = o[n - 2], col = o[n - 1];
        guint64 n1 = d[nd - 4], m1 = d[nd - 3], m0 = d[nd - 2], n0 = d[nd - 1];
        for (guint i = 0; i + 2 < n; i++)
          batch = batch * d[i] + o[i];
        return (((batch * n1 + col / n0) * m1 + m / m0) * m0 + m % m0) * n0 + col % n0;
      }
    }
}

/* The stored elements are rows of C0 (N0 for FRACTAL_NZ) elements, the
 * last dimension of the device shape. A row is either padding as a whole
 * (a batch row of FRACTAL_Z past N, a row of FRACTAL_NZ past M) or holds
 * real elements first and padding after them (the last C1 or N1 block).
 * Rows are numbered as (outer, pos) with pos < rows_block: pos at or past
 * rows_valid is padding; otherwise block k = (outer / group) % n_blocks
 * holds MIN (width_valid - k * width, width) real elements. */
struct _OviLayoutMap
{
  Plan plan;
  guint n_dims;
  guint64 count;        /* logical elements */
  guint64 stored_count; /* elements of the device shape */
  guint64 width;        /* elements a row holds: C0 or N0 */
  guint64 rows_block, rows_valid, group, n_blocks, width_valid;
};

static gboolean
count_of (const guint64 *shape, guint n, guint64 *count)
{
  *count = 1;
  for (guint i = 0; i < n; i++)
    {
      if (shape[i] && *count > G_MAXUINT64 / shape[i])
        return FALSE;
      *count *= shape[i];
    }
  return TRUE;
}

/**
 * ovi_layout_map_new:
 * @shape: the device shape
 * @original_shape: the logical shape from the header
 *
 * Returns: (transfer full): the map, or %NULL with @error saying why the
 *   layout cannot be mapped (not a device layout, no or another original
 *   shape, elements smaller than a byte)
 */
OviLayoutMap *
ovi_layout_map_new (OviFormat format,
                    OviDtype dtype,
                    const guint64 *shape,
                    guint n_dims,
                    const guint64 *original_shape,
                    guint n_original,
                    GError **error)
{
  guint bits = ovi_dtype_bits (dtype);
  g_autofree OviLayoutMap *map = g_new0 (OviLayoutMap, 1);
  const guint64 *o = original_shape;
  guint64 w;

  if (bits < 8 || bits % 8)
    {
      fail (error, _ ("the dtype has no whole-byte elements"));
      return NULL;
    }
  if (n_original == 0)
    {
      fail (error, _ ("the header has no original shape"));
      return NULL;
    }
  if (n_original > 6 || n_dims > 8)
    {
      fail (error, _ ("more dimensions than a device layout has"));
      return NULL;
    }
  map->plan.format = format;
  map->plan.n_orig = n_original;
  memcpy (map->plan.orig, original_shape, n_original * sizeof (guint64));
  if (!plan_check (&map->plan, shape, n_dims, error))
    return NULL;
  if (!count_of (original_shape, n_original, &map->count))
    {
      fail (error, _ ("the original shape is too large"));
      return NULL;
    }
  if (!count_of (shape, n_dims, &map->stored_count))
    {
      fail (error, _ ("the shape is too large"));
      return NULL;
    }
  map->n_dims = n_dims;
  map->width = w = shape[n_dims - 1];
  if (w == 0 || map->count == 0)
    {
      /* Nothing stored or nothing real: no row holds an element. */
      map->rows_block = 1;
      map->rows_valid = 0;
      map->group = map->n_blocks = 1;
      return g_steal_pointer (&map);
    }
  switch (format)
    {
    case OVI_FORMAT_NC1HWC0:
    case OVI_FORMAT_NC1HWC0_C04:
      map->rows_block = map->rows_valid = 1;
      map->group = o[2] * o[3];
      map->n_blocks = shape[1];
      map->width_valid = o[1];
      break;
    case OVI_FORMAT_NDC1HWC0:
      map->rows_block = map->rows_valid = 1;
      map->group = o[3] * o[4];
      map->n_blocks = shape[2];
      map->width_valid = o[1];
      break;
    case OVI_FORMAT_FRACTAL_Z:
      map->rows_block = shape[1] * N0;
      map->rows_valid = o[0];
      map->group = o[2] * o[3];
      map->n_blocks = (o[1] + w - 1) / w;
      map->width_valid = o[1];
      break;
    case OVI_FORMAT_FRACTAL_Z_3D:
      map->rows_block = shape[1] * N0;
      map->rows_valid = o[0];
      map->group = o[3] * o[4];
      map->n_blocks = (o[1] + w - 1) / w;
      map->width_valid = o[1];
      break;
    default: /* FRACTAL_NZ: rows (batch, n1, m1, m0) */
      map->rows_block = shape[n_dims - 3] * shape[n_dims - 2];
      map->rows_valid = o[n_original - 2];
      map->group = 1;
      map->n_blocks = shape[n_dims - 4];
      map->width_valid = o[n_original - 1];
      break;
    }
  map->group = MAX (map->group, 1);
  map->n_blocks = MAX (map->n_blocks, 1);
  return g_steal_pointer (&map);
}

OviLayoutMap *
ovi_layout_map_copy (const OviLayoutMap *map)
{
  return g_memdup2 (map, sizeof *map);
}

void
ovi_layout_map_free (OviLayoutMap *map)
{
  g_free (map);
}

/**
 * ovi_layout_map_get_count:
 * Returns: the number of logical elements (the original shape's)
 */
guint64
ovi_layout_map_get_count (const OviLayoutMap *map)
{
  return map->count;
}

/**
 * ovi_layout_map_get_stored_count:
 * Returns: the number of stored elements, padding included
 */
guint64
ovi_layout_map_get_stored_count (const OviLayoutMap *map)
{
  return map->stored_count;
}

/* Real elements at the start of row @row, and how many rows from @row on
 * (at least 1) hold as many. */
static guint64
row_valid (const OviLayoutMap *m, guint64 row, guint64 *same)
{
  guint64 pos = row % m->rows_block, outer = row / m->rows_block, k;

  if (pos >= m->rows_valid)
    {
      *same = m->rows_block - pos;
      return 0;
    }
  k = (outer / m->group) % m->n_blocks;
  if (m->rows_valid < m->rows_block)
    *same = m->rows_valid - pos;
  else
    *same = (m->group - outer % m->group) * m->rows_block - pos;
  return m->width_valid > k * m->width ? MIN (m->width_valid - k * m->width, m->width) : 0;
}

/**
 * ovi_layout_map_next_run:
 * @from: a stored index
 * @end: where to stop, at most the stored count
 * @run_end: (out): the end of the run, at most @end
 *
 * The next run of real elements, stored one after the other, at or after
 * @from and before @end. Whole rows of real elements make one run.
 *
 * Returns: the stored index the run starts at; @end when there is none
 */
guint64
ovi_layout_map_next_run (const OviLayoutMap *map, guint64 from, guint64 end, guint64 *run_end)
{
  guint64 w = map->width;

  *run_end = end;
  if (w == 0)
    return end;
  for (guint64 row = from / w, off = from % w; row * w < end; off = 0)
    {
      guint64 same, v = row_valid (map, row, &same);
      guint64 start = row * w + off, stop;

      if (off >= v)
        {
          row += v == 0 ? same : 1;
          continue;
        }
      if (v < w)
        stop = row * w + v;
      else
        {
          /* Full rows, and the real start of the row after them. */
          stop = (row + same) * w;
          while (stop < end && stop < map->stored_count)
            {
              guint64 more, next = row_valid (map, stop / w, &more);
              if (next < w)
                {
                  stop += next;
                  break;
                }
              stop += more * w;
            }
        }
      if (start >= end)
        break;
      *run_end = MIN (stop, end);
      return start;
    }
  return end;
}

/**
 * ovi_layout_map_to_logical:
 * @stored: the stored index of a real element (not padding)
 *
 * Returns: its flat index in the original shape
 */
guint64
ovi_layout_map_to_logical (const OviLayoutMap *map, guint64 stored)
{
  const Plan *p = &map->plan;
  const guint64 *d = p->dev;
  guint64 c[8], o[6], flat = 0;

  for (guint i = map->n_dims; i > 0; i--)
    {
      guint64 dim = MAX (d[i - 1], 1);
      c[i - 1] = stored % dim;
      stored /= dim;
    }
  switch (p->format)
    {
    case OVI_FORMAT_NC1HWC0:
    case OVI_FORMAT_NC1HWC0_C04:
      o[0] = c[0];
      o[1] = c[1] * d[4] + c[4];
      o[2] = c[2];
      o[3] = c[3];
      break;
    case OVI_FORMAT_FRACTAL_Z:
      {
        guint64 h = p->orig[2], w = MAX (p->orig[3], 1);
        o[0] = c[1] * N0 + c[2];
        o[1] = c[0] / MAX (h * w, 1) * d[3] + c[3];
        o[2] = c[0] / w % MAX (h, 1);
        o[3] = c[0] % w;
      }
      break;
    case OVI_FORMAT_NDC1HWC0:
      o[0] = c[0];
      o[1] = c[2] * d[5] + c[5];
      o[2] = c[1];
      o[3] = c[3];
      o[4] = c[4];
      break;
    case OVI_FORMAT_FRACTAL_Z_3D:
      {
        guint64 h = MAX (p->orig[3], 1), w = MAX (p->orig[4], 1);
        guint64 c1 = MAX ((p->orig[1] + d[3] - 1) / MAX (d[3], 1), 1);
        o[0] = c[1] * N0 + c[2];
        o[1] = c[0] / (w * h) % c1 * d[3] + c[3];
        o[2] = c[0] / (w * h * c1);
        o[3] = c[0] / w % h;
        o[4] = c[0] % w;
      }
      break;
    default: /* FRACTAL_NZ */
      {
        guint n = p->n_orig, nd = map->n_dims;
        for (guint i = 0; i + 2 < n; i++)
          o[i] = c[i];
        o[n - 2] = c[nd - 3] * d[nd - 2] + c[nd - 2];
        o[n - 1] = c[nd - 4] * d[nd - 1] + c[nd - 1];
      }
      break;
    }
  for (guint i = 0; i < p->n_orig; i++)
    flat = flat * p->orig[i] + o[i];
  return flat;
}

/**
 * ovi_layout_map_to_stored:
 * @logical: a flat index in the original shape
 *
 * Returns: the stored index of that element
 */
guint64
ovi_layout_map_to_stored (const OviLayoutMap *map, guint64 logical)
{
  const Plan *p = &map->plan;
  guint64 o[6];

  for (guint i = p->n_orig; i > 0; i--)
    {
      guint64 dim = MAX (p->orig[i - 1], 1);
      o[i - 1] = logical % dim;
      logical /= dim;
    }
  return source_index (p, o);
}

/**
 * ovi_layout_to_logical:
 * @shape: the device shape of @data
 * @original_shape: the logical shape from the header
 *
 * Returns: (transfer full): the elements in logical order, shaped
 *   @original_shape, or %NULL with @error when the shapes do not fit the
 *   layout or the dtype has elements smaller than a byte
 */
GBytes *
ovi_layout_to_logical (OviFormat format,
                       OviDtype dtype,
                       const guint64 *shape,
                       guint n_dims,
                       const guint64 *original_shape,
                       guint n_original,
                       GBytes *data,
                       GError **error)
{
  gsize item = ovi_dtype_bits (dtype) / 8;
  g_autoptr (OviLayoutMap) map = NULL;
  guint64 count, coords[6];
  const guint8 *src = g_bytes_get_data (data, NULL);
  guint8 *out;

  if (!(map = ovi_layout_map_new (format, dtype, shape, n_dims, original_shape, n_original, error)))
    return NULL;
  count = map->count;
  if (map->stored_count > g_bytes_get_size (data) / item || count > map->stored_count)
    {
      fail (error, _ ("the data is smaller than the shape"));
      return NULL;
    }

  out = g_malloc (MAX (count * item, 1));
  memset (coords, 0, sizeof coords);
  for (guint64 i = 0; i < count; i++)
    {
      memcpy (out + i * item, src + source_index (&map->plan, coords) * item, item);
      for (int k = (int) n_original - 1; k >= 0; k--)
        {
          if (++coords[k] < original_shape[k])
            break;
          coords[k] = 0;
        }
    }
  return g_bytes_new_take (out, count * item);
}
