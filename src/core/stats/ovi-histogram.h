/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  OVI_HISTOGRAM_LINEAR,
  OVI_HISTOGRAM_SYMLOG,
} OviHistogramScale;

/* Regular bins cover the finite, unsaturated values; NaN, -Inf, +Inf and the
 * saturated values (-max, +max) have bins of their own. */
typedef struct
{
  guint n_bins;
  OviHistogramScale scale;
  double *edges;   /* n_bins + 1 */
  guint64 *counts; /* n_bins */
  guint64 nan;
  guint64 neg_inf;
  guint64 pos_inf;
  guint64 neg_saturated;
  guint64 pos_saturated;
  double saturation_value; /* the type's largest finite value, 0 if none */
  /* how a value finds its bin: the range, in the scale's terms */
  double scaled_lo, scaled_hi, symlog_c;
} OviHistogram;

OviHistogram *ovi_histogram_new (
    guint n_bins, OviHistogramScale scale, double lo, double hi, double saturation_value);
void ovi_histogram_add (OviHistogram *histogram, double value, guint64 n);
void ovi_histogram_free (OviHistogram *histogram);
int ovi_histogram_find_bin (const OviHistogram *histogram, double value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviHistogram, ovi_histogram_free)

G_END_DECLS
