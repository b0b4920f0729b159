/* dispatch.h -- the GigaThread engine: hands CTAs to SMs.
 *
 * The engine (dispatch.c) owns timing and resource checks; a policy only
 * chooses among the SMs that can take the next CTA now.  A policy is one
 * dispatch_ops table, dispatch_<name>, in its own file
 * (src/gpu/dispatch_<name>.c), and one row of DISPATCH_POLICY_MAP
 * (policies.h), from which the registry, the enum and the config choice
 * are made.
 */
#ifndef SKEWSIM_DISPATCH_H
#define SKEWSIM_DISPATCH_H

#include "skewsim/common.h"
#include "skewsim/policies.h"
#include "skewsim/event.h"
#include "skewsim/sm.h"

struct sim;

typedef struct dispatch_ops {
    const char *name;
    /* Per-run state (may return NULL when the policy keeps none). */
    void *(*create)(const struct sim *s);
    void (*destroy)(void *st);
    /* A new kernel starts (reset per-kernel cursors). May be NULL. */
    void (*kernel_start)(void *st, const struct sim *s);
    /* The SM for the next CTA, or -1 when none can take it now.  `fits(s,
     * sm, need)` says whether an SM has room; the policy must only return
     * an SM for which it is true. */
    int (*pick)(void *st, const struct sim *s, const cta_need *need);
    /* CTA `cs` finished on SM `sm` at t (cs still holds what it held: its
     * arrival, its co-resident count). May be NULL. */
    void (*cta_done)(void *st, const struct sim *s, int sm, const cta_slot *cs, ps_t t);
} dispatch_ops;

#define DISPATCH_OPS_DECL_(id, name, help) extern const dispatch_ops dispatch_##name;
DISPATCH_POLICY_MAP(DISPATCH_OPS_DECL_)
#undef DISPATCH_OPS_DECL_

/* The learned dispatcher's estimate of SM sm's clock in MHz (0: no CTA
 * finished there yet, or another policy runs).  For tests and reports. */
double dispatch_learned_mhz(const struct sim *s, int sm);
/* The CTA limit LCS or DYNCTA holds for SM sm now (LCS: 0 before its first
 * CTA finished), -1 when that policy does not run.  For tests. */
int dispatch_lcs_limit(const struct sim *s, int sm);
int dispatch_dyncta_limit(const struct sim *s, int sm);

/* With dispatch.policy static_weights and dispatch.weights_file set, read
 * the speed map into the policy's state: 0, or an error naming
 * file:line (sim_create calls it once, after dispatch_init). */
int dispatch_static_weights_load(struct sim *s, sk_error *e);

/* The ops table for a cfg dispatch.policy value (NULL: none such). */
const dispatch_ops *dispatch_lookup(int policy);

typedef struct dispatcher {
    const dispatch_ops *ops;
    void *st;
    event ev;                 /* the engine's own event */
    ps_t free_ps;             /* engine busy until (dispatch.cta_ps per CTA) */
    cta_desc next;            /* the CTA being placed, while the policy picks (a copy of its
                                 kernel's sim_kernel.next) */
    /* Thread block clusters (the engine's, not a policy's: docs/topology.md);
     * the group of the cluster being placed is its kernel's (sim_kernel) */
    int cl_ptr;               /* cluster group to try first for the next cluster */
} dispatcher;

void dispatch_init(dispatcher *d, struct sim *s);
void dispatch_free(dispatcher *d);
/* Ask the engine to try placing CTAs at time t (kernel start, CTA done). */
void dispatch_kick(struct sim *s, ps_t t);
struct sim_kernel;
/* Kernel kr starts: its cluster placement state starts afresh, and the
 * engine's turn over the cluster groups too when no other kernel is being
 * dispatched. */
void dispatch_kernel_start(struct sim *s, struct sim_kernel *kr);

#endif
