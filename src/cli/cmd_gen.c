/* cmd_gen.c -- `skewsim gen WORKLOAD [options]`: build a synthetic kernel in
 * memory and write it as a native trace (gzip'd when the file name ends in
 * .gz).  argv[0] is the subcommand's own name ("gen"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/trace.h"

static const char gen_usage[] =
    "usage: skewsim gen fma    [--iters N] [--block B] [--grid G] [-o FILE]\n"
    "       skewsim gen stream [--ctas G] [--block B] [--bytes-per-cta N] [-o FILE]\n"
    "       skewsim gen gemm   [--m M] [--n N] [--k K] [--repeat R] [-o FILE]\n"
    "       skewsim gen coop   [--ctas G] [--block B] [--rounds R] [--iters I] [-o FILE]\n"
    "\n"
    "Write a synthetic kernel as a native trace (docs/trace-format.md, section\n"
    "Generators).  -o FILE: gzip'd when FILE ends in .gz; - or none: stdout.\n"
    "\n"
    "fma     the H200 calibration kernel fma_kernel (validation/h200, capture.cu)\n"
    "  --iters N   FMA iterations per thread, 0..2147483647 (default 4096)\n"
    "  --block B   threads per CTA, 1..1024 (default 256)\n"
    "  --grid G    CTAs, 1..4294967296 (default 1056: 8 CTAs on each of 132 SMs)\n"
    "stream  memory-bound streaming read, capture.cu's mem_kernel\n"
    "  --ctas G            CTAs, 1..4294967296 (default 4224)\n"
    "  --block B           threads per CTA, 1..1024 (default 256)\n"
    "  --bytes-per-cta N   bytes each CTA reads, a multiple of 16 (default 1016800:\n"
    "                      4 GiB over 4224 CTAs, as measured)\n"
    "gemm    Hopper warp-specialised bf16 GEMM, CTA tile 128x256x64, 384 threads\n"
    "  --m M, --n N, --k K multiples of 128, 256 and 64 (default 8192 each)\n"
    "  --repeat R          R identical kernels back to back, 1..10000 (default 1)\n"
    "coop    cooperative kernel with a grid barrier per round, capture.cu's coop_kernel\n"
    "  --ctas G    CTAs, 1..4294967296; must be co-resident (default 1056)\n"
    "  --block B   threads per CTA, 1..1024 (default 256)\n"
    "  --rounds R  rounds of work + grid.sync(), 0..2147483647 (default 300)\n"
    "  --iters I   FMA iterations per thread per round, 0..2147483647 (default 512)\n";

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
    sk_error e = {0};
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sk_errorf(&e, SK_EUSAGE, "%s (see 'skewsim gen --help')", msg);
    return cli_fail(&e);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Decimal integer filling the whole string; range checks are gen_fma's. */
static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

/* One option of a workload: its name and where its value goes. */
typedef struct gen_opt {
    const char *name;         /* "--iters" */
    long *val;
} gen_opt;

/* Write k to `out`, `repeat` times in one trace.  The writer emits one
 * kernel per file, so for repeats it writes to a temporary file whose
 * kernel text (everything after the header line) is then copied R times. */
static int write_repeated(const char *out, const kernel *k, long repeat, sk_error *e)
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

int cmd_gen(int argc, char **argv)
{
    long iters = 4096, block = 256, grid = 1056;
    long ctas = 4224, bytes = 1016800;
    long m = 8192, n = 8192, kk = 8192, repeat = 1;
    long rounds = 300, citers = 512, cctas = 1056;
    const char *out = "-";
    static const char *const workloads = "fma, stream, gemm or coop";

    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        fputs(gen_usage, stdout);
        return 0;
    }
    if (argc < 2)
        return usage_error("gen: expected a workload: %s", workloads);
    const char *wl = argv[1];
    /* Each workload's options; --block and -o are common. */
    gen_opt fma_opts[] = {{"--iters", &iters}, {"--block", &block}, {"--grid", &grid}, {NULL, NULL}};
    gen_opt stream_opts[] = {{"--ctas", &ctas}, {"--block", &block}, {"--bytes-per-cta", &bytes},
                             {NULL, NULL}};
    gen_opt gemm_opts[] = {{"--m", &m}, {"--n", &n}, {"--k", &kk}, {"--repeat", &repeat}, {NULL, NULL}};
    gen_opt coop_opts[] = {{"--ctas", &cctas}, {"--block", &block}, {"--rounds", &rounds},
                           {"--iters", &citers}, {NULL, NULL}};
    const gen_opt *opts;
    const char *expect;       /* the options, for messages */
    if (strcmp(wl, "fma") == 0) {
        opts = fma_opts;
        expect = "--iters, --block, --grid or -o";
    } else if (strcmp(wl, "stream") == 0) {
        opts = stream_opts;
        expect = "--ctas, --block, --bytes-per-cta or -o";
    } else if (strcmp(wl, "gemm") == 0) {
        opts = gemm_opts;
        expect = "--m, --n, --k, --repeat or -o";
    } else if (strcmp(wl, "coop") == 0) {
        opts = coop_opts;
        expect = "--ctas, --block, --rounds, --iters or -o";
    } else {
        return usage_error("gen: %s: expected a workload: %s", wl, workloads);
    }

    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        char opt[32];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(gen_usage, stdout);
            return 0;
        }
        /* --opt VALUE and --opt=VALUE */
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(opt, sizeof opt, "%.*s", (int)SK_MIN(len, sizeof opt - 1), arg);
        const gen_opt *o = NULL;
        for (const gen_opt *p = opts; p->name; p++)
            if (strcmp(opt, p->name) == 0)
                o = p;
        int is_out = strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0;
        if (!o && !is_out)
            return usage_error("gen %s: %s: expected %s", wl, arg, expect);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return usage_error("gen %s: %s: expected a value", wl, arg);

        if (is_out) {
            out = val;
            continue;
        }
        if (parse_long(val, o->val) < 0)
            return usage_error("gen %s: %s: %s: expected an integer", wl, opt, val);
    }

    sk_error e = {0};
    kernel k;
    int r;
    if (opts == fma_opts) {
        r = gen_fma(&k, iters, block, grid, &e);
    } else if (opts == stream_opts) {
        r = gen_stream(&k, ctas, block, bytes, &e);
    } else if (opts == gemm_opts) {
        r = gen_gemm(&k, m, n, kk, &e);
        if (r == 0 && (repeat < 1 || repeat > 10000)) {
            kernel_free(&k);
            r = sk_errorf(&e, SK_EUSAGE, "gen gemm: repeat %ld: expected 1..10000", repeat);
        }
    } else {
        r = gen_coop(&k, cctas, block, rounds, citers, &e);
    }
    if (r < 0)
        return cli_fail(&e);
    r = write_repeated(out, &k, repeat, &e);
    kernel_free(&k);
    if (r < 0)
        return cli_fail(&e);
    return 0;
}
