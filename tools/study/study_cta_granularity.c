/* study_cta_granularity.c -- (d) CTA granularity under skew (docs/experiments/cta_granularity/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "study.h"

static void maps_skew_q(const char *sdir, int quick) { (void)quick; maps_skew(sdir); }

static void report_cta_granularity(const run *r, out *o)
{
    sbuf *t = &o->table;
    sbuf_printf(t, "Constant total work (threads x iterations); trace bB_gG_iI = --block B --grid G "
              "--iters I. Slowdown against the same trace and dispatcher on flat silicon; excess: "
              "over the fluid bound f_top / f_mean.\n\n");
    sbuf_printf(t, "| trace | dispatch | map | span us | slowdown %% | fluid %% | excess %% |\n"
              "|---|---|---|---|---|---|---|\n");
    o->fig = (chart){.title = "CTA granularity at 30 % skew: excess over the fluid bound",
                     .subtitle = "the same total work (threads x iterations) in fewer, larger or more, smaller "
                                 "CTAs; solid: correlated skew, dashed: the same clocks at random",
                     .xlabel = "CTAs per SM (total work constant)", .y_zero = 1, .ylabel = "span over the fluid bound (%)"};
    double best = 1e9, worst = -1e9;
    const char *bestt = "", *worstt = "";
    for (int i = 0; i < r->n; i++) {
        const point *p = &r->p[i];
        char kind[16];
        int skew;
        map_kind(p->axis, kind, sizeof kind, &skew);
        const point *base = flat_base(r, p, 1);
        if (!base)
            die("cta_granularity: no flat_00 point for %s", p->trace);
        double Tf = base->span_ns * base->fmean / p->fmean, ex = pct(p->span_ns, Tf);
        sbuf_printf(t, "| %s | %s | %s_%02d | %.2f | %.2f | %.2f | %.2f |\n", p->trace, p->cas, kind,
                  skew, p->span_ns / 1000, pct(p->span_ns, base->span_ns), pct(base->fmean, p->fmean), ex);
        int B = 0, G = 0, I = 0;
        if (sscanf(p->trace, "b%d_g%d_i%d", &B, &G, &I) == 3 && skew == 30) {
            char nm[64];
            snprintf(nm, sizeof nm, "%s, %s", p->cas, kind);
            series_add(chart_series(&o->fig, nm, strcmp(kind, "rand") == 0), G / 132.0, ex);
            if (strcmp(p->cas, "gigathread") == 0 && strcmp(kind, "corr") == 0) {
                if (ex < best) { best = ex; bestt = p->trace; }
                if (ex > worst) { worst = ex; worstt = p->trace; }
            }
        }
    }
    chart_x_categories(&o->fig);
    sbuf_printf(&o->find, "- At 30 %% correlated skew under gigathread the excess over the fluid "
              "bound ranges from %.1f %% (%s) to %.1f %% (%s).\n", best, bestt, worst, worstt);
    /* absolute spans: the cost of many small CTAs on flat silicon against their skew tolerance */
    for (int k = 0; k < 2; k++) {
        const char *want = k ? "/corr_30" : "/flat_00";
        const point *fast = NULL;
        for (int i = 0; i < r->n; i++)
            if (!strcmp(r->p[i].cas, "gigathread") && strstr(r->p[i].axis, want) &&
                (!fast || r->p[i].span_ns < fast->span_ns))
                fast = &r->p[i];
        if (fast)
            sbuf_printf(&o->find, "- Shortest span under gigathread on %s: %s, %.2f us.\n",
                      k ? "30 % correlated skew" : "flat silicon", fast->trace, fast->span_ns / 1000);
    }
    char v[128];
    snprintf(v, sizeof v, "excess %.1f %% (%s) to %.1f %% (%s)", best, bestt, worst, worstt);
    claim(o, "(d) many small CTAs absorb skew better than few large ones", "none published", v,
          "-", best < worst ? "yes, in the model" : "no");
}



const study study_cta_granularity = {"cta_granularity", maps_skew_q, report_cta_granularity};
