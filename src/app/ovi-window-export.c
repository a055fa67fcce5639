/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-file-chooser.h"
#include "ovi-window-private.h"

/* The window's exports ("win.export-*"): the report, the selected tensor or
 * overflow file, and all tensors of operators as `convert` writes them.
 * The writing itself is core's (ovi-export.h), on a worker thread. */

static OviTensor *
selected_tensor (OviWindow *self)
{
  return ovi_session_get_selected_tensor (self->session);
}

static OviDumpFile *export_operator (OviWindow *self);

void
_ovi_window_update_export_actions (OviWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean have_folder = ovi_session_get_folder (self->session) != NULL;
  gboolean have_tensor = selected_tensor (self) != NULL;
  gboolean have_record = ovi_session_get_selected_record (self->session) != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->export_button), have_folder);
  gtk_widget_action_set_enabled (widget, "win.export", have_folder);
  gtk_widget_action_set_enabled (widget, "win.export-report-json", have_folder);
  gtk_widget_action_set_enabled (widget, "win.export-report-text", have_folder);
  gtk_widget_action_set_enabled (widget, "win.export-tensor-npy", have_tensor);
  gtk_widget_action_set_enabled (widget, "win.export-tensor-txt", have_tensor);
  /* A device layout that maps to its original shape, as the view shows it. */
  gtk_widget_action_set_enabled (widget, "win.export-tensor-npy-logical",
                                 have_tensor && ovi_tensor_get_is_logical (selected_tensor (self)));
  gtk_widget_action_set_enabled (widget, "win.export-tensor-txt-logical",
                                 have_tensor && ovi_tensor_get_is_logical (selected_tensor (self)));
  gtk_widget_action_set_enabled (widget, "win.export-overflow-json", have_record);
  gtk_widget_action_set_enabled (widget, "win.export-operator-tensors",
                                 have_folder && export_operator (self) != NULL);
  gtk_widget_action_set_enabled (widget, "win.export-selection-tensors", have_folder);
}

G_STATIC_ASSERT ((int) OVI_WINDOW_EXPORT_REPORT_JSON == (int) OVI_EXPORT_REPORT_JSON);
G_STATIC_ASSERT ((int) OVI_WINDOW_EXPORT_OVERFLOW_JSON == (int) OVI_EXPORT_OVERFLOW_JSON);

/* What core writes for an export of the window's menu. */
static OviExportTarget
export_target (OviWindowExport what)
{
  switch (what)
    {
    case OVI_WINDOW_EXPORT_TENSOR_NPY_LOGICAL:
      return OVI_EXPORT_TENSOR_NPY_LOGICAL;
    case OVI_WINDOW_EXPORT_TENSOR_TXT_LOGICAL:
      return OVI_EXPORT_TENSOR_TXT_LOGICAL;
    default:
      return (OviExportTarget) what;
    }
}

/* The selected tensor or overflow file, for the exports that need one. */
static gpointer
export_item (OviWindow *self, OviWindowExport what)
{
  OviOverflowRecord *record = ovi_session_get_selected_record (self->session);

  switch (what)
    {
    case OVI_WINDOW_EXPORT_TENSOR_NPY:
    case OVI_WINDOW_EXPORT_TENSOR_TXT:
    case OVI_WINDOW_EXPORT_TENSOR_NPY_LOGICAL:
    case OVI_WINDOW_EXPORT_TENSOR_TXT_LOGICAL:
      return selected_tensor (self);
    case OVI_WINDOW_EXPORT_OVERFLOW_JSON:
      return record ? ovi_overflow_record_get_file (record) : NULL;
    default:
      return NULL;
    }
}

/* Where the next export dialog starts: the folder of the last export, when
 * it is still there, else the home folder. */
static GFile *
export_folder (OviWindow *self)
{
  g_autofree char *last = g_settings_get_string (self->settings, "last-export-folder");

  if (*last != '\0' && g_file_test (last, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (last);
  return g_file_new_for_path (g_get_home_dir ());
}

/* @path: a file written, or with @is_folder the folder written into. */
static void
remember_folder (OviWindow *self, const char *path, gboolean is_folder)
{
  g_autofree char *folder = is_folder ? g_strdup (path) : g_path_get_dirname (path);

  g_settings_set_string (self->settings, "last-export-folder", folder);
}

static void
remember_export_folder (OviWindow *self, const char *path)
{
  remember_folder (self, path, FALSE);
}

/* The export the menu items run, synchronously: for tests. */
gboolean
ovi_window_export_to_path (OviWindow *self, OviWindowExport what, const char *path, GError **error)
{
  OviDumpFolder *folder;

  g_return_val_if_fail (OVI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  folder = ovi_session_get_folder (self->session);
  if (folder == NULL)
    {
      g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                           _ ("No folder is open"));
      return FALSE;
    }
  if (!ovi_report_export (folder, export_target (what), export_item (self, what), path, NULL,
                          error))
    return FALSE;
  remember_export_folder (self, path);
  return TRUE;
}

typedef struct
{
  OviWindow *window;
  OviWindowExport what;
  char *path; /* once chosen */
} ExportRequest;

static void
export_request_free (gpointer data)
{
  ExportRequest *request = data;

  g_object_unref (request->window);
  g_free (request->path);
  g_free (request);
}

static void
export_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  ExportRequest *request = user_data;
  OviWindow *self = request->window;
  const char *path = request->path;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (!ovi_report_export_finish (OVI_DUMP_FOLDER (object), result, &error))
    {
      _ovi_window_show_toast (self, error->message);
      export_request_free (request);
      return;
    }
  remember_export_folder (self, path);
  name = g_path_get_basename (path);
  title = g_strdup_printf (_ ("Exported “%s”"), name);
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _ ("Open Folder"));
  adw_toast_set_action_name (toast, "win.open-folder");
  adw_toast_set_action_target_value (toast, g_variant_new_string (path));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  export_request_free (request);
}

/* Written by core off the main thread. */
static void
export_chosen (GFile *file, gpointer user_data)
{
  ExportRequest *request = user_data;
  OviWindow *self = request->window;
  OviDumpFolder *folder = ovi_session_get_folder (self->session);
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  ExportRequest *writing;

  if (file == NULL || folder == NULL)
    return;
  if (path == NULL)
    {
      _ovi_window_show_toast (self, _ ("Only local files can be written"));
      return;
    }
  writing = g_new0 (ExportRequest, 1);
  writing->window = g_object_ref (self);
  writing->what = request->what;
  writing->path = g_steal_pointer (&path);
  ovi_report_export_async (folder, export_target (writing->what), export_item (self, writing->what),
                           writing->path, NULL, export_done, writing);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  OviOverflowRecord *record = ovi_session_get_selected_record (self->session);
  OviTensor *tensor = selected_tensor (self);
  g_autoptr (GFile) start = export_folder (self);
  g_autofree char *name = NULL;
  ExportRequest *request;
  OviWindowExport what;

  if (g_str_equal (action_name, "win.export-report-json"))
    what = OVI_WINDOW_EXPORT_REPORT_JSON, name = g_strdup ("overflow-report.json");
  else if (g_str_equal (action_name, "win.export-report-text"))
    what = OVI_WINDOW_EXPORT_REPORT_TEXT, name = g_strdup ("overflow-report.txt");
  else if (g_str_equal (action_name, "win.export-tensor-npy") && tensor != NULL)
    what = OVI_WINDOW_EXPORT_TENSOR_NPY,
    name = ovi_export_tensor_file_name (tensor, OVI_EXPORT_NPY);
  else if (g_str_equal (action_name, "win.export-tensor-txt") && tensor != NULL)
    what = OVI_WINDOW_EXPORT_TENSOR_TXT,
    name = ovi_export_tensor_file_name (tensor, OVI_EXPORT_TXT);
  else if (g_str_equal (action_name, "win.export-tensor-npy-logical") && tensor != NULL)
    what = OVI_WINDOW_EXPORT_TENSOR_NPY_LOGICAL,
    name = ovi_export_tensor_file_name (tensor, OVI_EXPORT_NPY);
  else if (g_str_equal (action_name, "win.export-tensor-txt-logical") && tensor != NULL)
    what = OVI_WINDOW_EXPORT_TENSOR_TXT_LOGICAL,
    name = ovi_export_tensor_file_name (tensor, OVI_EXPORT_TXT);
  else if (g_str_equal (action_name, "win.export-overflow-json") && record != NULL &&
           ovi_overflow_record_get_file (record) != NULL)
    what = OVI_WINDOW_EXPORT_OVERFLOW_JSON,
    name = ovi_export_overflow_file_name (ovi_overflow_record_get_file (record));
  else
    return;

  request = g_new0 (ExportRequest, 1);
  request->window = g_object_ref (self);
  request->what = what;
  ovi_file_chooser_save (GTK_WINDOW (self), _ ("Export"), name, start, export_chosen, request,
                         export_request_free);
}

/* --- all tensors, as `convert` writes them -------------------------------- */

/* The operator whose tensors "All Tensors of the Operator" writes: the
 * selected record's on the overflow table, else the selected operator. */
static OviDumpFile *
export_operator (OviWindow *self)
{
  OviOverflowRecord *record = ovi_session_get_selected_record (self->session);
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  if (g_strcmp0 (page, "overflows") == 0 && record != NULL)
    return ovi_overflow_record_get_op (record);
  return ovi_session_get_selected_file (self->session);
}

/* The op dump files an export of all tensors reads. */
static GPtrArray *
tensor_export_files (OviWindow *self, OviWindowExport what)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);
  OviDumpFolder *folder = ovi_session_get_folder (self->session);
  GListModel *all = folder ? ovi_dump_folder_get_files (folder) : NULL;

  if (what == OVI_WINDOW_EXPORT_OPERATOR_TENSORS)
    {
      OviDumpFile *op = export_operator (self);

      if (op != NULL)
        g_ptr_array_add (files, g_object_ref (op));
      return files;
    }
  /* Every operator below the sidebar's node (all of them without one),
   * and every overflow file there: `convert` of that folder writes their
   * vendor JSON beside the tensors. */
  for (guint i = 0; all != NULL && i < g_list_model_get_n_items (all); i++)
    {
      OviDumpFile *file = g_list_model_get_item (all, i);
      OviFileKind kind = ovi_dump_file_get_kind (file);

      if ((kind == OVI_FILE_KIND_OP_DUMP || kind == OVI_FILE_KIND_OVERFLOW) &&
          ovi_session_in_selected_node (self->session, file))
        g_ptr_array_add (files, file);
      else
        g_object_unref (file);
    }
  return files;
}

typedef struct
{
  OviWindow *window;
  char *output;
  char *reveal; /* the folder below output the first file went to */
} TensorExport;

static void
tensor_export_free (TensorExport *export)
{
  g_object_unref (export->window);
  g_free (export->output);
  g_free (export->reveal);
  g_free (export);
}

static void
tensors_exported (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TensorExport *export = user_data;
  OviWindow *self = export->window;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *name = g_path_get_basename (export->output);
  guint n = 0;
  AdwToast *toast;

  if (!ovi_report_export_tensors_finish (OVI_DUMP_FOLDER (object), result, &n, &error))
    {
      _ovi_window_show_toast (self, error->message);
      tensor_export_free (export);
      return;
    }
  remember_folder (self, export->output, TRUE);
  title = g_strdup_printf (
      /* Translators: %u files were written into the folder %s */
      g_dngettext (GETTEXT_PACKAGE, "Exported %u file into “%s”", "Exported %u files into “%s”", n),
      n, name);
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _ ("Open Folder"));
  adw_toast_set_action_name (toast, "win.open-folder");
  adw_toast_set_action_target_value (toast, g_variant_new_string (export->reveal));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  tensor_export_free (export);
}

/* Starts writing all tensors of the operator, or of the sidebar's
 * selection, below @output on core's worker pool. */
void
ovi_window_export_tensors (OviWindow *self, OviWindowExport what, const char *output)
{
  OviDumpFolder *folder = ovi_session_get_folder (self->session);
  g_autoptr (GPtrArray) files = NULL;
  TensorExport *export;

  g_return_if_fail (OVI_IS_WINDOW (self));
  g_return_if_fail (what == OVI_WINDOW_EXPORT_OPERATOR_TENSORS ||
                    what == OVI_WINDOW_EXPORT_SELECTION_TENSORS);

  if (folder == NULL)
    return;
  if (ovi_session_get_loading (self->session))
    {
      _ovi_window_show_toast (self, _ ("Not written yet: wait until the scan has finished"));
      return;
    }
  files = tensor_export_files (self, what);
  if (files->len == 0)
    {
      _ovi_window_show_toast (self, _ ("No operator is selected"));
      return;
    }
  export = g_new0 (TensorExport, 1);
  export->window = g_object_ref (self);
  export->output = g_strdup (output);
  export->reveal = g_build_filename (
      output, ovi_dump_file_get_relative_dir (g_ptr_array_index (files, 0)), NULL);
  ovi_report_export_tensors_async (folder, files, OVI_EXPORT_NPY, output, NULL, tensors_exported,
                                   export);
}

typedef struct
{
  OviWindow *window;
  OviWindowExport what;
} TensorRequest;

static void
tensor_request_free (gpointer data)
{
  TensorRequest *request = data;

  g_object_unref (request->window);
  g_free (request);
}

static void
tensor_folder_chosen (GFile *file, gpointer user_data)
{
  TensorRequest *request = user_data;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  if (file == NULL)
    return;
  if (path == NULL)
    {
      _ovi_window_show_toast (request->window, _ ("Only local files can be written"));
      return;
    }
  ovi_window_export_tensors (request->window, request->what, path);
}

static void
export_tensors_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviWindow *self = OVI_WINDOW (widget);
  g_autoptr (GFile) start = export_folder (self);
  TensorRequest *request = g_new0 (TensorRequest, 1);

  request->window = g_object_ref (self);
  request->what = g_str_equal (action_name, "win.export-operator-tensors")
                      ? OVI_WINDOW_EXPORT_OPERATOR_TENSORS
                      : OVI_WINDOW_EXPORT_SELECTION_TENSORS;
  ovi_file_chooser_select_folder (GTK_WINDOW (self), _ ("Export All Tensors Into"), _ ("_Export"),
                                  start, tensor_folder_chosen, request, tensor_request_free);
}

static void
export_menu_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_menu_button_popup (OVI_WINDOW (widget)->export_button);
}

void
_ovi_window_class_add_export_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_menu_action);
  gtk_widget_class_install_action (widget_class, "win.export-report-json", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-report-text", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-tensor-npy", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-tensor-txt", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-tensor-npy-logical", NULL,
                                   export_action);
  gtk_widget_class_install_action (widget_class, "win.export-tensor-txt-logical", NULL,
                                   export_action);
  gtk_widget_class_install_action (widget_class, "win.export-overflow-json", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-operator-tensors", NULL,
                                   export_tensors_action);
  gtk_widget_class_install_action (widget_class, "win.export-selection-tensors", NULL,
                                   export_tensors_action);
}
