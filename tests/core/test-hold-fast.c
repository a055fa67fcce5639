/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/securebits.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ovi-core.h"
#include "ovi-diff-fixture.h"
#include "ovi-fixtures.h"

/* Hold fast, round 3: what the inspector writes never replaces a device or
 * a FIFO, what it reads is looked at before it is opened, and no golden
 * .npy file is left out in silence. Device nodes and FIFOs are made in the
 * test's own folder; nothing here touches /dev. Each CLI run has a time
 * limit: a hang fails the test instead of stalling it. */

#define LIMIT 30.0

typedef OviTmpDir Fixture;

static const guint64 shape24[] = { 2, 4 };

/* MatMul → Add → Relu at {dir}/{name}/{levels}. */
static char *
write_run (Fixture *f, const char *name, const char *levels)
{
  char *dir = g_build_filename (f->dir, name, levels, NULL);
  const double x[] = { 1, -2, 3, -4, 5, 6, -7, 8 };
  const double a[] = { 2, -1, 4, -3, 6, 7, -6, 9 };
  const double b[] = { 3, 0, 5, -2, 7, 8, -5, 10 };
  const double c[] = { 3, 0, 5, 0, 7, 8, 0, 10 };

  ovi_fixture_write_op (dir, "MatMul", "net/MatMul", 1, OVI_DTYPE_FLOAT32, shape24, 2, x, a);
  ovi_fixture_write_op (dir, "Add", "net/Add", 2, OVI_DTYPE_FLOAT32, shape24, 2, a, b);
  ovi_fixture_write_op (dir, "Relu", "net/Relu", 3, OVI_DTYPE_FLOAT32, shape24, 2, b, c);
  return dir;
}

static int
run (char **out, char **err, const char *const *args)
{
  return ovi_fixture_run_cli_limited (NULL, NULL, LIMIT, out, err, args);
}

/* A character device like /dev/null (1, 3), made at @path; FALSE where the
 * test may not make one (not root). */
static gboolean
make_null_device (const char *path)
{
  if (mknod (path, S_IFCHR | 0666, makedev (1, 3)) == 0)
    return TRUE;
  g_test_message ("mknod %s: %s", path, g_strerror (errno));
  return FALSE;
}

static void
assert_type (const char *path, mode_t type)
{
  struct stat st;

  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & S_IFMT, ==, type);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The names in @dir, sorted, one a line. */
static char *
listing (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("\n", (char **) names->pdata);
}

/* Every writer with a character device as its output: written through, the
 * node stays what it was, and no file is left beside it. */
static void
test_output_device (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "0/model/1");
  g_autofree char *dev_dir = g_build_filename (f->dir, "dev", NULL);
  g_autofree char *dev = g_build_filename (dev_dir, "null", NULL);
  g_autofree char *report = g_build_filename (f->dir, "report.json", NULL);
  g_autofree char *converted = g_build_filename (f->dir, "converted", NULL);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (g_mkdir (dev_dir, 0755), ==, 0);
  if (!make_null_device (dev))
    {
      g_test_skip ("cannot make a device node here");
      return;
    }

  {
    const char *args[] = { "diff", "--csv", dev, mine, mine, NULL };
    g_assert_cmpint (run (&out, &err, args), ==, 0);
    assert_type (dev, S_IFCHR);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "report", "--json", mine, NULL };
    g_assert_cmpint (run (&out, &err, args), ==, 0);
    g_assert_true (g_file_set_contents (report, out, -1, NULL));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "merge", "--output", dev, report, NULL };
    g_assert_cmpint (run (&out, &err, args), ==, 0);
    assert_type (dev, S_IFCHR);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    /* The window's exports write through the same opener. */
    g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (mine);
    g_autoptr (GError) error = NULL;

    g_assert_true (ovi_report_export (folder, OVI_EXPORT_REPORT_TEXT, NULL, dev, NULL, &error));
    g_assert_no_error (error);
    assert_type (dev, S_IFCHR);
  }
  {
    g_autofree char *names = listing (dev_dir);
    g_assert_cmpstr (names, ==, "null");
  }

  /* convert --force over a tree where one file is a device. */
  {
    const char *args[] = { "convert", "--output", converted, mine, NULL };
    g_assert_cmpint (run (&out, &err, args), ==, 0);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    g_autofree char *names = listing (converted);
    g_auto (GStrv) each = g_strsplit (names, "\n", -1);
    g_autofree char *node = g_build_filename (converted, each[0], NULL);
    const char *args[] = { "convert", "--force", "--output", converted, mine, NULL };

    g_assert_true (g_str_has_suffix (node, ".npy"));
    g_assert_cmpint (g_unlink (node), ==, 0);
    g_assert_true (make_null_device (node));
    g_assert_cmpint (run (&out, &err, args), ==, 0);
    assert_type (node, S_IFCHR);
    g_free (each[0]);
    each[0] = listing (converted);
    g_assert_cmpstr (each[0], ==, names);
  }
}

/* A FIFO as the output: written through to the program reading it; with
 * nobody reading, refused at once with a message, never waited on. */
static void
test_output_fifo (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "0/model/1");
  g_autofree char *fifo = g_build_filename (f->dir, "fifo", NULL);
  g_autofree char *read_path = g_build_filename (f->dir, "read.csv", NULL);
  g_autofree char *read = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) cat = NULL;
  g_autoptr (GError) error = NULL;
  struct stat st;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  {
    const char *args[] = { "diff", "--csv", fifo, mine, mine, NULL };
    g_assert_cmpint (run (&out, &err, args), ==, 1);
    g_assert_nonnull (strstr (err, fifo));
    g_assert_nonnull (strstr (err, "a FIFO (named pipe) that no program reads"));
    assert_type (fifo, S_IFIFO);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  g_subprocess_launcher_set_stdout_file_path (launcher, read_path);
  cat = g_subprocess_launcher_spawn (launcher, &error, "cat", fifo, NULL);
  g_assert_no_error (error);
  {
    const char *args[] = { "diff", "--csv", fifo, mine, mine, NULL };
    /* cat opens the FIFO when it starts: the diff waits for no reader, so
     * it is run until cat is there. */
    int status;

    while ((status = run (&out, &err, args)) == 1 && strstr (err, "no program reads"))
      {
        g_clear_pointer (&out, g_free);
        g_clear_pointer (&err, g_free);
        g_main_context_iteration (NULL, FALSE);
      }
    g_test_message ("%s", err);
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_cmpint (lstat (fifo, &st), ==, 0);
  if (!S_ISFIFO (st.st_mode))
    g_subprocess_force_exit (cat);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_true (g_subprocess_wait_check (cat, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (read_path, &read, NULL, NULL));
  g_assert_true (g_str_has_prefix (read, "Index,OpType,"));
  g_assert_nonnull (strstr (read, ",Add,net_Add,"));
}

/* A symbolic link to a regular file as the output: the file is replaced,
 * the link stays. */
static void
test_output_symlink (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "0/model/1");
  g_autofree char *target = g_build_filename (f->dir, "target.csv", NULL);
  g_autofree char *link = g_build_filename (f->dir, "link.csv", NULL);
  g_autofree char *text = NULL, *out = NULL, *err = NULL;
  const char *args[] = { "diff", "--csv", link, mine, mine, NULL };

  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.csv", link), ==, 0);
  g_assert_cmpint (run (&out, &err, args), ==, 0);
  assert_type (link, S_IFLNK);
  g_assert_true (g_file_get_contents (target, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "Index,OpType,"));
}

/* A folder or a socket at the output's path: refused with a message. */
static void
test_output_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "0/model/1");
  g_autofree char *folder = g_build_filename (f->dir, "out.csv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "diff", "--csv", folder, mine, mine, NULL };

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_cmpint (run (&out, &err, args), ==, 1);
  g_assert_nonnull (strstr (err, folder));
  g_assert_nonnull (strstr (err, "not a regular file but a folder"));
  assert_type (folder, S_IFDIR);
}

/* An input whose format has a size limit: a larger regular file (sparse
 * here) is refused with the limit, not read into memory. */
static void
test_input_size_limit (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "0/model/1");
  g_autofree char *list = g_build_filename (f->dir, "ignore.txt", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "report", "--ignore", list, mine, NULL };
  int fd = open (list, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, 1u << 30), ==, 0);
  close (fd);
  g_assert_cmpint (run (&out, &err, args), ==, 2);
  g_assert_nonnull (strstr (err, list));
  /* g_format_size() puts a no-break space before the unit. */
  g_assert_nonnull (strstr (err, "larger than 16.0\u00a0MiB: not read"));
}

/* convert's .npy files of my run as a golden run at {dir}/golden. */
static char *
convert_golden (Fixture *f, const char *mine)
{
  char *golden = g_build_filename (f->dir, "golden", NULL);
  const char *args[] = { "convert", "--output", golden, mine, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run (&out, &err, args), ==, 0);
  return golden;
}

/* The path of the .npy file of @op's output 0 below @dir. */
static char *
find_npy (const char *dir, const char *op)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *infix = g_strdup_printf (".%s.", op);
  const char *name;

  while ((name = g_dir_read_name (d)))
    if (strstr (name, infix) && g_str_has_suffix (name, ".output.0.npy"))
      return g_build_filename (dir, name, NULL);
  g_assert_not_reached ();
}

/* The tree convert writes from a whole dump folder (timestamp, device,
 * model, model id, iteration: five levels) is a golden run. */
static void
test_golden_convert_tree (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "20260101000000/0/model/11/3");
  g_autofree char *root = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *golden = convert_golden (f, root);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "diff", root, golden, NULL };

  g_assert_cmpint (run (&out, &err, args), ==, 0);
  g_test_message ("%s%s", out, err);
  g_assert_nonnull (strstr (out, "Summary: identical 3; problems 0"));
}

/* A FIFO named like a golden .npy file: a problem naming it, and the diff
 * ends. */
static void
test_golden_npy_fifo (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "");
  g_autofree char *golden = convert_golden (f, mine);
  g_autofree char *npy = find_npy (golden, "net_Add");
  g_autofree char *base = g_path_get_basename (npy);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *line = NULL;
  const char *args[] = { "diff", mine, golden, NULL };

  g_assert_cmpint (g_unlink (npy), ==, 0);
  g_assert_cmpint (mkfifo (npy, 0644), ==, 0);
  g_assert_cmpint (run (&out, &err, args), ==, 1);
  g_test_message ("%s%s", out, err);
  line = g_strdup_printf ("%s: not a regular file but a FIFO", base);
  g_assert_nonnull (strstr (out, line));
}

/* ovi_npy_load() and ovi_npy_open() on a FIFO: an error at once. */
static void
test_npy_open_fifo (Fixture *f, gconstpointer data)
{
  g_autofree char *fifo = g_build_filename (f->dir, "a.npy", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviNpy) loaded = NULL;
  g_autoptr (OviNpy) opened = NULL;
  int fd = -1;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  loaded = ovi_npy_load (fifo, &error);
  g_assert_null (loaded);
  g_assert_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "not a regular file but a FIFO"));
  g_clear_error (&error);
  opened = ovi_npy_open (fifo, &fd, &error);
  g_assert_null (opened);
  g_assert_cmpint (fd, ==, -1);
  g_assert_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "not a regular file but a FIFO"));
}

/* A dump file replaced by a FIFO after the folder was listed: reading its
 * tensor fails with a message, it does not wait for a writer. */
static void
test_dump_file_becomes_fifo (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "");
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (mine);
  GListModel *files = ovi_dump_folder_get_files (folder);
  g_autoptr (OviDumpFile) file = g_list_model_get_item (files, 0);
  const char *path = ovi_dump_file_get_path (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  bytes = ovi_dump_file_map_range (file, 0, 1, &error);
  g_assert_null (bytes);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "not a regular file but a FIFO"));
}

/* Golden .npy files that are not read are problems: a symbolic link, a
 * subfolder that cannot be opened, a folder below the depth limit. */
static void
test_golden_npy_left_out (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "");
  g_autofree char *golden = convert_golden (f, mine);
  g_autofree char *npy = find_npy (golden, "net_Relu");
  g_autofree char *elsewhere = g_build_filename (f->dir, "relu.npy", NULL);
  g_autofree char *closed = g_build_filename (golden, "closed", NULL);
  g_autofree char *deep = g_strdup (golden);
  g_autofree char *base = g_path_get_basename (npy);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *link_line = NULL;
  const char *args[] = { "diff", mine, golden, NULL };

  /* The Relu output a link to a file outside. */
  g_assert_cmpint (g_rename (npy, elsewhere), ==, 0);
  g_assert_cmpint (symlink (elsewhere, npy), ==, 0);
  /* A folder no one may enter. */
  g_assert_cmpint (g_mkdir (closed, 0), ==, 0);
  /* A .npy file 20 folders down. */
  for (guint i = 0; i < 20; i++)
    {
      char *next = g_build_filename (deep, "d", NULL);
      g_free (deep);
      deep = next;
    }
  g_assert_cmpint (g_mkdir_with_parents (deep, 0755), ==, 0);
  {
    g_autofree char *copy = g_build_filename (deep, base, NULL);
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_true (g_file_get_contents (elsewhere, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (copy, contents, length, NULL));
  }

  g_assert_cmpint (run (&out, &err, args), !=, 0);
  g_test_message ("%s%s", out, err);
  link_line = g_strdup_printf ("%s: a symbolic link", base);
  g_assert_nonnull (strstr (out, link_line));
  g_assert_nonnull (strstr (out, "closed: cannot read the folder: Permission denied"));
  {
    /* The folder past the limit, named from the golden root. */
    g_autoptr (GString) line = g_string_new ("golden");
    for (guint i = 0; i <= 16; i++)
      g_string_append (line, "/d");
    g_string_append (line, ": more than 16 folders deep: not read");
    g_assert_nonnull (strstr (out, line->str));
  }
  g_assert_cmpint (chmod (closed, 0755), ==, 0);
}

/* A folder that can be listed but not entered: its entries are problems,
 * and no mapping.csv it does not have. */
static void
test_no_phantom_mapping (Fixture *f, gconstpointer data)
{
  g_autofree char *mine = write_run (f, "mine", "0/model/1");
  g_autofree char *shut = g_build_filename (f->dir, "mine", "0", "model", "2", NULL);
  g_autofree char *root = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "report", root, NULL };

  ovi_fixture_write_op (shut, "Add", "net/Add", 2, OVI_DTYPE_FLOAT32, shape24, 2,
                        (const double[]){ 1, 2, 3, 4, 5, 6, 7, 8 },
                        (const double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
  g_assert_cmpint (chmod (shut, 0644), ==, 0);
  run (&out, &err, args);
  g_assert_cmpint (chmod (shut, 0755), ==, 0);
  g_test_message ("%s%s", out, err);
  g_assert_null (strstr (out, "mapping.csv"));
  g_assert_nonnull (
      strstr (out, "0/model/2/Add.net_Add.2.7.1764670500000200: cannot open: Permission denied"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* One it has and cannot read is a problem still. */
  {
    g_autofree char *mapping = g_build_filename (shut, "mapping.csv", NULL);
    g_assert_true (g_file_set_contents (mapping, "", 0, NULL));
  }
  g_assert_cmpint (chmod (shut, 0644), ==, 0);
  run (&out, &err, args);
  g_assert_cmpint (chmod (shut, 0755), ==, 0);
  g_assert_nonnull (strstr (out, "0/model/2/mapping.csv: cannot open: Permission denied"));
}

int
main (int argc, char **argv)
{
  /* Permission bits count for root too (before any thread starts), and
   * for the programs it runs: exec gives root no capabilities back. */
  ovi_fixture_drop_dac_override ();
  if (geteuid () == 0 && prctl (PR_SET_SECUREBITS, SECBIT_NOROOT) != 0)
    g_warning ("cannot keep capabilities from the CLI: %s", g_strerror (errno));
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/hold/output/device", test_output_device);
  ADD ("/hold/output/fifo", test_output_fifo);
  ADD ("/hold/output/symlink", test_output_symlink);
  ADD ("/hold/output/folder", test_output_folder);
  ADD ("/hold/input/size-limit", test_input_size_limit);
  ADD ("/hold/input/npy-fifo", test_golden_npy_fifo);
  ADD ("/hold/input/npy-open-fifo", test_npy_open_fifo);
  ADD ("/hold/input/dump-file-becomes-fifo", test_dump_file_becomes_fifo);
  ADD ("/hold/golden/convert-tree", test_golden_convert_tree);
  ADD ("/hold/golden/npy-left-out", test_golden_npy_left_out);
  ADD ("/hold/scan/no-phantom-mapping", test_no_phantom_mapping);
#undef ADD
  return g_test_run ();
}
