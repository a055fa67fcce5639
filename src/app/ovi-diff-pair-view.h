/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-diff-pair.h"

G_BEGIN_DECLS

/* One compared operator of the Diff page: for the tensor pair chosen, both
 * sides' statistics, their histograms overlaid, a histogram of the
 * differences, a strip of where along the tensor they differ and the
 * largest differences with their logical coordinates. "Show" opens either
 * side's tensor (win.show-tensor, win.show-golden-tensor). */
#define OVI_TYPE_DIFF_PAIR_VIEW (ovi_diff_pair_view_get_type ())
G_DECLARE_FINAL_TYPE (OviDiffPairView, ovi_diff_pair_view, OVI, DIFF_PAIR_VIEW, GtkWidget)

OviDiffOperator *ovi_diff_pair_view_get_operator (OviDiffPairView *self);
void ovi_diff_pair_view_set_operator (OviDiffPairView *self, OviDiffOperator *op);
guint ovi_diff_pair_view_get_tensor (OviDiffPairView *self);
void ovi_diff_pair_view_set_tensor (OviDiffPairView *self, guint tensor);
const OviDiffPair *ovi_diff_pair_view_get_pair (OviDiffPairView *self);
char *ovi_diff_pair_view_dup_top_text (OviDiffPairView *self, guint rank);
char *ovi_diff_format_position (const char *shape, guint64 index);

G_END_DECLS
