/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "ovi-classifier.h"
#include "ovi-cluster.h"
#include "ovi-dtype.h"
#include "ovi-error.h"
#include "ovi-export.h"
#include "ovi-graph-writer.h"
#include "ovi-json.h"
#include "ovi-layout.h"
#include "ovi-path.h"
#include "ovi-report.h"
#include "ovi-shape.h"
#include "ovi-worker.h"

/* The report of all overflow records, as `overflow-inspector-cli report`
 * prints it and the inspector exports it. The JSON schema is in README.md. */

static void
add_double_or_null (JsonBuilder *b, const char *key, double v, gboolean valid)
{
  json_builder_set_member_name (b, key);
  if (valid && isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b, const char *key, guint64 v)
{
  json_builder_set_member_name (b, key);
  ovi_json_builder_add_u64 (b, v);
}

/* Names come out of files: whatever bytes they hold, JSON gets UTF-8. */
static void
add_string (JsonBuilder *b, const char *key, const char *v)
{
  g_autofree char *valid = g_utf8_make_valid (v ? v : "", -1);
  if (key)
    json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, valid);
}

/* A path for people and JSON: UTF-8, "." for the opened folder itself.
 * A NULL key adds an array element or a member value already named. */
static void
add_display_path (JsonBuilder *b, const char *key, const char *path)
{
  g_autofree char *display = g_filename_display_name (*path ? path : ".");
  if (key)
    json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, display);
}

/* A device layout: how many values are stored, and the logical shape the
 * statistics are over, or why they are over the stored values. */
static void
add_layout (JsonBuilder *b, OviTensor *tensor)
{
  const guint64 *original;
  guint n_original;

  if (!ovi_layout_is_device (ovi_tensor_get_format (tensor)))
    return;
  add_int (b, "stored_count", ovi_tensor_get_count (tensor));
  original = ovi_tensor_get_original_shape (tensor, &n_original);
  if (ovi_tensor_get_is_logical (tensor))
    {
      g_autofree char *format = ovi_format_dup_label (
          ovi_layout_logical_format (ovi_tensor_get_format (tensor), n_original));
      json_builder_set_member_name (b, "logical_shape");
      json_builder_begin_array (b);
      for (guint i = 0; i < n_original; i++)
        ovi_json_builder_add_u64 (b, original[i]);
      json_builder_end_array (b);
      add_string (b, "logical_format", format);
    }
  else
    add_string (b, "layout_problem", ovi_tensor_get_layout_problem (tensor));
}

/* Where the first NaN, +Inf, -Inf and saturated value sit: a flat index
 * and coordinates, in the shape the statistics are over (the logical one
 * of a device layout, ovi_tensor_get_logical_shape()). */
static void
add_first_bad (JsonBuilder *b, OviTensor *tensor, OviAnalysis *analysis)
{
  const guint64 *shape;
  guint n_dims;
  const OviStats *s;
  const char *keys[] = { "nan", "pos_inf", "neg_inf", "saturated" };
  gint64 firsts[4];

  shape = ovi_tensor_get_logical_shape (tensor, &n_dims);
  s = ovi_analysis_get_stats (analysis);
  firsts[0] = s->first_nan;
  firsts[1] = s->first_pos_inf;
  firsts[2] = s->first_neg_inf;
  firsts[3] = s->first_saturated;
  json_builder_set_member_name (b, "first_bad");
  json_builder_begin_object (b);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      json_builder_set_member_name (b, keys[k]);
      if (firsts[k] < 0)
        {
          json_builder_add_null_value (b);
          continue;
        }
      json_builder_begin_object (b);
      add_int (b, "index", firsts[k]);
      json_builder_set_member_name (b, "coords");
      json_builder_begin_array (b);
      if (n_dims > 0)
        {
          guint64 coords[8];
          ovi_shape_index_to_coords (firsts[k], shape, MIN (n_dims, 8), coords);
          for (guint i = 0; i < MIN (n_dims, 8); i++)
            ovi_json_builder_add_u64 (b, coords[i]);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

/**
 * ovi_report_tensor_json:
 *
 * One tensor with its statistics (computing them if needed).
 */
JsonNode *
ovi_report_tensor_json (OviTensor *tensor)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (OviAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dtype = ovi_dtype_dup_label (ovi_tensor_get_dtype (tensor));
  g_autofree char *format = ovi_format_dup_label (ovi_tensor_get_format (tensor));
  const OviStats *s = NULL;
  const guint64 *shape;
  guint n_dims;

  /* Statistics-mode tensors have their counts whatever their type. */
  if (ovi_dtype_is_supported (ovi_tensor_get_dtype (tensor)) ||
      ovi_tensor_get_statistics_only (tensor))
    analysis = ovi_tensor_analyze (tensor, &error);
  if (analysis)
    s = ovi_analysis_get_stats (analysis);

  json_builder_begin_object (b);
  add_string (b, "kind", ovi_tensor_get_kind_name (tensor));
  add_int (b, "index", ovi_tensor_get_index (tensor));
  /* A tensor of one thread slice of an FFTS+ group. */
  if (ovi_tensor_get_file (tensor) && ovi_dump_file_get_is_slice (ovi_tensor_get_file (tensor)))
    {
      add_int (b, "thread_id",
               ovi_dump_file_get_file_name (ovi_tensor_get_file (tensor))->thread_id);
      add_display_path (b, "slice_file",
                        ovi_dump_file_get_path_in_root (ovi_tensor_get_file (tensor)));
    }
  add_string (b, "dtype", dtype);
  add_string (b, "format", format);
  json_builder_set_member_name (b, "shape");
  json_builder_begin_array (b);
  shape = ovi_tensor_get_shape (tensor, &n_dims);
  for (guint i = 0; i < n_dims; i++)
    json_builder_add_int_value (b, (gint64) shape[i]);
  json_builder_end_array (b);
  add_int (b, "count", ovi_tensor_get_logical_count (tensor));
  add_layout (b, tensor);
  /* Newer schema fields, left out where the file has none (proto3 writers
   * leave out 0, so 0 cannot be told from "not written"). */
  if (ovi_tensor_get_arg_index (tensor))
    add_int (b, "arg_index", ovi_tensor_get_arg_index (tensor));
  if (ovi_tensor_get_input_type (tensor))
    add_int (b, "input_type", ovi_tensor_get_input_type (tensor));
  json_builder_set_member_name (b, "statistics_only");
  json_builder_add_boolean_value (b, ovi_tensor_get_statistics_only (tensor));
  add_double_or_null (b, "min", s ? s->min : 0, s && s->finite);
  add_double_or_null (b, "max", s ? s->max : 0, s && s->finite);
  add_double_or_null (b, "mean", s ? s->mean : 0, s && s->finite);
  add_double_or_null (b, "std", s ? s->std : 0, s && s->finite);
#define COUNT(key, field)                                                                          \
  json_builder_set_member_name (b, key);                                                           \
  if (s)                                                                                           \
    json_builder_add_int_value (b, (gint64) s->field);                                             \
  else                                                                                             \
    json_builder_add_null_value (b);
  COUNT ("nan", nan);
  COUNT ("pos_inf", pos_inf);
  COUNT ("neg_inf", neg_inf);
  COUNT ("saturated", saturated);
#undef COUNT
  json_builder_set_member_name (b, "first_nonfinite");
  if (s && s->first_nonfinite >= 0)
    json_builder_add_int_value (b, s->first_nonfinite);
  else
    json_builder_add_null_value (b);
  if (s)
    add_first_bad (b, tensor, analysis);
  if (analysis == NULL)
    {
      g_autofree char *why = error
                                 ? g_strdup (error->message)
                                 : ovi_dtype_dup_unsupported_reason (ovi_tensor_get_dtype (tensor));
      add_string (b, "error", why);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The header fields of the newer schema, only where the file has them:
 * "dfx_message" and "attrs". */
static void
add_schema_fields (JsonBuilder *b, OviDumpFile *op)
{
  guint n_attrs = ovi_dump_file_get_n_attrs (op);

  if (ovi_dump_file_get_dfx_message (op))
    add_string (b, "dfx_message", ovi_dump_file_get_dfx_message (op));
  if (n_attrs == 0)
    return;
  json_builder_set_member_name (b, "attrs");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_attrs; i++)
    {
      const char *name, *value;
      ovi_dump_file_get_attr (op, i, &name, &value);
      json_builder_begin_object (b);
      add_string (b, "name", name);
      add_string (b, "value", value);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* Workspaces ("space" in the header), when the file has any: their type
 * (0 = LOG) and arg_index say what the kernel used them for. */
static void
add_workspaces (JsonBuilder *b, OviDumpFile *op)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (op);

  if (ovi_dump_file_count_tensors (op, OVI_TENSOR_SPACE) == 0)
    return;
  json_builder_set_member_name (b, "workspaces");
  json_builder_begin_array (b);
  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      g_autofree char *type = NULL;
      if (ovi_tensor_get_kind (t) != OVI_TENSOR_SPACE)
        continue;
      type = ovi_tensor_dup_space_type_label (t);
      json_builder_begin_object (b);
      add_int (b, "index", ovi_tensor_get_index (t));
      add_string (b, "type", type);
      add_int (b, "size", ovi_tensor_get_size (t));
      if (ovi_tensor_get_arg_index (t))
        add_int (b, "arg_index", ovi_tensor_get_arg_index (t));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* An operator's class, schema fields, tensors and workspaces: what needs
 * its tensors read. */
static void
add_op_details (JsonBuilder *b, OviDumpFile *op)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (op);

  add_string (b, "class", ovi_blame_name (ovi_classifier_classify (op)));
  add_schema_fields (b, op);
  json_builder_set_member_name (b, "tensors");
  json_builder_begin_array (b);
  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (t);
      if (kind == OVI_TENSOR_INPUT || kind == OVI_TENSOR_OUTPUT)
        json_builder_add_value (b, ovi_report_tensor_json (t));
    }
  json_builder_end_array (b);
  add_workspaces (b, op);
}

/* The chains that reach the operator along the dataflow graph's edges,
 * "origin → … → operator", and whether they follow run order instead. */
static void
add_chains (JsonBuilder *b, OviDumpFolder *folder, OviDumpFile *op)
{
  gboolean run_order;
  g_auto (GStrv) chains = ovi_graph_writer_dup_chains (folder, op, &run_order);

  json_builder_set_member_name (b, "chains");
  json_builder_begin_array (b);
  for (guint i = 0; chains && chains[i]; i++)
    {
      g_autofree char *valid = g_utf8_make_valid (chains[i], -1);
      json_builder_add_string_value (b, valid);
    }
  json_builder_end_array (b);
  add_string (b, "chains_follow", run_order ? "run order" : "edges");
}

/**
 * ovi_report_record_json:
 *
 * One overflow record, with the operator it links to.
 */
JsonNode *
ovi_report_record_json (OviDumpFolder *folder, OviOverflowRecord *record)
{
  return ovi_report_record_json_full (folder, record, OVI_REPORT_FULL);
}

/**
 * ovi_report_record_json_full:
 * @flags: %OVI_REPORT_NO_TENSORS leaves out the operator's class and tensors
 *
 * One overflow record, with the operator it links to.
 */
JsonNode *
ovi_report_record_json_full (OviDumpFolder *folder, OviOverflowRecord *record, OviReportFlags flags)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  OviDumpFile *file = ovi_overflow_record_get_file (record);
  OviDumpFile *op = ovi_overflow_record_get_op (record);
  g_autoptr (GArray) bits = ovi_status_split (ovi_overflow_record_get_flags_mask (record));
  g_autofree char *status_hex = ovi_overflow_record_dup_status_hex (record);
  guint n_words;
  const guint64 *words = ovi_overflow_record_get_status_words (record, &n_words);

  json_builder_begin_object (b);
  add_display_path (b, "file", ovi_dump_file_get_path_in_root (file));
  add_display_path (b, "iteration", ovi_dump_file_get_dir_in_root (file));
  /* The rank within the root: null when the layout has no device level. */
  json_builder_set_member_name (b, "device");
  if (*ovi_dump_file_get_device (file))
    add_string (b, NULL, ovi_dump_file_get_device (file));
  else
    json_builder_add_null_value (b);
  add_string (b, "source", ovi_record_source_name (ovi_overflow_record_get_source (record)));
  add_string (b, "unit", ovi_overflow_record_get_unit_name (record));
  add_int (b, "model_id", ovi_overflow_record_get_model_id (record));
  add_int (b, "stream_id", ovi_overflow_record_get_stream_id (record));
  add_int (b, "task_id", ovi_overflow_record_get_task_id (record));
  add_int (b, "task_type", ovi_overflow_record_get_task_type (record));
  if (ovi_overflow_record_has_context (record))
    {
      add_int (b, "context_id", ovi_overflow_record_get_context_id (record));
      add_int (b, "thread_id", ovi_overflow_record_get_thread_id (record));
    }
  add_int (b, "timestamp", ovi_dump_file_get_timestamp (file));
  add_int (b, "status", ovi_overflow_record_get_status (record));
  add_string (b, "status_hex", status_hex);
  if (n_words > 1)
    {
      json_builder_set_member_name (b, "status_words");
      json_builder_begin_array (b);
      for (guint i = 0; i < n_words; i++)
        ovi_json_builder_add_u64 (b, words[i]);
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "first");
  json_builder_add_boolean_value (b, ovi_overflow_record_get_is_first (record));
  json_builder_set_member_name (b, "ignored");
  json_builder_add_boolean_value (b, ovi_overflow_record_get_ignored (record));
  json_builder_set_member_name (b, "flags");
  json_builder_begin_array (b);
  for (guint i = 0; i < bits->len; i++)
    {
      g_autofree char *hex =
          g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", g_array_index (bits, guint64, i));
      json_builder_add_string_value (b, hex);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "op");
  if (op == NULL)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_object (b);
      add_display_path (b, "file", ovi_dump_file_get_path_in_root (op));
      add_string (b, "op_type", ovi_dump_file_get_op_type (op));
      add_string (b, "op_name", ovi_dump_file_get_op_name (op));
      if (!(flags & OVI_REPORT_NO_TENSORS))
        {
          add_op_details (b, op);
          add_chains (b, folder, op);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/**
 * ovi_report_build_json:
 *
 * Returns: (transfer full): `{"root", "records", "errors"}`
 */
/* Whether @file belongs in the report of @root (G_MAXUINT: every root). */
static gboolean
in_root (OviDumpFile *file, guint root)
{
  return root == G_MAXUINT || ovi_dump_file_get_root (file) == root;
}

static void
add_operator (JsonBuilder *b, OviDumpFolder *folder, OviDumpFile *f)
{
  json_builder_begin_object (b);
  add_display_path (b, "file", ovi_dump_file_get_path_in_root (f));
  add_display_path (b, "iteration", ovi_dump_file_get_dir_in_root (f));
  add_string (b, "op_type", ovi_dump_file_get_op_type (f));
  add_string (b, "op_name", ovi_dump_file_get_op_name (f));
  add_int (b, "timestamp", ovi_dump_file_get_timestamp (f));
  add_string (b, "class", ovi_blame_name (ovi_dump_file_get_blame (f)));
  json_builder_set_member_name (b, "ignored");
  json_builder_add_boolean_value (b, ovi_dump_folder_is_ignored (folder, f));
  json_builder_end_object (b);
}

/* Every operator's class, the earliest origin of each iteration, and the
 * first iteration that has one. */
static void
add_blame (JsonBuilder *b, OviDumpFolder *folder, guint root)
{
  g_autoptr (GPtrArray) origins = ovi_dump_folder_find_origins (folder, NULL);
  GListModel *files = ovi_dump_folder_get_files (folder);

  for (guint i = origins->len; i > 0; i--)
    if (!in_root (g_ptr_array_index (origins, i - 1), root))
      g_ptr_array_remove_index (origins, i - 1);

  json_builder_set_member_name (b, "first_origin_iteration");
  if (origins->len)
    add_display_path (b, NULL, ovi_dump_file_get_dir_in_root (g_ptr_array_index (origins, 0)));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "origins");
  json_builder_begin_array (b);
  for (guint i = 0; i < origins->len; i++)
    add_operator (b, folder, g_ptr_array_index (origins, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "abnormal_operators");
  json_builder_begin_array (b);
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      OviBlame blame = ovi_dump_file_get_blame (f);
      if (!in_root (f, root))
        continue;
      if (blame == OVI_BLAME_ORIGIN || blame == OVI_BLAME_PROPAGATED || blame == OVI_BLAME_ABSORBED)
        add_operator (b, folder, f);
    }
  json_builder_end_array (b);
}

/* Every device id the folder's files have, in order ("10" after "9"),
 * null for files with none: the ranks of this root, overflowed or not. */
static int
compare_devices (gconstpointer pa, gconstpointer pb)
{
  const char *a = *(const char **) pa, *b = *(const char **) pb;
  gsize la = strlen (a), lb = strlen (b);
  gboolean na = la && strspn (a, "0123456789") == la, nb = lb && strspn (b, "0123456789") == lb;

  if (na && nb && la != lb)
    return la < lb ? -1 : 1;
  if (na != nb)
    return na ? -1 : 1;
  return strcmp (a, b);
}

static void
add_devices (JsonBuilder *b, OviDumpFolder *folder, guint root)
{
  GListModel *files = ovi_dump_folder_get_files (folder);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) devices = g_ptr_array_new ();
  gboolean none = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (OviDumpFile) f = g_list_model_get_item (files, i);
      const char *device = ovi_dump_file_get_device (f);

      if (!in_root (f, root))
        continue;
      if (!*device)
        none = TRUE;
      /* The files hold the strings: they outlive this function. */
      else if (g_hash_table_add (seen, (char *) device))
        g_ptr_array_add (devices, (char *) device);
    }
  g_ptr_array_sort (devices, compare_devices);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  if (none)
    json_builder_add_null_value (b);
  for (guint i = 0; i < devices->len; i++)
    add_string (b, NULL, g_ptr_array_index (devices, i));
  json_builder_end_array (b);
}

/* The root's ranks and its first, by the code that merges reports. */
static void
add_ranks (JsonNode *report)
{
  g_autoptr (OviCluster) cluster = ovi_cluster_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *o = json_node_get_object (report);

  /* Every record built here has what a rank needs; were one not to, the
   * report would still be written, without ranks. */
  if (!ovi_cluster_add_report (cluster, report, "report", &error))
    {
      g_warning ("no ranks in the report: %s", error->message);
      json_object_set_array_member (o, "ranks", json_array_new ());
      json_object_set_null_member (o, "first_rank");
      return;
    }
  json_object_set_member (o, "ranks", ovi_cluster_build_ranks_json (cluster));
  if (ovi_cluster_get_earliest (cluster))
    json_object_set_member (o, "first_rank",
                            ovi_cluster_build_rank_json (ovi_cluster_get_earliest (cluster)));
  else
    json_object_set_null_member (o, "first_rank");
}

JsonNode *
ovi_report_build_json (OviDumpFolder *folder)
{
  return ovi_report_build_json_full (folder, OVI_REPORT_FULL);
}

/**
 * ovi_report_build_json_full:
 * @flags: %OVI_REPORT_RECORDS_ONLY leaves out the classes of the operators
 *   that no record links to, which needs every tensor read
 *
 * Returns: (transfer full): `{"root", "host", "devices", "records",
 *   "errors", ..., "ranks", "first_rank"}`
 */
/* The report of one root of @folder (G_MAXUINT: a folder of one root). */
static JsonNode *
build_root_json (OviDumpFolder *folder, guint root, OviReportFlags flags)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  JsonNode *node;
  GListModel *records = ovi_dump_folder_get_records (folder);
  GListModel *problems = ovi_dump_folder_get_problems (folder);
  g_autofree char *root_path = g_filename_display_name (
      ovi_dump_folder_get_nth_root_path (folder, root == G_MAXUINT ? 0 : root));
  const char *name = root == G_MAXUINT ? NULL : ovi_dump_folder_get_root_name (folder, root);
  gsize name_len = name ? strlen (name) : 0;

  json_builder_begin_object (b);
  add_string (b, "root", root_path);
  /* Which machine: reports from many are merged (ovi-cluster.c). */
  add_string (b, "host", g_get_host_name ());
  add_devices (b, folder, root);
  json_builder_set_member_name (b, "records");
  json_builder_begin_array (b);
  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);

      if (in_root (ovi_overflow_record_get_file (r), root))
        json_builder_add_value (b, ovi_report_record_json_full (folder, r, flags));
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "errors");
  json_builder_begin_array (b);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr (OviProblem) p = g_list_model_get_item (problems, i);
      const char *file = ovi_problem_get_file (p);

      /* A root's problems are listed under its name, as its files are. */
      if (name != NULL)
        {
          if (!g_str_has_prefix (file, name) || (file[name_len] != '/' && file[name_len] != '\0'))
            continue;
          file = file[name_len] ? file + name_len + 1 : ".";
        }
      json_builder_begin_object (b);
      add_string (b, "file", file);
      add_string (b, "message", ovi_problem_get_message (p));
      /* Statistics CSV files are text: the line at fault, when one is. */
      if (ovi_problem_get_line (p) > 0)
        add_int (b, "line", ovi_problem_get_line (p));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  if (!(flags & OVI_REPORT_RECORDS_ONLY))
    add_blame (b, folder, root);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  /* Without tensors, the report is the input of a cluster, which finds the
   * ranks itself. */
  if (!(flags & OVI_REPORT_NO_TENSORS))
    add_ranks (node);
  return node;
}

/**
 * ovi_report_build_json_full:
 *
 * Returns: (transfer full): the folder's report; for a folder opened with
 *   several roots, the cluster report of one report per root, as `report`
 *   of several folders writes it
 */
JsonNode *
ovi_report_build_json_full (OviDumpFolder *folder, OviReportFlags flags)
{
  guint n_roots = ovi_dump_folder_get_n_roots (folder);
  g_autoptr (OviCluster) cluster = NULL;

  if (n_roots == 1)
    return build_root_json (folder, G_MAXUINT, flags);
  cluster = ovi_cluster_new ();
  for (guint i = 0; i < n_roots; i++)
    {
      g_autoptr (JsonNode) node = build_root_json (folder, i, flags);
      g_autoptr (GError) error = NULL;

      /* Only a root given twice can be refused: its first report stays. */
      if (!ovi_cluster_add_report (cluster, node, ovi_dump_folder_get_root_name (folder, i),
                                   &error))
        g_warning ("%s", error->message);
    }
  return ovi_cluster_build_json (cluster);
}

char *
ovi_report_to_json (OviDumpFolder *folder)
{
  return ovi_report_to_json_full (folder, OVI_REPORT_FULL);
}

char *
ovi_report_to_json_full (OviDumpFolder *folder, OviReportFlags flags)
{
  g_autoptr (JsonNode) root = ovi_report_build_json_full (folder, flags);

  return ovi_json_to_text (root);
}

/* Whether @path may be written: never inside a folder @folder reads
 * (ovi_dump_folder_check_output()), which the error names. */
static gboolean
refuse_inside (OviDumpFolder *folder, const char *path, GError **error)
{
  g_autoptr (GError) why = NULL;
  g_autofree char *inside = NULL;
  g_autofree char *shown_path = NULL;
  g_autofree char *shown_inside = NULL;

  if (ovi_dump_folder_check_output (folder, path, &inside, &why))
    return TRUE;
  if (inside == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&why));
      return FALSE;
    }
  shown_path = g_filename_display_name (path);
  shown_inside = g_filename_display_name (inside);
  g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_INSIDE_DUMP,
               _ ("Not written: %s is inside the inspected folder %s. Choose another folder."),
               shown_path, shown_inside);
  return FALSE;
}

/**
 * ovi_report_export:
 * @item: (nullable): the #OviTensor for a tensor export, the overflow
 *   #OviDumpFile for the overflow JSON, %NULL for the report
 *
 * Writes one export of the window atomically, never inside the folder.
 * Reads tensors: call it off the main thread, or use
 * ovi_report_export_async().
 */
gboolean
ovi_report_export (OviDumpFolder *folder,
                   OviExportTarget what,
                   gpointer item,
                   const char *path,
                   GCancellable *cancellable,
                   GError **error)
{
  g_autofree char *contents = NULL;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!refuse_inside (folder, path, error))
    return FALSE;
  switch (what)
    {
    case OVI_EXPORT_REPORT_JSON:
    case OVI_EXPORT_REPORT_TEXT:
      contents = what == OVI_EXPORT_REPORT_JSON ? ovi_report_to_json (folder)
                                                : ovi_report_to_text (folder);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      return ovi_export_write_contents (path, contents, strlen (contents),
                                        OVI_EXPORT_FLAGS_OVERWRITE, error);
    case OVI_EXPORT_TENSOR_NPY:
    case OVI_EXPORT_TENSOR_TXT:
    case OVI_EXPORT_TENSOR_NPY_LOGICAL:
    case OVI_EXPORT_TENSOR_TXT_LOGICAL:
      if (!OVI_IS_TENSOR (item))
        {
          g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                               _ ("No tensor is selected"));
          return FALSE;
        }
      return ovi_export_tensor (
          item,
          what == OVI_EXPORT_TENSOR_NPY || what == OVI_EXPORT_TENSOR_NPY_LOGICAL ? OVI_EXPORT_NPY
                                                                                 : OVI_EXPORT_TXT,
          path,
          OVI_EXPORT_FLAGS_OVERWRITE |
              (what == OVI_EXPORT_TENSOR_NPY_LOGICAL || what == OVI_EXPORT_TENSOR_TXT_LOGICAL
                   ? OVI_EXPORT_FLAGS_LOGICAL
                   : 0),
          error);
    case OVI_EXPORT_OVERFLOW_JSON:
      if (!OVI_IS_DUMP_FILE (item))
        {
          g_set_error_literal (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                               _ ("No overflow record is selected"));
          return FALSE;
        }
      return ovi_export_overflow_json (item, path, OVI_EXPORT_FLAGS_OVERWRITE, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

typedef struct
{
  OviExportTarget what;
  GObject *item;
  char *path;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_clear_object (&job->item);
  g_free (job->path);
  g_free (job);
}

static void
export_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ExportJob *job = task_data;
  GError *error = NULL;

  if (ovi_report_export (source, job->what, job->item, job->path, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * ovi_report_export_async:
 *
 * ovi_report_export() on core's worker pool.
 */
void
ovi_report_export_async (OviDumpFolder *folder,
                         OviExportTarget what,
                         gpointer item,
                         const char *path,
                         GCancellable *cancellable,
                         GAsyncReadyCallback callback,
                         gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  ExportJob *job;

  g_return_if_fail (OVI_IS_DUMP_FOLDER (folder));
  g_return_if_fail (item == NULL || G_IS_OBJECT (item));

  task = g_task_new (folder, cancellable, callback, user_data);
  g_task_set_source_tag (task, ovi_report_export_async);
  /* The worker reads the folder's lists, which a scan still changes. */
  if (ovi_dump_folder_get_loading (folder))
    {
      g_task_return_new_error (task, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_UNSUPPORTED,
                               _ ("Not written yet: wait until the scan has finished"));
      return;
    }
  job = g_new0 (ExportJob, 1);
  job->what = what;
  job->item = item ? g_object_ref (item) : NULL;
  job->path = g_strdup (path);
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  ovi_worker_run_in_thread (task, export_in_thread);
}

gboolean
ovi_report_export_finish (OviDumpFolder *folder, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, folder), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Says, in @error, that @file was not exported because of @local: @path
 * exists, or another reason. */
static void
set_export_error (GError **error, OviDumpFile *file, const char *path, GError *local)
{
  if (g_error_matches (local, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS))
    /* Translators: the first %s is a dump file, the second the file
     * an export of its tensors would have written */
    g_set_error (error, OVI_EXPORT_ERROR, OVI_EXPORT_ERROR_EXISTS,
                 _ ("%s: not exported, %s already exists. Choose another folder."),
                 ovi_dump_file_get_relative_path (file), path);
  else
    /* Translators: an export of all tensors failed: the dump file it
     * read (a path), then why */
    g_set_error (error, local->domain, local->code, _ ("%s: %s"),
                 ovi_dump_file_get_relative_path (file), local->message);
}

/* Writes the tensors of @file below @output, as `overflow-inspector-cli
 * convert` does: in the file's folder relative to the dump folder, named
 * F.input.N.npy... (raw .bin for types only bytes can hold); for an
 * overflow file, its record as the vendor's JSON, F.output.0.json. */
static gboolean
export_file_tensors (OviDumpFolder *folder,
                     OviDumpFile *file,
                     OviExportFormat format,
                     const char *output,
                     guint *n_written,
                     GCancellable *cancellable,
                     GError **error)
{
  g_autofree char *dir = g_build_filename (output, ovi_dump_file_get_relative_dir (file), NULL);
  g_autoptr (GBytes) source_data = NULL;
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);
  gboolean ok = TRUE;
  int source_fd;

  gboolean overflow = ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OVERFLOW;

  /* A statistics-mode dump has no values, and nothing is wrong with it. */
  if (!overflow &&
      (ovi_dump_file_get_statistics_only (file) || tensors == NULL || tensors->len == 0))
    return TRUE;
  /* A folder already there may be a link into the inspected folder. */
  if (!refuse_inside (folder, dir, error))
    return FALSE;
  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   _ ("cannot create folder %s: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  if (overflow)
    {
      g_autofree char *name = ovi_export_overflow_file_name (file);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GError) local = NULL;

      if (!ovi_export_overflow_json (file, path, OVI_EXPORT_FLAGS_NONE, &local))
        {
          set_export_error (error, file, path, local);
          return FALSE;
        }
      (*n_written)++;
      return TRUE;
    }
  source_fd = ovi_export_open_source (file, NULL);
  source_data = ovi_export_read_source (file, source_fd);
  for (guint i = 0; ok && i < tensors->len; i++)
    {
      OviTensor *tensor = g_ptr_array_index (tensors, i);
      OviExportFormat as = format;
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;
      g_autoptr (GError) local = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      if (as != OVI_EXPORT_BIN && !ovi_dtype_is_supported (ovi_tensor_get_dtype (tensor)) &&
          ovi_tensor_get_kind (tensor) <= OVI_TENSOR_OUTPUT)
        as = OVI_EXPORT_BIN;
      name = ovi_export_tensor_file_name (tensor, as);
      path = g_build_filename (dir, name, NULL);
      if (ovi_export_tensor_at (tensor, source_fd, source_data, as, -1, path, OVI_EXPORT_FLAGS_NONE,
                                &local))
        {
          (*n_written)++;
          continue;
        }
      set_export_error (error, file, path, local);
      ok = FALSE;
    }
  if (source_fd >= 0)
    close (source_fd);
  return ok;
}

/**
 * ovi_report_export_tensors:
 * @files: (element-type OviDumpFile): op dump files and overflow files of @folder
 * @output: an existing folder outside @folder
 * @n_written: (out) (optional): the number of files written
 *
 * Writes every tensor of @files below @output, and the vendor's JSON of
 * each overflow file, the files and folders `overflow-inspector-cli
 * convert` writes for them; an existing file is
 * not overwritten. Stops at the first failure, with an error naming the
 * dump file. Reads tensors: call it off the main thread, or use
 * ovi_report_export_tensors_async().
 */
gboolean
ovi_report_export_tensors (OviDumpFolder *folder,
                           GPtrArray *files,
                           OviExportFormat format,
                           const char *output,
                           guint *n_written,
                           GCancellable *cancellable,
                           GError **error)
{
  guint written = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), FALSE);
  g_return_val_if_fail (files != NULL, FALSE);
  g_return_val_if_fail (output != NULL, FALSE);

  ok = refuse_inside (folder, output, error);
  for (guint i = 0; ok && i < files->len; i++)
    ok = export_file_tensors (folder, g_ptr_array_index (files, i), format, output, &written,
                              cancellable, error);
  if (n_written != NULL)
    *n_written = written;
  return ok;
}

typedef struct
{
  GPtrArray *files;
  OviExportFormat format;
  char *output;
  guint n_written;
} TensorsJob;

static void
tensors_job_free (TensorsJob *job)
{
  g_ptr_array_unref (job->files);
  g_free (job->output);
  g_free (job);
}

static void
export_tensors_in_thread (GTask *task,
                          gpointer source,
                          gpointer task_data,
                          GCancellable *cancellable)
{
  TensorsJob *job = task_data;
  GError *error = NULL;

  if (ovi_report_export_tensors (source, job->files, job->format, job->output, &job->n_written,
                                 cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * ovi_report_export_tensors_async:
 *
 * ovi_report_export_tensors() on core's worker pool.
 */
void
ovi_report_export_tensors_async (OviDumpFolder *folder,
                                 GPtrArray *files,
                                 OviExportFormat format,
                                 const char *output,
                                 GCancellable *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  TensorsJob *job;

  g_return_if_fail (OVI_IS_DUMP_FOLDER (folder));
  g_return_if_fail (files != NULL);
  g_return_if_fail (output != NULL);

  task = g_task_new (folder, cancellable, callback, user_data);
  g_task_set_source_tag (task, ovi_report_export_tensors_async);
  job = g_new0 (TensorsJob, 1);
  job->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (job->files, g_object_ref (g_ptr_array_index (files, i)));
  job->format = format;
  job->output = g_strdup (output);
  g_task_set_task_data (task, job, (GDestroyNotify) tensors_job_free);
  ovi_worker_run_in_thread (task, export_tensors_in_thread);
}

/**
 * ovi_report_export_tensors_finish:
 * @n_written: (out) (optional): the number of files written, also when
 *   it failed part of the way
 */
gboolean
ovi_report_export_tensors_finish (OviDumpFolder *folder,
                                  GAsyncResult *result,
                                  guint *n_written,
                                  GError **error)
{
  TensorsJob *job;

  g_return_val_if_fail (g_task_is_valid (result, folder), FALSE);
  job = g_task_get_task_data (G_TASK (result));
  if (n_written != NULL)
    *n_written = job->n_written;
  return g_task_propagate_boolean (G_TASK (result), error);
}
