/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-core.h"

/* Every file-name variant of dump-format.md section 2 and format-sources.md
 * "File-name variants". */

typedef struct
{
  const char *name;
  OviFileKind kind;
  const char *op_type;
  const char *op_name;
  guint64 task_id;
  gboolean has_stream_id;
  guint64 stream_id;
  guint64 timestamp;
  gboolean has_dump_number;
  guint64 dump_number;
  gboolean has_context;
  guint64 context_id;
  guint64 thread_id;
} NameCase;

static const NameCase cases[] = {
  /* {op_type}.{op_name}.{task}.{stream}.{ts} */
  { "Add.op.1.2.3", OVI_FILE_KIND_OP_DUMP, "Add", "op", 1, TRUE, 2, 3, FALSE, 0, FALSE, 0, 0 },
  { "MatMul.gradients_MatMul_grad_MatMul.55.7.1764670500000100", OVI_FILE_KIND_OP_DUMP, "MatMul",
    "gradients_MatMul_grad_MatMul", 55, TRUE, 7, 1764670500000100, FALSE, 0, FALSE, 0, 0 },
  /* with .{a}.{ctx}.{thread}.{b} */
  { "Conv2D.resnet_layer3_conv2.120.5.1764670560000110.4.2.7.0", OVI_FILE_KIND_OP_DUMP, "Conv2D",
    "resnet_layer3_conv2", 120, TRUE, 5, 1764670560000110, FALSE, 0, TRUE, 2, 7 },
  /* the example of format-sources.md */
  { "Add.partition0_rank1_new_sub_graph1_sgt_graph_0_Add.0.3.1673383728093446.4.1.0.0",
    OVI_FILE_KIND_OP_DUMP, "Add", "partition0_rank1_new_sub_graph1_sgt_graph_0_Add", 0, TRUE, 3,
    1673383728093446, FALSE, 0, TRUE, 1, 0 },
  /* older, no stream id */
  { "Cast.op_a.57.1597922031178434", OVI_FILE_KIND_OP_DUMP, "Cast", "op_a", 57, FALSE, 0,
    1597922031178434, FALSE, 0, FALSE, 0, 0 },
  /* older, no stream id, with the FFTS+ extras */
  { "Cast.op_a.57.1597922031178434.4.3.2.0", OVI_FILE_KIND_OP_DUMP, "Cast", "op_a", 57, FALSE, 0,
    1597922031178434, FALSE, 0, TRUE, 3, 2 },
  /* adump: {op_type}.{op_name}.{dump_number}.{task}.{stream}.{ts} */
  { "Relu.net_relu.9.21.4.1700000000000001", OVI_FILE_KIND_OP_DUMP, "Relu", "net_relu", 21, TRUE, 4,
    1700000000000001, TRUE, 9, FALSE, 0, 0 },
  /* adump with .FFTSPLUS.{ctx}.{thread}.{dev} */
  { "Relu.net_relu.9.21.4.1700000000000001.FFTSPLUS.6.5.1", OVI_FILE_KIND_OP_DUMP, "Relu",
    "net_relu", 21, TRUE, 4, 1700000000000001, TRUE, 9, TRUE, 6, 5 },
  /* overflow files */
  { "Opdebug.Node_OpDebug.59.1597922031178434", OVI_FILE_KIND_OVERFLOW, "Opdebug", "Node_OpDebug",
    59, FALSE, 0, 1597922031178434, FALSE, 0, FALSE, 0, 0 },
  { "Opdebug.Node_OpDebug.2.7.1764670500000250", OVI_FILE_KIND_OVERFLOW, "Opdebug", "Node_OpDebug",
    2, TRUE, 7, 1764670500000250, FALSE, 0, FALSE, 0, 0 },
  { "OpDebug.Node_Opdebug.3.5.1764670560000150.4.2.0.0", OVI_FILE_KIND_OVERFLOW, "OpDebug",
    "Node_Opdebug", 3, TRUE, 5, 1764670560000150, FALSE, 0, TRUE, 2, 0 },
  { "OPDEBUG.node_opdebug.4.9.100", OVI_FILE_KIND_OVERFLOW, "OPDEBUG", "node_opdebug", 4, TRUE, 9,
    100, FALSE, 0, FALSE, 0, 0 },
  /* exception dumps: stream before task */
  { "exception_info.7.31.1700000000000002", OVI_FILE_KIND_EXCEPTION, "exception_info", "", 31, TRUE,
    7, 1700000000000002, FALSE, 0, FALSE, 0, 0 },
  /* an op name of digits only is still a name */
  { "Add.123.1.2.3", OVI_FILE_KIND_OP_DUMP, "Add", "123", 1, TRUE, 2, 3, FALSE, 0, FALSE, 0, 0 },
  /* u64 values up to 2^64-1 */
  { "Add.op.18446744073709551615.2.3", OVI_FILE_KIND_OP_DUMP, "Add", "op",
    G_GUINT64_CONSTANT (18446744073709551615), TRUE, 2, 3, FALSE, 0, FALSE, 0, 0 },
};

static void
test_variants (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const NameCase *c = &cases[i];
      OviFileName n;

      g_test_message ("%s", c->name);
      g_assert_true (ovi_file_name_parse (c->name, &n));
      g_assert_cmpint (n.kind, ==, c->kind);
      g_assert_cmpstr (n.op_type, ==, c->op_type);
      g_assert_cmpstr (n.op_name, ==, c->op_name);
      g_assert_cmpuint (n.task_id, ==, c->task_id);
      g_assert_cmpint (n.has_stream_id, ==, c->has_stream_id);
      g_assert_cmpuint (n.stream_id, ==, c->stream_id);
      g_assert_cmpuint (n.timestamp, ==, c->timestamp);
      g_assert_cmpint (n.has_dump_number, ==, c->has_dump_number);
      if (c->has_dump_number)
        g_assert_cmpuint (n.dump_number, ==, c->dump_number);
      g_assert_cmpint (n.has_context, ==, c->has_context);
      if (c->has_context)
        {
          g_assert_cmpuint (n.context_id, ==, c->context_id);
          g_assert_cmpuint (n.thread_id, ==, c->thread_id);
        }
      ovi_file_name_clear (&n);
      g_assert_null (n.op_type);
      g_assert_null (n.op_name);
    }
}

static void
test_rejected (void)
{
  static const char *const names[] = {
    "mapping.csv",
    "statistic.csv",
    "x.npy",
    "Add.op.1.2.3.output.0.npy",
    "README",
    "a.b",
    "acl_dump_0.json",
    "Add.op.1.2.3.output.0.json",
    "",
    "...",
    "Add..1.2.3",
    ".op.1.2.3",
    "Opdebug.Node_OpDebug.2.7.1764670500000250.output.0.json",
    "exception_info.7.x.1",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      OviFileName n;
      g_test_message ("%s", names[i]);
      g_assert_false (ovi_file_name_parse (names[i], &n));
      g_assert_cmpint (n.kind, ==, OVI_FILE_KIND_NONE);
      g_assert_null (n.op_type);
      g_assert_null (n.op_name);
    }
}

/* A name whose stream id is missing must not be mistaken for one that has
 * it: three numbers are task.stream.ts, two are task.ts. */
static void
test_field_count (void)
{
  OviFileName a, b;

  g_assert_true (ovi_file_name_parse ("Mul.m.10.20.30", &a));
  g_assert_true (ovi_file_name_parse ("Mul.m.10.30", &b));
  g_assert_cmpuint (a.timestamp, ==, 30);
  g_assert_cmpuint (b.timestamp, ==, 30);
  g_assert_cmpuint (a.stream_id, ==, 20);
  g_assert_true (a.has_stream_id);
  g_assert_false (b.has_stream_id);
  g_assert_cmpuint (a.task_id, ==, 10);
  g_assert_cmpuint (b.task_id, ==, 10);
  ovi_file_name_clear (&a);
  ovi_file_name_clear (&b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/file-name/variants", test_variants);
  g_test_add_func ("/core/file-name/rejected", test_rejected);
  g_test_add_func ("/core/file-name/field-count", test_field_count);
  return g_test_run ();
}
