/* yamlrd.h -- the strict libyaml reading shared by the YAML inputs (the chip
 * config, src/config/config.c, and the sweep spec, src/sweep/spec.c).
 *
 * Both refuse the same things the same way: anchors, aliases and tags,
 * duplicate keys, and report every problem as one line
 * "name:line:col: what: bad value: expected ...".  A yrd holds the libyaml
 * parser over a buffer the caller owns, the name used in messages and the
 * keys seen so far (for duplicates).  Not a public API of the simulator:
 * only loaders include it.
 */
#ifndef SKEWSIM_YAMLRD_H
#define SKEWSIM_YAMLRD_H

#include <yaml.h>
#include "skewsim/common.h"

typedef struct yrd_seen {
    char *key;
    size_t line;
} yrd_seen;

typedef struct yrd {
    yaml_parser_t parser;
    const char *name;           /* file name in messages */
    const unsigned char *buf;   /* the whole input, to place reader errors */
    size_t len;
    sk_error *e;
    yrd_seen *seen;             /* every key noted so far */
    size_t nseen, capseen;
    size_t *slots;              /* open addressing over seen: index + 1, 0 empty */
    size_t nslots;              /* a power of two, at least 2 * nseen */
} yrd;

/* Start reading buf[0..len) (not copied: it must outlive the yrd). */
void yrd_init(yrd *y, const char *name, const unsigned char *buf, size_t len, sk_error *e);
void yrd_free(yrd *y);

/* Record "name:line:col: <fmt>" (columns and lines 1-based) in y->e;
 * returns code. */
int yrd_err(yrd *y, yaml_mark_t m, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The next event, or libyaml's own error as SK_ECONFIG. */
int yrd_next(yrd *y, yaml_event_t *ev);
/* Refuse an alias, an anchor or a tag on ev; `key` names it in messages. */
int yrd_check_plain(yrd *y, const yaml_event_t *ev, const char *key);
/* A plain "", "~" or "null": what "key:" with nothing after it gives. */
int yrd_is_null(const yaml_event_t *ev);
/* Record `key`; a second occurrence is "key: duplicate key: first set at
 * line N". */
int yrd_note_key(yrd *y, const char *key, yaml_mark_t m);

/* Text of a value for a message: at most ~48 bytes, control characters as
 * '?', "(empty)" for nothing.  Returns buf. */
const char *yrd_show(char *buf, size_t cap, const char *s, size_t n);
/* How a node reads in a message ("a mapping", "a sequence", the scalar). */
const char *yrd_show_event(const yaml_event_t *ev, char *buf, size_t cap);

/* Read a whole file of at most 16 MiB into a new buffer (caller frees).
 * SK_EIO "path: cannot open: ..." / "cannot read: ..." on failure. */
int yrd_read_file(const char *path, unsigned char **buf, size_t *len, sk_error *e);

#endif
