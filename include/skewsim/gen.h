/* gen.h -- synthetic workloads, built in memory and written as native traces
 * by `skewsim gen`. */
#ifndef SKEWSIM_GEN_H
#define SKEWSIM_GEN_H

#include "skewsim/program.h"

/* The instruction stream of fma_kernel (validation/h200/fma_kernel.sass):
 * per thread four independent FFMA chains, the loop unrolled 8 times with
 * its HFMA2/IADD3/ISETP/BRA overhead and the SASS stall counts, the
 * remainder loop for iters % 8, prologue and epilogue (S2R, BAR.SYNC, STG,
 * EXIT).  Fills *k (caller frees with kernel_free()).  Returns 0 or
 * SK_EUSAGE for out-of-range arguments. */
int gen_fma(kernel *k, long iters, long block, long grid, sk_error *e);

/* capture.cu's mem_kernel (experiment E6): each thread streams its share of
 * bytes_per_cta (a multiple of 16) with coalesced 16-byte loads (LDG.E.128,
 * loop unrolled 4 times), sums them with FADD, then BAR.SYNC, warp 0's
 * record store (STG), EXIT.  Timer marks as in fma_kernel.  Returns 0 or
 * SK_EUSAGE.  Caller frees *k with kernel_free(). */
int gen_stream(kernel *k, long ctas, long block, long long bytes_per_cta, sk_error *e);

/* A Hopper warp-specialised bf16 GEMM of m x n x kk (multiples of 128, 256
 * and 64): CTA tile 128 x 256, k-tile 64, 384 threads (a producer warpgroup
 * loading, two consumer warpgroups issuing HGMMA.64x256x16 at the tensor
 * pipe's datasheet rate), one kernel.  Returns 0 or SK_EUSAGE.  Caller frees
 * *k with kernel_free(). */
int gen_gemm(kernel *k, long m, long n, long kk, sk_error *e);

/* capture.cu's coop_kernel (experiment E5): `rounds` times fma_work(iters)
 * (the loop of gen_fma), BAR.SYNC, warp 0's timestamp store, GRID.SYNC.
 * Returns 0 or SK_EUSAGE.  Caller frees *k with kernel_free(). */
int gen_coop(kernel *k, long ctas, long block, long rounds, long iters, sk_error *e);

#endif
