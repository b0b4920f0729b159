/* program.h -- pre-decoded kernel programs, as the SM model executes them.
 *
 * A trace is parsed once into this form; the hot loop never looks at a string.
 * A program is a flat array of instructions in which loops are two marker
 * entries (IK_LOOP ... IK_ENDLOOP) that cost no issue slot: the warp keeps a
 * small stack of loop counters.  Registers are renumbered densely per program
 * (R*, P*, UR*, UP* all share one dense space, RZ/PT/URZ/UPT are dropped
 * because they carry no dependency), so a warp's scoreboard is a small array
 * of `nregs` ready-cycles.
 */
#ifndef SKEWSIM_PROGRAM_H
#define SKEWSIM_PROGRAM_H

#include "skewsim/common.h"
#include "skewsim/config.h"

#define PROG_MAX_DST 2
#define PROG_MAX_SRC 4
#define PROG_MAX_LOOP_DEPTH 8
#define PROG_MAX_REGS 1024        /* dense registers per program */

enum instr_kind {
    IK_ALU,         /* fixed-latency op on a functional unit */
    IK_LD_GLOBAL,   /* global/local load: result after the memory model's latency */
    IK_ST_GLOBAL,   /* global/local store: consumes bandwidth, no result */
    IK_LD_SHARED,   /* shared-memory load (LDS), constant load (LDC) */
    IK_ST_SHARED,   /* shared-memory store */
    IK_BAR,         /* CTA-wide barrier (BAR.SYNC) */
    IK_GRIDBAR,     /* grid-wide barrier (pseudo-op GRID.SYNC: cooperative_groups grid.sync();
                       the kernel must be co-resident, as a cooperative launch guarantees) */
    IK_EXIT,        /* warp exits */
    IK_LOOP,        /* loop head marker: arg = repeat count; no issue slot */
    IK_ENDLOOP,     /* loop tail marker: arg = index of its IK_LOOP; no issue slot */
    IK_IFWARP,      /* block run only by warp `arg` of the CTA (SASS: code behind a branch
                       on the thread index, e.g. thread 0's bookkeeping); others go to `jump` */
    IK_ENDIF        /* end of an IK_IFWARP block; no issue slot */
};

enum mem_pattern {  /* how the 32 threads of a warp address memory */
    MP_COALESCED,   /* consecutive: one warp access moves 32 x bytes */
    MP_STRIDED,     /* stride given in `stride`: sectors touched grow with it */
    MP_RANDOM,      /* each thread its own 32-byte sector */
    MP_UNIFORM      /* all threads the same address (broadcast) */
};

#define IF_WORK_SCALED 0x1   /* IK_LOOP: count is multiplied by the CTA's work factor */
/* Where the kernel reads its own timers (thread 0 of warp 0, as the
 * measured kernels do): a CTA's recorded start/end times are warp 0's
 * issue of the timer=start / timer=end instruction (%globaltimer reads) and
 * its recorded cycles lie between clock=start and clock=end (clock64()
 * reads).  Without marks: first instruction and completion. */
#define IF_TIMER_START 0x2
#define IF_TIMER_END   0x4
#define IF_CLOCK_START 0x8
#define IF_CLOCK_END   0x10
/* A global load the trace marks as not cached in L1 (its mnemonic carries
 * .CG, .STRONG.GPU, .STRONG.SYS or .VOLATILE: docs/trace-format.md,
 * "Addresses"). */
#define IF_BYPASS_L1   0x20
/* An opcode that issues to half of its unit's lanes (prog_op_half: VIADD),
 * set by the readers from the mnemonic: its pipe is busy twice the unit's
 * ii_cycles. */
#define IF_HALF        0x40
/* A shared-memory access that reads or writes the SM's shared-memory
 * array (LDS, LDSM, STS, STSM, ATOMS; prog_mem_flags): its wavefronts take
 * the array's cycles (memory.smem_wavefront_cycles).  Not LDC or ULDC
 * (the constant cache), nor LDGSTS (its data reaches the array when the
 * global read returns, which is not modelled), which are IK_LD_SHARED too. */
#define IF_SMEM        0x80

typedef struct instr {
    uint8_t kind;                 /* enum instr_kind */
    uint8_t cls;                  /* enum fu_class */
    uint8_t stall;                /* compiler stall count: this warp may issue again
                                     `stall` cycles later (>= 1; 1 when the trace gives none) */
    uint8_t ndst, nsrc;
    uint8_t flags;                /* IF_* */
    uint8_t pattern;              /* enum mem_pattern, memory ops */
    uint8_t bytes;                /* memory ops: bytes per thread (1..16) */
    uint8_t erow;                 /* energy row of the silicon model (silicon.h si_op_row,
                                     from the mnemonic); 0: its class's own */
    uint8_t dtype;                /* tensor ops: input type (silicon.h si_tensor_dtype, from
                                     the mnemonic's type token); 0: bf16 */
    uint8_t reuse;                /* bit j: src[j] is read from the operand reuse cache (the
                                     trace's R7.reuse; SASS's .reuse), not from its bank */
    uint16_t ii;                  /* cycles the pipeline is busy (trace key ii=); 0: the unit's
                                     ii_cycles.  For shape-dependent ops such as HGMMA.64x256x16 */
    uint16_t apat;                /* memory ops: 1 + index into program.apats of its address
                                     pattern (trace key addr=); 0: none, bytes only */
    uint16_t dst[PROG_MAX_DST];   /* dense register ids */
    uint16_t src[PROG_MAX_SRC];
    uint32_t arg;                 /* IK_LOOP: count; IK_ENDLOOP: index of the IK_LOOP;
                                     IK_IFWARP: warp index within the CTA */
    uint32_t jump;                /* IK_IFWARP: index just past the matching IK_ENDIF;
                                     IK_LOOP: index just past its IK_ENDLOOP (a count of 0) */
    uint32_t stride;              /* MP_STRIDED: bytes between consecutive threads */
    uint32_t opcode;              /* index into the program's opcode name table (stats, debugging) */
    uint32_t line;                /* trace line it came from (messages) */
    /* Resolved from the config when the simulator prepares the kernel that
     * owns the program (sim.c, prepare_kernel), so that an issue looks up
     * nothing: 0 until then. */
    uint32_t busy;                /* cycles its pipeline is busy: ii, else units.<cls>.ii_cycles */
    uint32_t lat;                 /* units.<cls>.lat_cycles */
    uint8_t row;                  /* energy row: erow, else its class's */
    uint8_t nops;                 /* register operands: nsrc + ndst */
    uint8_t gap;                  /* cycles to its warp's next issue: stall, 0 counting as 1 */
    uint8_t bank;                 /* extra cycles its register reads hold the scheduler's issue
                                     port (prog_bank_cycles with sm.register_banks) */
} instr;

typedef struct program {
    char *name;                   /* owned */
    instr *code;                  /* owned, n entries */
    uint32_t n, cap;
    uint32_t nregs;               /* dense registers used */
    char **opnames;               /* owned opcode name table */
    uint32_t nopnames, opcap;
    uint32_t *opindex;            /* owned: open-addressing hash of opnames (index + 1, 0 =
                                     empty), 2 * opcap slots, so interning costs O(1) */
    char **regnames;              /* owned, nregs entries (regcap allocated): the trace's
                                     name of each dense register ("R9", "P2"), so the
                                     writer prints a program back as it was read; NULL
                                     for a program built by hand (writer invents names) */
    uint32_t regcap;
    struct mem_apat *apats;       /* owned: address patterns (memsys.h), napats entries */
    uint32_t napats, apcap;
} program;

/* What one CTA runs: which program, and a multiplier on its work-scaled loops. */
typedef struct cta_desc {
    uint64_t id;                  /* linear CTA id, 0..grid-1 */
    uint32_t prog;                /* index into kernel.progs */
    double work;                  /* IF_WORK_SCALED loop counts are round(count * work) */
} cta_desc;

/* CTAs per thread block cluster: 8 portable, 16 with
 * cudaFuncAttributeNonPortableClusterSizeAllowed (CUDA programming guide,
 * cc 9.0). */
#define KERNEL_CLUSTER_MAX 16

typedef struct kernel {
    char *name;                   /* owned */
    uint64_t grid;                /* CTAs (x*y*z) */
    uint32_t block_threads;       /* threads per CTA */
    uint32_t regs_per_thread;
    uint32_t smem_bytes;          /* static + dynamic shared memory per CTA */
    uint32_t cluster;             /* CTAs per thread block cluster (trace key cluster=): the
                                     CTAs kC..kC+C-1 are co-scheduled on one GPC; 0: launched
                                     without the cluster attribute */
    int32_t green_sms;            /* trace key sms=: N > 0 runs in the group of a green-context
                                     split of N SMs (sms=green:N), -N in what that split leaves
                                     (sms=rest:N); 0: every SM */
    uint8_t green_nocosched;      /* sms=green:N:nocosched / rest:N:nocosched: the split ignores
                                     SM co-scheduling (CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING) */
    uint8_t mig;                  /* sms=mig:PROFILE[@START]: 1 + index of topo_mig_profile_at(); 0: none */
    uint8_t mig_start;            /* its start slot */
    uint8_t l2_part;              /* sms=l2:P: 1 + P, the SMs whose home L2 partition is P; 0: none */
    uint32_t one_sm;              /* sms=sm:ID: 1 + ID, the kernel runs on SM ID alone (a
                                     capture's recorded SM, say); 0: none */
    uint64_t gap_ns;              /* the GPU idles this long after the previous kernel before
                                     this one launches (trace key gap_ns=; 0: back to back) */
    uint32_t stream;              /* trace key stream=: kernels of one stream run in trace order,
                                     of different streams concurrently (0: the default stream) */
    int sync_host;                /* trace key sync=host: the host waits for every kernel launched
                                     before to complete, then launches this one (no pre-queueing) */
    uint8_t data_quiet;           /* trace key data=quiet: its FP32 operands toggle few bits from
                                     one instruction to the next (fma_kernel's chains by ~1.0);
                                     0 (data=random, the default): they switch as random data do
                                     (the power model's power.fp32_random_fj, docs/silicon.md) */
    uint8_t event_before;         /* trace key event=before: a CUDA event is recorded in its
                                     stream just before it (cudaEventRecord between the
                                     previous kernel and this one): it dispatches no sooner
                                     than that event completes, plus launch.event_gap_ns */
    program *progs;               /* owned array of nprogs */
    uint32_t nprogs;
    char *ctas_text;              /* owned, or NULL: the body of a ctas section the writer
                                   writes back (a generator's CTA-to-program map; a reader
                                   streams its own and leaves this NULL) */
} kernel;

/* Opcode table: map an opcode mnemonic (with or without modifiers, e.g.
 * "FFMA", "IADD3", "LDG.E.128", "HFMA2.MMA") to its kind and unit class.
 * Returns 0, or SK_ETRACE when the opcode is unknown (message in *e names it). */
int prog_classify(const char *opcode, uint8_t *kind, uint8_t *cls, sk_error *e);
/* 1 when the opcode's table row issues to half of its class's lanes, so
 * that it holds its pipe twice the unit's ii_cycles (VIADD: E29), else 0. */
int prog_op_half(const char *opcode);

/* The vector register number (0-254) of dense register id of p, or -1 when
 * it is not a vector register (P, UR, UP).  Programs read from a trace
 * keep their names (regnames); one built by hand has none, and its ids
 * are the names the writer gives them (prog_synth_regname). */
int prog_vreg(const program *p, uint16_t id);
/* The writer's name of dense register id of a program without regnames:
 * R0-R254, then UR0-UR62, P0-P6, UP0-UP6.  -1 past them. */
int prog_synth_regname(uint32_t id, char *buf, size_t n);
/* The cycles instruction in's register reads add to its issue with a
 * register file of `banks` banks (a register's bank is its number modulo
 * banks; 0: no bank model): the vector registers it reads that are not
 * marked reuse (in->reuse), each counted once, and in the bank most of them
 * fall in, all but one.  E29 (validation/h100/README.md) measured two banks
 * by parity and one cycle for two same-bank reads. */
unsigned prog_bank_cycles(const program *p, const instr *in, int banks);

/* Program building (used by the trace reader and by tests). */
void prog_init(program *p, const char *name);
void prog_free(program *p);
uint32_t prog_opname(program *p, const char *opcode);   /* intern, return index */
instr *prog_append(program *p);                         /* zeroed, stall = 1 */
/* Dense id of register `name` ("R9", "P2"), numbered in order of first
 * appearance and recorded in regnames.  0, or -1 past PROG_MAX_REGS. */
int prog_regname(program *p, const char *name, uint16_t *out);

/* IF_* flags an opcode's modifiers give a memory instruction of this kind
 * (IF_BYPASS_L1) or its mnemonic gives a shared-memory one (IF_SMEM), for
 * every trace reader. */
uint8_t prog_mem_flags(const char *opcode, uint8_t kind);

/* Add an address pattern; returns its instr.apat value (1 + index), or 0
 * when the program already holds 65535. */
uint16_t prog_add_apat(program *p, const struct mem_apat *a);

/* Total dynamic warp-instructions one warp executes for `work` (loops
 * expanded, markers not counted).  Used by tests and for progress. */
uint64_t prog_dynamic_count(const program *p, double work);
/* The same for warp `widx` of its CTA: ifwarp blocks only where they name
 * it.  Exact for programs whose one EXIT is their last entry. */
uint64_t prog_warp_count(const program *p, double work, uint32_t widx);

void kernel_free(kernel *k);

#endif
