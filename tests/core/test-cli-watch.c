/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>

#include "ovi-fixtures.h"

/* overflow-inspector-cli watch, run as a job script runs it (path from
 * $OVI_CLI): it follows a folder another process writes into. */

typedef OviTmpDir Fixture;

#define EXIT_OVERFLOW 4

static const guint64 shape[] = { 4 };
static const double clean[] = { 1, 2, 3, 4 };
static const double with_inf[] = { 1, INFINITY, 3, 4 };

static const char *
cli (void)
{
  const char *path = g_getenv ("OVI_CLI");
  g_assert_nonnull (path);
  return path;
}

/* Iteration 12 of device 3: Cast (task 7 on stream 5) makes Inf. */
static char *
iteration_dir (Fixture *f)
{
  char *dir = g_build_filename (f->dir, "20261205120000", "3", "1", "12", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return dir;
}

static void
write_op (const char *dir)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("gradients/Cast_3");

  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 1, clean);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, with_inf);
  g_free (ovi_fixture_write (w, OVI_LAYOUT_NEW, dir, "Cast.gradients_Cast_3.7.5.1000"));
}

/* The AI Core's record for task 7 on stream 5, written and closed. */
static void
write_record (const char *dir)
{
  const guint64 aic[] = { 1, 5, 7, 0, 0, 0, 0x1000, 0x2000, 3, 2, 0x20 };
  g_autoptr (GBytes) payload = ovi_overflow_payload_new (0, 0, aic, G_N_ELEMENTS (aic));
  g_autofree char *path = g_build_filename (dir, "Opdebug.Node_OpDebug.7.5.2000", NULL);

  g_assert_true (ovi_write_overflow_file (path, payload, OVI_LAYOUT_NEW, NULL));
}

static GSubprocess *
start_watch (const char *const *args, GDataInputStream **err)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autofree char *line = NULL;
  GSubprocess *p;

  g_strv_builder_add (b, cli ());
  g_strv_builder_add (b, "watch");
  g_strv_builder_addv (b, (const char **) args);
  argv = g_strv_builder_end (b);
  p = g_subprocess_newv ((const char *const *) argv,
                         G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  /* It says how it follows the folder once it does. */
  *err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  line = g_data_input_stream_read_line_utf8 (*err, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "Following "));
  g_assert_nonnull (strstr (line, "following changes as the system reports them"));
  return p;
}

static void
wait_done (GObject *source, GAsyncResult *result, gpointer data)
{
  *(gint64 *) data = g_get_monotonic_time ();
}

/* How long `report` takes over @dir, in microseconds: the measure a
 * watch's reaction is judged against in the same run, busy machine or not. */
static gint64
report_time (const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;
  gint64 start = g_get_monotonic_time ();

  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, cli (), "report", dir, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait (p, NULL, &error));
  return g_get_monotonic_time () - start;
}

/* Waits at most @seconds; returns when it exited, or 0. */
static gint64
wait_for_exit (GSubprocess *p, double seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  gint64 exited = 0;

  g_subprocess_wait_async (p, NULL, wait_done, &exited);
  while (exited == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
  return exited;
}

/* A line of @in, or NULL when none comes within @ms (the stream is a
 * pipe: it is read a byte at a time once poll says something is there). */
static char *
read_line_within (GDataInputStream *in, guint ms)
{
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (in));
  static GString *partial;
  gint64 deadline = g_get_monotonic_time () + ms * 1000;

  if (partial == NULL)
    partial = g_string_new (NULL);
  while (g_get_monotonic_time () < deadline)
    {
      char c;
      gssize n;

      if (!g_pollable_input_stream_is_readable (G_POLLABLE_INPUT_STREAM (base)))
        {
          g_usleep (1000);
          continue;
        }
      n = g_pollable_input_stream_read_nonblocking (G_POLLABLE_INPUT_STREAM (base), &c, 1, NULL,
                                                    NULL);
      if (n <= 0)
        return NULL;
      if (c == '\n')
        {
          char *line = g_strdup (partial->str);
          g_string_truncate (partial, 0);
          return line;
        }
      g_string_append_c (partial, c);
    }
  return NULL;
}

static void
test_exit_on_first (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--json", "--exit-on-first", f->dir, NULL };
  g_autofree char *dir = iteration_dir (f);
  g_autoptr (GDataInputStream) err = NULL;
  g_autoptr (GSubprocess) p = start_watch (args, &err);
  g_autoptr (GDataInputStream) out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *rest = NULL;
  JsonObject *record, *op;
  gint64 closed, exited;

  /* The operator first, a moment later its overflow file (a writer's
   * pace, not a wait for anything). */
  write_op (dir);
  g_usleep (200 * 1000);
  write_record (dir);
  closed = g_get_monotonic_time ();
  exited = wait_for_exit (p, 60);
  g_assert_cmpint (exited, >, 0);
  /* It reacts once the folder has been quiet for its quiet period (1 s):
   * within 2 s, or, on a machine so slow that reading the whole folder
   * takes more than 100 ms in this run, within the quiet period and ten
   * times that. */
  {
    gint64 report = report_time (f->dir);
    gint64 allowed = MAX (2 * G_USEC_PER_SEC, G_USEC_PER_SEC + 10 * report);

    g_test_message ("exited %.0f ms after the overflow file was closed (report: %.0f ms)",
                    (exited - closed) / 1000.0, report / 1000.0);
    g_assert_cmpint (exited - closed, <, allowed);
  }
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, EXIT_OVERFLOW);

  /* One line: the record, in the report's record schema. */
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, line, -1, &error));
  g_assert_no_error (error);
  record = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (record, "source"), ==, "overflow-file");
  g_assert_cmpint (json_object_get_int_member (record, "task_id"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (record, "stream_id"), ==, 5);
  g_assert_true (json_object_get_boolean_member (record, "first"));
  op = json_object_get_object_member (record, "op");
  g_assert_nonnull (op);
  g_assert_cmpstr (json_object_get_string_member (op, "op_name"), ==, "gradients/Cast_3");
  rest = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_null (rest);
}

/* A record the folder holds already is printed at once, in words. */
static void
test_existing_text (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--exit-on-first", f->dir, NULL };
  g_autofree char *dir = iteration_dir (f);
  g_autofree char *out = NULL;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;

  write_op (dir);
  write_record (dir);
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, cli (), "watch", args[0], args[1],
                        NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, EXIT_OVERFLOW);
  g_assert_true (
      g_str_has_prefix (out, "Overflow on device 3, iteration 12: Cast gradients/Cast_3, "));
}

/* SIGTERM and SIGINT end it cleanly. */
static void
test_signal (Fixture *f, gconstpointer data)
{
  int signum = GPOINTER_TO_INT (data);
  const char *args[] = { f->dir, NULL };
  g_autoptr (GDataInputStream) err = NULL;
  g_autoptr (GSubprocess) p = start_watch (args, &err);

  g_subprocess_send_signal (p, signum);
  g_assert_cmpint (wait_for_exit (p, 5), >, 0);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
}

/* A folder nobody writes into: each record once, the one found in the
 * statistics of an iteration without overflow files too (its CSV is read
 * again on each pass; the record stays the one printed). */
static void
test_left_alone (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--json", f->dir, NULL };
  g_autoptr (GDataInputStream) err = NULL;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GError) error = NULL;
  guint n_data = 0;
  char *line;

  gint64 start, all_seen = 0;

  ovi_fixture_write_example (f->dir);
  start = g_get_monotonic_time ();
  p = start_watch (args, &err);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p));
  /* Every record, the one found in the data after the folder has settled
   * (two quiet periods) among them; then as long again, passes going on,
   * for a record printed twice to show. Then SIGTERM. */
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();

      if (all_seen == 0 && n_data == 1 && g_hash_table_size (seen) >= 8)
        all_seen = now;
      if (all_seen && now - all_seen >= MAX (3 * G_USEC_PER_SEC, all_seen - start))
        break;
      g_assert_cmpint (now - start, <, 60 * G_USEC_PER_SEC);
      line = read_line_within (out, 100);
      if (line == NULL)
        continue;
      {
        g_autoptr (JsonParser) parser = json_parser_new ();
        JsonObject *record;
        g_autofree char *key = NULL;

        g_assert_true (json_parser_load_from_data (parser, line, -1, &error));
        g_assert_no_error (error);
        record = json_node_get_object (json_parser_get_root (parser));
        key = g_strdup (json_object_get_string_member (record, "file"));
        n_data += g_str_equal (json_object_get_string_member (record, "source"), "data");
        if (!g_hash_table_add (seen, g_steal_pointer (&key)))
          g_error ("printed twice: %s", line);
        g_free (line);
      }
    }
  g_test_message ("every record after %.1f s, then none twice for %.1f s more",
                  (all_seen - start) / 1e6, (g_get_monotonic_time () - all_seen) / 1e6);
  g_subprocess_send_signal (p, SIGTERM);
  g_assert_cmpint (wait_for_exit (p, 60), >, 0);
  g_assert_cmpuint (n_data, ==, 1);
  g_assert_cmpuint (g_hash_table_size (seen), >=, 8);
}

/* Whether process @pid catches @signum yet (SigCgt in its status). */
static gboolean
catches (GPid pid, int signum)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents (path, &status, NULL, NULL) || !(line = strstr (status, "SigCgt:")))
    return FALSE;
  return (g_ascii_strtoull (line + 7, NULL, 16) >> (signum - 1)) & 1;
}

/* SIGTERM or SIGINT while the folder is still being read ends the watch
 * as cleanly as later: exit 0, soon, and nothing followed. The folder's
 * operators hold gigabytes of zeros (holes, no room on the disk) that the
 * load reads to look for overflows in the data: many seconds of work. */
static void
test_signal_while_loading (Fixture *f, gconstpointer data)
{
  int signum = GPOINTER_TO_INT (data);
  g_autofree char *dir = iteration_dir (f);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  gint64 deadline;
  GPid pid;

  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *name = g_strdup_printf ("Big.net_Big.%u.5.%u", 10 + i, 1000 + i);
      ovi_fixture_write_sparse_op (dir, name, G_GUINT64_CONSTANT (1) << 29);
    }
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                        cli (), "watch", f->dir, NULL);
  g_assert_no_error (error);
  pid = atoi (g_subprocess_get_identifier (p));
  /* The signal goes as soon as it is caught, or after a second anyway: a
   * watch that catches it only once loaded is killed by it. */
  deadline = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (!catches (pid, signum) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  g_subprocess_send_signal (p, signum);
  g_assert_cmpint (wait_for_exit (p, 30), >, 0);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  /* Still loading when the signal came: it never got to following. */
  g_assert_null (strstr (err, "Following"));
}

/* Whether this system lets a user make a user namespace of its own, where
 * the inotify limits can be lowered for the processes in it alone. */
static gboolean
user_namespaces_work (void)
{
  g_autoptr (GSubprocess) p = g_subprocess_new (
      G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL, "unshare", "-Ur",
      "sh", "-c", "echo 1 > /proc/sys/user/max_inotify_watches", NULL);

  return p && g_subprocess_wait_check (p, NULL, NULL);
}

/* Reads JSON records from @out until @n distinct files were named, within
 * @seconds; returns how many were. */
static guint
read_records (GDataInputStream *out, GHashTable *files, guint n, double seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_hash_table_size (files) < n && g_get_monotonic_time () < deadline)
    {
      g_autofree char *line = read_line_within (out, 100);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonObject *record;

      if (line == NULL)
        continue;
      g_assert_true (json_parser_load_from_data (parser, line, -1, &error));
      g_assert_no_error (error);
      record = json_node_get_object (json_parser_get_root (parser));
      g_hash_table_add (files, g_strdup (json_object_get_string_member (record, "file")));
    }
  return g_hash_table_size (files);
}

/* Another program of the same user holds nearly all inotify watches (here:
 * the limit lowered to 7 in a user namespace of the watch's own, so the
 * machine's watches are left alone). The tree has 9 folders: the 5
 * iteration folders that find no watch are polled, every new overflow is
 * printed, and stderr says which way they are followed. */
static void
test_watches_used_up (Fixture *f, gconstpointer data)
{
  const char *iterations[] = { "1", "2", "3", "4", "5" };
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  g_autoptr (GDataInputStream) err = NULL;
  g_autoptr (GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  if (!user_namespaces_work ())
    {
      g_test_skip ("no user namespace here to lower the inotify limit in");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (iterations); i++)
    {
      g_autofree char *dir =
          g_build_filename (f->dir, "20261205120000", "3", "1", iterations[i], NULL);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
    }
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                        "unshare", "-Ur", "sh", "-c",
                        "echo 7 > /proc/sys/user/max_inotify_watches && exec \"$@\"", "sh", cli (),
                        "watch", "--json", f->dir, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p));
  err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  first = read_line_within (err, 60 * 1000);
  g_assert_nonnull (first);
  g_assert_nonnull (strstr (first, "following changes as the system reports them"));

  /* An overflow in each folder, printed: every folder has had its first
   * pass. Then another in each: printed because they are followed. */
  for (guint round = 0; round < 2; round++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (iterations); i++)
        {
          g_autofree char *dir =
              g_build_filename (f->dir, "20261205120000", "3", "1", iterations[i], NULL);
          g_autofree char *name = g_strdup_printf ("Opdebug.Node_OpDebug.7.5.%u", 2000 + round);
          const guint64 aic[] = { 1, 5, 7, 0, 0, 0, 0x1000, 0x2000, 3, 2, 0x20 };
          g_autoptr (GBytes) payload = ovi_overflow_payload_new (0, 0, aic, G_N_ELEMENTS (aic));
          g_autofree char *path = g_build_filename (dir, name, NULL);

          g_assert_true (ovi_write_overflow_file (path, payload, OVI_LAYOUT_NEW, NULL));
        }
      if (read_records (out, files, 5 * (round + 1), 60) < 5 * (round + 1))
        g_error ("round %u: %u of %u overflows printed within 60 s", round + 1,
                 g_hash_table_size (files), 5 * (round + 1));
    }
  /* Said on stderr: not "following changes as the system reports them"
   * alone. */
  second = read_line_within (err, 10 * 1000);
  g_assert_nonnull (second);
  g_test_message ("%s", second);
  g_assert_nonnull (strstr (second, "inotify watches are used up"));
  g_subprocess_send_signal (p, SIGTERM);
  g_assert_cmpint (wait_for_exit (p, 30), >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli/watch/left-alone", Fixture, NULL, ovi_tmp_dir_setup, test_left_alone,
              ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/exit-on-first", Fixture, NULL, ovi_tmp_dir_setup, test_exit_on_first,
              ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/existing-text", Fixture, NULL, ovi_tmp_dir_setup, test_existing_text,
              ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/sigterm", Fixture, GINT_TO_POINTER (SIGTERM), ovi_tmp_dir_setup,
              test_signal, ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/sigint", Fixture, GINT_TO_POINTER (SIGINT), ovi_tmp_dir_setup,
              test_signal, ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/sigterm-while-loading", Fixture, GINT_TO_POINTER (SIGTERM),
              ovi_tmp_dir_setup, test_signal_while_loading, ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/sigint-while-loading", Fixture, GINT_TO_POINTER (SIGINT),
              ovi_tmp_dir_setup, test_signal_while_loading, ovi_tmp_dir_teardown);
  g_test_add ("/cli/watch/watches-used-up", Fixture, NULL, ovi_tmp_dir_setup, test_watches_used_up,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
