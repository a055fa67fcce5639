/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "ovi-diff-agreement.h"
#include "ovi-diff-metrics.h"
#include "ovi-diff-pair.h"
#include "ovi-diff-private.h"
#include "ovi-dump-file.h"
#include "ovi-shape.h"
#include "ovi-worker.h"

/* One tensor pair of a compared operator read again for the pair view,
 * from the sources the diff compared (ovi_diff_operator_get_sources()),
 * by the diff's own reader (ovi_diff_values_*()): the same logical order,
 * slices and widening, a chunk at a time, so that no float64 copy of a
 * tensor is made. Two passes: the ranges, then the bins. */

/* G_DEFINE_QUARK's first argument is the domain's name: clang-format
 * would space out its dashes. */
/* clang-format off */
G_DEFINE_QUARK (ovi-diff-pair-error-quark, ovi_diff_pair_error)
/* clang-format on */

/* Where the user finds a side: the .npy file, or the (first slice's) dump
 * file and the tensor's place among its tensors. */
static void
locate (const OviDiffSource *source, OviDiffPairSide *side)
{
  OviTensor *first =
      source->tensors && source->tensors->len ? g_ptr_array_index (source->tensors, 0) : NULL;
  OviDumpFile *file = first ? ovi_tensor_get_file (first) : NULL;
  GPtrArray *tensors = file ? ovi_dump_file_get_tensors (file) : NULL;

  side->position = G_MAXUINT;
  if (source->npy_path != NULL || file == NULL)
    {
      side->path = g_strdup (source->npy_path);
      return;
    }
  side->path = g_strdup (ovi_dump_file_get_path (file));
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    if (g_ptr_array_index (tensors, i) == first)
      side->position = i;
}

static gboolean
open_side (OviDiffSource *source, OviDiffValues *v, OviDiffPairSide *side, GError **error)
{
  locate (source, side);
  if (!ovi_diff_values_open (v, source))
    {
      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_UNSUPPORTED, "%s: %s",
                   side->path ? side->path : "", v->reason);
      return FALSE;
    }
  side->dtype = v->dtype;
  side->shape = ovi_shape_dup_string (v->shape, v->n_dims);
  side->count = v->count;
  side->min = INFINITY;
  side->max = -INFINITY;
  return TRUE;
}

/* What a side's values are, over a chunk (pass 1). */
static void
describe (OviDiffPairSide *side, const double *x, guint64 n, double *sum, guint64 *finite)
{
  for (guint64 i = 0; i < n; i++)
    {
      double v = x[i];

      if (isnan (v))
        side->nan++;
      else if (isinf (v))
        *(v < 0 ? &side->neg_inf : &side->pos_inf) += 1;
      else
        {
          side->min = MIN (side->min, v);
          side->max = MAX (side->max, v);
          *sum += v;
          (*finite)++;
        }
    }
}

static void
describe_end (OviDiffPairSide *side, double sum, guint64 finite)
{
  side->mean = finite > 0 ? sum / finite : NAN;
  if (finite == 0)
    side->min = side->max = NAN;
}

void
ovi_diff_pair_free (OviDiffPair *pair)
{
  if (pair == NULL)
    return;
  g_free (pair->mine.path);
  g_free (pair->mine.shape);
  g_free (pair->golden.path);
  g_free (pair->golden.shape);
  ovi_histogram_free (pair->mine_histogram);
  ovi_histogram_free (pair->golden_histogram);
  ovi_histogram_free (pair->difference);
  g_free (pair->strip);
  g_free (pair->strip_start);
  g_free (pair);
}

/**
 * ovi_diff_pair_compute:
 * @op: an operator of an #OviDiffResult
 * @tensor: the tensor pair, an index of ovi_diff_operator_get_tensor()
 * @n_bins: regular bins of each histogram
 * @n_strip: bins of the strip (fewer when the tensor has fewer elements)
 *
 * Returns: (transfer full): the pair, or NULL with @error naming the file
 */
OviDiffPair *
ovi_diff_pair_compute (OviDiffOperator *op,
                       guint tensor,
                       guint n_bins,
                       guint n_strip,
                       GCancellable *cancellable,
                       GError **error)
{
  g_autoptr (OviDiffPair) pair = g_new0 (OviDiffPair, 1);
  OviDiffValues mine = OVI_DIFF_VALUES_INIT, golden = OVI_DIFF_VALUES_INIT;
  OviDiffSource *ms = NULL, *gs = NULL;
  const OviDiffTensor *t;
  g_autofree double *x = NULL, *y = NULL;
  double msum = 0, gsum = 0, dlo = INFINITY, dhi = -INFINITY, lo, hi;
  guint64 mfinite = 0, gfinite = 0, count;
  guint bin = 0;
  gboolean ok = FALSE;

  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (op), NULL);
  g_return_val_if_fail (n_bins > 0 && n_strip > 0, NULL);

  if (!ovi_diff_operator_get_sources (op, tensor, &ms, &gs) || ms == NULL || gs == NULL)
    {
      const char *path = ovi_diff_operator_get_mine_path (op);

      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NO_TENSOR,
                   _ ("%s: operator %s has no tensor pair %u to compare"),
                   path ? path : ovi_diff_operator_get_golden_path (op),
                   ovi_diff_operator_get_name (op), tensor);
      return NULL;
    }
  t = ovi_diff_operator_get_tensor (op, tensor);
  pair->kind = t->kind;
  pair->index = t->index;
  pair->rtol = t->rtol;
  pair->atol = t->atol;
  if (!open_side (ms, &mine, &pair->mine, error) || !open_side (gs, &golden, &pair->golden, error))
    goto out;
  if (mine.count != golden.count)
    {
      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NOT_COMPARABLE,
                   _ ("%s holds %" PRIu64 " elements and %s %" PRIu64), pair->mine.path, mine.count,
                   pair->golden.path, golden.count);
      goto out;
    }
  count = pair->count = mine.count;
  x = g_new (double, MIN (count, OVI_DIFF_CHUNK) + 1);
  y = g_new (double, MIN (count, OVI_DIFF_CHUNK) + 1);

  /* Pass 1: each side's range, and that of the differences. */
  for (guint64 i = 0; i < count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, count - i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (!ovi_diff_values_widen (&mine, i, n, x) || !ovi_diff_values_widen (&golden, i, n, y))
        goto unreadable;
      describe (&pair->mine, x, n, &msum, &mfinite);
      describe (&pair->golden, y, n, &gsum, &gfinite);
      for (guint64 k = 0; k < n; k++)
        {
          double d = x[k] - y[k];

          if (!ovi_diff_agrees (x[k], y[k], 0, 0) && isfinite (d))
            {
              dlo = MIN (dlo, d);
              dhi = MAX (dhi, d);
            }
        }
    }
  describe_end (&pair->mine, msum, mfinite);
  describe_end (&pair->golden, gsum, gfinite);

  /* Pass 2: the bins, both sides over the same edges. */
  lo = fmin (pair->mine.min, pair->golden.min); /* fmin skips a NaN */
  hi = fmax (pair->mine.max, pair->golden.max);
  pair->mine_histogram = ovi_histogram_new (n_bins, OVI_HISTOGRAM_LINEAR, lo, hi, 0);
  pair->golden_histogram = ovi_histogram_new (n_bins, OVI_HISTOGRAM_LINEAR, lo, hi, 0);
  pair->difference = ovi_histogram_new (n_bins, OVI_HISTOGRAM_LINEAR, dlo, dhi, 0);
  pair->n_strip = (guint) MIN ((guint64) n_strip, MAX (count, 1));
  pair->strip = g_new0 (guint64, pair->n_strip);
  pair->strip_start = g_new (guint64, pair->n_strip + 1);
  for (guint b = 0; b <= pair->n_strip; b++)
    pair->strip_start[b] = count * b / pair->n_strip;
  for (guint64 i = 0; i < count; i += OVI_DIFF_CHUNK)
    {
      guint64 n = MIN (OVI_DIFF_CHUNK, count - i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (count > OVI_DIFF_CHUNK &&
          (!ovi_diff_values_widen (&mine, i, n, x) || !ovi_diff_values_widen (&golden, i, n, y)))
        goto unreadable;
      for (guint64 k = 0; k < n; k++)
        {
          while (i + k >= pair->strip_start[bin + 1])
            bin++;
          ovi_histogram_add (pair->mine_histogram, x[k], 1);
          ovi_histogram_add (pair->golden_histogram, y[k], 1);
          if (!ovi_diff_agrees (x[k], y[k], 0, 0))
            ovi_histogram_add (pair->difference, x[k] - y[k], 1);
          if (!ovi_diff_agrees (x[k], y[k], pair->rtol, pair->atol))
            {
              pair->strip[bin]++;
              pair->out_of_tolerance++;
            }
        }
    }
  ok = TRUE;
  goto out;

unreadable:
  /* The file changed or went away since the diff read it. */
  g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_UNSUPPORTED, "%s: %s",
               mine.reason ? pair->mine.path : pair->golden.path,
               mine.reason ? mine.reason : golden.reason);
out:
  ovi_diff_values_clear (&mine);
  ovi_diff_values_clear (&golden);
  return ok ? g_steal_pointer (&pair) : NULL;
}

typedef struct
{
  OviDiffOperator *op;
  guint tensor, n_bins, n_strip;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_object_unref (data->op);
  g_free (data);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  OviDiffPair *pair;

  pair = ovi_diff_pair_compute (data->op, data->tensor, data->n_bins, data->n_strip, cancellable,
                                &error);
  if (pair == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, pair, (GDestroyNotify) ovi_diff_pair_free);
}

/**
 * ovi_diff_pair_compute_async:
 *
 * ovi_diff_pair_compute() on the worker pool.
 */
void
ovi_diff_pair_compute_async (OviDiffOperator *op,
                             guint tensor,
                             guint n_bins,
                             guint n_strip,
                             GCancellable *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ComputeData *data;

  g_return_if_fail (OVI_IS_DIFF_OPERATOR (op));
  g_return_if_fail (n_bins > 0 && n_strip > 0);

  g_task_set_source_tag (task, ovi_diff_pair_compute_async);
  data = g_new0 (ComputeData, 1);
  data->op = g_object_ref (op);
  data->tensor = tensor;
  data->n_bins = n_bins;
  data->n_strip = n_strip;
  g_task_set_task_data (task, data, (GDestroyNotify) compute_data_free);
  ovi_worker_run_in_thread (task, compute_thread);
}

OviDiffPair *
ovi_diff_pair_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
