/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-format.h"
#include "ovi-test-util.h"
#include "ovi-tooltip.h"

/* Helpers that need no window: how paths are written, and OviTooltip. */

/* The window's subtitle writes the home folder as GNOME does; a folder
 * that only starts like it is left alone. */
static void
test_format_path (void)
{
  static const struct
  {
    const char *path, *home, *shown;
  } cases[] = {
    { "/home/wei/runs/dump", "/home/wei", "~/runs/dump" },
    { "/home/wei", "/home/wei", "~" },
    { "/home/weiwei/dump", "/home/wei", "/home/weiwei/dump" },
    { "/data/dump", "/home/wei", "/data/dump" },
    { "/root/dump", "/", "/root/dump" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = ovi_format_path (cases[i].path, cases[i].home);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

/* A tooltip given in a .ui file or in code: the widget keeps it after the
 * builder is gone, shows it on hover (has-tooltip), and takes a new text;
 * an empty one shows nothing. */
static void
test_tooltip (void)
{
  static const char ui[] = "<interface>"
                           "  <object class=\"GtkLabel\" id=\"label\"/>"
                           "  <object class=\"OviTooltip\">"
                           "    <property name=\"widget\">label</property>"
                           "    <property name=\"text\">gradients/Cast_3</property>"
                           "  </object>"
                           "</interface>";
  g_autoptr (GtkBuilder) builder = NULL;
  g_autoptr (GtkWidget) label = NULL;
  g_autoptr (GtkWidget) button = g_object_ref_sink (gtk_button_new ());

  g_type_ensure (OVI_TYPE_TOOLTIP);
  builder = gtk_builder_new_from_string (ui, -1);
  label = g_object_ref_sink (GTK_WIDGET (gtk_builder_get_object (builder, "label")));
  g_clear_object (&builder);
  g_assert_true (gtk_widget_get_has_tooltip (label));
  g_assert_cmpstr (ovi_widget_get_tooltip (label), ==, "gradients/Cast_3");

  ovi_widget_set_tooltip (label, "loss/Mul_2");
  g_assert_cmpstr (ovi_widget_get_tooltip (label), ==, "loss/Mul_2");
  /* GTK's own tooltip stays unset: setting it is what costs a round trip. */
  g_assert_null (gtk_widget_get_tooltip_text (label));

  ovi_widget_set_tooltip (button, "Copy Task id");
  g_assert_true (gtk_widget_get_has_tooltip (button));
  g_assert_cmpstr (ovi_widget_get_tooltip (button), ==, "Copy Task id");
  ovi_widget_set_tooltip (button, NULL);
  g_assert_null (ovi_widget_get_tooltip (button));
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add_func ("/app/format/path", test_format_path);
  g_test_add_func ("/app/format/tooltip", test_tooltip);
  return ovi_test_run ();
}
