/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "ovi-dump-folder-private.h"
#include "ovi-folder-enums.h"
#include "ovi-folder-watch.h"
#include "ovi-level.h"
#include "ovi-worker.h"

/* Follows a dump folder while a run writes into it: new files, iterations,
 * models and devices appear in the folder's stores as they are written,
 * files deleted or replaced are removed or read again, and files still
 * being written wait until they have stopped changing.
 *
 * Every change is handled by a pass over one folder (ovi_level_new(),
 * ovi_level_scan() on a worker thread, then
 * ovi_level_apply()), one pass at a time. What starts a pass:
 * GFileMonitor events (inotify) in OVI_WATCH_MODE_MONITOR, the folder's own
 * time changing in OVI_WATCH_MODE_POLL, and in both modes a folder that
 * still holds files being written. */

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
  GFileMonitor *monitor;
  GHashTable *closed;  /* entries written in full since the last pass */
  GHashTable *changed; /* entries the monitor reported since the last pass */
  gboolean passed;     /* had a pass since its monitor was set up */
  gint64 mtime;        /* the folder's own, when its last pass started */
  guint files_seen;    /* entries its last pass saw */
  guint pending;       /* entries its last pass found still being written */
  gboolean settling;   /* written to too recently to look for records in the data */
  gboolean queued;
} Dir;

struct _OviFolderWatch
{
  GObject parent_instance;

  OviDumpFolder *folder;
  OviWatchMode requested;
  OviWatchMode mode;
  const char *poll_reason; /* why polling, when it was not asked for */
  char *description;
  guint quiet_ms;
  GHashTable *dirs;   /* relative path -> Dir */
  GHashTable *inodes; /* "dev:ino" of the folders followed: links make no loops */
  GQueue queue;       /* relative paths waiting for a pass */
  GCancellable *cancellable;
  guint timer;
  guint kick;
  guint watch_limit;
  gboolean running;
  gboolean paused;
  gboolean root_gone;
  gboolean passing;
  gboolean walked;   /* every folder has had its first pass */
  gboolean settling; /* some folder changed too recently for records in its data */
  guint pending;
};

G_DEFINE_FINAL_TYPE (OviFolderWatch, ovi_folder_watch, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FOLDER,
  PROP_REQUESTED_MODE,
  PROP_MODE,
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
  if (dir->monitor)
    {
      g_signal_handlers_disconnect_by_data (dir->monitor, dir);
      g_file_monitor_cancel (dir->monitor);
      g_object_unref (dir->monitor);
    }
  g_hash_table_unref (dir->closed);
  g_hash_table_unref (dir->changed);
  g_free (dir->relative);
  g_free (dir);
}

static gint64
mtime_of (const char *path, struct stat *st)
{
  if (stat (path, st) != 0)
    return -1;
  return (gint64) st->st_mtim.tv_sec * G_USEC_PER_SEC + st->st_mtim.tv_nsec / 1000;
}

static void
notify_state (OviFolderWatch *self)
{
  guint pending = 0;
  GHashTableIter iter;
  gpointer value;

  self->settling = FALSE;
  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      pending += ((Dir *) value)->pending;
      self->settling |= ((Dir *) value)->settling;
    }
  if (pending != self->pending)
    {
      self->pending = pending;
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
  g_free (self->description);
  if (self->mode == OVI_WATCH_MODE_MONITOR)
    self->description = g_strdup (_ ("following changes as the system reports them"));
  else if (self->poll_reason)
    self->description =
        g_strdup_printf (_ ("reading the folder again every second: %s"), self->poll_reason);
  else
    self->description = g_strdup (_ ("reading the folder again every second"));
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
  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Dir *dir = value;
      if (dir->monitor)
        {
          g_signal_handlers_disconnect_by_data (dir->monitor, dir);
          g_file_monitor_cancel (dir->monitor);
          g_clear_object (&dir->monitor);
        }
      queue_dir (self, dir); /* what happened since the monitor went */
    }
  set_description (self);
  restart_timer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
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
monitor_changed (
    GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event, gpointer data)
{
  Dir *dir = data;
  GFile *done = NULL;

  /* Written in full: closed after writing, or renamed into place. */
  if (event == G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT || event == G_FILE_MONITOR_EVENT_MOVED_IN)
    done = file;
  else if (event == G_FILE_MONITOR_EVENT_RENAMED)
    done = other;
  if (done)
    g_hash_table_add (dir->closed, g_file_get_basename (done));
  g_hash_table_add (dir->changed, g_file_get_basename (file));
  if (other)
    g_hash_table_add (dir->changed, g_file_get_basename (other));
  queue_dir (dir->watch, dir);
}

static void
add_dir (OviFolderWatch *self, const char *relative)
{
  g_autofree char *path = dir_path (self, relative);
  g_autoptr (GError) error = NULL;
  struct stat st;
  char *inode;
  Dir *dir;

  if (g_hash_table_contains (self->dirs, relative) || mtime_of (path, &st) < 0)
    return;
  inode = g_strdup_printf ("%lu:%lu", (gulong) st.st_dev, (gulong) st.st_ino);
  if (!g_hash_table_add (self->inodes, inode))
    return; /* reached again through a link */
  dir = g_new0 (Dir, 1);
  dir->watch = self;
  dir->relative = g_strdup (relative);
  dir->closed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dir->changed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dir->mtime = -1;
  g_hash_table_insert (self->dirs, dir->relative, dir);

  if (self->mode == OVI_WATCH_MODE_MONITOR)
    {
      g_autoptr (GFile) gfile = g_file_new_for_path (path);

      if (g_hash_table_size (self->dirs) > self->watch_limit)
        switch_to_poll (self, _ ("more folders than the system lets one program monitor"));
      else if (!(dir->monitor =
                     g_file_monitor_directory (gfile, G_FILE_MONITOR_WATCH_MOVES, NULL, &error)))
        switch_to_poll (self, _ ("the file system cannot report changes"));
      else
        g_signal_connect (dir->monitor, "changed", G_CALLBACK (monitor_changed), dir);
    }
  queue_dir (self, dir);
}

/* Forgets @relative and every folder below it. */
static void
remove_dirs (OviFolderWatch *self, const char *relative)
{
  g_autofree char *prefix = g_strconcat (relative, "/", NULL);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Dir *dir = value;

      if (!g_str_equal (key, relative) && !g_str_has_prefix (key, prefix))
        continue;
      if (self->walked)
        ovi_dump_folder_count_seen (self->folder, dir->files_seen, 0);
      g_hash_table_iter_remove (&iter);
    }
  /* Their inodes may come back as other folders. */
  g_hash_table_remove_all (self->inodes);
  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *path = dir_path (self, key);
      struct stat st;

      if (mtime_of (path, &st) >= 0)
        g_hash_table_add (self->inodes,
                          g_strdup_printf ("%lu:%lu", (gulong) st.st_dev, (gulong) st.st_ino));
    }
}

static gboolean
tick (gpointer data)
{
  OviFolderWatch *self = data;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Dir *dir = value;

      if (dir->pending || dir->settling)
        queue_dir (self, dir);
      else if (self->mode == OVI_WATCH_MODE_POLL)
        {
          g_autofree char *path = dir_path (self, dir->relative);
          struct stat st;

          if (mtime_of (path, &st) != dir->mtime)
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
      GHashTableIter iter;
      gpointer key;

      dir->pending = ovi_level_get_pending (level);
      dir->settling = ovi_level_get_settling (level);
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
      g_hash_table_iter_init (&iter, self->dirs);
      while (g_hash_table_iter_next (&iter, &key, (gpointer *) &dir))
        {
          g_autofree char *parent = g_path_get_dirname (key);

          if (*(char *) key && !g_hash_table_contains (found, key) &&
              g_str_equal (g_str_equal (parent, ".") ? "" : parent, relative))
            queue_dir (self, dir);
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
  /* Once a monitored folder has been read, only what its monitor reports
   * is looked at again. */
  g_task_set_task_data (task,
                        ovi_level_new (self->folder, relative, closed,
                                       dir->monitor && dir->passed ? changed : NULL,
                                       (gint64) self->quiet_ms * 1000),
                        (GDestroyNotify) ovi_level_free);
  dir->passed = dir->monitor != NULL;
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
  if (self->mode == OVI_WATCH_MODE_AUTO)
    {
      self->mode = OVI_WATCH_MODE_MONITOR;
      if (is_network_fs (root))
        {
          self->mode = OVI_WATCH_MODE_POLL;
          self->poll_reason = _ ("changes on a network file system are not reported");
        }
    }
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
  g_hash_table_remove_all (self->dirs);
  g_hash_table_remove_all (self->inodes);
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
  self->inodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&self->queue);
}
