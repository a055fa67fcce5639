/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-fixture-net.h"
#include "ovi-fixtures.h"
#include "ovi-statistic-writer.h"

/* Statistics-mode runs compared (issue 36, "Fused and statistics-mode
 * runs"): each tensor's max, min, mean and L2 norm against the other
 * side's, with the statistics' own tolerance; a statistics side against a
 * tensor side through the tensor's statistics; the CSV's problems once. */

typedef OviTmpDir Fixture;

static OviDiffResult *
diff_runs (Fixture *f, const char *tag, const OviNetRun *mine, const OviNetRun *golden)
{
  g_autofree char *a = g_build_filename (f->dir, tag, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, tag, "golden", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (a, b);
  g_autoptr (GError) error = NULL;
  OviDiffResult *result;

  ovi_fixture_write_net (a, mine);
  ovi_fixture_write_net (b, golden);
  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  return result;
}

/* The operator named @name; the runtime's per-operator CSV names it by
 * its file name's form only ("net_fc1_Add"). */
static OviDiffOperator *
find (OviDiffResult *result, const char *name)
{
  GListModel *ops = ovi_diff_result_get_operators (result);
  g_autofree char *form = ovi_file_name_form (name);

  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
      if (g_str_equal (ovi_diff_operator_get_name (op), name) ||
          g_str_equal (ovi_diff_operator_get_name (op), form))
        return op; /* the result keeps it */
    }
  g_error ("no operator %s", name);
}

static gboolean
agrees (OviDiffOperator *op)
{
  OviDiffOpClass c = ovi_diff_operator_get_op_class (op);
  return c == OVI_DIFF_OP_IDENTICAL || c == OVI_DIFF_OP_WITHIN_TOLERANCE;
}

/* Every operator of @net before @first agrees, compared by statistics;
 * @first (NULL: none) is the first divergence, an origin. */
static void
assert_first (OviDiffResult *result, OviNet net, const char *first)
{
  g_auto (GStrv) names = ovi_fixture_net_op_names (net);
  OviDiffOperator *divergence = ovi_diff_result_get_first_divergence (result);

  for (guint i = 0; names[i] && g_strcmp0 (names[i], first) != 0; i++)
    {
      OviDiffOperator *op = find (result, names[i]);

      g_test_message ("%s: %s (%s)", names[i], ovi_diff_operator_get_class_label (op),
                      ovi_diff_operator_get_reason (op) ? ovi_diff_operator_get_reason (op) : "");
      g_assert_true (agrees (op));
      g_assert_true (ovi_diff_operator_get_statistics (op));
    }
  if (first == NULL)
    {
      g_assert_null (divergence);
      return;
    }
  g_assert_nonnull (divergence);
  g_assert_true (divergence == find (result, first));
  g_assert_cmpint (ovi_diff_operator_get_op_class (divergence), ==, OVI_DIFF_OP_ORIGIN);
  g_assert_true (ovi_diff_operator_get_statistics (divergence));
  g_assert_true (ovi_diff_result_get_first_divergence_tensor (result)->statistics);
}

/* Both writers' forms, float32 runs whose kernels sum in other orders:
 * every operator agrees, and says it was compared by statistics. */
static void
test_agree (Fixture *f, gconstpointer data)
{
  const int forms[] = { OVI_NET_STATISTICS_RUNTIME, OVI_NET_STATISTICS_MSPROBE };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      OviNetRun mine, golden;
      g_autoptr (OviDiffResult) result = NULL;
      g_autofree char *tag = g_strdup_printf ("form%u", i);
      OviDiffOperator *op;
      const OviDiffTensor *t;

      ovi_net_run_init (&mine, OVI_NET_TRANSFORMER, OVI_DTYPE_FLOAT32);
      ovi_net_run_init (&golden, OVI_NET_TRANSFORMER, OVI_DTYPE_FLOAT32);
      mine.reversed = TRUE;
      mine.statistics = golden.statistics = forms[i];
      result = diff_runs (f, tag, &mine, &golden);
      assert_first (result, OVI_NET_TRANSFORMER, NULL);
      g_assert_cmpint (ovi_diff_result_get_verdict (result), ==, OVI_DIFF_VERDICT_AGREE);
      g_assert_cmpuint (g_list_model_get_n_items (ovi_diff_result_get_problems (result)), ==, 0);

      op = find (result, "block/ffn/fc1/MatMul");
      g_assert_cmpstr (ovi_diff_operator_get_class_label (op), ==, "agrees (statistics)");
      t = ovi_diff_operator_get_worst_tensor (op);
      g_assert_true (t->statistics);
      g_assert_cmpint (t->tensor_class, ==, OVI_DIFF_TENSOR_WITHIN_TOLERANCE);
      g_assert_cmpuint (t->stats.differs, ==, 0);
      /* The runtime's form has no L2 norm: three statistics; msprobe's four. */
      g_assert_cmpuint (t->stats.compared, ==,
                        forms[i] == OVI_NET_STATISTICS_MSPROBE ? 0xf
                                                               : 0xf & ~(1u << OVI_DIFF_STAT_NORM));
      g_assert_cmpfloat (t->stats.mine[OVI_DIFF_STAT_MAX], >, 0);
    }
}

/* float16 statistics against float32 statistics: rounding float16 explains
 * is no divergence; the overflow is the first, its +Inf count and its
 * statistics not matching. */
static void
test_float16 (Fixture *f, gconstpointer data)
{
  OviNetRun mine, golden;
  g_autoptr (OviDiffResult) result = NULL;
  const OviDiffTensor *t;

  ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT16);
  ovi_net_run_init (&golden, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  mine.statistics = golden.statistics = OVI_NET_STATISTICS_MSPROBE;
  result = diff_runs (f, "fp16", &mine, &golden);
  assert_first (result, OVI_NET_MLP, OVI_NET_MLP_OVERFLOW);
  t = ovi_diff_result_get_first_divergence_tensor (result);
  g_assert_cmpuint (t->nonfinite_mismatch, >, 0);
}

/* One operator whose maximum differs (a column shifted by three times the
 * output's RMS): it is the first divergence, its max out of tolerance. */
static void
test_max_differs (Fixture *f, gconstpointer data)
{
  OviNetRun mine, golden;
  g_autoptr (OviDiffResult) result = NULL;
  const OviDiffTensor *t;
  g_autofree char *headline = NULL;

  ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  ovi_net_run_init (&golden, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  mine.statistics = golden.statistics = OVI_NET_STATISTICS_RUNTIME;
  mine.bug_op = "net/fc1/Add";
  mine.bug_column = 3;
  mine.bug_shift = 3;
  result = diff_runs (f, "max", &mine, &golden);
  assert_first (result, OVI_NET_MLP, "net/fc1/Add");
  t = ovi_diff_result_get_first_divergence_tensor (result);
  g_assert_cmpint (t->kind, ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpint (t->tensor_class, ==, OVI_DIFF_TENSOR_DIFFERS);
  g_assert_true (t->stats.differs & (1u << OVI_DIFF_STAT_MAX));
  g_assert_cmpfloat (t->stats.mine[OVI_DIFF_STAT_MAX], >, t->stats.golden[OVI_DIFF_STAT_MAX]);
  g_assert_cmpstr (
      ovi_diff_operator_get_class_label (ovi_diff_result_get_first_divergence (result)), ==,
      "origin (statistics)");
  headline = ovi_diff_result_dup_headline (result);
  g_assert_nonnull (strstr (headline, "net_fc1_Add"));
}

/* A statistics side against tensor dumps, either way round: the tensor's
 * statistics are compared. Agreeing, then with the float16 overflow. */
static void
test_against_tensors (Fixture *f, gconstpointer data)
{
  for (guint way = 0; way < 2; way++)
    {
      OviNetRun mine, golden;
      g_autoptr (OviDiffResult) same = NULL, overflow = NULL;
      g_autofree char *tag = g_strdup_printf ("same%u", way);
      g_autofree char *tag2 = g_strdup_printf ("overflow%u", way);

      ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
      ovi_net_run_init (&golden, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
      mine.reversed = TRUE;
      (way == 0 ? &mine : &golden)->statistics = OVI_NET_STATISTICS_RUNTIME;
      same = diff_runs (f, tag, &mine, &golden);
      assert_first (same, OVI_NET_MLP, NULL);
      g_assert_cmpint (ovi_diff_result_get_verdict (same), ==, OVI_DIFF_VERDICT_AGREE);

      ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT16);
      mine.statistics = way == 0 ? OVI_NET_STATISTICS_MSPROBE : OVI_NET_STATISTICS_NONE;
      golden.statistics = way == 0 ? OVI_NET_STATISTICS_NONE : OVI_NET_STATISTICS_MSPROBE;
      overflow = diff_runs (f, tag2, &mine, &golden);
      assert_first (overflow, OVI_NET_MLP, OVI_NET_MLP_OVERFLOW);
    }
}

static void
write_rows (const char *dir, const char *file, const double *in, const double *out, const char *bad)
{
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
  const guint64 shape[] = { 4 };

  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT32, shape, 1, in);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT32, shape, 1, out);
  if (bad)
    ovi_statistic_writer_add_line (w, bad);
  g_free (ovi_statistic_writer_write (w, dir, file));
}

/* Two operators, Relu then Exp; mine's Exp has @exp_out as output and my
 * Relu's CSV a line @bad. */
static void
write_small (Fixture *f, const char *side, const double *exp_out, const char *bad)
{
  g_autofree char *dir = g_build_filename (f->dir, side, "0", "net", "1", "1", NULL);
  const double x[] = { 1, -2, 0.5, 3 }, r[] = { 1, 0, 0.5, 3 };
  const double e[] = { exp (1), 1, exp (0.5), exp (3) };

  write_rows (dir, "Relu.net_Relu.1.7.1764670500000100.csv", x, r, bad);
  write_rows (dir, "Exp.net_Exp.2.7.1764670500000200.csv", r, exp_out ? exp_out : e, NULL);
}

/* A broken line of a CSV: one problem, naming the file and the line; the
 * operators still compared. */
static void
test_broken_line (Fixture *f, gconstpointer data)
{
  g_autofree char *a = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "golden", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (a, b);
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviProblem) p = NULL;
  GListModel *problems;

  write_small (f, "mine", NULL, "Output,1,16,DT_FLOAT,ND,4,big,0,0,4,0,0,0");
  write_small (f, "golden", NULL, NULL);
  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  problems = ovi_diff_result_get_problems (result);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) q = g_list_model_get_item (problems, i);
      g_test_message ("%s: %s", ovi_problem_get_file (q), ovi_problem_get_message (q));
    }
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  p = g_list_model_get_item (problems, 0);
  g_assert_true (
      g_str_has_suffix (ovi_problem_get_file (p), "Relu.net_Relu.1.7.1764670500000100.csv"));
  g_assert_nonnull (strstr (ovi_problem_get_message (p), "4"));
  g_assert_cmpint (ovi_problem_get_line (p), ==, 4);
  g_assert_true (agrees (find (result, "net/Relu")));
  g_assert_true (agrees (find (result, "net/Exp")));
}

/* The same in msprobe's statistic.csv of the folder: one problem. */
static void
test_broken_line_msprobe (Fixture *f, gconstpointer data)
{
  OviNetRun mine, golden;
  g_autofree char *a = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "golden", NULL);
  g_autofree char *csv = g_build_filename (a, "statistic.csv", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (a, b);
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviProblem) p = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GString) broken = NULL;
  guint lines = 0;
  GListModel *problems;

  ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  ovi_net_run_init (&golden, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  mine.statistics = golden.statistics = OVI_NET_STATISTICS_MSPROBE;
  ovi_fixture_write_net (a, &mine);
  ovi_fixture_write_net (b, &golden);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  broken = g_string_new (text);
  for (const char *c = text; *c; c++)
    lines += *c == '\n';
  g_string_append (broken, "Add,net/extra/Add,99,7,1,output,0,16,float32,\"(4)\",huge,0,0,4,0,0,0,"
                           "0,0,0,1\n");
  g_assert_true (g_file_set_contents (csv, broken->str, broken->len, NULL));

  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  problems = ovi_diff_result_get_problems (result);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) q = g_list_model_get_item (problems, i);
      g_test_message ("%s: %s", ovi_problem_get_file (q), ovi_problem_get_message (q));
    }
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  p = g_list_model_get_item (problems, 0);
  g_assert_true (g_str_has_suffix (ovi_problem_get_file (p), "statistic.csv"));
  g_assert_cmpint (ovi_problem_get_line (p), ==, lines + 1);
  g_assert_cmpint (ovi_diff_result_get_verdict (result), ==, OVI_DIFF_VERDICT_INCOMPLETE);
}

/* +Inf as a statistic where the other side's is finite: a divergence,
 * whatever the tolerance. */
static void
test_nonfinite (Fixture *f, gconstpointer data)
{
  g_autofree char *a = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "golden", NULL);
  g_autoptr (OviDiff) diff = ovi_diff_new (a, b);
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (a, "0", "net", "1", "1", NULL);
  const double x[] = { 1, -2, 0.5, 3 }, r[] = { 1, 0, 0.5, 3 };
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
  const guint64 shape[] = { 4 };
  const OviDiffTensor *t;

  write_small (f, "golden", NULL, NULL);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT32, shape, 1, x);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT32, shape, 1, r);
  g_free (ovi_statistic_writer_write (w, dir, "Relu.net_Relu.1.7.1764670500000100.csv"));
  ovi_statistic_writer_free (g_steal_pointer (&w));
  w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT32, shape, 1, r);
  /* The runtime's max over every value: inf, the counts left empty. */
  ovi_statistic_writer_add_line (w, "Output,0,16,DT_FLOAT,ND,4,inf,1,inf,4,,,");
  g_free (ovi_statistic_writer_write (w, dir, "Exp.net_Exp.2.7.1764670500000200.csv"));

  ovi_diff_set_tolerance (diff, 1e6, 1e6);
  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ovi_diff_result_get_first_divergence (result));
  g_assert_true (ovi_diff_result_get_first_divergence (result) == find (result, "net/Exp"));
  t = ovi_diff_result_get_first_divergence_tensor (result);
  g_assert_true (t->stats.differs & (1u << OVI_DIFF_STAT_MAX));
}

/* The command line: the headline, the class in the text, the JSON's and
 * the CSV's fields. */
static void
test_cli (Fixture *f, gconstpointer data)
{
  OviNetRun mine, golden;
  g_autofree char *a = g_build_filename (f->dir, "cli", "mine", NULL);
  g_autofree char *b = g_build_filename (f->dir, "cli", "golden", NULL);
  g_autofree char *out = NULL, *err = NULL, *json = NULL, *csv = NULL, *err2 = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root, *first, *tensor, *stats, *max;
  JsonArray *ops;
  g_auto (GStrv) lines = NULL;
  g_autofree char *csv_path = g_build_filename (f->dir, "cli", "result.csv", NULL);
  g_autofree char *csv_arg = g_strconcat ("--csv=", csv_path, NULL);
  gboolean found = FALSE;

  ovi_net_run_init (&mine, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  ovi_net_run_init (&golden, OVI_NET_MLP, OVI_DTYPE_FLOAT32);
  mine.statistics = golden.statistics = OVI_NET_STATISTICS_MSPROBE;
  mine.bug_op = "net/fc1/Add";
  mine.bug_column = 3;
  mine.bug_shift = 3;
  ovi_fixture_write_net (a, &mine);
  ovi_fixture_write_net (b, &golden);

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &out, &err, "diff", a, b, NULL), ==, 5);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "First divergence: #"));
  g_assert_nonnull (strstr (out, "net/fc1/Add"));
  g_assert_nonnull (strstr (out, "compared by statistics"));
  g_assert_nonnull (strstr (out, "origin (statistics)"));
  g_assert_nonnull (strstr (out, "agrees (statistics)"));
  g_assert_null (strstr (out, "not comparable"));

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, &json, NULL, "diff", "--json", a, b, NULL), ==, 5);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  first = json_object_get_object_member (root, "first_divergence");
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "net/fc1/Add");
  tensor = json_object_get_object_member (first, "tensor");
  g_assert_cmpstr (json_object_get_string_member (tensor, "compared_by"), ==, "statistics");
  stats = json_object_get_object_member (tensor, "statistics");
  max = json_object_get_object_member (stats, "max");
  g_assert_true (json_object_get_boolean_member (max, "differs"));
  g_assert_cmpfloat (json_object_get_double_member (max, "mine"), >,
                     json_object_get_double_member (max, "golden"));
  g_assert_true (json_object_has_member (max, "tolerance"));
  g_assert_true (json_object_has_member (stats, "l2_norm"));
  ops = json_object_get_array_member (root, "operators");
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *op = json_array_get_object_element (ops, i);
      g_assert_cmpstr (json_object_get_string_member (op, "compared_by"), ==, "statistics");
    }

  g_assert_cmpint (ovi_fixture_run_cli_va (NULL, NULL, &err2, "diff", csv_arg, a, b, NULL), ==, 5);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (csv, "\r\n", -1);
  for (char **l = lines; *l; l++)
    {
      if (strstr (*l, "net_fc1_Add:output:0"))
        {
          g_test_message ("%s", *l);
          g_assert_nonnull (strstr (*l, "statistics: max "));
          g_assert_nonnull (strstr (*l, "(differs)"));
          found = TRUE;
        }
    }
  g_assert_true (found);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/diff-statistics/agree", Fixture, NULL, ovi_tmp_dir_setup, test_agree,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/float16", Fixture, NULL, ovi_tmp_dir_setup, test_float16,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/max-differs", Fixture, NULL, ovi_tmp_dir_setup, test_max_differs,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/against-tensors", Fixture, NULL, ovi_tmp_dir_setup,
              test_against_tensors, ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/broken-line", Fixture, NULL, ovi_tmp_dir_setup, test_broken_line,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/broken-line-msprobe", Fixture, NULL, ovi_tmp_dir_setup,
              test_broken_line_msprobe, ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/nonfinite", Fixture, NULL, ovi_tmp_dir_setup, test_nonfinite,
              ovi_tmp_dir_teardown);
  g_test_add ("/diff-statistics/cli", Fixture, NULL, ovi_tmp_dir_setup, test_cli,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
