/* topo.h -- the chip's GPC/TPC/SM topology and its SM-id numbering, derived
 * from the config (topology.*). */
#ifndef SKEWSIM_TOPO_H
#define SKEWSIM_TOPO_H

#include "skewsim/config.h"

typedef struct topo_sm {
    int gpc;           /* GPC index (config order) */
    int tpc;           /* TPC index within its GPC */
    int tpc_global;    /* TPC index over the chip (GPC-major) */
    int slot;          /* SM index within its TPC */
    int cgroup;        /* cluster group: the SMs one thread block cluster may span */
    int phys_gpc;      /* physical GPC of a floorswept chip (its logical gpc otherwise) */
} topo_sm;

typedef struct topo {
    int nsms, ntpcs, ngpcs;
    topo_sm *sm;       /* owned: indexed by SM id */
    int *gpc_first;    /* owned: gpc_first[g] = index into by_gpc of GPC g's first SM */
    int *by_gpc;       /* owned: SM ids GPC-major, TPC order within a GPC, then TPC slot */
    /* Cluster groups (docs/topology.md, "Clusters"): one per cluster-capable
     * GPC, then one per TPC of the tail GPCs, whose SMs take clusters of at
     * most topology.tail_max_cluster CTAs. */
    int ncgroups;
    int *cg_first;     /* owned: cg_first[g] = index into cg_sms of group g's first SM */
    int *cg_sms;       /* owned: SM ids group by group, in by_gpc order */
    int *cg_max;       /* owned: largest cluster group g takes (INT32_MAX: any) */
} topo;

/* The physical chip of a floorsweep (topology.floorsweep): working TPCs
 * per GPC of the full die, and where the chip's rule puts each TPC. */
typedef struct topo_sweep {
    int ngpcs;                       /* topology.die_gpcs */
    int working[CFG_MAX_GPCS];       /* working TPCs per physical GPC */
    int cluster[CFG_MAX_GPCS];       /* of them, cluster-capable */
    int order[CFG_MAX_GPCS];         /* logical GPC i is physical GPC order[i] */
    int nlogical;                    /* GPCs with a cluster-capable TPC */
    int nrandom;                     /* random TPCs (topology.random_tpcs) */
    int random_gpc[2048];            /* physical GPC of random TPC k, in numbering order */
} topo_sweep;

/* Work out the chip of c's floorsweep (fused list, or drawn from c->seed
 * under the yield model).  0 or SK_ECONFIG "config: topology.floorsweep:
 * ...".  A no-op returning 0 when topology.floorsweep is empty. */
int topo_sweep_chip(const cfg *c, topo_sweep *w, sk_error *e);
/* Replace c's topology.gpcs/tpcs_per_gpc/tail_gpcs/numbering by those of
 * its floorsweep (nothing when topology.floorsweep is empty). */
int topo_resolve(cfg *c, sk_error *e);

/* Build from the config's topology.* keys.  Returns 0 or SK_ECONFIG. */
int topo_build(topo *t, const cfg *c, sk_error *e);
void topo_free(topo *t);

/* cudaOccupancyMaxActiveClusters by mechanism: how many clusters of
 * `csize` CTAs are resident at once when every SM holds `per_sm` CTAs of
 * the kernel, each cluster inside one cluster group.  csize 0 counts as 1. */
uint64_t topo_max_active_clusters(const topo *t, int per_sm, int csize);

/* Green contexts (cuDevSmResourceSplitByCount, default flags), the rule
 * measured on the H200 (validation/h200 E14, docs/topology.md): the SMs
 * go in units of `unit_sms` (minSmPartitionSize = smCoscheduledAlignment
 * = 8) made of whole TPCs of one cluster-capable GPC, unit u of every GPC
 * in GPC order before unit u + 1; the TPCs left over (a GPC's last partial
 * unit, the tail's random TPCs) come last, pooled in SM-id order.  A
 * request of n SMs is rounded up to whole units.  group[] gets the group's
 * SM ids ascending (*ngroup of them), rest[] the others; each holds nsms.
 * 0, or SK_EUSAGE when n is not 1..the chip's SMs. */
int topo_green(const topo *t, int n, int unit_sms, int *group, int *ngroup, int *rest, int *nrest,
               sk_error *e);

#endif
