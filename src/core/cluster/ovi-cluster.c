/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ovi-cluster-root.h"
#include "ovi-json.h"
#include "ovi-path.h"
#include "ovi-rank-list.h"
#include "ovi-rank-private.h"
#include "ovi-regular-file.h"
#include "ovi-worker.h"

/* The cross-device analysis. It reads report JSON only (the "records" of
 * each root, with their "device", "iteration" and "timestamp"), so a
 * folder opened here and a report written on another machine go through
 * the same code.
 *
 * A rank is one (host, root, device): two roots that hold the same device
 * id are two ranks. A rank's first overflow is its first record that is
 * not ignored, in its report's first-overflow order. Ranks are ordered by
 * the iteration number of that record (the last component of its
 * iteration folder, when it is a number), then by its timestamp, then by
 * host, root and device so that the order is stable; ranks with no
 * overflow come last. The timestamps are those in the file names: the
 * time a file was written, which can lag the overflow itself, and clocks
 * of different machines are only as close as the cluster keeps them.
 *
 * Roles: a rank whose first overflow is on a collective operator (an HCCL
 * op type, see ovi_op_type_is_collective()) while another rank has a
 * first overflow on a non-collective operator at an earlier or equal
 * position (iteration, then timestamp) has RECEIVED its bad values; one
 * whose first overflow is on a collective that no such rank explains got
 * them from a device that is not open (another machine's, whose report is
 * missing): its origin is UNKNOWN, and when that holds for every rank the
 * cluster says so (ovi_cluster_dup_origin_note()) rather than claiming as
 * many independent origins. Every other rank with an overflow, one whose
 * first overflow is its own (not on a collective), is an ORIGIN. */

/* clang-format off */
G_DEFINE_QUARK (ovi-cluster-error-quark, ovi_cluster_error)
/* clang-format on */

/* ------------------------------------------------------------- OviCluster */

struct _OviCluster
{
  GObject parent_instance;

  GPtrArray *roots;   /* OviClusterRoot */
  OviRankList *ranks; /* OviRank, in cluster order */
  OviRank *earliest;
  char *origin_note; /* ovi_cluster_dup_origin_note(), untranslated parts: the collective
                      * op types when every first overflow is on one, else NULL */
};

G_DEFINE_FINAL_TYPE (OviCluster, ovi_cluster, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_RANKS,
  PROP_EARLIEST,
  PROP_N_ROOTS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
ovi_cluster_finalize (GObject *object)
{
  OviCluster *self = OVI_CLUSTER (object);

  /* A window may hold the list longer: so does the list the roots. */
  g_ptr_array_unref (self->roots);
  g_object_unref (self->ranks);
  g_free (self->origin_note);
  G_OBJECT_CLASS (ovi_cluster_parent_class)->finalize (object);
}

static void
ovi_cluster_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviCluster *self = OVI_CLUSTER (object);

  switch (prop_id)
    {
    case PROP_RANKS:
      g_value_set_object (value, self->ranks);
      break;
    case PROP_EARLIEST:
      g_value_set_object (value, self->earliest);
      break;
    case PROP_N_ROOTS:
      g_value_set_uint (value, self->roots->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_cluster_class_init (OviClusterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ovi_cluster_finalize;
  object_class->get_property = ovi_cluster_get_property;

  props[PROP_RANKS] = g_param_spec_object ("ranks", NULL, NULL, G_TYPE_LIST_MODEL,
                                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_EARLIEST] =
      g_param_spec_object ("earliest", NULL, NULL, OVI_TYPE_RANK,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  props[PROP_N_ROOTS] =
      g_param_spec_uint ("n-roots", NULL, NULL, 0, G_MAXUINT, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
ovi_cluster_init (OviCluster *self)
{
  self->roots = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  self->ranks = ovi_rank_list_new ();
}

OviCluster *
ovi_cluster_new (void)
{
  return g_object_new (OVI_TYPE_CLUSTER, NULL);
}

/* Where a first overflow falls: iteration number (numbered folders before
 * others), then timestamp. */
static int
compare_position (OviRank *a, OviRank *b)
{
  if (a->has_iteration != b->has_iteration)
    return a->has_iteration ? -1 : 1;
  if (a->iteration != b->iteration)
    return a->iteration < b->iteration ? -1 : 1;
  if (a->timestamp != b->timestamp)
    return a->timestamp < b->timestamp ? -1 : 1;
  return 0;
}

static int
compare_ranks (gconstpointer pa, gconstpointer pb)
{
  OviRank *a = *(OviRank **) pa, *b = *(OviRank **) pb;
  int c;

  if (a->has_first != b->has_first)
    return a->has_first ? -1 : 1;
  if (a->has_first && (c = compare_position (a, b)))
    return c;
  if ((c = strcmp (a->host, b->host)))
    return c;
  if ((c = strcmp (a->root, b->root)))
    return c;
  return ovi_cluster_compare_devices (a->device, b->device);
}

/* Roots by host, then root. */
static int
compare_roots (gconstpointer pa, gconstpointer pb, gpointer data)
{
  GPtrArray *roots = data;
  const OviClusterRoot *a = g_ptr_array_index (roots, *(const guint *) pa);
  const OviClusterRoot *b = g_ptr_array_index (roots, *(const guint *) pb);
  int c = strcmp (a->host, b->host);

  return c ? c : strcmp (a->root, b->root);
}

/* After the ranks with an overflow: those without, by host, root and
 * device, the quiet devices of each root among the ranks whose records are
 * all ignored. @all is sorted, from @first on without overflow. */
static GArray *
build_tail (OviCluster *self, GPtrArray *all, guint first)
{
  guint n = all->len - first;
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->roots->len);
  GArray *tail;
  guint next = first;

  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      g_array_append_val (order, i);
      n += ovi_cluster_devices_len (&r->quiet);
    }
  g_array_sort_with_data (order, compare_roots, self->roots);
  tail = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  for (guint k = 0; k < order->len; k++)
    {
      guint ri = g_array_index (order, guint, k);
      OviClusterRoot *r = g_ptr_array_index (self->roots, ri);
      guint nq = ovi_cluster_devices_len (&r->quiet), q = 0;

      /* This root's ranks come next in @all: it is in the same order. */
      for (;;)
        {
          OviRank *rank = next < all->len ? g_ptr_array_index (all, next) : NULL;
          gboolean mine =
              rank && g_str_equal (rank->host, r->host) && g_str_equal (rank->root, r->root);
          guint64 e;

          if (mine && (q == nq || ovi_cluster_compare_devices (
                                      rank->device, ovi_cluster_devices_get (&r->quiet, q)) < 0))
            e = OVI_RANK_LIST_RANK (next++);
          else if (q < nq)
            e = OVI_RANK_LIST_QUIET (ri, q++);
          else
            break;
          g_array_append_val (tail, e);
        }
    }
  g_assert (next == all->len);
  return tail;
}

/* The op types of the first overflows of @ranks (all on collectives), in
 * order of first appearance: "HcomAllReduce", "HcomAllReduce, HcomBroadcast". */
static char *
collective_types (GPtrArray *ranks)
{
  g_autoptr (GPtrArray) types = g_ptr_array_new ();

  for (guint i = 0; i < ranks->len; i++)
    {
      OviRank *rank = g_ptr_array_index (ranks, i);

      if (rank->has_first && rank->op_type &&
          !g_ptr_array_find_with_equal_func (types, rank->op_type, g_str_equal, NULL))
        g_ptr_array_add (types, rank->op_type);
    }
  g_ptr_array_add (types, NULL);
  return g_strjoinv (", ", (char **) types->pdata);
}

/* Orders every rank and gives each its role. */
static void
update_ranks (OviCluster *self)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_object_unref);
  OviRank *origin = NULL, *earliest = NULL;
  guint first_quiet;

  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      for (guint j = 0; j < r->ranks->len; j++)
        g_ptr_array_add (all, g_object_ref (g_ptr_array_index (r->ranks, j)));
    }
  g_ptr_array_sort (all, compare_ranks);

  for (guint i = 0; i < all->len; i++)
    {
      OviRank *rank = g_ptr_array_index (all, i);
      if (rank->has_first && !earliest)
        earliest = rank;
      if (rank->has_first && !rank->collective && !origin)
        origin = rank;
    }
  g_clear_pointer (&self->origin_note, g_free);
  for (guint i = 0; i < all->len; i++)
    {
      OviRank *rank = g_ptr_array_index (all, i);
      OviRankRole role = OVI_RANK_ROLE_NONE;

      if (rank->has_first && !rank->collective)
        role = OVI_RANK_ROLE_ORIGIN;
      else if (rank->has_first)
        role = origin && compare_position (origin, rank) <= 0 ? OVI_RANK_ROLE_RECEIVED
                                                              : OVI_RANK_ROLE_UNKNOWN;
      ovi_rank_set_role (rank, role, rank == earliest);
    }
  if (earliest && !origin)
    self->origin_note = collective_types (all);
  for (first_quiet = 0;
       first_quiet < all->len && ((OviRank *) g_ptr_array_index (all, first_quiet))->has_first;
       first_quiet++)
    ;

  ovi_rank_list_set (self->ranks, self->roots, all, build_tail (self, all, first_quiet));
  if (self->earliest != earliest)
    {
      self->earliest = earliest;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EARLIEST]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_ROOTS]);
}

/* The rank at @position, made for the time it is used when the list has
 * not made it (a device without a record). */
static OviRank *
dup_rank_at (OviCluster *self, guint position)
{
  OviClusterRoot *root = NULL;
  guint index = 0;
  OviRank *rank = ovi_rank_list_peek (self->ranks, position, &root, &index);

  if (rank)
    return g_object_ref (rank);
  return ovi_rank_new (root->host, root->root, ovi_cluster_devices_get (&root->quiet, index));
}

/* Adds @found (taking its roots) unless one of them is there already. */
static gboolean
add_roots (OviCluster *self, GPtrArray *found, const char *source_name, GError **error)
{
  for (guint i = 0; i < found->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (found, i);
      for (guint j = 0; j < self->roots->len + i; j++)
        {
          OviClusterRoot *o = j < self->roots->len
                                  ? g_ptr_array_index (self->roots, j)
                                  : g_ptr_array_index (found, j - self->roots->len);
          if (g_str_equal (r->host, o->host) && g_str_equal (r->root, o->root))
            {
              g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_DUPLICATE_ROOT,
                           /* Translators: a file name, then a machine and a folder */
                           _ ("%s: %s%s%s is already in the cluster"), source_name, r->host,
                           *r->host ? ":" : "", r->root);
              return FALSE;
            }
        }
    }
  g_ptr_array_extend_and_steal (self->roots, g_ptr_array_ref (found));
  g_ptr_array_set_size (found, 0);
  return TRUE;
}

/**
 * ovi_cluster_add_report:
 * @report: a report as `overflow-inspector-cli report --json` writes it,
 *   or a cluster report (`merge`, or `report --json` of several roots)
 * @source_name: the report's file name, for messages
 *
 * Adds the roots of @report. A report that is not one, or one whose roots
 * are in the cluster already, adds nothing: the roots added before stay.
 *
 * Returns: %TRUE when added
 */
gboolean
ovi_cluster_add_report (OviCluster *self, JsonNode *report, const char *source_name, GError **error)
{
  g_autoptr (GPtrArray) found =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (source_name != NULL, FALSE);

  if (!ovi_cluster_root_read_tree (report, source_name, found, error) ||
      !add_roots (self, found, source_name, error))
    return FALSE;
  update_ranks (self);
  return TRUE;
}

/**
 * ovi_cluster_add_folder:
 * @folder: a loaded folder, of one root or several
 * @host: the machine that holds it
 *
 * Adds each root of @folder from its records, as a report of it would
 * (no tensor is read, and no report is built): the window's own folder on
 * the timeline. Such roots are left out of ovi_cluster_build_json() and
 * ovi_cluster_write_json(): writing a folder's report is report/'s job.
 *
 * Returns: %FALSE when one of its roots is in the cluster already
 */
gboolean
ovi_cluster_add_folder (OviCluster *self, OviDumpFolder *folder, const char *host, GError **error)
{
  g_autoptr (GPtrArray) found =
      g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free);
  g_autofree char *name = NULL;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (folder), FALSE);

  ovi_cluster_root_read_folder (folder, host, found);
  name = g_filename_display_name (ovi_dump_folder_get_root_path (folder));
  if (!add_roots (self, found, name, error))
    return FALSE;
  update_ranks (self);
  return TRUE;
}

/**
 * ovi_cluster_remove_root:
 * @host: the machine, as its report names it ("" for none)
 * @root: the root path, as its report names it
 *
 * Takes a root out, to add it again as it is now (a folder followed while a
 * run writes into it).
 *
 * Returns: %TRUE when the cluster had it
 */
gboolean
ovi_cluster_remove_root (OviCluster *self, const char *host, const char *root)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);

  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);

      if (g_str_equal (r->host, host) && g_str_equal (r->root, root))
        {
          g_ptr_array_remove_index (self->roots, i);
          update_ranks (self);
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * ovi_cluster_clear:
 *
 * Takes every root out.
 */
void
ovi_cluster_clear (OviCluster *self)
{
  g_return_if_fail (OVI_IS_CLUSTER (self));

  if (self->roots->len == 0)
    return;
  g_ptr_array_set_size (self->roots, 0);
  update_ranks (self);
}

guint
ovi_cluster_get_n_roots (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), 0);
  return self->roots->len;
}

/**
 * ovi_cluster_get_ranks:
 *
 * Returns: (transfer none): the #OviRank of every (host, root, device), in
 *   cluster order (see the top of ovi-cluster.c): first overflow first,
 *   ranks without overflow last
 */
GListModel *
ovi_cluster_get_ranks (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);
  return G_LIST_MODEL (self->ranks);
}

/**
 * ovi_cluster_get_earliest:
 *
 * Returns: (transfer none) (nullable): the rank whose first overflow comes
 *   first, %NULL when no rank has one
 */
OviRank *
ovi_cluster_get_earliest (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);
  return self->earliest;
}

static void
add_string_or_null (JsonBuilder *b, const char *key, const char *v)
{
  json_builder_set_member_name (b, key);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

/**
 * ovi_cluster_build_rank_json:
 *
 * Returns: (transfer full): one element of "ranks" (schema in README.md),
 *   in English whatever the locale
 */
JsonNode *
ovi_cluster_build_rank_json (OviRank *rank)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (OVI_IS_RANK (rank), NULL);

  json_builder_begin_object (b);
  add_string_or_null (b, "host", rank->host);
  add_string_or_null (b, "root", rank->root);
  add_string_or_null (b, "device", rank->device);
  add_string_or_null (b, "role", ovi_rank_role_name (rank->role));
  json_builder_set_member_name (b, "earliest");
  json_builder_add_boolean_value (b, rank->earliest);
  json_builder_set_member_name (b, "collective");
  json_builder_add_boolean_value (b, rank->collective);
  json_builder_set_member_name (b, "n_records");
  json_builder_add_int_value (b, rank->n_records);
  add_string_or_null (b, "first_iteration", rank->first_iteration);
  json_builder_set_member_name (b, "iteration");
  if (rank->has_iteration && rank->iteration <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) rank->iteration);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "timestamp");
  if (rank->has_first && rank->timestamp <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) rank->timestamp);
  else
    json_builder_add_null_value (b);
  add_string_or_null (b, "file", rank->file);
  add_string_or_null (b, "op_type", rank->op_type);
  add_string_or_null (b, "op_name", rank->op_name);
  add_string_or_null (b, "unit", rank->unit);
  add_string_or_null (b, "status_hex", rank->status_hex);
  /* JSON is read by programs: the same in every locale. */
  add_string_or_null (b, "status_summary",
                      rank->from_data ? OVI_FOUND_IN_DATA : rank->status_summary);
  json_builder_set_member_name (b, "iterations");
  json_builder_begin_array (b);
  for (guint i = 0; i < rank->iterations->len; i++)
    {
      OviRankIteration *it = &g_array_index (rank->iterations, OviRankIteration, i);
      if (it->iteration > G_MAXINT64)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "iteration");
      json_builder_add_int_value (b, (gint64) it->iteration);
      json_builder_set_member_name (b, "records");
      json_builder_add_int_value (b, it->n_records);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/**
 * ovi_cluster_build_ranks_json:
 *
 * Returns: (transfer full): the "ranks" array, in cluster order
 */
JsonNode *
ovi_cluster_build_ranks_json (OviCluster *self)
{
  JsonArray *a = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  guint n;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = dup_rank_at (self, i);
      json_array_add_element (a, ovi_cluster_build_rank_json (rank));
    }
  json_node_take_array (node, a);
  return node;
}

/* What ovi_cluster_dup_origin_note() says: translated for a person,
 * English in JSON (read by programs, as every message there). */
#define ORIGIN_NOTE                                                                                \
  N_ ("The first overflow on every device is a collective (%s): the origin is on a machine "       \
      "whose report is not open.")

/**
 * ovi_cluster_dup_origin_note:
 *
 * When the first overflow of every rank that overflowed is on a collective
 * operator, none of them is where the bad values started: they came in from
 * a device that is not open (another machine's, whose report is missing).
 * This says so, naming the collectives, instead of a list of origins.
 *
 * Returns: (transfer full) (nullable): the sentence, translated, or %NULL
 *   when an origin is known (or nothing overflowed)
 */
char *
ovi_cluster_dup_origin_note (OviCluster *self)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  if (self->origin_note == NULL)
    return NULL;
  return g_strdup_printf (_ (ORIGIN_NOTE), self->origin_note);
}

/* The same in English, as JSON has it. */
static char *
english_origin_note (OviCluster *self)
{
  return g_strdup_printf (ORIGIN_NOTE, self->origin_note);
}

/**
 * ovi_cluster_build_json:
 *
 * Returns: (transfer full): the cluster report: `{"format":
 *   "overflow-inspector-cluster", "roots": [each root's report unchanged],
 *   "ranks": [...], "first_rank": {...} | null}`. Roots read from report
 *   files are parsed again here: to write the report, use
 *   ovi_cluster_write_json().
 */
JsonNode *
ovi_cluster_build_json (OviCluster *self)
{
  JsonObject *o = json_object_new ();
  JsonArray *roots = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  g_return_val_if_fail (OVI_IS_CLUSTER (self), NULL);

  json_object_set_string_member (o, "format", OVI_CLUSTER_FORMAT);
  if (self->origin_note)
    {
      g_autofree char *note = english_origin_note (self);
      json_object_set_string_member (o, "origin_unknown", note);
    }
  else
    json_object_set_null_member (o, "origin_unknown");
  for (guint i = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      g_autoptr (JsonParser) parser = NULL;
      gsize length;
      const char *text;

      if (r->report == NULL && r->text == NULL)
        continue; /* a folder's, which report/ writes */
      if (r->report)
        {
          /* A copy of the node shares the report's object: nothing is copied. */
          json_array_add_element (roots, json_node_copy (r->report));
          continue;
        }
      /* Read from a file, checked already. */
      parser = json_parser_new_immutable ();
      text = g_bytes_get_data (r->text, &length);
      if (json_parser_load_from_data (parser, text, length, NULL))
        json_array_add_element (roots, json_node_ref (json_parser_get_root (parser)));
      else
        g_assert_not_reached ();
    }
  json_object_set_array_member (o, "roots", roots);
  json_object_set_member (o, "ranks", ovi_cluster_build_ranks_json (self));
  if (self->earliest)
    json_object_set_member (o, "first_rank", ovi_cluster_build_rank_json (self->earliest));
  else
    json_object_set_null_member (o, "first_rank");
  json_node_take_object (node, o);
  return node;
}

static gboolean
write_text (GOutputStream *out, const char *text, GCancellable *cancellable, GError **error)
{
  return g_output_stream_write_all (out, text, strlen (text), NULL, cancellable, error);
}

static gboolean
write_node (GOutputStream *out, JsonNode *node, GCancellable *cancellable, GError **error)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (GString) s = g_string_new (NULL);

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, node);
  json_generator_to_gstring (gen, s);
  return g_output_stream_write_all (out, s->str, s->len, NULL, cancellable, error);
}

/* One rank's text as it stands in the "ranks" array json-glib writes: one
 * level in, every line indented two spaces more. */
static void
append_rank_text (GString *s, OviRank *rank)
{
  g_autoptr (JsonNode) node = ovi_cluster_build_rank_json (rank);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  g_string_append (s, "  ");
  for (const char *p = text, *nl; *p; p = nl + 1)
    {
      if (!(nl = strchr (p, '\n')))
        {
          g_string_append (s, p);
          break;
        }
      g_string_append_len (s, p, nl + 1 - p);
      g_string_append (s, "  ");
    }
}

/* The text of a root's ranks without overflow around their device id,
 * made once per root: every quiet device's text is the same but for it. */
#define DEVICE_MARK "@ovi-device-mark@"

typedef struct
{
  OviClusterRoot *root;
  char *before, *after; /* NULL when the mark was not found */
} QuietText;

static void
quiet_text_for (QuietText *q, OviClusterRoot *root)
{
  g_autoptr (OviRank) rank = NULL;
  g_autoptr (GString) s = g_string_new (NULL);
  char *at;

  if (q->root == root)
    return;
  g_clear_pointer (&q->before, g_free);
  g_clear_pointer (&q->after, g_free);
  q->root = root;
  rank = ovi_rank_new (root->host, root->root, DEVICE_MARK);
  append_rank_text (s, rank);
  /* The device follows the host and the root, and nothing after it can
   * hold the mark. */
  if ((at = g_strrstr (s->str, "\"" DEVICE_MARK "\"")))
    {
      q->before = g_strndup (s->str, at - s->str);
      q->after = g_strdup (at + strlen ("\"" DEVICE_MARK "\""));
    }
}

static gboolean
flush_text (GOutputStream *out, GString *s, GCancellable *cancellable, GError **error)
{
  gboolean ok = g_output_stream_write_all (out, s->str, s->len, NULL, cancellable, error);

  g_string_truncate (s, 0);
  return ok;
}

/* The "ranks" array, as write_node() of ovi_cluster_build_ranks_json()
 * writes it, a piece at a time: a million ranks would take gigabytes as a
 * tree and hundreds of megabytes as text. */
static gboolean
write_ranks (OviCluster *self, GOutputStream *out, GCancellable *cancellable, GError **error)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks));
  g_autoptr (GString) s = g_string_sized_new (1 << 16);
  QuietText quiet = { NULL };
  gboolean ok = TRUE;

  /* json-glib writes an empty array on one line. */
  if (n == 0)
    return write_text (out, "[]", cancellable, error);
  g_string_append (s, "[\n");
  for (guint i = 0; i < n && ok; i++)
    {
      OviClusterRoot *root = NULL;
      guint index = 0;
      OviRank *rank = ovi_rank_list_peek (self->ranks, i, &root, &index);
      const char *id = rank ? NULL : ovi_cluster_devices_get (&root->quiet, index);

      if (rank)
        append_rank_text (s, rank);
      else if (id && id[strspn (id, "0123456789")] == '\0' &&
               (quiet_text_for (&quiet, root), quiet.before))
        {
          /* Digits need no escaping. */
          g_string_append (s, quiet.before);
          g_string_append_c (s, '"');
          g_string_append (s, id);
          g_string_append_c (s, '"');
          g_string_append (s, quiet.after);
        }
      else
        {
          g_autoptr (OviRank) made = ovi_rank_new (root->host, root->root, id);
          append_rank_text (s, made);
        }
      g_string_append (s, i + 1 < n ? ",\n" : "\n");
      if (s->len >= 1 << 16)
        ok = flush_text (out, s, cancellable, error);
    }
  g_free (quiet.before);
  g_free (quiet.after);
  if (!ok)
    return FALSE;
  g_string_append_c (s, ']');
  return flush_text (out, s, cancellable, error);
}

/**
 * ovi_cluster_write_json:
 * @out: where to write
 *
 * Writes the cluster report of ovi_cluster_build_json(), with the roots
 * read from report files copied as their files have them (so that a merge
 * of hundreds of megabytes of reports neither parses them into trees nor
 * generates them again).
 *
 * Returns: %TRUE when written
 */
gboolean
ovi_cluster_write_json (OviCluster *self,
                        GOutputStream *out,
                        GCancellable *cancellable,
                        GError **error)
{
  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  if (!write_text (out, "{\n  \"format\" : \"" OVI_CLUSTER_FORMAT "\",\n  \"origin_unknown\" : ",
                   cancellable, error))
    return FALSE;
  if (self->origin_note)
    {
      g_autofree char *note = english_origin_note (self);
      g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), note);
      if (!write_node (out, node, cancellable, error))
        return FALSE;
    }
  else if (!write_text (out, "null", cancellable, error))
    return FALSE;
  if (!write_text (out, ",\n  \"roots\" : [\n", cancellable, error))
    return FALSE;
  for (guint i = 0, written = 0; i < self->roots->len; i++)
    {
      OviClusterRoot *r = g_ptr_array_index (self->roots, i);
      gboolean ok;

      if (r->report == NULL && r->text == NULL)
        continue; /* a folder's, which report/ writes */
      if (written++ > 0 && !write_text (out, ",\n", cancellable, error))
        return FALSE;

      if (r->text)
        {
          gsize length;
          const char *text = g_bytes_get_data (r->text, &length);
          ok = g_output_stream_write_all (out, text, length, NULL, cancellable, error);
        }
      else
        {
          g_autofree char *text = ovi_json_to_text (r->report);
          g_strchomp (text);
          ok = write_text (out, text, cancellable, error);
        }
      if (!ok)
        return FALSE;
    }
  if (!write_text (out, "\n  ],\n  \"ranks\" : ", cancellable, error) ||
      !write_ranks (self, out, cancellable, error) ||
      !write_text (out, ",\n  \"first_rank\" : ", cancellable, error))
    return FALSE;
  if (self->earliest)
    {
      g_autoptr (JsonNode) first = ovi_cluster_build_rank_json (self->earliest);
      if (!write_node (out, first, cancellable, error))
        return FALSE;
    }
  else if (!write_text (out, "null", cancellable, error))
    return FALSE;
  return write_text (out, "\n}\n", cancellable, error);
}

static const char *
role_label (OviRankRole role)
{
  switch (role)
    {
    case OVI_RANK_ROLE_ORIGIN:
      /* Translators: a device whose first overflow is its own */
      return _ ("origin");
    case OVI_RANK_ROLE_RECEIVED:
      /* Translators: a device that received bad values through a collective */
      return _ ("received");
    case OVI_RANK_ROLE_UNKNOWN:
      /* Translators: a device that received bad values through a collective
       * from a device that is not open */
      return _ ("origin unknown");
    case OVI_RANK_ROLE_NONE:
    default:
      return _ ("no overflow");
    }
}

/**
 * ovi_cluster_to_text:
 *
 * Returns: (transfer full): the ranks for a person, one line each in
 *   cluster order, the earliest marked
 */
char *
ovi_cluster_to_text (OviCluster *self)
{
  GString *s = g_string_new (NULL);
  g_autoptr (GHashTable) hosts = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->ranks)), n_overflow = 0;

  for (guint i = 0; i < self->roots->len; i++)
    g_hash_table_add (hosts, ((OviClusterRoot *) g_ptr_array_index (self->roots, i))->host);
  n_overflow = ovi_rank_list_get_n_ranked (self->ranks);
  g_string_append_printf (s, "%s\n", _ ("Cluster overflow report"));
  /* Translators: counts of machines, opened folders or reports, devices */
  g_string_append_printf (s, _ ("machines: %u, roots: %u, ranks: %u, with overflow: %u"),
                          g_hash_table_size (hosts), self->roots->len, n, n_overflow);
  g_string_append_printf (
      s, "\n%s\n\n",
      _ ("Ranks in order of their first overflow: iteration, then the timestamp of the file. "
         "Timestamps are the times the files were written, which can lag the overflow itself."));
  if (self->origin_note)
    {
      g_autofree char *note = ovi_cluster_dup_origin_note (self);
      g_string_append_printf (s, "%s\n\n", note);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviRank) rank = dup_rank_at (self, i);
      g_autofree char *raw_label = ovi_rank_dup_label (rank);
      /* Hosts, roots and names come from reports: shown escaped. */
      g_autofree char *label = ovi_path_escape (raw_label);
      g_autofree char *iteration = NULL, *op_type = NULL, *op_name = NULL;

      g_string_append_printf (s, "%c %4u  %s", rank->earliest ? '*' : ' ', i + 1, label);
      if (!rank->has_first)
        {
          g_string_append_printf (s, "  %s\n", role_label (rank->role));
          continue;
        }
      iteration = ovi_path_escape (rank->first_iteration ? rank->first_iteration : "");
      op_type = rank->op_type ? ovi_path_escape (rank->op_type) : NULL;
      op_name = ovi_path_escape (rank->op_name ? rank->op_name : "");
      g_string_append_printf (s, "  %s %s", _ ("in"), iteration);
      g_string_append_printf (s, "  %s %s", op_type ? op_type : _ ("operator not found"), op_name);
      if (rank->collective)
        /* Translators: shown after an operator that moves data between devices */
        g_string_append_printf (s, " [%s]", _ ("collective"));
      g_string_append_printf (s, "  %s %s  %s", rank->unit ? ovi_unit_label (rank->unit) : "",
                              rank->status_summary ? rank->status_summary : "",
                              role_label (rank->role));
      if (rank->earliest)
        g_string_append_printf (s, "  (%s)", _ ("earliest"));
      g_string_append_c (s, '\n');
    }
  {
    g_autofree char *text = g_string_free (s, FALSE);
    return g_utf8_make_valid (text, -1);
  }
}

/* ------------------------------------------------------- report files */

/* Report files read in parallel: per file, its roots or its problem. */
typedef struct
{
  GPtrArray *files; /* GFile */
  GPtrArray *found; /* per file: GPtrArray of OviClusterRoot (empty on error) */
  char **errors;    /* per file: message or NULL */
  GCancellable *cancellable;
} Load;

static void
load_free (Load *load)
{
  for (guint i = 0; i < load->files->len; i++)
    g_free (load->errors[i]);
  g_free (load->errors);
  g_ptr_array_unref (load->files);
  g_ptr_array_unref (load->found);
  g_clear_object (&load->cancellable);
  g_free (load);
}

static Load *
load_new (GFile *const *files, guint n_files, GCancellable *cancellable)
{
  Load *load = g_new0 (Load, 1);

  load->files = g_ptr_array_new_with_free_func (g_object_unref);
  load->found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < n_files; i++)
    {
      g_ptr_array_add (load->files, g_object_ref (files[i]));
      g_ptr_array_add (load->found,
                       g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_cluster_root_free));
    }
  load->errors = g_new0 (char *, n_files + 1);
  load->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  return load;
}

/* Reads one report file into its roots (on any thread). */
static gboolean
read_report_file (GFile *file, GPtrArray *roots, GCancellable *cancellable, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr (GBytes) bytes = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (path == NULL)
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, _ ("%s: not a local file"),
                   name);
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ,
                   _ ("%s: a folder, not a report file (“report” reads folders)"), name);
      return FALSE;
    }
  /* Read into memory, not mapped: the roots keep their text, and a file
   * cut while it is merged (a report being rewritten) would make reading
   * a map of it die of SIGBUS. A FIFO would block for good, a device never
   * end: only a regular file is read. */
  if (!ovi_regular_file_read (AT_FDCWD, path, &contents, &length, &local_error))
    {
      int code = local_error->domain == G_FILE_ERROR ? local_error->code : G_FILE_ERROR_FAILED;

      if (code == G_FILE_ERROR_INVAL)
        g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, "%s: %s", name,
                     local_error->message);
      else
        /* Translators: a file name, then why it cannot be read */
        g_set_error (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_READ, _ ("%s: cannot read it: %s"),
                     name,
                     g_strerror (code == G_FILE_ERROR_NOENT   ? ENOENT
                                 : code == G_FILE_ERROR_ACCES ? EACCES
                                                              : EIO));
      return FALSE;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  return ovi_cluster_root_read_text (bytes, name, roots, error);
}

/**
 * ovi_cluster_is_report_file:
 *
 * Whether @file is read as a report (`report --json`, `merge`) rather than
 * as a dump folder or file: its name ends in .json. The window and the
 * command line tell them apart by this one rule.
 */
gboolean
ovi_cluster_is_report_file (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  gsize length = name ? strlen (name) : 0;

  return length > 5 && g_ascii_strcasecmp (name + length - 5, ".json") == 0;
}

static void
load_one (guint index, gpointer user_data)
{
  Load *load = user_data;
  g_autoptr (GError) error = NULL;

  if (!read_report_file (g_ptr_array_index (load->files, index),
                         g_ptr_array_index (load->found, index), load->cancellable, &error))
    load->errors[index] = g_strdup (error->message);
}

/* At the caller's priority: core's pool runs below the window's thread,
 * and on a busy machine (a login node) its threads can wait seconds for a
 * turn, which a command-line merge should not. */
static void
load_in_threads (Load *load)
{
  ovi_parallel_for_full (load->files->len, load_one, load, load->cancellable, OVI_WORKER_CALLER);
}

/* Adds what @load read, in the order of its files; FALSE with every
 * problem, one line each, when a file added nothing. */
static gboolean
load_apply (OviCluster *self, Load *load, GError **error)
{
  g_autoptr (GPtrArray) problems = g_ptr_array_new ();
  gboolean added = FALSE;

  for (guint i = 0; i < load->files->len; i++)
    {
      GPtrArray *roots = g_ptr_array_index (load->found, i);
      g_autofree char *name = g_file_get_parse_name (g_ptr_array_index (load->files, i));
      g_autoptr (GError) local_error = NULL;

      if (load->errors[i] == NULL && roots->len == 0)
        continue;
      if (load->errors[i] == NULL && !add_roots (self, roots, name, &local_error))
        load->errors[i] = g_strdup (local_error->message);
      else if (load->errors[i] == NULL)
        added = TRUE;
      if (load->errors[i])
        g_ptr_array_add (problems, load->errors[i]);
    }
  if (added)
    update_ranks (self);
  if (problems->len == 0)
    return TRUE;
  g_ptr_array_add (problems, NULL);
  {
    g_autofree char *message = g_strjoinv ("\n", (char **) problems->pdata);
    g_set_error_literal (error, OVI_CLUSTER_ERROR, OVI_CLUSTER_ERROR_BAD_REPORT, message);
  }
  return FALSE;
}

/**
 * ovi_cluster_add_report_files:
 * @files: (array length=n_files): report files (single-root or cluster)
 *
 * Reads and parses @files on core's worker pool (and the calling thread),
 * then adds their roots in the order of @files. A file that cannot be
 * read, is not JSON or not a report adds nothing; the others are added
 * all the same.
 *
 * Returns: %TRUE when every file was added; %FALSE with @error listing
 *   each file that was not, one line each naming it and the problem
 */
gboolean
ovi_cluster_add_report_files (
    OviCluster *self, GFile *const *files, guint n_files, GCancellable *cancellable, GError **error)
{
  Load *load;
  gboolean ok;

  g_return_val_if_fail (OVI_IS_CLUSTER (self), FALSE);
  g_return_val_if_fail (files != NULL || n_files == 0, FALSE);

  load = load_new (files, n_files, cancellable);
  load_in_threads (load);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  else
    ok = load_apply (self, load, error);
  load_free (load);
  return ok;
}

static void
load_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Load *load = task_data;

  ovi_parallel_for (load->files->len, load_one, load, cancellable);
  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

/* Back on the caller's context: the reports read go into the cluster,
 * then the caller hears of it. */
static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OviCluster *self = OVI_CLUSTER (source);
  g_autoptr (GTask) outer = user_data;
  g_autoptr (GError) error = NULL;
  Load *load = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), &error) || !load_apply (self, load, &error))
    g_task_return_error (outer, g_steal_pointer (&error));
  else
    g_task_return_boolean (outer, TRUE);
}

/**
 * ovi_cluster_load_reports_async:
 * @files: (array length=n_files): report files (single-root or cluster)
 *
 * ovi_cluster_add_report_files() with the reading and parsing on core's
 * worker pool: the roots are added on the calling thread's main context
 * just before @callback runs, so that the main loop never parses.
 */
void
ovi_cluster_load_reports_async (OviCluster *self,
                                GFile *const *files,
                                guint n_files,
                                GCancellable *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer user_data)
{
  GTask *outer;
  g_autoptr (GTask) inner = NULL;

  g_return_if_fail (OVI_IS_CLUSTER (self));
  g_return_if_fail (files != NULL || n_files == 0);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, ovi_cluster_load_reports_async);
  inner = g_task_new (self, cancellable, load_done, outer);
  g_task_set_source_tag (inner, ovi_cluster_load_reports_async);
  g_task_set_task_data (inner, load_new (files, n_files, cancellable), (GDestroyNotify) load_free);
  ovi_worker_run_in_thread (inner, load_in_thread);
}

/**
 * ovi_cluster_load_reports_finish:
 *
 * Returns: %TRUE when every file was added; %FALSE with @error listing
 *   each file that was not (one line each, naming it and the problem)
 */
gboolean
ovi_cluster_load_reports_finish (OviCluster *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
