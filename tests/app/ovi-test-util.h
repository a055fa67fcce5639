/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ovi-application.h"
#include "ovi-core.h"
#include "ovi-window-private.h"

G_BEGIN_DECLS

/* What the UI tests share: the application, the window fixture, waiting
 * on a condition (never for a fixed time) and reading what a window shows.
 * Every test executable of tests/app links it. */

/* The longest any one wait may take before the test fails: far above what
 * any condition needs (well under a second on a quiet machine), so a busy
 * CI machine only makes a test slower, never makes it fail. */
#define OVI_TEST_CEILING_SECONDS 60

/* One registered application for all tests of an executable, as in the
 * running app (set by ovi_test_init() when there is a display). */
extern OviApplication *ovi_test_app;

/* --- set-up ---------------------------------------------------------------- */

/* Private XDG folders, g_test_init() and, with @needs_display, GTK,
 * libadwaita and the application. Returns FALSE when the tests cannot run:
 * then main() returns *@exit_code (77, or 0 after a "1..0 # SKIP" plan under
 * --tap, when there is no display). */
gboolean ovi_test_init (int *argc, char ***argv, gboolean needs_display, int *exit_code);

/* g_test_run(), then removes the private XDG folders. */
int ovi_test_run (void);

/* A window of the application showing the example dump folder, every record
 * in its table, and a temporary folder for the test to write in. */
typedef struct
{
  OviWindow *window;
  char *tmpdir;
} Fixture;

/* Opens the example in a new 1280x900 window; returns once the scan and the
 * summaries are done, the table lists every record and the window is
 * still (ovi_test_wait_still()). */
void ovi_test_fixture_setup (Fixture *f, gconstpointer data);

/* Destroys the window and waits until it is finalized and the windows are
 * still, so that nothing of it runs into the next test. */
void ovi_test_fixture_teardown (Fixture *f, gconstpointer data);

#define OVI_TEST_ADD(path, func)                                                                   \
  g_test_add (path, Fixture, NULL, ovi_test_fixture_setup, func, ovi_test_fixture_teardown)

/* --- waiting on conditions ------------------------------------------------- */

/* The state of one WAIT_UNTIL: its ceiling, and its poll when it has one. */
typedef struct
{
  gboolean timed_out;
  guint ceiling_id;
  guint poll_id;
} OviTestWait;

/* What WAIT_UNTIL expands to: arm the ceiling (and the poll), run the main
 * loop one event at a time (failing at the ceiling), disarm. */
void ovi_test_wait_begin (OviTestWait *wait, guint poll_ms);
void ovi_test_wait_step (OviTestWait *wait, const char *what, const char *file, int line);
void ovi_test_wait_end (OviTestWait *wait);

/* Runs the main loop until @cond holds; fails the test, naming @cond, if
 * it does not within OVI_TEST_CEILING_SECONDS. @cond is checked after each
 * event the main loop dispatches. */
#define WAIT_UNTIL(cond) WAIT_UNTIL_POLLED (cond, 0)

/* The same for a condition no main-loop event announces (a worker thread
 * touching memory, a file on disk): also checked every @poll_ms. */
#define WAIT_UNTIL_POLLED(cond, poll_ms)                                                           \
  G_STMT_START                                                                                     \
  {                                                                                                \
    OviTestWait wait_;                                                                             \
                                                                                                   \
    ovi_test_wait_begin (&wait_, poll_ms);                                                         \
    while (!(cond))                                                                                \
      ovi_test_wait_step (&wait_, #cond, __FILE__, __LINE__);                                      \
    ovi_test_wait_end (&wait_);                                                                    \
  }                                                                                                \
  G_STMT_END

/* Waits until every mapped toplevel has painted @n more frames (each
 * frame lays out what changed before it is painted). */
void ovi_test_wait_frames (guint n);

/* Waits until the windows are still: at least two more frames painted, the
 * last of them leaving nothing ready to run on the main loop (no idle
 * relayout, no X event, no result to apply) and no revealer or stack of a
 * mapped toplevel in a transition. What a user sees once the app is done. */
void ovi_test_wait_still (void);

/* Waits until the record table of @window has a row for every record of
 * the session (all fit in its height), then until the windows are still. */
void wait_records_listed (OviWindow *window);

/* Whether the record details of @window show @record (their "record"). */
gboolean details_show (OviWindow *window, OviOverflowRecord *record);

/* Waits until the record details of @window show @record, then until the
 * windows are still (its rows built and laid out). */
void wait_details (OviWindow *window, OviOverflowRecord *record);

/* Waits until the operator table of @window is shown and holds the
 * session's operators (it takes them when its page is first shown), with
 * nothing left to sort or filter, then until the windows are still. */
void wait_operators_listed (OviWindow *window);

/* A "changed" handler that counts into @count: a settings key was written. */
void count_change (guint *count);

/* Waits until @object is finalized; drops a reference to it first when
 * @unref (a window destroyed and released, say). Call it while @object is
 * alive. */
void ovi_test_wait_finalized (gpointer object, gboolean unref);

/* Sets the default size of @window (a GtkWindow), presenting it if it is
 * not shown yet; waits until it is laid out at the size that gives
 * (clamped to the screen), then until it is still. */
void resize_to (gpointer window, int width, int height);

/* --- reading the window ------------------------------------------------------ */

/* Appends the text of every mapped label below @widget to @out, '|' between. */
void collect_labels (GtkWidget *widget, GString *out);

/* The rows @view displays, top to bottom, each as its cell texts joined by '|'. */
GPtrArray *visible_rows (GtkColumnView *view);

/* The number of rows @view displays (mapped row widgets). */
guint n_visible_rows (GtkColumnView *view);

/* The text in @column of row @row of visible_rows(). */
char *cell (GPtrArray *rows, guint row, guint column);

/* Folds the sidebar (F9): the tables then have the window's width, and show
 * the columns a test reads by their place. */
void fold_sidebar (OviWindow *window);

/* The column of @view titled @title (fails when there is none). */
GtkColumnViewColumn *column_by_title (GtkColumnView *view, const char *title);

/* The list view inside @view, whose children are its rows. */
GtkWidget *inner_list (GtkColumnView *view);

/* A template child of @widget, declared by @type. */
gpointer template_child (gpointer widget, GType type, const char *name);

/* The first widget of @type below @widget, depth first. */
GtkWidget *find_descendant (GtkWidget *widget, GType type);

/* The first mapped label under @widget whose text is @text. */
GtkLabel *find_label_with_text (GtkWidget *widget, const char *text);

/* The first mapped button under @widget labelled @label. */
GtkWidget *find_button (GtkWidget *widget, const char *label);

/* Adds to @found the widgets below @widget whose type is @type_name
 * (libadwaita's toast widgets are private). */
void find_by_type_name (GtkWidget *widget, const char *type_name, GPtrArray *found);

/* The text of the toasts @window shows. */
char *toast_text (OviWindow *window);

/* Whether the keyboard focus of @window is @widget or inside it. */
gboolean focus_inside (OviWindow *window, gpointer widget);

/* The toplevel transient for @parent (a dialog it opened), or NULL. */
GtkWindow *find_transient_for (GtkWindow *parent);

/* The names of the mapped OviAccessibleRows below @widget, as read aloud. */
void collect_row_names (GtkWidget *widget, GPtrArray *names);

/* Whether @window shows its page @name. */
gboolean page_shown (OviWindow *window, const char *name);

/* --- reading the folder ------------------------------------------------------ */

/* The record of @window's folder whose status is @status, or NULL. */
OviOverflowRecord *find_record (OviWindow *window, guint64 status);

/* The op dump file @op_name of @iteration in @window's folder, or NULL. */
OviDumpFile *find_op (OviWindow *window, const char *op_name, const char *iteration);

/* The index of @file's first output tensor. */
guint output_index (OviDumpFile *file);

/* The operator name dumped in the most iterations (the first overflow's
 * operator when there is a tie), for the Iterations page. */
const char *most_repeated_op (OviWindow *window);

/* The value next to @name in the tensor view's information grid, or NULL. */
const char *tensor_info (OviTensorView *view, const char *name);

/* A template child of the tensor view. */
GtkWidget *tensor_view_child (OviTensorView *view, const char *id);

/* The text of the tensor view's label @id. */
const char *label_text (OviTensorView *view, const char *id);

/* Fails unless @rows are sorted by @column: numerically or as
 * GtkStringSorter compares (ignoring case), ascending or @descending. */
void assert_sorted (GPtrArray *rows, guint column, gboolean numeric, gboolean descending);

/* A tensor of the example with NaN, Inf or saturated values. */
typedef struct
{
  OviDumpFile *file;
  guint index;
  OviStats stats;
} Abnormal;

/* Every tensor of the example with NaN, Inf or saturated values (Abnormal). */
GPtrArray *all_abnormal_tensors (OviWindow *window);

/* The tensor of the example with the most kinds of abnormal values. */
gboolean find_abnormal_tensor (OviWindow *window,
                               OviDumpFile **file_out,
                               guint *index_out,
                               OviStats *stats_out);

/* --- acting as a user -------------------------------------------------------- */

/* What GTK does when files from a file manager are dropped on @window. */
gboolean drop_files (OviWindow *window, GFile **files, guint n_files);

/* What a user does through the X server (xdotool): a click of mouse
 * @button on the middle of @widget, or the keys @keys ("ctrl+c") pressed
 * with the pointer over @widget. Returns FALSE, having marked the test
 * skipped, without xdotool or an X display. */
gboolean xdotool_click (GtkWidget *widget, int button);
gboolean xdotool_keys (GtkWidget *widget, const char *keys);

/* --- the cluster timeline ---------------------------------------------------- */

/* @root's report as machine @host writes it, saved to @path. */
void write_report (const char *root, const char *host, const char *path);

/* The text of the timeline page's label @id. */
const char *timeline_label (OviTimelinePage *page, const char *id);

/* Whether the timeline page's widget @id is shown. */
gboolean timeline_shows (OviTimelinePage *page, const char *id);

/* Whether the timeline's table has been given every rank of the page (it
 * takes them a few a frame when many arrive at once). */
gboolean timeline_fed (OviTimelinePage *page);

/* Selects @rank and waits for the page to show it: then checks that the
 * page says its data stayed on @host in @root and gives the command to run
 * there. */
void assert_remote_view (OviTimelinePage *page, OviRank *rank, const char *host, const char *root);

/* --- files ------------------------------------------------------------------- */

/* Removes @path and everything below it. */
void remove_tree (const char *path);

/* Saves what @widget shows as @path (PNG). */
void save_widget_png (GtkWidget *widget, const char *path);

G_END_DECLS
