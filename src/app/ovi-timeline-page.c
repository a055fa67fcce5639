/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ovi-accessible-row.h"
#include "ovi-columns.h"
#include "ovi-file-chooser.h"
#include "ovi-scheduler.h"
#include "ovi-timeline-page.h"
#include "ovi-timeline-strip.h"

/* Every device of the session's cluster (the opened folder's devices and
 * those of report files from other machines) by its first overflow, the
 * earliest marked, with where its overflows fall across iterations. A
 * device whose data stayed on another machine says so, with the command
 * to run there. */
struct _OviTimelinePage
{
  OviPage parent_instance;

  GtkStack *stack;
  GtkSearchEntry *search_entry;
  GtkLabel *span_label;
  GtkStack *rank_stack;
  AdwStatusPage *no_match_page;
  GtkFilterListModel *rank_filter_model;
  GtkCustomFilter *search_filter; /* owned by rank_filter_model */
  GStrv search_words;             /* the search, case-folded, word by word */
  GtkLabel *origin_note;          /* the cluster's ovi_cluster_dup_origin_note() */
  GtkColumnView *rank_view;
  GtkSingleSelection *rank_selection;
  GtkSliceListModel *rank_slice;
  GListStore *rank_copy; /* the cluster's ranks, as the table is given them */
  GtkWidget *details;
  GtkLabel *details_title;
  GtkLabel *details_text;
  GtkWidget *show_button;
  GtkWidget *remote_box;
  GtkLabel *remote_text;
  GtkLabel *command_label;

  guint64 data_first; /* the iterations any rank overflowed in */
  guint64 data_last;
  guint64 span_first; /* the iterations the strips show */
  guint64 span_last;
  guint grow_task; /* gives the table more rows, ovi-scheduler.c's */
  /* the columns whose width the page shares out (fit_columns_cb) */
  GtkColumnViewColumn *machine_column;
  GtkColumnViewColumn *device_column;
  GtkColumnViewColumn *iteration_column;
  GtkColumnViewColumn *time_column;
  GtkColumnViewColumn *op_column;
  GtkColumnViewColumn *status_column;
  GtkColumnViewColumn *role_column;
  GtkColumnViewColumn *strip_column;
  guint fit_task;
  int fitted_width;
  int time_width; /* the time column's, when it was last shown */
};

enum
{
  PROP_0,
  PROP_SPAN_FIRST,
  PROP_SPAN_LAST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviTimelinePage, ovi_timeline_page, OVI_TYPE_PAGE)

/* --- what the columns show ------------------------------------------------ */

/* The tags of the rows (a list item factory's own strings are not
 * extracted for translation). */
static char *
earliest_label (gpointer unused)
{
  return g_strdup (_ ("Earliest"));
}

static char *
collective_label (gpointer unused)
{
  return g_strdup (_ ("collective"));
}

static char *
collective_tooltip (gpointer unused)
{
  return g_strdup (_ ("An HCCL collective operator: it combines values from other devices"));
}

/* The machine of a rank: the host and the opened root. */
static char *
machine_text (gpointer unused, const char *host, const char *root)
{
  return host && *host ? g_strdup_printf ("%s:%s", host, root) : g_strdup (root);
}

static char *
device_text (gpointer unused, const char *device)
{
  return g_strdup (device ? device : "—");
}

static guint64
device_number (gpointer unused, const char *device)
{
  return device ? g_ascii_strtoull (device, NULL, 10) : G_MAXUINT64;
}

static char *
iteration_text (gpointer unused, OviRank *rank)
{
  if (rank == NULL || ovi_rank_get_role (rank) == OVI_RANK_ROLE_NONE)
    return g_strdup ("—");
  if (ovi_rank_has_iteration (rank))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, ovi_rank_get_iteration (rank));
  return g_strdup (ovi_rank_get_first_iteration (rank));
}

/* A file name's timestamp (µs since 1970) in local time: @format for the
 * date and time, then the microseconds. */
static char *
format_timestamp (guint64 timestamp, const char *format)
{
  g_autoptr (GDateTime) seconds =
      g_date_time_new_from_unix_local ((gint64) (timestamp / G_USEC_PER_SEC));
  g_autofree char *text = NULL;

  if (seconds == NULL)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, timestamp);
  text = g_date_time_format (seconds, format);
  return g_strdup_printf ("%s.%06u", text, (guint) (timestamp % G_USEC_PER_SEC));
}

static char *
time_text (gpointer unused, OviRankRole role, guint64 timestamp)
{
  if (role == OVI_RANK_ROLE_NONE)
    return g_strdup ("—");
  return format_timestamp (timestamp, "%H:%M:%S");
}

static char *
full_time_text (gpointer unused, OviRankRole role, guint64 timestamp)
{
  g_autofree char *number = NULL;
  g_autofree char *local = NULL;

  if (role == OVI_RANK_ROLE_NONE)
    return NULL;
  number = g_strdup_printf ("%" G_GUINT64_FORMAT, timestamp);
  local = format_timestamp (timestamp, "%Y-%m-%d %H:%M:%S");
  /* Translators: the local date and time, then a number of microseconds */
  return g_strdup_printf (_ ("%s, written at %s µs since 1970 (from the file name)"), local,
                          number);
}

static char *
status_text (gpointer unused, const char *unit, const char *summary)
{
  if (unit == NULL || !*unit)
    return g_strdup ("—");
  return g_strdup_printf ("%s: %s", ovi_unit_label (unit), summary ? summary : "");
}

static char *
op_text (gpointer unused, const char *op_type, const char *op_name)
{
  if (op_type == NULL || !*op_type)
    return g_strdup (op_name && *op_name ? op_name : "—");
  return g_strdup_printf ("%s %s", op_type, op_name ? op_name : "");
}

static char *
role_text (gpointer unused, OviRankRole role)
{
  switch (role)
    {
    case OVI_RANK_ROLE_ORIGIN:
      return g_strdup (C_ ("rank role", "Origin"));
    case OVI_RANK_ROLE_RECEIVED:
      return g_strdup (C_ ("rank role", "Received"));
    case OVI_RANK_ROLE_UNKNOWN:
      return g_strdup (C_ ("rank role", "Origin unknown"));
    case OVI_RANK_ROLE_NONE:
    default:
      return g_strdup (C_ ("rank role", "No overflow"));
    }
}

static const char *
describe_role (OviRankRole role)
{
  switch (role)
    {
    case OVI_RANK_ROLE_ORIGIN:
      return _ ("Its first overflow is its own: no other device had overflowed before, or it "
                "did not come in through a collective operator.");
    case OVI_RANK_ROLE_RECEIVED:
      return _ ("Its first bad values came in through a collective operator after another "
                "device had overflowed: it received them.");
    case OVI_RANK_ROLE_UNKNOWN:
      return _ ("Its first bad values came in through a collective operator, and no open "
                "device had overflowed before: they started on a device whose report is not "
                "open.");
    case OVI_RANK_ROLE_NONE:
    default:
      return _ ("No overflow was recorded on this device.");
    }
}

static char *
role_tooltip (gpointer unused, OviRankRole role)
{
  return g_strdup (describe_role (role));
}

static GStrv
role_classes (gpointer unused, OviRankRole role)
{
  const char *classes[] = {
    role == OVI_RANK_ROLE_ORIGIN                                      ? "role-origin"
    : role == OVI_RANK_ROLE_RECEIVED || role == OVI_RANK_ROLE_UNKNOWN ? "role-received"
                                                                      : "dim-label",
    NULL,
  };
  return g_strdupv ((char **) classes);
}

/* Devices without overflow after the others. */
static guint
overflow_order (gpointer unused, OviRankRole role)
{
  return role == OVI_RANK_ROLE_NONE;
}

static guint
role_order (gpointer unused, OviRankRole role)
{
  return role == OVI_RANK_ROLE_ORIGIN     ? 0
         : role == OVI_RANK_ROLE_UNKNOWN  ? 1
         : role == OVI_RANK_ROLE_RECEIVED ? 2
                                          : 3;
}

/* What a screen reader says for a row: the device, where and how it first
 * overflowed, and its role ("Earliest, node-a:/data/dump, device 3: first
 * overflow in iteration 5, Cast net/Cast_3 on AI Core, status 0x110
 * FP16+INT, Origin"). */
static char *
rank_row_name (gpointer unused, OviRank *rank, OviRankRole role, gboolean earliest)
{
  g_autofree char *label = NULL;
  g_autofree char *iteration = NULL;
  g_autofree char *op = NULL;
  g_autofree char *role_name = NULL;
  g_autofree char *name = NULL;

  if (rank == NULL)
    return NULL;
  label = ovi_rank_dup_label (rank);
  role_name = role_text (NULL, role);
  if (role == OVI_RANK_ROLE_NONE)
    /* Translators: a Timeline row read by a screen reader: the device
     * ("node-b:/data/dump, device 7"), then "No overflow" */
    return g_strdup_printf (_ ("%s: %s"), label, role_name);
  iteration = iteration_text (NULL, rank);
  op = op_text (NULL, ovi_rank_get_op_type (rank), ovi_rank_get_op_name (rank));
  name = g_strdup_printf (
      /* Translators: a Timeline row read by a screen reader: the device
       * ("node-b:/data/dump, device 7"), the iteration, the operator, the
       * unit, the status and the role ("Origin" or "Received") */
      _ ("%s: first overflow in iteration %s, %s on %s, status %s, %s"), label, iteration, op,
      ovi_rank_get_unit (rank),
      ovi_rank_get_status_summary (rank) ? ovi_rank_get_status_summary (rank) : "—", role_name);
  if (!earliest)
    return g_steal_pointer (&name);
  /* Translators: the Timeline row of the device that overflowed first,
   * read by a screen reader; %s is the rest of what the row says */
  return g_strdup_printf (_ ("Earliest, %s"), name);
}

/* --- the search ----------------------------------------------------------- */

/* Whether @word (case-folded) is in one of the rank's fields: the machine
 * (host and folder), the device as its label says it ("Device 7", so
 * "device" matches), the operator's type and name, the unit. A word that
 * is a number is a device number: "7" is device 7, not device 17 nor the
 * "1" of "allreduce_1". */
static gboolean
word_matches (const char *word, char *const *fields, const char *device)
{
  gboolean number = TRUE;

  for (const char *c = word; *c && number; c++)
    number = g_ascii_isdigit (*c);
  if (number)
    return device != NULL && ovi_path_natural_compare (word, device) == 0;
  for (guint i = 0; fields[i] != NULL; i++)
    if (strstr (fields[i], word) != NULL)
      return TRUE;
  return FALSE;
}

/* A rank is listed when every word of the search is found in one of its
 * fields, in any case and order: "node-b device 7", "allreduce". */
static gboolean
rank_matches (gpointer item, gpointer user_data)
{
  OviTimelinePage *self = user_data;
  OviRank *rank = item;
  const char *device = ovi_rank_get_device (rank);
  const char *texts[5];
  g_autofree char *machine = NULL;
  g_autofree char *device_label = NULL;
  char *fields[G_N_ELEMENTS (texts) + 1] = { NULL };
  gboolean matches = TRUE;
  guint n = 0;

  if (self->search_words == NULL || self->search_words[0] == NULL)
    return TRUE;
  machine = machine_text (NULL, ovi_rank_get_host (rank), ovi_rank_get_root (rank));
  /* Translators: %s is a device number */
  device_label = device ? g_strdup_printf (_ ("Device %s"), device) : NULL;
  texts[0] = machine;
  texts[1] = device_label;
  texts[2] = ovi_rank_get_op_type (rank);
  texts[3] = ovi_rank_get_op_name (rank);
  texts[4] = ovi_rank_get_unit (rank);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    if (texts[i] != NULL && *texts[i])
      fields[n++] = g_utf8_casefold (texts[i], -1);
  for (guint i = 0; matches && self->search_words[i] != NULL; i++)
    matches = word_matches (self->search_words[i], fields, device);
  for (guint i = 0; i < n; i++)
    g_free (fields[i]);
  return matches;
}

/* The table, or, when the search hides every device, a page saying so. */
static void
update_match_state (OviTimelinePage *self)
{
  gboolean none;

  if (self->rank_stack == NULL)
    return;
  none = self->search_words != NULL && self->search_words[0] != NULL && self->rank_copy != NULL &&
         g_list_model_get_n_items (G_LIST_MODEL (self->rank_filter_model)) == 0 &&
         g_list_model_get_n_items (G_LIST_MODEL (self->rank_copy)) > 0;
  if (none)
    {
      g_autofree char *description = g_strdup_printf (
          /* Translators: %s is what the user searched for */
          _ ("No device has every word of “%s” in its machine, device number, operator or "
             "unit."),
          gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));

      adw_status_page_set_description (self->no_match_page, description);
    }
  gtk_stack_set_visible_child_name (self->rank_stack, none ? "no-match" : "list");
}

static void
search_changed (OviTimelinePage *self)
{
  g_autofree char *folded =
      g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), -1);
  g_auto (GStrv) split = g_strsplit_set (folded, " \t\n", -1);
  GPtrArray *words = g_ptr_array_new ();

  /* Runs of spaces leave empty words, which would match anything. */
  for (guint i = 0; split[i] != NULL; i++)
    if (*split[i])
      g_ptr_array_add (words, g_strdup (split[i]));
  g_ptr_array_add (words, NULL);
  g_strfreev (self->search_words);
  self->search_words = (GStrv) g_ptr_array_free (words, FALSE);
  if (self->search_filter != NULL)
    gtk_filter_changed (GTK_FILTER (self->search_filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_match_state (self);
}

/* --- the strips ----------------------------------------------------------- */

static void
strip_setup (GtkSignalListItemFactory *factory, GtkListItem *item, OviTimelinePage *self)
{
  GtkWidget *strip = ovi_timeline_strip_new ();

  g_object_bind_property (self, "span-first", strip, "first", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "span-last", strip, "last", G_BINDING_SYNC_CREATE);
  gtk_list_item_set_child (item, strip);
}

static void
strip_bind (GtkSignalListItemFactory *factory, GtkListItem *item, OviTimelinePage *self)
{
  ovi_timeline_strip_set_rank (OVI_TIMELINE_STRIP (gtk_list_item_get_child (item)),
                               gtk_list_item_get_item (item));
}

static void
strip_unbind (GtkSignalListItemFactory *factory, GtkListItem *item, OviTimelinePage *self)
{
  ovi_timeline_strip_set_rank (OVI_TIMELINE_STRIP (gtk_list_item_get_child (item)), NULL);
}

/* --- the span of iterations ----------------------------------------------- */

static void
set_span (OviTimelinePage *self, guint64 first, guint64 last)
{
  g_autofree char *text = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  first = MAX (first, self->data_first);
  last = MIN (last, self->data_last);
  if (last < first)
    last = first;
  self->span_first = first;
  self->span_last = last;
  from = g_strdup_printf ("%" G_GUINT64_FORMAT, first);
  to = g_strdup_printf ("%" G_GUINT64_FORMAT, last);
  text = first == last ? g_strdup_printf (_ ("Iteration %s"), from)
                       : g_strdup_printf (_ ("Iterations %s–%s"), from, to);
  gtk_label_set_text (self->span_label, text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPAN_FIRST]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPAN_LAST]);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-in", last > first);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-out",
                                 first > self->data_first || last < self->data_last);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-reset",
                                 first > self->data_first || last < self->data_last);
}

static OviCluster *
get_cluster (OviTimelinePage *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));

  return session ? ovi_session_get_cluster (session) : NULL;
}

/* Zooming keeps the earliest overflow in view. */
static guint64
zoom_centre (OviTimelinePage *self)
{
  OviCluster *cluster = get_cluster (self);
  OviRank *earliest = cluster ? ovi_cluster_get_earliest (cluster) : NULL;

  if (earliest && ovi_rank_has_iteration (earliest) &&
      ovi_rank_get_iteration (earliest) >= self->span_first &&
      ovi_rank_get_iteration (earliest) <= self->span_last)
    return ovi_rank_get_iteration (earliest);
  return self->span_first + (self->span_last - self->span_first) / 2;
}

static void
zoom (OviTimelinePage *self, double factor)
{
  guint64 centre = zoom_centre (self);
  double width = ((double) (self->span_last - self->span_first) + 1) * factor;
  double before = (double) (centre - self->span_first) * factor;
  guint64 first = (double) centre - before < (double) self->data_first
                      ? self->data_first
                      : (guint64) ((double) centre - before);

  set_span (self, first, first + (guint64) MAX (width, 1.0) - 1);
}

static void
zoom_in_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  zoom (OVI_TIMELINE_PAGE (widget), 0.5);
}

static void
zoom_out_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  zoom (OVI_TIMELINE_PAGE (widget), 2.0);
}

static void
zoom_reset_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (widget);

  set_span (self, self->data_first, self->data_last);
}

/* --- the selected device -------------------------------------------------- */

/* Whether the rank's files are the opened folder's, on this machine. */
static gboolean
rank_is_local (OviTimelinePage *self, OviRank *rank)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDumpFolder *folder = session ? ovi_session_get_folder (session) : NULL;

  if (folder == NULL || g_strcmp0 (ovi_rank_get_host (rank), g_get_host_name ()) != 0)
    return FALSE;
  for (guint i = 0; i < ovi_dump_folder_get_n_roots (folder); i++)
    {
      g_autofree char *root =
          g_filename_display_name (ovi_dump_folder_get_nth_root_path (folder, i));

      if (g_strcmp0 (ovi_rank_get_root (rank), root) == 0)
        return TRUE;
    }
  return FALSE;
}

/* What to run on the rank's machine to see its operator's tensors. */
static char *
remote_command (OviRank *rank)
{
  const char *file =
      ovi_rank_get_op_file (rank) ? ovi_rank_get_op_file (rank) : ovi_rank_get_file (rank);
  g_autofree char *path = g_build_filename (ovi_rank_get_root (rank), file, NULL);
  g_autofree char *quoted = g_shell_quote (path);

  if (ovi_rank_get_op_file (rank) != NULL)
    return g_strdup_printf ("overflow-inspector-cli stats %s", quoted);
  return g_strdup_printf ("overflow-inspector-cli report %s", quoted);
}

static void
selection_changed (OviTimelinePage *self)
{
  OviRank *rank = gtk_single_selection_get_selected_item (self->rank_selection);
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;
  gboolean local, overflowed;

  gtk_widget_set_visible (self->details, rank != NULL);
  if (rank == NULL)
    return;
  local = rank_is_local (self, rank);
  overflowed = ovi_rank_get_role (rank) != OVI_RANK_ROLE_NONE;
  {
    g_autofree char *label = ovi_rank_dup_label (rank);
    g_autofree char *iteration = iteration_text (NULL, rank);

    title = overflowed
                ? g_strdup_printf (_ ("%s: first overflow in iteration %s"), label, iteration)
                : g_strdup (label);
  }
  if (overflowed)
    {
      g_autofree char *op =
          op_text (NULL, ovi_rank_get_op_type (rank), ovi_rank_get_op_name (rank));

      text = g_strdup_printf (
          _ ("%s on %s, status %s. %s"), op, ovi_rank_get_unit (rank),
          ovi_rank_get_status_summary (rank) ? ovi_rank_get_status_summary (rank) : "—",
          describe_role (ovi_rank_get_role (rank)));
    }
  else
    text = g_strdup (describe_role (OVI_RANK_ROLE_NONE));
  gtk_label_set_text (self->details_title, title);
  gtk_label_set_text (self->details_text, text);
  gtk_widget_set_visible (self->show_button, local && overflowed);
  gtk_widget_set_visible (self->remote_box, !local && overflowed);
  if (!local && overflowed)
    {
      g_autofree char *where = g_strdup_printf (
          _ ("The dump files of this device stayed on %s, in %s. To see the operator's tensors, "
             "run this there:"),
          *ovi_rank_get_host (rank) ? ovi_rank_get_host (rank) : _ ("the machine that wrote them"),
          ovi_rank_get_root (rank));
      g_autofree char *command = remote_command (rank);

      gtk_label_set_text (self->remote_text, where);
      gtk_label_set_text (self->command_label, command);
    }
}

static void
show_record_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (widget);
  OviRank *rank = gtk_single_selection_get_selected_item (self->rank_selection);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *path = NULL;

  if (rank == NULL || !GTK_IS_APPLICATION_WINDOW (root))
    return;
  path = g_build_filename (ovi_rank_get_root (rank), ovi_rank_get_file (rank), NULL);
  gtk_widget_activate_action (widget, "app.show-record", "(us)",
                              gtk_application_window_get_id (GTK_APPLICATION_WINDOW (root)), path);
}

static void
copy_command_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (widget);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          gtk_label_get_text (self->command_label));
}

/* --- report files --------------------------------------------------------- */

static void
show_toast (OviTimelinePage *self, const char *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
  else
    g_warning ("%s", message);
}

static void
reports_added (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviTimelinePage) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!ovi_session_add_reports_finish (OVI_SESSION (object), result, &error))
    show_toast (self, error->message);
}

/**
 * ovi_timeline_page_add_reports:
 *
 * Adds report files to the session's timeline; a file that cannot be read
 * is named in a toast, and the others are added.
 */
void
ovi_timeline_page_add_reports (OviTimelinePage *self, GListModel *files)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (OVI_IS_TIMELINE_PAGE (self));

  if (session == NULL || files == NULL)
    return;
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));
  ovi_session_add_reports_async (session, (GFile *const *) array->pdata, array->len, NULL,
                                 reports_added, g_object_ref (self));
}

static void
reports_chosen (GListModel *files, gpointer user_data)
{
  g_autoptr (OviTimelinePage) self = user_data;

  ovi_timeline_page_add_reports (self, files);
}

static void
add_reports_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ovi_file_chooser_open_reports (GTK_WINDOW (gtk_widget_get_root (widget)), _ ("Add Reports"),
                                 reports_chosen, g_object_ref (widget));
}

/* --- feeding the table ----------------------------------------------------- */

/* GTK 4.8 builds the widgets of a list's first 200 rows as soon as they
 * exist, some 6 ms a row for this table: a thousand devices arriving at
 * once would hold the main loop for over a second. The table is given a
 * copy of the cluster's ranks through a slice that grows a few rows a
 * turn of the scheduler (to all of them once it has 200) whenever many
 * arrive at once. */
#define ROWS_PER_TURN 4
#define ROWS_BUILT 200

static gboolean
grow_rows (gint64 deadline, gpointer data)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (data);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rank_copy));
  guint size = gtk_slice_list_model_get_size (self->rank_slice);

  if (size >= n || size >= ROWS_BUILT)
    {
      gtk_slice_list_model_set_size (self->rank_slice, G_MAXUINT);
      self->grow_task = 0;
      return FALSE;
    }
  gtk_slice_list_model_set_size (self->rank_slice, size + ROWS_PER_TURN);
  return TRUE;
}

static void
ranks_changed (OviTimelinePage *self, guint position, guint removed, guint added, GListModel *ranks)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->rank_copy == NULL)
    return;
  for (guint i = position; i < position + added; i++)
    g_ptr_array_add (items, g_list_model_get_item (ranks, i));
  /* Rows built already are bound again, which is cheap; only new ones wait. */
  if (added > ROWS_PER_TURN && self->grow_task == 0 && self->rank_slice != NULL)
    {
      gtk_slice_list_model_set_size (self->rank_slice,
                                     MIN (position + removed, ROWS_BUILT) + ROWS_PER_TURN);
      self->grow_task = ovi_scheduler_add (grow_rows, self, NULL);
    }
  g_list_store_splice (self->rank_copy, position, removed, items->pdata, items->len);
}

/* --- sharing the width ------------------------------------------------------ */

/* The strip gives way before text does, but keeps a share of the table
 * to be read: this part of its width, and never less than STRIP_MIN. */
#define STRIP_SHARE 5
#define STRIP_MIN 120
/* A text column cut to make room still shows this much. */
#define TEXT_MIN 60
/* How many rows the widths of the text columns are measured on. */
#define ROWS_MEASURED 200

/* The width the table is shown in (it scrolls if its columns are wider). */
static int
table_width (OviTimelinePage *self)
{
  return (int) gtk_adjustment_get_page_size (
      gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->rank_view)));
}

static int
text_width (PangoLayout *layout, const char *text)
{
  int width = 0;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* What the machine, operator and status columns need to show their
 * texts whole, over the first rows. */
static void
wanted_widths (OviTimelinePage *self, int padding, int wanted[3])
{
  GListModel *ranks = G_LIST_MODEL (self->rank_copy);
  g_autoptr (PangoLayout) layout =
      gtk_widget_create_pango_layout (GTK_WIDGET (self->rank_view), NULL);
  g_autofree char *collective = collective_label (NULL);
  /* the tag: its text, its padding and the space before it */
  int tag = text_width (layout, collective) + 16 + 6;

  wanted[0] = wanted[1] = wanted[2] = 0;
  for (guint i = 0; i < MIN (g_list_model_get_n_items (ranks), ROWS_MEASURED); i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (ranks, i);
      g_autofree char *machine =
          machine_text (NULL, ovi_rank_get_host (rank), ovi_rank_get_root (rank));
      g_autofree char *op =
          op_text (NULL, ovi_rank_get_op_type (rank), ovi_rank_get_op_name (rank));
      g_autofree char *status =
          status_text (NULL, ovi_rank_get_unit (rank), ovi_rank_get_status_summary (rank));

      wanted[0] = MAX (wanted[0], text_width (layout, machine));
      wanted[1] =
          MAX (wanted[1], text_width (layout, op) + (ovi_rank_get_collective (rank) ? tag : 0));
      wanted[2] = MAX (wanted[2], text_width (layout, status));
    }
  for (guint i = 0; i < 3; i++)
    wanted[i] += padding;
}

/* Shares the table's width out: the columns GTK sizes by their cells
 * (device, iteration, time, role) keep theirs; the machine, operator and
 * status get what their texts need; the strip takes the rest, at least
 * its share. When the texts cannot all have their width, the strip keeps
 * its share and they share what is left in proportion to their needs,
 * each cut in a way its tooltip makes whole, never narrower than its
 * header. When even that does not fit (800 px), the time goes: the
 * details below the table give it for the selected device. */
static gboolean
fit_columns_cb (gint64 deadline, gpointer data)
{
  OviTimelinePage *self = data;
  GtkColumnViewColumn *sized[] = { self->device_column, self->iteration_column, self->role_column };
  GtkColumnViewColumn *shared[] = { self->machine_column, self->op_column, self->status_column };
  int width = table_width (self);
  int padding = ovi_columns_cell_padding (self->rank_view);
  int wanted[3], least[3], total = 0, total_least = 0, fixed = 0, budget, available, strip;
  gboolean show_time;

  if (width <= 0 || width == self->fitted_width)
    {
      self->fit_task = 0;
      return FALSE;
    }
  /* The headers are laid out at the next frame. */
  if (padding == 0)
    return gtk_widget_get_mapped (GTK_WIDGET (self->rank_view));
  for (guint i = 0; i < G_N_ELEMENTS (sized); i++)
    {
      int column_width = ovi_columns_laid_out_width (self->rank_view, sized[i]);

      if (column_width == 0)
        return TRUE;
      fixed += column_width;
    }
  if (gtk_column_view_column_get_visible (self->time_column))
    {
      if ((self->time_width = ovi_columns_laid_out_width (self->rank_view, self->time_column)) == 0)
        return TRUE;
    }
  self->fit_task = 0;
  self->fitted_width = width;
  wanted_widths (self, padding, wanted);
  strip = MAX (MAX (STRIP_MIN, width / STRIP_SHARE),
               ovi_columns_title_width (self->rank_view, self->strip_column));
  for (guint i = 0; i < 3; i++)
    {
      least[i] = MAX (TEXT_MIN, ovi_columns_title_width (self->rank_view, shared[i]));
      total += wanted[i];
      total_least += least[i];
    }
  /* The border and the scrollbar's edge stay free. */
  budget = width - 4 - fixed - strip;
  show_time = budget - self->time_width >= total_least;
  if (show_time)
    budget -= self->time_width;
  if (gtk_column_view_column_get_visible (self->time_column) != show_time)
    gtk_column_view_column_set_visible (self->time_column, show_time);
  available = budget;
  for (guint i = 0; i < 3; i++)
    {
      int share = total <= available || total == 0 ? wanted[i] : wanted[i] * available / total;

      share = MAX (share, least[i]);
      gtk_column_view_column_set_fixed_width (shared[i], share);
      budget -= share;
    }
  /* What the texts left (the column expands into it), never less than its
   * header. */
  gtk_column_view_column_set_fixed_width (
      self->strip_column,
      MAX (strip + budget, ovi_columns_title_width (self->rank_view, self->strip_column)));
  return FALSE;
}

static void
refit_columns (OviTimelinePage *self)
{
  self->fitted_width = 0;
  if (self->fit_task == 0)
    self->fit_task = ovi_scheduler_add (fit_columns_cb, self, NULL);
}

static void
width_changed (OviTimelinePage *self)
{
  if (self->fit_task == 0 && table_width (self) != self->fitted_width)
    self->fit_task = ovi_scheduler_add (fit_columns_cb, self, NULL);
}

/* --- the session ---------------------------------------------------------- */

static void
cluster_changed (OviTimelinePage *self)
{
  OviCluster *cluster = get_cluster (self);
  GListModel *ranks = cluster ? ovi_cluster_get_ranks (cluster) : NULL;
  guint n = ranks ? g_list_model_get_n_items (ranks) : 0;
  gboolean had_span = self->data_last >= self->data_first && self->span_last > 0;
  gboolean whole =
      !had_span || (self->span_first == self->data_first && self->span_last == self->data_last);
  guint64 lo = G_MAXUINT64, hi = 0;

  /* Called from dispose too, with the template's widgets gone. */
  if (self->stack == NULL)
    return;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = g_list_model_get_item (ranks, i);
      guint n_iterations = 0;
      const OviRankIteration *iterations = ovi_rank_get_iterations (rank, &n_iterations);

      if (n_iterations == 0)
        continue;
      lo = MIN (lo, iterations[0].iteration);
      hi = MAX (hi, iterations[n_iterations - 1].iteration);
    }
  if (hi < lo)
    lo = hi = 0;
  {
    g_autofree char *note = cluster ? ovi_cluster_dup_origin_note (cluster) : NULL;

    gtk_label_set_text (self->origin_note, note ? note : "");
    gtk_widget_set_visible (GTK_WIDGET (self->origin_note), note != NULL);
  }
  self->data_first = lo;
  self->data_last = hi;
  /* A span the user zoomed to stays, within the data. */
  if (whole)
    set_span (self, lo, hi);
  else
    set_span (self, self->span_first, self->span_last);
  gtk_stack_set_visible_child_name (self->stack, n ? "table" : "empty");
  update_match_state (self);
  selection_changed (self);
  /* Other texts: other widths. */
  refit_columns (self);
}

static void
ovi_timeline_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (
        ovi_cluster_get_ranks (ovi_session_get_cluster (old_session)), self);
  if (session != NULL)
    {
      GListModel *ranks = ovi_cluster_get_ranks (ovi_session_get_cluster (session));

      g_signal_connect_object (ranks, "items-changed", G_CALLBACK (ranks_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (ranks, "items-changed", G_CALLBACK (cluster_changed), self,
                               G_CONNECT_SWAPPED);
      ranks_changed (self, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rank_copy)),
                     g_list_model_get_n_items (ranks), ranks);
    }
  else if (self->rank_copy != NULL)
    g_list_store_remove_all (self->rank_copy);
  cluster_changed (self);
}

static void
ovi_timeline_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (object);

  switch (prop_id)
    {
    case PROP_SPAN_FIRST:
      g_value_set_uint64 (value, self->span_first);
      break;
    case PROP_SPAN_LAST:
      g_value_set_uint64 (value, self->span_last);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_timeline_page_map (GtkWidget *widget)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (widget));

  GTK_WIDGET_CLASS (ovi_timeline_page_parent_class)->map (widget);
  if (session != NULL)
    ovi_session_set_cluster_shown (session, TRUE);
}

static void
ovi_timeline_page_unmap (GtkWidget *widget)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (widget));

  if (session != NULL)
    ovi_session_set_cluster_shown (session, FALSE);
  GTK_WIDGET_CLASS (ovi_timeline_page_parent_class)->unmap (widget);
}

static void
ovi_timeline_page_dispose (GObject *object)
{
  OviTimelinePage *self = OVI_TIMELINE_PAGE (object);

  ovi_scheduler_remove (self->grow_task);
  self->grow_task = 0;
  if (self->rank_filter_model != NULL)
    g_signal_handlers_disconnect_by_data (self->rank_filter_model, self);
  if (self->fit_task != 0)
    ovi_scheduler_remove (self->fit_task);
  self->fit_task = 0;
  gtk_widget_dispose_template (GTK_WIDGET (object), OVI_TYPE_TIMELINE_PAGE);
  self->rank_slice = NULL;
  self->rank_filter_model = NULL;
  self->rank_stack = NULL;
  self->search_filter = NULL;
  g_clear_pointer (&self->search_words, g_strfreev);
  g_clear_object (&self->rank_copy);
  G_OBJECT_CLASS (ovi_timeline_page_parent_class)->dispose (object);
}

static void
ovi_timeline_page_class_init (OviTimelinePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  OviPageClass *page_class = OVI_PAGE_CLASS (klass);

  object_class->dispose = ovi_timeline_page_dispose;
  object_class->get_property = ovi_timeline_page_get_property;
  widget_class->map = ovi_timeline_page_map;
  widget_class->unmap = ovi_timeline_page_unmap;
  page_class->session_changed = ovi_timeline_page_session_changed;

  properties[PROP_SPAN_FIRST] = g_param_spec_uint64 ("span-first", NULL, NULL, 0, G_MAXUINT64, 0,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPAN_LAST] = g_param_spec_uint64 ("span-last", NULL, NULL, 0, G_MAXUINT64, 0,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (OVI_TYPE_ACCESSIBLE_ROW);
  g_type_ensure (OVI_TYPE_RANK);
  g_type_ensure (OVI_TYPE_CLUSTER);
  g_type_ensure (OVI_TYPE_SESSION);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-timeline-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, command_label);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, details);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, details_text);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, details_title);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, rank_selection);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, rank_slice);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, rank_view);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, no_match_page);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, rank_filter_model);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, rank_stack);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, machine_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, device_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, iteration_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, time_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, op_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, status_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, role_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, strip_column);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, remote_box);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, remote_text);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, show_button);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, origin_note);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, span_label);
  gtk_widget_class_bind_template_child (widget_class, OviTimelinePage, stack);
  gtk_widget_class_bind_template_callback (widget_class, iteration_text);
  gtk_widget_class_bind_template_callback (widget_class, op_text);
  gtk_widget_class_bind_template_callback (widget_class, overflow_order);
  gtk_widget_class_bind_template_callback (widget_class, collective_label);
  gtk_widget_class_bind_template_callback (widget_class, collective_tooltip);
  gtk_widget_class_bind_template_callback (widget_class, device_number);
  gtk_widget_class_bind_template_callback (widget_class, earliest_label);
  gtk_widget_class_bind_template_callback (widget_class, device_text);
  gtk_widget_class_bind_template_callback (widget_class, full_time_text);
  gtk_widget_class_bind_template_callback (widget_class, machine_text);
  gtk_widget_class_bind_template_callback (widget_class, search_changed);
  gtk_widget_class_bind_template_callback (widget_class, rank_row_name);
  gtk_widget_class_bind_template_callback (widget_class, role_classes);
  gtk_widget_class_bind_template_callback (widget_class, role_order);
  gtk_widget_class_bind_template_callback (widget_class, role_text);
  gtk_widget_class_bind_template_callback (widget_class, role_tooltip);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, status_text);
  gtk_widget_class_bind_template_callback (widget_class, strip_bind);
  gtk_widget_class_bind_template_callback (widget_class, strip_setup);
  gtk_widget_class_bind_template_callback (widget_class, strip_unbind);
  gtk_widget_class_bind_template_callback (widget_class, time_text);
  gtk_widget_class_bind_template_callback (widget_class, update_match_state);
  gtk_widget_class_install_action (widget_class, "timeline.add-reports", NULL, add_reports_action);
  gtk_widget_class_install_action (widget_class, "timeline.copy-command", NULL,
                                   copy_command_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-record", NULL, show_record_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-reset", NULL, zoom_reset_action);
}

static void
ovi_timeline_page_init (OviTimelinePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->search_filter = gtk_custom_filter_new (rank_matches, self, NULL);
  gtk_filter_list_model_set_filter (self->rank_filter_model, GTK_FILTER (self->search_filter));
  g_object_unref (self->search_filter);
  self->rank_copy = g_list_store_new (OVI_TYPE_RANK);
  gtk_slice_list_model_set_model (self->rank_slice, G_LIST_MODEL (self->rank_copy));
  gtk_slice_list_model_set_size (self->rank_slice, G_MAXUINT);
  gtk_widget_set_visible (self->details, FALSE);
  set_span (self, 0, 0);
  /* The table's width follows the page's: its adjustment says when. */
  g_signal_connect_object (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->rank_view)),
                           "notify::page-size", G_CALLBACK (width_changed), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
ovi_timeline_page_new (void)
{
  return g_object_new (OVI_TYPE_TIMELINE_PAGE, NULL);
}

GtkColumnView *
ovi_timeline_page_get_column_view (OviTimelinePage *self)
{
  g_return_val_if_fail (OVI_IS_TIMELINE_PAGE (self), NULL);
  return self->rank_view;
}

/**
 * ovi_timeline_page_select_rank:
 *
 * Returns: %FALSE when the table does not list @rank (a search hides it)
 */
gboolean
ovi_timeline_page_select_rank (OviTimelinePage *self, OviRank *rank)
{
  GListModel *model = G_LIST_MODEL (self->rank_selection);

  g_return_val_if_fail (OVI_IS_TIMELINE_PAGE (self), FALSE);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (OviRank) item = g_list_model_get_item (model, i);

      if (item == rank)
        {
          gtk_single_selection_set_selected (self->rank_selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

void
ovi_timeline_page_get_span (OviTimelinePage *self, guint64 *first, guint64 *last)
{
  g_return_if_fail (OVI_IS_TIMELINE_PAGE (self));
  *first = self->span_first;
  *last = self->span_last;
}
