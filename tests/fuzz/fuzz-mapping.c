/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>

#include "ovi-core.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GHashTable) map = ovi_mapping_csv_parse ((const char *) data, size);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert (*(const char *) key != '\0' && *(const char *) value != '\0');
  return 0;
}
