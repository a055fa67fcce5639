/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Which operator to blame (origin, propagated, absorbed), origins per
 * iteration, ignore lists, and the report's blame section. */

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must be defined by meson"
#endif

#define MODEL "20251202101500/0/11"

typedef OviTmpDir Fixture;

static const double clean[] = { 1, -2, 3.5, 0 };
static const double with_inf[] = { 1, INFINITY, 3, 4 };
static const double with_nan[] = { NAN, 2, 3, 4 };
static const double with_65504[] = { 65504, 1, 2, 3 };

/* {type}.{name}.{task}.7.{ts} in @dir, one input and one output of 4. */
static char *
write_op (const char *dir,
          const char *op_type,
          const char *op_name,
          guint task,
          guint64 ts,
          int in_dtype,
          const double *in,
          int out_dtype,
          const double *out)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (op_name);
  g_autofree char *file_op = g_strdelimit (g_strdup (op_name), "./\\ ", '_');
  char *name = g_strdup_printf ("%s.%s.%u.7.%" G_GUINT64_FORMAT, op_type, file_op, task, ts);
  const guint64 shape[] = { 4 };

  ovi_fixture_add (w, OVI_TENSOR_INPUT, in_dtype, shape, 1, in);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, out_dtype, shape, 1, out);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name));
  return name;
}

static void
write_overflow (const char *dir, guint task, guint64 ts)
{
  OviClassicBlock core = { 11, 7, task, 0, 0x1000, 0x2000, 0, 0, 0x20 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *name = g_strdup_printf ("Opdebug.Node_OpDebug.2.7.%" G_GUINT64_FORMAT, ts);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (ovi_write_overflow_file (path, p, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
}

static OviDumpFile *
find_file (OviDumpFolder *folder, const char *name)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      if (g_str_equal (ovi_dump_file_get_name (f), name))
        return f;
    }
  g_assert_not_reached ();
}

static void
test_classify (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, MODEL, "3", NULL);
  g_autofree char *origin = write_op (iter, "Cast", "net/Cast", 1, 100, OVI_DTYPE_FLOAT32, clean,
                                      OVI_DTYPE_FLOAT32, with_inf);
  g_autofree char *propagated = write_op (iter, "Add", "net/Add", 2, 200, OVI_DTYPE_FLOAT32,
                                          with_nan, OVI_DTYPE_FLOAT32, with_nan);
  g_autofree char *absorbed = write_op (iter, "Select", "net/Select", 3, 300, OVI_DTYPE_FLOAT16,
                                        with_inf, OVI_DTYPE_FLOAT16, clean);
  g_autofree char *normal =
      write_op (iter, "Mul", "net/Mul", 4, 400, OVI_DTYPE_FLOAT32, clean, OVI_DTYPE_FLOAT32, clean);
  g_autofree char *saturated = write_op (iter, "Conv2D", "net/Conv", 5, 500, OVI_DTYPE_FLOAT32,
                                         with_65504, OVI_DTYPE_FLOAT16, with_65504);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GFile) root = g_file_new_for_path (f->dir);
  g_autoptr (OviDumpFolder) files_only = ovi_dump_folder_new (root);
  g_autoptr (GError) error = NULL;

  /* What convert loads: the same files, and nothing read to find records. */
  g_object_set (files_only, "data-records", FALSE, NULL);
  g_assert_true (ovi_dump_folder_load (files_only, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (files_only)), ==, 5);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (files_only)), ==, 0);
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (files_only, origin)), ==, OVI_BLAME_UNKNOWN);

  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 5);

  /* No Opdebug file here: loading classified the operators, and the two
   * origins (Cast, and Conv2D saturating) are records found in the data,
   * Cast first by time. */
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (folder, origin)), ==, OVI_BLAME_ORIGIN);
  {
    GListModel *records = ovi_dump_folder_get_records (folder);
    g_autoptr (OviOverflowRecord) r0 = NULL;
    g_autoptr (OviOverflowRecord) r1 = NULL;

    g_assert_cmpuint (g_list_model_get_n_items (records), ==, 2);
    r0 = g_list_model_get_item (records, 0);
    r1 = g_list_model_get_item (records, 1);
    g_assert_cmpint (ovi_overflow_record_get_source (r0), ==, OVI_RECORD_SOURCE_DATA);
    g_assert_cmpint (ovi_overflow_record_get_unit (r0), ==, OVI_UNIT_DATA);
    g_assert_true (ovi_overflow_record_get_op (r0) == find_file (folder, origin));
    g_assert_true (ovi_overflow_record_get_is_first (r0));
    g_assert_cmpuint (ovi_overflow_record_get_task_id (r0), ==, 1);
    g_assert_cmpuint (ovi_overflow_record_get_stream_id (r0), ==, 7);
    g_assert_cmpuint (ovi_overflow_record_get_status (r0), ==, 0);
    g_assert_true (ovi_overflow_record_get_op (r1) == find_file (folder, saturated));
    g_assert_false (ovi_overflow_record_get_is_first (r1));
  }

  g_assert_cmpint (ovi_classifier_classify (find_file (folder, origin)), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_classifier_classify (find_file (folder, propagated)), ==,
                   OVI_BLAME_PROPAGATED);
  g_assert_cmpint (ovi_classifier_classify (find_file (folder, absorbed)), ==, OVI_BLAME_ABSORBED);
  g_assert_cmpint (ovi_classifier_classify (find_file (folder, normal)), ==, OVI_BLAME_NORMAL);
  /* 65504 in float16 is saturation; in the float32 input it is an ordinary value */
  g_assert_cmpint (ovi_classifier_classify (find_file (folder, saturated)), ==, OVI_BLAME_ORIGIN);

  /* the verdict is kept */
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (folder, origin)), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (folder, absorbed)), ==, OVI_BLAME_ABSORBED);

  g_assert_cmpstr (ovi_blame_name (OVI_BLAME_UNKNOWN), ==, "unknown");
  g_assert_cmpstr (ovi_blame_name (OVI_BLAME_NORMAL), ==, "normal");
  g_assert_cmpstr (ovi_blame_name (OVI_BLAME_ORIGIN), ==, "origin");
  g_assert_cmpstr (ovi_blame_name (OVI_BLAME_PROPAGATED), ==, "propagated");
  g_assert_cmpstr (ovi_blame_name (OVI_BLAME_ABSORBED), ==, "absorbed");
}

/* An operator whose only tensors have unsupported dtypes (23 resource,
 * 18 qint8) carries no verdict: UNKNOWN ("not analysed"), not NORMAL.
 * ovi_classifier_classify used to return OVI_BLAME_NORMAL
 * (a bug the tests found, now fixed). */
static void
test_unsupported_only (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, MODEL, "3", NULL);
  const char *name = "Custom.net_Custom.6.7.600";
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Custom");
  const guint64 shape[] = { 4 };
  g_autoptr (GBytes) bytes = g_bytes_new ("\xff\xff\xff\xff", 4);
  g_autoptr (OviDumpFolder) folder = NULL;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_INPUT, 23, 2, shape, 1, bytes);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, 18, 2, shape, 1, bytes);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, name));
  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  g_assert_cmpint (ovi_classifier_classify (find_file (folder, name)), ==, OVI_BLAME_UNKNOWN);
}

static JsonObject *parse_object (JsonParser *parser, const char *json);

/* Iteration 2: no origin. Iteration 10: Cast (earliest) and Mul are
 * origins, Relu propagates; overflow records link Cast then Mul. */
typedef struct
{
  char *cast, *mul, *relu, *normal2, *absorbed2;
} Origins;

static void
write_origins (Fixture *f, Origins *o)
{
  g_autofree char *it2 = g_build_filename (f->dir, MODEL, "2", NULL);
  g_autofree char *it10 = g_build_filename (f->dir, MODEL, "10", NULL);

  o->normal2 = write_op (it2, "Mul", "net/Mul_1", 20, 1000, OVI_DTYPE_FLOAT32, clean,
                         OVI_DTYPE_FLOAT32, clean);
  o->absorbed2 = write_op (it2, "Select", "net/Select", 21, 1100, OVI_DTYPE_FLOAT32, with_nan,
                           OVI_DTYPE_FLOAT32, clean);
  /* "Abs" sorts before "Cast" by name, but Cast ran first */
  o->mul = write_op (it10, "Abs", "net/Abs_1", 30, 5300, OVI_DTYPE_FLOAT32, clean,
                     OVI_DTYPE_FLOAT16, with_inf);
  o->cast = write_op (it10, "Cast", "net/uninit_cast", 31, 5100, OVI_DTYPE_FLOAT32, clean,
                      OVI_DTYPE_FLOAT16, with_inf);
  o->relu = write_op (it10, "Relu", "net/Relu", 32, 5400, OVI_DTYPE_FLOAT16, with_inf,
                      OVI_DTYPE_FLOAT16, with_inf);
  write_overflow (it10, 31, 5150);
  write_overflow (it10, 30, 5350);
}

static void
origins_clear (Origins *o)
{
  g_free (o->cast);
  g_free (o->mul);
  g_free (o->relu);
  g_free (o->normal2);
  g_free (o->absorbed2);
}

static void
count_notify (guint *n, GParamSpec *pspec)
{
  (*n)++;
}

static void
assert_marks (OviOverflowRecord *r, gboolean ignored, gboolean first)
{
  gboolean p_ignored = !ignored, p_first = !first;

  g_assert_cmpint (ovi_overflow_record_get_ignored (r), ==, ignored);
  g_assert_cmpint (ovi_overflow_record_get_is_first (r), ==, first);
  g_object_get (r, "ignored", &p_ignored, "is-first", &p_first, NULL);
  g_assert_cmpint (p_ignored, ==, ignored);
  g_assert_cmpint (p_first, ==, first);
}

static void
test_origins (Fixture *f, gconstpointer data)
{
  Origins o;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GPtrArray) origins = NULL;
  OviDumpFile *cast, *mul;
  static const char *const lists[][2] = {
    { "type:Cast", NULL },
    { "name:*uninit*", NULL },
    { "*uninit*", NULL }, /* bare glob, matching the name */
    { "Ca?t", NULL },     /* bare glob, matching the type */
  };

  write_origins (f, &o);
  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 7);
  cast = find_file (folder, o.cast);
  mul = find_file (folder, o.mul);

  origins = ovi_dump_folder_find_origins (folder, NULL);
  g_assert_cmpuint (origins->len, ==, 1);
  g_assert_true (g_ptr_array_index (origins, 0) == cast);
  g_assert_cmpstr (ovi_dump_file_get_iteration (cast), ==, "10");
  g_assert_cmpstr (ovi_dump_file_get_relative_dir (cast), ==, MODEL "/10");
  /* every operator was classified on the way */
  g_assert_cmpint (ovi_dump_file_get_blame (mul), ==, OVI_BLAME_ORIGIN);
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (folder, o.relu)), ==, OVI_BLAME_PROPAGATED);
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (folder, o.normal2)), ==, OVI_BLAME_NORMAL);
  g_assert_cmpint (ovi_dump_file_get_blame (find_file (folder, o.absorbed2)), ==,
                   OVI_BLAME_ABSORBED);

  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      g_autoptr (OviIgnoreList) list = ovi_ignore_list_new (lists[i]);
      g_autoptr (GPtrArray) again = NULL;
      g_autoptr (OviOverflowRecord) r0 = NULL;
      g_autoptr (OviOverflowRecord) r1 = NULL;
      GListModel *records = ovi_dump_folder_get_records (folder);

      g_test_message ("ignore list: %s", lists[i][0]);
      g_assert_cmpuint (ovi_ignore_list_get_size (list), ==, 1);
      g_assert_true (ovi_ignore_list_matches (list, "Cast", "net/uninit_cast"));
      g_assert_false (ovi_ignore_list_matches (list, "Abs", "net/Abs_1"));

      /* before: Cast's record is first */
      g_assert_cmpuint (g_list_model_get_n_items (records), ==, 2);
      r0 = g_list_model_get_item (records, 0);
      r1 = g_list_model_get_item (records, 1);
      g_assert_true (ovi_overflow_record_get_op (r0) == cast);
      g_assert_true (ovi_overflow_record_get_op (r1) == mul);
      assert_marks (r0, FALSE, TRUE);
      assert_marks (r1, FALSE, FALSE);

      {
        guint n_notify0 = 0, n_notify1 = 0;
        gulong h0 = g_signal_connect_swapped (r0, "notify", G_CALLBACK (count_notify), &n_notify0);
        gulong h1 = g_signal_connect_swapped (r1, "notify", G_CALLBACK (count_notify), &n_notify1);
        ovi_dump_folder_set_ignore_list (folder, list);
        g_signal_handler_disconnect (r0, h0);
        g_signal_handler_disconnect (r1, h1);
        /* r0: "ignored" and "is-first" changed; r1: "is-first" changed */
        g_assert_cmpuint (n_notify0, >=, 2);
        g_assert_cmpuint (n_notify1, >=, 1);
      }
      g_assert_true (ovi_dump_folder_get_ignore_list (folder) == list);
      g_assert_true (ovi_dump_folder_is_ignored (folder, cast));
      g_assert_false (ovi_dump_folder_is_ignored (folder, mul));
      assert_marks (r0, TRUE, FALSE);
      assert_marks (r1, FALSE, TRUE);
      again = ovi_dump_folder_find_origins (folder, NULL);
      g_assert_cmpuint (again->len, ==, 1);
      g_assert_true (g_ptr_array_index (again, 0) == mul);

      /* cleared: back as before */
      ovi_dump_folder_set_ignore_list (folder, NULL);
      g_assert_null (ovi_dump_folder_get_ignore_list (folder));
      assert_marks (r0, FALSE, TRUE);
      assert_marks (r1, FALSE, FALSE);
    }

  /* ignoring both origins leaves none */
  {
    const char *both[] = { "type:Cast", "name:net/Abs_*", NULL };
    g_autoptr (OviIgnoreList) list = ovi_ignore_list_new (both);
    g_autoptr (GPtrArray) none = NULL;
    ovi_dump_folder_set_ignore_list (folder, list);
    none = ovi_dump_folder_find_origins (folder, NULL);
    g_assert_cmpuint (none->len, ==, 0);
  }
  origins_clear (&o);
}

/* With an origin in iteration 2 as well, iteration 2 comes first: numeric
 * order, although "10" sorts before "2" as text. */
static void
test_origins_numeric_order (Fixture *f, gconstpointer data)
{
  Origins o;
  g_autofree char *it2 = g_build_filename (f->dir, MODEL, "2", NULL);
  g_autofree char *early = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GPtrArray) origins = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *root;

  write_origins (f, &o);
  early = write_op (it2, "Exp", "net/Exp", 22, 1200, OVI_DTYPE_FLOAT32, clean, OVI_DTYPE_FLOAT32,
                    with_inf);
  folder = ovi_fixture_load_folder (f->dir);
  origins = ovi_dump_folder_find_origins (folder, NULL);
  g_assert_cmpuint (origins->len, ==, 2);
  g_assert_true (g_ptr_array_index (origins, 0) == find_file (folder, early));
  g_assert_true (g_ptr_array_index (origins, 1) == find_file (folder, o.cast));
  json = ovi_report_to_json (folder);
  root = parse_object (parser, json);
  g_assert_cmpstr (json_object_get_string_member (root, "first_origin_iteration"), ==, MODEL "/2");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "origins")), ==, 2);
  origins_clear (&o);
}

static void
test_ignore_list_load (Fixture *f, gconstpointer data)
{
  const char *text = "# operators that overflow by design\n"
                     "\n"
                     "   type:Cast   \n"
                     "\n"
                     "name:*uninit*\n"
                     "  # another comment\n"
                     "Relu*\n"
                     "\n";
  g_autofree char *path = g_build_filename (f->dir, "ignore.txt", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "missing.txt", NULL);
  g_autoptr (OviIgnoreList) list = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  list = ovi_ignore_list_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (list);
  g_assert_cmpuint (ovi_ignore_list_get_size (list), ==, 3);
  g_assert_true (ovi_ignore_list_matches (list, "Cast", "net/a"));
  g_assert_false (ovi_ignore_list_matches (list, "CastV2", "net/a"));
  g_assert_true (ovi_ignore_list_matches (list, "Mul", "scope/uninit_var"));
  g_assert_false (ovi_ignore_list_matches (list, "uninit", "scope/var")); /* name: only names */
  g_assert_true (ovi_ignore_list_matches (list, "Relu", "net/x"));        /* bare: type */
  g_assert_true (ovi_ignore_list_matches (list, "Add", "Relu_grad/Add")); /* bare: name */
  g_assert_false (ovi_ignore_list_matches (list, "Add", "net/Relu"));
  g_assert_false (ovi_ignore_list_matches (list, "#", "# another comment"));

  g_assert_null (ovi_ignore_list_load (missing, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "missing.txt"));
}

static JsonObject *
parse_object (JsonParser *parser, const char *json)
{
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (json);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

static JsonObject *
find_by (JsonArray *array, const char *key, const char *value)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);
      if (g_strcmp0 (json_object_get_string_member (o, key), value) == 0)
        return o;
    }
  return NULL;
}

static void
assert_first_bad_shape (JsonObject *tensor)
{
  JsonObject *fb = json_object_get_object_member (tensor, "first_bad");
  const char *keys[] = { "nan", "pos_inf", "neg_inf", "saturated" };

  g_assert_nonnull (fb);
  g_assert_cmpuint (json_object_get_size (fb), ==, 4);
  for (guint k = 0; k < 4; k++)
    {
      JsonNode *n = json_object_get_member (fb, keys[k]);
      g_assert_nonnull (n);
      if (!JSON_NODE_HOLDS_NULL (n))
        {
          JsonObject *o = json_node_get_object (n);
          g_assert_true (json_object_has_member (o, "index"));
          g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "coords")));
        }
    }
}

static void
test_report_json (Fixture *f, gconstpointer data)
{
  Origins o;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *root, *op, *cast_op, *tensor, *fb, *pos;
  JsonArray *origins, *abnormal, *records, *tensors;

  write_origins (f, &o);
  folder = ovi_fixture_load_folder (f->dir);
  json = ovi_report_to_json (folder);
  root = parse_object (parser, json);

  g_assert_cmpstr (json_object_get_string_member (root, "first_origin_iteration"), ==, MODEL "/10");
  origins = json_object_get_array_member (root, "origins");
  g_assert_cmpuint (json_array_get_length (origins), ==, 1);
  op = json_array_get_object_element (origins, 0);
  g_assert_cmpstr (json_object_get_string_member (op, "op_type"), ==, "Cast");
  g_assert_cmpstr (json_object_get_string_member (op, "op_name"), ==, "net/uninit_cast");
  g_assert_cmpstr (json_object_get_string_member (op, "class"), ==, "origin");
  g_assert_cmpstr (json_object_get_string_member (op, "iteration"), ==, MODEL "/10");
  g_assert_cmpint (json_object_get_int_member (op, "timestamp"), ==, 5100);
  g_assert_false (json_object_get_boolean_member (op, "ignored"));

  abnormal = json_object_get_array_member (root, "abnormal_operators");
  g_assert_cmpuint (json_array_get_length (abnormal), ==, 4); /* Cast, Abs, Relu, Select */
  g_assert_cmpstr (json_object_get_string_member (find_by (abnormal, "op_type", "Cast"), "class"),
                   ==, "origin");
  g_assert_cmpstr (json_object_get_string_member (find_by (abnormal, "op_type", "Abs"), "class"),
                   ==, "origin");
  g_assert_null (find_by (abnormal, "op_type", "Mul")); /* iteration 2's Mul is normal */
  g_assert_cmpstr (json_object_get_string_member (find_by (abnormal, "op_type", "Relu"), "class"),
                   ==, "propagated");
  g_assert_cmpstr (json_object_get_string_member (find_by (abnormal, "op_type", "Select"), "class"),
                   ==, "absorbed");
  g_assert_cmpstr (
      json_object_get_string_member (find_by (abnormal, "op_type", "Select"), "iteration"), ==,
      MODEL "/2");

  records = json_object_get_array_member (root, "records");
  g_assert_cmpuint (json_array_get_length (records), ==, 2);
  {
    JsonObject *r0 = json_array_get_object_element (records, 0);
    JsonObject *r1 = json_array_get_object_element (records, 1);
    g_assert_true (json_object_get_boolean_member (r0, "first"));
    g_assert_false (json_object_get_boolean_member (r0, "ignored"));
    g_assert_false (json_object_get_boolean_member (r1, "first"));
    g_assert_false (json_object_get_boolean_member (r1, "ignored"));
    cast_op = json_object_get_object_member (r0, "op");
    g_assert_cmpstr (json_object_get_string_member (cast_op, "op_type"), ==, "Cast");
    g_assert_cmpstr (json_object_get_string_member (cast_op, "class"), ==, "origin");
    g_assert_cmpstr (
        json_object_get_string_member (json_object_get_object_member (r1, "op"), "class"), ==,
        "origin");
  }
  tensors = json_object_get_array_member (cast_op, "tensors");
  g_assert_cmpuint (json_array_get_length (tensors), ==, 2);
  /* input: clean, every first_bad null */
  tensor = json_array_get_object_element (tensors, 0);
  g_assert_cmpstr (json_object_get_string_member (tensor, "kind"), ==, "input");
  assert_first_bad_shape (tensor);
  fb = json_object_get_object_member (tensor, "first_bad");
  g_assert_true (json_object_get_null_member (fb, "nan"));
  g_assert_true (json_object_get_null_member (fb, "pos_inf"));
  g_assert_true (json_object_get_null_member (fb, "neg_inf"));
  g_assert_true (json_object_get_null_member (fb, "saturated"));
  /* output: +inf at index 1 of [4] */
  tensor = json_array_get_object_element (tensors, 1);
  g_assert_cmpstr (json_object_get_string_member (tensor, "kind"), ==, "output");
  assert_first_bad_shape (tensor);
  g_assert_cmpint (json_object_get_int_member (tensor, "pos_inf"), ==, 1);
  fb = json_object_get_object_member (tensor, "first_bad");
  g_assert_true (json_object_get_null_member (fb, "nan"));
  pos = json_object_get_object_member (fb, "pos_inf");
  g_assert_cmpint (json_object_get_int_member (pos, "index"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (pos, "coords")), ==, 1);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (pos, "coords"), 0), ==,
                   1);

  /* with an ignore list, the report follows */
  {
    const char *pat[] = { "type:Cast", NULL };
    g_autoptr (OviIgnoreList) list = ovi_ignore_list_new (pat);
    g_autoptr (JsonParser) p2 = json_parser_new ();
    g_autofree char *json2 = NULL;
    JsonObject *root2, *r0, *r1;

    ovi_dump_folder_set_ignore_list (folder, list);
    json2 = ovi_report_to_json (folder);
    root2 = parse_object (p2, json2);
    records = json_object_get_array_member (root2, "records");
    r0 = json_array_get_object_element (records, 0);
    r1 = json_array_get_object_element (records, 1);
    g_assert_true (json_object_get_boolean_member (r0, "ignored"));
    g_assert_false (json_object_get_boolean_member (r0, "first"));
    g_assert_true (json_object_get_boolean_member (r1, "first"));
    origins = json_object_get_array_member (root2, "origins");
    g_assert_cmpuint (json_array_get_length (origins), ==, 1);
    g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (origins, 0), "op_type"), ==,
        "Abs");
    g_assert_true (json_object_get_boolean_member (
        find_by (json_object_get_array_member (root2, "abnormal_operators"), "op_type", "Cast"),
        "ignored"));
  }
  origins_clear (&o);
}

static JsonObject *
tensor_json (JsonNode **keep, OviTensor *t)
{
  *keep = ovi_report_tensor_json (t);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (*keep));
  return json_node_get_object (*keep);
}

static void
assert_locator (JsonObject *fb, const char *key, gint64 index, const gint64 *coords, guint n)
{
  JsonObject *o = json_object_get_object_member (fb, key);
  JsonArray *c;

  g_assert_nonnull (o);
  g_assert_cmpint (json_object_get_int_member (o, "index"), ==, index);
  c = json_object_get_array_member (o, "coords");
  g_assert_cmpuint (json_array_get_length (c), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (json_array_get_int_element (c, i), ==, coords[i]);
}

/* float32 [2,3,4]: NaN at 17 = (1,1,1), +inf at 23 = (1,2,3), -inf at 4 =
 * (0,1,0), FLT_MAX at 9 = (0,2,1). */
static void
test_locator (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "1", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Loc");
  const guint64 shape[] = { 2, 3, 4 };
  double v[24];
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *t, *fb;
  OviDumpFile *file;
  static const gint64 c17[] = { 1, 1, 1 }, c23[] = { 1, 2, 3 }, c4[] = { 0, 1, 0 },
                      c9[] = { 0, 2, 1 };

  for (guint i = 0; i < 24; i++)
    v[i] = i * 0.5;
  v[17] = NAN;
  v[20] = NAN;
  v[23] = INFINITY;
  v[4] = -INFINITY;
  v[9] = FLT_MAX;
  v[10] = -FLT_MAX;
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 3, v);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "Loc.net_Loc.1.1.100"));
  folder = ovi_fixture_load_folder (f->dir);
  file = find_file (folder, "Loc.net_Loc.1.1.100");
  t = tensor_json (&node, g_ptr_array_index (ovi_dump_file_get_tensors (file), 0));

  g_assert_cmpint (json_object_get_int_member (t, "nan"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (t, "pos_inf"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (t, "neg_inf"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (t, "saturated"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (t, "first_nonfinite"), ==, 4);
  g_assert_false (json_object_has_member (t, "logical_shape"));
  fb = json_object_get_object_member (t, "first_bad");
  assert_locator (fb, "nan", 17, c17, 3);
  assert_locator (fb, "pos_inf", 23, c23, 3);
  assert_locator (fb, "neg_inf", 4, c4, 3);
  assert_locator (fb, "saturated", 9, c9, 3);
}

/* NC1HWC0 device [1,1,2,2,16] holding NCHW [1,3,2,2]: NaN at logical
 * (0,2,1,0) = flat 10, stored at device ((1*2+0)*16 + 2) = 34; +inf at
 * logical (0,0,0,1) = flat 1, device 16. Padding channels hold -inf, which
 * must not be reported. */
static void
test_locator_nc1hwc0 (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "1", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Conv");
  const guint64 device[] = { 1, 1, 2, 2, 16 };
  const guint64 logical[] = { 1, 3, 2, 2 };
  double v[64];
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *t, *fb;
  JsonArray *ls;
  OviDumpFile *file;
  static const gint64 c10[] = { 0, 2, 1, 0 }, c1[] = { 0, 0, 0, 1 };

  for (guint hw = 0; hw < 4; hw++)
    for (guint c0 = 0; c0 < 16; c0++)
      v[hw * 16 + c0] = c0 < 3 ? c0 * 4 + hw : -INFINITY;
  v[34] = NAN;
  v[16] = INFINITY;
  bytes = ovi_fixture_encode (OVI_DTYPE_FLOAT16, v, 64);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, 3, device, 5, bytes);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, logical, 4);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "Conv2D.net_Conv.1.1.100"));
  folder = ovi_fixture_load_folder (f->dir);
  file = find_file (folder, "Conv2D.net_Conv.1.1.100");
  t = tensor_json (&node, g_ptr_array_index (ovi_dump_file_get_tensors (file), 0));

  g_assert_cmpstr (json_object_get_string_member (t, "format"), ==, "NC1HWC0");
  g_assert_cmpstr (json_object_get_string_member (t, "logical_format"), ==, "NCHW");
  ls = json_object_get_array_member (t, "logical_shape");
  g_assert_cmpuint (json_array_get_length (ls), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (json_array_get_int_element (ls, i), ==, logical[i]);
  fb = json_object_get_object_member (t, "first_bad");
  assert_locator (fb, "nan", 10, c10, 4);
  assert_locator (fb, "pos_inf", 1, c1, 4);
  g_assert_true (json_object_get_null_member (fb, "neg_inf"));
  g_assert_true (json_object_get_null_member (fb, "saturated"));
}

/* FRACTAL_NZ device (3, 2, 16, 16) holding ND (20, 35): NaN at logical
 * (17, 33) = flat 628, stored at [33/16][17/16][17%16][33%16] = 1297.
 * Padding holds -inf, which must not be reported. */
static void
test_locator_fractal_nz (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "1", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/MatMul");
  const guint64 device[] = { 3, 2, 16, 16 };
  const guint64 logical[] = { 20, 35 };
  g_autofree double *v = g_new (double, 1536);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *t, *fb;
  JsonArray *ls;
  OviDumpFile *file;
  static const gint64 c628[] = { 17, 33 };

  for (guint i = 0; i < 1536; i++)
    v[i] = -INFINITY;
  for (guint m = 0; m < 20; m++)
    for (guint n = 0; n < 35; n++)
      v[(((n / 16) * 2 + m / 16) * 16 + m % 16) * 16 + n % 16] = 1.0;
  v[1297] = NAN;
  bytes = ovi_fixture_encode (OVI_DTYPE_FLOAT16, v, 1536);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, 29, device, 4, bytes);
  ovi_dump_writer_set_original_shape (w, OVI_TENSOR_OUTPUT, 0, logical, 2);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "MatMul.net_MatMul.1.1.100"));
  folder = ovi_fixture_load_folder (f->dir);
  file = find_file (folder, "MatMul.net_MatMul.1.1.100");
  t = tensor_json (&node, g_ptr_array_index (ovi_dump_file_get_tensors (file), 0));

  g_assert_cmpstr (json_object_get_string_member (t, "format"), ==, "FRACTAL_NZ");
  g_assert_cmpstr (json_object_get_string_member (t, "logical_format"), ==, "ND");
  ls = json_object_get_array_member (t, "logical_shape");
  g_assert_cmpuint (json_array_get_length (ls), ==, 2);
  g_assert_cmpint (json_array_get_int_element (ls, 0), ==, 20);
  g_assert_cmpint (json_array_get_int_element (ls, 1), ==, 35);
  fb = json_object_get_object_member (t, "first_bad");
  assert_locator (fb, "nan", 628, c628, 2);
  g_assert_true (json_object_get_null_member (fb, "pos_inf"));
  g_assert_true (json_object_get_null_member (fb, "neg_inf"));
}

/* The CLI on the shipped example folder. */
static int
run_cli (char **out, ...)
{
  const char *cli = g_getenv ("OVI_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  va_list args;
  const char *arg;
  int status = -1;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, out);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", "C", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static JsonObject *
find_op (JsonArray *ops, const char *iteration, const char *op_type)
{
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *o = json_array_get_object_element (ops, i);
      if (g_str_equal (json_object_get_string_member (o, "iteration"), iteration) &&
          g_str_equal (json_object_get_string_member (o, "op_type"), op_type))
        return o;
    }
  return NULL;
}

#define EX_IT3 "20251202101500/0/resnet50_train/11/3"

static void
test_example_cli (Fixture *f, gconstpointer data)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *abnormal, *origins;
  int rc;

  rc = run_cli (&out, "report", "--json", example, NULL);
  g_assert_cmpint (rc, ==, 1); /* the example holds one truncated file */
  root = parse_object (parser, out);
  g_assert_cmpstr (json_object_get_string_member (root, "first_origin_iteration"), ==, EX_IT3);
  origins = json_object_get_array_member (root, "origins");
  g_assert_cmpuint (json_array_get_length (origins), >=, 1);
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (origins, 0), "op_type"), ==,
      "Cast");
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (origins, 0), "op_name"), ==,
      "gradients/Cast_3");
  abnormal = json_object_get_array_member (root, "abnormal_operators");
  g_assert_nonnull (find_op (abnormal, EX_IT3, "Cast"));
  g_assert_cmpstr (json_object_get_string_member (find_op (abnormal, EX_IT3, "Cast"), "class"), ==,
                   "origin");
  g_assert_cmpstr (json_object_get_string_member (find_op (abnormal, EX_IT3, "Add"), "class"), ==,
                   "propagated");
  g_assert_cmpstr (json_object_get_string_member (find_op (abnormal, EX_IT3, "Relu"), "class"), ==,
                   "propagated");
  g_assert_cmpstr (json_object_get_string_member (find_op (abnormal, EX_IT3, "Select"), "class"),
                   ==, "absorbed");
  /* MatMul and ReduceSum are clean: not listed */
  g_assert_null (find_op (abnormal, EX_IT3, "MatMul"));
  g_assert_null (find_op (abnormal, EX_IT3, "ReduceSum"));

  /* --ignore with type:Cast */
  {
    g_autofree char *ignore = g_build_filename (f->dir, "ignore.txt", NULL);
    g_autofree char *out2 = NULL;
    g_autoptr (JsonParser) p2 = json_parser_new ();
    JsonArray *records;
    JsonObject *r0, *r1;

    g_assert_true (g_file_set_contents (ignore, "# false positives\n\ntype:Cast\n", -1, NULL));
    rc = run_cli (&out2, "report", "--json", "--ignore", ignore, example, NULL);
    g_assert_cmpint (rc, ==, 1);
    root = parse_object (p2, out2);
    records = json_object_get_array_member (root, "records");
    g_assert_cmpuint (json_array_get_length (records), >=, 2);
    r0 = json_array_get_object_element (records, 0);
    r1 = json_array_get_object_element (records, 1);
    g_assert_cmpstr (
        json_object_get_string_member (json_object_get_object_member (r0, "op"), "op_type"), ==,
        "Cast");
    g_assert_true (json_object_get_boolean_member (r0, "ignored"));
    g_assert_false (json_object_get_boolean_member (r0, "first"));
    g_assert_false (json_object_get_boolean_member (r1, "ignored"));
    g_assert_true (json_object_get_boolean_member (r1, "first"));
    for (guint i = 2; i < json_array_get_length (records); i++)
      g_assert_false (
          json_object_get_boolean_member (json_array_get_object_element (records, i), "first"));
  }

  /* the text report with --ignore says so too */
  {
    g_autofree char *ignore = g_build_filename (f->dir, "ignore.txt", NULL);
    g_autofree char *text = NULL;
    rc = run_cli (&text, "report", "--ignore", ignore, example, NULL);
    g_assert_cmpint (rc, ==, 1);
    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "Cast"));
  }
}

/* The tensor that went bad first, as the window opens an operator on it:
 * an origin's output (its input is clean), a propagating operator's input,
 * nothing for a clean one, and nothing before the operator is summarised. */
static void
test_first_abnormal_tensor (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, MODEL, "3", NULL);
  g_autofree char *origin = write_op (iter, "Cast", "net/Cast", 1, 100, OVI_DTYPE_FLOAT32, clean,
                                      OVI_DTYPE_FLOAT32, with_inf);
  g_autofree char *propagated = write_op (iter, "Add", "net/Add", 2, 200, OVI_DTYPE_FLOAT32,
                                          with_nan, OVI_DTYPE_FLOAT32, with_nan);
  g_autofree char *normal =
      write_op (iter, "Mul", "net/Mul", 4, 400, OVI_DTYPE_FLOAT32, clean, OVI_DTYPE_FLOAT32, clean);
  g_autofree char *path = g_build_filename (iter, origin, NULL);
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (f->dir);
  g_autoptr (OviDumpFile) alone = ovi_dump_file_load (path, NULL, NULL);

  g_assert_nonnull (alone);
  g_assert_null (ovi_dump_file_get_summary (alone));
  g_assert_cmpint (ovi_classifier_first_abnormal_tensor (alone), ==, -1);
  g_assert_true (ovi_classifier_summarize (alone, NULL));
  g_assert_cmpint (ovi_classifier_first_abnormal_tensor (alone), ==, 1);

  /* A synchronous load classifies but leaves the summaries to whoever asks
   * (the window's load computes them in its workers). */
  g_assert_true (ovi_classifier_summarize (find_file (folder, origin), NULL));
  g_assert_true (ovi_classifier_summarize (find_file (folder, propagated), NULL));
  g_assert_true (ovi_classifier_summarize (find_file (folder, normal), NULL));
  g_assert_cmpint (ovi_classifier_first_abnormal_tensor (find_file (folder, origin)), ==, 1);
  g_assert_cmpint (ovi_classifier_first_abnormal_tensor (find_file (folder, propagated)), ==, 0);
  g_assert_cmpint (ovi_classifier_first_abnormal_tensor (find_file (folder, normal)), ==, -1);
}

/* A small dump file is read once: its summary takes the bytes the read of
 * its header found, so it is summed up even when the file is gone since;
 * a larger one reads its data then, and finds nothing. */
static void
test_small_file_read_once (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, MODEL, "4", NULL);
  g_autofree char *small = write_op (iter, "Cast", "net/Cast", 1, 100, OVI_DTYPE_FLOAT32, clean,
                                     OVI_DTYPE_FLOAT32, with_inf);
  g_autofree char *small_path = g_build_filename (iter, small, NULL);
  g_autofree char *large_path = g_build_filename (iter, "Add.net_Add.2.7.200", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Add");
  g_autoptr (OviDumpFile) small_file = NULL;
  g_autoptr (OviDumpFile) large_file = NULL;
  double values[256];
  const guint64 shape[] = { 256 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = i == 7 ? INFINITY : i;
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, values);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, values);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "Add.net_Add.2.7.200"));

  small_file = ovi_dump_file_load (small_path, NULL, NULL);
  large_file = ovi_dump_file_load (large_path, NULL, NULL);
  g_assert_nonnull (small_file);
  g_assert_nonnull (large_file);
  g_assert_no_errno (g_unlink (small_path));
  g_assert_no_errno (g_unlink (large_path));

  g_assert_true (ovi_classifier_summarize (small_file, NULL));
  g_assert_cmpuint (ovi_dump_file_get_summary (small_file)->inf, ==, 1);
  g_assert_true (ovi_classifier_summarize (large_file, NULL));
  g_assert_cmpuint (ovi_dump_file_get_summary (large_file)->inf, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/blame/classify", test_classify);
  ADD ("/core/blame/origins", test_origins);
  ADD ("/core/blame/origins-numeric-order", test_origins_numeric_order);
  ADD ("/core/blame/ignore-list-load", test_ignore_list_load);
  ADD ("/core/blame/report-json", test_report_json);
  ADD ("/core/blame/locator", test_locator);
  ADD ("/core/blame/locator-nc1hwc0", test_locator_nc1hwc0);
  ADD ("/core/blame/locator-fractal-nz", test_locator_fractal_nz);
  ADD ("/core/blame/example-cli", test_example_cli);
  ADD ("/core/blame/unsupported-dtype-only", test_unsupported_only);
  ADD ("/core/blame/first-abnormal-tensor", test_first_abnormal_tensor);
  ADD ("/core/blame/small-file-read-once", test_small_file_read_once);

  return g_test_run ();
}
