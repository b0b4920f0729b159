/* tests.h -- one Suite constructor per module, and shared test helpers. */
#ifndef SKEWSIM_TESTS_H
#define SKEWSIM_TESTS_H

#include <check.h>

Suite *event_suite(void);
Suite *config_suite(void);
Suite *program_suite(void);
Suite *trace_suite(void);
Suite *gen_suite(void);
Suite *dispatch_suite(void);
Suite *sm_suite(void);
Suite *sim_suite(void);
Suite *cli_suite(void);
Suite *silicon_suite(void);
Suite *golden_suite(void);
Suite *bad_suite(void);
Suite *accelsim_suite(void);
Suite *sass_suite(void);
Suite *sweep_suite(void);
Suite *stats_suite(void);
Suite *zoo_suite(void);
Suite *topo_suite(void);
Suite *hpc_suite(void);
Suite *mem_suite(void);
Suite *plot_suite(void);
Suite *tutorial_suite(void);
Suite *timeline_suite(void);
Suite *explain_suite(void);
Suite *streams_suite(void);

/* Directory holding test inputs (tests/data), relative to the repository root
 * where `make check` runs. */
#define TEST_DATA "tests/data"

#endif
