/* report.c -- the HTML report (report.h).
 *
 * One page, built in memory from the files of the directory: no template
 * files, no external fonts, styles or scripts, so it renders the same
 * offline, in a mail attachment or years later.  Figures come from the plot
 * library's table (every kind the directory can feed), inline as SVG.
 *
 * A short inline script marks each figure that the browser actually laid
 * out (a non-empty bounding box with its marks inside) and writes the count
 * on <body>: the end-to-end test loads the page in headless Chromium and
 * reads that count back, so "every figure rendered" is checked by a real
 * browser, not assumed.  Without JavaScript the page loses nothing else.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "skewsim/plot.h"
#include "skewsim/report.h"

/* ---- a growing buffer ------------------------------------------------- */

typedef struct sb {
    char *b;
    size_t n, cap;
} sb;

static void sb_put(sb *s, const char *t, size_t n)
{
    if (s->n + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 1 << 16;
        while (cap < s->n + n + 1)
            cap *= 2;
        s->b = xrealloc(s->b, cap);
        s->cap = cap;
    }
    memcpy(s->b + s->n, t, n);
    s->n += n;
    s->b[s->n] = '\0';
}

static void sb_puts(sb *s, const char *t)
{
    sb_put(s, t, strlen(t));
}

static void sb_printf(sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_put(s, buf, SK_MIN((size_t)n, sizeof buf - 1));
}

/* HTML text: the five special characters escaped. */
static void sb_esc(sb *s, const char *t)
{
    for (; t && *t; t++) {
        switch (*t) {
        case '&': sb_puts(s, "&amp;"); break;
        case '<': sb_puts(s, "&lt;"); break;
        case '>': sb_puts(s, "&gt;"); break;
        case '"': sb_puts(s, "&quot;"); break;
        case '\'': sb_puts(s, "&#39;"); break;
        default: sb_put(s, t, 1);
        }
    }
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static int exists(const char *dir, const char *name)
{
    char *p = join(dir, name);
    int ok = access(p, R_OK) == 0;
    free(p);
    return ok;
}

/* ---- the page's frame ------------------------------------------------- */

static const char STYLE[] =
    "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fafafa}"
    "header{background:#0b3c5d;color:#fff;padding:18px 28px}header h1{margin:0 0 6px;font-size:24px}"
    "header p{margin:2px 0;font-size:13px;opacity:.9}header code{color:#fff}"
    "nav{padding:8px 28px;background:#e8eef3;font-size:14px}nav a{margin-right:16px;color:#0b3c5d}"
    "main{padding:8px 28px 40px;max-width:1100px}h2{border-bottom:2px solid #0b3c5d;padding-bottom:4px;"
    "margin-top:32px}table{border-collapse:collapse;font-size:13px;margin:8px 0}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#eef2f5}"
    "td.l,th.l{text-align:left}figure{margin:18px 0;background:#fff;border:1px solid #ddd;padding:8px;"
    "overflow-x:auto}figure svg{display:block}.wide{overflow-x:auto}figcaption{font-size:13px;color:#444;"
    "margin-top:6px}pre{background:#fff;border:1px solid #ddd;padding:10px;font-size:12px;overflow:auto;"
    "max-height:480px}code{font-size:12px}.note{color:#8a4b00}";

/* Marks every figure the browser laid out; counts them on <body>. */
static const char CHECK_JS[] =
    "(function(){var f=document.querySelectorAll('figure.fig'),ok=0;"
    "for(var i=0;i<f.length;i++){var s=f[i].querySelector('svg');if(!s)continue;"
    "var b=s.getBBox(),r=s.getBoundingClientRect(),"
    "n=s.querySelectorAll('rect,line,polyline,polygon,circle,text').length;"
    "if(b.width>0&&b.height>0&&r.width>0&&r.height>0&&n>=20){ok++;f[i].setAttribute('data-rendered','yes');}}"
    "document.body.setAttribute('data-figures',String(f.length));"
    "document.body.setAttribute('data-figures-rendered',String(ok));})();";

static void page_open(sb *s, const report_opts *o, const char *what)
{
    sb_puts(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>skewsim report: ");
    sb_esc(s, o->dir);
    sb_puts(s, "</title>\n<style>");
    sb_puts(s, STYLE);
    sb_puts(s, "</style>\n</head>\n<body>\n<header><h1>skewsim report: ");
    sb_esc(s, what);
    sb_puts(s, "</h1><p>directory <code>");
    sb_esc(s, o->dir);
    sb_puts(s, "</code> &middot; skewsim ");
    sb_esc(s, o->version ? o->version : "?");
    sb_puts(s, "</p>");
    if (o->cmdline) {
        sb_puts(s, "<p>made by <code>");
        sb_esc(s, o->cmdline);
        sb_puts(s, "</code></p>");
    }
    sb_puts(s, "</header>\n");
}

static void page_close(sb *s)
{
    sb_puts(s, "</main>\n<script>");
    sb_puts(s, CHECK_JS);
    sb_puts(s, "</script>\n</body>\n</html>\n");
}

/* One figure, or a note saying why it is not there. */
static void figure(sb *s, const char *kind, const plot_input *in, const char *caption)
{
    sk_error e = {0};
    size_t len;
    char *text = plot_render(kind, in, &len, &e);
    if (!text) {
        sb_puts(s, "<p class=\"note\">Figure ");
        sb_esc(s, kind);
        sb_puts(s, " not drawn: ");
        sb_esc(s, e.msg);
        sb_puts(s, "</p>\n");
        return;
    }
    sb_printf(s, "<figure class=\"fig\" id=\"fig-%s\">\n", kind);
    sb_put(s, text, len);
    sb_puts(s, "<figcaption>");
    sb_esc(s, caption);
    sb_printf(s, " (<code>skewsim plot %s</code>)</figcaption>\n</figure>\n", kind);
    free(text);
}

static void config_section(sb *s, const cfg *c, const char *label)
{
    sb_puts(s, "<h2 id=\"config\">Effective configuration</h2>\n");
    if (!c) {
        sb_puts(s, "<p class=\"note\">The directory does not record its config (no config.yaml): run "
                   "<code>skewsim report</code> with <code>-c CONFIG</code> and the run's <code>--set</code> "
                   "options to include it and the die figures.</p>\n");
        return;
    }
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (f) {
        cfg_dump(c, f, 0);
        fclose(f);
    }
    sb_puts(s, "<p>");
    if (label) {
        sb_puts(s, "From <code>");
        sb_esc(s, label);
        sb_puts(s, "</code>, with every override applied; ");
    }
    sb_puts(s, "as <code>skewsim config --dump</code> prints it, which <code>-c</code> reads back.</p>\n<pre>");
    sb_esc(s, text ? text : "");
    sb_puts(s, "</pre>\n");
    free(text);
}

/* `link_dir`: the directory the table's "dir" column is relative to; a
 * row whose directory holds report.html links to it. */
static void table_csv(sb *s, const plot_table *t, int maxrows, const char *link_dir)
{
    sb_puts(s, "<div class=\"wide\"><table>\n<tr>");
    for (int c = 0; c < t->ncols; c++) {
        sb_puts(s, "<th>");
        sb_esc(s, t->header[c]);
        sb_puts(s, "</th>");
    }
    sb_puts(s, "</tr>\n");
    for (int r = 0; r < t->nrows && r < maxrows; r++) {
        sb_puts(s, "<tr>");
        for (int c = 0; c < t->ncols; c++) {
            const char *v = t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
            char *end;
            strtod(v, &end);
            sb_puts(s, *v && !*end ? "<td>" : "<td class=\"l\">");
            char *rep = NULL;
            if (link_dir && !strcmp(t->header[c], "dir") && *v) {
                char *d = join(link_dir, v);
                if (exists(d, "report.html"))
                    rep = join(v, "report.html");
                free(d);
            }
            if (rep) {
                sb_puts(s, "<a href=\"");
                sb_esc(s, rep);
                sb_puts(s, "\">");
            }
            sb_esc(s, v);
            sb_puts(s, rep ? "</a></td>" : "</td>");
            free(rep);
        }
        sb_puts(s, "</tr>\n");
    }
    sb_puts(s, "</table></div>\n");
    if (t->nrows > maxrows)
        sb_printf(s, "<p class=\"note\">%d more rows in the file.</p>\n", t->nrows - maxrows);
}

/* ---- a run ------------------------------------------------------------ */

/* A sweep point's `run` command line, rebuilt from its point.json into
 * *cmd (nothing when DIR has none). */
static void point_cmdline(const char *dir, const char *cfg_label, sb *cmd)
{
    char *path = join(dir, "point.json");
    json_t *root = json_load_file(path, 0, NULL);
    free(path);
    if (!root)
        return;
    const char *tf = json_string_value(json_object_get(root, "trace_file"));
    const char *cf = json_string_value(json_object_get(root, "config"));
    sb_puts(cmd, "skewsim run -c ");
    sb_puts(cmd, cfg_label ? cfg_label : cf ? cf : "CONFIG");
    sb_puts(cmd, " -t SWEEP_DIR/");
    sb_puts(cmd, tf ? tf : "TRACE");
    sb_puts(cmd, " -o DIR");
    json_t *ov = json_object_get(root, "overrides");
    for (size_t i = 0; i < json_array_size(ov); i++) {
        json_t *kv = json_array_get(ov, i);
        const char *k = json_string_value(json_array_get(kv, 0)), *v = json_string_value(json_array_get(kv, 1));
        if (k && v)
            sb_printf(cmd, " --set %s=%s", k, v);
    }
    json_t *seed = json_object_get(root, "seed");
    if (json_is_integer(seed))
        sb_printf(cmd, " --seed %lld", (long long)json_integer_value(seed));
    json_decref(root);
}

static void run_summary(sb *s, const plot_run *r)
{
    sb_puts(s, "<h2 id=\"summary\">Summary</h2>\n<table>\n");
    sb_printf(s, "<tr><th class=\"l\">chip</th><td class=\"l\">%s, %d SMs</td></tr>\n", r->chip, r->nsms);
    sb_printf(s, "<tr><th class=\"l\">total simulated time</th><td>%.3f ns</td></tr>\n", r->total_ns);
    if (isfinite(r->mean_power_w))
        sb_printf(s, "<tr><th class=\"l\">board power</th><td>mean %.1f W, max %.1f W</td></tr>\n",
                  r->mean_power_w, r->max_power_w);
    double bmin = INFINITY, bmax = -INFINITY, bsum = 0, fmin = INFINITY, fmax = -INFINITY;
    for (int i = 0; i < r->nsms; i++) {
        bmin = SK_MIN(bmin, r->sms[i].busy_frac), bmax = SK_MAX(bmax, r->sms[i].busy_frac);
        bsum += r->sms[i].busy_frac;
        fmin = SK_MIN(fmin, r->sms[i].mean_mhz), fmax = SK_MAX(fmax, r->sms[i].mean_mhz);
    }
    if (r->nsms > 0) {
        sb_printf(s, "<tr><th class=\"l\">SM busy (a CTA resident)</th><td>min %.1f %%, mean %.1f %%, max "
                  "%.1f %%</td></tr>\n", 100 * bmin, 100 * bsum / r->nsms, 100 * bmax);
        sb_printf(s, "<tr><th class=\"l\">SM mean clocks</th><td>%.1f to %.1f MHz</td></tr>\n", fmin, fmax);
    }
    sb_puts(s, "</table>\n<table>\n<tr><th>kernel</th><th class=\"l\">name</th><th>CTAs</th>"
               "<th>launch (ns)</th><th>span (ns)</th><th>time (ns)</th></tr>\n");
    for (int k = 0; k < r->nkernels; k++) {
        const plot_kernel *q = &r->kernels[k];
        sb_printf(s, "<tr><td>%d</td><td class=\"l\">", k);
        sb_esc(s, q->name);
        sb_printf(s, "</td><td>%d</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n", q->ctas, q->launch_ns,
                  q->span_ns, q->time_ns);
    }
    sb_puts(s, "</table>\n");
}

static void run_sms(sb *s, const plot_run *r)
{
    sb_puts(s, "<h2 id=\"sms\">Per-SM results</h2>\n<details><summary>one row per SM (summary.json sms[], "
               "temperatures from epochs.csv)</summary>\n<table>\n<tr><th>SM</th><th>GPC</th><th>CTAs</th>"
               "<th>busy</th><th>mean MHz</th><th>min MHz</th><th>max MHz</th><th>lowest mV</th>"
               "<th>hottest &deg;C</th></tr>\n");
    for (int i = 0; i < r->nsms; i++) {
        const plot_sm *m = &r->sms[i];
        sb_printf(s, "<tr><td>%d</td><td>%d</td><td>%d</td><td>%.3f</td><td>%.1f</td><td>%.0f</td>"
                  "<td>%.0f</td><td>%.1f</td><td>", m->id, m->gpc, m->ctas, m->busy_frac, m->mean_mhz,
                  m->min_mhz, m->max_mhz, m->vdd_min_mv);
        if (isfinite(m->temp_max_c))
            sb_printf(s, "%.2f", m->temp_max_c);
        sb_puts(s, "</td></tr>\n");
    }
    sb_puts(s, "</table>\n</details>\n");
}

static int render_run(sb *s, const report_opts *o, sk_error *e)
{
    plot_run r;
    int rc = plot_run_load(&r, o->dir, e);
    if (rc)
        return rc;
    cfg c;
    int have = 0;
    const char *label = o->cfg_label;
    if (o->cfg) {
        c = *o->cfg;
        have = 1;
    } else if (exists(o->dir, "config.yaml")) {
        char *p = join(o->dir, "config.yaml");
        cfg_defaults(&c);
        rc = cfg_load_file(&c, p, e);
        if (!rc)
            rc = cfg_validate(&c, e);
        free(p);
        if (rc)
            goto out;
        have = 1;
        label = "DIR/config.yaml";
    }
    if (have && (rc = plot_point_apply(o->dir, &c, e)) < 0)
        goto out;
    rc = 0;
    sb cmd = {0};
    point_cmdline(o->dir, label, &cmd);

    char what[160];
    snprintf(what, sizeof what, "a run of %d kernel%s on %s", r.nkernels, r.nkernels == 1 ? "" : "s", r.chip);
    page_open(s, o, what);
    sb_puts(s, "<nav><a href=\"#summary\">summary</a><a href=\"#figures\">figures</a><a href=\"#sms\">per SM</a>"
               "<a href=\"#config\">config</a><a href=\"#provenance\">provenance</a></nav>\n<main>\n");
    run_summary(s, &r);
    sb_puts(s, "<h2 id=\"figures\">Figures</h2>\n");
    plot_input in = {.run = &r, .cfg = have ? &c : NULL, .label = o->dir};
    figure(s, "gantt", &in, "CTAs on each SM over time: waves, occupancy and the tail.");
    figure(s, "clock", &in, "Each SM's clock and supply over the run.");
    figure(s, "power", &in, "The SMs' power and temperatures over the run.");
    if (have) {
        figure(s, "die-mhz", &in, "Mean clock of each SM on the die floorplan.");
        figure(s, "die-busy", &in, "Busy fraction of each SM on the die.");
        figure(s, "die-ctas", &in, "CTAs each SM ran.");
        figure(s, "die-vdd", &in, "Lowest supply voltage of each SM: the IR drop across the die.");
        figure(s, "die-temp", &in, "Hottest temperature of each SM.");
    } else {
        sb_puts(s, "<p class=\"note\">No die figures: they need the chip config (see below).</p>\n");
    }
    run_sms(s, &r);
    config_section(s, have ? &c : NULL, label);
    sb_puts(s, "<h2 id=\"provenance\">Provenance</h2>\n<table>\n");
    if (cmd.b) {
        sb_puts(s, "<tr><th class=\"l\">the run (a sweep point; its point.json)</th><td class=\"l\"><code>");
        sb_esc(s, cmd.b);
        sb_puts(s, "</code></td></tr>\n");
    }
    if (exists(o->dir, "timeline.json"))
        sb_puts(s, "<tr><th class=\"l\">timeline</th><td class=\"l\"><a href=\"timeline.json\">timeline.json</a> "
                   "(Chrome trace-event JSON: open it in ui.perfetto.dev or chrome://tracing)</td></tr>\n");
    sb_puts(s, "<tr><th class=\"l\">this report</th><td class=\"l\"><code>");
    sb_esc(s, o->cmdline ? o->cmdline : "");
    sb_puts(s, "</code></td></tr>\n<tr><th class=\"l\">skewsim version</th><td class=\"l\">");
    sb_esc(s, o->version ? o->version : "?");
    sb_puts(s, "</td></tr>\n</table>\n");
    free(cmd.b);
    page_close(s);
out:
    plot_run_free(&r);
    return rc;
}

/* ---- a sweep ---------------------------------------------------------- */

static int render_sweep(sb *s, const report_opts *o, sk_error *e)
{
    plot_sweep sw;
    int rc = plot_sweep_load(&sw, o->dir, e);
    if (rc)
        return rc;
    plot_table t;
    char *path = join(o->dir, "sweep.csv");
    rc = plot_table_load(&t, path, e);
    free(path);
    if (rc) {
        plot_sweep_free(&sw);
        return rc;
    }
    int ok = 0;
    for (int i = 0; i < sw.npts; i++)
        ok += !strcmp(sw.pts[i].status, "ok");
    char what[96];
    snprintf(what, sizeof what, "a sweep of %d points", sw.npts);
    page_open(s, o, what);
    sb_puts(s, "<nav><a href=\"#summary\">summary</a><a href=\"#figures\">figures</a>"
               "<a href=\"#points\">points</a><a href=\"#config\">config</a>"
               "<a href=\"#provenance\">provenance</a></nav>\n<main>\n");
    sb_printf(s, "<h2 id=\"summary\">Summary</h2>\n<p>%d points, %d finished (status ok). Each point is a "
                 "<code>skewsim run</code> directory under <code>points/</code>; "
                 "<code>skewsim report DIR/points/NNNN-...</code> reports one.</p>\n", sw.npts, ok);
    sb_puts(s, "<h2 id=\"figures\">Figures</h2>\n");
    plot_input in = {.sweep = &sw, .label = o->dir};
    figure(s, "kernel-times", &in, "Kernel time by case across seeds.");
    sb_puts(s, "<h2 id=\"points\">Points (sweep.csv)</h2>\n");
    table_csv(s, &t, 2000, o->dir);
    config_section(s, o->cfg, o->cfg_label);
    sb_puts(s, "<h2 id=\"provenance\">Provenance</h2>\n<table>\n<tr><th class=\"l\">this report</th>"
               "<td class=\"l\"><code>");
    sb_esc(s, o->cmdline ? o->cmdline : "");
    sb_puts(s, "</code></td></tr>\n<tr><th class=\"l\">skewsim version</th><td class=\"l\">");
    sb_esc(s, o->version ? o->version : "?");
    sb_puts(s, "</td></tr>\n</table>\n");
    page_close(s);
    plot_table_free(&t);
    plot_sweep_free(&sw);
    return 0;
}

char *report_render(const report_opts *o, size_t *len, sk_error *e)
{
    sb s = {0};
    int rc;
    if (exists(o->dir, "summary.json"))
        rc = render_run(&s, o, e);
    else if (exists(o->dir, "sweep.csv"))
        rc = render_sweep(&s, o, e);
    else
        rc = sk_errorf(e, SK_EIO, "%s: neither a run directory (summary.json) nor a sweep directory "
                       "(sweep.csv)", o->dir);
    if (rc) {
        free(s.b);
        return NULL;
    }
    if (len)
        *len = s.n;
    return s.b;
}
