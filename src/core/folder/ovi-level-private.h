/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-batch.h"
#include "ovi-dump-folder.h"
#include "ovi-scan.h"

G_BEGIN_DECLS

/* One pass over one folder of a followed tree (folder/ internal): see
 * ovi_level_scan(). What the scan of its folder needs of it is below. */
OviLevel *ovi_level_new (OviDumpFolder *self,
                         const char *relative_dir,
                         GHashTable *closed,
                         GHashTable *changed,
                         gint64 quiet_us);
void ovi_level_free (OviLevel *level);
const char *ovi_level_get_relative_dir (OviLevel *level);
gboolean ovi_level_get_gone (OviLevel *level);
guint ovi_level_get_pending (OviLevel *level);
gboolean ovi_level_get_settling (OviLevel *level);
guint ovi_level_get_files_seen (OviLevel *level);
GPtrArray *ovi_level_get_subdirs (OviLevel *level);
void ovi_level_note_broken (OviLevel *level, const char *entry);
GHashTable *ovi_level_steal_broken (OviLevel *level);
char *ovi_level_entry_signature (int dirfd, const char *entry);
gboolean ovi_level_admits (OviLevel *level, int dirfd, const char *name, OviDumpFile **kept);
GPtrArray *ovi_level_lookup_records (OviLevel *level, OviDumpFile *file);
void ovi_level_relink (OviLevel *level, OviOverflowRecord *record, OviDumpFile *op);
gboolean ovi_level_hold_back (OviLevel *level);
gboolean ovi_level_is_settled (OviLevel *level);
void ovi_level_set_gone (OviLevel *level);
void ovi_level_add_subdir (OviLevel *level, char *relative_dir);
void ovi_level_scan (OviLevel *level, OviDumpFolder *self, GCancellable *cancellable);
GPtrArray *ovi_level_apply (OviLevel *level, OviDumpFolder *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviLevel, ovi_level_free)

G_END_DECLS
