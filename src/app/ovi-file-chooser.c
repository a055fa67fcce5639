/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-file-chooser.h"

typedef enum
{
  CHOOSE_FOLDER,
  CHOOSE_FILE,
  CHOOSE_SAVE,
} Choose;

typedef struct
{
  OviFileChosenFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
  Choose choose;
} Request;

static Request *
request_new (OviFileChosenFunc func, gpointer user_data, GDestroyNotify destroy, Choose choose)
{
  Request *request = g_new0 (Request, 1);

  request->func = func;
  request->user_data = user_data;
  request->destroy = destroy;
  request->choose = choose;
  return request;
}

static void
request_finish (Request *request, GFile *file)
{
  request->func (file, request->user_data);
  if (request->destroy != NULL)
    request->destroy (request->user_data);
  g_free (request);
}

#if GTK_CHECK_VERSION(4, 10, 0)
static void
dialog_done (GObject *object, GAsyncResult *result, gpointer data)
{
  Request *request = data;
  g_autoptr (GFile) file = NULL;

  if (request->choose == CHOOSE_SAVE)
    file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);
  else if (request->choose == CHOOSE_FILE)
    file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, NULL);
  else
    file = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, NULL);
  request_finish (request, file);
}
#else
static void
native_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  Request *request = data;
  g_autoptr (GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  request_finish (request, file);
  g_object_unref (dialog);
}
#endif

/* A folder, or with @choose CHOOSE_FILE one file: @accept labels the
 * button that takes it, @initial_folder (nullable) is where the dialog
 * starts. */
static void
choose_to_open (GtkWindow *parent,
                const char *title,
                const char *accept,
                Choose choose,
                GFile *initial_folder,
                OviFileChosenFunc func,
                gpointer user_data,
                GDestroyNotify destroy)
{
  Request *request = request_new (func, user_data, destroy, choose);

#if GTK_CHECK_VERSION(4, 10, 0)
  g_autoptr (GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, title);
  gtk_file_dialog_set_accept_label (dialog, accept);
  if (initial_folder != NULL)
    gtk_file_dialog_set_initial_folder (dialog, initial_folder);
  if (choose == CHOOSE_FILE)
    gtk_file_dialog_open (dialog, parent, NULL, dialog_done, request);
  else
    gtk_file_dialog_select_folder (dialog, parent, NULL, dialog_done, request);
#else
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      title, parent,
      choose == CHOOSE_FILE ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
      accept, _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  if (initial_folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), initial_folder, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (native_response), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
#endif
}

/**
 * ovi_file_chooser_select_folder:
 * @accept: the label of the button that takes the folder, saying what
 *   happens to it ("_Export"), not "Open"
 *
 * Lets the user pick one folder to write into.
 */
void
ovi_file_chooser_select_folder (GtkWindow *parent,
                                const char *title,
                                const char *accept,
                                GFile *initial_folder,
                                OviFileChosenFunc func,
                                gpointer user_data,
                                GDestroyNotify destroy)
{
  choose_to_open (parent, title, accept, CHOOSE_FOLDER, initial_folder, func, user_data, destroy);
}

void
ovi_file_chooser_open_file (GtkWindow *parent,
                            const char *title,
                            OviFileChosenFunc func,
                            gpointer user_data,
                            GDestroyNotify destroy)
{
  choose_to_open (parent, title, _ ("_Open"), CHOOSE_FILE, NULL, func, user_data, destroy);
}

/* One file, starting in @initial_folder (nullable), taken by @accept. */
void
ovi_file_chooser_open_file_in (GtkWindow *parent,
                               const char *title,
                               const char *accept,
                               GFile *initial_folder,
                               OviFileChosenFunc func,
                               gpointer user_data,
                               GDestroyNotify destroy)
{
  choose_to_open (parent, title, accept, CHOOSE_FILE, initial_folder, func, user_data, destroy);
}

void
ovi_file_chooser_save (GtkWindow *parent,
                       const char *title,
                       const char *initial_name,
                       GFile *initial_folder,
                       OviFileChosenFunc func,
                       gpointer user_data,
                       GDestroyNotify destroy)
{
  Request *request = request_new (func, user_data, destroy, CHOOSE_SAVE);

#if GTK_CHECK_VERSION(4, 10, 0)
  g_autoptr (GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, title);
  gtk_file_dialog_set_initial_name (dialog, initial_name);
  gtk_file_dialog_set_initial_folder (dialog, initial_folder);
  gtk_file_dialog_save (dialog, parent, NULL, dialog_done, request);
#else
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), initial_name);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), initial_folder, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (native_response), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
#endif
}

/* --- several report files -------------------------------------------------- */

typedef struct
{
  OviFilesChosenFunc func;
  gpointer user_data;
} FilesRequest;

static void
files_request_finish (FilesRequest *request, GListModel *files)
{
  request->func (files, request->user_data);
  g_free (request);
}

#if GTK_CHECK_VERSION(4, 10, 0)
static void
open_multiple_done (GObject *object, GAsyncResult *result, gpointer data)
{
  g_autoptr (GListModel) files =
      gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (object), result, NULL);

  files_request_finish (data, files);
}

static void
select_multiple_folders_done (GObject *object, GAsyncResult *result, gpointer data)
{
  g_autoptr (GListModel) files =
      gtk_file_dialog_select_multiple_folders_finish (GTK_FILE_DIALOG (object), result, NULL);

  files_request_finish (data, files);
}
#else
static void
open_multiple_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  g_autoptr (GListModel) files = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
  files_request_finish (data, files);
  g_object_unref (dialog);
}
#endif

/* Several files (@filter: NULL for folders) for @func. */
static void
choose_several (GtkWindow *parent,
                const char *title,
                const char *accept,
                GtkFileFilter *filter,
                OviFilesChosenFunc func,
                gpointer user_data)
{
  FilesRequest *request = g_new0 (FilesRequest, 1);

  request->func = func;
  request->user_data = user_data;
#if GTK_CHECK_VERSION(4, 10, 0)
  {
    g_autoptr (GtkFileDialog) dialog = gtk_file_dialog_new ();

    gtk_file_dialog_set_title (dialog, title);
    gtk_file_dialog_set_accept_label (dialog, accept);
    if (filter == NULL)
      gtk_file_dialog_select_multiple_folders (dialog, parent, NULL, select_multiple_folders_done,
                                               request);
    else
      {
        gtk_file_dialog_set_default_filter (dialog, filter);
        gtk_file_dialog_open_multiple (dialog, parent, NULL, open_multiple_done, request);
      }
  }
#else
  {
    GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
        title, parent,
        filter ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, accept,
        _ ("_Cancel"));

    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
    if (filter != NULL)
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    g_signal_connect (dialog, "response", G_CALLBACK (open_multiple_response), request);
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

/**
 * ovi_file_chooser_select_folders:
 * @func: called with the chosen folders (a #GListModel of #GFile), or
 *   %NULL when the user cancelled
 *
 * Lets the user pick one dump folder, or several to open together (one
 * copied from each machine).
 */
void
ovi_file_chooser_select_folders (GtkWindow *parent,
                                 const char *title,
                                 OviFilesChosenFunc func,
                                 gpointer user_data)
{
  choose_several (parent, title, _ ("_Open"), NULL, func, user_data);
}

/**
 * ovi_file_chooser_open_reports:
 * @func: called with the chosen files (a #GListModel of #GFile), or %NULL
 *   when the user cancelled
 *
 * Lets the user pick one or more JSON report files.
 */
void
ovi_file_chooser_open_reports (GtkWindow *parent,
                               const char *title,
                               OviFilesChosenFunc func,
                               gpointer user_data)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("Reports (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_mime_type (filter, "application/json");
  choose_several (parent, title, _ ("_Add"), filter, func, user_data);
}
