/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ovi-diff-state.h"

/* One diff at a time: starting another, clearing it or disposing cancels
 * the one running, and a result that arrives for a cancelled run is
 * dropped (its cancellable is no longer the state's). */
struct _OviDiffState
{
  GObject parent_instance;

  GCancellable *cancellable; /* the run, while it runs */
  OviDiffResult *result;
  char *error;
  char *mine, *golden;
};

G_DEFINE_FINAL_TYPE (OviDiffState, ovi_diff_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_ACTIVE,
  PROP_ERROR,
  PROP_GOLDEN,
  PROP_MINE,
  PROP_RESULT,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
notify_all (OviDiffState *self)
{
  for (guint i = 1; i < N_PROPS; i++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[i]);
}

typedef struct
{
  OviDiffState *self; /* weak: the state may go first */
  GCancellable *cancellable;
} RunData;

static void
run_done (GObject *source, GAsyncResult *res, gpointer user_data)
{
  RunData *data = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDiffResult) result = ovi_diff_run_finish (OVI_DIFF (source), res, &error);
  OviDiffState *self = data->self;

  if (self != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self), (gpointer *) &data->self);
  if (self != NULL && self->cancellable == data->cancellable)
    {
      g_clear_object (&self->cancellable);
      if (result != NULL)
        self->result = g_steal_pointer (&result);
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->error = g_strdup (error->message);
      notify_all (self);
    }
  g_object_unref (data->cancellable);
  g_free (data);
}

/**
 * ovi_diff_state_start:
 * @mine: the run shown, a folder or one dump file
 * @golden: the run it is compared with: a dump folder, a dump file or a
 *   folder of .npy files
 */
void
ovi_diff_state_start (OviDiffState *self, const char *mine, const char *golden)
{
  g_autoptr (OviDiff) diff = NULL;
  RunData *data;

  g_return_if_fail (OVI_IS_DIFF_STATE (self));
  g_return_if_fail (mine != NULL && golden != NULL);

  g_object_freeze_notify (G_OBJECT (self));
  ovi_diff_state_clear (self);
  self->mine = g_strdup (mine);
  self->golden = g_strdup (golden);
  self->cancellable = g_cancellable_new ();
  data = g_new0 (RunData, 1);
  data->self = self;
  data->cancellable = g_object_ref (self->cancellable);
  g_object_add_weak_pointer (G_OBJECT (self), (gpointer *) &data->self);
  diff = ovi_diff_new (mine, golden);
  ovi_diff_run_async (diff, self->cancellable, run_done, data);
  notify_all (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Stops the run; what it found so far is not kept. */
void
ovi_diff_state_cancel (OviDiffState *self)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));

  if (self->cancellable == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_free (self->error);
  self->error = g_strdup (_ ("The comparison was cancelled"));
  notify_all (self);
}

/* No diff: the page is hidden. */
void
ovi_diff_state_clear (OviDiffState *self)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->result);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->mine, g_free);
  g_clear_pointer (&self->golden, g_free);
  notify_all (self);
}

OviDiffResult *
ovi_diff_state_get_result (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NULL);
  return self->result;
}

gboolean
ovi_diff_state_get_running (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), FALSE);
  return self->cancellable != NULL;
}

gboolean
ovi_diff_state_get_active (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), FALSE);
  return self->golden != NULL;
}

const char *
ovi_diff_state_get_error (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NULL);
  return self->error;
}

const char *
ovi_diff_state_get_mine (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NULL);
  return self->mine;
}

const char *
ovi_diff_state_get_golden (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NULL);
  return self->golden;
}

static void
ovi_diff_state_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviDiffState *self = OVI_DIFF_STATE (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      g_value_set_boolean (value, ovi_diff_state_get_active (self));
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_GOLDEN:
      g_value_set_string (value, self->golden);
      break;
    case PROP_MINE:
      g_value_set_string (value, self->mine);
      break;
    case PROP_RESULT:
      g_value_set_object (value, self->result);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, ovi_diff_state_get_running (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_diff_state_dispose (GObject *object)
{
  OviDiffState *self = OVI_DIFF_STATE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->result);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->mine, g_free);
  g_clear_pointer (&self->golden, g_free);
  G_OBJECT_CLASS (ovi_diff_state_parent_class)->dispose (object);
}

static void
ovi_diff_state_class_init (OviDiffStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = ovi_diff_state_dispose;
  object_class->get_property = ovi_diff_state_get_property;

  properties[PROP_ACTIVE] = g_param_spec_boolean ("active", NULL, NULL, FALSE, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  properties[PROP_GOLDEN] = g_param_spec_string ("golden", NULL, NULL, NULL, ro);
  properties[PROP_MINE] = g_param_spec_string ("mine", NULL, NULL, NULL, ro);
  properties[PROP_RESULT] = g_param_spec_object ("result", NULL, NULL, OVI_TYPE_DIFF_RESULT, ro);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_diff_state_init (OviDiffState *self)
{
}

OviDiffState *
ovi_diff_state_new (void)
{
  return g_object_new (OVI_TYPE_DIFF_STATE, NULL);
}
