/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-scheduler.h"
#include "ovi-session.h"

struct _OviSession
{
  GObject parent_instance;

  GSettings *settings;
  OviDumpFolder *folder;
  GCancellable *cancellable; /* the load: scan, summaries and their delivery */
  OviFolderWatch *watch;     /* follows the folder once it is loaded */
  OviTreeNode *tree_root;
  GHashTable *devices; /* "root/device" of the folder's files, for n-devices */
  GtkTreeListModel *tree;
  GtkFilterListModel *operators; /* the folder's op dump files */
  OviOpIndex *op_index;          /* the folder's operators by iteration */
  OviTreeNode *selected_node;
  OviOverflowRecord *selected_record;
  OviDumpFile *selected_file;
  OviTensor *selected_tensor; /* of selected_file, the one its view shows */
  /* After F5, what was selected before, by relative path, until the scan
   * finds it again or ends without it. */
  char *reselect_record;
  char *reselect_file;
  OviDiffState *diff;     /* the run shown against a golden one: the Diff page */
  OviGraphState *graph;   /* the selected operator's dataflow graph: the Graph page */
  OviCluster *cluster;    /* the timeline: the folder's devices, and those of report
                           * files from other machines (kept over reloads) */
  GStrv cluster_roots;    /* the folder's roots as the cluster has them */
  gboolean cluster_shown; /* a page shows the cluster: keep it current */
  gboolean cluster_stale; /* the folder changed since its part was built */
  guint cluster_task;     /* ovi-scheduler.c's */
  guint apply_task;       /* takes the scan's results in, ovi-scheduler.c's */
  int unit_filter;
  gboolean loading;
  gboolean cancelled;
  gboolean opened_folder; /* the one root was a folder when its load started */
  gboolean gone_in_scan;  /* and it was moved or deleted before the load was over */
};

enum
{
  PROP_0,
  PROP_BUSY,
  PROP_CANCELLED,
  PROP_CLUSTER,
  PROP_DIFF,
  PROP_FOLDER,
  PROP_GRAPH,
  PROP_FOLDER_GONE,
  PROP_FOLLOWING,
  PROP_LIVE,
  PROP_LIVE_MODE,
  PROP_LIVE_PENDING,
  PROP_LOADING,
  PROP_N_DEVICES,
  PROP_N_PROBLEMS,
  PROP_N_ROOTS,
  PROP_OP_INDEX,
  PROP_OPERATORS,
  PROP_PROBLEMS,
  PROP_RECORDS,
  PROP_SELECTED_FILE,
  PROP_SELECTED_NODE,
  PROP_SELECTED_RECORD,
  PROP_SELECTED_TENSOR,
  PROP_SETTINGS,
  PROP_TREE,
  PROP_UNIT_FILTER,
  N_PROPS
};

enum
{
  LOAD_FINISHED,
  RECORDS_ARRIVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (OviSession, ovi_session, G_TYPE_OBJECT)

static void update_cluster (OviSession *self);

static gboolean
is_op_dump (gpointer item, gpointer unused)
{
  return ovi_dump_file_get_kind (item) == OVI_FILE_KIND_OP_DUMP;
}

static GListModel *
create_tree_children (gpointer item, gpointer unused)
{
  GListModel *children = ovi_tree_node_get_children (item);

  return children ? g_object_ref (children) : NULL;
}

static void
set_loading (OviSession *self, gboolean loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_cancelled (OviSession *self, gboolean cancelled)
{
  if (self->cancelled == cancelled)
    return;
  self->cancelled = cancelled;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLED]);
}

static void
analyzing_changed (OviSession *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* A cancel while the operators are summarized, after the listing, leaves a
 * partial result too. */
static void
folder_cancelled_changed (OviSession *self)
{
  if (ovi_dump_folder_get_cancelled (self->folder))
    set_cancelled (self, TRUE);
}

static void
files_changed (OviSession *self, guint position, guint removed, guint added, GListModel *files)
{
  /* The folder only appends while it scans. */
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      const char *device = ovi_dump_file_get_device (file);

      ovi_tree_node_add_file (self->tree_root, file);
      /* Two roots with the same device id are two devices (two ranks). */
      if (device != NULL &&
          g_hash_table_add (self->devices,
                            g_strdup_printf ("%u/%s", ovi_dump_file_get_root (file), device)))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DEVICES]);
      if (self->reselect_file != NULL &&
          g_strcmp0 (ovi_dump_file_get_relative_path (file), self->reselect_file) == 0)
        {
          g_clear_pointer (&self->reselect_file, g_free);
          ovi_session_set_selected_file (self, file);
        }
    }
}

static void
records_changed (OviSession *self, guint position, guint removed, guint added, GListModel *records)
{
  /* A followed folder can lose records: count them all again. */
  if (removed > 0)
    {
      ovi_tree_node_clear_counts (self->tree_root);
      position = 0;
      added = g_list_model_get_n_items (records);
    }
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);

      if (file != NULL)
        ovi_tree_node_add_record (self->tree_root, file);
      if (file != NULL && self->reselect_record != NULL &&
          g_strcmp0 (ovi_dump_file_get_relative_path (file), self->reselect_record) == 0)
        {
          g_clear_pointer (&self->reselect_record, g_free);
          ovi_session_set_selected_record (self, record);
        }
    }
}

static void
problems_changed (OviSession *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PROBLEMS]);
}

/* The ignore list from the settings, applied to the open folder: records
 * of ignored operators are greyed and skipped for "first overflow". */
static void
apply_ignore_list (OviSession *self)
{
  g_auto (GStrv) patterns = NULL;
  g_autoptr (OviIgnoreList) list = NULL;

  if (self->folder == NULL)
    return;
  patterns = g_settings_get_strv (self->settings, "ignore-patterns");
  list = ovi_ignore_list_new ((const char *const *) patterns);
  ovi_dump_folder_set_ignore_list (self->folder, ovi_ignore_list_get_size (list) ? list : NULL);
}

static void
ignore_list_changed (OviSession *self)
{
  g_autoptr (OviOverflowRecord) record = NULL;

  apply_ignore_list (self);
  update_cluster (self);
  /* Whatever shows the selected record says whether it is ignored. */
  if (self->selected_record != NULL)
    {
      record = g_object_ref (self->selected_record);
      ovi_session_set_selected_record (self, NULL);
      ovi_session_set_selected_record (self, record);
    }
}

static void
watch_changed (OviSession *self, GParamSpec *pspec)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE_PENDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER_GONE]);
}

static void
watch_records_arrived (OviSession *self, GPtrArray *records)
{
  update_cluster (self);
  g_signal_emit (self, signals[RECORDS_ARRIVED], 0, records);
}

/* Once loaded, the folder is followed: what a run writes into it shows up. */
static void
start_following (OviSession *self)
{
  /* Folders opened together are copies, from machines whose runs are over. */
  if (ovi_dump_folder_get_n_roots (self->folder) > 1)
    return;
  self->watch = ovi_folder_watch_new (self->folder, OVI_WATCH_MODE_AUTO);
  g_signal_connect_object (self->watch, "notify", G_CALLBACK (watch_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->watch, "records-arrived", G_CALLBACK (watch_records_arrived), self,
                           G_CONNECT_SWAPPED);
  ovi_folder_watch_start (self->watch);
  /* Moved or deleted during its scan: said as when that happens later, and
   * what was read stays shown. */
  if (!ovi_folder_watch_get_running (self->watch) && self->opened_folder &&
      !g_file_test (ovi_dump_folder_get_root_path (self->folder), G_FILE_TEST_IS_DIR))
    {
      self->gone_in_scan = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER_GONE]);
    }
}

/* The folder's part of the timeline, from its records (their fields only:
 * no tensor is read, so this runs on the main loop); the report files'
 * part stays as it was read. */
static void
rebuild_cluster (OviSession *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GStrvBuilder) roots = g_strv_builder_new ();

  for (guint i = 0; self->cluster_roots && self->cluster_roots[i]; i++)
    ovi_cluster_remove_root (self->cluster, g_get_host_name (), self->cluster_roots[i]);
  g_clear_pointer (&self->cluster_roots, g_strfreev);
  if (self->folder == NULL || self->loading)
    return;
  /* Only a report of this very folder, added before, can be in the way. */
  if (!ovi_cluster_add_folder (self->cluster, self->folder, g_get_host_name (), &error))
    {
      g_warning ("%s", error->message);
      return;
    }
  /* The roots as the cluster names them, to take them out again. */
  for (guint i = 0; i < ovi_dump_folder_get_n_roots (self->folder); i++)
    {
      g_autofree char *root =
          g_filename_display_name (ovi_dump_folder_get_nth_root_path (self->folder, i));

      g_strv_builder_add (roots, root);
    }
  self->cluster_roots = g_strv_builder_end (roots);
}

static gboolean
cluster_task_cb (gint64 deadline, gpointer data)
{
  OviSession *self = data;

  self->cluster_task = 0;
  if (self->cluster_stale)
    {
      self->cluster_stale = FALSE;
      rebuild_cluster (self);
    }
  return FALSE;
}

/* Building the folder's part takes a few tens of milliseconds for a
 * thousand records: it is done on its own turn, and only while a page
 * shows the cluster (ovi_session_set_cluster_shown()). */
static void
update_cluster (OviSession *self)
{
  self->cluster_stale = TRUE;
  if (self->folder == NULL || self->loading)
    {
      /* Nothing to build: the folder's old part goes now. */
      self->cluster_stale = FALSE;
      rebuild_cluster (self);
      return;
    }
  if (self->cluster_shown && self->cluster_task == 0)
    self->cluster_task = ovi_scheduler_add (cluster_task_cb, self, NULL);
}

/* GTK 4.8 lists build the widgets of their first 200 rows as the rows
 * arrive, in view or not, and a summary changes the labels of a row that
 * exists, which the next frame measures again: the first 256 files come 4
 * at a time and the first 256 summaries 16 at a time, one slice a turn of
 * the scheduler, so that no turn builds or measures more than a few rows.
 * Later ones come 128 at a time for as long as the turn lasts. */
#define FIRST_ITEMS 256

/* How many results to take in next: a small slice, alone in its turn, or
 * 0 for as many as the turn has time for. */
static guint
first_slice (OviDumpFolder *folder)
{
  OviScanProgress progress;

  /* While the folder lists, what comes is files; after it, summaries (and
   * the files a followed folder gets). */
  if (ovi_dump_folder_get_loading (folder))
    return g_list_model_get_n_items (ovi_dump_folder_get_files (folder)) < FIRST_ITEMS ? 4 : 0;
  ovi_dump_folder_get_progress (folder, &progress);
  return progress.summarized < FIRST_ITEMS ? 16 : 0;
}

static gboolean
apply_results_cb (gint64 deadline, gpointer data)
{
  g_autoptr (OviSession) self = g_object_ref (data);
  g_autoptr (OviDumpFolder) folder = g_object_ref (self->folder);
  gboolean more;

  do
    {
      guint slice = first_slice (folder);

      more = ovi_dump_folder_apply_results (folder, slice > 0 ? slice : 128);
      if (slice > 0)
        break;
    }
  while (more && g_get_monotonic_time () < deadline && first_slice (folder) == 0);
  /* Applying may have ended the load, and the session closed the folder. */
  if (!more || self->folder != folder)
    {
      if (self->folder == folder)
        self->apply_task = 0;
      return FALSE;
    }
  return TRUE;
}

static void
results_waiting (OviSession *self)
{
  if (self->apply_task == 0)
    self->apply_task = ovi_scheduler_add (apply_results_cb, self, NULL);
}

static void
load_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviSession) self = user_data;
  OviDumpFolder *folder = OVI_DUMP_FOLDER (object);
  g_autoptr (GError) error = NULL;

  ovi_dump_folder_load_finish (folder, result, &error);
  if (folder != self->folder)
    return;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    set_cancelled (self, TRUE);
  else if (error == NULL)
    start_following (self);
  set_loading (self, FALSE);
  /* What F5 was to select again and the scan did not find is gone. */
  g_clear_pointer (&self->reselect_record, g_free);
  g_clear_pointer (&self->reselect_file, g_free);
  update_cluster (self);
  /* Until the user picks an operator, the selected file is the operator of
   * the selected record, so "Selected Tensor" exports have a target. */
  if (self->selected_file == NULL && self->selected_record != NULL)
    ovi_session_set_selected_file (self, ovi_overflow_record_get_op (self->selected_record));
  g_signal_emit (self, signals[LOAD_FINISHED], 0, error);
}

static void
ovi_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviSession *self = OVI_SESSION (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, ovi_session_get_busy (self));
      break;
    case PROP_CANCELLED:
      g_value_set_boolean (value, self->cancelled);
      break;
    case PROP_CLUSTER:
      g_value_set_object (value, self->cluster);
      break;
    case PROP_DIFF:
      g_value_set_object (value, self->diff);
      break;
    case PROP_FOLDER:
      g_value_set_object (value, self->folder);
      break;
    case PROP_GRAPH:
      g_value_set_object (value, self->graph);
      break;
    case PROP_FOLDER_GONE:
      g_value_set_boolean (value,
                           self->gone_in_scan ||
                               (self->watch && ovi_folder_watch_get_root_gone (self->watch)));
      break;
    case PROP_FOLLOWING:
      g_value_set_boolean (value, self->watch && ovi_folder_watch_get_running (self->watch));
      break;
    case PROP_LIVE:
      g_value_set_boolean (value, ovi_session_get_live (self));
      break;
    case PROP_LIVE_MODE:
      g_value_set_string (value, self->watch && ovi_folder_watch_get_running (self->watch)
                                     ? ovi_folder_watch_describe_mode (self->watch)
                                     : NULL);
      break;
    case PROP_LIVE_PENDING:
      g_value_set_uint (value, self->watch ? ovi_folder_watch_get_pending (self->watch) : 0);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_N_DEVICES:
      g_value_set_uint (value, g_hash_table_size (self->devices));
      break;
    case PROP_N_PROBLEMS:
      g_value_set_uint (value, ovi_session_get_n_problems (self));
      break;
    case PROP_N_ROOTS:
      g_value_set_uint (value, self->folder ? ovi_dump_folder_get_n_roots (self->folder) : 0);
      break;
    case PROP_OP_INDEX:
      g_value_set_object (value, self->op_index);
      break;
    case PROP_OPERATORS:
      g_value_set_object (value, self->operators);
      break;
    case PROP_PROBLEMS:
      g_value_set_object (value, ovi_session_get_problems (self));
      break;
    case PROP_RECORDS:
      g_value_set_object (value, ovi_session_get_records (self));
      break;
    case PROP_SELECTED_FILE:
      g_value_set_object (value, self->selected_file);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_object (value, self->selected_node);
      break;
    case PROP_SELECTED_RECORD:
      g_value_set_object (value, self->selected_record);
      break;
    case PROP_SELECTED_TENSOR:
      g_value_set_object (value, self->selected_tensor);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_TREE:
      g_value_set_object (value, self->tree);
      break;
    case PROP_UNIT_FILTER:
      g_value_set_int (value, self->unit_filter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  OviSession *self = OVI_SESSION (object);

  switch (prop_id)
    {
    case PROP_LIVE:
      ovi_session_set_live (self, g_value_get_boolean (value));
      break;
    case PROP_SELECTED_FILE:
      ovi_session_set_selected_file (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_NODE:
      ovi_session_set_selected_node (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_RECORD:
      ovi_session_set_selected_record (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_TENSOR:
      ovi_session_set_selected_tensor (self, g_value_get_object (value));
      break;
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    case PROP_UNIT_FILTER:
      ovi_session_set_unit_filter (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_session_constructed (GObject *object)
{
  OviSession *self = OVI_SESSION (object);

  G_OBJECT_CLASS (ovi_session_parent_class)->constructed (object);
  g_assert (self->settings != NULL);
  g_signal_connect_object (self->settings, "changed::ignore-patterns",
                           G_CALLBACK (ignore_list_changed), self, G_CONNECT_SWAPPED);
}

static void
ovi_session_dispose (GObject *object)
{
  OviSession *self = OVI_SESSION (object);

  ovi_session_close (self);
  ovi_scheduler_remove (self->cluster_task);
  self->cluster_task = 0;
  g_clear_object (&self->cluster);
  if (self->diff != NULL)
    ovi_diff_state_clear (self->diff);
  g_clear_object (&self->diff);
  g_clear_object (&self->graph);
  g_clear_pointer (&self->cluster_roots, g_strfreev);
  g_clear_object (&self->operators);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->devices, g_hash_table_unref);
  G_OBJECT_CLASS (ovi_session_parent_class)->dispose (object);
}

static void
ovi_session_class_init (OviSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->constructed = ovi_session_constructed;
  object_class->dispose = ovi_session_dispose;
  object_class->get_property = ovi_session_get_property;
  object_class->set_property = ovi_session_set_property;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro);
  properties[PROP_CANCELLED] = g_param_spec_boolean ("cancelled", NULL, NULL, FALSE, ro);
  properties[PROP_FOLDER] = g_param_spec_object ("folder", NULL, NULL, OVI_TYPE_DUMP_FOLDER, ro);
  /* Every device of the folder and of the report files, for the timeline:
   * one object for the session's life. */
  properties[PROP_CLUSTER] = g_param_spec_object ("cluster", NULL, NULL, OVI_TYPE_CLUSTER, ro);
  /* The diff against a golden run (ovi-diff-state.c): one object for the
   * session's life, cleared when another folder is opened. */
  properties[PROP_DIFF] = g_param_spec_object ("diff", NULL, NULL, OVI_TYPE_DIFF_STATE, ro);
  /* The selected operator's dataflow graph (ovi-graph-state.c): one object
   * for the session's life. */
  properties[PROP_GRAPH] = g_param_spec_object ("graph", NULL, NULL, OVI_TYPE_GRAPH_STATE, ro);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, ro);
  /* How many devices and roots the folder's files come from: the tables
   * say which a row comes from when there is more than one. */
  properties[PROP_N_DEVICES] = g_param_spec_uint ("n-devices", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_ROOTS] = g_param_spec_uint ("n-roots", NULL, NULL, 0, G_MAXUINT, 0, ro);
  /* Following the folder: a pass over what a run writes into it. */
  properties[PROP_FOLLOWING] = g_param_spec_boolean ("following", NULL, NULL, FALSE, ro);
  /* Following and not paused; set to pause or go on. */
  properties[PROP_LIVE] = g_param_spec_boolean ("live", NULL, NULL, FALSE, rw);
  properties[PROP_LIVE_MODE] = g_param_spec_string ("live-mode", NULL, NULL, NULL, ro);
  properties[PROP_LIVE_PENDING] =
      g_param_spec_uint ("live-pending", NULL, NULL, 0, G_MAXUINT, 0, ro);
  /* The folder opened was moved or deleted: what was read stays shown. */
  properties[PROP_FOLDER_GONE] = g_param_spec_boolean ("folder-gone", NULL, NULL, FALSE, ro);
  properties[PROP_N_PROBLEMS] = g_param_spec_uint ("n-problems", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_OPERATORS] = g_param_spec_object ("operators", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_OP_INDEX] = g_param_spec_object ("op-index", NULL, NULL, OVI_TYPE_OP_INDEX, ro);
  properties[PROP_PROBLEMS] = g_param_spec_object ("problems", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_RECORDS] = g_param_spec_object ("records", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_SELECTED_FILE] =
      g_param_spec_object ("selected-file", NULL, NULL, OVI_TYPE_DUMP_FILE, rw);
  properties[PROP_SELECTED_NODE] =
      g_param_spec_object ("selected-node", NULL, NULL, OVI_TYPE_TREE_NODE, rw);
  properties[PROP_SELECTED_RECORD] =
      g_param_spec_object ("selected-record", NULL, NULL, OVI_TYPE_OVERFLOW_RECORD, rw);
  /* The tensor of the selected file that the user looks at (what the
   * window exports as "the selected tensor"). */
  properties[PROP_SELECTED_TENSOR] =
      g_param_spec_object ("selected-tensor", NULL, NULL, OVI_TYPE_TENSOR, rw);
  properties[PROP_SETTINGS] =
      g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                           G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TREE] = g_param_spec_object ("tree", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_UNIT_FILTER] =
      g_param_spec_int ("unit-filter", NULL, NULL, -1, OVI_UNIT_LAST, -1, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The listing is complete, or failed (the error, or NULL). */
  signals[LOAD_FINISHED] =
      g_signal_new ("load-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  /**
   * OviSession::records-arrived:
   * @records: (element-type OviOverflowRecord): new records of the followed folder
   */
  signals[RECORDS_ARRIVED] =
      g_signal_new ("records-arrived", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);
}

static void
ovi_session_init (OviSession *self)
{
  self->unit_filter = -1;
  self->devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cluster = ovi_cluster_new ();
  self->diff = ovi_diff_state_new ();
  self->graph = ovi_graph_state_new (self);
  self->operators =
      gtk_filter_list_model_new (NULL, GTK_FILTER (gtk_custom_filter_new (is_op_dump, NULL, NULL)));
}

OviSession *
ovi_session_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  return g_object_new (OVI_TYPE_SESSION, "settings", settings, NULL);
}

OviDiffState *
ovi_session_get_diff (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->diff;
}

OviGraphState *
ovi_session_get_graph (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->graph;
}

GSettings *
ovi_session_get_settings (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->settings;
}

void
ovi_session_close (OviSession *self)
{
  g_return_if_fail (OVI_IS_SESSION (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  ovi_scheduler_remove (self->apply_task);
  self->apply_task = 0;
  self->gone_in_scan = FALSE;
  if (self->watch != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->watch, self);
      ovi_folder_watch_stop (self->watch);
      g_clear_object (&self->watch);
      watch_changed (self, NULL);
    }
  if (self->folder != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->folder, self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_files (self->folder), self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_records (self->folder), self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_problems (self->folder), self);
    }
  ovi_session_set_selected_record (self, NULL);
  ovi_session_set_selected_file (self, NULL);
  ovi_session_set_selected_tensor (self, NULL);
  ovi_session_set_selected_node (self, NULL);
  g_clear_pointer (&self->reselect_record, g_free);
  g_clear_pointer (&self->reselect_file, g_free);
  if (self->operators != NULL)
    gtk_filter_list_model_set_model (self->operators, NULL);
  g_clear_object (&self->tree);
  g_clear_object (&self->tree_root);
  if (self->devices != NULL && g_hash_table_size (self->devices) > 0)
    {
      g_hash_table_remove_all (self->devices);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DEVICES]);
    }
  set_cancelled (self, FALSE);
  set_loading (self, FALSE);
  if (self->folder != NULL)
    {
      g_clear_object (&self->op_index);
      g_clear_object (&self->folder);
      update_cluster (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_INDEX]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROOTS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEMS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PROBLEMS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
    }
}

/* Whether the open folder has exactly these roots. */
static gboolean
same_roots (OviSession *self, GFile *const *roots, guint n_roots)
{
  if (self->folder == NULL || ovi_dump_folder_get_n_roots (self->folder) != n_roots)
    return FALSE;
  for (guint i = 0; i < n_roots; i++)
    if (!g_file_equal (roots[i], ovi_dump_folder_get_nth_root (self->folder, i)))
      return FALSE;
  return TRUE;
}

void
ovi_session_load (OviSession *self, GFile *root)
{
  g_return_if_fail (G_IS_FILE (root));
  ovi_session_load_roots (self, &root, 1);
}

/**
 * ovi_session_load_roots:
 * @roots: (array length=n_roots): folders to inspect together, one copied
 *   from each machine for example: the sidebar has a level for each
 *
 * Opens them as one folder (ovi_dump_folder_new_for_roots()).
 */
void
ovi_session_load_roots (OviSession *self, GFile *const *roots, guint n_roots)
{
  g_autoptr (GListStore) tree_roots = NULL;
  g_autofree char *name = NULL;
  gboolean same;

  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (n_roots > 0);

  same = same_roots (self, roots, n_roots);
  g_object_freeze_notify (G_OBJECT (self));
  ovi_session_close (self);
  /* Report files go with the folder they were opened with, over reloads. */
  if (!same)
    {
      ovi_cluster_clear (self->cluster);
      ovi_diff_state_clear (self->diff);
    }

  name = n_roots == 1
             ? g_file_get_basename (roots[0])
             : g_strdup_printf (
                   /* Translators: the sidebar's top row when several dump
                    * folders (one per machine) are open together */
                   g_dngettext (GETTEXT_PACKAGE, "%u Folder", "%u Folders", n_roots), n_roots);
  self->folder = ovi_dump_folder_new_for_roots (roots, n_roots);
  self->opened_folder = n_roots == 1 && g_file_test (ovi_dump_folder_get_root_path (self->folder),
                                                     G_FILE_TEST_IS_DIR);
  /* Core summarizes every operator after the listing, for the operator
   * table's columns; the window takes the results in between frames. */
  ovi_dump_folder_set_analyze (self->folder, TRUE);
  ovi_dump_folder_set_paced (self->folder, TRUE);
  g_signal_connect_swapped (self->folder, "results-waiting", G_CALLBACK (results_waiting), self);
  self->cancellable = g_cancellable_new ();
  self->tree_root = ovi_tree_node_new_root (name);
  tree_roots = g_list_store_new (OVI_TYPE_TREE_NODE);
  g_list_store_append (tree_roots, self->tree_root);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&tree_roots)), FALSE, TRUE,
                                        create_tree_children, NULL, NULL);

  g_signal_connect_swapped (self->folder, "notify::analyzing", G_CALLBACK (analyzing_changed),
                            self);
  g_signal_connect_swapped (self->folder, "notify::cancelled",
                            G_CALLBACK (folder_cancelled_changed), self);
  g_signal_connect_swapped (ovi_dump_folder_get_files (self->folder), "items-changed",
                            G_CALLBACK (files_changed), self);
  g_signal_connect_swapped (ovi_dump_folder_get_records (self->folder), "items-changed",
                            G_CALLBACK (records_changed), self);
  g_signal_connect_swapped (ovi_dump_folder_get_problems (self->folder), "items-changed",
                            G_CALLBACK (problems_changed), self);
  gtk_filter_list_model_set_model (self->operators, ovi_dump_folder_get_files (self->folder));
  self->op_index = ovi_op_index_new (self->folder);
  apply_ignore_list (self);

  set_loading (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROOTS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEMS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PROBLEMS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_INDEX]);
  g_object_thaw_notify (G_OBJECT (self));

  ovi_dump_folder_load_async (self->folder, self->cancellable, load_done, g_object_ref (self));
}

void
ovi_session_reload (OviSession *self)
{
  g_autoptr (GPtrArray) roots = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *record_path = NULL;
  g_autofree char *file_path = NULL;

  g_return_if_fail (OVI_IS_SESSION (self));

  if (self->folder == NULL)
    return;
  /* The selection stays when its files are still there: they are matched
   * by relative path, as the scan finds them. */
  if (self->selected_record != NULL && ovi_overflow_record_get_file (self->selected_record))
    record_path = g_strdup (
        ovi_dump_file_get_relative_path (ovi_overflow_record_get_file (self->selected_record)));
  if (self->selected_file != NULL)
    file_path = g_strdup (ovi_dump_file_get_relative_path (self->selected_file));
  for (guint i = 0; i < ovi_dump_folder_get_n_roots (self->folder); i++)
    g_ptr_array_add (roots, g_object_ref (ovi_dump_folder_get_nth_root (self->folder, i)));
  ovi_session_load_roots (self, (GFile *const *) roots->pdata, roots->len);
  self->reselect_record = g_steal_pointer (&record_path);
  self->reselect_file = g_steal_pointer (&file_path);
}

void
ovi_session_cancel (OviSession *self)
{
  g_return_if_fail (OVI_IS_SESSION (self));
  g_cancellable_cancel (self->cancellable);
}

OviDumpFolder *
ovi_session_get_folder (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->folder;
}

gboolean
ovi_session_get_loading (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  return self->loading;
}

/**
 * ovi_session_get_busy:
 *
 * Returns: %TRUE while the folder scans or its operators are summarized
 */
gboolean
ovi_session_get_busy (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  return self->loading || (self->folder != NULL && ovi_dump_folder_get_analyzing (self->folder));
}

gboolean
ovi_session_get_cancelled (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  return self->cancelled;
}

GListModel *
ovi_session_get_records (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->folder ? ovi_dump_folder_get_records (self->folder) : NULL;
}

/**
 * ovi_session_get_op_index:
 *
 * Returns: (transfer none) (nullable): the folder's operators by iteration
 */
OviOpIndex *
ovi_session_get_op_index (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->op_index;
}

GListModel *
ovi_session_get_operators (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->operators);
}

GListModel *
ovi_session_get_problems (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->folder ? ovi_dump_folder_get_problems (self->folder) : NULL;
}

guint
ovi_session_get_n_problems (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), 0);
  return self->folder ? g_list_model_get_n_items (ovi_dump_folder_get_problems (self->folder)) : 0;
}

GListModel *
ovi_session_get_tree (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->tree);
}

OviTreeNode *
ovi_session_get_selected_node (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->selected_node;
}

void
ovi_session_set_selected_node (OviSession *self, OviTreeNode *node)
{
  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (node == NULL || OVI_IS_TREE_NODE (node));

  if (g_set_object (&self->selected_node, node))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

OviOverflowRecord *
ovi_session_get_selected_record (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->selected_record;
}

void
ovi_session_set_selected_record (OviSession *self, OviOverflowRecord *record)
{
  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (record == NULL || OVI_IS_OVERFLOW_RECORD (record));

  if (g_set_object (&self->selected_record, record))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_RECORD]);
}

OviDumpFile *
ovi_session_get_selected_file (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->selected_file;
}

void
ovi_session_set_selected_file (OviSession *self, OviDumpFile *file)
{
  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (file == NULL || OVI_IS_DUMP_FILE (file));

  if (g_set_object (&self->selected_file, file))
    {
      /* The view of the new file picks its tensor as it hears of it. */
      ovi_session_set_selected_tensor (self, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FILE]);
    }
}

OviTensor *
ovi_session_get_selected_tensor (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->selected_tensor;
}

/**
 * ovi_session_set_selected_tensor:
 * @tensor: (nullable): a tensor of #OviSession:selected-file
 */
void
ovi_session_set_selected_tensor (OviSession *self, OviTensor *tensor)
{
  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (tensor == NULL || OVI_IS_TENSOR (tensor));

  if (g_set_object (&self->selected_tensor, tensor))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_TENSOR]);
}

int
ovi_session_get_unit_filter (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), -1);
  return self->unit_filter;
}

/**
 * ovi_session_set_unit_filter:
 * @unit: an #OviUnit, or -1 for every unit
 */
void
ovi_session_set_unit_filter (OviSession *self, int unit)
{
  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (unit >= -1 && unit <= OVI_UNIT_LAST);

  if (self->unit_filter == unit)
    return;
  self->unit_filter = unit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT_FILTER]);
}

gboolean
ovi_session_in_selected_node (OviSession *self, OviDumpFile *file)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  return self->selected_node == NULL || ovi_tree_node_matches (self->selected_node, file);
}

gboolean
ovi_session_record_visible (OviSession *self, OviOverflowRecord *record)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);

  if (self->unit_filter >= 0 &&
      ovi_overflow_record_get_unit (record) != (OviUnit) self->unit_filter)
    return FALSE;
  return ovi_session_in_selected_node (self, ovi_overflow_record_get_file (record));
}

/* A file that could not be read sits in the hierarchy its path gives, as
 * the dump files beside it do: core notes it with the problem. */
gboolean
ovi_session_problem_in_selected_node (OviSession *self, OviProblem *problem)
{
  const char *node_values[5];

  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  g_return_val_if_fail (OVI_IS_PROBLEM (problem), FALSE);

  if (self->selected_node == NULL || self->folder == NULL)
    return TRUE;
  /* The machine level exists with several roots only. */
  node_values[0] =
      ovi_dump_folder_get_n_roots (self->folder) > 1
          ? ovi_dump_folder_get_root_name (self->folder, ovi_problem_get_root (problem))
          : NULL;
  ovi_problem_get_place (problem, node_values + 1);
  return ovi_tree_node_matches_values (self->selected_node, node_values);
}

OviDumpFile *
ovi_session_find_file (OviSession *self, const char *path)
{
  GListModel *files;

  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (self->folder == NULL)
    return NULL;
  files = ovi_dump_folder_get_files (self->folder);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);

      if (g_strcmp0 (ovi_dump_file_get_path (file), path) == 0)
        return file; /* the folder holds it */
    }
  return NULL;
}

/* Adds "type:@op_type" to the ignore list. Returns whether it was not
 * there yet (and so can be undone). */
gboolean
ovi_session_ignore_op_type (OviSession *self, const char *op_type)
{
  g_auto (GStrv) patterns = NULL;
  g_autofree char *pattern = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) result = NULL;

  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  g_return_val_if_fail (op_type != NULL, FALSE);

  patterns = g_settings_get_strv (self->settings, "ignore-patterns");
  pattern = g_strdup_printf ("type:%s", op_type);
  if (g_strv_contains ((const char *const *) patterns, pattern))
    return FALSE;
  g_strv_builder_addv (builder, (const char **) patterns);
  g_strv_builder_add (builder, pattern);
  result = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "ignore-patterns", (const char *const *) result);
  return TRUE;
}

/* Takes off the ignore list every pattern that matches the operator
 * @op_type @op_name ("type:Cast", "name:grad*", "Cast"...), so that it
 * counts again. With @op_name %NULL, only "type:@op_type" goes: what
 * ovi_session_ignore_op_type() added. */
void
ovi_session_stop_ignoring (OviSession *self, const char *op_type, const char *op_name)
{
  g_auto (GStrv) patterns = NULL;
  g_autofree char *type_pattern = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) result = NULL;
  gboolean changed = FALSE;

  g_return_if_fail (OVI_IS_SESSION (self));
  g_return_if_fail (op_type != NULL);

  patterns = g_settings_get_strv (self->settings, "ignore-patterns");
  type_pattern = g_strdup_printf ("type:%s", op_type);
  for (guint i = 0; patterns[i] != NULL; i++)
    {
      const char *one[] = { patterns[i], NULL };
      g_autoptr (OviIgnoreList) list = ovi_ignore_list_new (one);
      gboolean matches = op_name != NULL ? ovi_ignore_list_matches (list, op_type, op_name)
                                         : g_str_equal (patterns[i], type_pattern);

      if (matches)
        changed = TRUE;
      else
        g_strv_builder_add (builder, patterns[i]);
    }
  if (!changed)
    return;
  result = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "ignore-patterns", (const char *const *) result);
}

/* Whether the folder is followed and not paused. */
gboolean
ovi_session_get_live (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), FALSE);
  return self->watch && ovi_folder_watch_get_running (self->watch) &&
         !ovi_folder_watch_get_paused (self->watch);
}

/* Returns: (transfer none) (nullable): what follows the folder (for tests) */
OviFolderWatch *
ovi_session_get_watch (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->watch;
}

/* Pauses following the folder, or goes on: what changed meanwhile is read
 * then. */
void
ovi_session_set_live (OviSession *self, gboolean live)
{
  g_return_if_fail (OVI_IS_SESSION (self));

  if (self->watch == NULL || !ovi_folder_watch_get_running (self->watch))
    return;
  ovi_folder_watch_set_paused (self->watch, !live);
}

/**
 * ovi_session_get_cluster:
 *
 * Returns: (transfer none): the devices of the folder and of the report files
 */
OviCluster *
ovi_session_get_cluster (OviSession *self)
{
  g_return_val_if_fail (OVI_IS_SESSION (self), NULL);
  return self->cluster;
}

static void
reports_loaded (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;

  /* A file that cannot be read adds nothing; the others are kept. */
  ovi_cluster_load_reports_finish (OVI_CLUSTER (object), result, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * ovi_session_add_reports_async:
 * @files: (array length=n_files): report files (`report --json`, `merge`)
 *   written on other machines
 *
 * Reads the reports off the main thread and adds their devices to the
 * timeline (#OviSession:cluster).
 */
void
ovi_session_add_reports_async (OviSession *self,
                               GFile *const *files,
                               guint n_files,
                               GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer user_data)
{
  GTask *task;

  g_return_if_fail (OVI_IS_SESSION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ovi_session_add_reports_async);
  ovi_cluster_load_reports_async (self->cluster, files, n_files, cancellable, reports_loaded, task);
}

/**
 * ovi_session_add_reports_finish:
 *
 * Returns: %FALSE when a file could not be read, with @error naming it
 */
gboolean
ovi_session_add_reports_finish (OviSession *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * ovi_session_set_cluster_shown:
 * @shown: whether a page shows #OviSession:cluster now
 *
 * The folder's devices are added to the cluster, and kept current while
 * the folder is followed, only while it is shown.
 */
void
ovi_session_set_cluster_shown (OviSession *self, gboolean shown)
{
  g_return_if_fail (OVI_IS_SESSION (self));

  self->cluster_shown = shown;
  if (shown && self->cluster_stale && self->cluster_task == 0)
    self->cluster_task = ovi_scheduler_add (cluster_task_cb, self, NULL);
}
