/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-fixtures.h"

/* The records' numbering (position, first and ignored marks, the gap to
 * the previous record of the same run, device and model) is done from
 * where the list changed, not from its start (issue #29, item 1). It must
 * be what numbering every record from the first gives, after each batch of
 * results a load applies, and after. */

#define T0 G_GUINT64_CONSTANT (1764670500000000)

static const char *const runs[] = { "20251202101500", "20261203090000" };

/* Two runs of 4 devices, 5 iterations each. In each iteration every device
 * overflows, device 3 first, so that the scan (device after device) puts
 * most records in the middle of the list; device 2's overflows are in an
 * ignored operator, and so is every overflow of iteration 0 of the first
 * run but device 1's. */
static void
write_tree (const char *root)
{
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    for (guint d = 0; d < 4; d++)
      for (guint it = 0; it < 5; it++)
        {
          g_autofree char *device = g_strdup_printf ("%u", d);
          g_autofree char *iteration = g_strdup_printf ("%u", it);
          g_autofree char *dir =
              g_build_filename (root, runs[r], device, "net", "11", iteration, NULL);
          guint64 ts = T0 + r * 86400000000 + it * 1000000 + (3 - d) * 100 + it * it;
          gboolean ignored = d == 2 || (r == 0 && it == 0 && d != 1);

          ovi_fixture_write_overflow_op (dir, ignored ? "Noisy" : "Cast",
                                         ignored ? "net/Noisy_1" : "net/Cast_3", 57, 7, ts, FALSE);
        }
}

/* The numbering from the first record, compared with what the records say. */
static void
check_numbering (OviDumpFolder *folder)
{
  GListModel *records = ovi_dump_folder_get_records (folder);
  g_autoptr (GHashTable) last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean first_seen = FALSE;

  for (guint i = 0, n = g_list_model_get_n_items (records); i < n; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (r);
      gboolean ignored = ovi_dump_folder_is_ignored (folder, ovi_overflow_record_get_op (r));
      char *key = g_strdup_printf ("%u\n%s\n%s\n%s", ovi_dump_file_get_root (file),
                                   ovi_dump_file_get_time (file), ovi_dump_file_get_device (file),
                                   ovi_dump_file_get_model (file));
      OviOverflowRecord *previous = g_hash_table_lookup (last, key);
      gint64 gap = 0;

      if (i > 0)
        {
          g_autoptr (OviOverflowRecord) before = g_list_model_get_item (records, i - 1);
          g_assert_cmpint (ovi_overflow_record_compare (before, r), <, 0);
        }
      g_assert_cmpuint (ovi_overflow_record_get_position (r), ==, i);
      g_assert_cmpint (ovi_overflow_record_get_ignored (r), ==, ignored);
      g_assert_cmpint (ovi_overflow_record_get_is_first (r), ==, !ignored && !first_seen);
      g_assert_cmpint (ovi_overflow_record_get_gap (r, &gap), ==, previous != NULL);
      if (previous)
        g_assert_cmpint (
            gap, ==,
            (gint64) (ovi_dump_file_get_timestamp (file) -
                      ovi_dump_file_get_timestamp (ovi_overflow_record_get_file (previous))));
      g_hash_table_insert (last, key, r);
      first_seen |= !ignored;
    }
}

typedef struct
{
  GMainLoop *loop;
  guint batches;
} Load;

/* A paced caller that takes the results in one file at a time, and checks
 * the numbering after each. */
static void
apply_one_at_a_time (OviDumpFolder *folder, Load *load)
{
  while (ovi_dump_folder_apply_results (folder, 1))
    {
      load->batches++;
      check_numbering (folder);
    }
  check_numbering (folder);
}

static void
loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  Load *load = data;

  g_assert_true (ovi_dump_folder_load_finish (OVI_DUMP_FOLDER (source), result, NULL));
  g_main_loop_quit (load->loop);
}

static void
test_while_results_arrive (OviTmpDir *f, gconstpointer data)
{
  const char *const noisy[] = { "Noisy", NULL };
  g_autoptr (OviIgnoreList) ignore = ovi_ignore_list_new (noisy);
  g_autoptr (GFile) root = g_file_new_for_path (f->dir);
  g_autoptr (OviDumpFolder) folder = ovi_dump_folder_new (root);
  g_autoptr (OviDumpFolder) again = ovi_dump_folder_new (root);
  g_autoptr (GError) error = NULL;
  Load load = { g_main_loop_new (NULL, FALSE), 0 };
  guint n_first = 0;

  write_tree (f->dir);
  ovi_dump_folder_set_ignore_list (folder, ignore);
  ovi_dump_folder_set_paced (folder, TRUE);
  g_signal_connect (folder, "results-waiting", G_CALLBACK (apply_one_at_a_time), &load);
  ovi_dump_folder_load_async (folder, NULL, loaded, &load);
  g_main_loop_run (load.loop);
  g_main_loop_unref (load.loop);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 40);
  g_assert_cmpuint (load.batches, >=, 40);
  check_numbering (folder);
  for (guint i = 0; i < 40; i++)
    {
      g_autoptr (OviOverflowRecord) r =
          g_list_model_get_item (ovi_dump_folder_get_records (folder), i);
      n_first += ovi_overflow_record_get_is_first (r);
      if (ovi_overflow_record_get_is_first (r))
        g_assert_cmpstr (ovi_dump_file_get_device (ovi_overflow_record_get_file (r)), ==, "1");
    }
  g_assert_cmpuint (n_first, ==, 1);

  /* The ignore list taken away and given back: every record again. */
  ovi_dump_folder_set_ignore_list (folder, NULL);
  check_numbering (folder);
  ovi_dump_folder_set_ignore_list (folder, ignore);
  check_numbering (folder);

  /* Loaded again, on the calling thread: the same. */
  ovi_dump_folder_set_ignore_list (again, ignore);
  g_assert_true (ovi_dump_folder_load (again, NULL, &error));
  g_assert_no_error (error);
  check_numbering (again);
  g_assert_true (ovi_dump_folder_load (again, NULL, &error));
  g_assert_no_error (error);
  check_numbering (again);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/core/numbering/while-results-arrive", OviTmpDir, NULL, ovi_tmp_dir_setup,
              test_while_results_arrive, ovi_tmp_dir_teardown);
  return g_test_run ();
}
