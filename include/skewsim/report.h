/* report.h -- one self-contained HTML page for a run or a sweep directory
 * (`skewsim report DIR`, docs/figures.md): the figures inline as SVG (the
 * plot library's), the tables, the effective config, the command lines and
 * the version.  No file, font or script is fetched from anywhere: the page
 * opens offline, and can be mailed or attached as it is.
 */
#ifndef SKEWSIM_REPORT_H
#define SKEWSIM_REPORT_H

#include <stddef.h>
#include "skewsim/common.h"
#include "skewsim/config.h"

typedef struct report_opts {
    const char *dir;            /* a run directory (summary.json) or a sweep's (sweep.csv) */
    /* The chip config the run used, with the run's --set options applied,
     * or NULL.  A sweep point's own overrides and seed (its point.json)
     * are applied on top of it.  Without one, DIR/config.yaml is read when
     * present; with neither, the page says so and has no die figures. */
    const cfg *cfg;
    const char *cfg_label;      /* how the config was named (-c PATH), may be NULL */
    const char *cmdline;        /* the command that made the report, may be NULL */
    const char *version;        /* skewsim's version string */
} report_opts;

/* The page's text (caller frees; *len, may be NULL, gets its length), or
 * NULL with *e filled: SK_EIO (no summary.json nor sweep.csv in DIR, or an
 * unreadable file), SK_ETRACE (a malformed one), SK_ECONFIG (a point.json
 * override the config refuses). */
char *report_render(const report_opts *o, size_t *len, sk_error *e);

#endif
