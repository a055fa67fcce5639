/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>

#include "ovi-cli.h"
#include "ovi-core.h"

static JsonNode *
histogram_json (const OviHistogram *h)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "edges");
  json_builder_begin_array (b);
  for (guint i = 0; i <= h->n_bins; i++)
    json_builder_add_double_value (b, h->edges[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "counts");
  json_builder_begin_array (b);
  for (guint i = 0; i < h->n_bins; i++)
    json_builder_add_int_value (b, (gint64) h->counts[i]);
  json_builder_end_array (b);
#define COUNT(key, v)                                                                              \
  json_builder_set_member_name (b, key);                                                           \
  json_builder_add_int_value (b, (gint64) (v));
  COUNT ("nan", h->nan);
  COUNT ("neg_inf", h->neg_inf);
  COUNT ("pos_inf", h->pos_inf);
  COUNT ("neg_saturated", h->neg_saturated);
  COUNT ("pos_saturated", h->pos_saturated);
#undef COUNT
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
print_histogram (const OviHistogram *h)
{
  guint64 top = 1;

  for (guint i = 0; i < h->n_bins; i++)
    top = MAX (top, h->counts[i]);
  for (guint i = 0; i < h->n_bins; i++)
    {
      guint width = (guint) (40.0 * h->counts[i] / top + 0.5);
      g_autofree char *bar = g_strnfill (width, '#');
      g_print ("    [%12.5g, %12.5g%c %12" G_GUINT64_FORMAT " %s\n", h->edges[i], h->edges[i + 1],
               i + 1 == h->n_bins ? ']' : ')', h->counts[i], bar);
    }
  if (h->nan)
    g_print ("    %-28s %12" G_GUINT64_FORMAT "\n", "NaN", h->nan);
  if (h->neg_inf)
    g_print ("    %-28s %12" G_GUINT64_FORMAT "\n", "-Inf", h->neg_inf);
  if (h->pos_inf)
    g_print ("    %-28s %12" G_GUINT64_FORMAT "\n", "+Inf", h->pos_inf);
  if (h->neg_saturated)
    g_print ("    %-28s %12" G_GUINT64_FORMAT "\n", _ ("saturated at -max"), h->neg_saturated);
  if (h->pos_saturated)
    g_print ("    %-28s %12" G_GUINT64_FORMAT "\n", _ ("saturated at +max"), h->pos_saturated);
}

static void
print_stats (OviTensor *t, const OviStats *s)
{
  g_autofree char *label = ovi_tensor_dup_label (t);
  g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (t));
  g_autofree char *format = ovi_format_dup_label (ovi_tensor_get_format (t));
  g_autofree char *shape = ovi_tensor_dup_shape_string (t);

  g_autofree char *count =
      g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%llu element", "%llu elements", s->count),
                       (unsigned long long) s->count);

  g_print ("%s  %s %s %s  (%s)\n", label, dtype, format, shape, count);
  if (s->finite)
    g_print ("  min %.9g  max %.9g  mean %.9g  std %.9g\n", s->min, s->max, s->mean, s->std);
  else
    g_print ("  %s\n", _ ("no finite values"));
  g_print ("  nan %" G_GUINT64_FORMAT "  +inf %" G_GUINT64_FORMAT "  -inf %" G_GUINT64_FORMAT,
           s->nan, s->pos_inf, s->neg_inf);
  /* The runtime's statistics files count no zeros: unknown, not none. */
  if (ovi_tensor_get_known_statistics (t) & OVI_STATISTIC_ZEROS)
    g_print ("  zeros %" G_GUINT64_FORMAT, s->zeros);
  else
    g_print ("  zeros -");
  g_print ("  saturated %" G_GUINT64_FORMAT "\n", s->saturated);
  if (s->first_nonfinite >= 0)
    g_print ("  %s %" G_GINT64_FORMAT "\n", _ ("first non-finite value at index"),
             s->first_nonfinite);
}

int
ovi_cli_stats (int argc, char **argv)
{
  int bins = 10;
  gboolean json = FALSE, symlog = FALSE;
  const GOptionEntry entries[] = {
    { "bins", 'b', 0, G_OPTION_ARG_INT, &bins, N_ ("Number of histogram bins (default 10)"), "N" },
    { "symlog", 0, 0, G_OPTION_ARG_NONE, &symlog, N_ ("Symmetric-log bin edges"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print one JSON object instead of text"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
      g_option_context_new (_ ("FILE — statistics of every tensor in one dump file"));
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  GPtrArray *tensors;
  int status = OVI_EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ovi_cli_usage_error (context, error->message);
  if (argc != 2)
    return ovi_cli_usage_error (context, _ ("stats takes exactly one FILE"));
  if (bins < 1 || bins > 100000)
    return ovi_cli_usage_error (context, _ ("--bins takes a number from 1 to 100000"));
  /* JSON is read by programs: its messages stay English in every locale. */
  if (json)
    setlocale (LC_MESSAGES, "C");

  if (ovi_statistic_is_csv_name (argv[1], NULL))
    {
      /* "{op dump name}.csv": the operator the statistics stand for. */
      g_autoptr (GFile) path = g_file_new_for_commandline_arg (argv[1]);
      g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (path);
      GListModel *problems;

      if (ovi_dump_folder_load (folder, NULL, &error))
        {
          problems = ovi_dump_folder_get_problems (folder);
          for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
            {
              g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
              ovi_cli_complain (argv[1], ovi_problem_get_message (p));
              status = OVI_EXIT_BROKEN_INPUT;
            }
          file = g_list_model_get_item (ovi_dump_folder_get_files (folder), 0);
          if (file == NULL)
            return status;
        }
    }
  else
    file = ovi_dump_file_load (argv[1], NULL, &error);
  if (file == NULL)
    {
      ovi_cli_complain (argv[1], error->message);
      return OVI_EXIT_BROKEN_INPUT;
    }

  tensors = ovi_dump_file_get_tensors (file);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, ovi_dump_file_get_name (file));
  json_builder_set_member_name (b, "op_type");
  json_builder_add_string_value (b, ovi_dump_file_get_op_type (file));
  json_builder_set_member_name (b, "op_name");
  json_builder_add_string_value (b, ovi_dump_file_get_op_name (file));
  json_builder_set_member_name (b, "tensors");
  json_builder_begin_array (b);
  if (!json)
    {
      g_autofree char *name = ovi_path_display (ovi_dump_file_get_name (file));
      g_autofree char *op_type = ovi_path_escape (ovi_dump_file_get_op_type (file));
      g_autofree char *op_name = ovi_path_escape (ovi_dump_file_get_op_name (file));
      g_print ("%s  %s %s\n\n", name, op_type, op_name);
    }

  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      g_autoptr (OviAnalysis) analysis = NULL;
      g_autoptr (OviHistogram) h = NULL;
      g_autoptr (GError) local_error = NULL;
      JsonNode *node = ovi_report_tensor_json (t);

      if (ovi_dtype_is_supported (ovi_tensor_get_dtype (t)) || ovi_tensor_get_statistics_only (t))
        analysis = ovi_tensor_analyze (t, &local_error);
      /* Statistics-only tensors have their statistics and no histogram. */
      if (analysis && ovi_analysis_has_values (analysis) &&
          !(h = ovi_analysis_histogram (analysis, bins,
                                        symlog ? OVI_HISTOGRAM_SYMLOG : OVI_HISTOGRAM_LINEAR,
                                        &local_error)))
        g_clear_pointer (&analysis, ovi_analysis_unref); /* the file changed meanwhile */
      if (local_error)
        status = OVI_EXIT_BROKEN_INPUT;

      if (json)
        {
          if (h)
            json_object_set_member (json_node_get_object (node), "histogram", histogram_json (h));
          json_builder_add_value (b, node);
          continue;
        }
      json_node_unref (node);
      if (analysis)
        {
          print_stats (t, ovi_analysis_get_stats (analysis));
          if (h)
            print_histogram (h);
          else
            g_print ("  %s\n", ovi_statistic_why_no_values ());
        }
      else
        {
          g_autofree char *label = ovi_tensor_dup_label (t);
          g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (t));
          g_autofree char *reason =
              ovi_dtype_is_packing_unknown (ovi_tensor_get_dtype (t))
                  ? ovi_dtype_dup_unsupported_reason (ovi_tensor_get_dtype (t))
                  : NULL;
          g_print ("%s  %s  %s\n", label, dtype,
                   local_error ? local_error->message
                   : reason    ? reason
                               : _ ("no statistics for this dtype"));
        }
      g_print ("\n");
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  if (json)
    {
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      g_autofree char *text = NULL;
      json_generator_set_pretty (gen, TRUE);
      json_generator_set_root (gen, root);
      text = json_generator_to_data (gen, NULL);
      g_print ("%s\n", text);
    }
  return status;
}
