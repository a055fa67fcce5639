/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The toolkit-free model of a dump folder, every layer (README.md here): what
 * the command-line tool, the window and the tests include. */

/* base */
#include "ovi-base-enums.h"
#include "ovi-blame.h"
#include "ovi-error.h"
#include "ovi-i18n.h"
#include "ovi-path.h"
#include "ovi-stats.h"
#include "ovi-types.h"
#include "ovi-worker.h"
/* format */
#include "ovi-dtype.h"
#include "ovi-file-name.h"
#include "ovi-format-enums.h"
#include "ovi-json.h"
#include "ovi-layout.h"
#include "ovi-mapping-csv.h"
#include "ovi-npy.h"
#include "ovi-overflow-fields.h"
#include "ovi-shape.h"
#include "ovi-statistic-csv.h"
#include "ovi-status.h"
#include "ovi-unit.h"
/* stats */
#include "ovi-analysis.h"
#include "ovi-histogram.h"
/* model */
#include "ovi-dump-file.h"
#include "ovi-model-enums.h"
#include "ovi-op-summary.h"
#include "ovi-overflow-record.h"
#include "ovi-problem.h"
#include "ovi-tensor-result.h"
#include "ovi-tensor.h"
/* analysis */
#include "ovi-classifier.h"
#include "ovi-ignore-list.h"
#include "ovi-op-type.h"
/* folder */
#include "ovi-dump-folder.h"
#include "ovi-folder-enums.h"
#include "ovi-folder-watch.h"
#include "ovi-op-index.h"

#include "ovi-graph-enums.h"
#include "ovi-graph.h"
/* cluster */
#include "ovi-cluster-enums.h"
#include "ovi-cluster.h"
#include "ovi-rank.h"
/* report */
#include "ovi-atomic-output-stream.h"
#include "ovi-export.h"
#include "ovi-graph-writer.h"
#include "ovi-report-enums.h"
#include "ovi-report.h"
/* diff */
#include "ovi-diff-enums.h"
#include "ovi-diff-metrics.h"
#include "ovi-diff-writer.h"
#include "ovi-diff.h"
