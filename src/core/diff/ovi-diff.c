/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ovi-diff-enums.h"
#include "ovi-diff-private.h"
#include "ovi-error.h"
#include "ovi-problem.h"
#include "ovi-worker.h"

/* OviDiff, the runner: both runs read, their folders paired, their
 * operators matched and compared on the worker pool, classified
 * (ovi-diff-operator.c), and the first divergence found
 * (ovi-diff-divergence.c). */

struct _OviDiff
{
  GObject parent_instance;
  char *mine, *golden;
  double rtol, atol; /* NaN: the dtype's default */
  guint top_n;
  OviDiffMap *map;       /* NULL: none */
  gboolean keep_sources; /* the operators keep their tensors' files to read again */
  /* Mine as a folder loaded before (ovi_diff_set_mine_folder()): copies of
   * its lists, or NULL to scan mine. */
  GListStore *mine_files, *mine_records, *mine_problems;
  OviDumpFolder *mine_folder; /* the folder itself, for its graphs */
};

G_DEFINE_FINAL_TYPE (OviDiff, ovi_diff, G_TYPE_OBJECT)

static void
ovi_diff_finalize (GObject *object)
{
  OviDiff *self = OVI_DIFF (object);

  g_free (self->mine);
  g_free (self->golden);
  ovi_diff_map_free (self->map);
  g_clear_object (&self->mine_files);
  g_clear_object (&self->mine_records);
  g_clear_object (&self->mine_problems);
  g_clear_object (&self->mine_folder);
  G_OBJECT_CLASS (ovi_diff_parent_class)->finalize (object);
}

static void
ovi_diff_class_init (OviDiffClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ovi_diff_finalize;
}

static void
ovi_diff_init (OviDiff *self)
{
  self->rtol = self->atol = NAN;
  self->top_n = 10;
  self->keep_sources = TRUE;
}

/**
 * ovi_diff_new:
 * @mine: my run: a dump folder at any level, one op dump file, or a
 *   folder of .npy files
 * @golden: the golden run, the same
 */
OviDiff *
ovi_diff_new (const char *mine, const char *golden)
{
  OviDiff *self = g_object_new (OVI_TYPE_DIFF, NULL);

  self->mine = g_strdup (mine);
  self->golden = g_strdup (golden);
  return self;
}

/* NaN for either keeps the dtype's default of that one. */
void
ovi_diff_set_tolerance (OviDiff *self, double rtol, double atol)
{
  self->rtol = rtol;
  self->atol = atol;
}

void
ovi_diff_set_top_n (OviDiff *self, guint top_n)
{
  self->top_n = top_n;
}

/* A copy of @model's items, those @keep takes when it is given. */
static GListStore *
copy_items (GListModel *model, GType type, gboolean (*keep) (gpointer item))
{
  GListStore *copy = g_list_store_new (type);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

      if (keep == NULL || keep (item))
        g_list_store_append (copy, item);
    }
  return copy;
}

/* The records a scan of mine with the diff's own settings would find: not
 * those found in the data, which it does not look for (ovi_diff_side_load()). */
static gboolean
from_overflow_file (gpointer item)
{
  return ovi_overflow_record_get_source (item) != OVI_RECORD_SOURCE_DATA;
}

/**
 * ovi_diff_set_mine_folder:
 * @folder: (nullable): my run, loaded already (its scan over and not
 *   cancelled), whose root is the @mine given to ovi_diff_new(); %NULL to
 *   scan mine
 *
 * Reads my run from @folder instead of scanning it again: a window that
 * shows the run has read it once. The result is the one a scan of @mine
 * gives (`diff MINE GOLDEN`) as long as the folder has not changed since it
 * was read. Call it on the thread that owns @folder (the main thread): it
 * copies the folder's lists of files, overflow records and problems then,
 * so that the run, on the worker pool, reads what nothing changes.
 */
void
ovi_diff_set_mine_folder (OviDiff *self, OviDumpFolder *folder)
{
  g_return_if_fail (OVI_IS_DIFF (self));
  g_return_if_fail (folder == NULL || OVI_IS_DUMP_FOLDER (folder));
  g_return_if_fail (folder == NULL || !ovi_dump_folder_get_loading (folder));

  g_clear_object (&self->mine_files);
  g_clear_object (&self->mine_records);
  g_clear_object (&self->mine_problems);
  g_clear_object (&self->mine_folder);
  if (folder == NULL)
    return;
  self->mine_folder = g_object_ref (folder);
  self->mine_files = copy_items (ovi_dump_folder_get_files (folder), OVI_TYPE_DUMP_FILE, NULL);
  self->mine_records = copy_items (ovi_dump_folder_get_records (folder), OVI_TYPE_OVERFLOW_RECORD,
                                   from_overflow_file);
  self->mine_problems = copy_items (ovi_dump_folder_get_problems (folder), OVI_TYPE_PROBLEM, NULL);
}

/**
 * ovi_diff_set_keep_sources:
 * @keep: whether each operator keeps the files its tensors were read from
 *   (the default), for ovi_diff_pair_compute_async() to read them again
 *
 * The command-line tool never reads a tensor again: without the copies
 * the dump files are freed with the runs, and a diff of 100,000
 * operators needs a third less memory.
 */
void
ovi_diff_set_keep_sources (OviDiff *self, gboolean keep)
{
  g_return_if_fail (OVI_IS_DIFF (self));
  self->keep_sources = keep;
}

/**
 * ovi_diff_add_mapping:
 * @mine_name: my name, or names joined by `+`
 * @golden_name: the golden name, or names joined by `+`
 *
 * One line of a map file (ovi_diff_set_mapping_file()).
 */
gboolean
ovi_diff_add_mapping (OviDiff *self, const char *mine_name, const char *golden_name, GError **error)
{
  if (self->map == NULL)
    self->map = ovi_diff_map_new (NULL);
  return ovi_diff_map_add (self->map, mine_name, golden_name, 0, error);
}

/**
 * ovi_diff_set_mapping_file:
 *
 * Reads a map file for renamed or fused operators (ovi_diff_map_load()):
 * `my_name,golden_name` a line, either side `a+b+c`. It replaces the map
 * before; on error the map is left as it was.
 */
gboolean
ovi_diff_set_mapping_file (OviDiff *self, const char *path, GError **error)
{
  g_autoptr (OviDiffMap) map = ovi_diff_map_new (path);

  if (!ovi_diff_map_load (map, path, error))
    return FALSE;
  ovi_diff_map_free (self->map);
  self->map = g_steal_pointer (&map);
  return TRUE;
}

typedef struct
{
  OviDiff *diff;
  OviDiffOpPair pair;
  OviDiffOperator *op;
  const char *label;
  const char *device; /* "" when the path names none */
} Work;

static OviDiffSource *
source_at (GPtrArray *list, guint index)
{
  for (guint i = 0; list && i < list->len; i++)
    {
      OviDiffSource *s = g_ptr_array_index (list, i);
      if (s->index == index)
        return s;
    }
  return NULL;
}

/* Inputs with inputs, outputs with outputs, by index; every index of
 * either side gets a row. */
static void
compare_kind (Work *w, GPtrArray *mine, GPtrArray *golden)
{
  guint top = 0;

  for (guint i = 0; i < mine->len; i++)
    top = MAX (top, ((OviDiffSource *) g_ptr_array_index (mine, i))->index + 1);
  for (guint i = 0; i < golden->len; i++)
    top = MAX (top, ((OviDiffSource *) g_ptr_array_index (golden, i))->index + 1);
  for (guint index = 0; index < top; index++)
    {
      OviDiffSource *a = source_at (mine, index), *b = source_at (golden, index);
      OviDiffTensor t;

      if (a == NULL && b == NULL)
        continue;
      ovi_diff_compare_sources (a, b, w->pair.mine, w->pair.golden, w->diff->rtol, w->diff->atol,
                                w->diff->top_n, &t);
      g_array_append_val (w->op->tensors, t);
      if (!w->diff->keep_sources)
        continue;
      g_ptr_array_add (w->op->sources, a ? ovi_diff_source_keep (a) : NULL);
      g_ptr_array_add (w->op->sources, b ? ovi_diff_source_keep (b) : NULL);
    }
}

static void
run_work (guint index, gpointer data)
{
  Work *w = &((Work *) data)[index];
  OviDiffSideOp *a = w->pair.mine, *b = w->pair.golden;
  OviDiffOperator *op = g_object_new (OVI_TYPE_DIFF_OPERATOR, NULL);

  w->op = op;
  op->name = g_strdup ((a ? a : b)->name);
  op->golden_name = b ? g_strdup (b->name) : NULL;
  op->op_type = g_strdup (a && a->op_type ? a->op_type : b && b->op_type ? b->op_type : NULL);
  op->mine_path = a ? g_strdup (a->path) : NULL;
  op->golden_path = b ? g_strdup (b->path) : NULL;
  op->pair = g_strdup (w->label);
  op->device = *w->device ? g_strdup (w->device) : NULL;
  op->order = (a ? a : b)->order;
  op->mine_overflows = a ? a->overflows : 0;
  op->golden_overflows = b ? b->overflows : 0;
  if (a == NULL || b == NULL)
    {
      op->op_class = a ? OVI_DIFF_OP_ONLY_MINE : OVI_DIFF_OP_ONLY_GOLDEN;
      /* What else is known of it: a statistics-only dump, say. */
      op->reason = g_strdup ((a ? a : b)->problem);
      return;
    }
  if (a->problem || b->problem)
    {
      op->reason = g_strdup_printf (a->problem ? _ ("my run: %s") : _ ("golden run: %s"),
                                    a->problem ? a->problem : b->problem);
      ovi_diff_operator_classify (op);
      return;
    }
  ovi_diff_side_op_fill (a);
  ovi_diff_side_op_fill (b);
  /* A .npy golden of outputs only: the inputs are not compared. */
  op->inputs_compared = !a->no_inputs_kept && !b->no_inputs_kept;
  if (op->inputs_compared)
    compare_kind (w, a->inputs, b->inputs);
  compare_kind (w, a->outputs, b->outputs);
  ovi_diff_operator_classify (op);
}

static void
compare_and_release (guint index, gpointer data)
{
  Work *w = &((Work *) data)[index];

  run_work (index, data);
  ovi_diff_side_op_release (w->pair.mine);
  ovi_diff_side_op_release (w->pair.golden);
}

/* A side's problems, each named by its path as the user can open it (the
 * folder's are relative to the run's root). */
static void
add_problems (OviDiffResult *result, OviDiffSide *side)
{
  for (guint i = 0; i < side->problems->len; i++)
    {
      OviProblem *p = g_ptr_array_index (side->problems, i);
      const char *file = ovi_problem_get_file (p);
      g_autofree char *path = ovi_diff_side_path (side, file);
      g_autoptr (GError) error = g_error_new_literal (OVI_DIFF_ERROR, OVI_DIFF_ERROR_NOT_FOUND,
                                                      ovi_problem_get_message (p));
      /* A statistics CSV's problem keeps its line. */
      g_autoptr (OviProblem) full = ovi_problem_new_at_line (path, ovi_problem_get_line (p), error);

      g_list_store_append (result->problems, full);
    }
}

/* Whether two paths are one folder or file, by device and inode. */
static gboolean
same_path (const char *a, const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* The diff along edges: the dataflow graph of each iteration of my run
 * (ovi_graph_dup_edges_for_iteration(): tensor addresses, or the graph
 * JSON beside the dumps), and which of the compared operators each of its
 * nodes is. Operators of an iteration without edges keep run order. */
typedef struct
{
  OviGraph *graph;
  guint *op_of_node;    /* node → index in the operators, G_MAXUINT: none */
  guint64 first_unseen; /* the run order of the first operator of mine the graph lacks (its
                           file unreadable), G_MAXUINT64: none */
} GraphOps;

typedef struct
{
  GPtrArray *graphs;   /* GraphOps */
  GraphOps **graph_of; /* by operator: its graph, or NULL */
  guint *node_of;      /* by operator: its node */
} Producers;

static void
graph_ops_free (GraphOps *g)
{
  g_object_unref (g->graph);
  g_free (g->op_of_node);
  g_free (g);
}

static void
producers_clear (Producers *p)
{
  g_clear_pointer (&p->graphs, g_ptr_array_unref);
  g_clear_pointer (&p->graph_of, g_free);
  g_clear_pointer (&p->node_of, g_free);
}

/* Whether my run may give the diff edges to follow: the first dump file
 * of an iteration carries tensor addresses (a run either records them or
 * not), or a graph JSON lies beside its dumps. Read for one file an
 * iteration, so that a run without them does not keep its folder, whose
 * lists weigh as much again as its operators (#39). */
static gboolean
may_have_edges (OviDiffSide *mine)
{
  for (guint i = 0; i < mine->groups->len; i++)
    {
      OviDiffGroup *g = g_ptr_array_index (mine->groups, i);
      OviDumpFile *file = NULL;
      g_autofree char *json = NULL;
      GPtrArray *tensors;

      for (guint j = 0; j < g->ops->len && file == NULL; j++)
        file = ((OviDiffSideOp *) g_ptr_array_index (g->ops, j))->file;
      if (file == NULL)
        continue;
      tensors = ovi_dump_file_get_tensors (file);
      for (guint t = 0; tensors && t < tensors->len; t++)
        if (ovi_tensor_get_address (g_ptr_array_index (tensors, t)) != 0)
          return TRUE;
      json = ovi_graph_find_json (mine->folder, ovi_dump_file_get_relative_dir (file));
      if (json)
        return TRUE;
    }
  return FALSE;
}

/* Builds @p for @operators; FALSE when no iteration of my run has edges. */
static gboolean
producers_init (Producers *p, OviDiffSide *mine, GPtrArray *operators, GCancellable *cancellable)
{
  g_autoptr (GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) by_dir = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) by_pair = g_hash_table_new (g_str_hash, g_str_equal);
  GListModel *files;
  gboolean any = FALSE;

  *p = (Producers){ 0 };
  if (mine->folder == NULL)
    return FALSE;
  files = ovi_dump_folder_get_files (mine->folder);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OP_DUMP)
        g_hash_table_insert (by_path, (gpointer) ovi_dump_file_get_path (file), file);
    }
  p->graphs = g_ptr_array_new_with_free_func ((GDestroyNotify) graph_ops_free);
  p->graph_of = g_new0 (GraphOps *, MAX (operators->len, 1));
  p->node_of = g_new0 (guint, MAX (operators->len, 1));
  for (guint i = 0; i < operators->len; i++)
    {
      OviDiffOperator *op = g_ptr_array_index (operators, i);
      OviDumpFile *file = op->mine_path ? g_hash_table_lookup (by_path, op->mine_path) : NULL;
      const char *dir;
      GraphOps *g;
      OviGraphNode *node;

      if (file == NULL)
        continue;
      dir = ovi_dump_file_get_relative_dir (file);
      if (!g_hash_table_lookup_extended (by_dir, dir, NULL, (gpointer *) &g))
        {
          g_autoptr (OviGraph) graph =
              ovi_graph_dup_edges_for_iteration (mine->folder, dir, cancellable);

          g = NULL;
          if (ovi_graph_has_edges (graph))
            {
              guint n = ovi_graph_get_n_nodes (graph);

              g = g_new0 (GraphOps, 1);
              g->graph = g_steal_pointer (&graph);
              g->first_unseen = G_MAXUINT64;
              g->op_of_node = g_new (guint, MAX (n, 1));
              for (guint k = 0; k < n; k++)
                g->op_of_node[k] = G_MAXUINT;
              g_ptr_array_add (p->graphs, g);
              any = TRUE;
            }
          g_hash_table_insert (by_dir, (gpointer) dir, g);
        }
      if (g == NULL || (node = ovi_graph_lookup_file (g->graph, file)) == NULL)
        continue;
      p->graph_of[i] = g;
      p->node_of[i] = ovi_graph_node_get_index (node);
      g->op_of_node[p->node_of[i]] = i;
      g_hash_table_insert (by_pair, op->pair, g);
    }
  /* Operators of mine the graph lacks: what they wrote looks like a buffer
   * nobody wrote. */
  for (guint i = 0; any && i < operators->len; i++)
    {
      OviDiffOperator *op = g_ptr_array_index (operators, i);
      GraphOps *g = g_hash_table_lookup (by_pair, op->pair);

      if (g && p->graph_of[i] == NULL && op->mine_path)
        g->first_unseen = MIN (g->first_unseen, op->order);
    }
  return any;
}

/* The producers of input @input of @node (G_MAXUINT: of every input): the
 * compared operators, looking through nodes no dump ran; an external input
 * or a dumped operator not compared ends the walk. */
static void
walk_up (
    GraphOps *g, guint node, guint input, GArray *producers, GPtrArray *externals, GHashTable *seen)
{
  const guint *in;
  guint n;

  if (!g_hash_table_add (seen, GUINT_TO_POINTER (node)) && input == G_MAXUINT)
    return;
  in = ovi_graph_get_in_edges (g->graph, node, &n);
  for (guint e = 0; e < n; e++)
    {
      const OviGraphEdge *edge = ovi_graph_get_edge (g->graph, in[e]);
      OviGraphNode *from = ovi_graph_get_node (g->graph, edge->producer);

      if (input != G_MAXUINT && edge->input != input)
        continue;
      switch (ovi_graph_node_get_kind (from))
        {
        case OVI_GRAPH_NODE_OPERATOR:
          if (g->op_of_node[edge->producer] != G_MAXUINT)
            g_array_append_val (producers, g->op_of_node[edge->producer]);
          break;
        case OVI_GRAPH_NODE_NOT_DUMPED:
          walk_up (g, edge->producer, G_MAXUINT, producers, externals, seen);
          break;
        default:
          g_ptr_array_add (externals, from);
          break;
        }
    }
}

static gboolean
graph_producers (GPtrArray *ops,
                 guint op,
                 guint input,
                 GArray *producers,
                 GPtrArray *externals,
                 gpointer user_data)
{
  Producers *p = user_data;
  GraphOps *g = p->graph_of[op];
  g_autoptr (GHashTable) seen = NULL;

  if (g == NULL)
    return FALSE;
  seen = g_hash_table_new (NULL, NULL);
  walk_up (g, p->node_of[op], input, producers, externals, seen);
  /* A buffer no operator of the graph wrote, read after one whose file
   * could not be read: that one may have written it; run order decides. */
  for (guint i = 0; i < externals->len; i++)
    if (ovi_graph_node_get_kind (g_ptr_array_index (externals, i)) == OVI_GRAPH_NODE_EXTERNAL &&
        ((OviDiffOperator *) g_ptr_array_index (ops, op))->order > g->first_unseen)
      return FALSE;
  /* An input the graph has no edge for: not known, run order decides. */
  return producers->len > 0 || externals->len > 0;
}

static OviDiffResult *
run (OviDiff *self, GCancellable *cancellable, GError **error)
{
  g_autoptr (OviDiffSide) mine = NULL, golden = NULL;
  g_autoptr (OviDiffResult) result = g_object_new (OVI_TYPE_DIFF_RESULT, NULL);
  g_autoptr (GArray) groups = NULL;
  g_autoptr (GArray) work = g_array_new (FALSE, TRUE, sizeof (Work));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) operators = NULL;
  OviDiffDivergence first = { 0 };
  Producers producers = { 0 };

  result->mine_path = g_strdup (self->mine);
  result->golden_path = g_strdup (self->golden);
  mine = self->mine_files
             ? ovi_diff_side_new_for_folder (
                   self->mine, G_LIST_MODEL (self->mine_files), G_LIST_MODEL (self->mine_records),
                   G_LIST_MODEL (self->mine_problems), self->mine_folder, cancellable, error)
             : ovi_diff_side_load (self->mine, TRUE, cancellable, error);
  if (mine == NULL)
    return NULL;
  /* Kept for the graphs of the diff along edges only where there are edges,
   * and let go before the golden is read. */
  if (self->mine_files == NULL && mine->folder && !may_have_edges (mine))
    g_clear_object (&mine->folder);
  if (!(golden = ovi_diff_side_load (self->golden, FALSE, cancellable, error)))
    return NULL;
  result->same_path = same_path (self->mine, self->golden);
  result->mine_npy = mine->npy;
  result->golden_npy = golden->npy;
  add_problems (result, mine);
  add_problems (result, golden);

  if ((groups = ovi_diff_pair_groups (mine, golden, error)) == NULL)
    return NULL;
  if (self->map)
    ovi_diff_map_reset (self->map);
  for (guint g = 0; g < groups->len; g++)
    {
      OviDiffGroupPair *gp = &g_array_index (groups, OviDiffGroupPair, g);
      OviDiffFolderPair fp = { 0 };
      g_autoptr (GArray) ops = ovi_diff_match_ops (gp->mine, gp->golden, self->map);
      char *label = ovi_diff_group_label (gp->mine ? gp->mine : gp->golden);

      fp.mine = gp->mine ? g_strdup (gp->mine->path) : NULL;
      fp.golden = gp->golden ? g_strdup (gp->golden->path) : NULL;
      fp.label = g_strdup (label);
      g_array_append_val (result->pairs, fp);
      g_ptr_array_add (labels, label);
      for (guint i = 0; i < ops->len; i++)
        {
          Work w = { self, g_array_index (ops, OviDiffOpPair, i), NULL, label,
                     (gp->mine ? gp->mine : gp->golden)->device };
          g_array_append_val (work, w);
        }
    }

  if (self->map)
    {
      g_ptr_array_unref (result->warnings);
      result->warnings = ovi_diff_map_warnings (self->map);
    }
  for (guint i = 0; i < work->len; i++)
    {
      OviDiffOpPair *p = &g_array_index (work, Work, i).pair;
      if (p->mine)
        g_atomic_int_inc (&p->mine->uses);
      if (p->golden)
        g_atomic_int_inc (&p->golden->uses);
    }
  ovi_parallel_for (work->len, compare_and_release, work->data, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      for (guint i = 0; i < work->len; i++)
        g_clear_object (&g_array_index (work, Work, i).op);
      return NULL;
    }
  operators = g_ptr_array_new_full (work->len, g_object_unref);
  for (guint i = 0; i < work->len; i++)
    {
      OviDiffOperator *op = g_array_index (work, Work, i).op;

      op->position = i;
      g_ptr_array_add (operators, op);
    }
  if (producers_init (&producers, mine, operators, cancellable))
    {
      result->along_edges = TRUE;
      ovi_diff_find_first_divergence (operators, graph_producers, &producers, &first);
    }
  else
    ovi_diff_find_first_divergence (operators, NULL, NULL, &first);
  producers_clear (&producers);
  if (first.op)
    {
      result->first = g_object_ref (first.op);
      result->first_tensor = first.tensor;
      result->form = first.form;
      result->first_input = first.input;
      first.op->is_first = TRUE;
    }
  g_list_store_splice (result->operators, 0, 0, operators->pdata, operators->len);
  return g_steal_pointer (&result);
}

/**
 * ovi_diff_run:
 *
 * Compares the two runs on the calling thread (the command-line tool, the
 * tests); the tensors of different operators are compared on the worker
 * pool in parallel.
 *
 * Returns: (transfer full): the result, or NULL with @error when a run
 *   cannot be read at all or @cancellable was cancelled
 */
OviDiffResult *
ovi_diff_run (OviDiff *self, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (OVI_IS_DIFF (self), NULL);
  return run (self, cancellable, error);
}

/**
 * ovi_diff_check_output:
 * @output: a file about to be written (the CSV, a report)
 *
 * The output guard (ovi_dump_folder_check_output()) over both runs: the
 * diff never writes into a folder it reads.
 *
 * Returns: %FALSE with @error (%OVI_FOLDER_ERROR_OUTPUT_INSIDE) naming both
 */
gboolean
ovi_diff_check_output (OviDiff *self, const char *output, GError **error)
{
  g_autoptr (GFile) mine = g_file_new_for_path (self->mine);
  g_autoptr (GFile) golden = g_file_new_for_path (self->golden);
  GFile *roots[] = { mine, golden };
  g_autoptr (OviDumpFolder) guard = ovi_dump_folder_new_for_roots (roots, 2);

  return ovi_dump_folder_check_output (guard, output, NULL, error);
}

static void
run_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  OviDiffResult *result = run (OVI_DIFF (source), cancellable, &error);

  if (result)
    g_task_return_pointer (task, result, g_object_unref);
  else
    g_task_return_error (task, error);
}

/**
 * ovi_diff_run_async:
 *
 * Compares the two runs on the worker pool; @callback runs on the calling
 * thread's main context. Cancelling @cancellable ends it with
 * G_IO_ERROR_CANCELLED.
 */
void
ovi_diff_run_async (OviDiff *self,
                    GCancellable *cancellable,
                    GAsyncReadyCallback callback,
                    gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, ovi_diff_run_async);
  g_task_set_return_on_cancel (task, FALSE);
  ovi_worker_run_in_thread (task, run_in_thread);
}

OviDiffResult *
ovi_diff_run_finish (OviDiff *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
