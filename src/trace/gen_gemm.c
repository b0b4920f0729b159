/* gen_gemm.c -- a Hopper bf16 GEMM (C = A B, bf16 in, fp32 accumulate, bf16
 * out) shaped like the warp-specialised kernels cuBLAS and CUTLASS run on
 * sm_90: experiment E7 of validation/h200 (8192^3 bf16 GEMMs back to back).
 *
 * Shape (CUTLASS sm90 "warpspecialized" mainloop): a CTA computes a 128 x
 * 256 tile of C, walking K in k-tiles of 64; 384 threads = three warpgroups
 * of four warps.  Warpgroup 0 is the producer: one warp copies the A tile
 * (128 x 64) and the B tile (256 x 64) of each k-tile from global to shared
 * memory.  Warpgroups 1 and 2 are consumers: each owns 64 rows of the tile
 * and issues, per k-tile, four HGMMA.64x256x16.F32.BF16 (k = 64 / 16).
 * Grid = (M / 128) x (N / 256) CTAs, one per SM (the 4-stage pipeline,
 * 4 x 48 KiB of shared memory, and 168 registers x 384 threads fill it).
 *
 * Tensor pipe rate (units.tensor with the instruction's ii=).  The H100
 * SXM datasheet gives 989.4 TFLOP/s dense bf16 at the 1830 MHz boost clock on
 * 132 SMs of 4 sub-partitions:
 *     989.4e12 / (132 x 4 x 1.83e9) = 1024 FLOP per cycle per sub-partition.
 * HGMMA.64x256x16 is 2 x 64 x 256 x 16 = 524288 FLOP for the warpgroup.  Its
 * four warps sit on the four sub-partitions (warp slot i is served by
 * scheduler i mod 4) and each issues the instruction for its quarter,
 * 131072 FLOP, so each warp's HGMMA holds its sub-partition's tensor pipe
 *     ii = 131072 / 1024 = 128 cycles.
 * Two consumer warps share a sub-partition: 8 HGMMAs x 128 = 1024 cycles of
 * tensor work per k-tile, 2 x 128 x 256 x 64 FLOP per CTA per k-tile.
 *
 * Memory.  The simulator has no L2 (docs/design.md), and every A tile is
 * read by N/256 CTAs and every B tile by M/128: issuing the full 48 KiB per
 * k-tile to the DRAM server would make the model DRAM-bound at about three
 * times the measured time, which the H200's 60 MB L2 prevents.  The producer
 * therefore issues the compulsory traffic, what a perfect L2 leaves for DRAM:
 * A and B once per GEMM, (M + N) x 64 x 2 bytes per k-tile over the grid,
 * i.e. 4194304 x (1/M + 1/N) bytes per CTA per k-tile (1 KiB at 8192^3), as
 * coalesced LDG.E.128 (512 bytes per warp instruction), each into its own
 * register.  The consumers store C (128 x 256 bf16 = 64 KiB per CTA) with
 * STG.E.128 after converting the accumulators (F2FP).
 *
 * Synchronisation.  The real kernel hands stages over with mbarriers (full:
 * TMA bytes arrived; empty: consumers done).  Here one BAR.SYNC per k-tile
 * stands for both, and the producer loads one k-tile ahead: at the top of
 * k-tile k it waits for tile k's data (a MOV reading the last load's
 * register: the memory model returns loads in issue order), then issues
 * tile k+1's loads.  One tile of lookahead hides the unloaded latency
 * (memory.latency_ns = 370 ns = 733 cycles < 1024 cycles of tensor work);
 * the deeper stages of the real kernel absorb jitter the model does not have.
 *
 * The accumulator (64 x 256 fp32 per warpgroup, 128 registers per thread)
 * is named by its first register, R24; the smem descriptors by UR4 (A) and
 * UR8 (B).  DEPBAR stands for WARPGROUP.DEPBAR (warpgroup_wait), which the
 * opcode table does not list.  Stall counts follow fma_kernel.sass's
 * conventions; no SASS of the cuBLAS kernel was captured.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

#define GEMM_CONSUMER_WARP0 4       /* warps 4..11: warpgroups 1 and 2 */
#define GEMM_CONSUMER_WARPS 8
#define GEMM_LD_REG0 40             /* producer loads go to R40, R41, ... */
#define GEMM_HGMMA_II 128           /* see the derivation above */

/* All warps: thread index, CTA index, role, barrier after mbarrier init. */
static const char gemm_prologue[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"          /* c[0x0][0x28] */
    "S2R R0 stall=2\n"                                  /* SR_TID.X */
    "S2R R3 stall=1\n"                                  /* SR_CTAID.X */
    "SHF.R.U32.HI R2 <- R0 stall=2\n"                   /* warp index */
    "ISETP.GE.U32.AND P0 <- R2 stall=2\n"               /* consumer warpgroup? */
    "LDC.64 R4 bytes=8 pattern=uniform stall=1\n"       /* A, B descriptors */
    "IMAD.WIDE.U32 R6 <- R3 R4 stall=4\n"               /* this CTA's tile address */
    "MOV R20 stall=1\n"                                 /* k-tile counter */
    "R2UR UR4 <- R4 stall=2\n"                          /* smem descriptor of A */
    "R2UR UR8 <- R5 stall=2\n"                          /* smem descriptor of B */
    "BAR.SYNC.DEFER_BLOCKING stall=1\n";                /* mbarriers initialised */

/* One consumer warp's k-tile: four HGMMA k-steps of 16, each with its two
 * descriptor advances, then warpgroup_wait. */
static void consumer_ktile(strbuf *b, int warp)
{
    sb_printf(b, "ifwarp %d\n", warp);
    for (int ks = 0; ks < GEMM_TILE_K / 16; ks++)
        sb_printf(b, "UIADD3 UR4 <- UR4 stall=1\nUIADD3 UR8 <- UR8 stall=1\n"
                  "HGMMA.64x256x16.F32.BF16 R24 <- UR4 UR8 R24 ii=%d stall=1\n", GEMM_HGMMA_II);
    sb_printf(b, "DEPBAR.LE <- R24 stall=1\nend\n");
}

/* One k-tile for the whole CTA.  With `load_next`, the producer also
 * issues the next k-tile's loads. */
static void ktile(strbuf *b, long nld, int load_next)
{
    sb_printf(b, "ifwarp 0\nMOV R9 <- R%ld stall=1\n", GEMM_LD_REG0 + nld - 1);  /* tile k arrived */
    if (load_next) {
        sb_printf(b, "IADD3 R6 <- R6 stall=2\n");
        for (long i = 0; i < nld; i++)
            sb_printf(b, "LDG.E.128 R%ld <- R6 bytes=16 pattern=coalesced stall=1\n", GEMM_LD_REG0 + i);
    }
    sb_printf(b, "end\nBAR.SYNC.DEFER_BLOCKING stall=1\n");      /* stage handed over */
    for (int w = 0; w < GEMM_CONSUMER_WARPS; w++)
        consumer_ktile(b, GEMM_CONSUMER_WARP0 + w);
    sb_printf(b, "IADD3 R20 <- R20 stall=4\nISETP.NE.AND P1 <- R20 stall=5\n@P1 BRA stall=6\n");
}

/* Per consumer warp: 128 accumulator registers -> 64 packed bf16 pairs, and
 * its quarter of the warpgroup's 64 x 256 bf16 slice, 8 KiB = 16 x 512 B. */
static void consumer_epilogue(strbuf *b, int warp)
{
    sb_printf(b, "ifwarp %d\n"
              "loop 64\nF2FP.BF16.F32.PACK_AB R100 <- R24 stall=1\nend\n"
              "IMAD.WIDE.U32 R6 <- R3 R4 stall=4\n"
              "loop 16\nSTG.E.128 <- R6 R100 bytes=16 pattern=coalesced stall=1\nend\n"
              "end\n", warp);
}

int gen_gemm(kernel *k, long m, long n, long kk, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {m, n, kk};
    if (gen_check(&gen_workloads[GEN_GEMM], v, 0, 3, e) < 0)
        return e->code;
    uint64_t grid = (uint64_t)(m / GEMM_TILE_M) * (uint64_t)(n / GEMM_TILE_N);
    if (grid > UINT64_C(4294967296))
        return sk_errorf(e, SK_EUSAGE, "gen gemm: m %ld x n %ld: %llu CTAs: expected at most "
                         "4294967296 (m/128 x n/256)", m, n, (unsigned long long)grid);
    long ktiles = kk / GEMM_TILE_K;

    /* Compulsory DRAM bytes per CTA per k-tile: (m + n) x 64 x 2 over the grid. */
    uint64_t bytes = ((uint64_t)(m + n) * GEMM_TILE_K * 2 + grid - 1) / grid;
    long nld = (long)((bytes + 511) / 512);

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel sm90_gemm_bf16_128x256x64_ws grid=%llu block=384 "
              "regs=168 smem=197632\nprogram main\n%s", (unsigned long long)grid, gemm_prologue);
    /* Producer: the first k-tile's loads. */
    sb_printf(&b, "ifwarp 0\n");
    for (long i = 0; i < nld; i++)
        sb_printf(&b, "LDG.E.128 R%ld <- R6 bytes=16 pattern=coalesced stall=1\n", GEMM_LD_REG0 + i);
    sb_printf(&b, "end\n");
    if (ktiles > 1) {
        sb_printf(&b, "loop %ld\n", ktiles - 1);
        ktile(&b, nld, 1);
        sb_printf(&b, "end\n");
    }
    ktile(&b, nld, 0);                                  /* the last k-tile loads nothing */
    for (int w = 0; w < GEMM_CONSUMER_WARPS; w++)
        consumer_epilogue(&b, GEMM_CONSUMER_WARP0 + w);
    sb_printf(&b, "EXIT stall=5\nend\nendkernel\n");
    int rc = gen_parse(k, "gen gemm", b.s, e);
    free(b.s);
    return rc;
}
