/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>

#include "ovi-core.h"

/* The .npy reader: any bytes give an array whose data is exactly its
 * count of elements, or an error of the .npy domain with a message. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviNpy) npy = ovi_npy_parse (bytes, &error);
  guint64 needed = 0;

  if (npy == NULL)
    {
      g_assert (error != NULL && error->domain == OVI_NPY_ERROR && *error->message);
      return 0;
    }
  g_assert (error == NULL);
  g_assert (ovi_dtype_size_for_count (npy->dtype, npy->count, &needed));
  g_assert (needed == g_bytes_get_size (npy->data));
  g_free (ovi_npy_dup_shape_string (npy));
  /* Every element can be read. */
  if (needed)
    {
      const guint8 *d = g_bytes_get_data (npy->data, NULL);
      guint64 sum = d[needed - 1], touched = 1;
      for (guint64 i = 0; i < needed; i += 4093, touched++)
        sum += d[i];
      g_assert (sum <= 255 * touched);
    }
  return 0;
}
