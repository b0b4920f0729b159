/* testutil.c -- see testutil.h. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skewsim/gen.h"
#include "tests.h"
#include "testutil.h"

void tu_cfg(cfg *c, const char *path, ...)
{
    sk_error e = {0};
    cfg_defaults(c);
    if (path)
        ck_assert_msg(cfg_load_file(c, path, &e) == 0, "%s: %s", path, e.msg);
    va_list ap;
    va_start(ap, path);
    for (const char *y; (y = va_arg(ap, const char *)) != NULL;)
        if (*y)   /* "" adds nothing: an empty YAML document is an error */
            ck_assert_msg(cfg_load_string(c, "test.yaml", y, &e) == 0, "%s", e.msg);
    va_end(ap);
    ck_assert_msg(cfg_validate(c, &e) == 0, "%s", e.msg);
}

int tu_simulate(tu_run *run, const cfg *c, const char *trace_text)
{
    memset(run, 0, sizeof *run);
    trace *tr = trace_open_string("test.trace", trace_text, &run->e);
    if (!tr)
        return run->rc = run->e.code ? run->e.code : SK_ETRACE;
    run->r = results_open(NULL, &run->e);
    ck_assert_ptr_nonnull(run->r);
    sim_sink obs = results_sink(run->r);
    run->s = sim_create(c, &obs, 1, &run->e);
    run->rc = run->s ? sim_run(run->s, tr, &run->e) : run->e.code;
    trace_close(tr);
    return run->rc;
}

void tu_simulate_ok(tu_run *run, const cfg *c, const char *trace_text)
{
    tu_simulate(run, c, trace_text);
    ck_assert_msg(run->rc == 0, "run failed (%d): %s", run->rc, run->e.msg);
}

void tu_run_free(tu_run *run)
{
    sim_destroy(run->s);
    results_free(run->r);
    memset(run, 0, sizeof *run);
}

const cta_record *tu_cta(const tu_run *run, uint64_t k, uint64_t cta)
{
    for (size_t i = 0; i < results_nctas(run->r); i++) {
        const cta_record *x = results_cta(run->r, i);
        if (x->kernel == k && x->cta == cta)
            return x;
    }
    ck_assert_msg(0, "no record of CTA %llu of kernel %llu", (unsigned long long)cta, (unsigned long long)k);
    return NULL;
}

char *tu_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

char *tu_trace1(const char *body, unsigned grid, unsigned block)
{
    return tu_strf("skewsim-trace 1\nkernel k grid=%u block=%u regs=16\nprogram main\n%send\n"
                   "endkernel\n", grid, block, body);
}

char *tu_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t n = 0, cap = 4096;
    char *s = xmalloc(cap);
    for (size_t got; (got = fread(s + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (cap - n - 1 == 0) {
            cap *= 2;
            s = xrealloc(s, cap);
        }
    }
    ck_assert_int_eq(ferror(f), 0);
    fclose(f);
    s[n] = '\0';
    if (len)
        *len = n;
    return s;
}

char *tu_kernel_text(kernel *k)
{
    sk_error e = {0, ""};
    char path[] = "/tmp/test-gen-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_msg(gen_write(path, k, 1, &e) == 0, "%s", e.msg);
    kernel_free(k);
    char *text = tu_slurp(path, NULL);
    unlink(path);
    return text;
}

void tu_spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "%s: cannot create", path);
    ck_assert_msg(fputs(text, f) >= 0 && fclose(f) == 0, "%s: cannot write", path);
}

int tu_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

void tu_mkdtemp(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/skewsim-test-%s-XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(buf));
}

void tu_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char *p = tu_strf("%s/%s", dir, de->d_name);
        struct stat st;
        /* a folder a test made inside its scratch folder goes too (lstat:
         * a link is removed, never followed) */
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            tu_rmdir(p);
        else
            remove(p);
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

double tu_json_num(const char *json, const char *key, int nth)
{
    char *pat = tu_strf("\"%s\":", key);
    const char *p = json;
    for (int i = 0; p && i <= nth; i++) {
        p = strstr(p, pat);
        if (p && i < nth)
            p += strlen(pat);
    }
    ck_assert_msg(p != NULL, "no occurrence %d of %s in the JSON", nth, pat);
    p += strlen(pat);
    free(pat);
    char *end;
    double v = strtod(p, &end);
    ck_assert_msg(end != p, "\"%s\" is not followed by a number", key);
    return v;
}

int tu_replay_dir(const char *dir, int (*one)(const uint8_t *, size_t))
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char *path = tu_strf("%s/%s", dir, de->d_name);
        size_t len;
        char *data = tu_slurp(path, &len);
        one((const uint8_t *)data, len);
        free(data);
        free(path);
        n++;
    }
    closedir(d);
    return n;
}
