/* event.h -- the discrete-event core: intrusive event nodes fired in
 * (time, sequence) order.
 *
 * Each owner embeds its `event` (no allocation on insert, as in libuv's
 * heap-inl.h) and a node is in the queue at most once.  The sequence number
 * is taken at push time, so events at the same picosecond fire first-in
 * first-out and a handler that re-arms itself at the current time runs after
 * everything already due: runs are deterministic and nothing starves.
 * Pushing an event into the past is a bug in the caller and aborts loudly
 * (Multi2Sim's esim does the same).
 *
 * Inside, events are kept in *time buckets*: one FIFO list per distinct
 * pending time, a min-heap of the buckets by time and a hash table from time
 * to bucket.  FIFO within a bucket is exactly sequence order, so this fires
 * events in the same order as a heap ordered by (time, sequence) would, but
 * SMs that share a clock (every cycle, all of them re-arm at the same next
 * time) cost O(1) per event instead of O(log n) (docs/performance.md).
 */
#ifndef SKEWSIM_EVENT_H
#define SKEWSIM_EVENT_H

#include <stdio.h>
#include "skewsim/common.h"

struct sim;
typedef struct event event;
typedef void (*event_fn)(struct sim *s, event *ev);

struct event {
    ps_t t;             /* when it fires */
    uint64_t seq;       /* push order: the tie-break */
    uint32_t slot;      /* its time bucket + 1; 0 = not queued */
    uint32_t tag;       /* owner-defined (e.g. SM id), shown by evq_dump */
    uint8_t ahead;      /* 1: others may run ahead of it (an SM's issue event, sim.lookahead_cycles);
                           0 (event_init's): a fence, nothing runs past it (evq_fence_time) */
    uint32_t fpos;      /* a queued fence: its index in evq.fence + 1 */
    event *next, *prev; /* FIFO of its time bucket */
    event_fn fn;        /* handler */
    const char *what;   /* name for evq_dump */
};

/* Every queued event with one time, in push (= sequence) order. */
typedef struct evbucket {
    ps_t t;
    event *head, *tail;
    uint32_t hpos;      /* position in evq.heap */
} evbucket;

typedef struct evq {
    evbucket *b;        /* owned bucket pool; free ones chained through `hpos` */
    uint32_t nb_cap, b_free;
    uint32_t *heap;     /* owned: bucket indices, a min-heap on their time */
    uint32_t nheap;
    uint32_t *hash;     /* owned: open addressing, time -> bucket + 1 (0 = empty) */
    uint32_t hash_mask; /* hash size - 1 (a power of two, at least 2 x nb_cap) */
    uint32_t last;      /* bucket + 1 pushed to last: successive pushes share a time */
    uint32_t n;         /* queued events */
    uint64_t next_seq;
    ps_t now;           /* time of the last popped event */
    uint64_t now_seq;   /* and its sequence number (which of two equal-time events came first) */
    uint64_t fired;     /* events popped so far (statistics) */
    event **fence;      /* owned: the queued events with ahead == 0, unordered (few: the
                           dispatcher, grid barriers, the silicon epoch) */
    uint32_t nfence, fence_cap;
    ps_t fence_t;       /* the earliest of their times, PS_MAX when none */
    uint64_t version;   /* pushes, cancels and pops so far: while it holds, so do
                           evq_peek_time and evq_fence_time (an SM's run-ahead bound) */
} evq;

void evq_init(evq *q);
void evq_free(evq *q);

/* Initialise a node before its first push. */
void event_init(event *ev, event_fn fn, const char *what, uint32_t tag);

/* Queue `ev` at time t (>= q->now; aborts otherwise).  A node already
 * queued is moved to the new time with a new sequence number. */
void evq_push(evq *q, event *ev, ps_t t);
/* Remove a queued node; a node not queued is left alone. */
void evq_cancel(evq *q, event *ev);
/* Pop the earliest event, advancing q->now; NULL when empty. */
event *evq_pop(evq *q);
/* Time of the earliest event, PS_MAX when empty. */
ps_t evq_peek_time(const evq *q);
static inline int event_queued(const event *ev) { return ev->slot != 0; }
/* Time of the earliest queued fence (an event with ahead == 0), PS_MAX when
 * none: what an SM running ahead must not pass. */
static inline ps_t evq_fence_time(const evq *q) { return q->fence_t; }

/* Print pending events in firing order (debugging aid; O(n log n)). */
void evq_dump(const evq *q, FILE *out);

#endif
