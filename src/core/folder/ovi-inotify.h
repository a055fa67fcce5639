/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The kernel's change notifications for folders (folder/ internal): one
 * inotify instance, one watch per folder, events read on the main context
 * (ovi-folder-watch.c). Unlike GFileMonitor, it says when the system has
 * no watch left for a folder and when it dropped events. */
typedef struct _OviInotify OviInotify;

/* Something changed in the folder of @dir_data: the entry @name (NULL: the
 * folder itself was deleted or moved away), written in full (@closed: closed
 * after writing, or moved into place). */
typedef void (*OviInotifyChangedFunc) (gpointer dir_data,
                                       const char *name,
                                       gboolean closed,
                                       gpointer user_data);
/* The system's queue of events overflowed: some were lost, anywhere. */
typedef void (*OviInotifyOverflowFunc) (gpointer user_data);

OviInotify *ovi_inotify_new (OviInotifyChangedFunc changed,
                             OviInotifyOverflowFunc overflow,
                             gpointer user_data,
                             GError **error);
int ovi_inotify_add (OviInotify *self, const char *path, gpointer dir_data, GError **error);
void ovi_inotify_remove (OviInotify *self, int wd);
void ovi_inotify_free (OviInotify *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviInotify, ovi_inotify_free)

G_END_DECLS
