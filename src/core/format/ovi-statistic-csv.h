/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-dtype.h"
#include "ovi-stats.h"
#include "ovi-types.h"

G_BEGIN_DECLS

/* Statistics-mode dumps (dump-format.md section 6): per-operator
 * "{op dump name}.csv" files and the per-folder "statistic.csv". */

#define OVI_STATISTIC_ERROR (ovi_statistic_error_quark ())

typedef enum
{
  OVI_STATISTIC_ERROR_NO_HEADER,
  OVI_STATISTIC_ERROR_MISSING_COLUMN,
  OVI_STATISTIC_ERROR_BAD_VALUE,
  OVI_STATISTIC_ERROR_TOO_MANY,
  OVI_STATISTIC_ERROR_NO_VALUES,
} OviStatisticError;

/* Which statistics a row carried: writers leave cells empty or omit
 * columns, and a missing count is not a count of zero. */
typedef enum
{
  OVI_STATISTIC_MAX = 1 << 0,
  OVI_STATISTIC_MIN = 1 << 1,
  OVI_STATISTIC_MEAN = 1 << 2,
  OVI_STATISTIC_COUNT = 1 << 3,
  OVI_STATISTIC_NAN = 1 << 4,
  OVI_STATISTIC_NEG_INF = 1 << 5,
  OVI_STATISTIC_POS_INF = 1 << 6,
  OVI_STATISTIC_ZEROS = 1 << 7,
  OVI_STATISTIC_NEG_ZEROS = 1 << 8,
  OVI_STATISTIC_POS_ZEROS = 1 << 9,
  OVI_STATISTIC_NORM = 1 << 10, /* msprobe's "L2Norm Value" */
} OviStatisticFields;

/* One tensor of a statistics file. */
typedef struct
{
  guint line;      /* 1-based, in the file */
  gboolean has_op; /* the per-folder form names the operator */
  char *op_type;
  char *op_name;
  guint64 task_id;
  guint64 stream_id;
  guint64 timestamp;
  OviTensorKind kind;
  guint index;
  OviDtype dtype;
  OviFormat format;
  GArray *shape; /* guint64 */
  guint64 size;
  OviStats stats;
  guint64 neg_zeros;
  guint64 pos_zeros;
  OviStatisticFields fields;
  double norm; /* the L2 norm, NaN when not given */
  /* max, min, mean and L2 norm as written, non-finite values kept (stats
   * holds the finite ones only); NaN where not given (see fields) */
  double written[4];
} OviStatisticRow;

typedef struct
{
  GPtrArray *rows;   /* OviStatisticRow */
  GPtrArray *errors; /* GError, each message naming its line */
  GArray *lines;     /* guint: the line of each error */
} OviStatisticCsv;

GQuark ovi_statistic_error_quark (void);
OviStatisticCsv *ovi_statistic_csv_parse (const char *contents, gsize length);
void ovi_statistic_csv_free (OviStatisticCsv *csv);
void ovi_statistic_row_free (OviStatisticRow *row);
int ovi_statistic_parse_dtype (const char *text);
const char *ovi_statistic_why_no_values (void);
gboolean ovi_statistic_is_csv_name (const char *name, char **op_dump_name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviStatisticCsv, ovi_statistic_csv_free)

G_END_DECLS
