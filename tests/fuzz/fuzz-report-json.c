/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>

#include "ovi-cluster-root.h"
#include "ovi-core.h"

/* The report reader of merge and of the window's cluster view: one report
 * file (`report --json` or `merge` output) read as text; one that reads
 * is then merged, as text and as JSON. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GPtrArray) roots =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviCluster) cluster = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) merged = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);

  if (!ovi_cluster_root_read_text (bytes, "fuzz.json", roots, &error))
    {
      g_assert (error != NULL);
      return 0;
    }
  node = json_from_string (text, NULL);
  cluster = ovi_cluster_new ();
  if (node && ovi_cluster_add_report (cluster, node, "fuzz.json", NULL))
    {
      g_free (ovi_cluster_to_text (cluster));
      merged = ovi_cluster_build_json (cluster);
      g_assert (merged != NULL);
    }
  return 0;
}
