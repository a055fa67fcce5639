/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-diff-page.h"
#include "ovi-format.h"

/* The Diff page binds to the session's OviDiffState: a spinner while core
 * runs the diff, the error when it failed, else the result. Rows are
 * core's OviDiffOperator objects, read through closures over their
 * getters. The first divergence is marked (qdata set when the result
 * arrives, read by the name cell) and selected. */
struct _OviDiffPage
{
  OviPage parent_instance;

  GtkStack *state_stack;
  GtkSpinner *spinner;
  GtkLabel *running_label;
  AdwStatusPage *error_status;
  GtkLabel *first_label;
  GtkLabel *counts_label;
  GtkLabel *pairs_label;
  GtkExpander *problems_expander;
  GtkLabel *problems_label;
  GtkSearchEntry *op_search;
  GtkToggleButton *divergent_toggle;
  GtkColumnView *op_view;
  GtkSingleSelection *op_selection;
  GtkFilterListModel *op_filter_model;
  GtkEveryFilter *op_filter;
  GtkSortListModel *op_sort_model;
  OviDiffPairView *pair_view;

  GtkCustomFilter *divergent_filter; /* owned by op_filter */
  OviDiffState *state;
  OviDiffResult *result; /* the one the table shows */
};

G_DEFINE_FINAL_TYPE (OviDiffPage, ovi_diff_page, OVI_TYPE_PAGE)

#define FIRST_KEY "ovi-diff-first-divergence"

static OviDiffOperator *
as_op (gpointer item)
{
  return OVI_IS_DIFF_OPERATOR (item) ? item : NULL;
}

/* The operator's worst tensor pair (the diff's choice): its elements out
 * of tolerance, and how many it compared. */
static guint64
op_out_count (OviDiffOperator *op)
{
  const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (op);

  return t ? t->out_of_tolerance : 0;
}

static guint64
op_element_count (OviDiffOperator *op)
{
  const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (op);

  return t ? t->count : 0;
}

/* --- closures of the table's cells (this: the list item) ------------------ */

static gboolean
op_is_first (gpointer unused, GObject *item)
{
  return item != NULL && g_object_get_data (item, FIRST_KEY) != NULL;
}

static char *
op_position_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? g_strdup_printf ("%u", ovi_diff_operator_get_position (op) + 1) : NULL;
}

/* My run's name, and the golden one's when a mapping paired them. */
static char *
op_name_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);
  const char *name, *golden;

  if (op == NULL)
    return NULL;
  name = ovi_diff_operator_get_name (op);
  golden = ovi_diff_operator_get_golden_name (op);
  if (golden != NULL && name != NULL && g_strcmp0 (name, golden) != 0)
    return g_strdup_printf ("%s → %s", name, golden);
  return g_strdup (name ? name : golden);
}

static GStrv
op_name_classes (gpointer unused, GObject *item)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv classes;

  if (op_is_first (NULL, item))
    g_strv_builder_add (builder, "heading");
  classes = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return classes;
}

static char *
op_type_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? g_strdup (ovi_diff_operator_get_op_type (op)) : NULL;
}

static char *
op_class_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? g_strdup (ovi_diff_op_class_label (ovi_diff_operator_get_op_class (op))) : NULL;
}

static GStrv
op_class_classes (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv classes;

  if (op != NULL)
    switch (ovi_diff_operator_get_op_class (op))
      {
      case OVI_DIFF_OP_ORIGIN:
        g_strv_builder_add (builder, "error");
        break;
      case OVI_DIFF_OP_PROPAGATED:
        g_strv_builder_add (builder, "warning");
        break;
      case OVI_DIFF_OP_IDENTICAL:
      case OVI_DIFF_OP_WITHIN_TOLERANCE:
        g_strv_builder_add (builder, "dim-label");
        break;
      default:
        break;
      }
  classes = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return classes;
}

static char *
op_cosine_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? ovi_format_double (ovi_diff_operator_get_cosine (op)) : NULL;
}

static char *
op_max_abs_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? ovi_format_double (ovi_diff_operator_get_max_abs_error (op)) : NULL;
}

static char *
op_out_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);
  g_autofree char *out = NULL, *count = NULL;

  if (op == NULL || ovi_diff_operator_get_worst_tensor (op) == NULL)
    return op ? g_strdup ("—") : NULL;
  out = ovi_format_count_grouped (op_out_count (op));
  count = ovi_format_count_grouped (op_element_count (op));
  /* Translators: elements out of tolerance of an operator, "12 / 1,024" */
  return g_strdup_printf (_ ("%s / %s"), out, count);
}

static char *
op_reason_text (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? g_strdup (ovi_diff_operator_get_reason (op)) : NULL;
}

/* What a screen reader says for a row: position, operator, class, and
 * whether it is the first divergence. */
static char *
op_row_name (gpointer unused, GObject *item)
{
  OviDiffOperator *op = as_op (item);
  g_autofree char *name = op_name_text (NULL, item);
  const char *type, *label;

  if (op == NULL)
    return NULL;
  type = ovi_diff_operator_get_op_type (op) ? ovi_diff_operator_get_op_type (op) : "";
  label = ovi_diff_op_class_label (ovi_diff_operator_get_op_class (op));
  if (op_is_first (NULL, item))
    /* Translators: the row of the first divergence read by a screen
     * reader: position, op type, op name and class */
    return g_strdup_printf (_ ("First divergence, %u: %s %s, %s"),
                            ovi_diff_operator_get_position (op) + 1, type, name, label);
  /* Translators: a row of the Diff page read by a screen reader:
   * position, op type, op name and class */
  return g_strdup_printf (_ ("%u: %s %s, %s"), ovi_diff_operator_get_position (op) + 1, type, name,
                          label);
}

/* --- closures of the sorters and the search (this: the operator) ---------- */

static guint
op_position (GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? ovi_diff_operator_get_position (op) : 0;
}

static char *
op_name (GObject *item)
{
  return op_name_text (NULL, item);
}

static char *
op_type (GObject *item)
{
  return op_type_text (NULL, item);
}

static int
op_class (GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? (int) ovi_diff_operator_get_op_class (op) : 0;
}

/* Not a number sorts below every number. */
static double
op_cosine (GObject *item)
{
  OviDiffOperator *op = as_op (item);
  double v = op ? ovi_diff_operator_get_cosine (op) : NAN;

  return isnan (v) ? -G_MAXDOUBLE : v;
}

static double
op_max_abs (GObject *item)
{
  OviDiffOperator *op = as_op (item);
  double v = op ? ovi_diff_operator_get_max_abs_error (op) : NAN;

  return isnan (v) ? -G_MAXDOUBLE : v;
}

static guint64
op_out (GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? op_out_count (op) : 0;
}

static char *
op_reason (GObject *item)
{
  return op_reason_text (NULL, item);
}

static char *
op_search_text (GObject *item)
{
  OviDiffOperator *op = as_op (item);

  if (op == NULL)
    return NULL;
  return g_strjoin (
      " ", ovi_diff_operator_get_op_type (op) ? ovi_diff_operator_get_op_type (op) : "",
      ovi_diff_operator_get_name (op) ? ovi_diff_operator_get_name (op) : "",
      ovi_diff_operator_get_golden_name (op) ? ovi_diff_operator_get_golden_name (op) : "", NULL);
}

/* --- the page ---------------------------------------------------------------- */

static gboolean
op_visible (gpointer item, gpointer user_data)
{
  OviDiffPage *self = user_data;
  OviDiffOpClass op_class;

  if (!gtk_toggle_button_get_active (self->divergent_toggle))
    return TRUE;
  op_class = ovi_diff_operator_get_op_class (item);
  return op_class == OVI_DIFF_OP_ORIGIN || op_class == OVI_DIFF_OP_PROPAGATED;
}

static void
filters_changed (OviDiffPage *self)
{
  if (self->divergent_filter != NULL)
    gtk_filter_changed (GTK_FILTER (self->divergent_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
selection_changed (OviDiffPage *self)
{
  gpointer item = gtk_single_selection_get_selected_item (self->op_selection);

  ovi_diff_pair_view_set_operator (self->pair_view, as_op (item));
}

static void
cancel_clicked (OviDiffPage *self)
{
  if (self->state != NULL)
    ovi_diff_state_cancel (self->state);
}

/* "First divergence: OP (origin): output 0, 12 of 1,024 elements out of
 * tolerance, first at 3 (0, 0, 0, 3)" */
static char *
first_divergence_text (OviDiffResult *result)
{
  OviDiffOperator *first = ovi_diff_result_get_first_divergence (result);
  const OviDiffTensor *t = ovi_diff_result_get_first_divergence_tensor (result);
  const char *class_label;
  g_autofree char *tensor = NULL, *out = NULL, *count = NULL;

  if (first == NULL)
    return g_strdup (ovi_diff_result_get_agree (result)
                         ? _ ("The runs agree: no operator differs beyond tolerance")
                         : _ ("No first divergence: no operator’s outputs differ while its inputs "
                              "agree"));
  class_label = ovi_diff_op_class_label (OVI_DIFF_OP_ORIGIN);
  if (t == NULL)
    /* Translators: the Diff page's first line: operator name and its class */
    return g_strdup_printf (_ ("First divergence: %s (%s)"), ovi_diff_operator_get_name (first),
                            class_label);
  tensor = t->kind == OVI_TENSOR_INPUT ? g_strdup_printf (_ ("input %u"), t->index)
                                       : g_strdup_printf (_ ("output %u"), t->index);
  out = ovi_format_count_grouped (t->out_of_tolerance);
  count = ovi_format_count_grouped (t->count);
  if (t->first_position != NULL)
    /* Translators: the Diff page's first line, e.g. "First divergence:
     * net/Cast_3 (origin): output 0, 12 of 1,024 elements out of
     * tolerance, first at 3 (0, 0, 0, 3)" */
    return g_strdup_printf (_ ("First divergence: %s (%s): %s, %s of %s elements out of "
                               "tolerance, first at %s"),
                            ovi_diff_operator_get_name (first), class_label, tensor, out, count,
                            t->first_position);
  return g_strdup_printf (_ ("First divergence: %s (%s): %s, %s of %s elements out of tolerance"),
                          ovi_diff_operator_get_name (first), class_label, tensor, out, count);
}

static char *
counts_text (OviDiffResult *result)
{
  GListModel *ops = ovi_diff_result_get_operators (result);
  guint one_side = ovi_diff_result_count_class (result, OVI_DIFF_OP_ONLY_MINE) +
                   ovi_diff_result_count_class (result, OVI_DIFF_OP_ONLY_GOLDEN);

  /* Translators: the operator classes of a diff, counted */
  return g_strdup_printf (
      _ ("%u operators: %u identical, %u within tolerance, %u origin, %u propagated, "
         "%u absorbed, %u in one run only, %u not comparable"),
      g_list_model_get_n_items (ops), ovi_diff_result_count_class (result, OVI_DIFF_OP_IDENTICAL),
      ovi_diff_result_count_class (result, OVI_DIFF_OP_WITHIN_TOLERANCE),
      ovi_diff_result_count_class (result, OVI_DIFF_OP_ORIGIN),
      ovi_diff_result_count_class (result, OVI_DIFF_OP_PROPAGATED),
      ovi_diff_result_count_class (result, OVI_DIFF_OP_ABSORBED), one_side,
      ovi_diff_result_count_class (result, OVI_DIFF_OP_NOT_COMPARABLE));
}

static char *
pairs_text (OviDiffResult *result)
{
  guint n = 0;
  const OviDiffFolderPair *pairs = ovi_diff_result_get_folder_pairs (result, &n);
  g_autoptr (GString) text = g_string_new (NULL);

  g_string_append_printf (text, _ ("Mine: %s\nGolden: %s"), ovi_diff_result_get_mine_path (result),
                          ovi_diff_result_get_golden_path (result));
  for (guint i = 0; i < n; i++)
    {
      const OviDiffFolderPair *p = &pairs[i];

      g_string_append_c (text, '\n');
      if (p->mine != NULL && p->golden != NULL)
        g_string_append_printf (text, _ ("Paired: %s"), p->label ? p->label : p->mine);
      else if (p->mine != NULL)
        g_string_append_printf (text, _ ("No partner in the golden run: %s"), p->mine);
      else
        g_string_append_printf (text, _ ("No partner in my run: %s"), p->golden);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
show_problems (OviDiffPage *self, OviDiffResult *result)
{
  GListModel *problems = ovi_diff_result_get_problems (result);
  guint n = problems ? g_list_model_get_n_items (problems) : 0;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *title = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GObject) problem = g_list_model_get_item (problems, i);
      g_autofree char *file = NULL, *message = NULL;

      g_object_get (problem, "file", &file, "message", &message, NULL);
      g_string_append_printf (text, "%s%s: %s", i > 0 ? "\n" : "", file ? file : "",
                              message ? message : "");
    }
  /* No mnemonic: Alt+1… show the pages. */
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u problem", "%u problems", n), n);
  gtk_expander_set_label (self->problems_expander, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->problems_expander),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  gtk_label_set_text (self->problems_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_expander), n > 0);
}

/* Selects the first divergence, where the filters and the sort put it. */
static void
select_first (OviDiffPage *self)
{
  OviDiffOperator *first =
      self->result ? ovi_diff_result_get_first_divergence (self->result) : NULL;
  GListModel *model = G_LIST_MODEL (self->op_selection);
  guint n = g_list_model_get_n_items (model);

  if (first == NULL)
    return;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

      if (item == (GObject *) first)
        {
          gtk_single_selection_set_selected (self->op_selection, i);
          for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->op_view));
               child != NULL; child = gtk_widget_get_next_sibling (child))
            if (GTK_IS_LIST_VIEW (child))
              gtk_widget_activate_action (child, "list.scroll-to-item", "u", i);
          return;
        }
    }
}

static void
state_changed (OviDiffPage *self)
{
  OviDiffResult *result = self->state ? ovi_diff_state_get_result (self->state) : NULL;
  gboolean running = self->state && ovi_diff_state_get_running (self->state);
  const char *error = self->state ? ovi_diff_state_get_error (self->state) : NULL;

  gtk_spinner_set_spinning (self->spinner, running);
  if (running)
    {
      g_autofree char *text = g_strdup_printf (_ ("Comparing %s with the golden run %s…"),
                                               ovi_diff_state_get_mine (self->state),
                                               ovi_diff_state_get_golden (self->state));

      gtk_label_set_text (self->running_label, text);
      gtk_stack_set_visible_child_name (self->state_stack, "running");
    }
  else if (result == NULL)
    {
      adw_status_page_set_description (self->error_status, error);
      gtk_stack_set_visible_child_name (self->state_stack, "error");
    }
  else
    gtk_stack_set_visible_child_name (self->state_stack, "result");

  if (result == self->result)
    return;
  g_set_object (&self->result, result);
  /* Marked before the rows are bound: the cells read the mark once. */
  if (result != NULL && ovi_diff_result_get_first_divergence (result) != NULL)
    g_object_set_data (G_OBJECT (ovi_diff_result_get_first_divergence (result)), FIRST_KEY,
                       GINT_TO_POINTER (TRUE));
  gtk_sort_list_model_set_model (self->op_sort_model,
                                 result ? ovi_diff_result_get_operators (result) : NULL);
  if (result == NULL)
    return;
  {
    g_autofree char *first = first_divergence_text (result);
    g_autofree char *counts = counts_text (result);
    g_autofree char *pairs = pairs_text (result);

    gtk_label_set_text (self->first_label, first);
    gtk_label_set_text (self->counts_label, counts);
    gtk_label_set_text (self->pairs_label, pairs);
  }
  show_problems (self, result);
  select_first (self);
}

static void
ovi_diff_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviDiffPage *self = OVI_DIFF_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  if (session != NULL)
    self->state = g_object_ref (ovi_session_get_diff (session));
  if (self->state != NULL)
    g_signal_connect_object (self->state, "notify", G_CALLBACK (state_changed), self,
                             G_CONNECT_SWAPPED);
  if (self->op_view != NULL)
    state_changed (self);
}

static void
ovi_diff_page_dispose (GObject *object)
{
  OviDiffPage *self = OVI_DIFF_PAGE (object);

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  g_clear_object (&self->result);
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_DIFF_PAGE);
  self->divergent_filter = NULL;
  G_OBJECT_CLASS (ovi_diff_page_parent_class)->dispose (object);
}

static void
ovi_diff_page_class_init (OviDiffPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_diff_page_dispose;
  OVI_PAGE_CLASS (klass)->session_changed = ovi_diff_page_session_changed;

  g_type_ensure (OVI_TYPE_DIFF_PAIR_VIEW);
  g_type_ensure (OVI_TYPE_DIFF_OPERATOR);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-diff-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, state_stack);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, running_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, error_status);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, first_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, counts_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, pairs_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, problems_expander);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, problems_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_search);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, divergent_toggle);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_view);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_selection);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_filter);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, pair_view);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, op_is_first);
  gtk_widget_class_bind_template_callback (widget_class, op_position_text);
  gtk_widget_class_bind_template_callback (widget_class, op_name_text);
  gtk_widget_class_bind_template_callback (widget_class, op_name_classes);
  gtk_widget_class_bind_template_callback (widget_class, op_type_text);
  gtk_widget_class_bind_template_callback (widget_class, op_class_text);
  gtk_widget_class_bind_template_callback (widget_class, op_class_classes);
  gtk_widget_class_bind_template_callback (widget_class, op_cosine_text);
  gtk_widget_class_bind_template_callback (widget_class, op_max_abs_text);
  gtk_widget_class_bind_template_callback (widget_class, op_out_text);
  gtk_widget_class_bind_template_callback (widget_class, op_reason_text);
  gtk_widget_class_bind_template_callback (widget_class, op_row_name);
  gtk_widget_class_bind_template_callback (widget_class, op_position);
  gtk_widget_class_bind_template_callback (widget_class, op_name);
  gtk_widget_class_bind_template_callback (widget_class, op_type);
  gtk_widget_class_bind_template_callback (widget_class, op_class);
  gtk_widget_class_bind_template_callback (widget_class, op_cosine);
  gtk_widget_class_bind_template_callback (widget_class, op_max_abs);
  gtk_widget_class_bind_template_callback (widget_class, op_out);
  gtk_widget_class_bind_template_callback (widget_class, op_reason);
  gtk_widget_class_bind_template_callback (widget_class, op_search_text);
}

static void
ovi_diff_page_init (OviDiffPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->divergent_filter = gtk_custom_filter_new (op_visible, self, NULL);
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->op_filter), GTK_FILTER (self->divergent_filter));
  state_changed (self);
}

GtkColumnView *
ovi_diff_page_get_column_view (OviDiffPage *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_PAGE (self), NULL);
  return self->op_view;
}

OviDiffPairView *
ovi_diff_page_get_pair_view (OviDiffPage *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_PAGE (self), NULL);
  return self->pair_view;
}

const char *
ovi_diff_page_get_first_divergence_text (OviDiffPage *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_PAGE (self), NULL);
  return gtk_label_get_text (self->first_label);
}

void
ovi_diff_page_focus_search (OviDiffPage *self)
{
  g_return_if_fail (OVI_IS_DIFF_PAGE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->op_search));
}
