/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ovi-core.h"

/* The diff of two folder trees made from one input: how sides are read
 * (dump folders or .npy folders), grouped and paired, operators matched
 * and tensors compared, then the result written as text, JSON and CSV.
 *
 * The input is a list of files, each:
 *   1 byte   bit 0: the side (mine, golden); bits 1-2: which of four
 *            folders (the root, 0/model/1, 0/model/2, 1/model/1)
 *   1 byte   the name's length n, then n bytes of name ('/' and NUL
 *            become '_'; "", "." and ".." become "x")
 *   2 bytes  the contents' length m, little-endian, then m bytes */

static const char *const folders[] = { "", "0/model/1", "0/model/2", "1/model/1" };

/* One private folder for the process, made once: TMP/{mine,golden}/ with
 * the four folders on each side. Each input writes its files into it and
 * removes them afterwards; the folders stay. Rebuilding the tree for each
 * input cost more than the diff (ext4 mounted with discard: freed blocks
 * are discarded synchronously), and kept the target at ~100 runs a second.
 * Files are created new and deleted within the run, before writeback, so
 * their blocks are never allocated: nothing is discarded. */
static char *tmp_root, *sides[2];
static GPtrArray *written;

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
remove_tmp_root (void)
{
  remove_tree (tmp_root);
}

static void
make_tmp_root (void)
{
  tmp_root = g_dir_make_tmp ("ovi-fuzz-diff-XXXXXX", NULL);
  g_assert (tmp_root != NULL);
  atexit (remove_tmp_root); /* libFuzzer ends with exit () */
  for (guint s = 0; s < 2; s++)
    {
      sides[s] = g_build_filename (tmp_root, s ? "golden" : "mine", NULL);
      for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
        {
          g_autofree char *dir = g_build_filename (sides[s], folders[f], NULL);
          g_assert (g_mkdir_with_parents (dir, 0755) == 0);
        }
    }
  written = g_ptr_array_new_with_free_func (g_free);
}

/* Writes a new file; a name taken by one of the folders is left as it is. */
static void
write_file (char *path, const uint8_t *data, size_t length)
{
  int fd;

  g_unlink (path); /* the same name twice in one input: the last wins */
  fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      g_free (path);
      return;
    }
  if (length)
    g_assert (write (fd, data, length) == (ssize_t) length);
  close (fd);
  g_ptr_array_add (written, path);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GError) error = NULL;
  size_t at = 0;

  if (tmp_root == NULL)
    make_tmp_root ();

  for (guint n = 0; n < 16 && at + 2 <= size; n++)
    {
      guint flags = data[at], name_length = data[at + 1], length;
      g_autofree char *name = NULL;

      at += 2;
      if (at + name_length + 2 > size)
        break;
      name = g_strndup ((const char *) data + at, name_length);
      for (guint i = 0; i < name_length; i++)
        if (name[i] == '/' || name[i] == '\0')
          name[i] = '_';
      name[name_length] = '\0';
      if (*name == '\0' || g_str_equal (name, ".") || g_str_equal (name, ".."))
        g_free (g_steal_pointer (&name)), name = g_strdup ("x");
      at += name_length;
      length = data[at] | data[at + 1] << 8;
      at += 2;
      length = MIN (length, size - at);
      write_file (g_build_filename (sides[flags & 1], folders[(flags >> 1) & 3], name, NULL),
                  data + at, length);
      at += length;
    }

  diff = ovi_diff_new (sides[0], sides[1]);
  result = ovi_diff_run (diff, NULL, &error);
  g_assert ((result == NULL) == (error != NULL));
  if (result)
    {
      g_autoptr (JsonNode) json = ovi_diff_result_to_json (result);
      gsize csv_length;

      g_free (ovi_diff_result_to_text (result));
      g_assert (json != NULL);
      g_free (ovi_diff_result_to_csv (result, &csv_length));
    }
  for (guint i = 0; i < written->len; i++)
    g_unlink (written->pdata[i]);
  g_ptr_array_set_size (written, 0);
  return 0;
}
