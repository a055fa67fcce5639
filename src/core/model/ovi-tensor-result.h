/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-tensor.h"

G_BEGIN_DECLS

/* A tensor analysed for a view: its statistics and its histogram
 * (ovi_tensor_analyze_async()). */

OviTensorResult *ovi_tensor_result_new (guint n_bins, OviHistogramScale scale);
void ovi_tensor_result_set_stored (OviTensorResult *result, gboolean stored);
gboolean ovi_tensor_result_fill (OviTensorResult *result,
                                 OviTensor *tensor,
                                 GCancellable *cancellable,
                                 GError **error);
OviTensorResult *ovi_tensor_result_ref (OviTensorResult *result);
void ovi_tensor_result_unref (OviTensorResult *result);
OviAnalysis *ovi_tensor_result_get_analysis (OviTensorResult *result);
OviHistogram *ovi_tensor_result_get_histogram (OviTensorResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviTensorResult, ovi_tensor_result_unref)

G_END_DECLS
