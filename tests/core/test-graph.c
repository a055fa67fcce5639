/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-graph-fixture.h"
#include <sys/stat.h>

/* One iteration's dataflow graph (src/core/graph) on generated iterations
 * whose truth is known: every edge, its source, the external inputs, the
 * classes, and the chains the blame follows along the edges. */

#define ITERATION "20260101000000/0/11/0"

typedef OviTmpDir Fixture;

/* A small network that reuses buffers: four places where the first writer
 * of an address is not the producer, and more where several wrote it. */
static const OviGraphFixtureExternal bert_inputs[] = {
  { "input_ids", "Data", FALSE },
  { "w1", "Const", FALSE },
  { "w2", "Const", FALSE },
};

static const OviGraphFixtureOp bert_ops[] = {
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

static const OviGraphFixtureNet bert = { bert_inputs, G_N_ELEMENTS (bert_inputs), bert_ops,
                                         G_N_ELEMENTS (bert_ops) };

/* The same network fed a batch whose input holds NaN: no operator made it. */
static const OviGraphFixtureExternal bad_batch_inputs[] = {
  { "input_ids", "Data", TRUE },
  { "w1", "Const", FALSE },
  { "w2", "Const", FALSE },
};

static const OviGraphFixtureOp bad_batch_ops[] = {
  { "Cast", "bert/embeddings/Cast", "input_ids", 0, OVI_GRAPH_FIXTURE_PASS },
  { "MatMul", "l1/MatMul", "bert/embeddings/Cast w1", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Relu", "l1/Relu", "l1/MatMul", 0, OVI_GRAPH_FIXTURE_ABSORB },
  { "MatMul", "l2/MatMul", "l1/Relu w2", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Relu", "l2/Relu", "l2/MatMul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Add", "res/Add", "l2/Relu bert/embeddings/Cast", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Mul", "out/Mul", "res/Add l1/Relu", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Softmax", "out/Softmax", "out/Mul", 0, OVI_GRAPH_FIXTURE_ABSORB },
  { "Cast", "out/Cast", "out/Softmax", 0, OVI_GRAPH_FIXTURE_PASS },
};

static const OviGraphFixtureNet bad_batch = { bad_batch_inputs, G_N_ELEMENTS (bad_batch_inputs),
                                              bad_batch_ops, G_N_ELEMENTS (bad_batch_ops) };

/* Two branches run interleaved; branch a goes bad, branch b stays clean
 * (its first operator runs right after a's origin). An AssignAdd writes a
 * variable's buffer and an in-place Add its input's. */
static const OviGraphFixtureExternal branch_inputs[] = {
  { "x", "Data", FALSE },
  { "v", "Const", FALSE },
  { "w", "Const", FALSE },
};

static const OviGraphFixtureOp branch_ops[] = {
  { "Mul", "a/Mul", "x w", 0, OVI_GRAPH_FIXTURE_ORIGIN },
  { "Mul", "b/Mul", "x w", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Relu", "a/Relu", "a/Mul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Relu", "b/Relu", "b/Mul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "AssignAdd", "b/AssignAdd", "v b/Relu", 0, OVI_GRAPH_FIXTURE_INPLACE },
  { "Add", "a/AddInplace", "a/Relu x", 0, OVI_GRAPH_FIXTURE_INPLACE },
  { "Mul", "b/Out", "b/AssignAdd w", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Mul", "a/Out", "a/AddInplace", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Add", "merge/Add", "a/Out b/Out", 0, OVI_GRAPH_FIXTURE_PASS },
};

static const OviGraphFixtureNet branches = { branch_inputs, G_N_ELEMENTS (branch_inputs),
                                             branch_ops, G_N_ELEMENTS (branch_ops) };

/* Two origins on two branches that meet late. */
static const OviGraphFixtureExternal meet_inputs[] = {
  { "x", "Data", FALSE },
  { "w", "Const", FALSE },
};

static const OviGraphFixtureOp meet_ops[] = {
  { "MatMul", "p/MatMul", "x w", 0, OVI_GRAPH_FIXTURE_ORIGIN },
  { "MatMul", "q/MatMul", "x w", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Relu", "p/Relu", "p/MatMul", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Exp", "q/Exp", "q/MatMul", 0, OVI_GRAPH_FIXTURE_ORIGIN },
  { "Relu", "q/Relu", "q/Exp", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Add", "join/Add", "p/Relu q/Relu", 0, OVI_GRAPH_FIXTURE_PASS },
  { "Mul", "tail/Mul", "join/Add w", 0, OVI_GRAPH_FIXTURE_PASS },
};

static const OviGraphFixtureNet meet = { meet_inputs, G_N_ELEMENTS (meet_inputs), meet_ops,
                                         G_N_ELEMENTS (meet_ops) };

static OviGraph *
build (Fixture *f,
       const OviGraphFixtureNet *net,
       OviGraphFixtureFlags flags,
       gboolean use_json,
       OviGraphFixtureTruth *truth)
{
  g_autofree char *dir = g_build_filename (f->dir, ITERATION, NULL);
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  OviGraph *graph;

  ovi_graph_fixture_write (net, dir, flags, truth);
  folder = ovi_fixture_load_folder (f->dir);
  graph = ovi_graph_build (folder, NULL, use_json ? truth->json : NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* Every edge as "producer:k -> consumer:j", sorted. */
static char *
edges_text (OviGraph *graph, OviGraphEdgeSource source)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint e = 0; e < ovi_graph_get_n_edges (graph); e++)
    {
      const OviGraphEdge *edge = ovi_graph_get_edge (graph, e);

      g_assert_cmpint (edge->source, ==, source);
      g_ptr_array_add (
          lines,
          g_strdup_printf (
              "%s:%u -> %s:%u",
              ovi_graph_node_get_name (ovi_graph_get_node (graph, edge->producer)), edge->output,
              ovi_graph_node_get_name (ovi_graph_get_node (graph, edge->consumer)), edge->input));
    }
  g_ptr_array_sort (lines, compare_names);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static char *
truth_text (OviGraphFixtureTruth *truth)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_copy (truth->edges, (GCopyFunc) g_strdup, NULL);

  g_ptr_array_set_free_func (lines, g_free);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static char *
chains_of (OviGraph *graph, const char *op_name)
{
  OviGraphNode *node = ovi_graph_lookup (graph, op_name);

  g_assert_nonnull (node);
  return ovi_graph_dup_chain_text (graph, ovi_graph_node_get_index (node));
}

static void
assert_blame (OviGraph *graph, const char *op_name, OviBlame blame)
{
  OviGraphNode *node = ovi_graph_lookup (graph, op_name);

  g_assert_nonnull (node);
  g_assert_cmpstr (ovi_blame_name (ovi_graph_node_get_blame (node)), ==, ovi_blame_name (blame));
}

static void
assert_chain (OviGraph *graph, const char *op_name, const char *expected)
{
  g_autofree char *chains = chains_of (graph, op_name);

  g_assert_cmpstr (chains, ==, expected);
}

/* The diff along edges ------------------------------------------------- */

/* @net with its one known change undone: no operator makes NaN from clean
 * inputs and no external holds it; the golden run to diff against. */
static OviDiffResult *
diff_against_clean (Fixture *f, const OviGraphFixtureNet *net)
{
  g_autofree OviGraphFixtureExternal *externals =
      g_memdup2 (net->externals, net->n_externals * sizeof *externals);
  g_autofree OviGraphFixtureOp *ops = g_memdup2 (net->ops, net->n_ops * sizeof *ops);
  OviGraphFixtureNet clean = { externals, net->n_externals, ops, net->n_ops };
  g_autoptr (GError) error = NULL;
  g_autofree char *golden = g_dir_make_tmp ("ovi-golden-XXXXXX", &error);
  g_autofree char *dir = NULL;
  g_autoptr (OviDiff) diff = NULL;
  OviGraphFixtureTruth truth;
  OviDiffResult *result;

  g_assert_no_error (error);
  for (guint i = 0; i < net->n_externals; i++)
    externals[i].bad = FALSE;
  for (guint i = 0; i < net->n_ops; i++)
    if (ops[i].role == OVI_GRAPH_FIXTURE_ORIGIN)
      ops[i].role = OVI_GRAPH_FIXTURE_PASS;
  dir = g_build_filename (golden, ITERATION, NULL);
  ovi_graph_fixture_write (&clean, dir, 0, &truth);
  ovi_graph_fixture_truth_clear (&truth);
  diff = ovi_diff_new (f->dir, golden);
  result = ovi_diff_run (diff, NULL, &error);
  g_assert_no_error (error);
  ovi_fixture_remove_tree (golden);
  return result;
}

static OviDiffOperator *
diff_op (OviDiffResult *result, const char *name)
{
  GListModel *ops = ovi_diff_result_get_operators (result);

  for (guint i = 0; i < g_list_model_get_n_items (ops); i++)
    {
      g_autoptr (OviDiffOperator) op = g_list_model_get_item (ops, i);
      if (g_str_equal (ovi_diff_operator_get_name (op), name))
        return op; /* the result holds it */
    }
  g_assert_not_reached ();
}

/* The starts @name follows from, space separated; NULL when none. */
static char *
follows_text (OviDiffResult *result, const char *name)
{
  gboolean more = TRUE;
  GPtrArray *follows = ovi_diff_operator_get_follows (diff_op (result, name), &more);
  g_autoptr (GPtrArray) copy = NULL;

  g_assert_false (more);
  if (follows == NULL || follows->len == 0)
    return NULL;
  copy = g_ptr_array_new ();
  for (guint i = 0; i < follows->len; i++)
    g_ptr_array_add (copy, g_ptr_array_index (follows, i));
  g_ptr_array_sort (copy, compare_names);
  g_ptr_array_add (copy, NULL);
  return g_strjoinv (" ", (char **) copy->pdata);
}

static void
assert_follows (OviDiffResult *result, const char *name, const char *expected)
{
  g_autofree char *follows = follows_text (result, name);

  g_assert_cmpstr (follows, ==, expected);
}

/* The first divergence: its operator, form, and the external input named. */
static void
assert_first (OviDiffResult *result,
              const char *name,
              OviDiffDivergenceForm form,
              const char *through,
              OviGraphNodeKind through_kind)
{
  OviDiffOperator *first = ovi_diff_result_get_first_divergence (result);
  OviGraphNodeKind kind = OVI_GRAPH_NODE_OPERATOR;

  g_assert_nonnull (first);
  g_assert_cmpstr (ovi_diff_operator_get_name (first), ==, name);
  g_assert_cmpint (ovi_diff_result_get_first_divergence_form (result), ==, form);
  g_assert_cmpint (ovi_diff_operator_get_start (first), ==, form);
  g_assert_cmpstr (ovi_diff_operator_get_entered_through (first, &kind), ==, through);
  if (through)
    {
      g_autofree char *headline = ovi_diff_result_dup_headline (result);

      g_assert_cmpint (kind, ==, through_kind);
      g_assert_true (strstr (headline, through) != NULL);
    }
}

/* The text and the JSON say it too: the input it entered through, and the
 * start res/Add follows from. */
static void
assert_written (OviDiffResult *result, const char *through, const char *start)
{
  g_autofree char *text = ovi_diff_result_to_text (result);
  g_autofree char *follows = g_strdup_printf ("follows from %s\n", start);
  g_autoptr (JsonNode) json = ovi_diff_result_to_json (result);
  JsonObject *root = json_node_get_object (json);
  JsonObject *first = json_object_get_object_member (root, "first_divergence");
  JsonArray *ops = json_object_get_array_member (root, "operators");
  gboolean found = FALSE;

  g_assert_true (strstr (text, follows) != NULL);
  g_assert_true (json_object_get_boolean_member (root, "along_edges"));
  g_assert_cmpstr (json_object_get_string_member (first, "entered_through"), ==, through);
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *op = json_array_get_object_element (ops, i);
      JsonArray *list;

      if (g_strcmp0 (json_object_get_string_member (op, "name"), "res/Add") != 0)
        continue;
      list = json_object_get_array_member (op, "follows");
      g_assert_cmpuint (json_array_get_length (list), ==, 1);
      g_assert_cmpstr (json_array_get_string_element (list, 0), ==, start);
      g_assert_null (json_object_get_string_member (op, "start"));
      found = TRUE;
    }
  g_assert_true (found);
}

/* Buffers reused: the last writer before the reader is the producer. */
static void
test_reuse (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &bert, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  g_autofree char *edges = edges_text (graph, OVI_GRAPH_EDGE_ADDRESS);
  g_autofree char *expected = truth_text (&truth);

  /* The fixture is one where the simpler rules go wrong. */
  g_assert_cmpuint (truth.first_wrong, >=, 3);
  g_assert_cmpuint (truth.any_wrong, >=, 3);
  g_assert_cmpstr (edges, ==, expected);
  g_assert_null (ovi_graph_get_run_order_note (graph));
  /* Nine operators and three buffers no operator wrote. */
  g_assert_cmpuint (ovi_graph_get_n_nodes (graph), ==, 12);
  g_assert_cmpint (ovi_graph_node_get_kind (ovi_graph_lookup (graph, "external 0xe0000100")), ==,
                   OVI_GRAPH_NODE_EXTERNAL);

  assert_blame (graph, "l2/MatMul", OVI_BLAME_ORIGIN);
  assert_blame (graph, "out/Mul", OVI_BLAME_PROPAGATED);
  assert_blame (graph, "out/Softmax", OVI_BLAME_ABSORBED);
  assert_blame (graph, "out/Cast", OVI_BLAME_NORMAL);
  assert_chain (graph, "l2/MatMul", "l2/MatMul");
  assert_chain (graph, "out/Softmax", "l2/MatMul → l2/Relu → res/Add → out/Mul → out/Softmax");
  assert_chain (graph, "out/Cast", NULL);
  assert_chain (graph, "l1/Relu", NULL);

  /* Diffed against the same network without the origin. */
  {
    g_autoptr (OviDiffResult) result = diff_against_clean (f, &bert);

    g_assert_true (ovi_diff_result_get_along_edges (result));
    assert_first (result, "l2/MatMul", OVI_DIFF_DIVERGENCE_ORIGIN, NULL, 0);
    assert_follows (result, "out/Softmax", "l2/MatMul");
    assert_follows (result, "res/Add", "l2/MatMul");
    g_assert_cmpint (ovi_diff_operator_get_op_class (diff_op (result, "out/Cast")), ==,
                     OVI_DIFF_OP_IDENTICAL);
    assert_follows (result, "out/Cast", NULL);
  }
  ovi_graph_fixture_truth_clear (&truth);
}

/* In-place writers and a clean branch interleaved with a bad one. */
static void
test_branches (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &branches, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  g_autofree char *edges = edges_text (graph, OVI_GRAPH_EDGE_ADDRESS);
  g_autofree char *expected = truth_text (&truth);
  OviGraphNode *b_mul = ovi_graph_lookup (graph, "b/Mul");
  g_autoptr (GArray) near = NULL;

  g_assert_cmpstr (edges, ==, expected);
  /* The variable's buffer: read from outside by AssignAdd, then its output. */
  g_assert_true (strstr (edges, "b/AssignAdd:0 -> b/Out:0") != NULL);
  g_assert_true (strstr (edges, "a/AddInplace:0 -> a/Out:0") != NULL);

  /* Right after the origin in run order, but on the clean branch. */
  g_assert_cmpint (ovi_graph_node_get_position (b_mul), ==, 1);
  assert_blame (graph, "b/Mul", OVI_BLAME_NORMAL);
  assert_chain (graph, "b/Mul", NULL);
  assert_chain (graph, "merge/Add", "a/Mul → a/Relu → a/AddInplace → a/Out → merge/Add");
  assert_chain (graph, "a/Out", "a/Mul → a/Relu → a/AddInplace → a/Out");

  /* What the page draws of merge/Add, one hop around its chain. */
  near = ovi_graph_dup_neighbourhood (
      graph, ovi_graph_node_get_index (ovi_graph_lookup (graph, "merge/Add")), 1, 1);
  g_assert_cmpuint (near->len, ==, 6); /* the chain's five and b/Out */

  {
    g_autoptr (OviDiffResult) result = diff_against_clean (f, &branches);

    assert_first (result, "a/Mul", OVI_DIFF_DIVERGENCE_ORIGIN, NULL, 0);
    assert_follows (result, "a/Out", "a/Mul");
    assert_follows (result, "merge/Add", "a/Mul");
    /* Right after the origin, on the clean branch: no difference at all. */
    assert_follows (result, "b/Mul", NULL);
    g_assert_cmpint (ovi_diff_operator_get_op_class (diff_op (result, "b/Out")), ==,
                     OVI_DIFF_OP_IDENTICAL);
  }
  ovi_graph_fixture_truth_clear (&truth);
}

/* More starts reach an operator than it lists: the earliest
 * OVI_DIFF_FOLLOWS_MAX, and it says there are more. Eighteen origins,
 * summed one after the other. */
static void
test_follows_capped (Fixture *f, gconstpointer data)
{
  enum
  {
    N = OVI_DIFF_FOLLOWS_MAX + 2
  };
  static const OviGraphFixtureExternal x[] = { { "x", "Data", FALSE } };
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  OviGraphFixtureOp ops[2 * N - 1];
  OviGraphFixtureNet net = { x, 1, ops, G_N_ELEMENTS (ops) };
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = NULL;
  g_autoptr (OviDiffResult) result = NULL;
  gboolean more = FALSE;
  GPtrArray *follows;

  for (guint i = 0; i < N; i++)
    {
      char *name = g_strdup_printf ("o%02u/Exp", i);
      g_ptr_array_add (strings, name);
      ops[i] = (OviGraphFixtureOp){ "Exp", name, "x", 0, OVI_GRAPH_FIXTURE_ORIGIN };
    }
  for (guint i = 1; i < N; i++)
    {
      char *name = g_strdup_printf ("s%02u/Add", i);
      char *inputs =
          g_strdup_printf ("%s %s", i == 1 ? ops[0].name : ops[N + i - 2].name, ops[i].name);
      g_ptr_array_add (strings, name);
      g_ptr_array_add (strings, inputs);
      ops[N + i - 1] = (OviGraphFixtureOp){ "Add", name, inputs, 0, OVI_GRAPH_FIXTURE_PASS };
    }
  graph = build (f, &net, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  result = diff_against_clean (f, &net);
  g_assert_true (ovi_diff_result_get_along_edges (result));
  follows = ovi_diff_operator_get_follows (diff_op (result, ops[2 * N - 2].name), &more);
  g_assert_true (more);
  g_assert_cmpuint (follows->len, ==, OVI_DIFF_FOLLOWS_MAX);
  for (guint i = 0; i < OVI_DIFF_FOLLOWS_MAX; i++)
    g_assert_cmpstr (g_ptr_array_index (follows, i), ==, ops[i].name);
  /* One step before, exactly as many: all of them, no more. */
  follows = ovi_diff_operator_get_follows (diff_op (result, ops[2 * N - 4].name), &more);
  g_assert_false (more);
  g_assert_cmpuint (follows->len, ==, OVI_DIFF_FOLLOWS_MAX);
  ovi_graph_fixture_truth_clear (&truth);
}

/* An operator whose file cannot be read wrote a buffer that its consumer
 * reads: the graph cannot see the writer, but the difference did not come
 * from outside the dump, so that input falls back to run order. */
static void
test_unreadable_producer (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &branches, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  g_autofree char *dir = g_build_filename (f->dir, ITERATION, NULL);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  g_autoptr (OviDiffResult) result = NULL;
  const char *name;
  gboolean spoilt = FALSE;

  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (name, "Relu.a_Relu."))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_assert_true (g_file_set_contents (path, "\xff\xff\xff\xff not a dump", -1, NULL));
        spoilt = TRUE;
      }
  g_assert_true (spoilt);
  result = diff_against_clean (f, &branches);
  g_assert_true (ovi_diff_result_get_along_edges (result));
  assert_first (result, "a/Mul", OVI_DIFF_DIVERGENCE_ORIGIN, NULL, 0);
  /* Named as its file names it: the header could not be read. */
  g_assert_cmpint (ovi_diff_operator_get_op_class (diff_op (result, "a_Relu")), ==,
                   OVI_DIFF_OP_NOT_COMPARABLE);
  g_assert_cmpint (ovi_diff_operator_get_start (diff_op (result, "a/AddInplace")), ==,
                   OVI_DIFF_DIVERGENCE_NONE);
  g_assert_null (ovi_diff_operator_get_entered_through (diff_op (result, "a/AddInplace"), NULL));
  ovi_graph_fixture_truth_clear (&truth);
}

/* The same branches, and the variable of branch b differs too (written by
 * b/AssignAdd in place, after branch a went bad): along edges that is a
 * second start, entered through the variable; run order takes it for a
 * consequence of a/Mul. */
static const OviGraphFixtureExternal bad_variable_inputs[] = {
  { "x", "Data", FALSE },
  { "v", "Const", TRUE },
  { "w", "Const", FALSE },
};

static const OviGraphFixtureNet bad_variable = { bad_variable_inputs,
                                                 G_N_ELEMENTS (bad_variable_inputs), branch_ops,
                                                 G_N_ELEMENTS (branch_ops) };

static void
test_branches_diff (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &bad_variable, GPOINTER_TO_UINT (data), TRUE, &truth);
  g_autoptr (OviDiffResult) result = diff_against_clean (f, &bad_variable);
  OviGraphNodeKind kind = OVI_GRAPH_NODE_OPERATOR;

  assert_first (result, "a/Mul", OVI_DIFF_DIVERGENCE_ORIGIN, NULL, 0);
  if (GPOINTER_TO_UINT (data) == 0)
    {
      /* Run order: everything after a/Mul may come from it. */
      g_assert_false (ovi_diff_result_get_along_edges (result));
      g_assert_cmpint (ovi_diff_operator_get_start (diff_op (result, "b/AssignAdd")), ==,
                       OVI_DIFF_DIVERGENCE_NONE);
      assert_follows (result, "b/AssignAdd", "a/Mul");
      assert_follows (result, "b/Out", "a/Mul");
      assert_follows (result, "merge/Add", "a/Mul");
      ovi_graph_fixture_truth_clear (&truth);
      return;
    }
  g_assert_true (ovi_diff_result_get_along_edges (result));
  g_assert_cmpint (ovi_diff_operator_get_start (diff_op (result, "b/AssignAdd")), ==,
                   OVI_DIFF_DIVERGENCE_ENTERED);
  g_assert_cmpstr (
      ovi_diff_operator_get_entered_through (diff_op (result, "b/AssignAdd"), &kind), ==,
      GPOINTER_TO_UINT (data) & OVI_GRAPH_FIXTURE_ADDRESSES ? "external 0xe0000100" : "v");
  g_assert_cmpint (kind, ==,
                   GPOINTER_TO_UINT (data) & OVI_GRAPH_FIXTURE_ADDRESSES ? OVI_GRAPH_NODE_EXTERNAL
                                                                         : OVI_GRAPH_NODE_CONSTANT);
  assert_follows (result, "b/AssignAdd", NULL);
  {
    g_autofree char *text = ovi_diff_result_to_text (result);
    g_autofree char *named = g_strdup_printf (
        "entered through %s\n",
        ovi_diff_operator_get_entered_through (diff_op (result, "b/AssignAdd"), NULL));

    g_assert_true (strstr (text, named) != NULL);
  }
  assert_follows (result, "b/Out", "b/AssignAdd");
  assert_follows (result, "a/Out", "a/Mul");
  assert_follows (result, "merge/Add", "a/Mul b/AssignAdd");
  ovi_graph_fixture_truth_clear (&truth);
}

/* Two origins that meet late are two chains. */
static void
test_two_origins (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &meet, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  g_autofree char *edges = edges_text (graph, OVI_GRAPH_EDGE_ADDRESS);
  g_autofree char *expected = truth_text (&truth);
  guint n;

  g_assert_cmpstr (edges, ==, expected);
  ovi_graph_get_origins (graph, ovi_graph_node_get_index (ovi_graph_lookup (graph, "tail/Mul")),
                         &n);
  g_assert_cmpuint (n, ==, 2);
  assert_chain (graph, "tail/Mul",
                "p/MatMul → p/Relu → join/Add → tail/Mul\n"
                "q/Exp → q/Relu → join/Add → tail/Mul");
  assert_chain (graph, "p/Relu", "p/MatMul → p/Relu");
  assert_chain (graph, "q/Relu", "q/Exp → q/Relu");

  /* Two starts; each later difference follows the ones upstream of it. */
  {
    g_autoptr (OviDiffResult) result = diff_against_clean (f, &meet);

    assert_first (result, "p/MatMul", OVI_DIFF_DIVERGENCE_ORIGIN, NULL, 0);
    g_assert_cmpint (ovi_diff_operator_get_start (diff_op (result, "q/Exp")), ==,
                     OVI_DIFF_DIVERGENCE_ORIGIN);
    assert_follows (result, "p/Relu", "p/MatMul");
    assert_follows (result, "q/Relu", "q/Exp");
    assert_follows (result, "join/Add", "p/MatMul q/Exp");
    assert_follows (result, "tail/Mul", "p/MatMul q/Exp");
  }
  ovi_graph_fixture_truth_clear (&truth);
}

/* A batch that held NaN: the chain starts at the graph input. */
static void
test_bad_batch (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &bad_batch, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  g_autofree char *edges = edges_text (graph, OVI_GRAPH_EDGE_ADDRESS);
  g_autofree char *expected = truth_text (&truth);

  g_assert_cmpstr (edges, ==, expected);
  assert_blame (graph, "bert/embeddings/Cast", OVI_BLAME_PROPAGATED);
  assert_chain (graph, "bert/embeddings/Cast", "external 0xe0000000 → bert/embeddings/Cast");
  assert_chain (graph, "res/Add", "external 0xe0000000 → bert/embeddings/Cast → res/Add");

  /* No operator made the difference: it entered through the input's buffer. */
  {
    g_autoptr (OviDiffResult) result = diff_against_clean (f, &bad_batch);

    assert_first (result, "bert/embeddings/Cast", OVI_DIFF_DIVERGENCE_ENTERED,
                  "external 0xe0000000", OVI_GRAPH_NODE_EXTERNAL);
    g_assert_cmpuint (ovi_diff_result_get_first_divergence_input (result), ==, 0);
    assert_follows (result, "res/Add", "bert/embeddings/Cast");
    assert_follows (result, "out/Softmax", "bert/embeddings/Cast");
  }
  ovi_graph_fixture_truth_clear (&truth);
}

/* No addresses, but the fusion-rule graph: the same edges from the JSON,
 * the external inputs named. */
static void
test_graph_json (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &bad_batch, OVI_GRAPH_FIXTURE_JSON, TRUE, &truth);
  g_autofree char *edges = edges_text (graph, OVI_GRAPH_EDGE_GRAPH_JSON);
  g_autofree char *expected = truth_text (&truth);
  OviGraphNode *input = ovi_graph_lookup (graph, "input_ids");

  g_assert_cmpstr (edges, ==, expected);
  g_assert_null (ovi_graph_get_run_order_note (graph));
  g_assert_cmpint (ovi_graph_node_get_kind (input), ==, OVI_GRAPH_NODE_INPUT);
  g_assert_cmpint (ovi_graph_node_get_kind (ovi_graph_lookup (graph, "w1")), ==,
                   OVI_GRAPH_NODE_CONSTANT);
  g_assert_cmpint (ovi_graph_node_get_position (input), ==, -1);
  /* Dumped operators are not doubled by the JSON's ops. */
  g_assert_cmpuint (ovi_graph_get_n_nodes (graph), ==, 12);
  assert_chain (graph, "res/Add", "input_ids → bert/embeddings/Cast → res/Add");

  /* The graph JSON beside the dumps names the graph input. */
  {
    g_autoptr (OviDiffResult) result = diff_against_clean (f, &bad_batch);

    g_assert_true (ovi_diff_result_get_along_edges (result));
    assert_first (result, "bert/embeddings/Cast", OVI_DIFF_DIVERGENCE_ENTERED, "input_ids",
                  OVI_GRAPH_NODE_INPUT);
    assert_follows (result, "res/Add", "bert/embeddings/Cast");
    assert_follows (result, "l2/MatMul", NULL); /* behind l1/Relu, which absorbed it */
    assert_written (result, "input_ids", "bert/embeddings/Cast");
  }
  ovi_graph_fixture_truth_clear (&truth);
}

/* Neither addresses nor a graph: no edges, the blame in run order, said so. */
static void
test_run_order (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &meet, 0, FALSE, &truth);

  g_assert_false (ovi_graph_has_edges (graph));
  g_assert_cmpuint (ovi_graph_get_n_nodes (graph), ==, 7);
  g_assert_cmpstr (ovi_graph_get_run_order_note (graph), ==,
                   "the dumps carry no addresses and no graph was given: the blame follows run "
                   "order");
  /* The earliest origin, as the analyses without a graph judge. */
  assert_chain (graph, "tail/Mul", "p/MatMul → tail/Mul");
  assert_chain (graph, "q/Relu", "p/MatMul → q/Relu");

  /* The diff too: the start just before it, all run order can say; where
   * the branches meet, along edges both (/graph/two-origins). */
  {
    g_autoptr (OviDiffResult) result = diff_against_clean (f, &meet);

    g_assert_false (ovi_diff_result_get_along_edges (result));
    assert_first (result, "p/MatMul", OVI_DIFF_DIVERGENCE_ORIGIN, NULL, 0);
    assert_follows (result, "p/Relu", "p/MatMul");
    assert_follows (result, "q/Relu", "q/Exp");
    assert_follows (result, "join/Add", "q/Exp");
    assert_follows (result, "tail/Mul", "q/Exp");
  }
  ovi_graph_fixture_truth_clear (&truth);
}

/* The graph JSON beside the dumps is found; another JSON is not taken for one. */
static void
test_find_json (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &meet, OVI_GRAPH_FIXTURE_JSON, FALSE, &truth);
  g_autofree char *other = g_build_filename (f->dir, ITERATION, "acl_dump_0.json", NULL);
  g_autofree char *found = NULL;

  g_assert_true (g_file_set_contents (other, "{\"dump\": {}}", -1, NULL));
  found = ovi_graph_find_json (ovi_graph_get_folder (graph), NULL);
  g_assert_cmpstr (found, ==, truth.json);
  ovi_graph_fixture_truth_clear (&truth);
}

/* A JSON that is no graph: the error names the file and the problem. */
static void
test_bad_json (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) graph = build (f, &meet, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  g_autofree char *path = g_build_filename (f->dir, "broken.json", NULL);
  g_autofree char *fifo = g_build_filename (f->dir, "fifo.json", NULL);
  g_autoptr (GError) error = NULL;
  OviGraph *none;

  g_assert_true (g_file_set_contents (path,
                                      "{\"graph\": [{\"op\": [{\"name\": \"a\", \"type\": "
                                      "\"Add\", \"input\": [\"nocolon\"]}]}]}",
                                      -1, NULL));
  none = ovi_graph_build (ovi_graph_get_folder (graph), NULL, path, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, OVI_GRAPH_ERROR, OVI_GRAPH_ERROR_JSON);
  g_assert_true (strstr (error->message, "broken.json") != NULL);
  g_assert_true (strstr (error->message, "name:index") != NULL);
  g_clear_error (&error);

  g_assert_no_errno (mkfifo (fifo, 0600));
  none = ovi_graph_build (ovi_graph_get_folder (graph), NULL, fifo, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, OVI_GRAPH_ERROR, OVI_GRAPH_ERROR_JSON);
  g_assert_true (strstr (error->message, "fifo.json") != NULL);
  ovi_graph_fixture_truth_clear (&truth);
}

static void
got_graph (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OviGraph **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = ovi_graph_build_finish (result, &error);
  g_assert_no_error (error);
}

/* Off the main thread, and once: the second ask gets the same graph. */
static void
test_async_once (Fixture *f, gconstpointer data)
{
  OviGraphFixtureTruth truth;
  g_autoptr (OviGraph) first = build (f, &meet, OVI_GRAPH_FIXTURE_ADDRESSES, FALSE, &truth);
  OviDumpFolder *folder = ovi_graph_get_folder (first);
  g_autoptr (OviGraph) a = NULL;
  g_autoptr (OviGraph) b = NULL;

  ovi_graph_build_async (folder, ITERATION, NULL, NULL, got_graph, &a);
  while (a == NULL)
    g_main_context_iteration (NULL, TRUE);
  ovi_graph_build_async (folder, ITERATION, NULL, NULL, got_graph, &b);
  while (b == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (a == b);
  g_assert_cmpuint (ovi_graph_get_n_edges (a), ==, ovi_graph_get_n_edges (first));
  ovi_graph_fixture_truth_clear (&truth);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/graph/reuse", Fixture, NULL, ovi_tmp_dir_setup, test_reuse, ovi_tmp_dir_teardown);
  g_test_add ("/graph/branches", Fixture, NULL, ovi_tmp_dir_setup, test_branches,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/branches-diff/addresses", Fixture,
              GUINT_TO_POINTER (OVI_GRAPH_FIXTURE_ADDRESSES), ovi_tmp_dir_setup, test_branches_diff,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/branches-diff/graph-json", Fixture, GUINT_TO_POINTER (OVI_GRAPH_FIXTURE_JSON),
              ovi_tmp_dir_setup, test_branches_diff, ovi_tmp_dir_teardown);
  g_test_add ("/graph/branches-diff/run-order", Fixture, GUINT_TO_POINTER (0), ovi_tmp_dir_setup,
              test_branches_diff, ovi_tmp_dir_teardown);
  g_test_add ("/graph/unreadable-producer", Fixture, NULL, ovi_tmp_dir_setup,
              test_unreadable_producer, ovi_tmp_dir_teardown);
  g_test_add ("/graph/follows-capped", Fixture, NULL, ovi_tmp_dir_setup, test_follows_capped,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/two-origins", Fixture, NULL, ovi_tmp_dir_setup, test_two_origins,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/bad-batch", Fixture, NULL, ovi_tmp_dir_setup, test_bad_batch,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/graph-json", Fixture, NULL, ovi_tmp_dir_setup, test_graph_json,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/run-order", Fixture, NULL, ovi_tmp_dir_setup, test_run_order,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/find-json", Fixture, NULL, ovi_tmp_dir_setup, test_find_json,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/bad-json", Fixture, NULL, ovi_tmp_dir_setup, test_bad_json,
              ovi_tmp_dir_teardown);
  g_test_add ("/graph/async-once", Fixture, NULL, ovi_tmp_dir_setup, test_async_once,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
