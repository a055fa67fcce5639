/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "ovi-fixtures.h"

/* overflow-inspector-cli, run as a user runs it (path from $OVI_CLI). */

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must be defined by meson"
#endif

typedef struct
{
  char *dir;
  char *in;   /* {dir}/in: a small dump tree */
  char *iter; /* {in}/20251202101500/0/11/3 */
  char *out;  /* {dir}/out */
} Fixture;

static const double in_values[] = { 1, -2.5, 65504 };
static const double out_values[] = { 0.5, 70000, -1 };

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Cast");
  const guint64 shape[] = { 3 };
  OviClassicBlock core = { 11, 7, 57, 0, 0x10, 0x20, 0x30, 1, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *of = NULL;

  f->dir = g_dir_make_tmp ("ovi-cli-XXXXXX", &error);
  g_assert_no_error (error);
  f->in = g_build_filename (f->dir, "in", NULL);
  f->iter = g_build_filename (f->in, "20251202101500", "0", "11", "3", NULL);
  f->out = g_build_filename (f->dir, "out", NULL);

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, in_values);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, out_values);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, f->iter, "Cast.net_Cast.57.7.100"));
  of = g_build_filename (f->iter, "Opdebug.Node_OpDebug.2.7.200", NULL);
  g_assert_true (ovi_write_overflow_file (of, p, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
  g_free (ovi_fixture_write_bytes (f->iter, "mapping.csv", "", 0));
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  g_assert_false (g_file_test (f->dir, G_FILE_TEST_EXISTS));
  g_free (f->dir);
  g_free (f->in);
  g_free (f->iter);
  g_free (f->out);
}

static void
test_version_help (void)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "--version", NULL), ==, 0);
  g_assert_cmpstr (out, ==, "overflow-inspector-cli 0.1.0\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "convert"));
  g_assert_nonnull (strstr (out, "report"));
  g_assert_nonnull (strstr (out, "stats"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "frobnicate", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "frobnicate"));
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "convert", "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--output"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "convert", NULL), ==, 2);
}

static char *
out_file (Fixture *f, const char *name)
{
  return g_build_filename (f->out, "20251202101500", "0", "11", "3", name, NULL);
}

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
test_convert (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *npy_in = out_file (f, "Cast.net_Cast.57.7.100.input.0.npy");
  g_autofree char *npy_out = out_file (f, "Cast.net_Cast.57.7.100.output.0.npy");
  g_autofree char *json = out_file (f, "Opdebug.Node_OpDebug.2.7.200.output.0.json");
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *out_dir = out_file (f, "");
  gsize length;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--output", f->out, f->in, NULL), ==,
      0);
  g_assert_cmpstr (err, ==, "");
  listing = list_dir (out_dir);
  g_assert_cmpstr (listing, ==,
                   "Cast.net_Cast.57.7.100.input.0.npy "
                   "Cast.net_Cast.57.7.100.output.0.npy "
                   "Opdebug.Node_OpDebug.2.7.200.output.0.json");

  /* the input as float32 .npy */
  g_assert_true (g_file_get_contents (npy_in, &contents, &length, NULL));
  g_assert_cmpmem (contents, 6, "\x93NUMPY", 6);
  g_assert_nonnull (strstr (contents + 10, "'descr': '<f4'"));
  g_assert_nonnull (strstr (contents + 10, "'shape': (3,)"));
  {
    const float expected[] = { 1, -2.5, 65504 };
    g_assert_cmpuint (length, ==, 128 + sizeof expected);
    g_assert_cmpmem (contents + 128, sizeof expected, expected, sizeof expected);
  }
  g_clear_pointer (&contents, g_free);

  /* the output as float16 .npy: 70000 became inf */
  g_assert_true (g_file_get_contents (npy_out, &contents, &length, NULL));
  g_assert_nonnull (strstr (contents + 10, "'descr': '<f2'"));
  {
    const guint16 expected[] = { 0x3800, 0x7c00, 0xbc00 };
    g_assert_cmpmem (contents + 128, length - 128, expected, sizeof expected);
  }
  g_clear_pointer (&contents, g_free);

  /* the overflow record as the vendor's JSON */
  g_assert_true (g_file_get_contents (json, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "{\n    \"DHA Atomic Add\": {\n"));
  g_assert_nonnull (strstr (contents, "\"AI Core\": {\n        \"model_id\": 11,"));
  g_assert_nonnull (strstr (contents, "\"status\": 272\n    }\n}"));
  g_assert_true (g_str_has_suffix (contents, "}"));
  g_clear_pointer (&contents, g_free);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* again: refused, files unchanged; one line for the three outputs
   * that exist, naming the first (the files are converted on several
   * threads, said in their order) and how many more */
  g_assert_cmpint (
      ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--output", f->out, f->in, NULL), ==,
      1);
  {
    g_auto (GStrv) lines = g_strsplit (err, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 2);
    g_assert_cmpstr (lines[1], ==, "");
    g_assert_nonnull (strstr (lines[0], G_DIR_SEPARATOR_S "3" G_DIR_SEPARATOR_S "Cast."));
    g_assert_true (g_str_has_suffix (lines[0], "Cast.net_Cast.57.7.100.input.0.npy already exists "
                                               "(use --force to overwrite) (and 2 more failures "
                                               "like it)"));
  }
  g_assert_true (g_file_get_contents (npy_in, &contents, &length, NULL));
  g_assert_cmpuint (length, ==, 128 + 3 * sizeof (float));
  g_clear_pointer (&contents, g_free);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* with --force */
  g_assert_cmpint (ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--force", "--output",
                                           f->out, f->in, NULL),
                   ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_clear_pointer (&listing, g_free);
  listing = list_dir (out_dir);
  g_assert_cmpstr (listing, ==,
                   "Cast.net_Cast.57.7.100.input.0.npy "
                   "Cast.net_Cast.57.7.100.output.0.npy "
                   "Opdebug.Node_OpDebug.2.7.200.output.0.json");
}

static void
test_convert_formats (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *txt = out_file (f, "Cast.net_Cast.57.7.100.output.0.txt");
  g_autofree char *bin = out_file (f, "Cast.net_Cast.57.7.100.output.0.3.float16.ND.bin");
  g_autofree char *bin_in = out_file (f, "Cast.net_Cast.57.7.100.input.0.3.float32.ND.bin");
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_cmpint (ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--to", "txt", "-o",
                                           "out", "in", NULL),
                   ==, 0);
  g_assert_true (g_file_get_contents (txt, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "5.000000000000000000e-01\ninf\n-1.000000000000000000e+00\n");
  g_clear_pointer (&contents, g_free);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--to", "bin", "--force",
                                           "-o", "out", "in", NULL),
                   ==, 0);
  g_assert_true (g_file_get_contents (bin, &contents, &length, NULL));
  {
    const guint16 expected[] = { 0x3800, 0x7c00, 0xbc00 };
    g_assert_cmpmem (contents, length, expected, sizeof expected);
  }
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (bin_in, &contents, &length, NULL));
  {
    const float expected[] = { 1, -2.5, 65504 };
    g_assert_cmpmem (contents, length, expected, sizeof expected);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--to", "csv", "-o",
                                           "out", "in", NULL),
                   ==, 2);
  g_assert_nonnull (strstr (err, "npy, txt or bin"));
}

static void
test_convert_broken (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *broken =
      ovi_fixture_write_bytes (f->iter, "Sub.s.6.7.300", "\x10\0\0\0\0\0\0\0ab", 10);
  g_autofree char *expected =
      g_strdup_printf ("%s: header length 16 is larger than the file", broken);
  g_autofree char *npy_out = out_file (f, "Cast.net_Cast.57.7.100.output.0.npy");
  g_autofree char *json = out_file (f, "Opdebug.Node_OpDebug.2.7.200.output.0.json");
  g_autofree char *sub = out_file (f, "Sub.s.6.7.300.output.0.npy");

  g_assert_cmpint (
      ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--output", f->out, f->in, NULL), ==,
      1);
  g_assert_nonnull (strstr (err, expected));
  g_assert_true (g_file_test (npy_out, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (json, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (sub, G_FILE_TEST_EXISTS));
}

static void
test_convert_inside (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *inside = g_build_filename (f->in, "converted", NULL);
  g_autofree char *listing = NULL;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "--output", inside, f->in, NULL), ==,
      2);
  g_assert_nonnull (strstr (err, "a folder being read"));
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* the default output is the current folder: inside when run from there */
  g_assert_cmpint (ovi_fixture_run_cli_va (f->iter, &out, &err, "convert", ".", NULL), ==, 2);
  listing = list_dir (f->iter);
  g_assert_cmpstr (listing, ==, "Cast.net_Cast.57.7.100 Opdebug.Node_OpDebug.2.7.200 mapping.csv");
}

/* A dtype no table knows: its bytes are written as .bin with a note, and
 * old-layout files convert like new ones. */
static void
test_convert_unknown_dtype (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("u");
  g_autoptr (GBytes) raw = g_bytes_new ("\x01\x02\x03\x04\x05", 5);
  const guint64 shape[] = { 3 };
  static const double v[] = { 1, 2, 3 };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *bin = out_file (f, "U.u.9.7.300.input.0.3.unknown_dtype_99.ND.bin");
  g_autofree char *npy = out_file (f, "U.u.9.7.300.output.0.npy");
  g_autofree char *contents = NULL;
  gsize length;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, 99, 2, shape, 1, raw);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_INT8, shape, 1, v);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_OLD, f->iter, "U.u.9.7.300"));

  g_assert_cmpint (ovi_fixture_run_cli_va (f->dir, &out, &err, "convert", "-o", "out", "in", NULL),
                   ==, 0);
  g_assert_nonnull (strstr (err, "input 0 has unknown dtype 99, written as raw .bin"));
  g_assert_true (g_file_get_contents (bin, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, "\x01\x02\x03\x04\x05", 5);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (npy, &contents, &length, NULL));
  g_assert_nonnull (strstr (contents + 10, "'descr': '|i1'"));
  g_assert_cmpmem (contents + 128, length - 128, "\x01\x02\x03", 3);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
test_report_json (void)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o, *r0, *op, *err0;
  JsonArray *records, *errors, *flags;
  static const char *const units[] = { "AI Core", "DHA Atomic Add", "AIC",  "AIV",
                                       "AICPU",   "L2 Atomic Add",  "SDMA", "Data" };
  static const char *const keys[] = { "file",       "iteration", "source",  "unit",
                                      "model_id",   "stream_id", "task_id", "status",
                                      "status_hex", "flags",     "op" };

  /* exit 1: the example holds one broken file */
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", "--json", example, NULL), ==,
                   1);
  root = parse (out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "root"), ==, example);
  records = json_object_get_array_member (o, "records");
  errors = json_object_get_array_member (o, "errors");
  g_assert_cmpuint (json_array_get_length (records), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      JsonObject *r = json_array_get_object_element (records, i);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        g_assert_true (json_object_has_member (r, keys[k]));
      g_assert_cmpstr (json_object_get_string_member (r, "unit"), ==, units[i]);
      /* The last, in iteration 12, no overflow file reported. */
      g_assert_cmpstr (json_object_get_string_member (r, "source"), ==,
                       i == 7 ? "data" : "overflow-file");
      g_assert_cmpint (json_object_get_int_member (r, "model_id"), ==, 11);
    }

  {
    JsonObject *r7 = json_array_get_object_element (records, 7);
    g_assert_cmpstr (json_object_get_string_member (r7, "file"), ==,
                     "20251202101500/0/resnet50_train/11/12/"
                     "Cast.gradients_Cast_3.57.7.1764671600000200.csv");
    g_assert_cmpint (json_object_get_int_member (r7, "task_id"), ==, 57);
    g_assert_cmpint (json_object_get_int_member (r7, "status"), ==, 0);
    g_assert_false (json_object_get_boolean_member (r7, "first"));
    g_assert_cmpstr (
        json_object_get_string_member (json_object_get_object_member (r7, "op"), "class"), ==,
        "origin");
  }
  r0 = json_array_get_object_element (records, 0);
  g_assert_cmpstr (
      json_object_get_string_member (r0, "file"), ==,
      "20251202101500/0/resnet50_train/11/3/Opdebug.Node_OpDebug.2.7.1764670500000250");
  g_assert_cmpstr (json_object_get_string_member (r0, "iteration"), ==,
                   "20251202101500/0/resnet50_train/11/3");
  g_assert_cmpint (json_object_get_int_member (r0, "status"), ==, 272);
  g_assert_cmpstr (json_object_get_string_member (r0, "status_hex"), ==, "0x110");
  g_assert_cmpint (json_object_get_int_member (r0, "stream_id"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (r0, "task_id"), ==, 57);
  flags = json_object_get_array_member (r0, "flags");
  g_assert_cmpuint (json_array_get_length (flags), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (flags, 0), ==, "0x10");
  g_assert_cmpstr (json_array_get_string_element (flags, 1), ==, "0x100");
  op = json_object_get_object_member (r0, "op");
  g_assert_nonnull (op);
  g_assert_cmpstr (json_object_get_string_member (op, "op_type"), ==, "Cast");
  g_assert_cmpstr (json_object_get_string_member (op, "op_name"), ==, "gradients/Cast_3");
  {
    JsonArray *tensors = json_object_get_array_member (op, "tensors");
    JsonObject *t1;
    g_assert_cmpuint (json_array_get_length (tensors), ==, 2);
    t1 = json_array_get_object_element (tensors, 1);
    g_assert_cmpstr (json_object_get_string_member (t1, "kind"), ==, "output");
    g_assert_cmpstr (json_object_get_string_member (t1, "dtype"), ==, "float16");
    g_assert_cmpint (json_object_get_int_member (t1, "pos_inf"), ==, 20);
    g_assert_cmpint (json_object_get_int_member (t1, "count"), ==, 256);
    g_assert_cmpfloat (json_object_get_double_member (t1, "max"), ==, 65184);
  }
  /* AIV/AIC records carry context ids; AICPU matches no op dump */
  g_assert_true (json_object_has_member (json_array_get_object_element (records, 2), "context_id"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                        json_array_get_object_element (records, 2), "status_words")),
                    ==, 4);
  g_assert_true (JSON_NODE_HOLDS_NULL (
      json_object_get_member (json_array_get_object_element (records, 4), "op")));

  g_assert_cmpuint (json_array_get_length (errors), ==, 1);
  err0 = json_array_get_object_element (errors, 0);
  g_assert_cmpstr (json_object_get_string_member (err0, "file"), ==,
                   "20251202101500/0/resnet50_train/11/10/Sub.loss_Sub_1.230.3.1764671000000400");
  g_assert_nonnull (strstr (json_object_get_string_member (err0, "message"), "truncated"));
}

static void
test_report_text (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", f->in, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "AI Core"));
  g_assert_nonnull (strstr (out, "status 0x110 FP16+INT"));
  g_assert_nonnull (strstr (out, "operator Cast net/Cast"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "report", "/nonexistent/ovi-cli-test", NULL), ==,
      1);
  g_assert_nonnull (strstr (err, "/nonexistent/ovi-cli-test"));
}

/* A folder with no dump file in it is neither clean nor broken: the report
 * says so and the exit status is its own. */
static void
test_report_no_dump (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *empty = g_build_filename (f->dir, "empty", "logs", NULL);

  g_assert_cmpint (g_mkdir_with_parents (empty, 0755), ==, 0);
  g_free (ovi_fixture_write_bytes (empty, "train.log", "epoch 1\n", 8));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", empty, NULL), ==, 3);
  g_assert_nonnull (strstr (out, "No dump file was found here"));
  g_assert_null (strstr (out, "No overflow was recorded"));
  g_assert_nonnull (strstr (err, "no dump file found"));
  g_assert_nonnull (strstr (err, empty));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A folder of dump files without an overflow is still "no overflow". */
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", "--json", f->in, NULL), ==,
                   0);
}

/* The operator of the record with @op_type, from a report's JSON. */
static JsonObject *
record_op (JsonNode *root, const char *op_type)
{
  JsonArray *records = json_object_get_array_member (json_node_get_object (root), "records");

  for (guint i = 0; i < json_array_get_length (records); i++)
    {
      JsonObject *op =
          json_object_get_object_member (json_array_get_object_element (records, i), "op");

      if (op && g_strcmp0 (json_object_get_string_member (op, "op_type"), op_type) == 0)
        return op;
    }
  g_assert_not_reached ();
}

/* `report --json` carries the newer schema's fields where the header has
 * them: the operator's dfx_message, attrs and workspaces (type, arg_index),
 * each tensor's arg_index and an input's input_type. The fixture's Cast has
 * none, and none of the keys. */
static void
test_report_schema_fields (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/MatMul");
  const guint64 shape[] = { 3 };
  OviClassicBlock core = { 11, 7, 58, 0, 0x10, 0x20, 0x30, 1, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *of = g_build_filename (f->iter, "Opdebug.Node_OpDebug.2.7.250", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *op, *in, *output, *attr, *space;
  JsonArray *attrs, *tensors, *spaces;

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, in_values);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, out_values);
  ovi_fixture_add_schema_fields (w);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, f->iter, "MatMul.net_MatMul.58.7.150"));
  g_assert_true (ovi_write_overflow_file (of, p, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "report", "--json", f->in, NULL), ==,
                   0);
  root = parse (out);

  op = record_op (root, "MatMul");
  g_assert_cmpstr (json_object_get_string_member (op, "dfx_message"), ==, "args of the kernel");
  attrs = json_object_get_array_member (op, "attrs");
  g_assert_cmpuint (json_array_get_length (attrs), ==, 2);
  attr = json_array_get_object_element (attrs, 0);
  g_assert_cmpstr (json_object_get_string_member (attr, "name"), ==, "tiling_key");
  g_assert_cmpstr (json_object_get_string_member (attr, "value"), ==, "7");
  attr = json_array_get_object_element (attrs, 1);
  g_assert_cmpstr (json_object_get_string_member (attr, "name"), ==, "block_dim");
  g_assert_cmpstr (json_object_get_string_member (attr, "value"), ==, "24");
  spaces = json_object_get_array_member (op, "workspaces");
  g_assert_cmpuint (json_array_get_length (spaces), ==, 1);
  space = json_array_get_object_element (spaces, 0);
  g_assert_cmpstr (json_object_get_string_member (space, "type"), ==, "LOG");
  g_assert_cmpint (json_object_get_int_member (space, "size"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (space, "arg_index"), ==, 4);
  tensors = json_object_get_array_member (op, "tensors");
  g_assert_cmpuint (json_array_get_length (tensors), ==, 2);
  in = json_array_get_object_element (tensors, 0);
  g_assert_cmpstr (json_object_get_string_member (in, "kind"), ==, "input");
  g_assert_cmpint (json_object_get_int_member (in, "arg_index"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (in, "input_type"), ==, 1);
  output = json_array_get_object_element (tensors, 1);
  g_assert_cmpstr (json_object_get_string_member (output, "kind"), ==, "output");
  g_assert_cmpint (json_object_get_int_member (output, "arg_index"), ==, 3);
  g_assert_false (json_object_has_member (output, "input_type"));

  op = record_op (root, "Cast");
  g_assert_false (json_object_has_member (op, "dfx_message"));
  g_assert_false (json_object_has_member (op, "attrs"));
  g_assert_false (json_object_has_member (op, "workspaces"));
  tensors = json_object_get_array_member (op, "tensors");
  for (guint i = 0; i < json_array_get_length (tensors); i++)
    {
      g_assert_false (
          json_object_has_member (json_array_get_object_element (tensors, i), "arg_index"));
      g_assert_false (
          json_object_has_member (json_array_get_object_element (tensors, i), "input_type"));
    }
}

static void
test_stats_json (Fixture *f, gconstpointer data)
{
  g_autofree char *file = g_build_filename (f->iter, "Cast.net_Cast.57.7.100", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *tensors;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "stats", "--json", "--bins", "8", file, NULL), ==,
      0);
  root = parse (out);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "op_name"), ==,
                   "net/Cast");
  tensors = json_object_get_array_member (json_node_get_object (root), "tensors");
  g_assert_cmpuint (json_array_get_length (tensors), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *t = json_array_get_object_element (tensors, i);
      JsonObject *h = json_object_get_object_member (t, "histogram");
      g_assert_nonnull (h);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (h, "counts")), ==, 8);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (h, "edges")), ==, 9);
    }
  {
    JsonObject *t0 = json_array_get_object_element (tensors, 0);
    JsonObject *t1 = json_array_get_object_element (tensors, 1);
    g_assert_cmpfloat (json_object_get_double_member (t0, "max"), ==, 65504);
    g_assert_cmpfloat (json_object_get_double_member (t0, "min"), ==, -2.5);
    g_assert_cmpint (json_object_get_int_member (t1, "pos_inf"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (t1, "first_nonfinite"), ==, 1);
    g_assert_cmpint (
        json_object_get_int_member (json_object_get_object_member (t1, "histogram"), "pos_inf"), ==,
        1);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "stats", "--bins", "0", file, NULL),
                   ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, &err, "stats", "/nonexistent/Add.a.1.2.3", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/Add.a.1.2.3"));
}

/* stats on the runtime's statistics file of the example's Cast. */
static void
test_stats_csv (void)
{
  g_autofree char *csv = g_build_filename (SOURCE_ROOT, "data", "example-dump", "20251202101500",
                                           "0", "resnet50_train", "11", "12",
                                           "Cast.gradients_Cast_3.57.7.1764671600000200.csv", NULL);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "stats", csv, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "output 0  float16 ND [1, 4, 8, 8]  (256 elements)"));
  g_assert_nonnull (strstr (out, "nan 0  +inf 20  -inf 0  zeros -  saturated 0"));
  g_assert_nonnull (strstr (out, "statistics-only dump: the runtime kept no tensor values"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  g_test_add_func ("/core/cli/version-help", test_version_help);
  ADD ("/core/cli/convert", test_convert);
  ADD ("/core/cli/convert-formats", test_convert_formats);
  ADD ("/core/cli/convert-broken", test_convert_broken);
  ADD ("/core/cli/convert-inside", test_convert_inside);
  ADD ("/core/cli/convert-unknown-dtype", test_convert_unknown_dtype);
  g_test_add_func ("/core/cli/report-json", test_report_json);
  ADD ("/core/cli/report-text", test_report_text);
  ADD ("/core/cli/report-no-dump", test_report_no_dump);
  ADD ("/core/cli/report-schema-fields", test_report_schema_fields);
  ADD ("/core/cli/stats-json", test_stats_json);
  g_test_add_func ("/core/cli/stats-csv", test_stats_csv);
#undef ADD
  return g_test_run ();
}
