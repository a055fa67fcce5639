/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-core.h"

G_BEGIN_DECLS

#define OVI_TYPE_RECORD_VIEW (ovi_record_view_get_type ())
G_DECLARE_FINAL_TYPE (OviRecordView, ovi_record_view, OVI, RECORD_VIEW, GtkWidget)

GtkWidget *ovi_record_view_new (void);
void ovi_record_view_set_record (OviRecordView *self, OviOverflowRecord *record);
OviOverflowRecord *ovi_record_view_get_record (OviRecordView *self);
char *ovi_record_view_dup_checklist_text (OviRecordView *self);

G_END_DECLS
