/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-atomic-file.h"
#include "ovi-dtype.h"
#include "ovi-dump-file-private.h"
#include "ovi-error.h"
#include "ovi-export.h"
#include "ovi-layout.h"
#include "ovi-overflow-record.h"
#include "ovi-shape.h"
#include "ovi-tensor-private.h"

#define BUFFER_SIZE OVI_ATOMIC_FILE_BUFFER_SIZE
/* Tensors up to this size are read into the output's buffer and written
 * with their header in one write(): for a few bytes, copy_file_range() is
 * one more system call, and a slow one on tmpfs (it goes through splice). */
#define SMALL_TENSOR (64u << 10)

gboolean
ovi_export_write_contents (
    const char *path, const char *contents, gsize length, OviExportFlags flags, GError **error)
{
  g_autoptr (OviAtomicFile) out =
      ovi_atomic_file_new (path, flags & OVI_EXPORT_FLAGS_OVERWRITE, error);

  return out && ovi_atomic_file_write (out, contents, length, error) &&
         ovi_atomic_file_commit (out, error);
}

/* What each dtype becomes in .npy and .txt, as the vendor tools convert:
 * bfloat16 and float8 to float32, int4 to int8, bool to 0/1. numpy has no
 * hifloat8, float8_e8m0 or complex32 either: they become float32 and
 * complex64 the same way, exactly (every value they hold is a float32). */
static gboolean
convert_elements (OviDtype dtype, const guint8 *d, guint64 start, guint64 n, guint8 *out)
{
  switch (dtype)
    {
    case OVI_DTYPE_BFLOAT16:
      for (guint64 i = 0; i < n; i++)
        ((float *) out)[i] = ovi_bfloat16_to_float (ovi_load_u16 (d, start + i));
      return TRUE;
    case OVI_DTYPE_FLOAT8_E5M2:
      for (guint64 i = 0; i < n; i++)
        ((float *) out)[i] = ovi_float8_e5m2_to_float (d[start + i]);
      return TRUE;
    case OVI_DTYPE_FLOAT8_E4M3FN:
      for (guint64 i = 0; i < n; i++)
        ((float *) out)[i] = ovi_float8_e4m3fn_to_float (d[start + i]);
      return TRUE;
    case OVI_DTYPE_FLOAT8_E8M0:
      for (guint64 i = 0; i < n; i++)
        ((float *) out)[i] = ovi_float8_e8m0_to_float (d[start + i]);
      return TRUE;
    case OVI_DTYPE_HIFLOAT8:
      for (guint64 i = 0; i < n; i++)
        ((float *) out)[i] = ovi_hifloat8_to_float (d[start + i]);
      return TRUE;
    case OVI_DTYPE_COMPLEX32:
      /* Real and imaginary float16 parts become float32 parts. */
      for (guint64 i = 0; i < 2 * n; i++)
        ((float *) out)[i] = ovi_half_to_float (ovi_load_u16 (d, 2 * start + i));
      return TRUE;
    case OVI_DTYPE_INT4:
      for (guint64 i = 0; i < n; i++)
        {
          guint64 k = start + i;
          guint8 nib = (d[k / 2] >> (4 * (k & 1))) & 0xf;
          ((gint8 *) out)[i] = (nib & 0x8) ? (gint8) (nib | 0xf0) : (gint8) nib;
        }
      return TRUE;
    case OVI_DTYPE_BOOL:
      for (guint64 i = 0; i < n; i++)
        out[i] = d[start + i] != 0;
      return TRUE;
    default:
      return FALSE;
    }
}

static gsize
npy_item_size (OviDtype dtype)
{
  switch (dtype)
    {
    case OVI_DTYPE_BFLOAT16:
    case OVI_DTYPE_FLOAT8_E5M2:
    case OVI_DTYPE_FLOAT8_E4M3FN:
    case OVI_DTYPE_FLOAT8_E8M0:
    case OVI_DTYPE_HIFLOAT8:
      return 4;
    case OVI_DTYPE_COMPLEX32:
      return 8;
    case OVI_DTYPE_INT4:
      return 1;
    default:
      return ovi_dtype_bits (dtype) / 8;
    }
}

static char *
npy_header (OviDtype dtype, const guint64 *shape, guint n_dims, gsize *length)
{
  GString *dict = g_string_new (NULL);
  GString *out;
  guint16 len16;
  guint32 len32;
  gboolean v2;

  g_string_append_printf (dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                          ovi_dtype_npy_descr (dtype));
  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (dict, "%" G_GUINT64_FORMAT "%s", shape[i],
                            n_dims == 1 ? "," : (i + 1 < n_dims ? ", " : ""));
  g_string_append (dict, "), }");
  /* Pad with spaces and a newline so the data starts 64-byte aligned. */
  v2 = dict->len + 12 > 65535;
  while ((dict->len + 1 + (v2 ? 12 : 10)) % 64 != 0)
    g_string_append_c (dict, ' ');
  g_string_append_c (dict, '\n');

  out = g_string_new_len ("\x93NUMPY", 6);
  g_string_append_c (out, v2 ? 2 : 1);
  g_string_append_c (out, 0);
  if (v2)
    {
      len32 = GUINT32_TO_LE (dict->len);
      g_string_append_len (out, (const char *) &len32, 4);
    }
  else
    {
      len16 = GUINT16_TO_LE (dict->len);
      g_string_append_len (out, (const char *) &len16, 2);
    }
  g_string_append_len (out, dict->str, dict->len);
  g_string_free (dict, TRUE);
  *length = out->len;
  return g_string_free (out, FALSE);
}

static gboolean
write_npy (OviAtomicFile *out,
           OviDtype dtype,
           const guint64 *shape,
           guint n_dims,
           GBytes *data,
           guint64 count,
           GError **error)
{
  const guint8 *d = g_bytes_get_data (data, NULL);
  gsize header_length, item = npy_item_size (dtype);
  g_autofree char *header = npy_header (dtype, shape, n_dims, &header_length);
  g_autofree guint8 *chunk = NULL;
  const guint64 per_chunk = 1u << 18;

  if (!ovi_atomic_file_write (out, header, header_length, error))
    return FALSE;
  if (!convert_elements (dtype, d, 0, 0, NULL))
    return ovi_atomic_file_write (out, d, count * item, error);

  chunk = g_malloc (per_chunk * item);
  for (guint64 i = 0; i < count; i += per_chunk)
    {
      guint64 n = MIN (per_chunk, count - i);
      convert_elements (dtype, d, i, n, chunk);
      if (!ovi_atomic_file_write (out, chunk, n * item, error))
        return FALSE;
    }
  return TRUE;
}

/* Python's "%.18e" % x: like C's, but NaN of either sign is "nan". */
static int
format_e18 (char *buf, double v)
{
  if (isnan (v))
    return (int) g_strlcpy (buf, "nan", 32);
  return snprintf (buf, 32, "%.18e", v);
}

/* numpy.savetxt(path, array.flatten()) with its defaults: one value a line,
 * "%.18e"; complex values as " (re+imj)" with "+-" turned into "-". Types of
 * 16 bits or fewer format each distinct bit pattern once. */
static gboolean
write_txt (OviAtomicFile *out, OviDtype dtype, GBytes *data, guint64 count, GError **error)
{
  const guint8 *d = g_bytes_get_data (data, NULL);
  guint bits = ovi_dtype_bits (dtype);
  char line[128];

  if (ovi_dtype_is_complex (dtype))
    {
      for (guint64 i = 0; i < count; i++)
        {
          double re, im;
          if (dtype == OVI_DTYPE_COMPLEX32)
            {
              re = ovi_half_to_float (ovi_load_u16 (d, 2 * i));
              im = ovi_half_to_float (ovi_load_u16 (d, 2 * i + 1));
            }
          else if (dtype == OVI_DTYPE_COMPLEX64)
            {
              re = ovi_load_f32 (d, 2 * i);
              im = ovi_load_f32 (d, 2 * i + 1);
            }
          else
            {
              re = ovi_load_f64 (d, 2 * i);
              im = ovi_load_f64 (d, 2 * i + 1);
            }
          char a[32], b[32];
          int n;
          format_e18 (a, re);
          format_e18 (b, im);
          n = snprintf (line, sizeof line, " (%s%s%sj)\n", a, b[0] == '-' ? "" : "+", b);
          if (!ovi_atomic_file_write (out, line, n, error))
            return FALSE;
        }
      return TRUE;
    }

  if (bits <= 16)
    {
      gsize n_patterns = (gsize) 1 << bits;
      g_autofree char *texts = g_malloc0 (n_patterns * 32);
      g_autofree guint8 *lengths = g_malloc0 (n_patterns);

      for (guint64 i = 0; i < count; i++)
        {
          guint32 p = bits == 16  ? ovi_load_u16 (d, i)
                      : bits == 8 ? d[i]
                                  : (d[i / 2] >> (4 * (i & 1))) & 0xf;
          if (dtype == OVI_DTYPE_BOOL)
            p = p != 0;
          if (lengths[p] == 0)
            {
              int n = format_e18 (texts + 32 * p, ovi_dtype_decode_pattern (dtype, p));
              texts[32 * p + n] = '\n';
              lengths[p] = n + 1;
            }
          if (!ovi_atomic_file_write (out, texts + 32 * p, lengths[p], error))
            return FALSE;
        }
      return TRUE;
    }

  for (guint64 i = 0; i < count; i++)
    {
      int n = format_e18 (line, ovi_load_wide (dtype, d, i));
      line[n++] = '\n';
      if (!ovi_atomic_file_write (out, line, n, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * ovi_export_tensor_data:
 * @shape: the shape written into .npy
 *
 * Writes a tensor as .npy, .txt or raw .bin, atomically.
 */
gboolean
ovi_export_tensor_data (OviDtype dtype,
                        const guint64 *shape,
                        guint n_dims,
                        GBytes *data,
                        OviExportFormat format,
                        const char *path,
                        OviExportFlags flags,
                        GError **error)
{
  g_autoptr (OviAtomicFile) out = NULL;
  guint64 count = 1, needed;
  gboolean ok;

  if (format != OVI_EXPORT_BIN)
    {
      for (guint i = 0; i < n_dims; i++)
        count *= shape[i];
      if (ovi_dtype_is_packing_unknown (dtype))
        {
          g_autofree char *reason = ovi_dtype_dup_unsupported_reason (dtype);
          g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED, reason);
          return FALSE;
        }
      if (!ovi_dtype_is_supported (dtype) || ovi_dtype_npy_descr (dtype) == NULL)
        {
          g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                       _ ("unsupported dtype %d: only its raw bytes can be exported (.bin)"),
                       dtype);
          return FALSE;
        }
      if (!ovi_dtype_size_for_count (dtype, count, &needed) || needed > g_bytes_get_size (data))
        {
          g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                       _ ("the tensor holds %zu bytes, fewer than its shape needs"),
                       g_bytes_get_size (data));
          return FALSE;
        }
    }

  if (!(out = ovi_atomic_file_new (path, flags & OVI_EXPORT_FLAGS_OVERWRITE, error)))
    return FALSE;
  switch (format)
    {
    case OVI_EXPORT_NPY:
      ok = write_npy (out, dtype, shape, n_dims, data, count, error);
      break;
    case OVI_EXPORT_TXT:
      ok = write_txt (out, dtype, data, count, error);
      break;
    default:
      ok = ovi_atomic_file_write (out, g_bytes_get_data (data, NULL), g_bytes_get_size (data),
                                  error);
    }
  return ok && ovi_atomic_file_commit (out, error);
}

typedef enum
{
  COPY_DONE,
  COPY_FAILED,
  COPY_NOT_POSSIBLE,
} CopyResult;

/* The common case, a tensor written as it is stored (raw .bin, or .npy of
 * a dtype numpy has), copied from the dump file without loading it. */
static CopyResult
copy_tensor (OviTensor *tensor,
             int source_fd,
             GBytes *source_data,
             OviExportFormat format,
             int dirfd,
             const char *path,
             OviExportFlags flags,
             GError **error)
{
  g_autoptr (OviAtomicFile) out = NULL;
  g_autofree char *header = NULL;
  const char *in_name;
  OviDtype dtype = ovi_tensor_get_dtype (tensor);
  guint64 offset, length = ovi_tensor_get_size (tensor), count = ovi_tensor_get_count (tensor);
  guint64 flat = count;
  gsize header_length = 0;
  const guint64 *shape;
  guint n_dims;
  gboolean ok;
  int fd;

  shape = ovi_tensor_get_shape (tensor, &n_dims);
  if (n_dims == 0 && count != 1)
    {
      shape = &flat;
      n_dims = 1;
    }
  if (format == OVI_EXPORT_NPY)
    {
      if ((flags & OVI_EXPORT_FLAGS_LOGICAL) &&
          ovi_layout_is_device (ovi_tensor_get_format (tensor)))
        return COPY_NOT_POSSIBLE;
      if (!ovi_dtype_is_supported (dtype) || ovi_dtype_npy_descr (dtype) == NULL ||
          convert_elements (dtype, NULL, 0, 0, NULL) || !ovi_shape_count (shape, n_dims, &count) ||
          count > G_MAXUINT64 / npy_item_size (dtype) || count * npy_item_size (dtype) > length)
        return COPY_NOT_POSSIBLE;
      length = count * npy_item_size (dtype);
      header = npy_header (dtype, shape, n_dims, &header_length);
    }
  else if (format != OVI_EXPORT_BIN)
    return COPY_NOT_POSSIBLE;

  /* The dump file opened once for all its tensors, or for this one. */
  if (source_fd >= 0 && ovi_tensor_get_data_offset (tensor, &offset))
    fd = source_fd;
  else if ((fd = ovi_tensor_open_data (tensor, &offset, error)) < 0)
    return error && *error ? COPY_FAILED : COPY_NOT_POSSIBLE;
  if (!(out = ovi_atomic_file_new_at (dirfd, path, flags & OVI_EXPORT_FLAGS_OVERWRITE, error)))
    {
      if (fd != source_fd)
        close (fd);
      return COPY_FAILED;
    }
  in_name = ovi_dump_file_get_name (ovi_tensor_get_file (tensor));
  if (fd == source_fd && source_data && offset <= g_bytes_get_size (source_data) &&
      length <= g_bytes_get_size (source_data) - offset)
    ok = ovi_atomic_file_write (out, header, header_length, error) &&
         ovi_atomic_file_write (out, (const guint8 *) g_bytes_get_data (source_data, NULL) + offset,
                                length, error) &&
         ovi_atomic_file_commit (out, error);
  else
    ok = ovi_atomic_file_write (out, header, header_length, error) &&
         (length <= SMALL_TENSOR && header_length + length <= BUFFER_SIZE
              ? ovi_atomic_file_read_from (out, fd, offset, length, in_name, error)
              : ovi_atomic_file_copy_from (out, fd, offset, length, in_name, error)) &&
         ovi_atomic_file_commit (out, error);
  if (fd != source_fd)
    close (fd);
  return ok ? COPY_DONE : COPY_FAILED;
}

/**
 * ovi_export_tensor:
 *
 * Buffers and workspaces have no dtype of their own: they export as raw
 * bytes whatever @format says.
 */
gboolean
ovi_export_tensor (OviTensor *tensor,
                   OviExportFormat format,
                   const char *path,
                   OviExportFlags flags,
                   GError **error)
{
  return ovi_export_tensor_at (tensor, -1, NULL, format, -1, path, flags, error);
}

/**
 * ovi_export_open_source:
 *
 * Opens @file to export several of its tensors through one descriptor
 * (ovi_export_tensor_from()), after checking it still has the size it was
 * listed with.
 *
 * Returns: a descriptor to close, or -1 with @error set
 */
int
ovi_export_open_source (OviDumpFile *file, GError **error)
{
  return ovi_dump_file_open_range (file, 0, ovi_dump_file_get_file_size (file), error);
}

/**
 * ovi_export_tensor_from:
 * @source_fd: the tensor's dump file from ovi_export_open_source(), or -1
 *   to open it for this tensor alone
 *
 * Like ovi_export_tensor().
 */
gboolean
ovi_export_tensor_from (OviTensor *tensor,
                        int source_fd,
                        OviExportFormat format,
                        const char *path,
                        OviExportFlags flags,
                        GError **error)
{
  return ovi_export_tensor_at (tensor, source_fd, NULL, format, -1, path, flags, error);
}

/**
 * ovi_export_read_source:
 * @source_fd: from ovi_export_open_source()
 *
 * Reads all of a small dump file (up to 1 MiB) in one system call, for
 * ovi_export_tensor_at() to take its tensors' bytes from, instead of one
 * read for each tensor.
 *
 * Returns: (nullable): the file's bytes, or %NULL when it is larger or
 *   cannot be read whole (the tensors are then read on their own)
 */
GBytes *
ovi_export_read_source (OviDumpFile *file, int source_fd)
{
  guint64 size = ovi_dump_file_get_file_size (file);
  char *buf;
  gssize n;

  if (source_fd < 0 || size == 0 || size > BUFFER_SIZE)
    return NULL;
  buf = g_malloc (size);
  do
    n = pread (source_fd, buf, size, 0);
  while (n < 0 && errno == EINTR);
  if (n != (gssize) size)
    {
      g_free (buf);
      return NULL;
    }
  return g_bytes_new_take (buf, size);
}

/**
 * ovi_export_tensor_at:
 * @source_data: (nullable): the whole dump file from
 *   ovi_export_read_source(), read from @source_fd
 * @dirfd: a descriptor of @path's folder, or -1
 *
 * Like ovi_export_tensor_from(); tensors copied as they are stored are
 * created relative to @dirfd (see ovi_atomic_file_new_at()). Safe to call
 * from several threads for different files.
 */
gboolean
ovi_export_tensor_at (OviTensor *tensor,
                      int source_fd,
                      GBytes *source_data,
                      OviExportFormat format,
                      int dirfd,
                      const char *path,
                      OviExportFlags flags,
                      GError **error)
{
  g_autoptr (GBytes) data = NULL;
  OviTensorKind kind = ovi_tensor_get_kind (tensor);
  const guint64 *shape;
  guint n_dims;
  guint64 flat;

  if (kind == OVI_TENSOR_BUFFER || kind == OVI_TENSOR_SPACE)
    format = OVI_EXPORT_BIN;
  shape = ovi_tensor_get_shape (tensor, &n_dims);
  switch (copy_tensor (tensor, source_fd, source_data, format, dirfd, path, flags, error))
    {
    case COPY_DONE:
      return TRUE;
    case COPY_FAILED:
      return FALSE;
    case COPY_NOT_POSSIBLE:
      break;
    }
  if (!(data = ovi_tensor_load_data (tensor, error)))
    return FALSE;
  if ((flags & OVI_EXPORT_FLAGS_LOGICAL) && format != OVI_EXPORT_BIN &&
      ovi_layout_is_device (ovi_tensor_get_format (tensor)))
    {
      const guint64 *original;
      guint n_original;
      GBytes *logical;

      original = ovi_tensor_get_original_shape (tensor, &n_original);
      if (!(logical = ovi_layout_to_logical (ovi_tensor_get_format (tensor),
                                             ovi_tensor_get_dtype (tensor), shape, n_dims, original,
                                             n_original, data, error)))
        return FALSE;
      g_bytes_unref (data);
      data = logical;
      shape = original;
      n_dims = n_original;
    }
  else if (n_dims == 0 && ovi_tensor_get_count (tensor) != 1)
    {
      /* No shape in the header: a flat array of what the size holds. */
      flat = ovi_tensor_get_count (tensor);
      shape = &flat;
      n_dims = 1;
    }
  return ovi_export_tensor_data (ovi_tensor_get_dtype (tensor), shape, n_dims, data, format, path,
                                 flags, error);
}

/* A name restored from mapping.csv can be too long for a file name, which
 * is why the runtime shortened it: use the short name on disk then, as the
 * vendor converter does. */
static char *
export_base_name (OviDumpFile *file)
{
  const char *name = ovi_dump_file_get_name (file);

  if (strlen (name) > 200)
    return g_path_get_basename (ovi_dump_file_get_path (file));
  return g_strdup (name);
}

/**
 * ovi_export_tensor_file_name:
 *
 * Returns: the vendor converter's name for the tensor's output file:
 *   `F.output.0.npy`, `F.input.1.txt`, `F.output.0.{count}.{dtype}.{FORMAT}.bin`,
 *   `F.l1buffer.0.bin`, `F.space.0.bin`
 */
char *
ovi_export_tensor_file_name (OviTensor *tensor, OviExportFormat format)
{
  OviDumpFile *file = ovi_tensor_get_file (tensor);
  g_autofree char *name = file ? export_base_name (file) : g_strdup ("tensor");
  guint index = ovi_tensor_get_index (tensor);
  g_autofree char *dtype = NULL;
  g_autofree char *fmt = NULL;

  switch (ovi_tensor_get_kind (tensor))
    {
    case OVI_TENSOR_BUFFER:
      return g_strdup_printf ("%s.l1buffer.%u.bin", name, index);
    case OVI_TENSOR_SPACE:
      return g_strdup_printf ("%s.space.%u.bin", name, index);
    default:
      break;
    }
  if (format == OVI_EXPORT_BIN)
    {
      dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (tensor));
      fmt = ovi_format_dup_label (ovi_tensor_get_format (tensor));
      g_strdelimit (dtype, " ", '_');
      return g_strdup_printf ("%s.%s.%u.%" G_GUINT64_FORMAT ".%s.%s.bin", name,
                              ovi_tensor_get_kind_name (tensor), index,
                              ovi_tensor_get_count (tensor), dtype, fmt);
    }
  return g_strdup_printf ("%s.%s.%u.%s", name, ovi_tensor_get_kind_name (tensor), index,
                          format == OVI_EXPORT_TXT ? "txt" : "npy");
}

/**
 * ovi_export_overflow_json:
 *
 * Writes the overflow file's record as the vendor converter's JSON.
 */
gboolean
ovi_export_overflow_json (OviDumpFile *overflow_file,
                          const char *path,
                          OviExportFlags flags,
                          GError **error)
{
  g_autoptr (GBytes) payload = ovi_dump_file_dup_overflow_payload (overflow_file, error);
  g_autofree char *json = NULL;

  if (payload == NULL)
    return FALSE;
  if (!(json = ovi_overflow_fields_vendor_json (g_bytes_get_data (payload, NULL),
                                                g_bytes_get_size (payload), error)))
    return FALSE;
  return ovi_export_write_contents (path, json, strlen (json), flags, error);
}

char *
ovi_export_overflow_file_name (OviDumpFile *overflow_file)
{
  g_autofree char *name = export_base_name (overflow_file);

  return g_strdup_printf ("%s.output.0.json", name);
}
