/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define OVI_TYPE_IGNORE_WINDOW (ovi_ignore_window_get_type ())
G_DECLARE_FINAL_TYPE (OviIgnoreWindow, ovi_ignore_window, OVI, IGNORE_WINDOW, AdwWindow)

GtkWindow *ovi_ignore_window_new (GtkWindow *parent, GSettings *settings);
void ovi_ignore_window_set_text (OviIgnoreWindow *self, const char *text);
void ovi_ignore_window_save (OviIgnoreWindow *self);

G_END_DECLS
