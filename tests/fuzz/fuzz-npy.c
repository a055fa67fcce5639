/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>

#include "fuzz-common.h"
#include "ovi-core.h"

/* The .npy reader: any bytes give an array whose data is exactly its
 * count of elements, or an error of the .npy domain with a message; and
 * reading the header alone from the file (ovi_npy_open) says the same. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GError) error = NULL, open_error = NULL;
  g_autoptr (OviNpy) npy = ovi_npy_parse (bytes, &error);
  g_autoptr (OviNpy) header = NULL;
  g_autofree char *path = NULL;
  guint64 needed = 0;
  int memfd = -1, fd = -1;

  if ((path = fuzz_memfile (data, size, &memfd)))
    {
      header = ovi_npy_open (path, &fd, &open_error);
      g_assert ((header == NULL) == (npy == NULL));
      if (header)
        {
          g_assert (fd >= 0 && header->data == NULL);
          g_assert (header->dtype == npy->dtype && header->count == npy->count);
          g_assert (header->data_offset + header->count * header->item_size == size);
          close (fd);
        }
      else
        g_assert (fd == -1 && open_error && open_error->domain == OVI_NPY_ERROR);
      close (memfd);
    }
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
