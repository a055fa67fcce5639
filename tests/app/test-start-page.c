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

/* A path that does not exist, as given on the command line: the start
 * page says so, naming it, and keeps saying it (not a toast that is gone
 * before anyone looks), until a folder opens. */
static void
test_start_page_open_error (void)
{
  OviWindow *window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  OviStartPage *page = OVI_START_PAGE (window->start_page);
  GtkLabel *label = template_child (page, OVI_TYPE_START_PAGE, "error_label");
  g_autoptr (GFile) missing = g_file_new_for_path ("/nonexistent/ovi-dump");
  g_autoptr (GFile) example = g_file_new_for_path (g_getenv ("OVI_EXAMPLE_DIR"));
  g_autofree char *toasts = NULL;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_null (ovi_start_page_get_error (page));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (label)));

  ovi_window_open_file (window, missing);
  g_assert_cmpstr (ovi_start_page_get_error (page), ==, "“/nonexistent/ovi-dump” does not exist");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (label)));
  g_assert_cmpstr (gtk_label_get_label (label), ==, "“/nonexistent/ovi-dump” does not exist");
  toasts = toast_text (window);
  g_assert_null (strstr (toasts, "does not exist"));

  /* Opening a folder clears it. */
  ovi_window_open_file (window, example);
  g_assert_null (ovi_start_page_get_error (page));
  wait_records_listed (window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (label)));

  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add_func ("/app/start-page/icon", test_start_page_icon);
  g_test_add_func ("/app/start-page/open-error", test_start_page_open_error);
  return ovi_test_run ();
}
