/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-format.h"
#include "ovi-histogram-view.h"

/* Draws one or more histograms from the core: regular bins on a value axis
 * (linear or symlog, as the histogram was computed), and bins of their own
 * for -Inf, +Inf and NaN, plus -max and +max for a type that saturates
 * (not for differences, which are computed in double), so abnormal values
 * never hide in a regular bin.  Every special bin carries its count: an
 * empty one is a baseline mark and "0", one that holds values a bar on the
 * same count axis as the rest, at least MIN_BAR px high.  Several series
 * are overlaid, the first filled and the others outlined so each stays
 * readable where they overlap, with a legend; or stacked, one band each.
 * Bars are color nodes, so a test reads the drawn geometry from the
 * widget's render nodes. */

#define MARGIN_LEFT 56.0
#define MARGIN_RIGHT 8.0
#define MARGIN_TOP 8.0
#define MARGIN_BOTTOM 34.0
#define BAND_TITLE 16.0
#define SLOT_WIDTH 26.0
#define SLOT_GAP 12.0
#define MIN_BAR 4.0       /* a special bin that holds a value */
#define BASELINE_MARK 2.0 /* an empty one */
#define COUNT_LINE 14.0   /* a special bin's count, above its mark */

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
  gboolean saturation; /* -max and +max are shown */
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

static gboolean
slot_shown (const Layout *layout, Slot slot)
{
  return layout->saturation || (slot != SLOT_NEG_SAT && slot != SLOT_POS_SAT);
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
  double x = MARGIN_LEFT;
  double x1 = MAX (width - MARGIN_RIGHT, x + 5 * SLOT_WIDTH + 2 * SLOT_GAP + 10);
  double lo = INFINITY, hi = -INFINITY;
  guint n = MAX (self->series->len, 1);

  layout->plot_top = MARGIN_TOP;
  layout->plot_bottom = MAX (height - MARGIN_BOTTOM, MARGIN_TOP + 20);
  layout->band_height = (layout->plot_bottom - layout->plot_top) / (self->stacked ? n : 1);
  layout->symlog = FALSE;
  layout->saturation = FALSE;
  for (guint i = 0; i < self->series->len; i++)
    if (((Series *) g_ptr_array_index (self->series, i))->histogram->saturation_value > 0)
      layout->saturation = TRUE;
  for (Slot s = SLOT_NEG_INF; s <= SLOT_NEG_SAT; s++)
    if (slot_shown (layout, s))
      {
        layout->slot_x[s] = x;
        x += SLOT_WIDTH + 2;
      }
  layout->reg_x0 = x - 2 + SLOT_GAP;
  x = x1;
  for (Slot s = SLOT_NAN; s >= SLOT_POS_SAT; s--)
    if (slot_shown (layout, s))
      {
        x -= SLOT_WIDTH;
        layout->slot_x[s] = x;
        x -= 2;
      }
  layout->reg_x1 = x + 2 - SLOT_GAP;

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

/* One band of the plot: the series first..last-1 drawn over top..bottom
 * (all of them overlaid, or one each when stacked). */
typedef struct
{
  double top;
  double bottom;
  guint first;
  guint last;
} Band;

static guint
compute_bands (OviHistogramView *self, const Layout *layout, Band *bands)
{
  guint n = self->series->len;

  if (!self->stacked)
    {
      bands[0] = (Band){ layout->plot_top + (n > 1 ? BAND_TITLE : 0), layout->plot_bottom, 0, n };
      return 1;
    }
  for (guint i = 0; i < n; i++)
    {
      double top = layout->plot_top + i * layout->band_height;

      bands[i] = (Band){ top + BAND_TITLE, top + layout->band_height - 4, i, i + 1 };
    }
  return n;
}

static guint64
band_max_count (OviHistogramView *self, const Band *band)
{
  guint64 max = 0;

  for (guint i = band->first; i < band->last; i++)
    max = MAX (max, series_max_count (((Series *) g_ptr_array_index (self->series, i))->histogram));
  return max;
}

/* What is drawn in a special bin for one series: a bar on the band's
 * count axis, at least MIN_BAR px high when it holds a value, else a
 * baseline mark.  Series share the bin side by side. */
typedef struct
{
  graphene_rect_t rect;
  Slot slot;
  guint series;
  guint64 count;
} Mark;

static GArray *
slot_marks (OviHistogramView *self, const Layout *layout, const Band *band)
{
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  guint64 max = band_max_count (self, band);
  double sub = SLOT_WIDTH / (band->last - band->first);
  double height = band->bottom - band->top;

  for (guint i = band->first; i < band->last; i++)
    for (Slot s = 0; s < N_SLOTS; s++)
      {
        const OviHistogram *h = ((Series *) g_ptr_array_index (self->series, i))->histogram;
        Mark mark = { .slot = s, .series = i, .count = slot_count (h, s) };
        double bar = mark.count > 0 ? MAX (count_fraction (self, mark.count, max) * height, MIN_BAR)
                                    : BASELINE_MARK;

        if (!slot_shown (layout, s))
          continue;
        graphene_rect_init (&mark.rect, layout->slot_x[s] + (i - band->first) * sub,
                            band->bottom - bar, MAX (sub - 1, 1), bar);
        g_array_append_val (marks, mark);
      }
  return marks;
}

static const GdkRGBA *
mark_color (const Band *band, const Mark *mark)
{
  if (band->last - band->first > 1)
    return &series_colors[mark->series % G_N_ELEMENTS (series_colors)];
  return &slot_colors[mark->slot];
}

/* The filled shapes of a band, as color nodes: the regular bins of its
 * first series and every special bin's mark. */
static void
snapshot_band (OviHistogramView *self,
               GtkSnapshot *snapshot,
               const Layout *layout,
               const Band *band)
{
  const OviHistogram *h = ((Series *) g_ptr_array_index (self->series, band->first))->histogram;
  const GdkRGBA *color = &series_colors[band->first % G_N_ELEMENTS (series_colors)];
  GdkRGBA fill = *color;
  guint64 max = band_max_count (self, band);
  double height = band->bottom - band->top;
  g_autoptr (GArray) marks = slot_marks (self, layout, band);

  fill.alpha = band->last - band->first > 1 ? 0.45 : 0.8;
  for (guint b = 0; b < h->n_bins; b++)
    {
      double x0 = value_to_x (layout, h->edges[b]);
      double x1 = value_to_x (layout, h->edges[b + 1]);
      double f = count_fraction (self, h->counts[b], max);

      if (f > 0)
        gtk_snapshot_append_color (
            snapshot, &fill,
            &GRAPHENE_RECT_INIT (x0, band->bottom - f * height, MAX (x1 - x0 - 1, 1), f * height));
    }
  for (guint m = 0; m < marks->len; m++)
    {
      const Mark *mark = &g_array_index (marks, Mark, m);
      GdkRGBA c = *mark_color (band, mark);

      c.alpha = mark->count > 0 ? 0.9 : 0.5;
      gtk_snapshot_append_color (snapshot, &c, &mark->rect);
    }
}

/* The other series of an overlaid band, outlined over the first one's
 * fill so both stay readable where they overlap. */
static void
draw_outlines (OviHistogramView *self, cairo_t *cr, const Layout *layout, const Band *band)
{
  guint64 max = band_max_count (self, band);
  double height = band->bottom - band->top;

  cairo_set_line_width (cr, 2);
  for (guint i = band->first + 1; i < band->last; i++)
    {
      const OviHistogram *h = ((Series *) g_ptr_array_index (self->series, i))->histogram;
      const GdkRGBA *color = &series_colors[i % G_N_ELEMENTS (series_colors)];

      if (h->n_bins == 0)
        continue;
      cairo_set_source_rgba (cr, color->red, color->green, color->blue, 1);
      cairo_move_to (cr, value_to_x (layout, h->edges[0]), band->bottom);
      for (guint b = 0; b < h->n_bins; b++)
        {
          double y = band->bottom - count_fraction (self, h->counts[b], max) * height;

          cairo_line_to (cr, value_to_x (layout, h->edges[b]), y);
          cairo_line_to (cr, value_to_x (layout, h->edges[b + 1]), y);
        }
      cairo_line_to (cr, value_to_x (layout, h->edges[h->n_bins]), band->bottom);
      cairo_stroke (cr);
    }
}

static void
draw_axis (
    OviHistogramView *self, cairo_t *cr, const Layout *layout, const Band *band, const GdkRGBA *fg)
{
  g_autofree char *max_text = format_count (band_max_count (self, band));

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.3);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, MARGIN_LEFT - 4, band->bottom + 0.5);
  cairo_line_to (cr, layout->slot_x[SLOT_NAN] + SLOT_WIDTH, band->bottom + 0.5);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  draw_text (GTK_WIDGET (self), cr, max_text, MARGIN_LEFT - 6, band->top, 1.0);
  draw_text (GTK_WIDGET (self), cr, self->log_counts ? _ ("log") : "0", MARGIN_LEFT - 6,
             band->bottom - 14, 1.0);
}

/* A swatch per series, drawn as its bins are (filled, else outlined),
 * then its name. */
static void
draw_legend (OviHistogramView *self, cairo_t *cr, const Layout *layout)
{
  double x = layout->reg_x0;

  for (guint i = 0; i < self->series->len; i++)
    {
      Series *series = g_ptr_array_index (self->series, i);
      const GdkRGBA *color = &series_colors[i % G_N_ELEMENTS (series_colors)];
      g_autoptr (PangoLayout) text =
          gtk_widget_create_pango_layout (GTK_WIDGET (self), series->label);
      int w, h;

      cairo_set_source_rgba (cr, color->red, color->green, color->blue, i == 0 ? 0.45 : 1);
      if (i == 0)
        {
          cairo_rectangle (cr, x, layout->plot_top + 3, 10, 10);
          cairo_fill (cr);
        }
      else
        {
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, x + 1, layout->plot_top + 4, 8, 8);
          cairo_stroke (cr);
        }
      cairo_set_source_rgba (cr, color->red, color->green, color->blue, 1);
      draw_text (GTK_WIDGET (self), cr, series->label, x + 14, layout->plot_top, 0);
      pango_layout_get_pixel_size (text, &w, &h);
      x += 14 + w + 16;
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
                int slot,
                gboolean is_count)
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
  label->is_count = is_count;
  g_ptr_array_add (labels, label);
}

/* The labels the plot draws, where draw() puts them: the special bins'
 * names under the axis first (they are always there), then the value
 * axis' low and high ends, its zero and its title, each skipped when it
 * would collide, then each special bin's count above its mark. */
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
  g_autofree Band *bands = g_new (Band, MAX (self->series->len, 1));
  guint n_bands = compute_bands (self, layout, bands);
  guint shown = 0;

  for (Slot s = 0; s < N_SLOTS; s++)
    if (slot_shown (layout, s))
      add_axis_label (widget, labels, slot_label (s), layout->slot_x[s] + SLOT_WIDTH / 2,
                      y + (shown++ % 2) * 14, 0.5, s, FALSE);
  add_axis_label (widget, labels, lo_text, layout->reg_x0, y, 0, -1, FALSE);
  add_axis_label (widget, labels, hi_text, layout->reg_x1, y, 1, -1, FALSE);
  if (lo < 0 && hi > 0)
    add_axis_label (widget, labels, "0", value_to_x (layout, 0), y, 0.5, -1, FALSE);
  add_axis_label (widget, labels, layout->symlog ? _ ("value (symlog)") : _ ("value"),
                  (layout->reg_x0 + layout->reg_x1) / 2, y + 14, 0.5, -1, FALSE);

  for (guint b = 0; b < n_bands; b++)
    {
      g_autoptr (GArray) marks = slot_marks (self, layout, &bands[b]);

      for (guint m = 0; m < marks->len; m++)
        {
          const Mark *mark = &g_array_index (marks, Mark, m);
          g_autofree char *count = format_count (mark->count);

          add_axis_label (widget, labels, count, mark->rect.origin.x + mark->rect.size.width / 2,
                          MAX (mark->rect.origin.y - COUNT_LINE, bands[b].top), 0.5, mark->slot,
                          TRUE);
        }
    }
  return labels;
}

static void
snapshot_plot (OviHistogramView *self, GtkSnapshot *snapshot, double width, double height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr (GPtrArray) labels = NULL;
  g_autofree Band *bands = NULL;
  guint n_bands;
  GdkRGBA fg;
  Layout layout;
  cairo_t *cr;

  get_foreground (widget, &fg);
  compute_layout (self, &layout);

  if (self->series->len == 0 || all_empty (self))
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      draw_text (widget, cr,
                 self->series->len == 0 ? _ ("No histogram") : _ ("No values: the tensor is empty"),
                 width / 2, height / 2 - 8, 0.5);
      cairo_destroy (cr);
      return;
    }

  bands = g_new (Band, self->series->len);
  n_bands = compute_bands (self, &layout, bands);
  for (guint b = 0; b < n_bands; b++)
    snapshot_band (self, snapshot, &layout, &bands[b]);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  for (guint b = 0; b < n_bands; b++)
    {
      draw_outlines (self, cr, &layout, &bands[b]);
      draw_axis (self, cr, &layout, &bands[b], &fg);
      if (self->stacked)
        {
          Series *series = g_ptr_array_index (self->series, b);
          const GdkRGBA *color = &series_colors[b % G_N_ELEMENTS (series_colors)];

          cairo_set_source_rgba (cr, color->red, color->green, color->blue, 1);
          draw_text (widget, cr, series->label, layout.reg_x0, bands[b].top - BAND_TITLE, 0);
        }
    }
  if (!self->stacked && self->series->len > 1)
    draw_legend (self, cr, &layout);

  /* The value axis, the special bins and their counts, as axis_labels()
   * placed them. */
  labels = axis_labels (self, &layout);
  for (guint i = 0; i < labels->len; i++)
    {
      OviAxisLabel *label = g_ptr_array_index (labels, i);

      if (label->slot >= 0 && !label->is_count)
        {
          const GdkRGBA *c = &slot_colors[label->slot];

          cairo_set_source_rgba (cr, c->red, c->green, c->blue, 1);
        }
      else
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      draw_text (widget, cr, label->text, label->rect.origin.x, label->rect.origin.y, 0);
    }
  cairo_destroy (cr);
}

static void
ovi_histogram_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);

  if (width <= 0 || height <= 0)
    return;
  snapshot_plot (OVI_HISTOGRAM_VIEW (widget), snapshot, width, height);
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
    if (slot_shown (&layout, s) && x >= layout.slot_x[s] && x < layout.slot_x[s] + SLOT_WIDTH)
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
