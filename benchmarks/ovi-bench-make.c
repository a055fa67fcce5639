#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovi-fixtures.h"

/* Writes the benchmark inputs with the project's writer:
 *   ovi-bench-make tree DIR N_ITERATIONS OPS_PER_ITERATION OVERFLOWS_PER_ITERATION
 *   ovi-bench-make tensor FILE DTYPE COUNT
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
      g_autofree char *dir = g_strdup_printf ("%s/20261202101500/0/bench_model/1/%u", root, it);
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

int
main (int argc, char **argv)
{
  if (argc == 6 && g_str_equal (argv[1], "tree"))
    return make_tree (argv[2], atoi (argv[3]), atoi (argv[4]), atoi (argv[5]));
  if (argc == 5 && g_str_equal (argv[1], "tensor"))
    return make_tensor (argv[2], argv[3], g_ascii_strtoull (argv[4], NULL, 10));
  fprintf (stderr, "usage: %s tree DIR ITERATIONS OPS OVERFLOWS | tensor FILE DTYPE COUNT\n",
           argv[0]);
  return 2;
}
