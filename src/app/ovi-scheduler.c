/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>

#include "ovi-scheduler.h"

/* The one place that decides how much UI work the main loop does between
 * frames: applying a scan's results, growing the timeline's rows, building
 * the cluster and the Iterations grid, laying out a page once. Its rule:
 *
 * One source on the main context, at G_PRIORITY_HIGH_IDLE: below input
 * events (G_PRIORITY_DEFAULT), above GTK's layout and paint
 * (GDK_PRIORITY_REDRAW, G_PRIORITY_HIGH_IDLE + 20). A turn runs the queued
 * tasks in turn, each at most once, until its deadline: as long as the rest
 * of the main loop had since the previous turn, clamped to 4-20 ms. When
 * tasks are left, it then steps aside for 1 ms, so that a frame that is
 * due is drawn before the next turn.
 *
 * So redraws cannot starve UI work (a source below them would wait for
 * ever while frames take longer than the frame interval, as they do with
 * software rendering or an accessibility registry), UI work cannot starve
 * redraws (it gives way after every turn, and takes at most as much time
 * as the frames had), and input always goes first.
 *
 * GtkSourceView 5's gtk_source_scheduler_add() (since 5.2, in Debian 12
 * and in the GNOME runtime) is the model; it is not used because its source
 * runs at G_PRIORITY_LOW, below redraws, which is the stall this rule
 * exists to prevent, and it gives every task 1 ms per frame, which would
 * take a 20,000-row folder several times as long to show. */

#define MIN_BUDGET_US 4000
#define MAX_BUDGET_US 20000
#define GAP_US 1000

typedef struct
{
  guint id;
  OviSchedulerFunc func;
  gpointer user_data;
  GDestroyNotify notify;
  gboolean removed;
} Task;

typedef struct
{
  GSource source;
  GQueue tasks;  /* Task, in the order they run */
  Task *running; /* out of the queue while it runs */
  guint last_id;
  gint64 turn_end; /* when the previous turn ended */
} Scheduler;

static Scheduler *the_scheduler;

static void
task_free (Task *task)
{
  if (task->notify)
    task->notify (task->user_data);
  g_free (task);
}

static gboolean
dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  Scheduler *self = (Scheduler *) source;
  gint64 now = g_get_monotonic_time ();
  gint64 deadline = now + CLAMP (now - self->turn_end, MIN_BUDGET_US, MAX_BUDGET_US);
  guint n = self->tasks.length;

  for (guint i = 0; i < n && g_get_monotonic_time () < deadline; i++)
    {
      Task *task = g_queue_pop_head (&self->tasks);
      gboolean more;

      self->running = task;
      more = task->func (deadline, task->user_data);
      self->running = NULL;
      if (more && !task->removed)
        g_queue_push_tail (&self->tasks, task);
      else
        task_free (task);
    }
  self->turn_end = g_get_monotonic_time ();
  g_source_set_ready_time (source, g_queue_is_empty (&self->tasks) ? -1 : self->turn_end + GAP_US);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs scheduler_funcs = { NULL, NULL, dispatch, NULL, NULL, NULL };

static Scheduler *
get_scheduler (void)
{
  if (the_scheduler == NULL)
    {
      GSource *source = g_source_new (&scheduler_funcs, sizeof (Scheduler));

      the_scheduler = (Scheduler *) source;
      g_queue_init (&the_scheduler->tasks);
      the_scheduler->turn_end = g_get_monotonic_time ();
      g_source_set_priority (source, G_PRIORITY_HIGH_IDLE);
      g_source_set_ready_time (source, -1);
      g_source_set_static_name (source, "[ovi] scheduler");
      g_source_attach (source, NULL);
    }
  return the_scheduler;
}

/**
 * ovi_scheduler_add:
 * @func: the work; it runs at the next turn, and at each turn after as
 *   long as it returns %TRUE
 * @notify: (nullable): called on @user_data once the task is done or removed
 *
 * Queues UI work under the rule above, on the default main context.
 *
 * Returns: an id for ovi_scheduler_remove()
 */
guint
ovi_scheduler_add (OviSchedulerFunc func, gpointer user_data, GDestroyNotify notify)
{
  Scheduler *self = get_scheduler ();
  Task *task = g_new0 (Task, 1);

  g_return_val_if_fail (func != NULL, 0);

  task->id = ++self->last_id;
  task->func = func;
  task->user_data = user_data;
  task->notify = notify;
  g_queue_push_tail (&self->tasks, task);
  if (g_source_get_ready_time ((GSource *) self) == -1)
    g_source_set_ready_time ((GSource *) self, 0);
  return task->id;
}

/**
 * ovi_scheduler_remove:
 *
 * Drops a task before it is done; it does not run again, even when it is
 * the one running.
 */
void
ovi_scheduler_remove (guint id)
{
  if (the_scheduler == NULL || id == 0)
    return;
  for (GList *l = the_scheduler->tasks.head; l != NULL; l = l->next)
    {
      Task *task = l->data;

      if (task->id == id)
        {
          g_queue_delete_link (&the_scheduler->tasks, l);
          task_free (task);
          return;
        }
    }
  /* Not queued: the task running now, which dispatch() drops on return. */
  if (the_scheduler->running && the_scheduler->running->id == id)
    the_scheduler->running->removed = TRUE;
}
