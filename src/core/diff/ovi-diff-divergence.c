/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-diff-private.h"

/* The first-divergence rule, in one place: which of the classified
 * operators is where the runs start to differ. */

static gboolean
differs (const OviDiffTensor *t)
{
  return t->tensor_class == OVI_DIFF_TENSOR_DIFFERS;
}

/* The first tensor of @kind that differs, or G_MAXUINT. */
static guint
first_differing (OviDiffOperator *op, OviTensorKind kind, guint from)
{
  for (guint k = from; k < op->tensors->len; k++)
    {
      const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
      if (t->kind == kind && differs (t))
        return k;
    }
  return G_MAXUINT;
}

/* Whether an operator that produced input @input of operator @i gave a
 * differing output: by @producers where it knows, else by run order (an
 * earlier operator of the same folder pair, @pair_differs). */
static gboolean
upstream_differs (GPtrArray *ops,
                  guint i,
                  guint input,
                  OviDiffProducersFunc producers,
                  gpointer user_data,
                  gboolean pair_differs)
{
  g_autoptr (GArray) list = NULL;

  if (producers == NULL)
    return pair_differs;
  list = g_array_new (FALSE, FALSE, sizeof (guint));
  if (!producers (ops, i, input, list, user_data))
    return pair_differs;
  for (guint n = 0; n < list->len; n++)
    {
      OviDiffOperator *p = g_ptr_array_index (ops, g_array_index (list, guint, n));
      if (first_differing (p, OVI_TENSOR_OUTPUT, 0) != G_MAXUINT)
        return TRUE;
    }
  return FALSE;
}

/**
 * ovi_diff_find_first_divergence:
 * @ops: (element-type OviDiffOperator): the classified operators, in the
 *   result's order (folder pair by folder pair, run order within one)
 * @producers: (nullable): which operators produced an input of another
 *   (the dataflow graph); NULL: run order, every earlier operator of the
 *   same folder pair
 * @out: (out caller-allocates): the first divergence; its op NULL when
 *   there is none
 *
 * An operator is where a difference starts in one of three forms:
 * - an origin: its inputs agree and an output does not;
 * - entered through input k: that input differs while no operator that
 *   produced it (run order: no earlier operator) gave a differing output,
 *   so the difference came from outside the dump;
 * - inputs not compared (a golden of outputs only): an output differs and
 *   no operator before it gave a differing output.
 * The first divergence is the earliest such operator in time, across
 * folder pairs (devices) by timestamp.
 */
void
ovi_diff_find_first_divergence (GPtrArray *ops,
                                OviDiffProducersFunc producers,
                                gpointer user_data,
                                OviDiffDivergence *out)
{
  const char *pair = NULL;
  gboolean pair_differs = FALSE;

  *out = (OviDiffDivergence){ NULL, OVI_DIFF_DIVERGENCE_NONE, G_MAXUINT, G_MAXUINT };
  for (guint i = 0; i < ops->len; i++)
    {
      OviDiffOperator *op = g_ptr_array_index (ops, i);
      OviDiffDivergence here = { op, OVI_DIFF_DIVERGENCE_NONE, G_MAXUINT, G_MAXUINT };

      if (pair == NULL || g_strcmp0 (op->pair, pair) != 0)
        {
          pair = op->pair;
          pair_differs = FALSE;
        }
      switch (op->op_class)
        {
        case OVI_DIFF_OP_ORIGIN:
          here.form = OVI_DIFF_DIVERGENCE_ORIGIN;
          here.tensor = first_differing (op, OVI_TENSOR_OUTPUT, 0);
          break;
        case OVI_DIFF_OP_OUTPUT_DIFFERS:
          if (!upstream_differs (ops, i, G_MAXUINT, producers, user_data, pair_differs))
            {
              here.form = OVI_DIFF_DIVERGENCE_INPUTS_NOT_COMPARED;
              here.tensor = first_differing (op, OVI_TENSOR_OUTPUT, 0);
            }
          break;
        case OVI_DIFF_OP_PROPAGATED:
        case OVI_DIFF_OP_ABSORBED:
          for (guint k = first_differing (op, OVI_TENSOR_INPUT, 0); k != G_MAXUINT;
               k = first_differing (op, OVI_TENSOR_INPUT, k + 1))
            {
              const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
              if (!upstream_differs (ops, i, t->index, producers, user_data, pair_differs))
                {
                  here.form = OVI_DIFF_DIVERGENCE_ENTERED;
                  here.tensor = k;
                  here.input = t->index;
                  break;
                }
            }
          break;
        default:
          break;
        }
      if (here.form != OVI_DIFF_DIVERGENCE_NONE && (out->op == NULL || op->order < out->op->order))
        *out = here;
      pair_differs |= first_differing (op, OVI_TENSOR_OUTPUT, 0) != G_MAXUINT;
    }
}
