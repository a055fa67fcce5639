/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-layout-reference.h"

/* Statistics of tensors in a device layout are over their logical values,
 * not the padding: every count, min/max/mean/std, the histogram and the
 * first bad values, with indices of the original shape. The device
 * buffers are laid out here by hand from the layouts' definitions (as in
 * test-layout.c, not with src/core), the padding filled with a value that
 * would show (0, as the runtime writes it, or NaN), and the expected
 * numbers are computed here from the logical values alone. */

#define N0 16

typedef OviTmpDir Fixture;

static guint64
count_of (const guint64 *shape, guint n)
{
  return ovi_layout_ref_count (shape, n);
}

typedef struct
{
  const char *label;
  int format;
  int dtype;
  guint n_orig;
  guint64 orig[6];
  guint64 c0;
  double padding;
  /* filled in */
  guint n_dev;
  guint64 dev[8];
} Case;

static void
device_shape (Case *c)
{
  c->n_dev = ovi_layout_ref_device_shape (c->format, c->orig, c->n_orig, c->c0, c->dev);
}

/* Where logical element @l (coords in the original shape) is stored. */
static guint64
device_index (const Case *c, const guint64 *l)
{
  return ovi_layout_ref_device_index (c->format, c->orig, c->n_orig, c->c0, c->dev, c->n_dev, l);
}

typedef struct
{
  guint64 count, finite, nan, pos_inf, neg_inf, zeros, saturated;
  double min, max, mean, std;
  gint64 first_nonfinite, first_nan, first_pos_inf, first_neg_inf, first_saturated;
} Expected;

/* From first principles, in logical order. */
static void
expect_from_values (Expected *e, const double *v, guint64 n, double sat)
{
  long double sum = 0, sq = 0;

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
          e->first_nan = e->first_nan < 0 ? (gint64) i : e->first_nan;
        }
      else if (isinf (v[i]))
        {
          if (v[i] > 0)
            {
              e->pos_inf++;
              e->first_pos_inf = e->first_pos_inf < 0 ? (gint64) i : e->first_pos_inf;
            }
          else
            {
              e->neg_inf++;
              e->first_neg_inf = e->first_neg_inf < 0 ? (gint64) i : e->first_neg_inf;
            }
        }
      else
        {
          e->finite++;
          sum += v[i];
          e->min = MIN (e->min, v[i]);
          e->max = MAX (e->max, v[i]);
          e->zeros += v[i] == 0;
          if (fabs (v[i]) == sat)
            {
              e->saturated++;
              e->first_saturated = e->first_saturated < 0 ? (gint64) i : e->first_saturated;
            }
        }
      if (!isfinite (v[i]) && e->first_nonfinite < 0)
        e->first_nonfinite = i;
    }
  e->mean = (double) (sum / e->finite);
  for (guint64 i = 0; i < n; i++)
    if (isfinite (v[i]))
      sq += ((long double) v[i] - e->mean) * ((long double) v[i] - e->mean);
  e->std = (double) sqrtl (sq / e->finite);
}

static void
assert_stats (const OviStats *s, const Expected *e)
{
  /* Relative to the spread, not to ±max, which float32 cases hold. */
  double scale = fabs (e->mean) + e->std;

  g_test_message (
      "count %" G_GUINT64_FORMAT " (want %" G_GUINT64_FORMAT "), zeros %" G_GUINT64_FORMAT
      " (%" G_GUINT64_FORMAT "), nan %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
      "), mean %.9g (%.9g), std %.9g (%.9g), first nan %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT ")",
      s->count, e->count, s->zeros, e->zeros, s->nan, e->nan, s->mean, e->mean, s->std, e->std,
      s->first_nan, e->first_nan);
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
  g_assert_cmpfloat (s->min, ==, e->min);
  g_assert_cmpfloat (s->max, ==, e->max);
  g_assert_cmpfloat_with_epsilon (s->mean, e->mean, 1e-9 * scale);
  g_assert_cmpfloat_with_epsilon (s->std, e->std, 1e-9 * scale);
}

/* Logical values: exact in float16 (multiples of 1/4 below 256) and in
 * float32, with NaN, ±Inf and ±max at scattered logical positions, so
 * that the first of each in logical order is not the first stored. */
static double *
make_values (guint64 count, int dtype)
{
  double *v = g_new (double, count);
  double sat = dtype == OVI_DTYPE_FLOAT16 ? 65504.0 : FLT_MAX;
  guint32 x = 12345;

  for (guint64 i = 0; i < count; i++)
    {
      x = x * 1664525u + 1013904223u;
      v[i] = (double) ((int) (x >> 16) % 1001 - 500) / 4.0; /* zeros too */
    }
  for (guint k = 0; k < 24; k++)
    {
      static const double specials[] = { NAN, INFINITY, -INFINITY, 1, -1 };
      double special = specials[k % G_N_ELEMENTS (specials)];
      x = x * 1664525u + 1013904223u;
      v[(x >> 8) % count] = special == 1 ? sat : special == -1 ? -sat : special;
    }
  return v;
}

/* Writes @c as a dump file (device bytes, original shape in the header)
 * and checks the tensor's statistics, histogram and values against the
 * logical values. */
static void
check_case (Fixture *f, Case *c)
{
  g_autofree char *name = g_strdup_printf ("Op.%s.1.1.100", c->label);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (c->label);
  g_autofree double *logical = NULL;
  g_autofree double *device = NULL;
  g_autoptr (GBytes) device_bytes = NULL;
  g_autoptr (GBytes) logical_bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  g_autoptr (OviAnalysis) reference = NULL;
  g_autoptr (OviHistogram) h = NULL;
  g_autoptr (OviHistogram) h_ref = NULL;
  g_autoptr (GError) error = NULL;
  OviTensor *t;
  guint64 count, dev_count, l[6] = { 0 };
  double sat = c->dtype == OVI_DTYPE_FLOAT16 ? 65504.0 : FLT_MAX;
  Expected e;

  device_shape (c);
  count = count_of (c->orig, c->n_orig);
  dev_count = count_of (c->dev, c->n_dev);
  g_test_message ("%s: %" G_GUINT64_FORMAT " logical values stored in %" G_GUINT64_FORMAT, c->label,
                  count, dev_count);
  g_assert_cmpuint (dev_count, >, count); /* every case has padding */

  logical = make_values (count, c->dtype);
  device = g_new (double, dev_count);
  for (guint64 i = 0; i < dev_count; i++)
    device[i] = c->padding;
  for (guint64 i = 0; i < count; i++)
    {
      device[device_index (c, l)] = logical[i];
      for (int k = (int) c->n_orig - 1; k >= 0; k--)
        {
          if (++l[k] < c->orig[k])
            break;
          l[k] = 0;
        }
    }
  device_bytes = ovi_fixture_encode (c->dtype, device, dev_count);
  logical_bytes = ovi_fixture_encode (c->dtype, logical, count);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, c->dtype, c->format, c->dev, c->n_dev,
                              device_bytes);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, c->orig, c->n_orig);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, name);
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);

  g_assert_true (ovi_tensor_get_is_logical (t));
  g_assert_null (ovi_tensor_get_layout_problem (t));
  g_assert_cmpuint (ovi_tensor_get_count (t), ==, dev_count);
  g_assert_cmpuint (ovi_tensor_get_logical_count (t), ==, count);

  a = ovi_tensor_analyze (t, &error);
  g_assert_no_error (error);
  expect_from_values (&e, logical, count, sat);
  assert_stats (ovi_analysis_get_stats (a), &e);

  /* Values by logical index, the neighbours of the first bad one too. */
  for (guint64 i = 0; i < count; i += MAX (count / 997, 1))
    if (!(isnan (logical[i]) && isnan (ovi_analysis_value_at (a, i))))
      g_assert_cmpfloat (ovi_analysis_value_at (a, i), ==, logical[i]);
  for (gint64 i = MAX (e.first_nonfinite - 4, 0); i < MIN (e.first_nonfinite + 5, (gint64) count);
       i++)
    if (!(isnan (logical[i]) && isnan (ovi_analysis_value_at (a, i))))
      g_assert_cmpfloat (ovi_analysis_value_at (a, i), ==, logical[i]);

  /* The histogram: the same bins as the logical values' alone. */
  reference = ovi_analysis_new_for_count (c->dtype, logical_bytes, count, &error);
  g_assert_no_error (error);
  assert_stats (ovi_analysis_get_stats (reference), &e);
  for (guint scale = 0; scale < 2; scale++)
    {
      guint64 total = 0;

      g_clear_pointer (&h, ovi_histogram_free);
      g_clear_pointer (&h_ref, ovi_histogram_free);
      h = ovi_analysis_histogram (a, 50, scale, &error);
      g_assert_no_error (error);
      h_ref = ovi_analysis_histogram (reference, 50, scale, &error);
      g_assert_no_error (error);
      for (guint b = 0; b < h->n_bins; b++)
        {
          g_assert_cmpuint (h->counts[b], ==, h_ref->counts[b]);
          g_assert_cmpfloat (h->edges[b], ==, h_ref->edges[b]);
          total += h->counts[b];
        }
      g_assert_cmpuint (h->nan, ==, e.nan);
      g_assert_cmpuint (h->pos_inf, ==, e.pos_inf);
      g_assert_cmpuint (h->neg_inf, ==, e.neg_inf);
      g_assert_cmpuint (h->pos_saturated + h->neg_saturated, ==, e.saturated);
      g_assert_cmpuint (total, ==, e.finite - e.saturated);
    }
  g_unlink (path);
}

static void
test_nc1hwc0 (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    /* float32, a few hundred values: element by element */
    { "nc1hwc0_f32", 3, OVI_DTYPE_FLOAT32, 4, { 2, 20, 5, 7 }, 16, 0.0 },
    /* padding of NaN must not count either */
    { "nc1hwc0_f32_nan", 3, OVI_DTYPE_FLOAT32, 4, { 3, 5, 4, 4 }, 16, NAN },
    /* float16, enough values to count bit patterns */
    { "nc1hwc0_f16_big", 3, OVI_DTYPE_FLOAT16, 4, { 2, 20, 96, 96 }, 16, 0.0 },
    { "nc1hwc0_f16_big_nan", 3, OVI_DTYPE_FLOAT16, 4, { 1, 33, 100, 90 }, 16, NAN },
    /* C a multiple of C0 on one side, padding on the other: runs merge */
    { "nc1hwc0_f16", 3, OVI_DTYPE_FLOAT16, 4, { 2, 3, 6, 5 }, 16, 0.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (f, &cases[i]);
}

static void
test_fractal_nz (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "nz_f16", 29, OVI_DTYPE_FLOAT16, 3, { 3, 20, 35 }, 16, 0.0 },
    { "nz_f32", 29, OVI_DTYPE_FLOAT32, 2, { 50, 17 }, 16, NAN },
    /* more than a million stored values: the analysis runs in parallel */
    { "nz_f32_big", 29, OVI_DTYPE_FLOAT32, 3, { 4, 300, 1000 }, 16, 0.0 },
    { "nz_f16_big", 29, OVI_DTYPE_FLOAT16, 2, { 700, 500 }, 16, NAN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (f, &cases[i]);
}

static void
test_other_layouts (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "fz_f32", 4, OVI_DTYPE_FLOAT32, 4, { 20, 20, 3, 3 }, 16, 0.0 },
    { "fz_f16", 4, OVI_DTYPE_FLOAT16, 4, { 33, 5, 2, 3 }, 16, NAN },
    { "ndc1hwc0_f16", 32, OVI_DTYPE_FLOAT16, 5, { 2, 20, 3, 4, 5 }, 16, 0.0 },
    { "fz3d_f32", 33, OVI_DTYPE_FLOAT32, 5, { 20, 20, 2, 3, 3 }, 16, NAN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (f, &cases[i]);
}

/* An original shape that does not fit the layout, or none: the statistics
 * are over the stored values, and the tensor and the report say why. */
static void
test_fallback (Fixture *f, gconstpointer data)
{
  const guint64 device[] = { 1, 1, 2, 2, 16 };
  const guint64 wrong[] = { 1, 40, 2, 2 }; /* would need C1 = 3 */
  g_autofree double *values = g_new0 (double, 64);
  g_autoptr (GBytes) bytes = NULL;

  for (guint i = 0; i < 64; i++)
    values[i] = i % 16 < 3 ? i + 1 : 0;
  bytes = ovi_fixture_encode (OVI_DTYPE_FLOAT32, values, 64);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("fallback");
      g_autofree char *dir = g_build_filename (f->dir, k ? "none" : "wrong", NULL);
      g_autofree char *path = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      g_autoptr (OviAnalysis) a = NULL;
      g_autoptr (GError) error = NULL;
      OviTensor *t;
      const OviStats *s;

      ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 3, device, 5, bytes);
      /* The writer copies the shape unless told otherwise. */
      ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, k ? NULL : wrong, k ? 0 : 4);
      g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
      path = ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, "Conv2D.fallback.1.1.100");
      file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);
      t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
      g_assert_false (ovi_tensor_get_is_logical (t));
      g_assert_nonnull (ovi_tensor_get_layout_problem (t));
      g_test_message ("%s", ovi_tensor_get_layout_problem (t));
      g_assert_nonnull (strstr (ovi_tensor_get_layout_problem (t),
                                k ? "no original shape" : "does not match NC1HWC0"));
      g_assert_cmpuint (ovi_tensor_get_logical_count (t), ==, 64);
      a = ovi_tensor_analyze (t, &error);
      g_assert_no_error (error);
      s = ovi_analysis_get_stats (a);
      g_assert_cmpuint (s->count, ==, 64);
      g_assert_cmpuint (s->zeros, ==, 52);

      /* The report says so. */
      {
        g_autoptr (JsonNode) node = ovi_report_tensor_json (t);
        JsonObject *o = json_node_get_object (node);

        g_assert_cmpint (json_object_get_int_member (o, "count"), ==, 64);
        g_assert_cmpint (json_object_get_int_member (o, "stored_count"), ==, 64);
        g_assert_cmpstr (json_object_get_string_member (o, "layout_problem"), ==,
                         ovi_tensor_get_layout_problem (t));
        g_assert_false (json_object_has_member (o, "logical_shape"));
      }
      g_unlink (path);
      g_rmdir (dir);
    }
}

/* The example's Conv2D output of iteration 4: 256 values in NCHW stored
 * as 1024 in NC1HWC0. numpy over the 256 logical values (the .npy that
 * `convert --layout logical` writes) gives mean 15855.4 and std 38243.1
 * (numpy.mean and numpy.std in float64, printed to 6 digits). */
static OviTensor *
example_conv2d_output (OviDumpFolder **folder_out)
{
  g_autofree char *root = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  OviDumpFolder *folder = ovi_fixture_load_folder (root);
  GListModel *files = ovi_dump_folder_get_files (folder);

  *folder_out = folder;
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);

      for (guint j = 0; j < tensors->len; j++)
        if (ovi_tensor_get_format (g_ptr_array_index (tensors, j)) == OVI_FORMAT_NC1HWC0)
          return g_ptr_array_index (tensors, j);
    }
  g_assert_not_reached ();
}

static void
test_example_conv2d (void)
{
  g_autoptr (OviDumpFolder) folder = NULL;
  OviTensor *t = example_conv2d_output (&folder);
  g_autoptr (OviAnalysis) a = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *std = NULL;
  g_autofree char *first = NULL;
  const OviStats *s;

  a = ovi_tensor_analyze (t, &error);
  g_assert_no_error (error);
  s = ovi_analysis_get_stats (a);
  mean = g_strdup_printf ("%.6g", s->mean);
  std = g_strdup_printf ("%.6g", s->std);
  g_test_message ("count %" G_GUINT64_FORMAT " zeros %" G_GUINT64_FORMAT " mean %s std %s",
                  s->count, s->zeros, mean, std);
  g_assert_cmpuint (ovi_tensor_get_count (t), ==, 1024);
  g_assert_cmpuint (s->count, ==, 256);
  g_assert_cmpstr (mean, ==, "15855.4");
  g_assert_cmpstr (std, ==, "38243.1");
  /* The first saturated value, logically: index 3, (0, 0, 0, 3). */
  first = ovi_tensor_dup_position (t, s->first_saturated);
  g_assert_cmpstr (first, ==, "3 (0, 0, 0, 3)");
}

/* `report --json` gives the same numbers, the logical count, the stored
 * count, and the first bad values in the logical shape. */
static void
test_example_report_json (void)
{
  g_autofree char *root = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *records;
  gboolean found = FALSE;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, NULL, "report", "--json", root, NULL), ==,
                   1);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  records = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "records");
  for (guint i = 0; i < json_array_get_length (records); i++)
    {
      JsonObject *record = json_array_get_object_element (records, i);
      JsonObject *op = json_object_get_null_member (record, "op")
                           ? NULL
                           : json_object_get_object_member (record, "op");
      JsonArray *tensors = op ? json_object_get_array_member (op, "tensors") : NULL;

      for (guint j = 0; tensors && j < json_array_get_length (tensors); j++)
        {
          JsonObject *t = json_array_get_object_element (tensors, j);
          JsonObject *sat;
          g_autofree char *mean = NULL;
          g_autofree char *std = NULL;

          if (g_strcmp0 (json_object_get_string_member (t, "format"), "NC1HWC0") != 0)
            continue;
          found = TRUE;
          mean = g_strdup_printf ("%.6g", json_object_get_double_member (t, "mean"));
          std = g_strdup_printf ("%.6g", json_object_get_double_member (t, "std"));
          g_assert_cmpstr (mean, ==, "15855.4");
          g_assert_cmpstr (std, ==, "38243.1");
          g_assert_cmpint (json_object_get_int_member (t, "count"), ==, 256);
          g_assert_cmpint (json_object_get_int_member (t, "stored_count"), ==, 1024);
          sat = json_object_get_object_member (json_object_get_object_member (t, "first_bad"),
                                               "saturated");
          g_assert_cmpint (json_object_get_int_member (sat, "index"), ==, 3);
        }
    }
  g_assert_true (found);

  /* The text says the same. */
  {
    g_autofree char *text = NULL;

    g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &text, NULL, "report", root, NULL), ==, 1);
    g_assert_nonnull (
        strstr (text, "logical NCHW [1, 4, 8, 8]: 256 values, stored as 1024 in NC1HWC0\n"));
    g_assert_nonnull (strstr (text, "mean 15855.4  std 38243.1"));
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/logical-stats/nc1hwc0", test_nc1hwc0);
  ADD ("/core/logical-stats/fractal-nz", test_fractal_nz);
  ADD ("/core/logical-stats/other-layouts", test_other_layouts);
  ADD ("/core/logical-stats/fallback", test_fallback);
  g_test_add_func ("/core/logical-stats/example-conv2d", test_example_conv2d);
  g_test_add_func ("/core/logical-stats/example-report-json", test_example_report_json);
  return g_test_run ();
}
