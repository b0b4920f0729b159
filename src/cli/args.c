/* args.c -- the command line of the commands that read a finished run or
 * sweep (plot, report): positional words, -o FILE, -c CONFIG and --set
 * key=value in any order, parsed in one place so that both commands give
 * the same messages for the same mistakes. */
#include <string.h>
#include "cli.h"

int cli_parse_out_args(cli_out_args *a, int argc, char **argv, sk_error *e)
{
    a->sets = xcalloc((size_t)argc + 1, sizeof *a->sets);
    a->nsets = 0;
    a->npos = 0;
    a->help = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int has = i + 1 < argc;
        if (a->help_ok && (!strcmp(s, "--list") || !strcmp(s, "--help"))) {
            a->help = 1;
            return 0;
        } else if (!strcmp(s, "-o") && has) {
            a->out = argv[++i];
        } else if (!strcmp(s, "-c") && has) {
            a->cpath = argv[++i];
        } else if (!strcmp(s, "--set") && has) {
            a->sets[a->nsets++] = argv[++i];
        } else if (s[0] == '-') {
            int takes = !strcmp(s, "-o") || !strcmp(s, "-c") || !strcmp(s, "--set");
            return sk_errorf(e, SK_EUSAGE, "%s: %s: %s: expected %s", a->cmd, s,
                             takes ? "missing value" : "unknown option", a->usage);
        } else if (a->npos < a->maxpos && a->npos < CLI_MAX_POS) {
            a->pos[a->npos++] = s;
        } else {
            return sk_errorf(e, SK_EUSAGE, "%s: %s: unexpected argument: expected %s", a->cmd, s, a->usage);
        }
    }
    return 0;
}
