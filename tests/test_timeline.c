/* test_timeline.c -- the Chrome trace-event writer (src/timeline): the file
 * parses as JSON (jansson), every event carries the fields its phase needs
 * (the Trace Event Format: name, ph, pid, tid, ts in microseconds, dur for
 * complete events, s for instants, args), times are exact from picoseconds,
 * strings are escaped, and the event bound drops events, never metadata,
 * and says how many. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/sim.h"
#include "skewsim/timeline.h"
#include "skewsim/trace.h"

static char tmpdir[128];

static void setup(void)
{
    tu_mkdtemp(tmpdir, sizeof tmpdir, "timeline");
}

static void teardown(void)
{
    tu_rmdir(tmpdir);
}

/* Write a small timeline with bound `max`; returns the parsed document. */
static json_t *small(uint64_t max)
{
    char *p = tu_strf("%s/t.json", tmpdir);
    sk_error e = {0};
    tl_writer *w = tl_open(p, max, &e);
    ck_assert_ptr_nonnull(w);
    tl_process(w, 1, "GPC 0", 1);
    tl_thread(w, 1, 3, "SM 3", 3);
    tl_arg a[] = {TL_I("cta", 7), TL_S("kernel", "k\"1\\\n"), TL_D("ipc", 1.5)};
    tl_slice(w, 1, 3, "CTA 7", "cta", 1500000, 2750001, a, 3);
    tl_counter(w, 1, "SM 3 clock", 1000, "MHz", 1980);
    tl_instant(w, 0, 0, 'g', "kernel launch", "kernel", 0, NULL, 0);
    tl_instant(w, 1, 3, 'x', "odd scope", "test", 5, NULL, 0);
    if (max == 2) {
        ck_assert_int_eq((int)tl_written(w), 2);
        ck_assert_int_eq((int)tl_dropped(w), 2);
    }
    ck_assert_int_eq(tl_close(w, &e), 0);
    json_error_t je;
    json_t *root = json_load_file(p, 0, &je);
    ck_assert_msg(root, "%s:%d: %s", p, je.line, je.text);
    remove(p);
    free(p);
    return root;
}

START_TEST(test_fields)
{
    json_t *root = small(0);
    json_t *ev = json_object_get(root, "traceEvents");
    ck_assert(json_is_array(ev));
    ck_assert_int_eq((int)json_array_size(ev), 8);   /* 4 metadata + 4 events */
    ck_assert_str_eq(json_string_value(json_object_get(root, "displayTimeUnit")), "ns");
    int seen_x = 0;
    for (size_t i = 0; i < json_array_size(ev); i++) {
        json_t *o = json_array_get(ev, i);
        const char *ph = json_string_value(json_object_get(o, "ph"));
        ck_assert_ptr_nonnull(ph);
        ck_assert(json_is_string(json_object_get(o, "name")));
        ck_assert(json_is_integer(json_object_get(o, "pid")));
        ck_assert(json_is_integer(json_object_get(o, "tid")));
        if (!strcmp(ph, "M")) {
            ck_assert(json_is_object(json_object_get(o, "args")));
            continue;
        }
        ck_assert(json_is_number(json_object_get(o, "ts")));
        if (!strcmp(ph, "X")) {
            seen_x = 1;
            ck_assert(json_number_value(json_object_get(o, "ts")) == 1.5);        /* 1500000 ps */
            ck_assert(json_number_value(json_object_get(o, "dur")) == 1.250001);  /* exact */
            json_t *a = json_object_get(o, "args");
            ck_assert_int_eq((int)json_integer_value(json_object_get(a, "cta")), 7);
            ck_assert_str_eq(json_string_value(json_object_get(a, "kernel")), "k\"1\\\n");
            ck_assert(json_number_value(json_object_get(a, "ipc")) == 1.5);
        } else if (!strcmp(ph, "i")) {
            const char *sc = json_string_value(json_object_get(o, "s"));
            ck_assert(sc && strchr("gpt", sc[0]));
        } else {
            ck_assert_str_eq(ph, "C");
            ck_assert(json_number_value(json_object_get(json_object_get(o, "args"), "MHz")) == 1980);
        }
    }
    ck_assert(seen_x);
    json_t *od = json_object_get(root, "otherData");
    ck_assert_int_eq((int)json_integer_value(json_object_get(od, "dropped_events")), 0);
    json_decref(root);
}
END_TEST

START_TEST(test_bound)
{
    json_t *root = small(2);
    json_t *ev = json_object_get(root, "traceEvents");
    ck_assert_int_eq((int)json_array_size(ev), 4 + 2);   /* metadata is never dropped */
    json_t *od = json_object_get(root, "otherData");
    ck_assert_int_eq((int)json_integer_value(json_object_get(od, "events")), 2);
    ck_assert_int_eq((int)json_integer_value(json_object_get(od, "max_events")), 2);
    ck_assert_int_eq((int)json_integer_value(json_object_get(od, "dropped_events")), 2);
    json_decref(root);
}
END_TEST

START_TEST(test_unwritable)
{
    sk_error e = {0};
    ck_assert_ptr_null(tl_open("/nonexistent-dir/t.json", 0, &e));
    ck_assert_int_eq(e.code, SK_EIO);
    ck_assert_str_eq(e.msg, "/nonexistent-dir/t.json: cannot write: No such file or directory");
}
END_TEST

/* ---- a simulation's timeline ----------------------------------------- */

/* The waves kernel on the four-SM teaching chip with skewed silicon and a
 * power manager that steps every microsecond: every process, thread, CTA
 * slice and counter the timeline promises is there, with its fields. */
START_TEST(test_sim_timeline)
{
    cfg c;
    tu_cfg(&c, "configs/teach/tiny4.yaml",
           "silicon: {preset: file, map_file: configs/teach/slow_sm3.csv}\n"
           "dvfs: {policy: power_cap, cap_w: 2, epoch_ns: 1000, latency_ns: 0}\n", NULL);
    /* 40 CTAs (4 us), so that the 1 us power manager decides within it. */
    char *orig = tu_slurp("traces/teach/issue.trace", NULL);
    char *g = strstr(orig, "grid=8 ");
    ck_assert_ptr_nonnull(g);
    *g = '\0';
    char *text = tu_strf("%sgrid=40 %s", orig, g + 7);
    free(orig);
    char *p = tu_strf("%s/run.json", tmpdir);
    sk_error e = {0};
    trace *tr = trace_open_string("issue.trace", text, &e);
    ck_assert_ptr_nonnull(tr);
    tlsim *t = tlsim_open(p, 0, &e);
    ck_assert_ptr_nonnull(t);
    sim_sink k = tlsim_sink(t);
    sim *run = sim_create(&c, &k, 1, &e);
    ck_assert_ptr_nonnull(run);
    ck_assert_int_eq(sim_run(run, tr, &e), 0);
    ck_assert_int_eq(tlsim_close(t, &e), 0);
    sim_destroy(run);
    trace_close(tr);
    free(text);

    json_error_t je;
    json_t *root = json_load_file(p, 0, &je);
    ck_assert_msg(root, "%s:%d: %s", p, je.line, je.text);
    json_t *ev = json_object_get(root, "traceEvents");
    int procs = 0, threads = 0, ctas = 0, clock = 0, supply = 0, power = 0, launch = 0, kslice = 0, dvfs = 0;
    static double lane_end[4096];
    memset(lane_end, 0, sizeof lane_end);
    for (size_t i = 0; i < json_array_size(ev); i++) {
        json_t *o = json_array_get(ev, i);
        const char *ph = json_string_value(json_object_get(o, "ph"));
        const char *name = json_string_value(json_object_get(o, "name"));
        const char *cat = json_string_value(json_object_get(o, "cat"));
        json_t *a = json_object_get(o, "args");
        int pid = (int)json_integer_value(json_object_get(o, "pid"));
        int tid = (int)json_integer_value(json_object_get(o, "tid"));
        if (!strcmp(ph, "M")) {
            procs += !strcmp(name, "process_name");
            threads += !strcmp(name, "thread_name") && pid > 0;
        } else if (!strcmp(ph, "X") && !strcmp(cat, "cta")) {
            ctas++;
            /* A lane of its SM (tid = SM * 1024 + lane) under its GPC's pid:
             * tiny4 is GPC 0 = SMs 0, 1; GPC 1 = SMs 2, 3; two CTAs at once. */
            int smid = tid / 1024, lanek = tid % 1024;
            ck_assert_int_eq(pid, smid / 2 + 1);
            ck_assert_int_le(lanek, 1);
            ck_assert_str_eq(json_string_value(json_object_get(a, "kernel")), "issue_bound");
            ck_assert_int_eq((int)json_integer_value(json_object_get(a, "warps")), 8);
            ck_assert_int_eq((int)json_integer_value(json_object_get(a, "sm")), smid);
            /* Slices of one thread must not overlap (trace viewers nest them). */
            double ts = json_number_value(json_object_get(o, "ts"));
            double dur = json_number_value(json_object_get(o, "dur"));
            ck_assert_int_lt(tid, 4096);
            ck_assert_msg(ts >= lane_end[tid], "CTA slices overlap on thread %d", tid);
            lane_end[tid] = ts + dur;
            ck_assert(json_integer_value(json_object_get(a, "cycles")) > 300);
            ck_assert(json_number_value(json_object_get(o, "dur")) > 0.3);
        } else if (!strcmp(ph, "X") && !strcmp(cat, "kernel")) {
            kslice++;
        } else if (!strcmp(ph, "C")) {
            clock += strstr(name, " clock") != NULL && json_is_number(json_object_get(a, "MHz"));
            supply += strstr(name, " supply") != NULL && json_is_number(json_object_get(a, "mV"));
            power += !strcmp(name, "chip power") && pid == 0;
        } else if (!strcmp(ph, "i")) {
            launch += !strcmp(name, "kernel launch");
            dvfs += !strcmp(cat, "dvfs");
        }
    }
    ck_assert_int_eq(procs, 3);          /* the chip and 2 GPCs */
    ck_assert_int_eq(threads, 8);        /* two lanes per SM: two CTAs resident at once */
    ck_assert_int_eq(ctas, 40);
    ck_assert_int_eq(kslice, 1);
    ck_assert_int_eq(launch, 1);
    ck_assert_int_ge(clock, 4);          /* every SM at the first step */
    ck_assert_int_ge(supply, 4);
    ck_assert_int_ge(power, 1);
    ck_assert_int_ge(dvfs, 1);           /* the 2 W cap steps the clock down */
    json_decref(root);
    remove(p);
    free(p);
}
END_TEST

/* A cooperative kernel: one grid-barrier release instant per round. */
START_TEST(test_sim_grid)
{
    cfg c;
    tu_cfg(&c, "configs/teach/tiny4.yaml", NULL);
    char *text = tu_slurp("traces/teach/gridsync.trace", NULL);
    char *p = tu_strf("%s/grid.json", tmpdir);
    sk_error e = {0};
    trace *tr = trace_open_string("gridsync.trace", text, &e);
    ck_assert_ptr_nonnull(tr);
    tlsim *t = tlsim_open(p, 0, &e);
    sim_sink k = tlsim_sink(t);
    sim *run = sim_create(&c, &k, 1, &e);
    ck_assert_int_eq(sim_run(run, tr, &e), 0);
    ck_assert_int_eq(tlsim_close(t, &e), 0);
    sim_destroy(run);
    trace_close(tr);
    free(text);
    json_t *root = json_load_file(p, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *ev = json_object_get(root, "traceEvents");
    int rel = 0;
    for (size_t i = 0; i < json_array_size(ev); i++) {
        json_t *o = json_array_get(ev, i);
        if (!strcmp(json_string_value(json_object_get(o, "name")), "grid barrier release")) {
            rel++;
            /* every warp of the grid: 8 CTAs x 8 warps */
            ck_assert_int_eq((int)json_integer_value(json_object_get(json_object_get(o, "args"), "warps")), 64);
        }
    }
    ck_assert_int_eq(rel, 10);
    json_decref(root);
    remove(p);
    free(p);
}
END_TEST

/* From the command line: `run --timeline` with a bound small enough to
 * hit says so on stderr and in the file; `sweep --timeline` writes one
 * timeline per point beside its results. */
START_TEST(test_cli_timeline)
{
    const char *b = getenv("SKEWSIM_BIN");
    const char *bin = b && *b ? b : "build/skewsim";
    char *cmd = tu_strf("'%s' run -c configs/teach/tiny2.yaml -t traces/teach/waves.trace -o '%s/run' "
                        "--timeline '%s/run.json' --timeline-max-events 4 >/dev/null 2>'%s/err'",
                        bin, tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *ep = tu_strf("%s/err", tmpdir), *err = tu_slurp(ep, NULL);
    char *want = tu_strf("skewsim: run: timeline %s/run.json: stopped at --timeline-max-events 4; ", tmpdir);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "stderr: %s", err);
    ck_assert_ptr_nonnull(strstr(err, " later events left out (raise the bound or run less)\n"));
    free(want);
    free(err);
    free(ep);
    char *jp = tu_strf("%s/run.json", tmpdir);
    json_t *root = json_load_file(jp, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq((int)json_integer_value(json_object_get(json_object_get(root, "otherData"), "events")), 4);
    json_decref(root);
    free(jp);

    cmd = tu_strf("'%s' sweep tests/data/sweep/tiny.yaml -o '%s/sw' -j 2 --timeline >/dev/null", bin, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    jp = tu_strf("%s/sw/points/0000-fma-gto/timeline.json", tmpdir);
    root = json_load_file(jp, 0, NULL);
    ck_assert_msg(root, "%s: no timeline", jp);
    json_t *ev = json_object_get(root, "traceEvents");
    int ctas = 0;
    for (size_t i = 0; i < json_array_size(ev); i++)
        ctas += !strcmp(json_string_value(json_object_get(json_array_get(ev, i), "name")), "CTA 3");
    ck_assert_int_eq(ctas, 1);        /* tiny.yaml's fma trace: 4 CTAs */
    json_decref(root);
    free(jp);
    /* compare --timeline: one per point of its matrix, each a parsable trace */
    cmd = tu_strf("'%s' compare -c configs/teach/tiny4.yaml -t traces/teach/waves.trace --cta-policies "
                  "gigathread,learned --warp-policies gto --silicon uniform --seeds 2 --timeline -o '%s/cmp' "
                  ">/dev/null", bin, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    static const char *const cmp_points[] = {"0000-waves-gigathread_gto_uniform-s1",
                                             "0003-waves-learned_gto_uniform-s2"};
    for (size_t i = 0; i < 2; i++) {
        jp = tu_strf("%s/cmp/runs/points/%s/timeline.json", tmpdir, cmp_points[i]);
        root = json_load_file(jp, 0, NULL);
        ck_assert_msg(root && json_array_size(json_object_get(root, "traceEvents")) > 0, "%s: no timeline", jp);
        json_decref(root);
        free(jp);
    }
    cmd = tu_strf("rm -rf '%s/run' '%s/sw' '%s/cmp' '%s/run.json'", tmpdir, tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}
END_TEST

Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("writer");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_fields);
    tcase_add_test(tc, test_bound);
    tcase_add_test(tc, test_unwritable);
    suite_add_tcase(s, tc);
    tc = tcase_create("sim");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sim_timeline);
    tcase_add_test(tc, test_sim_grid);
    tcase_add_test(tc, test_cli_timeline);
    suite_add_tcase(s, tc);
    return s;
}
