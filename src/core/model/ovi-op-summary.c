/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-op-summary.h"

/**
 * ovi_op_summary_is_abnormal:
 * Returns: whether any input or output holds NaN, an infinity or a
 *   saturated value
 */
gboolean
ovi_op_summary_is_abnormal (const OviOpSummary *summary)
{
  return summary->nan + summary->inf + summary->saturated > 0;
}
