/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "ovi-cli.h"
#include "ovi-i18n.h"

static const struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "convert", ovi_cli_convert,
    N_ ("Convert dump files to .npy, .txt or .bin, and overflow files to JSON") },
  { "merge", ovi_cli_merge,
    N_ ("Merge the JSON reports of several machines into one cluster report") },
  { "report", ovi_cli_report,
    N_ ("List every overflow record, first overflow first; with several folders, which device "
        "overflowed first") },
  { "stats", ovi_cli_stats, N_ ("Statistics and histogram of every tensor in one dump file") },
  { "watch", ovi_cli_watch,
    N_ ("Follow a dump folder while a run writes into it and print overflows as they appear") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n  overflow-inspector-cli COMMAND [OPTION…] PATH…\n\n%s\n", _ ("Usage:"),
           _ ("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, _ (commands[i].summary));
  fprintf (out, "\n%s\n",
           _ ("Run “overflow-inspector-cli COMMAND --help” for the options of a command."));
}

int
ovi_cli_usage_error (GOptionContext *context, const char *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
  fprintf (stderr, "overflow-inspector-cli: %s\n\n%s", message, help);
  return OVI_EXIT_USAGE;
}

int
main (int argc, char **argv)
{
  ovi_i18n_init ();

  if (argc < 2)
    {
      print_usage (stderr);
      return OVI_EXIT_USAGE;
    }
  if (g_str_equal (argv[1], "--version") || g_str_equal (argv[1], "-V"))
    {
      printf ("overflow-inspector-cli %s\n", PACKAGE_VERSION);
      return OVI_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return OVI_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, _ ("overflow-inspector-cli: unknown command “%s”\n\n"), argv[1]);
  print_usage (stderr);
  return OVI_EXIT_USAGE;
}
