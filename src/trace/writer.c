/* writer.c -- emit a kernel in the native trace format (docs/trace-format.md).
 *
 * The output is what trace.c reads back into the same instruction arrays:
 * loops stay loops (a 4096-iteration kernel is a few KB, not megabytes),
 * registers are printed by the names they were read under (program.regnames),
 * and a guard is printed as the first source, which numbers the same because
 * the reader numbers sources before destinations.  trace_write_kernel()
 * writes one kernel whose CTAs all run program 0 with work 1 (no ctas
 * section); the trace_writer calls write several kernels into one file, each
 * with the CTA table a callback yields, runs of one program merged into
 * `range` records (`skewsim import`).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "skewsim/topo.h"
#include "skewsim/trace.h"
#include "skewsim/memsys.h"

/* Names and mnemonics the writer takes: the reader's lines hold at most
 * 65536 bytes (docs/trace-format.md), and gzprintf() silently writes
 * nothing for a line longer than its buffer (WRITE_BUFFER), so both bound
 * what one written line can hold. */
#define NAME_MAX_BYTES 4096
#define OPNAME_MAX_BYTES 255
#define WRITE_BUFFER (1u << 18)

/* A name the reader takes back as one token. */
static int writable_name(const char *s)
{
    if (!s || !*s || strchr(s, '=') || strlen(s) > NAME_MAX_BYTES)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == '#' || *s == 0x7f)
            return 0;
    return 1;
}

static int check_kernel(const kernel *k, sk_error *e)
{
    if (!writable_name(k->name))
        return sk_errorf(e, SK_ETRACE, "kernel name '%.60s': expected a name of at most %d bytes without "
                         "blanks, '#' or '='", k->name ? k->name : "", NAME_MAX_BYTES);
    if (k->nprogs == 0)
        return sk_errorf(e, SK_ETRACE, "kernel '%s': expected at least one program", k->name);
    for (uint32_t i = 0; i < k->nprogs; i++) {
        const program *p = &k->progs[i];
        if (!writable_name(p->name))
            return sk_errorf(e, SK_ETRACE, "kernel '%s': program name '%.60s': expected a name of at most %d "
                             "bytes without blanks, '#' or '='", k->name, p->name ? p->name : "", NAME_MAX_BYTES);
        for (uint32_t j = 0; j < p->nopnames; j++)
            if (strlen(p->opnames[j]) > OPNAME_MAX_BYTES)
                return sk_errorf(e, SK_ETRACE, "program '%s': opcode '%.60s...': expected at most %d bytes",
                                 p->name, p->opnames[j], OPNAME_MAX_BYTES);
        for (uint32_t j = 0; j < p->n; j++) {
            const instr *in = &p->code[j];
            if (in->opcode >= p->nopnames)
                return sk_errorf(e, SK_ETRACE, "program '%s': entry %u: opcode %u has no name", p->name,
                                 j, in->opcode);
            for (int r = 0; r < in->ndst + in->nsrc; r++) {
                uint16_t id = r < in->ndst ? in->dst[r] : in->src[r - in->ndst];
                char buf[8];
                if (p->regnames ? id >= p->nregs : prog_synth_regname(id, buf, sizeof buf) < 0)
                    return sk_errorf(e, SK_ETRACE, "program '%s': entry %u: register %u has no name",
                                     p->name, j, id);
            }
            /* the reader takes .reuse on a vector register source only */
            for (int r = 0; r < 8; r++)
                if ((in->reuse >> r & 1) && (r >= in->nsrc || prog_vreg(p, in->src[r]) < 0))
                    return sk_errorf(e, SK_ETRACE, "program '%s': entry %u: reuse bit %d on %s: expected "
                                     "it only on a vector register source", p->name, j, r,
                                     r >= in->nsrc ? "no source" : "a register that is not R0-R254");
        }
    }
    return 0;
}

static const char *regname(const program *p, uint16_t id, char *buf, size_t n)
{
    if (p->regnames)
        return p->regnames[id];
    prog_synth_regname(id, buf, n);
    return buf;
}

static int is_memory(uint8_t kind)
{
    return kind == IK_LD_GLOBAL || kind == IK_ST_GLOBAL || kind == IK_LD_SHARED ||
           kind == IK_ST_SHARED;
}

/* One instruction or marker; returns the new indent. */
static int write_instr(gzFile f, const program *p, const instr *in, int indent)
{
    char buf[8];
    if (in->kind == IK_ENDLOOP || in->kind == IK_ENDIF) {
        indent--;
        gzprintf(f, "%*send\n", 2 * indent, "");
        return indent;
    }
    if (in->kind == IK_LOOP) {
        gzprintf(f, "%*sloop %u%s\n", 2 * indent, "", in->arg,
                 (in->flags & IF_WORK_SCALED) ? " work" : "");
        return indent + 1;
    }
    if (in->kind == IK_IFWARP) {
        gzprintf(f, "%*sifwarp %u\n", 2 * indent, "", in->arg);
        return indent + 1;
    }
    gzprintf(f, "%*s%s", 2 * indent, "", p->opnames[in->opcode]);
    for (int r = 0; r < in->ndst; r++)
        gzprintf(f, " %s", regname(p, in->dst[r], buf, sizeof buf));
    if (in->nsrc)
        gzputs(f, " <-");
    for (int r = 0; r < in->nsrc; r++)
        gzprintf(f, " %s%s", regname(p, in->src[r], buf, sizeof buf), (in->reuse >> r & 1) ? ".reuse" : "");
    if (is_memory(in->kind)) {
        if (in->bytes == 1 || in->bytes == 2 || in->bytes == 4 || in->bytes == 8 || in->bytes == 16)
            gzprintf(f, " bytes=%u", in->bytes);
        switch (in->pattern) {
        case MP_STRIDED: gzprintf(f, " pattern=strided:%u", in->stride); break;
        case MP_RANDOM: gzputs(f, " pattern=random"); break;
        case MP_UNIFORM: gzputs(f, " pattern=uniform"); break;
        default: gzputs(f, " pattern=coalesced"); break;
        }
        if (in->apat && in->apat <= p->napats) {
            const mem_apat *a = &p->apats[in->apat - 1];
            gzprintf(f, " addr=0x%llx", (unsigned long long)a->base);
            if (a->kind == MEM_AP_AFFINE)
                gzprintf(f, " lane=%lld warp=%lld cta=%lld iter=%lld", (long long)a->lane,
                         (long long)a->warp, (long long)a->cta, (long long)a->iter);
            if (a->ws)
                gzprintf(f, " ws=%llu", (unsigned long long)a->ws);
            if (a->kind != MEM_AP_AFFINE)
                gzprintf(f, " %s=%llu", a->kind == MEM_AP_RANDOM ? "rand" : "chase",
                         (unsigned long long)a->seed);
            if (a->part)
                gzprintf(f, " part=%u", a->part - 1u);
            if (a->idle)
                gzprintf(f, " mask=0x%08x", (unsigned)mem_apat_mask(a));
        }
    }
    if (in->ii)
        gzprintf(f, " ii=%u", in->ii);
    if (in->flags & (IF_TIMER_START | IF_TIMER_END))
        gzprintf(f, " timer=%s", (in->flags & IF_TIMER_START) ? "start" : "end");
    if (in->flags & (IF_CLOCK_START | IF_CLOCK_END))
        gzprintf(f, " clock=%s", (in->flags & IF_CLOCK_START) ? "start" : "end");
    gzprintf(f, " stall=%u\n", in->stall ? in->stall : 1);
    return indent;
}

struct trace_writer {
    gzFile f;
    char *path;
};

trace_writer *trace_writer_open(const char *path, int gz, sk_error *e)
{
    /* "T": zlib writes the plain file itself, so both paths share the code. */
    const char *mode = gz ? "wb9" : "wbT";
    int to_stdout = strcmp(path, "-") == 0;
    int fd = to_stdout ? dup(1) : -1;
    errno = 0;
    gzFile f = to_stdout ? (fd >= 0 ? gzdopen(fd, mode) : NULL) : gzopen(path, mode);
    if (!f) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        sk_errorf(e, SK_EIO, "%s: cannot create: %s", path, err ? strerror(err) : "out of memory");
        return NULL;
    }
    gzbuffer(f, WRITE_BUFFER);
    gzprintf(f, "# skewsim trace (docs/trace-format.md)\n");
    gzprintf(f, "skewsim-trace 1\n");
    trace_writer *w = xcalloc(1, sizeof *w);
    w->f = f;
    w->path = xstrdup(path);
    return w;
}

/* One CTA record: "range A B" or "cta A", then what differs from the default. */
static void write_ctas(gzFile f, const kernel *k, uint64_t a, uint64_t b, const cta_desc *d)
{
    if (a == b)
        gzprintf(f, "  cta %llu", (unsigned long long)a);
    else
        gzprintf(f, "  range %llu %llu", (unsigned long long)a, (unsigned long long)b);
    if (d->prog != 0)
        gzprintf(f, " program=%s", k->progs[d->prog].name);
    if (d->work != 1.0)
        gzprintf(f, " work=%.17g", d->work);
    gzputs(f, "\n");
}

int trace_writer_kernel(trace_writer *w, const kernel *k, trace_cta_fn next, void *ctx, sk_error *e)
{
    int r = check_kernel(k, e);
    if (r < 0)
        return r;
    gzFile f = w->f;
    gzprintf(f, "kernel %s grid=%llu block=%u regs=%u smem=%u", k->name,
             (unsigned long long)k->grid, k->block_threads, k->regs_per_thread, k->smem_bytes);
    if (k->cluster)
        gzprintf(f, " cluster=%u", k->cluster);
    if (k->green_sms)
        gzprintf(f, " sms=%s:%d%s", k->green_sms > 0 ? "green" : "rest",
                 k->green_sms > 0 ? k->green_sms : -k->green_sms, k->green_nocosched ? ":nocosched" : "");
    if (k->mig)
        gzprintf(f, " sms=mig:%s@%d", topo_mig_profile_at(k->mig - 1)->name, k->mig_start);
    if (k->l2_part)
        gzprintf(f, " sms=l2:%u", k->l2_part - 1u);
    if (k->one_sm)
        gzprintf(f, " sms=sm:%u", k->one_sm - 1u);
    if (k->gap_ns)
        gzprintf(f, " gap_ns=%llu", (unsigned long long)k->gap_ns);
    if (k->stream)
        gzprintf(f, " stream=%u", k->stream);
    if (k->sync_host)
        gzprintf(f, " sync=host");
    if (k->data_quiet)
        gzputs(f, " data=quiet");
    if (k->event_before)
        gzputs(f, " event=before");
    gzputs(f, "\n");
    for (uint32_t i = 0; i < k->nprogs; i++) {
        const program *p = &k->progs[i];
        int indent = 1;
        gzprintf(f, "program %s\n", p->name);
        for (uint32_t j = 0; j < p->n; j++)
            indent = write_instr(f, p, &p->code[j], indent);
        gzputs(f, "end\n");
    }
    if (next) {
        /* Consecutive CTAs of one program and work factor share a record. */
        cta_desc d, run = {0, 0, 1.0};
        uint64_t first = 0, want = 0;
        int have = 0;
        gzputs(f, "ctas\n");
        while ((r = next(ctx, &d, e)) == 1) {
            if (d.id != want || d.id >= k->grid || d.prog >= k->nprogs || !(d.work >= 0 && d.work <= 1e6))
                return sk_errorf(e, SK_ETRACE, "kernel '%s': CTA %llu (program %u, work %g) where CTA "
                                 "%llu was due", k->name, (unsigned long long)d.id, d.prog, d.work,
                                 (unsigned long long)want);
            want++;
            if (have && d.prog == run.prog && d.work == run.work)
                continue;
            if (have)
                write_ctas(f, k, first, d.id - 1, &run);
            run = d;
            first = d.id;
            have = 1;
        }
        if (r < 0)
            return r;
        if (want != k->grid)
            return sk_errorf(e, SK_ETRACE, "kernel '%s': %llu CTAs of a grid of %llu", k->name,
                             (unsigned long long)want, (unsigned long long)k->grid);
        if (have)
            write_ctas(f, k, first, want - 1, &run);
        gzputs(f, "end\n");
    }
    if (k->ctas_text) {   /* gzputs: the section may pass gzprintf's buffer (WRITE_BUFFER) */
        gzputs(f, "ctas\n");
        gzputs(f, k->ctas_text);
        gzputs(f, "end\n");
    }
    gzputs(f, "endkernel\n");
    return 0;
}

int trace_writer_close(trace_writer *w, sk_error *e)
{
    if (!w)
        return 0;
    gzFile f = w->f;
    char *path = w->path;
    free(w);
    int errnum = Z_OK;
    const char *zmsg = gzerror(f, &errnum);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", errnum == Z_ERRNO ? strerror(errno) : zmsg);
    int rc = gzclose(f), ret = 0;
    if (errnum != Z_OK)
        ret = sk_errorf(e, SK_EIO, "%s: write error: %s", path, msg);
    else if (rc != Z_OK)
        ret = sk_errorf(e, SK_EIO, "%s: write error: %s", path,
                        rc == Z_ERRNO ? strerror(errno) : zError(rc));
    free(path);
    return ret;
}

int trace_write_kernel(const char *path, const kernel *k, int gz, sk_error *e)
{
    int r = check_kernel(k, e);
    if (r < 0)
        return r;
    trace_writer *w = trace_writer_open(path, gz, e);
    if (!w)
        return e->code;
    r = trace_writer_kernel(w, k, NULL, NULL, e);
    int c = trace_writer_close(w, e);
    return r < 0 ? r : c;
}
