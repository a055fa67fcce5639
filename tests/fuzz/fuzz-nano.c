/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "fuzz-common.h"
#include "ovi-core.h"

/* Nano (TLV) dumps: the input with the magic 0x5A5A5A5A put at offset 8,
 * so that every run takes the nano path of the reader. Such a file is
 * always refused as a nano dump, naming its version when it has one. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const guint8 magic[4] = { 0x5a, 0x5a, 0x5a, 0x5a };
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *bytes = g_malloc (size + 4);
  g_autofree char *path = NULL;
  gsize length = size + 4;
  int fd;

  if (size < 8)
    return 0;
  memcpy (bytes, data, 8);
  memcpy (bytes + 8, magic, 4);
  memcpy (bytes + 12, data + 8, size - 8);
  if (!(path = fuzz_memfile (bytes, length, &fd)))
    return 0;
  file = ovi_dump_file_load (path, "Add.fuzz_nano.1.2.3", &error);
  g_assert (file == NULL);
  g_assert (g_error_matches (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_NANO));
  if (length >= 16)
    {
      guint32 v;
      g_autofree char *expected = NULL;
      memcpy (&v, bytes + 12, 4);
      expected = g_strdup_printf ("nano (TLV) dump (version %u)", GUINT32_FROM_LE (v));
      g_assert (strstr (error->message, expected) != NULL);
    }
  else
    g_assert (strstr (error->message, "its version cut off") != NULL);
  close (fd);
  return 0;
}
