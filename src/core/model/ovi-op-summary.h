/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-blame.h"

G_BEGIN_DECLS

/* An operator at a glance: its class, and over all its input and output
 * tensors the largest magnitude and the counts of abnormal values
 * (analysis/ovi-classifier.c makes it). */
typedef struct
{
  OviBlame blame;
  double max_abs; /* NaN when no value is finite */
  guint64 nan;
  guint64 inf;
  guint64 saturated;
} OviOpSummary;

gboolean ovi_op_summary_is_abnormal (const OviOpSummary *summary);

G_END_DECLS
