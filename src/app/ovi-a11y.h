/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

char *ovi_a11y_strip_mnemonic (const char *label);
void ovi_a11y_fix_names (GtkWidget *root);
void ovi_a11y_name_split_button (GtkWidget *split_button, const char *button, const char *arrow);

G_END_DECLS
