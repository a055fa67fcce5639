/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovi-base-enums.h"
#include "ovi-dtype.h"
#include "ovi-dump-file-private.h"
#include "ovi-dump-header.h"
#include "ovi-error.h"
#include "ovi-path.h"
#include "ovi-regular-file.h"
#include "ovi-shape.h"
#include "ovi-statistic-csv.h"
#include "ovi-tensor-private.h"

/* One op dump or overflow file: its name fields, its header and its tensors.
 * Loading reads the header only; tensor bytes are mapped on demand. */
struct _OviDumpFile
{
  GObject parent_instance;

  char *path;
  char *name;
  char *relative_path;
  char *relative_dir;
  guint root;        /* which of the folder's roots holds it */
  guint root_prefix; /* bytes of the root's name and "/" before the path in it */
  OviFileName file_name;
  guint64 file_size;
  guint64 mtime; /* µs since the epoch */
  OviDumpHeader header;
  GPtrArray *tensors;    /* OviTensor, made on first request */
  GPtrArray *statistics; /* OviStatisticRow of each info, statistics-mode dumps only */
  GPtrArray *slices;     /* OviDumpFile: the FFTS+ thread slices of a group, else NULL */
  gboolean is_slice;     /* this file is one slice of a group */

  gint blame;            /* OviBlame, written once by whichever thread classifies */
  OviOpSummary *summary; /* written once by whichever thread summarizes */

  char *time;
  char *device;
  char *model;
  char *iteration;
};

G_DEFINE_FINAL_TYPE (OviDumpFile, ovi_dump_file, G_TYPE_OBJECT)

/* A file of at most this many bytes is kept whole from the read of its
 * header until it is summarised (ovi_dump_file_take_contents()): a folder of
 * small op dumps is then read once, not twice, and keeps at most this much
 * a file. */
#define KEEP_WHOLE 512

enum
{
  PROP_0,
  PROP_PATH,
  PROP_NAME,
  PROP_RELATIVE_PATH,
  PROP_RELATIVE_DIR,
  PROP_IS_OVERFLOW,
  PROP_OP_TYPE,
  PROP_OP_NAME,
  PROP_TASK_ID,
  PROP_STREAM_ID,
  PROP_TIMESTAMP,
  PROP_N_INPUTS,
  PROP_N_OUTPUTS,
  PROP_TIME,
  PROP_DEVICE,
  PROP_MODEL,
  PROP_ITERATION,
  PROP_FILE_SIZE,
  PROP_LAYOUT_NAME,
  PROP_ANALYZED,
  PROP_BLAME,
  PROP_BLAME_LABEL,
  PROP_BLAME_RANK,
  PROP_MAX_ABS,
  PROP_NAN_COUNT,
  PROP_INF_COUNT,
  PROP_SATURATED_COUNT,
  PROP_ABNORMAL,
  PROP_DFX_MESSAGE,
  PROP_ATTRS,
  PROP_STATISTICS_ONLY,
  PROP_N_SLICES,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static void
ovi_dump_file_finalize (GObject *object)
{
  OviDumpFile *self = OVI_DUMP_FILE (object);

  g_free (self->path);
  g_free (self->name);
  g_free (self->relative_path);
  g_clear_pointer (&self->relative_dir, g_ref_string_release);
  ovi_file_name_clear (&self->file_name);
  g_free (self->summary);
  if (self->tensors)
    {
      /* A group's tensors are its slices': they keep their files. */
      for (guint i = 0; i < self->tensors->len && !self->slices; i++)
        ovi_tensor_forget_file (g_ptr_array_index (self->tensors, i));
      g_ptr_array_unref (self->tensors);
    }
  g_clear_pointer (&self->slices, g_ptr_array_unref);
  ovi_dump_header_clear (&self->header);
  g_clear_pointer (&self->statistics, g_ptr_array_unref);
  g_clear_pointer (&self->time, g_ref_string_release);
  g_clear_pointer (&self->device, g_ref_string_release);
  g_clear_pointer (&self->model, g_ref_string_release);
  g_clear_pointer (&self->iteration, g_ref_string_release);
  G_OBJECT_CLASS (ovi_dump_file_parent_class)->finalize (object);
}

static void
ovi_dump_file_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  OviDumpFile *self = OVI_DUMP_FILE (object);
  const OviOpSummary *summary = ovi_dump_file_get_summary (self);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_RELATIVE_PATH:
      g_value_set_string (value, self->relative_path);
      break;
    case PROP_RELATIVE_DIR:
      g_value_set_string (value, self->relative_dir);
      break;
    case PROP_IS_OVERFLOW:
      g_value_set_boolean (value, self->file_name.kind == OVI_FILE_KIND_OVERFLOW);
      break;
    case PROP_OP_TYPE:
      g_value_set_string (value, self->file_name.op_type);
      break;
    case PROP_OP_NAME:
      g_value_set_string (value, ovi_dump_file_get_op_name (self));
      break;
    case PROP_TASK_ID:
      g_value_set_uint64 (value, self->file_name.task_id);
      break;
    case PROP_STREAM_ID:
      g_value_set_uint64 (value, self->file_name.stream_id);
      break;
    case PROP_TIMESTAMP:
      g_value_set_uint64 (value, self->file_name.timestamp);
      break;
    case PROP_N_INPUTS:
      g_value_set_uint (value, ovi_dump_file_count_tensors (self, OVI_TENSOR_INPUT));
      break;
    case PROP_N_OUTPUTS:
      g_value_set_uint (value, ovi_dump_file_count_tensors (self, OVI_TENSOR_OUTPUT));
      break;
    case PROP_TIME:
      g_value_set_string (value, self->time);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_ITERATION:
      g_value_set_string (value, self->iteration);
      break;
    case PROP_FILE_SIZE:
      g_value_set_uint64 (value, self->file_size);
      break;
    case PROP_LAYOUT_NAME:
      g_value_set_string (value, self->statistics                        ? "statistics"
                                 : self->header.layout == OVI_LAYOUT_NEW ? "new"
                                                                         : "old");
      break;
    case PROP_STATISTICS_ONLY:
      g_value_set_boolean (value, self->statistics != NULL);
      break;
    case PROP_N_SLICES:
      g_value_set_uint (value, self->slices ? self->slices->len : 0);
      break;
    case PROP_ANALYZED:
      g_value_set_boolean (value, summary != NULL);
      break;
    case PROP_BLAME:
      g_value_set_enum (value, summary ? summary->blame : OVI_BLAME_UNKNOWN);
      break;
    case PROP_BLAME_LABEL:
      g_value_set_string (value, ovi_blame_label (summary ? summary->blame : OVI_BLAME_UNKNOWN));
      break;
    case PROP_BLAME_RANK:
      g_value_set_uint (value, ovi_blame_rank (summary ? summary->blame : OVI_BLAME_UNKNOWN));
      break;
    case PROP_MAX_ABS:
      g_value_set_double (value, summary ? summary->max_abs : NAN);
      break;
    case PROP_NAN_COUNT:
      g_value_set_uint64 (value, summary ? summary->nan : 0);
      break;
    case PROP_INF_COUNT:
      g_value_set_uint64 (value, summary ? summary->inf : 0);
      break;
    case PROP_SATURATED_COUNT:
      g_value_set_uint64 (value, summary ? summary->saturated : 0);
      break;
    case PROP_ABNORMAL:
      g_value_set_boolean (value, summary && ovi_op_summary_is_abnormal (summary));
      break;
    case PROP_DFX_MESSAGE:
      g_value_set_string (value, self->header.dfx_message);
      break;
    case PROP_ATTRS:
      g_value_take_boxed (value, ovi_dump_file_dup_attrs_text (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ovi_dump_file_class_init (OviDumpFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ovi_dump_file_finalize;
  object_class->get_property = ovi_dump_file_get_property;

  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_RELATIVE_PATH] = g_param_spec_string ("relative-path", NULL, NULL, NULL, flags);
  properties[PROP_RELATIVE_DIR] = g_param_spec_string ("relative-dir", NULL, NULL, NULL, flags);
  properties[PROP_IS_OVERFLOW] = g_param_spec_boolean ("is-overflow", NULL, NULL, FALSE, flags);
  properties[PROP_OP_TYPE] = g_param_spec_string ("op-type", NULL, NULL, NULL, flags);
  properties[PROP_OP_NAME] = g_param_spec_string ("op-name", NULL, NULL, NULL, flags);
  properties[PROP_TASK_ID] = g_param_spec_uint64 ("task-id", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_STREAM_ID] =
      g_param_spec_uint64 ("stream-id", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TIMESTAMP] =
      g_param_spec_uint64 ("timestamp", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_N_INPUTS] = g_param_spec_uint ("n-inputs", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_OUTPUTS] = g_param_spec_uint ("n-outputs", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_TIME] = g_param_spec_string ("time", NULL, NULL, NULL, flags);
  properties[PROP_DEVICE] = g_param_spec_string ("device", NULL, NULL, NULL, flags);
  properties[PROP_MODEL] = g_param_spec_string ("model", NULL, NULL, NULL, flags);
  properties[PROP_ITERATION] = g_param_spec_string ("iteration", NULL, NULL, NULL, flags);
  properties[PROP_FILE_SIZE] =
      g_param_spec_uint64 ("file-size", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_LAYOUT_NAME] = g_param_spec_string ("layout-name", NULL, NULL, NULL, flags);

  /* The summary (ovi_classifier_summarize()): notified on the main context
   * when the folder hands it over, for tables that show it. */
  properties[PROP_ANALYZED] = g_param_spec_boolean ("analyzed", NULL, NULL, FALSE, flags);
  properties[PROP_BLAME] =
      g_param_spec_enum ("blame", NULL, NULL, OVI_TYPE_BLAME, OVI_BLAME_UNKNOWN, flags);
  properties[PROP_BLAME_LABEL] = g_param_spec_string ("blame-label", NULL, NULL, NULL, flags);
  properties[PROP_BLAME_RANK] = g_param_spec_uint ("blame-rank", NULL, NULL, 0, 4, 4, flags);
  properties[PROP_MAX_ABS] =
      g_param_spec_double ("max-abs", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);
  properties[PROP_NAN_COUNT] =
      g_param_spec_uint64 ("nan-count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_INF_COUNT] =
      g_param_spec_uint64 ("inf-count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SATURATED_COUNT] =
      g_param_spec_uint64 ("saturated-count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_ABNORMAL] = g_param_spec_boolean ("abnormal", NULL, NULL, FALSE, flags);
  properties[PROP_DFX_MESSAGE] = g_param_spec_string ("dfx-message", NULL, NULL, NULL, flags);
  /* "name=value" for each attr of the header: what a list widget shows. */
  properties[PROP_ATTRS] = g_param_spec_boxed ("attrs", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_STATISTICS_ONLY] =
      g_param_spec_boolean ("statistics-only", NULL, NULL, FALSE, flags);
  properties[PROP_N_SLICES] = g_param_spec_uint ("n-slices", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ovi_dump_file_init (OviDumpFile *self)
{
  self->header.infos = g_array_new (FALSE, FALSE, sizeof (OviTensorInfo));
  self->header.dims = g_array_new (FALSE, FALSE, sizeof (guint64));
}

/* Opens @entry relative to @dirfd (AT_FDCWD for a path) and reads its
 * header. Takes @path, the file on disk. The name to parse is @name, or the
 * entry's base name. @listed: the scan has just seen a regular file there
 * (ovi_regular_file_open_listed()). */
OviDumpFile *
ovi_dump_file_load_at (int dirfd,
                       const char *entry,
                       char *path,
                       const char *name,
                       OviFileName *parsed,
                       gboolean listed,
                       gboolean keep_small,
                       GError **error)
{
  g_autoptr (OviDumpFile) self = NULL;
  g_autoptr (GError) local_error = NULL;
  struct stat st;
  int fd;
  gboolean ok;

  self = g_object_new (OVI_TYPE_DUMP_FILE, NULL);
  self->path = path;
  self->name = name ? g_strdup (name) : g_path_get_basename (path);
  if (parsed)
    {
      /* The caller parsed @name already, as it listed the folder. */
      self->file_name = *parsed;
      memset (parsed, 0, sizeof *parsed);
    }
  else if (!ovi_file_name_parse (self->name, &self->file_name))
    {
      /* A renamed file can still be read; it just has no name fields. */
      self->file_name.op_type = g_strdup ("");
      self->file_name.op_name = g_strdup ("");
    }

  fd = listed ? ovi_regular_file_open_listed (dirfd, entry, &st, &local_error)
              : ovi_regular_file_open (dirfd, entry, &st, &local_error);
  if (fd < 0)
    {
      g_set_error_literal (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO,
                           local_error->message);
      return NULL;
    }
  self->file_size = st.st_size;
  self->mtime = (guint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
  self->header.file_size = self->file_size;
  self->header.named_as_dump = self->file_name.kind != OVI_FILE_KIND_NONE;
  self->header.keep_at_most = keep_small ? KEEP_WHOLE : 0;
  ok = ovi_dump_header_read (&self->header, fd, error);
  close (fd);
  if (!ok)
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * ovi_dump_file_load:
 * @path: the file on disk
 * @name: (nullable): the name to parse, when mapping.csv restores a long one
 *
 * Reads the name and the header of an op dump or overflow file, not its data.
 *
 * Returns: (transfer full): the file, or %NULL with @error saying what is wrong
 */
OviDumpFile *
ovi_dump_file_load (const char *path, const char *name, GError **error)
{
  g_autofree char *base = g_path_get_basename (path);
  OviDumpFile *self;

  g_return_val_if_fail (path != NULL, NULL);

  if ((self =
           ovi_dump_file_load_at (AT_FDCWD, path, g_strdup (path), name, NULL, FALSE, TRUE, error)))
    ovi_dump_file_set_location (self, base);
  return self;
}

static void
infer_hierarchy (OviDumpFile *self)
{
  char *values[4];

  ovi_path_infer_hierarchy (self->path, values);
  g_clear_pointer (&self->time, g_ref_string_release);
  g_clear_pointer (&self->device, g_ref_string_release);
  g_clear_pointer (&self->model, g_ref_string_release);
  g_clear_pointer (&self->iteration, g_ref_string_release);
  self->time = g_ref_string_new (values[0]);
  self->device = g_ref_string_new (values[1]);
  self->model = g_ref_string_new (values[2]);
  self->iteration = g_ref_string_new (values[3]);
  for (guint i = 0; i < 4; i++)
    g_free (values[i]);
}

/**
 * ovi_dump_file_set_location:
 * @relative_path: the path below the opened folder, on disk
 */
void
ovi_dump_file_set_location (OviDumpFile *self, const char *relative_path)
{
  g_autofree char *dir = g_path_get_dirname (relative_path);

  g_free (self->relative_path);
  self->relative_path = g_strdup (relative_path);
  g_clear_pointer (&self->relative_dir, g_ref_string_release);
  self->relative_dir = g_ref_string_new (g_str_equal (dir, ".") ? "" : dir);
  infer_hierarchy (self);
}

/* Like ovi_dump_file_set_location() with the hierarchy of a sibling in
 * the same folder, which is the same. */
void
ovi_dump_file_set_location_like (OviDumpFile *self, const char *relative_path, OviDumpFile *sibling)
{
  g_free (self->relative_path);
  self->relative_path = g_strdup (relative_path);
  g_clear_pointer (&self->relative_dir, g_ref_string_release);
  self->relative_dir = g_ref_string_acquire (sibling->relative_dir);
  self->root = sibling->root;
  self->root_prefix = sibling->root_prefix;
  g_clear_pointer (&self->time, g_ref_string_release);
  self->time = g_ref_string_acquire (sibling->time);
  g_clear_pointer (&self->device, g_ref_string_release);
  self->device = g_ref_string_acquire (sibling->device);
  g_clear_pointer (&self->model, g_ref_string_release);
  self->model = g_ref_string_acquire (sibling->model);
  g_clear_pointer (&self->iteration, g_ref_string_release);
  self->iteration = g_ref_string_acquire (sibling->iteration);
}

/**
 * ovi_dump_file_open_range:
 *
 * Opens the file for reading @size bytes at @offset, after checking that
 * it still has the size it had when it was listed.
 *
 * Returns: a file descriptor, or -1 with @error set
 */
int
ovi_dump_file_open_range (OviDumpFile *self, guint64 offset, guint64 size, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  struct stat st;
  int fd;

  if (offset > self->file_size || size > self->file_size - offset)
    {
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_CHANGED,
                   _ ("%s changed size since it was listed"), self->relative_path);
      return -1;
    }
  if ((fd = ovi_regular_file_open (AT_FDCWD, self->path, NULL, &local_error)) < 0)
    {
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO, _ ("cannot read %s: %s"),
                   self->relative_path, local_error->message);
      return -1;
    }
  if (fstat (fd, &st) != 0 || (guint64) st.st_size != self->file_size)
    {
      close (fd);
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_CHANGED,
                   _ ("%s changed size since it was listed"), self->relative_path);
      return -1;
    }
  return fd;
}

static GBytes *
read_range (OviDumpFile *self, guint64 offset, guint64 size, GError **error)
{
  g_autofree guint8 *buf = NULL;
  g_autoptr (GError) local_error = NULL;
  int fd = ovi_dump_file_open_range (self, offset, size, error);

  if (fd < 0)
    return NULL;
  if (size == 0)
    {
      close (fd);
      return g_bytes_new (NULL, 0);
    }
  /* size is at most the file's size, checked above. */
  if (!(buf = g_try_malloc (size)))
    {
      close (fd);
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_IO,
                   _ ("%s: not enough memory for %" PRIu64 " bytes"), self->relative_path, size);
      return NULL;
    }
  if (!ovi_dump_header_read_at (fd, buf, size, offset, &local_error))
    {
      close (fd);
      g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_CHANGED, "%s: %s",
                   self->relative_path, local_error->message);
      return NULL;
    }
  close (fd);
  return g_bytes_new_take (g_steal_pointer (&buf), size);
}

/**
 * ovi_dump_file_map_range:
 *
 * Reads @size bytes at @offset. Read rather than mapped: a mapping of a
 * file that someone truncates meanwhile kills the process with SIGBUS,
 * a read just comes up short and says so.
 */
GBytes *
ovi_dump_file_map_range (OviDumpFile *self, guint64 offset, guint64 size, GError **error)
{
  if (size == 0)
    return g_bytes_new (NULL, 0);
  return read_range (self, offset, size, error);
}

GBytes *
ovi_dump_file_load_inline_data (OviDumpFile *self, OviTensorKind kind, guint index, GError **error)
{
  /* From memory rather than a mapping, which a truncation would turn into
   * SIGBUS. */
  g_autoptr (GBytes) whole = read_range (self, 0, self->file_size, error);
  gboolean parsed = FALSE;
  GBytes *bytes;

  if (whole == NULL)
    return NULL;
  bytes = ovi_dump_header_inline_data (g_bytes_get_data (whole, NULL), g_bytes_get_size (whole),
                                       kind, index, &parsed);
  if (bytes == NULL)
    g_set_error (error, OVI_DUMP_FILE_ERROR, OVI_DUMP_FILE_ERROR_CHANGED,
                 parsed ? _ ("%s changed since it was listed") : _ ("%s no longer parses"),
                 self->relative_path);
  return bytes;
}

/* The 2048-byte payload of an overflow file: its only output. */
GBytes *
ovi_dump_file_dup_overflow_payload (OviDumpFile *self, GError **error)
{
  GPtrArray *tensors = ovi_dump_file_get_tensors (self);

  for (guint i = 0; i < tensors->len; i++)
    {
      OviTensor *t = g_ptr_array_index (tensors, i);
      if (ovi_tensor_get_kind (t) == OVI_TENSOR_OUTPUT)
        return ovi_tensor_load_data (t, error);
    }
  g_set_error_literal (error, OVI_OVERFLOW_ERROR, OVI_OVERFLOW_ERROR_PAYLOAD_SIZE,
                       _ ("the overflow file has no output holding the 2048-byte record"));
  return NULL;
}

const char *
ovi_dump_file_get_path (OviDumpFile *self)
{
  return self->path;
}

const char *
ovi_dump_file_get_name (OviDumpFile *self)
{
  return self->name;
}

const char *
ovi_dump_file_get_relative_path (OviDumpFile *self)
{
  return self->relative_path;
}

const char *
ovi_dump_file_get_relative_dir (OviDumpFile *self)
{
  return self->relative_dir;
}

/**
 * ovi_dump_file_set_root:
 * @root: the index of the root, in a folder opened with several
 * @prefix: bytes at the start of the relative path that name that root
 *   (its name and a "/"), 0 when the folder has one root
 */
void
ovi_dump_file_set_root (OviDumpFile *self, guint root, guint prefix)
{
  g_return_if_fail (prefix <= strlen (self->relative_path));
  self->root = root;
  self->root_prefix = prefix;
}

guint
ovi_dump_file_get_root (OviDumpFile *self)
{
  return self->root;
}

/* The name of the root that holds the file, as its relative path starts
 * (ovi_dump_folder_get_root_name()); %NULL in a folder with one root. */
char *
ovi_dump_file_dup_root_name (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), NULL);
  return self->root_prefix > 0 ? g_strndup (self->relative_path, self->root_prefix - 1) : NULL;
}

/* The relative path below the file's own root, as a report of that root
 * alone has it. */
const char *
ovi_dump_file_get_path_in_root (OviDumpFile *self)
{
  return self->relative_path + self->root_prefix;
}

const char *
ovi_dump_file_get_dir_in_root (OviDumpFile *self)
{
  gsize n = strlen (self->relative_dir);

  /* The root's own folder: its name without the "/". */
  return self->root_prefix > n ? "" : self->relative_dir + self->root_prefix;
}

const OviFileName *
ovi_dump_file_get_file_name (OviDumpFile *self)
{
  return &self->file_name;
}

OviFileKind
ovi_dump_file_get_kind (OviDumpFile *self)
{
  return self->file_name.kind;
}

OviLayout
ovi_dump_file_get_layout (OviDumpFile *self)
{
  return self->header.layout;
}

const char *
ovi_dump_file_get_op_type (OviDumpFile *self)
{
  return self->file_name.op_type;
}

/**
 * ovi_dump_file_get_op_name:
 * Returns: the op name stored inside the file, or the one from the file name
 *   when the header has none
 */
const char *
ovi_dump_file_get_op_name (OviDumpFile *self)
{
  return self->header.op_name && *self->header.op_name ? self->header.op_name
                                                       : self->file_name.op_name;
}

const char *
ovi_dump_file_get_version (OviDumpFile *self)
{
  return self->header.version;
}

guint64
ovi_dump_file_get_dump_time (OviDumpFile *self)
{
  return self->header.dump_time;
}

/**
 * ovi_dump_file_get_dfx_message:
 * Returns: (nullable): the header's `dfx_message` (newer schema), or %NULL
 *   when it has none
 */
const char *
ovi_dump_file_get_dfx_message (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), NULL);
  return self->header.dfx_message;
}

/**
 * ovi_dump_file_get_n_attrs:
 * Returns: how many `attr` entries (name and value strings) the header has
 */
guint
ovi_dump_file_get_n_attrs (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), 0);
  return self->header.attrs ? g_strv_length (self->header.attrs) / 2 : 0;
}

/**
 * ovi_dump_file_get_attr:
 * @name: (out) (optional): the attr's name
 * @value: (out) (optional): its value
 *
 * The header's attr number @index, in the order the header lists them.
 */
void
ovi_dump_file_get_attr (OviDumpFile *self, guint index, const char **name, const char **value)
{
  g_return_if_fail (index < ovi_dump_file_get_n_attrs (self));
  if (name)
    *name = self->header.attrs[2 * index];
  if (value)
    *value = self->header.attrs[2 * index + 1];
}

/**
 * ovi_dump_file_dup_attrs_text:
 * Returns: (transfer full): "name=value" for each attr, a %NULL-terminated
 *   array (empty when there are none)
 */
GStrv
ovi_dump_file_dup_attrs_text (OviDumpFile *self)
{
  guint n = ovi_dump_file_get_n_attrs (self);
  GStrv text = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    text[i] = g_strdup_printf ("%s=%s", self->header.attrs[2 * i], self->header.attrs[2 * i + 1]);
  return text;
}

guint64
ovi_dump_file_get_task_id (OviDumpFile *self)
{
  return self->file_name.task_id;
}

guint64
ovi_dump_file_get_stream_id (OviDumpFile *self)
{
  return self->file_name.stream_id;
}

guint64
ovi_dump_file_get_timestamp (OviDumpFile *self)
{
  return self->file_name.timestamp;
}

guint64
ovi_dump_file_get_file_size (OviDumpFile *self)
{
  return self->file_size;
}

/**
 * ovi_dump_file_get_tensors:
 * Returns: (transfer none) (element-type OviTensor): inputs, outputs,
 *   buffers, workspaces in that order
 */
GPtrArray *
ovi_dump_file_get_tensors (OviDumpFile *self)
{
  if (self->slices && g_once_init_enter (&self->tensors))
    {
      /* Kind by kind, slice by slice within a kind. */
      GPtrArray *tensors = g_ptr_array_new_with_free_func (g_object_unref);
      for (OviTensorKind kind = OVI_TENSOR_INPUT; kind <= OVI_TENSOR_SPACE; kind++)
        for (guint s = 0; s < self->slices->len; s++)
          {
            GPtrArray *st = ovi_dump_file_get_tensors (g_ptr_array_index (self->slices, s));
            for (guint i = 0; i < st->len; i++)
              if (ovi_tensor_get_kind (g_ptr_array_index (st, i)) == kind)
                g_ptr_array_add (tensors, g_object_ref (g_ptr_array_index (st, i)));
          }
      g_once_init_leave (&self->tensors, tensors);
    }
  if (g_once_init_enter (&self->tensors))
    {
      GPtrArray *tensors = g_ptr_array_new_full (self->header.infos->len, g_object_unref);
      const guint64 *dims = (const guint64 *) (gconstpointer) self->header.dims->data;

      for (guint i = 0; i < self->header.infos->len; i++)
        {
          const OviTensorInfo *t = &g_array_index (self->header.infos, OviTensorInfo, i);
          OviTensor *tensor = ovi_tensor_new (self, t->kind, t->index, t->dtype, t->format,
                                              t->n_dims ? dims + t->dims_start : NULL, t->n_dims,
                                              t->n_original ? dims + t->original_start : NULL,
                                              t->n_original, t->size, t->offset);
          ovi_tensor_set_schema_fields (tensor, t->arg_index, t->input_type, t->space_type);
          ovi_tensor_set_address (tensor, t->address);
          if (self->statistics)
            ovi_tensor_set_statistics (tensor, g_ptr_array_index (self->statistics, i));
          g_ptr_array_add (tensors, tensor);
        }
      g_once_init_leave (&self->tensors, tensors);
    }
  return self->tensors;
}

guint
ovi_dump_file_count_tensors (OviDumpFile *self, OviTensorKind kind)
{
  guint n = 0;
  for (guint i = 0; self->slices && i < self->slices->len; i++)
    n += ovi_dump_file_count_tensors (g_ptr_array_index (self->slices, i), kind);
  for (guint i = 0; i < self->header.infos->len; i++)
    if (g_array_index (self->header.infos, OviTensorInfo, i).kind == kind)
      n++;
  return n;
}

/**
 * ovi_dump_file_get_blame:
 * Returns: the operator's class as ovi_classifier_classify() found it, or
 *   %OVI_BLAME_UNKNOWN before; any thread
 */
OviBlame
ovi_dump_file_get_blame (OviDumpFile *self)
{
  return g_atomic_int_get (&self->blame);
}

/* Any thread: the classifier's verdict. */
void
ovi_dump_file_set_blame (OviDumpFile *self, OviBlame blame)
{
  g_atomic_int_set (&self->blame, blame);
}

/* Keeps the first summary made, which it takes; a second thread's copy is
 * dropped. */
void
ovi_dump_file_set_summary (OviDumpFile *self, OviOpSummary *summary)
{
  if (!g_atomic_pointer_compare_and_exchange (&self->summary, NULL, summary))
    g_free (summary);
}

/**
 * ovi_dump_file_take_contents:
 *
 * The whole file as the read of its header found it, when it was small
 * enough to be kept (new layout only); any thread, once: the first caller
 * takes it.
 *
 * Returns: (transfer full) (nullable): the file's bytes, or %NULL
 */
GBytes *
ovi_dump_file_take_contents (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), NULL);
  return g_atomic_pointer_exchange (&self->header.whole, NULL);
}

/**
 * ovi_dump_file_get_summary:
 * Returns: (nullable): the summary, or %NULL until ovi_classifier_summarize()
 *   has made it
 */
const OviOpSummary *
ovi_dump_file_get_summary (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), NULL);
  return g_atomic_pointer_get (&self->summary);
}

/* On the main context, once the summary is there. */
void
ovi_dump_file_notify_summary (OviDumpFile *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  for (guint p = PROP_ANALYZED; p <= PROP_ABNORMAL; p++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[p]);
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
ovi_dump_file_get_time (OviDumpFile *self)
{
  return self->time;
}

const char *
ovi_dump_file_get_device (OviDumpFile *self)
{
  return self->device;
}

const char *
ovi_dump_file_get_model (OviDumpFile *self)
{
  return self->model;
}

const char *
ovi_dump_file_get_iteration (OviDumpFile *self)
{
  return self->iteration;
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const OviStatisticRow *ra = *(const OviStatisticRow *const *) a;
  const OviStatisticRow *rb = *(const OviStatisticRow *const *) b;

  if (ra->kind != rb->kind)
    return ra->kind < rb->kind ? -1 : 1;
  if (ra->index != rb->index)
    return ra->index < rb->index ? -1 : 1;
  return ra->line < rb->line ? -1 : (ra->line > rb->line);
}

/**
 * ovi_dump_file_new_statistics:
 * @path: the statistics file on disk (a ".csv")
 * @name: the op dump name the statistics stand for
 * @op_name: (nullable): the original op name, when the file gives it
 * @rows: (transfer full) (element-type OviStatisticRow): the tensors of
 *   this operator, owned by the array; a tensor named twice (a file
 *   appended to) counts once, the first time
 *
 * An op dump file of a statistics-mode dump: its tensors carry the
 * statistics and no data.
 */
OviDumpFile *
ovi_dump_file_new_statistics (
    const char *path, const char *name, const char *op_name, guint64 file_size, GPtrArray *rows)
{
  OviDumpFile *self = g_object_new (OVI_TYPE_DUMP_FILE, NULL);
  g_autoptr (GPtrArray) sorted = rows;

  self->path = g_strdup (path);
  self->name = g_strdup (name);
  if (!ovi_file_name_parse (self->name, &self->file_name))
    {
      self->file_name.op_type = g_strdup ("");
      self->file_name.op_name = g_strdup ("");
    }
  self->header.op_name = g_strdup (op_name);
  self->file_size = file_size;
  self->header.layout = OVI_LAYOUT_NEW;
  self->statistics = g_ptr_array_new_with_free_func ((GDestroyNotify) ovi_statistic_row_free);
  g_ptr_array_set_free_func (sorted, NULL);
  g_ptr_array_sort (sorted, compare_rows);
  for (guint i = 0; i < sorted->len; i++)
    {
      OviStatisticRow *row = g_ptr_array_index (sorted, i);
      OviTensorInfo info = { row->kind,
                             row->index,
                             row->dtype,
                             row->format,
                             self->header.dims->len,
                             row->shape->len,
                             self->header.dims->len + row->shape->len,
                             0,
                             row->size,
                             0 };

      if (i > 0)
        {
          const OviStatisticRow *prev =
              g_ptr_array_index (self->statistics, self->statistics->len - 1);
          if (prev->kind == row->kind && prev->index == row->index)
            {
              ovi_statistic_row_free (row);
              continue;
            }
        }
      g_array_append_vals (self->header.dims, row->shape->data, row->shape->len);
      g_array_append_val (self->header.infos, info);
      g_ptr_array_add (self->statistics, row);
    }
  return self;
}

/**
 * ovi_dump_file_get_statistics_only:
 *
 * Returns: whether the file is a statistics-mode dump: tensors with
 *   statistics and no data (ovi_tensor_get_statistics_only())
 */
gboolean
ovi_dump_file_get_statistics_only (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), FALSE);
  return self->statistics != NULL;
}

static int
compare_slices (gconstpointer a, gconstpointer b)
{
  const OviFileName *na = &(*(OviDumpFile *const *) a)->file_name;
  const OviFileName *nb = &(*(OviDumpFile *const *) b)->file_name;

  if (na->thread_id != nb->thread_id)
    return na->thread_id < nb->thread_id ? -1 : 1;
  return na->timestamp < nb->timestamp ? -1 : (na->timestamp > nb->timestamp);
}

/**
 * ovi_dump_file_new_group:
 * @slices: (element-type OviDumpFile): two or more FFTS+ thread slices of
 *   one execution (same op type, op name, task, stream and context id), in
 *   one folder
 *
 * One operator for the slices of one execution: its name, location and
 * fields are those of its earliest slice, its tensors all the slices'
 * (ovi_dump_file_get_slices() lists them, by thread id).
 */
OviDumpFile *
ovi_dump_file_new_group (GPtrArray *slices)
{
  OviDumpFile *self = g_object_new (OVI_TYPE_DUMP_FILE, NULL);
  OviDumpFile *first;

  g_return_val_if_fail (slices->len >= 2, NULL);
  self->slices = g_ptr_array_copy (slices, (GCopyFunc) g_object_ref, NULL);
  g_ptr_array_set_free_func (self->slices, g_object_unref);
  g_ptr_array_sort (self->slices, compare_slices);
  first = g_ptr_array_index (self->slices, 0);
  for (guint i = 0; i < self->slices->len; i++)
    {
      OviDumpFile *s = g_ptr_array_index (self->slices, i);
      s->is_slice = TRUE;
      self->file_size += s->file_size;
      if (s->file_name.timestamp < first->file_name.timestamp)
        first = s;
    }
  self->path = g_strdup (first->path);
  self->name = g_strdup (first->name);
  self->file_name = first->file_name;
  self->file_name.op_type = g_strdup (first->file_name.op_type);
  self->file_name.op_name = g_strdup (first->file_name.op_name);
  self->header.layout = first->header.layout;
  self->header.version = ovi_dump_header_copy_version (first->header.version);
  self->header.op_name = g_strdup (first->header.op_name);
  self->header.dump_time = first->header.dump_time;
  ovi_dump_file_set_location_like (self, first->relative_path, first);
  return self;
}

/**
 * ovi_dump_file_get_slices:
 *
 * FFTS+ runs one operator as several thread slices, each dumped as a file
 * with `.{context_id}.{thread_id}` in its name; the folder lists the slices
 * of one execution as one operator whose tensors are all of theirs.
 *
 * Returns: (transfer none) (nullable) (element-type OviDumpFile): the
 *   slices by thread id, or %NULL for a file that is not such a group
 */
GPtrArray *
ovi_dump_file_get_slices (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), NULL);
  return self->slices;
}

/**
 * ovi_dump_file_get_is_slice:
 * Returns: whether the file is one thread slice of a group (its tensors are
 *   listed by the group, labelled with their thread id)
 */
gboolean
ovi_dump_file_get_is_slice (OviDumpFile *self)
{
  g_return_val_if_fail (OVI_IS_DUMP_FILE (self), FALSE);
  return self->is_slice;
}

/* When the file was last written, in µs, as it was when it was loaded. */
gint64
ovi_dump_file_get_mtime_us (OviDumpFile *self)
{
  return (gint64) self->mtime;
}
