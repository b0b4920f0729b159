/* test_golden.c -- golden results, and the stream/gemm/coop generators.
 *
 * Golden results.  A few small fixed workloads run on configs/h200.yaml, and
 * the two files each run writes (summary.json, ctas.csv) must equal
 * tests/data/golden/NAME/ byte for byte.  They pin the simulated results while
 * the hot path is optimised (docs/performance.md): an optimisation may make
 * the simulator faster, never different.  They were generated with the
 * simulator of the commit before the first optimisation (c43065e); the coop
 * golden again after sync.grid_ns was calibrated (2464 ns), with that same
 * reference simulator and with the optimised one, which agree.
 *
 * When a change is *meant* to change results (a model fix, a new mechanism,
 * a recalibrated config), regenerate them deliberately:
 *
 *     SKEWSIM_REGOLD=1 make check
 *
 * rewrites every golden file (and says so loudly on stderr); review
 * `git diff tests/data/golden` and commit it with the change that explains it.
 * Never regenerate them to make an optimisation pass.
 *
 * The generator tests check what each generator promises in
 * docs/trace-format.md ("Generators"): argument errors, bytes moved, FLOP
 * issued, the shared FMA loop, grid barriers per round.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/gen.h"
#include "skewsim/json.h"
#include "skewsim/results.h"
#include "skewsim/trace.h"

#define GOLDEN_DIR TEST_DATA "/golden"

enum { G_FMA, G_STREAM, G_GEMM, G_COOP };

/* One golden workload: a generator, its arguments, config overrides. */
static const struct golden {
    const char *name;
    int gen;
    long a[4];                /* fma: iters block grid; stream: ctas block bytes;
                                 gemm: m n k; coop: ctas block rounds iters */
    const char *sets[3];      /* --set overrides on configs/h200.yaml */
} goldens[] = {
    {"fma_132x512", G_FMA, {512, 256, 132}, {NULL}},
    {"stream_264x70000", G_STREAM, {264, 256, 70000}, {NULL}},
    {"coop_1056x3x40", G_COOP, {1056, 256, 3, 40}, {NULL}},
    {"gemm_512x512x256", G_GEMM, {512, 512, 256}, {NULL}},
    {"fma_264x256_lrr", G_FMA, {256, 256, 264}, {"sm.warp_policy=lrr", NULL}},
    {"fma_264x256_oldest_rr", G_FMA, {256, 256, 264},
     {"sm.warp_policy=oldest", "dispatch.policy=round_robin", NULL}},
};

static int generate(const struct golden *g, kernel *k, sk_error *e)
{
    switch (g->gen) {
    case G_FMA: return gen_fma(k, g->a[0], g->a[1], g->a[2], e);
    case G_STREAM: return gen_stream(k, g->a[0], g->a[1], g->a[2], e);
    case G_GEMM: return gen_gemm(k, g->a[0], g->a[1], g->a[2], e);
    default: return gen_coop(k, g->a[0], g->a[1], g->a[2], g->a[3], e);
    }
}

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

/* Fail with the first line where `got` and `want` differ. */
static void compare(const char *what, const char *got, size_t ngot, const char *want, size_t nwant)
{
    if (ngot == nwant && memcmp(got, want, ngot) == 0)
        return;
    size_t i = 0, line = 1, bol = 0;
    while (i < ngot && i < nwant && got[i] == want[i]) {
        if (got[i] == '\n') {
            line++;
            bol = i + 1;
        }
        i++;
    }
    int lg = (int)(strcspn(got + bol, "\n")), lw = (int)(strcspn(want + bol, "\n"));
    ck_abort_msg("%s differs from the golden file at line %zu:\n  got:  %.*s\n  want: %.*s\n"
                 "(an optimisation must not change results; if the change is meant to, "
                 "SKEWSIM_REGOLD=1 make check)", what, line, SK_MIN(lg, 200), got + bol,
                 SK_MIN(lw, 200), want + bol);
}

START_TEST(test_golden)
{
    const struct golden *g = &goldens[_i];
    char dir[256], path[512];
    tu_mkdtemp(dir, sizeof dir, "golden");

    kernel k;
    sk_error e = {0};
    ck_assert_msg(generate(g, &k, &e) == 0, "%s", e.msg);
    snprintf(path, sizeof path, "%s/k.trace", dir);
    ck_assert_msg(trace_write_kernel(path, &k, 0, &e) == 0, "%s", e.msg);
    kernel_free(&k);

    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    for (int i = 0; g->sets[i]; i++)
        ck_assert_msg(cfg_set(&c, g->sets[i], &e) == 0, "%s", e.msg);
    ck_assert_msg(cfg_validate(&c, &e) == 0, "%s", e.msg);

    trace *tr = trace_open(path, &e);
    ck_assert_msg(tr != NULL, "%s", e.msg);
    snprintf(path, sizeof path, "%s/out", dir);
    results *r = results_open(path, &e);
    ck_assert_msg(r != NULL, "%s", e.msg);
    sim_sink obs = results_sink(r);
    sim *s = sim_create(&c, &obs, 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_msg(sim_run(s, tr, &e) == 0, "%s: %s", g->name, e.msg);
    ck_assert_msg(results_finish(r, s, NULL, &e) == 0, "%s", e.msg);
    sim_destroy(s);
    results_free(r);
    trace_close(tr);

    const char *regold = getenv("SKEWSIM_REGOLD");
    static const char *const files[] = {"summary.json", "ctas.csv"};
    for (size_t f = 0; f < SK_ARRAY_LEN(files); f++) {
        char out[600], gold[600];
        snprintf(out, sizeof out, "%s/out/%s", dir, files[f]);
        snprintf(gold, sizeof gold, "%s/%s/%s", GOLDEN_DIR, g->name, files[f]);
        size_t ngot, nwant;
        char *got = tu_slurp(out, &ngot);
        if (regold && strcmp(regold, "1") == 0) {
            mkdir(GOLDEN_DIR, 0777);
            snprintf(path, sizeof path, "%s/%s", GOLDEN_DIR, g->name);
            mkdir(path, 0777);
            write_file(gold, got, ngot);
            fprintf(stderr, "\n*** SKEWSIM_REGOLD=1: REWROTE %s -- review `git diff %s` before "
                    "committing: golden results changed on purpose only ***\n", gold, GOLDEN_DIR);
        } else {
            ck_assert_msg(tu_exists(gold), "%s: missing (SKEWSIM_REGOLD=1 make check creates it)", gold);
            char *want = tu_slurp(gold, &nwant);
            char what[700];
            snprintf(what, sizeof what, "%s/%s", g->name, files[f]);
            compare(what, got, ngot, want, nwant);
            free(want);
        }
        free(got);
    }
    snprintf(path, sizeof path, "%s/out", dir);
    tu_rmdir(path);
    tu_rmdir(dir);
}
END_TEST

/* ---- generators --------------------------------------------------------- */

/* Dynamic count, for warp `wi` of a CTA with work 1, of the instructions
 * whose mnemonic starts with `prefix` (NULL: all); *bytes (if not NULL)
 * gets the bytes those instructions move, as the SM model counts a warp
 * access of a coalesced pattern (32 x bytes per thread). */
static uint64_t count(const program *p, int wi, const char *prefix, uint64_t *bytes)
{
    uint64_t mult[PROG_MAX_LOOP_DEPTH + 2] = {1};
    int depth = 0;
    uint64_t n = 0, b = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const instr *in = &p->code[i];
        switch (in->kind) {
        case IK_LOOP:
            mult[depth + 1] = mult[depth] * in->arg;
            depth++;
            break;
        case IK_ENDLOOP:
            depth--;
            break;
        case IK_IFWARP:
            if ((int)in->arg != wi)
                i = in->jump - 1;
            break;
        case IK_ENDIF:
            break;
        default:
            if (!prefix || strncmp(p->opnames[in->opcode], prefix, strlen(prefix)) == 0) {
                n += mult[depth];
                if (in->pattern == MP_COALESCED && (in->kind == IK_LD_GLOBAL || in->kind == IK_ST_GLOBAL))
                    b += mult[depth] * 32u * in->bytes;
            }
        }
    }
    if (bytes)
        *bytes = b;
    return n;
}

/* Every argument error is one line naming the option, the value and the
 * range, with SK_EUSAGE, and leaves *k empty. */
START_TEST(test_gen_args)
{
    static const struct { int gen; long a[4]; const char *msg; } bad[] = {
        {G_STREAM, {0, 256, 16}, "gen stream: ctas 0: expected 1..4294967296 CTAs"},
        {G_STREAM, {4294967297L, 256, 16}, "gen stream: ctas 4294967297: expected 1..4294967296 CTAs"},
        {G_STREAM, {1, 0, 16}, "gen stream: block 0: expected 1..1024 threads"},
        {G_STREAM, {1, 1025, 16}, "gen stream: block 1025: expected 1..1024 threads"},
        {G_STREAM, {1, 256, 0},
         "gen stream: bytes-per-cta 0: expected a multiple of 16 in 16..1099511627776"},
        {G_STREAM, {1, 256, 100},
         "gen stream: bytes-per-cta 100: expected a multiple of 16 in 16..1099511627776"},
        {G_STREAM, {1, 256, 1099511627792L},
         "gen stream: bytes-per-cta 1099511627792: expected a multiple of 16 in 16..1099511627776"},
        {G_STREAM, {1, 1, 1099511627776L},
         "gen stream: bytes-per-cta 1099511627776: expected at most 68719476720 with block 1 (loop count)"},
        {G_STREAM, {1, 1, 68719476736L},
         "gen stream: bytes-per-cta 68719476736: expected at most 68719476720 with block 1 (loop count)"},
        {G_GEMM, {0, 256, 64}, "gen gemm: m 0: expected a multiple of 128 in 128..16777216"},
        {G_GEMM, {200, 256, 64}, "gen gemm: m 200: expected a multiple of 128 in 128..16777216"},
        {G_GEMM, {128, 128, 64}, "gen gemm: n 128: expected a multiple of 256 in 256..16777216"},
        {G_GEMM, {128, 33554432L, 64}, "gen gemm: n 33554432: expected a multiple of 256 in 256..16777216"},
        {G_GEMM, {128, 256, 32}, "gen gemm: k 32: expected a multiple of 64 in 64..16777216"},
        {G_GEMM, {128, 256, -64}, "gen gemm: k -64: expected a multiple of 64 in 64..16777216"},
        {G_COOP, {0, 256, 1, 1}, "gen coop: ctas 0: expected 1..4294967296 CTAs"},
        {G_COOP, {1, 2000, 1, 1}, "gen coop: block 2000: expected 1..1024 threads"},
        {G_COOP, {1, 256, -1, 1}, "gen coop: rounds -1: expected 0..2147483647"},
        {G_COOP, {1, 256, 1, 2147483648L}, "gen coop: iters 2147483648: expected 0..2147483647"},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(bad); i++) {
        struct golden g = {"bad", bad[i].gen, {bad[i].a[0], bad[i].a[1], bad[i].a[2], bad[i].a[3]}, {NULL}};
        kernel k;
        sk_error e = {0};
        ck_assert_int_eq(generate(&g, &k, &e), SK_EUSAGE);
        ck_assert_str_eq(e.msg, bad[i].msg);
        ck_assert_ptr_null(k.progs);
    }
}
END_TEST

/* gen stream moves bytes_per_cta, rounded up to whole warp accesses: each
 * warp loads ceil((per - 32 w) / block) float4s for its first thread. */
START_TEST(test_gen_stream_bytes)
{
    static const struct { long block, bytes; } cases[] = {
        {256, 1016800}, {256, 70000}, {256, 4096}, {128, 16}, {96, 16 * 1000}, {1024, 16 * 4096 * 5 + 16},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(cases); i++) {
        kernel k;
        sk_error e = {0};
        ck_assert_msg(gen_stream(&k, 7, cases[i].block, cases[i].bytes, &e) == 0, "%s", e.msg);
        ck_assert_str_eq(k.name, "mem_kernel");
        ck_assert_uint_eq(k.grid, 7);
        const program *p = &k.progs[0];
        uint64_t per = (uint64_t)cases[i].bytes / 16, total = 0;
        long warps = (cases[i].block + 31) / 32;
        for (long w = 0; w < warps; w++) {
            uint64_t b, first = (uint64_t)w * 32;
            uint64_t loads = count(p, (int)w, "LDG.E.128", &b);
            /* ceil((per - first) / block) = q + (first < r) for first < block */
            uint64_t want = per / (uint64_t)cases[i].block + (first < per % (uint64_t)cases[i].block);
            ck_assert_uint_eq(loads, want);
            ck_assert_uint_eq(b, loads * 512);
            total += b;
            /* every load is summed: 4 FADDs per float4 */
            ck_assert_uint_eq(count(p, (int)w, "FADD", NULL), 4 * loads);
            /* the listing's dynamic path (capture_cu.sass.gz, mem_kernel):
             * 0x000-0x120 always (19), 0x130-0x150 once with work (3),
             * 0x160-0x250 a load (16), 0x260-0x290 always (4), 0x2a0-0x390
             * warp 0 (16), 0x3a0-0x3c0 always (3) */
            ck_assert_uint_eq(count(p, (int)w, NULL, NULL),
                              19 + (loads ? 3 + 16 * loads : 0) + 4 + (w == 0 ? 16 : 0) + 3);
        }
        ck_assert_uint_ge(total, (uint64_t)cases[i].bytes);
        ck_assert_uint_lt(total, (uint64_t)cases[i].bytes + 512 * (uint64_t)warps);
        ck_assert_uint_eq(count(p, 0, "BAR.SYNC", NULL), 2);
        ck_assert_uint_eq(count(p, 0, "STG", NULL), 5);        /* warp 0's record */
        ck_assert_uint_eq(count(p, 1, "STG", NULL), 0);
        kernel_free(&k);
    }
    /* the loop-count bound's edge (test_gen_args has one step beyond it) */
    kernel k;
    sk_error e = {0};
    ck_assert_msg(gen_stream(&k, 1, 1, 68719476720L, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(count(&k.progs[0], 0, "LDG.E.128", NULL), UINT32_MAX);
    kernel_free(&k);
}
END_TEST

/* gen stream --bytes and gen add follow cap_mem's listings
 * (validation/h200/capture/sass/cap_mem.sass.gz): every warp of every
 * program issues exactly the listing's dynamic path for its element count.
 * stream_kernel: 0x000-0x0f0 once (16), per pass 0x100-0x180 (9), with
 * elements 0x190-0x1a0 (2) and 12 an element, 0x270-0x280 (2); then
 * 0x290-0x2f0 (7), for warp 0 the EXIT at 0x300 that only lanes 1-31
 * take (a NOP) and the record (11), EXIT.  add_kernel: 0x000-0x100 (17),
 * with elements 0x110-0x130 (3) and 17 an element, BSYNC and BAR.SYNC,
 * for warp 0 the EXIT at 0x270 (a NOP) and the record (10), EXIT.  A thread's elements: q = n / T,
 * one more for the first n % T threads (a warp counts when its first
 * thread does). */
START_TEST(test_gen_mem_listings)
{
    static const struct { long ctas, block, bytes, passes; } cases[] = {
        {4, 64, 16 * (3 * 256 + 100), 2},   /* q = 3: more, edge (36 threads), main */
        {8, 128, 16 * 300, 3},              /* q = 0: 2 CTAs more, edge of 44, 5 without work */
        {3, 96, 16 * 3 * 96 * 5, 1},        /* no remainder: main only */
        {2, 32, 16 * 65, 4},                /* q = 1, one thread more */
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(cases); i++)
        for (int add = 0; add < 2; add++) {
            kernel k;
            sk_error e = {0};
            long ctas = cases[i].ctas, block = cases[i].block, passes = add ? 1 : cases[i].passes;
            uint64_t elem = add ? 4 : 16, n = (uint64_t)cases[i].bytes / elem;
            ck_assert_msg((add ? gen_add(&k, ctas, block, cases[i].bytes, &e)
                               : gen_stream_cache(&k, ctas, block, cases[i].bytes, passes, (int)i & 1, &e)) == 0,
                          "%s", e.msg);
            ck_assert_str_eq(k.name, add ? "add_kernel" : "stream_kernel");
            uint64_t T = (uint64_t)ctas * (uint64_t)block, q = n / T, r = n % T;
            ck_assert_uint_eq(k.nprogs, 3);
            for (long c = 0; c < ctas; c++) {
                /* programs main, more, edge (gen_mem.c grid_stride) */
                long full = (long)(r / (uint64_t)block);
                const program *p = &k.progs[c < full ? 1 : c == full && r % (uint64_t)block ? 2 : 0];
                for (long w = 0; w < (block + 31) / 32; w++) {
                    uint64_t first = (uint64_t)c * (uint64_t)block + (uint64_t)w * 32;
                    uint64_t el = q + (first < r), b;
                    uint64_t want = add ? 17 + (el ? 3 + 17 * el : 0) + 2 + (w == 0 ? 1 + 10 : 0) + 1
                                        : 16 + (uint64_t)passes * (9 + (el ? 2 + 12 * el : 0) + 2) + 7 +
                                              (w == 0 ? 1 + 11 : 0) + 1;
                    ck_assert_msg(count(p, (int)w, NULL, NULL) == want, "case %zu %s CTA %ld warp %ld: %llu, want %llu",
                                  i, add ? "add" : "stream", c, w,
                                  (unsigned long long)count(p, (int)w, NULL, NULL), (unsigned long long)want);
                    ck_assert_uint_eq(count(p, (int)w, "LDG", &b), (add ? 2 : 1) * (uint64_t)passes * el);
                    ck_assert_uint_eq(b, (uint64_t)passes * el * (add ? 2 * 128 : 512));
                    ck_assert_uint_eq(count(p, (int)w, "EXIT", NULL), 1);
                }
            }
            kernel_free(&k);
        }
}
END_TEST

/* gen gemm: per CTA 2 x 128 x 256 x K FLOP as HGMMA.64x256x16 at ii=144,
 * issued by the eight consumer warps only; the producer moves at least the
 * compulsory bytes; every warp meets one barrier per k-tile. */
START_TEST(test_gen_gemm)
{
    static const long shapes[][3] = {{8192, 8192, 8192}, {512, 512, 256}, {128, 256, 64}, {384, 768, 192}};
    for (size_t i = 0; i < SK_ARRAY_LEN(shapes); i++) {
        long m = shapes[i][0], n = shapes[i][1], kk = shapes[i][2];
        kernel k;
        sk_error e = {0};
        ck_assert_msg(gen_gemm(&k, m, n, kk, &e) == 0, "%s", e.msg);
        uint64_t grid = (uint64_t)(m / 128) * (uint64_t)(n / 256);
        ck_assert_uint_eq(k.grid, grid);
        ck_assert_uint_eq(k.block_threads, 384);
        const program *p = &k.progs[0];
        uint64_t hgmma = 0;
        for (int w = 0; w < 12; w++) {
            uint64_t h = count(p, w, "HGMMA.64x256x16", NULL);
            ck_assert_uint_eq(h, w < 4 ? 0 : 4 * (uint64_t)(kk / 64));
            hgmma += h;
            ck_assert_uint_eq(count(p, w, "BAR.SYNC", NULL), 1 + (uint64_t)(kk / 64));
        }
        /* each warp's HGMMA is a quarter of 2 x 64 x 256 x 16 FLOP */
        ck_assert_uint_eq(hgmma * (2 * 64 * 256 * 16 / 4), (uint64_t)2 * 128 * 256 * (uint64_t)kk);
        for (uint32_t j = 0; j < p->n; j++)
            if (p->code[j].cls == FU_TENSOR)
                ck_assert_uint_eq(p->code[j].ii, 144);   /* shared memory's pace (gen_gemm.c) */
        uint64_t ld_bytes;
        count(p, 0, "LDG", &ld_bytes);
        uint64_t compulsory = (uint64_t)(m + n) * (uint64_t)kk * 2;  /* A and B once */
        ck_assert_uint_ge(ld_bytes * grid, compulsory);
        ck_assert_uint_le(ld_bytes * grid, compulsory + 512 * grid * (uint64_t)(kk / 64));
        for (int w = 1; w < 12; w++)
            ck_assert_uint_eq(count(p, w, "LDG", NULL), 0);
        /* C, bf16, stored once by the consumers */
        uint64_t st = 0;
        for (int w = 4; w < 12; w++) {
            uint64_t b;
            count(p, w, "STG", &b);
            st += b;
        }
        ck_assert_uint_eq(st, 128 * 256 * 2);
        kernel_free(&k);
    }
}
END_TEST

/* gen coop: the FMA loop is fma_kernel's, once per round, and each round
 * ends in BAR.SYNC and GRID.SYNC. */
START_TEST(test_gen_coop)
{
    kernel k, f;
    sk_error e = {0};
    ck_assert_msg(gen_coop(&k, 1056, 256, 300, 512, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(k.name, "coop_kernel");
    ck_assert_uint_eq(k.grid, 1056);
    const program *p = &k.progs[0];
    for (int w = 0; w < 8; w++) {
        ck_assert_uint_eq(count(p, w, "GRID.SYNC", NULL), 300);
        ck_assert_uint_eq(count(p, w, "BAR.SYNC", NULL), 300);
        ck_assert_uint_eq(count(p, w, "FFMA", NULL), 300 * (4 * 512 + 1));
        ck_assert_uint_eq(count(p, w, "STG", NULL), w == 0 ? 301 : 0);
    }
    /* The unrolled loop body is fma_kernel's, instruction for instruction. */
    ck_assert_msg(gen_fma(&f, 512, 256, 1, &e) == 0, "%s", e.msg);
    const program *q = &f.progs[0];
    uint32_t a = 0, b = 0;
    while (!(p->code[a].kind == IK_LOOP && p->code[a].flags & IF_WORK_SCALED))
        a++;
    while (q->code[b].kind != IK_LOOP)
        b++;
    ck_assert_uint_eq(p->code[a].arg, 64);
    ck_assert_uint_eq(p->code[a].jump - a, q->code[b].jump - b);
    for (uint32_t i = 1; i < q->code[b].jump - b; i++) {
        ck_assert_str_eq(p->opnames[p->code[a + i].opcode], q->opnames[q->code[b + i].opcode]);
        ck_assert_uint_eq(p->code[a + i].stall, q->code[b + i].stall);
    }
    kernel_free(&f);
    kernel_free(&k);
    /* no rounds: just the prologue and the exit */
    ck_assert_int_eq(gen_coop(&k, 1, 32, 0, 7, &e), 0);
    ck_assert_uint_eq(count(&k.progs[0], 0, "GRID.SYNC", NULL), 0);
    kernel_free(&k);
}
END_TEST

/* `gen gemm --repeat 3` writes three identical kernels into one trace. */
START_TEST(test_gen_repeat)
{
    const char *bin = getenv("SKEWSIM_BIN");
    if (!bin)
        bin = "build/skewsim";
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "golden-repeat");
    char *cmd = tu_strf("%s gen gemm --m 256 --n 512 --k 128 --repeat 3 -o %s/g.trace.gz", bin, dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *path = tu_strf("%s/g.trace.gz", dir);
    sk_error e = {0};
    trace *t = trace_open(path, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    int n = 0, r;
    while ((r = trace_next_kernel(t, &k, &e)) == 1) {
        ck_assert_uint_eq(k.grid, 4);
        kernel_free(&k);
        n++;
    }
    ck_assert_msg(r == 0, "%s", e.msg);
    ck_assert_int_eq(n, 3);
    trace_close(t);
    free(path);
    tu_rmdir(dir);
}
END_TEST


/* The pinned JSON format (json.h): fixed-point values come back as their
 * decimal (trailing zeros dropped), a uint64 above INT64_MAX keeps its
 * digits, a string that only looks like the marker stays a string, and a
 * string that is not UTF-8 still dumps. */
START_TEST(test_json_format)
{
    json_t *o = json_object();
    skjson_set(o, "ns", skjson_ns(19651027));
    skjson_set(o, "zero", skjson_ns(0));
    skjson_set(o, "neg", skjson_ns(-1500));
    skjson_set(o, "big", skjson_ns(INT64_C(999999999999999)));
    skjson_set(o, "ratio", skjson_fixed(0.99103049, 6));
    skjson_set(o, "tiny", skjson_fixed(0.0000004, 6));
    skjson_set(o, "inf", skjson_fixed(1.0 / 0.0, 3));
    skjson_set(o, "seed", skjson_u64(UINT64_MAX));
    skjson_set(o, "small", skjson_u64(7));
    skjson_set(o, "fake", skjson_str("\\u0000u64:5"));
    skjson_set(o, "bytes", skjson_str("a\xff" "b"));
    size_t len;
    char *text = skjson_dumps(o, &len);
    json_decref(o);
    ck_assert_uint_eq(len, strlen(text));
    ck_assert_str_eq(text, "{\n"
                           "  \"ns\": 19651.027,\n"
                           "  \"zero\": 0.0,\n"
                           "  \"neg\": -1.5,\n"
                           "  \"big\": 999999999999.999,\n"
                           "  \"ratio\": 0.99103,\n"
                           "  \"tiny\": 0.0,\n"
                           "  \"inf\": null,\n"
                           "  \"seed\": 18446744073709551615,\n"
                           "  \"small\": 7,\n"
                           "  \"fake\": \"\\\\u0000u64:5\",\n"
                           "  \"bytes\": \"a?b\"\n"
                           "}\n");
    /* read back: ns to the exact picosecond */
    json_error_t err;
    json_t *back = json_loads(text, JSON_DECODE_INT_AS_REAL, &err);
    ck_assert_ptr_nonnull(back);
    ck_assert_int_eq(skjson_ns_ps(back, "ns"), 19651027);
    ck_assert_int_eq(skjson_ns_ps(back, "big"), INT64_C(999999999999999));
    ck_assert_int_eq(skjson_ns_ps(back, "neg"), -1500);
    ck_assert_int_eq(skjson_ns_ps(back, "missing"), 0);
    json_decref(back);
    free(text);
}
END_TEST

Suite *golden_suite(void)
{
    Suite *s = suite_create("golden");
    TCase *tc = tcase_create("golden");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_golden, 0, (int)SK_ARRAY_LEN(goldens));
    suite_add_tcase(s, tc);
    TCase *tg = tcase_create("generators");
    tcase_add_test(tg, test_gen_args);
    tcase_add_test(tg, test_gen_stream_bytes);
    tcase_add_test(tg, test_gen_mem_listings);
    tcase_add_test(tg, test_gen_gemm);
    tcase_add_test(tg, test_gen_coop);
    tcase_add_test(tg, test_gen_repeat);
    tcase_add_test(tg, test_json_format);
    suite_add_tcase(s, tg);
    return s;
}
