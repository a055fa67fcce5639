/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>

#include "ovi-i18n.h"

/* The language the environment asks messages in, as gettext's LANGUAGE
 * spells it ("zh_CN" of "zh_CN.UTF-8"), or NULL: the first of LC_ALL,
 * LC_MESSAGES and LANG that is set decides, as it does for setlocale(). */
static char *
dup_requested_language (void)
{
  const char *vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };

  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    {
      const char *value = g_getenv (vars[i]);
      const char *modifier;
      g_autofree char *language = NULL;

      if (value == NULL || *value == '\0')
        continue;
      /* "ll_CC.codeset@modifier": the codeset goes, the modifier stays. */
      modifier = strchr (value, '@');
      language = g_strndup (value, strcspn (value, ".@"));
      if (modifier != NULL)
        {
          char *with_modifier = g_strconcat (language, modifier, NULL);

          g_free (language);
          language = with_modifier;
        }
      if (*language == '\0' || g_str_equal (language, "C") || g_str_equal (language, "POSIX"))
        return NULL;
      return g_steal_pointer (&language);
    }
  return NULL;
}

/**
 * ovi_i18n_init:
 *
 * Sets the locale from the environment and binds the project's catalog, for
 * the window and the command-line tool alike. OVI_LOCALEDIR, which `meson
 * devenv` sets, points at the catalogs compiled in the build tree, so a
 * build that is not installed speaks the user's language too.
 *
 * A locale the C library does not have (`LANG=zh_CN.UTF-8` where
 * zh_CN.UTF-8 was never generated, as on most servers and containers)
 * would leave every message in English: setlocale() fails and the process
 * stays in the "C" locale, in which gettext translates nothing. Messages
 * need no locale data, only the catalog, so the process then runs in
 * C.UTF-8 with LANGUAGE naming the language asked for (unless LANGUAGE
 * already names one), as `LANG=C.UTF-8 LANGUAGE=zh_CN` would.
 *
 */
void
ovi_i18n_init (void)
{
  const char *localedir = g_getenv ("OVI_LOCALEDIR");

  if (setlocale (LC_ALL, "") == NULL)
    {
      g_autofree char *language = dup_requested_language ();

      if (setlocale (LC_ALL, "C.UTF-8") != NULL || setlocale (LC_ALL, "C.utf8") != NULL)
        if (language != NULL && (g_getenv ("LANGUAGE") == NULL || !*g_getenv ("LANGUAGE")))
          g_setenv ("LANGUAGE", language, TRUE);
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir && *localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
