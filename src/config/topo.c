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
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
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
    for (int i = 0; i < t->nsms; i++) {
        topo_sm *m = &t->sm[i];
        if (!c->floorsweep[0])
            m->phys_gpc = m->gpc;
        else if (m->gpc < w.nlogical)
            m->phys_gpc = w.order[m->gpc];
        else
            m->phys_gpc = w.random_gpc[m->tpc];
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

int topo_green(const topo *t, int n, int unit_sms, int *group, int *ngroup, int *rest, int *nrest,
               sk_error *e)
{
    if (n < 1 || n > t->nsms)
        return sk_errorf(e, SK_EUSAGE, "topo: --green %d: expected 1..%d SMs (the chip's)", n, t->nsms);
    int *order = xcalloc((size_t)t->nsms, sizeof *order);
    unsigned char *taken = xcalloc((size_t)t->nsms, 1);
    int k = 0, head = 0;
    for (int g = 0; g < t->ncgroups; g++)
        head += t->cg_max[g] == INT32_MAX;   /* cluster groups of head GPCs come first */
    for (int u = 0;; u++) {
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
