/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One GError domain per module. */
#define OVI_DUMP_FILE_ERROR (ovi_dump_file_error_quark ())
#define OVI_OVERFLOW_ERROR (ovi_overflow_error_quark ())
#define OVI_STATS_ERROR (ovi_stats_error_quark ())
#define OVI_EXPORT_ERROR (ovi_export_error_quark ())
#define OVI_FOLDER_ERROR (ovi_folder_error_quark ())
#define OVI_NPY_ERROR (ovi_npy_error_quark ())
#define OVI_DIFF_ERROR (ovi_diff_error_quark ())

typedef enum
{
  OVI_DUMP_FILE_ERROR_IO,
  OVI_DUMP_FILE_ERROR_TRUNCATED,
  OVI_DUMP_FILE_ERROR_HEADER_TOO_LONG,
  OVI_DUMP_FILE_ERROR_BAD_MESSAGE,
  OVI_DUMP_FILE_ERROR_EMPTY_MESSAGE,
  OVI_DUMP_FILE_ERROR_SIZE_MISMATCH,
  OVI_DUMP_FILE_ERROR_ELEMENT_SIZE,
  OVI_DUMP_FILE_ERROR_NANO,
  OVI_DUMP_FILE_ERROR_CHANGED,
  OVI_DUMP_FILE_ERROR_NOT_A_DUMP, /* neither a dump name nor a dump layout */
} OviDumpFileError;

typedef enum
{
  OVI_OVERFLOW_ERROR_NOT_OVERFLOW_FILE,
  OVI_OVERFLOW_ERROR_PAYLOAD_SIZE,
  OVI_OVERFLOW_ERROR_BAD_RECORD,
} OviOverflowError;

typedef enum
{
  OVI_STATS_ERROR_UNSUPPORTED_DTYPE,
  OVI_STATS_ERROR_SIZE,
  OVI_STATS_ERROR_READ,
} OviStatsError;

typedef enum
{
  OVI_EXPORT_ERROR_EXISTS,
  OVI_EXPORT_ERROR_INSIDE_DUMP,
  OVI_EXPORT_ERROR_UNSUPPORTED,
  OVI_EXPORT_ERROR_WRITE,
} OviExportError;

typedef enum
{
  OVI_FOLDER_ERROR_NOT_FOUND,
  OVI_FOLDER_ERROR_NOT_A_DUMP,
  OVI_FOLDER_ERROR_LOOP,
  OVI_FOLDER_ERROR_MAPPING,
  OVI_FOLDER_ERROR_LINK_SKIPPED,  /* a symbolic link out of the opened folder */
  OVI_FOLDER_ERROR_OUTPUT_INSIDE, /* an output lands in a folder being read */
} OviFolderError;

typedef enum
{
  OVI_NPY_ERROR_IO,
  OVI_NPY_ERROR_NOT_NPY, /* no magic string, or a version this reader does not know */
  OVI_NPY_ERROR_HEADER,  /* the header dictionary cannot be read */
  OVI_NPY_ERROR_DTYPE,   /* a dtype the inspector does not compare */
  OVI_NPY_ERROR_ORDER,   /* Fortran order of more than one dimension */
  OVI_NPY_ERROR_SIZE,    /* the data is shorter or longer than the shape says */
} OviNpyError;

typedef enum
{
  OVI_DIFF_ERROR_NOT_FOUND, /* a side that does not exist or holds nothing to compare */
  OVI_DIFF_ERROR_MAPPING,   /* a mapping file that cannot be read */
  OVI_DIFF_ERROR_CANCELLED,
  OVI_DIFF_ERROR_SESSIONS, /* sessions that do not pair one for one */
} OviDiffError;

GQuark ovi_dump_file_error_quark (void);
GQuark ovi_overflow_error_quark (void);
GQuark ovi_stats_error_quark (void);
GQuark ovi_export_error_quark (void);
GQuark ovi_folder_error_quark (void);
GQuark ovi_npy_error_quark (void);
GQuark ovi_diff_error_quark (void);

G_END_DECLS
