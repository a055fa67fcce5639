/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-analysis.h"
#include "ovi-dtype.h"
#include "ovi-types.h"

G_BEGIN_DECLS

#define OVI_TYPE_TENSOR (ovi_tensor_get_type ())
G_DECLARE_FINAL_TYPE (OviTensor, ovi_tensor, OVI, TENSOR, GObject)

typedef struct _OviDumpFile OviDumpFile;

OviTensorKind ovi_tensor_get_kind (OviTensor *self);
const char *ovi_tensor_get_kind_name (OviTensor *self);
guint ovi_tensor_get_index (OviTensor *self);
OviDtype ovi_tensor_get_dtype (OviTensor *self);
OviFormat ovi_tensor_get_format (OviTensor *self);
const guint64 *ovi_tensor_get_shape (OviTensor *self, guint *n_dims);
const guint64 *ovi_tensor_get_original_shape (OviTensor *self, guint *n_dims);
char *ovi_tensor_dup_shape_string (OviTensor *self);
guint64 ovi_tensor_get_size (OviTensor *self);
guint64 ovi_tensor_get_count (OviTensor *self);
guint64 ovi_tensor_get_logical_count (OviTensor *self);
gboolean ovi_tensor_get_is_logical (OviTensor *self);
const char *ovi_tensor_get_layout_problem (OviTensor *self);
const guint64 *ovi_tensor_get_logical_shape (OviTensor *self, guint *n_dims);
char *ovi_tensor_dup_position (OviTensor *self, guint64 index);
char *ovi_tensor_dup_label (OviTensor *self);
guint ovi_tensor_get_arg_index (OviTensor *self);
guint64 ovi_tensor_get_address (OviTensor *self);
guint ovi_tensor_get_input_type (OviTensor *self);
int ovi_tensor_get_space_type (OviTensor *self);
char *ovi_tensor_dup_space_type_label (OviTensor *self);
OviDumpFile *ovi_tensor_get_file (OviTensor *self);
GBytes *ovi_tensor_load_data (OviTensor *self, GError **error);
OviAnalysis *ovi_tensor_analyze (OviTensor *self, GError **error);
OviAnalysis *ovi_tensor_analyze_stored (OviTensor *self, GError **error);
OviAnalysis *ovi_tensor_peek_analysis (OviTensor *self);
gboolean ovi_tensor_get_statistics_only (OviTensor *self);
guint ovi_tensor_get_known_statistics (OviTensor *self);
guint ovi_tensor_get_written_statistics (OviTensor *self, double values[4]);
gboolean ovi_tensor_get_signed_zeros (OviTensor *self, guint64 *negative, guint64 *positive);

typedef struct _OviTensorResult OviTensorResult;

void ovi_tensor_analyze_async (OviTensor *self,
                               guint n_bins,
                               OviHistogramScale scale,
                               GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer user_data);
void ovi_tensor_analyze_layout_async (OviTensor *self,
                                      gboolean stored,
                                      guint n_bins,
                                      OviHistogramScale scale,
                                      GCancellable *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer user_data);
OviTensorResult *ovi_tensor_analyze_finish (OviTensor *self, GAsyncResult *result, GError **error);

G_END_DECLS
