/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean ovi_columns_fit_titles (GtkColumnView *view);
GtkWidget *ovi_columns_get_list (GtkColumnView *view);
gboolean ovi_columns_focus_selected_row (GtkColumnView *view);
void ovi_columns_focus_selected_row_soon (GtkColumnView *view, gboolean by_adjustment);
void ovi_columns_cancel_focus_soon (GtkColumnView *view);
int ovi_columns_width (GtkColumnView *view);
int ovi_columns_title_width (GtkColumnView *view, GtkColumnViewColumn *column);
int ovi_columns_laid_out_width (GtkColumnView *view, GtkColumnViewColumn *column);
int ovi_columns_cell_padding (GtkColumnView *view);
guint ovi_columns_hide_to_fit (GtkColumnView *view,
                               GtkColumnViewColumn *const *optional,
                               guint n_optional,
                               int width);

G_END_DECLS
