/* accelsim.c -- reader of Accel-Sim SASS traces (docs/accelsim.md).
 *
 * NVBit's tracer_tool (Accel-Sim's util/tracer_nvbit) records, for every
 * warp of every CTA, the dynamic stream of SASS instructions it executed;
 * its post-processing step groups the stream by CTA into one
 * `kernel-N.traceg` file per launch, listed in order in `kernelslist.g`
 * (between `MemcpyHtoD,...` lines, which we skip).  This file turns such a
 * kernel into skewsim's model (program.h) behind the ordinary trace API:
 *
 *  - Each CTA becomes one program.  When all its warps executed the same
 *    stream (opcodes, registers, widths and address patterns equal; PCs and
 *    addresses are not compared) the program is that stream; otherwise it
 *    is one `ifwarp W ... end` block per warp and one EXIT.  Identical CTA
 *    programs are shared (hash + compare), so a regular kernel of thousands
 *    of CTAs holds one program.  Within a warp's stream,
 *    tandem repeats become loops (fold_repeats): memory saved, and no
 *    timing changed, since loop markers take no issue slot.
 *  - Addresses: a memory instruction whose active lanes' addresses are
 *    affine in the lane index (uniform, coalesced, strided) gets an affine
 *    address pattern (memsys.h mem_apat, what the native key addr= gives):
 *    the lane-0 address of its first instance, and the strides per lane,
 *    per warp of a CTA, per iteration of the loop it was folded into and
 *    per CTA, each found from the instances themselves (addr_fit below).
 *    The hierarchy's coalescer then sees the traced addresses.  Where the
 *    instances are not affine in one of those (scattered lanes, warps or
 *    CTAs whose addresses follow no stride), the instruction keeps only
 *    its pattern and byte count, as before.
 *  - Active masks: an affine pattern carries the lanes that accessed
 *    (mem_apat.idle, the native key mask=), so the coalescer takes only
 *    those and a warp whose mask is 0 touches no memory.  Instances folded
 *    into one instruction (warps of one stream, loop iterations, CTAs of
 *    one program) are not told apart by their masks: the pattern takes the
 *    union of theirs (mask_merge), exact when they agree.
 *  - What the simulator cannot use is dropped: PCs, addresses that fit no
 *    affine pattern and with them their masks (every lane of a byte count
 *    is charged), immediates, line numbers.  Traces carry no
 *    compiler stall counts: given the binary's SASS listing
 *    (trace_set_sass), each instruction takes its own by PC; without one
 *    every instruction gets stall = 1 and timing rests on the scoreboard
 *    and the unit latencies: an approximation (one CTA of the H200 FMA
 *    kernel runs ~14 % fast without its stall counts, 1056 CTAs 1.4 %:
 *    docs/accelsim.md).
 *  - A whole kernel is parsed when trace_next_kernel() asks for it (the
 *    format lists CTAs in any order and may miss or repeat one, which only
 *    the end of the file tells); memory is bounded by the distinct programs
 *    (TRACE_MAX_INSTRS entries), one CTA's warps, and 16 bytes per CTA.
 *
 * Every error is one line "file:line: field: value: expected what", and the
 * first is sticky, as in the native reader.  Lines come from the shared line
 * reader (lineread.h); this file is one trace format (trace_priv.h) and
 * calls no other reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_priv.h"
#include "skewsim/memsys.h"
#include "skewsim/silicon.h"

#define WARP_THREADS 32
#define MAX_TOKENS 80                 /* fields on one line: a list_all line has at most 47 */
/* The kernel's limits are trace_priv.h's, shared with the native reader, so
 * that `skewsim import` output reads back.  TRACE_MAX_INSTRS also bounds
 * one CTA; TRACE_MAX_OPNAMES, applied to the kernel-wide mnemonic table,
 * bounds each program's. */
#define MAX_WARPS (TRACE_BLOCK_MAX / WARP_THREADS)
/* Instruction lines of tracer versions 1-2 start with the CTA and warp ids;
 * 3 (the first .traceg layout) through 5 (adds a trailing immediate) do not. */
#define TRACER_MIN 3
#define TRACER_MAX 5
#define MAX_SRC_FIELDS 5              /* tracer_tool common.h MAX_SRC */
/* Tandem repeats in a warp's stream become loops: a body of up to
 * REPEAT_BODY_MAX entries seen at least REPEAT_MIN times in a row (two
 * copies cost no more than a loop's two markers).  Markers take no issue
 * slot, so this changes memory, never timing. */
#define REPEAT_BODY_MAX 256
#define REPEAT_MIN 3
/* Register codes of as_ins: R0-R254, UR0-UR62, P0-P6, UP0-UP6 in one space. */
#define CODE_UR 255
#define CODE_P (CODE_UR + 63)
#define CODE_UP (CODE_P + 7)

enum { AS_KERNEL_FILE = 1, AS_KERNELSLIST };   /* what as_sniff() tells apart */

enum { AF_LIST_ALL = 0, AF_BASE_STRIDE = 1, AF_BASE_DELTA = 2 };   /* tracer_tool address_format */

/* One traced instruction as compared across warps and CTAs (no PC, no line). */
typedef struct as_ins {
    uint32_t op;                  /* index into r->ops.opnames */
    uint32_t stride;              /* MP_STRIDED */
    uint32_t arg;                 /* IK_IFWARP: warp */
    uint16_t dst[PROG_MAX_DST], src[PROG_MAX_SRC];   /* register codes */
    uint8_t kind, cls, ndst, nsrc, bytes, pattern;
    uint8_t stall;                /* from the SASS listing (as_set_sass), else 0: stall = 1 */
    uint8_t reuse;                /* bit j: src[j] marked .reuse in the listing (instr.reuse) */
    /* Addresses (not compared: instances of one instruction differ in them).
     * lane-0 address a0 and lane stride dl of this instance; dw, di, dc the
     * strides per warp, loop iteration and CTA once found (AA_* in aff). */
    uint8_t aff;
    uint64_t a0, cta0;            /* cta0: the CTA a0 belongs to (forms) */
    int64_t dl, dw, di, dc;
    /* Active lanes (the line's mask; not compared either): once instances
     * are folded together, the lanes active in any of them (mask_merge). */
    uint32_t mask;
} as_ins;

/* as_ins.aff: what is known of its addresses.  AA_NONE: no instance so far
 * had an active lane, so no address says anything (a0 and dl are unset). */
enum { AA_OK = 1, AA_DW = 2, AA_DI = 4, AA_DC = 8, AA_NONE = 16 };

typedef struct as_seq {
    as_ins *v;
    uint32_t *line;
    uint32_t n, cap;
} as_seq;

typedef struct as_form {          /* a distinct CTA program */
    uint32_t hash;
    as_seq seq;
} as_form;

typedef struct as_cta {
    uint64_t id;
    uint32_t prog;
    unsigned long line;           /* its `thread block =` line */
} as_cta;

/* What a mnemonic means, remembered: a trace repeats a few dozen mnemonics
 * millions of times, and classifying and interning each one again took a
 * third of the reader's time.  Direct-mapped by a hash of the text; `gen`
 * ties an entry to the kernel whose mnemonic table holds `op`. */
#define OPCACHE_SLOTS 128
typedef struct as_opcache {
    char name[TRACE_OPNAME_MAX_BYTES + 1];
    uint32_t len, gen, op;
    uint8_t kind, cls, tma, width;
} as_opcache;

typedef struct as_reader {
    lineread *src;                /* borrowed: the input trace_open() opened */
    int kind;                     /* AS_KERNEL_FILE or AS_KERNELSLIST */
    sk_error err;                 /* first error, sticky */
    int done;                     /* no more kernels */
    unsigned long memcpys;        /* Memcpy lines skipped */
    unsigned kernels;             /* kernels read */

    /* the file being read */
    lineread *f;
    const char *fname;
    char *line;
    unsigned long lineno;
    char *tok[MAX_TOKENS];
    int ntok;

    /* the SASS listing that gives stall counts (borrowed; NULL: none) */
    const sass *listing;
    const char *listing_name;
    int listing_fn;               /* the kernel's function in it; -1: not looked up yet */

    /* the kernel being built */
    char *kname;
    uint64_t binary;              /* -binary version (90: sm_90) */
    uint64_t gdim[3], grid;
    uint32_t bdim[3], block, nwarps, regs, smem, version;
    int lineinfo;
    program ops;                  /* kernel-wide mnemonic table (names only) */
    as_opcache opc[OPCACHE_SLOTS];
    uint32_t opc_gen;             /* this kernel's: 0 is never one */
    uint32_t op_exit, op_pexit;
    as_seq warp[MAX_WARPS];
    as_seq cwarp[MAX_WARPS];      /* the same, repeats folded into loops */
    uint32_t *hbuf;               /* per-entry hashes of the stream being folded */
    uint32_t hcap;
    unsigned long warp_line[MAX_WARPS];
    as_seq layout;
    as_form *forms;
    program *progs;
    uint32_t nforms;
    uint32_t entries;             /* over all forms */
    uint32_t *slots;              /* open addressing: form index + 1 */
    as_cta *ctas;
    uint64_t nctas, ctacap, next;
} as_reader;

/* ---------------------------------------------------------------- errors */

__attribute__((format(printf, 3, 4)))
static int fail(as_reader *r, int code, const char *fmt, ...)
{
    char msg[SK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sk_errorf(&r->err, code, "%s", msg);
    r->done = 1;
    return r->err.code;
}

/* "file:line: msg" at the current line */
#define FAIL(r, ...) fail_line(r, __VA_ARGS__)
__attribute__((format(printf, 2, 3)))
static int fail_line(as_reader *r, const char *fmt, ...)
{
    char msg[SK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail(r, SK_ETRACE, "%s:%lu: %s", r->fname, r->lineno ? r->lineno : 1, msg);
}

static int report(as_reader *r, sk_error *e)
{
    if (e && e->code == 0)
        *e = r->err;
    return r->err.code;
}

/* ----------------------------------------------------------------- lines */

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Next line of r->f with a field on it, split into r->tok.  1, 0 at the end,
 * or an error. */
static int next_line(as_reader *r)
{
    for (;;) {
        size_t n;
        int rc = lineread_next(r->f, &r->line, &n, &r->err);   /* its message is ours */
        if (rc < 0) {
            r->done = 1;
            return rc;
        }
        if (rc == 0)
            return 0;
        r->lineno = lineread_lineno(r->f);
        /* trailing blanks (and a CR) off, for header values */
        while (n > 0 && is_blank(r->line[n - 1]))
            r->line[--n] = '\0';
        char *s = r->line;
        while (is_blank(*s))
            s++;
        if (*s)
            return 1;
    }
}

/* Split the current line into fields (destroys it: call after reading any
 * header value). */
static int tokenize(as_reader *r)
{
    /* the field bytes' loop is the reader's hottest: one test per byte
     * (NUL, blank, tab and CR are all <= ' '; a field byte is above it,
     * and the rare control byte below it is checked on the slow path) */
    unsigned char *s = (unsigned char *)r->line;
    int nt = 0;
    r->ntok = 0;
    for (;;) {
        while (is_blank((char)*s))
            s++;
        if (!*s) {
            r->ntok = nt;
            return 0;
        }
        if (nt == MAX_TOKENS) {
            r->ntok = nt;
            return FAIL(r, "%.40s: expected at most %d fields on a line", (char *)s, MAX_TOKENS);
        }
        r->tok[nt++] = (char *)s;
        for (;;) {
            while (*s > ' ')
                s++;
            if (!*s || is_blank((char)*s))
                break;
            s++;                  /* a control byte inside a field: part of it, as before */
        }
        if (*s)
            *s++ = '\0';
    }
}

/* --------------------------------------------------------------- numbers */

/* Signed decimal that fits an int64. */
static int parse_sdec(const char *s, int64_t *out)
{
    int neg = *s == '-';
    uint64_t v;
    if (trace_parse_dec(s + neg, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &v) < 0)
        return -1;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

/* Hexadecimal of at most `digits` digits, "0x" optional. */
static int parse_hex(const char *s, int digits, uint64_t *out)
{
    /* each byte's digit value plus one, 0 for anything that is not a hex
     * digit: one load and one test per byte (a PC, a mask and addresses
     * are most of an instruction line) */
    static const unsigned char hexval[256] = {
        ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9,
        ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11,
        ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
    };
    const unsigned char *p = (const unsigned char *)s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (!*p)
        return -1;
    uint64_t v = 0;
    for (int n = 0; *p; p++) {
        unsigned d = hexval[*p];
        if (!d || ++n > digits)
            return -1;
        v = v << 4 | (d - 1);
    }
    *out = v;
    return 0;
}

/* "X,Y,Z", each min..max[i], optionally in parentheses. */
static int parse_dim3(const char *s, uint64_t min, const uint64_t max[3], uint64_t out[3])
{
    char buf[80];
    size_t n = strlen(s);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n + 1);
    char *p = buf;
    if (*p == '(') {
        if (n < 2 || buf[n - 1] != ')')
            return -1;
        buf[n - 1] = '\0';
        p++;
    }
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(p, ',');
        if ((i < 2) != (comma != NULL))
            return -1;
        if (comma)
            *comma = '\0';
        if (trace_parse_dec(p, max[i], &out[i]) < 0 || out[i] < min)
            return -1;
        p = comma ? comma + 1 : p;
    }
    return 0;
}

/* ------------------------------------------------------------- registers */

/* 1: a register (code set), 0: RZ/R255/PT/URZ/UPT (no dependency), -1: not one. */
static int parse_reg(const char *s, uint16_t *code)
{
    /* The common case first, without a library call: R0..R254, and R255,
     * which is how the tracer prints RZ (its raw register number).  A
     * leading zero ("R07") takes the general path, which refuses it. */
    if (s[0] == 'R' && s[1] >= '1' && s[1] <= '9') {
        unsigned v = (unsigned)(s[1] - '0');
        int k = 2;
        for (; s[k] >= '0' && s[k] <= '9' && k < 4; k++)
            v = v * 10 + (unsigned)(s[k] - '0');
        if (!s[k] && v <= 255) {
            if (v == 255)
                return 0;
            *code = (uint16_t)v;
            return 1;
        }
    } else if (s[0] == 'R' && s[1] == '0' && !s[2]) {
        *code = 0;
        return 1;
    }
    if (strcmp(s, "R255") == 0)
        return 0;
    int pred;
    int rc = trace_parse_reg(s, &pred);
    if (rc <= 0)
        return rc;
    unsigned base, skip;
    if (s[0] == 'U')
        base = s[1] == 'R' ? CODE_UR : CODE_UP, skip = 2;
    else
        base = s[0] == 'R' ? 0 : CODE_P, skip = 1;
    unsigned v = 0;
    for (const char *q = s + skip; *q >= '0' && *q <= '9'; q++)
        v = v * 10 + (unsigned)(*q - '0');     /* trace_parse_reg checked its range */
    *code = (uint16_t)(base + v);
    return 1;
}

static void reg_name(uint16_t code, char *buf, size_t n)
{
    if (code < CODE_UR)
        snprintf(buf, n, "R%u", code);
    else if (code < CODE_P)
        snprintf(buf, n, "UR%u", code - CODE_UR);
    else if (code < CODE_UP)
        snprintf(buf, n, "P%u", code - CODE_P);
    else
        snprintf(buf, n, "UP%u", code - CODE_UP);
}

/* --------------------------------------------------------------- streams */

static as_ins *seq_push(as_seq *s, uint32_t line)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
        s->line = xrealloc(s->line, s->cap * sizeof *s->line);
    }
    s->line[s->n] = line;
    as_ins *a = &s->v[s->n++];
    memset(a, 0, sizeof *a);
    return a;
}

static void seq_free(as_seq *s)
{
    free(s->v);
    free(s->line);
    memset(s, 0, sizeof *s);
}

static int ins_equal(const as_ins *a, const as_ins *b)
{
    if (a->op != b->op || a->kind != b->kind || a->cls != b->cls || a->ndst != b->ndst ||
        a->nsrc != b->nsrc || a->bytes != b->bytes || a->pattern != b->pattern ||
        a->stride != b->stride || a->arg != b->arg || a->stall != b->stall || a->reuse != b->reuse)
        return 0;
    for (int i = 0; i < a->ndst; i++)
        if (a->dst[i] != b->dst[i])
            return 0;
    for (int i = 0; i < a->nsrc; i++)
        if (a->src[i] != b->src[i])
            return 0;
    return 1;
}

static int seq_equal(const as_seq *a, const as_seq *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (!ins_equal(&a->v[i], &b->v[i]))
            return 0;
    return 1;
}

/* FNV-1a over the compared fields. */
#define MIX(x) (h = (h ^ (uint32_t)(x)) * 16777619u)
static uint32_t ins_hash(const as_ins *a, uint32_t h)
{
    MIX(a->op);
    MIX(a->stride);
    MIX(a->arg);
    MIX((uint32_t)a->kind << 24 | (uint32_t)a->bytes << 16 | (uint32_t)a->pattern << 8 | a->ndst);
    MIX((uint32_t)a->reuse << 16 | (uint32_t)a->nsrc << 8 | a->stall);
    for (int j = 0; j < a->ndst; j++)
        MIX(a->dst[j]);
    for (int j = 0; j < a->nsrc; j++)
        MIX(a->src[j]);
    return h;
}

static uint32_t seq_hash(const as_seq *s)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < s->n; i++)
        h = ins_hash(&s->v[i], h);
    return h;
}
#undef MIX

/* ---------------------------------------------------------- instructions */

static int is_memory(uint8_t kind)
{
    return kind == IK_LD_GLOBAL || kind == IK_ST_GLOBAL || kind == IK_LD_SHARED ||
           kind == IK_ST_SHARED;
}

/* Tensor-memory-accelerator ops: their address fields follow another layout
 * (descriptor transfers), which we do not interpret. */
static int is_tma(const char *op)
{
    static const char *const tma[] = {"UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG", "UBLKCP",
                                      "UBLKPF", "UBLKRED"};
    size_t len = strcspn(op, ".");
    for (size_t i = 0; i < SK_ARRAY_LEN(tma); i++)
        if (strlen(tma[i]) == len && memcmp(tma[i], op, len) == 0)
            return 1;
    return 0;
}

/* Bytes per thread named by the mnemonic (the tracer's own rule: the first
 * modifier that is a bit count, "128" or "U16"; else 4).  Used for memory
 * ops traced without addresses (LDC, ULDC). */
static uint8_t width_of_opcode(const char *op)
{
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.')) {
        const char *d = p[1] == 'U' ? p + 2 : p + 1;
        size_t n = strcspn(d, ".");
        uint64_t bits;
        char buf[8];
        if (n == 0 || n >= sizeof buf)
            continue;
        memcpy(buf, d, n);
        buf[n] = '\0';
        if (trace_parse_dec(buf, 1024, &bits) == 0) {
            uint64_t b = bits / 8;
            return (uint8_t)((b == 1 || b == 2 || b == 8 || b == 16) ? b : 4);
        }
    }
    return 4;
}

/* Pattern of n active addresses given by their n-1 successive deltas. */
static void set_pattern_same(as_ins *a, int64_t delta, int n, int same);

static void set_pattern(as_ins *a, const int64_t *delta, int n)
{
    int same = 1;
    for (int i = 1; i < n - 1; i++)
        same &= delta[i] == delta[0];
    set_pattern_same(a, n > 1 ? delta[0] : 0, n, same);
}

/* set_pattern() once it knows whether the n-1 deltas are all `delta`
 * (what a base-stride address line says without a list to compare). */
static void set_pattern_same(as_ins *a, int64_t delta0, int n, int same)
{
    const int64_t *delta = &delta0;
    if (n <= 1 || (same && delta[0] == 0)) {
        a->pattern = MP_UNIFORM;
        return;
    }
    if (!same) {
        a->pattern = MP_RANDOM;
        return;
    }
    uint64_t d = delta[0] < 0 ? 0 - (uint64_t)delta[0] : (uint64_t)delta[0];
    if (d == a->bytes)
        a->pattern = MP_COALESCED;
    else if (d <= UINT32_MAX) {
        a->pattern = MP_STRIDED;
        a->stride = (uint32_t)d;
    } else {
        a->pattern = MP_RANDOM;
    }
}

/* The lane-0 address and lane stride of an instance whose active lanes
 * (mask) are at first + the running sum of delta (NULL: every delta is
 * `stride`), when they are affine in the lane index: a0 + lane x dl. */
static void addr_lanes(as_ins *a, uint32_t mask, uint64_t first, const int64_t *delta, int64_t stride)
{
    int lane[WARP_THREADS], n = 0;
    for (int l = 0; l < WARP_THREADS; l++)
        if (mask >> l & 1)
            lane[n++] = l;
    int64_t dl = 0;
    if (n > 1) {
        int64_t d = delta ? delta[0] : stride, gap = lane[1] - lane[0];
        if (d % gap)
            return;
        dl = d / gap;
        for (int j = 1; j < n; j++)
            if ((delta ? delta[j - 1] : stride) != dl * (lane[j] - lane[j - 1]))
                return;
    }
    a->aff = AA_OK;
    a->dl = dl;
    a->a0 = first - (uint64_t)(dl * lane[0]);
}

/* Fold instance b (k steps after a) into a's stride of kind flag (AA_DW,
 * AA_DI, AA_DC) held in *d: the first pair sets it, later ones must agree,
 * and instances that do not fit an affine stride clear a's AA_OK. */
static void addr_fit(as_ins *a, const as_ins *b, int64_t k, uint8_t flag, int64_t *d)
{
    if (!(a->aff & AA_OK) || (b->aff & AA_NONE))
        return;                   /* b has no lane to contradict a's strides */
    if ((a->aff & AA_NONE) || !(b->aff & AA_OK) || b->dl != a->dl || k == 0) {
        /* (a without lanes gives b's addresses no origin: no pattern) */
        a->aff = 0;
        return;
    }
    int64_t diff = (int64_t)(b->a0 - a->a0);
    if (!(a->aff & flag)) {
        if (diff % k) {
            a->aff = 0;
            return;
        }
        *d = diff / k;
        a->aff |= flag;
    } else if (diff != *d * k) {
        a->aff = 0;
    }
}

/* Instances a and b of one instruction are folded into a (warps of one
 * stream, iterations of a loop, CTAs of one program): a's mask becomes the
 * lanes active in either.  Exact when the instances agree (a tail warp or
 * a branch's lanes, the same every iteration); where they differ, each is
 * charged the union: never more lanes than a full warp, never fewer than
 * it used (docs/accelsim.md). */
static void mask_merge(as_ins *a, const as_ins *b)
{
    a->mask |= b->mask;
}

#define NEED(what)                                                              \
    do {                                                                        \
        if (i >= n)                                                             \
            return FAIL(r, "%s%send of line: expected %s", op, *op ? ": " : "", what); \
    } while (0)

/* One instruction line:
 *   [line_num] PC mask dest_num [dests] opcode src_num [srcs] mem_width
 *   [address_format addresses] [immediate]                                */
/* The stall count of the instruction at `pc` of this kernel's function in
 * the SASS listing.  The listing must be of the traced binary: the kernel's
 * function for its architecture must be there, with this PC, and the same
 * mnemonic base at it (modifiers may be spelled differently by NVBit and
 * cuobjdump). */
static int listing_stall(as_reader *r, const char *op, uint64_t pc, uint8_t *stall, const sass_instr **at)
{
    if (r->listing_fn < 0) {
        /* the kernel's function for the traced architecture; a listing
         * without "code for sm_NN" lines (arch 0) is taken at its word */
        int arch = r->binary <= 100000 ? (int)r->binary : -1;
        int fn = arch > 0 ? sass_function(r->listing, r->kname, arch) : -1;
        if (fn == -1)
            fn = sass_function(r->listing, r->kname, 0);
        if (fn == -2)
            return FAIL(r, "kernel %s: %s lists it for several architectures and none is sm_%llu "
                        "(-binary version): expected one", r->kname, r->listing_name,
                        (unsigned long long)r->binary);
        if (fn < 0)
            return FAIL(r, "kernel %s: not in the SASS listing %s: expected cuobjdump -sass of the "
                        "traced binary", r->kname, r->listing_name);
        int got = sass_function_arch(r->listing, fn);
        if (got != 0 && (uint64_t)got != r->binary)
            return FAIL(r, "kernel %s: %s has it for sm_%d only, the trace is of sm_%llu (-binary "
                        "version): expected the listing of the traced binary", r->kname, r->listing_name,
                        got, (unsigned long long)r->binary);
        r->listing_fn = fn;
    }
    const sass_instr *in = pc <= UINT32_MAX ? sass_at(r->listing, r->listing_fn, (uint32_t)pc) : NULL;
    if (!in)
        return FAIL(r, "%s: PC %04llx: not an instruction of %s in %s: expected the listing of the "
                    "traced binary", op, (unsigned long long)pc, r->kname, r->listing_name);
    size_t base = strcspn(op, ".");
    if (strcspn(in->op, ".") != base || strncmp(in->op, op, base) != 0)
        return FAIL(r, "%s: PC %04llx: %s line %u has %s there: expected the listing of the traced "
                    "binary", op, (unsigned long long)pc, r->listing_name, in->line, in->op);
    *stall = in->stall;
    *at = in;
    return 0;
}

static int parse_ins(as_reader *r, as_seq *s)
{
    char **tk = r->tok;
    int n = r->ntok, i = 0;
    uint64_t v;
    const char *op = "";            /* the opcode, once read (messages) */

    if (r->lineinfo) {
        NEED("a source line number (-enable lineinfo = 1)");
        if (trace_parse_dec(tk[i], UINT32_MAX, &v) < 0)
            return FAIL(r, "line_num: %s: expected a decimal source line number", tk[i]);
        i++;
    }
    NEED("a PC");
    if (parse_hex(tk[i], 16, &v) < 0)
        return FAIL(r, "PC: %s: expected a hexadecimal PC", tk[i]);
    uint64_t pc = v;
    i++;
    NEED("an active mask");
    uint64_t mask;
    if (parse_hex(tk[i], 8, &mask) < 0)
        return FAIL(r, "mask: %s: expected a hexadecimal active mask of at most 8 digits", tk[i]);
    i++;
    NEED("dest_num");
    uint64_t ndst;
    if (trace_parse_dec(tk[i], PROG_MAX_DST, &ndst) < 0)
        return FAIL(r, "dest_num: %s: expected 0..%d destination registers", tk[i], PROG_MAX_DST);
    i++;
    as_ins a;
    memset(&a, 0, sizeof a);
    for (uint64_t j = 0; j < ndst; j++, i++) {
        NEED("a destination register");
        uint16_t code;
        int rc = parse_reg(tk[i], &code);
        if (rc < 0)
            return FAIL(r, "dest: %s: expected a register (R0-R255, UR0-UR62, P0-P6, UP0-UP6, RZ, "
                        "PT, URZ, UPT)", tk[i]);
        int dup = 0;
        for (int k = 0; k < a.ndst; k++)
            dup |= a.dst[k] == code;
        if (rc > 0 && !dup)
            a.dst[a.ndst++] = code;
    }
    NEED("an opcode");
    op = tk[i++];
    /* SASS mnemonics are letters, digits, '_' and '.' (and the native
     * format, which `import` writes, reads '#' as a comment): checked,
     * measured and hashed in one pass */
    size_t oplen = 0;
    uint32_t oph = 2166136261u;
    for (const unsigned char *q = (const unsigned char *)op; *q; q++, oplen++) {
        unsigned char ch = *q;
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              ch == '.'))
            return FAIL(r, "opcode: %.40s: expected a SASS mnemonic (letters, digits, '_' and '.')", op);
        oph = (oph ^ ch) * 16777619u;
    }
    if (oplen > TRACE_OPNAME_MAX_BYTES)
        return FAIL(r, "opcode: %.40s...: expected a mnemonic of at most %d bytes", op, TRACE_OPNAME_MAX_BYTES);
    as_opcache *oc = &r->opc[oph % OPCACHE_SLOTS];
    if (oc->gen != r->opc_gen || oc->len != oplen || memcmp(oc->name, op, oplen) != 0) {
        sk_error ce = {0};
        if (prog_classify(op, &oc->kind, &oc->cls, &ce) < 0) {
            oc->gen = 0;
            return FAIL(r, "%s: expected a SASS mnemonic of docs/trace-format.md's opcode table", ce.msg);
        }
        memcpy(oc->name, op, oplen + 1);
        oc->len = (uint32_t)oplen;
        oc->tma = (uint8_t)is_tma(op);
        oc->width = width_of_opcode(op);
        oc->op = UINT32_MAX;      /* interned once its instruction is whole, as before */
        oc->gen = r->opc_gen;
    }
    a.kind = oc->kind;
    a.cls = oc->cls;
    const sass_instr *listed = NULL;
    if (r->listing && listing_stall(r, op, pc, &a.stall, &listed) < 0)
        return -1;
    NEED("src_num");
    uint64_t nsrc;
    if (trace_parse_dec(tk[i], MAX_SRC_FIELDS, &nsrc) < 0)
        return FAIL(r, "%s: src_num: %s: expected 0..%d source registers", op, tk[i], MAX_SRC_FIELDS);
    i++;
    for (uint64_t j = 0; j < nsrc; j++, i++) {
        NEED("a source register");
        uint16_t code;
        int rc = parse_reg(tk[i], &code);
        if (rc < 0)
            return FAIL(r, "%s: src: %s: expected a register (R0-R255, UR0-UR62, P0-P6, UP0-UP6, "
                        "RZ, PT, URZ, UPT)", op, tk[i]);
        int dup = 0;
        for (int k = 0; k < a.nsrc; k++)
            dup |= a.src[k] == code;
        /* a fifth distinct source (tracer MAX_SRC 5) is dropped: the model
         * tracks four */
        if (rc > 0 && !dup && a.nsrc < PROG_MAX_SRC) {
            /* a vector register the listing reads from the reuse cache */
            for (int k = 0; listed && code < CODE_UR && k < listed->nreused; k++)
                if (listed->reused[k] == code)
                    a.reuse |= (uint8_t)(1u << a.nsrc);
            a.src[a.nsrc++] = code;
        }
    }
    NEED("mem_width");
    uint64_t width;
    if (trace_parse_dec(tk[i], 16, &width) < 0 || (width & (width - 1)))
        return FAIL(r, "%s: mem_width: %s: expected 0, 1, 2, 4, 8 or 16 bytes per thread", op, tk[i]);
    i++;
    if (width > 0 && oc->tma) {
        i = n;                      /* descriptor layout, not interpreted */
        a.bytes = 16;
        a.pattern = MP_COALESCED;
    } else if (width > 0) {
        NEED("an address format (0, 1 or 2)");
        uint64_t fmt;
        if (trace_parse_dec(tk[i], 2, &fmt) < 0)
            return FAIL(r, "%s: address format: %s: expected 0 (list), 1 (base, stride) or 2 (base, "
                        "deltas)", op, tk[i]);
        i++;
        int active = __builtin_popcount((unsigned)mask);
        int64_t delta[WARP_THREADS], stride_v = 0;
        uint64_t first = 0;           /* the first active lane's address */
        int strided = 0;
        int nd = active > 0 ? active - 1 : 0;
        a.bytes = (uint8_t)width;
        if (fmt == AF_LIST_ALL) {
            uint64_t prev = 0, addr;
            for (int j = 0; j < active; j++, i++) {
                NEED("an address per active thread");
                if (parse_hex(tk[i], 16, &addr) < 0)
                    return FAIL(r, "%s: address: %s: expected a hexadecimal address", op, tk[i]);
                if (j > 0)
                    delta[j - 1] = (int64_t)(addr - prev);
                else
                    first = addr;
                prev = addr;
            }
        } else {
            NEED("a base address");
            if (parse_hex(tk[i], 16, &v) < 0)
                return FAIL(r, "%s: base address: %s: expected a hexadecimal address", op, tk[i]);
            first = v;
            i++;
            if (fmt == AF_BASE_STRIDE) {
                int64_t stride;
                NEED("a stride");
                if (parse_sdec(tk[i], &stride) < 0 || stride < INT32_MIN || stride > INT32_MAX)
                    return FAIL(r, "%s: stride: %s: expected a decimal stride in bytes", op, tk[i]);
                i++;
                (void)nd;
                strided = 1;
                stride_v = stride;
            } else {
                for (int j = 0; j < nd; j++, i++) {
                    NEED("a delta per active thread after the first");
                    if (parse_sdec(tk[i], &delta[j]) < 0)
                        return FAIL(r, "%s: delta: %s: expected a decimal address delta", op, tk[i]);
                }
            }
        }
        if (strided)
            set_pattern_same(&a, stride_v, active, 1);   /* every delta is the stride */
        else
            set_pattern(&a, delta, active);
        a.mask = (uint32_t)mask;
        if (active > 0)
            addr_lanes(&a, (uint32_t)mask, first, strided ? NULL : delta, stride_v);
        else
            a.aff = AA_OK | AA_NONE;  /* predicated off everywhere: no lane accesses */
    }
    /* tracer version 5 ends the line with the immediate */
    if (i < n) {
        int64_t imm;
        if (i + 1 < n || parse_sdec(tk[i], &imm) < 0)
            return FAIL(r, "%s: %s: expected a decimal immediate or the end of the line", op, tk[i]);
    }
    if (!is_memory(a.kind)) {
        a.bytes = 0;
        a.pattern = 0;
        a.stride = 0;
        a.aff = 0;
        a.mask = 0;
    } else if (width == 0) {        /* constant loads: no address operand traced */
        a.bytes = oc->width;
        a.pattern = MP_UNIFORM;
    }
    if (oc->op == UINT32_MAX)
        oc->op = prog_opname(&r->ops, op);
    a.op = oc->op;
    if (r->ops.nopnames > TRACE_MAX_OPNAMES)
        return FAIL(r, "%s: expected at most %d distinct opcode mnemonics per kernel", op, TRACE_MAX_OPNAMES);
    *seq_push(s, (uint32_t)SK_MIN(r->lineno, (unsigned long)UINT32_MAX)) = a;
    return 0;
}

/* -------------------------------------------------------------- programs */

/* Entries [a, a+len) and [b, b+len) of s are equal. */
static int same_run(const as_seq *s, const uint32_t *h, uint32_t a, uint32_t b, uint32_t len)
{
    for (uint32_t j = 0; j < len; j++)
        if (h[a + j] != h[b + j] || !ins_equal(&s->v[a + j], &s->v[b + j]))
            return 0;
    return 1;
}

/* s into out, each tandem repeat folded into a loop: at every position the
 * body (1..REPEAT_BODY_MAX entries) whose repeats cover the most entries,
 * the shortest on a tie.  One level: bodies hold no loops. */
static void fold_repeats(as_reader *r, const as_seq *s, as_seq *out)
{
    out->n = 0;
    if (s->n > r->hcap) {
        r->hcap = s->n;
        r->hbuf = xrealloc(r->hbuf, r->hcap * sizeof *r->hbuf);
    }
    uint32_t *h = r->hbuf, end = s->n;
    for (uint32_t j = 0; j < end; j++)
        h[j] = ins_hash(&s->v[j], 2166136261u);
    for (uint32_t i = 0; i < end;) {
        uint32_t best_len = 0, best_k = 0;
        uint32_t max_len = SK_MIN(REPEAT_BODY_MAX, (end - i) / REPEAT_MIN);
        for (uint32_t len = 1; len <= max_len; len++) {
            if (h[i + len] != h[i])
                continue;
            uint32_t k = 1;
            while ((uint64_t)i + (uint64_t)(k + 1) * len <= end && same_run(s, h, i, i + k * len, len))
                k++;
            if (k >= REPEAT_MIN && (uint64_t)k * len > (uint64_t)best_k * best_len) {
                best_len = len;
                best_k = k;
            }
        }
        if (!best_len) {
            *seq_push(out, s->line[i]) = s->v[i];
            i++;
            continue;
        }
        as_ins *x = seq_push(out, s->line[i]);
        x->kind = IK_LOOP;
        x->cls = FU_MISC;
        x->arg = best_k;
        for (uint32_t j = i; j < i + best_len; j++) {
            as_ins *b = seq_push(out, s->line[j]);
            *b = s->v[j];
            for (uint32_t k = 1; k < best_k; k++)
                mask_merge(b, &s->v[j + k * best_len]);
            /* iteration k of the body: its addresses k iteration strides on */
            for (uint32_t k = 1; k < best_k && (b->aff & AA_OK); k++) {
                const as_ins *c = &s->v[j + k * best_len];
                if (c->aff & AA_NONE)
                    continue;
                if ((b->aff & AA_NONE) || (c->aff & AA_DW) != (b->aff & AA_DW) || c->dw != b->dw)
                    b->aff = 0;
                else
                    addr_fit(b, c, k, AA_DI, &b->di);
            }
        }
        x = seq_push(out, s->line[i + best_len - 1]);
        x->kind = IK_ENDLOOP;
        x->cls = FU_MISC;
        i += best_k * best_len;
    }
}

/* Turn the finished CTA's warp streams into its layout (r->layout). */
static void build_layout(as_reader *r, unsigned long tb_line)
{
    int uniform = 1;
    for (uint32_t w = 0; w < r->nwarps; w++) {
        as_seq *s = &r->warp[w];
        for (uint32_t i = 0; i + 1 < s->n; i++) {
            if (s->v[i].kind == IK_EXIT) {      /* some threads left, the warp went on */
                s->v[i].kind = IK_ALU;
                s->v[i].cls = FU_BRANCH;
                s->v[i].op = r->op_pexit;
            }
        }
        if (s->n == 0 || s->v[s->n - 1].kind != IK_EXIT) {
            uint32_t line = s->n ? s->line[s->n - 1] : (uint32_t)SK_MIN(tb_line, UINT32_MAX);
            as_ins *x = seq_push(s, line);
            x->kind = IK_EXIT;
            x->cls = FU_BRANCH;
            x->op = r->op_exit;
        }
        if (w > 0 && uniform)
            uniform = seq_equal(s, &r->warp[0]);
    }
    if (uniform) {
        /* one stream for every warp: its addresses step by a warp stride */
        as_seq *s0 = &r->warp[0];
        for (uint32_t i = 0; i < s0->n; i++) {
            for (uint32_t w = 1; w < r->nwarps; w++)
                mask_merge(&s0->v[i], &r->warp[w].v[i]);
            for (uint32_t w = 1; w < r->nwarps && (s0->v[i].aff & AA_OK); w++)
                addr_fit(&s0->v[i], &r->warp[w].v[i], w, AA_DW, &s0->v[i].dw);
        }
    }
    for (uint32_t w = 0; w < (uniform ? 1 : r->nwarps); w++)
        fold_repeats(r, &r->warp[w], &r->cwarp[w]);
    as_seq *l = &r->layout;
    l->n = 0;
    if (uniform) {
        const as_seq *s = &r->cwarp[0];
        for (uint32_t i = 0; i < s->n; i++)
            *seq_push(l, s->line[i]) = s->v[i];
        return;
    }
    for (uint32_t w = 0; w < r->nwarps; w++) {
        const as_seq *s = &r->cwarp[w];
        if (s->n <= 1)
            continue;               /* only its EXIT: the shared one below */
        uint32_t wl = (uint32_t)SK_MIN(r->warp_line[w], UINT32_MAX);
        as_ins *x = seq_push(l, wl);
        x->kind = IK_IFWARP;
        x->cls = FU_MISC;
        x->arg = w;
        for (uint32_t i = 0; i + 1 < s->n; i++)
            *seq_push(l, s->line[i]) = s->v[i];
        x = seq_push(l, s->line[s->n - 2]);
        x->kind = IK_ENDIF;
        x->cls = FU_MISC;
    }
    const as_seq *s0 = &r->cwarp[0];
    *seq_push(l, s0->line[s0->n - 1]) = s0->v[s0->n - 1];
}

/* A program from a layout: what native.c would build from the same text
 * (registers numbered sources first, marker names "ifwarp"/"endif"). */
static void build_program(as_reader *r, program *p, const as_seq *l, uint32_t index)
{
    char name[16];
    snprintf(name, sizeof name, "p%u", index);
    prog_init(p, name);
    uint32_t open[2] = {0, 0};      /* the open ifwarp, the open loop */
    for (uint32_t i = 0; i < l->n; i++) {
        const as_ins *a = &l->v[i];
        instr *in = prog_append(p);
        in->kind = a->kind;
        in->cls = a->cls;
        in->line = l->line[i];
        if (a->kind == IK_IFWARP || a->kind == IK_LOOP) {
            int loop = a->kind == IK_LOOP;
            in->arg = a->arg;
            in->opcode = prog_opname(p, loop ? "loop" : "ifwarp");
            open[loop] = p->n - 1;
            continue;
        }
        if (a->kind == IK_ENDIF || a->kind == IK_ENDLOOP) {
            int loop = a->kind == IK_ENDLOOP;
            in->arg = open[loop];
            in->opcode = prog_opname(p, loop ? "endloop" : "endif");
            p->code[open[loop]].jump = p->n;
            continue;
        }
        in->opcode = prog_opname(p, r->ops.opnames[a->op]);
        in->stall = a->stall ? a->stall : 1;
        in->bytes = a->bytes;
        in->pattern = a->pattern;
        in->stride = a->stride;
        in->flags |= prog_mem_flags(r->ops.opnames[a->op], a->kind);
        /* the silicon model's energy row and tensor input type, from the
         * SASS mnemonic (HGMMA.64x256x16.F32.BF16), as in native.c */
        in->erow = (uint8_t)si_op_row_of(r->ops.opnames[a->op], a->cls);
        if (prog_op_half(r->ops.opnames[a->op]))
            in->flags |= IF_HALF;
        if (a->cls == FU_TENSOR)
            in->dtype = (uint8_t)si_tensor_dtype_of(r->ops.opnames[a->op]);
        char buf[8];
        for (int j = 0; j < a->nsrc; j++) {
            reg_name(a->src[j], buf, sizeof buf);
            (void)prog_regname(p, buf, &in->src[j]);   /* at most 332 names: never full */
        }
        for (int j = 0; j < a->ndst; j++) {
            reg_name(a->dst[j], buf, sizeof buf);
            (void)prog_regname(p, buf, &in->dst[j]);
        }
        in->nsrc = a->nsrc;
        in->ndst = a->ndst;
        in->reuse = a->reuse;
    }
}

#define SLOTS (2 * TRACE_MAX_PROGRAMS)

/* The program index of the finished CTA (a shared one, or a new one). */
/* A CTA that shares form f's program: its addresses step by a CTA stride
 * from the form's first CTA (and keep the same warp and iteration strides). */
static void addr_fit_cta(as_form *f, const as_seq *l, uint64_t cta)
{
    for (uint32_t i = 0; i < l->n; i++) {
        as_ins *a = &f->seq.v[i];
        const as_ins *b = &l->v[i];
        mask_merge(a, b);
        if (!(a->aff & AA_OK) || (b->aff & AA_NONE))
            continue;
        if ((a->aff & AA_NONE) || (a->aff & (AA_DW | AA_DI)) != (b->aff & (AA_DW | AA_DI)) ||
            a->dw != b->dw || a->di != b->di)
            a->aff = 0;
        else
            addr_fit(a, b, (int64_t)(cta - a->cta0), AA_DC, &a->dc);
    }
}

static int intern_cta(as_reader *r, unsigned long tb_line, uint64_t cta, uint32_t *prog)
{
    build_layout(r, tb_line);
    const as_seq *l = &r->layout;
    uint32_t h = seq_hash(l), slot = h & (SLOTS - 1);
    if (!r->slots)
        r->slots = xcalloc(SLOTS, sizeof *r->slots);
    for (; r->slots[slot] != 0; slot = (slot + 1) & (SLOTS - 1)) {
        const as_form *f = &r->forms[r->slots[slot] - 1];
        if (f->hash == h && seq_equal(&f->seq, l)) {
            *prog = r->slots[slot] - 1;
            addr_fit_cta(&r->forms[*prog], l, cta);
            return 0;
        }
    }
    if (r->nforms == TRACE_MAX_PROGRAMS)
        return FAIL(r, "thread block: expected at most %d distinct CTA programs per kernel",
                    TRACE_MAX_PROGRAMS);
    if (l->n > TRACE_MAX_INSTRS - r->entries)
        return FAIL(r, "thread block: expected at most %u entries over the kernel's distinct CTA "
                    "programs", TRACE_MAX_INSTRS);
    r->entries += l->n;
    r->forms = xrealloc(r->forms, (r->nforms + 1) * sizeof *r->forms);
    r->progs = xrealloc(r->progs, (r->nforms + 1) * sizeof *r->progs);
    as_form *f = &r->forms[r->nforms];
    f->hash = h;
    memset(&f->seq, 0, sizeof f->seq);
    for (uint32_t i = 0; i < l->n; i++) {
        as_ins *a = seq_push(&f->seq, l->line[i]);
        *a = l->v[i];
        a->cta0 = cta;
    }
    build_program(r, &r->progs[r->nforms], l, r->nforms);
    r->slots[slot] = r->nforms + 1;
    *prog = r->nforms++;
    return 0;
}

static int stride_fits(int64_t d)
{
    return d >= -MEM_AP_STRIDE_MAX && d <= MEM_AP_STRIDE_MAX;
}

/* Each program's memory instructions whose instances fit an affine pattern
 * get it (the strides not found, e.g. per CTA in a one-CTA form, are 0). */
static void attach_apats(as_reader *r)
{
    for (uint32_t f = 0; f < r->nforms; f++) {
        const as_seq *q = &r->forms[f].seq;
        program *p = &r->progs[f];
        for (uint32_t i = 0; i < q->n && i < p->n; i++) {
            const as_ins *a = &q->v[i];
            if (!is_memory(a->kind) || !(a->aff & AA_OK))
                continue;
            mem_apat ap;
            memset(&ap, 0, sizeof ap);
            ap.kind = MEM_AP_AFFINE;
            ap.idle = ~a->mask;
            if (a->aff & AA_NONE) {
                /* no instance had an active lane: a pattern of no lanes,
                 * so that the instruction issues and touches nothing */
                ap.lane = a->bytes;
                ap.warp = 32 * ap.lane;
                p->code[i].apat = prog_add_apat(p, &ap);
                continue;
            }
            ap.lane = a->dl;
            ap.warp = a->aff & AA_DW ? a->dw : 0;
            ap.iter = a->aff & AA_DI ? a->di : 0;
            ap.cta = a->aff & AA_DC ? a->dc : 0;
            /* strides past what a pattern may hold (lanes or warps 2^40
             * bytes apart and more) are no pattern: the instruction keeps
             * its byte count, as where the instances follow no stride */
            if (!stride_fits(ap.lane) || !stride_fits(ap.warp) || !stride_fits(ap.iter) || !stride_fits(ap.cta))
                continue;
            /* wraps modulo 2^64 as the pattern's own sums do */
            ap.base = a->a0 - a->cta0 * (uint64_t)ap.cta;
            p->code[i].apat = prog_add_apat(p, &ap);
        }
    }
}

/* --------------------------------------------------------------- kernels */

static void forget_kernel(as_reader *r)
{
    free(r->kname);
    r->kname = NULL;
    r->binary = 0;
    r->listing_fn = -1;
    prog_free(&r->ops);
    for (uint32_t i = 0; i < r->nforms; i++)
        seq_free(&r->forms[i].seq);
    free(r->forms);
    r->forms = NULL;
    if (r->progs) {
        for (uint32_t i = 0; i < r->nforms; i++)
            prog_free(&r->progs[i]);
        free(r->progs);
        r->progs = NULL;
    }
    r->nforms = 0;
    r->entries = 0;
    free(r->slots);
    r->slots = NULL;
    free(r->ctas);
    r->ctas = NULL;
    r->nctas = r->ctacap = r->next = 0;
}

/* "-key = value" of the header: the key's words, and the value. */
static int header_kv(char *line, char **key, char **val)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return -1;
    char *k = line + 1, *kend = eq;
    while (is_blank(*k))
        k++;
    while (kend > k && is_blank(kend[-1]))
        kend--;
    if (kend == k)
        return -1;
    for (char *p = k; p < kend; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == ' '))
            return -1;
    *kend = '\0';
    char *v = eq + 1;
    while (is_blank(*v))
        v++;
    *key = k;
    *val = v;
    return 0;
}

enum { H_NAME, H_GRID, H_BLOCK, H_SHMEM, H_NREGS, H_VERSION, H_LINEINFO, H_ID, H_BINARY, H_STREAM,
       H_SHMEM_BASE, H_LOCAL_BASE, H_NVBIT, H_N };

static const char *const header_keys[H_N] = {
    "kernel name", "grid dim", "block dim", "shmem", "nregs", "accelsim tracer version",
    "enable lineinfo", "kernel id", "binary version", "cuda stream id", "shmem base_addr",
    "local mem base_addr", "nvbit version",
};

/* One header line (its text still whole). */
static int parse_header_line(as_reader *r, int seen[H_N])
{
    char *key, *val;
    if (header_kv(r->line, &key, &val) < 0)
        return FAIL(r, "%.60s: expected a header line '-key = value'", r->line);
    int h = 0;
    while (h < H_N && strcmp(key, header_keys[h]) != 0)
        h++;
    if (h == H_N)
        return 0;                   /* a header of a newer tracer: not needed */
    if (seen[h]++)
        return FAIL(r, "-%s: expected each header key once", key);
    uint64_t v, d[3];
    switch (h) {
    case H_NAME:
        if (!*val)
            return FAIL(r, "-kernel name: expected a kernel name");
        if (strlen(val) > TRACE_NAME_MAX_BYTES)
            return FAIL(r, "-kernel name: %.40s...: expected at most %d bytes", val, TRACE_NAME_MAX_BYTES);
        r->kname = xstrdup(val);
        /* one token in the native format (unmangled names hold blanks) */
        for (char *p = r->kname; *p; p++)
            if ((unsigned char)*p <= ' ' || *p == '#' || *p == '=' || *p == 0x7f)
                *p = '_';
        break;
    case H_GRID: {
        static const uint64_t max[3] = {2147483647, 65535, 65535};   /* CUDA grid limits */
        if (parse_dim3(val, 1, max, d) < 0 || d[0] * d[1] * d[2] > TRACE_GRID_MAX)
            return FAIL(r, "-grid dim: %s: expected (X,Y,Z) of 1..4294967296 CTAs", val);
        memcpy(r->gdim, d, sizeof d);
        r->grid = d[0] * d[1] * d[2];
        break;
    }
    case H_BLOCK: {
        static const uint64_t max[3] = {1024, 1024, 64};             /* CUDA block limits */
        if (parse_dim3(val, 1, max, d) < 0 || d[0] * d[1] * d[2] > TRACE_BLOCK_MAX)
            return FAIL(r, "-block dim: %s: expected (X,Y,Z) of 1..1024 threads", val);
        for (int i = 0; i < 3; i++)
            r->bdim[i] = (uint32_t)d[i];
        r->block = (uint32_t)(d[0] * d[1] * d[2]);
        r->nwarps = (r->block + WARP_THREADS - 1) / WARP_THREADS;
        break;
    }
    case H_SHMEM:
        if (trace_parse_dec(val, TRACE_SMEM_MAX, &v) < 0)
            return FAIL(r, "-shmem: %s: expected 0..%u bytes of shared memory", val, TRACE_SMEM_MAX);
        r->smem = (uint32_t)v;
        break;
    case H_NREGS:
        if (trace_parse_dec(val, TRACE_REGS_MAX, &v) < 0 || v == 0)
            return FAIL(r, "-nregs: %s: expected 1..%d registers per thread", val, TRACE_REGS_MAX);
        r->regs = (uint32_t)v;
        break;
    case H_VERSION:
        if (trace_parse_dec(val, TRACER_MAX, &v) < 0 || v < TRACER_MIN)
            return FAIL(r, "-accelsim tracer version: %s: expected %d..%d", val, TRACER_MIN, TRACER_MAX);
        r->version = (uint32_t)v;
        break;
    case H_LINEINFO:
        if (trace_parse_dec(val, 1, &v) < 0)
            return FAIL(r, "-enable lineinfo: %s: expected 0 or 1", val);
        r->lineinfo = (int)v;
        break;
    case H_BINARY:
        if (trace_parse_dec(val, UINT64_MAX, &v) < 0)
            return FAIL(r, "-%s: %s: expected a decimal number", key, val);
        r->binary = v;
        break;
    case H_ID:
    case H_STREAM:
        if (trace_parse_dec(val, UINT64_MAX, &v) < 0)
            return FAIL(r, "-%s: %s: expected a decimal number", key, val);
        break;
    case H_SHMEM_BASE:
    case H_LOCAL_BASE:
        if (parse_hex(val, 16, &v) < 0)
            return FAIL(r, "-%s: %s: expected a hexadecimal address", key, val);
        break;
    default:
        break;
    }
    return 0;
}

static int close_warp(as_reader *r, int warp, uint64_t announced, uint64_t count, unsigned long insts_line,
                      const char *tb)
{
    if (warp >= 0 && count != announced)
        return FAIL(r, "warp %d of thread block %s: insts = %llu (line %lu) but %llu instruction "
                    "lines follow", warp, tb, (unsigned long long)announced, insts_line,
                    (unsigned long long)count);
    return 0;
}

static int cta_cmp(const void *a, const void *b)
{
    const as_cta *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The header and every CTA of the kernel file r->f, into *k. */
static int parse_kernel(as_reader *r, kernel *k)
{
    int seen[H_N] = {0};
    r->regs = 32;
    r->smem = 0;
    r->version = TRACER_MAX;
    r->lineinfo = 0;
    /* a new mnemonic table: cached indices into the old one are stale */
    if (++r->opc_gen == 0)
        r->opc_gen = 1;
    r->op_exit = prog_opname(&r->ops, "EXIT");
    r->op_pexit = prog_opname(&r->ops, "PEXIT");
    int rc;

    /* header: "-key = value" lines up to the first '#' line */
    for (;;) {
        if ((rc = next_line(r)) < 0)
            return rc;
        if (rc == 0)
            return FAIL(r, "end of file in the kernel header: expected #BEGIN_TB");
        char *s = r->line;
        while (is_blank(*s))
            s++;
        if (*s == '#')
            break;
        if (*s != '-')
            return FAIL(r, "%.60s: expected a header line '-key = value' or '#BEGIN_TB'", s);
        if (s != r->line)
            memmove(r->line, s, strlen(s) + 1);
        if (parse_header_line(r, seen) < 0)
            return r->err.code;
    }
    if (!seen[H_NAME] || !seen[H_GRID] || !seen[H_BLOCK])
        return FAIL(r, "expected '-%s = ...' in the header before the thread blocks",
                    header_keys[!seen[H_NAME] ? H_NAME : !seen[H_GRID] ? H_GRID : H_BLOCK]);

    /* thread blocks */
    int in_tb = 0, have_tb = 0, warp = -1, have_insts = 0;
    uint64_t announced = 0, count = 0, budget = 0, tb[3] = {0, 0, 0};
    unsigned long tb_line = 0, begin_line = 0, insts_line = 0;
    char tbname[80] = "";
    uint8_t warp_seen[MAX_WARPS];
    int first = 1;
    for (;;) {
        if (first)
            first = 0;              /* the '#' line that ended the header */
        else if ((rc = next_line(r)) < 0)
            return rc;
        else if (rc == 0)
            break;
        if ((rc = tokenize(r)) < 0)
            return rc;
        char **tk = r->tok;
        int n = r->ntok;
        /* the keyword tests look at the first byte before calling strcmp:
         * nearly every line is an instruction, which starts with a digit */
        char c0 = tk[0][0];
        if (c0 == '#' && strcmp(tk[0], "#BEGIN_TB") == 0) {
            if (in_tb)
                return FAIL(r, "#BEGIN_TB: expected #END_TB of the thread block of line %lu first",
                            begin_line);
            in_tb = 1;
            have_tb = 0;
            warp = -1;
            have_insts = 0;
            budget = 0;
            begin_line = r->lineno;
            memset(warp_seen, 0, sizeof warp_seen);
            for (uint32_t w = 0; w < r->nwarps; w++)
                r->warp[w].n = 0;
            continue;
        }
        if (c0 == '#' && strcmp(tk[0], "#END_TB") == 0) {
            if (!in_tb || !have_tb)
                return FAIL(r, "#END_TB: expected %s first", in_tb ? "'thread block = X,Y,Z'" : "#BEGIN_TB");
            if (warp >= 0 && !have_insts)
                return FAIL(r, "#END_TB: expected 'insts = N' after 'warp = %d'", warp);
            if (close_warp(r, warp, announced, count, insts_line, tbname) < 0)
                return r->err.code;
            uint32_t prog = 0;
            uint64_t cta = tb[0] + tb[1] * r->gdim[0] + tb[2] * r->gdim[0] * r->gdim[1];
            if (intern_cta(r, tb_line, cta, &prog) < 0)
                return r->err.code;
            if (r->nctas == r->ctacap) {
                r->ctacap = r->ctacap ? 2 * r->ctacap : 256;
                r->ctas = xrealloc(r->ctas, r->ctacap * sizeof *r->ctas);
            }
            as_cta *c = &r->ctas[r->nctas++];
            c->id = cta;
            c->prog = prog;
            c->line = tb_line;
            in_tb = 0;
            if (r->nctas > r->grid)   /* a repeat: found by the sort below, but stop reading now */
                break;
            continue;
        }
        if (tk[0][0] == '#')
            continue;               /* a comment, e.g. "#traces format = ..." */
        if (!in_tb)
            return FAIL(r, "%.40s: expected #BEGIN_TB", tk[0]);
        if (c0 == 't' && n >= 3 && strcmp(tk[0], "thread") == 0 && strcmp(tk[1], "block") == 0) {
            uint64_t max[3] = {r->gdim[0] - 1, r->gdim[1] - 1, r->gdim[2] - 1};
            if (have_tb || warp >= 0)
                return FAIL(r, "thread block: expected it once, before the warps");
            if (n != 4 || strcmp(tk[2], "=") != 0 || parse_dim3(tk[3], 0, max, tb) < 0)
                return FAIL(r, "thread block = %s: expected X,Y,Z below the grid (%llu,%llu,%llu)",
                            n >= 4 ? tk[3] : "", (unsigned long long)r->gdim[0],
                            (unsigned long long)r->gdim[1], (unsigned long long)r->gdim[2]);
            have_tb = 1;
            tb_line = r->lineno;
            snprintf(tbname, sizeof tbname, "(%llu,%llu,%llu)", (unsigned long long)tb[0],
                     (unsigned long long)tb[1], (unsigned long long)tb[2]);
            continue;
        }
        if (c0 == 'c' && strcmp(tk[0], "cluster") == 0)
            continue;               /* Hopper cluster ids: not modelled */
        if (c0 == 'w' && strcmp(tk[0], "warp") == 0) {
            uint64_t w;
            if (!have_tb)
                return FAIL(r, "warp: expected 'thread block = X,Y,Z' first");
            if (warp >= 0 && !have_insts)
                return FAIL(r, "warp: expected 'insts = N' after 'warp = %d'", warp);
            if (close_warp(r, warp, announced, count, insts_line, tbname) < 0)
                return r->err.code;
            if (n != 3 || strcmp(tk[1], "=") != 0 || trace_parse_dec(tk[2], r->nwarps - 1, &w) < 0)
                return FAIL(r, "warp = %s: expected a warp index 0..%u (block of %u threads)",
                            n >= 3 ? tk[2] : "", r->nwarps - 1, r->block);
            if (warp_seen[w]++)
                return FAIL(r, "warp = %llu: expected each warp once per thread block",
                            (unsigned long long)w);
            warp = (int)w;
            r->warp_line[w] = r->lineno;
            have_insts = 0;
            continue;
        }
        if (c0 == 'i' && strcmp(tk[0], "insts") == 0) {
            if (warp < 0 || have_insts)
                return FAIL(r, "insts: expected 'warp = N' first");
            if (n != 3 || strcmp(tk[1], "=") != 0 || trace_parse_dec(tk[2], TRACE_MAX_INSTRS, &announced) < 0)
                return FAIL(r, "insts = %s: expected 0..%u instructions", n >= 3 ? tk[2] : "",
                            TRACE_MAX_INSTRS);
            have_insts = 1;
            insts_line = r->lineno;
            count = 0;
            continue;
        }
        if (warp < 0 || !have_insts)
            return FAIL(r, "%.40s: expected 'warp = N' and 'insts = N' before instructions", tk[0]);
        if (count == announced)
            return FAIL(r, "%.40s: expected 'warp = N' or '#END_TB' after the %llu instructions of "
                        "warp %d (insts = %llu, line %lu)", tk[0], (unsigned long long)announced,
                        warp, (unsigned long long)announced, insts_line);
        if (++budget > TRACE_MAX_INSTRS)
            return FAIL(r, "expected at most %u instructions per thread block", TRACE_MAX_INSTRS);
        if (parse_ins(r, &r->warp[warp]) < 0)
            return r->err.code;
        count++;
    }
    if (in_tb)
        return FAIL(r, "end of file inside the thread block of line %lu: expected #END_TB", begin_line);

    /* Sorted, CTA i is at index i unless one repeats (an id below i) or
     * one is missing (above i, or the table ends short). */
    if (r->nctas > 1)
        qsort(r->ctas, r->nctas, sizeof *r->ctas, cta_cmp);
    uint64_t id = 0;
    while (id < r->nctas && r->ctas[id].id == id)
        id++;
    if (id < r->nctas && r->ctas[id].id < id) {
        const as_cta *c = &r->ctas[id];
        uint64_t x = c->id % r->gdim[0], y = c->id / r->gdim[0] % r->gdim[1];
        uint64_t z = c->id / r->gdim[0] / r->gdim[1];
        r->lineno = c->line;
        return FAIL(r, "thread block = %llu,%llu,%llu: expected each CTA once (also at line %lu)",
                    (unsigned long long)x, (unsigned long long)y, (unsigned long long)z,
                    r->ctas[id - 1].line);
    }
    if (id < r->grid) {
        uint64_t x = id % r->gdim[0], y = id / r->gdim[0] % r->gdim[1], z = id / r->gdim[0] / r->gdim[1];
        return FAIL(r, "kernel '%s': thread block (%llu,%llu,%llu) is missing: expected each of the "
                    "%llu CTAs of grid (%llu,%llu,%llu) once", r->kname, (unsigned long long)x,
                    (unsigned long long)y, (unsigned long long)z, (unsigned long long)r->grid,
                    (unsigned long long)r->gdim[0], (unsigned long long)r->gdim[1],
                    (unsigned long long)r->gdim[2]);
    }

    attach_apats(r);
    k->name = xstrdup(r->kname);
    k->grid = r->grid;
    k->block_threads = r->block;
    k->regs_per_thread = r->regs;
    k->smem_bytes = r->smem;
    k->gap_ns = 0;
    k->progs = r->progs;
    k->nprogs = r->nforms;
    r->progs = NULL;
    return 1;
}

/* ------------------------------------------------------------ kernelslist */

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The path of a kernelslist entry: relative to the list's directory.  A
 * listed X.xz is read as X (decompressed next to it: zlib reads no xz), and
 * a missing X as X.gz when that exists. */
static char *kernel_path(const char *list, const char *entry)
{
    const char *slash = strrchr(list, '/');
    size_t dlen = entry[0] == '/' || !slash ? 0 : (size_t)(slash - list) + 1;
    size_t elen = strlen(entry);
    if (has_suffix(entry, ".xz"))
        elen -= 3;
    char *p = xmalloc(dlen + elen + 4);
    memcpy(p, list, dlen);
    memcpy(p + dlen, entry, elen);
    p[dlen + elen] = '\0';
    FILE *f = fopen(p, "rb");
    if (f) {
        fclose(f);
        return p;
    }
    memcpy(p + dlen + elen, ".gz", 4);
    f = fopen(p, "rb");
    if (f) {
        fclose(f);
        return p;
    }
    p[dlen + elen] = '\0';
    return p;
}

/* "MemcpyHtoD,0xADDRESS,BYTES" (the tracer writes only HtoD; DtoH is
 * accepted as Accel-Sim's own parser ignores it). */
static int memcpy_line(const char *s)
{
    if (strncmp(s, "MemcpyHtoD,", 11) != 0 && strncmp(s, "MemcpyDtoH,", 11) != 0)
        return 0;
    char buf[64];
    const char *a = s + 11, *comma = strchr(a, ',');
    uint64_t v;
    if (!comma || (size_t)(comma - a) >= sizeof buf)
        return 0;
    memcpy(buf, a, (size_t)(comma - a));
    buf[comma - a] = '\0';
    if (buf[0] != '0' || (buf[1] != 'x' && buf[1] != 'X') || parse_hex(buf, 16, &v) < 0)
        return 0;
    return trace_parse_dec(comma + 1, UINT64_MAX, &v) == 0;
}

/* ------------------------------------------------------------ public API */

/* The list and the kernel files of the kernelslist.g `list`. */
static int list_files(const char *list, char ***files, size_t *nfiles, sk_error *e)
{
    lineread *f = lineread_open(list, e);
    if (!f)
        return e->code;
    size_t cap = 8, n = 0;
    char **v = xmalloc(cap * sizeof *v);
    v[n++] = xstrdup(list);
    char *line;
    size_t len;
    int r;
    while ((r = lineread_next(f, &line, &len, e)) > 0) {
        while (is_blank(*line))
            line++, len--;
        while (len > 0 && is_blank(line[len - 1]))
            line[--len] = '\0';
        if (len == 0 || strncmp(line, "Memcpy", 6) == 0 || strncmp(line, "kernel", 6) != 0)
            continue;                 /* the reader reports bad lines itself */
        if (n == cap) {
            cap *= 2;
            v = xrealloc(v, cap * sizeof *v);
        }
        v[n++] = kernel_path(list, line);
    }
    lineread_close(f);
    if (r < 0) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return r;
    }
    *files = v;
    *nfiles = n;
    return 0;
}

/* What the first line that is neither blank nor a comment (and the path)
 * say the input is: AS_KERNEL_FILE for a `-kernel name = ...` header,
 * AS_KERNELSLIST for a name ending in kernelslist.g or a MemcpyHtoD /
 * kernel-N.traceg line, else 0 (not an Accel-Sim trace). */
static int as_sniff(const char *path, const char *first_line)
{
    const char *s = first_line ? first_line : "";
    while (is_blank(*s))
        s++;
    if (strncmp(s, "-kernel name", 12) == 0)
        return AS_KERNEL_FILE;
    if (has_suffix(path, "kernelslist.g") || strncmp(s, "MemcpyHtoD,", 11) == 0 ||
        (strncmp(s, "kernel-", 7) == 0 && strstr(s, ".traceg") != NULL))
        return AS_KERNELSLIST;
    return 0;
}

static int as_probe(const char *name, const char *first)
{
    return as_sniff(name, first) != 0;
}

/* Errors are reported by the first as_next_kernel(). */
static void *as_open(lineread *src, const char *first, sk_error *e)
{
    (void)e;
    as_reader *r = xcalloc(1, sizeof *r);
    r->src = src;
    r->kind = as_sniff(lineread_name(src), first);
    r->listing_fn = -1;
    return r;
}

/* A kernelslist.g (or its directory): the list and every kernel file it
 * names, resolved as as_next_kernel() resolves them; a kernel file: itself. */
static int as_input_files(void *ctx, const char *path, char ***files, size_t *nfiles, sk_error *e)
{
    as_reader *r = ctx;
    if (r->kind == AS_KERNELSLIST)
        return list_files(path, files, nfiles, e);
    return trace_one_file(lineread_name(r->src), files, nfiles);
}

static int as_set_sass(void *ctx, const sass *s, const char *name, sk_error *e)
{
    (void)e;
    as_reader *r = ctx;
    r->listing = s;
    r->listing_name = name;
    r->listing_fn = -1;
    return 0;
}

static void as_close(void *ctx)
{
    as_reader *r = ctx;
    if (!r)
        return;
    forget_kernel(r);
    if (r->f && r->f != r->src)
        lineread_close(r->f);
    for (int w = 0; w < MAX_WARPS; w++) {
        seq_free(&r->warp[w]);
        seq_free(&r->cwarp[w]);
    }
    free(r->hbuf);
    seq_free(&r->layout);
    free(r);
}

static int as_next_kernel(void *ctx, kernel *k, sk_error *e)
{
    as_reader *r = ctx;
    memset(k, 0, sizeof *k);
    if (r->err.code)
        return report(r, e);
    forget_kernel(r);
    if (r->done)
        return 0;
    if (r->kind == AS_KERNEL_FILE) {
        r->f = r->src;
        r->fname = lineread_name(r->src);
        r->done = 1;
    } else {
        /* the next kernel line of the list */
        const char *list = lineread_name(r->src);
        char *entry = NULL;
        for (;;) {
            r->f = r->src;
            r->fname = list;
            int rc = next_line(r);
            if (rc < 0)
                return report(r, e);
            if (rc == 0) {
                r->done = 1;
                if (r->kernels == 0)
                    fail(r, SK_ETRACE, "%s: no kernel-N.traceg line: expected at least one kernel", list);
                return r->kernels == 0 ? report(r, e) : 0;
            }
            char *s = r->line;
            while (is_blank(*s))
                s++;
            if (strncmp(s, "Memcpy", 6) == 0) {
                if (!memcpy_line(s)) {
                    fail_line(r, "%.60s: expected MemcpyHtoD,0xADDRESS,BYTES", s);
                    return report(r, e);
                }
                r->memcpys++;
                continue;
            }
            if (strncmp(s, "kernel", 6) != 0 || strpbrk(s, " \t") != NULL) {
                fail_line(r, "%.60s: expected a kernel-N.traceg or MemcpyHtoD,0xADDRESS,BYTES line", s);
                return report(r, e);
            }
            if (lineread_in_memory(r->src)) {
                fail_line(r, "%.60s: expected a kernelslist.g read from a file (its kernels are "
                          "files next to it)", s);
                return report(r, e);
            }
            entry = xstrdup(s);
            break;
        }
        unsigned long list_line = r->lineno;
        char *path = kernel_path(list, entry);
        sk_error oe = {0};
        r->f = lineread_open(path, &oe);
        if (!r->f) {
            fail(r, oe.code, "%s:%lu: %s: %s", list, list_line, entry, oe.msg);
            free(path);
            free(entry);
            return report(r, e);
        }
        free(entry);
        free(path);
        r->fname = lineread_name(r->f);
    }
    int rc = parse_kernel(r, k);
    if (r->f != r->src)
        lineread_close(r->f);
    r->f = NULL;
    if (rc < 0) {
        kernel_free(k);
        return report(r, e);
    }
    r->kernels++;
    return 1;
}

static int as_next_cta(void *ctx, cta_desc *d, sk_error *e)
{
    as_reader *r = ctx;
    if (r->err.code)
        return report(r, e);
    if (r->next >= r->nctas)
        return 0;
    const as_cta *c = &r->ctas[r->next++];
    d->id = c->id;
    d->prog = c->prog;
    d->work = 1.0;
    return 1;
}

const trace_format trace_accelsim_format = {
    .name = "accelsim",
    .probe = as_probe,
    .open = as_open,
    .next_kernel = as_next_kernel,
    .next_cta = as_next_cta,
    .input_files = as_input_files,
    .set_sass = as_set_sass,
    .close = as_close,
};
