/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Dump folders opened at every level (dump-format.md section 1). */

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must be defined by meson"
#endif

typedef OviTmpDir Fixture;

/* An op dump file {type}.{name}.{task}.{stream}.{ts} in @dir. */
static void
write_op (
    const char *dir, const char *op_type, const char *op_name, guint task, guint stream, guint64 ts)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (op_name);
  g_autofree char *file_op = g_strdelimit (g_strdup (op_name), "./\\ ", '_');
  g_autofree char *name =
      g_strdup_printf ("%s.%s.%u.%u.%" G_GUINT64_FORMAT, op_type, file_op, task, stream, ts);
  const guint64 shape[] = { 3 };
  static const double v[] = { 1, 65504, -2 };

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 1, v);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, v);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name));
}

/* An overflow file with an AI Core record for @task/@stream. */
static void
write_overflow (const char *dir, guint task, guint stream, guint64 ts, guint64 status)
{
  OviClassicBlock core = { 11, stream, task, 0, 0x1000, 0x2000, 0, 0, status };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *name =
      g_strdup_printf ("Opdebug.Node_OpDebug.2.%u.%" G_GUINT64_FORMAT, stream, ts);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (ovi_write_overflow_file (path, p, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
}

static OviDumpFolder *
load (const char *path)
{
  g_autoptr (GFile) root = g_file_new_for_path (path);
  OviDumpFolder *folder = ovi_dump_folder_new (root);
  g_autoptr (GError) error = NULL;

  g_assert_true (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (ovi_dump_folder_get_loading (folder));
  return folder;
}

static guint
n_items (GListModel *model)
{
  return g_list_model_get_n_items (model);
}

static OviDumpFile *
find_file (OviDumpFolder *folder, const char *name)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  for (guint i = 0; i < n_items (files); i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      if (g_str_equal (ovi_dump_file_get_name (f), name))
        return f; /* the folder keeps its reference */
    }
  return NULL;
}

static void
assert_hierarchy (OviDumpFile *file,
                  const char *time,
                  const char *device,
                  const char *model,
                  const char *iteration)
{
  g_assert_nonnull (file);
  g_assert_cmpstr (ovi_dump_file_get_time (file), ==, time);
  g_assert_cmpstr (ovi_dump_file_get_device (file), ==, device);
  g_assert_cmpstr (ovi_dump_file_get_model (file), ==, model);
  g_assert_cmpstr (ovi_dump_file_get_iteration (file), ==, iteration);
}

/* {dump_path}/{time}/{device}/{model_id}/{iteration}/ opened at each level. */
static void
test_levels (Fixture *f, gconstpointer data)
{
  g_autofree char *time = g_build_filename (f->dir, "20200808163566", NULL);
  g_autofree char *iter = g_build_filename (time, "0", "11", "3", NULL);
  const char *roots[3];

  write_op (iter, "Cast", "net/Cast_1", 57, 7, 100);
  write_overflow (iter, 57, 7, 200, 272);
  roots[0] = f->dir;
  roots[1] = time;
  roots[2] = iter;

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (OviDumpFolder) folder = load (roots[i]);
      OviDumpFile *op = find_file (folder, "Cast.net_Cast_1.57.7.100");
      g_autoptr (OviOverflowRecord) r = NULL;
      static const char *const rel_dirs[] = { "20200808163566/0/11/3", "0/11/3", "" };
      g_autofree char *rel_path = NULL;

      g_assert_cmpstr (ovi_dump_folder_get_root_path (folder), ==, roots[i]);
      g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 2);
      g_assert_cmpuint (n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
      assert_hierarchy (op, "20200808163566", "0", "11", "3");
      g_assert_cmpstr (ovi_dump_file_get_relative_dir (op), ==, rel_dirs[i]);
      rel_path = *rel_dirs[i] ? g_build_filename (rel_dirs[i], "Cast.net_Cast_1.57.7.100", NULL)
                              : g_strdup ("Cast.net_Cast_1.57.7.100");
      g_assert_cmpstr (ovi_dump_file_get_relative_path (op), ==, rel_path);
      g_assert_cmpstr (ovi_dump_file_get_op_name (op), ==, "net/Cast_1");
      g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 1);
      r = g_list_model_get_item (ovi_dump_folder_get_records (folder), 0);
      g_assert_true (ovi_overflow_record_get_op (r) == op);
      g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 272);
      g_assert_true (ovi_overflow_record_get_is_first (r));

      /* loading again replaces, not appends */
      g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
      g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 2);
      g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 1);
    }
}

/* Current CANN: {time}/{device}/{model_name}/{model_id}/{iter}; wrapped
 * trees; MindSpore's rank_0/debug_files/{iter}. */
static void
test_model_name_levels (Fixture *f, gconstpointer data)
{
  g_autofree char *cann =
      g_build_filename (f->dir, "cann", "20251202101500", "1", "resnet50", "11", "7", NULL);
  g_autofree char *wrapped = g_build_filename (f->dir, "wrap", "rank_3", "20261202101501", "step_2",
                                               "20261202101502", "5", "bert", "12", "9", NULL);
  g_autofree char *ms = g_build_filename (f->dir, "ms", "rank_0", "debug_files", "42", NULL);
  g_autofree char *no_time = g_build_filename (f->dir, "plain", "2", "13", "4", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;

  write_op (cann, "A", "a", 1, 1, 1);
  write_op (wrapped, "B", "b", 1, 1, 1);
  write_op (ms, "C", "c", 1, 1, 1);
  write_op (no_time, "D", "d", 1, 1, 1);
  folder = load (f->dir);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 4);
  assert_hierarchy (find_file (folder, "A.a.1.1.1"), "20251202101500", "1", "resnet50/11", "7");
  assert_hierarchy (find_file (folder, "B.b.1.1.1"), "20261202101502", "5", "bert/12", "9");
  assert_hierarchy (find_file (folder, "C.c.1.1.1"), "", "", "", "42");
  assert_hierarchy (find_file (folder, "D.d.1.1.1"), "", "2", "13", "4");
  g_assert_cmpstr (ovi_dump_file_get_relative_dir (find_file (folder, "C.c.1.1.1")), ==,
                   "ms/rank_0/debug_files/42");

  /* opened at the MindSpore iteration folder itself */
  {
    g_autoptr (OviDumpFolder) one = load (ms);
    OviDumpFile *c = find_file (one, "C.c.1.1.1");
    assert_hierarchy (c, "", "", "", "42");
    g_assert_cmpstr (ovi_dump_file_get_relative_dir (c), ==, "");
  }
}

/* Iteration 9 before 10, then timestamps; positions follow. */
static void
test_record_order (Fixture *f, gconstpointer data)
{
  g_autofree char *base = g_build_filename (f->dir, "20251202101500", "0", "11", NULL);
  g_autofree char *i9 = g_build_filename (base, "9", NULL);
  g_autofree char *i10 = g_build_filename (base, "10", NULL);
  g_autofree char *i100 = g_build_filename (base, "100", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *records;
  static const struct
  {
    const char *iter;
    guint64 ts;
    guint64 status;
  } expected[] = {
    { "9", 900, 0x20 },   { "9", 950, 0x10 }, { "10", 100, 0x100 },
    { "10", 500, 0x400 }, { "100", 50, 0x8 },
  };

  write_overflow (i10, 20, 1, 500, 0x400);
  write_overflow (i10, 21, 1, 100, 0x100);
  write_overflow (i9, 10, 1, 950, 0x10);
  write_overflow (i9, 11, 1, 900, 0x20);
  write_overflow (i100, 12, 1, 50, 0x8);
  write_op (i9, "Cast", "c", 10, 1, 940);
  folder = load (f->dir);
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (n_items (records), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (r);
      g_assert_cmpstr (ovi_dump_file_get_iteration (file), ==, expected[i].iter);
      g_assert_cmpuint (ovi_dump_file_get_timestamp (file), ==, expected[i].ts);
      g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, expected[i].status);
      g_assert_cmpuint (ovi_overflow_record_get_position (r), ==, i);
      g_assert_cmpint (ovi_overflow_record_get_is_first (r), ==, i == 0);
      if (i == 1)
        g_assert_cmpstr (ovi_dump_file_get_name (ovi_overflow_record_get_op (r)), ==,
                         "Cast.c.10.1.940");
      else
        g_assert_null (ovi_overflow_record_get_op (r));
    }
  {
    OviScanProgress p;
    ovi_dump_folder_get_progress (folder, &p);
    g_assert_cmpuint (p.files_seen, ==, 6);
    g_assert_cmpuint (p.dump_files, ==, 6);
    g_assert_cmpuint (p.overflow_records, ==, 5);
    g_assert_cmpuint (p.problems, ==, 0);
  }
}

/* A folder big enough to be read on several threads: every file loads
 * once, in natural name order, records find their ops. */
static void
test_many_files (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "20251202101500", "0", "11", "7", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *files, *problems, *records;
  const guint n_ops = 150, n_broken = 12;

  for (guint i = 0; i < n_ops; i++)
    write_op (iter, "Op", "o", i, 1, 1000 + i);
  for (guint i = 0; i < n_broken; i++)
    {
      g_autofree char *name = g_strdup_printf ("Bad.b.%u.1.%u", i, 5000 + i);
      g_free (ovi_fixture_write_bytes (iter, name, "\x01\x02\x03", 3));
    }
  write_overflow (iter, 7, 1, 9000, 0x20);
  write_overflow (iter, 149, 1, 9001, 0x10);
  write_overflow (iter, 150, 1, 9002, 0x8);

  folder = load (f->dir);
  files = ovi_dump_folder_get_files (folder);
  problems = ovi_dump_folder_get_problems (folder);
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (n_items (files), ==, n_ops + 3);
  g_assert_cmpuint (n_items (problems), ==, n_broken);
  g_assert_cmpuint (n_items (records), ==, 3);

  for (guint i = 0; i < n_ops; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      g_autofree char *name = g_strdup_printf ("Op.o.%u.1.%u", i, 1000 + i);
      g_assert_cmpstr (ovi_dump_file_get_name (file), ==, name);
      g_assert_cmpuint (ovi_dump_file_get_task_id (file), ==, i);
      assert_hierarchy (file, "20251202101500", "0", "11", "7");
      g_assert_cmpuint (
          ovi_tensor_get_count (g_ptr_array_index (ovi_dump_file_get_tensors (file), 0)), ==, 3);
    }
  for (guint i = 0; i < n_broken; i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      g_autofree char *name = g_strdup_printf ("20251202101500/0/11/7/Bad.b.%u.1.%u", i, 5000 + i);
      g_assert_cmpstr (ovi_problem_get_file (p), ==, name);
      g_assert_nonnull (strstr (ovi_problem_get_message (p), "truncated: 3 bytes"));
    }
  {
    g_autoptr (OviOverflowRecord) r0 = g_list_model_get_item (records, 0);
    g_autoptr (OviOverflowRecord) r1 = g_list_model_get_item (records, 1);
    g_autoptr (OviOverflowRecord) r2 = g_list_model_get_item (records, 2);
    g_assert_cmpstr (ovi_dump_file_get_name (ovi_overflow_record_get_op (r0)), ==, "Op.o.7.1.1007");
    g_assert_cmpstr (ovi_dump_file_get_name (ovi_overflow_record_get_op (r1)), ==,
                     "Op.o.149.1.1149");
    g_assert_null (ovi_overflow_record_get_op (r2));
  }
}

/* One file as the root. */
static void
test_single_file (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "20251202101500", "0", "11", "3", NULL);
  g_autofree char *op_path = NULL;
  g_autofree char *of_path = NULL;

  write_op (iter, "Cast", "c", 57, 7, 100);
  write_overflow (iter, 57, 7, 200, 272);
  op_path = g_build_filename (iter, "Cast.c.57.7.100", NULL);
  of_path = g_build_filename (iter, "Opdebug.Node_OpDebug.2.7.200", NULL);

  {
    g_autoptr (OviDumpFolder) folder = load (op_path);
    OviDumpFile *op;
    g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 1);
    g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 0);
    op = find_file (folder, "Cast.c.57.7.100");
    assert_hierarchy (op, "20251202101500", "0", "11", "3");
    g_assert_cmpstr (ovi_dump_file_get_relative_path (op), ==, "Cast.c.57.7.100");
    g_assert_cmpstr (ovi_dump_file_get_relative_dir (op), ==, "");
    g_assert_true (ovi_dump_folder_contains_path (folder, op_path));
  }
  {
    g_autoptr (OviDumpFolder) folder = load (of_path);
    g_autoptr (OviOverflowRecord) r = NULL;
    g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 1);
    g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 1);
    r = g_list_model_get_item (ovi_dump_folder_get_records (folder), 0);
    g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 57);
    g_assert_null (ovi_overflow_record_get_op (r));
  }
  /* A file opened on its own is read whatever its name: a renamed dump
   * loads, a text file is a problem; a path that does not exist fails. */
  {
    g_autofree char *readme = ovi_fixture_write_bytes (f->dir, "README", "hi", 2);
    g_autofree char *renamed = g_build_filename (f->dir, "renamed.bin", NULL);
    g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);
    g_autoptr (GFile) r1 = g_file_new_for_path (readme);
    g_autoptr (GFile) r2 = g_file_new_for_path (missing);
    g_autoptr (OviDumpFolder) f1 = ovi_dump_folder_new (r1);
    g_autoptr (OviDumpFolder) f2 = ovi_dump_folder_new (r2);
    g_autoptr (OviDumpFolder) f3 = NULL;
    g_autoptr (OviProblem) problem = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *contents = NULL;
    gsize length;
    OviDumpFile *file;

    g_assert_true (ovi_dump_folder_load (f1, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (n_items (ovi_dump_folder_get_files (f1)), ==, 0);
    g_assert_cmpuint (n_items (ovi_dump_folder_get_problems (f1)), ==, 1);
    problem = g_list_model_get_item (ovi_dump_folder_get_problems (f1), 0);
    g_assert_cmpstr (ovi_problem_get_file (problem), ==, "README");
    g_assert_nonnull (strstr (ovi_problem_get_message (problem), "truncated: 2 bytes"));

    g_assert_true (g_file_get_contents (op_path, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (renamed, contents, length, NULL));
    f3 = load (renamed);
    g_assert_cmpuint (n_items (ovi_dump_folder_get_files (f3)), ==, 1);
    file = find_file (f3, "renamed.bin");
    g_assert_nonnull (file);
    g_assert_cmpint (ovi_dump_file_get_kind (file), ==, OVI_FILE_KIND_NONE);
    g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "c");
    g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 2);

    g_assert_false (ovi_dump_folder_load (f2, NULL, &error));
    g_assert_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND);
  }
}

/* mapping.csv restores the long name; non-dumps are ignored silently;
 * broken files are problems while the rest loads. */
static void
test_mapping_and_problems (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "20251202101500", "0", "11", "3", NULL);
  g_autofree char *long_op = g_strnfill (250, 'x');
  g_autofree char *long_name = g_strdup_printf ("AssignAdd.scope_%s.210.3.777", long_op);
  g_autofree char *mapping = g_strdup_printf ("1,%s\r\n2,Short.s.1.2.3\n", long_name);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/long/AssignAdd");
  const guint64 shape[] = { 2 };
  static const double v[] = { 1, 2 };
  g_autoptr (OviDumpFolder) folder = NULL;
  OviDumpFile *mapped;
  GListModel *problems;
  g_autoptr (OviProblem) p0 = NULL;
  g_autoptr (OviProblem) p1 = NULL;
  g_autoptr (GBytes) whole = NULL;
  g_autofree char *broken_rel = NULL;

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "1"));
  g_free (ovi_fixture_write_bytes (iter, "mapping.csv", mapping, strlen (mapping)));
  g_free (ovi_fixture_write_bytes (iter, "statistic.csv", "Op Type,Op Name\n", 16));
  g_free (ovi_fixture_write_bytes (iter, "Add.op.1.2.3.output.0.npy", "\x93NUMPY", 6));
  g_free (ovi_fixture_write_bytes (iter, "acl_dump_0.json", "{}", 2));
  g_free (ovi_fixture_write_bytes (iter, "notes.txt", "x", 1));
  write_op (iter, "Add", "a", 5, 3, 700);
  whole = ovi_dump_writer_build (w, OVI_LAYOUT_NEW);
  g_free (ovi_fixture_write_bytes (iter, "Sub.s.6.3.800", g_bytes_get_data (whole, NULL),
                                   g_bytes_get_size (whole) - 4));
  g_free (ovi_fixture_write_bytes (iter, "Mul.m.7.3.900", "", 0));

  folder = load (f->dir);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 2);
  mapped = find_file (folder, long_name);
  g_assert_nonnull (mapped);
  g_assert_cmpstr (ovi_dump_file_get_op_type (mapped), ==, "AssignAdd");
  g_assert_cmpstr (ovi_dump_file_get_op_name (mapped), ==, "scope/long/AssignAdd");
  g_assert_cmpuint (ovi_dump_file_get_task_id (mapped), ==, 210);
  g_assert_cmpuint (ovi_dump_file_get_stream_id (mapped), ==, 3);
  g_assert_cmpuint (ovi_dump_file_get_timestamp (mapped), ==, 777);
  g_assert_true (g_str_has_suffix (ovi_dump_file_get_path (mapped), "/3/1"));
  g_assert_cmpstr (ovi_dump_file_get_relative_path (mapped), ==, "20251202101500/0/11/3/1");
  g_assert_nonnull (find_file (folder, "Add.a.5.3.700"));

  problems = ovi_dump_folder_get_problems (folder);
  g_assert_cmpuint (n_items (problems), ==, 2);
  p0 = g_list_model_get_item (problems, 0);
  p1 = g_list_model_get_item (problems, 1);
  g_assert_cmpstr (ovi_problem_get_file (p0), ==, "20251202101500/0/11/3/Mul.m.7.3.900");
  g_assert_nonnull (strstr (ovi_problem_get_message (p0), "truncated: 0 bytes"));
  broken_rel = g_build_filename ("20251202101500", "0", "11", "3", "Sub.s.6.3.800", NULL);
  g_assert_cmpstr (ovi_problem_get_file (p1), ==, broken_rel);
  g_assert_nonnull (strstr (ovi_problem_get_message (p1), "truncated"));

  {
    OviScanProgress p;
    ovi_dump_folder_get_progress (folder, &p);
    g_assert_cmpuint (p.files_seen, ==, 9);
    g_assert_cmpuint (p.dump_files, ==, 2);
    g_assert_cmpuint (p.problems, ==, 2);
  }
}

static void
test_parse_mapping (void)
{
  const char *csv = "1,A.a.1.2.3\r\n22,B.b.4.5.6\nbad line\n,empty\n3,\n4,C.c,with,commas.1.2.3";
  g_autoptr (GHashTable) map = ovi_mapping_csv_parse (csv, strlen (csv));

  g_assert_cmpuint (g_hash_table_size (map), ==, 3);
  g_assert_cmpstr (g_hash_table_lookup (map, "1"), ==, "A.a.1.2.3");
  g_assert_cmpstr (g_hash_table_lookup (map, "22"), ==, "B.b.4.5.6");
  g_assert_cmpstr (g_hash_table_lookup (map, "4"), ==, "C.c,with,commas.1.2.3");
}

/* dir/loop -> .. must not make the scan run forever or count twice. */
static void
test_symlink_loop (Fixture *f, gconstpointer data)
{
  g_autofree char *sub = g_build_filename (f->dir, "0", "11", "3", NULL);
  g_autofree char *loop = g_build_filename (sub, "loop", NULL);
  g_autofree char *self_loop = g_build_filename (sub, "self", NULL);
  g_autofree char *dangling = g_build_filename (sub, "dangling", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;

  write_op (sub, "Add", "a", 1, 2, 3);
  write_overflow (sub, 1, 2, 4, 0x20);
  g_assert_no_errno (symlink ("..", loop));
  g_assert_no_errno (symlink (".", self_loop));
  g_assert_no_errno (symlink ("nowhere", dangling));
  folder = load (f->dir);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 2);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
}

/* File names that are not UTF-8. */
static void
test_non_utf8 (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("op");
  const guint64 shape[] = { 1 };
  static const double v[] = { 1 };
  g_autofree char *good = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviProblem) p = NULL;
  g_autofree char *report = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) parsed = NULL;
  OviDumpFile *file;

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  good = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Add.op\xff.1.2.3");
  bad = g_build_filename (f->dir, "Sub.op\xfe.1.2.4", NULL);
  g_assert_true (g_file_set_contents (bad, "garbage", 7, NULL));
  g_assert_true (g_file_test (good, G_FILE_TEST_IS_REGULAR));

  folder = load (f->dir);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 1);
  file = find_file (folder, "Add.op\xff.1.2.3");
  g_assert_nonnull (file);
  g_assert_cmpstr (ovi_dump_file_get_path (file), ==, good);
  g_assert_cmpuint (ovi_dump_file_get_task_id (file), ==, 1);
  g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==, "op");
  g_assert_cmpuint (n_items (ovi_dump_folder_get_problems (folder)), ==, 1);
  p = g_list_model_get_item (ovi_dump_folder_get_problems (folder), 0);
  g_assert_true (g_utf8_validate (ovi_problem_get_file (p), -1, NULL));
  g_assert_true (g_str_has_prefix (ovi_problem_get_file (p), "Sub.op"));
  g_assert_true (g_str_has_suffix (ovi_problem_get_file (p), ".1.2.4"));

  /* the report stays valid UTF-8 JSON */
  report = ovi_report_to_json (folder);
  g_assert_true (g_utf8_validate (report, -1, NULL));
  parsed = json_from_string (report, &error);
  g_assert_no_error (error);
}

static void
test_contains_path (Fixture *f, gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "dump", NULL);
  g_autofree char *child = g_build_filename (root, "0", "11", NULL);
  g_autofree char *sibling = g_build_filename (f->dir, "dump2", NULL);
  g_autofree char *sibling_new = g_build_filename (f->dir, "dump-out", "x", "y", NULL);
  g_autofree char *new_child = g_build_filename (root, "new", "deeper", NULL);
  g_autofree char *dotdot = g_build_filename (root, "0", "..", "..", "dump2", NULL);
  g_autofree char *link = g_build_filename (f->dir, "link-to-child", NULL);
  g_autofree char *via_link = g_build_filename (link, "out", NULL);
  g_autoptr (GFile) file = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;

  g_assert_no_errno (g_mkdir_with_parents (child, 0755));
  g_assert_no_errno (g_mkdir_with_parents (sibling, 0755));
  g_assert_no_errno (symlink (child, link));
  file = g_file_new_for_path (root);
  folder = ovi_dump_folder_new (file);

  g_assert_true (ovi_dump_folder_contains_path (folder, root));
  g_assert_true (ovi_dump_folder_contains_path (folder, child));
  g_assert_true (ovi_dump_folder_contains_path (folder, new_child));
  g_assert_true (ovi_dump_folder_contains_path (folder, via_link));
  g_assert_false (ovi_dump_folder_contains_path (folder, sibling));
  g_assert_false (ovi_dump_folder_contains_path (folder, sibling_new));
  g_assert_false (ovi_dump_folder_contains_path (folder, dotdot));
  g_assert_false (ovi_dump_folder_contains_path (folder, f->dir));
  g_assert_false (ovi_dump_folder_contains_path (folder, "/"));
}

/* ---- async ---- */

typedef struct
{
  GMainLoop *loop;
  gboolean finished;
  gboolean ok;
  guint items_changed;
  guint added;
  GError *error;
} AsyncState;

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  AsyncState *s = data;
  s->items_changed++;
  s->added += added;
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncState *s = data;
  s->ok = ovi_dump_folder_load_finish (OVI_DUMP_FOLDER (source), result, &s->error);
  s->finished = TRUE;
  g_main_loop_quit (s->loop);
}

static gboolean
on_timeout (gpointer data)
{
  g_assert_not_reached ();
  return G_SOURCE_REMOVE;
}

static void
test_load_async (Fixture *f, gconstpointer data)
{
  g_autofree char *i3 = g_build_filename (f->dir, "20251202101500", "0", "11", "3", NULL);
  g_autofree char *i4 = g_build_filename (f->dir, "20251202101500", "0", "11", "4", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (f->dir);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  AsyncState s = { 0 };
  guint timeout;
  g_autoptr (OviOverflowRecord) first = NULL;

  write_op (i3, "Cast", "c", 57, 7, 100);
  write_overflow (i3, 57, 7, 200, 272);
  write_overflow (i4, 58, 7, 50, 0x20);
  s.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (ovi_dump_folder_get_records (folder), "items-changed",
                    G_CALLBACK (on_items_changed), &s);
  ovi_dump_folder_load_async (folder, NULL, on_loaded, &s);
  g_assert_true (ovi_dump_folder_get_loading (folder));
  timeout = g_timeout_add_seconds (20, on_timeout, NULL);
  g_main_loop_run (s.loop);
  g_source_remove (timeout);

  g_assert_true (s.finished);
  g_assert_no_error (s.error);
  g_assert_true (s.ok);
  g_assert_false (ovi_dump_folder_get_loading (folder));
  g_assert_cmpuint (s.items_changed, >=, 1);
  g_assert_cmpuint (s.added, ==, 2);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 2);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 3);
  first = g_list_model_get_item (ovi_dump_folder_get_records (folder), 0);
  g_assert_cmpuint (ovi_overflow_record_get_status (first), ==, 272);
  g_assert_cmpstr (ovi_dump_file_get_op_type (ovi_overflow_record_get_op (first)), ==, "Cast");
  g_main_loop_unref (s.loop);

  /* a missing root fails through the finish function */
  {
    g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);
    g_autoptr (GFile) r2 = g_file_new_for_path (missing);
    g_autoptr (OviDumpFolder) f2 = ovi_dump_folder_new (r2);
    AsyncState s2 = { 0 };

    s2.loop = g_main_loop_new (NULL, FALSE);
    ovi_dump_folder_load_async (f2, NULL, on_loaded, &s2);
    g_main_loop_run (s2.loop);
    g_assert_false (s2.ok);
    g_assert_error (s2.error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND);
    g_clear_error (&s2.error);
    g_main_loop_unref (s2.loop);
  }
}

/* What a paced caller does when results wait: takes them in, 128 files at
 * a time. */
static void
apply_in_slices (OviDumpFolder *folder, gpointer unused)
{
  while (ovi_dump_folder_apply_results (folder, 128))
    ;
}

/* A folder big enough to arrive in several slices when the caller takes
 * them in at its pace: the callback runs only once all of them are in the
 * stores, and a cancelled load reports it. */
static void
test_load_async_batches (Fixture *f, gconstpointer data)
{
  g_autofree char *i3 = g_build_filename (f->dir, "0", "11", "3", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (f->dir);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (OviDumpFolder) again = ovi_dump_folder_new (root);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  AsyncState s = { 0 }, c = { 0 };

  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *name = g_strdup_printf ("op_%03u", i);
      write_op (i3, "Add", name, i + 1, 7, 1000 + i);
    }
  write_overflow (i3, 600, 7, 5000, 272);
  s.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (ovi_dump_folder_get_files (folder), "items-changed",
                    G_CALLBACK (on_items_changed), &s);
  ovi_dump_folder_set_paced (folder, TRUE);
  g_signal_connect (folder, "results-waiting", G_CALLBACK (apply_in_slices), NULL);
  ovi_dump_folder_load_async (folder, NULL, on_loaded, &s);
  g_main_loop_run (s.loop);
  g_assert_no_error (s.error);
  g_assert_true (s.ok);
  /* on_loaded quit the loop: these are the counts its callback saw; 601
   * files of one folder come in 5 slices of at most 128 */
  g_assert_cmpuint (s.items_changed, >=, 5);
  g_assert_cmpuint (s.added, ==, 601);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  g_main_loop_unref (s.loop);

  c.loop = g_main_loop_new (NULL, FALSE);
  g_cancellable_cancel (cancellable);
  ovi_dump_folder_load_async (again, cancellable, on_loaded, &c);
  g_main_loop_run (c.loop);
  g_assert_false (c.ok);
  g_assert_error (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (ovi_dump_folder_get_loading (again));
  g_clear_error (&c.error);
  g_main_loop_unref (c.loop);
}

/* A cancelled scan stops with G_IO_ERROR_CANCELLED. */
static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autofree char *i3 = g_build_filename (f->dir, "0", "11", "3", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (f->dir);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;

  write_op (i3, "Cast", "c", 57, 7, 100);
  g_cancellable_cancel (cancellable);
  g_assert_false (ovi_dump_folder_load (folder, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A nano dump beside an ordinary one: listed among the problems as a nano
 * dump, the rest of the folder read as usual. */
static void
test_nano_in_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "0", NULL);
  g_autofree char *nano = g_build_filename (iter, "Mul.nano.8.3.750", NULL);
  g_autoptr (GBytes) entries = g_bytes_new_static ("\4\0\0\0\0\0\0\0", 8);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviProblem) problem = NULL;
  g_autoptr (GError) error = NULL;

  write_op (iter, "Add", "a", 5, 3, 700);
  g_assert_true (ovi_write_nano_file (nano, 8, 1, entries, &error));
  g_assert_no_error (error);
  folder = load (f->dir);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_files (folder)), ==, 1);
  g_assert_cmpuint (n_items (ovi_dump_folder_get_problems (folder)), ==, 1);
  problem = g_list_model_get_item (ovi_dump_folder_get_problems (folder), 0);
  g_assert_cmpstr (ovi_problem_get_file (problem), ==, "0/Mul.nano.8.3.750");
  g_assert_true (g_str_has_prefix (ovi_problem_get_message (problem),
                                   "this is a nano (TLV) dump (version 1); its tensors cannot "
                                   "be read because the format notes do not document"));
}

/* The report's JSON carries the header fields of the newer schema for
 * the operator a record links to, and leaves them out where absent. */
static void
test_schema_fields_report (Fixture *f, gconstpointer data)
{
  g_autofree char *iter = g_build_filename (f->dir, "0", NULL);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("scope/matmul");
  const guint64 shape[] = { 2 };
  static const double v[] = { 1, 2 };
  g_autoptr (GBytes) log = g_bytes_new_static ("0123456789", 10);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  JsonObject *op, *attr, *space, *out;
  JsonArray *records;

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_SPACE, OVI_DTYPE_UINT8, 2, NULL, 0, log);
  ovi_dump_writer_set_arg_index (w, OVI_TENSOR_OUTPUT, 0, 1);
  ovi_dump_writer_set_arg_index (w, OVI_TENSOR_SPACE, 0, 3);
  ovi_dump_writer_add_attr (w, "tiling_key", "7");
  ovi_dump_writer_set_dfx_message (w, "args of the kernel");
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, iter, "MatMul.scope_matmul.5.3.700"));
  write_op (iter, "Add", "a", 6, 3, 710);
  write_overflow (iter, 5, 3, 800, 0x20);
  write_overflow (iter, 6, 3, 900, 0x20);

  folder = load (f->dir);
  json = ovi_report_to_json (folder);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  records = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "records");
  g_assert_cmpuint (json_array_get_length (records), ==, 2);

  op = json_object_get_object_member (json_array_get_object_element (records, 0), "op");
  g_assert_cmpstr (json_object_get_string_member (op, "op_type"), ==, "MatMul");
  g_assert_cmpstr (json_object_get_string_member (op, "dfx_message"), ==, "args of the kernel");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (op, "attrs")), ==, 1);
  attr = json_array_get_object_element (json_object_get_array_member (op, "attrs"), 0);
  g_assert_cmpstr (json_object_get_string_member (attr, "name"), ==, "tiling_key");
  g_assert_cmpstr (json_object_get_string_member (attr, "value"), ==, "7");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (op, "workspaces")), ==, 1);
  space = json_array_get_object_element (json_object_get_array_member (op, "workspaces"), 0);
  g_assert_cmpint (json_object_get_int_member (space, "index"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (space, "type"), ==, "LOG");
  g_assert_cmpint (json_object_get_int_member (space, "size"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (space, "arg_index"), ==, 3);
  out = json_array_get_object_element (json_object_get_array_member (op, "tensors"), 1);
  g_assert_cmpstr (json_object_get_string_member (out, "kind"), ==, "output");
  g_assert_cmpint (json_object_get_int_member (out, "arg_index"), ==, 1);

  /* An operator without them has none of the keys. */
  op = json_object_get_object_member (json_array_get_object_element (records, 1), "op");
  g_assert_cmpstr (json_object_get_string_member (op, "op_type"), ==, "Add");
  g_assert_false (json_object_has_member (op, "dfx_message"));
  g_assert_false (json_object_has_member (op, "attrs"));
  g_assert_false (json_object_has_member (op, "workspaces"));
}

/* The example folder shipped with the app (data/example-dump). */
static void
test_example (void)
{
  g_autofree char *path = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autoptr (OviDumpFolder) folder = load (path);
  GListModel *records = ovi_dump_folder_get_records (folder);
  static const char *const units[] = { "AI Core", "DHA Atomic Add", "AIC",  "AIV",
                                       "AICPU",   "L2 Atomic Add",  "SDMA", "Data" };
  static const char *const iterations[] = { "3", "3", "4", "4", "4", "10", "10", "12" };
  static const char *const op_types[] = { "Cast", "ReduceSum", "Conv2D",    "BatchMatMul",
                                          NULL,   "Mul",       "AssignAdd", "Cast" };
  g_autoptr (OviProblem) problem = NULL;

  g_assert_cmpuint (n_items (records), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *op = ovi_overflow_record_get_op (r);

      g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, units[i]);
      g_assert_cmpstr (ovi_dump_file_get_iteration (ovi_overflow_record_get_file (r)), ==,
                       iterations[i]);
      g_assert_cmpstr (ovi_dump_file_get_time (ovi_overflow_record_get_file (r)), ==,
                       "20251202101500");
      g_assert_cmpstr (ovi_dump_file_get_model (ovi_overflow_record_get_file (r)), ==,
                       "resnet50_train/11");
      if (op_types[i])
        g_assert_cmpstr (ovi_dump_file_get_op_type (op), ==, op_types[i]);
      else
        g_assert_null (op);
      if (i == 0)
        {
          g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 272);
          g_assert_cmpstr (ovi_dump_file_get_op_name (op), ==, "gradients/Cast_3");
          g_assert_cmpstr (ovi_dump_file_get_name (op), ==,
                           "Cast.gradients_Cast_3.57.7.1764670500000200");
        }
      /* Iteration 12 has no Opdebug file: its Cast is found in the data. */
      g_assert_cmpint (ovi_overflow_record_get_source (r), ==,
                       i == 7 ? OVI_RECORD_SOURCE_DATA : OVI_RECORD_SOURCE_OVERFLOW_FILE);
      g_assert_true (ovi_overflow_record_get_is_first (r) == (i == 0));
      if (i == 7)
        {
          g_assert_true (ovi_dump_file_get_statistics_only (op));
          g_assert_cmpstr (ovi_dump_file_get_name (op), ==,
                           "Cast.gradients_Cast_3.57.7.1764671600000200");
          g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 11);
        }
      if (i == 2)
        /* the context id picks the second Conv2D execution */
        g_assert_cmpstr (ovi_dump_file_get_name (op), ==,
                         "Conv2D.resnet_layer3_conv2.120.5.1764670560000110.4.2.0.0");
    }
  g_assert_cmpuint (n_items (ovi_dump_folder_get_problems (folder)), ==, 1);
  problem = g_list_model_get_item (ovi_dump_folder_get_problems (folder), 0);
  g_assert_true (
      g_str_has_suffix (ovi_problem_get_file (problem), "Sub.loss_Sub_1.230.3.1764671000000400"));
  g_assert_nonnull (strstr (ovi_problem_get_message (problem), "truncated"));
  /* the mapping.csv long name is there under its original name */
  {
    GListModel *files = ovi_dump_folder_get_files (folder);
    gboolean found = FALSE;
    for (guint i = 0; i < n_items (files); i++)
      {
        g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
        if (g_str_has_prefix (ovi_dump_file_get_name (file), "AssignAdd.fp_bp_very_long_scope_"))
          {
            found = TRUE;
            g_assert_cmpstr (ovi_dump_file_get_op_name (file), ==,
                             "fp_bp/very_long_scope/AssignAdd");
            g_assert_cmpuint (ovi_dump_file_get_task_id (file), ==, 210);
          }
      }
    g_assert_true (found);
    /* 21 op dump and overflow files, and iteration 12's five statistics
     * operators (three .csv files, two in statistic.csv). */
    g_assert_cmpuint (n_items (files), ==, 26);
  }
}

/* Records are in first-overflow order across devices: iteration, then
 * time. Each record's gap is to the previous record of the same run,
 * device and model: device 1's first overflow has none, although device
 * 0's comes before it in the list. */
static void
test_record_gaps (Fixture *f, gconstpointer data)
{
  g_autofree char *time = g_build_filename (f->dir, "20200808163566", NULL);
  static const struct
  {
    const char *device, *iteration;
    guint64 timestamp;
  } overflows[] = {
    { "0", "1", 1000 },
    { "0", "2", 4000 },
    { "1", "1", 1500 },
    { "1", "2", 2500 },
  };
  /* iteration 1 on devices 0 and 1, then iteration 2 on device 1 (2500)
   * before device 0 (4000) */
  static const guint order[] = { 0, 2, 3, 1 };
  static const gboolean has_gap[] = { FALSE, FALSE, TRUE, TRUE };
  static const gint64 gaps[] = { 0, 0, 1000, 3000 };
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *records;

  for (guint i = 0; i < G_N_ELEMENTS (overflows); i++)
    {
      g_autofree char *iter =
          g_build_filename (time, overflows[i].device, "11", overflows[i].iteration, NULL);

      g_assert_no_errno (g_mkdir_with_parents (iter, 0755));
      write_overflow (iter, 57, 7, overflows[i].timestamp, 272);
    }
  folder = load (f->dir);
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (n_items (records), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      gint64 gap = -1;
      gboolean has = FALSE;

      g_assert_cmpuint (ovi_dump_file_get_timestamp (ovi_overflow_record_get_file (r)), ==,
                        overflows[order[i]].timestamp);
      g_assert_cmpstr (ovi_dump_file_get_device (ovi_overflow_record_get_file (r)), ==,
                       overflows[order[i]].device);
      g_assert_cmpint (ovi_overflow_record_get_is_first (r), ==, i == 0);
      g_assert_cmpint (ovi_overflow_record_get_gap (r, &gap), ==, has_gap[i]);
      g_assert_cmpint (gap, ==, gaps[i]);
      g_object_get (r, "has-gap", &has, "gap", &gap, NULL);
      g_assert_cmpint (has, ==, has_gap[i]);
      g_assert_cmpint (gap, ==, gaps[i]);
    }
}

/* Two machines' copies, both named "dump" and both with device 0: opened
 * together they are two roots with their own names, the records are in
 * first-overflow order across them, each record links its own root's
 * operator, and the inspector knows both as the folder. */
static void
test_several_roots (Fixture *f, gconstpointer data)
{
  const char *machines[] = { "node-a", "node-b" };
  GFile *roots[2];
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  GListModel *records;

  for (guint m = 0; m < 2; m++)
    {
      g_autofree char *root = g_build_filename (f->dir, machines[m], "dump", NULL);
      /* node-b overflows earlier in iteration 3 */
      guint64 ts = m == 0 ? 5000 : 3000;
      g_autofree char *iter = g_build_filename (root, "20200808163566", "0", "11", "3", NULL);

      g_assert_no_errno (g_mkdir_with_parents (iter, 0755));
      write_overflow (iter, 57, 7, ts, 272);
      write_op (iter, "Add", machines[m], 57, 7, ts - 10);
      roots[m] = g_file_new_for_path (root);
    }
  folder = ovi_dump_folder_new_for_roots (roots, 2);
  g_assert_true (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ovi_dump_folder_get_n_roots (folder), ==, 2);
  g_assert_cmpstr (ovi_dump_folder_get_root_name (folder, 0), ==, "dump");
  g_assert_cmpstr (ovi_dump_folder_get_root_name (folder, 1), ==, "dump (2)");
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (n_items (records), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (r);
      /* node-b's (root 1) first */
      guint root = i == 0 ? 1 : 0;
      g_autofree char *prefix =
          g_strconcat (ovi_dump_folder_get_root_name (folder, root), "/", NULL);

      g_assert_cmpuint (ovi_dump_file_get_root (file), ==, root);
      g_assert_true (g_str_has_prefix (ovi_dump_file_get_relative_path (file), prefix));
      g_assert_true (
          g_str_has_prefix (ovi_dump_file_get_path_in_root (file), "20200808163566/0/11/3/"));
      g_assert_cmpstr (ovi_dump_file_get_dir_in_root (file), ==, "20200808163566/0/11/3");
      g_assert_cmpstr (ovi_dump_file_get_device (file), ==, "0");
      g_assert_cmpint (ovi_overflow_record_get_is_first (r), ==, i == 0);
      g_assert_nonnull (ovi_overflow_record_get_op (r));
      g_assert_cmpstr (ovi_dump_file_get_op_name (ovi_overflow_record_get_op (r)), ==,
                       machines[root]);
      g_assert_true (ovi_dump_folder_contains_path (folder, ovi_dump_file_get_path (file)));
    }
  g_assert_false (ovi_dump_folder_contains_path (folder, f->dir));

  /* Its report is the cluster report of one report per root, with paths
   * below each root, as `report` of the two folders writes it. */
  {
    g_autoptr (JsonNode) report = ovi_report_build_json_full (folder, OVI_REPORT_FULL);
    JsonObject *o = json_node_get_object (report);
    JsonArray *reports = json_object_get_array_member (o, "roots");
    JsonObject *first = json_object_get_object_member (o, "first_rank");

    g_assert_cmpuint (json_array_get_length (reports), ==, 2);
    for (guint m = 0; m < 2; m++)
      {
        JsonObject *r = json_array_get_object_element (reports, m);
        JsonObject *rec =
            json_array_get_object_element (json_object_get_array_member (r, "records"), 0);

        g_assert_cmpstr (json_object_get_string_member (r, "root"), ==,
                         ovi_dump_folder_get_nth_root_path (folder, m));
        g_assert_cmpuint (json_array_get_length (json_object_get_array_member (r, "records")), ==,
                          1);
        g_assert_true (g_str_has_prefix (json_object_get_string_member (rec, "file"),
                                         "20200808163566/0/11/3/Opdebug"));
        g_assert_cmpstr (
            json_object_get_string_member (json_object_get_object_member (rec, "op"), "op_name"),
            ==, machines[m]);
      }
    g_assert_cmpstr (json_object_get_string_member (first, "root"), ==,
                     ovi_dump_folder_get_nth_root_path (folder, 1));
  }
  g_object_unref (roots[0]);
  g_object_unref (roots[1]);
}

/* A file among folders opened together is refused, naming it. */
static void
test_several_roots_file (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = g_build_filename (f->dir, "a", NULL);
  g_autofree char *file = g_build_filename (f->dir, "b.bin", NULL);
  g_autoptr (GFile) a = g_file_new_for_path (dir);
  g_autoptr (GFile) b = g_file_new_for_path (file);
  GFile *roots[] = { a, b };
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  folder = ovi_dump_folder_new_for_roots (roots, 2);
  g_assert_false (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, file));
}

/* A tree of many iteration folders, which the scan reads several at a
 * time on the worker pool (issue #40): everything is handed over in the
 * order of a walk folder by folder, each folder entered once (a link to
 * an earlier sibling is not gone into again), a broken file is a problem
 * in its own folder, and the records' first overflow is the earliest. */
static void
test_many_folders (Fixture *f, gconstpointer data)
{
  g_autofree char *parent = g_build_filename (f->dir, "20261205120000", "0", "net", "1", NULL);
  g_autoptr (GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *files, *records, *problems;
  g_autoptr (OviOverflowRecord) first = NULL;
  g_autoptr (OviProblem) problem = NULL;

  for (guint it = 0; it < 40; it++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/%u", parent, it);
      guint64 start = 1764670500000000 + (guint64) it * 1000000;

      for (guint op = 0; op < 3; op++)
        {
          write_op (dir, "Add", "add", 10 + op, 2, start + op);
          g_ptr_array_add (
              expected,
              g_strdup_printf ("20261205120000/0/net/1/%u/Add.add.%u.2.%" G_GUINT64_FORMAT, it,
                               10 + op, start + op));
        }
      if (it == 29 || it == 5)
        {
          write_overflow (dir, 11, 2, start + 500, 0x110);
          g_ptr_array_add (
              expected, g_strdup_printf (
                            "20261205120000/0/net/1/%u/Opdebug.Node_OpDebug.2.2.%" G_GUINT64_FORMAT,
                            it, start + 500));
        }
    }
  {
    g_autofree char *broken = g_strdup_printf ("%s/13/Mul.mul.1.2.3", parent);
    g_autofree char *link = g_strdup_printf ("%s/17/again", parent);

    g_assert_true (g_file_set_contents (broken, "not a dump", -1, NULL));
    g_assert_no_errno (symlink ("../3", link));
  }

  folder = load (f->dir);
  files = ovi_dump_folder_get_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (files), ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      g_assert_cmpstr (ovi_dump_file_get_relative_path (file), ==, g_ptr_array_index (expected, i));
    }
  records = ovi_dump_folder_get_records (folder);
  g_assert_cmpuint (g_list_model_get_n_items (records), ==, 2);
  first = g_list_model_get_item (records, 0);
  g_assert_true (ovi_overflow_record_get_is_first (first));
  g_assert_cmpstr (ovi_dump_file_get_relative_dir (ovi_overflow_record_get_file (first)), ==,
                   "20261205120000/0/net/1/5");
  problems = ovi_dump_folder_get_problems (folder);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (ovi_problem_get_file (problem), ==, "20261205120000/0/net/1/13/Mul.mul.1.2.3");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/folder/levels", test_levels);
  ADD ("/core/folder/model-name-levels", test_model_name_levels);
  ADD ("/core/folder/record-order", test_record_order);
  ADD ("/core/folder/single-file", test_single_file);
  ADD ("/core/folder/many-files", test_many_files);
  ADD ("/core/folder/mapping-and-problems", test_mapping_and_problems);
  ADD ("/core/folder/symlink-loop", test_symlink_loop);
  ADD ("/core/folder/many-folders", test_many_folders);
  ADD ("/core/folder/non-utf8", test_non_utf8);
  ADD ("/core/folder/contains-path", test_contains_path);
  ADD ("/core/folder/load-async", test_load_async);
  ADD ("/core/folder/load-async-batches", test_load_async_batches);
  ADD ("/core/folder/cancel", test_cancel);
  ADD ("/core/folder/nano", test_nano_in_folder);
  ADD ("/core/folder/schema-fields-report", test_schema_fields_report);
  ADD ("/core/folder/record-gaps", test_record_gaps);
  ADD ("/core/folder/several-roots", test_several_roots);
  ADD ("/core/folder/several-roots-file", test_several_roots_file);
#undef ADD
  g_test_add_func ("/core/folder/parse-mapping", test_parse_mapping);
  g_test_add_func ("/core/folder/example", test_example);
  return g_test_run ();
}
