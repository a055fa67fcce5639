/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>

#include "ovi-i18n.h"

/**
 * ovi_i18n_init:
 *
 * Sets the locale from the environment and binds the project's catalog, for
 * the window and the command-line tool alike. OVI_LOCALEDIR, which `meson
 * devenv` sets, points at the catalogs compiled in the build tree, so a
 * build that is not installed speaks the user's language too.
 */
void
ovi_i18n_init (void)
{
  const char *localedir = g_getenv ("OVI_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir && *localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
