/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "ovi-core.h"
#include "ovi-dump-file-private.h"

/* The statistics CSV reader, then the operator it makes: whatever the
 * bytes, rows come in file order with their lines, every error names a
 * line, and tensors with no values refuse a histogram. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (OviStatisticCsv) csv = ovi_statistic_csv_parse ((const char *) data, size);
  g_autoptr (OviDumpFile) file = NULL;
  guint n_lines = 1, last = 0;

  for (size_t i = 0; i < size; i++)
    n_lines += data[i] == '\n';
  g_assert (csv->errors->len == csv->lines->len);
  g_assert (csv->errors->len <= 21);
  for (guint i = 0; i < csv->errors->len; i++)
    {
      const GError *e = g_ptr_array_index (csv->errors, i);
      guint line = g_array_index (csv->lines, guint, i);
      g_assert (line >= 1 && line <= n_lines);
      g_assert (g_str_has_prefix (e->message, "line "));
      g_assert (g_utf8_validate (e->message, -1, NULL));
    }
  for (guint i = 0; i < csv->rows->len; i++)
    {
      const OviStatisticRow *r = g_ptr_array_index (csv->rows, i);
      g_assert (r->line > last && r->line <= n_lines);
      last = r->line;
      g_assert (r->kind == OVI_TENSOR_INPUT || r->kind == OVI_TENSOR_OUTPUT);
      g_assert (r->stats.finite <= r->stats.count);
      g_assert (isnan (r->stats.max) || isfinite (r->stats.max));
      g_assert (isnan (r->stats.min) || isfinite (r->stats.min));
      g_assert (!r->has_op || (r->op_type && r->op_name));
      g_assert (!r->has_op || g_utf8_validate (r->op_name, -1, NULL));
    }

  file = ovi_dump_file_new_statistics ("/nonexistent.csv", "Add.a.1.2.3", NULL, size,
                                       g_steal_pointer (&csv->rows));
  csv->rows = g_ptr_array_new ();
  {
    GPtrArray *tensors = ovi_dump_file_get_tensors (file);
    for (guint i = 0; i < tensors->len; i++)
      {
        OviTensor *t = g_ptr_array_index (tensors, i);
        g_autoptr (OviAnalysis) analysis = ovi_tensor_analyze (t, NULL);
        g_autoptr (GError) error = NULL;
        g_autoptr (OviHistogram) h = NULL;
        g_autoptr (GBytes) bytes = NULL;

        g_assert (ovi_tensor_get_statistics_only (t));
        g_assert (analysis != NULL && !ovi_analysis_has_values (analysis));
        h = ovi_analysis_histogram (analysis, 8, OVI_HISTOGRAM_SYMLOG, &error);
        g_assert (h == NULL &&
                  g_error_matches (error, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES));
        g_clear_error (&error);
        bytes = ovi_tensor_load_data (t, &error);
        g_assert (bytes == NULL && error != NULL);
        g_free (ovi_tensor_dup_shape_string (t));
      }
    ovi_classifier_classify (file);
  }
  return 0;
}
