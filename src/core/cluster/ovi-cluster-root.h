/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ovi-dump-folder.h"
#include "ovi-rank.h"

G_BEGIN_DECLS

/* Device ids, compactly: a report may list a million devices, most of
 * them without a record, and each needs only its id until a window shows
 * it. */
typedef enum
{
  OVI_DEVICE_NULL,   /* no device level */
  OVI_DEVICE_NUMBER, /* ordered by its value */
  OVI_DEVICE_TEXT,
} OviDeviceKind;

typedef struct
{
  guint64 number;
  guint64 offset_kind; /* offset into the ids << 2 | OviDeviceKind */
} OviClusterDevice;

typedef struct
{
  GByteArray *ids; /* NUL-terminated ids */
  GArray *list;    /* OviClusterDevice */
} OviClusterDevices;

void ovi_cluster_devices_init (OviClusterDevices *d);
void ovi_cluster_devices_clear (OviClusterDevices *d);
void ovi_cluster_devices_add (OviClusterDevices *d, const char *id);
guint ovi_cluster_devices_len (const OviClusterDevices *d);
const char *ovi_cluster_devices_get (const OviClusterDevices *d, guint i);
int ovi_cluster_compare_devices (const char *a, const char *b);

/* One single-root report, unchanged (its tree, or its exact text when read
 * from a file), and its ranks. */
typedef struct
{
  char *host;
  char *root;
  JsonNode *report; /* or NULL, and then: */
  GBytes *text;     /* the report object's text, as in its file, or NULL for a
                     * folder's root (ovi_cluster_add_folder()) */
  GPtrArray *ranks; /* OviRank: the devices with records */
  /* The devices without a record, in device order ("10" after "9", no
   * device first), none of them in @ranks: ranks with no overflow, made
   * into an #OviRank only when asked for (ovi_cluster_root_quiet_rank()). */
  OviClusterDevices quiet;
  GPtrArray *quiet_made; /* OviRank or NULL, by index in @quiet; NULL until asked */
} OviClusterRoot;

OviRank *ovi_cluster_root_quiet_rank (OviClusterRoot *r, guint index);

/* What the ranks need of one record, however it was read. */
typedef struct
{
  char *iteration;
  gboolean has_timestamp;
  guint64 timestamp;
  char *device; /* NULL: none, or null */
  gboolean ignored;
  char *file;
  char *unit;
  char *status_hex;
  char *source;
  char *op_file;
  char *op_type;
  char *op_name;
  guint64 flags_mask;
} OviClusterRecord;

void ovi_cluster_root_free (OviClusterRoot *r);
gboolean ovi_cluster_root_read_tree (JsonNode *node,
                                     const char *source_name,
                                     GPtrArray *roots,
                                     GError **error);
gboolean ovi_cluster_root_read_text (GBytes *bytes,
                                     const char *source_name,
                                     GPtrArray *roots,
                                     GError **error);

void ovi_cluster_root_read_folder (OviDumpFolder *folder, const char *host, GPtrArray *roots);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviClusterRoot, ovi_cluster_root_free)

G_END_DECLS
