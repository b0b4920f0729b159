/* gen_fma.c -- the instruction stream of the H200 calibration kernel.
 *
 * fma_kernel (capture.cu, whose source stays with the measurements as
 * validation/h200/README.md says; its SASS is validation/h200/fma_kernel.sass,
 * built with nvcc -O3 -arch=sm_90) runs four independent FFMA chains per thread
 * for `iters` iterations, unrolled 8 times.  This file writes down the
 * dynamic path that SASS takes for a given `iters`, as trace text, and parses
 * it with the ordinary reader, so the generated kernel is by construction a
 * valid trace and round-trips through the writer.
 *
 * Stall counts are the SASS control codes: bits 41-44 of each instruction's
 * second 64-bit word (e.g. 0x000fc80007ffe0ff >> 41 & 0xf = 4 for the loop's
 * IADD3).  Operands keep the SASS register names; RZ/PT and immediates are
 * left out (no dependency); a vector operand (STS.128 R4, LDC.64 R2) is named
 * by its first register.  Branches are issued as BRA whether taken or not
 * (SIMT issues a predicated instruction with a mask), and the path is:
 *
 *   0x000-0x110  prologue, ends with @!P1 BRA (iters < 1 -> epilogue)
 *   0x120-0x160  loop set-up, @!P2 BRA (iters < 8 -> 0x3c0)      iters >= 1
 *   0x170        IADD3 R2 = iters - iters % 8                     iters >= 8
 *   0x180-0x3b0  main loop, 36 instructions, iters / 8 times      iters >= 8
 *   0x3c0        @!P1 BRA (iters % 8 == 0 -> epilogue)            iters >= 1
 *   0x3d0        MOV R0                                           iters % 8 != 0
 *   0x3e0-0x440  remainder loop, 7 instructions, iters % 8 times  iters % 8 != 0
 *   0x450-0x4b0  epilogue up to @P0 BRA (threads other than 0 skip the store)
 *   0x4c0-0x5a0  thread 0 writes its record: only warp 0 issues it (ifwarp 0)
 *   0x5b0-0x5d0  BSYNC, FSETP, @P0 EXIT (v != 1234.5: every thread exits)
 *
 * Both loops are work-scaled.  Memory operands: constant loads (LDC, ULDC)
 * are uniform across the warp; the shared and global accesses are made by
 * thread 0 alone, modelled as one uniform access of the instruction's width.
 *
 * The other generators reuse a piece of this kernel (gen_priv.h): the FMA
 * loop, 0x120-0x440, is gen_fma_work() (coop_kernel runs it every round).
 * Thread 0's record store, 0x4c0-0x5a0, is fma_kernel's own (record_store
 * below): mem_kernel's listing has its own, in other registers
 * (gen_stream.c).  This file also holds the helpers they share.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "skewsim/trace.h"
#include "gen_priv.h"

void sb_printf(strbuf *b, const char *fmt, ...)
{
    /* NULL + 0 is undefined behaviour (clang's UBSan says so): allocate
     * before the first vsnprintf rather than hand it a null base. */
    if (!b->s) {
        b->cap = 256;
        b->len = 0;
        b->s = xmalloc(b->cap);
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = 2 * b->cap + (n > 0 ? (size_t)n : 0) + 64;
        b->s = xrealloc(b->s, b->cap);
    }
}

static const char fma_prologue[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"          /* 0000 c[0x0][0x28] */
    "S2R R2 stall=2\n"                                  /* 0010 SR_TID.X */
    "ISETP.NE.AND P0 <- R2 stall=13\n"                  /* 0020 */
    "@!P0 CS2R R4 timer=start stall=1\n"                /* 0030 SR_GLOBALTIMERLO: t0 */
    "@!P0 S2R R3 stall=1\n"                             /* 0040 SR_CgaCtaId */
    "@!P0 MOV R0 stall=4\n"                             /* 0050 0x400 */
    "@!P0 LEA R3 <- R3 R0 stall=2\n"                    /* 0060 */
    "@!P0 CS2R R6 clock=start stall=1\n"                /* 0070 SR_CLOCKLO: c0 */
    "LDC R10 bytes=4 pattern=uniform stall=1\n"         /* 0080 iters */
    "I2FP.F32.U32 R0 <- R2 stall=3\n"                   /* 0090 */
    "@!P0 STS.128 <- R3 R4 bytes=16 pattern=uniform stall=2\n" /* 00a0 */
    "FMUL R9 <- R0 stall=4\n"                           /* 00b0 */
    "FADD R8 <- R9.reuse stall=1\n"                     /* 00c0 */
    "FADD R11 <- R9.reuse stall=1\n"                    /* 00d0 */
    "FADD R13 <- R9 stall=1\n"                          /* 00e0 */
    "BAR.SYNC.DEFER_BLOCKING stall=1\n"                 /* 00f0 */
    "ISETP.GE.AND P1 <- R10 stall=13\n"                 /* 0100 */
    "@!P1 BRA stall=5\n";                               /* 0110 -> 0450 */

static const char fma_setup[] =
    "IADD3 R0 <- R10.reuse stall=2\n"                   /* 0120 */
    "LOP3.LUT R3 <- R10 stall=2\n"                      /* 0130 */
    "ISETP.GE.U32.AND P2 <- R0 stall=2\n"               /* 0140 */
    "ISETP.NE.AND P1 <- R3 stall=11\n"                  /* 0150 */
    "@!P2 BRA stall=5\n";                               /* 0160 -> 03c0 */

/* 0x180-0x3b0: 3 overhead instructions, 32 FFMA (four chains, eight deep;
 * the second chain alternates between R5 and R8), the back branch. */
static const char fma_main_body[] =
    "HFMA2.MMA R0 stall=1\n"                            /* 0180 b = 1.0000001f */
    "IADD3 R2 <- R2 stall=4\n"                          /* 0190 */
    "ISETP.NE.AND P2 <- R2 stall=5\n"                   /* 01a0 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R8 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 01b0 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 01f0 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 0230 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 0270 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 02b0 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 02f0 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R5 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0.reuse stall=1\n" /* 0330 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"  "FFMA R8 <- R5 R0.reuse stall=1\n"
    "FFMA R11 <- R11 R0.reuse stall=1\n" "FFMA R13 <- R13 R0 stall=1\n" /* 0370 */
    "@P2 BRA stall=6\n";                                /* 03b0 -> 0180 */

static const char fma_rem_body[] =
    "IADD3 R3 <- R3 stall=1\n"                          /* 03e0 */
    "FFMA R9 <- R9 R0.reuse stall=1\n"                  /* 03f0 */
    "FFMA R8 <- R8 R0.reuse stall=1\n"                  /* 0400 */
    "FFMA R11 <- R11 R0.reuse stall=1\n"                /* 0410 */
    "ISETP.NE.AND P1 <- R3 stall=1\n"                   /* 0420 */
    "FFMA R13 <- R13 R0 stall=12\n"                     /* 0430 */
    "@P1 BRA stall=5\n";                                /* 0440 -> 03e0 */

static const char fma_epilogue[] =
    "FADD R8 <- R8 R9 stall=1\n"                        /* 0450 */
    "BAR.SYNC.DEFER_BLOCKING stall=3\n"                 /* 0460 */
    "FADD R8 <- R8 R11 stall=3\n"                       /* 0470 */
    "ULDC.64 UR6 bytes=8 pattern=uniform stall=1\n"     /* 0480 */
    "BSSY stall=1\n"                                    /* 0490 B0 */
    "FADD R0 <- R8 R13 stall=3\n"                       /* 04a0 */
    "@P0 BRA stall=5\n";                                /* 04b0 -> 05b0 */

/* Thread 0's record store (fma_kernel.sass 0x4c0-0x5a0): an `ifwarp 0`
 * block that reads t0s/c0s from shared memory, takes the end timer and
 * clock (timer=end, clock=end) and writes the 40-byte record with five
 * STG.E.64. */
static const char record_store[] =
    "ifwarp 0\n"
    "S2UR UR5 stall=1\n"                                /* 04c0 SR_CgaCtaId */
    "UMOV UR4 stall=1\n"                                /* 04d0 */
    "S2R R13 stall=1\n"                                 /* 04e0 SR_VIRTUALSMID */
    "ULEA UR4 <- UR5 UR4 stall=9\n"                     /* 04f0 */
    "LDS.128 R4 <- UR4 bytes=16 pattern=uniform stall=1\n" /* 0500 t0s, c0s */
    "CS2R R8 timer=end stall=2\n"                       /* 0510 SR_GLOBALTIMERLO: t1 */
    "CS2R R10 clock=end stall=1\n"                      /* 0520 SR_CLOCKLO: c1 */
    "S2R R12 stall=1\n"                                 /* 0530 SR_CTAID.X */
    "LDC.64 R2 bytes=8 pattern=uniform stall=2\n"       /* 0540 rec */
    "IMAD.WIDE.U32 R2 <- R12 R2 stall=5\n"              /* 0550 */
    "STG.E.64 <- UR6 R2 R12 bytes=8 pattern=uniform stall=4\n" /* 0560 */
    "STG.E.64 <- UR6 R2 R4 bytes=8 pattern=uniform stall=4\n"  /* 0570 */
    "STG.E.64 <- UR6 R2 R8 bytes=8 pattern=uniform stall=4\n"  /* 0580 */
    "STG.E.64 <- UR6 R2 R6 bytes=8 pattern=uniform stall=4\n"  /* 0590 */
    "STG.E.64 <- UR6 R2 R10 bytes=8 pattern=uniform stall=2\n" /* 05a0 */
    "end\n";

static const char fma_exit[] =
    "BSYNC stall=5\n"                                   /* 05b0 */
    "FSETP.NEU.AND P0 <- R0 stall=13\n"                 /* 05c0 */
    "@P0 EXIT stall=5\n";                               /* 05d0 */

void gen_fma_work(strbuf *b, long iters)
{
    if (iters < 1)
        return;
    sb_printf(b, "%s", fma_setup);
    if (iters >= 8)
        sb_printf(b, "IADD3 R2 <- R3 R10 stall=7\nloop %ld work\n%send\n", iters / 8, fma_main_body);
    sb_printf(b, "@!P1 BRA stall=5\n");                 /* 03c0 -> 0450 */
    if (iters % 8 != 0)
        sb_printf(b, "MOV R0 stall=7\nloop %ld work\n%send\n", iters % 8, fma_rem_body);
}

int gen_parse(kernel *k, const char *what, const char *text, sk_error *e)
{
    trace *t = trace_open_string(what, text, e);
    int r = t ? trace_next_kernel(t, k, e) : SK_ETRACE;
    trace_close(t);
    /* Anything but one kernel means the generator's text is wrong. */
    if (r == 0)
        return sk_errorf(e, SK_ETRACE, "%s: generated trace holds no kernel", what);
    return r == 1 ? 0 : r;
}

int gen_fma(kernel *k, long iters, long block, long grid, sk_error *e)
{
    return gen_fma_mix(k, iters, block, grid, 0, 0, e);
}

/* fma_hetero_kernel's factor for CTA i: 1 + (i x mul) % mod, the product
 * in 32-bit unsigned arithmetic as the kernel computes it. */
static long work_factor(long i, long mul, long mod)
{
    return 1 + (long)(((uint32_t)i * (uint32_t)mul) % (uint32_t)mod);
}

int gen_fma_mix(kernel *k, long iters, long block, long grid, long mul, long mod, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {iters, block, grid, 0, mul, mod};
    if (gen_check(&gen_workloads[GEN_FMA], v, 0, 6, e) < 0)
        return e->code;
    if (mul > 0 && mod == 0)
        return sk_errorf(e, SK_EUSAGE, "gen fma: --work-mul %ld: expected --work-mod D with it (the period "
                         "of the CTAs' work)", mul);
    /* fma_work(iters x factor) splits its count into iters x factor / 8
     * unrolled trips and a remainder; one program scaled by the factor
     * runs (iters / 8) x factor and (iters % 8) x factor, the same only
     * when 8 divides iters */
    if (mod > 0 && iters % 8 != 0)
        return sk_errorf(e, SK_EUSAGE, "gen fma: --iters %ld with --work-mod: expected a multiple of 8 (the "
                         "kernel's unrolled loop; other counts would run its remainder loop too often)", iters);
    if (mod > 0 && grid > GEN_FMA_MIX_MAX_CTAS)
        return sk_errorf(e, SK_EUSAGE, "gen fma: --grid %ld with --work-mod: expected at most %ld CTAs "
                         "(one ctas record per change of work)", grid, (long)GEN_FMA_MIX_MAX_CTAS);
    /* CTA i's work factor, in fma_hetero_kernel's 32-bit unsigned
     * arithmetic, one record per run of equal factors */
    strbuf m = {NULL, 0, 0};
    for (long i = 0; mod > 0 && i < grid;) {
        long w = work_factor(i, mul, mod), j = i + 1;
        if ((long long)iters * w > INT32_MAX) {
            free(m.s);
            return sk_errorf(e, SK_EUSAGE, "gen fma: --iters %ld x work factor %ld (CTA %ld): expected at most %d "
                             "iterations for a CTA", iters, w, i, INT32_MAX);
        }
        while (j < grid && work_factor(j, mul, mod) == w)
            j++;
        if (j == i + 1)
            sb_printf(&m, "cta %ld work=%ld\n", i, w);
        else
            sb_printf(&m, "range %ld %ld work=%ld\n", i, j - 1, w);
        i = j;
    }

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel fma_kernel grid=%ld block=%ld regs=16 smem=16 data=quiet\n"
              "program main\n%s", grid, block, fma_prologue);
    gen_fma_work(&b, iters);
    sb_printf(&b, "%s%s%send\n", fma_epilogue, record_store, fma_exit);
    if (m.s)
        sb_printf(&b, "ctas\n%send\n", m.s);
    sb_printf(&b, "endkernel\n");
    int r = gen_parse(k, "gen fma", b.s, e);
    free(b.s);
    if (r == 0)
        k->ctas_text = m.s;
    else
        free(m.s);
    return r;
}
