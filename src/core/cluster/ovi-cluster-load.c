/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-cluster-private.h"
#include "ovi-regular-file.h"
#include "ovi-worker.h"

/* ------------------------------------------------------- report files */

/* Report files read in parallel: per file, its roots or its problem. */
typedef struct
{
  GPtrArray *files; /* GFile */
  GPtrArray *found; /* per file: GPtrArray of OviClusterRoot (empty on error) */
  char **errors;    /* per file: message or NULL */
  GCancellable *cancellable;
} Load;

static void
load_free (Load *load)
{
  for (guint i = 0; i < load->files->len; i++)
    g_free (load->errors[i]);
  g_free (load->errors);
  g_ptr_array_unref (load->files);
  g_ptr_array_unref (load->found);
  g_clear_object (&load->cancellable);
  g_free (load);
}

static Load *
load_new (GFile *const *files, guint n_files, GCancellable *cancellable)
{
  Load *load = g_new0 (Load, 1);

  load->files = g_ptr_array_new_with_free_func (g_object_unref);
  load->found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < n_files; i++)
    {
      g_ptr_array_add (load->files, g_object_ref (files[i]));
      g_ptr_array_add (load->found,
                       g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free));
    }
  load->errors = g_new0 (char *, n_files + 1);
  load->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  return load;
}

/* Reads one report file into its roots (on any thread). */
static gboolean
read_report_file (GFile *file, GPtrArray *roots, GCancellable *cancellable, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr (GBytes) bytes = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (path == NULL)
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, _ ("%s: not a local file"),
                   name);
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ,
                   _ ("%s: a folder, not a report file (“report” reads folders)"), name);
      return FALSE;
    }
  /* Read into memory, not mapped: the roots keep their text, and a file
   * cut while it is merged (a report being rewritten) would make reading
   * a map of it die of SIGBUS. A FIFO would block for good, a device never
   * end: only a regular file is read. */
  if (!ovi_regular_file_read (AT_FDCWD, path, &contents, &length, &local_error))
    {
      int code = local_error->domain == G_FILE_ERROR ? local_error->code : G_FILE_ERROR_FAILED;

      if (code == G_FILE_ERROR_INVAL)
        g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, "%s: %s", name,
                     local_error->message);
      else
        /* Translators: a file name, then why it cannot be read */
        g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, _ ("%s: cannot read it: %s"),
                     name,
                     g_strerror (code == G_FILE_ERROR_NOENT   ? ENOENT
                                 : code == G_FILE_ERROR_ACCES ? EACCES
                                                              : EIO));
      return FALSE;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  return ovi_cluster_root_read_text (bytes, name, roots, error);
}

/**
 * ovi_cluster_is_report_file:
 *
 * Whether @file is read as a report (`report --json`, `merge`) rather than
 * as a dump folder or file: its name ends in .json. The window and the
 * command line tell them apart by this one rule.
 */
gboolean
ovi_cluster_is_report_file (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  gsize length = name ? strlen (name) : 0;

  return length > 5 && g_ascii_strcasecmp (name + length - 5, ".json") == 0;
}

static void
load_one (guint index, gpointer user_data)
{
  Load *load = user_data;
  g_autoptr (GError) error = NULL;

  if (!read_report_file (g_ptr_array_index (load->files, index),
                         g_ptr_array_index (load->found, index), load->cancellable, &error))
    load->errors[index] = g_strdup (error->message);
}

/* At the caller's priority: core's pool runs below the window's thread,
 * and on a busy machine (a login node) its threads can wait seconds for a
 * turn, which a command-line merge should not. */
static void
load_in_threads (Load *load)
{
  ovi_parallel_for_full (load->files->len, load_one, load, load->cancellable, OVI_WORKER_CALLER);
}

/* Adds what @load read, in the order of its files; FALSE with every
 * problem, one line each, when a file added nothing. */
static gboolean
load_apply (OviCluster *self, Load *load, GError **error)
{
  g_autoptr (GPtrArray) problems = g_ptr_array_new ();
  gboolean added = FALSE;

  for (guint i = 0; i < load->files->len; i++)
    {
      GPtrArray *roots = g_ptr_array_index (load->found, i);
      g_autofree char *name = g_file_get_parse_name (g_ptr_array_index (load->files, i));
      g_autoptr (GError) local_error = NULL;

      if (load->errors[i] == NULL && roots->len == 0)
        continue;
      if (load->errors[i] == NULL && !ovi_cluster_add_roots (self, roots, name, &local_error))
        load->errors[i] = g_strdup (local_error->message);
      else if (load->errors[i] == NULL)
        added = TRUE;
      if (load->errors[i])
        g_ptr_array_add (problems, load->errors[i]);
    }
  if (added)
    ovi_cluster_update_ranks (self);
  if (problems->len == 0)
    return TRUE;
  g_ptr_array_add (problems, NULL);
  {
    g_autofree char *message = g_strjoinv ("\n", (char **) problems->pdata);
    g_set_error_literal (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT, message);
  }
  return FALSE;
}

/**
 * ovi_cluster_add_report_files:
 * @files: (array length=n_files): report files (single-root or cluster)
 *
 * Reads and parses @files on core's worker pool (and the calling thread),
 * then adds their roots in the order of @files. A file that cannot be
 * read, is not JSON or not a report adds nothing; the others are added
 * all the same.
 *
 * Returns: %TRUE when every file was added; %FALSE with @error listing
 *   each file that was not, one line each naming it and the problem
 */
gboolean
ovi_cluster_add_report_files (
    OviCluster *self, GFile *const *files, guint n_files, GCancellable *cancellable, GError **error)
{
  Load *load;
  gboolean ok;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (files != NULL || n_files == 0, FALSE);

  load = load_new (files, n_files, cancellable);
  load_in_threads (load);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  else
    ok = load_apply (self, load, error);
  load_free (load);
  return ok;
}

static void
load_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Load *load = task_data;

  ovi_parallel_for (load->files->len, load_one, load, cancellable);
  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

/* Back on the caller's context: the reports read go into the cluster,
 * then the caller hears of it. */
static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OviCluster *self = OVI_CLUSTER (source);
  g_autoptr (GTask) outer = user_data;
  g_autoptr (GError) error = NULL;
  Load *load = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), &error) || !load_apply (self, load, &error))
    g_task_return_error (outer, g_steal_pointer (&error));
  else
    g_task_return_boolean (outer, TRUE);
}

/**
 * ovi_cluster_load_reports_async:
 * @files: (array length=n_files): report files (single-root or cluster)
 *
 * ovi_cluster_add_report_files() with the reading and parsing on core's
 * worker pool: the roots are added on the calling thread's main context
 * just before @callback runs, so that the main loop never parses.
 */
void
ovi_cluster_load_reports_async (OviCluster *self,
                                GFile *const *files,
                                guint n_files,
                                GCancellable *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer user_data)
{
  GTask *outer;
  g_autoptr (GTask) inner = NULL;

  g_return_if_fail (OVI_IS_CLUSTER (self));
  g_return_if_fail (files != NULL || n_files == 0);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, ovi_cluster_load_reports_async);
  inner = g_task_new (self, cancellable, load_done, outer);
  g_task_set_source_tag (inner, ovi_cluster_load_reports_async);
  g_task_set_task_data (inner, load_new (files, n_files, cancellable), (GDestroyNotify) load_free);
  ovi_worker_run_in_thread (inner, load_in_thread);
}

/**
 * ovi_cluster_load_reports_finish:
 *
 * Returns: %TRUE when every file was added; %FALSE with @error listing
 *   each file that was not (one line each, naming it and the problem)
 */
gboolean
ovi_cluster_load_reports_finish (OviCluster *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
