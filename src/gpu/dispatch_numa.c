/* dispatch_numa.c -- NUMA-aware CTA placement over the two-partition L2.
 *
 * arXiv:2609.24270 finds the H200's L2 split into two partitions, each the
 * home of the pages its XOR hash picks (bits 12, 13, 15, 17, 19 on our chip,
 * E11), with a far hit ~51 % slower than a near one and remote lines
 * replicated into the reader's partition (which shrinks the effective L2
 * to ~66 %).  Its NUMA-aware persistent kernels place work whose data
 * lives in one partition on SMs homed in that partition: up to 1.22x; the
 * same idea with a wrong idea of which SMs sit where turned 1.10x into
 * 0.78x.
 *
 * The mechanism here: the next CTA's addresses are those its program's
 * address patterns give (trace key addr=, apat.c), evaluated exactly as
 * the SM will: every warp of the CTA at iteration 0, and warp 0 at
 * iterations 1..15, for up to 4 of its memory instructions.  Each lane
 * address votes for its partition (mem_partition_of, the hash of
 * memory.l2.hash_bits / frame_bit); the majority is the CTA's partition.
 * The CTA then goes to the least-loaded SM with room homed there (each SM's
 * home is the memory hierarchy's, from the floorplan: mem_hier_home), and
 * to the least-loaded SM with room anywhere when none is (work-conserving:
 * a CTA never waits for its partition).  A CTA without addresses, or a tie,
 * goes to the least-loaded SM, as greedy places it.  Without memory.model
 * = hierarchy or with one partition the policy is greedy.
 *
 * numa_idsplit is the same policy with the topology-unaware idea of the
 * partitions that a program written for a contiguous SM numbering would
 * hold: SMs 0 .. n/2 - 1 in partition 0, the rest in partition 1.  On the
 * H200, whose partitions are GPCs 0, 4, 5, 6 (+ the random SMs) and 1, 2,
 * 3, 7, while SM ids go round-robin over GPCs, that idea is right for about
 * half the SMs (docs/schedulers.md).
 */
#include <stdlib.h>
#include "skewsim/sim.h"
#include "skewsim/memsys.h"

typedef struct numa_st {
    int idsplit;          /* 1: SM ids halves stand for the partitions */
    uint64_t mask;        /* memory.l2.hash_bits */
    int have_cta;         /* last_part is for CTA last_id of the current kernel */
    uint64_t last_id;
    int last_part;
} numa_st;

static void *create_common(const sim *s, int idsplit)
{
    numa_st *st = xcalloc(1, sizeof *st);
    st->idsplit = idsplit;
    cfg_bit_list(s->c.l2_hash_bits, &st->mask);
    return st;
}

static void *numa_create(const sim *s)
{
    return create_common(s, 0);
}

static void *idsplit_create(const sim *s)
{
    return create_common(s, 1);
}

static void numa_destroy(void *st)
{
    free(st);
}

static void numa_kernel_start(void *vst, const sim *s)
{
    (void)s;
    ((numa_st *)vst)->have_cta = 0;
}

/* Partition the policy believes SM sm is homed in. */
static int home_of(const numa_st *st, const sim *s, int id)
{
    return st->idsplit ? id >= s->nsms / 2 : mem_hier_home(s->hier, id);
}

/* The CTA's partition by majority of its sampled addresses; -1: none. */
static int cta_partition(const numa_st *st, const sim *s, const cta_desc *d)
{
    const program *p = &s->k.progs[d->prog];
    uint32_t nwarps = (s->k.block_threads + 31) / 32;
    uint64_t votes[2] = {0, 0}, addr[32];
    int used = 0;
    for (uint32_t i = 0; i < p->n && used < 4; i++) {
        const instr *in = &p->code[i];
        if (!in->apat || (in->kind != IK_LD_GLOBAL && in->kind != IK_ST_GLOBAL))
            continue;
        const mem_apat *ap = &p->apats[in->apat - 1];
        uint32_t mask = mem_apat_mask(ap);     /* only lanes that access vote (mask=) */
        if (!mask)
            continue;
        used++;
        for (uint32_t w = 0; w < nwarps + 15; w++) {
            uint32_t wi = w < nwarps ? w : 0;
            uint64_t iter = w < nwarps ? 0 : w - nwarps + 1;
            mem_apat_lanes(ap, d->id, wi, iter, in->bytes, addr);
            for (int l = 0; l < 32; l++)
                if (mask >> l & 1)
                    votes[mem_partition_of(addr[l], 2, st->mask, s->c.l2_frame_bit) & 1]++;
        }
    }
    return votes[0] == votes[1] ? -1 : votes[1] > votes[0];
}

static int numa_pick(void *vst, const sim *s, const cta_need *need)
{
    numa_st *st = vst;
    int part = -1;
    if (s->hier && s->c.l2_partitions == 2) {
        const cta_desc *d = &s->disp.next;
        if (!st->have_cta || st->last_id != d->id) {
            st->last_part = cta_partition(st, s, d);
            st->last_id = d->id;
            st->have_cta = 1;
        }
        part = st->last_part;
    }
    int best = -1, best_home = -1;
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        if (!sm_fits(s, m, need))
            continue;
        if (best < 0 || m->used_ctas < s->sms[best].used_ctas)
            best = i;
        if (part >= 0 && home_of(st, s, i) == part &&
            (best_home < 0 || m->used_ctas < s->sms[best_home].used_ctas))
            best_home = i;
    }
    return best_home >= 0 ? best_home : best;
}

const dispatch_ops dispatch_numa = {
    .name = "numa",
    .create = numa_create,
    .destroy = numa_destroy,
    .kernel_start = numa_kernel_start,
    .pick = numa_pick,
};

const dispatch_ops dispatch_numa_idsplit = {
    .name = "numa_idsplit",
    .create = idsplit_create,
    .destroy = numa_destroy,
    .kernel_start = numa_kernel_start,
    .pick = numa_pick,
};
