/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-notifier.h"

struct _OviNotifier
{
  GObject parent_instance;

  GtkApplicationWindow *window; /* unowned: it owns the notifier */
  OviSession *session;
  OviOverflowRecord *first; /* the first record not seen yet */
  guint unseen;             /* records arrived since the window was last focused */
  char *id;
};

G_DEFINE_FINAL_TYPE (OviNotifier, ovi_notifier, G_TYPE_OBJECT)

static void
send (OviNotifier *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self->window));
  OviDumpFolder *folder = ovi_session_get_folder (self->session);
  OviDumpFile *file = ovi_overflow_record_get_file (self->first);
  g_autoptr (GNotification) notification = NULL;
  g_autofree char *headline = ovi_report_record_headline (self->first);
  g_autofree char *title = NULL;
  g_autofree char *body = NULL;

  if (app == NULL || folder == NULL)
    return;
  if (self->unseen == 1)
    {
      title = g_strdup (_ ("Overflow in the run you follow"));
      body = g_steal_pointer (&headline);
    }
  else
    {
      title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u overflow in the run you follow",
                                            "%u overflows in the run you follow", self->unseen),
                               self->unseen);
      /* Translators: the first of several overflows, in words */
      body = g_strdup_printf (_ ("The first: %s"), headline);
    }
  notification = g_notification_new (title);
  g_notification_set_body (notification, body);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  /* Clicking it raises the window with that record selected. */
  g_notification_set_default_action_and_target (notification, "app.show-record", "(us)",
                                                gtk_application_window_get_id (self->window),
                                                file ? ovi_dump_file_get_relative_path (file) : "");
  g_application_send_notification (G_APPLICATION (app), self->id, notification);
}

static void
records_arrived (OviNotifier *self, GPtrArray *records)
{
  if (records->len == 0 || gtk_window_is_active (GTK_WINDOW (self->window)))
    return;
  /* The one that overflowed first among them. */
  for (guint i = 0; i < records->len; i++)
    {
      OviOverflowRecord *r = g_ptr_array_index (records, i);
      if (self->first == NULL ||
          ovi_overflow_record_get_position (r) < ovi_overflow_record_get_position (self->first))
        g_set_object (&self->first, r);
    }
  self->unseen += records->len;
  send (self);
}

static void
active_changed (OviNotifier *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self->window));

  if (!gtk_window_is_active (GTK_WINDOW (self->window)) || self->unseen == 0)
    return;
  self->unseen = 0;
  g_clear_object (&self->first);
  if (app)
    g_application_withdraw_notification (G_APPLICATION (app), self->id);
}

static void
ovi_notifier_dispose (GObject *object)
{
  OviNotifier *self = OVI_NOTIFIER (object);

  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->first);
  G_OBJECT_CLASS (ovi_notifier_parent_class)->dispose (object);
}

static void
ovi_notifier_finalize (GObject *object)
{
  g_free (OVI_NOTIFIER (object)->id);
  G_OBJECT_CLASS (ovi_notifier_parent_class)->finalize (object);
}

static void
ovi_notifier_class_init (OviNotifierClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ovi_notifier_dispose;
  G_OBJECT_CLASS (klass)->finalize = ovi_notifier_finalize;
}

static void
ovi_notifier_init (OviNotifier *self)
{
}

/* The window must be shown by an application (its id names the
 * notification); the notifier lives as long as the window. */
OviNotifier *
ovi_notifier_new (GtkApplicationWindow *window, OviSession *session)
{
  OviNotifier *self = g_object_new (OVI_TYPE_NOTIFIER, NULL);

  self->window = window;
  self->session = g_object_ref (session);
  self->id = g_strdup_printf ("overflow-%p", (gpointer) window);
  g_signal_connect_object (session, "records-arrived", G_CALLBACK (records_arrived), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (window, "notify::is-active", G_CALLBACK (active_changed), self,
                           G_CONNECT_SWAPPED);
  return self;
}
