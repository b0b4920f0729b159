/* fuzz_config.c -- libFuzzer target for the YAML config loader and --set.
 *
 * One input is a YAML document.  Properties checked (a violation aborts, so
 * libFuzzer keeps the input as a crash):
 *  - cfg_load_string() returns 0 or SK_ECONFIG / SK_ERANGE, never anything
 *    else, and a failure is one line "fuzz.yaml:LINE:COL: ..." that leaves
 *    the config exactly as it was;
 *  - a loaded config dumps (cfg_dump) to YAML that loads back to the same
 *    bytes, and cfg_validate() either accepts it or names a key;
 *  - each of the first lines of the input, tried as a `--set` assignment,
 *    is accepted (and dumps and loads back) or refused with one line, the
 *    config untouched on refusal.
 * ASan and UBSan catch the rest.
 *
 * The same file is compiled into `make check` (tests/test_bad.c includes it
 * with FUZZ_ENTRY renamed) to replay the seed corpus and every crash kept
 * under tests/fuzz/regressions/config/, so the properties live in one place
 * and a regression fails the ordinary test run, with or without clang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/config.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

#define FC_NAME "fuzz.yaml"
#define FC_MAX_SET_LINES 16

int FUZZ_ENTRY(const uint8_t *data, size_t size);

#define FC_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz_config: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            abort();                                                         \
        }                                                                    \
    } while (0)

/* An error record as the CLI would print it: one non-empty line. */
static void fc_check_error(const sk_error *e, int rc, const char *prefix)
{
    FC_CHECK(rc == e->code, "returned %d, recorded %d", rc, e->code);
    FC_CHECK(rc == SK_ECONFIG || rc == SK_ERANGE || rc == SK_EUSAGE, "code %d: %s", rc, e->msg);
    FC_CHECK(e->msg[0] != '\0', "empty message");
    FC_CHECK(strchr(e->msg, '\n') == NULL, "message spans lines: %s", e->msg);
    FC_CHECK(strlen(e->msg) < sizeof e->msg, "unterminated message");
    if (prefix)
        FC_CHECK(strncmp(e->msg, prefix, strlen(prefix)) == 0, "message without '%s': %s", prefix,
                 e->msg);
}

static char *fc_dump(const cfg *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    FC_CHECK(f != NULL, "open_memstream");
    cfg_dump(c, f, 0);
    FC_CHECK(fclose(f) == 0, "fclose");
    return buf;
}

/* A config that loaded dumps to YAML that loads back to the same bytes. */
static void fc_round_trip(const cfg *c)
{
    char *text = fc_dump(c);
    cfg back;
    sk_error e = {0};
    cfg_defaults(&back);
    int rc = cfg_load_string(&back, "dump.yaml", text, &e);
    FC_CHECK(rc == 0, "its own dump does not load: %s", e.msg);
    FC_CHECK(memcmp(&back, c, sizeof back) == 0, "dump/load changed the config:\n%s", text);
    free(text);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    /* The loader takes a C string: the input up to its first NUL. */
    char *text = malloc(size + 1);
    FC_CHECK(text != NULL, "malloc");
    memcpy(text, data, size);
    text[size] = '\0';

    cfg c, before;
    sk_error e = {0};
    cfg_defaults(&c);
    before = c;
    int rc = cfg_load_string(&c, FC_NAME, text, &e);
    if (rc != 0) {
        fc_check_error(&e, rc, FC_NAME ":");
        FC_CHECK(memcmp(&c, &before, sizeof c) == 0, "a failed load changed the config");
    } else {
        FC_CHECK(e.code == 0, "success with an error recorded: %s", e.msg);
        fc_round_trip(&c);
        sk_error ev = {0};
        rc = cfg_validate(&c, &ev);
        if (rc != 0)
            fc_check_error(&ev, rc, "config: ");
    }

    /* The first lines as `--set LINE`, over the defaults.  A dump/load
     * round trip costs some 40000 key comparisons, so only the first
     * accepted line makes one. */
    int lines = 0, tripped = 0;
    for (char *line = text, *next; line && *line && lines < FC_MAX_SET_LINES; line = next, lines++) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        cfg s, s0;
        sk_error es = {0};
        cfg_defaults(&s);
        s0 = s;
        rc = cfg_set(&s, line, &es);
        if (rc != 0) {
            fc_check_error(&es, rc, "--set ");
            FC_CHECK(memcmp(&s, &s0, sizeof s) == 0, "a refused --set changed the config");
        } else if (!tripped++) {
            fc_round_trip(&s);
        }
    }
    free(text);
    return 0;
}
