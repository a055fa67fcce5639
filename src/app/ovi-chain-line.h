/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-page.h"

G_BEGIN_DECLS

/* One line under a table: how Inf/NaN reached the selected operator along
 * the dataflow graph, "Chain: origin → … → operator" (the session's graph
 * state's `chain`), hidden when nothing reaches it. */
#define OVI_TYPE_CHAIN_LINE (ovi_chain_line_get_type ())
G_DECLARE_FINAL_TYPE (OviChainLine, ovi_chain_line, OVI, CHAIN_LINE, OviPage)

const char *ovi_chain_line_get_text (OviChainLine *self);

G_END_DECLS
