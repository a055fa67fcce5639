/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-accessible-row.h"
#include "ovi-columns.h"
#include "ovi-format.h"
#include "ovi-operators-page.h"
#include "ovi-row-menu.h"
#include "ovi-scheduler.h"

/* Every op dump file of the session's folder with the summary core
 * computes for it (class, largest magnitude, NaN / Inf / saturated
 * counts), in the order the operators ran until a header is clicked, and
 * the tensors of the selected one below. */
struct _OviOperatorsPage
{
  OviPage parent_instance;

  GtkToggleButton *abnormal_toggle;
  GtkEveryFilter *op_filter;
  GtkSearchEntry *op_search;
  GtkSingleSelection *op_selection;
  GtkSortListModel *op_sort_model;
  GtkColumnView *op_view;
  /* hidden, in this order, when the table is narrower than its columns */
  GtkColumnViewColumn *op_timestamp_column;
  GtkColumnViewColumn *op_stream_column;
  GtkColumnViewColumn *op_task_column;
  GtkColumnViewColumn *op_inputs_column;
  GtkColumnViewColumn *op_outputs_column;
  GtkColumnViewColumn *op_iteration_column;
  GtkColumnViewColumn *op_max_abs_column;
  guint fit_task;
  int fitted_width;
  GtkSorter *run_order_sorter;
  OviTensorView *tensor_view;

  GSignalGroup *folder_signals;
  GBinding *folder_binding;    /* session:folder -> folder_signals:target */
  GBinding *operators_binding; /* session:operators -> op_sort_model:model, once shown */
  gboolean settings_bound;
  GSettings *settings; /* operator-column-widths */
  guint save_widths_source;
  gboolean restoring_widths;
  gboolean resorting;             /* after summaries, not a click on a header */
  GtkCustomFilter *custom_filter; /* abnormal and node, owned by op_filter */
};

G_DEFINE_FINAL_TYPE (OviOperatorsPage, ovi_operators_page, OVI_TYPE_PAGE)

/* What a screen reader says for a row: the operator's type, name and
 * class, once its summary gave it one. */
static char *
op_row_name (gpointer unused, const char *op_type, const char *op_name, const char *blame)
{
  if (blame == NULL || *blame == '\0')
    return g_strdup_printf ("%s %s", op_type ? op_type : "", op_name ? op_name : "");
  /* Translators: an operator row read by a screen reader: op type, op name
   * and class, e.g. "Cast gradients/Cast_3, Origin" */
  return g_strdup_printf (_ ("%s %s, %s"), op_type ? op_type : "", op_name ? op_name : "", blame);
}

static gboolean
op_visible (gpointer item, gpointer user_data)
{
  OviOperatorsPage *self = user_data;
  OviSession *session;

  if (gtk_toggle_button_get_active (self->abnormal_toggle) &&
      !(ovi_dump_file_get_summary (item) &&
        ovi_op_summary_is_abnormal (ovi_dump_file_get_summary (item))))
    return FALSE;
  session = ovi_page_get_session (OVI_PAGE (self));
  return session == NULL || ovi_session_in_selected_node (session, item);
}

static void
filters_changed (OviOperatorsPage *self)
{
  if (self->custom_filter != NULL)
    gtk_filter_changed (GTK_FILTER (self->custom_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* When a filter (Abnormal Only, the search, the sidebar's node) hides the
 * selected operator, the selection is cleared: its tensors must not stay
 * below a table that no longer lists it. Runs after the filter model has
 * refiltered; only while the table holds the operators. */
static void
filter_applied (OviOperatorsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDumpFile *file = session ? ovi_session_get_selected_file (session) : NULL;
  GListModel *model = G_LIST_MODEL (self->op_selection);

  if (file == NULL || self->operators_binding == NULL)
    return;
  /* Abnormal Only hides an operator whose summary is still on its way; it
   * may well be abnormal, so its selection waits for the verdict. */
  if (gtk_toggle_button_get_active (self->abnormal_toggle) &&
      ovi_dump_file_get_summary (file) == NULL)
    return;
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (OviDumpFile) item = g_list_model_get_item (model, i);

      if (item == file)
        return;
    }
  ovi_session_set_selected_file (session, NULL);
}

/* Sorting and filtering do not follow property changes by themselves:
 * after each batch of summaries, redo them, but only when a column or the
 * abnormal filter depends on them (redoing them for nothing rebuilds the
 * rows in view). */
static void
summaries_applied (OviOperatorsPage *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->op_view);

  if (gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
    {
      self->resorting = TRUE;
      gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
      self->resorting = FALSE;
    }
  if (gtk_toggle_button_get_active (self->abnormal_toggle))
    filters_changed (self);
}

/* Operators found later may have run earlier and land above the rows in
 * view, and a list keeps its top row in view: a table the user has not
 * scrolled stays at its top instead of drifting down as the scan goes on. */
static void
rows_changed (OviOperatorsPage *self, guint position, guint removed, guint added)
{
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->op_view));

  if (position > 0 || added == 0 || vadjustment == NULL ||
      gtk_adjustment_get_value (vadjustment) > 0)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->op_view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", 0);
}

/* After a click on a header, the selected row (which the selection model
 * keeps) comes into view; not when summaries re-sort the table while the
 * user looks elsewhere. */
static void
sort_changed (OviOperatorsPage *self)
{
  guint position;

  if (self->op_selection == NULL || self->resorting)
    return; /* disposing, or summaries re-sorting */
  position = gtk_single_selection_get_selected (self->op_selection);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->op_view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

static void
selection_changed (OviOperatorsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDumpFile *file;

  if (session == NULL || self->op_selection == NULL)
    return;
  file = gtk_single_selection_get_selected_item (self->op_selection);
  if (file != NULL)
    ovi_session_set_selected_file (session, file);
}

/* The selected file may come from elsewhere (a record's "Show" button):
 * the table selects its row when it lists it. */
static void
selected_file_changed (OviOperatorsPage *self)
{
  OviDumpFile *file = ovi_session_get_selected_file (ovi_page_get_session (OVI_PAGE (self)));
  GListModel *model = G_LIST_MODEL (self->op_selection);

  if (file == NULL || gtk_single_selection_get_selected_item (self->op_selection) == file)
    return;
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (OviDumpFile) item = g_list_model_get_item (model, i);

      if (item == file)
        {
          gtk_single_selection_set_selected (self->op_selection, i);
          return;
        }
    }
}

/* GTK 4.8 builds the widgets of a list's first 200 rows as soon as the
 * rows exist, shown or not: a table nobody looks at would spend a few
 * hundred milliseconds of the scan's first turn building them. The table
 * takes the session's operators when the page is first shown, and lets
 * them go when a new folder opens while it is hidden. */
static void
attach_operators (OviOperatorsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));

  if (self->operators_binding != NULL || session == NULL)
    return;
  self->operators_binding = g_object_bind_property (session, "operators", self->op_sort_model,
                                                    "model", G_BINDING_SYNC_CREATE);
  selected_file_changed (self);
}

static void
detach_operators (OviOperatorsPage *self)
{
  g_clear_pointer (&self->operators_binding, g_binding_unbind);
  if (self->op_sort_model != NULL)
    gtk_sort_list_model_set_model (self->op_sort_model, NULL);
}

static void
session_folder_changed (OviOperatorsPage *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    detach_operators (self);
}

static void
ovi_operators_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ovi_operators_page_parent_class)->map (widget);
  attach_operators (OVI_OPERATORS_PAGE (widget));
}

/* The tensor the user looks at is the session's: the window exports it. */
static void
tensor_changed (OviOperatorsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));

  if (session != NULL)
    ovi_session_set_selected_tensor (session, ovi_tensor_view_get_tensor (self->tensor_view));
}

/* Escape empties the search, and the table shows every row again. */
static void
search_stopped (OviOperatorsPage *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->op_search), "");
}

/* Enter (or a double click) on a row selects it and moves the keyboard
 * into its tensors. */
static void
row_activated (OviOperatorsPage *self, guint position)
{
  gtk_single_selection_set_selected (self->op_selection, position);
  gtk_widget_child_focus (GTK_WIDGET (self->tensor_view), GTK_DIR_TAB_FORWARD);
}

/* --- a row shown from elsewhere ----------------------------------------- */

/* The row shown from elsewhere takes the keyboard once laid out in view:
 * Tab goes on to its tensors, arrows to the next rows. */
static void
focus_selected_row (OviOperatorsPage *self)
{
  ovi_columns_focus_selected_row_soon (self->op_view, FALSE);
}

/* --- the user's column widths ------------------------------------------ */

/* Kept by the columns' order in the .ui (the table's columns cannot be
 * reordered), so a new window restores what the user last set. */
static gboolean
save_widths_cb (gpointer data)
{
  OviOperatorsPage *self = data;
  GListModel *columns = gtk_column_view_get_columns (self->op_view);
  g_autoptr (GVariantBuilder) builder = g_variant_builder_new (G_VARIANT_TYPE ("ai"));

  self->save_widths_source = 0;
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      g_variant_builder_add (builder, "i", gtk_column_view_column_get_fixed_width (column));
    }
  g_settings_set_value (self->settings, "operator-column-widths", g_variant_builder_end (builder));
  return G_SOURCE_REMOVE;
}

/* A drag on a header's edge changes the width at every step: saved once
 * it rests. */
static void
column_width_changed (OviOperatorsPage *self)
{
  if (self->restoring_widths || self->settings == NULL)
    return;
  g_clear_handle_id (&self->save_widths_source, g_source_remove);
  self->save_widths_source = g_timeout_add (300, save_widths_cb, self);
}

static void
restore_widths (OviOperatorsPage *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->op_view);
  g_autoptr (GVariant) widths = g_settings_get_value (self->settings, "operator-column-widths");
  gsize n_widths = 0;
  const gint32 *width = g_variant_get_fixed_array (widths, &n_widths, sizeof (gint32));

  /* Saved from another set of columns: the table's own widths. */
  if (n_widths != g_list_model_get_n_items (columns))
    return;
  self->restoring_widths = TRUE;
  for (guint i = 0; i < n_widths; i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (width[i] > 0)
        gtk_column_view_column_set_fixed_width (column, width[i]);
    }
  self->restoring_widths = FALSE;
}

/* --- fitting the page's width -------------------------------------------- */

/* The table shows every column it can in the page's width and none past
 * its edge: the columns that matter least for finding the operator that
 * overflowed go first (the time, the stream and task, the tensor counts,
 * the iteration, which the sidebar and the tensor view give too, and the
 * largest magnitude), so that the type, name, class and the NaN, Inf and
 * saturated counts always show. A header is never narrower than its
 * title. */
static gboolean
fit_columns_cb (gint64 deadline, gpointer data)
{
  OviOperatorsPage *self = data;
  GtkColumnViewColumn *optional[] = {
    self->op_timestamp_column, self->op_stream_column,  self->op_task_column,
    self->op_inputs_column,    self->op_outputs_column, self->op_iteration_column,
    self->op_max_abs_column,
  };
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  gboolean titles_fitted;

  if (width <= 0 || width == self->fitted_width)
    {
      self->fit_task = 0;
      return G_SOURCE_REMOVE;
    }
  /* Not the user's widths: not saved. */
  self->restoring_widths = TRUE;
  titles_fitted = ovi_columns_fit_titles (self->op_view);
  self->restoring_widths = FALSE;
  /* The headers are laid out at the next frame. */
  if (!titles_fitted && gtk_widget_get_mapped (GTK_WIDGET (self->op_view)))
    return G_SOURCE_CONTINUE;
  self->fit_task = 0;
  self->fitted_width = width;
  /* The pixels of the table's border and scrollbar edge stay free. */
  ovi_columns_hide_to_fit (self->op_view, optional, G_N_ELEMENTS (optional), width - 4);
  return G_SOURCE_REMOVE;
}

static void
width_changed (OviOperatorsPage *self)
{
  if (self->fit_task == 0 && gtk_widget_get_width (GTK_WIDGET (self)) != self->fitted_width)
    self->fit_task = ovi_scheduler_add (fit_columns_cb, self, NULL);
}

/* A width the user drags is fitted again. */
static void
user_width_changed (OviOperatorsPage *self)
{
  if (self->restoring_widths)
    return;
  self->fitted_width = 0;
  width_changed (self);
}

static void
ovi_operators_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviOperatorsPage *self = OVI_OPERATORS_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    {
      g_signal_handlers_disconnect_by_data (old_session, self);
      g_clear_pointer (&self->folder_binding, g_binding_unbind);
      detach_operators (self);
    }
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::folder", G_CALLBACK (session_folder_changed), self,
                               G_CONNECT_SWAPPED);
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        attach_operators (self);
      g_signal_connect_object (session, "notify::selected-node", G_CALLBACK (filters_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-file", G_CALLBACK (selected_file_changed),
                               self, G_CONNECT_SWAPPED);
      self->folder_binding = g_object_bind_property (session, "folder", self->folder_signals,
                                                     "target", G_BINDING_SYNC_CREATE);
      if (!self->settings_bound)
        {
          ovi_tensor_view_bind_settings (self->tensor_view, ovi_session_get_settings (session));
          self->settings = g_object_ref (ovi_session_get_settings (session));
          restore_widths (self);
        }
      self->settings_bound = TRUE;
    }
  else if (self->folder_signals != NULL)
    g_signal_group_set_target (self->folder_signals, NULL);
}

static void
ovi_operators_page_dispose (GObject *object)
{
  OviOperatorsPage *self = OVI_OPERATORS_PAGE (object);

  /* The bindings go before their targets: OviPage's dispose, which lets
   * the session go, runs after the template is gone. */
  g_clear_pointer (&self->folder_binding, g_binding_unbind);
  detach_operators (self);
  g_clear_object (&self->folder_signals);
  /* A width the user just set is kept. */
  if (self->save_widths_source != 0)
    {
      g_clear_handle_id (&self->save_widths_source, g_source_remove);
      save_widths_cb (self);
    }
  g_clear_object (&self->settings);
  ovi_columns_cancel_focus_soon (self->op_view);
  if (self->fit_task != 0)
    ovi_scheduler_remove (self->fit_task);
  self->fit_task = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_OPERATORS_PAGE);
  self->custom_filter = NULL;
  G_OBJECT_CLASS (ovi_operators_page_parent_class)->dispose (object);
}

/* --- copying and the context menu --------------------------------------- */

/* The text @file shows in the column titled @title. */
static char *
cell_text (const char *title, OviDumpFile *file)
{
  g_autofree char *blame = NULL;
  guint n_inputs = 0, n_outputs = 0;
  gboolean analyzed = FALSE;
  double max_abs = 0;
  guint64 nan = 0, inf = 0, saturated = 0;

  g_object_get (file, "blame-label", &blame, "n-inputs", &n_inputs, "n-outputs", &n_outputs,
                "analyzed", &analyzed, "max-abs", &max_abs, "nan-count", &nan, "inf-count", &inf,
                "saturated-count", &saturated, NULL);
  if (g_str_equal (title, _ ("Iteration")))
    return g_strdup (ovi_dump_file_get_iteration (file));
  if (g_str_equal (title, _ ("Op Type")))
    return g_strdup (ovi_dump_file_get_op_type (file));
  if (g_str_equal (title, _ ("Op Name")))
    return g_strdup (ovi_dump_file_get_op_name (file));
  if (g_str_equal (title, _ ("Class")))
    return g_steal_pointer (&blame);
  if (g_str_equal (title, _ ("Task")))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_dump_file_get_task_id (file));
  if (g_str_equal (title, _ ("Stream")))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_dump_file_get_stream_id (file));
  if (g_str_equal (title, _ ("Inputs")))
    return g_strdup_printf ("%u", n_inputs);
  if (g_str_equal (title, _ ("Outputs")))
    return g_strdup_printf ("%u", n_outputs);
  if (g_str_equal (title, _ ("Largest |x|")))
    return ovi_format_max_abs (NULL, analyzed, max_abs);
  if (g_str_equal (title, _ ("NaN")))
    return ovi_format_op_count (NULL, analyzed, nan);
  if (g_str_equal (title, _ ("Inf")))
    return ovi_format_op_count (NULL, analyzed, inf);
  if (g_str_equal (title, _ ("Saturated")))
    return ovi_format_op_count (NULL, analyzed, saturated);
  if (g_str_equal (title, _ ("Timestamp")))
    return ovi_format_timestamp (ovi_dump_file_get_timestamp (file));
  g_return_val_if_reached (NULL);
}

/**
 * ovi_operators_page_dup_row_text:
 *
 * Returns: (nullable): the selected operator as one line, its cells in
 *   the order of the table's columns it shows, separated by tabs; %NULL
 *   when none is selected
 */
char *
ovi_operators_page_dup_row_text (OviOperatorsPage *self)
{
  OviDumpFile *file;
  GListModel *columns;
  GString *text;

  g_return_val_if_fail (OVI_IS_OPERATORS_PAGE (self), NULL);

  file = gtk_single_selection_get_selected_item (self->op_selection);
  if (file == NULL)
    return NULL;
  text = g_string_new (NULL);
  columns = gtk_column_view_get_columns (self->op_view);
  for (guint i = 0, n = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      g_autofree char *cell = NULL;

      /* What the table shows: not the columns a narrow window hides. */
      if (!gtk_column_view_column_get_visible (column))
        continue;
      cell = cell_text (gtk_column_view_column_get_title (column), file);
      g_string_append_printf (text, "%s%s", n++ > 0 ? "\t" : "", cell ? cell : "");
    }
  return g_string_free (text, FALSE);
}

/* Ctrl+C in the table (and the menu's Copy Row). */
static void
copy_row_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autofree char *text = ovi_operators_page_dup_row_text (OVI_OPERATORS_PAGE (widget));

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static GMenuModel *
build_row_menu (gpointer data)
{
  OviOperatorsPage *self = data;
  OviDumpFile *file = gtk_single_selection_get_selected_item (self->op_selection);
  g_autoptr (GMenuItem) item = NULL;
  GMenu *menu;

  if (file == NULL)
    return NULL;
  menu = g_menu_new ();
  g_menu_append (menu, _ ("_Copy Row"), "operators.copy-row");
  item = g_menu_item_new (_ ("Show in _Files"), NULL);
  g_menu_item_set_action_and_target_value (item, "win.open-folder",
                                           g_variant_new_string (ovi_dump_file_get_path (file)));
  g_menu_append_item (menu, item);
  return G_MENU_MODEL (menu);
}

static void
ovi_operators_page_class_init (OviOperatorsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  OviPageClass *page_class = OVI_PAGE_CLASS (klass);

  object_class->dispose = ovi_operators_page_dispose;
  page_class->session_changed = ovi_operators_page_session_changed;
  widget_class->map = ovi_operators_page_map;

  /* The tensor shown below the table: what "Selected Tensor" exports. */

  g_type_ensure (OVI_TYPE_ACCESSIBLE_ROW);
  g_type_ensure (OVI_TYPE_DUMP_FILE);
  g_type_ensure (OVI_TYPE_SESSION);
  g_type_ensure (OVI_TYPE_TENSOR_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-operators-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, abnormal_toggle);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_filter);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_search);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_selection);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_view);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_timestamp_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_stream_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_task_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_inputs_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_outputs_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_iteration_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, op_max_abs_column);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, run_order_sorter);
  gtk_widget_class_bind_template_child (widget_class, OviOperatorsPage, tensor_view);

  gtk_widget_class_bind_template_callback_full (widget_class, "count_classes",
                                                G_CALLBACK (ovi_format_count_classes));
  gtk_widget_class_bind_template_callback (widget_class, filters_changed);
  gtk_widget_class_bind_template_callback_full (widget_class, "format_timestamp",
                                                G_CALLBACK (ovi_format_timestamp_closure));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_max_abs",
                                                G_CALLBACK (ovi_format_max_abs));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_op_count",
                                                G_CALLBACK (ovi_format_op_count));
  gtk_widget_class_bind_template_callback_full (widget_class, "iteration_number",
                                                G_CALLBACK (ovi_format_iteration_number));
  gtk_widget_class_bind_template_callback_full (widget_class, "max_abs_classes",
                                                G_CALLBACK (ovi_format_max_abs_classes));
  gtk_widget_class_bind_template_callback_full (widget_class, "search_text",
                                                G_CALLBACK (ovi_format_search_text));
  gtk_widget_class_bind_template_callback (widget_class, op_row_name);
  gtk_widget_class_bind_template_callback (widget_class, rows_changed);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, tensor_changed);
  gtk_widget_class_bind_template_callback_full (widget_class, "timestamp_tooltip",
                                                G_CALLBACK (ovi_format_timestamp_tooltip));

  gtk_widget_class_install_action (widget_class, "operators.copy-row", NULL, copy_row_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "operators.copy-row", NULL);
}

static void
ovi_operators_page_init (OviOperatorsPage *self)
{
  g_autoptr (GtkMultiSorter) sorter = gtk_multi_sorter_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  /* A click on a header sorts by that column; otherwise, and between
   * equal cells, the order the operators ran. */
  gtk_multi_sorter_append (sorter, g_object_ref (gtk_column_view_get_sorter (self->op_view)));
  gtk_multi_sorter_append (sorter, g_object_ref (self->run_order_sorter));
  gtk_sort_list_model_set_sorter (self->op_sort_model, GTK_SORTER (sorter));

  g_signal_connect_swapped (self->op_search, "stop-search", G_CALLBACK (search_stopped), self);
  g_signal_connect_swapped (self->op_view, "activate", G_CALLBACK (row_activated), self);
  ovi_row_menu_attach (self->op_view, build_row_menu, self);
  g_signal_connect_object (gtk_column_view_get_sorter (self->op_view), "changed",
                           G_CALLBACK (sort_changed), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < g_list_model_get_n_items (gtk_column_view_get_columns (self->op_view)); i++)
    {
      g_autoptr (GtkColumnViewColumn) column =
          g_list_model_get_item (gtk_column_view_get_columns (self->op_view), i);

      g_signal_connect_object (column, "notify::fixed-width", G_CALLBACK (column_width_changed),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (column, "notify::fixed-width", G_CALLBACK (user_width_changed), self,
                               G_CONNECT_SWAPPED);
    }
  /* The table's width follows the page's: its adjustment says when it
   * changed (as on the Overflows page). */
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->op_view)),
                           "changed", G_CALLBACK (width_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->op_view)),
                           "notify::page-size", G_CALLBACK (width_changed), self,
                           G_CONNECT_SWAPPED);

  self->custom_filter = gtk_custom_filter_new (op_visible, self, NULL);
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->op_filter), GTK_FILTER (self->custom_filter));
  g_signal_connect_object (self->op_filter, "changed", G_CALLBACK (filter_applied), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);

  /* Follows whichever folder the session has open. */
  self->folder_signals = g_signal_group_new (OVI_TYPE_DUMP_FOLDER);
  g_signal_group_connect_swapped (self->folder_signals, "summaries-applied",
                                  G_CALLBACK (summaries_applied), self);
}

/**
 * ovi_operators_page_show_tensor:
 *
 * Shows the tensor @index of the session's selected file, whose row comes
 * into view and takes the keyboard once the page is shown.
 */
void
ovi_operators_page_show_tensor (OviOperatorsPage *self, guint index)
{
  g_return_if_fail (OVI_IS_OPERATORS_PAGE (self));
  ovi_tensor_view_select_tensor (self->tensor_view, index);
  focus_selected_row (self);
}

void
ovi_operators_page_focus_search (OviOperatorsPage *self)
{
  g_return_if_fail (OVI_IS_OPERATORS_PAGE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->op_search));
}

GtkColumnView *
ovi_operators_page_get_column_view (OviOperatorsPage *self)
{
  g_return_val_if_fail (OVI_IS_OPERATORS_PAGE (self), NULL);
  return self->op_view;
}

OviTensorView *
ovi_operators_page_get_tensor_view (OviOperatorsPage *self)
{
  g_return_val_if_fail (OVI_IS_OPERATORS_PAGE (self), NULL);
  return self->tensor_view;
}
