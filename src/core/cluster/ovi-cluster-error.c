/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-cluster-error.h"

/* clang-format off */
G_DEFINE_QUARK (ovi-cluster-error-quark, ovi_cluster_error)
/* clang-format on */
