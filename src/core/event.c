/* event.c -- binary min-heap of intrusive event nodes; see event.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/event.h"

static int before(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void place(evq *q, uint32_t i, event *ev)
{
    q->heap[i] = ev;
    ev->slot = i + 1;
}

static void sift_up(evq *q, uint32_t i)
{
    event *ev = q->heap[i];
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!before(ev, q->heap[parent]))
            break;
        place(q, i, q->heap[parent]);
        i = parent;
    }
    place(q, i, ev);
}

static void sift_down(evq *q, uint32_t i)
{
    event *ev = q->heap[i];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        const event *best = ev;
        if (l < q->n && before(q->heap[l], best)) {
            m = l;
            best = q->heap[l];
        }
        if (r < q->n && before(q->heap[r], best))
            m = r;
        if (m == i)
            break;
        place(q, i, q->heap[m]);
        i = m;
    }
    place(q, i, ev);
}

void evq_init(evq *q)
{
    memset(q, 0, sizeof *q);
}

void evq_free(evq *q)
{
    for (uint32_t i = 0; i < q->n; i++)
        q->heap[i]->slot = 0;
    free(q->heap);
    memset(q, 0, sizeof *q);
}

void event_init(event *ev, event_fn fn, const char *what, uint32_t tag)
{
    memset(ev, 0, sizeof *ev);
    ev->fn = fn;
    ev->what = what;
    ev->tag = tag;
}

void evq_push(evq *q, event *ev, ps_t t)
{
    if (t < q->now) {
        fprintf(stderr, "skewsim: internal error: event '%s' (tag %u) scheduled at %lld ps, "
                "before the current time %lld ps\n", ev->what ? ev->what : "?", ev->tag,
                (long long)t, (long long)q->now);
        abort();
    }
    if (ev->slot)
        evq_cancel(q, ev);
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 64;
        q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
    }
    ev->t = t;
    ev->seq = q->next_seq++;
    place(q, q->n++, ev);
    sift_up(q, q->n - 1);
}

void evq_cancel(evq *q, event *ev)
{
    if (!ev->slot)
        return;
    uint32_t i = ev->slot - 1;
    ev->slot = 0;
    q->n--;
    if (i == q->n)
        return;
    place(q, i, q->heap[q->n]);
    if (i > 0 && before(q->heap[i], q->heap[(i - 1) / 2]))
        sift_up(q, i);
    else
        sift_down(q, i);
}

event *evq_pop(evq *q)
{
    if (q->n == 0)
        return NULL;
    event *ev = q->heap[0];
    ev->slot = 0;
    q->n--;
    if (q->n > 0) {
        place(q, 0, q->heap[q->n]);
        sift_down(q, 0);
    }
    q->now = ev->t;
    q->fired++;
    return ev;
}

ps_t evq_peek_time(const evq *q)
{
    return q->n ? q->heap[0]->t : PS_MAX;
}

static int cmp_events(const void *a, const void *b)
{
    const event *x = *(event *const *)a, *y = *(event *const *)b;
    return before(x, y) ? -1 : before(y, x) ? 1 : 0;
}

void evq_dump(const evq *q, FILE *out)
{
    event **tmp = xmalloc((q->n ? q->n : 1) * sizeof *tmp);
    memcpy(tmp, q->heap, q->n * sizeof *tmp);
    qsort(tmp, q->n, sizeof *tmp, cmp_events);
    fprintf(out, "%u pending event(s) at now=%lld ps\n", q->n, (long long)q->now);
    for (uint32_t i = 0; i < q->n; i++)
        fprintf(out, "  t=%lld ps seq=%llu %s tag=%u\n", (long long)tmp[i]->t,
                (unsigned long long)tmp[i]->seq, tmp[i]->what ? tmp[i]->what : "?", tmp[i]->tag);
    free(tmp);
}
