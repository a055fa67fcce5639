/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ovi-diff-fixture.h"
#include "ovi-fixtures.h"
#include "ovi-test-util.h"
#include "ovi-tooltip.h"

/* Readable at the sizes people use, in the language the test runs in
 * (again under LANGUAGE=zh_CN: app-window-sizes-zh_CN): every page, the
 * sidebar and the details at 800x600, 1200x800 and 1920x1080. A label
 * cut with "…" must have its full text in a tooltip, and some never may
 * be cut (the sidebar's names, sentences that wrap); no column ends past
 * the edge of its table or the window, no header is narrower than its
 * title, no widget ends past the window's edge; the Ctrl+O popover is a
 * menu's width. */

/* The window sizes people use: a small laptop, the default, a full HD screen. */
static const struct
{
  int width, height;
} window_sizes[] = { { 800, 600 }, { 1200, 800 }, { 1920, 1080 } };

/* Collects the mapped labels under @widget whose text is cut with "…". */
static void
collect_ellipsized (GtkWidget *widget, GPtrArray *out)
{
  if (!gtk_widget_get_mapped (widget) || !gtk_widget_get_child_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) &&
      gtk_label_get_ellipsize (GTK_LABEL (widget)) != PANGO_ELLIPSIZE_NONE &&
      pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect_ellipsized (child, out);
}

/* A short name of where @widget is: its nearest ancestor with a name or a
 * project type, for the test's messages. */
static const char *
widget_place (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w; w = gtk_widget_get_parent (w))
    if (g_str_has_prefix (G_OBJECT_TYPE_NAME (w), "Ovi") || GTK_IS_COLUMN_VIEW (w))
      return G_OBJECT_TYPE_NAME (w);
  return "window";
}

/* Whether @text is in the tooltip of @widget or, when it has none, of its
 * nearest ancestor that has one. */
static gboolean
text_in_tooltip (GtkWidget *widget, const char *text)
{
  for (GtkWidget *w = widget; w; w = gtk_widget_get_parent (w))
    if (ovi_widget_get_tooltip (w) != NULL)
      return strstr (ovi_widget_get_tooltip (w), text) != NULL;
  return FALSE;
}

/* Saves @window as PAGE-WxH[-LANGUAGE].png in OVI_SIZES_DIR, when set. */
static void
grab_size (OviWindow *window, const char *page, int width, int height)
{
  const char *dir = g_getenv ("OVI_SIZES_DIR");
  const char *language = g_getenv ("LANGUAGE");
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  name = g_strdup_printf ("%s-%dx%d%s%s.png", page, width, height, language && *language ? "-" : "",
                          language ? language : "");
  path = g_build_filename (dir, name, NULL);
  save_widget_png (GTK_WIDGET (window), path);
}

/* Text that must never be cut, tooltip or not: sentences that wrap (the
 * status bits' descriptions, a status found in the data). The sidebar's
 * rows, in must_not_cut(), too. */
static GPtrArray *uncut_texts;

static gboolean
must_not_cut (GtkWidget *label, const char *text)
{
  if (gtk_widget_get_ancestor (label, OVI_TYPE_SIDEBAR) != NULL)
    return TRUE;
  for (guint i = 0; uncut_texts != NULL && i < uncut_texts->len; i++)
    if (g_str_equal (text, g_ptr_array_index (uncut_texts, i)))
      return TRUE;
  return FALSE;
}

/* Fails for every ellipsized label under @top on @page whose full text is
 * not in a tooltip, and for every ellipsized sidebar row, status bit
 * description or status sentence. */
static guint
check_ellipsized_in (OviWindow *window, GtkWidget *top, const char *page, int width, int height)
{
  g_autoptr (GPtrArray) cut = g_ptr_array_new ();
  guint n_failed = 0;

  collect_ellipsized (top, cut);
  for (guint i = 0; i < cut->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (cut, i);
      const char *place = widget_place (label);
      const char *text = gtk_label_get_text (GTK_LABEL (label));

      /* Allowed: a label whose full text is in its tooltip, or in that of
       * the widget it is part of (table cells, which the user can also
       * widen; the sidebar's node names, cut in the middle so both ends
       * show; the window's subtitle, a path). */
      if (text_in_tooltip (label, text) && !must_not_cut (label, text))
        continue;
      g_printerr ("%s at %dx%d: ellipsized in %s: \"%s\"\n", page, width, height, place,
                  gtk_label_get_text (GTK_LABEL (label)));
      n_failed++;
    }
  return n_failed;
}

static guint
check_ellipsized (OviWindow *window, const char *page, int width, int height)
{
  return check_ellipsized_in (window, GTK_WIDGET (window), page, width, height);
}

/* The text @widget shows, for the test's messages: its own or its first
 * label's. */
static const char *
widget_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *text = widget_text (child);

      if (text != NULL && *text != '\0')
        return text;
    }
  return NULL;
}

/* Counts the mapped widgets under @widget that end past the right edge of
 * @window (or start left of it): a column the user must scroll to, a
 * widget cut off. One message per such widget, not for its children. */
static guint
check_bounds_under (GtkWidget *window, GtkWidget *widget, const char *page, int width, int height)
{
  graphene_rect_t bounds;
  guint n_failed = 0;

  if (!gtk_widget_get_mapped (widget) || !gtk_widget_get_child_visible (widget))
    return 0;
  /* Popovers are windows of their own; overlay scrollbars reach over the
   * edge by design. */
  if (widget != window && (GTK_IS_NATIVE (widget) || GTK_IS_SCROLLBAR (widget)))
    return 0;
  /* A table: each column, by its header (the rows are as wide), within
   * what the table's scrolled window shows (beside the details, say), and
   * each header wide enough for its title. */
  if (GTK_IS_COLUMN_VIEW (widget))
    {
      GtkWidget *header = gtk_widget_get_first_child (widget);
      GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
      double edge = gtk_widget_get_width (window);
      graphene_rect_t shown;

      if (scrolled != NULL && gtk_widget_compute_bounds (scrolled, window, &shown))
        edge = MIN (edge, shown.origin.x + shown.size.width);
      for (GtkWidget *title = header ? gtk_widget_get_first_child (header) : NULL; title;
           title = gtk_widget_get_next_sibling (title))
        {
          GtkWidget *content = gtk_widget_get_first_child (title);
          int natural = 0;

          if (!gtk_widget_get_mapped (title) || content == NULL ||
              !gtk_widget_compute_bounds (title, window, &bounds))
            continue;
          /* Its label and sort arrow, at less than their natural width. */
          gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
          if (bounds.origin.x + bounds.size.width > edge + 1.5)
            {
              g_printerr ("%s at %dx%d: the column \"%s\" in %s spans x = %.0f…%.0f, past the "
                          "table's edge (%.0f)\n",
                          page, width, height, widget_text (title), widget_place (widget),
                          bounds.origin.x, bounds.origin.x + bounds.size.width, edge);
              n_failed++;
            }
          else if (natural > gtk_widget_get_width (title))
            {
              g_printerr ("%s at %dx%d: the header \"%s\" in %s is cut: %d px of %d\n", page, width,
                          height, widget_text (title), widget_place (widget),
                          gtk_widget_get_width (title), natural);
              n_failed++;
            }
        }
      return n_failed;
    }
  /* Past the edge by more than the pixel that a header bar's border
   * takes. */
  if (gtk_widget_get_width (widget) > 0 && gtk_widget_compute_bounds (widget, window, &bounds) &&
      (bounds.origin.x + bounds.size.width > gtk_widget_get_width (window) + 1.5 ||
       bounds.origin.x < -1.5))
    {
      g_printerr ("%s at %dx%d: %s \"%s\" in %s spans x = %.0f…%.0f, past the window's edge (%d)\n",
                  page, width, height, G_OBJECT_TYPE_NAME (widget),
                  widget_text (widget) ? widget_text (widget) : "", widget_place (widget),
                  bounds.origin.x, bounds.origin.x + bounds.size.width,
                  gtk_widget_get_width (window));
      return 1;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    n_failed += check_bounds_under (window, child, page, width, height);
  return n_failed;
}

/* What @page shows at @width x @height: no label cut without its text in
 * a tooltip, nothing past the window's edge. */
static guint
check_page (OviWindow *window, const char *page, int width, int height)
{
  guint n_failed = check_ellipsized (window, page, width, height);

  /* The window's own bounds take in its shadow: its children are judged. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (window)); child;
       child = gtk_widget_get_next_sibling (child))
    n_failed += check_bounds_under (GTK_WIDGET (window), child, page, width, height);
  grab_size (window, page, width, height);
  return n_failed;
}

/* The Ctrl+O popover, with a long recent folder among the recent ones: a
 * menu of three items, no wider than one. */
static guint
check_open_popover (OviWindow *window)
{
  GtkWidget *popover = NULL;
  int popover_width;

  adw_split_button_popup (window->open_button);
  WAIT_UNTIL ((popover = GTK_WIDGET (adw_split_button_get_popover (window->open_button))) != NULL &&
              gtk_widget_get_mapped (popover));
  ovi_test_wait_still ();
  popover_width = gtk_widget_get_width (popover);
  g_test_message ("the Ctrl+O popover is %d px wide", popover_width);
  adw_split_button_popdown (window->open_button);
  WAIT_UNTIL (!gtk_widget_get_mapped (popover));
  if (popover_width <= 450)
    return 0;
  g_printerr ("the Ctrl+O popover is %d px wide, more than 450\n", popover_width);
  return 1;
}

/* The Diff page's table and pair view share its height: the pair view
 * keeps room for its histograms. */
static guint
check_pair_view (OviWindow *window, const char *page, int width, int height)
{
  int pair_height = gtk_widget_get_height (
      GTK_WIDGET (ovi_diff_page_get_pair_view (ovi_window_get_diff_page (window))));

  g_test_message ("%s at %dx%d: the pair view is %d px high", page, width, height, pair_height);
  if (pair_height >= 200)
    return 0;
  g_printerr ("%s at %dx%d: the pair view is %d px high, less than 200\n", page, width, height,
              pair_height);
  return 1;
}

/* Every page, at the three sizes, in the language the test runs in, over
 * the example folder and, in a second window, two folders (node-a of the
 * example cluster and the example) with node-b's report: no label is cut
 * without its full text in a tooltip, no column or widget ends past the
 * window's edge, the sidebar and the details included, and the Ctrl+O
 * popover is a menu's width. With OVI_SIZES_DIR set, each is also saved
 * as PAGE-WxH[-LANGUAGE].png (tests/app/take-screenshots.sh --sizes). */
static void
test_sizes (Fixture *f, gconstpointer data)
{
  OviWindow *window = f->window;
  OviOverflowRecord *first = find_record (window, 272);
  OviDumpFile *op = ovi_overflow_record_get_op (first);
  g_autoptr (OviWindow) cluster_window = NULL;
  OviWindow *diff_window = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *diff_root = g_dir_make_tmp ("ovi-sizes-diff-XXXXXX", &error);
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *example = g_path_get_dirname (g_getenv ("OVI_EXAMPLE_DIR"));
  g_autofree char *node_a = g_build_filename (example, "example-cluster", "node-a", NULL);
  g_autofree char *node_b = g_build_filename (example, "example-cluster", "node-b.json", NULL);
  const char *recent[] = { g_getenv ("OVI_EXAMPLE_DIR"),
                           "/home/engineer/experiments/resnet50-imagenet-bs256-lr0.1-fp16-"
                           "loss-scale-65536/overflow-dumps/20251202101500/0/resnet50_train/11",
                           NULL };
  GFile *files[3];
  guint n_failed = 0;
  guint bad_index = 0;
  guint n_bits = 0;
  const OviStatusBit *bits = ovi_status_bits (&n_bits);

  uncut_texts = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n_bits; i++)
    g_ptr_array_add (uncut_texts, g_strdup (_ (bits[i].description)));
  g_ptr_array_add (uncut_texts, ovi_overflow_record_dup_status_summary (find_record (window, 0)));

  /* The tensor with non-finite values: its first-bad-value buttons show. */
  for (guint i = 0; i < ovi_dump_file_get_tensors (op)->len; i++)
    {
      g_autoptr (OviAnalysis) analysis =
          ovi_tensor_analyze (g_ptr_array_index (ovi_dump_file_get_tensors (op), i), NULL);

      if (analysis && ovi_analysis_get_stats (analysis)->first_nonfinite >= 0)
        bad_index = i;
    }

  /* Two folders and a report, in a window of their own: the sidebar has
   * a machine level, the timeline two machines. */
  cluster_window = g_object_ref_sink (ovi_window_new (ovi_test_app));
  gtk_window_set_default_size (GTK_WINDOW (cluster_window), 1200, 800);
  gtk_window_present (GTK_WINDOW (cluster_window));
  files[0] = g_file_new_for_path (node_a);
  files[1] = g_file_new_for_path (g_getenv ("OVI_EXAMPLE_DIR"));
  files[2] = g_file_new_for_path (node_b);
  ovi_window_open_files (cluster_window, files, 3);
  for (guint i = 0; i < 3; i++)
    g_object_unref (files[i]);
  WAIT_UNTIL (!ovi_window_get_busy (cluster_window));
  WAIT_UNTIL (ovi_cluster_get_n_roots (
                  ovi_session_get_cluster (ovi_window_get_session (cluster_window))) == 3);

  /* The diff of the fixture's two runs, as `--diff MINE GOLDEN` opens it. */
  g_assert_no_error (error);
  ovi_fixture_write_diff_runs (diff_root);
  ovi_fixture_write_diff_overflow (diff_root);
  {
    GList *before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)));
    g_autofree char *mine = g_build_filename (diff_root, "mine", NULL);
    g_autofree char *golden = g_build_filename (diff_root, "golden", NULL);
    GFile *runs[2] = { g_file_new_for_path (mine), g_file_new_for_path (golden) };

    g_application_open (G_APPLICATION (ovi_test_app), runs, 2, "diff");
    for (GList *l = gtk_application_get_windows (GTK_APPLICATION (ovi_test_app)); l; l = l->next)
      if (g_list_find (before, l->data) == NULL)
        diff_window = g_object_ref (l->data);
    g_list_free (before);
    g_object_unref (runs[0]);
    g_object_unref (runs[1]);
    g_assert_nonnull (diff_window);
    WAIT_UNTIL (ovi_diff_state_get_result (
                    ovi_session_get_diff (ovi_window_get_session (diff_window))) != NULL);
  }

  g_settings_set_strv (settings, "recent-folders", recent);
  n_failed += check_open_popover (window);

  for (guint s = 0; s < G_N_ELEMENTS (window_sizes); s++)
    {
      int width = window_sizes[s].width, height = window_sizes[s].height;

      gtk_window_present (GTK_WINDOW (window));
      resize_to (window, width, height);

      ovi_window_show_page (window, "overflows");
      g_assert_true (ovi_window_select_record (window, first));
      wait_details (window, first);
      n_failed += check_page (window, "overflows", width, height);

      /* The Data record's details: the status described in words. */
      ovi_window_select_record (window, find_record (window, 0));
      wait_details (window, find_record (window, 0));
      n_failed += check_page (window, "overflows-data", width, height);

      ovi_window_show_page (window, "operators");
      ovi_session_set_selected_file (ovi_window_get_session (window), NULL);
      wait_operators_listed (window);
      n_failed += check_page (window, "operators", width, height);

      ovi_window_show_tensor (window, op, bad_index);
      WAIT_UNTIL (ovi_tensor_view_get_file (ovi_window_get_tensor_view (window)) == op &&
                  !ovi_tensor_view_get_busy (ovi_window_get_tensor_view (window)));
      ovi_test_wait_still ();
      n_failed += check_page (window, "tensor", width, height);

      ovi_window_show_page (window, "iterations");
      ovi_iterations_page_select_op (ovi_window_get_iterations_view (window),
                                     most_repeated_op (window));
      WAIT_UNTIL (!ovi_iterations_page_get_busy (ovi_window_get_iterations_view (window)));
      ovi_test_wait_still ();
      n_failed += check_page (window, "iterations", width, height);

      ovi_window_show_page (window, "problems");
      WAIT_UNTIL (gtk_widget_get_mapped (
          GTK_WIDGET (ovi_problems_page_get_column_view (ovi_window_get_problems_page (window)))));
      ovi_test_wait_still ();
      n_failed += check_page (window, "problems", width, height);

      gtk_window_present (GTK_WINDOW (cluster_window));
      resize_to (cluster_window, width, height);
      ovi_window_show_page (cluster_window, "timeline");
      WAIT_UNTIL (timeline_fed (ovi_window_get_timeline_page (cluster_window)));
      ovi_test_wait_still ();
      n_failed += check_page (cluster_window, "timeline", width, height);

      gtk_window_present (GTK_WINDOW (diff_window));
      resize_to (diff_window, width, height);
      ovi_window_show_page (diff_window, "diff");
      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (ovi_window_get_diff_page (diff_window))) &&
                  ovi_diff_pair_view_get_pair (ovi_diff_page_get_pair_view (
                      ovi_window_get_diff_page (diff_window))) != NULL);
      ovi_test_wait_still ();
      n_failed += check_page (diff_window, "diff", width, height);
      n_failed += check_pair_view (diff_window, "diff", width, height);

      /* In front again, so that it is drawn (its grab has something to show). */
      gtk_window_present (GTK_WINDOW (cluster_window));
      ovi_window_show_page (cluster_window, "overflows");
      WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (cluster_window->overflows_page)));
      ovi_test_wait_still ();
      n_failed += check_page (cluster_window, "two-folders", width, height);

      /* Narrow, the sidebar is folded: brought back (F9), it shows its
       * rows whole too. */
      if (!gtk_widget_get_visible (GTK_WIDGET (cluster_window->sidebar)))
        {
          gtk_widget_set_visible (GTK_WIDGET (cluster_window->sidebar), TRUE);
          WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (cluster_window->sidebar)));
          ovi_test_wait_still ();
          n_failed += check_ellipsized_in (cluster_window, GTK_WIDGET (cluster_window->sidebar),
                                           "sidebar", width, height);
          gtk_widget_set_visible (GTK_WIDGET (cluster_window->sidebar), FALSE);
        }
    }
  g_settings_reset (settings, "recent-folders");
  g_clear_pointer (&uncut_texts, g_ptr_array_unref);
  gtk_window_destroy (GTK_WINDOW (cluster_window));
  ovi_test_wait_finalized (g_steal_pointer (&cluster_window), TRUE);
  gtk_window_destroy (GTK_WINDOW (diff_window));
  ovi_test_wait_finalized (g_steal_pointer (&diff_window), TRUE);
  ovi_fixture_remove_tree (diff_root);
  g_assert_cmpuint (n_failed, ==, 0);
}

/* --- the header's page tabs ------------------------------------------------ */

/* The mapped page tab of the header (not of the bottom bar) labelled
 * @label, or NULL when the header shows none. */
static GtkWidget *
header_tab (OviWindow *window, const char *label)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  GtkWidget *header = find_descendant (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);

  /* libadwaita's tab type is private: found by name, read by property. */
  find_by_type_name (header, "AdwViewSwitcherButton", found);
  for (guint i = 0; i < found->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (found, i);
      g_autofree char *text = NULL;

      g_object_get (button, "label", &text, NULL);
      if (gtk_widget_get_mapped (button) && g_strcmp0 (text, label) == 0)
        return button;
    }
  return NULL;
}

/* Where @window's header shows its Diff tab, as "x,y WxH", or "none". */
static char *
diff_tab_place (OviWindow *window)
{
  GtkWidget *tab = header_tab (window, _ ("Diff"));
  graphene_rect_t b;

  if (tab == NULL || !gtk_widget_compute_bounds (tab, GTK_WIDGET (window), &b))
    return g_strdup ("none");
  return g_strdup_printf ("%g,%g %gx%g", b.origin.x, b.origin.y, b.size.width, b.size.height);
}

/* The header's tabs never move under the pointer: in a window comparing
 * two runs, as `--diff MINE GOLDEN` opens it, the Diff tab is where it was
 * while mine was scanned once the scan and the diff are over (or in the
 * bottom bar both times), at every size, in the test's language. Mine
 * holds 600 more iterations, which the window takes in a few files a
 * frame: the scan is still running when the test measures, which it
 * checks. */
static void
test_tabs_still (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("ovi-sizes-tabs-XXXXXX", &error);
  g_autofree char *mine = NULL, *golden = NULL;
  guint n_failed = 0;

  g_assert_no_error (error);
  ovi_fixture_write_diff_runs (root);
  ovi_fixture_write_diff_overflow (root);
  for (guint i = 2; i < 602; i++)
    {
      g_autofree char *iteration = g_strdup_printf ("%u", i);
      g_autofree char *dir = g_build_filename (root, "mine", "0", "model", iteration, NULL);

      g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
      ovi_fixture_write_overflow_op (dir, "Cast", "extra/Cast", 7, 2, 1764670600000000 + i, FALSE);
    }
  mine = g_build_filename (root, "mine", NULL);
  golden = g_build_filename (root, "golden", NULL);

  for (guint s = 0; s < G_N_ELEMENTS (window_sizes); s++)
    {
      int width = window_sizes[s].width, height = window_sizes[s].height;
      g_autoptr (OviWindow) window = g_object_ref_sink (ovi_window_new (ovi_test_app));
      g_autoptr (GFile) mine_file = g_file_new_for_path (mine);
      g_autoptr (GFile) golden_file = g_file_new_for_path (golden);
      OviSession *session = ovi_window_get_session (window);
      g_autofree char *scanning = NULL, *done = NULL, *problems = NULL;
      GtkWidget *squeezer;

      resize_to (window, width, height);
      /* What the application does for `--diff MINE GOLDEN`. */
      ovi_window_open_file (window, mine_file);
      ovi_window_diff_with (window, golden_file);
      /* Once the header has settled on a switcher (the squeezer fades
       * from one to the other) and laid it out. */
      squeezer = find_descendant (find_descendant (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR),
                                  ADW_TYPE_SQUEEZER);
      ovi_test_wait_frames (1);
      WAIT_UNTIL (!adw_squeezer_get_transition_running (ADW_SQUEEZER (squeezer)));
      ovi_test_wait_frames (2);
      scanning = diff_tab_place (window);
      g_assert_true (ovi_session_get_loading (session));

      WAIT_UNTIL (!ovi_session_get_busy (session) &&
                  ovi_diff_state_get_result (ovi_session_get_diff (session)) != NULL);
      ovi_test_wait_still ();
      done = diff_tab_place (window);
      /* Then a file the followed folder cannot read arrives: what says so
       * must not push the tabs either. */
      {
        g_autofree char *name = g_strdup ("Add.broken.1.2.1764670600000000");
        g_autofree char *broken = g_build_filename (mine, "0", "model", "1", name, NULL);

        g_assert_true (g_file_set_contents (broken, "not a dump file", -1, NULL));
        WAIT_UNTIL (ovi_session_get_n_problems (session) > 0);
        ovi_test_wait_still ();
        problems = diff_tab_place (window);
        g_assert_no_errno (g_unlink (broken));
      }
      g_test_message ("%dx%d: Diff tab at %s while scanning, at %s after, at %s with a problem",
                      width, height, scanning, done, problems);
      if (g_strcmp0 (scanning, done) != 0 || g_strcmp0 (scanning, problems) != 0)
        {
          g_printerr ("%dx%d: the Diff tab moved from %s while scanning to %s after and %s with "
                      "a problem\n",
                      width, height, scanning, done, problems);
          n_failed++;
        }
      gtk_window_destroy (GTK_WINDOW (window));
      ovi_test_wait_finalized (g_steal_pointer (&window), TRUE);
    }
  ovi_fixture_remove_tree (root);
  g_assert_cmpuint (n_failed, ==, 0);
}

int
main (int argc, char *argv[])
{
  int exit_code = 0;

  if (!ovi_test_init (&argc, &argv, TRUE, &exit_code))
    return exit_code;

  OVI_TEST_ADD ("/app/sizes/every-page", test_sizes);
  OVI_TEST_ADD ("/app/sizes/tabs-still", test_tabs_still);
  return ovi_test_run ();
}
