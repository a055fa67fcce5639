/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"
#include "ovi-histogram-view.h"

G_BEGIN_DECLS

#define OVI_TYPE_TENSOR_VIEW (ovi_tensor_view_get_type ())
G_DECLARE_FINAL_TYPE (OviTensorView, ovi_tensor_view, OVI, TENSOR_VIEW, GtkWidget)

GtkWidget *ovi_tensor_view_new (void);
void ovi_tensor_view_set_file (OviTensorView *self, OviDumpFile *file);
OviDumpFile *ovi_tensor_view_get_file (OviTensorView *self);
void ovi_tensor_view_select_tensor (OviTensorView *self, guint position);
OviTensor *ovi_tensor_view_get_tensor (OviTensorView *self);
gboolean ovi_tensor_view_get_busy (OviTensorView *self);
OviHistogramView *ovi_tensor_view_get_histogram (OviTensorView *self);
void ovi_tensor_view_bind_settings (OviTensorView *self, GSettings *settings);

G_END_DECLS
