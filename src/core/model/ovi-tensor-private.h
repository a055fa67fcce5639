/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-statistic-csv.h"
#include "ovi-tensor.h"

G_BEGIN_DECLS

OviTensor *ovi_tensor_new (OviDumpFile *file,
                           OviTensorKind kind,
                           guint index,
                           OviDtype dtype,
                           OviFormat format,
                           const guint64 *shape,
                           guint n_dims,
                           const guint64 *original_shape,
                           guint n_original_dims,
                           guint64 size,
                           guint64 offset);

void ovi_tensor_forget_file (OviTensor *self);
void ovi_tensor_set_statistics (OviTensor *self, const OviStatisticRow *row);

void
ovi_tensor_set_schema_fields (OviTensor *self, guint arg_index, guint input_type, int space_type);
void ovi_tensor_set_address (OviTensor *self, guint64 address);

OviAnalysis *ovi_tensor_analyze_in (OviTensor *self, GBytes *contents, GError **error);
int ovi_tensor_open_data (OviTensor *self, guint64 *offset, GError **error);
gboolean ovi_tensor_get_data_offset (OviTensor *self, guint64 *offset);

G_END_DECLS
