/* trace.c -- the trace API over the registered trace formats.
 *
 * Every format is a trace_format (trace_priv.h): native.c reads the native
 * format (docs/trace-format.md), accelsim.c Accel-Sim's traces
 * (docs/accelsim.md).  trace_open() opens the input with the line reader,
 * shows its first line to each format's probe in registry order, and gives
 * the reader to the first that claims it; every later call dispatches
 * through that format's table and never asks which one it is.  Adding a
 * format is one file and one line in `formats` below.
 *
 * Also here: the number and register syntax both formats share, so that
 * neither reader calls the other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "trace_priv.h"

/* In probe order; the first also reads what no format claims (a read
 * error, garbage) and says what is wrong with it. */
static const trace_format *const formats[] = {
    &trace_native_format,
    &trace_accelsim_format,
};

struct trace {
    const trace_format *fmt;
    void *r;                        /* fmt's reader */
    lineread *src;                  /* the input; fmt's reader borrows it */
};

/* ---------------------------------------------------------- shared syntax */

int trace_parse_dec(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > max / 10 || (v == max / 10 && d > max % 10))
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* 1: a register (*pred set), 0: RZ/PT/URZ/UPT (no dependency), -1: not one. */
int trace_parse_reg(const char *s, int *pred)
{
    const char *d;
    unsigned max;
    if (s[0] == 'U' && s[1] == 'R') {
        *pred = 0;
        if (strcmp(s, "URZ") == 0)
            return 0;
        d = s + 2;
        max = 62;
    } else if (s[0] == 'U' && s[1] == 'P') {
        *pred = 1;
        if (strcmp(s, "UPT") == 0)
            return 0;
        d = s + 2;
        max = 6;
    } else if (s[0] == 'R') {
        *pred = 0;
        if (strcmp(s, "RZ") == 0)
            return 0;
        d = s + 1;
        max = 254;
    } else if (s[0] == 'P') {
        *pred = 1;
        if (strcmp(s, "PT") == 0)
            return 0;
        d = s + 1;
        max = 6;
    } else {
        return -1;
    }
    /* No leading zeros: "R01" would be a second name for R1, and the writer
     * prints registers by name. */
    if (*d == '\0' || (d[0] == '0' && d[1] != '\0'))
        return -1;
    unsigned v = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9')
            return -1;
        v = v * 10 + (unsigned)(*d - '0');
        if (v > max)
            return -1;
    }
    return 1;
}

int trace_one_file(const char *name, char ***files, size_t *nfiles)
{
    *files = xmalloc(sizeof **files);
    (*files)[0] = xstrdup(name);
    *nfiles = 1;
    return 0;
}

/* ---------------------------------------------------------------- opening */

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Probe the formats on src's first line that is neither blank nor a '#'
 * comment (given back to the line reader), then open the one that claims
 * it.  Takes src; NULL with *e filled when the format refuses the input. */
static trace *open_source(lineread *src, sk_error *e)
{
    char *line;
    size_t len;
    int r;
    while ((r = lineread_next(src, &line, &len, NULL)) > 0) {
        const char *s = line;
        while (is_blank(*s))
            s++;
        if (*s && *s != '#')
            break;
    }
    const trace_format *fmt = formats[0];
    const char *first = NULL;
    if (r > 0) {
        lineread_unread(src);
        first = line;
    }
    if (r >= 0) {
        for (size_t i = 0; i < SK_ARRAY_LEN(formats); i++) {
            if (formats[i]->probe(lineread_name(src), first)) {
                fmt = formats[i];
                break;
            }
        }
    }
    void *rd = fmt->open(src, first, e);
    if (!rd) {
        lineread_close(src);
        return NULL;
    }
    trace *t = xcalloc(1, sizeof *t);
    t->fmt = fmt;
    t->r = rd;
    t->src = src;
    return t;
}

/* A directory is an Accel-Sim trace directory: its kernelslist.g (NULL
 * for anything else; the caller frees it). */
static char *dir_list_path(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    size_t n = strlen(path);
    char *list = xmalloc(n + sizeof "/kernelslist.g");
    snprintf(list, n + sizeof "/kernelslist.g", "%s%skernelslist.g", path, n && path[n - 1] == '/' ? "" : "/");
    return list;
}

/* trace_open(), also saying the path it opened (*opened: the caller's). */
static trace *open_path(const char *path, char **opened, sk_error *e)
{
    char *list = dir_list_path(path);
    *opened = list ? list : xstrdup(path);
    lineread *src = lineread_open(*opened, e);
    return src ? open_source(src, e) : NULL;
}

/* ------------------------------------------------------------ public API */

trace *trace_open(const char *path, sk_error *e)
{
    char *opened;
    trace *t = open_path(path, &opened, e);
    free(opened);
    return t;
}

trace *trace_open_string(const char *name, const char *text, sk_error *e)
{
    return open_source(lineread_open_string(name, text), e);
}

void trace_close(trace *t)
{
    if (!t)
        return;
    t->fmt->close(t->r);
    lineread_close(t->src);
    free(t);
}

int trace_input_files(const char *path, char ***files, size_t *nfiles, sk_error *e)
{
    *files = NULL;
    *nfiles = 0;
    char *opened;
    trace *t = open_path(path, &opened, e);
    int rc = t ? t->fmt->input_files(t->r, opened, files, nfiles, e) : e->code;
    trace_close(t);
    free(opened);
    return rc;
}

int trace_set_sass(trace *t, const sass *s, const char *name, sk_error *e)
{
    if (!t->fmt->set_sass)
        return sk_errorf(e, SK_EUSAGE, "%s: a SASS listing (%s) gives stall counts to no %s trace",
                         lineread_name(t->src), name, t->fmt->name);
    return t->fmt->set_sass(t->r, s, name, e);
}

int trace_next_kernel(trace *t, kernel *k, sk_error *e)
{
    memset(k, 0, sizeof *k);
    return t->fmt->next_kernel(t->r, k, e);
}

int trace_next_cta(trace *t, cta_desc *d, sk_error *e)
{
    return t->fmt->next_cta(t->r, d, e);
}

int trace_next_ctas(trace *t, cta_desc *d, uint64_t *count, sk_error *e)
{
    if (t->fmt->next_ctas)
        return t->fmt->next_ctas(t->r, d, count, e);
    *count = 1;
    return t->fmt->next_cta(t->r, d, e);
}
