#include "config.h"

#include <string.h>

#include "dump_data.pb-c.h"
#include "ovi-dtype.h"
#include "ovi-dump-writer.h"
#include "ovi-export.h"

typedef struct
{
  OviTensorKind kind;
  int dtype;
  int format;
  GArray *shape;
  GArray *original_shape;
  GBytes *data;
} Entry;

struct _OviDumpWriter
{
  char *op_name;
  guint64 dump_time;
  OviWriterFlags flags;
  GPtrArray *entries;
};

static void
entry_free (Entry *e)
{
  g_array_unref (e->shape);
  g_array_unref (e->original_shape);
  g_bytes_unref (e->data);
  g_free (e);
}

OviDumpWriter *
ovi_dump_writer_new (const char *op_name)
{
  OviDumpWriter *self = g_new0 (OviDumpWriter, 1);
  self->op_name = g_strdup (op_name);
  self->dump_time = 1634155934514051;
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  return self;
}

void
ovi_dump_writer_free (OviDumpWriter *self)
{
  g_free (self->op_name);
  g_ptr_array_unref (self->entries);
  g_free (self);
}

void
ovi_dump_writer_set_flags (OviDumpWriter *self, OviWriterFlags flags)
{
  self->flags = flags;
}

void
ovi_dump_writer_set_dump_time (OviDumpWriter *self, guint64 dump_time)
{
  self->dump_time = dump_time;
}

/**
 * ovi_dump_writer_add_tensor:
 * @data: the tensor's bytes; its size is what the header states
 */
void
ovi_dump_writer_add_tensor (OviDumpWriter *self, OviTensorKind kind, int dtype, int format,
                            const guint64 *shape, guint n_dims, GBytes *data)
{
  Entry *e = g_new0 (Entry, 1);

  e->kind = kind;
  e->dtype = dtype;
  e->format = format;
  e->shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_vals (e->shape, shape, n_dims);
  e->original_shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_vals (e->original_shape, shape, n_dims);
  e->data = g_bytes_ref (data);
  g_ptr_array_add (self->entries, e);
}

void
ovi_dump_writer_set_original_shape (OviDumpWriter *self, OviTensorKind kind, guint index,
                                    const guint64 *shape, guint n_dims)
{
  guint seen = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (self->entries, i);
      if (e->kind == kind && seen++ == index)
        {
          g_array_set_size (e->original_shape, 0);
          g_array_append_vals (e->original_shape, shape, n_dims);
        }
    }
}

static void
varint (GByteArray *out, guint64 v)
{
  do
    {
      guint8 b = v & 0x7f;
      v >>= 7;
      if (v)
        b |= 0x80;
      g_byte_array_append (out, &b, 1);
    }
  while (v);
}

/* A Shape message with one tag per dim (the unpacked encoding, which
 * protobuf-c never writes for proto3). */
static GByteArray *
unpacked_shape (GArray *dims)
{
  g_autoptr (GByteArray) body = g_byte_array_new ();
  GByteArray *out = g_byte_array_new ();

  for (guint i = 0; i < dims->len; i++)
    {
      guint8 tag = 0x08;
      g_byte_array_append (body, &tag, 1);
      varint (body, g_array_index (dims, guint64, i));
    }
  /* protobuf-c writes an unknown field's bytes as they are after the tag,
   * so a length-delimited one carries its own length. */
  varint (out, body->len);
  g_byte_array_append (out, body->data, body->len);
  return out;
}

typedef struct
{
  Ovi__Dumpdata__Shape shapes[2];
  ProtobufCMessageUnknownField unknown;
  GByteArray *unknown_data;
} ShapeStore;

/* Fills @base's shape fields, or with UNPACKED_DIMS stores the shape as an
 * unknown field that protobuf-c writes out verbatim. */
static void
fill_shape (OviDumpWriter *self, Entry *e, ShapeStore *store, ProtobufCMessage *base,
            Ovi__Dumpdata__Shape **shape, Ovi__Dumpdata__Shape **original, guint shape_tag)
{
  ovi__dumpdata__shape__init (&store->shapes[0]);
  ovi__dumpdata__shape__init (&store->shapes[1]);
  store->shapes[1].n_dim = e->original_shape->len;
  store->shapes[1].dim = (uint64_t *) (gpointer) e->original_shape->data;
  *original = &store->shapes[1];

  if (self->flags & OVI_WRITER_UNPACKED_DIMS)
    {
      store->unknown_data = unpacked_shape (e->shape);
      store->unknown.tag = shape_tag;
      store->unknown.wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
      store->unknown.len = store->unknown_data->len;
      store->unknown.data = store->unknown_data->data;
      base->n_unknown_fields = 1;
      base->unknown_fields = &store->unknown;
      *shape = NULL;
    }
  else
    {
      store->shapes[0].n_dim = e->shape->len;
      store->shapes[0].dim = (uint64_t *) (gpointer) e->shape->data;
      *shape = &store->shapes[0];
    }
}

/**
 * ovi_dump_writer_build:
 *
 * Returns: (transfer full): the bytes of the file in @layout
 */
GBytes *
ovi_dump_writer_build (OviDumpWriter *self, OviLayout layout)
{
  Ovi__Dumpdata__DumpData msg = OVI__DUMPDATA__DUMP_DATA__INIT;
  guint n = self->entries->len;
  g_autofree Ovi__Dumpdata__OpInput *inputs = g_new0 (Ovi__Dumpdata__OpInput, n);
  g_autofree Ovi__Dumpdata__OpOutput *outputs = g_new0 (Ovi__Dumpdata__OpOutput, n);
  g_autofree Ovi__Dumpdata__OpBuffer *buffers = g_new0 (Ovi__Dumpdata__OpBuffer, n);
  g_autofree Ovi__Dumpdata__Workspace *spaces = g_new0 (Ovi__Dumpdata__Workspace, n);
  g_autofree ShapeStore *stores = g_new0 (ShapeStore, n);
  g_autofree Ovi__Dumpdata__OpInput **input_ptrs = g_new0 (Ovi__Dumpdata__OpInput *, n);
  g_autofree Ovi__Dumpdata__OpOutput **output_ptrs = g_new0 (Ovi__Dumpdata__OpOutput *, n);
  g_autofree Ovi__Dumpdata__OpBuffer **buffer_ptrs = g_new0 (Ovi__Dumpdata__OpBuffer *, n);
  g_autofree Ovi__Dumpdata__Workspace **space_ptrs = g_new0 (Ovi__Dumpdata__Workspace *, n);
  gboolean inline_data = layout == OVI_LAYOUT_OLD;
  GByteArray *out = g_byte_array_new ();
  gsize packed_size;
  guint8 *packed;
  static const OviTensorKind order[] = { OVI_TENSOR_INPUT, OVI_TENSOR_OUTPUT, OVI_TENSOR_BUFFER,
                                         OVI_TENSOR_SPACE };

  msg.version = (char *) "2.0";
  msg.dump_time = self->dump_time;
  msg.op_name = self->op_name;

  for (guint i = 0; i < n; i++)
    {
      Entry *e = g_ptr_array_index (self->entries, i);
      ProtobufCBinaryData data = { 0, NULL };
      gsize size;

      data.data = (guint8 *) g_bytes_get_data (e->data, &size);
      if (inline_data)
        data.len = size;
      switch (e->kind)
        {
        case OVI_TENSOR_INPUT:
          {
            Ovi__Dumpdata__OpInput *in = &inputs[msg.n_input];
            ovi__dumpdata__op_input__init (in);
            in->data_type = e->dtype;
            in->format = e->format;
            in->size = size;
            in->data = data;
            fill_shape (self, e, &stores[i], &in->base, &in->shape, &in->original_shape, 3);
            input_ptrs[msg.n_input++] = in;
            break;
          }
        case OVI_TENSOR_OUTPUT:
          {
            Ovi__Dumpdata__OpOutput *o = &outputs[msg.n_output];
            ovi__dumpdata__op_output__init (o);
            o->data_type = e->dtype;
            o->format = e->format;
            o->size = size;
            o->data = data;
            fill_shape (self, e, &stores[i], &o->base, &o->shape, &o->original_shape, 3);
            output_ptrs[msg.n_output++] = o;
            break;
          }
        case OVI_TENSOR_BUFFER:
          {
            Ovi__Dumpdata__OpBuffer *b = &buffers[msg.n_buffer];
            ovi__dumpdata__op_buffer__init (b);
            b->size = size;
            b->data = data;
            buffer_ptrs[msg.n_buffer++] = b;
            break;
          }
        case OVI_TENSOR_SPACE:
          {
            Ovi__Dumpdata__Workspace *w = &spaces[msg.n_space];
            ovi__dumpdata__workspace__init (w);
            w->size = size;
            w->data = data;
            space_ptrs[msg.n_space++] = w;
            break;
          }
        }
    }
  msg.input = input_ptrs;
  msg.output = output_ptrs;
  msg.buffer = buffer_ptrs;
  msg.space = space_ptrs;

  packed_size = ovi__dumpdata__dump_data__get_packed_size (&msg);
  packed = g_malloc (MAX (packed_size, 1));
  ovi__dumpdata__dump_data__pack (&msg, packed);

  if (layout == OVI_LAYOUT_NEW)
    {
      guint64 le = GUINT64_TO_LE ((guint64) packed_size);
      g_byte_array_append (out, (const guint8 *) &le, 8);
    }
  g_byte_array_append (out, packed, packed_size);
  g_free (packed);

  if (layout == OVI_LAYOUT_NEW)
    for (guint k = 0; k < G_N_ELEMENTS (order); k++)
      for (guint i = 0; i < n; i++)
        {
          Entry *e = g_ptr_array_index (self->entries, i);
          gsize size;
          gconstpointer d = g_bytes_get_data (e->data, &size);
          if (e->kind == order[k])
            g_byte_array_append (out, d, size);
        }

  for (guint i = 0; i < n; i++)
    if (stores[i].unknown_data)
      g_byte_array_unref (stores[i].unknown_data);
  return g_byte_array_free_to_bytes (out);
}

gboolean
ovi_dump_writer_write (OviDumpWriter *self, OviLayout layout, const char *path, GError **error)
{
  g_autoptr (GBytes) bytes = ovi_dump_writer_build (self, layout);
  gsize size;
  const char *d = g_bytes_get_data (bytes, &size);

  return ovi_export_write_contents (path, d, size, OVI_EXPORT_FLAGS_OVERWRITE, error);
}

static void
put_u64 (guint8 *p, gsize offset, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p + offset, &v, 8);
}

static void
put_u32 (guint8 *p, gsize offset, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p + offset, &v, 4);
}

static void
put_info (guint8 *p, gsize offset, const OviClassicBlock *b)
{
  put_u64 (p, offset, b->model_id);
  put_u64 (p, offset + 8, b->stream_id);
  put_u64 (p, offset + 16, b->task_id);
  put_u64 (p, offset + 24, b->task_type);
  put_u64 (p, offset + 32, b->pc_start);
  put_u64 (p, offset + 40, b->para_base);
}

/**
 * ovi_overflow_payload_classic:
 * @dha: (nullable): the DHA Atomic Add block
 * @l2: (nullable): the L2 Atomic Add block
 * @aicore: (nullable): the AI Core block
 *
 * Returns: (transfer full): 2048 bytes in the classic layout
 */
GBytes *
ovi_overflow_payload_classic (const OviClassicBlock *dha, const OviClassicBlock *l2,
                              const OviClassicBlock *aicore)
{
  guint8 *p = g_malloc0 (2048);

  if (dha)
    {
      put_info (p, 0, dha);
      put_u64 (p, 512, dha->status);
    }
  if (l2)
    {
      put_info (p, 128, l2);
      put_u64 (p, 768, l2->status);
    }
  if (aicore)
    {
      put_info (p, 256, aicore);
      put_u64 (p, 1024, aicore->kernel_code);
      put_u64 (p, 1032, aicore->block_idx);
      put_u64 (p, 1040, aicore->status);
    }
  return g_bytes_new_take (p, 2048);
}

/**
 * ovi_overflow_payload_new:
 * @acc_type: 0 AIC, 1 AIV, 2 AICPU, 3 SDMA
 * @fields: the u64 fields in the order of dump-format.md section 4
 *
 * Returns: (transfer full): 2048 bytes in the 0x5A5A5A5A layout
 */
GBytes *
ovi_overflow_payload_new (guint32 version, guint32 acc_type, const guint64 *fields, guint n_fields)
{
  guint8 *p = g_malloc0 (2048);

  g_return_val_if_fail (n_fields <= 14, NULL);
  put_u32 (p, 0, 0x5A5A5A5Au);
  put_u32 (p, 4, version);
  put_u32 (p, 8, 1);
  put_u32 (p, 12, acc_type);
  put_u32 (p, 16, 0);
  put_u32 (p, 20, n_fields * 8);
  for (guint i = 0; i < n_fields; i++)
    put_u64 (p, 24 + 8 * i, fields[i]);
  return g_bytes_new_take (p, 2048);
}

/**
 * ovi_write_overflow_file:
 *
 * Writes an Opdebug file as the runtime does: one uint8 ND [2048] output.
 */
gboolean
ovi_write_overflow_file (const char *path, GBytes *payload, OviLayout layout, GError **error)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("Node_OpDebug");
  guint64 shape[] = { g_bytes_get_size (payload) };

  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_UINT8, 2, shape, 1, payload);
  return ovi_dump_writer_write (w, layout, path, error);
}
