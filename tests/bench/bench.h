/* Private to the benchmarks: a monotonic clock and a report line.  Each
 * tests/bench/bench_NAME.c defines `void gp_bench_NAME(const char *cli)`
 * (cli = path of the built gpuplan binary); the list is generated. */
#ifndef GP_BENCH_H
#define GP_BENCH_H

/* Seconds on a monotonic clock. */
double gp_bench_now(void);

/* Print "  name: N evaluations in S s = R /s" (or a per-item time). */
void gp_bench_rate(const char *name, double count, double seconds);
/* Print "  name: median X ms over N runs". */
void gp_bench_median_ms(const char *name, double *samples_s, int n);
/* Time `runs` executions of a whole command (argv, NULL-terminated), output
 * discarded; returns the median seconds (and prints it under `name`). */
double gp_bench_process(const char *name, const char *const *argv, int runs);

/* Keep a computed value alive so the optimiser cannot drop the work. */
extern volatile double gp_bench_sink;

#define GP_BENCH(name) void gp_bench_##name(const char *cli);
#include "benches.h"
#undef GP_BENCH

#endif /* GP_BENCH_H */
