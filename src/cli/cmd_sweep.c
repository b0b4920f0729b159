/* cmd_sweep.c -- `skewsim sweep SPEC -o DIR [-j N] [--shard K/N] [--force]
 * [--collect] [--list]`: every point of a spec (src/sweep/spec.c), each one
 * `run` in a forked child, at most N at once (docs/sweeps.md).
 *
 * The output tree is the only state, so a killed sweep, a resumed one, a
 * shard on another node and --collect all read the same thing:
 *
 *   DIR/traces/NAME.trace       each gen: trace, written by `skewsim gen`'s
 *                               own code, replaced only when its bytes change
 *   DIR/points/NNNN-slug/       summary.json, ctas.csv, epochs.csv as `run`
 *                               writes them, then point.json LAST
 *   DIR/sweep.csv               one row per point, rebuilt from the above
 *
 * point.json holds the point's key: an FNV-1a 64 hash of the effective
 * config (cfg_dump: config file, overrides and seed), of the trace's bytes
 * (every file it reads: an Accel-Sim list and its kernel files), of its
 * SASS listing's and of its silicon.map_file's.  A point is done when its
 * point.json says "ok" under the key the spec gives it now; anything else
 * (no point.json, another key, "failed") runs again.  Before a point runs,
 * its old files are removed, so a directory never mixes two runs.  Every
 * file is written under a mkstemp(3) temporary in its own directory and
 * renamed, and nothing written holds a time, a host or a pid, so -j 1,
 * -j 4 and any sharding give byte-identical trees.
 *
 * Signals: SIGINT and SIGTERM (what Slurm sends at the time limit) stop new
 * points, are forwarded to the running children, and once they are reaped
 * their temporaries are removed; finished points stay, sweep.csv is
 * rewritten (without reading traces not hashed yet), and the exit status
 * is 128 + the signal (130, 143).  Both are blocked across fork(), so a
 * child starts with them pending rather than lost.  The flag
 * the handler sets is this file's one mutable static: a handler has
 * nowhere else to write.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "skewsim/results.h"
#include "skewsim/sweep.h"

#define SWEEP_EXIT_FAILED 6        /* README.md, "Exit status" */
#define MAX_JOBS 1024
#define TABLE_MAX_ROWS 500
#define FORK_RETRIES 100             /* fork() at EAGAIN with no point running: */
#define FORK_RETRY_NS 100000000L     /* ... up to 100 tries 0.1 s apart */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* One trace of the spec as this sweep sees it. */
typedef struct trace_info {
    char *file;                 /* path to open */
    char *shown;                /* path recorded in point.json (gen: relative to DIR) */
    uint64_t hash;              /* FNV-1a 64 of its bytes (of its files: hash_trace) */
    uint64_t bytes;
    uint64_t sass_hash, sass_bytes;   /* the same of its SASS listing (sass:), 0 without */
    int ready;                  /* hashed (gen: generated) */
} trace_info;

/* A file a config points to (silicon.map_file), hashed once per sweep. */
typedef struct side_file {
    char *path;
    uint64_t hash, bytes;
    int missing;
} side_file;

typedef struct sweep_ctx {
    sweep_spec spec;
    cfg base;
    const char *dir;
    int jobs, shard_k, shard_n, force, collect, list;
    trace_info *traces;
    side_file *side;
    size_t nside;
    size_t run, skipped, failed, started;
} sweep_ctx;

/* ---- small helpers --------------------------------------------------- */

/* An in-memory stream (open_memstream), or abort: out of memory. */
static FILE *mem_open(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    if (!f) {
        fprintf(stderr, "skewsim: out of memory\n");
        abort();
    }
    return f;
}

static char *strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#define FNV_INIT 0xcbf29ce484222325ULL

static int hash_file(const char *path, uint64_t *hash, uint64_t *bytes, sk_error *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char buf[65536];
    uint64_t h = FNV_INIT, n = 0;
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        h = fnv1a(h, buf, got);
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
    *hash = h;
    *bytes = n;
    return 0;
}

/* The trace at `path` (a file, or an Accel-Sim kernelslist.g or its
 * directory) as the key sees it: a single file, its bytes exactly as
 * hash_file() (the keys of earlier sweeps stay valid); several files
 * (trace_input_files: the list, then each kernel file it names), for each
 * in order its name relative to the list's directory, its FNV-1a 64 and
 * its size, so that editing, adding, dropping or renaming any of them
 * changes the hash.  *bytes is their total size.  A kernel file that
 * cannot be read counts as absent (its point runs and fails, saying why). */
static int hash_trace(const char *path, uint64_t *hash, uint64_t *bytes, sk_error *e)
{
    char **files = NULL;
    size_t n = 0;
    sk_error ignore = {0};
    if (trace_input_files(path, &files, &n, &ignore) != 0 || n == 0) {
        /* a file the reader refuses: its point fails and says why */
        free(files);
        return hash_file(path, hash, bytes, e);
    }
    int rc = 0;
    if (n == 1) {
        rc = hash_file(files[0], hash, bytes, e);
    } else {
        const char *slash = strrchr(files[0], '/');
        size_t dlen = slash ? (size_t)(slash - files[0]) + 1 : 0;
        uint64_t h = FNV_INIT, total = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            const char *name = files[i];
            if (dlen && strncmp(name, files[0], dlen) == 0)
                name += dlen;
            h = fnv1a(h, name, strlen(name) + 1);
            uint64_t fh = 0, fb = UINT64_MAX;     /* absent */
            sk_error inner = {0};
            if (hash_file(files[i], &fh, &fb, &inner) != 0) {
                if (i == 0)
                    rc = sk_errorf(e, inner.code, "%s", inner.msg);
                fh = 0;
                fb = UINT64_MAX;
            } else {
                total += fb;
            }
            h = fnv1a(h, &fh, sizeof fh);
            h = fnv1a(h, &fb, sizeof fb);
        }
        *hash = h;
        *bytes = total;
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

/* Whole file, NUL-terminated, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = 0, cap = 4096;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int make_dir(const char *path, sk_error *e)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return sk_errorf(e, SK_EIO, "%s: cannot create directory: %s", path, strerror(errno));
    return 0;
}

/* A new temporary `PREFIX.tmp.XXXXXX` (mkstemp(3): unique across the
 * processes and hosts sharing the directory, which a pid is not), with
 * the mode a plain fopen would have given it, since it is renamed into
 * place.  Returns its descriptor, *tmp its name (caller frees); -1 with *e
 * filled. */
static int make_temp(const char *prefix, char **tmp, sk_error *e)
{
    *tmp = strf("%s.tmp.XXXXXX", prefix);
    int fd = mkstemp(*tmp);
    if (fd < 0) {
        sk_errorf(e, SK_EIO, "%s: cannot create a temporary file: %s", *tmp, strerror(errno));
        free(*tmp);
        *tmp = NULL;
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    return fd;
}

/* Write `text` to `path` through a temporary and rename(2). */
static int write_atomic(const char *path, const char *text, size_t len, sk_error *e)
{
    char *tmp;
    int fd = make_temp(path, &tmp, e);
    if (fd < 0)
        return e->code;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", tmp, strerror(errno));
        close(fd);
        remove(tmp);
        free(tmp);
        return rc;
    }
    int bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        int rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return rc;
    }
    free(tmp);
    return 0;
}

/* JSON string body (no quotes). */
static void json_str(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
}

/* The string value of "name": "..." in a point.json we wrote (one field per
 * line, escapes only \" and \\ and \u00XX).  Caller frees; NULL if absent. */
static char *json_get(const char *text, const char *name)
{
    char *pat = strf("\n  \"%s\": \"", name);
    const char *p = strstr(text, pat);
    size_t skip = strlen(pat);
    free(pat);
    if (!p)
        return NULL;
    p += skip;
    char *out = xmalloc(strlen(p) + 1);
    size_t n = 0;
    for (; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1] == 'u' && p[2] && p[3] && p[4] && p[5]) {
            char hex[5] = {p[2], p[3], p[4], p[5], '\0'};
            out[n++] = (char)strtol(hex, NULL, 16);
            p += 5;
        } else if (*p == '\\' && p[1]) {
            out[n++] = *++p;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
    return out;
}

/* ---- the spec against the file system -------------------------------- */

static int load_base(sweep_ctx *x, sk_error *e)
{
    sweep_spec *s = &x->spec;
    cfg_defaults(&x->base);
    sk_error inner = {0};
    int rc = cfg_load_file(&x->base, s->config_resolved, &inner);
    if (rc == SK_EIO)
        return sk_errorf(e, rc, "%s:%zu:%zu: config: %s", s->name, s->config_at.line, s->config_at.col,
                         inner.msg);
    if (rc)
        return sk_errorf(e, rc, "%s", inner.msg);
    for (size_t i = 0; i < s->ntraces; i++) {
        sweep_trace *t = &s->traces[i];
        if (t->gen)
            continue;
        /* The trace opens as `run` opens it (a file, or an Accel-Sim
         * kernelslist.g or its directory).  A regular file that opens but
         * that the reader refuses is left to its points, which fail and
         * say why, as `run` would. */
        char **files = NULL;
        size_t n = 0;
        struct stat st;
        sk_error te = {0};
        rc = trace_input_files(t->resolved, &files, &n, &te);
        for (size_t k = 0; k < n; k++)
            free(files[k]);
        free(files);
        if (rc != 0 && (rc == SK_EIO || stat(t->resolved, &st) != 0 || !S_ISREG(st.st_mode)))
            return sk_errorf(e, rc, "%s:%zu:%zu: traces.%s.path: %s", s->name, t->at.line, t->at.col, t->name,
                             te.msg);
        if (!t->sass)
            continue;
        /* the listing: a regular file that opens */
        FILE *f = NULL;
        if (stat(t->sass_resolved, &st) == 0 && !S_ISREG(st.st_mode))
            return sk_errorf(e, SK_EIO, "%s:%zu:%zu: traces.%s.sass: %s: not a regular file: expected a "
                             "cuobjdump -sass listing", s->name, t->at.line, t->at.col, t->name,
                             t->sass_resolved);
        if (!(f = fopen(t->sass_resolved, "rb")))
            return sk_errorf(e, SK_EIO, "%s:%zu:%zu: traces.%s.sass: %s: cannot open: %s", s->name,
                             t->at.line, t->at.col, t->name, t->sass_resolved, strerror(errno));
        fclose(f);
    }
    /* Every point against the real config, before anything runs. */
    for (size_t i = 0; i < s->npoints; i++) {
        sweep_point p;
        cfg c;
        sweep_point_at(s, i, &p);
        if ((rc = sweep_point_cfg(s, &p, &x->base, &c, e)) != 0)
            return rc;
    }
    return 0;
}

/* Trace i ready: generated (gen) and hashed. */
static int prepare_trace(sweep_ctx *x, size_t i, sk_error *e)
{
    trace_info *ti = &x->traces[i];
    const sweep_trace *t = &x->spec.traces[i];
    if (ti->ready)
        return 0;
    if (t->gen) {
        char *tdir = strf("%s/traces", x->dir);
        int rc = make_dir(tdir, e);
        free(tdir);
        if (rc)
            return rc;
        /* `skewsim gen`'s own code writes it; the file is replaced only
         * when its bytes change, so a resume leaves it (and its mtime) be. */
        char *prefix = strf("%s/traces/.%s.trace", x->dir, t->name), *tmp;
        int fd = make_temp(prefix, &tmp, e);
        free(prefix);
        if (fd < 0)
            return e->code;
        close(fd);
        /* argv: "gen", the gen line's words, then -o and the temporary as
         * two more elements (the output path is never split: it may hold
         * blanks) */
        char *cmd = xstrdup(t->gen);
        char **argv = xcalloc(strlen(cmd) / 2 + 5, sizeof *argv);
        char gen_word[] = "gen", out_word[] = "-o";
        int argc = 0;
        argv[argc++] = gen_word;
        for (char *tok = strtok(cmd, " \t\n\r"); tok; tok = strtok(NULL, " \t\n\r"))
            argv[argc++] = tok;
        argv[argc++] = out_word;
        argv[argc++] = tmp;
        fflush(stdout);
        rc = cmd_gen(argc, argv);
        free(argv);
        free(cmd);
        if (rc != 0) {
            remove(tmp);
            free(tmp);
            /* cmd_gen printed its line; say where it came from */
            return sk_errorf(e, SK_EIO, "%s:%zu:%zu: traces.%s.gen: could not generate the trace",
                             x->spec.name, t->at.line, t->at.col, t->name);
        }
        size_t na, nb;
        char *a = slurp(tmp, &na), *b = slurp(ti->file, &nb);
        if (b && a && na == nb && memcmp(a, b, na) == 0)
            remove(tmp);
        else if (rename(tmp, ti->file) != 0) {
            rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", ti->file, strerror(errno));
            remove(tmp);
        }
        free(a);
        free(b);
        free(tmp);
        if (rc)
            return rc;
    }
    int rc = t->gen ? hash_file(ti->file, &ti->hash, &ti->bytes, e) : hash_trace(ti->file, &ti->hash, &ti->bytes, e);
    if (rc == 0 && t->sass)
        rc = hash_file(t->sass_resolved, &ti->sass_hash, &ti->sass_bytes, e);
    if (rc)
        return rc;
    ti->ready = 1;
    return 0;
}

/* The hash of a file the config names (silicon.map_file), read once per
 * sweep: `run` opens it as written, relative to the working directory. */
static const side_file *side_hash(sweep_ctx *x, const char *path)
{
    for (size_t i = 0; i < x->nside; i++)
        if (strcmp(x->side[i].path, path) == 0)
            return &x->side[i];
    x->side = xrealloc(x->side, (x->nside + 1) * sizeof *x->side);
    side_file *sf = &x->side[x->nside++];
    memset(sf, 0, sizeof *sf);
    sf->path = xstrdup(path);
    sk_error ignore = {0};
    sf->missing = hash_file(path, &sf->hash, &sf->bytes, &ignore) != 0;   /* its points fail */
    return sf;
}

/* The point's key: its effective config, its trace's bytes, its SASS
 * listing's, and those of the silicon.map_file its config names. */
static uint64_t point_key(sweep_ctx *x, const sweep_point *p, const cfg *c)
{
    char *dump = NULL;
    size_t len = 0;
    FILE *f = mem_open(&dump, &len);
    cfg_dump(c, f, 0);
    fclose(f);
    uint64_t h = fnv1a(FNV_INIT, dump, len);
    free(dump);
    const trace_info *ti = &x->traces[p->trace];
    h = fnv1a(h, &ti->hash, sizeof ti->hash);
    h = fnv1a(h, &ti->bytes, sizeof ti->bytes);
    if (ti->sass_bytes != 0 || ti->sass_hash != 0) {
        /* without a listing (or a map file) the keys of earlier sweeps stay valid */
        h = fnv1a(h, &ti->sass_hash, sizeof ti->sass_hash);
        h = fnv1a(h, &ti->sass_bytes, sizeof ti->sass_bytes);
    }
    if (c->si_map_file[0]) {
        const side_file *sf = side_hash(x, c->si_map_file);
        static const char tag[] = "silicon.map_file";
        h = fnv1a(h, tag, sizeof tag);
        if (sf->missing) {
            h = fnv1a(h, "", 1);
        } else {
            h = fnv1a(h, &sf->hash, sizeof sf->hash);
            h = fnv1a(h, &sf->bytes, sizeof sf->bytes);
        }
    }
    return h;
}

static char *point_dir(const sweep_ctx *x, const sweep_point *p)
{
    char slug[160];
    return strf("%s/points/%s", x->dir, sweep_point_slug(&x->spec, p, slug, sizeof slug));
}

/* What a point.json says: "ok", "failed", or NULL when there is none or it
 * was written under another key ("stale"). */
typedef struct point_state {
    int exists, current, ok;
    char *message;
} point_state;

static void read_state(const sweep_ctx *x, const sweep_point *p, uint64_t key, point_state *st)
{
    memset(st, 0, sizeof *st);
    char *pd = point_dir(x, p);
    char *path = strf("%s/point.json", pd);
    char *text = slurp(path, NULL);
    free(path);
    free(pd);
    if (!text)
        return;
    st->exists = 1;
    char want[32];
    snprintf(want, sizeof want, "%016" PRIx64, key);
    char *k = json_get(text, "key"), *status = json_get(text, "status");
    st->current = k && strcmp(k, want) == 0;
    st->ok = status && strcmp(status, "ok") == 0;
    st->message = json_get(text, "message");
    free(k);
    free(status);
    free(text);
}

/* point.json, written last and atomically. */
static int write_point_json(const sweep_ctx *x, const sweep_point *p, uint64_t key, const cfg *c,
                            int status, const char *message, sk_error *e)
{
    const sweep_spec *s = &x->spec;
    const sweep_trace *t = &s->traces[p->trace];
    const trace_info *ti = &x->traces[p->trace];
    char slug[160];
    char *text = NULL;
    size_t len = 0;
    FILE *f = mem_open(&text, &len);
    fprintf(f, "{\n  \"index\": %zu,\n  \"dir\": \"", p->index);
    json_str(f, sweep_point_slug(s, p, slug, sizeof slug));
    fprintf(f, "\",\n  \"key\": \"%016" PRIx64 "\",\n  \"trace\": \"", key);
    json_str(f, t->name);
    fputs("\",\n  \"trace_file\": \"", f);
    json_str(f, ti->shown);
    if (t->gen) {
        fputs("\",\n  \"trace_gen\": \"", f);
        json_str(f, t->gen);
    }
    fprintf(f, "\",\n  \"trace_fnv1a64\": \"%016" PRIx64 "\",\n  \"trace_bytes\": %" PRIu64
               ",\n  \"config\": \"", ti->hash, ti->bytes);
    json_str(f, s->config);
    fputs("\",\n  \"case\": \"", f);
    json_str(f, s->ncases ? s->cases[p->kase].name : "");
    fputs("\",\n  \"overrides\": [", f);
    int first = 1;
#define KV_(k, v)                                            \
    do {                                                     \
        fputs(first ? "[\"" : ", [\"", f);                   \
        json_str(f, k);                                      \
        fputs("\", \"", f);                                  \
        json_str(f, v);                                      \
        fputs("\"]", f);                                     \
        first = 0;                                           \
    } while (0)
    for (size_t i = 0; i < s->nset; i++)
        KV_(s->set[i].key, s->set[i].value);
    if (s->ncases)
        for (size_t i = 0; i < s->cases[p->kase].nkv; i++)
            KV_(s->cases[p->kase].kv[i].key, s->cases[p->kase].kv[i].value);
    for (size_t a = 0; a < s->naxes; a++)
        KV_(s->axes[a].key, s->axes[a].values[p->axis[a]]);
#undef KV_
    fprintf(f, "],\n  \"seed\": %llu,\n  \"status\": \"%s\",\n  \"exit\": %d,\n  \"message\": \"",
            (unsigned long long)c->seed, status == 0 ? "ok" : "failed", status);
    json_str(f, message);
    fputs("\"\n}\n", f);
    fclose(f);
    char *pd = point_dir(x, p);
    char *path = strf("%s/point.json", pd);
    int rc = write_atomic(path, text, len, e);
    free(path);
    free(pd);
    free(text);
    return rc;
}

/* Remove a point's files (before it runs, or temporaries after a kill):
 * every temporary, whoever wrote it (`run`'s .NAME.tmp, point.json.tmp.*
 * of any process on any host), then with `finals` the results. */
static void clear_point(const char *pd, int finals)
{
    static const char *const files[] = {"point.json", "summary.json", "ctas.csv", "epochs.csv"};
    DIR *d = opendir(pd);
    if (d) {
        char **names = NULL;
        size_t n = 0;
        for (struct dirent *de; (de = readdir(d)) != NULL;)
            if (strstr(de->d_name, ".tmp")) {
                names = xrealloc(names, (n + 1) * sizeof *names);
                names[n++] = strf("%s/%s", pd, de->d_name);
            }
        closedir(d);
        for (size_t i = 0; i < n; i++) {
            remove(names[i]);
            free(names[i]);
        }
        free(names);
    }
    for (size_t i = 0; finals && i < SK_ARRAY_LEN(files); i++) {
        char *p = strf("%s/%s", pd, files[i]);
        remove(p);
        free(p);
    }
}

/* ---- running --------------------------------------------------------- */

typedef struct job {
    pid_t pid;
    size_t index;
} job;

static void ctx_free(sweep_ctx *x)
{
    if (x->traces)
        for (size_t i = 0; i < x->spec.ntraces; i++) {
            free(x->traces[i].file);
            free(x->traces[i].shown);
        }
    free(x->traces);
    x->traces = NULL;
    for (size_t i = 0; i < x->nside; i++)
        free(x->side[i].path);
    free(x->side);
    x->side = NULL;
    x->nside = 0;
    sweep_spec_free(&x->spec);
}

/* In the child: run, then point.json.  Never returns.  Before _exit it
 * frees what it inherited (the parent's context, job table and this
 * point's path), so that a leak checker following the children (valgrind
 * does) sees each one end clean. */
static void run_child(sweep_ctx *x, const sweep_point *p, const cfg *c, uint64_t key, char *pd,
                      job *jobs, const sigset_t *mask)
{
    /* SIGINT and SIGTERM are blocked since before fork(): one sent to
     * this child meanwhile (the parent forwarding, or Slurm) is pending,
     * and now kills it as it should. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    free(jobs);
    sk_error e = {0};
    int rc = cli_run_trace(c, x->traces[p->trace].file, x->spec.traces[p->trace].sass_resolved, pd, NULL, &e);
    int status = rc ? sk_exit_status(rc) : 0;
    sk_error we = {0};
    if (write_point_json(x, p, key, c, status, rc ? e.msg : "", &we) != 0) {
        fprintf(stderr, "skewsim: %s\n", we.msg);
        status = 3;
    }
    free(pd);
    ctx_free(x);
    fflush(NULL);
    _exit(status);
}

/* Reap one child; record a crash (killed, not by us) as a failed point. */
static void reap(sweep_ctx *x, job *jobs, int *njobs, int stopping)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, 0)) < 0) {
        if (errno == ECHILD) {
            *njobs = 0;       /* NEVER: every job is a child we have not reaped */
            return;
        }
        if (errno != EINTR)
            return;
        if (stop_signal && !stopping)
            return;    /* let the caller forward the signal first */
    }
    for (int i = 0; i < *njobs; i++) {
        if (jobs[i].pid != pid)
            continue;
        sweep_point p;
        sweep_point_at(&x->spec, jobs[i].index, &p);
        char *pd = point_dir(x, &p);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            x->run++;
        } else if (WIFSIGNALED(st) && stop_signal) {
            clear_point(pd, 0);       /* interrupted: unfinished, not failed */
        } else {
            x->failed++;
            x->run++;
            if (WIFSIGNALED(st)) {
                cfg c;
                sk_error e = {0};
                char *msg = strf("killed by signal %d", WTERMSIG(st));
                clear_point(pd, 0);
                if (sweep_point_cfg(&x->spec, &p, &x->base, &c, &e) == 0)
                    write_point_json(x, &p, point_key(x, &p, &c), &c, 128 + WTERMSIG(st), msg, &e);
                free(msg);
            }
        }
        free(pd);
        jobs[i] = jobs[--*njobs];
        return;
    }
}

static void stop_children(job *jobs, int njobs)
{
    for (int i = 0; i < njobs; i++)
        kill(jobs[i].pid, SIGTERM);
}

static int run_points(sweep_ctx *x, sk_error *e)
{
    const sweep_spec *s = &x->spec;
    job *jobs = xcalloc((size_t)x->jobs, sizeof *jobs);
    int njobs = 0, rc = 0, forwarded = 0;
    for (size_t i = 0; i < s->npoints && !stop_signal; i++) {
        if ((int)(i % (size_t)x->shard_n) != x->shard_k)
            continue;
        sweep_point p;
        cfg c;
        sweep_point_at(s, i, &p);
        if ((rc = sweep_point_cfg(s, &p, &x->base, &c, e)) != 0 ||
            (rc = prepare_trace(x, p.trace, e)) != 0)
            break;
        uint64_t key = point_key(x, &p, &c);
        if (!x->force) {
            point_state st;
            read_state(x, &p, key, &st);
            free(st.message);
            if (st.current && st.ok) {
                x->skipped++;
                continue;
            }
        }
        while (njobs == x->jobs && !stop_signal)
            reap(x, jobs, &njobs, 0);
        if (stop_signal)
            break;
        char *pd = point_dir(x, &p);
        if ((rc = make_dir(pd, e)) != 0) {
            free(pd);
            break;
        }
        clear_point(pd, 1);
        fflush(NULL);
        /* SIGINT and SIGTERM blocked across fork(), so that none lands
         * between fork() and the child's SIG_DFL (where it would only set
         * the child's copy of stop_signal).  Out of processes (EAGAIN, at a
         * high -j or a low ulimit -u): wait for a running point to end, or
         * a moment when none runs, and try again. */
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pid_t pid;
        int err = 0;
        for (int waits = 0;;) {
            sigprocmask(SIG_BLOCK, &block, &old);
            pid = fork();
            err = errno;
            if (pid == 0)
                run_child(x, &p, &c, key, pd, jobs, &old);
            sigprocmask(SIG_SETMASK, &old, NULL);
            if (pid > 0 || err != EAGAIN || stop_signal)
                break;
            if (njobs > 0) {
                reap(x, jobs, &njobs, 0);
            } else if (++waits > FORK_RETRIES) {
                break;
            } else {
                struct timespec nap = {0, FORK_RETRY_NS};
                nanosleep(&nap, NULL);
            }
        }
        if (pid < 0) {
            if (!stop_signal)
                rc = sk_errorf(e, SK_EIO, "sweep: cannot fork: %s", strerror(err));
            free(pd);
            break;
        }
        free(pd);
        x->started++;
        jobs[njobs].pid = pid;
        jobs[njobs++].index = i;
    }
    while (njobs > 0) {
        if (stop_signal && !forwarded) {
            stop_children(jobs, njobs);
            forwarded = 1;
        }
        reap(x, jobs, &njobs, forwarded);
    }
    free(jobs);
    return rc;
}

/* ---- sweep.csv and the table ----------------------------------------- */

/* Numbers of one point from its summary.json (all kernels' time and span
 * summed; SM clocks averaged / minimised over SMs). */
typedef struct point_nums {
    char time_ns[32], span_ns[32], mean_mhz[32], min_mhz[32], power_w[32], energy_j[32];
} point_nums;

/* "key": NUMBER occurrences in text: sum as exact picoseconds. */
static int64_t sum_ns_ps(const char *text, const char *key)
{
    int64_t ps = 0;
    for (const char *p = text; (p = strstr(p, key)) != NULL;) {
        p += strlen(key);
        char *end;
        long long whole = strtoll(p, &end, 10);
        long long frac = 0;
        if (*end == '.') {
            const char *f = end + 1;
            frac = strtoll(f, &end, 10);
            for (ptrdiff_t d = end - f; d < 3; d++)
                frac *= 10;
        }
        ps += whole * 1000 + frac;
        p = end;
    }
    return ps;
}

static void copy_num(char *dst, size_t cap, const char *text, const char *key)
{
    const char *p = strstr(text, key);
    dst[0] = '\0';
    if (!p)
        return;
    p += strlen(key);
    size_t n = strspn(p, "0123456789.-e+");
    snprintf(dst, cap, "%.*s", (int)SK_MIN(n, cap - 1), p);
}

static void read_nums(const char *pd, point_nums *n)
{
    memset(n, 0, sizeof *n);
    char *path = strf("%s/summary.json", pd);
    char *text = slurp(path, NULL);
    free(path);
    if (!text)
        return;
    char b[32];
    const char *kern = strstr(text, "\"kernels\"");
    const char *sms = strstr(text, "\"sms\"");
    if (kern && sms) {
        char *ks = strndup(kern, (size_t)(sms - kern));
        results_fmt_ns(b, sizeof b, sum_ns_ps(ks, "\"time_ns\": "));
        snprintf(n->time_ns, sizeof n->time_ns, "%s", b);
        results_fmt_ns(b, sizeof b, sum_ns_ps(ks, "\"span_ns\": "));
        snprintf(n->span_ns, sizeof n->span_ns, "%s", b);
        free(ks);
        double sum = 0;
        long count = 0, minv = -1;
        for (const char *p = sms; (p = strstr(p, "\"mean_mhz\": ")) != NULL; count++) {
            p += strlen("\"mean_mhz\": ");
            sum += strtod(p, NULL);
        }
        for (const char *p = sms; (p = strstr(p, "\"min_mhz\": ")) != NULL;) {
            p += strlen("\"min_mhz\": ");
            long v = strtol(p, NULL, 10);
            if (minv < 0 || v < minv)
                minv = v;
        }
        if (count)
            snprintf(n->mean_mhz, sizeof n->mean_mhz, "%.3f", sum / (double)count);
        if (minv >= 0)
            snprintf(n->min_mhz, sizeof n->min_mhz, "%ld", minv);
    }
    copy_num(n->power_w, sizeof n->power_w, text, "\"mean_power_w\": ");
    copy_num(n->energy_j, sizeof n->energy_j, text, "\"energy_j\": ");
    free(text);
}

static void csv_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (const char *p = s; *p; p++) {
            if (*p == '"')
                fputc('"', f);
            fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

enum { ST_OK, ST_FAILED, ST_STALE, ST_MISSING };
static const char *const status_names[] = {"ok", "failed", "stale", "missing"};

/* Write DIR/sweep.csv from the tree and print the table.  *missing gets
 * the points not done (stale or missing), *failed those that failed.
 * Without `hash_new` (a sweep stopping on a signal or an error) a trace
 * not hashed yet is not read (a path: trace may be GiBs): its points count
 * as missing, and the next run looks again. */
static int collect(sweep_ctx *x, int print, int hash_new, size_t *missing, size_t *failed, char *mlist,
                   size_t mcap, sk_error *e)
{
    const sweep_spec *s = &x->spec;
    char *text = NULL;
    size_t len = 0;
    FILE *f = mem_open(&text, &len);
    /* header */
    csv_field(f, "index", 0);
    csv_field(f, "trace", 0);
    csv_field(f, "case", 0);
    for (size_t a = 0; a < s->naxes; a++)
        csv_field(f, s->axes[a].key, 0);
    static const char *const tail[] = {"seed", "status", "time_ns", "span_ns", "mean_mhz", "min_mhz",
                                       "mean_power_w", "energy_j", "dir", "message"};
    for (size_t i = 0; i < SK_ARRAY_LEN(tail); i++)
        csv_field(f, tail[i], i + 1 == SK_ARRAY_LEN(tail));

    /* table columns: index trace case axes... seed status time_us span_us */
    size_t tcols = 3 + s->naxes + 4;
    size_t trows = SK_MIN(s->npoints, (size_t)TABLE_MAX_ROWS) + 1;
    char ***cells = xcalloc(trows, sizeof *cells);
    size_t *width = xcalloc(tcols, sizeof *width);
    cells[0] = xcalloc(tcols, sizeof **cells);
    {
        size_t c = 0;
        cells[0][c++] = xstrdup("index");
        cells[0][c++] = xstrdup("trace");
        cells[0][c++] = xstrdup("case");
        for (size_t a = 0; a < s->naxes; a++)
            cells[0][c++] = xstrdup(s->axes[a].key);
        cells[0][c++] = xstrdup("seed");
        cells[0][c++] = xstrdup("status");
        cells[0][c++] = xstrdup("time_us");
        cells[0][c++] = xstrdup("span_us");
    }
    *missing = *failed = 0;
    size_t mlen = 0;
    if (mcap)
        mlist[0] = '\0';
    int rc = 0;
    for (size_t i = 0; i < s->npoints; i++) {
        sweep_point p;
        cfg c;
        sweep_point_at(s, i, &p);
        if ((rc = sweep_point_cfg(s, &p, &x->base, &c, e)) != 0)
            break;
        int st = ST_MISSING;
        point_state ps = {0};
        trace_info *ti = &x->traces[p.trace];
        if (ti->ready || !hash_new) {
            /* hashed already, or not to be read now */
        } else if (!s->traces[p.trace].gen) {
            if ((rc = prepare_trace(x, p.trace, e)) != 0)
                break;
        } else {
            /* a gen trace that is there is hashed; one that is not means
             * none of its points can have run */
            sk_error ignore = {0};
            if (hash_file(ti->file, &ti->hash, &ti->bytes, &ignore) == 0)
                ti->ready = 1;
        }
        if (ti->ready) {
            read_state(x, &p, point_key(x, &p, &c), &ps);
            st = !ps.exists ? ST_MISSING : !ps.current ? ST_STALE : ps.ok ? ST_OK : ST_FAILED;
        }
        char slug[160], idx[32], seed[32];
        sweep_point_slug(s, &p, slug, sizeof slug);
        char *pd = point_dir(x, &p);
        point_nums n;
        memset(&n, 0, sizeof n);
        if (st == ST_OK)
            read_nums(pd, &n);
        free(pd);
        snprintf(idx, sizeof idx, "%zu", i);
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)c.seed);
        csv_field(f, idx, 0);
        csv_field(f, s->traces[p.trace].name, 0);
        csv_field(f, s->ncases ? s->cases[p.kase].name : "", 0);
        for (size_t a = 0; a < s->naxes; a++)
            csv_field(f, s->axes[a].values[p.axis[a]], 0);
        csv_field(f, seed, 0);
        csv_field(f, status_names[st], 0);
        csv_field(f, n.time_ns, 0);
        csv_field(f, n.span_ns, 0);
        csv_field(f, n.mean_mhz, 0);
        csv_field(f, n.min_mhz, 0);
        csv_field(f, n.power_w, 0);
        csv_field(f, n.energy_j, 0);
        char *rel = strf("points/%s", slug);
        csv_field(f, rel, 0);
        free(rel);
        csv_field(f, st == ST_FAILED && ps.message ? ps.message : "", 1);
        free(ps.message);
        if (st == ST_FAILED)
            ++*failed;
        if (st == ST_STALE || st == ST_MISSING) {
            if (*missing < 8 && mlen + 8 < mcap)
                mlen += (size_t)snprintf(mlist + mlen, mcap - mlen, "%s%04zu", *missing ? ", " : "", i);
            else if (*missing == 8 && mlen + 8 < mcap)
                mlen += (size_t)snprintf(mlist + mlen, mcap - mlen, ", ...");
            ++*missing;
        }
        if (i + 1 < trows) {
            char **r = cells[i + 1] = xcalloc(tcols, sizeof **cells);
            size_t k = 0;
            r[k++] = xstrdup(idx);
            r[k++] = xstrdup(s->traces[p.trace].name);
            r[k++] = xstrdup(s->ncases ? s->cases[p.kase].name : "-");
            for (size_t a = 0; a < s->naxes; a++)
                r[k++] = xstrdup(s->axes[a].values[p.axis[a]]);
            r[k++] = xstrdup(seed);
            r[k++] = xstrdup(status_names[st]);
            r[k++] = n.time_ns[0] ? strf("%.1f", strtod(n.time_ns, NULL) / 1000) : xstrdup("-");
            r[k++] = n.span_ns[0] ? strf("%.1f", strtod(n.span_ns, NULL) / 1000) : xstrdup("-");
        }
    }
    fclose(f);
    if (rc == 0) {
        char *path = strf("%s/sweep.csv", x->dir);
        rc = write_atomic(path, text, len, e);
        free(path);
    }
    free(text);
    if (rc == 0 && print) {
        for (size_t r = 0; r < trows; r++)
            for (size_t c = 0; c < tcols && cells[r]; c++)
                width[c] = SK_MAX(width[c], strlen(cells[r][c]));
        for (size_t r = 0; r < trows; r++) {
            for (size_t c = 0; c < tcols && cells[r]; c++) {
                int right = c == 0 || c + 2 >= tcols;   /* numbers to the right */
                printf(right ? "%*s%s" : "%-*s%s", (int)width[c], cells[r][c], c + 1 < tcols ? "  " : "\n");
            }
        }
        if (s->npoints + 1 > trows)
            printf("... %zu more rows in %s/sweep.csv\n", s->npoints + 1 - trows, x->dir);
    }
    for (size_t r = 0; r < trows; r++) {
        for (size_t c = 0; c < tcols && cells[r]; c++)
            free(cells[r][c]);
        free(cells[r]);
    }
    free(cells);
    free(width);
    return rc;
}

/* ---- --list ---------------------------------------------------------- */

static void list_points(const sweep_ctx *x)
{
    const sweep_spec *s = &x->spec;
    for (size_t i = 0; i < s->npoints; i++) {
        if ((int)(i % (size_t)x->shard_n) != x->shard_k)
            continue;
        sweep_point p;
        char slug[160];
        sweep_point_at(s, i, &p);
        printf("%s  trace=%s", sweep_point_slug(s, &p, slug, sizeof slug), s->traces[p.trace].name);
        if (s->ncases)
            printf(" case=%s", s->cases[p.kase].name);
        for (size_t a = 0; a < s->naxes; a++)
            printf(" %s=%s", s->axes[a].key, s->axes[a].values[p.axis[a]]);
        printf(" seed=%llu\n", (unsigned long long)(s->nseeds ? s->seeds[p.seed] : x->base.seed));
    }
}

/* ---- the command ----------------------------------------------------- */

#define SWEEP_USAGE "expected SPEC -o DIR [-j N] [--shard K/N] [--force] [--collect] [--list]"

/* Decimal digits only: no sign, no blank (strtol would skip leading ones
 * and take " -1"). */
static int parse_uint(const char *s, long max, long *out)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_shard(const char *s, int *k, int *n)
{
    const char *slash = strchr(s, '/');
    long kk, nn;
    if (!slash || slash == s)
        return -1;
    char *ks = strndup(s, (size_t)(slash - s));
    int rc = parse_uint(ks, 1000000, &kk) || parse_uint(slash + 1, 1000000, &nn) || nn < 1 || kk >= nn;
    free(ks);
    if (rc)
        return -1;
    *k = (int)kk;
    *n = (int)nn;
    return 0;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_ctx x;
    memset(&x, 0, sizeof x);
    x.jobs = 1;
    x.shard_n = 1;
    const char *spec = NULL;
    sk_error e = {0};
    int status = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: skewsim sweep SPEC -o DIR [-j N] [--shard K/N] [--force] [--collect] [--list]\n\n"
                   "SPEC keys (docs/sweeps.md):\n");
            sweep_spec_help(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && has) {
            x.dir = argv[++i];
        } else if (!strcmp(a, "-j") && has) {
            long j;
            const char *v = argv[++i];
            if (parse_uint(v, MAX_JOBS, &j) < 0) {
                sk_errorf(&e, SK_EUSAGE, "sweep: -j %s: expected an integer in 0..%d (0: one per online CPU)",
                          v, MAX_JOBS);
                return cli_fail(&e);
            }
            x.jobs = (int)j;
        } else if (!strcmp(a, "--shard") && has) {
            const char *v = argv[++i];
            if (parse_shard(v, &x.shard_k, &x.shard_n) < 0) {
                sk_errorf(&e, SK_EUSAGE, "sweep: --shard %s: expected K/N with 0 <= K < N (N at most 1000000)", v);
                return cli_fail(&e);
            }
        } else if (!strcmp(a, "--force")) {
            x.force = 1;
        } else if (!strcmp(a, "--collect")) {
            x.collect = 1;
        } else if (!strcmp(a, "--list")) {
            x.list = 1;
        } else if (a[0] == '-' && a[1]) {
            int takes = !strcmp(a, "-o") || !strcmp(a, "-j") || !strcmp(a, "--shard");
            sk_errorf(&e, SK_EUSAGE, "sweep: %s: %s: " SWEEP_USAGE, a, takes ? "missing value" : "unknown option");
            return cli_fail(&e);
        } else if (spec) {
            sk_errorf(&e, SK_EUSAGE, "sweep: %s: a second spec: " SWEEP_USAGE, a);
            return cli_fail(&e);
        } else {
            spec = a;
        }
    }
    if (!spec || (!x.dir && !x.list)) {
        sk_errorf(&e, SK_EUSAGE, "sweep: missing %s: " SWEEP_USAGE, !spec ? "SPEC" : "-o DIR");
        return cli_fail(&e);
    }
    if (x.collect && (x.force || x.list)) {
        sk_errorf(&e, SK_EUSAGE, "sweep: --collect: runs nothing: expected no --force or --list with it");
        return cli_fail(&e);
    }
    if (x.jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        x.jobs = n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
    }

    if (sweep_spec_load(&x.spec, spec, &e) != 0 || load_base(&x, &e) != 0)
        goto fail;
    if (x.list) {
        list_points(&x);
        goto done;
    }
    x.traces = xcalloc(x.spec.ntraces, sizeof *x.traces);
    for (size_t i = 0; i < x.spec.ntraces; i++) {
        const sweep_trace *t = &x.spec.traces[i];
        x.traces[i].file = t->gen ? strf("%s/traces/%s.trace", x.dir, t->name) : xstrdup(t->resolved);
        x.traces[i].shown = t->gen ? strf("traces/%s.trace", t->name) : xstrdup(t->path);
    }
    char *pdir = strf("%s/points", x.dir);
    int rc = make_dir(x.dir, &e);
    if (!rc)
        rc = make_dir(pdir, &e);
    free(pdir);
    if (rc)
        goto fail;

    if (!x.collect) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        rc = run_points(&x, &e);
        if (rc) {
            /* points ran before the error: sweep.csv still says what is done */
            size_t missing, failed;
            char mlist[128];
            sk_error ignore = {0};
            if (x.started)
                collect(&x, 0, 0, &missing, &failed, mlist, sizeof mlist, &ignore);
            goto fail;
        }
    }
    size_t missing, failed;
    char mlist[128];
    if (collect(&x, 1, !stop_signal, &missing, &failed, mlist, sizeof mlist, &e) != 0)
        goto fail;
    if (x.collect) {
        printf("sweep: %zu points: %zu done, %zu failed, %zu not done\n", x.spec.npoints,
               x.spec.npoints - missing - failed, failed, missing);
        if (missing || failed) {
            fflush(stdout);
            if (missing)
                fprintf(stderr, "skewsim: sweep: %zu of %zu points not done: %s\n", missing, x.spec.npoints,
                        mlist);
            else
                fprintf(stderr, "skewsim: sweep: %zu of %zu points failed (see %s/sweep.csv)\n", failed,
                        x.spec.npoints, x.dir);
            status = SWEEP_EXIT_FAILED;
        }
        goto done;
    }
    printf("sweep: %zu points%s: %zu run, %zu already done, %zu failed\n", x.spec.npoints,
           x.shard_n > 1 ? " (this shard's)" : "", x.run, x.skipped, x.failed);
    if (stop_signal) {
        fflush(stdout);
        fprintf(stderr, "skewsim: sweep: stopped by signal %d: finished points kept; run it again to resume\n",
                (int)stop_signal);
        status = 128 + stop_signal;
    } else if (x.failed) {
        fflush(stdout);
        fprintf(stderr, "skewsim: sweep: %zu of %zu points failed (see %s/sweep.csv)\n", x.failed,
                x.run + x.skipped, x.dir);
        status = SWEEP_EXIT_FAILED;
    }
    goto done;
fail:
    fflush(stdout);
    status = cli_fail(&e);
done:
    ctx_free(&x);
    return status;
}
