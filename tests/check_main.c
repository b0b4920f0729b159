/* check_main.c -- the one test runner: every module's suite, any failure
 * fails the run (and so `make check`). */
#include <stdlib.h>
#include <check.h>
#include "tests.h"

int main(void)
{
    Suite *suites[] = {
        event_suite(), config_suite(), program_suite(), trace_suite(),
        gen_suite(), dispatch_suite(), sm_suite(), sim_suite(), cli_suite(), silicon_suite(),
        golden_suite(), accelsim_suite(),
        bad_suite(), sass_suite(), sweep_suite(), stats_suite(), hpc_suite(), mem_suite(), plot_suite(),
        tutorial_suite(), timeline_suite(), explain_suite(), zoo_suite(), topo_suite(), streams_suite(),
    };
    SRunner *sr = srunner_create(suites[0]);
    for (size_t i = 1; i < sizeof suites / sizeof suites[0]; i++)
        srunner_add_suite(sr, suites[i]);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
