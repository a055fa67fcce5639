/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ovi-atomic-file.h"
#include "ovi-diff-writer.h"
#include "ovi-dtype.h"
#include "ovi-file-name.h"
#include "ovi-json.h"
#include "ovi-path.h"
#include "ovi-problem.h"

/* ---- shared ---- */

static JsonNode *build_json (OviDiffResult *result, gboolean mark_operators);

static const char *
kind_label (OviTensorKind kind)
{
  return kind == OVI_TENSOR_INPUT ? _ ("input") : _ ("output");
}

static char *
number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v))
    return g_strdup ("nan");
  if (isinf (v))
    return g_strdup (v > 0 ? "inf" : "-inf");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.9g", v));
}

/* What the first divergence's tensor shows, for people: "output 0 has 1
 * of 8 elements out of tolerance, the first at 5 (1, 1): 8.5 against 8". */
/* A tensor compared by statistics: "max 9.5 against 4, mean 1.2 against
 * 1.1", the statistics out of tolerance (all compared with @all). */
static char *
statistics_text (const OviDiffTensor *t, gboolean all)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    {
      g_autofree char *mine = NULL, *golden = NULL;

      if (!(t->stats.compared & (1u << k)) || (!all && !(t->stats.differs & (1u << k))))
        continue;
      mine = number (t->stats.mine[k]);
      golden = number (t->stats.golden[k]);
      /* TRANSLATORS: a statistic (max, min, mean, l2_norm), my value, the golden's */
      g_string_append_printf (s, _ ("%s%s %s against %s"), s->len ? ", " : "",
                              ovi_diff_stat_name (k), mine, golden);
    }
  if (t->nonfinite_mismatch)
    g_string_append_printf (s,
                            _ ("%sNaN/Inf counts %" PRIu64 "/%" PRIu64 "/%" PRIu64
                               " against %" PRIu64 "/%" PRIu64 "/%" PRIu64),
                            s->len ? ", " : "", t->stats.mine_nonfinite[0],
                            t->stats.mine_nonfinite[1], t->stats.mine_nonfinite[2],
                            t->stats.golden_nonfinite[0], t->stats.golden_nonfinite[1],
                            t->stats.golden_nonfinite[2]);
  return g_string_free (s, FALSE);
}

static char *
why_text (const OviDiffTensor *t)
{
  g_autofree char *mine = number (t->first_mine), *golden = number (t->first_golden);

  if (t->statistics)
    {
      g_autofree char *stats = statistics_text (t, FALSE);
      return g_strdup_printf (_ ("%s %u, compared by statistics: %" PRIu64 " of %" PRIu64
                                 " statistics out of tolerance: %s"),
                              kind_label (t->kind), t->index, t->out_of_tolerance, t->count, stats);
    }

  if (t->first_difference < 0)
    return g_strdup_printf (_ ("%s %u has %" PRIu64 " of %" PRIu64 " elements out of tolerance"),
                            kind_label (t->kind), t->index, t->out_of_tolerance, t->count);
  return g_strdup_printf (_ ("%s %u has %" PRIu64 " of %" PRIu64
                             " elements out of tolerance, the first at %s: %s against %s"),
                          kind_label (t->kind), t->index, t->out_of_tolerance, t->count,
                          t->first_position, mine, golden);
}

/* ---- text ---- */

/**
 * ovi_diff_result_to_text:
 *
 * For people, translated: the folder pairs, the first divergence, the
 * overflows of one run only, then one line per operator in run order, the
 * problems and a summary.
 */
char *
ovi_diff_result_to_text (OviDiffResult *result)
{
  GString *s = g_string_new (NULL);
  GListModel *ops = ovi_diff_result_get_operators (result);
  GListModel *problems = ovi_diff_result_get_problems (result);
  OviDiffOperator *first = ovi_diff_result_get_first_divergence (result);
  const OviDiffTensor *t = ovi_diff_result_get_first_divergence_tensor (result);
  g_autofree char *headline = ovi_diff_result_dup_headline (result);
  const OviDiffFolderPair *pairs;
  guint n_pairs, n_ops = g_list_model_get_n_items (ops);
  gboolean any_only = FALSE;

  pairs = ovi_diff_result_get_folder_pairs (result, &n_pairs);
  g_string_append_printf (s, "%s\n", _ ("Pairs:"));
  for (guint i = 0; i < n_pairs; i++)
    {
      g_autofree char *mine = pairs[i].mine ? ovi_path_display (pairs[i].mine) : NULL;
      g_autofree char *golden = pairs[i].golden ? ovi_path_display (pairs[i].golden) : NULL;
      g_autofree char *label = ovi_path_escape (pairs[i].label);

      if (mine && golden)
        g_string_append_printf (s, "  %s: %s ↔ %s\n", label, mine, golden);
      else if (mine)
        g_string_append_printf (s, _ ("  %s: %s has no partner in the golden run\n"), label, mine);
      else
        g_string_append_printf (s, _ ("  %s: %s has no partner in my run\n"), label, golden);
    }

  g_string_append_printf (s, "%s\n", headline);
  if (first && t)
    {
      g_autofree char *why = why_text (t);
      g_autofree char *cos = ovi_diff_format_value (t->metrics.cosine);
      g_autofree char *mae = ovi_diff_format_value (t->metrics.max_absolute_error);

      if (t->statistics)
        g_string_append_printf (s, "  %s\n", why);
      else
        g_string_append_printf (s, "  %s\n  %s %s, %s %s\n", why, _ ("cosine"), cos,
                                _ ("max absolute error"), mae);
    }

  /* Both runs' overflow records side by side; a run of .npy files has
   * none to read, and then nothing is "only" in the other. */
  for (guint side = 0; side < 2; side++)
    {
      GString *list = g_string_new (NULL);
      gboolean other_npy = ovi_diff_result_get_is_npy (result, side == 0);

      for (guint i = 0; i < n_ops; i++)
        {
          g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
          guint a = ovi_diff_operator_get_mine_overflows (op);
          guint b = ovi_diff_operator_get_golden_overflows (op);
          if ((side == 0 && a && !b) || (side == 1 && b && !a))
            {
              g_autofree char *name = ovi_path_escape (ovi_diff_operator_get_name (op));
              g_string_append_printf (list, "%s%s", list->len ? ", " : "", name);
            }
        }
      if (list->len && other_npy)
        g_string_append_printf (
            s, "%s %s %s\n",
            side == 0 ? _ ("Overflows in my run:") : _ ("Overflows in the golden run:"), list->str,
            side == 0 ? _ ("(the golden run has no overflow records to compare)")
                      : _ ("(my run has no overflow records to compare)"));
      else if (list->len)
        g_string_append_printf (s, "%s %s\n",
                                side == 0 ? _ ("Overflows only in my run:")
                                          : _ ("Overflows only in the golden run:"),
                                list->str);
      g_string_free (list, TRUE);
    }

  g_string_append_printf (s, "\n%s\n", _ ("Operators, in run order:"));
  for (guint i = 0; i < n_ops; i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
      g_autofree char *name = ovi_path_escape (ovi_diff_operator_get_name (op));
      g_autofree char *cos = ovi_diff_format_value (ovi_diff_operator_get_cosine (op));
      g_autofree char *mae = ovi_diff_format_value (ovi_diff_operator_get_max_abs_error (op));
      const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (op);
      OviDiffOpClass c = ovi_diff_operator_get_op_class (op);

      any_only |= c == OVI_DIFF_OP_ONLY_MINE || c == OVI_DIFF_OP_ONLY_GOLDEN;
      g_string_append_printf (
          s, "%5u  %-22s %s %s", ovi_diff_operator_get_position (op),
          ovi_diff_operator_get_class_label (op),
          ovi_diff_operator_get_op_type (op) ? ovi_diff_operator_get_op_type (op) : "-", name);
      if (ovi_diff_operator_get_golden_name (op) &&
          g_strcmp0 (ovi_diff_operator_get_golden_name (op), ovi_diff_operator_get_name (op)) != 0)
        {
          g_autofree char *golden = ovi_path_escape (ovi_diff_operator_get_golden_name (op));
          g_string_append_printf (s, " ↔ %s", golden);
        }
      if (ovi_diff_operator_get_reason (op))
        {
          g_autofree char *reason = ovi_path_escape (ovi_diff_operator_get_reason (op));
          g_string_append_printf (s, "  (%s)", reason);
        }
      else if (t && t->statistics)
        {
          g_autofree char *stats = statistics_text (t, FALSE);
          g_string_append_printf (s, "  %s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "%s%s",
                                  _ ("statistics out of tolerance"), t->out_of_tolerance, t->count,
                                  *stats ? "  " : "", stats);
        }
      else if (t)
        {
          g_string_append_printf (s, "  %s %s  %s %s  %s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                  _ ("cosine"), cos, _ ("max abs"), mae, _ ("out of tolerance"),
                                  t->out_of_tolerance, t->count);
          /* The metrics leave them out: say so. */
          if (t->nonfinite_mismatch)
            g_string_append_printf (s, "  %s %" G_GUINT64_FORMAT, _ ("NaN/Inf not matching"),
                                    t->nonfinite_mismatch);
        }
      /* Along the graph, a start other than the first is named, and which
       * start each difference follows from. */
      if (ovi_diff_operator_get_entered_through (op, NULL))
        {
          g_autofree char *through =
              ovi_path_escape (ovi_diff_operator_get_entered_through (op, NULL));
          g_string_append_printf (s, "  %s %s", _ ("entered through"), through);
        }
      if (ovi_diff_result_get_along_edges (result) && ovi_diff_operator_get_follows (op, NULL) &&
          ovi_diff_operator_get_follows (op, NULL)->len > 0)
        {
          gboolean more = FALSE;
          GPtrArray *follows = ovi_diff_operator_get_follows (op, &more);
          GString *list = g_string_new (NULL);

          for (guint k = 0; k < follows->len; k++)
            {
              g_autofree char *from = ovi_path_escape (g_ptr_array_index (follows, k));
              g_string_append_printf (list, "%s%s", k ? ", " : "", from);
            }
          if (more)
            g_string_append (list, ", …");
          g_string_append_printf (s, "  %s %s", _ ("follows from"), list->str);
          g_string_free (list, TRUE);
        }
      g_string_append_c (s, '\n');
    }
  (void) any_only;

  if (ovi_diff_result_get_warnings (result)->len)
    {
      GPtrArray *warnings = ovi_diff_result_get_warnings (result);

      g_string_append_printf (s, "\n%s\n", _ ("Warnings:"));
      for (guint i = 0; i < warnings->len; i++)
        {
          g_autofree char *w = ovi_path_escape (g_ptr_array_index (warnings, i));
          g_string_append_printf (s, "  %s\n", w);
        }
    }

  if (g_list_model_get_n_items (problems))
    {
      g_string_append_printf (s, "\n%s\n", _ ("Problems (files not compared):"));
      for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
        {
          g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
          g_autofree char *file = ovi_path_display (ovi_problem_get_file (p));
          g_autofree char *message = ovi_path_escape (ovi_problem_get_message (p));
          g_string_append_printf (s, "  %s: %s\n", file, message);
        }
    }

  g_string_append_printf (s, "\n%s", _ ("Summary:"));
  for (OviDiffOpClass c = OVI_DIFF_OP_IDENTICAL; c <= OVI_DIFF_OP_OUTPUT_DIFFERS; c++)
    {
      guint n = ovi_diff_result_count_class (result, c);
      if (n)
        g_string_append_printf (s, " %s %u;", ovi_diff_op_class_label (c), n);
    }
  g_string_append_printf (s, " %s %u\n", _ ("problems"), g_list_model_get_n_items (problems));
  return g_string_free (s, FALSE);
}

/* ---- JSON ---- */

/* A number, or "nan", "inf", "-inf": JSON has no non-finite numbers. */
static void
add_number (JsonBuilder *b, const char *key, double v)
{
  json_builder_set_member_name (b, key);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_string_value (b, isnan (v) ? "nan" : v > 0 ? "inf" : "-inf");
}

static void
add_string (JsonBuilder *b, const char *key, const char *value)
{
  json_builder_set_member_name (b, key);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_metrics (JsonBuilder *b, const OviDiffMetrics *m)
{
  g_autofree char *std = ovi_diff_format_standard_deviation (m);

  json_builder_set_member_name (b, "metrics");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "finite_positions");
  json_builder_add_int_value (b, (gint64) m->n);
  add_number (b, "CosineSimilarity", m->cosine);
  add_number (b, "MaxAbsoluteError", m->max_absolute_error);
  add_number (b, "AccumulatedRelativeError", m->accumulated_relative_error);
  add_number (b, "RelativeEuclideanDistance", m->relative_euclidean_distance);
  add_number (b, "KullbackLeiblerDivergence", m->kl_divergence);
  add_string (b, "StandardDeviation", std);
  add_number (b, "MeanAbsoluteError", m->mean_absolute_error);
  add_number (b, "RootMeanSquareError", m->root_mean_square_error);
  add_number (b, "MaxRelativeError", m->max_relative_error);
  add_number (b, "MeanRelativeError", m->mean_relative_error);
  json_builder_end_object (b);
}

static void
add_element (JsonBuilder *b, const OviDiffElement *e, const char *position)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "index");
  json_builder_add_int_value (b, (gint64) e->index);
  add_string (b, "position", position);
  add_number (b, "mine", e->mine);
  add_number (b, "golden", e->golden);
  add_number (b, "difference", e->difference);
  json_builder_end_object (b);
}

/* Statistics mode: each statistic both sides have, and the NaN/Inf
 * counts (null where a side does not give them). */
static void
add_statistics (JsonBuilder *b, const OviDiffTensor *t)
{
  static const char *const counts[] = { "nan", "neg_inf", "pos_inf" };

  json_builder_set_member_name (b, "statistics");
  json_builder_begin_object (b);
  for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
    {
      if (!(t->stats.compared & (1u << k)))
        continue;
      json_builder_set_member_name (b, ovi_diff_stat_name (k));
      json_builder_begin_object (b);
      add_number (b, "mine", t->stats.mine[k]);
      add_number (b, "golden", t->stats.golden[k]);
      add_number (b, "tolerance", t->stats.tolerance[k]);
      json_builder_set_member_name (b, "differs");
      json_builder_add_boolean_value (b, (t->stats.differs >> k) & 1);
      json_builder_end_object (b);
    }
  for (guint side = 0; side < 2; side++)
    {
      const guint64 *v = side ? t->stats.golden_nonfinite : t->stats.mine_nonfinite;

      json_builder_set_member_name (b, side ? "golden_nonfinite" : "mine_nonfinite");
      json_builder_begin_object (b);
      for (guint k = 0; k < 3; k++)
        {
          json_builder_set_member_name (b, counts[k]);
          if (v[k] == G_MAXUINT64)
            json_builder_add_null_value (b);
          else
            json_builder_add_int_value (b, (gint64) v[k]);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

static void
add_tensor (JsonBuilder *b, const OviDiffTensor *t)
{
  json_builder_begin_object (b);
  add_string (b, "kind", t->kind == OVI_TENSOR_INPUT ? "input" : "output");
  json_builder_set_member_name (b, "index");
  json_builder_add_int_value (b, t->index);
  add_string (b, "class", ovi_diff_tensor_class_name (t->tensor_class));
  add_string (b, "compared_by", t->statistics ? "statistics" : "values");
  add_string (b, "reason", t->reason);
  add_string (b, "mine_dtype", t->mine_shape ? ovi_dtype_name (t->mine_dtype) : NULL);
  add_string (b, "golden_dtype", t->golden_shape ? ovi_dtype_name (t->golden_dtype) : NULL);
  add_string (b, "mine_shape", t->mine_shape);
  add_string (b, "golden_shape", t->golden_shape);
  if (t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE)
    {
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, (gint64) t->count);
      json_builder_set_member_name (b, "out_of_tolerance");
      json_builder_add_int_value (b, (gint64) t->out_of_tolerance);
      add_number (b, "out_of_tolerance_fraction",
                  t->count ? (double) t->out_of_tolerance / t->count : 0);
      json_builder_set_member_name (b, "nonfinite_mismatch");
      json_builder_add_int_value (b, (gint64) t->nonfinite_mismatch);
      add_number (b, "rtol", t->rtol);
      add_number (b, "atol", t->atol);
      json_builder_set_member_name (b, "first_difference");
      if (t->first_difference >= 0)
        {
          OviDiffElement e = { (guint64) t->first_difference, t->first_mine, t->first_golden,
                               fabs (t->first_mine - t->first_golden) };
          if (isnan (e.difference))
            e.difference = INFINITY; /* non-finite values that do not match */
          add_element (b, &e, t->first_position);
        }
      else
        json_builder_add_null_value (b);
      add_metrics (b, &t->metrics);
      if (t->statistics)
        add_statistics (b, t);
      json_builder_set_member_name (b, "top_differences");
      json_builder_begin_array (b);
      for (guint i = 0; i < t->top->len; i++)
        add_element (b, &g_array_index (t->top, OviDiffElement, i), NULL);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

/* Where a difference starts at @op (its form, the external input it
 * entered through) and the starts its differing inputs follow from. */
static void
add_divergence (JsonBuilder *b, OviDiffOperator *op)
{
  OviDiffDivergenceForm start = ovi_diff_operator_get_start (op);
  gboolean more = FALSE;
  GPtrArray *follows = ovi_diff_operator_get_follows (op, &more);

  add_string (b, "start",
              start != OVI_DIFF_DIVERGENCE_NONE ? ovi_diff_divergence_form_name (start) : NULL);
  add_string (b, "entered_through", ovi_diff_operator_get_entered_through (op, NULL));
  json_builder_set_member_name (b, "follows");
  if (follows == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_array (b);
  for (guint i = 0; i < follows->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (follows, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "follows_more");
  json_builder_add_boolean_value (b, more);
}

static void
add_operator (JsonBuilder *b, OviDiffOperator *op)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "position");
  json_builder_add_int_value (b, ovi_diff_operator_get_position (op));
  add_string (b, "name", ovi_diff_operator_get_name (op));
  add_string (b, "golden_name", ovi_diff_operator_get_golden_name (op));
  add_string (b, "op_type", ovi_diff_operator_get_op_type (op));
  add_string (b, "class", ovi_diff_op_class_name (ovi_diff_operator_get_op_class (op)));
  add_string (b, "compared_by", ovi_diff_operator_get_statistics (op) ? "statistics" : "values");
  add_string (b, "reason", ovi_diff_operator_get_reason (op));
  add_string (b, "pair", ovi_diff_operator_get_pair (op));
  add_string (b, "device", ovi_diff_operator_get_device (op));
  add_string (b, "mine_file", ovi_diff_operator_get_mine_path (op));
  add_string (b, "golden_file", ovi_diff_operator_get_golden_path (op));
  add_number (b, "cosine", ovi_diff_operator_get_cosine (op));
  add_number (b, "max_absolute_error", ovi_diff_operator_get_max_abs_error (op));
  json_builder_set_member_name (b, "overflows");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "mine");
  json_builder_add_int_value (b, ovi_diff_operator_get_mine_overflows (op));
  json_builder_set_member_name (b, "golden");
  json_builder_add_int_value (b, ovi_diff_operator_get_golden_overflows (op));
  json_builder_end_object (b);
  add_divergence (b, op);
  json_builder_set_member_name (b, "tensors");
  json_builder_begin_array (b);
  for (guint i = 0; i < ovi_diff_operator_get_n_tensors (op); i++)
    add_tensor (b, ovi_diff_operator_get_tensor (op, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/**
 * ovi_diff_result_to_json:
 *
 * The schema is the README's ("The diff's JSON").
 *
 * Returns: (transfer full): one object
 */
JsonNode *
ovi_diff_result_to_json (OviDiffResult *result)
{
  return build_json (result, FALSE);
}

/* Stands for the operators in the tree ovi_diff_result_write_json() writes
 * around them; the generator escapes its first byte as "\u0001". */
#define OPERATORS_MARK "\001ovi-diff-operators"
#define OPERATORS_LINE "\n  \"operators\" : [\n    \"\\u0001ovi-diff-operators\"\n"

static JsonNode *
build_json (OviDiffResult *result, gboolean mark_operators)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  GListModel *ops = ovi_diff_result_get_operators (result);
  GListModel *problems = ovi_diff_result_get_problems (result);
  OviDiffOperator *first = ovi_diff_result_get_first_divergence (result);
  g_autofree char *headline = ovi_diff_result_dup_headline (result);
  const OviDiffFolderPair *pairs;
  guint n_pairs;
  static const char *const verdict_names[] = { "agree", "diverge", "incomplete" };

  json_builder_begin_object (b);
  add_string (b, "mine", ovi_diff_result_get_mine_path (result));
  add_string (b, "golden", ovi_diff_result_get_golden_path (result));
  json_builder_set_member_name (b, "agree");
  json_builder_add_boolean_value (b, ovi_diff_result_get_agree (result));
  add_string (b, "verdict", verdict_names[ovi_diff_result_get_verdict (result)]);
  add_string (b, "headline", headline);
  json_builder_set_member_name (b, "along_edges");
  json_builder_add_boolean_value (b, ovi_diff_result_get_along_edges (result));

  pairs = ovi_diff_result_get_folder_pairs (result, &n_pairs);
  json_builder_set_member_name (b, "pairs");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_pairs; i++)
    {
      json_builder_begin_object (b);
      add_string (b, "label", pairs[i].label);
      add_string (b, "mine", pairs[i].mine);
      add_string (b, "golden", pairs[i].golden);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "first_divergence");
  if (first)
    {
      const OviDiffTensor *t = ovi_diff_result_get_first_divergence_tensor (result);
      g_autofree char *why = t ? why_text (t) : NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "position");
      json_builder_add_int_value (b, ovi_diff_operator_get_position (first));
      add_string (b, "name", ovi_diff_operator_get_name (first));
      add_string (b, "golden_name", ovi_diff_operator_get_golden_name (first));
      add_string (b, "op_type", ovi_diff_operator_get_op_type (first));
      add_string (b, "device", ovi_diff_operator_get_device (first));
      add_string (
          b, "form",
          ovi_diff_divergence_form_name (ovi_diff_result_get_first_divergence_form (result)));
      add_string (b, "entered_through", ovi_diff_operator_get_entered_through (first, NULL));
      json_builder_set_member_name (b, "input");
      if (ovi_diff_result_get_first_divergence_input (result) != G_MAXUINT)
        json_builder_add_int_value (b, ovi_diff_result_get_first_divergence_input (result));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "tensor");
      if (t)
        add_tensor (b, t);
      else
        json_builder_add_null_value (b);
      add_string (b, "why", why);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  for (OviDiffOpClass c = OVI_DIFF_OP_IDENTICAL; c <= OVI_DIFF_OP_OUTPUT_DIFFERS; c++)
    {
      json_builder_set_member_name (b, ovi_diff_op_class_name (c));
      json_builder_add_int_value (b, ovi_diff_result_count_class (result, c));
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "operators");
  json_builder_begin_array (b);
  if (mark_operators)
    json_builder_add_string_value (b, OPERATORS_MARK);
  else
    for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
      {
        g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
        add_operator (b, op);
      }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < ovi_diff_result_get_warnings (result)->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (ovi_diff_result_get_warnings (result), i));
  json_builder_end_array (b);

  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      json_builder_begin_object (b);
      add_string (b, "file", ovi_problem_get_file (p));
      add_string (b, "message", ovi_problem_get_message (p));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
flush_some (GString *s, OviDiffWriteFunc write, gpointer data, gboolean all)
{
  if (s->len && (all || s->len >= 65536))
    {
      write (s->str, data);
      g_string_truncate (s, 0);
    }
}

/**
 * ovi_diff_result_write_json:
 * @write: called with each piece of the text, whole lines, in order
 *
 * The text of ovi_json_to_text (ovi_diff_result_to_json (@result)), byte
 * for byte, written an operator at a time: the tree of every operator at
 * once cost 20 KB an operator (2.7 GB for 100,000), a tree of one costs
 * nothing that stays.
 */
void
ovi_diff_result_write_json (OviDiffResult *result, OviDiffWriteFunc write, gpointer data)
{
  GListModel *ops = ovi_diff_result_get_operators (result);
  guint n_ops = g_list_model_get_n_items (ops);
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  const char *at;

  /* No operator: "[ ]", as the generator writes an empty array. */
  root = build_json (result, n_ops > 0);
  text = ovi_json_to_text (root);
  at = n_ops ? strstr (text, OPERATORS_LINE) : NULL;
  if (at == NULL)
    {
      write (text, data);
      return;
    }
  /* Up to the array's "[\n", the operators, then from its "  ]". */
  g_string_append_len (out, text, at + strlen ("\n  \"operators\" : [\n") - text);
  for (guint i = 0; i < n_ops; i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonNode) node = NULL;
      g_autofree char *op_text = NULL;
      const char *line;

      add_operator (b, op);
      node = json_builder_get_root (b);
      op_text = ovi_json_to_text (node);
      /* Two levels down: each line four spaces further in. */
      for (line = op_text; *line;)
        {
          const char *eol = strchr (line, '\n');
          gsize len = eol ? (gsize) (eol - line) : strlen (line);

          g_string_append (out, "    ");
          g_string_append_len (out, line, len);
          line += len;
          if (*line == '\n')
            line++;
          if (*line)
            g_string_append_c (out, '\n');
        }
      g_string_append (out, i + 1 < n_ops ? ",\n" : "\n");
      flush_some (out, write, data, FALSE);
    }
  g_string_append (out, at + strlen (OPERATORS_LINE));
  flush_some (out, write, data, TRUE);
}

/* ---- CSV ---- */

/* Python's csv.writer: a field is quoted when it holds a comma, a quote
 * or a line end, quotes doubled. */
static void
csv_field (GString *s, const char *field, gboolean last)
{
  if (field && strpbrk (field, ",\"\r\n"))
    {
      g_string_append_c (s, '"');
      for (const char *p = field; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (s, '"');
          g_string_append_c (s, *p);
        }
      g_string_append_c (s, '"');
    }
  else if (field)
    g_string_append (s, field);
  g_string_append (s, last ? "\r\n" : ",");
}

/* The shape as the vendor prints it: "[8,16]". */
static char *
csv_shape (const char *shape)
{
  GString *s = g_string_new (NULL);

  for (const char *p = shape; p && *p; p++)
    if (*p != ' ')
      g_string_append_c (s, *p);
  return g_string_free (s, FALSE);
}

/* The cosine as the vendor prints it: "1.0" when both sides are all zero,
 * "NaN" when one side is. */
static char *
csv_cosine (const OviDiffMetrics *m)
{
  if (m->n && m->cosine_note && g_str_equal (m->cosine_note, "both sides are all zero"))
    return g_strdup ("1.0");
  if (m->n && isnan (m->cosine))
    return g_strdup ("NaN");
  return ovi_diff_format_value (m->cosine);
}

static char *
csv_reason (const OviDiffTensor *t)
{
  GString *s = g_string_new (NULL);

  if (t->reason)
    g_string_append (s, t->reason);
  if (t->statistics && t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE)
    {
      /* No values, no metrics: what was compared instead. */
      g_string_append_printf (s, "%sstatistics:", s->len ? " " : "");
      for (guint k = 0; k < OVI_DIFF_N_STATS; k++)
        {
          g_autofree char *mine = NULL, *golden = NULL;

          if (!(t->stats.compared & (1u << k)))
            continue;
          mine = number (t->stats.mine[k]);
          golden = number (t->stats.golden[k]);
          g_string_append_printf (s, " %s %s against %s (%s);", ovi_diff_stat_name (k), mine,
                                  golden, (t->stats.differs >> k) & 1 ? "differs" : "agrees");
        }
      if (t->nonfinite_mismatch)
        g_string_append_printf (s, " NaN/Inf counts not matching: %" G_GUINT64_FORMAT ";",
                                t->nonfinite_mismatch);
      s->str[s->len - 1] = s->str[s->len - 1] == ';' ? '\0' : s->str[s->len - 1];
      g_string_set_size (s, strlen (s->str));
    }
  else if (t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE)
    {
      if (t->metrics.cosine_note && t->metrics.n)
        g_string_append_printf (s, "%sCosineSimilarity: %s", s->len ? " " : "",
                                t->metrics.cosine_note);
      if (t->nonfinite_mismatch || t->metrics.n < t->count)
        g_string_append_printf (s,
                                "%s%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                " positions non-finite on a side (%" G_GUINT64_FORMAT
                                " not matching): metrics over the %" G_GUINT64_FORMAT
                                " finite on both",
                                s->len ? " " : "", t->count - t->metrics.n, t->count,
                                t->nonfinite_mismatch, t->metrics.n);
    }
  return g_string_free (s, FALSE);
}

/* Whether the operators ran on more than one device. */
static gboolean
several_devices (GListModel *ops)
{
  const char *device = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
      const char *d = ovi_diff_operator_get_device (op);

      if (d && device && !g_str_equal (d, device))
        return TRUE;
      device = d ? d : device;
    }
  return FALSE;
}

/* The name in its file-name form, as the vendor gives it; with several
 * devices, its device folder first ("1/net_Add"). */
static char *
csv_name (OviDiffOperator *op, const char *name, gboolean devices)
{
  g_autofree char *form = ovi_file_name_form (name);
  const char *device = ovi_diff_operator_get_device (op);

  return devices && device ? g_strdup_printf ("%s/%s", device, form) : g_steal_pointer (&form);
}

/**
 * ovi_diff_result_to_csv:
 *
 * msaccucmp's result CSV: its header and column order (DataType and
 * Address once per side, the Address of a .npy side left out), one row
 * per tensor (inputs, then outputs), six decimals, "\r\n" line ends. An
 * operator of one run only is one row with "*" for the other side. With
 * several devices, each name starts with its device folder.
 */
static gboolean build_csv (OviDiffResult *result, GString *s, OviAtomicFile *out, GError **error);

char *
ovi_diff_result_to_csv (OviDiffResult *result, gsize *length)
{
  GString *s = g_string_new (NULL);

  build_csv (result, s, NULL, NULL);
  if (length)
    *length = s->len;
  return g_string_free (s, FALSE);
}

/* The text into @s; with @out, written into it as it grows, a few rows at
 * a time, rather than all of it kept (#39). */
static gboolean
build_csv (OviDiffResult *result, GString *s, OviAtomicFile *out, GError **error)
{
  GListModel *ops = ovi_diff_result_get_operators (result);
  gboolean mine_address = !ovi_diff_result_get_is_npy (result, FALSE);
  gboolean golden_address = !ovi_diff_result_get_is_npy (result, TRUE);
  gboolean devices = several_devices (ops);
  static const char *const metric_names[] = {
    "CosineSimilarity",          "MaxAbsoluteError",          "AccumulatedRelativeError",
    "RelativeEuclideanDistance", "KullbackLeiblerDivergence", "StandardDeviation",
    "MeanAbsoluteError",         "RootMeanSquareError",       "MaxRelativeError",
    "MeanRelativeError",
  };

  csv_field (s, "Index", FALSE);
  csv_field (s, "OpType", FALSE);
  csv_field (s, "NPUDump", FALSE);
  csv_field (s, "DataType", FALSE);
  if (mine_address)
    csv_field (s, "Address", FALSE);
  csv_field (s, "GroundTruth", FALSE);
  csv_field (s, "DataType", FALSE);
  if (golden_address)
    csv_field (s, "Address", FALSE);
  csv_field (s, "TensorIndex", FALSE);
  csv_field (s, "Shape", FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (metric_names); i++)
    csv_field (s, metric_names[i], FALSE);
  csv_field (s, "CompareFailReason", TRUE);

  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = NULL;
      OviDiffOpClass c;

      if (out && s->len >= 65536)
        {
          if (!ovi_atomic_file_write (out, s->str, s->len, error))
            return FALSE;
          g_string_truncate (s, 0);
        }
      op = g_list_model_get_item (ops, i);
      c = ovi_diff_operator_get_op_class (op);
      g_autofree char *index = g_strdup_printf ("%u", ovi_diff_operator_get_position (op));
      g_autofree char *mine = csv_name (op, ovi_diff_operator_get_name (op), devices);
      g_autofree char *golden = ovi_diff_operator_get_golden_name (op)
                                    ? csv_name (op, ovi_diff_operator_get_golden_name (op), devices)
                                    : NULL;

      if (c == OVI_DIFF_OP_ONLY_MINE || c == OVI_DIFF_OP_ONLY_GOLDEN ||
          ovi_diff_operator_get_n_tensors (op) == 0)
        {
          g_autofree char *reason =
              c == OVI_DIFF_OP_ONLY_MINE
                  ? g_strdup_printf ("[%s] the golden run has no operator \"%s\"", mine, mine)
              : c == OVI_DIFF_OP_ONLY_GOLDEN
                  ? g_strdup_printf ("[%s] my run has no operator \"%s\"", mine, mine)
                  : g_strdup_printf ("[%s] %s", mine, ovi_diff_operator_get_reason (op));

          csv_field (s, index, FALSE);
          csv_field (s, "NaN", FALSE);
          csv_field (s, c == OVI_DIFF_OP_ONLY_GOLDEN ? "*" : mine, FALSE);
          csv_field (s, "NaN", FALSE);
          if (mine_address)
            csv_field (s, "NaN", FALSE);
          csv_field (s,
                     c == OVI_DIFF_OP_ONLY_GOLDEN ? mine
                     : c == OVI_DIFF_OP_ONLY_MINE ? "*"
                                                  : golden,
                     FALSE);
          csv_field (s, "NaN", FALSE);
          if (golden_address)
            csv_field (s, "NaN", FALSE);
          csv_field (s, "NaN", FALSE);
          csv_field (s, "NaN", FALSE);
          for (guint k = 0; k < G_N_ELEMENTS (metric_names); k++)
            csv_field (s, "NaN", FALSE);
          csv_field (s, reason, TRUE);
          continue;
        }
      for (guint k = 0; k < ovi_diff_operator_get_n_tensors (op); k++)
        {
          const OviDiffTensor *t = ovi_diff_operator_get_tensor (op, k);
          const OviDiffMetrics *m = &t->metrics;
          gboolean values = t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE && !t->statistics;
          g_autofree char *tensor_index = g_strdup_printf (
              "%s:%s:%u", mine, t->kind == OVI_TENSOR_INPUT ? "input" : "output", t->index);
          g_autofree char *shape = csv_shape (t->mine_shape ? t->mine_shape : t->golden_shape);
          g_autofree char *reason = csv_reason (t);
          char *v[10] = { 0 };

          csv_field (s, index, FALSE);
          csv_field (
              s, ovi_diff_operator_get_op_type (op) ? ovi_diff_operator_get_op_type (op) : "NaN",
              FALSE);
          csv_field (s, mine, FALSE);
          csv_field (s, t->mine_shape ? ovi_dtype_name (t->mine_dtype) : "NaN", FALSE);
          if (mine_address)
            csv_field (s, "NaN", FALSE);
          csv_field (s, golden, FALSE);
          csv_field (s, t->golden_shape ? ovi_dtype_name (t->golden_dtype) : "NaN", FALSE);
          if (golden_address)
            csv_field (s, "NaN", FALSE);
          csv_field (s, tensor_index, FALSE);
          csv_field (s, *shape ? shape : "NaN", FALSE);
          if (values)
            {
              v[0] = csv_cosine (m);
              v[1] = ovi_diff_format_value (m->max_absolute_error);
              v[2] = ovi_diff_format_value (m->accumulated_relative_error);
              v[3] = ovi_diff_format_value (m->relative_euclidean_distance);
              v[4] = ovi_diff_format_value (m->kl_divergence);
              v[5] = ovi_diff_format_standard_deviation (m);
              v[6] = ovi_diff_format_value (m->mean_absolute_error);
              v[7] = ovi_diff_format_value (m->root_mean_square_error);
              v[8] = ovi_diff_format_value (m->max_relative_error);
              v[9] = ovi_diff_format_value (m->mean_relative_error);
            }
          for (guint n = 0; n < 10; n++)
            {
              csv_field (s, v[n] ? v[n] : "NaN", FALSE);
              g_free (v[n]);
            }
          csv_field (s, reason, TRUE);
        }
    }
  return TRUE;
}

/* Written whole or not at all (OviAtomicFile). */
gboolean
ovi_diff_result_write_csv (OviDiffResult *result,
                           const char *path,
                           gboolean overwrite,
                           GError **error)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (OviAtomicFile) out = ovi_atomic_file_new (path, overwrite, error);

  return out && build_csv (result, s, out, error) &&
         ovi_atomic_file_write (out, s->str, s->len, error) && ovi_atomic_file_commit (out, error);
}
