/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-format.h"
#include "ovi-record-view.h"
#include "ovi-tooltip.h"

/* The details of one overflow record: its status as a checklist of the
 * documented bits, its raw fields with copy buttons, and the operator it
 * points at with that operator's tensors.
 *
 * The keyboard: each group is one tab stop, its rows are reached with the
 * arrow keys, as in GNOME Settings' boxed lists. A row's value label and
 * copy button are no tab stops: Enter on a field copies its value, Enter
 * on a tensor shows it. */

struct _OviRecordView
{
  GtkWidget parent_instance;

  AdwPreferencesGroup *fields_group;
  AdwPreferencesGroup *op_group;
  GtkStack *stack;
  AdwPreferencesGroup *status_group;
  AdwPreferencesGroup *tensor_group;
  GtkLabel *title_label;

  OviOverflowRecord *record;
  GPtrArray *rows;          /* (element-type GtkWidget) rows added to the groups */
  GPtrArray *status_rows;   /* unowned, subset of rows */
  GPtrArray *status_checks; /* unowned, the check button of each status row */
};

enum
{
  PROP_0,
  PROP_RECORD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviRecordView, ovi_record_view, GTK_TYPE_WIDGET)

static void
add_row (OviRecordView *self, AdwPreferencesGroup *group, GtkWidget *row)
{
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->rows, row);
}

/* A row whose title and subtitle stay on one line, for the short texts of
 * fields, status bits and tensors. GTK 4.8 measures a wrapping label's
 * width for the row's height by a binary search of Pango layouts, about 24
 * for each title and subtitle, when a row is first laid out: the first
 * record's details took 38 ms of layouts that way (benchmarks/README.md,
 * "Long turns and page faults"). Long names and paths keep wrapping. */
static GtkWidget *
one_line_row_new (const char *title, const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  if (subtitle != NULL)
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
      /* all of it where the pane is too narrow */
      ovi_widget_set_tooltip (row, subtitle);
    }
  return row;
}

static void
copy_clicked (GtkButton *button, const char *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)), text);
}

/* A field shown as @value, with @raw (what the file holds) in its tooltip
 * and on the clipboard. */
static void
add_field_full (OviRecordView *self, const char *name, const char *value, const char *raw)
{
  GtkWidget *row = one_line_row_new (name, NULL);
  GtkWidget *value_label = gtk_label_new (value);
  GtkWidget *button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  g_autofree char *copy_name = g_strdup_printf (_ ("Copy %s"), name);

  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  /* Selectable with the mouse; the keyboard copies from the row. (A
   * label that only is not focusable still claims a focus move.) */
  gtk_widget_set_can_focus (value_label, FALSE);
  gtk_label_set_ellipsize (GTK_LABEL (value_label), PANGO_ELLIPSIZE_START);
  ovi_widget_set_tooltip (value_label, raw);
  gtk_widget_add_css_class (value_label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  ovi_widget_set_tooltip (button, copy_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, copy_name,
                                  -1);
  g_signal_connect_data (button, "clicked", G_CALLBACK (copy_clicked), g_strdup (raw),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  gtk_widget_set_focusable (button, FALSE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  /* What Ctrl+C on the row copies. */
  g_object_set_data_full (G_OBJECT (row), "ovi-copy", g_strdup (raw), g_free);
  add_row (self, self->fields_group, row);
}

static void
add_field (OviRecordView *self, const char *name, const char *value)
{
  add_field_full (self, name, value, value);
}

/* When the overflow happened, in local time, and how long after the
 * previous overflow of the same run and device. */
static void
add_time_fields (OviRecordView *self, OviOverflowRecord *record)
{
  OviDumpFile *file = ovi_overflow_record_get_file (record);
  guint64 timestamp = file ? ovi_dump_file_get_timestamp (file) : 0;
  g_autofree char *date = ovi_format_timestamp (timestamp);
  g_autofree char *raw = ovi_format_count (timestamp);
  gint64 gap;

  if (file == NULL)
    return;
  add_field_full (self, _ ("Time"), date, raw);
  if (ovi_overflow_record_get_gap (record, &gap))
    {
      g_autofree char *gap_text = ovi_format_gap (gap);
      g_autofree char *gap_raw = g_strdup_printf ("%" G_GINT64_FORMAT, gap);

      /* Translators: a field of an overflow record: "+1.2 ms" */
      add_field_full (self, _ ("Since previous overflow"), gap_text, gap_raw);
    }
}

static void
add_field_u64 (OviRecordView *self, const char *name, guint64 value, gboolean hex)
{
  g_autofree char *text =
      hex ? g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", value) : ovi_format_count (value);
  add_field (self, name, text);
}

static void
add_status_row (
    OviRecordView *self, const char *title, const char *subtitle, gboolean set, gboolean known)
{
  GtkWidget *row = one_line_row_new (title, subtitle);
  GtkWidget *check = gtk_check_button_new ();

  /* A bit's description is a sentence that the pane's width cuts
   * ("Integer add, subtract, multiply or multiply-ad…"): it wraps. Six
   * rows at most, so the layouts a wrapping label costs stay few. */
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), set);
  /* A checklist to read, not to edit. */
  gtk_widget_set_can_target (check, FALSE);
  gtk_widget_set_can_focus (check, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  if (set)
    gtk_widget_add_css_class (row, known ? "status-set" : "status-unknown");
  add_row (self, self->status_group, row);
  g_ptr_array_add (self->status_rows, row);
  g_ptr_array_add (self->status_checks, check);
}

static void
show_status (OviRecordView *self, OviOverflowRecord *record)
{
  guint64 mask = ovi_overflow_record_get_flags_mask (record);
  g_autofree char *hex = ovi_overflow_record_dup_status_hex (record);
  g_autofree char *description = NULL;
  guint n_bits = 0;
  const OviStatusBit *bits = ovi_status_bits (&n_bits);
  guint64 known = 0;

  if (ovi_overflow_record_get_source (record) == OVI_RECORD_SOURCE_DATA)
    {
      /* No overflow file, so no status register: say where it was found. */
      description = ovi_overflow_record_dup_status_summary (record);
      adw_preferences_group_set_description (self->status_group, description);
      return;
    }
  if (!ovi_unit_has_status_bits (ovi_overflow_record_get_unit (record)))
    {
      description = g_strdup_printf (
          _ ("%s = %llu: a status greater than zero means an overflow in the %s unit."), hex,
          (unsigned long long) ovi_overflow_record_get_status (record),
          ovi_unit_label (ovi_overflow_record_get_unit_name (record)));
      adw_preferences_group_set_description (self->status_group, description);
      return;
    }

  description =
      g_strdup_printf (_ ("%s = %llu; the checked bits are set."), hex, (unsigned long long) mask);
  adw_preferences_group_set_description (self->status_group, description);
  for (guint i = 0; i < n_bits; i++)
    {
      g_autofree char *title =
          g_strdup_printf ("0x%" G_GINT64_MODIFIER "x %s", bits[i].bit, bits[i].name);

      add_status_row (self, title, _ (bits[i].description), (mask & bits[i].bit) != 0, TRUE);
      known |= bits[i].bit;
    }
  for (guint i = 0; i < 64; i++)
    {
      guint64 bit = G_GUINT64_CONSTANT (1) << i;

      if ((mask & bit) && !(known & bit))
        {
          g_autofree char *title =
              g_strdup_printf (_ ("0x%llx Unknown bit"), (unsigned long long) bit);

          add_status_row (self, title, _ ("Set, but not documented by the vendor"), TRUE, FALSE);
        }
    }
}

static gboolean
blame_to_description (GBinding *binding, const GValue *from, GValue *to, gpointer unused)
{
  g_value_set_string (to, ovi_blame_describe (g_value_get_enum (from)));
  return TRUE;
}

static void
show_operator (OviRecordView *self, OviOverflowRecord *record)
{
  OviDumpFile *op = ovi_overflow_record_get_op (record);
  GPtrArray *tensors;
  GtkWidget *row;

  gtk_widget_set_visible (GTK_WIDGET (self->tensor_group), FALSE);
  if (op == NULL)
    {
      adw_preferences_group_set_description (
          self->op_group,
          _ ("No op dump file in this folder matches the task id and stream id of this record."));
      return;
    }

  adw_preferences_group_set_description (self->op_group, NULL);
  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), ovi_dump_file_get_op_name (op));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), ovi_dump_file_get_op_type (op));
  {
    /* False positives (uninitialised buffers...) go on the ignore list;
     * once there, the same button takes them off it. (The session selects
     * the record again when the list changes, so the row is rebuilt.) */
    gboolean ignored = ovi_overflow_record_get_ignored (record);
    GtkWidget *ignore =
        gtk_button_new_with_label (ignored ? _ ("Stop Ignoring") : _ ("Ignore Type"));
    gtk_widget_set_valign (ignore, GTK_ALIGN_CENTER);
    ovi_widget_set_tooltip (
        ignore,
        ignored ? _ ("Count operators like this one again for the first overflow and the origins")
                : _ ("Leave operators of this type out of the first overflow and the origins"));
    if (ignored)
      {
        gtk_actionable_set_action_name (GTK_ACTIONABLE (ignore), "win.stop-ignoring");
        gtk_actionable_set_action_target (GTK_ACTIONABLE (ignore), "(sms)",
                                          ovi_dump_file_get_op_type (op),
                                          ovi_dump_file_get_op_name (op));
      }
    else
      {
        gtk_actionable_set_action_name (GTK_ACTIONABLE (ignore), "win.ignore-op-type");
        gtk_actionable_set_action_target (GTK_ACTIONABLE (ignore), "s",
                                          ovi_dump_file_get_op_type (op));
      }
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), ignore);
  }
  add_row (self, self->op_group, row);

  /* The class core finds for the operator, once its summary arrives. */
  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _ ("Class"));
  g_object_bind_property_full (op, "blame", row, "subtitle", G_BINDING_SYNC_CREATE,
                               blame_to_description, NULL, NULL, NULL);
  g_object_bind_property (op, "analyzed", row, "visible", G_BINDING_SYNC_CREATE);
  add_row (self, self->op_group, row);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _ ("File"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), ovi_dump_file_get_relative_path (op));
  add_row (self, self->op_group, row);

  tensors = ovi_dump_file_get_tensors (op);
  gtk_widget_set_visible (GTK_WIDGET (self->tensor_group), tensors != NULL && tensors->len > 0);
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      OviTensor *tensor = g_ptr_array_index (tensors, i);
      g_autofree char *label = ovi_tensor_dup_label (tensor);
      g_autofree char *shape = ovi_tensor_dup_shape_string (tensor);
      g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (tensor));
      g_autofree char *subtitle = g_strdup_printf ("%s %s", dtype, shape);
      g_autofree char *button_name = g_strdup_printf (_ ("Show %s"), label);
      GtkWidget *button = gtk_button_new_with_label (_ ("Show"));

      row = one_line_row_new (label, subtitle);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      button_name, -1);
      /* The window shows tensor @i of the operator, found by its path. */
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.show-tensor");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(su)",
                                        ovi_dump_file_get_path (op), i);
      gtk_widget_set_focusable (button, FALSE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
      add_row (self, self->tensor_group, row);
    }
}

static void
clear_rows (OviRecordView *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);

      adw_preferences_group_remove (
          ADW_PREFERENCES_GROUP (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP)), row);
    }
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->status_rows, 0);
  g_ptr_array_set_size (self->status_checks, 0);
}

/* Ctrl+C on a row: a field's value as the file has it (as its copy
 * button copies it), another row's name and value, a tab between. */
static gboolean
copy_focused_row (GtkWidget *widget, GVariant *args, gpointer unused)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  GtkWidget *row = focus && ADW_IS_ACTION_ROW (focus)
                       ? focus
                       : (focus ? gtk_widget_get_ancestor (focus, ADW_TYPE_ACTION_ROW) : NULL);
  const char *raw, *title, *subtitle;
  g_autofree char *text = NULL;

  if (row == NULL || !gtk_widget_is_ancestor (row, widget))
    return FALSE;
  raw = g_object_get_data (G_OBJECT (row), "ovi-copy");
  title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
  if (raw != NULL)
    text = g_strdup (raw);
  else if (subtitle != NULL && *subtitle != '\0')
    text = g_strdup_printf ("%s\t%s", title, subtitle);
  else
    text = g_strdup (title);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  return TRUE;
}

/* The list box of the rows of @group (AdwPreferencesGroup's own). */
static GtkWidget *
group_list (GtkWidget *group)
{
  for (GtkWidget *child = gtk_widget_get_first_child (group); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *list = GTK_IS_LIST_BOX (child) ? child : group_list (child);

      if (list != NULL)
        return list;
    }
  return NULL;
}

/* Tab goes from group to group rather than from row to row, which GTK
 * 4.8's list boxes do: it moves to the next group's list (its first row,
 * or its last going back), and out of the view after the last. The arrow
 * keys move between the rows of a group. */
static gboolean
ovi_record_view_focus (GtkWidget *widget, GtkDirectionType direction)
{
  OviRecordView *self = OVI_RECORD_VIEW (widget);
  AdwPreferencesGroup *groups[] = { self->status_group, self->fields_group, self->op_group,
                                    self->tensor_group };
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  int step = direction == GTK_DIR_TAB_FORWARD ? 1 : -1;
  int current = -1;

  if (direction != GTK_DIR_TAB_FORWARD && direction != GTK_DIR_TAB_BACKWARD)
    return GTK_WIDGET_CLASS (ovi_record_view_parent_class)->focus (widget, direction);
  for (int i = 0; focus != NULL && i < (int) G_N_ELEMENTS (groups); i++)
    if (gtk_widget_is_ancestor (focus, GTK_WIDGET (groups[i])))
      current = i;
  /* Coming in from outside: GTK's own walk finds the first or last row. */
  if (current < 0)
    return GTK_WIDGET_CLASS (ovi_record_view_parent_class)->focus (widget, direction);
  for (int i = current + step; i >= 0 && i < (int) G_N_ELEMENTS (groups); i += step)
    {
      GtkWidget *group = GTK_WIDGET (groups[i]);
      GtkWidget *list = gtk_widget_get_visible (group) ? group_list (group) : NULL;

      if (list != NULL && gtk_widget_child_focus (list, direction))
        return TRUE;
    }
  return FALSE;
}

static void
ovi_record_view_dispose (GObject *object)
{
  OviRecordView *self = OVI_RECORD_VIEW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_RECORD_VIEW);
  /* Unnamed template children are not unparented by the call above. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  if (self->record != NULL)
    g_signal_handlers_disconnect_by_data (self->record, self);
  g_clear_object (&self->record);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->status_rows, g_ptr_array_unref);
  g_clear_pointer (&self->status_checks, g_ptr_array_unref);
  G_OBJECT_CLASS (ovi_record_view_parent_class)->dispose (object);
}

static void
ovi_record_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviRecordView *self = OVI_RECORD_VIEW (object);

  switch (prop_id)
    {
    case PROP_RECORD:
      g_value_set_object (value, self->record);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_record_view_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  OviRecordView *self = OVI_RECORD_VIEW (object);

  switch (prop_id)
    {
    case PROP_RECORD:
      ovi_record_view_set_record (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_record_view_class_init (OviRecordViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_record_view_dispose;
  object_class->get_property = ovi_record_view_get_property;
  object_class->set_property = ovi_record_view_set_property;
  widget_class->focus = ovi_record_view_focus;
  gtk_widget_class_add_binding (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, copy_focused_row, NULL);

  properties[PROP_RECORD] =
      g_param_spec_object ("record", NULL, NULL, OVI_TYPE_OVERFLOW_RECORD,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-record-view.ui");
  gtk_widget_class_bind_template_child (widget_class, OviRecordView, fields_group);
  gtk_widget_class_bind_template_child (widget_class, OviRecordView, op_group);
  gtk_widget_class_bind_template_child (widget_class, OviRecordView, stack);
  gtk_widget_class_bind_template_child (widget_class, OviRecordView, status_group);
  gtk_widget_class_bind_template_child (widget_class, OviRecordView, tensor_group);
  gtk_widget_class_bind_template_child (widget_class, OviRecordView, title_label);
}

static void
ovi_record_view_init (OviRecordView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_ptr_array_new ();
  self->status_rows = g_ptr_array_new ();
  self->status_checks = g_ptr_array_new ();
}

GtkWidget *
ovi_record_view_new (void)
{
  return g_object_new (OVI_TYPE_RECORD_VIEW, NULL);
}

/* The title follows the record's marks: the first overflow is only known
 * once every record before it has arrived. */
static void
update_title (OviRecordView *self)
{
  OviOverflowRecord *record = self->record;
  g_autofree char *title = NULL;

  if (record == NULL)
    return;
  if (ovi_overflow_record_get_is_first (record))
    /* Translators: %s is the unit, e.g. AI Core */
    title = g_strdup_printf (_ ("First overflow, %s"),
                             ovi_unit_label (ovi_overflow_record_get_unit_name (record)));
  else
    /* Translators: %u is the position in time order, %s the unit */
    title = g_strdup_printf (_ ("Overflow %u, %s"), ovi_overflow_record_get_position (record) + 1,
                             ovi_unit_label (ovi_overflow_record_get_unit_name (record)));
  if (ovi_overflow_record_get_ignored (record))
    {
      /* Translators: appended to a record's title when its operator is ignored */
      g_autofree char *ignored = g_strdup_printf (_ ("%s (ignored)"), title);
      g_free (title);
      title = g_steal_pointer (&ignored);
    }
  gtk_label_set_text (self->title_label, title);
}

void
ovi_record_view_set_record (OviRecordView *self, OviOverflowRecord *record)
{
  g_autoptr (GPtrArray) extra = NULL;
  OviDumpFile *file;
  gboolean from_data;
  OviUnit unit;

  g_return_if_fail (OVI_IS_RECORD_VIEW (self));
  g_return_if_fail (record == NULL || OVI_IS_OVERFLOW_RECORD (record));

  if (record == self->record)
    return;
  if (self->record != NULL)
    g_signal_handlers_disconnect_by_data (self->record, self);
  g_set_object (&self->record, record);
  clear_rows (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORD]);

  if (record == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  g_signal_connect_swapped (record, "notify::is-first", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (record, "notify::ignored", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (record, "notify::position", G_CALLBACK (update_title), self);
  update_title (self);
  show_status (self, record);

  from_data = ovi_overflow_record_get_source (record) == OVI_RECORD_SOURCE_DATA;
  unit = ovi_overflow_record_get_unit (record);
  file = ovi_overflow_record_get_file (record);
  /* Where it comes from: with several folders or devices open, rows of
   * two runs can otherwise look the same. */
  if (file != NULL)
    {
      g_autofree char *root = ovi_dump_file_dup_root_name (file);

      if (root != NULL)
        /* Translators: a field of an overflow record: the dump folder (one
         * per machine) it was found in, when several are open */
        add_field (self, _ ("Folder"), root);
      if (ovi_dump_file_get_device (file) != NULL)
        add_field (self, _ ("Device"), ovi_dump_file_get_device (file));
    }
  add_time_fields (self, record);
  add_field_u64 (self, _ ("Model id"), ovi_overflow_record_get_model_id (record), FALSE);
  add_field_u64 (self, _ ("Stream id"), ovi_overflow_record_get_stream_id (record), FALSE);
  add_field_u64 (self, _ ("Task id"), ovi_overflow_record_get_task_id (record), FALSE);
  if (from_data)
    {
      /* The rest are fields of an overflow file, which there is none of. */
      if (file != NULL)
        add_field (self, _ ("Found in"), ovi_dump_file_get_relative_path (file));
      show_operator (self, record);
      gtk_stack_set_visible_child_name (self->stack, "record");
      return;
    }
  add_field_u64 (self, _ ("Task type"), ovi_overflow_record_get_task_type (record), FALSE);
  if (ovi_unit_has_pc (unit))
    {
      add_field_u64 (self, _ ("pc_start"), ovi_overflow_record_get_pc_start (record), TRUE);
      add_field_u64 (self, _ ("para_base"), ovi_overflow_record_get_para_base (record), TRUE);
    }
  /* Only the classic AI Core block has a kernel code. */
  if (unit == OVI_UNIT_AI_CORE)
    add_field_u64 (self, _ ("kernel_code"), ovi_overflow_record_get_kernel_code (record), TRUE);
  if (ovi_unit_has_block (unit))
    add_field_u64 (self, _ ("Block index"), ovi_overflow_record_get_block_idx (record), FALSE);
  if (ovi_overflow_record_has_context (record))
    {
      add_field_u64 (self, _ ("Context id"), ovi_overflow_record_get_context_id (record), FALSE);
      add_field_u64 (self, _ ("Thread id"), ovi_overflow_record_get_thread_id (record), FALSE);
    }
  extra = ovi_overflow_record_dup_extra_fields (record);
  for (guint i = 0; extra != NULL && i < extra->len; i++)
    {
      const char *field = g_ptr_array_index (extra, i);
      const char *eq = strchr (field, '=');
      g_autofree char *name = eq ? g_strndup (field, eq - field) : g_strdup (field);

      add_field (self, name, eq ? eq + 1 : "");
    }
  if (file != NULL)
    add_field (self, _ ("Overflow file"), ovi_dump_file_get_relative_path (file));

  show_operator (self, record);
  gtk_stack_set_visible_child_name (self->stack, "record");
}

OviOverflowRecord *
ovi_record_view_get_record (OviRecordView *self)
{
  g_return_val_if_fail (OVI_IS_RECORD_VIEW (self), NULL);
  return self->record;
}

/* What the checklist shows, read back from its widgets: one line per row,
 * "[x] title" or "[ ] title". */
char *
ovi_record_view_dup_checklist_text (OviRecordView *self)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (OVI_IS_RECORD_VIEW (self), NULL);

  for (guint i = 0; i < self->status_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->status_rows, i);
      GtkCheckButton *check = g_ptr_array_index (self->status_checks, i);

      g_string_append_printf (text, "[%c] %s\n", gtk_check_button_get_active (check) ? 'x' : ' ',
                              adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
    }
  return g_string_free (text, FALSE);
}
