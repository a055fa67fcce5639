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
  guint bits = ovi_dtype_bits (dtype);
  gsize item = bits / 8;
  Plan plan = { format, { 0 }, { 0 }, n_original };
  guint64 count = 1, device_count = 1, coords[6];
  const guint8 *src = g_bytes_get_data (data, NULL);
  guint8 *out;

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
  memcpy (plan.orig, original_shape, n_original * sizeof (guint64));
  if (!plan_check (&plan, shape, n_dims, error))
    return NULL;
  for (guint i = 0; i < n_original; i++)
    {
      if (original_shape[i] && count > G_MAXUINT64 / original_shape[i])
        {
          fail (error, _ ("the original shape is too large"));
          return NULL;
        }
      count *= original_shape[i];
    }
  for (guint i = 0; i < n_dims; i++)
    {
      if (shape[i] && device_count > G_MAXUINT64 / shape[i])
        {
          fail (error, _ ("the shape is too large"));
          return NULL;
        }
      device_count *= shape[i];
    }
  if (device_count > g_bytes_get_size (data) / item || count > device_count)
    {
      fail (error, _ ("the data is smaller than the shape"));
      return NULL;
    }

  out = g_malloc (MAX (count * item, 1));
  memset (coords, 0, sizeof coords);
  for (guint64 i = 0; i < count; i++)
    {
      memcpy (out + i * item, src + source_index (&plan, coords) * item, item);
      for (int k = (int) n_original - 1; k >= 0; k--)
        {
          if (++coords[k] < original_shape[k])
            break;
          coords[k] = 0;
        }
    }
  return g_bytes_new_take (out, count * item);
}
