/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-stats.h"

/**
 * ovi_stats_is_abnormal:
 * Returns: whether a tensor holds NaN, an infinity or a saturated value
 */
gboolean
ovi_stats_is_abnormal (const OviStats *stats)
{
  return stats->nan + stats->pos_inf + stats->neg_inf + stats->saturated > 0;
}
