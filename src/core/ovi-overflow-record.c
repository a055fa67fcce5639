#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-dump-file-private.h"
#include "ovi-error.h"
#include "ovi-overflow-record.h"

#define PAYLOAD_SIZE 2048
#define NEW_LAYOUT_MAGIC 0x5A5A5A5Au
#define NOT_SET 65535

/* One overflow reported by an Opdebug file: which unit, which task, and the
 * status register. */
struct _OviOverflowRecord
{
  GObject parent_instance;

  OviUnit unit;
  guint64 model_id, stream_id, task_id, task_type;
  guint64 context_id, thread_id;
  gboolean has_context;
  guint64 pc_start, para_base, kernel_code, block_idx;
  guint64 status[4];
  guint n_status;
  GPtrArray *extra; /* "name=value" of the fields only some units have */

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

static const char *const unit_names[] = {
  "DHA Atomic Add", "L2 Atomic Add", "AI Core", "AIC", "AIV", "AICPU", "SDMA", "Data",
};

static const GEnumValue source_values[] = {
  { OVI_RECORD_SOURCE_OVERFLOW_FILE, "OVI_RECORD_SOURCE_OVERFLOW_FILE", "overflow-file" },
  { OVI_RECORD_SOURCE_DATA, "OVI_RECORD_SOURCE_DATA", "data" },
  { 0, NULL, NULL },
};

GType
ovi_record_source_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("OviRecordSource", source_values));
  return type;
}

/**
 * ovi_record_source_name:
 * Returns: "overflow-file" or "data", the words of the JSON report
 */
const char *
ovi_record_source_name (OviRecordSource source)
{
  g_return_val_if_fail (source <= OVI_RECORD_SOURCE_DATA, NULL);
  return source_values[source].value_nick;
}

static void
ovi_overflow_record_finalize (GObject *object)
{
  OviOverflowRecord *self = OVI_OVERFLOW_RECORD (object);

  g_ptr_array_unref (self->extra);
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
      g_value_set_string (value, unit_names[self->unit]);
      break;
    case PROP_MODEL_ID:
      g_value_set_uint64 (value, self->model_id);
      break;
    case PROP_STREAM_ID:
      g_value_set_uint64 (value, self->stream_id);
      break;
    case PROP_TASK_ID:
      g_value_set_uint64 (value, self->task_id);
      break;
    case PROP_TASK_TYPE:
      g_value_set_uint64 (value, self->task_type);
      break;
    case PROP_STATUS:
      g_value_set_uint64 (value, self->status[0]);
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
  self->extra = g_ptr_array_new_with_free_func (g_free);
  self->n_status = 1;
}

const char *
ovi_unit_name (OviUnit unit)
{
  g_return_val_if_fail (unit <= OVI_UNIT_LAST, NULL);
  return unit_names[unit];
}

/* dump-format.md section 4, "Reading the status". */
static const OviStatusBit status_bits[] = {
  { 0x08, "NEG", N_ ("Sign flip of the most negative signed integer") },
  { 0x10, "INT", N_ ("Integer add, subtract, multiply or multiply-add overflow") },
  { 0x20, "FP", N_ ("Floating-point overflow") },
  { 0x80, "F2U", N_ ("Float-to-unsigned conversion of a negative input") },
  { 0x100, "FP16", N_ ("Overflow converting FP32 to FP16 or INT32 to FP16") },
  { 0x400, "CUBE", N_ ("CUBE accumulation overflow") },
};

/**
 * ovi_status_bits:
 * Returns: the six documented AI Core status bits, lowest first; their
 *   descriptions are untranslated (pass them through gettext)
 */
const OviStatusBit *
ovi_status_bits (guint *n_bits)
{
  *n_bits = G_N_ELEMENTS (status_bits);
  return status_bits;
}

/**
 * ovi_status_split:
 * Returns: (element-type guint64): every set bit of @status, lowest first,
 *   documented or not
 */
GArray *
ovi_status_split (guint64 status)
{
  GArray *bits = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < 64; i++)
    if (status & (G_GUINT64_CONSTANT (1) << i))
      {
        guint64 bit = G_GUINT64_CONSTANT (1) << i;
        g_array_append_val (bits, bit);
      }
  return bits;
}

/**
 * ovi_status_dup_summary:
 * Returns: the set bits as short names, "FP16+INT", unknown bits as hex
 */
char *
ovi_status_dup_summary (guint64 status)
{
  g_autoptr (GArray) bits = ovi_status_split (status);
  GString *s = g_string_new (NULL);

  for (int i = bits->len - 1; i >= 0; i--)
    {
      guint64 bit = g_array_index (bits, guint64, i);
      const char *name = NULL;

      for (guint j = 0; j < G_N_ELEMENTS (status_bits); j++)
        if (status_bits[j].bit == bit)
          name = status_bits[j].name;
      if (s->len)
        g_string_append_c (s, '+');
      if (name)
        g_string_append (s, name);
      else
        g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x", bit);
    }
  return g_string_free (s, FALSE);
}

static guint64
u64_at (const guint8 *p, gsize offset)
{
  guint64 v;
  memcpy (&v, p + offset, 8);
  return GUINT64_FROM_LE (v);
}

static guint32
u32_at (const guint8 *p, gsize offset)
{
  guint32 v;
  memcpy (&v, p + offset, 4);
  return GUINT32_FROM_LE (v);
}

static OviOverflowRecord *
record_new (OviUnit unit)
{
  OviOverflowRecord *self = g_object_new (OVI_TYPE_OVERFLOW_RECORD, NULL);
  self->unit = unit;
  return self;
}

static void
add_extra (OviOverflowRecord *self, const char *name, guint64 value, gboolean hex)
{
  if (hex)
    g_ptr_array_add (self->extra, g_strdup_printf ("%s=0x%" G_GINT64_MODIFIER "x", name, value));
  else
    g_ptr_array_add (self->extra, g_strdup_printf ("%s=%" G_GUINT64_FORMAT, name, value));
}

/* Classic layout: three blocks, one record for each whose status is set. */
static void
decode_classic (const guint8 *p, GPtrArray *records)
{
  static const struct
  {
    OviUnit unit;
    gsize info;
    gsize status;
  } blocks[] = {
    { OVI_UNIT_DHA_ATOMIC_ADD, 0, 512 },
    { OVI_UNIT_L2_ATOMIC_ADD, 128, 768 },
    { OVI_UNIT_AI_CORE, 256, 1024 + 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      OviOverflowRecord *r;
      guint64 status = u64_at (p, blocks[i].status);

      if (status == 0)
        continue;
      r = record_new (blocks[i].unit);
      r->model_id = u64_at (p, blocks[i].info);
      r->stream_id = u64_at (p, blocks[i].info + 8);
      r->task_id = u64_at (p, blocks[i].info + 16);
      r->task_type = u64_at (p, blocks[i].info + 24);
      r->pc_start = u64_at (p, blocks[i].info + 32);
      r->para_base = u64_at (p, blocks[i].info + 40);
      r->status[0] = status;
      if (blocks[i].unit == OVI_UNIT_AI_CORE)
        {
          r->kernel_code = u64_at (p, 1024);
          r->block_idx = u64_at (p, 1024 + 8);
        }
      g_ptr_array_add (records, r);
    }
}

/* The new 0x5A5A5A5A layout: one record of the type acc_type names. */
static gboolean
decode_new (const guint8 *p, GPtrArray *records, GError **error)
{
  guint32 version = u32_at (p, 4);
  guint32 acc_type = u32_at (p, 12);
  guint n_fields, n_status = 1;
  OviOverflowRecord *r;
  guint64 f[14];

  switch (acc_type)
    {
    case 0:
    case 1:
      n_status = version == 1 ? 4 : 1;
      n_fields = 10 + n_status;
      break;
    case 2:
      n_fields = 8;
      break;
    case 3:
      n_fields = 10;
      break;
    default:
      g_set_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_BAD_RECORD,
                   _ ("the overflow record has unknown acc_type %u"), acc_type);
      return FALSE;
    }
  /* A data_len that disagrees is what the vendor tool reports too; the fields
   * are at fixed places, so decode them all the same. */
  for (guint i = 0; i < n_fields; i++)
    f[i] = u64_at (p, 24 + 8 * i);

  r = record_new (acc_type == 0   ? OVI_UNIT_AIC
                  : acc_type == 1 ? OVI_UNIT_AIV
                  : acc_type == 2 ? OVI_UNIT_AICPU
                                  : OVI_UNIT_SDMA);
  r->model_id = f[0];
  r->stream_id = f[1];
  r->task_id = f[2];
  r->task_type = f[3];
  r->context_id = f[4];
  r->has_context = TRUE;
  switch (acc_type)
    {
    case 0:
    case 1:
      r->thread_id = f[5];
      r->pc_start = f[6];
      r->para_base = f[7];
      add_extra (r, "core_id", f[8], FALSE);
      r->block_idx = f[9];
      r->n_status = n_status;
      memcpy (r->status, f + 10, n_status * sizeof (guint64));
      break;
    case 2:
      add_extra (r, "cpu_id", f[5], FALSE);
      r->thread_id = f[6];
      r->status[0] = f[7];
      break;
    case 3:
      r->thread_id = f[5];
      add_extra (r, "src_addr", f[6], TRUE);
      add_extra (r, "dst_addr", f[7], TRUE);
      add_extra (r, "channel_id", f[8], FALSE);
      r->status[0] = f[9];
      break;
    }
  if (u32_at (p, 8) != 1)
    add_extra (r, "valid", u32_at (p, 8), FALSE);
  if (u32_at (p, 20) != n_fields * 8)
    add_extra (r, "data_len", u32_at (p, 20), FALSE);

  if (ovi_overflow_record_get_flags_mask (r) != 0)
    g_ptr_array_add (records, r);
  else
    g_object_unref (r);
  return TRUE;
}

/**
 * ovi_overflow_decode:
 * @payload: the 2048 bytes of an overflow file's output
 *
 * Returns: (transfer full) (element-type OviOverflowRecord): the records whose
 *   status is not zero, possibly none; %NULL with @error when @payload is not
 *   an overflow record
 */
GPtrArray *
ovi_overflow_decode (const guint8 *payload, gsize length, GError **error)
{
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func (g_object_unref);

  if (length != PAYLOAD_SIZE)
    {
      g_set_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_PAYLOAD_SIZE,
                   _ ("the overflow record is %zu bytes, not 2048"), length);
      return NULL;
    }
  if (u32_at (payload, 0) == NEW_LAYOUT_MAGIC)
    {
      if (!decode_new (payload, records, error))
        return NULL;
    }
  else
    decode_classic (payload, records);
  return g_steal_pointer (&records);
}

/**
 * ovi_overflow_decode_file:
 *
 * Decodes an overflow file and attaches it to each record.
 */
GPtrArray *
ovi_overflow_decode_file (OviDumpFile *file, GError **error)
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
  records =
      ovi_overflow_decode (g_bytes_get_data (payload, NULL), g_bytes_get_size (payload), error);
  for (guint i = 0; records && i < records->len; i++)
    ovi_overflow_record_set_file (g_ptr_array_index (records, i), file);
  return records;
}

static void
json_field (GString *s, const char *indent, const char *key, gboolean last, const char *fmt, ...)
    G_GNUC_PRINTF (5, 6);

static void
json_field (GString *s, const char *indent, const char *key, gboolean last, const char *fmt, ...)
{
  va_list args;

  g_string_append_printf (s, "%s\"%s\": ", indent, key);
  va_start (args, fmt);
  g_string_append_vprintf (s, fmt, args);
  va_end (args);
  g_string_append (s, last ? "\n" : ",\n");
}

#define DEC "%" G_GUINT64_FORMAT
#define HEX "\"0x%" G_GINT64_MODIFIER "x\""

static void
classic_block_json (GString *s,
                    const char *name,
                    const guint8 *p,
                    gsize info,
                    gsize status,
                    gboolean aicore,
                    gboolean last)
{
  const char *in = "        ";

  g_string_append_printf (s, "    \"%s\": {\n", name);
  json_field (s, in, "model_id", FALSE, DEC, u64_at (p, info));
  json_field (s, in, "stream_id", FALSE, DEC, u64_at (p, info + 8));
  json_field (s, in, "task_id", FALSE, DEC, u64_at (p, info + 16));
  json_field (s, in, "task_type", FALSE, DEC, u64_at (p, info + 24));
  json_field (s, in, "pc_start", FALSE, HEX, u64_at (p, info + 32));
  json_field (s, in, "para_base", FALSE, HEX, u64_at (p, info + 40));
  if (aicore)
    {
      json_field (s, in, "kernel_code", FALSE, HEX, u64_at (p, 1024));
      json_field (s, in, "block_idx", FALSE, DEC, u64_at (p, 1024 + 8));
    }
  json_field (s, in, "status", TRUE, DEC, u64_at (p, status));
  g_string_append (s, last ? "    }\n" : "    },\n");
}

/**
 * ovi_overflow_vendor_json:
 *
 * The overflow record as the vendor converter writes it: Python's
 * json.dumps(indent=4) of its dictionary, without a trailing newline.
 *
 * Returns: (transfer full): the JSON text
 */
char *
ovi_overflow_vendor_json (const guint8 *p, gsize length, GError **error)
{
  static const char *const acc_names[] = { "AIC", "AIV", "AICPU", "SDMA" };
  /* Field names and whether the vendor prints them in hex, per acc_type. */
  static const char *const aic_fields[] = { "model_id",   "stream_id", "task_id",  "task_type",
                                            "context_id", "thread_id", "pc_start", "para_base",
                                            "core_id",    "block_id",  "status",   NULL };
  static const char *const aicpu_fields[] = { "model_id",  "stream_id",  "task_id",
                                              "task_type", "context_id", "cpu_id",
                                              "thread_id", "status",     NULL };
  static const char *const sdma_fields[] = { "model_id",   "stream_id", "task_id",  "task_type",
                                             "context_id", "thread_id", "src_addr", "dst_addr",
                                             "channel_id", "status",    NULL };
  GString *s;

  if (length != PAYLOAD_SIZE)
    {
      g_set_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_PAYLOAD_SIZE,
                   _ ("the overflow record is %zu bytes, not 2048"), length);
      return NULL;
    }

  s = g_string_new ("{\n");
  if (u32_at (p, 0) != NEW_LAYOUT_MAGIC)
    {
      classic_block_json (s, "DHA Atomic Add", p, 0, 512, FALSE, FALSE);
      classic_block_json (s, "L2 Atomic Add", p, 128, 768, FALSE, FALSE);
      classic_block_json (s, "AI Core", p, 256, 1024 + 16, TRUE, TRUE);
    }
  else
    {
      guint32 version = u32_at (p, 4), acc_type = u32_at (p, 12);
      const char *const *fields;
      const char *in = "            ";
      gsize offset = 24;

      if (acc_type > 3)
        {
          g_string_free (s, TRUE);
          g_set_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_BAD_RECORD,
                       _ ("the overflow record has unknown acc_type %u"), acc_type);
          return NULL;
        }
      fields = acc_type <= 1 ? aic_fields : acc_type == 2 ? aicpu_fields : sdma_fields;

      json_field (s, "    ", "magic", FALSE, "\"0x%x\"", u32_at (p, 0));
      json_field (s, "    ", "version", FALSE, "%u", version);
      g_string_append (s, "    \"acc_list\": {\n");
      json_field (s, "        ", "valid", FALSE, "%u", u32_at (p, 8));
      json_field (s, "        ", "acc_type", FALSE, "\"%s\"", acc_names[acc_type]);
      json_field (s, "        ", "rsv", FALSE, "%u", u32_at (p, 16));
      json_field (s, "        ", "data_len", FALSE, "%u", u32_at (p, 20));
      g_string_append (s, "        \"data\": {\n");
      for (guint i = 0; fields[i]; i++)
        {
          const char *f = fields[i];
          gboolean last = fields[i + 1] == NULL;
          gboolean hex = g_str_equal (f, "pc_start") || g_str_equal (f, "para_base") ||
                         g_str_equal (f, "src_addr") || g_str_equal (f, "dst_addr");

          if (last && acc_type <= 1 && version == 1)
            {
              /* Four status words, shown as a list. */
              g_string_append_printf (s, "%s\"status\": [\n", in);
              for (guint w = 0; w < 4; w++)
                g_string_append_printf (s, "%s    " DEC "%s\n", in, u64_at (p, offset + 8 * w),
                                        w < 3 ? "," : "");
              g_string_append_printf (s, "%s]\n", in);
            }
          else if (hex)
            json_field (s, in, f, last, HEX, u64_at (p, offset));
          else
            json_field (s, in, f, last, DEC, u64_at (p, offset));
          offset += 8;
        }
      g_string_append (s, "        }\n    }\n");
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
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
  self->unit = OVI_UNIT_DATA;
  self->stream_id = name->stream_id;
  self->task_id = name->task_id;
  if (name->has_context)
    {
      self->has_context = TRUE;
      self->context_id = name->context_id;
      self->thread_id = name->thread_id;
    }
  /* The model id is the folder's: the last part of model_name/model_id. */
  {
    const char *model = ovi_dump_file_get_model (op);
    const char *slash = model ? strrchr (model, '/') : NULL;
    if (model)
      g_ascii_string_to_unsigned (slash ? slash + 1 : model, 10, 0, G_MAXUINT64, &self->model_id,
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
  return self->unit;
}

const char *
ovi_overflow_record_get_unit_name (OviOverflowRecord *self)
{
  return unit_names[self->unit];
}

guint64
ovi_overflow_record_get_model_id (OviOverflowRecord *self)
{
  return self->model_id;
}

guint64
ovi_overflow_record_get_stream_id (OviOverflowRecord *self)
{
  return self->stream_id;
}

guint64
ovi_overflow_record_get_task_id (OviOverflowRecord *self)
{
  return self->task_id;
}

guint64
ovi_overflow_record_get_task_type (OviOverflowRecord *self)
{
  return self->task_type;
}

gboolean
ovi_overflow_record_has_context (OviOverflowRecord *self)
{
  return self->has_context;
}

guint64
ovi_overflow_record_get_context_id (OviOverflowRecord *self)
{
  return self->context_id;
}

guint64
ovi_overflow_record_get_thread_id (OviOverflowRecord *self)
{
  return self->thread_id;
}

guint64
ovi_overflow_record_get_pc_start (OviOverflowRecord *self)
{
  return self->pc_start;
}

guint64
ovi_overflow_record_get_para_base (OviOverflowRecord *self)
{
  return self->para_base;
}

guint64
ovi_overflow_record_get_kernel_code (OviOverflowRecord *self)
{
  return self->kernel_code;
}

guint64
ovi_overflow_record_get_block_idx (OviOverflowRecord *self)
{
  return self->block_idx;
}

/**
 * ovi_overflow_record_get_status:
 * Returns: the status register (the first word when there are four)
 */
guint64
ovi_overflow_record_get_status (OviOverflowRecord *self)
{
  return self->status[0];
}

const guint64 *
ovi_overflow_record_get_status_words (OviOverflowRecord *self, guint *n_words)
{
  *n_words = self->n_status;
  return self->status;
}

/**
 * ovi_overflow_record_get_flags_mask:
 * Returns: every status bit set in any status word
 */
guint64
ovi_overflow_record_get_flags_mask (OviOverflowRecord *self)
{
  guint64 mask = 0;
  for (guint i = 0; i < self->n_status; i++)
    mask |= self->status[i];
  return mask;
}

char *
ovi_overflow_record_dup_status_hex (OviOverflowRecord *self)
{
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", self->status[0]);
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
    return g_strdup (_ ("Found in the data: finite inputs, outputs with NaN, Inf or saturated "
                        "values"));
  hex = ovi_overflow_record_dup_status_hex (self);
  if (self->unit != OVI_UNIT_AI_CORE && self->unit != OVI_UNIT_AIC && self->unit != OVI_UNIT_AIV)
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
  return g_ptr_array_ref (self->extra);
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
  return ovi_natural_path_compare (a ? a : "", b ? b : "");
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
  c = ovi_natural_path_compare (ovi_dump_file_get_relative_dir (a->file),
                                ovi_dump_file_get_relative_dir (b->file));
  if (c != 0)
    return c;
  c = g_strcmp0 (ovi_dump_file_get_name (a->file), ovi_dump_file_get_name (b->file));
  if (c != 0)
    return c;
  return (int) a->unit - (int) b->unit;
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
  gboolean narrow_context = record->has_context && is_set (record->context_id);
  gboolean narrow_thread = record->has_context && is_set (record->thread_id);

  for (guint i = 0; i < op_files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (op_files, i);
      const OviFileName *n = ovi_dump_file_get_file_name (f);

      /* Older names carry no stream id: the task id is all they can match. */
      if (n->kind != OVI_FILE_KIND_OP_DUMP || n->task_id != record->task_id ||
          (n->has_stream_id && n->stream_id != record->stream_id))
        continue;
      if (n->has_context && narrow_context && n->context_id != record->context_id)
        continue;
      /* A group is the whole execution, every thread of it. */
      if (n->has_context && narrow_thread && n->thread_id != record->thread_id &&
          ovi_dump_file_get_slices (f) == NULL)
        continue;
      if (best == NULL || n->timestamp < ovi_dump_file_get_timestamp (best))
        best = f;
    }
  return best;
}
