/* topo.c -- SM ids over the GPC/TPC tree.
 *
 * Two numberings are modelled.  gpc_major gives GPC 0 all its SMs first.
 * tpc_round_robin is what the measured H200 shows (shared/physics.md,
 * "Topology of the measured H200"): the driver numbers one TPC of every GPC
 * in turn (SMs 2k and 2k+1 share a TPC), skipping GPCs that have run out of
 * TPCs, so GPC 0 with four TPCs owns SMs 0,1,16,17,32,33,48,49.  GPCs listed
 * as "tail" (topology.tail_gpcs) are numbered after all others, the same way:
 * on the H200 these are the four TPCs (SMs 124-131) that belong to no
 * cluster-capable GPC.
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/topo.h"

static void assign(topo *t, int *next_id, int g, int tpc, int tpc_base, int per_tpc)
{
    for (int s = 0; s < per_tpc; s++) {
        topo_sm *m = &t->sm[(*next_id)++];
        m->gpc = g;
        m->tpc = tpc;
        m->tpc_global = tpc_base + tpc;
        m->slot = s;
    }
}

int topo_build(topo *t, const cfg *c, sk_error *e)
{
    memset(t, 0, sizeof *t);
    t->ngpcs = c->gpcs;
    t->nsms = cfg_num_sms(c);
    t->ntpcs = cfg_num_tpcs(c);
    if (t->nsms < 1)
        return sk_errorf(e, SK_ECONFIG, "config: topology: 0 SMs: expected at least one SM");
    t->sm = xcalloc((size_t)t->nsms, sizeof *t->sm);
    int tpc_base[CFG_MAX_GPCS], base = 0;
    for (int g = 0; g < c->gpcs; g++) {
        tpc_base[g] = base;
        base += c->tpcs_per_gpc[g];
    }
    int id = 0;
    if (c->numbering == NUMBER_GPC_MAJOR) {
        for (int g = 0; g < c->gpcs; g++)
            for (int k = 0; k < c->tpcs_per_gpc[g]; k++)
                assign(t, &id, g, k, tpc_base[g], c->sms_per_tpc);
    } else {
        int head = c->gpcs - c->tail_gpcs;
        int ranges[2][2] = {{0, head}, {head, c->gpcs}};
        for (int part = 0; part < 2; part++) {
            int maxt = 0;
            for (int g = ranges[part][0]; g < ranges[part][1]; g++)
                maxt = SK_MAX(maxt, c->tpcs_per_gpc[g]);
            for (int round = 0; round < maxt; round++)
                for (int g = ranges[part][0]; g < ranges[part][1]; g++)
                    if (round < c->tpcs_per_gpc[g])
                        assign(t, &id, g, round, tpc_base[g], c->sms_per_tpc);
        }
    }
    /* GPC-major listing, used by dispatch policies that walk the tree. */
    t->gpc_first = xcalloc((size_t)c->gpcs + 1, sizeof *t->gpc_first);
    t->by_gpc = xcalloc((size_t)t->nsms, sizeof *t->by_gpc);
    int k = 0;
    for (int g = 0; g < c->gpcs; g++) {
        t->gpc_first[g] = k;
        for (int tp = 0; tp < c->tpcs_per_gpc[g]; tp++)
            for (int s = 0; s < c->sms_per_tpc; s++)
                for (int sm = 0; sm < t->nsms; sm++)
                    if (t->sm[sm].gpc == g && t->sm[sm].tpc == tp && t->sm[sm].slot == s)
                        t->by_gpc[k++] = sm;
    }
    t->gpc_first[c->gpcs] = k;

    /* Cluster groups: a head GPC is one; a tail GPC is one per TPC (the
     * two SMs of a TPC share a GPC whatever floorsweeping did, so a
     * cluster of 2 stays inside one). */
    int head = c->gpcs - c->tail_gpcs;
    t->ncgroups = head;
    for (int g = head; g < c->gpcs; g++)
        t->ncgroups += c->tpcs_per_gpc[g];
    t->cg_first = xcalloc((size_t)t->ncgroups + 1, sizeof *t->cg_first);
    t->cg_sms = xcalloc((size_t)t->nsms, sizeof *t->cg_sms);
    t->cg_max = xcalloc((size_t)t->ncgroups, sizeof *t->cg_max);
    int cg = 0;
    k = 0;
    for (int g = 0; g < c->gpcs; g++) {
        int per = g < head ? c->tpcs_per_gpc[g] : 1;  /* TPCs per group */
        for (int first = 0; first < c->tpcs_per_gpc[g]; first += per, cg++) {
            t->cg_first[cg] = k;
            t->cg_max[cg] = g < head ? INT32_MAX : c->tail_max_cluster;
            for (int j = t->gpc_first[g]; j < t->gpc_first[g + 1]; j++) {
                int sm = t->by_gpc[j];
                if (t->sm[sm].tpc >= first && t->sm[sm].tpc < first + per) {
                    t->sm[sm].cgroup = cg;
                    t->cg_sms[k++] = sm;
                }
            }
        }
    }
    t->cg_first[cg] = k;
    return 0;
}

void topo_free(topo *t)
{
    if (!t)
        return;
    free(t->sm);
    free(t->gpc_first);
    free(t->by_gpc);
    free(t->cg_first);
    free(t->cg_sms);
    free(t->cg_max);
    memset(t, 0, sizeof *t);
}

uint64_t topo_max_active_clusters(const topo *t, int per_sm, int csize)
{
    csize = SK_MAX(csize, 1);
    uint64_t n = 0;
    for (int g = 0; g < t->ncgroups; g++)
        if (csize <= t->cg_max[g])
            n += (uint64_t)(t->cg_first[g + 1] - t->cg_first[g]) * (uint64_t)SK_MAX(per_sm, 0) /
                 (uint64_t)csize;
    return n;
}
