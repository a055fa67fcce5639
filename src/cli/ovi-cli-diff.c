/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ovi-cli.h"
#include "ovi-core.h"

/* overflow-inspector-cli diff MY GOLDEN: where two runs start to differ. */

/* A tolerance option: NULL when @text is absent or a number of at least 0,
 * else what is wrong with it (translated). */
static char *
parse_tolerance (const char *option, const char *text, double *value)
{
  char *end;

  if (text == NULL)
    return NULL;
  *value = g_ascii_strtod (text, &end);
  if (*text && *end == '\0' && isinf (*value) && *value > 0)
    /* 1e309 overflows to Inf, as does "inf". */
    return g_strdup_printf (_ ("%s “%s” is not a finite number: it is too large"), option, text);
  if (*text && *end == '\0' && *value >= 0)
    return NULL;
  return g_strdup_printf (_ ("%s takes a number of at least 0"), option);
}

static void
print_text (const char *text, gpointer unused)
{
  g_print ("%s", text);
}

int
ovi_cli_diff (int argc, char **argv)
{
  gboolean json = FALSE;
  g_autofree char *csv = NULL, *map = NULL, *rtol_text = NULL, *atol_text = NULL;
  int top = 10;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print one JSON object instead of text"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv,
      N_ ("Also write the vendor's comparison CSV (msaccucmp's columns) to FILE"), N_ ("FILE") },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map,
      N_ ("Pair renamed or fused operators: “my_name,golden_name” a line, either side may "
          "be a sequence “a+b+c”"),
      N_ ("FILE") },
    { "rtol", 0, 0, G_OPTION_ARG_STRING, &rtol_text,
      N_ ("Relative tolerance for every tensor (default: by dtype)"), "R" },
    { "atol", 0, 0, G_OPTION_ARG_STRING, &atol_text,
      N_ ("Absolute tolerance for every tensor (default: by dtype)"), "A" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_ ("Largest differences kept per tensor (default 10)"),
      "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (
      _ ("MY GOLDEN — compare two runs operator by operator and name the first divergence"));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  double rtol = NAN, atol = NAN;
  g_autofree char *bad = NULL;
  guint n_problems;

  g_option_context_set_summary (
      context, _ ("Exit status: 0 when the runs agree within tolerance; 5 when they diverge (an "
                  "operator differs or is in one run only); 1 when a file could not be read, a run "
                  "cannot be read or is not a dump, nothing diverges but something could not be "
                  "compared, or the CSV cannot be written; 2 for a wrong command line (a CSV "
                  "inside a run included)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc != 3)
    return ovi_cli_usage_error (context, _ ("diff takes exactly two paths, MY and GOLDEN"));
  if ((bad = parse_tolerance ("--rtol", rtol_text, &rtol)) ||
      (bad = parse_tolerance ("--atol", atol_text, &atol)))
    return ovi_cli_usage_error (context, bad);
  if (top < 0 || top > 1000)
    return ovi_cli_usage_error (context, _ ("--top takes a number from 0 to 1000"));
  /* JSON is read by programs: its messages stay English in every locale. */
  if (json)
    setlocale (LC_MESSAGES, "C");

  diff = ovi_diff_new (argv[1], argv[2]);
  ovi_diff_set_tolerance (diff, rtol, atol);
  ovi_diff_set_top_n (diff, top);
  ovi_diff_set_keep_sources (diff, FALSE); /* no tensor is read twice here */
  if (map && !ovi_diff_set_mapping_file (diff, map, &error))
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }
  /* Never into a folder being read, checked before anything is read. */
  if (csv && !ovi_diff_check_output (diff, csv, &error))
    {
      /* As convert refuses an --output there: a wrong command line. */
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_USAGE;
    }
  if ((result = ovi_diff_run (diff, NULL, &error)) == NULL)
    {
      ovi_cli_complain (NULL, error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }

  if (json)
    /* As report --json writes it (ovi_json_to_text()), an operator at a time. */
    ovi_diff_result_write_json (result, print_text, NULL);
  else
    {
      g_autofree char *text = ovi_diff_result_to_text (result);
      g_print ("%s", text);
    }

  /* Every warning and problem also on standard error, file first. */
  for (guint i = 0; i < ovi_diff_result_get_warnings (result)->len; i++)
    ovi_cli_complain (NULL, g_ptr_array_index (ovi_diff_result_get_warnings (result), i));
  n_problems = g_list_model_get_n_items (ovi_diff_result_get_problems (result));
  for (guint i = 0; i < n_problems; i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (ovi_diff_result_get_problems (result), i);
      ovi_cli_complain (ovi_problem_get_file (p), ovi_problem_get_message (p));
    }

  if (csv)
    {
      ovi_cli_remove_temporaries_on_signals ();
      if (!ovi_diff_result_write_csv (result, csv, TRUE, &error))
        {
          ovi_cli_complain (csv, error->message);
          return OVI_EXIT_CANNOT_WRITE;
        }
    }

  switch (ovi_diff_result_get_verdict (result))
    {
    case OVI_DIFF_VERDICT_AGREE:
      return OVI_EXIT_OK;
    case OVI_DIFF_VERDICT_DIVERGE:
      return OVI_EXIT_DIVERGE;
    case OVI_DIFF_VERDICT_INCOMPLETE:
    default:
      return OVI_EXIT_BROKEN_INPUT;
    }
}
