/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-diff-metrics.h"
#include "ovi-dtype.h"
#include "ovi-dump-folder.h"
#include "ovi-graph.h"
#include "ovi-types.h"

G_BEGIN_DECLS

/* The diff of two runs: MY run against a GOLDEN one, operator by operator,
 * and the first operator where they start to differ. One async entry point
 * (ovi_diff_run_async(), on the worker pool), one result object a page can
 * bind to (OviDiffResult: properties, and a GListModel of OviDiffOperator in
 * run order), cancellation through a GCancellable. */

/* What an operator is, in the order of the README's list. */
typedef enum
{
  OVI_DIFF_OP_IDENTICAL,        /* every tensor equal, bit for bit after widening */
  OVI_DIFF_OP_WITHIN_TOLERANCE, /* every tensor within tolerance */
  OVI_DIFF_OP_ORIGIN,           /* inputs agree, an output does not */
  OVI_DIFF_OP_PROPAGATED,       /* inputs differ, outputs differ */
  OVI_DIFF_OP_ABSORBED,         /* inputs differ, outputs agree */
  OVI_DIFF_OP_ONLY_MINE,        /* no partner in the golden run */
  OVI_DIFF_OP_ONLY_GOLDEN,      /* no partner in my run */
  OVI_DIFF_OP_NOT_COMPARABLE,   /* see ovi_diff_operator_get_reason() */
  OVI_DIFF_OP_OUTPUT_DIFFERS,   /* an output differs, the inputs were not compared
                                   (a golden run of outputs only) */
} OviDiffOpClass;

/* What a diff says in one word; the command line's exit status. */
typedef enum
{
  OVI_DIFF_VERDICT_AGREE,      /* exit 0: every operator identical or within tolerance */
  OVI_DIFF_VERDICT_DIVERGE,    /* exit 5: an operator differs or is in one run only */
  OVI_DIFF_VERDICT_INCOMPLETE, /* exit 1: a file failed, or nothing differs but an
                                  operator could not be compared */
} OviDiffVerdict;

/* How the runs start to differ at the first divergence. */
typedef enum
{
  OVI_DIFF_DIVERGENCE_NONE,
  OVI_DIFF_DIVERGENCE_ORIGIN,  /* its inputs agree, an output does not */
  OVI_DIFF_DIVERGENCE_ENTERED, /* input k already differs, and no operator dumped before it
                                  (upstream of it) produced a differing output: the difference
                                  came from outside the dump */
  OVI_DIFF_DIVERGENCE_INPUTS_NOT_COMPARED, /* an output differs; the golden run kept no inputs */
} OviDiffDivergenceForm;

/* What one tensor pair is. */
typedef enum
{
  OVI_DIFF_TENSOR_IDENTICAL,
  OVI_DIFF_TENSOR_WITHIN_TOLERANCE,
  OVI_DIFF_TENSOR_DIFFERS,
  OVI_DIFF_TENSOR_NOT_COMPARABLE,
} OviDiffTensorClass;

/* One element among the largest differences. */
typedef struct
{
  guint64 index; /* flat index of the logical shape */
  double mine;
  double golden;
  double difference; /* |mine - golden|; +Inf where the non-finite values differ */
} OviDiffElement;

/* One tensor pair: read only, owned by its OviDiffOperator. */
typedef struct
{
  OviTensorKind kind;
  guint index;
  OviDtype mine_dtype;
  OviDtype golden_dtype;
  char *mine_shape;   /* "[2, 3]", logical */
  char *golden_shape; /* "[2, 3]" */
  OviDiffTensorClass tensor_class;
  char *reason; /* why not comparable, translated; NULL otherwise */
  double rtol, atol;
  guint64 count; /* elements compared */
  guint64
      out_of_tolerance; /* elements outside atol + rtol·|golden|, non-finite mismatches included */
  guint64 nonfinite_mismatch; /* positions where NaN / ±Inf do not match */
  gint64 first_difference;    /* flat logical index of the first element out of tolerance, or -1 */
  double first_mine, first_golden; /* the values there */
  char *first_position;            /* "3 (0, 0, 0, 3)", or NULL */
  OviDiffMetrics metrics;          /* over the positions finite on both sides */
  GArray *top;                     /* OviDiffElement, largest difference first */
  /* Compared by statistics: a side is a statistics-mode dump. Then count
   * and out_of_tolerance count statistics, not elements, and the metrics
   * are NaN (there are no values to compute them from). */
  gboolean statistics;
  OviDiffStatistics stats;
} OviDiffTensor;

#define OVI_TYPE_DIFF_OPERATOR (ovi_diff_operator_get_type ())
G_DECLARE_FINAL_TYPE (OviDiffOperator, ovi_diff_operator, OVI, DIFF_OPERATOR, GObject)

guint ovi_diff_operator_get_position (OviDiffOperator *self);
const char *ovi_diff_operator_get_name (OviDiffOperator *self);
const char *ovi_diff_operator_get_golden_name (OviDiffOperator *self);
const char *ovi_diff_operator_get_op_type (OviDiffOperator *self);
const char *ovi_diff_operator_get_mine_path (OviDiffOperator *self);
const char *ovi_diff_operator_get_golden_path (OviDiffOperator *self);
const char *ovi_diff_operator_get_pair (OviDiffOperator *self);
OviDiffOpClass ovi_diff_operator_get_op_class (OviDiffOperator *self);
const char *ovi_diff_operator_get_reason (OviDiffOperator *self);
guint ovi_diff_operator_get_n_tensors (OviDiffOperator *self);
const OviDiffTensor *ovi_diff_operator_get_tensor (OviDiffOperator *self, guint index);
const OviDiffTensor *ovi_diff_operator_get_worst_tensor (OviDiffOperator *self);
double ovi_diff_operator_get_cosine (OviDiffOperator *self);
double ovi_diff_operator_get_max_abs_error (OviDiffOperator *self);
guint ovi_diff_operator_get_mine_overflows (OviDiffOperator *self);
guint ovi_diff_operator_get_golden_overflows (OviDiffOperator *self);
const char *ovi_diff_operator_get_device (OviDiffOperator *self);
gboolean ovi_diff_operator_get_is_first_divergence (OviDiffOperator *self);
gboolean ovi_diff_operator_get_statistics (OviDiffOperator *self);
const char *ovi_diff_operator_get_class_label (OviDiffOperator *self);
OviDiffDivergenceForm ovi_diff_operator_get_start (OviDiffOperator *self);
const char *ovi_diff_operator_get_entered_through (OviDiffOperator *self, OviGraphNodeKind *kind);
/* The most starts an operator lists as those it follows from. */
#define OVI_DIFF_FOLLOWS_MAX 16
GPtrArray *ovi_diff_operator_get_follows (OviDiffOperator *self, gboolean *more);

/* Two folders (or files) paired, one per side. */
typedef struct
{
  char *mine;   /* path, or NULL: a golden folder without partner */
  char *golden; /* path, or NULL: a folder of mine without partner */
  char *label;  /* "device 0 / model 1 / iteration 3" */
} OviDiffFolderPair;

#define OVI_TYPE_DIFF_RESULT (ovi_diff_result_get_type ())
G_DECLARE_FINAL_TYPE (OviDiffResult, ovi_diff_result, OVI, DIFF_RESULT, GObject)

GListModel *ovi_diff_result_get_operators (OviDiffResult *self);
OviDiffOperator *ovi_diff_result_get_first_divergence (OviDiffResult *self);
const OviDiffTensor *ovi_diff_result_get_first_divergence_tensor (OviDiffResult *self);
GListModel *ovi_diff_result_get_problems (OviDiffResult *self);
const OviDiffFolderPair *ovi_diff_result_get_folder_pairs (OviDiffResult *self, guint *n_pairs);
guint ovi_diff_result_count_class (OviDiffResult *self, OviDiffOpClass op_class);
gboolean ovi_diff_result_get_agree (OviDiffResult *self);
const char *ovi_diff_result_get_mine_path (OviDiffResult *self);
const char *ovi_diff_result_get_golden_path (OviDiffResult *self);
gboolean ovi_diff_result_get_is_npy (OviDiffResult *self, gboolean golden);
OviDiffVerdict ovi_diff_result_get_verdict (OviDiffResult *self);
char *ovi_diff_result_dup_headline (OviDiffResult *self);
OviDiffDivergenceForm ovi_diff_result_get_first_divergence_form (OviDiffResult *self);
guint ovi_diff_result_get_first_divergence_input (OviDiffResult *self);
gboolean ovi_diff_result_get_along_edges (OviDiffResult *self);
GPtrArray *ovi_diff_result_get_warnings (OviDiffResult *self);

#define OVI_TYPE_DIFF (ovi_diff_get_type ())
G_DECLARE_FINAL_TYPE (OviDiff, ovi_diff, OVI, DIFF, GObject)

OviDiff *ovi_diff_new (const char *mine, const char *golden);
void ovi_diff_set_tolerance (OviDiff *self, double rtol, double atol);
gboolean ovi_diff_set_mapping_file (OviDiff *self, const char *path, GError **error);
gboolean ovi_diff_add_mapping (OviDiff *self,
                               const char *mine_name,
                               const char *golden_name,
                               GError **error);
void ovi_diff_set_top_n (OviDiff *self, guint top_n);
void ovi_diff_set_mine_folder (OviDiff *self, OviDumpFolder *folder);
void ovi_diff_set_keep_sources (OviDiff *self, gboolean keep);
void ovi_diff_run_async (OviDiff *self,
                         GCancellable *cancellable,
                         GAsyncReadyCallback callback,
                         gpointer user_data);
OviDiffResult *ovi_diff_run_finish (OviDiff *self, GAsyncResult *result, GError **error);
OviDiffResult *ovi_diff_run (OviDiff *self, GCancellable *cancellable, GError **error);
gboolean ovi_diff_check_output (OviDiff *self, const char *output, GError **error);

const char *ovi_diff_op_class_name (OviDiffOpClass op_class);
const char *ovi_diff_op_class_label (OviDiffOpClass op_class);
const char *ovi_diff_tensor_class_name (OviDiffTensorClass tensor_class);
const char *ovi_diff_divergence_form_name (OviDiffDivergenceForm form);

G_END_DECLS
