/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ovi-tree-node.h"

/* machine, time, device, model, iteration */
#define N_LEVELS 5

struct _OviTreeNode
{
  GObject parent_instance;
  OviTreeNode *parent; /* unowned */
  OviTreeLevel level;
  char *values[N_LEVELS]; /* NULL where the path has no such level */
  char *label;
  guint count;
  GListStore *children;
  GHashTable *child_index; /* value -> OviTreeNode, unowned */
};

enum
{
  PROP_0,
  PROP_LABEL,
  PROP_COUNT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviTreeNode, ovi_tree_node, G_TYPE_OBJECT)

/* @machine: the name of the file's root in a folder opened with several,
 * which starts its relative path; %NULL with one root. */
static void
file_values (OviDumpFile *file, char *machine, const char *values[N_LEVELS])
{
  const char *relative = ovi_dump_file_get_relative_path (file);
  gsize prefix = ovi_dump_file_get_path_in_root (file) - relative;

  values[0] = prefix > 0 ? machine : NULL;
  if (prefix > 0)
    g_strlcpy (machine, relative, MIN (prefix, OVI_TREE_MACHINE_MAX));
  values[1] = ovi_dump_file_get_time (file);
  values[2] = ovi_dump_file_get_device (file);
  values[3] = ovi_dump_file_get_model (file);
  values[4] = ovi_dump_file_get_iteration (file);
}

static char *
make_label (OviTreeLevel level, const char *value)
{
  switch (level)
    {
    case OVI_TREE_LEVEL_ROOT:
      return g_strdup (value ? value : _ ("All"));
    case OVI_TREE_LEVEL_MACHINE: /* the folder's name, one per machine */
    case OVI_TREE_LEVEL_TIME:
      return g_strdup (value);
    case OVI_TREE_LEVEL_DEVICE:
      /* Translators: %s is a device number */
      return g_strdup_printf (_ ("Device %s"), value);
    case OVI_TREE_LEVEL_MODEL:
      /* Translators: %s is a model (sub-graph) id or name */
      return g_strdup_printf (_ ("Model %s"), value);
    case OVI_TREE_LEVEL_ITERATION:
      /* Translators: %s is an iteration number */
      return g_strdup_printf (_ ("Iteration %s"), value);
    default:
      g_assert_not_reached ();
    }
}

static void
ovi_tree_node_finalize (GObject *object)
{
  OviTreeNode *self = OVI_TREE_NODE (object);

  for (guint i = 0; i < N_LEVELS; i++)
    g_free (self->values[i]);
  g_free (self->label);
  g_clear_object (&self->children);
  g_clear_pointer (&self->child_index, g_hash_table_unref);
  G_OBJECT_CLASS (ovi_tree_node_parent_class)->finalize (object);
}

static void
ovi_tree_node_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviTreeNode *self = OVI_TREE_NODE (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_COUNT:
      g_value_set_uint (value, self->count);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_tree_node_class_init (OviTreeNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ovi_tree_node_finalize;
  object_class->get_property = ovi_tree_node_get_property;

  properties[PROP_LABEL] =
      g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_COUNT] =
      g_param_spec_uint ("count", NULL, NULL, 0, G_MAXUINT, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_tree_node_init (OviTreeNode *self)
{
}

static OviTreeNode *
node_new (OviTreeNode *parent, OviTreeLevel level, const char *value)
{
  OviTreeNode *self = g_object_new (OVI_TYPE_TREE_NODE, NULL);

  self->parent = parent;
  self->level = level;
  self->label = make_label (level, value);
  if (parent != NULL)
    for (guint i = 0; i < N_LEVELS; i++)
      self->values[i] = g_strdup (parent->values[i]);
  if (level != OVI_TREE_LEVEL_ROOT)
    self->values[level - 1] = g_strdup (value);
  if (level != OVI_TREE_LEVEL_ITERATION)
    {
      self->children = g_list_store_new (OVI_TYPE_TREE_NODE);
      self->child_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    }
  return self;
}

/* @label names the whole folder, usually its base name. */
OviTreeNode *
ovi_tree_node_new_root (const char *label)
{
  return node_new (NULL, OVI_TREE_LEVEL_ROOT, label);
}

const char *
ovi_tree_node_get_label (OviTreeNode *self)
{
  g_return_val_if_fail (OVI_IS_TREE_NODE (self), NULL);
  return self->label;
}

guint
ovi_tree_node_get_count (OviTreeNode *self)
{
  g_return_val_if_fail (OVI_IS_TREE_NODE (self), 0);
  return self->count;
}

OviTreeLevel
ovi_tree_node_get_level (OviTreeNode *self)
{
  g_return_val_if_fail (OVI_IS_TREE_NODE (self), 0);
  return self->level;
}

GListModel *
ovi_tree_node_get_children (OviTreeNode *self)
{
  g_return_val_if_fail (OVI_IS_TREE_NODE (self), NULL);
  return self->children ? G_LIST_MODEL (self->children) : NULL;
}

/* Siblings are in the order of their values, numbers as numbers
 * (iteration 9 before iteration 10), as a scan lists the folders: a node
 * that a followed run adds later goes where a new scan would put it. */
static int
compare_siblings (gconstpointer a, gconstpointer b, gpointer unused)
{
  const OviTreeNode *na = a, *nb = b;
  const char *va = na->values[na->level - 1], *vb = nb->values[nb->level - 1];
  int order = ovi_path_natural_compare (va, vb);

  /* "007" and "7" are the same number but different folders. */
  return order != 0 ? order : strcmp (va, vb);
}

/* Levels the file's path does not have are skipped, so opening an iteration
 * folder directly gives a flat tree instead of empty intermediate nodes.
 * Returns the deepest node of the file (unowned). */
OviTreeNode *
ovi_tree_node_add_file (OviTreeNode *self, OviDumpFile *file)
{
  const char *values[N_LEVELS];
  char machine[OVI_TREE_MACHINE_MAX];
  OviTreeNode *node = self;

  g_return_val_if_fail (OVI_IS_TREE_NODE (self), NULL);
  g_return_val_if_fail (self->level == OVI_TREE_LEVEL_ROOT, NULL);

  file_values (file, machine, values);
  for (guint i = 0; i < N_LEVELS; i++)
    {
      OviTreeNode *child;

      if (values[i] == NULL || values[i][0] == '\0')
        continue;
      child = g_hash_table_lookup (node->child_index, values[i]);
      if (child == NULL)
        {
          g_autoptr (OviTreeNode) created = node_new (node, i + 1, values[i]);

          child = created;
          g_hash_table_insert (node->child_index, g_strdup (values[i]), child);
          g_list_store_insert_sorted (node->children, created, compare_siblings, NULL);
        }
      node = child;
    }
  return node;
}

void
ovi_tree_node_add_record (OviTreeNode *self, OviDumpFile *file)
{
  g_return_if_fail (OVI_IS_TREE_NODE (self));

  for (OviTreeNode *node = ovi_tree_node_add_file (self, file); node; node = node->parent)
    {
      node->count++;
      g_object_notify_by_pspec (G_OBJECT (node), properties[PROP_COUNT]);
    }
}

/* Sets every count below and at @self to 0, before records are counted
 * again. */
void
ovi_tree_node_clear_counts (OviTreeNode *self)
{
  g_return_if_fail (OVI_IS_TREE_NODE (self));

  if (self->count != 0)
    {
      self->count = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COUNT]);
    }
  for (guint i = 0; self->children && i < g_list_model_get_n_items (G_LIST_MODEL (self->children));
       i++)
    {
      g_autoptr (OviTreeNode) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);
      ovi_tree_node_clear_counts (child);
    }
}

/* @values: machine (NULL with one root), time, device, model and
 * iteration, as a file has them. */
gboolean
ovi_tree_node_matches_values (OviTreeNode *self, const char *const *values)
{
  g_return_val_if_fail (OVI_IS_TREE_NODE (self), FALSE);

  for (guint i = 0; i < N_LEVELS; i++)
    if (self->values[i] != NULL && g_strcmp0 (self->values[i], values[i]) != 0)
      return FALSE;
  return TRUE;
}

gboolean
ovi_tree_node_matches (OviTreeNode *self, OviDumpFile *file)
{
  const char *values[N_LEVELS];
  char machine[OVI_TREE_MACHINE_MAX];

  g_return_val_if_fail (OVI_IS_TREE_NODE (self), FALSE);

  if (file == NULL)
    return self->level == OVI_TREE_LEVEL_ROOT;
  file_values (file, machine, values);
  return ovi_tree_node_matches_values (self, values);
}
