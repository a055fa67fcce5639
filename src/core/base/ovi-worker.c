/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ovi-worker.h"

/* Work waiting for a thread: a GTask to run, or a share of a parallel loop. */
typedef struct
{
  GTask *task;
  GTaskThreadFunc task_func;
  gpointer share; /* ParallelFor, when task is NULL */
  int nice;       /* the thread's nice value while it runs this */
} Work;

typedef struct
{
  gatomicrefcount ref_count;
  guint n;
  gint next; /* the next index to claim */
  gint done; /* indices done; the caller waits for n */
  GMutex lock;
  GCond cond;
  OviParallelFunc func;
  gpointer user_data;
  GCancellable *cancellable;
} ParallelFor;

/* The pool's threads run below the threads that wait for their results,
 * so that on two cores a caller's own work (a window's main loop) is not
 * shared with two busy workers. Measured with ovi-bench-ui
 * (101,000 files + a float16 histogram, cairo): longest turn 108-139 ms at
 * nice 0, 74-81 ms at nice 5, 62-72 ms at nice 10. The 21,500-file
 * end-to-end test (busy process, default renderer) passes at nice 10. At
 * nice 10 the software GL renderer starved the workers (7,232 of 20,000
 * operators after 5.5 s); it is no longer the default without a GPU. */
#define OVI_WORKER_NICE 10

static GThreadPool *pool;

/**
 * ovi_worker_get_max_threads:
 *
 * Returns: how many threads the pool runs at most: one per processor, up
 *   to 8
 */
guint
ovi_worker_get_max_threads (void)
{
  return CLAMP (g_get_num_processors (), 1, 8);
}

/**
 * ovi_thread_set_nice:
 *
 * Sets the calling thread's nice value (Linux threads have their own).
 *
 * Returns: the previous value, to restore
 */
int
ovi_thread_set_nice (int nice_value)
{
  pid_t tid = (pid_t) syscall (SYS_gettid);
  int old;

  errno = 0;
  old = getpriority (PRIO_PROCESS, tid);
  if (errno != 0)
    old = 0;
  setpriority (PRIO_PROCESS, tid, nice_value);
  return old;
}

static void
parallel_for_unref (ParallelFor *pf)
{
  if (!g_atomic_ref_count_dec (&pf->ref_count))
    return;
  g_mutex_clear (&pf->lock);
  g_cond_clear (&pf->cond);
  g_clear_object (&pf->cancellable);
  g_free (pf);
}

/* Claims indices until none is left. A thread that starts after the last
 * index was claimed returns at once, without touching the caller's data. */
static void
parallel_for_run (ParallelFor *pf)
{
  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&pf->next, 1);

      if (i >= pf->n)
        return;
      if (!g_cancellable_is_cancelled (pf->cancellable))
        pf->func (i, pf->user_data);
      /* Only the last index done takes the lock, to wake the caller: a
       * lock for each index made the threads of a loop over small items
       * (the headers of a folder's files) wait on each other. */
      if ((guint) g_atomic_int_add (&pf->done, 1) + 1 == pf->n)
        {
          g_mutex_lock (&pf->lock);
          g_cond_broadcast (&pf->cond);
          g_mutex_unlock (&pf->lock);
        }
    }
}

static void
run_work (gpointer data, gpointer unused)
{
  Work *work = data;
  int saved_nice = ovi_thread_set_nice (work->nice);

  if (work->task != NULL)
    {
      work->task_func (work->task, g_task_get_source_object (work->task),
                       g_task_get_task_data (work->task), g_task_get_cancellable (work->task));
      g_object_unref (work->task);
    }
  else
    {
      parallel_for_run (work->share);
      parallel_for_unref (work->share);
    }
  ovi_thread_set_nice (saved_nice);
  g_free (work);
}

static void
push (Work *work)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      pool = g_thread_pool_new (run_work, NULL, (int) ovi_worker_get_max_threads (), FALSE, NULL);
      g_once_init_leave (&initialized, 1);
    }
  g_thread_pool_push (pool, work, NULL);
}

/**
 * ovi_worker_run_in_thread:
 * @task: a task whose callback runs on its own main context
 * @func: what to run on a worker thread; it returns the task's result
 *
 * Like g_task_run_in_thread(), on core's pool, whose threads are bounded
 * and run below the priority of the thread that draws the window.
 */
void
ovi_worker_run_in_thread (GTask *task, GTaskThreadFunc func)
{
  Work *work = g_new0 (Work, 1);

  g_return_if_fail (G_IS_TASK (task));

  work->task = g_object_ref (task);
  work->task_func = func;
  work->nice = OVI_WORKER_NICE;
  push (work);
}

/**
 * ovi_parallel_for:
 * @n: how many indices
 * @func: called once for each index in [0, @n), on any thread
 * @cancellable: (nullable): indices not yet started are skipped once cancelled
 *
 * Runs @func over [0, @n) on the calling thread and on the pool's idle
 * threads, and returns when every index is done. The caller takes part,
 * so a call made from a pool thread never waits for a thread that is not
 * coming.
 */
void
ovi_parallel_for (guint n, OviParallelFunc func, gpointer user_data, GCancellable *cancellable)
{
  ovi_parallel_for_full (n, func, user_data, cancellable, OVI_WORKER_BACKGROUND);
}

/**
 * ovi_parallel_for_full:
 * @priority: %OVI_WORKER_BACKGROUND, as ovi_parallel_for() runs, or
 *   %OVI_WORKER_CALLER: the pool's threads take the caller's nice value
 *   while they help, for work someone waits on (a command-line merge on a
 *   busy login node, where threads below everyone else wait seconds for a
 *   turn)
 */
void
ovi_parallel_for_full (guint n,
                       OviParallelFunc func,
                       gpointer user_data,
                       GCancellable *cancellable,
                       OviWorkerPriority priority)
{
  ParallelFor *pf;
  guint helpers;
  int nice = OVI_WORKER_NICE;

  if (n == 0)
    return;
  if (n == 1)
    {
      if (!g_cancellable_is_cancelled (cancellable))
        func (0, user_data);
      return;
    }

  pf = g_new0 (ParallelFor, 1);
  g_atomic_ref_count_init (&pf->ref_count);
  g_mutex_init (&pf->lock);
  g_cond_init (&pf->cond);
  pf->n = n;
  pf->func = func;
  pf->user_data = user_data;
  pf->cancellable = cancellable ? g_object_ref (cancellable) : NULL;

  if (priority == OVI_WORKER_CALLER)
    {
      errno = 0;
      nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
      if (errno != 0)
        nice = 0;
    }
  helpers = MIN (n, ovi_worker_get_max_threads ()) - 1;
  for (guint i = 0; i < helpers; i++)
    {
      Work *work = g_new0 (Work, 1);

      g_atomic_ref_count_inc (&pf->ref_count);
      work->share = pf;
      work->nice = nice;
      push (work);
    }
  parallel_for_run (pf);

  g_mutex_lock (&pf->lock);
  while ((guint) g_atomic_int_get (&pf->done) < pf->n)
    g_cond_wait (&pf->cond, &pf->lock);
  g_mutex_unlock (&pf->lock);
  parallel_for_unref (pf);
}
