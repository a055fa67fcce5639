/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-page.h"
#include "ovi-session.h"
#include "ovi-tensor-view.h"

G_BEGIN_DECLS

#define OVI_TYPE_OPERATORS_PAGE (ovi_operators_page_get_type ())
G_DECLARE_FINAL_TYPE (OviOperatorsPage, ovi_operators_page, OVI, OPERATORS_PAGE, OviPage)

void ovi_operators_page_show_tensor (OviOperatorsPage *self, guint index);
void ovi_operators_page_focus_search (OviOperatorsPage *self);
GtkColumnView *ovi_operators_page_get_column_view (OviOperatorsPage *self);
OviTensorView *ovi_operators_page_get_tensor_view (OviOperatorsPage *self);
char *ovi_operators_page_dup_row_text (OviOperatorsPage *self);

G_END_DECLS
