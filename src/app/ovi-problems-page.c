#include "config.h"

#include <glib/gi18n.h>

#include "ovi-problems-page.h"

/* Every file of the session's folder that could not be read, and why. */
struct _OviProblemsPage
{
  GtkWidget parent_instance;

  GtkColumnView *problem_view;

  OviSession *session;
};

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviProblemsPage, ovi_problems_page, GTK_TYPE_WIDGET)

static void
ovi_problems_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviProblemsPage *self = OVI_PROBLEMS_PAGE (object);

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
ovi_problems_page_set_property (GObject *object,
                                guint prop_id,
                                const GValue *value,
                                GParamSpec *pspec)
{
  OviProblemsPage *self = OVI_PROBLEMS_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ovi_problems_page_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_problems_page_dispose (GObject *object)
{
  OviProblemsPage *self = OVI_PROBLEMS_PAGE (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_PROBLEMS_PAGE);
  /* Unnamed template children are not unparented by the call above. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (ovi_problems_page_parent_class)->dispose (object);
}

static void
ovi_problems_page_class_init (OviProblemsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_problems_page_dispose;
  object_class->get_property = ovi_problems_page_get_property;
  object_class->set_property = ovi_problems_page_set_property;

  properties[PROP_SESSION] =
      g_param_spec_object ("session", NULL, NULL, OVI_TYPE_SESSION,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_PROBLEM);
  g_type_ensure (OVI_TYPE_SESSION);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-problems-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviProblemsPage, problem_view);
}

static void
ovi_problems_page_init (OviProblemsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

OviSession *
ovi_problems_page_get_session (OviProblemsPage *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEMS_PAGE (self), NULL);
  return self->session;
}

void
ovi_problems_page_set_session (OviProblemsPage *self, OviSession *session)
{
  g_return_if_fail (OVI_IS_PROBLEMS_PAGE (self));
  g_return_if_fail (session == NULL || OVI_IS_SESSION (session));

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

GtkColumnView *
ovi_problems_page_get_column_view (OviProblemsPage *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEMS_PAGE (self), NULL);
  return self->problem_view;
}
