#pragma once

#include <glib.h>

#include "ovi-dtype.h"

G_BEGIN_DECLS

/* Statistics of one tensor. min, max, mean and std are over finite values
 * (complex values count by magnitude) and are NaN when there are none. */
typedef struct
{
  guint64 count;
  guint64 finite;
  double min;
  double max;
  double mean;
  double std;
  double max_abs;
  guint64 nan;
  guint64 pos_inf;
  guint64 neg_inf;
  guint64 zeros;
  guint64 saturated;      /* |x| equal to the type's largest finite value */
  gint64 first_nonfinite; /* flat index, -1 when all values are finite */
  gint64 first_nan;
  gint64 first_pos_inf;
  gint64 first_neg_inf;
  gint64 first_saturated;
} OviStats;

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
} OviHistogram;

typedef struct _OviAnalysis OviAnalysis;

OviAnalysis *ovi_analysis_new (OviDtype dtype, GBytes *data, GError **error);
OviAnalysis *
ovi_analysis_new_for_count (OviDtype dtype, GBytes *data, guint64 count, GError **error);
OviAnalysis *ovi_analysis_ref (OviAnalysis *self);
void ovi_analysis_unref (OviAnalysis *self);
const OviStats *ovi_analysis_get_stats (OviAnalysis *self);
OviDtype ovi_analysis_get_dtype (OviAnalysis *self);
OviAnalysis *ovi_analysis_new_for_file (OviDtype dtype,
                                        const char *path,
                                        const char *name,
                                        guint64 offset,
                                        guint64 size,
                                        guint64 count,
                                        guint64 file_size,
                                        GBytes *contents,
                                        GError **error);
OviHistogram *
ovi_analysis_histogram (OviAnalysis *self, guint n_bins, OviHistogramScale scale, GError **error);
double ovi_analysis_value_at (OviAnalysis *self, guint64 index);
OviAnalysis *ovi_analysis_new_for_statistics (OviDtype dtype, const OviStats *stats);
gboolean ovi_analysis_has_values (OviAnalysis *self);

void ovi_histogram_free (OviHistogram *histogram);
int ovi_histogram_find_bin (const OviHistogram *histogram, double value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviAnalysis, ovi_analysis_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviHistogram, ovi_histogram_free)

G_END_DECLS
