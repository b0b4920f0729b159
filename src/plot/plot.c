/* plot.c -- the table of figure kinds and the one way to draw one
 * (plot.h).  `skewsim plot --list` prints this table; `report` walks it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skewsim/plot.h"
#include "plot_priv.h"

#define RUN PLOT_NEEDS_RUN
#define CFG PLOT_NEEDS_CONFIG

static const plot_kind KINDS[] = {
    {"die-mhz", "die floorplan heatmap: each SM's mean clock (MHz), GPCs outlined", RUN | CFG,
     plot_draw_die, PLOT_DIE_MHZ},
    {"die-vdd", "die floorplan heatmap: each SM's lowest supply voltage (mV)", RUN | CFG, plot_draw_die,
     PLOT_DIE_VDD},
    {"die-temp", "die floorplan heatmap: each SM's hottest temperature (C)", RUN | CFG, plot_draw_die,
     PLOT_DIE_TEMP},
    {"die-busy", "die floorplan heatmap: each SM's busy fraction (%, a CTA resident)", RUN | CFG,
     plot_draw_die, PLOT_DIE_BUSY},
    {"die-ctas", "die floorplan heatmap: CTAs each SM ran", RUN | CFG, plot_draw_die, PLOT_DIE_CTAS},
    {"gantt", "per-SM CTA Gantt chart (ctas.csv): waves, occupancy and the tail", RUN, plot_draw_gantt, 0},
    {"clock", "each SM's clock (MHz) and supply (mV) over time (epochs.csv)", RUN, plot_draw_time,
     PLOT_TIME_CLOCK},
    {"power", "SM power (W) and temperature (C) over time (epochs.csv)", RUN, plot_draw_time,
     PLOT_TIME_POWER},
    {"kernel-times", "kernel time by case across seeds, from a sweep directory (sweep.csv)",
     PLOT_NEEDS_SWEEP, plot_draw_dist, 0},
};

const plot_kind *plot_kinds(size_t *n)
{
    *n = SK_ARRAY_LEN(KINDS);
    return KINDS;
}

const plot_kind *plot_kind_find(const char *name)
{
    for (size_t i = 0; i < SK_ARRAY_LEN(KINDS); i++)
        if (!strcmp(KINDS[i].name, name))
            return &KINDS[i];
    return NULL;
}

char *plot_render(const char *name, const plot_input *in, size_t *len, sk_error *e)
{
    const plot_kind *k = plot_kind_find(name);
    if (!k) {
        char list[512] = "";
        size_t n = 0;
        for (size_t i = 0; i < SK_ARRAY_LEN(KINDS); i++) {
            int w = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", KINDS[i].name);
            if (w > 0)
                n = SK_MIN(n + (size_t)w, sizeof list - 1);
        }
        sk_errorf(e, SK_EUSAGE, "plot: unknown kind '%s': expected one of %s", name, list);
        return NULL;
    }
    if (((k->needs & PLOT_NEEDS_RUN) && !in->run) || ((k->needs & PLOT_NEEDS_SWEEP) && !in->sweep)) {
        sk_errorf(e, SK_EUSAGE, "plot %s: needs a %s directory", name,
                  (k->needs & PLOT_NEEDS_RUN) ? "run" : "sweep");
        return NULL;
    }
    if ((k->needs & PLOT_NEEDS_CONFIG) && !in->cfg) {
        sk_errorf(e, SK_EUSAGE, "plot %s: needs the chip config the run used (-c CONFIG)", name);
        return NULL;
    }
    svg *s = k->draw(k, in, e);
    if (!s)
        return NULL;
    if (in->label) {
        /* Where the figure came from, small, out of the data's way. */
        char src[320];
        snprintf(src, sizeof src, "source: %s", in->label);
        svg_text(s, svg_width(s) - 8, svg_height(s) - 5, 9, "end", 0, 0, "#777777", src);
    }
    return svg_finish(s, len);
}

int plot_write_file(const char *path, const char *text, size_t len, sk_error *e)
{
    size_t n = strlen(path) + 16;
    char *tmp = xmalloc(n);
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    snprintf(tmp, n, "%.*s.%s.tmp", dl, path, path + dl);
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f) {
        rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", path, strerror(errno));
    } else {
        int bad = fwrite(text, 1, len, f) != len;
        bad |= fclose(f) != 0;
        if (bad || rename(tmp, path) != 0) {
            rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", path, strerror(errno));
            remove(tmp);
        }
    }
    free(tmp);
    return rc;
}
