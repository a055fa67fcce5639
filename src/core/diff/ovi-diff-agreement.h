/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <math.h>

#include "ovi-diff-metrics.h"
#include "ovi-dtype.h"

G_BEGIN_DECLS

/* The agreement model: whether my value agrees with the golden one is
 * judged against what the lower precision of the pair can explain (the
 * README's "Agreement"; constants and sources in ovi-diff-agreement.c).
 *
 *   u      the unit roundoff of the lower precision of the pair (0: exact)
 *   u_acc  the accumulator's: float32's for float32 and narrower (the
 *          cube's L0C and the vector unit's reductions hold float32
 *          partial sums), u itself for float64
 *   S      the tensor's scale: the RMS of the golden's finite values
 *   n      the reduction length: the terms the operator summed for each
 *          output element, at least OVI_DIFF_REDUCTION_FLOOR
 *
 *   rtol = R·u + B·√n·u_acc        atol = S·(A·u + B·√n·u_acc)
 *   R = 16, A = 32, B = 4
 *   |mine − golden| ≤ atol + rtol·|golden|, and NaN or ±Inf agree only
 *   with the same NaN or infinity.
 *
 * One tolerance a tensor pair: what the CLI, the JSON, the CSV and the
 * window show, and what the pair view's strip counts with. */

#define OVI_DIFF_REDUCTION_FLOOR 4096

double ovi_diff_unit_roundoff (OviDtype dtype);
guint64 ovi_diff_reduction_length (const char *op_type,
                                   const guint64 *input0,
                                   guint n_input0,
                                   const guint64 *input1,
                                   guint n_input1,
                                   guint64 output_count);
void ovi_diff_agreement_tolerance (OviDtype mine,
                                   OviDtype golden,
                                   guint64 reduction_length,
                                   double scale,
                                   double *rtol,
                                   double *atol);

guint ovi_diff_statistics_judge (OviDiffStatistics *s,
                                 OviDtype mine,
                                 OviDtype golden,
                                 guint64 reduction_length,
                                 guint64 finite,
                                 double rtol,
                                 double atol,
                                 gboolean printed,
                                 double *out_rtol,
                                 double *out_atol);

/* One element: the tolerance test, NaN and ±Inf by position. */
static inline gboolean
ovi_diff_agrees (double mine, double golden, double rtol, double atol)
{
  if (isnan (mine) || isnan (golden))
    return isnan (mine) && isnan (golden);
  if (isinf (mine) || isinf (golden))
    return mine == golden;
  return fabs (mine - golden) <= atol + rtol * fabs (golden);
}

G_END_DECLS
