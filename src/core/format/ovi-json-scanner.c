/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-json-scanner.h"

/* Reports of a thousand devices run to hundreds of megabytes, which
 * json-glib parses at some 15 MB/s into a tree many times their size. This
 * scanner checks a whole text is JSON (RFC 8259, UTF-8) as it goes, and
 * leaves what to keep to the caller's member functions. */

#define MAX_DEPTH 512

/**
 * ovi_json_scanner_init:
 *
 * Starts a scan of @length bytes at @text, which must outlive it.
 */
void
ovi_json_scanner_init (OviJsonScanner *s, const char *text, gsize length)
{
  s->start = s->p = text;
  s->end = text + length;
  s->error_at = NULL;
  s->problem = NULL;
}

/* Notes the first problem and where it is; always FALSE. */
gboolean
ovi_json_scanner_fail (OviJsonScanner *s, const char *problem)
{
  if (!s->problem)
    {
      s->error_at = s->p;
      s->problem = problem;
    }
  return FALSE;
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (const char *p, const char *end, gunichar *value)
{
  *value = 0;
  if (end - p < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int h = hex_value (p[i]);
      if (h < 0)
        return FALSE;
      *value = *value * 16 + h;
    }
  return TRUE;
}

/* A string at s->p ('"'): checked, and when @value is given, decoded. */
gboolean
ovi_json_scanner_string (OviJsonScanner *s, char **value)
{
  const char *begin;
  gboolean high = FALSE, escapes = FALSE;
  GString *decoded = NULL;

  s->p++; /* '"' */
  begin = s->p;
  for (;;)
    {
      const char *p = s->p;
      /* The bulk of the text: plain ASCII characters. */
      while (p < s->end && (guchar) *p >= 0x20 && *p != '"' && *p != '\\' && (guchar) *p < 0x80)
        p++;
      s->p = p;
      if (p >= s->end)
        return ovi_json_scanner_fail (s, N_ ("unterminated string"));
      if (*p == '"')
        break;
      if ((guchar) *p < 0x20)
        return ovi_json_scanner_fail (s, N_ ("control character in a string"));
      if ((guchar) *p >= 0x80)
        {
          high = TRUE;
          s->p++;
          continue;
        }
      /* '\\' */
      escapes = TRUE;
      if (p + 1 >= s->end)
        return ovi_json_scanner_fail (s, N_ ("unterminated string"));
      switch (p[1])
        {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
          s->p = p + 2;
          break;
        case 'u':
          {
            gunichar u;
            if (!read_hex4 (p + 2, s->end, &u))
              return ovi_json_scanner_fail (s, N_ ("bad \\u escape"));
            s->p = p + 6;
            break;
          }
        default:
          return ovi_json_scanner_fail (s, N_ ("bad escape"));
        }
    }
  if (high && !g_utf8_validate (begin, s->p - begin, NULL))
    return ovi_json_scanner_fail (s, N_ ("JSON data must be UTF-8 encoded"));
  if (value)
    {
      if (!escapes)
        *value = g_strndup (begin, s->p - begin);
      else
        {
          decoded = g_string_sized_new (s->p - begin);
          for (const char *q = begin; q < s->p;)
            {
              gunichar u, lo;
              if (*q != '\\')
                {
                  g_string_append_c (decoded, *q++);
                  continue;
                }
              switch (q[1])
                {
                case 'b':
                  g_string_append_c (decoded, '\b');
                  break;
                case 'f':
                  g_string_append_c (decoded, '\f');
                  break;
                case 'n':
                  g_string_append_c (decoded, '\n');
                  break;
                case 'r':
                  g_string_append_c (decoded, '\r');
                  break;
                case 't':
                  g_string_append_c (decoded, '\t');
                  break;
                case 'u':
                  read_hex4 (q + 2, s->p, &u);
                  q += 6;
                  /* A surrogate pair is one character. */
                  if (u >= 0xd800 && u < 0xdc00 && q + 6 <= s->p && q[0] == '\\' && q[1] == 'u' &&
                      read_hex4 (q + 2, s->p, &lo) && lo >= 0xdc00 && lo < 0xe000)
                    {
                      u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                      q += 6;
                    }
                  else if (u >= 0xd800 && u < 0xe000)
                    u = 0xfffd;
                  g_string_append_unichar (decoded, u);
                  continue;
                default:
                  g_string_append_c (decoded, q[1]);
                }
              q += 2;
            }
          *value = g_string_free (decoded, FALSE);
        }
    }
  s->p++; /* '"' */
  return TRUE;
}

/* A number: checked; @value set when it is a plain non-negative integer. */
gboolean
ovi_json_scanner_number (OviJsonScanner *s, guint64 *value, gboolean *is_uint)
{
  const char *p = s->p;
  gboolean plain = TRUE;
  guint64 v = 0;

  if (p < s->end && *p == '-')
    {
      plain = FALSE;
      p++;
    }
  if (p >= s->end || !g_ascii_isdigit (*p))
    return ovi_json_scanner_fail (s, N_ ("bad number"));
  if (*p == '0')
    p++;
  else
    while (p < s->end && g_ascii_isdigit (*p))
      {
        guint d = *p++ - '0';
        if (v > (G_MAXUINT64 - d) / 10)
          plain = FALSE;
        v = v * 10 + d;
      }
  if (p < s->end && *p == '.')
    {
      plain = FALSE;
      p++;
      if (p >= s->end || !g_ascii_isdigit (*p))
        return ovi_json_scanner_fail (s, N_ ("bad number"));
      while (p < s->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < s->end && (*p == 'e' || *p == 'E'))
    {
      plain = FALSE;
      p++;
      if (p < s->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= s->end || !g_ascii_isdigit (*p))
        return ovi_json_scanner_fail (s, N_ ("bad number"));
      while (p < s->end && g_ascii_isdigit (*p))
        p++;
    }
  s->p = p;
  if (value)
    *value = v;
  if (is_uint)
    *is_uint = plain;
  return TRUE;
}

gboolean
ovi_json_scanner_literal (OviJsonScanner *s, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (s->end - s->p) < n || memcmp (s->p, word, n) != 0)
    return ovi_json_scanner_fail (s, N_ ("unexpected character"));
  s->p += n;
  return TRUE;
}

/* Members of an object (s->p just after '{'), each key to @member, which
 * reads or skips its value. */
gboolean
ovi_json_scanner_object (OviJsonScanner *s, OviJsonMemberFunc member, gpointer data, int depth)
{
  if (depth > MAX_DEPTH)
    return ovi_json_scanner_fail (s, N_ ("nested too deeply"));
  if (ovi_json_scanner_expect (s, '}'))
    return TRUE;
  for (;;)
    {
      const char *key;
      gsize key_len;
      gboolean plain;

      ovi_json_scanner_skip_ws (s);
      if (s->p >= s->end || *s->p != '"')
        return ovi_json_scanner_fail (s, N_ ("expected a member name"));
      key = s->p + 1;
      if (!ovi_json_scanner_string (s, NULL))
        return FALSE;
      key_len = s->p - 1 - key;
      /* The names compared are plain ASCII: one with escapes matches none. */
      plain = memchr (key, '\\', key_len) == NULL;
      if (!ovi_json_scanner_expect (s, ':'))
        return ovi_json_scanner_fail (s, N_ ("expected ':'"));
      ovi_json_scanner_skip_ws (s);
      if (!(plain ? member (s, key, key_len, data, depth + 1)
                  : ovi_json_scanner_skip_value (s, depth + 1)))
        return FALSE;
      if (ovi_json_scanner_expect (s, ','))
        continue;
      if (ovi_json_scanner_expect (s, '}'))
        return TRUE;
      return ovi_json_scanner_fail (s, N_ ("expected ',' or '}'"));
    }
}

static gboolean
skip_member (OviJsonScanner *s, const char *key, gsize key_len, gpointer data, int depth)
{
  return ovi_json_scanner_skip_value (s, depth);
}

gboolean
ovi_json_scanner_skip_value (OviJsonScanner *s, int depth)
{
  ovi_json_scanner_skip_ws (s);
  if (s->p >= s->end)
    return ovi_json_scanner_fail (s, N_ ("unexpected end of data"));
  switch (*s->p)
    {
    case '{':
      s->p++;
      return ovi_json_scanner_object (s, skip_member, NULL, depth);
    case '[':
      s->p++;
      if (depth > MAX_DEPTH)
        return ovi_json_scanner_fail (s, N_ ("nested too deeply"));
      if (ovi_json_scanner_expect (s, ']'))
        return TRUE;
      for (;;)
        {
          if (!ovi_json_scanner_skip_value (s, depth + 1))
            return FALSE;
          if (ovi_json_scanner_expect (s, ','))
            continue;
          if (ovi_json_scanner_expect (s, ']'))
            return TRUE;
          return ovi_json_scanner_fail (s, N_ ("expected ',' or ']'"));
        }
    case '"':
      return ovi_json_scanner_string (s, NULL);
    case 't':
      return ovi_json_scanner_literal (s, "true");
    case 'f':
      return ovi_json_scanner_literal (s, "false");
    case 'n':
      return ovi_json_scanner_literal (s, "null");
    default:
      if (*s->p != '-' && !g_ascii_isdigit (*s->p))
        return ovi_json_scanner_fail (s, N_ ("unexpected character"));
      return ovi_json_scanner_number (s, NULL, NULL);
    }
}

/* A string value into *@value (replacing it), anything else skipped. */
gboolean
ovi_json_scanner_take_string (OviJsonScanner *s, char **value, int depth)
{
  if (s->p < s->end && *s->p == '"')
    {
      g_free (*value);
      *value = NULL;
      return ovi_json_scanner_string (s, value);
    }
  return ovi_json_scanner_skip_value (s, depth);
}
