/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-page.h"
#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_PROBLEMS_PAGE (ovi_problems_page_get_type ())
G_DECLARE_FINAL_TYPE (OviProblemsPage, ovi_problems_page, OVI, PROBLEMS_PAGE, OviPage)

GtkColumnView *ovi_problems_page_get_column_view (OviProblemsPage *self);

G_END_DECLS
