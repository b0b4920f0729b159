/* silicon.h -- the silicon model: floorplan, power grid (IR drop), process
 * variation, voltage-to-frequency, power, temperature and the DVFS manager
 * that together set every SM's clock (docs/silicon.md).
 *
 * The run loop needs only the first part of this header (the "contract"):
 *
 *   si = silicon_create(cfg, topo, &e);
 *   ... at every time t the run loop reaches silicon_next_ps(si) (and, if it
 *   likes, more often):
 *       silicon_advance(si, t, activity_since_last_call, &e);
 *       for each SM i: sm_set_mhz(&sms[i], silicon_sm_mhz(si, i, t), t);
 *   ... at each kernel launch:  extra = silicon_kernel_launch(si, t);
 *       (the CTAs of that kernel start `extra` ps later)
 *   ... at each kernel end:     silicon_kernel_end(si, t);
 *   silicon_destroy(si);
 *
 * Clocks change only at the times silicon_next_ps() announces or at the end
 * of a silicon_advance() call, so a run loop that advances the model at
 * every announced time and re-reads the clocks after each call sees every
 * change when it happens.
 *
 * The second part ("building blocks") exposes each physical model on its own
 * so that tests can check it against closed forms and tools can reuse it.
 *
 * Everything is deterministic: the same config (sim.seed included) and the
 * same sequence of calls give bit-identical states.  No globals.
 */
#ifndef SKEWSIM_SILICON_H
#define SKEWSIM_SILICON_H

#include <stdint.h>
#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/topo.h"

/* ==================================================================== */
/* The contract                                                          */
/* ==================================================================== */

typedef struct silicon silicon;

/* Energy rows of issued warp instructions (power.c, docs/silicon.md
 * "Power").  Rows 0 .. FU_NCLASS-1 are the unit classes themselves (an
 * instruction's row unless its mnemonic has one of its own); these follow
 * them, for mnemonics whose datapath differs from their class's default:
 * X(id, name, datapath energy per lane at 45 nm and 0.9 V in pJ, 32-bit
 * register words per operand).  Sources in power.c. */
#define SI_OP_EXTRA_MAP(X)                 \
    X(FADD, "fadd", 0.9, 1)                \
    X(FMUL, "fmul", 3.7, 1)                \
    X(IMAD, "imad", 3.2, 1)                \
    X(FP32_OTHER, "fp32_other", 3.7 + 0.9, 1) \
    X(FP32_RND, "fp32_random", 3.7 + 0.9, 1) \
    X(FADD_RND, "fadd_random", 0.9, 1)     \
    X(FMUL_RND, "fmul_random", 3.7, 1)
/* FP32_OTHER: the FP32 unit's selects, conversions and packs (FSEL, I2FP,
 * F2FP, FCHK, FSET, FSWZADD), charged an FFMA's datapath as before they had
 * a row (not examined) but with no random-data twin.  The last three are
 * the FP32 rows of a kernel whose data are random (trace key data=, the
 * default): the same datapath plus power.fp32_random_fj per lane in
 * proportion to it (si_op_row_random). */

enum si_op_row {
    SI_OP_CLASS_LAST_ = FU_NCLASS - 1,
#define SI_OP_ENUM_(id, name, pj, words) SI_OP_##id,
    SI_OP_EXTRA_MAP(SI_OP_ENUM_)
#undef SI_OP_ENUM_
    SI_OP_N
};

/* Tensor-op input types: id, name, significand bits (hidden bit included),
 * FMAs per pipe cycle relative to bf16, accumulator adder energy relative to
 * fp32's.  Sources in tensor.c.  BF16 first: a tensor op whose mnemonic
 * names no type counts as bf16, the calibrated type. */
#define SI_TENSOR_DTYPE_MAP(X)           \
    X(BF16, "bf16", 8, 1.0, 1.0)         \
    X(FP16, "fp16", 11, 1.0, 1.0)        \
    X(TF32, "tf32", 11, 0.5, 1.0)        \
    X(FP8, "fp8", 4, 2.0, 1.0)           \
    X(INT8, "int8", 8, 2.0, 0.1 / 0.9)

enum si_tensor_dtype {
#define SI_DT_ENUM_(id, name, m, n, acc) SI_DT_##id,
    SI_TENSOR_DTYPE_MAP(SI_DT_ENUM_)
#undef SI_DT_ENUM_
    SI_DT_N
};

/* What one SM did over the interval of one silicon_advance() call.  Tensor
 * instructions are charged by their pipe cycles, not by count: one HGMMA
 * can stand for 2 or 128 cycles of pipe work (the trace's ii=). */
typedef struct si_activity {
    uint64_t issued[SI_OP_N];     /* warp instructions issued, by energy row (the first
                                     FU_NCLASS rows: by unit class) */
    uint64_t operands[SI_OP_N];   /* their register operands, sources + destinations */
    uint64_t tensor_cycles[SI_DT_N];  /* by input type: sum over the issued tensor
                                     instructions of the cycles each holds its pipe, its ii
                                     (trace ii=, or units.tensor.ii_cycles) */
    uint64_t sched_cycles;        /* scheduler-cycles with at least one resident warp */
    uint64_t mem_bytes;           /* DRAM bytes moved on its behalf */
    /* accesses to the arrays and wires of the memory hierarchy on its
     * behalf (src/mem).  memory.model = flat has no L1 or L2: there the
     * silicon model charges every DRAM byte an L1 and an L2 sector and the
     * mean route to the L2 itself, and smem_wavefronts come from the SM
     * (bytes of each shared-memory access, no conflicts) */
    uint64_t l1_sectors;          /* L1 data-array sectors read or written */
    uint64_t smem_wavefronts;     /* shared-memory wavefronts */
    uint64_t l2_sectors;          /* L2 slice-array sectors read or written */
    uint64_t noc_sector_um;       /* sectors x on-die wire length, SM to L2 and fabric */
} si_activity;

/* One SM as the model stands after the last silicon_advance(). */
typedef struct si_sm_state {
    int mhz;                      /* clock in force now */
    int att_mhz;                  /* the highest clock bin its V and Vth allow */
    double vdd_mv;                /* supply at its cells (area-weighted mean) */
    double power_w;               /* over the last interval: dynamic + leakage */
    double temp_c;
    double vth_mv;                /* its threshold voltage (variation map) */
} si_sm_state;

/* The chip as the model stands after the last silicon_advance(). */
/* Where the board's energy goes (si_chip_state.energy_by_j, summary.json's
 * chip.energy_by_part_j): the SMs' switching by what switches, at each
 * SM's own supply (power.c), their leakage, and the rest of the board.
 * The parts sum to energy_j.  One table: a part is one line here, the SM's
 * switching first (SI_E_CLOCK..SI_E_L1, what si_power_dyn_nom_parts fills). */
#define SI_ENERGY_PARTS(X)                                                              \
    X(CLOCK, "sm_clock")            /* clock tree, every SM cycle (power.clk_pj) */     \
    X(SCHED, "sm_scheduler")        /* scheduler-cycles with a warp (power.sched_pj) */ \
    X(INSTR, "sm_instructions")     /* datapaths and register words, by row */          \
    X(TENSOR, "sm_tensor")          /* tensor-pipe cycles, by type */                   \
    X(L1, "sm_l1_smem")             /* L1 sectors and shared-memory wavefronts */       \
    X(LEAK, "sm_leakage")           /* the SMs' leakage at their supply and temp */     \
    X(L2, "l2_noc")                 /* L2 sectors and their wires (hierarchy) */        \
    X(UNCORE, "uncore")             /* power.uncore_w: the rest of the die, static */   \
    X(HBM_IDLE, "hbm_idle")         /* power.mem_idle_w */                              \
    X(HBM, "hbm_access")            /* DRAM bytes x power.mem_pj_per_byte */

enum si_energy_part {
#define SI_E_ENUM_(id, name) SI_E_##id,
    SI_ENERGY_PARTS(SI_E_ENUM_)
#undef SI_E_ENUM_
    SI_E_N
};
_Static_assert(SI_E_CLOCK == 0 && SI_E_SCHED == 1 && SI_E_INSTR == 2 && SI_E_TENSOR == 3 && SI_E_L1 == 4,
               "the SM's switching parts come first, in si_power_dyn_nom_parts' order");
extern const char *const si_energy_part_names[SI_E_N];

typedef struct si_chip_state {
    double power_w;               /* board power over the last interval */
    double sm_power_w;            /* ... of which the SMs */
    double uncore_w;              /* ... the rest of the die */
    double mem_w;                 /* ... and the HBM stacks */
    double window_power_w;        /* mean over the last completed DVFS epoch */
    double max_window_power_w;    /* largest window_power_w so far */
    double energy_j;              /* since creation */
    double energy_by_j[SI_E_N];   /* ... by part (SI_ENERGY_PARTS): they sum to energy_j */
    int target_mhz;               /* DVFS target (or idle clock) in force, domain 0 */
    double vreg_mv;               /* regulator set-point in force */
    double temp_max_c, temp_mean_c;  /* over SMs */
    double temp_pkg_c;            /* package / heat-sink node */
    uint64_t changes;             /* domain clock changes taken effect so far */
    int thermal_limited;          /* the last decision was forced by slowdown_c */
} si_chip_state;

/* Build the model for a validated config and its topology.  The variation
 * map is drawn from c->seed.  Returns NULL with *e filled on a config the
 * model cannot use (SK_ECONFIG), a map file it cannot read (SK_EIO,
 * SK_ECONFIG with "file:line: ..."), or a chip with no idle steady state
 * (SK_ESIM: leakage runaway past thermal.shutdown_c, or an SM with no
 * feasible clock bin; docs/silicon.md, "Where the physics breaks").
 * Caller owns it: silicon_destroy(). */
silicon *silicon_create(const cfg *c, const topo *t, sk_error *e);
void silicon_destroy(silicon *si);      /* NULL is a no-op */

/* Advance the model from the time of the previous call (0 after create) to
 * t.  act[i] is what SM i did over that interval (NULL: nothing, an idle
 * chip); it is spread uniformly over the interval.  Power, IR drop and
 * temperature are evaluated; DVFS decisions fall at multiples of
 * dvfs.epoch_ns, hardware thermal checks at multiples of thermal.check_ns.
 * Returns 0, or SK_ESIM when t lies before the previous call or the physics
 * breaks (an SM above thermal.shutdown_c, a supply that cannot hold the
 * lowest bin, a value that is not finite): nothing it reports is ever NaN. */
int silicon_advance(silicon *si, ps_t t, const si_activity *act, sk_error *e);

/* The earliest time after the last silicon_advance() at which the model has
 * something to do: a DVFS decision, a thermal check, a decided clock taking
 * effect, an idle stage clock starting or ending.  The run loop calls
 * silicon_advance() there. */
ps_t silicon_next_ps(const silicon *si);

/* The time of the last silicon_advance() (0 before the first). */
ps_t silicon_time(const silicon *si);

/* Clock of SM `sm` in force at time t >= the last silicon_advance(): the
 * lower of its domain's DVFS target (or an idle stage clock) and the
 * highest bin every SM of its domain attains (one domain, one clock: the
 * slowest SM sets it).  Decisions still pending count from when they take
 * effect. */
int silicon_sm_mhz(const silicon *si, int sm, ps_t t);

/* A kernel is launched at t.  Returns the wake-up delay in ps that the run
 * loop adds before the kernel's first CTA can start: the wake cost of the
 * deepest idle stage entered since the last kernel ended (dvfs.wake_ns
 * after dvfs.wake_after_ns by default), 0 while a kernel runs.  If a stage
 * clock was in force, the DVFS target is back when the delay ends, before
 * any CTA starts.  t before the last silicon_advance() is a run-loop bug
 * and aborts, like an event scheduled into the past. */
ps_t silicon_kernel_launch(silicon *si, ps_t t);
/* A kernel finished at t.  When none is left running, the idle stages
 * follow, each after its after_ns, unless a kernel comes (their clocks not
 * under policy fixed: a clock lock does not idle down). */
void silicon_kernel_end(silicon *si, ps_t t);

/* State accessors; the pointers stay valid until silicon_destroy(). */
int silicon_num_sms(const silicon *si);
const si_sm_state *silicon_sm(const silicon *si, int sm);
const si_chip_state *silicon_chip(const silicon *si);

/* ---- calibration: synthetic workloads, no SM model needed ------------ */

/* Sustained FP32 FMA (the H200 fma_kernel's issue mix) and sustained bf16
 * GEMM (tensor pipes busy, few other instructions), run on a copy of the
 * config with dvfs.policy = power_cap, each for `seconds` after the chip
 * has been idle.  Medians and means are over the second half of each run.
 * See docs/silicon.md, "Calibration".  `validate` can call it and compare
 * with validation/h200 README points 6-8: 0 or a negative SK_E* code. */
typedef struct si_calib {
    double idle_w, idle_temp_c;       /* long idle at dvfs.idle_mhz */
    double awake_w;                   /* no kernel, clock at the DVFS target */
    double fma_mhz, fma_w, fma_temp_c;
    double gemm_mhz, gemm_mhz_min, gemm_mhz_max;
    double gemm_w, gemm_max_w;        /* mean and largest epoch power */
    double gemm_temp_c;               /* mean SM temperature at the end */
    double gemm_changes_per_s;        /* domain clock changes per second */
    double gemm_uncapped_w;           /* the GEMM at the top clock, no cap */
} si_calib;

int silicon_calibrate(const cfg *c, const topo *t, double seconds, si_calib *out,
                      sk_error *e);

/* Tensor-pipe cycles per arithmetic cycle of the warp-specialised GEMM:
 * its MMAs hold their pipe while shared memory delivers the k-tile's
 * operands, 144 cycles for 128 of arithmetic (gen_gemm_ii() derives it in
 * src/trace/gen_gemm.c; tests/test_silicon.c checks the two agree).  The
 * power model charges a tensor-pipe cycle, so a GEMM measured as a FLOP
 * rate (E7) holds its pipes this many cycles per arithmetic cycle. */
#define SI_GEMM_PIPE_PER_MATH (144.0 / 128.0)

/* Activity of one SM per SM cycle (the rates behind si_activity's counts;
 * the si_power_* building blocks take it as counts over an interval). */
typedef struct si_rate {
    double issued[SI_OP_N];
    double operands[SI_OP_N];
    double tensor_cycles[SI_DT_N];
    double sched_cycles;
    double mem_bytes;
    double l1_sectors, smem_wavefronts, l2_sectors, noc_sector_um;
} si_rate;

typedef struct si_sustained {
    double mhz_median, mhz_min, mhz_max;   /* SM 0's clock over the second half */
    double power_w;                        /* mean board power over the second half */
    double temp_c;                         /* mean SM temperature at the end */
} si_sustained;

/* A workload held for `seconds` from a long-idle chip under c as it is
 * (its policy, cap and silicon): rate[i] is SM i's activity per cycle,
 * following each SM's clock.  What validate uses to predict the clock and
 * power of a sustained mix from the activity a short simulation of one of
 * its kernels measured.  0 or a negative SK_E* code. */
int silicon_sustain(const cfg *c, const topo *t, const si_rate *rate, double seconds,
                    si_sustained *out, sk_error *e);

/* ==================================================================== */
/* Building blocks                                                       */
/* ==================================================================== */

/* ---- floorplan (floorplan.c) ---------------------------------------- */

enum si_block_kind { SI_BLOCK_SM, SI_BLOCK_L2, SI_BLOCK_PHY, SI_BLOCK_IO };

typedef struct si_block {
    double x0_um, y0_um, x1_um, y1_um;   /* rectangle on the die, x0 < x1, y0 < y1 */
    int kind;                            /* enum si_block_kind */
    int sm;                              /* SM id, or -1 */
    int gpc;                             /* GPC of an SM block, or -1 */
} si_block;

typedef struct si_floorplan {
    double w_um, h_um;                   /* die */
    int nblocks;
    si_block *blocks;                    /* owned; SM blocks first, block i = SM i */
    int nsms;
} si_floorplan;

/* Place the topology's SMs and the uncore strips on the die
 * (floorplan.* keys).  Returns 0 or SK_ECONFIG.  fp owns its blocks until
 * si_floorplan_free(). */
int si_floorplan_build(si_floorplan *fp, const cfg *c, const topo *t, sk_error *e);
void si_floorplan_free(si_floorplan *fp);

/* ---- power grid (pdn.c) ---------------------------------------------- */

/* A resistive mesh of nx * ny nodes (node (ix, iy) is ix + nx * iy), each
 * joined to its four neighbours through r_x_ohm / r_y_ohm, and node n to a
 * package plane through conductance g_bump_s[n] (0: no bump there); the
 * plane is fed from the regulator through r_pkg_ohm.  The conductance
 * matrix is factored once (banded Cholesky, package node by a Schur
 * complement); each solve is then O(nodes * min(nx, ny)).  create returns
 * NULL with *e filled (SK_ECONFIG) for no bump at all or a non-positive
 * segment resistance; r_pkg_ohm 0 is an ideal package.  Caller owns it. */
typedef struct si_pdn si_pdn;

si_pdn *si_pdn_create(int nx, int ny, double r_x_ohm, double r_y_ohm,
                      const double *g_bump_s, double r_pkg_ohm, sk_error *e);
void si_pdn_destroy(si_pdn *p);
/* Node voltages (v_node, nx * ny) for loads i_node (A drawn at each node)
 * and the regulator at v_reg (V).  *v_pkg (may be NULL) gets the package
 * plane's voltage. */
void si_pdn_solve(const si_pdn *p, double v_reg, const double *i_node, double *v_node,
                  double *v_pkg);

/* ---- voltage to frequency (vf.c) -------------------------------------- */

typedef struct si_vf {
    double vnom_mv, vth_mv, alpha;       /* alpha-power law */
    double k;                            /* MHz * mV^(1 - alpha): f(vnom, vth) = top clock */
    double vmin_mv, guard;               /* regulator floor; voltage margin as a fraction */
    int nbins, step_mhz;
    int *mhz;                            /* owned: clock bins, ascending, step_mhz apart */
    double *vreg_mv;                     /* owned: regulator set-point of each bin */
} si_vf;

/* From vf.*, clocks.sm_mhz and dvfs.min_mhz / step_mhz.  Returns 0 or
 * SK_ECONFIG; vf owns its tables until si_vf_free(). */
int si_vf_init(si_vf *vf, const cfg *c, sk_error *e);
void si_vf_free(si_vf *vf);
/* Alpha-power law: the highest clock (MHz, unquantised) a path with this
 * threshold reaches at supply v: k (v - vth)^alpha / v, 0 when v <= vth. */
double si_vf_fmax_mhz(const si_vf *vf, double v_mv, double vth_mv);
/* Supply a nominal path needs for f MHz (inverse of si_vf_fmax_mhz). */
double si_vf_vneed_mv(const si_vf *vf, double mhz);
/* Index of the highest bin <= mhz (0 below every bin, the top one above). */
int si_vf_bin_down(const si_vf *vf, double mhz);

/* ---- process variation (variation.c) --------------------------------- */

/* Per-SM threshold voltage (mV) and Fmax scale (1 = nominal) for the
 * floorplan's SMs from silicon.preset: uniform (vth = vf.vth_mv, scale 1),
 * skewed (VARIUS: a spherically correlated systematic field plus an
 * independent part, drawn from c->seed), or file (silicon.map_file).
 * Returns 0, SK_EIO or SK_ECONFIG ("file:line: ..."). */
int si_variation_map(const cfg *c, const si_floorplan *fp, double *vth_mv, double *fscale,
                     sk_error *e);
/* The spherical correlation of VARIUS at distance r for range phi. */
double si_spherical_corr(double r, double phi);

/* ---- power (power.c) -------------------------------------------------- */

typedef struct si_power {
    /* switched energy at vnom (J): a warp instruction of row r costs
     * op_j[r] plus word_j[r] per register operand; a tensor-pipe cycle of
     * type t tensor_j[t]; a scheduler-cycle with a resident warp sched_j;
     * an SM cycle clk_j */
    double op_j[SI_OP_N], word_j[SI_OP_N];
    double tensor_j[SI_DT_N];
    double sched_j, clk_j;
    double leak_w;                       /* per SM at vnom, vth nominal, leak_ref_c */
    double vnom_mv, vth_mv;
    double leak_ref_c, leak_beta;        /* exp(beta (T - ref)) */
    double leak_v_mv, leak_vth_mv;       /* e-fold voltages: DIBL, subthreshold slope */
    double uncore_w, mem_idle_w, mem_j_per_byte;
    double l1_j, smem_j;                 /* per L1 sector, per smem wavefront, at vnom (J) */
    double l2_j, wire_j_per_sector_um;   /* per L2 sector; per 32 B sector per um of wire */
} si_power;

void si_power_init(si_power *p, const cfg *c);
/* Leakage of one SM (W). */
double si_power_leak_w(const si_power *p, double v_mv, double vth_mv, double temp_c);
/* Switched energy of an SM at nominal voltage (J) for the activity a
 * (counts over the interval: instructions and their operands by row,
 * tensor-pipe cycles by type, scheduler-cycles with a warp, L1 and
 * shared-memory accesses) and `cycles` clock cycles; multiply by
 * (v / vnom)^2 for the actual supply.  a->issued[FU_TENSOR] is not used:
 * tensor work is charged by its pipe cycles. */
double si_power_dyn_nom_j(const si_power *p, const si_rate *a, double cycles);
/* The same, by part: out[SI_E_CLOCK .. SI_E_L1] (the other parts are not
 * the SM's switching and are left as they are); si_power_dyn_nom_j is
 * their sum. */
void si_power_dyn_nom_parts(const si_power *p, const si_rate *a, double cycles, double out[SI_E_N]);
/* Energy of an SM's L1 and shared-memory accesses at nominal voltage (J),
 * scaled like the rest of the SM's switching (part of si_power_dyn_nom_j);
 * and of the chip's L2 and wires (J), which run on the uncore supply. */
double si_power_mem_sm_nom_j(const si_power *p, double l1_sectors, double smem_wavefronts);
double si_power_mem_chip_j(const si_power *p, double l2_sectors, double noc_sector_um);
/* Datapath energy per lane of row r at 45 nm and 0.9 V (pJ) and its
 * register words per operand (the tables of power.c, before the scale). */
double si_op_lane_pj45(int row);
int si_op_words(int row);
const char *si_op_row_name(int row);
/* The energy row of an instruction of unit class cls from its mnemonic:
 * 0 when it is the class's own row (so that 0 in a trace's instructions
 * means "by class"), else one of SI_OP_EXTRA_MAP's, or FU_INT for VIADD (an
 * integer add that issues to the FP32 unit).  A class row other than
 * FU_INT cannot be returned for another class: FU_FP32 is 0. */
int si_op_row_of(const char *mnemonic, int cls);
/* The row an instruction of row `row` takes in a kernel whose operands are
 * random data (trace key data=random): FFMA's, FADD's and FMUL's *_RND
 * twins, any other row itself. */
int si_op_row_random(int row);

/* ---- tensor data types (tensor.c) -------------------------------------- */

const char *si_tensor_dtype_name(int dt);
/* Energy of a tensor-pipe cycle of type dt relative to a bf16 cycle, when
 * a share datapath_share (0..1) of a bf16 cycle's energy is the multiply-
 * accumulate datapath. */
double si_tensor_scale(double datapath_share, int dt);
/* FMAs one tensor-pipe cycle of type dt does relative to bf16 (the dense
 * datasheet rates), and the datapath energy of one FMA of type dt at 45 nm
 * and 0.9 V (pJ): the multiplier by its significand width squared plus the
 * accumulator's adder (tensor.c). */
double si_tensor_fmas(int dt);
double si_tensor_fma_pj45(int dt);
/* The input type of a tensor op from its SASS mnemonic (last type token:
 * "HGMMA.64x256x16.F32.BF16" -> SI_DT_BF16); SI_DT_BF16 when it has none. */
int si_tensor_dtype_of(const char *mnemonic);

/* ---- temperature (thermal.c) ----------------------------------------- */

/* Lumped RC: n block nodes, each with heat capacity c[i] (J/K) and a
 * conductance g[i] (W/K) to one package node (capacity c_pkg, conductance
 * g_amb to the inlet air/coolant at t_amb).  Integrated by backward Euler
 * in sub-steps no longer than a twentieth of the fastest time constant.
 * Every node starts at t_amb.  Caller owns it: si_thermal_destroy(). */
typedef struct si_thermal si_thermal;

si_thermal *si_thermal_create(int n, const double *c_j_per_k, const double *g_w_per_k,
                              double c_pkg, double g_amb, double t_amb_c);
void si_thermal_destroy(si_thermal *th);
/* Advance dt_s seconds with block powers p_w[n] and p_pkg_w into the
 * package node directly. */
void si_thermal_step(si_thermal *th, const double *p_w, double p_pkg_w, double dt_s);
/* Jump to the steady state for these powers. */
void si_thermal_steady(si_thermal *th, const double *p_w, double p_pkg_w);
const double *si_thermal_temps(const si_thermal *th);   /* n block temperatures */
double si_thermal_pkg(const si_thermal *th);

/* ---- DVFS controller (dvfs.c) ----------------------------------------- */

/* One clock domain's controller: every epoch it compares the measured mean
 * power with its set-point (cap - margin) and integrates the error
 * (sigma-delta, clipped at +-max(margin, one bin's power)); the new target
 * is the highest bin whose predicted power stays below set-point +
 * integral.  A decision takes effect `latency` later; no new decision is made
 * while one is pending. */
typedef struct si_dvfs_domain {
    int cur;                             /* bin in force */
    int pend;                            /* decided bin, -1 if none pending */
    ps_t pend_ps;                        /* when it takes effect */
    double acc_w;                        /* integral of (set-point - power) */
    double cap_w, margin_w;              /* this domain's share */
} si_dvfs_domain;

/* Predicted power of the domain (W) at bin b, given last epoch's activity. */
typedef double (*si_predict_fn)(void *ud, int bin);

/* One decision at time now.  hot: 0 free, 1 no step up (within thermal.
 * hyst_c of the limit), 2 at least one bin down (at or over the limit).
 * Returns the decided bin (== d->cur when nothing changes); a change is
 * recorded as pending until now + latency_ps, and the caller applies it
 * then (d->cur = d->pend, d->pend = -1).  While a decision is pending it
 * returns d->cur and changes nothing. */
int si_dvfs_decide(si_dvfs_domain *d, double measured_w, int top_bin, int hot,
                   si_predict_fn predict, void *ud, ps_t now, ps_t latency_ps);

#endif
