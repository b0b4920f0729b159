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

#endif
