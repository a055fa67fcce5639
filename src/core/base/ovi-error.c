/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-error.h"

/* G_DEFINE_QUARK's first argument is the domain's name as
 * g_quark_to_string() gives it: clang-format would space out its dashes. */
/* clang-format off */
G_DEFINE_QUARK (ovi-dump-file-error-quark, ovi_dump_file_error)
G_DEFINE_QUARK (ovi-overflow-error-quark, ovi_overflow_error)
G_DEFINE_QUARK (ovi-stats-error-quark, ovi_stats_error)
G_DEFINE_QUARK (ovi-export-error-quark, ovi_export_error)
G_DEFINE_QUARK (ovi-folder-error-quark, ovi_folder_error)
G_DEFINE_QUARK (ovi-npy-error-quark, ovi_npy_error)
G_DEFINE_QUARK (ovi-diff-error-quark, ovi_diff_error)
/* clang-format on */
