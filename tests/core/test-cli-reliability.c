/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ovi-fixtures.h"

/* overflow-inspector-cli where the system is not kind: a full disk on
 * standard output, entries that are not regular files. Each run has a
 * generous time limit: a hang fails the test instead of stalling it. */

#define LIMIT 30.0

static char *
example (const char *iteration)
{
  return g_build_filename (SOURCE_ROOT, "data", "example-dump", "20251202101500", "0",
                           "resnet50_train", "11", iteration, NULL);
}

/* Every command that prints to standard output, with it on a full disk:
 * a message naming the problem and a non-zero exit, never a cut file and
 * status 0 (nor, for watch, a wait for ever). */
static void
test_full_stdout (void)
{
  g_autofree char *it3 = example ("3");
  g_autofree char *it4 = example ("4");
  g_autofree char *cast =
      g_build_filename (it3, "Cast.gradients_Cast_3.57.7.1764670500000200", NULL);
  g_autofree char *node_b =
      g_build_filename (SOURCE_ROOT, "data", "example-cluster", "node-b.json", NULL);
  const char *const runs[][5] = {
    { "report", it3 },
    { "report", "--json", it3 },
    { "report", "--records-only", it3 },
    { "report", it3, it4 },
    { "report", "--json", it3, it4 },
    { "stats", cast },
    { "stats", "--json", cast },
    { "watch", it3 },
    { "watch", "--json", it3 },
    { "merge", node_b },
    { "--version" },
    { "--help" },
    { "report", "--help" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *err = NULL;
      int status;

      g_test_message ("%s %s", runs[i][0], runs[i][1] ? runs[i][1] : "");
      status = ovi_fixture_run_cli_limited (NULL, "/dev/full", LIMIT, NULL, &err, runs[i]);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, "cannot write to standard output"));
      g_assert_nonnull (strstr (err, "No space left on device"));
    }
}

typedef OviTmpDir Fixture;

/* A small dump folder at {dir}/in: Cast, which overflows, and its record. */
static char *
write_folder (Fixture *f)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("net/Cast");
  g_autoptr (GError) error = NULL;
  const guint64 shape[] = { 3 };
  static const double in_values[] = { 1, -2.5, 65504 };
  static const double out_values[] = { 0.5, 70000, -1 };
  OviClassicBlock core = { 11, 7, 57, 0, 0x10, 0x20, 0x30, 1, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  char *in = g_build_filename (f->dir, "in", NULL);
  g_autofree char *of = g_build_filename (in, "Opdebug.Node_OpDebug.2.7.200", NULL);

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT32, shape, 1, in_values);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, out_values);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, in, "Cast.net_Cast.57.7.100"));
  g_assert_true (ovi_write_overflow_file (of, p, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
  return in;
}

static int
run (Fixture *f, char **out, char **err, const char *const *args)
{
  return ovi_fixture_run_cli_limited (f->dir, NULL, LIMIT, out, err, args);
}

/* The message of the "errors" entry of @file in report --json's output. */
static const char *
error_of (JsonNode *root, const char *file)
{
  JsonArray *errors = json_object_get_array_member (json_node_get_object (root), "errors");

  for (guint i = 0; errors && i < json_array_get_length (errors); i++)
    {
      JsonObject *e = json_array_get_object_element (errors, i);
      if (g_str_equal (json_object_get_string_member (e, "file"), file))
        return json_object_get_string_member (e, "message");
    }
  g_test_message ("no error for %s", file);
  return NULL;
}

/* report --json over @in: exit 1, and the errors it lists. */
static JsonNode *
report_json (Fixture *f, const char *in)
{
  const char *args[] = { "report", "--json", in, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  JsonNode *root;

  g_assert_cmpint (run (f, &out, &err, args), ==, 1);
  root = json_from_string (out, &error);
  g_assert_no_error (error);
  return root;
}

/* A FIFO where a file is read: nothing waits for a writer that never
 * comes, and nothing reads a device without end. */
static void
test_fifo_mapping (Fixture *f, gconstpointer data)
{
  g_autofree char *in = write_folder (f);
  g_autofree char *mapping = g_build_filename (in, "mapping.csv", NULL);
  g_autofree char *out_dir = g_build_filename (f->dir, "out", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  const char *message;

  g_assert_cmpint (mkfifo (mapping, 0644), ==, 0);
  root = report_json (f, in);
  message = error_of (root, "mapping.csv");
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "not a regular file but a FIFO"));
  /* the rest of the folder is still read */
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (json_node_get_object (root), "records")),
      ==, 1);

  {
    const char *args[] = { "report", in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    g_assert_nonnull (strstr (out, "mapping.csv: not a regular file but a FIFO"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "convert", "-o", out_dir, in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    g_assert_nonnull (strstr (err, "mapping.csv: not a regular file but a FIFO"));
  }
}

static void
test_fifo_inputs (Fixture *f, gconstpointer data)
{
  g_autofree char *in = write_folder (f);
  g_autofree char *fifo = g_build_filename (f->dir, "Add.a.1.7.100", NULL);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  {
    const char *args[] = { "stats", fifo, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    g_assert_nonnull (strstr (err, fifo));
    g_assert_nonnull (strstr (err, "not a regular file but a FIFO"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "report", "--ignore", fifo, in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 2);
    g_assert_nonnull (strstr (err, fifo));
    g_assert_nonnull (strstr (err, "not a regular file but a FIFO"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "merge", fifo, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    g_assert_nonnull (strstr (err, "not a regular file but a FIFO"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "report", "--ignore", "/dev/zero", in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 2);
    g_assert_nonnull (strstr (err, "/dev/zero: not a regular file but a character device"));
  }
}

/* Entries named like dump files that cannot be read as files are listed
 * with their reason, never skipped in silence. */
static void
test_unreadable_entries (Fixture *f, gconstpointer data)
{
  g_autofree char *in = write_folder (f);
  g_autofree char *out_dir = g_build_filename (f->dir, "out", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonNode) root = NULL;
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  const struct
  {
    const char *name;
    const char *reason;
  } entries[] = {
    { "Add.fifo.1.7.100", "not a regular file but a FIFO" },
    { "Add.socket.1.7.100", "not a regular file but a socket" },
    { "Add.zero.1.7.100", "a symbolic link to “/dev/zero”, in /dev: not followed" },
    { "Add.loop.1.7.100", "Too many levels of symbolic links" },
    { "Add.dangling.1.7.100", "a symbolic link to “missing-target”, which does not exist" },
  };
  g_autofree char *fifo = g_build_filename (in, entries[0].name, NULL);
  g_autofree char *socket_path = g_build_filename (in, entries[1].name, NULL);
  g_autofree char *zero = g_build_filename (in, entries[2].name, NULL);
  g_autofree char *loop = g_build_filename (in, entries[3].name, NULL);
  g_autofree char *dangling = g_build_filename (in, entries[4].name, NULL);
  int sock = socket (AF_UNIX, SOCK_STREAM, 0);

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpuint (strlen (socket_path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, socket_path);
  g_assert_cmpint (sock, >=, 0);
  g_assert_cmpint (bind (sock, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  close (sock);
  g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  g_assert_cmpint (symlink (entries[3].name, loop), ==, 0);
  g_assert_cmpint (symlink ("missing-target", dangling), ==, 0);

  root = report_json (f, in);
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      const char *message = error_of (root, entries[i].name);

      g_test_message ("%s", entries[i].name);
      g_assert_nonnull (message);
      g_assert_nonnull (strstr (message, entries[i].reason));
    }
  {
    const char *args[] = { "convert", "-o", out_dir, in, NULL };
    g_assert_cmpint (run (f, &out, &err, args), ==, 1);
    for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
      {
        g_autofree char *line = g_strdup_printf ("%s/%s: ", in, entries[i].name);
        const char *at = strstr (err, line);

        g_test_message ("%s", entries[i].name);
        g_assert_nonnull (at);
        g_assert_nonnull (strstr (at, entries[i].reason));
      }
  }
}

/* File names holding an escape sequence or a newline reach text output
 * and stderr escaped as `ls -b` writes them, JSON as they are. */
static void
test_escaped_names (Fixture *f, gconstpointer data)
{
  g_autofree char *in = write_folder (f);
  const char *red = "Add.a\033[31mred.1.7.100", *red_shown = "Add.a\\033[31mred.1.7.100";
  const char *two = "Add.b\nline.1.7.100", *two_shown = "Add.b\\nline.1.7.100";
  g_autofree char *red_path = ovi_fixture_write_bytes (in, red, "xy", 2);
  g_autofree char *two_path = ovi_fixture_write_bytes (in, two, "xy", 2);
  g_autofree char *out_dir = g_build_filename (f->dir, "out", NULL);
  g_autoptr (JsonNode) root = NULL;
  const char *report[] = { "report", in, NULL };
  const char *convert[] = { "convert", "-o", out_dir, in, NULL };
  const char *stats[] = { "stats", red_path, NULL };
  const char *const *runs[] = { report, convert, stats };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      g_autofree char *both = NULL;

      g_assert_cmpint (run (f, &out, &err, runs[i]), ==, 1);
      both = g_strconcat (out, err, NULL);
      g_assert_null (strchr (both, '\033'));
      g_assert_null (strstr (both, "b\nline"));
      g_assert_nonnull (strstr (both, red_shown));
      if (runs[i] != stats)
        g_assert_nonnull (strstr (both, two_shown));
    }

  root = report_json (f, in);
  g_assert_nonnull (error_of (root, red));
  g_assert_nonnull (error_of (root, two));
}

/* A malformed overflow file is said to be so once, by the scan. */
static void
test_convert_malformed_overflow (Fixture *f, gconstpointer data)
{
  g_autofree char *in = write_folder (f);
  g_autofree char *path = g_build_filename (in, "Opdebug.Node_OpDebug.3.7.600", NULL);
  g_autofree guint8 *zeros = g_malloc0 (2047);
  g_autoptr (GBytes) payload = g_bytes_new (zeros, 2047);
  g_autoptr (GError) error = NULL;
  g_autofree char *out_dir = g_build_filename (f->dir, "out", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "convert", "-o", out_dir, in, NULL };
  const char *first;

  g_assert_true (ovi_write_overflow_file (path, payload, OVI_LAYOUT_NEW, &error));
  g_assert_no_error (error);
  g_assert_cmpint (run (f, &out, &err, args), ==, 1);
  first = strstr (err, "Opdebug.Node_OpDebug.3.7.600: the overflow record is 2047 bytes");
  g_assert_nonnull (first);
  g_assert_null (strstr (first + 1, "Opdebug.Node_OpDebug.3.7.600"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/cli/full-stdout", test_full_stdout);
#define ADD(path, func)                                                                            \
  g_test_add (path, Fixture, NULL, ovi_tmp_dir_setup, func, ovi_tmp_dir_teardown)
  ADD ("/core/cli/fifo-mapping", test_fifo_mapping);
  ADD ("/core/cli/fifo-inputs", test_fifo_inputs);
  ADD ("/core/cli/unreadable-entries", test_unreadable_entries);
  ADD ("/core/cli/escaped-names", test_escaped_names);
  ADD ("/core/cli/convert-malformed-overflow", test_convert_malformed_overflow);
#undef ADD
  return g_test_run ();
}
