/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Op dump files in both layouts, every supported dtype, and every way a
 * file can be broken (dump-format.md section 3). */

typedef OviTmpDir Fixture;

static void
assert_bytes_equal (GBytes *a, GBytes *b)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la);
  const guint8 *db = g_bytes_get_data (b, &lb);
  g_assert_cmpmem (da, la, db, lb);
}

static GBytes *
raw (const void *data, gsize length)
{
  return g_bytes_new (data, length);
}

/* One dtype: the bytes a tensor of it holds, and its element count. */
typedef struct
{
  int dtype;
  const char *name;
  guint64 count;
  GBytes *data;
} DtypeCase;

static GPtrArray *
dtype_cases (void)
{
  GPtrArray *cases = g_ptr_array_new_with_free_func (g_free);
  static const double fvals[] = { 1.5, -2.25, 0, 65504, -3.0, 0.125 };
  static const double ivals[] = { -128, 127, 0, -1, 5, 100 };
  static const double uvals[] = { 0, 255, 1, 128, 7, 42 };
  static const double i4vals[] = { -8, 7, 0, -1, 3 };
  static const float c64[] = { 1, 2, -3, 4, 0, 0 };
  static const double c128[] = { 3, 4, -1e300, 0.5 };
  static const guint8 boolv[] = { 0, 1, 1, 0, 2 };
  DtypeCase *c;

#define ADD(dt, nm, cnt, bytes)                                                                    \
  c = g_new0 (DtypeCase, 1);                                                                       \
  c->dtype = dt;                                                                                   \
  c->name = nm;                                                                                    \
  c->count = cnt;                                                                                  \
  c->data = bytes;                                                                                 \
  g_ptr_array_add (cases, c);
  ADD (OVI_DTYPE_FLOAT32, "float32", 6, ovi_fixture_encode (OVI_DTYPE_FLOAT32, fvals, 6));
  ADD (OVI_DTYPE_FLOAT16, "float16", 6, ovi_fixture_encode (OVI_DTYPE_FLOAT16, fvals, 6));
  ADD (OVI_DTYPE_FLOAT64, "float64", 6, ovi_fixture_encode (OVI_DTYPE_FLOAT64, fvals, 6));
  ADD (OVI_DTYPE_BFLOAT16, "bfloat16", 6, ovi_fixture_encode (OVI_DTYPE_BFLOAT16, fvals, 6));
  ADD (OVI_DTYPE_INT8, "int8", 6, ovi_fixture_encode (OVI_DTYPE_INT8, ivals, 6));
  ADD (OVI_DTYPE_INT16, "int16", 6, ovi_fixture_encode (OVI_DTYPE_INT16, ivals, 6));
  ADD (OVI_DTYPE_INT32, "int32", 6, ovi_fixture_encode (OVI_DTYPE_INT32, ivals, 6));
  ADD (OVI_DTYPE_INT64, "int64", 6, ovi_fixture_encode (OVI_DTYPE_INT64, ivals, 6));
  ADD (OVI_DTYPE_UINT8, "uint8", 6, ovi_fixture_encode (OVI_DTYPE_UINT8, uvals, 6));
  ADD (OVI_DTYPE_UINT16, "uint16", 6, ovi_fixture_encode (OVI_DTYPE_UINT16, uvals, 6));
  ADD (OVI_DTYPE_UINT32, "uint32", 6, ovi_fixture_encode (OVI_DTYPE_UINT32, uvals, 6));
  ADD (OVI_DTYPE_UINT64, "uint64", 6, ovi_fixture_encode (OVI_DTYPE_UINT64, uvals, 6));
  ADD (OVI_DTYPE_BOOL, "bool", 5, raw (boolv, sizeof boolv));
  ADD (OVI_DTYPE_INT4, "int4", 5, ovi_fixture_encode (OVI_DTYPE_INT4, i4vals, 5));
  ADD (OVI_DTYPE_FLOAT8_E5M2, "float8_e5m2", 6,
       ovi_fixture_encode (OVI_DTYPE_FLOAT8_E5M2, fvals, 6));
  ADD (OVI_DTYPE_FLOAT8_E4M3FN, "float8_e4m3fn", 6,
       ovi_fixture_encode (OVI_DTYPE_FLOAT8_E4M3FN, fvals, 6));
  ADD (OVI_DTYPE_COMPLEX64, "complex64", 3, raw (c64, sizeof c64));
  ADD (OVI_DTYPE_COMPLEX128, "complex128", 2, raw (c128, sizeof c128));
#undef ADD
  return cases;
}

static void
free_cases (GPtrArray *cases)
{
  for (guint i = 0; i < cases->len; i++)
    g_bytes_unref (((DtypeCase *) g_ptr_array_index (cases, i))->data);
  g_ptr_array_unref (cases);
}

typedef struct
{
  OviLayout layout;
  OviWriterFlags flags;
} Variant;

static const Variant new_packed = { OVI_LAYOUT_NEW, OVI_WRITER_PACKED_DIMS };
static const Variant old_packed = { OVI_LAYOUT_OLD, OVI_WRITER_PACKED_DIMS };

/* Every dtype as an input of shape [1, count] (format NHWC), with an output
 * of a distinct shape, checked field by field after loading. */
static void
test_dtypes (Fixture *f, gconstpointer data)
{
  const Variant *v = data;
  GPtrArray *cases = dtype_cases ();

  for (guint i = 0; i < cases->len; i++)
    {
      DtypeCase *c = g_ptr_array_index (cases, i);
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/op.with dots");
      g_autofree char *name =
          g_strdup_printf ("Op.scope_op_%s.%u.2.1700000000000%03u", c->name, 10 + i, i);
      g_autofree char *path = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      g_autoptr (GError) error = NULL;
      const guint64 in_shape[] = { 1, c->count };
      const guint64 orig_shape[] = { c->count, 1, 1 };
      guint8 out_raw[4] = { 9, 8, 7, 6 };
      g_autoptr (GBytes) out_data = raw (out_raw, 4);
      const guint64 out_u8_shape[] = { 2, 2 };
      OviTensor *t;
      const guint64 *shape;
      guint n_dims;
      g_autoptr (GBytes) loaded = NULL;
      g_autofree char *label = NULL;
      guint64 expected_size = 0;

      g_test_message ("%s", c->name);
      ovi_dump_writer_set_flags (w, v->flags);
      ovi_dump_writer_set_dump_time (w, 1700000000000000 + i);
      ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, c->dtype, 1, in_shape, 2, c->data);
      ovi_dump_writer_set_original_shape (w, OVI_TENSOR_INPUT, 0, orig_shape, 3);
      ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_UINT8, 29, out_u8_shape, 2,
                                  out_data);
      path = ovi_fixture_write (w, v->layout, f->dir, name);

      file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (file);
      g_assert_cmpint (ovi_dump_file_get_layout (file), ==, v->layout);
      g_assert_cmpstr (ovi_dump_file_get_name (file), ==, name);
      g_assert_cmpstr (ovi_dump_file_get_op_type (file), ==, "Op");
      g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "scope/op.with dots");
      g_assert_cmpstr (ovi_dump_file_get_version (file), ==, "2.0");
      g_assert_cmpuint (ovi_dump_file_get_dump_time (file), ==, 1700000000000000 + i);
      g_assert_cmpuint (ovi_dump_file_get_task_id (file), ==, 10 + i);
      g_assert_cmpuint (ovi_dump_file_get_stream_id (file), ==, 2);
      g_assert_cmpuint (ovi_dump_file_get_timestamp (file), ==, 1700000000000000 + i);
      g_assert_cmpint (ovi_dump_file_get_kind (file), ==, OVI_FILE_KIND_OP_DUMP);
      {
        GStatBuf st;
        g_assert_no_errno (g_stat (path, &st));
        g_assert_cmpuint (ovi_dump_file_get_file_size (file), ==, st.st_size);
      }
      g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 2);
      g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_INPUT), ==, 1);
      g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_OUTPUT), ==, 1);
      g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_BUFFER), ==, 0);

      t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
      g_assert_cmpint (ovi_tensor_get_kind (t), ==, OVI_TENSOR_INPUT);
      g_assert_cmpuint (ovi_tensor_get_index (t), ==, 0);
      g_assert_cmpint (ovi_tensor_get_dtype (t), ==, c->dtype);
      g_assert_cmpint (ovi_tensor_get_format (t), ==, 1);
      shape = ovi_tensor_get_shape (t, &n_dims);
      g_assert_cmpmem (shape, n_dims * sizeof (guint64), in_shape, sizeof in_shape);
      shape = ovi_tensor_get_original_shape (t, &n_dims);
      g_assert_cmpmem (shape, n_dims * sizeof (guint64), orig_shape, sizeof orig_shape);
      g_assert_true (ovi_dtype_size_for_count (c->dtype, c->count, &expected_size));
      g_assert_cmpuint (ovi_tensor_get_size (t), ==, expected_size);
      g_assert_cmpuint (ovi_tensor_get_size (t), ==, g_bytes_get_size (c->data));
      g_assert_cmpuint (ovi_tensor_get_count (t), ==, c->count);
      g_assert_true (ovi_tensor_get_file (t) == file);
      label = ovi_tensor_dup_label (t);
      g_assert_cmpstr (label, ==, "input 0");
      g_clear_pointer (&label, g_free);
      label = ovi_dtype_dup_label (ovi_tensor_get_dtype (t));
      g_assert_cmpstr (label, ==, c->name);
      loaded = ovi_tensor_load_data (t, &error);
      g_assert_no_error (error);
      assert_bytes_equal (loaded, c->data);
      g_clear_pointer (&loaded, g_bytes_unref);

      t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 1);
      g_assert_cmpint (ovi_tensor_get_kind (t), ==, OVI_TENSOR_OUTPUT);
      g_assert_cmpstr (ovi_tensor_get_kind_name (t), ==, "output");
      g_assert_cmpint (ovi_tensor_get_dtype (t), ==, OVI_DTYPE_UINT8);
      g_assert_cmpint (ovi_tensor_get_format (t), ==, 29);
      g_assert_cmpuint (ovi_tensor_get_count (t), ==, 4);
      g_assert_cmpuint (ovi_tensor_get_size (t), ==, 4);
      {
        g_autofree char *s = ovi_tensor_dup_shape_string (t);
        g_autofree char *fmt = ovi_format_dup_label (ovi_tensor_get_format (t));
        g_assert_cmpstr (s, ==, "[2, 2]");
        g_assert_cmpstr (fmt, ==, "FRACTAL_NZ");
      }
      loaded = ovi_tensor_load_data (t, &error);
      g_assert_no_error (error);
      assert_bytes_equal (loaded, out_data);
    }
  free_cases (cases);
}

/* The message lists outputs first; the data section and the tensor list go
 * input, output, buffer, space. */
static void
test_order (Fixture *f, gconstpointer data)
{
  const Variant *v = data;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("order");
  const guint64 s2[] = { 2 }, s3[] = { 3 };
  static const float o0[] = { 1, 2 };
  static const float i0[] = { 3, 4, 5 };
  static const float i1[] = { 6, 7 };
  static const guint8 b0[] = { 0xb0, 0xb1, 0xb2 };
  static const guint8 sp0[] = { 0x50, 0x51, 0x52, 0x53, 0x54 };
  static const guint8 sp1[] = { 0x60 };
  static const float o1[] = { 8, 9, 10 };
  g_autoptr (GBytes) bo0 = raw (o0, sizeof o0), bi0 = raw (i0, sizeof i0),
                     bi1 = raw (i1, sizeof i1), bb0 = raw (b0, sizeof b0),
                     bs0 = raw (sp0, sizeof sp0), bs1 = raw (sp1, sizeof sp1),
                     bo1 = raw (o1, sizeof o1);
  struct
  {
    OviTensorKind kind;
    guint index;
    GBytes *bytes;
    guint64 count;
  } expected[] = {
    { OVI_TENSOR_INPUT, 0, bi0, 3 },  { OVI_TENSOR_INPUT, 1, bi1, 2 },
    { OVI_TENSOR_OUTPUT, 0, bo0, 2 }, { OVI_TENSOR_OUTPUT, 1, bo1, 3 },
    { OVI_TENSOR_BUFFER, 0, bb0, 3 }, { OVI_TENSOR_SPACE, 0, bs0, 5 },
    { OVI_TENSOR_SPACE, 1, bs1, 1 },
  };
  static const char *const kind_names[] = { "input", "output", "buffer", "space" };
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *tensors;

  ovi_dump_writer_set_flags (w, v->flags);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_SPACE, OVI_DTYPE_UINT8, 2, NULL, 0, bs0);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, s2, 1, bo0);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_BUFFER, OVI_DTYPE_UINT8, 2, NULL, 0, bb0);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, s3, 1, bi0);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, s2, 1, bi1);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_SPACE, OVI_DTYPE_UINT8, 2, NULL, 0, bs1);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, s3, 1, bo1);
  path = ovi_fixture_write (w, v->layout, f->dir, "Order.order.1.2.3");

  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  tensors = ovi_dump_file_get_tensors (file);
  g_assert_cmpuint (tensors->len, ==, G_N_ELEMENTS (expected));
  g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_INPUT), ==, 2);
  g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_OUTPUT), ==, 2);
  g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_BUFFER), ==, 1);
  g_assert_cmpuint (ovi_dump_file_count_tensors (file, OVI_TENSOR_SPACE), ==, 2);
  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      g_autoptr (GBytes) d = ovi_tensor_load_data (t, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ovi_tensor_get_kind (t), ==, expected[i].kind);
      g_assert_cmpstr (ovi_tensor_get_kind_name (t), ==, kind_names[expected[i].kind]);
      g_assert_cmpuint (ovi_tensor_get_index (t), ==, expected[i].index);
      g_assert_cmpuint (ovi_tensor_get_count (t), ==, expected[i].count);
      g_assert_cmpuint (ovi_tensor_get_size (t), ==, g_bytes_get_size (expected[i].bytes));
      assert_bytes_equal (d, expected[i].bytes);
    }
}

/* A minimal protobuf encoder, to write Shape.dim unpacked (one tag per dim)
 * independently of the writer, plus fields the reader does not know. */
static void
pb_varint (GByteArray *a, guint64 v)
{
  do
    {
      guint8 b = v & 0x7f;
      v >>= 7;
      if (v)
        b |= 0x80;
      g_byte_array_append (a, &b, 1);
    }
  while (v);
}

static void
pb_u64 (GByteArray *a, guint field, guint64 v)
{
  pb_varint (a, (field << 3) | 0);
  pb_varint (a, v);
}

static void
pb_bytes (GByteArray *a, guint field, const void *d, gsize n)
{
  pb_varint (a, (field << 3) | 2);
  pb_varint (a, n);
  g_byte_array_append (a, d, n);
}

static void
pb_sub (GByteArray *a, guint field, GByteArray *sub)
{
  pb_bytes (a, field, sub->data, sub->len);
  g_byte_array_unref (sub);
}

static GByteArray *
pb_shape (const guint64 *dims, guint n, gboolean packed)
{
  GByteArray *s = g_byte_array_new ();
  if (packed)
    {
      g_autoptr (GByteArray) p = g_byte_array_new ();
      for (guint i = 0; i < n; i++)
        pb_varint (p, dims[i]);
      pb_bytes (s, 1, p->data, p->len);
    }
  else
    for (guint i = 0; i < n; i++)
      pb_u64 (s, 1, dims[i]);
  return s;
}

/* A DumpData with one float32 input of @dims, hand-encoded. */
static GBytes *
pb_dump (const guint64 *dims, guint n, GBytes *data, OviLayout layout, gboolean packed)
{
  GByteArray *msg = g_byte_array_new ();
  GByteArray *in = g_byte_array_new ();
  GByteArray *attr = g_byte_array_new ();
  GByteArray *out = g_byte_array_new ();
  gsize size;
  const guint8 *d = g_bytes_get_data (data, &size);

  pb_u64 (in, 1, OVI_DTYPE_FLOAT32);
  pb_u64 (in, 2, 3);
  pb_sub (in, 3, pb_shape (dims, n, packed));
  if (layout == OVI_LAYOUT_OLD)
    pb_bytes (in, 4, d, size);
  pb_u64 (in, 5, size);
  pb_sub (in, 6, pb_shape (dims, n, !packed));
  pb_u64 (in, 8, 0x12345678); /* address */
  pb_u64 (in, 10, 3);         /* arg_index: newer than our schema */

  pb_bytes (msg, 1, "2.0", 3);
  pb_u64 (msg, 2, 1634155934514051);
  pb_sub (msg, 4, in);
  pb_bytes (msg, 6, "hand/made", 9);
  pb_bytes (attr, 1, "k", 1);
  pb_bytes (attr, 2, "v", 1);
  pb_sub (msg, 7, attr);
  pb_bytes (msg, 9, "dfx", 3); /* dfx_message: unknown here */
  pb_u64 (msg, 1000, 7);       /* an unknown field number */

  if (layout == OVI_LAYOUT_NEW)
    {
      guint64 le = GUINT64_TO_LE ((guint64) msg->len);
      g_byte_array_append (out, (const guint8 *) &le, 8);
      g_byte_array_append (out, msg->data, msg->len);
      g_byte_array_append (out, d, size);
    }
  else
    g_byte_array_append (out, msg->data, msg->len);
  g_byte_array_unref (msg);
  return g_byte_array_free_to_bytes (out);
}

/* Packed and unpacked Shape.dim decode to the same shape, in both layouts,
 * and unknown fields are skipped. */
static void
test_packed_unpacked (Fixture *f, gconstpointer data)
{
  const guint64 shape[] = { 2, 3, 300, 1 };
  g_autofree float *values = g_new0 (float, 1800);
  g_autoptr (GBytes) bytes = NULL;

  for (guint i = 0; i < 1800; i++)
    values[i] = i * 0.5f;
  bytes = raw (values, 1800 * sizeof (float));

  for (guint k = 0; k < 2; k++)
    for (guint l = 0; l < 2; l++)
      {
        OviLayout layout = l ? OVI_LAYOUT_OLD : OVI_LAYOUT_NEW;
        g_autoptr (GBytes) file_bytes = pb_dump (shape, 4, bytes, layout, k == 0);
        g_autofree char *name = g_strdup_printf ("Pk.pk.%u.%u.5", k, l);
        g_autofree char *path = ovi_fixture_write_bytes (
            f->dir, name, g_bytes_get_data (file_bytes, NULL), g_bytes_get_size (file_bytes));
        g_autoptr (OviDumpFile) file = NULL;
        g_autoptr (GError) error = NULL;
        g_autoptr (GBytes) d = NULL;
        OviTensor *t;
        const guint64 *s;
        guint n;

        g_test_message ("%s dims, %s layout", k == 0 ? "packed" : "unpacked", l ? "old" : "new");
        file = ovi_dump_file_load (path, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpint (ovi_dump_file_get_layout (file), ==, layout);
        g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "hand/made");
        g_assert_cmpstr (ovi_dump_file_get_version (file), ==, "2.0");
        g_assert_cmpuint (ovi_dump_file_get_dump_time (file), ==, 1634155934514051);
        g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 1);
        t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
        g_assert_cmpint (ovi_tensor_get_kind (t), ==, OVI_TENSOR_INPUT);
        g_assert_cmpint (ovi_tensor_get_format (t), ==, 3);
        s = ovi_tensor_get_shape (t, &n);
        g_assert_cmpmem (s, n * sizeof (guint64), shape, sizeof shape);
        s = ovi_tensor_get_original_shape (t, &n);
        g_assert_cmpmem (s, n * sizeof (guint64), shape, sizeof shape);
        g_assert_cmpuint (ovi_tensor_get_count (t), ==, 1800);
        d = ovi_tensor_load_data (t, &error);
        g_assert_no_error (error);
        assert_bytes_equal (d, bytes);
      }
}

/* format-sources.md: the 61-byte MindSpore file. */
static void
test_mindspore (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("Default/Add-op0");
  static const guint8 fp16[] = { 0xff, 0x7b, 0xff, 0x7b };
  static const guint8 head[] = { 0x31, 0, 0, 0, 0, 0, 0, 0 };
  g_autoptr (GBytes) d = raw (fp16, 4);
  const guint64 shape[] = { 2 };
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) loaded = NULL;
  g_autoptr (OviAnalysis) analysis = NULL;
  OviTensor *t;
  const guint64 *s;
  guint n;

  ovi_dump_writer_set_dump_time (w, 1634155934514051);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, 2, shape, 1, d);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, shape, 1);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Add.Default_Add-op0.2.7.1634155934514051");

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, ==, 61);
  g_assert_cmpmem (contents, 8, head, 8);
  g_assert_cmpmem (contents + 57, 4, fp16, 4);

  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ovi_dump_file_get_layout (file), ==, OVI_LAYOUT_NEW);
  g_assert_cmpuint (ovi_dump_file_get_file_size (file), ==, 61);
  g_assert_cmpstr (ovi_dump_file_get_version (file), ==, "2.0");
  g_assert_cmpuint (ovi_dump_file_get_dump_time (file), ==, 1634155934514051);
  g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "Default/Add-op0");
  g_assert_cmpstr (ovi_dump_file_get_op_type (file), ==, "Add");
  g_assert_cmpuint (ovi_dump_file_get_task_id (file), ==, 2);
  g_assert_cmpuint (ovi_dump_file_get_stream_id (file), ==, 7);
  g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 1);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  g_assert_cmpint (ovi_tensor_get_kind (t), ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpint (ovi_tensor_get_dtype (t), ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpint (ovi_tensor_get_format (t), ==, 2);
  s = ovi_tensor_get_shape (t, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (s[0], ==, 2);
  s = ovi_tensor_get_original_shape (t, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (s[0], ==, 2);
  g_assert_cmpuint (ovi_tensor_get_size (t), ==, 4);
  loaded = ovi_tensor_load_data (t, &error);
  g_assert_no_error (error);
  assert_bytes_equal (loaded, d);
  analysis = ovi_tensor_analyze (t, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (ovi_analysis_get_stats (analysis)->max, ==, 65504.0);
  g_assert_cmpfloat (ovi_analysis_get_stats (analysis)->min, ==, 65504.0);
  g_assert_cmpuint (ovi_analysis_get_stats (analysis)->saturated, ==, 2);
  g_assert_cmpint (ovi_analysis_get_stats (analysis)->first_saturated, ==, 0);
}

/* An unknown data_type is shown as such and its bytes kept. */
static void
test_unknown_dtype (Fixture *f, gconstpointer data)
{
  static const guint8 bytes[] = { 1, 2, 3, 4, 5 };
  g_autoptr (GBytes) d = raw (bytes, 5);
  const guint64 shape[] = { 3 };
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("u");
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) loaded = NULL;
  g_autofree char *label = NULL;
  OviTensor *t;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, 99, 2, shape, 1, d);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "U.u.1.2.3");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  g_assert_cmpint (ovi_tensor_get_dtype (t), ==, 99);
  g_assert_cmpuint (ovi_tensor_get_size (t), ==, 5);
  label = ovi_dtype_dup_label (ovi_tensor_get_dtype (t));
  g_assert_cmpstr (label, ==, "unknown dtype 99");
  g_assert_null (ovi_dtype_name (99));
  g_assert_false (ovi_dtype_is_supported (99));
  loaded = ovi_tensor_load_data (t, &error);
  g_assert_no_error (error);
  assert_bytes_equal (loaded, d);
  /* No statistics are guessed for it. */
  g_assert_null (ovi_tensor_analyze (t, &error));
  g_assert_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_UNSUPPORTED_DTYPE);
}

/* A tensor with a zero dimension holds nothing, and loads. */
static void
test_empty_tensor (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("empty");
  g_autoptr (GBytes) none = g_bytes_new (NULL, 0);
  g_autoptr (GBytes) two = g_bytes_new ("\x01\x00\x02\x00", 4);
  const guint64 shape[] = { 4, 0, 3 }, s2[] = { 2 };
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) loaded = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  OviTensor *t;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, shape, 3, none);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_INT16, 2, s2, 1, two);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "E.empty.1.2.3");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  g_assert_cmpuint (ovi_tensor_get_count (t), ==, 0);
  g_assert_cmpuint (ovi_tensor_get_size (t), ==, 0);
  {
    g_autofree char *s = ovi_tensor_dup_shape_string (t);
    g_assert_cmpstr (s, ==, "[4, 0, 3]");
  }
  loaded = ovi_tensor_load_data (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (loaded), ==, 0);
  a = ovi_tensor_analyze (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ovi_analysis_get_stats (a)->count, ==, 0);
  g_assert_true (ovi_tensor_peek_analysis (t) != NULL);
  /* the output after it is found at the right offset */
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 1);
  g_clear_pointer (&loaded, g_bytes_unref);
  loaded = ovi_tensor_load_data (t, &error);
  assert_bytes_equal (loaded, two);
  g_clear_pointer (&a, ovi_analysis_unref);
  a = ovi_tensor_analyze (t, &error);
  g_assert_cmpfloat (ovi_analysis_get_stats (a)->max, ==, 2);
  g_assert_cmpfloat (ovi_analysis_get_stats (a)->mean, ==, 1.5);
}

/* A tensor kept after its file is gone says so instead of reading freed
 * memory; the analysis computed before stays. */
static void
test_tensor_outlives_file (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("keep");
  const guint64 shape[] = { 3 };
  static const double v[] = { 1, 2, 6 };
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviTensor) kept = NULL;
  g_autoptr (OviAnalysis) a = NULL;
  OviDumpFile *file;

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "K.keep.1.2.3");
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  kept = g_object_ref (g_ptr_array_index (ovi_dump_file_get_tensors (file), 0));
  a = ovi_tensor_analyze (kept, &error);
  g_assert_no_error (error);
  g_assert_true (ovi_tensor_get_file (kept) == file);
  g_object_unref (file);

  g_assert_null (ovi_tensor_get_file (kept));
  g_assert_null (ovi_tensor_load_data (kept, &error));
  g_assert_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO);
  g_assert_cmpuint (ovi_tensor_get_count (kept), ==, 3);
  g_assert_true (ovi_tensor_peek_analysis (kept) == a);
  g_assert_cmpfloat (ovi_analysis_get_stats (a)->mean, ==, 3);
}

/* Loading reads the header only: 50 MB of data must not be read. */
static void
test_listing_is_fast (Fixture *f, gconstpointer data)
{
  const gsize size = 50 * 1024 * 1024;
  const guint64 shape[] = { size / 4 };
  g_autoptr (GBytes) d = g_bytes_new_take (g_malloc0 (size), size);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("big");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start, elapsed;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, shape, 1, d);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Big.big.1.2.3");

  start = g_get_monotonic_time ();
  for (int i = 0; i < 10; i++)
    {
      g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (
          ovi_tensor_get_size (g_ptr_array_index (ovi_dump_file_get_tensors (file), 0)), ==, size);
    }
  elapsed = g_get_monotonic_time () - start;
  g_test_message ("10 loads of a 50 MB file: %" G_GINT64_FORMAT " us", elapsed);
  g_assert_cmpint (elapsed / 10, <, 200000);
}

/* ---- broken files ---- */

static void
assert_broken (
    Fixture *f, const char *name, const void *bytes, gsize length, int code, const char *fragment)
{
  g_autofree char *path = ovi_fixture_write_bytes (f->dir, name, bytes, length);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, NULL, &error);

  g_test_message ("%s (%" G_GSIZE_FORMAT " bytes): %s", name, length,
                  error ? error->message : "loaded");
  g_assert_null (file);
  g_assert_error (error, OVI_DUMP_FILE_ERROR, code);
  g_assert_nonnull (strstr (error->message, fragment));
}

static GBytes *
good_file (guint64 count)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("good");
  g_autofree float *v = g_new0 (float, count);
  g_autoptr (GBytes) d = raw (v, count * sizeof (float));
  const guint64 shape[] = { count };

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, shape, 1, d);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, shape, 1, d);
  return ovi_dump_writer_build (w, OVI_LAYOUT_NEW);
}

static void
test_broken_short (Fixture *f, gconstpointer data)
{
  static const guint8 bytes[8] = { 0x31, 0, 0, 0, 0, 0, 0, 0 };

  assert_broken (f, "A.a.1.2.0", "", 0, OVI_DUMP_FILE_ERROR_TRUNCATED, "truncated: 0 bytes");
  for (gsize n = 1; n <= 8; n++)
    {
      g_autofree char *name = g_strdup_printf ("A.a.1.2.%" G_GSIZE_FORMAT, n);
      g_autofree char *fragment = g_strdup_printf ("truncated: %" G_GSIZE_FORMAT " bytes", n);
      assert_broken (f, name, bytes, n, OVI_DUMP_FILE_ERROR_TRUNCATED, fragment);
    }
}

static void
test_broken_header (Fixture *f, gconstpointer data)
{
  guint8 buf[64];
  guint64 n;

  /* header length 2^63 */
  memset (buf, 0, sizeof buf);
  n = GUINT64_TO_LE (G_GUINT64_CONSTANT (1) << 63);
  memcpy (buf, &n, 8);
  assert_broken (f, "A.a.1.2.10", buf, 16, OVI_DUMP_FILE_ERROR_HEADER_TOO_LONG,
                 "header length 9223372036854775808 is larger than the file (16 bytes)");

  /* header length one more than the file holds */
  memset (buf, 0, sizeof buf);
  n = GUINT64_TO_LE (57);
  memcpy (buf, &n, 8);
  assert_broken (f, "A.a.1.2.11", buf, 64, OVI_DUMP_FILE_ERROR_HEADER_TOO_LONG,
                 "header length 57 is larger than the file (64 bytes)");

  /* a header that does not parse */
  memset (buf, 0xff, sizeof buf);
  n = GUINT64_TO_LE (16);
  memcpy (buf, &n, 8);
  assert_broken (f, "A.a.1.2.12", buf, 24, OVI_DUMP_FILE_ERROR_BAD_MESSAGE,
                 "16-byte header does not parse");

  /* 16 zero bytes: an empty message */
  memset (buf, 0, sizeof buf);
  assert_broken (f, "A.a.1.2.13", buf, 16, OVI_DUMP_FILE_ERROR_EMPTY_MESSAGE,
                 "holds no version, no op name and no tensor");

  /* nano dump: u32 0x5A5A5A5A at offset 8 */
  memset (buf, 0, sizeof buf);
  n = GUINT64_TO_LE (40);
  memcpy (buf, &n, 8);
  buf[8] = buf[9] = buf[10] = buf[11] = 0x5a;
  buf[12] = 1;
  assert_broken (f, "A.a.1.2.14", buf, 64, OVI_DUMP_FILE_ERROR_NANO, "nano");
}

/* Nano dumps from the writer: recognised by the magic at offset 8, with
 * their version, and refused with the facts their decoding would need. */
static void
test_nano (Fixture *f, gconstpointer data)
{
  /* Stand-ins for the TLV entries and data: their real layout is what the
   * notes leave out, so these bytes mean nothing in particular. */
  static const guint8 body[] = { 4, 0, 0, 0, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                 5, 0, 0, 0, 8, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9 };
  g_autoptr (GBytes) entries = g_bytes_new_static (body, sizeof body);
  g_autofree char *path = g_build_filename (f->dir, "Add.nano_op.1.2.1700000000000000", NULL);
  g_autoptr (GBytes) built = ovi_nano_dump_build (sizeof body + 8, 3, entries);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  const guint8 *b = g_bytes_get_data (built, NULL);

  /* The writer puts the documented fields where the notes say. */
  g_assert_cmpuint (g_bytes_get_size (built), ==, 16 + sizeof body);
  g_assert_cmphex (b[0], ==, sizeof body + 8);
  g_assert_cmphex (b[8], ==, 0x5a);
  g_assert_cmphex (b[11], ==, 0x5a);
  g_assert_cmphex (b[12], ==, 3);

  g_assert_true (ovi_write_nano_file (path, sizeof body + 8, 3, entries, &error));
  g_assert_no_error (error);
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_NANO);
  g_assert_cmpstr (error->message, ==,
                   "this is a nano (TLV) dump (version 3); its tensors cannot be read because "
                   "the format notes do not document the layout of a TLV entry (the size and "
                   "order of its type and length fields) nor the fields of the input (type 4) "
                   "and output (type 5) descriptions (where data_type, format, shape and size "
                   "are stored)");

  /* The magic without a whole version after it. */
  assert_broken (f, "A.a.1.2.15", b, 14, OVI_DUMP_FILE_ERROR_NANO,
                 "nano (TLV) dump (its version cut off)");
  /* Nothing after the version. */
  assert_broken (f, "A.a.1.2.16", b, 16, OVI_DUMP_FILE_ERROR_NANO, "nano (TLV) dump (version 3)");
}

/* The fields of the newer schema, in a header assembled byte by byte from
 * the field numbers of hicann/ge graph_metadef/proto/dump_task.proto, so
 * that the numbers are checked against the schema, not against our own
 * .proto file. */
static void
test_schema_fields_wire (Fixture *f, gconstpointer data)
{
  static const guint8 header[] = {
    0x0a, 0x03, '2',  '.',  '0',                   /* 1 version "2.0" */
    0x32, 0x02, 'o',  'p',                         /* 6 op_name "op" */
    0x1a, 0x0d,                                    /* 3 output, 13 bytes: */
    0x08, 0x01, 0x10, 0x02,                        /*   float32, ND */
    0x1a, 0x03, 0x0a, 0x01, 0x01,                  /*   shape [1] */
    0x30, 0x04,                                    /*   6 size 4 */
    0x58, 0x05,                                    /*   11 arg_index 5 */
    0x22, 0x0f,                                    /* 4 input, 15 bytes: */
    0x08, 0x01, 0x10, 0x02,                        /*   float32, ND */
    0x1a, 0x03, 0x0a, 0x01, 0x01,                  /*   shape [1] */
    0x28, 0x04,                                    /*   5 size 4 */
    0x50, 0x03,                                    /*   10 arg_index 3 */
    0x58, 0x02,                                    /*   11 input_type 2 */
    0x3a, 0x06, 0x0a, 0x01, 'k',  0x12, 0x01, 'v', /* 7 attr {name "k", value "v"} */
    0x42, 0x04, 0x18, 0x02, 0x20, 0x07,            /* 8 space {3 size 2, 4 arg_index 7} */
    0x4a, 0x05, 'h',  'e',  'l',  'l',  'o',       /* 9 dfx_message "hello" */
  };
  static const guint8 payload[] = { 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0xaa, 0xbb };
  GByteArray *bytes = g_byte_array_new ();
  guint64 n = GUINT64_TO_LE (sizeof header);
  g_autofree char *path = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dfx = NULL;
  g_auto (GStrv) attrs = NULL;
  const char *name, *value;
  GPtrArray *tensors;
  OviTensor *in, *out, *space;
  g_autofree char *space_type = NULL;

  g_byte_array_append (bytes, (const guint8 *) &n, 8);
  g_byte_array_append (bytes, header, sizeof header);
  g_byte_array_append (bytes, payload, sizeof payload);
  path = ovi_fixture_write_bytes (f->dir, "Op.op.1.2.3", bytes->data, bytes->len);
  g_byte_array_unref (bytes);

  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ovi_dump_file_get_dfx_message (file), ==, "hello");
  g_assert_cmpuint (ovi_dump_file_get_n_attrs (file), ==, 1);
  ovi_dump_file_get_attr (file, 0, &name, &value);
  g_assert_cmpstr (name, ==, "k");
  g_assert_cmpstr (value, ==, "v");
  g_object_get (file, "dfx-message", &dfx, "attrs", &attrs, NULL);
  g_assert_cmpstr (dfx, ==, "hello");
  g_assert_cmpuint (g_strv_length (attrs), ==, 1);
  g_assert_cmpstr (attrs[0], ==, "k=v");

  tensors = ovi_dump_file_get_tensors (file);
  g_assert_cmpuint (tensors->len, ==, 3);
  in = g_ptr_array_index (tensors, 0);
  out = g_ptr_array_index (tensors, 1);
  space = g_ptr_array_index (tensors, 2);
  g_assert_cmpint (ovi_tensor_get_kind (in), ==, OVI_TENSOR_INPUT);
  g_assert_cmpuint (ovi_tensor_get_arg_index (in), ==, 3);
  g_assert_cmpuint (ovi_tensor_get_input_type (in), ==, 2);
  g_assert_cmpint (ovi_tensor_get_kind (out), ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpuint (ovi_tensor_get_arg_index (out), ==, 5);
  g_assert_cmpuint (ovi_tensor_get_input_type (out), ==, 0);
  g_assert_cmpint (ovi_tensor_get_kind (space), ==, OVI_TENSOR_SPACE);
  g_assert_cmpuint (ovi_tensor_get_arg_index (space), ==, 7);
  g_assert_cmpint (ovi_tensor_get_space_type (space), ==, 0);
  g_assert_cmpuint (ovi_tensor_get_size (space), ==, 2);
  g_object_get (space, "space-type-label", &space_type, NULL);
  g_assert_cmpstr (space_type, ==, "LOG");
  g_assert_null (ovi_tensor_dup_space_type_label (in));
  {
    guint arg_index, input_type;
    g_object_get (in, "arg-index", &arg_index, "input-type", &input_type, NULL);
    g_assert_cmpuint (arg_index, ==, 3);
    g_assert_cmpuint (input_type, ==, 2);
  }
  /* The data section still lines up: input 1.0, output 2.0. */
  {
    g_autoptr (OviAnalysis) a = ovi_tensor_analyze (in, &error);
    g_autoptr (OviAnalysis) b = ovi_tensor_analyze (out, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (ovi_analysis_value_at (a, 0), ==, 1.0);
    g_assert_cmpfloat (ovi_analysis_value_at (b, 0), ==, 2.0);
  }
}

/* The writer writes the same fields, in both layouts, and a file without
 * them has none. */
static void
test_schema_fields_writer (Fixture *f, gconstpointer data)
{
  for (int layout = OVI_LAYOUT_NEW; layout <= OVI_LAYOUT_OLD; layout++)
    {
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/op");
      g_autoptr (OviDumpWriter) plain = ovi_dump_writer_new ("scope/plain");
      const guint64 shape[] = { 2 };
      static const double v[] = { 1, 2 };
      g_autoptr (GBytes) log = g_bytes_new_static ("log!", 4);
      g_autofree char *name = g_strdup_printf ("Op.op.1.2.%d", layout);
      g_autofree char *plain_name = g_strdup_printf ("Op.plain.1.2.%d", layout);
      g_autofree char *path = NULL;
      g_autofree char *plain_path = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      g_autoptr (OviDumpFile) plain_file = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonNode) json = NULL;
      GPtrArray *tensors;
      const char *an, *av;

      ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
      ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
      ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
      ovi_dump_writer_add_tensor (w, OVI_TENSOR_SPACE, OVI_DTYPE_UINT8, 2, NULL, 0, log);
      ovi_dump_writer_set_arg_index (w, OVI_TENSOR_INPUT, 1, 4);
      ovi_dump_writer_set_input_type (w, 1, 1);
      ovi_dump_writer_set_arg_index (w, OVI_TENSOR_OUTPUT, 0, 2);
      ovi_dump_writer_set_arg_index (w, OVI_TENSOR_SPACE, 0, 9);
      ovi_dump_writer_add_attr (w, "tiling_key", "1001");
      ovi_dump_writer_add_attr (w, "block_dim", "24");
      ovi_dump_writer_set_dfx_message (w, "kernel args dumped");
      ovi_dump_writer_add_attr (w, "bad\xff", "utf8");
      path = ovi_fixture_write (w, layout, f->dir, name);
      file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);

      g_assert_cmpstr (ovi_dump_file_get_dfx_message (file), ==, "kernel args dumped");
      g_assert_cmpuint (ovi_dump_file_get_n_attrs (file), ==, 3);
      ovi_dump_file_get_attr (file, 1, &an, &av);
      g_assert_cmpstr (an, ==, "block_dim");
      g_assert_cmpstr (av, ==, "24");
      /* A byte that is not UTF-8 becomes U+FFFD, for display. */
      ovi_dump_file_get_attr (file, 2, &an, &av);
      g_assert_cmpstr (an, ==, "bad\xef\xbf\xbd");
      g_assert_cmpstr (av, ==, "utf8");
      tensors = ovi_dump_file_get_tensors (file);
      g_assert_cmpuint (tensors->len, ==, 4);
      g_assert_cmpuint (ovi_tensor_get_arg_index (g_ptr_array_index (tensors, 0)), ==, 0);
      g_assert_cmpuint (ovi_tensor_get_arg_index (g_ptr_array_index (tensors, 1)), ==, 4);
      g_assert_cmpuint (ovi_tensor_get_input_type (g_ptr_array_index (tensors, 1)), ==, 1);
      g_assert_cmpuint (ovi_tensor_get_arg_index (g_ptr_array_index (tensors, 2)), ==, 2);
      g_assert_cmpuint (ovi_tensor_get_arg_index (g_ptr_array_index (tensors, 3)), ==, 9);

      /* The report's tensor JSON carries them where they are set. */
      json = ovi_report_tensor_json (g_ptr_array_index (tensors, 1));
      g_assert_cmpint (json_object_get_int_member (json_node_get_object (json), "arg_index"), ==,
                       4);
      g_assert_cmpint (json_object_get_int_member (json_node_get_object (json), "input_type"), ==,
                       1);
      g_clear_pointer (&json, json_node_unref);
      json = ovi_report_tensor_json (g_ptr_array_index (tensors, 0));
      g_assert_false (json_object_has_member (json_node_get_object (json), "arg_index"));
      g_assert_false (json_object_has_member (json_node_get_object (json), "input_type"));

      ovi_fixture_add (plain, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
      plain_path = ovi_fixture_write (plain, layout, f->dir, plain_name);
      plain_file = ovi_dump_file_load (plain_path, NULL, &error);
      g_assert_no_error (error);
      g_assert_null (ovi_dump_file_get_dfx_message (plain_file));
      g_assert_cmpuint (ovi_dump_file_get_n_attrs (plain_file), ==, 0);
    }
}

static void
test_broken_sizes (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) good = good_file (8);
  gsize length;
  const guint8 *g = g_bytes_get_data (good, &length);
  g_autofree guint8 *longer = g_malloc0 (length + 3);

  /* the good file itself loads */
  {
    g_autofree char *path = ovi_fixture_write_bytes (f->dir, "G.g.1.2.3", g, length);
    g_autoptr (GError) error = NULL;
    g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 2);
  }

  assert_broken (f, "G.g.1.2.4", g, length - 1, OVI_DUMP_FILE_ERROR_TRUNCATED, "truncated");
  assert_broken (f, "G.g.1.2.5", g, length - 1, OVI_DUMP_FILE_ERROR_TRUNCATED,
                 "lists 64 bytes of tensor data but 63 bytes follow it");
  assert_broken (f, "G.g.1.2.6", g, length - 40, OVI_DUMP_FILE_ERROR_TRUNCATED, "truncated");
  memcpy (longer, g, length);
  assert_broken (f, "G.g.1.2.7", longer, length + 3, OVI_DUMP_FILE_ERROR_SIZE_MISMATCH,
                 "lists 64 bytes of tensor data but 67 bytes follow it");
}

static void
test_broken_element_size (Fixture *f, gconstpointer data)
{
  /* New layout only: the old-layout variant of these files is reported as
   * HEADER_TOO_LONG (see test-core-bugs.c, bug 2). */
  for (guint l = 0; l < 1; l++)
    {
      OviLayout layout = l ? OVI_LAYOUT_OLD : OVI_LAYOUT_NEW;
      g_autoptr (GBytes) eight = g_bytes_new_take (g_malloc0 (8), 8);

      /* size 8 for three float32 */
      {
        g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("es");
        const guint64 shape[] = { 3 };
        g_autofree char *name = g_strdup_printf ("E.e.1.2.%u", 30 + l);
        g_autoptr (GBytes) bytes = NULL;

        ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, shape, 1, eight);
        bytes = ovi_dump_writer_build (w, layout);
        assert_broken (f, name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                       OVI_DUMP_FILE_ERROR_ELEMENT_SIZE,
                       "output 0: size is 8 bytes but 3 elements of float32 take 12 bytes");
      }
      /* a shape whose element count overflows 64 bits */
      {
        g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("es");
        const guint64 shape[] = { G_GUINT64_CONSTANT (1) << 32, G_GUINT64_CONSTANT (1) << 32, 2 };
        const guint64 one[] = { 2 };
        g_autofree char *name = g_strdup_printf ("E.e.1.2.%u", 40 + l);
        g_autoptr (GBytes) bytes = NULL;

        ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, 2, one, 1, eight);
        ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, OVI_DTYPE_INT16, 2, shape, 3, eight);
        bytes = ovi_dump_writer_build (w, layout);
        assert_broken (f, name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                       OVI_DUMP_FILE_ERROR_ELEMENT_SIZE, "input 1: the element count");
      }
      /* count fits, but count x element size does not */
      {
        g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("es");
        const guint64 shape[] = { G_GUINT64_CONSTANT (1) << 62 };
        g_autofree char *name = g_strdup_printf ("E.e.1.2.%u", 50 + l);
        g_autoptr (GBytes) bytes = NULL;

        ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT64, 2, shape, 1, eight);
        bytes = ovi_dump_writer_build (w, layout);
        assert_broken (f, name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                       OVI_DUMP_FILE_ERROR_ELEMENT_SIZE, "does not fit in 64 bits");
      }
    }
}

/* A file whose name is not a dump name still loads on its own (a renamed
 * file), without name fields; mapping.csv's name is parsed when given. */
static void
test_not_a_dump_name (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) good = good_file (2);
  g_autofree char *path =
      ovi_fixture_write_bytes (f->dir, "1", g_bytes_get_data (good, NULL), g_bytes_get_size (good));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (ovi_dump_file_get_kind (file), ==, OVI_FILE_KIND_NONE);
  g_assert_cmpstr (ovi_dump_file_get_name (file), ==, "1");
  g_assert_cmpstr (ovi_dump_file_get_op_type (file), ==, "");
  g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "good");
  g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 2);
  g_clear_object (&file);

  /* ... but the name from mapping.csv is the one parsed */
  file = ovi_dump_file_load (path, "Long.long_name.5.6.7", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ovi_dump_file_get_name (file), ==, "Long.long_name.5.6.7");
  g_assert_cmpuint (ovi_dump_file_get_task_id (file), ==, 5);
  g_assert_cmpuint (ovi_dump_file_get_stream_id (file), ==, 6);
  g_assert_cmpuint (ovi_dump_file_get_timestamp (file), ==, 7);
  g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "good");
}

/* A text file opened on its own: its first 8 bytes read as a huge header
 * length, but with no dump name either it is not a dump file at all, and
 * says so instead of naming the length. The same bytes under a dump name
 * are a damaged dump, and keep the precise complaint. */
static void
test_stray_text_file (Fixture *f, gconstpointer data)
{
  static const char text[] = "nnot a dump, just notes about the run\n";
  const gsize length = sizeof text - 1;

  assert_broken (f, "notes.txt", text, length, OVI_DUMP_FILE_ERROR_NOT_A_DUMP,
                 "not a dump file: its name does not follow the dump file naming");
  {
    g_autofree char *path = g_build_filename (f->dir, "notes.txt", NULL);
    g_autoptr (GError) error = NULL;
    g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, NULL, &error);

    g_assert_null (strstr (error->message, "header length"));
  }
  assert_broken (f, "A.a.1.2.20", text, length, OVI_DUMP_FILE_ERROR_HEADER_TOO_LONG,
                 "is larger than the file (38 bytes)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, data, func)                                                                      \
  g_test_add (path, Fixture, data, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/dump-file/dtypes/new-layout", &new_packed, test_dtypes);
  ADD ("/core/dump-file/dtypes/old-layout", &old_packed, test_dtypes);
  ADD ("/core/dump-file/order/new-layout", &new_packed, test_order);
  ADD ("/core/dump-file/order/old-layout", &old_packed, test_order);
  ADD ("/core/dump-file/packed-unpacked", NULL, test_packed_unpacked);
  ADD ("/core/dump-file/mindspore-61-bytes", NULL, test_mindspore);
  ADD ("/core/dump-file/unknown-dtype", NULL, test_unknown_dtype);
  ADD ("/core/dump-file/empty-tensor", NULL, test_empty_tensor);
  ADD ("/core/dump-file/tensor-outlives-file", NULL, test_tensor_outlives_file);
  ADD ("/core/dump-file/listing-is-fast", NULL, test_listing_is_fast);
  ADD ("/core/dump-file/broken/short", NULL, test_broken_short);
  ADD ("/core/dump-file/broken/header", NULL, test_broken_header);
  ADD ("/core/dump-file/broken/sizes", NULL, test_broken_sizes);
  ADD ("/core/dump-file/nano", NULL, test_nano);
  ADD ("/core/dump-file/schema-fields/wire", NULL, test_schema_fields_wire);
  ADD ("/core/dump-file/schema-fields/writer", NULL, test_schema_fields_writer);
  ADD ("/core/dump-file/broken/element-size", NULL, test_broken_element_size);
  ADD ("/core/dump-file/name-from-mapping", NULL, test_not_a_dump_name);
  ADD ("/core/dump-file/broken/stray-text-file", NULL, test_stray_text_file);
#undef ADD
  return g_test_run ();
}
