/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Frames drawn by GTK's cairo renderer (software rendering: virtual
 * machines, remote desktops, servers without a GPU) reach an X server
 * through MIT-SHM segments that cairo maps for them. cairo (1.16 to 1.18)
 * unmaps a segment pool as soon as nothing in it is in use, so every frame
 * that repaints much of the window maps a fresh segment and faults in each
 * of its pages, in the app and again in the X server. Keeping one small
 * image in a pool big enough for the screen keeps that pool mapped, and
 * frames reuse pages that are already there; a worker maps all of the
 * pool's pages in at once (MADV_POPULATE_WRITE), so that the first frames
 * do not fault them in one by one either.
 *
 * Connected to a window's "realize"; does nothing on Wayland, with another
 * renderer, or when the X server has no MIT-SHM. */
void ovi_shm_pool_keep (GtkWidget *window);
gboolean ovi_shm_pool_is_kept (GdkDisplay *display);

G_END_DECLS
