/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ovi-fixtures.h"

/* Overflow payloads (dump-format.md section 4): decoding, status bits, the
 * vendor JSON, and matching a record to its op dump file. */

typedef OviTmpDir Fixture;

static GPtrArray *
decode (GBytes *payload, GError **error)
{
  return ovi_overflow_record_decode (g_bytes_get_data (payload, NULL), g_bytes_get_size (payload),
                                     error);
}

static char *
extra (OviOverflowRecord *r)
{
  g_autoptr (GPtrArray) fields = ovi_overflow_record_dup_extra_fields (r);
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < fields->len; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", (const char *) g_ptr_array_index (fields, i));
  return g_strdup (s->str);
}

static void
test_classic_aicore (void)
{
  OviClassicBlock core = {
    514, 563, 57, 2, 0x1008005b0000, 0x100800297000, 0x1008005b0e00, 3, 272
  };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) records = decode (p, &error);
  g_autoptr (GArray) bits = NULL;
  OviOverflowRecord *r;
  g_autofree char *summary = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *plain = NULL;
  guint n_words;
  const guint64 *words;

  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 1);
  r = g_ptr_array_index (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_AI_CORE);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "AI Core");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 514);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 563);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 57);
  g_assert_cmpuint (ovi_overflow_record_get_task_type (r), ==, 2);
  g_assert_cmpuint (ovi_overflow_record_get_pc_start (r), ==, 0x1008005b0000);
  g_assert_cmpuint (ovi_overflow_record_get_para_base (r), ==, 0x100800297000);
  g_assert_cmpuint (ovi_overflow_record_get_kernel_code (r), ==, 0x1008005b0e00);
  g_assert_cmpuint (ovi_overflow_record_get_block_idx (r), ==, 3);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 272);
  g_assert_cmpuint (ovi_overflow_record_get_flags_mask (r), ==, 0x110);
  g_assert_false (ovi_overflow_record_has_context (r));
  words = ovi_overflow_record_get_status_words (r, &n_words);
  g_assert_cmpuint (n_words, ==, 1);
  g_assert_cmpuint (words[0], ==, 272);
  hex = ovi_overflow_record_dup_status_hex (r);
  g_assert_cmpstr (hex, ==, "0x110");
  summary = ovi_overflow_record_dup_status_summary (r);
  g_assert_cmpstr (summary, ==, "0x110 FP16+INT");
  plain = ovi_status_dup_summary (272);
  g_assert_cmpstr (plain, ==, "FP16+INT");
  bits = ovi_status_split (272);
  g_assert_cmpuint (bits->len, ==, 2);
  g_assert_cmpuint (g_array_index (bits, guint64, 0), ==, 0x10);
  g_assert_cmpuint (g_array_index (bits, guint64, 1), ==, 0x100);
  g_assert_null (ovi_overflow_record_get_file (r));
  g_assert_null (ovi_overflow_record_get_op (r));
}

static void
test_status_bits (void)
{
  guint n;
  const OviStatusBit *known = ovi_status_bits (&n);
  static const guint64 expected[] = { 0x08, 0x10, 0x20, 0x80, 0x100, 0x400 };
  static const char *const names[] = { "NEG", "INT", "FP", "F2U", "FP16", "CUBE" };
  g_autoptr (GArray) bits = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL, *s4 = NULL;

  g_assert_cmpuint (n, ==, 6);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (known[i].bit, ==, expected[i]);
      g_assert_cmpstr (known[i].name, ==, names[i]);
      g_assert_nonnull (known[i].description);
    }

  /* An unknown bit is kept, not dropped. */
  bits = ovi_status_split (0x10001);
  g_assert_cmpuint (bits->len, ==, 2);
  g_assert_cmpuint (g_array_index (bits, guint64, 0), ==, 0x1);
  g_assert_cmpuint (g_array_index (bits, guint64, 1), ==, 0x10000);
  s1 = ovi_status_dup_summary (0x10001);
  g_assert_nonnull (strstr (s1, "0x10000"));
  g_assert_nonnull (strstr (s1, "0x1"));
  g_assert_cmpstr (s1, ==, "0x10000+0x1");
  s2 = ovi_status_dup_summary (0x5b8);
  g_assert_cmpstr (s2, ==, "CUBE+FP16+F2U+FP+INT+NEG");
  g_clear_pointer (&bits, g_array_unref);
  bits = ovi_status_split (G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_cmpuint (bits->len, ==, 1);
  g_assert_cmpuint (g_array_index (bits, guint64, 0), ==, G_GUINT64_CONSTANT (0x8000000000000000));
  s3 = ovi_status_dup_summary (G_GUINT64_CONSTANT (0x8000000000000020));
  g_assert_cmpstr (s3, ==, "0x8000000000000000+FP");
  g_clear_pointer (&bits, g_array_unref);
  bits = ovi_status_split (0);
  g_assert_cmpuint (bits->len, ==, 0);
  s4 = ovi_status_dup_summary (0);
  g_assert_cmpstr (s4, ==, "");

  /* ... and in a record's summary. */
  {
    OviClassicBlock core = { 1, 2, 3, 0, 0, 0, 0, 0, 0x10001 };
    g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
    g_autoptr (GPtrArray) records = decode (p, NULL);
    g_autofree char *summary = NULL;
    g_assert_cmpuint (records->len, ==, 1);
    summary = ovi_overflow_record_dup_status_summary (g_ptr_array_index (records, 0));
    g_assert_cmpstr (summary, ==, "0x10001 0x10000+0x1");
  }
}

static void
test_classic_atomic (void)
{
  OviClassicBlock dha = { 11, 7, 61, 1, 0x1008005c0000, 0x100800298000, 0, 0, 1 };
  OviClassicBlock l2 = { 12, 3, 200, 1, 0x1008008b0000, 0x100800597000, 0, 0, 3 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (&dha, &l2, NULL);
  g_autoptr (GPtrArray) records = decode (p, NULL);
  OviOverflowRecord *r;
  g_autofree char *s1 = NULL, *s2 = NULL;

  g_assert_cmpuint (records->len, ==, 2);
  r = g_ptr_array_index (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_DHA_ATOMIC_ADD);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "DHA Atomic Add");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 11);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 7);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 61);
  g_assert_cmpuint (ovi_overflow_record_get_task_type (r), ==, 1);
  g_assert_cmpuint (ovi_overflow_record_get_pc_start (r), ==, 0x1008005c0000);
  g_assert_cmpuint (ovi_overflow_record_get_para_base (r), ==, 0x100800298000);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 1);
  s1 = ovi_overflow_record_dup_status_summary (r);
  g_assert_cmpstr (s1, ==, "0x1");

  r = g_ptr_array_index (records, 1);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_L2_ATOMIC_ADD);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "L2 Atomic Add");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 12);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 3);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 200);
  g_assert_cmpuint (ovi_overflow_record_get_pc_start (r), ==, 0x1008008b0000);
  g_assert_cmpuint (ovi_overflow_record_get_para_base (r), ==, 0x100800597000);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 3);
  s2 = ovi_overflow_record_dup_status_summary (r);
  g_assert_cmpstr (s2, ==, "0x3");
}

static void
test_classic_zero (void)
{
  OviClassicBlock info = { 11, 7, 61, 1, 0x1008005c0000, 0x100800298000, 0x55, 2, 0 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (&info, &info, &info);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) records = decode (p, &error);
  g_autoptr (GBytes) zero = g_bytes_new_take (g_malloc0 (2048), 2048);
  g_autoptr (GPtrArray) none = decode (zero, &error);

  g_assert_no_error (error);
  g_assert_nonnull (records);
  g_assert_cmpuint (records->len, ==, 0);
  g_assert_nonnull (none);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_new_aic_v0 (void)
{
  const guint64 f[] = { 11, 5, 120, 4, 2, 9, 0x1008006b0000, 0x100800397000, 3, 2, 0x20 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 0, f, 11);
  g_autoptr (GPtrArray) records = decode (p, NULL);
  OviOverflowRecord *r;
  g_autofree char *ex = NULL, *summary = NULL;
  guint n;

  g_assert_cmpuint (records->len, ==, 1);
  r = g_ptr_array_index (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_AIC);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "AIC");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 11);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 5);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 120);
  g_assert_cmpuint (ovi_overflow_record_get_task_type (r), ==, 4);
  g_assert_true (ovi_overflow_record_has_context (r));
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r), ==, 2);
  g_assert_cmpuint (ovi_overflow_record_get_thread_id (r), ==, 9);
  g_assert_cmpuint (ovi_overflow_record_get_pc_start (r), ==, 0x1008006b0000);
  g_assert_cmpuint (ovi_overflow_record_get_para_base (r), ==, 0x100800397000);
  g_assert_cmpuint (ovi_overflow_record_get_block_idx (r), ==, 2);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 0x20);
  ovi_overflow_record_get_status_words (r, &n);
  g_assert_cmpuint (n, ==, 1);
  ex = extra (r);
  g_assert_cmpstr (ex, ==, "core_id=3");
  summary = ovi_overflow_record_dup_status_summary (r);
  g_assert_cmpstr (summary, ==, "0x20 FP");
}

static void
test_new_aiv_v1 (void)
{
  const guint64 f[] = { 21, 6, 130, 4,     1,   1,      0x1008007b0000, 0x100800497000,
                        12, 7, 0,   0x400, 0x8, 0x10000 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (1, 1, f, 14);
  g_autoptr (GPtrArray) records = decode (p, NULL);
  OviOverflowRecord *r;
  const guint64 *words;
  guint n;
  g_autofree char *ex = NULL, *summary = NULL, *hex = NULL;

  g_assert_cmpuint (records->len, ==, 1);
  r = g_ptr_array_index (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_AIV);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "AIV");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 21);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 6);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 130);
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r), ==, 1);
  g_assert_cmpuint (ovi_overflow_record_get_thread_id (r), ==, 1);
  g_assert_cmpuint (ovi_overflow_record_get_pc_start (r), ==, 0x1008007b0000);
  g_assert_cmpuint (ovi_overflow_record_get_para_base (r), ==, 0x100800497000);
  g_assert_cmpuint (ovi_overflow_record_get_block_idx (r), ==, 7);
  words = ovi_overflow_record_get_status_words (r, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (words[0], ==, 0);
  g_assert_cmpuint (words[1], ==, 0x400);
  g_assert_cmpuint (words[2], ==, 0x8);
  g_assert_cmpuint (words[3], ==, 0x10000);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 0);
  g_assert_cmpuint (ovi_overflow_record_get_flags_mask (r), ==, 0x10408);
  ex = extra (r);
  g_assert_cmpstr (ex, ==, "core_id=12");
  hex = ovi_overflow_record_dup_status_hex (r);
  g_assert_cmpstr (hex, ==, "0x0");
  summary = ovi_overflow_record_dup_status_summary (r);
  g_assert_cmpstr (summary, ==, "0x0 0x10000+CUBE+NEG");
}

static void
test_new_aicpu (void)
{
  const guint64 f[] = { 11, 9, 140, 1, 65535, 2, 77, 1 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 2, f, 8);
  g_autoptr (GPtrArray) records = decode (p, NULL);
  OviOverflowRecord *r;
  g_autofree char *ex = NULL, *summary = NULL;

  g_assert_cmpuint (records->len, ==, 1);
  r = g_ptr_array_index (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_AICPU);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "AICPU");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 11);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 9);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 140);
  g_assert_cmpuint (ovi_overflow_record_get_task_type (r), ==, 1);
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r), ==, 65535);
  g_assert_cmpuint (ovi_overflow_record_get_thread_id (r), ==, 77);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 1);
  ex = extra (r);
  g_assert_cmpstr (ex, ==, "cpu_id=2");
  summary = ovi_overflow_record_dup_status_summary (r);
  g_assert_cmpstr (summary, ==, "0x1");
}

static void
test_new_sdma (void)
{
  const guint64 f[] = { 11, 3, 210, 5, 6, 8, 0x12c0000, 0x12d0000, 4, 2 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 3, f, 10);
  g_autoptr (GPtrArray) records = decode (p, NULL);
  OviOverflowRecord *r;
  g_autofree char *ex = NULL;

  g_assert_cmpuint (records->len, ==, 1);
  r = g_ptr_array_index (records, 0);
  g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_SDMA);
  g_assert_cmpstr (ovi_overflow_record_get_unit_name (r), ==, "SDMA");
  g_assert_cmpuint (ovi_overflow_record_get_model_id (r), ==, 11);
  g_assert_cmpuint (ovi_overflow_record_get_stream_id (r), ==, 3);
  g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 210);
  g_assert_cmpuint (ovi_overflow_record_get_task_type (r), ==, 5);
  g_assert_cmpuint (ovi_overflow_record_get_context_id (r), ==, 6);
  g_assert_cmpuint (ovi_overflow_record_get_thread_id (r), ==, 8);
  g_assert_cmpuint (ovi_overflow_record_get_status (r), ==, 2);
  ex = extra (r);
  g_assert_cmpstr (ex, ==, "src_addr=0x12c0000 dst_addr=0x12d0000 channel_id=4");
}

/* data_len that disagrees is kept as an extra field; fields still decoded. */
static void
test_new_bad_data_len (void)
{
  const guint64 f[] = { 11, 3, 210, 5, 0, 0, 0x10, 0x20, 4, 2 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 3, f, 10);
  guint8 *d = g_memdup2 (g_bytes_get_data (p, NULL), 2048);
  g_autoptr (GPtrArray) records = NULL;
  g_autofree char *ex = NULL;

  d[20] = 88; /* data_len 88 for SDMA, which has 80 */
  d[8] = 0;   /* valid 0 */
  records = ovi_overflow_record_decode (d, 2048, NULL);
  g_assert_cmpuint (records->len, ==, 1);
  g_assert_cmpuint (ovi_overflow_record_get_status (g_ptr_array_index (records, 0)), ==, 2);
  ex = extra (g_ptr_array_index (records, 0));
  g_assert_cmpstr (ex, ==, "src_addr=0x10 dst_addr=0x20 channel_id=4 valid=0 data_len=88");
  g_free (d);
}

static void
test_new_errors (void)
{
  const guint64 f[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 4, f, 11);
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *short_payload = g_malloc0 (2047);
  g_autofree guint8 *long_payload = g_malloc0 (2049);

  g_assert_null (decode (p, &error));
  g_assert_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_BAD_RECORD);
  g_assert_nonnull (strstr (error->message, "acc_type 4"));
  g_clear_error (&error);

  g_assert_null (ovi_overflow_fields_vendor_json (g_bytes_get_data (p, NULL), 2048, &error));
  g_assert_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_BAD_RECORD);
  g_clear_error (&error);

  g_assert_null (ovi_overflow_record_decode (short_payload, 2047, &error));
  g_assert_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_PAYLOAD_SIZE);
  g_assert_nonnull (strstr (error->message, "2047 bytes, not 2048"));
  g_clear_error (&error);

  g_assert_null (ovi_overflow_record_decode (long_payload, 2049, &error));
  g_assert_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_PAYLOAD_SIZE);
  g_clear_error (&error);

  g_assert_null (ovi_overflow_fields_vendor_json (short_payload, 2047, &error));
  g_assert_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_PAYLOAD_SIZE);
}

/* ---- vendor JSON, byte for byte ---- */

static void
test_json_classic (void)
{
  OviClassicBlock dha = { G_GUINT64_CONSTANT (18446744073709551615), 7, 61, 1, 0, 0xabc, 0, 0, 0 };
  OviClassicBlock l2 = { 12, 3, 200, 1, 0x1008008b0000, 0x100800597000, 0, 0, 3 };
  OviClassicBlock core = { 514, 563, 57, 0, 0x1008005b0000, 0x100800297000, 0, 1, 32 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (&dha, &l2, &core);
  g_autoptr (GError) error = NULL;
  g_autofree char *json =
      ovi_overflow_fields_vendor_json (g_bytes_get_data (p, NULL), 2048, &error);
  const char *expected = "{\n"
                         "    \"DHA Atomic Add\": {\n"
                         "        \"model_id\": 18446744073709551615,\n"
                         "        \"stream_id\": 7,\n"
                         "        \"task_id\": 61,\n"
                         "        \"task_type\": 1,\n"
                         "        \"pc_start\": \"0x0\",\n"
                         "        \"para_base\": \"0xabc\",\n"
                         "        \"status\": 0\n"
                         "    },\n"
                         "    \"L2 Atomic Add\": {\n"
                         "        \"model_id\": 12,\n"
                         "        \"stream_id\": 3,\n"
                         "        \"task_id\": 200,\n"
                         "        \"task_type\": 1,\n"
                         "        \"pc_start\": \"0x1008008b0000\",\n"
                         "        \"para_base\": \"0x100800597000\",\n"
                         "        \"status\": 3\n"
                         "    },\n"
                         "    \"AI Core\": {\n"
                         "        \"model_id\": 514,\n"
                         "        \"stream_id\": 563,\n"
                         "        \"task_id\": 57,\n"
                         "        \"task_type\": 0,\n"
                         "        \"pc_start\": \"0x1008005b0000\",\n"
                         "        \"para_base\": \"0x100800297000\",\n"
                         "        \"kernel_code\": \"0x0\",\n"
                         "        \"block_idx\": 1,\n"
                         "        \"status\": 32\n"
                         "    }\n"
                         "}";

  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, expected);
}

static void
test_json_new_aic_v1 (void)
{
  const guint64 f[] = { 11,
                        5,
                        120,
                        4,
                        2,
                        0,
                        0x1008006b0000,
                        0x100800397000,
                        3,
                        2,
                        0x20,
                        0,
                        0,
                        G_GUINT64_CONSTANT (9223372036854775808) };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (1, 0, f, 14);
  g_autoptr (GError) error = NULL;
  g_autofree char *json =
      ovi_overflow_fields_vendor_json (g_bytes_get_data (p, NULL), 2048, &error);
  const char *expected = "{\n"
                         "    \"magic\": \"0x5a5a5a5a\",\n"
                         "    \"version\": 1,\n"
                         "    \"acc_list\": {\n"
                         "        \"valid\": 1,\n"
                         "        \"acc_type\": \"AIC\",\n"
                         "        \"rsv\": 0,\n"
                         "        \"data_len\": 112,\n"
                         "        \"data\": {\n"
                         "            \"model_id\": 11,\n"
                         "            \"stream_id\": 5,\n"
                         "            \"task_id\": 120,\n"
                         "            \"task_type\": 4,\n"
                         "            \"context_id\": 2,\n"
                         "            \"thread_id\": 0,\n"
                         "            \"pc_start\": \"0x1008006b0000\",\n"
                         "            \"para_base\": \"0x100800397000\",\n"
                         "            \"core_id\": 3,\n"
                         "            \"block_id\": 2,\n"
                         "            \"status\": [\n"
                         "                32,\n"
                         "                0,\n"
                         "                0,\n"
                         "                9223372036854775808\n"
                         "            ]\n"
                         "        }\n"
                         "    }\n"
                         "}";

  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, expected);
}

static void
test_json_new_sdma (void)
{
  const guint64 f[] = { 11, 3, 210, 5, 0, 65535, 0x12c0000, 0, 4, 2 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 3, f, 10);
  g_autoptr (GError) error = NULL;
  g_autofree char *json =
      ovi_overflow_fields_vendor_json (g_bytes_get_data (p, NULL), 2048, &error);
  const char *expected = "{\n"
                         "    \"magic\": \"0x5a5a5a5a\",\n"
                         "    \"version\": 0,\n"
                         "    \"acc_list\": {\n"
                         "        \"valid\": 1,\n"
                         "        \"acc_type\": \"SDMA\",\n"
                         "        \"rsv\": 0,\n"
                         "        \"data_len\": 80,\n"
                         "        \"data\": {\n"
                         "            \"model_id\": 11,\n"
                         "            \"stream_id\": 3,\n"
                         "            \"task_id\": 210,\n"
                         "            \"task_type\": 5,\n"
                         "            \"context_id\": 0,\n"
                         "            \"thread_id\": 65535,\n"
                         "            \"src_addr\": \"0x12c0000\",\n"
                         "            \"dst_addr\": \"0x0\",\n"
                         "            \"channel_id\": 4,\n"
                         "            \"status\": 2\n"
                         "        }\n"
                         "    }\n"
                         "}";

  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, expected);
}

static void
test_json_new_aicpu (void)
{
  const guint64 f[] = { 11, 9, 140, 1, 0, 2, 0, 1 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 2, f, 8);
  g_autofree char *json = ovi_overflow_fields_vendor_json (g_bytes_get_data (p, NULL), 2048, NULL);
  const char *expected = "{\n"
                         "    \"magic\": \"0x5a5a5a5a\",\n"
                         "    \"version\": 0,\n"
                         "    \"acc_list\": {\n"
                         "        \"valid\": 1,\n"
                         "        \"acc_type\": \"AICPU\",\n"
                         "        \"rsv\": 0,\n"
                         "        \"data_len\": 64,\n"
                         "        \"data\": {\n"
                         "            \"model_id\": 11,\n"
                         "            \"stream_id\": 9,\n"
                         "            \"task_id\": 140,\n"
                         "            \"task_type\": 1,\n"
                         "            \"context_id\": 0,\n"
                         "            \"cpu_id\": 2,\n"
                         "            \"thread_id\": 0,\n"
                         "            \"status\": 1\n"
                         "        }\n"
                         "    }\n"
                         "}";

  g_assert_cmpstr (json, ==, expected);
}

/* ---- matching ---- */

static OviDumpFile *
write_op (Fixture *f, const char *name)
{
  g_autoptr (OviDumpWriter) w = ovi_dump_writer_new (name);
  const guint64 shape[] = { 2 };
  static const double v[] = { 1, 2 };
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  OviDumpFile *file;

  ovi_fixture_add (w, OVI_TENSOR_OUTPUT, OVI_DTYPE_FLOAT16, shape, 1, v);
  path = ovi_fixture_write (w, OVI_LAYOUT_NEW, f->dir, name);
  file = ovi_dump_file_load (path, NULL, &error);
  g_assert_no_error (error);
  return file;
}

static OviOverflowRecord *
record_for (GBytes *payload)
{
  g_autoptr (GPtrArray) records = decode (payload, NULL);
  g_assert_cmpuint (records->len, ==, 1);
  return g_object_ref (g_ptr_array_index (records, 0));
}

static OviOverflowRecord *
aic_record (guint64 task, guint64 stream, guint64 ctx, guint64 thread)
{
  const guint64 f[] = { 11, stream, task, 4, ctx, thread, 0, 0, 0, 0, 0x20 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 0, f, 11);
  return record_for (p);
}

static const char *
match_name (OviOverflowRecord *r, GPtrArray *files)
{
  OviDumpFile *m = ovi_overflow_match_op (r, files);
  return m ? ovi_dump_file_get_name (m) : NULL;
}

static void
test_match_earliest (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  OviClassicBlock core = { 11, 7, 57, 0, 0, 0, 0, 0, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autoptr (OviOverflowRecord) r = record_for (p);
  OviClassicBlock other = { 11, 7, 99, 0, 0, 0, 0, 0, 272 };
  g_autoptr (GBytes) p2 = ovi_overflow_payload_classic (NULL, NULL, &other);
  g_autoptr (OviOverflowRecord) r2 = record_for (p2);

  g_ptr_array_add (files, write_op (f, "Cast.cast.57.7.300"));
  g_ptr_array_add (files, write_op (f, "Cast.cast.57.7.200"));
  g_ptr_array_add (files, write_op (f, "Cast.cast.57.7.250"));
  g_ptr_array_add (files, write_op (f, "Mul.other_stream.57.8.10"));
  g_ptr_array_add (files, write_op (f, "Mul.other_task.58.7.10"));
  g_ptr_array_add (files, write_op (f, "Mul.other_task.7.57.5"));
  g_assert_cmpstr (match_name (r, files), ==, "Cast.cast.57.7.200");
  /* classic records carry no context: names with one still match */
  g_ptr_array_add (files, write_op (f, "Cast.ffts.57.7.150.4.3.2.0"));
  g_assert_cmpstr (match_name (r, files), ==, "Cast.ffts.57.7.150.4.3.2.0");
  /* an older name without stream id matches on the task id */
  g_ptr_array_add (files, write_op (f, "Cast.nostream.57.100"));
  g_assert_cmpstr (match_name (r, files), ==, "Cast.nostream.57.100");
  /* overflow files never match */
  g_ptr_array_add (files, write_op (f, "Opdebug.Node_OpDebug.57.7.1"));
  g_assert_cmpstr (match_name (r, files), ==, "Cast.nostream.57.100");
  /* no match */
  g_assert_null (match_name (r2, files));
}

static void
test_match_context (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) plain = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (OviOverflowRecord) ctx2 = aic_record (120, 5, 2, 0);
  g_autoptr (OviOverflowRecord) ctx_unset = aic_record (120, 5, 65535, 65535);
  g_autoptr (OviOverflowRecord) ctx_zero = aic_record (120, 5, 0, 0);
  g_autoptr (OviOverflowRecord) thread1 = aic_record (120, 5, 1, 1);
  g_autoptr (OviOverflowRecord) ctx9 = aic_record (120, 5, 9, 0);

  g_ptr_array_add (files, write_op (f, "Conv2D.c.120.5.100.4.1.0.0"));
  g_ptr_array_add (files, write_op (f, "Conv2D.c.120.5.110.4.2.0.0"));
  g_ptr_array_add (files, write_op (f, "Conv2D.c.120.5.120.4.1.1.0"));
  g_ptr_array_add (files, write_op (f, "Conv2D.c.120.6.50.4.2.0.0"));

  g_assert_cmpstr (match_name (ctx2, files), ==, "Conv2D.c.120.5.110.4.2.0.0");
  g_assert_cmpstr (match_name (ctx_unset, files), ==, "Conv2D.c.120.5.100.4.1.0.0");
  g_assert_cmpstr (match_name (ctx_zero, files), ==, "Conv2D.c.120.5.100.4.1.0.0");
  g_assert_cmpstr (match_name (thread1, files), ==, "Conv2D.c.120.5.120.4.1.1.0");
  g_assert_null (match_name (ctx9, files));

  /* Names without context ids are not narrowed. */
  g_ptr_array_add (plain, write_op (f, "Conv2D.p.120.5.300"));
  g_ptr_array_add (plain, write_op (f, "Conv2D.p.120.5.200"));
  g_assert_cmpstr (match_name (ctx9, plain), ==, "Conv2D.p.120.5.200");
  g_ptr_array_add (files, write_op (f, "Conv2D.p.120.5.90"));
  g_assert_cmpstr (match_name (ctx2, files), ==, "Conv2D.p.120.5.90");
}

/* A folder whose overflow record matches nothing: op is NULL and the
 * report says null. */
static void
test_match_folder_null (Fixture *f, gconstpointer data)
{
  OviClassicBlock core = { 11, 7, 57, 0, 0, 0, 0, 0, 272 };
  g_autoptr (GBytes) p = ovi_overflow_payload_classic (NULL, NULL, &core);
  g_autofree char *path = g_build_filename (f->dir, "Opdebug.Node_OpDebug.2.7.500", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) root = NULL;
  g_autoptr (OviDumpFolder) folder = NULL;
  g_autoptr (OviOverflowRecord) r = NULL;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;

  /* An operator with another task id: not the one that overflowed. */
  g_object_unref (write_op (f, "Add.add.58.7.400"));
  root = g_file_new_for_path (f->dir);
  folder = ovi_dump_folder_new (root);
  g_assert_true (ovi_write_overflow_file (path, p, OVI_LAYOUT_NEW, &error));
  g_assert_true (ovi_dump_folder_load (folder, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ovi_dump_folder_get_records (folder)), ==, 1);
  r = g_list_model_get_item (ovi_dump_folder_get_records (folder), 0);
  g_assert_null (ovi_overflow_record_get_op (r));
  g_assert_nonnull (ovi_overflow_record_get_file (r));
  g_assert_cmpstr (ovi_dump_file_get_name (ovi_overflow_record_get_file (r)), ==,
                   "Opdebug.Node_OpDebug.2.7.500");
  node = ovi_report_record_json (folder, r);
  o = json_node_get_object (node);
  g_assert_true (json_object_has_member (o, "op"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (o, "op")));
  g_assert_cmpint (json_object_get_int_member (o, "status"), ==, 272);
  g_assert_cmpint (json_object_get_int_member (o, "task_id"), ==, 57);
}

/* Decoding from a file attaches it; non-overflow files are refused. */
static void
test_decode_file (Fixture *f, gconstpointer data)
{
  const guint64 fields[] = { 11, 5, 130, 4, 1, 1, 0, 0, 12, 0, 0x400 };
  g_autoptr (GBytes) p = ovi_overflow_payload_new (0, 1, fields, 11);
  g_autoptr (GError) error = NULL;
  g_autoptr (OviDumpFile) op = write_op (f, "Add.add.58.7.400");
  g_autoptr (GPtrArray) records = NULL;

  for (guint l = 0; l < 2; l++)
    {
      OviLayout layout = l ? OVI_LAYOUT_OLD : OVI_LAYOUT_NEW;
      g_autofree char *name = g_strdup_printf ("OpDebug.Node_Opdebug.3.5.%u", 250 + l);
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_autoptr (OviDumpFile) file = NULL;
      OviOverflowRecord *r;

      g_assert_true (ovi_write_overflow_file (path, p, layout, &error));
      file = ovi_dump_file_load (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ovi_dump_file_get_kind (file), ==, OVI_FILE_KIND_OVERFLOW);
      g_clear_pointer (&records, g_ptr_array_unref);
      records = ovi_overflow_record_decode_file (file, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (records->len, ==, 1);
      r = g_ptr_array_index (records, 0);
      g_assert_true (ovi_overflow_record_get_file (r) == file);
      g_assert_cmpint (ovi_overflow_record_get_unit (r), ==, OVI_UNIT_AIV);
      g_assert_cmpuint (ovi_overflow_record_get_task_id (r), ==, 130);
    }
  g_clear_pointer (&records, g_ptr_array_unref);
  g_assert_null (ovi_overflow_record_decode_file (op, &error));
  g_assert_error (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_NOT_OVERFLOW_FILE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/overflow/classic/ai-core", test_classic_aicore);
  g_test_add_func ("/core/overflow/classic/atomic", test_classic_atomic);
  g_test_add_func ("/core/overflow/classic/all-zero", test_classic_zero);
  g_test_add_func ("/core/overflow/status-bits", test_status_bits);
  g_test_add_func ("/core/overflow/new/aic-v0", test_new_aic_v0);
  g_test_add_func ("/core/overflow/new/aiv-v1", test_new_aiv_v1);
  g_test_add_func ("/core/overflow/new/aicpu", test_new_aicpu);
  g_test_add_func ("/core/overflow/new/sdma", test_new_sdma);
  g_test_add_func ("/core/overflow/new/bad-data-len", test_new_bad_data_len);
  g_test_add_func ("/core/overflow/errors", test_new_errors);
  g_test_add_func ("/core/overflow/json/classic", test_json_classic);
  g_test_add_func ("/core/overflow/json/aic-v1", test_json_new_aic_v1);
  g_test_add_func ("/core/overflow/json/sdma", test_json_new_sdma);
  g_test_add_func ("/core/overflow/json/aicpu", test_json_new_aicpu);
  g_test_add ("/core/overflow/match/earliest", Fixture, NULL, ovi_tmp_dir_setup,
              test_match_earliest, ovi_tmp_dir_teardown);
  g_test_add ("/core/overflow/match/context", Fixture, NULL, ovi_tmp_dir_setup, test_match_context,
              ovi_tmp_dir_teardown);
  g_test_add ("/core/overflow/match/folder-null", Fixture, NULL, ovi_tmp_dir_setup,
              test_match_folder_null, ovi_tmp_dir_teardown);
  g_test_add ("/core/overflow/decode-file", Fixture, NULL, ovi_tmp_dir_setup, test_decode_file,
              ovi_tmp_dir_teardown);
  return g_test_run ();
}
