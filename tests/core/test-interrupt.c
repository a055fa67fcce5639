/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* convert and merge interrupted while they write (issue #29, item 8): a
 * SIGTERM leaves no hidden partial file, old outputs stay whole, and the
 * temporary of a process killed outright is removed by the next run. Both
 * ways of writing are tried: unnamed files (O_TMPFILE, the default here)
 * and named temporaries (OVI_ATOMIC_FILE_NAMED=1, as on a file system
 * without unnamed files). Each wait is on a condition, with a ceiling far
 * above the time it takes. */

#define LIMIT 60.0

/* Elements of the big tensors: as .txt ("%.18e" a line), 100 MB each. */
#define BIG_N (4u << 20)
#define BIG_NAME "Big.net_Big.1.7.100"

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

typedef OviTmpDir Fixture;

static GPid
spawn_cli (gboolean named, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  GPid pid;

  g_ptr_array_add (argv, (char *) g_getenv ("OVI_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  env = g_environ_setenv (env, "OVI_ATOMIC_FILE_NAMED", named ? "1" : "0", TRUE);
  g_assert_true (g_spawn_async (NULL, (char **) argv->pdata, env,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                                    G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

/* The hidden entries of @dir, sorted, one a line: what an interrupted
 * write may have left. */
static char *
hidden_entries (const char *dir)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    if (name[0] == '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("\n", (char **) names->pdata);
}

/* Whether @pid writes, in @dir, a file that holds data already: an
 * unnamed one (its descriptor reads "DIR/#INODE (deleted)") or a hidden
 * named one. */
static gboolean
writing_in (GPid pid, const char *dir)
{
  g_autofree char *fds = g_strdup_printf ("/proc/%d/fd", (int) pid);
  g_autofree char *unnamed = g_strdup_printf ("%s/#", dir);
  g_autoptr (GDir) d = g_dir_open (fds, 0, NULL);
  g_autoptr (GDir) out = NULL;
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *fd = g_build_filename (fds, name, NULL);
      g_autofree char *target = g_file_read_link (fd, NULL);
      struct stat st;

      if (target && g_str_has_prefix (target, unnamed) && stat (fd, &st) == 0 && st.st_size > 0)
        return TRUE;
    }
  out = g_dir_open (dir, 0, NULL);
  while (out && (name = g_dir_read_name (out)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      struct stat st;

      if (name[0] == '.' && stat (path, &st) == 0 && st.st_size > 0)
        return TRUE;
    }
  return FALSE;
}

/* Waits until @pid writes in @dir; fails if it ends first or takes too long. */
static void
wait_mid_write (GPid pid, const char *dir)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (LIMIT * G_USEC_PER_SEC);
  int status;

  while (!writing_in (pid, dir))
    {
      g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0); /* still running */
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (200);
    }
}

/* Its wait status, once it ends (killed after the ceiling). */
static int
wait_end (GPid pid)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (LIMIT * G_USEC_PER_SEC);
  int status = 0;
  pid_t got;

  while ((got = waitpid (pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  if (got == 0)
    {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      g_error ("the CLI did not end within %.0f s", LIMIT);
    }
  g_spawn_close_pid (pid);
  return status;
}

/* A big op dump file in {dir}/in, and its old .txt outputs in {dir}/out. */
static void
setup_convert (Fixture *f, char **in, char **out)
{
  *in = g_build_filename (f->dir, "in", NULL);
  *out = g_build_filename (f->dir, "out", NULL);
  ovi_fixture_write_sparse_op (*in, BIG_NAME, BIG_N);
  g_assert_no_errno (g_mkdir (*out, 0755));
  g_free (ovi_fixture_write_bytes (*out, BIG_NAME ".input.0.txt", "old\n", 4));
  g_free (ovi_fixture_write_bytes (*out, BIG_NAME ".output.0.txt", "old\n", 4));
}

/* Each output is still the old one or a whole new one. */
static void
assert_outputs_whole (const char *out)
{
  const char *const names[] = { BIG_NAME ".input.0.txt", BIG_NAME ".output.0.txt" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (out, names[i], NULL);
      struct stat st;

      g_assert_no_errno (stat (path, &st));
      if (st.st_size != 4)
        g_assert_cmpint (st.st_size, ==, (goffset) BIG_N * 25);
    }
}

static void
convert_sigterm (Fixture *f, gboolean named)
{
  g_autofree char *in = NULL, *out = NULL, *left = NULL;
  int status;
  GPid pid;

  setup_convert (f, &in, &out);
  {
    const char *args[] = { "convert", "--force", "--to", "txt", "-o", out, in, NULL };
    pid = spawn_cli (named, args);
  }
  wait_mid_write (pid, out);
  g_assert_no_errno (kill (pid, SIGTERM));
  status = wait_end (pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGTERM);
  left = hidden_entries (out);
  g_assert_cmpstr (left, ==, "");
  assert_outputs_whole (out);
}

static void
test_convert_sigterm_unnamed (Fixture *f, gconstpointer data)
{
  convert_sigterm (f, FALSE);
}

static void
test_convert_sigterm_named (Fixture *f, gconstpointer data)
{
  convert_sigterm (f, TRUE);
}

/* SIGKILL leaves the named temporary; the next run that writes into that
 * folder removes it, and nothing that is not its own to remove: a
 * temporary of a live process, one of another machine, other hidden
 * files. */
static void
test_convert_sigkill_then_clean (Fixture *f, gconstpointer data)
{
  g_autofree char *in = NULL, *out = NULL, *left = NULL;
  g_autofree char *small = g_build_filename (f->dir, "small", NULL);
  g_autofree char *mine_live = NULL, *other_host = NULL, *expected = NULL;
  g_autofree char *host = g_strndup (g_get_host_name (), 32);
  g_autofree char *err = NULL;
  int status;
  GPid pid;

  for (char *p = host; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      *p = '_';
  setup_convert (f, &in, &out);
  {
    const char *args[] = { "convert", "--force", "--to", "txt", "-o", out, in, NULL };
    pid = spawn_cli (TRUE, args);
  }
  wait_mid_write (pid, out);
  g_assert_no_errno (kill (pid, SIGKILL));
  status = wait_end (pid);
  g_assert_true (WIFSIGNALED (status));
  left = hidden_entries (out);
  {
    g_autofree char *mark = g_strdup_printf (".ovi-%d@%s.", (int) pid, host);
    g_test_message ("left by SIGKILL: %s", left);
    g_assert_nonnull (strstr (left, mark));
  }
  /* Not ours to remove. */
  mine_live = g_strdup_printf (".y.npy.ovi-%d@%s.abcdef", (int) getpid (), host);
  other_host = g_strdup_printf (".z.npy.ovi-%d@%s.abcdef", (int) pid, "another-machine");
  g_free (ovi_fixture_write_bytes (out, mine_live, "x", 1));
  g_free (ovi_fixture_write_bytes (out, other_host, "x", 1));
  g_free (ovi_fixture_write_bytes (out, ".keep", "x", 1));

  /* The next run, into the same folder. */
  {
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Add");
    const guint64 shape[] = { 2 };
    static const double values[] = { 1, 2 };
    const char *args[] = { "convert", "-o", out, small, NULL };

    ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT32, shape, 1, values);
    g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, small, "Add.net_Add.2.7.200"));
    g_assert_cmpint (ovi_fixture_run_cli_limited (NULL, NULL, LIMIT, NULL, &err, args), ==, 0);
  }
  g_free (left);
  left = hidden_entries (out);
  {
    const char *keep[] = { ".keep", mine_live, other_host, NULL };
    g_autoptr (GPtrArray) sorted = g_ptr_array_new ();

    for (guint i = 0; keep[i]; i++)
      g_ptr_array_add (sorted, (char *) keep[i]);
    g_ptr_array_sort (sorted, compare_strings);
    g_ptr_array_add (sorted, NULL);
    expected = g_strjoinv ("\n", (char **) sorted->pdata);
  }
  g_assert_cmpstr (left, ==, expected);
  assert_outputs_whole (out);
}

/* A report of many records, for a merge that takes a while to write. */
static char *
write_big_report (const char *dir, guint copies)
{
  g_autofree char *example =
      g_build_filename (SOURCE_ROOT, "data", "example-cluster", "node-b.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, "big.json", NULL);
  JsonObject *root;
  JsonArray *records;
  guint n;

  g_assert_true (json_parser_load_from_file (parser, example, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  records = json_object_get_array_member (root, "records");
  n = json_array_get_length (records);
  for (guint c = 1; c < copies; c++)
    for (guint i = 0; i < n; i++)
      json_array_add_element (records, json_node_copy (json_array_get_element (records, i)));
  json_generator_set_root (generator, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (generator, path, &error));
  g_assert_no_error (error);
  return path;
}

static void
merge_sigterm (Fixture *f, gboolean named)
{
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_autofree char *merged = g_build_filename (out, "cluster.json", NULL);
  g_autofree char *report = write_big_report (f->dir, 2000);
  g_autofree char *old = NULL, *left = NULL;
  const char *args[] = { "merge", "--output", merged, report, NULL };
  int status;
  GPid pid;

  g_assert_no_errno (g_mkdir (out, 0755));
  g_free (ovi_fixture_write_bytes (out, "cluster.json", "old\n", 4));
  pid = spawn_cli (named, args);
  wait_mid_write (pid, out);
  g_assert_no_errno (kill (pid, SIGTERM));
  status = wait_end (pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGTERM);
  left = hidden_entries (out);
  g_assert_cmpstr (left, ==, "");
  g_assert_true (g_file_get_contents (merged, &old, NULL, NULL));
  g_assert_cmpstr (old, ==, "old\n");
}

static void
test_merge_sigterm_unnamed (Fixture *f, gconstpointer data)
{
  merge_sigterm (f, FALSE);
}

static void
test_merge_sigterm_named (Fixture *f, gconstpointer data)
{
  merge_sigterm (f, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/interrupt/convert-sigterm-unnamed", test_convert_sigterm_unnamed);
  ADD ("/interrupt/convert-sigterm-named", test_convert_sigterm_named);
  ADD ("/interrupt/convert-sigkill-then-clean", test_convert_sigkill_then_clean);
  ADD ("/interrupt/merge-sigterm-unnamed", test_merge_sigterm_unnamed);
  ADD ("/interrupt/merge-sigterm-named", test_merge_sigterm_named);
  return g_test_run ();
}
