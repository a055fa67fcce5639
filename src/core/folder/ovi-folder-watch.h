/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-dump-folder.h"

G_BEGIN_DECLS

/* How a followed folder learns about changes. */
typedef enum
{
  OVI_WATCH_MODE_AUTO,    /* monitoring, unless the file system or the watch limit rules it out */
  OVI_WATCH_MODE_MONITOR, /* the kernel reports changes (inotify through GFileMonitor) */
  OVI_WATCH_MODE_POLL,    /* folders are read again at intervals */
} OviWatchMode;

#define OVI_TYPE_FOLDER_WATCH (ovi_folder_watch_get_type ())
G_DECLARE_FINAL_TYPE (OviFolderWatch, ovi_folder_watch, OVI, FOLDER_WATCH, GObject)

OviFolderWatch *ovi_folder_watch_new (OviDumpFolder *folder, OviWatchMode mode);
void ovi_folder_watch_start (OviFolderWatch *self);
void ovi_folder_watch_stop (OviFolderWatch *self);
OviDumpFolder *ovi_folder_watch_get_folder (OviFolderWatch *self);
OviWatchMode ovi_folder_watch_get_mode (OviFolderWatch *self);
const char *ovi_folder_watch_describe_mode (OviFolderWatch *self);
gboolean ovi_folder_watch_get_running (OviFolderWatch *self);
gboolean ovi_folder_watch_get_paused (OviFolderWatch *self);
void ovi_folder_watch_set_paused (OviFolderWatch *self, gboolean paused);
guint ovi_folder_watch_get_pending (OviFolderWatch *self);
gboolean ovi_folder_watch_get_busy (OviFolderWatch *self);
gboolean ovi_folder_watch_get_root_gone (OviFolderWatch *self);
void ovi_folder_watch_set_quiet_ms (OviFolderWatch *self, guint quiet_ms);

G_END_DECLS
