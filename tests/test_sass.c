/* test_sass.c -- the SASS listing reader (src/trace/sass.c): control codes
 * out of the real fma_kernel listing, lookups, and one-line errors. */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "skewsim/gen.h"
#include "skewsim/sass.h"
#include "testutil.h"

#define FUZZ_ENTRY fuzz_sass_one
#include "fuzz/fuzz_sass.c"
#undef FUZZ_ENTRY

#define FMA_SASS "validation/h200/fma_kernel.sass"
#define FMA_NAME "_Z10fma_kernelP3ReciPf"

/* The H200 calibration kernel's listing: 112 instructions, 16 bytes apart,
 * and control codes decoded as in include/skewsim/sass.h (values checked
 * by hand against the hex words of the listing). */
START_TEST(test_sass_fma_listing)
{
    sk_error e = {0};
    sass *s = sass_load(FMA_SASS, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_uint_eq(sass_nfunctions(s), 1);
    int fn = sass_function(s, FMA_NAME, 0);
    ck_assert_int_eq(fn, 0);
    ck_assert_int_eq(sass_function(s, FMA_NAME, 90), -1);   /* the listing has no "code for" line */
    ck_assert_int_eq(sass_function(s, "_Z3foov", 0), -1);
    size_t n;
    const sass_instr *code = sass_code(s, fn, &n);
    ck_assert_uint_eq(n, 112);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(code[i].pc, 16 * i);
    static const struct {
        uint32_t pc;
        const char *op;
        int stall, yield, wbar, rbar, wait;
    } spot[] = {
        {0x000, "LDC", 1, 1, 7, 7, 0},           /* 0x000fe20000000800 */
        {0x010, "S2R", 2, 1, 0, 7, 0},           /* 0x000e240000002100: sets barrier 0 */
        {0x020, "ISETP.NE.AND", 13, 0, 7, 7, 1}, /* 0x001fda0003f05270: waits on barrier 0 */
        {0x0a0, "STS.128", 2, 1, 7, 1, 0},       /* 0x0003e40000000c00: read barrier 1 */
        {0x0f0, "BAR.SYNC.DEFER_BLOCKING", 1, 1, 7, 7, 0},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(spot); i++) {
        const sass_instr *in = sass_at(s, fn, spot[i].pc);
        ck_assert_ptr_nonnull(in);
        ck_assert_str_eq(in->op, spot[i].op);
        ck_assert_msg(in->stall == spot[i].stall && in->yield == spot[i].yield && in->wbar == spot[i].wbar &&
                      in->rbar == spot[i].rbar && in->wait == spot[i].wait,
                      "/*%04x*/ %s: stall %d yield %d wbar %d rbar %d wait %d", spot[i].pc, in->op, in->stall,
                      in->yield, in->wbar, in->rbar, in->wait);
    }
    ck_assert_ptr_null(sass_at(s, fn, 0x008));
    ck_assert_ptr_null(sass_at(s, fn, 0x700));
    /* the registers the text marks .reuse: FFMA R5, R8, R0.reuse at 0x1c0,
     * and everywhere as many as the control word's reuse bits */
    const sass_instr *f = sass_at(s, fn, 0x1c0);
    ck_assert(f->nreused == 1 && f->reused[0] == 0 && f->reuse == 2);
    int flagged = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(code[i].nreused == __builtin_popcount(code[i].reuse), "/*%04x*/ %s: %d .reuse, bits %x",
                      code[i].pc, code[i].op, code[i].nreused, code[i].reuse);
        flagged += code[i].nreused > 0;
    }
    ck_assert_int_ge(flagged, 30);
    sass_free(s);
}
END_TEST

/* gen fma writes down the same kernel by hand (src/trace/gen_fma.c): its
 * dynamic path, loops folded, must be a subsequence of the listing in PC
 * order with the listing's stall counts.  Catches a stall count copied
 * wrong into the generator, and a reader that decodes the wrong bits. */
/* A generated program, loops folded, against function fn of a listing:
 * each instruction found in PC order, with the listing's stall count and
 * the .reuse flags of its vector sources.  Returns how many matched. */
/* Listing PCs [lo, hi] a generated path does not run (a branch jumps
 * over them), so that an instruction there is not taken for one after. */
typedef struct { uint32_t lo, hi; } pc_gap;

static size_t match_listing_gaps(const program *p, const sass *s, int fn, const char *what, const pc_gap *gap,
                                 size_t ngap)
{
    size_t n, j = 0, matched = 0;
    const sass_instr *code = sass_code(s, fn, &n);
    for (uint32_t i = 0; i < p->n; i++) {
        const instr *in = &p->code[i];
        if (in->kind == IK_LOOP || in->kind == IK_ENDLOOP || in->kind == IK_IFWARP || in->kind == IK_ENDIF)
            continue;
        const char *op = p->opnames[in->opcode];
        for (;;) {
            while (j < n && strcmp(code[j].op, op) != 0)
                j++;
            size_t g = 0;
            while (j < n && g < ngap && !(code[j].pc >= gap[g].lo && code[j].pc <= gap[g].hi))
                g++;
            if (j >= n || g == ngap)
                break;
            j++;                        /* in a gap: look further */
        }
        ck_assert_msg(j < n, "%s entry %u (%s, line %u): not found in the listing after the previous one",
                      what, i, op, in->line);
        int want = code[j].stall ? code[j].stall : 1;
        ck_assert_msg(in->stall == want, "%s entry %u: %s stall %d, listing /*%04x*/ stall %d", what, i, op,
                      in->stall, code[j].pc, want);
        /* and its .reuse flags: a vector source is marked where the
         * listing marks that register */
        for (int r = 0; r < in->nsrc; r++) {
            int v = prog_vreg(p, in->src[r]), listed = 0;
            for (int q = 0; v >= 0 && q < code[j].nreused; q++)
                listed |= code[j].reused[q] == v;
            ck_assert_msg((in->reuse >> r & 1) == listed, "%s entry %u: %s source %d reuse %d, listing "
                          "/*%04x*/ %d", what, i, op, r, in->reuse >> r & 1, code[j].pc, listed);
        }
        j++;
        matched++;
    }
    return matched;
}

static size_t match_listing(const program *p, const sass *s, int fn, const char *what)
{
    return match_listing_gaps(p, s, fn, what, NULL, 0);
}

START_TEST(test_sass_matches_gen_fma)
{
    sk_error e = {0};
    sass *s = sass_load(FMA_SASS, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    kernel k;
    ck_assert_int_eq(gen_fma(&k, 4099, 256, 1, &e), 0);   /* both loops and the remainder path */
    ck_assert_uint_ge(match_listing(&k.progs[0], s, 0, "gen fma"), 60);
    kernel_free(&k);
    sass_free(s);
}
END_TEST

/* gen stream is mem_kernel's listing (capture.cu compiled for sm_90),
 * instruction for instruction, stall for stall: 0x000-0x3c0, 61
 * instructions, in listing order wherever a warp's path follows it (one
 * iteration and no remainder; none and a remainder of one thread).  With
 * both, the remainder's extra iteration repeats the loop body after it,
 * out of listing order. */
START_TEST(test_sass_matches_gen_stream)
{
    sk_error e = {0};
    sass *s = sass_load("validation/h200/capture/sass/capture_cu.sass.gz", &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    int fn = sass_function(s, "_Z10mem_kernelP3RecPK6float4mPf", 0);
    ck_assert_int_ge(fn, 0);
    static const struct { long block, bytes; } cases[] = {{256, 4096}, {128, 16}};
    for (size_t i = 0; i < SK_ARRAY_LEN(cases); i++) {
        kernel k;
        ck_assert_int_eq(gen_stream(&k, 7, cases[i].block, cases[i].bytes, &e), 0);
        ck_assert_uint_eq(match_listing(&k.progs[0], s, fn, "gen stream"), 61);
        kernel_free(&k);
    }
    sass_free(s);
}
END_TEST

/* gen unit's int_kernel and smem_kernel are their listings' (E16's
 * cap_power.sass.gz), main loop, remainder and record, instruction for
 * instruction (the never-taken stores of the result check left out). */
START_TEST(test_sass_matches_gen_unit)
{
    sk_error e = {0};
    sass *s = sass_load("validation/h200/capture/sass/cap_power.sass.gz", &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    static const struct { int op; long iters; const char *fn; size_t min; } kernels[] = {
        { 0, 21, "_Z10int_kernelP3RecijPj", 70 },
        { 2, 7, "_Z11smem_kernelP3ReciPf", 100 },
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(kernels); i++) {
        kernel k;
        ck_assert_int_eq(gen_unit(&k, kernels[i].op, kernels[i].iters, 256, 1056, &e), 0);
        int fn = sass_function(s, kernels[i].fn, 0);
        ck_assert_int_ge(fn, 0);
        size_t m = match_listing(&k.progs[0], s, fn, kernels[i].fn);
        ck_assert_msg(m >= kernels[i].min, "%s: %zu matched", kernels[i].fn, m);
        kernel_free(&k);
    }
    sass_free(s);
}
END_TEST

/* gen lds is cap_lds's lds<OP> as board n's listing has them (E30,
 * validation/h100/lds/cap_lds_n.sass.gz): one running warp (a single
 * ifwarp block, so the program runs in listing order), every instruction
 * found in PC order with its stall count and .reuse flags: all of each
 * function but the branch around the fill that no thread of 1024 takes,
 * the never-taken store of the sum's check and the other threads' early
 * EXIT (lds<0> and lds<1> 106 of 112 instructions, lds<2> 91 of 97,
 * lds<3> 73 of 75). */
START_TEST(test_sass_matches_gen_lds)
{
    sk_error e = {0};
    sass *s = sass_load("validation/h100/lds/cap_lds_n.sass.gz", &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    static const size_t want[] = { 106, 106, 91, 73 };
    for (int op = 0; op < 4; op++) {
        kernel k;
        ck_assert_int_eq(gen_lds(&k, op, 3, 1, 1, 1, &e), 0);
        char name[64];
        snprintf(name, sizeof name, "_Z3ldsILi%dEEvPmPjPfjji", op);
        int fn = sass_function(s, name, 0);
        ck_assert_int_ge(fn, 0);
        size_t m = match_listing(&k.progs[0], s, fn, name);
        ck_assert_msg(m == want[op], "%s: %zu matched, expected %zu", name, m, want[op]);
        kernel_free(&k);
    }
    sass_free(s);
}
END_TEST

/* gen worder is cap_worder's worder<CH> (E31, validation/h100/worder/
 * cap_worder.sass.gz) on the path an --iters multiple of 16 takes: every
 * instruction in PC order with its stall count and .reuse flags; the
 * unrolled loop once, the remainder loops not at all, the check's store and
 * the other lanes' EXIT left out (worder<1> 68 of its 97 instructions,
 * worder<2> 87 of 129, worder<4> 125 of 193). */
START_TEST(test_sass_matches_gen_worder)
{
    sk_error e = {0};
    sass *s = sass_load("validation/h100/worder/cap_worder.sass.gz", &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    /* the remainder loops the path jumps over */
    static const struct { const char *fn; size_t want; pc_gap gap[3]; } ch[] = {
        {"_Z6worderILi1EEvPmPjPfi", 68, {{0x2a0, 0x340}, {0x370, 0x3e0}, {0x410, 0x450}}},
        {"_Z6worderILi2EEvPmPjPfi", 87, {{0x3c0, 0x4e0}, {0x510, 0x5c0}, {0x5f0, 0x640}}},
        {"_Z6worderILi4EEvPmPjPfi", 125, {{0x600, 0x820}, {0x850, 0x980}, {0x9b0, 0xa20}}}};
    for (int c = 0; c < 3; c++) {
        kernel k;
        ck_assert_int_eq(gen_worder(&k, c, 64, 256, 1, &e), 0);
        int fn = sass_function(s, ch[c].fn, 0);
        ck_assert_int_ge(fn, 0);
        size_t m = match_listing_gaps(&k.progs[0], s, fn, ch[c].fn, ch[c].gap, 3);
        ck_assert_msg(m == ch[c].want, "%s: %zu matched, expected %zu", ch[c].fn, m, ch[c].want);
        kernel_free(&k);
    }
    sass_free(s);
}
END_TEST

/* The registers an instruction's text marks .reuse, whatever surrounds
 * them: a sign, an absolute value's bars, a half selector after the flag;
 * not a uniform register, not a name that merely starts with it. */
START_TEST(test_sass_reused_text)
{
    static const char text[] =
        "\t\tFunction : _Z1fv\n"
        "  /*0000*/  FSETP.NEU.AND P2, PT, |R3|.reuse, +INF , PT ; /* 0x0000000000007918 */\n"
        "     /* 0x000fc00000000000 */\n"
        "  /*0010*/  HFMA2 R4, -R6.reuse, R8.reuse.H0_H0, R10 ; /* 0x0000000000007918 */\n"
        "     /* 0x000fc00000000000 */\n"
        "  /*0020*/  IADD3 R4, R6, UR7.reuse, R254.reuse ; /* 0x0000000000007918 */\n"
        "     /* 0x000fc00000000000 */\n";
    sk_error e = {0};
    sass *s = sass_load_string("t.sass", text, sizeof text - 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    const sass_instr *a = sass_at(s, 0, 0x0), *b = sass_at(s, 0, 0x10), *c = sass_at(s, 0, 0x20);
    ck_assert(a->nreused == 1 && a->reused[0] == 3);
    ck_assert(b->nreused == 2 && b->reused[0] == 6 && b->reused[1] == 8);
    ck_assert(c->nreused == 1 && c->reused[0] == 254);
    sass_free(s);
}
END_TEST

/* Several functions and architectures, nvdisasm's headers, guards. */
START_TEST(test_sass_functions)
{
    static const char text[] =
        "Fatbin elf code:\n================\narch = sm_90\n\n"
        "\tcode for sm_80\n\t\tFunction : _Z1fv\n"
        "  /*0000*/  MOV R1, c[0x0][0x28] ;  /* 0x00000a0000017a02 */\n"
        "                                    /* 0x000fe40000000f00 */\n"
        "\tcode for sm_90a\n\t\tFunction : _Z1fv\n"
        "  /*0000*/  @!P0 IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ; /* 0x00000a00ff017624 */\n"
        "     /* 0x001fd000078e00ff */\n"
        "  /*0010*/  EXIT ;  /* 0x000000000000794d */\n  /* 0x000fea0003800000 */\n"
        "        .text._Z1gv:\n"
        "        /*0000*/                   NOP;          /* 0x0000000000007918 */\n"
        "                                                 /* 0x000fc00000000000 */\n";
    sk_error e = {0};
    sass *s = sass_load_string("t.sass", text, sizeof text - 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_uint_eq(sass_nfunctions(s), 3);
    ck_assert_int_eq(sass_function(s, "_Z1fv", 0), -2);      /* ambiguous */
    ck_assert_int_eq(sass_function(s, "_Z1fv", 80), 0);
    int f = sass_function(s, "_Z1fv", 90);
    ck_assert_int_eq(f, 1);
    ck_assert_int_eq(sass_function(s, "_Z1gv", 0), 2);
    ck_assert_str_eq(sass_function_name(s, 2), "_Z1gv");
    const sass_instr *in = sass_at(s, f, 0);
    ck_assert_str_eq(in->op, "IMAD.MOV.U32");
    ck_assert_int_eq(in->stall, 8);
    ck_assert_int_eq(in->wait, 1);
    ck_assert_str_eq(sass_at(s, f, 0x10)->op, "EXIT");
    ck_assert_int_eq(sass_at(s, f, 0x10)->stall, 5);
    sass_free(s);
}
END_TEST

static const struct {
    const char *text, *msg;
} bad[] = {
    {"", "t.sass: no 'Function : NAME' line: expected the output of cuobjdump -sass"},
    {"Function : f\n", "t.sass: function f: no instructions"},
    {"/*0000*/ NOP ; /* 0x0000000000007918 */\n/* 0x000fc00000000000 */\n",
     "t.sass:1: instruction /*0000*/ before any 'Function : NAME' line"},
    {"Function : f\n/*0000*/ NOP ; /* 0x0000000000007918 */\n",
     "t.sass:2: end of listing: expected the second word of the instruction on line 2"},
    {"Function : f\n/*0000*/ NOP ; /* 0x0000000000007918 */\nEXIT\n",
     "t.sass:3: expected the second word '/* 0x<16 hex digits> */' of the instruction on line 2"},
    {"Function : f\n/*0000*/ NOP ; /* 0x00000000007918 */\n",
     "t.sass:2: instruction /*0000*/: expected its first word '/* 0x<16 hex digits> */' at the end of the line"},
    {"Function : f\n/*0010*/ NOP ; /* 0x0000000000007918 */\n/* 0x000fc00000000000 */\n"
     "/*0010*/ NOP ; /* 0x0000000000007918 */\n/* 0x000fc00000000000 */\n",
     "t.sass:4: instruction /*0010*/ after /*0010*/: expected increasing PCs"},
    {"Function : f\n/*0000*/ ; /* 0x0000000000007918 */\n",
     "t.sass:2: instruction /*0000*/: no mnemonic"},
    {"Function : f\n/*0000*/ N$P ; /* 0x0000000000007918 */\n",
     "t.sass:2: instruction /*0000*/: mnemonic 'N$P': expected letters, digits, '.' and '_'"},
    {"Function : f\nFunction : f\n", "t.sass:2: function f: listed twice for sm_0"},
    {"Function f\n", "t.sass:1: 'Function' line: expected 'Function : NAME'"},
    {"code for sm_x\n", "t.sass:1: 'code for sm_x': expected 'code for sm_NN'"},
};

START_TEST(test_sass_errors)
{
    sk_error e = {0};
    sass *s = sass_load_string("t.sass", bad[_i].text, strlen(bad[_i].text), &e);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(e.code, SK_ETRACE);
    ck_assert_str_eq(e.msg, bad[_i].msg);
}
END_TEST

START_TEST(test_sass_nul_and_io)
{
    static const char text[] = "Function : f\n/*0000*/ N\0P ; /* 0x0000000000007918 */\n";
    sk_error e = {0};
    ck_assert_ptr_null(sass_load_string("t.sass", text, sizeof text - 1, &e));
    ck_assert_str_eq(e.msg, "t.sass:2: NUL byte: expected text");
    sk_error e2 = {0};
    ck_assert_ptr_null(sass_load("tests/data/no-such.sass", &e2));
    ck_assert_int_eq(e2.code, SK_EIO);
    ck_assert_str_eq(e2.msg, "tests/data/no-such.sass: cannot open: No such file or directory");
}
END_TEST

/* Another real listing: the E9 probe, built for sm_90 (its "code for"
 * lines name the architecture). */
START_TEST(test_sass_e9_listing)
{
    sk_error e = {0};
    sass *s = sass_load("validation/h200/e9_probe.sass", &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    int fn = sass_function(s, "_Z9fma_probeP9CtaRecordiPf", 90);
    ck_assert_int_eq(fn, 0);
    size_t n;
    const sass_instr *code = sass_code(s, fn, &n);
    ck_assert_uint_gt(n, 50);
    ck_assert_str_eq(code[n - 1].op, "NOP");
    sass_free(s);
}
END_TEST

/* The fuzz target's seed corpus and kept crashes, through its property
 * checks (tests/fuzz/fuzz_sass.c). */
START_TEST(test_sass_replay_fuzz)
{
    int seeds = tu_replay_dir("tests/fuzz/corpus/sass", fuzz_sass_one);
    tu_replay_dir("tests/fuzz/regressions/sass", fuzz_sass_one);
    ck_assert_int_ge(seeds, 4);
    for (size_t i = 0; i < SK_ARRAY_LEN(bad); i++)
        fuzz_sass_one((const uint8_t *)bad[i].text, strlen(bad[i].text));
}
END_TEST

Suite *sass_suite(void)
{
    Suite *s = suite_create("sass");
    TCase *tc = tcase_create("listing");
    tcase_add_test(tc, test_sass_fma_listing);
    tcase_add_test(tc, test_sass_matches_gen_fma);
    tcase_add_test(tc, test_sass_matches_gen_unit);
    tcase_add_test(tc, test_sass_matches_gen_lds);
    tcase_add_test(tc, test_sass_matches_gen_worder);
    tcase_add_test(tc, test_sass_matches_gen_stream);
    tcase_add_test(tc, test_sass_reused_text);
    tcase_add_test(tc, test_sass_functions);
    tcase_add_loop_test(tc, test_sass_errors, 0, (int)SK_ARRAY_LEN(bad));
    tcase_add_test(tc, test_sass_nul_and_io);
    tcase_add_test(tc, test_sass_e9_listing);
    tcase_add_test(tc, test_sass_replay_fuzz);
    suite_add_tcase(s, tc);
    return s;
}
