/* fuzz_sweep.c -- libFuzzer target for the sweep spec reader (src/sweep/spec.c).
 *
 * One input is a spec.  Nothing runs and nothing is opened: the spec is
 * parsed from memory (sweep_spec_parse) and its points are checked against
 * the default config.  Properties (a violation aborts, so libFuzzer keeps
 * the input as a crash):
 *  - sweep_spec_parse() returns 0, SK_ECONFIG or SK_ERANGE, and a failure
 *    is one line "fuzz.yaml:LINE:COL: ...";
 *  - an accepted spec has 1..SWEEP_MAX_POINTS points, at least one trace,
 *    every trace exactly one of path/gen, and a gen line that builds;
 *  - points decode to indices in range, distinct points decode to
 *    distinct tuples, point 0 and the last are the first and last tuple;
 *  - each point's directory name is non-empty, starts with its index and
 *    holds only [A-Za-z0-9._-];
 *  - sweep_point_cfg() on the defaults succeeds or fails with one line that
 *    starts "fuzz.yaml:".
 * ASan and UBSan catch the rest.
 *
 * The same file is compiled into `make check` (tests/test_sweep.c includes
 * it with FUZZ_ENTRY renamed) to replay the seed corpus and every crash kept
 * under tests/fuzz/regressions/sweep/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/sweep.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

#define FS_NAME "fuzz.yaml"
#define FS_MAX_POINTS_CHECKED 64

int FUZZ_ENTRY(const uint8_t *data, size_t size);

#define FS_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz_sweep: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            abort();                                                         \
        }                                                                    \
    } while (0)

static void fs_check_error(const sk_error *e, int rc)
{
    FS_CHECK(rc == e->code, "returned %d, recorded %d", rc, e->code);
    FS_CHECK(rc == SK_ECONFIG || rc == SK_ERANGE, "code %d: %s", rc, e->msg);
    FS_CHECK(strncmp(e->msg, FS_NAME ":", strlen(FS_NAME) + 1) == 0, "unpositioned: %s", e->msg);
    FS_CHECK(strchr(e->msg, '\n') == NULL, "message spans lines: %s", e->msg);
}

static void fs_check_point(const sweep_spec *s, size_t i, sweep_point *p)
{
    sweep_point_at(s, i, p);
    FS_CHECK(p->index == i, "index %zu for %zu", p->index, i);
    FS_CHECK(p->trace < s->ntraces, "trace %zu of %zu", p->trace, s->ntraces);
    FS_CHECK(p->kase < (s->ncases ? s->ncases : 1), "case %zu", p->kase);
    FS_CHECK(p->seed < (s->nseeds ? s->nseeds : 1), "seed %zu", p->seed);
    for (size_t a = 0; a < s->naxes; a++)
        FS_CHECK(p->axis[a] < s->axes[a].nvalues, "axis %zu value %zu", a, p->axis[a]);
    char slug[160], num[32];
    sweep_point_slug(s, p, slug, sizeof slug);
    snprintf(num, sizeof num, "%04zu", i);
    FS_CHECK(strncmp(slug, num, strlen(num)) == 0, "slug %s for point %zu", slug, i);
    for (const char *c = slug; *c; c++)
        FS_CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c),
                 "slug %s", slug);
    cfg base, out;
    sk_error e = {0};
    cfg_defaults(&base);
    int rc = sweep_point_cfg(s, p, &base, &out, &e);
    if (rc)
        FS_CHECK(strncmp(e.msg, FS_NAME ":", strlen(FS_NAME) + 1) == 0 && !strchr(e.msg, '\n'),
                 "point %zu: %s", i, e.msg);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    sweep_spec s;
    sk_error e = {0};
    int rc = sweep_spec_parse(&s, FS_NAME, "base", data, size, &e);
    if (rc != 0) {
        fs_check_error(&e, rc);
        sweep_spec_free(&s);
        return 0;
    }
    FS_CHECK(e.code == 0, "success with an error recorded: %s", e.msg);
    FS_CHECK(s.npoints >= 1 && s.npoints <= SWEEP_MAX_POINTS, "%zu points", s.npoints);
    FS_CHECK(s.ntraces >= 1 && s.config && s.config_resolved, "no config or traces");
    for (size_t i = 0; i < s.ntraces; i++) {
        const sweep_trace *t = &s.traces[i];
        FS_CHECK(!t->path != !t->gen, "trace %s: path and gen", t->name);
        if (t->gen) {
            kernel k;
            long repeat;
            sk_error ge = {0};
            FS_CHECK(sweep_gen_build(&s, t, &k, &repeat, &ge) == 0, "gen %s: %s", t->gen, ge.msg);
            kernel_free(&k);
        }
    }
    size_t n = SK_MIN(s.npoints, (size_t)FS_MAX_POINTS_CHECKED);
    sweep_point prev, p;
    for (size_t i = 0; i < n; i++) {
        fs_check_point(&s, i, &p);
        if (i > 0)
            FS_CHECK(memcmp(&p.trace, &prev.trace, sizeof p - offsetof(sweep_point, trace)) != 0,
                     "points %zu and %zu decode alike", i - 1, i);
        prev = p;
    }
    fs_check_point(&s, s.npoints - 1, &p);
    FS_CHECK(p.trace == s.ntraces - 1 && p.kase == (s.ncases ? s.ncases - 1 : 0), "last point");
    sweep_spec_free(&s);
    return 0;
}
