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
 *          4096-float array and a barrier; written from the listing like
 *          int_kernel.
 *
 * Each declares 24 registers a thread: smem_kernel's listing uses R0-R20,
 * the others fewer; ptxas's own counts were not kept, and 21 to 24 take
 * the same 768 registers a warp (CUDA's allocation unit of 256), so the
 * 8 CTAs an SM of E16's 256-thread launches hold either way.
 *
 * --iters N is the kernel's `iters` argument: the unrolled loop runs N / U
 * times and the remainder loop N % U (U = 8, 8, 4).  Each kernel ends with
 * the CTA record of cap_power.cu (a barrier, thread 0's store).  The
 * register names and the dependencies between instructions are the SASS's;
 * in fp64 the stall counts are 1 and no .reuse flags are written (the DFMA
 * pipe, not the stalls, bounds that loop: 2 warp instructions per SM
 * cycle, E10).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

const char *const gen_unit_ops[] = { "int32", "fp64", "smem", NULL };

/* cap_power.cu's CTA record, the same in every kernel of it: thread 0
 * (warp 0; the others exit) reads its SM, the timers and the CTA index
 * and stores the five 8-byte fields through the descriptor in `desc`
 * (int_kernel 0x460-0x520). */
static void record(strbuf *b, const char *desc)
{
    sb_printf(b, "ifwarp 0\n"
              "S2R R13 stall=1\n" "CS2R R8 timer=end stall=2\n" "CS2R R10 clock=end stall=1\n"
              "S2R R12 stall=1\n" "LDC.64 R6 bytes=8 pattern=uniform stall=2\n"
              "IMAD.WIDE.U32 R6 <- R12 R6 stall=5\n");
    static const char *const field[] = { "R12", "R4", "R8", "R2", "R10" };
    for (int f = 0; f < 5; f++)
        sb_printf(b, "STG.E.64 <- %s R6 %s bytes=8 pattern=uniform stall=%d\n", desc, field[f], f < 4 ? 4 : 1);
    sb_printf(b, "end\nEXIT stall=5\n");
}

/* smem_kernel's main loop, 0x250-0x540, one trip of four iterations: each
 * index (tid + i) * 4 + offset masked to the 16 KiB array, two LDS, an
 * FADD into the STS's value and one into the sum */
static const char smem_main[] =
    "IMAD.SHL.U32 R9 <- R7 stall=2\n" "VIADD R8 <- R8 stall=2\n"                           /* 0250 */
    "VIADD R13 <- R9.reuse stall=1\n" "IADD3 R11 <- R9.reuse stall=1\n"                    /* 0270 */
    "VIADD R16 <- R9.reuse stall=1\n" "IADD3 R20 <- R9.reuse stall=1\n"                    /* 0290 */
    "VIADD R15 <- R9 stall=1\n" "LOP3.LUT R12 <- R11 stall=1\n"                            /* 02b0 */
    "VIADD R18 <- R9.reuse stall=1\n" "LOP3.LUT R11 <- R9.reuse stall=1\n"                 /* 02d0 */
    "VIADD R19 <- R9 stall=1\n" "LOP3.LUT R14 <- R13 stall=1\n"                            /* 02f0 */
    "VIADD R7 <- R7 stall=1\n" "LDS R12 <- R12 UR4 bytes=4 stall=1\n"                      /* 0310 */
    "LOP3.LUT R16 <- R16 stall=2\n" "LOP3.LUT R15 <- R15 stall=1\n"                        /* 0330 */
    "LDS R11 <- R11 UR4 bytes=4 stall=1\n" "LOP3.LUT R18 <- R18 stall=2\n"                 /* 0350 */
    "LOP3.LUT R20 <- R20 stall=2\n" "LOP3.LUT R19 <- R19 stall=2\n"                        /* 0370 */
    "ISETP.NE.AND P1 <- R8 stall=1\n" "FADD R13 <- R12 R11 stall=1\n"                      /* 0390 */
    "FADD R11 <- R11 R10 stall=4\n" "STS <- R14 UR4 R13 bytes=4 stall=4\n"                 /* 03b0 */
    "LDS R17 <- R16 UR4 bytes=4 stall=4\n" "LDS R12 <- R15 UR4 bytes=4 stall=1\n"          /* 03d0 */
    "VIADD R13 <- R9.reuse stall=2\n" "VIADD R16 <- R9 stall=3\n"                          /* 03f0 */
    "LOP3.LUT R14 <- R13 stall=2\n" "IADD3 R15 <- R9.reuse stall=1\n"                      /* 0410 */
    "VIADD R9 <- R9 stall=1\n" "LOP3.LUT R16 <- R16 stall=2\n"                             /* 0430 */
    "LOP3.LUT R15 <- R15 stall=1\n" "FADD R17 <- R17 R12.reuse stall=1\n"                  /* 0450 */
    "FADD R11 <- R11 R12 stall=4\n" "STS <- R18 UR4 R17 bytes=4 stall=4\n"                 /* 0470 */
    "LDS R20 <- R20 UR4 bytes=4 stall=4\n" "LDS R19 <- R19 UR4 bytes=4 stall=1\n"          /* 0490 */
    "LOP3.LUT R18 <- R9 stall=1\n" "FADD R13 <- R20 R19.reuse stall=1\n"                   /* 04b0 */
    "FADD R11 <- R11 R19 stall=4\n" "STS <- R14 UR4 R13 bytes=4 stall=4\n"                 /* 04d0 */
    "LDS R16 <- R16 UR4 bytes=4 stall=4\n" "LDS R15 <- R15 UR4 bytes=4 stall=2\n"          /* 04f0 */
    "FADD R9 <- R16 R15.reuse stall=1\n" "FADD R10 <- R11 R15 stall=4\n"                   /* 0510 */
    "STS <- R18 UR4 R9 bytes=4 stall=1\n" "@P1 BRA stall=5\n";                             /* 0530 */

/* Its remainder loop, 0x5a0-0x680, one iteration a trip */
static const char smem_rest[] =
    "IMAD.SHL.U32 R8 <- R7.reuse stall=1\n" "IADD3 R6 <- R6 stall=1\n"                     /* 05a0 */
    "VIADD R7 <- R7 stall=2\n" "VIADD R11 <- R8 stall=1\n"                                 /* 05c0 */
    "ISETP.NE.AND P0 <- R6 stall=1\n" "VIADD R9 <- R8.reuse stall=1\n"                     /* 05e0 */
    "LOP3.LUT R13 <- R8 stall=2\n" "LOP3.LUT R11 <- R11 stall=2\n"                         /* 0600 */
    "LOP3.LUT R9 <- R9 stall=4\n" "LDS R11 <- R11 UR4 bytes=4 stall=4\n"                   /* 0620 */
    "LDS R9 <- R9 UR4 bytes=4 stall=2\n" "FADD R8 <- R11 R9 stall=1\n"                     /* 0640 */
    "FADD R10 <- R9 R10 stall=4\n" "STS <- R13 UR4 R8 bytes=4 stall=1\n"                   /* 0660 */
    "@P0 BRA stall=5\n";                                                                    /* 0680 */

/* smem_kernel whole: thread t fills floats t, t + block, ... of the 4096
 * (as many trips as the block needs to cover them: exact when it divides
 * 4096), a barrier, the main loop iters / 4 times, the remainder iters % 4,
 * the check of the sum (its store, behind a test the kernel's data never
 * pass, left out), the barrier, and thread 0's record. */
static void smem_kernel(strbuf *b, long iters, long block)
{
    sb_printf(b, "LDC R1 bytes=4 pattern=uniform stall=1\n"                                 /* 0000 */
              "CS2R R4 timer=start stall=2\n" "CS2R R2 clock=start stall=1\n"              /* 0010 */
              "S2R R0 stall=4\n" "LDC R11 bytes=4 pattern=uniform stall=1\n"               /* 0030 */
              "BSSY stall=1\n" "ISETP.GT.AND P0 <- R0 stall=13\n" "@P0 BRA stall=5\n"    /* 0050 */
              "S2R R9 stall=1\n" "LDC R10 bytes=4 pattern=uniform stall=1\n"              /* 0080 */
              "MOV R6 stall=1\n" "IMAD.MOV.U32 R7 <- R0 stall=3\n"                        /* 00a0 */
              "LEA R6 <- R9 R6 stall=7\n"                                                  /* 00c0 */
              "loop %ld\n"
              "IMAD R8 <- R7 R6 stall=1\n" "I2FP.F32.S32 R9 <- R7 stall=1\n"              /* 00d0 */
              "IMAD.IADD R7 <- R10 R7 stall=4\n" "STS <- R8 R9 bytes=4 stall=1\n"         /* 00f0 */
              "ISETP.GE.AND P0 <- R7 stall=13\n" "@!P0 BRA stall=5\n"                      /* 0110 */
              "end\n"
              "BSYNC stall=5\n" "BAR.SYNC.DEFER_BLOCKING stall=1\n"                        /* 0130 */
              "ISETP.GE.AND P0 <- R11 stall=5\n" "ULDC.64 UR6 bytes=8 pattern=uniform stall=8\n" /* 0150 */
              "@!P0 BRA stall=5\n",                                                         /* 0170 */
              (4096 + block - 1) / block);
    if (iters >= 1) {
        sb_printf(b, "VIADD R7 <- R11.reuse stall=1\n" "LOP3.LUT R6 <- R11 stall=1\n"     /* 0180 */
                  "IMAD.MOV.U32 R10 stall=3\n" "ISETP.GE.U32.AND P1 <- R7 stall=2\n"       /* 01a0 */
                  "ISETP.NE.AND P0 <- R6 stall=2\n" "MOV R7 <- R0 stall=9\n"               /* 01c0 */
                  "@!P1 BRA stall=5\n");                                                    /* 01e0 */
        if (iters >= 4)
            sb_printf(b, "S2UR UR5 stall=1\n" "IMAD.IADD R8 <- R6 R11 stall=1\n"          /* 01f0 */
                      "UMOV UR4 stall=1\n" "IMAD.MOV.U32 R10 stall=2\n"                   /* 0210 */
                      "IMAD.MOV.U32 R7 <- R0 stall=1\n" "ULEA UR4 <- UR5 UR4 stall=12\n" /* 0230 */
                      "loop %ld\n%send\n", iters / 4, smem_main);
        sb_printf(b, "@!P0 BRA stall=5\n");                                                 /* 0550 */
        if (iters % 4)
            sb_printf(b, "S2UR UR5 stall=1\n" "IADD3 R7 <- R7 stall=1\n"                  /* 0560 */
                      "UMOV UR4 stall=2\n" "ULEA UR4 <- UR5 UR4 stall=12\n"               /* 0580 */
                      "loop %ld\n%send\n", iters % 4, smem_rest);
    }
    sb_printf(b, "FSETP.NEU.AND P0 <- R10 stall=13\n"                                      /* 0690 */
              "BAR.SYNC.DEFER_BLOCKING stall=1\n"                                           /* 06d0 */
              "ISETP.NE.AND P0 <- R0 stall=13\n");                                          /* 06e0 */
    record(b, "UR6");                                                                       /* 06f0 */
}

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
              "BAR.SYNC.DEFER_BLOCKING stall=6\n");                                         /* 0450 */
    record(b, "UR4");                                                                       /* 0460 */
}

static void fp64_body(strbuf *b, int unroll)
{
    for (int u = 0; u < unroll; u++)
        sb_printf(b, "DFMA R14 <- R14 UR4 R6 stall=1\nDFMA R16 <- R16 UR4 R6 stall=1\n"
                  "DFMA R12 <- R12 UR4 R6 stall=1\nDFMA R10 <- R10 UR4 R6 stall=1\n");
}

int gen_unit(kernel *k, int op, long iters, long block, long grid, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {op, iters, block, grid};
    if (gen_check(&gen_workloads[GEN_UNIT], v, 0, 4, e) < 0)
        return e->code;
    static const int unroll[] = { 8, 8, 4 };
    static const char *const names[] = { "int_kernel", "dfma_kernel", "smem_kernel" };
    int u = unroll[op];
    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel %s grid=%ld block=%ld regs=%d smem=%d data=quiet\nprogram main\n",
              names[op], grid, block, 24, op == 2 ? 16384 : 0);
    if (op != 1) {
        if (op == 0)
            int32_kernel(&b, iters);
        else
            smem_kernel(&b, iters, block);
        sb_printf(&b, "end\nendkernel\n");
        int rc = gen_parse(k, "gen unit", b.s, e);
        free(b.s);
        return rc;
    }
    sb_printf(&b, "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=2\n"
              "LDC R7 bytes=4 pattern=uniform stall=1\nISETP.GE.AND P0 <- R7 stall=2\n"
              "IMAD.MOV.U32 R6 stall=1\nUMOV UR4 stall=1\n");
    if (iters / u > 0) {
        sb_printf(&b, "loop %ld\nVIADD R9 <- R9 stall=1\nISETP.NE.AND P1 <- R9 stall=1\n", iters / u);
        fp64_body(&b, u);
        sb_printf(&b, "@P1 BRA stall=5\nend\n");
    }
    if (iters % u > 0) {
        sb_printf(&b, "loop %ld\nVIADD R8 <- R8 stall=1\nISETP.NE.AND P0 <- R8 stall=1\n", iters % u);
        fp64_body(&b, 1);
        sb_printf(&b, "@P0 BRA stall=5\nend\n");
    }
    sb_printf(&b, "BAR.SYNC.DEFER_BLOCKING stall=1\n"
              "ifwarp 0\nSTG.E.64 <- R2 R4 bytes=8 stall=1\nend\nEXIT stall=5\nend\nendkernel\n");
    int rc = gen_parse(k, "gen unit", b.s, e);
    free(b.s);
    return rc;
}
