/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-diff-agreement.h"

/* The agreement model's constants and where they come from (the facts are
 * gathered in the project's diff-precision notes):
 *
 * u, the unit roundoff (half the distance from 1 to the next number),
 *   from each format's mantissa bits: float64 2^-53, float32 2^-24,
 *   float16 2^-11, bfloat16 2^-8, float8_e4m3fn 2^-4, float8_e5m2 and
 *   hifloat8 (two mantissa bits in its middle range) 2^-3.
 * u_acc, the accumulator's: the cube unit multiplies float16 or bfloat16
 *   and holds float32 partial sums in L0C, then rounds the output once;
 *   so float32's, or float64's for a float64 pair.
 * R·u, the relative part: each side's output is rounded once (2u), and an
 *   operator's inputs carry the rounding of the operators before them.
 *   msprobe's accumulative error bound for float16 is 2^-8 = 8u
 *   (api_accuracy_checker's standard_config.py); R = 16 is twice that.
 * A·u·S, the part judged against the tensor's scale S: an element near
 *   zero is judged against S, not its own magnitude. A sum of rounded
 *   terms is off by about u·(the terms' size), not u·|result| (Higham,
 *   Accuracy and Stability of Numerical Algorithms, ch. 3: the typical
 *   error grows like √n·u·|terms| while S grows like √n·|terms|), and the
 *   largest of thousands of such errors is several times the typical one.
 * B·√n·u_acc, the accumulation: rounding at each partial sum adds up like
 *   a random walk, √n·u_acc; B = 4 standard deviations. It is added to
 *   both parts: an Exp turns its input's absolute error into a relative
 *   one. Every tensor is given at least OVI_DIFF_REDUCTION_FLOOR terms: an
 *   operator passes on the accumulation error of the reductions before it,
 *   and an input is judged as the output of an operator not named.
 *
 * R and A measured on the fixture networks (tests/core/test-diff-precision.c,
 * float16 against float32, and float32 summed in two orders): R = 4 or
 * A = 8 calls an operator of the transformer block divergent before its
 * overflow; A = 128 misses a column shifted by 5% of its RMS. R = 16 and
 * A = 32 sit 2 to 4 times inside both: float16 against float32 gives
 * rtol 0.0078 and atol 0.016·S; a float32 pair rtol 1.6e-5 and atol
 * 1.7e-5·S, so one element changed by 1e-3 of itself is out. */

#define R 16.0
#define A 32.0
#define B 4.0

/**
 * ovi_diff_unit_roundoff:
 *
 * Returns: half the distance from 1 to the next value of @dtype; 0 for
 * the exact types (integers, bool, float8_e8m0, whose one step doubles)
 */
double
ovi_diff_unit_roundoff (OviDtype dtype)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT64:
    case OVI_DTYPE_COMPLEX128:
      return 0x1p-53;
    case OVI_DTYPE_FLOAT32:
    case OVI_DTYPE_COMPLEX64:
      return 0x1p-24;
    case OVI_DTYPE_FLOAT16:
    case OVI_DTYPE_COMPLEX32:
      return 0x1p-11;
    case OVI_DTYPE_BFLOAT16:
      return 0x1p-8;
    case OVI_DTYPE_FLOAT8_E4M3FN:
      return 0x1p-4;
    case OVI_DTYPE_FLOAT8_E5M2:
    case OVI_DTYPE_HIFLOAT8:
      return 0x1p-3;
    default:
      return 0;
    }
}

static guint64
count_of (const guint64 *shape, guint n_dims)
{
  guint64 n = 1;

  for (guint i = 0; i < n_dims; i++)
    n *= shape[i];
  return n;
}

static gboolean
has (const char *op_type, const char *part)
{
  return op_type && strstr (op_type, part) != NULL;
}

/**
 * ovi_diff_reduction_length:
 * @op_type: (nullable): the operator's type; NULL when unknown
 * @input0: (nullable): the shape of its input 0
 * @input1: (nullable): the shape of its input 1
 * @output_count: the elements of its output
 *
 * How many terms the operator sums for one output element: the shared
 * dimension of a MatMul (BatchMatMul, MatMulV2, …), input channels × kernel
 * of a Conv (its weight's elements over its output channels), the reduced
 * elements of a Reduce*, the last axis of a norm or softmax; 1 otherwise.
 */
guint64
ovi_diff_reduction_length (const char *op_type,
                           const guint64 *input0,
                           guint n_input0,
                           const guint64 *input1,
                           guint n_input1,
                           guint64 output_count)
{
  if (input0 == NULL || n_input0 == 0)
    return 1;
  if (has (op_type, "MatMul") || has (op_type, "GEMM") || has (op_type, "Gemm"))
    {
      guint64 last = input0[n_input0 - 1];
      /* A transposed first input shares its second-to-last dimension. */
      if (n_input0 >= 2 && input1 && n_input1 >= 2 && last != input1[n_input1 - 2] &&
          last != input1[n_input1 - 1])
        return input0[n_input0 - 2];
      return last;
    }
  if (g_str_has_prefix (op_type ?: "", "Conv") && !has (op_type, "Backprop") && input1 &&
      n_input1 >= 2 && input1[0] > 0)
    return count_of (input1, n_input1) / input1[0];
  if (g_str_has_prefix (op_type ?: "", "Reduce") && output_count > 0)
    return MAX (count_of (input0, n_input0) / output_count, 1);
  if (has (op_type, "Norm") || has (op_type, "Softmax") || has (op_type, "L2Loss"))
    return input0[n_input0 - 1];
  return 1;
}

/**
 * ovi_diff_agreement_tolerance:
 * @reduction_length: ovi_diff_reduction_length() of the operator that made
 *   the tensor
 * @scale: the RMS of the golden's finite values
 *
 * The tolerance of one tensor pair: |mine − golden| ≤ @atol + @rtol·|golden|.
 * A float type against an integer one takes the float's precision; two
 * exact types compare exactly.
 */
void
ovi_diff_agreement_tolerance (OviDtype mine,
                              OviDtype golden,
                              guint64 reduction_length,
                              double scale,
                              double *rtol,
                              double *atol)
{
  double um = ovi_diff_unit_roundoff (mine), ug = ovi_diff_unit_roundoff (golden);
  double u = MAX (um, ug); /* the lower precision; a float's against an integer */
  double u_acc = MIN (u, 0x1p-24);
  double n = MAX (reduction_length, OVI_DIFF_REDUCTION_FLOOR);

  if (u == 0 || !isfinite (scale))
    scale = 0;
  *rtol = R * u + B * sqrt (n) * u_acc;
  *atol = scale * (A * u + B * sqrt (n) * u_acc);
}

/* Statistics mode. A statistics-mode dump keeps each tensor's max, min,
 * mean (over its finite values) and, from msprobe, its L2 norm; a pair of
 * such tensors is judged by the same model, carried from the elements to
 * the statistics: where every element agrees, |mᵢ − gᵢ| ≤ atol + rtol·|gᵢ|,
 *
 *   max, min   differ by at most  atol + rtol·M      M = max |gᵢ| (the
 *                                                    golden's larger end)
 *   mean       by at most         atol + rtol·S
 *   L2 norm    by at most         √N·atol + rtol·‖g‖  (triangle inequality)
 *
 * so statistics never differ where the values would agree. S, the scale
 * atol is taken from, is the golden's RMS, ‖g‖/√N, where the norm is
 * known, else M (an upper bound of the RMS: looser, never stricter).
 * Statistics printed as text (the runtime's C++ streams, six significant
 * digits) carry a rounding of up to 5e-6 of each value on each side: it
 * is added, 5e-6·(|m| + |g|). NaN or ±Inf as a statistic agrees only with
 * the same on the other side, and NaN, −Inf and +Inf counts known on both
 * sides must be equal, whatever the tolerance. This is coarser than
 * comparing values (a change that keeps all four statistics is not seen)
 * and looser than msprobe's own check of statistics, which warns only
 * when a statistic moves by half its magnitude (MAGNITUDE = 0.5 in its
 * compare's get_rela_diff_summary_mode). */

#define PRINT_ROUNDING 5e-6

/**
 * ovi_diff_statistics_judge:
 * @s: the statistics of both sides and @s->compared set; fills
 *   @s->tolerance and @s->differs
 * @finite: the golden's finite values (N above)
 * @rtol: NaN for the model's
 * @atol: NaN for the model's
 * @printed: a side's statistics were read from text of six digits
 * @out_rtol: (out): the relative tolerance used
 * @out_atol: (out): the absolute tolerance used
 *
 * Returns: the number of statistics out of tolerance
 */
guint
ovi_diff_statistics_judge (OviDiffStatistics *s,
                           OviDtype mine,
                           OviDtype golden,
                           guint64 reduction_length,
                           guint64 finite,
                           double rtol,
                           double atol,
                           gboolean printed,
                           double *out_rtol,
                           double *out_atol)
{
  const double *g = s->golden, *m = s->mine;
  double big = 0, scale, mrtol, matol;
  guint n = 0;

  for (guint k = OVI_DIFF_STAT_MAX; k <= OVI_DIFF_STAT_MIN; k++)
    if (isfinite (g[k]))
      big = MAX (big, fabs (g[k]));
  if (isfinite (g[OVI_DIFF_STAT_NORM]) && finite > 0)
    scale = g[OVI_DIFF_STAT_NORM] / sqrt ((double) finite);
  else
    scale = big;
  ovi_diff_agreement_tolerance (mine, golden, reduction_length, scale, &mrtol, &matol);
  *out_rtol = isnan (rtol) ? mrtol : rtol;
  *out_atol = isnan (atol) ? matol : atol;
  s->differs = 0;
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    {
      double tol;

      s->tolerance[k] = NAN;
      if (!(s->compared & (1u << k)))
        continue;
      if (!isfinite (m[k]) || !isfinite (g[k]))
        {
          /* NaN agrees with NaN, an infinity with the same infinity. */
          if (!((isnan (m[k]) && isnan (g[k])) || m[k] == g[k]))
            s->differs |= 1u << k;
          continue;
        }
      switch (k)
        {
        case OVI_DIFF_STAT_MEAN:
          tol = *out_atol + *out_rtol * scale;
          break;
        case OVI_DIFF_STAT_NORM:
          tol = sqrt ((double) finite) * *out_atol + *out_rtol * fabs (g[k]);
          break;
        default:
          tol = *out_atol + *out_rtol * MAX (big, fabs (g[k]));
        }
      if (printed)
        tol += PRINT_ROUNDING * (fabs (m[k]) + fabs (g[k]));
      s->tolerance[k] = tol;
      if (!(fabs (m[k] - g[k]) <= tol))
        s->differs |= 1u << k;
    }
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    n += (s->differs >> k) & 1;
  return n;
}
