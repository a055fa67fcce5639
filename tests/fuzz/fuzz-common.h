/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* A file holding @data, without touching the disk; the returned path stays
 * valid while *fd is open. */
static inline char *
fuzz_memfile (const uint8_t *data, size_t size, int *fd)
{
  *fd = memfd_create ("fuzz", MFD_CLOEXEC);
  if (*fd < 0)
    return NULL;
  if (size && write (*fd, data, size) != (ssize_t) size)
    {
      close (*fd);
      return NULL;
    }
  return g_strdup_printf ("/proc/self/fd/%d", *fd);
}
