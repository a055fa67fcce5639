/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ovi-columns.h"
#include "ovi-diff-page.h"
#include "ovi-file-chooser.h"
#include "ovi-format.h"
#include "ovi-scheduler.h"

/* The Diff page binds to the session's OviDiffState: a spinner while core
 * runs the diff, the error (with Retry) when it failed, else the result.
 * Rows are core's OviDiffOperator objects, read through closures over their
 * getters. The first divergence is marked (qdata set when the result
 * arrives, read by the name cell), selected, and once the page is shown
 * scrolled into view and given the keyboard. The settings `diff` takes
 * (--rtol, --atol, --map) are in a popover and shown above the table; the
 * export writes what `diff --json` and `--csv` write. */
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
  GtkLabel *overflows_label;
  GtkLabel *settings_label;
  GtkPopover *settings_popover;
  GtkEditable *rtol_entry;
  GtkEditable *atol_entry;
  GtkEditable *map_entry;
  GtkLabel *settings_error;
  GtkButton *retry_button;
  GtkMenuButton *settings_button;
  GtkButton *apply_button;
  GtkExpander *problems_expander;
  GtkLabel *problems_label;
  GtkSearchEntry *op_search;
  GtkToggleButton *divergent_toggle;
  GtkColumnView *op_view;
  GtkColumnViewColumn *device_column;
  GtkColumnViewColumn *type_column;
  GtkColumnViewColumn *cosine_column;
  GtkColumnViewColumn *max_abs_column;
  GtkColumnViewColumn *overflows_column;
  GtkSingleSelection *op_selection;
  GtkFilterListModel *op_filter_model;
  GtkEveryFilter *op_filter;
  GtkSortListModel *op_sort_model;
  OviDiffPairView *pair_view;

  GtkCustomFilter *divergent_filter; /* owned by op_filter */
  OviDiffState *state;
  OviDiffResult *result; /* the one the table shows */
  GHashTable *my_files;  /* path → my run's OviDumpFile, for the sidebar's filter */
  guint fit_task;        /* fits the columns to the table's width */
  int fitted_width;
};

G_DEFINE_FINAL_TYPE (OviDiffPage, ovi_diff_page, OVI_TYPE_PAGE)

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

/* --- closures over the operators' properties ------------------------------ */

static char *
position_text (gpointer unused, guint position)
{
  /* Counted from 0, as the CLI and the headline count. */
  return g_strdup_printf ("%u", position);
}

/* My run's name, and the golden one's when a mapping paired them. */
static char *
name_text (gpointer unused, const char *name, const char *golden)
{
  if (golden != NULL && name != NULL && g_strcmp0 (name, golden) != 0)
    return g_strdup_printf ("%s → %s", name, golden);
  return g_strdup (name ? name : golden);
}

static GStrv
name_classes (gpointer unused, gboolean first)
{
  const char *heading[] = { "heading", NULL };

  return g_strdupv ((GStrv) (first ? heading : heading + 1));
}

static gboolean
more_than_one (gpointer unused, guint n)
{
  return n > 1;
}

/* Devices in numeric order; a name that is not a number after them. */
static guint64
device_number (gpointer unused, const char *device)
{
  guint64 n;

  return device && g_ascii_string_to_unsigned (device, 10, 0, G_MAXUINT32, &n, NULL) ? n
                                                                                     : G_MAXUINT64;
}

static GStrv
class_classes (gpointer unused, int op_class)
{
  const char *style[] = { NULL, NULL };

  switch (op_class)
    {
    case OVI_DIFF_OP_ORIGIN:
      style[0] = "error";
      break;
    case OVI_DIFF_OP_PROPAGATED:
      style[0] = "warning";
      break;
    case OVI_DIFF_OP_IDENTICAL:
    case OVI_DIFF_OP_WITHIN_TOLERANCE:
      style[0] = "dim-label";
      break;
    default:
      break;
    }
  return g_strdupv ((GStrv) style);
}

static int
class_number (gpointer unused, int op_class)
{
  return op_class;
}

static char *
double_text (gpointer unused, double value)
{
  return ovi_format_double (value);
}

/* Not a number sorts below every number. */
static double
nan_lowest (gpointer unused, double value)
{
  return isnan (value) ? -G_MAXDOUBLE : value;
}

/* The worst tensor pair (the diff's choice) is no property: these two read
 * it from the operator. */
static char *
out_text (gpointer unused, GObject *item)
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

static guint64
out_count (GObject *item)
{
  OviDiffOperator *op = as_op (item);

  return op ? op_out_count (op) : 0;
}

/* "2 / 0": overflow records in my run and in the golden one. */
static char *
overflows_text (gpointer unused, guint mine, guint golden)
{
  g_autofree char *a = NULL, *b = NULL;

  if (mine + golden == 0)
    return NULL;
  a = ovi_format_count (mine);
  b = ovi_format_count (golden);
  return g_strdup_printf (_ ("%s / %s"), a, b);
}

static guint
overflows_total (gpointer unused, guint mine, guint golden)
{
  return mine + golden;
}

/* What a screen reader says for a row: position, operator, class, and
 * whether it is the first divergence. */
static char *
row_name (gpointer unused,
          guint position,
          const char *type,
          const char *name,
          const char *golden,
          int op_class,
          gboolean first)
{
  g_autofree char *names = name_text (NULL, name, golden);
  const char *label = ovi_diff_op_class_label (op_class);

  if (first)
    /* Translators: the row of the first divergence read by a screen
     * reader: position, op type, op name and class */
    return g_strdup_printf (_ ("First divergence, %u: %s %s, %s"), position, type ? type : "",
                            names ? names : "", label);
  /* Translators: a row of the Diff page read by a screen reader:
   * position, op type, op name and class */
  return g_strdup_printf (_ ("%u: %s %s, %s"), position, type ? type : "", names ? names : "",
                          label);
}

static char *
search_text (gpointer unused, const char *type, const char *name, const char *golden)
{
  return g_strjoin (" ", type ? type : "", name ? name : "", golden ? golden : "", NULL);
}

/* --- the page ---------------------------------------------------------------- */

/* My run's dump file of @op, where the sidebar's hierarchy places it. */
static OviDumpFile *
my_file (OviDiffPage *self, OviDiffOperator *op)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDumpFolder *folder = session ? ovi_session_get_folder (session) : NULL;

  if (folder == NULL || ovi_diff_operator_get_mine_path (op) == NULL)
    return NULL;
  if (self->my_files == NULL)
    {
      GListModel *files = ovi_dump_folder_get_files (folder);

      self->my_files = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          OviDumpFile *file = g_list_model_get_item (files, i);

          g_hash_table_replace (self->my_files, (gpointer) ovi_dump_file_get_path (file), file);
        }
    }
  return g_hash_table_lookup (self->my_files, ovi_diff_operator_get_mine_path (op));
}

static gboolean
op_visible (gpointer item, gpointer user_data)
{
  OviDiffPage *self = user_data;
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDiffOpClass op_class;

  /* The sidebar's device (or model, iteration) as on the Overflows page:
   * an operator of the golden run only belongs to no node of mine. */
  if (session != NULL && ovi_session_get_selected_node (session) != NULL &&
      ovi_tree_node_get_level (ovi_session_get_selected_node (session)) != OVI_TREE_LEVEL_ROOT &&
      !ovi_session_in_selected_node (session, my_file (self, item)))
    return FALSE;
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

/* My run's files, as far as the window's scan has listed them, may place
 * more operators in the sidebar's nodes. */
static void
my_files_changed (OviDiffPage *self)
{
  g_clear_pointer (&self->my_files, g_hash_table_unref);
  filters_changed (self);
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

static char *
counts_text (OviDiffResult *result)
{
  GListModel *ops = ovi_diff_result_get_operators (result);
  guint one_side = ovi_diff_result_count_class (result, OVI_DIFF_OP_ONLY_MINE) +
                   ovi_diff_result_count_class (result, OVI_DIFF_OP_ONLY_GOLDEN);

  guint n = g_list_model_get_n_items (ops);

  return g_strdup_printf (
      /* Translators: the operator classes of a diff, counted */
      g_dngettext (GETTEXT_PACKAGE,
                   "%u operator: %u identical, %u within tolerance, %u origin, %u propagated, "
                   "%u absorbed, %u in one run only, %u not comparable",
                   "%u operators: %u identical, %u within tolerance, %u origin, %u propagated, "
                   "%u absorbed, %u in one run only, %u not comparable",
                   n),
      n, ovi_diff_result_count_class (result, OVI_DIFF_OP_IDENTICAL),
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

/* --- the settings `diff` takes, in the popover ------------------------------- */

static char *
tolerance_text (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    return g_strdup (_ ("by dtype"));
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", value));
}

/* "Relative tolerance by dtype, absolute tolerance 1e-05, no map" */
static char *
settings_text (OviDiffState *state)
{
  g_autofree char *rtol = tolerance_text (ovi_diff_state_get_rtol (state));
  g_autofree char *atol = tolerance_text (ovi_diff_state_get_atol (state));
  const char *map = ovi_diff_state_get_map (state);

  if (map != NULL)
    /* Translators: the Diff page's settings, as `diff --rtol --atol --map` */
    return g_strdup_printf (_ ("Relative tolerance %s, absolute tolerance %s, map %s"), rtol, atol,
                            map);
  /* Translators: the Diff page's settings, as `diff --rtol --atol` */
  return g_strdup_printf (_ ("Relative tolerance %s, absolute tolerance %s, no map"), rtol, atol);
}

static void
settings_popover_shown (OviDiffPage *self)
{
  g_autofree char *rtol = NULL, *atol = NULL;
  double r = ovi_diff_state_get_rtol (self->state), a = ovi_diff_state_get_atol (self->state);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  gtk_editable_set_text (self->rtol_entry,
                         isnan (r) ? "" : g_ascii_formatd (buffer, sizeof buffer, "%g", r));
  gtk_editable_set_text (self->atol_entry,
                         isnan (a) ? "" : g_ascii_formatd (buffer, sizeof buffer, "%g", a));
  gtk_editable_set_text (self->map_entry, ovi_diff_state_get_map (self->state)
                                              ? ovi_diff_state_get_map (self->state)
                                              : "");
  gtk_widget_set_visible (GTK_WIDGET (self->settings_error), FALSE);
}

/* A tolerance as the CLI takes it: empty for the dtype's default, else a
 * number of at least 0. */
static gboolean
parse_tolerance (const char *text, double *value)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  char *end;

  if (*stripped == '\0')
    {
      *value = NAN;
      return TRUE;
    }
  *value = g_ascii_strtod (stripped, &end);
  return *end == '\0' && end != stripped && isfinite (*value) && *value >= 0;
}

static void
apply_clicked (OviDiffPage *self)
{
  const char *rtol_text = gtk_editable_get_text (self->rtol_entry);
  const char *atol_text = gtk_editable_get_text (self->atol_entry);
  g_autofree char *map = g_strstrip (g_strdup (gtk_editable_get_text (self->map_entry)));
  g_autofree char *message = NULL;
  double rtol, atol;

  if (!parse_tolerance (rtol_text, &rtol))
    /* Translators: %s is what the user typed */
    message =
        g_strdup_printf (_ ("Relative tolerance: “%s” is not a number of at least 0"), rtol_text);
  else if (!parse_tolerance (atol_text, &atol))
    message =
        g_strdup_printf (_ ("Absolute tolerance: “%s” is not a number of at least 0"), atol_text);
  gtk_label_set_text (self->settings_error, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->settings_error), message != NULL);
  if (message != NULL || self->state == NULL)
    return;
  gtk_popover_popdown (self->settings_popover);
  ovi_diff_state_set_settings (self->state, rtol, atol, *map != '\0' ? map : NULL);
}

static void
map_chosen (GFile *file, gpointer user_data)
{
  OviDiffPage *self = user_data;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  if (path != NULL)
    gtk_editable_set_text (self->map_entry, path);
}

static void
choose_map_clicked (OviDiffPage *self)
{
  ovi_file_chooser_open_file (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                              _ ("Choose a Map File"), map_chosen, g_object_ref (self),
                              g_object_unref);
}

/* --- the overflow records of both runs ------------------------------------ */

/* "Overflows only in my run: net/logits/Mul", each name a link to its row
 * (href: its position in run order), or NULL when neither run has one
 * that the other has not. */
static char *
overflows_markup (OviDiffResult *result)
{
  GListModel *ops = ovi_diff_result_get_operators (result);
  g_autoptr (GString) markup = g_string_new (NULL);

  for (guint side = 0; side < 2; side++)
    {
      g_autoptr (GString) list = g_string_new (NULL);

      for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
        {
          g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
          guint mine = ovi_diff_operator_get_mine_overflows (op);
          guint golden = ovi_diff_operator_get_golden_overflows (op);
          g_autofree char *name = NULL;

          if (side == 0 ? (mine == 0 || golden > 0) : (golden == 0 || mine > 0))
            continue;
          name =
              g_markup_printf_escaped ("<a href=\"%u\">%s</a>", ovi_diff_operator_get_position (op),
                                       ovi_diff_operator_get_name (op));
          g_string_append_printf (list, "%s%s", list->len ? ", " : "", name);
        }
      if (list->len > 0)
        g_string_append_printf (markup, "%s%s %s", markup->len ? "\n" : "",
                                side == 0 ? _ ("Overflows only in my run:")
                                          : _ ("Overflows only in the golden run:"),
                                list->str);
    }
  return markup->len ? g_string_free (g_steal_pointer (&markup), FALSE) : NULL;
}

static void focus_selected_row (OviDiffPage *self);

/* Selects @op where the filters and the sort put it; FALSE when they hide it. */
static gboolean
select_op (OviDiffPage *self, OviDiffOperator *op)
{
  GListModel *model = G_LIST_MODEL (self->op_selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

      if (item == (GObject *) op)
        {
          gtk_single_selection_set_selected (self->op_selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
overflow_link_activated (OviDiffPage *self, const char *uri)
{
  guint64 position;
  g_autoptr (OviDiffOperator) op = NULL;

  if (self->result == NULL || !g_ascii_string_to_unsigned (uri, 10, 0, G_MAXUINT, &position, NULL))
    return FALSE;
  op = g_list_model_get_item (ovi_diff_result_get_operators (self->result), position);
  if (op == NULL)
    return TRUE;
  if (!select_op (self, op))
    {
      /* Hidden by the filters: show every row again. */
      gtk_editable_set_text (GTK_EDITABLE (self->op_search), "");
      gtk_toggle_button_set_active (self->divergent_toggle, FALSE);
      select_op (self, op);
    }
  focus_selected_row (self);
  return TRUE;
}

/* --- the keyboard on the selected row ---------------------------------------- */

/* The first divergence (or a row shown from elsewhere) scrolled into view
 * and given the keyboard: the table got its model while hidden, hence by
 * its adjustment. */
static void
focus_selected_row (OviDiffPage *self)
{
  ovi_columns_focus_selected_row_soon (self->op_view, TRUE);
}

/* --- export ---------------------------------------------------------------- */

/**
 * ovi_diff_page_export:
 * @csv: the vendor's comparison CSV (`diff --csv`), else JSON (`diff --json`)
 *
 * Writes the result shown as the CLI writes it for the same settings, never
 * into either run's folder.
 */
gboolean
ovi_diff_page_export (OviDiffPage *self, gboolean csv, const char *path, GError **error)
{
  g_autoptr (OviDiff) diff = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GOutputStream) out = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (OVI_IS_DIFF_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->result == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _ ("There is no comparison to export"));
      return FALSE;
    }
  diff = ovi_diff_new (ovi_diff_result_get_mine_path (self->result),
                       ovi_diff_result_get_golden_path (self->result));
  if (!ovi_diff_check_output (diff, path, error))
    return FALSE;
  if (csv)
    return ovi_diff_result_write_csv (self->result, path, TRUE, error);
  root = ovi_diff_result_to_json (self->result);
  text = ovi_json_to_text (root);
  out = ovi_atomic_output_stream_new (path, TRUE, error);
  return out != NULL && g_output_stream_write_all (out, text, strlen (text), NULL, NULL, error) &&
         g_output_stream_close (out, NULL, error);
}

static void
show_toast (OviDiffPage *self, const char *title)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (title));
}

typedef struct
{
  OviDiffPage *page;
  gboolean csv;
} ExportRequest;

static void
export_chosen (GFile *file, gpointer user_data)
{
  ExportRequest *request = user_data;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL)
    return;
  if (!ovi_diff_page_export (request->page, request->csv, path, &error))
    {
      /* Translators: the file that could not be written, and why */
      g_autofree char *message =
          g_strdup_printf (_ ("Cannot write “%s”: %s"), path, error->message);

      show_toast (request->page, message);
    }
  else
    {
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *message = g_strdup_printf (_ ("Exported “%s”"), name);

      show_toast (request->page, message);
    }
}

static void
export_request_free (gpointer data)
{
  ExportRequest *request = data;

  g_object_unref (request->page);
  g_free (request);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ExportRequest *request = g_new0 (ExportRequest, 1);

  request->page = g_object_ref (OVI_DIFF_PAGE (widget));
  request->csv = g_str_equal (action_name, "diff.export-csv");
  ovi_file_chooser_save (
      GTK_WINDOW (gtk_widget_get_root (widget)),
      request->csv ? _ ("Export the Diff as CSV") : _ ("Export the Diff as JSON"),
      request->csv ? "diff.csv" : "diff.json", NULL, export_chosen, request, export_request_free);
}

static void
retry_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviDiffPage *self = OVI_DIFF_PAGE (widget);

  if (self->state != NULL)
    ovi_diff_state_rerun (self->state);
}

/* Selects the first divergence, where the filters and the sort put it. */
static void
select_first (OviDiffPage *self)
{
  OviDiffOperator *first =
      self->result ? ovi_diff_result_get_first_divergence (self->result) : NULL;

  if (first != NULL && select_op (self, first) && gtk_widget_get_mapped (GTK_WIDGET (self)))
    focus_selected_row (self);
}

static void
state_changed (OviDiffPage *self)
{
  OviDiffResult *result = self->state ? ovi_diff_state_get_result (self->state) : NULL;
  gboolean running = self->state && ovi_diff_state_get_running (self->state);
  const char *error = self->state ? ovi_diff_state_get_error (self->state) : NULL;

  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diff.retry", self->state && !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diff.export-json", result != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diff.export-csv", result != NULL);
  if (self->state != NULL)
    {
      g_autofree char *settings = settings_text (self->state);

      gtk_label_set_text (self->settings_label, settings);
    }
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
  g_clear_pointer (&self->my_files, g_hash_table_unref);
  gtk_sort_list_model_set_model (self->op_sort_model,
                                 result ? ovi_diff_result_get_operators (result) : NULL);
  if (result == NULL)
    return;
  {
    g_autofree char *first = ovi_diff_result_dup_headline (result);
    g_autofree char *counts = counts_text (result);
    g_autofree char *pairs = pairs_text (result);

    gtk_label_set_text (self->first_label, first);
    gtk_label_set_text (self->counts_label, counts);
    gtk_label_set_text (self->pairs_label, pairs);
  }
  {
    g_autofree char *overflows = overflows_markup (result);

    gtk_label_set_markup (self->overflows_label, overflows ? overflows : "");
    gtk_widget_set_visible (GTK_WIDGET (self->overflows_label), overflows != NULL);
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
  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (old_session, self);
  g_clear_pointer (&self->my_files, g_hash_table_unref);
  if (session != NULL)
    {
      self->state = g_object_ref (ovi_session_get_diff (session));
      g_signal_connect_object (session, "notify::selected-node", G_CALLBACK (filters_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::busy", G_CALLBACK (my_files_changed), self,
                               G_CONNECT_SWAPPED);
    }
  if (self->state != NULL)
    g_signal_connect_object (self->state, "notify", G_CALLBACK (state_changed), self,
                             G_CONNECT_SWAPPED);
  if (self->op_view != NULL)
    state_changed (self);
}

/* The table at its width, as the Operators page fits its own: every header
 * as wide as its title, then, when the columns are wider than the table,
 * those the header and the pair view repeat go first (the overflow
 * counts, listed above; the max abs error and cosine, in the pair view;
 * the type), so that the operator, its class, the count out of tolerance
 * and the reason always show. */
static gboolean
fit_columns_cb (gint64 deadline, gpointer data)
{
  OviDiffPage *self = data;
  GtkColumnViewColumn *optional[] = {
    self->overflows_column,
    self->max_abs_column,
    self->cosine_column,
    self->type_column,
  };
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  if (width <= 0 || width == self->fitted_width)
    {
      self->fit_task = 0;
      return G_SOURCE_REMOVE;
    }
  /* The headers are laid out at the next frame. */
  if (!ovi_columns_fit_titles (self->op_view) && gtk_widget_get_mapped (GTK_WIDGET (self->op_view)))
    return G_SOURCE_CONTINUE;
  self->fit_task = 0;
  self->fitted_width = width;
  /* The pixels of the table's border and scrollbar edge stay free. */
  ovi_columns_hide_to_fit (self->op_view, optional, G_N_ELEMENTS (optional), width - 4);
  return G_SOURCE_REMOVE;
}

static void
width_changed (OviDiffPage *self)
{
  if (self->fit_task == 0 && gtk_widget_get_width (GTK_WIDGET (self)) != self->fitted_width)
    self->fit_task = ovi_scheduler_add (fit_columns_cb, self, NULL);
}

/* Shown: the selected row (the first divergence) takes the keyboard. */
static void
ovi_diff_page_map (GtkWidget *widget)
{
  OviDiffPage *self = OVI_DIFF_PAGE (widget);

  GTK_WIDGET_CLASS (ovi_diff_page_parent_class)->map (widget);
  if (self->result != NULL)
    focus_selected_row (self);
}

static void
ovi_diff_page_dispose (GObject *object)
{
  OviDiffPage *self = OVI_DIFF_PAGE (object);

  ovi_columns_cancel_focus_soon (self->op_view);
  if (self->fit_task != 0)
    ovi_scheduler_remove (self->fit_task);
  self->fit_task = 0;

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  g_clear_object (&self->result);
  g_clear_pointer (&self->my_files, g_hash_table_unref);
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
  widget_class->map = ovi_diff_page_map;
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
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, overflows_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, settings_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, settings_popover);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, rtol_entry);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, atol_entry);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, map_entry);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, settings_error);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, retry_button);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, settings_button);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, apply_button);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, problems_expander);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, problems_label);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_search);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, divergent_toggle);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_view);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, device_column);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, type_column);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, cosine_column);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, max_abs_column);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, overflows_column);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_selection);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_filter);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, op_sort_model);
  gtk_widget_class_bind_template_child (widget_class, OviDiffPage, pair_view);
  gtk_widget_class_bind_template_callback (widget_class, apply_clicked);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, choose_map_clicked);
  gtk_widget_class_bind_template_callback (widget_class, overflow_link_activated);
  gtk_widget_class_bind_template_callback (widget_class, settings_popover_shown);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, class_classes);
  gtk_widget_class_bind_template_callback (widget_class, class_number);
  gtk_widget_class_bind_template_callback (widget_class, device_number);
  gtk_widget_class_bind_template_callback (widget_class, double_text);
  gtk_widget_class_bind_template_callback (widget_class, more_than_one);
  gtk_widget_class_bind_template_callback (widget_class, name_classes);
  gtk_widget_class_bind_template_callback (widget_class, name_text);
  gtk_widget_class_bind_template_callback (widget_class, nan_lowest);
  gtk_widget_class_bind_template_callback (widget_class, out_count);
  gtk_widget_class_bind_template_callback (widget_class, out_text);
  gtk_widget_class_bind_template_callback (widget_class, overflows_text);
  gtk_widget_class_bind_template_callback (widget_class, overflows_total);
  gtk_widget_class_bind_template_callback (widget_class, position_text);
  gtk_widget_class_bind_template_callback (widget_class, row_name);
  gtk_widget_class_bind_template_callback (widget_class, search_text);
  gtk_widget_class_install_action (widget_class, "diff.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "diff.export-json", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "diff.export-csv", NULL, export_action);
}

static void
ovi_diff_page_init (OviDiffPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->divergent_filter = gtk_custom_filter_new (op_visible, self, NULL);
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->op_filter), GTK_FILTER (self->divergent_filter));
  /* The table's width follows the page's: its adjustment says when it
   * changed (as on the Operators page). */
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->op_view)),
                           "changed", G_CALLBACK (width_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->op_view)),
                           "notify::page-size", G_CALLBACK (width_changed), self,
                           G_CONNECT_SWAPPED);
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
