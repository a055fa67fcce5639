/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-live-button.h"

struct _OviLiveButton
{
  GtkWidget parent_instance;

  OviSession *session;
  GBindingGroup *session_bindings;
  GtkWidget *button;
  GtkSwitch *live_switch;
  GtkWidget *mode_label;
  GtkWidget *state_label;
  gboolean shown; /* the folder is followed: the button shows in its place */
};

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_SHOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviLiveButton, ovi_live_button, GTK_TYPE_WIDGET)

static char *
state_text (gpointer unused, gboolean live)
{
  /* Translators: the header bar's indicator while a folder is followed */
  return g_strdup (live ? C_ ("following", "Live") : C_ ("following", "Paused"));
}

static char *
state_icon (gpointer unused, gboolean live)
{
  return g_strdup (live ? "media-record-symbolic" : "media-playback-pause-symbolic");
}

static GStrv
state_classes (gpointer unused, gboolean live)
{
  GStrvBuilder *b = g_strv_builder_new ();
  GStrv classes;

  g_strv_builder_add (b, "flat");
  g_strv_builder_add (b, live ? "live" : "live-paused");
  classes = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return classes;
}

/* How the folder is followed, as a sentence: core says it as "following
 * changes as the system reports them" or "reading the folder again every
 * second: REASON", which the popover starts with a capital. */
static char *
mode_text (gpointer unused, const char *mode)
{
  const char *rest;
  g_autofree char *first = NULL;

  if (mode == NULL || *mode == '\0')
    return NULL;
  rest = g_utf8_next_char (mode);
  first = g_utf8_strup (mode, rest - mode);
  /* Translators: a sentence of how the folder is followed, e.g. "Following
   * changes as the system reports them": only the full stop is yours */
  return g_strdup_printf (_ ("%s%s."), first, rest);
}

static char *
pending_text (gpointer unused, guint pending)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file is still being written",
                                       "%u files are still being written", pending),
                          pending);
}

static gboolean
is_nonzero (gpointer unused, guint value)
{
  return value != 0;
}

OviSession *
ovi_live_button_get_session (OviLiveButton *self)
{
  g_return_val_if_fail (OVI_IS_LIVE_BUTTON (self), NULL);
  return self->session;
}

void
ovi_live_button_set_session (OviLiveButton *self, OviSession *session)
{
  g_return_if_fail (OVI_IS_LIVE_BUTTON (self));

  if (!g_set_object (&self->session, session))
    return;
  g_binding_group_set_source (self->session_bindings, session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * ovi_live_button_get_shown:
 *
 * Whether the button shows (the folder is followed). While it does not,
 * it keeps its place in the header, empty: the header's page tabs, centred
 * between the buttons, would move by half its width when a scan ends and
 * the folder starts being followed, under a pointer on its way to a tab.
 */
gboolean
ovi_live_button_get_shown (OviLiveButton *self)
{
  g_return_val_if_fail (OVI_IS_LIVE_BUTTON (self), FALSE);
  return self->shown;
}

static void
set_shown (OviLiveButton *self, gboolean shown)
{
  if (self->shown == shown)
    return;
  self->shown = shown;
  /* Measured still, not drawn, not focused, not read aloud. */
  gtk_widget_set_child_visible (self->button, shown);
  /* Its place is the same; what it draws is not. */
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_STATE_HIDDEN, !shown,
                               -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN]);
}

/* Its place is kept while a folder is open: followed or not, scanned or
 * not. */
static gboolean
folder_to_visible (GBinding *binding, const GValue *from, GValue *to, gpointer unused)
{
  g_value_set_boolean (to, g_value_get_object (from) != NULL);
  return TRUE;
}

static void
ovi_live_button_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, OVI_LIVE_BUTTON (object)->session);
      break;
    case PROP_SHOWN:
      g_value_set_boolean (value, OVI_LIVE_BUTTON (object)->shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_live_button_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      ovi_live_button_set_session (OVI_LIVE_BUTTON (object), g_value_get_object (value));
      break;
    case PROP_SHOWN:
      set_shown (OVI_LIVE_BUTTON (object), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_live_button_dispose (GObject *object)
{
  OviLiveButton *self = OVI_LIVE_BUTTON (object);

  if (self->session_bindings)
    g_binding_group_set_source (self->session_bindings, NULL);
  g_clear_object (&self->session_bindings);
  g_clear_object (&self->session);
  g_clear_pointer (&self->button, gtk_widget_unparent);
  G_OBJECT_CLASS (ovi_live_button_parent_class)->dispose (object);
}

static void
ovi_live_button_class_init (OviLiveButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_live_button_dispose;
  object_class->get_property = ovi_live_button_get_property;
  object_class->set_property = ovi_live_button_set_property;

  properties[PROP_SESSION] =
      g_param_spec_object ("session", NULL, NULL, OVI_TYPE_SESSION,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Written only by the session's "following" (a binding). */
  properties[PROP_SHOWN] =
      g_param_spec_boolean ("shown", NULL, NULL, FALSE,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-live-button.ui");
  gtk_widget_class_bind_template_child (widget_class, OviLiveButton, button);
  gtk_widget_class_bind_template_child (widget_class, OviLiveButton, live_switch);
  gtk_widget_class_bind_template_child (widget_class, OviLiveButton, mode_label);
  gtk_widget_class_bind_template_child (widget_class, OviLiveButton, state_label);
  gtk_widget_class_bind_template_callback (widget_class, state_text);
  gtk_widget_class_bind_template_callback (widget_class, state_icon);
  gtk_widget_class_bind_template_callback (widget_class, state_classes);
  gtk_widget_class_bind_template_callback (widget_class, mode_text);
  gtk_widget_class_bind_template_callback (widget_class, pending_text);
  gtk_widget_class_bind_template_callback (widget_class, is_nonzero);
}

static void
ovi_live_button_init (OviLiveButton *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* A reader names the button by what it shows ("Live", "Paused"), not by
   * its type. */
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->button),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->state_label, NULL, -1);
  if (gtk_widget_get_first_child (self->button) != NULL)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (gtk_widget_get_first_child (self->button)),
                                    GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->state_label, NULL,
                                    -1);
  /* The switch pauses following, and shows whether it is paused. */
  self->session_bindings = g_binding_group_new ();
  g_binding_group_bind (self->session_bindings, "live", self->live_switch, "active",
                        G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  /* Shown while the folder is followed, in a place kept while a folder
   * is open (ovi_live_button_get_shown()). */
  gtk_widget_set_child_visible (self->button, FALSE);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE,
                               -1);
  g_binding_group_bind (self->session_bindings, "following", self, "shown", G_BINDING_SYNC_CREATE);
  g_binding_group_bind_full (self->session_bindings, "folder", self, "visible",
                             G_BINDING_SYNC_CREATE, folder_to_visible, NULL, NULL, NULL);
}
