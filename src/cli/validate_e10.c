/* validate_e10.c -- the unit table against E10 (validation/h200/README.md):
 * each measured chain is simulated and its cycles per instruction (one
 * warp, one dependent chain) or warp-instructions per cycle (a full SM, 8
 * independent chains a thread, 4 for HMMA) compared with the chip's.
 *
 * The simulated kernels are the measured ones reduced to their chains: the
 * instruction as the listing names it, its stall count read from the
 * listing (e10.sass.gz, through src/trace/sass.c: the most common count of
 * that mnemonic in the function, which is the chain's), and clock marks
 * around the loop, each after a CTA barrier, as the probe reads clock64();
 * for the issue rates, the CTA's whole span instead (its first instruction
 * to its last warp's exit), because under GTO the model's warp 0 can wait
 * up to sm.starvation_cycles after the first barrier before it reads the
 * clock, which the chip's warp 0 does not (see docs/calibration.md).  A pointer chase's step is
 * the load and the address op the listing puts between two loads.  Loop
 * overhead (a counter and a branch per 16 chain steps) is left out.
 *
 * A row is judged (PASS within 10 %) only where configs/h200.yaml took the
 * value from elsewhere; where it was set from this very row (marked
 * "fitted"), agreement is by construction and only printed.  Loads that
 * hit in L1 or L2 are printed as not modelled: the model has no caches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/results.h"
#include "skewsim/sass.h"
#include "skewsim/sim.h"
#include "skewsim/trace.h"

#define E10_TOL 0.10

typedef struct e10_row {
    const char *op;           /* e10_latency.csv op */
    const char *mn;           /* mnemonic in the listing and in the trace */
    const char *fn_lat, *fn_tput;  /* listing functions: one chain, the independent chains */
    int ways;                 /* independent chains per thread in the tput kernel */
    double per;               /* chain steps per instruction (ptxas merged two adds into one IADD3) */
    const char *fit_lat, *fit_tput;  /* config key set from this row, or NULL: judged */
    const char *addr;         /* pointer chases: the address op between two loads */
    int block;                /* lat rows: threads of the CTA (0: one warp) */
} e10_row;

static const e10_row rows[] = {
    {"ffma", "FFMA", "_Z5chainILi0ELi1EEvPmPjj", "_Z5chainILi0ELi8EEvPmPjj", 8, 1, NULL, NULL, NULL, 0},
    {"imad", "IMAD", "_Z5chainILi1ELi1EEvPmPjj", "_Z5chainILi1ELi8EEvPmPjj", 8, 1, NULL, NULL, NULL, 0},
    {"iadd3", "IADD3", "_Z5chainILi2ELi1EEvPmPjj", "_Z5chainILi2ELi8EEvPmPjj", 8, 2, NULL, NULL, NULL, 0},
    {"dfma", "DFMA", "_Z5chainILi3ELi1EEvPmPjj", "_Z5chainILi3ELi8EEvPmPjj", 8, 1, NULL, NULL, NULL, 0},
    {"hfma2", "HFMA2", "_Z5chainILi4ELi1EEvPmPjj", "_Z5chainILi4ELi8EEvPmPjj", 8, 1, NULL, "units.fp16.ii_cycles", NULL, 0},
    {"mufu_ex2", "MUFU.EX2", "_Z5chainILi5ELi1EEvPmPjj", "_Z5chainILi5ELi8EEvPmPjj", 8, 1, "units.sfu.lat_cycles",
     NULL, NULL, 0},
    {"mufu_rsq", "MUFU.RSQ", "_Z5chainILi6ELi1EEvPmPjj", "_Z5chainILi6ELi8EEvPmPjj", 8, 1, "units.sfu.lat_cycles",
     NULL, NULL, 0},
    {"shfl", "SHFL.BFLY", "_Z5chainILi7ELi1EEvPmPjj", "_Z5chainILi7ELi8EEvPmPjj", 8, 1, "units.ldst.lat_cycles",
     NULL, NULL, 0},
    {"hmma", "HMMA.16816.F32.BF16", "_Z9mma_chainILi1EEvPmPjj", "_Z9mma_chainILi4EEvPmPjj", 4, 1, NULL,
     "units.tensor.ii_cycles", NULL, 0},
    {"bar_w1", "BAR.SYNC.DEFER_BLOCKING", "_Z9bar_chainPm", NULL, 1, 1, "sm.barrier_cycles", NULL, NULL, 32},
    {"bar_w4", "BAR.SYNC.DEFER_BLOCKING", "_Z9bar_chainPm", NULL, 1, 1, NULL, NULL, NULL, 128},
    {"bar_w8", "BAR.SYNC.DEFER_BLOCKING", "_Z9bar_chainPm", NULL, 1, 1, NULL, NULL, NULL, 256},
    {"bar_w32", "BAR.SYNC.DEFER_BLOCKING", "_Z9bar_chainPm", NULL, 1, 1, "sm.barrier_arrive_cycles", NULL, NULL,
     1024},
    {"lds", "LDS", "_Z5chaseILi0EEvPKjjPmPj", NULL, 0, 1, "memory.smem_latency_cycles", NULL, "IMAD", 0},
    {"ldg_l1", NULL, NULL, NULL, 0, 1, NULL, NULL, NULL, 0},
    {"ldg_l2", NULL, NULL, NULL, 0, 1, NULL, NULL, NULL, 0},
    {"ldg_dram", "LDG.E.STRONG.GPU", "_Z5chaseILi2EEvPKjjPmPj", NULL, 0, 1, "memory.latency_ns", NULL,
     "IMAD.WIDE.U32", 0},
};

/* The most common stall count of mnemonic mn in function fn (the chain's:
 * a chain step outnumbers any other use of the mnemonic). */
static int listing_stall(const sass *s, const char *fn, const char *mn, sk_error *e)
{
    int f = sass_function(s, fn, 90);
    if (f < 0)
        return sk_errorf(e, SK_ETRACE, "e10.sass.gz: no function %s for sm_90", fn);
    size_t n;
    const sass_instr *code = sass_code(s, f, &n);
    int count[16] = {0};
    for (size_t i = 0; i < n; i++)
        if (strcmp(code[i].op, mn) == 0)
            count[code[i].stall]++;
    int best = 0;
    for (int k = 1; k < 16; k++)
        if (count[k] > count[best])
            best = k;
    if (count[best] == 0)
        return sk_errorf(e, SK_ETRACE, "e10.sass.gz: function %s has no %s", fn, mn);
    return best ? best : 1;
}

/* Simulate one CTA of `block` threads running `steps` iterations of `ways`
 * independent chains of mn (each step followed by the address op `addr`
 * when not NULL); *cycles gets its clock-mark span. */
static int simulate_chain(const cfg *c, const char *mn, int stall, const char *addr, int addr_stall, int ways,
                          int block, int steps, const char *extra, int marks, double *cycles, sk_error *e)
{
    char body[1024] = "";
    for (int w = 0; w < ways; w++) {
        size_t len = strlen(body);
        snprintf(body + len, sizeof body - len, "  %s R%d <- R%d %s stall=%d\n", mn, w, w, extra, stall);
        if (addr) {
            len = strlen(body);
            snprintf(body + len, sizeof body - len, "  %s R%d <- R%d stall=%d\n", addr, w, w, addr_stall);
        }
    }
    char text[2048];
    snprintf(text, sizeof text,
             "skewsim-trace 1\nkernel e10 grid=1 block=%d regs=32\nprogram main\n"
             "BAR.SYNC\nCS2R R20 %s\nloop %d\n%send\nBAR.SYNC\nCS2R R21 %s\nEXIT\nend\nendkernel\n",
             block, marks ? "clock=start" : "", steps, body, marks ? "clock=end" : "");
    trace *tr = trace_open_string("e10", text, e);
    if (!tr)
        return e->code;
    results *r = run_simulate(c, tr, e);
    trace_close(tr);
    if (!r)
        return e->code;
    *cycles = results_nctas(r) == 1 ? (double)results_cta(r, 0)->cycles : NAN;
    results_free(r);
    return 0;
}

int validate_e10(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/e10_latency.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    snprintf(path, sizeof path, "%s/e10.sass.gz", dir);
    sass *listing = sass_load(path, e);
    if (!listing) {
        fclose(f);
        return e->code;
    }
    printf("\nE10 unit table: dependent latency (cycles) and issue rate (warp-instr/cycle/SM)\n");
    printf("%-6s %-9s %-5s %9s %9s %7s  %s\n", "", "op", "mode", "measured", "simulated", "error", "");
    char line[256];
    int rc = 0, lineno = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        if (++lineno == 1)
            continue;
        char op[32], mode[8];
        double meas;
        if (sscanf(line, "%31[^,],%7[^,],%lf", op, mode, &meas) != 3) {
            rc = sk_errorf(e, SK_ETRACE, "%s/e10_latency.csv:%d: expected op,mode,value,unit", dir, lineno);
            break;
        }
        const e10_row *row = NULL;
        for (size_t i = 0; i < SK_ARRAY_LEN(rows); i++)
            if (strcmp(rows[i].op, op) == 0)
                row = &rows[i];
        if (!row || !row->mn) {
            printf("info   %-9s %-5s %9.1f %9s %7s  %s\n", op, mode, meas, "-", "-",
                   c->mem_model == MEM_MODEL_FLAT ? "not modelled (no caches)"
                                                  : "not simulated here: E11's chases (--only e11)");
            continue;
        }
        int tput = strcmp(mode, "tput") == 0;
        if ((tput && !row->fn_tput) || (!tput && strcmp(mode, "lat") != 0)) {
            rc = sk_errorf(e, SK_ETRACE, "%s/e10_latency.csv:%d: %s,%s: expected %s", dir, lineno, op, mode,
                           row->fn_tput ? "mode lat or tput" : "mode lat (no issue-rate kernel for it)");
            break;
        }
        const char *fit = tput ? row->fit_tput : row->fit_lat;
        if (fit && !strcmp(fit, "memory.latency_ns") && c->mem_model != MEM_MODEL_FLAT)
            fit = NULL;   /* flat memory's key: the hierarchy's DRAM chase is a prediction */
        int load = strncmp(row->mn, "LD", 2) == 0;
        const char *fn = tput ? row->fn_tput : row->fn_lat;
        int stall = listing_stall(listing, fn, row->mn, e);
        int astall = stall < 0 || !row->addr ? 1 : listing_stall(listing, fn, row->addr, e);
        if (stall < 0 || astall < 0) {
            rc = e->code;
            break;
        }
        double cyc = 0, got;
        int steps = load ? 1024 : 4096;
        const char *extra = strncmp(row->mn, "LDG", 3) == 0 ? "bytes=4 pattern=uniform" : "";
        /* Under the hierarchy the DRAM chase needs the probe's addresses
         * (validation/h200/probe/e10_latency.cu, run_chase "ldg_dram"): a
         * ring of 2 GiB whose steps are 1040 words (4 KiB + 64 B) apart,
         * every lane on one word, timed from half way round, where the
         * untimed first run did not reach: cold lines, a new page a hop. */
        if (!strcmp(row->op, "ldg_dram") && c->mem_model != MEM_MODEL_FLAT)
            extra = "bytes=4 pattern=uniform addr=0x7f0040000000 lane=0 iter=4160 ws=2147483648";
        if (tput) {
            rc = simulate_chain(c, row->mn, stall, row->addr, astall, row->ways, 1024, 512, extra, 0, &cyc, e);
            got = 32.0 * row->ways * 512 / cyc * row->per;
        } else {
            rc = simulate_chain(c, row->mn, stall, row->addr, astall, 1, row->block ? row->block : 32,
                                (int)(steps / row->per), extra, 1, &cyc, e);
            got = cyc / steps;
        }
        if (rc < 0)
            break;
        double err = (got - meas) / meas;
        int ok = fabs(err) <= E10_TOL;
        if (!fit)
            *fails += !ok;
        printf("%-6s %-9s %-5s %9.2f %9.2f %+6.1f%%  %s%s\n", fit ? "info" : ok ? "PASS" : "FAIL", op, mode, meas,
               got, 100 * err, fit ? "fitted: " : "predicted", fit ? fit : "");
    }
    fclose(f);
    sass_free(listing);
    return rc;
}
