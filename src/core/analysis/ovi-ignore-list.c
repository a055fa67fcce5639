/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>

#include "ovi-error.h"
#include "ovi-ignore-list.h"
#include "ovi-regular-file.h"

struct _OviIgnoreList
{
  gatomicrefcount ref_count;
  GPtrArray *types; /* GPatternSpec */
  GPtrArray *names;
  GPtrArray *either;
};

/**
 * ovi_ignore_list_new:
 * @patterns: (nullable): "type:GLOB" matches op types, "name:GLOB" op
 *   names, a bare GLOB either; empty entries and "#" comments are skipped
 */
OviIgnoreList *
ovi_ignore_list_new (const char *const *patterns)
{
  OviIgnoreList *self = g_new0 (OviIgnoreList, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->types = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
  self->names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
  self->either = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
  for (guint i = 0; patterns && patterns[i]; i++)
    {
      g_autofree char *p = g_strstrip (g_strdup (patterns[i]));

      if (*p == '\0' || *p == '#')
        continue;
      if (g_str_has_prefix (p, "type:"))
        g_ptr_array_add (self->types, g_pattern_spec_new (g_strstrip (p + 5)));
      else if (g_str_has_prefix (p, "name:"))
        g_ptr_array_add (self->names, g_pattern_spec_new (g_strstrip (p + 5)));
      else
        g_ptr_array_add (self->either, g_pattern_spec_new (p));
    }
  return self;
}

/**
 * ovi_ignore_list_load:
 *
 * Reads one pattern a line (see ovi_ignore_list_new()).
 */
OviIgnoreList *
ovi_ignore_list_load (const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) local_error = NULL;

  g_autofree char *display = g_filename_display_name (path);

  /* A FIFO or a device given as the list is refused, not waited on; a
   * list of patterns has no use for more than OVI_IGNORE_LIST_MAX_SIZE. */
  if (!ovi_regular_file_read_max (AT_FDCWD, path, OVI_IGNORE_LIST_MAX_SIZE, &contents, NULL,
                                  &local_error))
    {
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND, "%s: %s", display,
                   local_error->message);
      return NULL;
    }
  if (!g_utf8_validate (contents, -1, NULL))
    {
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
                   _ ("%s: the ignore list is not UTF-8 text"), display);
      return NULL;
    }
  lines = g_strsplit (contents, "\n", -1);
  return ovi_ignore_list_new ((const char *const *) lines);
}

OviIgnoreList *
ovi_ignore_list_ref (OviIgnoreList *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ovi_ignore_list_unref (OviIgnoreList *self)
{
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_ptr_array_unref (self->types);
      g_ptr_array_unref (self->names);
      g_ptr_array_unref (self->either);
      g_free (self);
    }
}

static gboolean
match_any (GPtrArray *specs, const char *s)
{
  for (guint i = 0; s && i < specs->len; i++)
    if (g_pattern_spec_match_string (g_ptr_array_index (specs, i), s))
      return TRUE;
  return FALSE;
}

gboolean
ovi_ignore_list_matches (OviIgnoreList *self, const char *op_type, const char *op_name)
{
  return match_any (self->types, op_type) || match_any (self->names, op_name) ||
         match_any (self->either, op_type) || match_any (self->either, op_name);
}

guint
ovi_ignore_list_get_size (OviIgnoreList *self)
{
  return self->types->len + self->names->len + self->either->len;
}
