/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ovi-application.h"
#include "ovi-window.h"

#define MAX_RECENT 10

struct _OviApplication
{
  AdwApplication parent_instance;
  GSettings *settings;
  char *page; /* --page: the page the folders' window opens on */
};

G_DEFINE_FINAL_TYPE (OviApplication, ovi_application, ADW_TYPE_APPLICATION)

OviApplication *
ovi_application_new (void)
{
  return g_object_new (OVI_TYPE_APPLICATION, "application-id", APP_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/io/github/npu_tools/OverflowInspector", NULL);
}

GSettings *
ovi_application_get_settings (OviApplication *self)
{
  g_return_val_if_fail (OVI_IS_APPLICATION (self), NULL);

  if (self->settings == NULL)
    self->settings = g_settings_new (APP_ID);
  return self->settings;
}

/* The installed example wins, then the source tree's; OVI_EXAMPLE_DIR
 * overrides both so tests and screenshots can point anywhere. */
char *
ovi_application_dup_example_dir (void)
{
  const char *env = g_getenv ("OVI_EXAMPLE_DIR");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  if (g_file_test (EXAMPLE_DIR, G_FILE_TEST_IS_DIR))
    return g_strdup (EXAMPLE_DIR);
  return g_strdup (SOURCE_EXAMPLE_DIR);
}

void
ovi_application_add_recent (OviApplication *self, const char *path)
{
  g_auto (GStrv) old = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) recent = NULL;
  guint n = 1;

  g_return_if_fail (OVI_IS_APPLICATION (self));

  old = g_settings_get_strv (ovi_application_get_settings (self), "recent-folders");
  g_strv_builder_add (builder, path);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    {
      if (g_strcmp0 (old[i], path) == 0)
        continue;
      g_strv_builder_add (builder, old[i]);
      n++;
    }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (ovi_application_get_settings (self), "recent-folders",
                       (const char *const *) recent);
}

static OviWindow *
new_window (OviApplication *self)
{
  OviWindow *window = ovi_window_new (self);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
ovi_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window != NULL)
    gtk_window_present (window);
  else
    new_window (OVI_APPLICATION (app));
}

/**
 * ovi_application_is_report_file:
 *
 * Whether @file is opened as a report (`report --json`, `merge`) rather
 * than as a dump folder or file: its name ends in .json.
 */
gboolean
ovi_application_is_report_file (GFile *file)
{
  return ovi_cluster_is_report_file (file);
}

/* Folders given together open together in one window, one root each
 * (copies from several machines); each dump file gets a window of its own,
 * showing the folder that holds it. Report files (.json) join the first
 * window's timeline, or a window of their own. */
static void
ovi_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  g_autoptr (GPtrArray) together = g_ptr_array_new ();
  OviWindow *first = NULL;

  /* `--diff MINE GOLDEN`: a window on mine, compared with golden. */
  if (g_strcmp0 (hint, "diff") == 0 && n_files == 2)
    {
      OviWindow *window = new_window (OVI_APPLICATION (app));

      ovi_window_open_file (window, files[0]);
      ovi_window_diff_with (window, files[1]);
      return;
    }

  for (int i = 0; i < n_files; i++)
    {
      OviWindow *window;

      if (ovi_application_is_report_file (files[i]) ||
          g_file_query_file_type (files[i], G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        {
          g_ptr_array_add (together, files[i]);
          continue;
        }
      window = new_window (OVI_APPLICATION (app));
      ovi_window_open_file (window, files[i]);
      if (first == NULL)
        first = window;
    }
  if (together->len == 0)
    return;
  /* Folders get a window of their own; reports alone join the first. */
  for (guint i = 0; i < together->len; i++)
    if (!ovi_application_is_report_file (g_ptr_array_index (together, i)))
      first = NULL;
  if (first == NULL)
    first = new_window (OVI_APPLICATION (app));
  ovi_window_open_files (first, (GFile *const *) together->pdata, together->len);
  if (OVI_APPLICATION (app)->page != NULL)
    ovi_window_show_page (first, OVI_APPLICATION (app)->page);
}

/* Options this process takes itself rather than passing them on. */
static int
ovi_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  static const char *const pages[] = { "overflows", "operators", "graph",    "iterations",
                                       "timeline",  "diff",      "problems", NULL };
  char *page = NULL;

  if (g_variant_dict_lookup (options, "page", "s", &page) && !g_strv_contains (pages, page))
    {
      g_autofree char *names = g_strjoinv (", ", (char **) pages);

      /* Said before a window opens on a page that is not there. */
      g_printerr (_ ("overflow-inspector: --page: no page is named “%s”; the pages are %s\n"), page,
                  names);
      g_free (page);
      return 1;
    }
  OVI_APPLICATION (app)->page = page;
  return -1;
}

/* `--diff MINE GOLDEN` is taken here rather than by GApplication's parser,
 * so that the two runs reach open() (in this process or the one already
 * running) with the hint "diff". Anything else is GApplication's. */
static gboolean
ovi_application_local_command_line (GApplication *app, char ***arguments, int *exit_status)
{
  char **argv = *arguments;
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GError) error = NULL;
  gboolean diff = FALSE, options_end = FALSE;

  for (guint i = 1; argv[i] != NULL; i++)
    if (!options_end && g_str_equal (argv[i], "--"))
      options_end = TRUE;
    else if (!options_end && g_str_equal (argv[i], "--diff"))
      diff = TRUE;
  if (!diff)
    return G_APPLICATION_CLASS (ovi_application_parent_class)
        ->local_command_line (app, arguments, exit_status);

  options_end = FALSE;
  for (guint i = 1; argv[i] != NULL; i++)
    {
      if (!options_end && g_str_equal (argv[i], "--"))
        options_end = TRUE;
      else if (!options_end && g_str_equal (argv[i], "--diff"))
        continue;
      else if (!options_end && argv[i][0] == '-')
        {
          /* Translators: %s is a command-line option */
          g_printerr (_ ("overflow-inspector: %s cannot be given with --diff\n"), argv[i]);
          *exit_status = 2;
          return TRUE;
        }
      else
        g_ptr_array_add (runs, g_file_new_for_commandline_arg (argv[i]));
    }
  if (runs->len != 2)
    {
      g_printerr (_ ("overflow-inspector: --diff takes two runs: MINE GOLDEN\n"));
      *exit_status = 2;
      return TRUE;
    }
  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("overflow-inspector: %s\n", error->message);
      *exit_status = 1;
      return TRUE;
    }
  g_application_open (app, (GFile **) runs->pdata, 2, "diff");
  *exit_status = 0;
  return TRUE;
}

static void
show_about (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (app);
  const char *developers[] = { "Overflow Inspector contributors", NULL };

#if ADW_CHECK_VERSION(1, 5, 0)
  AdwDialog *about = adw_about_dialog_new ();

  adw_about_dialog_set_application_name (ADW_ABOUT_DIALOG (about), _ ("Overflow Inspector"));
  adw_about_dialog_set_application_icon (ADW_ABOUT_DIALOG (about), APP_ID);
  adw_about_dialog_set_version (ADW_ABOUT_DIALOG (about), PACKAGE_VERSION);
  adw_about_dialog_set_comments (ADW_ABOUT_DIALOG (about),
                                 _ ("Find where a computation on an Ascend NPU overflowed first"));
  adw_about_dialog_set_developers (ADW_ABOUT_DIALOG (about), developers);
  adw_about_dialog_set_license_type (ADW_ABOUT_DIALOG (about), GTK_LICENSE_GPL_3_0);
  adw_about_dialog_set_translator_credits (ADW_ABOUT_DIALOG (about), _ ("translator-credits"));
  adw_dialog_present (about, GTK_WIDGET (parent));
#else
  GtkWidget *about = adw_about_window_new ();

  gtk_window_set_transient_for (GTK_WINDOW (about), parent);
  adw_about_window_set_application_name (ADW_ABOUT_WINDOW (about), _ ("Overflow Inspector"));
  adw_about_window_set_application_icon (ADW_ABOUT_WINDOW (about), APP_ID);
  adw_about_window_set_version (ADW_ABOUT_WINDOW (about), PACKAGE_VERSION);
  adw_about_window_set_comments (ADW_ABOUT_WINDOW (about),
                                 _ ("Find where a computation on an Ascend NPU overflowed first"));
  adw_about_window_set_developers (ADW_ABOUT_WINDOW (about), developers);
  adw_about_window_set_license_type (ADW_ABOUT_WINDOW (about), GTK_LICENSE_GPL_3_0);
  adw_about_window_set_translator_credits (ADW_ABOUT_WINDOW (about), _ ("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
#endif
}

static void
quit (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Closing the windows first lets each save its size. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_close (GTK_WINDOW (windows->data));
      windows = next;
    }
  g_application_quit (G_APPLICATION (user_data));
}

static void
new_window_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  new_window (OVI_APPLICATION (user_data));
}

/* From a notification: raises the window that sent it, with the record of
 * that overflow file selected. */
/* From a notification: raises the window that sent it, with the record of
 * that overflow file selected. */
static void
show_record (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkWindow *window;
  const char *path;
  guint id;

  g_variant_get (parameter, "(u&s)", &id, &path);
  window = gtk_application_get_window_by_id (GTK_APPLICATION (user_data), id);
  if (!OVI_IS_WINDOW (window))
    return;
  ovi_window_select_record_of_file (OVI_WINDOW (window), path);
  gtk_window_present (window);
}

static const GActionEntry app_actions[] = {
  { "about", show_about },
  { "quit", quit },
  { "new-window", new_window_action },
  { "show-record", show_record, "(us)" },
};

static void
ovi_application_startup (GApplication *app)
{
  static const struct
  {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.reload", { "F5", "<Control>r", NULL } },
    { "win.search", { "<Control>f", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
    { "win.show-page(1)", { "<Alt>1", NULL } },
    { "win.show-page(2)", { "<Alt>2", NULL } },
    { "win.show-page(3)", { "<Alt>3", NULL } },
    { "win.show-page(4)", { "<Alt>4", NULL } },
    { "win.show-page(5)", { "<Alt>5", NULL } },
    { "win.show-page(6)", { "<Alt>6", NULL } },
    { "win.show-page(7)", { "<Alt>7", NULL } }, /* with the Diff page */
    { "win.next-page", { "<Control>Page_Down", NULL } },
    { "win.previous-page", { "<Control>Page_Up", NULL } },
  };

  G_APPLICATION_CLASS (ovi_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

static void
ovi_application_dispose (GObject *object)
{
  OviApplication *self = OVI_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->page, g_free);
  G_OBJECT_CLASS (ovi_application_parent_class)->dispose (object);
}

static void
ovi_application_class_init (OviApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = ovi_application_dispose;
  app_class->activate = ovi_application_activate;
  app_class->open = ovi_application_open;
  app_class->local_command_line = ovi_application_local_command_line;
  app_class->handle_local_options = ovi_application_handle_local_options;
  app_class->startup = ovi_application_startup;
}

static void
ovi_application_init (OviApplication *self)
{
  /* What --help says can be opened (ovi_application_open()). */
  g_application_set_option_context_parameter_string (
      G_APPLICATION (self),
      /* Translators: the arguments of overflow-inspector; keep FOLDER,
       * FILE and REPORT.json as they are */
      _ ("[FOLDER…|FILE…] [REPORT.json…]"));
  /* Listed by --help; taken by ovi_application_local_command_line(). */
  g_application_add_main_option (G_APPLICATION (self), "diff", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_NONE,
                                 _ ("Compare two runs: --diff MINE GOLDEN opens MINE and shows "
                                    "where it starts to differ from GOLDEN"),
                                 NULL);
  g_application_add_main_option (G_APPLICATION (self), "page", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_STRING,
                                 _ ("The page the folders open on: overflows, operators, graph, "
                                    "iterations, timeline or problems"),
                                 _ ("PAGE"));
  g_application_set_option_context_summary (
      G_APPLICATION (self),
      _ ("Folders given together open in one window, one root each (copies from several "
         "machines); each dump FILE opens in a window of its own. REPORT.json files, written by "
         "“overflow-inspector-cli report --json” or “merge” on other machines, join the "
         "timeline of the window the folders open in (or of the first window)."));
}
