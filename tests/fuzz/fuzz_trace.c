/* fuzz_trace.c -- libFuzzer target for the native trace reader, its writer
 * and the simulator behind them.
 *
 * One input is a trace file.  It is read three ways:
 *  1. from memory (trace_open_string, the input up to its first NUL): every
 *     kernel is checked for the invariants the SM model relies on (program
 *     0 exists, every program ends in EXIT, loop and ifwarp markers pair up
 *     and jump inside the program, register and opcode indices are in
 *     range, CTAs come in increasing id order below the grid with a valid
 *     program and work factor), and written back with trace_write_kernel()
 *     and read again: the same instruction arrays;
 *  2. when it holds a NUL byte or starts like gzip, from a file holding the
 *     raw bytes (trace_open), so that NUL bytes and gzip streams (whole or
 *     corrupt) go through zlib's gz* layer;
 *  3. simulated on a small chip (one of 2^11 variants of policies and
 *     delays, picked by a hash of the input) with sim.max_time_ns = 1 us,
 *     so that whatever the reader accepts is also run (a loop of 2^32
 *     iterations stops at the time limit, as documented), and a run that
 *     finishes must have issued exactly the warp-instructions a walk of
 *     the programs counts for every warp of every CTA.
 * Every failure must be one line with the right code: SK_ETRACE (bad trace),
 * SK_EFIT (a CTA that cannot fit), SK_ESIM (time limit or deadlock), never a
 * crash, a hang or a leak.
 *
 * The same file is compiled into `make check` (tests/test_bad.c includes it
 * with FUZZ_ENTRY renamed) to replay the seed corpus and every crash kept
 * under tests/fuzz/regressions/trace/.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skewsim/program.h"
#include "skewsim/results.h"
#include "skewsim/sim.h"
#include "skewsim/trace.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

#define FT_NAME "fuzz.trace"
#define FT_MAX_CTAS 4096          /* CTAs asked for per kernel; the reader drains the rest */

int FUZZ_ENTRY(const uint8_t *data, size_t size);

#define FT_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz_trace: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            abort();                                                         \
        }                                                                    \
    } while (0)

static void ft_check_error(const sk_error *e, int rc, const char *prefix, int ok1, int ok2, int ok3)
{
    FT_CHECK(rc == e->code, "returned %d, recorded %d (%s)", rc, e->code, e->msg);
    FT_CHECK(rc == ok1 || rc == ok2 || rc == ok3, "code %d: %s", rc, e->msg);
    FT_CHECK(e->msg[0] != '\0', "empty message");
    FT_CHECK(strchr(e->msg, '\n') == NULL, "message spans lines: %s", e->msg);
    if (prefix)
        FT_CHECK(strncmp(e->msg, prefix, strlen(prefix)) == 0, "message without '%s': %s", prefix,
                 e->msg);
}

/* What the SM model assumes of a program (sm.c settle/issue). */
static void ft_check_program(const kernel *k, const program *p)
{
    uint32_t stack[64];
    int depth = 0, loops = 0;
    uint32_t warps = (k->block_threads + 31) / 32;
    FT_CHECK(p->n > 0 && p->code[p->n - 1].kind == IK_EXIT, "program %s does not end in EXIT", p->name);
    FT_CHECK(p->nregs <= PROG_MAX_REGS, "%u registers", p->nregs);
    for (uint32_t i = 0; i < p->n; i++) {
        const instr *in = &p->code[i];
        FT_CHECK(in->opcode < p->nopnames, "entry %u: opcode %u of %u", i, in->opcode, p->nopnames);
        FT_CHECK(in->cls < FU_NCLASS, "entry %u: class %u", i, in->cls);
        FT_CHECK(in->stall >= 1 && in->stall <= 15, "entry %u: stall %u", i, in->stall);
        FT_CHECK(in->ndst <= PROG_MAX_DST && in->nsrc <= PROG_MAX_SRC, "entry %u: operands", i);
        for (int j = 0; j < in->ndst; j++)
            FT_CHECK(in->dst[j] < p->nregs, "entry %u: dst %u of %u", i, in->dst[j], p->nregs);
        for (int j = 0; j < in->nsrc; j++)
            FT_CHECK(in->src[j] < p->nregs, "entry %u: src %u of %u", i, in->src[j], p->nregs);
        switch (in->kind) {
        case IK_LOOP:
        case IK_IFWARP:
            FT_CHECK(depth < 64, "entry %u: blocks nested %d deep", i, depth + 1);
            FT_CHECK(in->jump > i && in->jump <= p->n, "entry %u: jump %u", i, in->jump);
            FT_CHECK(p->code[in->jump - 1].arg == i, "entry %u: its end does not point back", i);
            FT_CHECK(p->code[in->jump - 1].kind == (in->kind == IK_LOOP ? IK_ENDLOOP : IK_ENDIF),
                     "entry %u: wrong end marker", i);
            if (in->kind == IK_IFWARP)
                FT_CHECK(in->arg < warps, "entry %u: ifwarp %u with %u warps", i, in->arg, warps);
            loops += in->kind == IK_LOOP;
            FT_CHECK(loops <= PROG_MAX_LOOP_DEPTH, "entry %u: loops nested %d deep", i, loops);
            stack[depth++] = i;
            break;
        case IK_ENDLOOP:
        case IK_ENDIF:
            FT_CHECK(depth > 0 && stack[depth - 1] == in->arg, "entry %u: unmatched end", i);
            loops -= in->kind == IK_ENDLOOP;
            depth--;
            break;
        default:
            FT_CHECK(in->kind <= IK_EXIT, "entry %u: kind %u", i, in->kind);
            if (in->kind == IK_LD_GLOBAL || in->kind == IK_ST_GLOBAL || in->kind == IK_LD_SHARED ||
                in->kind == IK_ST_SHARED)
                FT_CHECK(in->bytes >= 1 && in->bytes <= 16, "entry %u: %u bytes", i, in->bytes);
            break;
        }
    }
    FT_CHECK(depth == 0, "program %s: %d blocks left open", p->name, depth);
}

static void ft_check_kernel(const kernel *k)
{
    FT_CHECK(k->name && k->nprogs >= 1, "kernel without a program");
    FT_CHECK(k->grid >= 1 && k->grid <= (UINT64_C(1) << 32), "grid %llu", (unsigned long long)k->grid);
    FT_CHECK(k->block_threads >= 1 && k->block_threads <= 1024, "block %u", k->block_threads);
    FT_CHECK(k->regs_per_thread >= 1 && k->regs_per_thread <= 255, "regs %u", k->regs_per_thread);
    for (uint32_t i = 0; i < k->nprogs; i++) {
        ft_check_program(k, &k->progs[i]);
        (void)prog_dynamic_count(&k->progs[i], 1.0);
        (void)prog_dynamic_count(&k->progs[i], 1e6);
    }
}

/* Write k and read it back: the same arrays (only instr.line may differ). */
static void ft_round_trip(const kernel *k)
{
    char path[] = "/tmp/skewsim-fuzz-rt-XXXXXX";
    int fd = mkstemp(path);
    FT_CHECK(fd >= 0, "mkstemp");
    close(fd);
    sk_error e = {0};
    int rc = trace_write_kernel(path, k, 0, &e);
    if (rc != 0) {
        /* Names the format cannot express are refused, not mangled. */
        ft_check_error(&e, rc, NULL, SK_ETRACE, SK_ETRACE, SK_ETRACE);
        remove(path);
        return;
    }
    trace *t = trace_open(path, &e);
    FT_CHECK(t != NULL, "the writer's output does not open: %s", e.msg);
    kernel b;
    rc = trace_next_kernel(t, &b, &e);
    FT_CHECK(rc == 1, "the writer's output does not read back: %s", e.msg);
    FT_CHECK(strcmp(b.name, k->name) == 0 && b.grid == k->grid && b.nprogs == k->nprogs &&
             b.block_threads == k->block_threads && b.regs_per_thread == k->regs_per_thread &&
             b.smem_bytes == k->smem_bytes, "kernel header changed in a write/read round trip");
    for (uint32_t i = 0; i < k->nprogs; i++) {
        const program *x = &k->progs[i], *y = &b.progs[i];
        FT_CHECK(strcmp(x->name, y->name) == 0 && x->n == y->n && x->nregs == y->nregs,
                 "program %s changed in a round trip", x->name);
        for (uint32_t j = 0; j < x->n; j++) {
            instr a = x->code[j], c = y->code[j];
            a.line = c.line = 0;
            FT_CHECK(memcmp(&a, &c, sizeof a) == 0, "program %s entry %u changed in a round trip",
                     x->name, j);
        }
    }
    kernel_free(&b);
    trace_close(t);
    remove(path);
}

/* Read every kernel; ask for at most FT_MAX_CTAS CTAs of each. */
static void ft_read(trace *t, const char *prefix, int deep)
{
    sk_error e = {0};
    kernel k;
    int rc;
    while ((rc = trace_next_kernel(t, &k, &e)) == 1) {
        if (deep) {
            ft_check_kernel(&k);
            ft_round_trip(&k);
        }
        cta_desc d;
        uint64_t want = 0;
        int n = 0;
        while (n < FT_MAX_CTAS && (rc = trace_next_cta(t, &d, &e)) == 1) {
            FT_CHECK(d.id == want, "CTA %llu where %llu was due", (unsigned long long)d.id,
                     (unsigned long long)want);
            FT_CHECK(d.id < k.grid && d.prog < k.nprogs, "CTA %llu: program %u",
                     (unsigned long long)d.id, d.prog);
            FT_CHECK(d.work >= 0 && d.work <= 1e6, "work %g", d.work);
            want++;
            n++;
        }
        kernel_free(&k);
        if (rc < 0)
            break;
    }
    if (rc < 0) {
        ft_check_error(&e, rc, prefix, SK_ETRACE, SK_EIO, SK_ETRACE);
        /* The first error is sticky. */
        sk_error e2 = {0};
        FT_CHECK(trace_next_kernel(t, &k, &e2) == rc && strcmp(e2.msg, e.msg) == 0,
                 "error not sticky: %s then %s", e.msg, e2.msg);
    }
}

/* The raw bytes in a file that lives as long as the process: unlinked at
 * once and reached through /proc/self/fd, so nothing is left behind. */
static const char *ft_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        char tmpl[] = "/tmp/skewsim-fuzz-XXXXXX";
        fd = mkstemp(tmpl);
        FT_CHECK(fd >= 0, "mkstemp");
        unlink(tmpl);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    FT_CHECK(ftruncate(fd, 0) == 0, "ftruncate");
    FT_CHECK(pwrite(fd, data, size, 0) == (ssize_t)size, "pwrite");
    return path;
}

/* A run that finished issued, kernel by kernel, exactly what the programs
 * say each warp of each CTA issues.  Skipped for a kernel with an early
 * EXIT or of more than 4096 CTAs (a finished 1 us run has few). */
static void ft_check_counts(const char *text, const results *r)
{
    sk_error e = {0};
    trace *t = trace_open_string(FT_NAME, text, &e);
    FT_CHECK(t != NULL, "%s", e.msg);
    kernel k;
    for (size_t ki = 0; trace_next_kernel(t, &k, &e) == 1; ki++) {
        FT_CHECK(ki < results_nkernels(r), "kernel %zu ran but was not reported", ki);
        int ok = k.grid <= 4096;
        for (uint32_t p = 0; ok && p < k.nprogs; p++)
            for (uint32_t i = 0; ok && i + 1 < k.progs[p].n; i++)
                ok = k.progs[p].code[i].kind != IK_EXIT;
        uint32_t warps = (k.block_threads + 31) / 32, last_prog = UINT32_MAX;
        double last_work = -1;
        uint64_t per_cta = 0, want = 0;
        cta_desc d;
        while (ok && trace_next_cta(t, &d, &e) == 1) {
            if (d.prog != last_prog || d.work != last_work) {
                per_cta = 0;
                for (uint32_t w = 0; w < warps; w++)
                    per_cta += prog_warp_count(&k.progs[d.prog], d.work, w);
                last_prog = d.prog;
                last_work = d.work;
            }
            want += per_cta;
        }
        if (ok)
            FT_CHECK(results_kernel(r, ki)->warp_instructions == want,
                     "kernel %s issued %llu warp-instructions, its programs say %llu", k.name,
                     (unsigned long long)results_kernel(r, ki)->warp_instructions, (unsigned long long)want);
        kernel_free(&k);
    }
    FT_CHECK(e.code == 0, "a trace that simulated does not read again: %s", e.msg);
    trace_close(t);
}

/* The chip: two SMs, and a variant picked by a hash of the input (warp and
 * dispatch policies, schedulers, issue width, the starvation guard, launch
 * and barrier delays, a tail GPC), so that every policy meets every input
 * the mutator reaches, deterministically. */
static void ft_simulate(const char *text)
{
    static const char *const sets[] = {
        "topology.gpcs=1", "topology.tpcs_per_gpc=1", "topology.sms_per_tpc=2",
        "sm.max_ctas=4", "sm.warp_schedulers=2", "clocks.sm_mhz=1000", "launch.start_ns=0",
        "launch.end_ns=0", "memory.latency_ns=100", "sim.max_time_ns=1000",
    };
    static const char *const variants[][2] = {
        {"sm.warp_policy=gto", "sm.warp_policy=lrr"},
        {"sm.warp_policy=gto", "sm.warp_policy=oldest"},
        {"dispatch.policy=gigathread", "dispatch.policy=round_robin"},
        {"sm.warp_schedulers=2", "sm.warp_schedulers=4"},
        {"sm.issue_width=1", "sm.issue_width=2"},
        {"sm.starvation_cycles=0", "sm.starvation_cycles=20"},
        {"sm.cta_launch_cycles=0", "sm.cta_launch_cycles=7"},
        {"sm.barrier_cycles=1", "sm.barrier_cycles=0"},
        {"dispatch.cta_ps=0", "dispatch.cta_ps=1500"},
        {"units.fp32.count=1", "units.fp32.count=2"},
    };
    uint32_t h = 2166136261u;              /* FNV-1a */
    for (const char *p = text; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    cfg c;
    sk_error e = {0};
    cfg_defaults(&c);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        FT_CHECK(cfg_set(&c, sets[i], &e) == 0, "%s", e.msg);
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        FT_CHECK(cfg_set(&c, variants[i][(h >> i) & 1], &e) == 0, "%s", e.msg);
    if ((h >> 12) & 1) {   /* two GPCs, the second a tail GPC numbered last */
        static const char *const tail[] = {"topology.gpcs=2", "topology.tpcs_per_gpc=1",
                                           "topology.numbering=tpc_round_robin", "topology.tail_gpcs=1",
                                           "dispatch.tail_every_bursts=2", "dispatch.tail_rotate_tpcs=1"};
        for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
            FT_CHECK(cfg_set(&c, tail[i], &e) == 0, "%s", e.msg);
    }
    FT_CHECK(cfg_validate(&c, &e) == 0, "%s", e.msg);
    trace *t = trace_open_string(FT_NAME, text, &e);
    if (!t)
        return;
    results *r = results_open(NULL, &e);
    sim_sink obs = results_sink(r);
    sim *s = sim_create(&c, &obs, 1, &e);
    FT_CHECK(s != NULL, "%s", e.msg);
    int rc = sim_run(s, t, &e);
    if (rc != 0)
        ft_check_error(&e, rc, NULL, SK_ETRACE, SK_EFIT, SK_ESIM);
    else
        ft_check_counts(text, r);
    sim_destroy(s);
    results_free(r);
    trace_close(t);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    FT_CHECK(text != NULL, "malloc");
    memcpy(text, data, size);
    text[size] = '\0';

    sk_error e = {0};
    trace *t = trace_open_string(FT_NAME, text, &e);
    if (!t)
        ft_check_error(&e, e.code, FT_NAME ":", SK_ETRACE, SK_ETRACE, SK_ETRACE);
    else
        ft_read(t, FT_NAME ":", 1);
    trace_close(t);

    /* Text without NUL bytes reads the same from a file (only the 64 KiB
     * read chunks differ, and inputs are smaller): the file is for NUL
     * bytes and gzip streams. */
    if (memchr(data, '\0', size) || (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
        const char *path = ft_file(data, size);
        sk_error ef = {0};
        t = trace_open(path, &ef);
        if (!t)
            ft_check_error(&ef, ef.code, path, SK_ETRACE, SK_EIO, SK_ETRACE);
        else
            ft_read(t, path, 0);
        trace_close(t);
    }

    ft_simulate(text);
    free(text);
    return 0;
}
