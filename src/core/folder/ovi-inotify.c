/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "ovi-inotify.h"

/* A followed folder's watches. GFileMonitor hides a watch the kernel
 * refused (it retries now and then, and meanwhile reports nothing) and an
 * overflow of the kernel's event queue; a folder left unwatched that way
 * would be followed in silence. Here both are the caller's to handle. */

#define MASK                                                                                       \
  (IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO |  \
   IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

struct _OviInotify
{
  int fd;
  guint source;
  GHashTable *dirs; /* wd -> the caller's data */
  OviInotifyChangedFunc changed;
  OviInotifyOverflowFunc overflow;
  gpointer user_data;
};

static gboolean
readable (int fd, GIOCondition condition, gpointer data)
{
  OviInotify *self = data;
  /* Aligned for struct inotify_event, as inotify(7) asks. */
  char buffer[64 * 1024] __attribute__ ((aligned (__alignof__(struct inotify_event))));
  gboolean overflowed = FALSE;
  gssize n;

  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    for (char *p = buffer; p < buffer + n;)
      {
        const struct inotify_event *event = (const struct inotify_event *) p;
        gpointer dir = g_hash_table_lookup (self->dirs, GINT_TO_POINTER (event->wd));

        p += sizeof (struct inotify_event) + event->len;
        if (event->mask & IN_Q_OVERFLOW)
          overflowed = TRUE;
        else if (dir == NULL)
          continue; /* removed since */
        else if (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED))
          {
            /* The watch goes with the folder: its pass finds it gone. */
            if (event->mask & IN_IGNORED)
              g_hash_table_remove (self->dirs, GINT_TO_POINTER (event->wd));
            self->changed (dir, NULL, FALSE, self->user_data);
          }
        else if (event->len > 0)
          self->changed (dir, event->name, (event->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) != 0,
                         self->user_data);
      }
  if (overflowed)
    self->overflow (self->user_data);
  return G_SOURCE_CONTINUE;
}

/**
 * ovi_inotify_new: (skip)
 *
 * Returns: (nullable): the instance, or %NULL with @error when the system
 *   gives this user no more (EMFILE: `fs.inotify.max_user_instances`)
 */
OviInotify *
ovi_inotify_new (OviInotifyChangedFunc changed,
                 OviInotifyOverflowFunc overflow,
                 gpointer user_data,
                 GError **error)
{
  OviInotify *self;
  int fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);

  if (fd < 0)
    {
      int errsv = errno;
      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (errsv), g_strerror (errsv));
      return NULL;
    }
  self = g_new0 (OviInotify, 1);
  self->fd = fd;
  self->changed = changed;
  self->overflow = overflow;
  self->user_data = user_data;
  self->dirs = g_hash_table_new (NULL, NULL);
  self->source = g_unix_fd_add (fd, G_IO_IN, readable, self);
  return self;
}

/**
 * ovi_inotify_add: (skip)
 *
 * Watches the folder @path for @dir_data. Every watch of a followed folder
 * is added here.
 *
 * Returns: the watch descriptor, or -1 with @error: ENOSPC
 *   (%G_IO_ERROR_NO_SPACE) when the user's watches are used up
 *   (`fs.inotify.max_user_watches`, shared by all of the user's programs)
 */
int
ovi_inotify_add (OviInotify *self, const char *path, gpointer dir_data, GError **error)
{
  int wd = inotify_add_watch (self->fd, path, MASK);

  if (wd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path,
                   g_strerror (errsv));
      return -1;
    }
  g_hash_table_insert (self->dirs, GINT_TO_POINTER (wd), dir_data);
  return wd;
}

/* Stops watching; events of @wd still queued are dropped. */
void
ovi_inotify_remove (OviInotify *self, int wd)
{
  if (g_hash_table_remove (self->dirs, GINT_TO_POINTER (wd)))
    inotify_rm_watch (self->fd, wd);
}

void
ovi_inotify_free (OviInotify *self)
{
  g_source_remove (self->source);
  close (self->fd);
  g_hash_table_unref (self->dirs);
  g_free (self);
}
