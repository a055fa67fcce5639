/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-application.h"
#include "ovi-i18n.h"

/* Without a GPU render node, GTK's GL renderer runs on Mesa's software
 * rasterizer, whose frames of a window full of tables take longer than the
 * frame interval: remote desktops, virtual machines and servers without a
 * GPU, where Ascend engineers read their dumps. Cairo draws the same window
 * faster there. GSK_RENDERER, when set, still decides. */
static void
choose_renderer (void)
{
  g_autoptr (GDir) dri = NULL;
  const char *name;

  if (g_getenv ("GSK_RENDERER") != NULL)
    return;
  if ((dri = g_dir_open ("/dev/dri", 0, NULL)) != NULL)
    while ((name = g_dir_read_name (dri)) != NULL)
      if (g_str_has_prefix (name, "renderD"))
        return;
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
}

int
main (int argc, char *argv[])
{
  g_autoptr (OviApplication) app = NULL;

  ovi_i18n_init ();
  /* The locale is set: GTK would set it again from the environment, and
   * where the environment's locale is missing fall back to "C", in which
   * nothing is translated (ovi_i18n_init() runs in C.UTF-8 instead). */
  gtk_disable_setlocale ();
  choose_renderer ();
  app = ovi_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
