/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Statistics and histograms, checked against values computed here from
 * first principles, in double. */

/* IEEE half to double, written independently of the core's converter. */
static double
half_value (guint16 h)
{
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;

  if (exp == 0x1f)
    v = mant ? NAN : INFINITY;
  else if (exp == 0)
    v = ldexp (mant, -24);
  else
    v = ldexp (1024 + mant, exp - 25);
  return sign ? -v : v;
}

typedef struct
{
  guint64 count, finite, nan, pos_inf, neg_inf, zeros, saturated;
  double min, max, mean, std;
  gint64 first_nonfinite, first_nan, first_pos_inf, first_neg_inf, first_saturated;
} Expected;

static void
expect_from_values (Expected *e, const double *v, guint64 n, double sat)
{
  double sum = 0, sq = 0;

  memset (e, 0, sizeof *e);
  e->count = n;
  e->min = INFINITY;
  e->max = -INFINITY;
  e->first_nonfinite = e->first_nan = e->first_pos_inf = e->first_neg_inf = e->first_saturated = -1;
  for (guint64 i = 0; i < n; i++)
    {
      if (isnan (v[i]))
        {
          e->nan++;
          if (e->first_nan < 0)
            e->first_nan = i;
        }
      else if (isinf (v[i]))
        {
          if (v[i] > 0)
            {
              e->pos_inf++;
              if (e->first_pos_inf < 0)
                e->first_pos_inf = i;
            }
          else
            {
              e->neg_inf++;
              if (e->first_neg_inf < 0)
                e->first_neg_inf = i;
            }
        }
      else
        {
          e->finite++;
          sum += v[i];
          e->min = MIN (e->min, v[i]);
          e->max = MAX (e->max, v[i]);
          if (v[i] == 0)
            e->zeros++;
          if (sat > 0 && fabs (v[i]) == sat)
            {
              e->saturated++;
              if (e->first_saturated < 0)
                e->first_saturated = i;
            }
        }
      if (!isfinite (v[i]) && e->first_nonfinite < 0)
        e->first_nonfinite = i;
    }
  if (e->finite)
    {
      e->mean = sum / e->finite;
      for (guint64 i = 0; i < n; i++)
        if (isfinite (v[i]))
          sq += (v[i] - e->mean) * (v[i] - e->mean);
      e->std = sqrt (sq / e->finite);
    }
  else
    e->min = e->max = e->mean = e->std = NAN;
}

static void
assert_close (double actual, double expected, double scale)
{
  if (isnan (expected))
    {
      g_assert_true (isnan (actual));
      return;
    }
  g_assert_cmpfloat_with_epsilon (actual, expected, 1e-6 * MAX (fabs (expected), scale) + 1e-300);
}

static void
assert_stats (const OviStats *s, const Expected *e)
{
  double scale = MAX (fabs (e->min), fabs (e->max));

  if (isnan (scale))
    scale = 0;
  g_assert_cmpuint (s->count, ==, e->count);
  g_assert_cmpuint (s->finite, ==, e->finite);
  g_assert_cmpuint (s->nan, ==, e->nan);
  g_assert_cmpuint (s->pos_inf, ==, e->pos_inf);
  g_assert_cmpuint (s->neg_inf, ==, e->neg_inf);
  g_assert_cmpuint (s->zeros, ==, e->zeros);
  g_assert_cmpuint (s->saturated, ==, e->saturated);
  g_assert_cmpint (s->first_nonfinite, ==, e->first_nonfinite);
  g_assert_cmpint (s->first_nan, ==, e->first_nan);
  g_assert_cmpint (s->first_pos_inf, ==, e->first_pos_inf);
  g_assert_cmpint (s->first_neg_inf, ==, e->first_neg_inf);
  g_assert_cmpint (s->first_saturated, ==, e->first_saturated);
  if (isnan (e->min))
    {
      g_assert_true (isnan (s->min));
      g_assert_true (isnan (s->max));
      g_assert_true (isnan (s->mean));
      g_assert_true (isnan (s->std));
      return;
    }
  g_assert_cmpfloat (s->min, ==, e->min);
  g_assert_cmpfloat (s->max, ==, e->max);
  g_assert_cmpfloat (s->max_abs, ==, scale);
  assert_close (s->mean, e->mean, 1e-9 * scale);
  assert_close (s->std, e->std, 1e-9 * scale);
}

/* One dtype: raw bytes, and the decoded values a user expects. */
typedef struct
{
  const char *name;
  int dtype;
  GBytes *data;
  guint64 count;
  const double *values;
  double sat;
} Case;

static void
check_case (const Case *c)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (OviAnalysis) a = ovi_analysis_new_for_count (c->dtype, c->data, c->count, &error);
  Expected e;

  g_test_message ("%s", c->name);
  g_assert_no_error (error);
  g_assert_nonnull (a);
  g_assert_cmpint (ovi_analysis_get_dtype (a), ==, c->dtype);
  g_assert_cmpfloat (ovi_dtype_max_finite (c->dtype), ==, c->sat);
  expect_from_values (&e, c->values, c->count, c->sat);
  assert_stats (ovi_analysis_get_stats (a), &e);
  for (guint64 i = 0; i < c->count; i++)
    {
      double v = ovi_analysis_value_at (a, i);
      if (isnan (c->values[i]))
        g_assert_true (isnan (v));
      else
        g_assert_cmpfloat (v, ==, c->values[i]);
    }
}

#define N(a) G_N_ELEMENTS (a)

static void
test_dtypes (void)
{
  static const double f16[] = { 1.5,      -2.25,           0,     65504,     NAN,  -65504,
                                INFINITY, 0.0999755859375, 65504, -INFINITY, -0.0, 1024 };
  static const double f32[] = {
    3.5, -0x1p100, 0, NAN, 0x1p-140, INFINITY, -INFINITY, 7, 3.4028234663852886e38, -0.125, NAN
  };
  static const double f64[] = { 1e150, -1e150, 0.1, NAN, -INFINITY, -3, 0, 2.5e-310 };
  static const double bf16[] = { 1.5, -2.25,     65536,   0, -3.3895313892515355e38,
                                 NAN, 0.0078125, INFINITY };
  static const double i8[] = { -128, 127, 0, -1, 5, 100, 0 };
  static const double i32[] = { -2147483648.0, 2147483647.0, 0, 12, -7 };
  static const double u8[] = { 0, 255, 1, 128, 7, 42, 0, 0 };
  static const double i4[] = { -8, 7, 0, -1, 3 };
  static const double e5m2[] = { 1.5, -2, 57344, -57344, INFINITY, NAN, 0, 0.25, -INFINITY };
  static const double e4m3[] = { 1.75, -2, 448, -448, NAN, 0, 0.0625, 3.5, 448 };
  static const guint8 bool_raw[] = { 0, 1, 2, 0, 255, 1 };
  static const double bool_v[] = { 0, 1, 1, 0, 1, 1 };
  static const float c64_raw[] = { 3, 4, -6, 8, 0, 0, NAN, 1, INFINITY, 2, 0.5, -0.5 };
  double c64_v[6];
  Case cases[12];
  guint n = 0;

  for (guint i = 0; i < 6; i++)
    c64_v[i] = hypot (c64_raw[2 * i], c64_raw[2 * i + 1]);

#define ENC(nm, dt, vals, s)                                                                       \
  cases[n++] = (Case){ nm, dt, ovi_fixture_encode (dt, vals, N (vals)), N (vals), vals, s }
  ENC ("float16", OVI_DTYPE_FLOAT16, f16, 65504);
  ENC ("float32", OVI_DTYPE_FLOAT32, f32, 3.4028234663852886e38);
  ENC ("float64", OVI_DTYPE_FLOAT64, f64, 1.7976931348623157e308);
  ENC ("bfloat16", OVI_DTYPE_BFLOAT16, bf16, 3.3895313892515355e38);
  ENC ("int8", OVI_DTYPE_INT8, i8, 0);
  ENC ("int32", OVI_DTYPE_INT32, i32, 0);
  ENC ("uint8", OVI_DTYPE_UINT8, u8, 0);
  ENC ("int4", OVI_DTYPE_INT4, i4, 0);
  ENC ("float8_e5m2", OVI_DTYPE_FLOAT8_E5M2, e5m2, 57344);
  ENC ("float8_e4m3fn", OVI_DTYPE_FLOAT8_E4M3FN, e4m3, 448);
#undef ENC
  cases[n++] =
      (Case){ "bool", OVI_DTYPE_BOOL, g_bytes_new (bool_raw, sizeof bool_raw), 6, bool_v, 0 };
  cases[n++] = (Case){ "complex64", OVI_DTYPE_COMPLEX64,  g_bytes_new (c64_raw, sizeof c64_raw), 6,
                       c64_v,       3.4028234663852886e38 };

  /* The fixture encoder really produced the values (float16 0.1 rounds). */
  g_assert_cmpfloat (half_value (ovi_float_to_half (0.1f)), ==, 0.0999755859375);
  g_assert_cmpuint (g_bytes_get_size (cases[7].data), ==, 3);

  for (guint i = 0; i < n; i++)
    {
      check_case (&cases[i]);
      g_bytes_unref (cases[i].data);
    }
}

/* Spot checks of the expected values, written out by hand. */
static void
test_known_values (void)
{
  static const double v[] = { 1, 2, 3, 4, NAN, 65504 };
  g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT16, v, 6);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT16, d, NULL);
  const OviStats *s = ovi_analysis_get_stats (a);

  g_assert_cmpuint (s->count, ==, 6);
  g_assert_cmpuint (s->finite, ==, 5);
  g_assert_cmpfloat (s->min, ==, 1);
  g_assert_cmpfloat (s->max, ==, 65504);
  g_assert_cmpfloat_with_epsilon (s->mean, 65514.0 / 5, 1e-9);
  /* population std of {1,2,3,4,65504} */
  g_assert_cmpfloat_with_epsilon (s->std, 26200.600019083533, 1e-6);
  g_assert_cmpuint (s->nan, ==, 1);
  g_assert_cmpint (s->first_nan, ==, 4);
  g_assert_cmpint (s->first_nonfinite, ==, 4);
  g_assert_cmpuint (s->saturated, ==, 1);
  g_assert_cmpint (s->first_saturated, ==, 5);
}

static void
test_all_nan (void)
{
  static const float nan4[] = { NAN, NAN, NAN, NAN };
  g_autoptr (GBytes) d = g_bytes_new (nan4, sizeof nan4);
  static const guint16 h[] = { 0x7e00, 0xfe00, 0x7c01 };
  g_autoptr (GBytes) dh = g_bytes_new (h, sizeof h);
  GBytes *all[] = { d, dh };
  int dtypes[] = { OVI_DTYPE_FLOAT32, OVI_DTYPE_FLOAT16 };
  guint64 counts[] = { 4, 3 };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (OviAnalysis) a = ovi_analysis_new (dtypes[i], all[i], NULL);
      const OviStats *s = ovi_analysis_get_stats (a);
      g_autoptr (OviHistogram) hist = ovi_analysis_histogram (a, 4, OVI_HISTOGRAM_LINEAR, NULL);
      guint64 sum = 0;

      g_assert_cmpuint (s->count, ==, counts[i]);
      g_assert_cmpuint (s->finite, ==, 0);
      g_assert_cmpuint (s->nan, ==, counts[i]);
      g_assert_true (isnan (s->min));
      g_assert_true (isnan (s->max));
      g_assert_true (isnan (s->mean));
      g_assert_true (isnan (s->std));
      g_assert_cmpint (s->first_nan, ==, 0);
      g_assert_cmpint (s->first_nonfinite, ==, 0);
      g_assert_cmpint (s->first_pos_inf, ==, -1);
      g_assert_cmpint (s->first_saturated, ==, -1);
      g_assert_cmpuint (hist->nan, ==, counts[i]);
      for (guint b = 0; b < hist->n_bins; b++)
        sum += hist->counts[b];
      g_assert_cmpuint (sum, ==, 0);
    }
}

static void
test_empty_and_errors (void)
{
  g_autoptr (GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr (GBytes) three = g_bytes_new ("abc", 3);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT32, empty, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (ovi_analysis_get_stats (a)->count, ==, 0);
  g_assert_cmpuint (ovi_analysis_get_stats (a)->finite, ==, 0);
  g_assert_true (isnan (ovi_analysis_get_stats (a)->mean));

  g_assert_null (ovi_analysis_new (40, three, &error));
  g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_UNSUPPORTED_DTYPE);
  g_clear_error (&error);
  g_assert_null (ovi_analysis_new (18 /* qint8 */, three, &error));
  g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_UNSUPPORTED_DTYPE);
  g_clear_error (&error);
  g_assert_null (ovi_analysis_new_for_count (OVI_DTYPE_FLOAT16, three, 2, &error));
  g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_SIZE);
  g_clear_error (&error);
  g_assert_null (ovi_analysis_new_for_count (OVI_DTYPE_INT4, three, 7, &error));
  g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_SIZE);
}

/* 3 million elements: past the 1 << 20 threshold, several threads. */
static void
test_large_float16 (void)
{
  const guint64 n = 3000000;
  g_autofree double *v = g_new (double, n);
  g_autofree double *decoded = g_new (double, n);
  g_autoptr (GBytes) d = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  const guint16 *h;
  Expected e;

  for (guint64 i = 0; i < n; i++)
    v[i] = ((i * 2654435761u) % 100003) / 250.0 - 100.0;
  v[1500001] = NAN;
  v[2999999] = NAN;
  v[2100000] = INFINITY;
  v[1100000] = -INFINITY;
  v[1048577] = 65504;
  v[2500000] = -65504;
  v[2500001] = 70000; /* rounds to +inf in float16 */
  d = ovi_fixture_encode (OVI_DTYPE_FLOAT16, v, n);
  h = g_bytes_get_data (d, NULL);
  for (guint64 i = 0; i < n; i++)
    decoded[i] = half_value (GUINT16_FROM_LE (h[i]));
  g_assert_true (isinf (decoded[2500001]));

  a = ovi_analysis_new (OVI_DTYPE_FLOAT16, d, NULL);
  expect_from_values (&e, decoded, n, 65504);
  g_assert_cmpuint (e.pos_inf, ==, 2);
  g_assert_cmpint (e.first_nan, ==, 1500001);
  assert_stats (ovi_analysis_get_stats (a), &e);
}

static void
test_large_float32 (void)
{
  const guint64 n = 3000000;
  g_autofree float *f = g_new (float, n);
  g_autofree double *v = g_new (double, n);
  g_autoptr (GBytes) d = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  Expected e;

  for (guint64 i = 0; i < n; i++)
    f[i] = ((i * 40503u) % 65521) * 0.01f + 1000.0f;
  f[0] = NAN; /* the shift must skip a leading NaN */
  f[2900000] = NAN;
  f[2000000] = INFINITY;
  f[1200000] = -INFINITY;
  f[2999999] = -INFINITY;
  f[2400000] = 3.4028234663852886e38f;
  for (guint64 i = 0; i < n; i++)
    v[i] = f[i];
  d = g_bytes_new (f, n * sizeof (float));
  a = ovi_analysis_new (OVI_DTYPE_FLOAT32, d, NULL);
  expect_from_values (&e, v, n, 3.4028234663852886e38);
  assert_stats (ovi_analysis_get_stats (a), &e);
}

/* ---- histograms ---- */

static guint64
sum_counts (const OviHistogram *h)
{
  guint64 s = 0;
  for (guint i = 0; i < h->n_bins; i++)
    s += h->counts[i];
  return s;
}

/* A tensor read from its file a chunk at a time (here several chunks and
 * both threads, at an odd offset) gives the statistics of its values; a
 * file that changes afterwards makes the histogram fail with its name. */
static void
write_at_offset (const char *path, guint64 offset, GBytes *data)
{
  gsize size = g_bytes_get_size (data);
  g_autofree guint8 *contents = g_malloc (offset + size + 5);

  memset (contents, 0xAB, offset + size + 5);
  memcpy (contents + offset, g_bytes_get_data (data, NULL), size);
  g_assert_true (g_file_set_contents (path, (const char *) contents, offset + size + 5, NULL));
}

static void
test_from_file (void)
{
  const guint64 n = 3000001, offset = 77;
  g_autofree char *dir = g_dir_make_tmp ("ovi-stats-XXXXXX", NULL);
  g_autofree double *v = g_new (double, n);
  g_autofree double *v16 = g_new (double, n);
  g_autofree double *i4 = g_new (double, n);
  g_autofree float *f = g_new (float, n);
  struct
  {
    const char *name;
    int dtype;
    GBytes *data;
    const double *values;
    double sat;
  } cases[3];
  guint n_cases = 0;

  for (guint64 i = 0; i < n; i++)
    {
      f[i] = ((i * 40503u) % 65521) * 0.01f - 300.0f;
      i4[i] = (double) ((i * 7) % 16) - 8;
    }
  f[5] = NAN;
  f[2999990] = INFINITY;
  f[2097153] = -INFINITY; /* the first value of the second thread's share */
  for (guint64 i = 0; i < n; i++)
    v[i] = f[i];
  cases[n_cases++] =
      (typeof (cases[0])){ "float32", OVI_DTYPE_FLOAT32, g_bytes_new (f, n * sizeof (float)), v,
                           3.4028234663852886e38 };
  cases[n_cases++] = (typeof (cases[0])){ "int4", OVI_DTYPE_INT4,
                                          ovi_fixture_encode (OVI_DTYPE_INT4, i4, n), i4, 0 };
  {
    g_autofree double *h = g_new (double, n);
    const guint16 *raw;
    GBytes *d;

    for (guint64 i = 0; i < n; i++)
      h[i] = ((i * 2654435761u) % 100003) / 250.0 - 100.0;
    h[2999990] = NAN;
    h[1048577] = 65504;
    d = ovi_fixture_encode (OVI_DTYPE_FLOAT16, h, n);
    raw = g_bytes_get_data (d, NULL);
    for (guint64 i = 0; i < n; i++)
      v16[i] = half_value (GUINT16_FROM_LE (raw[i]));
    cases[n_cases++] = (typeof (cases[0])){ "float16", OVI_DTYPE_FLOAT16, d, v16, 65504 };
  }

  for (guint c = 0; c < n_cases; c++)
    {
      g_autofree char *path = g_build_filename (dir, cases[c].name, NULL);
      gsize size = g_bytes_get_size (cases[c].data);
      g_autoptr (OviAnalysis) a = NULL;
      g_autoptr (OviAnalysis) again = NULL;
      g_autoptr (OviAnalysis) from_contents = NULL;
      g_autoptr (GBytes) contents = NULL;
      g_autoptr (OviHistogram) h = NULL;
      g_autoptr (GError) error = NULL;
      const OviStats *s;
      Expected e;

      g_test_message ("%s", cases[c].name);
      write_at_offset (path, offset, cases[c].data);
      a = ovi_analysis_new_for_file (cases[c].dtype, path, cases[c].name, offset, size, n,
                                     offset + size + 5, NULL, NULL, &error);
      g_assert_no_error (error);
      s = ovi_analysis_get_stats (a);
      expect_from_values (&e, cases[c].values, n, cases[c].sat);
      assert_stats (s, &e);
      g_assert_cmpfloat (ovi_analysis_value_at (a, n - 2), ==, cases[c].values[n - 2]);
      g_assert_cmpfloat (ovi_analysis_value_at (a, 1), ==, cases[c].values[1]);

      /* Made from the file's contents, read by the caller: the same. */
      {
        g_autofree char *whole = NULL;
        gsize length;

        g_assert_true (g_file_get_contents (path, &whole, &length, NULL));
        contents = g_bytes_new (whole, length);
        from_contents =
            ovi_analysis_new_for_file (cases[c].dtype, path, cases[c].name, offset, size, n,
                                       offset + size + 5, contents, NULL, &error);
        g_assert_no_error (error);
        assert_stats (ovi_analysis_get_stats (from_contents), &e);
      }

      h = ovi_analysis_histogram (a, 16, OVI_HISTOGRAM_LINEAR, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (sum_counts (h) + h->pos_saturated + h->neg_saturated, ==, s->finite);
      g_assert_cmpuint (h->nan, ==, s->nan);

      /* The file is cut short: wider types are read again and say so;
       * the values kept around the first non-finite one stay. */
      g_assert_no_errno (truncate (path, offset + size / 2));
      g_clear_pointer (&h, ovi_histogram_free);
      h = ovi_analysis_histogram (a, 16, OVI_HISTOGRAM_LINEAR, &error);
      if (ovi_dtype_bits (cases[c].dtype) > 16)
        {
          g_assert_null (h);
          g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_READ);
          g_assert_nonnull (strstr (error->message, cases[c].name));
          g_clear_error (&error);
          g_assert_true (isnan (ovi_analysis_value_at (a, n - 2)));
          /* The one made from the contents kept no copy: it reads the file. */
          g_assert_true (isnan (ovi_analysis_value_at (from_contents, n - 2)));
        }
      else
        g_assert_no_error (error);
      if (s->first_nonfinite >= 0)
        g_assert_cmpfloat (ovi_analysis_value_at (a, s->first_nonfinite + 1), ==,
                           cases[c].values[s->first_nonfinite + 1]);
      again = ovi_analysis_new_for_file (cases[c].dtype, path, cases[c].name, offset, size, n,
                                         offset + size + 5, NULL, NULL, &error);
      g_assert_null (again);
      g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_READ);
      g_assert_nonnull (strstr (error->message, "changed size"));
      g_unlink (path);
      g_bytes_unref (cases[c].data);
    }
  g_rmdir (dir);
}

static void
test_histogram_linear (void)
{
  static const double v[] = { -2, -1, 0, 1, 2, 3, 65504, -65504, NAN, INFINITY, -INFINITY, 2.5 };
  for (guint k = 0; k < 2; k++)
    {
      int dtype = k ? OVI_DTYPE_FLOAT32 : OVI_DTYPE_FLOAT16;
      g_autoptr (GBytes) d = ovi_fixture_encode (dtype, v, N (v));
      g_autoptr (OviAnalysis) a = ovi_analysis_new (dtype, d, NULL);
      g_autoptr (OviHistogram) h = ovi_analysis_histogram (a, 5, OVI_HISTOGRAM_LINEAR, NULL);
      const OviStats *s = ovi_analysis_get_stats (a);
      static const double edges[] = { -2, -1, 0, 1, 2, 3 };
      static const guint64 counts16[] = { 1, 1, 1, 1, 3 };

      g_assert_cmpuint (h->n_bins, ==, 5);
      g_assert_cmpint (h->scale, ==, OVI_HISTOGRAM_LINEAR);
      g_assert_cmpuint (h->nan, ==, 1);
      g_assert_cmpuint (h->pos_inf, ==, 1);
      g_assert_cmpuint (h->neg_inf, ==, 1);
      if (k == 0)
        {
          /* float16: +-65504 saturate and have bins of their own */
          g_assert_cmpfloat (h->saturation_value, ==, 65504);
          g_assert_cmpuint (h->pos_saturated, ==, 1);
          g_assert_cmpuint (h->neg_saturated, ==, 1);
          for (guint i = 0; i <= 5; i++)
            g_assert_cmpfloat_with_epsilon (h->edges[i], edges[i], 1e-12);
          for (guint i = 0; i < 5; i++)
            g_assert_cmpuint (h->counts[i], ==, counts16[i]);
          g_assert_cmpuint (sum_counts (h), ==, s->finite - s->saturated);
          g_assert_cmpint (ovi_histogram_find_bin (h, -2), ==, 0);
          g_assert_cmpint (ovi_histogram_find_bin (h, -1.5), ==, 0);
          g_assert_cmpint (ovi_histogram_find_bin (h, 0.5), ==, 2);
          g_assert_cmpint (ovi_histogram_find_bin (h, 2.5), ==, 4);
          g_assert_cmpint (ovi_histogram_find_bin (h, 3), ==, 4);
          g_assert_cmpint (ovi_histogram_find_bin (h, 3.01), ==, -1);
          g_assert_cmpint (ovi_histogram_find_bin (h, -2.01), ==, -1);
          g_assert_cmpint (ovi_histogram_find_bin (h, NAN), ==, -1);
          g_assert_cmpint (ovi_histogram_find_bin (h, INFINITY), ==, -1);
        }
      else
        {
          /* float32: 65504 is an ordinary value */
          g_assert_cmpuint (h->pos_saturated, ==, 0);
          g_assert_cmpuint (h->neg_saturated, ==, 0);
          g_assert_cmpfloat (h->edges[0], ==, -65504);
          g_assert_cmpfloat (h->edges[5], ==, 65504);
          g_assert_cmpuint (sum_counts (h), ==, 9);
          g_assert_cmpuint (h->counts[0], ==, 1);
          g_assert_cmpuint (h->counts[2], ==, 7);
          g_assert_cmpuint (h->counts[4], ==, 1);
        }
    }
}

static void
test_histogram_single_value (void)
{
  static const double v[] = { 5, 5, 5 };
  g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_INT32, v, 3);
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_INT32, d, NULL);
  g_autoptr (OviHistogram) h = ovi_analysis_histogram (a, 3, OVI_HISTOGRAM_LINEAR, NULL);

  g_assert_cmpfloat (h->edges[0], <, 5);
  g_assert_cmpfloat (h->edges[3], >, 5);
  g_assert_cmpuint (sum_counts (h), ==, 3);
  g_assert_cmpint (ovi_histogram_find_bin (h, 5), >=, 0);
  g_assert_cmpuint (h->counts[ovi_histogram_find_bin (h, 5)], ==, 3);
  g_assert_cmpfloat (h->saturation_value, ==, 0);
}

static void
test_histogram_symlog (void)
{
  static const double v[] = { -100, -10, -1, 0, 1, 10, 100, -0.001, 0.001, 55 };
  g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT32, v, N (v));
  g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT32, d, NULL);

  for (guint n_bins = 2; n_bins <= 64; n_bins *= 2)
    {
      g_autoptr (OviHistogram) h = ovi_analysis_histogram (a, n_bins, OVI_HISTOGRAM_SYMLOG, NULL);

      g_assert_cmpint (h->scale, ==, OVI_HISTOGRAM_SYMLOG);
      g_assert_cmpfloat (h->edges[0], ==, -100);
      g_assert_cmpfloat (h->edges[n_bins], ==, 100);
      for (guint i = 0; i < n_bins; i++)
        g_assert_cmpfloat (h->edges[i], <, h->edges[i + 1]);
      for (guint i = 0; i <= n_bins; i++)
        g_assert_cmpfloat_with_epsilon (h->edges[i], -h->edges[n_bins - i], 1e-9 * 100);
      g_assert_cmpfloat_with_epsilon (h->edges[n_bins / 2], 0, 1e-9);
      g_assert_cmpuint (sum_counts (h), ==, N (v));
      /* each value lands in the bin find_bin names */
      for (guint i = 0; i < N (v); i++)
        {
          int b = ovi_histogram_find_bin (h, (float) v[i]);
          g_assert_cmpint (b, >=, 0);
          g_assert_cmpint (b, <, (int) n_bins);
          g_assert_cmpfloat ((float) v[i], >=, h->edges[b]);
          g_assert_cmpfloat ((float) v[i], <=, h->edges[b + 1]);
        }
      if (n_bins >= 8)
        {
          /* log spacing: the outer bins are wider than the inner ones */
          g_assert_cmpfloat (h->edges[1] - h->edges[0], >,
                             h->edges[n_bins / 2 + 1] - h->edges[n_bins / 2]);
        }
    }
}

/* Every value of a histogram is counted in the bin find_bin gives it. */
static void
test_histogram_consistent (void)
{
  const guint n = 1000;
  g_autofree double *v = g_new (double, n);
  g_autoptr (GBytes) d = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  g_autoptr (OviHistogram) h = NULL;
  guint64 counts[7] = { 0 };

  for (guint i = 0; i < n; i++)
    v[i] = (i * 37 % 1000) / 10.0 - 30;
  d = ovi_fixture_encode (OVI_DTYPE_FLOAT64, v, n);
  a = ovi_analysis_new (OVI_DTYPE_FLOAT64, d, NULL);
  h = ovi_analysis_histogram (a, 7, OVI_HISTOGRAM_LINEAR, NULL);
  for (guint i = 0; i < n; i++)
    {
      int b = ovi_histogram_find_bin (h, v[i]);
      g_assert_cmpint (b, >=, 0);
      counts[b]++;
    }
  for (guint i = 0; i < 7; i++)
    g_assert_cmpuint (h->counts[i], ==, counts[i]);
}

/* Saturation is |x| equal to the largest finite value of the tensor's own
 * data type: 65504 in float16 but not in float32, 448 in float8_e4m3fn. A
 * value just below it is not saturated, and a large float32 is not either
 * (the window once flagged any |x| >= 65504, whatever the type). */
static void
test_saturation_per_dtype (void)
{
  static const struct
  {
    OviDtype dtype;
    double max;
    double below; /* the next value down the type can hold */
  } types[] = {
    { OVI_DTYPE_FLOAT16, 65504, 65472 },
    { OVI_DTYPE_BFLOAT16, 3.3895313892515355e38, 3.3762391092936863e38 },
    { OVI_DTYPE_FLOAT32, 3.4028234663852886e38, 3.4028232635611926e38 },
    { OVI_DTYPE_FLOAT8_E4M3FN, 448, 416 },
    { OVI_DTYPE_FLOAT8_E5M2, 57344, 49152 },
  };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      double v[] = { 1, types[t].below, -types[t].max, 2, types[t].max, -types[t].below };
      g_autoptr (GBytes) d = ovi_fixture_encode (types[t].dtype, v, G_N_ELEMENTS (v));
      g_autoptr (OviAnalysis) a = ovi_analysis_new (types[t].dtype, d, NULL);
      const OviStats *s = ovi_analysis_get_stats (a);

      g_test_message ("%s: max %g", ovi_dtype_name (types[t].dtype), types[t].max);
      g_assert_cmpfloat (ovi_dtype_max_finite (types[t].dtype), ==, types[t].max);
      g_assert_cmpfloat (s->max_abs, ==, types[t].max);
      g_assert_cmpuint (s->saturated, ==, 2);
      g_assert_cmpint (s->first_saturated, ==, 2);
      g_assert_true (ovi_stats_is_abnormal (s));
    }

  /* 65504 and 85354.9 in float32: large, not saturated. */
  {
    double v[] = { 65504, -85354.9, 448, 57344 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT32, v, G_N_ELEMENTS (v));
    g_autoptr (OviAnalysis) a = ovi_analysis_new (OVI_DTYPE_FLOAT32, d, NULL);
    const OviStats *s = ovi_analysis_get_stats (a);

    g_assert_cmpuint (s->saturated, ==, 0);
    g_assert_cmpint (s->first_saturated, ==, -1);
    g_assert_false (ovi_stats_is_abnormal (s));
  }
}

static OviDumpFile *
find_op_type (OviDumpFolder *folder, const char *op_type)
{
  GListModel *files = ovi_dump_folder_get_files (folder);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

      if (g_strcmp0 (ovi_dump_file_get_op_type (file), op_type) == 0)
        return file;
    }
  return NULL;
}

/* In the example folder: AscendQuant's float8_e4m3fn output holds values
 * at +-448, saturated; MatMul's float32 (largest 85354.9) and BatchMatMul's
 * (65536) are large but not saturated. */
static void
test_saturation_example (void)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (example);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  const char *types[] = { "AscendQuant", "MatMul", "BatchMatMul" };
  gboolean saturated[] = { TRUE, FALSE, FALSE };

  ovi_dump_folder_set_analyze (folder, TRUE);
  g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      OviDumpFile *op = find_op_type (folder, types[i]);
      const OviOpSummary *summary;
      guint64 count = 0;

      g_assert_nonnull (op);
      summary = ovi_dump_file_get_summary (op);
      g_assert_nonnull (summary);
      g_object_get (op, "saturated-count", &count, NULL);
      g_test_message ("%s: largest |x| %g, %" G_GUINT64_FORMAT " saturated", types[i],
                      summary->max_abs, summary->saturated);
      g_assert_cmpuint (count, ==, summary->saturated);
      if (saturated[i])
        g_assert_cmpuint (summary->saturated, >=, 67);
      else
        {
          g_assert_cmpuint (summary->saturated, ==, 0);
          g_assert_cmpfloat (summary->max_abs, >=, 65504);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/stats/dtypes", test_dtypes);
  g_test_add_func ("/core/stats/known-values", test_known_values);
  g_test_add_func ("/core/stats/saturation-per-dtype", test_saturation_per_dtype);
  g_test_add_func ("/core/stats/saturation-example", test_saturation_example);
  g_test_add_func ("/core/stats/all-nan", test_all_nan);
  g_test_add_func ("/core/stats/empty-and-errors", test_empty_and_errors);
  g_test_add_func ("/core/stats/large-float16", test_large_float16);
  g_test_add_func ("/core/stats/large-float32", test_large_float32);
  g_test_add_func ("/core/stats/from-file", test_from_file);
  g_test_add_func ("/core/stats/histogram/linear", test_histogram_linear);
  g_test_add_func ("/core/stats/histogram/single-value", test_histogram_single_value);
  g_test_add_func ("/core/stats/histogram/symlog", test_histogram_symlog);
  g_test_add_func ("/core/stats/histogram/consistent", test_histogram_consistent);
  return g_test_run ();
}
