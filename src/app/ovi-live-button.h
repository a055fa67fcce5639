/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-session.h"

G_BEGIN_DECLS

/* The header bar's "Live" indicator: shown while the session follows its
 * folder, with a switch to pause following and how the folder is followed. */
#define OVI_TYPE_LIVE_BUTTON (ovi_live_button_get_type ())
G_DECLARE_FINAL_TYPE (OviLiveButton, ovi_live_button, OVI, LIVE_BUTTON, GtkWidget)

OviSession *ovi_live_button_get_session (OviLiveButton *self);
void ovi_live_button_set_session (OviLiveButton *self, OviSession *session);
gboolean ovi_live_button_get_shown (OviLiveButton *self);

G_END_DECLS
