/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-page.h"
#include "ovi-record-view.h"
#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_OVERFLOWS_PAGE (ovi_overflows_page_get_type ())
G_DECLARE_FINAL_TYPE (OviOverflowsPage, ovi_overflows_page, OVI, OVERFLOWS_PAGE, OviPage)

gboolean ovi_overflows_page_select_record (OviOverflowsPage *self, OviOverflowRecord *record);
void ovi_overflows_page_focus_search (OviOverflowsPage *self);
void ovi_overflows_page_focus_table (OviOverflowsPage *self);
GtkColumnView *ovi_overflows_page_get_column_view (OviOverflowsPage *self);
OviRecordView *ovi_overflows_page_get_record_view (OviOverflowsPage *self);
const char *ovi_overflows_page_get_state (OviOverflowsPage *self);
char *ovi_overflows_page_dup_row_text (OviOverflowsPage *self);

G_END_DECLS
