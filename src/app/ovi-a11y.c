/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-a11y.h"

/* Names a screen reader speaks, where GTK 4.8 gets them wrong:
 * - a button or check button with a mnemonic ("_Abnormal Only") is named
 *   with the raw label, underscore and all, followed by its label's text
 *   ("_Abnormal Only Abnormal Only");
 * - the toggle button inside a drop-down, and a column view's header row,
 *   are named by their types, "GtkToggleButton", "GtkListItemWidget".
 * Run once over a window's widgets after its template is built. */

/**
 * ovi_a11y_strip_mnemonic:
 *
 * Returns: @label as it is shown: "_" before a mnemonic letter dropped,
 *   "__" written as "_"
 */
char *
ovi_a11y_strip_mnemonic (const char *label)
{
  GString *out = g_string_new (NULL);

  for (const char *p = label; p != NULL && *p != '\0'; p++)
    {
      if (*p == '_')
        {
          if (p[1] == '_')
            g_string_append_c (out, '_'), p++;
          continue;
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static void
name_plainly (GtkWidget *widget, const char *label)
{
  g_autofree char *plain = ovi_a11y_strip_mnemonic (label);

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, plain,
                                  -1);
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
}

/* What names a drop-down for a reader: its tooltip, or the label that
 * points at it with a mnemonic. */
static char *
drop_down_name (GtkWidget *drop_down)
{
  const char *tooltip = gtk_widget_get_tooltip_text (drop_down);
  GList *labels;
  char *name = NULL;

  if (tooltip != NULL && *tooltip != '\0')
    return g_strdup (tooltip);
  labels = gtk_widget_list_mnemonic_labels (drop_down);
  if (labels != NULL && GTK_IS_LABEL (labels->data))
    name = g_strdup (gtk_label_get_text (labels->data));
  g_list_free (labels);
  return name;
}

static void
fix_drop_down (GtkWidget *drop_down)
{
  g_autofree char *name = drop_down_name (drop_down);

  if (name == NULL)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (drop_down); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                      -1);
}

void
ovi_a11y_fix_names (GtkWidget *root)
{
  const char *label = NULL;
  gboolean underline = FALSE;

  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root))
    {
      label = gtk_button_get_label (GTK_BUTTON (root));
      underline = gtk_button_get_use_underline (GTK_BUTTON (root));
    }
  else if (GTK_IS_CHECK_BUTTON (root))
    {
      label = gtk_check_button_get_label (GTK_CHECK_BUTTON (root));
      underline = gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (root));
    }
  if (underline && label != NULL && strchr (label, '_') != NULL)
    name_plainly (root, label);
  if (GTK_IS_DROP_DOWN (root))
    fix_drop_down (root);
  /* A column view's header row is a list row too. */
  if (GTK_IS_COLUMN_VIEW (root) && gtk_widget_get_first_child (root) != NULL &&
      !GTK_IS_LIST_VIEW (gtk_widget_get_first_child (root)))
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_first_child (root)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _ ("Column headers"), -1);

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    ovi_a11y_fix_names (child);
}

/* Names the menu buttons and widgets of @type at and below @widget. */
static void
name_all (GtkWidget *widget, GType type, const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) || GTK_IS_MENU_BUTTON (widget))
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                      -1);
      gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    name_all (child, type, label);
}

/**
 * ovi_a11y_name_split_button:
 *
 * Names the two buttons inside an AdwSplitButton, which libadwaita 1.2
 * leaves to be read as "GtkImage" and "GtkMenuButton".
 */
void
ovi_a11y_name_split_button (GtkWidget *split_button, const char *button, const char *arrow)
{
  g_return_if_fail (GTK_IS_WIDGET (split_button));

  for (GtkWidget *child = gtk_widget_get_first_child (split_button); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_MENU_BUTTON (child))
        name_all (child, GTK_TYPE_BUTTON, arrow);
      else if (GTK_IS_BUTTON (child))
        gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        button, -1);
    }
}
