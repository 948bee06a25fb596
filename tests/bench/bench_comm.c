/* Collective and scaling evaluations per second through the library
 * (target >= 10 million/s on one core), plus whole-command times. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "gpuplan.h"

static gp_link mk(double bw, double ach, double alpha, int p2p)
{
    gp_link l;
    memset(&l, 0, sizeof l);
    l.id = "bench";
    l.bw.v = bw;
    l.bw_achievable.v = ach;
    l.latency.v = alpha;
    l.p2p = p2p;
    return l;
}

void gp_bench_comm(const char *cli)
{
    gp_link up = mk(450e9, 369e9, 2e-6, 1), pc = mk(31.5e9, 25e9, 10e-6, 0),
            out = mk(50e9, 47e9, 5e-6, 1);
    gp_topo t;
    gp_comm_result r;
    gp_comm_params p;
    gp_scale_req q;
    gp_scale_params sp;
    gp_scale_row rows[4];
    gp_scale_result res;
    const long counts[4] = {1, 2, 4, 8};
    double t0, dt, acc = 0.0;
    long i, n;

    gp_comm_params_default(&p);
    memset(&t, 0, sizeof t);
    t.scale_up = &up;
    t.gpus_per_node = 8;
    t.nodes = 1;
    n = 20000000;
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e6 + (double)(i & 1023), &p, &r, NULL);
        acc += r.expected.time_s;
    }
    dt = gp_bench_now() - t0;
    gp_bench_rate("ring AllReduce, 8 GPUs, one node", (double)n, dt);

    up.kind = GP_LINK_NVLINK;
    up.switched = 1;
    up.bw_nvls.v = 308.6e9;
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 1e6 + (double)(i & 1023), &p, &r, NULL);
        acc += r.expected.time_s;
    }
    dt = gp_bench_now() - t0;
    gp_bench_rate("NVLS AllReduce, 8 GPUs, one node", (double)n, dt);

    t.scale_up = &pc;
    t.gpus_per_node = 4;
    t.scale_out = &out;
    t.nodes = 4;
    t.nics_per_node = 1;
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, 1e6 + (double)(i & 1023), &p, &r, NULL);
        acc += r.expected.time_s;
    }
    dt = gp_bench_now() - t0;
    gp_bench_rate("hierarchical tree AllReduce, 4x4, host", (double)n, dt);

    memset(&q, 0, sizeof q);
    q.scale_up = &pc;
    q.scale_out = &out;
    q.gpus_per_node = 4;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&sp);
    n = 5000000;
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        q.step_compute_s = 2.0 + (double)(i & 1023) * 1e-6;
        gp_scale_eval(&q, &sp, counts, 4, rows, &res, NULL);
        acc += rows[3].speedup;
    }
    dt = gp_bench_now() - t0;
    gp_bench_rate("scale, 4 GPU counts (per count)", 4.0 * (double)n, dt);
    gp_bench_rate("scale, 4 GPU counts (whole table)", (double)n, dt);
    gp_bench_sink = acc;

    {
        const char *a1[] = {cli, "--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                            "--bytes", "8GiB", NULL};
        const char *a2[] = {cli, "--json", "scale", "--link", "pcie4-x16", "--grad-bytes",
                            "14GB", "--step-compute-s", "2", NULL};
        gp_bench_process("gpuplan allreduce (process)", a1, 20);
        gp_bench_process("gpuplan scale (process)", a2, 20);
    }
}
