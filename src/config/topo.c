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
 *
 * A floorswept chip (topology.floorsweep, docs/topology.md) is described
 * by the TPCs fused off the full die instead; topo_resolve() turns it into
 * the keys above by the chip's rule as we model it:
 *  1. the working TPCs of each physical GPC are the die's less the fused;
 *  2. topology.random_tpcs of them (4 on the H200: SMs 124-131, physics.md)
 *     leave the cluster-capable GPCs, one at a time from the GPC with the
 *     fewest cluster-capable TPCs left (lowest index on a tie), and form
 *     the tail, numbered last;
 *  3. the GPCs that keep cluster-capable TPCs are numbered in ascending
 *     order of their count (stable), one TPC of each in turn.
 * On the measured chip (one TPC fused in six GPCs: 16 x 6 + 18 x 2 SMs)
 * this gives exactly its map: 4,8,8,8,8,8,9,9 cluster-capable TPCs + 4.
 * Rules 2 and 3 are fitted to that one chip: that the random TPCs come from
 * a single GPC and that the GPCs are sorted is what it shows, not a
 * documented vendor rule.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/topo.h"

/* splitmix64 (Steele, Lea and Flood, OOPSLA 2014): the yield draw's own
 * generator, so the chip depends on sim.seed alone. */
static uint64_t mix_next(uint64_t *x)
{
    return sk_mix64(*x += UINT64_C(0x9E3779B97F4A7C15));
}

/* Yield model (docs/topology.md): each TPC of the die has a defect with
 * probability defect_ppm / 1e6, independently; a die with more defects than
 * the SKU may lose is binned elsewhere (drawn again); the vendor then fuses
 * good TPCs, one at a time from the GPC with the most working TPCs (lowest
 * index on a tie), until the SKU's count is left. */
static int draw_yield(const cfg *c, int *working, int nfuse, sk_error *e)
{
    uint64_t x = c->seed ^ UINT64_C(0x666C6F6F72737765);   /* "floorswe" */
    double p = c->defect_ppm / 1e6;
    for (int attempt = 0; attempt < 100000; attempt++) {
        int d = 0;
        for (int g = 0; g < c->die_gpcs; g++) {
            working[g] = c->die_tpcs_per_gpc;
            for (int t = 0; t < c->die_tpcs_per_gpc; t++)
                if ((double)(mix_next(&x) >> 11) * 0x1.0p-53 < p) {
                    working[g]--;
                    d++;
                }
        }
        if (d > nfuse)
            continue;
        for (; d < nfuse; d++) {
            int best = 0;
            for (int g = 1; g < c->die_gpcs; g++)
                if (working[g] > working[best])
                    best = g;
            working[best]--;
        }
        return 0;
    }
    return sk_errorf(e, SK_ECONFIG, "config: topology.defect_ppm: %d: expected a defect rate at which "
                     "some die keeps topology.sku_tpcs=%d TPCs", c->defect_ppm, c->sku_tpcs);
}

/* "G.T G.T ..." (blanks or commas between) into working[]. */
static int parse_fused(const cfg *c, int *working, int nfuse, sk_error *e)
{
    unsigned char seen[CFG_MAX_GPCS][64];
    memset(seen, 0, sizeof seen);
    for (int g = 0; g < c->die_gpcs; g++)
        working[g] = c->die_tpcs_per_gpc;
    int n = 0;
    if (strcmp(c->floorsweep, "none") != 0) {
        for (const char *p = c->floorsweep; *p;) {
            if (*p == ' ' || *p == ',') {
                p++;
                continue;
            }
            size_t len = strcspn(p, " ,");
            char tok[CFG_NAME_MAX];
            snprintf(tok, sizeof tok, "%.*s", (int)len, p);
            int g, t, used = 0;
            if (sscanf(tok, "%d.%d%n", &g, &t, &used) != 2 || (size_t)used != len || tok[0] == '+' ||
                tok[0] == '-' || g < 0 || g >= c->die_gpcs || t < 0 || t >= c->die_tpcs_per_gpc)
                return sk_errorf(e, SK_ECONFIG, "config: topology.floorsweep: %s: expected fused TPCs "
                                 "as GPC.TPC (GPC 0..%d, TPC 0..%d), 'none' or 'yield'", tok,
                                 c->die_gpcs - 1, c->die_tpcs_per_gpc - 1);
            if (seen[g][t]++)
                return sk_errorf(e, SK_ECONFIG, "config: topology.floorsweep: %s: expected each fused "
                                 "TPC once", tok);
            working[g]--;
            n++;
            p += len;
        }
    }
    if (n != nfuse)
        return sk_errorf(e, SK_ECONFIG, "config: topology.floorsweep: %d fused TPCs: expected %d (the die's "
                         "%d x %d less topology.sku_tpcs=%d)", n, nfuse, c->die_gpcs,
                         c->die_tpcs_per_gpc, c->sku_tpcs);
    return 0;
}

int topo_sweep_chip(const cfg *c, topo_sweep *w, sk_error *e)
{
    memset(w, 0, sizeof *w);
    if (!c->floorsweep[0])
        return 0;
    int die = c->die_gpcs * c->die_tpcs_per_gpc;
    if (c->sku_tpcs > die)
        return sk_errorf(e, SK_ECONFIG, "config: topology.sku_tpcs: %d: expected at most the die's %d x %d "
                         "TPCs", c->sku_tpcs, c->die_gpcs, c->die_tpcs_per_gpc);
    if (c->random_tpcs >= c->sku_tpcs)
        return sk_errorf(e, SK_ECONFIG, "config: topology.random_tpcs: %d: expected less than "
                         "topology.sku_tpcs (%d)", c->random_tpcs, c->sku_tpcs);
    w->ngpcs = c->die_gpcs;
    int rc = strcmp(c->floorsweep, "yield") == 0 ? draw_yield(c, w->working, die - c->sku_tpcs, e)
                                                 : parse_fused(c, w->working, die - c->sku_tpcs, e);
    if (rc)
        return rc;
    memcpy(w->cluster, w->working, sizeof w->cluster);
    w->nrandom = c->random_tpcs;
    for (int k = 0; k < w->nrandom; k++) {
        int best = -1;
        for (int g = 0; g < w->ngpcs; g++)
            if (w->cluster[g] > 0 && (best < 0 || w->cluster[g] < w->cluster[best]))
                best = g;
        w->cluster[best]--;
        w->random_gpc[k] = best;
    }
    /* Logical order: ascending cluster-capable count, stable. */
    for (int g = 0; g < w->ngpcs; g++)
        if (w->cluster[g] > 0) {
            int i = w->nlogical++;
            while (i > 0 && w->cluster[w->order[i - 1]] > w->cluster[g]) {
                w->order[i] = w->order[i - 1];
                i--;
            }
            w->order[i] = g;
        }
    return 0;
}

int topo_resolve(cfg *c, sk_error *e)
{
    if (!c->floorsweep[0])
        return 0;
    topo_sweep w;
    int rc = topo_sweep_chip(c, &w, e);
    if (rc)
        return rc;
    memset(c->tpcs_per_gpc, 0, sizeof c->tpcs_per_gpc);
    for (int i = 0; i < w.nlogical; i++)
        c->tpcs_per_gpc[i] = w.cluster[w.order[i]];
    c->gpcs = w.nlogical;
    if (w.nrandom > 0)
        c->tpcs_per_gpc[c->gpcs++] = w.nrandom;
    c->tail_gpcs = w.nrandom > 0;
    c->numbering = NUMBER_TPC_ROUND_ROBIN;
    return 0;
}

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

/* Each SM's place on its GPC's TPC chains (topo_sm.cpc, hops, hub_gpc;
 * docs/topology.md "TPC chains").  A GPC's logical TPCs, its own first and
 * then, for the host GPC, the tail GPCs' TPCs in order, go round its
 * cpcs_per_gpc chains; the lowest logical number on a chain is its far end.
 * E11's per-SM L2 latencies on an H200 follow this (validation/h200 README
 * "E11"): a fused TPC leaves its chain one shorter. */
static void chains(topo *t, const cfg *c)
{
    const int nc = c->cpcs_per_gpc, head = c->gpcs - c->tail_gpcs;
    const int host = c->tail_gpcs > 0 ? c->tail_host_gpc - 1 : -1;
    int tail_tpcs = 0, tail_before[CFG_MAX_GPCS];
    for (int g = head; g < c->gpcs; g++) {
        tail_before[g] = tail_tpcs;
        tail_tpcs += c->tpcs_per_gpc[g];
    }
    for (int i = 0; i < t->nsms; i++) {
        topo_sm *m = &t->sm[i];
        int hub = m->gpc, k = m->tpc;
        if (host >= 0 && m->gpc >= head) {
            hub = host;
            k = c->tpcs_per_gpc[host] + tail_before[m->gpc] + m->tpc;
        }
        int n = c->tpcs_per_gpc[hub] + (hub == host ? tail_tpcs : 0);
        m->hub_gpc = hub;
        m->cpc = k % nc;
        /* the chain holds the logical TPCs j < n with j mod nc == cpc */
        int len = (n - m->cpc + nc - 1) / nc;
        m->hops = len - 1 - k / nc;
    }
}

int topo_check_tail_host(const cfg *c, sk_error *e)
{
    /* (without a tail, a floorswept chip's with no random TPCs among them,
     * the key has nothing to place: chains() ignores it, so that a config
     * that shrinks h200.yaml's chip need not unset it) */
    if (c->tail_host_gpc > 0 && c->tail_gpcs > 0 && c->tail_host_gpc > c->gpcs - c->tail_gpcs)
        return sk_errorf(e, SK_ECONFIG, "config: topology.tail_host_gpc: %d: expected 0 or one of the %d "
                         "GPCs before the tail (from 1)", c->tail_host_gpc, c->gpcs - c->tail_gpcs);
    return 0;
}

int topo_build(topo *t, const cfg *given, sk_error *e)
{
    memset(t, 0, sizeof *t);
    cfg resolved = *given;     /* a floorswept chip's keys come from its fused TPCs */
    if (topo_resolve(&resolved, e) < 0)
        return SK_ECONFIG;
    const cfg *c = &resolved;
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
    if (topo_check_tail_host(c, e) != 0) {
        topo_free(t);
        return SK_ECONFIG;
    }
    chains(t, c);
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

    topo_sweep w;
    if (topo_sweep_chip(c, &w, e) < 0)
        return SK_ECONFIG;
    /* A chip given by its map (no floorsweep) says nothing of where its
     * random TPCs sit: rule 2 run backwards puts each, in turn, back into
     * the head GPC with the fewest TPCs (lowest index on a tie), which on
     * the measured map makes GPC 0 whole again (8 + 8 = 16 SMs). */
    int back[CFG_MAX_GPCS];
    for (int g = 0; g < c->gpcs; g++)
        back[g] = c->tpcs_per_gpc[g];
    int tail_home[2048], ntail = 0;
    for (int g = head; g < c->gpcs && head > 0; g++)
        for (int tp = 0; tp < c->tpcs_per_gpc[g] && ntail < 2048; tp++) {
            int best = 0;
            for (int h = 1; h < head; h++)
                if (back[h] < back[best])
                    best = h;
            back[best]++;
            tail_home[ntail++] = best;
        }
    for (int i = 0; i < t->nsms; i++) {
        topo_sm *m = &t->sm[i];
        if (c->floorsweep[0])
            m->phys_gpc = m->gpc < w.nlogical ? w.order[m->gpc] : w.random_gpc[m->tpc];
        else if (m->gpc < head || head == 0)
            m->phys_gpc = m->gpc;
        else {
            int tk = m->tpc;                 /* index of the tail TPC over the tail GPCs */
            for (int g = head; g < m->gpc; g++)
                tk += c->tpcs_per_gpc[g];
            m->phys_gpc = tk < ntail ? tail_home[tk] : m->gpc;
        }
    }
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

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Flags-1 order (CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING): round r
 * takes TPC r of every cluster group, in group order; a tail TPC is a group
 * of its own, so all random TPCs come in round 0, after TPC 0 of every
 * GPC.  *unit gets the SMs of one TPC (the split's granularity). */
static int nocosched_order(const topo *t, int *order, int *unit)
{
    int k = 0;
    *unit = 1;
    for (int i = 1; i < t->nsms; i++)
        if (t->sm[i].tpc_global == t->sm[0].tpc_global)
            (*unit)++;
    for (int r = 0;; r++) {
        int any = 0;
        for (int g = 0; g < t->ncgroups; g++) {
            /* TPC r of group g: the r-th run of SMs sharing a TPC in cg_sms */
            int run = -1, prev = -1;
            for (int j = t->cg_first[g]; j < t->cg_first[g + 1]; j++) {
                int tg = t->sm[t->cg_sms[j]].tpc_global;
                if (tg != prev) {
                    run++;
                    prev = tg;
                }
                if (run == r) {
                    order[k++] = t->cg_sms[j];
                    any = 1;
                } else if (run > r)
                    break;
            }
        }
        if (!any)
            break;
    }
    return k;
}

int topo_green(const topo *t, int n, int unit_sms, int *group, int *ngroup, int *rest, int *nrest,
               sk_error *e)
{
    return topo_green_split(t, n, unit_sms, 0, group, ngroup, rest, nrest, e);
}

int topo_green_split(const topo *t, int n, int unit_sms, int nocosched, int *group, int *ngroup, int *rest,
                     int *nrest, sk_error *e)
{
    if (n < 1 || n > t->nsms)
        return sk_errorf(e, SK_EUSAGE, "topo: --green %d: expected 1..%d SMs (the chip's)", n, t->nsms);
    int *order = xcalloc((size_t)t->nsms, sizeof *order);
    unsigned char *taken = xcalloc((size_t)t->nsms, 1);
    int k = 0, head = 0;
    for (int g = 0; g < t->ncgroups; g++)
        head += t->cg_max[g] == INT32_MAX;   /* cluster groups of head GPCs come first */
    if (nocosched) {
        k = nocosched_order(t, order, &unit_sms);
        for (int i = 0; i < k; i++)
            taken[order[i]] = 1;
        head = 0;                            /* skip the units below */
    }
    for (int u = 0; head > 0; u++) {
        int any = 0;
        for (int g = 0; g < head; g++) {
            int first = t->cg_first[g] + u * unit_sms;
            if (first + unit_sms > t->cg_first[g + 1])
                continue;
            any = 1;
            for (int j = first; j < first + unit_sms; j++) {
                order[k++] = t->cg_sms[j];
                taken[t->cg_sms[j]] = 1;
            }
        }
        if (!any)
            break;
    }
    for (int sm = 0; sm < t->nsms; sm++)
        if (!taken[sm])
            order[k++] = sm;
    int want = (n + unit_sms - 1) / unit_sms * unit_sms;
    want = SK_MIN(want, t->nsms);
    memcpy(group, order, (size_t)want * sizeof *group);
    qsort(group, (size_t)want, sizeof *group, cmp_int);
    *ngroup = want;
    memset(taken, 0, (size_t)t->nsms);
    for (int i = 0; i < want; i++)
        taken[group[i]] = 1;
    *nrest = 0;
    for (int sm = 0; sm < t->nsms; sm++)
        if (!taken[sm])
            rest[(*nrest)++] = sm;
    free(order);
    free(taken);
    return 0;
}

int topo_cgroup_usable(const topo *t, int g, const unsigned char *allowed)
{
    int n = 0;
    for (int j = t->cg_first[g]; j < t->cg_first[g + 1]; j++)
        n += !allowed || allowed[t->cg_sms[j]];
    return n;
}

uint64_t topo_max_active_clusters(const topo *t, int per_sm, int csize)
{
    return topo_max_active_clusters_in(t, NULL, per_sm, csize);
}

uint64_t topo_max_active_clusters_in(const topo *t, const unsigned char *allowed, int per_sm, int csize)
{
    csize = SK_MAX(csize, 1);
    uint64_t n = 0;
    for (int g = 0; g < t->ncgroups; g++) {
        if (csize > t->cg_max[g])
            continue;
        /* a cluster stays inside the SMs of its group the kernel may use */
        uint64_t sms = (uint64_t)topo_cgroup_usable(t, g, allowed);
        if (sms >= (uint64_t)csize)   /* one CTA of a cluster per SM (dispatch.c, E26) */
            n += sms * (uint64_t)SK_MAX(per_sm, 0) / (uint64_t)csize;
    }
    return n;
}

/* ---- MIG ---------------------------------------------------------------
 *
 * The GPU-instance profiles of the GH100 132-SM SKU.  SMs per profile:
 * `nvidia-smi mig -lgip` on an H100 SXM 80GB (as printed in the MIG README
 * of github.com/aws-samples/awsome-inference): 1g.10gb 16, 1g.20gb 26,
 * 2g.20gb 32, 3g.40gb 60, 4g.40gb 64, 7g.80gb 132; the H200's profiles
 * (1g.18gb ... 7g.141gb) are the same compute on the same die, assumed
 * equal, and arXiv:2609.24270 confirms 4g + 3g leaves 8 of 132 SMs unused.
 * Memory slices and placements: NVIDIA MIG user guide ("Supported MIG
 * profiles", H100: 3g and 4g take 4/8 of the memory; 1g.10gb starts at
 * 0-6, 1g.20gb at 0,2,4,6, 2g at 0,2,4, 3g at 0,4, 4g and 7g at 0).
 */
static const topo_mig_profile mig_profiles[] = {
    {"1g.18gb", "1g", 1, 16, 0x7f},
    {"1g.35gb", NULL, 2, 26, 0x55},
    {"2g.35gb", "2g", 2, 32, 0x15},
    {"3g.71gb", "3g", 4, 60, 0x11},
    {"4g.71gb", "4g", 4, 64, 0x01},
    {"7g.141gb", "7g", 8, 132, 0x01},
};
#define MIG_SLOTS 8          /* memory slices of the SKU */

const topo_mig_profile *topo_mig_profile_at(int i)
{
    return i >= 0 && (size_t)i < SK_ARRAY_LEN(mig_profiles) ? &mig_profiles[i] : NULL;
}

int topo_mig_parse(const char *spec, int *profile, int *start, sk_error *e)
{
    const char *at = strchr(spec, '@');
    size_t len = at ? (size_t)(at - spec) : strlen(spec);
    for (int i = 0; (size_t)i < SK_ARRAY_LEN(mig_profiles); i++) {
        const topo_mig_profile *p = &mig_profiles[i];
        if (!((strlen(p->name) == len && !strncmp(spec, p->name, len)) ||
              (p->alias && strlen(p->alias) == len && !strncmp(spec, p->alias, len))))
            continue;
        int s = -1;
        if (!at) {
            for (s = 0; !(p->starts >> s & 1); s++)
                ;
        } else if (at[1] >= '0' && at[1] <= '7' && !at[2] && (p->starts >> (at[1] - '0') & 1))
            s = at[1] - '0';
        if (s < 0) {
            char list[64] = "";
            for (int b = 0; b < MIG_SLOTS; b++)
                if (p->starts >> b & 1)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", list[0] ? "," : "", b);
            return sk_errorf(e, SK_EUSAGE, "expected a start %s allows (@%s)", p->name, list);
        }
        *profile = i;
        *start = s;
        return 0;
    }
    return sk_errorf(e, SK_EUSAGE, "expected a MIG profile 1g, 1g.35gb, 2g, 3g, 4g or 7g (or its H200 "
                     "name, e.g. 3g.71gb), optionally @START");
}

int topo_mig(const topo *t, int profile, int start, int *out, int *nout, sk_error *e)
{
    const topo_mig_profile *p = topo_mig_profile_at(profile);
    *nout = 0;
    if (!p)
        return sk_errorf(e, SK_EUSAGE, "topo: MIG profile %d: expected 0..%d", profile,
                         (int)SK_ARRAY_LEN(mig_profiles) - 1);
    int nphys = 0, size[CFG_MAX_GPCS + 1] = {0};
    for (int i = 0; i < t->nsms; i++) {
        int g = t->sm[i].phys_gpc;
        if (g < 0 || g > CFG_MAX_GPCS)
            continue;
        size[g]++;
        nphys = SK_MAX(nphys, g + 1);
    }
    if (nphys != MIG_SLOTS)
        return sk_errorf(e, SK_EFIT, "MIG %s: the chip has %d physical GPCs: expected %d (the profile table "
                         "is the GH100 SKU's)", p->name, nphys, MIG_SLOTS);
    /* Slots: physical GPCs by working SMs, largest first (stable). */
    int slot[MIG_SLOTS];
    for (int g = 0; g < MIG_SLOTS; g++) {
        int i = g;
        while (i > 0 && size[slot[i - 1]] < size[g]) {
            slot[i] = slot[i - 1];
            i--;
        }
        slot[i] = g;
    }
    /* One TPC of each spanned GPC in turn; a GPC's TPCs in SM-id order, so
     * its random TPCs (numbered last) are the first left unused. */
    unsigned char *take = xcalloc((size_t)t->nsms, 1);
    int got = 0;
    for (int r = 0, any = 1; any && got < p->sms; r++) {
        any = 0;
        for (int j = start; j < start + p->mem_slices && got < p->sms; j++) {
            int run = -1, prev = -1;
            for (int i = 0; i < t->nsms; i++) {
                if (t->sm[i].phys_gpc != slot[j])
                    continue;
                if (t->sm[i].tpc_global != prev) {
                    run++;
                    prev = t->sm[i].tpc_global;
                }
                if (run == r) {
                    take[i] = 1;
                    got++;
                    any = 1;
                }
            }
        }
    }
    if (got < p->sms) {
        free(take);
        return sk_errorf(e, SK_EFIT, "MIG %s@%d: its GPCs hold %d SMs: expected at least %d (this chip "
                         "cannot show the profile there)", p->name, start, got, p->sms);
    }
    for (int i = 0; i < t->nsms; i++)
        if (take[i])
            out[(*nout)++] = i;
    free(take);
    return 0;
}

int topo_sms_set(const topo *t, int unit_sms, const topo_sms_spec *p, unsigned char *allowed, int *usable,
                 sk_error *e)
{
    memset(allowed, 0, (size_t)t->nsms);
    *usable = 0;
    int *a = xcalloc((size_t)t->nsms, sizeof *a), *b = xcalloc((size_t)t->nsms, sizeof *b);
    int na = 0, nb = 0, rc = 0;
    const int *set = a;
    switch (p->kind) {
    case TOPO_SMS_GREEN:
    case TOPO_SMS_REST:
        rc = topo_green_split(t, p->n, unit_sms, p->flags & TOPO_SMS_NOCOSCHED, a, &na, b, &nb, e);
        if (p->kind == TOPO_SMS_REST) {
            set = b;
            na = nb;
        }
        break;
    case TOPO_SMS_MIG:
        rc = topo_mig(t, p->mig_profile, p->mig_start, a, &na, e);
        break;
    case TOPO_SMS_L2:
        for (int i = 0; i < t->nsms; i++)
            if (p->home && p->home[i] == p->n)
                a[na++] = i;
        break;
    default:
        for (na = 0; na < t->nsms; na++)
            a[na] = na;
        break;
    }
    if (rc == 0)
        for (int i = 0; i < na; i++)
            allowed[set[i]] = 1;
    *usable = rc == 0 ? na : 0;
    free(a);
    free(b);
    return rc;
}
