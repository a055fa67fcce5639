/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-batch.h"
#include "ovi-dump-folder.h"

G_BEGIN_DECLS

typedef struct _OviLevel OviLevel;
typedef struct _OviScan OviScan;

/* Takes @batch: applies it, queues it or keeps it. */
typedef void (*OviScanEmitFunc) (OviScan *scan, OviBatch *batch);

/* One scan of a folder (folder/ internal). */
struct _OviScan
{
  OviDumpFolder *self;
  GCancellable *cancellable;
  GHashTable *visited; /* "dev:ino" of folders entered */
  OviScanEmitFunc emit;
  gpointer emit_data;
  GPtrArray *ops;        /* the op dump files listed, to summarize */
  OviLevel *level;       /* a pass over one followed folder, or NULL */
  guint root;            /* the root being listed, in a folder of several */
  guint root_prefix;     /* strlen of "its name/" then, or 0 */
  gboolean root_is_file; /* a dump file opened on its own */
  gint64 progress_interval_us;
  gint64 progress_at;
};

gboolean ovi_scan_root (OviScan *scan, GError **error);
gboolean ovi_scan_dir (OviScan *scan, const char *path, const char *relative_dir, GError **error);
void ovi_scan_emit (OviScan *scan, OviBatch *batch);
void ovi_scan_post_progress (OviScan *scan);
void ovi_scan_summarize_all (OviScan *scan);

G_END_DECLS
