/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-diff-fixture.h"
#include "ovi-fixtures.h"

/* overflow-inspector-cli diff: its outputs and exit codes (0 agree, 5
 * diverge, 1 errors, 2 usage and a CSV inside a run) on runs from the
 * fixture writer. */

typedef OviTmpDir Fixture;

static const guint64 shape24[] = { 2, 4 };

/* One input and one output of [2, 4]; ovi_fixture_write_op() names the
 * file. */
static void
write_op (const char *dir,
          const char *type,
          const char *name,
          guint task,
          int dtype,
          const double *in,
          const double *out)
{
  ovi_fixture_write_op (dir, type, name, task, dtype, shape24, 2, in, out);
}

/* MatMul → Add → Relu; my Add adds 0.5 to element 5. */
static char *
write_run_x (Fixture *f, const char *name, gboolean inject, double x0)
{
  char *dir = g_build_filename (f->dir, name, "0", "model", "1", NULL);
  const double x[] = { x0, -2, 3, -4, 5, 6, -7, 8 };
  const double a[] = { 2, -1, 4, -3, 6, 7, -6, 9 };
  double b[] = { 3, 0, 5, -2, 7, 8, -5, 10 }, c[8];

  if (inject)
    b[5] += 0.5;
  for (guint i = 0; i < 8; i++)
    c[i] = MAX (b[i], 0);
  write_op (dir, "MatMul", "net/MatMul", 1, OVI_DTYPE_FLOAT32, x, a);
  write_op (dir, "Add", "net/Add", 2, OVI_DTYPE_FLOAT32, a, b);
  write_op (dir, "Relu", "net/Relu", 3, OVI_DTYPE_FLOAT32, b, c);
  return dir;
}

static char *
write_run (Fixture *f, const char *name, gboolean inject)
{
  return write_run_x (f, name, inject, 1);
}

static void
test_agree (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", FALSE), *golden = write_run (f, "golden", FALSE);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "diff", mine, golden, NULL), ==, 0);
  g_test_message ("%s", out);
  g_assert_true (g_str_has_prefix (out, "Pairs:\n"));
  g_assert_nonnull (strstr (out, "No divergence: every operator agrees within tolerance."));
  g_assert_cmpstr (err, ==, "");
}

static void
test_diverge (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", TRUE), *golden = write_run (f, "golden", FALSE);
  g_autofree char *out = NULL, *err = NULL, *json = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root, *first, *tensor;
  JsonArray *ops;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "diff", mine, golden, NULL), ==, 5);
  g_test_message ("%s", out);
  /* The pairs first, then the first divergence. */
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "Pairs:");
  g_assert_true (g_str_has_prefix (lines[1], "  device 0, model model/1, iteration") ||
                 strstr (lines[1], "↔") != NULL);
  g_assert_cmpstr (lines[2], ==,
                   "First divergence: #1 Add net/Add, the origin: its inputs agree and output 0 "
                   "differs.");
  g_assert_nonnull (strstr (lines[3], "output 0 has 1 of 8 elements out of tolerance, the first "
                                      "at 5 (1, 1): 8.5 against 8"));
  g_assert_nonnull (strstr (out, "propagated"));

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &json, NULL, "diff", "--json", mine, golden, NULL),
                   ==, 5);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_get_boolean_member (root, "agree"));
  g_assert_cmpstr (json_object_get_string_member (root, "verdict"), ==, "diverge");
  g_assert_cmpstr (json_object_get_string_member (root, "headline"), ==, lines[2]);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "pairs")), ==, 1);
  first = json_object_get_object_member (root, "first_divergence");
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "net/Add");
  g_assert_cmpstr (json_object_get_string_member (first, "form"), ==, "origin");
  g_assert_nonnull (json_object_get_string_member (first, "why"));
  tensor = json_object_get_object_member (first, "tensor");
  g_assert_cmpstr (json_object_get_string_member (tensor, "kind"), ==, "output");
  g_assert_cmpstr (json_object_get_string_member (tensor, "class"), ==, "differs");
  g_assert_cmpstr (json_object_get_string_member (
                       json_object_get_object_member (tensor, "first_difference"), "position"),
                   ==, "5 (1, 1)");
  g_assert_cmpfloat (json_object_get_double_member (
                         json_object_get_object_member (tensor, "metrics"), "MaxAbsoluteError"),
                     ==, 0.5);
  ops = json_object_get_array_member (root, "operators");
  g_assert_cmpuint (json_array_get_length (ops), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ops, 0), "class"),
                   ==, "identical");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ops, 1), "class"),
                   ==, "origin");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ops, 2), "class"),
                   ==, "propagated");
  g_assert_cmpint (
      json_object_get_int_member (json_object_get_object_member (root, "counts"), "origin"), ==, 1);
}

/* #36 case 2: my input batch differs: the first operator reading it is the
 * first divergence, entered through input 0 from outside the dump. */
static void
test_entered (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run_x (f, "mine", FALSE, 1.5);
  g_autofree char *golden = write_run (f, "golden", FALSE);
  g_autofree char *out = NULL, *json = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *first;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", mine, golden, NULL), ==, 5);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "\nFirst divergence: #0 MatMul net/MatMul: entered through "
                                 "input 0, which already differs while no operator dumped before "
                                 "it produced a differing output; it came from outside this dump "
                                 "(the input data, a weight, or an operator that was not "
                                 "dumped).\n  input 0 has 1 of 8 elements out of tolerance, the "
                                 "first at 0 (0, 0): 1.5 against 1\n"));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &json, NULL, "diff", "--json", mine, golden, NULL),
                   ==, 5);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  first = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                         "first_divergence");
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "net/MatMul");
  g_assert_cmpstr (json_object_get_string_member (first, "form"), ==, "entered");
  g_assert_cmpint (json_object_get_int_member (first, "input"), ==, 0);
}

/* #36 case 5: two devices; device 1 ran first and diverges first. Its
 * device is named in the headline, the JSON and the CSV's file columns. */
static void
test_devices (Fixture *f, gconstpointer data)
{
  const char *s = "20261207100000";
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *csv = g_build_filename (f->dir, "out.csv", NULL);
  g_autofree char *out = NULL, *json = NULL, *text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const double x[] = { 1, -2, 3, -4, 5, 6, -7, 8 };
  const double y[] = { 1, -2, 3, -4, 5, 6.5, -7, 8 };
  JsonObject *first;

  for (guint device = 0; device < 2; device++)
    {
      g_autofree char *d = g_strdup_printf ("%u", device);
      g_autofree char *m = g_build_filename (mine, s, d, "net", "1", "1", NULL);
      g_autofree char *g = g_build_filename (golden, s, d, "net", "1", "1", NULL);
      guint task = device == 0 ? 10 : 1; /* device 1 runs first */

      write_op (m, "Add", "net/Add", task, OVI_DTYPE_FLOAT32, x, y);
      write_op (g, "Add", "net/Add", task, OVI_DTYPE_FLOAT32, x, x);
    }
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", "--csv", csv, mine, golden, NULL), ==, 5);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "\nFirst divergence: #1 Add net/Add on device 1, the origin: "));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &json, NULL, "diff", "--json", mine, golden, NULL),
                   ==, 5);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  first = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                         "first_divergence");
  g_assert_cmpstr (json_object_get_string_member (first, "device"), ==, "1");
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "\r\n0,Add,0/net_Add,float32,NaN,0/net_Add,float32,NaN,"
                                  "0/net_Add:input:0,"));
  g_assert_nonnull (strstr (text, "\r\n1,Add,1/net_Add,float32,NaN,1/net_Add,float32,NaN,"
                                  "1/net_Add:output:0,"));
}

/* #36 case 6: inputs that are not what they seem. */
static void
test_not_what_they_seem (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", TRUE), *golden = write_run (f, "golden", FALSE);
  g_autofree char *add = g_build_filename (golden, "Add.net_Add.2.7.1764670500000200", NULL);
  g_autofree char *text = g_build_filename (f->dir, "notes.txt", NULL);
  g_autofree char *fifo_dir = g_build_filename (f->dir, "fifo", NULL);
  g_autofree char *fifo = g_build_filename (fifo_dir, "Add.net_Add.2.7.1764670500000200", NULL);
  g_autofree char *link_dir = g_build_filename (f->dir, "link", NULL);
  g_autofree char *link = g_build_filename (link_dir, "Add.net_Add.2.7.1764670500000200", NULL);
  g_autofree char *out = NULL, *err = NULL, *err2 = NULL, *err3 = NULL, *same = NULL;

  /* The golden's Add, the true origin, cannot be read: not comparable,
   * with the reason; the file is a problem; exit 1, and the headline says
   * why. */
  g_assert_true (g_file_set_contents (add, "\x01\x02", 2, NULL));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "diff", mine, golden, NULL), ==, 1);
  g_test_message ("%s\n%s", out, err);
  g_assert_nonnull (strstr (out, "not comparable         Add net/Add ↔ net_Add  (golden run: "
                                 "truncated"));
  g_assert_null (strstr (out, "only in the golden run"));
  g_assert_nonnull (strstr (out, "1 file could not be read (see the problems), so the comparison "
                                 "is incomplete.\n"));
  g_assert_nonnull (strstr (out, "No first divergence can be named"));
  g_assert_nonnull (strstr (err, "Add.net_Add.2.7.1764670500000200: truncated"));

  /* A text file, a folder of a FIFO, a folder of a symbolic link: exit 1
   * naming the path, not an empty run that diverges. */
  g_assert_true (g_file_set_contents (text, "just some notes\n", -1, NULL));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, &err2, "diff", text, golden, NULL), ==, 1);
  g_test_message ("%s", err2);
  g_assert_nonnull (strstr (err2, "notes.txt: not a dump"));
  g_assert_no_errno (g_mkdir (fifo_dir, 0755));
  g_assert_no_errno (mkfifo (fifo, 0644));
  g_assert_no_errno (g_mkdir (link_dir, 0755));
  g_assert_no_errno (symlink (text, link));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, &err3, "diff", fifo_dir, golden, NULL), ==,
                   1);
  g_test_message ("%s", err3);
  g_assert_nonnull (strstr (err3, fifo_dir));
  g_clear_pointer (&err3, g_free);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, &err3, "diff", link_dir, golden, NULL), ==,
                   1);
  g_test_message ("%s", err3);
  g_assert_nonnull (strstr (err3, link_dir));
  g_assert_nonnull (strstr (err3, "not a dump"));

  /* The same folder twice: agree, and say so. */
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &same, NULL, "diff", mine, mine, NULL), ==, 0);
  g_assert_nonnull (strstr (same, "No divergence: both sides are the same path"));
}

/* The vendor's columns, one row per tensor, six decimals, "\r\n". */
static void
test_csv (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", TRUE), *golden = write_run (f, "golden", FALSE);
  g_autofree char *csv = g_build_filename (f->dir, "out", "result.csv", NULL);
  g_autofree char *outdir = g_build_filename (f->dir, "out", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) rows = NULL;

  g_assert_no_errno (g_mkdir (outdir, 0755));
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, NULL, NULL, "diff", "--csv", csv, mine, golden, NULL), ==, 5);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  rows = g_strsplit (text, "\r\n", -1);
  g_assert_cmpstr (rows[0], ==,
                   "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,Address,"
                   "TensorIndex,Shape,CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,"
                   "RelativeEuclideanDistance,KullbackLeiblerDivergence,StandardDeviation,"
                   "MeanAbsoluteError,RootMeanSquareError,MaxRelativeError,MeanRelativeError,"
                   "CompareFailReason");
  g_assert_cmpuint (g_strv_length (rows), ==, 1 + 6 + 1); /* header, 6 tensors, "" */
  g_assert_cmpstr (rows[1], ==,
                   "0,MatMul,net_MatMul,float32,NaN,net_MatMul,float32,NaN,net_MatMul:input:0,"
                   "\"[2,4]\",1.000000,0.000000,0.000000,0.000000,0.000000,"
                   "\"(1.250;4.893),(1.250;4.893)\",0.000000,0.000000,0.000000,0.000000,");
  /* Add's output: 8.5 against 8 at element 5, worked out by hand:
   * MaxAbs 0.5, AccRel = MaxRel = 0.5/8 = 0.0625, MeanRel 0.0625/8,
   * MeanAbs 0.5/8, RMSE √(0.25/8). */
  g_assert_true (g_str_has_prefix (rows[4], "1,Add,net_Add,float32,NaN,net_Add,float32,NaN,"
                                            "net_Add:output:0,\"[2,4]\","));
  g_assert_nonnull (strstr (rows[4], ",0.500000,0.062500,"));
  g_assert_nonnull (strstr (rows[4], ",0.062500,0.176777,0.062500,0.007812,"));
  g_assert_true (rows[7][0] == '\0');
}

/* Never into a folder being read: nothing written, both named. */
static void
test_csv_inside_run (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", TRUE), *golden = write_run (f, "golden", FALSE);
  g_autofree char *csv = g_build_filename (golden, "result.csv", NULL);
  g_autofree char *err = NULL;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, NULL, &err, "diff", "--csv", csv, mine, golden, NULL), ==, 2);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "result.csv"));
  g_assert_nonnull (strstr (err, golden));
  g_assert_false (g_file_test (csv, G_FILE_TEST_EXISTS));
}

static void
test_errors (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", FALSE);
  g_autofree char *missing = g_build_filename (f->dir, "nowhere", NULL);
  g_autofree char *empty = g_build_filename (f->dir, "empty", NULL);
  g_autofree char *map = g_build_filename (f->dir, "map.txt", NULL);
  g_autofree char *err = NULL, *err2 = NULL, *err3 = NULL, *err4 = NULL, *err5 = NULL;

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, &err, "diff", mine, missing, NULL), ==, 1);
  g_assert_nonnull (strstr (err, missing));
  g_assert_nonnull (strstr (err, "no such file or folder"));

  g_assert_no_errno (g_mkdir (empty, 0755));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, &err2, "diff", mine, empty, NULL), ==, 1);
  g_assert_nonnull (strstr (err2, "no op dump file and no .npy file"));

  g_assert_true (g_file_set_contents (map, "net/Add\n", -1, NULL));
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, NULL, &err3, "diff", "--map", map, mine, mine, NULL), ==, 1);
  g_assert_nonnull (strstr (err3, "map.txt, line 1"));

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, NULL, &err4, "diff", "--rtol", "-1", mine, mine, NULL), ==, 2);
  g_assert_nonnull (strstr (err4, "--rtol"));
  /* Too large for a double: said so, not "at least 0". */
  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, NULL, &err5, "diff", "--rtol", "1e309", mine, mine, NULL), ==,
      2);
  g_assert_nonnull (strstr (err5, "--rtol “1e309” is not a finite number"));
  g_assert_null (strstr (err5, "at least 0"));
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, NULL, "diff", mine, NULL), ==, 2);
}

/* Nano and broken files are listed as problems and the
 * rest is compared; files that failed make the answer incomplete (exit 1),
 * and the headline says so. */
static void
test_problems (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", FALSE), *golden = write_run (f, "golden", FALSE);
  g_autofree char *nano = g_build_filename (mine, "Mul.nano.8.3.750", NULL);
  g_autofree char *broken = NULL;
  g_autoptr (GBytes) entries = g_bytes_new_static ("\4\0\0\0\0\0\0\0", 8);
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
  const double clean[] = { 1, 2, 3, 4 };
  const guint64 shape22[] = { 2, 2 };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (ovi_write_nano_file (nano, 8, 1, entries, NULL));
  broken = ovi_fixture_write_bytes (golden, "Sub.net_Sub.9.7.1764670500000900", "\x01\x02", 2);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  g_free (ovi_statistic_writer_write (w, mine, "Exp.net_Exp.8.7.1764670500000800.csv"));

  /* Paths relative to the working folder, as typed. */
  g_assert_cmpint (ovi_fixture_run_cli_va (f->dir, &out, &err, "diff", "mine/0/model/1",
                                           "golden/0/model/1", NULL),
                   ==, 1);
  g_test_message ("%s\n%s", out, err);
  g_assert_nonnull (strstr (out, "files could not be read (see the problems), so the comparison "
                                 "is incomplete."));
  /* Each problem on standard error with its path, and in the text. */
  g_assert_nonnull (strstr (err, "mine/0/model/1/Mul.nano.8.3.750: this is a nano"));
  g_assert_nonnull (strstr (err, "golden/0/model/1/Sub.net_Sub.9.7.1764670500000900: truncated"));
  g_assert_nonnull (strstr (out, "Problems (files not compared):"));
  /* A statistics-mode dump is no problem: it is compared by its
   * statistics (test-diff-statistics.c); this one is in my run only. */
  g_assert_null (strstr (err, "statistics-mode"));
  g_assert_nonnull (strstr (out, "only in my run         Exp net_Exp\n"));
  /* The rest compared. */
  g_assert_nonnull (strstr (out, "identical              Add net/Add"));
}

/* float16 against a float32 golden agrees by default; a tolerance below
 * float16's rounding makes it diverge. */
static void
test_tolerance_options (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  const double v[] = { 0.1, -0.2, 0.3333333, 1000.1, 3.14159265, -2.7182818, 1e-3, 65000 };

  write_op (mine, "Mul", "net/Mul", 1, OVI_DTYPE_FLOAT16, v, v);
  write_op (golden, "Mul", "net/Mul", 1, OVI_DTYPE_FLOAT32, v, v);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, NULL, "diff", mine, golden, NULL), ==, 0);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, NULL, "diff", "--rtol", "1e-7", "--atol",
                                           "0", mine, golden, NULL),
                   ==, 5);
}

/* An Inf where the golden run has a number: out of tolerance, and said,
 * since the metrics are over the positions finite on both sides. */
static void
test_nonfinite (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = g_build_filename (f->dir, "golden", NULL);
  const double in[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  const double a[] = { 1, INFINITY, NAN, 4, 5, 6, 7, 8 };
  const double b[] = { 1, 2, NAN, 4, 5, 6, 7, 8 };
  g_autofree char *out = NULL;

  write_op (mine, "Exp", "net/Exp", 1, OVI_DTYPE_FLOAT32, in, a);
  write_op (golden, "Exp", "net/Exp", 1, OVI_DTYPE_FLOAT32, in, b);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, NULL, "diff", mine, golden, NULL), ==, 5);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "the first at 1 (0, 1): inf against 2"));
  g_assert_nonnull (strstr (out, "out of tolerance 1/8  NaN/Inf not matching 1"));
}

/* What convert writes, F.{input|output}.{i}.npy, is a golden run: every
 * operator pairs with its own .npy files, inputs included. */
static void
test_convert_output_golden (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", FALSE);
  g_autofree char *out = g_build_filename (f->dir, "npy", NULL);
  g_autofree char *text = NULL;

  g_assert_cmpint (
      ovi_fixture_run_cli_va (NULL, NULL, NULL, "convert", "--output", out, mine, NULL), ==, 0);
  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &text, NULL, "diff", mine, out, NULL), ==, 0);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "identical              Add net/Add"));
  g_assert_nonnull (strstr (text, "Summary: identical 3; problems 0"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/cli/diff/agree", test_agree);
  ADD ("/cli/diff/diverge", test_diverge);
  ADD ("/cli/diff/entered", test_entered);
  ADD ("/cli/diff/devices", test_devices);
  ADD ("/cli/diff/not-what-they-seem", test_not_what_they_seem);
  ADD ("/cli/diff/csv", test_csv);
  ADD ("/cli/diff/csv-inside-run", test_csv_inside_run);
  ADD ("/cli/diff/errors", test_errors);
  ADD ("/cli/diff/problems", test_problems);
  ADD ("/cli/diff/tolerance-options", test_tolerance_options);
  ADD ("/cli/diff/nonfinite", test_nonfinite);
  ADD ("/cli/diff/convert-output-golden", test_convert_output_golden);
#undef ADD
  return g_test_run ();
}
