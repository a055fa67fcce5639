/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-status.h"

/* dump-format.md section 4, "Reading the status". */
static const OviStatusBit status_bits[] = {
  { 0x08, "NEG", N_ ("Sign flip of the most negative signed integer") },
  { 0x10, "INT", N_ ("Integer add, subtract, multiply or multiply-add overflow") },
  { 0x20, "FP", N_ ("Floating-point overflow") },
  { 0x80, "F2U", N_ ("Float-to-unsigned conversion of a negative input") },
  { 0x100, "FP16", N_ ("Overflow converting FP32 to FP16 or INT32 to FP16") },
  { 0x400, "CUBE", N_ ("CUBE accumulation overflow") },
};

/**
 * ovi_status_bits:
 * Returns: the six documented AI Core status bits, lowest first; their
 *   descriptions are untranslated (pass them through gettext)
 */
const OviStatusBit *
ovi_status_bits (guint *n_bits)
{
  *n_bits = G_N_ELEMENTS (status_bits);
  return status_bits;
}

/**
 * ovi_status_split:
 * Returns: (element-type guint64): every set bit of @status, lowest first,
 *   documented or not
 */
GArray *
ovi_status_split (guint64 status)
{
  GArray *bits = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < 64; i++)
    if (status & (G_GUINT64_CONSTANT (1) << i))
      {
        guint64 bit = G_GUINT64_CONSTANT (1) << i;
        g_array_append_val (bits, bit);
      }
  return bits;
}

/**
 * ovi_status_dup_summary:
 * Returns: the set bits as short names, "FP16+INT", unknown bits as hex
 */
char *
ovi_status_dup_summary (guint64 status)
{
  g_autoptr (GArray) bits = ovi_status_split (status);
  GString *s = g_string_new (NULL);

  for (int i = bits->len - 1; i >= 0; i--)
    {
      guint64 bit = g_array_index (bits, guint64, i);
      const char *name = NULL;

      for (guint j = 0; j < G_N_ELEMENTS (status_bits); j++)
        if (status_bits[j].bit == bit)
          name = status_bits[j].name;
      if (s->len)
        g_string_append_c (s, '+');
      if (name)
        g_string_append (s, name);
      else
        g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x", bit);
    }
  return g_string_free (s, FALSE);
}
