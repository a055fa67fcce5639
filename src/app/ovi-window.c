/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-a11y.h"
#include "ovi-format.h"
#include "ovi-scheduler.h"
#include "ovi-shm-pool.h"
#include "ovi-window-private.h"

/* The window: header bar, the scan bar (ovi-scan-bar.c), the pages over one
 * session, toasts and drag and drop. What the pages show lives in the pages; what the
 * actions do lives in ovi-window-actions.c. */

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviWindow, ovi_window, ADW_TYPE_APPLICATION_WINDOW)

void
_ovi_window_show_toast (OviWindow *self, const char *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Why a path could not be opened: on the start page while it is shown,
 * where it stays until something opens (the path may have come from the
 * command line before anyone looked); a toast over an open folder. */
void
_ovi_window_show_open_error (OviWindow *self, const char *message)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "start") == 0)
    ovi_start_page_set_error (self->start_page, message);
  else
    _ovi_window_show_toast (self, message);
}

static void
update_problems (OviWindow *self)
{
  guint n = ovi_session_get_n_problems (self->session);
  g_autofree char *label =
      g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u problem", "%u problems", n), n);

  adw_button_content_set_label (self->problems_content, label);
  /* The label alone: the button's content would add its text again. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->problems_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->problems_button),
                                 GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_revealer_set_reveal_child (self->problems_revealer, n > 0);
  adw_view_stack_page_set_badge_number (self->problems_stack_page, n);
  adw_view_stack_page_set_needs_attention (self->problems_stack_page, n > 0);
}

/* Narrow windows switch pages from a bar at the bottom, as GNOME apps do:
 * shown when the header's switcher gives way to the title, and only when a
 * folder's pages are there to switch. */
static void
update_switcher_bar (OviWindow *self)
{
  gboolean pages =
      g_strcmp0 (gtk_stack_get_visible_child_name (self->title_stack), "switcher") == 0;

  adw_view_switcher_bar_set_reveal (
      self->switcher_bar,
      pages && adw_view_switcher_title_get_title_visible (self->switcher_title));
}

/* The pages, under @title and @subtitle; @tooltip has the full paths, which
 * a narrow window cuts from the subtitle. */
static void
show_folder (OviWindow *self, const char *title, const char *subtitle, const char *tooltip)
{
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  adw_view_switcher_title_set_subtitle (self->switcher_title, subtitle);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title), tooltip);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->switcher_title), tooltip);
  gtk_stack_set_visible_child_name (self->title_stack, "switcher");
  gtk_stack_set_visible_child_name (self->main_stack, "folder");
}

static void
folder_changed (OviWindow *self)
{
  OviDumpFolder *folder = ovi_session_get_folder (self->session);

  if (folder != NULL && ovi_dump_folder_get_n_roots (folder) > 1)
    {
      guint n = ovi_dump_folder_get_n_roots (folder);
      g_autofree char *count = g_strdup_printf (
          /* Translators: the window's subtitle when several dump folders are
           * open together */
          g_dngettext (GETTEXT_PACKAGE, "%u folder", "%u folders", n), n);
      g_autoptr (GString) names = g_string_new (NULL);
      g_autoptr (GString) paths = g_string_new (NULL);

      for (guint i = 0; i < n; i++)
        {
          g_string_append_printf (names, "%s%s", i ? ", " : "",
                                  ovi_dump_folder_get_root_name (folder, i));
          g_string_append_printf (paths, "%s%s", i ? "\n" : "",
                                  ovi_dump_folder_get_nth_root_path (folder, i));
        }
      show_folder (self, names->str, count, paths->str);
    }
  else if (folder != NULL)
    {
      const char *path = ovi_dump_folder_get_root_path (folder);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *shown = ovi_format_path (path, g_get_home_dir ());

      show_folder (self, name, shown, path);
    }
  update_problems (self);
  _ovi_window_update_actions (self);
}

/* Report files opened without a folder: the timeline is all there is. */
static void
cluster_changed (OviWindow *self)
{
  OviCluster *cluster = ovi_session_get_cluster (self->session);

  if (ovi_session_get_folder (self->session) != NULL || ovi_cluster_get_n_roots (cluster) == 0)
    return;
  show_folder (self, _ ("Reports"), "", NULL);
  ovi_window_show_page (self, "timeline");
}

/* A folder listed puts the keyboard on its records, as a file manager puts
 * it on the files, unless it is already in what the window shows (the user
 * put it there): not on the header's first button, fifteen Tabs away. */
static void
focus_records (OviWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus != NULL && gtk_widget_get_mapped (focus) &&
      (gtk_widget_is_ancestor (focus, GTK_WIDGET (self->main_stack)) ||
       gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL))
    return;
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "overflows") == 0)
    ovi_overflows_page_focus_table (self->overflows_page);
}

static void
load_finished (OviWindow *self, const GError *error)
{
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _ovi_window_show_open_error (self, error->message);
  else
    focus_records (self);
}

static void
cancelled_changed (OviWindow *self)
{
  if (ovi_session_get_cancelled (self->session))
    _ovi_window_show_toast (self, _ ("Scan cancelled: showing what was found so far"));
  _ovi_window_update_actions (self);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, OviWindow *self)
{
  GSList *files = g_value_get_boxed (value);
  g_autoptr (GPtrArray) all = g_ptr_array_new ();

  for (GSList *l = files; l != NULL; l = l->next)
    g_ptr_array_add (all, l->data);
  ovi_window_open_files (self, (GFile *const *) all->pdata, all->len);
  return files != NULL;
}

/* Folders dragged from another application. A sender such as a GTK 4 file
 * manager offers its files twice: as a text/uri-list and through the file
 * transfer portal, which GTK prefers when it comes first; but that portal
 * hands over files, not folders (xdg-desktop-portal 1.16: "Can't export
 * file"), so a folder dropped on the Flatpak would fail. The URIs are
 * read first, and used when every path can be read from here (outside a
 * sandbox, or in one allowed to read them); otherwise the drop is read
 * through the portal, as the GtkDropTarget below would. */
static const char *uri_list_types[] = { "text/uri-list", NULL };

typedef struct
{
  OviWindow *window;
  GdkDrop *drop;
  GOutputStream *sink;
} UriDrop;

static void
uri_drop_free (UriDrop *d)
{
  g_object_unref (d->window);
  g_object_unref (d->drop);
  g_clear_object (&d->sink);
  g_free (d);
}

static void
uri_drop_open (UriDrop *d, GFile *const *files, guint n_files)
{
  ovi_window_open_files (d->window, files, n_files);
  gdk_drop_finish (d->drop, n_files > 0 ? GDK_ACTION_COPY : 0);
  uri_drop_free (d);
}

static void
uri_drop_value_read (GObject *object, GAsyncResult *result, gpointer data)
{
  UriDrop *d = data;
  const GValue *value = gdk_drop_read_value_finish (GDK_DROP (object), result, NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new ();

  if (value != NULL)
    for (GSList *l = g_value_get_boxed (value); l != NULL; l = l->next)
      g_ptr_array_add (files, l->data);
  uri_drop_open (d, (GFile *const *) files->pdata, files->len);
}

static void
uri_drop_spliced (GObject *object, GAsyncResult *result, gpointer data)
{
  UriDrop *d = data;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto (GStrv) uris = NULL;
  gboolean readable = TRUE;

  if (g_output_stream_splice_finish (G_OUTPUT_STREAM (object), result, NULL) >= 0)
    {
      g_autoptr (GBytes) bytes =
          g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (d->sink));
      g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

      uris = g_uri_list_extract_uris (text);
    }
  for (guint i = 0; uris != NULL && uris[i] != NULL; i++)
    {
      GFile *file = g_file_new_for_uri (uris[i]);

      readable = readable && g_file_query_exists (file, NULL);
      g_ptr_array_add (files, file);
    }
  if (files->len > 0 && readable)
    uri_drop_open (d, (GFile *const *) files->pdata, files->len);
  else
    gdk_drop_read_value_async (d->drop, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT, NULL,
                               uri_drop_value_read, d);
}

static void
uri_drop_read (GObject *object, GAsyncResult *result, gpointer data)
{
  UriDrop *d = data;
  g_autoptr (GInputStream) stream = gdk_drop_read_finish (GDK_DROP (object), result, NULL, NULL);

  if (stream == NULL)
    {
      gdk_drop_read_value_async (d->drop, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT, NULL,
                                 uri_drop_value_read, d);
      return;
    }
  d->sink = g_memory_output_stream_new_resizable ();
  g_output_stream_splice_async (
      d->sink, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
      G_PRIORITY_DEFAULT, NULL, uri_drop_spliced, d);
}

static gboolean
on_uri_list_accept (GtkDropTargetAsync *target, GdkDrop *drop, OviWindow *self)
{
  return gdk_content_formats_contain_mime_type (gdk_drop_get_formats (drop), "text/uri-list");
}

static gboolean
on_uri_list_drop (GtkDropTargetAsync *target, GdkDrop *drop, double x, double y, OviWindow *self)
{
  UriDrop *d = g_new0 (UriDrop, 1);

  d->window = g_object_ref (self);
  d->drop = g_object_ref (drop);
  gdk_drop_read_async (drop, uri_list_types, G_PRIORITY_DEFAULT, NULL, uri_drop_read, d);
  return TRUE;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint keyval,
                guint keycode,
                GdkModifierType state,
                OviWindow *self)
{
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  if (keyval == GDK_KEY_ISO_Left_Tab ||
      ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) && (state & GDK_SHIFT_MASK)))
    return _ovi_window_tab_out_of_list (self, GTK_DIR_TAB_BACKWARD);
  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    return _ovi_window_tab_out_of_list (self, GTK_DIR_TAB_FORWARD);
  return FALSE;
}

/* --- the sidebar, collapsed when the window is narrow -------------------- */

/* Below this width the sidebar is hidden (F9 or the header's toggle brings
 * it back), so the pages have the window's width; above it, it comes back.
 * Like AdwFlap's folding, a user's choice holds until the window next
 * crosses the width. */
#define SIDEBAR_FOLD_WIDTH 1000

static gboolean
showing_folder (gpointer unused, const char *name)
{
  return g_strcmp0 (name, "folder") == 0;
}

static gboolean
fold_sidebar_cb (gint64 deadline, gpointer data)
{
  OviWindow *self = data;

  self->fold_task = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar), !self->narrow);
  return FALSE;
}

static void
ovi_window_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  OviWindow *self = OVI_WINDOW (widget);
  gboolean narrow = width < SIDEBAR_FOLD_WIDTH;

  GTK_WIDGET_CLASS (ovi_window_parent_class)->size_allocate (widget, width, height, baseline);
  /* Children cannot be shown or hidden during the layout: right after. */
  if (narrow != self->narrow)
    {
      self->narrow = narrow;
      if (self->fold_task == 0)
        self->fold_task = ovi_scheduler_add (fold_sidebar_cb, self, NULL);
    }
}

static void
toggle_sidebar (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);

  if (gtk_widget_get_visible (GTK_WIDGET (self->sidebar_button)))
    gtk_widget_set_visible (GTK_WIDGET (self->sidebar),
                            !gtk_widget_get_visible (GTK_WIDGET (self->sidebar)));
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
  ovi_session_cancel (self->session);

  return GTK_WINDOW_CLASS (ovi_window_parent_class)->close_request (window);
}

/* Called once the window has its application, which non-construct
 * properties only get after constructed(). */
static void
setup_session (OviWindow *self, OviApplication *app)
{
  self->settings = g_object_ref (ovi_application_get_settings (app));
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_settings_bind (self->settings, "sidebar-width", self->sidebar_paned, "position",
                   G_SETTINGS_BIND_DEFAULT);

  self->session = ovi_session_new (self->settings);
  g_signal_connect_object (self->settings, "changed::recent-folders",
                           G_CALLBACK (_ovi_window_update_recent), self, G_CONNECT_SWAPPED);
  _ovi_window_update_recent (self);
  g_signal_connect_object (self->session, "notify::folder", G_CALLBACK (folder_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::busy", G_CALLBACK (_ovi_window_update_actions),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (ovi_session_get_diff (self->session), "notify::running",
                           G_CALLBACK (_ovi_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::cancelled", G_CALLBACK (cancelled_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::n-problems", G_CALLBACK (update_problems), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::selected-record",
                           G_CALLBACK (_ovi_window_update_actions), self, G_CONNECT_SWAPPED);
  /* Which operator "Tensors of the Operator" writes. */
  g_signal_connect_object (self->session, "notify::selected-file",
                           G_CALLBACK (_ovi_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view_stack, "notify::visible-child-name",
                           G_CALLBACK (_ovi_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::selected-tensor",
                           G_CALLBACK (_ovi_window_update_actions), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "load-finished", G_CALLBACK (load_finished), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ovi_session_get_cluster (self->session), "notify::n-roots",
                           G_CALLBACK (cluster_changed), self, G_CONNECT_SWAPPED);
  self->notifier = ovi_notifier_new (GTK_APPLICATION_WINDOW (self), self->session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
  _ovi_window_update_actions (self);
}

static void
ovi_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviWindow *self = OVI_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_window_dispose (GObject *object)
{
  OviWindow *self = OVI_WINDOW (object);

  if (self->session != NULL)
    {
      ovi_session_close (self->session);
      g_signal_handlers_disconnect_by_data (self->session, self);
    }
  ovi_scheduler_remove (self->fold_task);
  self->fold_task = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_WINDOW);
  g_clear_object (&self->notifier);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ovi_window_parent_class)->dispose (object);
}

static void
ovi_window_class_init (OviWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = ovi_window_dispose;
  object_class->get_property = ovi_window_get_property;
  window_class->close_request = ovi_window_close_request;
  widget_class->size_allocate = ovi_window_size_allocate;

  /* What the pages bind to. */
  properties[PROP_SESSION] =
      g_param_spec_object ("session", NULL, NULL, OVI_TYPE_SESSION,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_ITERATIONS_PAGE);
  g_type_ensure (OVI_TYPE_DIFF_PAGE);
  g_type_ensure (OVI_TYPE_CHAIN_LINE);
  g_type_ensure (OVI_TYPE_DIFF_STATE);
  g_type_ensure (OVI_TYPE_GRAPH_PAGE);
  g_type_ensure (OVI_TYPE_LIVE_BUTTON);
  g_type_ensure (OVI_TYPE_OPERATORS_PAGE);
  g_type_ensure (OVI_TYPE_OVERFLOWS_PAGE);
  g_type_ensure (OVI_TYPE_PROBLEMS_PAGE);
  g_type_ensure (OVI_TYPE_SCAN_BAR);
  g_type_ensure (OVI_TYPE_TIMELINE_PAGE);
  g_type_ensure (OVI_TYPE_SIDEBAR);
  g_type_ensure (OVI_TYPE_START_PAGE);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-window.ui");
  gtk_widget_class_bind_template_child (widget_class, OviWindow, iterations_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, main_menu);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, main_menu_recent_section);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, open_menu_recent_section);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, graph_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, operators_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, overflows_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_button);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_revealer);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_content);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, timeline_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, diff_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, problems_stack_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, scan_bar);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, sidebar_paned);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, start_page);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, title_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, switcher_title);
  gtk_widget_class_bind_template_callback (widget_class, showing_folder);
  gtk_widget_class_bind_template_callback (widget_class, update_switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, OviWindow, window_title);

  _ovi_window_class_add_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
}

static void
ovi_window_init (OviWindow *self)
{
  GtkDropTarget *drop;
  GtkDropTargetAsync *uri_drop;
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "realize", G_CALLBACK (ovi_shm_pool_keep), NULL);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  /* After the GtkDropTarget: a widget asks its last controller first. */
  uri_drop =
      gtk_drop_target_async_new (gdk_content_formats_new (uri_list_types, 1), GDK_ACTION_COPY);
  g_signal_connect (uri_drop, "accept", G_CALLBACK (on_uri_list_accept), self);
  g_signal_connect (uri_drop, "drop", G_CALLBACK (on_uri_list_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (uri_drop));

  gtk_stack_set_visible_child_name (self->main_stack, "start");
  gtk_stack_set_visible_child_name (self->title_stack, "title");
  g_signal_connect_object (self->title_stack, "notify::visible-child-name",
                           G_CALLBACK (update_switcher_bar), self, G_CONNECT_SWAPPED);
  ovi_a11y_fix_names (GTK_WIDGET (self));
  /* The split button's two halves, an icon and an arrow. */
  ovi_a11y_name_split_button (GTK_WIDGET (self->open_button), _ ("Open Folder"),
                              _ ("Open a folder, a dump file or a recent folder"));

  /* The recent folders the start page lists, in the main menu and in the
   * open button's menu. */

  g_menu_append_submenu (self->main_menu_recent_section, _ ("Open _Recent"),
                         G_MENU_MODEL (self->recent_menu));
  g_menu_append_submenu (self->open_menu_recent_section, _ ("Open _Recent"),
                         G_MENU_MODEL (self->recent_menu));
}

OviWindow *
ovi_window_new (OviApplication *application)
{
  OviWindow *self = g_object_new (OVI_TYPE_WINDOW, "application", application, NULL);

  setup_session (self, application);
  return self;
}

OviDumpFolder *
ovi_window_get_folder (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), NULL);
  return ovi_session_get_folder (self->session);
}

gboolean
ovi_window_get_loading (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);
  return ovi_session_get_loading (self->session);
}

/**
 * ovi_window_get_busy:
 *
 * Returns: %TRUE while the window scans or summarizes operators
 */
gboolean
ovi_window_get_busy (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);
  return ovi_session_get_busy (self->session);
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
  g_return_if_fail (OVI_IS_WINDOW (self));
  g_return_if_fail (OVI_IS_DUMP_FILE (op));

  ovi_session_set_selected_file (self->session, op);
  ovi_operators_page_show_tensor (self->operators_page, index);
  ovi_window_show_page (self, "operators");
}

gboolean
ovi_window_select_record (OviWindow *self, OviOverflowRecord *record)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);

  if (!ovi_overflows_page_select_record (self->overflows_page, record))
    return FALSE;
  ovi_window_show_page (self, "overflows");
  return TRUE;
}

/* --- for tests ---------------------------------------------------------- */

/* Selects the record read from @relative_path, if the folder has one. */
gboolean
ovi_window_select_record_of_file (OviWindow *self, const char *relative_path)
{
  GListModel *records = ovi_session_get_records (self->session);

  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);

  for (guint i = 0; records && i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);

      /* The timeline names files by full path: folders opened together can
       * hold the same relative paths. */
      if (file && (g_str_equal (ovi_dump_file_get_relative_path (file), relative_path) ||
                   g_str_equal (ovi_dump_file_get_path (file), relative_path)))
        return ovi_window_select_record (self, record);
    }
  return FALSE;
}

OviSession *
ovi_window_get_session (OviWindow *self)
{
  return self->session;
}

OviOverflowsPage *
ovi_window_get_overflows_page (OviWindow *self)
{
  return self->overflows_page;
}

OviOperatorsPage *
ovi_window_get_operators_page (OviWindow *self)
{
  return self->operators_page;
}

OviTimelinePage *
ovi_window_get_timeline_page (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), NULL);
  return self->timeline_page;
}

OviDiffPage *
ovi_window_get_diff_page (OviWindow *self)
{
  g_return_val_if_fail (OVI_IS_WINDOW (self), NULL);
  return self->diff_page;
}

OviProblemsPage *
ovi_window_get_problems_page (OviWindow *self)
{
  return self->problems_page;
}

OviIterationsPage *
ovi_window_get_iterations_view (OviWindow *self)
{
  return self->iterations_page;
}

OviSidebar *
ovi_window_get_sidebar (OviWindow *self)
{
  return self->sidebar;
}

OviScanBar *
ovi_window_get_scan_bar (OviWindow *self)
{
  return self->scan_bar;
}

GtkColumnView *
ovi_window_get_record_view (OviWindow *self)
{
  return ovi_overflows_page_get_column_view (self->overflows_page);
}

GtkColumnView *
ovi_window_get_op_view (OviWindow *self)
{
  return ovi_operators_page_get_column_view (self->operators_page);
}

OviRecordView *
ovi_window_get_record_details (OviWindow *self)
{
  return ovi_overflows_page_get_record_view (self->overflows_page);
}

OviTensorView *
ovi_window_get_tensor_view (OviWindow *self)
{
  return ovi_operators_page_get_tensor_view (self->operators_page);
}

GListModel *
ovi_window_get_tree_model (OviWindow *self)
{
  return ovi_sidebar_get_model (self->sidebar);
}

GMenuModel *
ovi_window_get_main_menu (OviWindow *self)
{
  return G_MENU_MODEL (self->main_menu);
}

void
ovi_window_select_tree_row (OviWindow *self, guint position)
{
  ovi_sidebar_select (self->sidebar, position);
}
