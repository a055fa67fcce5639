/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-batch.h"
#include "ovi-dump-folder.h"
#include "ovi-scan.h"

G_BEGIN_DECLS

/* One pass over one folder of a followed tree: see
 * ovi_level_scan(). */
struct _OviLevel
{
  char *relative_dir;
  GHashTable *known;   /* entry -> OviDumpFile as loaded; borrowed */
  GHashTable *records; /* OviDumpFile -> GPtrArray of its records; borrowed */
  GHashTable *closed;  /* entries written and closed since */
  GHashTable *changed; /* entries the system reported changed since, or NULL: stat every entry */
  gint64 quiet_us;
  gint64 now_us;       /* wall clock, as file times are */
  OviBatch *batch;     /* every file, record and problem the folder holds now */
  GPtrArray *links;    /* (record, op) pairs: records already shown, linked anew */
  GPtrArray *subdirs;  /* relative paths of the folders in it */
  GPtrArray *fresh;    /* files read in this pass (not kept from before) */
  guint pending;       /* entries still being written, left for later */
  GHashTable *waiting; /* those entries: what is shown of them stays until they are read */
  gint64 newest_us;    /* when the newest entry was written */
  gboolean settling;   /* written to too recently to look for records in the data */
  guint files_seen;
  gboolean gone;      /* the folder is not there any more */
  GHashTable *broken; /* entries found broken -> what stat said of them then */
  GHashTable *read;   /* entries read in this pass -> what stat said before */
};

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
void ovi_level_scan (OviLevel *level, OviDumpFolder *self, GCancellable *cancellable);
GPtrArray *ovi_level_apply (OviLevel *level, OviDumpFolder *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviLevel, ovi_level_free)

G_END_DECLS
