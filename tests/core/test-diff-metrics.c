/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ovi-diff-agreement.h"
#include "ovi-fixtures.h"

/* The ten metrics on small arrays whose values were worked out from the
 * definitions (ovi-diff-metrics.c's comment, msaccucmp's formulas), by
 * hand where they are round and with a few lines of Python's math module
 * where they are not, never from this code. Compared as the vendor prints
 * them, to six decimals. */

static void
assert_value (double value, const char *expected)
{
  g_autofree char *text = ovi_diff_format_value (value);
  g_assert_cmpstr (text, ==, expected);
}

static void
test_values (void)
{
  const double x[] = { 1, 2, 3, 4 }, y[] = { 1, 2, 3, 5 };
  const double x2[] = { 0.5, -1.5, 2.0 }, y2[] = { 0.25, -1.0, 4.0 };
  OviDiffMetrics m;
  g_autofree char *std = NULL, *std2 = NULL;

  ovi_diff_metrics_compute (x, y, 4, &m);
  g_assert_cmpuint (m.n, ==, 4);
  assert_value (m.cosine, "0.993999"); /* 34 / √(30·39) */
  assert_value (m.max_absolute_error, "1.000000");
  assert_value (m.accumulated_relative_error, "0.200000");  /* |4/5 − 1| */
  assert_value (m.relative_euclidean_distance, "0.160128"); /* √(1/39) */
  assert_value (m.kl_divergence, "0.010310");
  assert_value (m.mean_absolute_error, "0.250000");
  assert_value (m.root_mean_square_error, "0.500000");
  assert_value (m.max_relative_error, "0.200000");
  assert_value (m.mean_relative_error, "0.050000");
  std = ovi_diff_format_standard_deviation (&m);
  g_assert_cmpstr (std, ==, "(2.500;1.118),(2.750;1.479)");

  ovi_diff_metrics_compute (x2, y2, 3, &m);
  assert_value (m.cosine, "0.913951");
  assert_value (m.max_absolute_error, "2.000000");
  assert_value (m.accumulated_relative_error, "2.000000"); /* 1 + 0.5 + 0.5 */
  assert_value (m.relative_euclidean_distance, "0.502740");
  assert_value (m.kl_divergence, "0.071769");
  assert_value (m.mean_absolute_error, "0.916667");
  assert_value (m.root_mean_square_error, "1.198958");
  assert_value (m.max_relative_error, "1.000000");
  assert_value (m.mean_relative_error, "0.666667");
  std2 = ovi_diff_format_standard_deviation (&m);
  g_assert_cmpstr (std2, ==, "(0.333;1.434),(1.083;2.125)");
}

/* A scalar: cosine the sign of the product (the vendor's 1 by rule would
 * call −3 against 1.5 alike); KL of one value against one value is 0. */
static void
test_scalar (void)
{
  const double x[] = { 3 }, y[] = { 2 };
  OviDiffMetrics m;
  g_autofree char *std = NULL;

  ovi_diff_metrics_compute (x, y, 1, &m);
  assert_value (m.cosine, "1.000000");
  g_assert_null (m.cosine_note);
  assert_value (m.max_absolute_error, "1.000000");
  assert_value (m.relative_euclidean_distance, "0.500000");
  assert_value (m.kl_divergence, "0.000000");
  assert_value (m.max_relative_error, "0.500000");
  std = ovi_diff_format_standard_deviation (&m);
  g_assert_cmpstr (std, ==, "(3.000;0.000),(2.000;0.000)");

  ovi_diff_metrics_compute ((const double[]){ -3 }, (const double[]){ 1.5 }, 1, &m);
  assert_value (m.cosine, "-1.000000");
}

/* Values whose squares overflow float64 (issue 39, item 3): opposite
 * tensors have cosine −1, never a NaN turned into 1; the errors of sides
 * near the largest double stay finite where they are. */
static void
test_huge (void)
{
  const double x[] = { 1e200, -2e200, 3e300, 5e250 }, y[] = { -1e200, 2e200, -3e300, -5e250 };
  const double big[] = { 1.5e308, -1.5e308, 1e308, 1 }, big2[] = { 1.5e308, -1.5e308, 1e308, 3 };
  OviDiffMetrics m;

  ovi_diff_metrics_compute (x, y, 4, &m);
  assert_value (m.cosine, "-1.000000");
  assert_value (m.relative_euclidean_distance, "2.000000");
  g_assert_cmpfloat_with_epsilon (m.root_mean_square_error / 3e300, 1, 1e-12);
  ovi_diff_metrics_compute (big, big2, 4, &m);
  assert_value (m.cosine, "1.000000");
  assert_value (m.max_absolute_error, "2.000000");
  assert_value (m.mean_absolute_error, "0.500000");
  g_assert_true (isfinite (m.root_mean_square_error));
  g_assert_cmpfloat_with_epsilon (m.golden_mean / 2.5e307, 1, 1e-12);
}

static void
test_all_zero (void)
{
  const double zero[] = { 0, 0, 0 }, y[] = { 1, 2, 3 };
  OviDiffMetrics m;

  /* Both sides all zero: cosine 1, the rest 0. */
  ovi_diff_metrics_compute (zero, zero, 3, &m);
  assert_value (m.cosine, "1.000000");
  assert_value (m.relative_euclidean_distance, "0.000000");
  assert_value (m.max_relative_error, "0.000000");
  assert_value (m.kl_divergence, "0.000000");

  /* Mine all zero: the vendor gives no cosine. */
  ovi_diff_metrics_compute (zero, y, 3, &m);
  assert_value (m.cosine, "nan");
  g_assert_cmpstr (m.cosine_note, ==, "my side is all zero");
  assert_value (m.relative_euclidean_distance, "1.000000");
  assert_value (m.max_relative_error, "1.000000");
  assert_value (m.mean_absolute_error, "2.000000");

  /* The golden side all zero: no cosine; relative errors skip |y| ≤ ε and
   * the relative distance is 0 by rule. */
  ovi_diff_metrics_compute (y, zero, 3, &m);
  assert_value (m.cosine, "nan");
  g_assert_cmpstr (m.cosine_note, ==, "the golden side is all zero");
  assert_value (m.relative_euclidean_distance, "0.000000");
  assert_value (m.accumulated_relative_error, "0.000000");
  assert_value (m.max_absolute_error, "3.000000");
}

/* NaN and ±Inf by position: matching ones agree and are left out of the
 * metrics, mismatched ones are counted and out of tolerance. */
static void
test_nonfinite (void)
{
  const double x[] = { 1, NAN, INFINITY, 2, -INFINITY, -INFINITY };
  const double y[] = { 1, NAN, INFINITY, 3, INFINITY, -INFINITY };
  const double same[] = { 1, NAN, INFINITY, 3, INFINITY, -INFINITY };
  OviDiffAccumulator acc;
  OviDiffMetrics m;

  ovi_diff_accumulator_init (&acc, 0, 0.5, 4);
  ovi_diff_accumulator_pass1 (&acc, x, y, 3);
  ovi_diff_accumulator_pass1 (&acc, x + 3, y + 3, 3);
  ovi_diff_accumulator_begin_pass2 (&acc);
  ovi_diff_accumulator_pass2 (&acc, x, y, 3, 0);
  ovi_diff_accumulator_pass2 (&acc, x + 3, y + 3, 3, 3);
  ovi_diff_accumulator_finish (&acc, &m);
  g_assert_cmpuint (m.n, ==, 2);
  g_assert_cmpuint (acc.matching_nonfinite, ==, 3);
  g_assert_cmpuint (acc.nonfinite_mismatch, ==, 1);
  g_assert_cmpuint (acc.out_of_tolerance, ==, 2); /* 2 against 3, −Inf against +Inf */
  g_assert_cmpint (acc.first_difference, ==, 3);
  g_assert_cmpfloat (acc.first_mine, ==, 2);
  g_assert_cmpfloat (acc.first_golden, ==, 3);
  g_assert_false (acc.identical);
  g_assert_cmpuint (acc.n_top, ==, 2);
  g_assert_cmpuint (acc.top[0].index, ==, 4);
  g_assert_true (isinf (acc.top[0].difference));
  g_assert_cmpuint (acc.top[1].index, ==, 3);
  g_assert_cmpfloat (acc.top[1].difference, ==, 1);
  /* over [1, 2] against [1, 3] */
  assert_value (m.max_absolute_error, "1.000000");
  assert_value (m.mean_absolute_error, "0.500000");
  assert_value (m.cosine, "0.989949"); /* 7 / √(5·10) */
  ovi_diff_accumulator_clear (&acc);

  /* The same non-finite positions on both sides: identical. */
  ovi_diff_accumulator_init (&acc, 0, 0, 4);
  ovi_diff_accumulator_pass1 (&acc, same, y, 6);
  ovi_diff_accumulator_begin_pass2 (&acc);
  ovi_diff_accumulator_pass2 (&acc, same, y, 6, 0);
  ovi_diff_accumulator_finish (&acc, &m);
  g_assert_true (acc.identical);
  g_assert_cmpuint (acc.out_of_tolerance, ==, 0);
  g_assert_cmpuint (acc.nonfinite_mismatch, ==, 0);
  g_assert_cmpint (acc.first_difference, ==, -1);
  assert_value (m.cosine, "1.000000");
  ovi_diff_accumulator_clear (&acc);

  /* Nothing finite on both sides: every metric NaN. */
  ovi_diff_metrics_compute (x + 1, y + 1, 2, &m);
  g_assert_cmpuint (m.n, ==, 0);
  assert_value (m.cosine, "nan");
  assert_value (m.max_absolute_error, "nan");
}

/* |x − y| ≤ atol + rtol·|y|, the bound itself included; the largest
 * differences kept largest first. */
static void
test_tolerance (void)
{
  const double x[] = { 1.5, 10.25, 100, -4, 7 };
  const double y[] = { 1, 10, 101, -4, 7 };
  OviDiffAccumulator acc;
  OviDiffMetrics m;

  g_assert_true (ovi_diff_agrees (1.5, 1, 0.25, 0.25));
  g_assert_false (ovi_diff_agrees (1.5, 1, 0.25, 0.24));
  g_assert_true (ovi_diff_agrees (-2, -2.5, 0.2, 0));
  g_assert_false (ovi_diff_agrees (NAN, 1, 1, 1));

  ovi_diff_accumulator_init (&acc, 0.01, 0.25, 2);
  ovi_diff_accumulator_pass1 (&acc, x, y, 5);
  ovi_diff_accumulator_begin_pass2 (&acc);
  ovi_diff_accumulator_pass2 (&acc, x, y, 5, 10);
  ovi_diff_accumulator_finish (&acc, &m);
  /* 0.5 > 0.26: out; 0.25 ≤ 0.35: in; 1 ≤ 1.26: in */
  g_assert_cmpuint (acc.out_of_tolerance, ==, 1);
  g_assert_cmpint (acc.first_difference, ==, 10);
  g_assert_cmpuint (acc.n_top, ==, 2);
  g_assert_cmpuint (acc.top[0].index, ==, 12);
  g_assert_cmpuint (acc.top[1].index, ==, 10);
  g_assert_false (acc.identical);
  ovi_diff_accumulator_clear (&acc);
}

/* The second pass of two equal sides gives what the general one gives. */
static void
test_same (void)
{
  const double x[] = { 1.5, -2, NAN, 1e-3, INFINITY, 7, 0, -0.25, 3e5 };
  OviDiffAccumulator general, same;
  OviDiffMetrics a, b;
  g_autofree char *sa = NULL, *sb = NULL;

  ovi_diff_accumulator_init (&general, 0, 0, 4);
  ovi_diff_accumulator_init (&same, 0, 0, 4);
  ovi_diff_accumulator_pass1 (&general, x, x, G_N_ELEMENTS (x));
  ovi_diff_accumulator_pass1_same (&same, x, G_N_ELEMENTS (x));
  ovi_diff_accumulator_begin_pass2 (&general);
  ovi_diff_accumulator_begin_pass2 (&same);
  ovi_diff_accumulator_pass2 (&general, x, x, G_N_ELEMENTS (x), 0);
  ovi_diff_accumulator_pass2_same (&same, x, G_N_ELEMENTS (x));
  ovi_diff_accumulator_finish (&general, &a);
  ovi_diff_accumulator_finish (&same, &b);
  g_assert_true (general.identical && same.identical);
  g_assert_cmpuint (general.matching_nonfinite, ==, same.matching_nonfinite);
  /* the agreement model's scale, from either */
  g_assert_cmpfloat_with_epsilon (ovi_diff_accumulator_golden_rms (&general) /
                                      ovi_diff_accumulator_golden_rms (&same),
                                  1, 1e-15);
  g_assert_cmpuint (a.n, ==, 7);
  g_assert_cmpuint (b.n, ==, 7);
  g_assert_cmpfloat (a.cosine, ==, b.cosine);
  g_assert_cmpfloat (a.kl_divergence, ==, 0);
  g_assert_cmpfloat (b.kl_divergence, ==, 0);
  g_assert_cmpfloat (a.relative_euclidean_distance, ==, b.relative_euclidean_distance);
  g_assert_cmpfloat (a.mine_std, ==, b.mine_std);
  g_assert_cmpfloat (a.golden_mean, ==, b.golden_mean);
  g_assert_cmpfloat (b.max_absolute_error, ==, 0);
  g_assert_cmpfloat (b.mean_relative_error, ==, 0);
  sa = ovi_diff_format_standard_deviation (&a);
  sb = ovi_diff_format_standard_deviation (&b);
  g_assert_cmpstr (sa, ==, sb);
  ovi_diff_accumulator_clear (&general);
  ovi_diff_accumulator_clear (&same);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/diff-metrics/values", test_values);
  g_test_add_func ("/core/diff-metrics/scalar", test_scalar);
  g_test_add_func ("/core/diff-metrics/huge", test_huge);
  g_test_add_func ("/core/diff-metrics/all-zero", test_all_zero);
  g_test_add_func ("/core/diff-metrics/nonfinite", test_nonfinite);
  g_test_add_func ("/core/diff-metrics/tolerance", test_tolerance);
  g_test_add_func ("/core/diff-metrics/same", test_same);
  return g_test_run ();
}
