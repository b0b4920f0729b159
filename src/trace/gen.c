/* gen.c -- the generators as one table (gen.h): every workload's options
 * with their one default, bounds and help line, and its writer; the
 * bounds check, the --help text and the trace writer shared by `skewsim
 * gen`, sweep specs and the writers themselves (gen_*.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "skewsim/gen.h"
#include "skewsim/trace.h"
#include "gen_priv.h"

#define MAX_CTAS 4294967296L      /* a grid's CTAs: CUDA's 2^32 - 1 x-dimension, rounded as before */

/* --cluster C: the kernel is launched with C CTAs per thread block cluster
 * (cudaLaunchKernelEx); CUDA wants the grid tiled by whole clusters. */
static int set_cluster(kernel *k, const char *w, const char *gridflag, long c, sk_error *e)
{
    if (c > 1 && k->grid % (uint64_t)c != 0) {
        sk_errorf(e, SK_EUSAGE, "gen %s: cluster %ld: expected a divisor of %s %llu", w, c, gridflag,
                  (unsigned long long)k->grid);
        kernel_free(k);
        return SK_EUSAGE;
    }
    k->cluster = (uint32_t)c;
    return 0;
}

/* --data: fma_kernel's chains by 1.0000001 are quiet (data=quiet); random
 * stands for the same loop on operands as new at every FFMA as an SGEMM's
 * (the key's sense since E32; E28's reg_rand_bc, per-thread constants, lies
 * between the two). */
static const char *const fma_data[] = { "quiet", "random", NULL };

static int build_fma(kernel *k, const long *v, sk_error *e)
{
    int rc = gen_fma_mix(k, v[0], v[1], v[2], v[4], v[5], e);
    if (rc == 0)
        k->data_quiet = v[6] == 0;
    return rc ? rc : set_cluster(k, "fma", "--grid", v[3], e);
}
static int build_stream(kernel *k, const long *v, sk_error *e)
{
    /* --bytes N: the grid-stride read of N bytes, --passes times (E11);
     * without: capture.cu's mem_kernel, --bytes-per-cta each (E6) */
    if (v[3] > 0)
        return gen_check(&gen_workloads[GEN_STREAM], v, 0, 6, e) < 0
                   ? e->code : gen_stream_cache(k, v[0], v[1], v[3], v[4], (int)v[5], e);
    if (v[4] != 1 || v[5] != 0)
        return sk_errorf(e, SK_EUSAGE, "gen stream: %s %ld: only with --bytes (mem_kernel reads --bytes-per-cta "
                         "once, through L1)", v[4] != 1 ? "--passes" : "--cg", v[4] != 1 ? v[4] : v[5]);
    return gen_stream(k, v[0], v[1], v[2], e);
}
static int build_chase(kernel *k, const long *v, sk_error *e)
{
    if (gen_check(&gen_workloads[GEN_CHASE], v, 0, 7, e) < 0)
        return e->code;
    return gen_chase_stride(k, v[0], v[1], v[2], v[3], v[4], v[5], (int)v[6], e);
}
static int build_add(kernel *k, const long *v, sk_error *e)
{
    if (gen_check(&gen_workloads[GEN_ADD], v, 0, 3, e) < 0)
        return e->code;
    return gen_add(k, v[1], v[2], v[0], e);
}
static int build_rw(kernel *k, const long *v, sk_error *e)
{
    if (gen_check(&gen_workloads[GEN_RW], v, 0, 5, e) < 0)
        return e->code;
    return gen_rw(k, v[3], v[4], v[1], (int)v[0], v[2], e);
}
static int build_empty(kernel *k, const long *v, sk_error *e)
{
    return gen_empty(k, v[0], v[1], e);
}
/* --data for gen gemm: GEMMs run on random inputs (E16's, torch.randn);
 * quiet is the SGEMM on all-zero inputs (E32's sgemm_zeros).  Only the
 * FP32 rows have a data term (power.fp32_random_fj), so quiet is refused
 * for the tensor types, whose energy was fitted on random data. */
static const char *const gemm_data[] = { "random", "quiet", NULL };

static int build_gemm(kernel *k, const long *v, sk_error *e)
{
    if (v[5] == 1 && v[4] != GEN_GEMM_FP32)
        return sk_errorf(e, SK_EUSAGE, "gen gemm: --data quiet: only with --dtype fp32 (the tensor types' "
                         "energy has no data term: it was fitted on random inputs)");
    int rc = gen_gemm_dtype(k, v[0], v[1], v[2], (int)v[4], e);
    if (rc == 0)
        k->data_quiet = v[5] == 1;
    return rc;
}
static int build_unit(kernel *k, const long *v, sk_error *e)
{
    return gen_unit(k, (int)v[0], v[1], v[2], v[3], e);
}
static int build_lds(kernel *k, const long *v, sk_error *e)
{
    return gen_lds(k, (int)v[0], v[1], v[2], v[3], v[4], e);
}
static int build_worder(kernel *k, const long *v, sk_error *e)
{
    return gen_worder(k, (int)v[0], v[1], v[2], v[3], e);
}
static int build_coop(kernel *k, const long *v, sk_error *e)
{
    int rc = gen_coop(k, v[0], v[1], v[2], v[3], e);
    return rc ? rc : set_cluster(k, "coop", "--ctas", v[4], e);
}

/* CUDA's cluster limit (program.h) */
#define CLUSTER_OPT {"--cluster", "C", 0, 0, KERNEL_CLUSTER_MAX, 0, " CTAs", NULL, \
                     "CTAs per thread block cluster, %R; 0: no cluster launch (default %D)"}

/* The defaults are the experiments as captured (validation/h200/info.txt,
 * docs/trace-format.md "Generators"). */
const gen_workload gen_workloads[] = {
    [GEN_FMA] = {"fma", "the H200 calibration kernel fma_kernel (validation/h200, capture.cu)", 14, 7,
                 {{"--iters", "N", 4096, 0, INT32_MAX, 0, "", NULL, "FMA iterations per thread, %R (default %D)"},
                  {"--block", "B", 256, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"},
                  {"--grid", "G", 1056, 1, MAX_CTAS, 0, " CTAs", NULL,
                   "CTAs, %R (default %D: 8 CTAs on each of 132 SMs)"},
                  CLUSTER_OPT,
                  {"--work-mul", "M", 0, 0, 65535, 0, "", NULL,
                   "with --work-mod D: CTA i runs --iters x (1 + (i x M) mod D)\n"
                   "                iterations (cap_hetero.cu's fma_hetero_kernel, E15), %R (default %D)"},
                  {"--work-mod", "D", 0, 0, 65536, 0, "", NULL,
                   "the period of that work, %R; 0: every CTA runs --iters (default %D)"},
                  {"--data", "KIND", 0, 0, 1, 0, "", NULL,
                   "quiet (default: the chains multiply by 1.0000001, few operand bits\n"
                   "                toggle) or random (the same loop on random operands: more power)", fma_data}},
                 -1, build_fma},
    [GEN_STREAM] = {"stream", "memory-bound streaming read, capture.cu's mem_kernel", 20, 6,
                    {{"--ctas", "G", 4224, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"},
                     {"--block", "B", 256, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"},
                     {"--bytes-per-cta", "N", 1016800, 16, STREAM_MAX_BYTES, 16, "", NULL,
                      "bytes each CTA reads, a multiple of %M (default %D:\n"
                      "                      4 GiB over 4224 CTAs, as measured)"},
                     {"--bytes", "N", 0, 0, STREAM_MAX_BYTES, 16, "", NULL,
                      "instead: a grid-stride float4 read of N bytes, a multiple of %M\n"
                      "                      (default %D: off), with addresses (memory.model: hierarchy)"},
                     {"--passes", "P", 1, 1, INT32_MAX, 0, "", NULL,
                      "times the grid-stride loop reads the N bytes, %R (default %D)"},
                     {"--cg", "C", 0, 0, 1, 0, "", NULL,
                      "1: with --bytes, ld.global.cg, past L1 (E11's .cg streams, E16's\n"
                      "                      l2_stream), %R (default %D)"}},
                    -1, build_stream},
    [GEN_GEMM] = {"gemm", "a cuBLAS GEMM: Hopper warp-specialised tensor GEMM (CTA tile 128x256x64, 384\n"
                  "        threads) or, fp32, the SIMT FFMA SGEMM (256x128x8, 256 threads)", 20, 6,
                  {{"--m", "M", 8192, GEMM_TILE_M, 16777216, GEMM_TILE_M, "", "--m M, --n N, --k K",
                    "multiples of %M, %1M and %2M (default %D each)"},
                   {"--n", "N", 8192, GEMM_TILE_N, 16777216, GEMM_TILE_N, "", NULL, NULL},
                   {"--k", "K", 8192, GEMM_TILE_K, 16777216, GEMM_TILE_K, "", NULL, NULL},
                   {"--repeat", "R", 1, 1, 10000, 0, "", NULL, "R identical kernels back to back, %R (default %D)"},
                   {"--dtype", "T", GEN_GEMM_BF16, 0, GEN_GEMM_NDTYPES - 1, 0, "", NULL,
                    "input type: bf16 (default), fp16, fp8 (e4m3; k a multiple of 128), tf32,\n"
                    "                      or fp32 (the SIMT FFMA SGEMM, no TF32; m a multiple of 256)",
                    gen_gemm_dtypes},
                   {"--data", "KIND", 0, 0, 1, 0, "", NULL,
                    "random (default: inputs as torch.randn's) or quiet (all zeros:\n"
                    "                      no operand bit toggles; --dtype fp32 only)", gemm_data}},
                  3, build_gemm},
    [GEN_COOP] = {"coop", "cooperative kernel with a grid barrier per round, capture.cu's coop_kernel", 12, 5,
                  {{"--ctas", "G", 1056, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R; must be co-resident (default %D)"},
                   {"--block", "B", 256, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"},
                   {"--rounds", "R", 300, 0, INT32_MAX, 0, "", NULL, "rounds of work + grid.sync(), %R (default %D)"},
                   {"--iters", "I", 512, 0, INT32_MAX, 0, "", NULL,
                    "FMA iterations per thread per round, %R (default %D)"},
                   CLUSTER_OPT},
                  -1, build_coop},
    [GEN_CHASE] = {"chase", "one thread per CTA following a cycle: random over 128-byte lines (E11) or in order (E20)", 14, 7,
                   {{"--bytes", "N", 16384, 128, STREAM_MAX_BYTES, 128, "", NULL,
                     "bytes of the cycle: a multiple of 128 (a power of two of lines:\n"
                     "                E11's LCG cycle, else a seeded random one); seq: a multiple of\n"
                     "                --stride (default %D)"},
                    {"--hops", "H", 4096, 0, INT32_MAX, 0, "", NULL, "timed hops, %R (default %D)"},
                    {"--ctas", "G", 1, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs of one thread, %R (default %D)"},
                    {"--warm", "W", 0, 0, INT32_MAX, 0, "", NULL,
                     "untimed hops first, as E11 walks the cycle, %R (default %D)"},
                    {"--cg", "C", 0, 0, 1, 0, "", NULL, "1: ld.global.cg, past L1 (default %D)"},
                    {"--stride", "S", 128, 4, 1L << 30, 4, " bytes", NULL,
                     "bytes from one element to the next, a multiple of %M in %R\n"
                     "                (default %D: one element per line)"},
                    {"--order", "O", 0, 0, 2, 0, "", NULL,
                     "random (default: E11's random cycle, --stride 128 only), seq:\n"
                     "                element i + 1 after i, or spread: the same, element i\n"
                     "                i lines into its slot (E20's probe)", gen_chase_orders}},
                   -1, build_chase},
    [GEN_ADD] = {"add", "c = a + b over three fp32 arrays, a grid-stride loop (E11)", 12, 3,
                 {{"--bytes", "N", 67108864, 4, STREAM_MAX_BYTES, 4, "", NULL,
                   "bytes of each array, a multiple of %M (default %D)"},
                  {"--ctas", "G", 1056, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"},
                  {"--block", "B", 256, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"}},
                 -1, build_add},
    [GEN_UNIT] = {"unit", "one unit's loop, E16's power mixes (cap_power.cu: int_kernel, dfma_kernel, smem_kernel)", 12, 4,
                  {{"--op", "OP", 0, 0, 2, 0, "", NULL, "int32 (IMAD + IADD3, default), fp64 (DFMA) or smem (LDS/STS)",
                    gen_unit_ops},
                   {"--iters", "N", 4096, 0, INT32_MAX, 0, "", NULL, "loop iterations per thread, %R (default %D)"},
                   {"--block", "B", 256, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"},
                   {"--grid", "G", 1056, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"}},
                  -1, build_unit},
    [GEN_RW] = {"rw", "read/write mixes over fp32 or float4 arrays, grid-stride loops (E21, cap_rw.cu)", 12, 5,
                {{"--mix", "M", 3, 0, 4, 0, "", NULL,
                  "read (s += a[i]), write (a[i] = k), copy (b[i] = a[i]),\n"
                  "                add (c[i] = a[i] + b[i], default) or triad (d[i] = a[i] + b[i] + c[i])",
                  gen_rw_mixes},
                 {"--bytes", "N", 67108864, 16, STREAM_MAX_BYTES, 4, "", NULL,
                  "bytes of each array, a multiple of --elem (default %D)"},
                 {"--elem", "E", 16, 4, 16, 4, " bytes", NULL, "bytes an element: 16 (float4, default) or 4 (fp32)"},
                 {"--ctas", "G", 1056, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"},
                 {"--block", "B", 256, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"}},
                -1, build_rw},
    [GEN_EMPTY] = {"empty", "a kernel that does nothing, cap_launch.cu's empty_kernel (E12's launch chains)", 12, 2,
                   {{"--block", "B", 32, 1, 1024, 0, " threads", NULL, "threads per CTA, %R (default %D)"},
                    {"--grid", "G", 1, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"}},
                   -1, build_empty},
    [GEN_LDS] = {"lds", "E30's shared-memory rate loops (cap_lds.cu: LDS.32, LDS.32 with a 2-way bank\n"
                 "        conflict, LDS.128, STS.32), one CTA of 1024 threads an SM", 12, 5,
                 {{"--op", "OP", 0, 0, 3, 0, "", NULL, "lds32 (default), lds32c2, lds128 or sts32", gen_lds_ops},
                  {"--iters", "N", 2048, 1, 1L << 24, 0, "", NULL, "loop iterations a running warp, %R (default %D)"},
                  {"--warps", "W", 8, 1, 8, 0, "", NULL, "warps of each running sub-partition in the loop, %R (default %D)"},
                  {"--smsps", "S", 4, 1, 4, 0, "", NULL,
                   "sub-partitions whose warps run it (the first S: warps w with w mod 4 < S), %R (default %D)"},
                  {"--grid", "G", 132, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"}},
                 -1, build_lds},
    [GEN_WORDER] = {"worder", "E31's warp-order loop (cap_worder.cu): 1, 2 or 4 independent FFMA chains a\n"
                    "        warp, every warp's lane 0 timing its own loop", 12, 4,
                    {{"--ch", "CH", 1, 0, 2, 0, "", NULL, "FFMA chains a warp: 1, 2 (default) or 4", gen_worder_chs},
                     {"--iters", "N", 4096, 16, 1L << 24, 16, "", NULL,
                      "loop iterations a warp, a multiple of %M in %R (default %D)"},
                     {"--block", "B", 1024, 32, 1024, 32, " threads", NULL,
                      "threads per CTA, a multiple of %M in %R (default %D)"},
                     {"--grid", "G", 132, 1, MAX_CTAS, 0, " CTAs", NULL, "CTAs, %R (default %D)"}},
                    -1, build_worder},
};
const size_t gen_nworkloads = SK_ARRAY_LEN(gen_workloads);

const gen_workload *gen_find(const char *name)
{
    for (size_t i = 0; i < gen_nworkloads; i++)
        if (strcmp(gen_workloads[i].name, name) == 0)
            return &gen_workloads[i];
    return NULL;
}

int gen_find_opt(const gen_workload *w, const char *flag, size_t len)
{
    for (int i = 0; i < w->nopts; i++)
        if (strlen(w->opts[i].flag) == len && strncmp(w->opts[i].flag, flag, len) == 0)
            return i;
    return -1;
}

void gen_defaults(const gen_workload *w, long *v)
{
    for (int i = 0; i < w->nopts; i++)
        v[i] = w->opts[i].def;
}

static void join(char *buf, size_t cap, const char *word, int first, int is_last, const char *last)
{
    if (!first)
        strncat(buf, is_last && last ? last : ", ", cap - strlen(buf) - 1);
    strncat(buf, word, cap - strlen(buf) - 1);
}

const char *gen_workload_list(char *buf, size_t cap)
{
    buf[0] = '\0';
    for (size_t i = 0; i < gen_nworkloads; i++)
        join(buf, cap, gen_workloads[i].name, i == 0, i + 1 == gen_nworkloads, " or ");
    return buf;
}

const char *gen_opt_list(const gen_workload *w, const char *last, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < w->nopts; i++)
        join(buf, cap, w->opts[i].flag, i == 0, i + 1 == w->nopts, last);
    return buf;
}

int gen_opt_value(const gen_opt *o, const char *s, long *v)
{
    if (o->choices) {
        for (long i = 0; o->choices[i]; i++)
            if (strcmp(o->choices[i], s) == 0) {
                *v = i;
                return 0;
            }
        return -1;
    }
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno == ERANGE)
        return -1;
    *v = x;
    return 0;
}

const char *gen_opt_expect(const gen_opt *o, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!o->choices) {
        snprintf(buf, cap, "an integer");
        return buf;
    }
    for (int i = 0; o->choices[i]; i++)
        join(buf, cap, o->choices[i], i == 0, o->choices[i + 1] == NULL, " or ");
    return buf;
}

int gen_check(const gen_workload *w, const long *v, int from, int to, sk_error *e)
{
    for (int i = from; i < to; i++) {
        const gen_opt *o = &w->opts[i];
        long x = v[i];
        if (x >= o->min && x <= o->max && (o->multiple <= 1 || x % o->multiple == 0))
            continue;
        if (o->multiple > 1)
            return sk_errorf(e, SK_EUSAGE, "gen %s: %s %ld: expected a multiple of %ld in %ld..%ld", w->name,
                             o->flag + 2, x, o->multiple, o->min, o->max);
        return sk_errorf(e, SK_EUSAGE, "gen %s: %s %ld: expected %ld..%ld%s", w->name, o->flag + 2, x, o->min,
                         o->max, o->unit);
    }
    return 0;
}

int gen_build(const gen_workload *w, const long *v, kernel *k, long *repeat, sk_error *e)
{
    int r = w->build(k, v, e);
    *repeat = w->repeat >= 0 ? v[w->repeat] : 1;
    if (r == 0 && w->repeat >= 0 && gen_check(w, v, w->repeat, w->repeat + 1, e) < 0) {
        kernel_free(k);
        r = e->code;
    }
    return r;
}

void gen_help_usage(FILE *f)
{
    for (size_t i = 0; i < gen_nworkloads; i++) {
        const gen_workload *w = &gen_workloads[i];
        fprintf(f, "%s%-6s", i ? "       skewsim gen " : "usage: skewsim gen ", w->name);
        for (int j = 0; j < w->nopts; j++)
            fprintf(f, " [%s %s]", w->opts[j].flag, w->opts[j].metavar);
        fputs(" [-o FILE]\n", f);
    }
}

/* One help line: %R, %D, %M of this option or (%1M) of another. */
static void help_line(FILE *f, const gen_workload *w, int self)
{
    const gen_opt *o = &w->opts[self];
    char label[64];
    if (o->label)
        snprintf(label, sizeof label, "%s", o->label);
    else
        snprintf(label, sizeof label, "%s %s", o->flag, o->metavar);
    fprintf(f, "  %-*s", w->col, label);
    if ((int)strlen(label) >= w->col)
        fputc(' ', f);
    for (const char *p = o->help; *p; p++) {
        if (*p != '%') {
            fputc(*p, f);
            continue;
        }
        const gen_opt *t = o;
        if (p[1] >= '0' && p[1] <= '9' && p[1] - '0' < w->nopts)
            t = &w->opts[*++p - '0'];
        switch (*++p) {
        case 'R': fprintf(f, "%ld..%ld", t->min, t->max); break;
        case 'D': fprintf(f, "%ld", t->def); break;
        case 'M': fprintf(f, "%ld", t->multiple); break;
        default: fputc(*p, f); break;
        }
    }
    fputc('\n', f);
}

void gen_help_workloads(FILE *f)
{
    for (size_t i = 0; i < gen_nworkloads; i++) {
        const gen_workload *w = &gen_workloads[i];
        fprintf(f, "%-7s %s\n", w->name, w->summary);
        for (int j = 0; j < w->nopts; j++)
            if (w->opts[j].help)
                help_line(f, w, j);
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Write k to `out`, `repeat` times in one trace.  The writer emits one
 * kernel per file, so for repeats it writes to a temporary file whose
 * kernel text (everything after the header line) is then copied R times. */
int gen_write(const char *out, const kernel *k, long repeat, sk_error *e)
{
    int gz = ends_with(out, ".gz");
    if (repeat == 1)
        return trace_write_kernel(out, k, gz, e);
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/skewsim-gen-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0)
        return sk_errorf(e, SK_EIO, "%s: cannot create a temporary file: %s", tmp, strerror(errno));
    close(fd);
    int r = trace_write_kernel(tmp, k, 0, e);
    char *text = NULL;
    if (r == 0) {
        FILE *f = fopen(tmp, "rb");
        long n = -1;
        if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            text = xmalloc((size_t)n + 1);
            text[fread(text, 1, (size_t)n, f)] = '\0';
        }
        if (f)
            fclose(f);
        if (!text)
            r = sk_errorf(e, SK_EIO, "%s: cannot read back: %s", tmp, strerror(errno));
    }
    remove(tmp);
    if (r < 0)
        return r;
    static const char magic[] = "skewsim-trace 1\n";
    const char *body = strstr(text, magic);
    body = body ? body + strlen(magic) : text;
    int to_stdout = strcmp(out, "-") == 0;
    gzFile f = to_stdout ? gzdopen(dup(1), gz ? "wb9" : "wbT") : gzopen(out, gz ? "wb9" : "wbT");
    if (!f) {
        free(text);
        return sk_errorf(e, SK_EIO, "%s: cannot create: %s", out, strerror(errno));
    }
    gzprintf(f, "# skewsim trace (docs/trace-format.md): %ld kernels back to back\n%s", repeat, magic);
    for (long i = 0; i < repeat; i++)
        if (gzputs(f, body) < 0)
            break;
    int errnum = Z_OK;
    gzerror(f, &errnum);
    int rc = gzclose(f);
    free(text);
    if (errnum != Z_OK || rc != Z_OK)
        return sk_errorf(e, SK_EIO, "%s: write error", out);
    return 0;
}

