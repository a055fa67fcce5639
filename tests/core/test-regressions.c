/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

/* Regressions: each test is a bug the core tests found, with the input
 * that showed it. */

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"

typedef struct
{
  char *dir;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("ovi-bugs-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  g_free (f->dir);
}

/* Bug 1 (src/core/ovi-dump-writer.c, fill_shape/unpacked_shape): with
 * OVI_WRITER_UNPACKED_DIMS the Shape is stored as a protobuf-c unknown field
 * whose data lacks the length prefix (protobuf-c writes unknown-field data
 * verbatim after the tag), so every file written that way is corrupt: its
 * header does not parse ("the N-byte header does not parse as a dump
 * message"). Expected: the file loads with the same shape as the packed one.
 * Belongs in test-dump-file.c (dtypes/order with the unpacked variant). */
static void
test_writer_unpacked_dims (Fixture *f, gconstpointer data)
{
  const guint64 shape[] = { 2, 3 };
  static const double v[] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT32, v, 6);

  for (guint l = 0; l < 2; l++)
    {
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("unpacked");
      g_autofree char *name = g_strdup_printf ("U.unpacked.1.2.%u", l);
      g_autofree char *path = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      const guint64 *s;
      guint n;

      ovi_dump_writer_set_flags (w, OVI_WRITER_UNPACKED_DIMS);
      ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, shape, 2, d);
      path = ovi_fixture_write (w, l ? OVI_LAYOUT_OLD : OVI_LAYOUT_NEW, f->dir, name);
      file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);
      s = ovi_tensor_get_shape (g_ptr_array_index (ovi_dump_file_get_tensors (file), 0), &n);
      g_assert_cmpmem (s, n * sizeof (guint64), shape, sizeof shape);
    }
}

/* Bug 2 (src/core/ovi-dump-file.c, read_header): load_old_layout (self, NULL)
 * throws away its error. An old-layout file whose message parses but fails a
 * check (size field != count x element size, a shape that overflows 64 bits,
 * a size field that disagrees with the inline data) is then reported as
 * OVI_DUMP_FILE_ERROR_HEADER_TOO_LONG "header length 17835116748436800266 is
 * larger than the file (46 bytes), and the file is not an old-layout dump
 * message either" (or BAD_MESSAGE/EMPTY_MESSAGE from the new-layout attempt)
 * instead of ELEMENT_SIZE / SIZE_MISMATCH with the real reason.
 * Belongs in test-dump-file.c, broken/element-size. */
static void
test_old_layout_error_kept (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) eight = g_bytes_new_take (g_malloc0 (8), 8);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("es");
  const guint64 shape[] = { 3 };
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = NULL;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, shape, 1, eight);
  bytes = ovi_dump_writer_build (w, OVI_LAYOUT_OLD);
  path = ovi_fixture_write_bytes (f->dir, "E.e.1.2.3", g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes));
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_ELEMENT_SIZE);
  g_assert_nonnull (strstr (error->message, "3 elements of float32 take 12 bytes"));
}

/* Bug 3 (src/core/ovi-tensor.c, ovi_tensor_analyze): it calls
 * ovi_analysis_new (dtype, data), which takes the element count from the
 * byte size (size * 2 for int4), not ovi_tensor_get_count(). An int4 tensor
 * of shape [5] (3 bytes) is analysed as 6 elements: stats count 6 instead
 * of 5, and the padding nibble is counted as an extra value (a zero here).
 * Belongs in test-stats.c or test-dump-file.c. */
static void
test_int4_odd_count (Fixture *f, gconstpointer data)
{
  static const double v[] = { -8, 7, 1, -1, 3 };
  const guint64 shape[] = { 5 };
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("i4");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  OviTensor *t;

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_INT4, shape, 1, v);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "I4.i4.1.2.3");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  g_assert_cmpuint (ovi_tensor_get_count (t), ==, 5);
  a = ovi_tensor_analyze (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ovi_analysis_get_stats (a)->count, ==, 5);
  g_assert_cmpuint (ovi_analysis_get_stats (a)->zeros, ==, 0);
  g_assert_cmpfloat_with_epsilon (ovi_analysis_get_stats (a)->mean, 2.0 / 5, 1e-12);
}

/* Bug 4 (src/core/ovi-stats.c, finish_stats): var = sumsq / n - m * m
 * overflows to inf - inf = NaN for float64 values near the type's range,
 * and MAX (var, 0.0) turns the NaN into 0, so a float64 tensor
 * { 1.7976931348623157e308, -1e300, 0 } reports std 0 (a constant tensor!)
 * instead of about 8.47e307 (or at least not 0). */
static void
test_std_huge_float64 (void)
{
  static const double v[] = { 1.7976931348623157e308, -1e300, 0 };
  g_autoptr (GBytes) d = g_bytes_new (v, sizeof v);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT64, d, NULL);
  const OviStats *s = ovi_analysis_get_stats (a);
  long double m = ((long double) v[0] + v[1] + v[2]) / 3;
  double expected = (double) sqrtl ((((long double) v[0] - m) * (v[0] - m) +
                                     ((long double) v[1] - m) * (v[1] - m) +
                                     ((long double) v[2] - m) * (v[2] - m)) /
                                    3);

  g_assert_cmpuint (s->finite, ==, 3);
  g_assert_cmpuint (s->saturated, ==, 1);
  g_assert_cmpfloat (s->std, >, 0);
  g_assert_cmpfloat_with_epsilon (s->std, expected, 1e-6 * expected);
}

/* Bug 4b (src/core/ovi-stats.c, partial_add/finish_stats and
 * ovi_analysis_histogram): the same overflow for the mean and the linear
 * histogram: float64 { -1e308, 0, 1e308, 5e307 } gives mean inf (true
 * 1.25e307), std 0, linear edges { -1e308, inf, inf, inf, 1e308 } and all
 * four values counted in bin 0. */
static void
test_mean_histogram_huge_float64 (void)
{
  static const double v[] = { -1e308, 0, 1e308, 5e307 };
  g_autoptr (GBytes) d = g_bytes_new (v, sizeof v);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT64, d, NULL);
  g_autoptr (OviHistogram) h = ovi_analysis_histogram (a, 4, OVI_HISTOGRAM_LINEAR, NULL);
  const OviStats *s = ovi_analysis_get_stats (a);

  g_assert_cmpfloat_with_epsilon (s->mean, 1.25e307, 1e301);
  g_assert_cmpfloat (s->std, >, 1e307);
  for (guint i = 0; i <= 4; i++)
    g_assert_true (isfinite (h->edges[i]));
  g_assert_cmpuint (h->counts[0], ==, 1);
  g_assert_cmpuint (h->counts[3], ==, 2);
}

/* Bug 5 (src/core/ovi-report.c, add_int): u64 values are cast to gint64,
 * so the report JSON (overflow-inspector-cli report --json) prints a
 * model_id of 18446744073709551615 as -1 and an AI Core status with bit 63
 * set (0x8000000000000010) as -9223372036854775792, while status_hex says
 * "0x8000000000000010" and the text report prints both right.
 * dump-format.md section 4: integers are u64 and may exceed 2^63. */
static void
test_report_u64 (Fixture *f, gconstpointer data)
{
  OviClassicBlock core = { G_MAXUINT64, 7, 57,
                           0,           0, 0,
                           0,           0, G_GUINT64_CONSTANT (0x8000000000000010) };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *path = g_build_filename (f->dir, "Opdebug.Node_OpDebug.2.7.5", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (f->dir);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autofree char *json = NULL;

  g_assert_true (ovi_write_overflow_file (path, p, OVI_LAYOUT_NEW, NULL));
  g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
  json = ovi_report_to_json (folder);
  g_assert_null (strstr (json, "\"model_id\" : -1"));
  g_assert_null (strstr (json, "-9223372036854775792"));
}

/* Bug 6 (src/core/ovi-file-name.c, ovi_file_name_parse): the exception
 * dump variant {kernel|exception_info}.{stream}.{task}.{core_type}.{core_id}.{ts}
 * (format-sources.md "File-name variants" 6) is parsed as an OP_DUMP of
 * op_type "exception_info", op_name "7", dump_number 31, task_id 0 (the
 * core type) and stream_id 5 (the core id), so it can be linked to an
 * overflow record of task 0 / stream 5 as the operator that overflowed.
 * Expected: kind EXCEPTION, stream 7, task 31 (or at least not OP_DUMP).
 * Belongs in test-file-name.c. */
static void
test_exception_six_fields (void)
{
  OviFileName n;
  gboolean ok = ovi_file_name_parse ("exception_info.7.31.0.5.1700000000000002", &n);

  if (ok)
    {
      g_assert_cmpint (n.kind, !=, OVI_FILE_KIND_OP_DUMP);
      g_assert_cmpuint (n.stream_id, ==, 7);
      g_assert_cmpuint (n.task_id, ==, 31);
    }
  ovi_file_name_clear (&n);
}

/* Bug 7 (src/core/ovi-stats.c, bin_add vs ovi_histogram_find_bin): a value
 * lying exactly on an interior edge is counted by ovi_analysis_histogram in
 * the bin below ((v - lo) / (hi - lo) * n rounds down to 14.999...) while
 * ovi_histogram_find_bin puts it in the bin the edge opens. float64
 * { 0, 1, 15.0 / 22 } with 22 linear bins: edges[15] == 15.0 / 22, find_bin
 * says 15, counts[15] is 0 and counts[14] is 1. A view that highlights the
 * bin of a selected value shows an empty bin. Belongs in test-stats.c. */
static void
test_histogram_edge_value (void)
{
  /* The edges depend on min and max only; put a value exactly on one. */
  const double range[] = { 0, 1 };
  g_autoptr (GBytes) d0 = g_bytes_new (range, sizeof range);
  g_autoptr (OviAnalysis) a0 = ovi_analysis_new (OVI_DTYPE_FLOAT64, d0, NULL);
  g_autoptr (OviHistogram) h0 = ovi_analysis_histogram (a0, 22, OVI_HISTOGRAM_LINEAR, NULL);
  const double v[] = { 0, 1, h0->edges[15] };
  g_autoptr (GBytes) d = g_bytes_new (v, sizeof v);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT64, d, NULL);
  g_autoptr (OviHistogram) h = ovi_analysis_histogram (a, 22, OVI_HISTOGRAM_LINEAR, NULL);
  int b = ovi_histogram_find_bin (h, v[2]);

  g_assert_cmpfloat (h->edges[15], ==, v[2]);
  g_assert_cmpfloat_with_epsilon (v[2], 15.0 / 22, 1e-15);
  g_assert_cmpint (b, ==, 15);
  g_assert_cmpuint (h->counts[b], ==, 1);
  g_assert_cmpuint (h->counts[14], ==, 0);
}

/* Found by fuzzing: a range between subnormal neighbours made the bin
 * arithmetic divide by zero, and casting the NaN to an integer is undefined. */
static void
test_histogram_subnormal_range (void)
{
  const double v[] = { 4.9406564584124654e-324, 9.8813129168249309e-324, 4.9406564584124654e-324 };
  g_autoptr (GBytes) d = g_bytes_new (v, sizeof v);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT64, d, NULL);
  g_autoptr (OviHistogram) h = ovi_analysis_histogram (a, 4, OVI_HISTOGRAM_LINEAR, NULL);
  guint64 total = 0;

  for (guint i = 0; i < h->n_bins; i++)
    total += h->counts[i];
  /* The step underflows to zero, so the edges collapse; every value is
   * still counted, in the bin find_bin names. */
  g_assert_cmpuint (total, ==, 3);
  g_assert_cmpint (ovi_histogram_find_bin (h, v[0]), >=, 0);
  g_assert_cmpuint (h->counts[ovi_histogram_find_bin (h, v[0])], >=, 2);
  g_assert_cmpuint (h->counts[ovi_histogram_find_bin (h, v[1])], >=, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/core/regressions/writer-unpacked-dims", Fixture, NULL, setup,
              test_writer_unpacked_dims, teardown);
  g_test_add ("/core/regressions/old-layout-error-kept", Fixture, NULL, setup,
              test_old_layout_error_kept, teardown);
  g_test_add ("/core/regressions/int4-odd-count", Fixture, NULL, setup, test_int4_odd_count,
              teardown);
  g_test_add_func ("/core/regressions/std-huge-float64", test_std_huge_float64);
  g_test_add_func ("/core/regressions/mean-histogram-huge-float64",
                   test_mean_histogram_huge_float64);
  g_test_add ("/core/regressions/report-u64", Fixture, NULL, setup, test_report_u64, teardown);
  g_test_add_func ("/core/regressions/exception-six-fields", test_exception_six_fields);
  g_test_add_func ("/core/regressions/histogram-edge-value", test_histogram_edge_value);
  g_test_add_func ("/core/regressions/histogram-subnormal-range", test_histogram_subnormal_range);
  return g_test_run ();
}
