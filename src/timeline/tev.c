/* tev.c -- the Chrome trace-event JSON writer (timeline.h).
 *
 * Streamed with stdio: an event is one line of the traceEvents array, so a
 * timeline of millions of events needs no memory beyond the FILE buffer.
 * Strings go through one escaper (JSON: quote, backslash, control
 * characters as \u00XX).  Numbers: integers as integers, other values with
 * "%.17g" (round-trips a double), NaN and infinities as null (JSON has no
 * word for them); times from integer picoseconds, exactly.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/timeline.h"

struct tl_writer {
    FILE *f;
    char *path, *tmp;
    uint64_t max, written, dropped;
    int first;                  /* no event line written yet */
};

static void str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* ps as microseconds, exactly: 1 ps = 0.000001 us. */
static void ts(FILE *f, ps_t t)
{
    const char *sign = t < 0 ? "-" : "";
    uint64_t a = (uint64_t)(t < 0 ? -t : t);
    fprintf(f, "%s%" PRIu64 ".%06" PRIu64, sign, a / 1000000, a % 1000000);
}

static void num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 1e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.17g", v);
}

static void args(FILE *f, const tl_arg *a, int n)
{
    fputs(",\"args\":{", f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        str(f, a[i].key);
        fputc(':', f);
        if (a[i].type == TL_INT)
            fprintf(f, "%" PRId64, a[i].i);
        else if (a[i].type == TL_NUM)
            num(f, a[i].d);
        else
            str(f, a[i].s);
    }
    fputc('}', f);
}

static void open_line(tl_writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

/* Whether an event may be written: counts it either way. */
static int admit(tl_writer *w)
{
    if (w->max && w->written >= w->max) {
        w->dropped++;
        return 0;
    }
    w->written++;
    return 1;
}

tl_writer *tl_open(const char *path, uint64_t max_events, sk_error *e)
{
    tl_writer *w = xcalloc(1, sizeof *w);
    w->path = xstrdup(path);
    size_t n = strlen(path) + 16;
    w->tmp = xmalloc(n);
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    snprintf(w->tmp, n, "%.*s.%s.tmp", dl, path, path + dl);
    w->f = fopen(w->tmp, "w");
    if (!w->f) {
        sk_errorf(e, SK_EIO, "%s: cannot write: %s", path, strerror(errno));
        free(w->tmp);
        free(w->path);
        free(w);
        return NULL;
    }
    w->max = max_events;
    w->first = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", w->f);
    return w;
}

void tl_process(tl_writer *w, int pid, const char *name, int sort_index)
{
    open_line(w);
    fprintf(w->f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":", pid);
    str(w->f, name);
    fputs("}}", w->f);
    open_line(w);
    fprintf(w->f, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
            "\"args\":{\"sort_index\":%d}}", pid, sort_index);
}

void tl_thread(tl_writer *w, int pid, int tid, const char *name, int sort_index)
{
    open_line(w);
    fprintf(w->f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", pid, tid);
    str(w->f, name);
    fputs("}}", w->f);
    open_line(w);
    fprintf(w->f, "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"sort_index\":%d}}", pid, tid, sort_index);
}

int tl_slice(tl_writer *w, int pid, int tid, const char *name, const char *cat, ps_t start, ps_t end,
             const tl_arg *a, int nargs)
{
    if (!admit(w))
        return 0;
    open_line(w);
    fputs("{\"name\":", w->f);
    str(w->f, name);
    fputs(",\"cat\":", w->f);
    str(w->f, cat);
    fprintf(w->f, ",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":", pid, tid);
    ts(w->f, start);
    fputs(",\"dur\":", w->f);
    ts(w->f, end > start ? end - start : 0);
    args(w->f, a, nargs);
    fputc('}', w->f);
    return 1;
}

int tl_counter(tl_writer *w, int pid, const char *name, ps_t t, const char *series, double value)
{
    if (!admit(w))
        return 0;
    open_line(w);
    fputs("{\"name\":", w->f);
    str(w->f, name);
    fprintf(w->f, ",\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"ts\":", pid);
    ts(w->f, t);
    fputs(",\"args\":{", w->f);
    str(w->f, series);
    fputc(':', w->f);
    num(w->f, value);
    fputs("}}", w->f);
    return 1;
}

int tl_instant(tl_writer *w, int pid, int tid, char scope, const char *name, const char *cat, ps_t t,
               const tl_arg *a, int nargs)
{
    if (!admit(w))
        return 0;
    open_line(w);
    fputs("{\"name\":", w->f);
    str(w->f, name);
    fputs(",\"cat\":", w->f);
    str(w->f, cat);
    fprintf(w->f, ",\"ph\":\"i\",\"s\":\"%c\",\"pid\":%d,\"tid\":%d,\"ts\":",
            scope == 'g' || scope == 'p' ? scope : 't', pid, tid);
    ts(w->f, t);
    args(w->f, a, nargs);
    fputc('}', w->f);
    return 1;
}

uint64_t tl_written(const tl_writer *w)
{
    return w->written;
}

uint64_t tl_dropped(const tl_writer *w)
{
    return w->dropped;
}

uint64_t tl_max_events(const tl_writer *w)
{
    return w->max;
}

static void release(tl_writer *w)
{
    free(w->tmp);
    free(w->path);
    free(w);
}

int tl_close(tl_writer *w, sk_error *e)
{
    fprintf(w->f, "\n],\"otherData\":{\"generator\":\"skewsim\",\"events\":%" PRIu64 ",\"max_events\":%" PRIu64
            ",\"dropped_events\":%" PRIu64 "}}\n", w->written, w->max, w->dropped);
    int bad = ferror(w->f);
    bad |= fclose(w->f) != 0;
    int rc = 0;
    if (bad || rename(w->tmp, w->path) != 0) {
        rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", w->path, strerror(errno));
        remove(w->tmp);
    }
    release(w);
    return rc;
}

void tl_abort(tl_writer *w)
{
    if (!w)
        return;
    fclose(w->f);
    remove(w->tmp);
    release(w);
}
