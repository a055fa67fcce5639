/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Graph page's layout: igraph's Sugiyama layout (Gansner et al.:
 * layers, crossings reduced by barycentres, then Brandes and Köpf's
 * placement), which also routes an edge that spans several layers through
 * dummy points, one per layer crossed.
 *
 * The layers are given, not left to igraph: with GLPK (Debian's igraph
 * has it) igraph ranks nodes by an exact integer program, whose time grows
 * without bound on a dense neighbourhood. A node's layer here is the
 * longest path to it (assign_layers()), which is what a dataflow reader
 * expects: every producer above its consumers.
 *
 * igraph as packaged keeps its error state in globals (IGRAPH_THREAD_SAFE
 * is 0), so one layout runs at a time. */
#include "config.h"

#include <igraph.h>

#include "ovi-graph-layout.h"
#include "ovi-worker.h"

G_DEFINE_QUARK (ovi - graph - layout - error - quark, ovi_graph_layout_error)

struct _OviGraphLayout
{
  gatomicrefcount ref_count;
  guint n_nodes;
  guint n_edges;
  guint n_layers;
  double width;
  OviGraphPoint *nodes;
  GArray **routes; /* of OviGraphPoint, source first; empty for a loop */
};

G_DEFINE_BOXED_TYPE (OviGraphLayout, ovi_graph_layout, ovi_graph_layout_ref, ovi_graph_layout_unref)

static GMutex igraph_lock;

OviGraphLayout *
ovi_graph_layout_ref (OviGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ovi_graph_layout_unref (OviGraphLayout *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->n_edges; i++)
    g_array_unref (self->routes[i]);
  g_free (self->routes);
  g_free (self->nodes);
  g_free (self);
}

static OviGraphLayout *
layout_new (guint n_nodes, guint n_edges)
{
  OviGraphLayout *self = g_new0 (OviGraphLayout, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->n_nodes = n_nodes;
  self->n_edges = n_edges;
  self->nodes = g_new0 (OviGraphPoint, MAX (n_nodes, 1));
  self->routes = g_new0 (GArray *, MAX (n_edges, 1));
  for (guint i = 0; i < n_edges; i++)
    self->routes[i] = g_array_new (FALSE, FALSE, sizeof (OviGraphPoint));
  return self;
}

static gboolean
failed (igraph_error_t code, GError **error)
{
  if (code == IGRAPH_SUCCESS)
    return FALSE;
  g_set_error (error, OVI_GRAPH_LAYOUT_ERROR, OVI_GRAPH_LAYOUT_ERROR_FAILED,
               "The graph could not be laid out: %s", igraph_strerror (code));
  return TRUE;
}

/* Longest path to each node, in topological order (Kahn's: a node is
 * placed once every producer is; among those ready, the earliest in the
 * caller's order). Where a cycle leaves none ready, the earliest node left
 * goes next, and its edges from nodes not yet placed are drawn upwards. */
static void
assign_layers (guint n_nodes, const guint *edges, guint n_edges, igraph_vector_int_t *layers)
{
  g_autofree guint *waiting = g_new0 (guint, MAX (n_nodes, 1)); /* producers not yet placed */
  g_autofree gboolean *placed = g_new0 (gboolean, MAX (n_nodes, 1));
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n_placed = 0, scan = 0;

  for (guint v = 0; v < n_nodes; v++)
    g_ptr_array_add (out, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint i = 0; i < n_edges; i++)
    if (edges[2 * i] != edges[2 * i + 1])
      {
        g_array_append_val (g_ptr_array_index (out, edges[2 * i]), edges[2 * i + 1]);
        waiting[edges[2 * i + 1]]++;
      }
  igraph_vector_int_null (layers);
  while (n_placed < n_nodes)
    {
      guint v = G_MAXUINT;

      /* The earliest ready node; else the earliest left (a cycle). */
      for (guint u = 0; u < n_nodes && v == G_MAXUINT; u++)
        if (!placed[u] && waiting[u] == 0)
          v = u;
      while (v == G_MAXUINT && placed[scan])
        scan++;
      if (v == G_MAXUINT)
        v = scan;
      placed[v] = TRUE;
      n_placed++;
      for (guint k = 0; k < ((GArray *) g_ptr_array_index (out, v))->len; k++)
        {
          guint w = g_array_index ((GArray *) g_ptr_array_index (out, v), guint, k);

          if (placed[w])
            continue;
          waiting[w]--;
          VECTOR (*layers)[w] = MAX (VECTOR (*layers)[w], VECTOR (*layers)[v] + 1);
        }
    }
}

/* An edge's points from its source to its target: igraph splits an edge
 * that crosses layers into a path through dummy vertices, all mapped back
 * to it. The path is walked from the source whichever way igraph pointed
 * its pieces (it turns an upward edge round). */
static void
trace_route (OviGraphLayout *self,
             guint edge,
             guint source,
             guint target,
             GPtrArray *pieces,
             const igraph_t *extended,
             const igraph_matrix_t *coords)
{
  guint at = source, from = G_MAXUINT;

  for (;;)
    {
      OviGraphPoint p = { MATRIX (*coords, at, 0), MATRIX (*coords, at, 1) };
      guint next = G_MAXUINT;

      g_array_append_val (self->routes[edge], p);
      if (at == target || self->routes[edge]->len > pieces->len + 1)
        break;
      for (guint i = 0; i < pieces->len; i++)
        {
          igraph_integer_t e = GPOINTER_TO_UINT (g_ptr_array_index (pieces, i));
          guint a = IGRAPH_FROM (extended, e), b = IGRAPH_TO (extended, e);
          guint other = a == at ? b : b == at ? a : G_MAXUINT;

          if (other != G_MAXUINT && other != from)
            {
              next = other;
              break;
            }
        }
      if (next == G_MAXUINT)
        break;
      from = at;
      at = next;
    }
}

static OviGraphLayout *
compute_locked (guint n_nodes, const guint *edges, guint n_edges, GError **error)
{
  g_autoptr (OviGraphLayout) self = layout_new (n_nodes, n_edges);
  g_autoptr (GPtrArray) pieces_of =
      g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  igraph_vector_int_t list, layers, to_original;
  igraph_matrix_t coords;
  igraph_t graph, extended;
  g_autofree guint *kept = g_new (guint, MAX (n_edges, 1)); /* igraph edge -> ours */
  guint n_kept = 0;
  igraph_error_t code;

  igraph_set_error_handler (igraph_error_handler_ignore);
  igraph_set_warning_handler (igraph_warning_handler_ignore);

  /* Loops stay out: a node is its own neighbour without a route. */
  igraph_vector_int_init (&list, 0);
  for (guint i = 0; i < n_edges; i++)
    if (edges[2 * i] != edges[2 * i + 1])
      {
        igraph_vector_int_push_back (&list, edges[2 * i]);
        igraph_vector_int_push_back (&list, edges[2 * i + 1]);
        kept[n_kept++] = i;
      }
  code = igraph_create (&graph, &list, n_nodes, IGRAPH_DIRECTED);
  igraph_vector_int_destroy (&list);
  if (failed (code, error))
    return NULL;

  igraph_vector_int_init (&layers, n_nodes);
  assign_layers (n_nodes, edges, n_edges, &layers);
  igraph_vector_int_init (&to_original, 0);
  igraph_matrix_init (&coords, 0, 0);
  code = igraph_layout_sugiyama (&graph, &coords, &extended, &to_original, &layers, 1.0, 1.0, 100,
                                 NULL);
  if (code == IGRAPH_SUCCESS)
    {
      for (guint i = 0; i < n_kept; i++)
        g_ptr_array_add (pieces_of, g_ptr_array_new ());
      for (igraph_integer_t e = 0; e < igraph_vector_int_size (&to_original); e++)
        g_ptr_array_add (g_ptr_array_index (pieces_of, VECTOR (to_original)[e]),
                         GUINT_TO_POINTER ((guint) e));
      for (guint v = 0; v < n_nodes; v++)
        {
          self->nodes[v].x = MATRIX (coords, v, 0);
          self->nodes[v].y = MATRIX (coords, v, 1);
          self->width = MAX (self->width, self->nodes[v].x + 1);
          self->n_layers = MAX (self->n_layers, (guint) self->nodes[v].y + 1);
        }
      for (guint i = 0; i < n_kept; i++)
        trace_route (self, kept[i], edges[2 * kept[i]], edges[2 * kept[i] + 1],
                     g_ptr_array_index (pieces_of, i), &extended, &coords);
      igraph_destroy (&extended);
    }
  igraph_matrix_destroy (&coords);
  igraph_vector_int_destroy (&to_original);
  igraph_vector_int_destroy (&layers);
  igraph_destroy (&graph);
  if (failed (code, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * ovi_graph_layout_compute:
 * @n_nodes: how many nodes, in run order
 * @edges: (array): 2 × @n_edges node indices, each edge's source then target
 * @cancellable: (nullable): checked before the layout starts
 *
 * Lays the graph out in layers, producers above their consumers.
 *
 * Returns: (transfer full): the layout, or %NULL with @error set
 */
OviGraphLayout *
ovi_graph_layout_compute (
    guint n_nodes, const guint *edges, guint n_edges, GCancellable *cancellable, GError **error)
{
  OviGraphLayout *self;

  g_return_val_if_fail (edges != NULL || n_edges == 0, NULL);

  for (guint i = 0; i < 2 * n_edges; i++)
    if (edges[i] >= n_nodes)
      {
        g_set_error (error, OVI_GRAPH_LAYOUT_ERROR, OVI_GRAPH_LAYOUT_ERROR_BAD_EDGE,
                     "Edge %u names node %u of %u", i / 2, edges[i], n_nodes);
        return NULL;
      }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  g_mutex_lock (&igraph_lock);
  self = compute_locked (n_nodes, edges, n_edges, error);
  g_mutex_unlock (&igraph_lock);
  return self;
}

typedef struct
{
  guint n_nodes;
  guint n_edges;
  guint *edges;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_free (data->edges);
  g_free (data);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  OviGraphLayout *layout;

  layout =
      ovi_graph_layout_compute (data->n_nodes, data->edges, data->n_edges, cancellable, &error);
  if (layout == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) ovi_graph_layout_unref);
}

/**
 * ovi_graph_layout_compute_async:
 *
 * ovi_graph_layout_compute() on the worker pool; @edges is copied.
 */
void
ovi_graph_layout_compute_async (guint n_nodes,
                                const guint *edges,
                                guint n_edges,
                                GCancellable *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ComputeData *data;

  g_return_if_fail (edges != NULL || n_edges == 0);

  g_task_set_source_tag (task, ovi_graph_layout_compute_async);
  data = g_new0 (ComputeData, 1);
  data->n_nodes = n_nodes;
  data->n_edges = n_edges;
  data->edges = g_memdup2 (edges, MAX (n_edges, 1) * 2 * sizeof (guint));
  g_task_set_task_data (task, data, (GDestroyNotify) compute_data_free);
  ovi_worker_run_in_thread (task, compute_thread);
}

OviGraphLayout *
ovi_graph_layout_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
ovi_graph_layout_get_n_nodes (OviGraphLayout *self)
{
  return self->n_nodes;
}

guint
ovi_graph_layout_get_n_edges (OviGraphLayout *self)
{
  return self->n_edges;
}

/* The node's centre: x in columns, y its layer. */
OviGraphPoint
ovi_graph_layout_get_node (OviGraphLayout *self, guint node)
{
  g_return_val_if_fail (node < self->n_nodes, (OviGraphPoint){ 0 });
  return self->nodes[node];
}

/**
 * ovi_graph_layout_get_route:
 * @n_points: (out): how many points; 0 for a loop
 *
 * Returns: the edge's points from its source's centre to its target's,
 *   one more for each layer it crosses
 */
const OviGraphPoint *
ovi_graph_layout_get_route (OviGraphLayout *self, guint edge, guint *n_points)
{
  g_return_val_if_fail (edge < self->n_edges, NULL);
  *n_points = self->routes[edge]->len;
  return (const OviGraphPoint *) self->routes[edge]->data;
}

/* Columns: one more than the rightmost node's x. */
double
ovi_graph_layout_get_width (OviGraphLayout *self)
{
  return self->width;
}

guint
ovi_graph_layout_get_n_layers (OviGraphLayout *self)
{
  return self->n_layers;
}
