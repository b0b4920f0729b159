/* cmd_report.c -- `skewsim report DIR [-o FILE.html]`: one self-contained
 * HTML page for a run or sweep directory (include/skewsim/report.h).  This
 * file parses the command line and loads the optional config; the library
 * builds the page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/plot.h"
#include "skewsim/report.h"
#include "skewsim/version.h"

#define USAGE "skewsim report DIR [-o FILE.html] [-c CONFIG] [--set key=value ...]"

int cmd_report(int argc, char **argv)
{
    cli_out_args args = {.cmd = "report", .usage = USAGE, .maxpos = 1};
    int status = 0;
    sk_error e = {0};
    char *page = NULL, *outp = NULL, *cmdline = NULL;
    cfg c;

    if (cli_parse_out_args(&args, argc, argv, &e) < 0)
        goto fail;
    const char *dir = args.pos[0], *out = args.out, *cpath = args.cpath;
    char **sets = args.sets;
    int nsets = args.nsets;
    if (!dir) {
        sk_errorf(&e, SK_EUSAGE, "report: missing DIR: expected %s", USAGE);
        goto fail;
    }
    if ((cpath || nsets) && cli_load_config(&c, cpath, sets, nsets, &e) < 0)
        goto fail;
    /* The command line as given, for the page's provenance. */
    size_t n = 1;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    cmdline = xcalloc(n + 8, 1);
    strcpy(cmdline, "skewsim");
    for (int i = 0; i < argc; i++) {
        strcat(cmdline, " ");
        strcat(cmdline, argv[i]);
    }
    char version[128];
    snprintf(version, sizeof version, "%s (%s)", sk_version(), sk_commit());
    report_opts o = {.dir = dir, .cfg = (cpath || nsets) ? &c : NULL, .cfg_label = cpath, .cmdline = cmdline,
                     .version = version};
    size_t len;
    page = report_render(&o, &len, &e);
    if (!page)
        goto fail;
    if (!out) {
        size_t m = strlen(dir) + sizeof "/report.html";
        outp = xmalloc(m);
        snprintf(outp, m, "%s/report.html", dir);
        out = outp;
    }
    if (plot_write_file(out, page, len, &e) < 0)
        goto fail;
    printf("report: %s\n", out);
    goto done;
fail:
    status = cli_fail(&e);
done:
    free(page);
    free(outp);
    free(cmdline);
    free(args.sets);
    return status;
}
