/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Small types that several layers share, so that no two modules include
 * each other to borrow one of them. */

/* What a tensor of a dump file is to its operator. */
typedef enum
{
  OVI_TENSOR_INPUT,
  OVI_TENSOR_OUTPUT,
  OVI_TENSOR_BUFFER,
  OVI_TENSOR_SPACE,
} OviTensorKind;

/* The model's objects (model/), for the layers that only pass them on. */
typedef struct _OviDumpFile OviDumpFile;
typedef struct _OviTensor OviTensor;
typedef struct _OviOverflowRecord OviOverflowRecord;
typedef struct _OviProblem OviProblem;

G_END_DECLS
