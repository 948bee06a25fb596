/* libFuzzer harness: the CLI argument parser.  The input is split on NUL or
 * newline into argv and handed to gpuplan's gp_cli_main (cli/main.c, built
 * without its main).  Arguments that would write files or spawn programs (plots -- also through
 * getopt_long abbreviations such as --pl --, calibration import/run (calib
 * show, which only reads, is fuzzed), overlay
 * directories) are skipped, and the harness runs in an empty scratch
 * directory, so fuzzing never writes outside it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gp_cli_main(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* stdout/stderr: run.sh passes -close_fd_mask=3 so the CLI's output is
     * discarded while libFuzzer keeps its own log. */
    char dir[] = "/tmp/gp-fuzz-cli-XXXXXX";
    unsetenv("GPUPLAN_DB");
    if (mkdtemp(dir) == NULL || chdir(dir) != 0)
        return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf, *argv[65];
    int argc = 1, calib_show;
    size_t i, start = 0;
    if (size > 4096)
        return 0;
    buf = malloc(size + 1);
    if (buf == NULL)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[0] = (char *)(uintptr_t) "gpuplan";
    for (i = 0; i <= size && argc < 64; i++) {
        if (i == size || buf[i] == '\0' || buf[i] == '\n') {
            buf[i] = '\0';
            argv[argc++] = buf + start;
            start = i + 1;
        }
    }
    argv[argc] = NULL;
    /* `calib show FILE` only reads; import and run write or spawn. */
    calib_show = argc >= 3 && strcmp(argv[1], "calib") == 0 && strcmp(argv[2], "show") == 0;
    for (i = calib_show ? 3 : 1; i < (size_t)argc; i++) {
        if (strstr(argv[i], "plot") || strstr(argv[i], "calib") || strstr(argv[i], "db") ||
            strstr(argv[i], "import") || strcmp(argv[i], "run") == 0 ||
            strncmp(argv[i], "--pl", 4) == 0 || strncmp(argv[i], "-o", 2) == 0) {
            free(buf);
            return 0;
        }
    }
    (void)gp_cli_main(argc, argv);
    fflush(stdout);
    free(buf);
    return 0;
}
