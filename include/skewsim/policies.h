/* policies.h -- the one list of each kind of policy.
 *
 * Each row is X(ID, name, help): ID makes the cfg enum value
 * (DISPATCH_<ID>, WARP_<ID>), name is the config choice, the suffix of the
 * policy's ops table (dispatch_<name>, warp_<name>) and, by convention, of
 * its file (src/gpu/dispatch_<name>.c, src/gpu/warp_<name>.c); help is its
 * line in `skewsim config --help-config`.  The enum (config.h), the
 * schema's choices and help text (config.c) and the registries (dispatch.c,
 * warpsched.c) all expand these lists, so adding a policy is one new file
 * and one row here.  The order is the enum order: append, so that the
 * numeric values of existing policies stay as they are.
 */
#ifndef SKEWSIM_POLICIES_H
#define SKEWSIM_POLICIES_H

/* dispatch.policy: who gets the next CTA (include/skewsim/dispatch.h). */
#define DISPATCH_POLICY_MAP(X)                                                      \
    X(GIGATHREAD, gigathread, "the GigaThread model: GPC bursts in TPC order")      \
    X(ROUND_ROBIN, round_robin, "plain round-robin over SM ids")                    \
    X(CLOCK_AWARE, clock_aware, "soonest finish at the SMs' current clocks, read "  \
                                "directly (a research policy)")                      \
    X(GREEDY, greedy, "least-loaded: the SM with the fewest resident CTAs")         \
    X(LCS, lcs, "lazy CTA scheduling (Lee et al., HPCA 2014): after the first "      \
                "wave, only as many CTAs per SM as keep it busy")                   \
    X(BCS, bcs, "block CTA scheduling (Lee et al., HPCA 2014): consecutive CTAs "    \
                "in pairs to one SM")                                               \
    X(DYNCTA, dyncta, "DYNCTA (Kayiran et al., PACT 2013): a per-SM CTA limit "      \
                      "moved by idle and memory-stall cycles")                      \
    X(STATIC_WEIGHTS, static_weights, "static per-SM weights: the SMs' clocks at start "  \
                      "as a speed map, soonest finish by them")                     \
    X(LEARNED, learned, "closed loop: each SM's speed learned from its finished "    \
                        "CTAs (EWMA), earliest expected completion")                \
    X(ORACLE, oracle, "upper bound: knows every SM's clock and remaining work, "     \
                      "earliest completion")                                        \
    X(FREQ_AWARE, freq_aware, "the former name of clock_aware (an alias)")         \
    X(NUMA, numa, "NUMA-aware: a CTA to an SM homed in the L2 partition its "        \
                  "addresses live in (arXiv:2609.24270)")                           \
    X(NUMA_IDSPLIT, numa_idsplit, "numa with a topology-unaware map: SM ids "       \
                                  "0..n/2-1 taken as partition 0")

/* sm.warp_policy: which ready warp a scheduler issues from (sm.h, warp_ops). */
#define WARP_POLICY_MAP(X)                                                          \
    X(GTO, gto, "greedy-then-oldest")                                               \
    X(LRR, lrr, "loose round-robin")                                                \
    X(OLDEST, oldest, "oldest first")                                               \
    X(TWO_LEVEL, two_level, "two-level (Narasiman et al., MICRO 2011): round-robin " \
                            "in an active set of sm.active_warps; a warp waiting on " \
                            "a global load leaves it for the oldest pending one")    \
    X(BAWS, baws, "barrier-aware (Liu et al., ICS 2016): warps of the CTA with the "  \
                  "most warps at a barrier first, then greedy-then-oldest")  \
    X(CCWS, ccws, "CCWS-lite (Rogers et al., MICRO 2012): GTO; warps that lost L1 "    \
                  "locality hold back the loads of the rest (sm.ccws.*)")            \
    X(CTA_RR, cta_rr, "oldest CTA first, round-robin among its ready warps (E31)")

#endif
