/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* A JSON text read in place, one value at a time (see ovi-json-scanner.c). */
typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  const char *error_at; /* where the text stops being JSON */
  const char *problem;  /* what is wrong there, N_() */
} OviJsonScanner;

/* Reads or skips the value of member @key (not NUL-terminated). */
typedef gboolean (*OviJsonMemberFunc) (
    OviJsonScanner *s, const char *key, gsize key_len, gpointer data, int depth);

/* In a member function: whether the member's name is @k. */
#define OVI_JSON_KEY_IS(k) (key_len == sizeof (k) - 1 && memcmp (key, k, sizeof (k) - 1) == 0)

void ovi_json_scanner_init (OviJsonScanner *s, const char *text, gsize length);
gboolean ovi_json_scanner_fail (OviJsonScanner *s, const char *problem);
gboolean ovi_json_scanner_string (OviJsonScanner *s, char **value);
gboolean ovi_json_scanner_number (OviJsonScanner *s, guint64 *value, gboolean *is_uint);
gboolean ovi_json_scanner_literal (OviJsonScanner *s, const char *word);
gboolean
ovi_json_scanner_object (OviJsonScanner *s, OviJsonMemberFunc member, gpointer data, int depth);
gboolean ovi_json_scanner_skip_value (OviJsonScanner *s, int depth);
gboolean ovi_json_scanner_take_string (OviJsonScanner *s, char **value, int depth);

static inline void
ovi_json_scanner_skip_ws (OviJsonScanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

/* Skips white space, then @c if it comes next. */
static inline gboolean
ovi_json_scanner_expect (OviJsonScanner *s, char c)
{
  ovi_json_scanner_skip_ws (s);
  if (s->p < s->end && *s->p == c)
    {
      s->p++;
      return TRUE;
    }
  return FALSE;
}

G_END_DECLS
