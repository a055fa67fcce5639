/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* copy_file_range */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-atomic-file.h"
#include "ovi-error.h"

#define BUFFER_SIZE OVI_ATOMIC_FILE_BUFFER_SIZE

struct _OviAtomicFile
{
  char *path;
  char *tmp_path;
  const char *name; /* in path; the name in dirfd */
  int fd;
  int dirfd; /* path's folder, or -1: path is looked up whole */
  gboolean overwrite;
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

/**
 * ovi_atomic_file_new:
 * @path: the destination
 *
 * Opens an unnamed file (O_TMPFILE) in @path's folder, or, to overwrite or
 * where the file system has no unnamed files, a temporary file beside
 * @path. Nothing appears at @path until ovi_atomic_file_commit() succeeds;
 * an existing @path is reported then, not looked up first (one system call
 * less per file for the common case, where it does not exist). The kernel
 * applies the umask to the mode, as for any new file.
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
  g_autofree char *dir = g_path_get_dirname (path);
  OviAtomicFile *self = g_new0 (OviAtomicFile, 1);
  const char *slash;

  self->path = g_strdup (path);
  slash = strrchr (self->path, G_DIR_SEPARATOR);
  self->name = slash ? slash + 1 : self->path;
  self->overwrite = overwrite;
  self->fd = -1;
  self->dirfd = dirfd;
  if (!overwrite && can_link_tmpfiles ())
    {
      if (dirfd >= 0)
        self->fd = openat (dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
      else
        self->fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
      /* Older kernels say EISDIR, file systems without it EOPNOTSUPP (some
       * FUSE ones, such as the document portal's, ENOSYS). */
      if (self->fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL &&
          errno != ENOSYS)
        {
          set_write_error (error, path, errno);
          ovi_atomic_file_free (self);
          return NULL;
        }
    }
  if (self->fd < 0)
    {
      g_autofree char *base = g_path_get_basename (path);
      self->tmp_path = g_strdup_printf ("%s%s.%s.XXXXXX", dir, G_DIR_SEPARATOR_S, base);
      self->fd = g_mkstemp_full (self->tmp_path, O_WRONLY | O_CLOEXEC, 0666);
      if (self->fd < 0)
        {
          set_write_error (error, path, errno);
          g_clear_pointer (&self->tmp_path, g_free);
          ovi_atomic_file_free (self);
          return NULL;
        }
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

  if (self->tmp_path == NULL)
    {
      /* The unnamed file gets its name while it is still open; linkat()
       * refuses to replace, so a file that appeared meanwhile stays. */
      char proc[64];
      int errsv = 0, linked = -1;
      int to_dir = self->dirfd >= 0 ? self->dirfd : AT_FDCWD;
      const char *to_name = self->dirfd >= 0 ? self->name : self->path;

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
      if (linked != 0)
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
  g_free (self->tmp_path);
  g_free (self->path);
  g_free (self->buffer);
  g_free (self);
}
