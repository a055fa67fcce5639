#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-op-row.h"

struct _OviOpRow
{
  GObject parent_instance;
  OviDumpFile *file;
  OviOpStats stats;
  gboolean analyzed;
};

enum
{
  PROP_0,
  PROP_FILE,
  PROP_OP_TYPE,
  PROP_OP_NAME,
  PROP_ITERATION,
  PROP_TIMESTAMP,
  PROP_TASK_ID,
  PROP_STREAM_ID,
  PROP_N_INPUTS,
  PROP_N_OUTPUTS,
  PROP_ANALYZED,
  PROP_ABNORMAL,
  PROP_MAX_ABS,
  PROP_NAN,
  PROP_INF,
  PROP_SATURATED,
  PROP_BLAME_LABEL,
  PROP_BLAME_RANK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (OviOpRow, ovi_op_row, G_TYPE_OBJECT)

static void
ovi_op_row_finalize (GObject *object)
{
  OviOpRow *self = OVI_OP_ROW (object);

  g_clear_object (&self->file);
  G_OBJECT_CLASS (ovi_op_row_parent_class)->finalize (object);
}

/* What the operator did with abnormal values, in the operator table. */
static const char *
blame_label (OviBlame blame)
{
  switch (blame)
    {
    case OVI_BLAME_ORIGIN:
      return _ ("Origin");
    case OVI_BLAME_PROPAGATED:
      return _ ("Propagated");
    case OVI_BLAME_ABSORBED:
      return _ ("Absorbed");
    case OVI_BLAME_NORMAL:
      return _ ("Normal");
    default:
      return "";
    }
}

/* Sorting by class puts the operators to blame first. */
static guint
blame_rank (OviBlame blame)
{
  switch (blame)
    {
    case OVI_BLAME_ORIGIN:
      return 0;
    case OVI_BLAME_PROPAGATED:
      return 1;
    case OVI_BLAME_ABSORBED:
      return 2;
    case OVI_BLAME_NORMAL:
      return 3;
    default:
      return 4;
    }
}

static void
ovi_op_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviOpRow *self = OVI_OP_ROW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_OP_TYPE:
      g_value_set_string (value, ovi_dump_file_get_op_type (self->file));
      break;
    case PROP_OP_NAME:
      g_value_set_string (value, ovi_dump_file_get_op_name (self->file));
      break;
    case PROP_ITERATION:
      g_value_set_string (value, ovi_dump_file_get_iteration (self->file));
      break;
    case PROP_TIMESTAMP:
      g_value_set_uint64 (value, ovi_dump_file_get_timestamp (self->file));
      break;
    case PROP_TASK_ID:
      g_value_set_uint64 (value, ovi_dump_file_get_task_id (self->file));
      break;
    case PROP_STREAM_ID:
      g_value_set_uint64 (value, ovi_dump_file_get_stream_id (self->file));
      break;
    case PROP_N_INPUTS:
      g_value_set_uint (value, ovi_dump_file_count_tensors (self->file, OVI_TENSOR_INPUT));
      break;
    case PROP_N_OUTPUTS:
      g_value_set_uint (value, ovi_dump_file_count_tensors (self->file, OVI_TENSOR_OUTPUT));
      break;
    case PROP_ANALYZED:
      g_value_set_boolean (value, self->analyzed);
      break;
    case PROP_ABNORMAL:
      g_value_set_boolean (value, ovi_op_row_get_abnormal (self));
      break;
    case PROP_MAX_ABS:
      g_value_set_double (value, self->analyzed ? self->stats.max_abs : -1);
      break;
    case PROP_NAN:
      g_value_set_uint64 (value, self->stats.nan);
      break;
    case PROP_INF:
      g_value_set_uint64 (value, self->stats.inf);
      break;
    case PROP_SATURATED:
      g_value_set_uint64 (value, self->stats.saturated);
      break;
    case PROP_BLAME_LABEL:
      g_value_set_string (value, blame_label (ovi_dump_file_peek_blame (self->file)));
      break;
    case PROP_BLAME_RANK:
      g_value_set_uint (value, blame_rank (ovi_dump_file_peek_blame (self->file)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_op_row_class_init (OviOpRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_op_row_finalize;
  object_class->get_property = ovi_op_row_get_property;

  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, OVI_TYPE_DUMP_FILE, flags);
  properties[PROP_OP_TYPE] = g_param_spec_string ("op-type", NULL, NULL, NULL, flags);
  properties[PROP_OP_NAME] = g_param_spec_string ("op-name", NULL, NULL, NULL, flags);
  properties[PROP_ITERATION] = g_param_spec_string ("iteration", NULL, NULL, NULL, flags);
  properties[PROP_TIMESTAMP] =
      g_param_spec_uint64 ("timestamp", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TASK_ID] = g_param_spec_uint64 ("task-id", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_STREAM_ID] =
      g_param_spec_uint64 ("stream-id", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_N_INPUTS] = g_param_spec_uint ("n-inputs", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_OUTPUTS] = g_param_spec_uint ("n-outputs", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_ANALYZED] = g_param_spec_boolean ("analyzed", NULL, NULL, FALSE, flags);
  properties[PROP_ABNORMAL] = g_param_spec_boolean ("abnormal", NULL, NULL, FALSE, flags);
  properties[PROP_MAX_ABS] =
      g_param_spec_double ("max-abs", NULL, NULL, -1, G_MAXDOUBLE, -1, flags);
  properties[PROP_NAN] = g_param_spec_uint64 ("nan", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_INF] = g_param_spec_uint64 ("inf", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SATURATED] =
      g_param_spec_uint64 ("saturated", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_BLAME_LABEL] = g_param_spec_string ("blame-label", NULL, NULL, NULL, flags);
  properties[PROP_BLAME_RANK] =
      g_param_spec_uint ("blame-rank", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_op_row_init (OviOpRow *self)
{
}

OviOpRow *
ovi_op_row_new (OviDumpFile *file)
{
  OviOpRow *self;

  g_return_val_if_fail (OVI_IS_DUMP_FILE (file), NULL);

  self = g_object_new (OVI_TYPE_OP_ROW, NULL);
  self->file = g_object_ref (file);
  return self;
}

OviDumpFile *
ovi_op_row_get_file (OviOpRow *self)
{
  g_return_val_if_fail (OVI_IS_OP_ROW (self), NULL);
  return self->file;
}

gboolean
ovi_op_row_get_analyzed (OviOpRow *self)
{
  g_return_val_if_fail (OVI_IS_OP_ROW (self), FALSE);
  return self->analyzed;
}

gboolean
ovi_op_row_get_abnormal (OviOpRow *self)
{
  g_return_val_if_fail (OVI_IS_OP_ROW (self), FALSE);
  return self->stats.nan + self->stats.inf + self->stats.saturated > 0;
}

const OviOpStats *
ovi_op_row_get_stats (OviOpRow *self)
{
  g_return_val_if_fail (OVI_IS_OP_ROW (self), NULL);
  return &self->stats;
}

void
ovi_op_row_set_stats (OviOpRow *self, const OviOpStats *stats)
{
  g_return_if_fail (OVI_IS_OP_ROW (self));

  self->stats = *stats;
  self->analyzed = TRUE;
  for (guint i = PROP_ANALYZED; i < N_PROPS; i++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[i]);
}

/* Runs in a worker thread.  Tensors whose type has no statistics, or whose
 * data cannot be read, are skipped: the problem list reports broken files. */
void
ovi_op_stats_compute (OviDumpFile *file, GCancellable *cancellable, OviOpStats *stats)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);

  memset (stats, 0, sizeof *stats);
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      OviTensor *tensor = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (tensor);
      g_autoptr (OviAnalysis) analysis = NULL;
      const OviStats *s;

      if (g_cancellable_is_cancelled (cancellable))
        return;
      if (kind != OVI_TENSOR_INPUT && kind != OVI_TENSOR_OUTPUT)
        continue;
      if (!ovi_dtype_is_supported (ovi_tensor_get_dtype (tensor)))
        continue;
      analysis = ovi_tensor_analyze (tensor, NULL);
      if (analysis == NULL)
        continue;
      s = ovi_analysis_get_stats (analysis);
      if (!isnan (s->max_abs))
        stats->max_abs = MAX (stats->max_abs, s->max_abs);
      stats->nan += s->nan;
      stats->inf += s->pos_inf + s->neg_inf;
      stats->saturated += s->saturated;
    }
}
