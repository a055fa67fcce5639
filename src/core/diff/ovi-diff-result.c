/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-diff-enums.h"
#include "ovi-diff-private.h"
#include "ovi-problem.h"

/* OviDiffResult: what a diff found, for every output (text, JSON, CSV, the
 * Diff page). */

enum
{
  RES_PROP_0,
  RES_PROP_OPERATORS,
  RES_PROP_PROBLEMS,
  RES_PROP_FIRST_DIVERGENCE,
  RES_PROP_AGREE,
  RES_PROP_VERDICT,
  RES_N_PROPS
};

static GParamSpec *res_props[RES_N_PROPS];

G_DEFINE_FINAL_TYPE (OviDiffResult, ovi_diff_result, G_TYPE_OBJECT)

static void
clear_folder_pair (OviDiffFolderPair *p)
{
  g_free (p->mine);
  g_free (p->golden);
  g_free (p->label);
}

static void
ovi_diff_result_finalize (GObject *object)
{
  OviDiffResult *self = OVI_DIFF_RESULT (object);

  g_free (self->mine_path);
  g_free (self->golden_path);
  g_object_unref (self->operators);
  g_object_unref (self->problems);
  g_array_unref (self->pairs);
  g_ptr_array_unref (self->warnings);
  g_clear_object (&self->first);
  G_OBJECT_CLASS (ovi_diff_result_parent_class)->finalize (object);
}

static void
ovi_diff_result_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  OviDiffResult *self = OVI_DIFF_RESULT (object);

  switch (id)
    {
    case RES_PROP_OPERATORS:
      g_value_set_object (value, self->operators);
      break;
    case RES_PROP_PROBLEMS:
      g_value_set_object (value, self->problems);
      break;
    case RES_PROP_FIRST_DIVERGENCE:
      g_value_set_object (value, self->first);
      break;
    case RES_PROP_AGREE:
      g_value_set_boolean (value, ovi_diff_result_get_agree (self));
      break;
    case RES_PROP_VERDICT:
      g_value_set_enum (value, ovi_diff_result_get_verdict (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
ovi_diff_result_class_init (OviDiffResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_diff_result_finalize;
  object_class->get_property = ovi_diff_result_get_property;
  res_props[RES_PROP_OPERATORS] =
      g_param_spec_object ("operators", NULL, NULL, G_TYPE_LIST_MODEL, flags);
  res_props[RES_PROP_PROBLEMS] =
      g_param_spec_object ("problems", NULL, NULL, G_TYPE_LIST_MODEL, flags);
  res_props[RES_PROP_FIRST_DIVERGENCE] =
      g_param_spec_object ("first-divergence", NULL, NULL, OVI_TYPE_DIFF_OPERATOR, flags);
  res_props[RES_PROP_AGREE] = g_param_spec_boolean ("agree", NULL, NULL, FALSE, flags);
  res_props[RES_PROP_VERDICT] = g_param_spec_enum ("verdict", NULL, NULL, OVI_TYPE_DIFF_VERDICT,
                                                   OVI_DIFF_VERDICT_AGREE, flags);
  g_object_class_install_properties (object_class, RES_N_PROPS, res_props);
}

static void
ovi_diff_result_init (OviDiffResult *self)
{
  self->operators = g_list_store_new (OVI_TYPE_DIFF_OPERATOR);
  self->problems = g_list_store_new (OVI_TYPE_PROBLEM);
  self->pairs = g_array_new (FALSE, TRUE, sizeof (OviDiffFolderPair));
  g_array_set_clear_func (self->pairs, (GDestroyNotify) clear_folder_pair);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->first_tensor = G_MAXUINT;
  self->first_input = G_MAXUINT;
}

/* OviDiffOperator, in run order. */
GListModel *
ovi_diff_result_get_operators (OviDiffResult *self)
{
  return G_LIST_MODEL (self->operators);
}

/* The earliest origin, or NULL when no operator is one. */
OviDiffOperator *
ovi_diff_result_get_first_divergence (OviDiffResult *self)
{
  return self->first;
}

/* The first output of the first divergence that is out of tolerance. */
const OviDiffTensor *
ovi_diff_result_get_first_divergence_tensor (OviDiffResult *self)
{
  return self->first && self->first_tensor != G_MAXUINT
             ? ovi_diff_operator_get_tensor (self->first, self->first_tensor)
             : NULL;
}

/* OviProblem: the files of either run that could not be read. */
GListModel *
ovi_diff_result_get_problems (OviDiffResult *self)
{
  return G_LIST_MODEL (self->problems);
}

const OviDiffFolderPair *
ovi_diff_result_get_folder_pairs (OviDiffResult *self, guint *n_pairs)
{
  *n_pairs = self->pairs->len;
  return (const OviDiffFolderPair *) (gconstpointer) self->pairs->data;
}

guint
ovi_diff_result_count_class (OviDiffResult *self, OviDiffOpClass op_class)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->operators)); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (G_LIST_MODEL (self->operators), i);
      n += op->op_class == op_class;
    }
  return n;
}

/* Whether the runs agree: every operator identical or within tolerance,
 * none in one run only, none not comparable, no problem. */
gboolean
ovi_diff_result_get_agree (OviDiffResult *self)
{
  return ovi_diff_result_get_verdict (self) == OVI_DIFF_VERDICT_AGREE;
}

/**
 * ovi_diff_result_get_verdict:
 *
 * Incomplete when a file could not be read, whatever else was found (what
 * it held is unknown); else divergent when an operator differs or is in
 * one run only; else incomplete when an operator could not be compared
 * (or there was none); else agree. The command line's exit status.
 */
OviDiffVerdict
ovi_diff_result_get_verdict (OviDiffResult *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->operators));
  guint agree = ovi_diff_result_count_class (self, OVI_DIFF_OP_IDENTICAL) +
                ovi_diff_result_count_class (self, OVI_DIFF_OP_WITHIN_TOLERANCE);
  guint not_comparable = ovi_diff_result_count_class (self, OVI_DIFF_OP_NOT_COMPARABLE);

  if (g_list_model_get_n_items (G_LIST_MODEL (self->problems)) > 0)
    return OVI_DIFF_VERDICT_INCOMPLETE;
  if (agree + not_comparable < n)
    return OVI_DIFF_VERDICT_DIVERGE;
  return n == 0 || not_comparable ? OVI_DIFF_VERDICT_INCOMPLETE : OVI_DIFF_VERDICT_AGREE;
}

/**
 * ovi_diff_result_get_warnings:
 *
 * Returns: (transfer none) (element-type utf8): what did not stop the
 *   comparison but may mislead: names of the map that matched nothing,
 *   each with its file and line
 */
GPtrArray *
ovi_diff_result_get_warnings (OviDiffResult *self)
{
  return self->warnings;
}

/* How the runs start to differ at the first divergence. */
OviDiffDivergenceForm
ovi_diff_result_get_first_divergence_form (OviDiffResult *self)
{
  return self->form;
}

/* The input the difference entered through (OVI_DIFF_DIVERGENCE_ENTERED),
 * else G_MAXUINT. */
guint
ovi_diff_result_get_first_divergence_input (OviDiffResult *self)
{
  return self->first_input;
}

/**
 * ovi_diff_result_get_along_edges:
 *
 * Whether the first divergence and what each operator follows from were
 * found along my run's dataflow graph (tensor addresses, or a graph JSON
 * beside the dumps); else in run order.
 */
gboolean
ovi_diff_result_get_along_edges (OviDiffResult *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_RESULT (self), FALSE);
  return self->along_edges;
}

/* "#1 Add net/Add on device 0" */
static char *
operator_text (OviDiffOperator *op)
{
  const char *type = ovi_diff_operator_get_op_type (op);
  const char *device = ovi_diff_operator_get_device (op);

  if (device)
    /* Translators: position, op type, op name, device */
    return g_strdup_printf (_ ("#%u %s %s on device %s"), op->position, type ? type : "", op->name,
                            device);
  return g_strdup_printf ("#%u %s %s", op->position, type ? type : "", op->name);
}

static char *
divergence_text (OviDiffResult *self)
{
  const OviDiffTensor *t = ovi_diff_result_get_first_divergence_tensor (self);
  g_autofree char *op = operator_text (self->first);
  guint index = t ? t->index : 0;

  switch (self->form)
    {
    case OVI_DIFF_DIVERGENCE_ENTERED:
      if (self->first->through && self->first->through_kind == OVI_GRAPH_NODE_INPUT)
        return g_strdup_printf (
            _ ("First divergence: %s: entered through graph input “%s” (its input %u), which no "
               "upstream operator produced; the difference came from outside this dump (the "
               "input data)."),
            op, self->first->through, self->first_input);
      if (self->first->through)
        return g_strdup_printf (
            _ ("First divergence: %s: entered through input %u, read from “%s”, which no dumped "
               "operator upstream produced; the difference came from outside this dump (a "
               "weight, a constant or the input data)."),
            op, self->first_input, self->first->through);
      return g_strdup_printf (
          _ ("First divergence: %s: entered through input %u, which already differs while no "
             "operator dumped before it produced a differing output; it came from outside this "
             "dump (the input data, a weight, or an operator that was not dumped)."),
          op, self->first_input);
    case OVI_DIFF_DIVERGENCE_INPUTS_NOT_COMPARED:
      return g_strdup_printf (_ ("First divergence: %s: output %u differs; its inputs were not "
                                 "compared (the golden run kept outputs only)."),
                              op, index);
    case OVI_DIFF_DIVERGENCE_ORIGIN:
    case OVI_DIFF_DIVERGENCE_NONE:
    default:
      return g_strdup_printf (
          _ ("First divergence: %s, the origin: its inputs agree and output %u differs."), op,
          index);
    }
}

/**
 * ovi_diff_result_dup_headline:
 *
 * What the diff found, in one translated sentence (two when files failed):
 * the first divergence in its form, or why there is none. The text, the
 * JSON and the Diff page start with it.
 *
 * Returns: (transfer full)
 */
char *
ovi_diff_result_dup_headline (OviDiffResult *self)
{
  guint n_problems = g_list_model_get_n_items (G_LIST_MODEL (self->problems));
  guint one_side = ovi_diff_result_count_class (self, OVI_DIFF_OP_ONLY_MINE) +
                   ovi_diff_result_count_class (self, OVI_DIFF_OP_ONLY_GOLDEN);
  guint not_comparable = ovi_diff_result_count_class (self, OVI_DIFF_OP_NOT_COMPARABLE);
  g_autofree char *main = NULL;

  guint differ = ovi_diff_result_count_class (self, OVI_DIFF_OP_ORIGIN) +
                 ovi_diff_result_count_class (self, OVI_DIFF_OP_PROPAGATED) +
                 ovi_diff_result_count_class (self, OVI_DIFF_OP_ABSORBED) +
                 ovi_diff_result_count_class (self, OVI_DIFF_OP_OUTPUT_DIFFERS);

  if (self->first)
    main = divergence_text (self);
  else if (ovi_diff_result_get_verdict (self) == OVI_DIFF_VERDICT_AGREE)
    main = self->same_path
               ? g_strdup_printf (_ ("No divergence: both sides are the same path, %s, so every "
                                     "operator agrees."),
                                  self->mine_path)
               : g_strdup (_ ("No divergence: every operator agrees within tolerance."));
  else if (differ)
    main = g_strdup (_ ("No first divergence can be named: the first operators that differ take a "
                        "differing input from an operator before them that could not be "
                        "compared."));
  else if (one_side)
    main = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "No operator differs in its values, but %u operator is in "
                                         "one run only.",
                                         "No operator differs in its values, but %u operators are "
                                         "in one run only.",
                                         one_side),
                            one_side);
  else if (not_comparable)
    main = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "No operator differs, but %u operator could not be "
                                         "compared: the comparison is incomplete.",
                                         "No operator differs, but %u operators could not be "
                                         "compared: the comparison is incomplete.",
                                         not_comparable),
                            not_comparable);
  else
    main = g_strdup (_ ("No operator differs among those read."));
  if (n_problems == 0)
    return g_steal_pointer (&main);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s %u file could not be read (see the problems), so the "
                                       "comparison is incomplete.",
                                       "%s %u files could not be read (see the problems), so the "
                                       "comparison is incomplete.",
                                       n_problems),
                          main, n_problems);
}

const char *
ovi_diff_result_get_mine_path (OviDiffResult *self)
{
  return self->mine_path;
}

const char *
ovi_diff_result_get_golden_path (OviDiffResult *self)
{
  return self->golden_path;
}

/* Whether my run (or the golden one) is a folder of .npy files. */
gboolean
ovi_diff_result_get_is_npy (OviDiffResult *self, gboolean golden)
{
  return golden ? self->golden_npy : self->mine_npy;
}
