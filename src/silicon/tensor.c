/* tensor.c -- the energy of a tensor-pipe cycle by data type, from the
 * datapath.
 *
 * power.tensor_pj is fitted for bf16 (E16's bf16 GEMM clock under the cap,
 * docs/calibration.md).  Other data types differ in two ways the datapath
 * fixes, not a constant fitted per type:
 *
 *   - how many FMAs a pipe cycle does: dense H100 SXM rates are TF32 494.7,
 *     FP16/BF16 989.4, FP8 and INT8 1978.9 T(FL)OPS (NVIDIA H100 whitepaper),
 *     so per pipe cycle n = 0.5, 1, 2 and 2 times bf16's;
 *   - what one FMA costs: an array multiplier's energy grows with the square
 *     of its width (m x m partial products), so with the significand width m
 *     (hidden bit included: bf16 8, fp16 11, tf32 11, fp8 e4m3 4, int8 8);
 *     the products are summed into an fp32 accumulator (int32 for int8),
 *     whose adder does not depend on the input type.
 *
 * Horowitz ("Computing's energy problem", ISSCC 2014, 45 nm at 0.9 V) gives
 * an fp32 multiply 3.7 pJ and add 0.9 pJ, an int32 add 0.1 pJ.  Scaled by
 * (m / 24)^2, a bf16 multiplier is 0.41 pJ, so the multiplier is
 * w = 0.41 / (0.41 + 0.9) = 31 % of a bf16 FMA into fp32, the adder 69 %.
 * Only a share d of a pipe cycle's energy is this arithmetic; the rest
 * (operand staging, the accumulator registers, control, the pipe's clock)
 * is per cycle whatever the type.  Relative to bf16:
 *
 *   scale(t) = (1 - d) + d n_t [ w (m_t / 8)^2 + (1 - w) a_t ]
 *
 * with a_t the accumulator adder relative to fp32's (1; int8: 0.1/0.9).
 * d (power.tensor_datapath_pct) is the one number the types share: E16's
 * fp16 against bf16 GEMM fixes it (fp16 - bf16 = d w ((11/8)^2 - 1) of a
 * bf16 cycle), and tf32 and fp8 then judge it (docs/calibration.md).  At
 * d = 50 %: fp16 1.139, tf32 0.820, fp8 1.265, int8 0.889 times a bf16
 * cycle.  The rest, 1 - d, is per cycle whatever the type because the pipe
 * moves the same operand bytes per cycle: fp8 does twice bf16's FMAs on
 * operands half as wide, tf32 half on operands twice as wide (stored as 32
 * bits).  So per FMA the energy orders fp8 < bf16 < fp16 < tf32.
 *
 * The type comes from the SASS mnemonic's last type token, as ptxas writes
 * them: HGMMA.64x256x16.F32.BF16 (bf16 in, f32 accumulate), HMMA.16816.F16,
 * HMMA.1684.F32.TF32, QGMMA.64x256x32.F32.E4M3.E4M3, IMMA.16832.S32.S8.S8.
 * A tensor op with no type token counts as bf16, the calibrated type.
 */
#include <string.h>
#include "skewsim/silicon.h"

static const struct {
    const char *name;
    double m;           /* significand bits, hidden bit included (int8: 8) */
    double n;           /* FMAs per pipe cycle relative to bf16 */
    double acc;         /* accumulator adder energy relative to fp32's */
} dtypes[SI_DT_N] = {
#define SI_DT_ROW_(id, name, m, n, acc) { name, m, n, acc },
    SI_TENSOR_DTYPE_MAP(SI_DT_ROW_)
#undef SI_DT_ROW_
};

/* The multiplier's share of a bf16 FMA into fp32 (Horowitz 2014, above). */
#define MUL_SHARE (0.41 / (0.41 + 0.9))
/* Horowitz 2014, 45 nm, 0.9 V: fp32 multiply and add (pJ). */
#define FP32_MUL_PJ45 3.7
#define FP32_ADD_PJ45 0.9

const char *si_tensor_dtype_name(int dt)
{
    return dt >= 0 && dt < SI_DT_N ? dtypes[dt].name : "?";
}

double si_tensor_scale(double datapath_share, int dt)
{
    if (dt < 0 || dt >= SI_DT_N)
        dt = SI_DT_BF16;
    double r = dtypes[dt].m / dtypes[SI_DT_BF16].m;
    return (1 - datapath_share)
         + datapath_share * dtypes[dt].n * (MUL_SHARE * r * r + (1 - MUL_SHARE) * dtypes[dt].acc);
}

int si_tensor_dtype_of(const char *mnemonic)
{
    static const struct {
        const char *tok;
        int dt;
    } toks[] = {
        { "BF16", SI_DT_BF16 }, { "F16", SI_DT_FP16 }, { "TF32", SI_DT_TF32 },
        { "E4M3", SI_DT_FP8 },  { "E5M2", SI_DT_FP8 }, { "S8", SI_DT_INT8 },
        { "U8", SI_DT_INT8 },
    };
    int dt = SI_DT_BF16;
    for (const char *p = strchr(mnemonic, '.'); p; p = strchr(p + 1, '.')) {
        size_t len = strcspn(p + 1, ".");
        for (size_t k = 0; k < sizeof toks / sizeof toks[0]; k++)
            if (strlen(toks[k].tok) == len && strncmp(p + 1, toks[k].tok, len) == 0)
                dt = toks[k].dt;
    }
    return dt;
}

double si_tensor_fmas(int dt)
{
    return dt >= 0 && dt < SI_DT_N ? dtypes[dt].n : 1;
}

double si_tensor_fma_pj45(int dt)
{
    if (dt < 0 || dt >= SI_DT_N)
        dt = SI_DT_BF16;
    double r = dtypes[dt].m / 24;   /* fp32's significand: 24 bits */
    return FP32_MUL_PJ45 * r * r + FP32_ADD_PJ45 * dtypes[dt].acc;
}
