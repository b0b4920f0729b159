/* plot_priv.h -- the figure kinds' draw functions, shared by plot.c's
 * table and the plot_*.c files that implement them. */
#ifndef SKEWSIM_PLOT_PRIV_H
#define SKEWSIM_PLOT_PRIV_H

#include "skewsim/plot.h"

/* plot_kind.metric of the die heatmaps (plot_die.c). */
enum { PLOT_DIE_MHZ, PLOT_DIE_VDD, PLOT_DIE_TEMP, PLOT_DIE_BUSY, PLOT_DIE_CTAS };
/* plot_kind.metric of the time series (plot_time.c). */
enum { PLOT_TIME_CLOCK, PLOT_TIME_POWER };

svg *plot_draw_die(const plot_kind *k, const plot_input *in, sk_error *e);
svg *plot_draw_gantt(const plot_kind *k, const plot_input *in, sk_error *e);
svg *plot_draw_time(const plot_kind *k, const plot_input *in, sk_error *e);
svg *plot_draw_dist(const plot_kind *k, const plot_input *in, sk_error *e);

#endif
