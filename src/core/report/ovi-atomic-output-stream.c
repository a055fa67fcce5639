/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-atomic-output-stream.h"

struct _OviAtomicOutputStream
{
  GOutputStream parent_instance;

  OviAtomicFile *file; /* NULL once committed */
};

G_DEFINE_FINAL_TYPE (OviAtomicOutputStream, ovi_atomic_output_stream, G_TYPE_OUTPUT_STREAM)

static gssize
write_fn (GOutputStream *stream,
          const void *buffer,
          gsize count,
          GCancellable *cancellable,
          GError **error)
{
  OviAtomicOutputStream *self = OVI_ATOMIC_OUTPUT_STREAM (stream);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return -1;
  if (!ovi_atomic_file_write (self->file, buffer, count, error))
    return -1;
  return count;
}

/* Commits, unless cancelled: a stream closed with a cancelled cancellable
 * (how a writer that failed drops its output) leaves nothing. */
static gboolean
close_fn (GOutputStream *stream, GCancellable *cancellable, GError **error)
{
  OviAtomicOutputStream *self = OVI_ATOMIC_OUTPUT_STREAM (stream);
  g_autoptr (OviAtomicFile) file = g_steal_pointer (&self->file);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return ovi_atomic_file_commit (file, error);
}

static void
ovi_atomic_output_stream_finalize (GObject *object)
{
  OviAtomicOutputStream *self = OVI_ATOMIC_OUTPUT_STREAM (object);

  g_clear_pointer (&self->file, ovi_atomic_file_free);
  G_OBJECT_CLASS (ovi_atomic_output_stream_parent_class)->finalize (object);
}

static void
ovi_atomic_output_stream_class_init (OviAtomicOutputStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GOutputStreamClass *stream_class = G_OUTPUT_STREAM_CLASS (klass);

  object_class->finalize = ovi_atomic_output_stream_finalize;
  stream_class->write_fn = write_fn;
  stream_class->close_fn = close_fn;
}

static void
ovi_atomic_output_stream_init (OviAtomicOutputStream *self)
{
}

/**
 * ovi_atomic_output_stream_new:
 * @path: the destination
 * @overwrite: whether an existing @path is replaced
 *
 * Returns: (transfer full) (nullable): a stream whose close puts the whole
 *   file at @path in one step (ovi_atomic_file_commit()), or %NULL with
 *   @error set
 */
GOutputStream *
ovi_atomic_output_stream_new (const char *path, gboolean overwrite, GError **error)
{
  OviAtomicFile *file = ovi_atomic_file_new (path, overwrite, error);
  OviAtomicOutputStream *self;

  if (file == NULL)
    return NULL;
  self = g_object_new (OVI_TYPE_ATOMIC_OUTPUT_STREAM, NULL);
  self->file = file;
  return G_OUTPUT_STREAM (self);
}
