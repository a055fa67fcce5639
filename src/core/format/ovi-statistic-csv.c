/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-dtype.h"
#include "ovi-file-name.h"
#include "ovi-shape.h"
#include "ovi-statistic-csv.h"

/* clang-format off */
G_DEFINE_QUARK (ovi-statistic-error-quark, ovi_statistic_error)
/* clang-format on */

/* A file full of garbage would otherwise list one problem a line. */
#define MAX_ERRORS 20

typedef enum
{
  COL_IO,
  COL_INDEX,
  COL_SIZE,
  COL_DTYPE,
  COL_FORMAT,
  COL_SHAPE,
  COL_MAX,
  COL_MIN,
  COL_MEAN,
  COL_COUNT,
  COL_NAN,
  COL_NEG_INF,
  COL_POS_INF,
  COL_ZEROS,
  COL_NEG_ZEROS,
  COL_POS_ZEROS,
  COL_OP_TYPE,
  COL_OP_NAME,
  COL_TASK,
  COL_STREAM,
  COL_TIMESTAMP,
  COL_NORM,
  N_COLUMNS
} Column;

/* Column names with case, spaces, underscores and slashes removed: the
 * runtime writes "Nan Count" and "Input/Output", msprobe "NaN Count" and
 * "IO", and both change capitalisation between versions. */
static const struct
{
  const char *key;
  Column column;
} column_names[] = {
  { "inputoutput", COL_IO },
  { "io", COL_IO },
  { "index", COL_INDEX },
  { "slot", COL_INDEX },
  { "datasize", COL_SIZE },
  { "datatype", COL_DTYPE },
  { "format", COL_FORMAT },
  { "shape", COL_SHAPE },
  { "maxvalue", COL_MAX },
  { "max", COL_MAX },
  { "minvalue", COL_MIN },
  { "min", COL_MIN },
  { "avgvalue", COL_MEAN },
  { "meanvalue", COL_MEAN },
  { "mean", COL_MEAN },
  { "count", COL_COUNT },
  { "nancount", COL_NAN },
  { "negativeinfcount", COL_NEG_INF },
  { "positiveinfcount", COL_POS_INF },
  { "zerocount", COL_ZEROS },
  { "negativezerocount", COL_NEG_ZEROS },
  { "positivezerocount", COL_POS_ZEROS },
  { "optype", COL_OP_TYPE },
  { "opname", COL_OP_NAME },
  { "taskid", COL_TASK },
  { "streamid", COL_STREAM },
  { "timestamp", COL_TIMESTAMP },
  { "l2normvalue", COL_NORM },
  { "l2norm", COL_NORM },
  { "normvalue", COL_NORM },
  { "norm", COL_NORM },
};

typedef struct
{
  OviStatisticCsv *csv;
  int columns[N_COLUMNS]; /* cell index, -1 when the header lacks it */
  gboolean have_header;
  guint header_line;
  gboolean reported_headless; /* one problem for rows after no or a useless header */
} Parser;

static char *
normalize_name (const char *cell)
{
  GString *s = g_string_new (NULL);

  for (const char *p = cell; *p; p++)
    if (g_ascii_isalnum (*p))
      g_string_append_c (s, g_ascii_tolower (*p));
  return g_string_free (s, FALSE);
}

/* Splits one line into cells; a quoted cell may hold commas and doubled
 * quotes. Quotes never span lines here, so line numbers stay true. */
static GPtrArray *
split_cells (const char *p, const char *end)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);

  for (;;)
    {
      GString *cell = g_string_new (NULL);

      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      if (p < end && *p == '"')
        {
          for (p++; p < end; p++)
            {
              if (*p == '"')
                {
                  if (p + 1 < end && p[1] == '"')
                    p++;
                  else
                    {
                      p++;
                      break;
                    }
                }
              g_string_append_c (cell, *p);
            }
          /* Whatever follows a closing quote up to the comma is kept too. */
          while (p < end && *p != ',')
            g_string_append_c (cell, *p++);
        }
      else
        while (p < end && *p != ',')
          g_string_append_c (cell, *p++);
      while (cell->len > 0 && g_ascii_isspace (cell->str[cell->len - 1]))
        g_string_truncate (cell, cell->len - 1);
      g_ptr_array_add (cells, g_string_free (cell, FALSE));
      if (p >= end)
        break;
      p++; /* the comma */
    }
  return cells;
}

static void
add_error (Parser *parser, guint line, GError *error)
{
  g_ptr_array_add (parser->csv->errors, error);
  g_array_append_val (parser->csv->lines, line);
}

static const char *
cell_at (GPtrArray *cells, int column)
{
  if (column < 0 || (guint) column >= cells->len)
    return NULL;
  return g_ptr_array_index (cells, column);
}

static gboolean
is_column_name (const char *cell)
{
  g_autofree char *key = normalize_name (cell);

  for (guint k = 0; k < G_N_ELEMENTS (column_names); k++)
    if (g_str_equal (key, column_names[k].key))
      return TRUE;
  return FALSE;
}

/* A header names columns: two known names, or the Input/Output column
 * that every form has. Data rows hold numbers and Input/Output words. */
static gboolean
is_header (GPtrArray *cells)
{
  guint known = 0;

  for (guint i = 0; i < cells->len; i++)
    {
      g_autofree char *key = normalize_name (g_ptr_array_index (cells, i));
      if (g_str_equal (key, "inputoutput") || g_str_equal (key, "io"))
        return TRUE;
      if (is_column_name (g_ptr_array_index (cells, i)) && ++known >= 2)
        return TRUE;
    }
  return FALSE;
}

static void
read_header (Parser *parser, GPtrArray *cells, guint line)
{
  for (guint c = 0; c < N_COLUMNS; c++)
    parser->columns[c] = -1;
  for (guint i = 0; i < cells->len; i++)
    {
      g_autofree char *key = normalize_name (g_ptr_array_index (cells, i));
      for (guint k = 0; k < G_N_ELEMENTS (column_names); k++)
        if (g_str_equal (key, column_names[k].key) && parser->columns[column_names[k].column] < 0)
          parser->columns[column_names[k].column] = i;
    }
  parser->have_header = TRUE;
  parser->header_line = line;
  parser->reported_headless = FALSE;
}

/* Empty, or the words writers put where there is no value. */
static gboolean
is_blank (const char *cell)
{
  return cell == NULL || *cell == '\0' || g_ascii_strcasecmp (cell, "N/A") == 0 ||
         g_ascii_strcasecmp (cell, "None") == 0;
}

static gboolean
parse_u64 (const char *cell, guint64 *out)
{
  char *end = NULL;
  double d;

  if (g_ascii_isdigit (*cell))
    {
      guint64 v;
      errno = 0;
      v = g_ascii_strtoull (cell, &end, 10);
      if (errno == 0 && *end == '\0')
        {
          *out = v;
          return TRUE;
        }
    }
  /* Python writers print counts as floats: "12.0". */
  d = g_ascii_strtod (cell, &end);
  if (end == cell || *end != '\0' || !(d >= 0 && d < 18446744073709551616.0) || d != floor (d))
    return FALSE;
  *out = (guint64) d;
  return TRUE;
}

/* C++ streams print nan, inf and -inf; Python prints nan, inf and -inf
 * too; strtod reads all of them. */
static gboolean
parse_double (const char *cell, double *out)
{
  char *end = NULL;

  *out = g_ascii_strtod (cell, &end);
  return end != cell && *end == '\0';
}

/* "100x20x40" (the runtime), "(100, 20, 40)" or "[100, 20, 40]" (Python);
 * "()" and "[]" are scalars. */
static gboolean
parse_shape (const char *cell, GArray *shape)
{
  const char *p = cell;

  while (*p)
    {
      if (g_ascii_isdigit (*p))
        {
          char *end;
          guint64 v;
          errno = 0;
          v = g_ascii_strtoull (p, &end, 10);
          if (errno != 0)
            return FALSE;
          g_array_append_val (shape, v);
          p = end;
        }
      else if (strchr ("xX,()[] \t", *p))
        p++;
      else
        return FALSE;
    }
  return TRUE;
}

/**
 * ovi_statistic_parse_dtype:
 * @text: "DT_FLOAT16" (the runtime), "float16", "torch.bfloat16" (Python
 *   writers) or a data_type number
 *
 * Returns: the data_type number, 0 (undefined) when it is none we know
 */
int
ovi_statistic_parse_dtype (const char *text)
{
  static const struct
  {
    const char *name;
    int dtype;
  } aliases[] = {
    { "float", OVI_DTYPE_FLOAT32 },
    { "half", OVI_DTYPE_FLOAT16 },
    { "bf16", OVI_DTYPE_BFLOAT16 },
    { "double", OVI_DTYPE_FLOAT64 },
    { "dual", 25 },
    { "complex32", 32 },
    { "hifloat8", 33 },
    { "float8e5m2", OVI_DTYPE_FLOAT8_E5M2 },
    { "float8e4m3fn", OVI_DTYPE_FLOAT8_E4M3FN },
  };
  g_autofree char *lower = NULL;
  g_autofree char *key = NULL;
  const char *p = text;
  guint64 number;

  if (text == NULL || *text == '\0')
    return OVI_DTYPE_UNDEFINED;
  if (parse_u64 (text, &number))
    return number <= G_MAXINT ? (int) number : OVI_DTYPE_UNDEFINED;
  lower = g_ascii_strdown (text, -1);
  p = lower;
  if (g_str_has_prefix (p, "dt_"))
    p += 3;
  else if (g_str_has_prefix (p, "torch."))
    p += 6;
  else if (g_str_has_prefix (p, "mindspore."))
    p += 10;
  key = normalize_name (p);
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_str_equal (key, aliases[i].name))
      return aliases[i].dtype;
  /* The table of ovi-dtype.c names every type it knows. */
  for (int dtype = 1; dtype < 64; dtype++)
    {
      const char *name = ovi_dtype_name (dtype);
      g_autofree char *known = name ? normalize_name (name) : NULL;
      if (known && g_str_equal (known, key))
        return dtype;
    }
  return OVI_DTYPE_UNDEFINED;
}

static int
parse_format (const char *text)
{
  for (int format = 0; format < 64; format++)
    {
      const char *name = ovi_format_name (format);
      if (name && g_ascii_strcasecmp (name, text) == 0)
        return format;
    }
  return -1;
}

void
ovi_statistic_row_free (OviStatisticRow *row)
{
  if (row == NULL)
    return;
  g_free (row->op_type);
  g_free (row->op_name);
  g_array_unref (row->shape);
  g_free (row);
}

static GError *
bad_value (guint line, const char *column, const char *cell)
{
  g_autofree char *shown = g_utf8_make_valid (cell, -1);
  return g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_BAD_VALUE,
                      _ ("line %u: %s is “%s”, not a number"), line, column, shown);
}

/* A count column: absent or empty leaves @fields without @flag. */
static gboolean
read_count (GPtrArray *cells,
            int column,
            const char *name,
            guint line,
            OviStatisticFields flag,
            guint64 *out,
            OviStatisticFields *fields,
            GError **error)
{
  const char *cell = cell_at (cells, column);

  if (is_blank (cell))
    return TRUE;
  if (!parse_u64 (cell, out))
    {
      *error = bad_value (line, name, cell);
      return FALSE;
    }
  *fields |= flag;
  return TRUE;
}

static gboolean
read_value (GPtrArray *cells,
            int column,
            const char *name,
            guint line,
            OviStatisticFields flag,
            double *out,
            OviStatisticFields *fields,
            GError **error)
{
  const char *cell = cell_at (cells, column);

  *out = NAN;
  if (is_blank (cell))
    return TRUE;
  if (!parse_double (cell, out))
    {
      *error = bad_value (line, name, cell);
      return FALSE;
    }
  *fields |= flag;
  return TRUE;
}

/* OviStats from what the row says. Its min, max and mean are over finite
 * values; a writer that printed inf or nan there tells us that at least one
 * such value exists when it gave no count of its own. */
static void
fill_stats (OviStatisticRow *row, double max, double min, double mean)
{
  OviStats *s = &row->stats;
  guint64 bad;
  double sat;

  s->first_nonfinite = s->first_nan = s->first_pos_inf = s->first_neg_inf = s->first_saturated = -1;
  s->std = NAN;
  if (!(row->fields & OVI_STATISTIC_COUNT) && row->shape->len > 0 &&
      !ovi_shape_count ((const guint64 *) (gconstpointer) row->shape->data, row->shape->len,
                        &s->count))
    s->count = 0;
  if (!(row->fields & OVI_STATISTIC_POS_INF) && (max == INFINITY || min == INFINITY))
    s->pos_inf = 1;
  if (!(row->fields & OVI_STATISTIC_NEG_INF) && (max == -INFINITY || min == -INFINITY))
    s->neg_inf = 1;
  if (!(row->fields & OVI_STATISTIC_NAN) && (((row->fields & OVI_STATISTIC_MAX) && isnan (max)) ||
                                             ((row->fields & OVI_STATISTIC_MIN) && isnan (min))))
    s->nan = 1;
  s->max = isfinite (max) ? max : NAN;
  s->min = isfinite (min) ? min : NAN;
  s->mean = isfinite (mean) ? mean : NAN;
  if (isfinite (max) && isfinite (min))
    s->max_abs = MAX (fabs (max), fabs (min));
  else
    s->max_abs = isfinite (max) ? fabs (max) : (isfinite (min) ? fabs (min) : NAN);
  bad = s->nan + s->pos_inf + s->neg_inf;
  s->finite = s->count > bad ? s->count - bad : 0;
  if (!(row->fields & OVI_STATISTIC_ZEROS))
    s->zeros = row->neg_zeros + row->pos_zeros;
  if (ovi_dtype_is_float (row->dtype) && (sat = ovi_dtype_max_finite (row->dtype)) > 0)
    {
      /* Six significant digits: 3.40282e+38 stands for FLT_MAX. Each end
       * at the type's largest value is at least one saturated element. */
      double near = sat * (1 - 5e-6);
      if (isfinite (max) && fabs (max) >= near)
        s->saturated++;
      if (isfinite (min) && fabs (min) >= near && min != max)
        s->saturated++;
    }
}

static void
read_row (Parser *parser, GPtrArray *cells, guint line)
{
  const int *col = parser->columns;
  OviStatisticRow *row = g_new0 (OviStatisticRow, 1);
  const char *io = cell_at (cells, col[COL_IO]);
  const char *index = cell_at (cells, col[COL_INDEX]);
  const char *cell;
  double max = NAN, min = NAN, mean = NAN;
  guint64 number;
  GError *error = NULL;

  row->line = line;
  row->shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  row->format = OVI_FORMAT_UNKNOWN;

  if (io == NULL || index == NULL)
    {
      error = g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_MISSING_COLUMN,
                           _ ("line %u: the row is cut short before its Input/Output or "
                              "Index column"),
                           line);
      goto fail;
    }
  if (g_ascii_strcasecmp (io, "Input") == 0)
    row->kind = OVI_TENSOR_INPUT;
  else if (g_ascii_strcasecmp (io, "Output") == 0)
    row->kind = OVI_TENSOR_OUTPUT;
  else
    {
      g_autofree char *shown = g_utf8_make_valid (io, -1);
      error =
          g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_BAD_VALUE,
                       _ ("line %u: Input/Output is “%s”, neither Input nor Output"), line, shown);
      goto fail;
    }
  if (!parse_u64 (index, &number) || number > G_MAXUINT)
    {
      error = bad_value (line, "Index", index);
      goto fail;
    }
  row->index = number;

  if (col[COL_OP_TYPE] >= 0 || col[COL_OP_NAME] >= 0)
    {
      const char *type = cell_at (cells, col[COL_OP_TYPE]);
      const char *name = cell_at (cells, col[COL_OP_NAME]);
      if (is_blank (type) || is_blank (name))
        {
          error =
              g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_MISSING_COLUMN,
                           _ ("line %u: the row names no operator (Op Type and Op Name)"), line);
          goto fail;
        }
      row->has_op = TRUE;
      row->op_type = g_utf8_make_valid (type, -1);
      row->op_name = g_utf8_make_valid (name, -1);
      if (!is_blank (cell = cell_at (cells, col[COL_TASK])) && !parse_u64 (cell, &row->task_id))
        {
          error = bad_value (line, "Task ID", cell);
          goto fail;
        }
      if (!is_blank (cell = cell_at (cells, col[COL_STREAM])) && !parse_u64 (cell, &row->stream_id))
        {
          error = bad_value (line, "Stream ID", cell);
          goto fail;
        }
      if (!is_blank (cell = cell_at (cells, col[COL_TIMESTAMP])) &&
          !parse_u64 (cell, &row->timestamp))
        {
          error = bad_value (line, "Timestamp", cell);
          goto fail;
        }
    }

  if (!is_blank (cell = cell_at (cells, col[COL_SIZE])) && !parse_u64 (cell, &row->size))
    {
      error = bad_value (line, "Data Size", cell);
      goto fail;
    }
  if (!is_blank (cell = cell_at (cells, col[COL_DTYPE])))
    row->dtype = ovi_statistic_parse_dtype (cell);
  if (!is_blank (cell = cell_at (cells, col[COL_FORMAT])))
    row->format = parse_format (cell);
  if (!is_blank (cell = cell_at (cells, col[COL_SHAPE])) && !parse_shape (cell, row->shape))
    {
      g_autofree char *shown = g_utf8_make_valid (cell, -1);
      error = g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_BAD_VALUE,
                           _ ("line %u: Shape is “%s”, not a list of dimensions"), line, shown);
      goto fail;
    }

  if (!read_value (cells, col[COL_MAX], "Max Value", line, OVI_STATISTIC_MAX, &max, &row->fields,
                   &error) ||
      !read_value (cells, col[COL_MIN], "Min Value", line, OVI_STATISTIC_MIN, &min, &row->fields,
                   &error) ||
      !read_value (cells, col[COL_MEAN], "Avg Value", line, OVI_STATISTIC_MEAN, &mean, &row->fields,
                   &error) ||
      !read_value (cells, col[COL_NORM], "L2Norm Value", line, OVI_STATISTIC_NORM, &row->norm,
                   &row->fields, &error) ||
      !read_count (cells, col[COL_COUNT], "Count", line, OVI_STATISTIC_COUNT, &row->stats.count,
                   &row->fields, &error) ||
      !read_count (cells, col[COL_NAN], "NaN Count", line, OVI_STATISTIC_NAN, &row->stats.nan,
                   &row->fields, &error) ||
      !read_count (cells, col[COL_NEG_INF], "Negative Inf Count", line, OVI_STATISTIC_NEG_INF,
                   &row->stats.neg_inf, &row->fields, &error) ||
      !read_count (cells, col[COL_POS_INF], "Positive Inf Count", line, OVI_STATISTIC_POS_INF,
                   &row->stats.pos_inf, &row->fields, &error) ||
      !read_count (cells, col[COL_ZEROS], "Zero Count", line, OVI_STATISTIC_ZEROS,
                   &row->stats.zeros, &row->fields, &error) ||
      !read_count (cells, col[COL_NEG_ZEROS], "Negative Zero Count", line, OVI_STATISTIC_NEG_ZEROS,
                   &row->neg_zeros, &row->fields, &error) ||
      !read_count (cells, col[COL_POS_ZEROS], "Positive Zero Count", line, OVI_STATISTIC_POS_ZEROS,
                   &row->pos_zeros, &row->fields, &error))
    goto fail;

  row->written[0] = max;
  row->written[1] = min;
  row->written[2] = mean;
  row->written[3] = row->norm;
  fill_stats (row, max, min, mean);
  g_ptr_array_add (parser->csv->rows, row);
  return;

fail:
  ovi_statistic_row_free (row);
  add_error (parser, line, error);
}

/**
 * ovi_statistic_csv_parse:
 *
 * Reads a statistics file of either writer. Columns are found by name in
 * the header, which may repeat (files appended to) and change between
 * repeats. Rows that cannot be read are left out, each with an error
 * naming its line; the others are kept.
 *
 * Returns: (transfer full): rows and errors
 */
OviStatisticCsv *
ovi_statistic_csv_parse (const char *contents, gsize length)
{
  OviStatisticCsv *csv = g_new0 (OviStatisticCsv, 1);
  Parser parser = { csv };
  const char *p = contents, *end = contents + length;
  guint line = 0;

  csv->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_statistic_row_free);
  csv->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  csv->lines = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint c = 0; c < N_COLUMNS; c++)
    parser.columns[c] = -1;

  while (contents && p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *line_end = eol ? eol : end;
      g_autoptr (GPtrArray) cells = NULL;
      gboolean blank = TRUE;

      line++;
      if (line_end > p && line_end[-1] == '\r')
        line_end--;
      /* A text file holds no NUL byte; a C string stops at one. */
      if (memchr (p, '\0', line_end - p))
        {
          add_error (&parser, line,
                     g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_BAD_VALUE,
                                  _ ("line %u: a NUL byte in a text file"), line));
          goto next;
        }
      cells = split_cells (p, line_end);
      for (guint i = 0; i < cells->len && blank; i++)
        blank = *(const char *) g_ptr_array_index (cells, i) == '\0';
      if (blank)
        goto next;
      if (is_header (cells))
        read_header (&parser, cells, line);
      else if (parser.have_header && parser.columns[COL_IO] >= 0 && parser.columns[COL_INDEX] >= 0)
        read_row (&parser, cells, line);
      else if (parser.have_header)
        {
          /* A header alone, with no rows, is harmless: only rows it cannot
           * describe are a problem. */
          if (!parser.reported_headless)
            add_error (&parser, line,
                       g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_MISSING_COLUMN,
                                    _ ("line %u: the header on line %u has no Input/Output "
                                       "(or IO) and Index (or Slot) column"),
                                    line, parser.header_line));
          parser.reported_headless = TRUE;
        }
      else if (!parser.reported_headless)
        {
          parser.reported_headless = TRUE;
          add_error (&parser, line,
                     g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_HEADER,
                                  _ ("line %u: a row before any header line naming the "
                                     "columns"),
                                  line));
        }

    next:
      if (csv->errors->len >= MAX_ERRORS)
        {
          add_error (&parser, line,
                     g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_TOO_MANY,
                                  _ ("line %u: too many unreadable lines; the rest of the file "
                                     "is skipped"),
                                  line));
          break;
        }
      p = eol ? eol + 1 : end;
    }
  return csv;
}

void
ovi_statistic_csv_free (OviStatisticCsv *csv)
{
  if (csv == NULL)
    return;
  g_ptr_array_unref (csv->rows);
  g_ptr_array_unref (csv->errors);
  g_array_unref (csv->lines);
  g_free (csv);
}

/**
 * ovi_statistic_is_csv_name:
 * @op_dump_name: (out) (optional): the op dump name the file stands for
 *
 * Returns: whether @name is "{op dump name}.csv", the statistics the
 *   runtime writes in place of that op dump file
 */
gboolean
ovi_statistic_is_csv_name (const char *name, char **op_dump_name)
{
  gsize len = strlen (name);
  g_autofree char *stem = NULL;
  OviFileName parsed;
  gboolean ok;

  if (len <= 4 || g_ascii_strcasecmp (name + len - 4, ".csv") != 0)
    return FALSE;
  stem = g_strndup (name, len - 4);
  ok = ovi_file_name_parse (stem, &parsed) && parsed.kind == OVI_FILE_KIND_OP_DUMP;
  ovi_file_name_clear (&parsed);
  if (ok && op_dump_name)
    *op_dump_name = g_steal_pointer (&stem);
  return ok;
}

/**
 * ovi_statistic_why_no_values:
 *
 * What a tensor view shows in place of a histogram or values for a tensor
 * of a statistics-mode dump.
 *
 * Returns: a translated sentence
 */
const char *
ovi_statistic_why_no_values (void)
{
  return _ ("statistics-only dump: the runtime kept no tensor values");
}
