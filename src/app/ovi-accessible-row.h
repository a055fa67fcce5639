/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define OVI_TYPE_ACCESSIBLE_ROW (ovi_accessible_row_get_type ())
G_DECLARE_FINAL_TYPE (OviAccessibleRow, ovi_accessible_row, OVI, ACCESSIBLE_ROW, GtkWidget)

GtkWidget *ovi_accessible_row_new (void);
const char *ovi_accessible_row_get_label (OviAccessibleRow *self);
void ovi_accessible_row_set_label (OviAccessibleRow *self, const char *label);
GtkWidget *ovi_accessible_row_get_child (OviAccessibleRow *self);
void ovi_accessible_row_set_child (OviAccessibleRow *self, GtkWidget *child);

G_END_DECLS
