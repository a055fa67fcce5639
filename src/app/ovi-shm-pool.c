/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-shm-pool.h"
#include "ovi-worker.h"

#if defined(GDK_WINDOWING_X11) && defined(HAVE_CAIRO_XLIB)
#include <cairo-xlib.h>
#include <gdk/x11/gdkx.h>
#include <stdio.h>
#include <sys/mman.h>
#define CAN_KEEP_POOL 1
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define KEPT_KEY "ovi-shm-pool-image"

#ifdef CAN_KEEP_POOL
/* Dropped while the connection is still open. */
static void
display_closed (GdkDisplay *display)
{
  g_object_set_data (G_OBJECT (display), KEPT_KEY, NULL);
}

/* The mapping of this process that holds @address, from /proc/self/maps. */
static gboolean
find_mapping (gconstpointer address, guintptr *start, guintptr *end)
{
  g_autofree char *maps = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 from, to;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x", &from, &to) == 2 &&
          (guintptr) address >= from && (guintptr) address < to)
        {
          *start = from;
          *end = to;
          return TRUE;
        }
    }
  return FALSE;
}

/* On a worker: maps every page of the pool into the process in one call.
 * The kernel does that about ten times faster than faulting the pages in
 * one by one as frames first touch them (64 MiB: 23 ms against 180-240 ms
 * on a virtual machine), and the main thread no longer pays for it in the
 * first seconds' frames. */
static void
populate (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  guintptr *range = data;

  /* Older kernels refuse the advice (EINVAL): pages then fault in as used. */
  madvise ((void *) range[0], range[1] - range[0], MADV_POPULATE_WRITE);
  g_task_return_boolean (task, TRUE);
}

static void
populate_in_background (cairo_surface_t *image)
{
  g_autoptr (GTask) task = NULL;
  guintptr *range = g_new (guintptr, 2);

  if (cairo_surface_get_type (image) != CAIRO_SURFACE_TYPE_IMAGE ||
      !find_mapping (cairo_image_surface_get_data (image), &range[0], &range[1]))
    {
      g_free (range);
      return;
    }
  task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_source_tag (task, populate_in_background);
  g_task_set_task_data (task, range, g_free);
  ovi_worker_run_in_thread (task, populate);
}
#endif

void
ovi_shm_pool_keep (GtkWidget *window)
{
#ifdef CAN_KEEP_POOL
  GdkDisplay *display = gtk_widget_get_display (window);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  Display *xdisplay;
  Screen *screen;
  cairo_surface_t *root, *screen_image, *kept;

  if (!GDK_IS_X11_DISPLAY (display) || !GSK_IS_CAIRO_RENDERER (renderer) ||
      ovi_shm_pool_is_kept (display))
    return;

  xdisplay = gdk_x11_display_get_xdisplay (display);
  screen = DefaultScreenOfDisplay (xdisplay);
  root = cairo_xlib_surface_create (xdisplay, RootWindowOfScreen (screen),
                                    DefaultVisualOfScreen (screen), WidthOfScreen (screen),
                                    HeightOfScreen (screen));
  /* An image as large as the screen makes cairo map a pool for frames up
   * to that size; the small one, placed in the same pool, keeps it. */
  screen_image = cairo_surface_create_similar_image (
      root, CAIRO_FORMAT_ARGB32, WidthOfScreen (screen), HeightOfScreen (screen));
  kept = cairo_surface_create_similar_image (root, CAIRO_FORMAT_ARGB32, 64, 64);
  cairo_surface_destroy (screen_image);
  cairo_surface_destroy (root);
  populate_in_background (kept);
  g_object_set_data_full (G_OBJECT (display), KEPT_KEY, kept,
                          (GDestroyNotify) cairo_surface_destroy);
  g_signal_connect (display, "closed", G_CALLBACK (display_closed), NULL);
#endif
}

/* Whether a pool is kept for @display (tests). */
gboolean
ovi_shm_pool_is_kept (GdkDisplay *display)
{
  return g_object_get_data (G_OBJECT (display), KEPT_KEY) != NULL;
}
