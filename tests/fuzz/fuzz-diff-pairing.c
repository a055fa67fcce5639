/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static char *tmp_root;

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

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *mine = NULL, *golden = NULL;
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  g_autoptr (GError) error = NULL;
  size_t at = 0;

  if (tmp_root == NULL)
    {
      tmp_root = g_dir_make_tmp ("ovi-fuzz-diff-XXXXXX", NULL);
      atexit (remove_tmp_root); /* libFuzzer ends with exit () */
    }
  mine = g_build_filename (tmp_root, "mine", NULL);
  golden = g_build_filename (tmp_root, "golden", NULL);
  g_mkdir (mine, 0755);
  g_mkdir (golden, 0755);

  for (guint n = 0; n < 16 && at + 2 <= size; n++)
    {
      guint flags = data[at], name_length = data[at + 1], length;
      g_autofree char *name = NULL, *dir = NULL, *path = NULL;

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
      dir = g_build_filename (flags & 1 ? golden : mine, folders[(flags >> 1) & 3], NULL);
      g_mkdir_with_parents (dir, 0755);
      path = g_build_filename (dir, name, NULL);
      /* A name already taken by a folder is left as it is. */
      g_file_set_contents (path, (const char *) data + at, length, NULL);
      at += length;
    }

  diff = ovi_diff_new (mine, golden);
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
  remove_tree (mine);
  remove_tree (golden);
  return 0;
}
