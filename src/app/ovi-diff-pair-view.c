/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-diff-pair-view.h"
#include "ovi-format.h"
#include "ovi-histogram-view.h"
#include "ovi-tooltip.h"

/* What the pair view computes nothing of: core's ovi_diff_pair_compute_async()
 * reads both sides on the worker pool; the view lays out its result and the
 * diff's own numbers (the tensor pair's class, count and top differences). */
struct _OviDiffPairView
{
  GtkWidget parent_instance;

  GtkLabel *title_label;
  GtkDropDown *tensor_dropdown;
  GtkStringList *tensor_names;
  GtkLabel *status_label;
  GtkGrid *stats_grid;
  OviHistogramView *values_histogram;
  OviHistogramView *difference_histogram;
  GtkLabel *strip_label;
  GtkDrawingArea *strip;
  GtkListBox *top_list;

  OviDiffOperator *op;
  guint tensor;
  gboolean filling; /* the drop-down is refilled, not chosen from */
  OviDiffPair *pair;
  GCancellable *cancellable; /* the pair being read */
};

G_DEFINE_FINAL_TYPE (OviDiffPairView, ovi_diff_pair_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_OPERATOR,
  PROP_TENSOR,
  PROP_LOADED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define N_BINS 40
#define N_STRIP 200

/**
 * ovi_diff_format_position:
 * @shape: a logical shape as the diff writes it, "[2, 3]"
 *
 * Returns: "4 (1, 1)": the flat index and the index per dimension, as
 *   every position of the inspector is written
 */
char *
ovi_diff_format_position (const char *shape, guint64 index)
{
  g_auto (GStrv) parts = NULL;
  g_autofree guint64 *dims = NULL;
  g_autofree char *inner = NULL;
  GString *text;
  guint n = 0;
  guint64 rest = index;

  if (shape == NULL || shape[0] != '[')
    return g_strdup_printf ("%" G_GUINT64_FORMAT, index);
  inner = g_strndup (shape + 1, strcspn (shape + 1, "]"));
  parts = g_strsplit (inner, ",", -1);
  dims = g_new0 (guint64, g_strv_length (parts) + 1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (*g_strstrip (parts[i]) != '\0')
      dims[n++] = g_ascii_strtoull (parts[i], NULL, 10);
  text = g_string_new (NULL);
  g_string_append_printf (text, "%" G_GUINT64_FORMAT " (", index);
  {
    g_autofree guint64 *coords = g_new0 (guint64, MAX (n, 1));

    for (guint i = n; i-- > 0;)
      {
        coords[i] = dims[i] > 0 ? rest % dims[i] : 0;
        rest = dims[i] > 0 ? rest / dims[i] : rest;
      }
    for (guint i = 0; i < n; i++)
      g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i > 0 ? ", " : "", coords[i]);
  }
  g_string_append_c (text, ')');
  return g_string_free (text, FALSE);
}

static char *
tensor_name (const OviDiffTensor *t)
{
  return t->kind == OVI_TENSOR_INPUT ? g_strdup_printf (_ ("Input %u"), t->index)
                                     : g_strdup_printf (_ ("Output %u"), t->index);
}

static void
clear_grid (OviDiffPairView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stats_grid))) != NULL)
    gtk_grid_remove (self->stats_grid, child);
}

static GtkWidget *
grid_label (const char *text, gboolean heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), !heading);
  gtk_label_set_ellipsize (GTK_LABEL (label), heading ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  if (heading)
    gtk_widget_add_css_class (label, "dim-label");
  return label;
}

/* One side's row: dtype, shape, min, max, mean, non-finite counts and a
 * button that opens the tensor. */
static void
add_side_row (OviDiffPairView *self,
              guint row,
              const char *name,
              const OviDiffPairSide *side,
              const char *action)
{
  g_autofree char *dtype = ovi_dtype_dup_label (side->dtype);
  g_autofree char *min = ovi_format_double (side->min);
  g_autofree char *max = ovi_format_double (side->max);
  g_autofree char *mean = ovi_format_double (side->mean);
  g_autofree char *nonfinite =
      g_strdup_printf ("%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT,
                       side->nan, side->neg_inf, side->pos_inf);
  g_autofree char *tooltip = NULL;
  GtkWidget *button = gtk_button_new_with_mnemonic (_ ("_Show"));
  const char *cells[] = { name, dtype, side->shape, min, max, mean, nonfinite };

  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    gtk_grid_attach (self->stats_grid, grid_label (cells[i], i == 0), i, row, 1, 1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(su)", side->path, side->position);
  /* Translators: the Show button of the pair view, read by a screen reader:
   * "Show mine: /path/to/file" */
  tooltip = g_strdup_printf (_ ("Show %s: %s"), name, side->path);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  ovi_widget_set_tooltip (button, side->path);
  gtk_widget_add_css_class (button, "flat");
  gtk_grid_attach (self->stats_grid, button, G_N_ELEMENTS (cells), row, 1, 1);
}

static void
fill_stats (OviDiffPairView *self)
{
  const char *headings[] = {
    "", N_ ("Type"), N_ ("Shape"), N_ ("Min"), N_ ("Max"), N_ ("Mean"), N_ ("NaN / −Inf / +Inf")
  };

  clear_grid (self);
  if (self->pair == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (headings); i++)
    gtk_grid_attach (self->stats_grid, grid_label (i == 0 ? "" : _ (headings[i]), TRUE), i, 0, 1,
                     1);
  add_side_row (self, 1, _ ("Mine"), &self->pair->mine, "win.show-tensor");
  add_side_row (self, 2, _ ("Golden"), &self->pair->golden, "win.show-golden-tensor");
}

/* The strip: one bar per part of the flat index, grey where every element
 * agrees, red in proportion to the share out of tolerance. */
static void
draw_strip (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  OviDiffPairView *self = user_data;
  const OviDiffPair *pair = self->pair;

  if (pair == NULL || pair->n_strip == 0)
    return;
  for (guint b = 0; b < pair->n_strip; b++)
    {
      guint64 span = pair->strip_start[b + 1] - pair->strip_start[b];
      double x0 = (double) width * b / pair->n_strip;
      double x1 = (double) width * (b + 1) / pair->n_strip;

      if (pair->strip[b] == 0)
        cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.25);
      else
        cairo_set_source_rgba (cr, 0.88, 0.11, 0.14,
                               0.35 + 0.65 * (double) pair->strip[b] / MAX (span, 1));
      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), height);
      cairo_fill (cr);
    }
}

static void
fill_top (OviDiffPairView *self, const OviDiffTensor *t)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->top_list))) != NULL)
    gtk_list_box_remove (self->top_list, child);
  if (t == NULL || t->top == NULL || t->top->len == 0)
    {
      GtkWidget *label = gtk_label_new (_ ("No element differs"));

      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
      gtk_list_box_append (self->top_list, label);
      return;
    }
  for (guint i = 0; i < t->top->len; i++)
    {
      g_autofree char *text = ovi_diff_pair_view_dup_top_text (self, i);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_margin_start (label, 8);
      gtk_widget_set_margin_end (label, 8);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_list_box_append (self->top_list, label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (label)),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    }
}

static const OviDiffTensor *
current_tensor (OviDiffPairView *self)
{
  if (self->op == NULL || self->tensor >= ovi_diff_operator_get_n_tensors (self->op))
    return NULL;
  return ovi_diff_operator_get_tensor (self->op, self->tensor);
}

static void
show_pair (OviDiffPairView *self)
{
  const OviDiffPair *pair = self->pair;
  g_autofree char *out = NULL, *count = NULL, *strip = NULL;

  fill_stats (self);
  ovi_histogram_view_clear (self->values_histogram);
  ovi_histogram_view_clear (self->difference_histogram);
  if (pair != NULL)
    {
      ovi_histogram_view_add_series (self->values_histogram, _ ("Mine"),
                                     g_steal_pointer (&self->pair->mine_histogram));
      ovi_histogram_view_add_series (self->values_histogram, _ ("Golden"),
                                     g_steal_pointer (&self->pair->golden_histogram));
      ovi_histogram_view_add_series (self->difference_histogram, _ ("Mine − golden"),
                                     g_steal_pointer (&self->pair->difference));
      out = ovi_format_count_grouped (pair->out_of_tolerance);
      count = ovi_format_count_grouped (pair->count);
      strip = g_strdup_printf (
          /* Translators: above the strip of where two tensors differ */
          _ ("Where they differ along the tensor: %s of %s elements out of tolerance "
             "(rtol %g, atol %g)"),
          out, count, pair->rtol, pair->atol);
    }
  gtk_label_set_text (self->strip_label, strip ? strip : "");
  gtk_widget_set_visible (GTK_WIDGET (self->strip), pair != NULL);
  if (strip != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->strip), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    strip, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self->strip));
}

static void
pair_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviDiffPairView) self = user_data;
  g_autoptr (GError) error = NULL;
  OviDiffPair *pair = ovi_diff_pair_compute_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      ovi_diff_pair_free (pair);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->pair, ovi_diff_pair_free);
  self->pair = pair;
  if (pair == NULL)
    gtk_label_set_text (self->status_label, error->message);
  show_pair (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
}

static void
update (OviDiffPairView *self)
{
  const OviDiffTensor *t = current_tensor (self);
  const char *mine, *golden;
  g_autofree char *title = NULL, *status = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->pair, ovi_diff_pair_free);
  show_pair (self);
  fill_top (self, t);

  if (self->op == NULL)
    {
      gtk_label_set_text (self->title_label, "");
      gtk_label_set_text (self->status_label, _ ("Select an operator to compare its tensors"));
      return;
    }
  title = g_strdup_printf (
      "%s %s — %s",
      ovi_diff_operator_get_op_type (self->op) ? ovi_diff_operator_get_op_type (self->op) : "",
      ovi_diff_operator_get_name (self->op), ovi_diff_operator_get_class_label (self->op));
  gtk_label_set_text (self->title_label, g_strstrip (title));
  mine = ovi_diff_operator_get_mine_path (self->op);
  golden = ovi_diff_operator_get_golden_path (self->op);
  if (t == NULL)
    {
      const char *reason = ovi_diff_operator_get_reason (self->op);

      gtk_label_set_text (self->status_label,
                          reason ? reason : _ ("This operator has no tensor pair to compare"));
      return;
    }
  if (t->tensor_class == OVI_DIFF_TENSOR_NOT_COMPARABLE)
    status = g_strdup_printf (_ ("Not comparable: %s"), t->reason ? t->reason : "");
  else
    {
      g_autofree char *out = ovi_format_count_grouped (t->out_of_tolerance);
      g_autofree char *count = ovi_format_count_grouped (t->count);
      g_autofree char *cosine = ovi_format_double (t->metrics.cosine);
      g_autofree char *max_abs = ovi_format_double (t->metrics.max_absolute_error);

      status = t->first_position != NULL
                   ? g_strdup_printf (_ ("%s of %s elements out of tolerance, first at %s; "
                                         "cosine %s, max absolute error %s"),
                                      out, count, t->first_position, cosine, max_abs)
                   : g_strdup_printf (_ ("%s of %s elements out of tolerance; cosine %s, "
                                         "max absolute error %s"),
                                      out, count, cosine, max_abs);
    }
  gtk_label_set_text (self->status_label, status);
  if (mine == NULL || golden == NULL || t->tensor_class == OVI_DIFF_TENSOR_NOT_COMPARABLE)
    return;
  self->cancellable = g_cancellable_new ();
  ovi_diff_pair_compute_async (self->op, self->tensor, N_BINS, N_STRIP, self->cancellable,
                               pair_computed, g_object_ref (self));
}

static void
tensor_chosen (OviDiffPairView *self)
{
  guint selected = gtk_drop_down_get_selected (self->tensor_dropdown);

  if (self->filling || selected == GTK_INVALID_LIST_POSITION)
    return;
  ovi_diff_pair_view_set_tensor (self, selected);
}

OviDiffOperator *
ovi_diff_pair_view_get_operator (OviDiffPairView *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_PAIR_VIEW (self), NULL);
  return self->op;
}

/* Shows @op, on the tensor pair the diff found worst. */
void
ovi_diff_pair_view_set_operator (OviDiffPairView *self, OviDiffOperator *op)
{
  const OviDiffTensor *worst;
  guint n;

  g_return_if_fail (OVI_IS_DIFF_PAIR_VIEW (self));
  g_return_if_fail (op == NULL || OVI_IS_DIFF_OPERATOR (op));

  if (self->op == op)
    return;
  g_set_object (&self->op, op);
  n = op ? ovi_diff_operator_get_n_tensors (op) : 0;
  worst = op ? ovi_diff_operator_get_worst_tensor (op) : NULL;
  self->tensor = 0;
  self->filling = TRUE;
  gtk_string_list_splice (self->tensor_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->tensor_names)), NULL);
  for (guint i = 0; i < n; i++)
    {
      const OviDiffTensor *t = ovi_diff_operator_get_tensor (op, i);
      g_autofree char *name = tensor_name (t);

      gtk_string_list_append (self->tensor_names, name);
      if (t == worst)
        self->tensor = i;
    }
  gtk_drop_down_set_selected (self->tensor_dropdown,
                              n > 0 ? self->tensor : GTK_INVALID_LIST_POSITION);
  gtk_widget_set_sensitive (GTK_WIDGET (self->tensor_dropdown), n > 1);
  self->filling = FALSE;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPERATOR]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TENSOR]);
}

guint
ovi_diff_pair_view_get_tensor (OviDiffPairView *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_PAIR_VIEW (self), 0);
  return self->tensor;
}

void
ovi_diff_pair_view_set_tensor (OviDiffPairView *self, guint tensor)
{
  g_return_if_fail (OVI_IS_DIFF_PAIR_VIEW (self));

  if (self->tensor == tensor)
    return;
  self->tensor = tensor;
  self->filling = TRUE;
  gtk_drop_down_set_selected (self->tensor_dropdown, tensor);
  self->filling = FALSE;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TENSOR]);
}

/* The pair read by core, once it arrived (NULL before, or on an error). */
const OviDiffPair *
ovi_diff_pair_view_get_pair (OviDiffPairView *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_PAIR_VIEW (self), NULL);
  return self->pair;
}

/**
 * ovi_diff_pair_view_dup_top_text:
 * @rank: 0 for the largest difference
 *
 * Returns: (nullable): the line the view lists for it, "1. 3 (0, 0, 0, 3):
 *   mine 1.5, golden 0.5, difference 1"
 */
char *
ovi_diff_pair_view_dup_top_text (OviDiffPairView *self, guint rank)
{
  const OviDiffTensor *t;
  const OviDiffElement *e;
  g_autofree char *position = NULL, *mine = NULL, *golden = NULL, *difference = NULL;

  g_return_val_if_fail (OVI_IS_DIFF_PAIR_VIEW (self), NULL);

  t = current_tensor (self);
  if (t == NULL || t->top == NULL || rank >= t->top->len)
    return NULL;
  e = &g_array_index (t->top, OviDiffElement, rank);
  position = ovi_diff_format_position (t->mine_shape, e->index);
  mine = ovi_format_double (e->mine);
  golden = ovi_format_double (e->golden);
  difference = ovi_format_double (e->difference);
  /* Translators: one of the largest differences of a tensor pair: its rank,
   * its position "flat index (index per dimension)", both values and
   * their difference */
  return g_strdup_printf (_ ("%u. %s: mine %s, golden %s, difference %s"), rank + 1, position, mine,
                          golden, difference);
}

static void
ovi_diff_pair_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviDiffPairView *self = OVI_DIFF_PAIR_VIEW (object);

  switch (prop_id)
    {
    case PROP_OPERATOR:
      g_value_set_object (value, self->op);
      break;
    case PROP_TENSOR:
      g_value_set_uint (value, self->tensor);
      break;
    case PROP_LOADED:
      g_value_set_boolean (value, self->pair != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_diff_pair_view_set_property (GObject *object,
                                 guint prop_id,
                                 const GValue *value,
                                 GParamSpec *pspec)
{
  OviDiffPairView *self = OVI_DIFF_PAIR_VIEW (object);

  switch (prop_id)
    {
    case PROP_OPERATOR:
      ovi_diff_pair_view_set_operator (self, g_value_get_object (value));
      break;
    case PROP_TENSOR:
      ovi_diff_pair_view_set_tensor (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_diff_pair_view_dispose (GObject *object)
{
  OviDiffPairView *self = OVI_DIFF_PAIR_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->pair, ovi_diff_pair_free);
  g_clear_object (&self->op);
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_DIFF_PAIR_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (ovi_diff_pair_view_parent_class)->dispose (object);
}

static void
ovi_diff_pair_view_class_init (OviDiffPairViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = ovi_diff_pair_view_dispose;
  object_class->get_property = ovi_diff_pair_view_get_property;
  object_class->set_property = ovi_diff_pair_view_set_property;

  properties[PROP_OPERATOR] =
      g_param_spec_object ("operator", NULL, NULL, OVI_TYPE_DIFF_OPERATOR, rw);
  properties[PROP_TENSOR] = g_param_spec_uint ("tensor", NULL, NULL, 0, G_MAXUINT, 0, rw);
  /* Core's reading of the pair arrived: histograms and strip are drawn. */
  properties[PROP_LOADED] =
      g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_HISTOGRAM_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-diff-pair-view.ui");
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, title_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, tensor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, tensor_names);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, status_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, values_histogram);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, difference_histogram);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, strip_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, strip);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPairView, top_list);
  gtk_widget_class_bind_template_callback (widget_class, tensor_chosen);
}

static void
ovi_diff_pair_view_init (OviDiffPairView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->strip, draw_strip, self, NULL);
  update (self);
}
