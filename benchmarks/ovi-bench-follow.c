/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>

#include "ovi-fixtures.h"

/* The first live pass over a tree (bench.py, case first-pass):
 *   ovi-bench-follow ROOT
 *   ovi-bench-follow ROOT OVERFLOW_FILE DIR
 * loads ROOT, follows it as `watch` does and prints one JSON line: how
 * long the first pass over every folder took (walk_s), the mode, the peak
 * memory. With OVERFLOW_FILE, a copy of it is written into DIR (a folder
 * the pass has been through already) one second after the pass started,
 * and record_s says when its record arrived. */

typedef struct
{
  OviFolderWatch *watch;
  const char *overflow;
  const char *dir;
  gint64 start;
  gint64 walked;
  gint64 arrived;
  gint64 written;
} Run;

static gboolean
write_overflow (gpointer data)
{
  Run *run = data;
  g_autofree char *contents = NULL;
  gsize length;

  if (!g_file_get_contents (run->overflow, &contents, &length, NULL))
    g_error ("cannot read %s", run->overflow);
  g_free (ovi_fixture_write_bytes (run->dir, "Opdebug.Node_OpDebug.77.5.999999", contents, length));
  run->written = g_get_monotonic_time ();
  return G_SOURCE_REMOVE;
}

static void
records_arrived (OviFolderWatch *watch, GPtrArray *records, Run *run)
{
  if (run->arrived == 0)
    run->arrived = g_get_monotonic_time ();
}

int
main (int argc, char **argv)
{
  g_autoptr (OviDumpFolder) folder = NULL;
  Run run = { 0 };
  struct rusage usage;

  if (argc != 2 && argc != 4)
    {
      fprintf (stderr, "usage: ovi-bench-follow ROOT [OVERFLOW_FILE DIR]\n");
      return 2;
    }
  folder = ovi_fixture_load_folder (argv[1]);
  run.watch = ovi_folder_watch_new (folder, OVI_WATCH_MODE_AUTO);
  g_signal_connect (run.watch, "records-arrived", G_CALLBACK (records_arrived), &run);
  run.start = g_get_monotonic_time ();
  ovi_folder_watch_start (run.watch);
  if (argc == 4)
    {
      run.overflow = argv[2];
      run.dir = argv[3];
      g_timeout_add (1000, write_overflow, &run);
    }
  /* Until every folder has had its pass and, with a writer, the record
   * has arrived. */
  while (ovi_folder_watch_get_busy (run.watch) || (argc == 4 && run.arrived == 0))
    {
      g_main_context_iteration (NULL, TRUE);
      if (run.walked == 0 && !ovi_folder_watch_get_busy (run.watch))
        run.walked = g_get_monotonic_time ();
    }
  if (run.walked == 0)
    run.walked = g_get_monotonic_time ();
  getrusage (RUSAGE_SELF, &usage);
  printf ("{\"walk_s\": %.3f, \"record_s\": %.3f, \"written_s\": %.3f, \"mode\": \"%s\", "
          "\"peak_rss_kib\": %ld}\n",
          (run.walked - run.start) / 1e6, run.arrived ? (run.arrived - run.start) / 1e6 : -1.0,
          run.written ? (run.written - run.start) / 1e6 : -1.0,
          ovi_folder_watch_get_mode (run.watch) == OVI_WATCH_MODE_POLL ? "poll" : "monitor",
          usage.ru_maxrss);
  g_object_unref (run.watch);
  return 0;
}
