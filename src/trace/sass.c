/* sass.c -- read the control codes out of a `cuobjdump -sass` listing
 * (include/skewsim/sass.h says what they are and why).
 *
 * What is read, line by line (anything else, such as the fatbin banners,
 * `.headerflags` or the `....` filler, is skipped):
 *
 *   code for sm_90                          the architecture of what follows
 *   Function : _Z10fma_kernelP3ReciPf       a function starts
 *   .text._Z10fma_kernelP3ReciPf:           the same in nvdisasm's listing
 *   /_*0010*_/  @!P0 S2R R2, SR_TID.X ;     /_* 0x0000000000027919 *_/
 *                                           /_* 0x000e240000002100 *_/
 *
 * (the comment markers shown as /_* *_/ so as not to end this comment).
 * An instruction is its PC, its text and its first 64-bit word on one line,
 * and its second word alone on the next; the control codes are in the
 * second.  PCs increase within a function.  The listing is read whole (it
 * is small: a few hundred bytes per instruction) and kept as one table per
 * function, so a lookup by PC is a binary search.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "skewsim/sass.h"

#define SASS_MAX_BYTES (512u << 20)   /* a listing larger than this is not one */
#define SASS_MAX_LINE 65536
#define SASS_MAX_FUNCTIONS (1 << 20)    /* far beyond any one binary (cuBLAS: ~10^4 kernels) */

typedef struct sass_fn {
    char *name;
    int arch;                         /* 90 for sm_90; 0 when no "code for" line came first */
    sass_instr *code;
    size_t n, cap;
} sass_fn;

struct sass {
    sass_fn *fn;
    size_t nfn, cap;
    uint32_t *slots;                  /* open addressing by name: function index + 1, 0 empty */
    size_t nslots;                    /* a power of two, at least 2 * nfn */
};

/* One parse: where we are, for messages. */
typedef struct sass_parse {
    const char *name;
    unsigned long line;
    sk_error *e;
} sass_parse;

#define FAIL(p, ...) sk_errorf((p)->e, SK_ETRACE, __VA_ARGS__)

void sass_free(sass *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nfn; i++) {
        free(s->fn[i].name);
        free(s->fn[i].code);
    }
    free(s->fn);
    free(s->slots);
    free(s);
}

static size_t name_hash(const char *name, size_t len)
{
    uint64_t h = 1469598103934665603u;          /* FNV-1a 64 */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 1099511628211u;
    return (size_t)h;
}

/* Make room for one more function in the name index (rehash on growth). */
static void index_grow(sass *s)
{
    if (2 * (s->nfn + 1) <= s->nslots)
        return;
    size_t n = s->nslots ? 2 * s->nslots : 64;
    uint32_t *slots = xcalloc(n, sizeof *slots);
    for (size_t i = 0; i < s->nfn; i++) {
        size_t k = name_hash(s->fn[i].name, strlen(s->fn[i].name)) & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = (uint32_t)(i + 1);
    }
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
}

static const char *skip_blanks(const char *q, const char *end)
{
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    return q;
}

/* "/_*HEX*_/" at q: its value in *v and the position after it, or NULL. */
static const char *pc_comment(const char *q, const char *end, uint32_t *v)
{
    if (end - q < 5 || q[0] != '/' || q[1] != '*')
        return NULL;
    q += 2;
    uint64_t x = 0;
    int digits = 0;
    while (q < end && isxdigit((unsigned char)*q) && digits < 9) {
        x = x * 16 + (uint64_t)(isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10));
        q++;
        digits++;
    }
    if (digits == 0 || digits > 8 || end - q < 2 || q[0] != '*' || q[1] != '/')
        return NULL;
    *v = (uint32_t)x;
    return q + 2;
}

/* "/_* 0x<16 hex> *_/" at q (blanks allowed inside): the word, and the
 * position after it, or NULL. */
static const char *word_comment(const char *q, const char *end, uint64_t *w)
{
    if (end - q < 4 || q[0] != '/' || q[1] != '*')
        return NULL;
    q = skip_blanks(q + 2, end);
    if (end - q < 2 || q[0] != '0' || (q[1] != 'x' && q[1] != 'X'))
        return NULL;
    q += 2;
    uint64_t x = 0;
    int digits = 0;
    while (q < end && isxdigit((unsigned char)*q)) {
        if (++digits > 16)
            return NULL;
        x = x * 16 + (uint64_t)(isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10));
        q++;
    }
    q = skip_blanks(q, end);
    if (digits != 16 || end - q < 2 || q[0] != '*' || q[1] != '/')
        return NULL;
    *w = x;
    return q + 2;
}

/* Whether [q, end) holds `word` followed by a blank or the end. */
static int starts_word(const char *q, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - q) >= n && memcmp(q, word, n) == 0 &&
           ((size_t)(end - q) == n || q[n] == ' ' || q[n] == '\t' || q[n] == '\r');
}

static int new_function(sass *s, sass_parse *p, const char *name, size_t len, int arch)
{
    if (len == 0 || len > 4096)
        return FAIL(p, "%s:%lu: function name of %zu bytes: expected 1 to 4096", p->name, p->line, len);
    if (s->nfn >= SASS_MAX_FUNCTIONS)
        return FAIL(p, "%s:%lu: more than %d functions: expected a listing of one binary", p->name, p->line,
                    SASS_MAX_FUNCTIONS);
    index_grow(s);
    size_t k = name_hash(name, len) & (s->nslots - 1);
    for (; s->slots[k]; k = (k + 1) & (s->nslots - 1)) {
        const sass_fn *o = &s->fn[s->slots[k] - 1];
        if (o->arch == arch && strlen(o->name) == len && memcmp(o->name, name, len) == 0)
            return FAIL(p, "%s:%lu: function %.*s: listed twice for sm_%d", p->name, p->line,
                        (int)SK_MIN(len, 200), name, arch);
    }
    s->slots[k] = (uint32_t)(s->nfn + 1);
    if (s->nfn == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->fn = xrealloc(s->fn, s->cap * sizeof *s->fn);
    }
    sass_fn *f = &s->fn[s->nfn++];
    memset(f, 0, sizeof *f);
    f->name = xmalloc(len + 1);
    memcpy(f->name, name, len);
    f->name[len] = '\0';
    f->arch = arch;
    return 0;
}

/* The instruction text between the PC comment and the first word: an
 * optional guard (@P0, @!UP1), then the mnemonic. */
static int parse_op(sass_parse *p, const char *q, const char *end, char op[32], uint32_t pc)
{
    q = skip_blanks(q, end);
    if (q < end && *q == '@') {
        while (q < end && *q != ' ' && *q != '\t')
            q++;
        q = skip_blanks(q, end);
    }
    const char *m = q;
    while (q < end && *q != ' ' && *q != '\t' && *q != ';' && *q != ',')
        q++;
    size_t n = (size_t)(q - m);
    if (n == 0)
        return FAIL(p, "%s:%lu: instruction /*%04x*/: no mnemonic", p->name, p->line, pc);
    if (n >= 32)
        return FAIL(p, "%s:%lu: instruction /*%04x*/: mnemonic '%.40s' of %zu bytes: expected at most 31",
                    p->name, p->line, pc, m, n);
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)m[i]) && m[i] != '.' && m[i] != '_')
            return FAIL(p, "%s:%lu: instruction /*%04x*/: mnemonic '%.*s': expected letters, digits, "
                        "'.' and '_'", p->name, p->line, pc, (int)n, m);
    memcpy(op, m, n);
    op[n] = '\0';
    return 0;
}

/* The vector registers the operands between q and end mark .reuse
 * ("R7.reuse", "-R12.reuse", "|R3|.reuse", "R4.reuse.H0_H0"), by number,
 * at most four. */
static void parse_reused(const char *q, const char *end, sass_instr *in)
{
    static const char suffix[] = ".reuse";
    for (const char *r = q; r < end; r++) {
        if (*r != 'R' || (r > q && (isalnum((unsigned char)r[-1]) || r[-1] == '_')))
            continue;
        const char *d = r + 1;
        unsigned v = 0;
        while (d < end && isdigit((unsigned char)*d) && v < 1000)
            v = v * 10 + (unsigned)(*d++ - '0');
        const char *x = d < end && *d == '|' ? d + 1 : d;    /* an absolute value's bar */
        if (d == r + 1 || v > 254 || (size_t)(end - x) < sizeof suffix - 1 ||
            memcmp(x, suffix, sizeof suffix - 1) != 0)
            continue;
        if (in->nreused < sizeof in->reused)
            in->reused[in->nreused++] = (uint8_t)v;
        r = d;
    }
}

static void set_control(sass_instr *in, uint64_t hi)
{
    in->stall = (uint8_t)((hi >> 41) & 0xf);
    in->yield = (uint8_t)((hi >> 45) & 0x1);
    in->wbar = (uint8_t)((hi >> 46) & 0x7);
    in->rbar = (uint8_t)((hi >> 49) & 0x7);
    in->wait = (uint8_t)((hi >> 52) & 0x3f);
    in->reuse = (uint8_t)((hi >> 58) & 0xf);
}

sass *sass_load_string(const char *name, const char *text, size_t len, sk_error *e)
{
    sass *s = xcalloc(1, sizeof *s);
    sass_parse p = {.name = name, .line = 0, .e = e};
    const char *q = text, *end = text + len;
    int arch = 0;
    sass_instr *pending = NULL;       /* waiting for its second word */
    unsigned long pending_line = 0;
    int rc = 0;
    while (rc == 0 && q < end) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        const char *le = nl ? nl : end;
        p.line++;
        if (le - q > SASS_MAX_LINE) {
            rc = FAIL(&p, "%s:%lu: line longer than %d bytes", name, p.line, SASS_MAX_LINE);
            break;
        }
        if (memchr(q, '\0', (size_t)(le - q))) {
            rc = FAIL(&p, "%s:%lu: NUL byte: expected text", name, p.line);
            break;
        }
        const char *b = skip_blanks(q, le);
        const char *lend = le;
        while (lend > b && (lend[-1] == ' ' || lend[-1] == '\t' || lend[-1] == '\r'))
            lend--;
        q = nl ? nl + 1 : end;
        uint64_t w;
        uint32_t pc;
        if (pending) {
            const char *after = word_comment(b, lend, &w);
            if (!after || after != lend) {
                rc = FAIL(&p, "%s:%lu: expected the second word '/* 0x<16 hex digits> */' of the "
                          "instruction on line %lu", name, p.line, pending_line);
                break;
            }
            set_control(pending, w);
            pending = NULL;
            continue;
        }
        if (b == lend)
            continue;
        if (starts_word(b, lend, "code") && lend - b > 12 && memcmp(b, "code for sm_", 12) == 0) {
            const char *d = b + 12;
            long v = 0;
            while (d < lend && isdigit((unsigned char)*d) && v < 100000)
                v = v * 10 + (*d++ - '0');
            if (d == b + 12 || v >= 100000) {
                rc = FAIL(&p, "%s:%lu: '%.*s': expected 'code for sm_NN'", name, p.line,
                          (int)SK_MIN(lend - b, 60), b);
                break;
            }
            arch = (int)v;
            continue;
        }
        if (starts_word(b, lend, "Function")) {
            const char *c = skip_blanks(b + 8, lend);
            if (c >= lend || *c != ':') {
                rc = FAIL(&p, "%s:%lu: 'Function' line: expected 'Function : NAME'", name, p.line);
                break;
            }
            c = skip_blanks(c + 1, lend);
            rc = new_function(s, &p, c, (size_t)(lend - c), arch);
            continue;
        }
        if (lend - b > 7 && memcmp(b, ".text.", 6) == 0 && lend[-1] == ':') {
            rc = new_function(s, &p, b + 6, (size_t)(lend - 1 - (b + 6)), arch);
            continue;
        }
        const char *after = pc_comment(b, lend, &pc);
        if (!after)
            continue;                 /* banners, flags, filler */
        /* the first word is the last comment on the line */
        const char *wc = NULL;
        for (const char *t = lend - 2; t > after; t--)
            if (t[0] == '/' && t[1] == '*') {
                wc = t;
                break;
            }
        if (!wc || word_comment(wc, lend, &w) != lend) {
            rc = FAIL(&p, "%s:%lu: instruction /*%04x*/: expected its first word '/* 0x<16 hex digits> */' "
                      "at the end of the line", name, p.line, pc);
            break;
        }
        if (s->nfn == 0) {
            rc = FAIL(&p, "%s:%lu: instruction /*%04x*/ before any 'Function : NAME' line", name, p.line, pc);
            break;
        }
        sass_fn *f = &s->fn[s->nfn - 1];
        if (f->n > 0 && pc <= f->code[f->n - 1].pc) {
            rc = FAIL(&p, "%s:%lu: instruction /*%04x*/ after /*%04x*/: expected increasing PCs", name,
                      p.line, pc, f->code[f->n - 1].pc);
            break;
        }
        if (f->n == f->cap) {
            f->cap = f->cap ? 2 * f->cap : 8;
            f->code = xrealloc(f->code, f->cap * sizeof *f->code);
        }
        sass_instr *in = &f->code[f->n];
        memset(in, 0, sizeof *in);
        in->pc = pc;
        in->line = (uint32_t)p.line;
        rc = parse_op(&p, after, wc, in->op, pc);
        if (rc == 0)
            parse_reused(after, wc, in);
        if (rc == 0) {
            f->n++;
            pending = in;
            pending_line = p.line;
        }
    }
    if (rc == 0 && pending)
        rc = FAIL(&p, "%s:%lu: end of listing: expected the second word of the instruction on line %lu",
                  name, p.line, pending_line);
    if (rc == 0 && s->nfn == 0)
        rc = sk_errorf(e, SK_ETRACE, "%s: no 'Function : NAME' line: expected the output of cuobjdump -sass",
                       name);
    for (size_t i = 0; rc == 0 && i < s->nfn; i++)
        if (s->fn[i].n == 0)
            rc = sk_errorf(e, SK_ETRACE, "%s: function %.200s: no instructions", name, s->fn[i].name);
    if (rc != 0) {
        sass_free(s);
        return NULL;
    }
    return s;
}

sass *sass_load(const char *path, sk_error *e)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz) {
        sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, errno ? strerror(errno) : "out of memory");
        return NULL;
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = xmalloc(cap);
    for (;;) {
        if (len == cap) {
            if (cap >= SASS_MAX_BYTES) {
                sk_errorf(e, SK_ETRACE, "%s: larger than %u MB: not a SASS listing", path, SASS_MAX_BYTES >> 20);
                goto fail;
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        int n = gzread(gz, buf + len, (unsigned)(cap - len));
        if (n < 0) {
            int errnum;
            const char *zmsg = gzerror(gz, &errnum);
            if (errnum == Z_ERRNO)
                sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
            else
                sk_errorf(e, SK_ETRACE, "%s: corrupt gzip: %s", path, zmsg);
            goto fail;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    /* gzread() reports a truncated stream as a plain end of file. */
    int errnum;
    const char *zmsg = gzerror(gz, &errnum);
    if (errnum != Z_OK && errnum != Z_BUF_ERROR) {
        sk_errorf(e, SK_ETRACE, "%s: corrupt gzip: %s", path, zmsg);
        goto fail;
    }
    if (errnum == Z_BUF_ERROR) {
        sk_errorf(e, SK_ETRACE, "%s: corrupt gzip: unexpected end of file", path);
        goto fail;
    }
    gzclose(gz);
    sass *s = sass_load_string(path, buf, len, e);
    free(buf);
    return s;
fail:
    gzclose(gz);
    free(buf);
    return NULL;
}

int sass_function(const sass *s, const char *name, int arch)
{
    int found = -1;
    if (s->nslots == 0)
        return -1;
    size_t k = name_hash(name, strlen(name)) & (s->nslots - 1);
    for (; s->slots[k]; k = (k + 1) & (s->nslots - 1)) {
        size_t i = s->slots[k] - 1;
        if (strcmp(s->fn[i].name, name) != 0 || (arch != 0 && s->fn[i].arch != arch))
            continue;
        if (found >= 0)
            return -2;
        found = (int)i;
    }
    return found;
}

size_t sass_nfunctions(const sass *s)
{
    return s->nfn;
}

const char *sass_function_name(const sass *s, int fn)
{
    return s->fn[fn].name;
}

int sass_function_arch(const sass *s, int fn)
{
    return s->fn[fn].arch;
}

const sass_instr *sass_code(const sass *s, int fn, size_t *n)
{
    *n = s->fn[fn].n;
    return s->fn[fn].code;
}

const sass_instr *sass_at(const sass *s, int fn, uint32_t pc)
{
    const sass_fn *f = &s->fn[fn];
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->code[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n && f->code[lo].pc == pc ? &f->code[lo] : NULL;
}
