/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* What a scan hands over in one piece: the files, records and problems of
 * one folder, or where the load is (folder/ internal). */
typedef enum
{
  OVI_BATCH_FILES,     /* files, records and problems of one folder */
  OVI_BATCH_LISTED,    /* the listing is over: its outcome */
  OVI_BATCH_SUMMARIES, /* files whose summaries are made */
  OVI_BATCH_ANALYZED,  /* every summary is made */
  OVI_BATCH_PROGRESS,  /* nothing but how far the scan got */
} OviBatchKind;

typedef struct
{
  OviBatchKind kind;
  GPtrArray *files;
  GPtrArray *records;
  GPtrArray *problems;
  GError *error;    /* OVI_BATCH_LISTED, when the scan failed */
  gboolean indexed; /* its files are in dir_files already (a followed folder's) */
} OviBatch;

OviBatch *ovi_batch_new (OviBatchKind kind);
OviBatch *ovi_batch_split (OviBatch *batch, guint n_files);
void ovi_batch_free (OviBatch *batch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviBatch, ovi_batch_free)

G_END_DECLS
