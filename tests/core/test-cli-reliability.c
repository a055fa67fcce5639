/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"

/* overflow-inspector-cli where the system is not kind: a full disk on
 * standard output, entries that are not regular files. Each run has a
 * generous time limit: a hang fails the test instead of stalling it. */

#define LIMIT 60.0

static char *
example (const char *iteration)
{
  return g_build_filename (SOURCE_ROOT, "data", "example-dump", "20261202101500", "0",
                           "resnet50_train", "11", iteration, NULL);
}

/* Every command that prints to standard output, with it on a full disk:
 * a message naming the problem and a non-zero exit, never a cut file and
 * status 0 (nor, for watch, a wait for ever). */
static void
test_full_stdout (void)
{
  g_autofree char *it3 = example ("3");
  g_autofree char *it4 = example ("4");
  g_autofree char *cast =
      g_build_filename (it3, "Cast.gradients_Cast_3.57.7.1764670500000200", NULL);
  g_autofree char *node_b =
      g_build_filename (SOURCE_ROOT, "data", "example-cluster", "node-b.json", NULL);
  const char *const runs[][5] = {
    { "report", it3 },
    { "report", "--json", it3 },
    { "report", "--records-only", it3 },
    { "report", it3, it4 },
    { "report", "--json", it3, it4 },
    { "stats", cast },
    { "stats", "--json", cast },
    { "watch", it3 },
    { "watch", "--json", it3 },
    { "merge", node_b },
    { "--version" },
    { "--help" },
    { "report", "--help" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *err = NULL;
      int status;

      g_test_message ("%s %s", runs[i][0], runs[i][1] ? runs[i][1] : "");
      status = ovi_fixture_run_cli_limited (NULL, "/dev/full", LIMIT, NULL, &err, runs[i]);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, "cannot write to standard output"));
      g_assert_nonnull (strstr (err, "No space left on device"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/cli/full-stdout", test_full_stdout);
  return g_test_run ();
}
