/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-page.h"
#include "ovi-session.h"

G_BEGIN_DECLS

#define OVI_TYPE_START_PAGE (ovi_start_page_get_type ())
G_DECLARE_FINAL_TYPE (OviStartPage, ovi_start_page, OVI, START_PAGE, OviPage)

const char *ovi_start_page_get_error (OviStartPage *self);
void ovi_start_page_set_error (OviStartPage *self, const char *error);

G_END_DECLS
