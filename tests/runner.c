/* The test runner: every suite from tests/check_*.c (the list is generated
 * from file names), fork mode on, Check's summary line printed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "testutil.h"

typedef struct suite_entry {
    const char *name;
    Suite *(*make)(void);
} suite_entry;

static const suite_entry suites[] = {
#define GP_SUITE(name) {#name, gp_test_suite_##name},
#include "suites.h"
#undef GP_SUITE
};

/* Whether this process takes suite `name`: the first of the processes
 * sharing `dir` to create dir/name does.  -1 (after a message) when the
 * file cannot be made for another reason. */
static int claim(const char *dir, const char *name)
{
    char path[1024];
    int fd;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        close(fd);
        return 1;
    }
    if (errno == EEXIST)
        return 0;
    fprintf(stderr, "runner: cannot create %s: %s\n", path, strerror(errno));
    return -1;
}

/* With "--claim DIR", processes started side by side share the suites:
 * each takes the next suite no other has claimed (a file in DIR, created
 * exclusively) and runs it, so a process that drew short suites takes more
 * (`make valgrind`).  Otherwise every suite runs, in one report. */
int main(int argc, char **argv)
{
    SRunner *sr;
    int failed = 0;
    size_t i;

    gsl_set_error_handler_off();
    if (argc == 3 && strcmp(argv[1], "--claim") == 0) {
        for (i = 0; i < sizeof suites / sizeof suites[0]; i++) {
            int c = claim(argv[2], suites[i].name);
            if (c < 0)
                return EXIT_FAILURE;
            if (c == 0)
                continue;
            sr = srunner_create(suites[i].make());
            srunner_run_all(sr, CK_NORMAL);
            failed += srunner_ntests_failed(sr);
            srunner_free(sr);
        }
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--claim DIR]\n", argv[0]);
        return EXIT_FAILURE;
    }
    sr = srunner_create(NULL);
    for (i = 0; i < sizeof suites / sizeof suites[0]; i++)
        srunner_add_suite(sr, suites[i].make());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
