#pragma once

#include <adwaita.h>

#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_SIDEBAR (ovi_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (OviSidebar, ovi_sidebar, OVI, SIDEBAR, GtkWidget)

OviSession *ovi_sidebar_get_session (OviSidebar *self);
void ovi_sidebar_set_session (OviSidebar *self, OviSession *session);
GListModel *ovi_sidebar_get_model (OviSidebar *self);
void ovi_sidebar_select (OviSidebar *self, guint position);

G_END_DECLS
