/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <stdint.h>

#include "ovi-core.h"

/* The first byte picks the payload length: 2048 (padded or cut) most of the
 * time, or the input as it is. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree guint8 *payload = NULL;
  g_autoptr (GPtrArray) records = NULL;
  g_autofree char *json = NULL;
  gsize length;

  if (size == 0)
    return 0;
  length = (data[0] & 0x7) == 0 ? size - 1 : 2048;
  payload = g_malloc0 (MAX (length, 1));
  memcpy (payload, data + 1, MIN (length, size - 1));

  records = ovi_overflow_record_decode (payload, length, NULL);
  json = ovi_overflow_fields_vendor_json (payload, length, NULL);
  g_assert (length == 2048 || records == NULL);
  for (guint i = 0; records && i < records->len; i++)
    {
      OviOverflowRecord *r = g_ptr_array_index (records, i);
      g_autofree char *summary = ovi_overflow_record_dup_status_summary (r);
      g_assert (summary != NULL && *summary != '\0');
      g_assert (ovi_overflow_record_get_flags_mask (r) != 0);
    }
  return 0;
}
