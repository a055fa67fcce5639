/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How much a file being written keeps before it writes. */
#define OVI_ATOMIC_FILE_BUFFER_SIZE (1u << 20)

/* Atomic output: written to an unnamed file in the destination's folder (or,
 * where the file system has none, under a temporary name there,
 * ".NAME.ovi-PID@HOST.XXXXXX") and linked or renamed into place on commit;
 * abort (or freeing without commit) leaves nothing behind. Without
 * @overwrite, an existing file at the path is an error at commit. A program
 * that ends on a signal calls ovi_atomic_file_remove_temporaries() from its
 * handler; the temporaries of a process killed outright are removed by the
 * next one that writes into their folder. The one opener of every file the
 * project writes: a character device or a FIFO at the path is written
 * through as it is (never renamed over), a folder, socket or block device
 * refused with a message. */
typedef struct _OviAtomicFile OviAtomicFile;

OviAtomicFile *ovi_atomic_file_new (const char *path, gboolean overwrite, GError **error);
OviAtomicFile *
ovi_atomic_file_new_at (int dirfd, const char *path, gboolean overwrite, GError **error);
gboolean
ovi_atomic_file_write (OviAtomicFile *self, const void *data, gsize length, GError **error);
gboolean ovi_atomic_file_read_from (OviAtomicFile *self,
                                    int in_fd,
                                    guint64 in_offset,
                                    guint64 length,
                                    const char *in_name,
                                    GError **error);
gboolean ovi_atomic_file_copy_from (OviAtomicFile *self,
                                    int in_fd,
                                    guint64 in_offset,
                                    guint64 length,
                                    const char *in_name,
                                    GError **error);
gboolean ovi_atomic_file_commit (OviAtomicFile *self, GError **error);
void ovi_atomic_file_free (OviAtomicFile *self);
void ovi_atomic_file_remove_temporaries (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviAtomicFile, ovi_atomic_file_free)

G_END_DECLS
