/* test_accelsim.c -- the Accel-Sim trace reader (src/trace/accelsim.c) and
 * `skewsim import accelsim`.
 *
 * tests/data/accelsim/ holds a small hand-written trace in the tracer's
 * layout: kernelslist.g with MemcpyHtoD lines and two kernels; kernel-1 is a
 * 2x2 grid whose warps all run one stream with a memory op of each address
 * format and pattern; kernel-2 (tracer 5, line numbers, immediates, cluster
 * lines) lists its CTAs out of order and its warps differ, one with a
 * partial EXIT.  The tests pin the conversion (classes, patterns, bytes,
 * deduplication, ifwarp layout, CTA order), the errors, and two equalities:
 * a trace and its import simulate to the same bytes, and a trace equivalent
 * to a native one simulates to the same times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <zlib.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/trace.h"
#include "skewsim/memsys.h"
#include "skewsim/run.h"
#include "skewsim/results.h"

#define AS_DIR TEST_DATA "/accelsim"

/* A kernel file's header: grid and block as "X,Y,Z". */
static char *header(const char *grid, const char *block, const char *extra)
{
    return tu_strf("-kernel name = k\n-grid dim = (%s)\n-block dim = (%s)\n-shmem = 0\n-nregs = 8\n"
                   "-accelsim tracer version = 4\n%s\n#traces format = ...\n", grid, block, extra);
}

static trace *open_ok(const char *path)
{
    sk_error e = {0};
    trace *t = trace_open(path, &e);
    ck_assert_msg(t != NULL, "%s: %s", path, e.msg);
    return t;
}

static void next_kernel_ok(trace *t, kernel *k)
{
    sk_error e = {0};
    int rc = trace_next_kernel(t, k, &e);
    ck_assert_msg(rc == 1, "trace_next_kernel: %d: %s", rc, e.msg);
}

static const instr *op_named(const program *p, const char *name, int nth)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (p->code[i].kind < IK_LOOP && strcmp(p->opnames[p->code[i].opcode], name) == 0 && nth-- == 0)
            return &p->code[i];
    ck_abort_msg("no %s in program %s", name, p->name);
    return NULL;
}

/* ------------------------------------------------------------ opcodes */

START_TEST(test_sm90_mnemonics)
{
    /* a sample of every group of NVIDIA's sm_90 instruction-set list */
    static const char *const ops[] = {
        "IMAD.MOV.U32", "IADD3.X", "LOP3.LUT", "SHF.R.U32.HI", "LEA.HI", "ISETP.GE.AND", "FSETP.GT",
        "SEL", "MOV", "S2R", "S2UR", "CS2R.32", "LDC.64", "ULDC.64", "UMOV", "UIADD3", "ULOP3.LUT",
        "USHF.L.U32", "R2UR", "BRA.U", "BSSY", "BSYNC", "WARPSYNC.ALL", "NOP", "SHFL.BFLY", "VOTE.ANY",
        "MUFU.EX2", "HMMA.16816.F32", "HGMMA.64x128x16.F32", "IMMA.16832.S8.S8", "LDGSTS.E.BYPASS.128",
        "LDGDEPBAR", "DEPBAR.LE", "LDSM.16.M88.4", "ATOM.E.ADD", "ATOMG.E.EXCH", "ATOMS.POPC.INC",
        "RED.E.ADD.F32", "MEMBAR.GPU", "FENCE.VIEW.ASYNC.S", "ERRBAR", "CCTL.IVALL", "UTMALDG.2D",
        "SYNCS.ARRIVE.TRANS64", "UTMASTG.3D", "WARPGROUP.ARRIVE", "UCGABAR_ARV", "STAS", "REDAS",
        "TEX.SCR", "SULD.P", "SUST.D", "VIADDMNMX", "HADD2_32I", "USETMAXREG.DEALLOC", "ACQBULK",
        "ELECT", "PREEXIT", "B2R", "GETLMEMBASE", "UBLKCP", "I2FP.F32.S32", "F2FP.BF16.F32.PACK_AB",
        "QGMMA.64x64x32", "PEXIT",
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(ops); i++) {
        uint8_t kind, cls;
        sk_error e = {0};
        ck_assert_msg(prog_classify(ops[i], &kind, &cls, &e) == 0, "%s: %s", ops[i], e.msg);
    }
    uint8_t kind, cls;
    sk_error e = {0};
    ck_assert_int_eq(prog_classify("UTMALDG.2D", &kind, &cls, &e), 0);
    ck_assert_int_eq(kind, IK_LD_GLOBAL);
    ck_assert_int_eq(prog_classify("SYNCS.PHASECHK", &kind, &cls, &e), 0);
    ck_assert(kind == IK_ALU && cls == FU_MISC);
    ck_assert_int_eq(prog_classify("PEXIT", &kind, &cls, &e), 0);
    ck_assert(kind == IK_ALU && cls == FU_BRANCH);
    ck_assert_int_eq(prog_classify("HGMMA.64x256x16", &kind, &cls, &e), 0);
    ck_assert_int_eq(cls, FU_TENSOR);
    ck_assert_int_eq(prog_classify("FROBNICATE", &kind, &cls, &e), SK_ETRACE);
}
END_TEST

/* ----------------------------------------------------- the data directory */

static void check_kernel1(const kernel *k)
{
    ck_assert_str_eq(k->name, "_Z6squarePfS_i");
    ck_assert_int_eq(k->grid, 4);
    ck_assert_int_eq(k->block_threads, 64);
    ck_assert_int_eq(k->regs_per_thread, 16);
    ck_assert_int_eq(k->smem_bytes, 1024);
    ck_assert_int_eq(k->nprogs, 1);             /* 4 CTAs x 2 warps, one stream */
    const program *p = &k->progs[0];
    ck_assert_int_eq(p->n, 12);
    for (uint32_t i = 0; i < p->n; i++)
        ck_assert_int_eq(p->code[i].stall, 1);
    ck_assert_int_eq(p->code[p->n - 1].kind, IK_EXIT);
    const instr *in = op_named(p, "IMAD.MOV.U32", 0);   /* R255 is RZ: no source */
    ck_assert(in->ndst == 1 && in->nsrc == 0 && in->cls == FU_FP32);   /* the FMA pipe (E29) */
    in = op_named(p, "LDC", 0);                 /* no address traced: uniform, width of the opcode */
    ck_assert(in->kind == IK_LD_SHARED && in->pattern == MP_UNIFORM && in->bytes == 4);
    in = op_named(p, "LDG.E", 0);               /* base+stride, stride 4 = width */
    ck_assert(in->kind == IK_LD_GLOBAL && in->pattern == MP_COALESCED && in->bytes == 4);
    in = op_named(p, "LDG.E.64", 0);            /* stride 16, width 8 */
    ck_assert(in->pattern == MP_STRIDED && in->stride == 16 && in->bytes == 8);
    in = op_named(p, "LDG.E", 1);               /* stride 0 */
    ck_assert(in->pattern == MP_UNIFORM);
    in = op_named(p, "LDS", 0);                 /* list of 4 addresses, 4 apart */
    ck_assert(in->kind == IK_LD_SHARED && in->pattern == MP_COALESCED);
    in = op_named(p, "STG.E", 0);               /* base+deltas, one of them 4096 */
    ck_assert(in->kind == IK_ST_GLOBAL && in->pattern == MP_RANDOM && in->ndst == 0 && in->nsrc == 2);
    in = op_named(p, "BAR.SYNC.DEFER_BLOCKING", 0);
    ck_assert_int_eq(in->kind, IK_BAR);
    in = op_named(p, "FFMA", 0);
    ck_assert(in->nsrc == 3 && in->ndst == 1 && in->cls == FU_FP32);
    /* dense registers, sources numbered first: FFMA's sources are the loads' results */
    ck_assert_int_eq(in->src[0], op_named(p, "LDG.E", 0)->dst[0]);
}

static void check_kernel2(const kernel *k)
{
    ck_assert_str_eq(k->name, "_Z9reduce_v2Pf");
    ck_assert_int_eq(k->grid, 2);
    ck_assert_int_eq(k->block_threads, 96);
    ck_assert_int_eq(k->nprogs, 1);             /* both CTAs alike, warps differ */
    const program *p = &k->progs[0];
    /* ifwarp 0 {5} ifwarp 1 {3} ifwarp 2 {4} EXIT */
    ck_assert_int_eq(p->n, 2 + 5 + 2 + 3 + 2 + 4 + 1);
    uint32_t at = 0;
    for (uint32_t w = 0; w < 3; w++) {
        const instr *in = &p->code[at];
        ck_assert_int_eq(in->kind, IK_IFWARP);
        ck_assert_int_eq(in->arg, w);
        ck_assert_int_eq(p->code[in->jump - 1].kind, IK_ENDIF);
        ck_assert_int_eq(p->code[in->jump - 1].arg, at);
        at = in->jump;
    }
    ck_assert_int_eq(p->code[at].kind, IK_EXIT);
    ck_assert_int_eq(at, p->n - 1);
    const instr *pexit = op_named(p, "PEXIT", 0);     /* warp 2's early EXIT */
    ck_assert(pexit->kind == IK_ALU && pexit->cls == FU_BRANCH);
    const instr *stg = op_named(p, "STG.E", 0);       /* one thread: uniform */
    ck_assert_int_eq(stg->pattern, MP_UNIFORM);
    ck_assert_int_eq(prog_warp_count(p, 1.0, 0), 6);
    ck_assert_int_eq(prog_warp_count(p, 1.0, 1), 4);
    ck_assert_int_eq(prog_warp_count(p, 1.0, 2), 5);
}

static void check_ctas(trace *t, uint64_t n)
{
    sk_error e = {0};
    cta_desc d;
    for (uint64_t i = 0; i < n; i++) {
        ck_assert_int_eq(trace_next_cta(t, &d, &e), 1);
        ck_assert_int_eq(d.id, i);
        ck_assert_int_eq(d.prog, 0);
        ck_assert(d.work == 1.0);
    }
    ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
}

START_TEST(test_read_dir)
{
    static const char *const paths[] = {AS_DIR, AS_DIR "/", AS_DIR "/kernelslist.g"};
    for (size_t i = 0; i < SK_ARRAY_LEN(paths); i++) {
        trace *t = open_ok(paths[i]);
        kernel k;
        sk_error e = {0};
        next_kernel_ok(t, &k);
        check_kernel1(&k);
        check_ctas(t, 4);
        kernel_free(&k);
        next_kernel_ok(t, &k);
        check_kernel2(&k);
        check_ctas(t, 2);
        kernel_free(&k);
        ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
        trace_close(t);
    }
    trace *t = open_ok(AS_DIR "/kernel-2.traceg");
    kernel k;
    sk_error e = {0};
    next_kernel_ok(t, &k);
    check_kernel2(&k);
    kernel_free(&k);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 0);
    trace_close(t);
}
END_TEST

/* kernelslist.g names kernel-1.traceg; only kernel-1.traceg.gz is there. */
START_TEST(test_read_gz)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "asgz");
    char *text = tu_slurp(AS_DIR "/kernel-1.traceg", NULL);
    char *gz = tu_strf("%s/kernel-1.traceg.gz", dir), *list = tu_strf("%s/kernelslist.g", dir);
    gzFile g = gzopen(gz, "wb9");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(gzputs(g, text), (int)strlen(text));
    ck_assert_int_eq(gzclose(g), Z_OK);
    FILE *f = fopen(list, "w");
    ck_assert_ptr_nonnull(f);
    fputs("MemcpyHtoD,0x00007f2a10000000,65536\nkernel-1.traceg\n", f);
    fclose(f);
    trace *t = open_ok(dir);
    kernel k;
    next_kernel_ok(t, &k);
    check_kernel1(&k);
    check_ctas(t, 4);
    kernel_free(&k);
    trace_close(t);
    free(text);
    free(gz);
    free(list);
    tu_rmdir(dir);
}
END_TEST

/* ------------------------------------------------------- deduplication */

/* An 8x8 grid of one-warp CTAs; CTA `odd` (if < 64) adds an instruction. */
static char *grid64(int odd)
{
    char *h = header("8,8,1", "32,1,1", "");
    size_t cap = 1 << 16, n = 0;
    char *s = xmalloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "%s", h);
    for (int y = 7; y >= 0; y--) {      /* out of order on purpose */
        for (int x = 0; x < 8; x++) {
            int id = y * 8 + x;
            n += (size_t)snprintf(s + n, cap - n, "#BEGIN_TB\nthread block = %d,%d,0\nwarp = 0\ninsts = %d\n"
                                  "0000 ffffffff 1 R0 S2R 0 0\n", x, y, id == odd ? 3 : 2);
            if (id == odd)
                n += (size_t)snprintf(s + n, cap - n, "0008 ffffffff 1 R1 FADD 2 R0 R0 0\n");
            n += (size_t)snprintf(s + n, cap - n, "0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
        }
    }
    free(h);
    return s;
}

START_TEST(test_dedup)
{
    for (int odd = 5; odd <= 64; odd += 59) {
        char *text = grid64(odd);
        sk_error e = {0};
        trace *t = trace_open_string("g.traceg", text, &e);
        ck_assert_msg(t != NULL, "%s", e.msg);
        kernel k;
        next_kernel_ok(t, &k);
        ck_assert_int_eq(k.grid, 64);
        ck_assert_int_eq(k.nprogs, odd < 64 ? 2 : 1);
        cta_desc d;
        for (uint64_t i = 0; i < 64; i++) {
            ck_assert_int_eq(trace_next_cta(t, &d, &e), 1);
            ck_assert_int_eq(d.id, i);
            /* CTA 5 is met after CTAs 56..63 (y descends): its own program */
            ck_assert_int_eq(d.prog, odd < 64 && (int)i == odd ? 1 : 0);
        }
        ck_assert_int_eq(trace_next_cta(t, &d, &e), 0);
        kernel_free(&k);
        trace_close(t);
        free(text);
    }
}
END_TEST

/* -------------------------------------------------------------- errors */

#define BODY1 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
#define EXIT_LINE "0010 ffffffff 0 EXIT 0 0\n#END_TB\n"

START_TEST(test_errors)
{
    static const struct {
        const char *grid, *block, *body, *err;
    } cases[] = {
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 S2R 0 0\n#END_TB\n",
         "t.traceg:14: warp 0 of thread block (0,0,0): insts = 2 (line 12) but 1 instruction lines follow"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 S2R 0 0\n0008 ffffffff 1 R0 S2R 0 0\n" EXIT_LINE,
         "t.traceg:15: 0010: expected 'warp = N' or '#END_TB' after the 2 instructions of warp 0 (insts = 2, line 12)"},
        {"0,1,1", "32,1,1", "", "t.traceg:2: -grid dim: (0,1,1): expected (X,Y,Z) of 1..4294967296 CTAs"},
        {"65536,65536,2", "32,1,1", "", "t.traceg:2: -grid dim: (65536,65536,2): expected (X,Y,Z) of 1..4294967296 CTAs"},
        {"1,1,1", "33,32,1", "", "t.traceg:3: -block dim: (33,32,1): expected (X,Y,Z) of 1..1024 threads"},
        {"2,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 S2R 0 0\n" EXIT_LINE BODY1 "0000 ffffffff 1 R0 S2R 0 0\n" EXIT_LINE,
         "t.traceg:17: thread block = 0,0,0: expected each CTA once (also at line 10)"},
        {"3,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 S2R 0 0\n" EXIT_LINE,
         "t.traceg:15: kernel 'k': thread block (1,0,0) is missing: expected each of the 3 CTAs of grid (3,1,1) once"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 FROB.X 0 0\n" EXIT_LINE,
         "t.traceg:13: FROB.X: unknown opcode: expected a SASS mnemonic of docs/trace-format.md's opcode table"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 LDG.E 1 R2 4 3 0x10 4\n" EXIT_LINE,
         "t.traceg:13: LDG.E: address format: 3: expected 0 (list), 1 (base, stride) or 2 (base, deltas)"},
        {"1,1,1", "32,1,1", BODY1 "0000 fffffffg 1 R0 S2R 0 0\n" EXIT_LINE,
         "t.traceg:13: mask: fffffffg: expected a hexadecimal active mask of at most 8 digits"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 99999999999 R0 S2R 0 0\n" EXIT_LINE,
         "t.traceg:13: dest_num: 99999999999: expected 0..2 destination registers"},
        {"1,1,1", "64,1,1", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n",
         "t.traceg:11: warp = 2: expected a warp index 0..1 (block of 64 threads)"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 LDG.E 1 R2 3 1 0x10 4\n" EXIT_LINE,
         "t.traceg:13: LDG.E: mem_width: 3: expected 0, 1, 2, 4, 8 or 16 bytes per thread"},
        {"1,1,1", "32,1,1", BODY1 "0000 0000000f 1 R0 LDG.E 1 R2 4 0 0x10 0x14 0x18\n" EXIT_LINE,
         "t.traceg:13: LDG.E: end of line: expected an address per active thread"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 Q0 S2R 0 0\n" EXIT_LINE,
         "t.traceg:13: dest: Q0: expected a register (R0-R255, UR0-UR62, P0-P6, UP0-UP6, RZ, PT, URZ, UPT)"},
        {"1,1,1", "32,1,1", BODY1 "0000 ffffffff 1 R0 S2R 0 0 7 8\n" EXIT_LINE,
         "t.traceg:13: S2R: 7: expected a decimal immediate or the end of the line"},
        {"1,1,1", "32,1,1", BODY1, "t.traceg:12: end of file inside the thread block of line 9: expected #END_TB"},
        {"5,1,1", "32,1,1", "#BEGIN_TB\nthread block = 5,0,0\n",
         "t.traceg:10: thread block = 5,0,0: expected X,Y,Z below the grid (5,1,1)"},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(cases); i++) {
        char *h = header(cases[i].grid, cases[i].block, "");
        char *text = tu_strf("%s%s", h, cases[i].body);
        sk_error e = {0};
        trace *t = trace_open_string("t.traceg", text, &e);
        ck_assert_msg(t != NULL, "case %zu: %s", i, e.msg);
        kernel k;
        int rc = trace_next_kernel(t, &k, &e);
        ck_assert_msg(rc == SK_ETRACE, "case %zu: %d (%s)", i, rc, e.msg);
        ck_assert_msg(strcmp(e.msg, cases[i].err) == 0, "case %zu:\n  got:      %s\n  expected: %s", i, e.msg,
                      cases[i].err);
        /* sticky */
        sk_error e2 = {0};
        ck_assert_int_eq(trace_next_kernel(t, &k, &e2), SK_ETRACE);
        ck_assert_str_eq(e2.msg, e.msg);
        trace_close(t);
        free(text);
        free(h);
    }
    /* a kernelslist needs its files */
    sk_error e = {0};
    trace *t = trace_open_string("kernelslist.g", "MemcpyHtoD,0x0000000000001000,4\nkernel-1.traceg\n", &e);
    ck_assert_ptr_nonnull(t);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "kernelslist.g:2: kernel-1.traceg: expected a kernelslist.g read from a file "
                     "(its kernels are files next to it)");
    trace_close(t);
}
END_TEST

/* -------------------------------------------- equal to a native trace */

/* The same kernel in both formats: 2 CTAs of 2 warps, an FMA chain on a
 * load, a store; stall=1 everywhere, registers in the same order. */
static const char as_text[] =
    "-kernel name = eq\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-nregs = 8\n-shmem = 0\n"
    "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n#traces format\n"
    "#BEGIN_TB\nthread block = 1,0,0\n"
    "warp = 0\ninsts = 6\n"
    "0000 ffffffff 1 R0 S2R 0 0\n0010 ffffffff 1 R1 LDG.E 1 R0 4 1 0x7000 4\n"
    "0020 ffffffff 1 R2 FFMA 3 R1 R1 R0 0\n0030 ffffffff 1 R2 FFMA 3 R2 R2 R1 0\n"
    "0040 ffffffff 0 STG.E.64 2 R0 R2 8 1 0x9000 64\n0050 ffffffff 0 EXIT 0 0\n"
    "warp = 1\ninsts = 6\n"
    "0000 ffffffff 1 R0 S2R 0 0\n0010 ffffffff 1 R1 LDG.E 1 R0 4 1 0x7080 4\n"
    "0020 ffffffff 1 R2 FFMA 3 R1 R1 R0 0\n0030 ffffffff 1 R2 FFMA 3 R2 R2 R1 0\n"
    "0040 ffffffff 0 STG.E.64 2 R0 R2 8 1 0x9800 64\n0050 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n"
    "#BEGIN_TB\nthread block = 0,0,0\n"
    "warp = 0\ninsts = 6\n"
    "0000 ffffffff 1 R0 S2R 0 0\n0010 ffffffff 1 R1 LDG.E 1 R0 4 1 0x6000 4\n"
    "0020 ffffffff 1 R2 FFMA 3 R1 R1 R0 0\n0030 ffffffff 1 R2 FFMA 3 R2 R2 R1 0\n"
    "0040 ffffffff 0 STG.E.64 2 R0 R2 8 1 0x8000 64\n0050 ffffffff 0 EXIT 0 0\n"
    "warp = 1\ninsts = 6\n"
    "0000 ffffffff 1 R0 S2R 0 0\n0010 ffffffff 1 R1 LDG.E 1 R0 4 1 0x6080 4\n"
    "0020 ffffffff 1 R2 FFMA 3 R1 R1 R0 0\n0030 ffffffff 1 R2 FFMA 3 R2 R2 R1 0\n"
    "0040 ffffffff 0 STG.E.64 2 R0 R2 8 1 0x8800 64\n0050 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n";

static const char native_text[] =
    "skewsim-trace 1\n"
    "kernel eq grid=2 block=64 regs=8 smem=0\n"
    "program main\n"
    "  S2R R0\n"
    "  LDG.E R1 <- R0 bytes=4 pattern=coalesced\n"
    "  FFMA R2 <- R1 R0\n"
    "  FFMA R2 <- R2 R1\n"
    "  STG.E.64 <- R0 R2 bytes=8 pattern=strided:64\n"
    "  EXIT\n"
    "end\n"
    "endkernel\n";

START_TEST(test_equals_native)
{
    static const char *const chips[] = {TU_TINY_YAML, ""};
    for (size_t c = 0; c < SK_ARRAY_LEN(chips); c++) {
        cfg conf;
        if (c == 0)
            tu_cfg(&conf, NULL, chips[c], NULL);
        else   /* flat memory: only bytes and pattern count, which both traces carry; the
                * hierarchy would also see the Accel-Sim addresses the native text lacks */
            tu_cfg(&conf, TU_H200, "memory: {model: flat}\n", NULL);
        tu_run a, b;
        tu_simulate_ok(&a, &conf, as_text);
        tu_simulate_ok(&b, &conf, native_text);
        const kernel_stats *ka = results_kernel(a.r, 0), *kb = results_kernel(b.r, 0);
        ck_assert_int_eq(ka->warp_instructions, kb->warp_instructions);
        ck_assert_int_eq(ka->warp_instructions, 2 * 2 * 6);
        ck_assert_msg(ka->first_start_ps == kb->first_start_ps && ka->last_end_ps == kb->last_end_ps &&
                      ka->done_ps == kb->done_ps,
                      "chip %zu: Accel-Sim last end %lld done %lld, native last end %lld done %lld", c,
                      (long long)ka->last_end_ps, (long long)ka->done_ps, (long long)kb->last_end_ps,
                      (long long)kb->done_ps);
        ck_assert(ka->last_end_ps > ka->first_start_ps);
        for (uint64_t i = 0; i < 2; i++) {
            const cta_record *x = tu_cta(&a, 0, i), *y = tu_cta(&b, 0, i);
            ck_assert(x->start_ps == y->start_ps && x->end_ps == y->end_ps && x->sm == y->sm);
        }
        tu_run_free(&a);
        tu_run_free(&b);
    }
}
END_TEST

/* Repeats fold into loops, and loops change no time: 50 x {FFMA, IADD3}
 * and 4 x NOP against the same stream unrolled in a native trace. */
START_TEST(test_fold_repeats)
{
    char *h = header("3,1,1", "64,1,1", "");
    size_t cap = 1 << 16, n = 0;
    char *as = xmalloc(cap), *nat = xmalloc(cap);
    n += (size_t)snprintf(as + n, cap - n, "%s", h);
    size_t m = (size_t)snprintf(nat, cap, "skewsim-trace 1\nkernel k grid=3 block=64 regs=8 smem=0\n"
                                "program main\n  S2R R0\n");
    for (int i = 0; i < 50; i++)
        m += (size_t)snprintf(nat + m, cap - m, "  FFMA R1 <- R1 R0\n  IADD3 R2 <- R2 R0\n");
    m += (size_t)snprintf(nat + m, cap - m, "  NOP\n  NOP\n  NOP\n  NOP\n  EXIT\nend\nendkernel\n");
    for (int c = 0; c < 3; c++) {
        n += (size_t)snprintf(as + n, cap - n, "#BEGIN_TB\nthread block = %d,0,0\n", c);
        for (int w = 0; w < 2; w++) {
            n += (size_t)snprintf(as + n, cap - n, "warp = %d\ninsts = 106\n0000 ffffffff 1 R0 S2R 0 0\n", w);
            for (int i = 0; i < 50; i++)
                n += (size_t)snprintf(as + n, cap - n, "0010 ffffffff 1 R1 FFMA 2 R1 R0 0\n"
                                      "0020 ffffffff 1 R2 IADD3 2 R2 R0 0\n");
            n += (size_t)snprintf(as + n, cap - n, "0030 ffffffff 0 NOP 0 0\n0030 ffffffff 0 NOP 0 0\n"
                                  "0030 ffffffff 0 NOP 0 0\n0030 ffffffff 0 NOP 0 0\n0040 ffffffff 0 EXIT 0 0\n");
        }
        n += (size_t)snprintf(as + n, cap - n, "#END_TB\n");
    }
    ck_assert(n < cap - 1 && m < cap - 1);
    sk_error e = {0};
    trace *t = trace_open_string("fold.traceg", as, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    next_kernel_ok(t, &k);
    ck_assert_int_eq(k.nprogs, 1);
    const program *p = &k.progs[0];
    ck_assert_int_eq(p->n, 1 + 4 + 3 + 1);
    ck_assert(p->code[1].kind == IK_LOOP && p->code[1].arg == 50 && p->code[1].jump == 5);
    ck_assert(p->code[4].kind == IK_ENDLOOP && p->code[4].arg == 1);
    ck_assert(p->code[5].kind == IK_LOOP && p->code[5].arg == 4);
    ck_assert_int_eq(prog_warp_count(p, 1.0, 1), 106);
    kernel_free(&k);
    trace_close(t);

    cfg conf;
    tu_cfg(&conf, TU_H200, NULL);
    tu_run a, b;
    tu_simulate_ok(&a, &conf, as);
    tu_simulate_ok(&b, &conf, nat);
    const kernel_stats *ka = results_kernel(a.r, 0), *kb = results_kernel(b.r, 0);
    ck_assert_int_eq(ka->warp_instructions, 3 * 2 * 106);
    ck_assert_int_eq(ka->warp_instructions, kb->warp_instructions);
    ck_assert(ka->last_end_ps == kb->last_end_ps && ka->done_ps == kb->done_ps);
    tu_run_free(&a);
    tu_run_free(&b);
    free(as);
    free(nat);
    free(h);
}
END_TEST

/* ------------------------------------------- import: the same results */

static int run_bin(const char *args)
{
    const char *bin = getenv("SKEWSIM_BIN");
    char *cmd = tu_strf("%s %s >/dev/null 2>&1", bin && *bin ? bin : "build/skewsim", args);
    int st = system(cmd);
    free(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Traced addresses reach the coalescer (tests/data/accelsim-addr, made by
 * hand: 3 CTAs x 2 warps).  Per warp: a load repeated 3 times (a loop) at
 * 0x7f0000000000 + 4096 cta + 128 warp + 256 iteration, 4 B lanes; a load
 * whose lanes are scattered; a re-read of the loop's first addresses that
 * waits for them; 8 B lanes 64 B apart; a load whose CTA 2 breaks the
 * stride CTAs 0 and 1 set; a store.  Affine instances get their affine
 * pattern, the others none. */
START_TEST(test_addresses)
{
    trace *t = open_ok(TEST_DATA "/accelsim-addr/kernel-1.traceg");
    kernel k;
    next_kernel_ok(t, &k);
    ck_assert_int_eq(k.nprogs, 1);
    const program *p = &k.progs[0];
    const struct { const char *op; int nth; uint64_t base; int64_t lane, warp, cta, iter; } want[] = {
        {"LDG.E", 0, 0x7f0000000000ull, 4, 128, 4096, 256},
        {"LDG.E", 2, 0x7f0000000000ull, 4, 128, 4096, 0},
        {"LDG.E.64", 0, 0x7f0001000000ull, 64, 2048, 8192, 0},
        {"STG.E", 0, 0x7f0000200000ull, 4, 128, 4096, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const instr *in = op_named(p, want[i].op, want[i].nth);
        ck_assert_msg(in->apat > 0, "%s #%d: no address pattern", want[i].op, want[i].nth);
        const mem_apat *a = &p->apats[in->apat - 1];
        ck_assert_int_eq(a->kind, MEM_AP_AFFINE);
        ck_assert_uint_eq(a->base, want[i].base);
        ck_assert_int_eq(a->lane, want[i].lane);
        ck_assert_int_eq(a->warp, want[i].warp);
        ck_assert_int_eq(a->cta, want[i].cta);
        ck_assert_int_eq(a->iter, want[i].iter);
        ck_assert_uint_eq(a->ws, 0);
        /* the pattern gives the traced lanes back: CTA 1, warp 1, lane 5 */
        uint64_t lanes[32];
        mem_apat_lanes(a, 1, 1, 0, in->bytes, lanes);
        ck_assert_uint_eq(lanes[5], want[i].base + (uint64_t)want[i].cta + (uint64_t)want[i].warp +
                                        5 * (uint64_t)want[i].lane);
    }
    ck_assert_int_eq(op_named(p, "LDG.E", 1)->apat, 0);   /* scattered lanes */
    ck_assert_int_eq(op_named(p, "LDG.E", 3)->apat, 0);   /* CTA 2 off the stride */
    kernel_free(&k);
    trace_close(t);

    /* simulated: the re-read hits the lines the loop's first iteration
     * brought in, 4 sectors a warp; nothing else can hit */
    cfg c;
    tu_cfg(&c, NULL, "memory: {model: hierarchy}", NULL);
    sk_error e = {0};
    t = open_ok(TEST_DATA "/accelsim-addr/kernel-1.traceg");
    results *r = run_simulate(&c, t, &e);
    ck_assert_msg(r != NULL, "%s", e.msg);
    trace_close(t);
    const mem_stats *m = &results_kernel(r, 0)->mem;
    ck_assert_uint_eq(m->l1_hits, 3 * 2 * 4);
    /* per warp 3 + 1 lines of the loop and the re-read, 16 of the 8 B lanes */
    ck_assert_uint_eq(m->l1_sectors, 3 * 2 * (4 * 4 + 32));
    results_free(r);
}
END_TEST

START_TEST(test_import_round_trip)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "asimp");
    static const char *const outs[] = {"x.trace", "x.trace.gz"};
    char *args = tu_strf("run -c " TU_H200 " -t " AS_DIR " -o %s/a", dir);
    ck_assert_int_eq(run_bin(args), 0);
    free(args);
    char *sa = tu_strf("%s/a/summary.json", dir), *ca = tu_strf("%s/a/ctas.csv", dir);
    char *summary = tu_slurp(sa, NULL), *ctas = tu_slurp(ca, NULL);
    for (size_t i = 0; i < SK_ARRAY_LEN(outs); i++) {
        args = tu_strf("import accelsim " AS_DIR " -o %s/%s", dir, outs[i]);
        ck_assert_int_eq(run_bin(args), 0);
        free(args);
        args = tu_strf("run -c " TU_H200 " -t %s/%s -o %s/b", dir, outs[i], dir);
        ck_assert_int_eq(run_bin(args), 0);
        free(args);
        char *sb = tu_strf("%s/b/summary.json", dir), *cb = tu_strf("%s/b/ctas.csv", dir);
        char *summary_b = tu_slurp(sb, NULL), *ctas_b = tu_slurp(cb, NULL);
        ck_assert_msg(strcmp(summary, summary_b) == 0, "%s: summary.json differs from the Accel-Sim run",
                      outs[i]);
        ck_assert_msg(strcmp(ctas, ctas_b) == 0, "%s: ctas.csv differs from the Accel-Sim run", outs[i]);
        free(summary_b);
        free(ctas_b);
        free(sb);
        free(cb);
        char *b = tu_strf("%s/b", dir);
        tu_rmdir(b);
        free(b);
        char *o = tu_strf("%s/%s", dir, outs[i]);
        remove(o);
        free(o);
    }
    /* the native output: one program per kernel, the CTA table as ranges */
    args = tu_strf("import accelsim " AS_DIR "/kernel-1.traceg -o %s/one.trace", dir);
    ck_assert_int_eq(run_bin(args), 0);
    free(args);
    char *one = tu_strf("%s/one.trace", dir);
    char *text = tu_slurp(one, NULL);
    ck_assert_ptr_nonnull(strstr(text, "kernel _Z6squarePfS_i grid=4 block=64 regs=16 smem=1024\nprogram p0\n"));
    ck_assert_ptr_nonnull(strstr(text, "ctas\n  range 0 3\nend\nendkernel\n"));
    ck_assert_ptr_null(strstr(text, "program p1"));
    remove(one);
    free(one);
    free(text);
    /* a failed import leaves no file */
    args = tu_strf("import accelsim " TEST_DATA "/bad/as_unknown_opcode.traceg -o %s/bad.trace", dir);
    ck_assert_int_eq(run_bin(args), 2);
    free(args);
    char *bad = tu_strf("%s/bad.trace", dir);
    ck_assert(!tu_exists(bad));
    free(bad);
    char *a = tu_strf("%s/a", dir);
    tu_rmdir(a);
    free(a);
    free(summary);
    free(ctas);
    free(sa);
    free(ca);
    tu_rmdir(dir);
}
END_TEST

/* ------------------------------------------------------- active masks */

#define MASK_DIR TEST_DATA "/accelsim-mask"

/* A number after "KEY": in a summary.json text (its first occurrence: the
 * chip's, or the first kernel's). */
static double json_num(const char *text, const char *key)
{
    char *k = tu_strf("\"%s\": ", key);
    const char *at = strstr(text, k);
    ck_assert_msg(at != NULL, "no %s in summary.json", key);
    double v = strtod(at + strlen(k), NULL);
    free(k);
    return v;
}

/* The masks of tests/data/accelsim-mask (see its comment) reach the
 * patterns: agreed ones exactly, mixed ones (across warps, across CTAs) as
 * their union, and a mask of 0 as a pattern of no lanes. */
START_TEST(test_masks)
{
    sk_error e = {0};
    trace *t = open_ok(MASK_DIR "/kernel-1.traceg");
    kernel k;
    next_kernel_ok(t, &k);
    ck_assert_int_eq(k.nprogs, 1);
    const program *p = &k.progs[0];
    static const struct { const char *op; int nth; uint32_t mask; } want[] = {
        {"LDG.E", 0, 0x0000000fu}, {"LDG.E", 1, 0}, {"LDG.E", 2, 0xff0000ffu},
        {"LDG.E", 3, 0x0000ffffu}, {"LDS.64", 0, 0x0000ffffu}, {"LDG.E", 4, 0x00000003u},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(want); i++) {
        const instr *in = op_named(p, want[i].op, want[i].nth);
        ck_assert_msg(in->apat > 0, "%s #%d: no address pattern", want[i].op, want[i].nth);
        ck_assert_msg(mem_apat_mask(&p->apats[in->apat - 1]) == want[i].mask, "%s #%d: mask %08x, want %08x",
                      want[i].op, want[i].nth, mem_apat_mask(&p->apats[in->apat - 1]), want[i].mask);
    }
    /* the tail load keeps its addresses: CTA 1, warp 1, lane 3 */
    const instr *in = op_named(p, "LDG.E", 0);
    uint64_t lanes[32];
    mem_apat_lanes(&p->apats[in->apat - 1], 1, 1, 0, 4, lanes);
    ck_assert_uint_eq(lanes[3], 0x7f0000000000ull + 4096 + 128 + 12);
    kernel_free(&k);
    trace_close(t);

    /* the native key: hexadecimal or decimal, absent = all 32 lanes */
    static const char nat[] = "skewsim-trace 1\nkernel n grid=1 block=32\nprogram main\n"
                              "  LDG.E R1 <- R0 bytes=4 addr=0x1000 mask=0x0000000f\n"
                              "  LDG.E R2 <- R0 bytes=4 addr=0x1000 mask=15\n"
                              "  LDG.E R3 <- R0 bytes=4 addr=0x1000 mask=0\n"
                              "  LDG.E R4 <- R0 bytes=4 addr=0x1000\n  EXIT\nend\nendkernel\n";
    static const uint32_t nat_mask[] = {0xf, 0xf, 0, 0xffffffffu};
    t = trace_open_string("mask.trace", nat, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    next_kernel_ok(t, &k);
    for (int i = 0; i < 4; i++) {
        in = op_named(&k.progs[0], "LDG.E", i);
        ck_assert_uint_eq(mem_apat_mask(&k.progs[0].apats[in->apat - 1]), nat_mask[i]);
    }
    kernel_free(&k);
    trace_close(t);

    /* simulated on the hierarchy: per warp R4 1 sector (not 4), R5 no
     * load at all, R6 and R8 2 (not 4), the loop's R11 1 per iteration
     * (not 4); the LDS.64 of 16 lanes 1 wavefront (not 2) */
    cfg c;
    tu_cfg(&c, NULL, "memory: {model: hierarchy}", NULL);
    t = open_ok(MASK_DIR "/kernel-1.traceg");
    results *r = run_simulate(&c, t, &e);
    ck_assert_msg(r != NULL, "%s", e.msg);
    trace_close(t);
    const mem_stats *m = &results_kernel(r, 0)->mem;
    ck_assert_uint_eq(m->load_reqs, 2 * 2 * (3 + 3));
    ck_assert_uint_eq(m->l1_sectors, 2 * 2 * (1 + 2 + 2 + 3));
    ck_assert_uint_eq(m->l1_bypass, 0);
    ck_assert_uint_eq(m->smem_accesses, 2 * 2);
    ck_assert_uint_eq(m->smem_wavefronts, 2 * 2);
    ck_assert_uint_eq(m->dram_rd_bytes, 32 * 2 * 2 * (1 + 2 + 2 + 3));
    results_free(r);
}
END_TEST

/* The same from the command line: the L1 sector count in summary.json;
 * `import` writes mask= and its output simulates to the same bytes; on the
 * flat model the masks lower the memory energy (the same trace with its
 * masks removed draws more). */
START_TEST(test_masks_cli)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "asmask");
    char *args = tu_strf("run -c " TU_H200 " --set memory.model=hierarchy -t " MASK_DIR " -o %s/a", dir);
    ck_assert_int_eq(run_bin(args), 0);
    free(args);
    char *sa = tu_strf("%s/a/summary.json", dir);
    char *summary = tu_slurp(sa, NULL);
    ck_assert_double_eq(json_num(summary, "l1_sectors"), 32);
    ck_assert_double_eq(json_num(summary, "load_reqs"), 24);

    args = tu_strf("import accelsim " MASK_DIR " -o %s/x.trace", dir);
    ck_assert_int_eq(run_bin(args), 0);
    free(args);
    char *xp = tu_strf("%s/x.trace", dir);
    char *text = tu_slurp(xp, NULL);
    static const char *const keys[] = {"mask=0x0000000f", "mask=0x00000000", "mask=0xff0000ff",
                                       "mask=0x0000ffff", "mask=0x00000003"};
    for (size_t i = 0; i < SK_ARRAY_LEN(keys); i++)
        ck_assert_msg(strstr(text, keys[i]) != NULL, "import wrote no %s", keys[i]);
    ck_assert_ptr_null(strstr(text, "mask=0xffffffff"));   /* full masks are not written */
    args = tu_strf("run -c " TU_H200 " --set memory.model=hierarchy -t %s -o %s/b", xp, dir);
    ck_assert_int_eq(run_bin(args), 0);
    free(args);
    char *sb = tu_strf("%s/b/summary.json", dir);
    char *summary_b = tu_slurp(sb, NULL);
    ck_assert_msg(strcmp(summary, summary_b) == 0, "the import's summary.json differs from the trace's");

    /* flat: the masks scale the bytes the power model charges */
    char *full = tu_strf("%s/full.trace", dir);
    FILE *f = fopen(full, "w");
    ck_assert_ptr_nonnull(f);
    for (const char *q = text; *q; q++) {
        if (strncmp(q, " mask=0x", 8) == 0) {
            q += 15;               /* " mask=0x" and 8 digits: 16 bytes, the loop's q++ the last */
            continue;
        }
        fputc(*q, f);
    }
    fclose(f);
    double w[2];
    const char *traces[2] = {xp, full};
    for (int i = 0; i < 2; i++) {
        args = tu_strf("run -c " TU_H200 " -t %s -o %s/f%d", traces[i], dir, i);
        ck_assert_int_eq(run_bin(args), 0);
        free(args);
        char *sf = tu_strf("%s/f%d/summary.json", dir, i);
        char *st = tu_slurp(sf, NULL);
        w[i] = json_num(st, "mean_power_w");
        free(st);
        char *od = tu_strf("%s/f%d", dir, i);
        tu_rmdir(od);
        free(od);
        free(sf);
    }
    ck_assert_msg(w[0] < w[1], "flat: %.3f W with masks, %.3f W without", w[0], w[1]);

    remove(full);
    remove(xp);
    free(full);
    free(text);
    free(xp);
    free(summary);
    free(summary_b);
    free(sa);
    free(sb);
    char *a = tu_strf("%s/a", dir), *b = tu_strf("%s/b", dir);
    tu_rmdir(a);
    tu_rmdir(b);
    free(a);
    free(b);
    tu_rmdir(dir);
}
END_TEST

/* ----------------------------------------------- stall counts by SASS */

#define SASS_DIR TEST_DATA "/accelsim-sass"

/* Simulate an opened trace on conf; the caller frees run->r. */
static void simulate_trace(tu_run *run, const cfg *conf, trace *t)
{
    sk_error e = {0};
    memset(run, 0, sizeof *run);
    run->r = results_open(NULL, &e);
    sim_sink obs = results_sink(run->r);
    sim *s = sim_create(conf, &obs, 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_msg(sim_run(s, t, &e) == 0, "%s", e.msg);
    sim_destroy(s);
}

static trace *open_with_listing(const char *listing_text, sass **listing)
{
    sk_error e = {0};
    *listing = sass_load_string("chain.sass", listing_text, strlen(listing_text), &e);
    ck_assert_msg(*listing != NULL, "%s", e.msg);
    trace *t = open_ok(SASS_DIR "/kernel-1.traceg");
    ck_assert_int_eq(trace_set_sass(t, *listing, "chain.sass", &e), 0);
    return t;
}

/* The listing's stall counts reach the program, by PC: S2R 2, FFMA 4,
 * ISETP 5, BRA 6, EXIT 5 (chain.sass); without it every stall is 1. */
START_TEST(test_sass_stalls)
{
    char *text = tu_slurp(SASS_DIR "/chain.sass", NULL);
    sass *listing;
    trace *t = open_with_listing(text, &listing);
    kernel k;
    next_kernel_ok(t, &k);
    ck_assert_uint_eq(k.nprogs, 1);
    const program *p = &k.progs[0];
    static const struct { const char *op; int nth, stall; } want[] = {
        {"S2R", 0, 2}, {"FFMA", 0, 4}, {"FFMA", 1, 4}, {"ISETP.NE.AND", 0, 5}, {"BRA", 0, 6}, {"EXIT", 0, 5},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(want); i++)
        ck_assert_msg(op_named(p, want[i].op, want[i].nth)->stall == want[i].stall, "%s: stall %d, want %d",
                      want[i].op, op_named(p, want[i].op, want[i].nth)->stall, want[i].stall);
    kernel_free(&k);
    trace_close(t);
    sass_free(listing);
    t = open_ok(SASS_DIR "/kernel-1.traceg");
    next_kernel_ok(t, &k);
    for (uint32_t i = 0; i < k.progs[0].n; i++)
        if (k.progs[0].code[i].kind < IK_LOOP)
            ck_assert_int_eq(k.progs[0].code[i].stall, 1);
    kernel_free(&k);
    trace_close(t);
    free(text);
}
END_TEST

/* The listing's .reuse flags reach the sources they mark (an Accel-Sim
 * trace has none of its own): R0 of the second FFMA, not of the first. */
START_TEST(test_sass_reuse)
{
    char *text = tu_slurp(SASS_DIR "/chain.sass", NULL);
    char *at = strstr(text, "FFMA R2, R2, R0, 1 ;");
    ck_assert_ptr_nonnull(at);
    char *edited = xmalloc(strlen(text) + 8);
    snprintf(edited, strlen(text) + 8, "%.*sFFMA R2, R2, R0.reuse, 1 ;%s", (int)(at - text), text,
             at + strlen("FFMA R2, R2, R0, 1 ;"));
    sass *listing;
    trace *t = open_with_listing(edited, &listing);
    kernel k;
    next_kernel_ok(t, &k);
    const program *p = &k.progs[0];
    const instr *first = op_named(p, "FFMA", 0), *second = op_named(p, "FFMA", 1);
    ck_assert_uint_eq(first->reuse, 0);
    ck_assert_uint_eq(second->nsrc, 2);
    ck_assert_str_eq(p->regnames[second->src[1]], "R0");
    ck_assert_uint_eq(second->reuse, 0x2);
    kernel_free(&k);
    trace_close(t);
    sass_free(listing);
    free(edited);
    free(text);
}
END_TEST

/* With its listing, the traced kernel simulates to the picosecond like the
 * same kernel written natively with those stall counts (chain_native.trace),
 * on the tiny chip and on the H200; without it, it runs faster. */
START_TEST(test_sass_equals_native)
{
    char *text = tu_slurp(SASS_DIR "/chain.sass", NULL);
    char *native = tu_slurp(SASS_DIR "/chain_native.trace", NULL);
    for (int c = 0; c < 2; c++) {
        cfg conf;
        if (c == 0)
            tu_cfg(&conf, NULL, TU_TINY_YAML, NULL);
        else
            tu_cfg(&conf, TU_H200, NULL);
        sass *listing;
        trace *t = open_with_listing(text, &listing);
        tu_run a, b, plain;
        simulate_trace(&a, &conf, t);
        trace_close(t);
        sass_free(listing);
        tu_simulate_ok(&b, &conf, native);
        t = open_ok(SASS_DIR "/kernel-1.traceg");
        simulate_trace(&plain, &conf, t);
        trace_close(t);
        const kernel_stats *ka = results_kernel(a.r, 0), *kb = results_kernel(b.r, 0);
        const kernel_stats *kp = results_kernel(plain.r, 0);
        ck_assert_int_eq(ka->warp_instructions, kb->warp_instructions);
        ck_assert_msg(ka->first_start_ps == kb->first_start_ps && ka->last_end_ps == kb->last_end_ps &&
                      ka->done_ps == kb->done_ps, "chip %d: with the listing last end %lld, native %lld", c,
                      (long long)ka->last_end_ps, (long long)kb->last_end_ps);
        ck_assert_msg(kp->last_end_ps - kp->first_start_ps < ka->last_end_ps - ka->first_start_ps,
                      "chip %d: stall 1 everywhere should be faster", c);
        tu_run_free(&a);
        tu_run_free(&b);
        tu_run_free(&plain);
    }
    free(text);
    free(native);
}
END_TEST

/* A listing of another binary is refused at the first instruction it
 * cannot explain, with its line; a native trace refuses a listing. */
static const struct {
    const char *from, *to, *msg;
} sass_bad[] = {
    {"/*0040*/   @P0 BRA", "/*0048*/   @P0 BRA",
     "tests/data/accelsim-sass/kernel-1.traceg:26: BRA: PC 0040: not an instruction of _Z5chainPf in chain.sass: "
     "expected the listing of the traced binary"},
    {"/*0030*/   ISETP.NE.AND", "/*0030*/   IADD3.NE.AND",
     "tests/data/accelsim-sass/kernel-1.traceg:25: ISETP.NE.AND: PC 0030: chain.sass line 11 has IADD3.NE.AND there: "
     "expected the listing of the traced binary"},
    {"code for sm_90", "code for sm_80",
     "tests/data/accelsim-sass/kernel-1.traceg:22: kernel _Z5chainPf: chain.sass has it for sm_80 only, the "
     "trace is of sm_90 (-binary version): expected the listing of the traced binary"},
    {"Function : _Z5chainPf", "Function : _Z5otherPf",
     "tests/data/accelsim-sass/kernel-1.traceg:22: kernel _Z5chainPf: not in the SASS listing chain.sass: "
     "expected cuobjdump -sass of the traced binary"},
};

START_TEST(test_sass_mismatch)
{
    char *text = tu_slurp(SASS_DIR "/chain.sass", NULL);
    char *at = strstr(text, sass_bad[_i].from);
    ck_assert_ptr_nonnull(at);
    ck_assert_uint_eq(strlen(sass_bad[_i].from), strlen(sass_bad[_i].to));
    memcpy(at, sass_bad[_i].to, strlen(sass_bad[_i].to));
    sass *listing;
    trace *t = open_with_listing(text, &listing);
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, sass_bad[_i].msg);
    trace_close(t);
    sass_free(listing);
    free(text);
}
END_TEST

START_TEST(test_sass_native_refused)
{
    sk_error e = {0};
    sass *listing = sass_load(SASS_DIR "/chain.sass", &e);
    ck_assert_ptr_nonnull(listing);
    trace *t = open_ok(SASS_DIR "/chain_native.trace");
    ck_assert_int_eq(trace_set_sass(t, listing, "chain.sass", &e), SK_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "gives stall counts to Accel-Sim traces only"));
    trace_close(t);
    sass_free(listing);
}
END_TEST

Suite *accelsim_suite(void)
{
    Suite *s = suite_create("accelsim");
    TCase *tc = tcase_create("reader");
    tcase_add_test(tc, test_sm90_mnemonics);
    tcase_add_test(tc, test_read_dir);
    tcase_add_test(tc, test_read_gz);
    tcase_add_test(tc, test_dedup);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_equals_native);
    tcase_add_test(tc, test_fold_repeats);
    tcase_add_test(tc, test_sass_stalls);
    tcase_add_test(tc, test_sass_reuse);
    tcase_add_test(tc, test_sass_equals_native);
    tcase_add_loop_test(tc, test_sass_mismatch, 0, (int)SK_ARRAY_LEN(sass_bad));
    tcase_add_test(tc, test_sass_native_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("import");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_import_round_trip);
    tcase_add_test(tc, test_addresses);
    tcase_add_test(tc, test_masks);
    tcase_add_test(tc, test_masks_cli);
    suite_add_tcase(s, tc);
    return s;
}
