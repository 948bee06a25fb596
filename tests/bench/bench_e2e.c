/* End-to-end request evaluations (gp_infer_e2e_eval) per second: a
 * 1M-token output from a 4K prompt, Llama-2-7B-shaped, closed form (at most
 * five decode evaluations), varying the output so nothing is hoisted.
 * Target: well under a millisecond each (inference.md 5.2). */
#include <string.h>

#include "bench.h"
#include "gpuplan.h"

void gp_bench_e2e(const char *cli)
{
    gp_gpu g;
    gp_model m;
    gp_infer_params p;
    gp_infer_e2e r;
    gp_err e;
    double t0, t1, acc = 0.0;
    long i, n = 200000;
    (void)cli;
    memset(&g, 0, sizeof g);
    memset(&m, 0, sizeof m);
    g.id = "bench-gpu";
    g.mem_bw.v = 3350e9;
    g.eff_mem.v = 0.9;
    g.clock_boost.v = 1980e6;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 67e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 989e12;
    g.mem_usable.v = 1e15;
    m.id = "bench-model";
    m.params.v = 6.74e9;
    m.layers.v = 32;
    m.hidden.v = 4096;
    m.heads.v = 32;
    m.kv_heads.v = 8;
    m.head_dim.v = 128;
    m.ffn_hidden.v = 11008;
    m.vocab.v = 32000;
    m.context.v = 2e6;
    m.window.v = 4096;
    m.window_layers.v = 16;
    gp_infer_params_init(&p);
    p.gpu = &g;
    p.model = &m;
    p.prompt = 4096;
    p.batch = 8;
    gp_err_clear(&e);
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        if (gp_infer_e2e_eval(&p, (double)(1000000 - (i & 1023)), &r, &e) == GP_OK)
            acc += r.expected.latency_s;
    }
    t1 = gp_bench_now();
    gp_bench_sink = acc;
    gp_bench_rate("infer: end-to-end eval (1M-token output, closed form)", (double)n, t1 - t0);
}
