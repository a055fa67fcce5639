/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* False positives: operators to leave out of "first overflow" and of the
 * origins, matched by type or name with glob patterns. */
typedef struct _OviIgnoreList OviIgnoreList;

/* The largest ignore list read: patterns, not data. */
#define OVI_IGNORE_LIST_MAX_SIZE (16u << 20)

OviIgnoreList *ovi_ignore_list_new (const char *const *patterns);
OviIgnoreList *ovi_ignore_list_load (const char *path, GError **error);
OviIgnoreList *ovi_ignore_list_ref (OviIgnoreList *self);
void ovi_ignore_list_unref (OviIgnoreList *self);
gboolean ovi_ignore_list_matches (OviIgnoreList *self, const char *op_type, const char *op_name);
guint ovi_ignore_list_get_size (OviIgnoreList *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviIgnoreList, ovi_ignore_list_unref)

G_END_DECLS
