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
    X(FREQ_AWARE, freq_aware, "the frequency-aware research policy "                \
                              "(soonest finish at the SMs' current clocks)")

/* sm.warp_policy: which ready warp a scheduler issues from (sm.h, warp_ops). */
#define WARP_POLICY_MAP(X)                                                          \
    X(GTO, gto, "greedy-then-oldest")                                               \
    X(LRR, lrr, "loose round-robin")                                                \
    X(OLDEST, oldest, "oldest first")

#endif
