/* gen_stream.c -- a memory-bound streaming read kernel: capture.cu's
 * mem_kernel (validation/h200 experiment E6, info.txt mem_rep*_us).
 *
 *   if (tid == 0) { t0s = globaltimer; c0s = clock64; }  __syncthreads();
 *   p = buf + blockIdx.x * per_cta;                        (float4 *)
 *   for (i = tid; i < per_cta; i += blockDim.x) { v = p[i]; acc += v.x+v.y+v.z+v.w; }
 *   __syncthreads();  thread 0 writes its record;  if (acc == 1234.5f) ...
 *
 * Written before mem_kernel's SASS existed, the instruction stream below is
 * a guess at what nvcc -O3 makes of such a loop on sm_90, by hand, with
 * plausible control codes (the same conventions as fma_kernel.sass).  The
 * listing, captured since (validation/h200/capture/sass/capture_cu.sass.gz:
 * capture.cu compiled with nvcc -O3 -arch=sm_90, session 17), is not
 * unrolled: per iteration the address from the 64-bit index (two
 * IMAD.MOV, IMAD.WIDE.U32, IMAD, LEA, LEA.HI.X), one LDG.E.128, the index
 * step (IADD3 with carry, IMAD.X, two ISETP), the four dependent FADDs and
 * the branch: 16 instructions a load where this guess has 6, and one load
 * in flight per warp.  Not yet replaced: the bench's stream rows and E6 are measured on
 * this body (docs/performance.md), and the change moves both.  The guess:
 *
 *  - the loop is unrolled 4 times: four LDG.E.128 back to back (stall 1;
 *    the loads set a scoreboard and the first use waits on it), the
 *    induction update (IADD3 on the index and the address), then the adds;
 *  - acc += v.x+v.y+v.z+v.w cannot be reassociated (IEEE), so each float4
 *    is summed in its own chain, ((x+y)+z)+w: those twelve FADDs interleave
 *    over the four loads at stall 1, the four `acc +=` form one dependent
 *    chain at the FP32 latency (stall 4);
 *  - a remainder loop handles trip % 4 with one load per iteration;
 *  - a register names the first register of a vector (LDG.E.128 R4 loads
 *    R4-R7), so every add of a float4 reads R4;
 *  - the chains' registers are odd, so that no add reads two registers of
 *    one bank (sm.register_banks), as in cap_power's stream_kernel
 *    (validation/h200/capture/sass: FADD R13, R4, R5 ... FADD R0, R7, R0);
 *    with the vector named by R4, even ones would read R4 and an even
 *    register where the chip reads R5 and an odd one.
 *
 * Work per thread: per_cta = bytes_per_cta / 16 float4s, thread t loads
 * ceil((per_cta - t) / block) of them.  Every warp runs q = per_cta / block
 * iterations; the r = per_cta % block threads with one more are warps
 * 0..ceil(r/32)-1, which run one more (remainder-body) iteration in their own
 * `ifwarp` block.  A partly active warp is charged a full 512-byte access,
 * so the traffic is at most 16 x 31 bytes per CTA high.  Each warp-wide
 * LDG.E.128 moves 32 x 16 = 512 bytes (pattern=coalesced).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

/* Same shape as fma_kernel's prologue: thread 0 stores (t0, c0) to shared
 * memory before the first barrier.  R10 holds per_cta, R2 the thread index. */
static const char mem_prologue[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"          /* c[0x0][0x28] */
    "S2R R2 stall=2\n"                                  /* SR_TID.X */
    "ISETP.NE.AND P0 <- R2 stall=13\n"
    "@!P0 CS2R R4 timer=start stall=1\n"                /* SR_GLOBALTIMERLO: t0 */
    "@!P0 S2R R3 stall=1\n"                             /* SR_CgaCtaId */
    "@!P0 MOV R0 stall=4\n"
    "@!P0 LEA R3 <- R3 R0 stall=2\n"
    "@!P0 CS2R R6 clock=start stall=1\n"                /* SR_CLOCKLO: c0 */
    "LDC.64 R10 bytes=8 pattern=uniform stall=1\n"      /* per_cta */
    "S2R R12 stall=1\n"                                 /* SR_CTAID.X */
    "@!P0 STS.128 <- R3 R4 bytes=16 pattern=uniform stall=2\n"
    "MOV R0 stall=1\n"                                  /* acc = 0 */
    "BAR.SYNC.DEFER_BLOCKING stall=1\n"
    "ISETP.GE.U32.AND P1 <- R2 R10 stall=13\n"          /* tid >= per_cta: no work */
    "@P1 BRA stall=5\n";

/* Loop set-up: p = buf + ctaid * per_cta + tid (address in R14), trip
 * count and its split into the unrolled part and the remainder. */
static const char mem_setup[] =
    "LDC.64 R14 bytes=8 pattern=uniform stall=1\n"      /* buf */
    "IMAD.WIDE.U32 R16 <- R12 R10 stall=4\n"            /* ctaid * per_cta */
    "IADD3 R18 <- R10 R2 stall=2\n"                     /* per_cta - tid */
    "LEA R14 <- R16 R14 stall=2\n"
    "LEA R14 <- R2 R14 stall=2\n"                       /* + tid, 16-byte elements */
    "LOP3.LUT R19 <- R18 stall=2\n"                     /* trip % 4 */
    "ISETP.GE.U32.AND P2 <- R18 stall=11\n"             /* trip >= 4 */
    "@!P2 BRA stall=5\n";

/* One unrolled iteration: four coalesced 16-byte loads per thread. */
static const char mem_main_body[] =
    "LDG.E.128 R4 <- R14 bytes=16 pattern=coalesced stall=1\n"
    "LDG.E.128 R20 <- R14 bytes=16 pattern=coalesced stall=1\n"
    "LDG.E.128 R24 <- R14 bytes=16 pattern=coalesced stall=1\n"
    "LDG.E.128 R28 <- R14 bytes=16 pattern=coalesced stall=1\n"
    "IADD3 R18 <- R18 stall=1\n"                        /* trip -= 4 */
    "LEA R14 <- R14 stall=1\n"                          /* p += 4 * blockDim */
    "ISETP.GT.U32.AND P2 <- R18 stall=1\n"
    "FADD R41 <- R4 stall=1\n"      "FADD R43 <- R20 stall=1\n"     /* x + y */
    "FADD R45 <- R24 stall=1\n"     "FADD R47 <- R28 stall=1\n"
    "FADD R41 <- R41 R4 stall=1\n"  "FADD R43 <- R43 R20 stall=1\n" /* + z */
    "FADD R45 <- R45 R24 stall=1\n" "FADD R47 <- R47 R28 stall=1\n"
    "FADD R41 <- R41 R4 stall=1\n"  "FADD R43 <- R43 R20 stall=1\n" /* + w */
    "FADD R45 <- R45 R24 stall=1\n" "FADD R47 <- R47 R28 stall=1\n"
    "FADD R0 <- R0 R41 stall=4\n"                       /* acc += (chain) */
    "FADD R0 <- R0 R43 stall=4\n"
    "FADD R0 <- R0 R45 stall=4\n"
    "FADD R0 <- R0 R47 stall=1\n"
    "@P2 BRA stall=6\n";

/* One remainder iteration: one load, its three adds, acc +=. */
static const char mem_rem_body[] =
    "LDG.E.128 R4 <- R14 bytes=16 pattern=coalesced stall=1\n"
    "IADD3 R19 <- R19 stall=1\n"
    "LEA R14 <- R14 stall=1\n"
    "ISETP.NE.AND P3 <- R19 stall=1\n"
    "FADD R41 <- R4 stall=4\n"
    "FADD R41 <- R41 R4 stall=4\n"
    "FADD R41 <- R41 R4 stall=4\n"
    "FADD R0 <- R0 R41 stall=1\n"
    "@P3 BRA stall=5\n";

static const char mem_epilogue[] =
    "BAR.SYNC.DEFER_BLOCKING stall=1\n"
    "ULDC.64 UR6 bytes=8 pattern=uniform stall=1\n"
    "BSSY stall=1\n"
    "@P0 BRA stall=5\n";                                /* threads other than 0 */

static const char mem_exit[] =
    "BSYNC stall=5\n"
    "FSETP.NEU.AND P0 <- R0 stall=13\n"                 /* acc != 1234.5f */
    "@P0 EXIT stall=5\n";

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
    if (q / 4 > UINT32_MAX)
        return sk_errorf(e, SK_EUSAGE, "gen stream: bytes-per-cta %lld: expected at most %llu "
                         "with block %ld (loop count)", bytes_per_cta,
                         (unsigned long long)(UINT64_C(64) * UINT32_MAX * (uint64_t)block), block);

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel mem_kernel grid=%ld block=%ld regs=32 smem=16 data=quiet\n"
              "program main\n%s", ctas, block, mem_prologue);
    if (q >= 1) {
        sb_printf(&b, "%s", mem_setup);
        if (q >= 4)
            sb_printf(&b, "loop %llu work\n%send\n", (unsigned long long)(q / 4), mem_main_body);
        sb_printf(&b, "ISETP.NE.AND P3 <- R19 stall=13\n@!P3 BRA stall=5\n");
        if (q % 4 != 0)
            sb_printf(&b, "loop %llu work\n%send\n", (unsigned long long)(q % 4), mem_rem_body);
    }
    /* The first r threads have one more element: whole warps 0..ceil(r/32)-1. */
    for (uint64_t w = 0; w * 32 < r; w++)
        sb_printf(&b, "ifwarp %llu\nloop 1 work\n%send\nend\n", (unsigned long long)w, mem_rem_body);
    sb_printf(&b, "%s%s%send\nendkernel\n", mem_epilogue, gen_record_store, mem_exit);
    int rc = gen_parse(k, "gen stream", b.s, e);
    free(b.s);
    return rc;
}
