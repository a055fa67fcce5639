/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "ovi-diff-private.h"
#include "ovi-dump-file.h"
#include "ovi-error.h"
#include "ovi-file-name.h"
#include "ovi-overflow-record.h"
#include "ovi-path.h"
#include "ovi-problem.h"

/* The two runs as read: each side a dump folder at any level, one op dump
 * file, or a folder of .npy files; its operators grouped by device, model
 * and iteration folder in run order; the groups of the two sides paired,
 * then the operators of each pair matched. */

void
ovi_diff_source_free (OviDiffSource *s)
{
  if (s == NULL)
    return;
  g_clear_pointer (&s->tensors, g_ptr_array_unref);
  g_clear_pointer (&s->files, g_ptr_array_unref);
  g_free (s->npy_path);
  g_free (s);
}

/**
 * ovi_diff_source_keep:
 *
 * Returns: (transfer full): a copy of @source holding its tensors' dump
 * files, which a tensor does not: they stay readable after the run's
 * folder has gone.
 */
OviDiffSource *
ovi_diff_source_keep (const OviDiffSource *source)
{
  OviDiffSource *s = g_new0 (OviDiffSource, 1);

  s->kind = source->kind;
  s->index = source->index;
  s->npy_path = g_strdup (source->npy_path);
  s->tensors = g_ptr_array_new_with_free_func (g_object_unref);
  s->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; source->tensors != NULL && i < source->tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (source->tensors, i);
      OviDumpFile *file = ovi_tensor_get_file (t);

      g_ptr_array_add (s->tensors, g_object_ref (t));
      if (file != NULL)
        g_ptr_array_add (s->files, g_object_ref (file));
    }
  return s;
}

static OviDiffSource *
source_new (OviTensorKind kind, guint index)
{
  OviDiffSource *s = g_new0 (OviDiffSource, 1);

  s->kind = kind;
  s->index = index;
  s->tensors = g_ptr_array_new_with_free_func (g_object_unref);
  return s;
}

static void
side_op_free (OviDiffSideOp *op)
{
  g_free (op->name);
  g_free (op->key);
  g_free (op->op_type);
  g_free (op->path);
  g_free (op->problem);
  g_clear_pointer (&op->inputs, g_ptr_array_unref);
  g_clear_pointer (&op->outputs, g_ptr_array_unref);
  g_clear_object (&op->file);
  g_clear_object (&op->last_file);
  g_free (op);
}

/**
 * ovi_diff_side_op_release:
 *
 * Called once @op was compared: when no other comparison reads it, its
 * tensors and dump files go, so that a diff holds both runs' files only
 * for the operators not yet compared (#39).
 */
void
ovi_diff_side_op_release (OviDiffSideOp *op)
{
  if (op == NULL || !g_atomic_int_dec_and_test (&op->uses))
    return;
  g_clear_pointer (&op->inputs, g_ptr_array_unref);
  g_clear_pointer (&op->outputs, g_ptr_array_unref);
  g_clear_object (&op->file);
  g_clear_object (&op->last_file);
}

static OviDiffSideOp *
side_op_new (const char *name)
{
  OviDiffSideOp *op = g_new0 (OviDiffSideOp, 1);

  op->name = g_strdup (name);
  op->key = ovi_file_name_form (name);
  op->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_diff_source_free);
  op->outputs = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_diff_source_free);
  return op;
}

static void
group_free (OviDiffGroup *g)
{
  g_free (g->session);
  g_free (g->device);
  g_free (g->model);
  g_free (g->iteration);
  g_free (g->path);
  g_ptr_array_unref (g->ops);
  g_clear_pointer (&g->joined, g_ptr_array_unref);
  g_free (g);
}

void
ovi_diff_side_free (OviDiffSide *side)
{
  if (side == NULL)
    return;
  g_free (side->root);
  g_free (side->base);
  g_ptr_array_unref (side->groups);
  g_ptr_array_unref (side->problems);
  g_clear_object (&side->folder);
  g_free (side);
}

/* The source of (kind, index) in @list, made when missing; the list stays
 * sorted by index. */
static OviDiffSource *
source_for (GPtrArray *list, OviTensorKind kind, guint index)
{
  guint at = 0;
  OviDiffSource *s;

  for (; at < list->len; at++)
    {
      s = g_ptr_array_index (list, at);
      if (s->index == index)
        return s;
      if (s->index > index)
        break;
    }
  s = source_new (kind, index);
  g_ptr_array_insert (list, at, s);
  return s;
}

static int
compare_ops (gconstpointer a, gconstpointer b)
{
  const OviDiffSideOp *x = *(OviDiffSideOp *const *) a, *y = *(OviDiffSideOp *const *) b;

  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  return g_strcmp0 (x->path, y->path);
}

static OviDiffGroup *
group_for (GHashTable *groups,
           GPtrArray *order,
           const char *session,
           const char *device,
           const char *model,
           const char *iteration,
           const char *path)
{
  g_autofree char *key =
      g_strdup_printf ("%s\x1f%s\x1f%s\x1f%s", session, device, model, iteration);
  OviDiffGroup *g = g_hash_table_lookup (groups, key);

  if (g == NULL)
    {
      g = g_new0 (OviDiffGroup, 1);
      g->session = g_strdup (session);
      g->device = g_strdup (device);
      g->model = g_strdup (model);
      g->iteration = g_strdup (iteration);
      g->path = g_strdup (path);
      g->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) side_op_free);
      g_hash_table_insert (groups, g_steal_pointer (&key), g);
      g_ptr_array_add (order, g);
    }
  return g;
}

static OviDiffSideOp *
op_from_dump (OviDumpFile *file)
{
  const char *name = ovi_dump_file_get_op_name (file);
  const OviFileName *fn = ovi_dump_file_get_file_name (file);
  OviDiffSideOp *op;

  /* The header's name, the file name's where the header has none. */
  if (name == NULL || *name == '\0')
    name = fn && fn->op_name ? fn->op_name : ovi_dump_file_get_name (file);
  op = side_op_new (name);
  op->op_type = g_strdup (ovi_dump_file_get_op_type (file));
  op->path = g_strdup (ovi_dump_file_get_path (file));
  op->file = g_object_ref (file);
  op->order = ovi_dump_file_get_timestamp (file);
  /* A statistics-mode dump is compared by its statistics
   * (ovi-diff-tensor.c). */
  /* Its tensors are made when it is compared (ovi_diff_side_op_fill()):
   * both runs' tensors at once were a third of a diff's peak (#39). */
  op->unfilled = TRUE;
  return op;
}

/**
 * ovi_diff_side_op_fill:
 *
 * Makes the sources of an op read from a dump file, once, on any thread.
 */
void
ovi_diff_side_op_fill (OviDiffSideOp *op)
{
  static GMutex lock;
  GPtrArray *tensors;

  g_mutex_lock (&lock);
  if (!op->unfilled)
    {
      g_mutex_unlock (&lock);
      return;
    }
  op->unfilled = FALSE;
  tensors = ovi_dump_file_get_tensors (op->file);
  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (t);
      OviDiffSource *s;

      if (kind != OVI_TENSOR_INPUT && kind != OVI_TENSOR_OUTPUT)
        continue;
      /* FFTS+ slices: the same index once per slice, in thread order. */
      s = source_for (kind == OVI_TENSOR_INPUT ? op->inputs : op->outputs, kind,
                      ovi_tensor_get_index (t));
      g_ptr_array_add (s->tensors, g_object_ref (t));
    }
  g_mutex_unlock (&lock);
}

/* An op dump file that could not be read is still its operator: not
 * comparable, with the reason, rather than "only in the other run". */
static void
add_unreadable_op (OviDiffSide *side, GHashTable *groups, OviProblem *problem)
{
  const char *file = ovi_problem_get_file (problem);
  g_autofree char *base = file ? g_path_get_basename (file) : NULL;
  g_autofree char *dir = NULL, *path = NULL;
  OviFileName fn = { 0 };
  char *levels[4];
  OviDiffSideOp *op;
  OviDiffGroup *g;

  if (base == NULL || !ovi_file_name_parse (base, &fn) || fn.kind != OVI_FILE_KIND_OP_DUMP)
    {
      ovi_file_name_clear (&fn);
      return;
    }
  /* As the dump files' paths: below the opened folder. */
  path = ovi_diff_side_path (side, file);
  ovi_path_infer_hierarchy (path, levels);
  dir = g_path_get_dirname (path);
  g = group_for (groups, side->groups, levels[0], levels[1], levels[2], levels[3], dir);
  op = side_op_new (fn.op_name);
  op->op_type = g_strdup (fn.op_type);
  op->path = g_steal_pointer (&path);
  op->order = fn.timestamp;
  op->problem = g_strdup (ovi_problem_get_message (problem));
  op->unreadable = TRUE;
  g_ptr_array_add (g->ops, op);
  for (guint i = 0; i < 4; i++)
    g_free (levels[i]);
  ovi_file_name_clear (&fn);
}

/* A scanned run's operators, from its folder's @files, @records and
 * @problems (the side's own scan, or a snapshot of a folder loaded
 * before: ovi_diff_side_new_for_folder()). */
static void
load_dump_side (OviDiffSide *side, GListModel *files, GListModel *records, GListModel *problems)
{
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_file = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) file = g_list_model_get_item (files, i);
      g_autofree char *dir = NULL;
      OviDiffGroup *g;
      OviDiffSideOp *op;

      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP)
        continue;
      dir = g_path_get_dirname (ovi_dump_file_get_path (file));
      g = group_for (groups, side->groups, ovi_dump_file_get_time (file) ?: "",
                     ovi_dump_file_get_device (file) ?: "", ovi_dump_file_get_model (file) ?: "",
                     ovi_dump_file_get_iteration (file) ?: "", dir);
      op = op_from_dump (file);
      g_ptr_array_add (g->ops, op);
      g_hash_table_insert (by_file, file, op);
    }
  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_op (r);
      OviDiffSideOp *op = file ? g_hash_table_lookup (by_file, file) : NULL;

      if (op)
        op->overflows++;
    }
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      OviProblem *p = g_list_model_get_item (problems, i);

      add_unreadable_op (side, groups, p);
      g_ptr_array_add (side->problems, p);
    }
}

/* The first @n parts joined with dots. */
static char *
join_first (GStrv parts, guint n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? "." : "", parts[i]);
  return g_string_free (s, FALSE);
}

/* "{op_name}.{output_index}.{timestamp}.npy" (the vendor's golden files)
 * or "{dump file name}.{input|output}.{i}.npy" (what convert writes). */
static gboolean
parse_npy_name (
    const char *base, char **name, OviTensorKind *kind, guint *index, guint64 *order, char **type)
{
  g_auto (GStrv) parts = NULL;
  guint n;
  OviFileName fn = { 0 };

  if (!g_str_has_suffix (base, ".npy"))
    return FALSE;
  parts = g_strsplit (base, ".", -1);
  n = g_strv_length (parts);
  if (n >= 4 && (g_str_equal (parts[n - 3], "input") || g_str_equal (parts[n - 3], "output")))
    {
      g_autofree char *dump = NULL;
      char *end;

      *index = strtoul (parts[n - 2], &end, 10);
      if (*end || !*parts[n - 2])
        return FALSE;
      *kind = g_str_equal (parts[n - 3], "input") ? OVI_TENSOR_INPUT : OVI_TENSOR_OUTPUT;
      dump = join_first (parts, n - 3);
      if (ovi_file_name_parse (dump, &fn) && fn.kind == OVI_FILE_KIND_OP_DUMP)
        {
          *name = g_strdup (fn.op_name);
          *type = g_strdup (fn.op_type);
          *order = fn.timestamp;
        }
      else
        {
          *name = g_steal_pointer (&dump);
          *type = NULL;
          *order = 0;
        }
      ovi_file_name_clear (&fn);
      return TRUE;
    }
  if (n >= 4)
    {
      char *end1, *end2;
      guint64 ts = g_ascii_strtoull (parts[n - 2], &end1, 10);
      guint idx = strtoul (parts[n - 3], &end2, 10);

      if (*end1 || *end2 || !*parts[n - 2] || !*parts[n - 3])
        return FALSE;
      *name = join_first (parts, n - 3);
      *kind = OVI_TENSOR_OUTPUT;
      *index = idx;
      *order = ts;
      *type = NULL;
      return TRUE;
    }
  return FALSE;
}

static void
add_npy_problem (OviDiffSide *side, const char *relative, const char *message)
{
  g_autoptr (GError) error = g_error_new_literal (OVI_NPY_ERROR, OVI_NPY_ERROR_HEADER, message);
  g_ptr_array_add (side->problems, ovi_problem_new (relative, error));
}

/* How far below a golden root .npy files are looked for. */
#define NPY_MAX_DEPTH 16

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The sorted names in @dir, or NULL with errno set. */
static GPtrArray *
list_names (const char *dir)
{
  GPtrArray *names;
  DIR *d = opendir (dir);
  struct dirent *entry;

  if (d == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((entry = readdir (d)))
    if (!g_str_equal (entry->d_name, ".") && !g_str_equal (entry->d_name, ".."))
      g_ptr_array_add (names, g_strdup (entry->d_name));
  closedir (d);
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* Whether the symbolic link @path in the golden run is read: a link to a
 * regular file within @root_real is; a link named *.npy or to a folder
 * that is not is a problem. */
static gboolean
npy_link_followed (OviDiffSide *side, const char *path, const char *rel, const char *root_real)
{
  g_autofree char *real = realpath (path, NULL);
  g_autofree char *target = g_file_read_link (path, NULL);
  g_autofree char *shown = g_filename_display_name (target ? target : path);
  g_autofree char *message = NULL;
  gsize n = root_real ? strlen (root_real) : 0;

  if (real && root_real && strncmp (real, root_real, n) == 0 &&
      (real[n] == G_DIR_SEPARATOR || n == 1) && g_file_test (real, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  /* Other files than .npy are not read, linked or not. */
  if (!g_str_has_suffix (path, ".npy") && !(real && g_file_test (real, G_FILE_TEST_IS_DIR)))
    return FALSE;
  if (real == NULL)
    message = g_strdup_printf (_ ("a symbolic link to “%s”, which does not exist"), shown);
  else if (g_file_test (real, G_FILE_TEST_IS_DIR))
    message = g_strdup_printf (_ ("a symbolic link to the folder “%s”: not followed"), shown);
  else
    message = g_strdup_printf (_ ("a symbolic link to “%s”, outside the opened folder: not "
                                  "followed"),
                               shown);
  add_npy_problem (side, rel, message);
  return FALSE;
}

/* A folder of .npy files, read below as far as it goes: one group per
 * folder, its last three names taken as device, model and iteration.
 * Nothing is left out in silence: a folder that cannot be read, one
 * below the depth limit and a link that is not followed are problems.
 * With @only, just that entry of @dir (one .npy file given). */
static void
scan_npy_dir (OviDiffSide *side,
              const char *dir,
              const char *relative,
              const char *only,
              const char *root_real,
              GHashTable *groups,
              guint depth,
              GCancellable *cancellable)
{
  g_autoptr (GHashTable) execs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) names = NULL;
  OviDiffGroup *g = NULL;

  if (g_cancellable_is_cancelled (cancellable))
    return;
  if (depth > NPY_MAX_DEPTH)
    {
      g_autofree char *message =
          g_strdup_printf (_ ("more than %u folders deep: not read"), NPY_MAX_DEPTH);
      add_npy_problem (side, relative, message);
      return;
    }
  if (only)
    {
      names = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (names, g_strdup (only));
    }
  else if ((names = list_names (dir)) == NULL)
    {
      g_autofree char *message =
          g_strdup_printf (_ ("cannot read the folder: %s"), g_strerror (errno));
      add_npy_problem (side, *relative ? relative : ".", message);
      return;
    }
  for (guint i = 0; i < names->len; i++)
    {
      const char *base = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, base, NULL);
      g_autofree char *rel = *relative ? g_build_filename (relative, base, NULL) : g_strdup (base);
      g_autofree char *name = NULL, *type = NULL, *exec_key = NULL;
      OviTensorKind kind;
      guint index;
      guint64 order;
      OviDiffSideOp *op;
      OviDiffSource *s;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        {
          if (!npy_link_followed (side, path, rel, root_real))
            continue;
        }
      else if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          scan_npy_dir (side, path, rel, NULL, root_real, groups, depth + 1, cancellable);
          continue;
        }
      if (!g_str_has_suffix (base, ".npy"))
        {
          OviFileName fn = { 0 };
          /* A dump file among .npy files is not left out in silence. */
          if (ovi_file_name_parse (base, &fn) && fn.kind != OVI_FILE_KIND_NONE)
            add_npy_problem (side, rel,
                             _ ("a dump file in a folder of .npy files: not compared (compare "
                                "the dump folder on its own)"));
          ovi_file_name_clear (&fn);
          continue;
        }
      if (!parse_npy_name (base, &name, &kind, &index, &order, &type))
        {
          add_npy_problem (side, rel,
                           _ ("the name is neither {op_name}.{output_index}.{timestamp}.npy nor "
                              "{dump file}.{input|output}.{index}.npy"));
          continue;
        }
      if (g == NULL)
        {
          g_auto (GStrv) levels = g_strsplit (relative, G_DIR_SEPARATOR_S, -1);
          guint n = g_strv_length (levels);
          g_autofree char *key = g_strdup (relative);

          g = g_new0 (OviDiffGroup, 1);
          g->session = g_strdup ("");
          g->device = g_strdup (n >= 3 ? levels[n - 3] : "");
          g->model = g_strdup (n >= 2 ? levels[n - 2] : "");
          g->iteration = g_strdup (n >= 1 ? levels[n - 1] : "");
          g->path = g_strdup (dir);
          g->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) side_op_free);
          g_ptr_array_add (side->groups, g);
          g_hash_table_insert (groups, g_steal_pointer (&key), g);
        }
      /* One execution: the op name and its timestamp. */
      exec_key = g_strdup_printf ("%s\x1f%" G_GUINT64_FORMAT, name, order);
      op = g_hash_table_lookup (execs, exec_key);
      if (op == NULL)
        {
          op = side_op_new (name);
          op->op_type = g_steal_pointer (&type);
          op->path = g_strdup (path);
          op->order = order;
          op->no_inputs_kept = TRUE;
          g_ptr_array_add (g->ops, op);
          g_hash_table_insert (execs, g_strdup (exec_key), op);
        }
      if (kind == OVI_TENSOR_INPUT)
        op->no_inputs_kept = FALSE;
      s = source_for (kind == OVI_TENSOR_INPUT ? op->inputs : op->outputs, kind, index);
      if (s->npy_path)
        {
          add_npy_problem (side, rel, _ ("a second file for the same tensor: left out"));
          continue;
        }
      s->npy_path = g_steal_pointer (&path);
    }
}

/* Whether the folder @path holds .npy files rather than dump files: the
 * first folder holding either decides, .npy files first, a folder's files
 * before its subfolders' (what convert writes sits five levels down). 1 for .npy, 0 for
 * dump files, -1 for neither. */
static int
find_npy (const char *path, guint depth)
{
  g_autoptr (GPtrArray) names = depth <= NPY_MAX_DEPTH ? list_names (path) : NULL;
  gboolean dump = FALSE;

  for (guint i = 0; names && i < names->len; i++)
    {
      const char *entry = g_ptr_array_index (names, i);
      OviFileName fn = { 0 };

      if (g_str_has_suffix (entry, ".npy"))
        return 1;
      dump = dump || (ovi_file_name_parse (entry, &fn) && fn.kind != OVI_FILE_KIND_NONE);
      ovi_file_name_clear (&fn);
    }
  if (dump)
    return 0;
  for (guint i = 0; names && i < names->len; i++)
    {
      g_autofree char *child = g_build_filename (path, g_ptr_array_index (names, i), NULL);
      int found;

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK) &&
          (found = find_npy (child, depth + 1)) >= 0)
        return found;
    }
  return -1;
}

static gboolean
holds_npy (const char *path)
{
  if (g_str_has_suffix (path, ".npy") && !g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  return find_npy (path, 0) == 1;
}

static OviDiffSide *
finish_side (OviDiffSide *side, const char *path, GCancellable *cancellable, GError **error);

/**
 * ovi_diff_side_load:
 * @path: a dump folder at any level, one op dump file, or a folder of .npy
 *   files
 * @keep_folder: keep the folder read (my run's: the diff along edges
 *   builds its graphs from it); else it goes once read
 *
 * Reads one run: its operators grouped and in run order, and the files
 * that could not be read as problems.
 */
OviDiffSide *
ovi_diff_side_load (const char *path,
                    gboolean keep_folder,
                    GCancellable *cancellable,
                    GError **error)
{
  g_autoptr (OviDiffSide) side = g_new0 (OviDiffSide, 1);

  side->root = g_strdup (path);
  side->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  side->problems = g_ptr_array_new_with_free_func (g_object_unref);
  /* Decided now: the root may be gone by the time a problem is named. */
  side->base = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_strdup (path) : g_path_get_dirname (path);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_NOT_FOUND,
                   _ ("%s: no such file or folder"), path);
      return NULL;
    }
  if (holds_npy (path))
    {
      g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      side->npy = TRUE;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *root_real = realpath (path, NULL);
          scan_npy_dir (side, path, "", NULL, root_real, groups, 0, cancellable);
        }
      else
        {
          g_autofree char *dir = g_path_get_dirname (path);
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *root_real = realpath (dir, NULL);
          /* One .npy file: a group of one operator. */
          scan_npy_dir (side, dir, "", base, root_real, groups, 0, cancellable);
        }
    }
  else
    {
      g_autoptr (GFile) root = g_file_new_for_path (path);

      side->folder = ovi_dump_folder_new (root);
      ovi_dump_folder_set_analyze (side->folder, FALSE);
      ovi_dump_folder_set_keep_small_files (side->folder, FALSE);
      /* Records found in the data (no Opdebug file) would read every
       * tensor once more before the comparison reads them: the diff
       * compares NaN and Inf itself. */
      ovi_dump_folder_set_data_records (side->folder, FALSE);
      if (!ovi_dump_folder_load (side->folder, cancellable, error))
        return NULL;
      load_dump_side (side, ovi_dump_folder_get_files (side->folder),
                      ovi_dump_folder_get_records (side->folder),
                      ovi_dump_folder_get_problems (side->folder));
      /* Its lists, records and indexes go before the other side is read,
       * unless the graphs of my run are built from it. */
      if (!keep_folder)
        g_clear_object (&side->folder);
    }
  return finish_side (g_steal_pointer (&side), path, cancellable, error);
}

/**
 * ovi_diff_side_new_for_folder:
 * @path: the root of the folder the lists come from
 * @files: its files (#OviDumpFile), as its scan listed them
 * @records: its overflow records of overflow files (not those found in
 *   the data, which the side's own scan does not look for)
 * @problems: its problems (#OviProblem)
 * @folder: (nullable): the folder itself, for the graphs of the diff
 *   along edges (ovi_graph_dup_edges_for_iteration())
 *
 * One run from a folder scanned before, as ovi_diff_side_load() reads it
 * without scanning it again: the lists are a copy, which nothing changes
 * while the diff reads them.
 */
OviDiffSide *
ovi_diff_side_new_for_folder (const char *path,
                              GListModel *files,
                              GListModel *records,
                              GListModel *problems,
                              OviDumpFolder *folder,
                              GCancellable *cancellable,
                              GError **error)
{
  g_autoptr (OviDiffSide) side = g_new0 (OviDiffSide, 1);

  side->root = g_strdup (path);
  side->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  side->problems = g_ptr_array_new_with_free_func (g_object_unref);
  side->base = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_strdup (path) : g_path_get_dirname (path);
  side->folder = folder ? g_object_ref (folder) : NULL;
  load_dump_side (side, files, records, problems);
  return finish_side (g_steal_pointer (&side), path, cancellable, error);
}

/* What every side ends with: its operators in run order, or an error
 * when it holds none. */
static OviDiffSide *
finish_side (OviDiffSide *side_in, const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr (OviDiffSide) side = side_in;
  guint n_ops = 0;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  for (guint i = 0; i < side->groups->len; i++)
    {
      OviDiffGroup *g = g_ptr_array_index (side->groups, i);
      g_ptr_array_sort (g->ops, compare_ops);
      /* Those read: an unreadable file alone does not make a dump. */
      for (guint k = 0; k < g->ops->len; k++)
        n_ops += !((OviDiffSideOp *) g_ptr_array_index (g->ops, k))->unreadable;
    }
  /* Not a dump: an error naming it, not an empty run that diverges. */
  if (n_ops == 0 && side->problems->len == 0)
    {
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_NOT_FOUND,
                   _ ("%s: no op dump file and no .npy file to compare"), path);
      return NULL;
    }
  if (n_ops == 0)
    {
      OviProblem *p = g_ptr_array_index (side->problems, 0);
      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_NOT_FOUND,
                   _ ("%s: not a dump: no op dump file and no .npy file could be read (%s: %s)"),
                   path, ovi_problem_get_file (p), ovi_problem_get_message (p));
      return NULL;
    }
  return g_steal_pointer (&side);
}

/**
 * ovi_diff_side_path:
 * @file: (nullable): a file as the side's folder scan names it, relative to
 *   the opened folder, or absolute
 *
 * Returns: (transfer full) (nullable): its path as the user can open it,
 *   built from the folder as it was when the side was read, whatever has
 *   happened to it since (#39 item 9)
 */
char *
ovi_diff_side_path (OviDiffSide *side, const char *file)
{
  if (file == NULL || g_path_is_absolute (file))
    return g_strdup (file);
  return g_build_filename (side->base, file, NULL);
}

/* "device 0, model resnet50_train, iteration 3", or the folder's name. */
char *
ovi_diff_group_label (const OviDiffGroup *g)
{
  GString *s = g_string_new (NULL);

  if (g->show_session && *g->session)
    g_string_append_printf (s, _ ("session %s"), g->session);
  if (*g->device)
    {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append_printf (s, _ ("device %s"), g->device);
    }
  if (*g->model)
    {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append_printf (s, _ ("model %s"), g->model);
    }
  if (*g->iteration)
    {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append_printf (s, _ ("iteration %s"), g->iteration);
    }
  if (s->len == 0)
    g_string_append (s, g->path);
  return g_string_free (s, FALSE);
}

static gboolean
same_group (const OviDiffGroup *a, const OviDiffGroup *b)
{
  return g_str_equal (a->device, b->device) && g_str_equal (a->model, b->model) &&
         g_str_equal (a->iteration, b->iteration);
}

/* Pairs @mine's groups with @golden's (OviDiffGroup), appended to @pairs. */
static void
pair_within (GArray *pairs, GPtrArray *mine, GPtrArray *golden)
{
  g_autofree gboolean *taken = g_new0 (gboolean, golden->len + 1);

  if (mine->len == 1 && golden->len == 1)
    {
      OviDiffGroupPair p = { g_ptr_array_index (mine, 0), g_ptr_array_index (golden, 0) };
      g_array_append_val (pairs, p);
      return;
    }
  for (guint i = 0; i < mine->len; i++)
    {
      OviDiffGroupPair p = { g_ptr_array_index (mine, i), NULL };

      for (guint k = 0; k < golden->len && !p.golden; k++)
        if (!taken[k] && same_group (p.mine, g_ptr_array_index (golden, k)))
          {
            p.golden = g_ptr_array_index (golden, k);
            taken[k] = TRUE;
          }
      g_array_append_val (pairs, p);
    }
  for (guint k = 0; k < golden->len; k++)
    if (!taken[k])
      {
        OviDiffGroupPair p = { NULL, g_ptr_array_index (golden, k) };
        g_array_append_val (pairs, p);
      }
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The side's sessions ({time} folders), in time order. */
static GPtrArray *
sessions (OviDiffSide *side)
{
  GPtrArray *list = g_ptr_array_new ();

  for (guint i = 0; i < side->groups->len; i++)
    {
      OviDiffGroup *g = g_ptr_array_index (side->groups, i);
      if (!g_ptr_array_find_with_equal_func (list, g->session, g_str_equal, NULL))
        g_ptr_array_add (list, g->session);
    }
  g_ptr_array_sort (list, compare_strings);
  return list;
}

/* Its groups of @session. */
static GPtrArray *
groups_of (OviDiffSide *side, const char *session, gboolean show)
{
  GPtrArray *list = g_ptr_array_new ();

  for (guint i = 0; i < side->groups->len; i++)
    {
      OviDiffGroup *g = g_ptr_array_index (side->groups, i);
      if (g_str_equal (g->session, session))
        {
          g->show_session = show;
          g_ptr_array_add (list, g);
        }
    }
  return list;
}

static char *
session_list (GPtrArray *list)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < list->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) g_ptr_array_index (list, i));
  return g_strdup (s->str);
}

/**
 * ovi_diff_pair_groups:
 *
 * Pairs the sessions ({time} folders) of both sides in time order when
 * each side has as many, and refuses when one side has several and the
 * other another number. Within a session pair, the device / model /
 * iteration folders pair by their names; where each side has exactly one,
 * those two pair whatever their names. Folders without partner are listed
 * with the other side NULL.
 *
 * Returns: (transfer full) (element-type OviDiffGroupPair): in my run's
 *   order, or NULL with @error when the sessions cannot be paired
 */
GArray *
ovi_diff_pair_groups (OviDiffSide *mine, OviDiffSide *golden, GError **error)
{
  g_autoptr (GArray) pairs = g_array_new (FALSE, TRUE, sizeof (OviDiffGroupPair));
  g_autoptr (GPtrArray) a = sessions (mine), b = sessions (golden);

  if (a->len <= 1 && b->len <= 1)
    {
      pair_within (pairs, mine->groups, golden->groups);
      return g_steal_pointer (&pairs);
    }
  if (a->len != b->len)
    {
      g_autofree char *la = session_list (a), *lb = session_list (b);
      OviDiffSide *many = a->len > b->len ? mine : golden;
      GPtrArray *list = a->len > b->len ? a : b;
      g_autofree char *example =
          g_build_filename (many->root, (char *) g_ptr_array_index (list, list->len - 1), NULL);

      g_set_error (error, OVI_DIFF_ERROR, OVI_DIFF_ERROR_SESSIONS,
                   _ ("my run %s has the sessions %s; the golden run %s has %s. Sessions pair in "
                      "time order only when both runs have as many: pass one session folder on "
                      "each side, such as %s."),
                   mine->root, la, golden->root, lb, example);
      return NULL;
    }
  for (guint i = 0; i < a->len; i++)
    {
      g_autoptr (GPtrArray) m = groups_of (mine, g_ptr_array_index (a, i), TRUE);
      g_autoptr (GPtrArray) g = groups_of (golden, g_ptr_array_index (b, i), TRUE);
      pair_within (pairs, m, g);
    }
  return g_steal_pointer (&pairs);
}

/* The first golden operator not yet taken among those with @name (or its
 * file-name form). */
static OviDiffSideOp *
take (GHashTable *by_name, GHashTable *by_key, const char *name)
{
  GPtrArray *list = g_hash_table_lookup (by_name, name);
  g_autofree char *key = NULL;

  for (guint i = 0; list && i < list->len; i++)
    {
      OviDiffSideOp *op = g_ptr_array_index (list, i);
      if (!op->taken)
        return op;
    }
  key = ovi_file_name_form (name);
  list = g_hash_table_lookup (by_key, key);
  for (guint i = 0; list && i < list->len; i++)
    {
      OviDiffSideOp *op = g_ptr_array_index (list, i);
      if (!op->taken)
        return op;
    }
  return NULL;
}

static void
index_op (GHashTable *table, const char *name, OviDiffSideOp *op)
{
  GPtrArray *list = g_hash_table_lookup (table, name);

  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (table, g_strdup (name), list);
    }
  g_ptr_array_add (list, op);
}

/* One operator standing for a sequence @first … @last of one side: the
 * first's inputs, the last's outputs, named "a+b+c". Kept by @group. */
static OviDiffSideOp *
join_ops (OviDiffGroup *group, OviDiffSideOp **ops, guint n)
{
  OviDiffSideOp *first = ops[0], *last = ops[n - 1];
  OviDiffSideOp *op = g_new0 (OviDiffSideOp, 1);
  g_autoptr (GString) name = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (name, "%s%s", i ? "+" : "", ops[i]->name);
      op->overflows += ops[i]->overflows;
      if (op->problem == NULL && ops[i]->problem)
        op->problem = g_strdup (ops[i]->problem);
    }
  op->name = g_strdup (name->str);
  op->key = ovi_file_name_form (op->name);
  op->op_type = g_strdup (first->op_type);
  op->path = g_strdup (first->path);
  op->order = first->order;
  op->no_inputs_kept = first->no_inputs_kept;
  /* Filled before they are shared. */
  ovi_diff_side_op_fill (first);
  ovi_diff_side_op_fill (last);
  op->inputs = g_ptr_array_ref (first->inputs);
  op->outputs = g_ptr_array_ref (last->outputs);
  op->file = first->file ? g_object_ref (first->file) : NULL;
  op->last_file = last->file ? g_object_ref (last->file) : NULL;
  if (group->joined == NULL)
    group->joined = g_ptr_array_new_with_free_func ((GDestroyNotify) side_op_free);
  g_ptr_array_add (group->joined, op);
  return op;
}

/* My operators after @i named @e's other names, in order; NULL unless all
 * are there. */
static OviDiffSideOp *
join_mine (OviDiffGroup *mine, guint i, OviDiffMapEntry *e)
{
  guint n = g_strv_length (e->mine);
  g_autofree OviDiffSideOp **ops = g_new0 (OviDiffSideOp *, n);
  guint at = i + 1;

  ops[0] = g_ptr_array_index (mine->ops, i);
  for (guint k = 1; k < n; k++)
    {
      for (; at < mine->ops->len && !ops[k]; at++)
        {
          OviDiffSideOp *op = g_ptr_array_index (mine->ops, at);
          if (!op->taken && ovi_diff_map_names (e->mine[k], op->name))
            ops[k] = op;
        }
      if (ops[k] == NULL)
        return NULL;
      e->mine_seen[k] = TRUE;
    }
  for (guint k = 1; k < n; k++)
    ops[k]->taken = TRUE;
  return join_ops (mine, ops, n);
}

/* The golden operators named @e's golden names, in order; NULL unless all
 * are there. */
static OviDiffSideOp *
join_golden (OviDiffGroup *golden, GHashTable *by_name, GHashTable *by_key, OviDiffMapEntry *e)
{
  guint n = g_strv_length (e->golden);
  g_autofree OviDiffSideOp **ops = g_new0 (OviDiffSideOp *, n);

  for (guint k = 0; k < n; k++)
    {
      if ((ops[k] = take (by_name, by_key, e->golden[k])) == NULL)
        {
          for (guint j = 0; j < k; j++)
            ops[j]->taken = FALSE;
          return NULL;
        }
      ops[k]->taken = TRUE;
      e->golden_seen[k] = TRUE;
    }
  return join_ops (golden, ops, n);
}

/**
 * ovi_diff_match_ops:
 * @map: (nullable): the map file
 *
 * Matches the operators of two paired groups: by the map where it names
 * the operator, else by op name, then by its file-name form; repeated
 * executions of one name in run order. A map line with a sequence joins
 * it into one operator (the first's inputs, the last's outputs) paired
 * with the other side's one. Operators of one side only come with the
 * other NULL: mine where they ran, the golden run's after.
 *
 * Returns: (transfer full) (element-type OviDiffOpPair)
 */
GArray *
ovi_diff_match_ops (OviDiffGroup *mine, OviDiffGroup *golden, OviDiffMap *map)
{
  GArray *pairs = g_array_new (FALSE, TRUE, sizeof (OviDiffOpPair));
  g_autoptr (GHashTable) by_name =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GHashTable) by_key =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; golden && i < golden->ops->len; i++)
    {
      OviDiffSideOp *op = g_ptr_array_index (golden->ops, i);
      op->taken = FALSE;
      index_op (by_name, op->name, op);
      index_op (by_key, op->key, op);
    }
  for (guint i = 0; mine && i < mine->ops->len; i++)
    ((OviDiffSideOp *) g_ptr_array_index (mine->ops, i))->taken = FALSE;
  for (guint i = 0; mine && i < mine->ops->len; i++)
    {
      OviDiffSideOp *op = g_ptr_array_index (mine->ops, i);
      OviDiffMapEntry *e = map ? ovi_diff_map_lookup (map, op->name) : NULL;
      OviDiffOpPair p = { op, NULL };

      if (op->taken) /* joined into an operator before it */
        continue;
      if (e && e->mine[1] && ovi_diff_map_names (e->mine[0], op->name))
        {
          /* My sequence against one golden operator. */
          e->mine_seen[0] = TRUE;
          p.mine = join_mine (mine, i, e);
          if (p.mine == NULL)
            p.mine = op;
          else
            e->golden_seen[0] |= (p.golden = take (by_name, by_key, e->golden[0])) != NULL;
        }
      else if (e && e->golden[1])
        {
          e->mine_seen[0] = TRUE;
          p.golden = golden ? join_golden (golden, by_name, by_key, e) : NULL;
        }
      else if (e && !e->mine[1])
        {
          e->mine_seen[0] = TRUE;
          e->golden_seen[0] |= (p.golden = take (by_name, by_key, e->golden[0])) != NULL;
        }
      else
        p.golden = take (by_name, by_key, op->name);
      if (p.golden)
        p.golden->taken = TRUE;
      g_array_append_val (pairs, p);
    }
  for (guint i = 0; golden && i < golden->ops->len; i++)
    {
      OviDiffSideOp *op = g_ptr_array_index (golden->ops, i);
      if (!op->taken)
        {
          OviDiffOpPair p = { NULL, op };
          g_array_append_val (pairs, p);
        }
    }
  return pairs;
}
