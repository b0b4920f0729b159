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
#include "skewsim/policies.h"

#define CFG_MAX_GPCS 32
#define CFG_NAME_MAX 64
#define CFG_MAX_CPCS 16            /* topology.cpcs_per_gpc's bound */
/* Idle power-manager stages a config can list (dvfs.stage1 .. stage8). */
#define CFG_IDLE_STAGES 8

/* Functional-unit classes: what an instruction occupies when it issues.
 * The order is the order of the units.* keys. */
#define FU_CLASS_MAP(X)                                     \
    X(FP32,   "fp32")    /* FFMA, FADD, IMAD, VIADD ...  */ \
    X(FP16,   "fp16")    /* HFMA2, HADD2 ...             */ \
    X(INT,    "int")     /* IADD3, LOP3, ISETP, IMUL ... */ \
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
    int queue;        /* instructions that may wait, issued, for a busy pipeline (0: none) */
} cfg_unit;

enum cfg_numbering {        /* how SM ids are assigned over the topology */
    NUMBER_GPC_MAJOR,       /* all SMs of GPC 0, then GPC 1, ... */
    NUMBER_TPC_ROUND_ROBIN  /* one TPC of each GPC in turn (what the H200 does) */
};

/* The policy enums expand the lists of policies.h. */
enum cfg_dispatch_policy {
#define POLICY_ENUM_(id, name, help) DISPATCH_##id,
    DISPATCH_POLICY_MAP(POLICY_ENUM_)
#undef POLICY_ENUM_
    DISPATCH_NPOLICIES
};
enum cfg_warp_policy {
#define POLICY_ENUM_(id, name, help) WARP_##id,
    WARP_POLICY_MAP(POLICY_ENUM_)
#undef POLICY_ENUM_
    WARP_NPOLICIES
};
/* silicon.preset: "skewed" is the old name of "varius", kept so that older
 * configs and sweep specs still read (it means the same map). */
enum cfg_si_preset { SI_PRESET_UNIFORM, SI_PRESET_VARIUS, SI_PRESET_FILE, SI_PRESET_SKEWED };
enum cfg_dvfs_policy { DVFS_FIXED, DVFS_POWER_CAP, DVFS_PER_GPC, DVFS_PER_SM };
enum cfg_mem_model { MEM_MODEL_FLAT, MEM_MODEL_HIERARCHY };
/* memory.tlb.l2_scope: one L2 TLB for the chip, or one per GPC. */
enum cfg_tlb_scope { TLB_SCOPE_CHIP, TLB_SCOPE_GPC };
/* memory.tlb.l1_replace: the L1 TLB's victim in a full set (memsys.h mem_tlb_create). */
enum cfg_tlb_replace { TLB_REPLACE_LRU, TLB_REPLACE_MRU, TLB_REPLACE_RANDOM };
/* memory.l2.reprieve_place: where a dirty line's reprieve puts it in its set's
 * LRU order (mem_cache_geom.reprieve_place). */
enum cfg_reprieve_place { REPRIEVE_MEDIAN, REPRIEVE_HASHED };
/* launch.module_loading: which one-time launch costs a run pays. */
enum cfg_module_loading { MODLOAD_STEADY, MODLOAD_LAZY, MODLOAD_EAGER };

typedef struct cfg {
    char name[CFG_NAME_MAX];          /* chip.name */

    /* topology */
    int gpcs;                         /* topology.gpcs */
    int tpcs_per_gpc[CFG_MAX_GPCS];   /* topology.tpcs_per_gpc: one int, or a list of gpcs ints */
    int sms_per_tpc;                  /* topology.sms_per_tpc */
    int numbering;                    /* topology.numbering: enum cfg_numbering */
    int tail_gpcs;                    /* topology.tail_gpcs: the last N GPCs are numbered after all others */
    int tail_max_cluster;             /* topology.tail_max_cluster: largest cluster a tail SM takes */
    int cpcs_per_gpc;                 /* topology.cpcs_per_gpc: chains of TPCs to a GPC's hub */
    int tail_host_gpc;                /* topology.tail_host_gpc: GPC (from 1) holding the tail TPCs; 0 none */
    int green_unit_sms;               /* topology.green_unit_sms: green-context granule */
    char floorsweep[CFG_NAME_MAX];    /* topology.floorsweep: fused TPCs, "none", "yield"; "" off */
    int die_gpcs;                     /* topology.die_gpcs */
    int die_tpcs_per_gpc;             /* topology.die_tpcs_per_gpc */
    int sku_tpcs;                     /* topology.sku_tpcs */
    int random_tpcs;                  /* topology.random_tpcs */
    int defect_ppm;                   /* topology.defect_ppm */

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
    int active_warps;                 /* sm.active_warps: two_level's active set per scheduler */
    int ccws_vta_entries;             /* sm.ccws.vta_entries: victim tags per warp */
    int ccws_base_score;              /* sm.ccws.base_score: a warp's lost-locality score at rest */
    int ccws_score_inc;               /* sm.ccws.score_inc: points a VTA hit adds */
    int ccws_decay;                   /* sm.ccws.decay: points a score loses per cycle */
    int starvation_cycles;            /* sm.starvation_cycles: once every N cycles the ready warp that
                                         has waited longest (at least N) issues first (0 = never) */
    int cta_launch_cycles;            /* sm.cta_launch_cycles: CTA arrival to first possible issue */
    int barrier_cycles;               /* sm.barrier_cycles: last arrival to release */
    int barrier_arrive_cycles;        /* sm.barrier_arrive_cycles: the SM's barrier unit per arrival */
    int store_read_cycles;            /* sm.store_read_cycles: a global store's read barrier */
    int register_banks;               /* sm.register_banks: 0 = no register-bank conflicts */

    cfg_unit units[FU_NCLASS];        /* units.<class>.{count,lat_cycles,ii_cycles,queue} */

    /* clocks */
    int sm_mhz;                       /* clocks.sm_mhz */

    /* kernel launch */
    int launch_start_ns;              /* launch.start_ns: launch (CUDA event) to first CTA dispatch */
    int launch_end_ns;                /* launch.end_ns: last CTA end to completion event */
    int launch_host_ns;               /* launch.host_ns: host launch call, back to back */
    int launch_queue_gap_ns;          /* launch.queue_gap_ns: last CTA to a queued kernel's first (0: off) */
    int launch_event_gap_ns;          /* launch.event_gap_ns: an event's completion to the queued kernel after it */
    int module_loading;               /* launch.module_loading: enum cfg_module_loading */
    int launch_first_ns;              /* launch.first_launch_ns: the run's first launch (lazy, eager) */
    int module_load_ns;               /* launch.module_load_ns: lazy: the run's first launch loads the module */
    int coop_setup_ns;                /* launch.coop_setup_ns: the run's first cooperative launch (lazy, eager) */

    /* CTA dispatch (GigaThread) */
    int dispatch_policy;              /* dispatch.policy: enum cfg_dispatch_policy */
    int dispatch_cta_ps;              /* dispatch.cta_ps: global dispatcher time per CTA */
    int tail_every_bursts;            /* dispatch.tail_every_bursts: the tail GPCs get a burst after
                                         this many GPC bursts (0 = they are one more GPC in the ring) */
    int tail_first_gap_bursts;        /* dispatch.tail_first_gap_bursts: ... between its 1st and 2nd */
    int tail_rotate_tpcs;             /* dispatch.tail_rotate_tpcs: the tail walk starts this many TPCs in */

    int grid_sync_ns;                 /* sync.grid_ns: last arrival served at GRID.SYNC to release */
    int grid_cta_ps;                  /* sync.grid_cta_ps: one CTA's arrival at the counter, served in turn */

    /* memory (simple model: latency plus a chip-wide bandwidth limit) */
    int mem_latency_ns;               /* memory.latency_ns: global load round trip, unloaded */
    int mem_bandwidth_gbps;           /* memory.bandwidth_gbps: sustained DRAM bandwidth */
    int smem_latency_cycles;          /* memory.smem_latency_cycles: shared memory load to use */
    int smem_load_ii_cycles;          /* memory.smem_load_ii_cycles: LDS's hold on its LD/ST pipe */
    int smem_wavefront_cycles;        /* memory.smem_wavefront_cycles: the SM's array, a wavefront */
    int smem_warp_wf_cycles;          /* memory.smem_warp_wf_cycles: one warp's, a wavefront */
    /* memory hierarchy (memory.model = hierarchy; src/mem, docs/memory.md) */
    int mem_model;                    /* memory.model: enum cfg_mem_model */
    int l1_unified_bytes;             /* memory.l1.unified_bytes: L1 + shared memory per SM */
    int l1_sets;                      /* memory.l1.sets (ways follow from the carve-out) */
    int l1_set_hash;                  /* memory.l1.set_hash: 0 low line bits, 1 a random-like hash,
                                         2 GH100's measured index */
    int l1_whole_tags;                /* memory.l1.whole_tags */
    int l1_data_reserve_bytes;        /* memory.l1.data_reserve_bytes */
    int l1_carveout_threads;          /* memory.l1.carveout_threads: the driver's CTA count for the
                                         carve-out of a kernel without shared memory */
    int l1_carveout_threads_smem;     /* memory.l1.carveout_threads_smem: of one with shared memory */
    int l1_reserve_carveout;          /* memory.l1.reserve_carveout: a kernel without shared memory
                                         carves its CTAs' reserve out of the L1 too */
    int l1_line_bytes, l1_sector_bytes;   /* memory.l1.line_bytes, memory.l1.sector_bytes */
    int l1_mshrs;                     /* memory.l1.mshrs: misses in flight per SM */
    int l1_hit_cycles;                /* memory.l1.hit_cycles: lookup to data, SM cycles */
    int l1_l2_port_gbps;              /* memory.l1.l2_port_gbps: L2-to-SM data, per SM (0: none) */
    int l1_request_millicycles;       /* memory.l1.request_millicycles: between two lines' requests to L2 */
    int l1_store_bytes_per_cycle;     /* memory.l1.store_bytes_per_cycle: SM-to-L2 store data (0: none) */
    int l1_launch_invalidate;         /* memory.l1.launch_invalidate: a launch empties the L1s */
    int l1_bytes_per_cycle;           /* memory.l1.bytes_per_cycle: data port */
    int l1_sector_pj;                 /* memory.l1.sector_pj: energy per 32 B sector */
    int smem_wavefront_pj;            /* memory.l1.smem_wavefront_pj: per shared-memory wavefront */
    int l2_partitions;                /* memory.l2.partitions (1 or 2) */
    int l2_slices_per_partition;      /* memory.l2.slices_per_partition */
    int l2_slice_bytes;               /* memory.l2.slice_bytes */
    int l2_sets;                      /* memory.l2.sets: per slice */
    int l2_line_bytes, l2_sector_bytes;   /* memory.l2.line_bytes, memory.l2.sector_bytes */
    int l2_mshrs;                     /* memory.l2.mshrs: per slice */
    int l2_hit_ps;                    /* memory.l2.hit_ps: unloaded hit at zero route length */
    int l2_remote_ps;                 /* memory.l2.remote_ps: extra for the other partition */
    int l2_noc_ps_per_mm;             /* memory.l2.noc_ps_per_mm: route delay, each way */
    int l2_route_spread_ps;           /* memory.l2.route_spread_ps: GPC-to-slice route spread */
    int l2_route_row_pct;             /* memory.l2.route_row_pct: share that follows the GPC's row */
    int l2_route_row_skew_permille;   /* memory.l2.route_row_skew_permille: the slices' mean place across the band */
    int l2_tpc_hop_ps;                /* memory.l2.tpc_hop_ps: each TPC passed on the chain, out and back */
    char l2_cpc_ps[CFG_NAME_MAX];     /* memory.l2.cpc_ps: each chain's own offset, ps, comma-separated */
    int l2_slice_gbps;                /* memory.l2.slice_gbps: a slice's data port */
    int l2_fabric_gbps;               /* memory.l2.fabric_gbps: between partitions, each way */
    char l2_hash_bits[CFG_NAME_MAX];  /* memory.l2.hash_bits: "12,13,15,17,19" (cfg_bit_list) */
    int l2_frame_bit;                 /* memory.l2.frame_bit: first bit of the physical frame */
    int l2_replicate;                 /* memory.l2.replicate: keep remote lines in the home partition */
    int l2_write_local;               /* memory.l2.write_local: a remote store leaves a copy at home */
    int l2_scatter_ppm;               /* memory.l2.scatter_ppm: chunks placed by a hash, per million */
    int l2_clean_first;               /* memory.l2.clean_first: victim window preferring clean lines */
    int l2_remote_first;              /* memory.l2.remote_first: victim window preferring home copies held for replicas */
    int l2_dirty_reprieve;            /* memory.l2.dirty_reprieve: turns a dirty victim goes back into its set */
    int l2_reprieve_place;            /* memory.l2.reprieve_place: enum cfg_reprieve_place */
    int l2_sector_pj;                 /* memory.l2.sector_pj: slice array, per sector */
    int l2_wire_fj_per_bit_mm;        /* memory.l2.wire_fj_per_bit_mm: on-die wires */
    int hbm_stacks, hbm_channels_per_stack, hbm_pcs_per_channel;  /* memory.hbm.* */
    int hbm_pc_mbps;                  /* memory.hbm.pc_mbps: one pseudo-channel's bus */
    int hbm_latency_ps;               /* memory.hbm.latency_ps: beyond an L2 hit */
    int hbm_row_bytes, hbm_banks;     /* memory.hbm.row_bytes, memory.hbm.banks (per pseudo-channel) */
    int hbm_row_miss_ps;              /* memory.hbm.row_miss_ps: precharge + activate */
    int hbm_interleave_bytes;         /* memory.hbm.interleave_bytes */
    int hbm_ccd_l_ps;                 /* memory.hbm.ccd_l_ps: same-bank burst spacing (tCCD_L) */
    int hbm_row_idle_ps;              /* memory.hbm.row_idle_ps: an idle bank closes its row */
    int hbm_rd_to_wr_ps, hbm_wr_to_rd_ps;  /* memory.hbm.*: idle bus at a read/write switch */
    int hbm_write_batch;              /* memory.hbm.write_batch: 32 B write bursts drained per switch */
    int hbm_refresh_ps;               /* memory.hbm.refresh_ps: a bank's refresh (0: none) */
    int hbm_refresh_interval_ps;      /* memory.hbm.refresh_interval_ps: from one to the next */
    int hbm_refresh_all_banks;        /* memory.hbm.refresh_all_banks: REFab instead of REFsb */
    int hbm_refresh_group;            /* memory.hbm.refresh_group: pseudo-channels at one phase */
    int tlb_enabled;                  /* memory.tlb.enabled: translate L1 misses (src/mem/tlb.c) */
    int tlb_page_bytes;               /* memory.tlb.page_bytes: bytes one translation covers */
    int tlb_l1_entries, tlb_l1_ways;  /* memory.tlb.l1_entries, memory.tlb.l1_ways: per SM */
    int tlb_l1_replace;               /* memory.tlb.l1_replace: enum cfg_tlb_replace */
    int tlb_l2_entries, tlb_l2_ways;  /* memory.tlb.l2_entries, memory.tlb.l2_ways: per scope */
    int tlb_l2_scope;                 /* memory.tlb.l2_scope: enum cfg_tlb_scope */
    int tlb_l2_hit_ps;                /* memory.tlb.l2_hit_ps: an L1 TLB miss that hits the L2 TLB */
    int tlb_walk_ps;                  /* memory.tlb.walk_ps: beyond that, an L2 TLB miss */
    int tlb_launch_flush;             /* memory.tlb.launch_flush: a launch empties the TLBs */

    /* silicon model (src/silicon, docs/silicon.md); sources in config.c */
    int si_preset;                    /* silicon.preset: enum cfg_si_preset */
    char dispatch_weights_file[CFG_NAME_MAX];  /* dispatch.weights_file: static_weights' speed map */
    char si_map_file[CFG_NAME_MAX];   /* silicon.map_file: per-SM CSV for preset "file" */
    int die_w_um, die_h_um;           /* floorplan.die_w_um, floorplan.die_h_um */
    int fp_gpc_rows;                  /* floorplan.gpc_rows: rows of GPC blocks */
    int fp_l2_um;                     /* floorplan.l2_um: height of the central L2 band */
    int fp_phy_um;                    /* floorplan.phy_um: width of each HBM PHY/MC edge strip */
    int fp_io_um;                     /* floorplan.io_um: height of each I/O edge strip */
    int fp_gpc_slots[CFG_MAX_GPCS];   /* floorplan.gpc_slots: block (from 1) of each GPC */
    int var_sigma_permille;           /* variation.vth_sigma_permille: sigma/mu of Vth */
    int var_sys_pct;                  /* variation.sys_pct: systematic share of the variance */
    int var_phi_permille;             /* variation.phi_permille: correlation range / die width */
    int vf_vnom_mv;                   /* vf.vnom_mv: nominal SM reaches clocks.sm_mhz here */
    int vf_vth_mv;                    /* vf.vth_mv: nominal threshold voltage */
    int vf_alpha_milli;               /* vf.alpha_milli: alpha-power exponent * 1000 */
    int vf_vmin_mv;                   /* vf.vmin_mv: regulator floor */
    int vf_guard_pct;                 /* vf.guard_pct: regulator margin over the nominal need */
    int pdn_nx, pdn_ny;               /* pdn.nx, pdn.ny: mesh nodes */
    int pdn_sheet_mohm;               /* pdn.sheet_mohm: grid sheet resistance per direction */
    int pdn_bump_pitch_um;            /* pdn.bump_pitch_um */
    int pdn_bump_mohm;                /* pdn.bump_mohm: one bump */
    int pdn_pkg_uohm;                 /* pdn.pkg_uohm: regulator to bumps, loop */
    int op_scale_ppm;                 /* power.op_scale_ppm: 45 nm datapath/RF energies to this chip */
    int sched_pj;                     /* power.sched_pj: per scheduler-cycle with a resident warp */
    int fp32_random_fj;               /* power.fp32_random_fj: per FFMA lane on random data */
    int tensor_pj;                    /* power.tensor_pj: per bf16 tensor-pipe cycle */
    int tensor_datapath_pct;          /* power.tensor_datapath_pct: multiply-add share of tensor_pj */
    int clk_pj;                       /* power.clk_pj: clock tree and idle logic per SM cycle */
    int leak_mw;                      /* power.leak_mw: per SM at vnom, vth, leak_ref_c */
    int leak_ref_c;                   /* power.leak_ref_c */
    int leak_beta_permille;           /* power.leak_beta_permille: per K, times 1000 */
    int leak_v_mv;                    /* power.leak_v_mv: supply change per e-fold of leakage */
    int leak_vth_mv;                  /* power.leak_vth_mv: Vth change per e-fold of leakage */
    int uncore_w;                     /* power.uncore_w: L2, crossbar, I/O, board */
    int mem_idle_w;                   /* power.mem_idle_w: HBM at rest */
    int mem_pj_per_byte;              /* power.mem_pj_per_byte */
    int th_inlet_c;                   /* thermal.inlet_c */
    int th_block_r_mk_mm2_per_w;      /* thermal.block_r_mk_mm2_per_w: die to package, per area */
    int th_block_c_uj_per_k_mm2;      /* thermal.block_c_uj_per_k_mm2: heat capacity per area */
    int th_pkg_r_mk_per_w;            /* thermal.pkg_r_mk_per_w: package to inlet */
    int th_pkg_c_j_per_k;             /* thermal.pkg_c_j_per_k */
    int th_slowdown_c;                /* thermal.slowdown_c */
    int th_hyst_c;                    /* thermal.hyst_c */
    int th_shutdown_c;                /* thermal.shutdown_c: any SM above it fails the run */
    int dvfs_policy;                  /* dvfs.policy: enum cfg_dvfs_policy */
    int dvfs_fixed_mhz;               /* dvfs.fixed_mhz: 0 = clocks.sm_mhz */
    int dvfs_cap_w;                   /* dvfs.cap_w */
    int dvfs_margin_w;                /* dvfs.margin_w: set-point is cap - margin */
    int dvfs_min_mhz;                 /* dvfs.min_mhz: lowest bin */
    int dvfs_step_mhz;                /* dvfs.step_mhz: bins step down from clocks.sm_mhz */
    int dvfs_idle_mhz;                /* dvfs.idle_mhz */
    int dvfs_wake_ns;                 /* dvfs.wake_ns */
    int dvfs_idle_stages;             /* dvfs.idle_stages: 0 = the two stages the four keys above
                                         give; else the first N of dvfs.stage<k>.* */
    int64_t dvfs_epoch_ns;            /* dvfs.epoch_ns */
    int64_t dvfs_latency_ns;          /* dvfs.latency_ns */
    int64_t dvfs_idle_after_ns;       /* dvfs.idle_after_ns */
    int64_t dvfs_wake_after_ns;       /* dvfs.wake_after_ns */
    int64_t th_check_ns;              /* thermal.check_ns: hardware slowdown period (0: none) */
    struct {
        int64_t after_ns;             /* dvfs.stage<k>.after_ns: entered this long after the last kernel */
        int mhz;                      /* dvfs.stage<k>.mhz: clock while in it (0 = unchanged) */
        int wake_ns;                  /* dvfs.stage<k>.wake_ns: a launch from it waits this long */
    } dvfs_stage[CFG_IDLE_STAGES];

    /* simulation */
    uint64_t seed;                    /* sim.seed */
    int64_t max_time_ns;              /* sim.max_time_ns: abort a run past this simulated time (0 = no limit) */
    int64_t lookahead_cycles;         /* sim.lookahead_cycles: run-ahead of an SM past other SMs'
                                         events (-1: by memory.model; docs/performance.md) */
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
/* The same as a key and a value ("sm.warp_policy", "lrr"); messages start
 * "key: value: ..." with no "--set" (cfg_set adds it), so other inputs (the
 * sweep spec) can put their own position in front.  *c untouched on error. */
int cfg_set_value(cfg *c, const char *key, const char *value, sk_error *e);
/* 0 when `key` is a key of the schema; else the message cfg_set_value()
 * gives for it ("key: unknown key: ...; did you mean ...?"). */
int cfg_check_key(const char *key, sk_error *e);

/* Cross-field checks (e.g. sm.max_warps divisible by sm.warp_schedulers).
 * Called after loading and after all overrides. */
int cfg_validate(const cfg *c, sk_error *e);
/* Where key was last set by the config file at path, its includes
 * followed: the value's "FILE:LINE:COL" into buf.  1 when found, 0 when
 * not (a default) or when the file does not load. */
int cfg_key_origin(const char *path, const char *key, char *buf, size_t n);
/* A cfg_validate() error ("config: KEY: VALUE: expected ...") said at the
 * place that set KEY: the last of sets[] (--set KEY=VALUE) naming it, else
 * its line in the config file at path (NULL: none) or an include of it.
 * Left as it is where KEY took its default or the message names no key. */
void cfg_locate_error(const char *path, char *const *sets, int nsets, sk_error *e);
/* The config key a cfg_validate() error names ("config: KEY: ..."): KEY
 * into key[n] and the message past "config: " returned, or NULL where the
 * message names no key. */
const char *cfg_error_key(const char *msg, char *key, size_t n);

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
/* Row i's bounds when it is an integer key (1: *lo, *hi set), else 0 (strings,
 * choices, lists, sim.seed).  For property tests that draw in-bounds values. */
int cfg_schema_bounds(size_t i, int64_t *lo, int64_t *hi);
/* Row i's choices when it is a choice key (NULL-terminated), else NULL. */
const char *const *cfg_schema_choices(size_t i);

/* A list of bit numbers "12,13,15" as a mask: 0, or -1 when it is not one. */
int cfg_bit_list(const char *s, uint64_t *mask);
/* memory.l2.cpc_ps: one offset (ps, 0..1000000) for every chain or one per
 * chain of topology.cpcs_per_gpc; fills out[0..cpcs_per_gpc-1] and returns
 * 0, or -1 on a malformed or out-of-range list or a count that is neither. */
int cfg_cpc_ps(const cfg *c, int out[CFG_MAX_CPCS]);

/* Derived: total SMs and TPCs. */
int cfg_num_sms(const cfg *c);
int cfg_num_tpcs(const cfg *c);

#endif
