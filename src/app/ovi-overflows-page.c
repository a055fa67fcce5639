/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-accessible-row.h"
#include "ovi-columns.h"
#include "ovi-format.h"
#include "ovi-overflows-page.h"
#include "ovi-row-menu.h"
#include "ovi-scheduler.h"

/* The overflow records of the session's folder, first overflow first,
 * narrowed by the search, the unit and the sidebar's node, with the
 * selected record's details beside them. */
struct _OviOverflowsPage
{
  OviPage parent_instance;

  OviRecordView *record_details;
  AdwStatusPage *record_empty_page;
  GtkWidget *show_tensor_button;
  GtkEveryFilter *record_filter;
  GtkFilterListModel *record_filter_model;
  GtkSearchEntry *record_search;
  GtkSingleSelection *record_selection;
  gboolean first_chosen; /* the first row is selected for the user, who has picked none */
  gboolean choosing_first;
  OviOverflowRecord *hidden_record; /* selected until a search hid its row */
  GtkSortListModel *record_sort_model;
  GtkStack *record_stack;
  GtkColumnView *record_view;
  GtkSpinner *scanning_spinner;
  GtkDropDown *unit_dropdown;
  GtkStringList *unit_list;

  /* Laid out by the page's width (fit_layout). */
  GtkPaned *paned;
  GtkColumnViewColumn *record_device_column; /* shown with several devices */
  GtkColumnViewColumn *record_gap_column;
  GtkColumnViewColumn *record_iteration_column;
  GtkColumnViewColumn *record_op_name_column;
  GtkColumnViewColumn *record_position_column;
  GtkColumnViewColumn *record_root_column; /* shown with several roots */
  GtkColumnViewColumn *record_status_column;
  GtkColumnViewColumn *record_unit_column;
  GtkColumnViewColumn *record_op_type_column;
  GtkColumnViewColumn *record_stream_column;
  GtkColumnViewColumn *record_task_column;
  GtkColumnViewColumn *record_timestamp_column;
  guint fit_task;        /* lays the page out once, ovi-scheduler.c's */
  int fitted_width;      /* the page width the layout was fitted to */
  gboolean place_handle; /* the paned changed orientation: place its handle */

  GtkCustomFilter *custom_filter; /* unit and node, owned by record_filter */
};

G_DEFINE_FINAL_TYPE (OviOverflowsPage, ovi_overflows_page, OVI_TYPE_PAGE)

/* --- closures of the .ui ------------------------------------------------ */

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

static char *
format_position (gpointer unused, guint position)
{
  return g_strdup_printf ("%u", position + 1);
}

/* The Device and Folder columns are shown when there is more than one of
 * them to tell apart. */
static gboolean
more_than_one (gpointer unused, guint n)
{
  return n > 1;
}

/* Records of ignored operators stay listed, greyed. */
static gboolean
not_ignored (gpointer unused, gboolean ignored)
{
  return !ignored;
}

static GStrv
op_name_classes (gpointer unused, const char *op_name)
{
  static const char *missing[] = { "dim-label", NULL };
  static const char *none[] = { NULL };

  return g_strdupv ((char **) (op_name == NULL || *op_name == '\0' ? missing : none));
}

/* What a screen reader says for a row: which overflow, on which unit,
 * the operator and the status, as the table shows them. */
static char *
record_row_name (gpointer unused,
                 guint position,
                 gboolean is_first,
                 gboolean ignored,
                 const char *unit,
                 const char *op_type,
                 const char *op_name,
                 const char *status)
{
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  g_autofree char *op = format_op_name (NULL, op_name);

  if (is_first)
    /* Translators: %s is the unit, e.g. AI Core */
    title = g_strdup_printf (_ ("First overflow, %s"), unit ? ovi_unit_label (unit) : "");
  else
    /* Translators: %u is the position in time order, %s the unit */
    title =
        g_strdup_printf (_ ("Overflow %u, %s"), position + 1, unit ? ovi_unit_label (unit) : "");
  if (op_type != NULL && *op_type != '\0')
    {
      g_autofree char *with_type = g_strdup_printf ("%s %s", op_type, op);
      g_free (op);
      op = g_steal_pointer (&with_type);
    }
  /* Translators: a table row read by a screen reader: "First overflow, AI
   * Core: Cast gradients/Cast_3, status 0x110 FP16+INT"; the overflow and
   * its unit, the operator (type and name), the status */
  name = g_strdup_printf (_ ("%s: %s, status %s"), title, op, status ? status : "");
  if (ignored)
    {
      /* Translators: appended to a record's title when its operator is ignored */
      g_autofree char *with_mark = g_strdup_printf (_ ("%s (ignored)"), name);
      return g_steal_pointer (&with_mark);
    }
  return g_steal_pointer (&name);
}

/* --- states ------------------------------------------------------------- */

/* One op dump file opened on its own holds no overflow record, but its
 * data may hold what one would have reported: the status page says what
 * (the report's words, ovi_classifier_dup_one_file_finding()) and offers
 * the tensor. Returns FALSE when the folder is not one such file. */
static gboolean
show_one_file_finding (OviOverflowsPage *self, OviSession *session, OviDumpFolder *folder)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  g_autoptr (OviDumpFile) only = NULL;
  g_autofree char *finding = NULL;
  int tensor;

  if (g_file_test (ovi_dump_folder_get_root_path (folder), G_FILE_TEST_IS_DIR) ||
      g_list_model_get_n_items (files) != 1)
    return FALSE;
  only = g_list_model_get_item (files, 0);
  if (ovi_dump_file_get_kind (only) != OVI_FILE_KIND_OP_DUMP ||
      ovi_dump_file_get_statistics_only (only) || ovi_dump_file_get_summary (only) == NULL)
    return FALSE;
  finding = ovi_classifier_dup_one_file_finding (only);
  tensor = ovi_classifier_first_abnormal_tensor (only);
  adw_status_page_set_title (self->record_empty_page, tensor >= 0
                                                          ? _ ("Abnormal Values in This File")
                                                          : _ ("No Abnormal Values"));
  adw_status_page_set_icon_name (self->record_empty_page,
                                 tensor >= 0 ? "dialog-warning-symbolic" : "emblem-ok-symbolic");
  adw_status_page_set_description (self->record_empty_page, finding);
  /* The target first: an action name without its target is refused. */
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->show_tensor_button), "(su)",
                                    ovi_dump_file_get_path (only), (guint) MAX (tensor, 0));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->show_tensor_button), "win.show-tensor");
  gtk_widget_set_visible (self->show_tensor_button, TRUE);
  return TRUE;
}

/* Five different reasons for an empty table, each with its own words:
 * still scanning, no dump file at all, one op dump file (what its data
 * hold), no overflow recorded, or nothing that matches the filters. */
static void
update_state (OviOverflowsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDumpFolder *folder;
  OviScanProgress progress = { 0 };
  GListModel *records;

  if (self->record_stack == NULL)
    return; /* disposing */
  folder = session ? ovi_session_get_folder (session) : NULL;
  records = session ? ovi_session_get_records (session) : NULL;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->record_filter_model)) > 0)
    gtk_stack_set_visible_child_name (self->record_stack, "table");
  else if (folder != NULL && ovi_session_get_loading (session))
    gtk_stack_set_visible_child_name (self->record_stack, "scanning");
  else
    {
      gtk_widget_set_visible (self->show_tensor_button, FALSE);
      adw_status_page_set_icon_name (self->record_empty_page, "emblem-ok-symbolic");
      if (folder != NULL)
        ovi_dump_folder_get_progress (folder, &progress);
      if (folder != NULL && progress.dump_files == 0 && ovi_session_get_n_problems (session) > 0 &&
          !g_file_test (ovi_dump_folder_get_root_path (folder), G_FILE_TEST_IS_DIR))
        {
          /* One file opened on its own that could not be read: say why here,
           * where the user looks first, not only on the Problems page. */
          g_autoptr (OviProblem) problem =
              g_list_model_get_item (ovi_session_get_problems (session), 0);
          g_autofree char *description = g_strdup_printf ("%s: %s", ovi_problem_get_file (problem),
                                                          ovi_problem_get_message (problem));

          adw_status_page_set_title (self->record_empty_page, _ ("File Not Read"));
          adw_status_page_set_description (self->record_empty_page, description);
        }
      else if (folder == NULL || progress.dump_files == 0)
        {
          adw_status_page_set_title (self->record_empty_page, _ ("No Dump Files"));
          adw_status_page_set_description (self->record_empty_page,
                                           _ ("This folder holds no dump file."));
        }
      else if ((records == NULL || g_list_model_get_n_items (records) == 0) &&
               show_one_file_finding (self, session, folder))
        ;
      else if (records == NULL || g_list_model_get_n_items (records) == 0)
        {
          adw_status_page_set_title (self->record_empty_page, _ ("No Overflow Records"));
          adw_status_page_set_description (
              self->record_empty_page, _ ("No overflow file in this folder records an overflow."));
        }
      else
        {
          adw_status_page_set_title (self->record_empty_page, _ ("No Matching Records"));
          adw_status_page_set_description (
              self->record_empty_page,
              _ ("No record matches the search, the unit or the selected node."));
        }
      gtk_stack_set_visible_child_name (self->record_stack, "empty");
    }
  gtk_spinner_set_spinning (
      self->scanning_spinner,
      g_strcmp0 (gtk_stack_get_visible_child_name (self->record_stack), "scanning") == 0);
}

/* Brings the selected row into view. */
static void
scroll_to_selected (OviOverflowsPage *self)
{
  guint position;

  if (self->record_selection == NULL)
    return; /* disposing */
  position = gtk_single_selection_get_selected (self->record_selection);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->record_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

/* The session's record may come from elsewhere (F5 selecting again what
 * was selected before): the table selects its row once it lists it. */
static void
follow_session_record (OviOverflowsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviOverflowRecord *record = session ? ovi_session_get_selected_record (session) : NULL;

  if (record == NULL || self->record_selection == NULL ||
      gtk_single_selection_get_selected_item (self->record_selection) == record)
    return;
  /* A record chosen elsewhere is not the first row chosen for the user. */
  self->first_chosen = FALSE;
  if (ovi_overflows_page_select_record (self, record))
    scroll_to_selected (self);
}

static void
rows_changed (OviOverflowsPage *self)
{
  update_state (self);
  follow_session_record (self);
  /* The row a search hid is selected again when it shows again (Escape
   * after a search that matched nothing), not the first row. */
  if (gtk_single_selection_get_selected_item (self->record_selection) == NULL &&
      self->hidden_record != NULL)
    {
      gboolean first_chosen = self->first_chosen;

      if (ovi_overflows_page_select_record (self, self->hidden_record))
        {
          self->first_chosen = first_chosen;
          scroll_to_selected (self);
          return;
        }
    }
  /* The first record (the first overflow in the default order) is
   * selected until the user picks another, also when an earlier one
   * arrives later in the scan (another device's, or another folder's). */
  if ((gtk_single_selection_get_selected_item (self->record_selection) == NULL ||
       (self->first_chosen && gtk_single_selection_get_selected (self->record_selection) != 0)) &&
      g_list_model_get_n_items (G_LIST_MODEL (self->record_selection)) > 0)
    {
      self->choosing_first = TRUE;
      gtk_single_selection_set_selected (self->record_selection, 0);
      self->choosing_first = FALSE;
      self->first_chosen = TRUE;
      scroll_to_selected (self);
    }
}

static void
selection_changed (OviOverflowsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  gpointer item;

  if (session == NULL || self->record_selection == NULL)
    return;
  item = gtk_single_selection_get_selected_item (self->record_selection);
  if (item == NULL && ovi_session_get_selected_record (session) != NULL)
    g_set_object (&self->hidden_record, ovi_session_get_selected_record (session));
  else if (item != NULL)
    g_clear_object (&self->hidden_record);
  /* Rows arriving above the selected one move it without changing it. */
  if (!self->choosing_first && item != ovi_session_get_selected_record (session))
    self->first_chosen = FALSE;
  ovi_session_set_selected_record (session, item);
}

static void
unit_selected (OviOverflowsPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  guint selected = gtk_drop_down_get_selected (self->unit_dropdown);

  if (session != NULL)
    ovi_session_set_unit_filter (session,
                                 selected == GTK_INVALID_LIST_POSITION ? -1 : (int) selected - 1);
}

static gboolean
record_visible (gpointer item, gpointer user_data)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (user_data));

  return session == NULL || ovi_session_record_visible (session, item);
}

static void
filters_changed (OviOverflowsPage *self)
{
  gtk_filter_changed (GTK_FILTER (self->custom_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* --- keyboard ------------------------------------------------------------ */

/* Escape empties the search, and the table shows every row again. */
static void
search_stopped (OviOverflowsPage *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->record_search), "");
}

/* Enter (or a double click) on a row selects it and moves the keyboard
 * into its details. */
static void
row_activated (OviOverflowsPage *self, guint position)
{
  gtk_single_selection_set_selected (self->record_selection, position);
  gtk_widget_child_focus (GTK_WIDGET (self->record_details), GTK_DIR_TAB_FORWARD);
}

/* --- copying and the context menu --------------------------------------- */

/* The text @record shows in @column. */
static char *
cell_text (OviOverflowsPage *self, GtkColumnViewColumn *column, OviOverflowRecord *record)
{
  OviDumpFile *file = ovi_overflow_record_get_file (record);
  OviDumpFile *op = ovi_overflow_record_get_op (record);
  gint64 gap;

  if (column == self->record_position_column)
    return g_strdup_printf ("%u", ovi_overflow_record_get_position (record) + 1);
  if (column == self->record_root_column)
    return file ? ovi_dump_file_dup_root_name (file) : NULL;
  if (column == self->record_device_column)
    return g_strdup (file ? ovi_dump_file_get_device (file) : NULL);
  if (column == self->record_iteration_column)
    return g_strdup (file ? ovi_dump_file_get_iteration (file) : NULL);
  if (column == self->record_unit_column)
    return g_strdup (ovi_overflow_record_get_unit_name (record));
  if (column == self->record_op_type_column)
    return g_strdup (op ? ovi_dump_file_get_op_type (op) : NULL);
  if (column == self->record_op_name_column)
    return format_op_name (NULL, op ? ovi_dump_file_get_op_name (op) : NULL);
  if (column == self->record_task_column)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_overflow_record_get_task_id (record));
  if (column == self->record_stream_column)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_overflow_record_get_stream_id (record));
  if (column == self->record_status_column)
    return ovi_overflow_record_dup_status_summary (record);
  if (column == self->record_timestamp_column)
    return ovi_format_timestamp (file ? ovi_dump_file_get_timestamp (file) : 0);
  if (column == self->record_gap_column)
    return ovi_overflow_record_get_gap (record, &gap) ? ovi_format_gap (gap) : NULL;
  g_return_val_if_reached (NULL);
}

/**
 * ovi_overflows_page_dup_row_text:
 *
 * Returns: (nullable): the selected record as one line, its cells in the
 *   order of the table's columns, separated by tabs: the columns the
 *   table shows (Folder and Device only when several are open, and not
 *   those a narrow window hides); %NULL when none is selected
 */
char *
ovi_overflows_page_dup_row_text (OviOverflowsPage *self)
{
  OviOverflowRecord *record;
  GListModel *columns;
  GString *text = g_string_new (NULL);
  guint n_cells = 0;

  g_return_val_if_fail (OVI_IS_OVERFLOWS_PAGE (self), NULL);

  record = gtk_single_selection_get_selected_item (self->record_selection);
  if (record == NULL)
    return g_string_free (text, TRUE);
  columns = gtk_column_view_get_columns (self->record_view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      g_autofree char *cell = NULL;

      if (!gtk_column_view_column_get_visible (column))
        continue;
      cell = cell_text (self, column, record);
      g_string_append_printf (text, "%s%s", n_cells++ > 0 ? "\t" : "", cell ? cell : "");
    }
  return g_string_free (text, FALSE);
}

/* Ctrl+C in the table (and the menu's Copy Row). */
static void
copy_row_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autofree char *text = ovi_overflows_page_dup_row_text (OVI_OVERFLOWS_PAGE (widget));

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static GMenuModel *
build_row_menu (gpointer data)
{
  OviOverflowsPage *self = data;
  OviOverflowRecord *record = gtk_single_selection_get_selected_item (self->record_selection);
  OviDumpFile *file = record ? ovi_overflow_record_get_file (record) : NULL;
  GMenu *menu;

  if (record == NULL)
    return NULL;
  menu = g_menu_new ();
  g_menu_append (menu, _ ("_Copy Row"), "overflows.copy-row");
  if (file != NULL)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_ ("Show in _Files"), NULL);

      g_menu_item_set_action_and_target_value (
          item, "win.open-folder", g_variant_new_string (ovi_dump_file_get_path (file)));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

/* --- object ------------------------------------------------------------- */

static void
ovi_overflows_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviOverflowsPage *self = OVI_OVERFLOWS_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (old_session, self);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::selected-node", G_CALLBACK (filters_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::unit-filter", G_CALLBACK (filters_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::loading", G_CALLBACK (update_state), self,
                               G_CONNECT_SWAPPED);
      /* A file's finding needs its summary, made after the scan. */
      g_signal_connect_object (session, "notify::busy", G_CALLBACK (update_state), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::folder", G_CALLBACK (update_state), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-record",
                               G_CALLBACK (follow_session_record), self, G_CONNECT_SWAPPED);
      unit_selected (self);
    }
  update_state (self);
}

static void
ovi_overflows_page_dispose (GObject *object)
{
  OviOverflowsPage *self = OVI_OVERFLOWS_PAGE (object);

  ovi_scheduler_remove (self->fit_task);
  self->fit_task = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_OVERFLOWS_PAGE);
  self->custom_filter = NULL;
  g_clear_object (&self->hidden_record);
  G_OBJECT_CLASS (ovi_overflows_page_parent_class)->dispose (object);
}

static void
ovi_overflows_page_class_init (OviOverflowsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  OviPageClass *page_class = OVI_PAGE_CLASS (klass);

  object_class->dispose = ovi_overflows_page_dispose;
  page_class->session_changed = ovi_overflows_page_session_changed;

  g_type_ensure (OVI_TYPE_ACCESSIBLE_ROW);
  g_type_ensure (OVI_TYPE_OVERFLOW_RECORD);
  g_type_ensure (OVI_TYPE_RECORD_VIEW);
  g_type_ensure (OVI_TYPE_SESSION);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-overflows-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, paned);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_details);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_empty_page);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, show_tensor_button);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_filter);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_device_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_gap_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_iteration_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_op_name_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_position_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_root_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_status_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_unit_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_op_type_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_search);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_selection);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_stack);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_stream_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_task_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_timestamp_column);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, record_view);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, scanning_spinner);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, unit_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviOverflowsPage, unit_list);

  gtk_widget_class_bind_template_callback (widget_class, first_classes);
  gtk_widget_class_bind_template_callback (widget_class, format_op_name);
  gtk_widget_class_bind_template_callback_full (widget_class, "format_gap",
                                                G_CALLBACK (ovi_format_gap_closure));
  gtk_widget_class_bind_template_callback (widget_class, format_position);
  gtk_widget_class_bind_template_callback_full (widget_class, "format_timestamp",
                                                G_CALLBACK (ovi_format_timestamp_closure));
  gtk_widget_class_bind_template_callback_full (widget_class, "iteration_number",
                                                G_CALLBACK (ovi_format_iteration_number));
  gtk_widget_class_bind_template_callback (widget_class, more_than_one);
  gtk_widget_class_bind_template_callback (widget_class, not_ignored);
  gtk_widget_class_bind_template_callback (widget_class, op_name_classes);
  gtk_widget_class_bind_template_callback (widget_class, record_row_name);
  gtk_widget_class_bind_template_callback (widget_class, rows_changed);
  gtk_widget_class_bind_template_callback_full (widget_class, "search_text",
                                                G_CALLBACK (ovi_format_search_text));
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback_full (widget_class, "timestamp_tooltip",
                                                G_CALLBACK (ovi_format_timestamp_tooltip));
  gtk_widget_class_bind_template_callback (widget_class, unit_selected);

  gtk_widget_class_install_action (widget_class, "overflows.copy-row", NULL, copy_row_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "overflows.copy-row", NULL);
}

/* The record details pane, beside or below the table. */
#define DETAILS_WIDTH 360

/* A table wider than its view would hide its last columns past the edge
 * (at the default 1200 px window, "Since Previous"): no column is left to
 * scrolling, the details show what a hidden column would. The pixels the
 * paned's handle and the table's border take are kept free. */
#define SCROLL_SLACK (-4)

/* The sum of the columns' widths: what the table needs to show them all
 * without scrolling. */
static int
columns_width (OviOverflowsPage *self, gboolean visible_only)
{
  GListModel *columns = gtk_column_view_get_columns (self->record_view);
  int width = 0;

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      gboolean origin = column == self->record_root_column || column == self->record_device_column;

      /* Folder and Device count when the session shows them, the others
       * also when the layout hid them. */
      if ((!visible_only && !origin) || gtk_column_view_column_get_visible (column))
        width += MAX (gtk_column_view_column_get_fixed_width (column), 0);
    }
  return width;
}

/* GTK 4.8 has no breakpoints: the page lays itself out by its width, as
 * GNOME apps adapt. When the table and the details do not fit side by
 * side, the details go below the table, which then has the page's width.
 * When even that cannot show every column (but for a little scrolling),
 * the columns the details also show are hidden, least needed first, so that #, Iteration, Unit, Op
 * Name and Status keep their width. Both depend on the page's width alone, so the layout cannot
 * flip back and forth. */
static void
fit_layout (OviOverflowsPage *self)
{
  GtkColumnViewColumn *optional[] = {
    self->record_gap_column,  self->record_timestamp_column, self->record_stream_column,
    self->record_task_column, self->record_op_type_column,
  };
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  int needed = columns_width (self, FALSE);
  gboolean below;
  guint n_hidden = 0;

  if (width <= 0 || (width == self->fitted_width && !self->place_handle))
    return;
  self->fitted_width = width;
  below = width < needed - SCROLL_SLACK + DETAILS_WIDTH;
  if (below !=
      (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == GTK_ORIENTATION_VERTICAL))
    {
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->paned),
                                      below ? GTK_ORIENTATION_VERTICAL
                                            : GTK_ORIENTATION_HORIZONTAL);
      /* Below, the details scroll in what the table leaves them, and the
       * two share a change of the window's height. */
      gtk_paned_set_shrink_end_child (self->paned, below);
      gtk_paned_set_resize_end_child (self->paned, below);
      self->place_handle = TRUE;
    }
  /* Half the height for each; beside, the table takes what is left. Once
   * the paned has its new orientation (it resets the handle when it
   * changes): after the table's next change of width. */
  else if (self->place_handle)
    {
      self->place_handle = FALSE;
      gtk_paned_set_position (self->paned, below ? height / 2 : width - DETAILS_WIDTH);
    }
  /* Drop from the front until the rest fit. */
  while (n_hidden < G_N_ELEMENTS (optional) &&
         needed > (below ? width : width - DETAILS_WIDTH) + SCROLL_SLACK)
    {
      needed -= MAX (gtk_column_view_column_get_fixed_width (optional[n_hidden]), 0);
      n_hidden++;
    }
  for (guint i = 0; i < G_N_ELEMENTS (optional); i++)
    if (gtk_column_view_column_get_visible (optional[i]) != (i >= n_hidden))
      gtk_column_view_column_set_visible (optional[i], i >= n_hidden);
}

static gboolean
fit_layout_cb (gint64 deadline, gpointer data)
{
  OviOverflowsPage *self = data;

  /* No header cut, in any language: once the headers are laid out. */
  if (!ovi_columns_fit_titles (self->record_view) &&
      gtk_widget_get_mapped (GTK_WIDGET (self->record_view)))
    return TRUE;
  self->fit_task = 0;
  fit_layout (self);
  return FALSE;
}

/* The width is known while the page is being laid out, when its children
 * cannot change: they change right after. The table's width follows the
 * page's in both orientations, and its adjustment says when it changed
 * ("changed" comes when "notify::page-size" alone does not). */
static void
width_changed (OviOverflowsPage *self)
{
  if (self->fit_task == 0 &&
      (gtk_widget_get_width (GTK_WIDGET (self)) != self->fitted_width || self->place_handle))
    self->fit_task = ovi_scheduler_add (fit_layout_cb, self, NULL);
}

/* Folder or Device came or went: the table needs another width. */
static void
origin_columns_changed (OviOverflowsPage *self)
{
  self->fitted_width = 0;
  width_changed (self);
}

static void
ovi_overflows_page_init (OviOverflowsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_string_list_append (self->unit_list, _ ("All Units"));
  for (OviUnit unit = 0; unit <= OVI_UNIT_LAST; unit++)
    gtk_string_list_append (self->unit_list, ovi_unit_label (ovi_unit_name (unit)));

  g_signal_connect_swapped (self->record_search, "stop-search", G_CALLBACK (search_stopped), self);
  g_signal_connect_swapped (self->record_view, "activate", G_CALLBACK (row_activated), self);
  /* A click on a header sorts again; the selection stays (the selection
   * model finds its item among the sorted rows) and comes into view. Runs
   * after the sort model, which connected first. */
  g_signal_connect_object (gtk_column_view_get_sorter (self->record_view), "changed",
                           G_CALLBACK (scroll_to_selected), self, G_CONNECT_SWAPPED);

  self->custom_filter = gtk_custom_filter_new (record_visible, self, NULL);
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->record_filter),
                           GTK_FILTER (self->custom_filter));
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->record_view)),
                           "changed", G_CALLBACK (width_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->record_view)),
                           "notify::page-size", G_CALLBACK (width_changed), self,
                           G_CONNECT_SWAPPED);
  ovi_row_menu_attach (self->record_view, build_row_menu, self);
  g_signal_connect_swapped (self->record_root_column, "notify::visible",
                            G_CALLBACK (origin_columns_changed), self);
  g_signal_connect_swapped (self->record_device_column, "notify::visible",
                            G_CALLBACK (origin_columns_changed), self);
  update_state (self);
}

gboolean
ovi_overflows_page_select_record (OviOverflowsPage *self, OviOverflowRecord *record)
{
  GListModel *model;

  g_return_val_if_fail (OVI_IS_OVERFLOWS_PAGE (self), FALSE);

  model = G_LIST_MODEL (self->record_selection);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (OviOverflowRecord) item = g_list_model_get_item (model, i);

      if (item == record)
        {
          gtk_single_selection_set_selected (self->record_selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

void
ovi_overflows_page_focus_search (OviOverflowsPage *self)
{
  g_return_if_fail (OVI_IS_OVERFLOWS_PAGE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->record_search));
}

/* The keyboard on the table: its selected record, or the first. */
void
ovi_overflows_page_focus_table (OviOverflowsPage *self)
{
  g_return_if_fail (OVI_IS_OVERFLOWS_PAGE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->record_view));
}

GtkColumnView *
ovi_overflows_page_get_column_view (OviOverflowsPage *self)
{
  g_return_val_if_fail (OVI_IS_OVERFLOWS_PAGE (self), NULL);
  return self->record_view;
}

OviRecordView *
ovi_overflows_page_get_record_view (OviOverflowsPage *self)
{
  g_return_val_if_fail (OVI_IS_OVERFLOWS_PAGE (self), NULL);
  return self->record_details;
}

/**
 * ovi_overflows_page_get_state:
 *
 * Returns: what the page shows: "table", "scanning" or "empty"
 */
const char *
ovi_overflows_page_get_state (OviOverflowsPage *self)
{
  g_return_val_if_fail (OVI_IS_OVERFLOWS_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->record_stack);
}
