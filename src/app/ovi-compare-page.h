/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"
#include "ovi-histogram-view.h"
#include "ovi-page.h"
#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_COMPARE_PAGE (ovi_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (OviComparePage, ovi_compare_page, OVI, COMPARE_PAGE, OviPage)

GtkWidget *ovi_compare_page_new (void);
gboolean ovi_compare_page_select_op (OviComparePage *self, const char *op_name);
const char *ovi_compare_page_get_op (OviComparePage *self);
gboolean ovi_compare_page_set_range (OviComparePage *self, const char *from, const char *to);
gboolean ovi_compare_page_get_busy (OviComparePage *self);
guint ovi_compare_page_get_n_iterations (OviComparePage *self);
OviHistogramView *ovi_compare_page_get_histogram (OviComparePage *self);
void ovi_compare_page_bind_settings (OviComparePage *self, GSettings *settings);

G_END_DECLS
