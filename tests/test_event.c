/* test_event.c -- the event queue (src/core/event.c): ordering by (time,
 * push order), cancel, move, peek, the debugging dump, a differential test
 * against a linear-scan reference, and the abort on a push into the past. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "skewsim/event.h"

/* A fixed 64-bit LCG (Knuth's MMIX constants): the same sequence on every
 * machine, so a failure reproduces. */
static uint64_t lcg_state;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 33);
}

static void noop(struct sim *s, event *ev)
{
    (void)s;
    (void)ev;
}

/* Events of a test, identified by their index in this array. */
#define NEV 1000
static event evs[NEV];
static evq q;

static void setup(void)
{
    evq_init(&q);
    for (uint32_t i = 0; i < NEV; i++)
        event_init(&evs[i], noop, "test", i);
}

static void teardown(void)
{
    evq_free(&q);
}

static int idx(const event *ev)
{
    ck_assert_ptr_nonnull(ev);
    return (int)(ev - evs);
}

/* ---------------------------------------------------------- ordering */

START_TEST(test_empty)
{
    ck_assert_ptr_null(evq_pop(&q));
    ck_assert_int_eq(evq_peek_time(&q), PS_MAX);
    ck_assert_uint_eq(q.n, 0);
    ck_assert(!event_queued(&evs[0]));
    evq_cancel(&q, &evs[0]);            /* not queued: left alone */
    ck_assert_uint_eq(q.n, 0);
}
END_TEST

START_TEST(test_order_by_time)
{
    static const ps_t t[] = {50, 10, 40, 30, 20, 0, 1000000000000LL, 35, 15, 45};
    static const int expect[] = {5, 1, 8, 4, 3, 7, 2, 9, 0, 6};
    for (int i = 0; i < (int)SK_ARRAY_LEN(t); i++) {
        evq_push(&q, &evs[i], t[i]);
        ck_assert(event_queued(&evs[i]));
    }
    ck_assert_uint_eq(q.n, SK_ARRAY_LEN(t));
    for (int i = 0; i < (int)SK_ARRAY_LEN(expect); i++) {
        ck_assert_int_eq(evq_peek_time(&q), t[expect[i]]);
        event *ev = evq_pop(&q);
        ck_assert_int_eq(idx(ev), expect[i]);
        ck_assert(!event_queued(ev));
        ck_assert_int_eq(q.now, t[expect[i]]);
        ck_assert_uint_eq(q.fired, (uint64_t)i + 1);
    }
    ck_assert_ptr_null(evq_pop(&q));
    ck_assert_int_eq(q.now, 1000000000000LL);  /* an empty pop leaves the clock alone */
}
END_TEST

/* 1000 events over five times, pushed in a scrambled order: they pop by
 * time, and at equal times in push order. */
START_TEST(test_fifo_ties)
{
    static const ps_t times[] = {7, 0, 123456789, 7000, 3};
    int order[NEV];                      /* order[k] = event pushed k-th */
    for (int i = 0; i < NEV; i++)
        order[i] = i;
    lcg_state = 12345;
    for (int i = NEV - 1; i > 0; i--) {  /* Fisher-Yates */
        int j = (int)(lcg() % (uint32_t)(i + 1)), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    int pushed_at[NEV];
    ps_t when[NEV];
    for (int k = 0; k < NEV; k++) {
        int i = order[k];
        when[i] = times[lcg() % SK_ARRAY_LEN(times)];
        pushed_at[i] = k;
        evq_push(&q, &evs[i], when[i]);
    }
    ps_t last_t = -1;
    int last_k = -1;
    for (int n = 0; n < NEV; n++) {
        int i = idx(evq_pop(&q));
        ck_assert_msg(when[i] > last_t || (when[i] == last_t && pushed_at[i] > last_k),
                      "pop %d: event %d (t=%lld, pushed %d-th) after t=%lld pushed %d-th", n, i,
                      (long long)when[i], pushed_at[i], (long long)last_t, last_k);
        last_t = when[i];
        last_k = pushed_at[i];
    }
    ck_assert_ptr_null(evq_pop(&q));
}
END_TEST

/* A handler that re-arms its own event at the current time runs after the
 * events already due then (event.h: nothing starves). */
START_TEST(test_rearm_at_now_goes_last)
{
    evq_push(&q, &evs[0], 100);
    evq_push(&q, &evs[1], 100);
    evq_push(&q, &evs[2], 100);
    ck_assert_int_eq(idx(evq_pop(&q)), 0);
    evq_push(&q, &evs[0], q.now);        /* pushing at exactly `now` is allowed */
    ck_assert_int_eq(idx(evq_pop(&q)), 1);
    ck_assert_int_eq(idx(evq_pop(&q)), 2);
    ck_assert_int_eq(idx(evq_pop(&q)), 0);
    ck_assert_int_eq(q.now, 100);
}
END_TEST

/* ------------------------------------------------------ cancel, move */

START_TEST(test_cancel_middle)
{
    for (int i = 0; i < 20; i++)
        evq_push(&q, &evs[i], (ps_t)(10 * (i % 7) + i));   /* times not in index order */
    /* the head, a middle node, the last pushed, and one twice */
    static const int gone[] = {0, 9, 19, 13};
    evq_cancel(&q, &evs[0]);
    evq_cancel(&q, &evs[9]);
    evq_cancel(&q, &evs[19]);
    evq_cancel(&q, &evs[13]);
    evq_cancel(&q, &evs[13]);
    ck_assert_uint_eq(q.n, 16);
    for (size_t g = 0; g < SK_ARRAY_LEN(gone); g++)
        ck_assert(!event_queued(&evs[gone[g]]));
    ps_t last = -1;
    int seen = 0;
    for (event *ev; (ev = evq_pop(&q)) != NULL; seen++) {
        int i = idx(ev);
        for (size_t g = 0; g < SK_ARRAY_LEN(gone); g++)
            ck_assert_int_ne(i, gone[g]);
        ck_assert_int_ge(ev->t, last);
        last = ev->t;
    }
    ck_assert_int_eq(seen, 16);
}
END_TEST

START_TEST(test_cancel_updates_peek)
{
    evq_push(&q, &evs[0], 5);
    evq_push(&q, &evs[1], 9);
    evq_push(&q, &evs[2], 7);
    ck_assert_int_eq(evq_peek_time(&q), 5);
    evq_cancel(&q, &evs[0]);
    ck_assert_int_eq(evq_peek_time(&q), 7);
    evq_cancel(&q, &evs[2]);
    ck_assert_int_eq(evq_peek_time(&q), 9);
    evq_cancel(&q, &evs[1]);
    ck_assert_int_eq(evq_peek_time(&q), PS_MAX);
    ck_assert_ptr_null(evq_pop(&q));
}
END_TEST

/* Pushing a queued node moves it, with a new sequence number. */
START_TEST(test_move)
{
    evq_push(&q, &evs[0], 10);
    evq_push(&q, &evs[1], 20);
    evq_push(&q, &evs[2], 30);
    evq_push(&q, &evs[0], 25);           /* later */
    ck_assert_uint_eq(q.n, 3);
    ck_assert_int_eq(evq_peek_time(&q), 20);
    evq_push(&q, &evs[2], 15);           /* earlier */
    evq_push(&q, &evs[1], 25);           /* tie with evs[0], pushed after it */
    ck_assert_uint_eq(q.n, 3);
    ck_assert_int_eq(evq_peek_time(&q), 15);
    ck_assert_int_eq(idx(evq_pop(&q)), 2);
    ck_assert_int_eq(idx(evq_pop(&q)), 0);
    ck_assert_int_eq(idx(evq_pop(&q)), 1);
    ck_assert_ptr_null(evq_pop(&q));

    /* Moving to the same time re-queues behind its equals. */
    evq_push(&q, &evs[3], 40);
    evq_push(&q, &evs[4], 40);
    evq_push(&q, &evs[3], 40);
    ck_assert_int_eq(idx(evq_pop(&q)), 4);
    ck_assert_int_eq(idx(evq_pop(&q)), 3);
}
END_TEST

START_TEST(test_dump_in_firing_order)
{
    static const char *const names[] = {"late", "early", "middle", "tie"};
    static const ps_t t[] = {300, 100, 200, 100};
    static event named[4];
    for (int i = 0; i < 4; i++) {
        event_init(&named[i], noop, names[i], (uint32_t)(40 + i));
        evq_push(&q, &named[i], t[i]);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    evq_dump(&q, f);
    fclose(f);
    /* early (100, pushed before tie), tie (100), middle, late */
    const char *pe = strstr(buf, "early"), *pt = strstr(buf, "tie"), *pm = strstr(buf, "middle"),
               *pl = strstr(buf, "late");
    ck_assert_ptr_nonnull(pe);
    ck_assert_ptr_nonnull(pt);
    ck_assert_ptr_nonnull(pm);
    ck_assert_ptr_nonnull(pl);
    ck_assert(pe < pt && pt < pm && pm < pl);
    ck_assert_ptr_nonnull(strstr(buf, "4 pending"));
    free(buf);
    ck_assert_uint_eq(q.n, 4);           /* dumping does not pop */
    ck_assert_ptr_eq(evq_pop(&q), &named[1]);
}
END_TEST

/* --------------------------------------------------------- differential */

/* The reference: which nodes are queued, with their time and sequence;
 * the next to fire is found by a linear scan for the least (t, seq). */
#define NPOOL 300
#define NOPS 100000

START_TEST(test_differential)
{
    int in[NPOOL] = {0};
    ps_t rt[NPOOL];
    uint64_t rseq[NPOOL], next_seq = 0;
    int count = 0;
    uint64_t pops = 0;
    ps_t now = 0;
    /* Conditions are checked without an assertion each (Check reports every
     * passing assertion to the runner, which would dominate the run time):
     * the first mismatch is described in bad[] and asserted after the loop. */
    char bad[256] = "";
    lcg_state = 0x5eed5eedULL;
    for (int op = 0; op < NOPS && !bad[0]; op++) {
        uint32_t r = lcg() % 100;
        int i = (int)(lcg() % NPOOL);
        if (r < 45) {
            /* push or move; small offsets so that ties are frequent */
            ps_t t = now + (ps_t)(lcg() % 64);
            evq_push(&q, &evs[i], t);
            count += !in[i];
            in[i] = 1;
            rt[i] = t;
            rseq[i] = next_seq++;
        } else if (r < 60) {
            evq_cancel(&q, &evs[i]);
            count -= in[i];
            in[i] = 0;
        } else {
            int best = -1;
            for (int j = 0; j < NPOOL; j++)
                if (in[j] && (best < 0 || rt[j] < rt[best] || (rt[j] == rt[best] && rseq[j] < rseq[best])))
                    best = j;
            event *ev = evq_pop(&q);
            if (best < 0 && ev != NULL) {
                snprintf(bad, sizeof bad, "op %d: popped %d from an empty queue", op, (int)(ev - evs));
            } else if (best >= 0 && ev != &evs[best]) {
                snprintf(bad, sizeof bad, "op %d: popped %d, expected %d (t=%lld)", op,
                         ev ? (int)(ev - evs) : -1, best, (long long)rt[best]);
            } else if (best >= 0) {
                in[best] = 0;
                count--;
                pops++;
                now = rt[best];
                if (q.now != now)
                    snprintf(bad, sizeof bad, "op %d: now %lld, expected %lld", op, (long long)q.now,
                             (long long)now);
            }
        }
        ps_t least = PS_MAX;
        for (int j = 0; j < NPOOL; j++)
            if (in[j] && rt[j] < least)
                least = rt[j];
        if (!bad[0] && (q.n != (uint32_t)count || evq_peek_time(&q) != least || event_queued(&evs[i]) != in[i]))
            snprintf(bad, sizeof bad, "op %d: %u queued (expected %d), peek %lld (expected %lld), node %d "
                     "queued %d (expected %d)", op, q.n, count, (long long)evq_peek_time(&q), (long long)least,
                     i, event_queued(&evs[i]), in[i]);
    }
    ck_assert_msg(!bad[0], "%s", bad);
    ck_assert_uint_eq(q.fired, pops);
    ck_assert_uint_gt(pops, NOPS / 4);   /* the mix really pops */
}
END_TEST

/* ------------------------------------------------------- into the past */

/* Run fn in a child whose stderr goes to a temporary file, and check that
 * it died of SIGABRT after printing `expect`.  The message is the test's
 * to read: a passing `make check` shows no internal-error line. */
static void expect_abort(void (*fn)(void), const char *expect)
{
    FILE *err = tmpfile();
    ck_assert_ptr_nonnull(err);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (dup2(fileno(err), STDERR_FILENO) < 0)
            _exit(3);
        fn();
        _exit(0);                        /* no abort: the parent fails the test */
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "expected SIGABRT, got status %d", status);
    char buf[512] = {0};
    rewind(err);
    size_t n = fread(buf, 1, sizeof buf - 1, err);
    fclose(err);
    buf[n] = '\0';
    ck_assert_msg(strstr(buf, expect) != NULL, "stderr \"%s\" lacks \"%s\"", buf, expect);
}

static void push_into_past(void)
{
    evq_push(&q, &evs[0], 100);
    evq_pop(&q);                         /* now = 100 */
    evq_push(&q, &evs[1], 99);           /* a bug in the caller: abort() */
}

static void move_into_past(void)
{
    evq_push(&q, &evs[0], 100);
    evq_push(&q, &evs[1], 200);
    evq_pop(&q);                         /* now = 100 */
    evq_push(&q, &evs[1], 50);           /* moving a queued node into the past too */
}

START_TEST(test_push_into_past_aborts)
{
    expect_abort(push_into_past, "skewsim: internal error: event 'test' (tag 1) scheduled at 99 ps, "
                                 "before the current time 100 ps\n");
}
END_TEST

START_TEST(test_move_into_past_aborts)
{
    expect_abort(move_into_past, "skewsim: internal error: event 'test' (tag 1) scheduled at 50 ps, "
                                 "before the current time 100 ps\n");
}
END_TEST

Suite *event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("order");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_order_by_time);
    tcase_add_test(tc, test_fifo_ties);
    tcase_add_test(tc, test_rearm_at_now_goes_last);
    tcase_add_test(tc, test_cancel_middle);
    tcase_add_test(tc, test_cancel_updates_peek);
    tcase_add_test(tc, test_move);
    tcase_add_test(tc, test_dump_in_firing_order);
    suite_add_tcase(s, tc);

    tc = tcase_create("differential");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_differential);
    suite_add_tcase(s, tc);

    tc = tcase_create("past");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_push_into_past_aborts);
    tcase_add_test(tc, test_move_into_past_aborts);
    suite_add_tcase(s, tc);
    return s;
}
