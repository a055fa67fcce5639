#include "config.h"

#include <errno.h>
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
} Convert;

static void
report_failure (Convert *c, const char *path, const char *message)
{
  g_autofree char *display = g_filename_display_name (path);

  if (c->progress_shown)
    fputs ("\r\033[K", stderr);
  fprintf (stderr, "%s: %s\n", display, message);
  c->failures++;
}

/* A progress line once the run takes longer than a second, on a terminal. */
static void
show_progress (Convert *c)
{
  if (!isatty (STDERR_FILENO) || g_get_monotonic_time () - c->started < G_USEC_PER_SEC)
    return;
  fprintf (stderr, "\r\033[K%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, _ ("converted"), c->done,
           c->total);
  c->progress_shown = TRUE;
}

static void
convert_tensor (Convert *c, OviTensor *t, const char *dir, const char *input_path)
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
      g_autofree char *display = g_filename_display_name (input_path);
      fprintf (stderr, _ ("%s: %s has %s, written as raw .bin\n"), display, label, dtype);
      format = OVI_EXPORT_BIN;
    }
  name = ovi_export_tensor_file_name (t, format);
  path = g_build_filename (dir, name, NULL);
  if (!ovi_export_tensor (t, format, path, c->flags, &error))
    report_failure (c, input_path, error->message);
}

static void
convert_file (Convert *c, OviDumpFile *file, const char *input_root)
{
  g_autofree char *dir = g_build_filename (c->output, ovi_dump_file_get_relative_dir (file), NULL);
  g_autofree char *input_path = NULL;
  g_autoptr (GError) error = NULL;

  /* A statistics-mode dump has no tensor values: nothing to convert, and
   * nothing wrong either (the vendor converter skips .csv files too). */
  if (ovi_dump_file_get_statistics_only (file))
    return;
  if (g_file_test (input_root, G_FILE_TEST_IS_DIR))
    input_path = g_build_filename (input_root, ovi_dump_file_get_relative_path (file), NULL);
  else
    input_path = g_strdup (input_root);

  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int errsv = errno;
      g_autofree char *message =
          g_strdup_printf (_ ("cannot create folder %s: %s"), dir, g_strerror (errsv));
      report_failure (c, input_path, message);
      return;
    }

  if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OVERFLOW)
    {
      g_autofree char *name = ovi_export_overflow_file_name (file);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (!ovi_export_overflow_json (file, path, c->flags, &error))
        report_failure (c, input_path, error->message);
      return;
    }

  for (guint i = 0; i < ovi_dump_file_get_tensors (file)->len; i++)
    convert_tensor (c, g_ptr_array_index (ovi_dump_file_get_tensors (file), i), dir, input_path);
}

static void
convert_path (Convert *c, const char *input)
{
  g_autoptr (GFile) root = g_file_new_for_commandline_arg (input);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (GError) error = NULL;
  GListModel *files, *problems;

  if (!ovi_dump_folder_load (folder, NULL, &error))
    {
      if (c->progress_shown)
        fputs ("\r\033[K", stderr);
      fprintf (stderr, "%s\n", error->message);
      c->failures++;
      return;
    }
  problems = ovi_dump_folder_get_problems (folder);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      g_autofree char *path = g_file_test (input, G_FILE_TEST_IS_DIR)
                                  ? g_build_filename (input, ovi_problem_get_file (p), NULL)
                                  : g_strdup (input);
      report_failure (c, path, ovi_problem_get_message (p));
    }

  files = ovi_dump_folder_get_files (folder);
  c->total += g_list_model_get_n_items (files);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      convert_file (c, file, input);
      c->done++;
      show_progress (c);
    }
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
  Convert c = { OVI_EXPORT_NPY, OVI_EXPORT_FLAGS_NONE, NULL, 0, 0, 0, 0, FALSE };

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
  c.started = g_get_monotonic_time ();

  /* Never write into a folder being read. */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GFile) root = g_file_new_for_commandline_arg (argv[i]);
      g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
      if (ovi_dump_folder_contains_path (folder, c.output))
        {
          /* A single dump file is read with its folder (mapping.csv). */
          g_autofree char *read = g_file_test (argv[i], G_FILE_TEST_IS_DIR)
                                      ? g_strdup (argv[i])
                                      : g_path_get_dirname (argv[i]);
          g_autofree char *message =
              g_strdup_printf (_ ("the output folder %s is inside %s, a folder being read; choose "
                                  "another with --output"),
                               c.output, read);
          return ovi_cli_usage_error (context, message);
        }
    }

  for (int i = 1; i < argc; i++)
    convert_path (&c, argv[i]);
  if (c.progress_shown)
    fputs ("\r\033[K", stderr);
  return c.failures ? OVI_EXIT_BROKEN_INPUT : OVI_EXIT_OK;
}
