/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-mapping-csv.h"

/**
 * ovi_mapping_csv_parse:
 *
 * Parses the `short_name,original_name` lines the runtime writes when a file
 * name would exceed 255 bytes.
 *
 * Returns: (transfer full): short name to original name
 */
GHashTable *
ovi_mapping_csv_parse (const char *contents, gsize length)
{
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *p, *end;

  if (contents == NULL || length == 0)
    return map;
  p = contents;
  end = contents + length;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *line_end = eol ? eol : end;
      const char *comma = memchr (p, ',', line_end - p);

      if (line_end > p && line_end[-1] == '\r')
        line_end--;
      /* File names hold no NUL byte: such a line is garbage. */
      if (comma && comma > p && line_end > comma + 1 && !memchr (p, '\0', line_end - p))
        g_hash_table_replace (map, g_strndup (p, comma - p),
                              g_strndup (comma + 1, line_end - comma - 1));
      p = eol ? eol + 1 : end;
    }
  return map;
}
