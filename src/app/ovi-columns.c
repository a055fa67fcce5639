/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-columns.h"

/* How the tables fit their width (GTK 4.8 has no breakpoints): columns of
 * a fixed width never narrower than their header, and the columns a page
 * can do without hidden, least needed first, until the rest fit without
 * scrolling sideways. */

/* The text of @widget's first label, or NULL. */
static const char *
first_label_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_label (GTK_LABEL (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *text = first_label_text (child);

      if (text != NULL)
        return text;
    }
  return NULL;
}

/* The header of @column in @view, found by its title: the header row
 * holds a title per visible column, not in the columns' order (a column
 * shown again has its title added at the end). NULL while there is none. */
static GtkWidget *
column_title (GtkColumnView *view, GtkColumnViewColumn *column)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  const char *name = gtk_column_view_column_get_title (column);

  if (header == NULL || name == NULL || !gtk_column_view_column_get_visible (column))
    return NULL;
  for (GtkWidget *title = gtk_widget_get_first_child (header); title;
       title = gtk_widget_get_next_sibling (title))
    if (g_strcmp0 (first_label_text (title), name) == 0)
      return title;
  return NULL;
}

/* What a header takes around its title: its CSS padding, border and
 * margin on both sides (the same for every header); 0 while the view has
 * no header. GTK 4.8 gives no other way to read them. */
static int
title_padding (GtkColumnView *view)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  GtkWidget *title = header ? gtk_widget_get_first_child (header) : NULL;
  GtkBorder padding, border, margin;
  GtkStyleContext *style;

  if (title == NULL)
    return 0;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  style = gtk_widget_get_style_context (title);
  gtk_style_context_get_padding (style, &padding);
  gtk_style_context_get_border (style, &border);
  gtk_style_context_get_margin (style, &margin);
  G_GNUC_END_IGNORE_DEPRECATIONS
  /* And the pixel the header row's own border takes from its last
   * title; never 0 once there is a header: 0 says "not yet". */
  return 1 + padding.left + padding.right + border.left + border.right + margin.left + margin.right;
}

/**
 * ovi_columns_fit_titles:
 *
 * Widens every visible column of a fixed width that is narrower than its
 * header (its title in the user's language, the sort arrow and the
 * header's padding), so that no header is cut: "Since Previous" and
 * "距上一次" alike.
 *
 * Returns: %FALSE when the headers are not laid out yet
 */
gboolean
ovi_columns_fit_titles (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  int padding = title_padding (view);

  if (padding == 0)
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      int fixed = gtk_column_view_column_get_fixed_width (column);
      int needed;

      /* The title's content: its label and sort arrow, and the padding. */
      if (fixed < 0 || !gtk_column_view_column_get_visible (column))
        continue;
      needed = ovi_columns_title_width (view, column);
      if (needed > fixed)
        gtk_column_view_column_set_fixed_width (column, needed);
    }
  return TRUE;
}

/**
 * ovi_columns_title_width:
 *
 * Returns: the width @column needs to show its header whole, or 0 while
 *   the headers are not laid out
 */
int
ovi_columns_title_width (GtkColumnView *view, GtkColumnViewColumn *column)
{
  GtkWidget *title = column_title (view, column);
  GtkWidget *content = title ? gtk_widget_get_first_child (title) : NULL;
  int padding = title_padding (view);
  int natural = 0;

  if (content == NULL || padding == 0)
    return 0;
  gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural + padding;
}

/**
 * ovi_columns_laid_out_width:
 *
 * Returns: the width @column has in @view as laid out (its header's), or
 *   0 while it is not
 */
int
ovi_columns_laid_out_width (GtkColumnView *view, GtkColumnViewColumn *column)
{
  GtkWidget *title = column_title (view, column);
  int padding = title_padding (view);

  if (title == NULL || padding == 0 || !gtk_widget_get_mapped (title))
    return 0;
  return gtk_widget_get_width (title) + padding;
}

/**
 * ovi_columns_cell_padding:
 *
 * Returns: what a cell or header of @view takes around its content, or 0
 *   while the view is not laid out
 */
int
ovi_columns_cell_padding (GtkColumnView *view)
{
  return title_padding (view);
}

/**
 * ovi_columns_width:
 *
 * Returns: the width the visible columns of a fixed width take
 */
int
ovi_columns_width (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  int width = 0;

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column))
        width += MAX (gtk_column_view_column_get_fixed_width (column), 0);
    }
  return width;
}

/**
 * ovi_columns_hide_to_fit:
 * @optional: the columns the page can do without, least needed first
 * @width: the width the table has
 *
 * Shows every column of @optional again, then hides them in order until
 * the visible columns fit in @width.
 *
 * Returns: how many of @optional are hidden
 */
guint
ovi_columns_hide_to_fit (GtkColumnView *view,
                         GtkColumnViewColumn *const *optional,
                         guint n_optional,
                         int width)
{
  int needed = ovi_columns_width (view);
  guint n_hidden = 0;

  for (guint i = 0; i < n_optional; i++)
    if (!gtk_column_view_column_get_visible (optional[i]))
      needed += MAX (gtk_column_view_column_get_fixed_width (optional[i]), 0);
  for (; n_hidden < n_optional && needed > width; n_hidden++)
    needed -= MAX (gtk_column_view_column_get_fixed_width (optional[n_hidden]), 0);
  for (guint i = 0; i < n_optional; i++)
    if (gtk_column_view_column_get_visible (optional[i]) != (i >= n_hidden))
      gtk_column_view_column_set_visible (optional[i], i >= n_hidden);
  return n_hidden;
}

/* The list view inside @view, which lays out its rows. */
GtkWidget *
ovi_columns_get_list (GtkColumnView *view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

/**
 * ovi_columns_focus_selected_row:
 *
 * Gives the keyboard to the selected row once the table has laid it out.
 *
 * Returns: %TRUE when the row took it, %FALSE when it is not laid out (yet)
 */
gboolean
ovi_columns_focus_selected_row (GtkColumnView *view)
{
  GtkWidget *list = ovi_columns_get_list (view);

  for (GtkWidget *row = list ? gtk_widget_get_first_child (list) : NULL; row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) &&
        (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) != 0 &&
        gtk_widget_grab_focus (row))
      return TRUE;
  return FALSE;
}

/* --- the selected row brought to the keyboard ------------------------------ */

/* The frames the table is given to lay the selected row out in view: past
 * them (a row a filter hides), the focus stays where it is. */
#define FOCUS_FRAMES 30

typedef struct
{
  guint tick;
  guint frames;
  gboolean by_adjustment;
  gboolean scrolled;
} FocusSoon;

static void
scroll_by_adjustment (GtkWidget *list, FocusSoon *soon, guint position, guint n)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list));
  double upper = gtk_adjustment_get_upper (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);
  double row, value, target;

  /* Scrolled by its adjustment once the table knows its height: on GTK
   * 4.8, a table given its model while hidden lays out only its first row
   * until it scrolls, and "list.scroll-to-item" does not count as one. So
   * it always scrolls, by one pixel if the row is where it should be
   * already, after one layout with the model. */
  if (soon->scrolled || soon->frames == 0 || upper <= 0 || n == 0)
    return;
  row = upper / n;
  value = gtk_adjustment_get_value (adjustment);
  target = value;
  if (position * row < value || (position + 1) * row > value + page)
    target = CLAMP (position * row - page / 3, 0, upper - page);
  if (target == value)
    gtk_adjustment_set_value (adjustment, value > 0 ? value - 1 : value + 1);
  gtk_adjustment_set_value (adjustment, target);
  soon->scrolled = TRUE;
}

/* Once the table has laid the selected row out in view, the row takes the
 * keyboard. Runs per frame, only while the table is shown (a tick callback
 * of a mapped widget), and ends with the row found. */
static gboolean
focus_soon_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (widget);
  FocusSoon *soon = data;
  GtkSelectionModel *model = gtk_column_view_get_model (view);
  GtkWidget *list = ovi_columns_get_list (view);
  guint position = GTK_IS_SINGLE_SELECTION (model)
                       ? gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model))
                       : GTK_INVALID_LIST_POSITION;

  if (list != NULL && position != GTK_INVALID_LIST_POSITION)
    {
      if (soon->by_adjustment)
        scroll_by_adjustment (list, soon, position,
                              g_list_model_get_n_items (G_LIST_MODEL (model)));
      else if (soon->frames == 0)
        gtk_widget_activate_action (list, "list.scroll-to-item", "u", position);
      if (ovi_columns_focus_selected_row (view))
        {
          soon->tick = 0;
          return G_SOURCE_REMOVE;
        }
    }
  if (++soon->frames < FOCUS_FRAMES)
    return G_SOURCE_CONTINUE;
  soon->tick = 0;
  return G_SOURCE_REMOVE;
}

/**
 * ovi_columns_focus_selected_row_soon:
 * @view: a table whose model is a #GtkSingleSelection
 * @by_adjustment: scroll by the table's adjustment (a table given its
 *   model while hidden, see scroll_by_adjustment()), else by
 *   "list.scroll-to-item"
 *
 * Scrolls the selected row into view and gives it the keyboard once the
 * table has laid it out, within a few frames; the Operators and Diff
 * pages' row shown from elsewhere. Called again, it starts over.
 */
void
ovi_columns_focus_selected_row_soon (GtkColumnView *view, gboolean by_adjustment)
{
  FocusSoon *soon = g_object_get_data (G_OBJECT (view), "ovi-focus-soon");

  if (soon == NULL)
    {
      soon = g_new0 (FocusSoon, 1);
      g_object_set_data_full (G_OBJECT (view), "ovi-focus-soon", soon, g_free);
    }
  soon->frames = 0;
  soon->scrolled = FALSE;
  soon->by_adjustment = by_adjustment;
  if (soon->tick == 0)
    soon->tick = gtk_widget_add_tick_callback (GTK_WIDGET (view), focus_soon_tick, soon, NULL);
}

/* Stops bringing the selected row to the keyboard (the page goes). */
void
ovi_columns_cancel_focus_soon (GtkColumnView *view)
{
  FocusSoon *soon = g_object_get_data (G_OBJECT (view), "ovi-focus-soon");

  if (soon != NULL && soon->tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (view), soon->tick);
  if (soon != NULL)
    soon->tick = 0;
}
