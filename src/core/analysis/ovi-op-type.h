/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What an operator's type says about it. */
gboolean ovi_op_type_is_collective (const char *op_type);

G_END_DECLS
