#pragma once

#include <glib.h>

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

const char *ovi_dtype_name (int dtype);
char *ovi_dtype_dup_label (int dtype);
gboolean ovi_dtype_is_supported (int dtype);
gboolean ovi_dtype_is_packing_unknown (int dtype);
char *ovi_dtype_dup_unsupported_reason (int dtype);
guint ovi_dtype_bits (int dtype);
gboolean ovi_dtype_is_float (int dtype);
gboolean ovi_dtype_is_complex (int dtype);
double ovi_dtype_max_finite (int dtype);
gboolean ovi_dtype_size_for_count (int dtype, guint64 count, guint64 *size);
double ovi_dtype_decode_pattern (int dtype, guint32 pattern);
const char *ovi_dtype_npy_descr (int dtype);
const char *ovi_format_name (int format);
char *ovi_format_dup_label (int format);

float ovi_half_to_float (guint16 h);
guint16 ovi_float_to_half (float f);
guint16 ovi_float_to_bfloat16 (float f);
guint8 ovi_float_to_float8 (int dtype, float f);
float ovi_bfloat16_to_float (guint16 b);
float ovi_float8_e5m2_to_float (guint8 b);
float ovi_float8_e4m3fn_to_float (guint8 b);
float ovi_float8_e8m0_to_float (guint8 b);
float ovi_hifloat8_to_float (guint8 b);
float ovi_float8_to_float (int dtype, guint8 b);

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

G_END_DECLS
