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
