/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-cluster-private.h"
#include "ovi-path.h"
#include "ovi-rank-private.h"

/* The cluster report for a person: one line a rank, in cluster order. */

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
      g_autoptr (OviRank) rank = ovi_cluster_dup_rank_at (self, i);
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
