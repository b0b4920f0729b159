/* engine.c -- the sweep engine (sweep_run(), sweep.h): every point of a
 * spec (src/sweep/spec.c), each one run_trace() in a forked child, at most
 * N at once (docs/sweeps.md).  `skewsim sweep` (src/cli/cmd_sweep.c) parses
 * the command line, calls it, prints the outcome and picks the exit status.
 *
 * The output tree is the only state, so a killed sweep, a resumed one, a
 * shard on another node and --collect all read the same thing:
 *
 *   DIR/traces/NAME.trace       each gen: trace, written by the generators'
 *                               own writer (gen.h), replaced only when its bytes change
 *   DIR/points/NNNN-slug/       summary.json, ctas.csv, epochs.csv as `run`
 *                               writes them, then point.json LAST
 *   DIR/sweep.csv               one row per point, rebuilt from the above
 *
 * point.json holds the point's key: an FNV-1a 64 hash of the effective
 * config (cfg_dump: config file, overrides and seed), of the trace's bytes
 * (every file it reads: an Accel-Sim list and its kernel files), of its
 * SASS listing's and of the files its config names (silicon.map_file,
 * dispatch.weights_file).  A point is done when its
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
 * child starts with them pending rather than lost.  The library holds no
 * mutable static: the caller owns the handler and its flag (a handler has
 * nowhere else to write) and passes a pointer to it (sweep_opts.stop); the
 * engine only reads it.  point.json is written, and point.json and
 * summary.json are read, with libjansson (json.h).
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
#include "skewsim/gen.h"
#include "skewsim/json.h"
#include "skewsim/fileio.h"
#include "skewsim/results.h"
#include "skewsim/run.h"
#include "skewsim/sass.h"
#include "skewsim/sweep.h"
#include "skewsim/sweep_hpc.h"
#include "skewsim/version.h"
#include "skewsim/timeline.h"

#define TABLE_MAX_ROWS 500
#define FORK_RETRIES 100             /* fork() at EAGAIN with no point running: */
#define FORK_RETRY_NS 100000000L     /* ... up to 100 tries 0.1 s apart */


/* One trace of the spec as this sweep sees it. */
typedef struct trace_info {
    char *file;                 /* path to open */
    char *shown;                /* path recorded in point.json (gen: relative to DIR) */
    uint64_t hash;              /* FNV-1a 64 of its bytes (of its files: hash_trace) */
    uint64_t bytes;
    uint64_t sass_hash, sass_bytes;   /* the same of its SASS listing (sass:), 0 without */
    int ready;                  /* hashed (gen: generated) */
    int parsed;                 /* read to the end once (sweep_trace_cost_read) */
    double point_s;             /* a point's estimated seconds on one core */
    char *cmd_file;             /* the trace in a point's `run` command: gen: relative to DIR, else absolute */
    char *cmd_sass;             /* the listing's absolute path, or NULL */
    int cached;                 /* file is DIR/cache/...: an Accel-Sim trace converted, listing applied */
} trace_info;

/* A file a config points to (silicon.map_file, dispatch.weights_file),
 * hashed once per sweep. */
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
    int timeline;                        /* sweep_opts: each point writes timeline.json */
    uint64_t timeline_max_events;
    const volatile sig_atomic_t *stop;   /* the caller's signal flag (sweep_opts) */
    FILE *out;
    trace_info *traces;
    side_file *side;
    size_t nside;
    size_t run, skipped, failed, started;
    int quiet, reuse;           /* sweep_opts.quiet, .reuse_across_versions */
    sweep_lock lock;            /* DIR/.lock while points run */
    pid_t parent;               /* this process, for the point processes' binding */
    sweep_progress prog;
    char *config_abs;           /* the config's absolute path, for each point's `run` command */
} sweep_ctx;

/* The signal that stops the sweep, 0 while none has come. */
static int stopped(const sweep_ctx *x)
{
    return x->stop ? (int)*x->stop : 0;
}

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

/* A JSON file we wrote (point.json, summary.json), parsed; NULL when it
 * is missing or not JSON.  Integers are read as reals: a seed above
 * INT64_MAX, which jansson's integers cannot hold, must not make the
 * whole file unreadable. */
static json_t *load_json(const char *path)
{
    json_error_t err;
    return json_load_file(path, JSON_DECODE_INT_AS_REAL, &err);
}

/* The string member `name`, copied (caller frees); NULL if absent. */
static char *json_get(const json_t *o, const char *name)
{
    const char *v = json_string_value(json_object_get(o, name));
    return v ? xstrdup(v) : NULL;
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
        /* The generators' own writer writes it; the file is replaced only
         * when its bytes change, so a resume leaves it (and its mtime) be. */
        char *prefix = strf("%s/traces/.%s.trace", x->dir, t->name), *tmp;
        int fd = make_temp(prefix, &tmp, e);
        free(prefix);
        if (fd < 0)
            return e->code;
        close(fd);
        /* the generator table's own build and writer (gen.h), as `skewsim
         * gen` would write it */
        kernel k;
        long repeat;
        if ((rc = sweep_gen_build(&x->spec, t, &k, &repeat, e)) == 0) {
            sk_error inner = {0};
            rc = gen_write(tmp, &k, repeat, &inner);
            kernel_free(&k);
            if (rc)
                rc = sk_errorf(e, inner.code, "%s:%zu:%zu: traces.%s.gen: could not generate the trace: %s",
                               x->spec.name, t->at.line, t->at.col, t->name, inner.msg);
        }
        if (rc != 0) {
            remove(tmp);
            free(tmp);
            return rc;
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

/* The hash of a file the config names (point_key's list), read once per
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
 * listing's, and those of the files its config names (silicon.map_file,
 * dispatch.weights_file): a file edited under the same name is another
 * input, so its points run again. */
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
    /* Each file a config key names, in this order (a new one is a row at
     * the end, so the keys of sweeps that set none of the later keys stay
     * valid); a key left empty adds nothing. */
    const struct {
        const char *key;
        const char *path;
    } side[] = {
        {"silicon.map_file", c->si_map_file},
        {"dispatch.weights_file", c->dispatch_weights_file},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(side); i++) {
        if (!side[i].path[0])
            continue;
        const side_file *sf = side_hash(x, side[i].path);
        h = fnv1a(h, side[i].key, strlen(side[i].key) + 1);
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

/* `key` is the point's input key (point_key); the point is current when
 * its point.json holds that key with this build (sweep_key_with_build), or
 * with reuse the same input key from any build (a point.json older than
 * build keys holds the input key as its "key"). */
static void read_state(const sweep_ctx *x, const sweep_point *p, uint64_t key, point_state *st)
{
    memset(st, 0, sizeof *st);
    char *pd = point_dir(x, p);
    char *path = strf("%s/point.json", pd);
    FILE *f = fopen(path, "rb");       /* one that cannot be read is missing */
    if (f)
        fclose(f);
    json_t *j = f ? load_json(path) : NULL;
    free(path);
    free(pd);
    if (!f)
        return;
    st->exists = 1;       /* a point.json that does not parse is stale: it runs again */
    char want[32], in[32];
    snprintf(want, sizeof want, "%016" PRIx64, sweep_key_with_build(key));
    snprintf(in, sizeof in, "%016" PRIx64, key);
    char *k = json_get(j, "key"), *status = json_get(j, "status"), *ik = json_get(j, "input_key");
    st->current = k && strcmp(k, want) == 0;
    if (!st->current && x->reuse)
        st->current = ik ? strcmp(ik, in) == 0 : k && strcmp(k, in) == 0;
    free(ik);
    st->ok = status && strcmp(status, "ok") == 0;
    st->message = json_get(j, "message");
    free(k);
    free(status);
    json_decref(j);
}

/* point.json, written last and atomically. */
static int write_point_json(const sweep_ctx *x, const sweep_point *p, uint64_t key, const cfg *c,
                            int status, const char *message, sk_error *e)
{
    const sweep_spec *s = &x->spec;
    const sweep_trace *t = &s->traces[p->trace];
    const trace_info *ti = &x->traces[p->trace];
    char slug[160], hex[32];
    json_t *o = json_object();
    skjson_set(o, "index", skjson_u64(p->index));
    skjson_set(o, "dir", skjson_str(sweep_point_slug(s, p, slug, sizeof slug)));
    snprintf(hex, sizeof hex, "%016" PRIx64, sweep_key_with_build(key));
    skjson_set(o, "key", skjson_str(hex));
    snprintf(hex, sizeof hex, "%016" PRIx64, key);
    skjson_set(o, "input_key", skjson_str(hex));
    skjson_set(o, "trace", skjson_str(t->name));
    skjson_set(o, "trace_file", skjson_str(ti->shown));
    if (t->gen)
        skjson_set(o, "trace_gen", skjson_str(t->gen));
    snprintf(hex, sizeof hex, "%016" PRIx64, ti->hash);
    skjson_set(o, "trace_fnv1a64", skjson_str(hex));
    skjson_set(o, "trace_bytes", skjson_u64(ti->bytes));
    skjson_set(o, "config", skjson_str(s->config));
    skjson_set(o, "case", skjson_str(s->ncases ? s->cases[p->kase].name : ""));
    json_t *ov = json_array();
#define KV_(k, v)                                            \
    do {                                                     \
        json_t *pair = json_array();                         \
        skjson_append(pair, skjson_str(k));                  \
        skjson_append(pair, skjson_str(v));                  \
        skjson_append(ov, pair);                             \
    } while (0)
    for (size_t i = 0; i < s->nset; i++)
        KV_(s->set[i].key, s->set[i].value);
    if (s->ncases)
        for (size_t i = 0; i < s->cases[p->kase].nkv; i++)
            KV_(s->cases[p->kase].kv[i].key, s->cases[p->kase].kv[i].value);
    for (size_t a = 0; a < s->naxes; a++)
        KV_(s->axes[a].key, s->axes[a].values[p->axis[a]]);
#undef KV_
    skjson_set(o, "overrides", ov);
    skjson_set(o, "seed", skjson_u64(c->seed));
    skjson_set(o, "status", skjson_str(status == 0 ? "ok" : "failed"));
    skjson_set(o, "exit", json_integer(status));
    skjson_set(o, "message", skjson_str(message));
    /* provenance (docs/hpc.md): which build, which effective config, and
     * the `run` command, from DIR, that gives this point's files */
    skjson_set(o, "skewsim_version", skjson_str(sk_version()));
    skjson_set(o, "skewsim_commit", skjson_str(sk_commit()));
    {
        char *dump = NULL;
        size_t dlen = 0;
        FILE *df = mem_open(&dump, &dlen);
        cfg_dump(c, df, 0);
        fclose(df);
        snprintf(hex, sizeof hex, "%016" PRIx64, fnv1a(FNV_INIT, dump, dlen));
        free(dump);
        skjson_set(o, "config_fnv1a64", skjson_str(hex));
        if (ti->sass_bytes || ti->sass_hash) {
            snprintf(hex, sizeof hex, "%016" PRIx64, ti->sass_hash);
            skjson_set(o, "sass_fnv1a64", skjson_str(hex));
        }
        json_t *cmd = json_array();
        const char *head[] = {"skewsim", "run", "-c", x->config_abs ? x->config_abs : s->config_resolved, "-t",
                              ti->cmd_file ? ti->cmd_file : ti->shown};
        for (size_t i = 0; i < SK_ARRAY_LEN(head); i++)
            skjson_append(cmd, skjson_str(head[i]));
        if (ti->cmd_sass) {
            skjson_append(cmd, skjson_str("--sass"));
            skjson_append(cmd, skjson_str(ti->cmd_sass));
        }
        for (size_t i = 0; i < json_array_size(ov); i++) {
            json_t *kv = json_array_get(ov, i);
            char *a = strf("%s=%s", json_string_value(json_array_get(kv, 0)),
                           json_string_value(json_array_get(kv, 1)));
            skjson_append(cmd, skjson_str("--set"));
            skjson_append(cmd, skjson_str(a));
            free(a);
        }
        char *sd = strf("sim.seed=%llu", (unsigned long long)c->seed);
        char *od = strf("points/%s", slug);
        const char *tailv[] = {"--set", sd, "-o", od};
        for (size_t i = 0; i < SK_ARRAY_LEN(tailv); i++)
            skjson_append(cmd, skjson_str(tailv[i]));
        free(sd);
        free(od);
        skjson_set(o, "command", cmd);
    }
    size_t len;
    char *text = skjson_dumps(o, &len);
    json_decref(o);
    char *pd = point_dir(x, p);
    char *path = strf("%s/point.json", pd);
    int rc = sk_write_atomic(path, text, len, -1, e);
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
    static const char *const files[] = {"point.json", "summary.json", "ctas.csv", "epochs.csv", "timeline.json"};
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


/* Trace i read to the end, as `run` will read it (sweep_trace_cost_read),
 * before any point runs: a trace with a bad record anywhere is an error
 * of the spec, at its traces.NAME line, rather than a failure of each of
 * its points.  What it counts gives its points' estimated cost. */
static int parse_trace(sweep_ctx *x, size_t i, sk_error *e)
{
    trace_info *ti = &x->traces[i];
    const sweep_trace *t = &x->spec.traces[i];
    if (ti->parsed)
        return 0;
    int rc = prepare_trace(x, i, e);
    if (rc)
        return rc;
    sk_error inner = {0};
    sass *listing = NULL;
    if (t->sass && !(listing = sass_load(t->sass_resolved, &inner)))
        return sk_errorf(e, inner.code ? inner.code : SK_EIO, "%s:%zu:%zu: traces.%s.sass: %s", x->spec.name,
                         t->at.line, t->at.col, t->name, inner.msg);
    if (!t->gen && !ti->cmd_file)
        ti->cmd_file = realpath(ti->file, NULL);
    if (t->sass && !ti->cmd_sass)
        ti->cmd_sass = realpath(t->sass_resolved, NULL);
    sweep_trace_cost c;
    char *cache = NULL;
    if (!t->gen && !sweep_trace_is_native(ti->file)) {
        /* An Accel-Sim trace is text that takes most of a point's time to
         * parse: convert it once, listing applied, into DIR/cache/ under
         * its input hashes (so a changed trace or listing is another file,
         * and shards converting at once write the same bytes), and let
         * every point read the compact native form, which simulates to
         * the same bytes.  The key still hashes the original files. */
        char *cdir = strf("%s/cache", x->dir);
        rc = make_dir(cdir, e);
        cache = strf("%s/%016" PRIx64 "-%016" PRIx64 ".trace", cdir, ti->hash, ti->sass_hash);
        free(cdir);
        if (rc) {
            free(cache);
            sass_free(listing);
            return rc;
        }
        struct stat st;
        if (stat(cache, &st) == 0)
            rc = sweep_trace_cost_read(cache, NULL, NULL, &c, &inner);
        else
            rc = sweep_trace_convert(ti->file, listing, t->sass_resolved, cache, &c, &inner);
    } else {
        rc = sweep_trace_cost_read(ti->file, listing, t->sass_resolved, &c, &inner);
    }
    sass_free(listing);
    if (rc) {
        free(cache);
        return sk_errorf(e, rc, "%s:%zu:%zu: traces.%s.%s: %s", x->spec.name, t->at.line, t->at.col, t->name,
                         t->gen ? "gen" : "path", inner.msg);
    }
    if (cache) {
        free(ti->file);
        ti->file = cache;
        ti->cached = 1;
    }
    ti->point_s = sweep_point_seconds(&c);
    ti->parsed = 1;
    return 0;
}

/* Every trace with a point in this shard generated, hashed and parsed. */
static int parse_shard_traces(sweep_ctx *x, sk_error *e)
{
    const sweep_spec *s = &x->spec;
    for (size_t t = 0; t < s->ntraces; t++) {
        /* the trace varies slowest: its points are one block of indices */
        size_t per = s->npoints / s->ntraces, first = t * per, in_shard = 0;
        for (size_t i = first; i < first + per && !in_shard; i++)
            in_shard = (int)(i % (size_t)x->shard_n) == x->shard_k;
        if (!in_shard)
            continue;
        int rc = parse_trace(x, t, e);
        if (rc)
            return rc;
    }
    return 0;
}

/* Which of this shard's points will run (not done, or all with force):
 * their count and estimated seconds; with `cost`, cost[i] for every point
 * (-1: done or another shard's). */
static int plan(sweep_ctx *x, double *cost, size_t *nrun, double *est, sk_error *e)
{
    const sweep_spec *s = &x->spec;
    *nrun = 0;
    *est = 0;
    for (size_t i = 0; i < s->npoints; i++) {
        if (cost)
            cost[i] = -1;
        if ((int)(i % (size_t)x->shard_n) != x->shard_k)
            continue;
        sweep_point p;
        cfg c;
        sweep_point_at(s, i, &p);
        int rc = sweep_point_cfg(s, &p, &x->base, &c, e);
        if (rc)
            return rc;
        if (!x->force) {
            point_state st;
            read_state(x, &p, point_key(x, &p, &c), &st);
            free(st.message);
            if (st.current && st.ok)
                continue;
        }
        ++*nrun;
        *est += x->traces[p.trace].point_s;
        if (cost)
            cost[i] = x->traces[p.trace].point_s;
    }
    return 0;
}

/* Remove the temporaries (NAME.tmp.XXXXXX, .NAME.trace.tmp.XXXXXX) that a
 * killed sweep left in dir itself (not below it).  Only a sweep holding
 * the whole directory's lock may: a shard's neighbours may be writing
 * theirs right now. */
static void clear_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        if (strstr(de->d_name, ".tmp.")) {
            names = xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = strf("%s/%s", dir, de->d_name);
        }
    closedir(d);
    for (size_t i = 0; i < n; i++) {
        remove(names[i]);
        free(names[i]);
    }
    free(names);
}

/* ---- running --------------------------------------------------------- */

typedef struct job {
    pid_t pid;
    size_t index;
    double t0;                  /* sweep_clock() at its start, for the progress report */
} job;

static void ctx_free(sweep_ctx *x)
{
    if (x->traces)
        for (size_t i = 0; i < x->spec.ntraces; i++) {
            free(x->traces[i].file);
            free(x->traces[i].shown);
            free(x->traces[i].cmd_file);
            free(x->traces[i].cmd_sass);
        }
    free(x->traces);
    x->traces = NULL;
    for (size_t i = 0; i < x->nside; i++)
        free(x->side[i].path);
    free(x->side);
    x->side = NULL;
    x->nside = 0;
    free(x->config_abs);
    x->config_abs = NULL;
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
    /* die with the sweep (a SIGKILLed sweep must leave no point running on
     * its own), and hold no lock of its own on DIR */
    sweep_child_bind(x->parent);
    sweep_lock_drop(&x->lock);
    sigprocmask(SIG_SETMASK, mask, NULL);
    free(jobs);
    sk_error e = {0};
    const trace_info *ti = &x->traces[p->trace];
    const char *listing = ti->cached ? NULL : x->spec.traces[p->trace].sass_resolved;
    int rc;
    if (x->timeline) {
        /* As `run --timeline`: the point's timeline beside its results. */
        char *tp = strf("%s/timeline.json", pd);
        tlsim *tl = tlsim_open(tp, x->timeline_max_events, &e);
        rc = tl ? 0 : e.code;
        if (tl) {
            sim_sink k = tlsim_sink(tl);
            rc = run_trace_with(c, ti->file, listing, pd, NULL, &k, 1, &e);
            if (rc == 0)
                rc = tlsim_close(tl, &e);
            else
                tlsim_abort(tl);
        }
        free(tp);
    } else {
        rc = run_trace(c, ti->file, listing, pd, NULL, &e);
    }
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
        if (stopped(x) && !stopping)
            return;    /* let the caller forward the signal first */
    }
    for (int i = 0; i < *njobs; i++) {
        if (jobs[i].pid != pid)
            continue;
        sweep_point p;
        sweep_point_at(&x->spec, jobs[i].index, &p);
        char *pd = point_dir(x, &p);
        char slug[160];
        sweep_point_slug(&x->spec, &p, slug, sizeof slug);
        double wall = sweep_clock() - jobs[i].t0, est = x->traces[p.trace].point_s;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            x->run++;
            sweep_progress_ended(&x->prog, slug, 1, wall, est);
        } else if (WIFSIGNALED(st) && stopped(x)) {
            clear_point(pd, 0);       /* interrupted: unfinished, not failed */
            if (x->prog.running)
                x->prog.running--;
        } else {
            sweep_progress_ended(&x->prog, slug, 0, wall, est);
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
    for (size_t i = 0; i < s->npoints && !stopped(x); i++) {
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
        while (njobs == x->jobs && !stopped(x))
            reap(x, jobs, &njobs, 0);
        if (stopped(x))
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
         * the child's copy of the flag).  Out of processes (EAGAIN, at a
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
            if (pid > 0 || err != EAGAIN || stopped(x))
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
            if (!stopped(x))
                rc = sk_errorf(e, SK_EIO, "sweep: cannot fork: %s", strerror(err));
            free(pd);
            break;
        }
        free(pd);
        x->started++;
        jobs[njobs].pid = pid;
        jobs[njobs].t0 = sweep_clock();
        jobs[njobs++].index = i;
        sweep_progress_started(&x->prog);
    }
    while (njobs > 0) {
        if (stopped(x) && !forwarded) {
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

/* A number member printed at `decimals` as sweep.csv has always shown it;
 * "" when absent or null (not finite). */
static void fmt_num(char *dst, size_t cap, const json_t *o, const char *key, int decimals)
{
    const json_t *v = json_object_get(o, key);
    dst[0] = '\0';
    if (json_is_number(v))
        snprintf(dst, cap, "%.*f", decimals, json_number_value(v));
}

static void read_nums(const char *pd, point_nums *n)
{
    memset(n, 0, sizeof *n);
    char *path = strf("%s/summary.json", pd);
    json_t *j = load_json(path);
    free(path);
    if (!j)
        return;
    char b[32];
    const json_t *kern = json_object_get(j, "kernels"), *sms = json_object_get(j, "sms");
    if (json_is_array(kern) && json_is_array(sms)) {
        int64_t time_ps = 0, span_ps = 0;
        size_t i;
        const json_t *v;
        json_array_foreach(kern, i, v) {
            time_ps += skjson_ns_ps(v, "time_ns");
            span_ps += skjson_ns_ps(v, "span_ns");
        }
        results_fmt_ns(b, sizeof b, time_ps);
        snprintf(n->time_ns, sizeof n->time_ns, "%s", b);
        results_fmt_ns(b, sizeof b, span_ps);
        snprintf(n->span_ns, sizeof n->span_ns, "%s", b);
        double sum = 0;
        long count = 0, minv = -1;
        json_array_foreach(sms, i, v) {
            const json_t *mean = json_object_get(v, "mean_mhz"), *mn = json_object_get(v, "min_mhz");
            if (json_is_number(mean)) {
                sum += json_number_value(mean);
                count++;
            }
            if (json_is_number(mn)) {
                long m = (long)json_number_value(mn);
                if (minv < 0 || m < minv)
                    minv = m;
            }
        }
        if (count)
            snprintf(n->mean_mhz, sizeof n->mean_mhz, "%.3f", sum / (double)count);
        if (minv >= 0)
            snprintf(n->min_mhz, sizeof n->min_mhz, "%ld", minv);
    }
    const json_t *chip = json_object_get(j, "chip");
    fmt_num(n->power_w, sizeof n->power_w, chip, "mean_power_w", 3);
    fmt_num(n->energy_j, sizeof n->energy_j, chip, "energy_j", 6);
    json_decref(j);
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
    sk_csv_field(f, "index", 0);
    sk_csv_field(f, "trace", 0);
    sk_csv_field(f, "case", 0);
    for (size_t a = 0; a < s->naxes; a++)
        sk_csv_field(f, s->axes[a].key, 0);
    static const char *const tail[] = {"seed", "status", "time_ns", "span_ns", "mean_mhz", "min_mhz",
                                       "mean_power_w", "energy_j", "dir", "message"};
    for (size_t i = 0; i < SK_ARRAY_LEN(tail); i++)
        sk_csv_field(f, tail[i], i + 1 == SK_ARRAY_LEN(tail));

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
        sk_csv_field(f, idx, 0);
        sk_csv_field(f, s->traces[p.trace].name, 0);
        sk_csv_field(f, s->ncases ? s->cases[p.kase].name : "", 0);
        for (size_t a = 0; a < s->naxes; a++)
            sk_csv_field(f, s->axes[a].values[p.axis[a]], 0);
        sk_csv_field(f, seed, 0);
        sk_csv_field(f, status_names[st], 0);
        sk_csv_field(f, n.time_ns, 0);
        sk_csv_field(f, n.span_ns, 0);
        sk_csv_field(f, n.mean_mhz, 0);
        sk_csv_field(f, n.min_mhz, 0);
        sk_csv_field(f, n.power_w, 0);
        sk_csv_field(f, n.energy_j, 0);
        char *rel = strf("points/%s", slug);
        sk_csv_field(f, rel, 0);
        free(rel);
        sk_csv_field(f, st == ST_FAILED && ps.message ? ps.message : "", 1);
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
        rc = sk_write_atomic(path, text, len, -1, e);
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
                fprintf(x->out, right ? "%*s%s" : "%-*s%s", (int)width[c], cells[r][c], c + 1 < tcols ? "  " : "\n");
            }
        }
        if (s->npoints + 1 > trows)
            fprintf(x->out, "... %zu more rows in %s/sweep.csv\n", s->npoints + 1 - trows, x->dir);
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
        fprintf(x->out, "%s  trace=%s", sweep_point_slug(s, &p, slug, sizeof slug), s->traces[p.trace].name);
        if (s->ncases)
            fprintf(x->out, " case=%s", s->cases[p.kase].name);
        for (size_t a = 0; a < s->naxes; a++)
            fprintf(x->out, " %s=%s", s->axes[a].key, s->axes[a].values[p.axis[a]]);
        fprintf(x->out, " seed=%llu\n", (unsigned long long)(s->nseeds ? s->seeds[p.seed] : x->base.seed));
    }
}

/* ---- the entry point ------------------------------------------------- */

int sweep_run(const sweep_opts *o, sweep_outcome *out, sk_error *e)
{
    int fresh = 0;
    sweep_ctx x;
    memset(&x, 0, sizeof x);
    memset(out, 0, sizeof *out);
    x.dir = o->dir;
    x.jobs = o->jobs;
    x.shard_k = o->shard_k;
    x.shard_n = o->shard_n < 1 ? 1 : o->shard_n;
    x.force = o->force;
    x.timeline = o->timeline;
    x.timeline_max_events = o->timeline_max_events;
    x.collect = o->collect;
    x.list = o->list;
    x.stop = o->stop;
    x.out = o->out ? o->out : stdout;
    x.quiet = o->quiet;
    x.reuse = o->reuse_across_versions;
    x.lock.fd = -1;
    x.parent = getpid();
    if (x.jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        x.jobs = n < 1 ? 1 : n > SWEEP_MAX_JOBS ? SWEEP_MAX_JOBS : (int)n;
    }
    int rc = 0;
    if ((rc = sweep_spec_load(&x.spec, o->spec, e)) != 0 || (rc = load_base(&x, e)) != 0)
        goto done;
    out->npoints = x.spec.npoints;
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
    struct stat dst;
    fresh = stat(x.dir, &dst) != 0;     /* this run makes DIR: it may remove it again */
    rc = make_dir(x.dir, e);
    if (!rc)
        rc = make_dir(pdir, e);
    free(pdir);
    if (rc)
        goto done;
    {
        char *ca = realpath(x.spec.config_resolved, NULL);
        x.config_abs = ca;
    }
    if (o->slurm && o->slurm->on) {
        /* submit: every point's cost from its trace, parsed now */
        double *cost = xcalloc(x.spec.npoints ? x.spec.npoints : 1, sizeof *cost);
        size_t nrun;
        double est;
        if ((rc = parse_shard_traces(&x, e)) == 0 && (rc = plan(&x, cost, &nrun, &est, e)) == 0)
            rc = sweep_slurm_launch(o->slurm, NULL, o->spec, x.dir, cost, x.spec.npoints,
                                    x.reuse ? "--reuse-across-versions" : NULL, x.out, e);
        free(cost);
        out->slurm = 1;
        goto done;
    }
    if (!x.collect) {
        /* one sweep writes DIR (or one shard of it) at a time */
        if ((rc = sweep_lock_take(&x.lock, x.dir, x.shard_k, x.shard_n, e)) != 0)
            goto done;
        if (x.shard_n == 1) {
            /* what a SIGKILLed sweep left half-written outside the points
             * (a point's own are cleared before it runs) */
            static const char *const sub[] = {"", "/traces", "/cache"};
            for (size_t i = 0; i < SK_ARRAY_LEN(sub); i++) {
                char *d = strf("%s%s", x.dir, sub[i]);
                clear_temps(d);
                free(d);
            }
        }
        size_t nrun;
        double est;
        if ((rc = parse_shard_traces(&x, e)) != 0 || (rc = plan(&x, NULL, &nrun, &est, e)) != 0)
            goto done;
        /* a library caller that names no stream gets no report */
        FILE *pf = o->progress ? o->progress : stderr;
        int tty = o->progress_tty >= 0 ? o->progress_tty : isatty(fileno(pf));
        sweep_progress_init(&x.prog, pf, tty, x.quiet || !o->progress, nrun, est, NULL);
        rc = run_points(&x, e);
        sweep_progress_pause(&x.prog);
        if (rc) {
            /* points ran before the error: sweep.csv still says what is done */
            size_t missing, failed;
            char mlist[128];
            sk_error ignore = {0};
            if (x.started)
                collect(&x, 0, 0, &missing, &failed, mlist, sizeof mlist, &ignore);
            goto done;
        }
    }
    rc = collect(&x, 1, !stopped(&x), &out->missing, &out->not_ok, out->missing_list, sizeof out->missing_list, e);
    /* the tidy table (skewsim collect) beside sweep.csv, but not per shard:
     * an array's collect job writes it once */
    if (rc == 0 && (x.shard_n == 1 || x.collect)) {
        size_t np, nr;
        rc = sweep_tidy_write(x.dir, &np, &nr, e);
    }
    out->run = x.run;
    out->skipped = x.skipped;
    out->failed = x.failed;
    out->signal = stopped(&x);
done:
    sweep_lock_drop(&x.lock);
    if (rc != 0 && x.dir && !x.started && !x.list && fresh) {
        /* refused before any point ran (a bad trace, a lock): leave no
         * trace of this run but what it could not undo (a gen trace) */
        static const char *const made[] = {".lock", "points", "cache", "traces", ""};
        for (size_t i = 0; i < SK_ARRAY_LEN(made); i++) {
            char *m = strf("%s/%s", x.dir, made[i]);
            if (i == 0)
                remove(m);
            else
                rmdir(m);
            free(m);
        }
    }
    ctx_free(&x);
    return rc;
}
