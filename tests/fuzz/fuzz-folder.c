/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <stdint.h>
#include <stdlib.h>

#include "ovi-core.h"

/* A whole dump folder from one input: the input is cut at each "\n--\n"
 * into file contents, named after a fixed list of real dump names (the last
 * piece becomes mapping.csv when it has a comma), then the folder is loaded
 * and its report written. */
static const char *const names[] = {
  "Opdebug.Node_OpDebug.2.7.1764670500000250",
  "Cast.gradients_Cast_3.57.7.1764670500000200",
  "Add.gradients_AddN_7.58.7.1764670500000300.4.1.0.0",
  "Opdebug.Node_OpDebug.3.5.1764670560000150.4.1.0.0",
  "Mul.loss_Mul_2.57.1764671000000100",
  "1",
  "exception_info.7.57.1764670500000400",
  "Conv2D.conv.1.57.7.1764670500000500.FFTSPLUS.1.0.0",
  /* a second FFTS+ thread of the Add above: the two are grouped */
  "Add.gradients_AddN_7.58.7.1764670500000301.4.1.1.0",
  /* statistics-mode dumps: an operator's .csv and the folder's */
  "Relu.gradients_Relu_grad.59.7.1764670500000400.csv",
  "statistic.csv",
};

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
  g_autofree char *dir = NULL;
  g_autoptr (GFile) root = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autofree char *report = NULL;
  const char *p = (const char *) data, *end = p + size;
  guint n = 0;

  if (tmp_root == NULL)
    {
      tmp_root = g_dir_make_tmp ("ovi-fuzz-XXXXXX", NULL);
      atexit (remove_tmp_root); /* libFuzzer ends with exit () */
    }
  dir = g_build_filename (tmp_root, "20251202101500", "0", "m", "11", "3", NULL);
  g_mkdir_with_parents (dir, 0755);

  while (p <= end && n < G_N_ELEMENTS (names))
    {
      const char *sep = g_strstr_len (p, end - p, "\n--\n");
      const char *piece_end = sep ? sep : end;
      gboolean is_mapping = !sep && n > 0 && memchr (p, ',', piece_end - p) != NULL;
      g_autofree char *path = g_build_filename (dir, is_mapping ? "mapping.csv" : names[n], NULL);

      g_file_set_contents (path, p, piece_end - p, NULL);
      n++;
      if (!sep)
        break;
      p = sep + 4;
    }

  root = g_file_new_for_path (tmp_root);
  folder = ovi_dump_folder_new (root);
  g_assert (ovi_dump_folder_load (folder, NULL, NULL));
  report = ovi_report_to_json (folder);
  g_assert (report != NULL);
  g_free (ovi_report_to_text (folder));
  remove_tree (dir);
  return 0;
}
