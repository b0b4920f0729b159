/* main.c -- `skewsim <command> ...`: the only layer that prints errors and
 * chooses exit statuses (documented in README.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/version.h"

int cli_fail(const sk_error *e)
{
    fprintf(stderr, "skewsim: %s\n", e->msg[0] ? e->msg : sk_strerror(e->code));
    return sk_exit_status(e->code ? e->code : SK_ESIM);
}

/* The one flag a signal handler may write (it has nowhere else to write);
 * sweep and compare hand it to their engine as opts.stop. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

const volatile sig_atomic_t *cli_stop_flag(void)
{
    return &stop_signal;
}

void cli_catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    /* Decimal digits only: strtoull alone would skip blanks and take "-1"
     * as its wrap-around. */
    if (!s || !*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_uint(const char *s, long max, long *out)
{
    uint64_t v;
    if (max < 0 || cli_parse_u64(s, (uint64_t)max, &v) < 0)
        return -1;
    *out = (long)v;
    return 0;
}

static void usage(FILE *f)
{
    fputs("usage: skewsim <command> [options]\n"
          "\n"
          "commands:\n"
          "  run -c CONFIG -t TRACE -o DIR [--seed N] [--set key=value ...] [--sass LISTING]\n"
          "      [--timeline FILE.json [--timeline-max-events N]] [--explain[=dispatch,issue] [--explain-window A:B]]\n"
          "                      simulate a trace; writes DIR/summary.json, ctas.csv and epochs.csv; a\n"
          "                      Perfetto timeline; every scheduling decision with its reason\n"
          "  gen fma|stream|gemm|coop [options] -o FILE\n"
          "                      write a synthetic kernel as a trace (.gz: gzip'd; 'skewsim gen --help')\n"
          "  import accelsim PATH -o FILE [--sass LISTING]\n"
          "                      convert an Accel-Sim trace (directory, kernelslist.g or kernel-N.traceg)\n"
          "                      to the native format (.gz: gzip'd; docs/accelsim.md)\n"
          "  config [-c CONFIG] [--set key=value ...] (--dump | --help-config)\n"
          "                      print the effective configuration, or every key\n"
          "  sweep SPEC -o DIR [-j N] [--shard K/N] [--force] [--collect] [--list] [--slurm ...] [--timeline]\n"
          "                      run every point of a parameter sweep (docs/sweeps.md)\n"
          "  compare -c CONFIG -t TRACE... --cta-policies A,B --warp-policies X,Y\n"
          "          --silicon uniform,skewed[,file:F] --seeds N [-j J] [--baseline NAME] -o DIR\n"
          "                      compare schedulers across seeds (docs/schedulers.md)\n"
          "  collect DIR         a sweep's results as one tidy table: DIR/results.csv, results.json\n"
          "  plot KIND DIR -o FILE.svg [-c CONFIG] | plot --list\n"
          "                      a figure of a run or sweep directory (docs/figures.md)\n"
          "  report DIR [-o FILE.html] [-c CONFIG]\n"
          "                      one self-contained HTML page for a run or sweep directory\n"
          "  validate -c CONFIG -d DIR [--grids G,G,...]\n"
          "                      simulate the H200 measurements in DIR and compare\n"
          "  topo -c CONFIG [--set key=value ...] [--green N]\n"
          "                      print each SM's TPC, GPC and cluster group; --green N: first the SMs\n"
          "                      of a green context of N SMs, then those left over (docs/topology.md)\n"
          "  validate -c CONFIG --measured DIR [--fitted FILE] [--only FAMILY,...] [--max-mape X]\n"
          "                      simulate every kernel of a capture directory (tools/capture)\n"
          "  version             print the version\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("skewsim: missing command: expected run, gen, config, validate, import, sweep, compare, collect, plot, report, topo or version "
              "('skewsim help' lists them)\n", stderr);
        return 1;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "gen"))
        return cmd_gen(argc - 1, argv + 1);
    if (!strcmp(cmd, "config"))
        return cmd_config(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return cmd_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "import"))
        return cmd_import(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep"))
        return cmd_sweep(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "topo"))
        return cmd_topo(argc - 1, argv + 1);
    if (!strcmp(cmd, "collect"))
        return cmd_collect(argc - 1, argv + 1);
    if (!strcmp(cmd, "plot"))
        return cmd_plot(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("skewsim %s (%s)\n", sk_version(), sk_commit());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "skewsim: unknown command '%s': expected run, gen, config, validate, import, sweep, compare, collect, plot, report, topo or version\n", cmd);
    return 1;
}
