/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ovi-atomic-file.h"
#include "ovi-cli.h"
#include "ovi-i18n.h"
#include "ovi-path.h"

static const struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "convert", ovi_cli_convert,
    N_ ("Convert dump files to .npy, .txt or .bin, and overflow files to JSON") },
  { "diff", ovi_cli_diff,
    N_ ("Compare two runs operator by operator and name the first divergence") },
  { "graph", ovi_cli_graph,
    N_ ("Write one iteration's dataflow graph with the blame along its edges (JSON, Graphviz, "
        "Model Explorer)") },
  { "merge", ovi_cli_merge,
    N_ ("Merge the JSON reports of several machines into one cluster report") },
  { "report", ovi_cli_report,
    N_ ("List every overflow record, first overflow first; with several folders, which device "
        "overflowed first") },
  { "stats", ovi_cli_stats, N_ ("Statistics and histogram of every tensor in one dump file") },
  { "watch", ovi_cli_watch,
    N_ ("Follow a dump folder while a run writes into it and print overflows as they appear") },
};

static char *
usage (void)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%s\n  overflow-inspector-cli COMMAND [OPTION…] PATH…\n\n%s\n",
                          _ ("Usage:"), _ ("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (s, "  %-8s %s\n", commands[i].name, _ (commands[i].summary));
  g_string_append_printf (
      s, "\n%s\n", _ ("Run “overflow-inspector-cli COMMAND --help” for the options of a command."));
  return g_string_free (s, FALSE);
}

/**
 * ovi_cli_line:
 * @path: (nullable): the file @message is about, as the file system names it
 *
 * Returns: "PATH: MESSAGE\n" for standard error, or "MESSAGE\n", with the
 *   control characters of both escaped as `ls -b` writes them
 *   (ovi_path_escape()): a file name cannot move the cursor, change
 *   colours or start a line of its own. A message of several lines stays
 *   on several lines.
 */
char *
ovi_cli_line (const char *path, const char *message)
{
  g_auto (GStrv) lines = g_strsplit (message, "\n", -1);
  GString *s = g_string_new (NULL);

  if (path)
    {
      g_autofree char *shown = ovi_path_display (path);
      g_string_append_printf (s, "%s: ", shown);
    }
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *line = ovi_path_escape (lines[i]);

      if (*line || lines[i + 1])
        g_string_append_printf (s, "%s\n", line);
    }
  return g_string_free (s, FALSE);
}

/* ovi_cli_line() printed on standard error. */
void
ovi_cli_complain (const char *path, const char *message)
{
  g_autofree char *line = ovi_cli_line (path, message);

  fputs (line, stderr);
}

int
ovi_cli_usage_error (GOptionContext *context, const char *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
  g_autofree char *line = ovi_cli_line (NULL, message);

  fprintf (stderr, "overflow-inspector-cli: %s\n%s", line, help);
  return OVI_EXIT_USAGE;
}

/* Removes the files being written, then ends as the signal would have. */
static void
end_on_signal (int signum)
{
  ovi_atomic_file_remove_temporaries ();
  raise (signum); /* the handler was reset to the default (SA_RESETHAND) */
}

/**
 * ovi_cli_remove_temporaries_on_signals:
 *
 * For commands that write files: SIGTERM, SIGINT and SIGHUP remove the
 * named temporary files being written (where the file system has no
 * unnamed ones) before the process ends with the signal, so that an
 * interrupted run leaves no hidden partial file.
 */
void
ovi_cli_remove_temporaries_on_signals (void)
{
  static const int signals[] = { SIGTERM, SIGINT, SIGHUP };
  struct sigaction action = { 0 };

  action.sa_handler = end_on_signal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset (&action.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      struct sigaction old;

      /* A signal ignored by whoever started the process stays ignored. */
      if (sigaction (signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        continue;
      sigaction (signals[i], &action, NULL);
    }
}

/* Why a write to standard output failed first, 0 while none did. */
static int write_errno;

/* Everything the commands print goes through g_print(), so that the
 * reason of a failed write is known when it is reported. */
static void
print_stdout (const char *text)
{
  if (fputs (text, stdout) == EOF && write_errno == 0)
    write_errno = errno ? errno : EIO;
}

/**
 * ovi_cli_stdout_ok:
 *
 * Flushes standard output and tells whether everything written to it so
 * far got there, saying why on standard error the first time it did not (a
 * full disk, say): a cut report must not pass for a whole one.
 */
gboolean
ovi_cli_stdout_ok (void)
{
  static gboolean reported;

  if (fflush (stdout) != 0 && write_errno == 0)
    write_errno = errno ? errno : EIO;
  if (!ferror (stdout) && write_errno == 0)
    return TRUE;
  if (!reported)
    fprintf (stderr, _ ("cannot write to standard output: %s\n"),
             g_strerror (write_errno ? write_errno : EIO));
  reported = TRUE;
  return FALSE;
}

/* At exit, whichever way it comes (GOption exits after --help): the last
 * buffered bytes and the close of standard output are checked too. */
static void
close_stdout (void)
{
  gboolean ok = ovi_cli_stdout_ok ();

  if (fclose (stdout) != 0 && ok)
    {
      fprintf (stderr, _ ("cannot write to standard output: %s\n"), g_strerror (errno));
      ok = FALSE;
    }
  if (!ok)
    _exit (OVI_EXIT_CANNOT_WRITE);
}

int
main (int argc, char **argv)
{
  g_autofree char *help = NULL;

  ovi_i18n_init ();
  g_set_print_handler (print_stdout);
  atexit (close_stdout);

  help = usage ();
  if (argc < 2)
    {
      fputs (help, stderr);
      return OVI_EXIT_USAGE;
    }
  if (g_str_equal (argv[1], "--version") || g_str_equal (argv[1], "-V"))
    {
      g_print ("overflow-inspector-cli %s\n", PACKAGE_VERSION);
      return OVI_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      g_print ("%s", help);
      return OVI_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        /* The command's --help says "Usage: overflow-inspector-cli convert
         * [OPTION…]", as it is typed, not "convert [OPTION…]". */
        g_autofree char *name = g_strdup_printf ("overflow-inspector-cli %s", commands[i].name);

        g_set_prgname (name);
        return commands[i].run (argc - 1, argv + 1);
      }

  {
    g_autofree char *command = ovi_path_display (argv[1]);
    fprintf (stderr, _ ("overflow-inspector-cli: unknown command “%s”\n\n"), command);
  }
  fputs (help, stderr);
  return OVI_EXIT_USAGE;
}
