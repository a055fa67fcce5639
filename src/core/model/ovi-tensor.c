/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-dtype.h"
#include "ovi-dump-file-private.h"
#include "ovi-error.h"
#include "ovi-format-enums.h"
#include "ovi-layout.h"
#include "ovi-shape.h"
#include "ovi-statistic-csv.h"
#include "ovi-tensor-private.h"
#include "ovi-tensor-result.h"
#include "ovi-worker.h"

/* One input, output, buffer or workspace of an op dump file. The bytes stay
 * on disk until ovi_tensor_load_data() maps them. */
struct _OviTensor
{
  GObject parent_instance;

  OviDumpFile *file; /* unowned: the file owns its tensors and clears this */
  OviTensorKind kind;
  guint index;
  OviDtype dtype;
  OviFormat format;
  GArray *shape;
  GArray *original_shape;
  guint64 size;
  guint64 count; /* stored elements */
  guint64 offset;
  /* A device layout: where its logical elements are stored, or why they
   * cannot be found (and the statistics are over the stored values). */
  OviLayoutMap *layout_map;
  char *layout_problem;
  guint arg_index; /* newer schema fields; 0 when not written */
  guint64 address; /* the device address of an input or output; 0 when unknown */
  guint input_type;
  int space_type;

  GMutex lock;
  OviAnalysis *analysis;
  OviAnalysis *stored_analysis; /* a device layout's stored values, padding included */

  /* Statistics-mode dumps: the analysis is what the file said, and there
   * are no values to read. */
  gboolean statistics_only;
  OviStatisticFields known;
  double written[4]; /* max, min, mean, L2 norm as the statistics file wrote them */
  guint64 neg_zeros;
  guint64 pos_zeros;
};

G_DEFINE_FINAL_TYPE (OviTensor, ovi_tensor, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_KIND_NAME,
  PROP_INDEX,
  PROP_DTYPE,
  PROP_DTYPE_NAME,
  PROP_FORMAT_NAME,
  PROP_SHAPE,
  PROP_SIZE,
  PROP_COUNT,
  PROP_LABEL,
  PROP_ARG_INDEX,
  PROP_INPUT_TYPE,
  PROP_SPACE_TYPE_LABEL,
  PROP_STATISTICS_ONLY,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static void
ovi_tensor_finalize (GObject *object)
{
  OviTensor *self = OVI_TENSOR (object);
  g_array_unref (self->shape);
  g_array_unref (self->original_shape);
  g_clear_pointer (&self->layout_map, ovi_layout_map_free);
  g_free (self->layout_problem);
  g_clear_pointer (&self->analysis, ovi_analysis_unref);
  g_clear_pointer (&self->stored_analysis, ovi_analysis_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (ovi_tensor_parent_class)->finalize (object);
}

static void
ovi_tensor_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviTensor *self = OVI_TENSOR (object);

  switch (prop_id)
    {
    case PROP_KIND_NAME:
      g_value_set_string (value, ovi_tensor_get_kind_name (self));
      break;
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_DTYPE:
      g_value_set_enum (value, self->dtype);
      break;
    case PROP_DTYPE_NAME:
      g_value_take_string (value, ovi_dtype_dup_label (self->dtype));
      break;
    case PROP_FORMAT_NAME:
      g_value_take_string (value, ovi_format_dup_label (self->format));
      break;
    case PROP_SHAPE:
      g_value_take_string (value, ovi_tensor_dup_shape_string (self));
      break;
    case PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;
    case PROP_COUNT:
      g_value_set_uint64 (value, self->count);
      break;
    case PROP_LABEL:
      g_value_take_string (value, ovi_tensor_dup_label (self));
      break;
    case PROP_ARG_INDEX:
      g_value_set_uint (value, self->arg_index);
      break;
    case PROP_INPUT_TYPE:
      g_value_set_uint (value, self->input_type);
      break;
    case PROP_SPACE_TYPE_LABEL:
      g_value_take_string (value, ovi_tensor_dup_space_type_label (self));
      break;
    case PROP_STATISTICS_ONLY:
      g_value_set_boolean (value, self->statistics_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_tensor_class_init (OviTensorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_tensor_finalize;
  object_class->get_property = ovi_tensor_get_property;

  properties[PROP_KIND_NAME] = g_param_spec_string ("kind-name", NULL, NULL, NULL, flags);
  properties[PROP_INDEX] = g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_DTYPE] =
      g_param_spec_enum ("dtype", NULL, NULL, OVI_TYPE_DTYPE, OVI_DTYPE_UNDEFINED, flags);
  properties[PROP_DTYPE_NAME] = g_param_spec_string ("dtype-name", NULL, NULL, NULL, flags);
  properties[PROP_FORMAT_NAME] = g_param_spec_string ("format-name", NULL, NULL, NULL, flags);
  properties[PROP_SHAPE] = g_param_spec_string ("shape", NULL, NULL, NULL, flags);
  properties[PROP_SIZE] = g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_COUNT] = g_param_spec_uint64 ("count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  properties[PROP_ARG_INDEX] = g_param_spec_uint ("arg-index", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_INPUT_TYPE] =
      g_param_spec_uint ("input-type", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_SPACE_TYPE_LABEL] =
      g_param_spec_string ("space-type-label", NULL, NULL, NULL, flags);
  properties[PROP_STATISTICS_ONLY] =
      g_param_spec_boolean ("statistics-only", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_tensor_init (OviTensor *self)
{
  g_mutex_init (&self->lock);
}

OviTensor *
ovi_tensor_new (OviDumpFile *file,
                OviTensorKind kind,
                guint index,
                OviDtype dtype,
                OviFormat format,
                const guint64 *shape,
                guint n_dims,
                const guint64 *original_shape,
                guint n_original_dims,
                guint64 size,
                guint64 offset)
{
  OviTensor *self = g_object_new (OVI_TYPE_TENSOR, NULL);
  guint bits = ovi_dtype_bits (dtype);

  self->file = file;
  self->kind = kind;
  self->index = index;
  self->dtype = dtype;
  self->format = format;
  self->shape = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n_dims);
  g_array_append_vals (self->shape, shape, n_dims);
  self->original_shape = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n_original_dims);
  g_array_append_vals (self->original_shape, original_shape, n_original_dims);
  self->size = size;
  self->offset = offset;

  /* Without dimensions the size tells the count (buffers, workspaces). */
  if (n_dims > 0 && kind != OVI_TENSOR_BUFFER && kind != OVI_TENSOR_SPACE)
    {
      if (!ovi_shape_count (shape, n_dims, &self->count))
        self->count = 0;
    }
  else if (bits >= 8)
    self->count = size / (bits / 8);
  else if (bits > 0)
    self->count = size * (8 / bits);
  else
    self->count = size;

  if (ovi_layout_is_device (format) && kind != OVI_TENSOR_BUFFER && kind != OVI_TENSOR_SPACE)
    {
      g_autoptr (GError) error = NULL;

      self->layout_map = ovi_layout_map_new (format, dtype, shape, n_dims, original_shape,
                                             n_original_dims, &error);
      if (self->layout_map == NULL)
        self->layout_problem = g_strdup (error->message);
      else if (ovi_layout_map_get_stored_count (self->layout_map) != self->count)
        {
          g_clear_pointer (&self->layout_map, ovi_layout_map_free);
          self->layout_problem = g_strdup (_ ("the shape is too large"));
        }
    }
  return self;
}

OviTensorKind
ovi_tensor_get_kind (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->kind;
}

/**
 * ovi_tensor_get_kind_name:
 * Returns: "input", "output", "buffer" or "space" (the words of the report).
 */
const char *
ovi_tensor_get_kind_name (OviTensor *self)
{
  static const char *const names[] = { "input", "output", "buffer", "space" };
  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);
  return names[self->kind];
}

guint
ovi_tensor_get_index (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->index;
}

OviDtype
ovi_tensor_get_dtype (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->dtype;
}

OviFormat
ovi_tensor_get_format (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->format;
}

const guint64 *
ovi_tensor_get_shape (OviTensor *self, guint *n_dims)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);
  *n_dims = self->shape->len;
  return (const guint64 *) (gconstpointer) self->shape->data;
}

const guint64 *
ovi_tensor_get_original_shape (OviTensor *self, guint *n_dims)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);
  *n_dims = self->original_shape->len;
  return (const guint64 *) (gconstpointer) self->original_shape->data;
}

/**
 * ovi_tensor_dup_shape_string:
 * Returns: the shape as the report writes it, "[2, 3]".
 */
char *
ovi_tensor_dup_shape_string (OviTensor *self)
{
  return ovi_shape_dup_string ((const guint64 *) self->shape->data, self->shape->len);
}

guint64
ovi_tensor_get_size (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->size;
}

/**
 * ovi_tensor_get_count:
 * Returns: the number of elements as stored, padding of a device layout
 *   included (see ovi_tensor_get_logical_count())
 */
guint64
ovi_tensor_get_count (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->count;
}

/**
 * ovi_tensor_get_logical_count:
 * Returns: the number of elements the statistics are over: the original
 *   shape's for a device layout that maps to it, the stored count otherwise
 */
guint64
ovi_tensor_get_logical_count (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->layout_map ? ovi_layout_map_get_count (self->layout_map) : self->count;
}

/**
 * ovi_tensor_get_is_logical:
 * Returns: whether the tensor is in a device layout whose statistics and
 *   positions are those of the original shape
 */
gboolean
ovi_tensor_get_is_logical (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), FALSE);
  return self->layout_map != NULL;
}

/**
 * ovi_tensor_get_layout_problem:
 * Returns: (nullable): for a device layout that cannot be mapped to its
 *   original shape, why ("the header has no original shape"): its
 *   statistics are then over the stored values, padding included; %NULL
 *   otherwise
 */
const char *
ovi_tensor_get_layout_problem (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);
  return self->layout_problem;
}

/**
 * ovi_tensor_get_logical_shape:
 * Returns: the shape that the statistics' indices are flat indices of:
 *   the original shape for a device layout that maps to it, the shape
 *   as stored otherwise
 */
const guint64 *
ovi_tensor_get_logical_shape (OviTensor *self, guint *n_dims)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);
  return self->layout_map ? ovi_tensor_get_original_shape (self, n_dims)
                          : ovi_tensor_get_shape (self, n_dims);
}

/**
 * ovi_tensor_dup_position:
 * @index: a flat index of the statistics (ovi_tensor_get_logical_shape())
 *
 * Returns: the index and its coordinates, "3 (0, 0, 0, 3)", the one way
 *   positions are written everywhere
 */
char *
ovi_tensor_dup_position (OviTensor *self, guint64 index)
{
  guint n_dims;
  const guint64 *shape = ovi_tensor_get_logical_shape (self, &n_dims);

  return ovi_shape_dup_position (shape, n_dims, index);
}

/**
 * ovi_tensor_dup_label:
 * Returns: "input 0", "output 1", ..., "input 0, thread 2" for a slice of
 *   an FFTS+ group
 */
char *
ovi_tensor_dup_label (OviTensor *self)
{
  static const char *const formats[] = { N_ ("input %u"), N_ ("output %u"), N_ ("buffer %u"),
                                         N_ ("space %u") };
  g_autofree char *label = g_strdup_printf (_ (formats[self->kind]), self->index);
  g_autofree char *thread = NULL;

  /* A group lists every slice's "input 0": the thread tells them apart. */
  if (!self->file || !ovi_dump_file_get_is_slice (self->file))
    return g_steal_pointer (&label);
  thread =
      g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_dump_file_get_file_name (self->file)->thread_id);
  /* Translators: a tensor of one thread slice of an FFTS+ operator: "input 0, thread 2". */
  return g_strdup_printf (_ ("%s, thread %s"), label, thread);
}

/* The fields the newer schema added, set by the file that made the tensor. */
void
ovi_tensor_set_schema_fields (OviTensor *self, guint arg_index, guint input_type, int space_type)
{
  self->arg_index = arg_index;
  self->input_type = input_type;
  self->space_type = space_type;
}

void
ovi_tensor_set_address (OviTensor *self, guint64 address)
{
  self->address = address;
}

/**
 * ovi_tensor_get_address:
 *
 * The device address of the buffer of an input (`OpInput.address`) or an
 * output (`OpOutput.address`) when the dump was taken. Within one run a
 * consumer's input has its producer's output's address; across runs
 * addresses mean nothing (dump-format.md section 3).
 *
 * Returns: the address, 0 when the header has none (older schemas)
 */
guint64
ovi_tensor_get_address (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->address;
}

/**
 * ovi_tensor_get_arg_index:
 *
 * The `arg_index` of the header (newer schema: inputs, outputs and
 * workspaces), the tensor's position among the kernel's arguments. proto3
 * writers leave 0 out, so 0 also means "not written".
 *
 * Returns: the index, 0 when not written
 */
guint
ovi_tensor_get_arg_index (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->arg_index;
}

/**
 * ovi_tensor_get_input_type:
 *
 * An input's `input_type` (newer schema). The schema gives the number no
 * names, so it is shown as it is.
 *
 * Returns: the number, 0 when not written or not an input
 */
guint
ovi_tensor_get_input_type (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->input_type;
}

/**
 * ovi_tensor_get_space_type:
 * Returns: a workspace's `type` (0 = LOG); 0 for other kinds
 */
int
ovi_tensor_get_space_type (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  return self->space_type;
}

/**
 * ovi_tensor_dup_space_type_label:
 * Returns: (transfer full) (nullable): "LOG" for a workspace of type 0
 *   (the only type the schema names), "type N" for other numbers, %NULL
 *   for tensors that are not workspaces
 */
char *
ovi_tensor_dup_space_type_label (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);
  if (self->kind != OVI_TENSOR_SPACE)
    return NULL;
  if (self->space_type == 0)
    return g_strdup ("LOG");
  return g_strdup_printf ("type %d", self->space_type);
}

/**
 * ovi_tensor_get_file:
 * Returns: (transfer none) (nullable): the dump file, while it exists
 */
OviDumpFile *
ovi_tensor_get_file (OviTensor *self)
{
  return self->file;
}

/* Called by the file when it goes away before the tensor does. */
void
ovi_tensor_forget_file (OviTensor *self)
{
  self->file = NULL;
}

/**
 * ovi_tensor_load_data:
 *
 * Maps the tensor's bytes (new layout) or reads them out of the message
 * (old layout).
 *
 * Returns: (transfer full): the bytes, exactly ovi_tensor_get_size() long
 */
GBytes *
ovi_tensor_load_data (OviTensor *self, GError **error)
{
  g_autoptr (OviDumpFile) file = self->file ? g_object_ref (self->file) : NULL;

  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);

  if (self->statistics_only)
    {
      g_set_error_literal (error, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES,
                           ovi_statistic_why_no_values ());
      return NULL;
    }
  if (file == NULL)
    {
      g_set_error_literal (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO,
                           _ ("the dump file is no longer loaded"));
      return NULL;
    }
  if (ovi_dump_file_get_layout (file) == OVI_LAYOUT_OLD)
    return ovi_dump_file_load_inline_data (file, self->kind, self->index, error);
  return ovi_dump_file_map_range (file, self->offset, self->size, error);
}

/**
 * ovi_tensor_open_data:
 * @offset: (out): where the tensor's bytes start in the file
 *
 * Opens the dump file to copy the tensor's bytes without loading them.
 * Only tensors stored as bytes of their own can (the new layout); the old
 * layout keeps them inside the protobuf message.
 *
 * Returns: a file descriptor to close, or -1 (with @error set when the
 *   file cannot be read, unset when the layout does not allow it)
 */
int
ovi_tensor_open_data (OviTensor *self, guint64 *offset, GError **error)
{
  g_autoptr (OviDumpFile) file = self->file ? g_object_ref (self->file) : NULL;

  if (self->statistics_only)
    {
      g_set_error_literal (error, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES,
                           ovi_statistic_why_no_values ());
      return -1;
    }
  if (file == NULL || ovi_dump_file_get_layout (file) == OVI_LAYOUT_OLD)
    return -1;
  *offset = self->offset;
  return ovi_dump_file_open_range (file, self->offset, self->size, error);
}

/**
 * ovi_tensor_get_data_offset:
 * @offset: (out): where the tensor's bytes start in its dump file
 *
 * Returns: %FALSE when the bytes are not stored on their own (old layout,
 *   or the file is gone)
 */
gboolean
ovi_tensor_get_data_offset (OviTensor *self, guint64 *offset)
{
  g_autoptr (OviDumpFile) file = self->file ? g_object_ref (self->file) : NULL;

  if (file == NULL || ovi_dump_file_get_layout (file) == OVI_LAYOUT_OLD)
    return FALSE;
  *offset = self->offset;
  return TRUE;
}

/**
 * ovi_tensor_analyze:
 *
 * Statistics of the tensor, computed once and kept. Safe to call from any
 * thread; may take long for large tensors. A device layout that maps to
 * its original shape is analysed over its logical elements, without the
 * padding, and every index is a flat index of the original shape
 * (ovi_tensor_get_logical_shape()).
 *
 * Returns: (transfer full): the analysis
 */
OviAnalysis *
ovi_tensor_analyze (OviTensor *self, GError **error)
{
  return ovi_tensor_analyze_in (self, NULL, error);
}

/**
 * ovi_tensor_analyze_in:
 * @contents: (nullable): the whole dump file, already read
 *
 * Like ovi_tensor_analyze(), taking the tensor's bytes from @contents when
 * it is given (and still the file's size) rather than reading them again.
 */
/* The analysis of the tensor's values, through @map (a device layout's
 * logical elements) or, without, of every stored value. */
static OviAnalysis *
analyze_values (OviTensor *self, GBytes *contents, const OviLayoutMap *map, GError **error)
{
  g_autoptr (OviDumpFile) file = self->file ? g_object_ref (self->file) : NULL;
  g_autoptr (GBytes) data = NULL;
  guint64 count = 0;
  guint bits;

  /* The count from the shape: int4 packs two elements a byte, and an odd
   * count leaves a padding nibble that is not an element. */
  if (self->count > 0 && self->shape->len > 0)
    count = self->count;
  else if ((bits = ovi_dtype_bits (self->dtype)) > 0)
    count = bits >= 8 ? self->size / (bits / 8) : self->size * 8 / bits;
  if (file != NULL && ovi_dump_file_get_layout (file) != OVI_LAYOUT_OLD)
    /* Read from the file a chunk at a time, not loaded whole. */
    return ovi_analysis_new_for_file (self->dtype, ovi_dump_file_get_path (file),
                                      ovi_dump_file_get_relative_path (file), self->offset,
                                      self->size, count, ovi_dump_file_get_file_size (file),
                                      contents, count == self->count ? map : NULL, error);
  if ((data = ovi_tensor_load_data (self, error)))
    return ovi_analysis_new_for_layout (self->dtype, data, count, count == self->count ? map : NULL,
                                        error);
  return NULL;
}

OviAnalysis *
ovi_tensor_analyze_in (OviTensor *self, GBytes *contents, GError **error)
{
  OviAnalysis *analysis = NULL;

  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);

  g_mutex_lock (&self->lock);
  if (self->analysis)
    {
      analysis = ovi_analysis_ref (self->analysis);
      g_mutex_unlock (&self->lock);
      return analysis;
    }
  g_mutex_unlock (&self->lock);

  if (!(analysis = analyze_values (self, contents, self->layout_map, error)))
    return NULL;
  g_mutex_lock (&self->lock);
  if (self->analysis == NULL)
    self->analysis = ovi_analysis_ref (analysis);
  g_mutex_unlock (&self->lock);
  return analysis;
}

/**
 * ovi_tensor_analyze_stored:
 *
 * Statistics of every value a device layout stores, padding included, and
 * every index a flat index of the stored shape: the tensor as the device
 * holds it. For any other tensor, ovi_tensor_analyze().
 *
 * Returns: (transfer full): the analysis
 */
OviAnalysis *
ovi_tensor_analyze_stored (OviTensor *self, GError **error)
{
  OviAnalysis *analysis = NULL;

  g_return_val_if_fail (OVI_IS_TENSOR (self), NULL);

  g_mutex_lock (&self->lock);
  if (self->layout_map == NULL || self->stored_analysis != NULL)
    {
      analysis = self->stored_analysis ? ovi_analysis_ref (self->stored_analysis) : NULL;
      g_mutex_unlock (&self->lock);
      return analysis ? analysis : ovi_tensor_analyze (self, error);
    }
  g_mutex_unlock (&self->lock);

  if (!(analysis = analyze_values (self, NULL, NULL, error)))
    return NULL;
  g_mutex_lock (&self->lock);
  if (self->stored_analysis == NULL)
    self->stored_analysis = ovi_analysis_ref (analysis);
  g_mutex_unlock (&self->lock);
  return analysis;
}

/**
 * ovi_tensor_peek_analysis:
 * Returns: (transfer none) (nullable): the analysis if already computed
 */
OviAnalysis *
ovi_tensor_peek_analysis (OviTensor *self)
{
  OviAnalysis *analysis;

  g_mutex_lock (&self->lock);
  analysis = self->analysis;
  g_mutex_unlock (&self->lock);
  return analysis;
}

static void
analyze_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OviTensor *self = source;
  OviTensorResult *result = task_data;
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (!ovi_tensor_result_fill (result, self, cancellable, &error))
    g_task_return_error (task, error);
  else if (!g_task_return_error_if_cancelled (task))
    g_task_return_pointer (task, ovi_tensor_result_ref (result),
                           (GDestroyNotify) ovi_tensor_result_unref);
}

/**
 * ovi_tensor_analyze_async:
 * @n_bins: bins of the histogram to make, 0 for none
 *
 * Reads the tensor on core's worker pool: its statistics (logical, as
 * ovi_tensor_analyze() gives them) and a histogram of the same values
 * (none for a statistics-mode tensor, which has no values). The main
 * thread never reads tensor data.
 */
void
ovi_tensor_analyze_async (OviTensor *self,
                          guint n_bins,
                          OviHistogramScale scale,
                          GCancellable *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer user_data)
{
  ovi_tensor_analyze_layout_async (self, FALSE, n_bins, scale, cancellable, callback, user_data);
}

/**
 * ovi_tensor_analyze_layout_async:
 * @stored: the stored values of a device layout, padding included
 *   (ovi_tensor_analyze_stored()), rather than its logical ones
 *
 * ovi_tensor_analyze_async(), in the layout asked for; finish it with
 * ovi_tensor_analyze_finish().
 */
void
ovi_tensor_analyze_layout_async (OviTensor *self,
                                 gboolean stored,
                                 guint n_bins,
                                 OviHistogramScale scale,
                                 GCancellable *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  OviTensorResult *result;

  g_return_if_fail (OVI_IS_TENSOR (self));

  result = ovi_tensor_result_new (n_bins, scale);
  ovi_tensor_result_set_stored (result, stored);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ovi_tensor_analyze_async);
  g_task_set_task_data (task, result, (GDestroyNotify) ovi_tensor_result_unref);
  ovi_worker_run_in_thread (task, analyze_in_thread);
}

/**
 * ovi_tensor_analyze_finish:
 * Returns: (transfer full): the result, or %NULL with @error set
 */
OviTensorResult *
ovi_tensor_analyze_finish (OviTensor *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Makes @self a tensor of a statistics-mode dump: its analysis is @row's
 * statistics, ready without reading anything. */
void
ovi_tensor_set_statistics (OviTensor *self, const OviStatisticRow *row)
{
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->analysis, ovi_analysis_unref);
  self->analysis = ovi_analysis_new_for_statistics (self->dtype, &row->stats);
  g_mutex_unlock (&self->lock);
  /* The runtime's statistics are what they are: no positions to map. */
  g_clear_pointer (&self->layout_map, ovi_layout_map_free);
  self->statistics_only = TRUE;
  self->known = row->fields;
  memcpy (self->written, row->written, sizeof self->written);
  self->neg_zeros = row->neg_zeros;
  self->pos_zeros = row->pos_zeros;
  if ((row->fields & OVI_STATISTIC_COUNT) || self->shape->len > 0)
    self->count = row->stats.count;
}

/**
 * ovi_tensor_get_written_statistics:
 * @values: (out caller-allocates) (array fixed-size=4): max, min, mean and
 *   L2 norm as the statistics file wrote them (non-finite values kept; the
 *   analysis's statistics are over the finite ones), NaN where not given
 *
 * Returns: the OviStatisticFields the file gave; 0 for a tensor with values
 */
guint
ovi_tensor_get_written_statistics (OviTensor *self, double values[4])
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  for (guint i = 0; i < 4; i++)
    values[i] = self->statistics_only ? self->written[i] : NAN;
  return self->statistics_only ? self->known : 0;
}

/**
 * ovi_tensor_get_statistics_only:
 *
 * Tensors of statistics-mode dumps carry the statistics the runtime wrote
 * (ovi_tensor_analyze() returns them at once) but no values: loading their
 * data or a histogram fails with %OVI_STATISTIC_ERROR_NO_VALUES and the
 * message of ovi_statistic_why_no_values().
 *
 * Returns: whether the tensor has statistics and no values
 */
gboolean
ovi_tensor_get_statistics_only (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), FALSE);
  return self->statistics_only;
}

/**
 * ovi_tensor_get_known_statistics:
 *
 * Returns: which statistics the statistics file gave (empty cells and
 *   missing columns are unknown, not zero); all of them for tensors with
 *   values
 */
guint
ovi_tensor_get_known_statistics (OviTensor *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), 0);
  if (!self->statistics_only)
    return OVI_STATISTIC_MAX | OVI_STATISTIC_MIN | OVI_STATISTIC_MEAN | OVI_STATISTIC_COUNT |
           OVI_STATISTIC_NAN | OVI_STATISTIC_NEG_INF | OVI_STATISTIC_POS_INF | OVI_STATISTIC_ZEROS;
  return self->known;
}

/**
 * ovi_tensor_get_signed_zeros:
 * @negative: (out): count of -0.0
 * @positive: (out): count of +0.0
 *
 * Returns: whether the statistics file gave both counts (msprobe does)
 */
gboolean
ovi_tensor_get_signed_zeros (OviTensor *self, guint64 *negative, guint64 *positive)
{
  g_return_val_if_fail (OVI_IS_TENSOR (self), FALSE);
  *negative = self->neg_zeros;
  *positive = self->pos_zeros;
  return (self->known & (OVI_STATISTIC_NEG_ZEROS | OVI_STATISTIC_POS_ZEROS)) ==
         (OVI_STATISTIC_NEG_ZEROS | OVI_STATISTIC_POS_ZEROS);
}
