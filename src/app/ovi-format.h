/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How the app writes numbers, in one place: tables, details and charts. */
char *ovi_format_double (double value);
char *ovi_format_count (guint64 count);
char *ovi_format_count_grouped (guint64 count);
char *ovi_format_timestamp (guint64 timestamp);
char *ovi_format_gap (gint64 gap);
char *ovi_format_path (const char *path, const char *home);

/* Closures shared by the tables' .ui files (bound with
 * gtk_widget_class_bind_template_callback_full). */
char *ovi_format_max_abs (gpointer unused, gboolean analyzed, double max_abs);
char *ovi_format_op_count (gpointer unused, gboolean analyzed, guint64 count);
guint64 ovi_format_iteration_number (gpointer unused, const char *iteration);
char *ovi_format_search_text (gpointer unused, const char *op_type, const char *op_name);
GStrv ovi_format_count_classes (gpointer unused, guint64 count);
GStrv ovi_format_max_abs_classes (gpointer unused, guint64 saturated);
char *ovi_format_timestamp_closure (gpointer unused, guint64 timestamp);
char *ovi_format_timestamp_tooltip (gpointer unused, guint64 timestamp);
char *ovi_format_gap_closure (gpointer unused, gboolean has_gap, gint64 gap);

G_END_DECLS
