/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-diff-private.h"

/* The first-divergence rule, in one place: which of the classified
 * operators is where the runs start to differ, and which of those starts
 * each later difference follows from. */

static gboolean
differs (const OviDiffTensor *t)
{
  return t->tensor_class == OVI_DIFF_TENSOR_DIFFERS;
}

/* The first tensor of @kind that differs, or G_MAXUINT. */
static guint
first_differing (OviDiffOperator *op, OviTensorKind kind, guint from)
{
  for (guint k = from; k < op->tensors->len; k++)
    {
      const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
      if (t->kind == kind && differs (t))
        return k;
    }
  return G_MAXUINT;
}

/* Whether @op gave a differing output, or may have (not comparable). */
static gboolean
gave_difference (OviDiffOperator *op)
{
  return first_differing (op, OVI_TENSOR_OUTPUT, 0) != G_MAXUINT ||
         op->op_class == OVI_DIFF_OP_NOT_COMPARABLE;
}

/* What one input of an operator came from: the operators that produced it
 * (@list), and the external inputs it came through (@externals), when
 * @producers knows (@known); else run order decides. */
typedef struct
{
  gboolean known;
  GArray *list;         /* guint: indices in ops */
  GPtrArray *externals; /* OviGraphNode, borrowed */
} Upstream;

static void
upstream_clear (Upstream *u)
{
  g_clear_pointer (&u->list, g_array_unref);
  g_clear_pointer (&u->externals, g_ptr_array_unref);
}

static void
upstream_ask (GPtrArray *ops,
              guint i,
              guint input,
              OviDiffProducersFunc producers,
              gpointer user_data,
              Upstream *u)
{
  u->list = g_array_new (FALSE, FALSE, sizeof (guint));
  u->externals = g_ptr_array_new ();
  u->known = producers && producers (ops, i, input, u->list, u->externals, user_data);
}

/* Whether an operator that produced that input gave a differing output: by
 * @u where it is known, else by run order (an earlier operator of the same
 * folder pair, @pair_differs). */
static gboolean
upstream_differs (GPtrArray *ops, const Upstream *u, gboolean pair_differs)
{
  if (!u->known)
    return pair_differs;
  for (guint n = 0; n < u->list->len; n++)
    if (gave_difference (g_ptr_array_index (ops, g_array_index (u->list, guint, n))))
      return TRUE;
  return FALSE;
}

static void
set_add (GArray *set, guint v)
{
  for (guint i = 0; i < set->len; i++)
    if (g_array_index (set, guint, i) == v)
      return;
  g_array_append_val (set, v);
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

/* The starts @op follows from: those of the producers of its differing
 * inputs (a producer that is a start itself, or the starts it follows);
 * where no producer is known, the start last before it in its folder pair
 * (all that run order can say). The earliest OVI_DIFF_FOLLOWS_MAX are
 * kept, @more set when there are others: the earliest of a union are
 * among the earliest of its parts, so the lists stay short and exact. */
static void
find_follows (GPtrArray *ops,
              guint i,
              OviDiffProducersFunc producers,
              gpointer user_data,
              GArray **follows,
              gboolean *more,
              GArray *pair_starts)
{
  OviDiffOperator *op = g_ptr_array_index (ops, i);
  g_autoptr (GArray) set = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint k = first_differing (op, OVI_TENSOR_INPUT, 0); k != G_MAXUINT;
       k = first_differing (op, OVI_TENSOR_INPUT, k + 1))
    {
      const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
      Upstream u = { 0 };

      upstream_ask (ops, i, t->index, producers, user_data, &u);
      if (!u.known && pair_starts->len > 0)
        set_add (set, g_array_index (pair_starts, guint, pair_starts->len - 1));
      for (guint n = 0; u.known && n < u.list->len; n++)
        {
          guint p = g_array_index (u.list, guint, n);
          OviDiffOperator *producer = g_ptr_array_index (ops, p);

          if (!gave_difference (producer))
            continue;
          if (producer->start != OVI_DIFF_DIVERGENCE_NONE)
            set_add (set, p);
          for (guint m = 0; follows[p] && m < follows[p]->len; m++)
            set_add (set, g_array_index (follows[p], guint, m));
          more[i] |= more[p];
        }
      upstream_clear (&u);
    }
  g_array_sort (set, compare_uint);
  if (set->len > OVI_DIFF_FOLLOWS_MAX)
    {
      g_array_set_size (set, OVI_DIFF_FOLLOWS_MAX);
      more[i] = TRUE;
    }
  follows[i] = g_steal_pointer (&set);
}

/**
 * ovi_diff_find_first_divergence:
 * @ops: (element-type OviDiffOperator): the classified operators, in the
 *   result's order (folder pair by folder pair, run order within one)
 * @producers: (nullable): which operators produced an input of another
 *   (the dataflow graph); NULL, or FALSE for an input: run order, every
 *   earlier operator of the same folder pair
 * @out: (out caller-allocates): the first divergence; its op NULL when
 *   there is none
 *
 * An operator is where a difference starts in one of three forms:
 * - an origin: its inputs agree and an output does not;
 * - entered through input k: that input differs while no operator that
 *   produced it (run order: no earlier operator) gave a differing output,
 *   so the difference came from outside the dump; with the graph, the
 *   external input it came through (a graph input, a weight) is named;
 * - inputs not compared (a golden of outputs only): an output differs and
 *   no operator upstream (run order: before it) gave a differing output.
 * The first divergence is the earliest such operator in time, across
 * folder pairs (devices) by timestamp. An operator that could not be
 * compared counts as one that may have given a differing output.
 *
 * Each operator gets its form (start), and each other operator with a
 * differing input the starts it follows from (follows): along the edges
 * of @producers, else the start last before it in its folder pair.
 */
void
ovi_diff_find_first_divergence (GPtrArray *ops,
                                OviDiffProducersFunc producers,
                                gpointer user_data,
                                OviDiffDivergence *out)
{
  const char *pair = NULL;
  gboolean pair_differs = FALSE;
  g_autoptr (GArray) pair_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree GArray **follows = g_new0 (GArray *, MAX (ops->len, 1));
  g_autofree gboolean *more = g_new0 (gboolean, MAX (ops->len, 1));

  *out = (OviDiffDivergence){ NULL, OVI_DIFF_DIVERGENCE_NONE, G_MAXUINT, G_MAXUINT };
  for (guint i = 0; i < ops->len; i++)
    {
      OviDiffOperator *op = g_ptr_array_index (ops, i);
      OviDiffDivergence here = { op, OVI_DIFF_DIVERGENCE_NONE, G_MAXUINT, G_MAXUINT };

      if (pair == NULL || g_strcmp0 (op->pair, pair) != 0)
        {
          pair = op->pair;
          pair_differs = FALSE;
          g_array_set_size (pair_starts, 0);
        }
      switch (op->op_class)
        {
        case OVI_DIFF_OP_ORIGIN:
          here.form = OVI_DIFF_DIVERGENCE_ORIGIN;
          here.tensor = first_differing (op, OVI_TENSOR_OUTPUT, 0);
          break;
        case OVI_DIFF_OP_OUTPUT_DIFFERS:
          {
            Upstream u = { 0 };

            upstream_ask (ops, i, G_MAXUINT, producers, user_data, &u);
            if (!upstream_differs (ops, &u, pair_differs))
              {
                here.form = OVI_DIFF_DIVERGENCE_INPUTS_NOT_COMPARED;
                here.tensor = first_differing (op, OVI_TENSOR_OUTPUT, 0);
              }
            upstream_clear (&u);
          }
          break;
        case OVI_DIFF_OP_PROPAGATED:
        case OVI_DIFF_OP_ABSORBED:
          for (guint k = first_differing (op, OVI_TENSOR_INPUT, 0); k != G_MAXUINT;
               k = first_differing (op, OVI_TENSOR_INPUT, k + 1))
            {
              const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
              Upstream u = { 0 };
              gboolean entered;

              upstream_ask (ops, i, t->index, producers, user_data, &u);
              if ((entered = !upstream_differs (ops, &u, pair_differs)))
                {
                  here.form = OVI_DIFF_DIVERGENCE_ENTERED;
                  here.tensor = k;
                  here.input = t->index;
                  /* Named only where the graph knows it came from outside. */
                  if (u.known && u.externals->len > 0)
                    {
                      OviGraphNode *ext = g_ptr_array_index (u.externals, 0);
                      g_free (op->through);
                      op->through = g_strdup (ovi_graph_node_get_name (ext));
                      op->through_kind = ovi_graph_node_get_kind (ext);
                    }
                }
              upstream_clear (&u);
              if (entered)
                break;
            }
          break;
        default:
          break;
        }
      op->start = here.form;
      op->start_input = here.input;
      if (here.form != OVI_DIFF_DIVERGENCE_ORIGIN &&
          first_differing (op, OVI_TENSOR_INPUT, 0) != G_MAXUINT)
        find_follows (ops, i, producers, user_data, follows, more, pair_starts);
      if (here.form != OVI_DIFF_DIVERGENCE_NONE)
        g_array_append_val (pair_starts, i);
      if (here.form != OVI_DIFF_DIVERGENCE_NONE && (out->op == NULL || op->order < out->op->order))
        *out = here;
      /* An operator not comparable (unreadable, say) may have produced a
       * difference: what follows it did not come from outside the dump. */
      pair_differs |= gave_difference (op);
    }
  for (guint i = 0; i < ops->len; i++)
    {
      OviDiffOperator *op = g_ptr_array_index (ops, i);

      g_clear_pointer (&op->follows, g_ptr_array_unref);
      op->follows_more = more[i];
      if (follows[i] == NULL)
        continue;
      op->follows = g_ptr_array_new_with_free_func (g_free);
      for (guint n = 0; n < follows[i]->len; n++)
        g_ptr_array_add (op->follows, g_strdup (((OviDiffOperator *) g_ptr_array_index (
                                                     ops, g_array_index (follows[i], guint, n)))
                                                    ->name));
      g_array_unref (follows[i]);
    }
}

/**
 * ovi_diff_operator_get_start:
 *
 * Whether the runs start to differ at this operator, and in which form
 * (ovi_diff_find_first_divergence()); %OVI_DIFF_DIVERGENCE_NONE when not.
 * The first divergence is the earliest of these.
 */
OviDiffDivergenceForm
ovi_diff_operator_get_start (OviDiffOperator *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), OVI_DIFF_DIVERGENCE_NONE);
  return self->start;
}

/**
 * ovi_diff_operator_get_entered_through:
 * @kind: (out) (optional): what it is: a graph input, a weight or
 *   constant, or a buffer no dumped operator wrote
 *
 * Returns: (nullable): the external input (a node of the dataflow graph)
 *   the difference entered this operator through, when it is a start of
 *   the form %OVI_DIFF_DIVERGENCE_ENTERED and the graph named it
 */
const char *
ovi_diff_operator_get_entered_through (OviDiffOperator *self, OviGraphNodeKind *kind)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), NULL);
  if (kind)
    *kind = self->through_kind;
  return self->start == OVI_DIFF_DIVERGENCE_ENTERED ? self->through : NULL;
}

/**
 * ovi_diff_operator_get_follows:
 *
 * @more: (out) (optional): whether more starts reach it than the list
 *   holds (OVI_DIFF_FOLLOWS_MAX, the earliest kept)
 *
 * Returns: (nullable) (element-type utf8): the names of the starts (see
 *   ovi_diff_operator_get_start()) whose difference reaches this
 *   operator's differing inputs, in run order: upstream along the dataflow
 *   graph when the diff had one (ovi_diff_result_get_along_edges()), else
 *   the start last before it in run order; %NULL when no input of it
 *   differs
 */
GPtrArray *
ovi_diff_operator_get_follows (OviDiffOperator *self, gboolean *more)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), NULL);
  if (more)
    *more = self->follows_more;
  return self->follows;
}
