#include "config.h"

#include "ovi-shm-pool.h"

#if defined(GDK_WINDOWING_X11) && defined(HAVE_CAIRO_XLIB)
#include <cairo-xlib.h>
#include <gdk/x11/gdkx.h>
#define CAN_KEEP_POOL 1
#endif

#define KEPT_KEY "ovi-shm-pool-image"

#ifdef CAN_KEEP_POOL
/* Dropped while the connection is still open. */
static void
display_closed (GdkDisplay *display)
{
  g_object_set_data (G_OBJECT (display), KEPT_KEY, NULL);
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
