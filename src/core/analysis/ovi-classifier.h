/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-dump-file.h"

G_BEGIN_DECLS

/* The rules that say which operator to blame (OviBlame) and sum an
 * operator up (OviOpSummary), from the statistics of its tensors. */

OviBlame ovi_classifier_classify (OviDumpFile *file);
gboolean ovi_classifier_summarize (OviDumpFile *file, GCancellable *cancellable);
int ovi_classifier_first_abnormal_tensor (OviDumpFile *file);
char *ovi_classifier_dup_bad_values (OviDumpFile *file);
char *ovi_classifier_dup_one_file_finding (OviDumpFile *file);

G_END_DECLS
