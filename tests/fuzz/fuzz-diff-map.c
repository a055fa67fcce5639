/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>

#include "ovi-core.h"
#include "ovi-diff-private.h"

/* The diff's map file (--map): parsed from the buffer; whatever it says,
 * every pair it gives names both sides, and an error says which file. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GHashTable) mapping = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GError) error = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (!ovi_diff_map_parse ((const char *) data, size, "map.csv", mapping, &error))
    {
      g_assert (error != NULL && error->message != NULL);
      return 0;
    }
  g_assert (error == NULL);
  g_hash_table_iter_init (&iter, mapping);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert (*(const char *) key != '\0' && *(const char *) value != '\0');
  return 0;
}
