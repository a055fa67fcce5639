/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-accessible-row.h"

/* The child of one cell of a list or column view that gives its row a
 * name a screen reader can speak. GTK 4.8 has no accessible label for list
 * items (GtkListItem:accessible-label is 4.12), and an unnamed row is read
 * as its type, "GtkListItemWidget". So this widget, put around a cell's
 * content in the item template with its label bound to what the row
 * shows, sets the label on the row widget itself: the ancestor that is a
 * child of the list view. Rows are recycled for other items; the binding
 * then changes the label and the row follows.
 *
 * In a tree (the sidebar) the content is a GtkTreeExpander, and the
 * keyboard focus goes to it rather than to the row: it holds the keys that
 * expand and collapse. It is a group with no name of its own, which a
 * reader announces as an unnamed panel, so it gets the label too. */
struct _OviAccessibleRow
{
  GtkWidget parent_instance;

  GtkWidget *child;
  char *label;
};

enum
{
  PROP_0,
  PROP_CHILD,
  PROP_LABEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviAccessibleRow, ovi_accessible_row, GTK_TYPE_WIDGET)

/* The row widget: the ancestor whose parent is the list view (GtkListView
 * directly, or the one inside a GtkColumnView). */
static GtkWidget *
find_row (OviAccessibleRow *self)
{
  for (GtkWidget *widget = gtk_widget_get_parent (GTK_WIDGET (self)); widget != NULL;
       widget = gtk_widget_get_parent (widget))
    {
      GtkWidget *parent = gtk_widget_get_parent (widget);

      if (parent != NULL && GTK_IS_LIST_VIEW (parent))
        return widget;
    }
  return NULL;
}

static void
set_label (GtkWidget *widget, const char *label)
{
  if (label != NULL && *label != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

static void
update_row (OviAccessibleRow *self)
{
  GtkWidget *row = find_row (self);

  if (self->child != NULL && GTK_IS_TREE_EXPANDER (self->child))
    set_label (self->child, self->label);
  if (row != NULL)
    set_label (row, self->label);
}

/* A cell is built before its row is in the list: the row is known once
 * the widget is in a window. */
static void
ovi_accessible_row_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ovi_accessible_row_parent_class)->root (widget);
  update_row (OVI_ACCESSIBLE_ROW (widget));
}

static void
ovi_accessible_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviAccessibleRow *self = OVI_ACCESSIBLE_ROW (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      g_value_set_object (value, self->child);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_accessible_row_set_property (GObject *object,
                                 guint prop_id,
                                 const GValue *value,
                                 GParamSpec *pspec)
{
  OviAccessibleRow *self = OVI_ACCESSIBLE_ROW (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      ovi_accessible_row_set_child (self, g_value_get_object (value));
      break;
    case PROP_LABEL:
      ovi_accessible_row_set_label (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_accessible_row_dispose (GObject *object)
{
  OviAccessibleRow *self = OVI_ACCESSIBLE_ROW (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);
  G_OBJECT_CLASS (ovi_accessible_row_parent_class)->dispose (object);
}

static void
ovi_accessible_row_finalize (GObject *object)
{
  OviAccessibleRow *self = OVI_ACCESSIBLE_ROW (object);

  g_free (self->label);
  G_OBJECT_CLASS (ovi_accessible_row_parent_class)->finalize (object);
}

static void
ovi_accessible_row_class_init (OviAccessibleRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_accessible_row_dispose;
  object_class->finalize = ovi_accessible_row_finalize;
  object_class->get_property = ovi_accessible_row_get_property;
  object_class->set_property = ovi_accessible_row_set_property;
  widget_class->root = ovi_accessible_row_root;

  properties[PROP_CHILD] =
      g_param_spec_object ("child", NULL, NULL, GTK_TYPE_WIDGET,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* What a screen reader says for the row. */
  properties[PROP_LABEL] =
      g_param_spec_string ("label", NULL, NULL, NULL,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ovi_accessible_row_init (OviAccessibleRow *self)
{
}

GtkWidget *
ovi_accessible_row_new (void)
{
  return g_object_new (OVI_TYPE_ACCESSIBLE_ROW, NULL);
}

const char *
ovi_accessible_row_get_label (OviAccessibleRow *self)
{
  g_return_val_if_fail (OVI_IS_ACCESSIBLE_ROW (self), NULL);
  return self->label;
}

void
ovi_accessible_row_set_label (OviAccessibleRow *self, const char *label)
{
  g_return_if_fail (OVI_IS_ACCESSIBLE_ROW (self));

  if (g_strcmp0 (self->label, label) == 0)
    return;
  g_free (self->label);
  self->label = g_strdup (label);
  update_row (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL]);
}

GtkWidget *
ovi_accessible_row_get_child (OviAccessibleRow *self)
{
  g_return_val_if_fail (OVI_IS_ACCESSIBLE_ROW (self), NULL);
  return self->child;
}

void
ovi_accessible_row_set_child (OviAccessibleRow *self, GtkWidget *child)
{
  g_return_if_fail (OVI_IS_ACCESSIBLE_ROW (self));
  g_return_if_fail (child == NULL || GTK_IS_WIDGET (child));

  if (self->child == child)
    return;
  g_clear_pointer (&self->child, gtk_widget_unparent);
  self->child = child;
  if (child != NULL)
    gtk_widget_set_parent (child, GTK_WIDGET (self));
  update_row (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHILD]);
}
