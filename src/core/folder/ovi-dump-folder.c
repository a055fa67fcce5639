#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ovi-classifier.h"
#include "ovi-dump-file-private.h"
#include "ovi-dump-folder-private.h"
#include "ovi-error.h"
#include "ovi-mapping-csv.h"
#include "ovi-path.h"
#include "ovi-statistic-csv.h"
#include "ovi-worker.h"

/* A dump folder opened at any level, or a single dump file: every dump file
 * below it, the overflow records in first-overflow order, and the files that
 * could not be read. */
struct _OviDumpFolder
{
  GObject parent_instance;

  GFile *root; /* the first root */
  char *root_path;
  char *root_real;
  /* Opened with several roots (one folder per machine): each root's files
   * are below its name, "node-a/20261202…/0/…"; NULL with one root. */
  GPtrArray *roots; /* GFile */
  GStrv root_names; /* unique among the roots */
  GStrv root_paths;
  GListStore *files;
  GListStore *records;
  GListStore *problems;
  GHashTable *dir_files; /* relative dir -> GPtrArray of the files shown from it */
  OviIgnoreList *ignore;

  /* Written by the scanning thread, read anywhere. */
  gsize files_seen;
  gsize dump_files;
  gsize overflow_records;
  gsize n_problems;
  gsize n_operators;  /* to summarize */
  guint64 summarized; /* summaries applied; main context */
  gboolean loading;
  gboolean analyze;      /* summarize every operator after listing */
  gboolean data_records; /* look for records in the data of iterations without overflow file */
  gboolean analyzing;    /* summaries still to come */
  gboolean cancelled;    /* the last load was cancelled: what is shown is partial */
  guint notify_source;

  /* An asynchronous load: the scanning thread queues its batches, and one
   * source on the main context applies them (see pump_deliveries()). */
  GMainContext *context;     /* where the batches are applied */
  GTask *load_task;          /* returned once the listing's last batch is applied */
  GCancellable *cancellable; /* the load's */
  GMutex deliveries_lock;
  GQueue deliveries;    /* Batch; guarded by deliveries_lock */
  GSource *pump;        /* attached from load_async until the last batch; guarded */
  gboolean pump_asleep; /* nothing queued, the pump waits; guarded */
  gint64 pump_turn_end; /* when the previous turn ended */
  gulong cancel_handler;
  guint files_sliced;  /* files handed to deliver(); the scanning thread's */
  guint files_applied; /* files in the stores; the main context's */
};

G_DEFINE_FINAL_TYPE (OviDumpFolder, ovi_dump_folder, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_ROOT,
  PROP_ROOT_PATH,
  PROP_FILES_SEEN,
  PROP_DUMP_FILES,
  PROP_OVERFLOW_RECORDS,
  PROP_PROBLEM_COUNT,
  PROP_OPERATORS,
  PROP_SUMMARIZED,
  PROP_LOADING,
  PROP_ANALYZE,
  PROP_DATA_RECORDS,
  PROP_ANALYZING,
  PROP_CANCELLED,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum
{
  SUMMARIES_APPLIED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* What one folder contributed, handed over in one piece. The last batch of
 * an asynchronous load carries the scan's outcome instead. */
typedef enum
{
  BATCH_FILES,     /* files, records and problems of one folder */
  BATCH_LISTED,    /* the listing is over: its outcome */
  BATCH_SUMMARIES, /* files whose summaries are made */
  BATCH_ANALYZED,  /* every summary is made */
} BatchKind;

typedef struct
{
  BatchKind kind;
  GPtrArray *files;
  GPtrArray *records;
  GPtrArray *problems;
  GError *error;    /* BATCH_LISTED, when the scan failed */
  gboolean indexed; /* its files are in dir_files already (a followed folder's) */
} Batch;

typedef void (*BatchFunc) (OviDumpFolder *self, Batch *batch);

/* One pass over one folder of a followed tree: see
 * ovi_dump_folder_scan_level(). */
struct _OviLevel
{
  char *relative_dir;
  GHashTable *known;   /* entry -> OviDumpFile as loaded; borrowed */
  GHashTable *records; /* OviDumpFile -> GPtrArray of its records; borrowed */
  GHashTable *closed;  /* entries written and closed since */
  GHashTable *changed; /* entries the system reported changed since, or NULL: stat every entry */
  gint64 quiet_us;
  gint64 now_us;       /* wall clock, as file times are */
  Batch *batch;        /* every file, record and problem the folder holds now */
  GPtrArray *links;    /* (record, op) pairs: records already shown, linked anew */
  GPtrArray *subdirs;  /* relative paths of the folders in it */
  GPtrArray *fresh;    /* files read in this pass (not kept from before) */
  guint pending;       /* entries still being written, left for later */
  GHashTable *waiting; /* those entries: what is shown of them stays until they are read */
  gint64 newest_us;    /* when the newest entry was written */
  gboolean settling;   /* written to too recently to look for records in the data */
  guint files_seen;
  gboolean gone; /* the folder is not there any more */
};

typedef struct
{
  OviDumpFolder *self;
  GCancellable *cancellable;
  GHashTable *visited; /* "dev:ino" of folders entered */
  BatchFunc emit;
  GPtrArray *ops;    /* the op dump files listed, to summarize */
  OviLevel *level;   /* a pass over one followed folder, or NULL */
  guint root;        /* the root being listed, in a folder of several */
  guint root_prefix; /* strlen of "its name/" then, or 0 */
} Scan;

static void emit (Scan *scan, Batch *batch);

static void
batch_free (Batch *batch)
{
  g_ptr_array_unref (batch->files);
  g_ptr_array_unref (batch->records);
  g_ptr_array_unref (batch->problems);
  g_clear_error (&batch->error);
  g_free (batch);
}

static Batch *
batch_new (void)
{
  Batch *batch = g_new0 (Batch, 1);
  batch->files = g_ptr_array_new_with_free_func (g_object_unref);
  batch->records = g_ptr_array_new_with_free_func (g_object_unref);
  batch->problems = g_ptr_array_new_with_free_func (g_object_unref);
  return batch;
}

static void
ovi_dump_folder_finalize (GObject *object)
{
  OviDumpFolder *self = OVI_DUMP_FOLDER (object);

  g_clear_handle_id (&self->notify_source, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_queue_clear_full (&self->deliveries, (GDestroyNotify) batch_free);
  g_mutex_clear (&self->deliveries_lock);
  g_clear_object (&self->root);
  g_free (self->root_path);
  g_free (self->root_real);
  g_clear_pointer (&self->roots, g_ptr_array_unref);
  g_strfreev (self->root_names);
  g_strfreev (self->root_paths);
  g_clear_object (&self->files);
  g_clear_pointer (&self->dir_files, g_hash_table_unref);
  g_clear_object (&self->records);
  g_clear_object (&self->problems);
  g_clear_pointer (&self->ignore, ovi_ignore_list_unref);
  G_OBJECT_CLASS (ovi_dump_folder_parent_class)->finalize (object);
}

static void
ovi_dump_folder_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviDumpFolder *self = OVI_DUMP_FOLDER (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      g_value_set_object (value, self->root);
      break;
    case PROP_ROOT_PATH:
      g_value_set_string (value, self->root_path);
      break;
    case PROP_FILES_SEEN:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->files_seen));
      break;
    case PROP_DUMP_FILES:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->dump_files));
      break;
    case PROP_OVERFLOW_RECORDS:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->overflow_records));
      break;
    case PROP_PROBLEM_COUNT:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->n_problems));
      break;
    case PROP_OPERATORS:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->n_operators));
      break;
    case PROP_SUMMARIZED:
      g_value_set_uint64 (value, self->summarized);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_ANALYZE:
      g_value_set_boolean (value, self->analyze);
      break;
    case PROP_DATA_RECORDS:
      g_value_set_boolean (value, self->data_records);
      break;
    case PROP_ANALYZING:
      g_value_set_boolean (value, self->analyzing);
      break;
    case PROP_CANCELLED:
      g_value_set_boolean (value, self->cancelled);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_dump_folder_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  OviDumpFolder *self = OVI_DUMP_FOLDER (object);

  switch (prop_id)
    {
    case PROP_ANALYZE:
      ovi_dump_folder_set_analyze (self, g_value_get_boolean (value));
      break;
    case PROP_DATA_RECORDS:
      ovi_dump_folder_set_data_records (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_dump_folder_class_init (OviDumpFolderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = ovi_dump_folder_finalize;
  object_class->get_property = ovi_dump_folder_get_property;
  object_class->set_property = ovi_dump_folder_set_property;

  properties[PROP_ROOT] = g_param_spec_object ("root", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_ROOT_PATH] = g_param_spec_string ("root-path", NULL, NULL, NULL, flags);
  properties[PROP_FILES_SEEN] =
      g_param_spec_uint64 ("files-seen", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_DUMP_FILES] =
      g_param_spec_uint64 ("dump-files", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OVERFLOW_RECORDS] =
      g_param_spec_uint64 ("overflow-records", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_PROBLEM_COUNT] =
      g_param_spec_uint64 ("problem-count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  /* With #OviDumpFolder:analyze: how many operators there are to summarize
   * (known once the listing is over) and how many are done, for a
   * determinate progress bar. */
  properties[PROP_OPERATORS] =
      g_param_spec_uint64 ("operators", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SUMMARIZED] =
      g_param_spec_uint64 ("summarized", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, flags);
  properties[PROP_ANALYZE] =
      g_param_spec_boolean ("analyze", NULL, NULL, FALSE, flags | G_PARAM_WRITABLE);
  properties[PROP_DATA_RECORDS] =
      g_param_spec_boolean ("data-records", NULL, NULL, TRUE, flags | G_PARAM_WRITABLE);
  properties[PROP_ANALYZING] = g_param_spec_boolean ("analyzing", NULL, NULL, FALSE, flags);
  properties[PROP_CANCELLED] = g_param_spec_boolean ("cancelled", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * OviDumpFolder::summaries-applied:
   *
   * Emitted on the main context after a group of operator summaries was
   * handed over and their files notified: tables sorted or filtered by a
   * summary redo it here.
   */
  signals[SUMMARIES_APPLIED] =
      g_signal_new ("summaries-applied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 0);
}

static void
ovi_dump_folder_init (OviDumpFolder *self)
{
  g_mutex_init (&self->deliveries_lock);
  g_queue_init (&self->deliveries);
  self->files = g_list_store_new (OVI_TYPE_DUMP_FILE);
  self->dir_files =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->records = g_list_store_new (OVI_TYPE_OVERFLOW_RECORD);
  self->problems = g_list_store_new (OVI_TYPE_PROBLEM);
  self->data_records = TRUE;
}

/**
 * ovi_dump_folder_new:
 * @root: a folder at any level of a dump tree, or one dump file
 */
OviDumpFolder *
ovi_dump_folder_new (GFile *root)
{
  OviDumpFolder *self;

  g_return_val_if_fail (G_IS_FILE (root), NULL);

  self = g_object_new (OVI_TYPE_DUMP_FOLDER, NULL);
  self->root = g_object_ref (root);
  self->root_path = g_file_get_path (root);
  if (self->root_path == NULL)
    self->root_path = g_file_get_uri (root);
  self->root_real = realpath (self->root_path, NULL);
  return self;
}

/**
 * ovi_dump_folder_new_for_roots:
 * @roots: (array length=n_roots): folders to open together, one per machine
 *   for example
 *
 * Files, records and problems of every root in one folder: a file's
 * relative path starts with its root's name (ovi_dump_folder_get_root_name()),
 * ovi_dump_file_get_root() says which root holds it, and records are in
 * first-overflow order across the roots. One root is ovi_dump_folder_new().
 */
OviDumpFolder *
ovi_dump_folder_new_for_roots (GFile *const *roots, guint n_roots)
{
  OviDumpFolder *self;
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) paths = g_strv_builder_new ();
  g_autoptr (GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (n_roots > 0, NULL);

  self = ovi_dump_folder_new (roots[0]);
  if (n_roots == 1)
    return self;
  self->roots = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_roots; i++)
    {
      g_autofree char *path = g_file_get_path (roots[i]);
      g_autofree char *base = g_file_get_basename (roots[i]);
      char *name = g_strdup (base && *base && !g_str_equal (base, "/") ? base : "root");

      /* Copies of each machine's folder are often named alike: "dump",
       * "dump (2)". */
      for (guint n = 2; g_hash_table_contains (taken, name); n++)
        {
          g_free (name);
          name = g_strdup_printf ("%s (%u)", base, n);
        }
      g_hash_table_add (taken, name);
      g_strv_builder_add (names, name);
      g_strv_builder_add (paths, path ? path : g_file_peek_path (roots[i]));
      g_ptr_array_add (self->roots, g_object_ref (roots[i]));
    }
  self->root_names = g_strv_builder_end (names);
  self->root_paths = g_strv_builder_end (paths);
  return self;
}

guint
ovi_dump_folder_get_n_roots (OviDumpFolder *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), 0);
  return self->roots ? self->roots->len : 1;
}

GFile *
ovi_dump_folder_get_nth_root (OviDumpFolder *self, guint index)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), NULL);
  g_return_val_if_fail (index < ovi_dump_folder_get_n_roots (self), NULL);
  return self->roots ? g_ptr_array_index (self->roots, index) : self->root;
}

const char *
ovi_dump_folder_get_nth_root_path (OviDumpFolder *self, guint index)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), NULL);
  g_return_val_if_fail (index < ovi_dump_folder_get_n_roots (self), NULL);
  return self->roots ? self->root_paths[index] : self->root_path;
}

/* The name a root's files are listed under; %NULL with one root. */
const char *
ovi_dump_folder_get_root_name (OviDumpFolder *self, guint index)
{
  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), NULL);
  g_return_val_if_fail (index < ovi_dump_folder_get_n_roots (self), NULL);
  return self->roots ? self->root_names[index] : NULL;
}

GFile *
ovi_dump_folder_get_root (OviDumpFolder *self)
{
  return self->root;
}

const char *
ovi_dump_folder_get_root_path (OviDumpFolder *self)
{
  return self->root_path;
}

static GHashTable *
read_mapping (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "mapping.csv", NULL);
  g_autoptr (GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);

  if (mapped == NULL)
    return NULL;
  return ovi_mapping_csv_parse (g_mapped_file_get_contents (mapped),
                                g_mapped_file_get_length (mapped));
}

static void
add_problem (Scan *scan, Batch *batch, const char *relative_path, const GError *error)
{
  g_autofree char *display = g_filename_display_name (relative_path);
  g_ptr_array_add (batch->problems, ovi_problem_new (display, error));
  g_atomic_pointer_add (&scan->self->n_problems, 1);
}

static char *
join_relative (const char *dir, const char *name)
{
  return *dir ? g_build_filename (dir, name, NULL) : g_strdup (name);
}

/* One entry of a folder whose name is a dump name, and what loading it gave. */
typedef struct
{
  char *entry;
  const char *original; /* from mapping.csv, owned by the mapping */
  OviDumpFile *file;
  GError *error;
  char *shown;   /* the file on disk when it is not @entry (statistic.csv) */
  gboolean kept; /* @file is the one loaded before (a followed folder) */
} Candidate;

static void
candidate_clear (Candidate *c)
{
  g_free (c->entry);
  g_free (c->shown);
  g_clear_object (&c->file);
  g_clear_error (&c->error);
}

typedef struct
{
  Scan *scan;
  int dirfd;
  const char *path;
  GArray *candidates;
} LoadJob;

static void
load_candidate (guint i, gpointer data)
{
  LoadJob *job = data;
  Candidate *c = &g_array_index (job->candidates, Candidate, i);
  g_autofree char *full = g_build_filename (job->path, c->entry, NULL);

  if (c->file || c->error) /* read already, as statistics */
    return;
  c->file = ovi_dump_file_load_at (job->dirfd, c->entry, full, c->original, &c->error);
  if (c->file)
    g_atomic_pointer_add (&job->scan->self->dump_files, 1);
}

/* Reads the headers of a folder's dump files, on the worker pool when there
 * are enough of them to be worth it. */
static void
load_all (Scan *scan, int dirfd, const char *path, GArray *candidates)
{
  LoadJob job = { scan, dirfd, path, candidates };

  if (candidates->len >= 64)
    ovi_parallel_for (candidates->len, load_candidate, &job, scan->cancellable);
  else
    for (guint i = 0; i < candidates->len && !g_cancellable_is_cancelled (scan->cancellable); i++)
      load_candidate (i, &job);
}

/* Loads the candidates into @batch in name order; the hierarchy is the same
 * for every file of a folder, so it is worked out once. */
static void
collect (Scan *scan, Batch *batch, GArray *candidates, const char *relative_dir)
{
  OviDumpFile *first = NULL;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      g_autofree char *relative = join_relative (relative_dir, c->shown ? c->shown : c->entry);

      if (c->file == NULL)
        {
          if (c->error)
            add_problem (scan, batch, relative, c->error);
          continue;
        }
      if (c->kept)
        ; /* shown already: placed once and for all */
      else if (first == NULL)
        ovi_dump_file_set_location (c->file, relative);
      else
        ovi_dump_file_set_location_like (c->file, relative, first);
      if (!c->kept)
        ovi_dump_file_set_root (c->file, scan->root, scan->root_prefix);
      if (first == NULL)
        first = c->file;
      g_ptr_array_add (batch->files, g_steal_pointer (&c->file));
    }
}

/* Whether @name (or what mapping.csv says it stands for) is a dump name;
 * anything else in a folder is ignored. */
static gboolean
is_candidate (const char *name, GHashTable *mapping, const char **original)
{
  OviFileName parsed;

  *original = mapping ? g_hash_table_lookup (mapping, name) : NULL;
  if (!ovi_file_name_parse (*original ? *original : name, &parsed))
    return FALSE;
  ovi_file_name_clear (&parsed);
  return TRUE;
}

/* What makes two descriptions the same operator execution: one tensor
 * must not appear twice when a folder holds both its data and its
 * statistics. */
static char *
identity_key (const char *op_type, guint64 task, guint64 stream, guint64 timestamp)
{
  return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT,
                          op_type, task, stream, timestamp);
}

static char *
name_identity_key (const OviFileName *n)
{
  if (n->has_context)
    {
      g_autofree char *base = identity_key (n->op_type, n->task_id, n->stream_id, n->timestamp);
      return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT, base, n->context_id,
                              n->thread_id);
    }
  return identity_key (n->op_type, n->task_id, n->stream_id, n->timestamp);
}

/* The runtime's file-name rule (dump-format.md section 2). */
static char *
name_part (const char *s)
{
  char *out = g_strdup (s);
  for (char *p = out; *p; p++)
    if (*p == '.' || *p == '/' || *p == '\\' || *p == ' ')
      *p = '_';
  return out;
}

static OviStatisticCsv *
read_statistics (Scan *scan, Batch *batch, const char *path, const char *relative)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  OviStatisticCsv *csv;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      add_problem (scan, batch, relative, error);
      return NULL;
    }
  csv = ovi_statistic_csv_parse (contents, length);
  for (guint i = 0; i < csv->errors->len; i++)
    {
      g_autofree char *display = g_filename_display_name (relative);
      g_ptr_array_add (batch->problems,
                       ovi_problem_new_at_line (display, g_array_index (csv->lines, guint, i),
                                                g_ptr_array_index (csv->errors, i)));
      g_atomic_pointer_add (&scan->self->n_problems, 1);
    }
  return csv;
}

static gsize
file_size_of (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 ? (gsize) st.st_size : 0;
}

/* Statistics-mode dumps: every "{op dump name}.csv" and the rows of
 * statistic.csv become op dump files whose tensors carry statistics, added
 * to @candidates, unless the folder holds the operator's data already. */
static void
add_statistics (Scan *scan,
                Batch *batch,
                const char *path,
                const char *relative_dir,
                GArray *candidates,
                GPtrArray *csv_entries,
                const char *folder_csv)
{
  g_autoptr (GHashTable) known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      if (c->file && ovi_dump_file_get_kind (c->file) == OVI_FILE_KIND_OP_DUMP)
        g_hash_table_add (known, name_identity_key (ovi_dump_file_get_file_name (c->file)));
    }

  for (guint i = 0; i < csv_entries->len; i++)
    {
      const char *entry = g_ptr_array_index (csv_entries, i);
      g_autofree char *full = g_build_filename (path, entry, NULL);
      g_autofree char *relative = join_relative (relative_dir, entry);
      g_autofree char *name = NULL;
      g_autoptr (OviStatisticCsv) csv = NULL;
      g_autoptr (OviDumpFile) file = NULL;
      OviFileName parsed;
      char *key;

      if (!ovi_statistic_is_csv_name (entry, &name) || !ovi_file_name_parse (name, &parsed))
        continue;
      key = name_identity_key (&parsed);
      ovi_file_name_clear (&parsed);
      if (g_hash_table_contains (known, key))
        {
          g_free (key);
          continue;
        }
      g_hash_table_add (known, key);
      if (!(csv = read_statistics (scan, batch, full, relative)) || csv->rows->len == 0)
        continue;
      file = ovi_dump_file_new_statistics (full, name, NULL, file_size_of (full),
                                           g_steal_pointer (&csv->rows));
      csv->rows = g_ptr_array_new ();
      {
        Candidate c = { g_strdup (entry), NULL, g_steal_pointer (&file), NULL, NULL };
        g_array_append_val (candidates, c);
        g_atomic_pointer_add (&scan->self->dump_files, 1);
      }
    }

  if (folder_csv)
    {
      g_autofree char *full = g_build_filename (path, folder_csv, NULL);
      g_autofree char *relative = join_relative (relative_dir, folder_csv);
      g_autoptr (OviStatisticCsv) csv = read_statistics (scan, batch, full, relative);
      g_autoptr (GHashTable) groups = NULL;
      g_autoptr (GPtrArray) order = NULL;
      gboolean reported = FALSE;
      gsize size = file_size_of (full);

      if (csv == NULL)
        return;
      /* Operators in the order the file first names them. */
      groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) g_ptr_array_unref);
      order = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_set_free_func (csv->rows, NULL);
      for (guint i = 0; i < csv->rows->len; i++)
        {
          OviStatisticRow *row = g_ptr_array_index (csv->rows, i);
          g_autofree char *type = NULL;
          g_autofree char *op = NULL;
          char *name;
          GPtrArray *group;

          if (!row->has_op)
            {
              if (!reported)
                {
                  g_autofree char *display = g_filename_display_name (relative);
                  g_autoptr (GError) error =
                      g_error_new (OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_MISSING_COLUMN,
                                   _ ("line %u: statistic.csv names no operator (Op Type and "
                                      "Op Name columns)"),
                                   row->line);
                  g_ptr_array_add (batch->problems,
                                   ovi_problem_new_at_line (display, row->line, error));
                  g_atomic_pointer_add (&scan->self->n_problems, 1);
                  reported = TRUE;
                }
              ovi_statistic_row_free (row);
              continue;
            }
          type = name_part (row->op_type);
          op = name_part (row->op_name);
          name = g_strdup_printf ("%s.%s.%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT
                                  ".%" G_GUINT64_FORMAT,
                                  type, op, row->task_id, row->stream_id, row->timestamp);
          if (!(group = g_hash_table_lookup (groups, name)))
            {
              group = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_statistic_row_free);
              g_hash_table_insert (groups, g_strdup (name), group);
              g_ptr_array_add (order, g_strdup (name));
            }
          g_ptr_array_add (group, row);
          g_free (name);
        }
      for (guint i = 0; i < order->len; i++)
        {
          const char *name = g_ptr_array_index (order, i);
          GPtrArray *group = NULL;
          g_autofree char *stolen_name = NULL;
          g_autofree char *key = NULL;
          OviStatisticRow *first;
          OviDumpFile *file;

          g_hash_table_steal_extended (groups, name, (gpointer *) &stolen_name,
                                       (gpointer *) &group);
          first = g_ptr_array_index (group, 0);
          {
            g_autofree char *type = name_part (first->op_type);
            key = identity_key (type, first->task_id, first->stream_id, first->timestamp);
          }
          if (g_hash_table_contains (known, key))
            {
              g_ptr_array_unref (group);
              continue;
            }
          g_hash_table_add (known, g_steal_pointer (&key));
          file = ovi_dump_file_new_statistics (full, name, first->op_name, size, group);
          {
            Candidate c = { g_strdup (name), NULL, file, NULL, g_strdup (folder_csv) };
            g_array_append_val (candidates, c);
            g_atomic_pointer_add (&scan->self->dump_files, 1);
          }
        }
    }
}

/* FFTS+ thread slices of one execution (same op type, op name, task,
 * stream and context id) become one operator, in the place of its first
 * slice, so the operator list and blame see the execution whole. */
static void
group_slices (Batch *batch)
{
  g_autoptr (GHashTable) groups =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) files = NULL;
  gboolean any = FALSE;

  for (guint i = 0; i < batch->files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (batch->files, i);
      const OviFileName *n = ovi_dump_file_get_file_name (f);
      g_autofree char *key = NULL;
      GPtrArray *group;

      if (n->kind != OVI_FILE_KIND_OP_DUMP || !n->has_context)
        continue;
      key = g_strdup_printf ("%s|%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT,
                             n->op_type, n->op_name, n->task_id, n->stream_id, n->context_id);
      if (!(group = g_hash_table_lookup (groups, key)))
        {
          group = g_ptr_array_new ();
          g_hash_table_insert (groups, g_steal_pointer (&key), group);
        }
      g_ptr_array_add (group, f);
      any |= group->len > 1;
    }
  if (!any)
    return;

  files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < batch->files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (batch->files, i);
      const OviFileName *n = ovi_dump_file_get_file_name (f);
      g_autofree char *key = NULL;
      GPtrArray *group = NULL;

      if (n->kind == OVI_FILE_KIND_OP_DUMP && n->has_context)
        {
          key = g_strdup_printf ("%s|%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT
                                 "|%" G_GUINT64_FORMAT,
                                 n->op_type, n->op_name, n->task_id, n->stream_id, n->context_id);
          group = g_hash_table_lookup (groups, key);
        }
      if (group == NULL || group->len < 2)
        g_ptr_array_add (files, g_object_ref (f));
      else if (g_ptr_array_index (group, 0) == f)
        g_ptr_array_add (files, ovi_dump_file_new_group (group));
    }
  g_ptr_array_unref (batch->files);
  batch->files = g_steal_pointer (&files);
}

static gboolean
all_linked (GPtrArray *records)
{
  for (guint i = 0; i < records->len; i++)
    if (ovi_overflow_record_get_op (g_ptr_array_index (records, i)) == NULL)
      return FALSE;
  return TRUE;
}

/* Decodes the overflow files of one folder and links each record to the op
 * dump file of the operator that overflowed. */
static void
decode_overflows (Scan *scan, Batch *batch)
{
  for (guint i = 0; i < batch->files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (batch->files, i);
      g_autoptr (GPtrArray) records = NULL;
      g_autoptr (GError) error = NULL;

      if (ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OVERFLOW)
        continue;
      /* A followed folder's records shown already stay the same objects;
       * only their link may change, as op dump files arrive. */
      if (scan->level && (records = g_hash_table_lookup (scan->level->records, file)))
        {
          for (guint j = 0; j < records->len; j++)
            {
              OviOverflowRecord *record = g_ptr_array_index (records, j);
              OviDumpFile *op = ovi_overflow_match_op (record, batch->files);

              if (op != ovi_overflow_record_get_op (record))
                {
                  g_ptr_array_add (scan->level->links, g_object_ref (record));
                  g_ptr_array_add (scan->level->links, op ? g_object_ref (op) : NULL);
                }
              g_ptr_array_add (batch->records, g_object_ref (record));
            }
          records = NULL; /* borrowed */
          continue;
        }
      if (!(records = ovi_overflow_record_decode_file (file, &error)))
        {
          add_problem (scan, batch, ovi_dump_file_get_relative_path (file), error);
          continue;
        }
      for (guint j = 0; j < records->len; j++)
        {
          OviOverflowRecord *record = g_ptr_array_index (records, j);
          ovi_overflow_record_set_op (record, ovi_overflow_match_op (record, batch->files));
        }
      /* In a followed folder, a record whose operator is not there yet
       * while files are still being written waits for them: it is shown
       * once, with its operator. */
      if (scan->level && scan->level->pending > 0 && !all_linked (records))
        {
          scan->level->pending++;
          continue;
        }
      for (guint j = 0; j < records->len; j++)
        {
          g_ptr_array_add (batch->records, g_object_ref (g_ptr_array_index (records, j)));
          g_atomic_pointer_add (&scan->self->overflow_records, 1);
        }
    }
}

/* A folder with no Opdebug file (Ascend 950 / Atlas 350 in Inf/NaN mode,
 * or a saturation-mode card): the operators whose inputs are finite and
 * whose outputs are not are where overflows start, so each is a record;
 * the earliest that is not ignored is the first overflow. Classifying reads
 * the tensors (statistics-mode operators have their counts already), so
 * the folder's files are delivered first and its records after. */
static void
find_data_records (Scan *scan, GPtrArray *files)
{
  Batch *batch;
  gboolean has_ops = FALSE;
  /* In a followed folder, an operator's overflow file comes after its
   * data: records are looked for in the data only once the folder has been
   * left alone for a while, or they would come and go. */
  gboolean settled =
      !scan->level || scan->level->now_us - scan->level->newest_us >= 2 * scan->level->quiet_us;

  for (guint i = 0; i < files->len; i++)
    {
      OviFileKind kind = ovi_dump_file_get_kind (g_ptr_array_index (files, i));
      if (kind == OVI_FILE_KIND_OVERFLOW)
        return;
      has_ops |= kind == OVI_FILE_KIND_OP_DUMP;
    }
  if (!has_ops || !scan->self->data_records)
    return;
  if (!settled)
    scan->level->settling = TRUE;
  batch = batch_new ();
  for (guint i = 0; i < files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (files, i);
      GPtrArray *shown;

      if (g_cancellable_is_cancelled (scan->cancellable))
        break;
      if (scan->level && (shown = g_hash_table_lookup (scan->level->records, file)))
        {
          for (guint j = 0; j < shown->len; j++)
            g_ptr_array_add (batch->records, g_object_ref (g_ptr_array_index (shown, j)));
          continue;
        }
      if (!settled || ovi_dump_file_get_kind (file) != OVI_FILE_KIND_OP_DUMP ||
          ovi_classifier_classify (file) != OVI_BLAME_ORIGIN)
        continue;
      g_ptr_array_add (batch->records, ovi_overflow_record_new_from_data (file));
      g_atomic_pointer_add (&scan->self->overflow_records, 1);
    }
  if (batch->records->len)
    emit (scan, batch);
  else
    batch_free (batch);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return ovi_path_natural_compare (*(const char *const *) a, *(const char *const *) b);
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  return ovi_path_natural_compare (((const Candidate *) a)->entry, ((const Candidate *) b)->entry);
}

/* In a pass over a followed folder: whether the entry is to be read now.
 * An entry that was loaded before and has not changed since keeps its file
 * (its header is not read again); one that changed within the quiet period
 * and was not seen closed is still being written, and waits for a later
 * pass. */
static gboolean
level_admits (OviLevel *level, int dirfd, const char *name, OviDumpFile **kept)
{
  OviDumpFile *known = g_hash_table_lookup (level->known, name);
  struct stat st;
  gint64 mtime;

  *kept = NULL;
  /* Followed by the system, which reports every change: a file loaded
   * before and not reported since is the same. */
  if (known && level->changed && !g_hash_table_contains (level->changed, name))
    {
      *kept = g_object_ref (known);
      return TRUE;
    }
  if (fstatat (dirfd, name, &st, 0) != 0)
    return FALSE; /* gone again */
  mtime = (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
  level->newest_us = MAX (level->newest_us, mtime);
  if (known && ovi_dump_file_get_file_size (known) == (guint64) st.st_size &&
      ovi_dump_file_get_mtime_us (known) == mtime)
    {
      *kept = g_object_ref (known);
      return TRUE;
    }
  if (level->now_us - mtime < level->quiet_us && !g_hash_table_contains (level->closed, name))
    {
      level->pending++;
      g_hash_table_add (level->waiting, g_strdup (name));
      return FALSE;
    }
  return TRUE;
}

static gboolean
enter_once (Scan *scan, const struct stat *st)
{
  char *key = g_strdup_printf ("%lu:%lu", (gulong) st->st_dev, (gulong) st->st_ino);

  if (g_hash_table_contains (scan->visited, key))
    {
      g_free (key);
      return FALSE;
    }
  g_hash_table_add (scan->visited, key);
  return TRUE;
}

static gboolean
scan_dir (Scan *scan, const char *path, const char *relative_dir, GError **error)
{
  g_autoptr (GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_autoptr (GHashTable) mapping = read_mapping (path);
  g_autoptr (GPtrArray) csv_entries = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folder_csv = NULL;
  Batch *batch = batch_new ();
  struct dirent *ent;
  DIR *dir;

  g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
  if (!(dir = opendir (path)))
    {
      int errsv = errno;
      g_autoptr (GError) dir_error = NULL;

      if (scan->level && errsv == ENOENT)
        {
          scan->level->gone = TRUE;
          batch_free (batch);
          return TRUE;
        }
      dir_error = g_error_new (OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
                               _ ("cannot read the folder: %s"), g_strerror (errsv));
      add_problem (scan, batch, *relative_dir ? relative_dir : ".", dir_error);
      emit (scan, batch);
      return TRUE;
    }

  while ((ent = readdir (dir)))
    {
      const char *name = ent->d_name;
      const char *original;
      gboolean is_dir = ent->d_type == DT_DIR, is_file = ent->d_type == DT_REG;
      struct stat st;

      if (g_str_equal (name, ".") || g_str_equal (name, ".."))
        continue;
      if (g_cancellable_set_error_if_cancelled (scan->cancellable, error))
        {
          closedir (dir);
          batch_free (batch);
          return FALSE;
        }
      /* Symlinks and file systems without d_type need a stat, which follows
       * links; folder loops are cut by the visited set. */
      if (is_dir || (!is_file && ent->d_type != DT_FIFO && ent->d_type != DT_SOCK &&
                     ent->d_type != DT_CHR && ent->d_type != DT_BLK))
        {
          if (fstatat (dirfd (dir), name, &st, 0) != 0)
            continue;
          is_dir = S_ISDIR (st.st_mode);
          is_file = S_ISREG (st.st_mode);
          if (is_dir && enter_once (scan, &st))
            g_ptr_array_add (subdirs, g_strdup (name));
        }
      if (!is_file)
        continue;
      g_atomic_pointer_add (&scan->self->files_seen, 1);
      if (is_candidate (name, mapping, &original))
        {
          Candidate c = { g_strdup (name), original, NULL, NULL, NULL, FALSE };

          if (scan->level && !level_admits (scan->level, dirfd (dir), name, &c.file))
            {
              g_free (c.entry);
              continue;
            }
          c.kept = c.file != NULL;
          g_array_append_val (candidates, c);
        }
      else if (scan->level && (ovi_statistic_is_csv_name (name, NULL) ||
                               g_ascii_strcasecmp (name, "statistic.csv") == 0))
        {
          OviDumpFile *none = NULL;

          /* Statistics are read again whenever their folder changes. */
          if (!level_admits (scan->level, dirfd (dir), name, &none))
            continue;
          if (ovi_statistic_is_csv_name (name, NULL))
            g_ptr_array_add (csv_entries, g_strdup (name));
          else if (folder_csv == NULL)
            folder_csv = g_strdup (name);
        }
      else if (ovi_statistic_is_csv_name (name, NULL))
        g_ptr_array_add (csv_entries, g_strdup (name));
      else if (g_ascii_strcasecmp (name, "statistic.csv") == 0 && folder_csv == NULL)
        folder_csv = g_strdup (name);
    }

  g_array_sort (candidates, compare_candidates);
  load_all (scan, dirfd (dir), path, candidates);
  closedir (dir);
  if (g_cancellable_set_error_if_cancelled (scan->cancellable, error))
    {
      batch_free (batch);
      return FALSE;
    }
  if (csv_entries->len || folder_csv)
    {
      g_ptr_array_sort (csv_entries, compare_names);
      add_statistics (scan, batch, path, *relative_dir ? relative_dir : "", candidates, csv_entries,
                      folder_csv);
      g_array_sort (candidates, compare_candidates);
    }
  collect (scan, batch, candidates, relative_dir);
  group_slices (batch);
  decode_overflows (scan, batch);
  {
    g_autoptr (GPtrArray) files = g_ptr_array_copy (batch->files, (GCopyFunc) g_object_ref, NULL);
    g_ptr_array_set_free_func (files, g_object_unref);
    emit (scan, batch);
    find_data_records (scan, files);
  }

  g_ptr_array_sort (subdirs, compare_names);
  for (guint i = 0; i < subdirs->len; i++)
    {
      const char *entry = g_ptr_array_index (subdirs, i);
      g_autofree char *full = g_build_filename (path, entry, NULL);
      g_autofree char *relative = join_relative (relative_dir, entry);

      if (scan->level) /* followed folder by folder */
        {
          g_ptr_array_add (scan->level->subdirs, g_steal_pointer (&relative));
          continue;
        }

      if (!scan_dir (scan, full, relative, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
scan_one_root (Scan *scan, const char *root, GError **error)
{
  struct stat st;

  if (stat (root, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND, "%s: %s", root,
                   g_strerror (saved));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      const char *name = scan->self->roots ? scan->self->root_names[scan->root] : "";

      enter_once (scan, &st);
      return scan_dir (scan, root, name, error);
    }
  if (S_ISREG (st.st_mode) && scan->self->roots)
    {
      g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
                   _ ("%s: a file, not a folder: folders opened together must be folders"), root);
      return FALSE;
    }
  if (S_ISREG (st.st_mode))
    {
      g_autofree char *dir = g_path_get_dirname (root);
      g_autofree char *name = g_path_get_basename (root);
      g_autoptr (GHashTable) mapping = read_mapping (dir);
      g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
      Batch *batch = batch_new ();
      const char *original = mapping ? g_hash_table_lookup (mapping, name) : NULL;
      Candidate c = { NULL, original, NULL, NULL };

      /* A statistics file opened on its own: its operators. */
      if (ovi_statistic_is_csv_name (name, NULL) || g_ascii_strcasecmp (name, "statistic.csv") == 0)
        {
          g_autoptr (GPtrArray) csv = g_ptr_array_new_with_free_func (g_free);
          gboolean folder_csv = !ovi_statistic_is_csv_name (name, NULL);

          g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
          if (!folder_csv)
            g_ptr_array_add (csv, g_strdup (name));
          g_atomic_pointer_add (&scan->self->files_seen, 1);
          add_statistics (scan, batch, dir, "", candidates, csv, folder_csv ? name : NULL);
          collect (scan, batch, candidates, "");
          {
            g_autoptr (GPtrArray) files =
                g_ptr_array_copy (batch->files, (GCopyFunc) g_object_ref, NULL);
            g_ptr_array_set_free_func (files, g_object_unref);
            emit (scan, batch);
            find_data_records (scan, files);
          }
          return TRUE;
        }
      /* A file opened on its own is read whatever its name. */
      c.entry = g_strdup (root);
      g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
      g_array_append_val (candidates, c);
      g_atomic_pointer_add (&scan->self->files_seen, 1);
      load_all (scan, AT_FDCWD, "", candidates);
      g_free (g_array_index (candidates, Candidate, 0).entry);
      g_array_index (candidates, Candidate, 0).entry = g_strdup (name);
      collect (scan, batch, candidates, "");
      decode_overflows (scan, batch);
      emit (scan, batch);
      return TRUE;
    }
  g_set_error (error, OVI_FOLDER_ERROR, OVI_FOLDER_ERROR_NOT_FOUND,
               _ ("%s: neither a folder nor a regular file"), root);
  return FALSE;
}

/* Every root in turn: a root that cannot be read stops the load, naming it. */
static gboolean
scan_root (Scan *scan, GError **error)
{
  OviDumpFolder *self = scan->self;

  if (self->roots == NULL)
    return scan_one_root (scan, self->root_path, error);
  for (guint i = 0; i < self->roots->len; i++)
    {
      scan->root = i;
      scan->root_prefix = strlen (self->root_names[i]) + 1;
      if (!scan_one_root (scan, self->root_paths[i], error))
        return FALSE;
    }
  return TRUE;
}

static int
compare_records (gconstpointer a, gconstpointer b, gpointer user_data)
{
  return ovi_overflow_record_compare ((OviOverflowRecord *) a, (OviOverflowRecord *) b);
}

static gboolean
is_ignored (OviDumpFolder *self, OviDumpFile *op)
{
  return self->ignore && op &&
         ovi_ignore_list_matches (self->ignore, ovi_dump_file_get_op_type (op),
                                  ovi_dump_file_get_op_name (op));
}

/* Positions in first-overflow order; the first record not ignored is the
 * first overflow. Each record's gap is to the record before it in the same
 * run, device and model: other devices run at the same time, and other
 * runs at other times. */
static void
number_records (OviDumpFolder *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->records));
  gboolean first_seen = FALSE;
  g_autoptr (GHashTable) last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (OviOverflowRecord) r = g_list_model_get_item (G_LIST_MODEL (self->records), i);
      gboolean ignored = is_ignored (self, ovi_overflow_record_get_op (r));
      OviDumpFile *file = ovi_overflow_record_get_file (r);
      char *key = g_strdup_printf ("%u\n%s\n%s\n%s", ovi_dump_file_get_root (file),
                                   ovi_dump_file_get_time (file), ovi_dump_file_get_device (file),
                                   ovi_dump_file_get_model (file));

      ovi_overflow_record_set_position (r, i);
      ovi_overflow_record_set_marks (r, ignored, !ignored && !first_seen);
      ovi_overflow_record_set_previous (r, g_hash_table_lookup (last, key));
      /* The list holds the records, so the table need not. */
      g_hash_table_insert (last, key, r);
      first_seen |= !ignored;
    }
}

/**
 * ovi_dump_folder_set_ignore_list:
 * @list: (nullable): operators whose overflows are false positives
 *
 * Marks the records of ignored operators; they stay in the list but are
 * left out of "first overflow" and of the origins.
 */
void
ovi_dump_folder_set_ignore_list (OviDumpFolder *self, OviIgnoreList *list)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));

  g_clear_pointer (&self->ignore, ovi_ignore_list_unref);
  self->ignore = list ? ovi_ignore_list_ref (list) : NULL;
  number_records (self);
}

OviIgnoreList *
ovi_dump_folder_get_ignore_list (OviDumpFolder *self)
{
  return self->ignore;
}

gboolean
ovi_dump_folder_is_ignored (OviDumpFolder *self, OviDumpFile *op)
{
  return is_ignored (self, op);
}

static void
classify_one (guint i, gpointer data)
{
  ovi_classifier_classify (g_ptr_array_index ((GPtrArray *) data, i));
}

/**
 * ovi_dump_folder_classify_all:
 *
 * Classifies every operator (reads every tensor once, on the worker pool).
 * Safe to call from a worker thread once the folder is loaded.
 */
void
ovi_dump_folder_classify_all (OviDumpFolder *self, GCancellable *cancellable)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->files));

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (files, g_list_model_get_item (G_LIST_MODEL (self->files), i));
  ovi_parallel_for (files->len, classify_one, files, cancellable);
}

/**
 * ovi_dump_folder_find_origins:
 *
 * Classifies every operator if needed, then picks in each folder (each
 * iteration) the earliest operator classified "origin" that is not ignored.
 *
 * Returns: (transfer container) (element-type OviDumpFile): one origin per
 *   iteration that has one, in first-overflow order
 */
GPtrArray *
ovi_dump_folder_find_origins (OviDumpFolder *self, GCancellable *cancellable)
{
  GPtrArray *origins = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->files));
  OviDumpFile *best = NULL;

  ovi_dump_folder_classify_all (self, cancellable);
  /* Files come folder by folder in first-overflow order. */
  for (guint i = 0; i <= n; i++)
    {
      g_autoptr (OviDumpFile) f =
          i < n ? g_list_model_get_item (G_LIST_MODEL (self->files), i) : NULL;

      if (best && (f == NULL || !g_str_equal (ovi_dump_file_get_relative_dir (f),
                                              ovi_dump_file_get_relative_dir (best))))
        {
          g_ptr_array_add (origins, best);
          best = NULL;
        }
      if (f == NULL || ovi_dump_file_get_blame (f) != OVI_BLAME_ORIGIN || is_ignored (self, f))
        continue;
      if (best == NULL || ovi_dump_file_get_timestamp (f) < ovi_dump_file_get_timestamp (best))
        g_set_object (&best, f);
    }
  return origins;
}

static void
set_flag (OviDumpFolder *self, gboolean *flag, gboolean value, int prop)
{
  if (*flag != value)
    {
      *flag = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
    }
}

/* Notes @files in the index by folder. */
static void
index_files (OviDumpFolder *self, GPtrArray *files)
{
  for (guint i = 0; i < files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (files, i);
      const char *dir = ovi_dump_file_get_relative_dir (f);
      GPtrArray *list = g_hash_table_lookup (self->dir_files, dir);

      if (list == NULL)
        g_hash_table_insert (self->dir_files, g_strdup (dir),
                             list = g_ptr_array_new_with_free_func (g_object_unref));
      g_ptr_array_add (list, g_object_ref (f));
    }
}

/* Runs on the thread that owns the stores. */
static void
apply_batch (OviDumpFolder *self, Batch *batch)
{
  if (batch->kind == BATCH_SUMMARIES)
    {
      for (guint i = 0; i < batch->files->len; i++)
        ovi_dump_file_notify_summary (g_ptr_array_index (batch->files, i));
      self->summarized += batch->files->len;
      g_signal_emit (self, signals[SUMMARIES_APPLIED], 0);
      return;
    }
  if (batch->files->len)
    {
      if (!batch->indexed)
        index_files (self, batch->files);
      g_list_store_splice (self->files, g_list_model_get_n_items (G_LIST_MODEL (self->files)), 0,
                           batch->files->pdata, batch->files->len);
    }
  for (guint i = 0; i < batch->records->len; i++)
    g_list_store_insert_sorted (self->records, g_ptr_array_index (batch->records, i),
                                compare_records, NULL);
  if (batch->problems->len)
    g_list_store_splice (self->problems, g_list_model_get_n_items (G_LIST_MODEL (self->problems)),
                         0, batch->problems->pdata, batch->problems->len);
  if (batch->records->len)
    number_records (self);
}

static void
emit_sync (OviDumpFolder *self, Batch *batch)
{
  apply_batch (self, batch);
  batch_free (batch);
}

/* Everything a scan of the folder hands over goes through here. */
static void
emit (Scan *scan, Batch *batch)
{
  for (guint i = 0; scan->ops && i < batch->files->len; i++)
    {
      OviDumpFile *file = g_ptr_array_index (batch->files, i);

      if (ovi_dump_file_get_kind (file) == OVI_FILE_KIND_OP_DUMP)
        g_ptr_array_add (scan->ops, g_object_ref (file));
    }
  scan->emit (scan->self, batch);
}

static void
summarize_one (guint index, gpointer data)
{
  ovi_classifier_summarize (g_ptr_array_index ((GPtrArray *) data, index), NULL);
}

/* GTK 4.8 lists build the widgets of their first 200 rows as the rows
 * arrive, in view or not: the first files come a few at a time, one small
 * slice per turn of the pump (and emit_async() makes them), so that no turn and
 * no frame builds more than a few rows. Their summaries come the same way:
 * each changes the labels of a row that exists, and the frame after measures
 * them all again. */
#define FIRST_FILES 256
#define FIRST_SLICE 4

/* Operators are summarized in groups: enough for the pool's threads to
 * share, few enough that their rows fill in steadily. */
#define SUMMARY_GROUP 64
#define FIRST_SUMMARY_GROUP 16

/* On the scanning thread, once the listing is out: summarizes the listed
 * operators in the order they were found (first overflow first). */
static void
summarize_all (Scan *scan)
{
  g_atomic_pointer_set (&scan->self->n_operators, (gsize) scan->ops->len);
  for (guint first = 0, group; first < scan->ops->len; first += group)
    {
      Batch *batch;

      group = first < FIRST_FILES ? FIRST_SUMMARY_GROUP : SUMMARY_GROUP;
      if (g_cancellable_is_cancelled (scan->cancellable))
        return;
      batch = batch_new ();
      batch->kind = BATCH_SUMMARIES;
      for (guint i = first; i < MIN (first + group, scan->ops->len); i++)
        g_ptr_array_add (batch->files, g_object_ref (g_ptr_array_index (scan->ops, i)));
      ovi_parallel_for (batch->files->len, summarize_one, batch->files, scan->cancellable);
      scan->emit (scan->self, batch);
    }
}

static void
notify_progress (OviDumpFolder *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_SEEN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DUMP_FILES]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERFLOW_RECORDS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEM_COUNT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPERATORS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARIZED]);
}

static void
reset (OviDumpFolder *self)
{
  g_hash_table_remove_all (self->dir_files);
  g_list_store_remove_all (self->files);
  g_list_store_remove_all (self->records);
  g_list_store_remove_all (self->problems);
  self->files_seen = self->dump_files = self->overflow_records = self->n_problems = 0;
  self->n_operators = 0;
  self->summarized = 0;
  self->files_sliced = self->files_applied = 0;
  set_flag (self, &self->cancelled, FALSE, PROP_CANCELLED);
}

/**
 * ovi_dump_folder_load:
 *
 * Scans the folder on the calling thread (reading headers on the worker
 * pool), then summarizes every operator when #OviDumpFolder:analyze is set.
 * Broken files do not fail the load: they are listed by
 * ovi_dump_folder_get_problems().
 *
 * Returns: %FALSE when the root cannot be read or the scan was cancelled
 */
gboolean
ovi_dump_folder_load (OviDumpFolder *self, GCancellable *cancellable, GError **error)
{
  Scan scan = { self, cancellable, NULL, emit_sync, NULL };
  gboolean ok;

  g_return_val_if_fail (OVI_IS_DUMP_FOLDER (self), FALSE);

  reset (self);
  set_flag (self, &self->loading, TRUE, PROP_LOADING);
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self->analyze)
    scan.ops = g_ptr_array_new_with_free_func (g_object_unref);
  ok = scan_root (&scan, error);
  g_hash_table_unref (scan.visited);
  set_flag (self, &self->loading, FALSE, PROP_LOADING);
  if (ok && scan.ops)
    summarize_all (&scan);
  g_clear_pointer (&scan.ops, g_ptr_array_unref);
  notify_progress (self);
  return ok;
}

static void
return_load (OviDumpFolder *self, GError *error)
{
  g_autoptr (GTask) task = g_steal_pointer (&self->load_task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }
  g_clear_handle_id (&self->notify_source, g_source_remove);
  set_flag (self, &self->loading, FALSE, PROP_LOADING);
  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Ends the delivery: the pump goes, and nothing queued is applied. */
static void
stop_pump (OviDumpFolder *self)
{
  GSource *pump;

  g_mutex_lock (&self->deliveries_lock);
  g_queue_clear_full (&self->deliveries, (GDestroyNotify) batch_free);
  pump = g_steal_pointer (&self->pump);
  g_mutex_unlock (&self->deliveries_lock);
  if (pump)
    {
      g_source_destroy (pump);
      g_source_unref (pump);
    }
  if (self->cancel_handler)
    g_cancellable_disconnect (self->cancellable, self->cancel_handler);
  self->cancel_handler = 0;
  set_flag (self, &self->analyzing, FALSE, PROP_ANALYZING);
  notify_progress (self);
}

/* How long one turn of the pump may apply batches, at least and at most. */
#define PUMP_MIN_BUDGET_US 4000
#define PUMP_MAX_BUDGET_US 20000
/* How long the pump steps aside between two turns while batches wait. */
#define PUMP_GAP_US 1000

/* The one way results reach the main context, and its rule:
 *
 * The pump runs at G_PRIORITY_HIGH_IDLE: below input events
 * (G_PRIORITY_DEFAULT) and above GDK's layout and paint
 * (GDK_PRIORITY_REDRAW, G_PRIORITY_HIGH_IDLE + 20). A turn applies batches
 * for as long as the rest of the main loop had since the previous turn,
 * clamped to 4-20 ms, and then the pump steps aside for 1 ms before its
 * next turn, so that a frame that is due is drawn. The first 256 files come
 * in slices of 4, one slice a turn, the rest in slices of 128; the
 * summaries of the first 256 operators in groups of 16, one group a turn,
 * the rest in groups of 64.
 *
 * So redraws cannot starve the batches (an idle below them would wait for
 * ever while frames take longer than the frame interval, as they do with
 * software rendering or an accessibility registry), batches cannot starve
 * redraws (they give way after every turn, and take at most as much time
 * as the frames did), and input always goes first.
 *
 * Cancelling the load drops every batch not yet applied at the next turn. */
static gboolean
pump_deliveries (gpointer data)
{
  /* Stopping the pump drops the source's reference. */
  g_autoptr (OviDumpFolder) self = g_object_ref (data);
  gint64 now = g_get_monotonic_time ();
  gint64 budget = CLAMP (now - self->pump_turn_end, PUMP_MIN_BUDGET_US, PUMP_MAX_BUDGET_US);
  gint64 deadline = now + budget;
  gboolean first_slice;
  Batch *batch;

  for (;;)
    {
      if (g_cancellable_is_cancelled (self->cancellable))
        {
          set_flag (self, &self->cancelled, TRUE, PROP_CANCELLED);
          stop_pump (self);
          return_load (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                  _ ("The scan was cancelled")));
          return G_SOURCE_REMOVE;
        }
      g_mutex_lock (&self->deliveries_lock);
      batch = g_queue_pop_head (&self->deliveries);
      if (batch == NULL)
        {
          self->pump_asleep = TRUE;
          g_source_set_ready_time (self->pump, -1);
        }
      else if (g_get_monotonic_time () >= deadline)
        {
          /* Out of time: put it back and step aside. */
          g_queue_push_head (&self->deliveries, batch);
          batch = NULL;
          g_source_set_ready_time (self->pump, g_get_monotonic_time () + PUMP_GAP_US);
        }
      g_mutex_unlock (&self->deliveries_lock);
      if (batch == NULL)
        break;

      switch (batch->kind)
        {
        case BATCH_LISTED:
          return_load (self, g_steal_pointer (&batch->error));
          break;
        case BATCH_ANALYZED:
          batch_free (batch);
          stop_pump (self);
          self->pump_turn_end = g_get_monotonic_time ();
          return G_SOURCE_REMOVE;
        default:
          apply_batch (self, batch);
        }
      if (batch->kind == BATCH_FILES)
        self->files_applied += batch->files->len;
      first_slice = self->files_applied < FIRST_FILES ||
                    (batch->kind == BATCH_SUMMARIES && self->summarized <= FIRST_FILES);
      batch_free (batch);
      /* One of the first small slices per turn: a frame comes between. */
      if (first_slice && g_get_monotonic_time () < deadline)
        {
          g_mutex_lock (&self->deliveries_lock);
          if (self->pump && !g_queue_is_empty (&self->deliveries))
            g_source_set_ready_time (self->pump, g_get_monotonic_time () + PUMP_GAP_US);
          g_mutex_unlock (&self->deliveries_lock);
          break;
        }
    }
  notify_progress (self);
  self->pump_turn_end = g_get_monotonic_time ();
  return G_SOURCE_CONTINUE;
}

/* On the scanning thread: queues the batch for the main context, where the
 * stores live, so views see records while the scan goes on. */
static void
deliver (OviDumpFolder *self, Batch *batch)
{
  g_mutex_lock (&self->deliveries_lock);
  if (self->pump == NULL) /* cancelled: nobody takes it any more */
    batch_free (batch);
  else
    {
      g_queue_push_tail (&self->deliveries, batch);
      if (self->pump_asleep)
        {
          self->pump_asleep = FALSE;
          g_source_set_ready_time (self->pump, 0);
        }
    }
  g_mutex_unlock (&self->deliveries_lock);
}

/* Big folders arrive in slices, so that no turn of the pump has to take in
 * thousands of files at once. */
#define SLICE 128

static void
emit_async (OviDumpFolder *self, Batch *batch)
{
  /* Only the listing's files fill tables; summaries go as they are. */
  for (; batch->kind == BATCH_FILES;)
    {
      guint size = self->files_sliced < FIRST_FILES ? FIRST_SLICE : SLICE;
      Batch *slice;

      if (batch->files->len <= size)
        break;
      slice = batch_new ();
      for (guint i = 0; i < size; i++)
        g_ptr_array_add (slice->files, g_object_ref (g_ptr_array_index (batch->files, i)));
      g_ptr_array_remove_range (batch->files, 0, size);
      self->files_sliced += size;
      deliver (self, slice);
    }
  if (batch->kind == BATCH_FILES)
    self->files_sliced += batch->files->len;
  deliver (self, batch);
}

/* The scan's own task; the caller's task is returned by the listing's
 * last batch. */
static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OviDumpFolder *self = source;
  Scan scan = { self, cancellable, NULL, emit_async, NULL };
  Batch *listed = batch_new ();
  gboolean ok;

  listed->kind = BATCH_LISTED;
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (task_data != NULL)
    scan.ops = g_ptr_array_new_with_free_func (g_object_unref);
  ok = scan_root (&scan, &listed->error);
  g_hash_table_unref (scan.visited);
  deliver (self, listed);
  if (ok && scan.ops)
    summarize_all (&scan);
  g_clear_pointer (&scan.ops, g_ptr_array_unref);
  if (!g_cancellable_is_cancelled (cancellable))
    {
      Batch *analyzed = batch_new ();

      analyzed->kind = BATCH_ANALYZED;
      deliver (self, analyzed);
    }
  g_task_return_boolean (task, TRUE);
}

static gboolean
notify_tick (gpointer data)
{
  notify_progress (OVI_DUMP_FOLDER (data));
  return G_SOURCE_CONTINUE;
}

static gboolean
dispatch_ready (GSource *source, GSourceFunc callback, gpointer user_data)
{
  return callback (user_data);
}

static GSourceFuncs pump_funcs = { NULL, NULL, dispatch_ready, NULL, NULL, NULL };

/* Called on any thread when the load is cancelled: wakes the pump, which
 * then drops what is queued and returns the load. */
static void
load_cancelled (GCancellable *cancellable, gpointer data)
{
  OviDumpFolder *self = data;

  g_mutex_lock (&self->deliveries_lock);
  if (self->pump)
    {
      self->pump_asleep = FALSE;
      g_source_set_ready_time (self->pump, 0);
    }
  g_mutex_unlock (&self->deliveries_lock);
}

/**
 * ovi_dump_folder_load_async:
 *
 * Scans on the worker pool. The list models fill on the main context while
 * the scan runs, and the progress properties are notified as it goes. When
 * #OviDumpFolder:analyze is set, every operator is then summarized and the
 * files' summary properties are notified, while #OviDumpFolder:analyzing is
 * %TRUE. Cancelling @cancellable stops both and drops the results not yet
 * applied.
 */
/* The pump, on the context the stores belong to (see pump_deliveries()). */
static void
start_pump (OviDumpFolder *self)
{
  self->pump = g_source_new (&pump_funcs, sizeof (GSource));
  self->pump_asleep = TRUE;
  self->pump_turn_end = g_get_monotonic_time ();
  g_source_set_priority (self->pump, G_PRIORITY_HIGH_IDLE);
  g_source_set_ready_time (self->pump, -1);
  g_source_set_callback (self->pump, pump_deliveries, g_object_ref (self), g_object_unref);
  g_source_set_static_name (self->pump, "[ovi] apply batches");
  g_source_attach (self->pump, self->context);
}

void
ovi_dump_folder_load_async (OviDumpFolder *self,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_autoptr (GTask) scan = NULL;

  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  g_return_if_fail (!self->loading && self->pump == NULL);

  reset (self);
  set_flag (self, &self->loading, TRUE, PROP_LOADING);
  set_flag (self, &self->analyzing, self->analyze, PROP_ANALYZING);
  notify_progress (self);
  self->notify_source = g_timeout_add (100, notify_tick, self);
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  g_clear_object (&self->cancellable);
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();

  start_pump (self);
  self->cancel_handler =
      g_cancellable_connect (self->cancellable, G_CALLBACK (load_cancelled), self, NULL);

  self->load_task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->load_task, ovi_dump_folder_load_async);
  scan = g_task_new (self, self->cancellable, NULL, NULL);
  g_task_set_task_data (scan, self->analyze ? GINT_TO_POINTER (1) : NULL, NULL);
  ovi_worker_run_in_thread (scan, load_thread);
}

/* The callback runs once every batch of the listing is in the stores;
 * summaries may still be arriving (#OviDumpFolder:analyzing). */
gboolean
ovi_dump_folder_load_finish (OviDumpFolder *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  notify_progress (self);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * ovi_dump_folder_set_analyze:
 *
 * Whether a load also summarizes every operator (reads every tensor):
 * the window sets it, `report --records-only` does not.
 */
void
ovi_dump_folder_set_analyze (OviDumpFolder *self, gboolean analyze)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  set_flag (self, &self->analyze, !!analyze, PROP_ANALYZE);
}

/**
 * ovi_dump_folder_set_data_records:
 *
 * Whether a load reads the operators of an iteration that has no overflow
 * file, to find the records its data shows (set by default). `convert`
 * needs the files only, and unsets it: reading every tensor of such a
 * folder was most of its listing.
 */
void
ovi_dump_folder_set_data_records (OviDumpFolder *self, gboolean data_records)
{
  g_return_if_fail (OVI_IS_DUMP_FOLDER (self));
  set_flag (self, &self->data_records, !!data_records, PROP_DATA_RECORDS);
}

gboolean
ovi_dump_folder_get_analyzing (OviDumpFolder *self)
{
  return self->analyzing;
}

gboolean
ovi_dump_folder_get_cancelled (OviDumpFolder *self)
{
  return self->cancelled;
}

GListModel *
ovi_dump_folder_get_files (OviDumpFolder *self)
{
  return G_LIST_MODEL (self->files);
}

GListModel *
ovi_dump_folder_get_records (OviDumpFolder *self)
{
  return G_LIST_MODEL (self->records);
}

GListModel *
ovi_dump_folder_get_problems (OviDumpFolder *self)
{
  return G_LIST_MODEL (self->problems);
}

void
ovi_dump_folder_get_progress (OviDumpFolder *self, OviScanProgress *progress)
{
  progress->files_seen = self->files_seen;
  progress->dump_files = self->dump_files;
  progress->overflow_records = self->overflow_records;
  progress->problems = self->n_problems;
  progress->operators = g_atomic_pointer_get (&self->n_operators);
  progress->summarized = self->summarized;
}

gboolean
ovi_dump_folder_get_loading (OviDumpFolder *self)
{
  return self->loading;
}

/**
 * ovi_dump_folder_contains_path:
 * @path: a file or folder, existing or about to be written
 *
 * Returns: %TRUE when @path lies inside the opened folder (after resolving
 *   symlinks of its nearest existing ancestor): the inspector never writes there
 */
/* @root_real: a root, symlinks resolved */
static gboolean
root_contains (const char *root_real, const char *real)
{
  g_autofree char *root = g_strdup (root_real);
  struct stat st;

  if (stat (root, &st) == 0 && !S_ISDIR (st.st_mode))
    {
      /* A single opened file: its folder holds the dump. */
      char *dir = g_path_get_dirname (root);
      g_free (root);
      root = dir;
    }
  return g_str_equal (real, root) ||
         (g_str_has_prefix (real, root) && (real[strlen (root)] == '/' || g_str_equal (root, "/")));
}

gboolean
ovi_dump_folder_contains_path (OviDumpFolder *self, const char *path)
{
  g_autofree char *probe = g_canonicalize_filename (path, NULL);
  g_autofree char *real = NULL;
  guint n = ovi_dump_folder_get_n_roots (self);

  while ((real = realpath (probe, NULL)) == NULL)
    {
      char *parent = g_path_get_dirname (probe);
      if (g_str_equal (parent, probe))
        {
          g_free (parent);
          return FALSE;
        }
      g_free (probe);
      probe = parent;
    }
  for (guint i = 0; i < n; i++)
    {
      /* The first as it was when opened, should it have gone since. */
      g_autofree char *root_real =
          i == 0 ? g_strdup (self->root_real) : realpath (self->root_paths[i], NULL);

      if (root_real && root_contains (root_real, real))
        return TRUE;
    }
  return FALSE;
}

/* Following a folder (ovi-folder-watch.c) ---------------------------------
 *
 * The watch passes over one folder at a time: ovi_level_new() notes on the
 * main context what the folder shows from it, ovi_dump_folder_scan_level()
 * reads it again on a worker thread, reading only the entries that are new
 * or changed, and ovi_dump_folder_apply_level() brings the stores in line on
 * the main context, keeping every file and record that did not change. */

static gboolean
level_holds (OviLevel *level, const char *dir)
{
  gsize n = strlen (level->relative_dir);

  if (g_str_equal (dir, level->relative_dir))
    return TRUE;
  /* A folder that is gone takes its folders with it. */
  return level->gone && (n == 0 || (g_str_has_prefix (dir, level->relative_dir) && dir[n] == '/'));
}

static void
index_file (GHashTable *known, OviDumpFile *file)
{
  GPtrArray *slices = ovi_dump_file_get_slices (file);

  if (slices)
    for (guint i = 0; i < slices->len; i++)
      index_file (known, g_ptr_array_index (slices, i));
  else if (!ovi_dump_file_get_statistics_only (file))
    g_hash_table_insert (known, g_path_get_basename (ovi_dump_file_get_relative_path (file)),
                         g_object_ref (file));
}

/**
 * ovi_level_new: (skip)
 * @closed: (nullable): entries known to be written in full (closed or moved
 *   in) since the previous pass
 * @changed: (nullable): when the system reports every change of the folder,
 *   the entries it reported since the previous pass: the others are not
 *   looked at again
 *
 * Notes, on the main context, what the folder shows from @relative_dir: the
 * files as they were loaded and their records.
 */
OviLevel *
ovi_level_new (OviDumpFolder *self,
               const char *relative_dir,
               GHashTable *closed,
               GHashTable *changed,
               gint64 quiet_us)
{
  OviLevel *level = g_new0 (OviLevel, 1);
  GListModel *records = G_LIST_MODEL (self->records);
  GPtrArray *shown;

  level->relative_dir = g_strdup (relative_dir);
  level->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  level->records = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  level->closed = closed ? g_hash_table_ref (closed) : g_hash_table_new (g_str_hash, g_str_equal);
  level->changed = changed ? g_hash_table_ref (changed) : NULL;
  level->quiet_us = quiet_us;
  level->batch = batch_new ();
  level->links = g_ptr_array_new_with_free_func ((GDestroyNotify) g_object_unref);
  level->subdirs = g_ptr_array_new_with_free_func (g_free);
  level->fresh = g_ptr_array_new_with_free_func (g_object_unref);
  level->waiting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  shown = g_hash_table_lookup (self->dir_files, relative_dir);
  for (guint i = 0; shown && i < shown->len; i++)
    index_file (level->known, g_ptr_array_index (shown, i));
  for (guint i = 0, n = g_list_model_get_n_items (records); i < n; i++)
    {
      g_autoptr (OviOverflowRecord) record = g_list_model_get_item (records, i);
      OviDumpFile *file = ovi_overflow_record_get_file (record);
      GPtrArray *list;

      if (file == NULL || !g_str_equal (ovi_dump_file_get_relative_dir (file), relative_dir))
        continue;
      if (!(list = g_hash_table_lookup (level->records, file)))
        g_hash_table_insert (level->records, file,
                             list = g_ptr_array_new_with_free_func (g_object_unref));
      g_ptr_array_add (list, g_steal_pointer (&record));
    }
  return level;
}

void
ovi_level_free (OviLevel *level)
{
  g_free (level->relative_dir);
  g_hash_table_unref (level->known);
  g_hash_table_unref (level->records);
  g_hash_table_unref (level->closed);
  g_clear_pointer (&level->changed, g_hash_table_unref);
  batch_free (level->batch);
  /* links hold (record, op-or-NULL) pairs */
  g_ptr_array_set_free_func (level->links, NULL);
  for (guint i = 0; i < level->links->len; i++)
    g_clear_object ((GObject **) &level->links->pdata[i]);
  g_ptr_array_unref (level->links);
  g_ptr_array_unref (level->subdirs);
  g_ptr_array_unref (level->fresh);
  g_hash_table_unref (level->waiting);
  g_free (level);
}

gboolean
ovi_level_get_gone (OviLevel *level)
{
  return level->gone;
}

guint
ovi_level_get_pending (OviLevel *level)
{
  return level->pending;
}

/* Whether the folder changed too recently for records to be looked for in
 * its data: a later pass looks again. */
gboolean
ovi_level_get_settling (OviLevel *level)
{
  return level->settling;
}

/* (element-type utf8): the relative paths of the folders found in it */
GPtrArray *
ovi_level_get_subdirs (OviLevel *level)
{
  return level->subdirs;
}

const char *
ovi_level_get_relative_dir (OviLevel *level)
{
  return level->relative_dir;
}

static void
level_emit (OviDumpFolder *scratch, Batch *batch)
{
  OviLevel *level = g_object_get_data (G_OBJECT (scratch), "ovi-level");

  g_ptr_array_extend_and_steal (level->batch->files, g_steal_pointer (&batch->files));
  g_ptr_array_extend_and_steal (level->batch->records, g_steal_pointer (&batch->records));
  g_ptr_array_extend_and_steal (level->batch->problems, g_steal_pointer (&batch->problems));
  batch->files = g_ptr_array_new ();
  batch->records = g_ptr_array_new ();
  batch->problems = g_ptr_array_new ();
  batch_free (batch);
}

/**
 * ovi_dump_folder_scan_level: (skip)
 *
 * Reads the folder of @level again, on any thread: its new and changed
 * entries, not the ones it was given as unchanged. Entries still being
 * written are left for a later pass and counted as pending. When
 * #OviDumpFolder:analyze is set, the operators read are summarized.
 */
void
ovi_dump_folder_scan_level (OviDumpFolder *self, OviLevel *level, GCancellable *cancellable)
{
  g_autoptr (OviDumpFolder) scratch = NULL;
  g_autoptr (GHashTable) kept = g_hash_table_new (NULL, NULL);
  g_autofree char *path = *level->relative_dir
                              ? g_build_filename (self->root_path, level->relative_dir, NULL)
                              : g_strdup (self->root_path);
  Scan scan = { scratch, cancellable, NULL, level_emit, NULL, level };
  GHashTableIter iter;
  gpointer file;

  /* Followed folders have one root: relative paths start below it. */
  g_return_if_fail (self->roots == NULL);
  scratch = ovi_dump_folder_new (self->root);
  scan.self = scratch;
  g_object_set_data (G_OBJECT (scratch), "ovi-level", level);
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  level->now_us = g_get_real_time ();
  scan_dir (&scan, path, level->relative_dir, NULL);
  g_hash_table_unref (scan.visited);
  level->files_seen = scratch->files_seen;

  g_hash_table_iter_init (&iter, level->known);
  while (g_hash_table_iter_next (&iter, NULL, &file))
    g_hash_table_add (kept, file);
  for (guint i = 0; i < level->batch->files->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (level->batch->files, i);
      if (!g_hash_table_contains (kept, f))
        g_ptr_array_add (level->fresh, g_object_ref (f));
    }
  if (g_atomic_int_get (&self->analyze))
    {
      g_autoptr (GPtrArray) ops = g_ptr_array_new ();

      for (guint i = 0; i < level->fresh->len; i++)
        if (ovi_dump_file_get_kind (g_ptr_array_index (level->fresh, i)) == OVI_FILE_KIND_OP_DUMP)
          g_ptr_array_add (ops, g_ptr_array_index (level->fresh, i));
      ovi_parallel_for (ops->len, summarize_one, ops, cancellable);
    }
}

static char *
file_key (OviDumpFile *file)
{
  return g_strconcat (ovi_dump_file_get_relative_path (file), "\n", ovi_dump_file_get_name (file),
                      NULL);
}

/* Whether @fresh, read in this pass, is what @shown already shows. */
static gboolean
same_file (OviDumpFile *shown, OviDumpFile *fresh)
{
  GPtrArray *a = ovi_dump_file_get_slices (shown), *b = ovi_dump_file_get_slices (fresh);

  if (shown == fresh)
    return TRUE;
  if (a && b)
    return a->len == b->len && memcmp (a->pdata, b->pdata, a->len * sizeof (gpointer)) == 0;
  return ovi_dump_file_get_statistics_only (shown) && ovi_dump_file_get_statistics_only (fresh) &&
         ovi_dump_file_get_file_size (shown) == ovi_dump_file_get_file_size (fresh);
}

/* Whether @relative_path is an entry of the level's folder still being
 * written: what is shown of it stays until it is read again. */
static gboolean
level_waits_for (OviLevel *level, const char *relative_path)
{
  g_autofree char *name = g_path_get_basename (relative_path);
  return g_hash_table_contains (level->waiting, name);
}

static gboolean
problem_in_level (OviLevel *level, OviProblem *problem)
{
  g_autofree char *parent = g_path_get_dirname (ovi_problem_get_file (problem));
  g_autofree char *display = g_filename_display_name (level->relative_dir);
  const char *dir = g_str_equal (parent, ".") ? "" : parent;

  return g_str_equal (dir, display) ||
         (*display && g_str_equal (ovi_problem_get_file (problem), display)) ||
         (level->gone && (!*display || g_str_has_prefix (dir, display)));
}

/* Removes the items of @store for which @drop says so; returns how many. */
static guint
remove_where (GListStore *store, gboolean (*drop) (gpointer item, gpointer data), gpointer data)
{
  guint removed = 0;

  for (guint i = g_list_model_get_n_items (G_LIST_MODEL (store)); i-- > 0;)
    {
      g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (store), i);
      if (drop (item, data))
        {
          g_list_store_remove (G_LIST_STORE (store), i);
          removed++;
        }
    }
  return removed;
}

typedef struct
{
  OviLevel *level;
  GHashTable *found;        /* the files of this pass */
  GHashTable *fresh_by_key; /* key -> file read in this pass (not kept from before) */
  GHashTable *kept;         /* file read in this pass -> the file shown, which stays */
  GHashTable *records;      /* records of this pass */
  GHashTable *problems;     /* problem_key() of this pass's problems -> problem */
} Apply;

/* Removes the files shown from the level's folders that this pass did not
 * find the same; notes in @apply which ones stay. Returns how many went. */
static guint
drop_files (OviDumpFolder *self, Apply *apply)
{
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer dir;
  guint removed = 0;

  g_hash_table_iter_init (&iter, self->dir_files);
  while (g_hash_table_iter_next (&iter, &dir, NULL))
    if (level_holds (apply->level, dir))
      g_ptr_array_add (dirs, g_strdup (dir));
  for (guint d = 0; d < dirs->len; d++)
    {
      GPtrArray *shown = g_hash_table_lookup (self->dir_files, g_ptr_array_index (dirs, d));
      GPtrArray *staying = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < shown->len; i++)
        {
          OviDumpFile *file = g_ptr_array_index (shown, i);
          g_autofree char *key = NULL;
          OviDumpFile *fresh;
          guint position;

          /* Found again as it was: the common case, without a key. */
          if (g_hash_table_contains (apply->found, file))
            {
              g_ptr_array_add (staying, g_object_ref (file));
              continue;
            }
          key = file_key (file);
          fresh = g_hash_table_lookup (apply->fresh_by_key, key);
          if (fresh && same_file (file, fresh))
            {
              g_hash_table_insert (apply->kept, fresh, file);
              g_ptr_array_add (staying, g_object_ref (file));
            }
          else if (!fresh && level_waits_for (apply->level, ovi_dump_file_get_relative_path (file)))
            g_ptr_array_add (staying, g_object_ref (file));
          else if (g_list_store_find (self->files, file, &position))
            {
              g_list_store_remove (self->files, position);
              removed++;
            }
        }
      if (staying->len)
        g_hash_table_insert (self->dir_files, g_strdup (g_ptr_array_index (dirs, d)), staying);
      else
        {
          g_hash_table_remove (self->dir_files, g_ptr_array_index (dirs, d));
          g_ptr_array_unref (staying);
        }
    }
  return removed;
}

static gboolean
drop_record (gpointer item, gpointer data)
{
  Apply *apply = data;
  OviDumpFile *file = ovi_overflow_record_get_file (item);

  if (file == NULL || !level_holds (apply->level, ovi_dump_file_get_relative_dir (file)) ||
      g_hash_table_contains (apply->records, item))
    return FALSE;
  /* Records are looked for in the data only once nothing is being written
   * into the folder: until then, those found stay. */
  return ovi_overflow_record_get_source (item) != OVI_RECORD_SOURCE_DATA ||
         !(apply->level->settling || g_hash_table_size (apply->level->waiting) > 0);
}

static char *
problem_key (OviProblem *problem)
{
  return g_strdup_printf ("%s\n%u\n%s", ovi_problem_get_file (problem),
                          ovi_problem_get_line (problem), ovi_problem_get_message (problem));
}

/* A problem found again stays as it is: the new one is dropped instead. */
static gboolean
drop_problem (gpointer item, gpointer data)
{
  Apply *apply = data;
  g_autofree char *key = NULL;

  if (!problem_in_level (apply->level, item) ||
      level_waits_for (apply->level, ovi_problem_get_file (item)))
    return FALSE;
  key = problem_key (item);
  return !g_hash_table_remove (apply->problems, key);
}

/* A record found in the data of an operator read again and found the same
 * (a statistics-only operator is read from its CSV on every pass) is the
 * record shown, not a new one. */
static void
keep_data_records (OviDumpFolder *self, Apply *apply)
{
  GPtrArray *batch = apply->level->batch->records;
  GListModel *shown_records = G_LIST_MODEL (self->records);
  g_autoptr (GHashTable) same_ops = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer shown;

  g_hash_table_iter_init (&iter, apply->kept);
  while (g_hash_table_iter_next (&iter, NULL, &shown))
    g_hash_table_add (same_ops, shown);
  for (guint j = 0, n = g_list_model_get_n_items (shown_records); j < n; j++)
    {
      g_autoptr (OviOverflowRecord) same = g_list_model_get_item (shown_records, j);
      OviDumpFile *op = ovi_overflow_record_get_op (same);
      gboolean replaced = FALSE;

      if (ovi_overflow_record_get_source (same) != OVI_RECORD_SOURCE_DATA ||
          !g_hash_table_contains (same_ops, op))
        continue;
      for (guint i = 0; i < batch->len; i++)
        {
          OviOverflowRecord *record = g_ptr_array_index (batch, i);
          OviDumpFile *fresh = ovi_overflow_record_get_op (record);

          if (ovi_overflow_record_get_source (record) != OVI_RECORD_SOURCE_DATA || fresh == NULL ||
              g_hash_table_lookup (apply->kept, fresh) != op)
            continue;
          g_hash_table_remove (apply->records, record);
          g_ptr_array_index (batch, i) = g_object_ref (same);
          g_object_unref (record);
          replaced = TRUE;
          break;
        }
      if (replaced)
        g_hash_table_add (apply->records, same);
    }
}

/**
 * ovi_dump_folder_apply_level: (skip)
 *
 * On the main context, after ovi_dump_folder_scan_level(): removes what is
 * gone or changed, adds what is new, links records to operators that
 * arrived since, and keeps every file and record that is the same.
 *
 * Returns: (transfer container) (element-type OviOverflowRecord): the
 *   records that are new
 */
GPtrArray *
ovi_dump_folder_apply_level (OviDumpFolder *self, OviLevel *level)
{
  g_autoptr (GHashTable) fresh_by_key =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) found = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) kept = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) records = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) added = g_ptr_array_new ();
  GPtrArray *new_records = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GHashTable) problems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Apply apply = { level, found, fresh_by_key, kept, records, problems };
  GHashTableIter iter;
  gpointer problem;
  guint n_records = g_list_model_get_n_items (G_LIST_MODEL (self->records));
  guint removed, summarized = 0;

  for (guint i = 0; i < level->batch->files->len; i++)
    g_hash_table_add (found, g_ptr_array_index (level->batch->files, i));
  for (guint i = 0; i < level->fresh->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (level->fresh, i);
      g_hash_table_insert (fresh_by_key, file_key (f), f);
    }
  for (guint i = 0; i < level->batch->records->len; i++)
    g_hash_table_add (records, g_ptr_array_index (level->batch->records, i));

  removed = drop_files (self, &apply);
  keep_data_records (self, &apply);
  /* Files read in this pass are new, unless the same is shown already
   * (then that one stays). */
  for (guint i = 0; i < level->fresh->len; i++)
    {
      OviDumpFile *f = g_ptr_array_index (level->fresh, i);
      if (!g_hash_table_contains (kept, f))
        {
          g_ptr_array_add (added, f);
          summarized += ovi_dump_file_get_kind (f) == OVI_FILE_KIND_OP_DUMP &&
                        g_atomic_int_get (&self->analyze);
        }
    }
  /* Into the index now, into the list through the pump: a slice a turn,
   * as a scan's files come (a run writing a thousand files a second would
   * otherwise add hundreds in one turn). */
  if (added->len)
    {
      index_files (self, added);
      if (self->pump == NULL)
        {
          if (self->context == NULL)
            self->context = g_main_context_ref_thread_default ();
          start_pump (self);
        }
      for (guint first = 0; first < added->len; first += SLICE)
        {
          Batch *slice = batch_new ();

          slice->indexed = TRUE;
          for (guint i = first; i < MIN (first + SLICE, added->len); i++)
            g_ptr_array_add (slice->files, g_object_ref (g_ptr_array_index (added, i)));
          self->files_sliced += slice->files->len;
          deliver (self, slice);
        }
    }
  self->dump_files += added->len - MIN (removed, self->dump_files + added->len);

  /* Records shown stay; those linked anew follow their operator; the
   * others come in first-overflow order. */
  remove_where (self->records, drop_record, &apply);
  for (guint i = 0; i + 1 < level->links->len; i += 2)
    {
      OviDumpFile *op = g_ptr_array_index (level->links, i + 1);
      OviDumpFile *shown = op ? g_hash_table_lookup (kept, op) : NULL;
      ovi_overflow_record_set_op (g_ptr_array_index (level->links, i), shown ? shown : op);
    }
  for (guint i = 0; i < level->batch->records->len; i++)
    {
      OviOverflowRecord *record = g_ptr_array_index (level->batch->records, i);
      OviDumpFile *op = ovi_overflow_record_get_op (record);
      OviDumpFile *shown = op ? g_hash_table_lookup (kept, op) : NULL;
      guint position;

      if (g_list_store_find (self->records, record, &position))
        continue;
      if (shown)
        ovi_overflow_record_set_op (record, shown);
      g_list_store_insert_sorted (self->records, record, compare_records, NULL);
      g_ptr_array_add (new_records, g_object_ref (record));
    }
  if (g_list_model_get_n_items (G_LIST_MODEL (self->records)) != n_records || new_records->len)
    number_records (self);
  self->overflow_records = g_list_model_get_n_items (G_LIST_MODEL (self->records));

  for (guint i = 0; i < level->batch->problems->len; i++)
    g_hash_table_insert (problems, problem_key (g_ptr_array_index (level->batch->problems, i)),
                         g_ptr_array_index (level->batch->problems, i));
  removed = remove_where (self->problems, drop_problem, &apply);
  self->n_problems -= MIN (self->n_problems, removed);
  g_hash_table_iter_init (&iter, problems);
  while (g_hash_table_iter_next (&iter, NULL, &problem))
    {
      g_list_store_append (self->problems, problem);
      self->n_problems++;
    }

  if (summarized)
    {
      self->n_operators += summarized;
      self->summarized += summarized;
      g_signal_emit (self, signals[SUMMARIES_APPLIED], 0);
    }
  notify_progress (self);
  return new_records;
}

/* Counts the entries a pass saw, for the progress properties: @before is
 * what the previous pass over the same folder saw. */
void
ovi_dump_folder_count_seen (OviDumpFolder *self, guint before, guint now)
{
  self->files_seen += now;
  self->files_seen -= MIN (self->files_seen, before);
  notify_progress (self);
}

guint
ovi_level_get_files_seen (OviLevel *level)
{
  return level->files_seen;
}

/* Whether files of a pass are still waiting to be added to the list: the
 * next pass waits for them, so that it sees the list as it will be. */
gboolean
ovi_dump_folder_get_delivering (OviDumpFolder *self)
{
  gboolean delivering;

  g_mutex_lock (&self->deliveries_lock);
  delivering = !g_queue_is_empty (&self->deliveries);
  g_mutex_unlock (&self->deliveries_lock);
  return delivering;
}
