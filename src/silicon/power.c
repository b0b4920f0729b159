/* power.c -- what an SM draws: switched energy per instruction and per
 * cycle, and leakage.
 *
 * Dynamic.  Every issued warp instruction of unit class c switches a fixed
 * capacitance: its energy at the nominal supply is power.<c>_pj, and at
 * supply V it is that times (V / vnom)^2 (E = C V^2).  Tensor work is
 * charged per cycle the tensor pipe is busy instead (power.tensor_pj times
 * si_activity.tensor_cycles, the sum of the issued instructions' initiation
 * intervals), because one HMMA/HGMMA instruction stands for a tile whose
 * size the trace expresses through its ii: HGMMA.64x256x16 holds a
 * sub-partition's pipe 128 cycles (src/trace/gen_gemm.c), an HMMA.16816 a
 * few.  A full tensor pipe then draws the same power whatever the shapes.  On top,
 * the clock tree and the logic that toggles whenever the SM is clocked cost
 * power.clk_pj per SM cycle (C V^2 f): that is what an awake, idle chip
 * burns (validation/h200/smi_trace2: 124 W at 1980 MHz with no kernel
 * against 77 W at the 345 MHz idle clock).
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
#include "skewsim/silicon.h"

void si_power_init(si_power *p, const cfg *c)
{
    for (int k = 0; k < FU_NCLASS; k++)
        p->op_j[k] = c->op_pj[k] * 1e-12;
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

double si_power_dyn_nom_j(const si_power *p, const double *issued, double tensor_cycles,
                          double cycles)
{
    double j = cycles * p->clk_j + tensor_cycles * p->op_j[FU_TENSOR];
    for (int k = 0; k < FU_NCLASS; k++)
        if (k != FU_TENSOR)
            j += issued[k] * p->op_j[k];
    return j;
}

double si_power_mem_sm_nom_j(const si_power *p, double l1_sectors, double smem_wavefronts)
{
    return l1_sectors * p->l1_j + smem_wavefronts * p->smem_j;
}

double si_power_mem_chip_j(const si_power *p, double l2_sectors, double noc_sector_um)
{
    return l2_sectors * p->l2_j + noc_sector_um * p->wire_j_per_sector_um;
}
