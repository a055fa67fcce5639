/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* mapping.csv: the full names of dump files whose names were too long. */
GHashTable *ovi_mapping_csv_parse (const char *contents, gsize length);

G_END_DECLS
