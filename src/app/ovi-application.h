/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define OVI_TYPE_APPLICATION (ovi_application_get_type ())
G_DECLARE_FINAL_TYPE (OviApplication, ovi_application, OVI, APPLICATION, AdwApplication)

OviApplication *ovi_application_new (void);
GSettings *ovi_application_get_settings (OviApplication *self);
char *ovi_application_dup_example_dir (void);
void ovi_application_add_recent (OviApplication *self, const char *path);

gboolean ovi_application_is_report_file (GFile *file);

G_END_DECLS
