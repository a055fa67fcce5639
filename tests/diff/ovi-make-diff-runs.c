/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovi-fixtures.h"
#include "ovi-layout-reference.h"

/* Writes two runs of one network with the project's writer, for comparing
 * `overflow-inspector-cli diff` with the vendor's `msaccucmp compare`:
 *
 *   ovi-make-diff-runs cases MY GOLDEN
 *     one operator per case the comparison test checks (dtypes, an
 *     injected difference, Inf and NaN, all-zero and constant tensors,
 *     values near 1e20, a device layout, float16 against a float32
 *     golden, shapes that differ, an operator on each side only, one
 *     run twice);
 *   ovi-make-diff-runs bench MY GOLDEN N_OPS BIG_COUNT [large]
 *     N_OPS operators in a chain, float16 and float32, one of them with a
 *     float32 output of BIG_COUNT elements, and one injected difference
 *     in the middle (the benchmark's input); with "large", every input
 *     and output is float32 of BIG_COUNT elements (few large tensors).
 *
 * Both runs have the vendor's file names, {type}.{name}.{task}.{stream}.
 * {timestamp}, in the same order; header name and file name are the same. */

static guint32 state;

static double
next_value (void)
{
  double sum = 0;
  for (int k = 0; k < 3; k++)
    {
      state = state * 1664525u + 1013904223u;
      sum += (state >> 8) / 16777216.0;
    }
  return (sum - 1.5) * 4.0;
}

static void
seed (const char *name)
{
  state = g_str_hash (name) | 1;
}

typedef struct
{
  const char *my_dir, *golden_dir;
  guint64 time;
  guint task;
} Runs;

static void
save (OviDumpWriter *w, const char *dir, const char *type, const char *name, Runs *runs)
{
  g_autofree char *file =
      g_strdup_printf ("%s.%s.%u.3.%" G_GUINT64_FORMAT, type, name, runs->task, runs->time);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr (GError) error = NULL;

  if (!ovi_dump_writer_write (w, OVI_LAYOUT_NEW, path, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }
}

typedef struct
{
  int dtype, format;
  guint n_dims;
  guint64 shape[8];
  guint n_orig;
  guint64 orig[8];
} Desc;

static guint64
desc_count (const Desc *d)
{
  guint64 n = 1;
  for (guint i = 0; i < d->n_dims; i++)
    n *= d->shape[i];
  return n;
}

static void
add (OviDumpWriter *w, OviTensorKind kind, const Desc *d, const double *values)
{
  g_autoptr (GBytes) data = ovi_fixture_encode (d->dtype, values, desc_count (d));

  /* each operator here has one tensor of each kind: index 0 */
  ovi_dump_writer_add_tensor (w, kind, d->dtype, d->format, d->shape, d->n_dims, data);
  if (d->n_orig > 0)
    ovi_dump_writer_set_original_shape (w, kind, 0, d->orig, d->n_orig);
}

/* One operator with one input and one output on each side. */
static void
write_pair (Runs *runs,
            const char *type,
            const char *name,
            const Desc *in,
            const double *my_in,
            const double *golden_in,
            const Desc *out,
            const double *my_out,
            const double *golden_out)
{
  g_autoptr (OviDumpWriter) mw = ovi_dump_writer_new (name);
  g_autoptr (OviDumpWriter) gw = ovi_dump_writer_new (name);

  ovi_dump_writer_set_dump_time (mw, runs->time);
  ovi_dump_writer_set_dump_time (gw, runs->time);
  if (in != NULL)
    {
      add (mw, OVI_TENSOR_INPUT, in, my_in);
      add (gw, OVI_TENSOR_INPUT, in, golden_in);
    }
  add (mw, OVI_TENSOR_OUTPUT, out, my_out);
  add (gw, OVI_TENSOR_OUTPUT, out, golden_out);
  save (mw, runs->my_dir, type, name, runs);
  save (gw, runs->golden_dir, type, name, runs);
  runs->time += 10;
  runs->task++;
}

/* One operator whose output has another dtype on each side (the input is
 * the same float32 on both). */
static void
write_pair_mixed (Runs *runs,
                  const char *type,
                  const char *name,
                  const Desc *my_out,
                  const double *my_values,
                  const Desc *golden_out,
                  const double *golden_values)
{
  const Desc in = { OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, 2, { 8, 16 } };
  g_autoptr (OviDumpWriter) mw = ovi_dump_writer_new (name);
  g_autoptr (OviDumpWriter) gw = ovi_dump_writer_new (name);
  g_autofree double *x = g_new0 (double, 128);

  for (guint i = 0; i < 128; i++)
    x[i] = i / 64.0 - 1;
  ovi_dump_writer_set_dump_time (mw, runs->time);
  ovi_dump_writer_set_dump_time (gw, runs->time);
  add (mw, OVI_TENSOR_INPUT, &in, x);
  add (gw, OVI_TENSOR_INPUT, &in, x);
  add (mw, OVI_TENSOR_OUTPUT, my_out, my_values);
  add (gw, OVI_TENSOR_OUTPUT, golden_out, golden_values);
  save (mw, runs->my_dir, type, name, runs);
  save (gw, runs->golden_dir, type, name, runs);
  runs->time += 10;
  runs->task++;
}

static double *
noise (const char *name, guint64 n, double scale)
{
  double *v = g_new (double, n);

  seed (name);
  for (guint64 i = 0; i < n; i++)
    v[i] = next_value () * scale;
  return v;
}

static double *
copy (const double *v, guint64 n)
{
  return g_memdup2 (v, n * sizeof (double));
}

#define N 128

static int
make_cases (const char *my_dir, const char *golden_dir)
{
  Runs runs = { my_dir, golden_dir, 1764670500000000, 1 };
  const Desc f32 = { OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, 2, { 8, 16 } };
  const Desc f16 = { OVI_DTYPE_FLOAT16, OVI_FORMAT_ND, 2, { 8, 16 } };
  const Desc bf16 = { OVI_DTYPE_BFLOAT16, OVI_FORMAT_ND, 2, { 8, 16 } };
  const Desc i32 = { OVI_DTYPE_INT32, OVI_FORMAT_ND, 2, { 8, 16 } };
  g_autofree double *x = noise ("input", N, 1.0);
  g_autofree double *zeros = g_new0 (double, N);

  g_assert_no_errno (g_mkdir_with_parents (my_dir, 0755));
  g_assert_no_errno (g_mkdir_with_parents (golden_dir, 0755));

  /* identical float32 */
  {
    g_autofree double *y = noise ("same", N, 1.0);
    write_pair (&runs, "Conv2D", "conv1_same", &f32, x, x, &f32, y, y);
  }
  /* float32, my side off by a relative 1e-6: within any tolerance */
  {
    g_autofree double *g = noise ("close", N, 1.0);
    g_autofree double *m = copy (g, N);
    for (guint i = 0; i < N; i++)
      m[i] = g[i] * (1 + 1e-6 * ((i % 3) - 1.0));
    write_pair (&runs, "BiasAdd", "bias1_close", &f32, x, x, &f32, m, g);
  }
  /* the injected difference: three outputs off by 0.5, inputs equal */
  {
    g_autofree double *g = noise ("inject", N, 1.0);
    g_autofree double *m = copy (g, N);
    m[5] += 0.5;
    m[77] -= 0.5;
    m[100] += 0.5;
    write_pair (&runs, "Add", "add1_inject", &f32, x, x, &f32, m, g);
  }
  /* float16 on both sides, my side one float16 step away in a few places */
  {
    g_autofree double *g = noise ("half", N, 1.0);
    g_autofree double *m = copy (g, N);
    for (guint i = 0; i < N; i += 9)
      m[i] = g[i] * (1 + 1.0 / 512);
    write_pair (&runs, "Cast", "cast1_f16", &f16, x, x, &f16, m, g);
  }
  /* bfloat16 on both sides, with a difference */
  {
    g_autofree double *g = noise ("bfloat", N, 1.0);
    g_autofree double *m = copy (g, N);
    for (guint i = 0; i < N; i += 5)
      m[i] = g[i] * 1.05;
    write_pair (&runs, "Mul", "mul1_bf16", &bf16, x, x, &bf16, m, g);
  }
  /* Inf at the same places on both sides, otherwise identical */
  {
    g_autofree double *g = noise ("inf", N, 1.0);
    g[3] = INFINITY;
    g[40] = -INFINITY;
    write_pair (&runs, "Relu", "relu1_inf_same", &f32, x, x, &f32, g, g);
  }
  /* Inf on my side only, otherwise identical */
  {
    g_autofree double *g = noise ("inf2", N, 1.0);
    g_autofree double *m = copy (g, N);
    m[9] = INFINITY;
    write_pair (&runs, "Relu", "relu2_inf_my", &f32, x, x, &f32, m, g);
  }
  /* NaN at the same place on both sides, and a difference elsewhere */
  {
    g_autofree double *g = noise ("nan", N, 1.0);
    g_autofree double *m = copy (g, N);
    g[17] = NAN;
    m[17] = NAN;
    m[18] += 0.25;
    write_pair (&runs, "Exp", "exp1_nan_same", &f32, x, x, &f32, m, g);
  }
  /* all zero on both sides */
  write_pair (&runs, "ZerosLike", "zeros1_both", &f32, x, x, &f32, zeros, zeros);
  /* all zero on my side only */
  {
    g_autofree double *g = noise ("zero_my", N, 1.0);
    write_pair (&runs, "Sub", "sub1_zero_my", &f32, x, x, &f32, zeros, g);
  }
  /* constant tensors, different constants (KL's normalisation has no range) */
  {
    g_autofree double *g = g_new (double, N);
    g_autofree double *m = g_new (double, N);
    for (guint i = 0; i < N; i++)
      {
        g[i] = 3.0;
        m[i] = 3.5;
      }
    write_pair (&runs, "Fill", "fill1_const", &f32, x, x, &f32, m, g);
  }
  /* identical values near 1e20: a float32 sum of squares overflows */
  {
    g_autofree double *g = noise ("huge", N, 1e20);
    write_pair (&runs, "Square", "square1_huge", &f32, x, x, &f32, g, g);
  }
  /* golden values below the relative errors' epsilon */
  {
    g_autofree double *g = noise ("tiny", N, 1.0);
    g_autofree double *m = copy (g, N);
    for (guint i = 0; i < N; i += 4)
      {
        g[i] = 0;
        m[i] = 0.125;
      }
    write_pair (&runs, "Div", "div1_tiny_golden", &f32, x, x, &f32, m, g);
  }
  /* a one-element tensor (the vendor's "scalar") */
  {
    const Desc one = { OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, 1, { 1 } };
    double m = 2.5, g = 2.0;
    write_pair (&runs, "ReduceSum", "sum1_scalar", &f32, x, x, &one, &m, &g);
  }
  /* one element of opposite signs: not cosine 1 */
  {
    const Desc one = { OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, 1, { 1 } };
    double m = -3, g = 1.5;
    write_pair (&runs, "ReduceSum", "sum2_scalar_sign", &f32, x, x, &one, &m, &g);
  }
  /* int32 output */
  {
    g_autofree double *g = g_new (double, N);
    g_autofree double *m = g_new (double, N);
    for (guint i = 0; i < N; i++)
      {
        g[i] = (double) (i * 7 % 13) - 6;
        m[i] = g[i] + (i == 50 ? 1 : 0);
      }
    write_pair (&runs, "ArgMax", "argmax1_i32", &f32, x, x, &i32, m, g);
  }
  /* a device layout on both sides: NC1HWC0 of NCHW (1, 20, 2, 2), the
   * padding channels 20..31 zero */
  {
    const guint64 orig[] = { 1, 20, 2, 2 };
    Desc dev = { OVI_DTYPE_FLOAT16, OVI_FORMAT_NC1HWC0, 5, { 0 }, 4, { 1, 20, 2, 2 } };
    guint64 count, l[4];
    g_autofree double *g = noise ("layout", 80, 1.0);
    g_autofree double *m = copy (g, 80);
    g_autofree double *gd = NULL, *md = NULL;

    dev.n_dims = ovi_layout_ref_device_shape (3, orig, 4, 16, dev.shape);
    count = desc_count (&dev);
    gd = g_new0 (double, count);
    md = g_new0 (double, count);
    m[21] += 0.5;
    for (l[0] = 0; l[0] < 1; l[0]++)
      for (l[1] = 0; l[1] < 20; l[1]++)
        for (l[2] = 0; l[2] < 2; l[2]++)
          for (l[3] = 0; l[3] < 2; l[3]++)
            {
              guint64 flat = ovi_layout_ref_flat (orig, 4, l);
              guint64 at = ovi_layout_ref_device_index (3, orig, 4, 16, dev.shape, dev.n_dims, l);
              gd[at] = g[flat];
              md[at] = m[flat];
            }
    write_pair (&runs, "TransData", "trans1_nc1hwc0", NULL, NULL, NULL, &dev, md, gd);
  }
  /* float16 on my side against a float32 golden */
  {
    g_autofree double *g = noise ("widen", N, 1.0);
    write_pair_mixed (&runs, "Cast", "cast2_f16_vs_f32", &f16, g, &f32, g);
  }
  /* output shapes that differ: (8, 16) against (16, 8) */
  {
    const Desc t = { OVI_DTYPE_FLOAT32, OVI_FORMAT_ND, 2, { 16, 8 } };
    g_autofree double *g = noise ("reshape", N, 1.0);
    g_autoptr (OviDumpWriter) mw = ovi_dump_writer_new ("reshape1_mismatch");
    g_autoptr (OviDumpWriter) gw = ovi_dump_writer_new ("reshape1_mismatch");
    ovi_dump_writer_set_dump_time (mw, runs.time);
    ovi_dump_writer_set_dump_time (gw, runs.time);
    add (mw, OVI_TENSOR_INPUT, &f32, x);
    add (gw, OVI_TENSOR_INPUT, &f32, x);
    add (mw, OVI_TENSOR_OUTPUT, &f32, g);
    add (gw, OVI_TENSOR_OUTPUT, &t, g);
    save (mw, my_dir, "Reshape", "reshape1_mismatch", &runs);
    save (gw, golden_dir, "Reshape", "reshape1_mismatch", &runs);
    runs.time += 10;
    runs.task++;
  }
  /* an operator in the golden run only */
  {
    g_autofree double *y = noise ("only_golden", N, 1.0);
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("neg1_only_golden");
    ovi_dump_writer_set_dump_time (w, runs.time);
    add (w, OVI_TENSOR_INPUT, &f32, x);
    add (w, OVI_TENSOR_OUTPUT, &f32, y);
    save (w, golden_dir, "Neg", "neg1_only_golden", &runs);
    runs.time += 10;
    runs.task++;
  }
  /* an operator in my run only */
  {
    g_autofree double *y = noise ("only_my", N, 1.0);
    g_autoptr (OviDumpWriter) w = ovi_dump_writer_new ("identity1_only_my");
    ovi_dump_writer_set_dump_time (w, runs.time);
    add (w, OVI_TENSOR_INPUT, &f32, x);
    add (w, OVI_TENSOR_OUTPUT, &f32, y);
    save (w, my_dir, "Identity", "identity1_only_my", &runs);
    runs.time += 10;
    runs.task++;
  }
  /* one operator run twice, last in the run: its first execution differs,
   * its second does not */
  {
    g_autofree double *g = noise ("twice", N, 1.0);
    g_autofree double *m = copy (g, N);
    m[64] += 1.0;
    write_pair (&runs, "MatMul", "matmul1_twice", &f32, x, x, &f32, m, g);
    write_pair (&runs, "MatMul", "matmul1_twice", &f32, x, x, &f32, g, g);
  }
  return 0;
}

/* The benchmark: N_OPS operators, each output the next one's input; the
 * golden run is the my run before a one-in-a-thousand perturbation that
 * starts at the middle operator and propagates from there. */
static int
make_bench (const char *my_dir, const char *golden_dir, guint n_ops, guint64 big, gboolean large)
{
  Runs runs = { my_dir, golden_dir, 1764670500000000, 1 };
  guint64 prev_n = 0;
  g_autofree double *prev_g = NULL, *prev_m = NULL;

  g_assert_no_errno (g_mkdir_with_parents (my_dir, 0755));
  g_assert_no_errno (g_mkdir_with_parents (golden_dir, 0755));
  for (guint op = 0; op < n_ops; op++)
    {
      gboolean is_big = large || op == n_ops / 4;
      guint64 n = is_big ? big : 1024 * (1 + op % 8);
      Desc out = { op % 3 == 0 ? OVI_DTYPE_FLOAT32 : OVI_DTYPE_FLOAT16, OVI_FORMAT_ND, 1, { n } };
      Desc in = { large ? OVI_DTYPE_FLOAT32 : OVI_DTYPE_FLOAT16, OVI_FORMAT_ND, 1, { prev_n } };
      g_autofree char *name = g_strdup_printf ("layer%u_op", op);
      double *g = g_new (double, n), *m = g_new (double, n);

      if (is_big)
        out.dtype = OVI_DTYPE_FLOAT32;
      for (guint64 i = 0; i < n; i++)
        {
          g[i] = next_value ();
          m[i] = g[i];
          if (op >= n_ops / 2 && i % 997 == op % 997)
            m[i] = g[i] * 1.25 + 0.01;
        }
      if (prev_g != NULL)
        write_pair (&runs, op % 2 ? "Add" : "Mul", name, &in, prev_m, prev_g, &out, m, g);
      else
        write_pair (&runs, "Data", name, NULL, NULL, NULL, &out, m, g);
      g_free (prev_g);
      g_free (prev_m);
      prev_g = g;
      prev_m = m;
      prev_n = n;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "cases") == 0)
    return make_cases (argv[2], argv[3]);
  if ((argc == 6 || (argc == 7 && strcmp (argv[6], "large") == 0)) &&
      strcmp (argv[1], "bench") == 0)
    {
      state = 12345;
      return make_bench (argv[2], argv[3], atoi (argv[4]), g_ascii_strtoull (argv[5], NULL, 10),
                         argc == 7);
    }
  fprintf (stderr, "usage: ovi-make-diff-runs cases MY GOLDEN\n"
                   "       ovi-make-diff-runs bench MY GOLDEN N_OPS BIG_COUNT [large]\n");
  return 2;
}
