/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ovi-graph-canvas.h"
#include "ovi-scheduler.h"
#include "ovi-tooltip.h"

/* The graph page's drawing. Edges are straight segments through the
 * layout's route points, appended as thin rotated rectangles (GSK colour
 * nodes, no cairo surface the size of a large graph); nodes are child
 * widgets, so that each can take the keyboard focus and carry a name for
 * screen readers (GTK 4.8 has no accessible objects that are not widgets).
 * Zoom scales the children's transforms and the edges alike; panning is
 * the scrolled window's, around the canvas. */

#define COLUMN_WIDTH 190.0
#define LAYER_HEIGHT 84.0
#define NODE_WIDTH 170
#define NODE_HEIGHT 46
#define STUB_WIDTH 120
#define STUB_HEIGHT 26
#define MARGIN 16.0
#define EDGE_WIDTH 1.5f
#define ZOOM_MIN 0.25
#define ZOOM_MAX 4.0

/* One node's widget. ------------------------------------------------------ */

#define OVI_TYPE_GRAPH_CANVAS_ITEM (ovi_graph_canvas_item_get_type ())
G_DECLARE_FINAL_TYPE (OviGraphCanvasItem, ovi_graph_canvas_item, OVI, GRAPH_CANVAS_ITEM, GtkWidget)

struct _OviGraphCanvasItem
{
  GtkWidget parent_instance;

  guint index;
  gboolean stub;
  char *markup;
  PangoLayout *layout; /* made at its first snapshot: most nodes are out of view */
};

G_DEFINE_FINAL_TYPE (OviGraphCanvasItem, ovi_graph_canvas_item, GTK_TYPE_WIDGET)

static void
ovi_graph_canvas_item_measure (GtkWidget *widget,
                               GtkOrientation orientation,
                               int for_size,
                               int *minimum,
                               int *natural,
                               int *minimum_baseline,
                               int *natural_baseline)
{
  OviGraphCanvasItem *self = OVI_GRAPH_CANVAS_ITEM (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = self->stub ? STUB_WIDTH : NODE_WIDTH;
  else
    *minimum = *natural = self->stub ? STUB_HEIGHT : NODE_HEIGHT;
}

/* The text, drawn by the node itself: a label widget per node would double
 * the CSS nodes and measurements a frame of 500 nodes needs. */
static void
ovi_graph_canvas_item_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  OviGraphCanvasItem *self = OVI_GRAPH_CANVAS_ITEM (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  PangoRectangle extents;
  GdkRGBA color;

  if (self->layout == NULL)
    {
      self->layout = gtk_widget_create_pango_layout (widget, NULL);
      pango_layout_set_markup (self->layout, self->markup, -1);
      pango_layout_set_alignment (self->layout, PANGO_ALIGN_CENTER);
      pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_MIDDLE);
    }
  pango_layout_set_width (self->layout, MAX (width - 12, 1) * PANGO_SCALE);
  pango_layout_get_pixel_extents (self->layout, NULL, &extents);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (6, (height - extents.height) / 2.0f - extents.y));
  gtk_snapshot_append_layout (snapshot, self->layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
ovi_graph_canvas_item_finalize (GObject *object)
{
  OviGraphCanvasItem *self = OVI_GRAPH_CANVAS_ITEM (object);

  g_clear_object (&self->layout);
  g_free (self->markup);
  G_OBJECT_CLASS (ovi_graph_canvas_item_parent_class)->finalize (object);
}

static void
ovi_graph_canvas_item_class_init (OviGraphCanvasItemClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ovi_graph_canvas_item_finalize;
  widget_class->measure = ovi_graph_canvas_item_measure;
  widget_class->snapshot = ovi_graph_canvas_item_snapshot;
  gtk_widget_class_set_css_name (widget_class, "graphnode");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_BUTTON);
}

static void
ovi_graph_canvas_item_init (OviGraphCanvasItem *self)
{
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
}

/* The canvas. ------------------------------------------------------------- */

struct _OviGraphCanvas
{
  GtkWidget parent_instance;

  OviGraphLayout *layout;
  GPtrArray *items; /* OviGraphCanvasItem, by node */
  guint *edges;     /* 2 per edge: source, target */
  OviGraphCanvasEdgeStyle *edge_styles;
  guint n_edges;
  GArray *nodes; /* OviGraphCanvasNode of the scene, some not yet added as items */
  guint selected;
  guint add_task; /* ovi-scheduler.c's */
  double zoom;
};

enum
{
  PROP_0,
  PROP_COMPLETE,
  PROP_ZOOM,
  N_PROPS
};

enum
{
  NODE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (OviGraphCanvas, ovi_graph_canvas, GTK_TYPE_WIDGET)

/* The colours of the edge legend in ovi-graph-page.ui (style.css). */
static const GdkRGBA edge_colors[] = {
  [OVI_GRAPH_CANVAS_EDGE_ADDRESS] = { 0.208, 0.518, 0.894, 0.9 },    /* blue 3 */
  [OVI_GRAPH_CANVAS_EDGE_GRAPH_JSON] = { 0.569, 0.255, 0.675, 0.9 }, /* purple 3 */
};

void
ovi_graph_canvas_node_clear (OviGraphCanvasNode *node)
{
  g_clear_pointer (&node->title, g_free);
  g_clear_pointer (&node->subtitle, g_free);
  g_clear_pointer (&node->name, g_free);
  g_clear_pointer (&node->tooltip, g_free);
}

/* A point of the layout in unzoomed canvas pixels. */
static graphene_point_t
to_canvas (OviGraphPoint p)
{
  return GRAPHENE_POINT_INIT ((float) (MARGIN + (p.x + 0.5) * COLUMN_WIDTH),
                              (float) (MARGIN + (p.y + 0.5) * LAYER_HEIGHT));
}

static void
ovi_graph_canvas_measure (GtkWidget *widget,
                          GtkOrientation orientation,
                          int for_size,
                          int *minimum,
                          int *natural,
                          int *minimum_baseline,
                          int *natural_baseline)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (widget);
  double size = 0;

  if (self->layout != NULL)
    size = orientation == GTK_ORIENTATION_HORIZONTAL
               ? 2 * MARGIN + ovi_graph_layout_get_width (self->layout) * COLUMN_WIDTH
               : 2 * MARGIN + ovi_graph_layout_get_n_layers (self->layout) * LAYER_HEIGHT;
  *minimum = *natural = (int) ceil (size * self->zoom);
}

static void
ovi_graph_canvas_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (widget);

  for (guint i = 0; i < self->items->len; i++)
    {
      OviGraphCanvasItem *item = g_ptr_array_index (self->items, i);
      graphene_point_t c = to_canvas (ovi_graph_layout_get_node (self->layout, i));
      int w = item->stub ? STUB_WIDTH : NODE_WIDTH;
      int h = item->stub ? STUB_HEIGHT : NODE_HEIGHT;
      GskTransform *t = NULL;

      t = gsk_transform_scale (t, (float) self->zoom, (float) self->zoom);
      t = gsk_transform_translate (t, &GRAPHENE_POINT_INIT (c.x - w / 2.0f, c.y - h / 2.0f));
      gtk_widget_allocate (GTK_WIDGET (item), w, h, -1, t);
    }
}

static void
append_segment (GtkSnapshot *snapshot, graphene_point_t a, graphene_point_t b, const GdkRGBA *color)
{
  float dx = b.x - a.x, dy = b.y - a.y;
  float length = sqrtf (dx * dx + dy * dy);

  if (length <= 0)
    return;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &a);
  gtk_snapshot_rotate (snapshot, atan2f (dy, dx) * 180.0f / (float) G_PI);
  gtk_snapshot_append_color (snapshot, color,
                             &GRAPHENE_RECT_INIT (0, -EDGE_WIDTH / 2, length, EDGE_WIDTH));
  gtk_snapshot_restore (snapshot);
}

static void
ovi_graph_canvas_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (widget);
  GtkWidget *parent = gtk_widget_get_parent (widget);
  graphene_rect_t view;
  gboolean have_view;

  if (self->layout == NULL)
    return;
  /* The part of the canvas its viewport shows, when it is in one. */
  have_view = parent != NULL && GTK_IS_VIEWPORT (parent) &&
              gtk_widget_compute_bounds (parent, widget, &view);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_scale (snapshot, (float) self->zoom, (float) self->zoom);
  for (guint e = 0; e < self->n_edges; e++)
    {
      guint n = 0;
      const OviGraphPoint *route = ovi_graph_layout_get_route (self->layout, e, &n);

      for (guint k = 1; k < n; k++)
        append_segment (snapshot, to_canvas (route[k - 1]), to_canvas (route[k]),
                        &edge_colors[self->edge_styles[e]]);
    }
  gtk_snapshot_restore (snapshot);
  /* Only the nodes in view: each draws its text the first time it is. */
  for (guint i = 0; i < self->items->len; i++)
    {
      GtkWidget *child = g_ptr_array_index (self->items, i);
      graphene_rect_t bounds;

      if (!have_view || (gtk_widget_compute_bounds (child, widget, &bounds) &&
                         graphene_rect_intersection (&bounds, &view, NULL)))
        gtk_widget_snapshot_child (widget, child, snapshot);
    }
}

static guint
item_index (OviGraphCanvas *self, GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (OVI_IS_GRAPH_CANVAS_ITEM (widget) && gtk_widget_get_parent (widget) == GTK_WIDGET (self))
      return OVI_GRAPH_CANVAS_ITEM (widget)->index;
  return G_MAXUINT;
}

/**
 * ovi_graph_canvas_get_focus_node:
 *
 * Returns: the node whose widget has the keyboard focus, or %G_MAXUINT
 */
guint
ovi_graph_canvas_get_focus_node (OviGraphCanvas *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  g_return_val_if_fail (OVI_IS_GRAPH_CANVAS (self), G_MAXUINT);
  if (root == NULL)
    return G_MAXUINT;
  return item_index (self, gtk_root_get_focus (root));
}

gboolean
ovi_graph_canvas_focus_node (OviGraphCanvas *self, guint node)
{
  g_return_val_if_fail (OVI_IS_GRAPH_CANVAS (self), FALSE);
  if (node >= self->items->len)
    return FALSE;
  return gtk_widget_grab_focus (g_ptr_array_index (self->items, node));
}

/* Whether @to is an edge's other end from @from (upstream when @up). */
static gboolean
linked (OviGraphCanvas *self, guint from, guint to, gboolean up)
{
  for (guint e = 0; e < self->n_edges; e++)
    if (self->edges[2 * e + (up ? 1 : 0)] == from && self->edges[2 * e + (up ? 0 : 1)] == to)
      return TRUE;
  return FALSE;
}

/* The node an arrow key leads to from @from: Up and Down go one layer,
 * to the nearest producer or consumer when there is one, else to the
 * nearest node of that layer; Left and Right to the next node of the same
 * layer. */
static guint
neighbour (OviGraphCanvas *self, guint from, guint keyval)
{
  OviGraphPoint p = ovi_graph_layout_get_node (self->layout, from);
  gboolean vertical = keyval == GDK_KEY_Up || keyval == GDK_KEY_Down;
  gboolean up = keyval == GDK_KEY_Up;
  double best = G_MAXDOUBLE;
  guint found = G_MAXUINT;

  for (int pass = 0; pass < 2 && found == G_MAXUINT; pass++)
    for (guint i = 0; i < self->items->len; i++)
      {
        OviGraphPoint q = ovi_graph_layout_get_node (self->layout, i);
        double d;

        if (i == from)
          continue;
        if (vertical)
          {
            /* The first pass only along edges, in any layer that way. */
            if (pass == 0 ? !linked (self, from, i, up) || (up ? q.y >= p.y : q.y <= p.y)
                          : q.y != p.y + (up ? -1 : 1))
              continue;
            d = fabs (q.x - p.x) + fabs (q.y - p.y) * 0.01;
          }
        else
          {
            if (q.y != p.y || (keyval == GDK_KEY_Left ? q.x >= p.x : q.x <= p.x))
              continue;
            d = fabs (q.x - p.x);
          }
        if (d < best)
          {
            best = d;
            found = i;
          }
      }
  return found;
}

static gboolean
key_pressed (OviGraphCanvas *self, guint keyval, guint keycode, GdkModifierType state)
{
  guint from = ovi_graph_canvas_get_focus_node (self);

  if (from == G_MAXUINT || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_Down:
    case GDK_KEY_Left:
    case GDK_KEY_Right:
      {
        guint to = neighbour (self, from, keyval);

        if (to != G_MAXUINT)
          ovi_graph_canvas_focus_node (self, to);
        return TRUE; /* at an end, the focus stays on the graph */
      }
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      g_signal_emit (self, signals[NODE_ACTIVATED], 0, from);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
item_clicked (GtkGestureClick *gesture, int n_press, double x, double y, OviGraphCanvas *self)
{
  GtkWidget *item = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (item);
  g_signal_emit (self, signals[NODE_ACTIVATED], 0, OVI_GRAPH_CANVAS_ITEM (item)->index);
}

static GtkWidget *
item_new (OviGraphCanvas *self, guint index, const OviGraphCanvasNode *node, gboolean selected)
{
  OviGraphCanvasItem *item = g_object_new (OVI_TYPE_GRAPH_CANVAS_ITEM, NULL);
  GtkGesture *click = gtk_gesture_click_new ();

  item->index = index;
  item->stub = node->stub;
  if (node->stub || node->subtitle == NULL)
    item->markup = g_markup_printf_escaped ("%s", node->title);
  else
    item->markup =
        g_markup_printf_escaped ("<b>%s</b>\n<small>%s</small>", node->title, node->subtitle);
  gtk_widget_add_css_class (GTK_WIDGET (item), node->style);
  if (node->stub)
    gtk_widget_add_css_class (GTK_WIDGET (item), "stub");
  if (selected)
    gtk_widget_add_css_class (GTK_WIDGET (item), "selected");
  gtk_accessible_update_property (GTK_ACCESSIBLE (item), GTK_ACCESSIBLE_PROPERTY_LABEL, node->name,
                                  -1);
  ovi_widget_set_tooltip (GTK_WIDGET (item), node->tooltip);
  g_signal_connect_object (click, "released", G_CALLBACK (item_clicked), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (item), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_parent (GTK_WIDGET (item), GTK_WIDGET (self));
  return GTK_WIDGET (item);
}

/* Adds the scene's nodes a few at a time (ovi-scheduler.c), so that no
 * turn of the main loop builds and styles hundreds of widgets. */
static gboolean
add_items (gint64 deadline, gpointer data)
{
  OviGraphCanvas *self = data;

  while (self->items->len < self->nodes->len)
    {
      guint i = self->items->len;

      g_ptr_array_add (self->items,
                       item_new (self, i, &g_array_index (self->nodes, OviGraphCanvasNode, i),
                                 i == self->selected));
      if (g_get_monotonic_time () >= deadline)
        break;
    }
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  if (self->items->len < self->nodes->len)
    return TRUE;
  self->add_task = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPLETE]);
  return FALSE;
}

void
ovi_graph_canvas_clear (OviGraphCanvas *self)
{
  g_return_if_fail (OVI_IS_GRAPH_CANVAS (self));

  ovi_scheduler_remove (self->add_task);
  self->add_task = 0;
  for (guint i = 0; i < self->items->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->items, i));
  g_ptr_array_set_size (self->items, 0);
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->layout, ovi_graph_layout_unref);
  g_clear_pointer (&self->edges, g_free);
  g_clear_pointer (&self->edge_styles, g_free);
  self->n_edges = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * ovi_graph_canvas_set_scene:
 * @layout: where the nodes and edges go
 * @nodes: (element-type OviGraphCanvasNode): what each node of @layout shows
 * @edges: 2 node indices per edge of @layout, as laid out
 * @edge_styles: one per edge
 * @selected: the node shown as selected, or %G_MAXUINT
 */
void
ovi_graph_canvas_set_scene (OviGraphCanvas *self,
                            OviGraphLayout *layout,
                            GArray *nodes,
                            const guint *edges,
                            const OviGraphCanvasEdgeStyle *edge_styles,
                            guint selected)
{
  guint n_edges;

  g_return_if_fail (OVI_IS_GRAPH_CANVAS (self));
  g_return_if_fail (nodes->len == ovi_graph_layout_get_n_nodes (layout));

  ovi_graph_canvas_clear (self);
  n_edges = ovi_graph_layout_get_n_edges (layout);
  self->layout = ovi_graph_layout_ref (layout);
  self->n_edges = n_edges;
  self->edges = g_memdup2 (edges, MAX (n_edges, 1) * 2 * sizeof (guint));
  self->edge_styles = g_memdup2 (edge_styles, MAX (n_edges, 1) * sizeof (OviGraphCanvasEdgeStyle));
  self->nodes = g_array_ref (nodes);
  self->selected = selected;
  self->add_task = ovi_scheduler_add (add_items, self, NULL);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPLETE]);
}

guint
ovi_graph_canvas_get_n_nodes (OviGraphCanvas *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_CANVAS (self), 0);
  return self->items->len;
}

GtkWidget *
ovi_graph_canvas_get_node_widget (OviGraphCanvas *self, guint node)
{
  g_return_val_if_fail (OVI_IS_GRAPH_CANVAS (self) && node < self->items->len, NULL);
  return g_ptr_array_index (self->items, node);
}

/* Whether every node of the scene is a widget yet. */
gboolean
ovi_graph_canvas_get_complete (OviGraphCanvas *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_CANVAS (self), FALSE);
  return self->add_task == 0;
}

double
ovi_graph_canvas_get_zoom (OviGraphCanvas *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_CANVAS (self), 1.0);
  return self->zoom;
}

void
ovi_graph_canvas_set_zoom (OviGraphCanvas *self, double zoom)
{
  g_return_if_fail (OVI_IS_GRAPH_CANVAS (self));

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  if (zoom == self->zoom)
    return;
  self->zoom = zoom;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Ctrl and the wheel zoom; the wheel alone is the scrolled window's. */
static gboolean
scrolled (GtkEventControllerScroll *controller, double dx, double dy, OviGraphCanvas *self)
{
  GdkModifierType state =
      gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if ((state & GDK_CONTROL_MASK) == 0 || dy == 0)
    return FALSE;
  ovi_graph_canvas_set_zoom (self, self->zoom * (dy < 0 ? 1.25 : 0.8));
  return TRUE;
}

GtkWidget *
ovi_graph_canvas_new (void)
{
  return g_object_new (OVI_TYPE_GRAPH_CANVAS, NULL);
}

static void
ovi_graph_canvas_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (object);

  switch (prop_id)
    {
    case PROP_COMPLETE:
      g_value_set_boolean (value, ovi_graph_canvas_get_complete (self));
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_graph_canvas_set_property (GObject *object,
                               guint prop_id,
                               const GValue *value,
                               GParamSpec *pspec)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      ovi_graph_canvas_set_zoom (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_graph_canvas_dispose (GObject *object)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (object);

  ovi_graph_canvas_clear (self);
  G_OBJECT_CLASS (ovi_graph_canvas_parent_class)->dispose (object);
}

static void
ovi_graph_canvas_finalize (GObject *object)
{
  OviGraphCanvas *self = OVI_GRAPH_CANVAS (object);

  g_ptr_array_unref (self->items);
  G_OBJECT_CLASS (ovi_graph_canvas_parent_class)->finalize (object);
}

static void
ovi_graph_canvas_class_init (OviGraphCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ovi_graph_canvas_get_property;
  object_class->set_property = ovi_graph_canvas_set_property;
  object_class->dispose = ovi_graph_canvas_dispose;
  object_class->finalize = ovi_graph_canvas_finalize;
  widget_class->measure = ovi_graph_canvas_measure;
  widget_class->size_allocate = ovi_graph_canvas_size_allocate;
  widget_class->snapshot = ovi_graph_canvas_snapshot;

  properties[PROP_COMPLETE] =
      g_param_spec_boolean ("complete", NULL, NULL, TRUE,
                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
      g_param_spec_double ("zoom", NULL, NULL, ZOOM_MIN, ZOOM_MAX, 1.0,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A node was clicked, or Return or Space pressed on it. */
  signals[NODE_ACTIVATED] =
      g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "graphcanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ovi_graph_canvas_init (OviGraphCanvas *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkEventController *scroll =
      gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  self->zoom = 1.0;
  self->items = g_ptr_array_new ();
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scrolled), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
}
