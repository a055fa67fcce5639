/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-timeline-strip.h"
#include "ovi-tooltip.h"

/* A mark for each iteration with overflow records, between the span's
 * first and last iteration: red for the rank's first overflow, orange for
 * the others. Iterations outside the span are counted at the ends. */
struct _OviTimelineStrip
{
  GtkWidget parent_instance;

  OviRank *rank;
  guint64 first;
  guint64 last;
};

enum
{
  PROP_0,
  PROP_RANK,
  PROP_FIRST,
  PROP_LAST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviTimelineStrip, ovi_timeline_strip, GTK_TYPE_WIDGET)

static const GdkRGBA first_color = { 0.878, 0.106, 0.141, 1.0 }; /* red */
static const GdkRGBA other_color = { 1.000, 0.471, 0.000, 1.0 }; /* orange */
static const GdkRGBA axis_color = { 0.5, 0.5, 0.5, 0.35 };

#define MARK_WIDTH 3.0f

static void
ovi_timeline_strip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  OviTimelineStrip *self = OVI_TIMELINE_STRIP (widget);
  float width = gtk_widget_get_width (widget);
  float height = gtk_widget_get_height (widget);
  const OviRankIteration *iterations;
  guint n = 0;
  double span;

  gtk_snapshot_append_color (snapshot, &axis_color,
                             &GRAPHENE_RECT_INIT (0, height / 2 - 0.5f, width, 1));
  if (self->rank == NULL || self->last < self->first || width <= MARK_WIDTH)
    return;
  iterations = ovi_rank_get_iterations (self->rank, &n);
  span = (double) (self->last - self->first) + 1;
  for (guint i = 0; i < n; i++)
    {
      guint64 it = iterations[i].iteration;
      gboolean first =
          ovi_rank_has_iteration (self->rank) && it == ovi_rank_get_iteration (self->rank);
      float x;

      if (it < self->first || it > self->last)
        continue;
      x = (float) ((double) (it - self->first) / span * (width - MARK_WIDTH));
      gtk_snapshot_append_color (snapshot, first ? &first_color : &other_color,
                                 &GRAPHENE_RECT_INIT (x, 2, MARK_WIDTH, height - 4));
    }
}

static void
ovi_timeline_strip_measure (GtkWidget *widget,
                            GtkOrientation orientation,
                            int for_size,
                            int *minimum,
                            int *natural,
                            int *minimum_baseline,
                            int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 60;
      *natural = 240;
    }
  else
    *minimum = *natural = 16;
}

/* What the strip shows, in words: its tooltip and accessible description. */
char *
ovi_timeline_strip_dup_description (OviTimelineStrip *self)
{
  const OviRankIteration *iterations;
  guint n = 0, shown = 0, before = 0, after = 0;
  g_autoptr (GString) text = g_string_new (NULL);

  g_return_val_if_fail (OVI_IS_TIMELINE_STRIP (self), NULL);

  if (self->rank == NULL)
    return g_strdup ("");
  iterations = ovi_rank_get_iterations (self->rank, &n);
  for (guint i = 0; i < n; i++)
    {
      if (iterations[i].iteration < self->first)
        before++;
      else if (iterations[i].iteration > self->last)
        after++;
      else if (shown++ < 12)
        {
          if (text->len)
            g_string_append (text, ", ");
          g_string_append_printf (text, "%" G_GUINT64_FORMAT, iterations[i].iteration);
        }
    }
  if (n == 0)
    return g_strdup (_ ("No overflow."));
  if (shown > 12)
    g_string_append (text, "…");
  {
    g_autofree char *main =
        shown ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Overflows in %u iteration: %s.",
                                              "Overflows in %u iterations: %s.", shown),
                                 shown, text->str)
              : g_strdup (_ ("No overflow in the iterations shown."));
    g_autofree char *outside =
        before + after ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                       "%u iteration with overflows is outside "
                                                       "the span shown.",
                                                       "%u iterations with overflows are outside "
                                                       "the span shown.",
                                                       before + after),
                                          before + after)
                       : NULL;

    return outside ? g_strjoin (" ", main, outside, NULL) : g_steal_pointer (&main);
  }
}

static void
update_description (OviTimelineStrip *self)
{
  g_autofree char *description = ovi_timeline_strip_dup_description (self);

  ovi_widget_set_tooltip (GTK_WIDGET (self), description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, description,
                                  -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ovi_timeline_strip_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviTimelineStrip *self = OVI_TIMELINE_STRIP (object);

  switch (prop_id)
    {
    case PROP_RANK:
      g_value_set_object (value, self->rank);
      break;
    case PROP_FIRST:
      g_value_set_uint64 (value, self->first);
      break;
    case PROP_LAST:
      g_value_set_uint64 (value, self->last);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_timeline_strip_set_property (GObject *object,
                                 guint prop_id,
                                 const GValue *value,
                                 GParamSpec *pspec)
{
  OviTimelineStrip *self = OVI_TIMELINE_STRIP (object);

  switch (prop_id)
    {
    case PROP_RANK:
      ovi_timeline_strip_set_rank (self, g_value_get_object (value));
      break;
    case PROP_FIRST:
      ovi_timeline_strip_set_span (self, g_value_get_uint64 (value), self->last);
      break;
    case PROP_LAST:
      ovi_timeline_strip_set_span (self, self->first, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_timeline_strip_dispose (GObject *object)
{
  OviTimelineStrip *self = OVI_TIMELINE_STRIP (object);

  g_clear_object (&self->rank);
  G_OBJECT_CLASS (ovi_timeline_strip_parent_class)->dispose (object);
}

static void
ovi_timeline_strip_class_init (OviTimelineStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = ovi_timeline_strip_dispose;
  object_class->get_property = ovi_timeline_strip_get_property;
  object_class->set_property = ovi_timeline_strip_set_property;
  widget_class->snapshot = ovi_timeline_strip_snapshot;
  widget_class->measure = ovi_timeline_strip_measure;

  properties[PROP_RANK] = g_param_spec_object ("rank", NULL, NULL, OVI_TYPE_RANK, rw);
  properties[PROP_FIRST] = g_param_spec_uint64 ("first", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  properties[PROP_LAST] = g_param_spec_uint64 ("last", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timeline-strip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ovi_timeline_strip_init (OviTimelineStrip *self)
{
}

GtkWidget *
ovi_timeline_strip_new (void)
{
  return g_object_new (OVI_TYPE_TIMELINE_STRIP, NULL);
}

void
ovi_timeline_strip_set_rank (OviTimelineStrip *self, OviRank *rank)
{
  g_return_if_fail (OVI_IS_TIMELINE_STRIP (self));

  if (!g_set_object (&self->rank, rank))
    return;
  update_description (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANK]);
}

void
ovi_timeline_strip_set_span (OviTimelineStrip *self, guint64 first, guint64 last)
{
  g_return_if_fail (OVI_IS_TIMELINE_STRIP (self));

  if (self->first == first && self->last == last)
    return;
  self->first = first;
  self->last = last;
  update_description (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIRST]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST]);
}
