#include "config.h"

#include <glib/gi18n.h>

#include "ovi-application.h"
#include "ovi-i18n.h"

int
main (int argc, char *argv[])
{
  g_autoptr (OviApplication) app = NULL;

  ovi_i18n_init ();
  app = ovi_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
