/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovi-fixtures.h"

/* Writes the benchmark inputs with the project's writer:
 *   ovi-bench-make tree DIR N_ITERATIONS OPS_PER_ITERATION OVERFLOWS_PER_ITERATION
 *   ovi-bench-make tensor FILE DTYPE COUNT
 *   ovi-bench-make nc1hwc0 FILE DTYPE N C H W
 *   ovi-bench-make reports DIR N_REPORTS DEVICES_PER_REPORT ITERATIONS
 * DTYPE is a name such as float16; the values are normal-ish with a few
 * NaN, infinities and saturated values, as an overflowing tensor has. */

static guint32 state = 12345;

static inline float
next_value (void)
{
  float sum = 0;
  for (int k = 0; k < 3; k++)
    {
      state = state * 1664525u + 1013904223u;
      sum += (state >> 8) / 16777216.0f;
    }
  return (sum - 1.5f) * 8.0f;
}

static int
dtype_by_name (const char *name)
{
  for (int d = 0; d < 64; d++)
    if (g_strcmp0 (ovi_dtype_name (d), name) == 0)
      return d;
  return -1;
}

static int
make_tensor (const char *path, const char *dtype_name, guint64 count)
{
  int dtype = dtype_by_name (dtype_name);
  guint64 size;
  guint8 *d;
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("bench/op");
  g_autoptr (GBytes) data = NULL;
  g_autoptr (GError) error = NULL;
  guint64 shape[] = { count };

  if (dtype < 0 || !ovi_dtype_size_for_count (dtype, count, &size))
    {
      fprintf (stderr, "unknown dtype %s\n", dtype_name);
      return 2;
    }
  d = g_malloc (size);
  for (guint64 i = 0; i < count; i++)
    {
      float v = next_value ();
      if (i % 1000003 == 17)
        v = NAN;
      else if (i % 1000033 == 99)
        v = INFINITY;
      else if (i % 999983 == 5)
        v = 65504.0f;
      switch (dtype)
        {
        case OVI_DTYPE_FLOAT16:
          ((guint16 *) d)[i] = ovi_float_to_half (v);
          break;
        case OVI_DTYPE_BFLOAT16:
          ((guint16 *) d)[i] = ovi_float_to_bfloat16 (v);
          break;
        case OVI_DTYPE_FLOAT32:
          ((float *) d)[i] = v;
          break;
        default:
          fprintf (stderr, "tensor: float16, bfloat16 or float32\n");
          return 2;
        }
    }
  data = g_bytes_new_take (d, size);
  ovi_dump_writer_add_tensor (w, OVI_TENSOR_OUTPUT, dtype, 2, shape, 1, data);
  if (!ovi_dump_writer_write (w, OVI_LAYOUT_NEW, path, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  return 0;
}

/* An NC1HWC0 output (C0 = 16) of the logical NCHW shape N, C, H, W, its
 * padding zero as the runtime writes it: the statistics are over the
 * logical values only. */
static int
make_nc1hwc0 (const char *path, const char *dtype_name, guint64 n, guint64 c, guint64 h, guint64 w)
{
  int dtype = dtype_by_name (dtype_name);
  guint64 c1 = (c + 15) / 16, count = n * c1 * h * w * 16, size;
  const guint64 shape[] = { n, c1, h, w, 16 };
  const guint64 original[] = { n, c, h, w };
  guint8 *d;
  g_autoptr (OviDumpWriter) writer = ovi_dump_writer_new ("bench/conv");
  g_autoptr (GBytes) data = NULL;
  g_autoptr (GError) error = NULL;

  if (dtype != OVI_DTYPE_FLOAT16 && dtype != OVI_DTYPE_FLOAT32)
    {
      fprintf (stderr, "nc1hwc0: float16 or float32\n");
      return 2;
    }
  ovi_dtype_size_for_count (dtype, count, &size);
  d = g_malloc (size);
  for (guint64 i = 0; i < count; i++)
    {
      guint64 channel = i / (h * w * 16) % c1 * 16 + i % 16;
      float v = channel < c ? next_value () : 0.0f;

      if (dtype == OVI_DTYPE_FLOAT16)
        ((guint16 *) d)[i] = ovi_float_to_half (v);
      else
        ((float *) d)[i] = v;
    }
  data = g_bytes_new_take (d, size);
  ovi_dump_writer_add_tensor (writer, OVI_TENSOR_OUTPUT, dtype, OVI_FORMAT_NC1HWC0, shape, 5, data);
  ovi_dump_writer_set_original_shape (writer, OVI_TENSOR_OUTPUT, 0, original, 4);
  if (!ovi_dump_writer_write (writer, OVI_LAYOUT_NEW, path, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  return 0;
}

static int
make_tree (const char *root, guint iterations, guint ops, guint overflows)
{
  const guint64 shape[] = { 2, 8 };
  g_autofree double *values = g_new (double, 16);
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("bench/scope/op");
  g_autoptr (GBytes) op_bytes = NULL;

  for (guint i = 0; i < 16; i++)
    values[i] = i * 0.25 - 1;
  ovi_fixture_add (w, OVI_TENSOR_INPUT, OVI_DTYPE_FLOAT16, shape, 2, values);
  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 2, values);
  op_bytes = ovi_dump_writer_build (w, OVI_LAYOUT_NEW);

  for (guint it = 0; it < iterations; it++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/20251202101500/0/bench_model/1/%u", root, it);
      /* Wall-clock microseconds, as the runtime writes them: iterations
       * 10 s apart, operators 10 us apart, overflow files after them. */
      guint64 start = 1764670500000000 + (guint64) it * 10000000;
      g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
      for (guint op = 0; op < ops; op++)
        {
          g_autofree char *path =
              g_strdup_printf ("%s/Add.bench_scope_add_%u.%u.3.%" G_GUINT64_FORMAT, dir, op,
                               op + 10, start + (guint64) op * 10);
          g_file_set_contents (path, g_bytes_get_data (op_bytes, NULL), g_bytes_get_size (op_bytes),
                               NULL);
        }
      for (guint o = 0; o < overflows; o++)
        {
          OviClassicBlock core = { 1, 3, 10 + (o * 7) % ops, 0, 0x1000, 0x2000, 0x3000, 0, 0x110 };
          g_autoptr (GBytes) payload = ovi_overflow_payload_classic (NULL, NULL, &core);
          g_autoptr (OviDumpWriter) ow = ovi_dump_writer_new ("Node_OpDebug");
          g_autoptr (GBytes) file_bytes = NULL;
          g_autofree char *path = g_strdup_printf ("%s/Opdebug.Node_OpDebug.2.3.%" G_GUINT64_FORMAT,
                                                   dir, start + 5000000 + o);
          const guint64 pshape[] = { 2048 };
          ovi_dump_writer_add_tensor (ow, OVI_TENSOR_OUTPUT, OVI_DTYPE_UINT8, 2, pshape, 1,
                                      payload);
          file_bytes = ovi_dump_writer_build (ow, OVI_LAYOUT_NEW);
          g_file_set_contents (path, g_bytes_get_data (file_bytes, NULL),
                               g_bytes_get_size (file_bytes), NULL);
        }
    }
  return 0;
}

/* The report record of one overflowing operator, taken from a real report
 * of a one-file folder: the benchmark's reports have the schema the CLI
 * writes, not a guess at it. */
static JsonObject *
template_record (const char *tmp, const char *op_type, const char *op_name, gboolean received)
{
  g_autofree char *root = g_build_filename (tmp, op_type, NULL);
  g_autofree char *dir = g_build_filename (root, "20251202101500", "0", "net", "11", "0", NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonArray *records;

  ovi_fixture_write_overflow_op (dir, op_type, op_name, 57, 7, 1764670500000000, received);
  folder = ovi_fixture_load_folder (root);
  report = ovi_report_build_json (folder);
  records = json_object_get_array_member (json_node_get_object (report), "records");
  return json_object_ref (json_array_get_object_element (records, 0));
}

/* One record from the template: members shared, where and when replaced. */
static JsonNode *
record_at (JsonObject *template, guint device, guint iteration, guint64 timestamp, gboolean first)
{
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *dir = g_strdup_printf ("20251202101500/%u/net/11/%u", device, iteration);
  g_autofree char *file =
      g_strdup_printf ("%s/Opdebug.Node_OpDebug.2.7.%" G_GUINT64_FORMAT, dir, timestamp);
  g_autofree char *id = g_strdup_printf ("%u", device);
  GList *members = json_object_get_members (template);

  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data;
      if (g_str_equal (key, "file"))
        json_object_set_string_member (o, key, file);
      else if (g_str_equal (key, "iteration"))
        json_object_set_string_member (o, key, dir);
      else if (g_str_equal (key, "device"))
        json_object_set_string_member (o, key, id);
      else if (g_str_equal (key, "first"))
        json_object_set_boolean_member (o, key, first);
      else if (g_str_equal (key, "timestamp"))
        json_object_set_int_member (o, key, (gint64) timestamp);
      else
        json_object_set_member (o, key, json_node_copy (json_object_get_member (template, key)));
    }
  g_list_free (members);
  json_node_take_object (node, o);
  return node;
}

/* N_REPORTS reports as `report --json` writes them on N_REPORTS machines
 * (node000, ...) of DEVICES devices, a record per device and iteration:
 * device 3 of machine 0 overflows in a Cast, every other device receives
 * it through an HcomAllReduce. */
static int
make_reports (const char *dir, guint n_reports, guint devices, guint iterations)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("ovi-bench-template-XXXXXX", &error);
  JsonObject *cast, *allreduce;

  if (!tmp)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  cast = template_record (tmp, "Cast", "net/Cast_3", FALSE);
  allreduce = template_record (tmp, "HcomAllReduce", "allreduce_1", TRUE);
  ovi_fixture_remove_tree (tmp);
  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));

  for (guint r = 0; r < n_reports; r++)
    {
      g_autoptr (JsonNode) report = json_node_new (JSON_NODE_OBJECT);
      g_autoptr (OviCluster) cluster = ovi_cluster_new ();
      JsonObject *o = json_object_new ();
      JsonArray *records = json_array_new ();
      JsonArray *device_ids = json_array_new ();
      g_autofree char *host = g_strdup_printf ("node%03u", r);
      g_autofree char *name = g_strdup_printf ("%s/%s.json", dir, host);
      g_autofree char *text = NULL;

      json_object_set_string_member (o, "root", "/data/dump");
      json_object_set_string_member (o, "host", host);
      for (guint d = 0; d < devices; d++)
        {
          g_autofree char *id = g_strdup_printf ("%u", d);
          json_array_add_string_element (device_ids, id);
        }
      json_object_set_array_member (o, "devices", device_ids);
      for (guint it = 0; it < iterations; it++)
        for (guint d = 0; d < devices; d++)
          {
            /* Iterations 10 s apart; the origin 100 µs before the rest. */
            guint64 ts = 1764670500000000 + (guint64) it * 10000000 + 200 + r * 8 + d;
            gboolean origin = r == 0 && d == 3;
            json_array_add_element (records, record_at (origin ? cast : allreduce, d, it,
                                                        origin ? ts - 300 : ts, it == 0 && d == 0));
          }
      json_object_set_array_member (o, "records", records);
      json_object_set_array_member (o, "errors", json_array_new ());
      json_node_take_object (report, o);
      /* The root's own ranks, as the report has them. */
      if (!ovi_cluster_add_report (cluster, report, name, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      json_object_set_member (o, "ranks", ovi_cluster_build_ranks_json (cluster));
      json_object_set_member (o, "first_rank",
                              ovi_cluster_build_rank_json (ovi_cluster_get_earliest (cluster)));
      text = ovi_json_to_text (report);
      if (!g_file_set_contents (name, text, -1, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
    }
  json_object_unref (cast);
  json_object_unref (allreduce);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 6 && g_str_equal (argv[1], "tree"))
    return make_tree (argv[2], atoi (argv[3]), atoi (argv[4]), atoi (argv[5]));
  if (argc == 6 && g_str_equal (argv[1], "reports"))
    return make_reports (argv[2], atoi (argv[3]), atoi (argv[4]), atoi (argv[5]));
  if (argc == 5 && g_str_equal (argv[1], "tensor"))
    return make_tensor (argv[2], argv[3], g_ascii_strtoull (argv[4], NULL, 10));
  if (argc == 8 && g_str_equal (argv[1], "nc1hwc0"))
    return make_nc1hwc0 (argv[2], argv[3], g_ascii_strtoull (argv[4], NULL, 10),
                         g_ascii_strtoull (argv[5], NULL, 10), g_ascii_strtoull (argv[6], NULL, 10),
                         g_ascii_strtoull (argv[7], NULL, 10));
  fprintf (stderr,
           "usage: %s tree DIR ITERATIONS OPS OVERFLOWS | tensor FILE DTYPE COUNT | "
           "nc1hwc0 FILE DTYPE N C H W | reports DIR N_REPORTS DEVICES ITERATIONS\n",
           argv[0]);
  return 2;
}
