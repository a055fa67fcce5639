/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <gdk/x11/gdkx.h>

#include "ovi-accessible-row.h"
#include "ovi-fixtures.h"
#include "ovi-i18n.h"
#include "ovi-test-util.h"

OviApplication *ovi_test_app;

/* The private XDG folders of this process, removed by ovi_test_run(). */
static char *xdg_dir;

/* --- set-up ---------------------------------------------------------------- */

gboolean
ovi_test_init (int *argc, char ***argv, gboolean needs_display, int *exit_code)
{
  const char *vars[] = { "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR" };
  gboolean tap = FALSE;

  /* A private home for whatever GTK writes, before GLib reads the variables. */
  xdg_dir = g_dir_make_tmp ("ovi-app-xdg-XXXXXX", NULL);
  for (guint i = 0; xdg_dir != NULL && i < G_N_ELEMENTS (vars); i++)
    {
      g_autofree char *dir = g_build_filename (xdg_dir, vars[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (vars[i], dir, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  g_setenv ("GTK_A11Y", "none", FALSE);

  for (int i = 1; i < *argc; i++)
    if (g_str_equal ((*argv)[i], "--tap"))
      tap = TRUE;

  g_test_init (argc, argv, NULL);
  /* The catalog, as main.c binds it: LANGUAGE=zh_CN runs the tests that
   * look at sizes in Chinese (app-window-sizes-zh_CN). */
  ovi_i18n_init ();
  if (!needs_display)
    return TRUE;
  if (!gtk_init_check ())
    {
      /* 77 tells meson "skipped"; under --tap the plan says it. */
      if (tap)
        {
          g_print ("1..0 # SKIP no display\n");
          *exit_code = 0;
        }
      else
        {
          g_printerr ("No display: skipping the UI tests\n");
          *exit_code = 77;
        }
      remove_tree (xdg_dir);
      return FALSE;
    }
  adw_init ();

  ovi_test_app = ovi_application_new ();
  g_application_set_flags (G_APPLICATION (ovi_test_app),
                           G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  if (!g_application_register (G_APPLICATION (ovi_test_app), NULL, NULL))
    {
      *exit_code = 1;
      return FALSE;
    }
  return TRUE;
}

int
ovi_test_run (void)
{
  int ret = g_test_run ();

  if (xdg_dir != NULL)
    remove_tree (xdg_dir);
  g_clear_pointer (&xdg_dir, g_free);
  return ret;
}

void
ovi_test_fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->tmpdir = g_dir_make_tmp ("ovi-app-test-XXXXXX", &error);
  g_assert_no_error (error);

  f->window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 900);
  gtk_window_present (GTK_WINDOW (f->window));
  /* What the "Open Example" button on the start page does. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-example", NULL);
  g_assert_true (ovi_window_get_loading (f->window));
  WAIT_UNTIL (!ovi_window_get_busy (f->window));
  /* Every record in the table, laid out in the window. */
  WAIT_UNTIL (
      n_visible_rows (ovi_window_get_record_view (f->window)) ==
      g_list_model_get_n_items (ovi_session_get_records (ovi_window_get_session (f->window))));
  ovi_test_wait_still ();
}

void
ovi_test_fixture_teardown (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  /* Nothing of this window runs into the next test. */
  ovi_test_wait_finalized (g_steal_pointer (&f->window), TRUE);
  ovi_test_wait_still ();
  /* With whatever a test wrote there and left (tensor-view-fits did). */
  remove_tree (f->tmpdir);
  g_free (f->tmpdir);
}

/* --- waiting on conditions ------------------------------------------------- */

static gboolean
wake_cb (gpointer data)
{
  /* Only wakes the main loop, so that the condition is checked again. */
  return G_SOURCE_CONTINUE;
}

static gboolean
ceiling_cb (gpointer data)
{
  OviTestWait *wait = data;

  wait->ceiling_id = 0;
  wait->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

void
ovi_test_wait_begin (OviTestWait *wait, guint poll_ms)
{
  /* One wake-up at the ceiling, none before: a test must not keep the
   * main loop awake, which would hide an idle source that starves. */
  wait->timed_out = FALSE;
  wait->ceiling_id = g_timeout_add_seconds (OVI_TEST_CEILING_SECONDS, ceiling_cb, wait);
  wait->poll_id = poll_ms > 0 ? g_timeout_add (poll_ms, wake_cb, NULL) : 0;
}

void
ovi_test_wait_step (OviTestWait *wait, const char *what, const char *file, int line)
{
  if (wait->timed_out)
    {
      g_autofree char *message =
          g_strdup_printf ("waited %d s for %s", OVI_TEST_CEILING_SECONDS, what);

      g_assertion_message (G_LOG_DOMAIN, file, line, "WAIT_UNTIL", message);
    }
  g_main_context_iteration (NULL, TRUE);
}

void
ovi_test_wait_end (OviTestWait *wait)
{
  g_clear_handle_id (&wait->ceiling_id, g_source_remove);
  g_clear_handle_id (&wait->poll_id, g_source_remove);
}

typedef struct
{
  GtkWidget *window;
  GdkFrameClock *clock;
  gulong handler;
  guint frames;
  guint wanted;
} FrameCount;

static void
count_frame (GdkFrameClock *clock, FrameCount *count)
{
  /* Ask for one more frame, so there are @wanted even when nothing changes. */
  if (++count->frames < count->wanted)
    gtk_widget_queue_draw (count->window);
}

static gboolean
all_painted (GPtrArray *counts)
{
  for (guint i = 0; i < counts->len; i++)
    {
      FrameCount *count = g_ptr_array_index (counts, i);

      /* A window unmapped meanwhile paints no more. */
      if (count->frames < count->wanted && gtk_widget_get_mapped (count->window))
        return FALSE;
    }
  return TRUE;
}

static void
frame_count_free (gpointer data)
{
  FrameCount *count = data;

  g_signal_handler_disconnect (count->clock, count->handler);
  g_object_unref (count->clock);
  g_object_unref (count->window);
  g_free (count);
}

void
ovi_test_wait_frames (guint n)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  g_autoptr (GPtrArray) counts = g_ptr_array_new_with_free_func (frame_count_free);

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) window = g_list_model_get_item (toplevels, i);
      GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
      FrameCount *count;

      if (clock == NULL || !gtk_widget_get_mapped (window))
        continue;
      count = g_new0 (FrameCount, 1);
      count->window = g_object_ref (window);
      count->clock = g_object_ref (clock);
      count->wanted = n;
      count->handler = g_signal_connect (clock, "after-paint", G_CALLBACK (count_frame), count);
      g_ptr_array_add (counts, count);
      gtk_widget_queue_draw (window);
    }
  WAIT_UNTIL (all_painted (counts));
}

/* Whether a revealer, a stack or a squeezer below @widget is in a
 * transition. */
static gboolean
in_transition (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return FALSE;
  if (GTK_IS_REVEALER (widget) && gtk_revealer_get_child_revealed (GTK_REVEALER (widget)) !=
                                      gtk_revealer_get_reveal_child (GTK_REVEALER (widget)))
    return TRUE;
  if (GTK_IS_STACK (widget) && gtk_stack_get_transition_running (GTK_STACK (widget)))
    return TRUE;
  /* The header's switcher fading from its wide to its narrow form. */
  if (ADW_IS_SQUEEZER (widget) && adw_squeezer_get_transition_running (ADW_SQUEEZER (widget)))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    if (in_transition (child))
      return TRUE;
  return FALSE;
}

static gboolean
any_toplevel_mapped (gboolean *transition)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  gboolean mapped = FALSE;

  *transition = FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (!gtk_widget_get_mapped (window))
        continue;
      mapped = TRUE;
      *transition |= in_transition (window);
    }
  return mapped;
}

void
ovi_test_wait_still (void)
{
  gint64 deadline = g_get_monotonic_time () + OVI_TEST_CEILING_SECONDS * G_USEC_PER_SEC;
  guint frames = 0;

  for (;;)
    {
      gboolean transition = FALSE;
      gboolean mapped = any_toplevel_mapped (&transition);

      if (frames >= 2 && !transition && !g_main_context_pending (NULL))
        break;
      if (g_get_monotonic_time () > deadline)
        g_error ("waited %d s for the windows to be still (a frame painted, nothing left to "
                 "run after it, no transition)",
                 OVI_TEST_CEILING_SECONDS);
      if (mapped)
        {
          ovi_test_wait_frames (1);
          frames++;
        }
      else
        {
          /* No window to paint: only what is ready on the main loop. */
          frames = 2;
          while (g_main_context_pending (NULL))
            g_main_context_iteration (NULL, FALSE);
        }
    }
}

void
wait_records_listed (OviWindow *window)
{
  GListModel *records = ovi_session_get_records (ovi_window_get_session (window));

  WAIT_UNTIL (n_visible_rows (ovi_window_get_record_view (window)) ==
              g_list_model_get_n_items (records));
  ovi_test_wait_still ();
}

gboolean
details_show (OviWindow *window, OviOverflowRecord *record)
{
  g_autoptr (OviOverflowRecord) shown = NULL;

  g_object_get (ovi_window_get_record_details (window), "record", &shown, NULL);
  return shown == record;
}

void
wait_details (OviWindow *window, OviOverflowRecord *record)
{
  WAIT_UNTIL (details_show (window, record));
  ovi_test_wait_still ();
}

void
wait_operators_listed (OviWindow *window)
{
  OviOperatorsPage *page = ovi_window_get_operators_page (window);
  GtkSortListModel *sorted = template_child (page, OVI_TYPE_OPERATORS_PAGE, "op_sort_model");
  GtkSingleSelection *selection = template_child (page, OVI_TYPE_OPERATORS_PAGE, "op_selection");
  GtkFilterListModel *filtered = GTK_FILTER_LIST_MODEL (gtk_single_selection_get_model (selection));

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (ovi_window_get_op_view (window))) &&
              gtk_sort_list_model_get_model (sorted) ==
                  ovi_session_get_operators (ovi_window_get_session (window)) &&
              gtk_sort_list_model_get_pending (sorted) == 0 &&
              gtk_filter_list_model_get_pending (filtered) == 0);
  ovi_test_wait_still ();
}

void
count_change (guint *count)
{
  (*count)++;
}

void
ovi_test_wait_finalized (gpointer object, gboolean unref)
{
  gpointer weak = object;

  g_object_add_weak_pointer (G_OBJECT (object), &weak);
  if (unref)
    g_object_unref (object);
  WAIT_UNTIL (weak == NULL);
}

static void
count_layout (guint *layouts)
{
  (*layouts)++;
}

void
resize_to (gpointer window, int width, int height)
{
  GdkSurface *surface;
  guint layouts = 0;
  gulong handler;

  if (!gtk_widget_get_mapped (GTK_WIDGET (window)))
    {
      /* Shown for the first time: mapped, then laid out at its size. */
      gtk_window_set_default_size (GTK_WINDOW (window), width, height);
      gtk_window_present (GTK_WINDOW (window));
      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)) &&
                  gtk_widget_get_width (GTK_WIDGET (window)) > 0);
      ovi_test_wait_still ();
      return;
    }
  /* A new default size is laid out once the X server has the new size (at
   * once when the size does not change, or is clamped to the screen's). */
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  handler = g_signal_connect_swapped (surface, "layout", G_CALLBACK (count_layout), &layouts);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  WAIT_UNTIL (layouts > 0);
  g_signal_handler_disconnect (surface, handler);
  /* What changes right after a layout (columns, the sidebar), laid out too. */
  ovi_test_wait_still ();
}

/* --- reading the window ------------------------------------------------------ */

void
collect_labels (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      if (out->len > 0 && out->str[out->len - 1] != '\n')
        g_string_append_c (out, '|');
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static int
compare_y (gconstpointer a, gconstpointer b)
{
  graphene_point_t pa, pb;
  GtkWidget *wa = *(GtkWidget **) a, *wb = *(GtkWidget **) b;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (wa));

  if (!gtk_widget_compute_point (wa, root, &GRAPHENE_POINT_INIT (0, 0), &pa))
    pa.y = 0;
  if (!gtk_widget_compute_point (wb, root, &GRAPHENE_POINT_INIT (0, 0), &pb))
    pb.y = 0;
  return pa.y < pb.y ? -1 : pa.y > pb.y;
}

static int
compare_x (gconstpointer a, gconstpointer b)
{
  graphene_point_t pa, pb;
  GtkWidget *wa = *(GtkWidget **) a, *wb = *(GtkWidget **) b;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (wa));

  if (!gtk_widget_compute_point (wa, root, &GRAPHENE_POINT_INIT (0, 0), &pa))
    pa.x = 0;
  if (!gtk_widget_compute_point (wb, root, &GRAPHENE_POINT_INIT (0, 0), &pb))
    pb.x = 0;
  return pa.x < pb.x ? -1 : pa.x > pb.x;
}

/* The mapped row widgets of @view, top to bottom. */
static GPtrArray *
row_widgets (GtkColumnView *view)
{
  GtkWidget *list = inner_list (view);
  GPtrArray *widgets = g_ptr_array_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (list); row;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) && gtk_widget_get_first_child (row) != NULL)
      g_ptr_array_add (widgets, row);
  g_ptr_array_sort (widgets, compare_y);
  return widgets;
}

GPtrArray *
visible_rows (GtkColumnView *view)
{
  g_autoptr (GPtrArray) widgets = row_widgets (view);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < widgets->len; i++)
    {
      GString *text = g_string_new (NULL);
      g_autoptr (GPtrArray) cells = g_ptr_array_new ();

      /* Left to right: a column shown after a row was made adds its cell
       * at the end of the row's children. */
      for (GtkWidget *c = gtk_widget_get_first_child (g_ptr_array_index (widgets, i)); c;
           c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (cells, c);
      g_ptr_array_sort (cells, compare_x);
      for (guint j = 0; j < cells->len; j++)
        collect_labels (g_ptr_array_index (cells, j), text);
      g_ptr_array_add (rows, g_string_free (text, FALSE));
    }
  return rows;
}

guint
n_visible_rows (GtkColumnView *view)
{
  g_autoptr (GPtrArray) widgets = row_widgets (view);

  return widgets->len;
}

char *
cell (GPtrArray *rows, guint row, guint column)
{
  g_auto (GStrv) cells = g_strsplit (g_ptr_array_index (rows, row), "|", -1);

  g_assert_cmpuint (column, <, g_strv_length (cells));
  return g_strdup (cells[column]);
}

/* Beside the sidebar, in the 1280 px window of the tests, a table narrower
 * than its columns hides those it can do without (ovi-columns.c). */
void
fold_sidebar (OviWindow *window)
{
  gtk_widget_set_visible (GTK_WIDGET (window->sidebar), FALSE);
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (window->sidebar)));
  ovi_test_wait_still ();
}

GtkColumnViewColumn *
column_by_title (GtkColumnView *view, const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  g_assert_not_reached ();
}

GtkWidget *
inner_list (GtkColumnView *view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  g_assert_not_reached ();
}

gpointer
template_child (gpointer widget, GType type, const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);
}

GtkWidget *
find_descendant (GtkWidget *widget, GType type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)))
        return found;
    }
  return NULL;
}

GtkLabel *
find_label_with_text (GtkWidget *widget, const char *text)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_with_text (child, text);

      if (found)
        return found;
    }
  return NULL;
}

GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
find_by_type_name (GtkWidget *widget, const char *type_name, GPtrArray *found)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), type_name))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    find_by_type_name (child, type_name, found);
}

char *
toast_text (OviWindow *window)
{
  g_autoptr (GPtrArray) toasts = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  find_by_type_name (GTK_WIDGET (window), "AdwToastWidget", toasts);
  for (guint i = 0; i < toasts->len; i++)
    collect_labels (g_ptr_array_index (toasts, i), text);
  return g_string_free (text, FALSE);
}

gboolean
focus_inside (OviWindow *window, gpointer widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

GtkWindow *
find_transient_for (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (toplevel != parent && gtk_widget_get_visible (GTK_WIDGET (toplevel)) &&
          gtk_window_get_transient_for (toplevel) == parent)
        found = toplevel;
    }
  return found;
}

void
collect_row_names (GtkWidget *widget, GPtrArray *names)
{
  if (OVI_IS_ACCESSIBLE_ROW (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (names, g_strdup (ovi_accessible_row_get_label (OVI_ACCESSIBLE_ROW (widget))));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect_row_names (child, names);
}

gboolean
page_shown (OviWindow *window, const char *name)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (window->view_stack), name) == 0;
}

/* --- reading the folder ------------------------------------------------------ */

OviOverflowRecord *
find_record (OviWindow *window, guint64 status)
{
  GListModel *records = ovi_dump_folder_get_records (ovi_window_get_folder (window));

  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);

      if (ovi_overflow_record_get_status (record) == status)
        return record;
    }
  return NULL;
}

OviDumpFile *
find_op (OviWindow *window, const char *op_name, const char *iteration)
{
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (window));

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

      if (g_strcmp0 (ovi_dump_file_get_op_name (file), op_name) == 0 &&
          g_strcmp0 (ovi_dump_file_get_iteration (file), iteration) == 0)
        return file;
    }
  return NULL;
}

guint
output_index (OviDumpFile *file)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);

  for (guint i = 0; i < tensors->len; i++)
    if (ovi_tensor_get_kind (g_ptr_array_index (tensors, i)) == OVI_TENSOR_OUTPUT)
      return i;
  g_assert_not_reached ();
}

const char *
most_repeated_op (OviWindow *window)
{
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (window));
  OviDumpFile *first_op = ovi_overflow_record_get_op (find_record (window, 272));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  const char *best = ovi_dump_file_get_op_name (first_op);
  guint best_count = 0;

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      const char *name = ovi_dump_file_get_op_name (file);
      char *key;
      guint count;

      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP || name == NULL)
        continue;
      key = g_strconcat (name, "\n", ovi_dump_file_get_iteration (file), NULL);
      if (!g_hash_table_add (seen, key))
        continue;
      count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1;
      g_hash_table_insert (counts, (gpointer) name, GUINT_TO_POINTER (count));
      if (count > best_count ||
          (count == best_count && g_strcmp0 (name, ovi_dump_file_get_op_name (first_op)) == 0))
        {
          best = name;
          best_count = count;
        }
    }
  return best;
}

const char *
tensor_info (OviTensorView *view, const char *name)
{
  GtkGrid *grid = GTK_GRID (
      gtk_widget_get_template_child (GTK_WIDGET (view), OVI_TYPE_TENSOR_VIEW, "info_grid"));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), name) == 0)
      {
        int column, row;
        GtkWidget *value;

        gtk_grid_query_child (grid, child, &column, &row, NULL, NULL);
        value = gtk_grid_get_child_at (grid, column + 1, row);
        return value ? gtk_label_get_text (GTK_LABEL (value)) : NULL;
      }
  return NULL;
}

GtkWidget *
tensor_view_child (OviTensorView *view, const char *id)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), OVI_TYPE_TENSOR_VIEW, id));
}

const char *
label_text (OviTensorView *view, const char *id)
{
  return gtk_label_get_text (GTK_LABEL (tensor_view_child (view, id)));
}

void
assert_sorted (GPtrArray *rows, guint column, gboolean numeric, gboolean descending)
{
  for (guint i = 1; i < rows->len; i++)
    {
      g_autofree char *a = cell (rows, i - 1, column);
      g_autofree char *b = cell (rows, i, column);
      int cmp;

      if (numeric)
        {
          guint64 x = g_ascii_strtoull (a, NULL, 10), y = g_ascii_strtoull (b, NULL, 10);
          cmp = x < y ? -1 : x > y;
        }
      else
        {
          /* As GtkStringSorter compares by default: ignoring case. */
          g_autofree char *fa = g_utf8_casefold (a, -1), *fb = g_utf8_casefold (b, -1);

          cmp = g_utf8_collate (fa, fb);
        }
      if (descending)
        cmp = -cmp;
      if (cmp > 0)
        g_test_message ("not sorted at row %u: '%s' then '%s'", i, a, b);
      g_assert_cmpint (cmp, <=, 0);
    }
}

static void
abnormal_free (gpointer data)
{
  Abnormal *a = data;

  g_object_unref (a->file);
  g_free (a);
}

/* Every tensor of the example with NaN, Inf or saturated values. */
GPtrArray *
all_abnormal_tensors (OviWindow *window)
{
  GListModel *files = ovi_dump_folder_get_files (ovi_window_get_folder (window));
  GPtrArray *found = g_ptr_array_new_with_free_func (abnormal_free);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);

      /* Statistics-mode operators have no values, so no histogram. */
      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP ||
          ovi_dump_file_get_statistics_only (file))
        continue;
      for (guint t = 0; tensors && t < tensors->len; t++)
        {
          g_autoptr (OviAnalysis) analysis =
              ovi_tensor_analyze (g_ptr_array_index (tensors, t), NULL);
          const OviStats *stats = analysis ? ovi_analysis_get_stats (analysis) : NULL;

          if (stats && stats->nan + stats->pos_inf + stats->neg_inf + stats->saturated > 0)
            {
              Abnormal *a = g_new0 (Abnormal, 1);

              a->file = g_object_ref (file);
              a->index = t;
              a->stats = *stats;
              g_ptr_array_add (found, a);
            }
        }
    }
  return found;
}

/* The tensor of the example with the most kinds of abnormal values. */
gboolean
find_abnormal_tensor (OviWindow *window,
                      OviDumpFile **file_out,
                      guint *index_out,
                      OviStats *stats_out)
{
  g_autoptr (GPtrArray) found = all_abnormal_tensors (window);
  int best = 0;

  for (guint i = 0; i < found->len; i++)
    {
      const Abnormal *a = g_ptr_array_index (found, i);
      int score = (a->stats.nan > 0) + (a->stats.pos_inf > 0) + (a->stats.neg_inf > 0) +
                  (a->stats.saturated > 0);

      if (score > best)
        {
          best = score;
          g_set_object (file_out, a->file);
          *index_out = a->index;
          *stats_out = a->stats;
        }
    }
  g_test_message ("most abnormal tensor: %d kinds", best);
  return best >= 1;
}

/* --- acting as a user -------------------------------------------------------- */

gboolean
drop_files (OviWindow *window, GFile **files, guint n_files)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  GtkDropTarget *target = NULL;
  GSList *list = NULL;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  for (guint i = n_files; i > 0; i--)
    list = g_slist_prepend (list, files[i - 1]);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (list));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_slist_free (list);
  return accepted;
}

/* Runs xdotool to move the pointer to the middle of @widget, then @action
 * (a NULL-terminated list of xdotool arguments). */
static gboolean
xdotool_at (GtkWidget *widget, const char *const *action)
{
  GtkNative *native = gtk_widget_get_native (widget);
  g_autofree char *program = g_find_program_in_path ("xdotool");
  graphene_point_t centre = GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.0,
                                                 gtk_widget_get_height (widget) / 2.0);
  graphene_point_t point;
  g_autofree char *xid = NULL, *x = NULL, *y = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  double dx, dy;
  int status = 0;

  if (program == NULL || !GDK_IS_X11_DISPLAY (gtk_widget_get_display (widget)))
    {
      g_test_skip ("needs xdotool and an X display");
      return FALSE;
    }
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &centre, &point));
  gtk_native_get_surface_transform (native, &dx, &dy);
  xid = g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (gtk_native_get_surface (native)));
  x = g_strdup_printf ("%d", (int) (point.x + dx));
  y = g_strdup_printf ("%d", (int) (point.y + dy));
  g_ptr_array_add (argv, program);
  g_ptr_array_add (argv, "mousemove");
  g_ptr_array_add (argv, "--sync");
  g_ptr_array_add (argv, "--window");
  g_ptr_array_add (argv, xid);
  g_ptr_array_add (argv, x);
  g_ptr_array_add (argv, y);
  for (guint i = 0; action[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) action[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return TRUE;
}

gboolean
xdotool_click (GtkWidget *widget, int button)
{
  g_autofree char *number = g_strdup_printf ("%d", button);
  const char *action[] = { "click", number, NULL };

  return xdotool_at (widget, action);
}

gboolean
xdotool_keys (GtkWidget *widget, const char *keys)
{
  const char *action[] = { "key", "--clearmodifiers", keys, NULL };

  return xdotool_at (widget, action);
}

/* --- the cluster timeline ---------------------------------------------------- */

void
write_report (const char *root, const char *host, const char *path)
{
  g_autoptr (OviDumpFolder) folder = ovi_fixture_load_folder (root);
  g_autoptr (JsonNode) node = ovi_report_build_json_full (folder, OVI_REPORT_RECORDS_ONLY);
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GError) error = NULL;

  json_object_set_string_member (json_node_get_object (node), "host", host);
  json_generator_set_root (generator, node);
  g_assert_true (json_generator_to_file (generator, path, &error));
  g_assert_no_error (error);
}

const char *
timeline_label (OviTimelinePage *page, const char *id)
{
  return gtk_label_get_text (
      GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_TIMELINE_PAGE, id)));
}

gboolean
timeline_shows (OviTimelinePage *page, const char *id)
{
  return gtk_widget_get_mapped (
      GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), OVI_TYPE_TIMELINE_PAGE, id)));
}

gboolean
timeline_fed (OviTimelinePage *page)
{
  GtkSliceListModel *slice = template_child (page, OVI_TYPE_TIMELINE_PAGE, "rank_slice");
  GListModel *copy = gtk_slice_list_model_get_model (slice);

  return copy != NULL &&
         g_list_model_get_n_items (G_LIST_MODEL (slice)) == g_list_model_get_n_items (copy);
}

void
assert_remote_view (OviTimelinePage *page, OviRank *rank, const char *host, const char *root)
{
  g_autofree char *where = g_strdup_printf (
      "The dump files of this device stayed on %s, in %s. To see the operator's tensors, "
      "run this there:",
      host, root);
  g_autofree char *op_path = g_build_filename (root, ovi_rank_get_op_file (rank), NULL);
  g_autofree char *quoted = g_shell_quote (op_path);
  g_autofree char *command = g_strdup_printf ("overflow-inspector-cli stats %s", quoted);

  g_assert_true (ovi_timeline_page_select_rank (page, rank));
  ovi_test_wait_still ();
  g_assert_true (timeline_shows (page, "remote_box"));
  g_assert_false (timeline_shows (page, "show_button"));
  g_assert_cmpstr (timeline_label (page, "remote_text"), ==, where);
  g_assert_cmpstr (timeline_label (page, "command_label"), ==, command);
}

/* --- files ------------------------------------------------------------------- */

void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
save_widget_png (GtkWidget *widget, const char *path)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("saved %s", path);
}
