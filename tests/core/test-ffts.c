/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"

/* FFTS+ thread slices (dump-format.md sections 2 and 6): the files of one
 * execution, `.{a}.{context_id}.{thread_id}.{b}` appended, are one operator. */

typedef OviTmpDir Fixture;

static const guint64 shape[] = { 4 };
static const double clean[] = { 1, 2, 3, 4 };
static const double with_inf[] = { 1, INFINITY, 3, 4 };

/* Conv2D.net_conv.120.5.{ts}.4.{context}.{thread}.0: one input, one output. */
static void
write_slice (const char *dir, guint64 ts, guint context, guint thread, const double *out)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/conv");
  g_autofree char *name = g_strdup_printf ("Conv2D.net_conv.120.5.%" G_GUINT64_FORMAT ".4.%u.%u.0",
                                           ts, context, thread);

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 1, clean);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, out);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name));
}

/* An AIC record (new layout) for task 120 on stream 5. */
static void
write_record (const char *dir, guint64 ts, guint64 context, guint64 thread)
{
  const guint64 aic[] = { 11, 5, 120, 4, context, thread, 0x1000, 0x2000, 3, 2, 0x20 };
  g_autoptr (GBytes) payload = ovi_overflow_payload_new (0, 0, aic, G_N_ELEMENTS (aic));
  g_autofree char *name = g_strdup_printf ("Opdebug.Node_OpDebug.3.5.%" G_GUINT64_FORMAT
                                           ".4.%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT ".0",
                                           ts, context, thread);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (ovi_write_overflow_file (path, payload, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
}

static OviDumpFile *
file_at (OviDumpFolder *folder, guint i)
{
  g_autoptr (OviDumpFile) f = g_list_model_get_item (ovi_dump_folder_get_files (folder), i);
  return f; /* the folder keeps its reference */
}

static void
test_group (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "5", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *records;
  g_autoptr (OviOverflowRecord) r0 = NULL;
  g_autoptr (OviOverflowRecord) r1 = NULL;
  OviDumpFile *group, *single;
  GPtrArray *slices, *tensors;
  g_autofree char *label = NULL;
  guint n_slices = 0;

  /* Context 3 runs as three threads; thread 1 overflows. Context 4 is
   * another execution of the same operator, in one slice. */
  write_slice (iter, 1002, 3, 2, clean);
  write_slice (iter, 1000, 3, 0, clean);
  write_slice (iter, 1001, 3, 1, with_inf);
  write_slice (iter, 2000, 4, 0, clean);
  write_record (iter, 1500, 3, 1);
  write_record (iter, 2500, 4, 0);

  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  /* The group, the single slice of context 4, two overflow files. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 4);
  group = file_at (folder, 0);
  single = file_at (folder, 1);
  slices = ovi_dump_file_get_slices (group);
  g_assert_nonnull (slices);
  g_assert_cmpuint (slices->len, ==, 3);
  g_object_get (group, "n-slices", &n_slices, NULL);
  g_assert_cmpuint (n_slices, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      OviDumpFile *s = g_ptr_array_index (slices, i);
      g_assert_cmpuint (ovi_dump_file_get_file_name (s)->thread_id, ==, i);
      g_assert_true (ovi_dump_file_get_is_slice (s));
    }
  /* Named after its earliest slice. */
  g_assert_cmpstr (ovi_dump_file_get_name (group), ==, "Conv2D.net_conv.120.5.1000.4.3.0.0");
  g_assert_cmpuint (ovi_dump_file_get_timestamp (group), ==, 1000);
  g_assert_cmpstr (ovi_dump_file_get_op_name (group), ==, "net/conv");
  g_assert_cmpstr (ovi_dump_file_get_iteration (group), ==, "5");
  g_assert_null (ovi_dump_file_get_slices (single));
  g_assert_false (ovi_dump_file_get_is_slice (single));
  g_assert_cmpuint (ovi_dump_file_get_file_name (single)->context_id, ==, 4);

  /* Three inputs, then three outputs, thread by thread. */
  g_assert_cmpuint (ovi_dump_file_count_tensors (group, OVI_TENSOR_INPUT), ==, 3);
  g_assert_cmpuint (ovi_dump_file_count_tensors (group, OVI_TENSOR_OUTPUT), ==, 3);
  tensors = ovi_dump_file_get_tensors (group);
  g_assert_cmpuint (tensors->len, ==, 6);
  g_assert_cmpint (ovi_tensor_get_kind (g_ptr_array_index (tensors, 2)), ==, OVI_TENSOR_INPUT);
  g_assert_cmpint (ovi_tensor_get_kind (g_ptr_array_index (tensors, 3)), ==, OVI_TENSOR_OUTPUT);
  g_assert_true (ovi_tensor_get_file (g_ptr_array_index (tensors, 4)) ==
                 g_ptr_array_index (slices, 1));
  label = ovi_tensor_dup_label (g_ptr_array_index (tensors, 4));
  g_assert_cmpstr (label, ==, "output 0, thread 1");
  {
    g_autoptr (OviAnalysis) a = ovi_tensor_analyze (g_ptr_array_index (tensors, 4), NULL);
    g_assert_nonnull (a);
    g_assert_cmpuint (ovi_analysis_get_stats (a)->pos_inf, ==, 1);
  }

  /* Blame sees the execution whole: thread 1's Inf makes it the origin. */
  g_assert_cmpint (ovi_classifier_classify (group), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_classifier_classify (single), ==, OVI_BLAME_NORMAL);

  /* A record naming context 3 (thread 1) links to the group, context 4 to
   * the other execution. */
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (g_list_model_get_n_items (records), ==, 2);
  r0 = g_list_model_get_item (records, 0);
  r1 = g_list_model_get_item (records, 1);
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r0), ==, 3);
  g_assert_true (ovi_overflow_record_get_op (r0) == group);
  g_assert_true (ovi_overflow_record_get_is_first (r0));
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r1), ==, 4);
  g_assert_true (ovi_overflow_record_get_op (r1) == single);

  /* The report names each slice's tensors by thread and file. */
  {
    g_autoptr (JsonNode) json = ovi_report_build_json (folder);
    JsonArray *rs = json_object_get_array_member (json_node_get_object (json), "records");
    JsonObject *op = json_object_get_object_member (json_array_get_object_element (rs, 0), "op");
    JsonArray *ts = json_object_get_array_member (op, "tensors");
    JsonObject *t4 = json_array_get_object_element (ts, 4);

    g_assert_cmpuint (json_array_get_length (ts), ==, 6);
    g_assert_cmpint (json_object_get_int_member (t4, "thread_id"), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (t4, "slice_file"), ==,
                     "5/Conv2D.net_conv.120.5.1001.4.3.1.0");
    g_assert_cmpint (json_object_get_int_member (t4, "pos_inf"), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (op, "class"), ==, "origin");
  }
}

/* Without an Opdebug file the group is found in the data, once. */
static void
test_group_without_overflow_file (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "6", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *records;
  g_autoptr (OviOverflowRecord) r = NULL;

  write_slice (iter, 1000, 3, 0, with_inf);
  write_slice (iter, 1001, 3, 1, with_inf);
  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 1);
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (g_list_model_get_n_items (records), ==, 1);
  r = g_list_model_get_item (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_source (r), ==, OVI_RECORD_SOURCE_DATA);
  g_assert_nonnull (ovi_dump_file_get_slices (ovi_overflow_record_get_op (r)));
  g_assert_true (ovi_overflow_record_has_context (r));
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/ffts/group", test_group);
  ADD ("/core/ffts/group-without-overflow-file", test_group_without_overflow_file);
#undef ADD
  return g_test_run ();
}
