/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The ATC "fusion rule" graph JSON (`atc --mode=1 --json`), the file
 * `msaccucmp compare -f` reads: graph[].op[] with name, type, id, input[]
 * ("src:index", ":-1" for a control edge), attr[] (its
 * _datadump_original_op_names). The fields are those msprobe's
 * fusion_rule_parser.py reads. */

typedef struct
{
  char *source; /* the producing op's name */
  guint index;  /* its output */
} OviGraphJsonInput;

typedef struct
{
  char *name;
  char *type;
  gint64 id;
  GArray *inputs;       /* OviGraphJsonInput: the data inputs, in order */
  GStrv original_names; /* _datadump_original_op_names; NULL when absent */
} OviGraphJsonOp;

GPtrArray *ovi_graph_json_read (const char *path, GError **error);
gboolean ovi_graph_json_is_graph (const char *path);

G_END_DECLS
