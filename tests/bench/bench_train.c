/* Training-planner evaluations per second through the library (target
 * >= 10 million/s on one core; the step-time model >= 1 million/s), plus
 * one whole `gpuplan train` process. */
#include <string.h>

#include "bench.h"
#include "gpuplan.h"

void gp_bench_train(const char *cli)
{
    /* Hand-built H100 (dense BF16 989.4 TFLOP/s, 80 GiB) and Llama 2 7B
     * shape: the benchmark needs no database. */
    gp_gpu g;
    gp_model m;
    gp_train_in in;
    gp_train_params p;
    gp_train_result r;
    gp_err e;
    const char *argv[] = {cli, "train", "--gpu", "h100", "--gpus", "8", "--model",
                          "llama-2-7b", "--tokens", "2T", "--json", NULL};
    double t0, dt, acc = 0.0;
    long i, n = 20000000;

    memset(&g, 0, sizeof g);
    g.id = "h100-bench";
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 989.4e12;
    g.mem_capacity.v = 85899345920.0;
    g.tdp.v = 700.0;
    memset(&m, 0, sizeof m);
    m.id = "llama-2-7b-bench";
    m.params.v = 6.74e9;
    m.layers.v = 32;
    m.hidden.v = 4096;
    m.heads.v = 32;
    m.ffn_hidden.v = 11008;
    m.vocab.v = 32000;
    m.context.v = 4096;
    gp_train_params_init(&p);
    gp_train_in_init(&in);
    in.gpu = &g;
    in.model = &m;
    in.gpus = 8;
    in.zero = 3;
    in.mfu = 0.4;

    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        /* Vary the input so nothing is hoisted out of the loop. */
        in.tokens = 1e12 + (double)(i & 1023);
        if (gp_train_estimate(&in, &p, &r, &e) == GP_OK)
            acc += r.gpu_days + r.total_bytes;
    }
    dt = gp_bench_now() - t0;
    gp_bench_sink = acc;
    gp_bench_rate("gp_train_estimate (model, ZeRO-3)", (double)n, dt);

    in.count = GP_COUNT_EXACT;
    in.model = NULL;
    in.params = 7e9; /* inferred shape: the cube-root path */
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        in.tokens = 1e12 + (double)(i & 1023);
        if (gp_train_estimate(&in, &p, &r, &e) == GP_OK)
            acc += r.gpu_days + r.total_bytes;
    }
    dt = gp_bench_now() - t0;
    gp_bench_sink = acc;
    gp_bench_rate("gp_train_estimate (--params, exact)", (double)n, dt);

    /* Step-time model (--mfu model): Llama 2 7B shape, tp 2, pp 2 (v 2),
     * 64 GPUs in nodes of 8 on NVLink 4 (450 GB/s, 370 achievable, 2 us)
     * and NDR (50 GB/s, 47 achievable, 2 us); target >= 1 million/s. */
    {
        gp_link up, out;
        long n2 = 2000000;
        memset(&up, 0, sizeof up);
        up.id = "nvlink4-bench";
        up.bw.v = 450e9;
        up.bw_achievable.v = 370e9;
        up.latency.v = 2e-6;
        up.max_gpus.v = 8;
        up.p2p = 1;
        up.switched = 1;
        out = up;
        out.id = "ndr-bench";
        out.bw.v = 50e9;
        out.bw_achievable.v = 47e9;
        out.max_gpus.v = 0;
        g.sm_count.v = 132;
        g.eff_compute.v = 0.8;
        g.mem_bw.v = 3.35e12;
        g.eff_mem.v = 0.75;
        gp_train_in_init(&in);
        in.gpu = &g;
        in.model = &m;
        in.gpus = 64;
        in.tp = 2;
        in.pp = 2;
        in.interleave = 2;
        in.micro_batch = 2;
        in.mfu_mode = GP_MFU_MODEL;
        in.scale_up = &up;
        in.scale_out = &out;
        t0 = gp_bench_now();
        for (i = 0; i < n2; i++) {
            in.tokens = 1e12 + (double)(i & 1023);
            if (gp_train_estimate(&in, &p, &r, &e) == GP_OK)
                acc += r.step.step_s + r.gpu_days;
        }
        dt = gp_bench_now() - t0;
        gp_bench_sink = acc;
        gp_bench_rate("gp_train_estimate (--mfu model, tp 2 pp 2 dp 16)", (double)n2, dt);
    }

    gp_bench_process("gpuplan train (whole process)", argv, 21);
}
