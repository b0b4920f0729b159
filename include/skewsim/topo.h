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
    /* Its TPC's place in the chains its GPC's TPCs form to the GPC's hub
     * (docs/topology.md "TPC chains"; topology.cpcs_per_gpc): logical TPC
     * k of a GPC is on chain k mod cpcs, and hops is how many TPCs of that
     * chain lie between it and the hub (the chain's lowest k is its far
     * end).  hub_gpc: the GPC whose chains it is on (a tail TPC's host,
     * topology.tail_host_gpc; its own gpc otherwise). */
    int cpc, hops, hub_gpc;
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
/* topology.tail_host_gpc against a resolved topology (c after topo_resolve):
 * 0 or one of the GPCs before the tail, or anything without a tail (then
 * ignored); SK_ECONFIG with the message otherwise. */
int topo_check_tail_host(const cfg *c, sk_error *e);

/* Build from the config's topology.* keys.  Returns 0 or SK_ECONFIG. */
int topo_build(topo *t, const cfg *c, sk_error *e);
void topo_free(topo *t);

/* The SMs of cluster group g a kernel may use (allowed[sm] != 0; NULL: all). */
int topo_cgroup_usable(const topo *t, int g, const unsigned char *allowed);

/* cudaOccupancyMaxActiveClusters by mechanism: how many clusters of
 * `csize` CTAs are resident at once when every SM holds `per_sm` CTAs of
 * the kernel, each cluster inside one cluster group.  csize 0 counts as 1. */
uint64_t topo_max_active_clusters(const topo *t, int per_sm, int csize);
/* The same over the SMs a kernel may use (allowed[sm] != 0; NULL: all). */
uint64_t topo_max_active_clusters_in(const topo *t, const unsigned char *allowed, int per_sm, int csize);

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
/* The same split with CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING when
 * nocosched is non-zero: whole TPCs, one TPC of every cluster group in
 * turn (a tail TPC is a group of its own), group order, so the random TPCs
 * follow the first round (fitted to E14's flags-1 rows, docs/topology.md). */
int topo_green_split(const topo *t, int n, int unit_sms, int nocosched, int *group, int *ngroup, int *rest,
                     int *nrest, sk_error *e);

/* MIG-style fixed partitions (docs/topology.md, "MIG"): the GPU-instance
 * profiles of the GH100 132-SM SKU (H100 SXM / H200), each a number of
 * memory slices (of 8), the SMs every chip of the SKU shows, and where it
 * may be placed.  The rule over the topology: the chip's physical GPCs,
 * largest first, are the 8 slots of the memory slices; an instance at
 * start s spans slots s..s+mem-1 and takes its SMs from their GPCs one TPC
 * of each in turn; what its GPCs hold beyond that is left unused. */
typedef struct topo_mig_profile {
    const char *name;      /* H200 name ("3g.71gb") */
    const char *alias;     /* "3g" (NULL: none) */
    int mem_slices;        /* GPC slots spanned (memory slices of 8) */
    int sms;               /* SMs the instance shows */
    unsigned starts;       /* bit s: may start at slot s */
} topo_mig_profile;
/* The profile table (NULL past the end). */
const topo_mig_profile *topo_mig_profile_at(int i);
/* Parse "NAME[@START]" (start: the lowest allowed when omitted) into the
 * profile index and start; 0, or SK_EUSAGE with "expected ..." in *e. */
int topo_mig_parse(const char *spec, int *profile, int *start, sk_error *e);
/* The SM ids (ascending) of MIG instance (profile, start) on t: 0, or
 * SK_EFIT when this chip's GPCs cannot show the profile's SMs there. */
int topo_mig(const topo *t, int profile, int start, int *sms, int *nsms, sk_error *e);

/* The SM set a kernel may use: kind 0 every SM, 1 the group of a green
 * split of n SMs, 2 what that split leaves, 3 MIG instance (profile
 * mig_profile, start mig_start), 4 the SMs whose home L2 partition
 * (home[sm], the memory hierarchy's: mem_hier_home) is n; flags
 * TOPO_SMS_NOCOSCHED for 1 and 2.  allowed[nsms] gets 1 for each usable
 * SM, *usable their count. */
enum { TOPO_SMS_ALL, TOPO_SMS_GREEN, TOPO_SMS_REST, TOPO_SMS_MIG, TOPO_SMS_L2 };
#define TOPO_SMS_NOCOSCHED 1
typedef struct topo_sms_spec {
    int kind, n, flags, mig_profile, mig_start;
    const int *home;              /* TOPO_SMS_L2: each SM's home partition */
} topo_sms_spec;
int topo_sms_set(const topo *t, int unit_sms, const topo_sms_spec *p, unsigned char *allowed, int *usable,
                 sk_error *e);

#endif
