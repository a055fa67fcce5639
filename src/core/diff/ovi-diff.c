/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-diff-enums.h"
#include "ovi-diff-private.h"
#include "ovi-error.h"
#include "ovi-problem.h"
#include "ovi-worker.h"

/* The diff: both runs read, their folders paired, their operators matched
 * and classified in run order, and the first divergence, the earliest
 * operator whose inputs agree and whose output does not. */

/* ---- OviDiffOperator ---- */

struct _OviDiffOperator
{
  GObject parent_instance;
  guint position;
  char *name, *golden_name, *op_type, *mine_path, *golden_path, *pair;
  OviDiffOpClass op_class;
  char *reason;
  GArray *tensors;    /* OviDiffTensor */
  GPtrArray *sources; /* OviDiffSource kept (or NULL): mine, golden of each tensor */
  guint worst;        /* index into tensors, G_MAXUINT when none */
  guint mine_overflows, golden_overflows;
};

enum
{
  OP_PROP_0,
  OP_PROP_POSITION,
  OP_PROP_NAME,
  OP_PROP_GOLDEN_NAME,
  OP_PROP_OP_TYPE,
  OP_PROP_OP_CLASS,
  OP_PROP_REASON,
  OP_PROP_COSINE,
  OP_PROP_MAX_ABS_ERROR,
  OP_PROP_MINE_OVERFLOWS,
  OP_PROP_GOLDEN_OVERFLOWS,
  OP_N_PROPS
};

static GParamSpec *op_props[OP_N_PROPS];

G_DEFINE_FINAL_TYPE (OviDiffOperator, ovi_diff_operator, G_TYPE_OBJECT)

static void
ovi_diff_operator_finalize (GObject *object)
{
  OviDiffOperator *self = OVI_DIFF_OPERATOR (object);

  g_free (self->name);
  g_free (self->golden_name);
  g_free (self->op_type);
  g_free (self->mine_path);
  g_free (self->golden_path);
  g_free (self->pair);
  g_free (self->reason);
  for (guint i = 0; i < self->tensors->len; i++)
    ovi_diff_tensor_clear (&g_array_index (self->tensors, OviDiffTensor, i));
  g_array_unref (self->tensors);
  g_ptr_array_unref (self->sources);
  G_OBJECT_CLASS (ovi_diff_operator_parent_class)->finalize (object);
}

static void
ovi_diff_operator_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  OviDiffOperator *self = OVI_DIFF_OPERATOR (object);

  switch (id)
    {
    case OP_PROP_POSITION:
      g_value_set_uint (value, self->position);
      break;
    case OP_PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case OP_PROP_GOLDEN_NAME:
      g_value_set_string (value, self->golden_name);
      break;
    case OP_PROP_OP_TYPE:
      g_value_set_string (value, self->op_type);
      break;
    case OP_PROP_OP_CLASS:
      g_value_set_enum (value, self->op_class);
      break;
    case OP_PROP_REASON:
      g_value_set_string (value, self->reason);
      break;
    case OP_PROP_COSINE:
      g_value_set_double (value, ovi_diff_operator_get_cosine (self));
      break;
    case OP_PROP_MAX_ABS_ERROR:
      g_value_set_double (value, ovi_diff_operator_get_max_abs_error (self));
      break;
    case OP_PROP_MINE_OVERFLOWS:
      g_value_set_uint (value, self->mine_overflows);
      break;
    case OP_PROP_GOLDEN_OVERFLOWS:
      g_value_set_uint (value, self->golden_overflows);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
ovi_diff_operator_class_init (OviDiffOperatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_diff_operator_finalize;
  object_class->get_property = ovi_diff_operator_get_property;
  op_props[OP_PROP_POSITION] = g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0, flags);
  op_props[OP_PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  op_props[OP_PROP_GOLDEN_NAME] = g_param_spec_string ("golden-name", NULL, NULL, NULL, flags);
  op_props[OP_PROP_OP_TYPE] = g_param_spec_string ("op-type", NULL, NULL, NULL, flags);
  op_props[OP_PROP_OP_CLASS] = g_param_spec_enum ("op-class", NULL, NULL, OVI_TYPE_DIFF_OP_CLASS,
                                                  OVI_DIFF_OP_IDENTICAL, flags);
  op_props[OP_PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, flags);
  op_props[OP_PROP_COSINE] =
      g_param_spec_double ("cosine", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  op_props[OP_PROP_MAX_ABS_ERROR] =
      g_param_spec_double ("max-abs-error", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  op_props[OP_PROP_MINE_OVERFLOWS] =
      g_param_spec_uint ("mine-overflows", NULL, NULL, 0, G_MAXUINT, 0, flags);
  op_props[OP_PROP_GOLDEN_OVERFLOWS] =
      g_param_spec_uint ("golden-overflows", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, OP_N_PROPS, op_props);
}

static void
ovi_diff_operator_init (OviDiffOperator *self)
{
  self->tensors = g_array_new (FALSE, TRUE, sizeof (OviDiffTensor));
  self->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_diff_source_free);
  self->worst = G_MAXUINT;
}

/**
 * ovi_diff_operator_get_sources:
 * @mine: (out) (transfer none) (nullable)
 * @golden: (out) (transfer none) (nullable)
 *
 * What tensor pair @tensor was compared from, for reading it again.
 */
gboolean
ovi_diff_operator_get_sources (OviDiffOperator *self,
                               guint tensor,
                               OviDiffSource **mine,
                               OviDiffSource **golden)
{
  g_return_val_if_fail (OVI_IS_DIFF_OPERATOR (self), FALSE);

  if (tensor >= self->tensors->len)
    return FALSE;
  *mine = g_ptr_array_index (self->sources, 2 * tensor);
  *golden = g_ptr_array_index (self->sources, 2 * tensor + 1);
  return TRUE;
}

/* Run order over both runs, from 0. */
guint
ovi_diff_operator_get_position (OviDiffOperator *self)
{
  return self->position;
}

/* My op name, or the golden one for an operator of the golden run only. */
const char *
ovi_diff_operator_get_name (OviDiffOperator *self)
{
  return self->name;
}

const char *
ovi_diff_operator_get_golden_name (OviDiffOperator *self)
{
  return self->golden_name;
}

const char *
ovi_diff_operator_get_op_type (OviDiffOperator *self)
{
  return self->op_type;
}

const char *
ovi_diff_operator_get_mine_path (OviDiffOperator *self)
{
  return self->mine_path;
}

const char *
ovi_diff_operator_get_golden_path (OviDiffOperator *self)
{
  return self->golden_path;
}

/* The label of the folder pair the operator was found in. */
const char *
ovi_diff_operator_get_pair (OviDiffOperator *self)
{
  return self->pair;
}

OviDiffOpClass
ovi_diff_operator_get_op_class (OviDiffOperator *self)
{
  return self->op_class;
}

/* Why the operator is not comparable (translated), or NULL. */
const char *
ovi_diff_operator_get_reason (OviDiffOperator *self)
{
  return self->reason;
}

guint
ovi_diff_operator_get_n_tensors (OviDiffOperator *self)
{
  return self->tensors->len;
}

/* Inputs by index, then outputs by index. */
const OviDiffTensor *
ovi_diff_operator_get_tensor (OviDiffOperator *self, guint index)
{
  g_return_val_if_fail (index < self->tensors->len, NULL);
  return &g_array_index (self->tensors, OviDiffTensor, index);
}

/* The tensor that tells most about the operator: the output with the most
 * elements out of tolerance, else its first output. */
const OviDiffTensor *
ovi_diff_operator_get_worst_tensor (OviDiffOperator *self)
{
  return self->worst < self->tensors->len ? ovi_diff_operator_get_tensor (self, self->worst) : NULL;
}

double
ovi_diff_operator_get_cosine (OviDiffOperator *self)
{
  const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (self);
  return t && t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE ? t->metrics.cosine : NAN;
}

double
ovi_diff_operator_get_max_abs_error (OviDiffOperator *self)
{
  const OviDiffTensor *t = ovi_diff_operator_get_worst_tensor (self);
  return t && t->tensor_class != OVI_DIFF_TENSOR_NOT_COMPARABLE ? t->metrics.max_absolute_error
                                                                : NAN;
}

guint
ovi_diff_operator_get_mine_overflows (OviDiffOperator *self)
{
  return self->mine_overflows;
}

guint
ovi_diff_operator_get_golden_overflows (OviDiffOperator *self)
{
  return self->golden_overflows;
}

/* ---- OviDiffResult ---- */

struct _OviDiffResult
{
  GObject parent_instance;
  char *mine_path, *golden_path;
  GListStore *operators;
  GListStore *problems;
  GArray *pairs; /* OviDiffFolderPair */
  gboolean mine_npy, golden_npy;
  OviDiffOperator *first;
  guint first_tensor;
};

enum
{
  RES_PROP_0,
  RES_PROP_OPERATORS,
  RES_PROP_PROBLEMS,
  RES_PROP_FIRST_DIVERGENCE,
  RES_PROP_AGREE,
  RES_N_PROPS
};

static GParamSpec *res_props[RES_N_PROPS];

G_DEFINE_FINAL_TYPE (OviDiffResult, ovi_diff_result, G_TYPE_OBJECT)

static void
clear_folder_pair (OviDiffFolderPair *p)
{
  g_free (p->mine);
  g_free (p->golden);
  g_free (p->label);
}

static void
ovi_diff_result_finalize (GObject *object)
{
  OviDiffResult *self = OVI_DIFF_RESULT (object);

  g_free (self->mine_path);
  g_free (self->golden_path);
  g_object_unref (self->operators);
  g_object_unref (self->problems);
  g_array_unref (self->pairs);
  g_clear_object (&self->first);
  G_OBJECT_CLASS (ovi_diff_result_parent_class)->finalize (object);
}

static void
ovi_diff_result_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  OviDiffResult *self = OVI_DIFF_RESULT (object);

  switch (id)
    {
    case RES_PROP_OPERATORS:
      g_value_set_object (value, self->operators);
      break;
    case RES_PROP_PROBLEMS:
      g_value_set_object (value, self->problems);
      break;
    case RES_PROP_FIRST_DIVERGENCE:
      g_value_set_object (value, self->first);
      break;
    case RES_PROP_AGREE:
      g_value_set_boolean (value, ovi_diff_result_get_agree (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
ovi_diff_result_class_init (OviDiffResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_diff_result_finalize;
  object_class->get_property = ovi_diff_result_get_property;
  res_props[RES_PROP_OPERATORS] =
      g_param_spec_object ("operators", NULL, NULL, G_TYPE_LIST_MODEL, flags);
  res_props[RES_PROP_PROBLEMS] =
      g_param_spec_object ("problems", NULL, NULL, G_TYPE_LIST_MODEL, flags);
  res_props[RES_PROP_FIRST_DIVERGENCE] =
      g_param_spec_object ("first-divergence", NULL, NULL, OVI_TYPE_DIFF_OPERATOR, flags);
  res_props[RES_PROP_AGREE] = g_param_spec_boolean ("agree", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, RES_N_PROPS, res_props);
}

static void
ovi_diff_result_init (OviDiffResult *self)
{
  self->operators = g_list_store_new (OVI_TYPE_DIFF_OPERATOR);
  self->problems = g_list_store_new (OVI_TYPE_PROBLEM);
  self->pairs = g_array_new (FALSE, TRUE, sizeof (OviDiffFolderPair));
  g_array_set_clear_func (self->pairs, (GDestroyNotify) clear_folder_pair);
  self->first_tensor = G_MAXUINT;
}

/* OviDiffOperator, in run order. */
GListModel *
ovi_diff_result_get_operators (OviDiffResult *self)
{
  return G_LIST_MODEL (self->operators);
}

/* The earliest origin, or NULL when no operator is one. */
OviDiffOperator *
ovi_diff_result_get_first_divergence (OviDiffResult *self)
{
  return self->first;
}

/* The first output of the first divergence that is out of tolerance. */
const OviDiffTensor *
ovi_diff_result_get_first_divergence_tensor (OviDiffResult *self)
{
  return self->first && self->first_tensor != G_MAXUINT
             ? ovi_diff_operator_get_tensor (self->first, self->first_tensor)
             : NULL;
}

/* OviProblem: the files of either run that could not be read. */
GListModel *
ovi_diff_result_get_problems (OviDiffResult *self)
{
  return G_LIST_MODEL (self->problems);
}

const OviDiffFolderPair *
ovi_diff_result_get_folder_pairs (OviDiffResult *self, guint *n_pairs)
{
  *n_pairs = self->pairs->len;
  return (const OviDiffFolderPair *) (gconstpointer) self->pairs->data;
}

guint
ovi_diff_result_count_class (OviDiffResult *self, OviDiffOpClass op_class)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->operators)); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (G_LIST_MODEL (self->operators), i);
      n += op->op_class == op_class;
    }
  return n;
}

/* Whether the runs agree: every operator identical or within tolerance,
 * none in one run only, none not comparable, no problem. */
gboolean
ovi_diff_result_get_agree (OviDiffResult *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->operators));

  return n > 0 && g_list_model_get_n_items (G_LIST_MODEL (self->problems)) == 0 &&
         ovi_diff_result_count_class (self, OVI_DIFF_OP_IDENTICAL) +
                 ovi_diff_result_count_class (self, OVI_DIFF_OP_WITHIN_TOLERANCE) ==
             n;
}

const char *
ovi_diff_result_get_mine_path (OviDiffResult *self)
{
  return self->mine_path;
}

const char *
ovi_diff_result_get_golden_path (OviDiffResult *self)
{
  return self->golden_path;
}

/* Whether my run (or the golden one) is a folder of .npy files. */
gboolean
ovi_diff_result_get_is_npy (OviDiffResult *self, gboolean golden)
{
  return golden ? self->golden_npy : self->mine_npy;
}

/* ---- OviDiff ---- */

struct _OviDiff
{
  GObject parent_instance;
  char *mine, *golden;
  double rtol, atol; /* NaN: the dtype's default */
  guint top_n;
  GHashTable *mapping; /* my name → golden name */
};

G_DEFINE_FINAL_TYPE (OviDiff, ovi_diff, G_TYPE_OBJECT)

static void
ovi_diff_finalize (GObject *object)
{
  OviDiff *self = OVI_DIFF (object);

  g_free (self->mine);
  g_free (self->golden);
  g_hash_table_unref (self->mapping);
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
  self->mapping = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
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

void
ovi_diff_add_mapping (OviDiff *self, const char *mine_name, const char *golden_name)
{
  g_hash_table_replace (self->mapping, g_strdup (mine_name), g_strdup (golden_name));
}

/**
 * ovi_diff_set_mapping_file:
 *
 * Reads `my_name,golden_name` a line (blank lines and lines starting with
 * `#` left out), for renamed or fused operators.
 */
gboolean
ovi_diff_set_mapping_file (OviDiff *self, const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) local_error = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      g_set_error_literal (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING, local_error->message);
      return FALSE;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *comma;

      if (*line == '\0' || *line == '#')
        continue;
      comma = strchr (line, ',');
      if (comma == NULL || comma == line || comma[1] == '\0')
        {
          g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_MAPPING,
                       _ ("%s, line %u: not “my_name,golden_name”"), path, i + 1);
          return FALSE;
        }
      *comma = '\0';
      ovi_diff_add_mapping (self, g_strstrip (line), g_strstrip (comma + 1));
    }
  return TRUE;
}

typedef struct
{
  OviDiff *diff;
  OviDiffOpPair pair;
  OviDiffOperator *op;
  const char *label;
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
      g_ptr_array_add (w->op->sources, a ? ovi_diff_source_keep (a) : NULL);
      g_ptr_array_add (w->op->sources, b ? ovi_diff_source_keep (b) : NULL);
    }
}

static gboolean
agrees (const OviDiffTensor *t)
{
  return t->tensor_class == OVI_DIFF_TENSOR_IDENTICAL ||
         t->tensor_class == OVI_DIFF_TENSOR_WITHIN_TOLERANCE;
}

static void
classify (OviDiffOperator *op)
{
  gboolean inputs_agree = TRUE, outputs_agree = TRUE, identical = TRUE;
  double worst_fraction = -1;

  if (op->reason)
    {
      op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
      return;
    }
  if (op->tensors->len == 0)
    {
      op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
      op->reason = g_strdup (_ ("neither run dumped a tensor of this operator"));
      return;
    }
  for (guint i = 0; i < op->tensors->len; i++)
    {
      const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, i);
      const char *kind = t->kind == OVI_TENSOR_INPUT ? _ ("input") : _ ("output");

      if (t->tensor_class == OVI_DIFF_TENSOR_NOT_COMPARABLE)
        {
          op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
          op->reason = g_strdup_printf ("%s %u: %s", kind, t->index, t->reason);
          op->worst = i;
          return;
        }
      identical &= t->tensor_class == OVI_DIFF_TENSOR_IDENTICAL;
      if (t->kind == OVI_TENSOR_INPUT)
        inputs_agree &= agrees (t);
      else
        {
          double fraction = t->count ? (double) t->out_of_tolerance / t->count : 0;
          outputs_agree &= agrees (t);
          if (fraction > worst_fraction)
            {
              worst_fraction = fraction;
              op->worst = i;
            }
        }
    }
  if (op->worst == G_MAXUINT)
    {
      op->worst = 0;
      /* Only inputs: nothing tells whether the operator passes a
       * difference on or masks it. */
      if (!inputs_agree)
        {
          op->op_class = OVI_DIFF_OP_NOT_COMPARABLE;
          op->reason = g_strdup (_ ("the inputs differ and no output was dumped to tell what "
                                    "the operator made of them"));
          return;
        }
    }
  if (identical)
    op->op_class = OVI_DIFF_OP_IDENTICAL;
  else if (inputs_agree && outputs_agree)
    op->op_class = OVI_DIFF_OP_WITHIN_TOLERANCE;
  else if (inputs_agree)
    op->op_class = OVI_DIFF_OP_ORIGIN;
  else if (!outputs_agree)
    op->op_class = OVI_DIFF_OP_PROPAGATED;
  else
    op->op_class = OVI_DIFF_OP_ABSORBED;
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
      classify (op);
      return;
    }
  /* A .npy golden of outputs only: the inputs are not compared. */
  if (!a->no_inputs_kept && !b->no_inputs_kept)
    compare_kind (w, a->inputs, b->inputs);
  compare_kind (w, a->outputs, b->outputs);
  classify (op);
}

/* A side's problems, each named by its path as the user can open it (the
 * folder's are relative to the run's root). */
static void
add_problems (OviDiffResult *result, OviDiffSide *side)
{
  g_autofree char *base = g_file_test (side->root, G_FILE_TEST_IS_DIR)
                              ? g_strdup (side->root)
                              : g_path_get_dirname (side->root);

  for (guint i = 0; i < side->problems->len; i++)
    {
      OviProblem *p = g_ptr_array_index (side->problems, i);
      const char *file = ovi_problem_get_file (p);
      g_autofree char *path = file && !g_path_is_absolute (file)
                                  ? g_build_filename (base, file, NULL)
                                  : g_strdup (file);
      g_autoptr (GError) error = g_error_new_literal (OVI_DIFF_ERROR, OVI_DIFF_ERROR_NOT_FOUND,
                                                      ovi_problem_get_message (p));
      g_autoptr (OviProblem) full = ovi_problem_new (path, error);

      g_list_store_append (result->problems, full);
    }
}

static OviDiffResult *
run (OviDiff *self, GCancellable *cancellable, GError **error)
{
  g_autoptr (OviDiffSide) mine = NULL, golden = NULL;
  g_autoptr (OviDiffResult) result = g_object_new (OVI_TYPE_DIFF_RESULT, NULL);
  g_autoptr (GArray) groups = NULL;
  g_autoptr (GArray) work = g_array_new (FALSE, TRUE, sizeof (Work));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GHashTable *mapping = g_hash_table_size (self->mapping) ? self->mapping : NULL;

  result->mine_path = g_strdup (self->mine);
  result->golden_path = g_strdup (self->golden);
  if (!(mine = ovi_diff_side_load (self->mine, cancellable, error)) ||
      !(golden = ovi_diff_side_load (self->golden, cancellable, error)))
    return NULL;
  result->mine_npy = mine->npy;
  result->golden_npy = golden->npy;
  add_problems (result, mine);
  add_problems (result, golden);

  groups = ovi_diff_pair_groups (mine, golden);
  for (guint g = 0; g < groups->len; g++)
    {
      OviDiffGroupPair *gp = &g_array_index (groups, OviDiffGroupPair, g);
      OviDiffFolderPair fp = { 0 };
      g_autoptr (GArray) ops = ovi_diff_match_ops (gp->mine, gp->golden, mapping);
      char *label = ovi_diff_group_label (gp->mine ? gp->mine : gp->golden);

      fp.mine = gp->mine ? g_strdup (gp->mine->path) : NULL;
      fp.golden = gp->golden ? g_strdup (gp->golden->path) : NULL;
      fp.label = g_strdup (label);
      g_array_append_val (result->pairs, fp);
      g_ptr_array_add (labels, label);
      for (guint i = 0; i < ops->len; i++)
        {
          Work w = { self, g_array_index (ops, OviDiffOpPair, i), NULL, label };
          g_array_append_val (work, w);
        }
    }

  ovi_parallel_for (work->len, run_work, work->data, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      for (guint i = 0; i < work->len; i++)
        g_clear_object (&g_array_index (work, Work, i).op);
      return NULL;
    }
  for (guint i = 0; i < work->len; i++)
    {
      OviDiffOperator *op = g_array_index (work, Work, i).op;

      op->position = i;
      if (result->first == NULL && op->op_class == OVI_DIFF_OP_ORIGIN)
        {
          result->first = g_object_ref (op);
          for (guint k = 0; k < op->tensors->len && result->first_tensor == G_MAXUINT; k++)
            {
              const OviDiffTensor *t = &g_array_index (op->tensors, OviDiffTensor, k);
              if (t->kind == OVI_TENSOR_OUTPUT && !agrees (t))
                result->first_tensor = k;
            }
        }
      g_list_store_append (result->operators, op);
      g_object_unref (op);
    }
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

/* The class as JSON and CSV write it. */
const char *
ovi_diff_op_class_name (OviDiffOpClass op_class)
{
  static const char *const names[] = {
    "identical", "within_tolerance", "origin",      "propagated",
    "absorbed",  "only_mine",        "only_golden", "not_comparable",
  };
  g_return_val_if_fail (op_class < G_N_ELEMENTS (names), "");
  return names[op_class];
}

/* The class for people, translated. */
const char *
ovi_diff_op_class_label (OviDiffOpClass op_class)
{
  switch (op_class)
    {
    case OVI_DIFF_OP_IDENTICAL:
      return _ ("identical");
    case OVI_DIFF_OP_WITHIN_TOLERANCE:
      return _ ("within tolerance");
    case OVI_DIFF_OP_ORIGIN:
      return _ ("origin");
    case OVI_DIFF_OP_PROPAGATED:
      return _ ("propagated");
    case OVI_DIFF_OP_ABSORBED:
      return _ ("absorbed");
    case OVI_DIFF_OP_ONLY_MINE:
      return _ ("only in my run");
    case OVI_DIFF_OP_ONLY_GOLDEN:
      return _ ("only in the golden run");
    case OVI_DIFF_OP_NOT_COMPARABLE:
    default:
      return _ ("not comparable");
    }
}

const char *
ovi_diff_tensor_class_name (OviDiffTensorClass tensor_class)
{
  static const char *const names[] = { "identical", "within_tolerance", "differs",
                                       "not_comparable" };
  g_return_val_if_fail (tensor_class < G_N_ELEMENTS (names), "");
  return names[tensor_class];
}
