/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-format.h"
#include "ovi-tensor-view.h"
#include "ovi-tooltip.h"

/* One operator's tensors: pick one, see its properties, its statistics and
 * a histogram.  Statistics and histogram are computed in a worker thread. */

struct _OviTensorView
{
  GtkWidget parent_instance;

  GtkLabel *attrs_label;
  GtkSpinButton *bins_spin;
  GtkLabel *dfx_label;
  GtkGrid *info_grid;
  GtkLabel *first_label;
  GtkFlowBox *locate_box;
  GtkGrid *neighbour_grid;
  OviHistogramView *histogram;
  GtkCheckButton *log_check;
  GtkCheckButton *logical_check; /* a device layout: logical values, or stored ones */
  GtkLabel *message_label;
  GtkGrid *op_grid;
  GtkSpinner *spinner;
  GtkStack *stack;
  GtkCheckButton *symlog_check;
  GtkDropDown *tensor_dropdown;
  GtkLabel *title_label;

  OviDumpFile *file;
  OviAnalysis *located;    /* what the locator buttons point into */
  OviTensor *strip_tensor; /* the tensor whose values the strip shows */
  gint64 strip_index;      /* the element the strip is centred on */
  GListStore *tensors;
  GCancellable *cancellable;
  gboolean auto_pick; /* pick the first bad tensor once the summary is known */
  gboolean picking;   /* the view itself is changing the selected tensor */
};

G_DEFINE_FINAL_TYPE (OviTensorView, ovi_tensor_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_TENSOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
add_info (OviTensorView *self, int row, int column, const char *name, const char *value)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 0);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_add_css_class (value_label, "numeric");
  gtk_grid_attach (self->info_grid, name_label, column * 2, row, 1, 1);
  gtk_grid_attach (self->info_grid, value_label, column * 2 + 1, row, 1, 1);
}

/* Whether the view shows a device layout's stored values, padding
 * included, rather than its logical ones (the default). */
static gboolean
showing_stored (OviTensorView *self, OviTensor *tensor)
{
  return ovi_tensor_get_is_logical (tensor) && !gtk_check_button_get_active (self->logical_check);
}

/* The shape the view's positions are in: the logical one, or the stored
 * one when it shows the stored values. */
static const guint64 *
shown_shape (OviTensorView *self, OviTensor *tensor, guint *n_dims)
{
  if (showing_stored (self, tensor))
    return ovi_tensor_get_shape (tensor, n_dims);
  return ovi_tensor_get_logical_shape (tensor, n_dims);
}

static char *format_position_in (const guint64 *shape, guint n_dims, gint64 index);

static char *
format_count_with_first (OviTensorView *self, OviTensor *tensor, guint64 count, gint64 first)
{
  g_autofree char *position = NULL;

  /* A statistics-mode tensor has counts but no positions. */
  if (count == 0 || first < 0)
    return ovi_format_count (count);
  if (showing_stored (self, tensor))
    {
      guint n_dims;
      const guint64 *shape = ovi_tensor_get_shape (tensor, &n_dims);
      g_autofree char *coords = format_position_in (shape, n_dims, first);

      position = g_strdup_printf ("%lld %s", (long long) first, coords);
    }
  else
    position = ovi_tensor_dup_position (tensor, first);
  /* Translators: a count of values, then where the first one is: its flat
   * index and its index per dimension, "43, first at 3 (0, 0, 0, 3)" */
  return g_strdup_printf (_ ("%llu, first at %s"), (unsigned long long) count, position);
}

static char *
format_position_in (const guint64 *shape, guint n_dims, gint64 index)
{
  g_autoptr (GString) str = g_string_new (NULL);
  guint64 rest = index;
  g_autofree guint64 *coords = g_new0 (guint64, MAX (n_dims, 1));

  for (guint i = n_dims; i > 0; i--)
    {
      guint64 dim = MAX (shape[i - 1], 1);

      coords[i - 1] = rest % dim;
      rest /= dim;
    }
  g_string_append_c (str, '(');
  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (str, "%s%" G_GUINT64_FORMAT, i ? ", " : "", coords[i]);
  g_string_append_c (str, ')');
  return g_string_free (g_steal_pointer (&str), FALSE);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
show_properties (OviTensorView *self, OviTensor *tensor)
{
  g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (tensor));
  g_autofree char *format = ovi_format_dup_label (ovi_tensor_get_format (tensor));
  g_autofree char *shape = ovi_tensor_dup_shape_string (tensor);
  g_autofree char *size =
      g_format_size_full (ovi_tensor_get_size (tensor), G_FORMAT_SIZE_LONG_FORMAT);
  g_autofree char *count =
      ovi_format_count (showing_stored (self, tensor) ? ovi_tensor_get_count (tensor)
                                                      : ovi_tensor_get_logical_count (tensor));
  g_autofree char *space_type = ovi_tensor_dup_space_type_label (tensor);
  int row = 5;

  add_info (self, 0, 0, _ ("Data type"), dtype);
  add_info (self, 1, 0, _ ("Format"), format);
  add_info (self, 2, 0, _ ("Shape"), shape);
  add_info (self, 3, 0, _ ("Size"), size);
  add_info (self, 4, 0, _ ("Elements"), count);
  if (ovi_layout_is_device (ovi_tensor_get_format (tensor)))
    {
      guint n_original;
      const guint64 *original = ovi_tensor_get_original_shape (tensor, &n_original);
      g_autoptr (GString) text = g_string_new ("[");
      g_autofree char *logical_format = ovi_format_dup_label (
          ovi_layout_logical_format (ovi_tensor_get_format (tensor), n_original));

      for (guint i = 0; i < n_original; i++)
        g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i ? ", " : "", original[i]);
      g_string_append_printf (text, "] %s", logical_format);
      if (!showing_stored (self, tensor))
        add_info (self, row++, 0, _ ("Logical shape"),
                  n_original ? text->str : _ ("not in the header"));
      {
        g_autofree char *stored_count = ovi_format_count (ovi_tensor_get_count (tensor));
        /* Translators: how many values a device layout stores, padding
         * included: "1,024 values in NC1HWC0" */
        g_autofree char *stored = g_strdup_printf (_ ("%s values in %s"), stored_count, format);

        /* Translators: the row of the stored size, "Stored 1,024 values in NC1HWC0" */
        add_info (self, row++, 0, _ ("Stored"), stored);
      }
      if (showing_stored (self, tensor))
        /* Translators: the Statistics row when the view shows a device
         * layout as stored ("Logical layout" unchecked) */
        add_info (self, row++, 0, _ ("Statistics"), _ ("over the stored values, padding included"));
      else if (!ovi_tensor_get_is_logical (tensor) && ovi_tensor_get_layout_problem (tensor))
        {
          g_autofree char *note = g_strdup_printf (
              /* Translators: why the statistics of a device layout include its
               * padding; the reason follows ("the header has no original shape") */
              _ ("over the stored values, padding included: %s"),
              ovi_tensor_get_layout_problem (tensor));

          add_info (self, row++, 0, _ ("Statistics"), note);
        }
    }
  /* The newer schema's fields, where the header has them (0 is "not
   * written"; a workspace always has a type, 0 being LOG). */
  if (ovi_tensor_get_arg_index (tensor))
    {
      g_autofree char *arg_index = g_strdup_printf ("%u", ovi_tensor_get_arg_index (tensor));
      /* Translators: the tensor's position among the kernel's arguments */
      add_info (self, row++, 0, _ ("Argument index"), arg_index);
    }
  if (ovi_tensor_get_input_type (tensor))
    {
      g_autofree char *input_type = g_strdup_printf ("%u", ovi_tensor_get_input_type (tensor));
      /* Translators: an input's "input_type" in the dump header, a number */
      add_info (self, row++, 0, _ ("Input type"), input_type);
    }
  if (space_type != NULL)
    /* Translators: a workspace's "type" in the dump header ("LOG", "type 3") */
    add_info (self, row++, 0, _ ("Workspace type"), space_type);
}

/* Closures of the .ui file: the operator's fields of the newer schema, ""
 * when it has none (or there is no operator), which hides their rows. */
static char *
format_attrs (gpointer unused, OviDumpFile *file)
{
  GString *text = g_string_new (NULL);
  guint n = file ? ovi_dump_file_get_n_attrs (file) : 0;

  for (guint i = 0; i < n; i++)
    {
      const char *name, *value;

      ovi_dump_file_get_attr (file, i, &name, &value);
      g_string_append_printf (text, "%s%s = %s", i ? "\n" : "", name, value);
    }
  return g_string_free (text, FALSE);
}

static char *
format_dfx_message (gpointer unused, OviDumpFile *file)
{
  const char *message = file ? ovi_dump_file_get_dfx_message (file) : NULL;

  return g_strdup (message ? message : "");
}

static gboolean
is_set (gpointer unused, const char *text)
{
  return text != NULL && *text != '\0';
}

static gboolean
either (gpointer unused, gboolean a, gboolean b)
{
  return a || b;
}

/* The values around element @index of @analysis: every NaN and ±Inf
 * marked as an error, every saturated value as a warning, and the one the
 * strip is centred on in bold. */
static void
show_neighbours (OviTensorView *self, OviAnalysis *analysis, gint64 index, guint64 count)
{
  gint64 first = MAX (index - 4, 0), last = MIN (index + 4, (gint64) count - 1);
  OviTensor *tensor = ovi_tensor_view_get_tensor (self);
  double saturation = tensor ? ovi_dtype_max_finite (ovi_tensor_get_dtype (tensor)) : 0;

  self->strip_index = index;
  clear_grid (self->neighbour_grid);
  for (gint64 i = first; i <= last; i++)
    {
      g_autofree char *position = g_strdup_printf ("%" G_GINT64_FORMAT, i);
      g_autofree char *value = ovi_format_double (ovi_analysis_value_at (analysis, i));
      GtkWidget *index_label = gtk_label_new (position);
      GtkWidget *value_label;
      double v = ovi_analysis_value_at (analysis, i);

      if (isnan (v))
        g_free (value), value = g_strdup ("NaN");
      else if (isinf (v))
        g_free (value), value = g_strdup (v > 0 ? "+Inf" : "−Inf");
      value_label = gtk_label_new (value);
      gtk_widget_add_css_class (index_label, "dim-label");
      gtk_widget_add_css_class (index_label, "numeric");
      gtk_widget_add_css_class (value_label, "numeric");
      if (!isfinite (v))
        gtk_widget_add_css_class (value_label, "error");
      else if (saturation > 0 && fabs (v) == saturation)
        gtk_widget_add_css_class (value_label, "warning");
      if (i == index)
        {
          gtk_widget_add_css_class (index_label, "heading");
          gtk_widget_add_css_class (value_label, "heading");
        }
      gtk_grid_attach (self->neighbour_grid, index_label, i - first, 0, 1, 1);
      gtk_grid_attach (self->neighbour_grid, value_label, i - first, 1, 1, 1);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->neighbour_grid), TRUE);
}

/* tensor.locate ("x": the index of a bad value in the located analysis). */
static void
locate_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviTensorView *self = OVI_TENSOR_VIEW (widget);

  if (self->located != NULL)
    show_neighbours (self, self->located, g_variant_get_int64 (parameter),
                     ovi_analysis_get_stats (self->located)->count);
}

/* The headline under the histogram: the first non-finite value, in the
 * analysis and the layout the strip shows, so both name the same element. */
static void
show_headline (OviTensorView *self, OviAnalysis *a, const guint64 *shape, guint n_dims)
{
  const OviStats *stats = ovi_analysis_get_stats (a);

  if (stats->count == 0)
    {
      gtk_label_set_text (self->first_label,
                          _ ("Empty tensor: it has no elements, so no values to show."));
      gtk_widget_remove_css_class (GTK_WIDGET (self->first_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->first_label), "dim-label");
    }
  else if (stats->first_nonfinite >= 0)
    {
      g_autofree char *position = format_position_in (shape, n_dims, stats->first_nonfinite);
      double value = ovi_analysis_value_at (a, stats->first_nonfinite);
      g_autofree char *value_text =
          isnan (value) ? g_strdup ("NaN") : g_strdup (value > 0 ? "+Inf" : "−Inf");
      g_autofree char *text =
          /* Translators: flat index, index per dimension, value (NaN or ±Inf) */
          g_strdup_printf (_ ("First non-finite value at index %lld %s: %s"),
                           (long long) stats->first_nonfinite, position, value_text);

      gtk_label_set_text (self->first_label, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->first_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->first_label), "error");
    }
  else if (stats->nan + stats->pos_inf + stats->neg_inf > 0)
    {
      /* Statistics mode: counts without positions. */
      gtk_label_set_text (self->first_label,
                          _ ("Some values are not finite; the statistics do not record where."));
      gtk_widget_remove_css_class (GTK_WIDGET (self->first_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->first_label), "error");
    }
  else
    {
      gtk_label_set_text (self->first_label, _ ("All values are finite."));
      gtk_widget_remove_css_class (GTK_WIDGET (self->first_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->first_label), "dim-label");
    }
}

/* One button per kind of bad value: where the first one is, in the logical
 * layout when the tensor is stored in a device one (as every index the
 * view shows). */
static void
show_locator (OviTensorView *self, OviTensor *tensor, OviAnalysis *a)
{
  const OviStats *s = ovi_analysis_get_stats (a);
  const guint64 *shape;
  guint n_dims;
  GtkWidget *child;
  /* The strip starts where the headline points: the first non-finite
   * value, or the first saturated one when all are finite. It stays where
   * the user put it while the same tensor is recomputed (other bins). */
  gint64 centre = s->first_nonfinite >= 0 ? s->first_nonfinite : s->first_saturated;
  const struct
  {
    const char *what;
    gint64 index;
  } kinds[] = {
    { N_ ("First NaN"), s->first_nan },
    { N_ ("First +Inf"), s->first_pos_inf },
    { N_ ("First −Inf"), s->first_neg_inf },
    { N_ ("First saturated value"), s->first_saturated },
  };

  if (tensor == self->strip_tensor && self->strip_index >= 0 &&
      self->strip_index < (gint64) s->count)
    centre = self->strip_index;
  g_set_object (&self->strip_tensor, tensor);
  self->strip_index = -1;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->locate_box))))
    gtk_flow_box_remove (self->locate_box, child);
  g_clear_pointer (&self->located, ovi_analysis_unref);
  self->located = ovi_analysis_ref (a);
  clear_grid (self->neighbour_grid);
  gtk_widget_set_visible (GTK_WIDGET (self->neighbour_grid), FALSE);
  shape = shown_shape (self, tensor, &n_dims);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *position = NULL;
      g_autofree char *label = NULL;
      GtkWidget *button;

      if (kinds[k].index < 0)
        continue;
      position = format_position_in (shape, n_dims, kinds[k].index);
      /* Translators: "First NaN at 30 (0, 0, 3, 6)" */
      label = g_strdup_printf (_ ("%s at %lld %s"), _ (kinds[k].what), (long long) kinds[k].index,
                               position);
      button = gtk_button_new_with_label (label);
      ovi_widget_set_tooltip (button, _ ("Show the values around it"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "tensor.locate");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "x", kinds[k].index);
      gtk_flow_box_append (self->locate_box, button);
    }
  if (centre >= 0)
    show_neighbours (self, a, centre, s->count);
  gtk_widget_set_visible (GTK_WIDGET (self->locate_box), centre >= 0);
  show_headline (self, a, shape, n_dims);
}

static void
show_stats (OviTensorView *self, OviTensor *tensor, const OviStats *stats)
{
  g_autofree char *min = ovi_format_double (stats->min);
  g_autofree char *max = ovi_format_double (stats->max);
  g_autofree char *mean = ovi_format_double (stats->mean);
  g_autofree char *std = ovi_format_double (stats->std);
  g_autofree char *max_abs = ovi_format_double (stats->max_abs);
  g_autofree char *finite = ovi_format_count (stats->finite);
  g_autofree char *zeros = ovi_format_count (stats->zeros);
  g_autofree char *nan = format_count_with_first (self, tensor, stats->nan, stats->first_nan);
  g_autofree char *pos_inf =
      format_count_with_first (self, tensor, stats->pos_inf, stats->first_pos_inf);
  g_autofree char *neg_inf =
      format_count_with_first (self, tensor, stats->neg_inf, stats->first_neg_inf);
  g_autofree char *saturated =
      format_count_with_first (self, tensor, stats->saturated, stats->first_saturated);

  add_info (self, 0, 1, _ ("Minimum"), min);
  add_info (self, 1, 1, _ ("Maximum"), max);
  add_info (self, 2, 1, _ ("Mean"), mean);
  add_info (self, 3, 1, _ ("Standard deviation"), std);
  add_info (self, 4, 1, _ ("Largest magnitude"), max_abs);
  add_info (self, 0, 2, _ ("Finite values"), finite);
  add_info (self, 1, 2, _ ("Zeros"), zeros);
  add_info (self, 2, 2, _ ("NaN"), nan);
  add_info (self, 3, 2, _ ("+Inf"), pos_inf);
  add_info (self, 4, 2, _ ("−Inf"), neg_inf);
  add_info (self, 5, 2, _ ("Saturated (±max)"), saturated);
}

static void
set_busy (OviTensorView *self, gboolean busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
}

static void
analyze_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviTensorView) self = user_data;
  OviTensor *tensor = OVI_TENSOR (object);
  g_autoptr (OviTensorResult) analysis = NULL;
  g_autoptr (GError) error = NULL;

  analysis = ovi_tensor_analyze_finish (tensor, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (tensor != ovi_tensor_view_get_tensor (self))
    return;
  set_busy (self, FALSE);
  if (analysis == NULL)
    {
      gtk_label_set_text (self->message_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
      return;
    }
  show_stats (self, tensor, ovi_analysis_get_stats (ovi_tensor_result_get_analysis (analysis)));
  show_locator (self, tensor, ovi_tensor_result_get_analysis (analysis));
  ovi_histogram_view_clear (self->histogram);
  if (ovi_analysis_get_stats (ovi_tensor_result_get_analysis (analysis))->count == 0 &&
      !ovi_tensor_get_statistics_only (tensor))
    /* No values: no axis made up around nothing, the headline says why. */
    gtk_widget_set_visible (GTK_WIDGET (self->histogram), FALSE);
  else if (ovi_tensor_result_get_histogram (analysis) != NULL)
    ovi_histogram_view_add_series_full (
        self->histogram, NULL, ovi_tensor_result_get_histogram (analysis),
        ovi_tensor_result_ref (analysis), (GDestroyNotify) ovi_tensor_result_unref);
  else if (ovi_tensor_get_statistics_only (tensor))
    {
      /* The statistics came from the runtime's CSV: say why there is no
       * histogram rather than show an empty one. */
      gtk_label_set_text (self->message_label, ovi_statistic_why_no_values ());
      gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
    }
}

/* Statistics, locator and histogram of the selected tensor, computed by
 * core off the main thread. */
static void
refresh (OviTensorView *self)
{
  OviTensor *tensor = ovi_tensor_view_get_tensor (self);
  guint bins;
  OviHistogramScale scale;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  clear_grid (self->info_grid);
  ovi_histogram_view_clear (self->histogram);
  gtk_label_set_text (self->first_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->locate_box), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->neighbour_grid), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram), TRUE);
  set_busy (self, FALSE);

  if (tensor == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->logical_check), FALSE);
      return;
    }

  /* The switch between the logical and the stored values, for a device
   * layout that maps to its original shape. */
  gtk_widget_set_visible (GTK_WIDGET (self->logical_check), ovi_tensor_get_is_logical (tensor));
  show_properties (self, tensor);
  if (!ovi_dtype_is_supported (ovi_tensor_get_dtype (tensor)))
    {
      gtk_label_set_text (self->message_label,
                          _ ("No statistics: the data type of this tensor is not supported."));
      gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
      return;
    }

  self->cancellable = g_cancellable_new ();
  bins = gtk_spin_button_get_value_as_int (self->bins_spin);
  scale = gtk_check_button_get_active (self->symlog_check) ? OVI_HISTOGRAM_SYMLOG
                                                           : OVI_HISTOGRAM_LINEAR;
  set_busy (self, TRUE);
  ovi_tensor_analyze_layout_async (tensor, showing_stored (self, tensor), bins, scale,
                                   self->cancellable, analyze_done, g_object_ref (self));
}

static void
histogram_settings_changed (OviTensorView *self)
{
  refresh (self);
}

static void
selected_changed (OviTensorView *self)
{
  /* A tensor the user picked stays picked. */
  if (!self->picking)
    self->auto_pick = FALSE;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TENSOR]);
}

static void
ovi_tensor_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, OVI_TENSOR_VIEW (object)->file);
      break;
    case PROP_TENSOR:
      g_value_set_object (value, ovi_tensor_view_get_tensor (OVI_TENSOR_VIEW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_tensor_view_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_FILE:
      ovi_tensor_view_set_file (OVI_TENSOR_VIEW (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_tensor_view_dispose (GObject *object)
{
  OviTensorView *self = OVI_TENSOR_VIEW (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_TENSOR_VIEW);
  /* Unnamed template children are not unparented by the call above. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  if (self->file != NULL)
    g_signal_handlers_disconnect_by_data (self->file, self);
  g_clear_object (&self->file);
  g_clear_object (&self->tensors);
  g_clear_object (&self->strip_tensor);
  g_clear_pointer (&self->located, ovi_analysis_unref);
  G_OBJECT_CLASS (ovi_tensor_view_parent_class)->dispose (object);
}

static void
ovi_tensor_view_class_init (OviTensorViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_tensor_view_dispose;
  object_class->get_property = ovi_tensor_view_get_property;
  object_class->set_property = ovi_tensor_view_set_property;

  /* The op dump file whose tensors are shown. */
  properties[PROP_FILE] =
      g_param_spec_object ("file", NULL, NULL, OVI_TYPE_DUMP_FILE,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* The selected tensor, what "Selected Tensor" exports write. */
  properties[PROP_TENSOR] =
      g_param_spec_object ("tensor", NULL, NULL, OVI_TYPE_TENSOR,
                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (OVI_TYPE_TENSOR);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-tensor-view.ui");
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, attrs_label);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, bins_spin);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, dfx_label);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, first_label);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, locate_box);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, neighbour_grid);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, histogram);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, info_grid);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, log_check);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, logical_check);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, message_label);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, op_grid);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, spinner);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, stack);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, symlog_check);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, tensor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviTensorView, title_label);
  gtk_widget_class_bind_template_callback (widget_class, either);
  gtk_widget_class_bind_template_callback (widget_class, format_attrs);
  gtk_widget_class_bind_template_callback (widget_class, format_dfx_message);
  gtk_widget_class_bind_template_callback (widget_class, histogram_settings_changed);
  gtk_widget_class_bind_template_callback (widget_class, is_set);
  gtk_widget_class_install_action (widget_class, "tensor.locate", "x", locate_action);
}

static void
ovi_tensor_view_init (OviTensorView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->tensors = g_list_store_new (OVI_TYPE_TENSOR);
  gtk_drop_down_set_model (self->tensor_dropdown, G_LIST_MODEL (self->tensors));
  g_signal_connect_swapped (self->tensor_dropdown, "notify::selected",
                            G_CALLBACK (selected_changed), self);
  set_busy (self, FALSE);
  self->strip_index = -1;
  ovi_widget_set_tooltip (GTK_WIDGET (self->logical_check),
                          _ ("Checked: the tensor as the framework sees it, in its original shape "
                             "without the padding. Unchecked: every value the device layout "
                             "stores, padding included"));
}

GtkWidget *
ovi_tensor_view_new (void)
{
  return g_object_new (OVI_TYPE_TENSOR_VIEW, NULL);
}

/* Opening an operator shows the tensor that went bad first (an origin's
 * bad output, not its clean input 0); until the operator's summary
 * arrives that is not known, so input 0 is shown and replaced when it
 * does, unless a tensor was picked meanwhile. */
static void
pick_first_bad (OviTensorView *self)
{
  int index;

  if (!self->auto_pick || self->file == NULL)
    return;
  if (!ovi_dump_file_get_summary (self->file))
    return;
  self->auto_pick = FALSE;
  index = ovi_classifier_first_abnormal_tensor (self->file);
  if (index > 0)
    {
      self->picking = TRUE;
      gtk_drop_down_set_selected (self->tensor_dropdown, index);
      self->picking = FALSE;
    }
}

void
ovi_tensor_view_set_file (OviTensorView *self, OviDumpFile *file)
{
  GPtrArray *tensors;

  g_return_if_fail (OVI_IS_TENSOR_VIEW (self));
  g_return_if_fail (file == NULL || OVI_IS_DUMP_FILE (file));

  if (file == self->file)
    return;
  if (self->file != NULL)
    g_signal_handlers_disconnect_by_data (self->file, self);
  g_set_object (&self->file, file);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);

  g_list_store_remove_all (self->tensors);
  tensors = file ? ovi_dump_file_get_tensors (file) : NULL;
  if (tensors != NULL)
    g_list_store_splice (self->tensors, 0, 0, tensors->pdata, tensors->len);

  if (file != NULL)
    {
      g_autofree char *title = g_strdup_printf ("%s · %s", ovi_dump_file_get_op_type (file),
                                                ovi_dump_file_get_op_name (file));
      gtk_label_set_text (self->title_label, title);
    }
  else
    gtk_label_set_text (self->title_label, _ ("No operator selected"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->tensor_dropdown), tensors && tensors->len > 0);
  gtk_stack_set_visible_child_name (self->stack, file ? "tensor" : "empty");

  self->picking = TRUE;
  if (tensors != NULL && tensors->len > 0)
    gtk_drop_down_set_selected (self->tensor_dropdown, 0);
  self->picking = FALSE;
  self->auto_pick = file != NULL;
  if (file != NULL)
    g_signal_connect_object (file, "notify::analyzed", G_CALLBACK (pick_first_bad), self,
                             G_CONNECT_SWAPPED);
  refresh (self);
  pick_first_bad (self);
}

OviDumpFile *
ovi_tensor_view_get_file (OviTensorView *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR_VIEW (self), NULL);
  return self->file;
}

void
ovi_tensor_view_select_tensor (OviTensorView *self, guint position)
{
  g_return_if_fail (OVI_IS_TENSOR_VIEW (self));

  self->auto_pick = FALSE;
  if (position < g_list_model_get_n_items (G_LIST_MODEL (self->tensors)))
    gtk_drop_down_set_selected (self->tensor_dropdown, position);
}

OviTensor *
ovi_tensor_view_get_tensor (OviTensorView *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR_VIEW (self), NULL);
  if (self->tensor_dropdown == NULL)
    return NULL; /* disposed */
  return gtk_drop_down_get_selected_item (self->tensor_dropdown);
}

gboolean
ovi_tensor_view_get_busy (OviTensorView *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR_VIEW (self), FALSE);
  return self->cancellable != NULL && gtk_spinner_get_spinning (self->spinner);
}

OviHistogramView *
ovi_tensor_view_get_histogram (OviTensorView *self)
{
  g_return_val_if_fail (OVI_IS_TENSOR_VIEW (self), NULL);
  return self->histogram;
}

void
ovi_tensor_view_bind_settings (OviTensorView *self, GSettings *settings)
{
  g_return_if_fail (OVI_IS_TENSOR_VIEW (self));

  g_settings_bind (settings, "histogram-bins", self->bins_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "histogram-log-counts", self->log_check, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "histogram-symlog", self->symlog_check, "active",
                   G_SETTINGS_BIND_DEFAULT);
}
