/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Which operator to blame: an operator whose outputs hold NaN, Inf or
 * saturated values while its inputs are clean produced the overflow. The
 * rules that decide it are analysis/ovi-classifier.c's. */
typedef enum
{
  OVI_BLAME_UNKNOWN,    /* not analysed, or its data could not be read */
  OVI_BLAME_NORMAL,     /* inputs and outputs clean */
  OVI_BLAME_ORIGIN,     /* inputs clean, outputs abnormal */
  OVI_BLAME_PROPAGATED, /* inputs abnormal, outputs abnormal */
  OVI_BLAME_ABSORBED,   /* inputs abnormal, outputs clean */
} OviBlame;

const char *ovi_blame_name (OviBlame blame);
const char *ovi_blame_label (OviBlame blame);
const char *ovi_blame_describe (OviBlame blame);
guint ovi_blame_rank (OviBlame blame);

G_END_DECLS
