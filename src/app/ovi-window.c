#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-ignore-window.h"
#include "ovi-op-row.h"
#include "ovi-tree-node.h"
#include "ovi-window.h"

struct _OviWindow
{
  AdwApplicationWindow parent_instance;

  GtkToggleButton *abnormal_toggle;
  OviCompareView *compare_view;
  GtkMenuButton *export_button;
  GtkStack *main_stack;
  GtkEveryFilter *op_filter;
  GtkFilterListModel *op_filter_model;
  GtkSearchEntry *op_search;
  GtkSingleSelection *op_selection;
  GtkSortListModel *op_sort_model;
  GtkSliceListModel *op_slice;
  GtkColumnView *op_view;
  GtkSortListModel *problem_sort_model;
  GtkColumnView *problem_view;
  AdwButtonContent *problems_content;
  GtkButton *problems_button;
  AdwViewStackPage *problems_page;
  GtkProgressBar *progress_bar;
  GtkLabel *progress_label;
  GtkRevealer *progress_revealer;
  AdwPreferencesGroup *recent_group;
  AdwStatusPage *start_page;
  OviRecordView *record_details;
  AdwStatusPage *record_empty_page;
  GtkEveryFilter *record_filter;
  GtkFilterListModel *record_filter_model;
  GtkSearchEntry *record_search;
  GtkSingleSelection *record_selection;
  GtkSortListModel *record_sort_model;
  GtkSliceListModel *record_slice;
  GtkStack *record_stack;
  GtkColumnView *record_view;
  GtkPaned *sidebar_paned;
  OviTensorView *tensor_view;
  GtkSingleSelection *tree_selection;
  GtkStack *title_stack;
  AdwToastOverlay *toast_overlay;
  GtkDropDown *unit_dropdown;
  GtkStringList *unit_list;
  AdwViewStack *view_stack;
  AdwWindowTitle *window_title;

  GSettings *settings;
  GPtrArray *recent_rows;

  OviDumpFolder *folder;
  GCancellable *cancellable;       /* the scan; the Cancel button */
  GCancellable *stats_cancellable; /* operator statistics of this folder */
  OviTreeNode *tree_root;
  OviTreeNode *tree_node; /* the selected node */
  GListStore *op_rows;
  GHashTable *op_row_index; /* OviDumpFile -> OviOpRow */
  GThreadPool *stats_pool;
  guint pending_stats;
  GPtrArray *pending_rows; /* OviOpRow, waiting to join the operator table */
  guint rows_flush_id;
  guint grow_id;
  GAsyncQueue *stats_done; /* StatsJob, finished by the workers */
  guint stats_drain_id;
  GtkCustomFilter *record_custom_filter;
  GtkCustomFilter *op_custom_filter;
};

G_DEFINE_FINAL_TYPE (OviWindow, ovi_window, ADW_TYPE_APPLICATION_WINDOW)

/* --- formatting closures used by the .ui ------------------------------- */

static char *
format_position (gpointer unused, guint position)
{
  return g_strdup_printf ("%u", position + 1);
}

static GStrv
first_classes (gpointer unused, gboolean is_first)
{
  static const char *first[] = { "numeric", "first-overflow", NULL };
  static const char *other[] = { "numeric", NULL };

  return g_strdupv ((char **) (is_first ? first : other));
}

static char *
format_op_name (gpointer unused, const char *op_name)
{
  if (op_name == NULL || *op_name == '\0')
    return g_strdup (_ ("No matching op dump file"));
  return g_strdup (op_name);
}

static GStrv
op_name_classes (gpointer unused, const char *op_name)
{
  static const char *missing[] = { "dim-label", NULL };
  static const char *none[] = { NULL };

  return g_strdupv ((char **) (op_name == NULL || *op_name == '\0' ? missing : none));
}

static guint64
iteration_number (gpointer unused, const char *iteration)
{
  return iteration ? g_ascii_strtoull (iteration, NULL, 10) : 0;
}

static char *
search_text (gpointer unused, const char *op_type, const char *op_name)
{
  return g_strconcat (op_type ? op_type : "", " ", op_name ? op_name : "", NULL);
}

static char *
format_count (gpointer unused, gboolean analyzed, guint64 count)
{
  if (!analyzed)
    return g_strdup ("…");
  return g_strdup_printf ("%" G_GUINT64_FORMAT, count);
}

static GStrv
count_classes (gpointer unused, guint64 count)
{
  static const char *bad[] = { "numeric", "error", NULL };
  static const char *fine[] = { "numeric", NULL };

  return g_strdupv ((char **) (count > 0 ? bad : fine));
}

/* Records of ignored operators stay listed, greyed. */
static gboolean
not_ignored (gpointer unused, gboolean ignored)
{
  return !ignored;
}

static char *
format_max_abs (gpointer unused, double max_abs)
{
  if (max_abs < 0)
    return g_strdup ("…");
  return g_strdup_printf ("%.6g", max_abs);
}

static GStrv
max_abs_classes (gpointer unused, double max_abs)
{
  static const char *bad[] = { "numeric", "warning", NULL };
  static const char *fine[] = { "numeric", NULL };

  /* The fp16 limit: the vendor's own detector flags max|x| >= 65504. */
  return g_strdupv ((char **) (max_abs >= 65504 ? bad : fine));
}

static GStrv
count_badge_classes (gpointer unused, guint count)
{
  static const char *some[] = { "count-badge", "overflowed", NULL };
  static const char *none[] = { "count-badge", "dim-label", NULL };

  return g_strdupv ((char **) (count > 0 ? some : none));
}

/* --- toasts ------------------------------------------------------------ */

static void
show_toast (OviWindow *self, const char *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
show_error (OviWindow *self, const GError *error)
{
  show_toast (self, error->message);
}

/* --- progress ---------------------------------------------------------- */

static void
update_actions (OviWindow *self)
{
  gboolean have_folder = self->folder != NULL;
  gboolean loading = have_folder && ovi_dump_folder_get_loading (self->folder);
  gboolean have_tensor, have_record;

  if (self->tensor_view == NULL || self->record_selection == NULL)
    return; /* disposing */
  have_tensor = ovi_tensor_view_get_tensor (self->tensor_view) != NULL;
  have_record = gtk_single_selection_get_selected_item (self->record_selection) != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->export_button), have_folder);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reload", have_folder);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel", loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", have_folder);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-report-json", have_folder);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-report-text", have_folder);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-tensor-npy", have_tensor);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-tensor-txt", have_tensor);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-overflow-json", have_record);
}

static void
update_progress (OviWindow *self)
{
  OviScanProgress progress;
  g_autofree char *text = NULL;

  if (self->folder == NULL)
    return;
  ovi_dump_folder_get_progress (self->folder, &progress);
  text = g_strdup_printf (_ ("%llu files seen, %llu dump files, %llu overflow records"),
                          (unsigned long long) progress.files_seen,
                          (unsigned long long) progress.dump_files,
                          (unsigned long long) progress.overflow_records);
  gtk_label_set_text (self->progress_label, text);
  if (ovi_dump_folder_get_loading (self->folder))
    gtk_progress_bar_pulse (self->progress_bar);
}

static void
update_problems (OviWindow *self)
{
  guint n =
      self->folder ? g_list_model_get_n_items (ovi_dump_folder_get_problems (self->folder)) : 0;
  g_autofree char *label =
      g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u problem", "%u problems", n), n);

  adw_button_content_set_label (self->problems_content, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->problems_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_button), n > 0);
  adw_view_stack_page_set_badge_number (self->problems_page, n);
  adw_view_stack_page_set_needs_attention (self->problems_page, n > 0);
}

static void
update_record_stack (OviWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->record_filter_model));
  guint total =
      self->folder ? g_list_model_get_n_items (ovi_dump_folder_get_records (self->folder)) : 0;

  if (n > 0)
    gtk_stack_set_visible_child_name (self->record_stack, "table");
  else
    {
      adw_status_page_set_description (
          self->record_empty_page,
          total > 0 ? _ ("No record matches the search, the unit or the selected node.")
                    : _ ("No overflow file in this folder records an overflow."));
      gtk_stack_set_visible_child_name (self->record_stack, "empty");
    }
}

/* --- operator statistics in worker threads ------------------------------- */

/* A job holds no reference on the window: the workers only ever touch the
 * queue, so no GTK object is ever released on a worker thread. */
typedef struct
{
  GAsyncQueue *done;
  OviOpRow *row;
  GCancellable *cancellable;
  OviOpStats stats;
} StatsJob;

static void
stats_job_free (gpointer data)
{
  StatsJob *job = data;

  g_clear_pointer (&job->done, g_async_queue_unref);
  g_object_unref (job->row);
  g_object_unref (job->cancellable);
  g_free (job);
}

static void
stats_job_done (OviWindow *self, StatsJob *job)
{
  if (!g_cancellable_is_cancelled (job->cancellable))
    {
      ovi_op_row_set_stats (job->row, &job->stats);
      g_assert (self->pending_stats > 0);
      if (--self->pending_stats == 0)
        {
          GtkSorter *sorter = gtk_column_view_get_sorter (self->op_view);

          /* Sorting and filtering do not follow item changes by themselves;
           * redoing them for nothing would rebuild the rows in view. */
          if (gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
            gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
          if (gtk_toggle_button_get_active (self->abnormal_toggle))
            gtk_filter_changed (GTK_FILTER (self->op_custom_filter), GTK_FILTER_CHANGE_DIFFERENT);
        }
    }
  stats_job_free (job);
}

/* Takes in the workers' results a few milliseconds at a time, so that a
 * folder of 100 000 operators never holds the main loop up. */
static gboolean
drain_stats (gpointer data)
{
  OviWindow *self = data;
  gint64 deadline = g_get_monotonic_time () + 5 * 1000;
  StatsJob *job;

  while (g_get_monotonic_time () < deadline && (job = g_async_queue_try_pop (self->stats_done)))
    stats_job_done (self, job);
  if (self->pending_stats > 0 || g_async_queue_length (self->stats_done) > 0)
    return G_SOURCE_CONTINUE;
  self->stats_drain_id = 0;
  return G_SOURCE_REMOVE;
}

static void
stats_worker (gpointer data, gpointer user_data)
{
  StatsJob *job = data;
  GAsyncQueue *done;
  int saved_nice = ovi_thread_set_nice (10); /* the window's thread comes first */

  if (!g_cancellable_is_cancelled (job->cancellable))
    {
      ovi_op_stats_compute (ovi_op_row_get_file (job->row), job->cancellable, &job->stats);
      ovi_dump_file_classify (ovi_op_row_get_file (job->row));
    }
  ovi_thread_set_nice (saved_nice);
  /* Cancelled or not: the main thread drops cancelled jobs, or the queue
   * frees them once the window has gone. */
  done = g_steal_pointer (&job->done);
  g_async_queue_push (done, job);
  g_async_queue_unref (done);
}

/* --- folder models ------------------------------------------------------ */

/* GTK 4.8 builds the widgets of the first 200 rows of a list as soon as the
 * rows exist, in view or not (GTK_LIST_VIEW_MAX_LIST_ITEMS), and measures
 * them at the next frame. A table that received its first thousand rows at
 * once would build them all in one long main-loop turn, so each table shows
 * its rows through a slice that grows by a few rows a frame until it holds
 * that many, and then shows everything: later rows come after those and
 * build nothing. */
#define FIRST_ROWS 200
#define ROWS_PER_FRAME 5

/* Returns whether @slice still hides rows. It grows once the table has
 * filtered the rows it already shows: the filter takes its new rows in an
 * idle, and a slice grown at every frame regardless would hand it the rows
 * of several frames at once. */
static gboolean
grow_slice (GtkSliceListModel *slice, GtkFilterListModel *filtered)
{
  guint size = gtk_slice_list_model_get_size (slice);
  GListModel *model = gtk_slice_list_model_get_model (slice);

  if (size == G_MAXUINT || model == NULL || g_list_model_get_n_items (model) <= size)
    return FALSE;
  if (gtk_filter_list_model_get_pending (filtered) > 0)
    return TRUE;
  gtk_slice_list_model_set_size (
      slice, size + ROWS_PER_FRAME >= FIRST_ROWS ? G_MAXUINT : size + ROWS_PER_FRAME);
  return TRUE;
}

static gboolean
grow_tables (GtkWidget *widget, GdkFrameClock *frame_clock, gpointer data)
{
  OviWindow *self = OVI_WINDOW (widget);
  gboolean more = grow_slice (self->record_slice, self->record_filter_model);

  more |= grow_slice (self->op_slice, self->op_filter_model);
  if (more)
    return G_SOURCE_CONTINUE;
  self->grow_id = 0;
  return G_SOURCE_REMOVE;
}

static void
table_rows_changed (OviWindow *self)
{
  if (self->grow_id != 0)
    return;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->grow_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), grow_tables, NULL, NULL);
  else /* no frames to spread the rows over, and no rows built yet */
    {
      gtk_slice_list_model_set_size (self->record_slice, G_MAXUINT);
      gtk_slice_list_model_set_size (self->op_slice, G_MAXUINT);
    }
}

/* Operators in the order they ran: by timestamp, then by path. */
static int
compare_rows (OviOpRow *a, OviOpRow *b)
{
  OviDumpFile *x = ovi_op_row_get_file (a), *y = ovi_op_row_get_file (b);
  guint64 tx = ovi_dump_file_get_timestamp (x), ty = ovi_dump_file_get_timestamp (y);

  if (tx != ty)
    return tx < ty ? -1 : 1;
  return g_strcmp0 (ovi_dump_file_get_relative_path (x), ovi_dump_file_get_relative_path (y));
}

static int
compare_row_pointers (gconstpointer a, gconstpointer b)
{
  return compare_rows (*(OviOpRow **) a, *(OviOpRow **) b);
}

/* The store itself is kept in the order the operators ran, the table's
 * default, rather than sorted by a column: new rows then land after the
 * rows in view (or among the last few), and GTK 4.8, which rebuilds the
 * visible rows at every step of an incremental sort, has nothing to
 * rebuild while a big folder scans. */
static gboolean
flush_rows (gpointer data)
{
  OviWindow *self = data;
  GListModel *rows = G_LIST_MODEL (self->op_rows);
  guint n = g_list_model_get_n_items (rows), lo = 0, hi = n;
  g_autoptr (GPtrArray) merged = NULL;

  self->rows_flush_id = 0;
  if (self->pending_rows->len == 0)
    return G_SOURCE_REMOVE;
  g_ptr_array_sort (self->pending_rows, compare_row_pointers);
  /* The first stored row that comes after the earliest new one. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      g_autoptr (OviOpRow) row = g_list_model_get_item (rows, mid);

      if (compare_rows (row, g_ptr_array_index (self->pending_rows, 0)) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  merged = g_ptr_array_new_full (n - lo + self->pending_rows->len, g_object_unref);
  for (guint i = lo; i < n; i++)
    g_ptr_array_add (merged, g_list_model_get_item (rows, i));
  g_ptr_array_extend_and_steal (merged, g_steal_pointer (&self->pending_rows));
  self->pending_rows = g_ptr_array_new_with_free_func (g_object_unref);
  if (lo < n)
    g_ptr_array_sort (merged, compare_row_pointers);
  g_list_store_splice (self->op_rows, lo, n - lo, merged->pdata, merged->len);
  return G_SOURCE_REMOVE;
}

static void
add_files (OviWindow *self, GListModel *files, guint position, guint n)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = position; i < position + n; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      OviOpRow *row;
      StatsJob *job;

      ovi_tree_node_add_file (self->tree_root, file);
      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP)
        continue;
      row = ovi_op_row_new (file);
      g_hash_table_insert (self->op_row_index, file, row);
      g_ptr_array_add (rows, row);

      job = g_new0 (StatsJob, 1);
      job->done = g_async_queue_ref (self->stats_done);
      job->row = g_object_ref (row);
      job->cancellable = g_object_ref (self->stats_cancellable);
      self->pending_stats++;
      g_thread_pool_push (self->stats_pool, job, NULL);
    }
  if (self->pending_stats > 0 && self->stats_drain_id == 0)
    self->stats_drain_id = g_timeout_add (20, drain_stats, self);
  /* Each change to a sorted table rebuilds its visible rows: while a big
   * folder scans, the operator table takes its new rows a few times a
   * second instead of with every slice of files. */
  g_ptr_array_extend_and_steal (self->pending_rows, g_steal_pointer (&rows));
  if (self->rows_flush_id == 0)
    self->rows_flush_id = g_timeout_add (300, flush_rows, self);
}

static void
files_changed (OviWindow *self, guint position, guint removed, guint added, GListModel *files)
{
  /* The folder only appends while it scans and empties itself on reload. */
  if (removed > 0)
    return;
  add_files (self, files, position, added);
}

static void
records_changed (OviWindow *self, guint position, guint removed, guint added, GListModel *records)
{
  table_rows_changed (self);
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);

      if (file != NULL)
        ovi_tree_node_add_record (self->tree_root, file);
    }
}

static gboolean
record_filter_func (gpointer item, gpointer user_data)
{
  OviWindow *self = user_data;
  OviOverflowRecord *record = item;
  guint unit = gtk_drop_down_get_selected (self->unit_dropdown);

  if (unit != GTK_INVALID_LIST_POSITION && unit > 0 &&
      ovi_overflow_record_get_unit (record) != unit - 1)
    return FALSE;
  return self->tree_node == NULL ||
         ovi_tree_node_matches (self->tree_node, ovi_overflow_record_get_file (record));
}

static gboolean
op_filter_func (gpointer item, gpointer user_data)
{
  OviWindow *self = user_data;
  OviOpRow *row = item;

  if (gtk_toggle_button_get_active (self->abnormal_toggle) && !ovi_op_row_get_abnormal (row))
    return FALSE;
  return self->tree_node == NULL ||
         ovi_tree_node_matches (self->tree_node, ovi_op_row_get_file (row));
}

static void
filters_changed (OviWindow *self)
{
  if (self->record_custom_filter != NULL)
    gtk_filter_changed (GTK_FILTER (self->record_custom_filter), GTK_FILTER_CHANGE_DIFFERENT);
  if (self->op_custom_filter != NULL)
    gtk_filter_changed (GTK_FILTER (self->op_custom_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
tree_selection_changed (OviWindow *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->tree_selection);

  self->tree_node = row ? gtk_tree_list_row_get_item (row) : NULL;
  /* The row holds a reference; the root holds the node for its lifetime. */
  if (self->tree_node != NULL)
    g_object_unref (self->tree_node);
  filters_changed (self);
}

static GListModel *
create_tree_children (gpointer item, gpointer user_data)
{
  GListModel *children = ovi_tree_node_get_children (item);

  return children ? g_object_ref (children) : NULL;
}

static void
record_selection_changed (OviWindow *self)
{
  OviOverflowRecord *record;

  if (self->record_details == NULL)
    return; /* disposing */
  record = gtk_single_selection_get_selected_item (self->record_selection);
  ovi_record_view_set_record (self->record_details, record);
  update_actions (self);
}

static void
op_selection_changed (OviWindow *self)
{
  OviOpRow *row;

  if (self->tensor_view == NULL)
    return; /* disposing */
  row = gtk_single_selection_get_selected_item (self->op_selection);
  if (row != NULL)
    ovi_tensor_view_set_file (self->tensor_view, ovi_op_row_get_file (row));
  update_actions (self);
}

static void
select_first_record (OviWindow *self)
{
  if (gtk_single_selection_get_selected_item (self->record_selection) == NULL &&
      g_list_model_get_n_items (G_LIST_MODEL (self->record_selection)) > 0)
    gtk_single_selection_set_selected (self->record_selection, 0);
}

static void
load_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviWindow) self = user_data;
  OviDumpFolder *folder = OVI_DUMP_FOLDER (object);
  g_autoptr (GError) error = NULL;

  if (!ovi_dump_folder_load_finish (folder, result, &error))
    {
      if (folder != self->folder)
        return;
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (self, _ ("Scan cancelled: showing what was found so far"));
      else
        show_error (self, error);
    }
  if (folder != self->folder)
    return;

  if (self->rows_flush_id != 0)
    {
      g_source_remove (self->rows_flush_id);
      flush_rows (self);
    }
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  update_progress (self);
  update_actions (self);
  update_record_stack (self);
  select_first_record (self);
  if (ovi_record_view_get_record (self->record_details) != NULL)
    {
      OviDumpFile *op =
          ovi_overflow_record_get_op (ovi_record_view_get_record (self->record_details));

      if (op != NULL)
        {
          ovi_compare_view_select_op (self->compare_view, ovi_dump_file_get_op_name (op));
          /* Until the user picks one, the tensor view shows the operator of
           * the selected record, so "Selected Tensor" exports have a target. */
          if (ovi_tensor_view_get_file (self->tensor_view) == NULL)
            ovi_tensor_view_set_file (self->tensor_view, op);
        }
    }
}

/* The ignore list from the settings, applied to the open folder: records
 * of ignored operators are greyed and skipped for "first overflow". */
static void
apply_ignore_list (OviWindow *self)
{
  g_auto (GStrv) patterns = NULL;
  g_autoptr (OviIgnoreList) list = NULL;

  if (self->folder == NULL || self->settings == NULL)
    return;
  patterns = g_settings_get_strv (self->settings, "ignore-patterns");
  list = ovi_ignore_list_new ((const char *const *) patterns);
  ovi_dump_folder_set_ignore_list (self->folder, ovi_ignore_list_get_size (list) ? list : NULL);
}

static void
ignore_list_changed (OviWindow *self)
{
  g_autoptr (OviOverflowRecord) record = NULL;

  apply_ignore_list (self);
  update_record_stack (self);
  /* The details pane says whether its record is ignored. */
  if ((record = ovi_record_view_get_record (self->record_details)))
    {
      g_object_ref (record);
      ovi_record_view_set_record (self->record_details, NULL);
      ovi_record_view_set_record (self->record_details, record);
    }
}

static void
ignore_op_type_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  g_auto (GStrv) patterns = g_settings_get_strv (self->settings, "ignore-patterns");
  g_autofree char *pattern = g_strdup_printf ("type:%s", g_variant_get_string (parameter, NULL));
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) result = NULL;
  g_autofree char *message = NULL;

  if (g_strv_contains ((const char *const *) patterns, pattern))
    return;
  g_strv_builder_addv (builder, (const char **) patterns);
  g_strv_builder_add (builder, pattern);
  result = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "ignore-patterns", (const char *const *) result);
  /* Translators: %s is an operator type such as Cast */
  message = g_strdup_printf (_ ("Operators of type %s are now ignored"),
                             g_variant_get_string (parameter, NULL));
  show_toast (self, message);
}

static void
edit_ignore_list_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);

  gtk_window_present (ovi_ignore_window_new (GTK_WINDOW (self), self->settings));
}

static void
rebuild_recent (OviWindow *self)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-folders");

  for (guint i = 0; i < self->recent_rows->len; i++)
    adw_preferences_group_remove (self->recent_group, g_ptr_array_index (self->recent_rows, i));
  g_ptr_array_set_size (self->recent_rows, 0);

  for (guint i = 0; recent[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *name = g_path_get_basename (recent[i]);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), recent[i]);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-path");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", recent[i]);
      adw_preferences_group_add (self->recent_group, row);
      g_ptr_array_add (self->recent_rows, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), recent[0] != NULL);
}

static void
close_folder (OviWindow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->stats_cancellable);
  g_clear_object (&self->stats_cancellable);
  if (self->folder != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->folder, self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_files (self->folder), self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_records (self->folder), self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_problems (self->folder), self);
    }
  gtk_slice_list_model_set_model (self->record_slice, NULL);
  gtk_sort_list_model_set_model (self->problem_sort_model, NULL);
  gtk_single_selection_set_model (self->tree_selection, NULL);
  ovi_record_view_set_record (self->record_details, NULL);
  ovi_tensor_view_set_file (self->tensor_view, NULL);
  ovi_compare_view_set_folder (self->compare_view, NULL);
  g_clear_handle_id (&self->rows_flush_id, g_source_remove);
  if (self->grow_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->grow_id);
  self->grow_id = 0;
  gtk_slice_list_model_set_size (self->record_slice, ROWS_PER_FRAME);
  gtk_slice_list_model_set_size (self->op_slice, ROWS_PER_FRAME);
  g_ptr_array_set_size (self->pending_rows, 0);
  g_list_store_remove_all (self->op_rows);
  g_hash_table_remove_all (self->op_row_index);
  self->tree_node = NULL;
  self->pending_stats = 0;
  g_clear_object (&self->tree_root);
  g_clear_object (&self->folder);
}

static void
load_folder (OviWindow *self, GFile *root)
{
  g_autoptr (GtkTreeListModel) tree = NULL;
  g_autoptr (GListStore) roots = NULL;
  g_autofree char *path = g_file_get_path (root);
  g_autofree char *name = g_file_get_basename (root);

  close_folder (self);

  self->folder = ovi_dump_folder_new (root);
  self->cancellable = g_cancellable_new ();
  self->stats_cancellable = g_cancellable_new ();
  self->tree_root = ovi_tree_node_new_root (name);

  roots = g_list_store_new (OVI_TYPE_TREE_NODE);
  g_list_store_append (roots, self->tree_root);
  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&roots)), FALSE, TRUE,
                                  create_tree_children, NULL, NULL);
  gtk_single_selection_set_model (self->tree_selection, G_LIST_MODEL (tree));

  g_signal_connect_swapped (self->folder, "notify::files-seen", G_CALLBACK (update_progress), self);
  g_signal_connect_swapped (self->folder, "notify::loading", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (ovi_dump_folder_get_files (self->folder), "items-changed",
                            G_CALLBACK (files_changed), self);
  g_signal_connect_swapped (ovi_dump_folder_get_records (self->folder), "items-changed",
                            G_CALLBACK (records_changed), self);
  g_signal_connect_swapped (ovi_dump_folder_get_problems (self->folder), "items-changed",
                            G_CALLBACK (update_problems), self);

  gtk_slice_list_model_set_model (self->record_slice, ovi_dump_folder_get_records (self->folder));
  ovi_compare_view_set_folder (self->compare_view, self->folder);
  gtk_sort_list_model_set_model (self->problem_sort_model,
                                 ovi_dump_folder_get_problems (self->folder));

  gtk_window_set_title (GTK_WINDOW (self), name);
  adw_window_title_set_subtitle (self->window_title, path);
  gtk_stack_set_visible_child_name (self->title_stack, "switcher");
  gtk_stack_set_visible_child_name (self->main_stack, "folder");
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);

  ovi_application_add_recent (OVI_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                              path);
  apply_ignore_list (self);
  ovi_dump_folder_load_async (self->folder, self->cancellable, load_done, g_object_ref (self));
  update_problems (self);
  update_progress (self);
  update_actions (self);
  update_record_stack (self);
}

/* --- opening ------------------------------------------------------------ */

void
ovi_window_open_file (OviWindow *self, GFile *file)
{
  g_autofree char *path = NULL;

  g_return_if_fail (OVI_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  path = g_file_get_path (file);
  if (path == NULL)
    {
      show_toast (self, _ ("Only local folders can be opened"));
      return;
    }
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_UNKNOWN)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_ ("“%s” does not exist"), name);

      show_toast (self, message);
      return;
    }
  load_folder (self, file);
}

#if GTK_CHECK_VERSION(4, 10, 0)
static void
folder_chosen (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviWindow) self = user_data;
  g_autoptr (GFile) file =
      gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    ovi_window_open_file (self, file);
}
#else
static void
folder_chosen (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  g_autoptr (OviWindow) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        ovi_window_open_file (self, file);
    }
  g_object_unref (dialog);
}
#endif

static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);

#if GTK_CHECK_VERSION(4, 10, 0)
  g_autoptr (GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _ ("Open Dump Folder"));
  gtk_file_dialog_select_folder (dialog, GTK_WINDOW (self), NULL, folder_chosen,
                                 g_object_ref (self));
#else
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      _ ("Open Dump Folder"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Open"),
      _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (folder_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
#endif
}

static void
open_example_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autofree char *path = ovi_application_dup_example_dir ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  ovi_window_open_file (OVI_WINDOW (widget), file);
}

static void
open_path_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autoptr (GFile) file = g_file_new_for_path (g_variant_get_string (parameter, NULL));

  ovi_window_open_file (OVI_WINDOW (widget), file);
}

static void
reload_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  g_autoptr (GFile) root = NULL;

  if (self->folder == NULL)
    return;
  root = g_object_ref (ovi_dump_folder_get_root (self->folder));
  load_folder (self, root);
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_cancellable_cancel (OVI_WINDOW (widget)->cancellable);
}

static void
search_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);

  if (self->folder == NULL)
    return;
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "operators") == 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->op_search));
  else
    {
      adw_view_stack_set_visible_child_name (self->view_stack, "overflows");
      gtk_widget_grab_focus (GTK_WIDGET (self->record_search));
    }
}

static void
show_problems_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ovi_window_show_page (OVI_WINDOW (widget), "problems");
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, OviWindow *self)
{
  GSList *files = g_value_get_boxed (value);

  if (files == NULL)
    return FALSE;
  ovi_window_open_file (self, files->data);
  return TRUE;
}

/* --- export ------------------------------------------------------------- */

gboolean
ovi_window_export_to_path (OviWindow *self, OviWindowExport what, const char *path, GError **error)
{
  OviTensor *tensor = ovi_tensor_view_get_tensor (self->tensor_view);
  OviOverflowRecord *record = gtk_single_selection_get_selected_item (self->record_selection);
  g_autofree char *contents = NULL;

  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->folder == NULL)
    {
      g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                           _ ("No folder is open"));
      return FALSE;
    }
  if (ovi_dump_folder_contains_path (self->folder, path))
    {
      g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_INSIDE_DUMP,
                           _ ("Not written: the destination is inside the inspected folder. Choose "
                              "another folder."));
      return FALSE;
    }

  switch (what)
    {
    case OVI_WINDOW_EXPORT_REPORT_JSON:
    case OVI_WINDOW_EXPORT_REPORT_TEXT:
      contents = what == OVI_WINDOW_EXPORT_REPORT_JSON ? ovi_report_to_json (self->folder)
                                                       : ovi_report_to_text (self->folder);
      return ovi_export_write_contents (path, contents, strlen (contents),
                                        OVI_EXPORT_FLAGS_OVERWRITE, error);
    case OVI_WINDOW_EXPORT_TENSOR_NPY:
    case OVI_WINDOW_EXPORT_TENSOR_TXT:
      if (tensor == NULL)
        {
          g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                               _ ("No tensor is selected"));
          return FALSE;
        }
      return ovi_export_tensor (
          tensor, what == OVI_WINDOW_EXPORT_TENSOR_NPY ? OVI_EXPORT_NPY : OVI_EXPORT_TXT, path,
          OVI_EXPORT_FLAGS_OVERWRITE, error);
    case OVI_WINDOW_EXPORT_OVERFLOW_JSON:
      if (record == NULL || ovi_overflow_record_get_file (record) == NULL)
        {
          g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                               _ ("No overflow record is selected"));
          return FALSE;
        }
      return ovi_export_overflow_json (ovi_overflow_record_get_file (record), path,
                                       OVI_EXPORT_FLAGS_OVERWRITE, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

static void
open_folder_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autoptr (GFile) file = g_file_new_for_path (g_variant_get_string (parameter, NULL));

#if GTK_CHECK_VERSION(4, 10, 0)
  g_autoptr (GtkFileLauncher) launcher = gtk_file_launcher_new (file);

  gtk_file_launcher_open_containing_folder (launcher, GTK_WINDOW (widget), NULL, NULL, NULL);
#else
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autofree char *uri = g_file_get_uri (parent ? parent : file);

  gtk_show_uri (GTK_WINDOW (widget), uri, GDK_CURRENT_TIME);
#endif
}

static void
export_to_file (OviWindow *self, OviWindowExport what, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (path == NULL)
    {
      show_toast (self, _ ("Only local files can be written"));
      return;
    }
  if (!ovi_window_export_to_path (self, what, path, &error))
    {
      show_error (self, error);
      return;
    }
  name = g_path_get_basename (path);
  title = g_strdup_printf (_ ("Exported “%s”"), name);
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _ ("Open Folder"));
  adw_toast_set_action_name (toast, "win.open-folder");
  adw_toast_set_action_target_value (toast, g_variant_new_string (path));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

#if GTK_CHECK_VERSION(4, 10, 0)
static void
save_chosen (GObject *object, GAsyncResult *result, gpointer user_data)
{
  OviWindow *self = OVI_WINDOW (g_object_get_data (object, "window"));
  g_autoptr (GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    export_to_file (self, GPOINTER_TO_INT (user_data), file);
  g_object_unref (self);
}
#else
static void
save_chosen (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  OviWindow *self = OVI_WINDOW (g_object_get_data (G_OBJECT (dialog), "window"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        export_to_file (self, GPOINTER_TO_INT (user_data), file);
    }
  g_object_unref (self);
  g_object_unref (dialog);
}
#endif

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  OviWindowExport what;
  g_autofree char *name = NULL;
  g_autoptr (GFile) home = g_file_new_for_path (g_get_home_dir ());
  OviOverflowRecord *record = gtk_single_selection_get_selected_item (self->record_selection);
  OviTensor *tensor = ovi_tensor_view_get_tensor (self->tensor_view);

  if (g_str_equal (action_name, "win.export-report-json"))
    what = OVI_WINDOW_EXPORT_REPORT_JSON, name = g_strdup ("overflow-report.json");
  else if (g_str_equal (action_name, "win.export-report-text"))
    what = OVI_WINDOW_EXPORT_REPORT_TEXT, name = g_strdup ("overflow-report.txt");
  else if (g_str_equal (action_name, "win.export-tensor-npy") && tensor != NULL)
    what = OVI_WINDOW_EXPORT_TENSOR_NPY,
    name = ovi_export_tensor_file_name (tensor, OVI_EXPORT_NPY);
  else if (g_str_equal (action_name, "win.export-tensor-txt") && tensor != NULL)
    what = OVI_WINDOW_EXPORT_TENSOR_TXT,
    name = ovi_export_tensor_file_name (tensor, OVI_EXPORT_TXT);
  else if (g_str_equal (action_name, "win.export-overflow-json") && record != NULL &&
           ovi_overflow_record_get_file (record) != NULL)
    what = OVI_WINDOW_EXPORT_OVERFLOW_JSON,
    name = ovi_export_overflow_file_name (ovi_overflow_record_get_file (record));
  else
    return;

#if GTK_CHECK_VERSION(4, 10, 0)
  {
    g_autoptr (GtkFileDialog) dialog = gtk_file_dialog_new ();

    gtk_file_dialog_set_title (dialog, _ ("Export"));
    gtk_file_dialog_set_initial_name (dialog, name);
    gtk_file_dialog_set_initial_folder (dialog, home);
    g_object_set_data (G_OBJECT (dialog), "window", self);
    g_object_ref (self);
    gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, save_chosen, GINT_TO_POINTER (what));
  }
#else
  {
    GtkFileChooserNative *dialog =
        gtk_file_chooser_native_new (_ ("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                     _ ("_Export"), _ ("_Cancel"));

    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), home, NULL);
    g_object_set_data (G_OBJECT (dialog), "window", g_object_ref (self));
    g_signal_connect (dialog, "response", G_CALLBACK (save_chosen), GINT_TO_POINTER (what));
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

static void
export_menu_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_menu_button_popup (OVI_WINDOW (widget)->export_button);
}

/* --- window ------------------------------------------------------------- */

static void
show_tensor_cb (OviWindow *self, OviDumpFile *op, guint index, OviRecordView *view)
{
  ovi_window_show_tensor (self, op, index);
}

static void
tensor_changed (OviWindow *self)
{
  update_actions (self);
}

static gboolean
ovi_window_close_request (GtkWindow *window)
{
  OviWindow *self = OVI_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  g_cancellable_cancel (self->cancellable);

  return GTK_WINDOW_CLASS (ovi_window_parent_class)->close_request (window);
}

/* Called once the window has its application, which non-construct
 * properties only get after constructed(). */
static void
setup_settings (OviWindow *self, OviApplication *app)
{
  self->settings = g_object_ref (ovi_application_get_settings (app));
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_settings_bind (self->settings, "sidebar-width", self->sidebar_paned, "position",
                   G_SETTINGS_BIND_DEFAULT);
  ovi_tensor_view_bind_settings (self->tensor_view, self->settings);
  ovi_compare_view_bind_settings (self->compare_view, self->settings);
  g_signal_connect_object (self->settings, "changed::recent-folders", G_CALLBACK (rebuild_recent),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::ignore-patterns",
                           G_CALLBACK (ignore_list_changed), self, G_CONNECT_SWAPPED);
  rebuild_recent (self);
}

static void
ovi_window_dispose (GObject *object)
{
  OviWindow *self = OVI_WINDOW (object);

  if (self->op_rows != NULL)
    {
      close_folder (self);
      g_signal_handlers_disconnect_by_data (self->tensor_view, self);
      g_signal_handlers_disconnect_by_data (self->record_details, self);
      g_signal_handlers_disconnect_by_data (self->record_filter_model, self);
    }
  self->record_custom_filter = NULL;
  self->op_custom_filter = NULL;
  if (self->stats_pool != NULL)
    {
      /* Jobs check their cancellable and finish quickly; do not wait. */
      g_thread_pool_free (self->stats_pool, FALSE, FALSE);
      self->stats_pool = NULL;
    }
  g_clear_handle_id (&self->stats_drain_id, g_source_remove);
  if (self->stats_done != NULL)
    {
      StatsJob *job;
      while ((job = g_async_queue_try_pop (self->stats_done)))
        stats_job_free (job);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->op_rows);
  g_clear_pointer (&self->op_row_index, g_hash_table_unref);
  g_clear_pointer (&self->recent_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (ovi_window_parent_class)->dispose (object);
}

static void
ovi_window_finalize (GObject *object)
{
  OviWindow *self = OVI_WINDOW (object);

  g_clear_pointer (&self->stats_done, g_async_queue_unref);
  g_clear_pointer (&self->pending_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (ovi_window_parent_class)->finalize (object);
}

static void
ovi_window_class_init (OviWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = ovi_window_dispose;
  object_class->finalize = ovi_window_finalize;
  window_class->close_request = ovi_window_close_request;

  g_type_ensure (OVI_TYPE_COMPARE_VIEW);
  g_type_ensure (OVI_TYPE_OP_ROW);
  g_type_ensure (OVI_TYPE_OVERFLOW_RECORD);
  g_type_ensure (OVI_TYPE_PROBLEM);
  g_type_ensure (OVI_TYPE_RECORD_VIEW);
  g_type_ensure (OVI_TYPE_TENSOR_VIEW);
  g_type_ensure (OVI_TYPE_TREE_NODE);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-window.ui");
  gtk_widget_class_bind_template_child (widget_class, OviWindow, abnormal_toggle);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, compare_view);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_filter);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_search);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_selection);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_slice);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, op_view);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problem_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problem_view);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_button);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_content);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_details);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_empty_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_filter);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_search);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_selection);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_slice);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, record_view);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, sidebar_paned);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, start_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, tensor_view);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, title_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, tree_selection);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, unit_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, unit_list);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, window_title);

  gtk_widget_class_bind_template_callback (widget_class, count_badge_classes);
  gtk_widget_class_bind_template_callback (widget_class, count_classes);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed);
  gtk_widget_class_bind_template_callback (widget_class, first_classes);
  gtk_widget_class_bind_template_callback (widget_class, format_count);
  gtk_widget_class_bind_template_callback (widget_class, format_max_abs);
  gtk_widget_class_bind_template_callback (widget_class, format_op_name);
  gtk_widget_class_bind_template_callback (widget_class, format_position);
  gtk_widget_class_bind_template_callback (widget_class, iteration_number);
  gtk_widget_class_bind_template_callback (widget_class, max_abs_classes);
  gtk_widget_class_bind_template_callback (widget_class, op_name_classes);
  gtk_widget_class_bind_template_callback (widget_class, not_ignored);
  gtk_widget_class_bind_template_callback (widget_class, op_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, record_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, search_text);
  gtk_widget_class_bind_template_callback (widget_class, tree_selection_changed);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-example", NULL, open_example_action);
  gtk_widget_class_install_action (widget_class, "win.open-path", "s", open_path_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", "s", open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "win.edit-ignore-list", NULL,
                                   edit_ignore_list_action);
  gtk_widget_class_install_action (widget_class, "win.ignore-op-type", "s", ignore_op_type_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.show-problems", NULL, show_problems_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_menu_action);
  gtk_widget_class_install_action (widget_class, "win.export-report-json", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-report-text", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-tensor-npy", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-tensor-txt", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-overflow-json", NULL, export_action);
}

static void
ovi_window_init (OviWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->recent_rows = g_ptr_array_new ();
  self->op_rows = g_list_store_new (OVI_TYPE_OP_ROW);
  self->op_row_index = g_hash_table_new (NULL, NULL);
  self->stats_pool = g_thread_pool_new (stats_worker, NULL, 2, FALSE, NULL);
  self->stats_done = g_async_queue_new_full (stats_job_free);
  self->pending_rows = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_slice_list_model_set_model (self->op_slice, G_LIST_MODEL (self->op_rows));
  g_signal_connect_swapped (self->op_rows, "items-changed", G_CALLBACK (table_rows_changed), self);

  gtk_string_list_append (self->unit_list, _ ("All Units"));
  for (OviUnit unit = 0; unit <= OVI_UNIT_LAST; unit++)
    gtk_string_list_append (self->unit_list, ovi_unit_name (unit));

  self->record_custom_filter = gtk_custom_filter_new (record_filter_func, self, NULL);
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->record_filter),
                           GTK_FILTER (self->record_custom_filter));
  self->op_custom_filter = gtk_custom_filter_new (op_filter_func, self, NULL);
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->op_filter), GTK_FILTER (self->op_custom_filter));

  g_signal_connect_swapped (self->record_filter_model, "items-changed",
                            G_CALLBACK (update_record_stack), self);
  g_signal_connect_swapped (self->record_filter_model, "items-changed",
                            G_CALLBACK (select_first_record), self);
  g_signal_connect_swapped (self->record_details, "show-tensor", G_CALLBACK (show_tensor_cb), self);
  g_signal_connect_swapped (self->tensor_view, "notify::tensor", G_CALLBACK (tensor_changed), self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  /* The application icon once installed; a generic one when run from the
   * build tree. */
  if (gtk_icon_theme_has_icon (
          gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (self))), APP_ID))
    adw_status_page_set_icon_name (self->start_page, APP_ID);

  gtk_stack_set_visible_child_name (self->main_stack, "start");
  gtk_stack_set_visible_child_name (self->title_stack, "title");
  update_actions (self);
}

OviWindow *
ovi_window_new (OviApplication *application)
{
  OviWindow *self = g_object_new (OVI_TYPE_WINDOW, "application", application, NULL);

  setup_settings (self, application);
  return self;
}

OviDumpFolder *
ovi_window_get_folder (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), NULL);
  return self->folder;
}

gboolean
ovi_window_get_loading (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);
  return self->folder != NULL && ovi_dump_folder_get_loading (self->folder);
}

guint
ovi_window_get_pending_stats (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), 0);
  return self->pending_stats;
}

/**
 * ovi_window_get_busy:
 *
 * Returns: %TRUE while the window scans, computes operator statistics,
 *   still adds rows to its tables or still sorts or filters them
 */
gboolean
ovi_window_get_busy (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);
  return ovi_window_get_loading (self) || self->pending_stats > 0 || self->rows_flush_id != 0 ||
         self->grow_id != 0 || gtk_sort_list_model_get_pending (self->record_sort_model) > 0 ||
         gtk_filter_list_model_get_pending (self->record_filter_model) > 0 ||
         gtk_sort_list_model_get_pending (self->op_sort_model) > 0 ||
         gtk_filter_list_model_get_pending (self->op_filter_model) > 0;
}

void
ovi_window_show_page (OviWindow *self, const char *name)
{
  g_return_if_fail (OVI_IS_WINDOW (self));
  adw_view_stack_set_visible_child_name (self->view_stack, name);
}

void
ovi_window_show_tensor (OviWindow *self, OviDumpFile *op, guint index)
{
  OviOpRow *row;
  guint n;

  g_return_if_fail (OVI_IS_WINDOW (self));
  g_return_if_fail (OVI_IS_DUMP_FILE (op));

  row = g_hash_table_lookup (self->op_row_index, op);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->op_selection));
  for (guint i = 0; row != NULL && i < n; i++)
    {
      g_autoptr (OviOpRow) item = g_list_model_get_item (G_LIST_MODEL (self->op_selection), i);

      if (item == row)
        {
          gtk_single_selection_set_selected (self->op_selection, i);
          break;
        }
    }
  ovi_tensor_view_set_file (self->tensor_view, op);
  ovi_tensor_view_select_tensor (self->tensor_view, index);
  ovi_window_show_page (self, "operators");
}

gboolean
ovi_window_select_record (OviWindow *self, OviOverflowRecord *record)
{
  guint n;

  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->record_selection));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviOverflowRecord) item =
          g_list_model_get_item (G_LIST_MODEL (self->record_selection), i);

      if (item == record)
        {
          gtk_single_selection_set_selected (self->record_selection, i);
          ovi_window_show_page (self, "overflows");
          return TRUE;
        }
    }
  return FALSE;
}

GtkColumnView *
ovi_window_get_record_view (OviWindow *self)
{
  return self->record_view;
}

GtkColumnView *
ovi_window_get_op_view (OviWindow *self)
{
  return self->op_view;
}

OviRecordView *
ovi_window_get_record_details (OviWindow *self)
{
  return self->record_details;
}

OviTensorView *
ovi_window_get_tensor_view (OviWindow *self)
{
  return self->tensor_view;
}

OviCompareView *
ovi_window_get_compare_view (OviWindow *self)
{
  return self->compare_view;
}

GListModel *
ovi_window_get_tree_model (OviWindow *self)
{
  return G_LIST_MODEL (self->tree_selection);
}

void
ovi_window_select_tree_row (OviWindow *self, guint position)
{
  gtk_single_selection_set_selected (self->tree_selection, position);
}
