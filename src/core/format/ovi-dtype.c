/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ovi-dtype.h"

typedef struct
{
  OviDtype dtype;
  const char *name;
  guint bits;            /* 0: size unknown */
  gboolean supported;    /* values can be decoded */
  const char *npy_descr; /* what .npy export writes */
} DtypeInfo;

/* Names as in dump-format.md; bits for types whose element size is known.
 * 37 to 42 (six- and four-bit types): no public document says how a dump
 * packs them into bytes (one a byte, or tightly, in which bit order), so
 * their element size in the file is unknown and only their bytes are kept. */
static const DtypeInfo dtypes[] = {
  { 0, "undefined", 0, FALSE, NULL },       { 1, "float32", 32, TRUE, "<f4" },
  { 2, "float16", 16, TRUE, "<f2" },        { 3, "int8", 8, TRUE, "|i1" },
  { 4, "uint8", 8, TRUE, "|u1" },           { 5, "int16", 16, TRUE, "<i2" },
  { 6, "uint16", 16, TRUE, "<u2" },         { 7, "int32", 32, TRUE, "<i4" },
  { 8, "int64", 64, TRUE, "<i8" },          { 9, "uint32", 32, TRUE, "<u4" },
  { 10, "uint64", 64, TRUE, "<u8" },        { 11, "bool", 8, TRUE, "|b1" },
  { 12, "float64", 64, TRUE, "<f8" },       { 13, "string", 0, FALSE, NULL },
  { 14, "dual_sub_int8", 0, FALSE, NULL },  { 15, "dual_sub_uint8", 0, FALSE, NULL },
  { 16, "complex64", 64, TRUE, "<c8" },     { 17, "complex128", 128, TRUE, "<c16" },
  { 18, "qint8", 8, FALSE, NULL },          { 19, "qint16", 16, FALSE, NULL },
  { 20, "qint32", 32, FALSE, NULL },        { 21, "quint8", 8, FALSE, NULL },
  { 22, "quint16", 16, FALSE, NULL },       { 23, "resource", 0, FALSE, NULL },
  { 24, "string_ref", 0, FALSE, NULL },     { 25, "dual", 0, FALSE, NULL },
  { 26, "variant", 0, FALSE, NULL },        { 27, "bfloat16", 16, TRUE, "<f4" },
  { 28, "int4", 4, TRUE, "|i1" },           { 29, "uint1", 1, FALSE, NULL },
  { 30, "int2", 2, FALSE, NULL },           { 31, "uint2", 2, FALSE, NULL },
  { 32, "complex32", 32, TRUE, "<c8" },     { 33, "hifloat8", 8, TRUE, "<f4" },
  { 34, "float8_e5m2", 8, TRUE, "<f4" },    { 35, "float8_e4m3fn", 8, TRUE, "<f4" },
  { 36, "float8_e8m0", 8, TRUE, "<f4" },    { 37, "float6_e3m2", 0, FALSE, NULL },
  { 38, "float6_e2m3", 0, FALSE, NULL },    { 39, "float4_e2m1", 0, FALSE, NULL },
  { 40, "float4_e1m2", 0, FALSE, NULL },    { 41, "hifloat4", 0, FALSE, NULL },
  { 42, "hifloat4_scale", 0, FALSE, NULL },
};

static const DtypeInfo *
lookup (OviDtype dtype)
{
  if (dtype < 0 || dtype >= (int) G_N_ELEMENTS (dtypes))
    return NULL;
  g_assert (dtypes[dtype].dtype == dtype);
  return &dtypes[dtype];
}

/**
 * ovi_dtype_name:
 * Returns: the name of a known data_type number ("float16"), or %NULL.
 */
const char *
ovi_dtype_name (OviDtype dtype)
{
  const DtypeInfo *info = lookup (dtype);
  return info ? info->name : NULL;
}

/**
 * ovi_dtype_dup_label:
 * Returns: the name, or "unknown dtype N" for a number no table lists.
 */
char *
ovi_dtype_dup_label (OviDtype dtype)
{
  const char *name = ovi_dtype_name (dtype);
  return name ? g_strdup (name) : g_strdup_printf ("unknown dtype %d", dtype);
}

gboolean
ovi_dtype_is_supported (OviDtype dtype)
{
  const DtypeInfo *info = lookup (dtype);
  return info && info->supported;
}

/**
 * ovi_dtype_is_packing_unknown:
 *
 * Returns: %TRUE for the types of fewer than 8 bits from the newer schema
 *   (float6, float4, hifloat4): known by name, their values cannot be
 *   decoded because how they are packed into bytes is not documented.
 */
gboolean
ovi_dtype_is_packing_unknown (OviDtype dtype)
{
  return dtype >= OVI_DTYPE_FLOAT6_E3M2 && dtype <= OVI_DTYPE_HIFLOAT4_SCALE;
}

/**
 * ovi_dtype_dup_unsupported_reason:
 *
 * Why a tensor of @dtype has no statistics and no numeric export, in the
 * words of the other core errors (the report and the window show it).
 *
 * Returns: (transfer full): the message
 */
char *
ovi_dtype_dup_unsupported_reason (OviDtype dtype)
{
  if (ovi_dtype_is_packing_unknown (dtype))
    /* Translators: %s is a data type such as float4_e2m1 */
    return g_strdup_printf (_ ("%s values cannot be decoded: how they are packed into bytes is "
                               "not documented; the raw bytes can be exported (.bin)"),
                            ovi_dtype_name (dtype));
  return g_strdup_printf (_ ("unsupported dtype %d"), dtype);
}

guint
ovi_dtype_bits (OviDtype dtype)
{
  const DtypeInfo *info = lookup (dtype);
  return info ? info->bits : 0;
}

gboolean
ovi_dtype_is_float (OviDtype dtype)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT32:
    case OVI_DTYPE_FLOAT16:
    case OVI_DTYPE_FLOAT64:
    case OVI_DTYPE_BFLOAT16:
    case OVI_DTYPE_FLOAT8_E5M2:
    case OVI_DTYPE_FLOAT8_E4M3FN:
    case OVI_DTYPE_FLOAT8_E8M0:
    case OVI_DTYPE_HIFLOAT8:
    case OVI_DTYPE_COMPLEX32:
    case OVI_DTYPE_COMPLEX64:
    case OVI_DTYPE_COMPLEX128:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
ovi_dtype_is_complex (OviDtype dtype)
{
  return dtype == OVI_DTYPE_COMPLEX32 || dtype == OVI_DTYPE_COMPLEX64 ||
         dtype == OVI_DTYPE_COMPLEX128;
}

/**
 * ovi_dtype_max_finite:
 *
 * The largest finite magnitude of a floating-point type: the value that
 * saturation mode clamps overflows to. 0 for other types, which have no
 * saturation signature that can be told apart from ordinary values.
 */
double
ovi_dtype_max_finite (OviDtype dtype)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT16:
    case OVI_DTYPE_COMPLEX32:
      return 65504.0;
    case OVI_DTYPE_BFLOAT16:
      return 3.3895313892515355e38;
    case OVI_DTYPE_FLOAT32:
    case OVI_DTYPE_COMPLEX64:
      return 3.4028234663852886e38;
    case OVI_DTYPE_FLOAT64:
    case OVI_DTYPE_COMPLEX128:
      return 1.7976931348623157e308;
    case OVI_DTYPE_FLOAT8_E5M2:
      return 57344.0;
    case OVI_DTYPE_FLOAT8_E4M3FN:
      return 448.0;
    case OVI_DTYPE_HIFLOAT8:
      return 32768.0;
    case OVI_DTYPE_FLOAT8_E8M0:
      /* A scale, not a result; 2^127 is still the largest it can hold. */
      return 0x1p127;
    default:
      return 0.0;
    }
}

/**
 * ovi_dtype_size_for_count:
 * @size: (out): bytes that @count elements take
 *
 * Returns: %FALSE when the element size is unknown or the size overflows.
 */
gboolean
ovi_dtype_size_for_count (OviDtype dtype, guint64 count, guint64 *size)
{
  guint bits = ovi_dtype_bits (dtype);

  if (bits == 0)
    return FALSE;
  if (bits < 8)
    {
      *size = count / (8 / bits) + (count % (8 / bits) ? 1 : 0);
      return TRUE;
    }
  if (count > G_MAXUINT64 / (bits / 8))
    return FALSE;
  *size = count * (bits / 8);
  return TRUE;
}

float
ovi_half_to_float (guint16 h)
{
  guint32 sign = (h & 0x8000u) << 16;
  guint32 exp = (h >> 10) & 0x1f;
  guint32 mant = h & 0x3ff;
  union
  {
    guint32 u;
    float f;
  } v;

  if (exp == 0x1f)
    v.u = sign | 0x7f800000u | (mant << 13);
  else if (exp != 0)
    v.u = sign | ((exp + 112) << 23) | (mant << 13);
  else if (mant == 0)
    v.u = sign;
  else
    {
      float f = ldexpf ((float) mant, -24);
      return sign ? -f : f;
    }
  return v.f;
}

/* Round to nearest even, as hardware converts; overflow gives infinity. */
guint16
ovi_float_to_half (float f)
{
  union
  {
    float f;
    guint32 u;
  } v = { f };
  guint32 sign = (v.u >> 16) & 0x8000u;
  guint32 abs = v.u & 0x7fffffffu;

  if (abs >= 0x7f800000u)
    return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0);
  if (abs >= 0x477ff000u) /* rounds to 65520 or more */
    return sign | 0x7c00u;
  if (abs < 0x38800000u) /* below the smallest normal half */
    {
      union
      {
        guint32 u;
        float f;
      } magic = { 0x3f000000u }; /* 0.5 */
      float a;
      v.u = abs;
      /* Adding 0.5 aligns the subnormal bits at the bottom of the mantissa,
       * and the FPU does the rounding. */
      a = v.f + magic.f;
      v.f = a;
      return sign | (guint16) (v.u - magic.u);
    }
  {
    guint32 mant_odd = (abs >> 13) & 1;
    abs += 0xc8000fffu + mant_odd; /* rebias exponent and round */
    return sign | (guint16) (abs >> 13);
  }
}

guint16
ovi_float_to_bfloat16 (float f)
{
  union
  {
    float f;
    guint32 u;
  } v = { f };
  if ((v.u & 0x7fffffffu) > 0x7f800000u)
    return (v.u >> 16) | 0x40;
  return (v.u + 0x7fffu + ((v.u >> 16) & 1)) >> 16;
}

/* The nearest of the 256 values (ties to the even pattern); values beyond
 * the range become infinity (e5m2, hifloat8) or NaN (e4m3fn and e8m0,
 * which have no infinity). Written for fixtures, not for speed. */
guint8
ovi_float_to_float8 (OviDtype dtype, float f)
{
  guint best = 0;
  double best_diff = INFINITY;

  if (isnan (f) || (dtype == OVI_DTYPE_FLOAT8_E8M0 && isinf (f)))
    switch (dtype)
      {
      case OVI_DTYPE_FLOAT8_E5M2:
        return 0x7e;
      case OVI_DTYPE_HIFLOAT8:
        return 0x80;
      case OVI_DTYPE_FLOAT8_E8M0:
        return 0xff;
      default:
        return 0x7f;
      }
  for (guint p = 0; p < 256; p++)
    {
      double v = ovi_float8_to_float (dtype, p);
      double diff;
      if (isnan (v))
        continue;
      diff = isinf (v) ? (isinf (f) && signbit (f) == signbit (v) ? 0 : INFINITY) : fabs (v - f);
      if (diff < best_diff || (diff == best_diff && (p & 1) == 0 && (best & 1)))
        {
          best = p;
          best_diff = diff;
        }
    }
  if (best_diff == INFINITY)
    switch (dtype)
      {
      case OVI_DTYPE_FLOAT8_E5M2:
        return f > 0 ? 0x7c : 0xfc;
      case OVI_DTYPE_HIFLOAT8:
        return f > 0 ? 0x6f : 0xef;
      case OVI_DTYPE_FLOAT8_E8M0:
        return 0xff;
      default:
        return f > 0 ? 0x7f : 0xff;
      }
  return best;
}

float
ovi_bfloat16_to_float (guint16 b)
{
  union
  {
    guint32 u;
    float f;
  } v;
  v.u = (guint32) b << 16;
  return v.f;
}

float
ovi_float8_e5m2_to_float (guint8 b)
{
  /* e5m2 is the top byte of an IEEE half. */
  return ovi_half_to_float ((guint16) b << 8);
}

float
ovi_float8_e4m3fn_to_float (guint8 b)
{
  int sign = b & 0x80;
  int exp = (b >> 3) & 0xf;
  int mant = b & 0x7;
  float f;

  /* "fn": finite only; all ones in exponent and mantissa is NaN. */
  if (exp == 0xf && mant == 0x7)
    return NAN;
  if (exp == 0)
    f = ldexpf ((float) mant, -9);
  else
    f = ldexpf ((float) (8 + mant), exp - 10);
  return sign ? -f : f;
}

/* OCP Microscaling (MX) specification v1.0, E8M0: an unsigned exponent,
 * 2^(e - 127); no sign, no zero, no infinity; 0xFF is the only NaN. */
float
ovi_float8_e8m0_to_float (guint8 b)
{
  if (b == 0xff)
    return NAN;
  return ldexpf (1.0f, (int) b - 127);
}

/* HiFloat8 as defined in "Ascend HiFloat8 Format for Deep Learning"
 * (arXiv 2409.16626): sign, a prefix-coded "dot" field that gives the
 * width D of the exponent field, the exponent in sign-magnitude with an
 * implicit leading 1 in the magnitude, then the mantissa:
 *
 *   dot 11   D = 4  exponent +-(8..15)  1 mantissa bit
 *   dot 10   D = 3  exponent +-(4..7)   2 mantissa bits
 *   dot 01   D = 2  exponent +-(2..3)   3 mantissa bits
 *   dot 001  D = 1  exponent +-1        3 mantissa bits
 *   dot 0001 D = 0  exponent 0          3 mantissa bits
 *   dot 0000 denormal: 2^(M - 23) for M = 1..7
 *
 * Special patterns: 0x00 is the only zero, 0x80 (what would be -0) the
 * only NaN, and S.11.0111.1 (0x6F, 0xEF: what would be +-1.5 x 2^15) are
 * +-Inf, so the largest finite magnitude is 2^15 = 32768 and the smallest
 * 2^-22. The paper calls itself a preliminary white paper; the special
 * patterns above also agree with MindSpore's HiFloat8 type. Whether
 * saturation mode clamps hifloat8 to +-32768 is not documented: the
 * "saturated" count assumes it does, as for the other float types. */
float
ovi_hifloat8_to_float (guint8 b)
{
  guint rest = b & 0x7f;
  int exp, mant_bits;
  guint mant;
  float f;

  if (b == 0x80)
    return NAN;
  if (rest == 0x6f)
    return b & 0x80 ? -INFINITY : INFINITY;
  if (rest >> 5)
    {
      /* dot 01, 10, 11: two-bit codes for D = 2, 3, 4. */
      guint width = (rest >> 5) + 1;
      guint field, magnitude;
      mant_bits = 5 - width;
      field = (rest >> mant_bits) & ((1u << width) - 1);
      magnitude = (1u << (width - 1)) | (field & ((1u << (width - 1)) - 1));
      exp = (field >> (width - 1)) ? -(int) magnitude : (int) magnitude;
    }
  else if (rest >> 4)
    {
      mant_bits = 3;
      exp = rest & 0x08 ? -1 : 1;
    }
  else if (rest >> 3)
    {
      mant_bits = 3;
      exp = 0;
    }
  else
    {
      if (rest == 0)
        return 0.0f;
      f = ldexpf (1.0f, (int) rest - 23);
      return b & 0x80 ? -f : f;
    }
  mant = rest & ((1u << mant_bits) - 1);
  f = ldexpf ((float) ((1u << mant_bits) | mant), exp - mant_bits);
  return b & 0x80 ? -f : f;
}

/**
 * ovi_float8_to_float:
 *
 * The value of an 8-bit float of any of the four kinds.
 */
float
ovi_float8_to_float (OviDtype dtype, guint8 b)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT8_E5M2:
      return ovi_float8_e5m2_to_float (b);
    case OVI_DTYPE_FLOAT8_E4M3FN:
      return ovi_float8_e4m3fn_to_float (b);
    case OVI_DTYPE_FLOAT8_E8M0:
      return ovi_float8_e8m0_to_float (b);
    case OVI_DTYPE_HIFLOAT8:
      return ovi_hifloat8_to_float (b);
    default:
      g_return_val_if_reached (NAN);
    }
}

/**
 * ovi_dtype_decode_pattern:
 *
 * The value of one element of a type of 16 bits or fewer given its bit
 * pattern (int4: the low four bits).
 */
double
ovi_dtype_decode_pattern (OviDtype dtype, guint32 pattern)
{
  switch (dtype)
    {
    case OVI_DTYPE_FLOAT16:
      return ovi_half_to_float (pattern);
    case OVI_DTYPE_BFLOAT16:
      return ovi_bfloat16_to_float (pattern);
    case OVI_DTYPE_INT16:
      return (gint16) pattern;
    case OVI_DTYPE_UINT16:
      return (guint16) pattern;
    case OVI_DTYPE_INT8:
      return (gint8) pattern;
    case OVI_DTYPE_UINT8:
      return (guint8) pattern;
    case OVI_DTYPE_BOOL:
      return (guint8) pattern != 0;
    case OVI_DTYPE_FLOAT8_E5M2:
      return ovi_float8_e5m2_to_float (pattern);
    case OVI_DTYPE_FLOAT8_E4M3FN:
      return ovi_float8_e4m3fn_to_float (pattern);
    case OVI_DTYPE_FLOAT8_E8M0:
      return ovi_float8_e8m0_to_float (pattern);
    case OVI_DTYPE_HIFLOAT8:
      return ovi_hifloat8_to_float (pattern);
    case OVI_DTYPE_INT4:
      return (pattern & 0x8) ? (int) (pattern & 0xf) - 16 : (int) (pattern & 0xf);
    default:
      g_return_val_if_reached (NAN);
    }
}

const char *
ovi_dtype_npy_descr (OviDtype dtype)
{
  const DtypeInfo *info = lookup (dtype);
  return info ? info->npy_descr : NULL;
}

static const char *const formats[] = {
  [0] = "NCHW",
  [1] = "NHWC",
  [2] = "ND",
  [3] = "NC1HWC0",
  [4] = "FRACTAL_Z",
  [5] = "NC1C0HWPAD",
  [6] = "NHWC1C0",
  [7] = "FSR_NCHW",
  [8] = "FRACTAL_DECONV",
  [9] = "C1HWNC0",
  [10] = "FRACTAL_DECONV_TRANSPOSE",
  [11] = "FRACTAL_DECONV_SP_STRIDE_TRANS",
  [12] = "NC1HWC0_C04",
  [13] = "FRACTAL_Z_C04",
  [14] = "CHWN",
  [15] = "FRACTAL_DECONV_SP_STRIDE8_TRANS",
  [16] = "HWCN",
  [17] = "NC1KHKWHWC0",
  [18] = "BN_WEIGHT",
  [19] = "FILTER_HWCK",
  [20] = "HASHTABLE_LOOKUP_LOOKUPS",
  [21] = "HASHTABLE_LOOKUP_KEYS",
  [22] = "HASHTABLE_LOOKUP_VALUE",
  [23] = "HASHTABLE_LOOKUP_OUTPUT",
  [24] = "HASHTABLE_LOOKUP_HITS",
  [25] = "C1HWNCoC0",
  [26] = "MD",
  [27] = "NDHWC",
  [28] = "FRACTAL_ZZ",
  [29] = "FRACTAL_NZ",
  [30] = "NCDHW",
  [31] = "DHWCN",
  [32] = "NDC1HWC0",
  [33] = "FRACTAL_Z_3D",
  [34] = "CN",
  [35] = "NC",
  [36] = "DHWNC",
  [37] = "FRACTAL_Z_3D_TRANSPOSE",
  [38] = "FRACTAL_ZN_LSTM",
  [39] = "FRACTAL_Z_G",
  [40] = "RESERVED",
  [41] = "ALL",
  [42] = "NULL",
  [43] = "ND_RNN_BIAS",
  [44] = "FRACTAL_ZN_RNN",
  [45] = "YUV",
  [46] = "YUV_A",
  [47] = "NCL",
  [48] = "FRACTAL_Z_WINO",
  [49] = "C1HWC0",
};

const char *
ovi_format_name (OviFormat format)
{
  if (format < 0 || format >= (int) G_N_ELEMENTS (formats))
    return NULL;
  return formats[format];
}

char *
ovi_format_dup_label (OviFormat format)
{
  const char *name = ovi_format_name (format);
  return name ? g_strdup (name) : g_strdup_printf ("FORMAT_%d", format);
}
