/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-op-index.h"

/* The index follows the folder's files as they arrive (a batch at a time,
 * so that no turn of the caller's main loop goes through all of them), and
 * says it changed once the folder has loaded, or when a followed folder's
 * files arrive later: the lists a window shows from it change then, not at
 * every batch. */
struct _OviOpIndex
{
  GObject parent_instance;

  OviDumpFolder *folder;
  GHashTable *op_files;       /* op name's file form -> GHashTable (iteration -> OviDumpFile,
                               * earliest) */
  GHashTable *op_names;       /* op name's file form -> the name shown, a header's if any */
  GHashTable *iteration_set;  /* every iteration indexed, owns the strings */
  GPtrArray *iterations;      /* the set's strings, sorted by number, as of the last change */
  GPtrArray *names;           /* the names shown, sorted, as of the last change */
  GHashTable *first_position; /* "name\niteration" -> 1 + position of its first record, as
                               * of the last ovi_op_index_dup_overflowed_ops() */
  GPtrArray *unlinked;        /* units of the records no op dump file matches, earliest first,
                               * as of the last ovi_op_index_dup_overflowed_ops() */
  gboolean stale;             /* files arrived since the lists were made */
};

G_DEFINE_FINAL_TYPE (OviOpIndex, ovi_op_index, G_TYPE_OBJECT)

enum
{
  CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static const char *
iteration_of (OviDumpFile *file)
{
  const char *iteration = ovi_dump_file_get_iteration (file);

  return iteration ? iteration : "";
}

static int
compare_iterations (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char **) a;
  const char *y = *(const char **) b;
  guint64 nx = g_ascii_strtoull (x, NULL, 10);
  guint64 ny = g_ascii_strtoull (y, NULL, 10);

  if (nx != ny)
    return nx < ny ? -1 : 1;
  return g_strcmp0 (x, y);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

static void
index_files (OviOpIndex *self, GListModel *files, guint position, guint n)
{
  for (guint i = position; i < position + n; i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      const char *name = ovi_dump_file_get_op_name (file);
      const char *iteration = iteration_of (file);
      g_autofree char *form = NULL;
      GHashTable *by_iteration;
      OviDumpFile *existing;

      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP || name == NULL)
        continue;
      form = ovi_file_name_form (name);
      by_iteration = g_hash_table_lookup (self->op_files, form);
      if (by_iteration == NULL)
        {
          by_iteration = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
          g_hash_table_insert (self->op_files, g_strdup (form), by_iteration);
        }
      /* A header's name ("a/b") over the form a file name gives it ("a_b"). */
      if (!g_hash_table_contains (self->op_names, form) || !g_str_equal (name, form))
        g_hash_table_insert (self->op_names, g_strdup (form), g_strdup (name));
      existing = g_hash_table_lookup (by_iteration, iteration);
      if (existing == NULL ||
          ovi_dump_file_get_timestamp (file) < ovi_dump_file_get_timestamp (existing))
        g_hash_table_insert (by_iteration, g_strdup (iteration), g_object_ref (file));
      if (!g_hash_table_contains (self->iteration_set, iteration))
        g_hash_table_add (self->iteration_set, g_strdup (iteration));
    }
  self->stale = TRUE;
}

static void
clear (OviOpIndex *self)
{
  g_hash_table_remove_all (self->op_files);
  g_hash_table_remove_all (self->op_names);
  g_hash_table_remove_all (self->iteration_set);
  g_hash_table_remove_all (self->first_position);
  g_ptr_array_set_size (self->iterations, 0);
  g_ptr_array_set_size (self->names, 0);
}

/* The sorted lists; then the index says it changed. */
static void
update (OviOpIndex *self)
{
  GHashTableIter iter;
  gpointer key;

  self->stale = FALSE;
  g_ptr_array_set_size (self->iterations, 0);
  g_hash_table_iter_init (&iter, self->iteration_set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (self->iterations, key);
  g_ptr_array_sort (self->iterations, compare_iterations);
  g_ptr_array_set_size (self->names, 0);
  g_hash_table_iter_init (&iter, self->op_names);
  while (g_hash_table_iter_next (&iter, NULL, &key))
    g_ptr_array_add (self->names, key);
  g_ptr_array_sort (self->names, compare_strings);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
files_changed (OviOpIndex *self, guint position, guint removed, guint added, GListModel *files)
{
  /* A folder only appends while it scans, and empties itself to rescan. */
  if (removed > 0)
    {
      clear (self);
      index_files (self, files, 0, g_list_model_get_n_items (files));
    }
  else
    index_files (self, files, position, added);
  /* A followed folder's files, after its load. */
  if (!ovi_dump_folder_get_loading (self->folder))
    update (self);
}

static void
loading_changed (OviOpIndex *self)
{
  if (!ovi_dump_folder_get_loading (self->folder))
    update (self);
}

static void
ovi_op_index_dispose (GObject *object)
{
  OviOpIndex *self = OVI_OP_INDEX (object);

  if (self->folder != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->folder, self);
      g_signal_handlers_disconnect_by_data (ovi_dump_folder_get_files (self->folder), self);
    }
  g_clear_object (&self->folder);
  G_OBJECT_CLASS (ovi_op_index_parent_class)->dispose (object);
}

static void
ovi_op_index_finalize (GObject *object)
{
  OviOpIndex *self = OVI_OP_INDEX (object);

  g_hash_table_unref (self->op_files);
  g_hash_table_unref (self->op_names);
  g_ptr_array_unref (self->iterations);
  g_ptr_array_unref (self->names);
  g_hash_table_unref (self->iteration_set);
  g_hash_table_unref (self->first_position);
  g_ptr_array_unref (self->unlinked);
  G_OBJECT_CLASS (ovi_op_index_parent_class)->finalize (object);
}

static void
ovi_op_index_class_init (OviOpIndexClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ovi_op_index_dispose;
  object_class->finalize = ovi_op_index_finalize;

  /**
   * OviOpIndex::changed:
   *
   * The lists changed: the folder has loaded, or files of a followed
   * folder arrived.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
}

static void
ovi_op_index_init (OviOpIndex *self)
{
  self->op_files =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  self->op_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->iteration_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->first_position = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->unlinked = g_ptr_array_new_with_free_func (g_free);
  self->iterations = g_ptr_array_new ();
  self->names = g_ptr_array_new ();
}

/**
 * ovi_op_index_new:
 *
 * Indexes the files @folder holds and follows the ones it gets.
 */
OviOpIndex *
ovi_op_index_new (OviDumpFolder *folder)
{
  OviOpIndex *self = g_object_new (OVI_TYPE_OP_INDEX, NULL);
  GListModel *files;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), NULL);

  self->folder = g_object_ref (folder);
  files = ovi_dump_folder_get_files (folder);
  index_files (self, files, 0, g_list_model_get_n_items (files));
  g_signal_connect_swapped (files, "items-changed", G_CALLBACK (files_changed), self);
  g_signal_connect_swapped (folder, "notify::loading", G_CALLBACK (loading_changed), self);
  if (!ovi_dump_folder_get_loading (folder))
    update (self);
  return self;
}

OviDumpFolder *
ovi_op_index_get_folder (OviOpIndex *self)
{
  g_return_val_if_fail (OVI_IS_OP_INDEX (self), NULL);
  return self->folder;
}

/**
 * ovi_op_index_get_iterations:
 *
 * Returns: (transfer none) (element-type utf8): every iteration that ran
 *   an operator, by number, as of the last #OviOpIndex::changed
 */
GPtrArray *
ovi_op_index_get_iterations (OviOpIndex *self)
{
  g_return_val_if_fail (OVI_IS_OP_INDEX (self), NULL);
  return self->iterations;
}

/**
 * ovi_op_index_get_op_names:
 *
 * Returns: (transfer none) (element-type utf8): every operator's name, as
 *   its header gives it when one does, sorted, as of the last
 *   #OviOpIndex::changed
 */
GPtrArray *
ovi_op_index_get_op_names (OviOpIndex *self)
{
  g_return_val_if_fail (OVI_IS_OP_INDEX (self), NULL);
  return self->names;
}

/**
 * ovi_op_index_get_shown_name:
 *
 * Returns: the name the index lists for @op_name, which a file name may
 *   give in its file form ("a_b" for "a/b"); @op_name when it has none
 */
const char *
ovi_op_index_get_shown_name (OviOpIndex *self, const char *op_name)
{
  g_autofree char *form = ovi_file_name_form (op_name);
  const char *shown = g_hash_table_lookup (self->op_names, form);

  return shown ? shown : op_name;
}

static GHashTable *
files_of_op (OviOpIndex *self, const char *name)
{
  g_autofree char *form = name ? ovi_file_name_form (name) : NULL;

  return form ? g_hash_table_lookup (self->op_files, form) : NULL;
}

/**
 * ovi_op_index_lookup:
 *
 * Returns: (transfer none) (nullable): the op dump file of @op_name (as a
 *   header or a file name gives it) in @iteration, the earliest of them,
 *   or %NULL when the iteration did not run it
 */
OviDumpFile *
ovi_op_index_lookup (OviOpIndex *self, const char *op_name, const char *iteration)
{
  GHashTable *by_iteration;

  g_return_val_if_fail (OVI_IS_OP_INDEX (self), NULL);

  by_iteration = files_of_op (self, op_name);
  return by_iteration && iteration ? g_hash_table_lookup (by_iteration, iteration) : NULL;
}

/**
 * ovi_op_index_dup_tensor_labels:
 *
 * Returns: (transfer full) (element-type utf8): every tensor label
 *   ("input 0", "output 0") the operator has in any iteration, sorted
 */
GPtrArray *
ovi_op_index_dup_tensor_labels (OviOpIndex *self, const char *op_name)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *by_iteration = files_of_op (self, op_name);
  GHashTableIter iter;
  gpointer value;

  if (by_iteration == NULL)
    return labels;
  g_hash_table_iter_init (&iter, by_iteration);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GPtrArray *tensors = ovi_dump_file_get_tensors (value);

      for (guint i = 0; tensors != NULL && i < tensors->len; i++)
        {
          char *label = ovi_tensor_dup_label (g_ptr_array_index (tensors, i));

          if (g_hash_table_contains (seen, label))
            {
              g_free (label);
              continue;
            }
          g_hash_table_add (seen, label);
          g_ptr_array_add (labels, label);
        }
    }
  g_ptr_array_sort (labels, compare_strings);
  return labels;
}

/* "\nunit\niteration": no op name holds a line break, so a unit's spot is
 * never an operator's. */
static char *
unlinked_spot (const char *unit, const char *iteration)
{
  return g_strconcat ("\n", unit, "\n", iteration, NULL);
}

/* A record no op dump file matches: its unit's row, and its position. */
static void
note_unlinked (OviOpIndex *self, OviOverflowRecord *record)
{
  const char *unit = ovi_overflow_record_get_unit_name (record);
  char *spot = unlinked_spot (unit, iteration_of (ovi_overflow_record_get_file (record)));

  if (!g_hash_table_contains (self->first_position, spot))
    g_hash_table_insert (self->first_position, spot,
                         GUINT_TO_POINTER (ovi_overflow_record_get_position (record) + 1));
  else
    g_free (spot);
  if (!g_ptr_array_find_with_equal_func (self->unlinked, unit, g_str_equal, NULL))
    g_ptr_array_add (self->unlinked, g_strdup (unit));
}

/**
 * ovi_op_index_dup_overflowed_ops:
 *
 * Where overflows happened: also notes, for
 * ovi_op_index_get_first_position(), the first record of each operator in
 * each iteration, from the records as they are numbered now, and for
 * ovi_op_index_get_unlinked_units() the records no op dump file matches
 * (an AICPU record whose file is missing), by their unit.
 *
 * Returns: (transfer full) (element-type utf8): the operators that have an
 *   overflow record, the earliest overflow's first
 */
GPtrArray *
ovi_op_index_dup_overflowed_ops (OviOpIndex *self)
{
  GListModel *records = ovi_dump_folder_get_records (self->folder);
  GPtrArray *ops = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_remove_all (self->first_position);
  g_ptr_array_set_size (self->unlinked, 0);
  for (guint i = 0, n = g_list_model_get_n_items (records); i < n; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *op = ovi_overflow_record_get_op (record);
      const char *name;
      char *spot;

      if (op == NULL)
        {
          note_unlinked (self, record);
          continue;
        }
      name = ovi_op_index_get_shown_name (self, ovi_dump_file_get_op_name (op));
      spot = g_strconcat (name, "\n", iteration_of (op), NULL);
      if (!g_hash_table_contains (self->first_position, spot))
        g_hash_table_insert (self->first_position, spot,
                             GUINT_TO_POINTER (ovi_overflow_record_get_position (record) + 1));
      else
        g_free (spot);
      if (g_hash_table_contains (seen, name))
        continue;
      g_hash_table_add (seen, (gpointer) name);
      g_ptr_array_add (ops, g_strdup (name));
    }
  return ops;
}

/**
 * ovi_op_index_get_first_position:
 *
 * Returns: the position in first-overflow order, counted from 1, of the
 *   operator's first overflow record in @iteration, as of the last
 *   ovi_op_index_dup_overflowed_ops(); 0 when it has none
 */
guint
ovi_op_index_get_first_position (OviOpIndex *self, const char *op_name, const char *iteration)
{
  g_autofree char *spot = NULL;

  g_return_val_if_fail (OVI_IS_OP_INDEX (self), 0);

  spot = g_strconcat (ovi_op_index_get_shown_name (self, op_name), "\n", iteration, NULL);
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->first_position, spot));
}

/**
 * ovi_op_index_get_unlinked_units:
 *
 * Returns: (transfer none) (element-type utf8): the units ("AICPU") of the
 *   overflow records that no op dump file matches, the earliest record's
 *   first, as of the last ovi_op_index_dup_overflowed_ops()
 */
GPtrArray *
ovi_op_index_get_unlinked_units (OviOpIndex *self)
{
  g_return_val_if_fail (OVI_IS_OP_INDEX (self), NULL);
  return self->unlinked;
}

/**
 * ovi_op_index_get_unlinked_position:
 *
 * Returns: the position in first-overflow order, counted from 1, of the
 *   first record of @unit in @iteration that no op dump file matches, as
 *   of the last ovi_op_index_dup_overflowed_ops(); 0 when it has none
 */
guint
ovi_op_index_get_unlinked_position (OviOpIndex *self, const char *unit, const char *iteration)
{
  g_autofree char *spot = NULL;

  g_return_val_if_fail (OVI_IS_OP_INDEX (self), 0);

  spot = unlinked_spot (unit, iteration);
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->first_position, spot));
}
