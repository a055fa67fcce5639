/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Does a piece of UI work, returning before @deadline (monotonic time) when
 * it can; returns %TRUE when it has more to do at the next turn. */
typedef gboolean (*OviSchedulerFunc) (gint64 deadline, gpointer user_data);

guint ovi_scheduler_add (OviSchedulerFunc func, gpointer user_data, GDestroyNotify notify);
void ovi_scheduler_remove (guint id);

G_END_DECLS
