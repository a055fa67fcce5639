/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-core.h"

G_BEGIN_DECLS

/* One rank's overflows across iterations, drawn over a span of iterations
 * the timeline page shares with every row. */
#define OVI_TYPE_TIMELINE_STRIP (ovi_timeline_strip_get_type ())
G_DECLARE_FINAL_TYPE (OviTimelineStrip, ovi_timeline_strip, OVI, TIMELINE_STRIP, GtkWidget)

GtkWidget *ovi_timeline_strip_new (void);
void ovi_timeline_strip_set_rank (OviTimelineStrip *self, OviRank *rank);
void ovi_timeline_strip_set_span (OviTimelineStrip *self, guint64 first, guint64 last);
char *ovi_timeline_strip_dup_description (OviTimelineStrip *self);

G_END_DECLS
