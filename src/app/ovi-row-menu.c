/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-row-menu.h"

/* The context menu of a table's rows: a right click selects the row under
 * the pointer and opens the menu there; the Menu key and Shift+F10 open
 * it at the row that has the keyboard. What the menu holds is the page's
 * (its OviRowMenuBuild): this file only knows rows and popovers. */

typedef struct
{
  OviRowMenuBuild build;
  gpointer user_data;
  GtkWidget *popover; /* a GtkPopoverMenu parented to the view, made once */
} RowMenu;

static void
row_menu_free (gpointer data)
{
  RowMenu *menu = data;

  g_clear_pointer (&menu->popover, gtk_widget_unparent);
  g_free (menu);
}

/* The row widget (a child of the view's list) that @widget is in, or NULL. */
static GtkWidget *
row_of (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (gtk_widget_get_parent (widget) != NULL && GTK_IS_LIST_VIEW (gtk_widget_get_parent (widget)))
      return widget;
  return NULL;
}

/* Opens the menu pointing at @x, @y of @view. */
static gboolean
popup_at (GtkColumnView *view, double x, double y)
{
  RowMenu *menu = g_object_get_data (G_OBJECT (view), "ovi-row-menu");
  g_autoptr (GMenuModel) model = menu->build (menu->user_data);
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  if (model == NULL)
    return FALSE;
  if (menu->popover == NULL)
    {
      menu->popover = gtk_popover_menu_new_from_model (NULL);
      gtk_widget_set_parent (menu->popover, GTK_WIDGET (view));
      gtk_popover_set_has_arrow (GTK_POPOVER (menu->popover), FALSE);
      gtk_widget_set_halign (menu->popover, GTK_ALIGN_START);
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (menu->popover), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (menu->popover), &rect);
  gtk_popover_popup (GTK_POPOVER (menu->popover));
  return TRUE;
}

static void
right_click (GtkGestureClick *gesture, int n_press, double x, double y, GtkColumnView *view)
{
  GtkWidget *row = row_of (gtk_widget_pick (GTK_WIDGET (view), x, y, GTK_PICK_DEFAULT));

  if (row == NULL)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  /* The row's own action: it selects its item, whichever it is. */
  gtk_widget_activate_action (row, "listitem.select", "(bb)", FALSE, FALSE);
  gtk_widget_grab_focus (row);
  popup_at (view, x, y);
}

/* The popover is the view's child: it goes with the view's own. */
static void
view_destroyed (GtkColumnView *view)
{
  RowMenu *menu = g_object_get_data (G_OBJECT (view), "ovi-row-menu");

  g_clear_pointer (&menu->popover, gtk_widget_unparent);
}

static gboolean
menu_key (GtkWidget *widget, GVariant *args, gpointer unused)
{
  return ovi_row_menu_popup (GTK_COLUMN_VIEW (widget));
}

/**
 * ovi_row_menu_attach:
 * @build: makes the menu of the selected row, each time it opens
 *
 * Gives @view's rows a context menu.
 */
void
ovi_row_menu_attach (GtkColumnView *view, OviRowMenuBuild build, gpointer user_data)
{
  RowMenu *menu = g_new0 (RowMenu, 1);
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();

  menu->build = build;
  menu->user_data = user_data;
  g_object_set_data_full (G_OBJECT (view), "ovi-row-menu", menu, row_menu_free);
  g_signal_connect (view, "destroy", G_CALLBACK (view_destroyed), NULL);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (right_click), view);
  gtk_widget_add_controller (GTK_WIDGET (view), GTK_EVENT_CONTROLLER (click));
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (
          gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                       gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK)),
          gtk_callback_action_new (menu_key, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (view), keys);
}

/**
 * ovi_row_menu_popup:
 *
 * Opens the menu of the selected row at the row that has the keyboard
 * (the Menu key), or at the top of the table.
 *
 * Returns: whether a menu opened
 */
gboolean
ovi_row_menu_popup (GtkColumnView *view)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (view));
  GtkWidget *row = root ? row_of (gtk_root_get_focus (root)) : NULL;
  graphene_point_t point = GRAPHENE_POINT_INIT (0, 0);

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), FALSE);

  if (row == NULL || !gtk_widget_is_ancestor (row, GTK_WIDGET (view)) ||
      !gtk_widget_compute_point (row, GTK_WIDGET (view),
                                 &GRAPHENE_POINT_INIT (12, gtk_widget_get_height (row)), &point))
    point = GRAPHENE_POINT_INIT (12, 12);
  return popup_at (view, point.x, point.y);
}

/* The menu's popover once it opened (for tests), or NULL. */
GtkPopover *
ovi_row_menu_get_popover (GtkColumnView *view)
{
  RowMenu *menu = g_object_get_data (G_OBJECT (view), "ovi-row-menu");

  return menu && menu->popover ? GTK_POPOVER (menu->popover) : NULL;
}
