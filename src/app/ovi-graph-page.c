/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-chain-line.h"
#include "ovi-graph-layout.h"
#include "ovi-graph-page.h"

/* What the page shows follows the session's graph state; it is laid out
 * only while the page is mapped (a page not shown does no work), and only
 * when the graph, the operator or the hops changed. */
struct _OviGraphPage
{
  OviPage parent_instance;

  GtkSpinButton *down_spin;
  AdwStatusPage *empty_status;
  AdwStatusPage *error_status;
  GtkLabel *note_label;
  GtkScrolledWindow *scroller;
  GtkSpinner *spinner;
  GtkStack *stack;
  GtkLabel *title_label;
  GtkSpinButton *up_spin;
  OviGraphCanvas *canvas;

  OviGraphState *state;
  GCancellable *cancellable; /* the layout under way */
  /* What the canvas shows (or is being laid out): the graph, the node in
   * the middle, the hops, and the graph's node of each canvas node. */
  OviGraph *shown_graph;
  guint shown_node;
  guint shown_up, shown_down;
  GArray *members;
  /* What the canvas draws now: a layout may be under way for the above. */
  OviGraph *drawn_graph;
  GArray *drawn_members;
  GArray *pending_styles; /* OviGraphCanvasEdgeStyle of the layout under way */
  GArray *pending_edges;
  gboolean stale; /* changed while not mapped */
  double drag_x, drag_y;
};

G_DEFINE_FINAL_TYPE (OviGraphPage, ovi_graph_page, OVI_TYPE_PAGE)

static const char *
blame_style (OviBlame blame)
{
  switch (blame)
    {
    case OVI_BLAME_ORIGIN:
      return "origin";
    case OVI_BLAME_PROPAGATED:
      return "propagated";
    case OVI_BLAME_ABSORBED:
      return "absorbed";
    case OVI_BLAME_NORMAL:
      return "normal";
    case OVI_BLAME_UNKNOWN:
    default:
      return "unknown";
    }
}

static OviGraphCanvasNode
canvas_node (OviGraphNode *node)
{
  OviGraphCanvasNode out = { 0 };
  const char *name = ovi_graph_node_get_name (node);
  const char *slash = strrchr (name, '/');
  const char *op_type = ovi_graph_node_get_op_type (node);
  gboolean dumped = ovi_graph_node_get_kind (node) == OVI_GRAPH_NODE_OPERATOR;

  out.stub = !dumped;
  out.title = g_strdup (dumped && op_type && *op_type ? op_type : (slash ? slash + 1 : name));
  out.subtitle = g_strdup (name);
  out.name = ovi_graph_node_dup_accessible_name (node);
  out.tooltip = g_strdup (out.name);
  out.style = dumped ? blame_style (ovi_graph_node_get_blame (node)) : "normal";
  return out;
}

static void
laid_out (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OviGraphPage *self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviGraphLayout) layout = ovi_graph_layout_compute_finish (result, &error);
  g_autoptr (GArray) nodes = NULL;
  guint selected = G_MAXUINT;

  /* Dropped when another layout replaced it (the page may be gone). */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->cancellable);
  if (layout == NULL)
    {
      adw_status_page_set_description (self->error_status, error->message);
      gtk_stack_set_visible_child_name (self->stack, "error");
      g_object_unref (self);
      return;
    }
  nodes = g_array_sized_new (FALSE, FALSE, sizeof (OviGraphCanvasNode), self->members->len);
  g_array_set_clear_func (nodes, (GDestroyNotify) ovi_graph_canvas_node_clear);
  for (guint i = 0; i < self->members->len; i++)
    {
      guint index = g_array_index (self->members, guint, i);
      OviGraphCanvasNode node = canvas_node (ovi_graph_get_node (self->shown_graph, index));

      g_array_append_val (nodes, node);
      if (index == self->shown_node)
        selected = i;
    }
  g_set_object (&self->drawn_graph, self->shown_graph);
  g_clear_pointer (&self->drawn_members, g_array_unref);
  self->drawn_members = g_array_ref (self->members);
  ovi_graph_canvas_set_scene (self->canvas, layout, nodes, (guint *) self->pending_edges->data,
                              (OviGraphCanvasEdgeStyle *) self->pending_styles->data, selected);
  gtk_stack_set_visible_child_name (self->stack, "graph");
  g_object_unref (self);
}

/* The neighbourhood of @center in @graph, laid out on the worker pool. */
static void
lay_out (OviGraphPage *self, OviGraph *graph, guint center, guint up, guint down)
{
  g_autoptr (GHashTable) local = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_set_object (&self->shown_graph, graph);
  self->shown_node = center;
  self->shown_up = up;
  self->shown_down = down;
  g_clear_pointer (&self->members, g_array_unref);
  self->members = ovi_graph_dup_neighbourhood (graph, center, up, down);
  g_array_set_size (self->pending_edges, 0);
  g_array_set_size (self->pending_styles, 0);
  for (guint i = 0; i < self->members->len; i++)
    g_hash_table_insert (local, GUINT_TO_POINTER (g_array_index (self->members, guint, i)),
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < self->members->len; i++)
    {
      guint n = 0;
      const guint *out =
          ovi_graph_get_out_edges (graph, g_array_index (self->members, guint, i), &n);

      /* One line per producer and consumer, however many tensors pass. */
      for (guint k = 0; k < n; k++)
        {
          const OviGraphEdge *e = ovi_graph_get_edge (graph, out[k]);
          guint j = GPOINTER_TO_UINT (g_hash_table_lookup (local, GUINT_TO_POINTER (e->consumer)));
          OviGraphCanvasEdgeStyle style = e->source == OVI_GRAPH_EDGE_GRAPH_JSON
                                              ? OVI_GRAPH_CANVAS_EDGE_GRAPH_JSON
                                              : OVI_GRAPH_CANVAS_EDGE_ADDRESS;

          if (j-- == 0 || !g_hash_table_add (seen, GUINT_TO_POINTER (i * self->members->len + j)))
            continue;
          g_array_append_val (self->pending_edges, i);
          g_array_append_val (self->pending_edges, j);
          g_array_append_val (self->pending_styles, style);
        }
    }
  self->cancellable = g_cancellable_new ();
  ovi_graph_layout_compute_async (self->members->len, (guint *) self->pending_edges->data,
                                  self->pending_styles->len, self->cancellable, laid_out,
                                  g_object_ref (self));
}

static void
update_labels (OviGraphPage *self)
{
  OviGraph *graph = ovi_graph_state_get_graph (self->state);
  OviDumpFile *op = ovi_graph_state_get_operator (self->state);
  const char *note = graph ? ovi_graph_get_run_order_note (graph) : NULL;
  g_autofree char *title = NULL;

  if (op != NULL)
    /* Translators: the Graph page's title: an operator's name */
    title = g_strdup_printf (_ ("Around %s"), ovi_dump_file_get_op_name (op));
  gtk_label_set_text (self->title_label, title ? title : "");
  gtk_label_set_text (self->note_label, note ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), note != NULL);
}

static void
refresh (OviGraphPage *self)
{
  OviGraph *graph;
  OviGraphNode *node;
  guint up, down;

  if (self->state == NULL)
    return;
  update_labels (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  graph = ovi_graph_state_get_graph (self->state);
  node = ovi_graph_state_get_node (self->state);
  up = (guint) gtk_spin_button_get_value_as_int (self->up_spin);
  down = (guint) gtk_spin_button_get_value_as_int (self->down_spin);
  /* Spinning only while shown: a spinner is an animation without end. */
  gtk_spinner_set_spinning (self->spinner, ovi_graph_state_get_building (self->state));
  if (ovi_graph_state_get_building (self->state))
    gtk_stack_set_visible_child_name (self->stack, "building");
  else if (ovi_graph_state_get_error (self->state) != NULL)
    {
      adw_status_page_set_description (self->error_status, ovi_graph_state_get_error (self->state));
      gtk_stack_set_visible_child_name (self->stack, "error");
    }
  else if (node == NULL)
    {
      adw_status_page_set_title (self->empty_status, ovi_graph_state_get_operator (self->state)
                                                         ? _ ("Not in the Graph")
                                                         : _ ("No Operator Selected"));
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }
  else if (graph != self->shown_graph || ovi_graph_node_get_index (node) != self->shown_node ||
           up != self->shown_up || down != self->shown_down)
    lay_out (self, graph, ovi_graph_node_get_index (node), up, down);
  else if (self->cancellable == NULL)
    gtk_stack_set_visible_child_name (self->stack, "graph");
}

static void
hops_changed (OviGraphPage *self)
{
  refresh (self);
}

/* A node clicked: its operator becomes the session's, on every page (its
 * record, when it has one, on the Overflows page). */
static void
node_activated (OviGraphPage *self, guint index)
{
  OviSession *session = ovi_page_get_session (OVI_PAGE (self));
  OviGraphNode *node = ovi_graph_page_get_node (self, index);
  OviDumpFile *file = node ? ovi_graph_node_get_file (node) : NULL;
  GListModel *records;
  g_autoptr (OviOverflowRecord) record = NULL;

  if (session == NULL || file == NULL)
    return;
  records = ovi_session_get_records (session);
  for (guint i = 0; records != NULL && i < g_list_model_get_n_items (records) && record == NULL;
       i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);

      if (ovi_overflow_record_get_op (r) == file)
        record = g_steal_pointer (&r);
    }
  ovi_session_set_selected_record (session, record);
  ovi_session_set_selected_file (session, file);
}

static void
ovi_graph_page_session_changed (OviPage *page, OviSession *old_session)
{
  OviGraphPage *self = OVI_GRAPH_PAGE (page);
  OviSession *session = ovi_page_get_session (page);
  const char *signals[] = { "notify::graph", "notify::node",  "notify::building",
                            "notify::error", "notify::chain", "notify::operator" };

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  if (session == NULL)
    return;
  self->state = g_object_ref (ovi_session_get_graph (session));
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_signal_connect_swapped (self->state, signals[i], G_CALLBACK (refresh), self);
  refresh (self);
}

static void
ovi_graph_page_map (GtkWidget *widget)
{
  OviGraphPage *self = OVI_GRAPH_PAGE (widget);

  GTK_WIDGET_CLASS (ovi_graph_page_parent_class)->map (widget);
  if (self->stale)
    refresh (self);
}

static void
zoom_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  OviGraphPage *self = OVI_GRAPH_PAGE (widget);
  double zoom = ovi_graph_canvas_get_zoom (self->canvas);

  if (g_str_equal (action_name, "graph.zoom-in"))
    zoom *= 1.25;
  else if (g_str_equal (action_name, "graph.zoom-out"))
    zoom *= 0.8;
  else
    zoom = 1.0;
  ovi_graph_canvas_set_zoom (self->canvas, zoom);
}

/* Dragging the background pans, as in a map. */
static void
drag_begin (GtkGestureDrag *gesture, double x, double y, OviGraphPage *self)
{
  self->drag_x = gtk_adjustment_get_value (gtk_scrolled_window_get_hadjustment (self->scroller));
  self->drag_y = gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (self->scroller));
}

static void
drag_update (GtkGestureDrag *gesture, double dx, double dy, OviGraphPage *self)
{
  gtk_adjustment_set_value (gtk_scrolled_window_get_hadjustment (self->scroller),
                            self->drag_x - dx);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller),
                            self->drag_y - dy);
}

static void
ovi_graph_page_dispose (GObject *object)
{
  OviGraphPage *self = OVI_GRAPH_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), OVI_TYPE_GRAPH_PAGE);
  G_OBJECT_CLASS (ovi_graph_page_parent_class)->dispose (object);
  g_clear_object (&self->shown_graph);
  g_clear_pointer (&self->members, g_array_unref);
  g_clear_object (&self->drawn_graph);
  g_clear_pointer (&self->drawn_members, g_array_unref);
}

static void
ovi_graph_page_finalize (GObject *object)
{
  OviGraphPage *self = OVI_GRAPH_PAGE (object);

  g_array_unref (self->pending_edges);
  g_array_unref (self->pending_styles);
  G_OBJECT_CLASS (ovi_graph_page_parent_class)->finalize (object);
}

/* Ctrl and these keys zoom, as in image viewers and browsers. */
static const struct
{
  guint keyval;
  const char *action;
} zoom_keys[] = {
  { GDK_KEY_plus, "graph.zoom-in" },         { GDK_KEY_equal, "graph.zoom-in" },
  { GDK_KEY_KP_Add, "graph.zoom-in" },       { GDK_KEY_minus, "graph.zoom-out" },
  { GDK_KEY_KP_Subtract, "graph.zoom-out" }, { GDK_KEY_0, "graph.zoom-reset" },
};

static void
ovi_graph_page_class_init (OviGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ovi_graph_page_dispose;
  object_class->finalize = ovi_graph_page_finalize;
  widget_class->map = ovi_graph_page_map;
  OVI_PAGE_CLASS (klass)->session_changed = ovi_graph_page_session_changed;

  g_type_ensure (OVI_TYPE_CHAIN_LINE);
  g_type_ensure (OVI_TYPE_GRAPH_CANVAS);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/npu_tools/OverflowInspector/ovi-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, canvas);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, down_spin);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, empty_status);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, error_status);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, note_label);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, stack);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, OviGraphPage, up_spin);
  gtk_widget_class_bind_template_callback (widget_class, hops_changed);
  gtk_widget_class_bind_template_callback (widget_class, node_activated);

  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-reset", NULL, zoom_action);
  for (guint i = 0; i < G_N_ELEMENTS (zoom_keys); i++)
    gtk_widget_class_add_binding_action (widget_class, zoom_keys[i].keyval, GDK_CONTROL_MASK,
                                         zoom_keys[i].action, NULL);
}

static void
ovi_graph_page_init (OviGraphPage *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->shown_node = G_MAXUINT;
  self->pending_edges = g_array_new (FALSE, FALSE, sizeof (guint));
  self->pending_styles = g_array_new (FALSE, FALSE, sizeof (OviGraphCanvasEdgeStyle));
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self->scroller), GTK_EVENT_CONTROLLER (drag));
}

OviGraphCanvas *
ovi_graph_page_get_canvas (OviGraphPage *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_PAGE (self), NULL);
  return self->canvas;
}

/**
 * ovi_graph_page_get_node:
 *
 * Returns: (nullable): the graph node the canvas's node @index draws
 */
OviGraphNode *
ovi_graph_page_get_node (OviGraphPage *self, guint index)
{
  g_return_val_if_fail (OVI_IS_GRAPH_PAGE (self), NULL);
  if (self->drawn_members == NULL || index >= self->drawn_members->len)
    return NULL;
  return ovi_graph_get_node (self->drawn_graph, g_array_index (self->drawn_members, guint, index));
}

/* The stack's page shown: "empty", "building", "error" or "graph". */
const char *
ovi_graph_page_get_state (OviGraphPage *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}
