/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-graph-state.h"
#include "ovi-scheduler.h"
#include "ovi-session.h"

/* Follows the session's selection: the operator is the one last selected,
 * as a record (Overflows) or as a file (Operators, Graph). A graph is
 * built when that operator's iteration has none, never while the folder is
 * still loading (it would miss operators); core keeps each graph it built
 * with the folder, so going back to an iteration costs nothing. A followed
 * folder's new files make the graph stale: it is built again in a turn of
 * the scheduler (ovi-scheduler.c), once for all the files of that turn, and
 * again after a build that files arrived during. */
struct _OviGraphState
{
  GObject parent_instance;

  OviSession *session; /* not a reference: the session owns this */
  OviDumpFile *operator;
  OviGraph *graph;
  char *chain;
  char *error;
  GCancellable *cancellable; /* the build under way */
  char *building_iteration;
  guint n_files;      /* the folder's files when the graph shown (or building) was asked for */
  GListModel *files;  /* the folder's files, followed */
  guint rebuild_task; /* ovi-scheduler.c's, while new files wait */
};

enum
{
  PROP_0,
  PROP_BUILDING,
  PROP_CHAIN,
  PROP_ERROR,
  PROP_GRAPH,
  PROP_NODE,
  PROP_OPERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviGraphState, ovi_graph_state, G_TYPE_OBJECT)

static void
set_string (OviGraphState *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
update_chain (OviGraphState *self)
{
  OviGraphNode *node = ovi_graph_state_get_node (self);
  g_autofree char *chain = NULL;

  if (node != NULL)
    chain = ovi_graph_dup_chain_text (self->graph, ovi_graph_node_get_index (node));
  set_string (self, &self->chain, chain, PROP_CHAIN);
}

static void
set_building (OviGraphState *self, const char *iteration)
{
  gboolean was = self->building_iteration != NULL;

  g_free (self->building_iteration);
  self->building_iteration = g_strdup (iteration);
  if (was != (iteration != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUILDING]);
}

static void
cancel (OviGraphState *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_building (self, NULL);
}

static guint
n_files_of (OviDumpFolder *folder)
{
  return g_list_model_get_n_items (ovi_dump_folder_get_files (folder));
}

static void files_changed (OviGraphState *self);

static void
built (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviGraphState) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraph) graph = ovi_graph_build_finish (result, &error);

  /* A result of a build that was cancelled or replaced is dropped. */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);
  set_building (self, NULL);
  set_string (self, &self->error, error ? error->message : NULL, PROP_ERROR);
  if (g_set_object (&self->graph, graph))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GRAPH]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NODE]);
    }
  update_chain (self);
  /* Files that arrived while it was built: once more. */
  if (graph != NULL && self->n_files != n_files_of (ovi_graph_get_folder (graph)))
    files_changed (self);
}

typedef struct
{
  OviDumpFolder *folder;
  char *iteration;
} FindData;

static void
find_data_free (FindData *data)
{
  g_object_unref (data->folder);
  g_free (data->iteration);
  g_free (data);
}

/* The graph JSON beside the dump is looked for (and parsed to tell it
 * from other JSON) off the main thread. */
static void
find_json_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FindData *data = task_data;

  g_task_return_pointer (task, ovi_graph_find_json (data->folder, data->iteration), g_free);
}

static void
found_json (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (OviGraphState) self = user_data;
  FindData *data = g_task_get_task_data (G_TASK (result));
  g_autofree char *json = g_task_propagate_pointer (G_TASK (result), NULL);

  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  ovi_graph_build_async (data->folder, data->iteration, json, self->cancellable, built,
                         g_object_ref (self));
}

static void
update (OviGraphState *self)
{
  OviDumpFolder *folder = ovi_session_get_folder (self->session);
  const char *iteration;
  g_autoptr (GTask) task = NULL;
  FindData *data;

  if (self->operator== NULL || folder == NULL || ovi_session_get_loading (self->session))
    {
      update_chain (self);
      return;
    }
  iteration = ovi_dump_file_get_relative_dir (self->operator);
  if (self->graph != NULL && ovi_graph_get_folder (self->graph) == folder &&
      g_strcmp0 (ovi_graph_get_iteration (self->graph), iteration) == 0 &&
      self->n_files == n_files_of (folder))
    {
      update_chain (self);
      return;
    }
  if (g_strcmp0 (self->building_iteration, iteration) == 0)
    return;
  cancel (self);
  self->cancellable = g_cancellable_new ();
  self->n_files = n_files_of (folder);
  set_building (self, iteration);
  update_chain (self);
  task = g_task_new (NULL, self->cancellable, found_json, g_object_ref (self));
  g_task_set_source_tag (task, update);
  data = g_new0 (FindData, 1);
  data->folder = g_object_ref (folder);
  data->iteration = g_strdup (iteration);
  g_task_set_task_data (task, data, (GDestroyNotify) find_data_free);
  ovi_worker_run_in_thread (task, find_json_thread);
}

static void
set_operator (OviGraphState *self, OviDumpFile *file)
{
  if (g_set_object (&self->operator, file))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPERATOR]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NODE]);
    }
  update (self);
}

static void
record_selected (OviGraphState *self)
{
  OviOverflowRecord *record = ovi_session_get_selected_record (self->session);

  if (record != NULL && ovi_overflow_record_get_op (record) != NULL)
    set_operator (self, ovi_overflow_record_get_op (record));
  else if (record == NULL && ovi_session_get_selected_file (self->session) == NULL)
    set_operator (self, NULL);
}

static void
file_selected (OviGraphState *self)
{
  OviDumpFile *file = ovi_session_get_selected_file (self->session);

  if (file != NULL)
    set_operator (self, file);
  else if (ovi_session_get_selected_record (self->session) == NULL)
    set_operator (self, NULL);
}

static gboolean
rebuild_cb (gint64 deadline, gpointer user_data)
{
  OviGraphState *self = user_data;

  self->rebuild_task = 0;
  update (self);
  return FALSE;
}

/* New files in the followed folder: the graph is built again in the
 * scheduler's next turn, unless one is being built (built() asks again). */
static void
files_changed (OviGraphState *self)
{
  if (self->rebuild_task == 0 && self->building_iteration == NULL && self->graph != NULL)
    self->rebuild_task = ovi_scheduler_add (rebuild_cb, self, NULL);
}

static void
follow_files (OviGraphState *self)
{
  OviDumpFolder *folder = ovi_session_get_folder (self->session);
  GListModel *files = folder ? ovi_dump_folder_get_files (folder) : NULL;

  if (files == self->files)
    return;
  if (self->files)
    g_signal_handlers_disconnect_by_func (self->files, files_changed, self);
  g_set_object (&self->files, files);
  if (files)
    g_signal_connect_swapped (files, "items-changed", G_CALLBACK (files_changed), self);
}

/* Another folder, or the same read again: the graphs built are of the
 * folder as it was. */
static void
folder_changed (OviGraphState *self)
{
  follow_files (self);
  cancel (self);
  if (g_set_object (&self->graph, NULL))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GRAPH]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NODE]);
    }
  set_string (self, &self->error, NULL, PROP_ERROR);
  if (ovi_session_get_selected_file (self->session) == NULL &&
      ovi_session_get_selected_record (self->session) == NULL)
    set_operator (self, NULL);
  update (self);
}

OviGraphState *
ovi_graph_state_new (OviSession *session)
{
  OviGraphState *self = g_object_new (OVI_TYPE_GRAPH_STATE, NULL);

  self->session = session;
  g_signal_connect_object (session, "notify::selected-record", G_CALLBACK (record_selected), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-file", G_CALLBACK (file_selected), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::folder", G_CALLBACK (folder_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::loading", G_CALLBACK (folder_changed), self,
                           G_CONNECT_SWAPPED);
  return self;
}

OviGraph *
ovi_graph_state_get_graph (OviGraphState *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_STATE (self), NULL);
  return self->graph;
}

OviDumpFile *
ovi_graph_state_get_operator (OviGraphState *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_STATE (self), NULL);
  return self->operator;
}

/**
 * ovi_graph_state_get_node:
 *
 * Returns: (nullable): the operator's node, once its iteration's graph is built
 */
OviGraphNode *
ovi_graph_state_get_node (OviGraphState *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_STATE (self), NULL);
  if (self->graph == NULL || self->operator== NULL)
    return NULL;
  return ovi_graph_lookup_file (self->graph, self->operator);
}

/**
 * ovi_graph_state_get_chain:
 *
 * Returns: (nullable): "origin → … → operator", a line for each origin
 *   that reaches the operator; %NULL when none does
 */
const char *
ovi_graph_state_get_chain (OviGraphState *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_STATE (self), NULL);
  return self->chain;
}

gboolean
ovi_graph_state_get_building (OviGraphState *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_STATE (self), FALSE);
  return self->building_iteration != NULL;
}

const char *
ovi_graph_state_get_error (OviGraphState *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_STATE (self), NULL);
  return self->error;
}

static void
ovi_graph_state_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviGraphState *self = OVI_GRAPH_STATE (object);

  switch (prop_id)
    {
    case PROP_BUILDING:
      g_value_set_boolean (value, ovi_graph_state_get_building (self));
      break;
    case PROP_CHAIN:
      g_value_set_string (value, self->chain);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_GRAPH:
      g_value_set_object (value, self->graph);
      break;
    case PROP_NODE:
      g_value_set_object (value, ovi_graph_state_get_node (self));
      break;
    case PROP_OPERATOR:
      g_value_set_object (value, self->operator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_graph_state_dispose (GObject *object)
{
  OviGraphState *self = OVI_GRAPH_STATE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  ovi_scheduler_remove (self->rebuild_task);
  self->rebuild_task = 0;
  if (self->files)
    g_signal_handlers_disconnect_by_func (self->files, files_changed, self);
  g_clear_object (&self->files);
  g_clear_object (&self->graph);
  g_clear_object (&self->operator);
  G_OBJECT_CLASS (ovi_graph_state_parent_class)->dispose (object);
}

static void
ovi_graph_state_finalize (GObject *object)
{
  OviGraphState *self = OVI_GRAPH_STATE (object);

  g_free (self->chain);
  g_free (self->error);
  g_free (self->building_iteration);
  G_OBJECT_CLASS (ovi_graph_state_parent_class)->finalize (object);
}

static void
ovi_graph_state_class_init (OviGraphStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = ovi_graph_state_get_property;
  object_class->dispose = ovi_graph_state_dispose;
  object_class->finalize = ovi_graph_state_finalize;

  properties[PROP_BUILDING] = g_param_spec_boolean ("building", NULL, NULL, FALSE, ro);
  properties[PROP_CHAIN] = g_param_spec_string ("chain", NULL, NULL, NULL, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  properties[PROP_GRAPH] = g_param_spec_object ("graph", NULL, NULL, OVI_TYPE_GRAPH, ro);
  properties[PROP_NODE] = g_param_spec_object ("node", NULL, NULL, OVI_TYPE_GRAPH_NODE, ro);
  properties[PROP_OPERATOR] = g_param_spec_object ("operator", NULL, NULL, OVI_TYPE_DUMP_FILE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_graph_state_init (OviGraphState *self)
{
}
