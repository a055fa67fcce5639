/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-diff.h"
#include "ovi-histogram.h"

G_BEGIN_DECLS

/* What the Diff page's pair view draws for one tensor pair of a compared
 * operator: both sides read again as the diff read them, then both sides' histograms over one set
 * of bins, a histogram of the differences (mine − golden) and a strip of where along the flat
 * logical index the elements out of tolerance are. Computed on the worker
 * pool; the page only draws it. */

#define OVI_DIFF_PAIR_ERROR (ovi_diff_pair_error_quark ())
GQuark ovi_diff_pair_error_quark (void);

typedef enum
{
  OVI_DIFF_PAIR_ERROR_NO_TENSOR,      /* one side has no such tensor */
  OVI_DIFF_PAIR_ERROR_UNSUPPORTED,    /* its values cannot be read (the reason says why) */
  OVI_DIFF_PAIR_ERROR_NOT_COMPARABLE, /* the sides hold different numbers of elements */
} OviDiffPairError;

/* One side's tensor, as read. */
typedef struct
{
  char *path;     /* the dump file, or the .npy file read */
  guint position; /* the tensor's place among the dump file's tensors; G_MAXUINT for .npy */
  OviDtype dtype;
  char *shape; /* "[2, 3]", logical */
  guint64 count;
  guint64 nan, neg_inf, pos_inf;
  double min, max, mean; /* over the finite values; NaN when there is none */
} OviDiffPairSide;

typedef struct
{
  OviTensorKind kind;
  guint index;
  double rtol, atol;
  OviDiffPairSide mine, golden;
  OviHistogram *mine_histogram; /* the same edges as golden_histogram */
  OviHistogram *golden_histogram;
  OviHistogram *difference; /* mine − golden where the sides do not agree by position */
  guint64 count;            /* elements compared */
  guint64 out_of_tolerance; /* non-finite mismatches included */
  guint n_strip;
  guint64 *strip;       /* out-of-tolerance elements per bin of the flat index */
  guint64 *strip_start; /* n_strip + 1: the first flat index of each bin, then count */
} OviDiffPair;

void ovi_diff_pair_free (OviDiffPair *pair);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviDiffPair, ovi_diff_pair_free)

OviDiffPair *ovi_diff_pair_compute (OviDiffOperator *op,
                                    guint tensor,
                                    guint n_bins,
                                    guint n_strip,
                                    GCancellable *cancellable,
                                    GError **error);

void ovi_diff_pair_compute_async (OviDiffOperator *op,
                                  guint tensor,
                                  guint n_bins,
                                  guint n_strip,
                                  GCancellable *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer user_data);
OviDiffPair *ovi_diff_pair_compute_finish (GAsyncResult *result, GError **error);

G_END_DECLS
