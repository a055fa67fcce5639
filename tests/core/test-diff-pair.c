/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ovi-diff-pair.h"
#include "ovi-diff.h"
#include "ovi-fixtures.h"

/* The pair view's data (ovi-diff-pair.c): both sides over one set of
 * bins, the differences, and the strip of where they differ, on pairs
 * written with the fixture writer whose differences are known, read from
 * what the diff of the two runs compared. */

/* Diffs @mine against @golden, then computes the pair view's data of the
 * operator's tensor pair @kind @index (the first operator that has one);
 * without such a pair, the error of asking for one past the last. A NaN
 * @rtol keeps the dtypes' default tolerance. */
static OviDiffPair *
compute (const char *mine,
         const char *golden,
         OviTensorKind kind,
         guint index,
         double rtol,
         double atol,
         guint n_bins,
         guint n_strip,
         GError **error)
{
  g_autoptr (OviDiff) diff = ovi_diff_new (mine, golden);
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (OviDiffOperator) first = NULL;
  GListModel *ops;

  if (!isnan (rtol))
    ovi_diff_set_tolerance (diff, rtol, atol);
  result = ovi_diff_run (diff, NULL, error);
  g_assert_nonnull (result);
  ops = ovi_diff_result_get_operators (result);
  g_assert_cmpuint (g_list_model_get_n_items (ops), >, 0);
  first = g_list_model_get_item (ops, 0);
  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);

      for (guint t = 0; t < ovi_diff_operator_get_n_tensors (op); t++)
        {
          const OviDiffTensor *pair = ovi_diff_operator_get_tensor (op, t);

          if (pair->kind == kind && pair->index == index)
            return ovi_diff_pair_compute (op, t, n_bins, n_strip, NULL, error);
        }
    }
  return ovi_diff_pair_compute (first, ovi_diff_operator_get_n_tensors (first), n_bins, n_strip,
                                NULL, error);
}

static guint64
histogram_total (const OviHistogram *h)
{
  guint64 total = h->nan + h->neg_inf + h->pos_inf;

  for (guint i = 0; i < h->n_bins; i++)
    total += h->counts[i];
  return total;
}

static char *
write_op (const char *dir,
          const char *name,
          int dtype,
          int format,
          const guint64 *shape,
          guint n_dims,
          const double *values,
          guint64 n,
          const guint64 *original,
          guint n_original)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/op");
  g_autoptr (GBytes) bytes = ovi_fixture_encode (dtype, values, n);

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, dtype, format, shape, n_dims, bytes);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, dtype, format, shape, n_dims, bytes);
  if (original != NULL)
    {
      ovi_dump_writer_set_original_shape (w, OVI_TENSOR_INPUT, 0, original, n_original);
      ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, original, n_original);
    }
  return ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name);
}

/* 64 float32 values; mine differs at 3 (by 10) and holds NaN at 60. */
static void
test_bins_and_strip (OviTmpDir *f, gconstpointer data)
{
  const guint64 shape[] = { 4, 16 };
  double golden[64], mine[64];
  g_autofree char *golden_path = NULL, *mine_path = NULL;
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 64; i++)
    golden[i] = mine[i] = i * 0.5;
  mine[3] += 10;
  mine[60] = NAN;
  mine_path = write_op (f->dir, "Add.mine.1.1.1", OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, shape, 2, mine,
                        64, NULL, 0);
  golden_path = write_op (f->dir, "Add.golden.1.1.1", OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, shape, 2,
                          golden, 64, NULL, 0);

  pair = compute (mine_path, golden_path, OVI_TENSOR_OUTPUT, 0, 1e-6, 1e-6, 8, 4, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pair);
  g_assert_cmpuint (pair->count, ==, 64);
  g_assert_cmpuint (pair->out_of_tolerance, ==, 2);
  g_assert_cmpuint (pair->n_strip, ==, 4);
  g_assert_cmpuint (pair->strip[0], ==, 1);
  g_assert_cmpuint (pair->strip[1], ==, 0);
  g_assert_cmpuint (pair->strip[2], ==, 0);
  g_assert_cmpuint (pair->strip[3], ==, 1);
  g_assert_cmpuint (pair->strip_start[1], ==, 16);
  g_assert_cmpuint (pair->strip_start[4], ==, 64);

  /* One set of bins for both sides, so that they overlay. */
  g_assert_cmpuint (pair->mine_histogram->n_bins, ==, 8);
  for (guint i = 0; i <= 8; i++)
    g_assert_cmpfloat (pair->mine_histogram->edges[i], ==, pair->golden_histogram->edges[i]);
  g_assert_cmpfloat (pair->mine_histogram->edges[0], ==, 0);
  g_assert_cmpfloat (pair->mine_histogram->edges[8], ==, 31.5);
  g_assert_cmpuint (pair->mine_histogram->nan, ==, 1);
  g_assert_cmpuint (histogram_total (pair->mine_histogram), ==, 64);
  g_assert_cmpuint (histogram_total (pair->golden_histogram), ==, 64);
  g_assert_cmpuint (pair->golden_histogram->nan, ==, 0);

  /* The differences: +10 at 3, NaN − 30 at 60; nothing where they agree. */
  g_assert_cmpuint (histogram_total (pair->difference), ==, 2);
  g_assert_cmpuint (pair->difference->nan, ==, 1);
  g_assert_cmpuint (pair->difference->counts[ovi_histogram_find_bin (pair->difference, 10)], ==, 1);

  g_assert_cmpstr (pair->mine.shape, ==, "[4, 16]");
  g_assert_cmpuint (pair->mine.nan, ==, 1);
  g_assert_cmpfloat (pair->golden.min, ==, 0);
  g_assert_cmpfloat (pair->golden.max, ==, 31.5);
  g_assert_cmpfloat_with_epsilon (pair->golden.mean, 15.75, 1e-12);
  g_assert_cmpint (pair->golden.dtype, ==, OVI_DTYPE_FLOAT32);
  g_assert_cmpstr (pair->golden.path, ==, golden_path);
  g_assert_cmpuint (pair->golden.position, ==, 1); /* after the input */
}

/* Issue 36, case 8: values across the whole float64 range, where the
 * bins' width overflows: all 4 binned (the statistics' builder and its
 * guard). */
static void
test_wide_range (OviTmpDir *f, gconstpointer data)
{
  const guint64 shape[] = { 4 };
  const double golden[] = { -1.5e308, 1.5e308, 0, 2 }, mine[] = { -1.5e308, 1.5e308, 0, 3 };
  g_autofree char *golden_path = NULL, *mine_path = NULL;
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;
  guint64 in_bins = 0;

  mine_path = write_op (f->dir, "Add.mine.1.1.1", OVI_DTYPE_FLOAT64, OVI_FORMAT_ND, shape, 1, mine,
                        4, NULL, 0);
  golden_path = write_op (f->dir, "Add.golden.1.1.1", OVI_DTYPE_FLOAT64, OVI_FORMAT_ND, shape, 1,
                          golden, 4, NULL, 0);
  pair = compute (mine_path, golden_path, OVI_TENSOR_OUTPUT, 0, NAN, NAN, 8, 4, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < pair->golden_histogram->n_bins; i++)
    in_bins += pair->golden_histogram->counts[i];
  g_assert_cmpuint (in_bins, ==, 4);
  g_assert_cmpuint (pair->golden_histogram->counts[0], ==, 1);
  g_assert_cmpuint (pair->golden_histogram->counts[7], ==, 1);
  g_assert_cmpuint (histogram_total (pair->mine_histogram), ==, 4);
  g_assert_cmpuint (histogram_total (pair->difference), ==, 1);
}

/* A float16 NC1HWC0 tensor against a float32 ND golden of its logical
 * shape: read without its padding, the same values, nothing out of
 * tolerance; the strip spans the 16 logical values, not the 64 stored. */
static void
test_device_layout (OviTmpDir *f, gconstpointer data)
{
  const guint64 logical[] = { 1, 4, 2, 2 }, device[] = { 1, 1, 2, 2, 16 };
  double values[16], stored[64] = { 0 };
  g_autofree char *golden_path = NULL, *mine_path = NULL;
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;

  for (guint c = 0; c < 4; c++)
    for (guint hw = 0; hw < 4; hw++)
      {
        values[c * 4 + hw] = c + hw * 0.25;
        stored[hw * 16 + c] = values[c * 4 + hw];
      }
  mine_path = write_op (f->dir, "Conv.mine.1.1.1", OVI_DTYPE_FLOAT16, OVI_FORMAT_NC1HWC0, device, 5,
                        stored, 64, logical, 4);
  golden_path = write_op (f->dir, "Conv.golden.1.1.1", OVI_DTYPE_FLOAT32, OVI_FORMAT_NCHW, logical,
                          4, values, 16, NULL, 0);
  pair = compute (mine_path, golden_path, OVI_TENSOR_INPUT, 0, NAN, NAN, 16, 64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pair->count, ==, 16);
  g_assert_cmpuint (pair->out_of_tolerance, ==, 0);
  g_assert_cmpuint (pair->n_strip, ==, 16); /* never more bins than elements */
  g_assert_cmpstr (pair->mine.shape, ==, "[1, 4, 2, 2]");
  g_assert_cmpstr (pair->golden.shape, ==, "[1, 4, 2, 2]");
  g_assert_cmpint (pair->mine.dtype, ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpuint (histogram_total (pair->difference), ==, 0);
  g_assert_cmpfloat (pair->mine.max, ==, 3.75);
}

/* Writes the operator net/mul's dump file @name into @dir with one
 * float32 output per row of @values (@n outputs of 8 values). */
static char *
write_mul (const char *dir, const char *name, const double (*values)[8], guint n)
{
  const guint64 shape[] = { 8 };
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/mul");

  for (guint i = 0; i < n; i++)
    ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, values[i]);
  return ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name);
}

/* Exports tensor @i of dump file @path as the .npy file @dir/@name. */
static char *
export_npy (const char *path, guint i, const char *dir, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, NULL, &error);
  char *npy = g_build_filename (dir, name, NULL);

  g_assert_no_error (error);
  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (ovi_export_tensor (g_ptr_array_index (ovi_dump_file_get_tensors (file), i),
                                    OVI_EXPORT_NPY, npy, OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_no_error (error);
  return npy;
}

/* A golden saved as convert's .npy files: output 1 read from its own
 * file; no input was saved, so there is no input pair. */
static void
test_npy_golden (OviTmpDir *f, gconstpointer data)
{
  const double mine[][8] = { { 1, 2, 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5, 6, 7, 8 } };
  const double golden[][8] = { { 1, 2, 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5, 6, 7, 9 } };
  g_autofree char *mine_dir = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden_dir = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *npy_dir = g_build_filename (f->dir, "npy", NULL);
  g_autofree char *mine_path = write_mul (mine_dir, "Mul.net_mul.1.1.1", mine, 2);
  g_autofree char *golden_path = write_mul (golden_dir, "Mul.net_mul.1.1.2", golden, 2);
  g_autofree char *npy0 = export_npy (golden_path, 0, npy_dir, "Mul.net_mul.1.1.2.output.0.npy");
  g_autofree char *npy1 = export_npy (golden_path, 1, npy_dir, "Mul.net_mul.1.1.2.output.1.npy");
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;

  pair = compute (mine_path, npy_dir, OVI_TENSOR_OUTPUT, 1, 0, 0, 4, 8, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pair->golden.path, ==, npy1);
  g_assert_cmpuint (pair->golden.position, ==, G_MAXUINT);
  g_assert_cmpstr (pair->mine.path, ==, mine_path);
  g_assert_cmpuint (pair->mine.position, ==, 1);
  g_assert_cmpuint (pair->out_of_tolerance, ==, 1);
  g_assert_cmpuint (pair->strip[7], ==, 1);
  g_assert_cmpfloat (pair->golden.max, ==, 9);

  /* No input was saved: the error names my file. */
  g_clear_pointer (&pair, ovi_diff_pair_free);
  pair = compute (mine_path, npy_dir, OVI_TENSOR_INPUT, 0, 0, 0, 4, 8, &error);
  g_assert_null (pair);
  g_assert_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NO_TENSOR);
  g_assert_nonnull (strstr (error->message, mine_path));
}

/* A golden saved with the vendor's names, {op}.{i}.{timestamp}.npy, with
 * two executions of the operator: my one execution pairs with the first,
 * and output 1 is read from that execution's file, not the other's. */
static void
test_vendor_npy (OviTmpDir *f, gconstpointer data)
{
  const double mine[][8] = { { 1, 2, 3, 4, 5, 6, 7, 8 }, { 1, 2, 3, 4, 5, 6, 7, 8 } };
  const double golden[][8] = { { 1, 2, 3, 4, 5, 6, 7, 8 },
                               { 1, 2, 3, 4, 5, 6, 7, 5 },
                               { 9, 9, 9, 9, 9, 9, 9, 9 } };
  const char *names[] = { "net_mul.0.100.npy", "net_mul.1.100.npy", "net_mul.1.200.npy" };
  g_autofree char *mine_dir = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden_dir = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *npy_dir = g_build_filename (f->dir, "vendor", NULL);
  g_autofree char *mine_path = write_mul (mine_dir, "Mul.net_mul.1.1.1", mine, 2);
  g_autofree char *golden_path = write_mul (golden_dir, "Mul.net_mul.1.1.2", golden, 3);
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (export_npy (golden_path, i, npy_dir, names[i]));
  {
    g_autofree char *expected = g_build_filename (npy_dir, names[1], NULL);

    pair = compute (mine_path, npy_dir, OVI_TENSOR_OUTPUT, 1, 0, 0, 4, 4, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (pair->golden.path, ==, expected);
    g_assert_cmpuint (pair->out_of_tolerance, ==, 1);
    g_assert_cmpfloat (pair->golden.max, ==, 7);
  }
}

/* FFTS+ thread slices, one file per thread, read as the diff joins them:
 * thread 0's and thread 1's halves one after the other, shaped [2, 4],
 * against a golden of the whole tensor. */
static void
test_slices (OviTmpDir *f, gconstpointer data)
{
  const double in[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  double changed[8];
  const guint64 half[] = { 1, 4 }, whole[] = { 2, 4 };
  g_autofree char *mine_dir = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *first = NULL, *golden_path = NULL;
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;

  memcpy (changed, in, sizeof in);
  changed[6] = -7; /* in thread 1's half */
  for (guint thread = 0; thread < 2; thread++)
    {
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");
      g_autofree char *name =
          g_strdup_printf ("Conv2D.net_conv.120.5.%u.4.1.%u.0", 1000 + thread, thread);
      g_autofree char *path = NULL;

      ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, half, 2, changed + 4 * thread);
      path = ovi_fixture_write (w, OVI_LAYOUT_NEW, mine_dir, name);
      if (thread == 0)
        first = g_steal_pointer (&path);
    }
  {
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");

    ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, whole, 2, in);
    golden_path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Conv2D.net_conv.120.5.1000");
  }
  pair = compute (mine_dir, golden_path, OVI_TENSOR_INPUT, 0, 0, 0, 4, 8, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pair->count, ==, 8);
  g_assert_cmpstr (pair->mine.shape, ==, "[2, 4]");
  g_assert_cmpuint (pair->out_of_tolerance, ==, 1);
  g_assert_cmpuint (pair->strip[6], ==, 1);
  g_assert_cmpfloat (pair->mine.min, ==, -7);
  g_assert_cmpstr (pair->mine.path, ==, first); /* "Show" opens thread 0's file */
}

/* Errors name the file: a missing tensor, sides of different sizes. */
static void
test_errors (OviTmpDir *f, gconstpointer data)
{
  const guint64 s8[] = { 8 }, s4[] = { 4 };
  const double v[8] = { 0 };
  g_autofree char *p8 = NULL, *p4 = NULL;
  g_autoptr (OviDiffPair) pair = NULL;
  g_autoptr (GError) error = NULL;

  p8 = write_op (f->dir, "A.a.1.1.1", OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, s8, 1, v, 8, NULL, 0);
  p4 = write_op (f->dir, "A.b.1.1.1", OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, s4, 1, v, 4, NULL, 0);
  pair = compute (p8, p4, OVI_TENSOR_OUTPUT, 3, 0, 0, 4, 4, &error);
  g_assert_null (pair);
  g_assert_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NO_TENSOR);
  g_assert_nonnull (strstr (error->message, p8));
  g_clear_error (&error);
  pair = compute (p8, p4, OVI_TENSOR_OUTPUT, 0, 0, 0, 4, 4, &error);
  g_assert_null (pair);
  g_assert_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NOT_COMPARABLE);
  g_assert_nonnull (strstr (error->message, p8));
  g_assert_nonnull (strstr (error->message, p4));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/diff-pair/bins-and-strip", OviTmpDir, NULL, ovi_tmp_dir_setup, test_bins_and_strip,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-pair/wide-range", OviTmpDir, NULL, ovi_tmp_dir_setup, test_wide_range,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-pair/device-layout", OviTmpDir, NULL, ovi_tmp_dir_setup, test_device_layout,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-pair/npy-golden", OviTmpDir, NULL, ovi_tmp_dir_setup, test_npy_golden,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-pair/vendor-npy", OviTmpDir, NULL, ovi_tmp_dir_setup, test_vendor_npy,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-pair/slices", OviTmpDir, NULL, ovi_tmp_dir_setup, test_slices,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-pair/errors", OviTmpDir, NULL, ovi_tmp_dir_setup, test_errors,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
