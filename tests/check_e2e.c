/* End-to-end request latency and throughput (gp_infer_e2e_eval, `gpuplan
 * decode --output N`) and the MoE prefill priced expert by expert
 * (docs/models/inference.md 5.1 and 5.2).  Every expected number is worked
 * by hand in the comment above its assert, on toy hardware with round
 * figures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* Toy GPU: 1 TB/s (0.5 of it achievable), 10 TFLOP/s fp16 tensor (0.5 of it
 * expected), 2 GHz boost (engine overheads unscaled), 1 TB usable. */
static gp_gpu toy_gpu(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "toy";
    g.mem_bw.v = 1e12;
    g.eff_mem.v = 0.5;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 10e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 1e12;
    g.eff_compute.v = 0.5;
    g.clock_boost.v = 2e9;
    g.mem_usable.v = 1e12;
    return g;
}

/* Toy engine: the whole achievable bandwidth, 10 us per layer, nothing per
 * MoE layer, no dequantisation, no per-SM limit, prefill at the expected
 * matmul rate (0 = 1). */
static const gp_engine toy_engine = {"toy", "toy engine", 1.0, 1.0, 10e-6, 0.0, "test",
                                     0,     0.0,          0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0};

/* Toy MQA model: 1e9 params (no embeddings: vocab 0, tied), 2 layers,
 * hidden 1024, 32 heads of 32, one KV head, ffn 4096, 4M positions.
 *   KV per position: 2 layers x 2 x 1 x 32 x 2 B = 256 B;
 *   attention FLOP per position: 4 x 2 x 32 x 32 = 8192 (32 FLOP/B: above
 *   the toy's ridge of 10, so a long context turns the step compute-bound);
 *   activations: 2 x (10 x 1024 + 4 x 4096) x 2 B = 106,496 B. */
static gp_model toy_mqa(void)
{
    gp_model m;
    memset(&m, 0, sizeof m);
    m.id = "toy-mqa";
    m.params.v = 1e9;
    m.layers.v = 2;
    m.hidden.v = 1024;
    m.heads.v = 32;
    m.kv_heads.v = 1;
    m.head_dim.v = 32;
    m.ffn_hidden.v = 4096;
    m.tied_embeddings = 1;
    m.context.v = 4e6;
    return m;
}

static gp_infer_params toy_params(const gp_gpu *g, const gp_model *m)
{
    gp_infer_params p;
    gp_infer_params_init(&p);
    p.gpu = g;
    p.model = m;
    p.engine = &toy_engine;
    return p;
}

static gp_infer_e2e e2e_ok(const gp_infer_params *p, double n)
{
    gp_infer_e2e r;
    gp_err e;
    gp_err_clear(&e);
    memset(&r, 0, sizeof r);
    ck_assert_msg(gp_infer_e2e_eval(p, n, &r, &e) == GP_OK, "e2e failed: %s", e.msg);
    return r;
}

/* Sum of the decode steps, one gp_infer_eval per context: the reference
 * the closed form must match. */
static void loop_sum(const gp_infer_params *p0, double lo, double n, double *ceil_s,
                     double *exp_s)
{
    gp_infer_params p = *p0;
    gp_infer_result r;
    gp_err e;
    double c;
    *ceil_s = *exp_s = 0.0;
    p.prompt = 0.0;
    for (c = lo; c < lo + n; c += 1.0) {
        p.context = c;
        gp_err_clear(&e);
        ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
        *ceil_s += r.ceiling.step_s;
        *exp_s += r.expected.step_s;
    }
}

/* Three output tokens from a 1000-token prompt, summed by hand: the
 * prefill's logits give the first, two decode steps (contexts 1001, 1002)
 * the others.
 * Expected step(c) = max(tc, tm) + 2 layers x 10 us:
 *   tc = (2e9 + 8192 c) / 5e12 = 0.4 ms + 1.6384e-9 c,
 *   tm = (2e9 + 106,496 + 256 c) / 0.5e12 = 4.000212992 ms + 0.512e-9 c
 *   (memory-bound at c = 1001: 4.0007 ms against 0.4016 ms);
 *   step(1001) + step(1002) = 2 x 4.020212992 ms + 0.512e-9 x 2003 =
 *   8.040425984 ms + 1.025536 us = 8.04145152 ms.
 * TTFT: 2 x 1e9 x 1000 + 8192 x 1000^2/2 = 2.004096e12 FLOP / 5e12 =
 *   0.4008192 s (weights 2e9 / 0.5e12 = 4 ms underneath) + 20 us =
 *   0.4008392 s.
 * Latency 0.4008392 + 0.00804145152 = 0.40888065152 s; output 3 /
 *   latency = 7.33711 tok/s; total 1003 / latency = 2453.04 tok/s.
 * Ceiling: step = tm = (2e9 + 256 c) / 1e12 = 2 ms + 0.256e-9 c (no
 *   activations, no overhead): 4 ms + 0.256e-9 x 2003 = 4.000512768 ms;
 *   TTFT 2.004096e12 / 10e12 = 0.2004096 s; latency 0.204410112768 s. */
START_TEST(three_steps_by_hand)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_e2e r;
    p.prompt = 1000;
    p.context = 7; /* ignored: step j sees prompt + j */
    r = e2e_ok(&p, 3);
    ck_assert_int_eq(r.summed, 1);
    GP_ASSERT_REL(r.expected.ttft_s, 0.4008392, 1e-12);
    GP_ASSERT_REL(r.expected.decode_s, 8.04145152e-3, 1e-12);
    GP_ASSERT_REL(r.expected.latency_s, 0.40888065152, 1e-12);
    GP_ASSERT_REL(r.expected.mean_step_s, 8.04145152e-3 / 2.0, 1e-12);
    GP_ASSERT_REL(r.expected.first_step_s, 4.020212992e-3 + 0.512e-9 * 1001, 1e-12);
    GP_ASSERT_REL(r.expected.last_step_s, 4.020212992e-3 + 0.512e-9 * 1002, 1e-12);
    GP_ASSERT_REL(r.expected.output_tokens_per_s, 3.0 / 0.40888065152, 1e-12);
    GP_ASSERT_REL(r.expected.total_tokens_per_s, 1003.0 / 0.40888065152, 1e-12);
    GP_ASSERT_REL(r.expected.output_tokens_per_s, 7.33711, 1e-5);
    ck_assert(isnan(r.expected.crossover_context));
    GP_ASSERT_REL(r.ceiling.ttft_s, 0.2004096, 1e-12);
    GP_ASSERT_REL(r.ceiling.decode_s, 4.000512768e-3, 1e-12);
    GP_ASSERT_REL(r.ceiling.latency_s, 0.204410112768, 1e-12);
    GP_ASSERT_REL(r.ceiling.total_tokens_per_s, 1003.0 / 0.204410112768, 1e-12);
    GP_ASSERT_REL(r.final_context, 1003.0, 0.0);
    ck_assert_int_eq(r.context_exceeds, 0);
    ck_assert_int_eq(r.fits, 1);
    /* One output token: the prefill alone, no decode step. */
    r = e2e_ok(&p, 1);
    GP_ASSERT_REL(r.expected.latency_s, 0.4008392, 1e-12);
    GP_ASSERT_REL(r.expected.decode_s, 0.0, 0.0);
    ck_assert(isnan(r.expected.first_step_s));
    GP_ASSERT_REL(r.ceiling.latency_s, 0.2004096, 1e-12);
}
END_TEST

/* The engine's prefill fraction slows only the prefill's matmuls: the
 * three-token request with the prefill at half the expected rate has TTFT
 * 2.004096e12 / (5e12 x 0.5) = 0.8016384 s (weights 4 ms underneath) +
 * 20 us = 0.8016584 s; the decode steps (8.04145152 ms) and the ceiling's
 * TTFT (0.2004096 s) do not move.  An engine at 0.25: 1.6032768 + 20 us =
 * 1.6032968 s; --prefill-eff (0.5) wins over it.  Outside (0, 1]: refused,
 * naming the option. */
START_TEST(prefill_efficiency_by_hand)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_engine slow = toy_engine;
    gp_infer_e2e r;
    gp_infer_result res;
    gp_err e;
    p.prompt = 1000;
    p.prefill_eff = 0.5;
    r = e2e_ok(&p, 3);
    GP_ASSERT_REL(r.expected.ttft_s, 0.8016584, 1e-12);
    GP_ASSERT_REL(r.expected.decode_s, 8.04145152e-3, 1e-12);
    GP_ASSERT_REL(r.ceiling.ttft_s, 0.2004096, 1e-12);
    slow.prefill_eff = 0.25;
    p.engine = &slow;
    r = e2e_ok(&p, 3);
    GP_ASSERT_REL(r.expected.ttft_s, 0.8016584, 1e-12);
    p.prefill_eff = 0.0;
    r = e2e_ok(&p, 3);
    GP_ASSERT_REL(r.expected.ttft_s, 1.6032968, 1e-12);
    p.prefill_eff = 1.5;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_eval(&p, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--prefill-eff");
    p.prefill_eff = NAN;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_eval(&p, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--prefill-eff");
}
END_TEST

/* From memory- to compute-bound inside one request.  Expected: tc = tm at
 * c* = (4.000212992 - 0.4) ms / (1.6384 - 0.512) ns = 3,196,211.82, so
 * contexts up to 3,196,211 are memory-bound and 3,196,212 on compute-bound.
 * P = 3,195,999, N = 1001 (1000 steps, contexts 3,196,000 on; summed): 212
 * memory-bound steps with mean
 * context 3,196,105.5 (tm = 5.636619008 ms) and 788 compute-bound ones with
 * mean 3,196,605.5 (tc = 5.6373184512 ms), + 1000 x 20 us:
 *   212 x 5.636619008 + 788 x 5.6373184512 + 20 = 5657.170169 ms.
 * Ceiling: tc = 0.2 ms + 0.8192e-9 c against tm = 2 ms + 0.256e-9 c cross
 * at 1.8 ms / 0.5632 ns = 3,196,022.73: 23 memory-bound steps (mean
 * 3,196,011) and 977 compute-bound (mean 3,196,511):
 *   23 x 2.818178816 + 977 x 2.8185818112 = 2818.572542 ms. */
START_TEST(memory_to_compute_bound)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_e2e r;
    double lc, le;
    p.prompt = 3195999;
    r = e2e_ok(&p, 1001);
    ck_assert_int_eq(r.summed, 1);
    GP_ASSERT_REL(r.expected.crossover_context, 3196212.0, 0.0);
    GP_ASSERT_REL(r.ceiling.crossover_context, 3196023.0, 0.0);
    GP_ASSERT_REL(r.expected.decode_s, 5.657170169241599, 1e-11);
    GP_ASSERT_REL(r.ceiling.decode_s, 2.8185725423104, 1e-11);
    /* The same range crossing the kink in closed form: P = 3,193,999, N =
     * 5001 (contexts 3,194,000 .. 3,198,999): 2212 memory-bound steps (mean 3,195,105.5: tm = 5.636107008 ms)
     * and 2788 compute-bound ones (mean 3,197,605.5: tc = 5.6389568512 ms)
     * + 5000 x 20 us = 28,288.480403 ms; and against the step-by-step sum. */
    p.prompt = 3193999;
    r = e2e_ok(&p, 5001);
    ck_assert_int_eq(r.summed, 0);
    ck_assert(r.evals <= 5.0);
    GP_ASSERT_REL(r.expected.crossover_context, 3196212.0, 0.0);
    GP_ASSERT_REL(r.expected.decode_s,
                  2212.0 * 5.636107008e-3 + 2788.0 * 5.6389568512e-3 + 5000.0 * 20e-6, 1e-11);
    GP_ASSERT_REL(r.expected.decode_s, 28.2884804028416, 1e-11);
    loop_sum(&p, 3194000, 5000, &lc, &le);
    GP_ASSERT_REL(r.expected.decode_s, le, 1e-12);
    GP_ASSERT_REL(r.ceiling.decode_s, lc, 1e-12);
}
END_TEST

/* A sliding window on one of the two layers (W = 1500): positions = c up to
 * 1500, (c + 1500) / 2 beyond (inference.md 1.1), a kink the closed form
 * splits at.  P = 999, N = 2001 (contexts 1000 .. 2999): the closed form
 * against the sum of 2000 evaluations; and a request that stays on one
 * side of the window. */
START_TEST(window_kink_closed_form)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_e2e r;
    double lc, le;
    m.window.v = 1500;
    m.window_layers.v = 1;
    p.prompt = 999;
    r = e2e_ok(&p, 2001);
    ck_assert_int_eq(r.summed, 0);
    loop_sum(&p, 1000, 2000, &lc, &le);
    GP_ASSERT_REL(r.expected.decode_s, le, 1e-12);
    GP_ASSERT_REL(r.ceiling.decode_s, lc, 1e-12);
    /* By hand: memory-bound throughout; tm = 4.000212992 ms + 0.512e-9 x
     * pos: contexts 1000..1500 (501, mean pos 1250) and 1501..2999 (1499,
     * mean pos (2250 + 1500) / 2 = 1875):
     * 2000 x 4.020212992 ms + 0.512e-9 x (501 x 1250 + 1499 x 1875). */
    GP_ASSERT_REL(r.expected.decode_s,
                  2000.0 * 4.020212992e-3 + 0.512e-9 * (501.0 * 1250.0 + 1499.0 * 1875.0),
                  1e-12);
    p.prompt = 4999;
    r = e2e_ok(&p, 1501);
    loop_sum(&p, 5000, 1500, &lc, &le);
    GP_ASSERT_REL(r.expected.decode_s, le, 1e-12);
}
END_TEST

/* The same window with a third, linear-attention layer (docs/models/
 * inference.md 1.2): 1,000 state elements, 2,000 B per sequence read and
 * written back each step (4,000 B); the two attending layers cache as
 * before (256 B per position), so the kink stays at the window.  By hand:
 * tm = (2e9 + activations 3 x (10 x 1024 + 4 x 4096) x 2 = 159,744 + 4,000
 * + 256 pos) / 0.5e12 = 4.000327488 ms + 0.512e-9 x pos, movement 3 x 10
 * us; over contexts 1000 .. 2999 as above: 2000 x 4.030327488 ms +
 * 0.512e-9 x (501 x 1250 + 1499 x 1875).  The closed form against the
 * sum of 2000 evaluations. */
START_TEST(linear_layer_closed_form)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_e2e r;
    double lc, le;
    m.layers.v = 3;
    m.linear_layers.v = 1;
    m.linear_state.v = 1000;
    m.window.v = 1500;
    m.window_layers.v = 1;
    p.prompt = 999;
    r = e2e_ok(&p, 2001);
    ck_assert_int_eq(r.summed, 0);
    loop_sum(&p, 1000, 2000, &lc, &le);
    GP_ASSERT_REL(r.expected.decode_s, le, 1e-12);
    GP_ASSERT_REL(r.ceiling.decode_s, lc, 1e-12);
    GP_ASSERT_REL(r.expected.decode_s,
                  2000.0 * 4.030327488e-3 + 0.512e-9 * (501.0 * 1250.0 + 1499.0 * 1875.0),
                  1e-12);
}
END_TEST

/* A million decode steps (P = 999, N = 1,000,001: contexts 1000 ..
 * 1,000,999): closed form from at most five evaluations.  Memory-bound
 * throughout (c < 3.196e6): 1e6 x (4.020212992 ms + 0.512e-9 x mean
 * context 500,999.5) = 1e6 x 4.276724736 ms = 4276.724736 s.  TTFT(999):
 * (2e9 x 999 + 8192 x 999^2 / 2 = 2.002087812096e12) / 5e12 + 20 us =
 * 0.4004375624192 s. */
START_TEST(million_tokens)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_e2e r;
    p.prompt = 999;
    r = e2e_ok(&p, 1e6 + 1.0);
    ck_assert_int_eq(r.summed, 0);
    ck_assert(r.evals <= 6.0);
    GP_ASSERT_REL(r.expected.decode_s, 4276.724736, 1e-12);
    GP_ASSERT_REL(r.expected.mean_step_s, 4.276724736e-3, 1e-12);
    GP_ASSERT_REL(r.expected.latency_s, 0.4004375624192 + 4276.724736, 1e-12);
    ck_assert(isnan(r.expected.crossover_context));
}
END_TEST

START_TEST(bad_input)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_mqa();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_e2e r;
    gp_err e;
    const double bad[] = {0.0, -1.0, 1.5, NAN, INFINITY, 2e9};
    size_t i;
    p.prompt = 100;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_err_clear(&e);
        ck_assert_int_eq(gp_infer_e2e_eval(&p, bad[i], &r, &e), GP_EINVAL);
        ck_assert_msg(strstr(e.msg, "--output") != NULL || strstr(e.where, "--output") != NULL,
                      "%g: %s / %s", bad[i], e.where, e.msg);
    }
    p.prompt = NAN;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_e2e_eval(&p, 10, &r, &e), GP_EINVAL);
    /* No prompt, no prefill: the first output token would cost nothing
     * (TTFT 0, N - 1 steps for N tokens); a request holds at least one
     * prompt token (BOS). */
    p.prompt = 0.0;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_e2e_eval(&p, 10, &r, &e), GP_EINVAL);
    ck_assert_msg(strstr(e.where, "--prompt") != NULL, "%s / %s", e.where, e.msg);
    p.prompt = 1e15;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_e2e_eval(&p, 10, &r, &e), GP_EINVAL);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_e2e_eval(NULL, 10, &r, &e), GP_EINVAL);
    /* Beyond the model's 4M positions: evaluated, flagged. */
    p.prompt = 3999990;
    r = e2e_ok(&p, 20);
    ck_assert_int_eq(r.context_exceeds, 1);
    p.prompt = 3999980;
    r = e2e_ok(&p, 20);
    ck_assert_int_eq(r.context_exceeds, 0);
}
END_TEST

/* ---- MoE prefill: each expert GEMM on its roofline ------------------------ */

/* Toy MoE: one layer, hidden 1000 (8 heads of 125, 8 KV heads), 8 experts of
 * 3 x 1000 x 1000 = 3e6 params, 2 active; 30e6 params, 12e6 active (6e6
 * outside the experts + 2 x 3e6); no embeddings. */
static gp_model toy_moe(void)
{
    gp_model m;
    memset(&m, 0, sizeof m);
    m.id = "toy-moe";
    m.params.v = 30e6;
    m.params_active.v = 12e6;
    m.layers.v = 1;
    m.hidden.v = 1000;
    m.heads.v = 8;
    m.kv_heads.v = 8;
    m.head_dim.v = 125;
    m.ffn_hidden.v = 1000;
    m.expert_ffn_hidden.v = 1000;
    m.experts.v = 8;
    m.experts_active.v = 2;
    m.tied_embeddings = 1;
    return m;
}

/* A 32-token prompt: X = 8 (1 - 0.75^32) = 7.99919638 experts touched, each
 * on 64 / X = 8.0008 rows: 2 x 8.0008 x 3e6 / 5e12 = 9.6 us of math against
 * 6e6 B / 0.5e12 = 12 us of weights -- memory-bound, X x 12 us = 95.99036
 * us.  The rest: 2 x 6e6 x 32 + 4 x 8 x 125 x 32^2/2 = 386.048e6 FLOP /
 * 5e12 = 77.2096 us (its 12e6 B take 24 us).  TTFT = 77.2096 + 95.99036 +
 * 10 (one layer) = 183.19996 us.  One roofline over the whole pass (the old
 * pricing, and still the ceiling's, no overhead): (386.048e6 + 2 x 32 x 2 x
 * 3e6 = 770.048e6) / 10e12 = 77.0048 us against (12e6 + X x 6e6 =
 * 59.99518e6 B) / 1e12 = 59.995 us. */
START_TEST(moe_prefill_expert_roofline)
{
    gp_gpu g = toy_gpu();
    gp_model m = toy_moe();
    gp_infer_params p = toy_params(&g, &m);
    gp_infer_result r;
    gp_err e;
    double X = 8.0 * (1.0 - pow(0.75, 32.0));
    p.prompt = 32;
    p.context = 32;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    GP_ASSERT_REL(r.prefill_experts_touched, 7.99919638, 1e-8);
    GP_ASSERT_REL(r.prefill_expert_rows, 64.0 / X, 1e-12);
    GP_ASSERT_REL(r.prefill_flop, 770.048e6, 1e-12);
    GP_ASSERT_REL(r.expected.ttft_s, 77.2096e-6 + X * 12e-6 + 10e-6, 1e-12);
    GP_ASSERT_REL(r.expected.ttft_s, 183.19996e-6, 1e-7);
    GP_ASSERT_REL(r.ceiling.ttft_s, 77.0048e-6, 1e-12);
    /* A 4096-token prompt: 1024 rows per expert, 2 x 1024 x 3e6 / 5e12 =
     * 1.2288 ms each against 12 us: compute-bound, and the sum of the
     * rooflines is the one roofline: (2 x 12e6 x 4096 + 4000 x 4096^2/2 =
     * 131.858432e9 FLOP) / 5e12 = 26.3716864 ms + 10 us. */
    p.prompt = 4096;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    GP_ASSERT_REL(r.prefill_expert_rows, 1024.0, 1e-12);
    GP_ASSERT_REL(r.expected.ttft_s, 26.3716864e-3 + 10e-6, 1e-12);
}
END_TEST

/* ---- CLI ------------------------------------------------------------------- */

START_TEST(cli_output)
{
    /* The identities of the block, on a database model: latency = TTFT +
     * decode; TTFT is the --prompt figure; the first decode step is the
     * step at context P + 1 (the prefill gave the first token); output = N
     * / latency; total = (P + N) / latency; mean step = decode / (N - 1). */
    const char *a[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-3.1-8b",
                       "--prompt", "1024", "--output", "16", NULL};
    const char *big[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-3.1-8b",
                         "--prompt", "1K", "--output", "100K", NULL};
    const char *next[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-3.1-8b",
                          "--context", "1025", NULL};
    json_t *o = gp_test_cli_json(next);
    double step1 = gp_test_jnum(o, "expected_step_s");
    double lat, clat;
    json_decref(o);
    o = gp_test_cli_json(a);
    lat = gp_test_jnum(o, "e2e_latency_s");
    GP_ASSERT_REL(lat, gp_test_jnum(o, "e2e_ttft_s") + gp_test_jnum(o, "e2e_decode_s"), 1e-9);
    GP_ASSERT_REL(gp_test_jnum(o, "e2e_ttft_s"), gp_test_jnum(o, "ttft_s"), 1e-9);
    GP_ASSERT_REL(gp_test_jnum(o, "e2e_first_step_s"), step1, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(o, "e2e_output_tokens_per_s"), 16.0 / lat, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(o, "e2e_total_tokens_per_s"), 1040.0 / lat, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(o, "mean_step_s"), gp_test_jnum(o, "e2e_decode_s") / 15.0, 1e-9);
    clat = gp_test_jnum(o, "ceiling_e2e_latency_s");
    ck_assert(clat < lat);
    GP_ASSERT_REL(gp_test_jnum(o, "ceiling_e2e_output_tokens_per_s"), 16.0 / clat, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(o, "ceiling_mean_step_s"),
                  gp_test_jnum(o, "ceiling_e2e_decode_s") / 15.0, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(o, "e2e_method")), "summed");
    json_decref(o);
    /* Two output tokens: the prefill and one decode step, said so. */
    {
        const char *two[] = {"decode", "--gpu", "h100", "--model", "llama-3.1-8b", "--prompt",
                             "1024", "--output", "2", NULL};
        char *out = NULL;
        ck_assert_int_eq(gp_test_cli(two, &out, NULL), 0);
        ck_assert_ptr_nonnull(out);
        ck_assert_ptr_nonnull(strstr(out, "1 step, each step evaluated"));
        ck_assert_ptr_null(strstr(out, "1 steps"));
        free(out);
    }
    /* Count suffixes; a long output in closed form. */
    o = gp_test_cli_json(big);
    GP_ASSERT_REL(gp_test_jnum(o, "output"), 100000.0, 0.0);
    GP_ASSERT_REL(gp_test_jnum(o, "e2e_prompt"), 1000.0, 0.0);
    ck_assert_str_eq(json_string_value(json_object_get(o, "e2e_method")), "closed_form");
    json_decref(o);
}
END_TEST

/* A figure below 1 tok/s keeps three significant figures in the text (it
 * printed "0.0 tok/s" for an hour-long request): the text's number is the
 * JSON's e2e_output_tokens_per_s rounded to 3 figures. */
START_TEST(cli_output_slow_rate_digits)
{
    const char *j[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-3.1-8b",
                       "--prompt", "100", "--output", "1000000000", NULL};
    const char *t[] = {"decode", "--gpu", "h100", "--model", "llama-3.1-8b", "--prompt", "100",
                       "--output", "1000000000", NULL};
    json_t *o = gp_test_cli_json(j);
    double v = gp_test_jnum(o, "e2e_output_tokens_per_s");
    char want[64], *out = NULL;
    json_decref(o);
    ck_assert(v > 0.001 && v < 0.95);
    snprintf(want, sizeof want, "%.*f tok/s", 2 - (int)floor(log10(v)), v);
    ck_assert_int_eq(gp_test_cli(t, &out, NULL), 0);
    ck_assert_msg(strstr(out, want) != NULL, "want '%s'", want);
    ck_assert_ptr_null(strstr(out, " 0.0 tok/s"));
    free(out);
}
END_TEST

START_TEST(cli_output_context)
{
    /* Llama 2 7B holds 4096 positions: 4000 + 200 = 4200 beyond it, a
     * warning, exit 2 with --strict, naming --output. */
    const char *warn[] = {"decode", "--gpu", "a100", "--model", "llama-2-7b", "--prompt",
                          "4000", "--output", "200", NULL};
    const char *strict[] = {"decode", "--gpu", "a100", "--model", "llama-2-7b", "--prompt",
                            "4000", "--output", "200", "--strict", NULL};
    const char *byctx[] = {"decode", "--gpu", "a100", "--model", "llama-2-7b", "--context",
                           "4000", "--output", "97", "--strict", NULL};
    const char *ok[] = {"decode", "--gpu", "a100", "--model", "llama-2-7b", "--prompt", "4000",
                        "--output", "96", "--strict", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(warn, &out, &err), 0);
    ck_assert_msg(strstr(err, "warning: --prompt 4000 + --output 200 = 4200 tokens exceeds") !=
                      NULL, "stderr: %s", err);
    ck_assert_ptr_nonnull(strstr(out, "end to end"));
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(strict, NULL, &err), 2);
    ck_assert_msg(strstr(err, "error: --prompt 4000 + --output 200") != NULL, "stderr: %s", err);
    free(err);
    /* Without --prompt the prompt is the --context. */
    ck_assert_int_eq(gp_test_cli(byctx, NULL, &err), 2);
    ck_assert_msg(strstr(err, "--context 4000 + --output 97 = 4097") != NULL, "stderr: %s", err);
    free(err);
    ck_assert_int_eq(gp_test_cli(ok, NULL, NULL), 0);
}
END_TEST

/* TensorRT-LLM's peak-throughput table (docs/source/performance.md, v0.6.1;
 * docs/models/inference.md 5.2): static batches of B prompts of P tokens
 * decoding N, output tokens/s per GPU = B N / e2e latency; H100 builds
 * with an FP8 KV cache, A100 FP16.  The one-GPU rows within 35 % (they
 * read -13 % to +29 %); not fitted. */
START_TEST(trt_peak_throughput_rows)
{
    static const struct {
        const char *gpu, *w, *model, *kv;
        double b, p, n, measured;
    } rows[] = {
        {"h100-sxm", "fp8-e4m3", "gpt-j-6b", "fp8", 1024, 128, 128, 26150},
        {"h100-sxm", "fp8-e4m3", "gpt-j-6b", "fp8", 120, 128, 2048, 8011},
        {"h100-sxm", "fp8-e4m3", "gpt-j-6b", "fp8", 64, 2048, 128, 2551},
        {"h100-sxm", "fp8-e4m3", "gpt-j-6b", "fp8", 64, 2048, 2048, 3327},
        {"h100-sxm", "fp8-e4m3", "llama-2-7b", "fp8", 768, 128, 128, 19694},
        {"h100-sxm", "fp8-e4m3", "llama-2-7b", "fp8", 112, 128, 2048, 6818},
        {"h100-sxm", "fp8-e4m3", "llama-2-7b", "fp8", 80, 2048, 128, 2244},
        {"h100-sxm", "fp8-e4m3", "llama-2-7b", "fp8", 48, 2048, 2048, 2740},
        {"a100-sxm-80gb", "fp16", "gpt-j-6b", "fp16", 512, 128, 128, 6374},
        {"a100-sxm-80gb", "fp16", "gpt-j-6b", "fp16", 60, 2048, 128, 670},
        {"a100-sxm-80gb", "fp16", "llama-2-7b", "fp16", 384, 128, 128, 5586},
        {"a100-sxm-80gb", "fp16", "llama-2-7b", "fp16", 60, 128, 2048, 1928},
        {"a100-sxm-80gb", "fp16", "llama-2-7b", "fp16", 52, 2048, 128, 591},
    };
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char b[32], pr[32], n[32];
        const char *argv[] = {"--json", "decode", "--gpu", rows[i].gpu, "--model", rows[i].model,
                              "--weights", rows[i].w, "--kv", rows[i].kv, "--engine",
                              "tensorrt-llm", "--batch", b, "--prompt", pr, "--output", n, NULL};
        json_t *j;
        double tps;
        snprintf(b, sizeof b, "%.0f", rows[i].b);
        snprintf(pr, sizeof pr, "%.0f", rows[i].p);
        snprintf(n, sizeof n, "%.0f", rows[i].n);
        j = gp_test_cli_json(argv);
        tps = rows[i].b * rows[i].n / gp_test_jnum(j, "e2e_latency_s");
        ck_assert_msg(fabs(tps / rows[i].measured - 1.0) <= 0.35, "%s %s B %s %s/%s: %.0f vs %.0f",
                      rows[i].gpu, rows[i].model, b, pr, n, tps, rows[i].measured);
        ck_assert(json_is_true(json_object_get(j, "e2e_fits")));
        json_decref(j);
    }
}
END_TEST

/* An option given twice: with the same value it is one option (the
 * output equals the single option's), a flag twice likewise; with two
 * values it is refused (bad-input rows 418-420), for every command's
 * table and after a reset (a second command in the same process). */
START_TEST(repeated_options)
{
    const char *once[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-2-7b", NULL};
    const char *twice[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-2-7b", "--gpu",
                           "h100", NULL};
    const char *flags[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                           "1GiB", "--sweep", "--sweep", NULL};
    const char *clash[] = {"scale", "--gpu", "h100", "--params", "7B", "--step-compute-s", "1",
                           "--gpus", "1,2", "--gpus", "1,4", NULL};
    char *a = NULL, *b = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(once, &a, NULL), 0);
    ck_assert_int_eq(gp_test_cli(twice, &b, NULL), 0);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    ck_assert_int_eq(gp_test_cli(flags, &a, NULL), 0);
    free(a);
    ck_assert_int_eq(gp_test_cli(clash, &a, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "option '--gpus' given twice ('1,2', then '1,4')"));
    free(a);
    free(err);
}
END_TEST

/* Field K of a CSV line starting at P (quotes honoured, "" inside quotes
 * kept as one ") into buf; returns buf, or NULL past the line's end. */
static const char *csv_nth(const char *p, int k, char *buf, size_t n)
{
    int col = 0, q = 0;
    size_t o = 0;
    for (; *p != '\0' && (q || *p != '\n'); p++) {
        if (*p == '"') {
            if (q && p[1] == '"') {
                if (col == k && o + 1 < n)
                    buf[o++] = '"';
                p++;
            } else {
                q = !q;
            }
        } else if (*p == ',' && !q) {
            if (col == k)
                break;
            col++;
        } else if (col == k && o + 1 < n) {
            buf[o++] = *p;
        }
    }
    buf[o] = '\0';
    return col == k ? buf : NULL;
}

/* The value under column NAME in a two-line CSV (header, values), or NULL
 * (a static buffer). */
static const char *csv_field(const char *csv, const char *name)
{
    static char val[4096];
    char h[512];
    const char *nl = strchr(csv, '\n');
    int k;
    if (nl == NULL)
        return NULL;
    for (k = 0; csv_nth(csv, k, h, sizeof h) != NULL; k++)
        if (strcmp(h, name) == 0)
            return csv_nth(nl + 1, k, val, sizeof val);
    return NULL;
}

/* --csv on a command without rows prints its JSON object as one header
 * and one value line: the same figures (train's gpu_days; a nested key
 * joined by '.'; decode's bound as a quoted string). */
START_TEST(csv_one_row)
{
    const char *tj[] = {"--json", "train", "--gpu", "a100", "--model", "llama-2-7b", "--tokens",
                        "2T", "--gpus", "1024", NULL};
    const char *tc[] = {"--csv", "train", "--gpu", "a100", "--model", "llama-2-7b", "--tokens",
                        "2T", "--gpus", "1024", NULL};
    const char *dc[] = {"--csv", "decode", "--gpu", "h100", "--model", "llama-2-7b", NULL};
    char *out = NULL;
    const char *f;
    json_t *j = gp_test_cli_json(tj);
    ck_assert_int_eq(gp_test_cli(tc, &out, NULL), 0);
    f = csv_field(out, "gpu_days");
    ck_assert_ptr_nonnull(f);
    GP_ASSERT_REL(strtod(f, NULL), gp_test_jnum(j, "gpu_days"), 1e-12);
    f = csv_field(out, "ledger.compute_s");
    ck_assert_ptr_nonnull(f);
    GP_ASSERT_REL(strtod(f, NULL),
                  json_number_value(json_object_get(json_object_get(j, "ledger"), "compute_s")),
                  1e-12);
    ck_assert_ptr_nonnull(strchr(strchr(out, '\n') + 1, '\n'));
    ck_assert(*(strchr(strchr(out, '\n') + 1, '\n') + 1) == '\0'); /* two lines */
    free(out);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(dc, &out, NULL), 0);
    f = csv_field(out, "bound");
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f, "memory");
    free(out);
}
END_TEST

/* decode says the options that price nothing, as allreduce and scale
 * do: one GPU's split, an MoE cost on a dense model, the prefill's
 * efficiency without a prefill; and stays quiet where they price. */
START_TEST(decode_notes_ignored_options)
{
    static const char *const cases[][3] = {
        {"--split", "layer", "--split ignored: one GPU"},
        {"--moe-layer-overhead", "1us", "--moe-layer-overhead ignored: llama-2-7b has no"},
        {"--prefill-eff", "0.5", "--prefill-eff ignored: no prefill is priced"},
    };
    const char *quiet[] = {"decode", "--gpu", "h100", "--model", "llama-2-7b", "--prompt", "512",
                           "--prefill-eff", "0.5", NULL};
    size_t k;
    char *out = NULL, *err = NULL;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *argv[] = {"decode", "--gpu", "h100", "--model", "llama-2-7b", cases[k][0],
                              cases[k][1], NULL};
        ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
        ck_assert_msg(strstr(err, cases[k][2]) != NULL, "%s: %s", cases[k][0], err);
        free(out);
        free(err);
    }
    ck_assert_int_eq(gp_test_cli(quiet, &out, &err), 0);
    ck_assert_msg(strstr(err, "ignored") == NULL, "%s", err);
    free(out);
    free(err);
    {
        /* Every ignored option in one note; nodes of one GPU use no
         * scale-up link. */
        const char *many[] = {"decode", "--gpu", "h100", "--model", "llama-2-7b", "--split",
                              "layer", "--link-bw", "10GB/s", "--link-latency", "1us", NULL};
        const char *lone[] = {"decode", "--gpu", "h100", "--model", "llama-2-7b", "--gpus", "4",
                              "--gpus-per-node", "1", "--scale-out", "ib-ndr", "--link-bw",
                              "1kB/s", NULL};
        ck_assert_int_eq(gp_test_cli(many, &out, &err), 0);
        ck_assert_msg(strstr(err, "--split, --link-bw and --link-latency ignored: one GPU") !=
                          NULL,
                      "%s", err);
        free(out);
        free(err);
        ck_assert_int_eq(gp_test_cli(lone, &out, &err), 0);
        ck_assert_msg(strstr(err, "--link-bw ignored: nodes of one GPU talk only over "
                                  "--scale-out") != NULL,
                      "%s", err);
        free(out);
        free(err);
    }
}
END_TEST

/* decode --json writes its counts as JSON integers, as train, allreduce
 * and scale do (a strict schema tells 2 from 2.0). */
START_TEST(decode_counts_are_integers)
{
    static const char *const keys[] = {"gpus", "batch", "context", "prompt", "layers",
                                       "kv_positions", "e2e_prompt", "e2e_final_context",
                                       "max_batch"};
    const char *argv[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-2-7b",
                          "--prompt", "512", "--output", "128", NULL};
    json_t *j = gp_test_cli_json(argv);
    size_t k;
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(json_is_integer(json_object_get(j, keys[k])), "%s is not an integer",
                      keys[k]);
    /* 512 prompt tokens and 128 out: each sequence ends holding P + N = 640. */
    ck_assert_int_eq(json_integer_value(json_object_get(j, "e2e_final_context")), 640);
    json_decref(j);
}
END_TEST

Suite *gp_test_suite_e2e(void)
{
    Suite *s = suite_create("e2e");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, three_steps_by_hand);
    tcase_add_test(tc, prefill_efficiency_by_hand);
    tcase_add_test(tc, memory_to_compute_bound);
    tcase_add_test(tc, window_kink_closed_form);
    tcase_add_test(tc, linear_layer_closed_form);
    tcase_add_test(tc, million_tokens);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, moe_prefill_expert_roofline);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cli_output);
    tcase_add_test(tc, cli_output_slow_rate_digits);
    tcase_add_test(tc, cli_output_context);
    tcase_add_test(tc, trt_peak_throughput_rows);
    tcase_add_test(tc, repeated_options);
    tcase_add_test(tc, csv_one_row);
    tcase_add_test(tc, decode_notes_ignored_options);
    tcase_add_test(tc, decode_counts_are_integers);
    suite_add_tcase(s, tc);
    return s;
}
