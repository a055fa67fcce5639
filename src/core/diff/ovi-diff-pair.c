/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ovi-diff-metrics.h"
#include "ovi-diff-pair.h"
#include "ovi-dump-file.h"
#include "ovi-file-name.h"
#include "ovi-layout.h"
#include "ovi-npy.h"
#include "ovi-shape.h"
#include "ovi-tensor.h"
#include "ovi-worker.h"

/* Both sides of one tensor pair read again for the pair view: a dump
 * file's tensor turned to its logical shape (device layouts lose their
 * padding) or a .npy file, widened to float64 as the diff compares them.
 * Both sides are held as they are stored (in logical order) and widened
 * element by element while the bins fill: no float64 copy of a tensor. */

/* G_DEFINE_QUARK's first argument is the domain's name: clang-format
 * would space out its dashes. */
/* clang-format off */
G_DEFINE_QUARK (ovi-diff-pair-error-quark, ovi_diff_pair_error)
/* clang-format on */

typedef struct
{
  GBytes *data; /* logical order, as stored */
  const guint8 *bytes;
  guint bits;
  guint64 count;
  guint position;
  char *path;
  OviDtype dtype;
  char *shape;
} Widened;

static void
widened_clear (Widened *w)
{
  g_clear_pointer (&w->data, g_bytes_unref);
  g_clear_pointer (&w->shape, g_free);
  g_clear_pointer (&w->path, g_free);
}

static char *
shape_string (const guint64 *shape, guint n_dims)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i > 0 ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* Element @i as a double. */
static inline double
value_at (const Widened *w, guint64 i)
{
  const guint8 *d = w->bytes;

  switch (w->bits)
    {
    case 4:
      return ovi_dtype_decode_pattern (w->dtype, (d[i / 2] >> (4 * (i & 1))) & 0xf);
    case 8:
      return ovi_dtype_decode_pattern (w->dtype, d[i]);
    case 16:
      return ovi_dtype_decode_pattern (w->dtype, ovi_load_u16 (d, i));
    default:
      return ovi_load_wide (w->dtype, d, i);
    }
}

/* Keeps @data to be widened, or FALSE with @error for a type the diff
 * does not widen or too few bytes. */
static gboolean
widen (const char *path, OviDtype dtype, GBytes *data, guint64 count, Widened *out, GError **error)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (data, &size);
  guint bits = ovi_dtype_bits (dtype);
  guint64 needed;

  if (!ovi_dtype_is_supported (dtype) || ovi_dtype_is_complex (dtype) ||
      (bits == 4 && dtype != OVI_DTYPE_INT4) || (bits != 4 && bits % 8 != 0) || bits > 64)
    {
      g_autofree char *label = ovi_dtype_dup_label (dtype);

      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_UNSUPPORTED,
                   _ ("%s: %s values are not compared"), path, label);
      return FALSE;
    }
  if (!ovi_dtype_size_for_count (dtype, count, &needed) || needed > size)
    {
      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NOT_COMPARABLE,
                   _ ("%s: %zu bytes are too few for %" PRIu64 " elements"), path, size, count);
      return FALSE;
    }
  out->data = g_bytes_ref (data);
  out->bytes = d;
  out->bits = bits;
  out->count = count;
  out->dtype = dtype;
  return TRUE;
}

static gboolean
read_npy (const char *path, Widened *out, GError **error)
{
  g_autoptr (OviNpy) npy = ovi_npy_load (path, error);

  if (npy == NULL)
    return FALSE;
  if (!widen (path, npy->dtype, npy->data, npy->count, out, error))
    return FALSE;
  out->shape = shape_string (npy->shape, npy->n_dims);
  out->path = g_strdup (path);
  out->position = G_MAXUINT;
  return TRUE;
}

static OviTensor *
find_tensor (OviDumpFile *file, OviTensorKind kind, guint index, guint *position)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);

  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);

      if (ovi_tensor_get_kind (t) == kind && ovi_tensor_get_index (t) == index)
        {
          *position = i;
          return t;
        }
    }
  return NULL;
}

/* One tensor of one dump file in logical order, with its dtype and
 * logical shape. */
static GBytes *
read_file_tensor (const char *path,
                  OviTensorKind kind,
                  guint index,
                  OviDtype *dtype,
                  GArray *shape,
                  guint *position,
                  GError **error)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr (OviDumpFile) file = ovi_dump_file_load (path, name, error);
  g_autoptr (GBytes) data = NULL;
  OviTensor *tensor;
  const guint64 *dims;
  guint n_dims;

  if (file == NULL)
    return NULL;
  tensor = find_tensor (file, kind, index, position);
  if (tensor == NULL)
    {
      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NO_TENSOR,
                   kind == OVI_TENSOR_INPUT ? _ ("%s has no input %u") : _ ("%s has no output %u"),
                   path, index);
      return NULL;
    }
  if ((data = ovi_tensor_load_data (tensor, error)) == NULL)
    return NULL;
  if (ovi_tensor_get_is_logical (tensor))
    {
      const guint64 *stored, *original;
      guint n_stored, n_original;
      GBytes *logical;

      stored = ovi_tensor_get_shape (tensor, &n_stored);
      original = ovi_tensor_get_original_shape (tensor, &n_original);
      logical =
          ovi_layout_to_logical (ovi_tensor_get_format (tensor), ovi_tensor_get_dtype (tensor),
                                 stored, n_stored, original, n_original, data, error);
      if (logical == NULL)
        return NULL;
      g_bytes_unref (data);
      data = logical;
    }
  dims = ovi_tensor_get_logical_shape (tensor, &n_dims);
  g_array_set_size (shape, 0);
  g_array_append_vals (shape, dims, n_dims);
  *dtype = ovi_tensor_get_dtype (tensor);
  return g_steal_pointer (&data);
}

static int
compare_thread (gconstpointer a, gconstpointer b)
{
  const OviFileName *x = *(OviFileName *const *) a, *y = *(OviFileName *const *) b;

  return x->thread_id < y->thread_id ? -1 : x->thread_id > y->thread_id;
}

static void
file_name_free (OviFileName *name)
{
  ovi_file_name_clear (name);
  g_free (name);
}

/* The FFTS+ thread slices of the execution @path belongs to (the same op
 * type, op name, task, stream and context id, as the scan groups them),
 * their paths in thread order; NULL when @path is not one of several. */
static GPtrArray *
slice_paths (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) file_name_free);
  g_autoptr (GDir) d = NULL;
  OviFileName self = { 0 };
  GPtrArray *paths = NULL;
  const char *entry;

  if (!ovi_file_name_parse (base, &self) || self.kind != OVI_FILE_KIND_OP_DUMP ||
      !self.has_context || (d = g_dir_open (dir, 0, NULL)) == NULL)
    {
      ovi_file_name_clear (&self);
      return NULL;
    }
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      OviFileName *n = g_new0 (OviFileName, 1);

      if (ovi_file_name_parse (entry, n) && n->kind == OVI_FILE_KIND_OP_DUMP && n->has_context &&
          g_strcmp0 (n->op_type, self.op_type) == 0 && g_strcmp0 (n->op_name, self.op_name) == 0 &&
          n->task_id == self.task_id && n->stream_id == self.stream_id &&
          n->context_id == self.context_id)
        {
          /* the name, kept for the sort: op_type is unused from here */
          g_free (n->op_type);
          n->op_type = g_build_filename (dir, entry, NULL);
          g_ptr_array_add (names, n);
        }
      else
        file_name_free (n);
    }
  ovi_file_name_clear (&self);
  if (names->len < 2)
    return NULL;
  g_ptr_array_sort (names, compare_thread);
  paths = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (paths, g_strdup (((OviFileName *) g_ptr_array_index (names, i))->op_type));
  return paths;
}

/* A dump file's tensor, or the same tensor of every FFTS+ thread slice
 * one after the other, as the diff joins them (shaped by their first
 * dimension where the others agree, flat otherwise). */
static gboolean
read_dump (const char *path, OviTensorKind kind, guint index, Widened *out, GError **error)
{
  g_autoptr (GPtrArray) slices = slice_paths (path);
  g_autoptr (GArray) shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GArray) first_shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GByteArray) joined = NULL;
  g_autoptr (GBytes) data = NULL;
  OviDtype dtype = OVI_DTYPE_UNDEFINED;
  guint64 count = 0, first_dim = 0;
  gboolean same_rest = TRUE;

  if (slices == NULL)
    {
      if ((data = read_file_tensor (path, kind, index, &dtype, shape, &out->position, error)) ==
          NULL)
        return FALSE;
      if (!ovi_shape_count ((const guint64 *) shape->data, shape->len, &count))
        count = 0;
      if (!widen (path, dtype, data, count, out, error))
        return FALSE;
      out->shape = shape_string ((const guint64 *) shape->data, shape->len);
      out->path = g_strdup (path);
      return TRUE;
    }
  joined = g_byte_array_new ();
  for (guint i = 0; i < slices->len; i++)
    {
      const char *slice = g_ptr_array_index (slices, i);
      OviDtype slice_dtype;
      guint position;
      guint64 n;
      g_autoptr (GBytes) part =
          read_file_tensor (slice, kind, index, &slice_dtype, shape, &position, error);

      if (part == NULL)
        return FALSE;
      if (!ovi_shape_count ((const guint64 *) shape->data, shape->len, &n))
        n = 0;
      if (i == 0)
        {
          dtype = slice_dtype;
          out->position = position;
          g_array_append_vals (first_shape, shape->data, shape->len);
        }
      else if (slice_dtype != dtype)
        {
          g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NOT_COMPARABLE,
                       _ ("%s: the thread slices have different dtypes"), slice);
          return FALSE;
        }
      else
        same_rest &= shape->len == first_shape->len && shape->len > 0 &&
                     memcmp (shape->data + sizeof (guint64), first_shape->data + sizeof (guint64),
                             sizeof (guint64) * (shape->len - 1)) == 0;
      first_dim += shape->len > 0 ? g_array_index (shape, guint64, 0) : 1;
      count += n;
      g_byte_array_append (joined, g_bytes_get_data (part, NULL), g_bytes_get_size (part));
    }
  if (same_rest && first_shape->len > 0)
    g_array_index (first_shape, guint64, 0) = first_dim;
  else
    {
      g_array_set_size (first_shape, 1);
      g_array_index (first_shape, guint64, 0) = count;
    }
  data = g_byte_array_free_to_bytes (g_steal_pointer (&joined));
  if (!widen (path, dtype, data, count, out, error))
    return FALSE;
  out->shape = shape_string ((const guint64 *) first_shape->data, first_shape->len);
  out->path = g_strdup (path);
  return TRUE;
}

/* The .npy file of tensor @kind @index next to @path, the golden
 * operator's first .npy file: the vendor's `{op}.{i}.{timestamp}.npy`
 * (outputs only) or convert's `{file}.{input|output}.{i}.npy`. */
static char *
find_npy (const char *path, OviTensorKind kind, guint index)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  const char *kind_name = kind == OVI_TENSOR_INPUT ? "input" : "output";
  g_auto (GStrv) parts = g_strsplit (base, ".", -1);
  guint n = g_strv_length (parts);

  /* convert's form: the "input|output.N" before ".npy" replaced. */
  if (n >= 4 && (g_str_equal (parts[n - 3], "input") || g_str_equal (parts[n - 3], "output")))
    {
      g_autofree char *prefix = NULL;
      g_autofree char *name = NULL;
      char *saved = parts[n - 3];

      parts[n - 3] = NULL;
      prefix = g_strjoinv (".", parts);
      parts[n - 3] = saved;
      name = g_strdup_printf ("%s.%s.%u.npy", prefix, kind_name, index);
      return g_build_filename (dir, name, NULL);
    }
  /* The vendor's form: {op}.{i}.{timestamp}.npy, outputs only; the same
   * execution (timestamp) as the operator's first file. */
  if (n >= 4 && kind == OVI_TENSOR_OUTPUT)
    {
      g_autofree char *op = NULL;
      g_autofree char *name = NULL;
      char *saved = parts[n - 3];

      parts[n - 3] = NULL;
      op = g_strjoinv (".", parts);
      parts[n - 3] = saved;
      name = g_strdup_printf ("%s.%u.%s.npy", op, index, parts[n - 2]);
      return g_build_filename (dir, name, NULL);
    }
  return index == 0 && kind == OVI_TENSOR_OUTPUT ? g_strdup (path) : NULL;
}

static gboolean
read_side (const char *path, OviTensorKind kind, guint index, Widened *out, GError **error)
{
  g_autofree char *npy = NULL;

  if (!g_str_has_suffix (path, ".npy"))
    return read_dump (path, kind, index, out, error);
  if ((npy = find_npy (path, kind, index)) == NULL || !g_file_test (npy, G_FILE_TEST_EXISTS))
    {
      g_autofree char *dir = g_path_get_dirname (path);

      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NO_TENSOR,
                   kind == OVI_TENSOR_INPUT ? _ ("%s holds no .npy file of input %u")
                                            : _ ("%s holds no .npy file of output %u"),
                   dir, index);
      return FALSE;
    }
  return read_npy (npy, out, error);
}

static void
describe (const Widened *w, OviDiffPairSide *side)
{
  double sum = 0;
  guint64 finite = 0;

  side->path = g_strdup (w->path);
  side->position = w->position;
  side->dtype = w->dtype;
  side->shape = g_strdup (w->shape);
  side->count = w->count;
  side->min = INFINITY;
  side->max = -INFINITY;
  for (guint64 i = 0; i < w->count; i++)
    {
      double v = value_at (w, i);

      if (isnan (v))
        side->nan++;
      else if (isinf (v))
        *(v < 0 ? &side->neg_inf : &side->pos_inf) += 1;
      else
        {
          side->min = MIN (side->min, v);
          side->max = MAX (side->max, v);
          sum += v;
          finite++;
        }
    }
  side->mean = finite > 0 ? sum / finite : NAN;
  if (finite == 0)
    side->min = side->max = NAN;
}

static OviHistogram *
histogram_new (guint n_bins, double lo, double hi)
{
  OviHistogram *h = g_new0 (OviHistogram, 1);

  if (!(lo <= hi))
    lo = hi = 0;
  if (lo == hi)
    {
      lo -= 0.5;
      hi += 0.5;
    }
  h->n_bins = n_bins;
  h->scale = OVI_HISTOGRAM_LINEAR;
  h->edges = g_new (double, n_bins + 1);
  h->counts = g_new0 (guint64, n_bins);
  for (guint i = 0; i <= n_bins; i++)
    h->edges[i] = lo + (hi - lo) * i / n_bins;
  h->edges[n_bins] = hi;
  return h;
}

static void
histogram_add (OviHistogram *h, double v)
{
  int bin;

  if (isnan (v))
    h->nan++;
  else if (isinf (v))
    *(v < 0 ? &h->neg_inf : &h->pos_inf) += 1;
  else if ((bin = ovi_histogram_find_bin (h, v)) >= 0)
    h->counts[bin]++;
}

/* NaN against NaN and an infinity against the same one agree by position,
 * as the diff compares them. */
static gboolean
agree (double x, double y, double rtol, double atol)
{
  if (isnan (x) || isnan (y))
    return isnan (x) && isnan (y);
  if (isinf (x) || isinf (y))
    return x == y;
  return ovi_diff_within (x, y, rtol, atol);
}

void
ovi_diff_pair_free (OviDiffPair *pair)
{
  if (pair == NULL)
    return;
  g_free (pair->mine.path);
  g_free (pair->mine.shape);
  g_free (pair->golden.path);
  g_free (pair->golden.shape);
  ovi_histogram_free (pair->mine_histogram);
  ovi_histogram_free (pair->golden_histogram);
  ovi_histogram_free (pair->difference);
  g_free (pair->strip);
  g_free (pair->strip_start);
  g_free (pair);
}

/**
 * ovi_diff_pair_compute:
 * @mine_path: my operator's dump file
 * @golden_path: the golden operator's dump file, or its first .npy file
 * @n_bins: regular bins of each histogram
 * @n_strip: bins of the strip (fewer when the tensor has fewer elements)
 *
 * Returns: (transfer full): the pair, or NULL with @error naming the file
 */
OviDiffPair *
ovi_diff_pair_compute (const char *mine_path,
                       const char *golden_path,
                       OviTensorKind kind,
                       guint index,
                       double rtol,
                       double atol,
                       guint n_bins,
                       guint n_strip,
                       GCancellable *cancellable,
                       GError **error)
{
  g_autoptr (OviDiffPair) pair = NULL;
  Widened mine = { 0 }, golden = { 0 };
  double lo, hi, dlo = INFINITY, dhi = -INFINITY;
  guint64 count;

  g_return_val_if_fail (mine_path != NULL && golden_path != NULL, NULL);
  g_return_val_if_fail (n_bins > 0 && n_strip > 0, NULL);

  if (!read_side (mine_path, kind, index, &mine, error) ||
      !read_side (golden_path, kind, index, &golden, error))
    goto out;
  if (mine.count != golden.count)
    {
      g_set_error (error, OVI_DIFF_PAIR_ERROR, OVI_DIFF_PAIR_ERROR_NOT_COMPARABLE,
                   _ ("%s holds %" PRIu64 " elements and %s %" PRIu64), mine_path, mine.count,
                   golden_path, golden.count);
      goto out;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;

  pair = g_new0 (OviDiffPair, 1);
  pair->kind = kind;
  pair->index = index;
  pair->rtol = rtol;
  pair->atol = atol;
  describe (&mine, &pair->mine);
  describe (&golden, &pair->golden);
  count = pair->count = mine.count;

  lo = fmin (pair->mine.min, pair->golden.min); /* fmin skips a NaN */
  hi = fmax (pair->mine.max, pair->golden.max);
  pair->mine_histogram = histogram_new (n_bins, lo, hi);
  pair->golden_histogram = histogram_new (n_bins, lo, hi);
  for (guint64 i = 0; i < count; i++)
    {
      double x = value_at (&mine, i), y = value_at (&golden, i);

      histogram_add (pair->mine_histogram, x);
      histogram_add (pair->golden_histogram, y);
      if (!agree (x, y, 0, 0))
        {
          double d = x - y;

          if (isfinite (d))
            {
              dlo = MIN (dlo, d);
              dhi = MAX (dhi, d);
            }
        }
    }

  pair->n_strip = (guint) MIN ((guint64) n_strip, MAX (count, 1));
  pair->strip = g_new0 (guint64, pair->n_strip);
  pair->strip_start = g_new (guint64, pair->n_strip + 1);
  for (guint b = 0; b <= pair->n_strip; b++)
    pair->strip_start[b] = count * b / pair->n_strip;

  pair->difference = histogram_new (n_bins, dlo, dhi);
  for (guint b = 0; b < pair->n_strip; b++)
    for (guint64 i = pair->strip_start[b]; i < pair->strip_start[b + 1]; i++)
      {
        double x = value_at (&mine, i), y = value_at (&golden, i);

        if (!agree (x, y, 0, 0))
          histogram_add (pair->difference, x - y);
        if (!agree (x, y, rtol, atol))
          {
            pair->strip[b]++;
            pair->out_of_tolerance++;
          }
      }

out:
  widened_clear (&mine);
  widened_clear (&golden);
  return g_steal_pointer (&pair);
}

typedef struct
{
  char *mine_path, *golden_path;
  OviTensorKind kind;
  guint index, n_bins, n_strip;
  double rtol, atol;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_free (data->mine_path);
  g_free (data->golden_path);
  g_free (data);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  OviDiffPair *pair;

  pair = ovi_diff_pair_compute (data->mine_path, data->golden_path, data->kind, data->index,
                                data->rtol, data->atol, data->n_bins, data->n_strip, cancellable,
                                &error);
  if (pair == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, pair, (GDestroyNotify) ovi_diff_pair_free);
}

/**
 * ovi_diff_pair_compute_async:
 *
 * ovi_diff_pair_compute() on the worker pool. The page passes what the
 * diff's result says of the operator and its tensor pair (both sides'
 * paths, the kind, the index and the tolerance the diff used).
 */
void
ovi_diff_pair_compute_async (const char *mine_path,
                             const char *golden_path,
                             OviTensorKind kind,
                             guint index,
                             double rtol,
                             double atol,
                             guint n_bins,
                             guint n_strip,
                             GCancellable *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ComputeData *data;

  g_return_if_fail (mine_path != NULL && golden_path != NULL);
  g_return_if_fail (n_bins > 0 && n_strip > 0);

  g_task_set_source_tag (task, ovi_diff_pair_compute_async);
  data = g_new0 (ComputeData, 1);
  data->mine_path = g_strdup (mine_path);
  data->golden_path = g_strdup (golden_path);
  data->kind = kind;
  data->index = index;
  data->rtol = rtol;
  data->atol = atol;
  data->n_bins = n_bins;
  data->n_strip = n_strip;
  g_task_set_task_data (task, data, (GDestroyNotify) compute_data_free);
  ovi_worker_run_in_thread (task, compute_thread);
}

OviDiffPair *
ovi_diff_pair_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
