/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>

#include "ovi-fixtures.h"
#include "ovi-scheduler.h"
#include "ovi-session.h"
#include "ovi-test-util.h"

/* The window's one scheduler (src/app/ovi-scheduler.c) and the pace at
 * which the session takes a scan's results in through it, on a main loop
 * with no window: a "frame" here is an idle source at GTK's redraw
 * priority that is always due, as GDK's redraws are while a progress bar
 * pulses and rendering is slow. */

typedef struct
{
  guint frames;
  guint frame_ms; /* how long a frame takes */
} Frames;

static gboolean
frame (gpointer data)
{
  Frames *f = data;

  f->frames++;
  if (f->frame_ms)
    g_usleep (f->frame_ms * 1000);
  return G_SOURCE_CONTINUE;
}

static GSource *
frames_new (Frames *f)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, GDK_PRIORITY_REDRAW);
  g_source_set_callback (source, frame, f, NULL);
  g_source_attach (source, NULL);
  return source;
}

typedef struct
{
  Frames *frames;
  guint turns;
  guint wanted;
  guint turns_without_frame;
  guint frames_at_last_turn;
  gint64 shortest_budget;
  gint64 longest_budget;
  gboolean done;
} Work;

static gboolean
work_turn (gint64 deadline, gpointer data)
{
  Work *w = data;
  gint64 budget = deadline - g_get_monotonic_time ();

  if (w->turns > 0 && w->frames->frames == w->frames_at_last_turn)
    w->turns_without_frame++;
  w->frames_at_last_turn = w->frames->frames;
  w->shortest_budget = MIN (w->shortest_budget, budget);
  w->longest_budget = MAX (w->longest_budget, budget);
  w->turns++;
  return w->turns < w->wanted;
}

static void
work_done (gpointer data)
{
  ((Work *) data)->done = TRUE;
}

/* Frames that take 30 ms and are always due cannot starve the scheduler's
 * work (it runs above them), and its work cannot starve them: a frame
 * comes between every two of its turns. Each turn gets a deadline 4-20 ms
 * away. */
static void
test_frames_and_work (void)
{
  Frames f = { 0, 30 };
  Work w = { &f, 0, 20, 0, 0, G_MAXINT64, 0, FALSE };
  GSource *source = frames_new (&f);

  ovi_scheduler_add (work_turn, &w, work_done);
  WAIT_UNTIL (w.done);
  g_source_destroy (source);
  g_source_unref (source);
  g_assert_cmpuint (w.turns, ==, 20);
  g_assert_cmpuint (w.turns_without_frame, ==, 0);
  /* A deadline is at most 20 ms away, and at least 4 ms less the time
   * taken to call the task. */
  g_assert_cmpint (w.longest_budget, <=, 20000);
  g_assert_cmpint (w.shortest_budget, >, 0);
}

static gboolean
remove_self (gint64 deadline, gpointer data)
{
  guint *calls = data;

  (*calls)++;
  ovi_scheduler_remove (calls[1]);
  return TRUE;
}

static void
count_notify (gpointer data)
{
  ((guint *) data)[2]++;
}

static gboolean
other_turn (gint64 deadline, gpointer data)
{
  return ++*(guint *) data < 3;
}

/* A task that removes itself while it runs is not called again, and is
 * told once that it is done; the others go on. */
static void
test_remove_running (void)
{
  guint calls[3] = { 0, 0, 0 }; /* calls, its id, notifications */
  guint other = 0;

  calls[1] = ovi_scheduler_add (remove_self, calls, count_notify);
  ovi_scheduler_add (other_turn, &other, NULL);
  WAIT_UNTIL (other == 3);
  g_assert_cmpuint (calls[0], ==, 1);
  g_assert_cmpuint (calls[2], ==, 1);
}

/* What the main loop saw of the session's first files and summaries: the
 * size of each arrival, and whether a frame ran since the one before. */
typedef struct
{
  Frames *frames;
  OviDumpFolder *folder;
  guint frame_of_last_files;
  guint frame_of_last_summaries;
  guint64 summarized;
  guint files_arrivals;
  guint summaries_arrivals;
  guint largest_first_files;
  guint largest_first_summaries;
  guint without_frame;
} Slices;

static void
on_files_changed (GListModel *files, guint position, guint removed, guint added, Slices *s)
{
  if (position >= 256)
    return;
  s->largest_first_files = MAX (s->largest_first_files, added);
  if (s->files_arrivals++ > 0 && s->frames->frames == s->frame_of_last_files)
    s->without_frame++;
  s->frame_of_last_files = s->frames->frames;
}

static void
on_summaries (OviDumpFolder *folder, Slices *s)
{
  guint64 summarized;

  g_object_get (folder, "summarized", &summarized, NULL);
  if (s->summarized < 256)
    {
      s->largest_first_summaries = MAX (s->largest_first_summaries, summarized - s->summarized);
      if (s->summaries_arrivals++ > 0 && s->frames->frames == s->frame_of_last_summaries)
        s->without_frame++;
      s->frame_of_last_summaries = s->frames->frames;
    }
  s->summarized = summarized;
}

static void
folder_changed (OviSession *session, GParamSpec *pspec, Slices *s)
{
  OviDumpFolder *folder = ovi_session_get_folder (session);

  if (folder == NULL || folder == s->folder)
    return;
  s->folder = folder;
  g_signal_connect (ovi_dump_folder_get_files (folder), "items-changed",
                    G_CALLBACK (on_files_changed), s);
  g_signal_connect (folder, "summaries-applied", G_CALLBACK (on_summaries), s);
}

/* GTK 4.8 builds a list's first 200 rows as they arrive, and a summary
 * changes the labels of its row: the session takes the first 256 files in
 * at most 4 at a time and their summaries at most 16, with a frame before
 * the next. Twenty runs of the example: 560 files, 380 operators. */
static void
test_session_first_slices (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ovi-scheduler-XXXXXX", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (dir);
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_autoptr (OviSession) session = ovi_session_new (settings);
  Frames f = { 0, 0 };
  Slices s = { &f };
  GSource *source;
  OviScanProgress progress;

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("run%02u", i);
      g_autofree char *copy = g_build_filename (dir, name, NULL);

      ovi_fixture_write_example (copy);
    }
  source = frames_new (&f);
  g_signal_connect (session, "notify::folder", G_CALLBACK (folder_changed), &s);
  ovi_session_load (session, root);
  WAIT_UNTIL (!ovi_session_get_busy (session) &&
              !ovi_dump_folder_get_analyzing (ovi_session_get_folder (session)));
  g_source_destroy (source);
  g_source_unref (source);

  ovi_dump_folder_get_progress (ovi_session_get_folder (session), &progress);
  g_assert_cmpuint (progress.files_seen, ==, 560);
  g_assert_cmpuint (progress.operators, ==, 380);
  g_assert_cmpuint (progress.summarized, ==, 380);
  g_assert_cmpuint (s.files_arrivals, >=, 256 / 4);
  g_assert_cmpuint (s.largest_first_files, <=, 4);
  g_assert_cmpuint (s.summaries_arrivals, >=, 256 / 16);
  g_assert_cmpuint (s.largest_first_summaries, <=, 16);
  g_assert_cmpuint (s.without_frame, ==, 0);
  ovi_session_close (session);
  remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  /* No display: the scheduler is a main-loop source, the session models. */
  if (!ovi_test_init (&argc, &argv, FALSE, &exit_code))
    return exit_code;
  g_test_add_func ("/app/scheduler/frames-and-work", test_frames_and_work);
  g_test_add_func ("/app/scheduler/remove-running", test_remove_running);
  g_test_add_func ("/app/scheduler/session-first-slices", test_session_first_slices);
  return ovi_test_run ();
}
