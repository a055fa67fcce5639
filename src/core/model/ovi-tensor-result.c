/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-tensor-result.h"

/* What ovi_tensor_analyze_async() hands back. */
struct _OviTensorResult
{
  gatomicrefcount ref_count;
  guint n_bins;
  OviHistogramScale scale;
  gboolean stored; /* a device layout's stored values rather than its logical ones */
  OviAnalysis *analysis;
  OviHistogram *histogram;
};

/**
 * ovi_tensor_result_new:
 * @n_bins: bins of the histogram to make, 0 for none
 */
OviTensorResult *
ovi_tensor_result_new (guint n_bins, OviHistogramScale scale)
{
  OviTensorResult *result = g_new0 (OviTensorResult, 1);

  g_atomic_ref_count_init (&result->ref_count);
  result->n_bins = n_bins;
  result->scale = scale;
  return result;
}

/* Whether to analyse a device layout's stored values, padding included
 * (ovi_tensor_analyze_stored()), rather than its logical ones. */
void
ovi_tensor_result_set_stored (OviTensorResult *result, gboolean stored)
{
  result->stored = stored;
}

/**
 * ovi_tensor_result_fill:
 *
 * Analyses @tensor, on any thread: its statistics (over the logical
 * elements of a device layout) and the histogram of the same values.
 *
 * Returns: %FALSE with @error when the tensor cannot be read
 */
gboolean
ovi_tensor_result_fill (OviTensorResult *result,
                        OviTensor *tensor,
                        GCancellable *cancellable,
                        GError **error)
{
  result->analysis = result->stored ? ovi_tensor_analyze_stored (tensor, error)
                                    : ovi_tensor_analyze (tensor, error);
  if (result->analysis == NULL)
    return FALSE;
  /* A statistics-mode tensor has its statistics and nothing more to read:
   * no histogram (ovi_statistic_why_no_values()). */
  if (!ovi_analysis_has_values (result->analysis))
    return TRUE;
  if (g_cancellable_is_cancelled (cancellable))
    return TRUE;
  /* The file may have changed since it was analysed. */
  return result->n_bins == 0 || (result->histogram = ovi_analysis_histogram (
                                     result->analysis, result->n_bins, result->scale, error));
}

OviTensorResult *
ovi_tensor_result_ref (OviTensorResult *result)
{
  g_atomic_ref_count_inc (&result->ref_count);
  return result;
}

void
ovi_tensor_result_unref (OviTensorResult *result)
{
  if (!g_atomic_ref_count_dec (&result->ref_count))
    return;
  g_clear_pointer (&result->analysis, ovi_analysis_unref);
  g_clear_pointer (&result->histogram, ovi_histogram_free);
  g_free (result);
}

/**
 * ovi_tensor_result_get_analysis:
 * Returns: (transfer none): the statistics, over the logical elements of
 *   a device layout that maps to its original shape
 */
OviAnalysis *
ovi_tensor_result_get_analysis (OviTensorResult *result)
{
  return result->analysis;
}

/**
 * ovi_tensor_result_get_histogram:
 * Returns: (transfer none) (nullable): the histogram, %NULL when none was
 *   asked for
 */
OviHistogram *
ovi_tensor_result_get_histogram (OviTensorResult *result)
{
  return result->histogram;
}
