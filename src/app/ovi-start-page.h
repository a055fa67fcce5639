#pragma once

#include <adwaita.h>

#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_START_PAGE (ovi_start_page_get_type ())
G_DECLARE_FINAL_TYPE (OviStartPage, ovi_start_page, OVI, START_PAGE, GtkWidget)

OviSession *ovi_start_page_get_session (OviStartPage *self);
void ovi_start_page_set_session (OviStartPage *self, OviSession *session);

G_END_DECLS
