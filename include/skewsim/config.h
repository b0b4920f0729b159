/* config.h -- the chip configuration.
 *
 * One struct holds every setting; one schema table (config.c, cfg_schema[])
 * is the only place a key's name, type, default, bounds and unit live.  The
 * same table validates YAML input, applies --set overrides, prints
 * --help-config and writes --dump.  Field names carry their unit.
 *
 * Keys are dotted paths mirroring the YAML nesting, e.g. "sm.warp_schedulers"
 * or "units.fp32.lat_cycles".
 */
#ifndef SKEWSIM_CONFIG_H
#define SKEWSIM_CONFIG_H

#include <stdio.h>
#include "skewsim/common.h"

#define CFG_MAX_GPCS 32
#define CFG_NAME_MAX 64

/* Functional-unit classes: what an instruction occupies when it issues.
 * The order is the order of the units.* keys. */
#define FU_CLASS_MAP(X)                                     \
    X(FP32,   "fp32")    /* FFMA, FADD, FMUL, FSETP ...  */ \
    X(FP16,   "fp16")    /* HFMA2, HADD2 ...             */ \
    X(INT,    "int")     /* IADD3, LOP3, ISETP, IMAD ... */ \
    X(FP64,   "fp64")    /* DFMA, DADD ...               */ \
    X(SFU,    "sfu")     /* MUFU.*                       */ \
    X(TENSOR, "tensor")  /* HMMA, HGMMA, IMMA ...        */ \
    X(LDST,   "ldst")    /* LDG/STG/LDS/STS/LDC/ATOM ... */ \
    X(BRANCH, "branch")  /* BRA, EXIT, BSSY, BSYNC ...   */ \
    X(MISC,   "misc")    /* MOV, S2R, CS2R, NOP, BAR ... */

enum fu_class {
#define FU_ENUM_(id, name) FU_##id,
    FU_CLASS_MAP(FU_ENUM_)
#undef FU_ENUM_
    FU_NCLASS
};

/* Name of a unit class ("fp32", ...). */
const char *fu_class_name(int cls);

typedef struct cfg_unit {
    int count;        /* pipelines of this class per warp scheduler */
    int lat_cycles;   /* issue to result available (dependent latency) */
    int ii_cycles;    /* initiation interval: cycles a pipeline is busy per warp instruction */
} cfg_unit;

enum cfg_numbering {        /* how SM ids are assigned over the topology */
    NUMBER_GPC_MAJOR,       /* all SMs of GPC 0, then GPC 1, ... */
    NUMBER_TPC_ROUND_ROBIN  /* one TPC of each GPC in turn (what the H200 does) */
};

enum cfg_dispatch_policy { DISPATCH_GIGATHREAD, DISPATCH_ROUND_ROBIN };
enum cfg_warp_policy { WARP_GTO, WARP_LRR, WARP_OLDEST };

typedef struct cfg {
    char name[CFG_NAME_MAX];          /* chip.name */

    /* topology */
    int gpcs;                         /* topology.gpcs */
    int tpcs_per_gpc[CFG_MAX_GPCS];   /* topology.tpcs_per_gpc: one int, or a list of gpcs ints */
    int sms_per_tpc;                  /* topology.sms_per_tpc */
    int numbering;                    /* topology.numbering: enum cfg_numbering */
    int tail_gpcs;                    /* topology.tail_gpcs: the last N GPCs are numbered after all others */

    /* per-SM limits */
    int max_threads;                  /* sm.max_threads */
    int max_warps;                    /* sm.max_warps */
    int max_ctas;                     /* sm.max_ctas */
    int registers;                    /* sm.registers (32-bit registers per SM) */
    int reg_alloc_unit;               /* sm.reg_alloc_unit (registers per warp allocation granule) */
    int smem_bytes;                   /* sm.smem_bytes */
    int smem_alloc_unit_bytes;        /* sm.smem_alloc_unit_bytes */
    int smem_reserved_per_cta_bytes;  /* sm.smem_reserved_per_cta_bytes */
    int warp_schedulers;              /* sm.warp_schedulers */
    int issue_width;                  /* sm.issue_width (instructions per scheduler per cycle) */
    int warp_policy;                  /* sm.warp_policy: enum cfg_warp_policy */
    int starvation_cycles;            /* sm.starvation_cycles: once every N cycles the ready warp that
                                         has waited longest (at least N) issues first (0 = never) */
    int cta_launch_cycles;            /* sm.cta_launch_cycles: CTA arrival to first possible issue */
    int barrier_cycles;               /* sm.barrier_cycles: last arrival to release */

    cfg_unit units[FU_NCLASS];        /* units.<class>.{count,lat_cycles,ii_cycles} */

    /* clocks */
    int sm_mhz;                       /* clocks.sm_mhz */

    /* kernel launch */
    int launch_start_ns;              /* launch.start_ns: launch (CUDA event) to first CTA dispatch */
    int launch_end_ns;                /* launch.end_ns: last CTA end to completion event */

    /* CTA dispatch (GigaThread) */
    int dispatch_policy;              /* dispatch.policy: enum cfg_dispatch_policy */
    int dispatch_cta_ps;              /* dispatch.cta_ps: global dispatcher time per CTA */
    int tail_every_bursts;            /* dispatch.tail_every_bursts: the tail GPCs get a burst after
                                         this many GPC bursts (0 = they are one more GPC in the ring) */
    int tail_first_gap_bursts;        /* dispatch.tail_first_gap_bursts: ... between its 1st and 2nd */
    int tail_rotate_tpcs;             /* dispatch.tail_rotate_tpcs: the tail walk starts this many TPCs in */

    int grid_sync_ns;                 /* sync.grid_ns: last arrival at GRID.SYNC to release */

    /* memory (simple model: latency plus a chip-wide bandwidth limit) */
    int mem_latency_ns;               /* memory.latency_ns: global load round trip, unloaded */
    int mem_bandwidth_gbps;           /* memory.bandwidth_gbps: sustained DRAM bandwidth */
    int smem_latency_cycles;          /* memory.smem_latency_cycles: shared memory load to use */

    /* simulation */
    uint64_t seed;                    /* sim.seed */
    int64_t max_time_ns;              /* sim.max_time_ns: abort a run past this simulated time (0 = no limit) */
} cfg;

/* Fill *c with every default from the schema. */
void cfg_defaults(cfg *c);

/* Load a YAML file over the defaults already in *c.  Unknown keys, wrong
 * types, out-of-range values and duplicate keys are errors reported as
 * "path:line:col: key: bad value: what was expected". */
int cfg_load_file(cfg *c, const char *path, sk_error *e);
/* Same, from a string; `name` is used as the file name in messages. */
int cfg_load_string(cfg *c, const char *name, const char *yaml, sk_error *e);

/* Apply one "key=value" override (from --set). */
int cfg_set(cfg *c, const char *assignment, sk_error *e);

/* Cross-field checks (e.g. sm.max_warps divisible by sm.warp_schedulers).
 * Called after loading and after all overrides. */
int cfg_validate(const cfg *c, sk_error *e);

/* Write the effective config as YAML that cfg_load_file() reads back to the
 * same values.  With `with_help`, each key carries its unit, bounds and help
 * as a comment. */
void cfg_dump(const cfg *c, FILE *out, int with_help);

/* Print every key with type, default, bounds, unit and help (--help-config). */
void cfg_help(FILE *out);

/* The schema's rows, for tests that loop over every key: how many, and row
 * i's dotted name and default as text (what "--set name=default" takes).
 * The strings belong to the table; NULL when i is out of range. */
size_t cfg_schema_len(void);
const char *cfg_schema_key(size_t i);
const char *cfg_schema_default(size_t i);

/* Derived: total SMs and TPCs. */
int cfg_num_sms(const cfg *c);
int cfg_num_tpcs(const cfg *c);

#endif
