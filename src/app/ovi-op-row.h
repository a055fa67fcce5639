#pragma once

#include <gio/gio.h>

#include "ovi-core.h"

G_BEGIN_DECLS

/* Summary statistics over all input and output tensors of one op dump file. */
typedef struct
{
  double max_abs;
  guint64 nan;
  guint64 inf;
  guint64 saturated;
} OviOpStats;

/* One row of the operator table: an op dump file plus the statistics of its
 * tensors, which arrive later from a worker thread. */
#define OVI_TYPE_OP_ROW (ovi_op_row_get_type ())
G_DECLARE_FINAL_TYPE (OviOpRow, ovi_op_row, OVI, OP_ROW, GObject)

OviOpRow *ovi_op_row_new (OviDumpFile *file);
OviDumpFile *ovi_op_row_get_file (OviOpRow *self);
gboolean ovi_op_row_get_analyzed (OviOpRow *self);
gboolean ovi_op_row_get_abnormal (OviOpRow *self);
const OviOpStats *ovi_op_row_get_stats (OviOpRow *self);
void ovi_op_row_set_stats (OviOpRow *self, const OviOpStats *stats);
void ovi_op_stats_compute (OviDumpFile *file, GCancellable *cancellable, OviOpStats *stats);

G_END_DECLS
