/* The test runner: every suite from tests/check_*.c (the list is generated
 * from file names), fork mode on, Check's summary line printed. */
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "testutil.h"

int main(void)
{
    SRunner *sr;
    int failed;

    gsl_set_error_handler_off();
    sr = srunner_create(NULL);
#define GP_SUITE(name) srunner_add_suite(sr, gp_test_suite_##name());
#include "suites.h"
#undef GP_SUITE
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
