/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* copy_file_range */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-atomic-file.h"
#include "ovi-error.h"
#include "ovi-regular-file.h"

#define BUFFER_SIZE OVI_ATOMIC_FILE_BUFFER_SIZE

struct _OviAtomicFile
{
  char *path;
  char *tmp_path;   /* the named temporary file, while it exists */
  int slot;         /* tmp_path's place among the temporaries, or -1 */
  const char *name; /* in path; the name in dirfd */
  int fd;
  int dirfd; /* path's folder, or -1: path is looked up whole */
  gboolean overwrite;
  gboolean through; /* fd is the destination itself: a device or a FIFO */
  char *buffer;
  gsize buffered;
  gsize capacity;
};

static void
set_write_error (GError **error, const char *path, int errsv)
{
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE, _ ("cannot write %s: %s"), display,
               g_strerror (errsv));
}

/* Whether linkat() can give an O_TMPFILE file a name, through its
 * /proc/self/fd entry (the only way without CAP_DAC_READ_SEARCH). Checked
 * once a process, not once a file. */
static gboolean
can_link_tmpfiles (void)
{
  static gsize checked;
  static gboolean ok;

  if (g_once_init_enter (&checked))
    {
      ok = access ("/proc/self/fd", F_OK) == 0;
      g_once_init_leave (&checked, 1);
    }
  return ok;
}

/* Whether linkat(fd, "", ..., AT_EMPTY_PATH) names an unnamed file: it
 * needs CAP_DAC_READ_SEARCH before Linux 6.10, and then a file this process
 * opened. It saves the kernel the walk through /proc/self/fd. Cleared, for
 * the whole process, the first time it is refused. */
static gint empty_path_link = TRUE;

/* Named temporary files.
 *
 * An unnamed file (O_TMPFILE) leaves nothing behind whatever happens to the
 * process. Where the file system has none, and for the instant in which an
 * unnamed file replacing another is named before it is renamed over it, a
 * temporary file exists beside the destination. Its name says whose it is:
 * ".NAME.ovi-PID@HOST.XXXXXX". A process that dies on SIGTERM, SIGINT or
 * SIGHUP removes its own first (ovi_atomic_file_remove_temporaries(),
 * called by the program's handler); one killed outright leaves it, and the
 * next process to write into that folder removes it once the writer, on
 * this machine, is gone. */

#define TMP_MARK ".ovi-"
#define TMP_RANDOM 6 /* the characters after the last dot */

/* The temporaries that exist now, for a signal handler to remove: a fixed
 * table, claimed and given back with atomic operations only. */
#define N_SLOTS 256

enum
{
  SLOT_FREE,
  SLOT_FILLING, /* its path is being written */
  SLOT_LIVE,    /* names a temporary file that exists */
  SLOT_DYING,   /* taken by ovi_atomic_file_remove_temporaries() */
};

static struct
{
  gint state;
  char path[4096];
} slots[N_SLOTS];

static int
slot_claim (const char *path)
{
  if (strlen (path) >= sizeof slots[0].path)
    return -1;
  for (int i = 0; i < N_SLOTS; i++)
    if (g_atomic_int_compare_and_exchange (&slots[i].state, SLOT_FREE, SLOT_FILLING))
      {
        strcpy (slots[i].path, path);
        g_atomic_int_set (&slots[i].state, SLOT_LIVE);
        return i;
      }
  return -1; /* more at once than slots: the next run removes what is left */
}

/* Once the temporary is gone or renamed. A slot the handler took stays
 * taken: the process is ending. */
static void
slot_release (int slot)
{
  if (slot >= 0)
    g_atomic_int_compare_and_exchange (&slots[slot].state, SLOT_LIVE, SLOT_FREE);
}

/**
 * ovi_atomic_file_remove_temporaries:
 *
 * Removes every named temporary file this process has open, for a handler
 * of SIGTERM, SIGINT or SIGHUP to call before the process ends: it uses
 * only async-signal-safe calls, and files being written stay unnamed or
 * are removed, never left half written under a hidden name.
 */
void
ovi_atomic_file_remove_temporaries (void)
{
  int saved = errno;

  for (int i = 0; i < N_SLOTS; i++)
    if (g_atomic_int_compare_and_exchange (&slots[i].state, SLOT_LIVE, SLOT_DYING))
      unlink (slots[i].path);
  errno = saved;
}

/* This machine's name as it goes into a temporary's name: no dot, no
 * slash, at most 32 bytes. */
static const char *
host_tag (void)
{
  static gsize tag;

  if (g_once_init_enter (&tag))
    {
      char *t = g_strndup (g_get_host_name (), 32);

      for (char *p = t; *p; p++)
        if (!g_ascii_isalnum (*p) && *p != '-')
          *p = '_';
      g_once_init_leave (&tag, (gsize) t);
    }
  return (const char *) tag;
}

/* "DIR/.NAME.ovi-PID@HOST.XXXXXX" with XXXXXX random; NAME is cut so that
 * the whole name stays within NAME_MAX. */
static char *
temporary_name (const char *dir, const char *base)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  g_autofree char *tail = g_strdup_printf (TMP_MARK "%d@%s.", (int) getpid (), host_tag ());
  gsize room = 255 - 1 - strlen (tail) - TMP_RANDOM;
  GString *name = g_string_new (dir);

  g_string_append_printf (name, "%s.%.*s%s", G_DIR_SEPARATOR_S, (int) MIN (strlen (base), room),
                          base, tail);
  for (int i = 0; i < TMP_RANDOM; i++)
    g_string_append_c (name, letters[g_random_int_range (0, sizeof letters - 1)]);
  return g_string_free (name, FALSE);
}

/* Whether @name is a temporary file of this program whose writer, a
 * process of this machine, no longer exists. */
static gboolean
is_stale_temporary (const char *name)
{
  gsize length = strlen (name);
  g_autofree char *head = NULL;
  const char *mark, *at, *end;
  char *digits_end;
  long pid;

  if (name[0] != '.' || length < 1 + strlen (TMP_MARK) + 3 + TMP_RANDOM)
    return FALSE;
  for (gsize i = length - TMP_RANDOM; i < length; i++)
    if (!g_ascii_isalnum (name[i]))
      return FALSE;
  if (name[length - TMP_RANDOM - 1] != '.')
    return FALSE;
  head = g_strndup (name, length - TMP_RANDOM - 1);
  if (!(mark = g_strrstr (head, TMP_MARK)))
    return FALSE;
  end = head + strlen (head);
  pid = strtol (mark + strlen (TMP_MARK), &digits_end, 10);
  at = digits_end;
  if (at == mark + strlen (TMP_MARK) || *at != '@' || pid <= 0 || pid > G_MAXINT)
    return FALSE;
  if (!g_str_equal (at + 1, host_tag ()) || at + 1 + strlen (host_tag ()) != end)
    return FALSE;
  if ((pid_t) pid == getpid ())
    return FALSE;
  return kill ((pid_t) pid, 0) != 0 && errno == ESRCH;
}

/* Removes the stale temporaries of the folder @dirfd (or @dir) once a
 * process: the first file written there looks, the rest do not (they ask
 * by the folder's name, without a system call). */
static void
remove_stale_temporaries (int dirfd, const char *dir)
{
  static GMutex lock;
  static GHashTable *cleaned; /* the folders looked at, by name */
  struct dirent *ent;
  DIR *listing;
  int fd;

  g_mutex_lock (&lock);
  if (cleaned == NULL)
    cleaned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!g_hash_table_add (cleaned, g_strdup (dir)))
    {
      g_mutex_unlock (&lock);
      return;
    }
  g_mutex_unlock (&lock);
  fd = dirfd >= 0 ? openat (dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                  : open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  if (!(listing = fdopendir (fd)))
    {
      close (fd);
      return;
    }
  while ((ent = readdir (listing)))
    if (ent->d_name[0] == '.' && is_stale_temporary (ent->d_name))
      unlinkat (fd, ent->d_name, 0);
  closedir (listing);
}

/* Creates a named temporary file beside @self's destination, registered
 * for removal on a signal before it exists. */
static gboolean
open_named (OviAtomicFile *self, const char *dir, GError **error)
{
  g_autofree char *base = g_path_get_basename (self->path);

  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *tmp = temporary_name (dir, base);
      int slot = slot_claim (tmp);
      int errsv;

      self->fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      errsv = errno;
      if (self->fd >= 0)
        {
          self->tmp_path = g_steal_pointer (&tmp);
          self->slot = slot;
          return TRUE;
        }
      slot_release (slot);
      if (errsv != EEXIST)
        {
          set_write_error (error, self->path, errsv);
          return FALSE;
        }
    }
  set_write_error (error, self->path, EEXIST);
  return FALSE;
}

/* Whether unnamed files are to be used at all: OVI_ATOMIC_FILE_NAMED=1 in
 * the environment makes every file take the named way, as on a file system
 * without O_TMPFILE (for the tests of that way). */
static gboolean
unnamed_allowed (void)
{
  static gsize checked;
  static gboolean allowed;

  if (g_once_init_enter (&checked))
    {
      allowed = g_strcmp0 (g_getenv ("OVI_ATOMIC_FILE_NAMED"), "1") != 0;
      g_once_init_leave (&checked, 1);
    }
  return allowed;
}

/* Opens the device or FIFO at @path to write into it as it is, as
 * coreutils do: the node stays what it is. A FIFO that no program reads
 * is refused rather than waited on. FALSE with @error set, or TRUE with
 * self->fd -1 when what was opened turned out to be a regular file. */
static gboolean
open_through (OviAtomicFile *self, int at, const char *lookup, GError **error)
{
  g_autofree char *display = g_filename_display_name (self->path);
  struct stat st;
  int fd = openat (at, lookup, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

  if (fd < 0 && errno == ENXIO)
    {
      g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE,
                   _ ("cannot write %s: a FIFO (named pipe) that no program reads"), display);
      return FALSE;
    }
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      set_write_error (error, self->path, errno);
      if (fd >= 0)
        close (fd);
      return FALSE;
    }
  if (S_ISREG (st.st_mode))
    {
      close (fd); /* replaced meanwhile: written as a regular file */
      return TRUE;
    }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  self->fd = fd;
  self->through = TRUE;
  return TRUE;
}

/* Looks at what is at the destination before anything is written: nothing
 * or a regular file is replaced atomically (through a symbolic link, the
 * file it names, the link stays); a character device or a FIFO is written
 * through; anything else is refused. Never is a rename made over anything
 * but a regular file. */
static gboolean
look_at_destination (OviAtomicFile *self, GError **error)
{
  int at = self->dirfd >= 0 ? self->dirfd : AT_FDCWD;
  const char *lookup = self->dirfd >= 0 ? self->name : self->path;
  g_autofree char *display = g_filename_display_name (self->path);
  struct stat st, link_st;

  if (fstatat (at, lookup, &st, 0) != 0)
    {
      /* Nothing there, or a link to nothing, which a rename would replace. */
      if (errno == ENOENT && fstatat (at, lookup, &link_st, AT_SYMLINK_NOFOLLOW) == 0)
        {
          g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE,
                       _ ("cannot write %s: a symbolic link to a file that does not exist"),
                       display);
          return FALSE;
        }
      return TRUE;
    }
  if (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode))
    return open_through (self, at, lookup, error);
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE,
                   _ ("cannot write %s: not a regular file but %s"), display,
                   ovi_regular_file_describe_type (st.st_mode));
      return FALSE;
    }
  if (fstatat (at, lookup, &link_st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK (link_st.st_mode))
    {
      char *real = realpath (self->path, NULL);

      if (real == NULL)
        {
          set_write_error (error, self->path, errno);
          return FALSE;
        }
      g_free (self->path);
      self->path = real;
      self->name = strrchr (real, G_DIR_SEPARATOR) + 1;
      self->dirfd = -1;
    }
  return TRUE;
}

/**
 * ovi_atomic_file_new:
 * @path: the destination
 *
 * Opens an unnamed file (O_TMPFILE) in @path's folder, or, to overwrite or
 * where the file system has no unnamed files, a temporary file beside
 * @path. Nothing appears at @path until ovi_atomic_file_commit() succeeds;
 * an existing regular file at @path is reported then. A character device
 * or a FIFO at @path is written through instead, anything else not a
 * regular file refused (see look_at_destination()). The kernel applies the
 * umask to the mode, as for any new file.
 */
OviAtomicFile *
ovi_atomic_file_new (const char *path, gboolean overwrite, GError **error)
{
  return ovi_atomic_file_new_at (-1, path, overwrite, error);
}

/**
 * ovi_atomic_file_new_at:
 * @dirfd: a descriptor of @path's folder (kept open until the file is
 *   committed or freed), or -1
 * @path: the destination, whole: for messages and the temporary name
 *
 * Like ovi_atomic_file_new(), but the unnamed file is opened and linked
 * relative to @dirfd, so the kernel does not walk @path's folders for each
 * file (a converted tree writes thousands of files into a few folders).
 */
OviAtomicFile *
ovi_atomic_file_new_at (int dirfd, const char *path, gboolean overwrite, GError **error)
{
  g_autofree char *dir = NULL;
  OviAtomicFile *self = g_new0 (OviAtomicFile, 1);
  const char *slash;

  self->path = g_strdup (path);
  slash = strrchr (self->path, G_DIR_SEPARATOR);
  self->name = slash ? slash + 1 : self->path;
  self->overwrite = overwrite;
  self->fd = -1;
  self->slot = -1;
  self->dirfd = dirfd;
  if (!look_at_destination (self, error))
    {
      ovi_atomic_file_free (self);
      return NULL;
    }
  if (self->through)
    return self;
  dir = g_path_get_dirname (self->path);
  remove_stale_temporaries (self->dirfd, dir);
  if (can_link_tmpfiles () && unnamed_allowed ())
    {
      if (self->dirfd >= 0)
        self->fd = openat (self->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
      else
        self->fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
      /* Older kernels say EISDIR, file systems without it EOPNOTSUPP (some
       * FUSE ones, such as the document portal's, ENOSYS). */
      if (self->fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL &&
          errno != ENOSYS)
        {
          set_write_error (error, self->path, errno);
          ovi_atomic_file_free (self);
          return NULL;
        }
    }
  if (self->fd < 0 && !open_named (self, dir, error))
    {
      ovi_atomic_file_free (self);
      return NULL;
    }
  return self;
}

static gboolean
flush (OviAtomicFile *self, GError **error)
{
  gsize done = 0;

  while (done < self->buffered)
    {
      gssize n = write (self->fd, self->buffer + done, self->buffered - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_write_error (error, self->path, errno);
          return FALSE;
        }
      done += n;
    }
  self->buffered = 0;
  return TRUE;
}

/* Grows the buffer to hold @length more bytes, up to BUFFER_SIZE: a small
 * file gets a small buffer (a megabyte for each of thousands of tiny files
 * is mostly page faults). */
static void
reserve (OviAtomicFile *self, gsize length)
{
  gsize want;

  if (self->capacity == BUFFER_SIZE || self->buffered + length <= self->capacity)
    return;
  want = MAX (self->capacity * 2, 4096);
  while (want < self->buffered + length && want < BUFFER_SIZE)
    want *= 2;
  self->capacity = MIN (want, BUFFER_SIZE);
  self->buffer = g_realloc (self->buffer, self->capacity);
}

gboolean
ovi_atomic_file_write (OviAtomicFile *self, const void *data, gsize length, GError **error)
{
  const char *p = data;

  while (length > 0)
    {
      gsize n;

      reserve (self, length);
      n = MIN (length, self->capacity - self->buffered);
      memcpy (self->buffer + self->buffered, p, n);
      self->buffered += n;
      p += n;
      length -= n;
      if (self->buffered == BUFFER_SIZE && !flush (self, error))
        return FALSE;
    }
  return TRUE;
}

/* Appends @length bytes of @in_fd at @offset to the buffer, which then
 * holds all of a small file for one write(). */
gboolean
ovi_atomic_file_read_from (OviAtomicFile *self,
                           int in_fd,
                           guint64 offset,
                           gsize length,
                           const char *in_name,
                           GError **error)
{
  g_assert (self->buffered + length <= BUFFER_SIZE);
  reserve (self, length);
  while (length > 0)
    {
      gssize n = pread (in_fd, self->buffer + self->buffered, length, offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE, _ ("cannot read %s: %s"),
                       in_name, g_strerror (errsv));
          return FALSE;
        }
      if (n == 0)
        {
          g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE,
                       _ ("%s shrank while it was being copied"), in_name);
          return FALSE;
        }
      self->buffered += n;
      offset += n;
      length -= n;
    }
  return TRUE;
}

/* Appends @length bytes of @in_fd at @offset, in the kernel when it can
 * (copy_file_range), else through a small buffer: a 1 GiB tensor never
 * passes through this process's memory. */
gboolean
ovi_atomic_file_copy_from (OviAtomicFile *self,
                           int in_fd,
                           guint64 offset,
                           guint64 length,
                           const char *in_name,
                           GError **error)
{
  off_t in_offset = offset;
  gboolean in_kernel = TRUE;

  if (!flush (self, error))
    return FALSE;
  while (length > 0)
    {
      gssize n;

      if (in_kernel)
        {
          n = copy_file_range (in_fd, &in_offset, self->fd, NULL, MIN (length, 1u << 30), 0);
          if (n < 0 &&
              (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP))
            {
              in_kernel = FALSE;
              continue;
            }
        }
      else
        {
          reserve (self, BUFFER_SIZE);
          n = pread (in_fd, self->buffer, MIN (length, BUFFER_SIZE), in_offset);
          if (n > 0)
            {
              self->buffered = n;
              if (!flush (self, error))
                return FALSE;
              in_offset += n;
            }
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_write_error (error, self->path, errno);
          return FALSE;
        }
      if (n == 0)
        {
          g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_WRITE,
                       _ ("%s shrank while it was being copied"), in_name);
          return FALSE;
        }
      length -= n;
    }
  return TRUE;
}

static void
set_exists_error (GError **error, const char *path)
{
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS,
               _ ("%s already exists (use --force to overwrite)"), display);
}

/* Gives the unnamed file @fd the name @to_name in @to_dir, which must not
 * exist. Returns 0, or an errno. */
static int
link_unnamed (int fd, int to_dir, const char *to_name)
{
  char proc[64];
  int errsv = 0, linked = -1;

  if (g_atomic_int_get (&empty_path_link))
    {
      linked = linkat (fd, "", to_dir, to_name, AT_EMPTY_PATH);
      errsv = errno;
      /* Without the capability: ENOENT (EPERM on some kernels). */
      if (linked != 0 && (errsv == ENOENT || errsv == EPERM || errsv == EINVAL))
        g_atomic_int_set (&empty_path_link, FALSE);
    }
  if (linked != 0 && !g_atomic_int_get (&empty_path_link))
    {
      g_snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
      linked = linkat (AT_FDCWD, proc, to_dir, to_name, AT_SYMLINK_FOLLOW);
      errsv = errno;
    }
  return linked == 0 ? 0 : errsv;
}

/* Replaces the destination with the unnamed file: named under a
 * temporary name (registered for removal on a signal first), renamed over
 * the destination at once. Returns 0, or an errno. */
static int
replace_with_unnamed (OviAtomicFile *self, int fd)
{
  g_autofree char *dir = g_path_get_dirname (self->path);
  g_autofree char *base = g_path_get_basename (self->path);

  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *tmp = temporary_name (dir, base);
      /* Relative to the folder's descriptor when there is one. */
      const char *tmp_name = self->dirfd >= 0 ? strrchr (tmp, G_DIR_SEPARATOR) + 1 : tmp;
      int to_dir = self->dirfd >= 0 ? self->dirfd : AT_FDCWD;
      const char *to_name = self->dirfd >= 0 ? self->name : self->path;
      int slot = slot_claim (tmp);
      int errsv = link_unnamed (fd, to_dir, tmp_name);

      if (errsv == EEXIST)
        {
          slot_release (slot);
          continue;
        }
      if (errsv == 0 && renameat (to_dir, tmp_name, to_dir, to_name) != 0)
        {
          errsv = errno;
          unlinkat (to_dir, tmp_name, 0);
        }
      slot_release (slot);
      return errsv;
    }
  return EEXIST;
}

/**
 * ovi_atomic_file_commit:
 *
 * Puts the written file at its destination in one step. Without
 * %OVI_EXPORT_FLAGS_OVERWRITE an existing file is left alone and an error
 * returned.
 */
gboolean
ovi_atomic_file_commit (OviAtomicFile *self, GError **error)
{
  int fd = self->fd;

  if (!flush (self, error))
    return FALSE;

  if (self->through)
    {
      self->fd = -1;
      if (close (fd) != 0)
        {
          set_write_error (error, self->path, errno);
          return FALSE;
        }
      return TRUE;
    }
  if (self->tmp_path == NULL)
    {
      /* The unnamed file gets its name while it is still open; linkat()
       * refuses to replace, so a file that appeared meanwhile stays. */
      int to_dir = self->dirfd >= 0 ? self->dirfd : AT_FDCWD;
      const char *to_name = self->dirfd >= 0 ? self->name : self->path;
      int errsv =
          self->overwrite ? replace_with_unnamed (self, fd) : link_unnamed (fd, to_dir, to_name);

      if (errsv != 0)
        {
          if (errsv == EEXIST)
            set_exists_error (error, self->path);
          else
            set_write_error (error, self->path, errsv);
          return FALSE;
        }
      self->fd = -1;
      if (close (fd) != 0)
        {
          /* A late write error (network file systems): take the name back
           * rather than leave a file that may be incomplete. */
          errsv = errno;
          unlink (self->path);
          set_write_error (error, self->path, errsv);
          return FALSE;
        }
      return TRUE;
    }

  self->fd = -1;
  if (close (fd) != 0)
    {
      set_write_error (error, self->path, errno);
      return FALSE;
    }
  if (self->overwrite)
    {
      if (rename (self->tmp_path, self->path) != 0)
        {
          set_write_error (error, self->path, errno);
          return FALSE;
        }
    }
  else
    {
      /* link() refuses to replace, so a file that appeared meanwhile stays. */
      if (link (self->tmp_path, self->path) != 0)
        {
          int errsv = errno;
          if (errsv == EEXIST)
            set_exists_error (error, self->path);
          else
            set_write_error (error, self->path, errsv);
          return FALSE;
        }
      unlink (self->tmp_path);
    }
  g_clear_pointer (&self->tmp_path, g_free);
  slot_release (self->slot);
  self->slot = -1;
  return TRUE;
}

/* Without a successful commit the temporary file goes away (an unnamed
 * one with its descriptor). */
void
ovi_atomic_file_free (OviAtomicFile *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  if (self->tmp_path)
    unlink (self->tmp_path);
  slot_release (self->slot);
  g_free (self->tmp_path);
  g_free (self->path);
  g_free (self->buffer);
  g_free (self);
}
