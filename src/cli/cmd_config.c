/* cmd_config.c -- `skewsim config`, which prints the effective configuration
 * (--dump) or the list of keys (--help-config), and cli_load_config(), the
 * one way every subcommand builds its cfg, so that `config --dump` shows
 * exactly what `run` would simulate with the same -c and --set arguments. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define USAGE "skewsim config [-c FILE] [--set KEY=VALUE ...] (--dump [--with-help] | --help-config)"

int cli_load_config(cfg *c, const char *path, char **sets, int nsets, sk_error *e)
{
    int rc;
    cfg_defaults(c);
    if (path && (rc = cfg_load_file(c, path, e)) != 0)
        return rc;
    for (int i = 0; i < nsets; i++)
        if ((rc = cfg_set(c, sets[i], e)) != 0)
            return rc;
    /* a cross check's error names the file line (or --set) that set its key */
    if ((rc = cfg_validate(c, e)) != 0)
        cfg_locate_error(path, sets, nsets, e);
    return rc;
}

/* The value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"), or NULL
 * when argv[*i] is not `opt`.  Sets *missing when the value is absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
    size_t n = strlen(opt);
    const char *a = argv[*i];
    if (strncmp(a, opt, n) != 0)
        return NULL;
    if (a[n] == '=' && opt[1] == '-')   /* only long options take "=VALUE" */
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* argv[0] is the subcommand's name; options start at argv[1]. */
int cmd_config(int argc, char **argv)
{
    const char *path = NULL;
    int dump = 0, with_help = 0, help_config = 0, nsets = 0;
    char **sets = xcalloc((size_t)argc + 1, sizeof *sets);
    sk_error e = { 0 };
    int status;

    for (int i = 1; i < argc && e.code == 0; i++) {
        const char *a = argv[i], *v;
        int missing = 0;
        if ((v = opt_value(argc, argv, &i, "-c", &missing))
            || (v = opt_value(argc, argv, &i, "--config", &missing))) {
            if (path)
                sk_errorf(&e, SK_EUSAGE, "config: -c given twice (usage: %s)", USAGE);
            path = v;
        } else if ((v = opt_value(argc, argv, &i, "--set", &missing))) {
            sets[nsets++] = (char *)v;
        } else if (missing) {
            sk_errorf(&e, SK_EUSAGE, "config: %s needs a value (usage: %s)", a, USAGE);
        } else if (strcmp(a, "--dump") == 0) {
            dump = 1;
        } else if (strcmp(a, "--with-help") == 0) {
            with_help = 1;
        } else if (strcmp(a, "--help-config") == 0) {
            help_config = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf("usage: %s\n", USAGE);
            free(sets);
            return 0;
        } else {
            sk_errorf(&e, SK_EUSAGE, "config: unknown argument '%s' (usage: %s)", a, USAGE);
        }
    }
    if (e.code == 0 && dump + help_config != 1)
        sk_errorf(&e, SK_EUSAGE, "config: expected exactly one of --dump and --help-config "
                  "(usage: %s)", USAGE);
    if (e.code == 0 && with_help && !dump)
        sk_errorf(&e, SK_EUSAGE, "config: --with-help goes with --dump (usage: %s)", USAGE);

    if (e.code == 0) {
        if (help_config) {
            cfg_help(stdout);
        } else {
            cfg c;
            if (cli_load_config(&c, path, sets, nsets, &e) == 0)
                cfg_dump(&c, stdout, with_help);
        }
        /* A full disk or closed pipe must not pass for a finished dump. */
        if (e.code == 0 && (fflush(stdout) != 0 || ferror(stdout)))
            sk_errorf(&e, SK_EIO, "stdout: write error: %s", strerror(errno));
    }
    free(sets);
    status = e.code ? cli_fail(&e) : 0;
    return status;
}
