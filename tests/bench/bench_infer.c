/* Decode evaluations per second through the library (target >= 10 M/s on
 * one core): Llama-2-7B-shaped model, Q4_0-like weights, llama.cpp profile,
 * varying batch and context so nothing is hoisted. */
#include <string.h>

#include "bench.h"
#include "gpuplan.h"

void gp_bench_infer(const char *cli)
{
    gp_gpu g;
    gp_model m;
    gp_format q;
    gp_infer_params p;
    gp_infer_result r;
    gp_err e;
    double t0, t1, acc = 0.0;
    long i, n = 2000000;
    (void)cli;
    memset(&g, 0, sizeof g);
    memset(&m, 0, sizeof m);
    memset(&q, 0, sizeof q);
    g.id = "bench-gpu";
    g.mem_bw.v = 1008e9;
    g.eff_mem.v = 0.96;
    g.clock_boost.v = 2520e6;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 82.6e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 165.2e12;
    g.mem_usable.v = 24564.0 * 1048576.0;
    m.id = "bench-model";
    m.params.v = 6.74e9;
    m.layers.v = 32;
    m.hidden.v = 4096;
    m.heads.v = 32;
    m.kv_heads.v = 32;
    m.head_dim.v = 128;
    m.ffn_hidden.v = 11008;
    m.vocab.v = 32000;
    m.context.v = 4096;
    q.id = "q4_0";
    q.kind = GP_FMT_QUANT;
    q.bits.v = 4.5;
    q.compute = GP_FP16;
    gp_infer_params_init(&p);
    p.gpu = &g;
    p.model = &m;
    p.weights = &q;
    p.engine = gp_engine_find("llama.cpp");
    gp_err_clear(&e);
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        p.batch = (double)(1 + (i & 15));
        p.context = (double)(128 + (i & 1023));
        if (gp_infer_eval(&p, &r, &e) == GP_OK)
            acc += r.expected.tokens_per_s;
    }
    t1 = gp_bench_now();
    gp_bench_sink = acc;
    gp_bench_rate("infer: decode eval (dense, batch/context vary)", (double)n, t1 - t0);
    /* MoE + prefill + TP path. */
    {
        gp_link l;
        memset(&l, 0, sizeof l);
        l.bw.v = 300e9;
        l.bw_achievable.v = 230e9;
        l.latency.v = 2e-6;
        l.p2p = 1;
        m.params.v = 46.7e9;
        m.params_active.v = 12.9e9;
        m.experts.v = 8;
        m.experts_active.v = 2;
        m.expert_ffn_hidden.v = 14336;
        p.link = &l;
        p.gpus = 2;
        p.prompt = 512;
        n = 1000000;
        t0 = gp_bench_now();
        for (i = 0; i < n; i++) {
            p.batch = (double)(1 + (i & 63));
            if (gp_infer_eval(&p, &r, &e) == GP_OK)
                acc += r.expected.tokens_per_s;
        }
        t1 = gp_bench_now();
        gp_bench_sink = acc;
        gp_bench_rate("infer: decode eval (MoE, TP2, prefill)", (double)n, t1 - t0);
    }
}
