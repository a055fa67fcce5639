/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "ovi-cli.h"
#include "ovi-core.h"

/* Whether @path is a report file (report --json, merge) rather than a
 * dump folder or file: as the window tells them apart. */
static gboolean
is_report_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (path);

  return ovi_cluster_is_report_file (file) &&
         g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY;
}

/* Adds the report of dump folder (or file) @path to @cluster, saying on
 * stderr what could not be read. Returns the exit status it calls for. */
static int
add_folder (OviCluster *cluster, const char *path, OviReportFlags flags, OviIgnoreList *ignore)
{
  g_autoptr (GFile) root = g_file_new_for_commandline_arg (path);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *display = g_filename_display_name (path);
  gboolean is_dir = g_file_test (path, G_FILE_TEST_IS_DIR);
  g_autofree char *base = g_path_get_basename (path);
  /* A problem's file is below a folder, or beside a file (its mapping.csv). */
  g_autofree char *dir = is_dir ? g_strdup (path) : g_path_get_dirname (path);
  GListModel *problems;
  int status = OVI_EXIT_OK;

  if (!ovi_dump_folder_load (folder, NULL, &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }
  if (ignore)
    ovi_dump_folder_set_ignore_list (folder, ignore);
  node = ovi_report_build_json_full (folder, flags);
  if (!ovi_cluster_add_report (cluster, node, display, &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }
  problems = ovi_dump_folder_get_problems (folder);
  if (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)) == 0 &&
      g_list_model_get_n_items (problems) == 0)
    {
      g_autofree char *shown = ovi_path_display (path);
      fprintf (stderr, _ ("%s: no dump file found\n"), shown);
      status = OVI_EXIT_NO_DUMP;
    }
  for (guint j = 0; j < g_list_model_get_n_items (problems); j++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, j);
      g_autofree char *file = !is_dir && g_str_equal (ovi_problem_get_file (p), base)
                                  ? g_strdup (path)
                                  : g_build_filename (dir, ovi_problem_get_file (p), NULL);
      ovi_cli_complain (file, ovi_problem_get_message (p));
      status = OVI_EXIT_BROKEN_INPUT;
    }
  return status;
}

/* Several roots, or report files: each one's report, then the ranks of
 * all of them. */
static int
report_cluster (
    char **paths, int n_paths, gboolean json, OviReportFlags flags, OviIgnoreList *ignore)
{
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autofree char *out = NULL;
  gboolean broken = FALSE, no_dump = FALSE;

  for (int i = 0; i < n_paths; i++)
    {
      int status;

      if (is_report_path (paths[i]))
        {
          g_autoptr (GFile) file = g_file_new_for_commandline_arg (paths[i]);
          g_autoptr (GError) error = NULL;

          status = OVI_EXIT_OK;
          if (!ovi_cluster_add_report_files (cluster, &file, 1, NULL, &error))
            {
              ovi_cli_complain (NULL, error->message);
              status = OVI_EXIT_BROKEN_INPUT;
            }
        }
      else
        status = add_folder (cluster, paths[i], flags, ignore);
      broken |= status == OVI_EXIT_BROKEN_INPUT;
      no_dump |= status == OVI_EXIT_NO_DUMP;
    }

  if (json)
    {
      g_autoptr (JsonNode) node = ovi_cluster_build_json (cluster);
      out = ovi_json_to_text (node);
    }
  else
    out = ovi_cluster_to_text (cluster);
  g_print ("%s", out);
  return broken ? OVI_EXIT_BROKEN_INPUT : no_dump ? OVI_EXIT_NO_DUMP : OVI_EXIT_OK;
}

int
ovi_cli_report (int argc, char **argv)
{
  gboolean json = FALSE, records_only = FALSE;
  g_autofree char *ignore_path = NULL;
  g_autoptr (OviIgnoreList) ignore = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print one JSON object instead of text"), NULL },
    { "ignore", 'i', 0, G_OPTION_ARG_FILENAME, &ignore_path,
      N_ ("Operators to ignore: one pattern a line, type:GLOB, name:GLOB or GLOB"), N_ ("FILE") },
    { "records-only", 0, 0, G_OPTION_ARG_NONE, &records_only,
      N_ ("Skip classifying every operator (faster: reads only the linked operators' tensors)"),
      NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (
      _ ("PATH… — every overflow record, first overflow first; with several PATHs, which "
         "device overflowed first"));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GFile) root = NULL;
  g_autofree char *out = NULL;
  OviReportFlags flags;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      context,
      _ ("With several PATHs (one dump folder per machine, say) the report is a cluster report: "
         "each folder's report, then one line per device in the order of its first overflow, "
         "the earliest marked.\n\nExit status: 0 when every file was read, 1 when some were "
         "broken (listed in the report), 2 for usage errors, 3 when a PATH holds no dump file "
         "at all."));
  g_option_context_set_description (
      context, _ ("A PATH whose name ends in .json is read as a report file (the output of "
                  "“report --json” or “merge” on another machine) and joins the cluster report, "
                  "as it does in the window."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc < 2)
    return ovi_cli_usage_error (context, _ ("report needs at least one PATH"));
  /* JSON is read by programs: its messages stay English in every locale. */
  if (json)
    setlocale (LC_MESSAGES, "C");

  if (ignore_path && !(ignore = ovi_ignore_list_load (ignore_path, &error)))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_USAGE;
    }
  flags = records_only ? OVI_REPORT_RECORDS_ONLY : OVI_REPORT_FULL;
  if (argc > 2 || is_report_path (argv[1]))
    return report_cluster (argv + 1, argc - 1, json, flags, ignore);

  root = g_file_new_for_commandline_arg (argv[1]);
  folder = ovi_dump_folder_new (root);
  if (!ovi_dump_folder_load (folder, NULL, &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }
  if (ignore)
    ovi_dump_folder_set_ignore_list (folder, ignore);
  out = json ? ovi_report_to_json_full (folder, flags) : ovi_report_to_text_full (folder, flags);
  g_print ("%s", out);
  if (g_list_model_get_n_items (ovi_dump_folder_get_files (folder)) == 0 &&
      g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)) == 0)
    {
      g_autofree char *display = ovi_path_display (argv[1]);

      /* Translators: the path given on the command line */
      fprintf (stderr, _ ("%s: no dump file found\n"), display);
      return OVI_EXIT_NO_DUMP;
    }
  return g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)) ? OVI_EXIT_BROKEN_INPUT
                                                                          : OVI_EXIT_OK;
}
