/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-diff-fixture.h"
#include "ovi-diff-private.h"
#include "ovi-fixture-net.h"
#include "ovi-fixtures.h"
#include "ovi-layout-reference.h"

/* The diff's classes on pairs of runs written with the fixture writer: a
 * chain of operators with one change injected in my run, and the cases
 * of the list (#28, "Core tests of the classes"). */

typedef OviTmpDir Fixture;

static const guint64 shape24[] = { 2, 4 };
static const guint64 T0 = OVI_DIFF_FIXTURE_T0;

/* One input and one output of [2, 4]; ovi_fixture_write_op() names the
 * file. */
static void
write_op (const char *dir,
          const char *type,
          const char *name,
          guint task,
          int dtype,
          const double *in,
          const double *out)
{
  ovi_fixture_write_op (dir, type, name, task, dtype, shape24, 2, in, out);
}

static OviDiffResult *
run_diff (OviDiff *diff)
{
  g_autoptr (GError) error = NULL;
  OviDiffResult *result = ovi_diff_run (diff, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static OviDiffOperator *
find (OviDiffResult *result, const char *name)
{
  GListModel *ops = ovi_diff_result_get_operators (result);

  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
      if (g_str_equal (ovi_diff_operator_get_name (op), name))
        return op; /* the result keeps it */
    }
  g_error ("no operator %s", name);
}

static void
assert_class (OviDiffResult *result, const char *name, OviDiffOpClass expected)
{
  OviDiffOperator *op = find (result, name);

  g_test_message ("%s: %s %s", name, ovi_diff_op_class_name (ovi_diff_operator_get_op_class (op)),
                  ovi_diff_operator_get_reason (op) ? ovi_diff_operator_get_reason (op) : "");
  g_assert_cmpstr (ovi_diff_op_class_name (ovi_diff_operator_get_op_class (op)), ==,
                   ovi_diff_op_class_name (expected));
}

/* MatMul → Add → Relu → Select → Cast, in run order; my Add adds 0.5 to
 * element 5; Relu passes it on; Select masks it (a 0 at element 5 on both
 * sides); Cast writes +Inf and NaN at the same places in both runs. */
static void
chain_values (gboolean inject, double v[6][8])
{
  const double x[] = { 1, -2, 3, -4, 5, 6, -7, 8 };
  const double a[] = { 2, -1, 4, -3, 6, 7, -6, 9 };
  const double b[] = { 3, 0, 5, -2, 7, 8, -5, 10 };
  const double d[] = { 3, 0, 5, 0, 7, 0, 0, 10 };
  const double e[] = { 3, INFINITY, 5, NAN, 7, 0, -INFINITY, 10 };

  memcpy (v[0], x, sizeof x);
  memcpy (v[1], a, sizeof a);
  memcpy (v[2], b, sizeof b);
  if (inject)
    v[2][5] += 0.5;
  for (guint i = 0; i < 8; i++)
    v[3][i] = MAX (v[2][i], 0);
  memcpy (v[4], d, sizeof d);
  memcpy (v[5], e, sizeof e);
}

/* The chain with tasks @task0 + 1 … @task0 + 5 (its timestamps follow). */
static void
write_chain_at (const char *dir, gboolean inject, guint task0)
{
  double v[6][8];

  chain_values (inject, v);
  write_op (dir, "MatMul", "net/MatMul", task0 + 1, OVI_DTYPE_FLOAT32, v[0], v[1]);
  write_op (dir, "Add", "net/Add", task0 + 2, OVI_DTYPE_FLOAT32, v[1], v[2]);
  write_op (dir, "Relu", "net/Relu", task0 + 3, OVI_DTYPE_FLOAT32, v[2], v[3]);
  write_op (dir, "Select", "net/Select", task0 + 4, OVI_DTYPE_FLOAT32, v[3], v[4]);
  write_op (dir, "Cast", "net/Cast", task0 + 5, OVI_DTYPE_FLOAT32, v[4], v[5]);
}

static void
write_chain (const char *dir, gboolean inject)
{
  write_chain_at (dir, inject, 0);
}

static char *
side (Fixture *f, const char *name)
{
  return g_build_filename (f->dir, name, "0", "model", "1", NULL);
}

static void
test_chain (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  OviDiffOperator *first;
  const OviDiffTensor *t;

  write_chain (mine, TRUE);
  write_chain (golden, FALSE);
  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);

  /* The first divergence is the injected operator, named with its tensor. */
  first = ovi_diff_result_get_first_divergence (result);
  g_assert_nonnull (first);
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, "net/Add");
  t = ovi_diff_result_get_first_divergence_tensor (result);
  g_assert_nonnull (t);
  g_assert_cmpint (t->kind, ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpuint (t->index, ==, 0);
  g_assert_cmpint (t->first_difference, ==, 5);
  g_assert_cmpstr (t->first_position, ==, "5 (1, 1)");
  g_assert_cmpfloat (t->first_mine, ==, 8.5);
  g_assert_cmpfloat (t->first_golden, ==, 8);
  g_assert_cmpuint (t->out_of_tolerance, ==, 1);
  g_assert_cmpuint (t->top->len, ==, 1);
  g_assert_cmpfloat (g_array_index (t->top, OviDiffElement, 0).difference, ==, 0.5);

  assert_class (result, "net/MatMul", OVI_DIFF_OP_IDENTICAL);
  assert_class (result, "net/Add", OVI_DIFF_OP_ORIGIN);
  /* Downstream operators are propagated... */
  assert_class (result, "net/Relu", OVI_DIFF_OP_PROPAGATED);
  /* ...until one masks the difference. */
  assert_class (result, "net/Select", OVI_DIFF_OP_ABSORBED);
  /* Inf and NaN at the same positions on both sides: identical. */
  assert_class (result, "net/Cast", OVI_DIFF_OP_IDENTICAL);
  t = ovi_diff_operator_get_tensor (find (result, "net/Cast"), 1);
  g_assert_cmpuint (t->nonfinite_mismatch, ==, 0);
  g_assert_cmpuint (t->metrics.n, ==, 5);
  g_assert_false (ovi_diff_result_get_agree (result));

  /* The run against itself agrees. */
  {
    g_autoptr (OviDiff) same = ovi_diff_new (golden, golden);
    g_autoptr (OviDiffResult) r = run_diff (same);
    g_assert_null (ovi_diff_result_get_first_divergence (r));
    g_assert_true (ovi_diff_result_get_agree (r));
  }
}

/* Repeated executions of one name pair in run order, not last-one-wins. */
static void
test_repeated (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  const double v1[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, v2[] = { 8, 7, 6, 5, 4, 3, 2, 1 };
  double v2x[8];
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  GListModel *ops;

  memcpy (v2x, v2, sizeof v2);
  v2x[0] = 100;
  write_op (mine, "Mul", "net/Mul", 1, OVI_DTYPE_FLOAT32, v1, v1);
  write_op (mine, "Mul", "net/Mul", 2, OVI_DTYPE_FLOAT32, v2, v2x);
  write_op (golden, "Mul", "net/Mul", 1, OVI_DTYPE_FLOAT32, v1, v1);
  write_op (golden, "Mul", "net/Mul", 2, OVI_DTYPE_FLOAT32, v2, v2);
  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  ops = ovi_diff_result_get_operators (result);
  g_assert_cmpuint (g_list_model_get_n_items (ops), ==, 2);
  {
    g_autoptr (OviDiffOperator) a = g_list_model_get_item (ops, 0);
    g_autoptr (OviDiffOperator) b = g_list_model_get_item (ops, 1);
    g_assert_cmpint (ovi_diff_operator_get_op_class (a), ==, OVI_DIFF_OP_IDENTICAL);
    g_assert_cmpint (ovi_diff_operator_get_op_class (b), ==, OVI_DIFF_OP_ORIGIN);
    g_assert_true (ovi_diff_result_get_first_divergence (result) == b);
  }
}

/* float16 against a float32 golden (.npy, the vendor's naming) is within
 * tolerance: float16 rounding is not a divergence. */
static void
test_float16_golden_npy (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine");
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *npy = NULL;
  const double values[] = { 0.1, -0.2, 0.3333333, 1000.1, 3.14159265, -2.7182818, 1e-3, 65000 };
  g_autoptr (GBytes) raw = ovi_fixture_encode (OVI_DTYPE_FLOAT32, values, 8);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  const OviDiffTensor *t;

  write_op (mine, "Mul", "net/Mul", 1, OVI_DTYPE_FLOAT16, values, values);
  g_assert_no_errno (g_mkdir_with_parents (golden, 0755));
  npy = g_strdup_printf ("%s/net_Mul.0.%" G_GUINT64_FORMAT ".npy", golden, T0 + 100);
  g_assert_true (
      ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape24, 2, raw, OVI_EXPORT_NPY, npy, 0, &error));
  g_assert_no_error (error);

  /* A dump file among the .npy files is listed, not left out in silence. */
  g_free (ovi_fixture_write_bytes (golden, "Add.net_Add.3.7.1764670500000300", "x", 1));

  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_diff_result_get_problems (result)), ==, 1);
  {
    g_autoptr (OviProblem) p = g_list_model_get_item (ovi_diff_result_get_problems (result), 0);
    g_assert_true (
        g_str_has_suffix (ovi_problem_get_file (p), "/golden/Add.net_Add.3.7.1764670500000300"));
    g_assert_true (
        g_str_has_prefix (ovi_problem_get_message (p), "a dump file in a folder of .npy"));
  }
  assert_class (result, "net/Mul", OVI_DIFF_OP_WITHIN_TOLERANCE);
  /* A golden of outputs only: the output compared, the inputs not. */
  g_assert_cmpuint (ovi_diff_operator_get_n_tensors (find (result, "net/Mul")), ==, 1);
  t = ovi_diff_operator_get_tensor (find (result, "net/Mul"), 0);
  g_assert_cmpint (t->mine_dtype, ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpint (t->golden_dtype, ==, OVI_DTYPE_FLOAT32);
  g_assert_cmpfloat (t->rtol, ==, 16 * 0x1p-11 + 4 * 64 * 0x1p-24); /* the model's, float16 */
  g_assert_cmpuint (t->out_of_tolerance, ==, 0);
  g_assert_cmpfloat (t->metrics.max_absolute_error, >, 0);

  /* With a tolerance tighter than float16's, the same pair diverges; its
   * inputs were not compared, so it is no origin. */
  ovi_diff_set_tolerance (diff, 1e-7, 0);
  g_clear_object (&result);
  result = run_diff (diff);
  assert_class (result, "net/Mul", OVI_DIFF_OP_OUTPUT_DIFFERS);
}

/* A big-endian float64 golden (numpy on another machine, or '>f8' by
 * choice): read a chunk at a time and swapped; identical to my float32
 * values that it holds exactly. */
static void
test_big_endian_golden (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine");
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  const double values[] = { 0.5, -1.25, 3, 1024, -0.125, 7, 8.5, -65504 };
  g_autoptr (GString) npy = g_string_new_len ("\x93NUMPY\x01\x00\x76\x00", 10);
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autofree char *file = NULL;

  write_op (mine, "Mul", "net/Mul", 1, OVI_DTYPE_FLOAT32, values, values);
  g_string_append (npy, "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 4), }");
  while (npy->len < 127)
    g_string_append_c (npy, ' ');
  g_string_append_c (npy, '\n');
  for (guint i = 0; i < 8; i++)
    {
      guint64 bits;
      memcpy (&bits, &values[i], 8);
      bits = GUINT64_TO_BE (bits);
      g_string_append_len (npy, (const char *) &bits, 8);
    }
  file = g_strdup_printf ("net_Mul.0.%" G_GUINT64_FORMAT ".npy", T0 + 100);
  g_free (ovi_fixture_write_bytes (golden, file, npy->str, npy->len));

  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  assert_class (result, "net/Mul", OVI_DIFF_OP_IDENTICAL);
  g_assert_cmpint (ovi_diff_operator_get_tensor (find (result, "net/Mul"), 0)->golden_dtype, ==,
                   OVI_DTYPE_FLOAT64);
}

/* Equal bytes take a shorter way: their metrics, the CSV's cells, are
 * the same as those of the same values compared the long way (float32
 * against float64 holding them exactly). */
static void
test_same_bytes (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *same = side (f, "same"), *wide = side (f, "wide");
  const double v[] = { 1.5, -2, NAN, 0.0009765625, INFINITY, 7, 0, -0.25 }; /* float32 exactly */
  g_autoptr (OviDiff) d1 = NULL, d2 = NULL;
  g_autoptr (OviDiffResult) r1 = NULL, r2 = NULL;
  const OviDiffTensor *a, *b;

  write_op (mine, "Exp", "net/Exp", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (same, "Exp", "net/Exp", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (wide, "Exp", "net/Exp", 1, OVI_DTYPE_FLOAT64, v, v);
  d1 = ovi_diff_new (mine, same);
  d2 = ovi_diff_new (mine, wide);
  r1 = run_diff (d1);
  r2 = run_diff (d2);
  assert_class (r1, "net/Exp", OVI_DIFF_OP_IDENTICAL);
  assert_class (r2, "net/Exp", OVI_DIFF_OP_IDENTICAL);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *s1 = NULL, *s2 = NULL;
      a = ovi_diff_operator_get_tensor (find (r1, "net/Exp"), i);
      b = ovi_diff_operator_get_tensor (find (r2, "net/Exp"), i);
      g_assert_cmpuint (a->metrics.n, ==, 6);
      g_assert_cmpuint (b->metrics.n, ==, 6);
      g_assert_cmpfloat (a->metrics.cosine, ==, b->metrics.cosine);
      g_assert_cmpfloat (a->metrics.kl_divergence, ==, b->metrics.kl_divergence);
      g_assert_cmpfloat (a->metrics.root_mean_square_error, ==, 0);
      s1 = ovi_diff_format_standard_deviation (&a->metrics);
      s2 = ovi_diff_format_standard_deviation (&b->metrics);
      g_assert_cmpstr (s1, ==, s2);
    }
}

/* NC1HWC0 float16 with original shape (1, 20, 2, 2) against a logical
 * NCHW golden: the padding of C1·C0 = 32 channels is dropped. */
static void
test_device_layout (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  const guint64 orig[] = { 1, 20, 2, 2 };
  guint64 dev[8];
  guint n_dev = ovi_layout_ref_device_shape (OVI_FORMAT_NC1HWC0, orig, 4, 16, dev);
  guint64 n_logical = ovi_layout_ref_count (orig, 4), n_stored = ovi_layout_ref_count (dev, n_dev);
  g_autofree double *logical = g_new (double, n_logical);
  g_autofree double *stored = g_new0 (double, n_stored);
  g_autoptr (GBytes) stored_bytes = NULL;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Conv");
  g_autoptr (OviDumpWriter) g = ovi_dump_writer_new ("net/Conv");
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  const OviDiffTensor *t;
  g_autofree char *file = g_strdup_printf ("Conv2D.net_Conv.1.7.%" G_GUINT64_FORMAT, T0);

  for (guint64 i = 0; i < n_logical; i++)
    {
      guint64 idx[4] = { 0, i / 4, (i / 2) % 2, i % 2 };
      logical[i] = (double) i / 4 - 3;
      stored[ovi_layout_ref_device_index (OVI_FORMAT_NC1HWC0, orig, 4, 16, dev, n_dev, idx)] =
          logical[i];
    }
  /* Padding that is not zero must not count either. */
  for (guint64 i = 0; i < n_stored; i++)
    if (i % 16 >= 4 && (i / 64) % 2 == 1)
      stored[i] = 1000;
  stored_bytes = ovi_fixture_encode (OVI_DTYPE_FLOAT16, stored, n_stored);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, OVI_FORMAT_NC1HWC0, dev,
                              n_dev, stored_bytes);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, orig, 4);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, mine, file));
  ovi_fixture_add (g, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, orig, 4, logical);
  g_free (ovi_fixture_write (g, OVI_LAYOUT_NEW, golden, file));

  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  assert_class (result, "net/Conv", OVI_DIFF_OP_IDENTICAL);
  t = ovi_diff_operator_get_tensor (find (result, "net/Conv"), 0);
  g_assert_cmpuint (t->count, ==, 80);
  g_assert_cmpstr (t->mine_shape, ==, "[1, 20, 2, 2]");
}

/* Conv2D.net_conv.120.5.{ts}.4.{context}.{thread}.0: two slices of one
 * execution, each half the rows of input and output. */
static void
test_slices (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  const double in[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[] = { 2, 4, 6, 8, 10, 12, 14, 16 };
  double in_changed[8];
  const guint64 half[] = { 1, 4 };
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  OviDiffOperator *op;

  memcpy (in_changed, in, sizeof in);
  in_changed[6] = -7; /* in thread 1's input */
  for (guint thread = 0; thread < 2; thread++)
    {
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");
      g_autofree char *name = g_strdup_printf (
          "Conv2D.net_conv.120.5.%" G_GUINT64_FORMAT ".4.1.%u.0", T0 + 10 + thread, thread);

      ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, half, 2, in_changed + 4 * thread);
      ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, half, 2, out + 4 * thread);
      g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, mine, name));
    }
  {
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");
    g_autofree char *name = g_strdup_printf ("Conv2D.net_conv.120.5.%" G_GUINT64_FORMAT, T0 + 10);
    ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape24, 2, in);
    ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape24, 2, out);
    g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, golden, name));
  }

  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_diff_result_get_operators (result)), ==, 1);
  op = find (result, "net/conv");
  /* One operator, its input merged from both threads (thread 1's change
   * is seen), its output equal: absorbed. */
  g_assert_cmpuint (ovi_diff_operator_get_n_tensors (op), ==, 2);
  g_assert_cmpstr (ovi_diff_operator_get_tensor (op, 0)->mine_shape, ==, "[2, 4]");
  g_assert_cmpint (ovi_diff_operator_get_tensor (op, 0)->first_difference, ==, 6);
  g_assert_cmpint (ovi_diff_operator_get_tensor (op, 0)->tensor_class, ==, OVI_DIFF_TENSOR_DIFFERS);
  g_assert_cmpint (ovi_diff_operator_get_tensor (op, 1)->tensor_class, ==,
                   OVI_DIFF_TENSOR_IDENTICAL);
  assert_class (result, "net/conv", OVI_DIFF_OP_ABSORBED);
}

/* A fused operator renamed in my run pairs through the mapping file; an
 * operator of one run only and a tensor that cannot be compared are
 * listed with their reason. */
static void
test_mapping_and_leftovers (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  g_autofree char *map = g_build_filename (f->dir, "map.csv", NULL);
  const double v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  const double v12[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
  const double w[] = { 8, 7, 6, 5, 4, 3, 2, 1 };
  const guint64 shape34[] = { 3, 4 };
  g_autoptr (OviDiff) plain = NULL, mapped = NULL;
  g_autoptr (OviDiffResult) r1 = NULL, r2 = NULL;
  g_autoptr (GError) error = NULL;

  write_op (mine, "AddRelu", "fused/AddRelu", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (golden, "Add", "orig/Add", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (mine, "Identity", "net/OnlyMine", 2, OVI_DTYPE_FLOAT32, v, v);
  write_op (golden, "Identity", "net/OnlyGolden", 3, OVI_DTYPE_FLOAT32, v, v);
  write_op (mine, "Reshape", "net/Reshape", 4, OVI_DTYPE_FLOAT32, v, v);
  {
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Reshape");
    g_autofree char *file =
        g_strdup_printf ("Reshape.net_Reshape.4.7.%" G_GUINT64_FORMAT, T0 + 400);
    ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape24, 2, v);
    ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape34, 2, v12);
    g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, golden, file));
  }

  /* Inputs only, and they differ: neither absorbed nor propagated. */
  write_op (mine, "Assign", "net/Assign", 5, OVI_DTYPE_FLOAT32, v, NULL);
  write_op (golden, "Assign", "net/Assign", 5, OVI_DTYPE_FLOAT32, w, NULL);

  plain = ovi_diff_new (mine, golden);
  r1 = run_diff (plain);
  assert_class (r1, "net/Assign", OVI_DIFF_OP_NOT_COMPARABLE);
  g_assert_true (g_str_has_prefix (ovi_diff_operator_get_reason (find (r1, "net/Assign")),
                                   "the inputs differ and no output"));
  assert_class (r1, "fused/AddRelu", OVI_DIFF_OP_ONLY_MINE);
  assert_class (r1, "orig/Add", OVI_DIFF_OP_ONLY_GOLDEN);
  assert_class (r1, "net/OnlyMine", OVI_DIFF_OP_ONLY_MINE);
  assert_class (r1, "net/OnlyGolden", OVI_DIFF_OP_ONLY_GOLDEN);
  assert_class (r1, "net/Reshape", OVI_DIFF_OP_NOT_COMPARABLE);
  g_assert_cmpstr (ovi_diff_operator_get_reason (find (r1, "net/Reshape")), ==,
                   "output 0: 8 elements [2, 4] against 12 elements [3, 4]");
  g_assert_cmpuint (ovi_diff_result_count_class (r1, OVI_DIFF_OP_ONLY_MINE), ==, 2);
  g_assert_false (ovi_diff_result_get_agree (r1));

  g_file_set_contents (map, "# my name, golden name\nfused/AddRelu, orig/Add\n", -1, &error);
  g_assert_no_error (error);
  mapped = ovi_diff_new (mine, golden);
  g_assert_true (ovi_diff_set_mapping_file (mapped, map, &error));
  g_assert_no_error (error);
  r2 = run_diff (mapped);
  assert_class (r2, "fused/AddRelu", OVI_DIFF_OP_IDENTICAL);
  g_assert_cmpstr (ovi_diff_operator_get_golden_name (find (r2, "fused/AddRelu")), ==, "orig/Add");
  g_assert_cmpuint (ovi_diff_result_count_class (r2, OVI_DIFF_OP_ONLY_GOLDEN), ==, 1);

  /* A broken mapping line is named with its file and line. */
  g_file_set_contents (map, "a,b\nno comma here\n", -1, &error);
  g_assert_false (ovi_diff_set_mapping_file (mapped, map, &error));
  g_assert_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING);
  g_assert_nonnull (strstr (error->message, "map.csv, line 2"));
}

/* Folders pair by device, model and iteration; one iteration on each side
 * pairs whatever its number; a folder without partner is said. */
static void
test_folder_pairs (Fixture *f, gconstpointer data)
{
  const double v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  g_autofree char *m3 = g_build_filename (f->dir, "a", "0", "m", "3", NULL);
  g_autofree char *m4 = g_build_filename (f->dir, "a", "0", "m", "4", NULL);
  g_autofree char *g3 = g_build_filename (f->dir, "b", "0", "m", "3", NULL);
  g_autofree char *g9 = g_build_filename (f->dir, "c", "0", "m", "9", NULL);
  g_autofree char *a = g_build_filename (f->dir, "a", NULL);
  g_autofree char *b = g_build_filename (f->dir, "b", NULL);
  g_autofree char *c = g_build_filename (f->dir, "c", NULL);
  g_autoptr (OviDiff) d1 = NULL, d2 = NULL;
  g_autoptr (OviDiffResult) r1 = NULL, r2 = NULL;
  const OviDiffFolderPair *pairs;
  guint n;

  write_op (m3, "Add", "net/Add", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (m4, "Add", "net/Add", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (g3, "Add", "net/Add", 1, OVI_DTYPE_FLOAT32, v, v);
  write_op (g9, "Add", "net/Add", 1, OVI_DTYPE_FLOAT32, v, v);

  d1 = ovi_diff_new (a, b);
  r1 = run_diff (d1);
  pairs = ovi_diff_result_get_folder_pairs (r1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (pairs[0].mine, ==, m3);
  g_assert_cmpstr (pairs[0].golden, ==, g3);
  g_assert_cmpstr (pairs[1].mine, ==, m4);
  g_assert_null (pairs[1].golden);

  /* Iteration 3 against iteration 9, each the only one of its run. */
  d2 = ovi_diff_new (g3, c);
  r2 = run_diff (d2);
  pairs = ovi_diff_result_get_folder_pairs (r2, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (pairs[0].golden, ==, g9);
  assert_class (r2, "net/Add", OVI_DIFF_OP_IDENTICAL);
}

/* An operator with two inputs and one output of [2, 4], at T0 + 100 · @task. */
static void
write_op2 (const char *dir,
           const char *type,
           const char *name,
           guint task,
           const double *in0,
           const double *in1,
           const double *out)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (name);
  g_autofree char *form = ovi_file_name_form (name);
  g_autofree char *file =
      g_strdup_printf ("%s.%s.%u.7.%" G_GUINT64_FORMAT, type, form, task, T0 + task * 100);

  ovi_dump_writer_set_dump_time (w, T0 + task * 100);
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape24, 2, in0);
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape24, 2, in1);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape24, 2, out);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, file));
}

/* x → Mul(x, w1) → Add(·, bias) → Relu. @batch changes x (a different
 * input batch), @weight changes the bias Add reads (a different weight). */
static void
write_net (const char *dir, double batch, double weight)
{
  double x[8], w1[8], a[8], bias[8], b[8], c[8];

  for (guint i = 0; i < 8; i++)
    {
      x[i] = (double) i - 3 + (i == 2 ? batch : 0);
      w1[i] = 0.5 + i;
      a[i] = x[i] * w1[i];
      bias[i] = 1 + (i == 6 ? weight : 0);
      b[i] = a[i] + bias[i];
      c[i] = MAX (b[i], 0);
    }
  write_op2 (dir, "Mul", "net/fc1/Mul", 1, x, w1, a);
  write_op2 (dir, "Add", "net/fc1/Add", 2, a, bias, b);
  write_op (dir, "Relu", "net/Relu", 3, OVI_DTYPE_FLOAT32, b, c);
}

static void
assert_entered (Fixture *f, double batch, double weight, const char *name, guint input)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autofree char *headline = NULL, *expected = NULL;
  OviDiffOperator *first;
  const OviDiffTensor *t;

  ovi_fixture_remove_tree (mine);
  ovi_fixture_remove_tree (golden);
  write_net (mine, batch, weight);
  write_net (golden, 0, 0);
  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  first = ovi_diff_result_get_first_divergence (result);
  g_assert_nonnull (first);
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, name);
  g_assert_true (ovi_diff_operator_get_is_first_divergence (first));
  g_assert_cmpint (ovi_diff_result_get_first_divergence_form (result), ==,
                   OVI_DIFF_DIVERGENCE_ENTERED);
  g_assert_cmpuint (ovi_diff_result_get_first_divergence_input (result), ==, input);
  t = ovi_diff_result_get_first_divergence_tensor (result);
  g_assert_cmpint (t->kind, ==, OVI_TENSOR_INPUT);
  g_assert_cmpuint (t->index, ==, input);
  g_assert_cmpint (ovi_diff_result_get_verdict (result), ==, OVI_DIFF_VERDICT_DIVERGE);
  headline = ovi_diff_result_dup_headline (result);
  g_test_message ("%s", headline);
  expected = g_strdup_printf ("entered through input %u, which already differs while no operator "
                              "dumped before it produced a differing output; it came from "
                              "outside this dump (the input data, a weight, or an operator that "
                              "was not dumped).",
                              input);
  g_assert_true (g_str_has_suffix (headline, expected));
  g_assert_nonnull (strstr (headline, name));
  assert_class (result, "net/Relu", OVI_DIFF_OP_PROPAGATED);
}

/* #36 case 2: a difference entering through an input names the earliest
 * operator whose input already differs while no operator dumped before it
 * produced a differing output: a different input batch enters at the first
 * operator, a different weight where it is read. */
static void
test_entered_through_input (Fixture *f, gconstpointer data)
{
  assert_entered (f, 0.75, 0, "net/fc1/Mul", 0);
  assert_entered (f, 0, 0.25, "net/fc1/Add", 1);
}

/* #36 case 3: a .npy golden of outputs only. The first operator whose
 * outputs differ is the first divergence, its inputs not compared: never
 * an origin, never "inputs agree"; no overflow claimed "only in my run"
 * when the golden has no overflow records to read. */
static void
test_outputs_only_golden (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine");
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autofree char *headline = NULL, *text = NULL;
  double v[6][8];
  const char *names[] = { "net_MatMul", "net_Add", "net_Relu", "net_Select", "net_Cast" };

  write_chain (mine, TRUE);
  ovi_fixture_write_overflow_op (mine, "Add", "net/Add", 2, 7, T0 + 250, TRUE);
  /* The vendor's naming, {op}.{output}.{timestamp}.npy: outputs only. */
  chain_values (FALSE, v);
  g_assert_no_errno (g_mkdir_with_parents (golden, 0755));
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr (GBytes) raw = ovi_fixture_encode (OVI_DTYPE_FLOAT32, v[i + 1], 8);
      g_autofree char *npy = g_strdup_printf ("%s/%s.0.%" G_GUINT64_FORMAT ".npy", golden, names[i],
                                              T0 + 100 * (i + 1));
      g_autoptr (GError) error = NULL;

      g_assert_true (ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape24, 2, raw, OVI_EXPORT_NPY,
                                             npy, 0, &error));
      g_assert_no_error (error);
    }

  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  assert_class (result, "net/MatMul", OVI_DIFF_OP_IDENTICAL);
  assert_class (result, "net/Add", OVI_DIFF_OP_OUTPUT_DIFFERS);
  assert_class (result, "net/Relu", OVI_DIFF_OP_OUTPUT_DIFFERS);
  g_assert_cmpuint (ovi_diff_result_count_class (result, OVI_DIFF_OP_ORIGIN), ==, 0);
  g_assert_cmpstr (ovi_diff_operator_get_name (ovi_diff_result_get_first_divergence (result)), ==,
                   "net/Add");
  g_assert_cmpint (ovi_diff_result_get_first_divergence_form (result), ==,
                   OVI_DIFF_DIVERGENCE_INPUTS_NOT_COMPARED);
  g_assert_cmpuint (ovi_diff_operator_get_mine_overflows (find (result, "net/Add")), ==, 1);
  headline = ovi_diff_result_dup_headline (result);
  g_test_message ("%s", headline);
  g_assert_nonnull (strstr (headline, "#1 Add net/Add"));
  g_assert_nonnull (strstr (headline, "its inputs were not compared"));
  text = ovi_diff_result_to_text (result);
  g_test_message ("%s", text);
  g_assert_null (strstr (text, "inputs agree"));
  g_assert_null (strstr (text, "origin"));
  g_assert_null (strstr (text, "Overflows only in my run"));
  g_assert_nonnull (strstr (text, "Overflows in my run: net/Add (the golden run has no overflow "
                                  "records to compare)"));
}

#define S1 "20261207100000"
#define S2 "20261207110000"

/* ROOT/@run/@session/@device/net/1/1 */
static char *
session_dir (Fixture *f, const char *run, const char *session, const char *device)
{
  return g_build_filename (f->dir, run, session, device, "net", "1", "1", NULL);
}

/* #36 case 4: two {time} sessions under one dump path pair in time order
 * when both runs have two, each pair named; else the diff refuses, lists
 * both runs' sessions and says to pass a session folder. */
static void
test_sessions (Fixture *f, gconstpointer data)
{
  g_autofree char *expected = NULL;
  g_autofree char *m1 = session_dir (f, "mine", S1, "0"), *m2 = session_dir (f, "mine", S2, "0");
  g_autofree char *g1 = session_dir (f, "golden", S1, "0");
  g_autofree char *g2 = session_dir (f, "golden", S2, "0");
  g_autofree char *g3 = session_dir (f, "one", S1, "0");
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *one = g_build_filename (f->dir, "one", NULL);
  g_autoptr (OviDiff) diff = NULL, refused = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  const OviDiffFolderPair *pairs;
  OviDiffOperator *first;
  guint n;

  write_chain_at (m1, FALSE, 0);
  write_chain_at (m2, TRUE, 10);
  write_chain_at (g1, FALSE, 0);
  write_chain_at (g2, FALSE, 10);
  write_chain_at (g3, FALSE, 0);

  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  pairs = ovi_diff_result_get_folder_pairs (result, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (pairs[0].mine, ==, m1);
  g_assert_cmpstr (pairs[0].golden, ==, g1);
  g_assert_cmpstr (pairs[1].mine, ==, m2);
  g_assert_cmpstr (pairs[1].golden, ==, g2);
  g_assert_cmpstr (pairs[0].label, ==, "session " S1 ", device 0, model net/1, iteration 1");
  g_assert_cmpstr (pairs[1].label, ==, "session " S2 ", device 0, model net/1, iteration 1");
  g_assert_cmpuint (ovi_diff_result_count_class (result, OVI_DIFF_OP_ONLY_MINE), ==, 0);
  g_assert_cmpuint (ovi_diff_result_count_class (result, OVI_DIFF_OP_ONLY_GOLDEN), ==, 0);
  first = ovi_diff_result_get_first_divergence (result);
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, "net/Add");
  expected = g_build_filename (m2, "Add.net_Add.12.7.1764670500001200", NULL);
  g_assert_cmpstr (ovi_diff_operator_get_mine_path (first), ==, expected);
  text = ovi_diff_result_to_text (result);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "  session " S1 ", device 0, model net/1, iteration 1: "));
  g_assert_nonnull (strstr (text, "  session " S2 ", device 0, model net/1, iteration 1: "));

  refused = ovi_diff_new (mine, one);
  g_assert_null (ovi_diff_run (refused, NULL, &error));
  g_assert_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_SESSIONS);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "has the sessions " S1 ", " S2 ";"));
  g_assert_nonnull (strstr (error->message, "has " S1 ". Sessions pair"));
  g_assert_nonnull (strstr (error->message, "pass one session folder on each side, such as "));
  g_assert_true (g_str_has_suffix (error->message, S2 "."));
}

/* #36 case 5: devices pair by number; the first divergence is the
 * earliest in time across devices (device 1 ran first here), and the
 * device is named. */
static void
test_devices (Fixture *f, gconstpointer data)
{
  g_autofree char *m0 = session_dir (f, "mine", S1, "0"), *m1 = session_dir (f, "mine", S1, "1");
  g_autofree char *g0 = session_dir (f, "golden", S1, "0");
  g_autofree char *g1 = session_dir (f, "golden", S1, "1");
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autofree char *headline = NULL, *device = NULL;
  gboolean is_first = FALSE;
  OviDiffOperator *first;

  write_chain_at (m0, TRUE, 10);
  write_chain_at (m1, TRUE, 0);
  write_chain_at (g0, FALSE, 10);
  write_chain_at (g1, FALSE, 0);
  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  first = ovi_diff_result_get_first_divergence (result);
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, "net/Add");
  g_assert_cmpstr (ovi_diff_operator_get_device (first), ==, "1");
  g_object_get (first, "device", &device, "is-first-divergence", &is_first, NULL);
  g_assert_cmpstr (device, ==, "1");
  g_assert_true (is_first);
  headline = ovi_diff_result_dup_headline (result);
  g_test_message ("%s", headline);
  g_assert_true (g_str_has_prefix (headline, "First divergence: #6 Add net/Add on device 1, the "
                                             "origin:"));
  g_assert_cmpuint (ovi_diff_result_count_class (result, OVI_DIFF_OP_ORIGIN), ==, 2);
}

/* #36 case 7: one fused operator against the sequence it replaces, both
 * ways round: its inputs against the first's, its outputs against the
 * last's. Names that match nothing are warnings with their line. */
static void
test_map_sequences (Fixture *f, gconstpointer data)
{
  g_autofree char *fused = side (f, "fused"), *split = side (f, "split");
  g_autofree char *map = g_build_filename (f->dir, "map.csv", NULL);
  g_autofree char *back = g_build_filename (f->dir, "back.csv", NULL);
  const double x[] = { 1, -2, 3, -4, 5, 6, -7, 8 };
  const double a[] = { 2, -4, 6, -8, 10, 12, -14, 16 };
  const double b[] = { 2.5, -3.5, 6.5, -7.5, 10.5, 12.5, -13.5, 16.5 };
  const double c[] = { 2.5, 0, 6.5, 0, 10.5, 12.5, 0, 16.5 };
  g_autoptr (OviDiff) plain = NULL, d1 = NULL, d2 = NULL;
  g_autoptr (OviDiffResult) r0 = NULL, r1 = NULL, r2 = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *warnings;

  write_op (fused, "FusedMatMul", "net/fc1/FusedMatMul", 1, OVI_DTYPE_FLOAT32, x, c);
  write_op (split, "MatMul", "net/fc1/MatMul", 1, OVI_DTYPE_FLOAT32, x, a);
  write_op (split, "BiasAdd", "net/fc1/BiasAdd", 2, OVI_DTYPE_FLOAT32, a, b);
  write_op (split, "Relu", "net/fc1/Relu", 3, OVI_DTYPE_FLOAT32, b, c);

  /* Without a map: nothing pairs. */
  plain = ovi_diff_new (fused, split);
  r0 = run_diff (plain);
  assert_class (r0, "net/fc1/FusedMatMul", OVI_DIFF_OP_ONLY_MINE);

  g_assert_true (g_file_set_contents (map,
                                      "# fused, the sequence it replaces\n"
                                      "net/fc1/FusedMatMul, net/fc1/MatMul+net/fc1/BiasAdd+"
                                      "net/fc1/Relu\n"
                                      "net/Gone,net/AlsoGone\n",
                                      -1, NULL));
  d1 = ovi_diff_new (fused, split);
  g_assert_true (ovi_diff_set_mapping_file (d1, map, &error));
  g_assert_no_error (error);
  r1 = run_diff (d1);
  assert_class (r1, "net/fc1/FusedMatMul", OVI_DIFF_OP_IDENTICAL);
  g_assert_cmpstr (ovi_diff_operator_get_golden_name (find (r1, "net/fc1/FusedMatMul")), ==,
                   "net/fc1/MatMul+net/fc1/BiasAdd+net/fc1/Relu");
  g_assert_cmpuint (g_list_model_get_n_items (ovi_diff_result_get_operators (r1)), ==, 1);
  g_assert_cmpint (ovi_diff_result_get_verdict (r1), ==, OVI_DIFF_VERDICT_AGREE);
  warnings = ovi_diff_result_get_warnings (r1);
  /* Only my name: the golden one was not looked for. */
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (warnings, 0),
                                   "map.csv, line 3: “net/Gone” matches no operator of my run"));

  /* The other way round: my sequence against the golden's fused one. */
  g_assert_true (g_file_set_contents (
      back, "net/fc1/MatMul+net/fc1/BiasAdd+net/fc1/Relu,net/fc1/FusedMatMul\n", -1, NULL));
  d2 = ovi_diff_new (split, fused);
  g_assert_true (ovi_diff_set_mapping_file (d2, back, &error));
  g_assert_no_error (error);
  r2 = run_diff (d2);
  assert_class (r2, "net/fc1/MatMul+net/fc1/BiasAdd+net/fc1/Relu", OVI_DIFF_OP_IDENTICAL);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_diff_result_get_operators (r2)), ==, 1);
  g_assert_cmpuint (ovi_diff_result_get_warnings (r2)->len, ==, 0);
}

static void
assert_map_error (Fixture *f, const char *text, gsize length, const char *message)
{
  g_autofree char *map = g_build_filename (f->dir, "bad.csv", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (f->dir, f->dir);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (map, text, length, NULL));
  g_assert_false (ovi_diff_set_mapping_file (diff, map, &error));
  g_assert_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_suffix (error->message, message));
}

/* #39 items 6 and 8: lines dropped in silence and maps that hang. */
static void
test_map_refused (Fixture *f, gconstpointer data)
{
  g_autofree char *fifo = g_build_filename (f->dir, "fifo.csv", NULL);
  g_autofree char *big = g_build_filename (f->dir, "big.csv", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (f->dir, f->dir);
  g_autoptr (GError) error = NULL, error2 = NULL;
  int fd;

  assert_map_error (f, "a,b\nc,d\0e,f\n", 12, "bad.csv, line 2: a NUL byte; a map file is text");
  assert_map_error (f, "a,b\n\na,c\n", -1,
                    "bad.csv, line 3: “a” is mapped already on line 1; one operator pairs with "
                    "one partner");
  assert_map_error (f, "a,b,c\n", -1,
                    "bad.csv, line 1: more than one comma; write “my_name,golden_name”");
  assert_map_error (f, "x,y\na+b,c+d\n", -1,
                    "bad.csv, line 2: a sequence on both sides is ambiguous; map one operator to "
                    "a sequence or a sequence to one operator");
  assert_map_error (f, "a++b,c\n", -1,
                    "bad.csv, line 1: an empty name; write “my_name,golden_name”, either side may "
                    "be “a+b+c”");
  /* Found by fuzz-diff-map: a side with no name at all, not even a "+". */
  assert_map_error (f, "x,y\n,net/Add\n", -1,
                    "bad.csv, line 2: an empty name; write “my_name,golden_name”, either side may "
                    "be “a+b+c”");
  assert_map_error (f, "net/Add,\n", -1,
                    "bad.csv, line 1: an empty name; write “my_name,golden_name”, either side may "
                    "be “a+b+c”");

  /* A FIFO is refused at once, a huge (sparse) file without reading it. */
  g_assert_no_errno (mkfifo (fifo, 0644));
  g_assert_false (ovi_diff_set_mapping_file (diff, fifo, &error));
  g_assert_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING);
  g_assert_nonnull (strstr (error->message, fifo));
  fd = g_open (big, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_no_errno (ftruncate (fd, G_GINT64_CONSTANT (1) << 32));
  close (fd);
  g_assert_false (ovi_diff_set_mapping_file (diff, big, &error2));
  g_assert_nonnull (strstr (error2->message, "4294967296 bytes, more than a map file's"));
}

/* #36 case 2 on the MLP: my run in float16 on another input batch, the
 * golden in float32. The batch enters at the first MatMul through input 0,
 * from outside the dump; nothing before it is divergent (the Cast is in my
 * run only). */
static void
test_mlp_other_batch (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  OviNetRun a, b;

  ovi_net_run_init (&a, OVI_NET_MLP, OVI_DTYPE_FLOAT16);
  a.reseed = 0;
  ovi_net_run_init (&b, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  ovi_fixture_write_net (mine, &a);
  ovi_fixture_write_net (golden, &b);
  diff = ovi_diff_new (mine, golden);
  result = run_diff (diff);
  g_assert_cmpstr (ovi_diff_operator_get_name (ovi_diff_result_get_first_divergence (result)), ==,
                   "net/fc1/MatMul");
  g_assert_cmpint (ovi_diff_result_get_first_divergence_form (result), ==,
                   OVI_DIFF_DIVERGENCE_ENTERED);
  g_assert_cmpuint (ovi_diff_result_get_first_divergence_input (result), ==, 0);
  assert_class (result, "net/Cast", OVI_DIFF_OP_ONLY_MINE);
  assert_class (result, "net/fc1/MatMul", OVI_DIFF_OP_PROPAGATED);
  g_assert_cmpuint (ovi_diff_result_count_class (result, OVI_DIFF_OP_ORIGIN), ==, 0);
}

/* #39 item 9: a problem's path keeps every component when the golden root
 * is gone by the time the problem is named (deleted mid-diff). */
static void
test_problem_path_root_gone (Fixture *f, gconstpointer data)
{
  g_autofree char *expected = NULL;
  g_autofree char *golden = g_build_filename (f->dir, "b9", "g", NULL);
  g_autofree char *iteration = g_build_filename (golden, "20261207100000", "0", "net", "1", NULL);
  g_autofree char *path = NULL;
  g_autoptr (OviDiffSide) side = NULL;
  g_autoptr (GError) error = NULL;

  write_chain (iteration, FALSE);
  g_free (ovi_fixture_write_bytes (iteration, "Sub.net_Sub.9.7.1764670500000900", "\x01\x02", 2));
  side = ovi_diff_side_load (golden, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (side->problems->len, ==, 1);
  ovi_fixture_remove_tree (golden);
  path = ovi_diff_side_path (side, ovi_problem_get_file (g_ptr_array_index (side->problems, 0)));
  expected = g_build_filename (iteration, "Sub.net_Sub.9.7.1764670500000900", NULL);
  g_assert_cmpstr (path, ==, expected);
}

static void
ready (GObject *source, GAsyncResult *res, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (res);
}

/* The async entry point: the result on the caller's main context; a
 * cancelled run ends with G_IO_ERROR_CANCELLED. */
static void
test_async (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = side (f, "mine"), *golden = side (f, "golden");
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GAsyncResult) res = NULL, res2 = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDiffOperator) first = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  write_chain (mine, TRUE);
  write_chain (golden, FALSE);
  diff = ovi_diff_new (mine, golden);
  ovi_diff_run_async (diff, NULL, ready, &res);
  while (res == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (res);
  result = ovi_diff_run_finish (diff, res, &error);
  g_assert_no_error (error);
  g_object_get (result, "first-divergence", &first, NULL);
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, "net/Add");

  g_cancellable_cancel (cancellable);
  ovi_diff_run_async (diff, cancellable, ready, &res2);
  while (res2 == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (res2);
  g_assert_null (ovi_diff_run_finish (diff, res2, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/diff/chain", test_chain);
  ADD ("/core/diff/repeated", test_repeated);
  ADD ("/core/diff/float16-golden-npy", test_float16_golden_npy);
  ADD ("/core/diff/big-endian-golden", test_big_endian_golden);
  ADD ("/core/diff/same-bytes", test_same_bytes);
  ADD ("/core/diff/device-layout", test_device_layout);
  ADD ("/core/diff/slices", test_slices);
  ADD ("/core/diff/mapping-and-leftovers", test_mapping_and_leftovers);
  ADD ("/core/diff/folder-pairs", test_folder_pairs);
  ADD ("/core/diff/async", test_async);
  ADD ("/core/diff/entered-through-input", test_entered_through_input);
  ADD ("/core/diff/outputs-only-golden", test_outputs_only_golden);
  ADD ("/core/diff/sessions", test_sessions);
  ADD ("/core/diff/devices", test_devices);
  ADD ("/core/diff/map-sequences", test_map_sequences);
  ADD ("/core/diff/map-refused", test_map_refused);
  ADD ("/core/diff/mlp-other-batch", test_mlp_other_batch);
  ADD ("/core/diff/problem-path-root-gone", test_problem_path_root_gone);
#undef ADD
  return g_test_run ();
}
