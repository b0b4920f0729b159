/* dispatch_static_weights.c -- static per-SM weights from a speed map.
 *
 * The map is what a driver could hold as a binning table, measured once:
 * either the file dispatch.weights_file (CSV `sm,weight`, one row per SM,
 * each weight > 0, only their ratios matter), or, when that key is empty,
 * each SM's clock when the first kernel launches, as the silicon model
 * sets it (silicon.preset: uniform, skewed, or a file of per-SM fmax
 * scales).  The next CTA goes to the SM with room whose (n_i + 1) / w_i is
 * smallest (n_i its resident CTAs, w_i its weight), ties to the lower id.
 * Unlike clock_aware it never looks at the clocks again, so it does not
 * follow DVFS, and it never holds a CTA back. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/sim.h"

typedef struct sw_state {
    double *w;                /* per SM: its weight */
    int have;                 /* w is set (from the file, or at the first launch) */
} sw_state;

static void *sw_create(const sim *s)
{
    sw_state *st = xcalloc(1, sizeof *st);
    st->w = xcalloc((size_t)s->nsms, sizeof *st->w);
    return st;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int dispatch_static_weights_load(sim *s, sk_error *e)
{
    const char *path = s->c.dispatch_weights_file;
    if (s->disp.ops != &dispatch_static_weights || path[0] == '\0')
        return 0;
    sw_state *st = s->disp.st;
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open: %s (dispatch.weights_file)", path, strerror(errno));
    int n = s->nsms, *line_of = xcalloc((size_t)n, sizeof *line_of);
    char buf[256];
    int line = 0, rc = 0, header = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: line longer than %zu characters", path, line,
                           sizeof buf - 2);
            break;
        }
        char *t = trim(buf);
        if (*t == '\0' || *t == '#')
            continue;
        if (!header) {
            if (strcmp(t, "sm,weight") != 0)
                rc = sk_errorf(e, SK_ECONFIG, "%s:%d: header '%.60s': expected 'sm,weight'", path, line, t);
            header = 1;
            continue;
        }
        char *comma = strchr(t, ',');
        if (!comma || strchr(comma + 1, ',')) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: '%.60s': expected 'SM,WEIGHT'", path, line, t);
            break;
        }
        *comma = '\0';
        char *a = trim(t), *b = trim(comma + 1), *end;
        errno = 0;
        long id = strtol(a, &end, 10);
        if (*a == '\0' || *end != '\0' || errno != 0 || id < 0 || id >= n) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: sm '%.20s': expected an SM id in 0..%d", path, line, a, n - 1);
            break;
        }
        if (line_of[id]) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: sm %ld: a second row (the first is at line %d)", path, line,
                           id, line_of[id]);
            break;
        }
        errno = 0;
        double v = strtod(b, &end);
        /* v == v: not NaN; the bound keeps (n + 1) * w far from overflow */
        if (*b == '\0' || *end != '\0' || errno != 0 || !(v == v) || v <= 0 || v > 1e12) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: weight '%.20s': expected a number above 0 and at most 1e12",
                           path, line, b);
            break;
        }
        line_of[id] = line;
        st->w[id] = v;
    }
    if (rc == 0 && ferror(f))
        rc = sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
    if (rc == 0 && !header)
        rc = sk_errorf(e, SK_ECONFIG, "%s: no header: expected 'sm,weight'", path);
    for (int i = 0; rc == 0 && i < n; i++)
        if (!line_of[i])
            rc = sk_errorf(e, SK_ECONFIG, "%s: sm %d has no row: expected one row for each of the %d SMs", path,
                           i, n);
    free(line_of);
    fclose(f);
    if (rc == 0)
        st->have = 1;
    return rc;
}

/* Without a file the map is read once, at the first launch: the silicon
 * model has set the clocks by then (sim_create makes the dispatcher
 * first). */
static void sw_kernel_start(void *p, const sim *s)
{
    sw_state *st = p;
    if (st->have)
        return;
    st->have = 1;
    for (int i = 0; i < s->nsms; i++)
        st->w[i] = SK_MAX(s->sms[i].mhz, 1);
}

static void sw_destroy(void *p)
{
    sw_state *st = p;
    if (st)
        free(st->w);
    free(st);
}

static int sw_pick(void *p, const sim *s, const cta_need *need)
{
    const sw_state *st = p;
    int best = -1;
    for (int i = 0; i < s->nsms; i++) {
        if (!sm_fits(s, &s->sms[i], need))
            continue;
        /* (n_i + 1) / w_i < (n_b + 1) / w_b, cross-multiplied (exact for
         * MHz weights: integers far below 2^53) */
        if (best < 0 || (double)(s->sms[i].used_ctas + 1) * st->w[best] <
                            (double)(s->sms[best].used_ctas + 1) * st->w[i])
            best = i;
    }
    return best;
}

const dispatch_ops dispatch_static_weights = {
    .name = "static_weights",
    .create = sw_create,
    .destroy = sw_destroy,
    .kernel_start = sw_kernel_start,
    .pick = sw_pick,
};
