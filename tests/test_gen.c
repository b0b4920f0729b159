/* test_gen.c -- the fma_kernel generator (src/trace/gen_fma.c) against the
 * SASS in validation/h200/fma_kernel.sass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/gen.h"
#include "skewsim/sweep.h"
#include "skewsim/trace.h"

/* Dynamic warp-instruction count of fma_kernel, from the SASS (addresses in
 * hex, 16 bytes per instruction):
 *
 *   prologue   0x000-0x110  18   (ends with @!P1 BRA; issued taken or not)
 *   set-up     0x120-0x160   5   iters >= 1
 *   0x170 IADD3              1   iters >= 8
 *   main loop  0x180-0x3b0  36   x iters/8   (HFMA2.MMA, IADD3, ISETP, 32 FFMA, BRA)
 *   0x3c0 @!P1 BRA           1   iters >= 1
 *   0x3d0 MOV                1   iters % 8 != 0
 *   rem. loop  0x3e0-0x440   7   x iters%8   (IADD3, 3 FFMA, ISETP, FFMA, BRA)
 *   epilogue   0x450-0x4b0   7
 *   thread 0   0x4c0-0x5a0  15   warp 0 only
 *   exit       0x5b0-0x5d0   3   (BSYNC, FSETP, @P0 EXIT)
 *
 * iters = 4096: 18 + 5 + 1 + 512*36 + 1 + 7 + 15 + 3 = 18482 for warp 0,
 * 18467 for the other warps.  prog_dynamic_count() counts the ifwarp block,
 * so it returns the warp-0 number. */
#define FMA_4096_WARP0 18482
#define FMA_4096_OTHER 18467

static uint64_t fixed_count(long iters)
{
    uint64_t n = 18 + 7 + 15 + 3;
    if (iters >= 1)
        n += 5 + 1;
    if (iters >= 8)
        n += 1 + 36 * (uint64_t)(iters / 8);
    if (iters % 8)
        n += 1 + 7 * (uint64_t)(iters % 8);
    return n;
}

/* Dynamic count of one opcode (by full mnemonic), and of everything outside
 * ifwarp blocks (what warps other than 0 issue), by walking the program. */
static uint64_t walk(const program *p, const char *only, int skip_ifwarp)
{
    uint64_t mult[PROG_MAX_LOOP_DEPTH + 1] = {1};
    int depth = 0;
    uint64_t n = 0;
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
            if (skip_ifwarp)
                i = in->jump - 1;
            break;
        case IK_ENDIF:
            break;
        default:
            if (!only || strcmp(p->opnames[in->opcode], only) == 0)
                n += mult[depth];
        }
    }
    return n;
}

static const char *op(const program *p, uint32_t i)
{
    return p->opnames[p->code[i].opcode];
}

START_TEST(test_fma_4096)
{
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 4096, 256, 8448, &e), 0);
    ck_assert_str_eq(k.name, "fma_kernel");
    ck_assert_uint_eq(k.grid, 8448);
    ck_assert_uint_eq(k.block_threads, 256);
    ck_assert_uint_eq(k.regs_per_thread, 16);
    ck_assert_uint_eq(k.smem_bytes, 16);
    ck_assert_uint_eq(k.nprogs, 1);
    const program *p = &k.progs[0];
    ck_assert_uint_eq(prog_dynamic_count(p, 1.0), FMA_4096_WARP0);
    ck_assert_uint_eq(walk(p, NULL, 1), FMA_4096_OTHER);
    ck_assert_uint_eq(prog_warp_count(p, 1.0, 0), FMA_4096_WARP0);
    ck_assert_uint_eq(prog_warp_count(p, 1.0, 7), FMA_4096_OTHER);
    ck_assert_uint_eq(fixed_count(4096), FMA_4096_WARP0);
    ck_assert_uint_eq(walk(p, "FFMA", 0), 4 * 4096);
    ck_assert_uint_eq(walk(p, "BAR.SYNC.DEFER_BLOCKING", 0), 2);
    /* work 2 doubles the main loop: 50 fixed + 1024 x 36 */
    ck_assert_uint_eq(prog_dynamic_count(p, 2.0), 50 + 1024 * 36);
    ck_assert_uint_eq(p->nregs, 19);   /* R0-R6, R8-R13, P0-P2, UR4-UR6 */
    kernel_free(&k);
}
END_TEST

/* gen fma --work-mul M --work-mod D (E15's fma_hetero_kernel): read back
 * as `skewsim gen` writes it, CTA i runs work factor 1 + (i x M) mod D,
 * the product in 32-bit unsigned arithmetic as the kernel's blockIdx.x x
 * mul is (the last case wraps), so its main loop runs --iters / 8 x that
 * many times; M 0 is uniform work.  20000 CTAs make a ctas section longer
 * than gzprintf's buffer, which wrote nothing. */
START_TEST(test_fma_work_mix)
{
    static const struct { long mul, mod, grid; } cases[] = {
        {7, 8, 20}, {1, 8, 20}, {0, 8, 20}, {3, 7, 20000}, {65535, 7, 65600},
    };
    for (size_t m = 0; m < SK_ARRAY_LEN(cases); m++) {
        kernel k;
        sk_error e = {0};
        long mul = cases[m].mul, mod = cases[m].mod;
        ck_assert_msg(gen_fma_mix(&k, 64, 32, cases[m].grid, mul, mod, &e) == 0, "%s", e.msg);
        char *text = tu_kernel_text(&k);
        trace *t = trace_open_string("mix.trace", text, &e);
        ck_assert_ptr_nonnull(t);
        ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
        uint64_t base = prog_dynamic_count(&k.progs[0], 1.0), n = 0;
        cta_desc d;
        while (trace_next_cta(t, &d, &e) == 1) {
            double w = 1 + (double)(((uint32_t)d.id * (uint32_t)mul) % (uint32_t)mod);
            ck_assert_msg(d.work == w, "mul %ld CTA %llu: work %g, expected %g", mul, (unsigned long long)d.id,
                          d.work, w);
            ck_assert_uint_eq(prog_dynamic_count(&k.progs[0], d.work), base + (uint64_t)(w - 1) * 8 * 36);
            n++;
        }
        ck_assert_uint_eq(n, (uint64_t)cases[m].grid);
        kernel_free(&k);
        trace_close(t);
        free(text);
    }
}
END_TEST

/* gen empty: cap_launch.cu's empty_kernel, the SASS's LDC and EXIT. */
START_TEST(test_gen_empty)
{
    kernel k;
    sk_error e = {0};
    ck_assert_msg(gen_empty(&k, 64, 3, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(k.grid, 3);
    ck_assert_uint_eq(k.block_threads, 64);
    ck_assert_uint_eq(k.progs[0].n, 2);
    ck_assert_str_eq(op(&k.progs[0], 0), "LDC");
    ck_assert_str_eq(op(&k.progs[0], 1), "EXIT");
    kernel_free(&k);
    ck_assert_int_eq(gen_empty(&k, 0, 1, &e), SK_EUSAGE);
    ck_assert_str_eq(e.msg, "gen empty: block 0: expected 1..1024 threads");
}
END_TEST

/* The SASS control codes, instruction by instruction, for the main loop. */
START_TEST(test_fma_stalls)
{
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 16, 128, 1, &e), 0);
    const program *p = &k.progs[0];
    uint32_t L = 0;
    while (p->code[L].kind != IK_LOOP)
        L++;
    ck_assert_uint_eq(L, 18 + 5 + 1);
    ck_assert_uint_eq(p->code[L].arg, 2);
    ck_assert_uint_eq(p->code[L].flags, IF_WORK_SCALED);
    ck_assert_uint_eq(p->code[L].jump, L + 38);
    ck_assert_str_eq(op(p, L + 1), "HFMA2.MMA");
    ck_assert_uint_eq(p->code[L + 1].stall, 1);
    ck_assert_uint_eq(p->code[L + 1].cls, FU_FP16);
    ck_assert_str_eq(op(p, L + 2), "IADD3");
    ck_assert_uint_eq(p->code[L + 2].stall, 4);
    ck_assert_str_eq(op(p, L + 3), "ISETP.NE.AND");
    ck_assert_uint_eq(p->code[L + 3].stall, 5);
    for (uint32_t i = L + 4; i < L + 36; i++) {
        ck_assert_str_eq(op(p, i), "FFMA");
        ck_assert_uint_eq(p->code[i].stall, 1);
        ck_assert_uint_eq(p->code[i].cls, FU_FP32);
        ck_assert_uint_eq(p->code[i].nsrc, 2);
        /* the multiplier is R0, written by the HFMA2.MMA */
        ck_assert_uint_eq(p->code[i].src[1], p->code[L + 1].dst[0]);
    }
    ck_assert_str_eq(op(p, L + 36), "BRA");
    ck_assert_uint_eq(p->code[L + 36].stall, 6);
    ck_assert_uint_eq(p->code[L + 36].cls, FU_BRANCH);
    /* @P2 BRA reads the P2 the ISETP wrote */
    ck_assert_uint_eq(p->code[L + 36].src[0], p->code[L + 3].dst[0]);
    ck_assert_uint_eq(p->code[L + 37].kind, IK_ENDLOOP);
    ck_assert_uint_eq(p->code[L + 37].arg, L);
    /* prologue: LDC, S2R stall 2, ISETP stall 13 */
    ck_assert_str_eq(op(p, 0), "LDC");
    ck_assert_uint_eq(p->code[0].kind, IK_LD_SHARED);
    ck_assert_uint_eq(p->code[1].stall, 2);
    ck_assert_uint_eq(p->code[2].stall, 13);
    /* the last instruction: @P0 EXIT, stall 5, reading FSETP's P0 */
    const instr *x = &p->code[p->n - 1];
    ck_assert_uint_eq(x->kind, IK_EXIT);
    ck_assert_uint_eq(x->stall, 5);
    ck_assert_uint_eq(x->nsrc, 1);
    ck_assert_uint_eq(x->src[0], p->code[p->n - 2].dst[0]);
    ck_assert_str_eq(op(p, p->n - 2), "FSETP.NEU.AND");
    kernel_free(&k);
}
END_TEST

/* Structure for the branch cases of the SASS. */
static const struct {
    long iters;
    uint32_t nloops;
    uint32_t loop_arg[2];
    uint32_t body[2];       /* issuing entries inside each loop */
    uint64_t count;         /* warp 0 */
} shapes[] = {
    {0, 0, {0, 0}, {0, 0}, 43},                 /* 18 + 7 + 15 + 3 */
    {1, 1, {1, 0}, {7, 0}, 43 + 5 + 1 + 1 + 7},
    {7, 1, {7, 0}, {7, 0}, 43 + 5 + 1 + 1 + 49},
    {8, 1, {1, 0}, {36, 0}, 43 + 5 + 1 + 1 + 36},
    {9, 2, {1, 1}, {36, 7}, 43 + 5 + 1 + 1 + 36 + 1 + 7},
    {4097, 2, {512, 1}, {36, 7}, FMA_4096_WARP0 + 1 + 7},
};

START_TEST(test_fma_shapes)
{
    kernel k;
    sk_error e = {0};
    long iters = shapes[_i].iters;
    ck_assert_int_eq(gen_fma(&k, iters, 256, 1056, &e), 0);
    const program *p = &k.progs[0];
    uint32_t nloops = 0, nifwarp = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const instr *in = &p->code[i];
        if (in->kind == IK_LOOP) {
            ck_assert_uint_lt(nloops, 2);
            ck_assert_uint_eq(in->arg, shapes[_i].loop_arg[nloops]);
            ck_assert_uint_eq(in->flags, IF_WORK_SCALED);
            ck_assert_uint_eq(in->jump - i - 2, shapes[_i].body[nloops]);
            nloops++;
        }
        if (in->kind == IK_IFWARP) {
            nifwarp++;
            ck_assert_uint_eq(in->arg, 0);
            ck_assert_uint_eq(in->jump - i - 2, 15);
            ck_assert_str_eq(op(p, i + 11), "STG.E.64");
        }
    }
    ck_assert_uint_eq(nloops, shapes[_i].nloops);
    ck_assert_uint_eq(nifwarp, 1);
    ck_assert_uint_eq(prog_dynamic_count(p, 1.0), shapes[_i].count);
    ck_assert_uint_eq(prog_dynamic_count(p, 1.0), fixed_count(iters));
    ck_assert_uint_eq(walk(p, NULL, 1), shapes[_i].count - 15);
    ck_assert_uint_eq(walk(p, "FFMA", 0), 4 * (uint64_t)iters);
    kernel_free(&k);
}
END_TEST

START_TEST(test_fma_args)
{
    static const struct { long iters, block, grid; const char *msg; } bad[] = {
        {-1, 256, 1, "gen fma: iters -1: expected 0..2147483647"},
        {2147483648L, 256, 1, "gen fma: iters 2147483648: expected 0..2147483647"},
        {1, 0, 1, "gen fma: block 0: expected 1..1024 threads"},
        {1, 1025, 1, "gen fma: block 1025: expected 1..1024 threads"},
        {1, 32, 0, "gen fma: grid 0: expected 1..4294967296 CTAs"},
        {1, 32, 4294967297L, "gen fma: grid 4294967297: expected 1..4294967296 CTAs"},
    };
    kernel k;
    for (size_t i = 0; i < SK_ARRAY_LEN(bad); i++) {
        sk_error e = {0};
        ck_assert_int_eq(gen_fma(&k, bad[i].iters, bad[i].block, bad[i].grid, &e), SK_EUSAGE);
        ck_assert_str_eq(e.msg, bad[i].msg);
        ck_assert_ptr_null(k.progs);
    }
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 2147483647L, 1024, 4294967296L, &e), 0);
    ck_assert_uint_eq(k.grid, UINT64_C(4294967296));
    ck_assert_uint_eq(k.block_threads, 1024);
    kernel_free(&k);
    ck_assert_int_eq(gen_fma(&k, 5, 1, 1, &e), 0);      /* one thread: one warp */
    kernel_free(&k);
}
END_TEST

static long written_size(const kernel *k, int gz)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/skewsim-test-gen-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    sk_error e = {0};
    ck_assert_msg(trace_write_kernel(path, k, gz, &e) == 0, "%s", e.msg);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    unlink(path);
    return (long)st.st_size;
}

/* Loops stay loops: 8448 CTAs x 4096 iterations is a few KB. */
START_TEST(test_fma_trace_size)
{
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 4096, 256, 8448, &e), 0);
    long plain = written_size(&k, 0), gz = written_size(&k, 1);
    ck_assert_int_lt(plain, 8192);
    ck_assert_int_lt(gz, plain);
    ck_assert_int_lt(gz, 2048);
    kernel_free(&k);
}
END_TEST

/* traces/fma_1056.trace is what `skewsim gen fma --grid 1056` writes. */
START_TEST(test_fma_shipped_trace)
{
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 4096, 256, 1056, &e), 0);
    char path[64];
    snprintf(path, sizeof path, "/tmp/skewsim-test-gen-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), 0);
    kernel_free(&k);
    FILE *a = fopen(path, "rb"), *b = fopen("traces/fma_1056.trace", "rb");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    int ca, cb;
    do {
        ca = fgetc(a);
        cb = fgetc(b);
        ck_assert_int_eq(ca, cb);
    } while (ca != EOF);
    fclose(a);
    fclose(b);
    unlink(path);
}
END_TEST


/* The generator table (src/trace/gen.c) is the one place of each default
 * and bound: every option just outside its bounds is refused with the
 * table's message, the writer builds with the table's defaults, a sweep
 * spec's bare "fma" builds the same kernel as gen_fma() with them, and
 * --help prints the defaults from the rows. */
/* gen rw: each mix's loop reads its arrays and writes one (E21's
 * kernels), 16 B lanes or 4 B; an element size gen_rw cannot write is
 * refused with its message. */
START_TEST(test_gen_rw)
{
    static const int want_ld[] = {1, 0, 1, 2, 3}, want_st[] = {0, 1, 1, 1, 1};
    sk_error e = {0, ""};
    for (int mix = 0; mix < 5; mix++)
        for (int elem = 4; elem <= 16; elem += 12) {
            kernel k;
            ck_assert_msg(gen_rw(&k, 1056, 256, 1 << 24, mix, elem, &e) == 0, "%s", e.msg);
            /* every thread runs the loop (2^24 / elem elements over 270336
             * threads): program main's instructions, lanes of elem bytes */
            const program *p = &k.progs[0];
            int ld = 0, st = 0;
            for (uint32_t i = 0; i < p->n; i++) {
                const instr *in = &p->code[i];
                if (in->kind == IK_LD_GLOBAL || in->kind == IK_ST_GLOBAL) {
                    ck_assert_uint_eq(in->bytes, (unsigned)elem);
                    ld += in->kind == IK_LD_GLOBAL;
                    st += in->kind == IK_ST_GLOBAL;
                }
            }
            ck_assert_int_eq(ld, want_ld[mix]);
            ck_assert_int_eq(st, want_st[mix]);
            kernel_free(&k);
        }
    kernel k;
    ck_assert_int_eq(gen_rw(&k, 1056, 256, 1 << 24, 1, 8, &e), SK_EUSAGE);
    ck_assert_str_eq(e.msg, "gen rw: elem 8: expected 4 (fp32) or 16 (float4)");
    e = (sk_error){0, ""};
    ck_assert_int_eq(gen_rw(&k, 1056, 256, 1000, 0, 16, &e), SK_EUSAGE);
    ck_assert_str_eq(e.msg, "gen rw: bytes 1000: expected a multiple of the element (16)");
}
END_TEST

START_TEST(test_gen_table)
{
    ck_assert_uint_eq(gen_nworkloads, 11);
    char list[128];
    ck_assert_str_eq(gen_workload_list(list, sizeof list), "fma, stream, gemm, coop, chase, add, unit, rw, empty, lds or worder");
    for (size_t i = 0; i < gen_nworkloads; i++) {
        const gen_workload *w = &gen_workloads[i];
        ck_assert_ptr_eq(gen_find(w->name), w);
        long v[GEN_MAX_OPTS];
        for (int j = 0; j < w->nopts; j++) {
            const gen_opt *o = &w->opts[j];
            ck_assert_int_eq(gen_find_opt(w, o->flag, strlen(o->flag)), j);
            for (int side = 0; side < 2; side++) {
                gen_defaults(w, v);
                v[j] = side ? o->max + 1 : o->min - 1;
                sk_error e = {0};
                ck_assert_int_eq(gen_check(w, v, 0, w->nopts, &e), SK_EUSAGE);
                char *want = tu_strf("gen %s: %s %ld: expected ", w->name, o->flag + 2, v[j]);
                ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s: %s", want, e.msg);
                free(want);
            }
            if (o->multiple > 1) {
                gen_defaults(w, v);
                v[j] = o->min + 1;
                sk_error e = {0};
                ck_assert_int_eq(gen_check(w, v, 0, w->nopts, &e), SK_EUSAGE);
            }
        }
        gen_defaults(w, v);
        sk_error e = {0};
        ck_assert_int_eq(gen_check(w, v, 0, w->nopts, &e), 0);
    }
    ck_assert_ptr_null(gen_find("fmaa"));
    ck_assert_int_eq(gen_find_opt(gen_find("fma"), "--iters=5", 7), 0);
    ck_assert_int_eq(gen_find_opt(gen_find("fma"), "--iter", 6), -1);

    /* a spec's `gen: fma` takes the table's defaults, as gen_fma() is given them */
    static const char yaml[] = "config: x.yaml\ntraces:\n  t: {gen: \"fma --grid 8\"}\n";
    sweep_spec sp;
    sk_error e = {0};
    ck_assert_msg(sweep_spec_parse(&sp, "s.yaml", NULL, (const unsigned char *)yaml, strlen(yaml), &e) == 0,
                  "%s", e.msg);
    kernel a, b;
    long repeat = 0;
    const gen_workload *fma = gen_find("fma");
    ck_assert_int_eq(sweep_gen_build(&sp, &sp.traces[0], &a, &repeat, &e), 0);
    ck_assert_int_eq(repeat, 1);
    ck_assert_int_eq(gen_fma(&b, fma->opts[0].def, fma->opts[1].def, 8, &e), 0);
    ck_assert_uint_eq(a.grid, 8);
    ck_assert_uint_eq(a.block_threads, (uint64_t)fma->opts[1].def);
    ck_assert_uint_eq(prog_dynamic_count(&a.progs[0], 1.0), prog_dynamic_count(&b.progs[0], 1.0));
    kernel_free(&a);
    kernel_free(&b);
    sweep_spec_free(&sp);

    /* --help: each default as the table has it */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gen_help_workloads(f);
    fclose(f);
    for (size_t i = 0; i < gen_nworkloads; i++)
        for (int j = 0; j < gen_workloads[i].nopts; j++) {
            const gen_opt *o = &gen_workloads[i].opts[j];
            if (!o->help || !strstr(o->help, "%D"))
                continue;
            char *want = tu_strf("(default %ld", o->def);
            ck_assert_msg(strstr(text, want) != NULL, "%s: %s missing from --help", o->flag, want);
            free(want);
        }
    ck_assert_ptr_nonnull(strstr(text, "  --m M, --n N, --k K multiples of 128, 256 and 64 (default 8192 each)\n"));
    free(text);
}
END_TEST

/* gen gemm --data: random by default (E16's GEMMs ran on torch.randn's
 * inputs), quiet the SGEMM on zeros (E32); the same instructions either
 * way, only the kernel's data key differs. */
START_TEST(test_gemm_data)
{
    const gen_workload *w = gen_find("gemm");
    ck_assert_ptr_nonnull(w);
    int od = gen_find_opt(w, "--data", 6), ot = gen_find_opt(w, "--dtype", 7);
    ck_assert_int_ge(od, 0);
    ck_assert_int_ge(ot, 0);
    long v[GEN_MAX_OPTS], repeat = 0;
    gen_defaults(w, v);
    v[0] = 256, v[1] = 256, v[2] = 64;
    v[ot] = GEN_GEMM_FP32;
    sk_error e = {0};
    kernel r, q;
    ck_assert_int_eq(gen_build(w, v, &r, &repeat, &e), 0);
    ck_assert_uint_eq(r.data_quiet, 0);
    ck_assert_int_eq(gen_opt_value(&w->opts[od], "quiet", &v[od]), 0);
    ck_assert_int_eq(gen_build(w, v, &q, &repeat, &e), 0);
    ck_assert_uint_eq(q.data_quiet, 1);
    ck_assert_uint_eq(prog_dynamic_count(&q.progs[0], 1.0), prog_dynamic_count(&r.progs[0], 1.0));
    kernel_free(&r);
    kernel_free(&q);
    v[ot] = GEN_GEMM_BF16;
    v[0] = v[1] = v[2] = 8192;
    ck_assert_int_eq(gen_build(w, v, &q, &repeat, &e), SK_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "--data quiet: only with --dtype fp32"));
}
END_TEST

/* gen stream --cg 1: the grid-stride read through ld.global.cg (past
 * L1); without --bytes, --cg and --passes are refused, not ignored. */
START_TEST(test_stream_cg)
{
    const gen_workload *w = gen_find("stream");
    int ob = gen_find_opt(w, "--bytes", 7), oc = gen_find_opt(w, "--cg", 4), op = gen_find_opt(w, "--passes", 8);
    ck_assert_int_ge(ob, 0);
    ck_assert_int_ge(oc, 0);
    ck_assert_int_ge(op, 0);
    long v[GEN_MAX_OPTS], repeat = 0;
    sk_error e = {0};
    kernel k;
    for (int cg = 0; cg <= 1; cg++) {
        gen_defaults(w, v);
        v[ob] = 1 << 20, v[oc] = cg, v[op] = 2;
        ck_assert_int_eq(gen_build(w, v, &k, &repeat, &e), 0);
        int ldg = 0, strong = 0;
        for (uint32_t p = 0; p < k.nprogs; p++)
            for (uint32_t i = 0; i < k.progs[p].n; i++) {
                const instr *in = &k.progs[p].code[i];
                if (in->kind != IK_LD_GLOBAL)
                    continue;
                ldg++;
                strong += strstr(k.progs[p].opnames[in->opcode], ".STRONG.GPU") != NULL;
            }
        ck_assert_int_gt(ldg, 0);
        ck_assert_int_eq(strong, cg ? ldg : 0);
        kernel_free(&k);
    }
    gen_defaults(w, v);
    v[oc] = 1;
    ck_assert_int_eq(gen_build(w, v, &k, &repeat, &e), SK_EUSAGE);
    ck_assert_str_eq(e.msg, "gen stream: --cg 1: only with --bytes (mem_kernel reads --bytes-per-cta once, through L1)");
}
END_TEST

Suite *gen_suite(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("fma");
    tcase_add_test(tc, test_fma_4096);
    tcase_add_test(tc, test_fma_stalls);
    tcase_add_test(tc, test_fma_work_mix);
    tcase_add_test(tc, test_gen_empty);
    tcase_add_loop_test(tc, test_fma_shapes, 0, (int)SK_ARRAY_LEN(shapes));
    tcase_add_test(tc, test_fma_args);
    tcase_add_test(tc, test_gen_rw);
    tcase_add_test(tc, test_fma_trace_size);
    tcase_add_test(tc, test_fma_shipped_trace);
    tcase_add_test(tc, test_gen_table);
    tcase_add_test(tc, test_gemm_data);
    tcase_add_test(tc, test_stream_cg);
    suite_add_tcase(s, tc);
    return s;
}
