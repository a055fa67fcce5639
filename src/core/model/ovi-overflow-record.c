/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-dump-file-private.h"
#include "ovi-error.h"
#include "ovi-model-enums.h"
#include "ovi-overflow-record.h"
#include "ovi-path.h"

#define NOT_SET 65535

/* One overflow reported by an Opdebug file: which unit, which task, and the
 * status register. */
struct _OviOverflowRecord
{
  GObject parent_instance;

  OviOverflowFields f; /* as the payload gave them, or made up from the data */

  OviDumpFile *file;
  OviDumpFile *op;
  guint position;
  gboolean ignored; /* its operator is on the user's ignore list */
  gboolean first;   /* the first overflow that is not ignored */
  gboolean has_gap; /* a record of the same run and device comes before it */
  gint64 gap;       /* microseconds since that record */
  OviRecordSource source;
};

G_DEFINE_FINAL_TYPE (OviOverflowRecord, ovi_overflow_record, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_UNIT_NAME,
  PROP_UNIT_LABEL,
  PROP_MODEL_ID,
  PROP_STREAM_ID,
  PROP_TASK_ID,
  PROP_TASK_TYPE,
  PROP_STATUS,
  PROP_STATUS_HEX,
  PROP_STATUS_SUMMARY,
  PROP_FILE,
  PROP_OP,
  PROP_OP_TYPE,
  PROP_OP_NAME,
  PROP_ITERATION,
  PROP_RELATIVE_DIR,
  PROP_DEVICE,
  PROP_ROOT_NAME,
  PROP_TIMESTAMP,
  PROP_POSITION,
  PROP_IS_FIRST,
  PROP_IGNORED,
  PROP_SOURCE,
  PROP_SOURCE_NAME,
  PROP_HAS_GAP,
  PROP_GAP,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

/**
 * ovi_record_source_name:
 * Returns: "overflow-file" or "data", the words of the JSON report
 */
const char *
ovi_record_source_name (OviRecordSource source)
{
  static const char *const names[] = { "overflow-file", "data" };

  g_return_val_if_fail (source <= OVI_RECORD_SOURCE_DATA, NULL);
  return names[source];
}

static void
ovi_overflow_record_finalize (GObject *object)
{
  OviOverflowRecord *self = OVI_OVERFLOW_RECORD (object);

  g_ptr_array_unref (self->f.extra);
  g_clear_object (&self->file);
  g_clear_object (&self->op);
  G_OBJECT_CLASS (ovi_overflow_record_parent_class)->finalize (object);
}

static void
ovi_overflow_record_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviOverflowRecord *self = OVI_OVERFLOW_RECORD (object);

  switch (prop_id)
    {
    case PROP_UNIT_NAME:
      g_value_set_string (value, ovi_unit_name (self->f.unit));
      break;
    case PROP_UNIT_LABEL:
      g_value_set_string (value, ovi_unit_label (ovi_unit_name (self->f.unit)));
      break;
    case PROP_MODEL_ID:
      g_value_set_uint64 (value, self->f.model_id);
      break;
    case PROP_STREAM_ID:
      g_value_set_uint64 (value, self->f.stream_id);
      break;
    case PROP_TASK_ID:
      g_value_set_uint64 (value, self->f.task_id);
      break;
    case PROP_TASK_TYPE:
      g_value_set_uint64 (value, self->f.task_type);
      break;
    case PROP_STATUS:
      g_value_set_uint64 (value, self->f.status[0]);
      break;
    case PROP_STATUS_HEX:
      g_value_take_string (value, ovi_overflow_record_dup_status_hex (self));
      break;
    case PROP_STATUS_SUMMARY:
      g_value_take_string (value, ovi_overflow_record_dup_status_summary (self));
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_OP:
      g_value_set_object (value, self->op);
      break;
    case PROP_OP_TYPE:
      g_value_set_string (value, self->op ? ovi_dump_file_get_op_type (self->op) : "");
      break;
    case PROP_OP_NAME:
      g_value_set_string (value, self->op ? ovi_dump_file_get_op_name (self->op) : "");
      break;
    case PROP_ITERATION:
      g_value_set_string (value, self->file ? ovi_dump_file_get_iteration (self->file) : "");
      break;
    case PROP_RELATIVE_DIR:
      g_value_set_string (value, self->file ? ovi_dump_file_get_relative_dir (self->file) : "");
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->file ? ovi_dump_file_get_device (self->file) : NULL);
      break;
    case PROP_ROOT_NAME:
      g_value_take_string (value, self->file ? ovi_dump_file_dup_root_name (self->file) : NULL);
      break;
    case PROP_TIMESTAMP:
      g_value_set_uint64 (value, self->file ? ovi_dump_file_get_timestamp (self->file) : 0);
      break;
    case PROP_POSITION:
      g_value_set_uint (value, self->position);
      break;
    case PROP_IS_FIRST:
      g_value_set_boolean (value, self->first);
      break;
    case PROP_IGNORED:
      g_value_set_boolean (value, self->ignored);
      break;
    case PROP_SOURCE:
      g_value_set_enum (value, self->source);
      break;
    case PROP_SOURCE_NAME:
      g_value_set_string (value, ovi_record_source_name (self->source));
      break;
    case PROP_HAS_GAP:
      g_value_set_boolean (value, self->has_gap);
      break;
    case PROP_GAP:
      g_value_set_int64 (value, self->gap);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_overflow_record_class_init (OviOverflowRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_overflow_record_finalize;
  object_class->get_property = ovi_overflow_record_get_property;

#define U64(id, name)                                                                              \
  properties[id] = g_param_spec_uint64 (name, NULL, NULL, 0, G_MAXUINT64, 0, flags)
#define STR(id, name) properties[id] = g_param_spec_string (name, NULL, NULL, NULL, flags)
  STR (PROP_UNIT_NAME, "unit-name");
  /* what the user reads: "Data" in the user's language (ovi_unit_label()) */
  STR (PROP_UNIT_LABEL, "unit-label");
  U64 (PROP_MODEL_ID, "model-id");
  U64 (PROP_STREAM_ID, "stream-id");
  U64 (PROP_TASK_ID, "task-id");
  U64 (PROP_TASK_TYPE, "task-type");
  U64 (PROP_STATUS, "status");
  STR (PROP_STATUS_HEX, "status-hex");
  STR (PROP_STATUS_SUMMARY, "status-summary");
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, OVI_TYPE_DUMP_FILE, flags);
  properties[PROP_OP] = g_param_spec_object ("op", NULL, NULL, OVI_TYPE_DUMP_FILE, flags);
  STR (PROP_OP_TYPE, "op-type");
  STR (PROP_OP_NAME, "op-name");
  STR (PROP_ITERATION, "iteration");
  STR (PROP_RELATIVE_DIR, "relative-dir");
  /* Where the record comes from when several devices or folders are open:
   * its device id (%NULL without a device level), the name of its root
   * (%NULL with one root). */
  STR (PROP_DEVICE, "device");
  STR (PROP_ROOT_NAME, "root-name");
  U64 (PROP_TIMESTAMP, "timestamp");
  properties[PROP_POSITION] =
      g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0, flags | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_IS_FIRST] =
      g_param_spec_boolean ("is-first", NULL, NULL, FALSE, flags | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_IGNORED] =
      g_param_spec_boolean ("ignored", NULL, NULL, FALSE, flags | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SOURCE] = g_param_spec_enum ("source", NULL, NULL, OVI_TYPE_RECORD_SOURCE,
                                               OVI_RECORD_SOURCE_OVERFLOW_FILE, flags);
  STR (PROP_SOURCE_NAME, "source-name");
  /* The time since the previous overflow of the same run and device. */
  properties[PROP_HAS_GAP] =
      g_param_spec_boolean ("has-gap", NULL, NULL, FALSE, flags | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_GAP] = g_param_spec_int64 ("gap", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                                             flags | G_PARAM_EXPLICIT_NOTIFY);
#undef U64
#undef STR
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_overflow_record_init (OviOverflowRecord *self)
{
  self->f.extra = g_ptr_array_new_with_free_func (g_free);
  self->f.n_status = 1;
}

/**
 * ovi_overflow_record_decode:
 * @payload: the 2048 bytes of an overflow file's output
 *
 * Returns: (transfer full) (element-type OviOverflowRecord): a record for
 *   each report whose status is not zero, possibly none; %NULL with
 *   @error when @payload is not an overflow record
 */
GPtrArray *
ovi_overflow_record_decode (const guint8 *payload, gsize length, GError **error)
{
  g_autoptr (GPtrArray) fields = ovi_overflow_fields_decode (payload, length, error);
  GPtrArray *records;

  if (fields == NULL)
    return NULL;
  records = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < fields->len; i++)
    {
      OviOverflowRecord *self = g_object_new (OVI_TYPE_OVERFLOW_RECORD, NULL);
      OviOverflowFields *f = g_ptr_array_index (fields, i);

      g_ptr_array_unref (self->f.extra);
      self->f = *f;
      /* The record owns the extra fields now. */
      f->extra = g_ptr_array_new ();
      g_ptr_array_add (records, self);
    }
  return records;
}

/**
 * ovi_overflow_record_decode_file:
 *
 * Decodes an overflow file and attaches it to each record.
 */
GPtrArray *
ovi_overflow_record_decode_file (OviDumpFile *file, GError **error)
{
  g_autoptr (GBytes) payload = NULL;
  GPtrArray *records;

  if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OVERFLOW)
    {
      g_set_error_literal (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_NOT_OVERFLOW_FILE,
                           _ ("not an Opdebug.Node_OpDebug overflow file"));
      return NULL;
    }
  if (!(payload = ovi_dump_file_dup_overflow_payload (file, error)))
    return NULL;
  records = ovi_overflow_record_decode (g_bytes_get_data (payload, NULL),
                                        g_bytes_get_size (payload), error);
  for (guint i = 0; records && i < records->len; i++)
    ovi_overflow_record_set_file (g_ptr_array_index (records, i), file);
  return records;
}

/**
 * ovi_overflow_record_new_from_data:
 * @op: an operator whose inputs are finite and whose outputs are not
 *   (%OVI_BLAME_ORIGIN), in a folder with no Opdebug file
 *
 * A record no overflow file reported: its source is
 * %OVI_RECORD_SOURCE_DATA, its unit %OVI_UNIT_DATA, its status 0, and its
 * file and op are both @op, so it sorts by the operator's timestamp.
 *
 * Returns: (transfer full): the record
 */
OviOverflowRecord *
ovi_overflow_record_new_from_data (OviDumpFile *op)
{
  OviOverflowRecord *self = g_object_new (OVI_TYPE_OVERFLOW_RECORD, NULL);
  const OviFileName *name = ovi_dump_file_get_file_name (op);

  g_return_val_if_fail (OVI_IS_DUMP_FILE (op), NULL);

  self->source = OVI_RECORD_SOURCE_DATA;
  self->f.unit = OVI_UNIT_DATA;
  self->f.stream_id = name->stream_id;
  self->f.task_id = name->task_id;
  if (name->has_context)
    {
      self->f.has_context = TRUE;
      self->f.context_id = name->context_id;
      self->f.thread_id = name->thread_id;
    }
  /* The model id is the folder's: the last part of model_name/model_id. */
  {
    const char *model = ovi_dump_file_get_model (op);
    const char *slash = model ? strrchr (model, '/') : NULL;
    if (model)
      g_ascii_string_to_unsigned (slash ? slash + 1 : model, 10, 0, G_MAXUINT64, &self->f.model_id,
                                  NULL);
  }
  self->file = g_object_ref (op);
  self->op = g_object_ref (op);
  return self;
}

/**
 * ovi_overflow_record_get_source:
 * Returns: whether an overflow file reported the record or the data showed it
 */
OviRecordSource
ovi_overflow_record_get_source (OviOverflowRecord *self)
{
  g_return_val_if_fail (OVI_IS_OVERFLOW_RECORD (self), OVI_RECORD_SOURCE_OVERFLOW_FILE);
  return self->source;
}

OviUnit
ovi_overflow_record_get_unit (OviOverflowRecord *self)
{
  return self->f.unit;
}

const char *
ovi_overflow_record_get_unit_name (OviOverflowRecord *self)
{
  return ovi_unit_name (self->f.unit);
}

guint64
ovi_overflow_record_get_model_id (OviOverflowRecord *self)
{
  return self->f.model_id;
}

guint64
ovi_overflow_record_get_stream_id (OviOverflowRecord *self)
{
  return self->f.stream_id;
}

guint64
ovi_overflow_record_get_task_id (OviOverflowRecord *self)
{
  return self->f.task_id;
}

guint64
ovi_overflow_record_get_task_type (OviOverflowRecord *self)
{
  return self->f.task_type;
}

gboolean
ovi_overflow_record_has_context (OviOverflowRecord *self)
{
  return self->f.has_context;
}

guint64
ovi_overflow_record_get_context_id (OviOverflowRecord *self)
{
  return self->f.context_id;
}

guint64
ovi_overflow_record_get_thread_id (OviOverflowRecord *self)
{
  return self->f.thread_id;
}

guint64
ovi_overflow_record_get_pc_start (OviOverflowRecord *self)
{
  return self->f.pc_start;
}

guint64
ovi_overflow_record_get_para_base (OviOverflowRecord *self)
{
  return self->f.para_base;
}

guint64
ovi_overflow_record_get_kernel_code (OviOverflowRecord *self)
{
  return self->f.kernel_code;
}

guint64
ovi_overflow_record_get_block_idx (OviOverflowRecord *self)
{
  return self->f.block_idx;
}

/**
 * ovi_overflow_record_get_status:
 * Returns: the status register (the first word when there are four)
 */
guint64
ovi_overflow_record_get_status (OviOverflowRecord *self)
{
  return self->f.status[0];
}

const guint64 *
ovi_overflow_record_get_status_words (OviOverflowRecord *self, guint *n_words)
{
  *n_words = self->f.n_status;
  return self->f.status;
}

/**
 * ovi_overflow_record_get_flags_mask:
 * Returns: every status bit set in any status word
 */
guint64
ovi_overflow_record_get_flags_mask (OviOverflowRecord *self)
{
  return ovi_overflow_fields_get_flags_mask (&self->f);
}

char *
ovi_overflow_record_dup_status_hex (OviOverflowRecord *self)
{
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", self->f.status[0]);
}

/**
 * ovi_overflow_record_dup_status_summary:
 * Returns: "0x110 FP16+INT" for AI Core records; for atomic-add, AICPU and
 *   SDMA units, whose status is a plain non-zero value, the hex alone
 */
char *
ovi_overflow_record_dup_status_summary (OviOverflowRecord *self)
{
  g_autofree char *hex = NULL;
  g_autofree char *flags = NULL;

  /* No unit reported it: there is no status to show, only why it is one. */
  if (self->source == OVI_RECORD_SOURCE_DATA)
    return g_strdup (_ (OVI_FOUND_IN_DATA));
  hex = ovi_overflow_record_dup_status_hex (self);
  if (!ovi_unit_has_status_bits (self->f.unit))
    return g_steal_pointer (&hex);
  flags = ovi_status_dup_summary (ovi_overflow_record_get_flags_mask (self));
  return g_strdup_printf ("%s %s", hex, flags);
}

/**
 * ovi_overflow_record_dup_extra_fields:
 * Returns: (transfer container) (element-type utf8): "name=value" strings
 */
GPtrArray *
ovi_overflow_record_dup_extra_fields (OviOverflowRecord *self)
{
  return g_ptr_array_ref (self->f.extra);
}

OviDumpFile *
ovi_overflow_record_get_file (OviOverflowRecord *self)
{
  return self->file;
}

/**
 * ovi_overflow_record_get_op:
 * Returns: (transfer none) (nullable): the op dump file of the operator that
 *   overflowed, %NULL when no file in the folder matches
 */
OviDumpFile *
ovi_overflow_record_get_op (OviOverflowRecord *self)
{
  return self->op;
}

void
ovi_overflow_record_set_file (OviOverflowRecord *self, OviDumpFile *file)
{
  g_set_object (&self->file, file);
}

void
ovi_overflow_record_set_op (OviOverflowRecord *self, OviDumpFile *op)
{
  if (g_set_object (&self->op, op))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_TYPE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_NAME]);
    }
}

guint
ovi_overflow_record_get_position (OviOverflowRecord *self)
{
  return self->position;
}

void
ovi_overflow_record_set_position (OviOverflowRecord *self, guint position)
{
  if (self->position == position)
    return;
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

/**
 * ovi_overflow_record_get_is_first:
 * Returns: whether this is the first overflow, ignored records left out
 */
gboolean
ovi_overflow_record_get_is_first (OviOverflowRecord *self)
{
  return self->first;
}

gboolean
ovi_overflow_record_get_ignored (OviOverflowRecord *self)
{
  return self->ignored;
}

void
ovi_overflow_record_set_marks (OviOverflowRecord *self, gboolean ignored, gboolean first)
{
  if (self->ignored != ignored)
    {
      self->ignored = ignored;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IGNORED]);
    }
  if (self->first != first)
    {
      self->first = first;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_FIRST]);
    }
}

/**
 * ovi_overflow_record_get_gap:
 * @gap: (out) (optional): microseconds since the previous record, negative
 *   when its file's timestamp is the later one
 *
 * Returns: whether a record of the same run, device and model comes before
 *   this one in first-overflow order (set when the records are numbered)
 */
gboolean
ovi_overflow_record_get_gap (OviOverflowRecord *self, gint64 *gap)
{
  g_return_val_if_fail (OVI_IS_OVERFLOW_RECORD (self), FALSE);
  if (gap != NULL)
    *gap = self->has_gap ? self->gap : 0;
  return self->has_gap;
}

/**
 * ovi_overflow_record_set_previous:
 * @previous: (nullable): the record before this one in first-overflow
 *   order, of the same run, device and model
 */
void
ovi_overflow_record_set_previous (OviOverflowRecord *self, OviOverflowRecord *previous)
{
  gboolean has_gap = previous != NULL;
  gint64 gap = 0;

  g_return_if_fail (OVI_IS_OVERFLOW_RECORD (self));

  if (previous != NULL)
    {
      guint64 t = ovi_dump_file_get_timestamp (self->file);
      guint64 p = ovi_dump_file_get_timestamp (previous->file);

      gap = t >= p ? (gint64) MIN (t - p, (guint64) G_MAXINT64)
                   : -(gint64) MIN (p - t, (guint64) G_MAXINT64);
    }
  if (self->has_gap != has_gap)
    {
      self->has_gap = has_gap;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_GAP]);
    }
  if (self->gap != gap)
    {
      self->gap = gap;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GAP]);
    }
}

static int
compare_levels (const char *a, const char *b)
{
  return ovi_path_natural_compare (a ? a : "", b ? b : "");
}

/**
 * ovi_overflow_record_compare:
 *
 * First overflow first: by run (the time folder), then iteration, then the
 * overflow file's timestamp, so that across devices, and across the roots
 * of a folder opened with several, the earliest overflow of an iteration
 * comes first; then by folder, name and unit so the order is total.
 */
int
ovi_overflow_record_compare (OviOverflowRecord *a, OviOverflowRecord *b)
{
  int c = compare_levels (ovi_dump_file_get_time (a->file), ovi_dump_file_get_time (b->file));
  guint64 ta, tb;

  if (c != 0)
    return c;
  c = compare_levels (ovi_dump_file_get_iteration (a->file), ovi_dump_file_get_iteration (b->file));
  if (c != 0)
    return c;
  ta = ovi_dump_file_get_timestamp (a->file);
  tb = ovi_dump_file_get_timestamp (b->file);
  if (ta != tb)
    return ta < tb ? -1 : 1;
  c = ovi_path_natural_compare (ovi_dump_file_get_relative_dir (a->file),
                                ovi_dump_file_get_relative_dir (b->file));
  if (c != 0)
    return c;
  c = g_strcmp0 (ovi_dump_file_get_name (a->file), ovi_dump_file_get_name (b->file));
  if (c != 0)
    return c;
  return (int) a->f.unit - (int) b->f.unit;
}

static gboolean
is_set (guint64 id)
{
  return id != 0 && id != NOT_SET;
}

/**
 * ovi_overflow_match_op:
 * @op_files: (element-type OviDumpFile): op dump files of the same folder
 *
 * The op dump file of the operator that overflowed: task id and stream id
 * equal, then context and thread ids when the record sets them and the file
 * name carries them; the earliest timestamp wins.
 *
 * Returns: (transfer none) (nullable): the file, %NULL when none matches
 */
OviDumpFile *
ovi_overflow_match_op (OviOverflowRecord *record, GPtrArray *op_files)
{
  OviDumpFile *best = NULL;
  gboolean narrow_context = record->f.has_context && is_set (record->f.context_id);
  gboolean narrow_thread = record->f.has_context && is_set (record->f.thread_id);

  for (guint i = 0; i < op_files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (op_files, i);
      const OviFileName *n = ovi_dump_file_get_file_name (f);

      /* Older names carry no stream id: the task id is all they can match. */
      if (n->kind != OVI_FILE_KIND_OP_DUMP || n->task_id != record->f.task_id ||
          (n->has_stream_id && n->stream_id != record->f.stream_id))
        continue;
      if (n->has_context && narrow_context && n->context_id != record->f.context_id)
        continue;
      /* A group is the whole execution, every thread of it. */
      if (n->has_context && narrow_thread && n->thread_id != record->f.thread_id &&
          ovi_dump_file_get_slices (f) == NULL)
        continue;
      if (best == NULL || n->timestamp < ovi_dump_file_get_timestamp (best))
        best = f;
    }
  return best;
}
