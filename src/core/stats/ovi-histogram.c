/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-histogram.h"

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
