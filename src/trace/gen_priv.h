/* gen_priv.h -- helpers shared by the workload generators (src/trace/gen_*.c),
 * not part of the public API (include/skewsim/gen.h).
 *
 * Every generator writes its kernel down as native trace text and parses it
 * with the ordinary reader, so what it produces is by construction a valid
 * trace that round-trips through the writer.  The FMA loop of capture.cu's
 * fma_work() appears in two kernels (fma_kernel, coop_kernel): it is written
 * once, here, as gen_fma_work(). */
#ifndef SKEWSIM_GEN_PRIV_H
#define SKEWSIM_GEN_PRIV_H

#include "skewsim/gen.h"

/* Rows of gen_workloads[] (gen.c), for the writers' own checks. */
enum { GEN_FMA, GEN_STREAM, GEN_GEMM, GEN_COOP, GEN_CHASE, GEN_ADD, GEN_UNIT, GEN_RW, GEN_EMPTY, GEN_LDS, GEN_WORDER };

#define GEMM_TILE_M 128           /* the CTA tile, m x n x k-tile (gen_gemm.c) */
#define GEMM_TILE_N 256
#define GEMM_TILE_K 64
#define STREAM_MAX_BYTES (1L << 40)   /* bytes per CTA: a bound, not a measurement */
#define GEN_FMA_MIX_MAX_CTAS (1L << 20) /* CTAs of gen fma --work-mod: its ctas section stays under ~20 MB */

/* A growing string; free(b.s) when done. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The dynamic path of fma_work(iters) as nvcc -O3 -arch=sm_90 compiles it
 * (fma_kernel.sass 0x120-0x440): for iters >= 1 the loop set-up, the main
 * loop unrolled 8 times (`loop iters/8 work`), the branch over the remainder
 * and the remainder loop (`loop iters%8 work`); nothing for iters < 1.  It
 * reads the trip count from R10 and the four chains are R9, R8 (R5), R11,
 * R13 with the multiplier in R0; it clobbers R0, R2, R3, R5, P1, P2. */
void gen_fma_work(strbuf *b, long iters);


/* Parse `text` (a whole trace holding exactly one kernel) into *k.  `what`
 * names the generator in messages ("gen fma").  Frees nothing of the text. */
int gen_parse(kernel *k, const char *what, const char *text, sk_error *e);

#endif
