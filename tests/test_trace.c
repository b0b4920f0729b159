/* test_trace.c -- the trace readers (src/trace/trace.c, native.c), the line
 * reader under them (lineread.c) and the writer (writer.c). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <zlib.h>
#include "tests.h"
#include "skewsim/gen.h"
#include "skewsim/lineread.h"
#include "skewsim/trace.h"

#define TRACE_DIR TEST_DATA "/trace"
#define GOOD TRACE_DIR "/good.trace"

/* ------------------------------------------------------------- helpers */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = xmalloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void tmp_path(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/skewsim-test-trace-XXXXXX");
    int fd = mkstemp(buf);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static long file_size(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return (long)st.st_size;
}

/* Read every kernel and every CTA; returns the first error code or 0. */
static int drain(trace *t, sk_error *e, uint64_t *nkernels, uint64_t *nctas)
{
    kernel k;
    cta_desc d;
    int r;
    *nkernels = *nctas = 0;
    while ((r = trace_next_kernel(t, &k, e)) == 1) {
        (*nkernels)++;
        kernel_free(&k);
        while ((r = trace_next_cta(t, &d, e)) == 1)
            (*nctas)++;
        if (r < 0)
            return r;
    }
    return r;
}

static void assert_prog_eq(const program *a, const program *b)
{
    ck_assert_str_eq(a->name, b->name);
    ck_assert_uint_eq(a->n, b->n);
    ck_assert_uint_eq(a->nregs, b->nregs);
    ck_assert_uint_eq(a->nopnames, b->nopnames);
    for (uint32_t i = 0; i < a->nopnames; i++)
        ck_assert_str_eq(a->opnames[i], b->opnames[i]);
    if (a->regnames && b->regnames)
        for (uint32_t i = 0; i < a->nregs; i++)
            ck_assert_str_eq(a->regnames[i], b->regnames[i]);
    for (uint32_t i = 0; i < a->n; i++) {
        instr x = a->code[i], y = b->code[i];
        x.line = y.line = 0;      /* the only field that may differ */
        ck_assert_msg(memcmp(&x, &y, sizeof x) == 0, "program %s: entry %u differs", a->name, i);
    }
}

static void assert_kernel_eq(const kernel *a, const kernel *b)
{
    ck_assert_str_eq(a->name, b->name);
    ck_assert_uint_eq(a->grid, b->grid);
    ck_assert_uint_eq(a->block_threads, b->block_threads);
    ck_assert_uint_eq(a->regs_per_thread, b->regs_per_thread);
    ck_assert_uint_eq(a->smem_bytes, b->smem_bytes);
    ck_assert_uint_eq(a->data_quiet, b->data_quiet);
    ck_assert_uint_eq(a->event_before, b->event_before);
    ck_assert_uint_eq(a->nprogs, b->nprogs);
    for (uint32_t i = 0; i < a->nprogs; i++)
        assert_prog_eq(&a->progs[i], &b->progs[i]);
}

/* Two readers give the same kernels and CTA streams. */
static void assert_traces_eq(trace *a, trace *b)
{
    sk_error e = {0};
    kernel ka, kb;
    int ra, rb;
    do {
        ra = trace_next_kernel(a, &ka, &e);
        rb = trace_next_kernel(b, &kb, &e);
        ck_assert_msg(ra == rb, "%d vs %d: %s", ra, rb, e.msg);
        if (ra != 1)
            break;
        assert_kernel_eq(&ka, &kb);
        kernel_free(&ka);
        kernel_free(&kb);
        cta_desc da, db;
        int ca, cb;
        do {
            ca = trace_next_cta(a, &da, &e);
            cb = trace_next_cta(b, &db, &e);
            ck_assert_int_eq(ca, cb);
            if (ca == 1) {
                ck_assert_uint_eq(da.id, db.id);
                ck_assert_uint_eq(da.prog, db.prog);
                ck_assert_double_eq(da.work, db.work);
            }
        } while (ca == 1);
    } while (1);
    ck_assert_int_eq(ra, 0);
    ck_assert_int_eq(e.code, 0);
}

/* --------------------------------------------------------- good traces */

static void check_instr(const instr *in, int kind, int cls, int stall, int nd, const int *dst, int ns,
                        const int *src)
{
    ck_assert_int_eq(in->kind, kind);
    ck_assert_int_eq(in->cls, cls);
    ck_assert_int_eq(in->stall, stall);
    ck_assert_int_eq(in->ndst, nd);
    ck_assert_int_eq(in->nsrc, ns);
    for (int i = 0; i < nd; i++)
        ck_assert_int_eq(in->dst[i], dst[i]);
    for (int i = 0; i < ns; i++)
        ck_assert_int_eq(in->src[i], src[i]);
}

#define R(...) ((const int[]){__VA_ARGS__})

START_TEST(test_good_parse)
{
    sk_error e = {0};
    trace *t = trace_open(GOOD, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_str_eq(k.name, "reduce");
    ck_assert_uint_eq(k.grid, 8);
    ck_assert_uint_eq(k.block_threads, 128);
    ck_assert_uint_eq(k.regs_per_thread, 40);
    ck_assert_uint_eq(k.smem_bytes, 4096);
    ck_assert_uint_eq(k.nprogs, 2);

    const program *p = &k.progs[0];
    ck_assert_str_eq(p->name, "main");
    ck_assert_uint_eq(p->n, 17);
    /* dense registers in order of first appearance, sources first */
    static const char *const regs[] = {"R0", "P0", "R2", "R4", "R8", "R9", "R1", "R10", "UR4", "R11"};
    ck_assert_uint_eq(p->nregs, SK_ARRAY_LEN(regs));
    for (size_t i = 0; i < SK_ARRAY_LEN(regs); i++)
        ck_assert_str_eq(p->regnames[i], regs[i]);
    const instr *c = p->code;
    check_instr(&c[0], IK_ALU, FU_MISC, 2, 1, R(0), 0, NULL);
    ck_assert_str_eq(p->opnames[c[0].opcode], "S2R");
    ck_assert_uint_eq(c[0].line, 7);
    check_instr(&c[1], IK_ALU, FU_INT, 1, 1, R(1), 1, R(0));
    ck_assert_str_eq(p->opnames[c[1].opcode], "ISETP.NE.AND");
    check_instr(&c[2], IK_LD_GLOBAL, FU_LDST, 1, 1, R(3), 2, R(1, 2));
    ck_assert_uint_eq(c[2].bytes, 16);
    ck_assert_uint_eq(c[2].pattern, MP_COALESCED);
    ck_assert_uint_eq(c[3].kind, IK_LOOP);
    ck_assert_uint_eq(c[3].arg, 10);
    ck_assert_uint_eq(c[3].flags, IF_WORK_SCALED);
    ck_assert_uint_eq(c[3].jump, 12);
    check_instr(&c[4], IK_LD_GLOBAL, FU_LDST, 2, 1, R(4), 1, R(2));
    ck_assert_uint_eq(c[4].bytes, 4);
    ck_assert_uint_eq(c[4].pattern, MP_STRIDED);
    ck_assert_uint_eq(c[4].stride, 128);
    ck_assert_uint_eq(c[5].kind, IK_LOOP);
    ck_assert_uint_eq(c[5].arg, 3);
    ck_assert_uint_eq(c[5].flags, 0);
    ck_assert_uint_eq(c[5].jump, 8);
    check_instr(&c[6], IK_ALU, FU_FP32, 1, 1, R(5), 3, R(5, 4, 4));
    ck_assert_uint_eq(c[7].kind, IK_ENDLOOP);
    ck_assert_uint_eq(c[7].arg, 5);
    check_instr(&c[8], IK_ST_SHARED, FU_LDST, 1, 0, NULL, 2, R(6, 5));
    ck_assert_uint_eq(c[8].pattern, MP_UNIFORM);
    check_instr(&c[9], IK_BAR, FU_MISC, 1, 0, NULL, 0, NULL);
    check_instr(&c[10], IK_LD_SHARED, FU_LDST, 1, 1, R(7), 1, R(6));
    ck_assert_uint_eq(c[10].pattern, MP_RANDOM);
    ck_assert_uint_eq(c[11].kind, IK_ENDLOOP);
    ck_assert_uint_eq(c[11].arg, 3);
    ck_assert_uint_eq(c[12].kind, IK_IFWARP);
    ck_assert_uint_eq(c[12].arg, 3);
    ck_assert_uint_eq(c[12].jump, 15);
    check_instr(&c[13], IK_LD_GLOBAL, FU_LDST, 15, 1, R(8), 2, R(8, 7));
    ck_assert_uint_eq(c[13].bytes, 8);
    ck_assert_uint_eq(c[14].kind, IK_ENDIF);
    ck_assert_uint_eq(c[14].arg, 12);
    check_instr(&c[15], IK_ALU, FU_SFU, 1, 1, R(9), 2, R(1, 7));
    check_instr(&c[16], IK_EXIT, FU_BRANCH, 5, 0, NULL, 1, R(1));
    ck_assert_uint_eq(c[16].line, 23);
    /* 6 at top level (ifwarp counted) + 10 w iterations of 7 */
    ck_assert_uint_eq(prog_dynamic_count(p, 1.0), 76);
    ck_assert_uint_eq(prog_dynamic_count(p, 2.5), 181);
    ck_assert_uint_eq(prog_dynamic_count(p, 0.0), 6);

    p = &k.progs[1];
    ck_assert_str_eq(p->name, "aux");
    ck_assert_uint_eq(p->n, 2);
    check_instr(&p->code[0], IK_ALU, FU_TENSOR, 1, 2, R(4, 5), 4, R(0, 1, 2, 3));
    ck_assert_str_eq(p->regnames[3], "UR2");
    kernel_free(&k);

    static const struct { uint64_t id; uint32_t prog; double work; } want[] = {
        {0, 1, 0.0}, {1, 0, 1.0}, {2, 0, 2.5}, {3, 0, 2.5}, {4, 0, 2.5}, {5, 0, 2.5}, {6, 0, 1.0},
        {7, 0, 1e6},
    };
    cta_desc d;
    for (size_t i = 0; i < SK_ARRAY_LEN(want); i++) {
        ck_assert_int_eq(trace_next_cta(t, &d, &e), 1);
        ck_assert_uint_eq(d.id, want[i].id);
        ck_assert_uint_eq(d.prog, want[i].prog);
        ck_assert_double_eq(d.work, want[i].work);
    }
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);

    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_str_eq(k.name, "tiny");
    ck_assert_uint_eq(k.grid, 3);
    ck_assert_uint_eq(k.block_threads, 1);
    ck_assert_uint_eq(k.regs_per_thread, 32);     /* defaults */
    ck_assert_uint_eq(k.smem_bytes, 0);
    kernel_free(&k);
    for (uint64_t i = 0; i < 3; i++) {
        ck_assert_int_eq(trace_next_cta(t, &d, &e), 1);
        ck_assert_uint_eq(d.id, i);
        ck_assert_uint_eq(d.prog, 0);
        ck_assert_double_eq(d.work, 1.0);
    }
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
    ck_assert_int_eq(e.code, 0);
    trace_close(t);
}
END_TEST

START_TEST(test_shipped_traces)
{
    static const char *const files[] = {"traces/example.trace", "traces/fma_1056.trace", GOOD};
    for (size_t i = 0; i < SK_ARRAY_LEN(files); i++) {
        sk_error e = {0};
        uint64_t nk, nc;
        trace *t = trace_open(files[i], &e);
        ck_assert_msg(t != NULL, "%s", e.msg);
        ck_assert_msg(drain(t, &e, &nk, &nc) == 0, "%s", e.msg);
        ck_assert_uint_ge(nk, 1);
        trace_close(t);
    }
}
END_TEST

START_TEST(test_gz_same_as_plain)
{
    sk_error e = {0};
    trace *a = trace_open(GOOD, &e), *b = trace_open(GOOD ".gz", &e);
    ck_assert_msg(a && b, "%s", e.msg);
    assert_traces_eq(a, b);
    trace_close(a);
    trace_close(b);
}
END_TEST

/* CRLF line ends, no final newline and trace_open_string() read the same. */
START_TEST(test_string_crlf)
{
    char *text = slurp(GOOD);
    size_t n = strlen(text);
    char *crlf = xmalloc(2 * n + 1), *q = crlf;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\n')
            *q++ = '\r';
        *q++ = text[i];
    }
    *q = '\0';
    q[-2] = '\0';        /* drop the final "\r\n" */
    sk_error e = {0};
    trace *a = trace_open(GOOD, &e), *b = trace_open_string("crlf", crlf, &e);
    ck_assert_msg(a && b, "%s", e.msg);
    assert_traces_eq(a, b);
    trace_close(a);
    trace_close(b);
    a = trace_open(GOOD, &e);
    b = trace_open_string("plain", text, &e);
    assert_traces_eq(a, b);
    trace_close(a);
    trace_close(b);
    free(text);
    free(crlf);
}
END_TEST

/* timer= and clock= marks set their flags, and the writer keeps them. */
START_TEST(test_timer_marks)
{
    static const char text[] =
        "skewsim-trace 1\nkernel k grid=2 block=32\nprogram main\n"
        "  CS2R R1 timer=start stall=1\n  CS2R R2 clock=start\n  FFMA R3 <- R3\n"
        "  CS2R R4 timer=end clock=end\n  EXIT\nend\nendkernel\n";
    static const uint8_t want[] = {IF_TIMER_START, IF_CLOCK_START, 0, IF_TIMER_END | IF_CLOCK_END, 0};
    sk_error e = {0};
    trace *t = trace_open_string("marks", text, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_uint_eq(k.progs[0].n, 5);
    for (uint32_t i = 0; i < 5; i++)
        ck_assert_uint_eq(k.progs[0].code[i].flags, want[i]);
    char path[] = "/tmp/skewsim-marks-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), 0);
    trace *r = trace_open(path, &e);
    kernel k2;
    ck_assert_int_eq(trace_next_kernel(r, &k2, &e), 1);
    for (uint32_t i = 0; i < 5; i++)
        ck_assert_uint_eq(k2.progs[0].code[i].flags, want[i]);
    kernel_free(&k);
    kernel_free(&k2);
    trace_close(t);
    trace_close(r);
    remove(path);
}
END_TEST

START_TEST(test_line_limit)
{
    /* a 65536-byte line is accepted, one byte more is not */
    const size_t lim = 65536;
    char *s = xmalloc(lim + 64);
    sk_error e = {0};
    strcpy(s, "skewsim-trace 1\n#");
    size_t h = strlen(s);
    memset(s + h, 'x', lim - 1);
    strcpy(s + h + lim - 1, "\n");
    trace *t = trace_open_string("limit", s, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
    trace_close(t);
    strcpy(s + h + lim - 1, "y\n");
    t = trace_open_string("limit", s, &e);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "limit:2: line longer than 65536 bytes");
    trace_close(t);
    free(s);
}
END_TEST

START_TEST(test_empty_and_missing)
{
    sk_error e = {0};
    trace *t = trace_open_string("empty", "# nothing\nskewsim-trace 1   # and no kernel\n", &e);
    ck_assert_ptr_nonnull(t);
    kernel k;
    cta_desc d;
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
    trace_close(t);
    trace_close(NULL);
    ck_assert_ptr_null(trace_open(TRACE_DIR "/no-such-file.trace", &e));
    ck_assert_int_eq(e.code, SK_EIO);
    ck_assert_str_eq(e.msg, TRACE_DIR "/no-such-file.trace: cannot open: No such file or directory");
}
END_TEST

/* ----------------------------------------------------------- bad traces */

/* Every file under tests/data/trace named bad_* with the exact message
 * (after "tests/data/trace/FILE"). */
static const struct {
    const char *file, *msg;
} bad_cases[] = {
    {"bad_opcode.trace", ":5:3: FOOBAR.X: unknown opcode: expected one of the opcodes in docs/trace-format.md"},
    {"bad_reg.trace", ":5:8: FFMA: Q9: expected a register (R0-R254, P0-P6, UR0-UR62, UP0-UP6, RZ, PT, URZ, UPT)"},
    {"bad_too_many_dst.trace", ":4:19: IMAD.WIDE: R4: expected at most 2 destination registers"},
    {"bad_too_many_src.trace", ":4:27: FFMA: R5: expected at most 4 source registers (a guard counts as one)"},
    {"bad_stall.trace", ":4:17: FFMA: stall=16: expected a stall count 1..15"},
    {"bad_bytes.trace", ":4:18: LDG.E: bytes=3: expected 1, 2, 4, 8 or 16 bytes per thread"},
    {"bad_bytes_alu.trace", ":4:17: FFMA: bytes=4: expected bytes= only on a memory instruction"},
    {"bad_pattern.trace", ":4:18: LDG.E: pattern=strided:0: expected coalesced, strided:N (N 1..4294967295 bytes), random or uniform"},
    {"bad_key.trace", ":4:17: FFMA: lat=4: expected stall=, ii=, bytes=, pattern=, timer=, clock= or an address key (addr=, lane=, warp=, cta=, iter=, ws=, rand=, chase=, part=, mask=)"},
    {"bad_ii.trace", ":4:28: HGMMA.64x256x16: ii=0: expected an initiation interval of 1..65535 cycles"},
    {"bad_gap.trace", ":2:26: kernel: gap_ns=abc: expected an idle gap of 0..1000000000000 ns before the launch"},
    {"bad_timer.trace", ":4:11: CS2R: timer=middle: expected start or end"},
    {"bad_clock_twice.trace", ":4:23: CS2R: clock=end: expected each key once"},
    {"bad_guard.trace", ":4:3: BRA: @R1: expected a predicate guard (@P0-@P6, @UP0-@UP6, @PT, @UPT, optionally negated: @!P0)"},
    {"bad_tokens.trace", ":4:197: FFMA: R1: expected at most 64 tokens on a line"},
    {"bad_magic.trace", ":2:1: kernel: expected the header 'skewsim-trace 1' first"},
    {"bad_version.trace", ":1:15: skewsim-trace: 2: expected version 1"},
    {"bad_empty.trace", ":2: end of file: expected the header 'skewsim-trace 1'"},
    {"bad_nested.trace", ":12:19: loop: depth 9: expected loops nested at most 8 deep"},
    {"bad_missing_end.trace", ":8:1: ctas: expected 'end' of program 'main' (line 3) first"},
    {"bad_eof_in_program.trace", ":5: end of file inside program 'main' (line 3): expected 'end'"},
    {"bad_end_without_open.trace", ":6:1: end: no open block: expected 'program', 'ctas' or 'endkernel'"},
    {"bad_empty_loop.trace", ":5:3: end: loop of line 4: expected at least one instruction in the loop body"},
    {"bad_ifwarp.trace", ":4:10: ifwarp: 2: expected a warp index 0..1 (block of 64 threads)"},
    {"bad_no_exit.trace", ":8:1: end: program 'main': expected EXIT as the last instruction"},
    {"bad_dup_program.trace", ":6:9: program: main: expected a name not used before in kernel 'k'"},
    {"bad_kernel_no_grid.trace", ":2:1: kernel: k: expected a grid= key"},
    {"bad_grid_2e40.trace", ":2:13: kernel: grid=1099511627776: expected 1..4294967296 CTAs (grid=G or grid=X,Y,Z)"},
    {"bad_grid_xyz.trace", ":2:10: kernel: grid=65536,65536,2: expected 1..4294967296 CTAs (grid=G or grid=X,Y,Z)"},
    {"bad_block_2000.trace", ":2:17: kernel: block=2000: expected 1..1024 threads (block=B or block=X,Y,Z)"},
    {"bad_regs.trace", ":2:26: kernel: regs=256: expected 1..255 registers per thread"},
    {"bad_ctas_order.trace", ":8:7: cta: 1: expected a CTA id above 1 (records in increasing order, not overlapping)"},
    {"bad_cta_grid.trace", ":8:11: range: 4: expected a CTA id below grid=4"},
    {"bad_range_reversed.trace", ":7:11: range: 1: expected a last CTA id >= 3"},
    {"bad_ctas_program.trace", ":11:9: cta: program=other: expected the name of a program of kernel 'k'"},
    {"bad_work.trace", ":7:9: cta: work=nan: expected a work factor 0..1e6"},
    {"bad_eof_in_ctas.trace", ":7: end of file inside the ctas section of kernel 'k' (line 6): expected 'end'"},
    {"bad_missing_endkernel.trace", ":6:1: kernel: expected 'endkernel' of kernel 'k' (line 2) first"},
    {"bad_second_kernel.trace", ":12:10: MOV: stall=0: expected a stall count 1..15"},
    {"bad_nul.trace", ":4:16: NUL byte: expected text"},
    {"bad_long_line.trace.gz", ":4: line longer than 65536 bytes"},
    {"bad_truncated.trace.gz", ": corrupt gzip: unexpected end of file"},
    {"bad_corrupt.trace.gz", ": corrupt gzip: invalid distance too far back"},
};

START_TEST(test_bad_file)
{
    char path[256], want[1024];
    snprintf(path, sizeof path, "%s/%s", TRACE_DIR, bad_cases[_i].file);
    snprintf(want, sizeof want, "%s%s", path, bad_cases[_i].msg);
    sk_error e = {0};
    uint64_t nk = 0, nc = 0;
    trace *t = trace_open(path, &e);
    int r = t ? drain(t, &e, &nk, &nc) : e.code;
    ck_assert_msg(r == SK_ETRACE, "%s: returned %d (%s)", path, r, e.msg);
    ck_assert_int_eq(e.code, SK_ETRACE);
    ck_assert_str_eq(e.msg, want);
    if (t) {
        /* the error is sticky */
        sk_error e2 = {0};
        kernel k;
        cta_desc d;
        ck_assert_int_eq(trace_next_kernel(t, &k, &e2), SK_ETRACE);
        ck_assert_str_eq(e2.msg, want);
        ck_assert_int_eq(trace_next_cta(t, &d, &e2), SK_ETRACE);
    }
    trace_close(t);
}
END_TEST

/* No bad file goes untested. */
START_TEST(test_bad_files_all_listed)
{
    DIR *d = opendir(TRACE_DIR);
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    int nbad = 0;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, "bad_", 4) != 0)
            continue;
        nbad++;
        size_t i = 0;
        while (i < SK_ARRAY_LEN(bad_cases) && strcmp(bad_cases[i].file, de->d_name) != 0)
            i++;
        ck_assert_msg(i < SK_ARRAY_LEN(bad_cases), "%s has no expected message", de->d_name);
    }
    closedir(d);
    ck_assert_int_eq(nbad, (int)SK_ARRAY_LEN(bad_cases));
}
END_TEST

/* ------------------------------------------------------------ streaming */

START_TEST(test_stream_million)
{
    const char *text =
        "skewsim-trace 1\n"
        "kernel big grid=1000000 block=32\n"
        "program p\n  EXIT\nend\n"
        "program q\n  FFMA R1 <- R1\n  EXIT\nend\n"
        "ctas\n"
        "  cta 5 program=q work=3\n"
        "  range 10 999990 program=q work=0.5\n"
        "  cta 999999 work=0\n"
        "end\n"
        "endkernel\n";
    sk_error e = {0};
#ifdef __GLIBC__
    size_t before = mallinfo2().uordblks;
#endif
    trace *t = trace_open_string("big", text, &e);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    cta_desc d;
    uint64_t n = 0, nq = 0, nzero = 0;
    while (trace_next_cta(t, &d, &e) == 1) {
        ck_assert_uint_eq(d.id, n);
        n++;
        nq += d.prog == 1;
        nzero += d.work == 0.0;
    }
    ck_assert_int_eq(e.code, 0);
    ck_assert_uint_eq(n, 1000000);
    ck_assert_uint_eq(nq, 1 + 999981);
    ck_assert_uint_eq(nzero, 1);
#ifdef __GLIBC__
    /* nothing per CTA: far less than 1,000,000 x sizeof(cta_desc) */
    size_t after = mallinfo2().uordblks;
    ck_assert_uint_lt(after > before ? after - before : 0, 1u << 20);
#endif
    kernel_free(&k);
    trace_close(t);
}
END_TEST

/* 2^32 CTAs: the header reads at once, the caller takes a few CTAs, the
 * reader skips the rest record by record. */
START_TEST(test_stream_huge_grid_skip)
{
    const char *text =
        "skewsim-trace 1\n"
        "kernel huge grid=4294967296 block=1024\n"
        "program p\n  EXIT\nend\n"
        "ctas\n  range 0 4294967294 work=2\n  cta 4294967295 work=3\nend\nendkernel\n"
        "kernel next grid=1 block=32\nprogram p\n  EXIT\nend\nendkernel\n";
    sk_error e = {0};
    trace *t = trace_open_string("huge", text, &e);
    kernel k;
    cta_desc d;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_uint_eq(k.grid, UINT64_C(4294967296));
    kernel_free(&k);
    for (uint64_t i = 0; i < 1000; i++) {
        ck_assert_int_eq(trace_next_cta(t, &d, &e), 1);
        ck_assert_uint_eq(d.id, i);
        ck_assert_double_eq(d.work, 2.0);
    }
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_str_eq(k.name, "next");
    kernel_free(&k);
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 1);
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
    trace_close(t);
}
END_TEST

/* Records the caller never asked for are still validated when skipped. */
START_TEST(test_skip_validates)
{
    const char *text =
        "skewsim-trace 1\n"
        "kernel a grid=10 block=32\nprogram p\n  EXIT\nend\n"
        "ctas\n  cta 1\n  cta 3 work=-1\nend\nendkernel\n"
        "kernel b grid=1 block=32\nprogram p\n  EXIT\nend\nendkernel\n";
    sk_error e = {0};
    trace *t = trace_open_string("skip", text, &e);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    kernel_free(&k);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "skip:8:9: cta: work=-1: expected a work factor 0..1e6");
    trace_close(t);
}
END_TEST

/* ---------------------------------------------------------------- writer */

static void roundtrip(const kernel *k, int gz)
{
    char path[64], path2[64];
    sk_error e = {0};
    tmp_path(path, sizeof path);
    tmp_path(path2, sizeof path2);
    ck_assert_msg(trace_write_kernel(path, k, gz, &e) == 0, "%s", e.msg);
    ck_assert_msg(trace_write_kernel(path2, k, gz, &e) == 0, "%s", e.msg);
    trace *t = trace_open(path, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel back;
    ck_assert_int_eq(trace_next_kernel(t, &back, &e), 1);
    assert_kernel_eq(k, &back);
    kernel_free(&back);
    ck_assert_int_eq(trace_next_kernel(t, &back, &e), 0);
    trace_close(t);
    /* deterministic: the same kernel gives the same bytes (gzip too) */
    char *a = slurp(path), *b = slurp(path2);
    ck_assert_int_eq(file_size(path), file_size(path2));
    ck_assert_int_eq(memcmp(a, b, (size_t)file_size(path)), 0);
    free(a);
    free(b);
    unlink(path);
    unlink(path2);
}

START_TEST(test_writer_roundtrip)
{
    sk_error e = {0};
    trace *t = trace_open(GOOD, &e);
    kernel k;
    while (trace_next_kernel(t, &k, &e) == 1) {
        roundtrip(&k, 0);
        roundtrip(&k, 1);
        kernel_free(&k);
    }
    ck_assert_int_eq(e.code, 0);
    trace_close(t);
    static const long iters[] = {0, 7, 8, 9, 4096};
    for (size_t i = 0; i < SK_ARRAY_LEN(iters); i++) {
        ck_assert_int_eq(gen_fma(&k, iters[i], 256, 8448, &e), 0);
        ck_assert_uint_eq(k.data_quiet, 1);      /* fma_kernel's chains: data=quiet */
        k.event_before = i == 2;                 /* event=before, written and read back */
        roundtrip(&k, (int)i & 1);
        kernel_free(&k);
    }
}
END_TEST

/* .reuse on a source register: read back into instr.reuse, written back,
 * and the generators that carry their listings' flags round-trip too. */
START_TEST(test_reuse_flags)
{
    static const char text[] = "skewsim-trace 1\nkernel k grid=1 block=32 regs=32\nprogram main\n"
                               "@P0 FFMA R1 <- R2.reuse R4 R6.reuse stall=1\nEXIT\nend\nendkernel\n";
    sk_error e = {0};
    trace *t = trace_open_string("reuse", text, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    const instr *in = &k.progs[0].code[0];
    ck_assert_uint_eq(in->nsrc, 4);               /* the guard P0 first */
    ck_assert_uint_eq(in->reuse, 0x2 | 0x8);
    ck_assert_str_eq(k.progs[0].regnames[in->src[1]], "R2");
    ck_assert_uint_eq(prog_bank_cycles(&k.progs[0], in, 2), 0);   /* R4 alone from the banks */
    roundtrip(&k, 0);
    /* a bit the reader would not take back */
    char path[64];
    tmp_path(path, sizeof path);
    k.progs[0].code[0].reuse = 0x1;               /* on the guard */
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "program 'main': entry 0: reuse bit 0 on a register that is not R0-R254: "
                            "expected it only on a vector register source");
    k.progs[0].code[0].reuse = 0x10;
    e.code = 0;
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "program 'main': entry 0: reuse bit 4 on no source: expected it only on a "
                            "vector register source");
    unlink(path);
    kernel_free(&k);
    trace_close(t);
    for (int op = 0; op < 3; op++) {
        ck_assert_int_eq(gen_unit(&k, op, 21, 256, 1056, &e), 0);
        roundtrip(&k, op & 1);
        kernel_free(&k);
    }
    ck_assert_int_eq(gen_gemm_dtype(&k, 256, 256, 64, GEN_GEMM_FP32, &e), 0);
    roundtrip(&k, 0);
    kernel_free(&k);
}
END_TEST

/* A program built by hand has no register names: the writer invents them. */
START_TEST(test_writer_synth_names)
{
    kernel k;
    memset(&k, 0, sizeof k);
    k.name = xstrdup("hand");
    k.grid = 2;
    k.block_threads = 64;
    k.regs_per_thread = 32;
    k.nprogs = 1;
    k.progs = xcalloc(1, sizeof *k.progs);
    program *p = &k.progs[0];
    prog_init(p, "main");
    /* ids in the reader's order: sources before destinations */
    for (uint16_t i = 0; i < 300; i++) {
        instr *in = prog_append(p);
        in->kind = IK_ALU;
        in->cls = FU_INT;
        in->opcode = prog_opname(p, "IADD3");
        in->nsrc = 1;
        in->src[0] = i;
        in->ndst = 1;
        in->dst[0] = (uint16_t)(i + 1);
        in->stall = (uint8_t)(1 + i % 15);
    }
    p->nregs = 301;
    instr *x = prog_append(p);
    x->kind = IK_EXIT;
    x->cls = FU_BRANCH;
    x->opcode = prog_opname(p, "EXIT");
    roundtrip(&k, 0);

    /* and the ones it cannot write */
    char path[64];
    sk_error e = {0};
    tmp_path(path, sizeof path);
    p->code[0].src[0] = 400;
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "program 'main': entry 0: register 400 has no name");
    p->code[0].src[0] = 0;
    free(k.name);
    k.name = xstrdup("two words");
    e.code = 0;
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "kernel name 'two words': expected a name of at most 4096 bytes without blanks, '#' or '='");
    unlink(path);
    free(k.name);
    k.name = xstrdup("ok");
    e.code = 0;
    ck_assert_int_eq(trace_write_kernel("/nonexistent-dir/x.trace", &k, 0, &e), SK_EIO);
    ck_assert_str_eq(e.msg, "/nonexistent-dir/x.trace: cannot create: No such file or directory");
    kernel_free(&k);
}
END_TEST

/* --------------------------------------------- differential and fuzzing */

static uint64_t rng_state;

static uint32_t rng(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rng_state >> 33) % n);
}

static void gen_block(char **q, int loops, int depth)
{
    int items = 1 + (int)rng(4);
    for (int i = 0; i < items; i++) {
        int what = i == 0 ? 0 : (int)rng(4);
        if (what == 1 && loops < PROG_MAX_LOOP_DEPTH) {
            *q += sprintf(*q, "%*sloop %u%s\n", 2 * depth, "", rng(4), rng(2) ? " work" : "");
            gen_block(q, loops + 1, depth + 1);
            *q += sprintf(*q, "%*send\n", 2 * depth, "");
        } else if (what == 2 && depth < 12) {
            *q += sprintf(*q, "%*sifwarp 0\n", 2 * depth, "");
            gen_block(q, loops, depth + 1);
            *q += sprintf(*q, "%*send\n", 2 * depth, "");
        } else {
            *q += sprintf(*q, "%*sFFMA R%u <- R%u\n", 2 * depth, "", rng(8), rng(8));
        }
    }
}

/* The reference: walk the program as warp 0 would, one entry at a time. */
static uint64_t naive_count(const program *p, double work)
{
    struct { uint32_t head; uint64_t left; } st[PROG_MAX_LOOP_DEPTH];
    int sp = 0;
    uint64_t n = 0;
    uint32_t pc = 0;
    while (pc < p->n) {
        const instr *in = &p->code[pc];
        if (in->kind == IK_LOOP) {
            uint64_t c = in->arg;
            if (in->flags & IF_WORK_SCALED)
                c = (uint64_t)llround((double)in->arg * work);
            if (c == 0) {
                pc = in->jump;
            } else {
                st[sp].head = pc;
                st[sp++].left = c;
                pc++;
            }
        } else if (in->kind == IK_ENDLOOP) {
            ck_assert(sp > 0 && st[sp - 1].head == in->arg);
            if (--st[sp - 1].left > 0) {
                pc = in->arg + 1;
            } else {
                sp--;
                pc++;
            }
        } else if (in->kind == IK_IFWARP) {
            pc = in->arg == 0 ? pc + 1 : in->jump;
        } else {
            if (in->kind != IK_ENDIF)
                n++;
            pc++;
        }
    }
    return n;
}

START_TEST(test_dynamic_count_differential)
{
    char *text = xmalloc(1 << 20);
    rng_state = 12345;
    for (int round = 0; round < 300; round++) {
        char *q = text;
        q += sprintf(q, "skewsim-trace 1\nkernel r grid=1 block=64\nprogram p\n");
        gen_block(&q, 0, 1);
        q += sprintf(q, "  EXIT\nend\nendkernel\n");
        sk_error e = {0};
        trace *t = trace_open_string("random", text, &e);
        kernel k;
        ck_assert_msg(trace_next_kernel(t, &k, &e) == 1, "%s\n%s", e.msg, text);
        static const double works[] = {1.0, 0.5, 0.0, 2.0, 0.3};
        for (size_t w = 0; w < SK_ARRAY_LEN(works); w++)
            ck_assert_uint_eq(prog_dynamic_count(&k.progs[0], works[w]),
                              naive_count(&k.progs[0], works[w]));
        kernel_free(&k);
        trace_close(t);
    }
    free(text);
}
END_TEST

/* Random byte edits of a good trace: every outcome is a kernel or one
 * positioned SK_ETRACE message, never a crash (run under sanitizers). */
START_TEST(test_fuzz_mutations)
{
    char *good = slurp(GOOD);
    size_t n = strlen(good);
    char *buf = xmalloc(n + 64);
    static const char alphabet[] = "\n\r\t #=<-@!.,:0123456789RPUZTendloopifwarpctasrange";
    rng_state = 777;
    int nerr = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(buf, good, n + 1);
        size_t len = n;
        int edits = 1 + (int)rng(4);
        for (int j = 0; j < edits; j++) {
            size_t at = rng((uint32_t)len);
            char c = alphabet[rng((uint32_t)sizeof alphabet - 1)];
            switch (rng(3)) {
            case 0:
                buf[at] = c;
                break;
            case 1:                          /* delete */
                memmove(buf + at, buf + at + 1, len - at);
                len--;
                break;
            default:                         /* insert */
                memmove(buf + at + 1, buf + at, len - at + 1);
                buf[at] = c;
                len++;
                break;
            }
        }
        sk_error e = {0};
        uint64_t nk, nc;
        trace *t = trace_open_string("fuzz", buf, &e);
        int r = t ? drain(t, &e, &nk, &nc) : e.code;
        if (r < 0) {
            nerr++;
            ck_assert_int_eq(r, SK_ETRACE);
            ck_assert_msg(strncmp(e.msg, "fuzz:", 5) == 0, "%s", e.msg);
            ck_assert_ptr_null(strchr(e.msg, '\n'));
        }
        trace_close(t);
    }
    ck_assert_int_gt(nerr, 1000);
    free(buf);
    free(good);
}
END_TEST

/* ------------------------------------------------------------ line reader */

/* Text of lines whose lengths (0..3000 bytes, a few near the 64 KiB read
 * chunk and the 65536-byte limit) put line ends on both sides of every
 * chunk boundary; some end in '\r', the last has no newline. */
static char *line_text(size_t *len)
{
    uint32_t x = 12345;
    size_t cap = 1 << 20, n = 0;
    char *s = xmalloc(cap + LINEREAD_MAX_BYTES + 2);
    for (int i = 0; n < cap; i++) {
        x = x * 1103515245u + 12345u;
        size_t l = (x >> 8) % 3001;
        if (i % 97 == 5)
            l = LINEREAD_MAX_BYTES - (x >> 4) % 3;     /* long, still accepted */
        for (size_t j = 0; j < l; j++)
            s[n++] = (char)('!' + (j * 7 + (size_t)i) % 90);
        if (l && i % 13 == 0)
            s[n - 1] = '\r';
        s[n++] = '\n';
    }
    s[n - 1] = 'z';                 /* the last line has no newline */
    s[n] = '\0';
    *len = n;
    return s;
}

/* Every line of `l` equals the naive split of `text`, numbered 1, 2, ... */
static void check_lines(lineread *l, const char *text)
{
    const char *p = text;
    unsigned long no = 0;
    char *line;
    size_t len;
    sk_error e = {0};
    for (;;) {
        int r = lineread_next(l, &line, &len, &e);
        ck_assert_msg(r >= 0, "%s", e.msg);
        if (r == 0)
            break;
        const char *nl = strchr(p, '\n');
        size_t want = nl ? (size_t)(nl - p) : strlen(p);
        ck_assert_uint_eq(lineread_lineno(l), ++no);
        ck_assert_uint_eq(len, want);
        ck_assert_uint_eq(strlen(line), want);
        ck_assert_msg(memcmp(line, p, want) == 0, "line %lu differs", no);
        line[0] = '#';              /* the caller may change its line in place */
        p = nl ? nl + 1 : p + want;
        if (!nl)
            ck_assert_int_eq(*p, '\0');
    }
    ck_assert_int_eq(*p, '\0');
    ck_assert_uint_eq(lineread_lineno(l), no);
}

START_TEST(test_lineread_chunks)
{
    size_t n;
    char *text = line_text(&n);
    char path[64], gzpath[80];
    tmp_path(path, sizeof path);
    FILE *f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(text, 1, n, f), n);
    fclose(f);
    snprintf(gzpath, sizeof gzpath, "%s.gz", path);
    gzFile gz = gzopen(gzpath, "wb");
    ck_assert_int_eq(gzwrite(gz, text, (unsigned)n), (int)n);
    gzclose(gz);

    sk_error e = {0};
    lineread *l = lineread_open(path, &e);
    ck_assert_msg(l != NULL, "%s", e.msg);
    ck_assert_int_eq(lineread_in_memory(l), 0);
    check_lines(l, text);
    lineread_close(l);
    l = lineread_open(gzpath, &e);
    ck_assert_msg(l != NULL, "%s", e.msg);
    check_lines(l, text);
    lineread_close(l);
    l = lineread_open_string("text", text);
    ck_assert_int_eq(lineread_in_memory(l), 1);
    check_lines(l, text);
    lineread_close(l);
    remove(path);
    remove(gzpath);
    free(text);
}
END_TEST

START_TEST(test_lineread_errors)
{
    /* from a file: a line of 65536 bytes across the 64 KiB read chunk is
     * taken, one of 65537 is not; a NUL byte names its column */
    char path[64];
    tmp_path(path, sizeof path);
    size_t lim = LINEREAD_MAX_BYTES;
    char *s = xmalloc(2 * lim + 64);
    size_t n = 0;
    n += (size_t)sprintf(s, "first\n");
    memset(s + n, 'x', lim);
    n += lim;
    s[n++] = '\n';
    memset(s + n, 'y', lim + 1);
    n += lim + 1;
    s[n++] = '\n';
    FILE *f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(s, 1, n, f), n);
    fclose(f);
    sk_error e = {0};
    char *line, msg[128];
    size_t len;
    lineread *l = lineread_open(path, &e);
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(lineread_next(l, &line, &len, &e), 1);
    ck_assert_str_eq(line, "first");
    lineread_unread(l);             /* handed out again, same number */
    ck_assert_int_eq(lineread_next(l, &line, &len, &e), 1);
    ck_assert_str_eq(line, "first");
    ck_assert_uint_eq(lineread_lineno(l), 1);
    ck_assert_int_eq(lineread_next(l, &line, &len, &e), 1);
    ck_assert_uint_eq(len, lim);
    ck_assert_int_eq(line[lim - 1], 'x');
    ck_assert_int_eq(lineread_next(l, &line, &len, &e), SK_ETRACE);
    snprintf(msg, sizeof msg, "%s:3: line longer than 65536 bytes", path);
    ck_assert_str_eq(e.msg, msg);
    sk_error again = {0};           /* sticky */
    ck_assert_int_eq(lineread_next(l, &line, &len, &again), SK_ETRACE);
    ck_assert_str_eq(again.msg, msg);
    lineread_close(l);

    f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite("a\nb\nabcd\0e\n", 1, 11, f), 11);
    fclose(f);
    memset(&e, 0, sizeof e);
    l = lineread_open(path, &e);
    ck_assert_ptr_nonnull(l);
    while (lineread_next(l, &line, &len, &e) == 1)
        ;
    snprintf(msg, sizeof msg, "%s:3:5: NUL byte: expected text", path);
    ck_assert_str_eq(e.msg, msg);
    lineread_close(l);
    remove(path);

    memset(&e, 0, sizeof e);
    ck_assert_ptr_null(lineread_open("/nonexistent/skewsim.trace", &e));
    ck_assert_int_eq(e.code, SK_EIO);
    ck_assert_str_eq(e.msg, "/nonexistent/skewsim.trace: cannot open: No such file or directory");
    lineread_close(NULL);
    free(s);
}
END_TEST

/* trace_open_string(name, text) as one line: "open: MSG", "kernels: N" or
 * "error: MSG" (the first failing trace_next_kernel()). */
static void probe_outcome(const char *name, const char *text, char *out, size_t n)
{
    sk_error e = {0};
    kernel k;
    trace *t = trace_open_string(name, text, &e);
    if (!t) {
        snprintf(out, n, "open: %s", e.msg);
        return;
    }
    int r, nk = 0;
    while ((r = trace_next_kernel(t, &k, &e)) == 1) {
        nk++;
        kernel_free(&k);
    }
    if (r < 0)
        snprintf(out, n, "error: %s", e.msg);
    else
        snprintf(out, n, "kernels: %d", nk);
    trace_close(t);
}

START_TEST(test_format_probe)
{
    /* Which format reads an input: the first line that is neither blank nor
     * a comment decides, the native header first, and the native reader
     * reports what no format claims. */
    char out[SK_ERRMSG_MAX + 16], wide[400] = "-kernel name =";
    for (int i = 0; i < 62; i++)
        strcat(wide, " a");
    strcat(wide, "\n");
    const struct {
        const char *name, *text, *want;
    } cases[] = {
        /* Accel-Sim, after a comment and a blank line: its line numbers */
        {"x.traceg", "# note\n\n-kernel name = k\n",
         "error: x.traceg:3: end of file in the kernel header: expected #BEGIN_TB"},
        /* a native header wins over a kernelslist.g name */
        {"kernelslist.g", "skewsim-trace 1\n", "kernels: 0"},
        /* nothing to probe: the name decides */
        {"kernelslist.g", "\n# only a comment\n",
         "error: kernelslist.g: no kernel-N.traceg line: expected at least one kernel"},
        {"x.traceg", "", "open: x.traceg:1: end of file: expected the header 'skewsim-trace 1'"},
        /* more tokens than the native reader takes: its error, as before */
        {"x.traceg", wide, "open: x.traceg:1:138: -kernel: a: expected at most 64 tokens on a line"},
        {"x.trace", "garbage\n", "open: x.trace:1:1: garbage: expected the header 'skewsim-trace 1' first"},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(cases); i++) {
        probe_outcome(cases[i].name, cases[i].text, out, sizeof out);
        ck_assert_msg(strcmp(out, cases[i].want) == 0, "case %zu: got '%s', expected '%s'", i, out,
                      cases[i].want);
    }
}
END_TEST

Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, test_good_parse);
    tcase_add_test(tc, test_shipped_traces);
    tcase_add_test(tc, test_gz_same_as_plain);
    tcase_add_test(tc, test_string_crlf);
    tcase_add_test(tc, test_timer_marks);
    tcase_add_test(tc, test_line_limit);
    tcase_add_test(tc, test_empty_and_missing);
    tcase_add_test(tc, test_lineread_chunks);
    tcase_add_test(tc, test_lineread_errors);
    tcase_add_test(tc, test_format_probe);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad");
    tcase_add_loop_test(tc, test_bad_file, 0, (int)SK_ARRAY_LEN(bad_cases));
    tcase_add_test(tc, test_bad_files_all_listed);
    suite_add_tcase(s, tc);

    tc = tcase_create("stream");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_stream_million);
    tcase_add_test(tc, test_stream_huge_grid_skip);
    tcase_add_test(tc, test_skip_validates);
    suite_add_tcase(s, tc);

    tc = tcase_create("write");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_writer_roundtrip);
    tcase_add_test(tc, test_reuse_flags);
    tcase_add_test(tc, test_writer_synth_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("robust");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dynamic_count_differential);
    tcase_add_test(tc, test_fuzz_mutations);
    suite_add_tcase(s, tc);
    return s;
}
