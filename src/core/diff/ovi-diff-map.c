/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-diff-private.h"
#include "ovi-error.h"

/* The map file of renamed and fused operators: one parser, callable on a
 * buffer (the fuzz target's entry point). */

/**
 * ovi_diff_map_parse:
 * @text: the file's bytes, not necessarily NUL-terminated
 * @length: their number
 * @path: the file's name, for messages
 * @mapping: my name → golden name, filled
 *
 * Reads `my_name,golden_name` a line (blank lines and lines starting with
 * `#` left out).
 */
gboolean
ovi_diff_map_parse (
    const char *text, gsize length, const char *path, GHashTable *mapping, GError **error)
{
  g_autofree char *contents = g_strndup (text, length);
  g_auto (GStrv) lines = g_strsplit (contents, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *comma;

      if (*line == '\0' || *line == '#')
        continue;
      comma = strchr (line, ',');
      if (comma == NULL || comma == line || comma[1] == '\0')
        {
          g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                       _ ("%s, line %u: not “my_name,golden_name”"), path, i + 1);
          return FALSE;
        }
      *comma = '\0';
      g_hash_table_replace (mapping, g_strdup (g_strstrip (line)),
                            g_strdup (g_strstrip (comma + 1)));
    }
  return TRUE;
}
