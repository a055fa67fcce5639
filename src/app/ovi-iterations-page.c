/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-format.h"
#include "ovi-iterations-page.h"
#include "ovi-scheduler.h"
#include "ovi-tooltip.h"

/* One operator across iterations: the statistics of one of its tensors side
 * by side, their histograms overlaid or stacked, and a grid of operators by
 * iterations showing where overflows happened first and how they spread.
 * The session's OviOpIndex says which file ran which operator in which
 * iteration; the page only shows it. A hidden page does no work: what a
 * selection or a new index asks of it waits until the page is shown. */

/* More histograms than this are unreadable, stacked or overlaid. */
#define MAX_SERIES 8

struct _OviIterationsPage
{
  OviPage parent_instance;

  OviHistogramView *histogram;
  GtkLabel *histogram_note;
  GtkCheckButton *log_check;
  GtkDropDown *op_dropdown;
  GtkStringList *op_list;
  GtkDropDown *from_dropdown;
  GtkDropDown *to_dropdown;
  GtkStringList *iteration_list;
  GtkLabel *range_note;
  GtkSpinner *spinner;
  GtkGrid *spread_grid;
  GtkLabel *spread_note;
  GtkGrid *stats_grid;
  GtkLabel *stats_note;
  GtkGrid *diff_grid;
  GtkLabel *diff_note;
  GtkDropDown *tensor_dropdown;
  GtkStringList *tensor_list;

  OviOpIndex *index; /* the session's */
  GSettings *settings;
  GCancellable *cancellable;
  char *op;
  gboolean busy;
  gboolean stats_stale;  /* the statistics wait for the page to be shown */
  gboolean spread_stale; /* the grid waits for the page to be shown */
  guint spread_task;     /* builds the grid, ovi-scheduler.c's */
};

G_DEFINE_FINAL_TYPE (OviIterationsPage, ovi_iterations_page, OVI_TYPE_PAGE)

static void update_spread (OviIterationsPage *self);

typedef struct
{
  char *iteration;
  OviTensor *tensor;
  OviTensorResult *result;
  char *error;
  struct _Job *job;
} Item;

/* One comparison: a tensor per iteration, analysed by core off the main
 * thread; shown once the last analysis is back. */
typedef struct _Job
{
  OviIterationsPage *self;
  GCancellable *cancellable;
  GPtrArray *items;
  guint pending;
} Job;

static void
item_free (gpointer data)
{
  Item *item = data;

  g_free (item->iteration);
  g_clear_object (&item->tensor);
  g_clear_pointer (&item->result, ovi_tensor_result_unref);
  g_free (item->error);
  g_free (item);
}

static void
job_free (gpointer data)
{
  Job *job = data;

  g_ptr_array_unref (job->items);
  g_object_unref (job->cancellable);
  g_object_unref (job->self);
  g_free (job);
}

/* The iterations of the session's index, by number; none without one. */
static GPtrArray *
iterations_of (OviIterationsPage *self)
{
  static GPtrArray *none;

  if (self->index != NULL)
    return ovi_op_index_get_iterations (self->index);
  if (none == NULL)
    none = g_ptr_array_new ();
  return none;
}

static const char *
shown_name (OviIterationsPage *self, const char *name)
{
  return self->index ? ovi_op_index_get_shown_name (self->index, name) : name;
}

static OviDumpFile *
file_of_op (OviIterationsPage *self, const char *name, const char *iteration)
{
  return self->index && name ? ovi_op_index_lookup (self->index, name, iteration) : NULL;
}

static const char *
iteration_of (OviDumpFile *file)
{
  const char *iteration = ovi_dump_file_get_iteration (file);

  return iteration ? iteration : "";
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
grid_label_span (GtkGrid *grid,
                 int column,
                 int row,
                 int width,
                 int height,
                 const char *text,
                 const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 || width > 1 || height > 1 ? 0 : 1);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "numeric");
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  if (height > 1)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 16);
    }
  gtk_grid_attach (grid, label, column, row, width, height);
  return label;
}

static GtkWidget *
grid_label (GtkGrid *grid, int column, int row, const char *text, const char *css_class)
{
  return grid_label_span (grid, column, row, 1, 1, text, css_class);
}

/* How much a statistic changed from @a to @b; "—" when either has none. */
static char *
format_change (double a, double b)
{
  g_autofree char *text = NULL;

  if (isnan (a) || isnan (b))
    return g_strdup ("—");
  if (a == b)
    return g_strdup ("0");
  text = ovi_format_double (b - a);
  return b > a ? g_strconcat ("+", text, NULL) : g_steal_pointer (&text);
}

static char *
format_count_change (guint64 a, guint64 b)
{
  if (a == b)
    return g_strdup ("0");
  return b > a ? g_strdup_printf ("+%" G_GUINT64_FORMAT, b - a)
               : g_strdup_printf ("−%" G_GUINT64_FORMAT, a - b);
}

/* The first and the last iteration of the range that ran the operator,
 * side by side, with how each statistic changed between them. */
static void
show_difference (OviIterationsPage *self, Job *job)
{
  static const char *names[] = {
    N_ ("Minimum"),     N_ ("Maximum"), N_ ("Mean"), N_ ("Std. dev."),
    N_ ("Largest |x|"), N_ ("NaN"),     N_ ("Inf"),  N_ ("Saturated"),
  };
  Item *a = NULL, *b = NULL;
  const OviStats *sa, *sb;
  g_autofree char *note = NULL;
  g_autofree char *head_a = NULL;
  g_autofree char *head_b = NULL;

  clear_grid (self->diff_grid);
  for (guint i = 0; i < job->items->len; i++)
    {
      Item *item = g_ptr_array_index (job->items, i);

      if (item->result == NULL)
        continue;
      if (a == NULL)
        a = item;
      b = item;
    }
  if (a == NULL || a == b)
    {
      gtk_label_set_text (self->diff_note,
                          _ ("Choose a range with two iterations that ran this operator to see "
                             "them side by side."));
      return;
    }

  note = g_strdup_printf (_ ("Iterations %s and %s, the first and the last of the range that ran "
                             "this operator, and the change from one to the other."),
                          a->iteration, b->iteration);
  gtk_label_set_text (self->diff_note, note);
  sa = ovi_analysis_get_stats (ovi_tensor_result_get_analysis (a->result));
  sb = ovi_analysis_get_stats (ovi_tensor_result_get_analysis (b->result));
  head_a = g_strdup_printf (_ ("Iteration %s"), a->iteration);
  head_b = g_strdup_printf (_ ("Iteration %s"), b->iteration);
  grid_label (self->diff_grid, 1, 0, head_a, "heading");
  grid_label (self->diff_grid, 2, 0, head_b, "heading");
  grid_label (self->diff_grid, 3, 0, _ ("Change"), "heading");
  for (guint r = 0; r < G_N_ELEMENTS (names); r++)
    {
      double values_a[] = { sa->min, sa->max, sa->mean, sa->std, sa->max_abs };
      double values_b[] = { sb->min, sb->max, sb->mean, sb->std, sb->max_abs };
      guint64 counts_a[] = { sa->nan, sa->pos_inf + sa->neg_inf, sa->saturated };
      guint64 counts_b[] = { sb->nan, sb->pos_inf + sb->neg_inf, sb->saturated };
      g_autofree char *text_a = NULL;
      g_autofree char *text_b = NULL;
      g_autofree char *change = NULL;

      if (r < G_N_ELEMENTS (values_a))
        {
          text_a = ovi_format_double (values_a[r]);
          text_b = ovi_format_double (values_b[r]);
          change = format_change (values_a[r], values_b[r]);
        }
      else
        {
          guint c = r - G_N_ELEMENTS (values_a);

          text_a = ovi_format_count (counts_a[c]);
          text_b = ovi_format_count (counts_b[c]);
          change = format_count_change (counts_a[c], counts_b[c]);
        }
      grid_label (self->diff_grid, 0, r + 1, _ (names[r]), NULL);
      grid_label (self->diff_grid, 1, r + 1, text_a, NULL);
      grid_label (self->diff_grid, 2, r + 1, text_b, NULL);
      grid_label (self->diff_grid, 3, r + 1, change,
                  g_str_equal (change, "0") || g_str_equal (change, "—") ? "dim-label" : NULL);
    }
}

/* One column per iteration, one row per statistic: as many iterations as
 * the range holds scroll sideways, and the statistics always fit. */
static void
show_results (OviIterationsPage *self, Job *job)
{
  enum
  {
    ROW_DTYPE = 1,
    ROW_SHAPE,
    ROW_MIN,
    ROW_MAX,
    ROW_MEAN,
    ROW_STD,
    ROW_MAX_ABS,
    ROW_NAN,
    ROW_INF,
    ROW_SATURATED,
    ROW_FIRST,
    N_ROWS
  };
  static const char *names[N_ROWS] = {
    N_ ("Iteration"), N_ ("Data type"), N_ ("Shape"),     N_ ("Minimum"),
    N_ ("Maximum"),   N_ ("Mean"),      N_ ("Std. dev."), N_ ("Largest |x|"),
    N_ ("NaN"),       N_ ("Inf"),       N_ ("Saturated"), N_ ("First non-finite"),
  };
  guint n_hidden = 0;

  clear_grid (self->stats_grid);
  ovi_histogram_view_clear (self->histogram);
  for (guint r = 0; r < N_ROWS; r++)
    grid_label (self->stats_grid, 0, r, _ (names[r]), r == 0 ? "heading" : NULL);

  for (guint i = 0; i < job->items->len; i++)
    {
      Item *item = g_ptr_array_index (job->items, i);
      int column = i + 1;

      grid_label (self->stats_grid, column, 0, item->iteration, "heading");
      if (item->tensor == NULL)
        {
          grid_label_span (self->stats_grid, column, ROW_DTYPE, 1, N_ROWS - ROW_DTYPE,
                           _ ("not dumped in this iteration"), "dim-label");
          continue;
        }
      {
        g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (item->tensor));
        g_autofree char *shape = ovi_tensor_dup_shape_string (item->tensor);

        grid_label (self->stats_grid, column, ROW_DTYPE, dtype, NULL);
        grid_label (self->stats_grid, column, ROW_SHAPE, shape, NULL);
      }
      if (item->result == NULL)
        {
          grid_label_span (self->stats_grid, column, ROW_MIN, 1, N_ROWS - ROW_MIN,
                           item->error ? item->error : "", "error");
          continue;
        }
      {
        const OviStats *s = ovi_analysis_get_stats (ovi_tensor_result_get_analysis (item->result));
        const OviHistogram *histogram = ovi_tensor_result_get_histogram (item->result);
        g_autofree char *min = ovi_format_double (s->min);
        g_autofree char *max = ovi_format_double (s->max);
        g_autofree char *mean = ovi_format_double (s->mean);
        g_autofree char *std = ovi_format_double (s->std);
        g_autofree char *max_abs = ovi_format_double (s->max_abs);
        g_autofree char *nan = ovi_format_count (s->nan);
        g_autofree char *inf = ovi_format_count (s->pos_inf + s->neg_inf);
        g_autofree char *sat = ovi_format_count (s->saturated);
        /* The flat index and the index per dimension, logical for a
         * device layout, as the tensor view and the report give them. */
        g_autofree char *first = s->first_nonfinite >= 0
                                     ? ovi_tensor_dup_position (item->tensor, s->first_nonfinite)
                                     : g_strdup ("—");
        g_autofree char *series = g_strdup_printf (_ ("Iteration %s"), item->iteration);

        grid_label (self->stats_grid, column, ROW_MIN, min, NULL);
        grid_label (self->stats_grid, column, ROW_MAX, max, NULL);
        grid_label (self->stats_grid, column, ROW_MEAN, mean, NULL);
        grid_label (self->stats_grid, column, ROW_STD, std, NULL);
        grid_label (self->stats_grid, column, ROW_MAX_ABS, max_abs,
                    s->saturated ? "warning" : NULL);
        grid_label (self->stats_grid, column, ROW_NAN, nan, s->nan ? "error" : NULL);
        grid_label (self->stats_grid, column, ROW_INF, inf,
                    s->pos_inf + s->neg_inf ? "error" : NULL);
        grid_label (self->stats_grid, column, ROW_SATURATED, sat, s->saturated ? "warning" : NULL);
        grid_label (self->stats_grid, column, ROW_FIRST, first, NULL);
        if (histogram != NULL && ovi_histogram_view_get_n_series (self->histogram) < MAX_SERIES)
          ovi_histogram_view_add_series_full (self->histogram, series, histogram,
                                              ovi_tensor_result_ref (item->result),
                                              (GDestroyNotify) ovi_tensor_result_unref);
        else if (histogram != NULL)
          n_hidden++;
      }
    }

  if (n_hidden > 0)
    {
      guint n_series = ovi_histogram_view_get_n_series (self->histogram);
      g_autofree char *note = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE,
                       "Histograms of the first %u of %u iteration: more are unreadable. "
                       "Narrow the range to see the others.",
                       "Histograms of the first %u of %u iterations: more are unreadable. "
                       "Narrow the range to see the others.",
                       n_series + n_hidden),
          n_series, n_series + n_hidden);

      gtk_label_set_text (self->histogram_note, note);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_note), n_hidden > 0);
  show_difference (self, job);
}

static void
job_finished (Job *job)
{
  OviIterationsPage *self = job->self;

  if (!g_cancellable_is_cancelled (job->cancellable))
    {
      self->busy = FALSE;
      gtk_spinner_set_spinning (self->spinner, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
      show_results (self, job);
    }
  job_free (job);
}

static void
item_analyzed (GObject *object, GAsyncResult *result, gpointer user_data)
{
  Item *item = user_data;
  g_autoptr (GError) error = NULL;

  item->result = ovi_tensor_analyze_finish (OVI_TENSOR (object), result, &error);
  if (item->result == NULL)
    item->error = g_strdup (error->message);
  if (--item->job->pending == 0)
    job_finished (item->job);
}

static OviTensor *
find_tensor (OviDumpFile *file, const char *label)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);

  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      g_autofree char *l = ovi_tensor_dup_label (g_ptr_array_index (tensors, i));

      if (g_strcmp0 (l, label) == 0)
        return g_ptr_array_index (tensors, i);
    }
  return NULL;
}

/* Rows of statistics: each is one tensor read and analysed. */
#define COMPARE_MAX_ITERATIONS 64

/* The iterations the user chose, as indices into iterations_of(). */
static gboolean
get_range (OviIterationsPage *self, guint *from, guint *to)
{
  guint n = iterations_of (self)->len;
  guint a = gtk_drop_down_get_selected (self->from_dropdown);
  guint b = gtk_drop_down_get_selected (self->to_dropdown);

  if (n == 0)
    return FALSE;
  if (a >= n)
    a = 0;
  if (b >= n)
    b = n - 1;
  *from = MIN (a, b);
  *to = MAX (a, b);
  return TRUE;
}

static const char *
compared_label (OviIterationsPage *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->tensor_dropdown);

  return item ? gtk_string_object_get_string (item) : NULL;
}

/* What the statistics leave out of the range, said rather than hidden. */
static void
set_stats_note (OviIterationsPage *self, guint n_range, guint n_ran, guint n_shown)
{
  g_autoptr (GString) note = g_string_new (NULL);

  if (n_ran < n_range)
    g_string_append_printf (
        note,
        g_dngettext (GETTEXT_PACKAGE, "%u iteration of the range did not run this operator.",
                     "%u iterations of the range did not run this operator.", n_range - n_ran),
        n_range - n_ran);
  if (n_shown < n_ran)
    {
      if (note->len)
        g_string_append_c (note, ' ');
      g_string_append_printf (note,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "Statistics of the first %u of %u iteration that ran "
                                           "it. Narrow the range to see the others.",
                                           "Statistics of the first %u of %u iterations that ran "
                                           "it. Narrow the range to see the others.",
                                           n_ran),
                              n_shown, n_ran);
    }
  gtk_label_set_text (self->stats_note, note->str);
  gtk_widget_set_visible (GTK_WIDGET (self->stats_note), note->len > 0);
}

static void
refresh_stats (OviIterationsPage *self)
{
  GPtrArray *iterations = iterations_of (self);
  const char *label = compared_label (self);
  guint from, to, n_ran = 0;
  guint bins;
  OviHistogramScale scale;
  Job *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  clear_grid (self->stats_grid);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_note), FALSE);
  clear_grid (self->diff_grid);
  gtk_label_set_text (self->diff_note, "");
  gtk_widget_set_visible (GTK_WIDGET (self->stats_note), FALSE);
  ovi_histogram_view_clear (self->histogram);
  self->busy = FALSE;
  gtk_spinner_set_spinning (self->spinner, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);

  self->stats_stale = !gtk_widget_get_mapped (GTK_WIDGET (self));
  if (self->stats_stale || self->op == NULL || label == NULL || !get_range (self, &from, &to))
    return;

  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->cancellable = g_object_ref (self->cancellable);
  job->items = g_ptr_array_new_with_free_func (item_free);
  bins = self->settings ? g_settings_get_uint (self->settings, "histogram-bins") : 64;
  scale = self->settings && g_settings_get_boolean (self->settings, "histogram-symlog")
              ? OVI_HISTOGRAM_SYMLOG
              : OVI_HISTOGRAM_LINEAR;
  for (guint i = from; i <= to; i++)
    {
      const char *iteration = g_ptr_array_index (iterations, i);
      OviDumpFile *file = file_of_op (self, self->op, iteration);
      Item *item;
      OviTensor *tensor;

      /* Only the iterations that dumped this operator, and no more than a
       * screen of them: the first ones, where an overflow starts. */
      if (file == NULL)
        continue;
      if (n_ran++ >= COMPARE_MAX_ITERATIONS)
        continue;
      item = g_new0 (Item, 1);
      tensor = find_tensor (file, label);
      item->iteration = g_strdup (iteration);
      item->job = job;
      if (tensor != NULL && ovi_dtype_is_supported (ovi_tensor_get_dtype (tensor)))
        item->tensor = g_object_ref (tensor);
      g_ptr_array_add (job->items, item);
    }
  set_stats_note (self, to - from + 1, n_ran, job->items->len);

  self->busy = TRUE;
  gtk_spinner_set_spinning (self->spinner, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  /* One more than the analyses, so none finishes the job while they start. */
  job->pending = 1;
  for (guint i = 0; i < job->items->len; i++)
    {
      Item *item = g_ptr_array_index (job->items, i);

      if (item->tensor == NULL)
        continue;
      job->pending++;
      ovi_tensor_analyze_async (item->tensor, bins, scale, job->cancellable, item_analyzed, item);
    }
  if (--job->pending == 0)
    job_finished (job);
}

static void
op_selected (OviIterationsPage *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->op_dropdown);
  g_autoptr (GPtrArray) labels = NULL;
  guint preferred = 0;

  g_free (self->op);
  self->op = item ? g_strdup (gtk_string_object_get_string (item)) : NULL;
  /* Every tensor label the operator has in any iteration, an output's
   * first. */
  labels = self->index && self->op ? ovi_op_index_dup_tensor_labels (self->index, self->op)
                                   : g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (labels, i), "output"))
      {
        preferred = i;
        break;
      }

  g_ptr_array_add (labels, NULL);
  g_signal_handlers_block_by_func (self->tensor_dropdown, refresh_stats, self);
  gtk_string_list_splice (self->tensor_list, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->tensor_list)),
                          (const char *const *) labels->pdata);
  gtk_drop_down_set_selected (self->tensor_dropdown, preferred);
  g_signal_handlers_unblock_by_func (self->tensor_dropdown, refresh_stats, self);
  refresh_stats (self);
}

static void
update_range_note (OviIterationsPage *self)
{
  guint from, to;
  g_autofree char *note = NULL;

  if (get_range (self, &from, &to))
    note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u iteration",
                                         "%u of %u iterations", iterations_of (self)->len),
                            to - from + 1, iterations_of (self)->len);
  gtk_label_set_text (self->range_note, note ? note : "");
}

static void
range_changed (OviIterationsPage *self)
{
  update_range_note (self);
  update_spread (self);
  refresh_stats (self);
}

static void
spread_op_clicked (GtkButton *button, OviIterationsPage *self)
{
  ovi_iterations_page_select_op (self, gtk_button_get_label (button));
}

/* A cell of the spread grid opens that operator in that iteration; @what,
 * when given, says what the cell means after the action. */
static void
spread_cell_button (OviIterationsPage *self,
                    int column,
                    int row,
                    OviDumpFile *file,
                    const char *text,
                    const char *css_class,
                    const char *what)
{
  GtkWidget *button = gtk_button_new_with_label (text);
  g_autofree char *action = g_strdup_printf (_ ("Open %s in iteration %s"),
                                             ovi_dump_file_get_op_name (file), iteration_of (file));
  /* Translators: a cell's tooltip: what it opens, then what it means */
  g_autofree char *tooltip = what ? g_strdup_printf (_ ("%s: %s"), action, what) : NULL;

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "spread-cell");
  gtk_widget_add_css_class (button, "numeric");
  gtk_widget_add_css_class (button, css_class);
  ovi_widget_set_tooltip (button, tooltip ? tooltip : action);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  tooltip ? tooltip : action, -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "iterations.open");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", ovi_dump_file_get_path (file));
  gtk_grid_attach (self->spread_grid, button, column, row, 1, 1);
}

/* A cell of a run with no overflow record: "·" when its data are clean,
 * "!" (and what they hold) when they hold NaN, Inf or saturated values,
 * as an origin with no record of its own (iteration 10's Cast of the
 * example: 64 +Inf, in a folder whose overflow files name other
 * operators). */
static void
spread_unrecorded_cell (OviIterationsPage *self, int column, int row, OviDumpFile *file)
{
  const OviOpSummary *summary = ovi_dump_file_get_summary (file);
  g_autofree char *bad = NULL, *what = NULL;

  if (summary == NULL || !ovi_op_summary_is_abnormal (summary))
    {
      spread_cell_button (self, column, row, file, "·", "dim-label", NULL);
      return;
    }
  bad = ovi_classifier_dup_bad_values (file);
  /* Translators: a cell of an operator's run that no overflow record
   * names; %s: "64 +Inf in output 0" */
  what = g_strdup_printf (_ ("no overflow record, but its data hold %s"), bad ? bad : "");
  spread_cell_button (self, column, row, file, "!", "data-abnormal", what);
}

/* The row of the records of @unit that no op dump file matches: a cell
 * per iteration with one, numbered as the others. */
static void
spread_unlinked_row (
    OviIterationsPage *self, int row, const char *unit, guint from, guint n_columns)
{
  GPtrArray *iterations = iterations_of (self);
  /* Translators: a row of the spread grid for overflow records of a unit
   * ("AICPU") whose operator's dump file is missing */
  g_autofree char *name = g_strdup_printf (_ ("%s (no operator)"), unit);
  GtkWidget *label = grid_label (self->spread_grid, 0, row, name, NULL);

  gtk_widget_set_margin_start (label, 10);
  for (guint c = 0; c < n_columns; c++)
    {
      const char *iteration = g_ptr_array_index (iterations, from + c);
      guint position = ovi_op_index_get_unlinked_position (self->index, unit, iteration);
      g_autofree char *text = position > 0 ? g_strdup_printf ("%u", position) : g_strdup ("");
      GtkWidget *cell = grid_label (self->spread_grid, c + 1, row, text,
                                    position == 1  ? "first-overflow"
                                    : position > 0 ? "overflowed"
                                                   : "dim-label");

      gtk_widget_add_css_class (cell, "spread-cell");
      gtk_label_set_xalign (GTK_LABEL (cell), 0.5);
      if (position > 0)
        {
          g_autofree char *tooltip = g_strdup_printf (
              _ ("Overflow %u, %s, in iteration %s: no op dump file matches its record"), position,
              unit, iteration);

          ovi_widget_set_tooltip (cell, tooltip);
          gtk_accessible_update_property (GTK_ACCESSIBLE (cell), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          tooltip, -1);
        }
    }
}

/* iterations.open ("s": an op dump file's full path): shows the compared tensor of
 * that file on the Operators page. */
static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviIterationsPage *self = OVI_ITERATIONS_PAGE (widget);
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  const char *path = g_variant_get_string (parameter, NULL);
  OviDumpFile *file = session ? ovi_session_find_file (session, path) : NULL;
  OviTensor *tensor = file ? find_tensor (file, compared_label (self)) : NULL;
  guint index = 0;

  if (file == NULL)
    return;
  if (tensor != NULL)
    g_ptr_array_find (ovi_dump_file_get_tensors (file), tensor, &index);
  gtk_widget_activate_action (widget, "win.show-tensor", "(su)", path, index);
}

/* A grid of widgets is not a table view: past this many rows or columns
 * it would take seconds to build, and nobody reads that far anyway. */
#define SPREAD_MAX_OPS 40
#define SPREAD_MAX_ITERATIONS 40

/* Rows: operators with at least one overflow record, earliest overflow
 * first, then a row per unit of the records that no op dump file matches;
 * columns: iterations. */
static void
build_spread (OviIterationsPage *self)
{
  g_autoptr (GPtrArray) ops = ovi_op_index_dup_overflowed_ops (self->index);
  GPtrArray *units = ovi_op_index_get_unlinked_units (self->index);
  GPtrArray *iterations = iterations_of (self);
  guint n_rows, n_op_rows, n_columns, from = 0, to = 0, n_range;

  clear_grid (self->spread_grid);
  gtk_widget_set_visible (GTK_WIDGET (self->spread_note), FALSE);

  if (ops->len == 0 && units->len == 0)
    {
      grid_label (self->spread_grid, 0, 0, _ ("No overflow record is linked to an operator."),
                  "dim-label");
      return;
    }

  get_range (self, &from, &to);
  n_range = to - from + 1;
  n_columns = MIN (n_range, SPREAD_MAX_ITERATIONS);
  n_rows = MIN (ops->len + units->len, SPREAD_MAX_OPS);
  n_op_rows = MIN (ops->len, n_rows);
  for (guint c = 0; c < n_columns; c++)
    grid_label (self->spread_grid, c + 1, 0, g_ptr_array_index (iterations, from + c), "heading");
  if (n_rows < ops->len + units->len || n_columns < n_range)
    {
      g_autofree char *note = g_strdup_printf (
          _ ("The first %u of %u operators and the first %u of the %u iterations in the range "
             "are shown. Narrow the range to see the others."),
          n_rows, ops->len + units->len, n_columns, n_range);

      gtk_label_set_text (self->spread_note, note);
      gtk_widget_set_visible (GTK_WIDGET (self->spread_note), TRUE);
    }

  for (guint r = n_op_rows; r < n_rows; r++)
    spread_unlinked_row (self, r + 1, g_ptr_array_index (units, r - n_op_rows), from, n_columns);
  for (guint r = 0; r < n_op_rows; r++)
    {
      const char *name = g_ptr_array_index (ops, r);
      GtkWidget *button = gtk_button_new_with_label (name);

      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      ovi_widget_set_tooltip (button, _ ("Compare this operator across iterations"));
      g_signal_connect (button, "clicked", G_CALLBACK (spread_op_clicked), self);
      gtk_grid_attach (self->spread_grid, button, 0, r + 1, 1, 1);

      for (guint c = 0; c < n_columns; c++)
        {
          const char *iteration = g_ptr_array_index (iterations, from + c);
          guint position = ovi_op_index_get_first_position (self->index, name, iteration);
          OviDumpFile *file = file_of_op (self, name, iteration);
          g_autofree char *text = NULL;
          const char *css_class = position == 1  ? "first-overflow"
                                  : position > 0 ? "overflowed"
                                                 : "dim-label";

          if (position > 0)
            text = g_strdup_printf ("%u", position);
          if (file != NULL && position == 0)
            spread_unrecorded_cell (self, c + 1, r + 1, file);
          else if (file != NULL)
            spread_cell_button (self, c + 1, r + 1, file, text, css_class, NULL);
          else
            {
              GtkWidget *cell = grid_label (self->spread_grid, c + 1, r + 1, "", css_class);

              gtk_widget_add_css_class (cell, "spread-cell");
            }
        }
    }
}

static gboolean
spread_task_cb (gint64 deadline, gpointer data)
{
  OviIterationsPage *self = data;

  self->spread_task = 0;
  if (self->index != NULL)
    build_spread (self);
  else
    clear_grid (self->spread_grid);
  return FALSE;
}

/* The spread grid is up to 41 x 41 widgets. AdwViewStack measures every
 * page, shown or not, so the grid is built when the page is shown, not in
 * the turn the scan ends while another page is in front (one 50 ms turn and
 * a 67 ms frame measuring 1 600 labels, on the 101 000-file tree), and in a
 * turn of the scheduler of its own. */
static void
update_spread (OviIterationsPage *self)
{
  self->spread_stale = !gtk_widget_get_mapped (GTK_WIDGET (self));
  if (!self->spread_stale && self->spread_task == 0)
    self->spread_task = ovi_scheduler_add (spread_task_cb, self, NULL);
}

static void
ovi_iterations_page_map (GtkWidget *widget)
{
  OviIterationsPage *self = OVI_ITERATIONS_PAGE (widget);

  GTK_WIDGET_CLASS (ovi_iterations_page_parent_class)->map (widget);
  if (self->spread_stale)
    update_spread (self);
  if (self->stats_stale)
    refresh_stats (self);
}

static void refresh (OviIterationsPage *self);

static void
session_index_changed (OviIterationsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviOpIndex *index = session ? ovi_session_get_op_index (session) : NULL;

  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_set_object (&self->index, index);
  if (index != NULL)
    g_signal_connect_swapped (index, "changed", G_CALLBACK (refresh), self);
  refresh (self);
}

/* The operator the page opens on: the selected record's, or the first
 * overflow's when no record is selected. */
static const char *
record_op_name (OviIterationsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviOverflowRecord *record = session ? ovi_session_get_selected_record (session) : NULL;
  OviDumpFile *op = record ? ovi_overflow_record_get_op (record) : NULL;
  OviDumpFolder *folder = self->index ? ovi_op_index_get_folder (self->index) : NULL;
  GListModel *records = folder ? ovi_dump_folder_get_records (folder) : NULL;
  guint n = records ? g_list_model_get_n_items (records) : 0;

  for (guint i = 0; op == NULL && record == NULL && i < n; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);

      if (ovi_overflow_record_get_is_first (r))
        op = ovi_overflow_record_get_op (r);
    }
  return op ? ovi_dump_file_get_op_name (op) : NULL;
}

/* The page follows the record the user selects. */
static void
session_record_changed (OviIterationsPage *self)
{
  const char *name = record_op_name (self);

  if (name != NULL)
    ovi_iterations_page_select_op (self, name);
}

static void
ovi_iterations_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviIterationsPage *self = OVI_ITERATIONS_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (old_session, self);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::op-index", G_CALLBACK (session_index_changed),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "load-finished", G_CALLBACK (session_record_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-record",
                               G_CALLBACK (session_record_changed), self, G_CONNECT_SWAPPED);
      /* A run without a record is marked by what its summary says. */
      g_signal_connect_object (session, "notify::busy", G_CALLBACK (update_spread), self,
                               G_CONNECT_SWAPPED);
      if (self->settings == NULL)
        ovi_iterations_page_bind_settings (self, ovi_session_get_settings (session));
      session_index_changed (self);
    }
}

static void
ovi_iterations_page_dispose (GObject *object)
{
  OviIterationsPage *self = OVI_ITERATIONS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  ovi_scheduler_remove (self->spread_task);
  self->spread_task = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_ITERATIONS_PAGE);
  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_clear_object (&self->index);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->op, g_free);
  G_OBJECT_CLASS (ovi_iterations_page_parent_class)->dispose (object);
}

static void
ovi_iterations_page_class_init (OviIterationsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  OviPageClass *page_class = OVI_PAGE_CLASS (klass);

  object_class->dispose = ovi_iterations_page_dispose;
  widget_class->map = ovi_iterations_page_map;
  page_class->session_changed = ovi_iterations_page_session_changed;

  g_type_ensure (OVI_TYPE_HISTOGRAM_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-iterations-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, histogram);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, histogram_note);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, diff_grid);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, diff_note);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, from_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, iteration_list);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, range_note);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, spread_note);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, stats_note);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, to_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, log_check);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, op_list);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, spread_grid);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, tensor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviIterationsPage, tensor_list);
  gtk_widget_class_install_action (widget_class, "iterations.open", "s", open_action);
}

static void
ovi_iterations_page_init (OviIterationsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->op_dropdown, "notify::selected", G_CALLBACK (op_selected), self);
  g_signal_connect_swapped (self->tensor_dropdown, "notify::selected", G_CALLBACK (refresh_stats),
                            self);
  g_signal_connect_swapped (self->from_dropdown, "notify::selected", G_CALLBACK (range_changed),
                            self);
  g_signal_connect_swapped (self->to_dropdown, "notify::selected", G_CALLBACK (range_changed),
                            self);
}

GtkWidget *
ovi_iterations_page_new (void)
{
  return g_object_new (OVI_TYPE_ITERATIONS_PAGE, NULL);
}

static guint
find_string (GtkStringList *list, const char *string)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  for (guint i = 0; string != NULL && i < n; i++)
    if (g_str_equal (gtk_string_list_get_string (list, i), string))
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static gboolean
select_op_index (OviIterationsPage *self, const char *name)
{
  guint i = name ? find_string (self->op_list, shown_name (self, name)) : GTK_INVALID_LIST_POSITION;

  if (i == GTK_INVALID_LIST_POSITION)
    return FALSE;
  gtk_drop_down_set_selected (self->op_dropdown, i);
  return TRUE;
}

/* The range's choices are the iterations indexed; the range the user chose
 * stays, the whole folder otherwise. */
static void
refresh_iteration_list (OviIterationsPage *self)
{
  GtkStringObject *from_item = gtk_drop_down_get_selected_item (self->from_dropdown);
  GtkStringObject *to_item = gtk_drop_down_get_selected_item (self->to_dropdown);
  g_autofree char *from = from_item ? g_strdup (gtk_string_object_get_string (from_item)) : NULL;
  g_autofree char *to = to_item ? g_strdup (gtk_string_object_get_string (to_item)) : NULL;
  gboolean whole = from_item == NULL || to_item == NULL ||
                   (gtk_drop_down_get_selected (self->from_dropdown) == 0 &&
                    gtk_drop_down_get_selected (self->to_dropdown) + 1 ==
                        g_list_model_get_n_items (G_LIST_MODEL (self->iteration_list)));
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) strings = NULL;
  GPtrArray *iterations = iterations_of (self);
  guint n = iterations->len;
  guint a, b;

  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, g_ptr_array_index (iterations, i));
  strings = g_strv_builder_end (builder);
  g_signal_handlers_block_by_func (self->from_dropdown, range_changed, self);
  g_signal_handlers_block_by_func (self->to_dropdown, range_changed, self);
  gtk_string_list_splice (self->iteration_list, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->iteration_list)),
                          (const char *const *) strings);
  a = whole ? 0 : find_string (self->iteration_list, from);
  b = whole ? n - 1 : find_string (self->iteration_list, to);
  gtk_drop_down_set_selected (self->from_dropdown, a == GTK_INVALID_LIST_POSITION ? 0 : a);
  gtk_drop_down_set_selected (self->to_dropdown, b == GTK_INVALID_LIST_POSITION ? n - 1 : b);
  g_signal_handlers_unblock_by_func (self->from_dropdown, range_changed, self);
  g_signal_handlers_unblock_by_func (self->to_dropdown, range_changed, self);
  update_range_note (self);
}

/* The operator list and the spread grid, from the index. */
static void
refresh (OviIterationsPage *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) names = NULL;
  GPtrArray *ops = self->index ? ovi_op_index_get_op_names (self->index) : NULL;

  for (guint i = 0; ops != NULL && i < ops->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (ops, i));
  names = g_strv_builder_end (builder);

  refresh_iteration_list (self);
  g_signal_handlers_block_by_func (self->op_dropdown, op_selected, self);
  gtk_string_list_splice (self->op_list, 0, g_list_model_get_n_items (G_LIST_MODEL (self->op_list)),
                          (const char *const *) names);
  /* The operator compared so far, else the selected record's. */
  if (!select_op_index (self, self->op))
    select_op_index (self, record_op_name (self));
  g_signal_handlers_unblock_by_func (self->op_dropdown, op_selected, self);

  update_spread (self);
  op_selected (self);
}

gboolean
ovi_iterations_page_select_op (OviIterationsPage *self, const char *op_name)
{
  g_return_val_if_fail (OVI_IS_ITERATIONS_PAGE (self), FALSE);

  return select_op_index (self, op_name);
}

const char *
ovi_iterations_page_get_op (OviIterationsPage *self)
{
  g_return_val_if_fail (OVI_IS_ITERATIONS_PAGE (self), NULL);
  return self->op;
}

/**
 * ovi_iterations_page_get_busy:
 * Returns: whether the page is still analysing tensors or building its grid
 */
gboolean
ovi_iterations_page_get_busy (OviIterationsPage *self)
{
  g_return_val_if_fail (OVI_IS_ITERATIONS_PAGE (self), FALSE);
  return self->busy || self->spread_task != 0;
}

guint
ovi_iterations_page_get_n_iterations (OviIterationsPage *self)
{
  g_return_val_if_fail (OVI_IS_ITERATIONS_PAGE (self), 0);
  return iterations_of (self)->len;
}

OviHistogramView *
ovi_iterations_page_get_histogram (OviIterationsPage *self)
{
  g_return_val_if_fail (OVI_IS_ITERATIONS_PAGE (self), NULL);
  return self->histogram;
}

void
ovi_iterations_page_bind_settings (OviIterationsPage *self, GSettings *settings)
{
  g_return_if_fail (OVI_IS_ITERATIONS_PAGE (self));

  g_set_object (&self->settings, settings);
  g_settings_bind (settings, "histogram-log-counts", self->log_check, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (settings, "changed::histogram-bins", G_CALLBACK (refresh_stats), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::histogram-symlog", G_CALLBACK (refresh_stats), self,
                           G_CONNECT_SWAPPED);
}

/**
 * ovi_iterations_page_set_range:
 * @from: the first iteration to compare
 * @to: the last
 *
 * Returns: %FALSE when either is not an iteration of the folder
 */
gboolean
ovi_iterations_page_set_range (OviIterationsPage *self, const char *from, const char *to)
{
  guint a, b;

  g_return_val_if_fail (OVI_IS_ITERATIONS_PAGE (self), FALSE);

  a = find_string (self->iteration_list, from);
  b = find_string (self->iteration_list, to);
  if (a == GTK_INVALID_LIST_POSITION || b == GTK_INVALID_LIST_POSITION)
    return FALSE;
  g_signal_handlers_block_by_func (self->from_dropdown, range_changed, self);
  g_signal_handlers_block_by_func (self->to_dropdown, range_changed, self);
  gtk_drop_down_set_selected (self->from_dropdown, a);
  gtk_drop_down_set_selected (self->to_dropdown, b);
  g_signal_handlers_unblock_by_func (self->from_dropdown, range_changed, self);
  g_signal_handlers_unblock_by_func (self->to_dropdown, range_changed, self);
  range_changed (self);
  return TRUE;
}
