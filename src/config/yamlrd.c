/* yamlrd.c -- strict libyaml reading shared by the config and sweep-spec
 * loaders (yamlrd.h).  Moved here from config.c unchanged in behaviour, so
 * both inputs refuse the same things with the same messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/yamlrd.h"

void yrd_init(yrd *y, const char *name, const unsigned char *buf, size_t len, sk_error *e)
{
    memset(y, 0, sizeof *y);
    if (!yaml_parser_initialize(&y->parser)) {
        fprintf(stderr, "skewsim: out of memory creating a YAML parser\n");
        abort();
    }
    yaml_parser_set_input_string(&y->parser, buf, len);
    y->name = name;
    y->buf = buf;
    y->len = len;
    y->e = e;
}

void yrd_free(yrd *y)
{
    for (size_t i = 0; i < y->nseen; i++)
        free(y->seen[i].key);
    free(y->seen);
    y->seen = NULL;
    y->nseen = y->capseen = 0;
    free(y->slots);
    y->slots = NULL;
    y->nslots = 0;
    yaml_parser_delete(&y->parser);
}

/* Text of a value for a message: at most ~48 bytes, control characters as
 * '?', and "(empty)" for nothing.  Returns buf. */
const char *yrd_show(char *buf, size_t cap, const char *s, size_t n)
{
    const size_t maxshow = 48;
    if (n == 0) {
        snprintf(buf, cap, "(empty)");
        return buf;
    }
    int cut = 0;
    if (n > maxshow) {
        n = maxshow;
        /* back up to a UTF-8 character boundary */
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        cut = 1;
    }
    if (n + 4 > cap)
        n = cap - 4;
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[i] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
    }
    if (cut) {
        memcpy(buf + i, "...", 3);
        i += 3;
    }
    buf[i] = '\0';
    return buf;
}

int yrd_err(yrd *y, yaml_mark_t m, int code, const char *fmt, ...)
{
    char msg[SK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sk_errorf(y->e, code, "%s:%zu:%zu: %s", y->name, m.line + 1, m.column + 1, msg);
}

/* libyaml's own error: the scanner and parser set problem_mark; the reader
 * (bad UTF-8, control characters) sets only a byte offset. */
static int syntax_error(yrd *y)
{
    yaml_parser_t *p = &y->parser;
    const char *problem = p->problem ? p->problem : "syntax error";
    if (p->error == YAML_MEMORY_ERROR) {
        fprintf(stderr, "skewsim: out of memory parsing %s\n", y->name);
        abort();
    }
    if (p->error == YAML_READER_ERROR) {
        /* libyaml counts columns in characters: skip UTF-8 continuation bytes */
        yaml_mark_t m = { p->problem_offset, 0, 0 };
        for (size_t i = 0; i < p->problem_offset && i < y->len; i++) {
            if (y->buf[i] == '\n') {
                m.line++;
                m.column = 0;
            } else if ((y->buf[i] & 0xC0) != 0x80) {
                m.column++;
            }
        }
        if (p->problem_value != -1)
            return yrd_err(y, m, SK_ECONFIG, "(yaml): %s 0x%02x", problem,
                          (unsigned)p->problem_value);
        return yrd_err(y, m, SK_ECONFIG, "(yaml): %s", problem);
    }
    if (p->context)
        return yrd_err(y, p->problem_mark, SK_ECONFIG, "(yaml): %s (%s at line %zu)",
                      problem, p->context, p->context_mark.line + 1);
    return yrd_err(y, p->problem_mark, SK_ECONFIG, "(yaml): %s", problem);
}

int yrd_next(yrd *y, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&y->parser, ev))
        return syntax_error(y);
    return 0;
}

/* How a value that is not a scalar reads in a message. */
const char *yrd_show_event(const yaml_event_t *ev, char *buf, size_t cap)
{
    switch (ev->type) {
    case YAML_MAPPING_START_EVENT: return "a mapping";
    case YAML_SEQUENCE_START_EVENT: return "a sequence";
    case YAML_ALIAS_EVENT: {
        char a[64];
        const char *s = (const char *)ev->data.alias.anchor;
        snprintf(buf, cap, "*%s", yrd_show(a, sizeof a, s, strlen(s)));
        return buf;
    }
    case YAML_SCALAR_EVENT:
        return yrd_show(buf, cap, (const char *)ev->data.scalar.value, ev->data.scalar.length);
    default:
        return "(nothing)";
    }
}

/* Anchors, aliases and tags change what a node means in ways a settings
 * file does not need, so they are refused wherever they appear. */
int yrd_check_plain(yrd *y, const yaml_event_t *ev, const char *key)
{
    const yaml_char_t *anchor = NULL, *tag = NULL;
    char buf[80];
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return yrd_err(y, ev->start_mark, SK_ECONFIG,
                      "%s: %s: expected a value, not an alias (anchors and aliases are not supported)",
                      key, yrd_show_event(ev, buf, sizeof buf));
    case YAML_SCALAR_EVENT:
        anchor = ev->data.scalar.anchor;
        tag = ev->data.scalar.tag;
        break;
    case YAML_MAPPING_START_EVENT:
        anchor = ev->data.mapping_start.anchor;
        tag = ev->data.mapping_start.tag;
        break;
    case YAML_SEQUENCE_START_EVENT:
        anchor = ev->data.sequence_start.anchor;
        tag = ev->data.sequence_start.tag;
        break;
    default:
        break;
    }
    if (anchor) {
        char a[64];
        const char *s = (const char *)anchor;
        return yrd_err(y, ev->start_mark, SK_ECONFIG,
                      "%s: &%s: expected a value without an anchor (anchors and aliases are not supported)",
                      key, yrd_show(a, sizeof a, s, strlen(s)));
    }
    if (tag) {
        char t[64];
        const char *s = (const char *)tag;
        static const char yaml_tags[] = "tag:yaml.org,2002:";
        char shorthand[64];
        /* show "!!int" as written rather than its expansion */
        if (strncmp(s, yaml_tags, sizeof yaml_tags - 1) == 0) {
            snprintf(shorthand, sizeof shorthand, "!!%s", s + sizeof yaml_tags - 1);
            s = shorthand;
        }
        return yrd_err(y, ev->start_mark, SK_ECONFIG,
                      "%s: %s: expected a value without a tag (found %s)",
                      key, yrd_show_event(ev, buf, sizeof buf), yrd_show(t, sizeof t, s, strlen(s)));
    }
    return 0;
}

/* A plain "", "~" or "null": what "key:" with nothing after it gives. */
int yrd_is_null(const yaml_event_t *ev)
{
    if (ev->type != YAML_SCALAR_EVENT || ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *s = (const char *)ev->data.scalar.value;
    return ev->data.scalar.length == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0
        || strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

static size_t key_hash(const char *key)
{
    uint64_t h = 1469598103934665603u;          /* FNV-1a 64 */
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 1099511628211u;
    return (size_t)h;
}

/* Record a key or section; a second occurrence is an error.  A hash index
 * keeps this O(1), so a spec of 10^5 keys is read in linear time. */
int yrd_note_key(yrd *y, const char *key, yaml_mark_t m)
{
    if (2 * (y->nseen + 1) > y->nslots) {
        size_t n = y->nslots ? 2 * y->nslots : 64;
        size_t *slots = xcalloc(n, sizeof *slots);
        for (size_t i = 0; i < y->nseen; i++) {
            size_t k = key_hash(y->seen[i].key) & (n - 1);
            while (slots[k])
                k = (k + 1) & (n - 1);
            slots[k] = i + 1;
        }
        free(y->slots);
        y->slots = slots;
        y->nslots = n;
    }
    size_t k = key_hash(key) & (y->nslots - 1);
    for (; y->slots[k]; k = (k + 1) & (y->nslots - 1))
        if (strcmp(y->seen[y->slots[k] - 1].key, key) == 0)
            return yrd_err(y, m, SK_ECONFIG, "%s: duplicate key: first set at line %zu",
                          key, y->seen[y->slots[k] - 1].line);
    y->slots[k] = y->nseen + 1;
    if (y->nseen == y->capseen) {
        y->capseen = y->capseen ? 2 * y->capseen : 32;
        y->seen = xrealloc(y->seen, y->capseen * sizeof *y->seen);
    }
    y->seen[y->nseen].key = xstrdup(key);
    y->seen[y->nseen].line = m.line + 1;
    y->nseen++;
    return 0;
}
int yrd_read_file(const char *path, unsigned char **out, size_t *outlen, sk_error *e)
{
    /* A config or spec is a few kilobytes; the cap stops `-c /dev/zero`
     * from reading forever. */
    const size_t maxlen = (size_t)16 << 20;
    FILE *f = fopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, strerror(errno));

    size_t len = 0, cap = 4096;
    unsigned char *buf = xmalloc(cap);
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
        if (len > maxlen) {
            fclose(f);
            free(buf);
            return sk_errorf(e, SK_EIO, "%s: cannot read: larger than %zu MiB", path,
                             maxlen >> 20);
        }
        if (len == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    if (ferror(f)) {
        int err = errno;
        fclose(f);
        free(buf);
        return sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(err));
    }
    fclose(f);
    *out = buf;
    *outlen = len;
    return 0;
}
