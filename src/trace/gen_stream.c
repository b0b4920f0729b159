/* gen_stream.c -- a memory-bound streaming read kernel: capture.cu's
 * mem_kernel (validation/h200 experiment E6, info.txt mem_rep*_us).
 *
 *   if (tid == 0) { t0s = globaltimer; c0s = clock64; }  __syncthreads();
 *   p = buf + blockIdx.x * per_cta;                        (float4 *)
 *   for (i = tid; i < per_cta; i += blockDim.x) { v = p[i]; acc += v.x+v.y+v.z+v.w; }
 *   __syncthreads();  thread 0 writes its record;  if (acc == 1234.5f) ...
 *
 * The instruction stream is nvcc's SASS for it, line by line
 * (validation/h200/capture/sass/capture_cu.sass.gz, `Function :
 * _Z10mem_kernelP3RecPK6float4mPf`: capture.cu compiled with nvcc -O3
 * -arch=sm_90), each with the stall count of its control word (bits 41-44
 * of the second word; docs/trace-format.md, "Worked example").  The loop is
 * not unrolled: per iteration the address from the 64-bit index (two
 * IMAD.MOV, IMAD.WIDE.U32, IMAD, LEA, LEA.HI.X), one LDG.E.128, the index
 * step (IADD3 with carry, IMAD.X, two ISETP), the four dependent FADDs, of
 * which the first waits for the load, and the branch: 16 instructions a
 * load, one load in flight per warp.  (Until 2026-12-06 this file held a
 * hand-written guess, unrolled 4 times with four loads in flight, written
 * before the listing was captured; docs/calibration.md "E6" says what the
 * change moved.)
 *
 * Trace conventions (as gen_mem.c's rw loops): a 128-bit load names its
 * first register (LDG.E.128 R4 writes R4; the FADDs that read R5-R7 on the
 * chip read registers last written before the load here, and the chain
 * waits on the load through its first FADD), a 64-bit address names its
 * two halves, and uniform registers (ULDC's constants: the stall counts
 * cover their fixed latency, no scoreboard in the control words) are not
 * named as sources.  The highest register is R13, so 16 registers a
 * thread (the allocation granule is 8).
 *
 * Work per thread: per_cta = bytes_per_cta / 16 float4s, thread t loads
 * ceil((per_cta - t) / block) of them (the do-while at 0x160 runs that
 * many times).  Every warp with work runs q = per_cta / block iterations;
 * the r = per_cta % block threads with one more are warps
 * 0..ceil(r/32)-1, which run one more in their own `ifwarp` block.  When
 * q = 0 only those warps enter the loop (`@P0 BRA` at 0x120 skips the
 * rest).  A partly active warp is charged a full 512-byte access, so the
 * traffic is at most 16 x 31 bytes per CTA high.  Each warp-wide
 * LDG.E.128 moves 32 x 16 = 512 bytes (pattern=coalesced, no address:
 * `gen stream --bytes` is the addressed form).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

/* 0x000-0x120: thread 0 stores (t0, c0) to shared memory before the first
 * barrier; R8 holds the thread index, R2 the CTA index; P0 is tid >=
 * per_cta (the loop is skipped), P1 tid != 0. */
static const char mem_prologue[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"          /* 0000 c[0x0][0x28] */
    "S2R R8 stall=2\n"                                  /* 0010 SR_TID.X */
    "ISETP.NE.AND P1 <- R8 stall=13\n"                  /* 0020 */
    "@!P1 CS2R R4 timer=start stall=1\n"                /* 0030 SR_GLOBALTIMERLO: t0 */
    "@!P1 S2R R3 stall=1\n"                             /* 0040 SR_CgaCtaId */
    "@!P1 MOV R0 stall=4\n"                             /* 0050 */
    "@!P1 LEA R3 <- R3 R0 stall=2\n"                    /* 0060 */
    "@!P1 CS2R R6 clock=start stall=1\n"                /* 0070 SR_CLOCKLO: c0 */
    "ULDC.64 UR4 bytes=8 pattern=uniform stall=1\n"     /* 0080 per_cta */
    "S2R R2 stall=1\n"                                  /* 0090 SR_CTAID.X */
    "ISETP.GE.U32.AND P0 <- R8 stall=1\n"               /* 00a0 tid >= per_cta (low) */
    "ULDC.64 UR6 bytes=8 pattern=uniform stall=1\n"     /* 00b0 the memory descriptor */
    "ULDC.64 UR8 bytes=8 pattern=uniform stall=1\n"     /* 00c0 buf */
    "@!P1 STS.128 <- R3 R4 bytes=16 pattern=uniform stall=1\n" /* 00d0 */
    "BAR.SYNC.DEFER_BLOCKING stall=1\n"                 /* 00e0 */
    "ISETP.GE.U32.AND.EX P0 <- P0 stall=1\n"            /* 00f0 (high) */
    "IMAD.MOV.U32 R0 stall=4\n"                         /* 0100 acc = 0 */
    "BSSY stall=8\n"                                    /* 0110 */
    "@P0 BRA stall=5\n";                                /* 0120 no work: to 0x260 */

/* 0x130-0x150: blockDim (the index step) and the index's high half. */
static const char mem_setup[] =
    "LDC R9 bytes=4 pattern=uniform stall=1\n"          /* 0130 c[0x0][0x0] */
    "IMAD.MOV.U32 R11 stall=2\n"                        /* 0140 */
    "IMAD.MOV.U32 R0 stall=7\n";                        /* 0150 */

/* 0x160-0x250: one iteration, one coalesced 16-byte load per thread. */
static const char mem_body[] =
    "IMAD.MOV.U32 R4 <- R8 stall=2\n"                   /* 0160 */
    "IMAD.MOV.U32 R5 <- R11 stall=2\n"                  /* 0170 */
    "IMAD.WIDE.U32 R4 <- R2 R4 R5 stall=4\n"            /* 0180 ctaid * per_cta + i */
    "IMAD R3 <- R2 R5 stall=1\n"                        /* 0190 */
    "LEA R6 P0 <- R4 stall=4\n"                         /* 01a0 buf + 16 x (low) */
    "LEA.HI.X R7 <- R4 R3 P0 stall=6\n"                 /* 01b0 (high) */
    "LDG.E.128 R4 <- R6 R7 bytes=16 pattern=coalesced stall=1\n" /* 01c0 */
    "IADD3 R8 P0 <- R9 R8 stall=5\n"                    /* 01d0 i += blockDim */
    "IMAD.X R11 <- R11 P0 stall=1\n"                    /* 01e0 */
    "ISETP.GE.U32.AND P0 <- R8 stall=4\n"               /* 01f0 i >= per_cta */
    "ISETP.GE.U32.AND.EX P0 <- R11 P0 stall=1\n"        /* 0200 */
    "FADD R5 <- R4 R5 stall=4\n"                        /* 0210 x + y: waits for the load */
    "FADD R4 <- R6 R5 stall=4\n"                        /* 0220 + z */
    "FADD R3 <- R7 R4 stall=4\n"                        /* 0230 + w */
    "FADD R0 <- R3 R0 stall=1\n"                        /* 0240 acc += */
    "@!P0 BRA stall=6\n";                               /* 0250 to 0x160 */

static const char mem_epilogue[] =
    "BSYNC stall=5\n"                                   /* 0260 */
    "BAR.SYNC.DEFER_BLOCKING stall=6\n"                 /* 0270 */
    "BSSY stall=4\n"                                    /* 0280 */
    "@P1 BRA stall=5\n";                                /* 0290 threads other than 0: to 0x3a0 */

/* 0x2a0-0x390: thread 0's record (mem_kernel's own listing: it differs
 * from fma_kernel's, gen_fma.c, in its registers and a VIADD). */
static const char mem_record[] =
    "ifwarp 0\n"
    "S2UR UR5 stall=1\n"                                /* 02a0 SR_CgaCtaId */
    "UMOV UR4 stall=1\n"                                /* 02b0 */
    "S2R R3 stall=1\n"                                  /* 02c0 SR_VIRTUALSMID */
    "ULEA UR4 <- UR5 UR4 stall=9\n"                     /* 02d0 */
    "LDS.128 R4 <- UR4 bytes=16 pattern=uniform stall=1\n" /* 02e0 t0s, c0s */
    "CS2R R10 timer=end stall=2\n"                      /* 02f0 SR_GLOBALTIMERLO: t1 */
    "CS2R R12 clock=end stall=1\n"                      /* 0300 SR_CLOCKLO: c1 */
    "LDC.64 R8 bytes=8 pattern=uniform stall=1\n"       /* 0310 rec */
    "UMOV UR4 stall=1\n"                                /* 0320 */
    "IMAD.WIDE.U32 R8 <- R2 R8 stall=4\n"               /* 0330 */
    "VIADD R9 <- R9 stall=5\n"                          /* 0340 */
    "STG.E.64 <- R8 R9 R2 bytes=8 pattern=uniform stall=4\n"  /* 0350 */
    "STG.E.64 <- R8 R9 R4 bytes=8 pattern=uniform stall=4\n"  /* 0360 */
    "STG.E.64 <- R8 R9 R10 bytes=8 pattern=uniform stall=4\n" /* 0370 */
    "STG.E.64 <- R8 R9 R6 bytes=8 pattern=uniform stall=4\n"  /* 0380 */
    "STG.E.64 <- R8 R9 R12 bytes=8 pattern=uniform stall=2\n" /* 0390 */
    "end\n";

static const char mem_exit[] =
    "BSYNC stall=5\n"                                   /* 03a0 */
    "FSETP.NEU.AND P0 <- R0 stall=13\n"                 /* 03b0 acc != 1234.5f */
    "@P0 EXIT stall=5\n";                               /* 03c0 */

int gen_stream(kernel *k, long ctas, long block, long long bytes_per_cta, sk_error *e)
{
    memset(k, 0, sizeof *k);
    /* long long -> long: the table's values are long (LP64: the same); one
     * beyond long's range is out of the bounds anyway */
    const long v[] = {ctas, block, bytes_per_cta > LONG_MAX ? LONG_MAX : (long)bytes_per_cta};
    if (gen_check(&gen_workloads[GEN_STREAM], v, 0, 3, e) < 0)
        return e->code;
    uint64_t per = (uint64_t)bytes_per_cta / 16;          /* float4s per CTA */
    uint64_t q = per / (uint64_t)block, r = per % (uint64_t)block;
    if (q > UINT32_MAX)   /* the largest multiple of 16 whose q still fits */
        return sk_errorf(e, SK_EUSAGE, "gen stream: bytes-per-cta %lld: expected at most %llu "
                         "with block %ld (loop count)", bytes_per_cta,
                         (unsigned long long)(UINT64_C(16) * (uint64_t)block * ((uint64_t)UINT32_MAX + 1) - 16),
                         block);

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel mem_kernel grid=%ld block=%ld regs=16 smem=16 data=quiet\n"
              "program main\n%s", ctas, block, mem_prologue);
    /* Every warp with work runs the set-up and q iterations; when q = 0
     * only the remainder's warps have work, and they run both below. */
    if (q >= 1)
        sb_printf(&b, "%sloop %llu work\n%send\n", mem_setup, (unsigned long long)q, mem_body);
    /* The first r threads have one more element: whole warps 0..ceil(r/32)-1. */
    for (uint64_t w = 0; w * 32 < r; w++)
        sb_printf(&b, "ifwarp %llu\n%sloop 1 work\n%send\nend\n", (unsigned long long)w,
                  q >= 1 ? "" : mem_setup, mem_body);
    sb_printf(&b, "%s%s%send\nendkernel\n", mem_epilogue, mem_record, mem_exit);
    int rc = gen_parse(k, "gen stream", b.s, e);
    free(b.s);
    return rc;
}
