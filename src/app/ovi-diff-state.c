/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ovi-diff-state.h"

/* One diff at a time: starting another, clearing it or disposing cancels
 * the one running, and a result that arrives for a cancelled run is
 * dropped (its cancellable is no longer the state's).  The settings
 * (tolerance, map file) are those `diff --rtol --atol --map` takes; they
 * stay for the next run, and changing them runs the diff again. Each
 * property is notified when its value changes, and only then. */
struct _OviDiffState
{
  GObject parent_instance;

  GCancellable *cancellable; /* the run, while it runs */
  OviDiffResult *result;
  char *error;
  char *mine, *golden;
  double rtol, atol; /* NAN: by dtype, as the CLI's default */
  char *map;
  OviDumpFolder *mine_folder; /* mine as the window loaded it, or NULL */
  gulong loaded_handler;      /* while the run waits for it to load */
  gboolean mine_partial;      /* its load was cancelled: mine is scanned */
};

G_DEFINE_FINAL_TYPE (OviDiffState, ovi_diff_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_ACTIVE,
  PROP_ATOL,
  PROP_ERROR,
  PROP_GOLDEN,
  PROP_MAP,
  PROP_MINE,
  PROP_RESULT,
  PROP_RTOL,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_string (OviDiffState *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  if (prop == PROP_GOLDEN)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
}

static void
set_result (OviDiffState *self, OviDiffResult *result)
{
  if (g_set_object (&self->result, result))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
}

static void
stop_waiting (OviDiffState *self)
{
  g_clear_signal_handler (&self->loaded_handler, self->mine_folder);
}

/* Forgets the run (cancelled) and what it gave. */
static void
stop (OviDiffState *self)
{
  stop_waiting (self);
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }
  set_result (self, NULL);
  set_string (self, &self->error, NULL, PROP_ERROR);
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
      g_object_freeze_notify (G_OBJECT (self));
      g_clear_object (&self->cancellable);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
      if (result != NULL)
        set_result (self, result);
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_string (self, &self->error, error->message, PROP_ERROR);
      g_object_thaw_notify (G_OBJECT (self));
    }
  g_object_unref (data->cancellable);
  g_free (data);
}

/* Whether mine is read from the folder the window loaded rather than
 * scanned again: the folder is mine's, and its load went to the end. */
static gboolean
mine_from_folder (OviDiffState *self)
{
  return self->mine_folder != NULL && !self->mine_partial &&
         g_strcmp0 (ovi_dump_folder_get_root_path (self->mine_folder), self->mine) == 0;
}

/* Starts the diff itself; the run may be waiting already (its cancellable
 * set, "running" notified). */
static void
start_diff (OviDiffState *self)
{
  g_autoptr (OviDiff) diff = ovi_diff_new (self->mine, self->golden);
  g_autoptr (GError) error = NULL;
  gboolean waited = self->cancellable != NULL;
  RunData *data;

  ovi_diff_set_tolerance (diff, self->rtol, self->atol);
  if (self->map != NULL && !ovi_diff_set_mapping_file (diff, self->map, &error))
    {
      if (waited)
        {
          g_clear_object (&self->cancellable);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
        }
      set_string (self, &self->error, error->message, PROP_ERROR);
      return;
    }
  if (mine_from_folder (self))
    ovi_diff_set_mine_folder (diff, self->mine_folder);
  if (!waited)
    self->cancellable = g_cancellable_new ();
  data = g_new0 (RunData, 1);
  data->self = self;
  data->cancellable = g_object_ref (self->cancellable);
  g_object_add_weak_pointer (G_OBJECT (self), (gpointer *) &data->self);
  ovi_diff_run_async (diff, self->cancellable, run_done, data);
  if (!waited)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* The folder's load ended, or was cancelled (it then lists only part of
 * mine, which is scanned instead). */
static void
mine_folder_changed (OviDiffState *self)
{
  if (ovi_dump_folder_get_cancelled (self->mine_folder))
    self->mine_partial = TRUE;
  if (ovi_dump_folder_get_loading (self->mine_folder))
    return;
  stop_waiting (self);
  g_object_freeze_notify (G_OBJECT (self));
  start_diff (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Runs mine against golden with the settings, in place of any run: once
 * the window's folder of mine has loaded, when it is loading. */
static void
run (OviDiffState *self)
{
  stop (self);
  if (mine_from_folder (self) && ovi_dump_folder_get_loading (self->mine_folder))
    {
      self->cancellable = g_cancellable_new ();
      self->loaded_handler = g_signal_connect_swapped (self->mine_folder, "notify",
                                                       G_CALLBACK (mine_folder_changed), self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
      return;
    }
  start_diff (self);
}

/**
 * ovi_diff_state_set_mine_folder:
 * @folder: (nullable): the run the window shows, as it loaded it
 *
 * The diffs to come read mine from @folder, when it is mine (its root is
 * the path given as mine) and its load is not cancelled, instead of
 * scanning it again; a run started while it loads waits for the load to
 * end. %NULL: mine is scanned. Given before ovi_diff_state_start() or
 * ovi_diff_state_rerun(); the run under way is left as it is.
 */
void
ovi_diff_state_set_mine_folder (OviDiffState *self, OviDumpFolder *folder)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));
  g_return_if_fail (folder == NULL || OVI_IS_DUMP_FOLDER (folder));

  if (folder == self->mine_folder)
    return;
  stop_waiting (self);
  g_set_object (&self->mine_folder, folder);
  self->mine_partial = folder != NULL && ovi_dump_folder_get_cancelled (folder);
}

/**
 * ovi_diff_state_start:
 * @mine: the run shown, a folder or one dump file
 * @golden: the run it is compared with: a dump folder, a dump file or a
 *   folder of .npy files
 *
 * Runs the diff with the settings the state has.
 */
void
ovi_diff_state_start (OviDiffState *self, const char *mine, const char *golden)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));
  g_return_if_fail (mine != NULL && golden != NULL);

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->mine, mine, PROP_MINE);
  set_string (self, &self->golden, golden, PROP_GOLDEN);
  run (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The same two runs with the same settings again (F5, Retry): nothing
 * when no diff was asked for. */
void
ovi_diff_state_rerun (OviDiffState *self)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));

  if (self->golden == NULL)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  run (self);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
set_double (OviDiffState *self, double *field, double value, guint prop)
{
  /* NAN (by dtype) equals NAN here. */
  if (*field == value || (isnan (*field) && isnan (value)))
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

/**
 * ovi_diff_state_set_settings:
 * @rtol: relative tolerance, or NAN for the default of each tensor's dtype
 * @atol: absolute tolerance, or NAN likewise
 * @map: (nullable): a map file of operator names, as `diff --map` reads
 *
 * Keeps the settings and, when a diff was asked for and they changed,
 * runs it again with them.
 */
void
ovi_diff_state_set_settings (OviDiffState *self, double rtol, double atol, const char *map)
{
  gboolean same;

  g_return_if_fail (OVI_IS_DIFF_STATE (self));

  same = (self->rtol == rtol || (isnan (self->rtol) && isnan (rtol))) &&
         (self->atol == atol || (isnan (self->atol) && isnan (atol))) &&
         g_strcmp0 (self->map, map) == 0;
  if (same)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  set_double (self, &self->rtol, rtol, PROP_RTOL);
  set_double (self, &self->atol, atol, PROP_ATOL);
  set_string (self, &self->map, map, PROP_MAP);
  ovi_diff_state_rerun (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Stops the run; what it found so far is not kept. */
void
ovi_diff_state_cancel (OviDiffState *self)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));

  if (self->cancellable == NULL)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  stop (self);
  set_string (self, &self->error, _ ("The comparison was cancelled"), PROP_ERROR);
  g_object_thaw_notify (G_OBJECT (self));
}

/* No diff: the page is hidden. The settings stay for the next one. */
void
ovi_diff_state_clear (OviDiffState *self)
{
  g_return_if_fail (OVI_IS_DIFF_STATE (self));

  g_object_freeze_notify (G_OBJECT (self));
  stop (self);
  g_clear_object (&self->mine_folder);
  set_string (self, &self->mine, NULL, PROP_MINE);
  set_string (self, &self->golden, NULL, PROP_GOLDEN);
  g_object_thaw_notify (G_OBJECT (self));
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

double
ovi_diff_state_get_rtol (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NAN);
  return self->rtol;
}

double
ovi_diff_state_get_atol (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NAN);
  return self->atol;
}

const char *
ovi_diff_state_get_map (OviDiffState *self)
{
  g_return_val_if_fail (OVI_IS_DIFF_STATE (self), NULL);
  return self->map;
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
    case PROP_ATOL:
      g_value_set_double (value, self->atol);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_GOLDEN:
      g_value_set_string (value, self->golden);
      break;
    case PROP_MAP:
      g_value_set_string (value, self->map);
      break;
    case PROP_MINE:
      g_value_set_string (value, self->mine);
      break;
    case PROP_RESULT:
      g_value_set_object (value, self->result);
      break;
    case PROP_RTOL:
      g_value_set_double (value, self->rtol);
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

  stop_waiting (self);
  g_clear_object (&self->mine_folder);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->result);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->mine, g_free);
  g_clear_pointer (&self->golden, g_free);
  g_clear_pointer (&self->map, g_free);
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
  properties[PROP_ATOL] =
      g_param_spec_double ("atol", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  properties[PROP_GOLDEN] = g_param_spec_string ("golden", NULL, NULL, NULL, ro);
  properties[PROP_MAP] = g_param_spec_string ("map", NULL, NULL, NULL, ro);
  properties[PROP_MINE] = g_param_spec_string ("mine", NULL, NULL, NULL, ro);
  properties[PROP_RESULT] = g_param_spec_object ("result", NULL, NULL, OVI_TYPE_DIFF_RESULT, ro);
  properties[PROP_RTOL] =
      g_param_spec_double ("rtol", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_diff_state_init (OviDiffState *self)
{
  self->rtol = self->atol = NAN;
}

OviDiffState *
ovi_diff_state_new (void)
{
  return g_object_new (OVI_TYPE_DIFF_STATE, NULL);
}
