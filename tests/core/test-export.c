/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* O_PATH */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Exporters: .npy, .txt, .bin, the vendor's file names, and atomic writes. */

typedef OviTmpDir Fixture;

/* The names in @dir, sorted, joined by spaces. */
static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static char *
list_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
assert_no_temp_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    g_assert_false (name[0] == '.');
}

typedef struct
{
  char *contents;
  gsize length;
  guint16 header_length;
  char *dict;
  const char *data;
  gsize data_length;
} Npy;

static void
npy_read (Npy *npy, const char *path)
{
  g_assert_true (g_file_get_contents (path, &npy->contents, &npy->length, NULL));
  g_assert_cmpuint (npy->length, >=, 10);
  g_assert_cmpmem (npy->contents, 6, "\x93NUMPY", 6);
  g_assert_cmpint (npy->contents[6], ==, 1);
  g_assert_cmpint (npy->contents[7], ==, 0);
  npy->header_length = (guint8) npy->contents[8] | ((guint8) npy->contents[9] << 8);
  g_assert_cmpuint (10 + npy->header_length, <=, npy->length);
  /* data 64-byte aligned, the header ends with a newline */
  g_assert_cmpuint ((10 + npy->header_length) % 64, ==, 0);
  g_assert_cmpint (npy->contents[10 + npy->header_length - 1], ==, '\n');
  npy->dict = g_strndup (npy->contents + 10, npy->header_length);
  npy->data = npy->contents + 10 + npy->header_length;
  npy->data_length = npy->length - 10 - npy->header_length;
}

static void
npy_clear (Npy *npy)
{
  g_free (npy->contents);
  g_free (npy->dict);
}

static void
assert_dict (const Npy *npy, const char *descr, const char *shape)
{
  g_autofree char *d = g_strdup_printf ("'descr': '%s'", descr);
  g_autofree char *s = g_strdup_printf ("'shape': %s", shape);

  g_test_message ("%s", npy->dict);
  g_assert_true (g_str_has_prefix (npy->dict, "{"));
  g_assert_nonnull (strstr (npy->dict, d));
  g_assert_nonnull (strstr (npy->dict, "'fortran_order': False"));
  g_assert_nonnull (strstr (npy->dict, s));
}

static char *
export_data (Fixture *f,
             const char *name,
             int dtype,
             const guint64 *shape,
             guint n_dims,
             GBytes *data,
             OviExportFormat format)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (ovi_export_tensor_data (dtype, shape, n_dims, data, format, path,
                                         OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_npy (Fixture *f, gconstpointer data)
{
  /* float16: stored as is */
  {
    static const double v[] = { 1, -2.5, 65504, NAN, -INFINITY, 0 };
    const guint64 shape[] = { 2, 3 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT16, v, 6);
    g_autofree char *path =
        export_data (f, "f16.npy", OVI_DTYPE_FLOAT16, shape, 2, d, OVI_EXPORT_NPY);
    Npy npy = { 0 };

    npy_read (&npy, path);
    assert_dict (&npy, "<f2", "(2, 3)");
    g_assert_cmpmem (npy.data, npy.data_length, g_bytes_get_data (d, NULL), 12);
    npy_clear (&npy);
  }
  /* bfloat16: converted to float32 */
  {
    static const double v[] = { 1.5, -2.25, 65536, 3.3895313892515355e38, 0.0078125 };
    const guint64 shape[] = { 5 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_BFLOAT16, v, 5);
    g_autofree char *path =
        export_data (f, "bf16.npy", OVI_DTYPE_BFLOAT16, shape, 1, d, OVI_EXPORT_NPY);
    Npy npy = { 0 };
    float expected[5];

    for (guint i = 0; i < 5; i++)
      expected[i] = v[i];
    npy_read (&npy, path);
    assert_dict (&npy, "<f4", "(5,)");
    g_assert_cmpmem (npy.data, npy.data_length, expected, sizeof expected);
    npy_clear (&npy);
  }
  /* int4, odd count: one int8 per element */
  {
    static const double v[] = { -8, 7, 0, -1, 3 };
    static const gint8 expected[] = { -8, 7, 0, -1, 3 };
    const guint64 shape[] = { 5, 1 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_INT4, v, 5);
    g_autofree char *path = export_data (f, "i4.npy", OVI_DTYPE_INT4, shape, 2, d, OVI_EXPORT_NPY);
    Npy npy = { 0 };

    g_assert_cmpuint (g_bytes_get_size (d), ==, 3);
    npy_read (&npy, path);
    assert_dict (&npy, "|i1", "(5, 1)");
    g_assert_cmpmem (npy.data, npy.data_length, expected, sizeof expected);
    npy_clear (&npy);
  }
  /* bool: 0/1 bytes whatever was stored */
  {
    static const guint8 raw[] = { 0, 1, 2, 255 };
    static const guint8 expected[] = { 0, 1, 1, 1 };
    const guint64 shape[] = { 2, 2 };
    g_autoptr (GBytes) d = g_bytes_new (raw, 4);
    g_autofree char *path = export_data (f, "b.npy", OVI_DTYPE_BOOL, shape, 2, d, OVI_EXPORT_NPY);
    Npy npy = { 0 };

    npy_read (&npy, path);
    assert_dict (&npy, "|b1", "(2, 2)");
    g_assert_cmpmem (npy.data, npy.data_length, expected, sizeof expected);
    npy_clear (&npy);
  }
  /* float8 e4m3fn to float32; a scalar shape */
  {
    static const double v[] = { -448 };
    const float expected[] = { -448 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT8_E4M3FN, v, 1);
    g_autofree char *path =
        export_data (f, "e4.npy", OVI_DTYPE_FLOAT8_E4M3FN, NULL, 0, d, OVI_EXPORT_NPY);
    Npy npy = { 0 };

    npy_read (&npy, path);
    assert_dict (&npy, "<f4", "()");
    g_assert_cmpmem (npy.data, npy.data_length, expected, sizeof expected);
    npy_clear (&npy);
  }
  /* complex128, four dimensions */
  {
    static const double raw[] = { 1, 2, 3, 4 };
    const guint64 shape[] = { 1, 2, 1, 1 };
    g_autoptr (GBytes) d = g_bytes_new (raw, sizeof raw);
    g_autofree char *path =
        export_data (f, "c.npy", OVI_DTYPE_COMPLEX128, shape, 4, d, OVI_EXPORT_NPY);
    Npy npy = { 0 };

    npy_read (&npy, path);
    assert_dict (&npy, "<c16", "(1, 2, 1, 1)");
    g_assert_cmpmem (npy.data, npy.data_length, raw, sizeof raw);
    npy_clear (&npy);
  }
  /* large enough to cross the 1 MiB write buffer and the conversion chunks */
  {
    const guint64 n = 700000;
    g_autofree guint16 *raw = g_new (guint16, n);
    g_autofree float *expected = g_new (float, n);
    const guint64 shape[] = { n };
    g_autoptr (GBytes) d = NULL;
    g_autofree char *path = NULL;
    Npy npy = { 0 };

    for (guint64 i = 0; i < n; i++)
      {
        raw[i] = (guint16) (i * 7);
        expected[i] = ovi_bfloat16_to_float (raw[i]);
      }
    d = g_bytes_new (raw, n * 2);
    path = export_data (f, "big.npy", OVI_DTYPE_BFLOAT16, shape, 1, d, OVI_EXPORT_NPY);
    npy_read (&npy, path);
    assert_dict (&npy, "<f4", "(700000,)");
    g_assert_cmpuint (npy.data_length, ==, n * 4);
    g_assert_true (memcmp (npy.data, expected, n * 4) == 0);
    npy_clear (&npy);
  }
}

static void
test_txt (Fixture *f, gconstpointer data)
{
  {
    static const double v[] = { 65504, NAN, -INFINITY, INFINITY, 0, -2.5, 1e-7 };
    const guint64 shape[] = { 7 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT16, v, 7);
    g_autofree char *path =
        export_data (f, "f16.txt", OVI_DTYPE_FLOAT16, shape, 1, d, OVI_EXPORT_TXT);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==,
                     "6.550400000000000000e+04\n"
                     "nan\n"
                     "-inf\n"
                     "inf\n"
                     "0.000000000000000000e+00\n"
                     "-2.500000000000000000e+00\n"
                     "1.192092895507812500e-07\n");
  }
  {
    static const float v[] = { -NAN, 0.1f, -3 };
    const guint64 shape[] = { 3 };
    g_autoptr (GBytes) d = g_bytes_new (v, sizeof v);
    g_autofree char *path =
        export_data (f, "f32.txt", OVI_DTYPE_FLOAT32, shape, 1, d, OVI_EXPORT_TXT);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==,
                     "nan\n"
                     "1.000000014901161194e-01\n"
                     "-3.000000000000000000e+00\n");
  }
  {
    static const double v[] = { -8, 7, 1 };
    const guint64 shape[] = { 3 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_INT4, v, 3);
    g_autofree char *path = export_data (f, "i4.txt", OVI_DTYPE_INT4, shape, 1, d, OVI_EXPORT_TXT);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==,
                     "-8.000000000000000000e+00\n"
                     "7.000000000000000000e+00\n"
                     "1.000000000000000000e+00\n");
  }
  {
    static const float v[] = { 1, 2, 3, -4 };
    const guint64 shape[] = { 2 };
    g_autoptr (GBytes) d = g_bytes_new (v, sizeof v);
    g_autofree char *path =
        export_data (f, "c.txt", OVI_DTYPE_COMPLEX64, shape, 1, d, OVI_EXPORT_TXT);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==,
                     " (1.000000000000000000e+00+2.000000000000000000e+00j)\n"
                     " (3.000000000000000000e+00-4.000000000000000000e+00j)\n");
  }
  {
    static const double v[] = { -2147483648.0, 7 };
    const guint64 shape[] = { 2 };
    g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_INT32, v, 2);
    g_autofree char *path =
        export_data (f, "i32.txt", OVI_DTYPE_INT32, shape, 1, d, OVI_EXPORT_TXT);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, "-2.147483648000000000e+09\n7.000000000000000000e+00\n");
  }
}

static void
test_bin_and_errors (Fixture *f, gconstpointer data)
{
  static const guint8 raw[] = { 1, 2, 3, 4, 5, 6, 7 };
  g_autoptr (GBytes) d = g_bytes_new (raw, sizeof raw);
  const guint64 shape[] = { 3 };
  g_autofree char *path = export_data (f, "x.bin", 99, shape, 1, d, OVI_EXPORT_BIN);
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr (GError) error = NULL;
  g_autofree char *npy = g_build_filename (f->dir, "x.npy", NULL);
  g_autofree char *listing = NULL;
  GStatBuf st;

  /* bin: the raw bytes, whatever the dtype */
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, raw, sizeof raw);
  g_assert_no_errno (g_stat (path, &st));
  g_assert_cmpint (st.st_mode & 0777, ==, 0644);

  /* an unknown dtype has no .npy */
  g_assert_false (
      ovi_export_tensor_data (99, shape, 1, d, OVI_EXPORT_NPY, npy, OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  /* fewer bytes than the shape needs */
  g_assert_false (ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape, 1, d, OVI_EXPORT_TXT, npy,
                                          OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED);
  listing = list_dir (f->dir);
  g_assert_cmpstr (listing, ==, "x.bin");
}

/* The vendor converter's file names, for tensors of a loaded file. */
static void
test_file_names (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("a");
  const guint64 s4[] = { 1, 2, 1, 3 }, s2[] = { 2 };
  static const double v[] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr (GBytes) buf = g_bytes_new ("abcd", 4);
  g_autoptr (GBytes) odd = g_bytes_new ("xyz", 3);
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *t;
  static const char *const expected_npy[] = {
    "Add.a.1.2.3.input.0.npy",    "Add.a.1.2.3.input.1.npy", "Add.a.1.2.3.output.0.npy",
    "Add.a.1.2.3.l1buffer.0.bin", "Add.a.1.2.3.space.0.bin",
  };
  static const char *const expected_txt[] = {
    "Add.a.1.2.3.input.0.txt",    "Add.a.1.2.3.input.1.txt", "Add.a.1.2.3.output.0.txt",
    "Add.a.1.2.3.l1buffer.0.bin", "Add.a.1.2.3.space.0.bin",
  };
  static const char *const expected_bin[] = {
    "Add.a.1.2.3.input.0.6.float16.NCHW.bin",
    "Add.a.1.2.3.input.1.2.unknown_dtype_99.ND.bin",
    "Add.a.1.2.3.output.0.6.float32.NCHW.bin",
    "Add.a.1.2.3.l1buffer.0.bin",
    "Add.a.1.2.3.space.0.bin",
  };

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, s4, 4, v);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, 99, 2, s2, 1, odd);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, s4, 4, v);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_BUFFER, OVI_DTYPE_UINT8, 2, NULL, 0, buf);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_SPACE, OVI_DTYPE_UINT8, 2, NULL, 0, buf);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Add.a.1.2.3");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = ovi_dump_file_get_tensors (file);
  g_assert_cmpuint (t->len, ==, 5);
  for (guint i = 0; i < t->len; i++)
    {
      g_autofree char *n1 = ovi_export_tensor_file_name (g_ptr_array_index (t, i), OVI_EXPORT_NPY);
      g_autofree char *n2 = ovi_export_tensor_file_name (g_ptr_array_index (t, i), OVI_EXPORT_TXT);
      g_autofree char *n3 = ovi_export_tensor_file_name (g_ptr_array_index (t, i), OVI_EXPORT_BIN);
      g_assert_cmpstr (n1, ==, expected_npy[i]);
      g_assert_cmpstr (n2, ==, expected_txt[i]);
      g_assert_cmpstr (n3, ==, expected_bin[i]);
    }

  /* ovi_export_tensor: buffers go out raw whatever the format */
  {
    g_autofree char *out = g_build_filename (f->dir, "buffer.npy", NULL);
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_true (ovi_export_tensor (g_ptr_array_index (t, 3), OVI_EXPORT_NPY, out,
                                      OVI_EXPORT_FLAGS_NONE, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (out, &contents, &length, NULL));
    g_assert_cmpmem (contents, length, "abcd", 4);
  }
  /* and tensors as .npy with their shape */
  {
    g_autofree char *out = g_build_filename (f->dir, expected_npy[2], NULL);
    Npy npy = { 0 };
    static const float expected[] = { 1, 2, 3, 4, 5, 6 };

    g_assert_true (ovi_export_tensor (g_ptr_array_index (t, 2), OVI_EXPORT_NPY, out,
                                      OVI_EXPORT_FLAGS_NONE, &error));
    g_assert_no_error (error);
    npy_read (&npy, out);
    assert_dict (&npy, "<f4", "(1, 2, 1, 3)");
    g_assert_cmpmem (npy.data, npy.data_length, expected, sizeof expected);
    npy_clear (&npy);
  }
}

static void
test_overflow_json (Fixture *f, gconstpointer data)
{
  OviClassicBlock core = { 11, 7, 57, 0, 0x10, 0x20, 0x30, 1, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *path = g_build_filename (f->dir, "Opdebug.Node_OpDebug.2.7.9", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autofree char *name = NULL;
  g_autofree char *out = NULL;
  g_autofree char *json = NULL;
  g_autofree char *expected = NULL;

  g_assert_true (ovi_write_overflow_file (path, p, OVI_LAYOUT_NEW, &error));
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  name = ovi_export_overflow_file_name (file);
  g_assert_cmpstr (name, ==, "Opdebug.Node_OpDebug.2.7.9.output.0.json");
  out = g_build_filename (f->dir, name, NULL);
  g_assert_true (ovi_export_overflow_json (file, out, OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out, &json, NULL, NULL));
  expected = ovi_overflow_fields_vendor_json (g_bytes_get_data (p, NULL), 2048, NULL);
  g_assert_cmpstr (json, ==, expected);
  g_assert_true (g_str_has_suffix (json, "}"));
  g_assert_nonnull (strstr (json, "\"kernel_code\": \"0x30\""));
}

/* An existing file is left alone without OVERWRITE. */
static void
test_exists (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "out.bin", NULL);
  g_autoptr (GBytes) d = g_bytes_new ("new data", 8);
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;
  const guint64 shape[] = { 8 };

  g_assert_true (g_file_set_contents (path, "old", 3, NULL));
  g_assert_false (ovi_export_tensor_data (OVI_DTYPE_UINT8, shape, 1, d, OVI_EXPORT_BIN, path,
                                          OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, "already exists"));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "old");
  g_clear_pointer (&contents, g_free);

  g_assert_false (ovi_export_write_contents (path, "x", 1, OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS);
  g_clear_error (&error);

  g_assert_true (ovi_export_tensor_data (OVI_DTYPE_UINT8, shape, 1, d, OVI_EXPORT_BIN, path,
                                         OVI_EXPORT_FLAGS_OVERWRITE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "new data");
  listing = list_dir (f->dir);
  g_assert_cmpstr (listing, ==, "out.bin");
}

/* The atomic file API: nothing appears before commit; a file that appears
 * meanwhile is not replaced without OVERWRITE. */
static void
test_atomic (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "a.txt", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;

  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new (path, FALSE, &error);
    g_assert_no_error (error);
    g_assert_true (ovi_atomic_file_write (a, "hello", 5, &error));
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    /* freed without commit */
  }
  listing = list_dir (f->dir);
  g_assert_cmpstr (listing, ==, "");
  g_clear_pointer (&listing, g_free);

  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new (path, FALSE, &error);
    g_assert_true (ovi_atomic_file_write (a, "hello", 5, &error));
    g_assert_true (g_file_set_contents (path, "someone else", 12, NULL));
    g_assert_false (ovi_atomic_file_commit (a, &error));
    g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS);
    g_clear_error (&error);
  }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "someone else");
  g_clear_pointer (&contents, g_free);
  assert_no_temp_files (f->dir);

  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new (path, TRUE, &error);
    g_assert_true (ovi_atomic_file_write (a, "hello", 5, &error));
    g_assert_true (ovi_atomic_file_commit (a, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "hello");
  listing = list_dir (f->dir);
  g_assert_cmpstr (listing, ==, "a.txt");
  g_clear_pointer (&listing, g_free);

  /* A new file has no name at all until commit (not even a temporary
   * one), then the mode any new file gets under the umask. */
  {
    g_autofree char *other = g_build_filename (f->dir, "b.txt", NULL);
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new (other, FALSE, &error);
    mode_t old_mask = umask (027);
    GStatBuf st;

    g_assert_true (ovi_atomic_file_write (a, "partial", 7, &error));
    listing = list_dir (f->dir);
    g_assert_cmpstr (listing, ==, "a.txt");
    g_clear_pointer (&listing, g_free);
    g_assert_true (ovi_atomic_file_commit (a, &error));
    g_assert_no_error (error);
    g_assert_no_errno (g_stat (other, &st));
    /* created before the umask changed: the umask of its creation */
    g_assert_cmpint (st.st_mode & 0777, ==, 0644);
    umask (old_mask);
  }
  {
    g_autofree char *third = g_build_filename (f->dir, "c.txt", NULL);
    mode_t old_mask = umask (027);
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new (third, FALSE, &error);
    GStatBuf st;

    umask (old_mask);
    g_assert_true (ovi_atomic_file_write (a, "x", 1, &error));
    g_assert_true (ovi_atomic_file_commit (a, &error));
    g_assert_no_errno (g_stat (third, &st));
    g_assert_cmpint (st.st_mode & 0777, ==, 0640);
  }
  listing = list_dir (f->dir);
  g_assert_cmpstr (listing, ==, "a.txt b.txt c.txt");
}

/* The same promises for a file created relative to its folder's
 * descriptor, as convert does: no name before commit, none after abort, an
 * existing file left alone, and a file larger than the buffer intact. */
static void
test_atomic_at (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "a.bin", NULL);
  g_autofree char *big_path = g_build_filename (f->dir, "big.bin", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *big = g_malloc (3 << 20);
  gsize length;
  int dirfd = open (f->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

  g_assert_cmpint (dirfd, >=, 0);
  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new_at (dirfd, path, FALSE, &error);
    g_assert_no_error (error);
    g_assert_true (ovi_atomic_file_write (a, "hello", 5, &error));
    listing = list_dir (f->dir);
    g_assert_cmpstr (listing, ==, "");
    g_clear_pointer (&listing, g_free);
    /* freed without commit */
  }
  listing = list_dir (f->dir);
  g_assert_cmpstr (listing, ==, "");
  g_clear_pointer (&listing, g_free);
  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new_at (dirfd, path, FALSE, &error);
    g_assert_true (ovi_atomic_file_write (a, "hello", 5, &error));
    g_assert_true (ovi_atomic_file_commit (a, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new_at (dirfd, path, FALSE, &error);
    g_assert_true (ovi_atomic_file_write (a, "other", 5, &error));
    g_assert_false (ovi_atomic_file_commit (a, &error));
    g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS);
    g_clear_error (&error);
  }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "hello");
  g_clear_pointer (&contents, g_free);
  for (gsize i = 0; i < (3 << 20); i++)
    big[i] = (char) (i * 7 + (i >> 12));
  {
    g_autoptr (OviAtomicFile) a = ovi_atomic_file_new_at (dirfd, big_path, FALSE, &error);
    /* small writes first, so the buffer grows, then one past its size */
    g_assert_true (ovi_atomic_file_write (a, big, 10, &error));
    g_assert_true (ovi_atomic_file_write (a, big + 10, 5000, &error));
    g_assert_true (ovi_atomic_file_write (a, big + 5010, (3 << 20) - 5010, &error));
    g_assert_true (ovi_atomic_file_commit (a, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (big_path, &contents, &length, NULL));
  g_assert_cmpuint (length, ==, 3 << 20);
  g_assert_true (memcmp (contents, big, length) == 0);
  assert_no_temp_files (f->dir);
  close (dirfd);
}

static void
test_read_only_dir (Fixture *f, gconstpointer data)
{
  g_autofree char *ro = g_build_filename (f->dir, "ro", NULL);
  g_autofree char *path = g_build_filename (ro, "out.npy", NULL);
  static const double v[] = { 1, 2 };
  const guint64 shape[] = { 2 };
  g_autoptr (GBytes) d = ovi_fixture_encode (OVI_DTYPE_FLOAT32, v, 2);
  g_autoptr (GError) error = NULL;
  g_autofree char *listing = NULL;

  g_assert_no_errno (g_mkdir (ro, 0555));
  g_assert_no_errno (g_chmod (ro, 0555));
  if (geteuid () == 0)
    {
      g_test_skip ("root ignores directory permissions");
      return;
    }
  g_assert_false (ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape, 1, d, OVI_EXPORT_NPY, path,
                                          OVI_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "out.npy"));
  listing = list_dir (ro);
  g_assert_cmpstr (listing, ==, "");
}

/* A write that fails halfway (file size limit) leaves nothing behind. */
static void
test_fsize_limit (Fixture *f, gconstpointer data)
{
  if (g_test_subprocess ())
    {
      const gsize size = 3 * 1024 * 1024;
      g_autoptr (GBytes) d = g_bytes_new_take (g_malloc0 (size), size);
      const guint64 shape[] = { size / 4 };
      g_autofree char *path = g_build_filename (f->dir, "big.npy", NULL);
      g_autoptr (GError) error = NULL;
      g_autofree char *listing = NULL;
      struct rlimit lim = { 100000, 100000 };

      signal (SIGXFSZ, SIG_IGN);
      g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &lim));
      for (int format = OVI_EXPORT_NPY; format <= OVI_EXPORT_BIN; format++)
        {
          g_assert_false (ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape, 1, d, format, path,
                                                  OVI_EXPORT_FLAGS_OVERWRITE, &error));
          g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE);
          g_assert_nonnull (strstr (error->message, "big.npy"));
          g_clear_error (&error);
          listing = list_dir (f->dir);
          g_assert_cmpstr (listing, ==, "");
          g_clear_pointer (&listing, g_free);
        }
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* Tensors exported as stored are copied from the dump file without being
 * loaded, in the kernel where it can and through a buffer across file
 * systems (tmpfs to disk here): either way the bytes are the tensor's,
 * and a file that changed since it was listed is refused, naming it. */
static void
test_copied_tensor (Fixture *f, gconstpointer data)
{
  const guint64 count = 1500000; /* 3 MB of float16: more than one buffer */
  const guint64 shape[] = { 1500, 1000 };
  g_autofree double *values = g_new (double, count);
  g_autofree char *shm = NULL;
  const char *out_dirs[2];

  for (guint64 i = 0; i < count; i++)
    values[i] = (double) (i % 2048) - 1024;
  out_dirs[0] = f->dir;
  out_dirs[1] = NULL;
  /* the dump on tmpfs, one output on the test's own (disk) folder */
  shm = g_strdup ("/dev/shm/ovi-export-XXXXXX");
  if (g_mkdtemp (shm) != NULL)
    out_dirs[1] = shm;
  else
    g_clear_pointer (&shm, g_free);

  for (OviLayout layout = OVI_LAYOUT_NEW; layout <= OVI_LAYOUT_OLD; layout++)
    {
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/big");
      g_autofree char *path = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) stored = NULL;
      OviTensor *t;

      ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 2, values);
      path = ovi_fixture_write (w, layout, shm ? shm : f->dir, "Mul.big.1.2.3");
      file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);
      t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
      stored = ovi_tensor_load_data (t, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_bytes_get_size (stored), ==, count * 2);

      for (guint d = 0; d < G_N_ELEMENTS (out_dirs) && out_dirs[d]; d++)
        {
          g_autofree char *npy_path = g_build_filename (out_dirs[d], "copy.npy", NULL);
          g_autofree char *bin_path = g_build_filename (out_dirs[d], "copy.bin", NULL);
          g_autofree char *bin = NULL;
          gsize bin_length;
          Npy npy = { 0 };

          g_assert_true (
              ovi_export_tensor (t, OVI_EXPORT_NPY, npy_path, OVI_EXPORT_FLAGS_OVERWRITE, &error));
          g_assert_no_error (error);
          npy_read (&npy, npy_path);
          assert_dict (&npy, "<f2", "(1500, 1000)");
          g_assert_cmpmem (npy.data, npy.data_length, g_bytes_get_data (stored, NULL), count * 2);
          npy_clear (&npy);

          g_assert_true (
              ovi_export_tensor (t, OVI_EXPORT_BIN, bin_path, OVI_EXPORT_FLAGS_OVERWRITE, &error));
          g_assert_no_error (error);
          g_assert_true (g_file_get_contents (bin_path, &bin, &bin_length, NULL));
          g_assert_cmpmem (bin, bin_length, g_bytes_get_data (stored, NULL), count * 2);
          g_unlink (npy_path);
          g_unlink (bin_path);
        }

      /* Shrunk since it was listed: an error naming it, and no output. */
      {
        g_autofree char *out = g_build_filename (f->dir, "shrunk.npy", NULL);
        g_autofree char *listing = NULL;

        g_assert_no_errno (truncate (path, count));
        g_assert_false (ovi_export_tensor (t, OVI_EXPORT_NPY, out, OVI_EXPORT_FLAGS_NONE, &error));
        g_assert_nonnull (error);
        g_test_message ("%s", error->message);
        g_assert_nonnull (strstr (error->message, "Mul.big.1.2.3"));
        g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
        listing = list_dir (f->dir);
        g_assert_true (listing[0] == '\0' || strstr (listing, "shrunk") == NULL);
      }
      g_unlink (path);
    }
  if (shm != NULL)
    ovi_fixture_remove_tree (shm);
}

int
main (int argc, char **argv)
{
  umask (022);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/export/npy", test_npy);
  ADD ("/core/export/txt", test_txt);
  ADD ("/core/export/bin-and-errors", test_bin_and_errors);
  ADD ("/core/export/file-names", test_file_names);
  ADD ("/core/export/overflow-json", test_overflow_json);
  ADD ("/core/export/exists", test_exists);
  ADD ("/core/export/atomic", test_atomic);
  ADD ("/core/export/atomic-at", test_atomic_at);
  ADD ("/core/export/read-only-dir", test_read_only_dir);
  ADD ("/core/export/fsize-limit", test_fsize_limit);
  ADD ("/core/export/copied-tensor", test_copied_tensor);
#undef ADD
  return g_test_run ();
}
