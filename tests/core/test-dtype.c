/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"

/* The data types of the newer schema (dump-format.md section 6): every
 * special bit pattern, the extremes and a few ordinary values, worked out
 * by hand from the OCP Microscaling (MX) specification v1.0 (E5M2, E4M3FN,
 * E8M0) and from "Ascend HiFloat8 Format for Deep Learning" (arXiv
 * 2409.16626), not from the decoder. */

typedef struct
{
  guint8 pattern;
  double value; /* NAN for NaN; -0.0 where the sign of zero matters */
} Known;

static void
check_known (int dtype, const Known *known, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      double got = ovi_dtype_decode_pattern (dtype, known[i].pattern);
      float via_float8 = ovi_float8_to_float (dtype, known[i].pattern);

      g_test_message ("%s 0x%02x", ovi_dtype_name (dtype), known[i].pattern);
      if (isnan (known[i].value))
        {
          g_assert_true (isnan (got));
          g_assert_true (isnan (via_float8));
          continue;
        }
      g_assert_cmpfloat (got, ==, known[i].value);
      g_assert_cmpfloat (via_float8, ==, known[i].value);
      g_assert_cmpint (!!signbit (got), ==, !!signbit (known[i].value));
    }
}

static guint
count_nan_patterns (int dtype)
{
  guint n = 0;
  for (guint p = 0; p < 256; p++)
    n += isnan (ovi_dtype_decode_pattern (dtype, p));
  return n;
}

/* OCP MX v1.0 table "E4M3": bias 7, no infinities, NaN S.1111.111, zeros
 * S.0000.000, max normal S.1111.110 = 2^8 x 1.75 = 448, min normal
 * S.0001.000 = 2^-6, max subnormal S.0000.111 = 2^-6 x 0.875, min
 * subnormal S.0000.001 = 2^-9. */
static void
test_e4m3fn (void)
{
  static const Known known[] = {
    { 0x00, 0.0 },         { 0x80, -0.0 },         { 0x7f, NAN },      { 0xff, NAN },
    { 0x7e, 448.0 },       { 0xfe, -448.0 },       { 0x08, 0.015625 }, { 0x07, 0.013671875 },
    { 0x01, 0.001953125 }, { 0x81, -0.001953125 }, { 0x38, 1.0 },      { 0x3c, 1.5 },
    { 0x40, 2.0 },         { 0xc0, -2.0 },         { 0x78, 256.0 },    { 0x7d, 416.0 },
    { 0x30, 0.5 },         { 0x4b, 5.5 }, /* 0.1001.011 = 2^(9 - 7) x (1 + 3/8) */
  };
  check_known (OVI_DTYPE_FLOAT8_E4M3FN, known, G_N_ELEMENTS (known));

  g_assert_cmpfloat (ovi_dtype_max_finite (OVI_DTYPE_FLOAT8_E4M3FN), ==, 448.0);
  /* One NaN per sign, and no infinity at all. */
  g_assert_cmpuint (count_nan_patterns (OVI_DTYPE_FLOAT8_E4M3FN), ==, 2);
  for (guint p = 0; p < 256; p++)
    g_assert_false (isinf (ovi_float8_e4m3fn_to_float (p)));
}

/* OCP MX v1.0 table "E5M2": bias 15, infinities S.11111.00, NaN
 * S.11111.{01, 10, 11}, max normal S.11110.11 = 2^15 x 1.75 = 57344, min
 * normal S.00001.00 = 2^-14, max subnormal S.00000.11 = 2^-14 x 0.75, min
 * subnormal S.00000.01 = 2^-16. */
static void
test_e5m2 (void)
{
  static const Known known[] = {
    { 0x00, 0.0 },
    { 0x80, -0.0 },
    { 0x7c, INFINITY },
    { 0xfc, -INFINITY },
    { 0x7d, NAN },
    { 0x7e, NAN },
    { 0x7f, NAN },
    { 0xfd, NAN },
    { 0xfe, NAN },
    { 0xff, NAN },
    { 0x7b, 57344.0 },
    { 0xfb, -57344.0 },
    { 0x04, 0.00006103515625 },
    { 0x03, 0.0000457763671875 },
    { 0x01, 0.0000152587890625 },
    { 0x3c, 1.0 },
    { 0xc0, -2.0 },
    { 0x3e, 1.5 },
    { 0x49, 10.0 },
  };
  check_known (OVI_DTYPE_FLOAT8_E5M2, known, G_N_ELEMENTS (known));
  g_assert_cmpfloat (ovi_dtype_max_finite (OVI_DTYPE_FLOAT8_E5M2), ==, 57344.0);
  g_assert_cmpuint (count_nan_patterns (OVI_DTYPE_FLOAT8_E5M2), ==, 6);
}

/* OCP MX v1.0 table "E8M0": bias 127, no infinities, no zeros, no sign,
 * NaN 11111111, max 11111110 = 2^127, min 00000000 = 2^-127. */
static void
test_e8m0 (void)
{
  static const Known known[] = {
    { 0xff, NAN }, { 0xfe, 0x1p127 }, { 0x00, 0x1p-127 }, { 0x7f, 1.0 },
    { 0x80, 2.0 }, { 0x7e, 0.5 },     { 0x8a, 2048.0 },   { 0x01, 0x1p-126 },
  };
  check_known (OVI_DTYPE_FLOAT8_E8M0, known, G_N_ELEMENTS (known));
  g_assert_cmpfloat (ovi_dtype_max_finite (OVI_DTYPE_FLOAT8_E8M0), ==, 0x1p127);
  g_assert_cmpuint (count_nan_patterns (OVI_DTYPE_FLOAT8_E8M0), ==, 1);
  /* Unsigned and never zero: every other pattern is a positive power of 2. */
  for (guint p = 0; p < 255; p++)
    {
      int e;
      double v = ovi_float8_e8m0_to_float (p);
      g_assert_cmpfloat (frexp (v, &e), ==, 0.5);
      g_assert_cmpint (e - 1, ==, (int) p - 127);
    }
}

/* HiFloat8 (arXiv 2409.16626): S, dot (11, 10, 01, 001, 0001, 0000 for
 * exponent widths 4, 3, 2, 1, 0 and denormals), exponent in sign-magnitude
 * with an implicit leading 1, mantissa. Worked out bit by bit:
 *   0x08 = 0.0001.000: exponent 0, 1.000        = 1
 *   0x0c = 0.0001.100: exponent 0, 1.100        = 1.5
 *   0x10 = 0.001.0.000: exponent +1             = 2
 *   0x18 = 0.001.1.000: exponent -1             = 0.5
 *   0x1c = 0.001.1.100: exponent -1, 1.5        = 0.75
 *   0x20 = 0.01.0.0.000: exponent +(10b) = 2    = 4
 *   0x24 = 0.01.0.0.100: 4 x 1.5                = 6
 *   0x28 = 0.01.0.1.000: exponent +(11b) = 3    = 8
 *   0x30 = 0.01.1.0.000: exponent -2            = 0.25
 *   0x40 = 0.10.0.00.00: exponent +(100b) = 4   = 16
 *   0x5c = 0.10.1.11.00: exponent -(111b) = -7  = 0.0078125
 *   0x60 = 0.11.0.000.0: exponent +8            = 256
 *   0x61 = 0.11.0.000.1: 256 x 1.5              = 384
 *   0x6d = 0.11.0.110.1: 2^14 x 1.5             = 24576
 *   0x6e = 0.11.0.111.0: 2^15, the largest      = 32768
 *   0x6f = 0.11.0.111.1: +Inf
 *   0x7e = 0.11.1.111.0: 2^-15, the smallest normal
 *   0x07 = 0.0000.111: denormal 2^(7 - 23)      = 2^-16
 *   0x01 = 0.0000.001: denormal 2^(1 - 23)      = 2^-22, the smallest
 *   0x00 zero (the only one), 0x80 NaN (the only one). */
static void
test_hifloat8 (void)
{
  static const Known known[] = {
    { 0x00, 0.0 },     { 0x80, NAN },       { 0x6f, INFINITY }, { 0xef, -INFINITY },
    { 0x6e, 32768.0 }, { 0xee, -32768.0 },  { 0x01, 0x1p-22 },  { 0x81, -0x1p-22 },
    { 0x07, 0x1p-16 }, { 0x7e, 0x1p-15 },   { 0x08, 1.0 },      { 0x88, -1.0 },
    { 0x0c, 1.5 },     { 0x10, 2.0 },       { 0x18, 0.5 },      { 0x1c, 0.75 },
    { 0x20, 4.0 },     { 0x24, 6.0 },       { 0x28, 8.0 },      { 0x30, 0.25 },
    { 0x40, 16.0 },    { 0x5c, 0.0078125 }, { 0x60, 256.0 },    { 0x61, 384.0 },
    { 0x6d, 24576.0 }, { 0xe0, -256.0 },
  };
  double largest = 0, smallest = INFINITY;
  guint zeros = 0, infinities = 0;

  check_known (OVI_DTYPE_HIFLOAT8, known, G_N_ELEMENTS (known));
  g_assert_cmpfloat (ovi_dtype_max_finite (OVI_DTYPE_HIFLOAT8), ==, 32768.0);
  g_assert_cmpuint (count_nan_patterns (OVI_DTYPE_HIFLOAT8), ==, 1);
  for (guint p = 0; p < 256; p++)
    {
      double v = ovi_hifloat8_to_float (p);
      zeros += v == 0;
      infinities += isinf (v) != 0;
      if (isfinite (v) && v != 0)
        {
          largest = MAX (largest, fabs (v));
          smallest = MIN (smallest, fabs (v));
        }
    }
  /* The paper: one zero, 38 binades from 2^-22 to 2^15. */
  g_assert_cmpuint (zeros, ==, 1);
  g_assert_cmpuint (infinities, ==, 2);
  g_assert_cmpfloat (largest, ==, 32768.0);
  g_assert_cmpfloat (smallest, ==, 0x1p-22);
  /* Every finite pattern is a distinct value: the encoding has no waste
   * besides NaN and the infinities. */
  for (guint p = 1; p < 256; p++)
    for (guint q = p + 1; q < 256; q++)
      {
        double a = ovi_hifloat8_to_float (p), b = ovi_hifloat8_to_float (q);
        if (isfinite (a) && isfinite (b))
          g_assert_cmpfloat (a, !=, b);
      }
}

/* complex32: (real, imaginary) float16 pairs, analysed by magnitude. */
static void
test_complex32 (void)
{
  static const guint16 raw[] = {
    0x4200, 0x4400, /* 3 + 4i: |5| */
    0x7bff, 0x0000, /* 65504: saturated */
    0x7e00, 0x3c00, /* NaN + 1i */
    0x0000, 0xfc00, /* -Inf i: +Inf magnitude */
    0xbc00, 0x0000, /* -1 */
    0x0000, 0x0000,
  };
  g_autoptr (GBytes) data = g_bytes_new (raw, sizeof raw);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  const OviStats *s;

  g_assert_true (ovi_dtype_is_complex (OVI_DTYPE_COMPLEX32));
  g_assert_cmpuint (ovi_dtype_bits (OVI_DTYPE_COMPLEX32), ==, 32);
  g_assert_cmpfloat (ovi_dtype_max_finite (OVI_DTYPE_COMPLEX32), ==, 65504.0);
  a = ovi_analysis_new (OVI_DTYPE_COMPLEX32, data, &error);
  g_assert_no_error (error);
  s = ovi_analysis_get_stats (a);
  g_assert_cmpuint (s->count, ==, 6);
  g_assert_cmpuint (s->finite, ==, 4);
  g_assert_cmpuint (s->nan, ==, 1);
  g_assert_cmpuint (s->pos_inf, ==, 1);
  g_assert_cmpuint (s->saturated, ==, 1);
  g_assert_cmpint (s->first_saturated, ==, 1);
  g_assert_cmpint (s->first_nan, ==, 2);
  g_assert_cmpint (s->first_pos_inf, ==, 3);
  g_assert_cmpfloat (s->min, ==, 0.0);
  g_assert_cmpfloat (s->max, ==, 65504.0);
  g_assert_cmpfloat (s->mean, ==, (5.0 + 65504.0 + 1.0 + 0.0) / 4);
  g_assert_cmpfloat (ovi_analysis_value_at (a, 0), ==, 5.0);
  g_assert_cmpfloat (ovi_analysis_value_at (a, 4), ==, 1.0);
}

/* A small e4m3fn tensor as saturation mode leaves it, and a large one
 * (counted by bit pattern instead of element by element). */
static void
test_e4m3fn_statistics (void)
{
  static const double v[] = { 1.5, 448, -448, NAN, 0, 448, -2, 0.25 };
  g_autoptr (GBytes) small = ovi_fixture_encode (OVI_DTYPE_FLOAT8_E4M3FN, v, G_N_ELEMENTS (v));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT8_E4M3FN, small, &error);
  g_autoptr (OviHistogram) h = NULL;
  g_autoptr (OviAnalysis) big = NULL;
  g_autoptr (GByteArray) many = g_byte_array_new ();
  const OviStats *s;

  g_assert_no_error (error);
  s = ovi_analysis_get_stats (a);
  g_assert_cmpuint (s->count, ==, 8);
  g_assert_cmpuint (s->finite, ==, 7);
  g_assert_cmpuint (s->nan, ==, 1);
  g_assert_cmpuint (s->pos_inf + s->neg_inf, ==, 0);
  g_assert_cmpuint (s->saturated, ==, 3);
  g_assert_cmpint (s->first_saturated, ==, 1);
  g_assert_cmpint (s->first_nan, ==, 3);
  g_assert_cmpint (s->first_nonfinite, ==, 3);
  g_assert_cmpuint (s->zeros, ==, 1);
  g_assert_cmpfloat (s->min, ==, -448);
  g_assert_cmpfloat (s->max, ==, 448);
  g_assert_cmpfloat (s->max_abs, ==, 448);
  /* (1.5 + 448 - 448 + 0 + 448 - 2 + 0.25) / 7 = 447.75 / 7 */
  g_assert_cmpfloat_with_epsilon (s->mean, 447.75 / 7, 1e-12);
  g_assert_true (ovi_stats_is_abnormal (s));

  h = ovi_analysis_histogram (a, 4, OVI_HISTOGRAM_LINEAR, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (h->pos_saturated, ==, 2);
  g_assert_cmpuint (h->neg_saturated, ==, 1);
  g_assert_cmpuint (h->nan, ==, 1);
  g_assert_cmpfloat (h->saturation_value, ==, 448);
  /* The regular bins span the unsaturated values, -2 to 1.5. */
  g_assert_cmpfloat (h->edges[0], ==, -2);
  g_assert_cmpfloat (h->edges[4], ==, 1.5);

  /* 4096 elements: 0x7e (448) every 512th, 0xfe (-448) once, 0x38 (1)
   * elsewhere. */
  for (guint i = 0; i < 4096; i++)
    g_byte_array_append (many,
                         (const guint8[]){ i == 1000      ? 0xfe
                                           : i % 512 == 7 ? 0x7e
                                                          : 0x38 },
                         1);
  big = ovi_analysis_new (OVI_DTYPE_FLOAT8_E4M3FN, g_bytes_new_static (many->data, many->len),
                          &error);
  g_assert_no_error (error);
  s = ovi_analysis_get_stats (big);
  g_assert_cmpuint (s->count, ==, 4096);
  g_assert_cmpuint (s->saturated, ==, 9);
  g_assert_cmpint (s->first_saturated, ==, 7);
  g_assert_cmpuint (s->nan, ==, 0);
  g_assert_cmpfloat (s->min, ==, -448);
  g_assert_cmpfloat (s->max, ==, 448);
  g_assert_cmpfloat (ovi_analysis_value_at (big, 1000), ==, -448);
}

/* HiFloat8 and E8M0 tensors analysed through a dump file: Inf, NaN and the
 * saturated value found and located. */
static void
test_new_float8_tensors (void)
{
  static const double hif8[] = { 1, 32768, -0.75, INFINITY, 0x1p-22, NAN };
  static const double e8m0[] = { 1, 0x1p127, 0x1p-127, NAN, 0.5 };
  g_autoptr (GBytes) a_bytes = ovi_fixture_encode (OVI_DTYPE_HIFLOAT8, hif8, 6);
  g_autoptr (GBytes) b_bytes = ovi_fixture_encode (OVI_DTYPE_FLOAT8_E8M0, e8m0, 5);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_HIFLOAT8, a_bytes, NULL);
  g_autoptr (OviAnalysis) b = ovi_analysis_new (OVI_DTYPE_FLOAT8_E8M0, b_bytes, NULL);
  const guint8 *p = g_bytes_get_data (a_bytes, NULL);
  const OviStats *s;

  /* The encoder picked the patterns worked out by hand above. */
  g_assert_cmphex (p[0], ==, 0x08);
  g_assert_cmphex (p[1], ==, 0x6e);
  g_assert_cmphex (p[2], ==, 0x9c);
  g_assert_cmphex (p[3], ==, 0x6f);
  g_assert_cmphex (p[4], ==, 0x01);
  g_assert_cmphex (p[5], ==, 0x80);

  s = ovi_analysis_get_stats (a);
  g_assert_cmpuint (s->finite, ==, 4);
  g_assert_cmpuint (s->pos_inf, ==, 1);
  g_assert_cmpuint (s->nan, ==, 1);
  g_assert_cmpuint (s->saturated, ==, 1);
  g_assert_cmpint (s->first_saturated, ==, 1);
  g_assert_cmpint (s->first_pos_inf, ==, 3);
  g_assert_cmpint (s->first_nan, ==, 5);
  g_assert_cmpfloat (s->min, ==, -0.75);
  g_assert_cmpfloat (s->max, ==, 32768);

  s = ovi_analysis_get_stats (b);
  g_assert_cmpuint (s->finite, ==, 4);
  g_assert_cmpuint (s->nan, ==, 1);
  g_assert_cmpuint (s->zeros, ==, 0);
  g_assert_cmpuint (s->saturated, ==, 1);
  g_assert_cmpfloat (s->min, ==, 0x1p-127);
  g_assert_cmpfloat (s->max, ==, 0x1p127);
}

typedef OviTmpDir Fixture;

/* Six- and four-bit types: named, sized, kept as bytes, never decoded,
 * and not a broken file. */
static void
test_undecodable (Fixture *f, gconstpointer data)
{
  static const guint8 raw[] = { 0x12, 0x34, 0x56 };
  const guint64 shape[] = { 6 };
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("fp4/op");
  g_autoptr (GBytes) bytes = g_bytes_new (raw, sizeof raw);
  g_autoptr (GFile) root = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) json = NULL;
  g_autofree char *text = NULL;
  g_autofree char *iteration = g_build_filename (f->dir, "0", NULL);
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GBytes) loaded = NULL;
  g_autoptr (GError) stats_error = NULL;
  static const char *const names[] = { "float6_e3m2", "float6_e2m3", "float4_e2m1",
                                       "float4_e1m2", "hifloat4",    "hifloat4_scale" };
  OviTensor *t;
  JsonObject *o;

  for (int dtype = 37; dtype <= 42; dtype++)
    {
      g_autofree char *reason = ovi_dtype_dup_unsupported_reason (dtype);
      g_assert_cmpstr (ovi_dtype_name (dtype), ==, names[dtype - 37]);
      g_assert_false (ovi_dtype_is_supported (dtype));
      g_assert_true (ovi_dtype_is_packing_unknown (dtype));
      g_assert_cmpuint (ovi_dtype_bits (dtype), ==, 0);
      g_assert_nonnull (strstr (reason, names[dtype - 37]));
      g_assert_nonnull (strstr (reason, "cannot be decoded"));
    }
  g_assert_false (ovi_dtype_is_packing_unknown (OVI_DTYPE_FLOAT8_E8M0));
  g_assert_false (ovi_dtype_is_packing_unknown (43));

  /* Three bytes for a shape of six: right for packed four-bit values,
   * but the reader cannot know, so no size error either way. */
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT4_E2M1, 2, shape, 1, bytes);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, iteration, "Quant.fp4_op.3.4.1700000000000000");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  g_assert_cmpint (ovi_tensor_get_dtype (t), ==, OVI_DTYPE_FLOAT4_E2M1);
  g_assert_cmpuint (ovi_tensor_get_size (t), ==, 3);
  loaded = ovi_tensor_load_data (t, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (loaded, bytes));
  g_assert_null (ovi_tensor_analyze (t, &stats_error));
  g_assert_error (stats_error, OVI_STATS_ERROR, OVI_STATS_ERROR_UNSUPPORTED_DTYPE);
  g_assert_cmpstr (stats_error->message, ==,
                   "float4_e2m1 values cannot be decoded: how they are packed into bytes is not "
                   "documented; the raw bytes can be exported (.bin)");

  json = ovi_report_tensor_json (t);
  o = json_node_get_object (json);
  g_assert_cmpstr (json_object_get_string_member (o, "dtype"), ==, "float4_e2m1");
  g_assert_cmpstr (json_object_get_string_member (o, "error"), ==, stats_error->message);
  g_assert_true (json_object_get_null_member (o, "nan"));

  /* An overflow record on it, so that the text report lists its tensor. */
  {
    OviClassicBlock none = { 0 };
    OviClassicBlock aicore = { .model_id = 1, .stream_id = 4, .task_id = 3, .status = 0x20 };
    g_autoptr (GBytes) payload = ovi_overflow_payload_classic (&none, &none, &aicore);
    g_autofree char *debug =
        g_build_filename (iteration, "Opdebug.Node_OpDebug.9.4.1700000000000100", NULL);
    g_assert_true (ovi_write_overflow_file (debug, payload, OVI_LAYOUT_NEW, &error));
    g_assert_no_error (error);
  }

  /* The folder lists the file and has no problem with it. */
  root = g_file_new_for_path (f->dir);
  folder = ovi_dump_folder_new (root);
  g_assert_true (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  text = ovi_report_to_text_full (folder, OVI_REPORT_FULL);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text,
                            "output 0  float4_e2m1 ND [6]\n      float4_e2m1 values cannot be "
                            "decoded: how they are packed into bytes is not documented"));
  g_assert_null (strstr (text, "Files that could not be read"));
}

/* Blame over the new types: clean float16 inputs quantised to e4m3fn
 * values clamped at 448 make an origin; a hifloat8 input holding +Inf
 * passed on to a complex32 output makes a propagated operator; a float4
 * tensor has no verdict. */
static void
test_blame (Fixture *f, gconstpointer data)
{
  static const double clean[] = { 0.5, -1, 2, 3 };
  static const double clamped[] = { 448, -448, 2, 3 };
  static const double with_inf[] = { 1, INFINITY, 2, 3 };
  static const guint8 fp4[] = { 0x12, 0x34 };
  const guint64 shape[] = { 4 };
  g_autoptr (OviDumpWriter) quant = ovi_dump_writer_new ("quant");
  g_autoptr (OviDumpWriter) carry = ovi_dump_writer_new ("carry");
  g_autoptr (OviDumpWriter) fp4_only = ovi_dump_writer_new ("fp4");
  g_autoptr (GBytes) fp4_bytes = g_bytes_new_static (fp4, sizeof fp4);
  g_autofree char *p1 = NULL, *p2 = NULL, *p3 = NULL;
  g_autoptr (OviDumpFile) f1 = NULL, f2 = NULL, f3 = NULL;

  ovi_fixture_add (quant, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 1, clean);
  ovi_fixture_add (quant, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT8_E4M3FN, shape, 1, clamped);
  p1 = ovi_fixture_write (quant, OVI_LAYOUT_NEW, f->dir, "Quant.quant.1.2.3");
  ovi_fixture_add (carry, OVI_TENSOR_INPUT, OVI_DTYPE_HIFLOAT8, shape, 1, with_inf);
  ovi_fixture_add (carry, OVI_TENSOR_OUTPUT, OVI_DTYPE_COMPLEX32, shape, 1, with_inf);
  p2 = ovi_fixture_write (carry, OVI_LAYOUT_NEW, f->dir, "Carry.carry.2.2.3");
  ovi_dump_writer_add_tensor (fp4_only, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT4_E2M1, 2, shape, 1,
                              fp4_bytes);
  p3 = ovi_fixture_write (fp4_only, OVI_LAYOUT_NEW, f->dir, "Fp4.fp4.3.2.3");

  f1 = ovi_dump_file_load (p1, NULL, NULL);
  f2 = ovi_dump_file_load (p2, NULL, NULL);
  f3 = ovi_dump_file_load (p3, NULL, NULL);
  g_assert_cmpint (ovi_classifier_classify (f1), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_classifier_classify (f2), ==, OVI_BLAME_PROPAGATED);
  g_assert_cmpint (ovi_classifier_classify (f3), ==, OVI_BLAME_UNKNOWN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/dtype/float8-e4m3fn", test_e4m3fn);
  g_test_add_func ("/core/dtype/float8-e5m2", test_e5m2);
  g_test_add_func ("/core/dtype/float8-e8m0", test_e8m0);
  g_test_add_func ("/core/dtype/hifloat8", test_hifloat8);
  g_test_add_func ("/core/dtype/complex32", test_complex32);
  g_test_add_func ("/core/dtype/e4m3fn-statistics", test_e4m3fn_statistics);
  g_test_add_func ("/core/dtype/new-float8-tensors", test_new_float8_tensors);
  g_test_add ("/core/dtype/undecodable", Fixture, NULL, ovi_tmp_dir_setup, test_undecodable,
              ovi_tmp_dir_teardown);
  g_test_add ("/core/dtype/blame", Fixture, NULL, ovi_tmp_dir_setup, test_blame,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
