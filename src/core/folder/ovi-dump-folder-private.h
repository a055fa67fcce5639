#pragma once

#include "ovi-dump-folder.h"

G_BEGIN_DECLS

/* One pass over one folder of a followed tree (see ovi-folder-watch.c). */
typedef struct _OviLevel OviLevel;

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
void ovi_dump_folder_scan_level (OviDumpFolder *self, OviLevel *level, GCancellable *cancellable);
GPtrArray *ovi_dump_folder_apply_level (OviDumpFolder *self, OviLevel *level);
gboolean ovi_dump_folder_get_delivering (OviDumpFolder *self);
void ovi_dump_folder_count_seen (OviDumpFolder *self, guint before, guint now);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviLevel, ovi_level_free)

G_END_DECLS
