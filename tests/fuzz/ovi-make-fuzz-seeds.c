/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ovi-fixtures.h"

/* Writes the seed corpora of the fuzz targets from the fixture writer:
 * `ovi-make-fuzz-seeds DIR` fills
 * DIR/{file-name,dump-file,overflow,mapping,folder,nano,csv,npy,diff-map,
 * diff-pairing,report-json}. */

static void
seed (const char *dir, const char *target, const char *name, const void *data, gsize length)
{
  g_autofree char *sub = g_build_filename (dir, target, NULL);
  g_free (ovi_fixture_write_bytes (sub, name, data, length));
}

static void
seed_bytes (const char *dir, const char *target, const char *name, GBytes *bytes)
{
  seed (dir, target, name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* One file of fuzz-diff-pairing's input: flags, name, contents. */
static void
pairing_record (GByteArray *input, guint8 flags, const char *name, const void *data, gsize length)
{
  guint8 head[2] = { flags, (guint8) strlen (name) };
  guint8 size[2] = { length & 0xff, length >> 8 };

  g_assert (strlen (name) < 256 && length < 65536);
  g_byte_array_append (input, head, 2);
  g_byte_array_append (input, (const guint8 *) name, strlen (name));
  g_byte_array_append (input, size, 2);
  g_byte_array_append (input, data, length);
}

int
main (int argc, char **argv)
{
  static const char *const file_names[] = {
    "Add.Default_Add-op0.2.7.1634155934514051",
    "Add.partition0_rank1_new_sub_graph1_sgt_graph_0_Add.0.3.1673383728093446.4.1.0.0",
    "Opdebug.Node_OpDebug.59.1597922031178434",
    "OpDebug.Node_Opdebug.2.7.1634155934514051",
    "Conv2D.conv.1.57.7.1764670500000500.FFTSPLUS.1.0.0",
    "exception_info.7.57.1764670500000400",
    "Add.op.1.2.3.output.0.npy",
  };
  const double values[] = { 1.5, -2.25, 65504, 0, 3, -65504, 0.125, 7 };
  const guint64 shape[] = { 2, 4 };
  const OviClassicBlock core = { 11, 7,  57, 0, 0x1008005b0000, 0x100800297000, 0x1008005b0e00,
                                 1,  272 };
  const guint64 aic[] = {
    11, 5, 120, 4, 2, 0, 0x1008006b0000, 0x100800397000, 3, 2, 0x20, 0, 0, 0
  };
  const guint64 sdma[] = { 11, 3, 210, 5, 0, 0, 0x12c0000, 0x12d0000, 4, 2 };
  const int dtypes[] = { OVI_DTYPE_FLOAT16,  OVI_DTYPE_FLOAT32,       OVI_DTYPE_BFLOAT16,
                         OVI_DTYPE_INT4,     OVI_DTYPE_FLOAT8_E4M3FN, OVI_DTYPE_COMPLEX64,
                         OVI_DTYPE_INT64,    OVI_DTYPE_HIFLOAT8,      OVI_DTYPE_FLOAT8_E8M0,
                         OVI_DTYPE_COMPLEX32 };
  GBytes *payloads[3];
  const char *dir;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s DIR\n", argv[0]);
      return 2;
    }
  dir = argv[1];

  for (guint i = 0; i < G_N_ELEMENTS (file_names); i++)
    {
      g_autofree char *name = g_strdup_printf ("name-%u", i);
      seed (dir, "file-name", name, file_names[i], strlen (file_names[i]));
    }

  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    for (OviLayout layout = OVI_LAYOUT_NEW; layout <= OVI_LAYOUT_OLD; layout++)
      {
        g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("Default/Add-op0");
        g_autoptr (GBytes) bytes = NULL;
        g_autofree char *name = g_strdup_printf ("%s-%s", ovi_dtype_name (dtypes[i]),
                                                 layout == OVI_LAYOUT_NEW ? "new" : "old");
        if (i % 2)
          ovi_dump_writer_set_flags (w, OVI_WRITER_UNPACKED_DIMS);
        ovi_fixture_add (w, OVI_TENSOR_INPUT, dtypes[i], shape, 2, values);
        ovi_fixture_add (w, OVI_TENSOR_OUTPUT, dtypes[i], shape, 2, values);
        bytes = ovi_dump_writer_build (w, layout);
        seed_bytes (dir, "dump-file", name, bytes);
      }

  /* The fields of the newer schema: attrs, dfx_message, arg_index,
   * input_type, a LOG workspace. */
  {
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/op");
    g_autoptr (GBytes) log = g_bytes_new_static ("log", 3);
    g_autoptr (GBytes) bytes = NULL;

    ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 2, values);
    ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 2, values);
    ovi_dump_writer_add_tensor (w, OVI_TENSOR_SPACE, OVI_DTYPE_UINT8, 2, NULL, 0, log);
    ovi_dump_writer_set_arg_index (w, OVI_TENSOR_INPUT, 0, 1);
    ovi_dump_writer_set_input_type (w, 0, 2);
    ovi_dump_writer_set_arg_index (w, OVI_TENSOR_OUTPUT, 0, 3);
    ovi_dump_writer_set_arg_index (w, OVI_TENSOR_SPACE, 0, 4);
    ovi_dump_writer_add_attr (w, "tiling_key", "1");
    ovi_dump_writer_set_dfx_message (w, "dfx");
    bytes = ovi_dump_writer_build (w, OVI_LAYOUT_NEW);
    seed_bytes (dir, "dump-file", "schema-fields", bytes);
  }

  payloads[0] = ovi_overflow_payload_classic (NULL, NULL, &core);
  payloads[1] = ovi_overflow_payload_new (1, 0, aic, 14);
  payloads[2] = ovi_overflow_payload_new (0, 3, sdma, 10);
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      /* The overflow target reads its first byte as the length selector. */
      g_autofree guint8 *input = g_malloc (2049);
      g_autofree char *name = g_strdup_printf ("payload-%u", i);
      g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("Node_OpDebug");
      const guint64 pshape[] = { 2048 };
      g_autoptr (GBytes) file = NULL;
      g_autofree char *file_name = g_strdup_printf ("opdebug-%u", i);

      input[0] = 1;
      memcpy (input + 1, g_bytes_get_data (payloads[i], NULL), 2048);
      seed (dir, "overflow", name, input, 2049);
      ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_UINT8, 2, pshape, 1, payloads[i]);
      file = ovi_dump_writer_build (w, OVI_LAYOUT_NEW);
      seed_bytes (dir, "dump-file", file_name, file);
    }

  {
    /* Its 42 bytes, not one past its end. */
    static const char mapping[] = "1,Add.very_long_name.1.2.3\n2,Mul.x.4.5.6\r\n";

    seed (dir, "mapping", "mapping-0", mapping, sizeof mapping - 1);
  }
  seed (dir, "mapping", "mapping-1", "short,\n,x\nno comma\n", 20);

  /* Statistics CSV files in both writers' forms, and a damaged one. */
  {
    static const double clean[] = { 1, -2, 0.5, 0 };
    static const double bad[] = { INFINITY, -65504, NAN, -0.0 };
    const guint64 sshape[] = { 2, 2 };
    g_autoptr (OviStatisticWriter) rt = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
    g_autoptr (OviStatisticWriter) ms = ovi_statistic_writer_new (OVI_STATISTIC_FORM_MSPROBE);
    g_autofree char *text = NULL;
    gsize length;

    ovi_statistic_writer_add (rt, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, sshape, 2, clean);
    ovi_statistic_writer_add (rt, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_BFLOAT16, sshape, 2, bad);
    text = ovi_statistic_writer_finish (rt, &length);
    seed (dir, "csv", "csv-runtime", text, length);
    g_clear_pointer (&text, g_free);
    ovi_statistic_writer_set_op (ms, "Mul", "Default/network/Mul-op1", 4, 1, 200);
    ovi_statistic_writer_add (ms, OVI_TENSOR_INPUT, 1, OVI_DTYPE_FLOAT32, sshape, 2, clean);
    ovi_statistic_writer_add (ms, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT16, sshape, 2, bad);
    ovi_statistic_writer_add_header (ms);
    ovi_statistic_writer_add_line (ms, "Mul,\"quoted, op\",4,1,200,output,1,8,float16,\"(2, 2)\"");
    ovi_statistic_writer_add_line (ms, "Sideways,x,y,z,,,,,N/A,none");
    text = ovi_statistic_writer_finish (ms, &length);
    seed (dir, "csv", "csv-msprobe", text, length);

    /* A folder (see fuzz-folder.c): eight empty files, the second Add
     * slice, then Relu's .csv and statistic.csv. */
    {
      g_autofree char *relu = NULL;
      GString *folder = g_string_new (NULL);

      for (guint i = 0; i < 9; i++)
        g_string_append (folder, "\n--\n");
      relu = ovi_statistic_writer_finish (rt, NULL);
      g_string_append (folder, relu);
      g_string_append (folder, "\n--\n");
      g_string_append (folder, text);
      g_string_append (folder, "\n--\n");
      seed (dir, "folder", "folder-statistics", folder->str, folder->len);
      g_string_free (folder, TRUE);
    }
  }

  /* A folder: an overflow file, the op it names, and an op with NaN. */
  {
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("gradients/Cast_3");
    g_autoptr (GBytes) op = NULL;
    g_autoptr (OviDumpWriter) ow = ovi_dump_writer_new ("Node_OpDebug");
    g_autoptr (GBytes) overflow = NULL;
    const guint64 pshape[] = { 2048 };
    GString *input = g_string_new (NULL);

    ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 2, values);
    ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 2, values);
    op = ovi_dump_writer_build (w, OVI_LAYOUT_NEW);
    ovi_dump_writer_add_tensor (ow, OVI_TENSOR_OUTPUT, OVI_DTYPE_UINT8, 2, pshape, 1, payloads[0]);
    overflow = ovi_dump_writer_build (ow, OVI_LAYOUT_NEW);
    g_string_append_len (input, g_bytes_get_data (overflow, NULL), g_bytes_get_size (overflow));
    g_string_append (input, "\n--\n");
    g_string_append_len (input, g_bytes_get_data (op, NULL), g_bytes_get_size (op));
    seed (dir, "folder", "folder-0", input->str, input->len);
    g_string_free (input, TRUE);
  }

  /* Nano dumps as the writer makes them, without the magic at offset 8,
   * which fuzz-nano puts back: a body of stand-in TLV bytes, and none. */
  for (guint i = 0; i < 2; i++)
    {
      static const guint8 body[] = { 4, 0, 0, 0, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
      g_autoptr (GBytes) entries = g_bytes_new_static (body, i ? sizeof body : 0);
      g_autoptr (GBytes) nano = ovi_nano_dump_build (i ? sizeof body : 0, i + 1, entries);
      const guint8 *b = g_bytes_get_data (nano, NULL);
      GByteArray *input = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("nano-%u", i);

      g_byte_array_append (input, b, 8);
      g_byte_array_append (input, b + 12, g_bytes_get_size (nano) - 12);
      seed (dir, "nano", name, input->data, input->len);
      g_byte_array_free (input, TRUE);
    }

  /* .npy files as convert writes them (version 1), and by hand: version
   * 2 and 3 headers, big-endian data, Fortran order, a scalar. */
  {
    static const int npy_dtypes[] = { OVI_DTYPE_FLOAT32, OVI_DTYPE_FLOAT16, OVI_DTYPE_BFLOAT16,
                                      OVI_DTYPE_INT64,   OVI_DTYPE_BOOL,    OVI_DTYPE_COMPLEX64 };
    static const char *const dicts[] = {
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }",
      "{'descr': '>f8', 'fortran_order': False, 'shape': (4,), }",
      "{'descr': '<c8', 'fortran_order': True, 'shape': (1, 4), }",
      "{'descr': '|u1', 'fortran_order': False, 'shape': (), }",
    };
    g_autofree char *npy_dir = g_build_filename (dir, "npy", NULL);

    g_mkdir_with_parents (npy_dir, 0755);
    for (guint i = 0; i < G_N_ELEMENTS (npy_dtypes); i++)
      {
        g_autoptr (GBytes) raw = ovi_fixture_encode (npy_dtypes[i], values, 8);
        g_autofree char *path =
            g_strdup_printf ("%s/npy-%s", npy_dir, ovi_dtype_name (npy_dtypes[i]));
        g_autoptr (GError) error = NULL;

        if (!ovi_export_tensor_data (npy_dtypes[i], shape, 2, raw, OVI_EXPORT_NPY, path,
                                     OVI_EXPORT_FLAGS_OVERWRITE, &error))
          g_error ("%s", error->message);
      }
    for (guint i = 0; i < G_N_ELEMENTS (dicts); i++)
      {
        GByteArray *a = g_byte_array_new ();
        g_autoptr (GString) header = g_string_new (dicts[i]);
        guint version = i + 1 > 3 ? 1 : i + 1, prefix = version == 1 ? 10 : 12;
        guint8 v[4] = { version, 0, 0, 0 };
        g_autofree char *name = g_strdup_printf ("npy-hand-%u", i);
        guint8 body[64] = { 0x3f, 0xc0 };

        while ((prefix + header->len + 1) % 64)
          g_string_append_c (header, ' ');
        g_string_append_c (header, '\n');
        g_byte_array_append (a, (const guint8 *) "\x93NUMPY", 6);
        g_byte_array_append (a, v, 2);
        v[0] = header->len & 0xff;
        v[1] = header->len >> 8;
        v[2] = 0;
        g_byte_array_append (a, v, version == 1 ? 2 : 4);
        g_byte_array_append (a, (const guint8 *) header->str, header->len);
        g_byte_array_append (a, body, i == 0 ? 32 : i == 3 ? 1 : 32);
        seed (dir, "npy", name, a->data, a->len);
        g_byte_array_free (a, TRUE);
      }
  }

  /* Map files (fuzz-diff-map.c): renamed and fused operators. */
  {
    static const char map[] = "# my name,golden name\n"
                              "net/Add,net/AddV2\n"
                              "\n"
                              "net/Fused,net/MatMul+net/Add+net/Relu\n";
    static const char bad[] = "net/Add\nnet/Relu,\n,net/Add\n";

    seed (dir, "diff-map", "map-0", map, sizeof map - 1);
    seed (dir, "diff-map", "map-bad", bad, sizeof bad - 1);
  }

  /* Two runs (fuzz-diff-pairing.c): Add and Relu in 0/model/1 of each
   * side, my Add off at one element; then a golden of .npy files. */
  {
    GByteArray *runs = g_byte_array_new ();
    GByteArray *npy_runs = g_byte_array_new ();
    g_autofree char *tmp = g_dir_make_tmp ("ovi-seeds-XXXXXX", NULL);

    for (guint side = 0; side < 2; side++)
      for (guint k = 0; k < 2; k++)
        {
          static const char *const ops[] = { "net/Add", "net/Relu" };
          static const char *const files[] = { "Add.net_Add.2.7.1764670500000200",
                                               "Relu.net_Relu.3.7.1764670500000300" };
          g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (ops[k]);
          g_autoptr (GBytes) op = NULL;
          double out[8];

          memcpy (out, values, sizeof out);
          if (side == 0 && k == 0)
            out[5] += 0.5;
          ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 2, values);
          ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 2, out);
          op = ovi_dump_writer_build (w, OVI_LAYOUT_NEW);
          pairing_record (runs, side | 1 << 1, files[k], g_bytes_get_data (op, NULL),
                          g_bytes_get_size (op));
          if (side == 0)
            pairing_record (npy_runs, 1 << 1, files[k], g_bytes_get_data (op, NULL),
                            g_bytes_get_size (op));
          else
            {
              g_autoptr (GBytes) raw = ovi_fixture_encode (OVI_DTYPE_FLOAT32, out, 8);
              g_autofree char *name = g_strdup_printf ("%s.output.0.npy", files[k]);
              g_autofree char *path = g_build_filename (tmp, name, NULL);
              g_autofree char *contents = NULL;
              g_autoptr (GError) error = NULL;
              gsize length;

              if (!ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape, 2, raw, OVI_EXPORT_NPY, path,
                                           OVI_EXPORT_FLAGS_OVERWRITE, &error) ||
                  !g_file_get_contents (path, &contents, &length, &error))
                g_error ("%s", error->message);
              g_unlink (path);
              pairing_record (npy_runs, 1 | 1 << 1, name, contents, length);
            }
        }
    g_rmdir (tmp);
    seed (dir, "diff-pairing", "runs-dump", runs->data, runs->len);
    seed (dir, "diff-pairing", "runs-npy", npy_runs->data, npy_runs->len);
    g_byte_array_free (runs, TRUE);
    g_byte_array_free (npy_runs, TRUE);
  }

  /* Report files (fuzz-report-json.c): the example cluster's node-b, a
   * machine's `report --json`. */
  {
    g_autofree char *path =
        g_build_filename (SOURCE_ROOT, "data", "example-cluster", "node-b.json", NULL);
    g_autofree char *contents = NULL;
    gsize length;

    if (!g_file_get_contents (path, &contents, &length, NULL))
      g_error ("cannot read %s", path);
    seed (dir, "report-json", "node-b", contents, length);
  }

  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    g_bytes_unref (payloads[i]);
  return 0;
}
