/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "ovi-classifier.h"
#include "ovi-graph-writer.h"
#include "ovi-path.h"
#include "ovi-report.h"
#include "ovi-status.h"
#include "ovi-unit.h"

/* The report as text, as `overflow-inspector-cli report` prints it, and
 * the one-line headline of a record (notifications, the window). The JSON
 * form is in ovi-report.c. */

static void
append_value (GString *s, const char *label, double v, gboolean valid)
{
  if (valid && isfinite (v))
    g_string_append_printf (s, "  %s %.6g", label, v);
  else
    g_string_append_printf (s, "  %s -", label);
}

static void
append_tensor_text (GString *s, OviTensor *t)
{
  g_autoptr (OviAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *label = ovi_tensor_dup_label (t);
  g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (t));
  g_autofree char *format = ovi_format_dup_label (ovi_tensor_get_format (t));
  g_autofree char *shape = ovi_tensor_dup_shape_string (t);
  const OviStats *st;

  g_string_append_printf (s, "    %-9s %s %s %s\n     ", label, dtype, format, shape);
  if (ovi_dtype_is_packing_unknown (ovi_tensor_get_dtype (t)))
    {
      g_autofree char *reason = ovi_dtype_dup_unsupported_reason (ovi_tensor_get_dtype (t));
      g_string_append_printf (s, " %s\n", reason);
      return;
    }
  if (!ovi_dtype_is_supported (ovi_tensor_get_dtype (t)))
    {
      g_string_append_printf (s, " %s\n", _ ("no statistics for this dtype"));
      return;
    }
  if (!(analysis = ovi_tensor_analyze (t, &error)))
    {
      g_string_append_printf (s, " %s\n", error->message);
      return;
    }
  if (ovi_tensor_get_is_logical (t))
    {
      guint n_original;
      const guint64 *original = ovi_tensor_get_original_shape (t, &n_original);
      g_autofree char *logical_format =
          ovi_format_dup_label (ovi_layout_logical_format (ovi_tensor_get_format (t), n_original));
      g_autoptr (GString) logical_shape = g_string_new ("[");

      for (guint i = 0; i < n_original; i++)
        g_string_append_printf (logical_shape, "%s%" G_GUINT64_FORMAT, i ? ", " : "", original[i]);
      g_string_append_c (logical_shape, ']');
      g_string_append (s, "  ");
      /* Translators: "logical NCHW [1, 4, 8, 8]: 256 values, stored as 1024 in NC1HWC0" */
      g_string_append_printf (
          s, _ ("logical %s %s: %" PRIu64 " values, stored as %" PRIu64 " in %s"), logical_format,
          logical_shape->str, (uint64_t) ovi_tensor_get_logical_count (t),
          (uint64_t) ovi_tensor_get_count (t), format);
      g_string_append (s, "\n     ");
    }
  else if (ovi_tensor_get_layout_problem (t))
    {
      g_string_append (s, "  ");
      /* Translators: the statistics of a device layout include its padding;
       * the reason follows ("the header has no original shape") */
      g_string_append_printf (
          s, _ ("statistics over the %" PRIu64 " stored values, padding included: %s"),
          (uint64_t) ovi_tensor_get_count (t), ovi_tensor_get_layout_problem (t));
      g_string_append (s, "\n     ");
    }
  st = ovi_analysis_get_stats (analysis);
  append_value (s, "min", st->min, st->finite);
  append_value (s, "max", st->max, st->finite);
  append_value (s, "mean", st->mean, st->finite);
  append_value (s, "std", st->std, st->finite);
  g_string_append_printf (s,
                          "  nan %" G_GUINT64_FORMAT "  +inf %" G_GUINT64_FORMAT
                          "  -inf %" G_GUINT64_FORMAT "  saturated %" G_GUINT64_FORMAT "\n",
                          st->nan, st->pos_inf, st->neg_inf, st->saturated);
}

/* An operator: its type, name and class, its file, and the statistics of
 * its inputs and outputs. */
static void
append_operator_text (GString *s, OviDumpFile *op)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (op);
  g_autofree char *op_file = ovi_path_display (ovi_dump_file_get_name (op));
  g_autofree char *op_type = ovi_path_escape (ovi_dump_file_get_op_type (op));
  g_autofree char *op_name = ovi_path_escape (ovi_dump_file_get_op_name (op));

  g_string_append_printf (s, "  %s %s %s  [%s]\n    %s\n", _ ("operator"), op_type, op_name,
                          ovi_blame_name (ovi_classifier_classify (op)), op_file);
  for (guint j = 0; j < tensors->len; j++)
    {
      OviTensor *t = g_ptr_array_index (tensors, j);
      if (ovi_tensor_get_kind (t) <= OVI_TENSOR_OUTPUT)
        append_tensor_text (s, t);
    }
}

/* The chains that reach a record's operator: "origin → … → operator". */
static void
append_chains_text (GString *s, OviDumpFolder *folder, OviDumpFile *op)
{
  gboolean run_order;
  g_auto (GStrv) chains = ovi_graph_writer_dup_chains (folder, op, &run_order);

  for (guint i = 0; chains && chains[i]; i++)
    {
      g_autofree char *chain = ovi_path_escape (chains[i]);
      g_string_append_printf (
          s, "    %s %s\n",
          run_order ? _ ("chain (in run order, no dataflow graph):") : _ ("chain:"), chain);
    }
}

/* What the report says first when no overflow record is listed: a folder
 * without dump files, a file that is not one, one op dump file (what its
 * data hold), or a dump folder or file without overflow. */
static void
append_no_record_text (GString *s, OviDumpFolder *folder, gboolean one_file)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  g_autoptr (OviDumpFile) only = NULL;

  if (g_list_model_get_n_items (files) == 0 &&
      g_list_model_get_n_items (ovi_dump_folder_get_problems (folder)) == 0)
    {
      g_string_append_printf (s, "%s\n\n",
                              _ ("No dump file was found here: this is not a dump folder, or the "
                                 "runtime has not written to it yet."));
      return;
    }
  if (one_file && g_list_model_get_n_items (files) == 0)
    return; /* the file's problem is said at once (ovi_report_to_text_full()) */
  if (one_file && g_list_model_get_n_items (files) == 1)
    only = g_list_model_get_item (files, 0);
  if (only && ovi_dump_file_get_kind (only) != OVI_FILE_KIND_OVERFLOW &&
      !ovi_dump_file_get_statistics_only (only))
    {
      /* The window's words for it too (ovi-overflows-page.c). */
      g_autofree char *finding = ovi_classifier_dup_one_file_finding (only);

      g_string_append_printf (s, "%s\n", finding);
      append_operator_text (s, only);
      g_string_append_c (s, '\n');
      return;
    }
  g_string_append_printf (s, "%s\n\n",
                          one_file ? _ ("No overflow was recorded in this file.")
                                   : _ ("No overflow was recorded in this folder."));
}

/**
 * ovi_report_to_text:
 *
 * Returns: the report for a person: every record in first-overflow order,
 *   its decoded status and the statistics of its operator's tensors
 */
char *
ovi_report_to_text (OviDumpFolder *folder)
{
  return ovi_report_to_text_full (folder, OVI_REPORT_FULL);
}

char *
ovi_report_to_text_full (OviDumpFolder *folder, OviReportFlags flags)
{
  GListModel *records = ovi_dump_folder_get_records (folder);
  GListModel *problems = ovi_dump_folder_get_problems (folder);
  guint n_records = g_list_model_get_n_items (records);
  guint n_problems = g_list_model_get_n_items (problems);
  g_autofree char *root = ovi_path_display (ovi_dump_folder_get_root_path (folder));
  /* One file opened on its own, not a folder: said so. */
  gboolean one_file =
      ovi_dump_folder_get_n_roots (folder) == 1 &&
      g_file_query_file_type (ovi_dump_folder_get_root (folder), G_FILE_QUERY_INFO_NONE, NULL) !=
          G_FILE_TYPE_DIRECTORY;
  /* ...and when it could not be read, that is all there is to say. */
  gboolean unread = one_file && g_list_model_get_n_items (ovi_dump_folder_get_files (folder)) == 0;
  GString *s = g_string_new (NULL);
  guint n_bits;
  const OviStatusBit *known = ovi_status_bits (&n_bits);

  g_string_append_printf (s, "%s %s\n", _ ("Overflow report for"), root);
  g_string_append_printf (
      s, "%s: %u, %s: %u, %s: %u\n\n", _ ("Overflow records"), n_records, _ ("dump files"),
      g_list_model_get_n_items (ovi_dump_folder_get_files (folder)), _ ("problems"), n_problems);
  if (n_records == 0)
    append_no_record_text (s, folder, one_file);

  for (guint i = 0; i < n_records; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (r);
      OviDumpFile *op = ovi_overflow_record_get_op (r);
      g_autofree char *summary = ovi_overflow_record_dup_status_summary (r);
      g_autofree char *dir = ovi_path_display (
          *ovi_dump_file_get_relative_dir (file) ? ovi_dump_file_get_relative_dir (file) : ".");
      g_autofree char *name = ovi_path_display (ovi_dump_file_get_name (file));
      guint64 mask = ovi_overflow_record_get_flags_mask (r);
      OviUnit unit = ovi_overflow_record_get_unit (r);

      g_string_append_printf (s, "#%u%s%s  %s %s\n", i + 1,
                              ovi_overflow_record_get_is_first (r) ? _ (" (first overflow)") : "",
                              ovi_overflow_record_get_ignored (r) ? _ (" (ignored)") : "", _ ("in"),
                              dir);
      g_string_append_printf (s,
                              "  %s  model %" G_GUINT64_FORMAT "  stream %" G_GUINT64_FORMAT
                              "  task %" G_GUINT64_FORMAT "  status %s\n",
                              ovi_unit_label (ovi_overflow_record_get_unit_name (r)),
                              ovi_overflow_record_get_model_id (r),
                              ovi_overflow_record_get_stream_id (r),
                              ovi_overflow_record_get_task_id (r), summary);
      if (ovi_unit_has_status_bits (unit))
        {
          g_autoptr (GArray) bits = ovi_status_split (mask);
          for (guint j = 0; j < bits->len; j++)
            {
              guint64 bit = g_array_index (bits, guint64, j);
              const char *what = _ ("unknown bit");
              for (guint k = 0; k < n_bits; k++)
                if (known[k].bit == bit)
                  what = _ (known[k].description);
              g_string_append_printf (s, "    0x%" G_GINT64_MODIFIER "x  %s\n", bit, what);
            }
        }
      g_string_append_printf (s, "  %s %s\n", _ ("file"), name);
      if (op == NULL)
        g_string_append_printf (s, "  %s\n",
                                _ ("operator: no op dump file matches this task and stream id"));
      else
        {
          append_operator_text (s, op);
          append_chains_text (s, folder, op);
        }
      g_string_append_c (s, '\n');
    }

  if (!(flags & OVI_REPORT_RECORDS_ONLY) && !unread)
    {
      g_autoptr (GPtrArray) origins = ovi_dump_folder_find_origins (folder, NULL);

      g_string_append_printf (
          s, "%s\n",
          _ ("Where the abnormal values start (earliest origin operator of each iteration):"));
      if (origins->len == 0)
        g_string_append_printf (
            s, "  %s\n", _ ("no operator turns clean inputs into NaN, Inf or saturated outputs"));
      for (guint i = 0; i < origins->len; i++)
        {
          OviDumpFile *o = g_ptr_array_index (origins, i);
          g_autofree char *dir = ovi_path_display (
              *ovi_dump_file_get_relative_dir (o) ? ovi_dump_file_get_relative_dir (o) : ".");
          g_autofree char *op_type = ovi_path_escape (ovi_dump_file_get_op_type (o));
          g_autofree char *op_name = ovi_path_escape (ovi_dump_file_get_op_name (o));
          g_string_append_printf (s, "  %s  %s %s%s\n", dir, op_type, op_name,
                                  i == 0 ? _ ("  (first iteration with an origin)") : "");
        }
      g_string_append_c (s, '\n');
    }

  if (n_problems)
    {
      g_string_append_printf (s, "%s\n",
                              unread ? _ ("This file could not be read as a dump file:")
                                     : _ ("Files that could not be read:"));
      for (guint i = 0; i < n_problems; i++)
        {
          g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
          g_autofree char *file = ovi_path_escape (ovi_problem_get_file (p));
          g_autofree char *message = ovi_path_escape (ovi_problem_get_message (p));
          g_string_append_printf (s, "  %s: %s\n", file, message);
        }
    }
  /* Names come out of files and may hold any bytes (escaped above). */
  {
    g_autofree char *text = g_string_free (s, FALSE);
    return g_utf8_make_valid (text, -1);
  }
}

/**
 * ovi_report_record_headline:
 *
 * One line on a record, for a notification or a terminal: where it
 * happened, which operator and what the status says, e.g. "Overflow on
 * device 3, iteration 1234: Cast gradients/Cast_3, 0x... FP16 + INT".
 *
 * Returns: (transfer full): the line, in the user's language
 */
char *
ovi_report_record_headline (OviOverflowRecord *record)
{
  OviDumpFile *file = ovi_overflow_record_get_file (record);
  OviDumpFile *op = ovi_overflow_record_get_op (record);
  g_autofree char *status = ovi_overflow_record_dup_status_summary (record);
  g_autofree char *where = NULL;
  g_autofree char *what = NULL;
  const char *device = file ? ovi_dump_file_get_device (file) : NULL;
  const char *iteration = file ? ovi_dump_file_get_iteration (file) : NULL;

  if (device && *device && iteration && *iteration)
    /* Translators: a device number and an iteration number */
    where = g_strdup_printf (_ ("Overflow on device %s, iteration %s"), device, iteration);
  else if (iteration && *iteration)
    where = g_strdup_printf (_ ("Overflow in iteration %s"), iteration);
  else
    where = g_strdup (_ ("Overflow"));
  if (op)
    what =
        g_strdup_printf ("%s %s", ovi_dump_file_get_op_type (op), ovi_dump_file_get_op_name (op));
  else
    /* Translators: the unit that reported an overflow, e.g. AI Core */
    what = g_strdup_printf (_ ("%s, operator not found"),
                            ovi_unit_label (ovi_overflow_record_get_unit_name (record)));
  /* Translators: where (“Overflow on device 3, iteration 12”), which
   * operator, what its status says */
  return g_strdup_printf (_ ("%s: %s, %s"), where, what, status);
}
