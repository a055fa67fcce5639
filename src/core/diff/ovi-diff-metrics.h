/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The ten metrics of the vendor's comparison (msaccucmp's algorithms),
 * computed in float64 over the positions that are finite on both sides,
 * with NaN and ±Inf compared by position, and the tolerance test of the
 * agreement model (ovi-diff-agreement.h). Pure functions over doubles: the
 * caller widens the tensors and feeds them in chunks, twice (the first pass
 * finds what the second needs: means, minimum and maximum, the golden's
 * scale). No sum overflows: the first pass's sums of a chunk that would
 * are taken again scaled by 2^-600, the second pass's are of values scaled
 * by a power of two to below 1 where one exceeds 1e140. */

typedef struct
{
  guint64 n;                          /* positions finite on both sides */
  double cosine;                      /* CosineSimilarity; NaN when one side is all zero */
  double max_absolute_error;          /* MaxAbsoluteError */
  double accumulated_relative_error;  /* AccumulatedRelativeError */
  double relative_euclidean_distance; /* RelativeEuclideanDistance */
  double kl_divergence;               /* KullbackLeiblerDivergence */
  double mine_mean, mine_std;         /* StandardDeviation: both sides' mean and */
  double golden_mean, golden_std;     /*   population deviation, |v| < 0.001 as 0 */
  double mean_absolute_error;         /* MeanAbsoluteError */
  double root_mean_square_error;      /* RootMeanSquareError */
  double max_relative_error;          /* MaxRelativeError */
  double mean_relative_error;         /* MeanRelativeError */
  const char *cosine_note;            /* why cosine is NaN or 1 by rule, untranslated */
} OviDiffMetrics;

typedef struct
{
  double difference;
  double mine, golden;
  guint64 index;
} OviDiffTop;

typedef struct
{
  /* settings: the tolerance may be set after pass one */
  double rtol, atol;
  guint top_n;
  /* pass one; big_*: sums of chunks that overflow, scaled by 2^-600 */
  guint64 n, matching_nonfinite, nonfinite_mismatch;
  double sum_x, sum_y, sq_y, min_x, max_x, min_y, max_y;
  double big_sum_x, big_sum_y, big_sq_y;
  /* pass two, where a value exceeds 1e140 (scaled), over values scaled
   * by powers of two: x·scale_x, y·scale_y, x·scale_d − y·scale_d */
  double scale_x, scale_y, scale_d;
  gboolean scaled;
  gboolean same; /* fed by the *_same passes */
  double mean_x, mean_y, dev_x, dev_y;
  double dot, xx, yy, dd, abs_sum, abs_max, rel_sum, rel_max;
  double kl_px, kl_py, kl_sum;
  guint64 out_of_tolerance;
  gint64 first_difference;
  double first_mine, first_golden;
  gboolean identical;
  OviDiffTop *top; /* top_n entries, largest first */
  guint n_top;
} OviDiffAccumulator;

void ovi_diff_accumulator_init (OviDiffAccumulator *acc, double rtol, double atol, guint top_n);
void ovi_diff_accumulator_clear (OviDiffAccumulator *acc);
void ovi_diff_accumulator_pass1 (OviDiffAccumulator *acc,
                                 const double *mine,
                                 const double *golden,
                                 gsize n);
void ovi_diff_accumulator_pass1_same (OviDiffAccumulator *acc, const double *values, gsize n);
void ovi_diff_accumulator_begin_pass2 (OviDiffAccumulator *acc);
double ovi_diff_accumulator_golden_rms (const OviDiffAccumulator *acc);
void ovi_diff_accumulator_pass2 (
    OviDiffAccumulator *acc, const double *mine, const double *golden, gsize n, guint64 base);
void ovi_diff_accumulator_pass2_exact (OviDiffAccumulator *acc,
                                       const double *mine,
                                       const double *golden,
                                       const double *difference,
                                       gsize n,
                                       guint64 base);
void ovi_diff_accumulator_pass2_same (OviDiffAccumulator *acc, const double *values, gsize n);
void ovi_diff_accumulator_finish (OviDiffAccumulator *acc, OviDiffMetrics *metrics);

void ovi_diff_metrics_compute (const double *mine,
                               const double *golden,
                               gsize n,
                               OviDiffMetrics *metrics);

/* Statistics mode (dump-format.md section 6): a tensor pair compared by
 * the statistics a statistics-mode dump holds instead of its values, each
 * with its own tolerance (ovi_diff_statistics_judge(), ovi-diff-agreement.c). */
typedef enum
{
  OVI_DIFF_STAT_MAX,
  OVI_DIFF_STAT_MIN,
  OVI_DIFF_STAT_MEAN,
  OVI_DIFF_STAT_NORM, /* the L2 norm */
  OVI_DIFF_N_STATS,
} OviDiffStat;

typedef struct
{
  double mine[OVI_DIFF_N_STATS];      /* max, min, mean over the finite values; L2 norm */
  double golden[OVI_DIFF_N_STATS];    /*   NaN where a side does not have it */
  double tolerance[OVI_DIFF_N_STATS]; /* |mine − golden| allowed, for each compared */
  guint compared;                     /* bit per OviDiffStat: both sides have it */
  guint differs;                      /* bit per OviDiffStat: out of tolerance */
  /* NaN, −Inf and +Inf counts of each side (G_MAXUINT64: not known) */
  guint64 mine_nonfinite[3], golden_nonfinite[3];
} OviDiffStatistics;

const char *ovi_diff_stat_name (OviDiffStat stat);

char *ovi_diff_format_value (double value);
char *ovi_diff_format_standard_deviation (const OviDiffMetrics *metrics);

G_END_DECLS
