/* common.h -- time units, error codes and allocation helpers shared by every
 * subsystem of skewsim.
 *
 * Errors: every fallible function returns 0 or a negative SK_E* code and, on
 * failure, fills an sk_error with a one-line, human-readable message that
 * already carries "file:line:col: " where a position is known.  Only the CLI
 * layer prints the message and calls exit().  Out-of-memory is not an error
 * code: xmalloc() and friends abort in one place (as redis' zmalloc does),
 * because no caller can do anything sensible about it.
 */
#ifndef SKEWSIM_COMMON_H
#define SKEWSIM_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

/* Simulated time is an integer number of picoseconds (2^63 ps ~ 106 days). */
typedef int64_t ps_t;
#define PS_PER_NS 1000
#define PS_MAX INT64_MAX

/* X-macro: name, value, exit status used by the CLI, description. */
#define SK_ERRNO_MAP(X)                                                   \
    X(OK,       0, 0, "success")                                          \
    X(USAGE,   -1, 1, "bad command line")                                 \
    X(CONFIG,  -2, 2, "bad configuration")                                \
    X(TRACE,   -3, 2, "bad trace")                                        \
    X(IO,      -4, 3, "input/output error")                               \
    X(FIT,     -5, 2, "kernel cannot run on this chip")                   \
    X(SIM,     -6, 4, "simulation failed")                                \
    X(RANGE,   -7, 2, "value out of range")

enum {
#define SK_ENUM_(name, val, exitc, desc) SK_E##name = (val),
    SK_ERRNO_MAP(SK_ENUM_)
#undef SK_ENUM_
};

#define SK_ERRMSG_MAX 512

typedef struct sk_error {
    int code;                    /* SK_E* of the first error, 0 if none */
    char msg[SK_ERRMSG_MAX];     /* one line, no trailing newline */
} sk_error;

/* Record an error (the first one wins) and return its code. */
int sk_errorf(sk_error *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Short description of an SK_E* code. */
const char *sk_strerror(int code);
/* Process exit status for an SK_E* code (0 for SK_EOK). */
int sk_exit_status(int code);

/* Allocation that never returns NULL: aborts with a message on exhaustion. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* xcalloc with the block aligned to align (a power of two, a multiple of
 * sizeof(void *)): for a type declared _Alignas(align) */
void *xcalloc_aligned(size_t align, size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#define SK_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
/* The smaller and the larger of a and b, each evaluated once (a GNU C
 * statement expression, which gcc and clang take under -std=c11), so an
 * argument with a side effect or a cost (a call, i++) runs once.  Both
 * are held in the type a ternary of the two has (the usual arithmetic
 * conversions), so the comparison and the result are what the plain
 * ternary macro gave, and a constant argument draws no sign-compare
 * warning; the temporaries' names carry __COUNTER__ so that nested uses do
 * not shadow each other (-Wshadow).  Not for constant expressions (array
 * sizes, case labels, file scope). */
#define SK_MIN(a, b) SK_MINMAX_(a, b, <, __COUNTER__)
#define SK_MAX(a, b) SK_MINMAX_(a, b, >, __COUNTER__)
#define SK_MINMAX_(a, b, op, n) SK_MINMAX__(a, b, op, n)
#define SK_MINMAX__(a, b, op, n)                                                                  \
    __extension__({                                                                               \
        __typeof__(1 ? (a) : (b)) sk_a_##n = (a), sk_b_##n = (b);                                \
        sk_a_##n op sk_b_##n ? sk_a_##n : sk_b_##n;                                               \
    })

/* splitmix64's finaliser (Steele, Lea and Flood, OOPSLA 2014): a full
 * 64-bit mix, the project's one fixed hash.  splitmix64 itself is this of
 * a state advanced by 0x9E3779B97F4A7C15 each draw. */
static inline uint64_t sk_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* x / d (d >= 1) without a division, for a divisor fixed long enough to
 * keep inv = UINT64_MAX / d beside it (a hot path's run-time constant: a
 * clock period, a calendar slot): the high half of x * inv is the
 * quotient or up to two less (inv is rounded down), and the remainder
 * says which.  Exact for every 64-bit x. */
static inline uint64_t sk_udiv(uint64_t x, uint64_t d, uint64_t inv)
{
    uint64_t q = (uint64_t)(((unsigned __int128)x * inv) >> 64);
    while (x - q * d >= d)
        q++;
    return q;
}

#endif
