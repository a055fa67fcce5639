/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovi-fixtures.h"
#include "ovi-layout-reference.h"

/* Device layouts back to the logical layout. Every device buffer is laid
 * out here by hand from the definitions (not with src/core), padding
 * filled with a sentinel, and compared element by element. */

#define SENTINEL (-7.0)
#define N0 16

typedef OviTmpDir Fixture;

static guint64
flat (const guint64 *shape, guint n, const guint64 *idx)
{
  return ovi_layout_ref_flat (shape, n, idx);
}

typedef struct
{
  const char *label;
  int format;
  guint n_orig;
  guint64 orig[6];
  guint64 c0; /* for the C0 layouts */
  guint n_dev;
  guint64 dev[8]; /* filled by device_shape() */
} Case;

/* The device shape from the definitions. */
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

static guint64
count_of (const guint64 *shape, guint n)
{
  return ovi_layout_ref_count (shape, n);
}

static char *
shape_tuple (const guint64 *shape, guint n)
{
  GString *s = g_string_new ("(");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? ", " : "", shape[i]);
  if (n == 1)
    g_string_append_c (s, ',');
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

/* Header dict and data of a .npy file. */
static void
read_npy (const char *path, char **dict, GBytes **data)
{
  g_autofree char *contents = NULL;
  gsize length;
  guint header_len, start;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, >=, 10);
  g_assert_cmpmem (contents, 6, "\x93NUMPY", 6);
  if (contents[6] == 1)
    {
      header_len = (guint8) contents[8] | ((guint8) contents[9] << 8);
      start = 10;
    }
  else
    {
      header_len = (guint8) contents[8] | ((guint8) contents[9] << 8) |
                   ((guint8) contents[10] << 16) | ((guint) (guint8) contents[11] << 24);
      start = 12;
    }
  g_assert_cmpuint (start + header_len, <=, length);
  *dict = g_strndup (contents + start, header_len);
  *data = g_bytes_new (contents + start + header_len, length - start - header_len);
}

static int
run_cli (const char *const *args)
{
  const char *cli = g_getenv ("OVI_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = -1;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("cli stdout: %s\nstderr: %s", out, err);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* Finds the one file below @dir whose name ends with @suffix. */
static char *
find_below (const char *dir, const char *suffix)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      char *sub = NULL;
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        sub = find_below (child, suffix);
      else if (g_str_has_suffix (name, suffix))
        sub = g_strdup (child);
      if (sub)
        {
          g_assert_null (found);
          found = sub;
        }
    }
  g_dir_close (d);
  return found;
}

static void
check_case (Fixture *f, Case *c, int dtype)
{
  g_autofree char *name = g_strdup_printf ("Conv.net_%s_%d.1.1.100", c->label, dtype);
  g_autofree char *case_dir = g_build_filename (f->dir, name, NULL);
  guint64 count, dev_count;
  g_autofree double *logical = NULL;
  g_autofree double *device = NULL;
  g_autofree guint8 *seen = NULL;
  g_autoptr (GBytes) expected = NULL;
  g_autoptr (GBytes) device_bytes = NULL;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) data = NULL;
  g_autoptr (GBytes) converted = NULL;
  OviTensor *t;
  const guint64 *shape, *orig;
  guint n_dims, n_orig;
  guint64 l[6] = { 0 };
  guint64 padding = 0;
  gsize item = dtype == OVI_DTYPE_FLOAT32 ? 4 : dtype == OVI_DTYPE_FLOAT16 ? 2 : 1;

  device_shape (c);
  count = count_of (c->orig, c->n_orig);
  dev_count = count_of (c->dev, c->n_dev);
  g_test_message ("%s dtype %d: %" G_GUINT64_FORMAT " logical, %" G_GUINT64_FORMAT " device",
                  c->label, dtype, count, dev_count);
  if (dtype == OVI_DTYPE_FLOAT16)
    g_assert_cmpuint (count, <=, 2048); /* distinct integers in float16 */
  if (dtype == OVI_DTYPE_INT8)
    g_assert_cmpuint (count, <=, 127);
  g_assert_cmpuint (dev_count, >, count); /* every case needs padding */

  logical = g_new (double, count);
  device = g_new (double, dev_count);
  seen = g_new0 (guint8, dev_count);
  for (guint64 i = 0; i < dev_count; i++)
    device[i] = SENTINEL;
  for (guint64 i = 0; i < count; i++)
    {
      guint64 di = device_index (c, l);
      logical[i] = (double) (i + 1);
      g_assert_cmpuint (seen[di], ==, 0); /* the mapping is one-to-one */
      seen[di] = 1;
      device[di] = logical[i];
      for (int k = (int) c->n_orig - 1; k >= 0; k--)
        {
          if (++l[k] < c->orig[k])
            break;
          l[k] = 0;
        }
    }
  for (guint64 i = 0; i < dev_count; i++)
    padding += !seen[i];
  g_assert_cmpuint (padding, ==, dev_count - count);

  expected = ovi_fixture_encode (dtype, logical, count);
  device_bytes = ovi_fixture_encode (dtype, device, dev_count);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, dtype, c->format, c->dev, c->n_dev,
                              device_bytes);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, c->orig, c->n_orig);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, case_dir, name);

  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  g_assert_cmpint (ovi_tensor_get_format (t), ==, c->format);
  shape = ovi_tensor_get_shape (t, &n_dims);
  g_assert_cmpuint (n_dims, ==, c->n_dev);
  g_assert_cmpmem (shape, n_dims * 8, c->dev, c->n_dev * 8);
  orig = ovi_tensor_get_original_shape (t, &n_orig);
  g_assert_cmpuint (n_orig, ==, c->n_orig);
  g_assert_cmpmem (orig, n_orig * 8, c->orig, c->n_orig * 8);
  g_assert_true (ovi_layout_is_device (c->format));

  /* The map: each logical index to where it is stored and back, and its
   * runs cover exactly the stored elements that are not padding. */
  {
    g_autoptr (OviLayoutMap) map =
        ovi_layout_map_new (c->format, dtype, shape, n_dims, orig, n_orig, &error);
    guint64 covered = 0, run_end, at;

    g_assert_no_error (error);
    g_assert_cmpuint (ovi_layout_map_get_count (map), ==, count);
    g_assert_cmpuint (ovi_layout_map_get_stored_count (map), ==, dev_count);
    memset (l, 0, sizeof l);
    for (guint64 i = 0; i < count; i++)
      {
        guint64 di = device_index (c, l);
        g_assert_cmpuint (ovi_layout_map_to_stored (map, i), ==, di);
        g_assert_cmpuint (ovi_layout_map_to_logical (map, di), ==, i);
        for (int k = (int) c->n_orig - 1; k >= 0; k--)
          {
            if (++l[k] < c->orig[k])
              break;
            l[k] = 0;
          }
      }
    /* In chunks of 37, as the analysis reads a chunk at a time. */
    for (guint64 from = 0; from < dev_count; from += 37)
      {
        guint64 end = MIN (from + 37, dev_count);
        for (at = ovi_layout_map_next_run (map, from, end, &run_end); at < end;
             at = ovi_layout_map_next_run (map, run_end, end, &run_end))
          {
            g_assert_cmpuint (run_end, >, at);
            g_assert_cmpuint (run_end, <=, end);
            for (guint64 j = at; j < run_end; j++)
              {
                g_assert_cmpuint (seen[j], ==, 1);
                seen[j] = 2;
              }
            covered += run_end - at;
          }
      }
    g_assert_cmpuint (covered, ==, count);
  }

  data = ovi_tensor_load_data (t, &error);
  g_assert_no_error (error);
  converted = ovi_layout_to_logical (c->format, dtype, shape, n_dims, orig, n_orig, data, &error);
  g_assert_no_error (error);
  g_assert_nonnull (converted);
  g_assert_cmpuint (g_bytes_get_size (converted), ==, count * item);
  {
    const guint8 *got = g_bytes_get_data (converted, NULL);
    for (guint64 i = 0; i < count; i++)
      {
        double v = dtype == OVI_DTYPE_FLOAT32   ? ovi_load_f32 (got, i)
                   : dtype == OVI_DTYPE_FLOAT16 ? ovi_half_to_float (ovi_load_u16 (got, i))
                                                : (double) (gint8) got[i];
        if (v != logical[i])
          g_error ("%s: element %" G_GUINT64_FORMAT " is %g, expected %g", c->label, i, v,
                   logical[i]);
      }
  }

  /* export with the logical flag: .npy shaped by the original shape */
  {
    g_autofree char *out_dir = g_build_filename (f->dir, "export", NULL);
    g_autofree char *npy = g_build_filename (out_dir, "t.npy", NULL);
    g_autofree char *dict = NULL;
    g_autofree char *tuple = shape_tuple (c->orig, c->n_orig);
    g_autofree char *want = g_strdup_printf ("'shape': %s", tuple);
    g_autoptr (GBytes) npy_data = NULL;

    g_assert_no_errno (g_mkdir_with_parents (out_dir, 0755));
    g_assert_true (ovi_export_tensor (t, OVI_EXPORT_NPY, npy, OVI_EXPORT_FLAGS_LOGICAL, &error));
    g_assert_no_error (error);
    read_npy (npy, &dict, &npy_data);
    g_test_message ("npy header: %s", dict);
    g_assert_nonnull (strstr (dict, want));
    g_assert_nonnull (strstr (dict, dtype == OVI_DTYPE_FLOAT32   ? "'<f4'"
                                    : dtype == OVI_DTYPE_FLOAT16 ? "'<f2'"
                                                                 : "'|i1'"));
    g_assert_true (g_bytes_equal (npy_data, expected));
    ovi_fixture_remove_tree (out_dir);
  }

  /* the CLI: convert --layout logical */
  {
    g_autofree char *out_dir = g_build_filename (f->dir, "cli-out", NULL);
    const char *args[] = { "convert", "--layout", "logical", "--output", out_dir, path, NULL };
    g_autofree char *npy = NULL;
    g_autofree char *dict = NULL;
    g_autofree char *tuple = shape_tuple (c->orig, c->n_orig);
    g_autofree char *want = g_strdup_printf ("'shape': %s", tuple);
    g_autofree char *suffix = g_strconcat (name, ".output.0.npy", NULL);
    g_autoptr (GBytes) npy_data = NULL;

    g_assert_cmpint (run_cli (args), ==, 0);
    npy = find_below (out_dir, suffix);
    g_assert_nonnull (npy);
    read_npy (npy, &dict, &npy_data);
    g_assert_nonnull (strstr (dict, want));
    g_assert_true (g_bytes_equal (npy_data, expected));
    ovi_fixture_remove_tree (out_dir);
  }
  ovi_fixture_remove_tree (case_dir);
}

static void
run_cases (Fixture *f, Case *cases, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      check_case (f, &cases[i], OVI_DTYPE_FLOAT32);
      check_case (f, &cases[i], OVI_DTYPE_FLOAT16);
    }
}

static void
test_nc1hwc0 (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "nc1hwc0_c3", 3, 4, { 2, 3, 2, 3 }, 16 },
    { "nc1hwc0_c20", 3, 4, { 2, 20, 3, 2 }, 16 },
    { "nc1hwc0_c04", 12, 4, { 2, 3, 2, 3 }, 4 },
    { "nc1hwc0_c04_c6", 12, 4, { 3, 6, 2, 5 }, 4 },
  };
  run_cases (f, cases, G_N_ELEMENTS (cases));
}

/* int8 uses C0 = 32. */
static void
test_int8_c0_32 (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "nc1hwc0_int8", 3, 4, { 1, 40, 1, 3 }, 32 },
    { "fz_int8", 4, 4, { 3, 40, 1, 1 }, 32 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (f, &cases[i], OVI_DTYPE_INT8);
}

static void
test_fractal_z (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "fz_n17_c3", 4, 4, { 17, 3, 2, 2 }, 16 },
    { "fz_n17_c20", 4, 4, { 17, 20, 2, 2 }, 16 },
  };
  run_cases (f, cases, G_N_ELEMENTS (cases));
}

static void
test_fractal_nz (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "nz_20x35", 29, 2, { 20, 35 } },
    { "nz_b2_20x35", 29, 3, { 2, 20, 35 } },
    { "nz_b2x3_17x5", 29, 4, { 2, 3, 17, 5 } },
  };
  run_cases (f, cases, G_N_ELEMENTS (cases));
}

/* FRACTAL_NZ with three batch dimensions: (b1, b2, b3, M, N) is stored
 * 7-D. ovi_layout_to_logical used to refuse any device shape of more
 * than 6 dimensions (a bug the tests found, now fixed). */
static void
test_fractal_nz_3_batch (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "nz_b2x2x2_17x5", 29, 5, { 2, 2, 2, 17, 5 } },
  };
  run_cases (f, cases, G_N_ELEMENTS (cases));
}

static void
test_ndc1hwc0 (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "ndc1hwc0", 32, 5, { 2, 20, 3, 2, 2 }, 16 },
    { "ndc1hwc0_c3", 32, 5, { 1, 3, 2, 3, 2 }, 16 },
  };
  run_cases (f, cases, G_N_ELEMENTS (cases));
}

static void
test_fractal_z_3d (Fixture *f, gconstpointer data)
{
  Case cases[] = {
    { "fz3d_n17_c20", 33, 5, { 17, 20, 2, 1, 2 }, 16 },
    { "fz3d_n17_c3", 33, 5, { 17, 3, 2, 2, 2 }, 16 },
  };
  run_cases (f, cases, G_N_ELEMENTS (cases));
}

static void
test_formats (void)
{
  const int device[] = { 3, 4, 12, 29, 32, 33 };
  const int plain[] = { 0, 1, 2, 30, 16 };

  for (guint i = 0; i < G_N_ELEMENTS (device); i++)
    g_assert_true (ovi_layout_is_device (device[i]));
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    g_assert_false (ovi_layout_is_device (plain[i]));
  g_assert_cmpint (ovi_layout_logical_format (3, 4), ==, 0); /* NCHW */
  g_assert_cmpint (ovi_layout_logical_format (12, 4), ==, 0);
  g_assert_cmpint (ovi_layout_logical_format (4, 4), ==, 0);
  g_assert_cmpint (ovi_layout_logical_format (29, 3), ==, 2);  /* ND */
  g_assert_cmpint (ovi_layout_logical_format (32, 5), ==, 30); /* NCDHW */
  g_assert_cmpint (ovi_layout_logical_format (33, 5), ==, 30);
}

static void
test_errors (void)
{
  const guint64 orig[] = { 2, 3, 2, 3 };
  const guint64 good[] = { 2, 1, 2, 3, 16 };
  const guint64 wrong_w[] = { 2, 1, 2, 4, 16 };
  const guint64 wrong_c1[] = { 2, 2, 2, 3, 16 };
  const guint64 four_d[] = { 2, 1, 2, 3 };
  const guint64 c04_bad[] = { 2, 1, 2, 3, 16 };
  const guint64 nz_orig[] = { 20, 35 };
  const guint64 nz_wrong[] = { 2, 2, 16, 16 }; /* N1 must be 3 */
  g_autofree guint8 *zeros = g_malloc0 (2 * 1 * 2 * 4 * 16 * 4);
  g_autoptr (GBytes) data = g_bytes_new (zeros, 2 * 1 * 2 * 4 * 16 * 4);
  g_autoptr (GBytes) ok = NULL;
  GBytes *r;

  /* the right shape works on the same bytes (too many bytes are fine) */
  ok = ovi_layout_to_logical (3, OVI_DTYPE_FLOAT32, good, 5, orig, 4, data, NULL);
  g_assert_nonnull (ok);
  g_assert_cmpuint (g_bytes_get_size (ok), ==, 36 * 4);

#define EXPECT_FAIL(call, words)                                                                   \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_autoptr (GError) e = NULL;                                                                   \
    r = call;                                                                                      \
    g_assert_null (r);                                                                             \
    g_assert_nonnull (e);                                                                          \
    g_test_message ("%s", e->message);                                                             \
    g_assert_nonnull (strstr (e->message, words));                                                 \
  }                                                                                                \
  G_STMT_END
#define CALL(fmt, dt, s, n, o, no) ovi_layout_to_logical (fmt, dt, s, n, o, no, data, &e)

  EXPECT_FAIL (CALL (3, OVI_DTYPE_FLOAT32, wrong_w, 5, orig, 4), "does not match NC1HWC0");
  EXPECT_FAIL (CALL (3, OVI_DTYPE_FLOAT32, wrong_c1, 5, orig, 4), "does not match NC1HWC0");
  EXPECT_FAIL (CALL (3, OVI_DTYPE_FLOAT32, four_d, 4, orig, 4), "needs a 5-D shape");
  EXPECT_FAIL (CALL (12, OVI_DTYPE_FLOAT32, c04_bad, 5, orig, 4), "C0 = 4");
  EXPECT_FAIL (CALL (29, OVI_DTYPE_FLOAT32, nz_wrong, 4, nz_orig, 2), "does not match FRACTAL_NZ");
  EXPECT_FAIL (CALL (4, OVI_DTYPE_FLOAT32, good, 5, orig, 4), "FRACTAL_Z needs a 4-D shape");
  /* no original shape */
  EXPECT_FAIL (CALL (3, OVI_DTYPE_FLOAT32, good, 5, NULL, 0), "no original shape");
  /* int4: no whole-byte elements */
  EXPECT_FAIL (CALL (3, OVI_DTYPE_INT4, good, 5, orig, 4), "no whole-byte elements");
  /* not a device layout */
  EXPECT_FAIL (CALL (0, OVI_DTYPE_FLOAT32, good, 5, orig, 4), "not a device layout");
  /* fewer bytes than the shape */
  {
    g_autoptr (GBytes) small = g_bytes_new (zeros, 100);
    g_autoptr (GError) e = NULL;
    r = ovi_layout_to_logical (3, OVI_DTYPE_FLOAT32, good, 5, orig, 4, small, &e);
    g_assert_null (r);
    g_assert_nonnull (e);
    g_assert_nonnull (strstr (e->message, "smaller than the shape"));
  }
#undef CALL
#undef EXPECT_FAIL
}

/* A device tensor whose header has no original shape cannot be exported
 * logically: the export fails and writes nothing. */
static void
test_export_without_original (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");
  const guint64 dev[] = { 1, 1, 2, 2, 16 };
  g_autofree guint8 *zeros = g_malloc0 (64 * 2);
  g_autoptr (GBytes) bytes = g_bytes_new (zeros, 64 * 2);
  g_autofree char *path = NULL;
  g_autofree char *npy = g_build_filename (f->dir, "t.npy", NULL);
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  OviTensor *t;
  guint n_orig = 99;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, 3, dev, 5, bytes);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, NULL, 0);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Conv.net_conv.1.1.1");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  ovi_tensor_get_original_shape (t, &n_orig);
  g_assert_cmpuint (n_orig, ==, 0);
  g_assert_false (ovi_export_tensor (t, OVI_EXPORT_NPY, npy, OVI_EXPORT_FLAGS_LOGICAL, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (npy, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  /* without the flag the device bytes export as stored */
  g_assert_true (ovi_export_tensor (t, OVI_EXPORT_NPY, npy, OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_no_error (error);
  {
    g_autofree char *dict = NULL;
    g_autoptr (GBytes) npy_data = NULL;
    read_npy (npy, &dict, &npy_data);
    g_assert_nonnull (strstr (dict, "'shape': (1, 1, 2, 2, 16)"));
    g_assert_cmpuint (g_bytes_get_size (npy_data), ==, 128);
  }
}

static void
test_index_to_coords (void)
{
  const guint64 shape[] = { 2, 3, 4, 5 };
  guint64 coords[4];
  const guint64 last[] = { 1, 2, 3, 4 };
  const guint64 s17[] = { 2, 3, 4 };

  for (guint64 i = 0; i < 120; i++)
    {
      ovi_shape_index_to_coords (i, shape, 4, coords);
      for (guint k = 0; k < 4; k++)
        g_assert_cmpuint (coords[k], <, shape[k]);
      g_assert_cmpuint (flat (shape, 4, coords), ==, i);
    }
  ovi_shape_index_to_coords (119, shape, 4, coords);
  g_assert_cmpmem (coords, sizeof coords, last, sizeof last);
  ovi_shape_index_to_coords (0, shape, 4, coords);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpuint (coords[k], ==, 0);
  ovi_shape_index_to_coords (17, s17, 3, coords);
  g_assert_cmpuint (coords[0], ==, 1);
  g_assert_cmpuint (coords[1], ==, 1);
  g_assert_cmpuint (coords[2], ==, 1);
  /* a big shape: no overflow in the arithmetic */
  {
    const guint64 big[] = { 1u << 20, 1u << 20, 1u << 20 };
    guint64 c[3];
    guint64 idx = (((guint64) 123 << 20) + 456) * (1u << 20) + 789;
    ovi_shape_index_to_coords (idx, big, 3, c);
    g_assert_cmpuint (c[0], ==, 123);
    g_assert_cmpuint (c[1], ==, 456);
    g_assert_cmpuint (c[2], ==, 789);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/layout/nc1hwc0", test_nc1hwc0);
  ADD ("/core/layout/fractal-z", test_fractal_z);
  ADD ("/core/layout/int8-c0-32", test_int8_c0_32);
  ADD ("/core/layout/fractal-nz", test_fractal_nz);
  ADD ("/core/layout/ndc1hwc0", test_ndc1hwc0);
  ADD ("/core/layout/fractal-nz-3-batch", test_fractal_nz_3_batch);
  ADD ("/core/layout/fractal-z-3d", test_fractal_z_3d);
  ADD ("/core/layout/export-without-original", test_export_without_original);
  g_test_add_func ("/core/layout/formats", test_formats);
  g_test_add_func ("/core/layout/errors", test_errors);
  g_test_add_func ("/core/layout/index-to-coords", test_index_to_coords);

  return g_test_run ();
}
