/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ovi-histogram.h"

/* The one histogram builder: the statistics' (ovi-analysis.c) and the
 * diff's pair view (ovi-diff-pair.c) both bin with it. */

/* Symmetric log: linear near zero, logarithmic beyond the threshold. */
static inline double
symlog (double x, double c)
{
  return copysign (log10 (1 + fabs (x) / c), x);
}

static inline double
symlog_inverse (double t, double c)
{
  return copysign (c * (pow (10, fabs (t)) - 1), t);
}

/**
 * ovi_histogram_new:
 * @n_bins: regular bins over [@lo, @hi], the finite, unsaturated range
 * @saturation_value: the dtype's largest finite value, binned apart; 0 for
 *   none
 *
 * Empty bins over [@lo, @hi] (one unit wide around a single value), their
 * edges as numpy's linspace gives them, even where @hi − @lo overflows.
 */
OviHistogram *
ovi_histogram_new (
    guint n_bins, OviHistogramScale scale, double lo, double hi, double saturation_value)
{
  OviHistogram *h = g_new0 (OviHistogram, 1);

  n_bins = MAX (n_bins, 1);
  h->n_bins = n_bins;
  h->scale = scale;
  h->edges = g_new (double, n_bins + 1);
  h->counts = g_new0 (guint64, n_bins);
  h->saturation_value = saturation_value;

  if (!(lo <= hi) || !isfinite (lo) || !isfinite (hi))
    lo = hi = 0;
  if (lo == hi)
    {
      lo -= 0.5;
      hi += 0.5;
    }
  h->symlog_c = 1;
  if (scale == OVI_HISTOGRAM_SYMLOG)
    {
      /* The linear part spans the smallest six decades below the largest
       * magnitude, where rounding noise lives. */
      h->symlog_c = MAX (MAX (fabs (lo), fabs (hi)) * 1e-6, 1e-30);
      h->scaled_lo = symlog (lo, h->symlog_c);
      h->scaled_hi = symlog (hi, h->symlog_c);
      double step = (h->scaled_hi - h->scaled_lo) / n_bins;
      for (guint i = 0; i <= n_bins; i++)
        h->edges[i] = symlog_inverse (h->scaled_lo + i * step, h->symlog_c);
    }
  else
    {
      h->scaled_lo = lo;
      h->scaled_hi = hi;
      /* numpy's linspace, lo + i * step, unless the step overflows. */
      double step = (hi - lo) / n_bins;
      for (guint i = 0; i <= n_bins; i++)
        h->edges[i] = isfinite (step) ? lo + i * step
                                      : lo * (1 - (double) i / n_bins) + hi * ((double) i / n_bins);
    }
  h->edges[0] = lo;
  h->edges[n_bins] = hi;
  return h;
}

/* The bin of @x given the edges; arithmetic picks a candidate, the edges
 * have the last word, so a value on an edge goes where find_bin says. */
static inline gint64
bin_of (const OviHistogram *h, double t, double x)
{
  /* Halves keep hi - lo finite across the whole double range; a range too
   * narrow to divide by (subnormal neighbours) leaves the edges to decide. */
  double lo = h->scaled_lo, hi = h->scaled_hi;
  double guess = (t / 2 - lo / 2) / (hi / 2 - lo / 2) * h->n_bins;
  gint64 bin;

  if (!(guess >= 0))
    guess = 0;
  if (guess > h->n_bins - 1)
    guess = h->n_bins - 1;
  bin = (gint64) guess;
  while (bin + 1 < (gint64) h->n_bins && x >= h->edges[bin + 1])
    bin++;
  while (bin > 0 && x < h->edges[bin])
    bin--;
  return bin;
}

/**
 * ovi_histogram_add:
 *
 * Counts @n values @value: NaN, ±Inf and ±the saturation value in their
 * own bins, a finite value outside the edges in the nearest bin.
 */
void
ovi_histogram_add (OviHistogram *h, double v, guint64 n)
{
  if (isnan (v))
    h->nan += n;
  else if (isinf (v))
    *(v > 0 ? &h->pos_inf : &h->neg_inf) += n;
  else if (h->saturation_value > 0 && fabs (v) == h->saturation_value)
    *(v > 0 ? &h->pos_saturated : &h->neg_saturated) += n;
  else
    h->counts[bin_of (h, h->scale == OVI_HISTOGRAM_SYMLOG ? symlog (v, h->symlog_c) : v, v)] += n;
}

void
ovi_histogram_free (OviHistogram *histogram)
{
  if (histogram == NULL)
    return;
  g_free (histogram->edges);
  g_free (histogram->counts);
  g_free (histogram);
}

/**
 * ovi_histogram_find_bin:
 * Returns: the regular bin holding @value, or -1 outside the range
 */
int
ovi_histogram_find_bin (const OviHistogram *h, double value)
{
  guint lo = 0, hi = h->n_bins;

  if (!(value >= h->edges[0] && value <= h->edges[h->n_bins]))
    return -1;
  /* The last bin is closed: [edge, max]; the others half-open. */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (value >= h->edges[mid])
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}
