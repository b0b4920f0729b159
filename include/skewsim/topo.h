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
} topo_sm;

typedef struct topo {
    int nsms, ntpcs, ngpcs;
    topo_sm *sm;       /* owned: indexed by SM id */
    int *gpc_first;    /* owned: gpc_first[g] = index into by_gpc of GPC g's first SM */
    int *by_gpc;       /* owned: SM ids GPC-major, TPC order within a GPC, then TPC slot */
} topo;

/* Build from the config's topology.* keys.  Returns 0 or SK_ECONFIG. */
int topo_build(topo *t, const cfg *c, sk_error *e);
void topo_free(topo *t);

#endif
