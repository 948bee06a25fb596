/* The test runner: every suite from tests/check_*.c (the list is generated
 * from file names), fork mode on, Check's summary line printed. */
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "testutil.h"

/* With one argument "K/N" (0 <= K < N) only every N-th suite from the K-th
 * runs: `make valgrind` runs the shards side by side. */
int main(int argc, char **argv)
{
    SRunner *sr;
    int failed;
    long k = 0, n = 1, i = 0;

    gsl_set_error_handler_off();
    if (argc == 2) {
        char *end;
        k = strtol(argv[1], &end, 10);
        if (*end == '/')
            n = strtol(end + 1, &end, 10);
        if (*end != '\0' || n < 1 || k < 0 || k >= n) {
            fprintf(stderr, "usage: %s [K/N]  (run every N-th suite from the K-th)\n", argv[0]);
            return EXIT_FAILURE;
        }
    } else if (argc > 2) {
        fprintf(stderr, "usage: %s [K/N]\n", argv[0]);
        return EXIT_FAILURE;
    }
    sr = srunner_create(NULL);
#define GP_SUITE(name)                                                                   \
    if (i++ % n == k)                                                                    \
        srunner_add_suite(sr, gp_test_suite_##name());
#include "suites.h"
#undef GP_SUITE
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
