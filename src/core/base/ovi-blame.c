/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ovi-blame.h"

const char *
ovi_blame_name (OviBlame blame)
{
  static const char *const names[] = { "unknown", "normal", "origin", "propagated", "absorbed" };
  g_return_val_if_fail (blame <= OVI_BLAME_ABSORBED, NULL);
  return names[blame];
}

/**
 * ovi_blame_label:
 * Returns: the translated name of the class for a table cell, "" when the
 *   operator was not analysed
 */
const char *
ovi_blame_label (OviBlame blame)
{
  switch (blame)
    {
    case OVI_BLAME_ORIGIN:
      return _ ("Origin");
    case OVI_BLAME_PROPAGATED:
      return _ ("Propagated");
    case OVI_BLAME_ABSORBED:
      return _ ("Absorbed");
    case OVI_BLAME_NORMAL:
      return _ ("Normal");
    default:
      return "";
    }
}

/**
 * ovi_blame_rank:
 * Returns: the order in which a table sorted by class lists the classes:
 *   the operators to blame first, the unanalysed last
 */
guint
ovi_blame_rank (OviBlame blame)
{
  switch (blame)
    {
    case OVI_BLAME_ORIGIN:
      return 0;
    case OVI_BLAME_PROPAGATED:
      return 1;
    case OVI_BLAME_ABSORBED:
      return 2;
    case OVI_BLAME_NORMAL:
      return 3;
    default:
      return 4;
    }
}

/**
 * ovi_blame_describe:
 * Returns: a translated sentence for a person
 */
const char *
ovi_blame_describe (OviBlame blame)
{
  switch (blame)
    {
    case OVI_BLAME_NORMAL:
      return _ ("Inputs and outputs hold only finite, unsaturated values");
    case OVI_BLAME_ORIGIN:
      return _ ("Origin: its inputs are clean and its outputs are not, so this operator produced "
                "the overflow");
    case OVI_BLAME_PROPAGATED:
      return _ ("Propagated: its inputs were already abnormal");
    case OVI_BLAME_ABSORBED:
      return _ ("Absorbed: abnormal inputs, clean outputs");
    default:
      return _ ("Not analysed");
    }
}
