/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-page.h"
#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_SIDEBAR (ovi_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (OviSidebar, ovi_sidebar, OVI, SIDEBAR, OviPage)

GListModel *ovi_sidebar_get_model (OviSidebar *self);
void ovi_sidebar_select (OviSidebar *self, guint position);

G_END_DECLS
