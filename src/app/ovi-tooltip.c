/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-tooltip.h"

struct _OviTooltip
{
  GObject parent_instance;

  GtkWidget *widget; /* unowned: it owns this */
  char *text;
};

enum
{
  PROP_0,
  PROP_TEXT,
  PROP_WIDGET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviTooltip, ovi_tooltip, G_TYPE_OBJECT)

#define TOOLTIP_KEY "ovi-tooltip"

static gboolean
query_tooltip (
    GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, OviTooltip *self)
{
  if (self->text == NULL || self->text[0] == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->text);
  return TRUE;
}

static void
ovi_tooltip_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviTooltip *self = OVI_TOOLTIP (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_WIDGET:
      g_value_set_object (value, self->widget);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_tooltip_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  OviTooltip *self = OVI_TOOLTIP (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      ovi_tooltip_set_text (self, g_value_get_string (value));
      break;
    case PROP_WIDGET:
      ovi_tooltip_set_widget (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_tooltip_finalize (GObject *object)
{
  OviTooltip *self = OVI_TOOLTIP (object);

  g_free (self->text);
  G_OBJECT_CLASS (ovi_tooltip_parent_class)->finalize (object);
}

static void
ovi_tooltip_class_init (OviTooltipClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ovi_tooltip_finalize;
  object_class->get_property = ovi_tooltip_get_property;
  object_class->set_property = ovi_tooltip_set_property;

  properties[PROP_TEXT] =
      g_param_spec_string ("text", NULL, NULL, NULL,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Set once: the widget the text is shown for. */
  properties[PROP_WIDGET] =
      g_param_spec_object ("widget", NULL, NULL, GTK_TYPE_WIDGET,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_tooltip_init (OviTooltip *self)
{
}

const char *
ovi_tooltip_get_text (OviTooltip *self)
{
  g_return_val_if_fail (OVI_IS_TOOLTIP (self), NULL);

  return self->text;
}

/* No round trip: the text is read when GTK asks for the tooltip. */
void
ovi_tooltip_set_text (OviTooltip *self, const char *text)
{
  g_return_if_fail (OVI_IS_TOOLTIP (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

GtkWidget *
ovi_tooltip_get_widget (OviTooltip *self)
{
  g_return_val_if_fail (OVI_IS_TOOLTIP (self), NULL);

  return self->widget;
}

void
ovi_tooltip_set_widget (OviTooltip *self, GtkWidget *widget)
{
  g_return_if_fail (OVI_IS_TOOLTIP (self));
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (self->widget == NULL);

  self->widget = widget;
  g_object_set_data_full (G_OBJECT (widget), TOOLTIP_KEY, g_object_ref (self), g_object_unref);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip), self);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDGET]);
}

/**
 * ovi_widget_set_tooltip:
 * @text: (nullable): the tooltip, or %NULL for none
 *
 * Gives @widget the tooltip @text the way an OviTooltip does, for widgets
 * built in code.
 */
void
ovi_widget_set_tooltip (GtkWidget *widget, const char *text)
{
  OviTooltip *tooltip = g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY);

  if (tooltip == NULL)
    {
      g_autoptr (OviTooltip) created = g_object_new (OVI_TYPE_TOOLTIP, NULL);

      ovi_tooltip_set_widget (created, widget);
      tooltip = created;
    }
  ovi_tooltip_set_text (tooltip, text);
}

/**
 * ovi_widget_get_tooltip:
 *
 * Returns: (nullable): the text shown over @widget: its OviTooltip's, else
 *   its own tooltip text
 */
const char *
ovi_widget_get_tooltip (GtkWidget *widget)
{
  OviTooltip *tooltip = g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY);

  if (tooltip != NULL && tooltip->text != NULL)
    return tooltip->text;
  return gtk_widget_get_tooltip_text (widget);
}
