/* Database benchmarks: loading the built-in database (parse + validate), a
 * lookup by alias, and a whole `gpuplan hw show h100` process. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "gpuplan.h"

#define LOAD_RUNS 201
#define PROC_RUNS 101

void gp_bench_db(const char *cli)
{
    double t[LOAD_RUNS];
    gp_db *db = NULL;
    gp_err e;
    int i;
    size_t n = 0;
    char label[96];
    const char *argv[] = {cli, "hw", "show", "h100", NULL};
    double t0, t1;
    long k, iters = 2000000;

    for (i = 0; i < LOAD_RUNS; i++) {
        gp_err_clear(&e);
        t0 = gp_bench_now();
        if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK) {
            char buf[1024];
            printf("  built-in database failed to load: %s\n", gp_err_format(&e, buf, sizeof buf));
            return;
        }
        t[i] = gp_bench_now() - t0;
        n = gp_db_count(db, GP_KIND_GPU) + gp_db_count(db, GP_KIND_LINK) +
            gp_db_count(db, GP_KIND_MODEL) + gp_db_count(db, GP_KIND_FORMAT);
        if (i + 1 < LOAD_RUNS)
            gp_db_free(db);
    }
    snprintf(label, sizeof label, "built-in load (%zu entries)", n);
    gp_bench_median_ms(label, t, LOAD_RUNS);

    t0 = gp_bench_now();
    for (k = 0; k < iters; k++) {
        const gp_gpu *g = gp_db_find_gpu(db, (k & 1) ? "H100" : "rtx-4090");
        gp_bench_sink += g != NULL ? g->mem_bw.v : 1.0;
    }
    t1 = gp_bench_now();
    gp_bench_rate("gp_db_find_gpu (id or alias)", (double)iters, t1 - t0);
    gp_db_free(db);

    gp_bench_process("process: gpuplan hw show h100", argv, PROC_RUNS);
}
