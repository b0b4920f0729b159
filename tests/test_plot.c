/* test_plot.c -- the figures (src/plot, `skewsim plot`):
 *
 *  - the SVG writer's escaping, the tick and colour helpers against values
 *    worked out by hand;
 *  - the run and sweep readers: a malformed line is refused with its
 *    file:line, a quoted CSV field with a comma reads back whole;
 *  - every figure kind, drawn by the binary from a real run (the four-SM
 *    teaching chip with skewed silicon and short DVFS epochs, so there is
 *    something to see) or sweep, is byte-identical when drawn twice, and
 *    renders with rsvg-convert (librsvg2-bin; `make check` installs it as
 *    root, and its absence FAILS the test) to a PNG that a small decoder
 *    here reads back: it must not be blank (enough non-white pixels and
 *    distinct colours) and must hold the colour of its data marks (the top
 *    of the viridis scale on a heatmap, the first category colour on a
 *    chart), so a figure that lost its data but kept its axes fails.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <zlib.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/plot.h"

#define TINY4 "configs/teach/tiny4.yaml"

/* ------------------------------------------------------- unit checks */

START_TEST(test_escape)
{
    svg *s = svg_create(10, 10, NULL);
    svg_text(s, 0, 0, 10, "start", 0, 0, NULL, "a<b & \"c\" 'd'>\x01");
    char *t = svg_finish(s, NULL);
    ck_assert_ptr_nonnull(strstr(t, ">a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;</text>"));
    ck_assert_ptr_null(strchr(t, '\x01'));
    free(t);
}
END_TEST

START_TEST(test_ticks)
{
    double t[32], step;
    int n = plot_ticks(0, 10, 5, t, 32, &step);
    ck_assert_int_eq(n, 6);
    ck_assert(step == 2 && t[0] == 0 && t[5] == 10);
    n = plot_ticks(965.0, 966.5, 5, t, 32, &step);
    ck_assert(step == 0.5 && n == 4 && t[0] == 965 && t[3] == 966.5);
    n = plot_ticks(-0.3, 0.3, 4, t, 32, &step);   /* a tick at 0, never "-0" */
    char b[32];
    int zero = 0;
    for (int i = 0; i < n; i++) {
        plot_fmt_tick(b, sizeof b, t[i], step);
        zero += !strcmp(b, "0.0");
        ck_assert_str_ne(b, "-0.0");
    }
    ck_assert_int_eq(zero, 1);
    n = plot_ticks(7, 7, 5, t, 32, &step);        /* degenerate range: one tick */
    ck_assert(n == 1 && t[0] == 7);
    n = plot_ticks(0, 1e6, 5, t, 3, &step);       /* never more than max */
    ck_assert_int_le(n, 3);
    double lo = 965.2, hi = 966.4;
    plot_nice_range(&lo, &hi, 5);
    ck_assert(lo <= 965.2 && hi >= 966.4 && hi - lo <= 2);
    lo = hi = 5;
    plot_nice_range(&lo, &hi, 5);
    ck_assert(lo < 5 && hi > 5);
    const char *u;
    ck_assert(plot_time_unit(900, &u) == 1 && !strcmp(u, "ns"));
    ck_assert(plot_time_unit(4e3, &u) == 1e3);
    ck_assert(plot_time_unit(3e6, &u) == 1e6 && !strcmp(u, "ms"));
}
END_TEST

START_TEST(test_colours)
{
    char c[8];
    plot_viridis(0, c);
    ck_assert_str_eq(c, "#440154");
    plot_viridis(1, c);
    ck_assert_str_eq(c, "#fde725");
    plot_viridis(NAN, c);
    ck_assert_str_eq(c, "#440154");
    plot_viridis(0.5, c);
    ck_assert_str_eq(c, "#21918c");
    plot_tint("#0072b2", 1, c);
    ck_assert_str_eq(c, "#ffffff");
    plot_tint("#0072b2", 0, c);
    ck_assert_str_eq(c, "#0072b2");
    ck_assert_str_eq(plot_category(8), plot_category(0));
}
END_TEST

START_TEST(test_kinds_table)
{
    size_t n;
    const plot_kind *k = plot_kinds(&n);
    ck_assert_int_ge(n, 9);
    for (size_t i = 0; i < n; i++) {
        ck_assert_ptr_eq(plot_kind_find(k[i].name), &k[i]);
        ck_assert_ptr_nonnull(k[i].draw);
        ck_assert(strlen(k[i].help) > 10);
    }
    sk_error e = {0};
    plot_input in = {0};
    ck_assert_ptr_null(plot_render("pie", &in, NULL, &e));
    ck_assert_int_eq(e.code, SK_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown kind 'pie': expected one of die-mhz,"));
    sk_error e2 = {0};
    ck_assert_ptr_null(plot_render("gantt", &in, NULL, &e2));
    ck_assert_str_eq(e2.msg, "plot gantt: needs a run directory");
}
END_TEST

/* ------------------------------------------------------ the readers */

static char tmpdir[128];

static void setup(void)
{
    tu_mkdtemp(tmpdir, sizeof tmpdir, "plot");
}

static void teardown(void)
{
    tu_rmdir(tmpdir);
}

static void put(const char *name, const char *text)
{
    char *p = tu_strf("%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    free(p);
}

#define SUMMARY2                                                                          \
    "{\"config\": \"t\", \"total_ns\": 10, \"chip\": {\"mean_power_w\": 1, \"max_power_w\": 2},\n" \
    " \"kernels\": [{\"name\": \"k\", \"launch_ns\": 0, \"span_ns\": 8, \"time_ns\": 10, \"ctas\": 2}],\n" \
    " \"sms\": [{\"id\": 0, \"ctas\": 1, \"busy_frac\": 0.5, \"mean_mhz\": 1000},\n"               \
    "         {\"id\": 1, \"ctas\": 1, \"busy_frac\": 0.25, \"mean_mhz\": 900}]}\n"

START_TEST(test_run_reader)
{
    put("summary.json", SUMMARY2);
    put("ctas.csv", "kernel,cta,sm,start_ns,end_ns,cycles\n0,0,0,0.000,8.000,8\n0,1,1,1.000,5.000,4\n");
    put("epochs.csv", "t_ns,sm,mhz,vdd_mv,power_w,temp_c\n10,0,1000,900,1.5,40\n10,1,900,890,1.0,41.5\n"
                      "20,1,900,890,1.0,39\n");
    plot_run r;
    sk_error e = {0};
    ck_assert_int_eq(plot_run_load(&r, tmpdir, &e), 0);
    ck_assert_int_eq(r.nsms, 2);
    ck_assert_int_eq((int)r.nctas, 2);
    ck_assert_int_eq((int)r.nepochs, 3);
    ck_assert(r.sms[1].mean_mhz == 900 && r.sms[1].busy_frac == 0.25);
    ck_assert(r.sms[1].temp_max_c == 41.5 && r.sms[1].temp_last_c == 39);
    ck_assert(r.ctas[1].start_ns == 1 && r.ctas[1].cycles == 4);
    plot_run_free(&r);

    /* A CTA on an SM the summary does not have: refused at its line. */
    put("ctas.csv", "kernel,cta,sm,start_ns,end_ns,cycles\n0,0,0,0,8,8\n0,1,7,1,5,4\n");
    sk_error e2 = {0};
    ck_assert_int_eq(plot_run_load(&r, tmpdir, &e2), SK_ETRACE);
    char *want = tu_strf("%s/ctas.csv:3: CTA on SM 7 of kernel 0: the summary has 2 SMs, 1 kernels", tmpdir);
    ck_assert_str_eq(e2.msg, want);
    free(want);
    put("ctas.csv", "kernel,cta,sm,start_ns,end_ns,cycles\n0,0,0,zero,8,8\n");
    sk_error e3 = {0};
    ck_assert_int_eq(plot_run_load(&r, tmpdir, &e3), SK_ETRACE);
    ck_assert_ptr_nonnull(strstr(e3.msg, "ctas.csv:2: start_ns: bad value 'zero': expected a number"));
    put("ctas.csv", "kernel,cta,sm,start_ns,end_ns\n");
    sk_error e4 = {0};
    ck_assert_int_eq(plot_run_load(&r, tmpdir, &e4), SK_ETRACE);
    ck_assert_ptr_nonnull(strstr(e4.msg, "ctas.csv:1: no column 'cycles' in the header"));
    put("summary.json", "{\"total_ns\": 1,");
    sk_error e5 = {0};
    ck_assert_int_eq(plot_run_load(&r, tmpdir, &e5), SK_ETRACE);
    ck_assert_ptr_nonnull(strstr(e5.msg, "summary.json:1:"));
    char *none = tu_strf("%s/none", tmpdir);
    sk_error e6 = {0};
    ck_assert_int_eq(plot_run_load(&r, none, &e6), SK_EIO);
    free(none);
}
END_TEST

START_TEST(test_sweep_reader)
{
    put("sweep.csv", "index,trace,case,sm.warp_policy,seed,status,time_ns,span_ns,mean_mhz,min_mhz,"
                     "mean_power_w,energy_j,dir,message\n"
                     "0,fma,a/b,gto,1,ok,7159.601,116.667,1979.999,1980,88.770,0.000636,points/0,\n"
                     "1,fma,a/b,lrr,1,failed,,,,,,,points/1,\"x, \"\"y\"\"\"\n");
    plot_sweep sw;
    sk_error e = {0};
    ck_assert_int_eq(plot_sweep_load(&sw, tmpdir, &e), 0);
    ck_assert_int_eq(sw.npts, 2);
    ck_assert_str_eq(sw.pts[0].group, "a/b/gto");
    ck_assert(sw.pts[0].time_ns == 7159.601);
    ck_assert(isnan(sw.pts[1].time_ns));
    ck_assert_str_eq(sw.pts[1].status, "failed");
    plot_sweep_free(&sw);
    put("sweep.csv", "index,trace,case,seed,status,time_ns,span_ns,mean_mhz,min_mhz,mean_power_w,energy_j,dir,"
                     "message\n0,fma,,1,ok,7,1,1,1,1,1,p,\"open\n");
    sk_error e2 = {0};
    ck_assert_int_eq(plot_sweep_load(&sw, tmpdir, &e2), SK_ETRACE);
    ck_assert_ptr_nonnull(strstr(e2.msg, "sweep.csv:2: "));
}
END_TEST

/* ------------------------------------------- PNG: a decoder just for this */

typedef struct png {
    unsigned w, h;
    uint32_t *px;               /* 0xRRGGBB, alpha composited on white */
} png;

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* 8-bit RGB or RGBA, not interlaced: what rsvg-convert writes. */
static void png_read(png *img, const char *path)
{
    size_t len;
    unsigned char *f = (unsigned char *)tu_slurp(path, &len);
    ck_assert_msg(len > 8 && !memcmp(f, "\x89PNG\r\n\x1a\n", 8), "%s: not a PNG", path);
    unsigned char *idat = NULL;
    size_t nidat = 0, pos = 8;
    int depth = 0, ctype = -1, interlace = 0;
    while (pos + 12 <= len) {
        uint32_t n = be32(f + pos);
        const unsigned char *type = f + pos + 4, *data = f + pos + 8;
        ck_assert_msg(pos + 12 + n <= len, "%s: truncated chunk", path);
        if (!memcmp(type, "IHDR", 4)) {
            img->w = be32(data);
            img->h = be32(data + 4);
            depth = data[8];
            ctype = data[9];
            interlace = data[12];
        } else if (!memcmp(type, "IDAT", 4)) {
            idat = xrealloc(idat, nidat + n);
            memcpy(idat + nidat, data, n);
            nidat += n;
        }
        pos += 12 + n;
    }
    ck_assert_msg(depth == 8 && (ctype == 2 || ctype == 6) && !interlace, "%s: depth %d type %d", path, depth,
                  ctype);
    unsigned bpp = ctype == 6 ? 4 : 3;
    size_t stride = (size_t)img->w * bpp, rawn = (stride + 1) * img->h;
    unsigned char *raw = xmalloc(rawn);
    uLongf got = (uLongf)rawn;
    ck_assert_int_eq(uncompress(raw, &got, idat, (uLong)nidat), Z_OK);
    ck_assert_int_eq((int)got, (int)rawn);
    img->px = xcalloc((size_t)img->w * img->h, sizeof *img->px);
    unsigned char *prev = xcalloc(stride, 1);
    for (unsigned y = 0; y < img->h; y++) {
        unsigned char *row = raw + y * (stride + 1) + 1;
        int filter = row[-1];
        for (size_t i = 0; i < stride; i++) {
            int a = i >= bpp ? row[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            int v = row[i];
            switch (filter) {
            case 0: break;
            case 1: v += a; break;
            case 2: v += b; break;
            case 3: v += (a + b) / 2; break;
            case 4: v += paeth(a, b, c); break;
            default: ck_abort_msg("%s: filter %d", path, filter);
            }
            row[i] = (unsigned char)v;
        }
        for (unsigned x = 0; x < img->w; x++) {
            const unsigned char *p = row + x * bpp;
            unsigned al = bpp == 4 ? p[3] : 255, rgb[3];
            for (int k = 0; k < 3; k++)
                rgb[k] = (p[k] * al + 255 * (255 - al) + 127) / 255;
            img->px[(size_t)y * img->w + x] = rgb[0] << 16 | rgb[1] << 8 | rgb[2];
        }
        memcpy(prev, row, stride);
    }
    free(prev);
    free(raw);
    free(idat);
    free(f);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------ figures, end to end */

static const char *bin(void)
{
    const char *b = getenv("SKEWSIM_BIN");
    return b && *b ? b : "build/skewsim";
}

static int sh(const char *cmd)
{
    int st = system(cmd);
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static void check_png(const char *kind, const char *svg1, const char *pngp, uint32_t mark);

/* Draw `kind` from `dir` into NAME.svg twice (byte-identical), render it
 * to NAME.png and check the picture; `mark` is a colour its data must
 * paint (0xRRGGBB). */
static void figure(const char *kind, const char *dir, const char *extra, uint32_t mark)
{
    char *svg1 = tu_strf("%s/%s.svg", tmpdir, kind), *svg2 = tu_strf("%s/%s-2.svg", tmpdir, kind);
    char *pngp = tu_strf("%s/%s.png", tmpdir, kind);
    char *cmd = tu_strf("'%s' plot %s '%s' %s -o '%s' && '%s' plot %s '%s' %s -o '%s'", bin(), kind, dir, extra,
                        svg1, bin(), kind, dir, extra, svg2);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    size_t n1, n2;
    char *a = tu_slurp(svg1, &n1), *b = tu_slurp(svg2, &n2);
    ck_assert_msg(n1 == n2 && !memcmp(a, b, n1), "plot %s: two drawings differ", kind);
    ck_assert_msg(!strncmp(a, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39), "plot %s: not SVG", kind);
    free(a);
    free(b);
    check_png(kind, svg1, pngp, mark);
    remove(svg1);
    remove(svg2);
    free(svg1);
    free(svg2);
    free(pngp);
}

/* Render svg1 to pngp with rsvg-convert and check the picture: not blank,
 * enough colours, `mark` (0xRRGGBB) painted by its data. */
static void check_png(const char *kind, const char *svg1, const char *pngp, uint32_t mark)
{
    char *cmd = tu_strf("rsvg-convert -o '%s' '%s'", pngp, svg1);
    ck_assert_msg(sh(cmd) == 0, "%s failed: is the SVG valid?", cmd);
    free(cmd);
    png img;
    png_read(&img, pngp);
    size_t np = (size_t)img.w * img.h, ink = 0, marked = 0;
    for (size_t i = 0; i < np; i++) {
        ink += img.px[i] != 0xffffff;
        marked += img.px[i] == mark;
    }
    qsort(img.px, np, sizeof *img.px, cmp_u32);
    size_t distinct = 1;
    for (size_t i = 1; i < np; i++)
        distinct += img.px[i] != img.px[i - 1];
    ck_assert_msg(img.w >= 600 && img.h >= 150, "plot %s: %ux%u px", kind, img.w, img.h);
    ck_assert_msg(ink * 100 >= np * 3, "plot %s: blank: %zu of %zu pixels not white", kind, ink, np);
    ck_assert_msg(distinct >= 16, "plot %s: only %zu colours", kind, distinct);
    ck_assert_msg(marked >= 30, "plot %s: %zu pixels of its data colour #%06x", kind, marked, (unsigned)mark);
    free(img.px);
    remove(pngp);
}

/* A kernel-times subtitle says the axis leaves 0 out only when no tick
 * reads 0. */
static void axis_claim_agrees(const char *text)
{
    int claims = strstr(text, "does not start at 0") != NULL;
    int zero = strstr(text, "fill=\"#222222\">0</text>") != NULL;
    ck_assert_msg(claims != zero, "kernel-times: the subtitle says the axis %s at 0, a tick reads 0: %s",
                  claims ? "does not start" : "starts", zero ? "yes" : "no");
}

START_TEST(test_figures_render)
{
    ck_assert_msg(sh("command -v rsvg-convert >/dev/null 2>&1") == 0,
                  "rsvg-convert not found: install librsvg2-bin (make check does, as root)");
    /* A run worth looking at: five and a half waves on four SMs of unequal speed
     * whose per-SM power managers step every microsecond. */
    char *cmd = tu_strf("'%s' gen fma --iters 64 --block 256 --grid 22 -o '%s/t.trace' && "
                        "'%s' run -c " TINY4 " -t '%s/t.trace' -o '%s/run' --set silicon.preset=skewed "
                        "--set variation.vth_sigma_permille=250 --set dvfs.policy=per_sm "
                        "--set dvfs.epoch_ns=1000 --seed 2 >/dev/null",
                        bin(), tmpdir, bin(), tmpdir, tmpdir);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    char *run = tu_strf("%s/run", tmpdir), *sw = tu_strf("%s/sweep", tmpdir);
    static const char *const die[] = {"die-mhz", "die-vdd", "die-temp", "die-busy", "die-ctas"};
    for (size_t i = 0; i < SK_ARRAY_LEN(die); i++)
        figure(die[i], run, "-c " TINY4, 0xfde725);
    figure("gantt", run, "", 0x0072b2);
    figure("clock", run, "", 0x0072b2);
    figure("power", run, "", 0x0072b2);
    cmd = tu_strf("'%s' sweep tests/data/plot/sweep.yaml -o '%s' -j 2 >/dev/null", bin(), sw);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    figure("kernel-times", sw, "", 0x0072b2);
    /* kernel times by policy across seeds, straight from a compare directory */
    char *cmp = tu_strf("%s/compare", tmpdir);
    cmd = tu_strf("'%s' compare -c " TINY4 " -t '%s/t.trace' --cta-policies gigathread,clock_aware "
                  "--warp-policies gto --silicon uniform,skewed --seeds 3 -j 2 -o '%s' >/dev/null",
                  bin(), tmpdir, cmp);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    figure("kernel-times", cmp, "", 0x0072b2);
    char *ksvg = tu_strf("%s/compare-times.svg", tmpdir);
    cmd = tu_strf("'%s' plot kernel-times '%s' -o '%s'", bin(), cmp, ksvg);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    char *ktext = tu_slurp(ksvg, NULL);
    ck_assert_msg(strstr(ktext, "clock_aware/gto/skewed") && strstr(ktext, "3 seeds each"),
                  "kernel-times of a compare directory lacks its combinations or seeds");
    axis_claim_agrees(ktext);
    free(ktext);
    free(ksvg);
    /* two points 100 and 900 us: the axis runs from 0, and must not say not */
    ksvg = tu_strf("%s/wide-times.svg", tmpdir);
    cmd = tu_strf("mkdir -p '%s/wide' && printf '%%s\\n' "
                  "'index,trace,case,seed,status,time_ns,span_ns,mean_mhz,min_mhz,mean_power_w,energy_j,dir,message' "
                  "'0,t,a,1,ok,100000,90000,1980,1980,300,0.01,points/0000,' "
                  "'1,t,b,1,ok,900000,890000,1980,1980,300,0.09,points/0001,' > '%s/wide/sweep.csv' && "
                  "'%s' plot kernel-times '%s/wide' -o '%s'",
                  tmpdir, tmpdir, bin(), tmpdir, ksvg);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    ktext = tu_slurp(ksvg, NULL);
    axis_claim_agrees(ktext);
    free(ktext);
    free(ksvg);
    cmd = tu_strf("rm -rf '%s' '%s' '%s' '%s/t.trace' '%s/wide'", run, sw, cmp, tmpdir, tmpdir);
    free(cmp);
    sh(cmd);
    free(cmd);
    free(run);
    free(sw);
}
END_TEST

/* plot_lines(), the line chart of the studies (tools/study): numeric and
 * category x axes, dashed series, and an empty chart refused, not drawn
 * blank.  Drawn twice (byte-identical) and rendered like the kinds above;
 * the mark colour is plot_category(1), which only the second series (the
 * dashed one) paints, so a chart that lost its dashes' data fails. */
START_TEST(test_lines_render)
{
    ck_assert_msg(sh("command -v rsvg-convert >/dev/null 2>&1") == 0,
                  "rsvg-convert not found: install librsvg2-bin (make check does, as root)");
    static const double x[] = {0, 5, 10, 20, 30}, y0[] = {0, 1.5, 3.1, 7.9, 12.4},
                        y1[] = {0, 0.4, NAN, 2.2, 3.0}, y2[] = {2, 2, 2, 2, 2};
    plot_series se[] = {
        {.name = "gigathread, corr", .x = x, .y = y0, .n = 5},
        {.name = "oracle, corr", .x = x, .y = y1, .n = 5, .dash = "7 4"},
        {.name = "one value", .x = x, .y = y2, .n = 1, .color = "#000000"},
    };
    for (int cats = 0; cats < 2; cats++) {
        static const char *const CATS[] = {"a", "b", "c", "d", "e"};
        plot_lines_spec sp = {.title = "lines <test>", .subtitle = "sub", .xlabel = "skew (%)",
                              .ylabel = "excess (%)", .series = se, .nseries = 3, .y_zero = 1,
                              .cats = cats ? CATS : NULL, .ncats = cats ? 5 : 0, .label = "test"};
        sk_error e = {0};
        size_t n1, n2;
        char *a = svg_finish(plot_lines(&sp, &e), &n1), *b = svg_finish(plot_lines(&sp, &e), &n2);
        ck_assert_msg(n1 == n2 && !memcmp(a, b, n1), "plot_lines: two drawings differ");
        ck_assert_ptr_nonnull(strstr(a, "lines &lt;test&gt;"));
        ck_assert_ptr_nonnull(strstr(a, "stroke-dasharray=\"7 4\""));
        ck_assert_ptr_null(strstr(a, "(no data)"));
        char *svgp = tu_strf("%s/lines.svg", tmpdir), *pngp = tu_strf("%s/lines.png", tmpdir);
        sk_error we = {0};
        ck_assert_int_eq(plot_write_file(svgp, a, n1, &we), 0);
        check_png(cats ? "lines (categories)" : "lines", svgp, pngp, 0xe69f00);
        remove(svgp);
        free(svgp);
        free(pngp);
        free(a);
        free(b);
    }
    /* nothing finite to draw: refused with SK_EUSAGE */
    static const double nan1[] = {NAN};
    plot_series none = {.name = "empty", .x = x, .y = nan1, .n = 1};
    plot_lines_spec sp = {.title = "empty", .series = &none, .nseries = 1};
    sk_error e = {0};
    ck_assert_ptr_null(plot_lines(&sp, &e));
    ck_assert_int_eq(e.code, SK_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "no series has a finite point"));
}
END_TEST

/* The HTML report of a run, loaded in headless Chromium (Debian's
 * chromium; `make check` installs it as root, and its absence FAILS the
 * test): the page's own script counts the figures the browser laid out,
 * and --dump-dom reads that count back; a screenshot must not be blank and
 * is kept next to the binary (report-screenshot.png) for a person to look
 * at. */
static char *chromium(const char *flags, const char *page)
{
    char *prof = tu_strf("%s/chromium-profile", tmpdir), *out = tu_strf("%s/chromium.out", tmpdir);
    char *cmd = tu_strf("chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
                        "--no-first-run --user-data-dir='%s' %s 'file://%s' >'%s' 2>/dev/null",
                        prof, flags, page, out);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    char *text = tu_slurp(out, NULL);
    remove(out);
    free(cmd);
    free(prof);
    free(out);
    return text;
}

START_TEST(test_report_in_browser)
{
    ck_assert_msg(sh("command -v chromium >/dev/null 2>&1") == 0,
                  "chromium not found: install Debian's chromium (make check does, as root)");
    char abs[4096];
    ck_assert_ptr_nonnull(realpath(tmpdir, abs));
    char *cmd = tu_strf("'%s' run -c " TINY4 " -t traces/teach/waves.trace -o '%s/run' >/dev/null && "
                        "'%s' report '%s/run' -c " TINY4 " -o '%s/report.html' >/dev/null",
                        bin(), abs, bin(), abs, abs);
    ck_assert_msg(sh(cmd) == 0, "%s failed", cmd);
    free(cmd);
    char *page = tu_strf("%s/report.html", abs);
    char *html = tu_slurp(page, NULL);
    /* Self-contained: nothing to fetch (the SVG namespace URI is a name,
     * never loaded). */
    ck_assert_ptr_null(strstr(html, "href=\"http"));
    ck_assert_ptr_null(strstr(html, " src="));
    ck_assert_ptr_null(strstr(html, "url("));
    ck_assert_ptr_null(strstr(html, "@import"));
    ck_assert_ptr_nonnull(strstr(html, "<h2 id=\"config\">Effective configuration</h2>"));
    ck_assert_ptr_nonnull(strstr(html, "chip:\n  name: &quot;tiny4&quot;"));
    ck_assert_ptr_nonnull(strstr(html, "skewsim report"));
    int figs = 0;
    for (const char *q = html; (q = strstr(q, "<figure class=\"fig\"")) != NULL; q++)
        figs++;
    ck_assert_int_eq(figs, 8);
    free(html);

    char *dom = chromium("--dump-dom", page);
    char *want = tu_strf("data-figures=\"%d\" data-figures-rendered=\"%d\"", figs, figs);
    ck_assert_msg(strstr(dom, want), "Chromium did not render every figure: %.200s",
                  strstr(dom, "<body") ? strstr(dom, "<body") : dom);
    free(want);
    free(dom);

    char *shot = tu_strf("%s/report.png", abs);
    char *flags = tu_strf("--window-size=1200,2400 --screenshot='%s'", shot);
    free(chromium(flags, page));
    png img;
    png_read(&img, shot);
    size_t np = (size_t)img.w * img.h, ink = 0, bar = 0;
    for (size_t i = 0; i < np; i++) {
        ink += img.px[i] != 0xffffff && img.px[i] != 0xfafafa;
        bar += img.px[i] == 0x0072b2;      /* the Gantt's CTA bars */
    }
    ck_assert_msg(ink * 100 >= np * 10, "report screenshot nearly blank: %zu of %zu pixels", ink, np);
    ck_assert_msg(bar >= 200, "report screenshot: %zu pixels of the Gantt's bars", bar);
    free(img.px);
    const char *b = getenv("SKEWSIM_BIN");
    char *keep = tu_strf("cp '%s' \"$(dirname '%s')/report-screenshot.png\"", shot, b && *b ? b : "build/skewsim");
    sh(keep);
    free(keep);
    free(flags);
    free(shot);
    free(page);
    cmd = tu_strf("rm -rf '%s/run' '%s/chromium-profile' '%s/report.png' '%s/report.html'", abs, abs, abs, abs);
    sh(cmd);
    free(cmd);
}
END_TEST

Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("units");
    tcase_add_test(tc, test_escape);
    tcase_add_test(tc, test_ticks);
    tcase_add_test(tc, test_colours);
    tcase_add_test(tc, test_kinds_table);
    suite_add_tcase(s, tc);
    tc = tcase_create("readers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_run_reader);
    tcase_add_test(tc, test_sweep_reader);
    suite_add_tcase(s, tc);
    tc = tcase_create("figures");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_figures_render);
    tcase_add_test(tc, test_lines_render);
    tcase_add_test(tc, test_report_in_browser);
    suite_add_tcase(s, tc);
    return s;
}
