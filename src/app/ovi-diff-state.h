/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-diff.h"

G_BEGIN_DECLS

/* The session's diff: the run shown (mine) against a golden run, run by
 * core's ovi_diff_run_async() on the worker pool. Its properties are what
 * the Diff page binds to: `result`, `running`, `error`, `mine`, `golden`,
 * `active` (a diff was asked for: the page is shown) and the settings
 * `rtol`, `atol` (NAN: by dtype) and `map`. */
#define OVI_TYPE_DIFF_STATE (ovi_diff_state_get_type ())
G_DECLARE_FINAL_TYPE (OviDiffState, ovi_diff_state, OVI, DIFF_STATE, GObject)

OviDiffState *ovi_diff_state_new (void);
void ovi_diff_state_start (OviDiffState *self, const char *mine, const char *golden);
void ovi_diff_state_set_mine_folder (OviDiffState *self, OviDumpFolder *folder);
void ovi_diff_state_rerun (OviDiffState *self);
void ovi_diff_state_set_settings (OviDiffState *self, double rtol, double atol, const char *map);
void ovi_diff_state_cancel (OviDiffState *self);
void ovi_diff_state_clear (OviDiffState *self);
OviDiffResult *ovi_diff_state_get_result (OviDiffState *self);
gboolean ovi_diff_state_get_running (OviDiffState *self);
gboolean ovi_diff_state_get_active (OviDiffState *self);
const char *ovi_diff_state_get_error (OviDiffState *self);
const char *ovi_diff_state_get_mine (OviDiffState *self);
const char *ovi_diff_state_get_golden (OviDiffState *self);
double ovi_diff_state_get_rtol (OviDiffState *self);
double ovi_diff_state_get_atol (OviDiffState *self);
const char *ovi_diff_state_get_map (OviDiffState *self);

G_END_DECLS
