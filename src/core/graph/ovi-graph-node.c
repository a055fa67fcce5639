/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-graph-enums.h"
#include "ovi-graph-private.h"

/* A node of an OviGraph: a dumped operator (its file, its place in run
 * order, its class and counts from the analysis rules) or what a graph JSON
 * or an unwritten address adds beside them. Immutable once built. */
struct _OviGraphNode
{
  GObject parent_instance;

  guint index;
  char *name;
  char *op_type;
  OviGraphNodeKind kind;
  OviDumpFile *file;
  int position;
};

G_DEFINE_FINAL_TYPE (OviGraphNode, ovi_graph_node, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_INDEX,
  PROP_NAME,
  PROP_OP_TYPE,
  PROP_KIND,
  PROP_FILE,
  PROP_POSITION,
  PROP_BLAME,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static void
ovi_graph_node_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviGraphNode *self = OVI_GRAPH_NODE (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_OP_TYPE:
      g_value_set_string (value, self->op_type);
      break;
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_POSITION:
      g_value_set_int (value, self->position);
      break;
    case PROP_BLAME:
      g_value_set_int (value, ovi_graph_node_get_blame (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_graph_node_finalize (GObject *object)
{
  OviGraphNode *self = OVI_GRAPH_NODE (object);

  g_free (self->name);
  g_free (self->op_type);
  g_clear_object (&self->file);
  G_OBJECT_CLASS (ovi_graph_node_parent_class)->finalize (object);
}

static void
ovi_graph_node_class_init (OviGraphNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = ovi_graph_node_get_property;
  object_class->finalize = ovi_graph_node_finalize;

  properties[PROP_INDEX] = g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_OP_TYPE] = g_param_spec_string ("op-type", NULL, NULL, NULL, flags);
  properties[PROP_KIND] = g_param_spec_enum ("kind", NULL, NULL, OVI_TYPE_GRAPH_NODE_KIND,
                                             OVI_GRAPH_NODE_OPERATOR, flags);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, OVI_TYPE_DUMP_FILE, flags);
  properties[PROP_POSITION] = g_param_spec_int ("position", NULL, NULL, -1, G_MAXINT, -1, flags);
  /* An OviBlame (base has no GType for it). */
  properties[PROP_BLAME] =
      g_param_spec_int ("blame", NULL, NULL, 0, OVI_BLAME_ABSORBED, OVI_BLAME_UNKNOWN, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_graph_node_init (OviGraphNode *self)
{
  self->position = -1;
}

OviGraphNode *
ovi_graph_node_new (guint index,
                    const char *name,
                    const char *op_type,
                    OviGraphNodeKind kind,
                    OviDumpFile *file,
                    int position)
{
  OviGraphNode *self = g_object_new (OVI_TYPE_GRAPH_NODE, NULL);

  self->index = index;
  self->name = g_strdup (name);
  self->op_type = g_strdup (op_type ? op_type : "");
  self->kind = kind;
  self->file = file ? g_object_ref (file) : NULL;
  self->position = position;
  return self;
}

/**
 * ovi_graph_node_get_index:
 * Returns: the node's index in its graph (ovi_graph_get_node())
 */
guint
ovi_graph_node_get_index (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), 0);
  return self->index;
}

/**
 * ovi_graph_node_get_name:
 * Returns: the operator's name as its dump header gives it, a graph JSON
 *   op's name, or for an unwritten address "external 0x…"
 */
const char *
ovi_graph_node_get_name (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), NULL);
  return self->name;
}

/**
 * ovi_graph_node_get_op_type:
 * Returns: the op type ("Cast", "Data"), "" when unknown
 */
const char *
ovi_graph_node_get_op_type (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), NULL);
  return self->op_type;
}

OviGraphNodeKind
ovi_graph_node_get_kind (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), OVI_GRAPH_NODE_OPERATOR);
  return self->kind;
}

/**
 * ovi_graph_node_get_position:
 * Returns: the operator's place in the iteration's run order, from 0; -1
 *   for a node no dump file ran
 */
int
ovi_graph_node_get_position (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), -1);
  return self->position;
}

/**
 * ovi_graph_node_get_blame:
 * Returns: the operator's class by the analysis rules (its own inputs and
 *   outputs); %OVI_BLAME_UNKNOWN for a node no dump file ran
 */
OviBlame
ovi_graph_node_get_blame (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), OVI_BLAME_UNKNOWN);
  return self->file ? ovi_dump_file_get_blame (self->file) : OVI_BLAME_UNKNOWN;
}

static const OviOpSummary *
summary_of (OviGraphNode *self)
{
  return self->file ? ovi_dump_file_get_summary (self->file) : NULL;
}

/**
 * ovi_graph_node_get_nan:
 * Returns: NaN values over the operator's inputs and outputs; 0 when not
 *   summarised or not dumped
 */
guint64
ovi_graph_node_get_nan (OviGraphNode *self)
{
  const OviOpSummary *s;

  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), 0);
  s = summary_of (self);
  return s ? s->nan : 0;
}

/**
 * ovi_graph_node_get_inf:
 * Returns: infinities (either sign) over the operator's inputs and outputs
 */
guint64
ovi_graph_node_get_inf (OviGraphNode *self)
{
  const OviOpSummary *s;

  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), 0);
  s = summary_of (self);
  return s ? s->inf : 0;
}

/**
 * ovi_graph_node_get_file:
 * Returns: (transfer none) (nullable): the op dump file that ran it
 */
OviDumpFile *
ovi_graph_node_get_file (OviGraphNode *self)
{
  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), NULL);
  return self->file;
}

/* What the node is, in words, when its class says nothing. */
static const char *
kind_label (OviGraphNodeKind kind)
{
  switch (kind)
    {
    case OVI_GRAPH_NODE_INPUT:
      return _ ("graph input");
    case OVI_GRAPH_NODE_CONSTANT:
      return _ ("weight or constant");
    case OVI_GRAPH_NODE_NOT_DUMPED:
      return _ ("not dumped");
    case OVI_GRAPH_NODE_EXTERNAL:
      return _ ("not written by a dumped operator");
    case OVI_GRAPH_NODE_OPERATOR:
    default:
      return "";
    }
}

/**
 * ovi_graph_node_dup_accessible_name:
 *
 * Returns: (transfer full): what a screen reader says of the node: "Cast
 *   bert/embeddings/Cast, origin, 2 NaN, 1 Inf"
 */
char *
ovi_graph_node_dup_accessible_name (OviGraphNode *self)
{
  GString *s;
  guint64 nan, inf;

  g_return_val_if_fail (OVI_IS_GRAPH_NODE (self), NULL);

  s = g_string_new (NULL);
  if (*self->op_type)
    g_string_append_printf (s, "%s ", self->op_type);
  g_string_append (s, self->name);
  g_string_append_printf (s, ", %s",
                          self->kind == OVI_GRAPH_NODE_OPERATOR
                              ? ovi_blame_label (ovi_graph_node_get_blame (self))
                              : kind_label (self->kind));
  nan = ovi_graph_node_get_nan (self);
  inf = ovi_graph_node_get_inf (self);
  if (nan > 0)
    g_string_append_printf (s, ", %" G_GUINT64_FORMAT " NaN", nan);
  if (inf > 0)
    g_string_append_printf (s, ", %" G_GUINT64_FORMAT " Inf", inf);
  return g_string_free (s, FALSE);
}
