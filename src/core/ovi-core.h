#pragma once

/* The GTK-free model of a dump folder: files, overflow records, tensors,
 * statistics and exporters. */

#include "ovi-blame.h"
#include "ovi-cluster.h"
#include "ovi-dtype.h"
#include "ovi-dump-file.h"
#include "ovi-dump-folder.h"
#include "ovi-error.h"
#include "ovi-export.h"
#include "ovi-file-name.h"
#include "ovi-folder-watch.h"
#include "ovi-i18n.h"
#include "ovi-layout.h"
#include "ovi-overflow-record.h"
#include "ovi-problem.h"
#include "ovi-report.h"
#include "ovi-statistic-csv.h"
#include "ovi-stats.h"
#include "ovi-tensor.h"
#include "ovi-worker.h"
