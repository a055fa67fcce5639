/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "ovi-diff-metrics.h"

/* The definitions follow msaccucmp's algorithm_manager (Ascend/msprobe),
 * written from what each algorithm computes, in float64:
 *
 *   x: mine, y: golden, over the n positions finite on both sides
 *   ε = DBL_EPSILON (numpy's finfo(float).eps), ε32 = FLT_EPSILON
 *   CosineSimilarity  Σxy / (‖x‖‖y‖) in [−1, 1]; 1 when ‖x‖ ≤ ε and
 *                     ‖y‖ < ε; NaN when √‖x‖ ≤ ε or √‖y‖ ≤ ε (the vendor
 *                     gives a scalar 1 whatever its sign: here −3 against
 *                     1.5 is −1, and a NaN stays NaN, never 1)
 *   MaxAbsoluteError  max |x − y|
 *   AccumulatedRelativeError  Σ r, r = |x/y − 1| where |y| > ε, else 0
 *   RelativeEuclideanDistance  √(Σ(x − y)² / Σy²), 0 when √Σy² ≤ ε
 *   KullbackLeiblerDivergence  each side scaled to (v − min)/(max − min)
 *                     (unscaled when max = min), raised to at least ε32,
 *                     divided by its sum: Σ p·ln(p/q); 0 when |KL| < ε
 *   StandardDeviation  both sides' mean and population deviation, each
 *                     0 when its magnitude is below 0.001
 *   MeanAbsoluteError  Σ|x − y| / n
 *   RootMeanSquareError  √(Σ(x − y)² / n)
 *   MaxRelativeError  max r;  MeanRelativeError  Σ r / n
 *
 * With no finite position left every metric is NaN. */

#define MINIMUM_VALUE 0.001
/* Pass one's sums of a chunk that overflows: ×2^-600 holds any finite
 * double's square, and is exact down to 2^-422 (3e-127). */
#define BIG 0x1p-600
#define BIG_INVERSE 0x1p600
#define SCALE_FROM 1e140

void
ovi_diff_accumulator_init (OviDiffAccumulator *acc, double rtol, double atol, guint top_n)
{
  memset (acc, 0, sizeof *acc);
  acc->rtol = rtol;
  acc->atol = atol;
  acc->top_n = top_n;
  acc->scale_x = acc->scale_y = acc->scale_d = 1;
  acc->min_x = acc->min_y = INFINITY;
  acc->max_x = acc->max_y = -INFINITY;
  acc->first_difference = -1;
  acc->identical = TRUE;
  acc->top = g_new0 (OviDiffTop, MAX (top_n, 1));
}

void
ovi_diff_accumulator_clear (OviDiffAccumulator *acc)
{
  g_clear_pointer (&acc->top, g_free);
}

/* Which kind of non-finite value: 1 NaN, 2 +Inf, 3 −Inf, 0 finite. */
static inline int
nonfinite_kind (double v)
{
  if (isnan (v))
    return 1;
  if (isinf (v))
    return v > 0 ? 2 : 3;
  return 0;
}

/**
 * ovi_diff_accumulator_pass1:
 *
 * The first pass over a chunk: counts, sums, minimum and maximum of the
 * positions finite on both sides, and the non-finite positions that match
 * and that do not.
 */
void
ovi_diff_accumulator_pass1 (OviDiffAccumulator *acc,
                            const double *mine,
                            const double *golden,
                            gsize n)
{
  double sum_x = 0, sum_y = 0, sq_y = 0;
  double min_x = acc->min_x, max_x = acc->max_x, min_y = acc->min_y, max_y = acc->max_y;
  guint64 finite = 0, matching = 0, mismatch = 0;

  for (gsize i = 0; i < n; i++)
    {
      double x = mine[i], y = golden[i];

      if (isfinite (x) && isfinite (y))
        {
          finite++;
          sum_x += x;
          sum_y += y;
          sq_y += y * y;
          min_x = MIN (min_x, x);
          max_x = MAX (max_x, x);
          min_y = MIN (min_y, y);
          max_y = MAX (max_y, y);
        }
      else if (nonfinite_kind (x) == nonfinite_kind (y))
        matching++;
      else
        mismatch++;
    }
  if (!isfinite (sum_x) || !isfinite (sum_y) || !isfinite (sq_y))
    {
      /* Values above about 1e154: the chunk again, scaled. */
      sum_x = sum_y = sq_y = 0;
      for (gsize i = 0; i < n; i++)
        {
          double x = mine[i] * BIG, y = golden[i] * BIG;

          if (isfinite (x) && isfinite (y))
            {
              sum_x += x;
              sum_y += y;
              sq_y += y * y;
            }
        }
      acc->big_sum_x += sum_x;
      acc->big_sum_y += sum_y;
      acc->big_sq_y += sq_y;
    }
  else
    {
      acc->sum_x += sum_x;
      acc->sum_y += sum_y;
      acc->sq_y += sq_y;
    }
  acc->n += finite;
  acc->matching_nonfinite += matching;
  acc->nonfinite_mismatch += mismatch;
  acc->min_x = min_x;
  acc->max_x = max_x;
  acc->min_y = min_y;
  acc->max_y = max_y;
}

/* A power of two that brings @max to below 1, or 1. */
static double
scale_of (double max)
{
  int e;

  if (!(max > 0 && isfinite (max)))
    return 1;
  frexp (max, &e);
  return ldexp (1, -e);
}

void
ovi_diff_accumulator_begin_pass2 (OviDiffAccumulator *acc)
{
  double n = acc->n;

  acc->mean_x = acc->n ? acc->sum_x / n + acc->big_sum_x / n * BIG_INVERSE : 0;
  acc->mean_y = acc->n ? acc->sum_y / n + acc->big_sum_y / n * BIG_INVERSE : 0;
  double max_x = MAX (fabs (acc->min_x), fabs (acc->max_x));
  double max_y = MAX (fabs (acc->min_y), fabs (acc->max_y));

  /* Sums of squares of values below 1e140 cannot overflow (below 1e27
   * elements): pass two then sums them as they are. */
  acc->scaled = MAX (max_x, max_y) > SCALE_FROM;
  if (!acc->scaled)
    return;
  acc->scale_x = scale_of (max_x);
  acc->scale_y = scale_of (max_y);
  /* Differences from the sides scaled alike, halved so that their
   * difference cannot overflow. */
  acc->scale_d = MIN (acc->scale_x, acc->scale_y) / 2;
}

/**
 * ovi_diff_accumulator_pass1_same:
 *
 * The first pass over a chunk whose two sides are the same values: what
 * ovi_diff_accumulator_pass1 would count, from one side, without the
 * differences (all 0) and the golden's squares (pass two sums them).
 */
void
ovi_diff_accumulator_pass1_same (OviDiffAccumulator *acc, const double *values, gsize n)
{
  double sum = 0, min = acc->min_x, max = acc->max_x;
  guint64 finite = 0;

  for (gsize i = 0; i < n; i++)
    {
      double x = values[i];

      if (isfinite (x))
        {
          finite++;
          sum += x;
          min = MIN (min, x);
          max = MAX (max, x);
        }
    }
  if (!isfinite (sum))
    {
      sum = 0;
      for (gsize i = 0; i < n; i++)
        if (isfinite (values[i]))
          sum += values[i] * BIG;
      acc->big_sum_x += sum;
      acc->big_sum_y += sum;
    }
  else
    {
      acc->sum_x += sum;
      acc->sum_y += sum;
    }
  acc->n += finite;
  acc->matching_nonfinite += n - finite;
  acc->min_x = acc->min_y = min;
  acc->max_x = acc->max_y = max;
  acc->same = TRUE;
}

/**
 * ovi_diff_accumulator_golden_rms:
 *
 * After pass one (after pass two of equal sides): the root mean square of
 * the golden's values finite on both sides, the scale of the agreement
 * model; 0 when there is none.
 */
double
ovi_diff_accumulator_golden_rms (const OviDiffAccumulator *acc)
{
  double n = acc->n;

  if (acc->n == 0)
    return 0;
  if (acc->same)
    return sqrt (acc->yy / n) / acc->scale_y;
  if (acc->big_sq_y == 0)
    return sqrt (acc->sq_y / n);
  return sqrt (acc->sq_y / n * BIG * BIG + acc->big_sq_y / n) * BIG_INVERSE;
}

/* The KL scaling of one value of a side: (v − min) / (max − min), or v
 * itself when max = min, raised to float32's ε. @scale is 1 / (max − min),
 * or 0 for v itself: a multiplication rather than a division an element
 * (at most one unit in the last place apart). */
static inline double
kl_scaled (double v, double min, double scale)
{
  double s = scale != 0 ? (v - min) * scale : v;
  return MAX (s, (double) FLT_EPSILON);
}

static void
keep_top (OviDiffAccumulator *acc, double difference, double x, double y, guint64 index)
{
  guint at;

  if (acc->top_n == 0)
    return;
  if (acc->n_top == acc->top_n && !(difference > acc->top[acc->n_top - 1].difference))
    return;
  /* Largest first; among equal differences the earlier position first. */
  at = acc->n_top < acc->top_n ? acc->n_top : acc->top_n - 1;
  while (at > 0 && difference > acc->top[at - 1].difference)
    {
      if (at < acc->top_n)
        acc->top[at] = acc->top[at - 1];
      at--;
    }
  acc->top[at] = (OviDiffTop){ difference, x, y, index };
  if (acc->n_top < acc->top_n)
    acc->n_top++;
}

/* The second pass; @difference NULL: mine − golden; @scaled: the values
 * by powers of two (acc->scaled). Inlined with constants, so that the
 * common case tests and multiplies by neither. */
static inline __attribute__ ((always_inline)) void
pass2 (OviDiffAccumulator *acc,
       const double *mine,
       const double *golden,
       const double *difference,
       gboolean scaled,
       gsize n,
       guint64 base)
{
  /* The sums in locals: through @acc, every one would be stored at every
   * element (the arrays might alias it). */
  const double min_x = acc->min_x, min_y = acc->min_y;
  const double range_x = acc->max_x - acc->min_x, range_y = acc->max_y - acc->min_y;
  const double scale_x = range_x != 0 ? 1 / range_x : 0, scale_y = range_y != 0 ? 1 / range_y : 0;
  const double sx = acc->scale_x, sy = acc->scale_y, sd = acc->scale_d;
  const double mean_x = acc->mean_x * sx, mean_y = acc->mean_y * sy;
  const double rtol = acc->rtol, atol = acc->atol;
  double dot = 0, xx = 0, yy = 0, dd = 0, abs_sum = 0, abs_max = acc->abs_max, rel_sum = 0;
  double rel_max = acc->rel_max, dev_x = 0, dev_y = 0, kl_px = 0, kl_py = 0, kl_sum = 0;
  gboolean identical = acc->identical;

  for (gsize i = 0; i < n; i++)
    {
      double x = mine[i], y = golden[i], d, ds, xs, ys, r, p, q;

      if (!(isfinite (x) && isfinite (y)))
        {
          if (nonfinite_kind (x) == nonfinite_kind (y))
            continue;
          identical = FALSE;
          acc->out_of_tolerance++;
          if (acc->first_difference < 0)
            {
              acc->first_difference = base + i;
              acc->first_mine = x;
              acc->first_golden = y;
            }
          keep_top (acc, INFINITY, x, y, base + i);
          continue;
        }
      d = difference ? difference[i] : x - y;
      ds = !scaled ? d : difference ? d * sd : x * sd - y * sd;
      xs = scaled ? x * sx : x;
      ys = scaled ? y * sy : y;
      identical &= d == 0;
      dot += xs * ys;
      xx += xs * xs;
      yy += ys * ys;
      dd += ds * ds;
      abs_sum += fabs (ds);
      abs_max = MAX (abs_max, fabs (d));
      r = fabs (y) > DBL_EPSILON ? (difference ? fabs (d / y) : fabs (x / y - 1)) : 0;
      rel_sum += r;
      rel_max = MAX (rel_max, r);
      dev_x += (xs - mean_x) * (xs - mean_x);
      dev_y += (ys - mean_y) * (ys - mean_y);
      p = kl_scaled (x, min_x, scale_x);
      q = kl_scaled (y, min_y, scale_y);
      kl_px += p;
      kl_py += q;
      if (p != q) /* log (1) = 0: most elements of agreeing tensors */
        kl_sum += p * log (p / q);
      /* the agreement model's test (ovi_diff_agrees()), d exact */
      if (!(fabs (d) <= atol + rtol * fabs (y)))
        {
          acc->out_of_tolerance++;
          if (acc->first_difference < 0)
            {
              acc->first_difference = base + i;
              acc->first_mine = x;
              acc->first_golden = y;
            }
        }
      if (d != 0)
        keep_top (acc, fabs (d), x, y, base + i);
    }
  acc->dot += dot;
  acc->xx += xx;
  acc->yy += yy;
  acc->dd += dd;
  acc->abs_sum += abs_sum;
  acc->abs_max = abs_max;
  acc->rel_sum += rel_sum;
  acc->rel_max = rel_max;
  acc->dev_x += dev_x;
  acc->dev_y += dev_y;
  acc->kl_px += kl_px;
  acc->kl_py += kl_py;
  acc->kl_sum += kl_sum;
  acc->identical = identical;
}

/**
 * ovi_diff_accumulator_pass2:
 * @base: the flat logical index of @mine[0]
 *
 * The second pass over the same chunk, in the same order: the sums of the
 * metrics, the tolerance test, the first and the largest differences.
 */
void
ovi_diff_accumulator_pass2 (
    OviDiffAccumulator *acc, const double *mine, const double *golden, gsize n, guint64 base)
{
  if (acc->scaled)
    pass2 (acc, mine, golden, NULL, TRUE, n, base);
  else
    pass2 (acc, mine, golden, NULL, FALSE, n, base);
}

/**
 * ovi_diff_accumulator_pass2_exact:
 * @difference: mine − golden, computed exactly (64-bit integers, which
 *   float64 cannot all hold), so that no difference is rounded to 0
 *
 * ovi_diff_accumulator_pass2() with the differences given.
 */
void
ovi_diff_accumulator_pass2_exact (OviDiffAccumulator *acc,
                                  const double *mine,
                                  const double *golden,
                                  const double *difference,
                                  gsize n,
                                  guint64 base)
{
  if (acc->scaled)
    pass2 (acc, mine, golden, difference, TRUE, n, base);
  else
    pass2 (acc, mine, golden, difference, FALSE, n, base);
}

static inline __attribute__ ((always_inline)) void
pass2_same (OviDiffAccumulator *acc, const double *values, gboolean scaled, gsize n)
{
  const double s = acc->scale_x, mean = scaled ? acc->mean_x * s : acc->mean_x;
  double xx = 0, dev = 0;
  guint64 finite = 0;

  for (gsize i = 0; i < n; i++)
    {
      double x = scaled ? values[i] * s : values[i];

      if (!isfinite (x))
        continue;
      finite++;
      xx += x * x;
      dev += (x - mean) * (x - mean);
    }
  acc->dot += xx;
  acc->xx += xx;
  acc->yy += xx;
  acc->dev_x += dev;
  acc->dev_y += dev;
  /* KL: P = Q and every p/q = 1; any equal positive sums give 0. */
  acc->kl_px += finite;
  acc->kl_py += finite;
}

/**
 * ovi_diff_accumulator_pass2_same:
 *
 * The second pass over a chunk whose two sides are the same values (after
 * ovi_diff_accumulator_pass1_same): what ovi_diff_accumulator_pass2
 * would sum, without the differences, which are all 0, and without the
 * logarithms of KL, whose ratios are all 1.
 */
void
ovi_diff_accumulator_pass2_same (OviDiffAccumulator *acc, const double *values, gsize n)
{
  if (acc->scaled)
    pass2_same (acc, values, TRUE, n);
  else
    pass2_same (acc, values, FALSE, n);
}

static double
small_as_zero (double v)
{
  return fabs (v) < MINIMUM_VALUE ? 0.0 : v;
}

void
ovi_diff_accumulator_finish (OviDiffAccumulator *acc, OviDiffMetrics *m)
{
  double n = acc->n, sx = acc->scale_x, sy = acc->scale_y, sd = acc->scale_d;
  /* the norms as they are, for the vendor's thresholds; their ratios
   * from the scaled sums */
  double nx = sqrt (acc->xx) / sx, ny = sqrt (acc->yy) / sy;

  memset (m, 0, sizeof *m);
  m->n = acc->n;
  if (acc->n == 0)
    {
      m->cosine = m->max_absolute_error = m->accumulated_relative_error = NAN;
      m->relative_euclidean_distance = m->kl_divergence = NAN;
      m->mine_mean = m->mine_std = m->golden_mean = m->golden_std = NAN;
      m->mean_absolute_error = m->root_mean_square_error = NAN;
      m->max_relative_error = m->mean_relative_error = NAN;
      m->cosine_note = "no position is finite on both sides";
      return;
    }

  if (nx <= DBL_EPSILON && ny < DBL_EPSILON)
    {
      m->cosine = 1;
      m->cosine_note = "both sides are all zero";
    }
  else if (sqrt (nx) <= DBL_EPSILON)
    {
      m->cosine = NAN;
      m->cosine_note = "my side is all zero";
    }
  else if (sqrt (ny) <= DBL_EPSILON)
    {
      m->cosine = NAN;
      m->cosine_note = "the golden side is all zero";
    }
  else
    {
      /* Rounding can take it past ±1; a NaN stays NaN (MIN would make it 1). */
      m->cosine = acc->dot / (sqrt (acc->xx) * sqrt (acc->yy));
      if (m->cosine > 1)
        m->cosine = 1;
      else if (m->cosine < -1)
        m->cosine = -1;
    }

  m->max_absolute_error = acc->abs_max;
  m->accumulated_relative_error = acc->rel_sum;
  m->relative_euclidean_distance = ny <= DBL_EPSILON ? 0.0 : sqrt (acc->dd / acc->yy) * (sy / sd);
  /* Σ (p/P)·ln((p/P)/(q/Q)) = Σ p·ln(p/q) / P + ln(Q/P): one logarithm an
   * element, and equal sides give exactly 0, as the vendor's do */
  m->kl_divergence = acc->kl_sum / acc->kl_px + log (acc->kl_py / acc->kl_px);
  if (fabs (m->kl_divergence) < DBL_EPSILON)
    m->kl_divergence = 0;
  m->mine_mean = small_as_zero (acc->mean_x);
  m->golden_mean = small_as_zero (acc->mean_y);
  m->mine_std = small_as_zero (sqrt (acc->dev_x / n) / sx);
  m->golden_std = small_as_zero (sqrt (acc->dev_y / n) / sy);
  m->mean_absolute_error = acc->abs_sum / n / sd;
  m->root_mean_square_error = sqrt (acc->dd / n) / sd;
  m->max_relative_error = acc->rel_max;
  m->mean_relative_error = acc->rel_sum / n;
}

/**
 * ovi_diff_metrics_compute:
 *
 * The ten metrics of two whole arrays (both passes at once), for tests and
 * small tensors.
 */
void
ovi_diff_metrics_compute (const double *mine,
                          const double *golden,
                          gsize n,
                          OviDiffMetrics *metrics)
{
  OviDiffAccumulator acc;

  ovi_diff_accumulator_init (&acc, 0, 0, 0);
  ovi_diff_accumulator_pass1 (&acc, mine, golden, n);
  ovi_diff_accumulator_begin_pass2 (&acc);
  ovi_diff_accumulator_pass2 (&acc, mine, golden, n, 0);
  ovi_diff_accumulator_finish (&acc, metrics);
  ovi_diff_accumulator_clear (&acc);
}

/* As the vendor prints a metric: six decimals, "nan", "inf", "-inf". */
char *
ovi_diff_format_value (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 64];

  if (isnan (value))
    return g_strdup ("nan");
  if (isinf (value))
    return g_strdup (value > 0 ? "inf" : "-inf");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6f", value));
}

/* "(mean;std),(mean;std)" with three decimals, mine first. */
char *
ovi_diff_format_standard_deviation (const OviDiffMetrics *m)
{
  char a[64], b[64], c[64], d[64];

  if (m->n == 0)
    return g_strdup ("nan");
  return g_strdup_printf ("(%s;%s),(%s;%s)", g_ascii_formatd (a, sizeof a, "%.3f", m->mine_mean),
                          g_ascii_formatd (b, sizeof b, "%.3f", m->mine_std),
                          g_ascii_formatd (c, sizeof c, "%.3f", m->golden_mean),
                          g_ascii_formatd (d, sizeof d, "%.3f", m->golden_std));
}
