#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Which rank of a cluster overflowed first: the first overflow of every
 * (host, root, device), ordered across machines, from report JSON (a
 * folder's own report, report files from other machines, merged cluster
 * reports alike). */

#define OVI_CLUSTER_ERROR (ovi_cluster_error_quark ())

typedef enum
{
  OVI_CLUSTER_ERROR_NOT_JSON,
  OVI_CLUSTER_ERROR_NOT_A_REPORT,
  OVI_CLUSTER_ERROR_BAD_REPORT,
  OVI_CLUSTER_ERROR_DUPLICATE_ROOT,
  OVI_CLUSTER_ERROR_READ,
} OviClusterError;

GQuark ovi_cluster_error_quark (void);

/* The "format" of a merged report. */
#define OVI_CLUSTER_FORMAT "overflow-inspector-cluster"

typedef enum
{
  OVI_RANK_ROLE_NONE,     /* no overflow recorded (or every record ignored) */
  OVI_RANK_ROLE_ORIGIN,   /* its first overflow is its own */
  OVI_RANK_ROLE_RECEIVED, /* its first overflow came in through a collective */
} OviRankRole;

#define OVI_TYPE_RANK_ROLE (ovi_rank_role_get_type ())
GType ovi_rank_role_get_type (void);
const char *ovi_rank_role_name (OviRankRole role);

gboolean ovi_op_type_is_collective (const char *op_type);

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

#define OVI_TYPE_CLUSTER (ovi_cluster_get_type ())
G_DECLARE_FINAL_TYPE (OviCluster, ovi_cluster, OVI, CLUSTER, GObject)

OviCluster *ovi_cluster_new (void);
gboolean ovi_cluster_add_report (OviCluster *self,
                                 JsonNode *report,
                                 const char *source_name,
                                 GError **error);
gboolean ovi_cluster_remove_root (OviCluster *self, const char *host, const char *root);
void ovi_cluster_clear (OviCluster *self);
guint ovi_cluster_get_n_roots (OviCluster *self);
GListModel *ovi_cluster_get_ranks (OviCluster *self);
OviRank *ovi_cluster_get_earliest (OviCluster *self);
JsonNode *ovi_cluster_build_json (OviCluster *self);
gboolean ovi_cluster_write_json (OviCluster *self,
                                 GOutputStream *out,
                                 GCancellable *cancellable,
                                 GError **error);
JsonNode *ovi_cluster_build_ranks_json (OviCluster *self);
JsonNode *ovi_cluster_build_rank_json (OviRank *rank);
char *ovi_cluster_to_text (OviCluster *self);

gboolean ovi_cluster_add_report_files (OviCluster *self,
                                       GFile *const *files,
                                       guint n_files,
                                       GCancellable *cancellable,
                                       GError **error);
void ovi_cluster_load_reports_async (OviCluster *self,
                                     GFile *const *files,
                                     guint n_files,
                                     GCancellable *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer user_data);
gboolean ovi_cluster_load_reports_finish (OviCluster *self, GAsyncResult *result, GError **error);

G_END_DECLS
