/* sass.h -- the control codes of a SASS listing (`cuobjdump -sass`).
 *
 * Since Volta every 128-bit SASS instruction carries its scheduling control
 * in bits 105-125 (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture
 * via Microbenchmarking", arXiv:1804.06826, 2018, section 2.1): from low to
 * high a 4-bit stall count, a yield bit, a 3-bit write-barrier index, a
 * 3-bit read-barrier index, a 6-bit wait mask and 4 operand-reuse bits.
 * cuobjdump prints each instruction as two 64-bit words, the second on its
 * own line, so these are bits 41-61 of that second word.
 *
 * Traces recorded by instrumentation (Accel-Sim's NVBit tracer) carry PCs
 * and opcodes but no control codes; joined with the listing of the same
 * binary by (function, PC) they get the compiler's stall counts back.
 */
#ifndef SKEWSIM_SASS_H
#define SKEWSIM_SASS_H

#include "skewsim/common.h"

typedef struct sass sass;         /* a parsed listing: functions of instructions */

typedef struct sass_instr {
    uint32_t pc;                  /* byte offset in its function */
    uint8_t stall;                /* cycles until the warp may issue again (0-15) */
    uint8_t yield;
    uint8_t wbar, rbar;           /* scoreboard barrier set on write / read (7: none) */
    uint8_t wait;                 /* barriers waited on, a mask of 6 */
    uint8_t reuse;                /* the control word's four operand-reuse bits */
    uint8_t nreused;              /* vector registers the text marks R<n>.reuse, at most 4 */
    uint8_t reused[4];
    uint32_t line;                /* line of the listing (messages) */
    char op[32];                  /* mnemonic with modifiers, as printed ("IMAD.MOV.U32") */
} sass_instr;

/* Parse a listing from a file (plain or gzip'd) or from a string (`name` for
 * messages).  NULL with *e filled ("file:line: ...") on a malformed one. */
sass *sass_load(const char *path, sk_error *e);
sass *sass_load_string(const char *name, const char *text, size_t len, sk_error *e);
void sass_free(sass *s);          /* NULL is a no-op */

/* The function `name` (mangled, as printed after "Function :") compiled for
 * sm_`arch` (90 for "code for sm_90"; 0: any).  Returns its index, -1 when
 * the listing has none, or -2 when arch is 0 and several architectures
 * have it (the caller must say which). */
int sass_function(const sass *s, const char *name, int arch);
size_t sass_nfunctions(const sass *s);
const char *sass_function_name(const sass *s, int fn);
/* Its architecture (90 for sm_90), 0 when the listing did not say. */
int sass_function_arch(const sass *s, int fn);
/* Instructions of function fn, in PC order. */
const sass_instr *sass_code(const sass *s, int fn, size_t *n);
/* The instruction of function fn at byte offset pc, or NULL. */
const sass_instr *sass_at(const sass *s, int fn, uint32_t pc);

#endif
