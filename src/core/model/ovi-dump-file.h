/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-blame.h"
#include "ovi-dump-header.h"
#include "ovi-file-name.h"
#include "ovi-op-summary.h"
#include "ovi-tensor.h"

G_BEGIN_DECLS

#define OVI_TYPE_DUMP_FILE (ovi_dump_file_get_type ())
G_DECLARE_FINAL_TYPE (OviDumpFile, ovi_dump_file, OVI, DUMP_FILE, GObject)

OviDumpFile *ovi_dump_file_load (const char *path, const char *name, GError **error);
const char *ovi_dump_file_get_path (OviDumpFile *self);
const char *ovi_dump_file_get_name (OviDumpFile *self);
const char *ovi_dump_file_get_relative_path (OviDumpFile *self);
const char *ovi_dump_file_get_relative_dir (OviDumpFile *self);
void ovi_dump_file_set_root (OviDumpFile *self, guint root, guint prefix);
guint ovi_dump_file_get_root (OviDumpFile *self);
char *ovi_dump_file_dup_root_name (OviDumpFile *self);
const char *ovi_dump_file_get_path_in_root (OviDumpFile *self);
const char *ovi_dump_file_get_dir_in_root (OviDumpFile *self);
const OviFileName *ovi_dump_file_get_file_name (OviDumpFile *self);
OviFileKind ovi_dump_file_get_kind (OviDumpFile *self);
OviLayout ovi_dump_file_get_layout (OviDumpFile *self);
const char *ovi_dump_file_get_op_type (OviDumpFile *self);
const char *ovi_dump_file_get_op_name (OviDumpFile *self);
const char *ovi_dump_file_get_version (OviDumpFile *self);
guint64 ovi_dump_file_get_dump_time (OviDumpFile *self);
const char *ovi_dump_file_get_dfx_message (OviDumpFile *self);
guint ovi_dump_file_get_n_attrs (OviDumpFile *self);
void ovi_dump_file_get_attr (OviDumpFile *self, guint index, const char **name, const char **value);
GStrv ovi_dump_file_dup_attrs_text (OviDumpFile *self);
guint64 ovi_dump_file_get_task_id (OviDumpFile *self);
guint64 ovi_dump_file_get_stream_id (OviDumpFile *self);
guint64 ovi_dump_file_get_timestamp (OviDumpFile *self);
guint64 ovi_dump_file_get_file_size (OviDumpFile *self);
GPtrArray *ovi_dump_file_get_tensors (OviDumpFile *self);
OviBlame ovi_dump_file_get_blame (OviDumpFile *self);
const OviOpSummary *ovi_dump_file_get_summary (OviDumpFile *self);
guint ovi_dump_file_count_tensors (OviDumpFile *self, OviTensorKind kind);
const char *ovi_dump_file_get_time (OviDumpFile *self);
const char *ovi_dump_file_get_device (OviDumpFile *self);
const char *ovi_dump_file_get_model (OviDumpFile *self);
const char *ovi_dump_file_get_iteration (OviDumpFile *self);
gboolean ovi_dump_file_get_statistics_only (OviDumpFile *self);
GPtrArray *ovi_dump_file_get_slices (OviDumpFile *self);
gboolean ovi_dump_file_get_is_slice (OviDumpFile *self);
void ovi_dump_file_set_location (OviDumpFile *self, const char *relative_path);
GBytes *ovi_dump_file_map_range (OviDumpFile *self, guint64 offset, guint64 size, GError **error);
GBytes *
ovi_dump_file_load_inline_data (OviDumpFile *self, OviTensorKind kind, guint index, GError **error);

G_END_DECLS
