/* cmd_gen.c -- `skewsim gen WORKLOAD [options]`: build a synthetic kernel in
 * memory and write it as a native trace (gzip'd when the file name ends in
 * .gz).  argv[0] is the subcommand's own name ("gen"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/trace.h"

static const char gen_usage[] =
    "usage: skewsim gen fma [--iters N] [--block B] [--grid G] [-o FILE]\n"
    "\n"
    "Write the instruction stream of the H200 calibration kernel fma_kernel\n"
    "(validation/h200, capture.cu) as a native trace (docs/trace-format.md).\n"
    "\n"
    "  --iters N   FMA iterations per thread, 0..2147483647 (default 4096)\n"
    "  --block B   threads per CTA, 1..1024 (default 256)\n"
    "  --grid G    CTAs, 1..4294967296 (default 1056: 8 CTAs on each of 132 SMs)\n"
    "  -o FILE     output file; gzip'd when FILE ends in .gz; - or none: stdout\n";

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

int cmd_gen(int argc, char **argv)
{
    long iters = 4096, block = 256, grid = 1056;
    const char *out = "-";

    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        fputs(gen_usage, stdout);
        return 0;
    }
    if (argc < 2)
        return usage_error("gen: expected a workload: fma");
    if (strcmp(argv[1], "fma") != 0)
        return usage_error("gen: %s: expected a workload: fma", argv[1]);

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
        if (strcmp(opt, "--iters") != 0 && strcmp(opt, "--block") != 0 &&
            strcmp(opt, "--grid") != 0 && strcmp(opt, "-o") != 0 && strcmp(opt, "--output") != 0)
            return usage_error("gen fma: %s: expected --iters, --block, --grid or -o", arg);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return usage_error("gen fma: %s: expected a value", arg);

        if (opt[1] == 'o' || strcmp(opt, "--output") == 0) {
            out = val;
            continue;
        }
        long v;
        if (parse_long(val, &v) < 0)
            return usage_error("gen fma: %s: %s: expected an integer", opt, val);
        if (strcmp(opt, "--iters") == 0)
            iters = v;
        else if (strcmp(opt, "--block") == 0)
            block = v;
        else
            grid = v;
    }

    sk_error e = {0};
    kernel k;
    if (gen_fma(&k, iters, block, grid, &e) < 0)
        return cli_fail(&e);
    int r = trace_write_kernel(out, &k, ends_with(out, ".gz"), &e);
    kernel_free(&k);
    if (r < 0)
        return cli_fail(&e);
    return 0;
}
