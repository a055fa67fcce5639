/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-batch.h"

OviBatch *
ovi_batch_new (OviBatchKind kind)
{
  OviBatch *batch = g_new0 (OviBatch, 1);

  batch->kind = kind;
  batch->files = g_ptr_array_new_with_free_func (g_object_unref);
  batch->records = g_ptr_array_new_with_free_func (g_object_unref);
  batch->problems = g_ptr_array_new_with_free_func (g_object_unref);
  return batch;
}

/* Takes the first @n_files files of @batch into a batch of the same kind;
 * @batch keeps the rest, and its records and problems, which come with its
 * last files. */
OviBatch *
ovi_batch_split (OviBatch *batch, guint n_files)
{
  OviBatch *first = ovi_batch_new (batch->kind);

  g_assert (n_files < batch->files->len);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (first->files, g_object_ref (g_ptr_array_index (batch->files, i)));
  g_ptr_array_remove_range (batch->files, 0, n_files);
  first->indexed = batch->indexed;
  return first;
}

void
ovi_batch_free (OviBatch *batch)
{
  g_ptr_array_unref (batch->files);
  g_ptr_array_unref (batch->records);
  g_ptr_array_unref (batch->problems);
  g_clear_error (&batch->error);
  g_free (batch);
}
