/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-chain-line.h"

struct _OviChainLine
{
  OviPage parent_instance;

  GtkLabel *label;
  OviGraphState *state;
};

G_DEFINE_FINAL_TYPE (OviChainLine, ovi_chain_line, OVI_TYPE_PAGE)

/* Links shown at each end of a long chain; the middle is counted. */
#define ENDS 3

/* @chain with the middle of each long line left out: a chain through
 * hundreds of operators would be a label pages long (and as long to lay
 * out); the Graph page draws all of it. */
static char *
shorten (const char *chain)
{
  g_auto (GStrv) lines = g_strsplit (chain, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) links = g_strsplit (lines[i], " → ", -1);
      guint n = g_strv_length (links);

      if (i > 0)
        g_string_append_c (out, '\n');
      for (guint k = 0; k < n; k++)
        {
          if (n > 2 * ENDS + 1 && k == ENDS)
            {
              /* Translators: in a long chain, "a → b → c → … 493 more … → x → y →
               * z"; never fewer than 2 */
              g_string_append_printf (out, _ (" → … %u more …"), n - 2 * ENDS);
              k = n - ENDS - 1;
              continue;
            }
          g_string_append_printf (out, "%s%s", k > 0 ? " → " : "", links[k]);
        }
    }
  return g_string_free (out, FALSE);
}

static void
chain_changed (OviChainLine *self)
{
  const char *chain = self->state ? ovi_graph_state_get_chain (self->state) : NULL;
  g_autofree char *text = NULL;

  if (chain != NULL)
    {
      g_autofree char *shown = shorten (chain);

      /* Translators: under the Overflows and Operators tables and on the Graph
       * page: how Inf/NaN reached the selected operator, "origin → … →
       * operator", a line for each origin */
      text = g_strdup_printf (_ ("Chain: %s"), shown);
    }
  gtk_label_set_text (self->label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self), text != NULL);
}

static void
ovi_chain_line_session_changed (OviPage *page, OviSession *old_session)
{
  OviChainLine *self = OVI_CHAIN_LINE (page);
  OviSession *session = ovi_page_get_session (page);

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  if (session != NULL)
    {
      self->state = g_object_ref (ovi_session_get_graph (session));
      g_signal_connect_swapped (self->state, "notify::chain", G_CALLBACK (chain_changed), self);
    }
  if (self->label != NULL)
    chain_changed (self);
}

static void
ovi_chain_line_dispose (GObject *object)
{
  OviChainLine *self = OVI_CHAIN_LINE (object);

  if (self->label != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->label));
  self->label = NULL;
  G_OBJECT_CLASS (ovi_chain_line_parent_class)->dispose (object);
}

static void
ovi_chain_line_class_init (OviChainLineClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ovi_chain_line_dispose;
  OVI_PAGE_CLASS (klass)->session_changed = ovi_chain_line_session_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chainline");
}

static void
ovi_chain_line_init (OviChainLine *self)
{
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->label, 0);
  gtk_label_set_wrap (self->label, TRUE);
  /* Not selectable: GTK 4.8's selectable label, hidden while the table
   * it follows is filtered away, asks gtk_widget_is_ancestor() of a NULL
   * focus (critical in /app/overflows-page/filter-no-match-state).
   * `report` prints the same chain for copying. */
  gtk_widget_set_margin_start (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->label), 4);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->label), 4);
  gtk_widget_set_parent (GTK_WIDGET (self->label), GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

const char *
ovi_chain_line_get_text (OviChainLine *self)
{
  g_return_val_if_fail (OVI_IS_CHAIN_LINE (self), NULL);
  return gtk_label_get_text (self->label);
}
