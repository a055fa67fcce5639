/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Called with the chosen file, or NULL when the user cancelled. */
typedef void (*OviFileChosenFunc) (GFile *file, gpointer user_data);

/* GtkFileChooserNative on GTK 4.8, GtkFileDialog from GTK 4.10: the
 * version split lives here and nowhere else. */
void ovi_file_chooser_select_folder (GtkWindow *parent,
                                     const char *title,
                                     const char *accept,
                                     GFile *initial_folder,
                                     OviFileChosenFunc func,
                                     gpointer user_data,
                                     GDestroyNotify destroy);
void ovi_file_chooser_open_file (GtkWindow *parent,
                                 const char *title,
                                 OviFileChosenFunc func,
                                 gpointer user_data,
                                 GDestroyNotify destroy);
void ovi_file_chooser_open_file_in (GtkWindow *parent,
                                    const char *title,
                                    const char *accept,
                                    GFile *initial_folder,
                                    OviFileChosenFunc func,
                                    gpointer user_data,
                                    GDestroyNotify destroy);
void ovi_file_chooser_save (GtkWindow *parent,
                            const char *title,
                            const char *initial_name,
                            GFile *initial_folder,
                            OviFileChosenFunc func,
                            gpointer user_data,
                            GDestroyNotify destroy);

/* Called with the chosen files (GFile items), or NULL when the user cancelled. */
typedef void (*OviFilesChosenFunc) (GListModel *files, gpointer user_data);

void ovi_file_chooser_select_folders (GtkWindow *parent,
                                      const char *title,
                                      OviFilesChosenFunc func,
                                      gpointer user_data);
void ovi_file_chooser_open_reports (GtkWindow *parent,
                                    const char *title,
                                    OviFilesChosenFunc func,
                                    gpointer user_data);

G_END_DECLS
