/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* The .npy reader: files the project's own exporter writes, and headers
 * built by hand for what it does not write (versions 2 and 3, big-endian,
 * Fortran order), following numpy/lib/format.py. */

typedef OviTmpDir Fixture;

/* A .npy file of @version with the header dict @dict and @length data bytes. */
static GBytes *
build (guint version, const char *dict, const void *data, gsize length)
{
  GByteArray *a = g_byte_array_new ();
  guint prefix = version == 1 ? 10 : 12;
  g_autoptr (GString) header = g_string_new (dict);
  guint8 v[4];

  while ((prefix + header->len + 1) % 64)
    g_string_append_c (header, ' ');
  g_string_append_c (header, '\n');
  g_byte_array_append (a, (const guint8 *) "\x93NUMPY", 6);
  v[0] = version;
  v[1] = 0;
  g_byte_array_append (a, v, 2);
  v[0] = header->len & 0xff;
  v[1] = (header->len >> 8) & 0xff;
  v[2] = v[3] = 0;
  g_byte_array_append (a, v, version == 1 ? 2 : 4);
  g_byte_array_append (a, (const guint8 *) header->str, header->len);
  if (length)
    g_byte_array_append (a, data, length);
  return g_byte_array_free_to_bytes (a);
}

static OviNpy *
parse_ok (GBytes *bytes)
{
  g_autoptr (GError) error = NULL;
  OviNpy *npy = ovi_npy_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (npy);
  return npy;
}

static void
assert_fails (GBytes *bytes, int code, const char *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (OviNpy) npy = ovi_npy_parse (bytes, &error);

  g_assert_null (npy);
  g_assert_error (error, OVI_NPY_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, words));
}

/* What `convert` writes, read back: every dtype the exporter writes .npy
 * for, widened the way the vendor's converter does (bfloat16 and float8
 * become float32, int4 int8). */
static void
test_own_writer (Fixture *f, gconstpointer data)
{
  static const struct
  {
    int dtype;
    OviDtype read_as;
  } cases[] = {
    { OVI_DTYPE_FLOAT32, OVI_DTYPE_FLOAT32 },  { OVI_DTYPE_FLOAT16, OVI_DTYPE_FLOAT16 },
    { OVI_DTYPE_FLOAT64, OVI_DTYPE_FLOAT64 },  { OVI_DTYPE_BFLOAT16, OVI_DTYPE_FLOAT32 },
    { OVI_DTYPE_HIFLOAT8, OVI_DTYPE_FLOAT32 }, { OVI_DTYPE_FLOAT8_E4M3FN, OVI_DTYPE_FLOAT32 },
    { OVI_DTYPE_INT8, OVI_DTYPE_INT8 },        { OVI_DTYPE_INT64, OVI_DTYPE_INT64 },
    { OVI_DTYPE_UINT16, OVI_DTYPE_UINT16 },    { OVI_DTYPE_INT4, OVI_DTYPE_INT8 },
    { OVI_DTYPE_BOOL, OVI_DTYPE_BOOL },
  };
  const double values[] = { 1, 2, 3, 0, 5, 6 }; /* unsigned types too */
  const guint64 shape[] = { 2, 3 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GBytes) raw = ovi_fixture_encode (cases[i].dtype, values, 6);
      g_autofree char *path = g_strdup_printf ("%s/t%u.npy", f->dir, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (OviNpy) npy = NULL;
      g_autofree char *shape_text = NULL;

      g_assert_true (
          ovi_export_tensor_data (cases[i].dtype, shape, 2, raw, OVI_EXPORT_NPY, path, 0, &error));
      g_assert_no_error (error);
      npy = ovi_npy_load (path, &error);
      g_assert_no_error (error);
      g_test_message ("%s", ovi_dtype_name (cases[i].dtype));
      g_assert_cmpint (npy->dtype, ==, cases[i].read_as);
      g_assert_cmpuint (npy->version, ==, 1);
      g_assert_cmpuint (npy->n_dims, ==, 2);
      g_assert_cmpuint (npy->count, ==, 6);
      shape_text = ovi_npy_dup_shape_string (npy);
      g_assert_cmpstr (shape_text, ==, "[2, 3]");
      if (npy->dtype == OVI_DTYPE_FLOAT32)
        for (guint k = 0; k < 6; k++)
          {
            float v;
            memcpy (&v, (const guint8 *) g_bytes_get_data (npy->data, NULL) + 4 * k, 4);
            g_assert_cmpfloat (v, ==, values[k]);
          }
    }
}

static void
test_versions (void)
{
  const float v[3] = { 1.5f, -2.0f, 4.0f };

  for (guint version = 1; version <= 3; version++)
    {
      g_autoptr (GBytes) b =
          build (version, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", v, 12);
      g_autoptr (OviNpy) npy = parse_ok (b);

      g_assert_cmpuint (npy->version, ==, version);
      g_assert_cmpint (npy->dtype, ==, OVI_DTYPE_FLOAT32);
      g_assert_cmpmem (g_bytes_get_data (npy->data, NULL), 12, v, 12);
    }
}

/* Big-endian data is swapped; one-byte types have no order. */
static void
test_endianness (void)
{
  const guint8 be_f4[8] = { 0x3f, 0xc0, 0, 0, 0xc0, 0, 0, 0 }; /* 1.5, -2 */
  const guint8 be_i2[4] = { 0x01, 0x02, 0xff, 0xfe };          /* 258, -2 */
  const guint8 be_c8[8] = { 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0 }; /* 1+2j */
  const guint8 be_f8[8] = { 0x3f, 0xf8, 0, 0, 0, 0, 0, 0 };    /* 1.5 */
  const guint8 be_i8[8] = { 0, 0, 0, 0, 0, 0, 0x01, 0x02 };    /* 258 */
  g_autoptr (GBytes) f4 =
      build (1, "{\"descr\": \">f4\", \"fortran_order\": False, \"shape\": (2,)}", be_f4, 8);
  g_autoptr (GBytes) i2 =
      build (1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", be_i2, 4);
  g_autoptr (GBytes) c8 =
      build (1, "{'descr': '>c8', 'fortran_order': False, 'shape': (), }", be_c8, 8);
  g_autoptr (GBytes) u1 =
      build (1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }", be_i2, 4);
  g_autoptr (GBytes) f8 =
      build (1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", be_f8, 8);
  g_autoptr (GBytes) i8 =
      build (1, "{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }", be_i8, 8);
  g_autoptr (OviNpy) e = parse_ok (f8);
  g_autoptr (OviNpy) g = parse_ok (i8);
  g_autoptr (OviNpy) a = parse_ok (f4);
  g_autoptr (OviNpy) b = parse_ok (i2);
  g_autoptr (OviNpy) c = parse_ok (c8);
  g_autoptr (OviNpy) d = parse_ok (u1);
  const float *fa = g_bytes_get_data (a->data, NULL);
  const gint16 *ib = g_bytes_get_data (b->data, NULL);
  const float *fc = g_bytes_get_data (c->data, NULL);

  g_assert_cmpfloat (*(const double *) g_bytes_get_data (e->data, NULL), ==, 1.5);
  g_assert_cmpint (*(const gint64 *) g_bytes_get_data (g->data, NULL), ==, 258);
  g_assert_cmpfloat (fa[0], ==, 1.5f);
  g_assert_cmpfloat (fa[1], ==, -2.0f);
  g_assert_cmpint (ib[0], ==, 258);
  g_assert_cmpint (ib[1], ==, -2);
  g_assert_cmpuint (c->n_dims, ==, 0);
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_cmpfloat (fc[0], ==, 1.0f);
  g_assert_cmpfloat (fc[1], ==, 2.0f);
  g_assert_cmpint (d->dtype, ==, OVI_DTYPE_UINT8);
  g_assert_cmpmem (g_bytes_get_data (d->data, NULL), 4, be_i2, 4);
}

/* The header alone, for reading the data a part at a time. */
static void
test_open (Fixture *f, gconstpointer data)
{
  const guint8 be_f4[8] = { 0x3f, 0xc0, 0, 0, 0xc0, 0, 0, 0 }; /* 1.5, -2 */
  g_autoptr (GBytes) bytes =
      build (2, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", be_f4, 8);
  g_autoptr (GBytes) cut = g_bytes_new_from_bytes (bytes, 0, g_bytes_get_size (bytes) - 1);
  g_autofree char *path = NULL, *cut_path = NULL;
  g_autoptr (OviNpy) npy = NULL, none = NULL;
  g_autoptr (GError) error = NULL;
  guint8 read_back[8];
  float values[2];
  int fd = -1;

  path = ovi_fixture_write_bytes (f->dir, "be.npy", g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes));
  cut_path = ovi_fixture_write_bytes (f->dir, "cut.npy", g_bytes_get_data (cut, NULL),
                                      g_bytes_get_size (cut));
  npy = ovi_npy_open (path, &fd, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  g_assert_null (npy->data);
  g_assert_cmpuint (npy->data_offset, ==, 128); /* 12 + 58, padded to 64 */
  g_assert_cmpuint (npy->item_size, ==, 4);
  g_assert_true (npy->big_endian);
  g_assert_cmpint (pread (fd, read_back, 8, npy->data_offset), ==, 8);
  close (fd);
  ovi_npy_to_little_endian (npy, read_back, 2);
  memcpy (values, read_back, 8);
  g_assert_cmpfloat (values[0], ==, 1.5f);
  g_assert_cmpfloat (values[1], ==, -2.0f);

  /* The size is checked against the file's, as when it is read whole. */
  fd = -1;
  none = ovi_npy_open (cut_path, &fd, &error);
  g_assert_null (none);
  g_assert_cmpint (fd, ==, -1);
  g_assert_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_SIZE);
}

/* Fortran order is the same as C order with at most one long dimension. */
static void
test_fortran_order (void)
{
  const float v[6] = { 0 };
  g_autoptr (GBytes) trivial =
      build (1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 6, 1), }", v, 24);
  g_autoptr (GBytes) real =
      build (1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", v, 24);
  g_autoptr (OviNpy) npy = parse_ok (trivial);

  g_assert_true (npy->fortran_order);
  g_assert_cmpuint (npy->count, ==, 6);
  assert_fails (real, OVI_NPY_ERROR_ORDER, "Fortran order");
}

static void
test_broken (void)
{
  const float v[4] = { 0 };
  g_autoptr (GBytes) magic = g_bytes_new_static ("NUMPY\x01\x00\x10\x00", 10);
  g_autoptr (GBytes) version =
      build (4, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}", v, 16);
  g_autoptr (GBytes) short_data =
      build (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}", v, 16);
  g_autoptr (GBytes) long_data =
      build (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", v, 16);
  g_autoptr (GBytes) structured =
      build (1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}", v, 16);
  g_autoptr (GBytes) bf16 =
      build (1, "{'descr': '<V2', 'fortran_order': False, 'shape': (8,)}", v, 16);
  g_autoptr (GBytes) extra_key =
      build (1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}", v, 16);
  g_autoptr (GBytes) missing = build (1, "{'descr': '<f4', 'shape': (4,)}", v, 16);
  g_autoptr (GBytes) huge = build (
      1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", v, 16);
  g_autoptr (GBytes) overflow_dim = build (
      1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", v, 16);
  const guint8 cut[] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0xff, 0x00, '{' };
  g_autoptr (GBytes) cut_header = g_bytes_new_static (cut, sizeof cut);

  assert_fails (magic, OVI_NPY_ERROR_NOT_NPY, "\\x93NUMPY");
  assert_fails (version, OVI_NPY_ERROR_NOT_NPY, "4.0");
  assert_fails (short_data, OVI_NPY_ERROR_SIZE, "16 bytes");
  assert_fails (long_data, OVI_NPY_ERROR_SIZE, "need 12");
  assert_fails (structured, OVI_NPY_ERROR_HEADER, "descr");
  assert_fails (bf16, OVI_NPY_ERROR_DTYPE, "<V2");
  assert_fails (extra_key, OVI_NPY_ERROR_HEADER, "“x”");
  assert_fails (missing, OVI_NPY_ERROR_HEADER, "missing");
  assert_fails (huge, OVI_NPY_ERROR_SIZE, "more elements");
  assert_fails (overflow_dim, OVI_NPY_ERROR_HEADER, "shape");
  assert_fails (cut_header, OVI_NPY_ERROR_SIZE, "inside its header");
}

/* A file that cannot be opened names the problem (the caller adds the path). */
static void
test_missing_file (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "none.npy", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviNpy) npy = ovi_npy_load (path, &error);

  g_assert_null (npy);
  g_assert_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_IO);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/core/npy/own-writer", Fixture, NULL, ovi_tmp_dir_setup, test_own_writer,
              ovi_tmp_dir_teardown);
  g_test_add_func ("/core/npy/versions", test_versions);
  g_test_add_func ("/core/npy/endianness", test_endianness);
  g_test_add_func ("/core/npy/fortran-order", test_fortran_order);
  g_test_add ("/core/npy/open", Fixture, NULL, ovi_tmp_dir_setup, test_open, ovi_tmp_dir_teardown);
  g_test_add_func ("/core/npy/broken", test_broken);
  g_test_add ("/core/npy/missing-file", Fixture, NULL, ovi_tmp_dir_setup, test_missing_file,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
