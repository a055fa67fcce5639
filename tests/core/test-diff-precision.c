/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-fixture-net.h"
#include "ovi-fixtures.h"

/* The agreement model on whole runs (issue 36, case 1): networks computed
 * as the NPU computes them (tests/fixtures/ovi-fixture-net.c), a float16 run
 * against its float32 golden. Rounding that float16 explains is never a
 * divergence; the overflow is the first divergence; a kernel bug of a few
 * percent of a tensor's scale, or one element off by 1e-3 in float32, is. */

typedef OviTmpDir Fixture;

typedef struct
{
  OviNet net;
  const char *op;
} Case;

static OviDiffResult *
diff_runs (Fixture *f, const OviNetRun *mine, const OviNetRun *golden)
{
  g_autofree char *a = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "golden", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (a, b);
  g_autoptr (GError) error = NULL;
  OviDiffResult *result;

  ovi_fixture_write_net (a, mine);
  ovi_fixture_write_net (b, golden);
  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  return result;
}

static gboolean
agrees (OviDiffOperator *op)
{
  OviDiffOpClass c = ovi_diff_operator_get_op_class (op);
  return c == OVI_DIFF_OP_IDENTICAL || c == OVI_DIFF_OP_WITHIN_TOLERANCE;
}

/* Every operator of @net before @first agrees; @first is the first
 * divergence, an origin (@first NULL: every operator agrees). */
static void
assert_first (OviDiffResult *result, OviNet net, const char *first)
{
  g_auto (GStrv) names = ovi_fixture_net_op_names (net);
  OviDiffOperator *divergence = ovi_diff_result_get_first_divergence (result);

  for (guint i = 0; names[i] && g_strcmp0 (names[i], first) != 0; i++)
    {
      OviDiffOperator *op = ovi_fixture_diff_find (result, names[i]);
      const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (op);

      g_test_message ("%s: %s, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                      " out of tolerance, max abs %g, atol %g",
                      names[i], ovi_diff_op_class_name (ovi_diff_operator_get_op_class (op)),
                      t ? t->out_of_tolerance : 0, t ? t->count : 0,
                      t ? t->metrics.max_absolute_error : NAN, t ? t->atol : NAN);
      g_assert_true (agrees (op));
    }
  if (first == NULL)
    {
      g_assert_null (divergence);
      return;
    }
  g_assert_nonnull (divergence);
  g_assert_cmpstr (ovi_diff_operator_get_name (divergence), ==, first);
  g_assert_cmpint (ovi_diff_operator_get_op_class (divergence), ==, OVI_DIFF_OP_ORIGIN);
}

/* Issue 36, case 1: the MLP, float16 against float32; it overflows at Mul
 * (Inf where the golden holds tens of thousands), and an Opdebug record
 * names it. */
static void
test_mlp (Fixture *f, gconstpointer data)
{
  OviNetRun mine, golden;
  g_autoptr (OviDiffResult) result = NULL;
  OviDiffOperator *mul;

  ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT16);
  ovi_net_run_init (&golden, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  result = diff_runs (f, &mine, &golden);
  assert_first (result, OVI_NET_MLP, OVI_NET_MLP_OVERFLOW);
  mul = ovi_fixture_diff_find (result, OVI_NET_MLP_OVERFLOW);
  g_assert_cmpuint (ovi_diff_operator_get_mine_overflows (mul), ==, 1);
  g_assert_cmpuint (ovi_diff_operator_get_worst_tensor (mul)->nonfinite_mismatch, >, 0);
}

/* A transformer block of 24 operators with reductions of 64 to 256 terms:
 * the same. */
static void
test_transformer (Fixture *f, gconstpointer data)
{
  OviNetRun mine, golden;
  g_autoptr (OviDiffResult) result = NULL;
  g_auto (GStrv) names = ovi_fixture_net_op_names (OVI_NET_TRANSFORMER);

  g_assert_cmpuint (g_strv_length (names), >=, 20);
  ovi_net_run_init (&mine, OVI_NET_TRANSFORMER, OVI_DTYPE_FLOAT16);
  ovi_net_run_init (&golden, OVI_NET_TRANSFORMER, OVI_DTYPE_FLOAT32);
  result = diff_runs (f, &mine, &golden);
  assert_first (result, OVI_NET_TRANSFORMER, OVI_NET_TRANSFORMER_OVERFLOW);
  g_assert_cmpuint (ovi_diff_operator_get_mine_overflows (
                        ovi_fixture_diff_find (result, OVI_NET_TRANSFORMER_OVERFLOW)),
                    ==, 1);
}

/* A kernel bug in a float16 run: one column of a MatMul's output shifted
 * by 5% of the output's RMS. It is the first divergence. */
static void
test_column_bug (Fixture *f, gconstpointer data)
{
  const Case ops[] = { { OVI_NET_MLP, "net/fc2/MatMul" },
                       { OVI_NET_TRANSFORMER, "block/ffn/fc2/MatMul" },
                       { OVI_NET_TRANSFORMER, "block/attn/v/MatMul" } };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      OviNet net = ops[i].net;
      OviNetRun mine, golden;
      g_autoptr (OviDiffResult) result = NULL;
      g_autofree char *dir = g_build_filename (f->dir, ops[i].op, NULL);
      Fixture sub = { dir };

      ovi_net_run_init (&mine, net, OVI_DTYPE_FLOAT16);
      ovi_net_run_init (&golden, net, OVI_DTYPE_FLOAT32);
      mine.bug_op = ops[i].op;
      mine.bug_column = 5;
      mine.bug_shift = 0.05;
      result = diff_runs (&sub, &mine, &golden);
      assert_first (result, net, ops[i].op);
    }
}

/* Two float32 runs whose kernels sum in opposite orders agree everywhere;
 * one element changed by 1e-3 of itself is the first divergence. */
static void
test_float32_element (Fixture *f, gconstpointer data)
{
  const Case ops[] = { { OVI_NET_MLP, "net/fc2/MatMul" },
                       { OVI_NET_TRANSFORMER, "block/ln2/LayerNorm" },
                       { OVI_NET_TRANSFORMER, "block/ffn/fc1/MatMul" } };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      OviNet net = ops[i].net;
      OviNetRun mine, golden;
      g_autoptr (OviDiffResult) same = NULL, result = NULL;
      g_autofree char *dir = g_build_filename (f->dir, ops[i].op, NULL);
      g_autofree char *dir2 = g_build_filename (f->dir, ops[i].op, "nudged", NULL);
      Fixture sub = { dir }, sub2 = { dir2 };

      ovi_net_run_init (&mine, net, OVI_DTYPE_FLOAT32);
      ovi_net_run_init (&golden, net, OVI_DTYPE_FLOAT32);
      mine.reversed = TRUE;
      same = diff_runs (&sub, &mine, &golden);
      assert_first (same, net, NULL);

      mine.nudge_op = ops[i].op;
      mine.nudge_index = 77;
      mine.nudge = 1e-3;
      result = diff_runs (&sub2, &mine, &golden);
      assert_first (result, net, ops[i].op);
    }
}

/* Writes ROOT/{mine,golden}/0/net/1/1/ with one operator "net/Op" whose
 * output holds @n elements of @dtype (raw little-endian bytes), the input
 * one zero. */
static void
write_raw (Fixture *f, const char *side, int dtype, const void *raw, gsize size, guint64 n)
{
  g_autofree char *dir = g_build_filename (f->dir, side, "0", "net", "1", "1", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Op");
  g_autoptr (GBytes) zero = ovi_fixture_encode (dtype, (const double[]){ 0 }, 1);
  g_autoptr (GBytes) data = g_bytes_new (raw, size);
  const guint64 one[] = { 1 }, shape[] = { n };

  ovi_dump_writer_set_dump_time (w, OVI_DIFF_FIXTURE_T0 + 100);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, dtype, 2, one, 1, zero);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, dtype, 2, shape, 1, data);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, "Cast.net_Op.1.7.1764670500000100"));
}

static const OviDiffTensor *
output_of (OviDiffResult *result)
{
  OviDiffOperator *op = ovi_fixture_diff_find (result, "net/Op");
  return ovi_diff_operator_get_tensor (op, ovi_diff_operator_get_n_tensors (op) - 1);
}

static OviDiffResult *
diff_written (Fixture *f)
{
  g_autofree char *a = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "golden", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (a, b);
  g_autoptr (GError) error = NULL;
  OviDiffResult *result = ovi_diff_run (diff, NULL, &error);

  g_assert_no_error (error);
  return result;
}

static void
assert_value (double value, const char *expected)
{
  g_autofree char *text = ovi_diff_format_value (value);
  g_assert_cmpstr (text, ==, expected);
}

/* Issue 36, case 8: a scalar −3 against 1.5 has cosine −1, not 1. */
static void
test_scalar_sign (Fixture *f, gconstpointer data)
{
  const float mine[] = { -3 }, golden[] = { 1.5 };
  g_autoptr (OviDiffResult) result = NULL;

  write_raw (f, "mine", OVI_DTYPE_FLOAT32, mine, sizeof mine, 1);
  write_raw (f, "golden", OVI_DTYPE_FLOAT32, golden, sizeof golden, 1);
  result = diff_written (f);
  assert_value (output_of (result)->metrics.cosine, "-1.000000");
  g_assert_cmpint (ovi_diff_operator_get_op_class (ovi_fixture_diff_find (result, "net/Op")), ==,
                   OVI_DIFF_OP_ORIGIN);
}

/* Issue 39, item 2: 64-bit integers compare exactly. [2^53 + 1] against
 * [2^53] differs by 1 (float64 holds neither difference nor value), and
 * the CLI exits 5. */
static void
test_int64 (Fixture *f, gconstpointer data)
{
  const gint64 mine[] = { GINT64_TO_LE ((G_GINT64_CONSTANT (1) << 53) + 1), GINT64_TO_LE (-7) };
  const gint64 golden[] = { GINT64_TO_LE (G_GINT64_CONSTANT (1) << 53), GINT64_TO_LE (-7) };
  const guint64 umine[] = { GUINT64_TO_LE (G_MAXUINT64) },
                ugolden[] = { GUINT64_TO_LE (G_MAXUINT64 - 1) };
  g_autoptr (OviDiffResult) result = NULL;
  g_autofree char *a = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *out = NULL;
  const OviDiffTensor *t;

  write_raw (f, "mine", OVI_DTYPE_INT64, mine, sizeof mine, 2);
  write_raw (f, "golden", OVI_DTYPE_INT64, golden, sizeof golden, 2);
  result = diff_written (f);
  t = output_of (result);
  g_assert_cmpint (t->tensor_class, ==, OVI_DIFF_TENSOR_DIFFERS);
  g_assert_cmpuint (t->out_of_tolerance, ==, 1);
  g_assert_cmpint (t->first_difference, ==, 0);
  assert_value (t->metrics.max_absolute_error, "1.000000");
  assert_value (t->metrics.mean_absolute_error, "0.500000");
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", a, b, NULL), ==, 5);
  g_clear_object (&result);

  write_raw (f, "mine", OVI_DTYPE_UINT64, umine, sizeof umine, 1);
  write_raw (f, "golden", OVI_DTYPE_UINT64, ugolden, sizeof ugolden, 1);
  result = diff_written (f);
  t = output_of (result);
  g_assert_cmpuint (t->out_of_tolerance, ==, 1);
  assert_value (t->metrics.max_absolute_error, "1.000000");
}

/* Issue 39, item 3: values above 1e154 overflow no sum. Opposite tensors
 * have cosine −1 (not 1 from a NaN), and two that differ in one small
 * element keep their finite errors. */
static void
test_huge (Fixture *f, gconstpointer data)
{
  const double mine[] = { 1e200, -2e200, 3e300, 5e250 };
  const double opposite[] = { -1e200, 2e200, -3e300, -5e250 };
  const double big[] = { 1.5e308, -1.5e308, 1e308, 1 };
  const double big2[] = { 1.5e308, -1.5e308, 1e308, 3 };
  g_autoptr (OviDiffResult) result = NULL;
  const OviDiffTensor *t;

  write_raw (f, "mine", OVI_DTYPE_FLOAT64, mine, sizeof mine, 4);
  write_raw (f, "golden", OVI_DTYPE_FLOAT64, opposite, sizeof opposite, 4);
  result = diff_written (f);
  t = output_of (result);
  assert_value (t->metrics.cosine, "-1.000000");
  assert_value (t->metrics.relative_euclidean_distance, "2.000000");
  /* judged against the tensor's scale, 1.5e300: 3e300 against −3e300 */
  g_assert_cmpuint (t->out_of_tolerance, ==, 1);
  g_assert_cmpint (t->first_difference, ==, 2);
  g_assert_cmpint (ovi_diff_operator_get_op_class (ovi_fixture_diff_find (result, "net/Op")), ==,
                   OVI_DIFF_OP_ORIGIN);
  g_clear_object (&result);

  write_raw (f, "mine", OVI_DTYPE_FLOAT64, big, sizeof big, 4);
  write_raw (f, "golden", OVI_DTYPE_FLOAT64, big2, sizeof big2, 4);
  result = diff_written (f);
  t = output_of (result);
  assert_value (t->metrics.cosine, "1.000000");
  assert_value (t->metrics.max_absolute_error, "2.000000");
  assert_value (t->metrics.mean_absolute_error, "0.500000");
  g_assert_true (isfinite (t->metrics.root_mean_square_error));
  g_assert_cmpfloat_with_epsilon (t->metrics.golden_mean / 2.5e307, 1, 1e-12);
  /* 2 against 3 is within the float64 tolerance of a tensor this scale */
  g_assert_cmpuint (t->out_of_tolerance, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/diff-precision/mlp", Fixture, NULL, ovi_tmp_dir_setup, test_mlp,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-precision/transformer", Fixture, NULL, ovi_tmp_dir_setup, test_transformer,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-precision/column-bug", Fixture, NULL, ovi_tmp_dir_setup, test_column_bug,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-precision/float32-element", Fixture, NULL, ovi_tmp_dir_setup,
              test_float32_element, ovi_tmp_dir_teardown);
  g_test_add ("/diff-precision/scalar-sign", Fixture, NULL, ovi_tmp_dir_setup, test_scalar_sign,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-precision/int64", Fixture, NULL, ovi_tmp_dir_setup, test_int64,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-precision/huge", Fixture, NULL, ovi_tmp_dir_setup, test_huge,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
