#include "config.h"

#include <glib/gi18n.h>

#include "ovi-sidebar.h"

/* The time / device / model / iteration tree of the session, with the
 * number of overflow records below each node; the selected node narrows
 * the pages. */
struct _OviSidebar
{
  GtkWidget parent_instance;

  GtkSingleSelection *tree_selection;

  OviSession *session;
};

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviSidebar, ovi_sidebar, GTK_TYPE_WIDGET)

static GStrv
count_badge_classes (gpointer unused, guint count)
{
  static const char *some[] = { "count-badge", "overflowed", NULL };
  static const char *none[] = { "count-badge", "dim-label", NULL };

  return g_strdupv ((char **) (count > 0 ? some : none));
}

static void
tree_selection_changed (OviSidebar *self)
{
  GtkTreeListRow *row;
  g_autoptr (OviTreeNode) node = NULL;

  if (self->session == NULL || self->tree_selection == NULL)
    return;
  row = gtk_single_selection_get_selected_item (self->tree_selection);
  node = row ? gtk_tree_list_row_get_item (row) : NULL;
  ovi_session_set_selected_node (self->session, node);
}

static void
ovi_sidebar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviSidebar *self = OVI_SIDEBAR (object);

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
ovi_sidebar_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  OviSidebar *self = OVI_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ovi_sidebar_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_sidebar_dispose (GObject *object)
{
  OviSidebar *self = OVI_SIDEBAR (object);
  GtkWidget *child;

  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_SIDEBAR);
  /* Unnamed template children are not unparented by the call above. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (ovi_sidebar_parent_class)->dispose (object);
}

static void
ovi_sidebar_class_init (OviSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_sidebar_dispose;
  object_class->get_property = ovi_sidebar_get_property;
  object_class->set_property = ovi_sidebar_set_property;

  properties[PROP_SESSION] =
      g_param_spec_object ("session", NULL, NULL, OVI_TYPE_SESSION,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_SESSION);
  g_type_ensure (OVI_TYPE_TREE_NODE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, OviSidebar, tree_selection);
  gtk_widget_class_bind_template_callback (widget_class, count_badge_classes);
  gtk_widget_class_bind_template_callback (widget_class, tree_selection_changed);
}

static void
ovi_sidebar_init (OviSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

OviSession *
ovi_sidebar_get_session (OviSidebar *self)
{
  g_return_val_if_fail (OVI_IS_SIDEBAR (self), NULL);
  return self->session;
}

void
ovi_sidebar_set_session (OviSidebar *self, OviSession *session)
{
  g_return_if_fail (OVI_IS_SIDEBAR (self));
  g_return_if_fail (session == NULL || OVI_IS_SESSION (session));

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

GListModel *
ovi_sidebar_get_model (OviSidebar *self)
{
  g_return_val_if_fail (OVI_IS_SIDEBAR (self), NULL);
  return G_LIST_MODEL (self->tree_selection);
}

void
ovi_sidebar_select (OviSidebar *self, guint position)
{
  g_return_if_fail (OVI_IS_SIDEBAR (self));
  gtk_single_selection_set_selected (self->tree_selection, position);
}
