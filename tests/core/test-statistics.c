/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"

/* Statistics-mode dumps (dump-format.md section 6): both writers' CSV
 * forms, read by column name, and their operators in a folder. */

typedef OviTmpDir Fixture;

static const guint64 shape22[] = { 2, 2 };
static const double clean[] = { 1, -2, 0.5, 0 };
static const double with_inf[] = { INFINITY, -1, NAN, INFINITY };

static OviStatisticRow *
row_at (OviStatisticCsv *csv, guint i)
{
  g_assert_cmpuint (i, <, csv->rows->len);
  return g_ptr_array_index (csv->rows, i);
}

static OviStatisticCsv *
parse_text (const char *text)
{
  return ovi_statistic_csv_parse (text, strlen (text));
}

static void
test_runtime_form (void)
{
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
  g_autofree char *text = NULL;
  g_autoptr (OviStatisticCsv) csv = NULL;
  OviStatisticRow *in, *out;

  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, with_inf);
  text = ovi_statistic_writer_finish (w, NULL);
  /* What the runtime writes, checked by eye once. */
  g_assert_cmpstr (strchr (text, '\n') + 1, ==,
                   "Input,0,8,DT_FLOAT16,ND,2x2,1,-2,-0.125,4,0,0,0\n"
                   "Output,0,8,DT_FLOAT16,ND,2x2,-1,-1,-1,4,1,0,2\n");

  csv = parse_text (text);
  g_assert_cmpuint (csv->errors->len, ==, 0);
  g_assert_cmpuint (csv->rows->len, ==, 2);
  in = row_at (csv, 0);
  g_assert_cmpuint (in->line, ==, 2);
  g_assert_false (in->has_op);
  g_assert_cmpint (in->kind, ==, OVI_TENSOR_INPUT);
  g_assert_cmpuint (in->index, ==, 0);
  g_assert_cmpint (in->dtype, ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpint (in->format, ==, 2); /* ND */
  g_assert_cmpuint (in->shape->len, ==, 2);
  g_assert_cmpuint (g_array_index (in->shape, guint64, 0), ==, 2);
  g_assert_cmpuint (in->size, ==, 8);
  g_assert_cmpfloat (in->stats.max, ==, 1);
  g_assert_cmpfloat (in->stats.min, ==, -2);
  g_assert_cmpfloat (in->stats.mean, ==, -0.125);
  g_assert_cmpfloat (in->stats.max_abs, ==, 2);
  g_assert_cmpuint (in->stats.count, ==, 4);
  g_assert_cmpuint (in->stats.finite, ==, 4);
  g_assert_cmpuint (in->stats.nan + in->stats.pos_inf + in->stats.neg_inf, ==, 0);
  g_assert_false (ovi_stats_is_abnormal (&in->stats));
  /* The runtime's form has no zero counts: unknown, not zero. */
  g_assert_false (in->fields & OVI_STATISTIC_ZEROS);
  g_assert_true (in->fields & OVI_STATISTIC_NAN);

  out = row_at (csv, 1);
  g_assert_cmpint (out->kind, ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpuint (out->stats.count, ==, 4);
  g_assert_cmpuint (out->stats.nan, ==, 1);
  g_assert_cmpuint (out->stats.pos_inf, ==, 2);
  g_assert_cmpuint (out->stats.neg_inf, ==, 0);
  g_assert_cmpuint (out->stats.finite, ==, 1);
  g_assert_cmpfloat (out->stats.max, ==, -1);
  g_assert_true (ovi_stats_is_abnormal (&out->stats));
}

static void
test_msprobe_form (void)
{
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_MSPROBE);
  static const double zeros[] = { -0.0, 0, 0, 65504 };
  g_autofree char *text = NULL;
  g_autoptr (OviStatisticCsv) csv = NULL;
  OviStatisticRow *r;

  ovi_statistic_writer_set_op (w, "Mul", "Default/network/Mul-op1", 5, 2, 2000);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 1, OVI_DTYPE_FLOAT16, shape22, 2, zeros);
  text = ovi_statistic_writer_finish (w, NULL);
  g_assert_cmpstr (strchr (text, '\n') + 1, ==,
                   "Mul,Default/network/Mul-op1,5,2,2000,output,1,8,float16,\"(2, 2)\",65504,0,"
                   "16376,4,1,2,0,0,0,3,65504\n");

  csv = parse_text (text);
  g_assert_cmpuint (csv->errors->len, ==, 0);
  r = row_at (csv, 0);
  g_assert_true (r->has_op);
  g_assert_cmpstr (r->op_type, ==, "Mul");
  g_assert_cmpstr (r->op_name, ==, "Default/network/Mul-op1");
  g_assert_cmpuint (r->task_id, ==, 5);
  g_assert_cmpuint (r->stream_id, ==, 2);
  g_assert_cmpuint (r->timestamp, ==, 2000);
  g_assert_cmpint (r->kind, ==, OVI_TENSOR_OUTPUT);
  g_assert_cmpuint (r->index, ==, 1);
  g_assert_cmpint (r->dtype, ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpint (r->format, ==, -1); /* msprobe writes no format */
  g_assert_cmpuint (r->shape->len, ==, 2);
  g_assert_cmpuint (r->stats.zeros, ==, 3);
  g_assert_cmpuint (r->neg_zeros, ==, 1);
  g_assert_cmpuint (r->pos_zeros, ==, 2);
  g_assert_cmpuint (r->fields & (OVI_STATISTIC_NEG_ZEROS | OVI_STATISTIC_POS_ZEROS), ==,
                    OVI_STATISTIC_NEG_ZEROS | OVI_STATISTIC_POS_ZEROS);
  /* 65504 is fp16's largest value: saturation mode's overflow. */
  g_assert_cmpuint (r->stats.saturated, ==, 1);
  g_assert_true (ovi_stats_is_abnormal (&r->stats));
}

/* Columns by name in any order and case, repeated headers, empty cells,
 * nan/inf in the value columns and rows cut short. */
static void
test_by_name (void)
{
  static const char text[] =
      "max value,IO,data type,SLOT,shape,count,NAN COUNT\r\n"
      "7.5,Input,DT_FLOAT,0,3x1,3,0\r\n"
      "\r\n"
      "Input/Output,Index,Data Type,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,"
      "Negative Inf Count,Positive Inf Count\n"
      "Output,0,DT_BF16,4,inf,-inf,nan,4,,,\n"
      "Output,1,DT_FLOAT,,,,,,,,\n"
      "Output,2,DT_FLOAT,2x2,1e+10\n"
      "Output,3,DT_FLOAT,2x2,3.40282e+38,-3.40282e+38,0,4,0,0,0\n";
  g_autoptr (OviStatisticCsv) csv = parse_text (text);
  OviStatisticRow *r;

  g_assert_cmpuint (csv->errors->len, ==, 0);
  g_assert_cmpuint (csv->rows->len, ==, 5);

  r = row_at (csv, 0);
  g_assert_cmpuint (r->line, ==, 2);
  g_assert_cmpint (r->dtype, ==, OVI_DTYPE_FLOAT32);
  g_assert_cmpfloat (r->stats.max, ==, 7.5);
  g_assert_true (isnan (r->stats.min)); /* no such column */
  g_assert_cmpuint (r->fields, ==, OVI_STATISTIC_MAX | OVI_STATISTIC_COUNT | OVI_STATISTIC_NAN);
  g_assert_cmpuint (r->stats.count, ==, 3);

  /* Infinite extremes with empty counts: at least one of each. */
  r = row_at (csv, 1);
  g_assert_cmpuint (r->line, ==, 5);
  g_assert_cmpint (r->dtype, ==, OVI_DTYPE_BFLOAT16);
  g_assert_cmpuint (r->stats.pos_inf, ==, 1);
  g_assert_cmpuint (r->stats.neg_inf, ==, 1);
  g_assert_cmpuint (r->stats.nan, ==, 0);
  g_assert_true (isnan (r->stats.max));
  g_assert_true (isnan (r->stats.mean));
  g_assert_cmpuint (r->stats.finite, ==, 2);

  /* Everything empty: known is nothing, and it is not abnormal. */
  r = row_at (csv, 2);
  g_assert_cmpuint (r->fields, ==, 0);
  g_assert_cmpuint (r->stats.count, ==, 0);
  g_assert_false (ovi_stats_is_abnormal (&r->stats));

  /* Cut short after Max Value: the count comes from the shape. */
  r = row_at (csv, 3);
  g_assert_cmpuint (r->fields, ==, OVI_STATISTIC_MAX);
  g_assert_cmpfloat (r->stats.max, ==, 1e10);
  g_assert_cmpuint (r->stats.count, ==, 4);

  /* FLT_MAX printed with six digits is still saturation, at both ends. */
  r = row_at (csv, 4);
  g_assert_cmpuint (r->stats.saturated, ==, 2);
}

static void
test_malformed (void)
{
  static const char text[] = "Output,0,DT_FLOAT\n"                            /* 1: no header */
                             "Input/Output,Index,Data Type,Max Value,Count\n" /* 2 */
                             "Input,0,DT_FLOAT,1.5,2\n"                       /* 3: good */
                             "Input,zero,DT_FLOAT,1,1\n"                      /* 4 */
                             "Sideways,1,DT_FLOAT,1,1\n"                      /* 5 */
                             "Output,1,DT_FLOAT,big,1\n"                      /* 6 */
                             "Output,2,DT_FLOAT,1,-3\n"                       /* 7 */
                             "Output\n"                                       /* 8: cut short */
                             "Output,3,DT_FLOAT,2,2\n";                       /* 9: good */
  g_autoptr (OviStatisticCsv) csv = parse_text (text);
  static const guint lines[] = { 1, 4, 5, 6, 7, 8 };

  g_assert_cmpuint (csv->rows->len, ==, 2);
  g_assert_cmpuint (row_at (csv, 0)->line, ==, 3);
  g_assert_cmpuint (row_at (csv, 1)->line, ==, 9);
  g_assert_cmpuint (csv->errors->len, ==, G_N_ELEMENTS (lines));
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      const GError *e = g_ptr_array_index (csv->errors, i);
      g_autofree char *prefix = g_strdup_printf ("line %u: ", lines[i]);
      g_assert_cmpuint (g_array_index (csv->lines, guint, i), ==, lines[i]);
      g_assert_true (g_str_has_prefix (e->message, prefix));
      g_assert_true (e->domain == OVI_STATISTIC_ERROR);
    }
  g_assert_nonnull (strstr (((GError *) g_ptr_array_index (csv->errors, 1))->message, "“zero”"));
  g_assert_error ((GError *) g_ptr_array_index (csv->errors, 0), OVI_STATISTIC_ERROR,
                  OVI_STATISTIC_ERROR_NO_HEADER);
}

static void
test_too_many_errors (void)
{
  g_autoptr (GString) text = g_string_new ("IO,Slot\n");
  g_autoptr (OviStatisticCsv) csv = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append (text, "x,y\n");
  csv = ovi_statistic_csv_parse (text->str, text->len);
  /* Twenty lines, then one that says the rest is skipped. */
  g_assert_cmpuint (csv->errors->len, ==, 21);
  g_assert_error ((GError *) g_ptr_array_index (csv->errors, 20), OVI_STATISTIC_ERROR,
                  OVI_STATISTIC_ERROR_TOO_MANY);
  g_assert_cmpuint (g_array_index (csv->lines, guint, 20), ==, 21);
}

static void
test_dtype_names (void)
{
  g_assert_cmpint (ovi_statistic_parse_dtype ("DT_FLOAT"), ==, OVI_DTYPE_FLOAT32);
  g_assert_cmpint (ovi_statistic_parse_dtype ("DT_FLOAT16"), ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpint (ovi_statistic_parse_dtype ("DT_BF16"), ==, OVI_DTYPE_BFLOAT16);
  g_assert_cmpint (ovi_statistic_parse_dtype ("DT_INT64"), ==, OVI_DTYPE_INT64);
  g_assert_cmpint (ovi_statistic_parse_dtype ("DT_DOUBLE"), ==, OVI_DTYPE_FLOAT64);
  g_assert_cmpint (ovi_statistic_parse_dtype ("torch.bfloat16"), ==, OVI_DTYPE_BFLOAT16);
  g_assert_cmpint (ovi_statistic_parse_dtype ("float32"), ==, OVI_DTYPE_FLOAT32);
  g_assert_cmpint (ovi_statistic_parse_dtype ("uint8"), ==, OVI_DTYPE_UINT8);
  g_assert_cmpint (ovi_statistic_parse_dtype ("12"), ==, OVI_DTYPE_FLOAT64);
  g_assert_cmpint (ovi_statistic_parse_dtype ("DT_SOMETHING_NEW"), ==, OVI_DTYPE_UNDEFINED);
}

static void
test_csv_names (void)
{
  g_autofree char *stem = NULL;

  g_assert_true (ovi_statistic_is_csv_name ("Add.add1.3.0.1000.csv", &stem));
  g_assert_cmpstr (stem, ==, "Add.add1.3.0.1000");
  g_assert_true (ovi_statistic_is_csv_name ("Conv2D.c.1.2.3.4.5.6.7.csv", NULL));
  g_assert_false (ovi_statistic_is_csv_name ("statistic.csv", NULL));
  g_assert_false (ovi_statistic_is_csv_name ("mapping.csv", NULL));
  g_assert_false (ovi_statistic_is_csv_name ("Opdebug.Node_OpDebug.2.7.100.csv", NULL));
  g_assert_false (ovi_statistic_is_csv_name ("Add.add1.3.0.1000", NULL));
}

static OviDumpFile *
file_at (OviDumpFolder *folder, guint i)
{
  g_autoptr (OviDumpFile) f = g_list_model_get_item (ovi_dump_folder_get_files (folder), i);
  g_assert_nonnull (f);
  return f; /* the folder keeps its reference */
}

/* {type}.{name}.{task}.0.{ts}.csv in the runtime's form: one input, one output. */
static void
write_stats_op (const char *dir,
                const char *op_type,
                guint task,
                guint64 ts,
                const double *in,
                const double *out)
{
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_RUNTIME);
  g_autofree char *name =
      g_strdup_printf ("%s.%s_op.%u.0.%" G_GUINT64_FORMAT ".csv", op_type, op_type, task, ts);

  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, in);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, out);
  g_free (ovi_statistic_writer_write (w, dir, name));
}

static void
test_folder_runtime (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "7", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GPtrArray) origins = NULL;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("Relu_op");
  g_autoptr (GError) error = NULL;
  g_autoptr (OviHistogram) histogram = NULL;
  g_autoptr (OviAnalysis) analysis = NULL;
  g_autoptr (GBytes) bytes = NULL;
  OviDumpFile *matmul, *add, *relu, *cast;
  OviTensor *out;
  const OviStats *s;

  /* In run order: MatMul clean, Add makes Inf and NaN, Cast carries them;
   * Relu has both its data and its statistics. */
  write_stats_op (iter, "MatMul", 10, 100, clean, clean);
  write_stats_op (iter, "Add", 11, 200, clean, with_inf);
  write_stats_op (iter, "Cast", 12, 300, with_inf, with_inf);
  write_stats_op (iter, "Relu", 13, 400, with_inf, clean);
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape22, 2, with_inf);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "Relu.Relu_op.13.0.400"));

  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  /* Relu once: the dump file with its data, not its statistics too. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 4);
  add = file_at (folder, 0);
  cast = file_at (folder, 1);
  matmul = file_at (folder, 2);
  relu = file_at (folder, 3);
  g_assert_cmpstr (ovi_dump_file_get_op_type (add), ==, "Add");
  g_assert_cmpstr (ovi_dump_file_get_name (add), ==, "Add.Add_op.11.0.200");
  g_assert_cmpstr (ovi_dump_file_get_relative_path (add), ==, "7/Add.Add_op.11.0.200.csv");
  g_assert_cmpuint (ovi_dump_file_get_task_id (add), ==, 11);
  g_assert_cmpuint (ovi_dump_file_get_timestamp (add), ==, 200);
  g_assert_cmpstr (ovi_dump_file_get_iteration (add), ==, "7");
  g_assert_true (ovi_dump_file_get_statistics_only (add));
  g_assert_cmpstr (ovi_dump_file_get_op_type (relu), ==, "Relu");
  g_assert_false (ovi_dump_file_get_statistics_only (relu));
  g_assert_cmpuint (ovi_dump_file_count_tensors (add, OVI_TENSOR_INPUT), ==, 1);
  g_assert_cmpuint (ovi_dump_file_count_tensors (add, OVI_TENSOR_OUTPUT), ==, 1);

  out = g_ptr_array_index (ovi_dump_file_get_tensors (add), 1);
  g_assert_cmpint (ovi_tensor_get_kind (out), ==, OVI_TENSOR_OUTPUT);
  g_assert_true (ovi_tensor_get_statistics_only (out));
  g_assert_cmpint (ovi_tensor_get_dtype (out), ==, OVI_DTYPE_FLOAT16);
  g_assert_cmpuint (ovi_tensor_get_count (out), ==, 4);
  g_assert_cmpuint (ovi_tensor_get_size (out), ==, 8);
  analysis = ovi_tensor_analyze (out, &error);
  g_assert_no_error (error);
  g_assert_false (ovi_analysis_has_values (analysis));
  s = ovi_analysis_get_stats (analysis);
  g_assert_cmpuint (s->nan, ==, 1);
  g_assert_cmpuint (s->pos_inf, ==, 2);
  g_assert_cmpfloat (s->max, ==, -1);

  /* No values: the histogram and the data say why. */
  histogram = ovi_analysis_histogram (analysis, 10, OVI_HISTOGRAM_LINEAR, &error);
  g_assert_null (histogram);
  g_assert_error (error, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES);
  g_assert_cmpstr (error->message, ==, ovi_statistic_why_no_values ());
  g_clear_error (&error);
  bytes = ovi_tensor_load_data (out, &error);
  g_assert_null (bytes);
  g_assert_error (error, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES);
  g_assert_true (isnan (ovi_analysis_value_at (analysis, 0)));

  /* Blame from the counts. */
  origins = ovi_dump_folder_find_origins (folder, NULL);
  g_assert_cmpint (ovi_dump_file_get_blame (matmul), ==, OVI_BLAME_NORMAL);
  g_assert_cmpint (ovi_dump_file_get_blame (add), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_dump_file_get_blame (cast), ==, OVI_BLAME_PROPAGATED);
  g_assert_cmpint (ovi_dump_file_get_blame (relu), ==, OVI_BLAME_ABSORBED);
  g_assert_cmpuint (origins->len, ==, 1);
  g_assert_true (g_ptr_array_index (origins, 0) == add);
}

static void
test_folder_msprobe (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "debug_files", "3", NULL);
  g_autoptr (OviStatisticWriter) w = ovi_statistic_writer_new (OVI_STATISTIC_FORM_MSPROBE);
  g_autoptr (OviDumpWriter) dw = ovi_dump_writer_new ("Default/Sub-op3");
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GPtrArray) origins = NULL;
  static const double sat[] = { 65504, -65504, 1, 2 };
  OviDumpFile *mul, *conv, *sub;
  OviTensor *t;
  guint64 neg = 0, pos = 0;

  /* Rows of two operators, interleaved as a writer with two streams may. */
  ovi_statistic_writer_set_op (w, "Conv2D", "Default/network/Conv2D-op1", 3, 1, 100);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  ovi_statistic_writer_set_op (w, "Mul", "Default/network/Mul.op2", 4, 1, 200);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, sat);
  ovi_statistic_writer_set_op (w, "Conv2D", "Default/network/Conv2D-op1", 3, 1, 100);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, sat);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 1, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  ovi_statistic_writer_set_op (w, "Mul", "Default/network/Mul.op2", 4, 1, 200);
  ovi_statistic_writer_add (w, OVI_TENSOR_OUTPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, sat);
  /* Sub has its data in the folder too: its rows are the same tensors. */
  ovi_statistic_writer_set_op (w, "Sub", "Default/Sub-op3", 5, 1, 300);
  ovi_statistic_writer_add (w, OVI_TENSOR_INPUT, 0, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  g_free (ovi_statistic_writer_write (w, iter, "statistic.csv"));
  ovi_fixture_add (dw, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape22, 2, clean);
  g_free (ovi_fixture_write (dw, OVI_LAYOUT_NEW, iter, "Sub.Default_Sub-op3.5.1.300"));

  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 3);
  conv = file_at (folder, 0);
  mul = file_at (folder, 1);
  sub = file_at (folder, 2);
  g_assert_cmpstr (ovi_dump_file_get_name (conv), ==, "Conv2D.Default_network_Conv2D-op1.3.1.100");
  g_assert_cmpstr (ovi_dump_file_get_op_name (conv), ==, "Default/network/Conv2D-op1");
  g_assert_cmpstr (ovi_dump_file_get_relative_path (conv), ==, "debug_files/3/statistic.csv");
  g_assert_cmpstr (ovi_dump_file_get_name (mul), ==, "Mul.Default_network_Mul_op2.4.1.200");
  g_assert_cmpstr (ovi_dump_file_get_op_name (mul), ==, "Default/network/Mul.op2");
  g_assert_false (ovi_dump_file_get_statistics_only (sub));
  g_assert_cmpuint (ovi_dump_file_count_tensors (conv, OVI_TENSOR_INPUT), ==, 2);
  g_assert_cmpuint (ovi_dump_file_count_tensors (conv, OVI_TENSOR_OUTPUT), ==, 1);

  /* Inputs first, by index, whatever the order of the rows. */
  t = g_ptr_array_index (ovi_dump_file_get_tensors (conv), 1);
  g_assert_cmpint (ovi_tensor_get_kind (t), ==, OVI_TENSOR_INPUT);
  g_assert_cmpuint (ovi_tensor_get_index (t), ==, 1);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (conv), 2);
  g_assert_cmpint (ovi_tensor_get_kind (t), ==, OVI_TENSOR_OUTPUT);
  g_assert_true (ovi_tensor_get_signed_zeros (t, &neg, &pos));
  g_assert_cmpuint (neg + pos, ==, 0);
  g_assert_true (ovi_tensor_get_known_statistics (t) & OVI_STATISTIC_ZEROS);

  /* Saturation mode: Conv2D's clean inputs give ±65504, Mul takes them. */
  origins = ovi_dump_folder_find_origins (folder, NULL);
  g_assert_cmpint (ovi_dump_file_get_blame (conv), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_dump_file_get_blame (mul), ==, OVI_BLAME_PROPAGATED);
  g_assert_cmpuint (origins->len, ==, 1);
  g_assert_true (g_ptr_array_index (origins, 0) == conv);
}

static void
test_folder_problems (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "0", NULL);
  static const char bad[] = "Input/Output,Index,Max Value\n"
                            "Input,0,1\n"
                            "Output,0,one\n";
  static const char runtime_form[] = "Input/Output,Index,Max Value\n"
                                     "Input,0,1\n";
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *problems;
  g_autoptr (OviProblem) p0 = NULL;
  g_autoptr (OviProblem) p1 = NULL;
  g_autoptr (JsonNode) json = NULL;
  JsonArray *errors;

  g_free (ovi_fixture_write_bytes (iter, "Add.a.1.0.10.csv", bad, strlen (bad)));
  /* statistic.csv without op columns cannot say whose tensors they are. */
  g_free (ovi_fixture_write_bytes (iter, "statistic.csv", runtime_form, strlen (runtime_form)));

  folder = ovi_fixture_load_folder (f->dir);
  problems = ovi_dump_folder_get_problems (folder);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 2);
  p0 = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (ovi_problem_get_file (p0), ==, "0/Add.a.1.0.10.csv");
  g_assert_cmpuint (ovi_problem_get_line (p0), ==, 3);
  g_assert_cmpstr (ovi_problem_get_message (p0), ==, "line 3: Max Value is “one”, not a number");
  p1 = g_list_model_get_item (problems, 1);
  g_assert_cmpstr (ovi_problem_get_file (p1), ==, "0/statistic.csv");
  g_assert_cmpuint (ovi_problem_get_line (p1), ==, 2);
  /* The good row of the broken file is kept. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 1);
  g_assert_cmpuint (ovi_dump_file_count_tensors (file_at (folder, 0), OVI_TENSOR_INPUT), ==, 1);

  json = ovi_report_build_json (folder);
  errors = json_object_get_array_member (json_node_get_object (json), "errors");
  g_assert_cmpuint (json_array_get_length (errors), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (errors, 0), "line"),
                   ==, 3);
}

/* One statistics file opened on its own, as a dump file can be. */
static void
test_single_file (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "1", NULL);
  g_autofree char *path = g_build_filename (iter, "Add.Add_op.11.0.200.csv", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviOverflowRecord) r = NULL;

  write_stats_op (iter, "Add", 11, 200, clean, with_inf);
  folder = ovi_fixture_load_folder (path);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 1);
  g_assert_true (ovi_dump_file_get_statistics_only (file_at (folder, 0)));
  g_assert_cmpstr (ovi_dump_file_get_relative_path (file_at (folder, 0)), ==,
                   "Add.Add_op.11.0.200.csv");
  /* No Opdebug file beside it: the record is found in the statistics. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  r = g_list_model_get_item (ovi_dump_folder_get_records (folder), 0);
  g_assert_cmpint (ovi_overflow_record_get_source (r), ==, OVI_RECORD_SOURCE_DATA);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 11);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  g_test_add_func ("/core/statistics/runtime-form", test_runtime_form);
  g_test_add_func ("/core/statistics/msprobe-form", test_msprobe_form);
  g_test_add_func ("/core/statistics/by-name", test_by_name);
  g_test_add_func ("/core/statistics/malformed", test_malformed);
  g_test_add_func ("/core/statistics/too-many-errors", test_too_many_errors);
  g_test_add_func ("/core/statistics/dtype-names", test_dtype_names);
  g_test_add_func ("/core/statistics/csv-names", test_csv_names);
  ADD ("/core/statistics/folder-runtime", test_folder_runtime);
  ADD ("/core/statistics/folder-msprobe", test_folder_msprobe);
  ADD ("/core/statistics/folder-problems", test_folder_problems);
  ADD ("/core/statistics/single-file", test_single_file);
#undef ADD
  return g_test_run ();
}
