/* json.h -- how skewsim writes and reads JSON: through libjansson, with one
 * pinned format so that the same run gives byte-identical files on every
 * machine, across runs and across `sweep -j`.
 *
 * Format: two-space indent, keys in insertion order, one trailing newline.
 * Numbers: integers as integers; a value printed at a fixed precision (ns
 * from integer picoseconds with 3 decimals, ratios with 6, ...) is first
 * rounded to that decimal, then stored as the double nearest to it and
 * printed with 15 significant digits ("%.15g", jansson's
 * JSON_REAL_PRECISION): 15 digits are always enough to give back a decimal
 * of at most 15 significant digits (DBL_DIG), so every value reads back as
 * exactly the decimal the fixed-point form had, trailing zeros dropped
 * (0.000 -> 0.0, 0.991030 -> 0.99103).  That holds for ns below 1e12
 * (1000 s of simulated time).  Not finite: null.
 */
#ifndef SKEWSIM_JSON_H
#define SKEWSIM_JSON_H

#include <stdint.h>
#include <jansson.h>
#include "skewsim/common.h"

#define SKJSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* New references (the caller owns them, or hands them to json_object_set_new).
 * Out of memory aborts (xmalloc's rule). */
json_t *skjson_fixed(double v, int decimals);     /* v rounded to `decimals`; null if not finite */
json_t *skjson_ns(ps_t t);                        /* integer ps as ns, exactly to 1 ps */
json_t *skjson_u64(uint64_t v);                   /* an integer; above INT64_MAX (jansson's limit), its
                                                   * decimal digits as a string */
json_t *skjson_str(const char *s);                /* a string; NULL as "" */

/* Set obj[key] = v (a new reference, consumed), aborting when out of memory. */
void skjson_set(json_t *obj, const char *key, json_t *v);
void skjson_append(json_t *arr, json_t *v);

/* The text of `root` in the pinned format, with a final newline; caller
 * frees.  *len (if not NULL) gets its length. */
char *skjson_dumps(const json_t *root, size_t *len);

/* A number member as picoseconds (a ns value as written by skjson_ns):
 * rounded to the nearest ps.  0 when absent or not a number. */
int64_t skjson_ns_ps(const json_t *obj, const char *key);

#endif
