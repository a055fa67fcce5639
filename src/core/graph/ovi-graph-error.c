/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ovi-graph-error.h"

G_DEFINE_QUARK (ovi - graph - error - quark, ovi_graph_error)
