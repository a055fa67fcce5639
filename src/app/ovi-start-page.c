/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-start-page.h"

/* What a window shows before a folder is open: open buttons, the recent
 * folders (from the session's settings), and what could not be opened. */
struct _OviStartPage
{
  OviPage parent_instance;

  GtkLabel *error_label;
  AdwPreferencesGroup *recent_group;
  AdwStatusPage *status_page;

  GPtrArray *recent_rows;
};

enum
{
  PROP_0,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviStartPage, ovi_start_page, OVI_TYPE_PAGE)

/**
 * ovi_start_page_get_error:
 *
 * Returns: (nullable): why the last path given could not be opened
 */
const char *
ovi_start_page_get_error (OviStartPage *self)
{
  g_return_val_if_fail (OVI_IS_START_PAGE (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->error_label))
             ? gtk_label_get_label (self->error_label)
             : NULL;
}

/**
 * ovi_start_page_set_error:
 * @error: (nullable): why a path could not be opened, naming it; %NULL clears
 *
 * Unlike a toast, the message stays on the page until something else is
 * opened: a path given on the command line may fail before anyone looks.
 */
void
ovi_start_page_set_error (OviStartPage *self, const char *error)
{
  g_return_if_fail (OVI_IS_START_PAGE (self));

  if (g_strcmp0 (error, ovi_start_page_get_error (self)) == 0)
    return;
  gtk_label_set_label (self->error_label, error ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static void
rebuild_recent (OviStartPage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  g_auto (GStrv) recent = NULL;

  for (guint i = 0; i < self->recent_rows->len; i++)
    adw_preferences_group_remove (self->recent_group, g_ptr_array_index (self->recent_rows, i));
  g_ptr_array_set_size (self->recent_rows, 0);

  recent = session ? g_settings_get_strv (ovi_session_get_settings (session), "recent-folders")
                   : g_new0 (char *, 1);
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
ovi_start_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviStartPage *self = OVI_START_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (ovi_session_get_settings (old_session), self);
  if (session != NULL)
    g_signal_connect_object (ovi_session_get_settings (session), "changed::recent-folders",
                             G_CALLBACK (rebuild_recent), self, G_CONNECT_SWAPPED);
  if (self->recent_rows != NULL)
    rebuild_recent (self);
}

static void
ovi_start_page_dispose (GObject *object)
{
  OviStartPage *self = OVI_START_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_START_PAGE);
  g_clear_pointer (&self->recent_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (ovi_start_page_parent_class)->dispose (object);
}

static void
ovi_start_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviStartPage *self = OVI_START_PAGE (object);

  switch (prop_id)
    {
    case PROP_ERROR:
      g_value_set_string (value, ovi_start_page_get_error (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_start_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  OviStartPage *self = OVI_START_PAGE (object);

  switch (prop_id)
    {
    case PROP_ERROR:
      ovi_start_page_set_error (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_start_page_class_init (OviStartPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  OviPageClass *page_class = OVI_PAGE_CLASS (klass);

  object_class->dispose = ovi_start_page_dispose;
  object_class->get_property = ovi_start_page_get_property;
  object_class->set_property = ovi_start_page_set_property;
  page_class->session_changed = ovi_start_page_session_changed;

  properties[PROP_ERROR] =
      g_param_spec_string ("error", NULL, NULL, NULL,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-start-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviStartPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, OviStartPage, recent_group);
  gtk_widget_class_bind_template_child (widget_class, OviStartPage, status_page);
}

static void
ovi_start_page_init (OviStartPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->recent_rows = g_ptr_array_new ();

  /* The application icon: installed, or from the resources when run from
   * the build tree; a generic one if the icon theme has neither. */
  if (gtk_icon_theme_has_icon (
          gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (self))), APP_ID))
    adw_status_page_set_icon_name (self->status_page, APP_ID);
  rebuild_recent (self);
}
