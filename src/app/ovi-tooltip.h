/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A widget's tooltip text, given to GTK only when the pointer rests on the
 * widget. GTK 4.8 asks the display server where the pointer is each time
 * the tooltip of a shown widget is set (one X11 round trip), so table cells
 * bound to a tooltip, and detail panes that set dozens, wait for the server
 * on every row they fill. In a .ui file, beside the widget:
 *
 *   <object class="OviTooltip">
 *     <property name="widget">name_label</property>
 *     <binding name="text">...</binding>
 *   </object>
 *
 * The widget keeps its OviTooltip alive. */
#define OVI_TYPE_TOOLTIP (ovi_tooltip_get_type ())
G_DECLARE_FINAL_TYPE (OviTooltip, ovi_tooltip, OVI, TOOLTIP, GObject)

const char *ovi_tooltip_get_text (OviTooltip *self);
void ovi_tooltip_set_text (OviTooltip *self, const char *text);
GtkWidget *ovi_tooltip_get_widget (OviTooltip *self);
void ovi_tooltip_set_widget (OviTooltip *self, GtkWidget *widget);

void ovi_widget_set_tooltip (GtkWidget *widget, const char *text);
const char *ovi_widget_get_tooltip (GtkWidget *widget);

G_END_DECLS
