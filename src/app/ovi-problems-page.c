/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-accessible-row.h"
#include "ovi-problems-page.h"

/* Every file of the session's folder that could not be read, and why,
 * narrowed by the sidebar's node as the other pages are. */
struct _OviProblemsPage
{
  OviPage parent_instance;

  GtkFilterListModel *problem_filter_model;
  GtkColumnView *problem_view;

  GtkCustomFilter *node_filter; /* owned by problem_filter_model */
};

G_DEFINE_FINAL_TYPE (OviProblemsPage, ovi_problems_page, OVI_TYPE_PAGE)

/* What a screen reader says for a row: the file, then why it could not be
 * read. */
static char *
problem_row_name (gpointer unused, const char *file, const char *message)
{
  if (file == NULL)
    return NULL;
  /* Translators: a Problems row read by a screen reader: a file's path,
   * then the reason it could not be read */
  return g_strdup_printf (_ ("%s: %s"), file, message ? message : "");
}

static gboolean
problem_visible (gpointer item, gpointer user_data)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (user_data));

  return session == NULL || ovi_session_problem_in_selected_node (session, item);
}

static void
node_changed (OviProblemsPage *self)
{
  if (self->node_filter != NULL)
    gtk_filter_changed (GTK_FILTER (self->node_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
ovi_problems_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviProblemsPage *self = OVI_PROBLEMS_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (old_session, self);
  if (session != NULL)
    g_signal_connect_object (session, "notify::selected-node", G_CALLBACK (node_changed), self,
                             G_CONNECT_SWAPPED);
  node_changed (self);
}

static void
ovi_problems_page_dispose (GObject *object)
{
  OviProblemsPage *self = OVI_PROBLEMS_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_PROBLEMS_PAGE);
  self->node_filter = NULL;
  G_OBJECT_CLASS (ovi_problems_page_parent_class)->dispose (object);
}

static void
ovi_problems_page_class_init (OviProblemsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_problems_page_dispose;
  OVI_PAGE_CLASS (klass)->session_changed = ovi_problems_page_session_changed;

  g_type_ensure (OVI_TYPE_ACCESSIBLE_ROW);
  g_type_ensure (OVI_TYPE_PROBLEM);
  g_type_ensure (OVI_TYPE_SESSION);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-problems-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviProblemsPage, problem_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviProblemsPage, problem_view);
  gtk_widget_class_bind_template_callback (widget_class, problem_row_name);
}

static void
ovi_problems_page_init (OviProblemsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->node_filter = gtk_custom_filter_new (problem_visible, self, NULL);
  gtk_filter_list_model_set_filter (self->problem_filter_model, GTK_FILTER (self->node_filter));
  g_object_unref (self->node_filter);
}

GtkColumnView *
ovi_problems_page_get_column_view (OviProblemsPage *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEMS_PAGE (self), NULL);
  return self->problem_view;
}
