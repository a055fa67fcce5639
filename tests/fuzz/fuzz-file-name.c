/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <stdint.h>

#include "ovi-core.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *name = g_strndup ((const char *) data, size);
  OviFileName parsed;

  if (ovi_file_name_parse (name, &parsed))
    {
      g_assert (parsed.op_type != NULL && parsed.op_name != NULL);
      g_assert (parsed.kind != OVI_FILE_KIND_NONE);
    }
  ovi_file_name_clear (&parsed);
  return 0;
}
