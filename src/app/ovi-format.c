#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

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

/* The vendor's own detector flags max|x| at or above the float16 limit. */
gboolean
ovi_format_is_saturated (double max_abs)
{
  return !isnan (max_abs) && max_abs >= ovi_dtype_max_finite (OVI_DTYPE_FLOAT16);
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

GStrv
ovi_format_max_abs_classes (gpointer unused, double max_abs)
{
  static const char *bad[] = { "numeric", "warning", NULL };
  static const char *fine[] = { "numeric", NULL };

  return g_strdupv ((char **) (ovi_format_is_saturated (max_abs) ? bad : fine));
}
