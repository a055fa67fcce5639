/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-a11y.h"
#include "ovi-ignore-window.h"

/* Edits the ignore list (GSettings key ignore-patterns) as text, one
 * pattern a line. */
struct _OviIgnoreWindow
{
  AdwWindow parent_instance;

  GtkTextView *text_view;

  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (OviIgnoreWindow, ovi_ignore_window, ADW_TYPE_WINDOW)

static void
ovi_ignore_window_dispose (GObject *object)
{
  OviIgnoreWindow *self = OVI_IGNORE_WINDOW (object);

  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_IGNORE_WINDOW);
  G_OBJECT_CLASS (ovi_ignore_window_parent_class)->dispose (object);
}

/**
 * ovi_ignore_window_save:
 *
 * Stores the non-empty lines and closes the window.
 */
void
ovi_ignore_window_save (OviIgnoreWindow *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GStrvBuilder) patterns = g_strv_builder_new ();
  g_auto (GStrv) result = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_strstrip (lines[i]);
      if (*lines[i] != '\0')
        g_strv_builder_add (patterns, lines[i]);
    }
  result = g_strv_builder_end (patterns);
  g_settings_set_strv (self->settings, "ignore-patterns", (const char *const *) result);
  gtk_window_close (GTK_WINDOW (self));
}

static void
save_clicked (OviIgnoreWindow *self)
{
  ovi_ignore_window_save (self);
}

static void
ovi_ignore_window_class_init (OviIgnoreWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_ignore_window_dispose;

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-ignore-window.ui");
  gtk_widget_class_bind_template_child (widget_class, OviIgnoreWindow, text_view);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ovi_ignore_window_init (OviIgnoreWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* "_Cancel" and "_Save" read without their underscores. */
  ovi_a11y_fix_names (GTK_WIDGET (self));
}

void
ovi_ignore_window_set_text (OviIgnoreWindow *self, const char *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), text, -1);
}

GtkWindow *
ovi_ignore_window_new (GtkWindow *parent, GSettings *settings)
{
  OviIgnoreWindow *self = g_object_new (OVI_TYPE_IGNORE_WINDOW, "transient-for", parent, NULL);
  g_auto (GStrv) patterns = g_settings_get_strv (settings, "ignore-patterns");
  g_autofree char *text = g_strjoinv ("\n", patterns);

  self->settings = g_object_ref (settings);
  ovi_ignore_window_set_text (self, text);
  return GTK_WINDOW (self);
}
