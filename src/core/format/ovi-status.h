/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One documented AI Core status bit. */
typedef struct
{
  guint64 bit;
  const char *name;
  const char *description; /* translated with gettext */
} OviStatusBit;

const OviStatusBit *ovi_status_bits (guint *n_bits);
GArray *ovi_status_split (guint64 status);
char *ovi_status_dup_summary (guint64 status);

G_END_DECLS
