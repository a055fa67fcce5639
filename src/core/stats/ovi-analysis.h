/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ovi-dtype.h"
#include "ovi-histogram.h"
#include "ovi-layout.h"
#include "ovi-stats.h"

G_BEGIN_DECLS

typedef struct _OviAnalysis OviAnalysis;

OviAnalysis *ovi_analysis_new (OviDtype dtype, GBytes *data, GError **error);
OviAnalysis *
ovi_analysis_new_for_count (OviDtype dtype, GBytes *data, guint64 count, GError **error);
OviAnalysis *ovi_analysis_new_for_layout (
    OviDtype dtype, GBytes *data, guint64 count, const OviLayoutMap *map, GError **error);
OviAnalysis *ovi_analysis_ref (OviAnalysis *self);
void ovi_analysis_unref (OviAnalysis *self);
const OviStats *ovi_analysis_get_stats (OviAnalysis *self);
OviDtype ovi_analysis_get_dtype (OviAnalysis *self);
OviAnalysis *ovi_analysis_new_for_file (OviDtype dtype,
                                        const char *path,
                                        const char *name,
                                        guint64 offset,
                                        guint64 size,
                                        guint64 count,
                                        guint64 file_size,
                                        GBytes *contents,
                                        const OviLayoutMap *map,
                                        GError **error);
OviHistogram *
ovi_analysis_histogram (OviAnalysis *self, guint n_bins, OviHistogramScale scale, GError **error);
double ovi_analysis_value_at (OviAnalysis *self, guint64 index);
OviAnalysis *ovi_analysis_new_for_statistics (OviDtype dtype, const OviStats *stats);
gboolean ovi_analysis_has_values (OviAnalysis *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviAnalysis, ovi_analysis_unref)

G_END_DECLS
