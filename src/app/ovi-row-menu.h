/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Builds the context menu of the selected row of a table: the actions
 * (and their targets) for that row. Returns %NULL when there is none. */
typedef GMenuModel *(*OviRowMenuBuild) (gpointer user_data);

void ovi_row_menu_attach (GtkColumnView *view, OviRowMenuBuild build, gpointer user_data);
gboolean ovi_row_menu_popup (GtkColumnView *view);
GtkPopover *ovi_row_menu_get_popover (GtkColumnView *view);

G_END_DECLS
