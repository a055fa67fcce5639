/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "ovi-dump-folder-private.h"
#include "ovi-folder-enums.h"
#include "ovi-folder-watch.h"
#include "ovi-inotify.h"
#include "ovi-level-private.h"
#include "ovi-worker.h"

/* Follows a dump folder while a run writes into it: new files, iterations,
 * models and devices appear in the folder's stores as they are written,
 * files deleted or replaced are removed or read again, and files still
 * being written wait until they have stopped changing.
 *
 * Every change is handled by a pass over one folder (ovi_level_new(),
 * ovi_level_scan() on a worker thread, then
 * ovi_level_apply()), one pass at a time, each costing what its own folder
 * holds: a first pass over a tree of many folders is linear in it. What
 * starts a pass: inotify events (ovi-inotify.c) in OVI_WATCH_MODE_MONITOR,
 * the folder's own time changing in OVI_WATCH_MODE_POLL, and in both modes
 * a folder that still holds files being written.
 *
 * A folder the system will not watch (its watches used up by other
 * programs) is polled while the others are monitored, and a lost event
 * queue turns the whole tree to polling; the description says so. A polled
 * folder also looks at the files it found broken: writing into a file
 * leaves its folder's time as it was. */

/* How long a file must stay unchanged before it is read, unless the writer
 * was seen closing it (IN_CLOSE_WRITE) or renaming it into place. */
#define DEFAULT_QUIET_MS 1000
/* How often folders are looked at again when polling. */
#define POLL_MS 1000
/* How often folders with files being written are looked at when monitoring. */
#define PENDING_MS 250
/* Events come in bursts: a pass starts this long after the first, so that
 * a run writing a thousand files a second costs five passes a second. */
#define KICK_MS 200

typedef struct _OviFolderWatch OviFolderWatch;

typedef struct
{
  OviFolderWatch *watch;
  char *relative;
  char *inode;          /* "dev:ino", its key in the watch's inodes */
  int wd;               /* its inotify watch, or -1: it is polled */
  GHashTable *children; /* relative paths of the folders followed in it */
  GHashTable *closed;   /* entries written in full since the last pass */
  GHashTable *changed;  /* entries the system reported since the last pass */
  GHashTable *broken;   /* polled: entries found broken -> what stat said of them */
  gboolean passed;      /* had a pass since its watch was set up */
  gint64 mtime;         /* the folder's own, when its last pass started */
  guint files_seen;     /* entries its last pass saw */
  guint pending;        /* entries its last pass found still being written */
  gboolean settling;    /* written to too recently to look for records in the data */
  gboolean queued;
} Dir;

struct _OviFolderWatch
{
  GObject parent_instance;

  OviDumpFolder *folder;
  OviWatchMode requested;
  OviWatchMode mode;
  const char *poll_reason;     /* why polling, when it was not asked for */
  const char *fallback_reason; /* monitoring: why some folders are polled */
  char *description;
  guint quiet_ms;
  OviInotify *inotify;
  GHashTable *dirs;   /* relative path -> Dir */
  GHashTable *inodes; /* "dev:ino" of the folders followed: links make no loops */
  GHashTable *active; /* Dir -> Dir: the folders each tick looks at */
  GQueue queue;       /* relative paths waiting for a pass */
  GCancellable *cancellable;
  guint timer;
  guint kick;
  guint watch_limit;
  gboolean running;
  gboolean paused;
  gboolean root_gone;
  gboolean passing;
  gboolean walked;     /* every folder has had its first pass */
  gboolean settling;   /* some folder changed too recently for records in its data */
  guint pending;       /* as last notified */
  guint pending_sum;   /* of the folders' pending */
  guint settling_dirs; /* folders settling */
};

G_DEFINE_FINAL_TYPE (OviFolderWatch, ovi_folder_watch, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FOLDER,
  PROP_REQUESTED_MODE,
  PROP_MODE,
  PROP_DESCRIPTION,
  PROP_RUNNING,
  PROP_PAUSED,
  PROP_PENDING,
  PROP_BUSY,
  PROP_ROOT_GONE,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum
{
  RECORDS_ARRIVED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void schedule (OviFolderWatch *self);
static void queue_dir (OviFolderWatch *self, Dir *dir);

static char *
dir_path (OviFolderWatch *self, const char *relative)
{
  return g_build_filename (ovi_dump_folder_get_root_path (self->folder), relative, NULL);
}

static void
dir_free (Dir *dir)
{
  if (dir->wd >= 0 && dir->watch->inotify)
    ovi_inotify_remove (dir->watch->inotify, dir->wd);
  g_hash_table_unref (dir->children);
  g_hash_table_unref (dir->closed);
  g_hash_table_unref (dir->changed);
  g_clear_pointer (&dir->broken, g_hash_table_unref);
  g_free (dir->relative);
  g_free (dir->inode);
  g_free (dir);
}

static gint64
mtime_of (const char *path, struct stat *st)
{
  if (stat (path, st) != 0)
    return -1;
  return (gint64) st->st_mtim.tv_sec * G_USEC_PER_SEC + st->st_mtim.tv_nsec / 1000;
}

/* Whether each tick looks at @dir: it has files being written, changed a
 * moment ago, or is polled. Kept up to date, so that a tick costs the
 * folders that need it, not the whole tree. */
static void
update_active (OviFolderWatch *self, Dir *dir)
{
  if (dir->pending || dir->settling || dir->wd < 0)
    g_hash_table_add (self->active, dir);
  else
    g_hash_table_remove (self->active, dir);
}

/* What a pass found of @dir, into the watch's totals. */
static void
set_dir_state (OviFolderWatch *self, Dir *dir, guint pending, gboolean settling)
{
  self->pending_sum = self->pending_sum - dir->pending + pending;
  self->settling_dirs = self->settling_dirs - dir->settling + !!settling;
  dir->pending = pending;
  dir->settling = !!settling;
  update_active (self, dir);
}

static void
notify_state (OviFolderWatch *self)
{
  self->settling = self->settling_dirs > 0;
  if (self->pending_sum != self->pending)
    {
      self->pending = self->pending_sum;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* File systems whose changes inotify does not see: changes made by other
 * machines never reach the local kernel. */
static gboolean
is_network_fs (const char *path)
{
  static const long network[] = {
    0x6969,     /* NFS */
    0x517B,     /* SMB */
    0xFF534D42, /* CIFS */
    0xFE534D42, /* SMB2 */
    0x65735546, /* FUSE (sshfs and others) */
    0x00C36400, /* Ceph */
    0x01021997, /* 9p */
    0x5346414F, /* AFS */
    0x0BD00BD0, /* Lustre */
    0x47504653, /* GPFS */
    0x73757245, /* Coda */
  };
  struct statfs sf;

  if (statfs (path, &sf) != 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (network); i++)
    if ((long) (unsigned int) sf.f_type == network[i])
      return TRUE;
  return FALSE;
}

/* Half of the user's inotify watches: the rest is left to other programs. */
static guint
read_watch_limit (void)
{
  g_autofree char *text = NULL;
  guint64 max = 8192;

  if (g_file_get_contents ("/proc/sys/fs/inotify/max_user_watches", &text, NULL, NULL))
    max = g_ascii_strtoull (text, NULL, 10);
  return (guint) MAX (max / 2, 1);
}

static void
set_description (OviFolderWatch *self)
{
  g_autofree char *old = g_steal_pointer (&self->description);

  if (self->mode == OVI_WATCH_MODE_MONITOR && self->fallback_reason)
    self->description = g_strdup_printf (
        _ ("following changes as the system reports them, and reading the folders it cannot "
           "follow again every second: %s"),
        self->fallback_reason);
  else if (self->mode == OVI_WATCH_MODE_MONITOR)
    self->description = g_strdup (_ ("following changes as the system reports them"));
  else if (self->poll_reason)
    self->description =
        g_strdup_printf (_ ("reading the folder again every second: %s"), self->poll_reason);
  else
    self->description = g_strdup (_ ("reading the folder again every second"));
  if (g_strcmp0 (old, self->description) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DESCRIPTION]);
}

static gboolean tick (gpointer data);

static void
restart_timer (OviFolderWatch *self)
{
  g_clear_handle_id (&self->timer, g_source_remove);
  self->timer =
      g_timeout_add (self->mode == OVI_WATCH_MODE_POLL ? POLL_MS : PENDING_MS, tick, self);
}

/* The kernel cannot follow this tree: every folder is polled from now on. */
static void
switch_to_poll (OviFolderWatch *self, const char *reason)
{
  GHashTableIter iter;
  gpointer value;

  if (self->mode == OVI_WATCH_MODE_POLL)
    return;
  g_debug ("following %s by polling: %s", ovi_dump_folder_get_root_path (self->folder), reason);
  self->mode = OVI_WATCH_MODE_POLL;
  self->poll_reason = reason;
  g_clear_pointer (&self->inotify, ovi_inotify_free);
  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Dir *dir = value;

      dir->wd = -1;
      dir->passed = FALSE;
      update_active (self, dir);
      queue_dir (self, dir); /* what happened since the watch went */
    }
  set_description (self);
  restart_timer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

static gboolean
switch_later (gpointer data)
{
  OviFolderWatch *self = data;

  if (self->running)
    switch_to_poll (self, _ ("the system dropped change notifications (its queue overflowed)"));
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

/* The kernel's queue of events overflowed: which folders lost events is
 * not known, so every one is polled from now on (and read again in full).
 * Not from within the reading of the events, whose instance goes. */
static void
inotify_overflowed (gpointer data)
{
  g_idle_add (switch_later, g_object_ref (data));
}

static gboolean
kick (gpointer data)
{
  OviFolderWatch *self = data;

  self->kick = 0;
  schedule (self);
  return G_SOURCE_REMOVE;
}

static void
queue_dir (OviFolderWatch *self, Dir *dir)
{
  if (!dir->queued)
    {
      dir->queued = TRUE;
      g_queue_push_tail (&self->queue, g_strdup (dir->relative));
    }
  if (self->kick == 0 && !self->passing)
    self->kick = g_timeout_add (KICK_MS, kick, self);
}

static void
inotify_changed (gpointer data, const char *name, gboolean closed, gpointer user_data)
{
  Dir *dir = data;

  /* Written in full: closed after writing, or moved into place. */
  if (name && closed)
    g_hash_table_add (dir->closed, g_strdup (name));
  if (name)
    g_hash_table_add (dir->changed, g_strdup (name));
  queue_dir (dir->watch, dir);
}

static char *
parent_of (const char *relative)
{
  char *parent = g_path_get_dirname (relative);

  if (g_str_equal (parent, "."))
    *parent = '\0';
  return parent;
}

/* Asks the system to report the changes of @dir; when it cannot, @dir is
 * polled, and the description says why. */
static void
watch_dir (OviFolderWatch *self, Dir *dir, const char *path)
{
  g_autoptr (GError) error = NULL;

  if (g_hash_table_size (self->dirs) > self->watch_limit)
    {
      switch_to_poll (self, _ ("more folders than the system lets one program monitor"));
      return;
    }
  if ((dir->wd = ovi_inotify_add (self->inotify, path, dir, &error)) >= 0)
    return;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return; /* gone already: its pass finds it so */
  g_debug ("polling %s: %s", path, error->message);
  if (self->fallback_reason == NULL)
    {
      self->fallback_reason =
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE)
              ? _ ("the system’s inotify watches are used up (fs.inotify.max_user_watches)")
              : _ ("the system cannot report their changes");
      set_description (self);
    }
}

static void
add_dir (OviFolderWatch *self, const char *relative)
{
  g_autofree char *path = dir_path (self, relative);
  g_autofree char *parent_path = NULL;
  g_autofree char *inode = NULL;
  struct stat st;
  Dir *dir, *parent;

  if (g_hash_table_contains (self->dirs, relative) || mtime_of (path, &st) < 0)
    return;
  inode = g_strdup_printf ("%lu:%lu", (gulong) st.st_dev, (gulong) st.st_ino);
  if (g_hash_table_contains (self->inodes, inode))
    return; /* reached again through a link */
  dir = g_new0 (Dir, 1);
  dir->inode = g_steal_pointer (&inode);
  g_hash_table_add (self->inodes, dir->inode);
  dir->watch = self;
  dir->relative = g_strdup (relative);
  dir->wd = -1;
  dir->children = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dir->closed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dir->changed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dir->mtime = -1;
  g_hash_table_insert (self->dirs, dir->relative, dir);
  if (*relative && (parent = g_hash_table_lookup (self->dirs, parent_path = parent_of (relative))))
    g_hash_table_add (parent->children, g_strdup (relative));

  if (self->mode == OVI_WATCH_MODE_MONITOR)
    watch_dir (self, dir, path);
  update_active (self, dir);
  queue_dir (self, dir);
}

/* Forgets @dir and every folder below it. */
static void
remove_dir (OviFolderWatch *self, Dir *dir)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, dir->children);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      Dir *child = g_hash_table_lookup (self->dirs, key);
      if (child)
        remove_dir (self, child);
    }
  if (self->walked)
    ovi_dump_folder_count_seen (self->folder, dir->files_seen, 0);
  set_dir_state (self, dir, 0, FALSE);
  g_hash_table_remove (self->active, dir);
  /* Its inode may come back as another folder. */
  g_hash_table_remove (self->inodes, dir->inode);
  g_hash_table_remove (self->dirs, dir->relative);
}

static void
remove_dirs (OviFolderWatch *self, const char *relative)
{
  g_autofree char *parent_path = parent_of (relative);
  Dir *dir = g_hash_table_lookup (self->dirs, relative);
  Dir *parent = *relative ? g_hash_table_lookup (self->dirs, parent_path) : NULL;

  if (parent)
    g_hash_table_remove (parent->children, relative);
  if (dir)
    remove_dir (self, dir);
}

/* Whether an entry of polled @dir found broken has changed since: writing
 * into a file leaves its folder's time as it was. */
static gboolean
broken_changed (OviFolderWatch *self, Dir *dir)
{
  g_autofree char *path = NULL;
  GHashTableIter iter;
  gpointer entry, before;
  gboolean changed = FALSE;
  int dirfd;

  if (dir->broken == NULL || g_hash_table_size (dir->broken) == 0)
    return FALSE;
  path = dir_path (self, dir->relative);
  if ((dirfd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return TRUE; /* its pass finds out */
  g_hash_table_iter_init (&iter, dir->broken);
  while (!changed && g_hash_table_iter_next (&iter, &entry, &before))
    {
      g_autofree char *now = ovi_level_entry_signature (dirfd, entry);
      changed = !g_str_equal (now, before);
    }
  close (dirfd);
  return changed;
}

static gboolean
tick (gpointer data)
{
  OviFolderWatch *self = data;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->active);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Dir *dir = value;

      if (dir->queued)
        continue; /* looked at soon anyway */
      if (dir->pending || dir->settling)
        queue_dir (self, dir);
      /* Polled, once the first walk is over: until then, looking at every
       * folder passed already each second would make the walk quadratic,
       * and the tick after it sees what changed meanwhile. */
      else if (dir->wd < 0 && self->walked)
        {
          g_autofree char *path = dir_path (self, dir->relative);
          struct stat st;

          if (mtime_of (path, &st) != dir->mtime || broken_changed (self, dir))
            queue_dir (self, dir);
        }
    }
  return G_SOURCE_CONTINUE;
}

static void
pass_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OviFolderWatch *self = source;

  ovi_level_scan (task_data, self->folder, cancellable);
  g_task_return_boolean (task, TRUE);
}

static void
finish_walk (OviFolderWatch *self)
{
  GHashTableIter iter;
  gpointer value;
  guint seen = 0;
  OviScanProgress progress;

  if (self->walked || self->passing || !g_queue_is_empty (&self->queue))
    return;
  /* From now on, the folder counts what the passes see. */
  self->walked = TRUE;
  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    seen += ((Dir *) value)->files_seen;
  ovi_dump_folder_get_progress (self->folder, &progress);
  ovi_dump_folder_count_seen (self->folder, (guint) progress.files_seen, seen);
}

static void
pass_done (GObject *source, GAsyncResult *result, gpointer data)
{
  OviFolderWatch *self = OVI_FOLDER_WATCH (source);
  OviLevel *level = g_task_get_task_data (G_TASK (result));
  const char *relative = ovi_level_get_relative_dir (level);
  g_autoptr (GPtrArray) arrived = NULL;
  GPtrArray *subdirs;
  Dir *dir;

  self->passing = FALSE;
  if (!self->running || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;

  /* A folder gone with the folder opened is the folder opened gone. */
  if (ovi_level_get_gone (level) &&
      (*relative == '\0' ||
       !g_file_test (ovi_dump_folder_get_root_path (self->folder), G_FILE_TEST_IS_DIR)))
    {
      /* The folder opened is gone: what it showed stays. */
      self->root_gone = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROOT_GONE]);
      ovi_folder_watch_stop (self);
      return;
    }
  arrived = ovi_level_apply (level, self->folder);
  if (ovi_level_get_gone (level))
    remove_dirs (self, relative);
  else if ((dir = g_hash_table_lookup (self->dirs, relative)))
    {
      g_autoptr (GHashTable) found = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr (GPtrArray) lost = g_ptr_array_new ();
      GHashTableIter iter;
      gpointer key;

      set_dir_state (self, dir, ovi_level_get_pending (level), ovi_level_get_settling (level));
      g_clear_pointer (&dir->broken, g_hash_table_unref);
      if (dir->wd < 0)
        dir->broken = ovi_level_steal_broken (level);
      if (self->walked)
        ovi_dump_folder_count_seen (self->folder, dir->files_seen,
                                    ovi_level_get_files_seen (level));
      dir->files_seen = ovi_level_get_files_seen (level);
      subdirs = ovi_level_get_subdirs (level);
      for (guint i = 0; i < subdirs->len; i++)
        {
          add_dir (self, g_ptr_array_index (subdirs, i));
          g_hash_table_add (found, g_ptr_array_index (subdirs, i));
        }
      /* Folders it held that it does not hold any more: their own pass
       * finds them gone. */
      g_hash_table_iter_init (&iter, dir->children);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (found, key))
          g_ptr_array_add (lost, key);
      for (guint i = 0; i < lost->len; i++)
        {
          Dir *child = g_hash_table_lookup (self->dirs, g_ptr_array_index (lost, i));
          if (child)
            queue_dir (self, child);
        }
    }
  finish_walk (self);
  notify_state (self);
  if (arrived->len)
    g_signal_emit (self, signals[RECORDS_ARRIVED], 0, arrived);
  schedule (self);
}

static void
schedule (OviFolderWatch *self)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *relative = NULL;
  g_autofree char *path = NULL;
  GHashTable *closed, *changed;
  struct stat st;
  Dir *dir = NULL;

  if (!self->running || self->paused || self->passing)
    return;
  /* The previous pass's files are still going into the list: the next
   * pass must see them there. */
  if (ovi_dump_folder_get_delivering (self->folder))
    {
      if (self->kick == 0)
        self->kick = g_timeout_add (KICK_MS / 10, kick, self);
      return;
    }
  while (dir == NULL && (relative = g_queue_pop_head (&self->queue)))
    if (!(dir = g_hash_table_lookup (self->dirs, relative)))
      g_clear_pointer (&relative, g_free);
  if (dir == NULL)
    {
      finish_walk (self);
      notify_state (self);
      return;
    }
  dir->queued = FALSE;
  path = dir_path (self, relative);
  dir->mtime = mtime_of (path, &st);
  closed = dir->closed;
  dir->closed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  changed = dir->changed;
  dir->changed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->passing = TRUE;
  task = g_task_new (self, self->cancellable, pass_done, NULL);
  g_task_set_source_tag (task, schedule);
  /* Once a watched folder has been read, only what the system reports of
   * it is looked at again. */
  g_task_set_task_data (task,
                        ovi_level_new (self->folder, relative, closed,
                                       dir->wd >= 0 && dir->passed ? changed : NULL,
                                       (gint64) self->quiet_ms * 1000),
                        (GDestroyNotify) ovi_level_free);
  dir->passed = dir->wd >= 0;
  g_hash_table_unref (closed);
  g_hash_table_unref (changed);
  ovi_worker_run_in_thread (task, pass_thread);
}

/**
 * ovi_folder_watch_start:
 *
 * Starts following the folder, once its load is over: a first pass over
 * every folder below it picks up what was written since, then changes are
 * followed as they come. A folder opened as a single file is not followed:
 * #OviFolderWatch:running stays %FALSE.
 */
void
ovi_folder_watch_start (OviFolderWatch *self)
{
  g_autoptr (GError) error = NULL;
  const char *root;

  g_return_if_fail (OVI_IS_FOLDER_WATCH (self));

  root = ovi_dump_folder_get_root_path (self->folder);
  /* A single file opened on its own is not followed. */
  if (self->running || !g_file_test (root, G_FILE_TEST_IS_DIR))
    return;
  self->running = TRUE;
  self->walked = FALSE;
  self->root_gone = FALSE;
  self->cancellable = g_cancellable_new ();
  self->watch_limit = read_watch_limit ();
  self->mode = self->requested;
  self->poll_reason = NULL;
  self->fallback_reason = NULL;
  if (self->mode == OVI_WATCH_MODE_AUTO)
    {
      self->mode = OVI_WATCH_MODE_MONITOR;
      if (is_network_fs (root))
        {
          self->mode = OVI_WATCH_MODE_POLL;
          self->poll_reason = _ ("changes on a network file system are not reported");
        }
    }
  if (self->mode == OVI_WATCH_MODE_MONITOR &&
      !(self->inotify = ovi_inotify_new (inotify_changed, inotify_overflowed, self, &error)))
    {
      g_debug ("following %s by polling: %s", root, error->message);
      self->mode = OVI_WATCH_MODE_POLL;
      self->poll_reason =
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_OPEN_FILES)
              ? _ ("the system’s inotify instances are used up (fs.inotify.max_user_instances)")
              : _ ("the system cannot report changes");
    }
  /* Said on every start, even in the same words. */
  g_clear_pointer (&self->description, g_free);
  set_description (self);
  add_dir (self, "");
  restart_timer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  notify_state (self);
  schedule (self);
}

/**
 * ovi_folder_watch_stop:
 *
 * Stops following; what the folder shows stays.
 */
void
ovi_folder_watch_stop (OviFolderWatch *self)
{
  g_return_if_fail (OVI_IS_FOLDER_WATCH (self));

  if (!self->running)
    return;
  self->running = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->timer, g_source_remove);
  g_clear_handle_id (&self->kick, g_source_remove);
  g_queue_clear_full (&self->queue, g_free);
  /* Closing the instance drops every watch at once. */
  g_clear_pointer (&self->inotify, ovi_inotify_free);
  g_hash_table_remove_all (self->active);
  g_hash_table_remove_all (self->inodes);
  g_hash_table_remove_all (self->dirs);
  self->pending_sum = self->settling_dirs = 0;
  self->passing = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  notify_state (self);
}

OviFolderWatch *
ovi_folder_watch_new (OviDumpFolder *folder, OviWatchMode mode)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), NULL);

  return g_object_new (OVI_TYPE_FOLDER_WATCH, "folder", folder, "requested-mode", mode, NULL);
}

OviDumpFolder *
ovi_folder_watch_get_folder (OviFolderWatch *self)
{
  return self->folder;
}

OviWatchMode
ovi_folder_watch_get_mode (OviFolderWatch *self)
{
  return self->mode;
}

/* Which mode is in use and why, in words. */
const char *
ovi_folder_watch_describe_mode (OviFolderWatch *self)
{
  return self->description;
}

gboolean
ovi_folder_watch_get_running (OviFolderWatch *self)
{
  return self->running;
}

gboolean
ovi_folder_watch_get_paused (OviFolderWatch *self)
{
  return self->paused;
}

/* A paused watch notes changes and reads them once it goes on. */
void
ovi_folder_watch_set_paused (OviFolderWatch *self, gboolean paused)
{
  g_return_if_fail (OVI_IS_FOLDER_WATCH (self));

  paused = !!paused;
  if (self->paused == paused)
    return;
  self->paused = paused;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
  notify_state (self);
  schedule (self);
}

/* Files seen still being written, not read yet. */
guint
ovi_folder_watch_get_pending (OviFolderWatch *self)
{
  return self->pending;
}

/* Whether changes are waiting to be read: a pass is running or queued,
 * files are still being written or going into the folder's list, or a
 * folder written to a moment ago is to be looked at again. */
gboolean
ovi_folder_watch_get_busy (OviFolderWatch *self)
{
  return self->running &&
         (self->passing || !g_queue_is_empty (&self->queue) || self->pending > 0 ||
          self->settling || !self->walked || ovi_dump_folder_get_delivering (self->folder));
}

gboolean
ovi_folder_watch_get_root_gone (OviFolderWatch *self)
{
  return self->root_gone;
}

/* For tests: how long a file must stay unchanged before it is read. */
void
ovi_folder_watch_set_quiet_ms (OviFolderWatch *self, guint quiet_ms)
{
  self->quiet_ms = quiet_ms;
}

static void
ovi_folder_watch_dispose (GObject *object)
{
  OviFolderWatch *self = OVI_FOLDER_WATCH (object);

  ovi_folder_watch_stop (self);
  g_clear_object (&self->folder);
  G_OBJECT_CLASS (ovi_folder_watch_parent_class)->dispose (object);
}

static void
ovi_folder_watch_finalize (GObject *object)
{
  OviFolderWatch *self = OVI_FOLDER_WATCH (object);

  g_hash_table_unref (self->active);
  g_hash_table_unref (self->dirs);
  g_hash_table_unref (self->inodes);
  g_free (self->description);
  G_OBJECT_CLASS (ovi_folder_watch_parent_class)->finalize (object);
}

static void
ovi_folder_watch_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviFolderWatch *self = OVI_FOLDER_WATCH (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      g_value_set_object (value, self->folder);
      break;
    case PROP_REQUESTED_MODE:
      g_value_set_enum (value, self->requested);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    case PROP_PENDING:
      g_value_set_uint (value, self->pending);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, ovi_folder_watch_get_busy (self));
      break;
    case PROP_ROOT_GONE:
      g_value_set_boolean (value, self->root_gone);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_folder_watch_set_property (GObject *object,
                               guint prop_id,
                               const GValue *value,
                               GParamSpec *pspec)
{
  OviFolderWatch *self = OVI_FOLDER_WATCH (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      self->folder = g_value_dup_object (value);
      break;
    case PROP_REQUESTED_MODE:
      self->requested = g_value_get_enum (value);
      break;
    case PROP_PAUSED:
      ovi_folder_watch_set_paused (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_folder_watch_class_init (OviFolderWatchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ovi_folder_watch_dispose;
  object_class->finalize = ovi_folder_watch_finalize;
  object_class->get_property = ovi_folder_watch_get_property;
  object_class->set_property = ovi_folder_watch_set_property;

  properties[PROP_FOLDER] =
      g_param_spec_object ("folder", NULL, NULL, OVI_TYPE_DUMP_FOLDER,
                           G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REQUESTED_MODE] =
      g_param_spec_enum ("requested-mode", NULL, NULL, OVI_TYPE_WATCH_MODE, OVI_WATCH_MODE_AUTO,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODE] =
      g_param_spec_enum ("mode", NULL, NULL, OVI_TYPE_WATCH_MODE, OVI_WATCH_MODE_AUTO,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* ovi_folder_watch_describe_mode(): changes when folders come to be
   * polled, not only with the mode. */
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAUSED] =
      g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PENDING] = g_param_spec_uint ("pending", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
      g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ROOT_GONE] = g_param_spec_boolean ("root-gone", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * OviFolderWatch::records-arrived:
   * @records: (element-type OviOverflowRecord): the records that are new
   *
   * Emitted on the main context after a pass added overflow records.
   */
  signals[RECORDS_ARRIVED] =
      g_signal_new ("records-arrived", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);
}

static void
ovi_folder_watch_init (OviFolderWatch *self)
{
  self->quiet_ms = DEFAULT_QUIET_MS;
  self->dirs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) dir_free);
  self->inodes = g_hash_table_new (g_str_hash, g_str_equal); /* keys are the Dirs' */
  self->active = g_hash_table_new (NULL, NULL);
  g_queue_init (&self->queue);
}
