/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "fuzz-common.h"
#include "ovi-core.h"

/* Reads the input as an op dump file (either layout), then everything a
 * viewer does with it: statistics, a histogram and the report's JSON. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (OviDumpFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  int fd;

  if (!(path = fuzz_memfile (data, size, &fd)))
    return 0;
  file = ovi_dump_file_load (path, "Add.fuzz_op.1.2.3", &error);
  g_assert ((file == NULL) == (error != NULL));
  if (file)
    {
      GPtrArray *tensors = ovi_dump_file_get_tensors (file);
      for (guint i = 0; i < tensors->len; i++)
        {
          OviTensor *t = g_ptr_array_index (tensors, i);
          g_autoptr (OviAnalysis) a = ovi_tensor_analyze (t, NULL);
          JsonNode *node = ovi_report_tensor_json (t);
          json_node_unref (node);
          if (a)
            {
              g_autoptr (OviHistogram) h =
                  ovi_analysis_histogram (a, 16, OVI_HISTOGRAM_SYMLOG, NULL);
              g_assert (h->n_bins == 16);
            }
        }
    }
  close (fd);
  return 0;
}
