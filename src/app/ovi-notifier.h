/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-session.h"

G_BEGIN_DECLS

/* Desktop notifications for a followed folder: an overflow that arrives
 * while the window is not focused is told in words, later ones are
 * counted in the same notification, until the window is focused again. */
#define OVI_TYPE_NOTIFIER (ovi_notifier_get_type ())
G_DECLARE_FINAL_TYPE (OviNotifier, ovi_notifier, OVI, NOTIFIER, GObject)

OviNotifier *ovi_notifier_new (GtkApplicationWindow *window, OviSession *session);

G_END_DECLS
