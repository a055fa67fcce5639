#pragma once

#include "ovi-dump-file.h"

G_BEGIN_DECLS

char  **ovi_path_split                (const char *path);
int     ovi_natural_path_compare      (const char *a,
                                       const char *b);
GBytes *ovi_dump_file_dup_overflow_payload (OviDumpFile *self,
                                            GError     **error);

G_END_DECLS
