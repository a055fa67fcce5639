/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-classifier.h"
#include "ovi-dtype.h"
#include "ovi-dump-file-private.h"
#include "ovi-error.h"
#include "ovi-tensor-private.h"

/* A small file is read once for all its tensors, not once for each (and
 * each tensor's analysis reads its bytes twice); not at all when its
 * inputs and outputs are analysed already (classified while listing, then
 * summarized), nor for a statistics-only operator, which has no values.
 * NULL: the tensors read for themselves, if they need to. */
#define READ_WHOLE (1u << 20)

static GBytes *
read_small_file (OviDumpFile *file)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);
  gboolean needed = FALSE;

  if (ovi_dump_file_get_layout (file) == OVI_LAYOUT_OLD ||
      ovi_dump_file_get_statistics_only (file) || ovi_dump_file_get_file_size (file) > READ_WHOLE)
    return NULL;
  for (guint i = 0; tensors != NULL && i < tensors->len && !needed; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (t);

      needed = (kind == OVI_TENSOR_INPUT || kind == OVI_TENSOR_OUTPUT) &&
               ovi_dtype_is_supported (ovi_tensor_get_dtype (t)) &&
               ovi_tensor_peek_analysis (t) == NULL;
    }
  return needed ? ovi_dump_file_map_range (file, 0, ovi_dump_file_get_file_size (file), NULL)
                : NULL;
}

/* Whether any tensor of @kind is abnormal; FALSE with *ok unset when one
 * cannot be analysed (unsupported dtypes carry no verdict and are skipped). */
static gboolean
any_abnormal (
    OviDumpFile *file, GBytes *contents, OviTensorKind kind, gboolean *ok, guint *n_checked)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (file);
  gboolean abnormal = FALSE;

  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      g_autoptr (OviAnalysis) analysis = NULL;

      /* A statistics-mode tensor has its counts whatever its type. */
      if (ovi_tensor_get_kind (t) != kind || (!ovi_dtype_is_supported (ovi_tensor_get_dtype (t)) &&
                                              !ovi_tensor_get_statistics_only (t)))
        continue;
      if (!(analysis = ovi_tensor_analyze_in (t, contents, NULL)))
        {
          *ok = FALSE;
          continue;
        }
      abnormal |= ovi_stats_is_abnormal (ovi_analysis_get_stats (analysis));
      (*n_checked)++;
    }
  return abnormal;
}

/* Classifies @file, its tensors' bytes taken from @contents when given. */
static OviBlame
classify_in (OviDumpFile *file, GBytes *contents)
{
  gboolean ok = TRUE, in, out;
  guint n_checked = 0;
  OviBlame blame;

  if ((blame = ovi_dump_file_get_blame (file)) != OVI_BLAME_UNKNOWN)
    return blame;
  if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OVERFLOW)
    return OVI_BLAME_UNKNOWN;
  in = any_abnormal (file, contents, OVI_TENSOR_INPUT, &ok, &n_checked);
  out = any_abnormal (file, contents, OVI_TENSOR_OUTPUT, &ok, &n_checked);
  /* Nothing checked (unsupported dtypes only) is no verdict either. */
  if ((!ok && !in && !out) || n_checked == 0)
    blame = OVI_BLAME_UNKNOWN;
  else if (!in)
    blame = out ? OVI_BLAME_ORIGIN : OVI_BLAME_NORMAL;
  else
    blame = out ? OVI_BLAME_PROPAGATED : OVI_BLAME_ABSORBED;
  ovi_dump_file_set_blame (file, blame);
  return blame;
}

/**
 * ovi_classifier_classify:
 *
 * Analyses the inputs and outputs (once; any thread) and says what the
 * operator did with abnormal values.
 */
OviBlame
ovi_classifier_classify (OviDumpFile *file)
{
  g_autoptr (GBytes) contents = NULL;

  g_return_val_if_fail (OVI_IS_DUMP_FILE (file), OVI_BLAME_UNKNOWN);

  contents = read_small_file (file);
  return classify_in (file, contents);
}

/**
 * ovi_classifier_summarize:
 * @cancellable: (nullable): stops between tensors
 *
 * Classifies the operator and sums up its input and output tensors, once;
 * any thread. The summary is then what ovi_dump_file_get_summary() returns.
 * The file's summary properties are notified by whoever hands the result to
 * the main context (the folder, for an asynchronous load).
 *
 * Returns: %FALSE when cancelled before the summary was complete
 */
gboolean
ovi_classifier_summarize (OviDumpFile *file, GCancellable *cancellable)
{
  g_autoptr (GBytes) contents = NULL;
  GPtrArray *tensors;
  OviOpSummary *summary;

  g_return_val_if_fail (OVI_IS_DUMP_FILE (file), FALSE);

  if (ovi_dump_file_get_summary (file) != NULL)
    return TRUE;
  /* A small file was kept whole when its header was read. */
  if (!(contents = ovi_dump_file_take_contents (file)))
    contents = read_small_file (file);
  summary = g_new0 (OviOpSummary, 1);
  summary->max_abs = NAN;
  tensors = ovi_dump_file_get_tensors (file);
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      OviTensor *tensor = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (tensor);
      g_autoptr (OviAnalysis) analysis = NULL;
      const OviStats *s;

      if (g_cancellable_is_cancelled (cancellable))
        {
          g_free (summary);
          return FALSE;
        }
      if (kind != OVI_TENSOR_INPUT && kind != OVI_TENSOR_OUTPUT)
        continue;
      if (!ovi_dtype_is_supported (ovi_tensor_get_dtype (tensor)))
        continue;
      if (!(analysis = ovi_tensor_analyze_in (tensor, contents, NULL)))
        continue;
      s = ovi_analysis_get_stats (analysis);
      if (!isnan (s->max_abs))
        summary->max_abs =
            isnan (summary->max_abs) ? s->max_abs : MAX (summary->max_abs, s->max_abs);
      summary->nan += s->nan;
      summary->inf += s->pos_inf + s->neg_inf;
      summary->saturated += s->saturated;
    }
  /* The tensors are analysed by now, so classifying reads nothing again. */
  summary->blame = classify_in (file, contents);
  ovi_dump_file_set_summary (file, summary);
  return TRUE;
}

/**
 * ovi_classifier_first_abnormal_tensor:
 *
 * The tensor that went bad first: of the inputs and outputs, in the
 * order of ovi_dump_file_get_tensors(), the first holding NaN, an infinity
 * or a saturated value. Reads nothing: it needs the summary.
 *
 * Returns: its index, or -1 when none is abnormal or the operator is not
 *   summarised yet
 */
int
ovi_classifier_first_abnormal_tensor (OviDumpFile *file)
{
  GPtrArray *tensors;

  g_return_val_if_fail (OVI_IS_DUMP_FILE (file), -1);

  if (ovi_dump_file_get_summary (file) == NULL)
    return -1;
  tensors = ovi_dump_file_get_tensors (file);
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      OviTensor *tensor = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (tensor);
      OviAnalysis *analysis;

      if (kind != OVI_TENSOR_INPUT && kind != OVI_TENSOR_OUTPUT)
        continue;
      analysis = ovi_tensor_peek_analysis (tensor);
      if (analysis != NULL && ovi_stats_is_abnormal (ovi_analysis_get_stats (analysis)))
        return (int) i;
    }
  return -1;
}

/* "20 +Inf" and the like for each kind of abnormal value in @s, appended
 * to @parts. */
static void
add_bad_counts (GPtrArray *parts, const OviStats *s)
{
  /* Translators: counts of abnormal values in a tensor: "20 NaN", "20 +Inf",
   * "20 −Inf", "20 saturated" (at the largest value of their type) */
  if (s->nan)
    g_ptr_array_add (parts, g_strdup_printf (_ ("%llu NaN"), (unsigned long long) s->nan));
  if (s->pos_inf)
    g_ptr_array_add (parts, g_strdup_printf (_ ("%llu +Inf"), (unsigned long long) s->pos_inf));
  if (s->neg_inf)
    g_ptr_array_add (parts, g_strdup_printf (_ ("%llu −Inf"), (unsigned long long) s->neg_inf));
  if (s->saturated)
    g_ptr_array_add (parts,
                     g_strdup_printf (_ ("%llu saturated"), (unsigned long long) s->saturated));
}

/**
 * ovi_classifier_dup_bad_values:
 *
 * What the inputs and outputs of @file hold that a clean tensor does not,
 * tensor by tensor, in the order of ovi_dump_file_get_tensors(): "20 +Inf
 * in output 0", "3 NaN, 20 +Inf in input 1; 20 +Inf in output 0". Reads
 * nothing: it needs the summary (ovi_classifier_summarize()).
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when no tensor
 *   is abnormal or the operator is not summarised yet
 */
char *
ovi_classifier_dup_bad_values (OviDumpFile *file)
{
  g_autoptr (GPtrArray) tensors_text = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *tensors;

  g_return_val_if_fail (OVI_IS_DUMP_FILE (file), NULL);

  if (ovi_dump_file_get_summary (file) == NULL)
    return NULL;
  tensors = ovi_dump_file_get_tensors (file);
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      OviTensor *tensor = g_ptr_array_index (tensors, i);
      OviTensorKind kind = ovi_tensor_get_kind (tensor);
      OviAnalysis *analysis = ovi_tensor_peek_analysis (tensor);
      g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *counts = NULL, *label = NULL;

      if ((kind != OVI_TENSOR_INPUT && kind != OVI_TENSOR_OUTPUT) || analysis == NULL)
        continue;
      add_bad_counts (parts, ovi_analysis_get_stats (analysis));
      if (parts->len == 0)
        continue;
      g_ptr_array_add (parts, NULL);
      /* Translators: joins the counts of one tensor: "3 NaN, 20 +Inf" */
      counts = g_strjoinv (_ (", "), (char **) parts->pdata);
      label = ovi_tensor_dup_label (tensor);
      /* Translators: abnormal values of one tensor: "20 +Inf in output 0" */
      g_ptr_array_add (tensors_text, g_strdup_printf (_ ("%s in %s"), counts, label));
    }
  if (tensors_text->len == 0)
    return NULL;
  g_ptr_array_add (tensors_text, NULL);
  /* Translators: joins the abnormal values of several tensors */
  return g_strjoinv (_ ("; "), (char **) tensors_text->pdata);
}

/**
 * ovi_classifier_dup_one_file_finding:
 *
 * What one op dump file opened on its own holds, for a person: it has no
 * overflow record (those are in the Opdebug files beside it), and what
 * its data hold instead: "…, but its data hold 20 +Inf in output 0 of Cast
 * gradients/Cast_3." The report's text and the window say this. Any
 * thread; analyses the tensors when they are not yet.
 *
 * Returns: (transfer full): the sentence
 */
char *
ovi_classifier_dup_one_file_finding (OviDumpFile *file)
{
  g_autofree char *bad = NULL;
  const char *op_type, *op_name;
  g_autofree char *op = NULL;

  g_return_val_if_fail (OVI_IS_DUMP_FILE (file), NULL);

  ovi_classifier_summarize (file, NULL);
  bad = ovi_classifier_dup_bad_values (file);
  if (bad == NULL)
    return g_strdup (_ ("This is one op dump file, not a folder: it holds no overflow record "
                        "(those are in the Opdebug files beside it), and none of its values is "
                        "NaN, Inf or saturated."));
  op_type = ovi_dump_file_get_op_type (file);
  op_name = ovi_dump_file_get_op_name (file);
  op = g_strdup_printf ("%s %s", op_type ? op_type : "", op_name ? op_name : "");
  g_strstrip (op);
  /* Translators: the first %s lists abnormal values ("20 +Inf in output
   * 0"), the second is the operator ("Cast gradients/Cast_3") */
  return g_strdup_printf (_ ("This is one op dump file, not a folder: it holds no overflow record "
                             "(those are in the Opdebug files beside it), but its data hold %s "
                             "of %s."),
                          bad, op);
}
