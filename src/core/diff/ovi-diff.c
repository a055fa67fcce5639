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
};

G_DEFINE_FINAL_TYPE (OviDiff, ovi_diff, G_TYPE_OBJECT)

static void
ovi_diff_finalize (GObject *object)
{
  OviDiff *self = OVI_DIFF (object);

  g_free (self->mine);
  g_free (self->golden);
  ovi_diff_map_free (self->map);
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
      g_autoptr (OviProblem) full = ovi_problem_new (path, error);

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

  result->mine_path = g_strdup (self->mine);
  result->golden_path = g_strdup (self->golden);
  if (!(mine = ovi_diff_side_load (self->mine, cancellable, error)) ||
      !(golden = ovi_diff_side_load (self->golden, cancellable, error)))
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
  ovi_diff_find_first_divergence (operators, NULL, NULL, &first);
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
