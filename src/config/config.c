/* config.c -- the schema table and everything that reads or writes it.
 *
 * cfg_schema[] has one row per key: dotted name, type, default, bounds, unit,
 * target field and help.  It is the only place a default lives, and every
 * path goes through it: cfg_defaults() parses each row's default with the
 * same code that parses user input (so a default is always something a user
 * could have typed, inside its own bounds), the YAML loader and cfg_set()
 * look keys up in it, cfg_validate() re-checks every bound, and cfg_dump() /
 * cfg_help() print it.
 *
 * YAML is read with libyaml's event API.  Nested mappings become dotted keys
 * ("sm:" then "warp_schedulers:" is "sm.warp_schedulers"); a dotted key
 * written in full at any level works too, since the lookup is on the joined
 * path.  The loader is strict on purpose: a config file that is silently
 * misread (a typo in a key, "010" meaning 8 to a YAML 1.1 reader and 10 to
 * us, a quoted "4" that other YAML tools see as a string) costs more than an
 * error.  So: no unknown or duplicate keys, decimal integers only, no quoted
 * numbers, no tags, no anchors or aliases, one document per file.
 *
 * topology.tpcs_per_gpc is either one int for every GPC or a list with one
 * entry per GPC.  cfg has no field for the list's length, so the length is
 * encoded in the array: a scalar fills all CFG_MAX_GPCS entries, a list of
 * n fills n entries and zeroes the rest (0 is outside the key's bounds, so
 * it cannot be a real entry).  cfg_validate() recovers n as the index of the
 * first 0.  The one case this cannot catch is a list of exactly CFG_MAX_GPCS
 * entries with fewer GPCs; its extra entries are then ignored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "skewsim/config.h"
#include "skewsim/yamlrd.h"
#include "skewsim/topo.h"

enum key_type {
    KEY_INT,      /* int, bounds min..max */
    KEY_INT64,    /* int64_t, bounds min..max */
    KEY_UINT64,   /* uint64_t, the whole range (min/max unused) */
    KEY_STRING,   /* char[CFG_NAME_MAX] of printable ASCII, length min..max */
    KEY_ENUM,     /* int holding the index of one of `choices` */
    KEY_INT_LIST  /* int[CFG_MAX_GPCS]: one int for all, or a list; each min..max */
};

typedef struct cfg_key {
    const char *name;            /* dotted path, e.g. "sm.warp_schedulers" */
    enum key_type type;
    const char *def;             /* default, as text a user could write */
    int64_t min, max;            /* see enum key_type */
    const char *unit;            /* "" when the value has no unit */
    size_t off;                  /* offsetof(cfg, field) */
    const char *help;
    const char *const *choices;  /* KEY_ENUM: names in enum order, NULL-terminated */
} cfg_key;

/* Choice names, in the order of the enums in config.h: the stored value is
 * the index. */
static const char *const numberings[] = { "gpc_major", "tpc_round_robin", NULL };
/* The policy choices and their help come from the lists of policies.h. */
#define POLICY_NAME_(id, name, help) #name,
#define POLICY_HELP_(id, name, help) " " #name ": " help "."
static const char *const warp_policies[] = { WARP_POLICY_MAP(POLICY_NAME_) NULL };
static const char *const dispatch_policies[] = { DISPATCH_POLICY_MAP(POLICY_NAME_) NULL };
/* "skewed" last: the old name of "varius" (enum cfg_si_preset). */
static const char *const si_presets[] = { "uniform", "varius", "file", "skewed", NULL };
static const char *const dvfs_policies[] = { "fixed", "power_cap", "per_gpc", "per_sm", NULL };

#define STR_(x) #x
#define STR(x) STR_(x)
#define OFF(field) offsetof(cfg, field)

/* Row constructors.  Numeric defaults are written as numbers and stored as
 * their text, which cfg_defaults() parses like any user value. */
#define ROW_INT(key, field, def, lo, hi, unit, help) \
    { key, KEY_INT, STR(def), lo, hi, unit, OFF(field), help, NULL }
#define ROW_INT64(key, field, def, lo, hi, unit, help) \
    { key, KEY_INT64, STR(def), lo, hi, unit, OFF(field), help, NULL }
#define ROW_UINT64(key, field, def, unit, help) \
    { key, KEY_UINT64, STR(def), 0, 0, unit, OFF(field), help, NULL }
#define ROW_STRING(key, field, def, help) \
    { key, KEY_STRING, def, 1, CFG_NAME_MAX - 1, "", OFF(field), help, NULL }
#define ROW_ENUM(key, field, def, choices, help) \
    { key, KEY_ENUM, def, 0, 0, "", OFF(field), help, choices }
#define ROW_LIST(key, field, def, lo, hi, unit, help) \
    { key, KEY_INT_LIST, STR(def), lo, hi, unit, OFF(field), help, NULL }
/* A string that may be empty (a path that is optional). */
#define ROW_PATH(key, field, help) \
    { key, KEY_STRING, "", 0, CFG_NAME_MAX - 1, "", OFF(field), help, NULL }

/* Defaults of each functional-unit class: count, lat_cycles, ii_cycles.
 * A class added to FU_CLASS_MAP without a line here fails to compile. */
#define UNIT_DEFAULT_FP32    1,  4, 1
#define UNIT_DEFAULT_FP16    1,  4, 1
#define UNIT_DEFAULT_INT     1,  4, 2
#define UNIT_DEFAULT_FP64    1,  8, 2
#define UNIT_DEFAULT_SFU     1, 23, 8
#define UNIT_DEFAULT_TENSOR  1, 24, 8
#define UNIT_DEFAULT_LDST    1,  4, 4
#define UNIT_DEFAULT_BRANCH  1,  1, 1
#define UNIT_DEFAULT_MISC    1,  2, 1

/* One idle stage of the power manager (docs/silicon.md, "Idle and wake"). */
#define DVFS_STAGE_ROWS_(k, num)                                               \
    ROW_INT64("dvfs.stage" num ".after_ns", dvfs_stage[k].after_ns, 0, 0,      \
              1000000000000000, "ns",                                          \
              "idle stage " num ": entered this long after the last kernel"), \
    ROW_INT("dvfs.stage" num ".mhz", dvfs_stage[k].mhz, 0, 0, 10000, "MHz",    \
            "idle stage " num ": clock while in it (0 = unchanged)"),          \
    ROW_INT("dvfs.stage" num ".wake_ns", dvfs_stage[k].wake_ns, 0, 0,          \
            1000000000, "ns", "idle stage " num ": a launch from it waits this long"),

#define ARG1_(a, b, c) a
#define ARG2_(a, b, c) b
#define ARG3_(a, b, c) c
#define ARG1(...) ARG1_(__VA_ARGS__)
#define ARG2(...) ARG2_(__VA_ARGS__)
#define ARG3(...) ARG3_(__VA_ARGS__)

#define UNIT_ROWS_(id, cname)                                                  \
    ROW_INT("units." cname ".count", units[FU_##id].count,                     \
            ARG1(UNIT_DEFAULT_##id), 1, 64, "pipelines",                       \
            cname " pipelines per warp scheduler"),                            \
    ROW_INT("units." cname ".lat_cycles", units[FU_##id].lat_cycles,           \
            ARG2(UNIT_DEFAULT_##id), 0, 100000, "cycles",                      \
            cname ": issue to result available to a dependent instruction"),  \
    ROW_INT("units." cname ".ii_cycles", units[FU_##id].ii_cycles,             \
            ARG3(UNIT_DEFAULT_##id), 1, 100000, "cycles",                      \
            cname ": cycles a pipeline is busy per warp instruction"),        \
    ROW_INT("units." cname ".queue", units[FU_##id].queue, 0, 0, 64,          \
            "instructions", cname ": instructions a scheduler may issue "     \
            "ahead into a queue in front of a busy pipeline; each starts "     \
            "(and counts its latency from) when the pipeline takes it; "       \
            "global loads and stores take it at once (0: none, an "           \
            "instruction issues only to a free pipeline; needs count 1)"),

/* memory.model: in the order of enum cfg_mem_model. */
static const char *const mem_models[] = { "flat", "hierarchy", NULL };
/* launch.module_loading: in the order of enum cfg_module_loading. */
static const char *const module_loadings[] = { "steady", "lazy", "eager", NULL };
/* memory.tlb.l2_scope: in the order of enum cfg_tlb_scope. */
static const char *const tlb_scopes[] = { "chip", "gpc", NULL };
/* memory.tlb.l1_replace: in the order of enum cfg_tlb_replace. */
static const char *const tlb_replaces[] = { "lru", "mru", "random", NULL };
/* memory.l2.reprieve_place: in the order of enum cfg_reprieve_place. */
static const char *const reprieve_places[] = { "median", "hashed", NULL };

/* Keys of one section must be contiguous: cfg_dump() nests by comparing each
 * row's path with the previous row's. */
static const cfg_key cfg_schema[] = {
    ROW_STRING("chip.name", name, "generic", "chip name, for reports"),

    ROW_INT("topology.gpcs", gpcs, 8, 1, CFG_MAX_GPCS, "GPCs",
            "graphics processing clusters"),
    ROW_LIST("topology.tpcs_per_gpc", tpcs_per_gpc, 8, 1, 64, "TPCs",
             "TPCs per GPC: one int for every GPC, or a list of topology.gpcs ints"),
    ROW_INT("topology.sms_per_tpc", sms_per_tpc, 2, 1, 8, "SMs", "SMs per TPC"),
    ROW_ENUM("topology.numbering", numbering, "gpc_major", numberings,
             "SM id order: all SMs of GPC 0 first, or one TPC of each GPC in turn"),
    ROW_INT("topology.tail_gpcs", tail_gpcs, 0, 0, CFG_MAX_GPCS - 1, "GPCs",
            "the last N GPCs are numbered after all others"),
    ROW_INT("topology.tail_max_cluster", tail_max_cluster, 2, 1, 64, "CTAs",
            "largest thread block cluster an SM of the tail GPCs takes (the H200's 'random' SMs: 2)"),
    ROW_INT("topology.cpcs_per_gpc", cpcs_per_gpc, 1, 1, CFG_MAX_CPCS, "chains",
            "the TPCs of a GPC form this many chains to the GPC's hub: logical TPC k is on chain "
            "k mod N, the lowest k at a chain's far end (memory.l2.tpc_hop_ps, cpc_ps)"),
    ROW_INT("topology.tail_host_gpc", tail_host_gpc, 0, 0, CFG_MAX_GPCS, "GPC",
            "the GPC (from 1) whose chains the tail GPCs' TPCs continue, their logical numbers "
            "following its own TPCs' (0: none, each tail GPC its own chains; ignored without a tail)"),
    ROW_INT("topology.green_unit_sms", green_unit_sms, 8, 1, 1024, "SMs",
            "green contexts take SMs in units of this many, whole TPCs of one GPC "
            "(H200: minSmPartitionSize = smCoscheduledAlignment = 8)"),
    ROW_PATH("topology.floorsweep", floorsweep,
             "the chip from its fused TPCs instead of the keys above (docs/topology.md): 'G.T ...' "
             "fused TPCs of the full die, 'none', or 'yield' (drawn from sim.seed); empty: off"),
    ROW_INT("topology.die_gpcs", die_gpcs, 8, 1, CFG_MAX_GPCS - 1, "GPCs",
            "with floorsweep: GPCs of the full die"),
    ROW_INT("topology.die_tpcs_per_gpc", die_tpcs_per_gpc, 9, 1, 64, "TPCs",
            "with floorsweep: TPCs per GPC of the full die"),
    ROW_INT("topology.sku_tpcs", sku_tpcs, 66, 1, 2048, "TPCs",
            "with floorsweep: working TPCs of the SKU (yield: the vendor fuses good TPCs down to it)"),
    ROW_INT("topology.random_tpcs", random_tpcs, 4, 0, 2048, "TPCs",
            "with floorsweep: TPCs the chip keeps out of cluster-capable GPCs, numbered last"),
    ROW_INT("topology.defect_ppm", defect_ppm, 28000, 0, 1000000, "ppm",
            "with floorsweep: yield: probability that a TPC of the die has a defect"),

    ROW_INT("sm.max_threads", max_threads, 2048, 1, 65536, "threads",
            "resident threads per SM"),
    ROW_INT("sm.max_warps", max_warps, 64, 1, 1024, "warps", "resident warps per SM"),
    ROW_INT("sm.max_ctas", max_ctas, 32, 1, 1024, "CTAs", "resident CTAs per SM"),
    ROW_INT("sm.registers", registers, 65536, 1, 16777216, "registers",
            "32-bit registers per SM"),
    ROW_INT("sm.reg_alloc_unit", reg_alloc_unit, 256, 1, 65536, "registers",
            "register allocation granule per warp"),
    ROW_INT("sm.smem_bytes", smem_bytes, 233472, 0, 1073741824, "bytes",
            "shared memory per SM"),
    ROW_INT("sm.smem_alloc_unit_bytes", smem_alloc_unit_bytes, 128, 1, 1048576,
            "bytes", "shared memory allocation granule per CTA"),
    ROW_INT("sm.smem_reserved_per_cta_bytes", smem_reserved_per_cta_bytes, 1024,
            0, 1048576, "bytes", "shared memory the system reserves per CTA"),
    ROW_INT("sm.warp_schedulers", warp_schedulers, 2, 1, 32, "schedulers",
            "warp schedulers (SM sub-partitions) per SM"),
    ROW_INT("sm.issue_width", issue_width, 1, 1, 8, "instructions",
            "instructions issued per scheduler per cycle"),
    ROW_ENUM("sm.warp_policy", warp_policy, "gto", warp_policies,
             "warp scheduling (src/gpu/warp_<name>.c)." WARP_POLICY_MAP(POLICY_HELP_)),
    ROW_INT("sm.active_warps", active_warps, 8, 1, 1024, "warps",
            "two_level: warps per scheduler in the active set (Narasiman et al., MICRO 2011: "
            "fetch groups of 8)"),
    ROW_INT("sm.ccws.vta_entries", ccws_vta_entries, 8, 1, 64, "tags",
            "ccws: victim tags per warp (Rogers et al., MICRO 2012; see docs/schedulers.md)"),
    ROW_INT("sm.ccws.base_score", ccws_base_score, 1000, 1, 1000000, "points",
            "ccws: a warp's lost-locality score at rest; the cutoff is warps x this"),
    ROW_INT("sm.ccws.score_inc", ccws_score_inc, 1000, 0, 100000000, "points",
            "ccws: points one VTA hit (lost locality) adds to the warp's score"),
    ROW_INT("sm.ccws.decay", ccws_decay, 1, 0, 1000000, "points",
            "ccws: points a score loses per cycle, down to base_score"),
    ROW_INT("sm.starvation_cycles", starvation_cycles, 0, 0, 1000000, "cycles",
            "once every N cycles a scheduler issues the ready warp that has waited longest, "
            "if it waited N cycles (0 = never)"),
    ROW_INT("sm.cta_launch_cycles", cta_launch_cycles, 0, 0, 1000000, "cycles",
            "CTA arrival at the SM to its first possible issue"),
    ROW_INT("sm.barrier_arrive_cycles", barrier_arrive_cycles, 0, 0, 1000, "cycles",
            "the SM's barrier unit takes warps' arrivals one at a time, this many cycles each "
            "(all CTAs share it): a barrier of W warps releases W x this after its first arrival "
            "at the soonest"),
    ROW_INT("sm.barrier_cycles", barrier_cycles, 1, 0, 1000000, "cycles",
            "last warp's arrival at a barrier to release"),
    ROW_INT("sm.store_read_cycles", store_read_cycles, 0, 0, 100000, "cycles",
            "a global store reads its source registers this many cycles after it issues: an "
            "instruction of its warp that overwrites one of them waits until then (the "
            "store's read barrier; 0 = none)"),
    ROW_INT("sm.register_banks", register_banks, 0, 0, 8, "banks",
            "register file banks, a register's bank its number modulo this: an instruction "
            "reading N vector registers of one bank not marked .reuse holds its scheduler's "
            "issue port N - 1 cycles more (0 = no bank model)"),

    FU_CLASS_MAP(UNIT_ROWS_)

    ROW_INT("clocks.sm_mhz", sm_mhz, 1980, 100, 10000, "MHz", "SM clock"),

    ROW_INT("launch.start_ns", launch_start_ns, 5000, 0, 1000000000, "ns",
            "kernel launch (CUDA event) to first CTA dispatch"),
    ROW_INT("launch.end_ns", launch_end_ns, 2000, 0, 1000000000, "ns",
            "last CTA end to the completion event"),
    ROW_INT("launch.host_ns", launch_host_ns, 0, 0, 1000000000, "ns",
            "back-to-back launches: the host's launch call, so one stream's launch commands reach "
            "the GPU this far apart (0: all queued at once)"),
    ROW_INT("launch.queue_gap_ns", launch_queue_gap_ns, 0, 0, 1000000000, "ns",
            "back-to-back launches in one stream: the command processor works ahead, and a "
            "queued kernel's first CTA starts this long after the previous kernel's last CTA "
            "(0: no pipelining, each launch waits for the previous completion)"),
    ROW_INT("launch.event_gap_ns", launch_event_gap_ns, 0, 0, 1000000000, "ns",
            "a queued kernel after a CUDA event recorded in its stream (trace key event=before): "
            "its first CTA starts this long after that event completes (the previous kernel's "
            "completion, launch.end_ns after its last CTA), not queue_gap_ns after the last CTA"),
    /* One-time costs of a process's first launches (E13, validation/h200
     * README "First cooperative launch"; docs/topology.md "First launches"). */
    ROW_ENUM("launch.module_loading", module_loading, "steady", module_loadings,
             "one-time launch costs. steady: a warm process, none (every kernel as a later launch). "
             "lazy: CUDA_MODULE_LOADING=LAZY, the run's first launch pays first_launch_ns + "
             "module_load_ns (the trace's kernels are one module). eager: CUDA_MODULE_LOADING=EAGER, "
             "the module was loaded at init: the first launch pays first_launch_ns. In lazy and "
             "eager the run's first cooperative kernel also pays coop_setup_ns"),
    ROW_INT("launch.first_launch_ns", launch_first_ns, 0, 0, 1000000000, "ns",
            "lazy, eager: extra launch delay of the run's first kernel (the process's first launch)"),
    ROW_INT("launch.module_load_ns", module_load_ns, 0, 0, 1000000000, "ns",
            "lazy: extra launch delay of the run's first kernel, loading the module"),
    ROW_INT("launch.coop_setup_ns", coop_setup_ns, 0, 0, 1000000000, "ns",
            "lazy, eager: extra launch delay of the run's first cooperative kernel (the driver's "
            "one-time cooperative-launch setup)"),

    ROW_ENUM("dispatch.policy", dispatch_policy, "gigathread", dispatch_policies,
             "CTA dispatcher (src/gpu/dispatch_<name>.c)." DISPATCH_POLICY_MAP(POLICY_HELP_)),
    ROW_PATH("dispatch.weights_file", dispatch_weights_file,
             "static_weights: a CSV 'sm,weight' (one row per SM, weights > 0, relative speeds); "
             "empty: the SMs' clocks at the first launch"),
    ROW_INT("dispatch.cta_ps", dispatch_cta_ps, 0, 0, 1000000000, "ps",
            "global dispatcher time per CTA"),
    ROW_INT("dispatch.tail_every_bursts", tail_every_bursts, 0, 0, 1000, "bursts",
            "the tail GPCs get a burst after this many GPC bursts "
            "(0 = they are one more GPC in the ring)"),
    ROW_INT("dispatch.tail_first_gap_bursts", tail_first_gap_bursts, 0, 0, 1000, "bursts",
            "GPC bursts between the tail GPCs' first and second burst"),
    ROW_INT("dispatch.tail_rotate_tpcs", tail_rotate_tpcs, 0, 0, 63, "TPCs",
            "the tail walk starts this many TPCs in"),

    ROW_INT("sync.grid_ns", grid_sync_ns, 1000, 0, 1000000000, "ns",
            "last warp's arrival at a grid barrier (GRID.SYNC) to its release"),
    ROW_INT("sync.grid_cta_ps", grid_cta_ps, 0, 0, 1000000000, "ps",
            "grid barrier: each CTA's arrival atomic at the one counter, served in turn (0: none)"),

    ROW_INT("memory.latency_ns", mem_latency_ns, 500, 0, 1000000, "ns",
            "global load round trip, unloaded"),
    ROW_INT("memory.bandwidth_gbps", mem_bandwidth_gbps, 3350, 1, 1000000, "GB/s",
            "sustained DRAM bandwidth, chip-wide"),
    ROW_INT("memory.smem_latency_cycles", smem_latency_cycles, 29, 0, 100000,
            "cycles", "shared memory load to use"),
    ROW_INT("memory.smem_load_ii_cycles", smem_load_ii_cycles, 2, 0, 1000, "cycles",
            "cycles a shared-memory load (LDS, LDSM) holds its sub-partition's LD/ST pipe; 0: the "
            "unit's units.ldst.ii_cycles, as any other LD/ST instruction"),
    ROW_INT("memory.smem_wavefront_cycles", smem_wavefront_cycles, 1, 0, 1000, "cycles",
            "SM cycles the shared-memory array takes a wavefront (one row of 32 banks x 4 B), shared "
            "by the SM's sub-partitions; 0: no SM-wide limit"),
    ROW_INT("memory.smem_warp_wf_cycles", smem_warp_wf_cycles, 0, 0, 1000, "cycles",
            "SM cycles between one warp's own shared-memory load wavefronts (wf): its loads return "
            "in its order, one wavefront each this many cycles at most, other warps' passing the "
            "array in between; 0: no per-warp limit"),

    /* The memory hierarchy (src/mem, docs/memory.md); configs/h200.yaml
     * gives the source of every H200 value, which are the defaults. */
    ROW_ENUM("memory.model", mem_model, "flat", mem_models,
             "flat: one bandwidth server and a fixed latency (memory.latency_ns, "
             "memory.bandwidth_gbps); hierarchy: L1, partitioned L2 and HBM (memory.l1/l2/hbm.*)"),
    ROW_INT("memory.l1.unified_bytes", l1_unified_bytes, 262144, 0, 16777216, "bytes",
            "L1 and shared memory of one SM together; the shared-memory carve-out a kernel "
            "needs is taken from it"),
    ROW_INT("memory.l1.sets", l1_sets, 32, 1, 1048576, "sets",
            "L1 sets (a power of two); ways = what the carve-out leaves / (sets x line)"),
    ROW_INT("memory.l1.set_hash", l1_set_hash, 1, 0, 2, "index",
            "0: a line's L1 set is its low line-index bits; 1: a random-like hash of its address; 2: "
            "GH100's index as measured (E41: 16 groups of 32 sets by XORs of address bits; needs 512 "
            "sets of 128-byte lines)"),
    ROW_INT("memory.l1.whole_tags", l1_whole_tags, 0, 0, 1, "bool",
            "1: the L1's tags span the whole unified array (ways = unified_bytes / (sets x line)) and "
            "the carve-out limits the lines that hold data (E41); 0: ways = what the carve-out leaves"),
    ROW_INT("memory.l1.data_reserve_bytes", l1_data_reserve_bytes, 0, 0, 16777216, "bytes",
            "with whole_tags: of the L1 the carve-out leaves, this much holds no lines (E41: 7 KB on "
            "H100s at every carve-out)"),
    ROW_INT("memory.l1.line_bytes", l1_line_bytes, 128, 16, 4096, "bytes", "L1 line"),
    ROW_INT("memory.l1.sector_bytes", l1_sector_bytes, 32, 16, 4096, "bytes",
            "L1 sector: the unit a miss fetches"),
    ROW_INT("memory.l1.mshrs", l1_mshrs, 256, 1, 65534, "MSHRs",
            "L1 misses in flight per SM (misses to a sector in flight merge)"),
    ROW_INT("memory.l1.hit_cycles", l1_hit_cycles, 44, 0, 100000, "cycles",
            "L1 lookup to data back in the SM, SM cycles"),
    ROW_INT("memory.l1.l2_port_gbps", l1_l2_port_gbps, 0, 0, 100000, "GB/s",
            "data from L2 into one SM (its crossbar port), loads; 0: unlimited"),
    ROW_INT("memory.l1.store_bytes_per_cycle", l1_store_bytes_per_cycle, 0, 0, 65536, "bytes",
            "store data out of one SM towards the L2 (its request port), bytes per SM cycle; 0: "
            "unlimited"),
    ROW_INT("memory.l1.request_millicycles", l1_request_millicycles, 0, 0, 1000000, "1/1000 cycle",
            "SM cycles between two lines' requests from one SM's L1 to the L2 (loads with addresses "
            "that miss or bypass it; its miss path takes one line at a time); 0: no limit"),
    ROW_INT("memory.l1.reserve_carveout", l1_reserve_carveout, 0, 0, 1, "bool",
            "1: the 1 KB each CTA reserves (sm.smem_reserved_per_cta_bytes) is carved out of the L1 "
            "even when the kernel declares no shared memory; 0: only a kernel that declares some "
            "carves (E20b/E20c on the H200: such a kernel's L1 behaves as the whole array)"),
    ROW_INT("memory.l1.carveout_threads", l1_carveout_threads, 0, 0, 1 << 20, "threads",
            "the driver sizes the shared-memory carve-out of a kernel that declares no shared memory "
            "for min(sm.max_ctas, this / CTA threads, what sm.smem_bytes holds) CTAs, not for its "
            "occupancy (E38, E42: ncu reads 32 KB for 256-thread CTAs without shared memory); 0: its "
            "occupancy"),
    ROW_INT("memory.l1.carveout_threads_smem", l1_carveout_threads_smem, 0, 0, 1 << 20, "threads",
            "the same for a kernel that declares shared memory (E42); 0: its occupancy"),
    ROW_INT("memory.l1.launch_invalidate", l1_launch_invalidate, 1, 0, 1, "bool",
            "1: every kernel launch empties the L1s (E19b: measured on the H200); 0: lines stay "
            "while the carve-out does"),
    ROW_INT("memory.l1.bytes_per_cycle", l1_bytes_per_cycle, 128, 1, 65536, "bytes",
            "L1 data port: sectors it moves per SM cycle"),
    ROW_INT("memory.l1.sector_pj", l1_sector_pj, 51, 0, 1000000, "pJ",
            "L1 energy per sector read or written, at vf.vnom_mv"),
    ROW_INT("memory.l1.smem_wavefront_pj", smem_wavefront_pj, 204, 0, 1000000, "pJ",
            "shared-memory energy per wavefront (32 banks x 4 B), at vf.vnom_mv"),
    ROW_INT("memory.l2.partitions", l2_partitions, 2, 1, 2, "partitions",
            "L2 partitions; an address's partition is the page hash's parity"),
    ROW_INT("memory.l2.slices_per_partition", l2_slices_per_partition, 60, 1, 1024, "slices",
            "L2 slices in each partition"),
    ROW_INT("memory.l2.slice_bytes", l2_slice_bytes, 524288, 1, 1073741824, "bytes",
            "capacity of one L2 slice"),
    ROW_INT("memory.l2.sets", l2_sets, 256, 1, 1048576, "sets",
            "sets per L2 slice (a power of two); ways = slice_bytes / (sets x line)"),
    ROW_INT("memory.l2.line_bytes", l2_line_bytes, 128, 16, 4096, "bytes", "L2 line"),
    ROW_INT("memory.l2.sector_bytes", l2_sector_bytes, 32, 16, 4096, "bytes", "L2 sector"),
    ROW_INT("memory.l2.mshrs", l2_mshrs, 192, 1, 65534, "MSHRs", "L2 misses in flight per slice"),
    ROW_INT("memory.l2.hit_ps", l2_hit_ps, 140466, 0, 1000000000, "ps",
            "unloaded L2 hit from an SM at zero route length to its home partition"),
    ROW_INT("memory.l2.remote_ps", l2_remote_ps, 89798, 0, 1000000000, "ps",
            "extra latency of the other partition (the fabric crossing, both ways)"),
    ROW_INT("memory.l2.noc_ps_per_mm", l2_noc_ps_per_mm, 100, 0, 1000000, "ps/mm",
            "delay per mm of route between a GPC's hub (its SMs' centroid) and a partition's centre, each way"),
    ROW_INT("memory.l2.route_spread_ps", l2_route_spread_ps, 0, 0, 1000000, "ps",
            "width of the spread of the routes from a GPC to the L2's slices, out and back: each "
            "(GPC, partition, class) offsets the hit latency by its slice's place across the band "
            "(route_row_pct) and a draw from sim.seed, each uniform over this width and centred on the "
            "GPC's mean; a line's class is its 256 B chunk's (0: every line alike)"),
    ROW_INT("memory.l2.route_row_pct", l2_route_row_pct, 0, 0, 100, "%",
            "share of the routes' variance that follows the row: each class's slice has one place across "
            "the L2 band, nearer one row of GPC blocks and farther from the other, for every GPC and both "
            "partitions; the rest is drawn per GPC"),
    ROW_INT("memory.l2.route_row_skew_permille", l2_route_row_skew_permille, 0, -500, 500, "permille",
            "the slices' mean place across the band, in thousandths of route_spread_ps from its middle "
            "toward the row of GPC blocks on its side +1 (mem_hier_row): that row's routes are shorter on "
            "average and the other's longer, each by route_spread_ps x skew / 1000 x sqrt(route_row_pct / 100)"),
    ROW_INT("memory.l2.tpc_hop_ps", l2_tpc_hop_ps, 0, 0, 1000000, "ps",
            "latency, out and back, of each TPC an SM's L2 request passes on its chain to the GPC's "
            "hub (topology.cpcs_per_gpc); with cpc_ps, centred over the chip's SMs"),
    ROW_STRING("memory.l2.cpc_ps", l2_cpc_ps, "0",
               "each chain's own latency to the GPC's hub, out and back, ps: one value for every chain "
               "or one per chain (topology.cpcs_per_gpc), comma-separated"),
    ROW_INT("memory.l2.slice_gbps", l2_slice_gbps, 90, 1, 1000000, "GB/s",
            "data port of one L2 slice"),
    ROW_INT("memory.l2.fabric_gbps", l2_fabric_gbps, 2000, 1, 1000000, "GB/s",
            "fabric between the partitions, each direction"),
    ROW_STRING("memory.l2.hash_bits", l2_hash_bits, "12,13,15,17,19",
               "address bits whose XOR picks a line's partition, comma-separated"),
    ROW_INT("memory.l2.frame_bit", l2_frame_bit, 21, 12, 64, "bit",
            "bits from this one up are the physical frame, not modelled: each frame's "
            "partition bit is flipped by a fixed hash of its number (64 = physical = virtual)"),
    ROW_INT("memory.l2.replicate", l2_replicate, 2, 0, 6, "",
            "0: no replicas; 1: a remote line read is kept as a replica in the reader's home "
            "partition; 2: kept, but entering its set as the next victim (LRU insertion); 3: kept "
            "as most recent, and the home copy read for it keeps its LRU place (allocated: next victim); "
            "4: kept as most recent, and the home copy read for it goes to the middle of its set's "
            "LRU order (never older); 5: as 4, the middle taken among the lines the home partition's "
            "own reads used (most recent when there are none); 6: kept as most recent, and the home copy "
            "read for it enters as most recent when allocated but keeps its LRU place when hit"),
    ROW_INT("memory.l2.write_local", l2_write_local, 0, 0, 1, "",
            "with memory.l2.replicate > 0: 1, a store to the other partition's line also keeps its "
            "sectors as a clean replica in the writer's home partition, allocated there when absent "
            "and made most recent (whatever the replicate mode); 0: only a replica already there "
            "takes them"),
    ROW_INT("memory.l2.scatter_ppm", l2_scatter_ppm, 0, 0, 1000000, "ppm",
            "of the groups of four lines (those whose addresses differ only in bits 7 and 9) of a "
            "partition, how many in a million go to a (slice, set) chosen by a hash instead of the "
            "balanced order (0: every set filled evenly, the order before; 1000000: all hashed)"),
    ROW_INT("memory.l2.clean_first", l2_clean_first, 0, 0, 64, "ways",
            "a victim is the least recently used clean line among the set's N least recently used "
            "lines, the least recent line when those are all dirty (0: plain LRU)"),
    ROW_INT("memory.l2.remote_first", l2_remote_first, 0, 0, 64, "ways",
            "with memory.l2.replicate 6: after memory.l2.clean_first's choice, a victim that is not a home "
            "copy held only for the other partition's replicas gives way to the least recent such copy among "
            "the set's N least recently used lines (0: none)"),
    ROW_INT("memory.l2.dirty_reprieve", l2_dirty_reprieve, 0, 0, 3, "turns",
            "a dirty line that would be the victim goes back into its set's LRU order instead (where: "
            "memory.l2.reprieve_place), at most N times since it was last written (before "
            "memory.l2.clean_first's choice; 0: none)"),
    ROW_ENUM("memory.l2.reprieve_place", l2_reprieve_place, "median", reprieve_places,
             "with memory.l2.dirty_reprieve: median, the median age of the set's other lines; hashed, "
             "the age of one of them drawn uniformly by a hash of the line's address and its reprieves so "
             "far (the same every run), so that reprieved lines outlive the set's turn by 0 to 1 of it"),
    ROW_INT("memory.l2.sector_pj", l2_sector_pj, 72, 0, 1000000, "pJ",
            "L2 slice array energy per sector read or written"),
    ROW_INT("memory.l2.wire_fj_per_bit_mm", l2_wire_fj_per_bit_mm, 200, 0, 1000000, "fJ",
            "on-die wire energy per bit per mm (SM to L2, and the fabric)"),
    ROW_INT("memory.hbm.stacks", hbm_stacks, 6, 1, 64, "stacks", "HBM stacks"),
    ROW_INT("memory.hbm.channels_per_stack", hbm_channels_per_stack, 16, 1, 64, "channels",
            "channels per stack"),
    ROW_INT("memory.hbm.pcs_per_channel", hbm_pcs_per_channel, 2, 1, 8, "pseudo-channels",
            "pseudo-channels per channel"),
    ROW_INT("memory.hbm.pc_mbps", hbm_pc_mbps, 24000, 1, 1000000000, "MB/s",
            "data bus of one pseudo-channel"),
    ROW_INT("memory.hbm.latency_ps", hbm_latency_ps, 101874, 0, 1000000000, "ps",
            "HBM access beyond an L2 hit, row open, unloaded"),
    ROW_INT("memory.hbm.row_bytes", hbm_row_bytes, 1024, 32, 1048576, "bytes",
            "row (page) of one pseudo-channel"),
    ROW_INT("memory.hbm.banks", hbm_banks, 16, 1, 1024, "banks", "banks per pseudo-channel"),
    ROW_INT("memory.hbm.row_miss_ps", hbm_row_miss_ps, 28000, 0, 1000000000, "ps",
            "precharge + activate before a new row's data (tRP + tRCD)"),
    ROW_INT("memory.hbm.interleave_bytes", hbm_interleave_bytes, 256, 32, 65536, "bytes",
            "consecutive bytes on one pseudo-channel (a power of two)"),
    /* Read/write turnaround of a pseudo-channel's data bus (hbm.c,
     * docs/memory.md "HBM").  rd_to_wr: tRTW = RL + BL/2 + 2 - WL (the
     * JEDEC form, as in GDDR data sheets) leaves 2 tCK between read and
     * write data; HBM3's CK is a quarter of the pin rate (6.25 Gb/s on the
     * H200: tCK 0.64 ns).  wr_to_rd: tWTR_S + RL = 4 + 18 ns, HBM2 values
     * from gem5's hbm.py (HBM_2000_4H_1x64: tWTR 4 ns, tCL 18 ns, from
     * Rambus' controller), taken as unchanged in ns for HBM3 (recalled; no
     * HBM3 data sheet at hand).  write_batch: writes drained per switch,
     * Accel-Sim's SM90_H100 write queue 64:56:32 (drained from the high
     * watermark 56 to the low 32: 24; gem5's controller drains 85 % to
     * 50 % of 64, ~22, at least 16).  0: no write queue, no turnaround. */
    ROW_INT("memory.hbm.rd_to_wr_ps", hbm_rd_to_wr_ps, 1280, 0, 1000000, "ps",
            "idle data bus from a read's data to the next write's (2 tCK)"),
    ROW_INT("memory.hbm.wr_to_rd_ps", hbm_wr_to_rd_ps, 22000, 0, 1000000, "ps",
            "idle data bus from a write's data to the next read's (tWTR + RL)"),
    ROW_INT("memory.hbm.ccd_l_ps", hbm_ccd_l_ps, 0, 0, 100000, "ps",
            "least time between two column accesses (32 B bursts) to one bank (tCCD_L): a line's "
            "four bursts come that far apart (requests with addresses); 0: as fast as the bus takes them"),
    ROW_INT("memory.hbm.row_idle_ps", hbm_row_idle_ps, 0, 0, 1000000000, "ps",
            "a bank idle this long has closed its open row, so the next access opens it again "
            "(0: a row stays open until another row or a refresh needs the bank)"),
    ROW_INT("memory.hbm.write_batch", hbm_write_batch, 24, 0, 4096, "bursts",
            "32 B write bursts a pseudo-channel queues and drains per turnaround (0: no queue, "
            "no turnaround)"),
    /* Refresh of a bank (hbm.c, docs/memory.md "HBM"): each bank is
     * unavailable for refresh_ps once every refresh_interval_ps (per-bank
     * refresh, JESD238's REFsb; the banks' windows staggered), and an
     * access that finds it refreshing waits.  refresh_ps 0 (the default):
     * no refresh.  The interval's default is the standard tREFI, 3.9 us
     * (Ramulator2's HBM3 timing preset, nREFI 3900 at tCK 1 ns);
     * configs/h200.yaml turns it on (all-bank, 16 pseudo-channels in step)
     * with refresh_ps fitted to E11's hbm.csv. */
    ROW_INT("memory.hbm.refresh_ps", hbm_refresh_ps, 0, 0, 100000000, "ps",
            "a bank's refresh: the time it serves no access (0: no refresh)"),
    ROW_INT("memory.hbm.refresh_interval_ps", hbm_refresh_interval_ps, 3900000, 1, 1000000000, "ps",
            "from one refresh of a bank to its next"),
    ROW_INT("memory.hbm.refresh_all_banks", hbm_refresh_all_banks, 0, 0, 1, "bool",
            "1: all banks of a pseudo-channel refresh at once (all-bank refresh, REFab), so the "
            "channel serves nothing meanwhile; 0: each bank by itself, their windows staggered "
            "(per-bank refresh, REFsb)"),
    ROW_INT("memory.hbm.refresh_group", hbm_refresh_group, 1, 1, 4096, "pseudo-channels",
            "consecutive pseudo-channels (numbered partition by partition) that refresh in step, "
            "at one phase: 1 each its own, 2 a channel, 16 a 512-bit controller; a group that does "
            "not divide a partition's count spans two partitions"),
    /* Address translation of L1 misses (src/mem/tlb.c, docs/memory.md
     * "Address translation").  Off by default; the sizes below are generic
     * placeholders (Jia et al., "Dissecting the NVIDIA Volta GPU
     * Architecture via Microbenchmarking", 2018, as recalled: an L1 TLB
     * covering 32 MB and an L2 TLB covering 8 GB of 2 MB pages on V100),
     * the latencies an assumption of the order of an L2 hit and of a few
     * dependent memory reads; configs/h200.yaml sets the H200's (E20). */
    ROW_INT("memory.tlb.enabled", tlb_enabled, 0, 0, 1, "bool",
            "translate what leaves the L1 (misses, .cg loads, stores) through per-SM L1 TLBs, "
            "shared L2 TLBs and page walks; needs memory.model: hierarchy"),
    ROW_INT("memory.tlb.page_bytes", tlb_page_bytes, 2097152, 4096, 1073741824, "bytes",
            "bytes one translation covers (a power of two; the driver's 2 MB pages)"),
    ROW_INT("memory.tlb.l1_entries", tlb_l1_entries, 16, 1, 65536, "entries",
            "L1 TLB per SM: translations it holds (a multiple of memory.tlb.l1_ways)"),
    ROW_INT("memory.tlb.l1_ways", tlb_l1_ways, 16, 1, 65536, "ways",
            "L1 TLB: ways per set (= l1_entries: fully associative)"),
    ROW_ENUM("memory.tlb.l1_replace", tlb_l1_replace, "lru", tlb_replaces,
             "L1 TLB victim in a full set: lru (least recent), mru (most recent: a cyclic walk over "
             "more pages than the set holds keeps ways - 1 of them), random (drawn from sim.seed)"),
    ROW_INT("memory.tlb.l2_entries", tlb_l2_entries, 4096, 1, 1048576, "entries",
            "L2 TLB: translations each one holds (a multiple of memory.tlb.l2_ways)"),
    ROW_INT("memory.tlb.l2_ways", tlb_l2_ways, 16, 1, 1048576, "ways",
            "L2 TLB: ways per set, LRU (= l2_entries: fully associative)"),
    ROW_ENUM("memory.tlb.l2_scope", tlb_l2_scope, "chip", tlb_scopes,
             "chip: one L2 TLB shared by every SM; gpc: one per GPC, shared by its SMs"),
    ROW_INT("memory.tlb.l2_hit_ps", tlb_l2_hit_ps, 70000, 0, 1000000000, "ps",
            "an L1 TLB miss that hits the L2 TLB delays its request this long (an L1 TLB hit: 0)"),
    ROW_INT("memory.tlb.walk_ps", tlb_walk_ps, 300000, 0, 1000000000, "ps",
            "an L2 TLB miss (a page walk) delays its request this long beyond memory.tlb.l2_hit_ps"),
    ROW_INT("memory.tlb.launch_flush", tlb_launch_flush, 0, 0, 1, "bool",
            "1: every kernel launch empties the TLBs; 0: translations stay from kernel to kernel"),

    /* Silicon model: docs/silicon.md gives the source of every default;
     * [physics] = shared physics.md, [trace] = validation/h200/smi_trace2. */
    ROW_ENUM("silicon.preset", si_preset, "uniform", si_presets,
             "per-SM process variation: uniform (none: the measured H200), varius "
             "(a VARIUS within-die Vth map; old name skewed), or file"),
    ROW_PATH("silicon.map_file", si_map_file,
             "CSV 'sm,vth_mv' or 'sm,fmax_scale', one row per SM (preset file)"),

    ROW_INT("floorplan.die_w_um", die_w_um, 28530, 1000, 100000, "um",
            "die width (GH100: 814 mm^2, taken square)"),
    ROW_INT("floorplan.die_h_um", die_h_um, 28530, 1000, 100000, "um", "die height"),
    ROW_INT("floorplan.gpc_rows", fp_gpc_rows, 2, 1, 32, "rows",
            "rows of GPC blocks; the L2 band lies between the middle rows"),
    ROW_INT("floorplan.l2_um", fp_l2_um, 3000, 0, 100000, "um",
            "height of the central L2 band"),
    ROW_INT("floorplan.phy_um", fp_phy_um, 2000, 0, 100000, "um",
            "width of each HBM PHY / memory-controller strip (left and right edges)"),
    ROW_INT("floorplan.io_um", fp_io_um, 1000, 0, 100000, "um",
            "height of each NVLink/PCIe strip (top and bottom edges)"),
    ROW_LIST("floorplan.gpc_slots", fp_gpc_slots, 1, 1, 64, "block",
             "block of each GPC in the grid of GPC blocks, numbered from 1 row by row: a list "
             "of topology.gpcs distinct ints; one int (the default) puts GPC g in block g + 1"),

    ROW_INT("variation.vth_sigma_permille", var_sigma_permille, 90, 0, 500, "1/1000",
            "sigma/mu of Vth (VARIUS: 9 %)"),
    ROW_INT("variation.sys_pct", var_sys_pct, 50, 0, 100, "%",
            "share of the Vth variance that is systematic (VARIUS: half)"),
    ROW_INT("variation.phi_permille", var_phi_permille, 500, 1, 10000, "1/1000",
            "range of the systematic correlation, per die width (VARIUS: 0.5)"),

    ROW_INT("vf.vnom_mv", vf_vnom_mv, 900, 100, 2000, "mV",
            "supply at which a nominal SM reaches clocks.sm_mhz"),
    ROW_INT("vf.vth_mv", vf_vth_mv, 300, 50, 1000, "mV", "nominal threshold voltage"),
    ROW_INT("vf.alpha_milli", vf_alpha_milli, 1300, 1000, 2000, "1/1000",
            "alpha-power-law exponent (Sakurai-Newton)"),
    ROW_INT("vf.vmin_mv", vf_vmin_mv, 650, 100, 2000, "mV", "regulator floor"),
    ROW_INT("vf.guard_pct", vf_guard_pct, 8, 0, 50, "%",
            "regulator set-point above the nominal SM's need (IR-drop margin)"),

    ROW_INT("pdn.nx", pdn_nx, 32, 1, 128, "nodes", "power-grid mesh nodes across the die"),
    ROW_INT("pdn.ny", pdn_ny, 32, 1, 128, "nodes", "power-grid mesh nodes down the die"),
    ROW_INT("pdn.sheet_mohm", pdn_sheet_mohm, 22, 1, 1000000, "mOhm/sq",
            "grid sheet resistance per direction, one net (VoltSpot layers)"),
    ROW_INT("pdn.bump_pitch_um", pdn_bump_pitch_um, 285, 10, 10000, "um",
            "bump pitch; power and ground bumps alternate"),
    ROW_INT("pdn.bump_mohm", pdn_bump_mohm, 10, 1, 1000000, "mOhm", "resistance of one bump"),
    ROW_INT("pdn.pkg_uohm", pdn_pkg_uohm, 30, 0, 1000000000, "uOhm",
            "regulator to bumps, power and ground together"),

    /* The switched energy of instructions (docs/silicon.md, "Power"): the
     * datapath and register-file energies of power.c's tables (Horowitz,
     * ISSCC 2014, 45 nm) times power.op_scale_ppm, plus power.sched_pj per
     * scheduler-cycle with a resident warp, plus the tensor pipe's cycles.
     * The four are fitted by `skewsim validate --measured` (its "power fit"
     * lines recompute them from E16; docs/calibration.md): these defaults
     * are what it gave on configs/h200.yaml. */
    ROW_INT("power.op_scale_ppm", op_scale_ppm, 182412, 0, 100000000, "ppm",
            "datapath and register-file energies of 45 nm / 0.9 V (power.c) to this chip at "
            "vf.vnom_mv, per million (fitted: E16 fp32_1cta, int32)"),
    ROW_INT("power.sched_pj", sched_pj, 116, 0, 100000000, "pJ",
            "per scheduler-cycle with a resident warp at vf.vnom_mv: issue, scoreboard, "
            "operand collectors, pipeline clocks (fitted: E16 fp32_1cta, int32)"),
    ROW_INT("power.fp32_random_fj", fp32_random_fj, 9711, 0, 100000000, "fJ",
            "per FP32 FFMA lane at vf.vnom_mv when the kernel's data are random (trace key data=), "
            "over the quiet chains op_scale_ppm is fitted on; FADD, FMUL by their datapath "
            "(fitted: E32, cuBLAS's SGEMM on random inputs over the same on zeros, "
            "validation/h100/sdata)"),
    ROW_INT("power.tensor_pj", tensor_pj, 1072, 0, 100000000, "pJ",
            "per bf16 tensor-pipe cycle at vf.vnom_mv (fitted: E16 bf16 GEMM clock)"),
    ROW_INT("power.tensor_datapath_pct", tensor_datapath_pct, 49, 0, 100, "%",
            "share of a bf16 tensor-pipe cycle's energy in the multipliers and adders; "
            "sets the other types' energy (fitted: E16 fp16 GEMM clock)"),
    ROW_INT("power.clk_pj", clk_pj, 76, 0, 100000000, "pJ",
            "clock tree and idle logic per SM cycle at vf.vnom_mv"),
    ROW_INT("power.leak_mw", leak_mw, 230, 0, 1000000, "mW",
            "leakage per SM at vf.vnom_mv, vf.vth_mv and power.leak_ref_c"),
    ROW_INT("power.leak_ref_c", leak_ref_c, 40, -50, 200, "C", "reference temperature of leak_mw"),
    ROW_INT("power.leak_beta_permille", leak_beta_permille, 20, 0, 1000, "1/1000 per K",
            "leakage grows as exp(beta (T - leak_ref_c))"),
    ROW_INT("power.leak_v_mv", leak_v_mv, 390, 1, 100000, "mV",
            "supply change per e-fold of leakage current (DIBL)"),
    ROW_INT("power.leak_vth_mv", leak_vth_mv, 39, 1, 10000, "mV",
            "threshold change per e-fold of leakage current (subthreshold slope)"),
    ROW_INT("power.uncore_w", uncore_w, 23, 0, 100000, "W",
            "rest of the die and board: L2, crossbar, I/O, regulator losses"),
    ROW_INT("power.mem_idle_w", mem_idle_w, 42, 0, 100000, "W", "HBM stacks at rest"),
    ROW_INT("power.mem_pj_per_byte", mem_pj_per_byte, 30, 0, 1000000, "pJ",
            "DRAM energy per byte moved"),

    ROW_INT("thermal.inlet_c", th_inlet_c, 33, -50, 150, "C", "coolant / inlet air"),
    ROW_INT("thermal.block_r_mk_mm2_per_w", th_block_r_mk_mm2_per_w, 11500, 1, 1000000000,
            "mK mm^2/W", "die block to package, times block area"),
    ROW_INT("thermal.block_c_uj_per_k_mm2", th_block_c_uj_per_k_mm2, 815, 1, 1000000000,
            "uJ/(K mm^2)", "heat capacity of the die per area"),
    ROW_INT("thermal.pkg_r_mk_per_w", th_pkg_r_mk_per_w, 14, 1, 1000000000, "mK/W",
            "package / heat sink to inlet"),
    ROW_INT("thermal.pkg_c_j_per_k", th_pkg_c_j_per_k, 150, 1, 1000000000, "J/K",
            "package / heat sink heat capacity"),
    ROW_INT("thermal.slowdown_c", th_slowdown_c, 90, 0, 200, "C",
            "hottest SM above this: the DVFS target steps down"),
    ROW_INT("thermal.hyst_c", th_hyst_c, 2, 0, 100, "C",
            "the slowdown releases this far below slowdown_c"),
    /* nvidia-smi's "GPU Shutdown Temp" on the measured H200 (physics.md). */
    ROW_INT("thermal.shutdown_c", th_shutdown_c, 96, 1, 1000, "C",
            "any SM above this powers the chip off: the run fails"),
    ROW_INT64("thermal.check_ns", th_check_ns, 1000000, 0, 1000000000000, "ns",
              "hardware slowdown: every this often a domain over slowdown_c loses a bin "
              "(0: only at DVFS decisions)"),

    ROW_ENUM("dvfs.policy", dvfs_policy, "fixed", dvfs_policies,
             "clock lock at fixed_mhz, chip-wide power cap, or per-GPC / per-SM caps"),
    ROW_INT("dvfs.fixed_mhz", dvfs_fixed_mhz, 0, 0, 10000, "MHz",
            "clock of policy fixed (0 = clocks.sm_mhz)"),
    ROW_INT("dvfs.cap_w", dvfs_cap_w, 700, 1, 100000, "W", "board power cap"),
    ROW_INT("dvfs.margin_w", dvfs_margin_w, 8, 0, 100000, "W",
            "the controller holds mean power at cap - margin"),
    ROW_INT("dvfs.min_mhz", dvfs_min_mhz, 345, 1, 10000, "MHz", "lowest clock bin"),
    ROW_INT("dvfs.step_mhz", dvfs_step_mhz, 15, 1, 10000, "MHz",
            "clock bins step down from clocks.sm_mhz by this much"),
    ROW_INT("dvfs.idle_mhz", dvfs_idle_mhz, 345, 1, 10000, "MHz",
            "clock when no kernel has run for idle_after_ns"),
    ROW_INT("dvfs.wake_ns", dvfs_wake_ns, 30000, 0, 1000000000, "ns",
            "extra launch delay after wake_after_ns without a kernel"),
    ROW_INT64("dvfs.epoch_ns", dvfs_epoch_ns, 100000000, 1000, 1000000000000, "ns",
              "DVFS decision period (power averaging window)"),
    ROW_INT64("dvfs.latency_ns", dvfs_latency_ns, 20000000, 0, 1000000000000, "ns",
              "a decided clock takes effect this much later"),
    ROW_INT64("dvfs.idle_after_ns", dvfs_idle_after_ns, 2000000000, 0, 1000000000000000, "ns",
              "no kernel for this long: the idle clock"),
    ROW_INT64("dvfs.wake_after_ns", dvfs_wake_after_ns, 1000000, 0, 1000000000000000, "ns",
              "no kernel for this long: the next launch pays wake_ns"),
    ROW_INT("dvfs.idle_stages", dvfs_idle_stages, 0, 0, CFG_IDLE_STAGES, "stages",
            "idle stages from dvfs.stage<k>.* (0: from wake_after_ns, wake_ns, "
            "idle_after_ns, idle_mhz)"),
    DVFS_STAGE_ROWS_(0, "1")
    DVFS_STAGE_ROWS_(1, "2")
    DVFS_STAGE_ROWS_(2, "3")
    DVFS_STAGE_ROWS_(3, "4")
    DVFS_STAGE_ROWS_(4, "5")
    DVFS_STAGE_ROWS_(5, "6")
    DVFS_STAGE_ROWS_(6, "7")
    DVFS_STAGE_ROWS_(7, "8")

    ROW_UINT64("sim.seed", seed, 1, "", "random seed"),
    /* Bounded so that the limit converted to picoseconds fits in ps_t. */
    ROW_INT64("sim.max_time_ns", max_time_ns, 0, 0, INT64_MAX / PS_PER_NS, "ns",
              "abort a run past this simulated time (0 = no limit)"),
    ROW_INT64("sim.lookahead_cycles", lookahead_cycles, -1, -1, 4096, "cycles",
            "how far an SM may run ahead of other SMs' events, never past another event "
            "(-1 = by memory.model: 0 (exact) when flat, 16 with the hierarchy; docs/performance.md)"),
};

#define NKEYS SK_ARRAY_LEN(cfg_schema)

/* ---- small helpers --------------------------------------------------- */

static void *field(cfg *c, const cfg_key *k)
{
    return (char *)c + k->off;
}

static const void *cfield(const cfg *c, const cfg_key *k)
{
    return (const char *)c + k->off;
}

static const cfg_key *find_key(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(cfg_schema[i].name, name) == 0)
            return &cfg_schema[i];
    return NULL;
}

/* A section is a proper prefix of some key ending at a dot ("sm", "units.fp32"). */
static int is_section(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < NKEYS; i++)
        if (strncmp(cfg_schema[i].name, name, n) == 0 && cfg_schema[i].name[n] == '.')
            return 1;
    return 0;
}

/* The first key of a section, as an example in messages. */
static const char *first_in_section(const char *section)
{
    size_t n = strlen(section);
    for (size_t i = 0; i < NKEYS; i++)
        if (strncmp(cfg_schema[i].name, section, n) == 0 && cfg_schema[i].name[n] == '.')
            return cfg_schema[i].name;
    return "?";
}

/* Levenshtein distance, or limit + 1 as soon as it must exceed `limit`.
 * `b` is a schema name (short); `a` may be anything the user typed. */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
    size_t na = strlen(a), nb = strlen(b);
    if ((na > nb ? na - nb : nb - na) > limit || nb >= 128)
        return limit + 1;
    size_t prev[128], cur[128];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t rowmin = cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = SK_MIN(sub, SK_MIN(del, ins));
            rowmin = SK_MIN(rowmin, cur[j]);
        }
        if (rowmin > limit)
            return limit + 1;
        memcpy(prev, cur, (nb + 1) * sizeof prev[0]);
    }
    return prev[nb];
}

/* Fill buf with "; did you mean X?" for the closest key or section within
 * edit distance 2, or with "" when there is none. */
static void suggest(char *buf, size_t cap, const char *name)
{
    const size_t limit = 2;
    size_t best = limit + 1;
    char bestname[128] = "";
    buf[0] = '\0';
    for (size_t i = 0; i < NKEYS; i++) {
        const char *key = cfg_schema[i].name;
        /* every prefix of the key ending before a dot, then the key itself */
        for (const char *p = key;; p++) {
            if (*p == '.' || *p == '\0') {
                size_t n = (size_t)(p - key);
                char cand[128];
                if (n < sizeof cand) {
                    memcpy(cand, key, n);
                    cand[n] = '\0';
                    size_t d = edit_distance(name, cand, limit);
                    if (d < best) {
                        best = d;
                        memcpy(bestname, cand, n + 1);
                    }
                }
            }
            if (*p == '\0')
                break;
        }
    }
    /* "" or "x" is within 2 edits of "sm": not a useful guess */
    if (best <= limit && best < strlen(name))
        snprintf(buf, cap, "; did you mean %s?", bestname);
}

/* What a key accepts, as the WHAT of "expected WHAT". */
static const char *describe(const cfg_key *k, char *buf, size_t cap)
{
    switch (k->type) {
    case KEY_INT:
    case KEY_INT64:
        snprintf(buf, cap, "an integer in %lld..%lld", (long long)k->min, (long long)k->max);
        break;
    case KEY_UINT64:
        snprintf(buf, cap, "an integer in 0..%llu", (unsigned long long)UINT64_MAX);
        break;
    case KEY_STRING:
        snprintf(buf, cap, "a string of %lld..%lld printable ASCII characters",
                 (long long)k->min, (long long)k->max);
        break;
    case KEY_ENUM: {
        size_t used = (size_t)snprintf(buf, cap, "one of");
        for (size_t i = 0; k->choices[i] && used < cap; i++)
            used += (size_t)snprintf(buf + used, cap - used, "%s %s",
                                     i ? "," : "", k->choices[i]);
        break;
    }
    case KEY_INT_LIST:
        snprintf(buf, cap, "an integer in %lld..%lld, or a list of them (one per GPC)",
                 (long long)k->min, (long long)k->max);
        break;
    }
    return buf;
}

/* The bounds column of help and dump comments. */
static const char *bounds(const cfg_key *k, char *buf, size_t cap)
{
    switch (k->type) {
    case KEY_INT:
    case KEY_INT64:
    case KEY_INT_LIST:
        snprintf(buf, cap, "%lld..%lld", (long long)k->min, (long long)k->max);
        break;
    case KEY_UINT64:
        snprintf(buf, cap, "0..%llu", (unsigned long long)UINT64_MAX);
        break;
    case KEY_STRING:
        snprintf(buf, cap, "%lld..%lld chars", (long long)k->min, (long long)k->max);
        break;
    case KEY_ENUM: {
        size_t used = 0;
        buf[0] = '\0';
        for (size_t i = 0; k->choices[i] && used < cap; i++)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                     i ? "|" : "", k->choices[i]);
        break;
    }
    }
    return buf;
}

static const char *type_name(const cfg_key *k)
{
    switch (k->type) {
    case KEY_INT: return "int";
    case KEY_INT64: return "int64";
    case KEY_UINT64: return "uint64";
    case KEY_STRING: return "string";
    case KEY_ENUM: return "enum";
    case KEY_INT_LIST: return "int|list";
    }
    return "?";
}

/* ---- values ---------------------------------------------------------- */

enum { NUM_OK, NUM_SYNTAX, NUM_ZEROS, NUM_OVERFLOW };

/* Decimal digits with an optional leading '-' (when `sign`).  Leading zeros
 * are refused: YAML 1.1 readers take "010" as octal 8, and a config that
 * other tools read differently is worse than an error. */
static int parse_decimal(const char *s, size_t n, int sign, int *neg, uint64_t *mag)
{
    size_t i = 0;
    int over = 0;
    *neg = 0;
    *mag = 0;
    if (sign && i < n && s[i] == '-') {
        *neg = 1;
        i++;
    }
    if (i == n)
        return NUM_SYNTAX;
    size_t first = i;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return NUM_SYNTAX;
        unsigned d = (unsigned)(s[i] - '0');
        if (*mag > (UINT64_MAX - d) / 10)
            over = 1;
        else
            *mag = *mag * 10 + d;
    }
    if (s[first] == '0' && n - first > 1)
        return NUM_ZEROS;
    return over ? NUM_OVERFLOW : NUM_OK;
}

/* Parse an integer for a bounded key (int, int64, list entry). */
static int parse_bounded(const cfg_key *k, const char *s, size_t n, int64_t *out)
{
    int neg;
    uint64_t mag;
    int rc = parse_decimal(s, n, 1, &neg, &mag);
    if (rc != NUM_OK)
        return rc;
    if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
        return NUM_OVERFLOW;
    int64_t v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag)
                    : (int64_t)mag;
    if (v < k->min || v > k->max)
        return NUM_OVERFLOW;
    *out = v;
    return NUM_OK;
}

/* Map a parse failure to an error code and WHAT. */
static int num_fail(const cfg_key *k, int rc, char *what, size_t cap)
{
    char d[160];
    describe(k, d, sizeof d);
    if (rc == NUM_ZEROS) {
        snprintf(what, cap, "%s, without leading zeros", d);
        return SK_ECONFIG;
    }
    snprintf(what, cap, "%s", d);
    return rc == NUM_OVERFLOW ? SK_ERANGE : SK_ECONFIG;
}

/* Same for one entry of a list key: its bounds without "or a list". */
static int elem_fail(const cfg_key *k, int rc, char *what, size_t cap)
{
    snprintf(what, cap, "an integer in %lld..%lld%s", (long long)k->min, (long long)k->max,
             rc == NUM_ZEROS ? ", without leading zeros" : "");
    return rc == NUM_OVERFLOW ? SK_ERANGE : SK_ECONFIG;
}

/* Store text s[0..n) as key k's value in c.  Returns 0, or SK_ECONFIG /
 * SK_ERANGE with what[] filled in for "expected WHAT".  A list key given a
 * scalar here applies it to every GPC. */
static int store(cfg *c, const cfg_key *k, const char *s, size_t n, char *what, size_t cap)
{
    void *p = field(c, k);
    int64_t v;
    int rc;

    switch (k->type) {
    case KEY_INT:
    case KEY_INT64:
        if ((rc = parse_bounded(k, s, n, &v)) != NUM_OK)
            return num_fail(k, rc, what, cap);
        if (k->type == KEY_INT)
            *(int *)p = (int)v;
        else
            *(int64_t *)p = v;
        return 0;
    case KEY_INT_LIST:
        if ((rc = parse_bounded(k, s, n, &v)) != NUM_OK)
            return num_fail(k, rc, what, cap);
        for (int g = 0; g < CFG_MAX_GPCS; g++)
            ((int *)p)[g] = (int)v;
        return 0;
    case KEY_UINT64: {
        int neg;
        uint64_t mag;
        if ((rc = parse_decimal(s, n, 0, &neg, &mag)) != NUM_OK)
            return num_fail(k, rc, what, cap);
        *(uint64_t *)p = mag;
        return 0;
    }
    case KEY_STRING: {
        int ok = (int64_t)n >= k->min && (int64_t)n <= k->max;
        for (size_t i = 0; ok && i < n; i++)
            ok = s[i] >= 0x20 && s[i] < 0x7f;
        if (!ok) {
            describe(k, what, cap);
            return n > (size_t)k->max ? SK_ERANGE : SK_ECONFIG;
        }
        /* Clear the whole buffer so equal configs compare equal bytewise. */
        memset(p, 0, CFG_NAME_MAX);
        memcpy(p, s, n);
        return 0;
    }
    case KEY_ENUM:
        for (int i = 0; k->choices[i]; i++)
            if (strlen(k->choices[i]) == n && memcmp(k->choices[i], s, n) == 0) {
                *(int *)p = i;
                return 0;
            }
        describe(k, what, cap);
        return SK_ECONFIG;
    }
    describe(k, what, cap);
    return SK_ECONFIG;
}

/* Store the first n entries of a list; the rest are zeroed (see the top). */
static void store_list(cfg *c, const cfg_key *k, const int *vals, int n)
{
    int *p = field(c, k);
    for (int g = 0; g < CFG_MAX_GPCS; g++)
        p[g] = g < n ? vals[g] : 0;
}

/* Length of the list in a list key: the index of the first 0, or all. */
static int list_len(const int *vals)
{
    int n = 0;
    while (n < CFG_MAX_GPCS && vals[n] != 0)
        n++;
    return n;
}

/* ---- public: defaults, accessors --------------------------------------- */

const char *fu_class_name(int cls)
{
    static const char *const names[] = {
#define FU_NAME_(id, name) name,
        FU_CLASS_MAP(FU_NAME_)
#undef FU_NAME_
    };
    return cls >= 0 && cls < FU_NCLASS ? names[cls] : "?";
}

void cfg_defaults(cfg *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key *k = &cfg_schema[i];
        char what[256];
        if (store(c, k, k->def, strlen(k->def), what, sizeof what) != 0) {
            /* Our own table is wrong: no input can cause this, and the
             * test suite checks every row. */
            fprintf(stderr, "skewsim: bug: default of %s (%s): expected %s\n",
                    k->name, k->def, what);
            abort();
        }
    }
}

size_t cfg_schema_len(void)
{
    return NKEYS;
}

const char *cfg_schema_key(size_t i)
{
    return i < NKEYS ? cfg_schema[i].name : NULL;
}

const char *cfg_schema_default(size_t i)
{
    return i < NKEYS ? cfg_schema[i].def : NULL;
}

int cfg_schema_bounds(size_t i, int64_t *lo, int64_t *hi)
{
    if (i >= NKEYS || (cfg_schema[i].type != KEY_INT && cfg_schema[i].type != KEY_INT64))
        return 0;
    *lo = cfg_schema[i].min;
    *hi = cfg_schema[i].max;
    return 1;
}

const char *const *cfg_schema_choices(size_t i)
{
    return i < NKEYS && cfg_schema[i].type == KEY_ENUM ? cfg_schema[i].choices : NULL;
}

int cfg_num_tpcs(const cfg *c)
{
    int n = 0;
    for (int g = 0; g < c->gpcs && g < CFG_MAX_GPCS; g++)
        n += c->tpcs_per_gpc[g];
    return n;
}

int cfg_num_sms(const cfg *c)
{
    return cfg_num_tpcs(c) * c->sms_per_tpc;
}

/* ---- YAML ------------------------------------------------------------ */

/* `include: FILE` (the first key of a document) loads FILE first, so the
 * including file's own settings override the base's.  FILE is relative to
 * the including file's directory.  The files being read form a chain,
 * innermost first, each by its resolved path (realpath), so that a cycle
 * is caught however it is spelled; at most CFG_INCLUDE_DEPTH deep. */
#define CFG_INCLUDE_DEPTH 8

typedef struct incl {
    char *real;                 /* realpath of the file, NULL when it has none (a string) */
    const struct incl *up;      /* the file that included it */
} incl;

typedef struct loader {
    yrd y;                      /* the parser, the name, the keys seen */
    cfg *c;                     /* scratch copy, committed only on success */
    const incl *chain;          /* this file and those including it */
    int depth;                  /* includes above this file */
    int top_keys;               /* top-level keys read so far (include: must come first) */
    const char *probe;          /* cfg_key_origin: the key whose setting is looked for */
    char *probe_at;             /* where its value was last read, "FILE:LINE:COL" */
    size_t probe_n;
} loader;

/* A scalar for key k (entry `index` of a list when index >= 0). */
static int load_scalar(loader *L, const cfg_key *k, const yaml_event_t *ev, int index,
                       int64_t *elem)
{
    char key[160], val[80], what[256];
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    int rc;

    if (index >= 0)
        snprintf(key, sizeof key, "%s[%d]", k->name, index);
    else
        snprintf(key, sizeof key, "%s", k->name);
    if ((rc = yrd_check_plain(&L->y, ev, key)) != 0)
        return rc;

    int numeric = k->type != KEY_STRING && k->type != KEY_ENUM;
    if (numeric && ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
        char q[80];
        snprintf(q, sizeof q, "\"%s\"", yrd_show(val, sizeof val, s, n));
        return yrd_err(&L->y, ev->start_mark, SK_ECONFIG, "%s: %s: expected %s, not a quoted string",
                      key, q, describe(k, what, sizeof what));
    }
    if (k->type == KEY_STRING && yrd_is_null(ev)) {
        rc = SK_ECONFIG;
        describe(k, what, sizeof what);
    } else if (index >= 0) {
        int prc = parse_bounded(k, s, n, elem);
        rc = prc == NUM_OK ? 0 : elem_fail(k, prc, what, sizeof what);
    } else {
        rc = store(L->c, k, s, n, what, sizeof what);
    }
    if (rc)
        return yrd_err(&L->y, ev->start_mark, rc, "%s: %s: expected %s", key,
                      yrd_show(val, sizeof val, s, n), what);
    return 0;
}

static int load_list(loader *L, const cfg_key *k, const yaml_event_t *start)
{
    int vals[CFG_MAX_GPCS];
    int n = 0;
    char what[256], buf[80], key[160];

    for (;;) {
        yaml_event_t ev;
        int rc = yrd_next(&L->y, &ev);
        if (rc)
            return rc;
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        snprintf(key, sizeof key, "%s[%d]", k->name, n);
        if (ev.type != YAML_SCALAR_EVENT) {
            rc = yrd_check_plain(&L->y, &ev, key);
            if (!rc)
                rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "%s: %s: expected an integer in %lld..%lld",
                            key, yrd_show_event(&ev, buf, sizeof buf), (long long)k->min,
                            (long long)k->max);
        } else if (n == CFG_MAX_GPCS) {
            rc = yrd_err(&L->y, ev.start_mark, SK_ERANGE, "%s: %s: expected at most %d entries (one per GPC)",
                        key, yrd_show_event(&ev, buf, sizeof buf), CFG_MAX_GPCS);
        } else {
            int64_t v = 0;
            rc = load_scalar(L, k, &ev, n, &v);
            vals[n++] = (int)v;
        }
        yaml_event_delete(&ev);
        if (rc)
            return rc;
    }
    if (n == 0)
        return yrd_err(&L->y, start->start_mark, SK_ECONFIG, "%s: []: expected %s", k->name,
                      describe(k, what, sizeof what));
    store_list(L->c, k, vals, n);
    return 0;
}

static int load_mapping(loader *L, const char *prefix);
static int load_document(loader *L);

/* FILE of `include: FILE` in the file L reads, resolved against that
 * file's directory.  Caller frees. */
static char *include_path(const char *from, const char *file, size_t n)
{
    const char *slash = strrchr(from, '/');
    size_t dl = file[0] == '/' || !slash ? 0 : (size_t)(slash - from + 1);
    char *p = xmalloc(dl + n + 1);
    memcpy(p, from, dl);
    memcpy(p + dl, file, n);
    p[dl + n] = '\0';
    return p;
}

/* `include: FILE`, whose key sat at `km`: FILE's settings into L->c. */
static int load_include(loader *L, yaml_mark_t km)
{
    char buf[80], shown[80];
    int rc;
    if (L->top_keys > 1)
        return yrd_err(&L->y, km, SK_ECONFIG, "include: after other settings: expected it first, so that "
                       "this file's settings override the included file's");
    if ((rc = yrd_note_key(&L->y, "include", km)) != 0)
        return rc;
    yaml_event_t ev;
    if ((rc = yrd_next(&L->y, &ev)) != 0)
        return rc;
    if ((rc = yrd_check_plain(&L->y, &ev, "include")) != 0)
        goto out;
    if (ev.type != YAML_SCALAR_EVENT || yrd_is_null(&ev) || memchr(ev.data.scalar.value, '\0',
                                                                   ev.data.scalar.length)) {
        rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "include: %s: expected the file name of a config",
                     ev.type == YAML_SCALAR_EVENT && yrd_is_null(&ev) ? "(empty)"
                                                                     : yrd_show_event(&ev, buf, sizeof buf));
        goto out;
    }
    const char *file = (const char *)ev.data.scalar.value;
    size_t n = ev.data.scalar.length;
    yrd_show(shown, sizeof shown, file, n);
    if (L->depth + 1 > CFG_INCLUDE_DEPTH) {
        rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "include: %s: expected at most %d nested includes",
                     shown, CFG_INCLUDE_DEPTH);
        goto out;
    }
    char *path = include_path(L->y.name, file, n);
    char *real = realpath(path, NULL);
    if (!real) {
        rc = yrd_err(&L->y, ev.start_mark, SK_EIO, "include: %s: cannot open %s: %s", shown, path,
                     strerror(errno));
        free(path);
        goto out;
    }
    /* Only a regular file: `include: /dev/stdin` must not block a loader
     * (nor a fuzzer feeding it). */
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = yrd_err(&L->y, ev.start_mark, SK_EIO, "include: %s: %s is not a regular file", shown, path);
        free(real);
        free(path);
        goto out;
    }
    for (const incl *q = L->chain; q; q = q->up)
        if (q->real && !strcmp(q->real, real)) {
            rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "include: %s: an include cycle: %s is already "
                         "being read", shown, path);
            free(real);
            free(path);
            goto out;
        }
    unsigned char *text;
    size_t len;
    sk_error fe = {0};
    if (yrd_read_file(path, &text, &len, &fe) != 0) {
        rc = yrd_err(&L->y, ev.start_mark, fe.code, "include: %s", fe.msg);
    } else {
        incl me = {real, L->chain};
        loader sub = {.c = L->c, .chain = &me, .depth = L->depth + 1, .probe = L->probe, .probe_at = L->probe_at,
                      .probe_n = L->probe_n};
        yrd_init(&sub.y, path, text, len, L->y.e);
        rc = load_document(&sub);
        yrd_free(&sub.y);
        free(text);
    }
    free(real);
    free(path);
out:
    yaml_event_delete(&ev);
    return rc;
}

/* The value of key or section `full`, whose key sat at `km`. */
static int load_value(loader *L, const char *full, yaml_mark_t km)
{
    const cfg_key *k = find_key(full);
    int section = !k && is_section(full);
    char what[256], buf[80];
    int rc;

    if (!k && !section) {
        char hint[192], shown[80];
        suggest(hint, sizeof hint, full);
        return yrd_err(&L->y, km, SK_ECONFIG,
                      "%s: unknown key: expected one of the keys listed by 'skewsim config --help-config'%s",
                      yrd_show(shown, sizeof shown, full, strlen(full)), hint);
    }
    if ((rc = yrd_note_key(&L->y, full, km)) != 0)
        return rc;

    yaml_event_t ev;
    if ((rc = yrd_next(&L->y, &ev)) != 0)
        return rc;
    if ((rc = yrd_check_plain(&L->y, &ev, full)) != 0)
        goto out;
    if (k && L->probe && !strcmp(full, L->probe))     /* a later setting (an including file's) overrides */
        snprintf(L->probe_at, L->probe_n, "%s:%zu:%zu", L->y.name, (size_t)ev.start_mark.line + 1,
                 (size_t)ev.start_mark.column + 1);
    if (section) {
        if (ev.type == YAML_MAPPING_START_EVENT)
            rc = load_mapping(L, full);
        else
            rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "%s: %s: expected a mapping of %s.* settings",
                        full, yrd_show_event(&ev, buf, sizeof buf), full);
    } else if (ev.type == YAML_SCALAR_EVENT) {
        rc = load_scalar(L, k, &ev, -1, NULL);
    } else if (ev.type == YAML_SEQUENCE_START_EVENT && k->type == KEY_INT_LIST) {
        rc = load_list(L, k, &ev);
    } else {
        rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "%s: %s: expected %s", full,
                    yrd_show_event(&ev, buf, sizeof buf), describe(k, what, sizeof what));
    }
out:
    yaml_event_delete(&ev);
    return rc;
}

/* Key/value pairs up to the mapping's end; `prefix` is "" at the top. */
static int load_mapping(loader *L, const char *prefix)
{
    const char *where = *prefix ? prefix : "(document)";
    for (;;) {
        yaml_event_t ev;
        char buf[80];
        int rc = yrd_next(&L->y, &ev);
        if (rc)
            return rc;
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (ev.type != YAML_SCALAR_EVENT || (rc = yrd_check_plain(&L->y, &ev, where)) != 0) {
            if (!rc)
                rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG, "%s: %s as a key: expected a setting name",
                            where, yrd_show_event(&ev, buf, sizeof buf));
            yaml_event_delete(&ev);
            return rc;
        }
        const char *key = (const char *)ev.data.scalar.value;
        size_t np = strlen(prefix), nk = ev.data.scalar.length;
        char *full = xmalloc(np + 1 + nk + 1);
        if (np) {
            memcpy(full, prefix, np);
            full[np++] = '.';
        }
        memcpy(full + np, key, nk);
        full[np + nk] = '\0';
        /* A key holding "\0" (from a quoted escape) must not match a shorter name. */
        if (memchr(key, '\0', nk))
            full[np] = '\x01';
        yaml_mark_t km = ev.start_mark;
        yaml_event_delete(&ev);
        if (!*prefix)
            L->top_keys++;
        rc = !*prefix && !strcmp(full, "include") ? load_include(L, km) : load_value(L, full, km);
        free(full);
        if (rc)
            return rc;
    }
}

static int load_document(loader *L)
{
    yaml_event_t ev;
    char buf[80];
    int rc;
    const yaml_mark_t top = { 0, 0, 0 };

    if ((rc = yrd_next(&L->y, &ev)) != 0)         /* STREAM-START */
        return rc;
    yaml_event_delete(&ev);
    if ((rc = yrd_next(&L->y, &ev)) != 0)
        return rc;
    if (ev.type == YAML_STREAM_END_EVENT) {      /* nothing, or only comments */
        yaml_event_delete(&ev);
        return yrd_err(&L->y, top, SK_ECONFIG, "(document): empty: expected a mapping of settings");
    }
    yaml_event_delete(&ev);                      /* DOCUMENT-START */

    if ((rc = yrd_next(&L->y, &ev)) != 0)
        return rc;
    if ((rc = yrd_check_plain(&L->y, &ev, "(document)")) == 0) {
        if (ev.type == YAML_MAPPING_START_EVENT)
            rc = load_mapping(L, "");
        else if (yrd_is_null(&ev))
            rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG,
                        "(document): empty: expected a mapping of settings");
        else
            rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG,
                        "(document): %s: expected a mapping of settings",
                        yrd_show_event(&ev, buf, sizeof buf));
    }
    yaml_event_delete(&ev);
    if (rc)
        return rc;

    if ((rc = yrd_next(&L->y, &ev)) != 0)          /* DOCUMENT-END */
        return rc;
    yaml_event_delete(&ev);
    if ((rc = yrd_next(&L->y, &ev)) != 0)
        return rc;
    if (ev.type != YAML_STREAM_END_EVENT)
        rc = yrd_err(&L->y, ev.start_mark, SK_ECONFIG,
                    "(document): a second document: expected one document per file");
    yaml_event_delete(&ev);
    return rc;
}

/* Parse buf[0..len) into *c; *c is untouched on error.  With probe (a
 * key), where its value was last read goes to probe_at (cfg_key_origin). */
static int load_buffer(cfg *c, const char *name, const unsigned char *buf, size_t len, const char *probe,
                       char *probe_at, size_t probe_n, sk_error *e)
{
    cfg scratch = *c;
    incl me = {realpath(name, NULL), NULL};
    loader L = {.c = &scratch, .chain = &me, .probe = probe, .probe_at = probe_at, .probe_n = probe_n};
    yrd_init(&L.y, name, buf, len, e);

    int rc = load_document(&L);
    free(me.real);
    if (rc == 0)
        *c = scratch;
    yrd_free(&L.y);
    return rc;
}

int cfg_key_origin(const char *path, const char *key, char *buf, size_t n)
{
    unsigned char *text;
    size_t len;
    sk_error e = {0};
    if (n == 0 || yrd_read_file(path, &text, &len, &e) != 0)
        return 0;
    buf[0] = '\0';
    cfg scratch;
    cfg_defaults(&scratch);
    int rc = load_buffer(&scratch, path, text, len, key, buf, n, &e);
    free(text);
    return rc == 0 && buf[0];
}

const char *cfg_error_key(const char *msg, char *key, size_t n)
{
    static const char pre[] = "config: ";
    if (strncmp(msg, pre, sizeof pre - 1) != 0)
        return NULL;
    const char *rest = msg + sizeof pre - 1;
    size_t kn = strcspn(rest, ":[ ");
    if (kn == 0 || kn >= n)
        return NULL;
    memcpy(key, rest, kn);
    key[kn] = '\0';
    /* "config: 16384 SMs x ...", "config: memory.l1: ..." name no key */
    return find_key(key) ? rest : NULL;
}

void cfg_locate_error(const char *path, char *const *sets, int nsets, sk_error *e)
{
    char key[128];
    const char *rest = cfg_error_key(e->msg, key, sizeof key);
    if (!rest)
        return;
    size_t kn = strlen(key);
    char where[SK_ERRMSG_MAX];
    where[0] = '\0';
    for (int i = nsets - 1; i >= 0 && !where[0]; i--)
        if (!strncmp(sets[i], key, kn) && sets[i][kn] == '=') {
            char arg[80];
            snprintf(where, sizeof where, "--set %s", yrd_show(arg, sizeof arg, sets[i], strlen(sets[i])));
        }
    if (!where[0] && (!path || !cfg_key_origin(path, key, where, sizeof where)))
        return;
    char msg[SK_ERRMSG_MAX];
    snprintf(msg, sizeof msg, "%s: %s", where, rest);
    snprintf(e->msg, sizeof e->msg, "%s", msg);
}

int cfg_load_string(cfg *c, const char *name, const char *yaml, sk_error *e)
{
    return load_buffer(c, name, (const unsigned char *)yaml, strlen(yaml), NULL, NULL, 0, e);
}

int cfg_load_file(cfg *c, const char *path, sk_error *e)
{
    unsigned char *buf;
    size_t len;
    int rc = yrd_read_file(path, &buf, &len, e);
    if (rc)
        return rc;
    rc = load_buffer(c, path, buf, len, NULL, NULL, 0, e);
    free(buf);
    return rc;
}

/* ---- --set ----------------------------------------------------------- */

int cfg_check_key(const char *name, sk_error *e)
{
    char key[80], hint[192];
    if (find_key(name))
        return 0;
    yrd_show(key, sizeof key, name, strlen(name));
    if (is_section(name))
        return sk_errorf(e, SK_ECONFIG, "%s: a section: expected one of its keys, e.g. %s", key,
                         first_in_section(name));
    suggest(hint, sizeof hint, name);
    return sk_errorf(e, SK_ECONFIG, "%s: unknown key: expected one of the keys "
                     "listed by 'skewsim config --help-config'%s", key, hint);
}

int cfg_set_value(cfg *c, const char *name, const char *s, sk_error *e)
{
    char val[80], what[256];
    const cfg_key *k = find_key(name);
    if (!k)
        return cfg_check_key(name, e);

    cfg scratch = *c;
    int rc = 0;
    if (k->type == KEY_INT_LIST && strchr(s, ',')) {
        int vals[CFG_MAX_GPCS];
        int n = 0;
        for (const char *p = s;; n++) {
            size_t len = strcspn(p, ",");
            int64_t v = 0;
            if (n == CFG_MAX_GPCS)
                return sk_errorf(e, SK_ERANGE, "%s[%d]: %s: expected at most %d entries "
                                 "(one per GPC)", k->name, n, yrd_show(val, sizeof val, p, len),
                                 CFG_MAX_GPCS);
            int prc = parse_bounded(k, p, len, &v);
            if (prc != NUM_OK) {
                rc = elem_fail(k, prc, what, sizeof what);
                return sk_errorf(e, rc, "%s[%d]: %s: expected %s", k->name, n,
                                 yrd_show(val, sizeof val, p, len), what);
            }
            vals[n] = (int)v;
            if (p[len] == '\0') {
                n++;
                break;
            }
            p += len + 1;
        }
        store_list(&scratch, k, vals, n);
    } else {
        rc = store(&scratch, k, s, strlen(s), what, sizeof what);
        if (rc)
            return sk_errorf(e, rc, "%s: %s: expected %s", k->name,
                             yrd_show(val, sizeof val, s, strlen(s)), what);
    }
    *c = scratch;
    return 0;
}

int cfg_set(cfg *c, const char *assignment, sk_error *e)
{
    char arg[80];
    const char *eq = strchr(assignment, '=');
    yrd_show(arg, sizeof arg, assignment, strlen(assignment));
    if (!eq)
        return sk_errorf(e, SK_EUSAGE, "--set %s: missing '=': expected KEY=VALUE", arg);

    size_t nk = (size_t)(eq - assignment);
    char *name = xmalloc(nk + 1);
    memcpy(name, assignment, nk);
    name[nk] = '\0';
    sk_error inner = {0};
    int rc = cfg_set_value(c, name, eq + 1, &inner);
    free(name);
    if (rc)
        return sk_errorf(e, rc, "--set %s: %s", arg, inner.msg);
    return 0;
}

/* ---- cross checks ---------------------------------------------------- */

/* Every row's bounds again: a cfg may also have been filled in by code. */
static int check_bounds(const cfg *c, sk_error *e)
{
    char what[256];
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key *k = &cfg_schema[i];
        const void *p = cfield(c, k);
        int64_t v;
        switch (k->type) {
        case KEY_INT:
        case KEY_INT64:
            v = k->type == KEY_INT ? *(const int *)p : *(const int64_t *)p;
            if (v < k->min || v > k->max)
                return sk_errorf(e, SK_ERANGE, "config: %s: %lld: expected %s", k->name,
                                 (long long)v, describe(k, what, sizeof what));
            break;
        case KEY_INT_LIST: {
            const int *a = p;
            /* only the entries in use: past the list's end they are 0 */
            for (int g = 0; g < c->gpcs && g < CFG_MAX_GPCS; g++)
                if (a[g] != 0 && (a[g] < k->min || a[g] > k->max))
                    return sk_errorf(e, SK_ERANGE, "config: %s[%d]: %d: expected an integer "
                                     "in %lld..%lld", k->name, g, a[g], (long long)k->min,
                                     (long long)k->max);
            break;
        }
        case KEY_ENUM: {
            int idx = *(const int *)p, n = 0;
            while (k->choices[n])
                n++;
            if (idx < 0 || idx >= n)
                return sk_errorf(e, SK_ECONFIG, "config: %s: %d: expected %s", k->name, idx,
                                 describe(k, what, sizeof what));
            break;
        }
        case KEY_STRING: {
            const char *s = p;
            const char *nul = memchr(s, '\0', CFG_NAME_MAX);
            size_t n = nul ? (size_t)(nul - s) : CFG_NAME_MAX;
            int ok = n < CFG_NAME_MAX && (int64_t)n >= k->min;
            for (size_t j = 0; ok && j < n; j++)
                ok = s[j] >= 0x20 && s[j] < 0x7f;
            if (!ok)
                return sk_errorf(e, SK_ECONFIG, "config: %s: (not shown): expected %s", k->name,
                                 describe(k, what, sizeof what));
            break;
        }
        case KEY_UINT64:
            break;
        }
    }
    return 0;
}

/* The cache geometries of memory.l1.* and memory.l2.* (src/mem): sets a
 * power of two, a line a power of two of at least one and at most 8
 * sectors, and every capacity a whole number of ways in every set. */
static int is_pow2(int64_t x)
{
    return x > 0 && !(x & (x - 1));
}

static int check_cache(const char *lvl, int sets, int line, int sector, sk_error *e)
{
    if (!is_pow2(sets))
        return sk_errorf(e, SK_ECONFIG, "config: memory.%s.sets: %d: expected a power of two",
                         lvl, sets);
    if (!is_pow2(sector))
        return sk_errorf(e, SK_ECONFIG, "config: memory.%s.sector_bytes: %d: expected a power "
                         "of two", lvl, sector);
    if (line < sector)
        return sk_errorf(e, SK_ECONFIG, "config: memory.%s.line_bytes: %d: expected at least "
                         "memory.%s.sector_bytes (%d)", lvl, line, lvl, sector);
    if (!is_pow2(line))
        return sk_errorf(e, SK_ECONFIG, "config: memory.%s.line_bytes: %d: expected a power of "
                         "two", lvl, line);
    if (line / sector > 8)
        return sk_errorf(e, SK_ECONFIG, "config: memory.%s.line_bytes: %d: expected at most 8 "
                         "sectors of memory.%s.sector_bytes (%d)", lvl, line, lvl, sector);
    return 0;
}

int cfg_bit_list(const char *s, uint64_t *mask)
{
    *mask = 0;
    while (*s) {
        if (*s < '0' || *s > '9')
            return -1;
        int b = 0;
        while (*s >= '0' && *s <= '9' && b < 64)
            b = b * 10 + (*s++ - '0');
        if (b > 63)
            return -1;
        *mask |= 1ull << b;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return *mask ? 0 : -1;
}

int cfg_cpc_ps(const cfg *c, int out[CFG_MAX_CPCS])
{
    const char *s = c->l2_cpc_ps;
    int n = 0;
    while (*s) {
        if (*s < '0' || *s > '9' || n >= CFG_MAX_CPCS)
            return -1;
        long v = 0;
        while (*s >= '0' && *s <= '9' && v <= 1000000)
            v = v * 10 + (*s++ - '0');
        if (v > 1000000)
            return -1;
        out[n++] = (int)v;
        if (*s == ',' && s[1])
            s++;
        else if (*s)
            return -1;
    }
    if (n == 1)
        for (int i = 1; i < c->cpcs_per_gpc; i++)
            out[i] = out[0];
    return n == 1 || n == c->cpcs_per_gpc ? 0 : -1;
}

static int check_memory(const cfg *c, sk_error *e)
{
    /* the shared-memory carve-outs of src/mem/hier.c, KB */
    static const int carve_kb[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };
    int rc = check_cache("l1", c->l1_sets, c->l1_line_bytes, c->l1_sector_bytes, e);
    if (!rc)
        rc = check_cache("l2", c->l2_sets, c->l2_line_bytes, c->l2_sector_bytes, e);
    if (rc)
        return rc;
    int64_t way1 = (int64_t)c->l1_sets * c->l1_line_bytes;
    if (c->l1_set_hash == 2 && (c->l1_sets != 512 || c->l1_line_bytes != 128))
        return sk_errorf(e, SK_ECONFIG, "config: memory.l1.set_hash: 2: expected memory.l1.sets 512 and "
                         "memory.l1.line_bytes 128 (the measured GH100 index), got %d and %d",
                         c->l1_sets, c->l1_line_bytes);
    if (c->l1_whole_tags && c->l1_unified_bytes % way1 != 0)
        return sk_errorf(e, SK_ECONFIG, "config: memory.l1.unified_bytes: %d: expected a multiple of "
                         "memory.l1.sets x memory.l1.line_bytes (%lld bytes) with memory.l1.whole_tags",
                         c->l1_unified_bytes, (long long)way1);
    for (size_t i = 0; i < SK_ARRAY_LEN(carve_kb) && !c->l1_whole_tags; i++) {
        int64_t left = (int64_t)c->l1_unified_bytes - (int64_t)carve_kb[i] * 1024;
        if (left >= 0 && left % way1 != 0)
            return sk_errorf(e, SK_ECONFIG, "config: memory.l1.unified_bytes: %d: expected a "
                             "multiple of memory.l1.sets x memory.l1.line_bytes (%lld bytes), "
                             "also less each shared-memory carve-out (here %d KB)",
                             c->l1_unified_bytes, (long long)way1, carve_kb[i]);
    }
    int64_t way2 = (int64_t)c->l2_sets * c->l2_line_bytes;
    if (c->l2_slice_bytes % way2 != 0)
        return sk_errorf(e, SK_ECONFIG, "config: memory.l2.slice_bytes: %d: expected a "
                         "multiple of memory.l2.sets x memory.l2.line_bytes (%lld bytes), so "
                         "that every set has whole ways",
                         c->l2_slice_bytes, (long long)way2);
    if (!is_pow2(c->hbm_interleave_bytes))
        return sk_errorf(e, SK_ECONFIG, "config: memory.hbm.interleave_bytes: %d: expected a "
                         "power of two", c->hbm_interleave_bytes);
    if (!is_pow2(c->tlb_page_bytes))
        return sk_errorf(e, SK_ECONFIG, "config: memory.tlb.page_bytes: %d: expected a power of two",
                         c->tlb_page_bytes);
    if (c->tlb_l1_entries % c->tlb_l1_ways != 0)
        return sk_errorf(e, SK_ECONFIG, "config: memory.tlb.l1_entries: %d: expected a multiple of "
                         "memory.tlb.l1_ways (%d)", c->tlb_l1_entries, c->tlb_l1_ways);
    if (c->tlb_l2_entries % c->tlb_l2_ways != 0)
        return sk_errorf(e, SK_ECONFIG, "config: memory.tlb.l2_entries: %d: expected a multiple of "
                         "memory.tlb.l2_ways (%d)", c->tlb_l2_entries, c->tlb_l2_ways);
    int cpc[CFG_MAX_CPCS];
    if (cfg_cpc_ps(c, cpc) != 0)
        return sk_errorf(e, SK_ECONFIG, "config: memory.l2.cpc_ps: %s: expected one value in 0..1000000 "
                         "for every chain or one per chain (topology.cpcs_per_gpc = %d), separated by commas",
                         c->l2_cpc_ps, c->cpcs_per_gpc);
    uint64_t mask;
    if (cfg_bit_list(c->l2_hash_bits, &mask) != 0)
        return sk_errorf(e, SK_ECONFIG, "config: memory.l2.hash_bits: %s: expected bit numbers "
                         "0..63 separated by commas", c->l2_hash_bits);
    /* bound the tag arrays: 2^23 L2 lines is a 1 GB L2 in ~150 MB of tags; the
     * L1s' bound depends on the SM count, so only a hierarchy run checks it
     * (a flat run's chip-size limits are sim.c's) */
    int64_t l2_lines = (int64_t)c->l2_partitions * c->l2_slices_per_partition *
                       (c->l2_slice_bytes / c->l2_line_bytes);
    int64_t l1_lines = (int64_t)cfg_num_sms(c) * (c->l1_unified_bytes / c->l1_line_bytes);
    if (c->mem_model == MEM_MODEL_HIERARCHY && l1_lines > (1 << 24))
        return sk_errorf(e, SK_ECONFIG, "config: memory.l1: %lld lines on the chip: expected at "
                         "most 16777216 (SMs x unified_bytes / line_bytes)", (long long)l1_lines);
    if (l2_lines > (1 << 23))
        return sk_errorf(e, SK_ECONFIG, "config: memory.l2: %lld lines: expected at most "
                         "8388608 (partitions x slices_per_partition x slice_bytes / line_bytes)",
                         (long long)l2_lines);
    return 0;
}

int cfg_validate(const cfg *c, sk_error *e)
{
    int rc = check_bounds(c, e);
    if (rc)
        return rc;

    int n = list_len(c->tpcs_per_gpc);
    if (n < c->gpcs || (n > c->gpcs && n < CFG_MAX_GPCS))
        return sk_errorf(e, SK_ECONFIG, "config: topology.tpcs_per_gpc: a list of %d: "
                         "expected one entry per GPC (topology.gpcs = %d)", n, c->gpcs);
    if (c->tail_gpcs >= c->gpcs)
        return sk_errorf(e, SK_ECONFIG, "config: topology.tail_gpcs: %d: expected less than "
                         "topology.gpcs (%d)", c->tail_gpcs, c->gpcs);
    if (c->floorsweep[0]) {
        cfg scratch = *c;
        if ((rc = topo_resolve(&scratch, e)) != 0 || (rc = topo_check_tail_host(&scratch, e)) != 0)
            return rc;
    } else if ((rc = topo_check_tail_host(c, e)) != 0) {
        return rc;
    }
    /* At least one SM now follows: gpcs >= 1, every used list entry >= 1,
     * sms_per_tpc >= 1. */
    if (c->max_warps % c->warp_schedulers != 0)
        return sk_errorf(e, SK_ECONFIG, "config: sm.max_warps: %d: expected a multiple of "
                         "sm.warp_schedulers (%d)", c->max_warps, c->warp_schedulers);
    if ((int64_t)c->max_threads > (int64_t)c->max_warps * 32)
        return sk_errorf(e, SK_ECONFIG, "config: sm.max_threads: %d: expected at most "
                         "sm.max_warps * 32 (%d)", c->max_threads, c->max_warps * 32);
    if (c->reg_alloc_unit > c->registers)
        return sk_errorf(e, SK_ECONFIG, "config: sm.reg_alloc_unit: %d: expected at most "
                         "sm.registers (%d)", c->reg_alloc_unit, c->registers);
    /* sm.c's queue is one per pipeline, and an instruction goes to the
     * pipeline free soonest, not the one whose queue drains soonest */
    for (int k = 0; k < FU_NCLASS; k++)
        if (c->units[k].queue > 0 && c->units[k].count != 1)
            return sk_errorf(e, SK_ECONFIG, "config: units.%s.queue: %d: expected 0 with units.%s.count %d "
                             "(a queue stands in front of one pipeline)", fu_class_name(k), c->units[k].queue,
                             fu_class_name(k), c->units[k].count);
    /* Otherwise no CTA, however small, could ever be placed. */
    if (c->smem_reserved_per_cta_bytes > c->smem_bytes)
        return sk_errorf(e, SK_ECONFIG, "config: sm.smem_reserved_per_cta_bytes: %d: expected "
                         "at most sm.smem_bytes (%d)", c->smem_reserved_per_cta_bytes,
                         c->smem_bytes);
    return check_memory(c, e);
}

/* ---- output ---------------------------------------------------------- */

/* A value as YAML text that store() (or the list loader) reads back. */
static void format_value(const cfg *c, const cfg_key *k, char *buf, size_t cap)
{
    const void *p = cfield(c, k);
    switch (k->type) {
    case KEY_INT:
        snprintf(buf, cap, "%d", *(const int *)p);
        break;
    case KEY_INT64:
        snprintf(buf, cap, "%lld", (long long)*(const int64_t *)p);
        break;
    case KEY_UINT64:
        snprintf(buf, cap, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case KEY_ENUM: {
        int idx = *(const int *)p, n = 0;
        while (k->choices[n])
            n++;
        snprintf(buf, cap, "%s", idx >= 0 && idx < n ? k->choices[idx] : "?");
        break;
    }
    case KEY_STRING: {
        /* printable ASCII only (store() checks), so escaping " and \ suffices */
        const char *s = p;
        size_t j = 0;
        buf[j++] = '"';
        for (size_t i = 0; i < CFG_NAME_MAX && s[i] && j + 3 < cap; i++) {
            if (s[i] == '"' || s[i] == '\\')
                buf[j++] = '\\';
            buf[j++] = s[i];
        }
        buf[j++] = '"';
        buf[j] = '\0';
        break;
    }
    case KEY_INT_LIST: {
        const int *a = p;
        int n = list_len(a), same = 1;
        for (int g = 1; g < CFG_MAX_GPCS; g++)
            same = same && a[g] == a[0];
        if (same) {
            snprintf(buf, cap, "%d", a[0]);
            break;
        }
        size_t used = (size_t)snprintf(buf, cap, "[");
        for (int g = 0; g < n && used < cap; g++)
            used += (size_t)snprintf(buf + used, cap - used, "%s%d", g ? ", " : "", a[g]);
        if (used < cap)
            snprintf(buf + used, cap - used, "]");
        break;
    }
    }
}

/* Split a dotted name into its components; returns how many. */
static int split_name(const char *name, const char *part[], size_t len[], int max)
{
    int n = 0;
    for (const char *p = name; n < max;) {
        size_t l = strcspn(p, ".");
        part[n] = p;
        len[n++] = l;
        if (p[l] == '\0')
            break;
        p += l + 1;
    }
    return n;
}

void cfg_dump(const cfg *c, FILE *out, int with_help)
{
    enum { MAXDEPTH = 8, COMMENT_COL = 44 };
    const char *prev[MAXDEPTH];
    size_t prevlen[MAXDEPTH];
    int nprev = 0;

    if (with_help)
        fprintf(out, "# skewsim configuration; comments give unit, bounds and meaning\n");
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key *k = &cfg_schema[i];
        const char *part[MAXDEPTH];
        size_t len[MAXDEPTH];
        int n = split_name(k->name, part, len, MAXDEPTH);

        /* sections shared with the previous key stay open */
        int common = 0;
        while (common < n - 1 && common < nprev - 1 && len[common] == prevlen[common]
               && memcmp(part[common], prev[common], len[common]) == 0)
            common++;
        if (common == 0 && i > 0)
            fputc('\n', out);
        for (int d = common; d < n - 1; d++)
            fprintf(out, "%*s%.*s:\n", 2 * d, "", (int)len[d], part[d]);

        char value[512], line[640];
        format_value(c, k, value, sizeof value);
        snprintf(line, sizeof line, "%*s%.*s: %s", 2 * (n - 1), "",
                 (int)len[n - 1], part[n - 1], value);
        if (with_help) {
            char b[160];
            bounds(k, b, sizeof b);
            fprintf(out, "%-*s # %s%s%s: %s\n", COMMENT_COL, line, k->unit,
                    *k->unit ? ", " : "", b, k->help);
        } else {
            fprintf(out, "%s\n", line);
        }
        memcpy(prev, part, sizeof part);
        memcpy(prevlen, len, sizeof len);
        nprev = n;
    }
}

void cfg_help(FILE *out)
{
    int wkey = 3, wtype = 4, wdef = 7, wbounds = 6, wunit = 4;
    char b[160];
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key *k = &cfg_schema[i];
        wkey = SK_MAX(wkey, (int)strlen(k->name));
        wtype = SK_MAX(wtype, (int)strlen(type_name(k)));
        wdef = SK_MAX(wdef, (int)strlen(k->def));
        wbounds = SK_MAX(wbounds, (int)strlen(bounds(k, b, sizeof b)));
        wunit = SK_MAX(wunit, (int)strlen(k->unit));
    }
    fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wkey, "KEY", wtype, "TYPE", wdef,
            "DEFAULT", wbounds, "BOUNDS", wunit, "UNIT", "HELP");
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key *k = &cfg_schema[i];
        fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wkey, k->name, wtype, type_name(k),
                wdef, k->def, wbounds, bounds(k, b, sizeof b), wunit,
                *k->unit ? k->unit : "-", k->help);
    }
}
