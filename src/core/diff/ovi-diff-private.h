/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-diff.h"
#include "ovi-dump-folder.h"

G_BEGIN_DECLS

/* What the diff's files share: the runs as read (ovi-diff-pairing.c), one
 * tensor pair compared (ovi-diff-tensor.c). */

/* One tensor of an operator on one side: a tensor of a dump file, the
 * same tensor of every FFTS+ thread slice, or a .npy file. */
typedef struct
{
  OviTensorKind kind;
  guint index;
  GPtrArray *tensors; /* OviTensor: one, or one per slice in thread order */
  char *npy_path;
} OviDiffSource;

/* One execution of an operator on one side. */
typedef struct
{
  char *name;                  /* the header's op name, or the file name's */
  char *key;                   /* its file-name form (ovi_file_name_form()) */
  char *op_type;               /* NULL when unknown (.npy) */
  char *path;                  /* the file, or the first .npy file */
  guint64 order;               /* timestamp: run order */
  char *problem;               /* why the operator cannot be compared at all, or NULL */
  gboolean no_inputs_kept;     /* a .npy golden of outputs only */
  GPtrArray *inputs, *outputs; /* OviDiffSource, by index */
  guint overflows;             /* overflow records naming this execution */
  gboolean taken;
} OviDiffSideOp;

/* The operators of one device / model / iteration folder. */
typedef struct
{
  char *device, *model, *iteration; /* "" when the path has no such level */
  char *path;                       /* the folder */
  GPtrArray *ops;                   /* OviDiffSideOp, run order */
} OviDiffGroup;

typedef struct
{
  char *root;
  gboolean npy;
  GPtrArray *groups;   /* OviDiffGroup */
  GPtrArray *problems; /* OviProblem */
  OviDumpFolder *folder;
} OviDiffSide;

OviDiffSide *ovi_diff_side_load (const char *path, GCancellable *cancellable, GError **error);
void ovi_diff_side_free (OviDiffSide *side);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviDiffSide, ovi_diff_side_free)

typedef struct
{
  OviDiffGroup *mine, *golden; /* one may be NULL: a folder without partner */
} OviDiffGroupPair;

GArray *ovi_diff_pair_groups (OviDiffSide *mine, OviDiffSide *golden);
char *ovi_diff_group_label (const OviDiffGroup *group);

typedef struct
{
  OviDiffSideOp *mine, *golden; /* one may be NULL: an operator in one run only */
} OviDiffOpPair;

GArray *ovi_diff_match_ops (OviDiffGroup *mine, OviDiffGroup *golden, GHashTable *mapping);

void ovi_diff_compare_sources (OviDiffSource *mine,
                               OviDiffSource *golden,
                               double rtol,
                               double atol,
                               guint top_n,
                               OviDiffTensor *out);
void ovi_diff_tensor_clear (OviDiffTensor *tensor);
char *ovi_diff_dup_position (const guint64 *shape, guint n_dims, guint64 index);

G_END_DECLS
