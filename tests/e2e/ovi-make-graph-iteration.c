/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ovi-make-graph-iteration ROOT [N_BLOCKS]: one generated iteration whose
 * dataflow is known (tests/fixtures/ovi-graph-fixture.c), with buffer
 * addresses in the headers, and the Opdebug record of its origin's
 * overflow, so that the window opens with that record, and its operator,
 * selected. N_BLOCKS (default 0) appends that many residual blocks after
 * res/Add, each passing its NaN on, for the layout benchmark. */
#include "config.h"

#include <stdlib.h>

#include "ovi-fixtures.h"
#include "ovi-graph-fixture.h"

#define ITERATION "20260101000000/0/11/0"

static const OviGraphFixtureExternal inputs[] = {
  { "input_ids", "Data", FALSE },
  { "w1", "Const", FALSE },
  { "w2", "Const", FALSE },
};

static const OviGraphFixtureOp ops[] = {
  { "Cast", "bert/embeddings/Cast", "input_ids", 0, OVI_GRAPH_FIXTURE_PASS },
  { "MatMul", "l1/MatMul", "bert/embeddings/Cast w1", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Relu", "l1/Relu", "l1/MatMul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "MatMul", "l2/MatMul", "l1/Relu w2", 0, OVI_GRAPH_FIXTURE_ORIGIN },
  { "Relu", "l2/Relu", "l2/MatMul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Add", "res/Add", "l2/Relu bert/embeddings/Cast", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Mul", "out/Mul", "res/Add l1/Relu", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Softmax", "out/Softmax", "out/Mul", 0, OVI_GRAPH_FIXTURE_ABSORB },
  { "Cast", "out/Cast", "out/Softmax", 0, OVI_GRAPH_FIXTURE_PASS },
};

#define ORIGIN_TASK 4 /* l2/MatMul: the fixture numbers tasks from 1 in run order */

int
main (int argc, char **argv)
{
  guint blocks = argc > 2 ? (guint) atoi (argv[2]) : 0;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (OviGraphFixtureOp));
  g_autofree char *dir = NULL;
  g_autofree char *record = NULL;
  g_autoptr (GBytes) payload = NULL;
  g_autoptr (GError) error = NULL;
  OviGraphFixtureTruth truth = { 0 };
  OviGraphFixtureNet net;
  OviClassicBlock core = { 11, 1, ORIGIN_TASK, 0, 0x10, 0x20, 0x30, 1, 272 };
  const char *last = "res/Add"; /* NaN from l2/MatMul flows on through every block */

  if (argc < 2)
    {
      g_printerr ("usage: ovi-make-graph-iteration ROOT [N_BLOCKS]\n");
      return 2;
    }
  g_array_append_vals (all, ops, G_N_ELEMENTS (ops));
  /* Each block: a MatMul and a Relu on the block before, and an Add of
   * the two (a residual edge). */
  for (guint b = 0; b < blocks; b++)
    {
      char *mm = g_strdup_printf ("block%u/MatMul", b);
      char *relu = g_strdup_printf ("block%u/Relu", b);
      char *add = g_strdup_printf ("block%u/Add", b);
      char *mm_in = g_strdup_printf ("%s w1", last);
      char *add_in = g_strdup_printf ("%s %s", relu, last);
      OviGraphFixtureOp block[] = {
        { "MatMul", mm, mm_in, 0, OVI_GRAPH_FIXTURE_PASS },
        { "Relu", relu, mm, 0, OVI_GRAPH_FIXTURE_PASS },
        { "Add", add, add_in, 0, OVI_GRAPH_FIXTURE_PASS },
      };

      g_array_append_vals (all, block, G_N_ELEMENTS (block));
      g_ptr_array_add (names, mm);
      g_ptr_array_add (names, relu);
      g_ptr_array_add (names, add);
      g_ptr_array_add (names, mm_in);
      g_ptr_array_add (names, add_in);
      last = add;
    }
  net = (OviGraphFixtureNet){ inputs, G_N_ELEMENTS (inputs), (OviGraphFixtureOp *) all->data,
                              all->len };
  dir = g_build_filename (argv[1], ITERATION, NULL);
  ovi_graph_fixture_write (&net, dir, OVI_GRAPH_FIXTURE_ADDRESSES, &truth);
  ovi_graph_fixture_truth_clear (&truth);

  /* The AI Core overflow of the origin's task, written just after it. */
  payload = ovi_overflow_payload_classic (NULL, NULL, &core);
  record = g_build_filename (dir, "Opdebug.Node_OpDebug.2.1.1700000000000031", NULL);
  if (!ovi_write_overflow_file (record, payload, OVI_LAYOUT_NEW, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  return 0;
}
