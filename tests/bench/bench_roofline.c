/* Roofline evaluations per second through the library (target >= 10
 * million/s on one core), a named-kernel count + evaluation, and the whole
 * `gpuplan roofline` process. */
#include <string.h>

#include "bench.h"
#include "gpuplan.h"

/* H100 SXM figures (datasheet) for when the database does not load. */
static void fallback_gpu(gp_gpu *g)
{
    memset(g, 0, sizeof *g);
    g->id = "h100-sxm";
    g->peak[GP_BF16][GP_PIPE_TENSOR].v = 989.4e12;
    g->mem_bw.v = 3.35e12;
    g->eff_mem.v = 0.9;
    g->eff_compute.v = 0.8;
}

void gp_bench_roofline(const char *cli)
{
    gp_db *db = NULL;
    gp_err e;
    gp_gpu local;
    const gp_gpu *g = NULL;
    gp_roofline_params p;
    gp_roofline r;
    gp_kernel_shape s;
    gp_kernel_counts c;
    const gp_kernel_desc *k = gp_kernel_find("gemm");
    const long n = 20000000;
    long i;
    double t0, acc = 0.0;

    gp_err_clear(&e);
    if (gp_db_open(&db, 0, NULL, 0, &e) == GP_OK)
        g = gp_db_find_gpu(db, "h100-sxm");
    if (g == NULL) {
        fallback_gpu(&local);
        g = &local;
    }
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;

    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        /* Vary the inputs so nothing is hoisted out of the loop. */
        if (gp_roofline_eval(g, &p, 1e9 + (double)(i & 1023), 1e7 + (double)(i & 511), &r,
                             &e) == GP_OK)
            acc += r.time;
    }
    gp_bench_rate("gp_roofline_eval", (double)n, gp_bench_now() - t0);

    gp_kernel_shape_init(&s);
    s.m = s.n = s.k = 4096;
    s.elem_bytes = 2;
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        s.tile = (double)(64 + (i & 127));
        if (gp_kernel_eval(k, &s, &c, &e) == GP_OK &&
            gp_roofline_eval(g, &p, c.flop, c.bytes, &r, &e) == GP_OK)
            acc += r.attainable;
    }
    gp_bench_rate("gp_kernel_eval(gemm) + gp_roofline_eval", (double)n, gp_bench_now() - t0);
    gp_bench_sink = acc;
    gp_db_free(db);

    {
        const char *argv[] = {cli, "roofline", "--gpu", "h100", "--precision", "bf16",
                              "--kernel", "gemm", "--m", "4096", "--n", "4096", "--k", "4096",
                              NULL};
        gp_bench_process("gpuplan roofline (whole process)", argv, 20);
    }
}
