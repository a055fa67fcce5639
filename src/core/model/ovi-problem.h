/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define OVI_TYPE_PROBLEM (ovi_problem_get_type ())
G_DECLARE_FINAL_TYPE (OviProblem, ovi_problem, OVI, PROBLEM, GObject)

OviProblem *ovi_problem_new (const char *relative_path, const GError *error);
const char *ovi_problem_get_file (OviProblem *self);
const char *ovi_problem_get_message (OviProblem *self);
OviProblem *ovi_problem_new_at_line (const char *relative_path, guint line, const GError *error);
guint ovi_problem_get_line (OviProblem *self);
void ovi_problem_set_place (OviProblem *self, guint root, const char *path);
guint ovi_problem_get_root (OviProblem *self);
void ovi_problem_get_place (OviProblem *self, const char *values[4]);

G_END_DECLS
