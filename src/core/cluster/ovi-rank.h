/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* One rank of a cluster: one (host, root, device), and its first overflow
 * (see ovi-cluster.c for the order and the roles). */

typedef enum
{
  OVI_RANK_ROLE_NONE,     /* no overflow recorded (or every record ignored) */
  OVI_RANK_ROLE_ORIGIN,   /* its first overflow is its own */
  OVI_RANK_ROLE_RECEIVED, /* its first overflow came in through a collective */
  OVI_RANK_ROLE_UNKNOWN,  /* its first overflow came in through a collective from a device
                           * that is not open: where it started is not known */
} OviRankRole;

const char *ovi_rank_role_name (OviRankRole role);

/* One iteration on a rank's timeline. */
typedef struct
{
  guint64 iteration;
  guint n_records;
} OviRankIteration;

#define OVI_TYPE_RANK (ovi_rank_get_type ())
G_DECLARE_FINAL_TYPE (OviRank, ovi_rank, OVI, RANK, GObject)

const char *ovi_rank_get_host (OviRank *self);
const char *ovi_rank_get_root (OviRank *self);
const char *ovi_rank_get_device (OviRank *self);
const char *ovi_rank_get_first_iteration (OviRank *self);
guint64 ovi_rank_get_iteration (OviRank *self);
gboolean ovi_rank_has_iteration (OviRank *self);
guint64 ovi_rank_get_timestamp (OviRank *self);
const char *ovi_rank_get_file (OviRank *self);
const char *ovi_rank_get_op_file (OviRank *self);
const char *ovi_rank_get_op_type (OviRank *self);
const char *ovi_rank_get_op_name (OviRank *self);
const char *ovi_rank_get_unit (OviRank *self);
const char *ovi_rank_get_status_hex (OviRank *self);
const char *ovi_rank_get_status_summary (OviRank *self);
gboolean ovi_rank_get_collective (OviRank *self);
OviRankRole ovi_rank_get_role (OviRank *self);
gboolean ovi_rank_get_earliest (OviRank *self);
guint ovi_rank_get_n_records (OviRank *self);
const OviRankIteration *ovi_rank_get_iterations (OviRank *self, guint *n_iterations);
char *ovi_rank_dup_label (OviRank *self);

G_END_DECLS
