/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "ovi-regular-file.h"

/* What an entry of @mode is, for a message: "a FIFO (named pipe)". */
const char *
ovi_regular_file_describe_type (mode_t mode)
{
  if (S_ISFIFO (mode))
    return _ ("a FIFO (named pipe)");
  if (S_ISSOCK (mode))
    return _ ("a socket");
  if (S_ISCHR (mode))
    return _ ("a character device");
  if (S_ISBLK (mode))
    return _ ("a block device");
  if (S_ISDIR (mode))
    return _ ("a folder");
  return _ ("of an unknown type");
}

/* Why @name could not be looked at or opened (errno @errsv). */
static void
set_open_error (GError **error, int dirfd, const char *name, int errsv)
{
  char target[4096];
  ssize_t n;

  /* "No such file or directory" for an entry that is listed is a puzzle:
   * a symbolic link whose target is missing says so. */
  if (errsv == ENOENT && (n = readlinkat (dirfd, name, target, sizeof target - 1)) >= 0)
    {
      g_autofree char *display = NULL;

      target[n] = '\0';
      display = g_filename_display_name (target);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _ ("a symbolic link to “%s”, which does not exist"), display);
      return;
    }
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), _ ("cannot open: %s"),
               g_strerror (errsv));
}

static gboolean
check_type (const struct stat *st, GError **error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _ ("not a regular file but %s: not read"),
               ovi_regular_file_describe_type (st->st_mode));
  return FALSE;
}

/**
 * ovi_regular_file_check:
 * @dirfd: a folder's descriptor, or AT_FDCWD
 * @st: (out) (optional): what stat() says of it, symbolic links followed
 *
 * Whether @name is (or links to) a regular file, without opening it.
 */
gboolean
ovi_regular_file_check (int dirfd, const char *name, struct stat *st, GError **error)
{
  struct stat local;

  if (st == NULL)
    st = &local;
  if (fstatat (dirfd, name, st, 0) != 0)
    {
      set_open_error (error, dirfd, name, errno);
      return FALSE;
    }
  return check_type (st, error);
}

/**
 * ovi_regular_file_open:
 * @st: (out) (optional): the opened file's fstat()
 *
 * Opens @name for reading once ovi_regular_file_check() says it is a
 * regular file, without blocking, and checks again what was opened (the
 * entry may have been replaced in between).
 *
 * Returns: a descriptor, or -1 with @error set
 */
int
ovi_regular_file_open (int dirfd, const char *name, struct stat *st, GError **error)
{
  struct stat local;

  if (st == NULL)
    st = &local;
  if (!ovi_regular_file_check (dirfd, name, st, error))
    return -1;
  return ovi_regular_file_open_listed (dirfd, name, st, error);
}

/**
 * ovi_regular_file_open_listed:
 * @st: (out): the opened file's fstat()
 *
 * Like ovi_regular_file_open() for an entry its folder's listing has just
 * shown to be a regular file (d_type or a stat of the scan): opened at
 * once, without blocking, and what was opened is checked.
 *
 * Returns: a descriptor, or -1 with @error set
 */
int
ovi_regular_file_open_listed (int dirfd, const char *name, struct stat *st, GError **error)
{
  int fd;

  if ((fd = openat (dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) < 0)
    {
      set_open_error (error, dirfd, name, errno);
      return -1;
    }
  if (fstat (fd, st) != 0 || !check_type (st, error))
    {
      if (error && *error == NULL)
        set_open_error (error, dirfd, name, errno);
      close (fd);
      return -1;
    }
  return fd;
}

/**
 * ovi_regular_file_read:
 * @contents: (out): the file's bytes and a NUL, free with g_free()
 *
 * Reads a regular file whole, as g_file_get_contents() does, refusing
 * anything else.
 */
gboolean
ovi_regular_file_read (int dirfd, const char *name, char **contents, gsize *length, GError **error)
{
  return ovi_regular_file_read_max (dirfd, name, G_MAXSIZE - 1, contents, length, error);
}

static void
set_too_large_error (GError **error, gsize max_size)
{
  g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, _ ("larger than %s: not read"), limit);
}

/**
 * ovi_regular_file_read_max:
 * @max_size: the most bytes the file's format allows
 *
 * ovi_regular_file_read() for a file whose format has a size limit (a
 * list, a map): a larger file, or one that grows past it while it is
 * read, is an error (G_FILE_ERROR_NOMEM) rather than all of memory.
 */
gboolean
ovi_regular_file_read_max (
    int dirfd, const char *name, gsize max_size, char **contents, gsize *length, GError **error)
{
  struct stat st;
  g_autoptr (GByteArray) data = NULL;
  int fd = ovi_regular_file_open (dirfd, name, &st, error);

  if (fd < 0)
    return FALSE;
  if ((guint64) st.st_size > max_size)
    {
      close (fd);
      set_too_large_error (error, max_size);
      return FALSE;
    }
  data = g_byte_array_sized_new (st.st_size + 1);
  for (;;)
    {
      guint8 buffer[65536];
      ssize_t n = read (fd, buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), _ ("cannot read: %s"),
                       g_strerror (errsv));
          return FALSE;
        }
      if (n == 0)
        break;
      if ((gsize) n > max_size - data->len)
        {
          close (fd);
          set_too_large_error (error, max_size);
          return FALSE;
        }
      g_byte_array_append (data, buffer, n);
    }
  close (fd);
  if (length)
    *length = data->len;
  g_byte_array_append (data, (const guint8 *) "", 1);
  *contents = (char *) g_byte_array_free (g_steal_pointer (&data), FALSE);
  return TRUE;
}
