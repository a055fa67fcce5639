/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Statistics of one tensor. min, max, mean and std are over finite values
 * (complex values count by magnitude) and are NaN when there are none. */
typedef struct
{
  guint64 count;
  guint64 finite;
  double min;
  double max;
  double mean;
  double std;
  double max_abs;
  guint64 nan;
  guint64 pos_inf;
  guint64 neg_inf;
  guint64 zeros;
  guint64 saturated;      /* |x| equal to the type's largest finite value */
  gint64 first_nonfinite; /* flat index, -1 when all values are finite */
  gint64 first_nan;
  gint64 first_pos_inf;
  gint64 first_neg_inf;
  gint64 first_saturated;
} OviStats;

gboolean ovi_stats_is_abnormal (const OviStats *stats);

G_END_DECLS
