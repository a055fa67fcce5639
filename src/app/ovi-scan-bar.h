/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-page.h"
#include "ovi-session.h"

G_BEGIN_DECLS

/* The bars under the header: the scan's progress with its Cancel button,
 * and the banners saying what the window shows is partial (a cancelled
 * scan, a followed folder that was moved or deleted). */
#define OVI_TYPE_SCAN_BAR (ovi_scan_bar_get_type ())
G_DECLARE_FINAL_TYPE (OviScanBar, ovi_scan_bar, OVI, SCAN_BAR, OviPage)

G_END_DECLS
