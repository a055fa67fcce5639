/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes: the contract scripts rely on. */
#define OVI_EXIT_OK 0
#define OVI_EXIT_BROKEN_INPUT 1 /* merge: a REPORT cannot be read or is not one */
#define OVI_EXIT_CANNOT_WRITE 1 /* standard output or an output file cannot be written */
#define OVI_EXIT_USAGE 2
#define OVI_EXIT_NO_DUMP 3  /* report: the path holds no dump file at all */
#define OVI_EXIT_OVERFLOW 4 /* watch --exit-on-first: an overflow was recorded */
#define OVI_EXIT_DIVERGE 5  /* diff: the runs diverge */

int ovi_cli_convert (int argc, char **argv);
int ovi_cli_diff (int argc, char **argv);
int ovi_cli_graph (int argc, char **argv);
int ovi_cli_merge (int argc, char **argv);
int ovi_cli_report (int argc, char **argv);
int ovi_cli_stats (int argc, char **argv);
int ovi_cli_watch (int argc, char **argv);

int ovi_cli_usage_error (GOptionContext *context, const char *message);
gboolean ovi_cli_stdout_ok (void);
char *ovi_cli_line (const char *path, const char *message);
void ovi_cli_complain (const char *path, const char *message);
void ovi_cli_remove_temporaries_on_signals (void);

G_END_DECLS
