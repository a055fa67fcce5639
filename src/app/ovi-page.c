/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-page.h"
#include "ovi-tooltip.h"

/* What every page of the window shares: the session it shows, and a
 * dispose that lets it go and unparents the template's unnamed children. */
typedef struct
{
  OviSession *session;
} OviPagePrivate;

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (OviPage, ovi_page, GTK_TYPE_WIDGET)

static void
ovi_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviPage *self = OVI_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, ovi_page_get_session (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  OviPage *self = OVI_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ovi_page_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_page_dispose (GObject *object)
{
  OviPage *self = OVI_PAGE (object);
  GtkWidget *child;

  ovi_page_set_session (self, NULL);
  /* Unnamed template children are not unparented by the subclass's
   * gtk_widget_dispose_template(). */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (ovi_page_parent_class)->dispose (object);
}

static void
ovi_page_class_init (OviPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /* for the tables' cells in every page's .ui */
  g_type_ensure (OVI_TYPE_TOOLTIP);
  object_class->dispose = ovi_page_dispose;
  object_class->get_property = ovi_page_get_property;
  object_class->set_property = ovi_page_set_property;

  properties[PROP_SESSION] =
      g_param_spec_object ("session", NULL, NULL, OVI_TYPE_SESSION,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_SESSION);
}

static void
ovi_page_init (OviPage *self)
{
}

OviSession *
ovi_page_get_session (OviPage *self)
{
  OviPagePrivate *priv;

  g_return_val_if_fail (OVI_IS_PAGE (self), NULL);
  priv = ovi_page_get_instance_private (self);
  return priv->session;
}

void
ovi_page_set_session (OviPage *self, OviSession *session)
{
  OviPagePrivate *priv;
  g_autoptr (OviSession) old_session = NULL;

  g_return_if_fail (OVI_IS_PAGE (self));
  g_return_if_fail (session == NULL || OVI_IS_SESSION (session));

  priv = ovi_page_get_instance_private (self);
  if (priv->session == session)
    return;
  old_session = g_steal_pointer (&priv->session);
  priv->session = session ? g_object_ref (session) : NULL;
  if (OVI_PAGE_GET_CLASS (self)->session_changed != NULL)
    OVI_PAGE_GET_CLASS (self)->session_changed (self, old_session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}
