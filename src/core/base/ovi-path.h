/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Paths of a dump tree: how they split, sort and name their levels. */

char **ovi_path_split (const char *path);
int ovi_path_natural_compare (const char *a, const char *b);
void ovi_path_infer_hierarchy (const char *path, char *values[4]);
char *ovi_path_escape (const char *text);
char *ovi_path_display (const char *path);
char *ovi_path_resolve_output (const char *path, GPtrArray *created);

G_END_DECLS
