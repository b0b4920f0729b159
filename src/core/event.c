/* event.c -- the event queue: time buckets of intrusive event nodes; see
 * event.h.
 *
 * Why buckets.  The simulator fires events in (time, sequence) order.  The
 * SMs of a chip usually share one clock, so at any moment almost every
 * pending event is at one of two times: "this cycle" and "next cycle".  A
 * binary heap over the events pays O(log n) mispredicted comparisons per
 * pop for an order that is, in that case, a plain rotation: the SM that
 * fired first in cycle c re-arms first for cycle c+1.  Buckets keep one FIFO
 * per distinct time (push order is sequence order, so FIFO is the
 * tie-break), a min-heap over the *distinct* times only, and a hash table
 * from time to bucket for pushes; the bucket pushed to last is remembered,
 * since successive pushes usually share their time.  Pop, push and cancel
 * are O(1) plus O(log d) for d distinct pending times, which is 2 in
 * lockstep and at worst the number of events (then it costs about what the
 * plain heap did).  The firing order, and so every result and the `events`
 * statistic, is exactly that of the heap (tests/test_event.c compares with a
 * linear-scan reference; tests/test_golden.c pins whole runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/event.h"

/* ---- the heap of buckets (distinct times: no ties) ------------------ */

static void heap_place(evq *q, uint32_t i, uint32_t bi)
{
    q->heap[i] = bi;
    q->b[bi].hpos = i;
}

static void heap_up(evq *q, uint32_t i)
{
    uint32_t bi = q->heap[i];
    ps_t t = q->b[bi].t;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (q->b[q->heap[parent]].t <= t)
            break;
        heap_place(q, i, q->heap[parent]);
        i = parent;
    }
    heap_place(q, i, bi);
}

static void heap_down(evq *q, uint32_t i)
{
    uint32_t bi = q->heap[i];
    ps_t t = q->b[bi].t;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        ps_t best = t;
        if (l < q->nheap && q->b[q->heap[l]].t < best) {
            m = l;
            best = q->b[q->heap[l]].t;
        }
        if (r < q->nheap && q->b[q->heap[r]].t < best)
            m = r;
        if (m == i)
            break;
        heap_place(q, i, q->heap[m]);
        i = m;
    }
    heap_place(q, i, bi);
}

/* ---- time -> bucket: linear probing, backward-shift deletion --------- */

static uint32_t hash_time(ps_t t, uint32_t mask)
{
    return (uint32_t)(((uint64_t)t * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask;
}

/* Bucket index + 1 of time t, 0 when none. */
static uint32_t hash_find(const evq *q, ps_t t)
{
    for (uint32_t i = hash_time(t, q->hash_mask);; i = (i + 1) & q->hash_mask) {
        uint32_t v = q->hash[i];
        if (v == 0 || q->b[v - 1].t == t)
            return v;
    }
}

static void hash_insert(evq *q, uint32_t bi)
{
    uint32_t i = hash_time(q->b[bi].t, q->hash_mask);
    while (q->hash[i])
        i = (i + 1) & q->hash_mask;
    q->hash[i] = bi + 1;
}

static void hash_delete(evq *q, uint32_t bi)
{
    uint32_t mask = q->hash_mask, i = hash_time(q->b[bi].t, mask);
    while (q->hash[i] != bi + 1)
        i = (i + 1) & mask;
    /* Close the gap: move back every later entry of the cluster whose home
     * slot does not lie between the gap and its position. */
    for (uint32_t j = (i + 1) & mask; q->hash[j]; j = (j + 1) & mask) {
        uint32_t home = hash_time(q->b[q->hash[j] - 1].t, mask);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            q->hash[i] = q->hash[j];
            i = j;
        }
    }
    q->hash[i] = 0;
}

/* ---- buckets --------------------------------------------------------- */

#define NO_BUCKET UINT32_MAX

/* Double the bucket pool and rebuild the hash table (at most 25 % full). */
static void grow(evq *q)
{
    uint32_t old = q->nb_cap, cap = old ? 2 * old : 64;
    q->b = xrealloc(q->b, cap * sizeof *q->b);
    q->heap = xrealloc(q->heap, cap * sizeof *q->heap);
    for (uint32_t i = old; i < cap; i++)
        q->b[i].hpos = i + 1 < cap ? i + 1 : q->b_free;
    q->b_free = old;
    q->nb_cap = cap;
    free(q->hash);
    q->hash_mask = 4 * cap - 1;
    q->hash = xcalloc(4 * (size_t)cap, sizeof *q->hash);
    for (uint32_t i = 0; i < q->nheap; i++)
        hash_insert(q, q->heap[i]);
}

/* The bucket of time t, created when there is none: the push path when t
 * is not the last bucket pushed to, out of line so that the common push
 * (every SM re-arming for the same next cycle) saves no registers. */
__attribute__((noinline)) static uint32_t bucket_for(evq *q, ps_t t)
{
    uint32_t v = q->nb_cap ? hash_find(q, t) : 0;
    if (v)
        return v - 1;
    if (q->b_free == NO_BUCKET || q->b_free >= q->nb_cap)
        grow(q);
    uint32_t bi = q->b_free;
    q->b_free = q->b[bi].hpos;
    evbucket *b = &q->b[bi];
    b->t = t;
    b->head = b->tail = NULL;
    q->heap[q->nheap] = bi;
    heap_up(q, q->nheap++);
    hash_insert(q, bi);
    return bi;
}

static void bucket_release(evq *q, uint32_t bi)
{
    uint32_t i = q->b[bi].hpos;
    hash_delete(q, bi);
    if (--q->nheap > i) {
        heap_place(q, i, q->heap[q->nheap]);
        if (i > 0 && q->b[q->heap[i]].t < q->b[q->heap[(i - 1) / 2]].t)
            heap_up(q, i);
        else
            heap_down(q, i);
    }
    q->b[bi].hpos = q->b_free;
    q->b_free = bi;
    if (q->last == bi + 1)
        q->last = 0;
}

/* ---- fences: the queued events nothing may run past ----------------- */

static void fence_min(evq *q)
{
    ps_t t = PS_MAX;
    for (uint32_t i = 0; i < q->nfence; i++)
        t = SK_MIN(t, q->fence[i]->t);
    q->fence_t = t;
}

static void fence_add(evq *q, event *ev)
{
    if (q->nfence == q->fence_cap) {
        q->fence_cap = q->fence_cap ? 2 * q->fence_cap : 16;
        q->fence = xrealloc(q->fence, q->fence_cap * sizeof *q->fence);
    }
    q->fence[q->nfence++] = ev;
    ev->fpos = q->nfence;
    q->fence_t = SK_MIN(q->fence_t, ev->t);
}

static void fence_remove(evq *q, event *ev)
{
    uint32_t i = ev->fpos - 1;
    q->fence[i] = q->fence[--q->nfence];
    q->fence[i]->fpos = i + 1;
    ev->fpos = 0;
    if (ev->t <= q->fence_t)
        fence_min(q);
}

/* ---- the API --------------------------------------------------------- */

void evq_init(evq *q)
{
    memset(q, 0, sizeof *q);
    q->b_free = NO_BUCKET;
    q->fence_t = PS_MAX;
}

void evq_free(evq *q)
{
    for (uint32_t i = 0; i < q->nheap; i++)
        for (event *ev = q->b[q->heap[i]].head; ev; ev = ev->next)
            ev->slot = 0;
    for (uint32_t i = 0; i < q->nfence; i++)
        q->fence[i]->fpos = 0;
    free(q->b);
    free(q->heap);
    free(q->hash);
    free(q->fence);
    evq_init(q);
}

void event_init(event *ev, event_fn fn, const char *what, uint32_t tag)
{
    memset(ev, 0, sizeof *ev);
    ev->fn = fn;
    ev->what = what;
    ev->tag = tag;
}

__attribute__((noinline, noreturn)) static void pushed_into_past(const evq *q, const event *ev, ps_t t)
{
    fprintf(stderr, "skewsim: internal error: event '%s' (tag %u) scheduled at %lld ps, "
            "before the current time %lld ps\n", ev->what ? ev->what : "?", ev->tag,
            (long long)t, (long long)q->now);
    abort();
}

void evq_push(evq *q, event *ev, ps_t t)
{
    if (t < q->now)
        pushed_into_past(q, ev, t);
    if (ev->slot)
        evq_cancel(q, ev);
    uint32_t bi = q->last && q->b[q->last - 1].t == t ? q->last - 1 : bucket_for(q, t);
    evbucket *b = &q->b[bi];
    ev->next = NULL;
    ev->prev = b->tail;
    if (b->tail)
        b->tail->next = ev;
    else
        b->head = ev;
    b->tail = ev;
    ev->t = t;
    ev->seq = q->next_seq++;
    ev->slot = bi + 1;
    q->last = bi + 1;
    q->n++;
    q->version++;
    if (!ev->ahead)
        fence_add(q, ev);
}

void evq_cancel(evq *q, event *ev)
{
    if (!ev->slot)
        return;
    uint32_t bi = ev->slot - 1;
    evbucket *b = &q->b[bi];
    if (ev->prev)
        ev->prev->next = ev->next;
    else
        b->head = ev->next;
    if (ev->next)
        ev->next->prev = ev->prev;
    else
        b->tail = ev->prev;
    ev->slot = 0;
    q->n--;
    q->version++;
    if (!b->head)
        bucket_release(q, bi);
    if (ev->fpos)
        fence_remove(q, ev);
}

event *evq_pop(evq *q)
{
    if (q->nheap == 0)
        return NULL;
    uint32_t bi = q->heap[0];
    evbucket *b = &q->b[bi];
    event *ev = b->head;
    b->head = ev->next;
    if (b->head)
        b->head->prev = NULL;
    else {
        b->tail = NULL;
        bucket_release(q, bi);
    }
    ev->slot = 0;
    q->n--;
    q->version++;
    if (ev->fpos)
        fence_remove(q, ev);
    q->now = ev->t;
    q->now_seq = ev->seq;
    q->fired++;
    return ev;
}

ps_t evq_peek_time(const evq *q)
{
    return q->nheap ? q->b[q->heap[0]].t : PS_MAX;
}

static int before(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int cmp_events(const void *a, const void *b)
{
    const event *x = *(event *const *)a, *y = *(event *const *)b;
    return before(x, y) ? -1 : before(y, x) ? 1 : 0;
}

void evq_dump(const evq *q, FILE *out)
{
    event **tmp = xmalloc((q->n ? q->n : 1) * sizeof *tmp);
    uint32_t k = 0;
    for (uint32_t i = 0; i < q->nheap; i++)
        for (event *ev = q->b[q->heap[i]].head; ev; ev = ev->next)
            tmp[k++] = ev;
    qsort(tmp, k, sizeof *tmp, cmp_events);
    fprintf(out, "%u pending event(s) at now=%lld ps\n", q->n, (long long)q->now);
    for (uint32_t i = 0; i < k; i++)
        fprintf(out, "  t=%lld ps seq=%llu %s tag=%u\n", (long long)tmp[i]->t,
                (unsigned long long)tmp[i]->seq, tmp[i]->what ? tmp[i]->what : "?", tmp[i]->tag);
    free(tmp);
}
