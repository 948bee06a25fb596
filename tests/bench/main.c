/* gpuplan-bench: library evaluations per second and whole-process times.
 * Run by `make bench`; numbers go to stdout (never asserted in unit tests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "bench.h"

volatile double gp_bench_sink;

double gp_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gp_bench_rate(const char *name, double count, double seconds)
{
    printf("  %-40s %12.0f evals in %6.3f s = %8.2f M/s (%.1f ns each)\n", name, count,
           seconds, count / seconds / 1e6, seconds / count * 1e9);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_bench_median_ms(const char *name, double *samples_s, int n)
{
    qsort(samples_s, (size_t)n, sizeof *samples_s, cmp_double);
    printf("  %-40s median %.3f ms, min %.3f ms, max %.3f ms over %d runs\n", name,
           samples_s[n / 2] * 1e3, samples_s[0] * 1e3, samples_s[n - 1] * 1e3, n);
}

double gp_bench_process(const char *name, const char *const *argv, int runs)
{
    double *t = calloc((size_t)runs, sizeof *t), med;
    int i;
    if (t == NULL)
        return -1.0;
    for (i = 0; i < runs; i++) {
        double t0 = gp_bench_now();
        pid_t pid = fork();
        int st;
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            dup2(fd, 1);
            dup2(fd, 2);
            execv(argv[0], (char *const *)(size_t)argv);
            _exit(127);
        }
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            /* A command that fails would time as a fast one: say so instead. */
            printf("  %-40s FAILED (the command did not exit 0)\n", name);
            free(t);
            return -1.0;
        }
        t[i] = gp_bench_now() - t0;
    }
    gp_bench_median_ms(name, t, runs);
    med = t[runs / 2];
    free(t);
    return med;
}

int main(int argc, char **argv)
{
    const char *cli = argc > 1 ? argv[1] : "build/gpuplan";
    printf("gpuplan-bench (one core, this machine)\n");
#define GP_BENCH(name)                                                          \
    printf("%s:\n", #name);                                                     \
    gp_bench_##name(cli);
#include "benches.h"
#undef GP_BENCH
    return 0;
}
