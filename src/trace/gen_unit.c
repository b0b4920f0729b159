/* gen_unit.c -- E16's single-unit power mixes of tools/capture/cap_power.cu
 * (validation/h200/capture), as nvcc -O3 -arch=sm_90 compiled them
 * (capture/sass/cap_power.sass.gz), for the power model to be judged on:
 *
 *   int32  int_kernel: per thread four chains a0..a3 of mad.lo.u32 and
 *          add.u32; ptxas merges each pair of adds into one IADD3, so the
 *          loop unrolled 8 times (0x130-0x350) is 16 IMAD + 16 IADD3 +
 *          VIADD + ISETP + BRA.  Written instruction for instruction from
 *          the listing, with its stall counts and .reuse flags: its IMAD
 *          and IADD3 read two even registers each (R8/R10, R12/R14) beside
 *          the multiplier R7, which is what holds the chip to 2.2
 *          instructions a cycle (the register banks, E29);
 *   fp64   dfma_kernel: four DFMA chains, unrolled 8 (0x110-0x370): 32 DFMA
 *          with their constants in UR4 and R6, VIADD, ISETP, BRA;
 *   smem   smem_kernel: per iteration two LDS and one STS of 4 bytes with
 *          the index arithmetic (VIADD, IADD3, LOP3.LUT masks) and two FADD,
 *          unrolled 4 (0x250-0x540), after each thread's stores filling the
 *          4096-float array and a barrier.
 *
 * --iters N is the kernel's `iters` argument: the unrolled loop runs N / U
 * times and the remainder loop N % U (U = 8, 8, 4).  Each kernel ends with
 * the CTA record of cap_power.cu (a barrier, thread 0's store).  The
 * register names and the dependencies between instructions are the SASS's;
 * in fp64 and smem the stall counts are 1 and no .reuse flags are written
 * (the unit pipes, not the stalls, bound these loops: 2 DFMA warp
 * instructions per SM cycle, E10).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

const char *const gen_unit_ops[] = { "int32", "fp64", "smem", NULL };

/* int_kernel's main loop, 0x130-0x350, one trip of eight iterations */
static const char int32_main[] =
    "IMAD R14 <- R8 R7.reuse R10 stall=2\n"  "IMAD R8 <- R11 R7.reuse R12 stall=2\n"       /* 0130 */
    "VIADD R6 <- R6 stall=1\n"                                                               /* 0150 */
    "IADD3 R12 <- R12 R7.reuse R14 stall=2\n" "IADD3 R10 <- R10 R7.reuse R8 stall=2\n"      /* 0160 */
    "ISETP.NE.AND P1 <- R6 stall=1\n"                                                        /* 0180 */
    "IMAD R8 <- R8 R7 R12 stall=2\n"         "IMAD R14 <- R14 R7 R10 stall=3\n"            /* 0190 */
    "IADD3 R10 <- R10 R7.reuse R8 stall=2\n" "IADD3 R12 <- R12 R7 R14 stall=3\n"           /* 01b0 */
    "IMAD R14 <- R14 R7.reuse R10 stall=2\n" "IMAD R8 <- R8 R7 R12 stall=3\n"              /* 01d0 */
    "IADD3 R12 <- R12 R7.reuse R14 stall=2\n" "IADD3 R10 <- R10 R7 R8 stall=3\n"           /* 01f0 */
    "IMAD R8 <- R8 R7.reuse R12 stall=2\n"   "IMAD R14 <- R14 R7 R10 stall=3\n"            /* 0210 */
    "IADD3 R10 <- R10 R7.reuse R8 stall=2\n" "IADD3 R12 <- R12 R7 R14 stall=3\n"           /* 0230 */
    "IMAD R14 <- R14 R7.reuse R10 stall=2\n" "IMAD R8 <- R8 R7 R12 stall=3\n"              /* 0250 */
    "IADD3 R12 <- R12 R7.reuse R14 stall=2\n" "IADD3 R10 <- R10 R7 R8 stall=3\n"           /* 0270 */
    "IMAD R8 <- R8 R7.reuse R12 stall=2\n"   "IMAD R14 <- R14 R7 R10 stall=3\n"            /* 0290 */
    "IADD3 R10 <- R10 R7.reuse R8 stall=2\n" "IADD3 R12 <- R12 R7 R14 stall=3\n"           /* 02b0 */
    "IMAD R14 <- R14 R7.reuse R10 stall=2\n" "IMAD R8 <- R8 R7 R12 stall=3\n"              /* 02d0 */
    "IADD3 R12 <- R12 R7.reuse R14 stall=2\n" "IADD3 R10 <- R10 R7 R8 stall=3\n"           /* 02f0 */
    "IMAD R11 <- R8 R7.reuse R12 stall=2\n"  "IMAD R8 <- R14 R7 R10 stall=3\n"             /* 0310 */
    "IADD3 R10 <- R10 R7.reuse R11 stall=2\n" "IADD3 R12 <- R12 R7 R8 stall=1\n"           /* 0330 */
    "@P1 BRA stall=6\n";                                                                     /* 0350 */

/* Its remainder loop, 0x370-0x3d0, one iteration a trip */
static const char int32_rest[] =
    "VIADD R9 <- R9 stall=2\n"                                                               /* 0370 */
    "IMAD R11 <- R11 R7.reuse R12 stall=2\n" "IMAD R8 <- R8 R7.reuse R10 stall=1\n"       /* 0380 */
    "ISETP.NE.AND P0 <- R9 stall=2\n"                                                        /* 03a0 */
    "IADD3 R10 <- R10 R7.reuse R11 stall=2\n" "IADD3 R12 <- R12 R7 R8 stall=9\n"           /* 03b0 */
    "@P0 BRA stall=5\n";                                                                     /* 03d0 */

/* int_kernel whole, as the listing's paths run it for `iters`: the main loop
 * iters / 8 times, the remainder iters % 8, then the check of the result
 * (its store, behind a test the kernel's data never passes, left out), the
 * barrier, and thread 0's record. */
static void int32_kernel(strbuf *b, long iters)
{
    sb_printf(b, "LDC R1 bytes=4 pattern=uniform stall=1\n"                                 /* 0000 */
              "CS2R R4 timer=start stall=2\n" "CS2R R2 clock=start stall=5\n"              /* 0010 */
              "LDC.64 R6 bytes=8 pattern=uniform stall=1\n" "S2R R0 stall=1\n"             /* 0030 */
              "ISETP.GE.AND P0 <- R6 stall=1\n"                                             /* 0050 */
              "IMAD R10 <- R0.reuse stall=1\n" "LOP3.LUT R8 <- R0.reuse R7 stall=1\n"       /* 0060 */
              "IMAD R12 <- R0 stall=2\n" "IMAD.MOV.U32 R11 <- R0 stall=8\n"                 /* 0080 */
              "@!P0 BRA stall=5\n");                                                        /* 00a0 */
    if (iters >= 1) {
        sb_printf(b, "VIADD R11 <- R6.reuse stall=1\n" "LOP3.LUT R9 <- R6 stall=4\n"      /* 00b0 */
                  "ISETP.GE.U32.AND P1 <- R11 stall=1\n" "IMAD.MOV.U32 R11 <- R0 stall=1\n" /* 00d0 */
                  "ISETP.NE.AND P0 <- R9 stall=11\n" "@!P1 BRA stall=5\n");                /* 00f0 */
        if (iters >= 8)
            sb_printf(b, "IMAD.IADD R6 <- R6 R9 stall=2\n" "IMAD.MOV.U32 R11 <- R0 stall=7\n" /* 0110 */
                      "loop %ld\n%send\n", iters / 8, int32_main);
        sb_printf(b, "@!P0 BRA stall=5\n");                                                 /* 0360 */
        if (iters % 8)
            sb_printf(b, "loop %ld\n%send\n", iters % 8, int32_rest);
    }
    sb_printf(b, "LOP3.LUT R9 <- R10 R8 R11 stall=1\n" "ULDC.64 UR4 bytes=8 pattern=uniform stall=1\n" /* 03e0 */
              "ISETP.NE.AND P1 <- R0 stall=2\n" "LOP3.LUT R12 <- R9 R12 stall=4\n"         /* 0400 */
              "ISETP.NE.AND P0 <- R12 R7 stall=13\n"                                        /* 0420 */
              "BAR.SYNC.DEFER_BLOCKING stall=6\n"                                           /* 0450 */
              "ifwarp 0\n"                                                                  /* 0460 @P1 EXIT */
              "S2R R13 stall=1\n" "CS2R R8 timer=end stall=2\n" "CS2R R10 clock=end stall=1\n" /* 0470 */
              "S2R R12 stall=1\n" "LDC.64 R6 bytes=8 pattern=uniform stall=2\n"            /* 04a0 */
              "IMAD.WIDE.U32 R6 <- R12 R6 stall=5\n"                                        /* 04c0 */
              "STG.E.64 <- UR4 R6 R12 bytes=8 pattern=uniform stall=4\n"                   /* 04d0 */
              "STG.E.64 <- UR4 R6 R4 bytes=8 pattern=uniform stall=4\n"
              "STG.E.64 <- UR4 R6 R8 bytes=8 pattern=uniform stall=4\n"
              "STG.E.64 <- UR4 R6 R2 bytes=8 pattern=uniform stall=1\n"
              "STG.E.64 <- UR4 R6 R10 bytes=8 pattern=uniform stall=1\n"                   /* 0510 */
              "end\nEXIT stall=5\n");                                                       /* 0520 */
}

static void fp64_body(strbuf *b, int unroll)
{
    for (int u = 0; u < unroll; u++)
        sb_printf(b, "DFMA R14 <- R14 UR4 R6 stall=1\nDFMA R16 <- R16 UR4 R6 stall=1\n"
                  "DFMA R12 <- R12 UR4 R6 stall=1\nDFMA R10 <- R10 UR4 R6 stall=1\n");
}

static void smem_body(strbuf *b, int unroll)
{
    for (int u = 0; u < unroll; u++)
        sb_printf(b, "VIADD R13 <- R9 stall=1\nIADD3 R11 <- R9 stall=1\nVIADD R16 <- R9 stall=1\n"
                  "LOP3.LUT R12 <- R11 stall=1\nLOP3.LUT R14 <- R13 stall=1\n"
                  "LOP3.LUT R16 <- R16 stall=1\n"
                  "LDS R12 <- R12 UR4 bytes=4 stall=1\nLDS R11 <- R16 UR4 bytes=4 stall=1\n"
                  "FADD R13 <- R12 R11 stall=1\nFADD R10 <- R11 R10 stall=1\n"
                  "STS <- R14 UR4 R13 bytes=4 stall=1\nVIADD R9 <- R9 stall=1\n");
}

int gen_unit(kernel *k, int op, long iters, long block, long grid, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {op, iters, block, grid};
    if (gen_check(&gen_workloads[GEN_UNIT], v, 0, 4, e) < 0)
        return e->code;
    static const int unroll[] = { 8, 8, 4 };
    static const char *const names[] = { "int_kernel", "dfma_kernel", "smem_kernel" };
    void (*body)(strbuf *, int) = op == 1 ? fp64_body : smem_body;
    int u = unroll[op];
    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel %s grid=%ld block=%ld regs=%d smem=%d data=quiet\nprogram main\n",
              names[op], grid, block, op == 2 ? 18 : 24, op == 2 ? 16384 : 0);
    if (op == 0) {
        int32_kernel(&b, iters);
        sb_printf(&b, "end\nendkernel\n");
        int rc = gen_parse(k, "gen unit", b.s, e);
        free(b.s);
        return rc;
    }
    sb_printf(&b, "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=2\n"
              "LDC R7 bytes=4 pattern=uniform stall=1\nISETP.GE.AND P0 <- R7 stall=2\n");
    if (op == 2)   /* fill the array: 4096 / block stores per thread, then a barrier */
        sb_printf(&b, "loop %ld\nIMAD R8 <- R7 stall=1\nI2FP.F32.S32 R9 <- R7 stall=1\n"
                  "STS <- R8 R9 bytes=4 stall=1\nISETP.GE.AND P0 <- R7 stall=1\n@!P0 BRA stall=5\n"
                  "end\nBAR.SYNC.DEFER_BLOCKING stall=1\nULDC.64 UR4 bytes=8 pattern=uniform stall=1\n",
                  (4096 + block - 1) / block);
    else
        sb_printf(&b, "IMAD.MOV.U32 R6 stall=1\nUMOV UR4 stall=1\n");
    if (iters / u > 0) {
        sb_printf(&b, "loop %ld\nVIADD R9 <- R9 stall=1\nISETP.NE.AND P1 <- R9 stall=1\n", iters / u);
        body(&b, u);
        sb_printf(&b, "@P1 BRA stall=5\nend\n");
    }
    if (iters % u > 0) {
        sb_printf(&b, "loop %ld\nVIADD R8 <- R8 stall=1\nISETP.NE.AND P0 <- R8 stall=1\n", iters % u);
        body(&b, 1);
        sb_printf(&b, "@P0 BRA stall=5\nend\n");
    }
    sb_printf(&b, "BAR.SYNC.DEFER_BLOCKING stall=1\n"
              "ifwarp 0\nSTG.E.64 <- R2 R4 bytes=8 stall=1\nend\nEXIT stall=5\nend\nendkernel\n");
    int rc = gen_parse(k, "gen unit", b.s, e);
    free(b.s);
    return rc;
}
