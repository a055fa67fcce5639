/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* The inspector never writes into the dump folder: loading, reporting,
 * classifying, analysing, exporting and the CLI leave every entry below
 * it exactly as it was. Failed exports leave nothing behind. */

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must be defined by meson"
#endif

typedef struct
{
  char *dir;
  char *copy;  /* the example folder, copied */
  char *other; /* where exports go */
} Fixture;

static void
copy_tree (const char *from, const char *to)
{
  GStatBuf st;

  g_assert_no_errno (g_lstat (from, &st));
  if (S_ISDIR (st.st_mode))
    {
      GDir *dir = g_dir_open (from, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      g_assert_no_errno (g_mkdir (to, 0755));
      while ((name = g_dir_read_name (dir)))
        {
          g_autofree char *a = g_build_filename (from, name, NULL);
          g_autofree char *b = g_build_filename (to, name, NULL);
          copy_tree (a, b);
        }
      g_dir_close (dir);
    }
  else
    {
      g_autofree char *contents = NULL;
      gsize length;
      g_autoptr (GError) error = NULL;

      g_assert_true (S_ISREG (st.st_mode));
      g_assert_true (g_file_get_contents (from, &contents, &length, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_set_contents (to, contents, length, &error));
      g_assert_no_error (error);
    }
}

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);

  f->dir = g_dir_make_tmp ("ovi-readonly-XXXXXX", &error);
  g_assert_no_error (error);
  f->copy = g_build_filename (f->dir, "copy", NULL);
  f->other = g_build_filename (f->dir, "other", NULL);
  copy_tree (example, f->copy);
  g_assert_no_errno (g_mkdir (f->other, 0755));
}

static void
teardown (Fixture *f, gconstpointer data)
{
  ovi_fixture_remove_tree (f->dir);
  g_assert_false (g_file_test (f->dir, G_FILE_TEST_EXISTS));
  g_free (f->copy);
  g_free (f->other);
  g_free (f->dir);
}

/* "relative-path size mtime.nsec mode" for every entry below @root. */
static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
list_tree (const char *root, const char *rel, GPtrArray *out)
{
  g_autofree char *path = *rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  struct stat st;

  g_assert_no_errno (lstat (path, &st));
  g_ptr_array_add (
      out, g_strdup_printf ("%s size=%" G_GINT64_FORMAT " mtime=%" G_GINT64_FORMAT ".%09ld mode=%o",
                            *rel ? rel : ".", (gint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                            st.st_mtim.tv_nsec, (guint) st.st_mode));
  if (S_ISDIR (st.st_mode))
    {
      GDir *dir = g_dir_open (path, 0, NULL);
      const char *name;
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)))
        g_ptr_array_add (names, g_strdup (name));
      g_dir_close (dir);
      g_ptr_array_sort (names, compare_names);
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *child =
              *rel ? g_build_filename (rel, names->pdata[i], NULL) : g_strdup (names->pdata[i]);
          list_tree (root, child, out);
        }
    }
}

static GPtrArray *
listing (const char *root)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  list_tree (root, "", out);
  return out;
}

static void
assert_same_listing (GPtrArray *before, GPtrArray *after)
{
  for (guint i = 0; i < MIN (before->len, after->len); i++)
    g_assert_cmpstr (after->pdata[i], ==, before->pdata[i]);
  g_assert_cmpuint (after->len, ==, before->len);
}

static guint
count_files (const char *root)
{
  g_autoptr (GPtrArray) l = listing (root);
  guint n = 0;
  for (guint i = 0; i < l->len; i++)
    n += strstr (l->pdata[i], " mode=10") != NULL; /* S_IFREG */
  return n;
}

static int
run_cli (char **out, ...)
{
  const char *cli = g_getenv ("OVI_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *local_out = NULL;
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
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               out ? out : &local_out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static void
test_untouched (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) after = NULL;
  g_autoptr (GFile) root = g_file_new_for_path (f->copy);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) origins = NULL;
  GListModel *files;
  guint n_tensors = 0, n_analysed = 0, n_exported = 0, n_overflow = 0, n_long_names = 0;
  guint n_statistics = 0;
  g_autofree char *exports = g_build_filename (f->other, "api", NULL);
  g_autofree char *cli_out = g_build_filename (f->other, "cli", NULL);
  g_autofree char *report = NULL;

  before = listing (f->copy);
  g_assert_cmpuint (before->len, >, 20);
  /* let a clock tick pass so a rewrite would show in the mtimes */
  g_usleep (20000);

  g_assert_true (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_no_error (error);
  files = ovi_dump_folder_get_files (folder);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 1);
  json = ovi_report_to_json (folder);
  text = ovi_report_to_text (folder);
  g_assert_nonnull (strstr (json, "first_origin_iteration"));
  g_assert_nonnull (strstr (text, "Cast"));
  origins = ovi_dump_folder_find_origins (folder, NULL);
  g_assert_cmpuint (origins->len, >=, 1);
  g_assert_cmpstr (ovi_dump_file_get_op_type (g_ptr_array_index (origins, 0)), ==, "Cast");

  g_assert_no_errno (g_mkdir (exports, 0755));
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);
      g_autofree char *sub = g_strdup_printf ("%s/%u", exports, i);

      g_assert_no_errno (g_mkdir (sub, 0755));
      for (guint j = 0; j < tensors->len; j++)
        {
          OviTensor *t = g_ptr_array_index (tensors, j);
          g_autoptr (OviAnalysis) a = ovi_tensor_analyze (t, NULL);
          const OviExportFormat formats[] = { OVI_EXPORT_NPY, OVI_EXPORT_TXT, OVI_EXPORT_BIN };

          n_tensors++;
          n_analysed += a != NULL;
          for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
            {
              g_autofree char *name = ovi_export_tensor_file_name (t, formats[k]);
              g_autofree char *path = NULL;
              g_autoptr (GError) e = NULL;

              /* The mapping.csv file's original name is over 255 bytes: the
               * suggested export name is too long for a file system, so
               * export it under a short name. */
              if (strlen (name) > 255)
                {
                  g_autofree char *short_name = g_strdup_printf ("long.%u.%u", j, k);
                  n_long_names++;
                  path = g_build_filename (sub, short_name, NULL);
                }
              else
                path = g_build_filename (sub, name, NULL);
              /* Statistics-mode tensors have no values to export, and say so. */
              if (ovi_tensor_get_statistics_only (t))
                {
                  g_assert_false (
                      ovi_export_tensor (t, formats[k], path, OVI_EXPORT_FLAGS_LOGICAL, &e));
                  g_assert_error (e, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES);
                  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
                  n_statistics++;
                  continue;
                }
              g_assert_true (ovi_export_tensor (t, formats[k], path, OVI_EXPORT_FLAGS_LOGICAL, &e));
              g_assert_no_error (e);
              g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
              n_exported++;
            }
        }
      if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OVERFLOW)
        {
          g_autofree char *name = ovi_export_overflow_file_name (file);
          g_autofree char *path = g_build_filename (sub, name, NULL);
          g_autoptr (GError) e = NULL;
          g_assert_true (ovi_export_overflow_json (file, path, OVI_EXPORT_FLAGS_NONE, &e));
          g_assert_no_error (e);
          g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
          n_overflow++;
        }
    }
  g_test_message ("%u tensors, %u analysed, %u exports, %u overflow files", n_tensors, n_analysed,
                  n_exported, n_overflow);
  g_assert_cmpuint (n_overflow, ==, 7);
  /* 40 tensors with data; iteration 12's 12 have statistics only. */
  g_assert_cmpuint (n_tensors, ==, 52);
  g_assert_cmpuint (n_statistics, ==, 3 * 12);
  g_assert_cmpuint (n_long_names, ==, 0); /* long names export under their short names */
  g_assert_cmpuint (n_analysed, ==, n_tensors);
  g_assert_cmpuint (n_exported, ==, 3 * (n_tensors - 12));

  /* the CLI: convert (exit 1: the truncated file) and report */
  g_assert_cmpint (run_cli (NULL, "convert", "--output", cli_out, f->copy, NULL), ==, 1);
  g_assert_cmpuint (count_files (cli_out), >, 20);
  g_assert_cmpint (run_cli (&report, "report", "--json", f->copy, NULL), ==, 1);
  g_assert_nonnull (strstr (report, "\"first_origin_iteration\""));
  g_assert_cmpint (run_cli (NULL, "report", f->copy, NULL), ==, 1);
  g_assert_cmpint (run_cli (NULL, "stats", f->copy, NULL), !=, 0); /* a folder: not one file */

  after = listing (f->copy);
  assert_same_listing (before, after);
}

/* --output inside the dump folder: refused with exit 2, nothing written. */
static void
test_cli_refuses_output_inside (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) before = listing (f->copy);
  g_autoptr (GPtrArray) after = NULL;
  g_autofree char *inside = g_build_filename (f->copy, "converted", NULL);
  g_autofree char *deep = g_build_filename (f->copy, "20251202101500", "0", NULL);

  g_usleep (20000);
  g_assert_cmpint (run_cli (NULL, "convert", "--output", inside, f->copy, NULL), ==, 2);
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
  g_assert_cmpint (run_cli (NULL, "convert", "--output", f->copy, f->copy, NULL), ==, 2);
  g_assert_cmpint (run_cli (NULL, "convert", "--output", deep, f->copy, NULL), ==, 2);
  after = listing (f->copy);
  assert_same_listing (before, after);
}

static GBytes *
megabyte_tensor (void)
{
  gsize n = 262144; /* float32: 1 MiB */
  float *v = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    v[i] = (float) i * 0.25f;
  return g_bytes_new_take (v, n * sizeof (float));
}

static void
test_export_missing_dir (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (f->other, "no-such-dir", NULL);
  g_autofree char *path = g_build_filename (missing, "t.npy", NULL);
  g_autoptr (GBytes) bytes = megabyte_tensor ();
  const guint64 shape[] = { 512, 512 };
  const OviExportFormat formats[] = { OVI_EXPORT_NPY, OVI_EXPORT_TXT, OVI_EXPORT_BIN };

  for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape, 2, bytes, formats[k], path,
                                              OVI_EXPORT_FLAGS_NONE, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, path));
      g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
    }
  g_assert_cmpuint (count_files (f->other), ==, 0);
}

/* Runs in a subprocess: a file size limit of 64 KiB makes writes fail
 * with EFBIG; the export fails and leaves no file, not even a temporary. */
static void
test_export_fsize_limit (Fixture *f, gconstpointer data)
{
  if (g_test_subprocess ())
    {
      struct rlimit lim = { 64 * 1024, 64 * 1024 };
      g_autoptr (GBytes) bytes = megabyte_tensor ();
      const guint64 shape[] = { 512, 512 };
      const OviExportFormat formats[] = { OVI_EXPORT_NPY, OVI_EXPORT_TXT, OVI_EXPORT_BIN };
      const char *names[] = { "t.npy", "t.txt", "t.bin" };

      signal (SIGXFSZ, SIG_IGN);
      g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &lim));
      for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
        {
          g_autofree char *path = g_build_filename (f->other, names[k], NULL);
          g_autoptr (GError) error = NULL;
          gboolean ok = ovi_export_tensor_data (OVI_DTYPE_FLOAT32, shape, 2, bytes, formats[k],
                                                path, OVI_EXPORT_FLAGS_NONE, &error);
          g_assert_false (ok);
          g_assert_nonnull (error);
          g_test_message ("%s", error->message);
          g_assert_nonnull (strstr (error->message, names[k]));
          g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
          g_assert_cmpuint (count_files (f->other), ==, 0);
        }
      /* a small export still works under the limit */
      {
        g_autofree char *path = g_build_filename (f->other, "small.bin", NULL);
        g_autoptr (GBytes) small = g_bytes_new_from_bytes (bytes, 0, 1024);
        const guint64 s[] = { 256 };
        g_autoptr (GError) error = NULL;
        g_assert_true (ovi_export_tensor_data (OVI_DTYPE_FLOAT32, s, 1, small, OVI_EXPORT_BIN, path,
                                               OVI_EXPORT_FLAGS_NONE, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (count_files (f->other), ==, 1);
      }
      return;
    }
  g_test_trap_subprocess (NULL, 20 * 1000 * 1000, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  /* the parent's own folder got nothing */
  g_assert_cmpuint (count_files (f->other), ==, 0);
}

/* The example's mapping.csv names a file by an original name of over 255
 * bytes. ovi_export_tensor_file_name() used to build the export name from
 * that original name, longer than any file system allows, so every export
 * of that file (and `convert` of the example folder) failed with "File
 * name too long" (a bug the tests found, now fixed). */
static void
test_long_name_export (Fixture *f, gconstpointer data)
{
  g_autoptr (GFile) root = g_file_new_for_path (f->copy);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  GListModel *files;
  guint n_checked = 0;

  g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
  files = ovi_dump_folder_get_files (folder);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);
      if (strlen (ovi_dump_file_get_name (file)) <= 255)
        continue;
      for (guint j = 0; j < tensors->len; j++)
        {
          g_autofree char *name = ovi_export_tensor_file_name (tensors->pdata[j], OVI_EXPORT_NPY);
          g_autofree char *path = g_build_filename (f->other, name, NULL);
          g_autoptr (GError) error = NULL;
          n_checked++;
          g_assert_cmpuint (strlen (name), <=, 255);
          g_assert_true (ovi_export_tensor (tensors->pdata[j], OVI_EXPORT_NPY, path,
                                            OVI_EXPORT_FLAGS_NONE, &error));
          g_assert_no_error (error);
        }
    }
  g_assert_cmpuint (n_checked, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/core/readonly/untouched", test_untouched);
  ADD ("/core/readonly/cli-refuses-output-inside", test_cli_refuses_output_inside);
  ADD ("/core/readonly/export-missing-dir", test_export_missing_dir);
  ADD ("/core/readonly/export-fsize-limit", test_export_fsize_limit);
  ADD ("/core/readonly/long-name-export", test_long_name_export);

  return g_test_run ();
}
