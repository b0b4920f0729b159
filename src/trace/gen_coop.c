/* gen_coop.c -- the cooperative kernel of validation/h200 experiment E5,
 * capture.cu's coop_kernel, launched with cudaLaunchCooperativeKernel:
 *
 *   if (tid == 0) sms[blockIdx.x] = smid();
 *   for (r = 0; r < rounds; r++) {
 *       acc += fma_work(iters, acc * 1e-9f + tid);
 *       __syncthreads();
 *       if (tid == 0) arrive[r * gridDim.x + blockIdx.x] = globaltimer();
 *       grid.sync();
 *   }
 *   if (acc == 1234.5f) sink[0] = acc;
 *
 * fma_work() is the loop of fma_kernel (gen_fma_work(): the SASS path of
 * fma_kernel.sass, set-up, 8-times unrolled loop, remainder).  Around it are
 * the per-round seed (acc * 1e-9f + tid: one FFMA and three FADDs for the
 * four chains), the final sum x0+x1+x2+x3 and acc += (four dependent
 * FADDs), BAR.SYNC, thread 0's timestamp store (an `ifwarp 0` block) and
 * the grid barrier.  grid.sync() is the GRID.SYNC pseudo-op: the
 * simulator releases every warp of the grid sync.grid_ns after the last one
 * arrives (src/gpu/sim.c), which stands for the barrier's BAR.SYNC, thread
 * 0's atomic and the flag polling.  Stall counts of the code around the loop
 * follow the conventions of fma_kernel.sass (written before coop_kernel's
 * SASS was captured): FP32 dependent ops stall 4, independent ones 1, compares 13
 * before a dependent branch.
 *
 * The grid must be co-resident (the simulator checks it, as
 * cudaLaunchCooperativeKernel does): on the H200 at most 8 x 132 = 1056
 * CTAs of 256 threads (info.txt occ_coop_256=8, coop_grid=1056).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

/* Thread 0 records its SM; iters in R10, the float thread index in R6,
 * acc in R19: an even and an odd register, as coop_kernel's SASS has them
 * (validation/h200/capture/sass/cap_coop.sass.gz: FFMA R8, R3, 1e-9, R2;
 * FADD R3, R12, R3), so that no instruction here reads two registers of
 * one bank where the chip's does not (sm.register_banks). */
static const char coop_prologue[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"          /* c[0x0][0x28] */
    "S2R R2 stall=2\n"                                  /* SR_TID.X */
    "ISETP.NE.AND P0 <- R2 stall=13\n"
    "LDC R10 bytes=4 pattern=uniform stall=1\n"         /* iters */
    "LDC R15 bytes=4 pattern=uniform stall=1\n"         /* rounds */
    "I2FP.F32.U32 R6 <- R2 stall=1\n"                   /* (float)tid */
    "MOV R19 stall=1\n"                                 /* acc = 0 */
    "ifwarp 0\n"
    "S2R R4 stall=1\n"                                  /* SR_VIRTUALSMID */
    "S2R R12 stall=1\n"                                 /* SR_CTAID.X */
    "LDC.64 R16 bytes=8 pattern=uniform stall=2\n"      /* sms */
    "IMAD.WIDE.U32 R16 <- R12 R16 stall=5\n"
    "STG.E <- R16 R4 bytes=4 pattern=uniform stall=2\n" /* sms[blockIdx.x] = smid() */
    "end\n";

/* Top of a round: the seed acc * 1e-9f + tid and the four chains x0..x3. */
static const char coop_round_head[] =
    "FFMA R9 <- R19 R6 stall=4\n"                       /* x0 = acc * 1e-9f + tid */
    "FADD R8 <- R9 stall=1\n"                           /* x1 = x0 + 1 */
    "FADD R11 <- R9 stall=1\n"                          /* x2 = x0 + 2 */
    "FADD R13 <- R9 stall=1\n";                         /* x3 = x0 + 3 */

/* Bottom of a round: acc += x0 + x1 + x2 + x3, __syncthreads(), thread 0's
 * arrival timestamp, grid.sync(). */
static const char coop_round_tail[] =
    "FADD R8 <- R8 R9 stall=4\n"
    "FADD R8 <- R8 R11 stall=4\n"
    "FADD R8 <- R8 R13 stall=4\n"
    "FADD R19 <- R19 R8 stall=1\n"
    "BAR.SYNC.DEFER_BLOCKING stall=1\n"
    "ifwarp 0\n"
    "CS2R R4 stall=1\n"                                 /* SR_GLOBALTIMERLO */
    "S2R R12 stall=1\n"                                 /* SR_CTAID.X */
    "LDC.64 R16 bytes=8 pattern=uniform stall=2\n"      /* arrive */
    "IMAD.WIDE.U32 R16 <- R12 R16 stall=5\n"            /* r * gridDim.x + blockIdx.x */
    "STG.E.64 <- R16 R4 bytes=8 pattern=uniform stall=2\n"
    "end\n"
    "GRID.SYNC stall=1\n";

static const char coop_exit[] =
    "FSETP.NEU.AND P0 <- R19 stall=13\n"                /* acc != 1234.5f */
    "@P0 EXIT stall=5\n";

int gen_coop(kernel *k, long ctas, long block, long rounds, long iters, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {ctas, block, rounds, iters};
    if (gen_check(&gen_workloads[GEN_COOP], v, 0, 4, e) < 0)
        return e->code;

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel coop_kernel grid=%ld block=%ld regs=24 smem=0 data=quiet\n"
              "program main\n%s", ctas, block, coop_prologue);
    if (rounds > 0) {
        sb_printf(&b, "loop %ld\n%s", rounds, coop_round_head);
        gen_fma_work(&b, iters);
        sb_printf(&b, "%send\n", coop_round_tail);
    }
    sb_printf(&b, "%send\nendkernel\n", coop_exit);
    int rc = gen_parse(k, "gen coop", b.s, e);
    free(b.s);
    return rc;
}
