/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-format.h"
#include "ovi-histogram-view.h"

/* Draws one or more histograms from the core: regular bins on a value axis
 * (linear or symlog, as the histogram was computed), and five bins of their
 * own for -Inf, -max, +max, +Inf and NaN so abnormal values never hide in a
 * regular bin.  Several series are drawn overlaid (translucent) or stacked
 * (one band each). */

#define MARGIN_LEFT 56.0
#define MARGIN_RIGHT 8.0
#define MARGIN_TOP 8.0
#define MARGIN_BOTTOM 34.0
#define BAND_TITLE 16.0
#define SLOT_WIDTH 26.0
#define SLOT_GAP 12.0

typedef enum
{
  SLOT_NEG_INF,
  SLOT_NEG_SAT,
  SLOT_POS_SAT,
  SLOT_POS_INF,
  SLOT_NAN,
  N_SLOTS
} Slot;

typedef struct
{
  char *label;
  const OviHistogram *histogram;
  gpointer owner; /* what keeps the histogram alive */
  GDestroyNotify owner_free;
} Series;

typedef struct
{
  double plot_top;
  double plot_bottom;
  double band_height;
  double reg_x0;
  double reg_x1;
  double slot_x[N_SLOTS];
  double t_min;
  double t_max;
  gboolean symlog;
} Layout;

struct _OviHistogramView
{
  GtkWidget parent_instance;
  GPtrArray *series;
  gboolean log_counts;
  gboolean stacked;
};

enum
{
  PROP_0,
  PROP_LOG_COUNTS,
  PROP_STACKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviHistogramView, ovi_histogram_view, GTK_TYPE_WIDGET)

static const GdkRGBA series_colors[] = {
  { 0.208, 0.518, 0.894, 1.0 }, /* blue */
  { 0.149, 0.635, 0.412, 1.0 }, /* green */
  { 0.753, 0.380, 0.796, 1.0 }, /* purple */
  { 0.596, 0.416, 0.267, 1.0 }, /* brown */
  { 0.384, 0.627, 0.918, 1.0 }, /* light blue */
  { 0.180, 0.761, 0.494, 1.0 }, /* light green */
};
static const GdkRGBA slot_colors[N_SLOTS] = {
  { 0.878, 0.106, 0.141, 1.0 }, /* -Inf: red */
  { 1.000, 0.471, 0.000, 1.0 }, /* -max: orange */
  { 1.000, 0.471, 0.000, 1.0 }, /* +max: orange */
  { 0.878, 0.106, 0.141, 1.0 }, /* +Inf: red */
  { 0.569, 0.255, 0.675, 1.0 }, /* NaN: purple */
};

static const char *
slot_label (Slot slot)
{
  switch (slot)
    {
    case SLOT_NEG_INF:
      return "−Inf";
    case SLOT_NEG_SAT:
      return "−max";
    case SLOT_POS_SAT:
      return "+max";
    case SLOT_POS_INF:
      return "+Inf";
    case SLOT_NAN:
      return "NaN";
    default:
      g_assert_not_reached ();
    }
}

static const char *
slot_description (Slot slot)
{
  switch (slot)
    {
    case SLOT_NEG_INF:
      return _ ("Negative infinity");
    case SLOT_NEG_SAT:
      return _ ("Saturated at the lowest finite value");
    case SLOT_POS_SAT:
      return _ ("Saturated at the largest finite value");
    case SLOT_POS_INF:
      return _ ("Positive infinity");
    case SLOT_NAN:
      return _ ("Not a number");
    default:
      g_assert_not_reached ();
    }
}

static guint64
slot_count (const OviHistogram *h, Slot slot)
{
  switch (slot)
    {
    case SLOT_NEG_INF:
      return h->neg_inf;
    case SLOT_NEG_SAT:
      return h->neg_saturated;
    case SLOT_POS_SAT:
      return h->pos_saturated;
    case SLOT_POS_INF:
      return h->pos_inf;
    case SLOT_NAN:
      return h->nan;
    default:
      g_assert_not_reached ();
    }
}

static void
series_free (gpointer data)
{
  Series *series = data;

  g_free (series->label);
  if (series->owner_free != NULL)
    series->owner_free (series->owner);
  g_free (series);
}

static double
transform (const Layout *layout, double value)
{
  if (!layout->symlog)
    return value;
  return copysign (log10 (1.0 + fabs (value)), value);
}

static double
value_to_x (const Layout *layout, double value)
{
  double t = transform (layout, value);

  return layout->reg_x0 +
         (t - layout->t_min) / (layout->t_max - layout->t_min) * (layout->reg_x1 - layout->reg_x0);
}

static void
compute_layout (OviHistogramView *self, Layout *layout)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double x0 = MARGIN_LEFT;
  double x1 = MAX (width - MARGIN_RIGHT, x0 + 5 * SLOT_WIDTH + 2 * SLOT_GAP + 10);
  double lo = INFINITY, hi = -INFINITY;
  guint n = MAX (self->series->len, 1);

  layout->plot_top = MARGIN_TOP;
  layout->plot_bottom = MAX (height - MARGIN_BOTTOM, MARGIN_TOP + 20);
  layout->band_height = (layout->plot_bottom - layout->plot_top) / (self->stacked ? n : 1);
  layout->slot_x[SLOT_NEG_INF] = x0;
  layout->slot_x[SLOT_NEG_SAT] = x0 + SLOT_WIDTH + 2;
  layout->reg_x0 = x0 + 2 * SLOT_WIDTH + 2 + SLOT_GAP;
  layout->slot_x[SLOT_NAN] = x1 - SLOT_WIDTH;
  layout->slot_x[SLOT_POS_INF] = x1 - 2 * SLOT_WIDTH - 2;
  layout->slot_x[SLOT_POS_SAT] = x1 - 3 * SLOT_WIDTH - 4;
  layout->reg_x1 = layout->slot_x[SLOT_POS_SAT] - SLOT_GAP;
  layout->symlog = FALSE;

  for (guint i = 0; i < self->series->len; i++)
    {
      const OviHistogram *h = ((Series *) g_ptr_array_index (self->series, i))->histogram;

      if (h->scale == OVI_HISTOGRAM_SYMLOG)
        layout->symlog = TRUE;
      if (h->n_bins == 0 || !isfinite (h->edges[0]) || !isfinite (h->edges[h->n_bins]))
        continue;
      lo = MIN (lo, h->edges[0]);
      hi = MAX (hi, h->edges[h->n_bins]);
    }
  if (!isfinite (lo) || !isfinite (hi))
    lo = 0, hi = 1;
  layout->t_min = transform (layout, lo);
  layout->t_max = transform (layout, hi);
  if (!(layout->t_max > layout->t_min))
    {
      layout->t_min -= 0.5;
      layout->t_max += 0.5;
    }
}

static guint64
series_max_count (const OviHistogram *h)
{
  guint64 max = 0;

  for (guint i = 0; i < h->n_bins; i++)
    max = MAX (max, h->counts[i]);
  for (Slot s = 0; s < N_SLOTS; s++)
    max = MAX (max, slot_count (h, s));
  return max;
}

/* Whether no series holds a single value (empty tensors): then there is no
 * range to draw an axis over, and none is made up. */
static gboolean
all_empty (OviHistogramView *self)
{
  for (guint i = 0; i < self->series->len; i++)
    if (series_max_count (((Series *) g_ptr_array_index (self->series, i))->histogram) > 0)
      return FALSE;
  return TRUE;
}

static double
count_fraction (OviHistogramView *self, guint64 count, guint64 max)
{
  if (count == 0 || max == 0)
    return 0;
  if (self->log_counts)
    return log1p ((double) count) / log1p ((double) max);
  return (double) count / (double) max;
}

static void
get_foreground (GtkWidget *widget, GdkRGBA *rgba)
{
#if GTK_CHECK_VERSION(4, 10, 0)
  gtk_widget_get_color (widget, rgba);
#else
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), rgba);
#endif
}

static void
draw_text (GtkWidget *widget,
           cairo_t *cr,
           const char *text,
           double x,
           double y,
           double align) /* 0 left, 0.5 centre, 1 right */
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attrs = pango_attr_list_new ();
  int w, h;

  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - align * w, y);
  pango_cairo_show_layout (cr, layout);
}

static char *
format_count (guint64 count)
{
  if (count >= 1000000)
    return g_strdup_printf ("%.3gM", count / 1e6);
  if (count >= 10000)
    return g_strdup_printf ("%.3gk", count / 1e3);
  return ovi_format_count (count);
}

static void
draw_band (OviHistogramView *self,
           cairo_t *cr,
           const Layout *layout,
           double top,
           double bottom,
           guint first,
           guint last,
           const GdkRGBA *fg)
{
  guint n_drawn = last - first;
  guint64 max = 0;
  double height = bottom - top;
  g_autofree char *max_text = NULL;

  for (guint i = first; i < last; i++)
    max = MAX (max, series_max_count (((Series *) g_ptr_array_index (self->series, i))->histogram));

  /* Axis and count scale. */
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.3);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, MARGIN_LEFT - 4, bottom + 0.5);
  cairo_line_to (cr, layout->slot_x[SLOT_NAN] + SLOT_WIDTH, bottom + 0.5);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  max_text = format_count (max);
  draw_text (GTK_WIDGET (self), cr, max_text, MARGIN_LEFT - 6, top, 1.0);
  draw_text (GTK_WIDGET (self), cr, self->log_counts ? _ ("log") : "0", MARGIN_LEFT - 6,
             bottom - 14, 1.0);

  for (guint i = first; i < last; i++)
    {
      Series *series = g_ptr_array_index (self->series, i);
      const OviHistogram *h = series->histogram;
      const GdkRGBA *color = &series_colors[i % G_N_ELEMENTS (series_colors)];
      double alpha = n_drawn > 1 ? 0.55 : 0.9;
      double sub = SLOT_WIDTH / n_drawn;

      cairo_set_source_rgba (cr, color->red, color->green, color->blue, alpha);
      for (guint b = 0; b < h->n_bins; b++)
        {
          double x0 = value_to_x (layout, h->edges[b]);
          double x1 = value_to_x (layout, h->edges[b + 1]);
          double f = count_fraction (self, h->counts[b], max);

          if (f <= 0)
            continue;
          cairo_rectangle (cr, x0, bottom - f * height, MAX (x1 - x0 - 1, 1), f * height);
        }
      cairo_fill (cr);

      for (Slot s = 0; s < N_SLOTS; s++)
        {
          const GdkRGBA *c = n_drawn > 1 ? color : &slot_colors[s];
          double f = count_fraction (self, slot_count (h, s), max);
          double x = layout->slot_x[s] + (i - first) * sub;

          if (f <= 0)
            continue;
          cairo_set_source_rgba (cr, c->red, c->green, c->blue, 0.9);
          cairo_rectangle (cr, x, bottom - MAX (f * height, 2), MAX (sub - 1, 1),
                           MAX (f * height, 2));
          cairo_fill (cr);
        }
    }

  /* Slot frames, so an empty special bin is visibly empty rather than absent. */
  for (Slot s = 0; s < N_SLOTS; s++)
    {
      const GdkRGBA *c = &slot_colors[s];

      cairo_set_source_rgba (cr, c->red, c->green, c->blue, 0.5);
      cairo_rectangle (cr, layout->slot_x[s] + 0.5, top + 0.5, SLOT_WIDTH - 1, height - 1);
      cairo_stroke (cr);
    }
}

static void
ovi_axis_label_free (OviAxisLabel *label)
{
  g_free (label->text);
  g_free (label);
}

/* Adds @text at (@x, @y), aligned as draw_text() draws it, unless it would
 * overlap a label already in @labels: at narrow widths the value axis'
 * ends, its zero and its title skip rather than overprint each other. */
static void
add_axis_label (GtkWidget *widget,
                GPtrArray *labels,
                const char *text,
                double x,
                double y,
                double align,
                int slot)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attrs = pango_attr_list_new ();
  OviAxisLabel *label;
  graphene_rect_t rect;
  int w, h;

  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_get_pixel_size (layout, &w, &h);
  graphene_rect_init (&rect, x - align * w, y, w, h);
  for (guint i = 0; i < labels->len; i++)
    {
      OviAxisLabel *other = g_ptr_array_index (labels, i);
      /* Touching edges are fine; a 2 px gap keeps words apart. */
      graphene_rect_t grown;

      graphene_rect_inset_r (&other->rect, -1, 0, &grown);
      if (graphene_rect_intersection (&grown, &rect, NULL))
        return;
    }
  label = g_new0 (OviAxisLabel, 1);
  label->text = g_strdup (text);
  label->rect = rect;
  label->slot = slot;
  g_ptr_array_add (labels, label);
}

/* The labels under the plot, where draw() puts them: the special bins'
 * first (they are always there), then the value axis' low and high ends,
 * its zero and its title, each skipped when it would collide. */
static GPtrArray *
axis_labels (OviHistogramView *self, const Layout *layout)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GPtrArray *labels = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_axis_label_free);
  double lo =
      layout->symlog ? copysign (pow (10, fabs (layout->t_min)) - 1, layout->t_min) : layout->t_min;
  double hi =
      layout->symlog ? copysign (pow (10, fabs (layout->t_max)) - 1, layout->t_max) : layout->t_max;
  g_autofree char *lo_text = g_strdup_printf ("%.4g", lo);
  g_autofree char *hi_text = g_strdup_printf ("%.4g", hi);
  double y = layout->plot_bottom + 2;

  for (Slot s = 0; s < N_SLOTS; s++)
    add_axis_label (widget, labels, slot_label (s), layout->slot_x[s] + SLOT_WIDTH / 2,
                    y + (s % 2) * 14, 0.5, s);
  add_axis_label (widget, labels, lo_text, layout->reg_x0, y, 0, -1);
  add_axis_label (widget, labels, hi_text, layout->reg_x1, y, 1, -1);
  if (lo < 0 && hi > 0)
    add_axis_label (widget, labels, "0", value_to_x (layout, 0), y, 0.5, -1);
  add_axis_label (widget, labels, layout->symlog ? _ ("value (symlog)") : _ ("value"),
                  (layout->reg_x0 + layout->reg_x1) / 2, y + 14, 0.5, -1);
  return labels;
}

static void
draw (OviHistogramView *self, cairo_t *cr, double width, double height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GdkRGBA fg;
  Layout layout;

  get_foreground (widget, &fg);
  compute_layout (self, &layout);

  if (self->series->len == 0)
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      draw_text (widget, cr, _ ("No histogram"), width / 2, height / 2 - 8, 0.5);
      return;
    }
  if (all_empty (self))
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      draw_text (widget, cr, _ ("No values: the tensor is empty"), width / 2, height / 2 - 8, 0.5);
      return;
    }

  if (self->stacked)
    {
      for (guint i = 0; i < self->series->len; i++)
        {
          Series *series = g_ptr_array_index (self->series, i);
          const GdkRGBA *color = &series_colors[i % G_N_ELEMENTS (series_colors)];
          double top = layout.plot_top + i * layout.band_height;
          double bottom = top + layout.band_height - 4;

          draw_band (self, cr, &layout, top + BAND_TITLE, bottom, i, i + 1, &fg);
          cairo_set_source_rgba (cr, color->red, color->green, color->blue, 1);
          draw_text (widget, cr, series->label, layout.reg_x0, top, 0);
        }
    }
  else
    {
      double top = layout.plot_top + (self->series->len > 1 ? BAND_TITLE : 0);
      double x = layout.reg_x0;

      draw_band (self, cr, &layout, top, layout.plot_bottom, 0, self->series->len, &fg);
      if (self->series->len > 1)
        for (guint i = 0; i < self->series->len; i++)
          {
            Series *series = g_ptr_array_index (self->series, i);
            const GdkRGBA *color = &series_colors[i % G_N_ELEMENTS (series_colors)];

            cairo_set_source_rgba (cr, color->red, color->green, color->blue, 1);
            draw_text (widget, cr, series->label, x, layout.plot_top, 0);
            x += 12 + 7 * strlen (series->label);
          }
    }

  /* The value axis and the special bins, as axis_labels() placed them. */
  {
    g_autoptr (GPtrArray) labels = axis_labels (self, &layout);

    for (guint i = 0; i < labels->len; i++)
      {
        OviAxisLabel *label = g_ptr_array_index (labels, i);

        if (label->slot >= 0)
          {
            const GdkRGBA *c = &slot_colors[label->slot];

            cairo_set_source_rgba (cr, c->red, c->green, c->blue, 1);
          }
        else
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
        draw_text (widget, cr, label->text, label->rect.origin.x, label->rect.origin.y, 0);
      }
  }
}

static void
ovi_histogram_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw (OVI_HISTOGRAM_VIEW (widget), cr, width, height);
  cairo_destroy (cr);
}

/* The tooltip text for a point: the bin under it, in every series drawn there. */
char *
ovi_histogram_view_dup_text_at (OviHistogramView *self, double x, double y)
{
  g_autoptr (GString) text = g_string_new (NULL);
  Layout layout;
  guint first = 0, last;
  int slot = -1;

  g_return_val_if_fail (OVI_IS_HISTOGRAM_VIEW (self), NULL);

  if (self->series->len == 0 || all_empty (self))
    return NULL;

  compute_layout (self, &layout);
  last = self->series->len;
  if (self->stacked)
    {
      int band = (int) ((y - layout.plot_top) / layout.band_height);

      if (band < 0 || band >= (int) self->series->len)
        return NULL;
      first = band;
      last = band + 1;
    }

  for (Slot s = 0; s < N_SLOTS; s++)
    if (x >= layout.slot_x[s] && x < layout.slot_x[s] + SLOT_WIDTH)
      slot = s;
  if (slot < 0 && (x < layout.reg_x0 || x > layout.reg_x1))
    return NULL;

  for (guint i = first; i < last; i++)
    {
      Series *series = g_ptr_array_index (self->series, i);
      const OviHistogram *h = series->histogram;

      if (text->len > 0)
        g_string_append_c (text, '\n');
      if (self->series->len > 1)
        g_string_append_printf (text, "%s: ", series->label);

      if (slot >= 0)
        {
          guint64 n = slot_count (h, slot);

          if ((slot == SLOT_NEG_SAT || slot == SLOT_POS_SAT) && h->saturation_value > 0)
            g_string_append_printf (text,
                                    g_dngettext (GETTEXT_PACKAGE, "%s (%s%.6g): %llu value",
                                                 "%s (%s%.6g): %llu values", n),
                                    slot_description (slot), slot == SLOT_NEG_SAT ? "−" : "",
                                    h->saturation_value, (unsigned long long) n);
          else
            g_string_append_printf (
                text, g_dngettext (GETTEXT_PACKAGE, "%s: %llu value", "%s: %llu values", n),
                slot_description (slot), (unsigned long long) n);
          continue;
        }

      for (guint b = 0; b < h->n_bins; b++)
        {
          double x0 = value_to_x (&layout, h->edges[b]);
          double x1 = value_to_x (&layout, h->edges[b + 1]);

          if (x >= x0 && (x < x1 || (b + 1 == h->n_bins && x <= x1)))
            {
              g_string_append_printf (
                  text,
                  g_dngettext (GETTEXT_PACKAGE, "Bin %u: [%.6g, %.6g%c, %llu value",
                               "Bin %u: [%.6g, %.6g%c, %llu values", h->counts[b]),
                  b + 1, h->edges[b], h->edges[b + 1], b + 1 == h->n_bins ? ']' : ')',
                  (unsigned long long) h->counts[b]);
              break;
            }
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
query_tooltip (
    GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer user_data)
{
  g_autofree char *text = ovi_histogram_view_dup_text_at (OVI_HISTOGRAM_VIEW (widget), x, y);

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ovi_histogram_view_measure (GtkWidget *widget,
                            GtkOrientation orientation,
                            int for_size,
                            int *minimum,
                            int *natural,
                            int *minimum_baseline,
                            int *natural_baseline)
{
  OviHistogramView *self = OVI_HISTOGRAM_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 600;
    }
  else
    {
      guint bands = self->stacked ? MAX (self->series->len, 1) : 1;

      *minimum = 120 + (bands - 1) * 70;
      *natural = 220 + (bands - 1) * 110;
    }
}

static void
ovi_histogram_view_finalize (GObject *object)
{
  OviHistogramView *self = OVI_HISTOGRAM_VIEW (object);

  g_clear_pointer (&self->series, g_ptr_array_unref);
  G_OBJECT_CLASS (ovi_histogram_view_parent_class)->finalize (object);
}

static void
ovi_histogram_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviHistogramView *self = OVI_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOG_COUNTS:
      g_value_set_boolean (value, self->log_counts);
      break;
    case PROP_STACKED:
      g_value_set_boolean (value, self->stacked);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_histogram_view_set_property (GObject *object,
                                 guint prop_id,
                                 const GValue *value,
                                 GParamSpec *pspec)
{
  OviHistogramView *self = OVI_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOG_COUNTS:
      ovi_histogram_view_set_log_counts (self, g_value_get_boolean (value));
      break;
    case PROP_STACKED:
      ovi_histogram_view_set_stacked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_histogram_view_class_init (OviHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ovi_histogram_view_finalize;
  object_class->get_property = ovi_histogram_view_get_property;
  object_class->set_property = ovi_histogram_view_set_property;
  widget_class->snapshot = ovi_histogram_view_snapshot;
  widget_class->measure = ovi_histogram_view_measure;

  properties[PROP_LOG_COUNTS] =
      g_param_spec_boolean ("log-counts", NULL, NULL, FALSE,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STACKED] =
      g_param_spec_boolean ("stacked", NULL, NULL, FALSE,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "histogram");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ovi_histogram_view_init (OviHistogramView *self)
{
  self->series = g_ptr_array_new_with_free_func (series_free);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip), NULL);
}

GtkWidget *
ovi_histogram_view_new (void)
{
  return g_object_new (OVI_TYPE_HISTOGRAM_VIEW, NULL);
}

void
ovi_histogram_view_clear (OviHistogramView *self)
{
  g_return_if_fail (OVI_IS_HISTOGRAM_VIEW (self));

  g_ptr_array_set_size (self->series, 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Takes ownership of @histogram. */
void
ovi_histogram_view_add_series (OviHistogramView *self, const char *label, OviHistogram *histogram)
{
  ovi_histogram_view_add_series_full (self, label, histogram, histogram,
                                      (GDestroyNotify) ovi_histogram_free);
}

/**
 * ovi_histogram_view_add_series_full:
 * @owner: what keeps @histogram alive (an #OviTensorResult...), released
 *   with @owner_free when the series goes
 */
void
ovi_histogram_view_add_series_full (OviHistogramView *self,
                                    const char *label,
                                    const OviHistogram *histogram,
                                    gpointer owner,
                                    GDestroyNotify owner_free)
{
  Series *series;

  g_return_if_fail (OVI_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (histogram != NULL);

  series = g_new0 (Series, 1);
  series->label = g_strdup (label ? label : "");
  series->histogram = histogram;
  series->owner = owner;
  series->owner_free = owner_free;
  g_ptr_array_add (self->series, series);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
ovi_histogram_view_get_n_series (OviHistogramView *self)
{
  g_return_val_if_fail (OVI_IS_HISTOGRAM_VIEW (self), 0);
  return self->series->len;
}

gboolean
ovi_histogram_view_get_log_counts (OviHistogramView *self)
{
  g_return_val_if_fail (OVI_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->log_counts;
}

void
ovi_histogram_view_set_log_counts (OviHistogramView *self, gboolean log_counts)
{
  g_return_if_fail (OVI_IS_HISTOGRAM_VIEW (self));

  log_counts = !!log_counts;
  if (self->log_counts == log_counts)
    return;
  self->log_counts = log_counts;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_COUNTS]);
}

gboolean
ovi_histogram_view_get_stacked (OviHistogramView *self)
{
  g_return_val_if_fail (OVI_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->stacked;
}

void
ovi_histogram_view_set_stacked (OviHistogramView *self, gboolean stacked)
{
  g_return_if_fail (OVI_IS_HISTOGRAM_VIEW (self));

  stacked = !!stacked;
  if (self->stacked == stacked)
    return;
  self->stacked = stacked;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STACKED]);
}

/**
 * ovi_histogram_view_get_axis_labels:
 *
 * The labels drawn under the plot at the widget's current size, computed by
 * the code that draws them: what a test checks for overlaps.
 *
 * Returns: (transfer full) (element-type OviAxisLabel): the labels, or an
 *   empty array when there is no axis (no series, or only empty ones)
 */
GPtrArray *
ovi_histogram_view_get_axis_labels (OviHistogramView *self)
{
  Layout layout;

  g_return_val_if_fail (OVI_IS_HISTOGRAM_VIEW (self), NULL);
  if (self->series->len == 0 || all_empty (self))
    return g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_axis_label_free);
  compute_layout (self, &layout);
  return axis_labels (self, &layout);
}
