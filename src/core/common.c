/* common.c -- error records, exit statuses and the one place where running
 * out of memory is handled (abort with a message, as redis' zmalloc does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/common.h"

int sk_errorf(sk_error *e, int code, const char *fmt, ...)
{
    if (e && e->code == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        /* Messages are one line: a newline inside would break that contract. */
        for (char *p = e->msg; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        e->code = code;
    }
    return code;
}

const char *sk_strerror(int code)
{
    switch (code) {
#define SK_STR_(name, val, exitc, desc) case val: return desc;
        SK_ERRNO_MAP(SK_STR_)
#undef SK_STR_
    }
    return "unknown error";
}

int sk_exit_status(int code)
{
    switch (code) {
#define SK_EXIT_(name, val, exitc, desc) case val: return exitc;
        SK_ERRNO_MAP(SK_EXIT_)
#undef SK_EXIT_
    }
    return 4;
}

static void oom(size_t n)
{
    fprintf(stderr, "skewsim: out of memory allocating %zu bytes\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *xcalloc_aligned(size_t align, size_t n, size_t size)
{
    void *p = NULL;
    size_t bytes = (n ? n : 1) * (size ? size : 1);
    if (n && size && bytes / n != size)
        oom(SIZE_MAX);
    if (posix_memalign(&p, align, bytes) != 0)
        oom(bytes);
    memset(p, 0, bytes);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}
