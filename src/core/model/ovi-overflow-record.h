/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-dump-file.h"
#include "ovi-overflow-fields.h"
#include "ovi-status.h"

G_BEGIN_DECLS

/* Where a record comes from: an Opdebug file, or the data of a folder that
 * has none (Ascend 950 / Atlas 350 in Inf/NaN mode, saturation mode). */
typedef enum
{
  OVI_RECORD_SOURCE_OVERFLOW_FILE,
  OVI_RECORD_SOURCE_DATA,
} OviRecordSource;

/* The status of a record found in the data, untranslated (for JSON; pass
 * it through gettext for people). */
#define OVI_FOUND_IN_DATA                                                                          \
  N_ ("Found in the data: finite inputs, outputs with NaN, Inf or saturated values")

#define OVI_TYPE_OVERFLOW_RECORD (ovi_overflow_record_get_type ())
G_DECLARE_FINAL_TYPE (OviOverflowRecord, ovi_overflow_record, OVI, OVERFLOW_RECORD, GObject)

GPtrArray *ovi_overflow_record_decode_file (OviDumpFile *file, GError **error);
GPtrArray *ovi_overflow_record_decode (const guint8 *payload, gsize length, GError **error);

OviOverflowRecord *ovi_overflow_record_new_from_data (OviDumpFile *op);
OviRecordSource ovi_overflow_record_get_source (OviOverflowRecord *self);
const char *ovi_record_source_name (OviRecordSource source);
OviUnit ovi_overflow_record_get_unit (OviOverflowRecord *self);
const char *ovi_overflow_record_get_unit_name (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_model_id (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_stream_id (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_task_id (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_task_type (OviOverflowRecord *self);
gboolean ovi_overflow_record_has_context (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_context_id (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_thread_id (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_pc_start (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_para_base (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_kernel_code (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_block_idx (OviOverflowRecord *self);
guint64 ovi_overflow_record_get_status (OviOverflowRecord *self);
const guint64 *ovi_overflow_record_get_status_words (OviOverflowRecord *self, guint *n_words);
guint64 ovi_overflow_record_get_flags_mask (OviOverflowRecord *self);
char *ovi_overflow_record_dup_status_hex (OviOverflowRecord *self);
char *ovi_overflow_record_dup_status_summary (OviOverflowRecord *self);
GPtrArray *ovi_overflow_record_dup_extra_fields (OviOverflowRecord *self);
OviDumpFile *ovi_overflow_record_get_file (OviOverflowRecord *self);
OviDumpFile *ovi_overflow_record_get_op (OviOverflowRecord *self);
void ovi_overflow_record_set_file (OviOverflowRecord *self, OviDumpFile *file);
void ovi_overflow_record_set_op (OviOverflowRecord *self, OviDumpFile *op);
guint ovi_overflow_record_get_position (OviOverflowRecord *self);
void ovi_overflow_record_set_position (OviOverflowRecord *self, guint position);
gboolean ovi_overflow_record_get_is_first (OviOverflowRecord *self);
gboolean ovi_overflow_record_get_ignored (OviOverflowRecord *self);
void ovi_overflow_record_set_marks (OviOverflowRecord *self, gboolean ignored, gboolean first);
gboolean ovi_overflow_record_get_gap (OviOverflowRecord *self, gint64 *gap);
void ovi_overflow_record_set_previous (OviOverflowRecord *self, OviOverflowRecord *previous);
int ovi_overflow_record_compare (OviOverflowRecord *a, OviOverflowRecord *b);
OviDumpFile *ovi_overflow_match_op (OviOverflowRecord *record, GPtrArray *op_files);

G_END_DECLS
