/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "ovi-fixtures.h"

/* Core's worker pool and the one way its results reach the main context:
 * the folder's pump, which neither starves nor is starved by redraws. */

static void
mark_index (guint index, gpointer data)
{
  g_atomic_int_inc (&((gint *) data)[index]);
}

static void
test_parallel_for (void)
{
  gint hits[1000] = { 0 };

  ovi_parallel_for (G_N_ELEMENTS (hits), mark_index, hits, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (hits); i++)
    g_assert_cmpint (hits[i], ==, 1);
}

typedef struct
{
  gint hits[200];
  gint finished;
} Nested;

/* A task on the pool that itself runs a parallel loop on the pool. */
static void
nested_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Nested *n = task_data;

  ovi_parallel_for (G_N_ELEMENTS (n->hits), mark_index, n->hits, NULL);
  g_atomic_int_inc (&n->finished);
  g_task_return_boolean (task, TRUE);
}

static void
test_parallel_for_nested (void)
{
  Nested n[6] = { 0 };
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  /* More tasks than threads: every thread of the pool waits in a loop of
   * its own, and none may wait for a thread that is not coming. */
  for (guint t = 0; t < G_N_ELEMENTS (n); t++)
    {
      g_autoptr (GTask) task = g_task_new (NULL, NULL, NULL, NULL);

      g_task_set_task_data (task, &n[t], NULL);
      ovi_worker_run_in_thread (task, nested_thread);
    }
  for (guint t = 0; t < G_N_ELEMENTS (n); t++)
    while (g_atomic_int_get (&n[t].finished) == 0 && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, FALSE);
  for (guint t = 0; t < G_N_ELEMENTS (n); t++)
    {
      g_assert_cmpint (g_atomic_int_get (&n[t].finished), ==, 1);
      for (guint i = 0; i < G_N_ELEMENTS (n[t].hits); i++)
        g_assert_cmpint (n[t].hits[i], ==, 1);
    }
}

typedef struct
{
  gboolean loaded;
  gboolean ok;
  GError *error;
  guint frames;
  guint records_at_cancel;
  guint records_added_after_cancel;
  gboolean cancelled;
  GCancellable *cancellable;
  gboolean cancel_queued;
  GListModel *records;
  guint summaries_applied;
} LoadState;

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadState *s = data;

  s->ok = ovi_dump_folder_load_finish (OVI_DUMP_FOLDER (source), result, &s->error);
  s->loaded = TRUE;
}

/* A frame that takes 30 ms, always due again: what GDK does at
 * GDK_PRIORITY_REDRAW while a progress bar pulses and rendering is slow. */
static gboolean
slow_frame (gpointer data)
{
  LoadState *s = data;

  s->frames++;
  g_usleep (30 * 1000);
  return G_SOURCE_CONTINUE;
}

static void
on_summaries_applied (OviDumpFolder *folder, LoadState *s)
{
  s->summaries_applied++;
}

static OviDumpFile *
find_op (OviDumpFolder *folder, const char *op_name, const char *iteration)
{
  GListModel *files = ovi_dump_folder_get_files (folder);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

      if (g_strcmp0 (ovi_dump_file_get_op_name (file), op_name) == 0 &&
          g_strcmp0 (ovi_dump_file_get_iteration (file), iteration) == 0)
        return file;
    }
  return NULL;
}

/* Without OviDumpFolder:paced, results are applied as they reach the
 * caller's main context, whatever else keeps it busy below them (here an
 * idle source that is always due, as GDK's redraws are while a progress
 * bar pulses). How much UI work a frame takes is the window's business
 * (src/app/ovi-scheduler.c). */
static void
test_applied_as_they_come (void)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (example);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  LoadState s = { 0 };
  GSource *redraw = g_idle_source_new ();
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  OviDumpFile *cast;
  g_autofree char *label = NULL;
  guint64 inf = 0;

  g_source_set_priority (redraw, G_PRIORITY_HIGH_IDLE + 20);
  g_source_set_callback (redraw, slow_frame, &s, NULL);
  g_source_attach (redraw, NULL);

  ovi_dump_folder_set_analyze (folder, TRUE);
  g_signal_connect (folder, "summaries-applied", G_CALLBACK (on_summaries_applied), &s);
  ovi_dump_folder_load_async (folder, NULL, on_loaded, &s);
  g_assert_true (ovi_dump_folder_get_analyzing (folder));
  while ((!s.loaded || ovi_dump_folder_get_analyzing (folder)) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_destroy (redraw);
  g_source_unref (redraw);

  /* Everything arrived while "frames" never stopped. */
  g_assert_true (s.loaded);
  g_assert_no_error (s.error);
  g_assert_true (s.ok);
  g_assert_false (ovi_dump_folder_get_analyzing (folder));
  g_assert_false (ovi_dump_folder_get_cancelled (folder));
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 8);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)), ==, 1);
  g_assert_cmpuint (s.summaries_applied, >=, 1);
  {
    OviScanProgress progress;

    /* The example's 26 files less its 7 overflow files: 14 op dump files
     * and iteration 12's 5 statistics operators. */
    ovi_dump_folder_get_progress (folder, &progress);
    g_assert_cmpuint (progress.operators, ==, progress.summarized);
    g_assert_cmpuint (progress.operators, ==, 26 - 7);
  }

  /* The origin of iteration 3, summarized in core and notified. */
  cast = find_op (folder, "gradients/Cast_3", "3");
  g_assert_nonnull (cast);
  g_assert_nonnull (ovi_dump_file_get_summary (cast));
  g_assert_cmpint (ovi_dump_file_get_summary (cast)->blame, ==, OVI_BLAME_ORIGIN);
  g_object_get (cast, "blame-label", &label, "inf-count", &inf, NULL);
  g_assert_cmpstr (label, ==, "Origin");
  g_assert_cmpuint (inf, >, 0);
  g_assert_cmpuint (inf, ==, ovi_dump_file_get_summary (cast)->inf);
}

/* A paced caller: told when results wait, it takes them in itself. */
typedef struct
{
  OviDumpFolder *folder;
  guint told;
  gboolean waiting;
  gboolean drained; /* the caller saw no result left since it was last told */
  guint told_undrained;
  guint largest_files;
  guint files_before_told;
} Paced;

static void
on_results_waiting (OviDumpFolder *folder, Paced *p)
{
  p->told++;
  if (!p->drained)
    p->told_undrained++;
  p->drained = FALSE;
  p->waiting = TRUE;
}

static void
on_paced_files (GListModel *files, guint position, guint removed, guint added, Paced *p)
{
  p->largest_files = MAX (p->largest_files, added);
}

/* With OviDumpFolder:paced, core applies nothing by itself: it says when
 * results wait, once until the caller has seen none left, and the caller
 * takes at most as many files at a time as it asks for. */
static void
test_paced (void)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (example);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  GListModel *files = ovi_dump_folder_get_files (folder);
  LoadState s = { 0 };
  Paced p = { folder, 0, FALSE, TRUE };
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  OviScanProgress progress;

  ovi_dump_folder_set_analyze (folder, TRUE);
  ovi_dump_folder_set_paced (folder, TRUE);
  g_signal_connect (folder, "results-waiting", G_CALLBACK (on_results_waiting), &p);
  g_signal_connect (files, "items-changed", G_CALLBACK (on_paced_files), &p);
  ovi_dump_folder_load_async (folder, NULL, on_loaded, &s);
  while (p.told == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (p.told, ==, 1);
  /* Told, and nothing in the stores until the caller takes it. */
  g_assert_cmpuint (g_list_model_get_n_items (files), ==, 0);
  while ((!s.loaded || ovi_dump_folder_get_analyzing (folder)) &&
         g_get_monotonic_time () < deadline)
    {
      if (p.waiting)
        {
          p.waiting = FALSE;
          while (ovi_dump_folder_apply_results (folder, 4))
            ;
          p.drained = TRUE;
        }
      else
        g_main_context_iteration (NULL, TRUE);
    }
  g_assert_true (s.loaded);
  g_assert_true (s.ok);
  g_assert_cmpuint (p.told_undrained, ==, 0);
  g_assert_cmpuint (p.largest_files, <=, 4);
  g_assert_cmpuint (g_list_model_get_n_items (files), ==, 26 - 7 + 7);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 8);
  ovi_dump_folder_get_progress (folder, &progress);
  g_assert_cmpuint (progress.operators, ==, 26 - 7);
  g_assert_cmpuint (progress.summarized, ==, 26 - 7);
}

/* As a click on Cancel does: between two turns of the main loop. */
static gboolean
cancel_now (gpointer data)
{
  LoadState *s = data;

  s->cancelled = TRUE;
  s->records_at_cancel = g_list_model_get_n_items (s->records);
  g_cancellable_cancel (s->cancellable);
  return G_SOURCE_REMOVE;
}

static void
on_records_changed (GListModel *records, guint position, guint removed, guint added, gpointer data)
{
  LoadState *s = data;

  if (s->cancelled)
    s->records_added_after_cancel += added;
  else if (!s->cancel_queued)
    {
      /* Cancel as soon as the first records are in. */
      s->cancel_queued = TRUE;
      s->records = records;
      g_idle_add_full (G_PRIORITY_DEFAULT, cancel_now, s, NULL);
    }
}

static void
test_cancel_stops_delivery (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ovi-delivery-XXXXXX", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (dir);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  LoadState s = { 0 };
  gint64 deadline;

  /* Forty runs of the example: 40 x 4 iteration folders, 320 records. */
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("run%02u", i);
      g_autofree char *copy = g_build_filename (dir, name, NULL);

      ovi_fixture_write_example (copy);
    }
  s.cancellable = cancellable;
  ovi_dump_folder_set_analyze (folder, TRUE);
  g_signal_connect (ovi_dump_folder_get_records (folder), "items-changed",
                    G_CALLBACK (on_records_changed), &s);
  ovi_dump_folder_load_async (folder, cancellable, on_loaded, &s);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!s.loaded && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (s.loaded);
  g_assert_true (s.cancelled);
  g_assert_false (s.ok);
  g_assert_error (s.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (s.records_added_after_cancel, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==,
                    s.records_at_cancel);
  g_assert_cmpuint (s.records_at_cancel, <, 320);
  g_assert_true (ovi_dump_folder_get_cancelled (folder));
  g_assert_false (ovi_dump_folder_get_loading (folder));
  g_assert_false (ovi_dump_folder_get_analyzing (folder));

  /* Nothing arrives later either. */
  deadline = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (s.records_added_after_cancel, ==, 0);

  g_clear_error (&s.error);
  ovi_fixture_remove_tree (dir);
}

typedef struct
{
  OviTensorResult *result;
  GError *error;
  gboolean done;
} AnalyzeState;

static void
on_analyzed (GObject *source, GAsyncResult *result, gpointer data)
{
  AnalyzeState *s = data;

  s->result = ovi_tensor_analyze_finish (OVI_TENSOR (source), result, &s->error);
  s->done = TRUE;
}

static void
test_tensor_analyze_async (void)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (example);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  AnalyzeState s = { 0 };
  OviDumpFile *cast;
  OviTensor *output = NULL;
  GPtrArray *tensors;
  const OviStats *stats;
  OviHistogram *h;
  guint64 total;

  g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
  cast = find_op (folder, "gradients/Cast_3", "3");
  tensors = ovi_dump_file_get_tensors (cast);
  for (guint i = 0; i < tensors->len && output == NULL; i++)
    if (ovi_tensor_get_kind (g_ptr_array_index (tensors, i)) == OVI_TENSOR_OUTPUT)
      output = g_ptr_array_index (tensors, i);
  g_assert_nonnull (output);

  ovi_tensor_analyze_async (output, 16, OVI_HISTOGRAM_LINEAR, NULL, on_analyzed, &s);
  while (!s.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (s.error);
  stats = ovi_analysis_get_stats (ovi_tensor_result_get_analysis (s.result));
  g_assert_cmpuint (stats->count, ==, ovi_tensor_get_count (output));
  g_assert_cmpuint (stats->pos_inf, >, 0);
  g_assert_cmpint (stats->first_pos_inf, ==, stats->first_nonfinite);
  h = ovi_tensor_result_get_histogram (s.result);
  g_assert_nonnull (h);
  g_assert_cmpuint (h->n_bins, ==, 16);
  total = h->nan + h->neg_inf + h->pos_inf + h->neg_saturated + h->pos_saturated;
  for (guint i = 0; i < h->n_bins; i++)
    total += h->counts[i];
  g_assert_cmpuint (total, ==, stats->count);
  g_assert_cmpuint (h->pos_inf, ==, stats->pos_inf);
  ovi_tensor_result_unref (s.result);
}

typedef struct
{
  gboolean done;
  gboolean ok;
  GError *error;
} ExportState;

static void
on_exported (GObject *source, GAsyncResult *result, gpointer data)
{
  ExportState *s = data;

  s->ok = ovi_report_export_finish (OVI_DUMP_FOLDER (source), result, &s->error);
  s->done = TRUE;
}

static void
test_export_async (void)
{
  g_autofree char *example = g_build_filename (SOURCE_ROOT, "data", "example-dump", NULL);
  g_autoptr (GFile) root = g_file_new_for_path (example);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autofree char *dir = g_dir_make_tmp ("ovi-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "report.json", NULL);
  g_autofree char *inside = g_build_filename (example, "report.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  ExportState s = { 0 }, refused = { 0 };
  JsonObject *report;

  g_assert_true (ovi_dump_folder_load (folder, NULL, NULL));
  ovi_report_export_async (folder, OVI_EXPORT_REPORT_JSON, NULL, path, NULL, on_exported, &s);
  ovi_report_export_async (folder, OVI_EXPORT_REPORT_JSON, NULL, inside, NULL, on_exported,
                           &refused);
  while (!s.done || !refused.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (s.error);
  g_assert_true (s.ok);
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  report = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "records")), ==,
                    8);

  g_assert_false (refused.ok);
  g_assert_error (refused.error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_INSIDE_DUMP);
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
  g_clear_error (&refused.error);
  ovi_fixture_remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/worker/parallel-for", test_parallel_for);
  g_test_add_func ("/core/worker/parallel-for-nested", test_parallel_for_nested);
  g_test_add_func ("/core/delivery/applied-as-they-come", test_applied_as_they_come);
  g_test_add_func ("/core/delivery/cancel-stops-delivery", test_cancel_stops_delivery);
  g_test_add_func ("/core/delivery/paced", test_paced);
  g_test_add_func ("/core/tensor/analyze-async", test_tensor_analyze_async);
  g_test_add_func ("/core/export/async", test_export_async);
  return g_test_run ();
}
