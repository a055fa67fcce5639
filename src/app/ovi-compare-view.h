#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"
#include "ovi-histogram-view.h"

G_BEGIN_DECLS

#define OVI_TYPE_COMPARE_VIEW (ovi_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (OviCompareView, ovi_compare_view, OVI, COMPARE_VIEW, GtkWidget)

GtkWidget *ovi_compare_view_new (void);
void ovi_compare_view_set_folder (OviCompareView *self, OviDumpFolder *folder);
gboolean ovi_compare_view_select_op (OviCompareView *self, const char *op_name);
const char *ovi_compare_view_get_op (OviCompareView *self);
gboolean ovi_compare_view_get_busy (OviCompareView *self);
guint ovi_compare_view_get_n_iterations (OviCompareView *self);
OviHistogramView *ovi_compare_view_get_histogram (OviCompareView *self);
void ovi_compare_view_bind_settings (OviCompareView *self, GSettings *settings);

G_END_DECLS
