/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <string.h>
#include <sys/wait.h>

#include "ovi-fixtures.h"
#include "ovi-i18n.h"

/* Core's messages under LANGUAGE=zh_CN, with the catalog compiled in the
 * build tree (OVI_LOCALEDIR, set by meson): what the Problems page and the
 * tensor labels show, while the JSON report keeps its English words. */

typedef OviTmpDir Fixture;

static const char stray_text[] = "hello world, this is not a dump file\n";

/* The only problem of a folder holding one unreadable @name. */
static char *
dup_problem (const char *dir, const char *name, const void *data, gsize length)
{
  g_autofree char *path = ovi_fixture_write_bytes (dir, name, data, length);
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (dir);
  GListModel *problems = ovi_dump_folder_get_problems (folder);
  g_autoptr (OviProblem) problem = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  return g_strdup (ovi_problem_get_message (problem));
}

static void
test_problem_reasons (Fixture *f, gconstpointer data)
{
  g_autofree char *stray =
      dup_problem (f->dir, "Add.add_1.1.1.1700000000000000", stray_text, strlen (stray_text));
  g_autofree char *expected = NULL;

  /* The 64-bit numbers go through %<PRIu64>, which the catalog must expand. */
  expected = g_strdup_printf (
      "头部长度 %" G_GUINT64_FORMAT " 大于文件本身（%zu 字节），且该文件也不是旧格式的 Dump 消息",
      GUINT64_FROM_LE (*(guint64 *) (gconstpointer) stray_text), strlen (stray_text));
  g_assert_cmpstr (stray, ==, expected);
}

static void
test_truncated_reason (Fixture *f, gconstpointer data)
{
  g_autofree char *truncated = dup_problem (f->dir, "Add.add_1.1.1.1700000000000000", "12345", 5);

  g_assert_cmpstr (truncated, ==,
                   "文件被截断：只有 5 字节，而 Dump 文件在 8 字节的头部长度字段之后还有内容");
}

static void
test_tensor_labels (Fixture *f, gconstpointer data)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("add_1");
  const guint64 shape[] = { 2 };
  static const double v[] = { 1, 2 };
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  GPtrArray *tensors;
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  JsonNode *json;

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, v);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, "Add.add_1.1.1.1700000000000000"));
  folder = ovi_fixture_load_folder (f->dir);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 1);
  file = g_list_model_get_item (ovi_dump_folder_get_files (folder), 0);
  tensors = ovi_dump_file_get_tensors (file);
  g_assert_cmpuint (tensors->len, ==, 2);

  input = ovi_tensor_dup_label (g_ptr_array_index (tensors, 0));
  output = ovi_tensor_dup_label (g_ptr_array_index (tensors, 1));
  g_assert_cmpstr (input, ==, "输入 0");
  g_assert_cmpstr (output, ==, "输出 0");

  /* The report's words for programs stay English. */
  json = ovi_report_tensor_json (g_ptr_array_index (tensors, 0));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json), "kind"), ==,
                   "input");
  json_node_unref (json);
}

/* The command-line tool: text in Chinese, JSON in English. */
static void
test_cli (Fixture *f, gconstpointer data)
{
  const char *cli = g_getenv ("OVI_CLI");
  g_autofree char *path = ovi_fixture_write_bytes (f->dir, "Add.add_1.1.1.1700000000000000",
                                                   stray_text, strlen (stray_text));
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  const char *text_argv[] = { cli, "report", f->dir, NULL };
  const char *json_argv[] = { cli, "report", "--json", f->dir, NULL };
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) text_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &text, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_sync (NULL, (char **) json_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &json, NULL, NULL, &error));
  g_assert_no_error (error);

  g_assert_nonnull (strstr (text, "无法读取的文件："));
  g_assert_nonnull (strstr (text, "头部长度 "));
  g_assert_null (strstr (text, "header length"));
  g_assert_nonnull (strstr (json, "\"message\" : \"header length "));
  g_assert_null (strstr (json, "头部"));
}

/* The README's `LANG=zh_CN.UTF-8` on a machine where that locale was never
 * generated (most servers and containers: `locale -a` lists C and
 * C.UTF-8 only): the C library refuses it, yet the report is in Chinese,
 * the unit of the record found in the data ("Data") too. */
static void
test_cli_missing_locale (void)
{
  const char *cli = g_getenv ("OVI_CLI");
  g_autofree char *example =
      g_build_filename (g_getenv ("SOURCE_ROOT"), "data", "example-dump", NULL);
  const char *argv[] = { cli, "report", "--records-only", example, NULL };
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  int status = -1;

  g_assert_nonnull (cli);
  if (setlocale (LC_ALL, "zh_CN.UTF-8") != NULL)
    g_test_message ("zh_CN.UTF-8 is generated here: the fallback is not what is tested");
  else
    g_test_message ("zh_CN.UTF-8 is not generated here: the fallback is tested");
  setlocale (LC_ALL, "C.UTF-8");
  env = g_environ_unsetenv (env, "LANGUAGE");
  env = g_environ_unsetenv (env, "LC_ALL");
  env = g_environ_unsetenv (env, "LC_MESSAGES");
  env = g_environ_setenv (env, "LANG", "zh_CN.UTF-8", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &text, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  /* The example has one unreadable file: exit status 1. */
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) <= 1);
  g_assert_nonnull (strstr (text, "无法读取的文件："));
  g_assert_null (strstr (text, "Files that could not be read"));
  /* Iteration 12's record, found in the data. */
  g_assert_nonnull (strstr (text, "  数据  "));
  g_assert_null (strstr (text, "  Data  "));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* Set by meson: without them this test would pass on English text. */
  g_assert_cmpstr (g_getenv ("LANGUAGE"), ==, "zh_CN");
  g_assert_nonnull (g_getenv ("OVI_LOCALEDIR"));
  ovi_i18n_init ();

  g_test_add ("/core/i18n/problem-reason", Fixture, NULL, ovi_tmp_dir_setup, test_problem_reasons,
              ovi_tmp_dir_teardown);
  g_test_add ("/core/i18n/truncated-reason", Fixture, NULL, ovi_tmp_dir_setup,
              test_truncated_reason, ovi_tmp_dir_teardown);
  g_test_add ("/core/i18n/tensor-labels", Fixture, NULL, ovi_tmp_dir_setup, test_tensor_labels,
              ovi_tmp_dir_teardown);
  g_test_add ("/core/i18n/cli", Fixture, NULL, ovi_tmp_dir_setup, test_cli, ovi_tmp_dir_teardown);
  g_test_add_func ("/core/i18n/cli-missing-locale", test_cli_missing_locale);
  return g_test_run ();
}
