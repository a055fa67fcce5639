/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-classifier.h"
#include "ovi-graph-json.h"
#include "ovi-graph-private.h"
#include "ovi-worker.h"

/* One iteration's dataflow graph.
 *
 * Edges from addresses: operators are read in run order (timestamp); an
 * input's producer is the last operator before it that wrote an output at
 * the input's address (buffers are reused, so neither the first writer nor
 * any writer will do). Inputs are matched before the operator's own outputs
 * are noted, so an in-place operator (Assign, AssignAdd, in-place Add),
 * whose output has the address of one of its inputs, reads the previous
 * writer and becomes the writer for the operators after it. An address no
 * dumped operator wrote is an external input: a graph input, a weight or a
 * constant.
 *
 * Edges from a graph JSON fill the inputs addresses do not explain and name
 * the external inputs (Data, Const); its ops without a dump are nodes that
 * the blame looks through.
 *
 * The blame: the origins that reach an operator are those whose abnormal
 * outputs arrive over edges into its abnormal inputs, through propagating
 * operators (or ones not dumped); an operator whose outputs are clean is
 * never a link, however close in time. Without edges the origin is the
 * earliest before it in run order, and the graph says so. */

typedef struct
{
  guint64 known, abnormal; /* bit j: input j */
} InputFacts;

struct _OviGraph
{
  GObject parent_instance;

  OviDumpFolder *folder;
  char *iteration;
  char *graph_json;
  GPtrArray *node_array;     /* OviGraphNode by index */
  GArray *edges;             /* OviGraphEdge */
  guint *in_start, *in_list; /* node v's edges in: in_list[in_start[v] .. in_start[v + 1]] */
  guint *out_start, *out_list;
  GArray **origins;    /* per node: guint node indices, sorted */
  InputFacts *inputs;  /* per node */
  GHashTable *by_name; /* op name's file form -> OviGraphNode (dumped first) */
  GHashTable *by_file; /* OviDumpFile -> OviGraphNode */
  char *run_order_note;
};

static GType
ovi_graph_get_item_type (GListModel *model)
{
  return OVI_TYPE_GRAPH_NODE;
}

static guint
ovi_graph_get_n_items (GListModel *model)
{
  return OVI_GRAPH (model)->node_array->len;
}

static gpointer
ovi_graph_get_item (GListModel *model, guint position)
{
  GPtrArray *nodes = OVI_GRAPH (model)->node_array;

  return position < nodes->len ? g_object_ref (g_ptr_array_index (nodes, position)) : NULL;
}

/* The graph is the list of its nodes (ovi_graph_get_nodes()). */
static void
ovi_graph_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = ovi_graph_get_item_type;
  iface->get_n_items = ovi_graph_get_n_items;
  iface->get_item = ovi_graph_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (OviGraph,
                               ovi_graph,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, ovi_graph_list_model_init))

static void
free_arrays (GArray **arrays, guint n)
{
  for (guint i = 0; arrays && i < n; i++)
    g_array_unref (arrays[i]);
  g_free (arrays);
}

static void
ovi_graph_finalize (GObject *object)
{
  OviGraph *self = OVI_GRAPH (object);
  guint n = self->node_array->len;

  g_free (self->in_start);
  g_free (self->in_list);
  g_free (self->out_start);
  g_free (self->out_list);
  free_arrays (self->origins, n);
  g_free (self->inputs);
  g_clear_object (&self->folder);
  g_free (self->iteration);
  g_free (self->graph_json);
  g_ptr_array_unref (self->node_array);
  g_array_unref (self->edges);
  g_hash_table_unref (self->by_name);
  g_hash_table_unref (self->by_file);
  g_free (self->run_order_note);
  G_OBJECT_CLASS (ovi_graph_parent_class)->finalize (object);
}

static void
ovi_graph_class_init (OviGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ovi_graph_finalize;
}

static void
ovi_graph_init (OviGraph *self)
{
  self->node_array = g_ptr_array_new_with_free_func (g_object_unref);
  self->edges = g_array_new (FALSE, FALSE, sizeof (OviGraphEdge));
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_file = g_hash_table_new (NULL, NULL);
}

/* Building ----------------------------------------------------------- */

static OviGraphNode *
add_node (OviGraph *self,
          const char *name,
          const char *op_type,
          OviGraphNodeKind kind,
          OviDumpFile *file,
          int position)
{
  g_autoptr (OviGraphNode) node =
      ovi_graph_node_new (self->node_array->len, name, op_type, kind, file, position);
  char *form = ovi_file_name_form (name);

  g_ptr_array_add (self->node_array, g_object_ref (node));
  if (!g_hash_table_contains (self->by_name, form))
    g_hash_table_insert (self->by_name, form, node);
  else
    g_free (form);
  if (file)
    g_hash_table_insert (self->by_file, file, node);
  return node;
}

static void
add_edge (OviGraph *self,
          guint producer,
          guint output,
          guint consumer,
          guint input,
          OviGraphEdgeSource source,
          guint64 address)
{
  OviGraphEdge e = { producer, output, consumer, input, source, address };

  g_array_append_val (self->edges, e);
}

static int
compare_run_order (gconstpointer a, gconstpointer b)
{
  OviDumpFile *x = *(OviDumpFile **) a;
  OviDumpFile *y = *(OviDumpFile **) b;
  guint64 tx = ovi_dump_file_get_timestamp (x), ty = ovi_dump_file_get_timestamp (y);

  if (tx != ty)
    return tx < ty ? -1 : 1;
  if (ovi_dump_file_get_task_id (x) != ovi_dump_file_get_task_id (y))
    return ovi_dump_file_get_task_id (x) < ovi_dump_file_get_task_id (y) ? -1 : 1;
  return g_strcmp0 (ovi_dump_file_get_name (x), ovi_dump_file_get_name (y));
}

/* The op dump files of @iteration (the first folder with any when NULL),
 * in run order. */
/* The op dump files of every iteration folder, by folder, made once for
 * each count of the folder's files: a report asks for one iteration's
 * graph per record, and a walk over every file each time was quadratic. */
typedef struct
{
  guint n_files;
  char *first;        /* the folder of the first op dump file */
  GHashTable *by_dir; /* relative folder → GPtrArray of OviDumpFile */
} IterationIndex;

static GMutex iteration_index_lock;

static void
iteration_index_free (IterationIndex *index)
{
  g_free (index->first);
  g_hash_table_unref (index->by_dir);
  g_free (index);
}

static GPtrArray *
iteration_files (OviDumpFolder *folder, const char **iteration)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  guint n = g_list_model_get_n_items (files);
  GPtrArray *ops = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&iteration_index_lock);
  IterationIndex *index = g_object_get_data (G_OBJECT (folder), "ovi-graph-iterations");
  GPtrArray *list;

  if (index == NULL || index->n_files != n)
    {
      index = g_new0 (IterationIndex, 1);
      index->n_files = n;
      index->by_dir = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_ptr_array_unref);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
          const char *dir = ovi_dump_file_get_relative_dir (file);

          if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP ||
              ovi_dump_file_get_op_name (file) == NULL)
            continue;
          if (index->first == NULL)
            index->first = g_strdup (dir);
          if ((list = g_hash_table_lookup (index->by_dir, dir)) == NULL)
            {
              list = g_ptr_array_new_with_free_func (g_object_unref);
              g_hash_table_insert (index->by_dir, g_strdup (dir), list);
            }
          g_ptr_array_add (list, g_steal_pointer (&file));
        }
      g_object_set_data_full (G_OBJECT (folder), "ovi-graph-iterations", index,
                              (GDestroyNotify) iteration_index_free);
    }
  list = g_hash_table_lookup (index->by_dir, *iteration     ? *iteration
                                             : index->first ? index->first
                                                            : "");
  for (guint i = 0; list && i < list->len; i++)
    g_ptr_array_add (ops, g_object_ref (g_ptr_array_index (list, i)));
  /* The caller keeps the name as long as it keeps the files. */
  if (*iteration == NULL && ops->len > 0)
    *iteration = ovi_dump_file_get_relative_dir (g_ptr_array_index (ops, 0));
  g_ptr_array_sort (ops, compare_run_order);
  return ops;
}

static void
summarize_one (guint i, gpointer user_data)
{
  ovi_classifier_summarize (g_ptr_array_index ((GPtrArray *) user_data, i), NULL);
}

/* One consumer input, as one key. */
static gpointer
slot_key (guint consumer, guint input)
{
  return GSIZE_TO_POINTER (((gsize) consumer << 16 | input) + 1);
}

/* Whether @t is the next tensor of @kind by index, counted in @seen (an
 * FFTS+ operator's slices repeat an index: the first counts). */
static gboolean
next_of_kind (OviTensor *t, OviTensorKind kind, guint *seen)
{
  if (ovi_tensor_get_kind (t) != kind || ovi_tensor_get_index (t) != *seen)
    return FALSE;
  (*seen)++;
  return TRUE;
}

/* Which inputs of each operator an analysis saw abnormal (and which it
 * saw at all), the first 64, once: the blame asks for each edge. */
static void
note_inputs (OviGraph *self, guint n_ops)
{
  self->inputs = g_new0 (InputFacts, self->node_array->len);
  for (guint op = 0; op < n_ops; op++)
    {
      GPtrArray *tensors = ovi_dump_file_get_tensors (
          ovi_graph_node_get_file (g_ptr_array_index (self->node_array, op)));
      guint seen = 0;

      for (guint i = 0; tensors && i < tensors->len && seen < 64; i++)
        {
          OviTensor *t = g_ptr_array_index (tensors, i);
          OviAnalysis *analysis;
          guint j = seen;

          if (!next_of_kind (t, OVI_TENSOR_INPUT, &seen) ||
              (analysis = ovi_tensor_peek_analysis (t)) == NULL)
            continue;
          self->inputs[op].known |= G_GUINT64_CONSTANT (1) << j;
          if (ovi_stats_is_abnormal (ovi_analysis_get_stats (analysis)))
            self->inputs[op].abnormal |= G_GUINT64_CONSTANT (1) << j;
        }
    }
}

/* The last writer of an address, or an external input's node. The address
 * comes first so that g_int64_hash() reads it. */
typedef struct
{
  guint64 address;
  guint node;
  guint output;
} Writer;

static Writer *
note_writer (GHashTable *table, guint64 address, guint node, guint output)
{
  Writer *w = g_hash_table_lookup (table, &address);

  if (w == NULL)
    {
      w = g_new (Writer, 1);
      w->address = address;
      g_hash_table_insert (table, &w->address, w);
    }
  w->node = node;
  w->output = output;
  return w;
}

/* An input no dumped operator wrote: one external node per address. */
static guint
external_node (OviGraph *self, GHashTable *external, guint64 address)
{
  Writer *w = g_hash_table_lookup (external, &address);
  g_autofree char *name = NULL;

  if (w)
    return w->node;
  name = g_strdup_printf ("external 0x%" G_GINT64_MODIFIER "x", address);
  add_node (self, name, "", OVI_GRAPH_NODE_EXTERNAL, NULL, -1);
  return note_writer (external, address, self->node_array->len - 1, 0)->node;
}

/* Address edges, by the last-writer rule, for the first @n_ops nodes (the
 * dumped operators in run order). @json_slots: the consumer inputs a graph
 * JSON explains; an address edge from a dumped producer replaces the
 * JSON's, an address nobody wrote leaves the JSON's edge (which names the
 * graph input or weight). Returns whether any tensor had an address. */
static gboolean
add_address_edges (OviGraph *self, guint n_ops, GHashTable *json_slots)
{
  g_autoptr (GHashTable) writer = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  g_autoptr (GHashTable) external =
      g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  gboolean any = FALSE;

  for (guint op = 0; op < n_ops; op++)
    {
      OviDumpFile *file = ovi_graph_node_get_file (g_ptr_array_index (self->node_array, op));
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);
      guint n_in = 0, n_out = 0;

      /* Inputs come first: an in-place output reads the previous writer. */
      for (guint i = 0; tensors && i < tensors->len; i++)
        {
          OviTensor *t = g_ptr_array_index (tensors, i);
          guint64 address = ovi_tensor_get_address (t);
          guint j = n_in, k = n_out;
          Writer *w;

          if (next_of_kind (t, OVI_TENSOR_OUTPUT, &n_out))
            {
              if (address == 0)
                continue;
              any = TRUE;
              note_writer (writer, address, op, k);
              continue;
            }
          if (!next_of_kind (t, OVI_TENSOR_INPUT, &n_in) || address == 0)
            continue;
          any = TRUE;
          if ((w = g_hash_table_lookup (writer, &address)) != NULL)
            {
              add_edge (self, w->node, w->output, op, j, OVI_GRAPH_EDGE_ADDRESS, address);
              if (json_slots)
                g_hash_table_remove (json_slots, slot_key (op, j));
            }
          else if (json_slots == NULL || !g_hash_table_contains (json_slots, slot_key (op, j)))
            add_edge (self, external_node (self, external, address), 0, op, j,
                      OVI_GRAPH_EDGE_ADDRESS, address);
        }
    }
  return any;
}

static OviGraphNodeKind
json_kind (const char *type)
{
  static const char *const constants[] = { "Const", "Constant", "Variable", "ConstPlaceHolder",
                                           NULL };

  if (g_str_equal (type, "Data") || g_str_equal (type, "RefData"))
    return OVI_GRAPH_NODE_INPUT;
  if (g_strv_contains (constants, type))
    return OVI_GRAPH_NODE_CONSTANT;
  return OVI_GRAPH_NODE_NOT_DUMPED;
}

/* The graph JSON's ops as nodes (a dumped operator where the dump has
 * one: its name, sanitised as file names are, is the JSON op's) and its
 * edges as candidates, by consumer input, in @slots. Returns the ops'
 * nodes, in the JSON's order. */
static GArray *
add_json_nodes (OviGraph *self, GPtrArray *ops, GHashTable *slots)
{
  GArray *op_nodes = g_array_sized_new (FALSE, FALSE, sizeof (guint), ops->len);
  g_autoptr (GHashTable) by_json_name = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < ops->len; i++)
    {
      OviGraphJsonOp *op = g_ptr_array_index (ops, i);
      OviGraphNode *node = ovi_graph_lookup (self, op->name);

      if (node == NULL || ovi_graph_node_get_kind (node) != OVI_GRAPH_NODE_OPERATOR)
        node = add_node (self, op->name, op->type, json_kind (op->type), NULL, -1);
      g_array_append_val (op_nodes, ((guint[]){ ovi_graph_node_get_index (node) })[0]);
      g_hash_table_insert (by_json_name, op->name, node);
    }
  for (guint i = 0; i < ops->len; i++)
    {
      OviGraphJsonOp *op = g_ptr_array_index (ops, i);
      guint consumer = g_array_index (op_nodes, guint, i);

      for (guint j = 0; j < op->inputs->len; j++)
        {
          OviGraphJsonInput *in = &g_array_index (op->inputs, OviGraphJsonInput, j);
          OviGraphNode *producer = g_hash_table_lookup (by_json_name, in->source);

          if (producer)
            g_hash_table_insert (
                slots, slot_key (consumer, j),
                GSIZE_TO_POINTER (((gsize) ovi_graph_node_get_index (producer) << 16 | in->index) +
                                  1));
        }
    }
  return op_nodes;
}

/* The JSON's edges that addresses did not replace, in the JSON's order. */
static void
add_json_edges (OviGraph *self, GPtrArray *ops, GArray *op_nodes, GHashTable *slots)
{
  for (guint i = 0; i < ops->len; i++)
    {
      OviGraphJsonOp *op = g_ptr_array_index (ops, i);
      guint consumer = g_array_index (op_nodes, guint, i);

      for (guint j = 0; j < op->inputs->len; j++)
        {
          gsize from = GPOINTER_TO_SIZE (g_hash_table_lookup (slots, slot_key (consumer, j)));

          if (from-- == 0)
            continue;
          add_edge (self, from >> 16, from & 0xffff, consumer, j, OVI_GRAPH_EDGE_GRAPH_JSON, 0);
          g_hash_table_remove (slots, slot_key (consumer, j));
        }
    }
}

/* Each node's edges in and out, in edge order, in one list each. */
static void
index_side (OviGraph *self, gboolean in, guint **start_out, guint **list_out)
{
  guint n = self->node_array->len;
  guint *start = g_new0 (guint, n + 1);
  guint *list = g_new (guint, MAX (self->edges->len, 1));
  g_autofree guint *fill = g_new (guint, MAX (n, 1)); /* never NULL, for memcpy() */

  for (guint e = 0; e < self->edges->len; e++)
    {
      const OviGraphEdge *edge = &g_array_index (self->edges, OviGraphEdge, e);
      start[(in ? edge->consumer : edge->producer) + 1]++;
    }
  for (guint v = 0; v < n; v++)
    start[v + 1] += start[v];
  memcpy (fill, start, n * sizeof (guint));
  for (guint e = 0; e < self->edges->len; e++)
    {
      const OviGraphEdge *edge = &g_array_index (self->edges, OviGraphEdge, e);
      list[fill[in ? edge->consumer : edge->producer]++] = e;
    }
  *start_out = start;
  *list_out = list;
}

static void
index_edges (OviGraph *self)
{
  index_side (self, TRUE, &self->in_start, &self->in_list);
  index_side (self, FALSE, &self->out_start, &self->out_list);
}

/* Node @v's edges in (@in) or out, and how many. */
static const guint *
edges_of (OviGraph *self, guint v, gboolean in, guint *n)
{
  const guint *start = in ? self->in_start : self->out_start;

  *n = start[v + 1] - start[v];
  return (in ? self->in_list : self->out_list) + start[v];
}

static const OviGraphEdge *
edge_at (OviGraph *self, guint e)
{
  return &g_array_index (self->edges, OviGraphEdge, e);
}

/* The blame along edges -------------------------------------------------- */

static OviBlame
blame_of (OviGraph *self, guint node)
{
  return ovi_graph_node_get_blame (g_ptr_array_index (self->node_array, node));
}

static OviGraphNodeKind
kind_of (OviGraph *self, guint node)
{
  return ovi_graph_node_get_kind (g_ptr_array_index (self->node_array, node));
}

static gboolean
is_abnormal_class (OviBlame blame)
{
  return blame == OVI_BLAME_ORIGIN || blame == OVI_BLAME_PROPAGATED || blame == OVI_BLAME_ABSORBED;
}

/* Whether @node's input @input held NaN, Inf or saturated values: from its
 * analysis; without one, what its class says of its inputs. A node no
 * dump ran is looked through: any input may be. */
static gboolean
input_abnormal (OviGraph *self, guint node, guint input, gboolean *known)
{
  OviDumpFile *file = ovi_graph_node_get_file (g_ptr_array_index (self->node_array, node));
  guint64 bit = input < 64 ? G_GUINT64_CONSTANT (1) << input : 0;
  OviBlame blame;

  *known = FALSE;
  if (file == NULL)
    return TRUE;
  if (self->inputs[node].known & bit)
    {
      *known = TRUE;
      return (self->inputs[node].abnormal & bit) != 0;
    }
  blame = ovi_dump_file_get_blame (file);
  return blame == OVI_BLAME_PROPAGATED || blame == OVI_BLAME_ABSORBED || blame == OVI_BLAME_UNKNOWN;
}

/* Whether the origins of @producer reach a consumer through it: it passed
 * abnormal values on, or nobody knows (not dumped, not analysed). */
static gboolean
passes_on (OviGraph *self, guint producer)
{
  OviBlame blame = blame_of (self, producer);

  if (kind_of (self, producer) == OVI_GRAPH_NODE_NOT_DUMPED)
    return TRUE;
  return kind_of (self, producer) == OVI_GRAPH_NODE_OPERATOR &&
         (blame == OVI_BLAME_PROPAGATED || blame == OVI_BLAME_UNKNOWN);
}

/* Whether edge @e carries abnormal values from its producer's side: the
 * consumer's input is abnormal and the producer is an origin, passes its
 * own on, or (for an input an analysis saw abnormal) is external. */
static gboolean
carries (OviGraph *self, const OviGraphEdge *e, gboolean *from_outside)
{
  gboolean known;
  OviGraphNodeKind kind = kind_of (self, e->producer);

  *from_outside = FALSE;
  if (!input_abnormal (self, e->consumer, e->input, &known))
    return FALSE;
  if (kind == OVI_GRAPH_NODE_INPUT || kind == OVI_GRAPH_NODE_CONSTANT ||
      kind == OVI_GRAPH_NODE_EXTERNAL)
    return *from_outside = known;
  return blame_of (self, e->producer) == OVI_BLAME_ORIGIN || passes_on (self, e->producer);
}

/* Adds @v to the ascending @set. */
static void
set_add (GArray *set, guint v)
{
  guint k = 0;

  while (k < set->len && g_array_index (set, guint, k) < v)
    k++;
  if (k == set->len || g_array_index (set, guint, k) != v)
    g_array_insert_val (set, k, v);
}

/* Nodes in an order where every producer comes before its consumers
 * (Kahn); nodes on a cycle follow in index order. */
static GArray *
topological_order (OviGraph *self)
{
  guint n = self->node_array->len;
  g_autofree guint *waiting = g_new0 (guint, n);
  g_autofree gboolean *done = g_new0 (gboolean, n);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);

  for (guint e = 0; e < self->edges->len; e++)
    waiting[g_array_index (self->edges, OviGraphEdge, e).consumer]++;
  for (guint i = 0; i < n; i++)
    if (waiting[i] == 0)
      g_array_append_val (order, i);
  for (guint at = 0;; at++)
    {
      if (at == order->len)
        {
          guint left = 0;
          while (left < n && done[left])
            left++;
          if (left == n)
            break;
          /* A cycle: take the first node left. */
          waiting[left] = 0;
          g_array_append_val (order, left);
        }
      {
        guint node = g_array_index (order, guint, at), n_out;
        const guint *out = edges_of (self, node, FALSE, &n_out);

        done[node] = TRUE;
        for (guint k = 0; k < n_out; k++)
          {
            guint c = edge_at (self, out[k])->consumer;
            if (!done[c] && waiting[c] > 0 && --waiting[c] == 0)
              g_array_append_val (order, c);
          }
      }
    }
  return order;
}

/* Every node's origins along edges (see the top of this file). */
static void
find_origins_along_edges (OviGraph *self)
{
  g_autoptr (GArray) order = topological_order (self);

  for (guint i = 0; i < order->len; i++)
    {
      guint node = g_array_index (order, guint, i), n_in;
      GArray *set = self->origins[node];
      const guint *in = edges_of (self, node, TRUE, &n_in);

      if (blame_of (self, node) == OVI_BLAME_ORIGIN)
        {
          g_array_append_val (set, node);
          continue;
        }
      if (kind_of (self, node) == OVI_GRAPH_NODE_OPERATOR &&
          blame_of (self, node) == OVI_BLAME_NORMAL)
        continue;
      for (guint k = 0; k < n_in; k++)
        {
          const OviGraphEdge *e = edge_at (self, in[k]);
          gboolean outside;

          if (!carries (self, e, &outside))
            continue;
          if (outside || blame_of (self, e->producer) == OVI_BLAME_ORIGIN)
            set_add (set, e->producer);
          else
            for (guint o = 0; o < self->origins[e->producer]->len; o++)
              set_add (set, g_array_index (self->origins[e->producer], guint, o));
        }
    }
}

/* Without edges: the earliest origin at or before each abnormal operator,
 * in run order (as the analyses without a graph judge). */
static void
find_origins_in_run_order (OviGraph *self, guint n_ops)
{
  int first = -1;

  for (guint op = 0; op < n_ops; op++)
    {
      if (first < 0 && blame_of (self, op) == OVI_BLAME_ORIGIN)
        first = op;
      if (first >= 0 && is_abnormal_class (blame_of (self, op)))
        g_array_append_val (self->origins[op], first);
    }
}

static void
find_origins (OviGraph *self, guint n_ops)
{
  self->origins = g_new (GArray *, self->node_array->len);
  for (guint i = 0; i < self->node_array->len; i++)
    self->origins[i] = g_array_new (FALSE, FALSE, sizeof (guint));
  if (self->edges->len > 0)
    find_origins_along_edges (self);
  else
    find_origins_in_run_order (self, n_ops);
}

/**
 * ovi_graph_build:
 * @folder: a loaded folder
 * @iteration: (nullable): a relative folder of @folder's files
 *   (ovi_dump_file_get_relative_dir()); %NULL for the first with operators
 * @graph_json: (nullable): a fusion-rule graph JSON to read edges and
 *   graph-only nodes from
 *
 * Builds the graph of one iteration, summarising the operators that are
 * not yet (reading their tensors, on the worker pool). Any thread.
 *
 * Returns: (transfer full): the graph, or %NULL with @error set when the
 *   graph JSON cannot be read
 */
static OviGraph *build (OviDumpFolder *folder,
                        const char *iteration,
                        const char *graph_json,
                        gboolean summarize,
                        GCancellable *cancellable,
                        GError **error);

OviGraph *
ovi_graph_build (OviDumpFolder *folder,
                 const char *iteration,
                 const char *graph_json,
                 GCancellable *cancellable,
                 GError **error)
{
  return build (folder, iteration, graph_json, TRUE, cancellable, error);
}

/* @summarize: FALSE for the edges alone (the diff): no tensor is read, and
 * the classes and origins are unknown. */
static OviGraph *
build (OviDumpFolder *folder,
       const char *iteration,
       const char *graph_json,
       gboolean summarize,
       GCancellable *cancellable,
       GError **error)
{
  g_autoptr (OviGraph) self = NULL;
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GPtrArray) json_ops = NULL;
  g_autoptr (GHashTable) slots = NULL;
  g_autoptr (GArray) op_nodes = NULL;
  gboolean addresses;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), NULL);

  if (graph_json && (json_ops = ovi_graph_json_read (graph_json, error)) == NULL)
    return NULL;
  self = g_object_new (OVI_TYPE_GRAPH, NULL);
  self->folder = g_object_ref (folder);
  files = iteration_files (folder, &iteration);
  self->iteration = g_strdup (iteration ? iteration : "");
  self->graph_json = g_strdup (graph_json);
  for (guint i = 0; summarize && i < files->len; i++)
    if (ovi_dump_file_get_summary (g_ptr_array_index (files, i)) == NULL)
      {
        ovi_parallel_for (files->len, summarize_one, files, cancellable);
        break;
      }
  for (guint i = 0; i < files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (files, i);
      add_node (self, ovi_dump_file_get_op_name (file), ovi_dump_file_get_op_type (file),
                OVI_GRAPH_NODE_OPERATOR, file, i);
    }
  if (json_ops)
    {
      slots = g_hash_table_new (NULL, NULL);
      op_nodes = add_json_nodes (self, json_ops, slots);
    }
  addresses = add_address_edges (self, files->len, slots);
  if (json_ops)
    add_json_edges (self, json_ops, op_nodes, slots);
  index_edges (self);
  note_inputs (self, files->len);
  find_origins (self, files->len);
  if (self->edges->len == 0)
    self->run_order_note = g_strdup (
        addresses || json_ops ? _ ("no operator fed another: the blame follows run order")
                              : _ ("the dumps carry no addresses and no graph was given: the blame "
                                   "follows run order"));
  return g_steal_pointer (&self);
}

typedef struct
{
  OviDumpFolder *folder;
  char *iteration;
  char *graph_json;
} BuildData;

static void
build_data_free (BuildData *d)
{
  g_object_unref (d->folder);
  g_free (d->iteration);
  g_free (d->graph_json);
  g_free (d);
}

/* The folder keeps each graph built, by iteration, graph JSON and the
 * number of its files (a followed folder's new files make a new graph). */
static char *
cache_key (OviDumpFolder *folder, const char *iteration, const char *graph_json, gboolean beside)
{
  return g_strdup_printf ("ovi-graph\n%u\n%s\n%s\n%d",
                          g_list_model_get_n_items (ovi_dump_folder_get_files (folder)),
                          iteration ? iteration : "", graph_json ? graph_json : "", beside);
}

static gpointer
ref_graph (gpointer graph, gpointer user_data)
{
  return graph ? g_object_ref (graph) : NULL;
}

static OviGraph *
dup_cached (OviDumpFolder *folder, const char *key)
{
  return g_object_dup_data (G_OBJECT (folder), key, ref_graph, NULL);
}

static void
cache (OviDumpFolder *folder, const char *key, OviGraph *graph)
{
  g_object_set_data_full (G_OBJECT (folder), g_intern_string (key), g_object_ref (graph),
                          g_object_unref);
}

/**
 * ovi_graph_dup_for_iteration:
 * @iteration: (nullable): as for ovi_graph_build()
 *
 * The graph of @iteration with the fusion-rule JSON beside its dumps when
 * there is one (ovi_graph_find_json(); one that cannot be read is left
 * out), built once: the folder keeps it. Any thread.
 *
 * Returns: (transfer full): the graph
 */
OviGraph *
ovi_graph_dup_for_iteration (OviDumpFolder *folder,
                             const char *iteration,
                             GCancellable *cancellable)
{
  g_autofree char *key = cache_key (folder, iteration, NULL, TRUE);
  g_autofree char *json = NULL;
  OviGraph *graph;

  if ((graph = dup_cached (folder, key)) != NULL)
    return graph;
  json = ovi_graph_find_json (folder, iteration);
  if (json == NULL ||
      (graph = ovi_graph_build (folder, iteration, json, cancellable, NULL)) == NULL)
    graph = ovi_graph_build (folder, iteration, NULL, cancellable, NULL);
  cache (folder, key, graph);
  return graph;
}

/**
 * ovi_graph_dup_edges_for_iteration:
 * @iteration: (nullable): as for ovi_graph_build()
 *
 * The edges of @iteration, for a caller that needs no classes (the diff):
 * the graph ovi_graph_dup_for_iteration() keeps when it was built, else one
 * built without reading any tensor, with the fusion-rule JSON beside the
 * dumps when there is one, kept by the folder in its turn. Any thread.
 *
 * Returns: (transfer full): the graph
 */
OviGraph *
ovi_graph_dup_edges_for_iteration (OviDumpFolder *folder,
                                   const char *iteration,
                                   GCancellable *cancellable)
{
  g_autofree char *full_key = cache_key (folder, iteration, NULL, TRUE);
  g_autofree char *key = g_strconcat (full_key, "\nedges", NULL);
  g_autofree char *json = NULL;
  OviGraph *graph;

  if ((graph = dup_cached (folder, full_key)) != NULL || (graph = dup_cached (folder, key)) != NULL)
    return graph;
  json = ovi_graph_find_json (folder, iteration);
  if (json == NULL || (graph = build (folder, iteration, json, FALSE, cancellable, NULL)) == NULL)
    graph = build (folder, iteration, NULL, FALSE, cancellable, NULL);
  cache (folder, key, graph);
  return graph;
}

static void
build_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  BuildData *d = task_data;
  GError *error = NULL;
  OviGraph *graph = ovi_graph_build (d->folder, d->iteration, d->graph_json, cancellable, &error);

  if (graph == NULL)
    g_task_return_error (task, error);
  else if (g_task_return_error_if_cancelled (task))
    g_object_unref (graph);
  else
    g_task_return_pointer (task, graph, g_object_unref);
}

static void
cache_graph (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GTask *outer = user_data;
  BuildData *d = g_task_get_task_data (outer);
  GError *error = NULL;
  OviGraph *graph = g_task_propagate_pointer (G_TASK (result), &error);

  if (graph == NULL)
    {
      g_task_return_error (outer, error);
      g_object_unref (outer);
      return;
    }
  {
    g_autofree char *key = cache_key (d->folder, d->iteration, d->graph_json, FALSE);
    cache (d->folder, key, graph);
  }
  g_task_return_pointer (outer, graph, g_object_unref);
  g_object_unref (outer);
}

/**
 * ovi_graph_build_async:
 *
 * Builds the graph of one iteration (see ovi_graph_build()) on the worker
 * pool, once: the folder keeps it, and a later call for the same
 * iteration and graph JSON gets it at once.
 */
void
ovi_graph_build_async (OviDumpFolder *folder,
                       const char *iteration,
                       const char *graph_json,
                       GCancellable *cancellable,
                       GAsyncReadyCallback callback,
                       gpointer user_data)
{
  GTask *outer = g_task_new (NULL, cancellable, callback, user_data);
  BuildData *d = g_new0 (BuildData, 1);
  g_autofree char *key = NULL;
  OviGraph *cached;
  GTask *inner;

  g_task_set_source_tag (outer, ovi_graph_build_async);
  d->folder = g_object_ref (folder);
  d->iteration = g_strdup (iteration);
  d->graph_json = g_strdup (graph_json);
  g_task_set_task_data (outer, d, (GDestroyNotify) build_data_free);
  key = cache_key (folder, iteration, graph_json, FALSE);
  if ((cached = dup_cached (folder, key)) != NULL)
    {
      g_task_return_pointer (outer, cached, g_object_unref);
      g_object_unref (outer);
      return;
    }
  inner = g_task_new (NULL, cancellable, cache_graph, outer);
  g_task_set_task_data (inner, d, NULL);
  ovi_worker_run_in_thread (inner, build_in_thread);
  g_object_unref (inner);
}

/**
 * ovi_graph_build_finish:
 * Returns: (transfer full): the graph, or %NULL with @error set
 */
OviGraph *
ovi_graph_build_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/**
 * ovi_graph_find_json:
 *
 * Returns: (transfer full) (nullable): a fusion-rule graph JSON in the
 *   folder of @iteration (the one a user put beside the dump), the first
 *   by name, or %NULL
 */
char *
ovi_graph_find_json (OviDumpFolder *folder, const char *iteration)
{
  g_autoptr (GPtrArray) files = iteration_files (folder, &iteration);
  g_autofree char *dir = NULL;
  g_autoptr (GDir) listing = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (files->len == 0)
    return NULL;
  dir = g_path_get_dirname (ovi_dump_file_get_path (g_ptr_array_index (files, 0)));
  if ((listing = g_dir_open (dir, 0, NULL)) == NULL)
    return NULL;
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      if (ovi_graph_json_is_graph (path))
        return path;
      g_free (path);
    }
  return NULL;
}

/* What it holds -------------------------------------------------------- */

OviDumpFolder *
ovi_graph_get_folder (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  return self->folder;
}

/**
 * ovi_graph_get_iteration:
 * Returns: the relative folder of the iteration's files
 */
const char *
ovi_graph_get_iteration (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  return self->iteration;
}

/**
 * ovi_graph_get_graph_json:
 * Returns: (nullable): the graph JSON it was built with
 */
const char *
ovi_graph_get_graph_json (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  return self->graph_json;
}

/**
 * ovi_graph_get_nodes:
 * Returns: (transfer none): the OviGraphNode items: the dumped operators
 *   in run order first, then the nodes a graph JSON or an unwritten
 *   address added
 */
GListModel *
ovi_graph_get_nodes (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  return G_LIST_MODEL (self);
}

guint
ovi_graph_get_n_nodes (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), 0);
  return self->node_array->len;
}

/**
 * ovi_graph_get_node:
 * Returns: (transfer none): the node of that index
 */
OviGraphNode *
ovi_graph_get_node (OviGraph *self, guint index)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  g_return_val_if_fail (index < self->node_array->len, NULL);
  return g_ptr_array_index (self->node_array, index);
}

guint
ovi_graph_get_n_edges (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), 0);
  return self->edges->len;
}

const OviGraphEdge *
ovi_graph_get_edge (OviGraph *self, guint index)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  g_return_val_if_fail (index < self->edges->len, NULL);
  return &g_array_index (self->edges, OviGraphEdge, index);
}

/**
 * ovi_graph_get_in_edges:
 * Returns: (array length=n_edges): the indices of the edges into @node
 */
const guint *
ovi_graph_get_in_edges (OviGraph *self, guint node, guint *n_edges)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self) && node < self->node_array->len, NULL);
  return edges_of (self, node, TRUE, n_edges);
}

/**
 * ovi_graph_get_out_edges:
 * Returns: (array length=n_edges): the indices of the edges out of @node
 */
const guint *
ovi_graph_get_out_edges (OviGraph *self, guint node, guint *n_edges)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self) && node < self->node_array->len, NULL);
  return edges_of (self, node, FALSE, n_edges);
}

gboolean
ovi_graph_has_edges (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), FALSE);
  return self->edges->len > 0;
}

/**
 * ovi_graph_get_run_order_note:
 * Returns: (nullable): when the graph has no edges, the sentence that says
 *   why and that the blame follows run order; %NULL when it has edges
 */
const char *
ovi_graph_get_run_order_note (OviGraph *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  return self->run_order_note;
}

/* Queries -------------------------------------------------------------- */

/**
 * ovi_graph_lookup:
 * @op_name: as a dump header, a file name (sanitised) or a graph JSON
 *   gives it
 *
 * Returns: (transfer none) (nullable): its node, the dumped operator's
 *   when there is one (its first execution)
 */
OviGraphNode *
ovi_graph_lookup (OviGraph *self, const char *op_name)
{
  g_autofree char *form = NULL;

  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  form = ovi_file_name_form (op_name);
  return g_hash_table_lookup (self->by_name, form);
}

/**
 * ovi_graph_lookup_file:
 * Returns: (transfer none) (nullable): the node @file ran
 */
OviGraphNode *
ovi_graph_lookup_file (OviGraph *self, OviDumpFile *file)
{
  g_return_val_if_fail (OVI_IS_GRAPH (self), NULL);
  return g_hash_table_lookup (self->by_file, file);
}

/**
 * ovi_graph_get_origins:
 *
 * The origins whose abnormal values reach @node: along edges, or without
 * edges the earliest origin before it in run order
 * (ovi_graph_get_run_order_note()). An operator is its own origin.
 *
 * Returns: (array length=n_origins): node indices, ascending; none for a
 *   node that is not abnormal
 */
const guint *
ovi_graph_get_origins (OviGraph *self, guint node, guint *n_origins)
{
  GArray *set;

  g_return_val_if_fail (OVI_IS_GRAPH (self) && node < self->node_array->len, NULL);
  set = self->origins[node];
  *n_origins = is_abnormal_class (blame_of (self, node)) ? set->len : 0;
  return (const guint *) (gconstpointer) set->data;
}

static gboolean
holds (GArray *set, guint v)
{
  for (guint i = 0; i < set->len; i++)
    if (g_array_index (set, guint, i) == v)
      return TRUE;
  return FALSE;
}

/* The shortest path from @origin to @node over edges that carry its
 * values (breadth first, backwards). */
static GArray *
chain_from (OviGraph *self, guint origin, guint node)
{
  guint n = self->node_array->len;
  g_autofree int *next = g_new (int, n);
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *chain = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < n; i++)
    next[i] = -2;
  next[node] = -1;
  g_array_append_val (queue, node);
  for (guint at = 0; at < queue->len && next[origin] == -2; at++)
    {
      guint v = g_array_index (queue, guint, at), n_in;
      const guint *in = edges_of (self, v, TRUE, &n_in);

      for (guint k = 0; k < n_in; k++)
        {
          const OviGraphEdge *e = edge_at (self, in[k]);
          gboolean outside;

          if (next[e->producer] != -2 || !carries (self, e, &outside) ||
              (e->producer != origin && !holds (self->origins[e->producer], origin)))
            continue;
          next[e->producer] = v;
          g_array_append_val (queue, e->producer);
        }
    }
  for (int v = next[origin] == -2 ? -1 : (int) origin; v >= 0; v = next[v])
    g_array_append_val (chain, v);
  return chain;
}

/**
 * ovi_graph_dup_chains:
 *
 * One chain for each origin that reaches @node: "origin → … → node", the
 * shortest along edges that carry abnormal values; without edges, the
 * origin then @node. Two origins meeting late are two chains.
 *
 * Returns: (transfer full) (element-type GArray): each a #GArray of guint
 *   node indices, the origin first and @node last
 */
GPtrArray *
ovi_graph_dup_chains (OviGraph *self, guint node)
{
  GPtrArray *chains = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  const guint *origins;
  guint n;

  g_return_val_if_fail (OVI_IS_GRAPH (self) && node < self->node_array->len, chains);

  origins = ovi_graph_get_origins (self, node, &n);
  for (guint i = 0; i < n; i++)
    {
      GArray *chain;

      if (self->edges->len > 0)
        chain = chain_from (self, origins[i], node);
      else
        {
          chain = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (chain, origins[i]);
          if (origins[i] != node)
            g_array_append_val (chain, node);
        }
      g_ptr_array_add (chains, chain);
    }
  return chains;
}

/**
 * ovi_graph_dup_chain_text:
 *
 * Returns: (transfer full) (nullable): the chains of @node as text, one
 *   line each: "a → b → c"; %NULL when no origin reaches it
 */
char *
ovi_graph_dup_chain_text (OviGraph *self, guint node)
{
  g_autoptr (GPtrArray) chains = ovi_graph_dup_chains (self, node);
  GString *s;

  if (chains->len == 0)
    return NULL;
  s = g_string_new (NULL);
  for (guint i = 0; i < chains->len; i++)
    {
      GArray *chain = g_ptr_array_index (chains, i);

      if (i > 0)
        g_string_append_c (s, '\n');
      for (guint k = 0; k < chain->len; k++)
        g_string_append_printf (
            s, "%s%s", k ? " → " : "",
            ovi_graph_node_get_name (ovi_graph_get_node (self, g_array_index (chain, guint, k))));
    }
  return g_string_free (s, FALSE);
}

/* Adds to @seen and @found what lies within @hops edges of @start,
 * upstream (@up) or downstream. */
static void
walk (OviGraph *self, guint start, guint hops, gboolean up, gboolean *seen, GArray *found)
{
  g_autoptr (GArray) level = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) next = g_array_new (FALSE, FALSE, sizeof (guint));

  g_array_append_val (level, start);
  for (guint h = 0; h < hops && level->len > 0; h++)
    {
      g_array_set_size (next, 0);
      for (guint i = 0; i < level->len; i++)
        {
          guint v = g_array_index (level, guint, i), n;
          const guint *list = edges_of (self, v, up, &n);

          for (guint k = 0; k < n; k++)
            {
              const OviGraphEdge *e = edge_at (self, list[k]);
              guint w = up ? e->producer : e->consumer;

              if (seen[w])
                continue;
              seen[w] = TRUE;
              g_array_append_val (found, w);
              g_array_append_val (next, w);
            }
        }
      g_array_set_size (level, 0);
      g_array_append_vals (level, next->data, next->len);
    }
}

static int
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/**
 * ovi_graph_dup_neighbourhood:
 *
 * What a picture of @node shows: the node, its chains, and the nodes within
 * @up edges upstream and @down edges downstream.
 *
 * Returns: (transfer full) (element-type guint): node indices, ascending
 */
GArray *
ovi_graph_dup_neighbourhood (OviGraph *self, guint node, guint up, guint down)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree gboolean *seen = NULL;
  g_autoptr (GPtrArray) chains = NULL;

  g_return_val_if_fail (OVI_IS_GRAPH (self) && node < self->node_array->len, found);

  seen = g_new0 (gboolean, self->node_array->len);
  seen[node] = TRUE;
  g_array_append_val (found, node);
  chains = ovi_graph_dup_chains (self, node);
  for (guint i = 0; i < chains->len; i++)
    {
      GArray *chain = g_ptr_array_index (chains, i);
      for (guint k = 0; k < chain->len; k++)
        {
          guint v = g_array_index (chain, guint, k);
          if (!seen[v])
            {
              seen[v] = TRUE;
              g_array_append_val (found, v);
            }
        }
    }
  walk (self, node, up, TRUE, seen, found);
  walk (self, node, down, FALSE, seen, found);
  g_array_sort (found, compare_guint);
  return found;
}
