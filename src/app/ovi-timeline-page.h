/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ovi-page.h"

G_BEGIN_DECLS

#define OVI_TYPE_TIMELINE_PAGE (ovi_timeline_page_get_type ())
G_DECLARE_FINAL_TYPE (OviTimelinePage, ovi_timeline_page, OVI, TIMELINE_PAGE, OviPage)

GtkWidget *ovi_timeline_page_new (void);
GtkColumnView *ovi_timeline_page_get_column_view (OviTimelinePage *self);
gboolean ovi_timeline_page_select_rank (OviTimelinePage *self, OviRank *rank);
void ovi_timeline_page_add_reports (OviTimelinePage *self, GListModel *files);
void ovi_timeline_page_get_span (OviTimelinePage *self, guint64 *first, guint64 *last);

G_END_DECLS
