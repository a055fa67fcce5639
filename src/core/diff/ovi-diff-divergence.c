/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-diff-private.h"

/* The first-divergence rule, in one place: which operator of the
 * classified ones is where the runs start to differ. */

/**
 * ovi_diff_find_first_divergence:
 * @ops: (element-type OviDiffOperator): the classified operators, in the
 *   result's order (folder pair by folder pair, run order within one)
 * @producers: (nullable): which operators produced an input of another;
 *   NULL: run order (every earlier operator of the same folder pair)
 * @out: (out caller-allocates): the first divergence; its op NULL when
 *   there is none
 *
 * The earliest origin: its inputs agree and an output does not.
 */
void
ovi_diff_find_first_divergence (GPtrArray *ops,
                                OviDiffProducersFunc producers,
                                gpointer user_data,
                                OviDiffDivergence *out)
{
  *out = (OviDiffDivergence){ NULL, G_MAXUINT };
  for (guint i = 0; i < ops->len; i++)
    {
      OviDiffOperator *op = g_ptr_array_index (ops, i);

      if (op->op_class != OVI_DIFF_OP_ORIGIN)
        continue;
      out->op = op;
      out->form = OVI_DIFF_DIVERGENCE_ORIGIN;
      for (guint k = 0; k < op->tensors->len; k++)
        {
          const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
          if (t->kind == OVI_TENSOR_OUTPUT && !ovi_diff_tensor_agrees (t))
            {
              out->tensor = k;
              break;
            }
        }
      return;
    }
}
