/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-accessible-row.h"
#include "ovi-sidebar.h"

/* The time / device / model / iteration tree of the session, with the
 * number of overflow records below each node; the selected node narrows
 * the pages. */
struct _OviSidebar
{
  OviPage parent_instance;

  GtkSingleSelection *tree_selection;
};

G_DEFINE_FINAL_TYPE (OviSidebar, ovi_sidebar, OVI_TYPE_PAGE)

static GStrv
count_badge_classes (gpointer unused, guint count)
{
  static const char *some[] = { "count-badge", "overflowed", NULL };
  static const char *none[] = { "count-badge", "dim-label", NULL };

  return g_strdupv ((char **) (count > 0 ? some : none));
}

/* What a screen reader says for a row: which level of the tree it is and
 * how many overflow records are below it. */
static char *
node_row_name (gpointer unused, OviTreeNode *node, guint count)
{
  g_autofree char *what = NULL;

  if (node == NULL)
    return NULL;
  switch (ovi_tree_node_get_level (node))
    {
    case OVI_TREE_LEVEL_ROOT:
    case OVI_TREE_LEVEL_MACHINE:
      /* Translators: the sidebar's top row, read by a screen reader; %s is
       * the folder's name */
      what = g_strdup_printf (_ ("Folder %s"), ovi_tree_node_get_label (node));
      break;
    case OVI_TREE_LEVEL_TIME:
      /* Translators: a sidebar row read by a screen reader; %s is the time
       * folder of a dump, e.g. 20251202101500 */
      what = g_strdup_printf (_ ("Time %s"), ovi_tree_node_get_label (node));
      break;
    default:
      /* "Device 0", "Model resnet50", "Iteration 3" */
      what = g_strdup (ovi_tree_node_get_label (node));
    }
  return g_strdup_printf (
      /* Translators: a sidebar row read by a screen reader: "Iteration 3: 2
       * overflow records" */
      g_dngettext (GETTEXT_PACKAGE, "%s: %u overflow record", "%s: %u overflow records", count),
      what, count);
}

static void
tree_selection_changed (OviSidebar *self)
{
  GtkTreeListRow *row;
  g_autoptr (OviTreeNode) node = NULL;
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));

  if (session == NULL || self->tree_selection == NULL)
    return;
  row = gtk_single_selection_get_selected_item (self->tree_selection);
  node = row ? gtk_tree_list_row_get_item (row) : NULL;
  ovi_session_set_selected_node (session, node);
}

static void
ovi_sidebar_dispose (GObject *object)
{
  OviSidebar *self = OVI_SIDEBAR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_SIDEBAR);
  G_OBJECT_CLASS (ovi_sidebar_parent_class)->dispose (object);
}

static void
ovi_sidebar_class_init (OviSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_sidebar_dispose;

  g_type_ensure (OVI_TYPE_ACCESSIBLE_ROW);
  g_type_ensure (OVI_TYPE_SESSION);
  g_type_ensure (OVI_TYPE_TREE_NODE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, OviSidebar, tree_selection);
  gtk_widget_class_bind_template_callback (widget_class, count_badge_classes);
  gtk_widget_class_bind_template_callback (widget_class, node_row_name);
  gtk_widget_class_bind_template_callback (widget_class, tree_selection_changed);
}

static void
ovi_sidebar_init (OviSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
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
