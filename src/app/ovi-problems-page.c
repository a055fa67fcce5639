#include "config.h"

#include <glib/gi18n.h>

#include "ovi-problems-page.h"

/* Every file of the session's folder that could not be read, and why. */
struct _OviProblemsPage
{
  OviPage parent_instance;

  GtkColumnView *problem_view;
};

G_DEFINE_FINAL_TYPE (OviProblemsPage, ovi_problems_page, OVI_TYPE_PAGE)

static void
ovi_problems_page_dispose (GObject *object)
{
  OviProblemsPage *self = OVI_PROBLEMS_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_PROBLEMS_PAGE);
  G_OBJECT_CLASS (ovi_problems_page_parent_class)->dispose (object);
}

static void
ovi_problems_page_class_init (OviProblemsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_problems_page_dispose;

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

GtkColumnView *
ovi_problems_page_get_column_view (OviProblemsPage *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEMS_PAGE (self), NULL);
  return self->problem_view;
}
