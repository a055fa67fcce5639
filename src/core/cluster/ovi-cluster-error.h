/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The cluster's error domain and the "format" of a merged report: in a
 * header of their own, so that the files reading report files need not
 * include the cluster's. */

#define OVI_CLUSTER_ERROR (ovi_cluster_error_quark ())

typedef enum
{
  OVI_CLUSTER_ERROR_NOT_JSON,
  OVI_CLUSTER_ERROR_NOT_A_REPORT,
  OVI_CLUSTER_ERROR_BAD_REPORT,
  OVI_CLUSTER_ERROR_DUPLICATE_ROOT,
  OVI_CLUSTER_ERROR_READ,
} OviClusterError;

GQuark ovi_cluster_error_quark (void);

/* The "format" of a merged report. */
#define OVI_CLUSTER_FORMAT "overflow-inspector-cluster"

G_END_DECLS
