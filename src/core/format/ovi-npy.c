/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-error.h"
#include "ovi-npy.h"
#include "ovi-regular-file.h"

/* The .npy format (numpy/lib/format.py, NEP 1): the magic "\x93NUMPY",
 * a major and a minor version byte, the header's length (2 bytes in
 * version 1, 4 in versions 2 and 3, little-endian), then the header: a
 * Python dict literal with exactly the keys 'descr', 'fortran_order' and
 * 'shape', padded with spaces and ended by a newline. The data follows. */

#define MAGIC "\x93NUMPY"
#define MAGIC_LEN 6

/* The header is small in every file numpy writes; this bounds what a
 * damaged length makes the parser look at. */
#define MAX_HEADER (1u << 20)
#define MAX_DIMS 32

typedef struct
{
  const char *p, *end;
} Cursor;

static void
skip_space (Cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static gboolean
take (Cursor *c, char ch)
{
  skip_space (c);
  if (c->p < c->end && *c->p == ch)
    {
      c->p++;
      return TRUE;
    }
  return FALSE;
}

/* A quoted string without escapes (no key or dtype of .npy has one). */
static char *
take_string (Cursor *c)
{
  char quote;
  const char *start;

  skip_space (c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return NULL;
  quote = *c->p++;
  start = c->p;
  while (c->p < c->end && *c->p != quote)
    {
      if (*c->p == '\\' || *c->p == '\n')
        return NULL;
      c->p++;
    }
  if (c->p >= c->end)
    return NULL;
  c->p++;
  return g_strndup (start, c->p - 1 - start);
}

static gboolean
take_word (Cursor *c, const char *word)
{
  gsize len = strlen (word);

  skip_space (c);
  if ((gsize) (c->end - c->p) >= len && memcmp (c->p, word, len) == 0)
    {
      c->p += len;
      return TRUE;
    }
  return FALSE;
}

static gboolean
take_uint (Cursor *c, guint64 *value)
{
  guint64 v = 0;
  gboolean any = FALSE;

  skip_space (c);
  while (c->p < c->end && g_ascii_isdigit (*c->p))
    {
      guint digit = *c->p - '0';
      if (v > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      v = v * 10 + digit;
      any = TRUE;
      c->p++;
    }
  /* Python 2 wrote long integers as "3L". */
  if (any && c->p < c->end && *c->p == 'L')
    c->p++;
  *value = v;
  return any;
}

/* "(2, 3)", "(5,)", "()". */
static gboolean
take_shape (Cursor *c, GArray *shape)
{
  if (!take (c, '('))
    return FALSE;
  if (take (c, ')'))
    return TRUE;
  for (;;)
    {
      guint64 v;

      if (!take_uint (c, &v) || shape->len >= MAX_DIMS)
        return FALSE;
      g_array_append_val (shape, v);
      if (take (c, ')'))
        return TRUE;
      if (!take (c, ','))
        return FALSE;
      if (take (c, ')'))
        return TRUE;
    }
}

typedef struct
{
  OviDtype dtype;
  guint size;
} Descr;

/* numpy's type code (without the byte-order character) to the dump dtype
 * of the same element type. */
static gboolean
descr_lookup (const char *code, Descr *out)
{
  static const struct
  {
    const char *code;
    OviDtype dtype;
    guint size;
  } codes[] = {
    { "f2", OVI_DTYPE_FLOAT16, 2 },   { "f4", OVI_DTYPE_FLOAT32, 4 },
    { "f8", OVI_DTYPE_FLOAT64, 8 },   { "i1", OVI_DTYPE_INT8, 1 },
    { "u1", OVI_DTYPE_UINT8, 1 },     { "i2", OVI_DTYPE_INT16, 2 },
    { "u2", OVI_DTYPE_UINT16, 2 },    { "i4", OVI_DTYPE_INT32, 4 },
    { "u4", OVI_DTYPE_UINT32, 4 },    { "i8", OVI_DTYPE_INT64, 8 },
    { "u8", OVI_DTYPE_UINT64, 8 },    { "b1", OVI_DTYPE_BOOL, 1 },
    { "c8", OVI_DTYPE_COMPLEX64, 8 }, { "c16", OVI_DTYPE_COMPLEX128, 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    if (g_str_equal (code, codes[i].code))
      {
        out->dtype = codes[i].dtype;
        out->size = codes[i].size;
        return TRUE;
      }
  return FALSE;
}

static gboolean
header_error (GError **error, const char *why)
{
  g_set_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_HEADER, _ ("the .npy header cannot be read: %s"),
               why);
  return FALSE;
}

/* Reads the header dict into @descr, @fortran and @shape. */
static gboolean
parse_dict (
    const char *text, gsize length, char **descr, gboolean *fortran, GArray *shape, GError **error)
{
  Cursor c = { text, text + length };
  gboolean seen_descr = FALSE, seen_order = FALSE, seen_shape = FALSE;

  if (!take (&c, '{'))
    return header_error (error, _ ("it does not start with “{”"));
  while (!take (&c, '}'))
    {
      g_autofree char *key = take_string (&c);

      if (key == NULL || !take (&c, ':'))
        return header_error (error, _ ("a key is not a quoted name followed by “:”"));
      if (g_str_equal (key, "descr") && !seen_descr)
        {
          /* A structured dtype is a list, not a string. */
          if ((*descr = take_string (&c)) == NULL)
            return header_error (error, _ ("“descr” is not a simple type such as '<f4'"));
          seen_descr = TRUE;
        }
      else if (g_str_equal (key, "fortran_order") && !seen_order)
        {
          if (take_word (&c, "True"))
            *fortran = TRUE;
          else if (take_word (&c, "False"))
            *fortran = FALSE;
          else
            return header_error (error, _ ("“fortran_order” is neither True nor False"));
          seen_order = TRUE;
        }
      else if (g_str_equal (key, "shape") && !seen_shape)
        {
          if (!take_shape (&c, shape))
            return header_error (error, _ ("“shape” is not a tuple of sizes"));
          seen_shape = TRUE;
        }
      else
        {
          g_autofree char *why = g_strdup_printf (_ ("unexpected key “%s”"), key);
          return header_error (error, why);
        }
      if (!take (&c, ','))
        {
          if (!take (&c, '}'))
            return header_error (error, _ ("the entries are not separated by “,”"));
          break;
        }
    }
  skip_space (&c);
  if (c.p != c.end)
    return header_error (error, _ ("there is text after the closing “}”"));
  if (!seen_descr || !seen_order || !seen_shape)
    return header_error (error, _ ("“descr”, “fortran_order” or “shape” is missing"));
  return TRUE;
}

/* Each element's bytes reversed; a complex value's two parts each. */
static void
swap_bytes (guint8 *d, guint64 count, guint size, gboolean complex)
{
  guint part = complex ? size / 2 : size;
  guint64 n = count * (size / part);

  for (guint64 i = 0; i < n; i++)
    {
      guint8 *e = d + i * part;
      for (guint a = 0, b = part - 1; a < b; a++, b--)
        {
          guint8 t = e[a];
          e[a] = e[b];
          e[b] = t;
        }
    }
}

/* @d holds the first @available bytes of a .npy file of @length bytes
 * (all of them when @contents is given: the data is then attached). */
static OviNpy *
parse (const guint8 *d, gsize available, guint64 length, GBytes *contents, GError **error)
{
  guint major, prefix;
  guint64 header_length, data_offset, count = 1, size;
  g_autofree char *descr = NULL;
  gboolean fortran = FALSE, swap = FALSE;
  g_autoptr (GArray) shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  Descr type;
  OviNpy *self;
  guint long_dims = 0;
  const char *code;

  if (available < MAGIC_LEN + 2 || memcmp (d, MAGIC, MAGIC_LEN) != 0)
    {
      g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_NOT_NPY,
                           _ ("not a .npy file: it does not start with “\\x93NUMPY”"));
      return NULL;
    }
  major = d[6];
  if (major < 1 || major > 3)
    {
      g_set_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_NOT_NPY,
                   _ ("the .npy format version %u.%u is not known (1.0, 2.0 and 3.0 are)"), major,
                   d[7]);
      return NULL;
    }
  prefix = major == 1 ? 10 : 12;
  if (available < prefix)
    {
      g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_SIZE,
                           _ ("the .npy file ends inside its header"));
      return NULL;
    }
  header_length = major == 1 ? (guint64) d[8] | (guint64) d[9] << 8
                             : (guint64) d[8] | (guint64) d[9] << 8 | (guint64) d[10] << 16 |
                                   (guint64) d[11] << 24;
  if (header_length > MAX_HEADER || prefix + header_length > available)
    {
      g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_SIZE,
                           _ ("the .npy file ends inside its header"));
      return NULL;
    }
  data_offset = prefix + header_length;
  if (!parse_dict ((const char *) d + prefix, header_length, &descr, &fortran, shape, error))
    return NULL;

  /* The byte order: '<' little, '>' big, '|' not applicable, '=' the
   * writer's own (little on every host numpy runs on for Ascend). */
  code = descr;
  if (*code == '<' || *code == '>' || *code == '|' || *code == '=')
    {
      swap = *code == '>';
      code++;
    }
  if (!descr_lookup (code, &type))
    {
      g_set_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_DTYPE,
                   _ ("the .npy dtype “%s” is not one the inspector compares (numbers: f2, f4, "
                      "f8, integers, b1, c8, c16)"),
                   descr);
      return NULL;
    }
  if (type.size == 1)
    swap = FALSE;

  for (guint i = 0; i < shape->len; i++)
    {
      guint64 dim = g_array_index (shape, guint64, i);
      if (dim != 0 && count > G_MAXUINT64 / dim)
        {
          g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_SIZE,
                               _ ("the .npy shape holds more elements than can be counted"));
          return NULL;
        }
      count *= dim;
      long_dims += dim > 1;
    }
  /* Fortran order lays the first index fastest; with at most one
   * dimension longer than 1 that is the same as C order. */
  if (fortran && long_dims > 1)
    {
      g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_ORDER,
                           _ ("the .npy array is in Fortran order: save it in C order "
                              "(numpy.ascontiguousarray) to compare it"));
      return NULL;
    }
  if (count > G_MAXUINT64 / type.size || count * type.size != length - data_offset)
    {
      size = count <= G_MAXUINT64 / type.size ? count * type.size : G_MAXUINT64;
      g_set_error (error, OVI_NPY_ERROR, OVI_NPY_ERROR_SIZE,
                   _ ("the .npy data is %" PRIu64 " bytes, its shape and dtype need %" PRIu64),
                   (guint64) (length - data_offset), size);
      return NULL;
    }
  size = count * type.size;

  self = g_new0 (OviNpy, 1);
  self->dtype = type.dtype;
  self->n_dims = shape->len;
  self->shape = g_memdup2 (shape->data, sizeof (guint64) * MAX (1, shape->len));
  self->count = count;
  self->version = major;
  self->fortran_order = fortran;
  self->data_offset = data_offset;
  self->big_endian = swap;
  self->item_size = type.size;
  if (contents == NULL)
    return self;
  if (swap)
    {
      guint8 *copy = g_memdup2 (d + data_offset, size);
      swap_bytes (copy, count, type.size, ovi_dtype_is_complex (type.dtype));
      self->data = g_bytes_new_take (copy, size);
    }
  else
    self->data = g_bytes_new_from_bytes (contents, data_offset, size);
  return self;
}

/**
 * ovi_npy_parse:
 * @contents: a whole .npy file
 *
 * Returns: (transfer full): the array, its data a part of @contents (or a
 *   byte-swapped copy); NULL with @error (OVI_NPY_ERROR) saying what is wrong
 */
OviNpy *
ovi_npy_parse (GBytes *contents, GError **error)
{
  gsize length;
  const guint8 *d = g_bytes_get_data (contents, &length);

  return parse (d, length, length, contents, error);
}

/**
 * ovi_npy_open:
 * @fd: (out): the file, open for reading, to be closed by the caller
 *
 * Reads only the header of the .npy file at @path, for a caller that
 * reads the data a part at a time (at OviNpy.data_offset, big-endian
 * where OviNpy.big_endian) rather than all of it into memory.
 *
 * Returns: (transfer full): the array without its data, or NULL with @error
 */
/* The one input opener: a FIFO named *.npy is refused, not waited on. */
static int
open_npy (const char *path, struct stat *st, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  int fd = ovi_regular_file_open (AT_FDCWD, path, st, &local_error);

  if (fd < 0)
    g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_IO, local_error->message);
  return fd;
}

OviNpy *
ovi_npy_open (const char *path, int *fd, GError **error)
{
  struct stat st;
  int f = open_npy (path, &st, error);
  guint8 start[12];
  g_autofree guint8 *header = NULL;
  gssize got;
  guint64 want;
  OviNpy *npy;

  if (f < 0)
    return NULL;
  got = pread (f, start, sizeof start, 0);
  if (got < 0)
    got = 0;
  /* The header's length is at 8, two bytes in version 1, four after. */
  want = (gsize) got < sizeof start ? (guint64) got
         : start[6] == 1            ? 10 + ((guint64) start[8] | (guint64) start[9] << 8)
                                    : 12 + ((guint64) start[8] | (guint64) start[9] << 8 |
                                 (guint64) start[10] << 16 | (guint64) start[11] << 24);
  want = MIN (MIN (want, (guint64) st.st_size), (guint64) MAX_HEADER + 12);
  header = g_malloc (MAX (want, 1));
  got = want ? pread (f, header, want, 0) : 0;
  npy = parse (header, got < 0 ? 0 : (gsize) got, st.st_size, NULL, error);
  if (npy == NULL)
    {
      close (f);
      return NULL;
    }
  *fd = f;
  return npy;
}

/**
 * ovi_npy_load:
 *
 * Maps and parses the .npy file at @path.
 *
 * Returns: (transfer full): the array, or NULL with @error
 */
OviNpy *
ovi_npy_load (const char *path, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GMappedFile) mapped = NULL;
  g_autoptr (GBytes) contents = NULL;
  struct stat st;
  int fd = open_npy (path, &st, error);

  if (fd < 0)
    return NULL;
  mapped = g_mapped_file_new_from_fd (fd, FALSE, &local_error);
  close (fd);
  if (mapped == NULL)
    {
      g_set_error_literal (error, OVI_NPY_ERROR, OVI_NPY_ERROR_IO, local_error->message);
      return NULL;
    }
  contents = g_mapped_file_get_bytes (mapped);
  return ovi_npy_parse (contents, error);
}

/* @n elements read from the file of @self, in place, little-endian. */
void
ovi_npy_to_little_endian (const OviNpy *self, guint8 *elements, guint64 n)
{
  if (self->big_endian)
    swap_bytes (elements, n, self->item_size, ovi_dtype_is_complex (self->dtype));
}

void
ovi_npy_free (OviNpy *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->data, g_bytes_unref);
  g_free (self->shape);
  g_free (self);
}

/* As the report writes shapes: "[2, 3]", "[5]", "[]". */
char *
ovi_npy_dup_shape_string (const OviNpy *self)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < self->n_dims; i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? ", " : "", self->shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}
