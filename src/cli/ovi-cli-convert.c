/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* O_PATH */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "ovi-cli.h"
#include "ovi-core.h"

typedef struct
{
  OviExportFormat format;
  OviExportFlags flags;
  const char *output;
  guint failures;
  guint64 done;
  guint64 total;
  gint64 started;
  gboolean progress_shown;
  gboolean stderr_is_tty; /* asked once, not once a file */
  GMutex lock;            /* made_dirs and n_dir_fds, from the pool's threads */
  GHashTable *made_dirs;  /* output folders known to exist -> descriptor + 1, or 0 */
  guint n_dir_fds;
  GPtrArray *causes;     /* Failure: the first of each kind, in the order of the files */
  OviDumpFolder *folder; /* the one being converted: no folder made may be inside it */
  gboolean inside;       /* an output was found inside a folder being read */
} Convert;

/* A file or tensor that could not be converted, and why. Failures of one
 * kind (the same error domain and code: a folder that cannot be made, an
 * output that exists) are said once, with how many there were: an
 * unwritable output folder is one problem, not one per file. */
typedef struct
{
  GQuark domain;
  int code;
  char *line; /* "INPUT: message", without a newline */
  guint count;
} Failure;

static void
failure_free (Failure *f)
{
  g_free (f->line);
  g_free (f);
}

/* What converting one file has to say, kept until every file before it has
 * been reported, so the messages come in the order of the files whichever
 * thread converted them. */
typedef struct
{
  GPtrArray *messages; /* lines for stderr, or NULL */
  GPtrArray *failed;   /* Failure, or NULL */
  guint failures;
  gboolean finished;
} Outcome;

/* Descriptors of output folders kept open at most: each file is then
 * created and named relative to its folder instead of by its whole path.
 * Beyond that, folders are written by path (a tree of many thousand
 * folders would run out of descriptors). */
#define MAX_DIR_FDS 256

static void
say_line (Outcome *o, char *line)
{
  if (o->messages == NULL)
    o->messages = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (o->messages, line);
}

static void
say_failure (Outcome *o, const char *path, const GError *error)
{
  Failure *f = g_new0 (Failure, 1);

  f->domain = error->domain;
  f->code = error->code;
  f->line = g_strchomp (ovi_cli_line (path, error->message));
  if (o->failed == NULL)
    o->failed = g_ptr_array_new ();
  g_ptr_array_add (o->failed, f);
  o->failures++;
}

/* Counts @f with the failures of its kind, or keeps it as the first. */
static void
count_failure (Convert *c, Failure *f)
{
  for (guint i = 0; i < c->causes->len; i++)
    {
      Failure *cause = g_ptr_array_index (c->causes, i);

      if (cause->domain == f->domain && cause->code == f->code)
        {
          cause->count++;
          failure_free (f);
          return;
        }
    }
  f->count = 1;
  g_ptr_array_add (c->causes, f);
}

/* One line for each kind of failure: the first, and how many more. */
static void
say_causes (Convert *c)
{
  for (guint i = 0; i < c->causes->len; i++)
    {
      Failure *cause = g_ptr_array_index (c->causes, i);
      guint more = cause->count - 1;

      if (more == 0)
        fprintf (stderr, "%s\n", cause->line);
      else
        fprintf (stderr,
                 g_dngettext (GETTEXT_PACKAGE, "%s (and %u more failure like it)\n",
                              "%s (and %u more failures like it)\n", more),
                 cause->line, more);
    }
}

static void
report_failure (Convert *c, const char *path, const char *message)
{
  if (c->progress_shown)
    fputs ("\r\033[K", stderr);
  ovi_cli_complain (path, message);
  c->failures++;
}

/* A progress line once the run takes longer than a second, on a terminal. */
static void
show_progress (Convert *c)
{
  if (!c->stderr_is_tty || g_get_monotonic_time () - c->started < G_USEC_PER_SEC)
    return;
  fprintf (stderr, "\r\033[K%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, _ ("converted"), c->done,
           c->total);
  c->progress_shown = TRUE;
}

static void
convert_tensor (Convert *c,
                Outcome *o,
                OviTensor *t,
                int source_fd,
                GBytes *source_data,
                int dirfd,
                const char *dir,
                const char *input_path)
{
  g_autoptr (GError) error = NULL;
  OviExportFormat format = c->format;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  if (format != OVI_EXPORT_BIN && !ovi_dtype_is_supported (ovi_tensor_get_dtype (t)) &&
      ovi_tensor_get_kind (t) <= OVI_TENSOR_OUTPUT)
    {
      /* Nothing but the raw bytes can be written for such a type. */
      g_autofree char *label = ovi_tensor_dup_label (t);
      g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (t));
      g_autofree char *display = ovi_path_display (input_path);
      say_line (
          o, g_strdup_printf (_ ("%s: %s has %s, written as raw .bin\n"), display, label, dtype));
      format = OVI_EXPORT_BIN;
    }
  name = ovi_export_tensor_file_name (t, format);
  path = g_build_filename (dir, name, NULL);
  if (!ovi_export_tensor_at (t, source_fd, source_data, format, dirfd, path, c->flags, &error))
    say_failure (o, input_path, error);
}

/* Creates each output folder once (a folder of 1 000 dump files would
 * otherwise ask for it 1 000 times) and opens it once. Returns its
 * descriptor, -1 to write by path, or -2 with @error set. */
static int
make_dir (Convert *c, const char *dir, GError **error)
{
  gpointer value;
  int fd;

  g_mutex_lock (&c->lock);
  if (g_hash_table_lookup_extended (c->made_dirs, dir, NULL, &value))
    {
      g_mutex_unlock (&c->lock);
      return GPOINTER_TO_INT (value) - 1;
    }
  /* A folder already in the output may be a link into a folder being
   * read: each folder is checked before it is made or written into. */
  if (!ovi_dump_folder_check_output (c->folder, dir, NULL, error))
    {
      c->inside = TRUE;
      g_mutex_unlock (&c->lock);
      return -2;
    }
  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int errsv = errno;
      g_mutex_unlock (&c->lock);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   _ ("cannot create folder %s: %s"), dir, g_strerror (errsv));
      return -2;
    }
  fd = -1;
  if (c->n_dir_fds < MAX_DIR_FDS && (fd = open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0)
    c->n_dir_fds++;
  g_hash_table_insert (c->made_dirs, g_strdup (dir), GINT_TO_POINTER (fd + 1));
  g_mutex_unlock (&c->lock);
  return fd;
}

static void
convert_file (
    Convert *c, Outcome *o, OviDumpFile *file, const char *input_root, gboolean root_is_dir)
{
  g_autofree char *dir = g_build_filename (c->output, ovi_dump_file_get_relative_dir (file), NULL);
  g_autofree char *input_path = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *tensors;
  g_autoptr (GBytes) source_data = NULL;
  int source_fd, dirfd;

  /* A statistics-mode dump has no tensor values: nothing to convert, and
   * nothing wrong either (the vendor converter skips .csv files too). */
  if (ovi_dump_file_get_statistics_only (file))
    return;
  if (root_is_dir)
    input_path = g_build_filename (input_root, ovi_dump_file_get_relative_path (file), NULL);
  else
    input_path = g_strdup (input_root);

  if ((dirfd = make_dir (c, dir, &error)) == -2)
    {
      say_failure (o, input_path, error);
      return;
    }

  if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OVERFLOW)
    {
      g_autofree char *name = ovi_export_overflow_file_name (file);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (!ovi_export_overflow_json (file, path, c->flags, &error))
        say_failure (o, input_path, error);
      return;
    }

  /* One descriptor for all the file's tensors; when the file cannot be
   * opened, each tensor says so on its own. */
  tensors = ovi_dump_file_get_tensors (file);
  source_fd = tensors->len > 0 ? ovi_export_open_source (file, NULL) : -1;
  /* A small file is read whole, once for all its tensors. */
  source_data = ovi_export_read_source (file, source_fd);
  for (guint i = 0; i < tensors->len; i++)
    convert_tensor (c, o, g_ptr_array_index (tensors, i), source_fd, source_data, dirfd, dir,
                    input_path);
  if (source_fd >= 0)
    close (source_fd);
}

typedef struct
{
  Convert *c;
  const char *input;
  gboolean root_is_dir;
  OviDumpFile **files;
  Outcome *outcomes;
  guint n;
  guint next_report; /* the first file not reported yet */
  GMutex lock;       /* outcomes' finished, next_report, and c's counts */
} Run;

/* Reports, in order, every file converted so far whose predecessors all
 * have been: whichever thread finishes the next file in line prints it. */
static void
report_finished (Run *run, guint index)
{
  Convert *c = run->c;

  g_mutex_lock (&run->lock);
  run->outcomes[index].finished = TRUE;
  while (run->next_report < run->n && run->outcomes[run->next_report].finished)
    {
      Outcome *o = &run->outcomes[run->next_report++];

      for (guint i = 0; o->messages && i < o->messages->len; i++)
        {
          if (c->progress_shown)
            fputs ("\r\033[K", stderr);
          fputs (g_ptr_array_index (o->messages, i), stderr);
        }
      g_clear_pointer (&o->messages, g_ptr_array_unref);
      for (guint i = 0; o->failed && i < o->failed->len; i++)
        count_failure (c, g_ptr_array_index (o->failed, i));
      g_clear_pointer (&o->failed, g_ptr_array_unref);
      c->failures += o->failures;
      c->done++;
      show_progress (c);
    }
  g_mutex_unlock (&run->lock);
}

static void
convert_one (guint index, gpointer user_data)
{
  Run *run = user_data;

  convert_file (run->c, &run->outcomes[index], run->files[index], run->input, run->root_is_dir);
  report_finished (run, index);
}

/* Why writing @output would write into a folder @folder reads (its roots,
 * and the folders its scan entered), or NULL. */
static char *
output_inside (OviDumpFolder *folder, const char *output)
{
  g_autofree char *inside = NULL;
  g_autoptr (GError) error = NULL;

  if (ovi_dump_folder_check_output (folder, output, &inside, &error))
    return NULL;
  if (inside == NULL)
    return g_strdup (error->message);
  return g_strdup_printf (_ ("the output folder %s is inside %s, a folder being read; choose "
                             "another with --output"),
                          output, inside);
}

static void
convert_path (Convert *c, const char *input)
{
  g_autoptr (GFile) root = g_file_new_for_commandline_arg (input);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) said = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GListModel *files, *problems;
  gboolean root_is_dir = g_file_test (input, G_FILE_TEST_IS_DIR);
  Run run = { c, input, root_is_dir, NULL, NULL, 0, 0, { 0 } };

  ovi_dump_folder_set_data_records (folder, FALSE);
  if (!ovi_dump_folder_load (folder, NULL, &error))
    {
      if (c->progress_shown)
        fputs ("\r\033[K", stderr);
      ovi_cli_complain (NULL, error->message);
      c->failures++;
      return;
    }
  {
    g_autofree char *message = output_inside (folder, c->output);

    if (message)
      {
        if (c->progress_shown)
          fputs ("\r\033[K", stderr);
        ovi_cli_complain (NULL, message);
        c->inside = TRUE;
        return;
      }
  }
  c->folder = folder;
  problems = ovi_dump_folder_get_problems (folder);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      g_autofree char *path =
          root_is_dir ? g_build_filename (input, ovi_problem_get_file (p), NULL) : g_strdup (input);
      report_failure (c, path, ovi_problem_get_message (p));
      g_hash_table_add (said, g_strdup (ovi_problem_get_file (p)));
    }

  /* The files are converted on core's pool, the list taken out of its
   * model first (a GListModel is not for several threads). An overflow
   * file whose records did not decode is a problem said already: its
   * conversion would only say it again. */
  files = ovi_dump_folder_get_files (folder);
  run.files = g_new (OviDumpFile *, g_list_model_get_n_items (files));
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      OviDumpFile *file = g_list_model_get_item (files, i);
      g_autofree char *shown = g_filename_display_name (ovi_dump_file_get_relative_path (file));

      if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OVERFLOW &&
          g_hash_table_contains (said, shown))
        g_object_unref (file);
      else
        run.files[run.n++] = file;
    }
  c->total += run.n;
  run.outcomes = g_new0 (Outcome, run.n);
  g_mutex_init (&run.lock);
  ovi_parallel_for (run.n, convert_one, &run, NULL);
  g_mutex_clear (&run.lock);
  for (guint i = 0; i < run.n; i++)
    g_object_unref (run.files[i]);
  g_free (run.files);
  g_free (run.outcomes);
  c->folder = NULL;
}

static void
close_dir_fd (gpointer value)
{
  if (GPOINTER_TO_INT (value) > 0)
    close (GPOINTER_TO_INT (value) - 1);
}

int
ovi_cli_convert (int argc, char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *to = NULL;
  g_autofree char *layout = NULL;
  gboolean force = FALSE;
  const GOptionEntry entries[] = {
    { "layout", 'l', 0, G_OPTION_ARG_STRING, &layout,
      N_ ("device (default: the bytes as stored) or logical (NC1HWC0, FRACTAL_Z, FRACTAL_NZ, "
          "NDC1HWC0 and FRACTAL_Z_3D back to NCHW, ND or NCDHW)"),
      N_ ("LAYOUT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_ ("Write into DIR (default: the current folder)"), N_ ("DIR") },
    { "to", 't', 0, G_OPTION_ARG_STRING, &to, N_ ("Tensor format: npy (default), txt or bin"),
      N_ ("FORMAT") },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_ ("Overwrite existing output files"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
      g_option_context_new (_ ("PATH… — convert dump files and overflow files"));
  g_autoptr (GError) error = NULL;
  Convert c = { .format = OVI_EXPORT_NPY, .flags = OVI_EXPORT_FLAGS_NONE };
  g_autoptr (GHashTable) made_dirs =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, close_dir_fd);
  g_autoptr (GPtrArray) causes = g_ptr_array_new_with_free_func ((GDestroyNotify) failure_free);

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      context,
      _ ("Writes F.input.N.npy and F.output.N.npy (or .txt, or F.{input|output}.N.{count}.{dtype}."
         "{FORMAT}.bin), F.l1buffer.N.bin, F.space.N.bin, and F.output.0.json for overflow files, "
         "below DIR in the same folders as below PATH.\n\nExit status: 0 when everything was "
         "converted, 1 when some inputs were broken, 2 for usage errors."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc < 2)
    return ovi_cli_usage_error (context, _ ("convert needs at least one PATH"));

  if (to == NULL || g_str_equal (to, "npy"))
    c.format = OVI_EXPORT_NPY;
  else if (g_str_equal (to, "txt"))
    c.format = OVI_EXPORT_TXT;
  else if (g_str_equal (to, "bin"))
    c.format = OVI_EXPORT_BIN;
  else
    return ovi_cli_usage_error (context, _ ("--to takes npy, txt or bin"));
  c.flags = force ? OVI_EXPORT_FLAGS_OVERWRITE : OVI_EXPORT_FLAGS_NONE;
  if (layout && g_str_equal (layout, "logical"))
    c.flags |= OVI_EXPORT_FLAGS_LOGICAL;
  else if (layout && !g_str_equal (layout, "device"))
    return ovi_cli_usage_error (context, _ ("--layout takes device or logical"));
  c.output = output ? output : ".";
  ovi_cli_remove_temporaries_on_signals ();
  c.started = g_get_monotonic_time ();
  c.stderr_is_tty = isatty (STDERR_FILENO);
  c.made_dirs = made_dirs;
  c.causes = causes;

  /* Never write into a folder being read: checked for every PATH before
   * anything is written, and again once each is scanned (convert_path()). */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GFile) root = g_file_new_for_commandline_arg (argv[i]);
      g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
      g_autofree char *message = output_inside (folder, c.output);

      if (message)
        return ovi_cli_usage_error (context, message);
    }

  g_mutex_init (&c.lock);
  for (int i = 1; i < argc && !c.inside; i++)
    convert_path (&c, argv[i]);
  if (c.progress_shown)
    fputs ("\r\033[K", stderr);
  say_causes (&c);
  g_mutex_clear (&c.lock);
  if (c.inside)
    return OVI_EXIT_USAGE;
  return c.failures ? OVI_EXIT_BROKEN_INPUT : OVI_EXIT_OK;
}
