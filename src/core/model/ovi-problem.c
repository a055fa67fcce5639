/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-path.h"
#include "ovi-problem.h"

/* A file that could not be read, why, and where it sits in the tree: a
 * view narrows problems to the time, device, model and iteration the user
 * picked as it narrows dump files. */
struct _OviProblem
{
  GObject parent_instance;
  char *file;
  char *message;
  guint line;     /* 0 when the problem is the whole file */
  guint root;     /* which of the folder's roots holds it */
  char *place[4]; /* time, device, model, iteration; "" where the path has none */
};

G_DEFINE_FINAL_TYPE (OviProblem, ovi_problem, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_MESSAGE,
  PROP_LINE,
  PROP_ITERATION,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static void
ovi_problem_finalize (GObject *object)
{
  OviProblem *self = OVI_PROBLEM (object);
  g_free (self->file);
  g_free (self->message);
  for (guint i = 0; i < G_N_ELEMENTS (self->place); i++)
    g_free (self->place[i]);
  G_OBJECT_CLASS (ovi_problem_parent_class)->finalize (object);
}

static void
ovi_problem_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviProblem *self = OVI_PROBLEM (object);
  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_string (value, self->file);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_LINE:
      g_value_set_uint (value, self->line);
      break;
    case PROP_ITERATION:
      g_value_set_string (value, self->place[3]);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_problem_class_init (OviProblemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = ovi_problem_finalize;
  object_class->get_property = ovi_problem_get_property;
  properties[PROP_FILE] =
      g_param_spec_string ("file", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MESSAGE] =
      g_param_spec_string ("message", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LINE] = g_param_spec_uint ("line", NULL, NULL, 0, G_MAXUINT, 0,
                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ITERATION] = g_param_spec_string ("iteration", NULL, NULL, NULL,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_problem_init (OviProblem *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->place); i++)
    self->place[i] = g_strdup ("");
}

/**
 * ovi_problem_new:
 * @relative_path: the file, relative to the opened folder
 * @error: what is wrong with it
 */
OviProblem *
ovi_problem_new (const char *relative_path, const GError *error)
{
  OviProblem *self = g_object_new (OVI_TYPE_PROBLEM, NULL);
  self->file = g_strdup (relative_path);
  self->message = g_strdup (error->message);
  return self;
}

const char *
ovi_problem_get_file (OviProblem *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEM (self), NULL);
  return self->file;
}

const char *
ovi_problem_get_message (OviProblem *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEM (self), NULL);
  return self->message;
}

/**
 * ovi_problem_new_at_line:
 * @line: the 1-based line of a text file (a statistics CSV) at fault
 *
 * Like ovi_problem_new(); @error's message names the line already.
 */
OviProblem *
ovi_problem_new_at_line (const char *relative_path, guint line, const GError *error)
{
  OviProblem *self = ovi_problem_new (relative_path, error);
  self->line = line;
  return self;
}

/**
 * ovi_problem_get_line:
 * Returns: the line at fault, or 0 when the problem is the whole file
 */
guint
ovi_problem_get_line (OviProblem *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEM (self), 0);
  return self->line;
}

/**
 * ovi_problem_set_place:
 * @root: which root of the folder holds the file
 * @path: the file's path on disk, from which its time, device, model and
 *   iteration are read (ovi_path_infer_hierarchy())
 */
void
ovi_problem_set_place (OviProblem *self, guint root, const char *path)
{
  g_return_if_fail (OVI_IS_PROBLEM (self));

  for (guint i = 0; i < G_N_ELEMENTS (self->place); i++)
    g_free (self->place[i]);
  ovi_path_infer_hierarchy (path, self->place);
  self->root = root;
}

/**
 * ovi_problem_get_root:
 * Returns: which of the folder's roots holds the file
 */
guint
ovi_problem_get_root (OviProblem *self)
{
  g_return_val_if_fail (OVI_IS_PROBLEM (self), 0);
  return self->root;
}

/**
 * ovi_problem_get_place:
 * @values: (out caller-allocates) (array fixed-size=4): time, device, model
 *   and iteration of the file, "" where its path has no such level
 */
void
ovi_problem_get_place (OviProblem *self, const char *values[4])
{
  g_return_if_fail (OVI_IS_PROBLEM (self));

  for (guint i = 0; i < G_N_ELEMENTS (self->place); i++)
    values[i] = self->place[i];
}
