/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ovi-diff.h"

G_BEGIN_DECLS

/* What a diff writes: text for people, JSON (schema in the README), and
 * the vendor's comparison CSV (msaccucmp's columns, order and number
 * formatting). */

char *ovi_diff_result_to_text (OviDiffResult *result);
JsonNode *ovi_diff_result_to_json (OviDiffResult *result);
typedef void (*OviDiffWriteFunc) (const char *text, gpointer data);
void ovi_diff_result_write_json (OviDiffResult *result, OviDiffWriteFunc write, gpointer data);
char *ovi_diff_result_to_csv (OviDiffResult *result, gsize *length);
gboolean ovi_diff_result_write_csv (OviDiffResult *result,
                                    const char *path,
                                    gboolean overwrite,
                                    GError **error);

G_END_DECLS
