/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>

#include "ovi-core.h"
#include "ovi-diff-private.h"

/* The diff's map file (--map): parsed from the buffer; whatever it says,
 * every entry it keeps names both sides, each my name finds its entry, and
 * an error says something. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (OviDiffMap) map = ovi_diff_map_new ("map.csv");
  g_autoptr (GError) error = NULL;

  if (!ovi_diff_map_parse (map, (const char *) data, size, &error))
    {
      g_assert (error != NULL && error->message != NULL);
      return 0;
    }
  g_assert (error == NULL);
  for (guint i = 0; i < map->entries->len; i++)
    {
      OviDiffMapEntry *e = g_ptr_array_index (map->entries, i);

      g_assert (e->mine != NULL && e->mine[0] != NULL && *e->mine[0] != '\0');
      g_assert (e->golden != NULL && e->golden[0] != NULL && *e->golden[0] != '\0');
      for (guint k = 0; e->mine[k]; k++)
        g_assert (ovi_diff_map_lookup (map, e->mine[k]) == e);
    }
  return 0;
}
