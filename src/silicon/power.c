/* power.c -- what an SM draws: switched energy per instruction, per
 * tensor-pipe cycle, per scheduler-cycle and per clock cycle, and leakage.
 *
 * Dynamic, at the nominal supply (times (V / vnom)^2 at supply V: E = C V^2):
 *
 *   E = sum over rows r of issued warp instructions  n_r (dp_r + ops_r/n_r w_r rf) 32 s
 *     + sum over types t of tensor-pipe cycles       c_t tensor_pj scale(t)
 *     + scheduler-cycles with a resident warp        x sched_pj
 *     + SM cycles                                    x clk_pj
 *     + L1 sectors x l1_sector_pj + smem wavefronts x smem_wavefront_pj
 *
 * dp_r is the datapath energy of one lane of row r and rf that of one
 * 32-bit register-file word (read or written), both at 45 nm and 0.9 V;
 * ops_r the register operands (sources + destinations) the trace gives
 * those instructions, w_r the words per operand (2 for fp64), 32 the lanes
 * of a warp; s = power.op_scale_ppm / 1e6 takes the 45 nm energies to this
 * chip (technology, and the switching activity of the data: one scale for
 * every row, fitted, so the rows keep the ratios of their datapaths).
 *
 * Datapath per lane, 45 nm, 0.9 V: Horowitz, "Computing's energy problem
 * (and what we can do about it)", ISSCC 2014 (his energy table: 32-bit
 * int add 0.1 pJ, int mult 3.1; fp32 add 0.9, mult 3.7; fp16 add 0.4,
 * mult 1.1):
 *   fp32   FFMA: mult + add                                   4.6
 *          FADD, FSETP, FMNMX: add 0.9; FMUL: mult 3.7 (rows fadd, fmul)
 *   fp16   HFMA2: two fp16 FMAs, 2 (1.1 + 0.4)                3.0
 *   int    IADD3, LOP3, ISETP, SHF, IMAD.MOV: a 32-bit add    0.1
 *          IMAD, IMUL: mult + add (row imad)                  3.2
 *   fp64   DFMA: no row in the table; the multiplier scaled by the square
 *          of the significand width, the adder linearly, from fp32's:
 *          3.7 (53/24)^2 + 0.9 (53/24) = 18.0 + 2.0           20.0
 *   sfu    MUFU: a table look-up and a quadratic interpolation, about two
 *          fp32 FMAs (an estimate, no measured row)            9.2
 *   ldst   the address add (the data's energy is the L1's, shared
 *          memory's, L2's and DRAM's)                         0.1
 *   branch a compare                                          0.1
 *   misc   MOV, S2R, CS2R, NOP: nothing but operands           0
 *
 * Data.  The scale s is fitted on fma_kernel, whose FFMA chains multiply by
 * 1.0000001 and add 1e-7: from one instruction to the next few bits of
 * their operands change.  On random operands the same instruction draws
 * more: E32 (validation/h100/sdata, an H100, the GH100 SM of the H200) ran
 * cuBLAS's SIMT SGEMM on all-zero and on torch.randn's inputs, the same
 * kernel at the same 52 T flop/s: 276 W apart, under 10 W of it shared
 * memory's (E32's smem_data_kernel on zero and on random words).  (E28,
 * validation/h100/power, one FFMA loop with per-thread random constants
 * for b and c, drew 87-93 W more: data between quiet and random.)
 * A kernel whose data are random (trace key data=, the default; generators
 * of the quiet capture kernels write data=quiet) takes the *_RND rows:
 * power.fp32_random_fj more per FFMA lane, fitted to E32's step, FADD and
 * FMUL in proportion to their datapath (an assumption: only FFMA was
 * measured).  No other class
 * has the term: FP64, FP16 and integer data were not measured this way.
 * Register file: 2 pJ per access at 28 nm (Dally's figures, as shared
 * physics.md tabulates them), taken to 45 nm as C V^2 with C growing with
 * the feature size: 2 x 45 / 28 = 3.2 pJ per 32-bit word.  Gebhart et al.
 * ("Energy-efficient mechanisms for managing thread context in throughput
 * processors", ISCA 2011) put a GPU's register file at 15-20 % of its
 * dynamic energy; docs/silicon.md compares the fitted model with that.
 * Tensor instructions' operands are not counted here (their accumulators
 * and the shared-memory operands are part of the tensor-pipe cycle).
 *
 * Tensor work is charged per cycle the tensor pipe is busy (the issued
 * instructions' initiation intervals, by input type: tensor.c), because
 * one HMMA/HGMMA stands for a tile whose size the trace expresses through
 * its ii: HGMMA.64x256x16 holds a sub-partition's pipe 128 cycles
 * (src/trace/gen_gemm.c), an HMMA.16816 a few.
 *
 * Scheduler-cycles.  An SM whose schedulers hold warps toggles its issue
 * logic, scoreboards, operand collectors and pipeline registers every cycle
 * whether or not an instruction issues; one with no warp is clock-gated
 * down to clk_pj.  E16 demands the term: the INT32 mix issues 2 warp
 * instructions per SM cycle and draws 319 W, the FP32 mix 3.5 and 349 W,
 * and no per-instruction energies >= 0 fit both (docs/calibration.md).
 * GPUWattch and AccelWattch likewise carry per-SM power that is not per
 * instruction.  On top, the clock tree and the logic that toggles whenever
 * the SM is clocked cost clk_pj per SM cycle (C V^2 f): that is what an
 * awake, idle chip burns (validation/h200/smi_trace2: 124 W at 1980 MHz
 * with no kernel against 77 W at the 345 MHz idle clock).
 *
 * Leakage of one SM:
 *
 *   P = leak_w (V / vnom) exp((V - vnom) / leak_v) exp(-(Vth - vth) / leak_vth)
 *       exp(beta (T - leak_ref))
 *
 * The current's exponential in V is DIBL (eta ~ 0.1 at n kT/q ~ 39 mV:
 * leak_v = 39 mV / 0.1 = 390 mV), in Vth the subthreshold slope (S ~ 90
 * mV/decade hot, i.e. 39 mV per e-fold), and in T the usual exp(beta dT)
 * with beta 0.02/K (physics.md: 0.015-0.03).  A slow SM in the `skewed`
 * preset (higher Vth) thus also leaks less, as real silicon does.
 *
 * Memory and uncore are chip-level and handled by silicon.c: HBM costs
 * mem_idle_w plus mem_pj_per_byte per byte moved; the rest of the die and
 * the board is the constant uncore_w.  Under memory.model = hierarchy the
 * SM's L1 and shared-memory accesses add to its switched energy, and the
 * L2's arrays and the wires to and between its partitions add to the
 * uncore's (si_power_mem_*).
 */
#include <math.h>
#include <string.h>
#include "skewsim/silicon.h"

/* 45 nm / 0.9 V energies (pJ), sources above. */
#define RF_WORD_PJ45 (2.0 * 45.0 / 28.0)

static const struct {
    const char *name;
    double lane_pj;   /* datapath per lane */
    int words;        /* 32-bit register words per operand */
} rows[SI_OP_N] = {
    [FU_FP32] = { "fp32", 3.7 + 0.9, 1 },
    [FU_FP16] = { "fp16", 2 * (1.1 + 0.4), 1 },
    [FU_INT] = { "int", 0.1, 1 },
    [FU_FP64] = { "fp64", 3.7 * (53.0 / 24) * (53.0 / 24) + 0.9 * (53.0 / 24), 2 },
    [FU_SFU] = { "sfu", 2 * (3.7 + 0.9), 1 },
    [FU_TENSOR] = { "tensor", 0, 0 },
    [FU_LDST] = { "ldst", 0.1, 1 },
    [FU_BRANCH] = { "branch", 0.1, 1 },
    [FU_MISC] = { "misc", 0, 1 },
#define SI_OP_ROW_(id, nm, pj, w) [SI_OP_##id] = { nm, pj, w },
    SI_OP_EXTRA_MAP(SI_OP_ROW_)
#undef SI_OP_ROW_
};

double si_op_lane_pj45(int row)
{
    return row >= 0 && row < SI_OP_N ? rows[row].lane_pj : 0;
}

int si_op_words(int row)
{
    return row >= 0 && row < SI_OP_N ? rows[row].words : 0;
}

const char *si_op_row_name(int row)
{
    return row >= 0 && row < SI_OP_N && rows[row].name ? rows[row].name : "?";
}

/* The mnemonic's base (before the first '.') is `base`, and its first
 * modifier is not one of the moves/shifts ptxas writes with IMAD. */
static int base_is(const char *op, const char *base)
{
    size_t n = strlen(base);
    return strncmp(op, base, n) == 0 && (op[n] == '\0' || op[n] == '.');
}

int si_op_row_random(int row)
{
    return row == FU_FP32 ? SI_OP_FP32_RND : row == SI_OP_FADD ? SI_OP_FADD_RND
         : row == SI_OP_FMUL ? SI_OP_FMUL_RND : row;
}

int si_op_row_of(const char *op, int cls)
{
    if (base_is(op, "VIADD"))
        return FU_INT;                  /* an integer add that issues to the FP32 pipe */
    if (base_is(op, "IMAD") || base_is(op, "IMAD32I") || (cls == FU_INT && base_is(op, "IMUL"))) {
        /* on the FP32 pipe (IMAD, E29) or the ALU (IMUL), its energy is the
         * integer multiply's; IMAD.MOV.U32, IMAD.SHL.U32 and IMAD.IADD are a
         * move, a shift and an add (ptxas uses the IMAD pipe for them): the
         * integer add's */
        if (strncmp(op, "IMAD.MOV", 8) == 0 || strncmp(op, "IMAD.SHL", 8) == 0
            || strncmp(op, "IMAD.IADD", 9) == 0)
            return FU_INT;
        return SI_OP_IMAD;
    }
    if (cls == FU_FP32) {
        if (base_is(op, "FADD") || base_is(op, "FADD32I") || base_is(op, "FSETP") || base_is(op, "FMNMX"))
            return SI_OP_FADD;
        if (base_is(op, "FMUL") || base_is(op, "FMUL32I"))
            return SI_OP_FMUL;
        if (base_is(op, "FSEL") || base_is(op, "I2FP") || base_is(op, "F2FP") || base_is(op, "FCHK")
            || base_is(op, "FSET") || base_is(op, "FSWZADD"))
            return SI_OP_FP32_OTHER;
    }
    return 0;
}

void si_power_init(si_power *p, const cfg *c)
{
    memset(p, 0, sizeof *p);
    double s = c->op_scale_ppm * 1e-6;
    for (int r = 0; r < SI_OP_N; r++) {
        p->op_j[r] = s * 32 * rows[r].lane_pj * 1e-12;
        p->word_j[r] = s * 32 * rows[r].words * RF_WORD_PJ45 * 1e-12;
    }
    /* random data: each twin (si_op_row_random) is its quiet row plus what
     * an FFMA lane draws over the quiet chains the scale was fitted on, the
     * other FP32 rows by their datapath */
    for (int r = 0; r < SI_OP_N; r++) {
        int t = si_op_row_random(r);
        if (t == r)
            continue;
        p->op_j[t] = p->op_j[r] + 32.0 * c->fp32_random_fj * 1e-15 * rows[r].lane_pj / rows[FU_FP32].lane_pj;
        p->word_j[t] = p->word_j[r];
    }
    for (int t = 0; t < SI_DT_N; t++)
        p->tensor_j[t] = c->tensor_pj * 1e-12 * si_tensor_scale(c->tensor_datapath_pct / 100.0, t);
    p->sched_j = c->sched_pj * 1e-12;
    p->clk_j = c->clk_pj * 1e-12;
    p->leak_w = c->leak_mw * 1e-3;
    p->vnom_mv = c->vf_vnom_mv;
    p->vth_mv = c->vf_vth_mv;
    p->leak_ref_c = c->leak_ref_c;
    p->leak_beta = c->leak_beta_permille / 1000.0;
    p->leak_v_mv = c->leak_v_mv;
    p->leak_vth_mv = c->leak_vth_mv;
    p->uncore_w = c->uncore_w;
    p->mem_idle_w = c->mem_idle_w;
    p->mem_j_per_byte = c->mem_pj_per_byte * 1e-12;
    /* memory hierarchy (memory.l1/l2.*_pj, docs/memory.md "Energy"): a
     * 32 B sector is 256 bits on a wire of wire_fj_per_bit_mm */
    p->l1_j = c->l1_sector_pj * 1e-12;
    p->smem_j = c->smem_wavefront_pj * 1e-12;
    p->l2_j = c->l2_sector_pj * 1e-12;
    p->wire_j_per_sector_um = c->l2_wire_fj_per_bit_mm * 1e-15 * 256 * 1e-3;
}

double si_power_leak_w(const si_power *p, double v_mv, double vth_mv, double temp_c)
{
    return p->leak_w * (v_mv / p->vnom_mv)
         * exp((v_mv - p->vnom_mv) / p->leak_v_mv - (vth_mv - p->vth_mv) / p->leak_vth_mv
               + p->leak_beta * (temp_c - p->leak_ref_c));
}

const char *const si_energy_part_names[SI_E_N] = {
#define SI_E_NAME_(id, name) [SI_E_##id] = name,
    SI_ENERGY_PARTS(SI_E_NAME_)
#undef SI_E_NAME_
};

void si_power_dyn_nom_parts(const si_power *p, const si_rate *a, double cycles, double out[SI_E_N])
{
    out[SI_E_CLOCK] = cycles * p->clk_j;
    out[SI_E_SCHED] = a->sched_cycles * p->sched_j;
    out[SI_E_L1] = si_power_mem_sm_nom_j(p, a->l1_sectors, a->smem_wavefronts);
    double ops = 0, tensor = 0;
    for (int r = 0; r < SI_OP_N; r++)
        if (r != FU_TENSOR)
            ops += a->issued[r] * p->op_j[r] + a->operands[r] * p->word_j[r];
    for (int t = 0; t < SI_DT_N; t++)
        tensor += a->tensor_cycles[t] * p->tensor_j[t];
    out[SI_E_INSTR] = ops;
    out[SI_E_TENSOR] = tensor;
}

double si_power_dyn_nom_j(const si_power *p, const si_rate *a, double cycles)
{
    double part[SI_E_N];
    si_power_dyn_nom_parts(p, a, cycles, part);
    return part[SI_E_CLOCK] + part[SI_E_SCHED] + part[SI_E_L1] + part[SI_E_INSTR] + part[SI_E_TENSOR];
}

double si_power_mem_sm_nom_j(const si_power *p, double l1_sectors, double smem_wavefronts)
{
    return l1_sectors * p->l1_j + smem_wavefronts * p->smem_j;
}

double si_power_mem_chip_j(const si_power *p, double l2_sectors, double noc_sector_um)
{
    return l2_sectors * p->l2_j + noc_sector_um * p->wire_j_per_sector_um;
}
