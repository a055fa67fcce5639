/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-unit.h"

static const char *const unit_names[] = {
  "DHA Atomic Add", "L2 Atomic Add", "AI Core", "AIC", "AIV", "AICPU", "SDMA", "Data",
};

const char *
ovi_unit_name (OviUnit unit)
{
  g_return_val_if_fail (unit <= OVI_UNIT_LAST, NULL);
  return unit_names[unit];
}

/**
 * ovi_unit_label:
 * @name: a unit's name as ovi_unit_name() gives it, or as a report file
 *   from another machine holds it
 *
 * Returns: the name the user reads: the hardware units keep the names the
 *   vendor's documents give them; "Data" (a record found in the tensors'
 *   data) is a word, in the user's language. Reports for programs (JSON)
 *   keep ovi_unit_name().
 */
const char *
ovi_unit_label (const char *name)
{
  if (g_strcmp0 (name, unit_names[OVI_UNIT_DATA]) == 0)
    /* Translators: the unit of an overflow record that no hardware unit
     * reported: it was found in the tensors' data */
    return C_ ("unit", "Data");
  return name;
}

/**
 * ovi_unit_has_status_bits:
 * Returns: whether the unit's status is the AI Core status register, whose
 *   bits ovi_status_bits() names; other units report a plain non-zero value
 */
gboolean
ovi_unit_has_status_bits (OviUnit unit)
{
  return unit == OVI_UNIT_AI_CORE || unit == OVI_UNIT_AIC || unit == OVI_UNIT_AIV;
}

/* The fields each unit's block has (dump-format.md section 4): DHA and L2
 * atomic add have no kernel code and no block index, AICPU and SDMA no
 * program counter either. */

/**
 * ovi_unit_has_pc:
 * Returns: whether the unit's records carry pc_start and para_base
 */
gboolean
ovi_unit_has_pc (OviUnit unit)
{
  return unit != OVI_UNIT_AICPU && unit != OVI_UNIT_SDMA;
}

/**
 * ovi_unit_has_block:
 * Returns: whether the unit's records carry a block index
 */
gboolean
ovi_unit_has_block (OviUnit unit)
{
  return ovi_unit_has_status_bits (unit);
}
