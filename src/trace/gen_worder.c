/* gen_worder.c -- E31's warp-order kernel, tools/capture/cap_worder.cu's
 * worder<CH> as the H100 board's listing has it (validation/h100/worder/
 * cap_worder.sass.gz): every warp runs CH independent FFMA chains (CH 1,
 * 2 or 4), unrolled 16 times by ptxas, --iters times in all, between two
 * clock64() reads; lane 0 of every warp then stores its record.  A warp
 * alone issues CH FFMA in 4 cycles (the chain's latency): 0.25, 0.5 or 1
 * a cycle, so 8 warps a sub-partition ask for 2, 4 or 8 times what it can
 * issue and the warp scheduler decides who waits.
 *
 * Written instruction for instruction, stall counts and .reuse flags, for
 * the path an --iters that is a multiple of 16 takes (the unrolled loop
 * only; the branches around the remainder loops are issued, the loops
 * not): the never-taken store of the check and the other lanes' early
 * EXIT are left out (every warp's lane 0 writes a record, so every warp
 * runs it).  tests/test_sass.c holds the three to the listing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

const char *const gen_worder_chs[] = { "1", "2", "4", NULL };

/* up to the loop, one per CH (0x000-0x140, 0x150, 0x190) */
static const char *const wo_head[3] = {
    "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=7\nBAR.SYNC.DEFER_BLOCKING stall=1\n"
    "LOP3.LUT R8 <- R0 stall=4\nI2FP.F32.U32 R6 <- R8 stall=2\nCS2R R2 clock=start stall=1\n"
    "LDC R5 bytes=4 pattern=uniform stall=2\nISETP.GE.AND P0 <- R5 stall=13\n@!P0 BRA stall=5\n"
    "IADD3 R4 <- R5 stall=4\nISETP.GE.U32.AND P0 <- R4 stall=2\nLOP3.LUT R4 <- R5 stall=11\n@!P0 BRA stall=5\n"
    "IADD3 R5 <- R4 R5 stall=4\nISETP.GT.AND P0 <- R5 stall=13\n@!P0 BRA stall=5\nISETP.GT.AND P1 <- R5 stall=2\n"
    "PLOP3.LUT P0 stall=11\n@!P1 BRA stall=5\nHFMA2.MMA R7 stall=1\nPLOP3.LUT P0 stall=13\n",
    "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=7\nBAR.SYNC.DEFER_BLOCKING stall=1\n"
    "LOP3.LUT R8 <- R0 stall=4\nIADD3 R2 <- R8 stall=2\nI2FP.F32.U32 R7 <- R8 stall=2\n"
    "I2FP.F32.U32 R9 <- R2 stall=2\nCS2R R2 clock=start stall=1\nLDC R6 bytes=4 pattern=uniform stall=2\n"
    "ISETP.GE.AND P0 <- R6 stall=13\n@!P0 BRA stall=5\nIADD3 R4 <- R6.reuse stall=2\nLOP3.LUT R5 <- R6 stall=2\n"
    "ISETP.GE.U32.AND P0 <- R4 stall=13\n@!P0 BRA stall=5\nIADD3 R6 <- R5 R6 stall=4\n"
    "ISETP.GT.AND P0 <- R6 stall=13\n@!P0 BRA stall=5\nISETP.GT.AND P1 <- R6 stall=2\nPLOP3.LUT P0 stall=11\n"
    "@!P1 BRA stall=5\nPLOP3.LUT P0 stall=13\n",
    "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=7\nBAR.SYNC.DEFER_BLOCKING stall=1\n"
    "LOP3.LUT R8 <- R0 stall=4\nIADD3 R9 <- R8.reuse stall=2\nIADD3 R11 <- R8.reuse stall=2\n"
    "IADD3 R13 <- R8 stall=2\nI2FP.F32.U32 R7 <- R8 stall=2\nI2FP.F32.U32 R9 <- R9 stall=2\n"
    "I2FP.F32.U32 R11 <- R11 stall=2\nI2FP.F32.U32 R13 <- R13 stall=2\nCS2R R2 clock=start stall=1\n"
    "LDC R4 bytes=4 pattern=uniform stall=2\nISETP.GE.AND P0 <- R4 stall=13\n@!P0 BRA stall=5\n"
    "IADD3 R5 <- R4 stall=4\nISETP.GE.U32.AND P0 <- R5 stall=2\nLOP3.LUT R5 <- R4 stall=11\n@!P0 BRA stall=5\n"
    "IADD3 R4 <- R5 R4 stall=4\nISETP.GT.AND P0 <- R4 stall=13\n@!P0 BRA stall=5\nISETP.GT.AND P1 <- R4 stall=2\n"
    "PLOP3.LUT P0 stall=11\n@!P1 BRA stall=5\nPLOP3.LUT P0 stall=13\n",
};
/* from the loop's exit to the record (the branches past the remainders,
 * the clock, the check) */
static const char *const wo_tail[3] = {
    "ISETP.GT.AND P1 <- R5 stall=13\n@!P1 BRA stall=5\nISETP.NE.OR P0 <- R5 stall=13\n@!P0 BRA stall=5\n"
    "ISETP.NE.AND P0 <- R4 stall=13\n@!P0 BRA stall=5\nCS2R R4 clock=end stall=1\nFADD R6 <- R6 stall=1\n"
    "ISETP.NE.AND P1 <- R8 stall=1\nULDC.64 UR6 bytes=8 pattern=uniform stall=3\nFSETP.NEU.AND P0 <- R6 stall=13\n",
    "ISETP.GT.AND P1 <- R6 stall=13\n@!P1 BRA stall=5\nISETP.NE.OR P0 <- R6 stall=13\n@!P0 BRA stall=5\n"
    "ISETP.NE.AND P0 <- R5 stall=13\n@!P0 BRA stall=5\nCS2R R4 clock=end stall=1\nFADD R6 <- R7 stall=1\n"
    "ISETP.NE.AND P1 <- R8 stall=1\nULDC.64 UR6 bytes=8 pattern=uniform stall=2\nFADD R6 <- R6 R9 stall=5\n"
    "FSETP.NEU.AND P0 <- R6 stall=13\n",
    "ISETP.GT.AND P1 <- R4 stall=13\n@!P1 BRA stall=5\nISETP.NE.OR P0 <- R4 stall=13\n@!P0 BRA stall=5\n"
    "ISETP.NE.AND P0 <- R5 stall=13\n@!P0 BRA stall=5\nCS2R R4 clock=end stall=1\nFADD R6 <- R7 stall=1\n"
    "ISETP.NE.AND P1 <- R8 stall=1\nULDC.64 UR6 bytes=8 pattern=uniform stall=2\nFADD R6 <- R6 R9 stall=4\n"
    "FADD R6 <- R6 R11 stall=4\nFADD R6 <- R6 R13 stall=5\nFSETP.NEU.AND P0 <- R6 stall=13\n",
};
/* every warp's lane 0: its record (the same in the three) */
static const char wo_record[] =
    "LDC R9 bytes=4 pattern=uniform stall=1\nS2R R13 stall=1\nHFMA2.MMA R7 stall=1\nSHF.R.U32.HI R6 <- R0 stall=1\n"
    "ULDC.64 UR8 bytes=8 pattern=uniform stall=4\nS2UR UR4 stall=1\nSHF.R.U32.HI R9 <- R9 stall=5\n"
    "IMAD.WIDE.U32 R6 <- R9 UR4 R6 stall=1\nULDC.64 UR4 bytes=8 pattern=uniform stall=2\n"
    "LEA R8 <- R6.reuse UR4 stall=2\nLEA R10 <- R6.reuse UR8 stall=2\nLEA.HI.X R9 <- R6.reuse UR5 R7.reuse stall=2\n"
    "LEA.HI.X R11 <- R6 UR9 R7 stall=3\nSTG.E.64 <- UR6 R8 R2 bytes=8 pattern=uniform stall=4\n"
    "STG.E.64 <- UR6 R8 R4 bytes=8 pattern=uniform stall=4\nSTG.E <- UR6 R10 R13 bytes=4 pattern=uniform stall=1\n"
    "EXIT stall=5\n";

/* one trip of the unrolled loop (16 iterations) */
static void wo_loop(strbuf *b, int ch)
{
    if (ch == 0) {
        sb_printf(b, "FFMA R6 <- R6 R7 stall=1\nVIADD R5 <- R5 stall=3\nFFMA R6 <- R6 R7.reuse stall=2\n"
                  "ISETP.GT.AND P1 <- R5 stall=2\n");
        for (int i = 0; i < 13; i++)
            sb_printf(b, "FFMA R6 <- R6 R7 stall=4\n");
        sb_printf(b, "FFMA R6 <- R6 R7 stall=1\n@P1 BRA stall=6\n");
        return;
    }
    static const char *const r2[2] = { "R7", "R9" }, *const r4[4] = { "R7", "R9", "R11", "R13" };
    const char *const *r = ch == 1 ? r2 : r4;
    int n = ch == 1 ? 2 : 4, u = ch == 1 ? 4 : 6;
    sb_printf(b, "HFMA2.MMA R%d stall=1\nIADD3 R%d <- R%d stall=4\nISETP.GT.AND P1 <- R%d stall=5\n", u, u == 4 ? 6 : 4,
              u == 4 ? 6 : 4, u == 4 ? 6 : 4);
    for (int i = 0; i < 16 * n; i++) {
        int last = i == 16 * n - 1;
        /* CH 2: R7 reads R4 .reuse, stall 1, then R9, stall 3 (1 the last);
         * CH 4: every FFMA stall 1, .reuse but the last */
        int stall = ch == 1 ? (i % 2 ? (last ? 1 : 3) : 1) : 1;
        int reuse = ch == 1 ? i % 2 == 0 : !last;
        sb_printf(b, "FFMA %s <- %s R%d%s stall=%d\n", r[i % n], r[i % n], u, reuse ? ".reuse" : "", stall);
    }
    sb_printf(b, "@P1 BRA stall=6\n");
}

int gen_worder(kernel *k, int ch, long iters, long block, long grid, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {ch, iters, block, grid};
    if (gen_check(&gen_workloads[GEN_WORDER], v, 0, 4, e) < 0)
        return e->code;
    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel worder_%s grid=%ld block=%ld regs=16 data=quiet\nprogram main\n%s"
              "loop %ld\n", gen_worder_chs[ch], grid, block, wo_head[ch], iters / 16);
    wo_loop(&b, ch);
    sb_printf(&b, "end\n%s%send\nendkernel\n", wo_tail[ch], wo_record);
    int rc = gen_parse(k, "gen worder", b.s, e);
    free(b.s);
    return rc;
}
