/* spec.c -- the sweep spec: its schema table, the YAML reader, the points.
 *
 * spec_schema[] has one row per top-level key: name, whether it is
 * required, the function that reads its value, and its help.  The same table
 * drives the reader (unknown keys are refused with the table's names as the
 * expectation) and sweep_spec_help() (docs/sweeps.md mirrors that text).
 *
 * The YAML rules are the chip config's (yamlrd.h): no anchors, aliases or
 * tags, no duplicate keys, one document.  Every config key and value is
 * checked here by applying it to a scratch cfg through cfg_set_value(), the
 * same function `--set` goes through, so a spec cannot say anything `run
 * --set` would refuse, and the refusal points at the spec's line.
 *
 * Points never exist as a list: point i is decoded from i (mixed radix over
 * traces, cases, each axis, seeds; the seed varies fastest), so --shard and
 * resume cost nothing per point until it runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "skewsim/sweep.h"
#include "skewsim/sweep_hpc.h"
#include "skewsim/yamlrd.h"

typedef struct reader {
    yrd y;
    sweep_spec *s;
    const char *dir;            /* relative paths are resolved against it */
    cfg scratch;                /* what each override is tried on */
    size_t trace_cap, case_cap; /* allocated entries of s->traces, s->cases */
} reader;

typedef int (*row_fn)(reader *R, const yaml_event_t *value);

typedef struct spec_key {
    const char *name;
    int required;
    row_fn read;
    const char *value;          /* what the value looks like, for help */
    const char *help;
} spec_key;

static int read_config(reader *R, const yaml_event_t *v);
static int read_traces(reader *R, const yaml_event_t *v);
static int read_set(reader *R, const yaml_event_t *v);
static int read_cases(reader *R, const yaml_event_t *v);
static int read_axes(reader *R, const yaml_event_t *v);
static int read_seeds(reader *R, const yaml_event_t *v);

static const spec_key spec_schema[] = {
    {"config", 1, read_config, "PATH",
     "the chip config (YAML, docs/config.md), relative to the spec's directory"},
    {"traces", 1, read_traces, "{NAME: {path: PATH [, sass: LISTING]} | {gen: \"WORKLOAD OPTIONS\"}, ...}",
     "the traces, in order; a name is [A-Za-z0-9._-]; path: relative to the spec's "
     "directory; sass: with an Accel-Sim path, the binary's cuobjdump -sass listing "
     "that gives its stall counts (run --sass); gen: a `skewsim gen` command line "
     "without -o, generated once into DIR/traces/NAME.trace"},
    {"set", 0, read_set, "{KEY: VALUE, ...}",
     "overrides applied to every point, as --set KEY=VALUE"},
    {"cases", 0, read_cases, "{NAME: {KEY: VALUE, ...}, ...}",
     "named override sets, in order (rows that are not a full product); a name is "
     "[A-Za-z0-9._/-]; applied after set"},
    {"axes", 0, read_axes, "{KEY: [VALUE, ...], ...}",
     "a cartesian product, in spec order (the last axis varies fastest); applied after "
     "the case"},
    {"seeds", 0, read_seeds, "[N, ...]",
     "sim.seed of each point (varies fastest of all); default: the config's sim.seed"},
};

#define NSPEC SK_ARRAY_LEN(spec_schema)

/* ---- small helpers --------------------------------------------------- */

static sweep_pos pos_of(yaml_mark_t m)
{
    sweep_pos p = {m.line + 1, m.column + 1};
    return p;
}

static char *scalar_dup(const yaml_event_t *ev)
{
    size_t n = ev->data.scalar.length;
    char *p = xmalloc(n + 1);
    memcpy(p, ev->data.scalar.value, n);
    p[n] = '\0';
    return p;
}

/* A scalar holding a NUL byte (a quoted "\0") cannot be a name or a value. */
static int has_nul(const yaml_event_t *ev)
{
    return memchr(ev->data.scalar.value, '\0', ev->data.scalar.length) != NULL;
}

static char *join_path(const char *dir, const char *path)
{
    if (!dir || !*dir || path[0] == '/')
        return xstrdup(path);
    size_t n = strlen(dir) + strlen(path) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, path);
    return p;
}

/* A scalar that is neither an alias, anchored, tagged, nor holding a NUL. */
static int want_scalar(reader *R, const yaml_event_t *ev, const char *key, const char *what)
{
    char buf[80];
    int rc = yrd_check_plain(&R->y, ev, key);
    if (rc)
        return rc;
    if (ev->type != YAML_SCALAR_EVENT)
        return yrd_err(&R->y, ev->start_mark, SK_ECONFIG, "%s: %s: expected %s", key,
                       yrd_show_event(ev, buf, sizeof buf), what);
    if (has_nul(ev))
        return yrd_err(&R->y, ev->start_mark, SK_ECONFIG, "%s: %s: expected %s without a NUL byte",
                       key, yrd_show_event(ev, buf, sizeof buf), what);
    return 0;
}

static int want_start(reader *R, const yaml_event_t *ev, const char *key, yaml_event_type_t type,
                      const char *what)
{
    char buf[80];
    int rc = yrd_check_plain(&R->y, ev, key);
    if (rc)
        return rc;
    if (ev->type != type)
        return yrd_err(&R->y, ev->start_mark, SK_ECONFIG, "%s: %s: expected %s", key,
                       yrd_show_event(ev, buf, sizeof buf), what);
    return 0;
}

/* A name of a trace or case: 1..SWEEP_NAME_MAX-1 bytes of [A-Za-z0-9._/-],
 * not starting with '.' (it becomes part of a file name). */
static int check_name(reader *R, const yaml_event_t *ev, const char *section, int slash)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    char buf[80];
    int ok = n > 0 && n < SWEEP_NAME_MAX && s[0] != '.' && !has_nul(ev);
    for (size_t i = 0; ok && i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
             ch == '_' || ch == '-' || ch == '.' || (slash && ch == '/');
    }
    if (!ok)
        return yrd_err(&R->y, ev->start_mark, SK_ECONFIG,
                       "%s: %s: expected a name of 1..%d characters from [A-Za-z0-9._-%s], "
                       "not starting with '.'",
                       section, yrd_show(buf, sizeof buf, s, n), SWEEP_NAME_MAX - 1, slash ? "/" : "");
    return 0;
}

/* Try key=value on the scratch config; a refusal is placed at the value. */
static int try_override(reader *R, const char *section, const char *key, const char *value,
                        yaml_mark_t at)
{
    sk_error inner = {0};
    cfg tmp = R->scratch;
    int rc = cfg_set_value(&tmp, key, value, &inner);
    if (rc)
        return yrd_err(&R->y, at, rc, "%s: %s", section, inner.msg);
    return 0;
}

/* The key of a mapping entry, or 1 at the mapping's end. */
static int next_key(reader *R, yaml_event_t *ev, const char *where)
{
    char buf[80];
    int rc = yrd_next(&R->y, ev);
    if (rc)
        return rc;
    if (ev->type == YAML_MAPPING_END_EVENT)
        return 1;
    rc = yrd_check_plain(&R->y, ev, where);
    if (!rc && ev->type != YAML_SCALAR_EVENT)
        rc = yrd_err(&R->y, ev->start_mark, SK_ECONFIG, "%s: %s as a key: expected a name", where,
                     yrd_show_event(ev, buf, sizeof buf));
    if (!rc && has_nul(ev))
        rc = yrd_err(&R->y, ev->start_mark, SK_ECONFIG, "%s: %s: expected a key without a NUL byte",
                     where, yrd_show_event(ev, buf, sizeof buf));
    if (rc)
        yaml_event_delete(ev);
    return rc;
}

/* A config key of section `section`, placed at the key on refusal. */
static int check_cfg_key(reader *R, const char *section, const yaml_event_t *k)
{
    sk_error inner = {0};
    int rc = cfg_check_key((const char *)k->data.scalar.value, &inner);
    if (rc)
        return yrd_err(&R->y, k->start_mark, rc, "%s: %s", section, inner.msg);
    return 0;
}

/* "section.key" noted for duplicates. */
static int note(reader *R, const char *section, const char *key, yaml_mark_t m)
{
    size_t n = strlen(section) + strlen(key) + 2;
    char *full = xmalloc(n);
    snprintf(full, n, "%s.%s", section, key);
    int rc = yrd_note_key(&R->y, full, m);
    free(full);
    return rc;
}

/* ---- the rows -------------------------------------------------------- */

static int read_config(reader *R, const yaml_event_t *v)
{
    int rc = want_scalar(R, v, "config", "a path to a chip config");
    if (rc)
        return rc;
    if (v->data.scalar.length == 0 || yrd_is_null(v))
        return yrd_err(&R->y, v->start_mark, SK_ECONFIG, "config: (empty): expected a path to a chip config");
    R->s->config = scalar_dup(v);
    R->s->config_resolved = join_path(R->dir, R->s->config);
    R->s->config_at = pos_of(v->start_mark);
    return 0;
}

/* Split a gen command line at blanks into a NULL-terminated argv ("gen"
 * first, as `skewsim gen` takes it).  The tokens point into *copy; the caller
 * frees *copy and argv. */
static char **split_gen(const char *cmd, int *argc, char **copy)
{
    *copy = xstrdup(cmd);
    size_t cap = strlen(cmd) / 2 + 3;
    char **argv = xcalloc(cap, sizeof *argv);
    int n = 0;
    argv[n++] = (char *)"gen";
    for (char *tok = strtok(*copy, " \t\n\r"); tok; tok = strtok(NULL, " \t\n\r"))
        argv[n++] = tok;
    argv[n] = NULL;
    *argc = n;
    return argv;
}

/* Parse and build a gen command line against the generator table (gen.h:
 * the options, their defaults and bounds are those of `skewsim gen`);
 * errors without a position (the caller adds it).  *k is filled on
 * success. */
static int gen_build_cmd(const char *cmd, kernel *k, long *repeat, sk_error *e)
{
    int argc, rc = 0;
    char *copy;
    char **argv = split_gen(cmd, &argc, &copy);
    char buf[80], list[128];
    const char *wl = argc > 1 ? argv[1] : "";
    const gen_workload *w = gen_find(wl);
    long v[GEN_MAX_OPTS];
    if (!w) {
        rc = sk_errorf(e, SK_ECONFIG, "%s: expected a workload: %s", yrd_show(buf, sizeof buf, wl, strlen(wl)),
                       gen_workload_list(list, sizeof list));
        goto out;
    }
    gen_defaults(w, v);
    for (int i = 2; i < argc && !rc; i++) {
        const char *arg = argv[i];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        int o = gen_find_opt(w, arg, len);
        if (o < 0) {
            rc = sk_errorf(e, SK_ECONFIG, "gen %s: %s: expected %s (no -o: the sweep names the file)",
                           wl, yrd_show(buf, sizeof buf, arg, strlen(arg)), gen_opt_list(w, NULL, list, sizeof list));
            break;
        }
        const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!val) {
            rc = sk_errorf(e, SK_ECONFIG, "gen %s: %s: expected a value", wl, w->opts[o].flag);
            break;
        }
        if (gen_opt_value(&w->opts[o], val, &v[o]) < 0) {
            char what[96];
            rc = sk_errorf(e, SK_ECONFIG, "gen %s: %s: %s: expected %s", wl, w->opts[o].flag,
                           yrd_show(buf, sizeof buf, val, strlen(val)),
                           gen_opt_expect(&w->opts[o], what, sizeof what));
            break;
        }
    }
    if (rc)
        goto out;
    sk_error inner = {0};
    rc = gen_build(w, v, k, repeat, &inner);
    if (rc)
        rc = sk_errorf(e, SK_ECONFIG, "%s", inner.msg);
out:
    free(copy);
    free(argv);
    return rc;
}

/* {path: P} or {gen: "..."} for trace `name`. */
static int read_trace_body(reader *R, sweep_trace *t, const yaml_event_t *v)
{
    char where[SWEEP_NAME_MAX + 16], buf[80];
    snprintf(where, sizeof where, "traces.%s", t->name);
    int rc = want_start(R, v, where, YAML_MAPPING_START_EVENT, "a mapping {path: PATH} or {gen: \"WORKLOAD OPTIONS\"}");
    if (rc)
        return rc;
    yaml_mark_t first = v->start_mark;
    for (;;) {
        yaml_event_t k, val;
        rc = next_key(R, &k, where);
        if (rc == 1) {
            yaml_event_delete(&k);
            break;
        }
        if (rc)
            return rc;
        int is_path = strcmp((const char *)k.data.scalar.value, "path") == 0;
        int is_gen = strcmp((const char *)k.data.scalar.value, "gen") == 0;
        int is_sass = strcmp((const char *)k.data.scalar.value, "sass") == 0;
        if (!is_path && !is_gen && !is_sass) {
            rc = yrd_err(&R->y, k.start_mark, SK_ECONFIG, "%s: %s: unknown key: expected path, sass or gen",
                         where, yrd_show_event(&k, buf, sizeof buf));
            yaml_event_delete(&k);
            return rc;
        }
        if (is_sass) {
            if (t->sass) {
                rc = yrd_err(&R->y, k.start_mark, SK_ECONFIG, "%s: sass: duplicate key", where);
                yaml_event_delete(&k);
                return rc;
            }
            yaml_event_delete(&k);
            if ((rc = yrd_next(&R->y, &val)) != 0)
                return rc;
            char key[SWEEP_NAME_MAX + 24];
            snprintf(key, sizeof key, "%s.sass", where);
            rc = want_scalar(R, &val, key, "a path to a SASS listing");
            if (!rc && val.data.scalar.length == 0)
                rc = yrd_err(&R->y, val.start_mark, SK_ECONFIG, "%s: (empty): expected a path to a SASS listing",
                             key);
            if (!rc) {
                t->sass = scalar_dup(&val);
                t->sass_resolved = join_path(R->dir, t->sass);
            }
            yaml_event_delete(&val);
            if (rc)
                return rc;
            continue;
        }
        if (t->path || t->gen) {
            rc = yrd_err(&R->y, k.start_mark, SK_ECONFIG, "%s: %s: expected only one of path or gen",
                         where, is_path ? "path" : "gen");
            yaml_event_delete(&k);
            return rc;
        }
        yaml_event_delete(&k);
        if ((rc = yrd_next(&R->y, &val)) != 0)
            return rc;
        char key[SWEEP_NAME_MAX + 24];
        snprintf(key, sizeof key, "%s.%s", where, is_path ? "path" : "gen");
        rc = want_scalar(R, &val, key, is_path ? "a path to a trace" : "a gen command line");
        if (!rc && val.data.scalar.length == 0)
            rc = yrd_err(&R->y, val.start_mark, SK_ECONFIG, "%s: (empty): expected %s", key,
                         is_path ? "a path to a trace" : "a gen command line, e.g. \"fma --grid 132\"");
        if (!rc && is_path) {
            t->path = scalar_dup(&val);
            t->resolved = join_path(R->dir, t->path);
        } else if (!rc) {
            t->gen = scalar_dup(&val);
            kernel kn;
            long repeat;
            sk_error inner = {0};
            if (gen_build_cmd(t->gen, &kn, &repeat, &inner) == 0)
                kernel_free(&kn);
            else
                rc = yrd_err(&R->y, val.start_mark, SK_ECONFIG, "%s: %s", key, inner.msg);
        }
        yaml_event_delete(&val);
        if (rc)
            return rc;
    }
    if (!t->path && !t->gen)
        return yrd_err(&R->y, first, SK_ECONFIG, "%s: {}: expected {path: PATH} or {gen: \"WORKLOAD OPTIONS\"}",
                       where);
    if (t->sass && t->gen)
        return yrd_err(&R->y, first, SK_ECONFIG, "%s: sass: expected it with path: (an Accel-Sim trace), "
                       "not gen:", where);
    return 0;
}

/* A mapping of named entries (`section` traces or cases, one `noun`
 * each): every name checked and unique, then `entry` reads its body; at
 * least one entry. */
static int read_named(reader *R, const yaml_event_t *v, const char *section, const char *noun, int slash,
                      int (*entry)(reader *R, const yaml_event_t *key, const yaml_event_t *body))
{
    char what[64];
    snprintf(what, sizeof what, "a mapping of %s names", noun);
    int rc = want_start(R, v, section, YAML_MAPPING_START_EVENT, what);
    if (rc)
        return rc;
    size_t n = 0;
    for (;; n++) {
        yaml_event_t k, val;
        rc = next_key(R, &k, section);
        if (rc == 1) {
            yaml_event_delete(&k);
            break;
        }
        if (rc)
            return rc;
        if (n == SWEEP_MAX_LIST)
            rc = yrd_err(&R->y, k.start_mark, SK_ERANGE, "%s: more than %d %ss: expected at most %d", section,
                         SWEEP_MAX_LIST, noun, SWEEP_MAX_LIST);
        else if ((rc = check_name(R, &k, section, slash)) == 0)
            rc = note(R, section, (const char *)k.data.scalar.value, k.start_mark);
        if (rc == 0 && (rc = yrd_next(&R->y, &val)) == 0) {
            rc = entry(R, &k, &val);
            yaml_event_delete(&val);
        }
        yaml_event_delete(&k);
        if (rc)
            return rc;
    }
    if (n == 0)
        return yrd_err(&R->y, v->start_mark, SK_ECONFIG, "%s: {}: expected at least one %s", section, noun);
    return 0;
}

static int trace_entry(reader *R, const yaml_event_t *k, const yaml_event_t *body)
{
    sweep_spec *s = R->s;
    if (s->ntraces == R->trace_cap) {
        R->trace_cap = R->trace_cap ? 2 * R->trace_cap : 8;
        s->traces = xrealloc(s->traces, R->trace_cap * sizeof *s->traces);
    }
    sweep_trace *t = &s->traces[s->ntraces++];
    memset(t, 0, sizeof *t);
    t->name = scalar_dup(k);
    t->at = pos_of(k->start_mark);
    return read_trace_body(R, t, body);
}

static int read_traces(reader *R, const yaml_event_t *v)
{
    return read_named(R, v, "traces", "trace", 0, trace_entry);
}

static int read_kvs(reader *R, const yaml_event_t *v, const char *section, sweep_kv **out,
                    size_t *nout)
{
    int rc = want_start(R, v, section, YAML_MAPPING_START_EVENT, "a mapping of config keys to values");
    if (rc)
        return rc;
    size_t cap = 0;
    for (;;) {
        yaml_event_t k, val;
        rc = next_key(R, &k, section);
        if (rc == 1) {
            yaml_event_delete(&k);
            break;
        }
        if (rc)
            return rc;
        rc = check_cfg_key(R, section, &k);
        if (!rc)
            rc = note(R, section, (const char *)k.data.scalar.value, k.start_mark);
        char *key = scalar_dup(&k);
        yaml_event_delete(&k);
        if (!rc)
            rc = yrd_next(&R->y, &val);
        if (rc) {
            free(key);
            return rc;
        }
        char where[256];
        snprintf(where, sizeof where, "%s.%s", section, key);
        rc = want_scalar(R, &val, where, "a value");
        char *value = rc ? NULL : scalar_dup(&val);
        if (!rc)
            rc = try_override(R, section, key, value, val.start_mark);
        if (!rc) {
            if (*nout == cap) {
                cap = cap ? 2 * cap : 8;
                *out = xrealloc(*out, cap * sizeof **out);
            }
            sweep_kv *kv = &(*out)[(*nout)++];
            kv->key = key;
            kv->value = value;
            kv->at = pos_of(val.start_mark);
        } else {
            free(key);
            free(value);
        }
        yaml_event_delete(&val);
        if (rc)
            return rc;
    }
    if (*nout == 0)
        return yrd_err(&R->y, v->start_mark, SK_ECONFIG, "%s: {}: expected at least one key", section);
    return 0;
}

static int read_set(reader *R, const yaml_event_t *v)
{
    return read_kvs(R, v, "set", &R->s->set, &R->s->nset);
}

static int case_entry(reader *R, const yaml_event_t *k, const yaml_event_t *body)
{
    sweep_spec *s = R->s;
    if (s->ncases == R->case_cap) {
        R->case_cap = R->case_cap ? 2 * R->case_cap : 8;
        s->cases = xrealloc(s->cases, R->case_cap * sizeof *s->cases);
    }
    sweep_case *c = &s->cases[s->ncases++];
    memset(c, 0, sizeof *c);
    c->name = scalar_dup(k);
    c->at = pos_of(k->start_mark);
    char where[SWEEP_NAME_MAX + 8];
    snprintf(where, sizeof where, "cases.%s", c->name);
    return read_kvs(R, body, where, &c->kv, &c->nkv);
}

static int read_cases(reader *R, const yaml_event_t *v)
{
    return read_named(R, v, "cases", "case", 1, case_entry);
}

static int read_axes(reader *R, const yaml_event_t *v)
{
    int rc = want_start(R, v, "axes", YAML_MAPPING_START_EVENT, "a mapping of config keys to lists");
    if (rc)
        return rc;
    sweep_spec *s = R->s;
    for (;;) {
        yaml_event_t k, val;
        rc = next_key(R, &k, "axes");
        if (rc == 1) {
            yaml_event_delete(&k);
            break;
        }
        if (rc)
            return rc;
        rc = check_cfg_key(R, "axes", &k);
        if (!rc)
            rc = note(R, "axes", (const char *)k.data.scalar.value, k.start_mark);
        if (!rc && s->naxes == SWEEP_MAX_AXES)
            rc = yrd_err(&R->y, k.start_mark, SK_ERANGE, "axes: %s: expected at most %d axes",
                         (const char *)k.data.scalar.value, SWEEP_MAX_AXES);
        if (rc) {
            yaml_event_delete(&k);
            return rc;
        }
        if (!s->axes)
            s->axes = xcalloc(SWEEP_MAX_AXES, sizeof *s->axes);
        sweep_axis *ax = &s->axes[s->naxes++];
        ax->key = scalar_dup(&k);
        yaml_event_delete(&k);
        char where[256];
        snprintf(where, sizeof where, "axes.%s", ax->key);
        if ((rc = yrd_next(&R->y, &val)) != 0)
            return rc;
        rc = want_start(R, &val, where, YAML_SEQUENCE_START_EVENT, "a list of values");
        yaml_mark_t start = val.start_mark;
        yaml_event_delete(&val);
        if (rc)
            return rc;
        size_t cap = 0;
        uint64_t *fps = NULL;     /* each value's sweep_value_fingerprint */
        for (;;) {
            yaml_event_t item;
            if ((rc = yrd_next(&R->y, &item)) != 0) {
                free(fps);
                return rc;
            }
            if (item.type == YAML_SEQUENCE_END_EVENT) {
                yaml_event_delete(&item);
                break;
            }
            char iw[300];
            snprintf(iw, sizeof iw, "%s[%zu]", where, ax->nvalues);
            rc = want_scalar(R, &item, iw, "a value");
            if (!rc && ax->nvalues == SWEEP_MAX_LIST)
                rc = yrd_err(&R->y, item.start_mark, SK_ERANGE, "%s: more than %d values: expected at most %d",
                             where, SWEEP_MAX_LIST, SWEEP_MAX_LIST);
            char *value = rc ? NULL : scalar_dup(&item);
            if (!rc)
                rc = try_override(R, "axes", ax->key, value, item.start_mark);
            /* Two values are one point when they give one config (`0`
             * and `-0`), not only when they are spelled alike: compare
             * what they mean (sweep_value_fingerprint). */
            uint64_t fp = 0;
            sk_error fe = {0};
            if (!rc && sweep_value_fingerprint(ax->key, value, &fp, &fe) != 0)
                rc = yrd_err(&R->y, item.start_mark, SK_ECONFIG, "%s: %s", iw, fe.msg);
            for (size_t i = 0; !rc && i < ax->nvalues; i++)
                if (fps[i] == fp)
                    rc = strcmp(ax->values[i], value) == 0
                             ? yrd_err(&R->y, item.start_mark, SK_ECONFIG,
                                       "%s: %s: duplicate value: first at line %zu", iw, value, ax->at[i].line)
                             : yrd_err(&R->y, item.start_mark, SK_ECONFIG,
                                       "%s: %s: duplicate value: the same as %s at line %zu:%zu", iw, value,
                                       ax->values[i], ax->at[i].line, ax->at[i].col);
            if (rc) {
                free(value);
                free(fps);
                yaml_event_delete(&item);
                return rc;
            }
            if (ax->nvalues == cap) {
                cap = cap ? 2 * cap : 8;
                ax->values = xrealloc(ax->values, cap * sizeof *ax->values);
                ax->at = xrealloc(ax->at, cap * sizeof *ax->at);
                fps = xrealloc(fps, cap * sizeof *fps);
            }
            fps[ax->nvalues] = fp;
            ax->values[ax->nvalues] = value;
            ax->at[ax->nvalues++] = pos_of(item.start_mark);
            yaml_event_delete(&item);
        }
        free(fps);
        if (ax->nvalues == 0)
            return yrd_err(&R->y, start, SK_ECONFIG, "%s: []: expected at least one value", where);
    }
    if (s->naxes == 0)
        return yrd_err(&R->y, v->start_mark, SK_ECONFIG, "axes: {}: expected at least one axis");
    return 0;
}

static int read_seeds(reader *R, const yaml_event_t *v)
{
    int rc = want_start(R, v, "seeds", YAML_SEQUENCE_START_EVENT, "a list of integers");
    if (rc)
        return rc;
    sweep_spec *s = R->s;
    size_t cap = 0;
    for (;;) {
        yaml_event_t item;
        if ((rc = yrd_next(&R->y, &item)) != 0)
            return rc;
        if (item.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&item);
            break;
        }
        char iw[32];
        snprintf(iw, sizeof iw, "seeds[%zu]", s->nseeds);
        rc = want_scalar(R, &item, iw, "an integer");
        if (!rc && s->nseeds == SWEEP_MAX_LIST)
            rc = yrd_err(&R->y, item.start_mark, SK_ERANGE, "seeds: more than %d seeds: expected at most %d",
                         SWEEP_MAX_LIST, SWEEP_MAX_LIST);
        char *value = rc ? NULL : scalar_dup(&item);
        cfg tmp = R->scratch;
        if (!rc)
            rc = try_override(R, "seeds", "sim.seed", value, item.start_mark);
        if (!rc) {
            sk_error ignore = {0};
            cfg_set_value(&tmp, "sim.seed", value, &ignore);
            for (size_t i = 0; !rc && i < s->nseeds; i++)
                if (s->seeds[i] == tmp.seed)
                    rc = yrd_err(&R->y, item.start_mark, SK_ECONFIG,
                                 "%s: %s: duplicate seed: first at line %zu", iw, value, s->seed_at[i].line);
        }
        free(value);
        if (!rc) {
            if (s->nseeds == cap) {
                cap = cap ? 2 * cap : 8;
                s->seeds = xrealloc(s->seeds, cap * sizeof *s->seeds);
                s->seed_at = xrealloc(s->seed_at, cap * sizeof *s->seed_at);
            }
            s->seed_at[s->nseeds] = pos_of(item.start_mark);
            s->seeds[s->nseeds++] = tmp.seed;
        }
        yaml_event_delete(&item);
        if (rc)
            return rc;
    }
    if (s->nseeds == 0)
        return yrd_err(&R->y, v->start_mark, SK_ECONFIG, "seeds: []: expected at least one seed");
    return 0;
}

/* ---- the document ---------------------------------------------------- */

static int read_top(reader *R, yaml_mark_t start)
{
    int seen[NSPEC] = {0};
    char buf[80];
    for (;;) {
        yaml_event_t k, v;
        int rc = next_key(R, &k, "(document)");
        if (rc == 1) {
            yaml_event_delete(&k);
            break;
        }
        if (rc)
            return rc;
        const spec_key *row = NULL;
        for (size_t i = 0; i < NSPEC; i++)
            if (strcmp(spec_schema[i].name, (const char *)k.data.scalar.value) == 0)
                row = &spec_schema[i];
        if (!row) {
            char expect[128] = "";
            for (size_t i = 0; i < NSPEC; i++) {
                strncat(expect, i == 0 ? "" : i + 1 == NSPEC ? " or " : ", ", sizeof expect - strlen(expect) - 1);
                strncat(expect, spec_schema[i].name, sizeof expect - strlen(expect) - 1);
            }
            rc = yrd_err(&R->y, k.start_mark, SK_ECONFIG, "%s: unknown key: expected %s",
                         yrd_show_event(&k, buf, sizeof buf), expect);
        } else {
            rc = yrd_note_key(&R->y, row->name, k.start_mark);
            seen[row - spec_schema] = 1;
        }
        yaml_event_delete(&k);
        if (rc)
            return rc;
        if ((rc = yrd_next(&R->y, &v)) != 0)
            return rc;
        rc = row->read(R, &v);
        yaml_event_delete(&v);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < NSPEC; i++)
        if (spec_schema[i].required && !seen[i])
            return yrd_err(&R->y, start, SK_ECONFIG, "%s: missing: expected %s: %s", spec_schema[i].name,
                           spec_schema[i].name, spec_schema[i].value);
    return 0;
}

static int read_document(reader *R)
{
    yaml_event_t ev;
    char buf[80];
    int rc;
    const yaml_mark_t top = {0, 0, 0};

    if ((rc = yrd_next(&R->y, &ev)) != 0)       /* STREAM-START */
        return rc;
    yaml_event_delete(&ev);
    if ((rc = yrd_next(&R->y, &ev)) != 0)
        return rc;
    if (ev.type == YAML_STREAM_END_EVENT) {
        yaml_event_delete(&ev);
        return yrd_err(&R->y, top, SK_ECONFIG, "(document): empty: expected a mapping with config and traces");
    }
    yaml_event_delete(&ev);                     /* DOCUMENT-START */
    if ((rc = yrd_next(&R->y, &ev)) != 0)
        return rc;
    if ((rc = yrd_check_plain(&R->y, &ev, "(document)")) == 0) {
        if (ev.type == YAML_MAPPING_START_EVENT)
            rc = read_top(R, ev.start_mark);
        else
            rc = yrd_err(&R->y, ev.start_mark, SK_ECONFIG,
                         "(document): %s: expected a mapping with config and traces",
                         yrd_is_null(&ev) ? "empty" : yrd_show_event(&ev, buf, sizeof buf));
    }
    yaml_event_delete(&ev);
    if (rc)
        return rc;
    if ((rc = yrd_next(&R->y, &ev)) != 0)       /* DOCUMENT-END */
        return rc;
    yaml_event_delete(&ev);
    if ((rc = yrd_next(&R->y, &ev)) != 0)
        return rc;
    if (ev.type != YAML_STREAM_END_EVENT)
        rc = yrd_err(&R->y, ev.start_mark, SK_ECONFIG,
                     "(document): a second document: expected one document per file");
    yaml_event_delete(&ev);
    return rc;
}

/* traces x cases x each axis x seeds, refusing more than the cap. */
static int count_points(reader *R)
{
    sweep_spec *s = R->s;
    size_t n = s->ntraces;
    size_t f[SWEEP_MAX_AXES + 2];
    size_t nf = 0;
    f[nf++] = s->ncases ? s->ncases : 1;
    for (size_t i = 0; i < s->naxes; i++)
        f[nf++] = s->axes[i].nvalues;
    f[nf++] = s->nseeds ? s->nseeds : 1;
    int over = n > SWEEP_MAX_POINTS;
    for (size_t i = 0; i < nf && !over; i++) {
        over = n > SWEEP_MAX_POINTS / f[i];
        n *= f[i];
    }
    if (over) {
        char prod[256] = "";
        size_t len = (size_t)snprintf(prod, sizeof prod, "%zu traces x %zu cases", s->ntraces, f[0]);
        for (size_t i = 0; i < s->naxes && len < sizeof prod; i++)
            len += (size_t)snprintf(prod + len, sizeof prod - len, " x %zu", s->axes[i].nvalues);
        if (len < sizeof prod)
            snprintf(prod + len, sizeof prod - len, " x %zu seeds", f[nf - 1]);
        const yaml_mark_t top = {0, 0, 0};
        return yrd_err(&R->y, top, SK_ERANGE, "(document): %s: more than %d points: expected "
                       "at most %d (split the study into several specs)", prod, SWEEP_MAX_POINTS,
                       SWEEP_MAX_POINTS);
    }
    s->npoints = n;
    return 0;
}

int sweep_spec_parse(sweep_spec *s, const char *name, const char *dir, const unsigned char *buf,
                     size_t len, sk_error *e)
{
    reader R = {0};
    memset(s, 0, sizeof *s);
    s->name = xstrdup(name);
    R.s = s;
    R.dir = dir;
    cfg_defaults(&R.scratch);
    yrd_init(&R.y, s->name, buf, len, e);
    int rc = read_document(&R);
    if (rc == 0)
        rc = count_points(&R);
    yrd_free(&R.y);
    return rc;
}

int sweep_spec_load(sweep_spec *s, const char *path, sk_error *e)
{
    unsigned char *buf;
    size_t len;
    memset(s, 0, sizeof *s);
    int rc = yrd_read_file(path, &buf, &len, e);
    if (rc)
        return rc;
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    else
        dir[0] = '\0';
    rc = sweep_spec_parse(s, path, dir, buf, len, e);
    free(dir);
    free(buf);
    return rc;
}

static void free_kvs(sweep_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(kv[i].key);
        free(kv[i].value);
    }
    free(kv);
}

void sweep_spec_free(sweep_spec *s)
{
    if (!s)
        return;
    free(s->name);
    free(s->config);
    free(s->config_resolved);
    for (size_t i = 0; i < s->ntraces; i++) {
        free(s->traces[i].name);
        free(s->traces[i].path);
        free(s->traces[i].resolved);
        free(s->traces[i].sass);
        free(s->traces[i].sass_resolved);
        free(s->traces[i].gen);
    }
    free(s->traces);
    free_kvs(s->set, s->nset);
    for (size_t i = 0; i < s->ncases; i++) {
        free(s->cases[i].name);
        free_kvs(s->cases[i].kv, s->cases[i].nkv);
    }
    free(s->cases);
    for (size_t i = 0; i < s->naxes; i++) {
        free(s->axes[i].key);
        for (size_t j = 0; j < s->axes[i].nvalues; j++)
            free(s->axes[i].values[j]);
        free(s->axes[i].values);
        free(s->axes[i].at);
    }
    free(s->axes);
    free(s->seeds);
    free(s->seed_at);
    memset(s, 0, sizeof *s);
}

/* ---- points ---------------------------------------------------------- */

void sweep_point_at(const sweep_spec *s, size_t index, sweep_point *p)
{
    memset(p, 0, sizeof *p);
    p->index = index;
    size_t i = index;
    size_t ns = s->nseeds ? s->nseeds : 1;
    p->seed = i % ns;
    i /= ns;
    for (size_t a = s->naxes; a-- > 0;) {
        p->axis[a] = i % s->axes[a].nvalues;
        i /= s->axes[a].nvalues;
    }
    size_t nc = s->ncases ? s->ncases : 1;
    p->kase = i % nc;
    i /= nc;
    p->trace = i;
}

static size_t slug_add(char *buf, size_t cap, size_t len, const char *part)
{
    if (len + 1 >= cap)
        return len;
    if (len > 0)
        buf[len++] = '-';
    for (const char *q = part; *q && len + 1 < cap; q++) {
        unsigned char ch = (unsigned char)*q;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '_' || ch == '.' || ch == '-';
        buf[len++] = ok ? (char)ch : '_';
    }
    buf[len] = '\0';
    return len;
}

const char *sweep_point_slug(const sweep_spec *s, const sweep_point *p, char *buf, size_t cap)
{
    char num[32];
    /* Leave room for the rest of a path, and keep names readable. */
    size_t limit = SK_MIN(cap, (size_t)128);
    snprintf(num, sizeof num, "%04zu", p->index);
    buf[0] = '\0';
    size_t len = slug_add(buf, limit, 0, num);
    len = slug_add(buf, limit, len, s->traces[p->trace].name);
    if (s->ncases)
        len = slug_add(buf, limit, len, s->cases[p->kase].name);
    for (size_t a = 0; a < s->naxes; a++)
        len = slug_add(buf, limit, len, s->axes[a].values[p->axis[a]]);
    if (s->nseeds) {
        snprintf(num, sizeof num, "s%llu", (unsigned long long)s->seeds[p->seed]);
        slug_add(buf, limit, len, num);
    }
    return buf;
}

int sweep_point_cfg(const sweep_spec *s, const sweep_point *p, const cfg *base, cfg *out,
                    sk_error *e)
{
    cfg c = *base;
    sk_error inner = {0};
    sweep_pos at = s->config_at;
    int rc = 0;
    for (size_t i = 0; !rc && i < s->nset; i++) {
        at = s->set[i].at;
        rc = cfg_set_value(&c, s->set[i].key, s->set[i].value, &inner);
    }
    if (s->ncases) {
        const sweep_case *k = &s->cases[p->kase];
        for (size_t i = 0; !rc && i < k->nkv; i++) {
            at = k->kv[i].at;
            rc = cfg_set_value(&c, k->kv[i].key, k->kv[i].value, &inner);
        }
    }
    for (size_t a = 0; !rc && a < s->naxes; a++) {
        at = s->axes[a].at[p->axis[a]];
        rc = cfg_set_value(&c, s->axes[a].key, s->axes[a].values[p->axis[a]], &inner);
    }
    if (!rc && s->nseeds) {
        at = s->seed_at[p->seed];
        c.seed = s->seeds[p->seed];
    }
    if (!rc)
        rc = cfg_validate(&c, &inner);
    if (rc) {
        char slug[160];
        return sk_errorf(e, rc, "%s:%zu:%zu: point %s: %s", s->name, at.line, at.col,
                         sweep_point_slug(s, p, slug, sizeof slug), inner.msg);
    }
    *out = c;
    return 0;
}

int sweep_gen_build(const sweep_spec *s, const sweep_trace *t, kernel *k, long *repeat, sk_error *e)
{
    sk_error inner = {0};
    int rc = gen_build_cmd(t->gen, k, repeat, &inner);
    if (rc)
        return sk_errorf(e, rc, "%s:%zu:%zu: traces.%s.gen: %s", s->name, t->at.line, t->at.col, t->name,
                         inner.msg);
    return 0;
}

void sweep_spec_help(FILE *out)
{
    for (size_t i = 0; i < NSPEC; i++)
        fprintf(out, "%-7s %s%s\n        %s\n", spec_schema[i].name, spec_schema[i].value,
                spec_schema[i].required ? "  (required)" : "", spec_schema[i].help);
}
