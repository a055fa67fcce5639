/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-diff.h"
#include "ovi-dump-folder.h"
#include "ovi-npy.h"

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
  GPtrArray *files; /* OviDumpFile of the tensors, held by a kept copy; else NULL */
} OviDiffSource;

/* A copy an operator keeps of a source it was compared from, holding the
 * dump files so that the tensors can be read again once the runs' folders
 * are gone (the pair view). */
OviDiffSource *ovi_diff_source_keep (const OviDiffSource *source);
void ovi_diff_source_free (OviDiffSource *source);

/* The sources of tensor pair @tensor of @op (either NULL where that side
 * has no such tensor); FALSE when @op has no such pair. */
gboolean ovi_diff_operator_get_sources (OviDiffOperator *op,
                                        guint tensor,
                                        OviDiffSource **mine,
                                        OviDiffSource **golden);

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

/* The elements of one side, read as the comparison reads them
 * (ovi-diff-tensor.c): in logical order (device layouts mapped back to
 * their original shape, padding dropped; FFTS+ slices one after the
 * other), widened to float64 a chunk at a time. In memory when a layout
 * was mapped or slices joined, else read from the file as it goes, so
 * that a large tensor is never all in memory. */
#define OVI_DIFF_CHUNK 65536

typedef struct
{
  OviDtype dtype;
  GBytes *data; /* logical order, or NULL: read from fd */
  int fd;
  guint64 offset;
  guint item;
  OviNpy *npy; /* a .npy file, for its byte order */
  guint8 *buffer;
  guint64 count;
  guint64 *shape;
  guint n_dims;
  char *reason; /* why the values cannot be read, translated */
} OviDiffValues;

#define OVI_DIFF_VALUES_INIT                                                                       \
  {                                                                                                \
    .fd = -1                                                                                       \
  }

gboolean ovi_diff_values_open (OviDiffValues *v, OviDiffSource *source);
gboolean ovi_diff_values_widen (OviDiffValues *v, guint64 start, guint64 n, double *out);
void ovi_diff_values_clear (OviDiffValues *v);

void ovi_diff_compare_sources (OviDiffSource *mine,
                               OviDiffSource *golden,
                               const OviDiffSideOp *mine_op,
                               const OviDiffSideOp *golden_op,
                               double rtol,
                               double atol,
                               guint top_n,
                               OviDiffTensor *out);
void ovi_diff_tensor_clear (OviDiffTensor *tensor);

G_END_DECLS
