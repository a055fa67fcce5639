/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ovi-op-type.h"

/* HCCL's op types: the ones named, and every other Hcom* type (HcomAlltoAll,
 * HcomReduce, HcomRemoteRead, ...). */
static const char *const collective_types[] = {
  "HcomAllReduce", "HcomAllGather", "HcomReduceScatter", "HcomBroadcast", "HcomSend", "HcomReceive",
};
#define COLLECTIVE_PREFIX "Hcom"

/**
 * ovi_op_type_is_collective:
 * @op_type: (nullable): an operator type, e.g. "HcomAllReduce"
 *
 * Returns: whether operators of this type move data between devices (HCCL
 *   collectives and point-to-point transfers)
 */
gboolean
ovi_op_type_is_collective (const char *op_type)
{
  if (op_type == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (collective_types); i++)
    if (g_str_equal (op_type, collective_types[i]))
      return TRUE;
  return g_str_has_prefix (op_type, COLLECTIVE_PREFIX) && op_type[strlen (COLLECTIVE_PREFIX)];
}
