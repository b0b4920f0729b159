/* cmd_plot.c -- `skewsim plot KIND DIR -o FILE.svg`: one figure from a run
 * or sweep directory, drawn by the plot library (include/skewsim/plot.h,
 * docs/figures.md).  This file parses the command line and reads the
 * inputs the kind needs; the library draws. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "skewsim/plot.h"

#define USAGE "skewsim plot KIND DIR -o FILE.svg [-c CONFIG] [--set key=value ...] | plot --list"

/* -c CONFIG is the config the run used; for a sweep point (DIR/point.json)
 * the sweep's config, to which the point's overrides and seed are applied. */

static void list_kinds(FILE *f)
{
    size_t n;
    const plot_kind *k = plot_kinds(&n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-13s %s%s\n", k[i].name, k[i].help,
                (k[i].needs & PLOT_NEEDS_CONFIG) ? " [needs -c CONFIG]" : "");
}

int cmd_plot(int argc, char **argv)
{
    cli_out_args args = {.cmd = "plot", .usage = USAGE, .maxpos = 2, .help_ok = 1};
    int status = 0;
    sk_error e = {0};
    plot_run run;
    plot_sweep sw;
    memset(&run, 0, sizeof run);
    memset(&sw, 0, sizeof sw);
    cfg c;
    char *text = NULL, *cfg_in_dir = NULL;

    if (cli_parse_out_args(&args, argc, argv, &e) < 0)
        goto fail;
    if (args.help) {
        printf("usage: %s\nkinds:\n", USAGE);
        list_kinds(stdout);
        free(args.sets);
        return 0;
    }
    const char *kind = args.pos[0], *dir = args.pos[1], *out = args.out, *cpath = args.cpath;
    char **sets = args.sets;
    int nsets = args.nsets;
    if (!kind || !dir || !out) {
        sk_errorf(&e, SK_EUSAGE, "plot: missing %s: expected %s", !kind ? "KIND" : !dir ? "DIR" : "-o FILE.svg",
                  USAGE);
        goto fail;
    }
    const plot_kind *k = plot_kind_find(kind);
    plot_input in = {.label = dir};
    if (!k) {
        plot_render(kind, &in, NULL, &e);   /* the message that lists the kinds */
        goto fail;
    }
    if ((k->needs & PLOT_NEEDS_CONFIG) && !cpath) {
        /* A run directory that carries its effective config needs no -c. */
        size_t n = strlen(dir) + sizeof "/config.yaml";
        cfg_in_dir = xmalloc(n);
        snprintf(cfg_in_dir, n, "%s/config.yaml", dir);
        if (access(cfg_in_dir, R_OK) == 0) {
            cpath = cfg_in_dir;
        } else {
            sk_errorf(&e, SK_EUSAGE, "plot %s: needs the chip config the run used: -c CONFIG "
                      "(%s has no config.yaml)", kind, dir);
            goto fail;
        }
    }
    /* A config given to a kind that draws without one is still checked, so
     * that a script passing -c to every kind hears about a bad one. */
    if (cpath || nsets) {
        if (cli_load_config(&c, cpath, sets, nsets, &e) < 0)
            goto fail;
        /* A sweep point: -c is the sweep's config, point.json the rest. */
        if (plot_point_apply(dir, &c, &e) < 0)
            goto fail;
        in.cfg = &c;
    }
    if (k->needs & PLOT_NEEDS_RUN) {
        if (plot_run_load(&run, dir, &e) < 0)
            goto fail;
        in.run = &run;
    }
    if (k->needs & PLOT_NEEDS_SWEEP) {
        if (plot_sweep_load(&sw, dir, &e) < 0)
            goto fail;
        in.sweep = &sw;
    }
    size_t len;
    text = plot_render(kind, &in, &len, &e);
    if (!text || plot_write_file(out, text, len, &e) < 0)
        goto fail;
    goto done;
fail:
    status = cli_fail(&e);
done:
    free(text);
    free(cfg_in_dir);
    plot_run_free(&run);
    plot_sweep_free(&sw);
    free(args.sets);
    return status;
}
