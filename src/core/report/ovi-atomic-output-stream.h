/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ovi-atomic-file.h"

G_BEGIN_DECLS

/* A GOutputStream into an OviAtomicFile, for writers that take a stream
 * (the cluster report): closing the stream commits the file, dropping it
 * unclosed leaves nothing. */
#define OVI_TYPE_ATOMIC_OUTPUT_STREAM (ovi_atomic_output_stream_get_type ())
G_DECLARE_FINAL_TYPE (
    OviAtomicOutputStream, ovi_atomic_output_stream, OVI, ATOMIC_OUTPUT_STREAM, GOutputStream)

GOutputStream *ovi_atomic_output_stream_new (const char *path, gboolean overwrite, GError **error);

G_END_DECLS
