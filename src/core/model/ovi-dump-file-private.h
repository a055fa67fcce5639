/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-dump-file.h"

G_BEGIN_DECLS

GBytes *ovi_dump_file_dup_overflow_payload (OviDumpFile *self, GError **error);

/* @parsed: (nullable) (inout): @name (or the entry) parsed already, whose
 * fields the file takes when it is a dump name; @keep_small: keep a small
 * file's bytes for its summary (ovi_dump_file_take_contents()), for a
 * caller that will summarize it */
OviDumpFile *ovi_dump_file_load_at (int dirfd,
                                    const char *entry,
                                    char *path,
                                    const char *name,
                                    OviFileName *parsed,
                                    gboolean listed,
                                    gboolean keep_small,
                                    GError **error);
void ovi_dump_file_set_location_like (OviDumpFile *self,
                                      const char *relative_path,
                                      OviDumpFile *sibling);

OviDumpFile *ovi_dump_file_new_statistics (
    const char *path, const char *name, const char *op_name, guint64 file_size, GPtrArray *rows);
OviDumpFile *ovi_dump_file_new_group (GPtrArray *slices);
void ovi_dump_file_set_blame (OviDumpFile *self, OviBlame blame);
void ovi_dump_file_set_summary (OviDumpFile *self, OviOpSummary *summary);
GBytes *ovi_dump_file_take_contents (OviDumpFile *self);
void ovi_dump_file_notify_summary (OviDumpFile *self);
gint64 ovi_dump_file_get_mtime_us (OviDumpFile *self);
int ovi_dump_file_open_range (OviDumpFile *self, guint64 offset, guint64 size, GError **error);

G_END_DECLS
