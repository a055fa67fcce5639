/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"

G_BEGIN_DECLS

#define OVI_TYPE_HISTOGRAM_VIEW (ovi_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (OviHistogramView, ovi_histogram_view, OVI, HISTOGRAM_VIEW, GtkWidget)

GtkWidget *ovi_histogram_view_new (void);
void ovi_histogram_view_clear (OviHistogramView *self);
void
ovi_histogram_view_add_series (OviHistogramView *self, const char *label, OviHistogram *histogram);
void ovi_histogram_view_add_series_full (OviHistogramView *self,
                                         const char *label,
                                         const OviHistogram *histogram,
                                         gpointer owner,
                                         GDestroyNotify owner_free);
guint ovi_histogram_view_get_n_series (OviHistogramView *self);
gboolean ovi_histogram_view_get_log_counts (OviHistogramView *self);
void ovi_histogram_view_set_log_counts (OviHistogramView *self, gboolean log_counts);
gboolean ovi_histogram_view_get_stacked (OviHistogramView *self);
void ovi_histogram_view_set_stacked (OviHistogramView *self, gboolean stacked);
/* A label of the plot and where it is drawn, in the widget's coordinates;
 * @slot is the special bin it names (under the axis) or counts (above its
 * mark, @is_count), or -1. */
typedef struct
{
  char *text;
  graphene_rect_t rect;
  int slot;
  gboolean is_count;
} OviAxisLabel;

GPtrArray *ovi_histogram_view_get_axis_labels (OviHistogramView *self);
char *ovi_histogram_view_dup_text_at (OviHistogramView *self, double x, double y);

G_END_DECLS
