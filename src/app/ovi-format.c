/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ovi-core.h"
#include "ovi-format.h"

/* Six significant digits: enough to tell 65504 from 65500, short enough
 * for a table column. */
char *
ovi_format_double (double value)
{
  if (isnan (value))
    return g_strdup ("—");
  return g_strdup_printf ("%.6g", value);
}

char *
ovi_format_count (guint64 count)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, count);
}

/* A count with its thousands grouped, "1,024": counts of elements that
 * are read in a sentence. */
char *
ovi_format_count_grouped (guint64 count)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  GString *text = g_string_new (NULL);
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (text, ',');
      g_string_append_c (text, digits[i]);
    }
  return g_string_free (text, FALSE);
}

/* The largest magnitude of an operator: "…" until it is known, "—" when
 * no value is finite. */
char *
ovi_format_max_abs (gpointer unused, gboolean analyzed, double max_abs)
{
  if (!analyzed)
    return g_strdup ("…");
  return ovi_format_double (max_abs);
}

/* A count of an operator, "…" until it is known. */
char *
ovi_format_op_count (gpointer unused, gboolean analyzed, guint64 count)
{
  if (!analyzed)
    return g_strdup ("…");
  return ovi_format_count (count);
}

/* Iterations sort as numbers, not as strings. */
guint64
ovi_format_iteration_number (gpointer unused, const char *iteration)
{
  return iteration ? g_ascii_strtoull (iteration, NULL, 10) : 0;
}

/* What the search fields of the tables match: op type or name. */
char *
ovi_format_search_text (gpointer unused, const char *op_type, const char *op_name)
{
  return g_strconcat (op_type ? op_type : "", " ", op_name ? op_name : "", NULL);
}

GStrv
ovi_format_count_classes (gpointer unused, guint64 count)
{
  static const char *bad[] = { "numeric", "error", NULL };
  static const char *fine[] = { "numeric", NULL };

  return g_strdupv ((char **) (count > 0 ? bad : fine));
}

/* The largest magnitude is marked when it is saturated: some value is the
 * largest finite value of its tensor's own data type (core counts them). */
GStrv
ovi_format_max_abs_classes (gpointer unused, guint64 saturated)
{
  static const char *bad[] = { "numeric", "warning", NULL };
  static const char *fine[] = { "numeric", NULL };

  return g_strdupv ((char **) (saturated > 0 ? bad : fine));
}

/* Dump timestamps are microseconds since 1970 (dump-format.md section 2);
 * smaller numbers (before 2001) are not dates, so they stay as written. */
#define OVI_FORMAT_FIRST_DATE G_GUINT64_CONSTANT (1000000000000000)

/**
 * ovi_format_timestamp:
 *
 * Returns: the local date and time of a dump timestamp, to the
 *   microsecond ("2025-12-02 10:15:00.000200"), or the raw number when it
 *   is not a date
 */
char *
ovi_format_timestamp (guint64 timestamp)
{
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GDateTime) local = NULL;
  g_autofree char *seconds = NULL;

  if (timestamp < OVI_FORMAT_FIRST_DATE || timestamp / G_USEC_PER_SEC > G_MAXINT64 / 2)
    return ovi_format_count (timestamp);
  utc = g_date_time_new_from_unix_utc ((gint64) (timestamp / G_USEC_PER_SEC));
  if (utc == NULL)
    return ovi_format_count (timestamp);
  local = g_date_time_to_local (utc);
  seconds = g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
  return g_strdup_printf ("%s.%06u", seconds, (guint) (timestamp % G_USEC_PER_SEC));
}

/* Closure of the tables: the timestamp as a date, and its raw number for
 * the tooltip. */
char *
ovi_format_timestamp_closure (gpointer unused, guint64 timestamp)
{
  return ovi_format_timestamp (timestamp);
}

char *
ovi_format_timestamp_tooltip (gpointer unused, guint64 timestamp)
{
  /* Translators: the raw dump timestamp, in microseconds */
  return g_strdup_printf (_ ("Timestamp %llu µs"), (unsigned long long) timestamp);
}

/**
 * ovi_format_path:
 * @home: the user's home folder (g_get_home_dir())
 *
 * Returns: @path as GNOME's windows show one: the home folder written "~"
 */
char *
ovi_format_path (const char *path, const char *home)
{
  gsize len = strlen (home);

  if (len > 1 && strncmp (path, home, len) == 0 && (path[len] == '/' || path[len] == '\0'))
    return g_strconcat ("~", path + len, NULL);
  return g_strdup (path);
}

/**
 * ovi_format_gap:
 * @gap: microseconds, negative when the earlier record has the later time
 *
 * Returns: the time since the previous overflow: "+350 µs", "+1.2 ms",
 *   "+2.5 s", "+3.0 min", "+1.5 h"
 */
char *
ovi_format_gap (gint64 gap)
{
  const char *sign = gap < 0 ? "−" : "+";
  double us = gap < 0 ? -(double) gap : (double) gap;
  g_autofree char *number = NULL;

  if (us < 1000)
    {
      number = g_strdup_printf ("%.0f", us);
      /* Translators: a time since the previous overflow in microseconds:
       * the sign (+ or −), then the number */
      return g_strdup_printf (_ ("%s%s µs"), sign, number);
    }
  if (us < 1e6)
    {
      number = g_strdup_printf (us < 1e5 ? "%.1f" : "%.0f", us / 1e3);
      /* Translators: a time since the previous overflow in milliseconds */
      return g_strdup_printf (_ ("%s%s ms"), sign, number);
    }
  if (us < 60e6)
    {
      number = g_strdup_printf ("%.1f", us / 1e6);
      /* Translators: a time since the previous overflow in seconds */
      return g_strdup_printf (_ ("%s%s s"), sign, number);
    }
  if (us < 3600e6)
    {
      number = g_strdup_printf ("%.1f", us / 60e6);
      /* Translators: a time since the previous overflow in minutes */
      return g_strdup_printf (_ ("%s%s min"), sign, number);
    }
  number = g_strdup_printf ("%.1f", us / 3600e6);
  /* Translators: a time since the previous overflow in hours */
  return g_strdup_printf (_ ("%s%s h"), sign, number);
}

/* Closure of the tables: the gap, or nothing for the first record of a
 * run. */
char *
ovi_format_gap_closure (gpointer unused, gboolean has_gap, gint64 gap)
{
  return has_gap ? ovi_format_gap (gap) : g_strdup ("");
}
