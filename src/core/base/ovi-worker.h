/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Core's one pool of worker threads: every tensor, header and summary that
 * is read off the calling thread is read here, for the window, the report
 * and the command-line tool alike. */

typedef void (*OviParallelFunc) (guint index, gpointer user_data);

/* At what priority the pool's threads run a job. */
typedef enum
{
  OVI_WORKER_BACKGROUND, /* below the caller: a window stays responsive */
  OVI_WORKER_CALLER,     /* at the caller's: it waits for the result */
} OviWorkerPriority;

void ovi_worker_run_in_thread (GTask *task, GTaskThreadFunc func);
void
ovi_parallel_for (guint n, OviParallelFunc func, gpointer user_data, GCancellable *cancellable);
void ovi_parallel_for_full (guint n,
                            OviParallelFunc func,
                            gpointer user_data,
                            GCancellable *cancellable,
                            OviWorkerPriority priority);
guint ovi_worker_get_max_threads (void);
int ovi_thread_set_nice (int nice_value);

G_END_DECLS
