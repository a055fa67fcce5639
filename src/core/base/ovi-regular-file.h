/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

/* Reading only what is a regular file: a FIFO would wait for a writer that
 * never comes, a device (/dev/zero) would be read without end. Errors are
 * in G_FILE_ERROR, their messages say what the entry is instead. The one
 * input opener: every file the project reads is opened through
 * ovi_regular_file_open() (O_NONBLOCK, its type checked before and after
 * open()), read whole through ovi_regular_file_read_max() where its format
 * has a size limit. */

const char *ovi_regular_file_describe_type (mode_t mode);
gboolean ovi_regular_file_check (int dirfd, const char *name, struct stat *st, GError **error);
int ovi_regular_file_open (int dirfd, const char *name, struct stat *st, GError **error);
int ovi_regular_file_open_listed (int dirfd, const char *name, struct stat *st, GError **error);
gboolean
ovi_regular_file_read (int dirfd, const char *name, char **contents, gsize *length, GError **error);
gboolean ovi_regular_file_read_max (
    int dirfd, const char *name, gsize max_size, char **contents, gsize *length, GError **error);

G_END_DECLS
