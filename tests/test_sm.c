/* test_sm.c -- the SM model (src/gpu/sm.c) and the warp schedulers
 * (src/gpu/warpsched.c), on hand-built kernels whose every issue cycle is
 * derived below from the rules in sm.c:
 *
 *  - a warp may issue in cycle c when c >= (its last issue + that
 *    instruction's stall), the registers it reads and writes are ready on
 *    its scoreboard, and a pipeline of the unit class is free (a pipeline
 *    is busy ii_cycles after an issue);
 *  - one scheduler issues at most one instruction a cycle (issue_width 1);
 *  - a CTA's start is warp 0's first issue, its end is the end of the cycle
 *    in which its last warp issued EXIT.
 *
 * All of it on TU_TINY_YAML (testutil.h): one SM, one scheduler, 1000 MHz,
 * so cycle c starts at c ns, and CTAs handed over at t = 0 can issue in
 * cycle 0.  One-warp CTAs (block=32) make each warp's timeline visible in
 * the CTA records: warp i is CTA i, launched i-th (older first). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/gen.h"
#include "skewsim/trace.h"
#include "skewsim/silicon.h"

/* CTA `cta` of kernel 0: start and end cycles (1 cycle = 1000 ps). */
static long start_cycle(const tu_run *run, uint64_t cta)
{
    const cta_record *r = tu_cta(run, 0, cta);
    ck_assert_int_eq(r->start_ps % 1000, 0);
    return (long)(r->start_ps / 1000);
}

static long end_cycle(const tu_run *run, uint64_t cta)
{
    const cta_record *r = tu_cta(run, 0, cta);
    ck_assert_int_eq(r->end_ps % 1000, 0);
    ck_assert_uint_eq(r->cycles, (uint64_t)((r->end_ps - r->start_ps) / 1000));
    return (long)(r->end_ps / 1000);
}

/* Run `body` as program main of a kernel of `grid` CTAs of `block`
 * threads on the tiny chip plus `yaml`. */
static void run_tiny(tu_run *run, const char *yaml, const char *body, unsigned grid, unsigned block)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, yaml, NULL);
    char *tr = tu_trace1(body, grid, block);
    tu_simulate_ok(run, &c, tr);
    free(tr);
    ck_assert_uint_eq(results_nctas(run->r), grid);
}

/* VIADD and IMAD issue to the FP32 pipe's 16-lane half (E29, program.c):
 * beside LOP3 (the int unit) each overlaps, as IADD3 beside LOP3 does not;
 * beside FFMA it does not, holding the FP32 pipe two cycles to FFMA's one.
 * The cycles of one warp, four independent registers per op, 64
 * iterations of a and b. */
static long pair_cycles(const char *a, const char *b)
{
    char body[1024] = "loop 64\n";
    for (int r = 0; r < 4; r++)
        snprintf(body + strlen(body), sizeof body - strlen(body), "%s R%d <- R%d stall=1\n%s R%d <- R%d stall=1\n",
                 a, r + 1, r + 1, b, r + 5, r + 5);
    strncat(body, "end\nEXIT\n", sizeof body - strlen(body) - 1);
    tu_run run;
    run_tiny(&run, "units: {int: {count: 1, lat_cycles: 4, ii_cycles: 2}}", body, 1, 32);
    long c = end_cycle(&run, 0) - start_cycle(&run, 0);
    tu_run_free(&run);
    return c;
}

START_TEST(test_viadd_pipe)
{
    /* VIADD and IMAD (E29), each beside LOP3, beside FFMA: 8 instructions
     * an iteration, 8 cycles when two pipes of 2-cycle ops share them, 16
     * on one; with FFMA 4 x 2 + 4 x 1 = 12 on the FP32 pipe against FFMA +
     * LOP3's 8 on the int unit */
    static const char *const half[] = { "VIADD", "IMAD" };
    for (size_t i = 0; i < SK_ARRAY_LEN(half); i++) {
        uint8_t kind, cls;
        sk_error e = { 0 };
        ck_assert_int_eq(prog_classify(half[i], &kind, &cls, &e), 0);
        ck_assert_int_eq(cls, FU_FP32);
        ck_assert_int_eq(prog_op_half(half[i]), 1);
        long with_lop3 = pair_cycles(half[i], "LOP3.LUT"), with_ffma = pair_cycles(half[i], "FFMA");
        ck_assert_msg(with_lop3 < 64 * 9, "%s+LOP3 %ld cycles", half[i], with_lop3);
        ck_assert_msg(with_ffma >= 64 * 12, "%s+FFMA %ld cycles", half[i], with_ffma);
    }
    ck_assert_int_eq(prog_op_half("VIADD.X"), 1);
    ck_assert_int_eq(prog_op_half("IMAD.MOV.U32"), 1);
    ck_assert_int_eq(prog_op_half("IADD3"), 0);
    ck_assert_int_eq(prog_op_half("FFMA"), 0);
    ck_assert_int_eq(prog_op_half("IMUL"), 0);
    long iadd3_lop3 = pair_cycles("IADD3", "LOP3.LUT"), ffma_lop3 = pair_cycles("FFMA", "LOP3.LUT");
    long imad_viadd = pair_cycles("IMAD", "VIADD");
    ck_assert_msg(iadd3_lop3 >= 64 * 16 && imad_viadd >= 64 * 16 && ffma_lop3 < 64 * 9,
                  "IADD3+LOP3 %ld, IMAD+VIADD %ld, FFMA+LOP3 %ld cycles", iadd3_lop3, imad_viadd, ffma_lop3);
    /* IMAD's energy row stays the integer multiply's (an IMAD.MOV the add's) */
    ck_assert_int_eq(si_op_row_of("IMAD", FU_FP32), SI_OP_IMAD);
    ck_assert_int_eq(si_op_row_of("IMAD.MOV.U32", FU_FP32), FU_INT);
    ck_assert_int_eq(si_op_row_of("IMUL", FU_INT), SI_OP_IMAD);
}
END_TEST



/* Register banks (sm.register_banks, E29): the reads that cost issue
 * cycles, by prog_bank_cycles on a program built by hand (its ids are the
 * registers R0, R1, ...). */
static unsigned bank_of(uint8_t kind, uint8_t cls, const char *op, int nsrc, const uint16_t *src, uint8_t reuse,
                        int banks)
{
    program p;
    prog_init(&p, "p");
    instr *in = prog_append(&p);
    in->kind = kind;
    in->cls = cls;
    in->opcode = prog_opname(&p, op);
    in->nsrc = (uint8_t)nsrc;
    for (int j = 0; j < nsrc; j++)
        in->src[j] = src[j];
    in->reuse = reuse;
    unsigned b = prog_bank_cycles(&p, in, banks);
    prog_free(&p);
    return b;
}

START_TEST(test_bank_rule)
{
    const uint16_t even2[] = {2, 4}, apart4[] = {2, 6}, mixed[] = {2, 5}, even3[] = {2, 4, 6}, dup[] = {2, 2}, two_one[] = {2, 4, 5};
    const uint16_t pred[] = {2, 255 + 63 + 1};      /* R2 and P1 (synthetic ids past R254, UR62) */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, even2, 0, 2), 1);
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, even2, 0, 0), 0);     /* no bank model */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, even2, 0, 1), 1);     /* one bank */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, even2, 0, 4), 0);     /* 2, 4: banks 2, 0 */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, apart4, 0, 4), 1);    /* 2, 6: bank 2 */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, mixed, 0, 2), 0);
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, even2, 1, 2), 0);     /* R2.reuse */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, even2, 2, 2), 0);     /* R4.reuse */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_INT, "IADD3", 3, even3, 0, 2), 2);     /* three reads of a bank */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_INT, "IADD3", 3, even3, 2, 2), 1);
    ck_assert_uint_eq(bank_of(IK_ALU, FU_INT, "IADD3", 3, two_one, 0, 2), 1);
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "FFMA", 2, dup, 0, 2), 0);       /* one register, read once */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_INT, "SEL", 2, pred, 0, 2), 0);        /* a predicate has no bank */
    /* left out: 64-bit operands (their pairs span both banks) and memory */
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP64, "DFMA", 2, even2, 0, 2), 0);
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP32, "IMAD.WIDE.U32", 2, even2, 0, 2), 0);
    ck_assert_uint_eq(bank_of(IK_ST_GLOBAL, FU_LDST, "STG.E", 2, even2, 0, 2), 0);
    ck_assert_uint_eq(bank_of(IK_ALU, FU_FP16, "HFMA2", 2, even2, 0, 2), 1);
}
END_TEST

/* The cycles one warp (or two on the one scheduler) takes for 4 x 64
 * independent FFMAs reading `srcs`, each with stall count `stall`, with
 * sm.register_banks = banks; its reg_bank stall cycles in *stalls. */
static long bank_cycles(const char *srcs, int banks, unsigned warps, uint64_t *stalls, int stall)
{
    char body[1024] = "loop 64\n", yaml[96];
    for (int r = 0; r < 4; r++)
        snprintf(body + strlen(body), sizeof body - strlen(body), "FFMA R%d <- %s stall=%d\n", 11 + 2 * r, srcs,
                 stall);
    strncat(body, "end\nEXIT\n", sizeof body - strlen(body) - 1);
    snprintf(yaml, sizeof yaml, "sm: {register_banks: %d}", banks);
    tu_run run;
    run_tiny(&run, yaml, body, 1, 32 * warps);
    long c = end_cycle(&run, 0) - start_cycle(&run, 0);
    *stalls = run.s->sms[0].stall[SM_STALL_BANK];
    tu_run_free(&run);
    return c;
}

/* A conflict holds the scheduler's issue port a cycle per extra read: no
 * other warp of the scheduler issues in it, and the cycle is charged to
 * reg_bank. */
START_TEST(test_bank_conflict_cycles)
{
    uint64_t st;
    long free_run = bank_cycles("R2 R3", 2, 1, &st, 1);
    ck_assert_uint_eq(st, 0);
    ck_assert_msg(free_run < 256 + 16, "R2 R3: %ld cycles", free_run);
    long off = bank_cycles("R2 R4", 0, 1, &st, 1);
    ck_assert_int_eq(off, free_run);
    long one = bank_cycles("R2 R4", 2, 1, &st, 1);
    ck_assert_int_eq(one, free_run + 256);
    ck_assert_uint_eq(st, 256);
    ck_assert_int_eq(bank_cycles("R2.reuse R4", 2, 1, &st, 1), free_run);
    /* with a stall count of 2 the warp could not issue in the held cycle
     * anyway: no time lost, none charged to the banks */
    long slow_free = bank_cycles("R2 R3", 2, 1, &st, 2), slow = bank_cycles("R2 R4", 2, 1, &st, 2);
    ck_assert_int_eq(slow, slow_free);
    ck_assert_uint_eq(st, 0);
    ck_assert_int_eq(bank_cycles("R2 R4 R6", 2, 1, &st, 1), free_run + 512);
    ck_assert_uint_eq(st, 512);
    /* two warps on the one scheduler: the port is the scheduler's */
    long two_free = bank_cycles("R2 R3", 2, 2, &st, 1), two = bank_cycles("R2 R4", 2, 2, &st, 1);
    ck_assert_msg(two >= two_free + 512 - 2, "two warps: %ld cycles, %ld without conflicts", two, two_free);
    ck_assert_uint_eq(st, 512);
}
END_TEST

/* A queue in front of a unit's pipelines (units.<class>.queue, E30): one
 * warp issues four STS (stall 1) into an LD/ST pipe that takes one every
 * 4 cycles, then an FFMA and EXIT.
 *   Q 0: STS at 0, 4, 8, 12 (each waits for the pipe), FFMA 13, EXIT 14,
 *        end 15;
 *   Q 1: STS 0 starts at 0; STS 1 issues at 1 and waits (drain 8); the
 *        next may issue once one waits no more, at drain - Q x 4: STS 2
 *        at 4, STS 3 at 8; FFMA 9, EXIT 10, end 11;
 *   Q 3: all four issue at 0-3 (three wait at most), FFMA 4, EXIT 5, end 6.
 * And a load's latency counts from when the pipe takes it: three LDS
 * (shared-memory latency 20, and the LD/ST unit's ii, memory.
 * smem_load_ii_cycles 0) and an FFMA reading the third one's register
 * end at 30 whatever Q is (LDS started at 0, 4, 8: ready at 28, FFMA 28,
 * EXIT 29); counting from issue (0, 1, 2) would end at 24 with Q 3.
 * (Approximate, and so asserted: EXIT does not wait for stores still in the
 * queue: with Q 1 the warp ends at 11, its last STS starting at 12.)  A
 * global load takes the pipe at once, ahead of queued ones, and its
 * request leaves then: three STS then an LDG and an FFMA reading it; at
 * Q 0 the LDG issues at 12 (the STS at 0, 4, 8), at Q 3 at 3 (the STS at
 * 0, 1, 2, queued to start at 0, 4, 8), and the warp ends 9 cycles
 * sooner, where a queued LDG (starting at 12) would end no sooner. */
static const struct {
    int q;
    long sts_end, lds_end;
} ldst_queue[] = {{0, 15, 30}, {1, 11, 30}, {3, 6, 30}};

START_TEST(test_ldst_queue)
{
    char *yaml = tu_strf("units: {ldst: {count: 1, lat_cycles: 4, ii_cycles: 4, queue: %d}}\n"
                         "memory: {smem_latency_cycles: 20, smem_load_ii_cycles: 0}", ldst_queue[_i].q);
    tu_run run;
    run_tiny(&run, yaml,
             "STS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\n"
             "STS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\n"
             "FFMA R10 stall=1\nEXIT\n", 1, 32);
    ck_assert_msg(end_cycle(&run, 0) == ldst_queue[_i].sts_end, "queue %d: four STS end at %ld, expected %ld",
                  ldst_queue[_i].q, end_cycle(&run, 0), ldst_queue[_i].sts_end);
    tu_run_free(&run);
    run_tiny(&run, yaml,
             "LDS R4 <- R2 bytes=4 stall=1\nLDS R5 <- R2 bytes=4 stall=1\nLDS R6 <- R2 bytes=4 stall=1\n"
             "FFMA R10 <- R6 stall=1\nEXIT\n", 1, 32);
    ck_assert_msg(end_cycle(&run, 0) == ldst_queue[_i].lds_end, "queue %d: three LDS end at %ld, expected %ld",
                  ldst_queue[_i].q, end_cycle(&run, 0), ldst_queue[_i].lds_end);
    tu_run_free(&run);
    free(yaml);
}
END_TEST

START_TEST(test_ldst_queue_global)
{
    long end[2];
    for (int i = 0; i < 2; i++) {
        char *yaml = tu_strf("units: {ldst: {count: 1, lat_cycles: 4, ii_cycles: 4, queue: %d}}", i ? 3 : 0);
        tu_run run;
        run_tiny(&run, yaml,
                 "STS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\n"
                 "LDG.E R4 <- R2 bytes=4 stall=1\nFFMA R10 <- R4 stall=1\nEXIT\n", 1, 32);
        end[i] = end_cycle(&run, 0);
        tu_run_free(&run);
        free(yaml);
    }
    ck_assert_msg(end[0] - end[1] == 9, "an LDG behind three STS: ends at %ld with no queue, %ld with 3", end[0],
                  end[1]);
}
END_TEST

/* Shared memory's two rates (E30 board n; sm.c issue): an LDS holds its
 * sub-partition's LD/ST pipe memory.smem_load_ii_cycles (STS and the rest
 * units.ldst.ii_cycles), and the SM's one array takes a wavefront a
 * memory.smem_wavefront_cycles, in the order the pipes hand them over.
 * Each warp below runs four independent LDS (stall 1), an FFMA reading the
 * last one's register and EXIT; latency 20, no queue.
 *   one warp, LDS ii 2: LDS at 0, 2, 4, 6, the last ready at 26, FFMA 26,
 *     EXIT 27, end 28;  LDS ii 0 (the unit's 4): 0, 4, 8, 12, end 34;
 *   four warps, one a scheduler, array 1 cycle: cycle 0 each scheduler's
 *     first LDS reaches the array at 0, 1, 2, 3 (the pipes held until
 *     then: free at 2, 2, 2, 3); the second ones at 4, 5, 6 (issued at 2)
 *     and 7 (at 3), and so on, one wavefront a cycle: scheduler 3's last
 *     at 15, ready 35, FFMA 35, EXIT 36, end 37; with no array limit
 *     (0) every warp runs as alone, end 28;
 *   one warp of LDS.128 (16 B a lane, four wavefronts, no addresses):
 *     array at 0, 4, 8, 12 (the pipe held to each start), the last read
 *     at 15, ready 35, end 37; with no array limit 0, 2, 4, 6 and the
 *     conflict's three extra cycles of latency, ready 29, end 31;
 *   one warp of LDS.128 with pattern=uniform (every lane one address, a
 *     broadcast: one wavefront): as LDS.32, end 28;
 *   one warp, a 2-way bank conflict (memory.model hierarchy, lanes 8 B
 *     apart): two wavefronts each, array at 0, 2, 4, 6, the last ready at
 *     6 + 20 + 1, end 29 (28 with lanes 4 B apart);
 *   one warp: four LDS.128, then an LDC whose register an FFMA reads:
 *     the pipe holds each LDS.128 until the array starts it (0, 4, 8, 12),
 *     so the LDC takes it at 12, ready 32, end 34 (30 were the pipe free
 *     2 cycles after each);
 *   four warps of LDC (the constant cache, not the array; the unit's ii
 *     4): each at 0, 4, 8, 12, every warp ends at 34;
 *   one warp's loads returning a wavefront each 2 cycles at most
 *     (memory.smem_warp_wf_cycles 2): LDS.128 at the array at 0, 4,
 *     8, 12 as above, but the warp's own wavefronts at 0-6, 8-14, 16-22,
 *     24-30, ready 50, end 52; LDS.32 at ii 2 already comes one each 2
 *     cycles: end 28 as without; the 2-way conflict's two wavefronts at
 *     0-2, 4-6, 8-10, 12-14, ready 34, end 36. */
#define SMEM_BODY(op, extra)                                                            \
    op " R4 <- R2 " extra " stall=1\n" op " R5 <- R2 " extra " stall=1\n" op " R6 <- R2 " extra \
    " stall=1\n" op " R7 <- R2 " extra " stall=1\nFFMA R10 <- R7 stall=1\nEXIT\n"
static const struct {
    const char *what, *yaml, *body;
    unsigned block;
    long end;
} smem_rates[] = {
    {"one warp, LDS ii 2", "smem_load_ii_cycles: 2", SMEM_BODY("LDS", "bytes=4"), 32, 28},
    {"one warp, LDS ii of the unit", "smem_load_ii_cycles: 0", SMEM_BODY("LDS", "bytes=4"), 32, 34},
    {"four schedulers, array 1", "smem_wavefront_cycles: 1", SMEM_BODY("LDS", "bytes=4"), 128, 37},
    {"four schedulers, no array limit", "smem_wavefront_cycles: 0", SMEM_BODY("LDS", "bytes=4"), 128, 28},
    {"LDS.128, array 1", "smem_wavefront_cycles: 1", SMEM_BODY("LDS.128", "bytes=16"), 32, 37},
    {"LDS.128, no array limit", "smem_wavefront_cycles: 0", SMEM_BODY("LDS.128", "bytes=16"), 32, 31},
    {"2-way conflict", "model: hierarchy", SMEM_BODY("LDS", "bytes=4 addr=0 lane=8"), 32, 29},
    {"no conflict", "model: hierarchy", SMEM_BODY("LDS", "bytes=4 addr=0 lane=4"), 32, 28},
    {"LDS.128 broadcast", "smem_wavefront_cycles: 1", SMEM_BODY("LDS.128", "bytes=16 pattern=uniform"), 32, 28},
    {"LDS.128 then an LDC: the pipe held", "smem_wavefront_cycles: 1",
     "LDS.128 R4 <- R2 bytes=16 stall=1\nLDS.128 R5 <- R2 bytes=16 stall=1\nLDS.128 R6 <- R2 bytes=16 stall=1\n"
     "LDS.128 R7 <- R2 bytes=16 stall=1\nLDC R8 bytes=4 stall=1\nFFMA R10 <- R8 stall=1\nEXIT\n", 32, 34},
    {"LDC, four schedulers", "smem_wavefront_cycles: 1", SMEM_BODY("LDC", "bytes=4"), 128, 34},
    {"LDS.128, one warp's wavefronts 2 apart", "smem_wavefront_cycles: 1, smem_warp_wf_cycles: 2",
     SMEM_BODY("LDS.128", "bytes=16"), 32, 52},
    {"LDS ii 2, one warp's wavefronts 2 apart", "smem_load_ii_cycles: 2, smem_warp_wf_cycles: 2",
     SMEM_BODY("LDS", "bytes=4"), 32, 28},
    {"2-way conflict, one warp's wavefronts 2 apart", "model: hierarchy, smem_warp_wf_cycles: 2",
     SMEM_BODY("LDS", "bytes=4 addr=0 lane=8"), 32, 36},
};

/* The queue counts instructions, whatever each holds the pipe: one warp,
 * five STS (4 cycles each), two LDS, an FFMA and EXIT, stall 1, a queue of
 * 6, no array limit.  The STS issue at 0-4 and start at 0, 4, 8, 12, 16;
 * at 5 three of them wait and at 6 four (with the first LDS), so both LDS
 * issue at once, FFMA 7, EXIT 8, end 9, with LDS ii 2 as with the unit's 4.
 * (A queue counted in cycles of the issuing instruction's ii, 6 x 2 for an
 * LDS, held the second LDS to cycle 10: end 13 with the faster LDS.) */
START_TEST(test_ldst_queue_mixed)
{
    static const int ii[] = {2, 0};
    for (size_t i = 0; i < SK_ARRAY_LEN(ii); i++) {
        char *yaml = tu_strf("units: {ldst: {count: 1, lat_cycles: 4, ii_cycles: 4, queue: 6}}\n"
                             "memory: {smem_latency_cycles: 20, smem_load_ii_cycles: %d, smem_wavefront_cycles: 0}",
                             ii[i]);
        tu_run run;
        run_tiny(&run, yaml,
                 "STS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\n"
                 "STS <- R2 R3 bytes=4 stall=1\nSTS <- R2 R3 bytes=4 stall=1\nLDS R4 <- R2 bytes=4 stall=1\n"
                 "LDS R5 <- R2 bytes=4 stall=1\nFFMA R10 stall=1\nEXIT\n", 1, 32);
        ck_assert_msg(end_cycle(&run, 0) == 9, "LDS ii %d: ends at %ld, expected 9", ii[i], end_cycle(&run, 0));
        tu_run_free(&run);
        free(yaml);
    }
}
END_TEST

/* Which shared-memory mnemonics use the array (IF_SMEM): the base before
 * the first dot, any modifiers */
START_TEST(test_smem_flag)
{
    static const char *const yes[] = { "LDS", "LDS.128", "LDS.U.64", "LDSM.16.M88.4", "STS", "STS.128",
                                       "STSM.16.M88.4", "ATOMS.ADD", "ATOMS.CAS.64" };
    static const char *const no[] = { "LDC", "LDC.64", "ULDC.64", "LDGSTS.E.BYPASS.128", "LDSX", "STSX" };
    for (size_t i = 0; i < SK_ARRAY_LEN(yes); i++) {
        ck_assert_msg(prog_mem_flags(yes[i], IK_LD_SHARED) == IF_SMEM, "%s", yes[i]);
        ck_assert_msg(prog_mem_flags(yes[i], IK_ST_SHARED) == IF_SMEM, "%s", yes[i]);
        ck_assert_msg(prog_mem_flags(yes[i], IK_ALU) == 0, "%s as an ALU op", yes[i]);
    }
    for (size_t i = 0; i < SK_ARRAY_LEN(no); i++)
        ck_assert_msg(prog_mem_flags(no[i], IK_LD_SHARED) == 0, "%s", no[i]);
}
END_TEST

START_TEST(test_smem_rates)
{
    char *yaml = tu_strf("sm: {warp_schedulers: 4}\n"
                         "units: {ldst: {count: 1, lat_cycles: 4, ii_cycles: 4, queue: 0}}\n"
                         "memory: {smem_latency_cycles: 20, %s}", smem_rates[_i].yaml);
    tu_run run;
    run_tiny(&run, yaml, smem_rates[_i].body, 1, smem_rates[_i].block);
    ck_assert_msg(end_cycle(&run, 0) == smem_rates[_i].end, "%s: ends at %ld, expected %ld", smem_rates[_i].what,
                  end_cycle(&run, 0), smem_rates[_i].end);
    tu_run_free(&run);
    free(yaml);
}
END_TEST

/* ------------------------------------------------------------ policies */

/* Three one-warp CTAs A, B, C (ages 0, 1, 2), each running
 *
 *     f1 f2 g h1 h2 h3 h4 EXIT       (FFMAs with no registers; g has stall=6)
 *
 * gto:     c0-2 A f1 f2 g (A ready again at 8), c3-5 B f1 f2 g (B ready at
 *          11), c6-8 C f1 f2 g (C stays greedy at 8 although A is ready;
 *          ready at 14), c9-13 A h1-h4 EXIT (oldest ready), c14-18 B,
 *          c19-23 C.  Ends 14, 19, 24.
 * oldest:  as gto up to c7, then A (oldest, ready at 8) takes over from C:
 *          c8-12 A h1-h4 EXIT, c13-17 B, c18 C g (ready at 24), c24-28 C.
 *          Ends 13, 18, 29.
 * lrr:     one issue each in turn: c0-8 f1 f2 g of A, B, C interleaved; A,
 *          B, C ready at 12, 13, 14; c12-23 h1-h4 in turn; EXITs at 24, 25,
 *          26.  Starts 0, 1, 2; ends 25, 26, 27. */
#define POLICY_BODY                                                             \
    "FFMA stall=1\nFFMA stall=1\nFFMA stall=6\n"                                \
    "FFMA stall=1\nFFMA stall=1\nFFMA stall=1\nFFMA stall=1\nEXIT\n"

static const struct {
    const char *yaml;
    long start[3], end[3];
} policies[] = {
    {"sm: {warp_policy: gto}", {0, 3, 6}, {14, 19, 24}},
    {"sm: {warp_policy: oldest}", {0, 3, 6}, {13, 18, 29}},
    {"sm: {warp_policy: lrr}", {0, 1, 2}, {25, 26, 27}},
};

START_TEST(test_policy)
{
    tu_run run;
    run_tiny(&run, policies[_i].yaml, POLICY_BODY, 3, 32);
    for (uint64_t i = 0; i < 3; i++) {
        ck_assert_msg(start_cycle(&run, i) == policies[_i].start[i], "%s: CTA %llu starts in cycle %ld, "
                      "expected %ld", policies[_i].yaml, (unsigned long long)i, start_cycle(&run, i),
                      policies[_i].start[i]);
        ck_assert_msg(end_cycle(&run, i) == policies[_i].end[i], "%s: CTA %llu ends at cycle %ld, "
                      "expected %ld", policies[_i].yaml, (unsigned long long)i, end_cycle(&run, i),
                      policies[_i].end[i]);
    }
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, 3 * 8);
    tu_run_free(&run);
}
END_TEST

/* cta_rr: two CTAs A, B of two warps each, POLICY_BODY, one scheduler.
 * The oldest CTA with a ready warp issues, its warps in turn:
 *   c0-5 A0 f1, A1 f1, A0 f2, A1 f2, A0 g, A1 g (A ready again at 10, 11);
 *   c6-9 B0 f1, B1 f1, B0 f2, B1 f2 (only B has a ready warp);
 *   c10-19 A0 h1, A1 h1, ..., A0 EXIT, A1 EXIT: from 10 on A always has one
 *   ready, and B waits (oldest first would have run A0 alone from c0 to g);
 *   c20-21 B0 g, B1 g (ready at 26, 27); c26-35 B's h1-h4 and EXITs in turn.
 * Starts 0, 6; ends 20, 36.  Under oldest: A0 f1 f2 g at c0-2, A1 at 3-5. */
START_TEST(test_policy_cta_rr)
{
    tu_run run;
    run_tiny(&run, "sm: {warp_policy: cta_rr}", POLICY_BODY, 2, 64);
    static const long start[2] = {0, 6}, end[2] = {20, 36};
    for (uint64_t i = 0; i < 2; i++) {
        ck_assert_msg(start_cycle(&run, i) == start[i], "CTA %llu starts in cycle %ld, expected %ld",
                      (unsigned long long)i, start_cycle(&run, i), start[i]);
        ck_assert_msg(end_cycle(&run, i) == end[i], "CTA %llu ends at cycle %ld, expected %ld", (unsigned long long)i,
                      end_cycle(&run, i), end[i]);
    }
    tu_run_free(&run);
}
END_TEST

/* ---------------------------------------------------- issue constraints */

/* FFMA R1 <- R0 then FFMA R2 <- R1: the second waits for R1, lat_cycles
 * after the first (cycle 0); EXIT follows one cycle later.  End = lat + 2.
 * Independent registers: cycles 0, 1, 2, end 3.  A write after write
 * waits for the first write too. */
static const struct {
    const char *body;
    int lat;
    long end;
} deps[] = {
    {"FFMA R1 <- R0\nFFMA R2 <- R1\nEXIT\n", 4, 4 + 2},
    {"FFMA R1 <- R0\nFFMA R2 <- R1\nEXIT\n", 1, 1 + 2},
    {"FFMA R1 <- R0\nFFMA R2 <- R1\nEXIT\n", 10, 10 + 2},
    {"FFMA R1 <- R0\nFFMA R2 <- R1\nEXIT\n", 100, 100 + 2},
    {"FFMA R1 <- R0\nFFMA R2 <- R3\nEXIT\n", 4, 3},                /* independent */
    {"FFMA R1 <- R0\nFFMA R1 <- R2\nEXIT\n", 4, 4 + 2},            /* write after write */
    {"FFMA R1 <- R0\nFFMA R2 <- R1\nFFMA R3 <- R2\nEXIT\n", 4, 2 * 4 + 2},   /* chain of 3 */
    {"FFMA R1 <- R0\nIADD3 R2 <- R3\nFFMA R4 <- R1\nEXIT\n", 4, 4 + 2},      /* IADD3 fills a gap cycle */
};

START_TEST(test_dependency)
{
    char *yaml = tu_strf("units: {fp32: {lat_cycles: %d}}", deps[_i].lat);
    tu_run run;
    run_tiny(&run, yaml, deps[_i].body, 1, 32);
    ck_assert_msg(end_cycle(&run, 0) == deps[_i].end, "row %d: ends at %ld, expected %ld", _i,
                  end_cycle(&run, 0), deps[_i].end);
    tu_run_free(&run);
    free(yaml);
}
END_TEST

/* A global store's read barrier (sm.store_read_cycles = R): the STG issues
 * in cycle 0 and reads its source registers (R2, R4) at cycle R; an
 * instruction of its warp that overwrites one of them issues at R at the
 * soonest, one that only reads them or writes another register is not
 * held, nor is another warp writing its own R4.  The tiny chip's flat
 * memory: the CTA ends one cycle after its EXIT. */
#define STG_R2_R4 "STG.E <- R2 R4 bytes=4 pattern=coalesced stall=1\n"
static const struct {
    const char *body;
    int read_cycles;
    long end;
} store_reads[] = {
    {STG_R2_R4 "MOV R4 stall=1\nEXIT\n", 0, 3},                     /* no barrier: MOV at 1 */
    {STG_R2_R4 "MOV R4 stall=1\nEXIT\n", 30, 32},                   /* MOV at 30, EXIT at 31 */
    {STG_R2_R4 "MOV R2 stall=1\nEXIT\n", 30, 32},                   /* the address register too */
    {STG_R2_R4 "MOV R4 stall=1\nEXIT\n", 7, 9},
    {STG_R2_R4 "MOV R5 stall=1\nEXIT\n", 30, 3},                    /* another register */
    {STG_R2_R4 "IADD3 R6 <- R4 stall=1\nEXIT\n", 30, 3},            /* a reader is not held */
    /* read already: STG 0, FFMA 15, MOV R4 30 (barrier at 20), EXIT 31 */
    {"STG.E <- R2 R4 bytes=4 pattern=coalesced stall=15\nFFMA stall=15\nMOV R4 stall=1\nEXIT\n", 20, 32},
    {STG_R2_R4 "MOV R5 stall=1\nMOV R4 stall=1\nEXIT\n", 30, 32},  /* MOV R5 at 1, MOV R4 at 30 */
    /* two warps of one CTA: warp 0 stores at 0 and exits at 1; warp 1
     * writes its own R4 three times from cycle 2, each waiting for the
     * last (misc latency 2: 2, 4, 6), EXIT 7; held by warp 0's barrier its
     * first MOV would wait until 30 */
    {"ifwarp 0\n" STG_R2_R4 "end\nifwarp 1\nMOV R4 stall=1\nMOV R4 stall=1\nMOV R4 stall=1\nend\nEXIT\n",
     30, 8},
};

START_TEST(test_store_read_barrier)
{
    char *yaml = tu_strf("sm: {store_read_cycles: %d}", store_reads[_i].read_cycles);
    tu_run run;
    run_tiny(&run, yaml, store_reads[_i].body, 1, _i == (int)SK_ARRAY_LEN(store_reads) - 1 ? 64 : 32);
    ck_assert_msg(end_cycle(&run, 0) == store_reads[_i].end, "row %d: ends at %ld, expected %ld", _i,
                  end_cycle(&run, 0), store_reads[_i].end);
    tu_run_free(&run);
    free(yaml);
}
END_TEST

/* The read barriers live with the warp slot's scoreboard (sm.c):
 * (a) a slot's next CTA does not inherit them: one CTA at a time, CTA 0
 *     writes R4 (0), stores it once ready (2), exits (3); CTA 1 reuses the
 *     slot at once and takes as long, its MOV R4 not held until 2 + 30;
 * (b) they move when the scoreboard pool grows: kernel A stores and then
 *     overwrites R4 (barrier until 100000), while kernel B of another
 *     stream, with 45 registers, launched 1 us later (launch pipelining
 *     on), arrives on the same SM (the pool grows for it) while A runs 70
 *     FFMAs of stall 15 (to cycle 1051), so the MOV's registers are looked
 *     up in the grown pool; it still waits: A ends at 100002. */
START_TEST(test_store_read_barrier_slots)
{
    tu_run run;
    run_tiny(&run, "sm: {store_read_cycles: 30, max_ctas: 1}",
             "MOV R4 stall=1\n" STG_R2_R4 "EXIT\n", 2, 32);
    ck_assert_int_eq(end_cycle(&run, 0) - start_cycle(&run, 0), 4);
    ck_assert_msg(start_cycle(&run, 1) < 30, "CTA 1 starts at %ld", start_cycle(&run, 1));
    ck_assert_int_eq(end_cycle(&run, 1) - start_cycle(&run, 1), 4);
    tu_run_free(&run);

    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "sm: {store_read_cycles: 100000}\nlaunch: {host_ns: 1000, queue_gap_ns: 1}", NULL);
    char movs[40 * 16] = "";
    for (int r = 0; r < 40; r++)
        snprintf(movs + strlen(movs), sizeof movs - strlen(movs), "MOV R%d stall=1\n", r + 5);
    char *text = tu_strf("skewsim-trace 1\nkernel a grid=1 block=32 regs=16 stream=0\nprogram main\n"
                         STG_R2_R4 "loop 70\nFFMA stall=15\nend\nMOV R4 stall=1\nEXIT\nend\nendkernel\n"
                         "kernel b grid=1 block=32 regs=64 stream=1\nprogram main\n%sEXIT\nend\nendkernel\n",
                         movs);
    tu_simulate_ok(&run, &c, text);
    free(text);
    const cta_record *bb = tu_cta(&run, 1, 0);
    ck_assert_msg(bb->start_ps < 100000 * 1000, "kernel b started at %lld ps, after a's barrier", (long long)bb->start_ps);
    ck_assert_int_eq(end_cycle(&run, 0), 100002);
    tu_run_free(&run);
}
END_TEST

/* sm.store_read_cycles anywhere in its bounds (0..100000, drawn at
 * random, seeded): the run completes, and a loop whose next iteration
 * overwrites the store's data register takes R + 2 cycles an iteration
 * (the MOV, its 2-cycle latency to the STG, the STG's barrier), 4 while R
 * is under 2, so its end lies between 3 R (three held MOVs) and
 * 4 (R + 4) + 2, and is never sooner for a larger R. */
START_TEST(test_property_store_read)
{
    uint64_t x = 20261205;
    long r[16];
    for (int k = 0; k < 16; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        r[k] = k == 0 ? 0 : k == 1 ? 100000 : (long)((x >> 33) % 100001);
    }
    for (int i = 1; i < 16; i++)        /* ascending */
        for (int j = i; j > 0 && r[j] < r[j - 1]; j--) {
            long t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    long prev = 0;
    for (int k = 0; k < 16; k++) {
        char *yaml = tu_strf("sm: {store_read_cycles: %ld}", r[k]);
        tu_run run;
        run_tiny(&run, yaml, "loop 4\nMOV R4 stall=1\n" STG_R2_R4 "BRA stall=1\nend\nEXIT\n", 1, 32);
        long end = end_cycle(&run, 0);
        ck_assert_msg(end >= prev, "R=%ld: ends at %ld, before R=%ld's %ld", r[k], end, k ? r[k - 1] : 0, prev);
        ck_assert_msg(end >= 3 * r[k] && end <= 4 * (r[k] + 4) + 2, "R=%ld: ends at %ld", r[k], end);
        prev = end;
        tu_run_free(&run);
        free(yaml);
    }
}
END_TEST

/* FFMA stall=S; EXIT: the EXIT issues S cycles after the FFMA (cycle 0). */
static const int stalls[] = {1, 2, 7, 15};

START_TEST(test_stall_count)
{
    char *body = tu_strf("FFMA stall=%d\nEXIT\n", stalls[_i]);
    tu_run run;
    run_tiny(&run, "", body, 1, 32);
    ck_assert_int_eq(end_cycle(&run, 0), stalls[_i] + 1);
    tu_run_free(&run);
    free(body);
}
END_TEST

/* A stall holds only its own warp: A issues FFMA in cycle 0, B in cycle 1
 * (A is not ready), A EXIT in 10, B EXIT in 11. */
START_TEST(test_stall_holds_one_warp)
{
    tu_run run;
    run_tiny(&run, "", "FFMA stall=10\nEXIT\n", 2, 32);
    ck_assert_int_eq(start_cycle(&run, 0), 0);
    ck_assert_int_eq(start_cycle(&run, 1), 1);
    ck_assert_int_eq(end_cycle(&run, 0), 11);
    ck_assert_int_eq(end_cycle(&run, 1), 12);
    tu_run_free(&run);
}
END_TEST

/* Two one-warp CTAs of 50 independent FFMAs (stall 1) and EXIT.
 *  ii 1, one pipe:  A issues c0-49, EXIT c50 (end 51); B c51-100, EXIT c101 (end 102).
 *  ii 2, one pipe:  the pipe takes an FFMA every other cycle: A c0, 2, ..,
 *                   98, EXIT (branch unit) c99, end 100; B c100, .., 198,
 *                   EXIT c199, end 200: half the FFMA throughput.
 *  ii 2, two pipes: the pipes alternate, one FFMA a cycle again: as ii 1.
 *  two schedulers:  A and B each on their own scheduler: both end at 51. */
static const struct {
    const char *yaml;
    long end[2];
} throughput[] = {
    {"units: {fp32: {count: 1, ii_cycles: 1}}", {51, 102}},
    {"units: {fp32: {count: 1, ii_cycles: 2}}", {100, 200}},
    {"units: {fp32: {count: 2, ii_cycles: 2}}", {51, 102}},
    {"sm: {warp_schedulers: 2}", {51, 51}},
};

START_TEST(test_throughput)
{
    tu_run run;
    run_tiny(&run, throughput[_i].yaml, "loop 50\nFFMA stall=1\nend\nEXIT\n", 2, 32);
    for (uint64_t i = 0; i < 2; i++)
        ck_assert_msg(end_cycle(&run, i) == throughput[_i].end[i], "%s: CTA %llu ends at %ld, expected %ld",
                      throughput[_i].yaml, (unsigned long long)i, end_cycle(&run, i), throughput[_i].end[i]);
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, 2 * 51);
    tu_run_free(&run);
}
END_TEST

/* ------------------------------------------------------------ barriers */

/* One CTA of two warps, oldest-first scheduling.  Warp 1 spends two
 * stall=15 FFMAs before the barrier, warp 0 one stall=15 FFMA after it:
 *
 *   c0   W0 BAR.SYNC (waits)          c1   W1 FFMA       c16  W1 FFMA
 *   c31  W1 BAR.SYNC: all arrived, both may issue from 31 + barrier_cycles
 *   c32  W0 FFMA (oldest)             c33  W1 EXIT       c47  W0 EXIT: end 48
 *
 * barrier_cycles 5: both wait until 36: W0 FFMA 36, W1 EXIT 37, W0 EXIT 51:
 * end 52.  With sm.barrier_arrive_cycles 2 the barrier unit takes W0's
 * arrival until 2 and W1's until 33, so release is 33 + 1: W0 FFMA 34, W1
 * EXIT 35, W0 EXIT 49: end 50.  With a NOP in place of the barrier W0 does not wait: W0 NOP c0,
 * FFMA c1, W1 FFMA c2, W0 EXIT c16, W1 FFMA c17, NOP c32, EXIT c33: end 34.
 * (Oldest-first, because under GTO the order after a release depends on
 * whether the greedy warp survives cycles in which no warp can issue, which
 * the policy's description leaves open.) */
#define BAR_BODY(op)                                                            \
    "ifwarp 1\nFFMA stall=15\nFFMA stall=15\nend\n" op " stall=1\n"             \
    "ifwarp 0\nFFMA stall=15\nend\nEXIT\n"

static const struct {
    const char *yaml, *body;
    long end;
} barriers[] = {
    {"sm: {warp_policy: oldest, barrier_cycles: 1}", BAR_BODY("BAR.SYNC"), 48},
    {"sm: {warp_policy: oldest, barrier_cycles: 5}", BAR_BODY("BAR.SYNC"), 52},
    {"sm: {warp_policy: oldest, barrier_cycles: 1, barrier_arrive_cycles: 2}", BAR_BODY("BAR.SYNC"), 50},
    {"sm: {warp_policy: oldest, barrier_cycles: 1}", BAR_BODY("NOP"), 34},
};

START_TEST(test_barrier)
{
    tu_run run;
    run_tiny(&run, barriers[_i].yaml, barriers[_i].body, 1, 64);
    ck_assert_int_eq(start_cycle(&run, 0), 0);
    ck_assert_msg(end_cycle(&run, 0) == barriers[_i].end, "row %d: ends at %ld, expected %ld", _i,
                  end_cycle(&run, 0), barriers[_i].end);
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, 3 + 4);   /* W0 3, W1 4 */
    tu_run_free(&run);
}
END_TEST

/* The barrier unit is the SM's, not the CTA's: two one-warp CTAs on one SM
 * (one scheduler), barrier_arrive_cycles 10, barrier_cycles 1.  CTA 0's
 * warp arrives c0, taken until 10, released 11: EXIT c11, end 12.  CTA 1's
 * arrives c1 but waits for the unit: taken until 20, released 21: EXIT
 * c21, end 22 (a unit per CTA would end it at 13). */
START_TEST(test_barrier_unit_shared)
{
    tu_run run;
    run_tiny(&run, "sm: {barrier_cycles: 1, barrier_arrive_cycles: 10}", "BAR.SYNC\nEXIT\n", 2, 32);
    ck_assert_int_eq(end_cycle(&run, 0), 12);
    ck_assert_int_eq(end_cycle(&run, 1), 22);
    tu_run_free(&run);
}
END_TEST

/* Only live warps hold a barrier: warp 1 exits without reaching it.
 *   exits after W0 arrives:  W0 BAR.SYNC c0 (waits for W1), W1 FFMA c1, W1
 *                            EXIT c16 releases W0 (ready at 17), W0 EXIT
 *                            c17: end 18.
 *   exits before W0 arrives: W0 FFMA c0, W1 EXIT c1, W0 BAR.SYNC c15 finds
 *                            every live warp there, W0 EXIT c16: end 17.
 * Either way, counting the exited warp would deadlock the CTA. */
static const struct {
    const char *body;
    long end;
    uint64_t instructions;
} exited[] = {
    {"ifwarp 1\nFFMA stall=15\nEXIT\nend\nBAR.SYNC\nEXIT\n", 18, 2 + 2},
    {"ifwarp 0\nFFMA stall=15\nend\nifwarp 1\nEXIT\nend\nBAR.SYNC\nEXIT\n", 17, 3 + 1},
};

START_TEST(test_barrier_exited_warp)
{
    tu_run run;
    run_tiny(&run, "", exited[_i].body, 1, 64);
    ck_assert_int_eq(end_cycle(&run, 0), exited[_i].end);
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, exited[_i].instructions);
    tu_run_free(&run);
}
END_TEST

/* Four warps, one barrier each; the last to arrive releases them all.
 *   c0 W0 BAR, c1 W1 BAR, c2 W2 BAR, c3 W3 FFMA, c18 W3 FFMA, c33 W3 FFMA,
 *   c48 W3 BAR: release, all ready at 49; EXITs c49 (W3, greedy), 50, 51, 52:
 *   end 53. */
START_TEST(test_barrier_all_warps)
{
    tu_run run;
    run_tiny(&run, "", "ifwarp 3\nFFMA stall=15\nFFMA stall=15\nFFMA stall=15\nend\nBAR.SYNC\nEXIT\n",
             1, 128);
    ck_assert_int_eq(end_cycle(&run, 0), 53);
    tu_run_free(&run);
}
END_TEST

/* ------------------------------------------------------------- control */

/* ifwarp W: only warp W runs the three stall=15 FFMAs.
 *   W0 of 2: W0 FFMA c0, W1 EXIT c1, W0 FFMA c15, c30, EXIT c45: end 46.
 *   W1 of 2: W0 EXIT c0, W1 FFMA c1, c16, c31, EXIT c46: end 47.
 *   W2 of 3: W0 EXIT c0, W1 EXIT c1, W2 FFMA c2, c17, c32, EXIT c47: end 48. */
static const struct {
    int w;
    unsigned block;
    long end;
    uint64_t instructions;
} ifwarps[] = {
    {0, 64, 46, 4 + 1},
    {1, 64, 47, 1 + 4},
    {2, 96, 48, 1 + 1 + 4},
};

START_TEST(test_ifwarp)
{
    char *body = tu_strf("ifwarp %d\nFFMA stall=15\nFFMA stall=15\nFFMA stall=15\nend\nEXIT\n", ifwarps[_i].w);
    tu_run run;
    run_tiny(&run, "", body, 1, ifwarps[_i].block);
    ck_assert_int_eq(start_cycle(&run, 0), 0);
    ck_assert_int_eq(end_cycle(&run, 0), ifwarps[_i].end);
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, ifwarps[_i].instructions);
    tu_run_free(&run);
    free(body);
}
END_TEST

/* Loops: `loop N work` runs round(N * work) times (halves away from zero),
 * a plain loop N times whatever the work.  One warp of FFMAs at one a
 * cycle: instructions = loop trips + 1 (EXIT), and the CTA ends then. */
static const struct {
    const char *loops;
    const char *work;
    uint64_t instructions;
} works[] = {
    {"loop 10 work\nFFMA\nend\n", "1", 10 + 1},
    {"loop 10 work\nFFMA\nend\n", "2", 20 + 1},
    {"loop 10 work\nFFMA\nend\n", "0.5", 5 + 1},
    {"loop 10 work\nFFMA\nend\n", "0.25", 3 + 1},            /* round(2.5) = 3 */
    {"loop 10 work\nFFMA\nend\n", "0", 0 + 1},               /* the loop is skipped */
    {"loop 10\nFFMA\nend\n", "2", 10 + 1},                   /* not work-scaled */
    {"loop 3\nloop 4 work\nFFMA\nend\nend\n", "2", 3 * 8 + 1},
    {"loop 4 work\nFFMA\nFFMA\nend\nloop 2\nFFMA\nend\n", "2", 8 * 2 + 2 + 1},
};

START_TEST(test_work_scaled_loops)
{
    char *tr = tu_strf("skewsim-trace 1\nkernel k grid=1 block=32\nprogram main\n%sEXIT\nend\n"
                       "ctas\ncta 0 work=%s\nend\nendkernel\n", works[_i].loops, works[_i].work);
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    uint64_t n = works[_i].instructions;
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, n);
    ck_assert_int_eq(end_cycle(&run, 0), (long)n);
    tu_run_free(&run);

    /* the program's own count agrees */
    sk_error e = {0};
    trace *t = trace_open_string("work.trace", tr, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_uint_eq(prog_dynamic_count(&k.progs[0], strtod(works[_i].work, NULL)), n);
    kernel_free(&k);
    trace_close(t);
    free(tr);
}
END_TEST

/* Work factors per CTA in one kernel: 11 + 21 + 6 instructions in all. */
START_TEST(test_work_per_cta)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, "skewsim-trace 1\nkernel k grid=3 block=32\nprogram main\n"
                             "loop 10 work\nFFMA\nend\nEXIT\nend\n"
                             "ctas\ncta 1 work=2\ncta 2 work=0.5\nend\nendkernel\n");
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, 11 + 21 + 6);
    tu_run_free(&run);
}
END_TEST

/* -------------------------------------------------------- clock domain */

static void clock_at(sm *m, int mhz)
{
    memset(m, 0, sizeof *m);
    m->period_fs = 1;                    /* as sm_init() leaves it before the first sm_set_mhz() */
    sm_set_mhz(m, mhz, 0);
}

/* Cycle c starts at floor(c * period_fs / 1000) ps and period_fs is 1e9 /
 * MHz rounded to 1 fs: cycle_at(time(c)) == c, and cycle_at(t) is the
 * first cycle starting at or after t. */
static const int mhzs[] = {1980, 1000, 1755, 1, 100, 10000};

START_TEST(test_clock_round_trip)
{
    sm m;
    clock_at(&m, mhzs[_i]);
    ck_assert_int_eq(m.mhz, mhzs[_i]);
    ck_assert_int_eq(m.period_fs, (1000000000LL + mhzs[_i] / 2) / mhzs[_i]);
    uint64_t limit = mhzs[_i] == 1 ? 1000000000ULL : 1000000000000ULL;   /* ~1000 s either way */
    uint64_t state = 7;
    /* Check the loops' conditions without an assertion each (Check reports
     * every passing assertion to the runner): the first failure is kept. */
    char bad[256] = "";
    for (int k = 0; k < 200000 && !bad[0]; k++) {
        uint64_t c;
        if (k < 100000) {
            c = (uint64_t)k;
        } else {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            c = (state >> 11) % limit;
        }
        ps_t t = sm_cycle_time(&m, c);
        if (sm_cycle_at(&m, t) != c || (c > 0 && sm_cycle_time(&m, c - 1) >= t))
            snprintf(bad, sizeof bad, "%d MHz: cycle %llu starts at %lld ps, whose cycle is %llu", mhzs[_i],
                     (unsigned long long)c, (long long)t, (unsigned long long)sm_cycle_at(&m, t));
    }
    ck_assert_msg(!bad[0], "%s", bad);
    for (int k = 0; k < 100000 && !bad[0]; k++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        ps_t t = k < 2000 ? k : (ps_t)((state >> 11) % (limit / 1000 * (uint64_t)m.period_fs));
        uint64_t c = sm_cycle_at(&m, t);
        if (sm_cycle_time(&m, c) < t || (c > 0 && sm_cycle_time(&m, c - 1) >= t))
            snprintf(bad, sizeof bad, "%d MHz: %lld ps falls in cycle %llu, which starts at %lld ps", mhzs[_i],
                     (long long)t, (unsigned long long)c, (long long)sm_cycle_time(&m, c));
    }
    ck_assert_msg(!bad[0], "%s", bad);
}
END_TEST

/* A period in femtoseconds keeps a clock exact to better than 1 ppm: one
 * second of cycles takes one second. */
START_TEST(test_clock_accuracy)
{
    sm m;
    clock_at(&m, mhzs[_i]);
    ps_t one_s = sm_cycle_time(&m, (uint64_t)mhzs[_i] * 1000000u);
    ck_assert_msg(llabs(one_s - 1000000000000LL) <= 1000000, "%d MHz: 1 s of cycles is %lld ps", mhzs[_i],
                  (long long)one_s);
}
END_TEST

/* sm_set_mhz(m, f, t) takes effect from the first cycle at or after t; the
 * cycles before keep their times. */
START_TEST(test_clock_change)
{
    sm m;
    clock_at(&m, 1980);
    ps_t t25 = sm_cycle_time(&m, 25), t24 = sm_cycle_time(&m, 24);
    /* cycle 24 starts at 12121 ps, cycle 25 at 12626 ps (505051 fs a cycle) */
    ck_assert_int_eq(t24, 12121);
    ck_assert_int_eq(t25, 12626);
    sm_set_mhz(&m, 1000, 12345);
    ck_assert_int_eq(m.mhz, 1000);
    ck_assert_int_eq(sm_cycle_time(&m, 25), t25);
    int bad = -1;
    for (uint64_t k = 0; k < 1000 && bad < 0; k++)
        if (sm_cycle_time(&m, 25 + k) != t25 + (ps_t)k * 1000 || sm_cycle_at(&m, t25 + (ps_t)k * 1000) != 25 + k ||
            sm_cycle_at(&m, t25 + (ps_t)k * 1000 + 1) != 26 + k)
            bad = (int)k;
    ck_assert_msg(bad < 0, "cycle %d after the change: not 1 ns a cycle from 12626 ps", 25 + bad);
    ck_assert_uint_eq(sm_cycle_at(&m, 12345), 25);
}
END_TEST

/* ------------------------------------------------------- the cycle skip */

/* After a cycle in which it issued, the SM jumps to the next cycle at which
 * a warp could issue (sm.c, next_issue) and charges the cycles between as
 * stalls.  Differential test against the SM that processes every cycle
 * after an issue (sm.per_cycle, the behaviour before the skip): on one SM
 * with four schedulers (no other SM, so no tie order between SMs to move),
 * a mix of latencies, compiler stalls, a shared pipeline, shared and global
 * loads, barriers, and more CTAs than fit (launches into a running SM), both
 * must give the same kernel, CTA and stall records, and the skip fewer
 * events.  A skipped cycle in which a warp could have issued moves that
 * warp's issue later, and with it the CTA times; a wrong charge moves the
 * stall counts. */
#define SKIP_YAML                                                               \
    "sm: {warp_schedulers: 4, starvation_cycles: 40, max_ctas: 3,"              \
    " store_read_cycles: 17}\n"                                                 \
    "units: {fp32: {count: 2, lat_cycles: 4, ii_cycles: 2},"                    \
    " sfu: {count: 1, lat_cycles: 13, ii_cycles: 8}}\n"                         \
    "memory: {latency_ns: 50, bandwidth_gbps: 200}\n"                          \
    "dispatch: {cta_ps: 2500}\n"
#define SKIP_BODY                                                               \
    "loop 12 work\n"                                                            \
    "LDG.E R4 <- R2 bytes=4 pattern=coalesced stall=1\n"                        \
    "FFMA R5 <- R5 R6 stall=2\n"                                                \
    "MUFU.EX2 R7 <- R5 stall=1\n"                                               \
    "FFMA R8 <- R4 R7 stall=1\n"                                                \
    "LDS R9 <- R8 stall=3\n"                                                    \
    "ifwarp 2\nFFMA R6 <- R9 stall=5\nMUFU.RSQ R6 <- R6 stall=1\nend\n"         \
    "BAR.SYNC stall=1\n"                                                        \
    "STG.E <- R2 R8 bytes=4 pattern=coalesced stall=1\n"                        \
    "IADD3 R2 <- R2 stall=4\n"                                                  \
    "end\n"                                                                     \
    "STG.E <- R2 R8 bytes=4 pattern=coalesced stall=1\n"                        \
    "EXIT\n"

static const char *const skip_policies[] = {"gto", "lrr", "oldest", "two_level"};
/* the body as it is, and with warp 1 of each CTA leaving early (a warp that
 * exits while the rest of its scheduler's warps run on moves the others'
 * positions in the scheduler's order, sm.c remove_from_sched) */
static const char *const skip_prefix[] = {"", "ifwarp 1\nFFMA R5 <- R5 R6 stall=2\nEXIT\nend\n"};

START_TEST(test_skip_matches_per_cycle)
{
    cfg c;
    const int npol = (int)SK_ARRAY_LEN(skip_policies);
    char *pol = tu_strf("sm: {warp_policy: %s}\n", skip_policies[_i % npol]);
    tu_cfg(&c, NULL, TU_TINY_YAML, SKIP_YAML, pol, NULL);
    free(pol);
    char *text = tu_strf("skewsim-trace 1\nkernel k grid=9 block=192 regs=16\nprogram main\n%s%send\n"
                         "ctas\n  range 0 3 program=main work=1\n  range 4 8 program=main work=2\nend\nendkernel\n",
                         skip_prefix[_i / npol], SKIP_BODY);
    tu_run run[2];
    for (int per = 0; per < 2; per++) {
        memset(&run[per], 0, sizeof run[per]);
        sk_error *e = &run[per].e;
        trace *tr = trace_open_string("skip.trace", text, e);
        ck_assert_msg(tr != NULL, "%s", e->msg);
        run[per].r = results_open(NULL, e);
        sim_sink obs = results_sink(run[per].r);
        run[per].s = sim_create(&c, &obs, 1, e);
        ck_assert_ptr_nonnull(run[per].s);
        run[per].s->sms[0].per_cycle = per;
        ck_assert_msg(sim_run(run[per].s, tr, e) == 0, "%s", e->msg);
        trace_close(tr);
    }
    free(text);
    const sm *a = &run[0].s->sms[0], *b = &run[1].s->sms[0];
    ck_assert_uint_eq(results_nctas(run[0].r), 9);
    ck_assert_uint_eq(results_nctas(run[1].r), 9);
    for (size_t i = 0; i < 9; i++) {
        const cta_record *x = results_cta(run[0].r, i), *y = results_cta(run[1].r, i);
        ck_assert_msg(x->start_ps == y->start_ps && x->end_ps == y->end_ps,
                      "CTA %zu: %lld..%lld ps with the skip, %lld..%lld ps cycle by cycle", i,
                      (long long)x->start_ps, (long long)x->end_ps, (long long)y->start_ps, (long long)y->end_ps);
    }
    ck_assert(memcmp(results_kernel(run[0].r, 0), results_kernel(run[1].r, 0), sizeof(kernel_stats)) == 0);
    ck_assert_uint_eq(sm_issued(a), sm_issued(b));
    ck_assert_uint_eq(a->issue_slots, b->issue_slots);
    for (int k = 0; k < SM_NSTALLS; k++)
        ck_assert_msg(a->stall[k] == b->stall[k], "stall %s: %llu with the skip, %llu cycle by cycle",
                      sm_stall_name(k), (unsigned long long)a->stall[k], (unsigned long long)b->stall[k]);
    /* the skip did something: fewer events, and every reason was charged */
    ck_assert_uint_lt(a->processed, b->processed);
    ck_assert_uint_gt(a->stall[SM_STALL_MEMORY], 0);
    ck_assert_uint_gt(a->stall[SM_STALL_UNIT], 0);
    ck_assert_uint_gt(a->stall[SM_STALL_COMPILER], 0);
    tu_run_free(&run[0]);
    tu_run_free(&run[1]);
}
END_TEST

/* sim.lookahead_cycles: an SM may run up to Q cycles ahead of other SMs'
 * events.  On the H200 with the hierarchy: a memory-bound stream at Q = 16
 * (the hierarchy's default) stays within 0.5 % of Q = 0 in kernel time,
 * with fewer events, and two runs at Q = 16 are identical; an FMA kernel
 * (SMs interact only through the dispatcher and the clock epochs, which
 * nothing runs past) is the same at Q = 16 as at Q = 0 in every record. */
static void run_q(const kernel *k, int q, const char *yaml, results **out, uint64_t *events)
{
    char dir[256], path[512];
    sk_error e = {0};
    tu_mkdtemp(dir, sizeof dir, "ahead");
    snprintf(path, sizeof path, "%s/k.trace", dir);
    ck_assert_msg(trace_write_kernel(path, k, 0, &e) == 0, "%s", e.msg);
    cfg c;
    char *set = tu_strf("sim: {lookahead_cycles: %d}\nmemory: {model: hierarchy}\n", q);
    tu_cfg(&c, TU_H200, set, yaml, NULL);
    free(set);
    trace *tr = trace_open(path, &e);
    ck_assert_msg(tr != NULL, "%s", e.msg);
    *out = results_open(NULL, &e);
    sim_sink obs = results_sink(*out);
    sim *s = sim_create(&c, &obs, 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->sms[0].ahead_cycles, (uint64_t)q);
    ck_assert_msg(sim_run(s, tr, &e) == 0, "%s", e.msg);
    *events = s->q.fired;
    sim_destroy(s);
    trace_close(tr);
    tu_rmdir(dir);
}

static int same_records(const results *a, const results *b)
{
    if (results_nctas(a) != results_nctas(b) || results_nkernels(a) != results_nkernels(b))
        return 0;
    for (size_t i = 0; i < results_nkernels(a); i++)
        if (memcmp(results_kernel(a, i), results_kernel(b, i), sizeof(kernel_stats)) != 0)
            return 0;
    /* CTAs that finish at the same time may be recorded in either order */
    for (size_t i = 0; i < results_nctas(a); i++) {
        const cta_record *x = results_cta(a, i);
        size_t j = 0;
        while (j < results_nctas(b) && (results_cta(b, j)->kernel != x->kernel || results_cta(b, j)->cta != x->cta))
            j++;
        if (j == results_nctas(b) || memcmp(x, results_cta(b, j), sizeof *x) != 0)
            return 0;
    }
    return 1;
}

START_TEST(test_lookahead)
{
    kernel k;
    sk_error e = {0};
    results *r0, *r16, *r16b;
    uint64_t ev0, ev16, ev16b;

    /* A wave and a half (12 CTAs an SM, 8 resident).  A one-wave stream's
     * end is chaotic since mem_kernel keeps one load in flight a warp (its
     * SASS, gen_stream.c): 528 CTAs of 64 KiB end 0.8-2.4 % apart at Q =
     * 1, 2, 4 or 16 against Q = 0, as each Q orders ties differently; this
     * one moves at most 0.06 % at Q = 1, 2 or 4 and not at all at 16. */
    ck_assert_msg(gen_stream(&k, 1584, 256, 32768, &e) == 0, "%s", e.msg);
    run_q(&k, 0, NULL, &r0, &ev0);
    run_q(&k, 16, NULL, &r16, &ev16);
    run_q(&k, 16, NULL, &r16b, &ev16b);
    kernel_free(&k);
    const kernel_stats *k0 = results_kernel(r0, 0), *k16 = results_kernel(r16, 0);
    double t0 = (double)(k0->done_ps - k0->launch_ps), t16 = (double)(k16->done_ps - k16->launch_ps);
    ck_assert_msg(fabs(t16 - t0) <= 0.005 * t0, "stream: %.0f ps at Q=16, %.0f ps at Q=0", t16, t0);
    ck_assert_uint_lt(ev16, ev0 / 2);
    ck_assert_uint_eq(ev16, ev16b);
    ck_assert(same_records(r16, r16b));
    results_free(r0);
    results_free(r16);
    results_free(r16b);

    ck_assert_msg(gen_fma(&k, 64, 256, 528, &e) == 0, "%s", e.msg);
    run_q(&k, 0, NULL, &r0, &ev0);
    run_q(&k, 16, NULL, &r16, &ev16);
    kernel_free(&k);
    ck_assert(same_records(r0, r16));
    ck_assert_uint_lt(ev16, ev0);
    results_free(r0);
    results_free(r16);
}
END_TEST

/* A time limit far past the run (sim.max_time_ns near the top of its
 * bounds) changes nothing: the SM's run-ahead bound is a cycle
 * (sm.c, stop_cycle), and a limit whose femtoseconds overflow 64 bits
 * (18446744073710 ns is 2^64 fs and a little) must mean no cycle the SM
 * can count, not a wrapped-around one that stopped it every cycle. */
START_TEST(test_far_time_limit)
{
    kernel k;
    sk_error e = {0};
    results *r0, *r1, *r2;
    uint64_t ev0, ev1, ev2;
    ck_assert_msg(gen_fma(&k, 64, 256, 264, &e) == 0, "%s", e.msg);
    run_q(&k, 16, NULL, &r0, &ev0);
    run_q(&k, 16, "sim: {max_time_ns: 18446744073710}", &r1, &ev1);
    run_q(&k, 16, "sim: {max_time_ns: 9223372036854775}", &r2, &ev2);
    kernel_free(&k);
    ck_assert(same_records(r0, r1));
    ck_assert(same_records(r0, r2));
    ck_assert_uint_eq(ev1, ev0);
    ck_assert_uint_eq(ev2, ev0);
    results_free(r0);
    results_free(r1);
    results_free(r2);
}
END_TEST

Suite *sm_suite(void)
{
    Suite *s = suite_create("sm");
    TCase *tc = tcase_create("scheduling");
    tcase_add_loop_test(tc, test_policy, 0, (int)SK_ARRAY_LEN(policies));
    suite_add_tcase(s, tc);

    tc = tcase_create("issue");
    tcase_add_loop_test(tc, test_dependency, 0, (int)SK_ARRAY_LEN(deps));
    tcase_add_loop_test(tc, test_store_read_barrier, 0, (int)SK_ARRAY_LEN(store_reads));
    tcase_add_test(tc, test_store_read_barrier_slots);
    tcase_add_test(tc, test_viadd_pipe);
    tcase_add_test(tc, test_bank_rule);
    tcase_add_test(tc, test_bank_conflict_cycles);
    tcase_add_loop_test(tc, test_ldst_queue, 0, (int)SK_ARRAY_LEN(ldst_queue));
    tcase_add_test(tc, test_ldst_queue_global);
    tcase_add_test(tc, test_policy_cta_rr);
    tcase_add_loop_test(tc, test_smem_rates, 0, (int)SK_ARRAY_LEN(smem_rates));
    tcase_add_test(tc, test_smem_flag);
    tcase_add_test(tc, test_ldst_queue_mixed);
    tcase_add_test(tc, test_property_store_read);
    tcase_add_loop_test(tc, test_stall_count, 0, (int)SK_ARRAY_LEN(stalls));
    tcase_add_test(tc, test_stall_holds_one_warp);
    tcase_add_loop_test(tc, test_throughput, 0, (int)SK_ARRAY_LEN(throughput));
    suite_add_tcase(s, tc);

    tc = tcase_create("control");
    tcase_add_loop_test(tc, test_barrier, 0, (int)SK_ARRAY_LEN(barriers));
    tcase_add_loop_test(tc, test_barrier_exited_warp, 0, (int)SK_ARRAY_LEN(exited));
    tcase_add_test(tc, test_barrier_unit_shared);
    tcase_add_test(tc, test_barrier_all_warps);
    tcase_add_loop_test(tc, test_ifwarp, 0, (int)SK_ARRAY_LEN(ifwarps));
    tcase_add_loop_test(tc, test_work_scaled_loops, 0, (int)SK_ARRAY_LEN(works));
    tcase_add_test(tc, test_work_per_cta);
    suite_add_tcase(s, tc);

    tc = tcase_create("clock");
    tcase_add_loop_test(tc, test_clock_round_trip, 0, (int)SK_ARRAY_LEN(mhzs));
    tcase_add_loop_test(tc, test_clock_accuracy, 0, (int)SK_ARRAY_LEN(mhzs));
    tcase_add_test(tc, test_clock_change);
    suite_add_tcase(s, tc);

    tc = tcase_create("skip");
    tcase_set_timeout(tc, 60);          /* test_lookahead: six simulations, slow when sanitized */
    tcase_add_loop_test(tc, test_skip_matches_per_cycle, 0,
                        (int)(SK_ARRAY_LEN(skip_policies) * SK_ARRAY_LEN(skip_prefix)));
    tcase_add_test(tc, test_lookahead);
    tcase_add_test(tc, test_far_time_limit);
    suite_add_tcase(s, tc);
    return s;
}
