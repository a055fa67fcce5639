/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-test-util.h"

/* The start page, shown before a folder is opened. */

/* Run from the build tree, the start page shows the application's icon
 * (from the resources), not a generic one. */
static void
test_start_page_icon (void)
{
  OviWindow *window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  AdwStatusPage *status =
      ADW_STATUS_PAGE (template_child (window->start_page, OVI_TYPE_START_PAGE, "status_page"));

  g_assert_cmpstr (adw_status_page_get_icon_name (status), ==, APP_ID);
  g_assert_true (gtk_icon_theme_has_icon (
      gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (window))), APP_ID));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add_func ("/app/start-page/icon", test_start_page_icon);
  return ovi_test_run ();
}
