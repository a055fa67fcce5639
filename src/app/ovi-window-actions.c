/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ovi-file-chooser.h"
#include "ovi-ignore-window.h"
#include "ovi-window-private.h"

/* The window's actions ("win.*") and what they do: opening, scanning,
 * navigating and the ignore list. Exporting is in ovi-window-export.c. */

void
_ovi_window_update_actions (OviWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  if (self->session == NULL || self->operators_page == NULL)
    return; /* constructing or disposing */
  gtk_widget_action_set_enabled (widget, "win.reload",
                                 ovi_session_get_folder (self->session) != NULL);
  /* Escape stops whatever runs: the scan, and the diff. */
  gtk_widget_action_set_enabled (
      widget, "win.cancel",
      ovi_session_get_busy (self->session) ||
          ovi_diff_state_get_running (ovi_session_get_diff (self->session)));
  gtk_widget_action_set_enabled (widget, "win.diff-with",
                                 ovi_session_get_folder (self->session) != NULL);
  gtk_widget_action_set_enabled (widget, "win.diff-with-file",
                                 ovi_session_get_folder (self->session) != NULL);
  _ovi_window_update_export_actions (self);
}

/* --- opening and scanning ------------------------------------------------ */

static void
folder_chosen (GFile *file, gpointer user_data)
{
  if (file != NULL)
    ovi_window_open_file (OVI_WINDOW (user_data), file);
}

/* Ctrl+O: the open button's menu, to open a folder, one dump file or a
 * recent folder. */
static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  adw_split_button_popup (OVI_WINDOW (widget)->open_button);
}

static void
folders_chosen (GListModel *files, gpointer user_data)
{
  g_autoptr (OviWindow) self = user_data;
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; files && i < g_list_model_get_n_items (files); i++)
    g_ptr_array_add (all, g_list_model_get_item (files, i));
  if (all->len > 0)
    ovi_window_open_files (self, (GFile *const *) all->pdata, all->len);
}

/* One folder, or several to open together (one from each machine). */
static void
open_dump_folder_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ovi_file_chooser_select_folders (GTK_WINDOW (widget), _ ("Open Dump Folders"), folders_chosen,
                                   g_object_ref (widget));
}

/* One dump or overflow file: the window shows that file alone. */
static void
open_dump_file_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ovi_file_chooser_open_file (GTK_WINDOW (widget), _ ("Open Dump File"), folder_chosen,
                              g_object_ref (widget), g_object_unref);
}

/* Menu labels take "_" for a mnemonic: a path shows its own underscores. */
static char *
escape_underscores (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

/* The longest a recent folder's menu label gets, in characters: a menu
 * cannot wrap or ellipsize its items, and one long path would make the
 * whole Ctrl+O popover (its pages share one width) as wide as itself. */
#define RECENT_LABEL_MAX 40

/* @path as the menu shows it: the home folder as "~", and of a long path
 * its end, which tells runs apart ("…/resnet50_train/11"); a last folder
 * longer than the label keeps its start and its end. */
static char *
recent_label (const char *path)
{
  g_autofree char *display = g_filename_display_name (path);
  const char *home = g_get_home_dir ();
  g_auto (GStrv) parts = NULL;
  g_autoptr (GString) tail = NULL;
  glong length;
  guint n;

  if (home != NULL && strlen (home) > 1 && g_str_has_prefix (display, home) &&
      display[strlen (home)] == '/')
    {
      char *tilde = g_strconcat ("~", display + strlen (home), NULL);

      g_free (display);
      display = tilde;
    }
  if (g_utf8_strlen (display, -1) <= RECENT_LABEL_MAX)
    return g_steal_pointer (&display);
  parts = g_strsplit (display, "/", -1);
  n = g_strv_length (parts);
  tail = g_string_new (parts[n - 1]);
  for (guint i = n - 1; i-- > 0;)
    {
      if (g_utf8_strlen (tail->str, -1) + g_utf8_strlen (parts[i], -1) + 3 > RECENT_LABEL_MAX)
        break;
      g_string_prepend_c (tail, '/');
      g_string_prepend (tail, parts[i]);
    }
  length = g_utf8_strlen (tail->str, -1);
  if (length + 2 > RECENT_LABEL_MAX)
    {
      glong half = (RECENT_LABEL_MAX - 1) / 2;
      g_autofree char *start = g_utf8_substring (tail->str, 0, half);
      g_autofree char *end = g_utf8_substring (tail->str, length - half, length);

      return g_strconcat (start, "…", end, NULL);
    }
  return g_strconcat ("…/", tail->str, NULL);
}

void
_ovi_window_update_recent (OviWindow *self)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-folders");

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autofree char *display = recent_label (recent[i]);
      g_autofree char *label = escape_underscores (display);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-path",
                                               g_variant_new_string (recent[i]));
      g_menu_append_item (self->recent_menu, item);
    }
  /* An item without an action is shown greyed. */
  if (recent[0] == NULL)
    g_menu_append (self->recent_menu, _ ("No Recent Folders"), NULL);
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

/* F5 reads the folder again, and runs the diff again with its settings. */
static void
reload_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviSession *session = OVI_WINDOW (widget)->session;

  ovi_session_reload (session);
  /* Mine is the folder read again: the diff waits for it. */
  ovi_diff_state_set_mine_folder (ovi_session_get_diff (session), ovi_session_get_folder (session));
  ovi_diff_state_rerun (ovi_session_get_diff (session));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ovi_session_cancel (OVI_WINDOW (widget)->session);
  ovi_diff_state_cancel (ovi_session_get_diff (OVI_WINDOW (widget)->session));
}

void
ovi_window_open_file (OviWindow *self, GFile *file)
{
  g_autofree char *path = NULL;

  g_return_if_fail (OVI_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  path = g_file_get_path (file);
  if (path == NULL)
    {
      _ovi_window_show_open_error (self, _ ("Only local folders can be opened"));
      return;
    }
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_UNKNOWN)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_ ("“%s” does not exist"), name);

      _ovi_window_show_open_error (self, message);
      return;
    }
  ovi_start_page_set_error (self->start_page, NULL);
  ovi_application_add_recent (OVI_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                              path);
  ovi_session_load (self->session, file);
}

/**
 * ovi_window_open_files:
 * @files: (array length=n_files): folders, a dump file, report files
 *
 * Folders open together, one root each (one machine's copy each); a single
 * dump file opens alone; report files join the timeline.
 */
void
ovi_window_open_files (OviWindow *self, GFile *const *files, guint n_files)
{
  g_autoptr (GPtrArray) reports = g_ptr_array_new ();
  g_autoptr (GPtrArray) folders = g_ptr_array_new ();

  g_return_if_fail (OVI_IS_WINDOW (self));

  for (guint i = 0; i < n_files; i++)
    if (ovi_application_is_report_file (files[i]))
      g_ptr_array_add (reports, files[i]);
    else
      g_ptr_array_add (folders, files[i]);
  if (folders->len == 1)
    ovi_window_open_file (self, g_ptr_array_index (folders, 0));
  else if (folders->len > 1)
    {
      for (guint i = 0; i < folders->len; i++)
        {
          GFile *folder = g_ptr_array_index (folders, i);
          g_autofree char *name = g_file_get_parse_name (folder);

          if (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) !=
              G_FILE_TYPE_DIRECTORY)
            {
              g_autofree char *message = g_strdup_printf (
                  _ ("“%s” is not a folder: only folders can be opened together"), name);

              _ovi_window_show_open_error (self, message);
              return;
            }
        }
      ovi_session_load_roots (self->session, (GFile *const *) folders->pdata, folders->len);
    }
  if (reports->len > 0)
    ovi_window_add_reports (self, (GFile *const *) reports->pdata, reports->len);
}

/**
 * ovi_window_add_reports:
 * @files: (array length=n_files): report files written on other machines
 *
 * Adds their devices to the timeline, and shows it.
 */
void
ovi_window_add_reports (OviWindow *self, GFile *const *files, guint n_files)
{
  g_autoptr (GListStore) store = g_list_store_new (G_TYPE_FILE);

  g_return_if_fail (OVI_IS_WINDOW (self));

  for (guint i = 0; i < n_files; i++)
    g_list_store_append (store, files[i]);
  ovi_timeline_page_add_reports (self->timeline_page, G_LIST_MODEL (store));
  /* Reports are opened to compare machines: that is the page to see. */
  ovi_window_show_page (self, "timeline");
}

/* --- the diff ------------------------------------------------------------- */

/**
 * ovi_window_diff_with:
 * @golden: the run to compare the one shown with: a dump folder at any
 *   level, one dump file, or a folder of .npy files
 *
 * Runs the diff of the folder shown (mine) against @golden and shows the
 * Diff page.
 */
void
ovi_window_diff_with (OviWindow *self, GFile *golden)
{
  OviDumpFolder *folder;
  g_autofree char *golden_path = NULL;

  g_return_if_fail (OVI_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (golden));

  folder = ovi_session_get_folder (self->session);
  if (folder == NULL)
    {
      _ovi_window_show_open_error (self, _ ("Open a run first, then compare it with another"));
      return;
    }
  if (ovi_dump_folder_get_n_roots (folder) != 1)
    {
      _ovi_window_show_open_error (
          self, _ ("Folders opened together cannot be compared: open one run to compare it"));
      return;
    }
  golden_path = g_file_get_path (golden);
  if (golden_path == NULL ||
      g_file_query_file_type (golden, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_UNKNOWN)
    {
      g_autofree char *name = g_file_get_parse_name (golden);
      g_autofree char *message =
          g_strdup_printf (_ ("Cannot compare with “%s”: it does not exist"), name);

      _ovi_window_show_open_error (self, message);
      return;
    }
  /* Mine is read from the folder shown, once it has loaded, not scanned
   * again; unless its scan was cancelled, and it holds only part of mine. */
  ovi_diff_state_set_mine_folder (ovi_session_get_diff (self->session),
                                  ovi_session_get_cancelled (self->session) ? NULL : folder);
  ovi_diff_state_start (ovi_session_get_diff (self->session),
                        ovi_dump_folder_get_root_path (folder), golden_path);
  ovi_window_show_page (self, "diff");
}

static void
golden_chosen (GFile *file, gpointer user_data)
{
  if (file != NULL)
    ovi_window_diff_with (OVI_WINDOW (user_data), file);
}

/**
 * ovi_window_get_golden_start:
 *
 * Where the golden run's chooser starts: beside mine (the folder that
 * holds the run shown), where a second run usually is.
 *
 * Returns: (transfer full) (nullable): the folder
 */
GFile *
ovi_window_get_golden_start (OviWindow *self)
{
  OviDumpFolder *folder = ovi_session_get_folder (self->session);

  if (folder == NULL || ovi_dump_folder_get_n_roots (folder) != 1)
    return NULL;
  return g_file_get_parent (ovi_dump_folder_get_nth_root (folder, 0));
}

/* "Diff With Another Run…": the golden run, chosen as a folder;
 * "Diff With a Dump File…": one dump file. */
static void
diff_with_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autoptr (GFile) start = ovi_window_get_golden_start (OVI_WINDOW (widget));

  if (g_str_equal (action_name, "win.diff-with-file"))
    ovi_file_chooser_open_file_in (GTK_WINDOW (widget),
                                   _ ("Choose the Golden Dump File to Diff With"), _ ("_Diff"),
                                   start, golden_chosen, g_object_ref (widget), g_object_unref);
  else
    /* Translators: the button of the folder chooser that picks the golden
     * run, which the open folder is then compared with */
    ovi_file_chooser_select_folder (GTK_WINDOW (widget), _ ("Choose the Golden Run to Diff With"),
                                    _ ("_Diff"), start, golden_chosen, g_object_ref (widget),
                                    g_object_unref);
}

/* Shows a tensor of a window's folder once its scan has listed the file. */
typedef struct
{
  OviWindow *window; /* weak */
  char *path;
  guint index;
  gulong handler;
  GListModel *operators;
} PendingTensor;

static void
pending_tensor_free (PendingTensor *pending)
{
  if (pending->window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (pending->window), (gpointer *) &pending->window);
  g_free (pending->path);
  g_free (pending);
}

/* Disconnects first: showing the tensor sets the session's selection,
 * whose notifications would call this again. */
static void
pending_tensor_check (PendingTensor *pending)
{
  g_autoptr (OviWindow) window = NULL;
  g_autoptr (OviDumpFile) file = NULL;
  gulong handler = pending->handler;
  guint index = pending->index;

  if (pending->window == NULL || handler == 0)
    return;
  file = ovi_session_find_file (pending->window->session, pending->path);
  if (file == NULL)
    return;
  g_object_ref (file);
  window = g_object_ref (pending->window);
  pending->handler = 0;
  g_signal_handler_disconnect (window->session, handler); /* frees pending */
  ovi_window_show_tensor (window, file, index);
}

/* win.show-golden-tensor ("(su)": a file of the golden run and the
 * tensor's place among its tensors). The golden run is not the folder
 * this window shows: its dump file opens in a window of its own, on that
 * tensor, as "Open Dump File…" would open it. A .npy golden cannot be
 * opened: a toast says where it is. */
static void
show_golden_tensor_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  const char *path;
  guint index;
  OviWindow *window;
  PendingTensor *pending;
  g_autoptr (GFile) file = NULL;

  g_variant_get (parameter, "(&su)", &path, &index);
  if (index == G_MAXUINT)
    {
      g_autofree char *message =
          g_strdup_printf (_ ("The golden tensor is the .npy file %s"), path);

      _ovi_window_show_toast (self, message);
      return;
    }
  window = ovi_window_new (OVI_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  file = g_file_new_for_path (path);
  ovi_window_open_file (window, file);
  pending = g_new0 (PendingTensor, 1);
  pending->window = window;
  pending->path = g_strdup (path);
  pending->index = index;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &pending->window);
  pending->handler =
      g_signal_connect_data (window->session, "notify", G_CALLBACK (pending_tensor_check), pending,
                             (GClosureNotify) pending_tensor_free, G_CONNECT_SWAPPED);
}

/* --- navigation ----------------------------------------------------------- */

static void
search_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);

  if (ovi_session_get_folder (self->session) == NULL)
    return;
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "operators") == 0)
    ovi_operators_page_focus_search (self->operators_page);
  else if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "diff") == 0)
    ovi_diff_page_focus_search (self->diff_page);
  else
    {
      ovi_window_show_page (self, "overflows");
      ovi_overflows_page_focus_search (self->overflows_page);
    }
}

/* The pages the view switcher shows, in its order. */
static GPtrArray *
visible_pages (OviWindow *self)
{
  g_autoptr (GtkSelectionModel) pages = adw_view_stack_get_pages (self->view_stack);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (pages)); i++)
    {
      g_autoptr (AdwViewStackPage) page = g_list_model_get_item (G_LIST_MODEL (pages), i);

      if (adw_view_stack_page_get_visible (page))
        g_ptr_array_add (names, g_strdup (adw_view_stack_page_get_name (page)));
    }
  return names;
}

/* A page shown from the keyboard takes it: its first control, not the
 * header's tabs (the Diff page then hands it to its first divergence). */
static void
show_page_focused (OviWindow *self, const char *name)
{
  GtkWidget *page, *focus;

  ovi_window_show_page (self, name);
  page = adw_view_stack_get_visible_child (self->view_stack);
  /* No widget has the focus while the window is not active. */
  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (page != NULL && (focus == NULL || !gtk_widget_is_ancestor (focus, page)))
    gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

/* win.show-page ("i"): Alt+1 shows the first page, Alt+2 the second... */
static void
show_page_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  g_autoptr (GPtrArray) names = visible_pages (self);
  int number = g_variant_get_int32 (parameter);

  if (ovi_session_get_folder (self->session) == NULL || number < 1 || (guint) number > names->len)
    return;
  show_page_focused (self, g_ptr_array_index (names, number - 1));
}

/* win.next-page and win.previous-page (Ctrl+Page Down / Up), round. */
static void
step_page_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  g_autoptr (GPtrArray) names = visible_pages (self);
  const char *current = adw_view_stack_get_visible_child_name (self->view_stack);
  int step = g_str_equal (action_name, "win.next-page") ? 1 : -1;
  guint index = 0;

  if (ovi_session_get_folder (self->session) == NULL || names->len == 0)
    return;
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (names, i), current) == 0)
      index = i;
  index = (index + names->len + step) % names->len;
  show_page_focused (self, g_ptr_array_index (names, index));
}

static void
show_problems_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ovi_window_show_page (OVI_WINDOW (widget), "problems");
}

/* win.show-tensor ("(su)": the op dump file's path, the tensor's index). */
static void
show_tensor_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  const char *path;
  guint index;
  OviDumpFile *op;

  g_variant_get (parameter, "(&su)", &path, &index);
  op = ovi_session_find_file (self->session, path);
  if (op != NULL)
    ovi_window_show_tensor (self, op, index);
}

/* Tab moves between the regions of the window (sidebar, search, table,
 * details), not from row to row of a list, which GTK 4.8's list views do
 * (GtkListView:tab-behavior is 4.12): from inside a list, the focus moves
 * on as if the whole list were one widget. Returns whether it handled it. */
gboolean
_ovi_window_tab_out_of_list (OviWindow *self, GtkDirectionType direction)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget *list, *region;

  if (focus == NULL || gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
    return FALSE;
  list = GTK_IS_LIST_VIEW (focus) ? focus : gtk_widget_get_ancestor (focus, GTK_TYPE_LIST_VIEW);
  if (list == NULL || !gtk_widget_is_ancestor (list, GTK_WIDGET (self->main_stack)))
    return FALSE;
  region = GTK_IS_COLUMN_VIEW (gtk_widget_get_parent (list)) ? gtk_widget_get_parent (list) : list;
  /* A widget that cannot take the focus keeps it from its children too. */
  gtk_widget_set_can_focus (region, FALSE);
  gtk_widget_child_focus (GTK_WIDGET (self), direction);
  gtk_widget_set_can_focus (region, TRUE);
  return TRUE;
}

/* --- the ignore list ------------------------------------------------------ */

static void
ignore_op_type_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  const char *op_type = g_variant_get_string (parameter, NULL);
  g_autofree char *message = NULL;
  AdwToast *toast;

  if (!ovi_session_ignore_op_type (self->session, op_type))
    return; /* ignored already */
  /* Translators: %s is an operator type such as Cast */
  message = g_strdup_printf (_ ("Operators of type %s are now ignored"), op_type);
  toast = adw_toast_new (message);
  adw_toast_set_timeout (toast, 5);
  adw_toast_set_button_label (toast, _ ("Undo"));
  adw_toast_set_action_name (toast, "win.stop-ignoring");
  adw_toast_set_action_target_value (toast, g_variant_new ("(sms)", op_type, NULL));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* win.stop-ignoring ("(sms)": op type, op name): with a name, every
 * pattern that matches that operator goes ("Stop Ignoring" on a record);
 * without, the "type:" pattern "Ignore Type" added (the toast's "Undo"). */
static void
stop_ignoring_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  const char *op_type, *op_name;

  g_variant_get (parameter, "(&sm&s)", &op_type, &op_name);
  ovi_session_stop_ignoring (self->session, op_type, op_name);
}

static void
edit_ignore_list_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);

  gtk_window_present (ovi_ignore_window_new (GTK_WINDOW (self), self->settings));
}

void
_ovi_window_class_add_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-dump-folder", NULL,
                                   open_dump_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-dump-file", NULL, open_dump_file_action);
  gtk_widget_class_install_action (widget_class, "win.open-example", NULL, open_example_action);
  gtk_widget_class_install_action (widget_class, "win.open-path", "s", open_path_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", "s", open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "win.edit-ignore-list", NULL,
                                   edit_ignore_list_action);
  gtk_widget_class_install_action (widget_class, "win.ignore-op-type", "s", ignore_op_type_action);
  gtk_widget_class_install_action (widget_class, "win.stop-ignoring", "(sms)",
                                   stop_ignoring_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.show-problems", NULL, show_problems_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "i", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.next-page", NULL, step_page_action);
  gtk_widget_class_install_action (widget_class, "win.previous-page", NULL, step_page_action);
  gtk_widget_class_install_action (widget_class, "win.show-tensor", "(su)", show_tensor_action);
  gtk_widget_class_install_action (widget_class, "win.diff-with", NULL, diff_with_action);
  gtk_widget_class_install_action (widget_class, "win.diff-with-file", NULL, diff_with_action);
  gtk_widget_class_install_action (widget_class, "win.show-golden-tensor", "(su)",
                                   show_golden_tensor_action);
  _ovi_window_class_add_export_actions (widget_class);
}
