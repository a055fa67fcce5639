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

/* Where the inspector reads and where it writes: a scan follows no
 * symbolic link out of the opened folder (nor into /proc, /sys, /dev), and
 * no output lands in a folder that is read, however its path is spelled
 * (issue #29, items 5 and 6). */

#define LIMIT 60.0

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

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

/* Every entry below @dir, as "relative/path", sorted: what a run must not
 * change. */
static void
list_tree (const char *dir, const char *relative, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *full = g_build_filename (dir, name, NULL);
      g_autofree char *rel = *relative ? g_build_filename (relative, name, NULL) : g_strdup (name);

      g_ptr_array_add (out, g_strdup (rel));
      if (g_file_test (full, G_FILE_TEST_IS_DIR) && !g_file_test (full, G_FILE_TEST_IS_SYMLINK))
        list_tree (full, rel, out);
    }
}

static char *
tree_listing (const char *dir)
{
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);

  list_tree (dir, "", entries);
  g_ptr_array_sort (entries, compare_strings);
  g_ptr_array_add (entries, NULL);
  return g_strjoinv ("\n", (char **) entries->pdata);
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

/* Item 6, case 1: LINK points into the tree; LINK/../escape_out is, for the
 * kernel, a folder of the tree, whatever the text says. */
static void
test_dotdot_after_link (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *sub = g_build_filename (tree, "a", "b", NULL);
  g_autofree char *link = path_in (f->dir, "LINK");
  g_autofree char *before = NULL, *after = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "convert", "--output", "LINK/../escape_out", tree, NULL };

  write_op (sub, "Add.net_In.1.7.100");
  g_assert_no_errno (symlink (sub, link));
  before = tree_listing (tree);
  g_assert_cmpint (ovi_fixture_run_cli_limited (f->dir, NULL, LIMIT, &out, &err, args), ==, 2);
  g_assert_nonnull (strstr (err, "the output folder LINK/../escape_out is inside"));
  g_assert_nonnull (strstr (err, tree));
  after = tree_listing (tree);
  g_assert_cmpstr (after, ==, before);
}

/* Item 6, case 2: the tree links to a folder elsewhere and the output is
 * in that folder. The link is not followed, so that folder is not read:
 * its files are not converted, the link is named, and the output is
 * written where it was asked for. */
static void
test_output_in_linked_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *elsewhere = g_build_filename (f->dir, "elsewhere", "dumps", NULL);
  g_autofree char *ext = path_in (tree, "ext");
  g_autofree char *conv = path_in (elsewhere, "conv");
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *before = NULL, *after = NULL;
  g_autofree char *written = NULL;
  const char *args[] = { "convert", "--output", conv, tree, NULL };

  write_op (tree, "Add.net_In.1.7.100");
  write_op (elsewhere, "Add.net_Far.9.7.900");
  g_assert_no_errno (symlink (elsewhere, ext));
  before = tree_listing (elsewhere);
  g_assert_cmpint (ovi_fixture_run_cli_limited (NULL, NULL, LIMIT, &out, &err, args), ==, 1);
  g_assert_nonnull (strstr (err, "ext: a symbolic link to"));
  g_assert_nonnull (strstr (err, "outside the opened folder: not followed"));
  written = tree_listing (conv);
  g_assert_cmpstr (written, ==, "Add.net_In.1.7.100.output.0.npy");
  after = tree_listing (elsewhere);
  g_assert_nonnull (strstr (after, "Add.net_Far.9.7.900"));
  g_assert_null (strstr (after, "Add.net_Far.9.7.900.output"));
}

/* A folder already in the output that links into the tree: convert writes
 * the tree's sub/ folder below the output, which would be the tree again. */
static void
test_output_subfolder_link (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *sub = path_in (tree, "sub");
  g_autofree char *output = path_in (f->dir, "out");
  g_autofree char *trap = path_in (output, "sub");
  g_autofree char *before = NULL, *after = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "convert", "--output", output, tree, NULL };

  write_op (sub, "Add.net_In.1.7.100");
  g_assert_no_errno (g_mkdir (output, 0755));
  g_assert_no_errno (symlink (sub, trap));
  before = tree_listing (tree);
  g_assert_cmpint (ovi_fixture_run_cli_limited (NULL, NULL, LIMIT, &out, &err, args), ==, 2);
  g_assert_nonnull (strstr (err, "is inside"));
  after = tree_listing (tree);
  g_assert_cmpstr (after, ==, before);
}

/* A folder renamed after it was opened is still the folder being read: it
 * is known by the device and inode of the folders its scan entered. */
static void
test_renamed_root (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *sub = path_in (tree, "sub");
  g_autofree char *moved = path_in (f->dir, "moved");
  g_autofree char *into_moved = g_build_filename (moved, "sub", "out", NULL);
  g_autofree char *beside = path_in (f->dir, "out");
  g_autofree char *inside = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GError) error = NULL;

  write_op (sub, "Add.net_In.1.7.100");
  folder = ovi_fixture_load_folder (tree);
  g_assert_no_errno (g_rename (tree, moved));
  g_assert_false (ovi_dump_folder_check_output (folder, into_moved, &inside, &error));
  g_assert_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_OUTPUT_INSIDE);
  g_assert_nonnull (inside);
  g_assert_true (ovi_dump_folder_contains_path (folder, into_moved));
  g_assert_true (ovi_dump_folder_check_output (folder, beside, NULL, NULL));
}

/* The window's exports go through the same guard, and say where. */
static void
test_window_export (Fixture *f, gconstpointer data)
{
  g_autofree char *tree = path_in (f->dir, "tree");
  g_autofree char *sub = g_build_filename (tree, "a", "b", NULL);
  g_autofree char *link = path_in (f->dir, "LINK");
  g_autofree char *path = g_build_filename (link, "..", "report.json", NULL);
  g_autofree char *written = g_build_filename (tree, "a", "report.json", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GError) error = NULL;

  write_op (sub, "Add.net_In.1.7.100");
  g_assert_no_errno (symlink (sub, link));
  folder = ovi_fixture_load_folder (tree);
  g_assert_false (ovi_report_export (folder, OVI_EXPORT_REPORT_JSON, NULL, path, NULL, &error));
  g_assert_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_INSIDE_DUMP);
  g_assert_nonnull (strstr (error->message, "inside the inspected folder"));
  g_assert_nonnull (strstr (error->message, tree));
  g_assert_false (g_file_test (written, G_FILE_TEST_EXISTS));
}

/* The property test of the guard: random trees of folders and symbolic
 * links (into the tree, out of it, to its ancestors, chains, loops,
 * dangling), random output paths through them with "..". No output the
 * guard accepts may land in the folder being read. The oracle does not ask
 * the guard's code: it creates the output folder and compares the real
 * paths (realpath()) of both sides, and looks whether the tree changed. */

typedef struct
{
  GRand *rand;
  char *base;       /* the test's folder, real */
  char *tree;       /* the folder read */
  GPtrArray *dirs;  /* every folder made, below base */
  GPtrArray *names; /* every name made: folders and links */
} World;

static const char *
pick (World *w, GPtrArray *from)
{
  return g_ptr_array_index (from, g_rand_int_range (w->rand, 0, from->len));
}

static char *
relative_target (World *w, const char *from_dir, const char *to)
{
  /* Up to base from @from_dir, then down to @to: "../../x/y". */
  GString *s = g_string_new (NULL);
  const char *rest = from_dir + strlen (w->base);

  for (const char *p = rest; *p; p++)
    if (*p == '/')
      g_string_append (s, "../");
  g_string_append (s, to + strlen (w->base) + 1);
  return g_string_free (s, FALSE);
}

static void
build_world (World *w)
{
  static const char *const tops[] = { "tree", "outside", "side" };
  guint n_dirs = g_rand_int_range (w->rand, 3, 10);
  guint n_links = g_rand_int_range (w->rand, 2, 10);

  for (guint i = 0; i < G_N_ELEMENTS (tops); i++)
    {
      char *d = g_build_filename (w->base, tops[i], NULL);
      g_assert_no_errno (g_mkdir (d, 0755));
      g_ptr_array_add (w->dirs, d);
    }
  for (guint i = 0; i < n_dirs; i++)
    {
      const char *parent = pick (w, w->dirs);
      char *d = g_strdup_printf ("%s/d%u", parent, i);

      g_assert_no_errno (g_mkdir (d, 0755));
      g_ptr_array_add (w->dirs, d);
    }
  for (guint i = 0; i < n_links; i++)
    {
      const char *where = pick (w, w->dirs);
      g_autofree char *link = g_strdup_printf ("%s/l%u", where, i);
      g_autofree char *target = NULL;

      switch (g_rand_int_range (w->rand, 0, 6))
        {
        case 0: /* a folder, absolute */
          target = g_strdup (pick (w, w->dirs));
          break;
        case 1: /* a folder, relative */
          target = relative_target (w, where, pick (w, w->dirs));
          break;
        case 2: /* an ancestor */
          target = g_strdup (g_rand_boolean (w->rand) ? ".." : "../..");
          break;
        case 3: /* another link, made or to be made: chains and loops */
          target = g_strdup_printf ("%s/l%u", (char *) pick (w, w->dirs),
                                    g_rand_int_range (w->rand, 0, n_links));
          break;
        case 4: /* itself */
          target = g_strdup_printf ("l%u", i);
          break;
        default: /* nowhere */
          target = g_strdup ("missing/x");
          break;
        }
      g_assert_no_errno (symlink (target, link));
      g_ptr_array_add (w->names, g_strdup_printf ("l%u", i));
    }
  for (guint i = 0; i < w->dirs->len; i++)
    {
      const char *d = g_ptr_array_index (w->dirs, i);
      g_ptr_array_add (w->names, g_path_get_basename (d));
    }
}

/* An entry of the folder @path leads to (through its links), or NULL. */
static char *
random_entry (World *w, const char *path)
{
  g_autofree char *real = realpath (path, NULL);
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = real ? g_dir_open (real, 0, NULL) : NULL;
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    g_ptr_array_add (entries, g_strdup (name));
  if (entries->len == 0)
    return NULL;
  return g_strdup (pick (w, entries));
}

/* A path from a random folder through the entries met on the way (links
 * above all), "..", "." and new names. */
static char *
random_output (World *w)
{
  GString *s = g_string_new (pick (w, w->dirs));
  guint n = g_rand_int_range (w->rand, 1, 8);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *entry = NULL;

      switch (g_rand_int_range (w->rand, 0, 6))
        {
        case 0:
          g_string_append (s, "/..");
          break;
        case 1:
          g_string_append_printf (s, "/new%u", g_rand_int_range (w->rand, 0, 3));
          break;
        case 2:
          g_string_append (s, "/.");
          break;
        case 3:
          g_string_append_printf (s, "/%s", (char *) pick (w, w->names));
          break;
        default:
          if ((entry = random_entry (w, s->str)))
            g_string_append_printf (s, "/%s", entry);
          else
            g_string_append (s, "/..");
          break;
        }
    }
  return g_string_free (s, FALSE);
}

static gboolean
real_is_below (const char *real, const char *folder)
{
  gsize n = strlen (folder);
  return strncmp (real, folder, n) == 0 && (real[n] == '\0' || real[n] == '/');
}

/* The guard's verdict: whether @output may be written. */
static gboolean
accepts (OviDumpFolder *folder, const char *output)
{
  return ovi_dump_folder_check_output (folder, output, NULL, NULL);
}

static void
test_property (Fixture *f, gconstpointer data)
{
  guint32 seed = g_test_rand_int ();
  guint iterations = g_test_slow () ? 3000 : 400;
  guint accepted = 0, refused = 0, unwritable = 0;
  g_autofree char *base_real = realpath (f->dir, NULL);
  g_autoptr (GRand) master = NULL;

  if (g_getenv ("OVI_GUARD_SEED"))
    seed = (guint32) g_ascii_strtoull (g_getenv ("OVI_GUARD_SEED"), NULL, 10);
  g_test_message ("seed %u (OVI_GUARD_SEED=%u to repeat)", seed, seed);
  master = g_rand_new_with_seed (seed);
  for (guint it = 0; it < iterations; it++)
    {
      World w = { g_rand_new_with_seed (g_rand_int (master)) };
      g_autofree char *world = g_strdup_printf ("%s/w%u", base_real, it);
      g_autofree char *output = NULL;
      g_autofree char *before = NULL, *after = NULL;
      g_autofree char *tree_real = NULL, *out_real = NULL;
      g_autoptr (OviDumpFolder) folder = NULL;
      gboolean ok, inside;

      g_assert_no_errno (g_mkdir (world, 0755));
      w.base = world;
      w.dirs = g_ptr_array_new_with_free_func (g_free);
      w.names = g_ptr_array_new_with_free_func (g_free);
      build_world (&w);
      w.tree = g_build_filename (world, "tree", NULL);
      /* Opened through a link now and then: the folder read is its target. */
      if (g_rand_int_range (w.rand, 0, 4) == 0)
        {
          g_autofree char *alias = g_build_filename (world, "alias", NULL);
          g_assert_no_errno (symlink ("tree", alias));
          folder = ovi_fixture_load_folder (alias);
        }
      else
        folder = ovi_fixture_load_folder (w.tree);
      output = random_output (&w);

      ok = accepts (folder, output);

      /* The oracle. */
      before = tree_listing (w.tree);
      tree_real = realpath (w.tree, NULL);
      if (g_mkdir_with_parents (output, 0755) != 0 || !(out_real = realpath (output, NULL)))
        {
          /* Not made (a dangling link, a file in the way): the guard's
           * verdict stands alone, but nothing may have been made in the
           * tree on the way. */
          unwritable++;
          after = tree_listing (w.tree);
          if (ok)
            g_assert_cmpstr (after, ==, before);
        }
      else
        {
          after = tree_listing (w.tree);
          inside = real_is_below (out_real, tree_real) || !g_str_equal (after, before);
          if (ok && inside)
            g_error ("seed %u, iteration %u: %s accepted, but it is %s, in the folder read %s",
                     seed, it, output, out_real, tree_real);
          /* Nor is an output refused that lands outside it. */
          if (!ok && !inside)
            g_error ("seed %u, iteration %u: %s refused, but it is %s, outside %s", seed, it,
                     output, out_real, tree_real);
          ok ? accepted++ : refused++;
        }
      g_ptr_array_unref (w.dirs);
      g_ptr_array_unref (w.names);
      g_free (w.tree);
      g_rand_free (w.rand);
      ovi_fixture_remove_tree (world);
    }
  g_test_message ("%u accepted, %u refused, %u not writable", accepted, refused, unwritable);
  /* Both verdicts were put to the test. */
  g_assert_cmpuint (accepted, >, iterations / 10);
  g_assert_cmpuint (refused, >, iterations / 10);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/guard/scan-links", test_scan_links);
  ADD ("/guard/link-to-root", test_link_to_root);
  ADD ("/guard/dotdot-after-link", test_dotdot_after_link);
  ADD ("/guard/output-in-linked-folder", test_output_in_linked_folder);
  ADD ("/guard/output-subfolder-link", test_output_subfolder_link);
  ADD ("/guard/renamed-root", test_renamed_root);
  ADD ("/guard/window-export", test_window_export);
  ADD ("/guard/property", test_property);
  return g_test_run ();
}
