/* native.c -- reader of the native trace format (docs/trace-format.md).
 *
 * The format is line-oriented text, so one reader serves files written by
 * `skewsim gen`, by hand and by converters.  Three properties drive the code:
 *
 *  - Memory does not grow with the grid.  A kernel's header and programs are
 *    parsed whole (they are small), but its `ctas` section is read one record
 *    ahead of the CTA the dispatcher asks for, and a `range` record stands for
 *    any number of CTAs.  trace_next_kernel() drains (and still validates)
 *    whatever CTA records the caller did not ask for.
 *  - Bad input is reported, never crashed on: every error is one line
 *    "file:line:col: record: value: expected what", and the first error is
 *    sticky (every later call returns it again).
 *  - Plain and gzip'd files read the same way: lines come from the shared
 *    line reader (lineread.h), which also bounds their length.
 *
 * This file is one trace format (trace_priv.h's ops table, registered in
 * trace.c) and calls no other reader.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_priv.h"
#include "skewsim/topo.h"
#include "skewsim/memsys.h"
#include "skewsim/silicon.h"

#define MAX_TOKENS 64                 /* per line */
#define MAX_BLOCKS 32                 /* open loop/ifwarp blocks in a program */
#define GAP_MAX_NS UINT64_C(1000000000000) /* idle before a launch: 1000 s */
#define WORK_MAX 1e6                  /* CTA work factor */

#define HEADER_MAGIC "skewsim-trace"
#define HEADER_VERSION "1"

#define REG_EXPECT "a register (R0-R254, P0-P6, UR0-UR62, UP0-UP6, RZ, PT, URZ, UPT)"

enum {
    ST_HEADER,   /* header line not read yet */
    ST_TOP,      /* between kernels (the current kernel, if any, is fully read) */
    ST_CTAS,     /* inside the current kernel's ctas section */
    ST_EOF,      /* end of the trace reached */
    ST_ERROR     /* an error was reported; t->err holds it */
};

typedef struct token {
    char *s;            /* NUL-terminated, points into native.line */
    uint32_t col;       /* 1-based byte column */
} token;

typedef struct native {
    lineread *src;                  /* borrowed: the input trace_open() opened */
    const char *name;               /* its name, for messages */
    char *line;                     /* current line (the line reader's) */
    size_t linelen;
    unsigned long lineno;
    token tok[MAX_TOKENS];
    int ntok;
    uint32_t eol_col;               /* column just past the last token */
    int state;
    sk_error err;                   /* first error, returned by every later call */

    /* current kernel, as far as trace_next_cta() needs it */
    int have_kernel;
    char *kname;
    unsigned long kline;            /* line of its `kernel` record */
    uint64_t grid;
    char **pnames;                  /* program names, for program= in records */
    uint32_t npnames;
    uint32_t entries_before;        /* entries of the kernel's earlier programs (TRACE_MAX_INSTRS) */
    uint64_t next_id;               /* next CTA id to hand out */
    unsigned long ctas_line;        /* line of the `ctas` record */
    int rec_valid;                  /* rec_* holds a record not yet fully handed out */
    uint64_t rec_a, rec_b;
    uint32_t rec_prog;
    double rec_work;
    int have_prev;                  /* a record was read: the next must start above prev_b */
    uint64_t prev_b;
} native;

/* ---------------------------------------------------------------- errors */

/* "file:line:col: msg", or "file:line: msg" for col 0.  (The line reader
 * words its own errors, "file: ..." among them.) */
__attribute__((format(printf, 3, 0)))
static int vfail(native *t, uint32_t col, const char *fmt, va_list ap)
{
    char msg[SK_ERRMSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (col)
        sk_errorf(&t->err, SK_ETRACE, "%s:%lu:%u: %s", t->name, t->lineno, col, msg);
    else
        sk_errorf(&t->err, SK_ETRACE, "%s:%lu: %s", t->name, t->lineno ? t->lineno : 1, msg);
    t->state = ST_ERROR;
    return t->err.code;
}

/* "file:line:col: msg" */
__attribute__((format(printf, 3, 4)))
static int fail_at(native *t, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfail(t, col, fmt, ap);
    va_end(ap);
    return r;
}

/* "file:line: msg" (structural errors: the line where it was detected) */
__attribute__((format(printf, 2, 3)))
static int fail_line(native *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfail(t, 0, fmt, ap);
    va_end(ap);
    return r;
}

static int report(const native *t, sk_error *e)
{
    if (e && e->code == 0)
        *e = t->err;
    return t->err.code;
}

/* ----------------------------------------------------------------- lines */

/* Next physical line into t->line.  Returns 1, 0 at the end, or an error
 * (the line reader's message, sticky here too). */
static int read_line(native *t)
{
    int r = lineread_next(t->src, &t->line, &t->linelen, &t->err);
    if (r < 0) {
        t->state = ST_ERROR;
        return r;
    }
    t->lineno = lineread_lineno(t->src);
    return r;
}

static int is_blank(char c)
{
    /* '\r' so that CRLF files read like LF files */
    return c == ' ' || c == '\t' || c == '\r';
}

static int tokenize(native *t)
{
    char *s = t->line;
    size_t n = t->linelen, i = 0;
    t->ntok = 0;
    t->eol_col = 1;
    while (i < n) {
        if (is_blank(s[i])) {
            i++;
            continue;
        }
        if (s[i] == '#')
            break;
        size_t start = i;
        while (i < n && !is_blank(s[i]) && s[i] != '#')
            i++;
        if (t->ntok == MAX_TOKENS)
            return fail_at(t, (uint32_t)start + 1, "%s: %.*s: expected at most %d tokens on a line",
                           t->tok[0].s, (int)SK_MIN(i - start, 40), s + start, MAX_TOKENS);
        t->tok[t->ntok].s = s + start;
        t->tok[t->ntok].col = (uint32_t)start + 1;
        t->ntok++;
        t->eol_col = (uint32_t)i + 1;
        if (i < n) {
            int comment = s[i] == '#';
            s[i++] = '\0';
            if (comment)
                break;
        }
    }
    return 0;
}

/* Next line with at least one token.  Returns 1, 0 at the end, or an error. */
static int next_record(native *t)
{
    for (;;) {
        int r = read_line(t);
        if (r <= 0)
            return r;
        if ((r = tokenize(t)) < 0)
            return r;
        if (t->ntok > 0)
            return 1;
    }
}

/* A record that takes no operands, e.g. `end`, `ctas`, `endkernel`. */
static int expect_alone(native *t)
{
    if (t->ntok > 1)
        return fail_at(t, t->tok[1].col, "%s: %s: expected nothing more on the line",
                       t->tok[0].s, t->tok[1].s);
    return 0;
}

/* --------------------------------------------------------------- numbers */

/* "N" or "X,Y,Z" (each >= 1); the product must be 1..max. */
static int parse_dims(const char *s, uint64_t max, uint64_t *total)
{
    char buf[96];
    size_t len = strlen(s);
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, s, len + 1);
    uint64_t prod = 1;
    int parts = 0;
    for (char *p = buf, *comma; p; p = comma ? comma + 1 : NULL) {
        comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        uint64_t v;
        if (trace_parse_dec(p, max, &v) < 0 || v == 0 || prod > max / v)
            return -1;
        prod *= v;
        parts++;
    }
    if (parts != 1 && parts != 3)
        return -1;
    *total = prod;
    return 0;
}

/* Split "key=value"; returns the value or NULL when there is no '='. */
static const char *key_value(const char *s, size_t *klen)
{
    const char *eq = strchr(s, '=');
    if (!eq)
        return NULL;
    *klen = (size_t)(eq - s);
    return eq + 1;
}

static int key_is(const char *s, size_t klen, const char *key)
{
    return strlen(key) == klen && memcmp(s, key, klen) == 0;
}

/* ------------------------------------------------------------- registers */

/* Dense id of a register name, assigned in order of first appearance. */
static int intern_reg(native *t, program *p, const char *name, uint32_t col, const char *op,
                      uint16_t *out)
{
    if (prog_regname(p, name, out) < 0)   /* NEVER: the namespace has 332 names */
        return fail_at(t, col, "%s: %s: expected at most %d registers per program", op, name,
                       PROG_MAX_REGS);
    return 0;
}

/* ---------------------------------------------------------- instructions */

static int is_memory(uint8_t kind)
{
    return kind == IK_LD_GLOBAL || kind == IK_ST_GLOBAL || kind == IK_LD_SHARED ||
           kind == IK_ST_SHARED;
}

static instr *append(native *t, program *p)
{
    instr *in = prog_append(p);
    in->line = (uint32_t)SK_MIN(t->lineno, (unsigned long)UINT32_MAX);
    return in;
}

/* An unsigned number, decimal or 0x hex, at most max. */
static int parse_u64(const char *v, uint64_t max, uint64_t *out)
{
    if (v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
        return trace_parse_dec(v, max, out);
    uint64_t x = 0;
    const char *q = v + 2;
    if (!*q)
        return -1;
    for (; *q; q++) {
        int d = (*q >= '0' && *q <= '9') ? *q - '0' : (*q >= 'a' && *q <= 'f') ? *q - 'a' + 10
              : (*q >= 'A' && *q <= 'F') ? *q - 'A' + 10 : -1;
        if (d < 0 || x > (max - (uint64_t)d) / 16)
            return -1;
        x = x * 16 + (uint64_t)d;
    }
    *out = x;
    return 0;
}

/* A signed decimal in -2^40..2^40 (an address stride). */
static int parse_stride(const char *v, int64_t *out)
{
    uint64_t m;
    int neg = v[0] == '-';
    if (trace_parse_dec(v + neg, (uint64_t)MEM_AP_STRIDE_MAX, &m) < 0)
        return -1;
    *out = neg ? -(int64_t)m : (int64_t)m;
    return 0;
}

/* The address keys of docs/trace-format.md, "Addresses": 1 when s is one
 * (parsed into *a and *seen), 0 when it is not, -1 after a message. */
enum { AK_ADDR = 1, AK_LANE = 2, AK_WARP = 4, AK_CTA = 8, AK_ITER = 16, AK_WS = 32, AK_RAND = 64,
       AK_CHASE = 128, AK_PART = 256, AK_MASK = 512 };

static int parse_addr_key(native *t, const char *op, const char *s, uint32_t col, size_t klen,
                          const char *v, int memory, mem_apat *a, unsigned *seen)
{
    static const struct { const char *k; unsigned bit; } keys[] = {
        {"addr", AK_ADDR}, {"lane", AK_LANE}, {"warp", AK_WARP}, {"cta", AK_CTA},
        {"iter", AK_ITER}, {"ws", AK_WS}, {"rand", AK_RAND}, {"chase", AK_CHASE},
        {"part", AK_PART}, {"mask", AK_MASK},
    };
    unsigned bit = 0;
    for (size_t i = 0; i < SK_ARRAY_LEN(keys); i++)
        if (key_is(s, klen, keys[i].k))
            bit = keys[i].bit;
    if (!bit)
        return 0;
    if (*seen & bit)
        return fail_at(t, col, "%s: %s: expected each key once", op, s);
    *seen |= bit;
    if (!memory)
        return fail_at(t, col, "%s: %s: expected address keys only on a memory instruction", op, s);
    int rc = 0;
    uint64_t u = 0;
    switch (bit) {
    case AK_ADDR:
        rc = parse_u64(v, INT64_MAX, &a->base);
        if (rc < 0)
            return fail_at(t, col, "%s: %s: expected an address 0..2^63-1 (decimal or 0x hex)", op, s);
        return 1;
    case AK_LANE: rc = parse_stride(v, &a->lane); break;
    case AK_WARP: rc = parse_stride(v, &a->warp); break;
    case AK_CTA: rc = parse_stride(v, &a->cta); break;
    case AK_ITER: rc = parse_stride(v, &a->iter); break;
    case AK_WS:
        if (parse_u64(v, 1ull << 40, &u) < 0 || u == 0)
            return fail_at(t, col, "%s: %s: expected a working set of 1..2^40 bytes", op, s);
        a->ws = u;
        return 1;
    case AK_PART:
        /* only the pages of L2 partition P (mem_apat_part_addr) */
        if (parse_u64(v, 1, &u) < 0)
            return fail_at(t, col, "%s: %s: expected an L2 partition 0 or 1 (part=P)", op, s);
        a->part = (uint8_t)(u + 1);
        return 1;
    case AK_MASK:
        /* the active lanes (Accel-Sim's mask): kept as the idle ones, so
         * that a zeroed pattern has all 32 */
        if (parse_u64(v, UINT32_MAX, &u) < 0)
            return fail_at(t, col, "%s: %s: expected a lane mask 0..0xffffffff (decimal or 0x hex)", op, s);
        a->idle = ~(uint32_t)u;
        return 1;
    default:
        if (parse_u64(v, UINT64_MAX, &a->seed) < 0)
            return fail_at(t, col, "%s: %s: expected a seed 0..2^64-1", op, s);
        a->kind = bit == AK_RAND ? MEM_AP_RANDOM : MEM_AP_CHASE;
        return 1;
    }
    if (rc < 0)
        return fail_at(t, col, "%s: %s: expected a stride of -2^40..2^40 bytes", op, s);
    return 1;
}

/* One instruction line: [@[!]PRED] OPCODE [DST ...] [<- SRC ...] [key=value ...] */
static int parse_instr(native *t, program *p)
{
    const token *tk = t->tok;
    int n = t->ntok, i = 0;
    const char *guard = NULL;
    uint32_t guard_col = 0;

    if (tk[0].s[0] == '@') {
        guard = tk[0].s + 1;
        guard_col = tk[0].col;
        if (n < 2)
            return fail_at(t, t->eol_col, "%s: end of line: expected an opcode", tk[0].s);
        i = 1;
    }
    const char *op = tk[i].s;
    uint32_t op_col = tk[i].col;
    i++;

    uint8_t kind, cls;
    sk_error ce = {0};
    if (prog_classify(op, &kind, &cls, &ce) < 0)
        return fail_at(t, op_col, "%s: expected one of the opcodes in docs/trace-format.md", ce.msg);

    const char *dst[PROG_MAX_DST], *src[PROG_MAX_SRC];
    uint32_t dst_col[PROG_MAX_DST], src_col[PROG_MAX_SRC];
    int nd = 0, ns = 0, arrow = 0, pred;
    uint8_t reuse_mask = 0;
    char rbuf[PROG_MAX_SRC + 1][8];     /* a .reuse source's name without the suffix */

    if (guard) {
        const char *g = guard[0] == '!' ? guard + 1 : guard;
        int r = trace_parse_reg(g, &pred);
        if (r < 0 || !pred)
            return fail_at(t, guard_col, "%s: %s: expected a predicate guard (@P0-@P6, @UP0-@UP6, "
                           "@PT, @UPT, optionally negated: @!P0)", op, tk[0].s);
        if (r > 0) {
            src[ns] = g;
            src_col[ns++] = guard_col;
        }
    }

    uint64_t stall = 1, bytes = 4, stride = 0;
    uint8_t pattern = MP_COALESCED;
    int seen_stall = 0, seen_bytes = 0, seen_pattern = 0, seen_timer = 0, seen_clock = 0;
    uint8_t marks = 0;
    uint64_t ii = 0;
    int seen_ii = 0;
    mem_apat ap = { .kind = MEM_AP_AFFINE };
    unsigned seen_addr = 0;
    uint32_t addr_col = 0;

    for (; i < n; i++) {
        const char *s = tk[i].s;
        uint32_t col = tk[i].col;
        size_t klen;
        const char *v;
        if (strcmp(s, "<-") == 0) {
            if (arrow)
                return fail_at(t, col, "%s: <-: expected one '<-' between destinations and sources", op);
            arrow = 1;
        } else if ((v = key_value(s, &klen)) != NULL) {
            if (key_is(s, klen, "stall")) {
                if (seen_stall++)
                    return fail_at(t, col, "%s: %s: expected each key once", op, s);
                if (trace_parse_dec(v, 15, &stall) < 0 || stall < 1)
                    return fail_at(t, col, "%s: %s: expected a stall count 1..15", op, s);
            } else if (key_is(s, klen, "bytes")) {
                if (seen_bytes++)
                    return fail_at(t, col, "%s: %s: expected each key once", op, s);
                if (!is_memory(kind))
                    return fail_at(t, col, "%s: %s: expected bytes= only on a memory instruction", op, s);
                if (trace_parse_dec(v, 16, &bytes) < 0 || bytes == 0 || (bytes & (bytes - 1)))
                    return fail_at(t, col, "%s: %s: expected 1, 2, 4, 8 or 16 bytes per thread", op, s);
            } else if (key_is(s, klen, "pattern")) {
                if (seen_pattern++)
                    return fail_at(t, col, "%s: %s: expected each key once", op, s);
                if (!is_memory(kind))
                    return fail_at(t, col, "%s: %s: expected pattern= only on a memory instruction", op, s);
                if (strcmp(v, "coalesced") == 0)
                    pattern = MP_COALESCED;
                else if (strcmp(v, "random") == 0)
                    pattern = MP_RANDOM;
                else if (strcmp(v, "uniform") == 0)
                    pattern = MP_UNIFORM;
                else if (strncmp(v, "strided:", 8) == 0 && trace_parse_dec(v + 8, UINT32_MAX, &stride) == 0 &&
                         stride > 0)
                    pattern = MP_STRIDED;
                else
                    return fail_at(t, col, "%s: %s: expected coalesced, strided:N (N 1..4294967295 "
                                   "bytes), random or uniform", op, s);
            } else if (key_is(s, klen, "ii")) {
                if (seen_ii++)
                    return fail_at(t, col, "%s: %s: expected each key once", op, s);
                if (trace_parse_dec(v, 65535, &ii) < 0 || ii < 1)
                    return fail_at(t, col, "%s: %s: expected an initiation interval of 1..65535 cycles", op, s);
            } else if (key_is(s, klen, "timer") || key_is(s, klen, "clock")) {
                int timer = key_is(s, klen, "timer");
                if (timer ? seen_timer++ : seen_clock++)
                    return fail_at(t, col, "%s: %s: expected each key once", op, s);
                if (strcmp(v, "start") == 0)
                    marks |= timer ? IF_TIMER_START : IF_CLOCK_START;
                else if (strcmp(v, "end") == 0)
                    marks |= timer ? IF_TIMER_END : IF_CLOCK_END;
                else
                    return fail_at(t, col, "%s: %s: expected start or end", op, s);
            } else {
                int ar = parse_addr_key(t, op, s, col, klen, v, is_memory(kind), &ap, &seen_addr);
                if (ar < 0)
                    return ar;
                if (ar == 0)
                    return fail_at(t, col, "%s: %s: expected stall=, ii=, bytes=, pattern=, timer=, "
                                   "clock= or an address key (addr=, lane=, warp=, cta=, iter=, ws=, "
                                   "rand=, chase=, part=, mask=)", op, s);
                if (!addr_col)
                    addr_col = col;
            }
        } else {
            /* A predicate source may be negated ("!P0"): the negation does
             * not change the dependency, so it is dropped.  A vector
             * register source may carry .reuse (read from the operand reuse
             * cache: the register-bank model, docs/trace-format.md). */
            int neg = arrow && s[0] == '!';
            const char *name = neg ? s + 1 : s;
            size_t sl = strlen(name);
            int reuse = sl > 6 && strcmp(name + sl - 6, ".reuse") == 0;
            if (reuse) {
                if (!arrow)
                    return fail_at(t, col, "%s: %s: expected .reuse only on a source register (R0-R254)",
                                   op, s);
                if (sl - 6 >= sizeof rbuf[0])
                    return fail_at(t, col, "%s: %s: expected " REG_EXPECT, op, s);
                char *b = rbuf[SK_MIN(ns, PROG_MAX_SRC)];
                memcpy(b, name, sl - 6);
                b[sl - 6] = '\0';
                name = b;
            }
            int r = trace_parse_reg(name, &pred);
            if (r < 0 || (neg && !pred))
                return fail_at(t, col, "%s: %s: expected " REG_EXPECT, op, s);
            if (reuse && (r == 0 || pred || name[0] != 'R'))
                return fail_at(t, col, "%s: %s: expected .reuse only on a vector register source (R0-R254)",
                               op, s);
            if (r == 0)
                continue;
            if (!arrow) {
                if (nd == PROG_MAX_DST)
                    return fail_at(t, col, "%s: %s: expected at most %d destination registers", op, s,
                                   PROG_MAX_DST);
                dst[nd] = name;
                dst_col[nd++] = col;
            } else {
                if (ns == PROG_MAX_SRC)
                    return fail_at(t, col, "%s: %s: expected at most %d source registers (a guard "
                                   "counts as one)", op, s, PROG_MAX_SRC);
                if (reuse)
                    reuse_mask |= (uint8_t)(1u << ns);
                src[ns] = name;
                src_col[ns++] = col;
            }
        }
    }
    if (t->entries_before + p->n >= TRACE_MAX_INSTRS)
        return fail_at(t, op_col, "%s: expected at most %u entries per kernel", op, TRACE_MAX_INSTRS);

    if (seen_addr) {
        if (!(seen_addr & AK_ADDR))
            return fail_at(t, addr_col, "%s: expected addr= with the other address keys", op);
        if (ap.kind != MEM_AP_AFFINE && (seen_addr & (AK_LANE | AK_WARP | AK_CTA | AK_ITER)))
            return fail_at(t, addr_col, "%s: expected no strides with rand= or chase=", op);
        if ((seen_addr & AK_RAND) && (seen_addr & AK_CHASE))
            return fail_at(t, addr_col, "%s: expected one of rand= and chase=", op);
        if (ap.kind != MEM_AP_AFFINE && !ap.ws)
            return fail_at(t, addr_col, "%s: expected ws= with rand= or chase=", op);
        if (ap.kind == MEM_AP_CHASE && ap.ws % 128)
            return fail_at(t, addr_col, "%s: ws=%llu: expected a multiple of 128 bytes (whole lines) for a chase",
                           op, (unsigned long long)ap.ws);
        if (!(seen_addr & AK_LANE))
            ap.lane = (int64_t)bytes;
        if (!(seen_addr & AK_WARP))
            ap.warp = 32 * ap.lane;
    }

    instr *in = append(t, p);
    in->kind = kind;
    in->cls = cls;
    in->stall = (uint8_t)stall;
    in->flags |= marks;
    in->ii = (uint16_t)ii;
    /* the silicon model's energy row and, for tensor ops, the input type:
     * from the mnemonic's modifiers (HGMMA.64x256x16.F32.BF16, IMAD.WIDE) */
    in->erow = (uint8_t)si_op_row_of(op, cls);
    if (prog_op_half(op))
        in->flags |= IF_HALF;
    if (cls == FU_TENSOR)
        in->dtype = (uint8_t)si_tensor_dtype_of(op);
    if (is_memory(kind)) {
        in->bytes = (uint8_t)bytes;
        in->pattern = pattern;
        in->stride = (uint32_t)stride;
        if (seen_addr && !(in->apat = prog_add_apat(p, &ap)))
            return fail_at(t, addr_col, "%s: expected at most 65535 address patterns per program", op);
        in->flags |= prog_mem_flags(op, kind);
    }
    in->opcode = prog_opname(p, op);
    if (in->opcode >= TRACE_MAX_OPNAMES)
        return fail_at(t, op_col, "%s: expected at most %d distinct opcode mnemonics per program", op,
                       TRACE_MAX_OPNAMES);
    /* Sources are numbered before destinations (an instruction reads before
     * it writes): then a guard written as "@P0 OP ..." and as "OP ... <- P0"
     * number the same, and the writer's output reads back identically. */
    for (int j = 0; j < ns; j++)
        if (intern_reg(t, p, src[j], src_col[j], op, &in->src[j]) < 0)
            return t->err.code;
    for (int j = 0; j < nd; j++)
        if (intern_reg(t, p, dst[j], dst_col[j], op, &in->dst[j]) < 0)
            return t->err.code;
    in->nsrc = (uint8_t)ns;
    in->ndst = (uint8_t)nd;
    in->reuse = reuse_mask;
    return 0;
}

/* -------------------------------------------------------------- programs */

typedef struct open_block {
    uint8_t kind;               /* IK_LOOP or IK_IFWARP */
    uint32_t at;                /* index of its head marker */
    unsigned long line;
    uint64_t issued;            /* instructions appended before it opened */
} open_block;

static int is_directive(const char *w)
{
    static const char *const dirs[] = {"kernel", "endkernel", "program", "ctas", HEADER_MAGIC};
    for (size_t i = 0; i < SK_ARRAY_LEN(dirs); i++)
        if (strcmp(w, dirs[i]) == 0)
            return 1;
    return 0;
}

/* Lines after `program NAME` up to its `end`. */
static int parse_program(native *t, const kernel *k, program *p, unsigned long pline)
{
    open_block stack[MAX_BLOCKS];
    int depth = 0, loops = 0;
    uint64_t issued = 0;

    for (;;) {
        int r = next_record(t);
        if (r < 0)
            return r;
        if (r == 0)
            return fail_line(t, "end of file inside program '%s' (line %lu): expected 'end'", p->name,
                             pline);
        const token *tk = t->tok;
        const char *w = tk[0].s;

        if (strcmp(w, "end") == 0) {
            if (expect_alone(t) < 0)
                return t->err.code;
            if (depth == 0) {
                if (p->n == 0 || p->code[p->n - 1].kind != IK_EXIT)
                    return fail_at(t, tk[0].col, "end: program '%s': expected EXIT as the last "
                                   "instruction", p->name);
                return 0;
            }
            const open_block *b = &stack[--depth];
            instr *in = append(t, p);
            in->cls = FU_MISC;
            in->arg = b->at;
            if (b->kind == IK_LOOP) {
                if (issued == b->issued)
                    return fail_at(t, tk[0].col, "end: loop of line %lu: expected at least one "
                                   "instruction in the loop body", b->line);
                in->kind = IK_ENDLOOP;
                in->opcode = prog_opname(p, "endloop");
                loops--;
            } else {
                in->kind = IK_ENDIF;
                in->opcode = prog_opname(p, "endif");
            }
            p->code[b->at].jump = p->n;
            continue;
        }

        if (strcmp(w, "loop") == 0 || strcmp(w, "ifwarp") == 0) {
            int is_loop = w[0] == 'l';
            uint64_t v;
            uint32_t flags = 0;
            if (t->ntok < 2)
                return fail_at(t, t->eol_col, "%s: end of line: expected %s", w,
                               is_loop ? "a count 0..4294967295" : "a warp index");
            if (is_loop) {
                if (trace_parse_dec(tk[1].s, UINT32_MAX, &v) < 0)
                    return fail_at(t, tk[1].col, "loop: %s: expected a count 0..4294967295", tk[1].s);
                if (t->ntok > 2) {
                    if (strcmp(tk[2].s, "work") != 0)
                        return fail_at(t, tk[2].col, "loop: %s: expected 'work' or the end of the line",
                                       tk[2].s);
                    flags = IF_WORK_SCALED;
                }
                if (t->ntok > 3)
                    return fail_at(t, tk[3].col, "loop: %s: expected nothing more on the line", tk[3].s);
                if (loops == PROG_MAX_LOOP_DEPTH)
                    return fail_at(t, tk[0].col, "loop: depth %d: expected loops nested at most %d deep",
                                   loops + 1, PROG_MAX_LOOP_DEPTH);
            } else {
                uint32_t warps = (k->block_threads + 31) / 32;
                if (trace_parse_dec(tk[1].s, warps - 1, &v) < 0)
                    return fail_at(t, tk[1].col, "ifwarp: %s: expected a warp index 0..%u (block of %u "
                                   "threads)", tk[1].s, warps - 1, k->block_threads);
                if (t->ntok > 2)
                    return fail_at(t, tk[2].col, "ifwarp: %s: expected nothing more on the line", tk[2].s);
            }
            if (depth == MAX_BLOCKS)
                return fail_at(t, tk[0].col, "%s: depth %d: expected blocks nested at most %d deep", w,
                               depth + 1, MAX_BLOCKS);
            if (t->entries_before + p->n >= TRACE_MAX_INSTRS)
                return fail_at(t, tk[0].col, "%s: expected at most %u entries per kernel", w, TRACE_MAX_INSTRS);
            instr *in = append(t, p);
            in->kind = is_loop ? IK_LOOP : IK_IFWARP;
            in->cls = FU_MISC;
            in->arg = (uint32_t)v;
            in->flags = (uint8_t)flags;
            in->opcode = prog_opname(p, w);
            stack[depth].kind = in->kind;
            stack[depth].at = p->n - 1;
            stack[depth].line = t->lineno;
            stack[depth].issued = issued;
            depth++;
            loops += is_loop;
            continue;
        }

        if (is_directive(w))
            return fail_at(t, tk[0].col, "%s: expected 'end' of program '%s' (line %lu) first", w,
                           p->name, pline);
        if (parse_instr(t, p) < 0)
            return t->err.code;
        issued++;
    }
}

/* --------------------------------------------------------------- kernels */

static int parse_kernel_line(native *t, kernel *k)
{
    const token *tk = t->tok;
    uint64_t grid = 0, block = 0, regs = 32, smem = 0, gap = 0, cluster = 0;
    uint32_t cluster_col = 0;
    int64_t green = 0;
    uint64_t stream = 0;
    int sync_host = 0, quiet = 0, event = 0;
    int seen[11] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    if (t->ntok < 2)
        return fail_at(t, t->eol_col, "kernel: end of line: expected a kernel name");
    if (strchr(tk[1].s, '='))
        return fail_at(t, tk[1].col, "kernel: %s: expected a kernel name", tk[1].s);
    k->name = xstrdup(tk[1].s);

    for (int i = 2; i < t->ntok; i++) {
        const char *s = tk[i].s;
        uint32_t col = tk[i].col;
        size_t klen;
        const char *v = key_value(s, &klen);
        int which = -1;
        if (!v)
            return fail_at(t, col, "kernel: %s: expected key=value", s);
        if (key_is(s, klen, "grid"))
            which = 0;
        else if (key_is(s, klen, "block"))
            which = 1;
        else if (key_is(s, klen, "regs"))
            which = 2;
        else if (key_is(s, klen, "smem"))
            which = 3;
        else if (key_is(s, klen, "gap_ns"))
            which = 4;
        else if (key_is(s, klen, "cluster"))
            which = 5;
        else if (key_is(s, klen, "sms"))
            which = 6;
        else if (key_is(s, klen, "stream"))
            which = 7;
        else if (key_is(s, klen, "sync"))
            which = 8;
        else if (key_is(s, klen, "data"))
            which = 9;
        else if (key_is(s, klen, "event"))
            which = 10;
        else
            return fail_at(t, col, "kernel: %s: expected grid=, block=, regs=, smem=, gap_ns=, cluster=, "
                           "sms=, stream=, sync=, data= or event=", s);
        if (seen[which]++)
            return fail_at(t, col, "kernel: %s: expected each key once", s);
        switch (which) {
        case 0:
            if (parse_dims(v, TRACE_GRID_MAX, &grid) < 0)
                return fail_at(t, col, "kernel: %s: expected 1..4294967296 CTAs (grid=G or "
                               "grid=X,Y,Z)", s);
            break;
        case 1:
            if (parse_dims(v, TRACE_BLOCK_MAX, &block) < 0)
                return fail_at(t, col, "kernel: %s: expected 1..1024 threads (block=B or "
                               "block=X,Y,Z)", s);
            break;
        case 2:
            if (trace_parse_dec(v, TRACE_REGS_MAX, &regs) < 0 || regs == 0)
                return fail_at(t, col, "kernel: %s: expected 1..255 registers per thread", s);
            break;
        case 3:
            if (trace_parse_dec(v, TRACE_SMEM_MAX, &smem) < 0)
                return fail_at(t, col, "kernel: %s: expected 0..16777216 bytes of shared memory", s);
            break;
        case 5:
            if (parse_dims(v, KERNEL_CLUSTER_MAX, &cluster) < 0)
                return fail_at(t, col, "kernel: %s: expected 1..%d CTAs per cluster (cluster=C or "
                               "cluster=X,Y,Z)", s, KERNEL_CLUSTER_MAX);
            cluster_col = col;
            break;
        case 6: {
            /* A green-context SM set or a MIG instance (docs/topology.md,
             * "SM partitions", "MIG"). */
            uint64_t n = 0;
            if (strncmp(v, "sm:", 3) == 0) {
                /* one SM by id (the chip's own is checked at launch) */
                if (trace_parse_dec(v + 3, 65535, &n) < 0)
                    return fail_at(t, col, "kernel: %s: expected sms=sm:ID with ID an SM id 0..65535", s);
                k->one_sm = (uint32_t)n + 1;
                break;
            }
            if (strncmp(v, "l2:", 3) == 0) {
                /* the SMs whose home L2 partition is P (docs/memory.md) */
                if (trace_parse_dec(v + 3, 1, &n) < 0)
                    return fail_at(t, col, "kernel: %s: expected sms=l2:P with P an L2 partition, 0 or 1", s);
                k->l2_part = (uint8_t)(n + 1);
                break;
            }
            if (strncmp(v, "mig:", 4) == 0) {
                int prof, start;
                sk_error me = {0};
                if (topo_mig_parse(v + 4, &prof, &start, &me) < 0)
                    return fail_at(t, col, "kernel: %s: %s", s, me.msg);
                k->mig = (uint8_t)(prof + 1);
                k->mig_start = (uint8_t)start;
                break;
            }
            int rest = strncmp(v, "rest:", 5) == 0;
            const char *num = v + (rest ? 5 : 6), *flag = strchr(num, ':');
            char nbuf[32];
            snprintf(nbuf, sizeof nbuf, "%.*s", flag ? (int)SK_MIN(flag - num, 31) : 31, num);
            if ((!rest && strncmp(v, "green:", 6) != 0) || trace_parse_dec(nbuf, 65536, &n) < 0 || n == 0 ||
                (flag && strcmp(flag, ":nocosched") != 0))
                return fail_at(t, col, "kernel: %s: expected sms=green:N, sms=rest:N (N = 1..65536 SMs of "
                               "a green-context split, optionally :nocosched), sms=mig:PROFILE[@START], sms=l2:P "
                               "or sms=sm:ID", s);
            green = rest ? -(int64_t)n : (int64_t)n;
            k->green_nocosched = flag != NULL;
            break;
        }
        case 7:
            /* Concurrent kernels (docs/trace-format.md, "Streams"). */
            if (trace_parse_dec(v, TRACE_STREAM_MAX, &stream) < 0)
                return fail_at(t, col, "kernel: %s: expected a stream id 0..%d", s, TRACE_STREAM_MAX);
            break;
        case 8:
            if (strcmp(v, "host") != 0)
                return fail_at(t, col, "kernel: %s: expected sync=host (the host waits for the kernels "
                               "before it)", s);
            sync_host = 1;
            break;
        case 9:
            if (strcmp(v, "random") != 0 && strcmp(v, "quiet") != 0)
                return fail_at(t, col, "kernel: %s: expected data=random or data=quiet (how much its "
                               "FP32 operands toggle)", s);
            quiet = v[0] == 'q';
            break;
        case 10:
            /* a CUDA event recorded in its stream just before it
             * (docs/trace-format.md, "Streams") */
            if (strcmp(v, "before") != 0)
                return fail_at(t, col, "kernel: %s: expected event=before (a CUDA event recorded in its "
                               "stream just before it)", s);
            event = 1;
            break;
        default:
            if (trace_parse_dec(v, GAP_MAX_NS, &gap) < 0)
                return fail_at(t, col, "kernel: %s: expected an idle gap of 0..%llu ns before the launch", s,
                               (unsigned long long)GAP_MAX_NS);
            break;
        }
    }
    if (!seen[0])
        return fail_at(t, tk[0].col, "kernel: %s: expected a grid= key", k->name);
    if (!seen[1])
        return fail_at(t, tk[0].col, "kernel: %s: expected a block= key", k->name);
    /* CUDA requires every grid dimension to be a multiple of the cluster's;
     * over linear CTA ids that is a grid that whole clusters tile. */
    if (cluster > 1 && grid % cluster != 0)
        return fail_at(t, cluster_col, "kernel: cluster=%llu: expected a divisor of grid=%llu",
                       (unsigned long long)cluster, (unsigned long long)grid);
    k->cluster = (uint32_t)cluster;
    k->green_sms = (int32_t)green;
    k->grid = grid;
    k->block_threads = (uint32_t)block;
    k->regs_per_thread = (uint32_t)regs;
    k->smem_bytes = (uint32_t)smem;
    k->gap_ns = gap;
    k->stream = (uint32_t)stream;
    k->sync_host = sync_host;
    k->data_quiet = (uint8_t)quiet;
    k->event_before = (uint8_t)event;
    return 0;
}

/* The header record, the first of the file (trace.c's probe has read it
 * already and given it back to the line reader). */
static int read_header(native *t)
{
    int r = next_record(t);
    if (r < 0)
        return r;
    if (r == 0)
        return fail_line(t, "end of file: expected the header '" HEADER_MAGIC " " HEADER_VERSION "'");
    const token *tk = t->tok;
    if (strcmp(tk[0].s, HEADER_MAGIC) != 0)
        return fail_at(t, tk[0].col, "%s: expected the header '" HEADER_MAGIC " " HEADER_VERSION
                       "' first", tk[0].s);
    if (t->ntok < 2)
        return fail_at(t, t->eol_col, HEADER_MAGIC ": end of line: expected version " HEADER_VERSION);
    if (strcmp(tk[1].s, HEADER_VERSION) != 0)
        return fail_at(t, tk[1].col, HEADER_MAGIC ": %s: expected version " HEADER_VERSION, tk[1].s);
    if (t->ntok > 2)
        return fail_at(t, tk[2].col, HEADER_MAGIC ": %s: expected nothing more on the line", tk[2].s);
    t->state = ST_TOP;
    return 0;
}

static void forget_kernel(native *t)
{
    for (uint32_t i = 0; i < t->npnames; i++)
        free(t->pnames[i]);
    free(t->pnames);
    free(t->kname);
    t->pnames = NULL;
    t->npnames = 0;
    t->kname = NULL;
    t->have_kernel = 0;
    t->rec_valid = 0;
    t->have_prev = 0;
    t->next_id = 0;
    t->grid = 0;
}

/* After a ctas section's `end`: the kernel's `endkernel`. */
static int finish_kernel(native *t)
{
    int r = next_record(t);
    if (r < 0)
        return r;
    if (r == 0)
        return fail_line(t, "end of file inside kernel '%s' (line %lu): expected 'endkernel'", t->kname,
                         t->kline);
    if (strcmp(t->tok[0].s, "endkernel") != 0)
        return fail_at(t, t->tok[0].col, "%s: expected 'endkernel' of kernel '%s' (line %lu)",
                       t->tok[0].s, t->kname, t->kline);
    if (expect_alone(t) < 0)
        return t->err.code;
    t->state = ST_TOP;
    return 0;
}

/* Next record of the ctas section into rec_*.  Returns 1 with a record, 0
 * when the section (and its kernel) ended, or an error. */
static int read_cta_record(native *t)
{
    int r = next_record(t);
    if (r < 0)
        return r;
    if (r == 0)
        return fail_line(t, "end of file inside the ctas section of kernel '%s' (line %lu): "
                         "expected 'end'", t->kname, t->ctas_line);
    const token *tk = t->tok;
    const char *w = tk[0].s;
    if (strcmp(w, "end") == 0) {
        if (expect_alone(t) < 0)
            return t->err.code;
        if ((r = finish_kernel(t)) < 0)
            return r;
        return 0;
    }
    int is_range = strcmp(w, "range") == 0;
    if (!is_range && strcmp(w, "cta") != 0)
        return fail_at(t, tk[0].col, "%s: expected 'range', 'cta' or 'end'", w);

    int nids = is_range ? 2 : 1;
    uint64_t id[2];
    for (int j = 0; j < nids; j++) {
        if (t->ntok <= 1 + j)
            return fail_at(t, t->eol_col, "%s: end of line: expected a CTA id", w);
        const token *a = &tk[1 + j];
        if (trace_parse_dec(a->s, UINT64_MAX, &id[j]) < 0)
            return fail_at(t, a->col, "%s: %s: expected a CTA id", w, a->s);
        if (j == 0 && t->have_prev && id[0] <= t->prev_b)
            return fail_at(t, a->col, "%s: %s: expected a CTA id above %llu (records in increasing "
                           "order, not overlapping)", w, a->s, (unsigned long long)t->prev_b);
        if (j == 1 && id[1] < id[0])
            return fail_at(t, a->col, "range: %s: expected a last CTA id >= %llu", a->s,
                           (unsigned long long)id[0]);
        if (id[j] >= t->grid)
            return fail_at(t, a->col, "%s: %s: expected a CTA id below grid=%llu", w, a->s,
                           (unsigned long long)t->grid);
    }
    if (!is_range)
        id[1] = id[0];

    uint32_t prog = 0;
    double work = 1.0;
    int seen_prog = 0, seen_work = 0;
    for (int i = 1 + nids; i < t->ntok; i++) {
        const char *s = tk[i].s;
        uint32_t col = tk[i].col;
        size_t klen;
        const char *v = key_value(s, &klen);
        if (v && key_is(s, klen, "program")) {
            if (seen_prog++)
                return fail_at(t, col, "%s: %s: expected each key once", w, s);
            uint32_t j = 0;
            while (j < t->npnames && strcmp(t->pnames[j], v) != 0)
                j++;
            if (j == t->npnames)
                return fail_at(t, col, "%s: %s: expected the name of a program of kernel '%s'", w, s,
                               t->kname);
            prog = j;
        } else if (v && key_is(s, klen, "work")) {
            if (seen_work++)
                return fail_at(t, col, "%s: %s: expected each key once", w, s);
            char *end;
            errno = 0;
            work = strtod(v, &end);
            if (*v == '\0' || *end != '\0' || errno == ERANGE || !isfinite(work) || work < 0 ||
                work > WORK_MAX)
                return fail_at(t, col, "%s: %s: expected a work factor 0..1e6", w, s);
        } else {
            return fail_at(t, col, "%s: %s: expected program= or work=", w, s);
        }
    }
    t->rec_valid = 1;
    t->rec_a = id[0];
    t->rec_b = id[1];
    t->rec_prog = prog;
    t->rec_work = work;
    t->have_prev = 1;
    t->prev_b = id[1];
    return 1;
}

/* ------------------------------------------------------------ the format */

/* Ours when the first record is the header; also when the native tokenizer
 * refuses that line (more than MAX_TOKENS tokens): then this reader says
 * so, whatever the line looks like.  Tokens as tokenize() splits them, but
 * the line is left as it is. */
static int native_probe(const char *name, const char *first)
{
    (void)name;
    if (!first)
        return 0;
    int ntok = 0, magic = 0;
    const char *s = first;
    for (;;) {
        while (is_blank(*s))
            s++;
        if (*s == '\0' || *s == '#')
            break;
        const char *start = s;
        while (*s && !is_blank(*s) && *s != '#')
            s++;
        if (ntok++ == 0)
            magic = (size_t)(s - start) == strlen(HEADER_MAGIC) &&
                    memcmp(start, HEADER_MAGIC, strlen(HEADER_MAGIC)) == 0;
        if (ntok > MAX_TOKENS)
            return 1;
    }
    return magic;
}

static void native_close(void *ctx)
{
    native *t = ctx;
    if (!t)
        return;
    forget_kernel(t);
    free(t);
}

/* Reads the header now, so that trace_open() refuses a file that is not a
 * native trace. */
static void *native_open(lineread *src, const char *first, sk_error *e)
{
    (void)first;
    native *t = xcalloc(1, sizeof *t);
    t->src = src;
    t->name = lineread_name(src);
    t->state = ST_HEADER;
    if (read_header(t) < 0) {
        report(t, e);
        native_close(t);
        return NULL;
    }
    return t;
}

static int native_input_files(void *ctx, const char *path, char ***files, size_t *nfiles, sk_error *e)
{
    (void)path;
    (void)e;
    const native *t = ctx;
    return trace_one_file(t->name, files, nfiles);
}

static int native_set_sass(void *ctx, const sass *s, const char *name, sk_error *e)
{
    (void)s;
    const native *t = ctx;
    return sk_errorf(e, SK_EUSAGE, "%s: a SASS listing (%s) gives stall counts to Accel-Sim traces only: "
                     "expected a kernel-N.traceg, a kernelslist.g or their directory (a native trace "
                     "has its own stall= keys)", t->name, name);
}

static int native_next_kernel(void *ctx, kernel *k, sk_error *e)
{
    native *t = ctx;
    /* Drain (and validate) the CTA records the caller did not ask for. */
    while (t->state == ST_CTAS)
        if (read_cta_record(t) < 0)
            return report(t, e);
    if (t->state == ST_ERROR)
        return report(t, e);
    forget_kernel(t);
    if (t->state == ST_EOF)
        return 0;

    int r = next_record(t);
    if (r < 0)
        return report(t, e);
    if (r == 0) {
        t->state = ST_EOF;
        return 0;
    }
    const token *tk = t->tok;
    if (strcmp(tk[0].s, "kernel") != 0) {
        if (strcmp(tk[0].s, "end") == 0)
            fail_at(t, tk[0].col, "end: no open block: expected 'kernel'");
        else
            fail_at(t, tk[0].col, "%s: expected 'kernel'", tk[0].s);
        return report(t, e);
    }
    unsigned long kline = t->lineno;
    if (parse_kernel_line(t, k) < 0)
        goto fail;

    for (;;) {
        if ((r = next_record(t)) < 0)
            goto fail;
        if (r == 0) {
            fail_line(t, "end of file inside kernel '%s' (line %lu): expected 'endkernel'", k->name,
                      kline);
            goto fail;
        }
        tk = t->tok;
        const char *w = tk[0].s;
        if (strcmp(w, "program") == 0) {
            if (t->ntok < 2) {
                fail_at(t, t->eol_col, "program: end of line: expected a program name");
                goto fail;
            }
            if (strchr(tk[1].s, '=')) {
                fail_at(t, tk[1].col, "program: %s: expected a program name", tk[1].s);
                goto fail;
            }
            for (uint32_t i = 0; i < k->nprogs; i++) {
                if (strcmp(k->progs[i].name, tk[1].s) == 0) {
                    fail_at(t, tk[1].col, "program: %s: expected a name not used before in kernel '%s'",
                            tk[1].s, k->name);
                    goto fail;
                }
            }
            if (t->ntok > 2) {
                fail_at(t, tk[2].col, "program: %s: expected nothing more on the line", tk[2].s);
                goto fail;
            }
            if (k->nprogs == TRACE_MAX_PROGRAMS) {
                fail_at(t, tk[1].col, "program: %s: expected at most %d programs per kernel", tk[1].s,
                        TRACE_MAX_PROGRAMS);
                goto fail;
            }
            t->entries_before = 0;
            for (uint32_t i = 0; i < k->nprogs; i++)
                t->entries_before += k->progs[i].n;
            k->progs = xrealloc(k->progs, (k->nprogs + 1) * sizeof *k->progs);
            program *p = &k->progs[k->nprogs++];
            prog_init(p, tk[1].s);
            if (parse_program(t, k, p, t->lineno) < 0)
                goto fail;
        } else if (strcmp(w, "ctas") == 0 || strcmp(w, "endkernel") == 0) {
            if (expect_alone(t) < 0)
                goto fail;
            if (k->nprogs == 0) {
                fail_at(t, tk[0].col, "%s: kernel '%s': expected at least one program first", w, k->name);
                goto fail;
            }
            t->state = w[0] == 'c' ? ST_CTAS : ST_TOP;
            t->ctas_line = t->lineno;
            break;
        } else if (strcmp(w, "end") == 0) {
            fail_at(t, tk[0].col, "end: no open block: expected 'program', 'ctas' or 'endkernel'");
            goto fail;
        } else if (strcmp(w, "kernel") == 0) {
            fail_at(t, tk[0].col, "kernel: expected 'endkernel' of kernel '%s' (line %lu) first", k->name,
                    kline);
            goto fail;
        } else {
            fail_at(t, tk[0].col, "%s: expected 'program', 'ctas' or 'endkernel'", w);
            goto fail;
        }
    }

    t->have_kernel = 1;
    t->kname = xstrdup(k->name);
    t->kline = kline;
    t->grid = k->grid;
    t->npnames = k->nprogs;
    t->pnames = xmalloc(k->nprogs * sizeof *t->pnames);
    for (uint32_t i = 0; i < k->nprogs; i++)
        t->pnames[i] = xstrdup(k->progs[i].name);
    return 1;

fail:
    kernel_free(k);
    return report(t, e);
}

/* The next run of at most max CTAs that share a program and a weight: part
 * of the current record, or of the CTAs up to the next record (or the grid)
 * that no record covers. The one path both next_cta (max 1) and next_ctas
 * (no cap) take, so one CTA at a time and runs at once cannot disagree. */
static int native_take_run(native *t, cta_desc *d, uint64_t max, uint64_t *count, sk_error *e)
{
    for (;;) {
        if (t->state == ST_ERROR)
            return report(t, e);
        if (!t->have_kernel)
            return 0;
        if (t->rec_valid && t->next_id >= t->rec_a) {
            uint64_t n = t->rec_b - t->next_id + 1;
            if (n > max)
                n = max;
            d->id = t->next_id;
            d->prog = t->rec_prog;
            d->work = t->rec_work;
            *count = n;
            t->next_id += n;
            if (t->next_id > t->rec_b)
                t->rec_valid = 0;
            return 1;
        }
        if (!t->rec_valid && t->state == ST_CTAS) {
            /* One record ahead; at next_id == grid this reads the section's
             * `end` (a further record would be an id >= grid: an error). */
            if (read_cta_record(t) < 0)
                return report(t, e);
            continue;
        }
        if (t->next_id >= t->grid)
            return 0;
        uint64_t n = (t->rec_valid ? t->rec_a : t->grid) - t->next_id;
        if (n > max)
            n = max;
        d->id = t->next_id;
        d->prog = 0;
        d->work = 1.0;
        *count = n;
        t->next_id += n;
        return 1;
    }
}

static int native_next_cta(void *ctx, cta_desc *d, sk_error *e)
{
    uint64_t one;
    return native_take_run(ctx, d, 1, &one, e);
}

static int native_next_ctas(void *ctx, cta_desc *d, uint64_t *count, sk_error *e)
{
    return native_take_run(ctx, d, UINT64_MAX, count, e);
}

const trace_format trace_native_format = {
    .name = "native",
    .probe = native_probe,
    .open = native_open,
    .next_kernel = native_next_kernel,
    .next_cta = native_next_cta,
    .next_ctas = native_next_ctas,
    .input_files = native_input_files,
    .set_sass = native_set_sass,
    .close = native_close,
};
