/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* Where the inspector reads: a scan follows no symbolic link out of the
 * opened folder, nor into /proc, /sys or /dev (issue #29, item 5). */

#define LIMIT 60.0

typedef OviTmpDir Fixture;

/* A small op dump file @name in @dir. */
static void
write_op (const char *dir, const char *name)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Add");
  const guint64 shape[] = { 2 };
  static const double values[] = { 1, 2 };

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, values);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, name));
}

static char *
path_in (const char *dir, const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static const char *
problem_of (OviDumpFolder *folder, const char *file)
{
  GListModel *problems = ovi_dump_folder_get_problems (folder);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);

      if (g_str_equal (ovi_problem_get_file (p), file))
        return ovi_problem_get_message (p);
    }
  return NULL;
}

/* Item 5: links out of the opened folder, into /proc, /sys and /dev, are
 * not followed and each is a problem saying where it points; links that
 * stay inside still work, and loops end. */
static void
test_scan_links (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *sub = g_build_filename (tree, "sub", NULL);
  g_autofree char *outside = path_in (f->dir, "outside");
  g_autoptr (OviDumpFolder) folder = NULL;
  const struct
  {
    const char *name, *target, *says;
  } skipped[] = {
    { "out", "../outside", "a symbolic link to “../outside”, outside the opened folder" },
    { "proc", "/proc/self", "a symbolic link to “/proc/self”, in /proc: not followed" },
    { "sys", "/sys", "a symbolic link to “/sys”, in /sys: not followed" },
    { "dev", "/dev", "a symbolic link to “/dev”, in /dev: not followed" },
    { "Add.net_Out.3.7.300", "../outside/Add.net_Far.9.7.900",
      "a symbolic link to “../outside/Add.net_Far.9.7.900”, outside the opened folder" },
  };

  write_op (sub, "Add.net_In.1.7.100");
  write_op (outside, "Add.net_Far.9.7.900");
  for (guint i = 0; i < G_N_ELEMENTS (skipped); i++)
    {
      g_autofree char *link = path_in (tree, skipped[i].name);
      g_assert_no_errno (symlink (skipped[i].target, link));
    }
  {
    g_autofree char *in = path_in (tree, "in");
    g_autofree char *loop = path_in (sub, "loop");
    g_autofree char *up = path_in (sub, "up");
    g_autofree char *in_file = path_in (tree, "Add.net_Alias.2.7.200");

    g_assert_no_errno (symlink ("sub", in));                         /* inside: followed once */
    g_assert_no_errno (symlink ("loop", loop));                      /* a loop of its own */
    g_assert_no_errno (symlink ("..", up));                          /* back to the root */
    g_assert_no_errno (symlink ("sub/Add.net_In.1.7.100", in_file)); /* a file inside */
  }

  folder = ovi_fixture_load_folder (tree);
  /* The file below sub/ (once, whichever way it is reached) and the file
   * linked to inside; nothing from outside. */
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (skipped); i++)
    {
      const char *message = problem_of (folder, skipped[i].name);

      g_test_message ("%s: %s", skipped[i].name, message ? message : "(no problem)");
      g_assert_nonnull (message);
      g_assert_nonnull (strstr (message, skipped[i].says));
    }
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==,
                    G_N_ELEMENTS (skipped));
}

/* Item 5 from the CLI: a link to / in a dump folder neither walks the
 * machine nor hangs; it is one error of the report. */
static void
test_link_to_root (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *link = path_in (tree, "everything");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  const char *args[] = { "report", "--json", tree, NULL };
  JsonArray *errors;

  write_op (tree, "Add.net_In.1.7.100");
  g_assert_no_errno (symlink ("/", link));
  g_assert_cmpint (ovi_fixture_run_cli_limited (NULL, NULL, LIMIT, &out, &err, args), ==, 1);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  errors =
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "errors");
  g_assert_cmpuint (json_array_get_length (errors), ==, 1);
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (errors, 0), "file"), ==,
      "everything");
  g_assert_nonnull (
      strstr (json_object_get_string_member (json_array_get_object_element (errors, 0), "message"),
              "a symbolic link to “/”, outside the opened folder: not followed"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/guard/scan-links", test_scan_links);
  ADD ("/guard/link-to-root", test_link_to_root);
  return g_test_run ();
}
