/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "dump_data.pb-c.h"
#include "ovi-dump-header.h"
#include "ovi-error.h"
#include "ovi-shape.h"

static const char version_2[] = "2.0";

/* Reads exactly @length bytes at @offset; short reads are truncation. */
gboolean
ovi_dump_header_read_at (int fd, void *buf, gsize length, guint64 offset, GError **error)
{
  gsize done = 0;

  while (done < length)
    {
      gssize n = pread (fd, (char *) buf + done, length - done, offset + done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO, _ ("cannot read: %s"),
                       g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        {
          g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_TRUNCATED,
                       _ ("truncated while reading (the file shrank)"));
          return FALSE;
        }
      done += n;
    }
  return TRUE;
}

const char *
ovi_dump_header_kind_word (OviTensorKind kind)
{
  /* Translators: the tensor that a dump file's reason names, as in
   * "input 0: size is ..." */
  static const char *const words[] = { N_ ("input"), N_ ("output"), N_ ("buffer"), N_ ("space") };
  return _ (words[kind]);
}

/* Every tensor of the message in data-section order: inputs, outputs,
 * buffers, workspaces (the message itself lists outputs first). */
typedef struct
{
  OviTensorKind kind;
  guint index;
  OviDtype dtype;
  OviFormat format;
  Ovi__Dumpdata__Shape *shape;
  Ovi__Dumpdata__Shape *original_shape;
  guint64 size;
  ProtobufCBinaryData data;
  guint32 arg_index;
  guint32 input_type;
  gint32 space_type;
  guint64 address;
} TensorDesc;

static GArray *
collect_tensors (const Ovi__Dumpdata__DumpData *msg)
{
  GArray *descs = g_array_sized_new (FALSE, TRUE, sizeof (TensorDesc),
                                     msg->n_input + msg->n_output + msg->n_buffer + msg->n_space);

  for (gsize i = 0; i < msg->n_input; i++)
    {
      const Ovi__Dumpdata__OpInput *in = msg->input[i];
      TensorDesc d = { OVI_TENSOR_INPUT, i,         in->data_type,
                       in->format,       in->shape, in->original_shape,
                       in->size,         in->data,  in->arg_index,
                       in->input_type,   0,         in->address };
      g_array_append_val (descs, d);
    }
  for (gsize i = 0; i < msg->n_output; i++)
    {
      const Ovi__Dumpdata__OpOutput *out = msg->output[i];
      TensorDesc d = {
        OVI_TENSOR_OUTPUT, i,         out->data_type, out->format, out->shape, out->original_shape,
        out->size,         out->data, out->arg_index, 0,           0,          out->address
      };
      g_array_append_val (descs, d);
    }
  for (gsize i = 0; i < msg->n_buffer; i++)
    {
      const Ovi__Dumpdata__OpBuffer *b = msg->buffer[i];
      TensorDesc d = {
        OVI_TENSOR_BUFFER, i, OVI_DTYPE_UINT8, 2, NULL, NULL, b->size, b->data, 0, 0, 0
      };
      g_array_append_val (descs, d);
    }
  for (gsize i = 0; i < msg->n_space; i++)
    {
      const Ovi__Dumpdata__Workspace *w = msg->space[i];
      TensorDesc d = { OVI_TENSOR_SPACE, i,       OVI_DTYPE_UINT8, 2, NULL,   NULL,
                       w->size,          w->data, w->arg_index,    0, w->type };
      g_array_append_val (descs, d);
    }
  return descs;
}

static gboolean
message_is_empty (const Ovi__Dumpdata__DumpData *msg)
{
  return (msg->version == NULL || *msg->version == '\0') &&
         (msg->op_name == NULL || *msg->op_name == '\0') && msg->n_input == 0 &&
         msg->n_output == 0 && msg->n_buffer == 0 && msg->n_space == 0;
}

/* Checks each tensor's size against its shape and dtype and creates the
 * tensors; @data_offset is where the data section starts (new layout). */
static gboolean
build_tensors (OviDumpHeader *self,
               const Ovi__Dumpdata__DumpData *msg,
               guint64 data_offset,
               GError **error)
{
  g_autoptr (GArray) descs = collect_tensors (msg);
  guint64 offset = data_offset;

  for (guint i = 0; i < descs->len; i++)
    {
      const TensorDesc *d = &g_array_index (descs, TensorDesc, i);
      const guint64 *dims = d->shape ? d->shape->dim : NULL;
      guint n_dims = d->shape ? d->shape->n_dim : 0;
      guint64 size = d->size, count, expected;

      if (self->layout == OVI_LAYOUT_OLD)
        {
          /* Old layout: the bytes are inline; a size field, when set, must agree. */
          if (size != 0 && size != d->data.len)
            {
              g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_SIZE_MISMATCH,
                           /* Translators: the first %s %u is a tensor, as in "input 0". */
                           _ ("%s %u: size field says %" PRIu64 " bytes but %zu bytes are stored"),
                           ovi_dump_header_kind_word (d->kind), d->index, size, d->data.len);
              return FALSE;
            }
          size = d->data.len;
        }

      if (n_dims > 0 && d->kind != OVI_TENSOR_BUFFER && d->kind != OVI_TENSOR_SPACE &&
          ovi_dtype_bits (d->dtype) > 0)
        {
          if (!ovi_shape_count (dims, n_dims, &count) ||
              !ovi_dtype_size_for_count (d->dtype, count, &expected))
            {
              g_autofree char *dtype = ovi_dtype_dup_label (d->dtype);
              g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_ELEMENT_SIZE,
                           /* Translators: "%s %u" is a tensor ("input 0"), the last %s a dtype. */
                           _ ("%s %u: the element count of its shape times the size of %s does "
                              "not fit in 64 bits"),
                           ovi_dump_header_kind_word (d->kind), d->index, dtype);
              return FALSE;
            }
          if (expected != size)
            {
              g_autofree char *dtype = ovi_dtype_dup_label (d->dtype);
              g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_ELEMENT_SIZE,
                           /* Translators: "%s %u" is a tensor ("input 0"), the last %s a dtype. */
                           _ ("%s %u: size is %" PRIu64 " bytes but %" PRIu64
                              " elements of %s take %" PRIu64 " bytes"),
                           ovi_dump_header_kind_word (d->kind), d->index, size, count, dtype,
                           expected);
              return FALSE;
            }
        }

      {
        OviTensorInfo info = {
          d->kind, d->index, d->dtype, d->format,    self->dims->len, n_dims,        0,
          0,       size,     offset,   d->arg_index, d->input_type,   d->space_type, d->address
        };
        g_array_append_vals (self->dims, dims, n_dims);
        info.original_start = self->dims->len;
        if (d->original_shape)
          {
            info.n_original = d->original_shape->n_dim;
            g_array_append_vals (self->dims, d->original_shape->dim, info.n_original);
          }
        g_array_append_val (self->infos, info);
      }
      if (self->layout == OVI_LAYOUT_NEW)
        offset += size;
    }
  return TRUE;
}

/* Sum of the data sizes, or FALSE when the sum does not fit in 64 bits. */
static gboolean
sum_sizes (const Ovi__Dumpdata__DumpData *msg, guint64 *total)
{
  g_autoptr (GArray) descs = collect_tensors (msg);
  guint64 sum = 0;

  for (guint i = 0; i < descs->len; i++)
    {
      guint64 size = g_array_index (descs, TensorDesc, i).size;
      if (size > G_MAXUINT64 - sum)
        return FALSE;
      sum += size;
    }
  *total = sum;
  return TRUE;
}

static void
take_message (OviDumpHeader *self, const Ovi__Dumpdata__DumpData *msg)
{
  /* Nearly every file says "2.0": no need for 100 000 copies. */
  if (g_strcmp0 (msg->version, version_2) == 0)
    self->version = (char *) version_2;
  else
    self->version = g_strdup (msg->version ? msg->version : "");
  self->op_name = g_strdup (msg->op_name ? msg->op_name : "");
  self->dump_time = msg->dump_time;
  /* Free text for the window to show: kept as valid UTF-8, which protobuf-c
   * does not check. */
  if (msg->dfx_message && *msg->dfx_message)
    self->dfx_message = g_utf8_make_valid (msg->dfx_message, -1);
  if (msg->n_attr > 0)
    {
      self->attrs = g_new0 (char *, 2 * msg->n_attr + 1);
      for (gsize i = 0; i < msg->n_attr; i++)
        {
          self->attrs[2 * i] = g_utf8_make_valid (msg->attr[i]->name ? msg->attr[i]->name : "", -1);
          self->attrs[2 * i + 1] =
              g_utf8_make_valid (msg->attr[i]->value ? msg->attr[i]->value : "", -1);
        }
    }
}

/* protobuf-c allocates every field of a message separately; headers are
 * small, so a bump allocator over a stack buffer saves thousands of
 * mallocs per folder. What does not fit goes to the heap. */
typedef struct
{
  guint8 *buf;
  gsize size;
  gsize used;
  GSList *spill;
} Arena;

static void *
arena_alloc (void *data, size_t size)
{
  Arena *arena = data;
  void *p;

  size = (size + 15) & ~(gsize) 15;
  if (size <= arena->size - arena->used)
    {
      p = arena->buf + arena->used;
      arena->used += size;
      return p;
    }
  p = g_try_malloc (MAX (size, 1));
  if (p)
    arena->spill = g_slist_prepend (arena->spill, p);
  return p;
}

static void
arena_free (void *data, void *pointer)
{
}

static void
arena_clear (Arena *arena)
{
  g_slist_free_full (arena->spill, g_free);
  arena->spill = NULL;
  arena->used = 0;
}

/* @head holds the first @head_length bytes of the file, usually the whole
 * header, which then needs no second read. */
static gboolean
load_new_layout (OviDumpHeader *self,
                 int fd,
                 const guint8 *head,
                 gsize head_length,
                 guint64 header_length,
                 GError **error)
{
  g_autofree guint8 *allocated = NULL;
  const guint8 *header = head + 8;
  Ovi__Dumpdata__DumpData *msg;
  guint64 total, data_length = self->file_size - 8 - header_length;
  gboolean ok = FALSE;
  _Alignas(16) guint8 arena_buf[16384];
  Arena arena = { arena_buf, sizeof arena_buf, 0, NULL };
  ProtobufCAllocator allocator = { arena_alloc, arena_free, &arena };

  /* header_length was checked against the real file size by the caller. */
  if (8 + header_length > head_length)
    {
      allocated = g_malloc (header_length);
      if (!ovi_dump_header_read_at (fd, allocated, header_length, 8, error))
        return FALSE;
      header = allocated;
    }
  msg = ovi__dumpdata__dump_data__unpack (&allocator, header_length, header);
  if (msg == NULL)
    {
      arena_clear (&arena);
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_BAD_MESSAGE,
                   _ ("the %" PRIu64 "-byte header does not parse as a dump message"),
                   header_length);
      return FALSE;
    }
  if (message_is_empty (msg))
    g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_EMPTY_MESSAGE,
                 _ ("the header holds no version, no op name and no tensor"));
  else if (!sum_sizes (msg, &total))
    g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_SIZE_MISMATCH,
                 _ ("the tensor sizes in the header add up to more than 2^64 bytes"));
  else if (total != data_length)
    g_set_error (
        error, OVI_DUMP_FILE_ERROR,
        total > data_length ? OVI_DUMP_FILE_ERROR_TRUNCATED : OVI_DUMP_FILE_ERROR_SIZE_MISMATCH,
        total > data_length ? _ ("the header lists %" PRIu64 " bytes of tensor data but %" PRIu64
                                 " bytes follow it (truncated)")
                            : _ ("the header lists %" PRIu64 " bytes of tensor data but %" PRIu64
                                 " bytes follow it"),
        total, data_length);
  else
    {
      self->layout = OVI_LAYOUT_NEW;
      take_message (self, msg);
      ok = build_tensors (self, msg, 8 + header_length, error);
    }
  ovi__dumpdata__dump_data__free_unpacked (msg, &allocator);
  arena_clear (&arena);
  return ok;
}

/* The old layout keeps the tensors inside the message: unpack it all, from
 * memory rather than a mapping, which a truncation would turn into SIGBUS.
 * Returns NULL with @error unset when the bytes do not parse. */
static Ovi__Dumpdata__DumpData *
unpack_whole_file (OviDumpHeader *self, int fd, GError **error)
{
  g_autofree guint8 *bytes = g_try_malloc (MAX (self->file_size, 1));

  if (bytes == NULL)
    {
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO, _ ("cannot read: %s"),
                   g_strerror (ENOMEM));
      return NULL;
    }
  if (!ovi_dump_header_read_at (fd, bytes, self->file_size, 0, error))
    return NULL;
  return ovi__dumpdata__dump_data__unpack (NULL, self->file_size, bytes);
}

static gboolean
load_old_layout (OviDumpHeader *self, int fd, GError **error)
{
  Ovi__Dumpdata__DumpData *msg;
  gboolean ok;

  if (!(msg = unpack_whole_file (self, fd, error)))
    {
      if (error && *error == NULL)
        g_set_error_literal (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_BAD_MESSAGE,
                             _ ("the file does not parse as a dump message"));
      return FALSE;
    }
  if (message_is_empty (msg))
    {
      ovi__dumpdata__dump_data__free_unpacked (msg, NULL);
      g_set_error_literal (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_EMPTY_MESSAGE,
                           _ ("the file parses as a dump message that holds no version, no op "
                              "name and no tensor"));
      return FALSE;
    }
  self->layout = OVI_LAYOUT_OLD;
  take_message (self, msg);
  ok = build_tensors (self, msg, 0, error);
  ovi__dumpdata__dump_data__free_unpacked (msg, NULL);
  return ok;
}

/* A nano (TLV) dump is recognised by its magic, but only its first 16
 * bytes are documented (dump-format.md section 3): reading its tensors
 * needs the facts the message names, so none is guessed. */
static void
set_nano_error (GError **error, const guint8 *head, gsize head_length)
{
  g_autofree char *version = NULL;
  guint32 v;

  if (head_length >= 16)
    {
      memcpy (&v, head + 12, 4);
      version = g_strdup_printf (_ ("version %u"), GUINT32_FROM_LE (v));
    }
  else
    version = g_strdup (_ ("its version cut off"));
  g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_NANO,
               /* Translators: %s is "version 1" or "its version cut off". */
               _ ("this is a nano (TLV) dump (%s); its tensors cannot be read because the format "
                  "notes do not document the layout of a TLV entry (the size and order of its "
                  "type and length fields) nor the fields of the input (type 4) and output "
                  "(type 5) descriptions (where data_type, format, shape and size are stored)"),
               version);
}

/**
 * ovi_dump_header_read:
 * @self: a header set to zero, whose @file_size and @named_as_dump are set
 * @fd: the file, open for reading
 *
 * Reads the header of a dump file in either layout (dump-format.md section
 * 2) and checks every tensor's size against its shape and data type.
 *
 * Returns: %FALSE with @error naming what is wrong
 */
gboolean
ovi_dump_header_read (OviDumpHeader *self, int fd, GError **error)
{
  guint8 head[4096];
  gsize head_length = MIN (self->file_size, sizeof head);
  guint64 header_length;
  g_autoptr (GError) new_error = NULL;
  g_autoptr (GError) old_error = NULL;

  if (self->infos == NULL)
    self->infos = g_array_new (FALSE, FALSE, sizeof (OviTensorInfo));
  if (self->dims == NULL)
    self->dims = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (self->file_size <= 8)
    {
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_TRUNCATED,
                   _ ("truncated: %" PRIu64 " bytes, a dump file holds more than its "
                      "8-byte header length"),
                   self->file_size);
      return FALSE;
    }
  if (!ovi_dump_header_read_at (fd, head, head_length, 0, error))
    return FALSE;

  if (self->file_size >= 12 && GUINT32_FROM_LE (*(guint32 *) (head + 8)) == 0x5A5A5A5Au)
    {
      set_nano_error (error, head, head_length);
      return FALSE;
    }

  memcpy (&header_length, head, 8);
  header_length = GUINT64_FROM_LE (header_length);
  if (header_length <= self->file_size - 8)
    {
      if (load_new_layout (self, fd, head, head_length, header_length, &new_error))
        {
          /* A small file was read whole by that one read: its data need not
           * be read again. */
          if (self->file_size <= self->keep_at_most && head_length == self->file_size)
            self->whole = g_bytes_new (head, head_length);
          return TRUE;
        }
      /* A header that parsed is this layout's verdict; only an unparsable one
       * may still be an old-layout file. */
      if (!g_error_matches (new_error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_BAD_MESSAGE) &&
          !g_error_matches (new_error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_EMPTY_MESSAGE))
        {
          g_propagate_error (error, g_steal_pointer (&new_error));
          return FALSE;
        }
      g_array_set_size (self->infos, 0);
      g_array_set_size (self->dims, 0);
    }

  if (load_old_layout (self, fd, &old_error))
    return TRUE;
  g_array_set_size (self->infos, 0);
  g_array_set_size (self->dims, 0);

  /* An old-layout message that parsed but is wrong says what is wrong;
   * otherwise the new layout's complaint is the one to report. */
  if (!g_error_matches (old_error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_BAD_MESSAGE) &&
      !(new_error &&
        g_error_matches (old_error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_EMPTY_MESSAGE)))
    g_propagate_error (error, g_steal_pointer (&old_error));
  else if (new_error)
    g_propagate_error (error, g_steal_pointer (&new_error));
  else if (!self->named_as_dump)
    /* A file opened on its own whatever its name (a text file, a log...):
     * an impossible header length, no dump message and no dump name say
     * it is something else, not a damaged dump. */
    g_set_error_literal (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_NOT_A_DUMP,
                         _ ("not a dump file: its name does not follow the dump file naming "
                            "(op_type.op_name.task_id.stream_id.timestamp) and its content is "
                            "neither a dump header nor a dump message"));
  else
    g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_HEADER_TOO_LONG,
                 _ ("header length %" PRIu64 " is larger than the file (%" PRIu64
                    " bytes), and the file is not an old-layout dump message either"),
                 header_length, self->file_size);
  return FALSE;
}

/**
 * ovi_dump_header_clear:
 *
 * Frees what the header holds; it can be read again.
 */
void
ovi_dump_header_clear (OviDumpHeader *self)
{
  if (self->version != version_2)
    g_free (self->version);
  self->version = NULL;
  g_clear_pointer (&self->op_name, g_free);
  g_clear_pointer (&self->dfx_message, g_free);
  g_clear_pointer (&self->attrs, g_strfreev);
  g_clear_pointer (&self->infos, g_array_unref);
  g_clear_pointer (&self->dims, g_array_unref);
  g_clear_pointer (&self->whole, g_bytes_unref);
}

/**
 * ovi_dump_header_copy_version:
 *
 * Returns: (transfer full): @version, shared when it is the "2.0" nearly
 *   every file says; free it with ovi_dump_header_free_version()
 */
char *
ovi_dump_header_copy_version (const char *version)
{
  return g_strcmp0 (version, version_2) == 0 ? (char *) version_2 : g_strdup (version);
}

void
ovi_dump_header_free_version (char *version)
{
  if (version != version_2)
    g_free (version);
}

/**
 * ovi_dump_header_inline_data:
 * @file: the whole of an old-layout dump file
 * @parsed: (out): whether @file parses as a dump message
 *
 * Returns: (transfer full) (nullable): the bytes of the tensor @kind
 *   @index stored inside the message, or %NULL when it has none
 */
GBytes *
ovi_dump_header_inline_data (
    const guint8 *file, gsize length, OviTensorKind kind, guint index, gboolean *parsed)
{
  Ovi__Dumpdata__DumpData *msg = ovi__dumpdata__dump_data__unpack (NULL, length, file);
  g_autoptr (GArray) descs = NULL;
  GBytes *bytes = NULL;

  *parsed = msg != NULL;
  if (msg == NULL)
    return NULL;
  descs = collect_tensors (msg);
  for (guint i = 0; i < descs->len; i++)
    {
      const TensorDesc *d = &g_array_index (descs, TensorDesc, i);
      if (d->kind == kind && d->index == index)
        bytes = g_bytes_new (d->data.data, d->data.len);
    }
  ovi__dumpdata__dump_data__free_unpacked (msg, NULL);
  return bytes;
}
