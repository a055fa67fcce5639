#pragma once

#include "ovi-dump-file.h"

G_BEGIN_DECLS

/* Which operator to blame: an operator whose outputs hold NaN, Inf or
 * saturated values while its inputs are clean produced the overflow. */
typedef enum
{
  OVI_BLAME_UNKNOWN,    /* not analysed, or its data could not be read */
  OVI_BLAME_NORMAL,     /* inputs and outputs clean */
  OVI_BLAME_ORIGIN,     /* inputs clean, outputs abnormal */
  OVI_BLAME_PROPAGATED, /* inputs abnormal, outputs abnormal */
  OVI_BLAME_ABSORBED,   /* inputs abnormal, outputs clean */
} OviBlame;

const char *ovi_blame_name (OviBlame blame);
const char *ovi_blame_label (OviBlame blame);
const char *ovi_blame_describe (OviBlame blame);
guint ovi_blame_rank (OviBlame blame);
gboolean ovi_stats_is_abnormal (const OviStats *stats);
OviBlame ovi_dump_file_classify (OviDumpFile *file);
OviBlame ovi_dump_file_peek_blame (OviDumpFile *file);

/* An operator at a glance: its class, and over all its input and output
 * tensors the largest magnitude and the counts of abnormal values. */
typedef struct
{
  OviBlame blame;
  double max_abs; /* NaN when no value is finite */
  guint64 nan;
  guint64 inf;
  guint64 saturated;
} OviOpSummary;

gboolean ovi_dump_file_summarize (OviDumpFile *file, GCancellable *cancellable);
const OviOpSummary *ovi_dump_file_get_summary (OviDumpFile *file);
gboolean ovi_op_summary_is_abnormal (const OviOpSummary *summary);
int ovi_dump_file_first_abnormal_tensor (OviDumpFile *file);

/* False positives: operators to leave out of "first overflow" and of the
 * origins, matched by type or name with glob patterns. */
typedef struct _OviIgnoreList OviIgnoreList;

OviIgnoreList *ovi_ignore_list_new (const char *const *patterns);
OviIgnoreList *ovi_ignore_list_load (const char *path, GError **error);
OviIgnoreList *ovi_ignore_list_ref (OviIgnoreList *self);
void ovi_ignore_list_unref (OviIgnoreList *self);
gboolean ovi_ignore_list_matches (OviIgnoreList *self, const char *op_type, const char *op_name);
guint ovi_ignore_list_get_size (OviIgnoreList *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviIgnoreList, ovi_ignore_list_unref)

G_END_DECLS
