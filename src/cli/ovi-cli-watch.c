/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>

#include "ovi-cli.h"
#include "ovi-core.h"

/* overflow-inspector-cli watch: follows a dump folder while a run writes
 * into it and prints each overflow record as it appears, for job scripts
 * and schedulers that stop a run which has started to overflow. */

typedef struct
{
  GMainLoop *loop;
  OviDumpFolder *folder;
  gboolean json;
  gboolean exit_on_first;
  int status;
  GCancellable *cancellable; /* the initial load's */
  gboolean stopped;          /* by SIGINT or SIGTERM */
  GError *load_error;
} Watch;

static void
print_record (Watch *w, OviOverflowRecord *record)
{
  if (w->json)
    {
      g_autoptr (JsonNode) node = ovi_report_record_json (w->folder, record);
      g_autofree char *line = json_to_string (node, FALSE);
      g_print ("%s\n", line);
    }
  else
    {
      g_autofree char *headline = ovi_report_record_headline (record);
      g_autofree char *shown = ovi_path_escape (headline);
      g_print ("%s\n", shown);
    }
}

static void
print_records (Watch *w, GPtrArray *records)
{
  for (guint i = 0; i < records->len; i++)
    print_record (w, g_ptr_array_index (records, i));
  /* Each record reaches its reader now, or the watch ends: following a
   * run for hours into a full disk would print nothing anyone sees. */
  if (records->len && !ovi_cli_stdout_ok ())
    {
      w->status = OVI_EXIT_CANNOT_WRITE;
      g_main_loop_quit (w->loop);
    }
  else if (records->len && w->exit_on_first)
    {
      w->status = OVI_EXIT_OVERFLOW;
      g_main_loop_quit (w->loop);
    }
}

static void
records_arrived (OviFolderWatch *watch, GPtrArray *records, Watch *w)
{
  print_records (w, records);
}

/* How the folder is followed, once it starts and again whenever that
 * changes: folders the system cannot watch are polled, and said to be. */
static void
mode_changed (OviFolderWatch *watch, GParamSpec *pspec, Watch *w)
{
  g_autofree char *display =
      ovi_path_display (ovi_dump_folder_get_root_path (ovi_folder_watch_get_folder (watch)));

  /* Translators: a folder, then how it is followed */
  fprintf (stderr, _ ("Following %s: %s\n"), display, ovi_folder_watch_describe_mode (watch));
}

static void
root_gone (OviFolderWatch *watch, GParamSpec *pspec, Watch *w)
{
  g_autofree char *display =
      ovi_path_display (ovi_dump_folder_get_root_path (ovi_folder_watch_get_folder (watch)));

  if (!ovi_folder_watch_get_root_gone (watch))
    return;
  fprintf (stderr, _ ("%s: the folder is gone\n"), display);
  w->status = OVI_EXIT_BROKEN_INPUT;
  g_main_loop_quit (w->loop);
}

static gboolean
stop (gpointer data)
{
  Watch *w = data;

  w->stopped = TRUE;
  g_cancellable_cancel (w->cancellable);
  g_main_loop_quit (w->loop);
  return G_SOURCE_CONTINUE;
}

static void
loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  Watch *w = data;

  ovi_dump_folder_load_finish (OVI_DUMP_FOLDER (source), result, &w->load_error);
  g_main_loop_quit (w->loop);
}

/* The records the folder holds, then each new one until stopped. */
static void
follow (Watch *w, gboolean poll)
{
  GListModel *records = ovi_dump_folder_get_records (w->folder);
  g_autoptr (GPtrArray) shown = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (OviFolderWatch) watch = NULL;

  /* What is there already, first overflow first. */
  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    g_ptr_array_add (shown, g_list_model_get_item (records, i));
  print_records (w, shown);
  if (w->status != OVI_EXIT_OK)
    return;

  watch = ovi_folder_watch_new (w->folder, poll ? OVI_WATCH_MODE_POLL : OVI_WATCH_MODE_AUTO);
  g_signal_connect (watch, "records-arrived", G_CALLBACK (records_arrived), w);
  g_signal_connect (watch, "notify::description", G_CALLBACK (mode_changed), w);
  g_signal_connect (watch, "notify::root-gone", G_CALLBACK (root_gone), w);
  ovi_folder_watch_start (watch);
  g_main_loop_run (w->loop);
  g_signal_handlers_disconnect_by_data (watch, w);
  ovi_folder_watch_stop (watch);
}

int
ovi_cli_watch (int argc, char **argv)
{
  gboolean json = FALSE, exit_on_first = FALSE, poll = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_ ("Print each record as one JSON object on a line, in the report's record schema"), NULL },
    { "exit-on-first", 0, 0, G_OPTION_ARG_NONE, &exit_on_first,
      N_ ("Exit with status 4 as soon as an overflow is recorded"), NULL },
    { "poll", 0, 0, G_OPTION_ARG_NONE, &poll,
      N_ ("Read the folder again every second instead of asking the system for changes"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
      g_option_context_new (_ ("PATH — follow a dump folder and print overflows as they appear"));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  g_autoptr (GFile) root = NULL;
  Watch w = { 0 };
  guint sigint, sigterm;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      context, _ ("Prints the records the folder holds, then each new one as it is written, until "
                  "interrupted. Exit status: 0 when interrupted (SIGINT, SIGTERM), 1 when the "
                  "folder cannot be read or disappears, 2 for usage errors, 4 with "
                  "--exit-on-first once an overflow is recorded."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc != 2)
    return ovi_cli_usage_error (context, _ ("watch takes exactly one PATH"));
  /* JSON is read by programs: its messages stay English in every locale. */
  if (json)
    setlocale (LC_MESSAGES, "C");

  root = g_file_new_for_commandline_arg (argv[1]);
  /* A file is read once, never followed: refused rather than waited on. */
  if (g_file_query_file_type (root, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_REGULAR)
    {
      ovi_cli_complain (argv[1], _ ("a file, not a folder: watch follows a dump folder "
                                    "(“report” reads one file)"));
      return OVI_EXIT_BROKEN_INPUT;
    }
  folder = ovi_dump_folder_new (root);
  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  w = (Watch){ loop, folder, json, exit_on_first, OVI_EXIT_OK, cancellable, FALSE, NULL };

  /* Before the load: a big folder takes a while, and SIGINT or SIGTERM
   * meanwhile ends the watch as cleanly as later (exit 0). */
  sigint = g_unix_signal_add (SIGINT, stop, &w);
  sigterm = g_unix_signal_add (SIGTERM, stop, &w);
  ovi_dump_folder_load_async (folder, cancellable, loaded, &w);
  g_main_loop_run (loop);
  if (!w.stopped && w.load_error)
    {
      ovi_cli_complain (NULL, w.load_error->message);
      w.status = OVI_EXIT_BROKEN_INPUT;
    }
  else if (!w.stopped)
    follow (&w, poll);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  g_clear_error (&w.load_error);
  return w.status;
}
