/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <math.h>

G_BEGIN_DECLS

/* data_type numbers of the dump header (proto OutputDataType). */
typedef enum
{
  OVI_DTYPE_UNDEFINED = 0,
  OVI_DTYPE_FLOAT32 = 1,
  OVI_DTYPE_FLOAT16 = 2,
  OVI_DTYPE_INT8 = 3,
  OVI_DTYPE_UINT8 = 4,
  OVI_DTYPE_INT16 = 5,
  OVI_DTYPE_UINT16 = 6,
  OVI_DTYPE_INT32 = 7,
  OVI_DTYPE_INT64 = 8,
  OVI_DTYPE_UINT32 = 9,
  OVI_DTYPE_UINT64 = 10,
  OVI_DTYPE_BOOL = 11,
  OVI_DTYPE_FLOAT64 = 12,
  OVI_DTYPE_COMPLEX64 = 16,
  OVI_DTYPE_COMPLEX128 = 17,
  OVI_DTYPE_BFLOAT16 = 27,
  OVI_DTYPE_INT4 = 28,
  OVI_DTYPE_COMPLEX32 = 32,
  OVI_DTYPE_HIFLOAT8 = 33,
  OVI_DTYPE_FLOAT8_E5M2 = 34,
  OVI_DTYPE_FLOAT8_E4M3FN = 35,
  OVI_DTYPE_FLOAT8_E8M0 = 36,
  OVI_DTYPE_FLOAT6_E3M2 = 37,
  OVI_DTYPE_FLOAT6_E2M3 = 38,
  OVI_DTYPE_FLOAT4_E2M1 = 39,
  OVI_DTYPE_FLOAT4_E1M2 = 40,
  OVI_DTYPE_HIFLOAT4 = 41,
  OVI_DTYPE_HIFLOAT4_SCALE = 42,
} OviDtype;

/* format numbers of the dump header (proto OutputFormat): the ones the
 * inspector converts or names; any other number is kept as it is. */
typedef enum
{
  OVI_FORMAT_UNKNOWN = -1, /* not given (statistics files without a Format column) */
  OVI_FORMAT_NCHW = 0,
  OVI_FORMAT_NHWC = 1,
  OVI_FORMAT_ND = 2,
  OVI_FORMAT_NC1HWC0 = 3,
  OVI_FORMAT_FRACTAL_Z = 4,
  OVI_FORMAT_NC1HWC0_C04 = 12,
  OVI_FORMAT_FRACTAL_NZ = 29,
  OVI_FORMAT_NCDHW = 30,
  OVI_FORMAT_NDC1HWC0 = 32,
  OVI_FORMAT_FRACTAL_Z_3D = 33,
} OviFormat;

const char *ovi_dtype_name (OviDtype dtype);
char *ovi_dtype_dup_label (OviDtype dtype);
gboolean ovi_dtype_is_supported (OviDtype dtype);
gboolean ovi_dtype_is_packing_unknown (OviDtype dtype);
char *ovi_dtype_dup_unsupported_reason (OviDtype dtype);
guint ovi_dtype_bits (OviDtype dtype);
gboolean ovi_dtype_is_float (OviDtype dtype);
gboolean ovi_dtype_is_complex (OviDtype dtype);
double ovi_dtype_max_finite (OviDtype dtype);
gboolean ovi_dtype_size_for_count (OviDtype dtype, guint64 count, guint64 *size);
double ovi_dtype_decode_pattern (OviDtype dtype, guint32 pattern);
const char *ovi_dtype_npy_descr (OviDtype dtype);
const char *ovi_format_name (OviFormat format);
char *ovi_format_dup_label (OviFormat format);

float ovi_half_to_float (guint16 h);
guint16 ovi_float_to_half (float f);
guint16 ovi_float_to_bfloat16 (float f);
guint8 ovi_float_to_float8 (OviDtype dtype, float f);
float ovi_bfloat16_to_float (guint16 b);
float ovi_float8_e5m2_to_float (guint8 b);
float ovi_float8_e4m3fn_to_float (guint8 b);
float ovi_float8_e8m0_to_float (guint8 b);
float ovi_hifloat8_to_float (guint8 b);
float ovi_float8_to_float (OviDtype dtype, guint8 b);

/* Elements of a tensor as stored: little-endian (every Ascend host is) and
 * at any alignment, since the data section starts wherever the header
 * ends. memcpy compiles to a plain load. */
#define OVI_DEFINE_LOAD(name, type)                                                                \
  static inline type ovi_load_##name (const guint8 *d, guint64 i)                                  \
  {                                                                                                \
    type v;                                                                                        \
    __builtin_memcpy (&v, d + i * sizeof (type), sizeof (type));                                   \
    return v;                                                                                      \
  }
OVI_DEFINE_LOAD (u16, guint16)
OVI_DEFINE_LOAD (f32, float)
OVI_DEFINE_LOAD (f64, double)
OVI_DEFINE_LOAD (i32, gint32)
OVI_DEFINE_LOAD (u32, guint32)
OVI_DEFINE_LOAD (i64, gint64)
OVI_DEFINE_LOAD (u64, guint64)
#undef OVI_DEFINE_LOAD

/* Element @i of a 32- or 64-bit float or integer tensor, as a double. */
static inline double
ovi_load_wide (OviDtype dtype, const guint8 *d, guint64 i)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT32:
      return ovi_load_f32 (d, i);
    case OVI_DTYPE_FLOAT64:
      return ovi_load_f64 (d, i);
    case OVI_DTYPE_INT32:
      return ovi_load_i32 (d, i);
    case OVI_DTYPE_UINT32:
      return ovi_load_u32 (d, i);
    case OVI_DTYPE_INT64:
      return (double) ovi_load_i64 (d, i);
    case OVI_DTYPE_UINT64:
      return (double) ovi_load_u64 (d, i);
    default:
      g_assert_not_reached ();
    }
}

/* The bit pattern of element @i of a tensor of 4-, 8- or 16-bit elements. */
static inline guint32
ovi_load_pattern (guint bits, const guint8 *d, guint64 i)
{
  switch (bits)
    {
    case 16:
      return ovi_load_u16 (d, i);
    case 8:
      return d[i];
    default:
      return (d[i / 2] >> (4 * (i & 1))) & 0xf;
    }
}

/* Element @i of a tensor of any supported dtype, as a double; a complex
 * element as its magnitude. */
static inline double
ovi_load_value (OviDtype dtype, const guint8 *d, guint64 i)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT16:
      return ovi_half_to_float (ovi_load_u16 (d, i));
    case OVI_DTYPE_BFLOAT16:
      return ovi_bfloat16_to_float (ovi_load_u16 (d, i));
    case OVI_DTYPE_INT16:
    case OVI_DTYPE_UINT16:
      return ovi_dtype_decode_pattern (dtype, ovi_load_u16 (d, i));
    case OVI_DTYPE_INT8:
    case OVI_DTYPE_UINT8:
    case OVI_DTYPE_BOOL:
    case OVI_DTYPE_FLOAT8_E5M2:
    case OVI_DTYPE_FLOAT8_E4M3FN:
    case OVI_DTYPE_FLOAT8_E8M0:
    case OVI_DTYPE_HIFLOAT8:
      return ovi_dtype_decode_pattern (dtype, d[i]);
    case OVI_DTYPE_INT4:
      return ovi_dtype_decode_pattern (dtype, ovi_load_pattern (4, d, i));
    case OVI_DTYPE_FLOAT32:
    case OVI_DTYPE_FLOAT64:
    case OVI_DTYPE_INT32:
    case OVI_DTYPE_UINT32:
    case OVI_DTYPE_INT64:
    case OVI_DTYPE_UINT64:
      return ovi_load_wide (dtype, d, i);
    case OVI_DTYPE_COMPLEX32:
      return hypot (ovi_half_to_float (ovi_load_u16 (d, 2 * i)),
                    ovi_half_to_float (ovi_load_u16 (d, 2 * i + 1)));
    case OVI_DTYPE_COMPLEX64:
      return hypot (ovi_load_f32 (d, 2 * i), ovi_load_f32 (d, 2 * i + 1));
    case OVI_DTYPE_COMPLEX128:
      return hypot (ovi_load_f64 (d, 2 * i), ovi_load_f64 (d, 2 * i + 1));
    default:
      g_assert_not_reached ();
    }
}

G_END_DECLS
