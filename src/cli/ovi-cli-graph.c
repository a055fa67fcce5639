/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "ovi-cli.h"
#include "ovi-core.h"

/* overflow-inspector-cli graph FOLDER: one iteration's dataflow graph and
 * the blame along its edges. */

/* The relative folder of the iteration @path names (a folder of FOLDER's
 * files, given inside FOLDER or as a path of its own), or NULL. */
static char *
find_iteration (OviDumpFolder *folder, const char *path)
{
  g_autofree char *inside = g_build_filename (ovi_dump_folder_get_root_path (folder), path, NULL);
  g_autofree char *wanted = realpath (path, NULL);
  GListModel *files = ovi_dump_folder_get_files (folder);

  if (wanted == NULL)
    wanted = realpath (inside, NULL);
  for (guint i = 0; wanted && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      g_autofree char *dir = g_path_get_dirname (ovi_dump_file_get_path (file));
      g_autofree char *real = realpath (dir, NULL);

      if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OP_DUMP && real &&
          g_str_equal (real, wanted))
        return g_strdup (ovi_dump_file_get_relative_dir (file));
    }
  return NULL;
}

/* Without --iteration: the iteration of the first origin, else the first
 * that ran an operator. */
static char *
default_iteration (OviDumpFolder *folder)
{
  g_autoptr (GPtrArray) origins = ovi_dump_folder_find_origins (folder, NULL);

  return origins->len ? g_strdup (ovi_dump_file_get_relative_dir (g_ptr_array_index (origins, 0)))
                      : NULL;
}

int
ovi_cli_graph (int argc, char **argv)
{
  g_autofree char *format = NULL, *graph_json = NULL, *node_data = NULL, *iteration_path = NULL;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format,
      N_ ("json (the default), dot (Graphviz) or model-explorer"), N_ ("FORMAT") },
    { "graph", 0, 0, G_OPTION_ARG_FILENAME, &graph_json,
      N_ ("The ATC fusion-rule graph JSON (atc --json) to take edges and graph inputs from"),
      N_ ("FILE") },
    { "node-data", 0, 0, G_OPTION_ARG_FILENAME, &node_data,
      N_ ("Also write Model Explorer's node data (class and NaN/Inf counts) to FILE"),
      N_ ("FILE") },
    { "iteration", 0, 0, G_OPTION_ARG_FILENAME, &iteration_path,
      N_ ("The iteration folder (default: the one with the first origin)"), N_ ("PATH") },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (
      _ ("FOLDER — one iteration's dataflow graph, and the blame along its edges"));
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) root = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviGraph) graph = NULL;
  g_autofree char *iteration = NULL;
  g_autofree char *text = NULL;

  g_option_context_set_summary (
      context, _ ("Edges come from the tensor addresses in the dumps (the last operator before a "
                  "reader that wrote its address), else from the graph JSON given or lying "
                  "beside the dumps; without either the blame follows run order and the output "
                  "says so. Exit status: 0; 1 when the folder or the graph JSON cannot be read "
                  "or a file cannot be written; 2 for a wrong command line; 3 when no operator "
                  "was found."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc != 2)
    return ovi_cli_usage_error (context, _ ("graph takes exactly one FOLDER"));
  if (format == NULL)
    format = g_strdup ("json");
  if (!g_str_equal (format, "json") && !g_str_equal (format, "dot") &&
      !g_str_equal (format, "model-explorer"))
    return ovi_cli_usage_error (context, _ ("--format takes json, dot or model-explorer"));
  /* JSON is read by programs: its messages stay English in every locale. */
  if (!g_str_equal (format, "dot"))
    setlocale (LC_MESSAGES, "C");

  root = g_file_new_for_commandline_arg (argv[1]);
  folder = ovi_dump_folder_new (root);
  /* Never into the folder being read, checked before anything is read. */
  if (node_data && !ovi_dump_folder_check_output (folder, node_data, NULL, &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_USAGE;
    }
  if (!ovi_dump_folder_load (folder, NULL, &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }
  if (iteration_path && (iteration = find_iteration (folder, iteration_path)) == NULL)
    {
      /* Translators: %s is the --iteration given */
      g_autofree char *message =
          g_strdup_printf (_ ("no operator of this folder ran in %s"), iteration_path);
      return ovi_cli_usage_error (context, message);
    }
  if (iteration == NULL)
    iteration = default_iteration (folder);
  if (graph_json == NULL)
    graph_json = ovi_graph_find_json (folder, iteration);
  if ((graph = ovi_graph_build (folder, iteration, graph_json, NULL, &error)) == NULL)
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }
  if (ovi_graph_get_n_nodes (graph) == 0)
    {
      ovi_cli_complain (argv[1], _ ("no operator dump file found"));
      return OVI_EXIT_NO_DUMP;
    }

  if (g_str_equal (format, "dot"))
    text = ovi_graph_writer_dot (graph);
  else
    {
      g_autoptr (JsonNode) out = g_str_equal (format, "json")
                                     ? ovi_graph_writer_json (graph)
                                     : ovi_graph_writer_model_explorer (graph);
      text = ovi_json_to_text (out);
    }
  g_print ("%s", text);
  if (!ovi_cli_stdout_ok ())
    return OVI_EXIT_CANNOT_WRITE;
  if (node_data)
    {
      g_autoptr (JsonNode) data = ovi_graph_writer_node_data (graph);

      ovi_cli_remove_temporaries_on_signals ();
      if (!ovi_graph_writer_save (data, node_data, &error))
        {
          ovi_cli_complain (node_data, error->message);
          return OVI_EXIT_CANNOT_WRITE;
        }
    }
  return OVI_EXIT_OK;
}
