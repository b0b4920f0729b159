/* gen.h -- synthetic workloads, built in memory and written as native traces
 * by `skewsim gen` and by sweep specs' `gen:` traces.
 *
 * The generators are one table (src/trace/gen.c): each workload's name, its
 * options with their one default, bounds and help line, and its writer.
 * `skewsim gen` parses its argv against it, a sweep spec its `gen:` command
 * line, and `gen --help` prints it; the writers below check their
 * arguments against the same rows. */
#ifndef SKEWSIM_GEN_H
#define SKEWSIM_GEN_H

#include <stdio.h>
#include "skewsim/program.h"

#define GEN_MAX_OPTS 8

/* One option of a workload. */
typedef struct gen_opt {
    const char *flag;         /* "--iters"; the name in messages is the flag without "--" */
    const char *metavar;      /* "N", in the usage and help lines */
    long def;                 /* the one default */
    long min, max;            /* bounds, checked in table order */
    long multiple;            /* > 1: must be a multiple of it */
    const char *unit;         /* " threads", " CTAs" or "": after the range in messages */
    const char *label;        /* the help column instead of "FLAG METAVAR"; NULL: that */
    const char *help;         /* the help text: %R range, %D default, %M multiple, a digit
                               * before the letter takes that option's (%1M); NULL: no line */
    const char *const *choices;  /* NULL: an integer; else the names of the values 0, 1, ...
                               * (NULL-terminated): the option takes a name, not a number */
} gen_opt;

typedef struct gen_workload {
    const char *name;         /* "fma" */
    const char *summary;      /* its --help line */
    int col;                  /* the help column's width */
    int nopts;
    gen_opt opts[GEN_MAX_OPTS];
    int repeat;               /* index of the kernels-back-to-back option, or -1 */
    /* Build the kernel from one value per option (v[i] for opts[i]); the
     * repeat value is not its business.  Fills *k; 0 or SK_EUSAGE. */
    int (*build)(kernel *k, const long *v, sk_error *e);
} gen_workload;

/* The table, and a workload by name (NULL: none). */
extern const gen_workload gen_workloads[];
extern const size_t gen_nworkloads;
const gen_workload *gen_find(const char *name);
/* Option index of `flag` (its first `len` bytes) in w, or -1. */
int gen_find_opt(const gen_workload *w, const char *flag, size_t len);
/* v[i] = opts[i].def. */
void gen_defaults(const gen_workload *w, long *v);
/* "fma, stream, gemm or coop"; w's flags joined by ", " (`last`: the word
 * before the last one, NULL: ", " too).  Return buf. */
const char *gen_workload_list(char *buf, size_t cap);
const char *gen_opt_list(const gen_workload *w, const char *last, char *buf, size_t cap);
/* The value of option o given as text s: a decimal integer filling s, or
 * for an option with choices the index of the name s.  0, or -1 when s is
 * neither (then gen_opt_expect says what was expected: "an integer", or
 * "bf16, fp16, fp8, tf32 or fp32"; returns buf). */
int gen_opt_value(const gen_opt *o, const char *s, long *v);
const char *gen_opt_expect(const gen_opt *o, char *buf, size_t cap);
/* Check options [from, to) of v against their bounds: the first out of
 * range is "gen NAME: KEY VALUE: expected ..." (SK_EUSAGE). */
int gen_check(const gen_workload *w, const long *v, int from, int to, sk_error *e);
/* Build w's kernel from v: the writer's checks and build, then the repeat
 * option's bounds.  *repeat gets it (1 without one). */
int gen_build(const gen_workload *w, const long *v, kernel *k, long *repeat, sk_error *e);
/* Write k as a native trace to `out` (- : stdout; .gz: gzip'd), `repeat`
 * kernels back to back.  0 or SK_EIO. */
int gen_write(const char *out, const kernel *k, long repeat, sk_error *e);
/* gen --help from the table: the usage lines, and the workloads with
 * their options. */
void gen_help_usage(FILE *f);
void gen_help_workloads(FILE *f);

/* The instruction stream of fma_kernel (validation/h200/fma_kernel.sass):
 * per thread four independent FFMA chains, the loop unrolled 8 times with
 * its HFMA2/IADD3/ISETP/BRA overhead and the SASS stall counts, the
 * remainder loop for iters % 8, prologue and epilogue (S2R, BAR.SYNC, STG,
 * EXIT).  Fills *k (caller frees with kernel_free()).  Returns 0 or
 * SK_EUSAGE for out-of-range arguments. */
int gen_fma(kernel *k, long iters, long block, long grid, sk_error *e);
/* The same with heterogeneous per-CTA work, tools/capture/cap_hetero.cu's
 * fma_hetero_kernel (E15): with mod > 0 CTA i runs iters x (1 + (i x mul)
 * mod `mod`) iterations (its work factor, in a ctas section); mod 0 is
 * gen_fma.  Returns 0 or SK_EUSAGE. */
int gen_fma_mix(kernel *k, long iters, long block, long grid, long mul, long mod, sk_error *e);

/* cap_launch.cu's empty_kernel (E12): a constant load and EXIT per warp.
 * Returns 0 or SK_EUSAGE. */
int gen_empty(kernel *k, long block, long grid, sk_error *e);

/* capture.cu's mem_kernel (experiment E6): each thread streams its share of
 * bytes_per_cta (a multiple of 16) with coalesced 16-byte loads (LDG.E.128,
 * loop unrolled 4 times), sums them with FADD, then BAR.SYNC, warp 0's
 * record store (STG), EXIT.  Timer marks as in fma_kernel.  Returns 0 or
 * SK_EUSAGE.  Caller frees *k with kernel_free(). */
int gen_stream(kernel *k, long ctas, long block, long long bytes_per_cta, sk_error *e);

/* A Hopper warp-specialised bf16 GEMM of m x n x kk (multiples of 128, 256
 * and 64): CTA tile 128 x 256, k-tile 64, 384 threads (a producer warpgroup
 * loading, two consumer warpgroups issuing HGMMA.64x256x16 at the rate
 * shared memory delivers their operands: gen_gemm_ii), one kernel.  Returns 0 or SK_EUSAGE.  Caller frees
 * *k with kernel_free(). */
int gen_gemm(kernel *k, long m, long n, long kk, sk_error *e);

/* Input types of gen gemm --dtype (src/trace/gen_gemm.c says which CUDA
 * kernel each stands for): four Hopper tensor GEMMs and the SIMT FFMA
 * SGEMM cuBLAS runs for fp32 without TF32. */
enum gen_gemm_dtype { GEN_GEMM_BF16, GEN_GEMM_FP16, GEN_GEMM_FP8, GEN_GEMM_TF32, GEN_GEMM_FP32,
                      GEN_GEMM_NDTYPES };
extern const char *const gen_gemm_dtypes[];   /* "bf16", ..., NULL */
/* gen_gemm for input type dtype (bf16: gen_gemm itself).  Returns 0 or
 * SK_EUSAGE.  Caller frees *k with kernel_free(). */
int gen_gemm_dtype(kernel *k, long m, long n, long kk, int dtype, sk_error *e);
/* Cycles each tensor GEMM MMA of type dtype holds its tensor pipe (the
 * instructions' ii=): the datapath's 128 or the shared-memory array's time
 * for the k-tile's operands, whichever is longer (gen_gemm.c); 0 for fp32,
 * which has none. */
int gen_gemm_ii(int dtype);

/* capture.cu's coop_kernel (experiment E5): `rounds` times fma_work(iters)
 * (the loop of gen_fma), BAR.SYNC, warp 0's timestamp store, GRID.SYNC.
 * Returns 0 or SK_EUSAGE.  Caller frees *k with kernel_free(). */
int gen_coop(kernel *k, long ctas, long block, long rounds, long iters, sk_error *e);

/* The memory kernels with addresses (src/trace/gen_mem.c; E11's
 * cap_mem.cu): a grid-stride float4 read of `bytes` (a multiple of 16)
 * `passes` times; c = a + b over three fp32 arrays of `bytes` each; one
 * thread per CTA chasing a random cycle of 128-byte lines through `bytes`
 * (128 x a power of two), `warm` untimed hops then `hops` timed ones
 * (clock/timer marks around them), through L1 or, cg = 1, past it.  Each
 * returns 0 or SK_EUSAGE; the caller frees *k with kernel_free(). */
int gen_stream_bytes(kernel *k, long ctas, long block, long long bytes, long passes, sk_error *e);
/* ... the same with __ldcg loads (cg = 1: LDG.E.128.STRONG.GPU, past L1), as E11 measured too. */
int gen_stream_cache(kernel *k, long ctas, long block, long long bytes, long passes, int cg, sk_error *e);
int gen_add(kernel *k, long ctas, long block, long long bytes, sk_error *e);
/* E21's read/write mixes (tools/capture/cap_rw.cu): a grid-stride loop over
 * arrays of `bytes` each, elements of `elem` bytes (16: float4, 4: fp32):
 * mix 0 read (s += a[i]), 1 write (a[i] = k), 2 copy (b[i] = a[i]), 3 add
 * (c[i] = a[i] + b[i]), 4 triad (d[i] = a[i] + b[i] + c[i]). */
int gen_rw(kernel *k, long ctas, long block, long long bytes, int mix, long elem, sk_error *e);
extern const char *const gen_rw_mixes[];   /* "read", "write", "copy", "add", "triad", NULL */
int gen_chase(kernel *k, long long bytes, long hops, long ctas, long warm, long cg, sk_error *e);
/* ... with elements `stride` bytes apart (gen_chase: 128) in `order`
 * GEN_CHASE_RANDOM (the random cycle of lines: stride 128 only),
 * GEN_CHASE_SEQ (element i + 1 after element i, cyclically: bytes a
 * multiple of stride) or GEN_CHASE_SPREAD (the same, element i moved i
 * lines into its slot: at most stride / 128 elements), E20's translation
 * probe. */
enum gen_chase_order { GEN_CHASE_RANDOM, GEN_CHASE_SEQ, GEN_CHASE_SPREAD };
extern const char *const gen_chase_orders[];   /* "random", "seq", "spread", NULL */
int gen_chase_stride(kernel *k, long long bytes, long hops, long ctas, long warm, long cg,
                     long stride, int order, sk_error *e);
/* One thread's walk of `lines` 128-byte lines laid out as pieces of `piece`
 * bytes `gap` bytes apart, in address order, `hops` hops (whole rounds):
 * tools/capture/cap_ncu.cu's layout walks (E40; `piece` a multiple of 128
 * of at most 32 KiB, or `piece` = `gap`: contiguous lines).  0 or
 * SK_EUSAGE. */
int gen_walk(kernel *k, long long piece, long long gap, long lines, long hops, sk_error *e);

/* E16's single-unit power mixes (tools/capture/cap_power.cu, src/trace/
 * gen_unit.c): op 0 int_kernel (IMAD + IADD3), 1 dfma_kernel (DFMA), 2
 * smem_kernel (LDS/STS), `iters` loop iterations per thread.  Returns 0 or
 * SK_EUSAGE; the caller frees *k with kernel_free(). */
extern const char *const gen_unit_ops[];    /* "int32", "fp64", "smem", NULL */
int gen_unit(kernel *k, int op, long iters, long block, long grid, sk_error *e);

/* E30's shared-memory rate kernels (tools/capture/cap_lds.cu lds<OP>,
 * src/trace/gen_lds.c): op 0 lds32, 1 lds32c2 (a 2-way bank conflict), 2
 * lds128, 3 sts32; one CTA of 1024 threads an SM, `warps` warps of each of
 * the first `smsps` sub-partitions running the loop `iters` times.
 * Returns 0 or SK_EUSAGE; the caller frees *k with kernel_free(). */
extern const char *const gen_lds_ops[];     /* "lds32", "lds32c2", "lds128", "sts32", NULL */
int gen_lds(kernel *k, int op, long iters, long warps, long smsps, long grid, sk_error *e);

/* E31's warp-order kernel (tools/capture/cap_worder.cu worder<CH>,
 * src/trace/gen_worder.c): ch 0, 1, 2 for 1, 2, 4 independent FFMA chains a
 * warp, `iters` (a multiple of 16) iterations, CTAs of `block` threads.
 * Returns 0 or SK_EUSAGE; the caller frees *k with kernel_free(). */
extern const char *const gen_worder_chs[];  /* "1", "2", "4", NULL */
int gen_worder(kernel *k, int ch, long iters, long block, long grid, sk_error *e);

#endif
