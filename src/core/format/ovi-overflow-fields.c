/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-error.h"
#include "ovi-overflow-fields.h"

#define PAYLOAD_SIZE 2048
#define NEW_LAYOUT_MAGIC 0x5A5A5A5Au

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

static OviOverflowFields *
fields_new (OviUnit unit)
{
  OviOverflowFields *self = g_new0 (OviOverflowFields, 1);
  self->unit = unit;
  self->n_status = 1;
  self->extra = g_ptr_array_new_with_free_func (g_free);
  return self;
}

/**
 * ovi_overflow_fields_free:
 */
void
ovi_overflow_fields_free (OviOverflowFields *self)
{
  g_ptr_array_unref (self->extra);
  g_free (self);
}

/**
 * ovi_overflow_fields_get_flags_mask:
 * Returns: every status bit set in any status word
 */
guint64
ovi_overflow_fields_get_flags_mask (const OviOverflowFields *self)
{
  guint64 mask = 0;
  for (guint i = 0; i < self->n_status; i++)
    mask |= self->status[i];
  return mask;
}

static void
add_extra (OviOverflowFields *self, const char *name, guint64 value, gboolean hex)
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
      OviOverflowFields *r;
      guint64 status = u64_at (p, blocks[i].status);

      if (status == 0)
        continue;
      r = fields_new (blocks[i].unit);
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
  OviOverflowFields *r;
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

  r = fields_new (acc_type == 0   ? OVI_UNIT_AIC
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

  if (ovi_overflow_fields_get_flags_mask (r) != 0)
    g_ptr_array_add (records, r);
  else
    ovi_overflow_fields_free (r);
  return TRUE;
}

/**
 * ovi_overflow_fields_decode:
 * @payload: the 2048 bytes of an overflow file's output
 *
 * Returns: (transfer full) (element-type OviOverflowFields): the reports
 *   whose status is not zero, possibly none; %NULL with @error when
 *   @payload is not an overflow record
 */
GPtrArray *
ovi_overflow_fields_decode (const guint8 *payload, gsize length, GError **error)
{
  g_autoptr (GPtrArray) records =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_overflow_fields_free);

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
 * ovi_overflow_fields_vendor_json:
 *
 * The overflow record as the vendor converter writes it: Python's
 * json.dumps(indent=4) of its dictionary, without a trailing newline.
 *
 * Returns: (transfer full): the JSON text
 */
char *
ovi_overflow_fields_vendor_json (const guint8 *p, gsize length, GError **error)
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
