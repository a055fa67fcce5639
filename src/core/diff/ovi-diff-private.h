/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ovi-diff.h"
#include "ovi-dump-folder.h"
#include "ovi-graph.h"
#include "ovi-npy.h"

G_BEGIN_DECLS

/* What the diff's files share: the runs as read (ovi-diff-pairing.c), one
 * tensor pair compared (ovi-diff-tensor.c), the objects' fields
 * (ovi-diff-operator.c, ovi-diff-result.c), the map file (ovi-diff-map.c)
 * and the first-divergence rule (ovi-diff-divergence.c). */

typedef struct _OviDiffMap OviDiffMap; /* the map file (ovi-diff-map.c) */

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
  gboolean unreadable; /* its file could not be read (problem says why) */
  /* The dump files its tensors are read from (a joined op: its first's and
   * its last's), held past the folder until it is compared; then
   * ovi_diff_side_op_release() lets them go with the tensors (#39). */
  OviDumpFile *file, *last_file;
  int uses;          /* the comparisons still to come that read it */
  gboolean unfilled; /* @file's tensors are not yet in @inputs and @outputs */
} OviDiffSideOp;

void ovi_diff_side_op_fill (OviDiffSideOp *op);
void ovi_diff_side_op_release (OviDiffSideOp *op);

/* The operators of one device / model / iteration folder. */
typedef struct
{
  char *session;                    /* the {time} folder, "" when the path has none */
  char *device, *model, *iteration; /* "" when the path has no such level */
  gboolean show_session;            /* its side has several sessions: the label names it */
  char *path;                       /* the folder */
  GPtrArray *ops;                   /* OviDiffSideOp, run order */
  GPtrArray *joined;                /* OviDiffSideOp: sequences of ops joined by the map, or NULL */
} OviDiffGroup;

typedef struct
{
  char *root;
  char *base; /* the folder problems are relative to: root, or the folder of a root file */
  gboolean npy;
  GPtrArray *groups;     /* OviDiffGroup */
  GPtrArray *problems;   /* OviProblem */
  OviDumpFolder *folder; /* while the side is read, then NULL but for my run's: the ops hold
                          * their files */
} OviDiffSide;

OviDiffSide *ovi_diff_side_load (const char *path,
                                 gboolean keep_folder,
                                 GCancellable *cancellable,
                                 GError **error);
OviDiffSide *ovi_diff_side_new_for_folder (const char *path,
                                           GListModel *files,
                                           GListModel *records,
                                           GListModel *problems,
                                           OviDumpFolder *folder,
                                           GCancellable *cancellable,
                                           GError **error);
char *ovi_diff_side_path (OviDiffSide *side, const char *file);
void ovi_diff_side_free (OviDiffSide *side);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviDiffSide, ovi_diff_side_free)

typedef struct
{
  OviDiffGroup *mine, *golden; /* one may be NULL: a folder without partner */
} OviDiffGroupPair;

GArray *ovi_diff_pair_groups (OviDiffSide *mine, OviDiffSide *golden, GError **error);
char *ovi_diff_group_label (const OviDiffGroup *group);

typedef struct
{
  OviDiffSideOp *mine, *golden; /* one may be NULL: an operator in one run only */
} OviDiffOpPair;

GArray *ovi_diff_match_ops (OviDiffGroup *mine, OviDiffGroup *golden, OviDiffMap *map);

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
  gboolean borrowed;              /* @buffer is the thread's scratch, not freed */
  guint64 buffer_start, buffer_n; /* the elements @buffer holds, read once */
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

/* ---- The objects' fields, shared by the files of the diff ---- */

struct _OviDiffOperator
{
  GObject parent_instance;
  guint position;
  char *name, *golden_name, *op_type, *mine_path, *golden_path, *pair;
  OviDiffOpClass op_class;
  char *reason;
  GArray *tensors;    /* OviDiffTensor */
  GPtrArray *sources; /* OviDiffSource kept (or NULL): mine, golden of each tensor */
  guint worst;        /* index into tensors, G_MAXUINT when none */
  guint mine_overflows, golden_overflows;
  char *device;  /* NULL when the path names none */
  guint64 order; /* timestamp: run order, comparable across devices */
  gboolean inputs_compared;
  gboolean is_first;
  OviDiffDivergenceForm start; /* where a difference starts (ovi-diff-divergence.c), or NONE */
  guint start_input;           /* ENTERED: the input, else G_MAXUINT */
  char *through;               /* ENTERED: the external input named by the graph, or NULL */
  OviGraphNodeKind through_kind;
  GPtrArray *follows;    /* char *: the starts its differing inputs follow from, or NULL */
  gboolean follows_more; /* more than OVI_DIFF_FOLLOWS_MAX do */
};

struct _OviDiffResult
{
  GObject parent_instance;
  char *mine_path, *golden_path;
  GListStore *operators;
  GListStore *problems;
  GArray *pairs; /* OviDiffFolderPair */
  gboolean mine_npy, golden_npy;
  OviDiffOperator *first;
  guint first_tensor;
  OviDiffDivergenceForm form;
  guint first_input;
  gboolean same_path;   /* both sides are one folder or file */
  GPtrArray *warnings;  /* strings: map names that matched nothing */
  gboolean along_edges; /* the first divergence was found along a dataflow graph */
};

gboolean ovi_diff_tensor_agrees (const OviDiffTensor *t);
void ovi_diff_operator_classify (OviDiffOperator *op);

/* ---- The map file (ovi-diff-map.c) ---- */

/* One line of the map: one name against one, or against a sequence. */
typedef struct
{
  char **mine, **golden; /* one name each, or one side a sequence in run order */
  guint line;
  gboolean *mine_seen, *golden_seen; /* per name: it matched an operator */
} OviDiffMapEntry;

struct _OviDiffMap
{
  char *path;          /* for messages */
  GPtrArray *entries;  /* OviDiffMapEntry */
  GHashTable *by_mine; /* each of my names → its entry */
};

OviDiffMap *ovi_diff_map_new (const char *path);
void ovi_diff_map_free (OviDiffMap *map);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OviDiffMap, ovi_diff_map_free)
gboolean ovi_diff_map_add (
    OviDiffMap *map, const char *mine, const char *golden, guint line, GError **error);
gboolean ovi_diff_map_parse (OviDiffMap *map, const char *text, gsize length, GError **error);
gboolean ovi_diff_map_load (OviDiffMap *map, const char *path, GError **error);
void ovi_diff_map_reset (OviDiffMap *map);
OviDiffMapEntry *ovi_diff_map_lookup (OviDiffMap *map, const char *name);
gboolean ovi_diff_map_names (const char *entry_name, const char *name);
GPtrArray *ovi_diff_map_warnings (OviDiffMap *map);

/* ---- The first divergence (ovi-diff-divergence.c) ---- */

/* Appends to @producers the indices (in @ops, guint) of the operators that
 * produced input @input of operator @op (G_MAXUINT: any of its inputs),
 * and to @externals the graph's external inputs (OviGraphNode) it came
 * through; FALSE when that is not known, and run order decides. */
typedef gboolean (*OviDiffProducersFunc) (GPtrArray *ops,
                                          guint op,
                                          guint input,
                                          GArray *producers,
                                          GPtrArray *externals,
                                          gpointer user_data);

typedef struct
{
  OviDiffOperator *op; /* NULL: no first divergence */
  OviDiffDivergenceForm form;
  guint tensor; /* index into the operator's tensors: the differing output, or the input the
                   difference entered through */
  guint input;  /* the index of that input (OVI_DIFF_DIVERGENCE_ENTERED), else G_MAXUINT */
} OviDiffDivergence;

void ovi_diff_find_first_divergence (GPtrArray *ops,
                                     OviDiffProducersFunc producers,
                                     gpointer user_data,
                                     OviDiffDivergence *out);

G_END_DECLS
