/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"
#include "ovi-histogram-view.h"
#include "ovi-page.h"
#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_ITERATIONS_PAGE (ovi_iterations_page_get_type ())
G_DECLARE_FINAL_TYPE (OviIterationsPage, ovi_iterations_page, OVI, ITERATIONS_PAGE, OviPage)

GtkWidget *ovi_iterations_page_new (void);
gboolean ovi_iterations_page_select_op (OviIterationsPage *self, const char *op_name);
const char *ovi_iterations_page_get_op (OviIterationsPage *self);
gboolean ovi_iterations_page_set_range (OviIterationsPage *self, const char *from, const char *to);
gboolean ovi_iterations_page_get_busy (OviIterationsPage *self);
guint ovi_iterations_page_get_n_iterations (OviIterationsPage *self);
OviHistogramView *ovi_iterations_page_get_histogram (OviIterationsPage *self);
void ovi_iterations_page_bind_settings (OviIterationsPage *self, GSettings *settings);

G_END_DECLS
