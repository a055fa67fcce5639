/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-test-util.h"

/* The histogram view alone, in a window of its own: no made-up bin for an
 * empty tensor, axis labels that never overprint. */

/* A histogram of an empty tensor (as the Iterations page may get) has no
 * range: no bin is made up over ±0.5 for a tooltip to name, while one
 * value gives a bin again. */
static void
test_empty_histogram (void)
{
  g_autoptr (GBytes) none = g_bytes_new (NULL, 0);
  g_autoptr (GBytes) one = ovi_fixture_encode (OVI_DTYPE_FLOAT32, (double[]){ 3 }, 1);
  g_autoptr (OviAnalysis) empty = ovi_analysis_new_for_count (OVI_DTYPE_FLOAT32, none, 0, NULL);
  g_autoptr (OviAnalysis) single = ovi_analysis_new_for_count (OVI_DTYPE_FLOAT32, one, 1, NULL);
  OviHistogramView *view = OVI_HISTOGRAM_VIEW (ovi_histogram_view_new ());
  GtkWidget *window = gtk_window_new ();
  g_autofree char *empty_text = NULL;
  g_autofree char *single_text = NULL;
  int width, height;

  g_assert_nonnull (empty);
  g_assert_nonnull (single);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  ovi_histogram_view_add_series (view, NULL,
                                 ovi_analysis_histogram (empty, 16, OVI_HISTOGRAM_LINEAR, NULL));
  resize_to (window, 700, 300);
  width = gtk_widget_get_width (GTK_WIDGET (view));
  height = gtk_widget_get_height (GTK_WIDGET (view));
  /* Laid out: no text is there because there is no bin, not no widget. */
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  empty_text = ovi_histogram_view_dup_text_at (view, width / 2, height / 2);
  g_assert_null (empty_text);

  ovi_histogram_view_clear (view);
  ovi_histogram_view_add_series (view, NULL,
                                 ovi_analysis_histogram (single, 16, OVI_HISTOGRAM_LINEAR, NULL));
  ovi_test_wait_still ();
  single_text = ovi_histogram_view_dup_text_at (view, width / 2, height / 2);
  g_assert_nonnull (single_text);
  g_assert_nonnull (strstr (single_text, "Bin "));
  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
}

/* Histogram axis labels never overprint: at a narrow width the value
 * axis' ends ("-1.361e+04", "4.123e+04"), its zero and its title skip
 * rather than collide with each other or the special bins' labels. */
static void
test_histogram_axis_labels (void)
{
  const float values[] = { -13610.5f, -2.5f, 0.1f, 1.5f, 41234.7f, NAN, INFINITY };
  g_autoptr (GBytes) bytes = g_bytes_new (values, sizeof values);
  g_autoptr (OviAnalysis) analysis = ovi_analysis_new (OVI_DTYPE_FLOAT32, bytes, NULL);
  OviHistogram *histogram = ovi_analysis_histogram (analysis, 16, OVI_HISTOGRAM_LINEAR, NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = ovi_histogram_view_new ();
  const int widths[] = { 700, 260, 200 };

  g_assert_nonnull (histogram);
  ovi_histogram_view_add_series_full (OVI_HISTOGRAM_VIEW (view), "output 0", histogram, histogram,
                                      (GDestroyNotify) ovi_histogram_free);
  gtk_window_set_child (GTK_WINDOW (window), view);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr (GPtrArray) labels = NULL;
      gboolean has_low = FALSE;

      gtk_widget_set_size_request (view, widths[w], 160);
      resize_to (window, widths[w], 160);
      labels = ovi_histogram_view_get_axis_labels (OVI_HISTOGRAM_VIEW (view));
      g_assert_cmpuint (labels->len, >=, 5);
      for (guint i = 0; i < labels->len; i++)
        {
          OviAxisLabel *a = g_ptr_array_index (labels, i);

          g_test_message ("%d px: \"%s\" at %.0f..%.0f, %.0f", widths[w], a->text, a->rect.origin.x,
                          a->rect.origin.x + a->rect.size.width, a->rect.origin.y);
          has_low |= g_str_equal (a->text, "-1.361e+04");
          /* Inside the widget, not over another label. */
          g_assert_cmpfloat (a->rect.origin.x, >=, 0);
          g_assert_cmpfloat (a->rect.origin.x + a->rect.size.width, <=,
                             gtk_widget_get_width (view));
          for (guint j = i + 1; j < labels->len; j++)
            {
              OviAxisLabel *b = g_ptr_array_index (labels, j);

              if (graphene_rect_intersection (&a->rect, &b->rect, NULL))
                g_error ("at %d px \"%s\" overlaps \"%s\"", widths[w], a->text, b->text);
            }
        }
      /* The special bins are always named; the low end always shows. */
      g_assert_true (has_low);
      g_assert_cmpint (((OviAxisLabel *) g_ptr_array_index (labels, 0))->slot, ==, 0);
    }
  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
}

/* The color nodes the widget draws, in its own coordinates. */
static void
collect_rects (GskRenderNode *node, GskTransform *transform, GArray *rects)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        collect_rects (gsk_container_node_get_child (node, i), transform, rects);
      break;
    case GSK_TRANSFORM_NODE:
      {
        GskTransform *inner = gsk_transform_transform (gsk_transform_ref (transform),
                                                       gsk_transform_node_get_transform (node));

        collect_rects (gsk_transform_node_get_child (node), inner, rects);
        gsk_transform_unref (inner);
      }
      break;
    case GSK_CLIP_NODE:
      collect_rects (gsk_clip_node_get_child (node), transform, rects);
      break;
    case GSK_OPACITY_NODE:
      collect_rects (gsk_opacity_node_get_child (node), transform, rects);
      break;
    case GSK_DEBUG_NODE:
      collect_rects (gsk_debug_node_get_child (node), transform, rects);
      break;
    case GSK_COLOR_NODE:
      {
        graphene_rect_t bounds;

        gsk_render_node_get_bounds (node, &bounds);
        gsk_transform_transform_bounds (transform, &bounds, &bounds);
        g_array_append_val (rects, bounds);
      }
      break;
    default:
      break;
    }
}

static GArray *
drawn_rects (GtkWidget *widget)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget),
                          gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  if (node != NULL)
    collect_rects (node, NULL, rects);
  return rects;
}

/* The label of special bin @slot: its name under the axis, or its count. */
static OviAxisLabel *
slot_label (GPtrArray *labels, int slot, gboolean is_count)
{
  for (guint i = 0; i < labels->len; i++)
    {
      OviAxisLabel *label = g_ptr_array_index (labels, i);

      if (label->slot == slot && label->is_count == is_count)
        return label;
    }
  return NULL;
}

/* The tallest bar drawn in the column of special bin @slot (under its
 * name), or NULL when nothing is drawn there. */
static const graphene_rect_t *
slot_bar (GArray *rects, GPtrArray *labels, int slot)
{
  OviAxisLabel *name = slot_label (labels, slot, FALSE);
  double centre = name->rect.origin.x + name->rect.size.width / 2;
  const graphene_rect_t *tallest = NULL;

  for (guint i = 0; i < rects->len; i++)
    {
      const graphene_rect_t *r = &g_array_index (rects, graphene_rect_t, i);

      if (fabs (r->origin.x + r->size.width / 2 - centre) < 13 &&
          (tallest == NULL || r->size.height > tallest->size.height))
        tallest = r;
    }
  return tallest;
}

/* The float16 overflow as a user meets it: 500 ordinary values, 2 −Inf and
 * 1 +Inf. The two filled special bins are bars on the count axis, each
 * under its count; the three empty ones are a baseline mark under "0",
 * never a box as tall as the plot. */
static void
test_special_bins (void)
{
  double values[503];
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (OviAnalysis) analysis = NULL;
  OviHistogram *histogram;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = ovi_histogram_view_new ();
  g_autoptr (GArray) rects = NULL;
  g_autoptr (GPtrArray) labels = NULL;
  const char *names[] = { "−Inf", "−max", "+max", "+Inf", "NaN" };
  const char *counts[] = { "2", "0", "0", "1", "0" };
  double tallest = 0;

  for (guint i = 0; i < 500; i++)
    values[i] = (i % 50) / 10.0;
  values[500] = values[501] = -INFINITY;
  values[502] = INFINITY;
  bytes = ovi_fixture_encode (OVI_DTYPE_FLOAT16, values, G_N_ELEMENTS (values));
  analysis = ovi_analysis_new (OVI_DTYPE_FLOAT16, bytes, NULL);
  histogram = ovi_analysis_histogram (analysis, 10, OVI_HISTOGRAM_LINEAR, NULL);
  ovi_histogram_view_add_series (OVI_HISTOGRAM_VIEW (view), NULL, histogram);
  gtk_window_set_child (GTK_WINDOW (window), view);
  resize_to (window, 700, 260);
  ovi_test_wait_still ();

  rects = drawn_rects (view);
  labels = ovi_histogram_view_get_axis_labels (OVI_HISTOGRAM_VIEW (view));
  for (guint i = 0; i < rects->len; i++)
    tallest = MAX (tallest, g_array_index (rects, graphene_rect_t, i).size.height);
  g_assert_cmpfloat (tallest, >, 100);
  for (int s = 0; s < 5; s++)
    {
      OviAxisLabel *name = slot_label (labels, s, FALSE);
      OviAxisLabel *count = slot_label (labels, s, TRUE);
      const graphene_rect_t *bar;

      g_assert_nonnull (name);
      g_assert_cmpstr (name->text, ==, names[s]);
      g_assert_nonnull (count);
      g_assert_cmpstr (count->text, ==, counts[s]);
      bar = slot_bar (rects, labels, s);
      g_assert_nonnull (bar);
      g_test_message ("%s: bar %.0f px high at y %.0f, \"%s\" at y %.0f", names[s],
                      bar->size.height, bar->origin.y, count->text, count->rect.origin.y);
      if (g_str_equal (counts[s], "0"))
        g_assert_cmpfloat (bar->size.height, <=, 2); /* a baseline mark */
      else
        {
          /* Filled, visible, yet on the axis the 50-value bins are on. */
          g_assert_cmpfloat (bar->size.height, >=, 4);
          g_assert_cmpfloat (bar->size.height, <, tallest / 4);
        }
      /* The count stands just above its mark. */
      g_assert_cmpfloat (count->rect.origin.y + count->rect.size.height, <=, bar->origin.y + 1);
      g_assert_cmpfloat (count->rect.origin.y + count->rect.size.height, >=, bar->origin.y - 4);
    }
  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  ovi_test_wait_finalized (window, TRUE);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add_func ("/app/histogram-view/empty-histogram", test_empty_histogram);
  g_test_add_func ("/app/histogram-view/axis-labels", test_histogram_axis_labels);
  g_test_add_func ("/app/histogram-view/special-bins", test_special_bins);
  return ovi_test_run ();
}
