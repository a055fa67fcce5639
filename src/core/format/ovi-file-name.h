/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  OVI_FILE_KIND_NONE,
  OVI_FILE_KIND_OP_DUMP,
  OVI_FILE_KIND_OVERFLOW,
  OVI_FILE_KIND_EXCEPTION,
} OviFileKind;

/* The fields a dump file name carries (dump-format.md section 2). */
typedef struct
{
  OviFileKind kind;
  char *op_type;
  char *op_name;
  guint64 task_id;
  guint64 stream_id;
  guint64 timestamp;
  guint64 dump_number;
  guint64 context_id;
  guint64 thread_id;
  guint has_stream_id : 1;
  guint has_dump_number : 1;
  guint has_context : 1;
} OviFileName;

gboolean ovi_file_name_parse (const char *name, OviFileName *out);
void ovi_file_name_clear (OviFileName *name);
char *ovi_file_name_form (const char *name);

G_END_DECLS
