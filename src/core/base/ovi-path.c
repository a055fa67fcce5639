/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ovi-path.h"

/* Splits a relative or absolute path into its folder names, leaving out
 * empty ones and ".". */
char **
ovi_path_split (const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; parts[i]; i++)
    if (*parts[i] != '\0' && !g_str_equal (parts[i], "."))
      g_ptr_array_add (out, g_strdup (parts[i]));
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static gboolean
all_digits (const char *s, guint min_length)
{
  guint n = 0;
  for (; *s; s++, n++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return n >= min_length;
}

/**
 * ovi_path_infer_hierarchy:
 * @path: a file's path, absolute or below the opened folder
 * @values: (out caller-allocates) (array fixed-size=4): time, device, model
 *   and iteration, "" where the path has no such level; free each
 *
 * The hierarchy time / device / model / iteration from the folders above the
 * file (dump-format.md section 1): the iteration is the folder holding the
 * file, the time folder is the last one of 12 or more digits, the device
 * follows it, and whatever lies between device and iteration is the model
 * (model_name/model_id on current CANN versions).
 */
void
ovi_path_infer_hierarchy (const char *path, char *values[4])
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_auto (GStrv) parts = ovi_path_split (dir);
  int n = g_strv_length (parts), last = n - 1, t = -1;
  char *time = NULL, *device = NULL, *model = NULL;

  for (int i = last - 1; i >= 0; i--)
    if (all_digits (parts[i], 12))
      {
        t = i;
        break;
      }

  if (t >= 0)
    {
      time = g_strdup (parts[t]);
      device = g_strdup (t + 1 < last ? parts[t + 1] : "");
      if (t + 2 < last)
        {
          char *saved = parts[last];
          parts[last] = NULL;
          model = g_strjoinv ("/", parts + t + 2);
          parts[last] = saved;
        }
    }
  else if (last >= 1 && all_digits (parts[last - 1], 1))
    {
      model = g_strdup (parts[last - 1]);
      if (last >= 2 && all_digits (parts[last - 2], 1))
        device = g_strdup (parts[last - 2]);
    }

  values[0] = time ? time : g_strdup ("");
  values[1] = device ? device : g_strdup ("");
  values[2] = model ? model : g_strdup ("");
  values[3] = g_strdup (n > 0 ? parts[last] : "");
}

/* Compares two relative paths folder by folder, numbers as numbers, so
 * iteration 9 comes before iteration 10. */
int
ovi_path_natural_compare (const char *a, const char *b)
{
  while (*a && *b)
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *ea = a, *eb = b;
          while (*a == '0' && g_ascii_isdigit (a[1]))
            a++;
          while (*b == '0' && g_ascii_isdigit (b[1]))
            b++;
          for (ea = a; g_ascii_isdigit (*ea); ea++)
            ;
          for (eb = b; g_ascii_isdigit (*eb); eb++)
            ;
          if (ea - a != eb - b)
            return (ea - a) < (eb - b) ? -1 : 1;
          for (; a < ea; a++, b++)
            if (*a != *b)
              return *a < *b ? -1 : 1;
          b = eb;
          continue;
        }
      if (*a != *b)
        {
          /* The separator sorts first so "1/x" comes before "1a". */
          if (*a == '/')
            return -1;
          if (*b == '/')
            return 1;
          return (guchar) *a < (guchar) *b ? -1 : 1;
        }
      a++;
      b++;
    }
  return *a ? 1 : (*b ? -1 : 0);
}

/**
 * ovi_path_escape:
 * @text: UTF-8 text that came out of a file or a file name
 *
 * @text with control characters written as `ls -b` writes them (`\n`,
 * `\t`, `\033`, C1 controls as the octal of their bytes) and backslashes
 * doubled, so that a name shown in text can neither start a line of its
 * own nor move the cursor or change the terminal's colours.
 */
char *
ovi_path_escape (const char *text)
{
  GString *s = g_string_sized_new (strlen (text));

  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      static const char named[] = "abtnvfr"; /* \a (7) to \r (13) */
      gboolean c1 = p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;

      if (*p == '\\')
        g_string_append (s, "\\\\");
      else if (*p >= 7 && *p <= 13)
        g_string_append_printf (s, "\\%c", named[*p - 7]);
      else if (*p < 0x20 || *p == 0x7f)
        g_string_append_printf (s, "\\%03o", *p);
      else if (c1)
        {
          g_string_append_printf (s, "\\%03o\\%03o", p[0], p[1]);
          p++;
        }
      else
        g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

/**
 * ovi_path_display:
 * @path: a file name or path as the file system has it
 *
 * How @path is shown in text: g_filename_display_name() (valid UTF-8),
 * then ovi_path_escape().
 */
char *
ovi_path_display (const char *path)
{
  g_autofree char *display = g_filename_display_name (path);

  return ovi_path_escape (display);
}

/**
 * ovi_path_resolve_output:
 * @path: a file or folder about to be written, which need not exist
 * @created: (element-type filename) (nullable): appended to: the real path
 *   of every folder that writing @path would create, outermost first
 *
 * Where @path lands on disk, worked out the way the kernel walks it: each
 * name in turn, symbolic links resolved where they are met, so that ".."
 * after a link goes up from the link's target, not from the link
 * (g_canonicalize_filename() removes ".." as text, which is not where the
 * kernel writes). Names that do not exist yet are the folders
 * g_mkdir_with_parents() would create; ".." after one of them goes back
 * to its parent.
 *
 * Returns: (transfer full) (nullable): an absolute path free of symbolic
 *   links, "." and "..", or %NULL when the current folder has gone
 */
char *
ovi_path_resolve_output (const char *path, GPtrArray *created)
{
  g_auto (GStrv) parts = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
  g_autofree char *cur = NULL;
  gboolean exists = TRUE;

  if (g_path_is_absolute (path))
    cur = g_strdup (G_DIR_SEPARATOR_S);
  else if (!(cur = realpath (".", NULL)))
    return NULL;

  for (guint i = 0; parts[i]; i++)
    {
      const char *name = parts[i];
      g_autofree char *next = NULL;
      struct stat st;

      if (*name == '\0' || g_str_equal (name, "."))
        continue;
      if (g_str_equal (name, ".."))
        {
          char *up = g_path_get_dirname (cur);
          g_free (cur);
          cur = up;
          exists = lstat (cur, &st) == 0;
          continue;
        }
      next = g_build_filename (cur, name, NULL);
      if (exists && lstat (next, &st) == 0)
        {
          if (S_ISLNK (st.st_mode))
            {
              char *real = realpath (next, NULL);

              /* A dangling or looping link: whatever is written there
               * replaces the link itself, in @cur. */
              if (real == NULL)
                {
                  g_free (cur);
                  cur = g_steal_pointer (&next);
                  exists = FALSE;
                  continue;
                }
              g_free (cur);
              cur = real;
              continue;
            }
          g_free (cur);
          cur = g_steal_pointer (&next);
          continue;
        }
      exists = FALSE;
      g_free (cur);
      cur = g_steal_pointer (&next);
      if (created && parts[i + 1])
        g_ptr_array_add (created, g_strdup (cur));
    }
  return g_steal_pointer (&cur);
}
