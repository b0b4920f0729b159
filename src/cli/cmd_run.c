/* cmd_run.c -- `skewsim run -c CONFIG -t TRACE -o DIR [--seed N] [--set k=v]`:
 * the arguments, then run_trace() (src/out/run.c), the same run that
 * `sweep` forks for every point. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "skewsim/run.h"
#include "skewsim/explain.h"
#include "skewsim/timeline.h"

/* --timeline-max-events when not given: about 150 MB of JSON, which
 * ui.perfetto.dev still opens in a browser tab. */
#define TIMELINE_MAX_EVENTS 1000000

#define RUN_USAGE "-c CONFIG -t TRACE -o DIR [--seed N] [--set key=value] [--sass LISTING] " \
                  "[--timeline FILE.json [--timeline-max-events N]] [--explain[=dispatch,issue] " \
                  "[--explain-window A:B]]"

int cmd_run(int argc, char **argv)
{
    const char *cpath = NULL, *tpath = NULL, *odir = NULL, *seed = NULL, *sass_path = NULL;
    const char *tl_path = NULL, *tl_max = NULL, *ex_what = NULL, *ex_win = NULL;
    int ex_on = 0;
    tlsim *tl = NULL;
    explain *ex = NULL;
    char **sets = xcalloc((size_t)argc + 1, sizeof *sets);
    int nsets = 0, status = 0;
    sk_error e = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-c") && has)
            cpath = argv[++i];
        else if (!strcmp(a, "-t") && has)
            tpath = argv[++i];
        else if (!strcmp(a, "-o") && has)
            odir = argv[++i];
        else if (!strcmp(a, "--seed") && has)
            seed = argv[++i];
        else if (!strcmp(a, "--sass") && has)
            sass_path = argv[++i];
        else if (!strcmp(a, "--set") && has)
            sets[nsets++] = argv[++i];
        else if (!strcmp(a, "--timeline") && has)
            tl_path = argv[++i];
        else if (!strcmp(a, "--timeline-max-events") && has)
            tl_max = argv[++i];
        else if (!strcmp(a, "--explain"))
            ex_on = 1;
        else if (!strncmp(a, "--explain=", 10)) {
            ex_on = 1;
            ex_what = a + 10;
        } else if (!strcmp(a, "--explain-window") && has)
            ex_win = argv[++i];
        else {
            /* "missing value" only for an option that takes one: a trailing
             * "--fast" is unknown, not short of a value. */
            int takes = !strcmp(a, "-c") || !strcmp(a, "-t") || !strcmp(a, "-o") || !strcmp(a, "--seed") ||
                        !strcmp(a, "--set") || !strcmp(a, "--sass") || !strcmp(a, "--timeline") ||
                        !strcmp(a, "--timeline-max-events") || !strcmp(a, "--explain-window");
            sk_errorf(&e, SK_EUSAGE, "run: %s: %s: expected " RUN_USAGE, a, takes ? "missing value" : "unknown option");
            goto fail;
        }
    }
    if (!cpath || !tpath || !odir) {
        sk_errorf(&e, SK_EUSAGE, "run: missing %s: expected -c CONFIG -t TRACE -o DIR",
                  !cpath ? "-c CONFIG" : !tpath ? "-t TRACE" : "-o DIR");
        goto fail;
    }
    cfg c;
    if (cli_load_config(&c, cpath, sets, nsets, &e) < 0)
        goto fail;
    if (seed) {
        uint64_t v;
        if (cli_parse_u64(seed, UINT64_MAX, &v) < 0) {
            sk_errorf(&e, SK_EUSAGE, "run: --seed: %s: expected an integer in 0..18446744073709551615", seed);
            goto fail;
        }
        c.seed = v;
    }
    uint64_t max_events = TIMELINE_MAX_EVENTS;
    if (tl_max && (cli_parse_u64(tl_max, UINT64_MAX, &max_events) < 0 || max_events == 0)) {
        sk_errorf(&e, SK_EUSAGE, "run: --timeline-max-events: %s: expected an integer in 1..18446744073709551615",
                  tl_max);
        goto fail;
    }
    if (tl_max && !tl_path) {
        sk_errorf(&e, SK_EUSAGE, "run: --timeline-max-events: expected --timeline FILE.json with it");
        goto fail;
    }
    sim_sink extra[2];
    int nextra = 0;
    if (ex_win && !ex_on) {
        sk_errorf(&e, SK_EUSAGE, "run: --explain-window: expected --explain with it");
        goto fail;
    }
    if (ex_on) {
        unsigned what;
        ps_t from = 0, to = PS_MAX;
        if (explain_parse_what(ex_what, &what, &e) < 0 || (ex_win && explain_parse_window(ex_win, &from, &to, &e) < 0))
            goto fail;
        ex = explain_create(stdout, what, from, to);
        extra[nextra++] = explain_sink(ex);
    }
    if (tl_path) {
        /* The timeline may go into DIR itself (-o DIR --timeline DIR/t.json):
         * make DIR now, as the results would a moment later. */
        mkdir(odir, 0777);
        if (!(tl = tlsim_open(tl_path, max_events, &e)))
            goto fail;
        extra[nextra++] = tlsim_sink(tl);
    }
    if (run_trace_with(&c, tpath, sass_path, odir, stdout, extra, nextra, &e) < 0)
        goto fail;
    explain_destroy(ex);
    ex = NULL;
    if (tl) {
        uint64_t dropped = tlsim_dropped(tl);
        int rc = tlsim_close(tl, &e);
        tl = NULL;
        if (rc < 0)
            goto fail;
        if (dropped)
            fprintf(stderr, "skewsim: run: timeline %s: stopped at --timeline-max-events %" PRIu64 "; %" PRIu64
                    " later events left out (raise the bound or run less)\n", tl_path, max_events, dropped);
    }
    free(sets);
    return 0;
fail:
    status = cli_fail(&e);
    tlsim_abort(tl);
    explain_destroy(ex);
    free(sets);
    return status;
}
