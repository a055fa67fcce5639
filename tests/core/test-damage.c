/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Untrusted files: every kind of damage sits next to good files, and the
 * folder still loads, with exactly one problem naming the broken file. */

#define ITER "20251202101500/0/11/3"
#define CAST_NAME "Cast.net_Cast_1.57.7.1700000000000100"
#define ADD_NAME "Add.net_Add_2.58.7.1700000000000200"
#define OVERFLOW_NAME "Opdebug.Node_OpDebug.2.7.1700000000000300"
#define BROKEN_NAME "Mul.net_Mul_9.90.7.1700000000000400"

typedef struct
{
  char *dir;
  char *iter;
} Fixture;

static void
write_op (const char *dir, const char *op_type, const char *op_name, guint task, guint64 ts)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (op_name);
  g_autofree char *file_op = g_strdelimit (g_strdup (op_name), "./\\ ", '_');
  g_autofree char *name =
      g_strdup_printf ("%s.%s.%u.7.%" G_GUINT64_FORMAT, op_type, file_op, task, ts);
  const guint64 shape[] = { 4 };
  static const double in[] = { 1, 2, 3, 4 };
  static const double out[] = { 0.5, -1, 8, 16 };

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, in);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, out);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name));
}

static void
write_overflow_payload (const char *dir, const char *name, GBytes *payload)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (ovi_write_overflow_file (path, payload, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
}

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  OviClassicBlock core = { 11, 7, 57, 0, 0x1000, 0x2000, 0, 0, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);

  f->dir = g_dir_make_tmp ("ovi-damage-XXXXXX", &error);
  g_assert_no_error (error);
  f->iter = g_build_filename (f->dir, ITER, NULL);
  write_op (f->iter, "Cast", "net/Cast_1", 57, 1700000000000100);
  write_op (f->iter, "Add", "net/Add_2", 58, 1700000000000200);
  write_overflow_payload (f->iter, OVERFLOW_NAME, p);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  g_assert_false (g_file_test (f->dir, G_FILE_TEST_EXISTS));
  g_free (f->iter);
  g_free (f->dir);
}

static OviDumpFile *
find_file (OviDumpFolder *folder, const char *relative_path)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  OviDumpFile *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      if (g_str_equal (ovi_dump_file_get_relative_path (f), relative_path))
        {
          g_assert_null (found); /* listed once */
          found = f;             /* the folder keeps its reference */
        }
    }
  return found;
}

/* The good files are listed once each and the record links Cast. */
static void
assert_good_files (OviDumpFolder *folder)
{
  OviDumpFile *cast = find_file (folder, ITER "/" CAST_NAME);
  OviDumpFile *add = find_file (folder, ITER "/" ADD_NAME);
  OviDumpFile *overflow = find_file (folder, ITER "/" OVERFLOW_NAME);
  GListModel *records = ovi_dump_folder_get_records (folder);
  g_autoptr (OviOverflowRecord) r = NULL;
  guint n_good = 0;

  g_assert_nonnull (cast);
  g_assert_nonnull (add);
  g_assert_nonnull (overflow);
  g_assert_cmpstr (ovi_dump_file_get_op_name (cast), ==, "net/Cast_1");
  g_assert_cmpstr (ovi_dump_file_get_op_name (add), ==, "net/Add_2");
  g_assert_cmpuint (ovi_dump_file_get_kind (overflow), ==, OVI_FILE_KIND_OVERFLOW);

  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) ri = g_list_model_get_item (records, i);
      if (ovi_overflow_record_get_file (ri) == overflow)
        {
          n_good++;
          g_set_object (&r, ri);
        }
    }
  g_assert_cmpuint (n_good, ==, 1);
  g_assert_cmpuint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_AI_CORE);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 57);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 272);
  g_assert_true (ovi_overflow_record_get_op (r) == cast);
}

/* Exactly one problem, for @rel, whose message holds every word of @words. */
static void
assert_one_problem (OviDumpFolder *folder, const char *rel, const char *const *words)
{
  GListModel *problems = ovi_dump_folder_get_problems (folder);
  g_autoptr (OviProblem) p = NULL;
  const char *message;

  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  p = g_list_model_get_item (problems, 0);
  message = ovi_problem_get_message (p);
  g_test_message ("problem: %s: %s", ovi_problem_get_file (p), message);
  g_assert_cmpstr (ovi_problem_get_file (p), ==, rel);
  for (guint i = 0; words[i]; i++)
    g_assert_nonnull (strstr (message, words[i]));
}

/* Writes @data as @name next to the good files, loads, checks. */
static OviDumpFolder *
check_broken (
    Fixture *f, const char *name, const void *data, gsize length, const char *const *words)
{
  g_autofree char *rel = g_strconcat (ITER "/", name, NULL);
  OviDumpFolder *folder;

  g_free (ovi_fixture_write_bytes (f->iter, name, data, length));
  folder = ovi_fixture_load_folder (f->dir);

  assert_one_problem (folder, rel, words);
  assert_good_files (folder);
  return folder;
}

/* Protobuf wire encoding for hand-made headers. */
static void
put_varint (GByteArray *b, guint64 v)
{
  do
    {
      guint8 c = v & 0x7f;
      v >>= 7;
      if (v)
        c |= 0x80;
      g_byte_array_append (b, &c, 1);
    }
  while (v);
}

static void
put_tag (GByteArray *b, guint field, guint wire)
{
  put_varint (b, (field << 3) | wire);
}

static void
put_ld (GByteArray *b, guint field, const void *data, gsize length)
{
  put_tag (b, field, 2);
  put_varint (b, length);
  g_byte_array_append (b, data, length);
}

static void
put_uint (GByteArray *b, guint field, guint64 v)
{
  put_tag (b, field, 0);
  put_varint (b, v);
}

/* u64 header length + @header + @n_data bytes of data (zeros). */
static GByteArray *
new_layout_file (GByteArray *header, gsize n_data)
{
  GByteArray *file = g_byte_array_new ();
  guint64 len = GUINT64_TO_LE (header->len);
  g_autofree guint8 *zeros = g_malloc0 (n_data + 1);

  g_byte_array_append (file, (guint8 *) &len, 8);
  g_byte_array_append (file, header->data, header->len);
  g_byte_array_append (file, zeros, n_data);
  return file;
}

static GByteArray *
header_start (void)
{
  GByteArray *h = g_byte_array_new ();
  put_ld (h, 1, "2.0", 3);
  put_ld (h, 6, "net/Mul_9", 9);
  return h;
}

static void
test_zero_length (Fixture *f, gconstpointer data)
{
  static const char *const words[] = { "truncated", "0 bytes", NULL };
  g_autoptr (OviDumpFolder) folder = check_broken (f, BROKEN_NAME, "", 0, words);

  g_assert_null (find_file (folder, ITER "/" BROKEN_NAME));
}

static void
test_short_files (Fixture *f, gconstpointer data)
{
  static const guint8 bytes[8] = { 0x0a, 0x03, '2', '.', '0', 0x32, 0x01, 'x' };

  for (gsize n = 1; n <= 8; n++)
    {
      g_autofree char *name = g_strdup_printf ("Mul.net_Mul_9.90.7.17000000000004%02u", (guint) n);
      g_autofree char *path = g_build_filename (f->iter, name, NULL);
      g_autofree char *count = g_strdup_printf ("truncated: %u bytes", (guint) n);
      const char *words[] = { count, NULL };
      g_autoptr (OviDumpFolder) folder = check_broken (f, name, bytes, n, words);
      g_assert_null (find_file (folder, ITER "/" BROKEN_NAME));
      g_assert_no_errno (g_unlink (path));
    }
}

static void
test_header_2_63 (Fixture *f, gconstpointer data)
{
  guint8 bytes[64] = { 0 };
  guint64 len = GUINT64_TO_LE (G_GUINT64_CONSTANT (1) << 63);
  static const char *const words[] = { "header length 9223372036854775808",
                                       "larger than the file (64 bytes)", NULL };

  memcpy (bytes, &len, 8);
  g_object_unref (check_broken (f, BROKEN_NAME, bytes, sizeof bytes, words));
}

static void
test_header_size_minus_7 (Fixture *f, gconstpointer data)
{
  guint8 bytes[100] = { 0 };
  guint64 len = GUINT64_TO_LE (100 - 7);
  static const char *const words[] = { "header length 93", "larger than the file (100 bytes)",
                                       NULL };

  memcpy (bytes, &len, 8);
  g_object_unref (check_broken (f, BROKEN_NAME, bytes, sizeof bytes, words));
}

static void
test_sizes_sum_overflow (Fixture *f, gconstpointer data)
{
  g_autoptr (GByteArray) h = header_start ();
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autoptr (GByteArray) file = NULL;
  static const char *const words[] = { "add up", "2^64", NULL };

  put_uint (out, 1, OVI_DTYPE_UINT8);
  put_uint (out, 2, 2);
  put_uint (out, 6, G_GUINT64_CONSTANT (1) << 63);
  put_ld (h, 3, out->data, out->len);
  put_ld (h, 3, out->data, out->len);
  file = new_layout_file (h, 16);
  g_object_unref (check_broken (f, BROKEN_NAME, file->data, file->len, words));
}

static void
test_shape_overflow (Fixture *f, gconstpointer data)
{
  g_autoptr (GByteArray) h = header_start ();
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autoptr (GByteArray) shape = g_byte_array_new ();
  g_autoptr (GByteArray) dims = g_byte_array_new ();
  g_autoptr (GByteArray) file = NULL;
  static const char *const words[] = { "output 0", "does not fit in 64 bits", NULL };

  put_varint (dims, G_GUINT64_CONSTANT (1) << 32);
  put_varint (dims, G_GUINT64_CONSTANT (1) << 31);
  put_ld (shape, 1, dims->data, dims->len);
  put_uint (out, 1, OVI_DTYPE_FLOAT32);
  put_uint (out, 2, 2);
  put_ld (out, 3, shape->data, shape->len);
  put_ld (h, 3, out->data, out->len);
  file = new_layout_file (h, 0);
  g_object_unref (check_broken (f, BROKEN_NAME, file->data, file->len, words));
}

/* [0, 5] float32 of 0 bytes is a valid, empty tensor. */
static void
test_zero_dimension (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Empty");
  const guint64 shape[] = { 0, 5 };
  g_autoptr (GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  OviDumpFile *file;
  OviTensor *t;
  guint n_dims;
  const guint64 *s;

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, shape, 2, empty);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, f->iter, "Empty.net_Empty.91.7.1700000000000500"));
  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);
  assert_good_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 4);
  file = find_file (folder, ITER "/Empty.net_Empty.91.7.1700000000000500");
  g_assert_nonnull (file);
  g_assert_cmpuint (ovi_dump_file_get_tensors (file)->len, ==, 1);
  t = g_ptr_array_index (ovi_dump_file_get_tensors (file), 0);
  s = ovi_tensor_get_shape (t, &n_dims);
  g_assert_cmpuint (n_dims, ==, 2);
  g_assert_cmpuint (s[0], ==, 0);
  g_assert_cmpuint (s[1], ==, 5);
  g_assert_cmpuint (ovi_tensor_get_count (t), ==, 0);
  g_assert_cmpuint (ovi_tensor_get_size (t), ==, 0);
  bytes = ovi_tensor_load_data (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);
  analysis = ovi_tensor_analyze (t, &error);
  g_assert_no_error (error);
  g_assert_nonnull (analysis);
  g_assert_cmpuint (ovi_analysis_get_stats (analysis)->count, ==, 0);
  g_assert_cmpuint (ovi_analysis_get_stats (analysis)->nan, ==, 0);
  g_assert_cmpint (ovi_analysis_get_stats (analysis)->first_nonfinite, ==, -1);
}

/* A header whose first field claims 2^60 bytes: refused, nothing huge
 * allocated (the test would abort or take long otherwise). */
static void
test_huge_field_length (Fixture *f, gconstpointer data)
{
  g_autoptr (GByteArray) h = g_byte_array_new ();
  g_autoptr (GByteArray) file = NULL;
  static const char *const words[] = { "does not parse", NULL };
  guint8 filler[16] = { 0 };

  struct rusage usage;

  put_tag (h, 1, 2);
  put_varint (h, G_GUINT64_CONSTANT (1) << 60);
  g_byte_array_append (h, filler, sizeof filler);
  file = new_layout_file (h, 0);
  g_object_unref (check_broken (f, BROKEN_NAME, file->data, file->len, words));
  /* peak resident size stays far below anything a 2^60 claim would take */
  g_assert_no_errno (getrusage (RUSAGE_SELF, &usage));
  g_assert_cmpint (usage.ru_maxrss, <, 512 * 1024); /* KiB */
}

/* 100000 nested groups of an unknown field (start-group tags, wire type 3,
 * never closed): the reader must neither recurse without bound nor crash. */
static void
test_deep_nesting (Fixture *f, gconstpointer data)
{
  g_autoptr (GByteArray) h = header_start ();
  g_autoptr (GByteArray) file = NULL;
  static const char *const words[] = { "does not parse", NULL };

  for (guint i = 0; i < 100000; i++)
    put_tag (h, 15, 3);
  file = new_layout_file (h, 0);
  g_object_unref (check_broken (f, BROKEN_NAME, file->data, file->len, words));
}

static void
test_overflow_2047 (Fixture *f, gconstpointer data)
{
  g_autofree guint8 *zeros = g_malloc0 (2047);
  g_autoptr (GBytes) p = g_bytes_new (zeros, 2047);
  static const char *const words[] = { "2047", "2048", NULL };
  const char *name = "Opdebug.Node_OpDebug.3.7.1700000000000600";
  g_autofree char *rel = g_strconcat (ITER "/", name, NULL);
  g_autoptr (OviDumpFolder) folder = NULL;

  write_overflow_payload (f->iter, name, p);
  folder = ovi_fixture_load_folder (f->dir);
  assert_one_problem (folder, rel, words);
  assert_good_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
}

static void
test_overflow_unknown_acc_type (Fixture *f, gconstpointer data)
{
  const guint64 fields[] = { 11, 7, 58, 4, 0, 0, 0x1000, 0x2000, 3, 2, 0x20 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 7, fields, 11);
  static const char *const words[] = { "unknown acc_type 7", NULL };
  const char *name = "Opdebug.Node_OpDebug.3.7.1700000000000600";
  g_autofree char *rel = g_strconcat (ITER "/", name, NULL);
  g_autoptr (OviDumpFolder) folder = NULL;

  write_overflow_payload (f->iter, name, p);
  folder = ovi_fixture_load_folder (f->dir);
  assert_one_problem (folder, rel, words);
  assert_good_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
}

static void
test_symlink_loop (Fixture *f, gconstpointer data)
{
  g_autofree char *b = g_build_filename (f->iter, "a", "b", NULL);
  g_autofree char *loop = g_build_filename (b, "loop", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviDumpFolder) folder2 = NULL;

  g_assert_no_errno (g_mkdir_with_parents (b, 0755));
  g_assert_no_errno (symlink ("../..", loop));
  folder = ovi_fixture_load_folder (f->dir);
  assert_good_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 0);

  /* opened at the iteration folder itself, the loop leads back to the root */
  folder2 = ovi_fixture_load_folder (f->iter);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder2)), ==, 3);
  g_assert_nonnull (find_file (folder2, CAST_NAME));
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder2)), ==, 1);
}

/* A FIFO named like a dump file, and a symlink to it: opening one would
 * block forever; the scan does not open them, and lists both with why. */
static void
test_fifo (Fixture *f, gconstpointer data)
{
  g_autofree char *fifo = g_build_filename (f->iter, "Add.net_fifo.70.7.1700000000000950", NULL);
  g_autofree char *link = g_build_filename (f->iter, "Add.net_link.71.7.1700000000000960", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;

  g_assert_no_errno (mkfifo (fifo, 0644));
  g_assert_no_errno (symlink ("Add.net_fifo.70.7.1700000000000950", link));
  folder = ovi_fixture_load_folder (f->dir);
  assert_good_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (ovi_dump_folder_get_problems (folder), i);

      g_assert_true (
          g_str_has_prefix (ovi_problem_get_file (p), ITER "/Add.net_" /* fifo, then link */));
      g_assert_nonnull (strstr (ovi_problem_get_file (p), i == 0 ? "fifo" : "link"));
      g_assert_cmpstr (ovi_problem_get_message (p), ==,
                       "not a regular file but a FIFO (named pipe): not read");
    }
}

static OviTensor *
output_of (OviDumpFile *file)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);
  for (guint i = 0; i < tensors->len; i++)
    if (ovi_tensor_get_kind (g_ptr_array_index (tensors, i)) == OVI_TENSOR_OUTPUT)
      return g_ptr_array_index (tensors, i);
  g_assert_not_reached ();
}

static void
test_deleted_after_scan (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (f->dir);
  g_autofree char *path = g_build_filename (f->iter, ADD_NAME, NULL);
  OviDumpFile *add = find_file (folder, ITER "/" ADD_NAME);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;

  g_assert_nonnull (add);
  g_assert_no_errno (g_unlink (path));
  bytes = ovi_tensor_load_data (output_of (add), &error);
  g_assert_null (bytes);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, ITER "/" ADD_NAME));
  g_assert_nonnull (strstr (error->message, "cannot read"));
}

static void
test_truncated_after_scan (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (f->dir);
  g_autofree char *path = g_build_filename (f->iter, ADD_NAME, NULL);
  g_autofree char *rel = g_strdup (ITER "/" ADD_NAME);
  OviDumpFile *add = find_file (folder, rel);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GStatBuf st;

  g_assert_nonnull (add);
  g_assert_no_errno (g_stat (path, &st));
  g_assert_cmpuint (ovi_dump_file_get_file_size (add), ==, st.st_size);
  g_assert_no_errno (truncate (path, st.st_size - 4));
  bytes = ovi_tensor_load_data (output_of (add), &error);
  g_assert_null (bytes);
  g_assert_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_CHANGED);
  g_assert_nonnull (strstr (error->message, rel));
  g_assert_nonnull (strstr (error->message, "changed"));

  /* the next load reports it */
  g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
  {
    static const char *const words[] = { "truncated", NULL };
    assert_one_problem (folder, rel, words);
    g_assert_null (find_file (folder, rel));
    g_assert_nonnull (find_file (folder, ITER "/" CAST_NAME));
    g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  }
}

/* A 1 MiB tensor (read through a mapping, not a small read): deleted or
 * truncated after the scan, reading it fails with a message, no SIGBUS. */
static char *
write_big (const char *dir)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Big");
  const guint64 shape[] = { 262144 };
  g_autofree float *v = g_new (float, 262144);
  g_autoptr (GBytes) bytes = NULL;

  for (guint i = 0; i < 262144; i++)
    v[i] = i;
  bytes = g_bytes_new (v, 262144 * 4);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, 2, shape, 1, bytes);
  return ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, "Big.net_Big.95.7.1700000000000900");
}

static void
test_big_changed_after_scan (Fixture *f, gconstpointer data)
{
  g_autofree char *path = write_big (f->iter);
  const char *rel = ITER "/Big.net_Big.95.7.1700000000000900";
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (f->dir);
  OviDumpFile *big = find_file (folder, rel);
  OviTensor *t;
  GStatBuf st;

  g_assert_nonnull (big);
  assert_good_files (folder);
  t = output_of (big);
  g_assert_cmpuint (ovi_tensor_get_size (t), ==, 1048576);

  /* truncated by 4 bytes */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GBytes) bytes = NULL;
    g_assert_no_errno (g_stat (path, &st));
    g_assert_no_errno (truncate (path, st.st_size - 4));
    bytes = ovi_tensor_load_data (t, &error);
    g_assert_null (bytes);
    g_assert_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_CHANGED);
    g_assert_nonnull (strstr (error->message, rel));
    g_assert_nonnull (strstr (error->message, "changed"));
  }
  /* deleted */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GBytes) bytes = NULL;
    g_assert_no_errno (g_unlink (path));
    bytes = ovi_tensor_load_data (t, &error);
    g_assert_null (bytes);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, rel));
    g_assert_nonnull (strstr (error->message, "cannot read"));
  }
}

/* Data already handed out, then the file shrinks: the analysis must not
 * die of SIGBUS on the vanished pages (large tensors used to be a mapping
 * of the file; a bug the tests found, now fixed). */
static void
test_big_truncated_while_held (Fixture *f, gconstpointer data)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = write_big (f->iter);
      g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (f->dir);
      OviDumpFile *big = find_file (folder, ITER "/Big.net_Big.95.7.1700000000000900");
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) bytes = ovi_tensor_load_data (output_of (big), &error);
      g_autoptr (OviAnalysis) a = NULL;

      g_assert_no_error (error);
      g_assert_no_errno (truncate (path, 4096));
      a = ovi_analysis_new (OVI_DTYPE_FLOAT32, bytes, &error);
      /* either the data was a private copy, or the loss is reported */
      if (a)
        g_assert_cmpfloat (ovi_analysis_get_stats (a)->max, ==, 262143.0);
      return;
    }
  g_test_trap_subprocess (NULL, 20 * 1000 * 1000, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

#define N_EMPTY 100000

static void
test_many_empty_files (Fixture *f, gconstpointer data)
{
  g_autofree char *many = g_build_filename (f->iter, "many", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  GListModel *problems;
  OviScanProgress progress;
  gint64 start = g_get_monotonic_time ();
  guint n_truncated = 0;

  g_assert_no_errno (g_mkdir_with_parents (many, 0755));
  for (guint i = 0; i < N_EMPTY; i++)
    {
      char name[128];
      int fd;
      g_snprintf (name, sizeof name, "%s/Add.op_%u.%u.1.1700000000000000", many, i, i);
      fd = g_open (name, O_WRONLY | O_CREAT | O_EXCL, 0644);
      g_assert_cmpint (fd, >=, 0);
      close (fd);
    }
  g_test_message ("created %d files in %.2f s", N_EMPTY, (g_get_monotonic_time () - start) / 1e6);
  start = g_get_monotonic_time ();
  folder = ovi_fixture_load_folder (f->dir);
  g_test_message ("loaded in %.2f s", (g_get_monotonic_time () - start) / 1e6);
  assert_good_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 3);
  problems = ovi_dump_folder_get_problems (folder);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, N_EMPTY);
  for (guint i = 0; i < N_EMPTY; i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      g_assert_true (g_str_has_prefix (ovi_problem_get_file (p), ITER "/many/Add.op_"));
      if (strstr (ovi_problem_get_message (p), "truncated: 0 bytes"))
        n_truncated++;
    }
  g_assert_cmpuint (n_truncated, ==, N_EMPTY);
  ovi_dump_folder_get_progress (folder, &progress);
  g_assert_cmpuint (progress.problems, ==, N_EMPTY);
  g_assert_cmpuint (progress.overflow_records, ==, 1);
}

/* Parses the report with json-glib; the text must be valid UTF-8. */
static JsonNode *
report_json (OviDumpFolder *folder)
{
  g_autofree char *json = ovi_report_to_json (folder);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (json);
  g_assert_true (g_utf8_validate (json, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
check_non_utf8 (Fixture *f, const char *file_op_type, const char *header_op_name)
{
  g_autofree char *good_name =
      g_strdup_printf ("%s.net_Relu\xff\xfe.92.7.1700000000000700", file_op_type);
  g_autofree char *bad_name = g_strdup ("Mul.net_Mul\xff.93.7.1700000000000800");
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (header_op_name);
  const guint64 shape[] = { 2 };
  static const double v[] = { 1, 2 };
  static const double bad[] = { 1, 1.0 / 0.0 };
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonNode) root = NULL;
  GListModel *files, *problems;
  g_autoptr (OviProblem) p = NULL;
  g_autofree char *text = NULL;
  JsonArray *jproblems;
  gboolean found_relu = FALSE;

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, bad);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, f->iter, good_name));
  g_free (ovi_fixture_write_bytes (f->iter, bad_name, "abc", 3));
  /* an overflow record for it, so the report lists it with its tensors */
  {
    OviClassicBlock core = { 11, 7, 92, 0, 0x1000, 0x2000, 0, 0, 0x20 };
    g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
    write_overflow_payload (f->iter, "Opdebug.Node_OpDebug.2.7.1700000000000750", p);
  }

  folder = ovi_fixture_load_folder (f->dir);
  assert_good_files (folder);
  files = ovi_dump_folder_get_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (files), ==, 5);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 2);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      if (g_str_has_prefix (ovi_dump_file_get_op_name (file), "net/Relu"))
        {
          g_autoptr (GBytes) bytes = NULL;
          g_autoptr (GError) error = NULL;
          found_relu = TRUE;
          /* the data is still readable through the real (non-UTF-8) path */
          bytes = ovi_tensor_load_data (output_of (file), &error);
          g_assert_no_error (error);
          g_assert_cmpuint (g_bytes_get_size (bytes), ==, 8);
        }
    }
  g_assert_true (found_relu);

  problems = ovi_dump_folder_get_problems (folder);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  p = g_list_model_get_item (problems, 0);
  g_assert_true (g_utf8_validate (ovi_problem_get_file (p), -1, NULL));
  g_assert_true (g_str_has_prefix (ovi_problem_get_file (p), ITER "/Mul.net_Mul"));
  g_assert_true (g_str_has_suffix (ovi_problem_get_file (p), ".93.7.1700000000000800"));
  g_assert_nonnull (strstr (ovi_problem_get_message (p), "truncated: 3 bytes"));

  root = report_json (folder);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  {
    JsonArray *records = json_object_get_array_member (json_node_get_object (root), "records");
    JsonArray *abnormal =
        json_object_get_array_member (json_node_get_object (root), "abnormal_operators");
    JsonObject *op = NULL;
    g_assert_cmpuint (json_array_get_length (records), ==, 2);
    for (guint i = 0; i < 2; i++)
      {
        JsonObject *r = json_array_get_object_element (records, i);
        if (json_object_get_int_member (r, "task_id") == 92)
          op = json_object_get_object_member (r, "op");
      }
    g_assert_nonnull (op);
    g_assert_true (g_str_has_prefix (json_object_get_string_member (op, "op_name"), "net/Relu"));
    g_assert_true (g_str_has_prefix (json_object_get_string_member (op, "file"), ITER "/Relu"));
    g_assert_true (g_str_has_prefix (json_object_get_string_member (op, "op_type"), "Relu"));
    g_assert_cmpstr (json_object_get_string_member (op, "class"), ==, "origin");
    g_assert_cmpuint (json_array_get_length (abnormal), ==, 1);
  }
  text = ovi_report_to_text (folder);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  if (json_object_has_member (json_node_get_object (root), "problems"))
    {
      jproblems = json_object_get_array_member (json_node_get_object (root), "problems");
      g_assert_cmpuint (json_array_get_length (jproblems), ==, 1);
    }
}

/* Bytes 0xff 0xfe in the op name part of a file name. */
static void
test_non_utf8_names (Fixture *f, gconstpointer data)
{
  check_non_utf8 (f, "Relu", "net/Relu");
}

/* Byte 0xff in the op type part of a file name: the op type (parsed from
 * the file name) must reach the JSON as valid UTF-8 (a bug the tests found,
 * now fixed). */
static void
test_non_utf8_op_type (Fixture *f, gconstpointer data)
{
  check_non_utf8 (f, "Relu\xff", "net/Relu");
}

/* The op name inside the header (a protobuf string from an untrusted
 * file) holds 0xff 0xfe: the report must still be valid UTF-8 (a bug the
 * tests found, now fixed). */
static void
test_non_utf8_header_op_name (Fixture *f, gconstpointer data)
{
  check_non_utf8 (f, "Relu", "net/Relu\xff\xfe");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/core/damage/zero-length", test_zero_length);
  ADD ("/core/damage/short-files", test_short_files);
  ADD ("/core/damage/header-length-2-63", test_header_2_63);
  ADD ("/core/damage/header-length-size-minus-7", test_header_size_minus_7);
  ADD ("/core/damage/sizes-sum-overflow", test_sizes_sum_overflow);
  ADD ("/core/damage/shape-overflow", test_shape_overflow);
  ADD ("/core/damage/zero-dimension", test_zero_dimension);
  ADD ("/core/damage/huge-field-length", test_huge_field_length);
  ADD ("/core/damage/deep-nesting", test_deep_nesting);
  ADD ("/core/damage/overflow-2047", test_overflow_2047);
  ADD ("/core/damage/overflow-unknown-acc-type", test_overflow_unknown_acc_type);
  ADD ("/core/damage/symlink-loop", test_symlink_loop);
  ADD ("/core/damage/fifo", test_fifo);
  ADD ("/core/damage/deleted-after-scan", test_deleted_after_scan);
  ADD ("/core/damage/truncated-after-scan", test_truncated_after_scan);
  ADD ("/core/damage/big-changed-after-scan", test_big_changed_after_scan);
  ADD ("/core/damage/big-truncated-while-held", test_big_truncated_while_held);
  ADD ("/core/damage/non-utf8-names", test_non_utf8_names);
  ADD ("/core/damage/non-utf8-op-type", test_non_utf8_op_type);
  ADD ("/core/damage/non-utf8-header-op-name", test_non_utf8_header_op_name);
  ADD ("/core/damage/many-empty-files", test_many_empty_files);

  return g_test_run ();
}
