/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "ovi-diff-private.h"
#include "ovi-error.h"
#include "ovi-file-name.h"
#include "ovi-regular-file.h"

/* The map file of renamed and fused operators: one parser for both forms,
 * callable on a buffer (the fuzz target's entry point,
 * ovi_diff_map_parse()). */

/* A map file is a few lines a renamed operator: far below this. */
#define MAP_MAX_BYTES (16 * 1024 * 1024)

static void
entry_free (OviDiffMapEntry *e)
{
  g_strfreev (e->mine);
  g_strfreev (e->golden);
  g_free (e->mine_seen);
  g_free (e->golden_seen);
  g_free (e);
}

OviDiffMap *
ovi_diff_map_new (const char *path)
{
  OviDiffMap *map = g_new0 (OviDiffMap, 1);

  map->path = g_strdup (path ? path : "--map");
  map->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  map->by_mine = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return map;
}

void
ovi_diff_map_free (OviDiffMap *map)
{
  if (map == NULL)
    return;
  g_free (map->path);
  g_ptr_array_unref (map->entries);
  g_hash_table_unref (map->by_mine);
  g_free (map);
}

/* "a+b+c" split, each name stripped; NULL when a name is empty. */
static char **
names (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "+", -1);

  if (parts[0] == NULL) /* g_strsplit() of "" gives no part at all */
    return NULL;
  for (guint i = 0; parts[i]; i++)
    if (*g_strstrip (parts[i]) == '\0')
      return NULL;
  return g_steal_pointer (&parts);
}

/**
 * ovi_diff_map_add:
 * @mine: my name, or my names joined by `+`
 * @golden: the golden name, or golden names joined by `+`
 * @line: the line of the map file, 0 for none
 *
 * One pair of the map. A sequence stands for the operators that one fused
 * operator replaces, in run order: the fused operator's inputs are
 * compared with the first's, its outputs with the last's. Refused: a
 * sequence on both sides, an empty name, and one of my names mapped twice.
 */
gboolean
ovi_diff_map_add (OviDiffMap *map, const char *mine, const char *golden, guint line, GError **error)
{
  g_auto (GStrv) m = names (mine), g = names (golden);
  g_autofree char *where =
      line ? g_strdup_printf (_ ("%s, line %u"), map->path, line) : g_strdup (map->path);
  OviDiffMapEntry *e;

  if (m == NULL || g == NULL)
    {
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                   _ ("%s: an empty name; write “my_name,golden_name”, either side may be "
                      "“a+b+c”"),
                   where);
      return FALSE;
    }
  if (m[1] && g[1])
    {
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                   _ ("%s: a sequence on both sides is ambiguous; map one operator to a sequence "
                      "or a sequence to one operator"),
                   where);
      return FALSE;
    }
  for (guint i = 0; m[i]; i++)
    {
      OviDiffMapEntry *before = g_hash_table_lookup (map->by_mine, m[i]);
      if (before)
        {
          g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                       _ ("%s: “%s” is mapped already on line %u; one operator pairs with one "
                          "partner"),
                       where, m[i], before->line);
          return FALSE;
        }
    }
  e = g_new0 (OviDiffMapEntry, 1);
  e->line = line;
  e->mine = g_steal_pointer (&m);
  e->golden = g_steal_pointer (&g);
  e->mine_seen = g_new0 (gboolean, g_strv_length (e->mine));
  e->golden_seen = g_new0 (gboolean, g_strv_length (e->golden));
  for (guint i = 0; e->mine[i]; i++)
    g_hash_table_insert (map->by_mine, g_strdup (e->mine[i]), e);
  g_ptr_array_add (map->entries, e);
  return TRUE;
}

/**
 * ovi_diff_map_parse:
 * @text: the file's bytes, not necessarily NUL-terminated
 * @length: their number
 *
 * Reads `my_name,golden_name` a line, either side `a+b+c` for a fused
 * operator against the sequence it replaces (blank lines and lines
 * starting with `#` left out). A NUL byte, a line without one comma or with
 * more, and what ovi_diff_map_add() refuses are errors naming the line.
 */
gboolean
ovi_diff_map_parse (OviDiffMap *map, const char *text, gsize length, GError **error)
{
  const char *nul = memchr (text, '\0', length);
  g_autofree char *contents = g_strndup (text, length);
  g_auto (GStrv) lines = NULL;

  if (nul)
    {
      guint line = 1;
      for (const char *p = text; p < nul; p++)
        line += *p == '\n';
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                   _ ("%s, line %u: a NUL byte; a map file is text"), map->path, line);
      return FALSE;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *comma = strchr (line, ',');

      if (*line == '\0' || *line == '#')
        continue;
      if (comma == NULL || strchr (comma + 1, ',') != NULL)
        {
          g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                       comma ? _ ("%s, line %u: more than one comma; write “my_name,golden_name”")
                             : _ ("%s, line %u: not “my_name,golden_name”"),
                       map->path, i + 1);
          return FALSE;
        }
      *comma = '\0';
      if (!ovi_diff_map_add (map, line, comma + 1, i + 1, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * ovi_diff_map_load:
 *
 * Reads a map file: a regular file of at most 16 MiB (never a FIFO or a
 * device), then ovi_diff_map_parse().
 */
gboolean
ovi_diff_map_load (OviDiffMap *map, const char *path, GError **error)
{
  struct stat st;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  int fd = ovi_regular_file_open (AT_FDCWD, path, &st, &local_error);

  if (fd < 0)
    {
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING, "%s: %s", path,
                   local_error->message);
      return FALSE;
    }
  if (st.st_size > MAP_MAX_BYTES)
    {
      close (fd);
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                   _ ("%s: %lld bytes, more than a map file's %d"), path, (long long) st.st_size,
                   MAP_MAX_BYTES);
      return FALSE;
    }
  data = g_malloc (st.st_size + 1);
  for (;;)
    {
      ssize_t n = read (fd, data + length, st.st_size + 1 - length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      length += n;
      if (length > (gsize) st.st_size)
        break;
    }
  close (fd);
  if (length > (gsize) st.st_size)
    {
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                   _ ("%s: the file grew while it was read"), path);
      return FALSE;
    }
  g_free (map->path);
  map->path = g_strdup (path);
  return ovi_diff_map_parse (map, data, length, error);
}

/* Before matching: no name seen yet. */
void
ovi_diff_map_reset (OviDiffMap *map)
{
  for (guint i = 0; i < map->entries->len; i++)
    {
      OviDiffMapEntry *e = g_ptr_array_index (map->entries, i);
      memset (e->mine_seen, 0, g_strv_length (e->mine) * sizeof (gboolean));
      memset (e->golden_seen, 0, g_strv_length (e->golden) * sizeof (gboolean));
    }
}

/* The entry naming my operator @name (or its file-name form), or NULL. */
OviDiffMapEntry *
ovi_diff_map_lookup (OviDiffMap *map, const char *name)
{
  OviDiffMapEntry *e = g_hash_table_lookup (map->by_mine, name);
  g_autofree char *key = NULL;

  if (e)
    return e;
  key = ovi_file_name_form (name);
  return g_hash_table_lookup (map->by_mine, key);
}

/* Whether @name is the map's @entry_name, as written or in file-name form. */
gboolean
ovi_diff_map_names (const char *entry_name, const char *name)
{
  g_autofree char *a = NULL, *b = NULL;

  if (g_str_equal (entry_name, name))
    return TRUE;
  a = ovi_file_name_form (entry_name);
  b = ovi_file_name_form (name);
  return g_str_equal (a, b);
}

/**
 * ovi_diff_map_warnings:
 *
 * Returns: (transfer full) (element-type utf8): a message for each name of
 *   the map that matched no operator, with its line (a golden name only
 *   where my names matched: else it was not looked for)
 */
GPtrArray *
ovi_diff_map_warnings (OviDiffMap *map)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < map->entries->len; i++)
    {
      OviDiffMapEntry *e = g_ptr_array_index (map->entries, i);
      gboolean looked = TRUE; /* the golden names are looked up once mine matched */

      for (guint k = 0; e->mine[k]; k++)
        if (!e->mine_seen[k])
          g_ptr_array_add (out, g_strdup_printf (_ ("%s, line %u: “%s” matches no operator of my "
                                                    "run"),
                                                 map->path, e->line, e->mine[k]));
      for (guint k = 0; e->mine[k]; k++)
        looked &= e->mine_seen[k];
      for (guint k = 0; looked && e->golden[k]; k++)
        if (!e->golden_seen[k])
          g_ptr_array_add (out, g_strdup_printf (_ ("%s, line %u: “%s” matches no operator of the "
                                                    "golden run"),
                                                 map->path, e->line, e->golden[k]));
    }
  return out;
}
