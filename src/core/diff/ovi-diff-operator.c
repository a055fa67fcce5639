/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-diff-enums.h"
#include "ovi-diff-private.h"

/* OviDiffOperator: one operator of both runs, its tensor pairs and its
 * class (ovi_diff_operator_classify()). */

enum
{
  OP_PROP_0,
  OP_PROP_POSITION,
  OP_PROP_NAME,
  OP_PROP_GOLDEN_NAME,
  OP_PROP_OP_TYPE,
  OP_PROP_OP_CLASS,
  OP_PROP_REASON,
  OP_PROP_COSINE,
  OP_PROP_MAX_ABS_ERROR,
  OP_PROP_MINE_OVERFLOWS,
  OP_PROP_GOLDEN_OVERFLOWS,
  OP_PROP_DEVICE,
  OP_PROP_IS_FIRST_DIVERGENCE,
  OP_PROP_CLASS_LABEL,
  OP_N_PROPS
};

static GParamSpec *op_props[OP_N_PROPS];

G_DEFINE_FINAL_TYPE (OviDiffOperator, ovi_diff_operator, G_TYPE_OBJECT)

static void
ovi_diff_operator_finalize (GObject *object)
{
  OviDiffOperator *self = OVI_DIFF_OPERATOR (object);

  g_free (self->name);
  g_free (self->golden_name);
  g_free (self->op_type);
  g_free (self->mine_path);
  g_free (self->golden_path);
  g_free (self->pair);
  g_free (self->reason);
  g_free (self->device);
  g_free (self->through);
  g_clear_pointer (&self->follows, g_ptr_array_unref);
  for (guint i = 0; i < self->tensors->len; i++)
    ovi_diff_tensor_clear (&g_array_index (self->tensors, OviDiffTensor, i));
  g_array_unref (self->tensors);
  g_ptr_array_unref (self->sources);
  G_OBJECT_CLASS (ovi_diff_operator_parent_class)->finalize (object);
}

static void
ovi_diff_operator_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  OviDiffOperator *self = OVI_DIFF_OPERATOR (object);

  switch (id)
    {
    case OP_PROP_POSITION:
      g_value_set_uint (value, self->position);
      break;
    case OP_PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case OP_PROP_GOLDEN_NAME:
      g_value_set_string (value, self->golden_name);
      break;
    case OP_PROP_OP_TYPE:
      g_value_set_string (value, self->op_type);
      break;
    case OP_PROP_OP_CLASS:
      g_value_set_enum (value, self->op_class);
      break;
    case OP_PROP_REASON:
      g_value_set_string (value, self->reason);
      break;
    case OP_PROP_COSINE:
      g_value_set_double (value, ovi_diff_operator_get_cosine (self));
      break;
    case OP_PROP_MAX_ABS_ERROR:
      g_value_set_double (value, ovi_diff_operator_get_max_abs_error (self));
      break;
    case OP_PROP_MINE_OVERFLOWS:
      g_value_set_uint (value, self->mine_overflows);
      break;
    case OP_PROP_GOLDEN_OVERFLOWS:
      g_value_set_uint (value, self->golden_overflows);
      break;
    case OP_PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case OP_PROP_IS_FIRST_DIVERGENCE:
      g_value_set_boolean (value, self->is_first);
      break;
    case OP_PROP_CLASS_LABEL:
      g_value_set_string (value, ovi_diff_operator_get_class_label (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
ovi_diff_operator_class_init (OviDiffOperatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_diff_operator_finalize;
  object_class->get_property = ovi_diff_operator_get_property;
  op_props[OP_PROP_POSITION] = g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0, flags);
  op_props[OP_PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  op_props[OP_PROP_GOLDEN_NAME] = g_param_spec_string ("golden-name", NULL, NULL, NULL, flags);
  op_props[OP_PROP_OP_TYPE] = g_param_spec_string ("op-type", NULL, NULL, NULL, flags);
  op_props[OP_PROP_OP_CLASS] = g_param_spec_enum ("op-class", NULL, NULL, OVI_TYPE_DIFF_OP_CLASS,
                                                  OVI_DIFF_OP_IDENTICAL, flags);
  op_props[OP_PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, flags);
  op_props[OP_PROP_COSINE] =
      g_param_spec_double ("cosine", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  op_props[OP_PROP_MAX_ABS_ERROR] =
      g_param_spec_double ("max-abs-error", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  op_props[OP_PROP_MINE_OVERFLOWS] =
      g_param_spec_uint ("mine-overflows", NULL, NULL, 0, G_MAXUINT, 0, flags);
  op_props[OP_PROP_GOLDEN_OVERFLOWS] =
      g_param_spec_uint ("golden-overflows", NULL, NULL, 0, G_MAXUINT, 0, flags);
  op_props[OP_PROP_DEVICE] = g_param_spec_string ("device", NULL, NULL, NULL, flags);
  op_props[OP_PROP_IS_FIRST_DIVERGENCE] =
      g_param_spec_boolean ("is-first-divergence", NULL, NULL, FALSE, flags);
  /* The class for people: "agrees (statistics)" where it was compared by
   * statistics (ovi_diff_operator_get_class_label()). */
  op_props[OP_PROP_CLASS_LABEL] = g_param_spec_string ("class-label", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, OP_N_PROPS, op_props);
}

static void
ovi_diff_operator_init (OviDiffOperator *self)
{
  self->tensors = g_array_new (FALSE, TRUE, sizeof (OviDiffTensor));
  self->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_diff_source_free);
  self->worst = G_MAXUINT;
  self->inputs_compared = TRUE;
}

/**
 * ovi_diff_operator_get_sources:
 * @mine: (out) (transfer none) (nullable)
 * @golden: (out) (transfer none) (nullable)
 *
 * What tensor pair @tensor was compared from, for reading it again.
 */
gboolean
ovi_diff_operator_get_sources (OviDiffOperator *self,
                               guint tensor,
                               OviDiffSource **mine,
                               OviDiffSource **golden)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), FALSE);

  /* None kept: ovi_diff_set_keep_sources(). */
  if (tensor >= self->tensors->len || 2 * tensor + 1 >= self->sources->len)
    return FALSE;
  *mine = g_ptr_array_index (self->sources, 2 * tensor);
  *golden = g_ptr_array_index (self->sources, 2 * tensor + 1);
  return TRUE;
}

/* Run order over both runs, from 0. */
guint
ovi_diff_operator_get_position (OviDiffOperator *self)
{
  return self->position;
}

/* My op name, or the golden one for an operator of the golden run only. */
const char *
ovi_diff_operator_get_name (OviDiffOperator *self)
{
  return self->name;
}

const char *
ovi_diff_operator_get_golden_name (OviDiffOperator *self)
{
  return self->golden_name;
}

const char *
ovi_diff_operator_get_op_type (OviDiffOperator *self)
{
  return self->op_type;
}

const char *
ovi_diff_operator_get_mine_path (OviDiffOperator *self)
{
  return self->mine_path;
}

const char *
ovi_diff_operator_get_golden_path (OviDiffOperator *self)
{
  return self->golden_path;
}

/* The label of the folder pair the operator was found in. */
const char *
ovi_diff_operator_get_pair (OviDiffOperator *self)
{
  return self->pair;
}

OviDiffOpClass
ovi_diff_operator_get_op_class (OviDiffOperator *self)
{
  return self->op_class;
}

/* Why the operator is not comparable (translated), or NULL. */
const char *
ovi_diff_operator_get_reason (OviDiffOperator *self)
{
  return self->reason;
}

guint
ovi_diff_operator_get_n_tensors (OviDiffOperator *self)
{
  return self->tensors->len;
}

/* Inputs by index, then outputs by index. */
const OviDiffTensor *
ovi_diff_operator_get_tensor (OviDiffOperator *self, guint index)
{
  g_return_val_if_fail (index < self->tensors->len, NULL);
  return &g_array_index (self->tensors, OviDiffTensor, index);
}

/* The tensor that tells most about the operator: the output with the most
 * elements out of tolerance, else its first output. */
const OviDiffTensor *
ovi_diff_operator_get_worst_tensor (OviDiffOperator *self)
{
  return self->worst < self->tensors->len ? ovi_diff_operator_get_tensor (self, self->worst) : NULL;
}

double
ovi_diff_operator_get_cosine (OviDiffOperator *self)
{
  const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (self);
  return t && t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE ? t->metrics.cosine : NAN;
}

double
ovi_diff_operator_get_max_abs_error (OviDiffOperator *self)
{
  const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (self);
  return t && t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE ? t->metrics.max_absolute_error
                                                                : NAN;
}

guint
ovi_diff_operator_get_mine_overflows (OviDiffOperator *self)
{
  return self->mine_overflows;
}

guint
ovi_diff_operator_get_golden_overflows (OviDiffOperator *self)
{
  return self->golden_overflows;
}

/* The device folder the operator ran on ("0"), or NULL when the path
 * names none. */
const char *
ovi_diff_operator_get_device (OviDiffOperator *self)
{
  return self->device;
}

/* Whether this is the result's first divergence. */
gboolean
ovi_diff_operator_get_is_first_divergence (OviDiffOperator *self)
{
  return self->is_first;
}

/* Whether a tensor pair agrees: identical or within tolerance. */
gboolean
ovi_diff_tensor_agrees (const OviDiffTensor *t)
{
  return t->tensor_class == OVI_DIFF_TENSOR_IDENTICAL ||
         t->tensor_class == OVI_DIFF_TENSOR_WITHIN_TOLERANCE;
}

/* The operator's class from its tensor pairs (or its reason). */
void
ovi_diff_operator_classify (OviDiffOperator *op)
{
  gboolean inputs_agree = TRUE, outputs_agree = TRUE, identical = TRUE;
  double worst_fraction = -1;

  if (op->reason)
    {
      op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
      return;
    }
  if (op->tensors->len == 0)
    {
      op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
      op->reason = g_strdup (_ ("neither run dumped a tensor of this operator"));
      return;
    }
  for (guint i = 0; i < op->tensors->len; i++)
    {
      const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, i);
      const char *kind = t->kind == OVI_TENSOR_INPUT ? _ ("input") : _ ("output");

      if (t->tensor_class == OVI_DIFF_TENSOR_NOT_COMPARABLE)
        {
          op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
          op->reason = g_strdup_printf ("%s %u: %s", kind, t->index, t->reason);
          op->worst = i;
          return;
        }
      identical &= t->tensor_class == OVI_DIFF_TENSOR_IDENTICAL;
      if (t->kind == OVI_TENSOR_INPUT)
        inputs_agree &= ovi_diff_tensor_agrees (t);
      else
        {
          double fraction = t->count ? (double) t->out_of_tolerance / t->count : 0;
          outputs_agree &= ovi_diff_tensor_agrees (t);
          if (fraction > worst_fraction)
            {
              worst_fraction = fraction;
              op->worst = i;
            }
        }
    }
  if (op->worst == G_MAXUINT)
    {
      op->worst = 0;
      /* Only inputs: nothing tells whether the operator passes a
       * difference on or masks it. */
      if (!inputs_agree)
        {
          op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
          op->reason = g_strdup (_ ("the inputs differ and no output was dumped to tell what "
                                    "the operator made of them"));
          return;
        }
    }
  if (identical)
    op->op_class = OVI_DIFF_OP_IDENTICAL;
  else if (inputs_agree && outputs_agree)
    op->op_class = OVI_DIFF_OP_WITHIN_TOLERANCE;
  else if (inputs_agree && !op->inputs_compared)
    op->op_class = OVI_DIFF_OP_OUTPUT_DIFFERS;
  else if (inputs_agree)
    op->op_class = OVI_DIFF_OP_ORIGIN;
  else if (!outputs_agree)
    op->op_class = OVI_DIFF_OP_PROPAGATED;
  else
    op->op_class = OVI_DIFF_OP_ABSORBED;
}

/* The class as JSON and CSV write it. */
const char *
ovi_diff_op_class_name (OviDiffOpClass op_class)
{
  static const char *const names[] = {
    "identical", "within_tolerance", "origin",         "propagated",     "absorbed",
    "only_mine", "only_golden",      "not_comparable", "output_differs",
  };
  g_return_val_if_fail (op_class < G_N_ELEMENTS (names), "");
  return names[op_class];
}

/* The class for people, translated. */
const char *
ovi_diff_op_class_label (OviDiffOpClass op_class)
{
  switch (op_class)
    {
    case OVI_DIFF_OP_IDENTICAL:
      return _ ("identical");
    case OVI_DIFF_OP_WITHIN_TOLERANCE:
      return _ ("within tolerance");
    case OVI_DIFF_OP_ORIGIN:
      return _ ("origin");
    case OVI_DIFF_OP_PROPAGATED:
      return _ ("propagated");
    case OVI_DIFF_OP_ABSORBED:
      return _ ("absorbed");
    case OVI_DIFF_OP_ONLY_MINE:
      return _ ("only in my run");
    case OVI_DIFF_OP_ONLY_GOLDEN:
      return _ ("only in the golden run");
    case OVI_DIFF_OP_OUTPUT_DIFFERS:
      return _ ("output differs, inputs not compared");
    case OVI_DIFF_OP_NOT_COMPARABLE:
    default:
      return _ ("not comparable");
    }
}

const char *
ovi_diff_tensor_class_name (OviDiffTensorClass tensor_class)
{
  static const char *const names[] = { "identical", "within_tolerance", "differs",
                                       "not_comparable" };
  g_return_val_if_fail (tensor_class < G_N_ELEMENTS (names), "");
  return names[tensor_class];
}

/* The form as JSON writes it. */
const char *
ovi_diff_divergence_form_name (OviDiffDivergenceForm form)
{
  static const char *const names[] = { "none", "origin", "entered", "inputs_not_compared" };
  g_return_val_if_fail (form < G_N_ELEMENTS (names), "");
  return names[form];
}

/* Whether the operator was compared by statistics: a side is a
 * statistics-mode dump (OviDiffTensor.statistics). */
gboolean
ovi_diff_operator_get_statistics (OviDiffOperator *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), FALSE);

  for (guint i = 0; i < self->tensors->len; i++)
    if (g_array_index (self->tensors, OviDiffTensor, i).statistics)
      return TRUE;
  return FALSE;
}

/* The operator's class for people, translated: ovi_diff_op_class_label(),
 * or, compared by statistics, a label that says so ("agrees
 * (statistics)"). What the text, the window and the pair view show. */
const char *
ovi_diff_operator_get_class_label (OviDiffOperator *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), "");

  if (!ovi_diff_operator_get_statistics (self))
    return ovi_diff_op_class_label (self->op_class);
  switch (self->op_class)
    {
    case OVI_DIFF_OP_IDENTICAL:
    case OVI_DIFF_OP_WITHIN_TOLERANCE:
      return _ ("agrees (statistics)");
    case OVI_DIFF_OP_ORIGIN:
      return _ ("origin (statistics)");
    case OVI_DIFF_OP_PROPAGATED:
      return _ ("propagated (statistics)");
    case OVI_DIFF_OP_ABSORBED:
      return _ ("absorbed (statistics)");
    case OVI_DIFF_OP_OUTPUT_DIFFERS:
      return _ ("output differs (statistics)");
    default:
      return ovi_diff_op_class_label (self->op_class);
    }
}

/* The statistic as JSON writes it. */
const char *
ovi_diff_stat_name (OviDiffStat stat)
{
  static const char *const names[] = { "max", "min", "mean", "l2_norm" };
  g_return_val_if_fail (stat < G_N_ELEMENTS (names), "");
  return names[stat];
}
