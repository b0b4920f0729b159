/* cmd_gen.c -- `skewsim gen WORKLOAD [options]`: parse argv against the
 * generator table (gen.h, src/trace/gen.c), build the kernel in memory and
 * write it as a native trace (gzip'd when the file name ends in .gz).
 * argv[0] is the subcommand's own name ("gen"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/gen.h"

static void help(FILE *f)
{
    gen_help_usage(f);
    fputs("\n"
          "Write a synthetic kernel as a native trace (docs/trace-format.md, section\n"
          "Generators).  -o FILE: gzip'd when FILE ends in .gz; - or none: stdout.\n"
          "\n", f);
    gen_help_workloads(f);
}

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

int cmd_gen(int argc, char **argv)
{
    const char *out = "-";
    char list[128];

    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        help(stdout);
        return 0;
    }
    if (argc < 2)
        return usage_error("gen: expected a workload: %s", gen_workload_list(list, sizeof list));
    const char *wl = argv[1];
    const gen_workload *w = gen_find(wl);
    if (!w)
        return usage_error("gen: %s: expected a workload: %s", wl, gen_workload_list(list, sizeof list));
    long v[GEN_MAX_OPTS];
    gen_defaults(w, v);

    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        char opt[32];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            help(stdout);
            return 0;
        }
        /* --opt VALUE and --opt=VALUE */
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(opt, sizeof opt, "%.*s", (int)SK_MIN(len, sizeof opt - 1), arg);
        int o = gen_find_opt(w, opt, strlen(opt));
        int is_out = strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0;
        if (o < 0 && !is_out) {
            char flags[128];
            return usage_error("gen %s: %s: expected %s or -o", wl, arg, gen_opt_list(w, NULL, flags, sizeof flags));
        }
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
        if (gen_opt_value(&w->opts[o], val, &v[o]) < 0) {
            char what[96];
            return usage_error("gen %s: %s: %s: expected %s", wl, opt, val,
                               gen_opt_expect(&w->opts[o], what, sizeof what));
        }
    }

    sk_error e = {0};
    kernel k;
    long repeat;
    if (gen_build(w, v, &k, &repeat, &e) < 0)
        return cli_fail(&e);
    int r = gen_write(out, &k, repeat, &e);
    kernel_free(&k);
    if (r < 0)
        return cli_fail(&e);
    return 0;
}
