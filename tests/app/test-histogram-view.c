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

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  g_test_add_func ("/app/histogram-view/empty-histogram", test_empty_histogram);
  g_test_add_func ("/app/histogram-view/axis-labels", test_histogram_axis_labels);
  return ovi_test_run ();
}
