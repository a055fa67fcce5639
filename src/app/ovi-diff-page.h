/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-diff-pair-view.h"
#include "ovi-page.h"

G_BEGIN_DECLS

/* The diff of the run shown against a golden run (the session's `diff`):
 * the first divergence named at the top, the folder pairs and problems,
 * the operators in run order with their class and metrics, and the pair
 * view of the selected one. */
#define OVI_TYPE_DIFF_PAGE (ovi_diff_page_get_type ())
G_DECLARE_FINAL_TYPE (OviDiffPage, ovi_diff_page, OVI, DIFF_PAGE, OviPage)

GtkColumnView *ovi_diff_page_get_column_view (OviDiffPage *self);
OviDiffPairView *ovi_diff_page_get_pair_view (OviDiffPage *self);
const char *ovi_diff_page_get_first_divergence_text (OviDiffPage *self);
void ovi_diff_page_focus_search (OviDiffPage *self);
gboolean ovi_diff_page_export (OviDiffPage *self, gboolean csv, const char *path, GError **error);

G_END_DECLS
