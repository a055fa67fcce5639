/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-application.h"
#include "ovi-core.h"

G_BEGIN_DECLS

#define OVI_TYPE_WINDOW (ovi_window_get_type ())
G_DECLARE_FINAL_TYPE (OviWindow, ovi_window, OVI, WINDOW, AdwApplicationWindow)

OviWindow *ovi_window_new (OviApplication *application);
void ovi_window_add_reports (OviWindow *self, GFile *const *files, guint n_files);
void ovi_window_open_file (OviWindow *self, GFile *file);
void ovi_window_open_files (OviWindow *self, GFile *const *files, guint n_files);
void ovi_window_diff_with (OviWindow *self, GFile *golden);
OviDumpFolder *ovi_window_get_folder (OviWindow *self);
gboolean ovi_window_get_loading (OviWindow *self);
gboolean ovi_window_get_busy (OviWindow *self);
void ovi_window_show_page (OviWindow *self, const char *name);
void ovi_window_show_tensor (OviWindow *self, OviDumpFile *op, guint index);
gboolean ovi_window_select_record (OviWindow *self, OviOverflowRecord *record);
gboolean ovi_window_select_record_of_file (OviWindow *self, const char *relative_path);

G_END_DECLS
