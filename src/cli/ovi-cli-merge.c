/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-cli.h"
#include "ovi-core.h"

/* overflow-inspector-cli merge: the reports of many machines (report
 * --json run on each) as one cluster report, each root's report kept
 * unchanged with its host and root, and the ranks of all of them. Nothing
 * is written unless every input is a report: a merge that silently left a
 * machine out would answer "which rank overflowed first" wrongly. */

static gboolean
same_file (const struct stat *a, const char *path)
{
  struct stat b;

  return g_stat (path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

int
ovi_cli_merge (int argc, char **argv)
{
  g_autofree char *output = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_ ("Write the cluster report to FILE (replaced only once complete) instead of standard "
          "output"),
      N_ ("FILE") },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (
      _ ("REPORT… — merge the JSON reports of several machines into one cluster report"));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviCluster) cluster = NULL;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  struct stat out_stat;
  gboolean have_out_stat;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      context, _ ("Each REPORT is the output of “report --json” (one or several roots) or of "
                  "“merge”. Nothing is written unless every REPORT can be read.\n\nExit status: 0 "
                  "when merged, 1 when a REPORT cannot be read or is not a report (each named on "
                  "standard error), 2 for usage errors."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc < 2)
    return ovi_cli_usage_error (context, _ ("merge needs at least one REPORT"));

  /* Never overwrite an input: with "> a.json" the shell has emptied a.json
   * already, so say so rather than call it broken. */
  if (output)
    have_out_stat = g_stat (output, &out_stat) == 0;
  else
    have_out_stat = fstat (STDOUT_FILENO, &out_stat) == 0 && S_ISREG (out_stat.st_mode);
  for (int i = 1; i < argc; i++)
    if (have_out_stat && same_file (&out_stat, argv[i]))
      {
        g_autofree char *display = g_filename_display_name (argv[i]);
        g_autofree char *message =
            output ? g_strdup_printf (_ ("%s is both a REPORT and the output; write to another "
                                         "file"),
                                      display)
                   : g_strdup_printf (_ ("%s is both a REPORT and standard output (the shell has "
                                         "emptied it already); write to another file"),
                                      display);
        return ovi_cli_usage_error (context, message);
      }

  for (int i = 1; i < argc; i++)
    g_ptr_array_add (files, g_file_new_for_commandline_arg (argv[i]));
  cluster = ovi_cluster_new ();
  if (!ovi_cluster_add_report_files (cluster, (GFile *const *) files->pdata, files->len, NULL,
                                     &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }

  if (output)
    {
      /* Written as an unnamed file (or a temporary one, removed on a
       * signal) and put over FILE in one step once complete. */
      g_autoptr (GOutputStream) stream = NULL;

      ovi_cli_remove_temporaries_on_signals ();
      stream = ovi_atomic_output_stream_new (output, TRUE, &error);
      if (stream && !ovi_cluster_write_json (cluster, G_OUTPUT_STREAM (stream), NULL, &error))
        {
          /* Closing with a cancelled cancellable drops the new file. */
          g_autoptr (GCancellable) drop = g_cancellable_new ();
          g_cancellable_cancel (drop);
          g_output_stream_close (G_OUTPUT_STREAM (stream), drop, NULL);
          g_clear_object (&stream);
        }
      if (!stream || !g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &error))
        {
          ovi_cli_complain (NULL, error->message);
          return OVI_EXIT_CANNOT_WRITE;
        }
    }
  else
    {
      g_autoptr (GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      if (!ovi_cluster_write_json (cluster, out, NULL, &error))
        {
          fprintf (stderr, _ ("cannot write to standard output: %s\n"), error->message);
          return OVI_EXIT_CANNOT_WRITE;
        }
    }
  return OVI_EXIT_OK;
}
