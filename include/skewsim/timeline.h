/* timeline.h -- Chrome trace-event JSON ("JSON Object Format": one object
 * with a traceEvents array), the format ui.perfetto.dev and chrome://tracing
 * open, written as a simulation runs (docs/figures.md, "Timelines").
 *
 * This is the writer only: processes, threads, slices ("X" complete events),
 * counters ("C"), instants ("i") and their metadata ("M").  What a
 * simulation puts into it (one process per GPC, a thread per CTA slot of
 * an SM, CTA slices, clock and power counters) is the timeline sink's
 * business.
 *
 * Times are integer picoseconds, written as microseconds with six decimals
 * (exact: 1 ps = 1e-6 us), so the same run gives the same bytes.  The
 * number of events is bounded: past max_events, events are counted and
 * dropped (metadata never is), and the file says so in its otherData.  The
 * file is written under a temporary name and renamed by tl_close().
 */
#ifndef SKEWSIM_TIMELINE_H
#define SKEWSIM_TIMELINE_H

#include <stdint.h>
#include "skewsim/common.h"

typedef struct tl_writer tl_writer;

/* One argument of an event ("args": {key: value}). */
typedef struct tl_arg {
    const char *key;
    int type;                   /* TL_INT, TL_NUM or TL_STR */
    int64_t i;
    double d;
    const char *s;
} tl_arg;

enum { TL_INT, TL_NUM, TL_STR };

#define TL_I(k, v) ((tl_arg){.key = (k), .type = TL_INT, .i = (int64_t)(v)})
#define TL_D(k, v) ((tl_arg){.key = (k), .type = TL_NUM, .d = (double)(v)})
#define TL_S(k, v) ((tl_arg){.key = (k), .type = TL_STR, .s = (v)})

/* Open `path` for writing (through a temporary beside it).  max_events 0:
 * no bound.  NULL with *e filled (SK_EIO).  Caller owns it: tl_close() or
 * tl_abort(). */
tl_writer *tl_open(const char *path, uint64_t max_events, sk_error *e);

/* Metadata: a process's and a thread's name and sort order. */
void tl_process(tl_writer *w, int pid, const char *name, int sort_index);
void tl_thread(tl_writer *w, int pid, int tid, const char *name, int sort_index);

/* Events.  Each returns 1 when written, 0 when dropped by the bound. */
int tl_slice(tl_writer *w, int pid, int tid, const char *name, const char *cat, ps_t start, ps_t end,
             const tl_arg *args, int nargs);
int tl_counter(tl_writer *w, int pid, const char *name, ps_t t, const char *series, double value);
/* scope: 'g' global, 'p' process, 't' thread. */
int tl_instant(tl_writer *w, int pid, int tid, char scope, const char *name, const char *cat, ps_t t,
               const tl_arg *args, int nargs);

uint64_t tl_written(const tl_writer *w);
uint64_t tl_dropped(const tl_writer *w);
uint64_t tl_max_events(const tl_writer *w);

/* Finish the document and rename it into place; frees w.  0 or SK_EIO. */
int tl_close(tl_writer *w, sk_error *e);
/* Remove the temporary and free w (a failed run); NULL is a no-op. */
void tl_abort(tl_writer *w);


/* ==================================================================== */
/* The timeline of a simulation                                          */
/* ==================================================================== */

/* What a run looks like in Perfetto: process 0 is the chip (a slice per
 * kernel, kernel-launch and grid-barrier instants, DVFS decisions, chip
 * power and temperature counters); process g + 1 is GPC g, with one thread
 * per CTA slot of each of its SMs (CTA slices: kernel, CTA id, SM cycles,
 * warps; slices of a thread never overlap) and each SM's clock and
 * voltage counters.  Counters are written when their value changes.
 * A sink (sink.h): hand tlsim_sink(t) to sim_create() with the others. */
#include "skewsim/sink.h"

typedef struct tlsim tlsim;

/* Open `path` (max_events 0: no bound).  The processes and threads are
 * named from the topology at the first event.  NULL with *e filled
 * (SK_EIO).  Caller owns it: tlsim_close() after the run, or tlsim_abort(). */
tlsim *tlsim_open(const char *path, uint64_t max_events, sk_error *e);
/* The sink that feeds it; t must outlive the sim. */
sim_sink tlsim_sink(tlsim *t);

uint64_t tlsim_written(const tlsim *t);
uint64_t tlsim_dropped(const tlsim *t);
uint64_t tlsim_max_events(const tlsim *t);
/* Finish and rename into place; frees t.  0 or SK_EIO. */
int tlsim_close(tlsim *t, sk_error *e);
void tlsim_abort(tlsim *t);     /* NULL is a no-op */

#endif
