/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ovi-analysis.h"
#include "ovi-dtype.h"
#include "ovi-error.h"
#include "ovi-layout.h"
#include "ovi-regular-file.h"
#include "ovi-statistic-csv.h"
#include "ovi-worker.h"

/* Below this many elements one thread does the whole tensor. */
#define PARALLEL_THRESHOLD (1u << 20)

/* Tensors in files are read this many bytes at a time into a buffer that
 * stays in the processor's cache, never whole. */
#define CHUNK_BYTES (1u << 22)

/* How many values either side of the first non-finite one are kept. */
#define NEIGHBOURS 4

/* Statistics of a tensor in one pass over its bytes. Types of 16 bits or
 * fewer have at most 65536 distinct values: the pass only counts bit
 * patterns, and every statistic and any histogram follow from the counts
 * exactly, without converting an element in the hot loop. */
typedef struct
{
  GBytes *bytes; /* the tensor in memory, or */
  char *path;    /* a range of a file that must keep its size */
  char *name;    /* the file, in messages */
  guint64 offset;
  guint64 file_size;
} Source;

struct _OviAnalysis
{
  gatomicrefcount ref_count;
  OviDtype dtype;
  guint bits; /* per element */
  Source source;
  guint64 count;        /* elements the statistics are over: logical ones */
  guint64 stored_count; /* elements the source holds, padding included */
  OviLayoutMap *map;    /* a device layout: where logical elements are stored */
  gint64 window_start;  /* values around the first non-finite one */
  guint window_length;
  double window[2 * NEIGHBOURS + 1];
  OviStats stats;
  double range_min; /* finite values that are not saturated */
  double range_max;
  guint pattern_bits;       /* 16, 8, 4 for counted types; 0 otherwise */
  guint64 *table;           /* 1 << pattern_bits counts */
  gboolean statistics_only; /* stats as a statistics dump gave them, no values */
};

typedef struct
{
  guint64 finite, nan, pos_inf, neg_inf, zeros, saturated;
  double min, max, range_min, range_max;
  long double sum, sumsq; /* long double: float64 values near 1e308 square past double */
  gint64 first_nan, first_pos_inf, first_neg_inf, first_saturated;
} Partial;

static void
partial_init (Partial *p)
{
  memset (p, 0, sizeof *p);
  p->min = p->range_min = INFINITY;
  p->max = p->range_max = -INFINITY;
  p->first_nan = p->first_pos_inf = p->first_neg_inf = p->first_saturated = -1;
}

static inline gint64
first_of (gint64 a, gint64 b)
{
  if (a < 0)
    return b;
  if (b < 0)
    return a;
  return MIN (a, b);
}

static void
partial_merge (Partial *into, const Partial *p)
{
  into->finite += p->finite;
  into->nan += p->nan;
  into->pos_inf += p->pos_inf;
  into->neg_inf += p->neg_inf;
  into->zeros += p->zeros;
  into->saturated += p->saturated;
  into->min = MIN (into->min, p->min);
  into->max = MAX (into->max, p->max);
  into->range_min = MIN (into->range_min, p->range_min);
  into->range_max = MAX (into->range_max, p->range_max);
  into->sum += p->sum;
  into->sumsq += p->sumsq;
  into->first_nan = first_of (into->first_nan, p->first_nan);
  into->first_pos_inf = first_of (into->first_pos_inf, p->first_pos_inf);
  into->first_neg_inf = first_of (into->first_neg_inf, p->first_neg_inf);
  into->first_saturated = first_of (into->first_saturated, p->first_saturated);
}

/* The logical index of stored element @index: the same without a map. */
static inline gint64
logical_index (const OviLayoutMap *map, gint64 index)
{
  return map ? (gint64) ovi_layout_map_to_logical (map, index) : index;
}

/* Adds @n copies of value @v stored at @index, relative to @shift. The
 * first of each kind is the lowest logical index: with a map, stored
 * order is not logical order. */
static inline void
partial_add (Partial *p,
             double v,
             guint64 n,
             gint64 index,
             double shift,
             double sat,
             const OviLayoutMap *map)
{
  if (G_UNLIKELY (isnan (v)))
    {
      p->nan += n;
      if (p->first_nan < 0 || map)
        p->first_nan = first_of (p->first_nan, logical_index (map, index));
      return;
    }
  if (G_UNLIKELY (isinf (v)))
    {
      if (v > 0)
        {
          p->pos_inf += n;
          if (p->first_pos_inf < 0 || map)
            p->first_pos_inf = first_of (p->first_pos_inf, logical_index (map, index));
        }
      else
        {
          p->neg_inf += n;
          if (p->first_neg_inf < 0 || map)
            p->first_neg_inf = first_of (p->first_neg_inf, logical_index (map, index));
        }
      return;
    }
  p->finite += n;
  p->min = MIN (p->min, v);
  p->max = MAX (p->max, v);
  if (v == 0)
    p->zeros += n;
  if (G_UNLIKELY (sat > 0 && fabs (v) == sat))
    {
      p->saturated += n;
      if (p->first_saturated < 0 || map)
        p->first_saturated = first_of (p->first_saturated, logical_index (map, index));
    }
  else
    {
      p->range_min = MIN (p->range_min, v);
      p->range_max = MAX (p->range_max, v);
    }
  {
    long double d = (long double) v - shift;
    p->sum += d * n;
    p->sumsq += d * d * n;
  }
}

/* Counting patterns pays off once a tensor has many more elements than
 * the type has values; small tensors are decoded element by element. */
static guint
pattern_bits_for (OviDtype dtype, guint64 count)
{
  guint bits = ovi_dtype_bits (dtype);

  if (bits <= 16 && count < 4 * ((guint64) 1 << bits))
    return 0;
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT16:
    case OVI_DTYPE_BFLOAT16:
    case OVI_DTYPE_INT16:
    case OVI_DTYPE_UINT16:
      return 16;
    case OVI_DTYPE_INT8:
    case OVI_DTYPE_UINT8:
    case OVI_DTYPE_BOOL:
    case OVI_DTYPE_FLOAT8_E5M2:
    case OVI_DTYPE_FLOAT8_E4M3FN:
    case OVI_DTYPE_FLOAT8_E8M0:
    case OVI_DTYPE_HIFLOAT8:
      return 8;
    case OVI_DTYPE_INT4:
      return 4;
    default:
      return 0;
    }
}

/* Reads a source a chunk at a time; one per thread. */
typedef struct
{
  const OviAnalysis *analysis;
  int fd;
  guint8 *buffer;
} Reader;

static gboolean
reader_open (Reader *r, const OviAnalysis *analysis, GError **error)
{
  const Source *src = &analysis->source;
  g_autoptr (GError) local_error = NULL;
  struct stat st;

  r->analysis = analysis;
  r->fd = -1;
  r->buffer = NULL;
  if (src->bytes != NULL)
    return TRUE;
  if ((r->fd = ovi_regular_file_open (AT_FDCWD, src->path, NULL, &local_error)) < 0)
    {
      g_set_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_READ, _ ("cannot read %s: %s"),
                   src->name, local_error->message);
      return FALSE;
    }
  if (fstat (r->fd, &st) != 0 || (guint64) st.st_size != src->file_size)
    {
      g_set_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_READ,
                   _ ("%s changed size since it was listed"), src->name);
      return FALSE;
    }
  return TRUE;
}

static void
reader_close (Reader *r)
{
  if (r->fd >= 0)
    close (r->fd);
  r->fd = -1;
  g_clear_pointer (&r->buffer, g_free);
}

/* Elements [@start, @start + @n) (@start even for int4, @n at most a
 * chunk): a pointer to their bytes, valid until the next call. */
static const guint8 *
reader_get (Reader *r, guint64 start, guint64 n, GError **error)
{
  const Source *src = &r->analysis->source;
  guint bits = r->analysis->bits;
  guint64 at = start * bits / 8, length = (n * bits + 7) / 8, done = 0;

  if (src->bytes != NULL)
    return (const guint8 *) g_bytes_get_data (src->bytes, NULL) + at;
  g_assert (length <= CHUNK_BYTES);
  /* A chunk, or the whole tensor when it is smaller (most are). */
  if (r->buffer == NULL)
    r->buffer = g_malloc (MIN (CHUNK_BYTES, (r->analysis->stored_count * bits + 7) / 8));
  while (done < length)
    {
      gssize got = pread (r->fd, r->buffer + done, length - done, src->offset + at + done);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        {
          int saved = errno;
          g_set_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_READ, _ ("cannot read %s: %s"),
                       src->name, got < 0 ? g_strerror (saved) : _ ("the file shrank"));
          return NULL;
        }
      done += got;
    }
  return r->buffer;
}

/* Elements a chunk holds, even so that int4 chunks start on a byte. */
static guint64
chunk_elements (const OviAnalysis *self)
{
  return (guint64) CHUNK_BYTES * 8 / self->bits / 2 * 2;
}

typedef struct
{
  const OviAnalysis *analysis;
  guint64 start, end;
  double shift;
  Partial partial;
  guint64 *table;
  GError *error;
} Job;

/* Pattern counting: two interleaved tables keep runs of one value from
 * waiting on their own increments (four tables, or splitting 64-bit loads,
 * measured slower here). 32-bit counters, flushed after every chunk, long
 * before they could wrap. */
static void
count_patterns (guint bits, const guint8 *d, guint64 n, guint32 *t0, guint32 *t1)
{
  guint64 i = 0;

  if (bits == 16)
    {
      for (; i + 1 < n; i += 2)
        {
          t0[ovi_load_u16 (d, i)]++;
          t1[ovi_load_u16 (d, i + 1)]++;
        }
    }
  else if (bits == 8)
    {
      for (; i + 1 < n; i += 2)
        {
          t0[d[i]]++;
          t1[d[i + 1]]++;
        }
    }
  for (; i < n; i++)
    t0[ovi_load_pattern (bits, d, i)]++;
}

/* Elements @base .. @base + @n, whose bytes are @d. */
static void
scan_values (Partial *p,
             OviDtype dtype,
             const guint8 *d,
             guint64 n,
             guint64 base,
             double shift,
             const OviLayoutMap *map)
{
  double sat = ovi_dtype_max_finite (dtype);

  if (dtype == OVI_DTYPE_FLOAT32)
    {
      /* The common case: blocks without NaN, Inf or saturated values take a
       * tight loop with double sums; the rare others go element by element. */
      for (guint64 i = 0; i < n;)
        {
          guint64 stop = MIN (n, i + 4096);
          gboolean special = FALSE;

          for (guint64 j = i; j < stop; j++)
            {
              guint32 bits = ovi_load_u32 (d, j) & 0x7fffffffu;
              special |= bits >= 0x7f7fffffu;
            }
          if (special)
            for (guint64 j = i; j < stop; j++)
              partial_add (p, ovi_load_f32 (d, j), 1, base + j, shift, sat, map);
          else
            {
              double sum = 0, sumsq = 0;
              float mn = INFINITY, mx = -INFINITY;
              guint64 zeros = 0;

              for (guint64 j = i; j < stop; j++)
                {
                  float v = ovi_load_f32 (d, j);
                  double dv = (double) v - shift;
                  sum += dv;
                  sumsq += dv * dv;
                  mn = v < mn ? v : mn;
                  mx = v > mx ? v : mx;
                  zeros += v == 0;
                }
              p->finite += stop - i;
              p->zeros += zeros;
              p->sum += sum;
              p->sumsq += sumsq;
              p->min = MIN (p->min, mn);
              p->max = MAX (p->max, mx);
              p->range_min = MIN (p->range_min, mn);
              p->range_max = MAX (p->range_max, mx);
            }
          i = stop;
        }
    }
  else
    for (guint64 i = 0; i < n; i++)
      partial_add (p, ovi_load_value (dtype, d, i), 1, base + i, shift, sat, map);
}

/* One thread's share: [start, end) a chunk at a time. */
static void
run_share (Job *job)
{
  const OviAnalysis *self = job->analysis;
  guint bits = self->pattern_bits;
  gsize n_patterns = (gsize) 1 << bits;
  g_autofree guint32 *t = bits ? g_new0 (guint32, 2 * n_patterns) : NULL;
  guint64 step = chunk_elements (self), pending = 0;
  Reader r;

  partial_init (&job->partial);
  if (bits)
    job->table = g_new0 (guint64, n_patterns);
  if (!reader_open (&r, self, &job->error))
    {
      reader_close (&r);
      return;
    }
  for (guint64 i = job->start; i < job->end; i += step)
    {
      guint64 n = MIN (step, job->end - i);
      const guint8 *d = reader_get (&r, i, n, &job->error);

      if (d == NULL)
        break;
      if (self->map)
        {
          /* Only the real elements, a run at a time. */
          gsize item = self->bits / 8;
          guint64 run_end;

          for (guint64 at = ovi_layout_map_next_run (self->map, i, i + n, &run_end); at < i + n;
               at = ovi_layout_map_next_run (self->map, run_end, i + n, &run_end))
            if (bits)
              count_patterns (bits, d + (at - i) * item, run_end - at, t, t + n_patterns);
            else
              scan_values (&job->partial, self->dtype, d + (at - i) * item, run_end - at, at,
                           job->shift, self->map);
          pending += n;
          if (bits && (pending + step > G_MAXUINT32 || i + n >= job->end))
            {
              for (gsize p = 0; p < n_patterns; p++)
                {
                  job->table[p] += (guint64) t[p] + t[n_patterns + p];
                  t[p] = t[n_patterns + p] = 0;
                }
              pending = 0;
            }
        }
      else if (bits)
        {
          count_patterns (bits, d, n, t, t + n_patterns);
          pending += n;
          if (pending + step > G_MAXUINT32 || i + n >= job->end)
            {
              for (gsize p = 0; p < n_patterns; p++)
                {
                  job->table[p] += (guint64) t[p] + t[n_patterns + p];
                  t[p] = t[n_patterns + p] = 0;
                }
              pending = 0;
            }
        }
      else
        scan_values (&job->partial, self->dtype, d, n, i, job->shift, NULL);
    }
  reader_close (&r);
}

static void
run_job (guint index, gpointer data)
{
  run_share (&((Job *) data)[index]);
}

/* Runs @jobs, shares of [0, count), on the worker pool. */
static void
run_parallel (Job *jobs, guint n_jobs)
{
  ovi_parallel_for (n_jobs, run_job, jobs, NULL);
}

static guint
n_jobs_for (guint64 count)
{
  if (count < PARALLEL_THRESHOLD)
    return 1;
  return ovi_worker_get_max_threads ();
}

static void
finish_stats (OviAnalysis *self, const Partial *p, double shift)
{
  OviStats *s = &self->stats;

  s->count = self->count;
  s->finite = p->finite;
  s->nan = p->nan;
  s->pos_inf = p->pos_inf;
  s->neg_inf = p->neg_inf;
  s->zeros = p->zeros;
  s->saturated = p->saturated;
  s->first_nan = p->first_nan;
  s->first_pos_inf = p->first_pos_inf;
  s->first_neg_inf = p->first_neg_inf;
  s->first_saturated = p->first_saturated;
  s->first_nonfinite = first_of (first_of (p->first_nan, p->first_pos_inf), p->first_neg_inf);
  if (p->finite > 0)
    {
      long double m = p->sum / p->finite;
      long double var = p->sumsq / p->finite - m * m;
      s->min = p->min;
      s->max = p->max;
      s->mean = (double) (shift + m);
      s->std = (double) sqrtl (MAX (var, 0.0L));
      s->max_abs = MAX (fabs (p->min), fabs (p->max));
    }
  else
    s->min = s->max = s->mean = s->std = s->max_abs = NAN;
  self->range_min = p->range_min;
  self->range_max = p->range_max;
}

/* Calls @func on elements from the first on, a chunk at a time (with a
 * map, a run of real elements at a time, @base their stored index), until
 * it returns FALSE or the tensor ends. */
static gboolean
walk (OviAnalysis *self,
      gboolean (*func) (OviAnalysis *, const guint8 *, guint64, guint64, gpointer),
      gpointer data,
      GError **error)
{
  guint64 step = chunk_elements (self);
  gboolean ok = TRUE;
  Reader r;

  if (!reader_open (&r, self, error))
    {
      reader_close (&r);
      return FALSE;
    }
  for (guint64 i = 0; i < self->stored_count; i += step)
    {
      guint64 n = MIN (step, self->stored_count - i);
      const guint8 *d = reader_get (&r, i, n, error);
      gboolean more = TRUE;

      if (d == NULL)
        {
          ok = FALSE;
          break;
        }
      if (self->map)
        {
          gsize item = self->bits / 8;
          guint64 run_end;

          for (guint64 at = ovi_layout_map_next_run (self->map, i, i + n, &run_end);
               more && at < i + n;
               at = ovi_layout_map_next_run (self->map, run_end, i + n, &run_end))
            more = func (self, d + (at - i) * item, run_end - at, at, data);
        }
      else
        more = func (self, d, n, i, data);
      if (!more)
        break;
    }
  reader_close (&r);
  return ok;
}

typedef struct
{
  gint8 *kind; /* per pattern: 0 nan, 1 +inf, 2 -inf, 3 saturated, -1 */
  gboolean need[4];
} FirstSearch;

static gboolean
find_firsts (OviAnalysis *self, const guint8 *d, guint64 n, guint64 base, gpointer data)
{
  FirstSearch *search = data;
  gint64 *first[] = { &self->stats.first_nan, &self->stats.first_pos_inf,
                      &self->stats.first_neg_inf, &self->stats.first_saturated };

  if (self->map)
    {
      /* Stored order is not logical order: every one is a candidate. */
      for (guint64 i = 0; i < n; i++)
        {
          gint8 k = search->kind[ovi_load_pattern (self->pattern_bits, d, i)];
          if (k >= 0 && search->need[k])
            *first[k] = first_of (*first[k], ovi_layout_map_to_logical (self->map, base + i));
        }
      return TRUE;
    }
  for (guint64 i = 0; i < n; i++)
    {
      gint8 k = search->kind[ovi_load_pattern (self->pattern_bits, d, i)];
      if (k >= 0 && search->need[k])
        {
          search->need[k] = FALSE;
          *first[k] = base + i;
          if (!(search->need[0] || search->need[1] || search->need[2] || search->need[3]))
            return FALSE;
        }
    }
  return TRUE;
}

/* From the pattern counts: exact, with a second pass over at most 65536
 * values for the deviations, and a scan from the start for the first index
 * of each kind of special value. */
static gboolean
stats_from_table (OviAnalysis *self, GError **error)
{
  gsize n_patterns = (gsize) 1 << self->pattern_bits;
  double sat = ovi_dtype_max_finite (self->dtype);
  long double sum = 0;
  guint64 finite = 0;
  Partial p;
  g_autofree gint8 *kind = NULL;
  FirstSearch search;

  for (gsize i = 0; i < n_patterns; i++)
    if (self->table[i])
      {
        double v = ovi_dtype_decode_pattern (self->dtype, i);
        if (isfinite (v))
          {
            sum += (long double) v * self->table[i];
            finite += self->table[i];
          }
      }

  partial_init (&p);
  {
    double mean = finite ? (double) (sum / finite) : 0;
    for (gsize i = 0; i < n_patterns; i++)
      if (self->table[i])
        partial_add (&p, ovi_dtype_decode_pattern (self->dtype, i), self->table[i], 0, mean, sat,
                     NULL);
    finish_stats (self, &p, mean);
  }

  kind = g_new (gint8, n_patterns);
  for (gsize i = 0; i < n_patterns; i++)
    {
      double v = ovi_dtype_decode_pattern (self->dtype, i);
      kind[i] = isnan (v) ? 0 : isinf (v) ? (v > 0 ? 1 : 2) : (sat > 0 && fabs (v) == sat) ? 3 : -1;
    }
  search.kind = kind;
  search.need[0] = p.nan > 0;
  search.need[1] = p.pos_inf > 0;
  search.need[2] = p.neg_inf > 0;
  search.need[3] = p.saturated > 0;
  self->stats.first_nan = self->stats.first_pos_inf = -1;
  self->stats.first_neg_inf = self->stats.first_saturated = -1;
  if ((search.need[0] || search.need[1] || search.need[2] || search.need[3]) &&
      !walk (self, find_firsts, &search, error))
    return FALSE;
  self->stats.first_nonfinite = first_of (
      first_of (self->stats.first_nan, self->stats.first_pos_inf), self->stats.first_neg_inf);
  return TRUE;
}

static gboolean
find_finite (OviAnalysis *self, const guint8 *d, guint64 n, guint64 base, gpointer data)
{
  for (guint64 i = 0; i < n; i++)
    {
      double v = ovi_load_value (self->dtype, d, i);
      if (isfinite (v))
        {
          *(double *) data = v;
          return FALSE;
        }
    }
  return TRUE;
}

/* The first finite value, which the sums are taken relative to. */
static gboolean
first_finite (OviAnalysis *self, double *value, GError **error)
{
  *value = 0;
  return walk (self, find_finite, value, error);
}

/* Keeps the values around the first non-finite one, which the tensor view
 * shows, so that they need no read of their own. */
static double
decode (const OviAnalysis *self, const guint8 *d, guint64 i)
{
  return self->pattern_bits
             ? ovi_dtype_decode_pattern (self->dtype, ovi_load_pattern (self->pattern_bits, d, i))
             : ovi_load_value (self->dtype, d, i);
}

static gboolean
keep_window (OviAnalysis *self, GError **error)
{
  gint64 first = self->stats.first_nonfinite;
  guint64 start, n;
  const guint8 *d = NULL;
  Reader r;

  if (first < 0)
    return TRUE;
  start = first > NEIGHBOURS ? (guint64) first - NEIGHBOURS : 0;
  start &= ~G_GUINT64_CONSTANT (1); /* int4 starts on a byte */
  n = MIN (self->count - start, G_N_ELEMENTS (self->window));
  if (!reader_open (&r, self, error))
    {
      reader_close (&r);
      return FALSE;
    }
  if (self->map)
    /* Logical neighbours: each is stored elsewhere. */
    for (guint64 i = 0; i < n; i++)
      {
        if (!(d = reader_get (&r, ovi_layout_map_to_stored (self->map, start + i), 1, error)))
          break;
        self->window[i] = decode (self, d, 0);
      }
  else if ((d = reader_get (&r, start, n, error)))
    for (guint64 i = 0; i < n; i++)
      self->window[i] = decode (self, d, i);
  reader_close (&r);
  if (d == NULL)
    return FALSE;
  self->window_start = start;
  self->window_length = n;
  return TRUE;
}

static gboolean
analyze (OviAnalysis *self, GError **error)
{
  guint64 count = self->stored_count;
  guint n_jobs = n_jobs_for (count);
  g_autofree Job *jobs = g_new0 (Job, n_jobs);
  double shift = 0;
  gboolean ok = TRUE;

  if (!self->pattern_bits && !first_finite (self, &shift, error))
    return FALSE;
  for (guint i = 0; i < n_jobs; i++)
    {
      jobs[i].analysis = self;
      /* Shares start on even elements: int4 packs two a byte. */
      jobs[i].start = count * i / n_jobs & ~G_GUINT64_CONSTANT (1);
      jobs[i].end = i + 1 < n_jobs ? count * (i + 1) / n_jobs & ~G_GUINT64_CONSTANT (1) : count;
      jobs[i].shift = shift;
    }
  run_parallel (jobs, n_jobs);
  for (guint i = 0; i < n_jobs; i++)
    if (jobs[i].error != NULL)
      {
        if (ok)
          g_propagate_error (error, g_steal_pointer (&jobs[i].error));
        g_clear_error (&jobs[i].error);
        ok = FALSE;
      }

  if (ok && self->pattern_bits)
    {
      gsize n_patterns = (gsize) 1 << self->pattern_bits;
      self->table = g_steal_pointer (&jobs[0].table);
      for (guint i = 1; i < n_jobs; i++)
        for (gsize p = 0; p < n_patterns; p++)
          self->table[p] += jobs[i].table[p];
      ok = stats_from_table (self, error);
    }
  else if (ok)
    {
      Partial total;
      partial_init (&total);
      for (guint i = 0; i < n_jobs; i++)
        partial_merge (&total, &jobs[i].partial);
      finish_stats (self, &total, shift);
    }
  for (guint i = 0; i < n_jobs; i++)
    g_free (jobs[i].table);
  return ok && keep_window (self, error);
}

static void
set_unsupported_error (GError **error, OviDtype dtype)
{
  g_autofree char *reason = ovi_dtype_dup_unsupported_reason (dtype);
  g_set_error_literal (error, OVI_STATS_ERROR, OVI_STATS_ERROR_UNSUPPORTED_DTYPE, reason);
}

/* @count stored elements, of which @map (nullable) says which are real
 * and where they sit logically. */
static OviAnalysis *
analysis_new (OviDtype dtype, guint64 count, const OviLayoutMap *map)
{
  OviAnalysis *self = g_new0 (OviAnalysis, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->dtype = dtype;
  self->bits = ovi_dtype_bits (dtype);
  self->stored_count = count;
  self->count = map ? ovi_layout_map_get_count (map) : count;
  self->map = map ? ovi_layout_map_copy (map) : NULL;
  self->pattern_bits = pattern_bits_for (dtype, count);
  return self;
}

/**
 * ovi_analysis_new_for_count:
 * @data: the tensor's bytes
 * @count: the number of elements (int4 packs two in a byte)
 *
 * Returns: (transfer full): the analysis, or %NULL when the type has no
 *   numeric decoding or @data is too short for @count elements
 */
OviAnalysis *
ovi_analysis_new_for_count (OviDtype dtype, GBytes *data, guint64 count, GError **error)
{
  return ovi_analysis_new_for_layout (dtype, data, count, NULL, error);
}

/**
 * ovi_analysis_new_for_layout:
 * @data: the tensor's bytes, @count elements as stored
 * @map: (nullable): where the logical elements of a device layout are
 *   stored in @data; its stored count must be @count
 *
 * Like ovi_analysis_new_for_count(), over the logical elements @map gives:
 * the padding is left out, and every index (the first bad values,
 * ovi_analysis_value_at()) is a flat index of the original shape.
 */
OviAnalysis *
ovi_analysis_new_for_layout (
    OviDtype dtype, GBytes *data, guint64 count, const OviLayoutMap *map, GError **error)
{
  OviAnalysis *self;
  guint64 needed;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (map == NULL || ovi_layout_map_get_stored_count (map) == count, NULL);

  if (!ovi_dtype_is_supported (dtype))
    {
      set_unsupported_error (error, dtype);
      return NULL;
    }
  if (!ovi_dtype_size_for_count (dtype, count, &needed) || needed > g_bytes_get_size (data))
    {
      g_set_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_SIZE,
                   _ ("%zu bytes are too few for %" PRIu64 " elements"), g_bytes_get_size (data),
                   count);
      return NULL;
    }

  self = analysis_new (dtype, count, map);
  self->source.bytes = g_bytes_ref (data);
  if (!analyze (self, error))
    g_clear_pointer (&self, ovi_analysis_unref);
  return self;
}

/**
 * ovi_analysis_new_for_file:
 * @path: the file
 * @name: the file in messages
 * @offset: where the tensor's @size bytes start, holding @count elements
 * @file_size: the file's size when it was listed; a file of another size
 *   is refused, as it is no longer the file that was listed
 * @contents: (nullable): the whole file, when the caller has read it: the
 *   statistics are made from it instead of reading the file again (small
 *   files, whose tensors are read in one go)
 * @map: (nullable): for a device layout, where its logical elements are
 *   stored (see ovi_analysis_new_for_layout())
 *
 * Like ovi_analysis_new_for_count(), reading the file a chunk at a time
 * (also later, for histograms, even when @contents was given), never
 * loading it whole.
 */
OviAnalysis *
ovi_analysis_new_for_file (OviDtype dtype,
                           const char *path,
                           const char *name,
                           guint64 offset,
                           guint64 size,
                           guint64 count,
                           guint64 file_size,
                           GBytes *contents,
                           const OviLayoutMap *map,
                           GError **error)
{
  OviAnalysis *self;
  guint64 needed;

  g_return_val_if_fail (map == NULL || ovi_layout_map_get_stored_count (map) == count, NULL);

  if (!ovi_dtype_is_supported (dtype))
    {
      set_unsupported_error (error, dtype);
      return NULL;
    }
  if (offset > file_size || size > file_size - offset)
    {
      g_set_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_SIZE,
                   _ ("%s is too short for its tensor"), name);
      return NULL;
    }
  if (!ovi_dtype_size_for_count (dtype, count, &needed) || needed > size)
    {
      g_set_error (error, OVI_STATS_ERROR, OVI_STATS_ERROR_SIZE,
                   _ ("%" PRIu64 " bytes are too few for %" PRIu64 " elements"), size, count);
      return NULL;
    }
  self = analysis_new (dtype, count, map);
  self->source.path = g_strdup (path);
  self->source.name = g_strdup (name);
  self->source.offset = offset;
  self->source.file_size = file_size;
  if (contents != NULL && g_bytes_get_size (contents) == file_size)
    self->source.bytes = g_bytes_new_from_bytes (contents, offset, size);
  if (!analyze (self, error))
    g_clear_pointer (&self, ovi_analysis_unref);
  else
    /* Later reads go to the file: the analysis keeps no copy of it. */
    g_clear_pointer (&self->source.bytes, g_bytes_unref);
  return self;
}

/**
 * ovi_analysis_new:
 *
 * Like ovi_analysis_new_for_count() with as many elements as @data holds.
 */
OviAnalysis *
ovi_analysis_new (OviDtype dtype, GBytes *data, GError **error)
{
  guint bits = ovi_dtype_bits (dtype);
  guint64 size = g_bytes_get_size (data);

  if (bits == 0 || !ovi_dtype_is_supported (dtype))
    {
      set_unsupported_error (error, dtype);
      return NULL;
    }
  return ovi_analysis_new_for_count (dtype, data, bits >= 8 ? size / (bits / 8) : size * 8 / bits,
                                     error);
}

OviAnalysis *
ovi_analysis_ref (OviAnalysis *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ovi_analysis_unref (OviAnalysis *self)
{
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->source.bytes, g_bytes_unref);
      g_free (self->source.path);
      g_free (self->source.name);
      g_free (self->table);
      g_clear_pointer (&self->map, ovi_layout_map_free);
      g_free (self);
    }
}

const OviStats *
ovi_analysis_get_stats (OviAnalysis *self)
{
  return &self->stats;
}

OviDtype
ovi_analysis_get_dtype (OviAnalysis *self)
{
  return self->dtype;
}

/**
 * ovi_analysis_value_at:
 * Returns: element @index as a double (complex: its magnitude); NaN when
 *   the file it is read from can no longer be read
 */
double
ovi_analysis_value_at (OviAnalysis *self, guint64 index)
{
  const guint8 *d;
  double value = NAN;
  guint64 start;
  Reader r;

  g_return_val_if_fail (index < self->count, NAN);
  if (self->statistics_only)
    return NAN;
  if (index >= (guint64) self->window_start && index - self->window_start < self->window_length)
    return self->window[index - self->window_start];
  if (self->map)
    index = ovi_layout_map_to_stored (self->map, index);
  /* int4 is read from the byte holding the element. */
  start = self->bits == 4 ? index & ~G_GUINT64_CONSTANT (1) : index;
  if (reader_open (&r, self, NULL) && (d = reader_get (&r, start, index - start + 1, NULL)))
    value = self->pattern_bits
                ? ovi_dtype_decode_pattern (self->dtype,
                                            ovi_load_pattern (self->pattern_bits, d, index - start))
                : ovi_load_value (self->dtype, d, index - start);
  reader_close (&r);
  return value;
}

static gboolean
bin_values (OviAnalysis *self, const guint8 *d, guint64 n, guint64 base, gpointer data)
{
  for (guint64 i = 0; i < n; i++)
    ovi_histogram_add (data, ovi_load_value (self->dtype, d, i), 1);
  return TRUE;
}

/**
 * ovi_analysis_histogram:
 * @n_bins: regular bins over the finite, unsaturated range
 *
 * Types of more than 16 bits are read again for their histogram: that can
 * fail when the file changed since the analysis.
 *
 * Returns: (transfer full): the histogram, or %NULL with @error set
 */
OviHistogram *
ovi_analysis_histogram (OviAnalysis *self, guint n_bins, OviHistogramScale scale, GError **error)
{
  OviHistogram *h;

  if (self->statistics_only)
    {
      g_set_error_literal (error, OVI_STATISTIC_ERROR, OVI_STATISTIC_ERROR_NO_VALUES,
                           ovi_statistic_why_no_values ());
      return NULL;
    }
  h = ovi_histogram_new (n_bins, scale, self->range_min, self->range_max,
                         ovi_dtype_max_finite (self->dtype));
  if (self->pattern_bits)
    {
      gsize n_patterns = (gsize) 1 << self->pattern_bits;
      for (gsize i = 0; i < n_patterns; i++)
        if (self->table[i])
          ovi_histogram_add (h, ovi_dtype_decode_pattern (self->dtype, i), self->table[i]);
    }
  else if (!walk (self, bin_values, h, error))
    {
      ovi_histogram_free (h);
      return NULL;
    }
  return h;
}

/**
 * ovi_analysis_new_for_statistics:
 * @stats: what a statistics-mode dump says of the tensor
 *
 * An analysis with no values behind it: its statistics are @stats, it has
 * no histogram and no values (see ovi_analysis_has_values()).
 */
OviAnalysis *
ovi_analysis_new_for_statistics (OviDtype dtype, const OviStats *stats)
{
  OviAnalysis *self = analysis_new (dtype, stats->count, NULL);

  self->stats = *stats;
  self->statistics_only = TRUE;
  self->pattern_bits = 0;
  self->window_start = -1;
  return self;
}

/**
 * ovi_analysis_has_values:
 * Returns: %FALSE for statistics-only tensors, whose values were not kept
 */
gboolean
ovi_analysis_has_values (OviAnalysis *self)
{
  return !self->statistics_only;
}
