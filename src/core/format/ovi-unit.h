/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The unit that reported an overflow (dump-format.md section 4). */
typedef enum
{
  OVI_UNIT_DHA_ATOMIC_ADD,
  OVI_UNIT_L2_ATOMIC_ADD,
  OVI_UNIT_AI_CORE,
  OVI_UNIT_AIC,
  OVI_UNIT_AIV,
  OVI_UNIT_AICPU,
  OVI_UNIT_SDMA,
  OVI_UNIT_DATA, /* no unit reported it: found in the tensors (OVI_RECORD_SOURCE_DATA) */
} OviUnit;

#define OVI_UNIT_LAST OVI_UNIT_DATA

const char *ovi_unit_name (OviUnit unit);
const char *ovi_unit_label (const char *name);
gboolean ovi_unit_has_status_bits (OviUnit unit);
gboolean ovi_unit_has_pc (OviUnit unit);
gboolean ovi_unit_has_block (OviUnit unit);

G_END_DECLS
