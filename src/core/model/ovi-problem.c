#include "config.h"

#include "ovi-problem.h"

/* A file that could not be read, and why. */
struct _OviProblem
{
  GObject parent_instance;
  char *file;
  char *message;
  guint line; /* 0 when the problem is the whole file */
};

G_DEFINE_FINAL_TYPE (OviProblem, ovi_problem, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_MESSAGE,
  PROP_LINE,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static void
ovi_problem_finalize (GObject *object)
{
  OviProblem *self = OVI_PROBLEM (object);
  g_free (self->file);
  g_free (self->message);
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
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_problem_init (OviProblem *self)
{
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
