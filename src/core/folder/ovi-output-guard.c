/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ovi-dump-folder-private.h"
#include "ovi-error.h"
#include "ovi-path.h"

/* The guard of outputs: whether something about to be written lands in a
 * folder that an OviDumpFolder reads. */

/* A folder that is read, as the guard of outputs knows it: its real path
 * and its device and inode. */
typedef struct
{
  char *real;
  char *shown; /* as the user named it */
  dev_t dev;
  ino_t ino;
} ReadFolder;

static gboolean
is_below (const char *path, const char *folder)
{
  gsize n = strlen (folder);

  return g_str_equal (folder, "/") ||
         (strncmp (path, folder, n) == 0 && (path[n] == '\0' || path[n] == '/'));
}

static void
read_folder_clear (ReadFolder *r)
{
  g_free (r->real);
  g_free (r->shown);
}

/* The folders the opened roots name, symbolic links resolved: a root that
 * is one dump file stands for its folder, which is read too (mapping.csv). */
static GArray *
read_roots (OviDumpFolder *self)
{
  GArray *roots = g_array_new (FALSE, TRUE, sizeof (ReadFolder));
  guint n = ovi_dump_folder_get_n_roots (self);

  g_array_set_clear_func (roots, (GDestroyNotify) read_folder_clear);
  for (guint i = 0; i < n; i++)
    {
      const char *path = ovi_dump_folder_get_nth_root_path (self, i);
      /* The first as it was when opened, should it have gone since. */
      ReadFolder r = { i == 0 && self->root_real ? g_strdup (self->root_real)
                                                 : realpath (path, NULL),
                       g_strdup (path) };
      struct stat st;

      if (r.real == NULL)
        {
          read_folder_clear (&r);
          continue;
        }
      if (stat (r.real, &st) == 0 && !S_ISDIR (st.st_mode))
        {
          char *dir = g_path_get_dirname (r.real);

          g_free (r.real);
          r.real = dir;
          dir = g_path_get_dirname (r.shown);
          g_free (r.shown);
          r.shown = dir;
        }
      if (stat (r.real, &st) == 0)
        {
          r.dev = st.st_dev;
          r.ino = st.st_ino;
        }
      g_array_append_val (roots, r);
    }
  return roots;
}

/* Whether the real path @target, or a folder above it, is a folder that
 * is read: below a root by name, or the same folder by device and inode as
 * a root or as a folder the last scan entered (a folder mounted twice has
 * two names). Sets @inside to what it is inside. */
static gboolean
lands_in (OviDumpFolder *self, GArray *roots, const char *target, char **inside)
{
  g_autofree char *probe = g_strdup (target);

  for (guint i = 0; i < roots->len; i++)
    {
      ReadFolder *r = &g_array_index (roots, ReadFolder, i);

      if (is_below (target, r->real))
        {
          *inside = g_strdup (r->shown);
          return TRUE;
        }
    }
  for (;;)
    {
      struct stat st;
      char *up;

      if (stat (probe, &st) == 0)
        {
          g_autofree char *key =
              g_strdup_printf ("%lu:%lu", (gulong) st.st_dev, (gulong) st.st_ino);
          gboolean entered;

          for (guint i = 0; i < roots->len; i++)
            {
              ReadFolder *r = &g_array_index (roots, ReadFolder, i);

              if (r->ino != 0 && r->dev == st.st_dev && r->ino == st.st_ino)
                {
                  *inside = g_strdup (r->shown);
                  return TRUE;
                }
            }
          g_mutex_lock (&self->read_lock);
          entered = self->read_dirs && g_hash_table_contains (self->read_dirs, key);
          g_mutex_unlock (&self->read_lock);
          if (entered)
            {
              *inside = g_strdup (probe);
              return TRUE;
            }
        }
      if (g_str_equal (probe, "/"))
        return FALSE;
      up = g_path_get_dirname (probe);
      g_free (probe);
      probe = up;
    }
}

/**
 * ovi_dump_folder_check_output:
 * @output: a file or folder about to be written, existing or not
 * @inside: (out) (optional): the folder being read that @output is in, as
 *   the user named it
 *
 * The guard of every output, from the CLI's convert and the window's
 * exports alike: the inspector never writes into a folder it reads. @output
 * is followed the way the kernel follows it (ovi_path_resolve_output():
 * ".." after a symbolic link goes up from its target), and it, and every
 * folder writing it would create, is compared with each folder that is
 * read: each root by its real path and by the device and inode of every
 * folder above the output, and each folder the last scan entered.
 *
 * Returns: %FALSE, with @error (%OVI_FOLDER_ERROR_OUTPUT_INSIDE) naming
 *   both, when @output lands in a folder that is read
 */
gboolean
ovi_dump_folder_check_output (OviDumpFolder *self,
                              const char *output,
                              char **inside,
                              GError **error)
{
  g_autoptr (GPtrArray) targets = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) roots = NULL;
  char *final;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), FALSE);
  g_return_val_if_fail (output != NULL, FALSE);

  if (inside)
    *inside = NULL;
  if (!(final = ovi_path_resolve_output (output, targets)))
    {
      int errsv = errno;
      g_autofree char *shown = g_filename_display_name (output);
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
                   _ ("%s: cannot find where it is: %s"), shown, g_strerror (errsv));
      return FALSE;
    }
  g_ptr_array_add (targets, final);
  roots = read_roots (self);
  for (guint i = 0; i < targets->len; i++)
    {
      g_autofree char *folder = NULL;

      if (lands_in (self, roots, g_ptr_array_index (targets, i), &folder))
        {
          g_autofree char *shown_output = g_filename_display_name (output);
          g_autofree char *shown_folder = g_filename_display_name (folder);

          g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_OUTPUT_INSIDE,
                       _ ("%s is inside %s, a folder being read"), shown_output, shown_folder);
          if (inside)
            *inside = g_steal_pointer (&folder);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * ovi_dump_folder_contains_path:
 * @path: a file or folder, existing or about to be written
 *
 * Returns: %TRUE when writing @path would write inside a folder that is
 *   read (ovi_dump_folder_check_output())
 */
gboolean
ovi_dump_folder_contains_path (OviDumpFolder *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  return !ovi_dump_folder_check_output (self, path, NULL, &error) &&
         g_error_matches (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_OUTPUT_INSIDE);
}
