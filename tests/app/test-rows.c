/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-row-menu.h"
#include "ovi-test-util.h"

/* Where a row comes from and what the keyboard does with it: the Device
 * and Folder columns of the Overflows table and the record details. */

/* The AdwActionRow titled @title below @widget. */
static GtkWidget *
find_row (GtkWidget *widget, const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_ACTION_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return child;
      if ((found = find_row (child, title)))
        return found;
    }
  return NULL;
}

/* The value the record details give for the field @title, NULL when they
 * have no such field. */
static char *
field_value (OviWindow *window, const char *title)
{
  GtkWidget *row = find_row (GTK_WIDGET (ovi_window_get_record_details (window)), title);
  GString *text;

  if (row == NULL)
    return NULL;
  text = g_string_new (NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (row); child;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, text);
  return g_string_free (text, FALSE);
}

/* Whether the record table shows its column titled @title. */
static gboolean
column_shown (OviWindow *window, const char *title)
{
  return gtk_column_view_column_get_visible (
      column_by_title (ovi_window_get_record_view (window), title));
}

/* Opens @paths together in @window and waits until its table shows rows
 * (16 records need not all fit in its height). */
static void
open_folders (OviWindow *window, const char *const *paths, guint n)
{
  GFile *files[4];

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (files));
  for (guint i = 0; i < n; i++)
    files[i] = g_file_new_for_path (paths[i]);
  ovi_window_open_files (window, files, n);
  for (guint i = 0; i < n; i++)
    g_object_unref (files[i]);
  WAIT_UNTIL (!ovi_window_get_busy (window));
  WAIT_UNTIL (n_visible_rows (ovi_window_get_record_view (window)) >= 5);
  ovi_test_wait_still ();
}

/* Two folders of eight devices each: Folder and Device columns with each
 * record's root and device, and the details say both; one folder of eight
 * devices: Device alone; the example (one device): neither. */
static void
test_device_and_folder_columns (Fixture *f, gconstpointer data)
{
  g_autofree char *root_a = g_build_filename (f->tmpdir, "A", NULL);
  g_autofree char *root_b = g_build_filename (f->tmpdir, "B", NULL);
  const char *both[] = { root_a, root_b };
  OviSession *session = ovi_window_get_session (f->window);
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  GListModel *records;
  g_autoptr (GPtrArray) rows = NULL;
  gboolean seen_a = FALSE, seen_b = FALSE;

  /* The example: one folder, one device. */
  g_assert_false (column_shown (f->window, "Folder"));
  g_assert_false (column_shown (f->window, "Device"));

  ovi_fixture_write_machine (root_a, 3, 0);
  ovi_fixture_write_machine (root_b, -1, 50);
  open_folders (f->window, both, 2);
  g_assert_true (column_shown (f->window, "Folder"));
  g_assert_true (column_shown (f->window, "Device"));
  records = ovi_session_get_records (session);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >=, 5);
  g_assert_cmpuint (rows->len, <=, g_list_model_get_n_items (records));
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);
      g_autofree char *expected_root = ovi_dump_file_dup_root_name (file);
      g_autofree char *position = cell (rows, i, 0);
      g_autofree char *root = cell (rows, i, 1);
      g_autofree char *device = cell (rows, i, 2);
      g_autofree char *expected_position = g_strdup_printf ("%u", i + 1);

      g_test_message ("row %u: %s", i, (char *) g_ptr_array_index (rows, i));
      g_assert_cmpstr (position, ==, expected_position);
      g_assert_cmpstr (root, ==, expected_root);
      g_assert_cmpstr (device, ==, ovi_dump_file_get_device (file));
      seen_a = seen_a || g_str_equal (root, "A");
      seen_b = seen_b || g_str_equal (root, "B");
    }
  g_assert_true (seen_a && seen_b);

  /* The details of a record of B say where it comes from. */
  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);
      g_autofree char *root = ovi_dump_file_dup_root_name (file);

      if (g_str_equal (root, "B") && !g_str_equal (ovi_dump_file_get_device (file), "0"))
        {
          g_autofree char *folder_field = NULL;
          g_autofree char *device_field = NULL;

          ovi_session_set_selected_record (session, record);
          wait_details (f->window, record);
          folder_field = field_value (f->window, _ ("Folder"));
          device_field = field_value (f->window, _ ("Device"));
          g_assert_nonnull (folder_field);
          g_assert_nonnull (strstr (folder_field, "|B"));
          g_assert_nonnull (device_field);
          g_assert_true (g_str_has_suffix (device_field, ovi_dump_file_get_device (file)));
          break;
        }
    }

  /* One folder, eight devices: no Folder column, a Device column. */
  open_folders (f->window, both, 1);
  g_assert_false (column_shown (f->window, "Folder"));
  g_assert_true (column_shown (f->window, "Device"));
  {
    g_autoptr (OviOverflowRecord) record =
        g_list_model_get_item (ovi_session_get_records (session), 0);
    g_autofree char *folder_field = NULL;
    g_autofree char *device_field = NULL;

    ovi_session_set_selected_record (session, record);
    wait_details (f->window, record);
    folder_field = field_value (f->window, _ ("Folder"));
    device_field = field_value (f->window, _ ("Device"));
    g_assert_null (folder_field);
    g_assert_nonnull (device_field);
    g_assert_true (g_str_has_suffix (
        device_field, ovi_dump_file_get_device (ovi_overflow_record_get_file (record))));
  }

  /* The example again: one device, neither column; the details still say
   * which device. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-example", NULL);
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  wait_records_listed (f->window);
  g_assert_false (column_shown (f->window, "Folder"));
  g_assert_false (column_shown (f->window, "Device"));
  {
    g_autoptr (OviOverflowRecord) first =
        g_list_model_get_item (ovi_session_get_records (session), 0);
    g_autofree char *device_field = NULL;

    wait_details (f->window, first);
    device_field = field_value (f->window, _ ("Device"));
    g_assert_nonnull (device_field);
    g_assert_true (g_str_has_suffix (device_field, "|0"));
  }
}

/* What Tab does where the focus is: out of the record table, as the
 * window's key handler does, and elsewhere GTK's own move (GtkWindow's
 * move-focus binding: gtk_widget_child_focus() on the window). */
static void
press_tab (OviWindow *window, GtkDirectionType direction)
{
  if (!_ovi_window_tab_out_of_list (window, direction))
    gtk_widget_child_focus (GTK_WIDGET (window), direction);
}

/* Whether the keyboard is on @button or on the row that Enter activates
 * it from. */
static gboolean
focus_on (OviWindow *window, GtkWidget *button)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL &&
         (focus == button ||
          (ADW_IS_ACTION_ROW (focus) && gtk_widget_is_ancestor (button, focus) &&
           adw_action_row_get_activatable_widget (ADW_ACTION_ROW (focus)) == button));
}

/* The record details are a few tab stops, one per group, not one per
 * field, value and button: from the table, Tab reaches the first
 * tensor's Show in at most 5 presses (the status, the fields, the
 * operator, the tensors), and Shift+Tab goes back as many. */
#define MAX_TABS_TO_SHOW 5

static void
test_details_tab_stops (Fixture *f, gconstpointer data)
{
  GtkColumnView *records = ovi_window_get_record_view (f->window);
  GtkWidget *list = inner_list (records);
  GtkWidget *details = GTK_WIDGET (ovi_window_get_record_details (f->window));
  OviSession *session = ovi_window_get_session (f->window);
  g_autoptr (OviOverflowRecord) first =
      g_list_model_get_item (ovi_session_get_records (session), 0);
  GtkWidget *row = NULL, *show;
  guint tabs = 0, back = 0;

  wait_details (f->window, first);
  show = find_button (details, "Show");
  g_assert_nonnull (show);
  for (GtkWidget *child = gtk_widget_get_first_child (list); child && row == NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_mapped (child) && gtk_widget_get_focusable (child))
      row = child;
  g_assert_true (gtk_widget_grab_focus (row));
  while (!focus_on (f->window, show) && tabs < 200)
    {
      press_tab (f->window, GTK_DIR_TAB_FORWARD);
      tabs++;
      g_test_message ("Tab %u: %s", tabs,
                      G_OBJECT_TYPE_NAME (gtk_root_get_focus (GTK_ROOT (f->window))));
    }
  g_test_message ("%u Tabs from the table to the first Show", tabs);
  g_assert_true (focus_on (f->window, show));
  g_assert_cmpuint (tabs, <=, MAX_TABS_TO_SHOW);

  /* Down goes to the next tensor, in the same group. */
  {
    GtkWidget *tensor_row = gtk_root_get_focus (GTK_ROOT (f->window));

    /* What the Down key does in a list box (its key binding). */
    g_signal_emit_by_name (gtk_widget_get_parent (tensor_row), "move-cursor",
                           GTK_MOVEMENT_DISPLAY_LINES, 1, FALSE, FALSE);
    g_assert_true (gtk_root_get_focus (GTK_ROOT (f->window)) != tensor_row);
    g_assert_true (gtk_widget_get_parent (gtk_root_get_focus (GTK_ROOT (f->window))) ==
                   gtk_widget_get_parent (tensor_row));
  }

  /* Shift+Tab back to the table, as many steps. */
  while (!focus_inside (f->window, records) && back < 200)
    {
      press_tab (f->window, GTK_DIR_TAB_BACKWARD);
      back++;
      {
        GtkWidget *fw = gtk_root_get_focus (GTK_ROOT (f->window));
        g_test_message ("Shift+Tab %u: %s %s", back, G_OBJECT_TYPE_NAME (fw),
                        ADW_IS_PREFERENCES_ROW (fw)
                            ? adw_preferences_row_get_title (ADW_PREFERENCES_ROW (fw))
                            : "");
      }
    }
  g_assert_true (focus_inside (f->window, records));
  g_assert_cmpuint (back, ==, tabs);
}

/* The text on the clipboard of @widget, read as another program would
 * (gdk_clipboard_read_text_async), waiting for the answer. */
static void
text_read (GObject *clipboard, GAsyncResult *result, gpointer data)
{
  char **text = data;
  g_autoptr (GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (clipboard), result, &error);
  g_assert_no_error (error);
}

static char *
read_clipboard (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, text_read, &text);
  WAIT_UNTIL (text != NULL);
  return text;
}

/* Puts @text on the clipboard, so that a copy is seen to replace it. */
static void
clear_clipboard (GtkWidget *widget)
{
  g_autofree char *text = NULL;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), "-");
  text = read_clipboard (widget);
  g_assert_cmpstr (text, ==, "-");
}

/* The mapped row widget of @view at @index from the top. */
static GtkWidget *
row_widget (GtkColumnView *view, guint index)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *list = inner_list (view);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) && gtk_widget_get_first_child (row) != NULL)
      g_ptr_array_add (rows, row);
  /* visible_rows() orders them top to bottom the same way. */
  for (guint i = 0; i < rows->len; i++)
    for (guint j = i + 1; j < rows->len; j++)
      {
        graphene_rect_t a, b;

        g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (rows, i), list, &a));
        g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (rows, j), list, &b));
        if (b.origin.y < a.origin.y)
          {
            gpointer t = rows->pdata[i];

            rows->pdata[i] = rows->pdata[j];
            rows->pdata[j] = t;
          }
      }
  g_assert_cmpuint (index, <, rows->len);
  return g_ptr_array_index (rows, index);
}

/* @row of visible_rows() with tabs between its cells, as Ctrl+C copies it. */
static char *
tabbed (GPtrArray *rows, guint row)
{
  g_auto (GStrv) cells = g_strsplit (g_ptr_array_index (rows, row), "|", -1);

  return g_strjoinv ("\t", cells);
}

/* A folder opened and listed: the keyboard is on the first record, not on
 * the header's first button (the issue counted 15 Tabs from there). */
static void
test_first_record_focused (Fixture *f, gconstpointer data)
{
  GtkColumnView *records = ovi_window_get_record_view (f->window);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));

  g_test_message ("focus: %s", focus ? G_OBJECT_TYPE_NAME (focus) : "none");
  g_assert_nonnull (focus);
  g_assert_true (focus == row_widget (records, 0) ||
                 gtk_widget_is_ancestor (focus, row_widget (records, 0)));
}

/* Ctrl+C copies the selected row of the table, its cells in the columns'
 * order; in the details, the focused field's value. A right click on a
 * row selects it and opens its menu: Copy Row, and Show in Files with the
 * record's file; the Menu key opens it at the selected row. */
static void
test_copy_and_menu (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_record_view (f->window);
  GtkWidget *details = GTK_WIDGET (ovi_window_get_record_details (f->window));
  OviSession *session = ovi_window_get_session (f->window);
  GListModel *records = ovi_session_get_records (session);
  g_autoptr (OviOverflowRecord) first = g_list_model_get_item (records, 0);
  g_autoptr (OviOverflowRecord) third = g_list_model_get_item (records, 2);
  g_autoptr (GPtrArray) rows = visible_rows (view);
  g_autofree char *expected = tabbed (rows, 0);
  g_autofree char *copied = NULL;
  GtkPopover *popover;

  /* The first row, selected, has the keyboard: Ctrl+C. */
  wait_details (f->window, first);
  g_assert_true (gtk_widget_grab_focus (row_widget (view, 0)));
  clear_clipboard (GTK_WIDGET (f->window));
  if (!xdotool_keys (row_widget (view, 0), "ctrl+c"))
    return;
  WAIT_UNTIL ((copied = read_clipboard (GTK_WIDGET (f->window))) != NULL &&
              !g_str_equal (copied, "-"));
  g_test_message ("copied %s", copied);
  g_assert_cmpstr (copied, ==, expected);
  g_assert_nonnull (strstr (copied, "\tgradients/Cast_3\t"));
  g_clear_pointer (&copied, g_free);

  /* In the details: the Task id field, by the keyboard. */
  {
    GtkWidget *task = find_row (details, _ ("Task id"));

    g_assert_true (gtk_widget_grab_focus (task));
    clear_clipboard (GTK_WIDGET (f->window));
    xdotool_keys (task, "ctrl+c");
    WAIT_UNTIL ((copied = read_clipboard (GTK_WIDGET (f->window))) != NULL &&
                !g_str_equal (copied, "-"));
    g_test_message ("details copied %s", copied);
    g_assert_cmpstr (copied, ==, "57");
    g_clear_pointer (&copied, g_free);
  }

  /* A right click on the third row selects it and opens its menu. */
  xdotool_click (row_widget (view, 2), 3);
  WAIT_UNTIL ((popover = ovi_row_menu_get_popover (view)) != NULL &&
              gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (ovi_session_get_selected_record (session) == third);
  {
    GMenuModel *menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
    g_autofree char *action = NULL, *label = NULL;
    g_autoptr (GVariant) target = NULL;

    g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
    g_assert_true (
        g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action));
    g_assert_cmpstr (action, ==, "overflows.copy-row");
    g_clear_pointer (&action, g_free);
    g_assert_true (g_menu_model_get_item_attribute (menu, 1, G_MENU_ATTRIBUTE_LABEL, "s", &label));
    g_assert_cmpstr (label, ==, _ ("Show in _Files"));
    g_assert_true (
        g_menu_model_get_item_attribute (menu, 1, G_MENU_ATTRIBUTE_ACTION, "s", &action));
    g_assert_cmpstr (action, ==, "win.open-folder");
    target = g_menu_model_get_item_attribute_value (menu, 1, G_MENU_ATTRIBUTE_TARGET,
                                                    G_VARIANT_TYPE_STRING);
    g_assert_cmpstr (g_variant_get_string (target, NULL), ==,
                     ovi_dump_file_get_path (ovi_overflow_record_get_file (third)));
    g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (popover)));
  }
  /* Its Copy Row. */
  clear_clipboard (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (popover), "overflows.copy-row", NULL));
  gtk_popover_popdown (popover);
  WAIT_UNTIL ((copied = read_clipboard (GTK_WIDGET (f->window))) != NULL &&
              !g_str_equal (copied, "-"));
  {
    g_autoptr (GPtrArray) now = visible_rows (view);
    g_autofree char *third_row = tabbed (now, 2);

    g_assert_cmpstr (copied, ==, third_row);
  }
  g_clear_pointer (&copied, g_free);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (popover)));

  /* The Menu key opens it at the selected row. */
  g_assert_true (gtk_widget_grab_focus (row_widget (view, 2)));
  xdotool_keys (row_widget (view, 2), "Menu");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  gtk_popover_popdown (popover);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (popover)));
}

/* Ctrl+C on the Operators table copies the selected operator's row, and
 * its menu shows the op dump file in the file manager. */
static void
test_copy_operator (Fixture *f, gconstpointer data)
{
  GtkColumnView *view = ovi_window_get_op_view (f->window);
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *copied = NULL;
  GtkPopover *popover;
  OviDumpFile *selected;

  ovi_window_show_page (f->window, "operators");
  wait_operators_listed (f->window);
  rows = visible_rows (view);
  g_assert_cmpuint (rows->len, >=, 2);
  g_assert_true (gtk_widget_grab_focus (row_widget (view, 1)));
  gtk_widget_activate_action (row_widget (view, 1), "listitem.select", "(bb)", FALSE, FALSE);
  ovi_test_wait_still ();
  expected = tabbed (rows, 1);
  clear_clipboard (GTK_WIDGET (f->window));
  if (!xdotool_keys (row_widget (view, 1), "ctrl+c"))
    return;
  WAIT_UNTIL ((copied = read_clipboard (GTK_WIDGET (f->window))) != NULL &&
              !g_str_equal (copied, "-"));
  g_test_message ("copied %s", copied);
  g_assert_cmpstr (copied, ==, expected);

  xdotool_click (row_widget (view, 1), 3);
  WAIT_UNTIL ((popover = ovi_row_menu_get_popover (view)) != NULL &&
              gtk_widget_get_mapped (GTK_WIDGET (popover)));
  selected = ovi_session_get_selected_file (ovi_window_get_session (f->window));
  g_assert_nonnull (selected);
  {
    GMenuModel *menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
    g_autoptr (GVariant) target = g_menu_model_get_item_attribute_value (
        menu, 1, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);

    g_assert_cmpstr (g_variant_get_string (target, NULL), ==, ovi_dump_file_get_path (selected));
  }
  gtk_popover_popdown (popover);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (popover)));
}

/* Whether @menu (or a section of it) has an item for @action. */
static gboolean
menu_has_action (GMenuModel *menu, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_str_equal (name, action))
        return TRUE;
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

/* The shape in the header of the .npy file @path, "(1, 4, 8, 8)", and the
 * bytes of data after the header. */
static char *
npy_shape (const char *path, gsize *data_length)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  const char *shape, *end;
  guint header;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 10);
  g_assert_true (memcmp (contents, "\x93NUMPY\x01\x00", 8) == 0);
  header = (guchar) contents[8] | ((guchar) contents[9] << 8);
  *data_length = length - 10 - header;
  shape = g_strstr_len (contents + 10, header, "'shape': (");
  g_assert_nonnull (shape);
  end = strchr (shape, ')');
  return g_strndup (shape + 9, end - shape - 8);
}

/* A tensor stored in NC1HWC0 (the example's Conv2D output, 256 values
 * stored in 1,024) exports in its logical layout from the export menu:
 * the .npy has the original shape and 256 values; the stored export keeps
 * the device shape. */
static void
test_export_logical_layout (Fixture *f, gconstpointer data)
{
  OviOverflowRecord *record = find_record (f->window, 0x20);
  OviDumpFile *op = record ? ovi_overflow_record_get_op (record) : NULL;
  GPtrArray *tensors;
  OviTensor *tensor = NULL;
  guint index = 0;
  g_autofree char *logical_path = g_build_filename (f->tmpdir, "logical.npy", NULL);
  g_autofree char *stored_path = g_build_filename (f->tmpdir, "stored.npy", NULL);
  g_autofree char *logical_shape = NULL, *stored_shape = NULL;
  g_autoptr (GError) error = NULL;
  gsize logical_bytes = 0, stored_bytes = 0;

  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (f->window->export_button),
                                  "win.export-tensor-npy-logical"));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (f->window->export_button),
                                  "win.export-tensor-txt-logical"));
  g_assert_nonnull (op);
  tensors = ovi_dump_file_get_tensors (op);
  for (guint i = 0; i < tensors->len && tensor == NULL; i++)
    if (ovi_tensor_get_is_logical (g_ptr_array_index (tensors, i)))
      tensor = g_ptr_array_index (tensors, index = i);
  g_assert_nonnull (tensor);
  g_assert_cmpuint (ovi_tensor_get_logical_count (tensor), ==, 256);
  g_assert_cmpuint (ovi_tensor_get_count (tensor), ==, 1024);
  ovi_window_show_tensor (f->window, op, index);
  WAIT_UNTIL (ovi_session_get_selected_tensor (ovi_window_get_session (f->window)) == tensor);

  g_assert_true (ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_TENSOR_NPY_LOGICAL,
                                            logical_path, &error));
  g_assert_no_error (error);
  g_assert_true (
      ovi_window_export_to_path (f->window, OVI_WINDOW_EXPORT_TENSOR_NPY, stored_path, &error));
  g_assert_no_error (error);
  logical_shape = npy_shape (logical_path, &logical_bytes);
  stored_shape = npy_shape (stored_path, &stored_bytes);
  g_test_message ("logical %s, %" G_GSIZE_FORMAT " bytes; stored %s, %" G_GSIZE_FORMAT " bytes",
                  logical_shape, logical_bytes, stored_shape, stored_bytes);
  {
    guint n_dims = 0;
    const guint64 *shape = ovi_tensor_get_logical_shape (tensor, &n_dims);
    g_autoptr (GString) expected = g_string_new ("(");

    for (guint i = 0; i < n_dims; i++)
      g_string_append_printf (expected, "%s%" G_GUINT64_FORMAT, i ? ", " : "", shape[i]);
    g_string_append (expected, n_dims == 1 ? ",)" : ")");
    g_assert_cmpstr (logical_shape, ==, expected->str);
  }
  g_assert_cmpstr (stored_shape, !=, logical_shape);
  g_assert_cmpuint (logical_bytes * 4, ==, stored_bytes);
}

/* The tensor view of a tensor stored in NC1HWC0 (the example's Conv2D
 * output) switches between its logical values (the default: 256 values of
 * shape [1, 4, 8, 8]) and the values the layout stores, padding included
 * (1,024, positions in the stored shape [1, 1, 8, 8, 16]); a tensor in no
 * device layout has no such switch. */
static void
test_logical_layout_switch (Fixture *f, gconstpointer data)
{
  OviTensorView *view = ovi_window_get_tensor_view (f->window);
  OviOverflowRecord *record = find_record (f->window, 0x20);
  OviOverflowRecord *cast = find_record (f->window, 0x110);
  OviDumpFile *op = record ? ovi_overflow_record_get_op (record) : NULL;
  GtkCheckButton *logical = GTK_CHECK_BUTTON (tensor_view_child (view, "logical_check"));
  GPtrArray *tensors;
  guint index = G_MAXUINT;
  const char *saturated;

  g_assert_nonnull (op);
  tensors = ovi_dump_file_get_tensors (op);
  for (guint i = 0; i < tensors->len; i++)
    if (ovi_tensor_get_format (g_ptr_array_index (tensors, i)) == OVI_FORMAT_NC1HWC0)
      index = i;
  g_assert_cmpuint (index, <, tensors->len);

  /* No device layout: no switch. */
  ovi_window_show_tensor (f->window, ovi_overflow_record_get_op (cast), 0);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view) && tensor_info (view, "Mean") != NULL);
  ovi_test_wait_still ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (logical)));

  ovi_window_show_tensor (f->window, op, index);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view) && tensor_info (view, "Format") != NULL &&
              g_strcmp0 (tensor_info (view, "Format"), "NC1HWC0") == 0 &&
              tensor_info (view, "Mean") != NULL);
  ovi_test_wait_still ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (logical)));
  g_assert_true (gtk_check_button_get_active (logical));
  g_assert_cmpstr (tensor_info (view, "Elements"), ==, "256");
  g_assert_cmpstr (tensor_info (view, "Logical shape"), ==, "[1, 4, 8, 8] NCHW");
  g_assert_cmpstr (tensor_info (view, "Mean"), ==, "15855.4");
  g_assert_cmpstr (tensor_info (view, "Saturated (±max)"), ==, "43, first at 3 (0, 0, 0, 3)");

  /* As stored: every value, padding included, positions in the stored
   * shape. */
  gtk_check_button_set_active (logical, FALSE);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view) &&
              g_strcmp0 (tensor_info (view, "Elements"), "1024") == 0 &&
              tensor_info (view, "Mean") != NULL);
  ovi_test_wait_still ();
  g_assert_null (tensor_info (view, "Logical shape"));
  g_assert_cmpstr (tensor_info (view, "Shape"), ==, "[1, 1, 8, 8, 16]");
  g_assert_cmpstr (tensor_info (view, "Mean"), ==, "3963.86");
  g_assert_cmpstr (tensor_info (view, "Standard deviation"), ==, "20316.8");
  g_assert_cmpstr (tensor_info (view, "Zeros"), ==, "768");
  saturated = tensor_info (view, "Saturated (±max)");
  g_test_message ("stored: saturated %s", saturated);
  g_assert_cmpstr (saturated, ==, "43, first at 2 (0, 0, 0, 0, 2)");

  /* And back. */
  gtk_check_button_set_active (logical, TRUE);
  WAIT_UNTIL (!ovi_tensor_view_get_busy (view) &&
              g_strcmp0 (tensor_info (view, "Elements"), "256") == 0 &&
              tensor_info (view, "Mean") != NULL);
  g_assert_cmpstr (tensor_info (view, "Mean"), ==, "15855.4");
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;
  OVI_TEST_ADD ("/app/rows/device-and-folder-columns", test_device_and_folder_columns);
  OVI_TEST_ADD ("/app/rows/first-record-focused", test_first_record_focused);
  OVI_TEST_ADD ("/app/rows/details-tab-stops", test_details_tab_stops);
  OVI_TEST_ADD ("/app/rows/copy-and-menu", test_copy_and_menu);
  OVI_TEST_ADD ("/app/rows/copy-operator", test_copy_operator);
  OVI_TEST_ADD ("/app/rows/export-logical-layout", test_export_logical_layout);
  OVI_TEST_ADD ("/app/rows/logical-layout-switch", test_logical_layout_switch);
  return ovi_test_run ();
}
