/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-scan-bar.h"

struct _OviScanBar
{
  OviPage parent_instance;

  GtkButton *cancel_button;
  GtkRevealer *cancelled_revealer;
  GtkProgressBar *progress_bar;
  GtkLabel *progress_label;
  GtkRevealer *progress_revealer;

  GSignalGroup *folder_signals; /* the session's folder: its counts */
  GBinding *folder_binding;     /* session:folder -> folder_signals:target */
};

G_DEFINE_FINAL_TYPE (OviScanBar, ovi_scan_bar, OVI_TYPE_PAGE)

static void
update_progress (OviScanBar *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviDumpFolder *folder = session ? ovi_session_get_folder (session) : NULL;
  OviScanProgress progress;
  g_autofree char *text = NULL;

  if (folder == NULL)
    return;
  ovi_dump_folder_get_progress (folder, &progress);
  if (!ovi_dump_folder_get_loading (folder) && ovi_dump_folder_get_analyzing (folder) &&
      progress.operators > 0)
    {
      /* Summaries have a known end: a bar that fills, rather than one that
       * pulses and so redraws the window at every frame, which with
       * software rendering takes the CPU the summaries need. */
      text = g_strdup_printf (_ ("Summarizing operators: %llu of %llu"),
                              (unsigned long long) progress.summarized,
                              (unsigned long long) progress.operators);
      gtk_progress_bar_set_fraction (self->progress_bar,
                                     (double) progress.summarized / progress.operators);
    }
  else
    {
      unsigned long long seen = progress.files_seen, dumps = progress.dump_files,
                         records = progress.overflow_records;
      g_autofree char *seen_text = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%llu file seen", "%llu files seen", seen), seen);
      g_autofree char *dumps_text = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%llu dump file", "%llu dump files", dumps), dumps);
      g_autofree char *records_text = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%llu overflow record", "%llu overflow records", records),
          records);

      /* Translators: the progress of a scan: "12 files seen, 10 dump files, 2 overflow records" */
      text = g_strdup_printf (_ ("%s, %s, %s"), seen_text, dumps_text, records_text);
      if (ovi_session_get_busy (session))
        gtk_progress_bar_pulse (self->progress_bar);
    }
  gtk_label_set_text (self->progress_label, text);
}

/* The progress area shows while the folder scans or its operators are
 * summarized; once a scan was cancelled, a banner says the result is
 * partial. */
static void
busy_changed (OviScanBar *self)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  gboolean busy = session != NULL && ovi_session_get_busy (session);

  gtk_revealer_set_reveal_child (self->progress_revealer, busy);
  /* A closed revealer keeps its child in the accessibility tree, with the
   * bounds it last had: hide the bar itself so that no reader finds a
   * progress bar once the work is done. */
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), busy);
  gtk_revealer_set_reveal_child (self->cancelled_revealer,
                                 !busy && session != NULL && ovi_session_get_cancelled (session));
  update_progress (self);
}

static void
folder_changed (OviScanBar *self)
{
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  busy_changed (self);
}

static void
ovi_scan_bar_session_changed (OviPage *page, OviSession *old_session)
{
  OviScanBar *self = OVI_SCAN_BAR (page);
  OviSession *session = ovi_page_get_session (page);

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (old_session, self);
  g_clear_pointer (&self->folder_binding, g_binding_unbind);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::folder", G_CALLBACK (folder_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::busy", G_CALLBACK (busy_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::cancelled", G_CALLBACK (busy_changed), self,
                               G_CONNECT_SWAPPED);
      self->folder_binding = g_object_bind_property (session, "folder", self->folder_signals,
                                                     "target", G_BINDING_SYNC_CREATE);
    }
  else if (self->folder_signals != NULL)
    g_signal_group_set_target (self->folder_signals, NULL);
  if (self->progress_bar != NULL)
    busy_changed (self);
}

static void
ovi_scan_bar_dispose (GObject *object)
{
  OviScanBar *self = OVI_SCAN_BAR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_SCAN_BAR);
  self->progress_bar = NULL;
  G_OBJECT_CLASS (ovi_scan_bar_parent_class)->dispose (object);
  g_clear_object (&self->folder_signals);
}

static void
ovi_scan_bar_class_init (OviScanBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_scan_bar_dispose;
  OVI_PAGE_CLASS (klass)->session_changed = ovi_scan_bar_session_changed;

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-scan-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, OviScanBar, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, OviScanBar, cancelled_revealer);
  gtk_widget_class_bind_template_child (widget_class, OviScanBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, OviScanBar, progress_label);
  gtk_widget_class_bind_template_child (widget_class, OviScanBar, progress_revealer);
}

static void
ovi_scan_bar_init (OviScanBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The scan's counts, from whichever folder the session has open. */
  self->folder_signals = g_signal_group_new (OVI_TYPE_DUMP_FOLDER);
  g_signal_group_connect_swapped (self->folder_signals, "notify::files-seen",
                                  G_CALLBACK (update_progress), self);
  g_signal_group_connect_swapped (self->folder_signals, "notify::overflow-records",
                                  G_CALLBACK (update_progress), self);
}
