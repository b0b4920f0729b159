/* fuzz_sass.c -- libFuzzer target for the SASS listing reader
 * (src/trace/sass.c).
 *
 * One input is a listing.  It is read from memory whole (NUL bytes
 * included: the reader takes a length) and, when it starts like gzip, also
 * from a file through zlib.  A failure must be one line with SK_ETRACE
 * starting with the name; an accepted listing must hold functions whose
 * PCs increase, whose every instruction sass_at() finds again, whose
 * control fields are in range and whose mnemonics are short and printable,
 * and every function must be found by name and architecture.
 *
 * The same file is compiled into `make check` (tests/test_sass.c includes
 * it with FUZZ_ENTRY renamed) to replay the seed corpus and every crash
 * kept under tests/fuzz/regressions/sass/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skewsim/sass.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

#define FS_NAME "fuzz.sass"

int FUZZ_ENTRY(const uint8_t *data, size_t size);

#define FS_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz_sass: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            abort();                                                         \
        }                                                                    \
    } while (0)

static void fs_check(sass *s, const sk_error *e, const char *name)
{
    if (!s) {
        FS_CHECK(e->code == SK_ETRACE || e->code == SK_EIO, "code %d: %s", e->code, e->msg);
        FS_CHECK(e->msg[0] != '\0' && strchr(e->msg, '\n') == NULL, "not one line: %s", e->msg);
        FS_CHECK(strncmp(e->msg, name, strlen(name)) == 0, "message without '%s': %s", name, e->msg);
        return;
    }
    FS_CHECK(e->code == 0, "success with an error recorded: %s", e->msg);
    size_t nf = sass_nfunctions(s);
    FS_CHECK(nf > 0, "no functions");
    for (size_t f = 0; f < nf; f++) {
        size_t n;
        const sass_instr *code = sass_code(s, (int)f, &n);
        FS_CHECK(n > 0, "function %zu empty", f);
        int found = sass_function(s, sass_function_name(s, (int)f), 0);
        FS_CHECK(found == (int)f || found == -2, "function %zu found as %d", f, found);
        for (size_t i = 0; i < n; i++) {
            FS_CHECK(i == 0 || code[i].pc > code[i - 1].pc, "PCs not increasing");
            FS_CHECK(sass_at(s, (int)f, code[i].pc) == &code[i], "sass_at misses /*%04x*/", code[i].pc);
            FS_CHECK(code[i].stall <= 15 && code[i].yield <= 1 && code[i].wbar <= 7 && code[i].rbar <= 7 &&
                     code[i].wait <= 63 && code[i].reuse <= 15, "control field out of range");
            size_t len = strnlen(code[i].op, sizeof code[i].op);
            FS_CHECK(len > 0 && len < sizeof code[i].op, "mnemonic length %zu", len);
        }
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    sk_error e = {0};
    sass *s = sass_load_string(FS_NAME, (const char *)data, size, &e);
    fs_check(s, &e, FS_NAME);
    sass_free(s);
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        char path[] = "/tmp/fuzz-sass-XXXXXX";
        int fd = mkstemp(path);
        FS_CHECK(fd >= 0, "mkstemp");
        FS_CHECK(write(fd, data, size) == (ssize_t)size, "write");
        close(fd);
        sk_error e2 = {0};
        sass *z = sass_load(path, &e2);
        fs_check(z, &e2, path);
        sass_free(z);
        unlink(path);
    }
    return 0;
}
