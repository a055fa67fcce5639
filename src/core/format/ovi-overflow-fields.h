/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-unit.h"

G_BEGIN_DECLS

/* One overflow as the 2048-byte payload of an Opdebug file reports it
 * (dump-format.md section 4): which unit, which task, the status. */
typedef struct
{
  OviUnit unit;
  guint64 model_id, stream_id, task_id, task_type;
  guint64 context_id, thread_id;
  gboolean has_context;
  guint64 pc_start, para_base, kernel_code, block_idx;
  guint64 status[4];
  guint n_status;
  GPtrArray *extra; /* "name=value" of the fields only some units have */
} OviOverflowFields;

GPtrArray *ovi_overflow_fields_decode (const guint8 *payload, gsize length, GError **error);
char *ovi_overflow_fields_vendor_json (const guint8 *payload, gsize length, GError **error);
guint64 ovi_overflow_fields_get_flags_mask (const OviOverflowFields *self);
void ovi_overflow_fields_free (OviOverflowFields *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviOverflowFields, ovi_overflow_fields_free)

G_END_DECLS
