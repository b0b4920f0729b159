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
 * Operand delivery: shared memory, not the math, sets the pipe's pace.  The
 * HGMMAs are the SS form (both operands read from shared memory through
 * their descriptors), and the producer's TMA copies write every stage into
 * the same array.  Per k-tile and CTA (bf16; every type moves the same
 * bytes, since a stage holds 128 bytes of k per row):
 *     TMA writes   (128 + 256) x 128 B             =  48 KiB
 *     HGMMA reads  2 warpgroups x (64 + 256) x 128 B =  80 KiB
 *                  (each consumer reads its 64 rows of A and all of B)
 * 128 KiB per 1024 pipe cycles: 128 B per cycle, exactly the array's peak
 * (32 banks x 4 bytes per SM cycle, CUDA C++ Programming Guide, compute
 * capability 9.0, "Shared Memory").  At full demand an array delivers what
 * it sustains, not its peak: E16's shared-memory mix (2 LDS + 1 STS an
 * iteration on every SM, validation/h200 README) moves 29.7 TB/s at
 * 1980 MHz, 29.7e12 / (132 x 1.98e9 x 128) = 88.8 % of the peak.  So a
 * k-tile takes 131072 / (0.888 x 128) = 1153 cycles and each HGMMA holds
 * its pipe
 *     ii = 128 x 1153 / 1024 = 144 cycles      (gemm_ii() below)
 * of which 128 are arithmetic.  This is not fitted to any GEMM: the demand
 * is the tile's, the efficiency the LDS/STS mix's.  It predicts the pipes'
 * arithmetic occupancy at 128 / 144 = 88.9 % within a tile (E16's GEMMs:
 * 83-84 % over the whole 8192^3 grid, tails included, at every type and
 * clock, as a cycle-domain limit would give), and that it does not depend
 * on the clock (the array runs on the SM clock).  What it leaves out: the
 * kernels cuBLAS ran (nvjet 320x128, 144x128 tiles) move a little fewer
 * bytes per FLOP than this tile; TMA multicast in a cluster halves an
 * operand's L2 reads but not its shared-memory writes.
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
 *
 * --dtype (E16, validation/h200/capture/power_gemm_kernels.csv names the
 * kernel cuBLAS ran for each 8192^3 torch.matmul):
 *
 *   bf16  nvjet_sm90_tst_320x128_64x3_1x2_h_bz_coopB_NNT: the kernel above,
 *         HGMMA.64x256x16.F32.BF16, bf16 out.
 *   fp16  nvjet_sm90_hsh_320x128_64x3_1x2_h_bz_coopB_NNT: the same with
 *         HGMMA.64x256x16.F32.F16 (fp16 in, fp32 accumulate, fp16 out).
 *   fp8   nvjet_sm90_qqtst_144x128_128x6_1x2_h_bz_coopA_algo2_TNN: e4m3 in,
 *         QGMMA.64x256x32.F32.E4M3.E4M3, four per k-tile of 128: the datasheet's
 *         1978.9 TFLOP/s dense fp8 is 2048 FLOP per cycle per sub-partition,
 *         so a warp's quarter (2 x 64 x 256 x 32 / 4) holds the pipe
 *         ii = 128 cycles; 1-byte operands, bf16 out.
 *   tf32  sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_...:
 *         HGMMA.64x256x8.F32.TF32, four per k-tile of 32: 494.7 TFLOP/s is 512
 *         FLOP per cycle per sub-partition, ii = 2 x 64 x 256 x 8 / 4 / 512
 *         = 128; 4-byte operands, fp32 out (32 STG.E.128 per consumer warp).
 *   The tensor kernels share the 128 x 256 CTA tile of the bf16 one (the
 *   nvjet tiles differ: 320 x 128, 144 x 128) and its 128 bytes of k per
 *   stage (see mma_types); what sets power is the tensor pipe's occupancy
 *   and type, which the tile does not change.
 *   fp32  sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_
 *         warpsize4x2x1_ffma_...: the SIMT SGEMM cuBLAS runs when TF32 is
 *         off.  A CTA of 8 warps (4 x 2) computes 256 x 128 of C, 128
 *         accumulators per thread (16 x 8); per k-step of 8 the A (256 x 8)
 *         and B (8 x 128) tiles, 12 KiB, land in shared memory (3
 *         STS.128 per warp: the kernel's cp.async copies), one barrier, then
 *         per k each thread reads its 16 + 8 fragment values (6 LDS.128,
 *         double-buffered: loaded one k ahead) and issues 128 FFMA.  The
 *         k-step's loop is the kernel's own, instruction for instruction
 *         (its sm_90 listing, validation/h100/sgemm, through
 *         tools/gen/sgemm_loop.py into gen_sgemm_loop.h: registers, .reuse
 *         flags, stall counts), but for its asynchronous copies.  DRAM
 *         traffic is the compulsory (m + n) x 8 x 4 bytes per k-step over
 *         the grid, as above, by warp 0.  230 registers: one CTA per SM.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

#define GEMM_CONSUMER_WARP0 4       /* warps 4..11: warpgroups 1 and 2 */
#define GEMM_CONSUMER_WARPS 8
#define GEMM_LD_REG0 40             /* producer loads go to R40, R41, ... */
#define GEMM_HGMMA_MATH_II 128      /* the datapath's cycles per HGMMA (above) */
#define SMEM_PEAK_B_PER_CYCLE 128   /* 32 banks x 4 B [CUDA guide, cc 9.0] */
/* E16 shared-memory mix: 29.7 TB/s on 132 SMs at 1980 MHz (README, E16) */
#define SMEM_SUSTAINED_B_PER_CYCLE (29.7e12 / (132 * 1980e6))

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
/* The tensor types: the MMA instruction, its k, bytes per input element,
 * and the epilogue's conversion (NULL: fp32 out, no conversion). */
/* A stage of shared memory holds 128 bytes of each row of A and B, so the
 * k-tile is 128 / element bytes: 64 for bf16 and fp16, 128 for fp8 (the
 * nvjet fp8 kernel's 144x128_128), 32 for tf32 (the xmma kernel's
 * 128x256x32); each is four MMAs of 128 pipe cycles per consumer warp. */
typedef struct mma_type {
    const char *mma, *name, *cvt;
    int k, elem_bytes, ktile;
} mma_type;

static const mma_type mma_types[] = {
    [GEN_GEMM_BF16] = { "HGMMA.64x256x16.F32.BF16", "bf16", "F2FP.BF16.F32.PACK_AB", 16, 2, 64 },
    [GEN_GEMM_FP16] = { "HGMMA.64x256x16.F32.F16", "fp16", "F2FP.F16.F32.PACK_AB", 16, 2, 64 },
    [GEN_GEMM_FP8] = { "QGMMA.64x256x32.F32.E4M3.E4M3", "fp8", "F2FP.BF16.F32.PACK_AB", 32, 1, 128 },
    [GEN_GEMM_TF32] = { "HGMMA.64x256x8.F32.TF32", "tf32", NULL, 8, 4, 32 },
};

const char *const gen_gemm_dtypes[] = { "bf16", "fp16", "fp8", "tf32", "fp32", NULL };

/* Cycles one warp's MMA holds its sub-partition's tensor pipe: its
 * arithmetic (GEMM_HGMMA_MATH_II), or, when the shared-memory array cannot
 * deliver the k-tile's operands that fast, the array's time for them spread
 * over the k-tile's MMAs (see the header: 144 for every type). */
int gen_gemm_ii(int dtype)
{
    if (dtype < 0 || dtype >= (int)(sizeof mma_types / sizeof mma_types[0]) || !mma_types[dtype].mma)
        return 0;
    const mma_type *t = &mma_types[dtype];
    double row_b = (double)t->ktile * t->elem_bytes;                 /* 128 B of k a row */
    double wr = (GEMM_TILE_M + GEMM_TILE_N) * row_b;                 /* TMA writes */
    double rd = 2.0 * (GEMM_TILE_M / 2 + GEMM_TILE_N) * row_b;       /* two consumers read */
    double math = (double)GEMM_CONSUMER_WARPS / 4 * (t->ktile / t->k) * GEMM_HGMMA_MATH_II;
    double smem = (wr + rd) / SMEM_SUSTAINED_B_PER_CYCLE;
    (void)SMEM_PEAK_B_PER_CYCLE;
    return (int)lround(GEMM_HGMMA_MATH_II * (smem > math ? smem / math : 1.0));
}

static void consumer_ktile(strbuf *b, int warp, const mma_type *t, int ii)
{
    sb_printf(b, "ifwarp %d\n", warp);
    for (int ks = 0; ks < t->ktile / t->k; ks++)
        sb_printf(b, "UIADD3 UR4 <- UR4 stall=1\nUIADD3 UR8 <- UR8 stall=1\n"
                  "%s R24 <- UR4 UR8 R24 ii=%d stall=1\n", t->mma, ii);
    sb_printf(b, "DEPBAR.LE <- R24 stall=1\nend\n");
}

/* One k-tile for the whole CTA.  With `load_next`, the producer also
 * issues the next k-tile's loads. */
static void ktile(strbuf *b, long nld, int load_next, const mma_type *t, int ii)
{
    sb_printf(b, "ifwarp 0\nMOV R9 <- R%ld stall=1\n", GEMM_LD_REG0 + nld - 1);  /* tile k arrived */
    if (load_next) {
        sb_printf(b, "IADD3 R6 <- R6 stall=2\n");
        for (long i = 0; i < nld; i++)
            sb_printf(b, "LDG.E.128 R%ld <- R6 bytes=16 pattern=coalesced stall=1\n", GEMM_LD_REG0 + i);
    }
    sb_printf(b, "end\nBAR.SYNC.DEFER_BLOCKING stall=1\n");      /* stage handed over */
    for (int w = 0; w < GEMM_CONSUMER_WARPS; w++)
        consumer_ktile(b, GEMM_CONSUMER_WARP0 + w, t, ii);
    sb_printf(b, "IADD3 R20 <- R20 stall=4\nISETP.NE.AND P1 <- R20 stall=5\n@P1 BRA stall=6\n");
}

/* Per consumer warp: 128 accumulator registers -> 64 packed bf16 pairs, and
 * its quarter of the warpgroup's 64 x 256 bf16 slice, 8 KiB = 16 x 512 B. */
static void consumer_epilogue(strbuf *b, int warp, const mma_type *t)
{
    if (t->cvt)
        sb_printf(b, "ifwarp %d\n"
                  "loop 64\n%s R100 <- R24 stall=1\nend\n"
                  "IMAD.WIDE.U32 R6 <- R3 R4 stall=4\n"
                  "loop 16\nSTG.E.128 <- R6 R100 bytes=16 pattern=coalesced stall=1\nend\n"
                  "end\n", warp, t->cvt);
    else   /* fp32 out: the accumulators as they are, 16 KiB per warp */
        sb_printf(b, "ifwarp %d\n"
                  "IMAD.WIDE.U32 R6 <- R3 R4 stall=4\n"
                  "loop 32\nSTG.E.128 <- R6 R24 bytes=16 pattern=coalesced stall=1\nend\n"
                  "end\n", warp);
}

static int gemm_tensor(kernel *k, long m, long n, long kk, const mma_type *t, sk_error *e)
{
    uint64_t grid = (uint64_t)(m / GEMM_TILE_M) * (uint64_t)(n / GEMM_TILE_N);
    if (grid > UINT64_C(4294967296))
        return sk_errorf(e, SK_EUSAGE, "gen gemm: m %ld x n %ld: %llu CTAs: expected at most "
                         "4294967296 (m/128 x n/256)", m, n, (unsigned long long)grid);
    if (kk % t->ktile)
        return sk_errorf(e, SK_EUSAGE, "gen gemm: dtype %s: k %ld: expected a multiple of %d (its "
                         "k-tile)", t->name, kk, t->ktile);
    long ktiles = kk / t->ktile;
    int ii = gen_gemm_ii((int)(t - mma_types));

    /* Compulsory DRAM bytes per CTA per k-tile: (m + n) x k-tile x element
     * (128 bytes a row) over the grid. */
    uint64_t bytes = ((uint64_t)(m + n) * (uint64_t)t->ktile * (uint64_t)t->elem_bytes + grid - 1) / grid;
    long nld = (long)((bytes + 511) / 512);

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel sm90_gemm_%s_128x256x64_ws grid=%llu block=384 "
              "regs=168 smem=197632\nprogram main\n%s", t->name, (unsigned long long)grid,
              gemm_prologue);
    /* Producer: the first k-tile's loads. */
    sb_printf(&b, "ifwarp 0\n");
    for (long i = 0; i < nld; i++)
        sb_printf(&b, "LDG.E.128 R%ld <- R6 bytes=16 pattern=coalesced stall=1\n", GEMM_LD_REG0 + i);
    sb_printf(&b, "end\n");
    if (ktiles > 1) {
        sb_printf(&b, "loop %ld\n", ktiles - 1);
        ktile(&b, nld, 1, t, ii);
        sb_printf(&b, "end\n");
    }
    ktile(&b, nld, 0, t, ii);                           /* the last k-tile loads nothing */
    for (int w = 0; w < GEMM_CONSUMER_WARPS; w++)
        consumer_epilogue(&b, GEMM_CONSUMER_WARP0 + w, t);
    sb_printf(&b, "EXIT stall=5\nend\nendkernel\n");
    int rc = gen_parse(k, "gen gemm", b.s, e);
    free(b.s);
    return rc;
}

/* The SIMT SGEMM's main loop, from its listing (tools/gen/sgemm_loop.py). */
#include "gen_sgemm_loop.h"

#define SGEMM_TILE_M 256
#define SGEMM_TILE_N 128
#define SGEMM_TILE_K 8

static int gemm_sgemm(kernel *k, long m, long n, long kk, sk_error *e)
{
    if (m % SGEMM_TILE_M || n % SGEMM_TILE_N || kk % SGEMM_TILE_K)
        return sk_errorf(e, SK_EUSAGE, "gen gemm: dtype fp32: m %ld, n %ld, k %ld: expected "
                         "multiples of %d, %d and %d (the 256x128x8 SGEMM tile)", m, n, kk,
                         SGEMM_TILE_M, SGEMM_TILE_N, SGEMM_TILE_K);
    uint64_t grid = (uint64_t)(m / SGEMM_TILE_M) * (uint64_t)(n / SGEMM_TILE_N);
    if (grid > UINT64_C(4294967296))
        return sk_errorf(e, SK_EUSAGE, "gen gemm: m %ld x n %ld: %llu CTAs: expected at most "
                         "4294967296 (m/256 x n/128)", m, n, (unsigned long long)grid);
    long ksteps = kk / SGEMM_TILE_K;
    uint64_t bytes = ((uint64_t)(m + n) * SGEMM_TILE_K * 4 + grid - 1) / grid;
    long nld = (long)((bytes + 511) / 512);

    /* The generator's own registers are ones the loop does not use: the
     * tile address in the first, the CTA index and the base pointer it is
     * made of in the last two (the epilogue reads them again: no load may
     * have written them), warp 0's loads of the next tiles into the rest
     * in turn. */
    const int nf = (int)SK_ARRAY_LEN(sgemm_free_regs), ra = sgemm_free_regs[0], nfree = nf - 3;
    const int rcta = sgemm_free_regs[nf - 2], rb = sgemm_free_regs[nf - 1];
    const unsigned char *ld = sgemm_free_regs + 1;
    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel sm80_sgemm_ffma_256x128x8 grid=%llu block=256 "
              "regs=230 smem=36864\nprogram main\n"
              "S2R R%d stall=2\nLDC.64 R%d bytes=8 pattern=uniform stall=1\n"
              "IMAD.WIDE.U32 R%d <- R%d R%d stall=4\n",
              (unsigned long long)grid, rcta, rb, ra, rcta, rb);
    sb_printf(&b, "ifwarp 0\n");
    for (long i = 0; i < nld; i++)
        sb_printf(&b, "LDG.E.128 R%d <- R%d bytes=16 pattern=coalesced stall=1\n", ld[i % nfree], ra);
    /* Each k-step: cuBLAS's loop (its sm_90 SASS, validation/h100/sgemm:
     * 1024 FFMA on the fragments of the two register sets, 48 LDS.128 of
     * the next k's fragments among them, the barrier, the loop's own
     * counters), with its asynchronous copies replaced at their place by
     * the tile loaded a k-step ago stored to shared memory (three STS.128 a
     * warp) and warp 0's loads of the next one (no warp waits on those
     * loads' registers, as none does on cuBLAS's LDGSTS, three stages deep). */
    sb_printf(&b, "end\nloop %ld\n", ksteps);
    for (size_t i = 0; i < SK_ARRAY_LEN(sgemm_loop); i++) {
        if (strcmp(sgemm_loop[i], "@COPY") != 0) {
            sb_printf(&b, "%s\n", sgemm_loop[i]);
            continue;
        }
        for (int j = 0; j < 3; j++)
            sb_printf(&b, "STS.128 <- R%d R%d bytes=16 stall=1\n", ra, ld[j]);
        sb_printf(&b, "ifwarp 0\nIADD3 R%d <- R%d stall=2\n", ra, ra);
        for (long j = 0; j < nld; j++)
            sb_printf(&b, "LDG.E.128 R%d <- R%d bytes=16 pattern=coalesced stall=1\n", ld[j % nfree], ra);
        sb_printf(&b, "end\n");
    }
    sb_printf(&b, "end\n");
    /* epilogue: 128 fp32 accumulators per thread, 512 B per STG.E.128 warp-wide */
    sb_printf(&b, "IMAD.WIDE.U32 R%d <- R%d R%d stall=4\n"
              "loop 32\nSTG.E.128 <- R%d R0 bytes=16 pattern=coalesced stall=1\nend\n"
              "EXIT stall=5\nend\nendkernel\n", ra, rcta, rb, ra);
    int rc = gen_parse(k, "gen gemm", b.s, e);
    free(b.s);
    return rc;
}

int gen_gemm_dtype(kernel *k, long m, long n, long kk, int dtype, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {m, n, kk, 1, dtype};
    if (gen_check(&gen_workloads[GEN_GEMM], v, 0, 3, e) < 0
        || gen_check(&gen_workloads[GEN_GEMM], v, 4, 5, e) < 0)
        return e->code;
    if (dtype == GEN_GEMM_FP32)
        return gemm_sgemm(k, m, n, kk, e);
    return gemm_tensor(k, m, n, kk, &mma_types[dtype], e);
}

int gen_gemm(kernel *k, long m, long n, long kk, sk_error *e)
{
    return gen_gemm_dtype(k, m, n, kk, GEN_GEMM_BF16, e);
}
