/* fuzz_accelsim.c -- libFuzzer target for the Accel-Sim trace reader
 * (src/trace/accelsim.c) and the import path behind `skewsim import`.
 *
 * One input is a kernel-N.traceg file (the seeds start with its
 * `-kernel name = ...` header, so the reader takes them as Accel-Sim).  It is
 *  1. put through every check of fuzz_trace.c (this file includes it, and
 *     trace_open_string() picks the reader from the first line): errors are
 *     one positioned line with the right code and sticky, accepted kernels
 *     satisfy the SM model's invariants and write/read back identically, CTAs
 *     come in order, and a simulation ends cleanly with exactly the
 *     warp-instructions the programs count;
 *  2. imported: every kernel written with its CTA table (trace_writer_kernel,
 *     as `skewsim import` does) and the file read back by the native reader:
 *     the same kernels, programs and CTA-to-program map.
 * A kernelslist given as a string is refused (its kernels are files), so
 * the fuzzer never touches the file system beyond its own temporary file.
 *
 * The same file is compiled into `make check` (tests/test_bad.c includes it
 * after fuzz_trace.c, with FA_ENTRY renamed) to replay the seed corpus and
 * every crash kept under tests/fuzz/regressions/accelsim/.
 */
#ifndef FT_NAME                   /* built alone: bring fuzz_trace.c's checks */
#define FUZZ_ENTRY fuzz_trace_one
#include "fuzz_trace.c"
#undef FUZZ_ENTRY
#endif

#ifndef FA_ENTRY
#define FA_ENTRY LLVMFuzzerTestOneInput
#endif

int FA_ENTRY(const uint8_t *data, size_t size);

typedef struct fa_map {
    trace *t;
    uint32_t *prog;               /* program of each CTA, as the writer saw it */
    uint64_t n, cap;
} fa_map;

static int fa_next(void *ctx, cta_desc *d, sk_error *e)
{
    fa_map *m = ctx;
    int rc = trace_next_cta(m->t, d, e);
    if (rc == 1) {
        if (m->n == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 64;
            m->prog = realloc(m->prog, m->cap * sizeof *m->prog);
            FT_CHECK(m->prog != NULL, "realloc");
        }
        m->prog[m->n++] = d->prog;
    }
    return rc;
}

static void fa_same_kernel(const kernel *a, const kernel *b)
{
    FT_CHECK(strcmp(a->name, b->name) == 0 && a->grid == b->grid && a->nprogs == b->nprogs &&
             a->block_threads == b->block_threads && a->regs_per_thread == b->regs_per_thread &&
             a->smem_bytes == b->smem_bytes, "kernel %s changed in an import", a->name);
    for (uint32_t i = 0; i < a->nprogs; i++) {
        const program *x = &a->progs[i], *y = &b->progs[i];
        FT_CHECK(strcmp(x->name, y->name) == 0 && x->n == y->n && x->nregs == y->nregs,
                 "program %s changed in an import", x->name);
        for (uint32_t j = 0; j < x->n; j++) {
            instr p = x->code[j], q = y->code[j];
            p.line = q.line = 0;
            FT_CHECK(memcmp(&p, &q, sizeof p) == 0, "program %s entry %u changed in an import", x->name, j);
            FT_CHECK(strcmp(x->opnames[x->code[j].opcode], y->opnames[y->code[j].opcode]) == 0,
                     "program %s entry %u: mnemonic changed in an import", x->name, j);
        }
    }
}

/* Import `text` into a file, read both again, compare. */
static void fa_import(const char *text)
{
    sk_error e = {0};
    trace *t = trace_open_string(FT_NAME, text, &e);
    if (!t)
        return;
    char path[] = "/tmp/skewsim-fuzz-imp-XXXXXX";
    int fd = mkstemp(path);
    FT_CHECK(fd >= 0, "mkstemp");
    close(fd);
    trace_writer *w = trace_writer_open(path, 0, &e);
    FT_CHECK(w != NULL, "%s", e.msg);
    fa_map maps[8];
    int nk = 0, rc = 0;
    kernel k;
    memset(maps, 0, sizeof maps);
    while (nk < 8 && (rc = trace_next_kernel(t, &k, &e)) == 1) {
        maps[nk].t = t;
        rc = trace_writer_kernel(w, &k, fa_next, &maps[nk], &e);
        kernel_free(&k);
        nk++;
        if (rc < 0)
            break;
    }
    sk_error ec = {0};
    FT_CHECK(trace_writer_close(w, &ec) == 0, "%s", ec.msg);
    trace_close(t);
    if (rc < 0) {
        /* a bad input fails here as it fails to read */
        ft_check_error(&e, rc, FT_NAME ":", SK_ETRACE, SK_ETRACE, SK_ETRACE);
    } else if (nk > 0) {
        trace *a = trace_open_string(FT_NAME, text, &e);
        trace *b = trace_open(path, &e);
        FT_CHECK(a && b, "%s", e.msg);
        for (int i = 0; i < nk; i++) {
            kernel ka, kb;
            FT_CHECK(trace_next_kernel(a, &ka, &e) == 1, "%s", e.msg);
            FT_CHECK(trace_next_kernel(b, &kb, &e) == 1, "the import does not read back: %s", e.msg);
            fa_same_kernel(&ka, &kb);
            cta_desc d;
            for (uint64_t c = 0; c < maps[i].n; c++) {
                FT_CHECK(trace_next_cta(b, &d, &e) == 1 && d.id == c && d.prog == maps[i].prog[c] &&
                         d.work == 1.0, "kernel %s: CTA %llu changed in an import", ka.name,
                         (unsigned long long)c);
            }
            FT_CHECK(trace_next_cta(b, &d, &e) == 0, "kernel %s: more CTAs after an import", ka.name);
            kernel_free(&ka);
            kernel_free(&kb);
        }
        trace_close(a);
        trace_close(b);
    }
    for (int i = 0; i < 8; i++)
        free(maps[i].prog);
    remove(path);
}

int FA_ENTRY(const uint8_t *data, size_t size)
{
    fuzz_trace_one(data, size);
    char *text = malloc(size + 1);
    FT_CHECK(text != NULL, "malloc");
    memcpy(text, data, size);
    text[size] = '\0';
    fa_import(text);
    free(text);
    return 0;
}
