/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "ovi-diff-agreement.h"
#include "ovi-diff-private.h"
#include "ovi-dtype.h"
#include "ovi-layout.h"
#include "ovi-npy.h"
#include "ovi-shape.h"
#include "ovi-statistic-csv.h"
#include "ovi-tensor-private.h"
#include "ovi-tensor.h"

/* One tensor pair compared: both sides read in logical order (device
 * layouts mapped back to their original shape, padding dropped; FFTS+
 * slices one after the other), widened to float64 a chunk at a time, and
 * fed twice to the metrics' accumulator. */

void
ovi_diff_values_clear (OviDiffValues *v)
{
  g_clear_pointer (&v->data, g_bytes_unref);
  if (v->fd >= 0)
    close (v->fd);
  v->fd = -1;
  g_clear_pointer (&v->npy, ovi_npy_free);
  if (v->borrowed)
    v->buffer = NULL;
  g_clear_pointer (&v->buffer, g_free);
  v->buffer_n = 0;
  g_clear_pointer (&v->shape, g_free);
  g_clear_pointer (&v->reason, g_free);
}

static gboolean
comparable_dtype (OviDtype dtype, char **reason)
{
  if (!ovi_dtype_is_supported (dtype))
    {
      g_autofree char *label = ovi_dtype_dup_label (dtype);
      *reason = g_strdup_printf (_ ("%s values cannot be read"), label);
      return FALSE;
    }
  if (ovi_dtype_is_complex (dtype))
    {
      *reason = g_strdup (_ ("complex tensors are not compared"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_npy (const char *path, OviDiffValues *v)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (OviNpy) npy = ovi_npy_open (path, &v->fd, &error);

  if (npy == NULL)
    {
      g_autofree char *base = g_path_get_basename (path);
      v->reason = g_strdup_printf ("%s: %s", base, error->message);
      return FALSE;
    }
  if (!comparable_dtype (npy->dtype, &v->reason))
    return FALSE;
  v->dtype = npy->dtype;
  v->offset = npy->data_offset;
  v->item = npy->item_size;
  v->count = npy->count;
  v->n_dims = npy->n_dims;
  v->shape = g_memdup2 (npy->shape, sizeof (guint64) * MAX (1, npy->n_dims));
  v->npy = g_steal_pointer (&npy);
  return TRUE;
}

/* One tensor of a dump file, in logical order. */
static GBytes *
read_tensor (OviTensor *t, guint64 **shape, guint *n_dims, char **reason)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) data = NULL;
  OviDtype dtype = ovi_tensor_get_dtype (t);
  guint n, n_orig;
  const guint64 *stored = ovi_tensor_get_shape (t, &n);
  const guint64 *orig = ovi_tensor_get_original_shape (t, &n_orig);

  if (ovi_tensor_get_statistics_only (t))
    {
      *reason = g_strdup (_ ("the dump holds statistics only, no tensor values"));
      return NULL;
    }
  if (!comparable_dtype (dtype, reason))
    return NULL;
  if ((data = ovi_tensor_load_data (t, &error)) == NULL)
    {
      *reason = g_strdup (error->message);
      return NULL;
    }
  if (ovi_tensor_get_is_logical (t))
    {
      GBytes *logical = ovi_layout_to_logical (ovi_tensor_get_format (t), dtype, stored, n, orig,
                                               n_orig, data, &error);
      if (logical == NULL)
        {
          *reason = g_strdup (error->message);
          return NULL;
        }
      *shape = g_memdup2 (orig, sizeof (guint64) * MAX (1, n_orig));
      *n_dims = n_orig;
      return logical;
    }
  *shape = g_memdup2 (stored, sizeof (guint64) * MAX (1, n));
  *n_dims = n;
  return g_steal_pointer (&data);
}

/* A dump tensor, or the same tensor of every FFTS+ slice one after the
 * other (shaped by their first dimension where the rest agree). */
/* One tensor stored as bytes of its own, in its logical order: read from
 * the file as the comparison goes. */
static gboolean
open_dump (OviTensor *t, OviDiffValues *v)
{
  g_autoptr (GError) error = NULL;
  OviDtype dtype = ovi_tensor_get_dtype (t);
  guint n;
  const guint64 *shape = ovi_tensor_get_shape (t, &n);

  if (ovi_tensor_get_is_logical (t) || ovi_tensor_get_statistics_only (t) ||
      !comparable_dtype (dtype, &v->reason) || ovi_dtype_bits (dtype) % 8 != 0)
    {
      g_clear_pointer (&v->reason, g_free);
      return FALSE;
    }
  v->fd = ovi_tensor_open_data (t, &v->offset, &error);
  if (v->fd < 0)
    return FALSE; /* the old layout: read whole, the error said there */
  v->dtype = dtype;
  v->item = ovi_dtype_bits (dtype) / 8;
  v->count = ovi_tensor_get_count (t);
  v->n_dims = n;
  v->shape = g_memdup2 (shape, sizeof (guint64) * MAX (1, n));
  return TRUE;
}

static gboolean
read_dump (GPtrArray *tensors, OviDiffValues *v)
{
  if (tensors->len == 1 && open_dump (g_ptr_array_index (tensors, 0), v))
    return TRUE;
  GByteArray *joined = NULL;
  gboolean same_rest = TRUE;
  guint64 first = 0;

  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      g_autofree guint64 *shape = NULL;
      guint n_dims = 0;
      g_autoptr (GBytes) data = read_tensor (t, &shape, &n_dims, &v->reason);
      guint64 count = 1;

      if (data == NULL)
        {
          if (joined)
            g_byte_array_unref (joined);
          return FALSE;
        }
      for (guint k = 0; k < n_dims; k++)
        count *= shape[k];
      if (i == 0)
        {
          v->dtype = ovi_tensor_get_dtype (t);
          v->item = ovi_dtype_bits (v->dtype) % 8 == 0 ? ovi_dtype_bits (v->dtype) / 8 : 0;
          v->shape = g_steal_pointer (&shape);
          v->n_dims = n_dims;
          v->count = count;
          first = n_dims ? v->shape[0] : 1;
          if (tensors->len == 1)
            {
              v->data = g_steal_pointer (&data);
              return TRUE;
            }
          joined = g_byte_array_new ();
        }
      else
        {
          if (ovi_tensor_get_dtype (t) != v->dtype)
            {
              v->reason = g_strdup (_ ("the thread slices have different dtypes"));
              g_byte_array_unref (joined);
              return FALSE;
            }
          same_rest &= n_dims == v->n_dims && n_dims > 0 &&
                       memcmp (shape + 1, v->shape + 1, sizeof (guint64) * (n_dims - 1)) == 0;
          first += n_dims ? shape[0] : 1;
          v->count += count;
        }
      g_byte_array_append (joined, g_bytes_get_data (data, NULL), g_bytes_get_size (data));
    }
  if (same_rest && v->n_dims > 0)
    v->shape[0] = first;
  else
    {
      v->n_dims = 1;
      v->shape[0] = v->count;
    }
  v->data = g_byte_array_free_to_bytes (joined);
  return TRUE;
}

/**
 * ovi_diff_values_open:
 *
 * Opens a source's values as the comparison reads them: FALSE with
 * @v->reason (translated) when they cannot be read.
 */
gboolean
ovi_diff_values_open (OviDiffValues *v, OviDiffSource *s)
{
  if (s->npy_path)
    return read_npy (s->npy_path, v);
  return read_dump (s->tensors, v);
}

/* float16 by table: the conversion is most of widening otherwise. */
static const float *
half_table (void)
{
  static float *table;

  if (g_once_init_enter (&table))
    {
      float *t = g_new (float, 65536);
      for (guint i = 0; i < 65536; i++)
        t[i] = ovi_half_to_float (i);
      g_once_init_leave (&table, t);
    }
  return table;
}

/* @n elements of @dtype at @d as doubles, a loop per common type. */
static void
widen_elements (OviDtype dtype, const guint8 *d, guint64 first, guint64 n, double *out)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT32:
      for (guint64 i = 0; i < n; i++)
        out[i] = ovi_load_f32 (d, first + i);
      return;
    case OVI_DTYPE_FLOAT16:
      {
        const float *t = half_table ();
        for (guint64 i = 0; i < n; i++)
          out[i] = t[ovi_load_u16 (d, first + i)];
      }
      return;
    case OVI_DTYPE_BFLOAT16:
      for (guint64 i = 0; i < n; i++)
        out[i] = ovi_bfloat16_to_float (ovi_load_u16 (d, first + i));
      return;
    case OVI_DTYPE_FLOAT64:
      for (guint64 i = 0; i < n; i++)
        out[i] = ovi_load_f64 (d, first + i);
      return;
    default:
      for (guint64 i = 0; i < n; i++)
        out[i] = ovi_load_value (dtype, d, first + i);
    }
}

/* The bytes of elements [start, start + n) of a side, little-endian; NULL
 * with v->reason when the file can no longer be read. Only for types of
 * whole bytes. The chunk read last is kept: each pass over a tensor of one
 * chunk, and each look at a chunk (its bytes, then its values), reads the
 * file once. */
static const guint8 *
raw_chunk (OviDiffValues *v, guint64 start, guint64 n)
{
  guint64 want = n * v->item, done = 0;

  if (v->data)
    return (const guint8 *) g_bytes_get_data (v->data, NULL) + start * v->item;
  if (v->buffer_n >= n && v->buffer_start == start)
    return v->buffer;
  if (v->buffer == NULL)
    v->buffer = g_malloc (OVI_DIFF_CHUNK * v->item);
  v->buffer_n = 0;
  while (done < want)
    {
      gssize got = pread (v->fd, v->buffer + done, want - done, v->offset + start * v->item + done);
      if (got <= 0)
        {
          v->reason = g_strdup (got < 0 ? g_strerror (errno)
                                        : _ ("the file is shorter than when it was read"));
          return NULL;
        }
      done += got;
    }
  if (v->npy)
    ovi_npy_to_little_endian (v->npy, v->buffer, n);
  v->buffer_start = start;
  v->buffer_n = n;
  return v->buffer;
}

/* Elements [start, start + n) as doubles, n at most OVI_DIFF_CHUNK; FALSE
 * with v->reason when the file can no longer be read. */
gboolean
ovi_diff_values_widen (OviDiffValues *v, guint64 start, guint64 n, double *out)
{
  const guint8 *raw;

  if (v->data)
    {
      widen_elements (v->dtype, g_bytes_get_data (v->data, NULL), start, n, out);
      return TRUE;
    }
  if ((raw = raw_chunk (v, start, n)) == NULL)
    return FALSE;
  widen_elements (v->dtype, raw, 0, n, out);
  return TRUE;
}

/* What one thread compares with, kept from one tensor pair to the next: a
 * chunk of each side's bytes and of each side's values (allocating and
 * touching 2 MiB anew for every pair cost a tenth of a diff of many
 * small operators, in malloc and page faults). */
typedef struct
{
  guint8 *raw[2];
  double *values[2];
} Scratch;

static void
scratch_free (gpointer data)
{
  Scratch *s = data;

  for (guint i = 0; i < 2; i++)
    {
      g_free (s->raw[i]);
      g_free (s->values[i]);
    }
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static Scratch *
scratch_get (void)
{
  Scratch *s = g_private_get (&scratch_key);

  if (s == NULL)
    {
      s = g_new (Scratch, 1);
      for (guint i = 0; i < 2; i++)
        {
          s->raw[i] = g_malloc (OVI_DIFF_CHUNK * sizeof (double)); /* the widest item */
          s->values[i] = g_new (double, OVI_DIFF_CHUNK + 1);
        }
      g_private_set (&scratch_key, s);
    }
  return s;
}

/* Side @i of a pair reads into the thread's scratch. */
static void
borrow_scratch (OviDiffValues *v, Scratch *s, guint i)
{
  if (v->data == NULL && v->buffer == NULL && v->item <= sizeof (double))
    {
      v->buffer = s->raw[i];
      v->borrowed = TRUE;
    }
}

/* Two sides of one dtype whose bytes are the same, the common case before
 * the first divergence: the metrics from one side, read twice, with none
 * of the work of differences. Returns 1 when they are and @acc is filled,
 * 0 when they are not (@acc untouched), -1 when a file cannot be read. */
static int
compare_same_bytes (OviDiffValues *a, OviDiffValues *b, OviDiffAccumulator *acc, double *x)
{
  if (a->dtype != b->dtype || a->item == 0 || ovi_dtype_bits (a->dtype) != 8 * a->item)
    return 0;
  for (guint64 i = 0; i < a->count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, a->count - i);
      const guint8 *ra = raw_chunk (a, i, n), *rb = ra ? raw_chunk (b, i, n) : NULL;

      if (rb == NULL)
        return -1;
      if (memcmp (ra, rb, n * a->item) != 0)
        return 0;
    }
  /* Equal: now the passes, over one side. */
  for (guint64 i = 0; i < a->count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, a->count - i);
      const guint8 *ra = raw_chunk (a, i, n);

      if (ra == NULL)
        return -1;
      widen_elements (a->dtype, ra, 0, n, x);
      ovi_diff_accumulator_pass1_same (acc, x, n);
    }
  ovi_diff_accumulator_begin_pass2 (acc);
  for (guint64 i = 0; i < a->count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, a->count - i);
      const guint8 *ra = a->count > OVI_DIFF_CHUNK ? raw_chunk (a, i, n) : NULL;

      if (a->count > OVI_DIFF_CHUNK)
        {
          if (ra == NULL)
            return -1;
          widen_elements (a->dtype, ra, 0, n, x);
        }
      ovi_diff_accumulator_pass2_same (acc, x, n);
    }
  return 1;
}

/* Shapes agree when they are equal once dimensions of 1 are left out, or
 * when one side is flat. */
static gboolean
shapes_agree (const OviDiffValues *a, const OviDiffValues *b)
{
  guint i = 0, k = 0;

  if (a->n_dims <= 1 || b->n_dims <= 1)
    return TRUE;
  for (;;)
    {
      while (i < a->n_dims && a->shape[i] == 1)
        i++;
      while (k < b->n_dims && b->shape[k] == 1)
        k++;
      if (i == a->n_dims || k == b->n_dims)
        return i == a->n_dims && k == b->n_dims;
      if (a->shape[i++] != b->shape[k++])
        return FALSE;
    }
}

/* The reduction length of the operator that made an output (its type and
 * its inputs' shapes, from the side that dumped them): the agreement
 * model's n. */
static const guint64 *
source_shape (GPtrArray *sources, guint index, guint *n_dims)
{
  for (guint i = 0; sources && i < sources->len; i++)
    {
      OviDiffSource *s = g_ptr_array_index (sources, i);
      OviTensor *t;

      if (s->index != index || s->tensors == NULL || s->tensors->len == 0)
        continue;
      t = g_ptr_array_index (s->tensors, 0);
      return ovi_tensor_get_is_logical (t) ? ovi_tensor_get_original_shape (t, n_dims)
                                           : ovi_tensor_get_shape (t, n_dims);
    }
  return NULL;
}

static guint64
reduction_length (const OviDiffSideOp *op, guint64 output_count)
{
  guint n0 = 0, n1 = 0;
  const guint64 *in0, *in1;

  if (op == NULL)
    return 1;
  in0 = source_shape (op->inputs, 0, &n0);
  in1 = source_shape (op->inputs, 1, &n1);
  return ovi_diff_reduction_length (op->op_type, in0, n0, in1, n1, output_count);
}

/* 64-bit integers, which float64 does not all hold: compared exactly. */
static gboolean
exact_pair (OviDtype a, OviDtype b)
{
  gboolean wide = a == OVI_DTYPE_INT64 || a == OVI_DTYPE_UINT64 || b == OVI_DTYPE_INT64 ||
                  b == OVI_DTYPE_UINT64;
  return wide && ovi_diff_unit_roundoff (a) == 0 && ovi_diff_unit_roundoff (b) == 0 &&
         ovi_dtype_bits (a) % 8 == 0 && ovi_dtype_bits (b) % 8 == 0;
}

static inline __int128
load_exact (OviDtype dtype, const guint8 *d, guint64 i)
{
  if (dtype == OVI_DTYPE_INT64)
    {
      gint64 v;
      memcpy (&v, d + 8 * i, 8);
      return GINT64_FROM_LE (v);
    }
  if (dtype == OVI_DTYPE_UINT64)
    {
      guint64 v;
      memcpy (&v, d + 8 * i, 8);
      return GUINT64_FROM_LE (v);
    }
  return (__int128) ovi_load_value (dtype, d, i); /* exact below 64 bits */
}

/* Pass two of an exact pair: the values widened for the metrics, the
 * differences from the integers. */
static gboolean
pass2_exact (OviDiffValues *a, OviDiffValues *b, OviDiffAccumulator *acc, double *x, double *y)
{
  g_autofree double *d = g_new (double, MIN (a->count, OVI_DIFF_CHUNK) + 1);

  for (guint64 i = 0; i < a->count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, a->count - i);
      const guint8 *ra = raw_chunk (a, i, n), *rb = ra ? raw_chunk (b, i, n) : NULL;

      if (rb == NULL)
        return FALSE;
      widen_elements (a->dtype, ra, 0, n, x);
      widen_elements (b->dtype, rb, 0, n, y);
      for (guint64 k = 0; k < n; k++)
        d[k] = (double) (load_exact (a->dtype, ra, k) - load_exact (b->dtype, rb, k));
      ovi_diff_accumulator_pass2_exact (acc, x, y, d, n, i);
    }
  return TRUE;
}

/* ---- Statistics mode ---- */

/* One side's statistics: read from a statistics-mode dump, or computed
 * from a tensor's values. */
typedef struct
{
  double finite[OVI_DIFF_N_STATS]; /* over the finite values (a file: as written) */
  double all[OVI_DIFF_N_STATS];    /* over every value, Inf and NaN included */
  guint known;                     /* bit per OviDiffStat */
  guint64 nonfinite[3];            /* NaN, −Inf, +Inf; G_MAXUINT64: not known */
  guint64 count, n_finite;
  gboolean printed; /* read from a file */
  OviDtype dtype;
  guint64 *shape;
  guint n_dims;
} SideStats;

static gboolean
is_statistics (const OviDiffSource *s)
{
  return s->npy_path == NULL && s->tensors && s->tensors->len > 0 &&
         ovi_tensor_get_statistics_only (g_ptr_array_index (s->tensors, 0));
}

/* A statistics-mode dump's tensor, its FFTS+ slices joined: max of the
 * maxima, min of the minima, the mean weighted by count, the norm from
 * the sum of squares. */
static gboolean
stats_from_file (OviDiffSource *s, SideStats *out, char **reason)
{
  const guint stat_fields[] = { OVI_STATISTIC_MAX, OVI_STATISTIC_MIN, OVI_STATISTIC_MEAN,
                                OVI_STATISTIC_NORM };
  const guint count_fields[] = { OVI_STATISTIC_NAN, OVI_STATISTIC_NEG_INF, OVI_STATISTIC_POS_INF };
  double sum_mean = 0, sum_sq = 0;

  out->printed = TRUE;
  out->known = (1u << OVI_DIFF_N_STATS) - 1;
  for (guint i = 0; i < 3; i++)
    out->nonfinite[i] = 0;
  for (guint i = 0; i < s->tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (s->tensors, i);
      OviAnalysis *analysis = ovi_tensor_peek_analysis (t);
      const OviStats *st = analysis ? ovi_analysis_get_stats (analysis) : NULL;
      double w[4];
      guint fields = ovi_tensor_get_written_statistics (t, w);
      guint64 count = ovi_tensor_get_count (t);
      const guint64 *shape;
      guint n_dims;

      if (!ovi_tensor_get_statistics_only (t))
        {
          *reason = g_strdup (_ ("the thread slices mix statistics and values"));
          return FALSE;
        }
      if (i == 0)
        {
          out->dtype = ovi_tensor_get_dtype (t);
          shape = ovi_tensor_get_shape (t, &n_dims);
          out->shape = g_memdup2 (shape, sizeof (guint64) * MAX (1, n_dims));
          out->n_dims = n_dims;
          out->finite[OVI_DIFF_STAT_MAX] = w[0];
          out->finite[OVI_DIFF_STAT_MIN] = w[1];
        }
      else
        {
          out->finite[OVI_DIFF_STAT_MAX] = fmax (out->finite[OVI_DIFF_STAT_MAX], w[0]);
          out->finite[OVI_DIFF_STAT_MIN] = fmin (out->finite[OVI_DIFF_STAT_MIN], w[1]);
          out->n_dims = 1;
        }
      for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
        if (!(fields & stat_fields[k]))
          out->known &= ~(1u << k);
      for (guint k = 0; k < 3; k++)
        {
          guint64 v = st ? (k == 0 ? st->nan : k == 1 ? st->neg_inf : st->pos_inf) : 0;
          if (!(fields & count_fields[k]) || out->nonfinite[k] == G_MAXUINT64)
            out->nonfinite[k] = G_MAXUINT64;
          else
            out->nonfinite[k] += v;
        }
      sum_mean += w[2] * (double) count;
      sum_sq += w[3] * w[3];
      out->count += count;
      out->n_finite += st ? st->finite : count;
    }
  out->finite[OVI_DIFF_STAT_MEAN] = out->count ? sum_mean / (double) out->count : NAN;
  if (s->tensors->len == 1)
    {
      double w[4];
      ovi_tensor_get_written_statistics (g_ptr_array_index (s->tensors, 0), w);
      out->finite[OVI_DIFF_STAT_MEAN] = w[2];
      out->finite[OVI_DIFF_STAT_NORM] = w[3];
    }
  else
    out->finite[OVI_DIFF_STAT_NORM] = sqrt (sum_sq);
  if (s->tensors->len > 1)
    out->shape[0] = out->count;
  memcpy (out->all, out->finite, sizeof out->all);
  return TRUE;
}

/* A tensor's statistics from its values, both ways: over the finite values
 * (as the statistics file gives them) and over every value (as a file that
 * printed inf or nan computed them). */
static gboolean
stats_from_values (OviDiffValues *v, SideStats *out)
{
  g_autofree double *x = g_new (double, MIN (v->count, OVI_DIFF_CHUNK) + 1);
  double max = -INFINITY, min = INFINITY, sum = 0, sq = 0, sum_all = 0, sq_all = 0;

  for (guint64 i = 0; i < v->count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, v->count - i);

      if (!ovi_diff_values_widen (v, i, n, x))
        return FALSE;
      for (guint64 k = 0; k < n; k++)
        {
          double e = x[k];

          sum_all += e;
          sq_all += e * e;
          if (isnan (e))
            out->nonfinite[0]++;
          else if (isinf (e))
            out->nonfinite[e < 0 ? 1 : 2]++;
          else
            {
              max = MAX (max, e);
              min = MIN (min, e);
              sum += e;
              sq += e * e;
              out->n_finite++;
            }
        }
    }
  out->dtype = v->dtype;
  out->count = v->count;
  out->shape = g_memdup2 (v->shape, sizeof (guint64) * MAX (1, v->n_dims));
  out->n_dims = v->n_dims;
  out->known = (1u << OVI_DIFF_N_STATS) - 1;
  out->finite[OVI_DIFF_STAT_MAX] = out->n_finite ? max : NAN;
  out->finite[OVI_DIFF_STAT_MIN] = out->n_finite ? min : NAN;
  out->finite[OVI_DIFF_STAT_MEAN] = out->n_finite ? sum / (double) out->n_finite : NAN;
  out->finite[OVI_DIFF_STAT_NORM] = sqrt (sq);
  out->all[OVI_DIFF_STAT_MAX] = out->nonfinite[2]   ? INFINITY
                                : out->nonfinite[0] ? NAN
                                                    : out->finite[OVI_DIFF_STAT_MAX];
  out->all[OVI_DIFF_STAT_MIN] = out->nonfinite[1]   ? -INFINITY
                                : out->nonfinite[0] ? NAN
                                                    : out->finite[OVI_DIFF_STAT_MIN];
  out->all[OVI_DIFF_STAT_MEAN] = v->count ? sum_all / (double) v->count : NAN;
  out->all[OVI_DIFF_STAT_NORM] = sqrt (sq_all);
  return TRUE;
}

static gboolean
side_stats (OviDiffSource *s, SideStats *out, char **reason)
{
  OviDiffValues v = OVI_DIFF_VALUES_INIT;
  gboolean ok;

  if (is_statistics (s))
    return stats_from_file (s, out, reason);
  if (!ovi_diff_values_open (&v, s))
    {
      *reason = g_steal_pointer (&v.reason);
      ovi_diff_values_clear (&v);
      return FALSE;
    }
  ok = stats_from_values (&v, out);
  if (!ok)
    *reason = g_steal_pointer (&v.reason);
  ovi_diff_values_clear (&v);
  return ok;
}

/* What a side's statistic is compared as: a value computed from a
 * tensor is taken over every value where the other side's file printed a
 * non-finite one (a writer that let Inf into its max), else over the
 * finite values. */
static double
stat_as (const SideStats *self, const SideStats *other, guint k)
{
  if (!self->printed && other->printed && !isfinite (other->finite[k]))
    return self->all[k];
  return self->finite[k];
}

/* A tensor pair of which a side is a statistics-mode dump: compared by the
 * statistics both have (ovi_diff_statistics_judge()). */
static void
compare_statistics (OviDiffSource *mine,
                    OviDiffSource *golden,
                    const OviDiffSideOp *mine_op,
                    const OviDiffSideOp *golden_op,
                    double rtol,
                    double atol,
                    const char *kind_name,
                    OviDiffTensor *out)
{
  SideStats a = { 0 }, b = { 0 };
  g_autofree char *reason = NULL;
  OviDiffStatistics *st = &out->stats;
  guint64 reduction = 1;
  guint n_differ;

  out->statistics = TRUE;
  /* No values: no metrics. */
  {
    OviDiffMetrics *m = &out->metrics;
    m->cosine = m->max_absolute_error = m->accumulated_relative_error = NAN;
    m->relative_euclidean_distance = m->kl_divergence = NAN;
    m->mine_mean = m->mine_std = m->golden_mean = m->golden_std = NAN;
    m->mean_absolute_error = m->root_mean_square_error = NAN;
    m->max_relative_error = m->mean_relative_error = NAN;
  }
  for (guint k = 0; k < 3; k++)
    st->mine_nonfinite[k] = st->golden_nonfinite[k] = G_MAXUINT64;
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    st->mine[k] = st->golden[k] = st->tolerance[k] = NAN;
  if (!side_stats (mine, &a, &reason))
    {
      out->reason = g_strdup_printf (_ ("my %s: %s"), kind_name, reason);
      goto done;
    }
  if (!side_stats (golden, &b, &reason))
    {
      out->reason = g_strdup_printf (_ ("golden %s: %s"), kind_name, reason);
      goto done;
    }
  out->mine_dtype = a.dtype;
  out->golden_dtype = b.dtype;
  out->mine_shape = ovi_shape_dup_string (a.shape, a.n_dims);
  out->golden_shape = ovi_shape_dup_string (b.shape, b.n_dims);
  if (a.count != b.count)
    {
      out->reason = g_strdup_printf (_ ("%" PRIu64 " elements %s against %" PRIu64 " elements %s"),
                                     a.count, out->mine_shape, b.count, out->golden_shape);
      goto done;
    }
  st->compared = a.known & b.known;
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    {
      st->mine[k] = stat_as (&a, &b, k);
      st->golden[k] = stat_as (&b, &a, k);
    }
  memcpy (st->mine_nonfinite, a.nonfinite, sizeof a.nonfinite);
  memcpy (st->golden_nonfinite, b.nonfinite, sizeof b.nonfinite);
  if (out->kind == OVI_TENSOR_OUTPUT)
    reduction = MAX (reduction_length (mine_op, a.count), reduction_length (golden_op, a.count));
  n_differ = ovi_diff_statistics_judge (st, a.dtype, b.dtype, reduction, b.n_finite, rtol, atol,
                                        a.printed || b.printed, &out->rtol, &out->atol);
  /* NaN and ±Inf counts, where both sides know them. */
  for (guint k = 0; k < 3; k++)
    if (a.nonfinite[k] != G_MAXUINT64 && b.nonfinite[k] != G_MAXUINT64)
      out->nonfinite_mismatch += a.nonfinite[k] > b.nonfinite[k] ? a.nonfinite[k] - b.nonfinite[k]
                                                                 : b.nonfinite[k] - a.nonfinite[k];
  out->count = 0;
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    out->count += (st->compared >> k) & 1;
  out->out_of_tolerance = n_differ;
  if (st->compared == 0 && out->nonfinite_mismatch == 0)
    {
      out->reason = g_strdup (_ ("no statistic is given on both sides"));
      goto done;
    }
  /* Statistics never show two tensors identical: at best they agree. */
  out->tensor_class = n_differ == 0 && out->nonfinite_mismatch == 0
                          ? OVI_DIFF_TENSOR_WITHIN_TOLERANCE
                          : OVI_DIFF_TENSOR_DIFFERS;
  /* The first statistic out of tolerance, for the headline's "why". */
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    if (st->differs & (1u << k))
      {
        out->first_mine = st->mine[k];
        out->first_golden = st->golden[k];
        break;
      }
done:
  g_free (a.shape);
  g_free (b.shape);
}

void
ovi_diff_tensor_clear (OviDiffTensor *t)
{
  g_clear_pointer (&t->mine_shape, g_free);
  g_clear_pointer (&t->golden_shape, g_free);
  g_clear_pointer (&t->reason, g_free);
  g_clear_pointer (&t->first_position, g_free);
  g_clear_pointer (&t->top, g_array_unref);
}

/**
 * ovi_diff_compare_sources:
 * @mine: (nullable): NULL when my operator has no such tensor
 * @golden: (nullable): NULL when the golden operator has none
 * @mine_op: (nullable): my operator, for its type and shapes
 * @golden_op: (nullable): the golden operator
 * @rtol: NaN for the agreement model's
 * @atol: NaN for the agreement model's
 *
 * Compares one tensor pair into @out, judged by the agreement model
 * (ovi-diff-agreement.h).
 */
void
ovi_diff_compare_sources (OviDiffSource *mine,
                          OviDiffSource *golden,
                          const OviDiffSideOp *mine_op,
                          const OviDiffSideOp *golden_op,
                          double rtol,
                          double atol,
                          guint top_n,
                          OviDiffTensor *out)
{
  OviDiffValues a = OVI_DIFF_VALUES_INIT, b = OVI_DIFF_VALUES_INIT;
  OviDiffAccumulator acc;
  Scratch *scratch = scratch_get ();
  double *x = scratch->values[0], *y = scratch->values[1];
  double mrtol, matol;
  guint64 reduction = 1;
  const char *kind_name;

  memset (out, 0, sizeof *out);
  out->kind = (mine ? mine : golden)->kind;
  out->index = (mine ? mine : golden)->index;
  out->first_difference = -1;
  out->top = g_array_new (FALSE, TRUE, sizeof (OviDiffElement));
  out->tensor_class = OVI_DIFF_TENSOR_NOT_COMPARABLE;
  kind_name = out->kind == OVI_TENSOR_INPUT ? _ ("input") : _ ("output");
  memset (&out->metrics, 0, sizeof out->metrics);
  out->metrics.cosine = NAN;
  out->metrics.max_absolute_error = NAN;

  if (mine == NULL || golden == NULL)
    {
      out->reason =
          g_strdup_printf (mine ? _ ("the golden run has no %s %u") : _ ("my run has no %s %u"),
                           kind_name, out->index);
      return;
    }
  if (is_statistics (mine) || is_statistics (golden))
    {
      compare_statistics (mine, golden, mine_op, golden_op, rtol, atol, kind_name, out);
      return;
    }
  if (!ovi_diff_values_open (&a, mine))
    {
      out->reason = g_strdup_printf (_ ("my %s: %s"), kind_name, a.reason);
      goto done;
    }
  if (!ovi_diff_values_open (&b, golden))
    {
      out->reason = g_strdup_printf (_ ("golden %s: %s"), kind_name, b.reason);
      goto done;
    }
  out->mine_dtype = a.dtype;
  out->golden_dtype = b.dtype;
  out->mine_shape = ovi_shape_dup_string (a.shape, a.n_dims);
  out->golden_shape = ovi_shape_dup_string (b.shape, b.n_dims);
  if (a.count != b.count)
    {
      out->reason = g_strdup_printf (_ ("%" PRIu64 " elements %s against %" PRIu64 " elements %s"),
                                     a.count, out->mine_shape, b.count, out->golden_shape);
      goto done;
    }
  if (!shapes_agree (&a, &b))
    {
      out->reason = g_strdup_printf (_ ("shape %s against %s"), out->mine_shape, out->golden_shape);
      goto done;
    }

  out->count = a.count;
  if (out->kind == OVI_TENSOR_OUTPUT)
    reduction = MAX (reduction_length (mine_op, a.count), reduction_length (golden_op, a.count));
  ovi_diff_accumulator_init (&acc, 0, 0, top_n);
  borrow_scratch (&a, scratch, 0);
  borrow_scratch (&b, scratch, 1);
  switch (compare_same_bytes (&a, &b, &acc, x))
    {
    case 1:
      goto judged;
    case -1:
      goto unreadable;
    default:
      break;
    }
  for (guint64 i = 0; i < a.count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, a.count - i);
      if (!ovi_diff_values_widen (&a, i, n, x) || !ovi_diff_values_widen (&b, i, n, y))
        goto unreadable;
      ovi_diff_accumulator_pass1 (&acc, x, y, n);
    }
  ovi_diff_accumulator_begin_pass2 (&acc);
  /* The judgement, from the golden's scale: --rtol and --atol override it. */
  ovi_diff_agreement_tolerance (a.dtype, b.dtype, reduction, ovi_diff_accumulator_golden_rms (&acc),
                                &mrtol, &matol);
  acc.rtol = isnan (rtol) ? mrtol : rtol;
  acc.atol = isnan (atol) ? matol : atol;
  if (exact_pair (a.dtype, b.dtype))
    {
      if (!pass2_exact (&a, &b, &acc, x, y))
        goto unreadable;
      goto finish;
    }
  for (guint64 i = 0; i < a.count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, a.count - i);
      /* A tensor of one chunk is widened once for both passes. */
      if (a.count > OVI_DIFF_CHUNK &&
          (!ovi_diff_values_widen (&a, i, n, x) || !ovi_diff_values_widen (&b, i, n, y)))
        goto unreadable;
      ovi_diff_accumulator_pass2 (&acc, x, y, n, i);
    }
  goto finish;
judged:
  /* Identical: the tolerance the pair would have had, for the record. */
  ovi_diff_agreement_tolerance (a.dtype, b.dtype, reduction, ovi_diff_accumulator_golden_rms (&acc),
                                &mrtol, &matol);
  acc.rtol = isnan (rtol) ? mrtol : rtol;
  acc.atol = isnan (atol) ? matol : atol;
finish:
  out->rtol = acc.rtol;
  out->atol = acc.atol;
  ovi_diff_accumulator_finish (&acc, &out->metrics);
  out->out_of_tolerance = acc.out_of_tolerance;
  out->nonfinite_mismatch = acc.nonfinite_mismatch;
  out->first_difference = acc.first_difference;
  out->first_mine = acc.first_mine;
  out->first_golden = acc.first_golden;
  if (acc.first_difference >= 0)
    out->first_position = ovi_shape_dup_position (a.shape, a.n_dims, acc.first_difference);
  for (guint i = 0; i < acc.n_top; i++)
    {
      OviDiffElement e = { acc.top[i].index, acc.top[i].mine, acc.top[i].golden,
                           acc.top[i].difference };
      g_array_append_val (out->top, e);
    }
  out->tensor_class = acc.identical               ? OVI_DIFF_TENSOR_IDENTICAL
                      : acc.out_of_tolerance == 0 ? OVI_DIFF_TENSOR_WITHIN_TOLERANCE
                                                  : OVI_DIFF_TENSOR_DIFFERS;
  ovi_diff_accumulator_clear (&acc);
  goto done;
unreadable:
  /* The file changed or went away while it was compared. */
  ovi_diff_accumulator_clear (&acc);
  out->reason = g_strdup_printf (a.reason ? _ ("my %s: %s") : _ ("golden %s: %s"), kind_name,
                                 a.reason ? a.reason : b.reason);
done:
  ovi_diff_values_clear (&a);
  ovi_diff_values_clear (&b);
}
