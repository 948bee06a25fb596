/* Training planner: FLOP counts, time, profile mode, memory, cost, CLI.
 * Every expectation is derived by hand in the comment beside it, from the
 * published figures in ../shared/reference (sources quoted). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* ---- hand-built hardware (until/besides the database) ------------------- */

/* NVIDIA H100 SXM5 datasheet / whitepaper: dense BF16 Tensor 989.4 TFLOP/s
 * (fp32 accumulate), 80 GiB HBM3, 700 W. */
static gp_gpu h100(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "h100-test";
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 989.4e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 989.4e12;
    g.peak[GP_FP8][GP_PIPE_TENSOR].v = 1978.9e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 66.9e12;
    g.mem_capacity.v = 85899345920.0; /* 80 GiB */
    g.tdp.v = 700.0;
    return g;
}

/* NVIDIA A100 80GB SXM4 datasheet: dense BF16/FP16 Tensor 312 TFLOP/s,
 * TF32 156, FP32 19.5; no FP8; 80 GiB HBM2e; 400 W. */
static gp_gpu a100(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "a100-test";
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 312e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 312e12;
    g.peak[GP_TF32][GP_PIPE_TENSOR].v = 156e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 19.5e12;
    g.mem_capacity.v = 85899345920.0; /* 80 GiB */
    g.tdp.v = 400.0;
    return g;
}

/* A dense shape: L layers, hidden h, `heads` heads of h/heads, FFN f with
 * kk matrices, vocabulary V. */
static gp_train_shape mk_shape(double L, double h, double heads, double f, double kk, double V)
{
    gp_train_shape s;
    memset(&s, 0, sizeof s);
    s.layers = L;
    s.hidden = h;
    s.heads = heads;
    s.ffn_hidden = f;
    s.ffn_matrices = kk;
    s.vocab = V;
    return s;
}

/* Llama 2 7B public config: 32 layers, hidden 4096, 32 heads (MHA), SwiGLU
 * FFN 11008, vocab 32000, context 4096, 6.74e9 parameters. */
static gp_model llama2_7b(void)
{
    gp_model m;
    memset(&m, 0, sizeof m);
    m.id = "llama-2-7b-test";
    m.params.v = 6.74e9;
    m.layers.v = 32;
    m.hidden.v = 4096;
    m.heads.v = 32;
    m.kv_heads.v = 32;
    m.ffn_hidden.v = 11008;
    m.vocab.v = 32000;
    m.context.v = 4096;
    return m;
}

static gp_train_result run_ok(const gp_train_in *in)
{
    gp_train_result r;
    gp_err e;
    char buf[1024];
    gp_err_clear(&e);
    ck_assert_msg(gp_train_estimate(in, NULL, &r, &e) == GP_OK, "estimate failed: %s",
                  gp_err_format(&e, buf, sizeof buf));
    return r;
}

/* ---- compute and time ---------------------------------------------------- */

START_TEST(gpt3_on_h100)
{
    /* Source article rows 5-6 (seed digest): 6 x 175e9 x 300e9 = 3.15e23 FLOP.
     * H100 SXM dense BF16 989.4e12 FLOP/s:
     *   MFU 0.5: 3.15e23 / (989.4e12 x 0.5) = 6.3675e8 s / 86400 = 7,369.8 GPU-days
     *   MFU 0.4: 3.15e23 / 3.9576e14 / 86400 = 9,212.2
     *   MFU 0.6: 3.15e23 / 5.9364e14 / 86400 = 6,141.5 */
    gp_gpu g = h100();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 175e9;
    in.tokens = 300e9;
    in.mfu = 0.5;
    r = run_ok(&in);
    GP_ASSERT_REL(r.model_flop, 3.15e23, 1e-12);
    GP_ASSERT_REL(r.peak_flop_per_s, 989.4e12, 1e-12);
    ck_assert_int_eq(r.precision, GP_BF16);
    GP_ASSERT_REL(r.gpu_days, 7370.0, 5e-4);
    GP_ASSERT_REL(r.wall_days, 7370.0, 5e-4); /* one GPU */
    in.mfu = 0.4;
    r = run_ok(&in);
    GP_ASSERT_REL(r.gpu_days, 9210.0, 5e-4);
    in.mfu = 0.6;
    r = run_ok(&in);
    GP_ASSERT_REL(r.gpu_days, 6140.0, 5e-4);
    /* 1024 GPUs at MFU 0.6: wall = 6,141.49 / 1024 = 5.998 days; tokens/s
     * per GPU = peak x MFU / FLOP per token = 0.6 x 989.4e12 / (6 x 175e9)
     * = 565.4. */
    in.gpus = 1024;
    r = run_ok(&in);
    GP_ASSERT_REL(r.wall_days, 6141.49 / 1024.0, 1e-4);
    GP_ASSERT_REL(r.tokens_per_s_per_gpu, 0.6 * 989.4e12 / 1.05e12, 1e-9);
    /* The ceiling (MFU = 1): 3.15e23 / 989.4e12 / 86400 = 3,684.9 GPU-days. */
    GP_ASSERT_REL(r.ceiling_gpu_days, 3684.89, 1e-5);
    ck_assert_int_eq(r.ledger.binding, GP_ACCT_COMPUTE);
    GP_ASSERT_REL(r.ledger.total, r.wall_s, 1e-12);
}
END_TEST

START_TEST(llama65b_profile_mode)
{
    /* LLaMA paper §2.4 (Touvron et al. 2023): 380 tokens/s/GPU on 2048 A100-80GB,
     * 1.4e12 tokens, "approximately 21 days".  Model FLOPs 6 x 65.2e9 x 1.4e12
     * = 5.4768e23.  A step of 1,556,480 tokens (= 2 s x 380 x 2048) in 2 s:
     *   tokens/s/GPU = 1,556,480 / 2 / 2048 = 380
     *   wall = 1.4e12 / (380 x 2048) = 1,798,931 s = 20.82 days
     *   implied MFU = 6 x 65.2e9 x 380 / 312e12 = 1.48656e14 / 3.12e14 = 0.4765 */
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 65.2e9;
    in.tokens = 1.4e12;
    in.gpus = 2048;
    in.step_time = 2.0;
    in.tokens_per_step = 1556480.0;
    r = run_ok(&in);
    GP_ASSERT_REL(r.model_flop, 5.4768e23, 1e-12);
    ck_assert_int_eq(r.profiled, 1);
    GP_ASSERT_REL(r.tokens_per_s_per_gpu, 380.0, 1e-12);
    GP_ASSERT_REL(r.wall_days, 20.821, 1e-4);
    GP_ASSERT_REL(r.mfu, 0.47646, 1e-4);
    ck_assert_int_eq(r.mfu_origin, GP_MFU_PROFILE);
    /* GPU-hours: 1,798,931 s x 2048 / 3600 = 1,023,391 h; the paper's Table 15
     * reports 1,022,362 (its own accounting): within 0.2 %. */
    GP_ASSERT_REL(r.gpu_hours, 1022362.0, 2e-3);
}
END_TEST

START_TEST(published_gpu_hours_at_default_mfu)
{
    /* A default MFU is quoted on the PaLM count, 6N + 12 s q L per token (the
     * whole s^2 attention; q = heads x head_dim), at selective recompute; at
     * selective it restates on 6ND as MFU x 6N / (6N + 12 s q L), so the time
     * is (6N + 12 s q L) D / (peak x MFU).  A100 dense BF16 312e12.
     * Llama 2 7B shape (L 32, q 4096, s 4096), N 6.74e9, D 2e12 (Llama 2
     * paper, arXiv 2307.09288, Table 2: 184,320 A100-80GB hours):
     *   12 s q L = 12 x 4096 x 4096 x 32 = 6,442,450,944
     *   6N = 40,440,000,000 -> 46,882,450,944 FLOP per token
     *   fallback 0.40: 9.3765e22 / (312e12 x 0.40 x 3600) = 208,700 h (+13 %)
     *   MFU on 6ND: 0.40 x 40.44 / 46.882 = 0.345033
     *   database 0.47: 9.3765e22 / (312e12 x 0.47 x 3600) = 177,617 h (-3.6 %)
     * LLaMA-65B shape (L 80, q 8192, s 2048), N 65.2e9, D 1.4e12 (LLaMA paper,
     * arXiv 2302.13971, Table 15: 1,022,362 h):
     *   12 s q L = 16,106,127,360; 6N = 391,200,000,000 -> 407,306,127,360
     *   database 0.47: 5.7023e23 / (312e12 x 0.47 x 3600) = 1,080,175 h (+5.7 %) */
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_train_params p;
    gp_train_shape s;
    gp_train_params_init(&p);
    GP_ASSERT_REL(p.mfu_fallback, 0.40, 0);
    s = mk_shape(32, 4096, 32, 11008, 3, 32000);
    gp_train_in_init(&in);
    in.gpu = &g;
    in.shape = &s;
    in.params = 6.74e9;
    in.seq = 4096;
    in.tokens = 2e12;
    r = run_ok(&in);
    ck_assert_int_eq(r.mfu_origin, GP_MFU_FALLBACK);
    GP_ASSERT_REL(r.mfu, 0.345033, 1e-5);
    /* Restated on the PaLM count it is the quoted figure again. */
    GP_ASSERT_REL(r.palm_flop_per_token, 46882450944.0, 1e-12);
    GP_ASSERT_REL(r.mfu_palm, 0.40, 1e-12);
    GP_ASSERT_REL(r.gpu_hours, 208700.37, 1e-6);
    GP_ASSERT_REL(r.gpu_hours, 184320.0, 0.15);
    /* A database MFU wins over the fallback. */
    g.eff_mfu.v = 0.47;
    g.eff_mfu.src = "test source";
    r = run_ok(&in);
    ck_assert_int_eq(r.mfu_origin, GP_MFU_DATABASE);
    ck_assert_str_eq(r.mfu_src, "test source");
    GP_ASSERT_REL(r.gpu_hours, 177617.34, 1e-6);
    GP_ASSERT_REL(r.gpu_hours, 184320.0, 0.05);
    /* The count does not move the time: --exact restates the MFU only. */
    in.count = GP_COUNT_EXACT;
    {
        gp_train_result rx = run_ok(&in);
        GP_ASSERT_REL(rx.gpu_hours, 177617.34, 1e-6);
        GP_ASSERT_REL(rx.model_flop_per_token / rx.mfu, r.model_flop_per_token / r.mfu, 1e-12);
    }
    in.count = GP_COUNT_6ND;
    s.layers = 80;
    s.hidden = 8192;
    s.heads = 64;
    s.ffn_hidden = 22016;
    in.params = 65.2e9;
    in.seq = 2048;
    in.tokens = 1.4e12;
    r = run_ok(&in);
    GP_ASSERT_REL(r.gpu_hours, 1080174.76, 1e-6);
    GP_ASSERT_REL(r.gpu_hours, 1022362.0, 0.10);
}
END_TEST

START_TEST(default_mfu_other_precision)
{
    /* A default MFU is quoted for the 16-bit training precision; FP8 doubles
     * only the GEMMs' peak.  Toy Hopper: bf16 1000e12, fp8 2000e12, fp32
     * (CUDA) 62.5e12, efficiency.compute 0.80, efficiency.mfu 0.40; Llama 2
     * 7B shape, N 6.74e9, s 4096, selective:
     *   A = 4 x 4096 x 4096 x 32 = 2,147,483,648; M_ref = 6N + 3A =
     *   46,882,450,944; HFU_ref = 0.40 x (M_ref + A)/M_ref = 0.40 x
     *   1.0458057 = 0.4183223; GEMM share gs = 0.4183223 / 0.80 = 0.5229029
     *   fp8:  time = bf16 time x (gs x 1000/2000 + 1 - gs) = x 0.7385486;
     *         MFU (6ND, fp8 peak) = 0.40 x 0.5 / 0.7385486 x 6N / M_ref
     *         = 0.2335887  (efficiency.compute_fp8 0.80, as BF16's)
     *   fp8 without efficiency.compute_fp8: the FP8 GEMM reaches 0.80 x
     *         0.8826489 (GP_EFF_NARROW_RATIO = (1402.6/1978.9)/(794.5/989.4))
     *         of its peak: x (gs x 0.5/0.8826489 + 1 - gs) = x (0.5229029 x
     *         0.5664767 + 0.4770971) = x 0.7733094; MFU 0.40 x 0.5 /
     *         0.7733094 x 6N / M_ref = 0.2230887
     *   fp32: 32-bit activations double the rest: x (gs x 16 + (1 - gs) x 2)
     *         = x 9.3206399 of the bf16 time. */
    gp_gpu g;
    gp_train_shape s = mk_shape(32, 4096, 32, 11008, 3, 32000);
    gp_train_in in;
    gp_train_result rb, r8, r32;
    memset(&g, 0, sizeof g);
    g.id = "hopper-toy";
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 1000e12;
    g.peak[GP_FP8][GP_PIPE_TENSOR].v = 2000e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 62.5e12;
    g.eff_compute.v = 0.80;
    g.eff_compute_fp8.v = 0.80;
    g.eff_mfu.v = 0.40;
    g.mem_capacity.v = 85899345920.0;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.shape = &s;
    in.params = 6.74e9;
    in.seq = 4096;
    in.tokens = 1e12;
    rb = run_ok(&in);
    GP_ASSERT_REL(rb.mfu, 0.40 * 6 * 6.74e9 / 46882450944.0, 1e-12);
    GP_ASSERT_REL(rb.mfu_precision_scale, 1.0, 0);
    in.precision = GP_FP8;
    in.precision_set = 1;
    r8 = run_ok(&in);
    GP_ASSERT_REL(r8.mfu, 0.2335887, 1e-6);
    GP_ASSERT_REL(r8.gpu_hours, rb.gpu_hours * 0.7385486, 1e-6);
    GP_ASSERT_REL(r8.mfu_precision_scale, 1.0 / 0.7385486, 1e-6);
    GP_ASSERT_REL(r8.mfu_reference, 0.40, 0);
    g.eff_compute_fp8.v = 0.0;
    r8 = run_ok(&in);
    GP_ASSERT_REL(r8.mfu, 0.2230887, 1e-6);
    GP_ASSERT_REL(r8.gpu_hours, rb.gpu_hours * 0.7733094, 1e-6);
    in.precision = GP_FP32;
    in.precision_set = 1;
    r32 = run_ok(&in);
    GP_ASSERT_REL(r32.gpu_hours, rb.gpu_hours * 9.3206399, 1e-6);
    /* A given MFU is used as it is, on the precision's own peak. */
    in.precision = GP_FP8;
    in.precision_set = 1;
    in.mfu = 0.3;
    r8 = run_ok(&in);
    GP_ASSERT_REL(r8.mfu, 0.3, 0);
}
END_TEST

START_TEST(recompute_megatron_8n_and_eq3)
{
    /* Megatron convention (Narayanan et al. 2021): full recompute adds one
     * forward pass, 2N per token, so hardware FLOPs are 8ND against the 6ND
     * model FLOPs; HFU = MFU x 8/6. */
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_train_shape s;
    double B = 512, S = 2048, l = 24, h = 2304, V = 51200, eq3;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 7e9;
    in.tokens = 1e9;
    in.mfu = 0.45;
    in.recompute = GP_RECOMPUTE_FULL;
    r = run_ok(&in);
    GP_ASSERT_REL(r.model_flop, 6.0 * 7e9 * 1e9, 1e-12);
    GP_ASSERT_REL(r.hardware_flop, 8.0 * 7e9 * 1e9, 1e-12);
    GP_ASSERT_REL(r.hfu, 0.45 * 8.0 / 6.0, 1e-12);
    /* Time is set by model FLOPs and MFU alone: 4.2e19 / (312e12 x 0.45). */
    GP_ASSERT_REL(r.gpu_seconds, 4.2e19 / (312e12 * 0.45), 1e-12);

    /* Exact count with full recompute reproduces Megatron eq. 3 for one
     * iteration of its Table 1 GPT 1.7B (h 2304, l 24, s 2048, V 51200,
     * B 512 sequences, FFN 4h, 2 matrices):
     *   96 B s l h^2 (1 + s/(6h) + V/(16 l h)).
     * N is the run's 1.7e9 (eq. 3 does not use it): with the 7e9 above, MFU
     * 0.45 on this shape's exact count would be 0.45 x (6 x 7e9 + 12 s h l)
     * / (72 l h^2 (1 + s/6h + V/12lh)) = 0.45 x 4.336e10 / 1.124e10 = 1.74
     * on the PaLM count: refused (section 2). */
    s = mk_shape(l, h, 24, 4 * h, 2, V);
    in.shape = &s;
    in.params = 1.7e9;
    in.seq = S;
    in.tokens = B * S;
    in.count = GP_COUNT_EXACT;
    r = run_ok(&in);
    eq3 = 96.0 * B * S * l * h * h * (1.0 + S / (6.0 * h) + V / (16.0 * l * h));
    GP_ASSERT_REL(r.hardware_flop, eq3, 1e-12);
    /* Without recompute the same count is 72 B s l h^2 (1 + s/6h + V/12lh). */
    in.recompute = GP_RECOMPUTE_NONE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.hardware_flop,
                  72.0 * B * S * l * h * h * (1.0 + S / (6.0 * h) + V / (12.0 * l * h)), 1e-12);
    GP_ASSERT_REL(r.hardware_flop, r.model_flop, 1e-15);
    /* Selective recompute adds only the attention core, 4 s h l per token:
     * 4 x 2048 x 2304 x 24 x (512 x 2048) FLOP. */
    in.recompute = GP_RECOMPUTE_SELECTIVE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.hardware_flop - r.model_flop, 4.0 * S * h * l * B * S, 1e-9);
}
END_TEST

START_TEST(default_mfu_scales_with_recompute)
{
    /* A default MFU is quoted on the PaLM count at selective recompute: M_ref
     * = 6N + 3A per token with A = 4 s q L the attention core forward, and
     * the hardware then runs M_ref + A (selective re-runs the core).  That
     * hardware rate carries over: the run's own work on the same count is W
     * = 6N + 3A + extra (selective: A; full: 2N + A; none: 0), its time per
     * token W / (peak x MFU x (M_ref + A)/M_ref), and its MFU is restated on
     * its count.  Megatron Table 1 GPT 1.7B shape (l 24, h 2304, 24 heads,
     * FFN 4h with 2 matrices, V 51200, s 2048), N 1.7e9, exact count,
     * fallback MFU 0.40.  Per token:
     *   A = 4 x 2048 x 2304 x 24 = 452,984,832;  6N = 10,200,000,000
     *   M_ref = 11,558,954,496;  M_ref + A = 12,011,939,328
     *   W: full 15,411,939,328, selective 12,011,939,328, none 11,558,954,496
     * Exact counts (forward x 3, non-causal): l h^2 = 127,401,984,
     * s l h = 113,246,208:
     *   model = 72 l h^2 + 12 s l h + 6 h V = 11,239,686,144
     *   full hardware = model + 24 l h^2 + 4 s l h = 14,750,318,592
     * full:      MFU = 0.40 x 12,011,939,328 / 11,558,954,496
     *                  x 11,239,686,144 / 15,411,939,328 = 0.303146
     *            HFU = MFU x 14,750,318,592 / 11,239,686,144 = 0.397831
     * selective: MFU = 0.40 x 11,239,686,144 / 11,558,954,496 = 0.388952
     * none:      MFU = 0.40 x 12,011,939,328 / 11,558,954,496
     *                  x 11,239,686,144 / 11,558,954,496 = 0.404194
     * Measured: Megatron reports 137 TFLOP/s (44 % of 312) for this run with
     * full recompute, counted on hardware FLOPs (Narayanan et al. 2021 Table 1):
     * the A100 default 0.47 gives HFU 0.47 / 0.40 x 0.397831 = 0.4675, +6 %. */
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_train_shape s;
    s = mk_shape(24, 2304, 24, 4 * 2304, 2, 51200);
    gp_train_in_init(&in);
    in.gpu = &g;
    in.shape = &s;
    in.params = 1.7e9; /* N for 6ND; the exact count uses the shape */
    in.seq = 2048;
    in.tokens = 1e9;
    in.count = GP_COUNT_EXACT;
    in.recompute = GP_RECOMPUTE_FULL;
    r = run_ok(&in);
    ck_assert_int_eq(r.mfu_origin, GP_MFU_FALLBACK);
    GP_ASSERT_REL(r.mfu_reference, 0.40, 1e-15);
    GP_ASSERT_REL(r.mfu, 0.40 * 12011939328.0 / 11558954496.0 * 11239686144.0 / 15411939328.0,
                  1e-12);
    GP_ASSERT_REL(r.mfu, 0.303146, 1e-5);
    GP_ASSERT_REL(r.hfu, 0.397831, 1e-5);
    /* Time: model FLOPs / (peak x MFU) = 1e9 x 11,239,686,144 / (312e12 x
     * 0.303146) = 118,836 GPU-seconds. */
    GP_ASSERT_REL(r.gpu_seconds, 118836.0, 1e-5);
    in.recompute = GP_RECOMPUTE_NONE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.mfu, 0.404194, 1e-5);
    GP_ASSERT_REL(r.hfu, r.mfu, 1e-15);
    in.recompute = GP_RECOMPUTE_SELECTIVE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.mfu, 0.40 * 11239686144.0 / 11558954496.0, 1e-12);
    /* A database default scales the same way; a given MFU does not. */
    g.eff_mfu.v = 0.47;
    in.recompute = GP_RECOMPUTE_FULL;
    r = run_ok(&in);
    ck_assert_int_eq(r.mfu_origin, GP_MFU_DATABASE);
    GP_ASSERT_REL(r.hfu, 0.47 / 0.40 * 0.397831, 1e-5);
    GP_ASSERT_REL(r.hfu, 0.44, 0.07);
    in.mfu = 0.35;
    r = run_ok(&in);
    GP_ASSERT_REL(r.mfu, 0.35, 1e-15);
    GP_ASSERT_REL(r.mfu_reference, 0.35, 1e-15);
}
END_TEST

START_TEST(exact_count_llama2_shapes)
{
    /* Llama 2 7B: per layer Q,K,V,O 4 x 4096^2 = 67,108,864; SwiGLU FFN
     * 3 x 4096 x 11008 = 135,266,304; x 32 layers = 6,476,005,376; embeddings
     * 2 x 32000 x 4096 = 262,144,000; total 6,738,149,376 ~ 6.74e9, so the
     * FFN is judged gated (2 matrices would give 5,295,308,800).
     * Training FLOPs per token at seq 4096 (the model context, below the
     * 8192 cap), full s^2 attention (PaLM convention):
     *   6 x 6,476,005,376 + 12 x 4096 x 4096 x 32 + 6 x 4096 x 32000
     *   = 38,856,032,256 + 6,442,450,944 + 786,432,000 = 46,084,915,200 */
    gp_model m = llama2_7b();
    gp_train_shape s;
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    double mm, at, lg;
    ck_assert_int_eq(gp_train_shape_from_model(&m, &s, &e), GP_OK);
    GP_ASSERT_REL(s.ffn_matrices, 3.0, 0);
    GP_ASSERT_REL(gp_train_shape_params(&s, 0), 6738149376.0, 1e-15);
    gp_train_fwd_flop_per_token(&s, 4096, 0, &mm, &at, &lg);
    GP_ASSERT_REL(mm, 2.0 * 6476005376.0, 1e-15);
    GP_ASSERT_REL(at, 4.0 * 4096 * 4096 * 32, 1e-15);
    GP_ASSERT_REL(lg, 2.0 * 4096 * 32000, 1e-15);
    /* Causal halving (documented option): attention 2 x 4096 x 4096 x 32. */
    gp_train_fwd_flop_per_token(&s, 4096, 1, NULL, &at, NULL);
    GP_ASSERT_REL(at, 2.0 * 4096 * 4096 * 32, 1e-15);
    /* Wider query/key heads (MLA-style 192 against values of 128): Q.K^T
     * costs 2 x 4096 x 32 heads x 192, P.V 2 x 4096 x 32 x 128 per layer:
     * 2 x 4096 x 32 x 320 x 32 layers = 2,684,354,560 = 1.25 x the equal-width
     * 2,147,483,648. */
    s.qk_head_dim = 192;
    gp_train_fwd_flop_per_token(&s, 4096, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 2.0 * 4096 * 32 * (192 + 128) * 32, 1e-15);
    GP_ASSERT_REL(at, 1.25 * 4.0 * 4096 * 4096 * 32, 1e-15);
    s.qk_head_dim = 0;

    gp_train_in_init(&in);
    in.gpu = &g;
    in.model = &m;
    in.tokens = 2e12;
    in.count = GP_COUNT_EXACT;
    in.mfu = 0.4;
    r = run_ok(&in);
    GP_ASSERT_REL(r.seq, 4096, 0);
    GP_ASSERT_REL(r.model_flop_per_token, 46084915200.0, 1e-12);
    GP_ASSERT_REL(r.flop_6nd, 6.0 * 6.74e9 * 2e12, 1e-12);

    /* GQA: Llama 2 70B (h 8192, 64 heads, 8 KV heads of 128, FFN 28672,
     * 80 layers): Q,O 2 x 8192^2 = 134,217,728; K,V 2 x 8192 x 1024 =
     * 16,777,216; FFN 3 x 8192 x 28672 = 704,643,072; per layer 855,638,016
     * x 80 = 68,451,041,280 + embeddings 524,288,000 = 68,975,329,280
     * (published 68,976,653,312: the difference is the norms). */
    m.params.v = 68976653312.0;
    m.layers.v = 80;
    m.hidden.v = 8192;
    m.heads.v = 64;
    m.kv_heads.v = 8;
    m.ffn_hidden.v = 28672;
    ck_assert_int_eq(gp_train_shape_from_model(&m, &s, &e), GP_OK);
    GP_ASSERT_REL(gp_train_shape_params(&s, 0), 68975329280.0, 1e-15);
    GP_ASSERT_REL(gp_train_shape_params(&s, 0), 68976653312.0, 1e-4);
}
END_TEST

START_TEST(moe_counts_active_params)
{
    /* A toy MoE: 2 layers, h 1000, 10 heads, FFN 2 matrices of 4000 per
     * expert, 8 experts, 2 active, vocab 100, untied.
     *   attention per layer 4 x 1000^2 = 4e6; one expert 2 x 1000 x 4000 = 8e6;
     *   router 1000 x 8 = 8000.
     *   total  = 2 x (4e6 + 8 x 8e6 + 8000) + 2 x 100 x 1000 = 136,216,000
     *   active = 2 x (4e6 + 2 x 8e6 + 8000) + 200,000 = 40,216,000 */
    gp_train_shape s;
    gp_model m;
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    s = mk_shape(2, 1000, 10, 4000, 2, 100);
    s.experts = 8;
    s.experts_active = 2;
    GP_ASSERT_REL(gp_train_shape_params(&s, 0), 136216000.0, 1e-15);
    GP_ASSERT_REL(gp_train_shape_params(&s, 1), 40216000.0, 1e-15);
    /* The same MoE from a database-style model: 1 leading dense layer of FFN
     * 4000 (3 matrices: gated, since N below matches 3), then 1 MoE layer
     * of 8 experts x 1000 wide, 2 active, plus 1 shared expert; V 100 tied.
     *   attention 2 x 4e6 = 8e6; dense FFN 3 x 1000 x 4000 = 12e6;
     *   MoE FFN (8 + 1) x 3 x 1000 x 1000 = 27e6; router 1000 x 8 = 8000;
     *   embeddings 100 x 1000 = 1e5  -> N = 47,108,000
     *   active: (2 + 1) x 3e6 = 9e6 instead of 27e6 -> 29,108,000 */
    {
        gp_model mm;
        gp_train_shape t;
        gp_err e;
        memset(&mm, 0, sizeof mm);
        mm.id = "moe-db";
        mm.params.v = 47108000.0;
        mm.layers.v = 2;
        mm.hidden.v = 1000;
        mm.heads.v = 10;
        mm.ffn_hidden.v = 4000;
        mm.vocab.v = 100;
        mm.tied_embeddings = 1;
        mm.experts.v = 8;
        mm.experts_active.v = 2;
        mm.shared_experts.v = 1;
        mm.expert_ffn_hidden.v = 1000;
        mm.dense_layers.v = 1;
        ck_assert_int_eq(gp_train_shape_from_model(&mm, &t, &e), GP_OK);
        GP_ASSERT_REL(t.ffn_matrices, 3.0, 0);
        GP_ASSERT_REL(gp_train_shape_params(&t, 0), 47108000.0, 1e-15);
        GP_ASSERT_REL(gp_train_shape_params(&t, 1), 29108000.0, 1e-15);
    }
    /* The 6ND count uses the model's active parameters: 6 x 40.216e6 x 1e9. */
    memset(&m, 0, sizeof m);
    m.id = "moe";
    m.params.v = 136216000.0;
    m.params_active.v = 40216000.0;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.model = &m;
    in.shape = &s;
    in.tokens = 1e9;
    in.mfu = 0.3;
    r = run_ok(&in);
    GP_ASSERT_REL(r.model_flop, 6.0 * 40216000.0 * 1e9, 1e-12);
    /* Memory holds every expert: 136,216,000 x 16 B = 2.179456e9 B. */
    GP_ASSERT_REL(r.state_bytes, 136216000.0 * 16.0, 1e-12);

    /* MLA attention (low-rank projections): the projection parameters are
     * what is left of N.  2 layers, h 1000, gated FFN 4000 (3 x 1000 x 4000
     * = 12e6 per layer), V 100 untied (2e5), N = 30.2e6:
     *   attention per layer = (30.2e6 - 24e6 - 2e5) / 2 = 3e6. */
    {
        gp_train_shape t;
        gp_err e;
        memset(&m, 0, sizeof m);
        m.id = "mla";
        m.attention = "mla";
        m.params.v = 30.2e6;
        m.layers.v = 2;
        m.hidden.v = 1000;
        m.heads.v = 10;
        m.ffn_hidden.v = 4000;
        m.vocab.v = 100;
        ck_assert_int_eq(gp_train_shape_from_model(&m, &t, &e), GP_OK);
        GP_ASSERT_REL(t.attn_params, 3e6, 1e-12);
        GP_ASSERT_REL(gp_train_shape_params(&t, 0), 30.2e6, 1e-12);
    }
}
END_TEST

/* The sequence a run trains on: given; else the model's train_seq; else
 * its context capped at 8192; else 2048. */
START_TEST(train_seq_rule)
{
    gp_model m;
    gp_train_in in;
    gp_train_params p;
    memset(&m, 0, sizeof m);
    gp_train_in_init(&in);
    gp_train_params_init(&p);
    ck_assert(gp_train_seq(&in, NULL) == 2048.0);
    in.model = &m;
    m.context.v = 131072.0;
    ck_assert(gp_train_seq(&in, NULL) == 8192.0);
    m.context.v = 4096.0;
    ck_assert(gp_train_seq(&in, &p) == 4096.0);
    m.train_seq.v = 1024.0;
    ck_assert(gp_train_seq(&in, NULL) == 1024.0);
    in.seq = 512.0;
    ck_assert(gp_train_seq(&in, NULL) == 512.0);
}
END_TEST

START_TEST(lora_mode)
{
    /* Frozen 7e9 base, 20e6 adapter parameters, 1e9 tokens:
     *   (4 x 7e9 + 6 x 20e6) x 1e9 = 2.812e19 FLOP.
     * Memory (Adam, bf16): base weights 7e9 x 2 = 14e9; adapter weights
     * 20e6 x 2 = 4e7, grads 4e7, optimizer 20e6 x 12 = 2.4e8;
     * total 14.32e9 B. */
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 7e9;
    in.lora_params = 20e6;
    in.tokens = 1e9;
    in.mfu = 0.3;
    r = run_ok(&in);
    GP_ASSERT_REL(r.model_flop, 2.812e19, 1e-12);
    GP_ASSERT_REL(r.weight_bytes, 14.04e9, 1e-12);
    GP_ASSERT_REL(r.grad_bytes, 4e7, 1e-12);
    GP_ASSERT_REL(r.optim_bytes, 2.4e8, 1e-12);
    GP_ASSERT_REL(r.state_bytes, 14.32e9, 1e-12);
    /* Full recompute re-runs the forward of base and adapters alike:
     * 2 x 7e9 + 2 x 20e6 more per token, 2.812e10 + 1.404e10 = 4.216e10. */
    in.recompute = GP_RECOMPUTE_FULL;
    r = run_ok(&in);
    GP_ASSERT_REL(r.hardware_flop_per_token, 4.216e10, 1e-12);
}
END_TEST

/* ---- memory -------------------------------------------------------------- */

START_TEST(memory_7b_adam_zero3)
{
    /* 7e9 params, mixed-precision Adam: 2 + 2 + 12 = 16 B/param
     * (Rajbhandari et al. 2020 §3.1) = 112e9 B of model states.
     * Shape: Llama 2 7B (h 4096, 32 layers, 32 heads, V 32000), seq 2048,
     * micro-batch 1, selective recompute (default), t = 1.
     * Activations (Korthikanti et al. 2022): 34 s b h per layer
     *   = 34 x 2048 x 4096 = 285,212,672 x 32 = 9,126,805,504
     *   + embedding dropout mask s b h = 8,388,608
     *   + output/loss 4 s b h (1 + V/h) = 33,554,432 x 8.8125 = 295,698,432
     *   = 9,430,892,544 B.
     * Reserve: 1 GiB + 5 % x 80 GiB = 1,073,741,824 + 4,294,967,296
     *   = 5,368,709,120 B.
     * One GPU, ZeRO 0: 112e9 + 9.43e9 + 5.37e9 > 85,899,345,920 -> no fit,
     *   and no GPU count fits without sharding the states (min_gpus 0).
     * ZeRO-3 over 8: states 112e9 / 8 = 14e9 each; total 14e9 + 9.43e9 +
     *   5.37e9 = 28.80e9 B -> fits.
     * Least ZeRO-3 count: room = 85,899,345,920 - 5,368,709,120 -
     *   9,430,892,544 = 71,099,744,256; 112e9 / 71.1e9 = 1.575 -> 2 GPUs. */
    gp_gpu g = a100();
    gp_model m = llama2_7b();
    gp_train_in in;
    gp_train_result r;
    m.params.v = 7e9;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.model = &m;
    in.tokens = 1e12;
    in.seq = 2048;
    r = run_ok(&in);
    GP_ASSERT_REL(r.weight_bytes + r.grad_bytes + r.optim_bytes, 112e9, 1e-12);
    GP_ASSERT_REL(r.optim_bytes, 84e9, 1e-12);
    GP_ASSERT_REL(r.activation_bytes, 9430892544.0, 1e-12);
    GP_ASSERT_REL(r.reserve_bytes, 5368709120.0, 1e-12);
    ck_assert_int_eq(r.fits, 0);
    ck_assert_int_eq(r.min_gpus, 0);
    ck_assert_int_eq(r.min_gpus_zero3, 2);
    in.gpus = 8;
    in.zero = 3;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 14e9, 1e-12);
    GP_ASSERT_REL(r.total_bytes, 14e9 + 9430892544.0 + 5368709120.0, 1e-12);
    ck_assert_int_eq(r.fits, 1);
    ck_assert_int_eq(r.min_gpus, 2);
    /* ZeRO-1 over 8: 14e9 + 14e9 + 84e9/8 = 38.5e9; ZeRO-2: 14e9 + 1.75e9
     * + 10.5e9 = 26.25e9.  ZeRO-2 least count: unsharded 14e9, room
     * 71,099,744,256 - 14e9 = 57.0997e9 for 98e9 -> 1.716 -> 2. */
    in.zero = 1;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 38.5e9, 1e-12);
    in.zero = 2;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 26.25e9, 1e-12);
    ck_assert_int_eq(r.min_gpus, 2);
    /* Tensor x pipeline 2 x 2 on 8 GPUs, ZeRO 0: 112e9 / 4 = 28e9; dp = 2. */
    in.zero = 0;
    in.tp = 2;
    in.pp = 2;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 28e9, 1e-12);
    ck_assert_int_eq((int)r.dp, 2);
    /* Other optimizers: 8-bit Adam 2 + 2 + (4 + 1 + 1) = 10 B -> 70e9;
     * SGD with momentum 2 + 2 + 4 + 4 = 12 B -> 84e9 (one GPU). */
    in.tp = in.pp = 1;
    in.gpus = 1;
    in.optimizer = GP_OPT_ADAM8BIT;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 70e9, 1e-12);
    in.optimizer = GP_OPT_SGD;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 84e9, 1e-12);
}
END_TEST

START_TEST(activation_formulas)
{
    /* Korthikanti et al. 2022, s 2048, b 1, h 4096, a 32 (sbh = 8,388,608):
     *   none, t 1:   sbh (34 + 5 a s / h) = sbh (34 + 80) = 956,301,312
     *   none, t 8, no SP: sbh (10 + 24/8 + 80/8) = sbh x 23 = 192,937,984
     *   none, t 8, SP:    956,301,312 / 8 = 119,537,664
     *   selective, t 8, no SP: sbh (10 + 3) = 109,051,904; SP: 34 sbh / 8
     *   full: 2 sbh = 16,777,216 (SP: / 8) */
    double sbh = 8388608.0;
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 1, 1,
                                                      GP_RECOMPUTE_NONE), 956301312.0, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 1, 0,
                                                      GP_RECOMPUTE_NONE), 956301312.0, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 8, 0,
                                                      GP_RECOMPUTE_NONE), 192937984.0, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 8, 1,
                                                      GP_RECOMPUTE_NONE), 119537664.0, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 8, 0,
                                                      GP_RECOMPUTE_SELECTIVE), 13.0 * sbh, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 8, 1,
                                                      GP_RECOMPUTE_SELECTIVE), 34.0 * sbh / 8, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 1, 1,
                                                      GP_RECOMPUTE_FULL), 2.0 * sbh, 1e-15);
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 1, 4096, 32, 8, 1,
                                                      GP_RECOMPUTE_FULL), 2.0 * sbh / 8, 1e-15);
    /* Micro-batch scales linearly: b 4 -> 4 x 956,301,312. */
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(2048, 4, 4096, 32, 1, 1,
                                                      GP_RECOMPUTE_NONE), 4 * 956301312.0, 1e-15);
}
END_TEST

/* ---- cost ------------------------------------------------------------------ */

START_TEST(cost_rent_and_own)
{
    /* GPT-3 on H100 at MFU 0.5: 6.36750e8 GPU-s = 176,874.9 GPU-h.
     *   rent at USD 2/GPU-h: 353,749.7
     *   energy: 700 W x PUE 1.2 (default) = 840 W per GPU x 6.36750e8 s
     *           = 5.3487e11 J = 148,574.9 kWh; x USD 0.08 = 11,886.0
     *   own: USD 30,000 per GPU over 3 years (94,672,800 s): 30,000 x
     *        6.36750e8 / 94,672,800 = 201,773.8; + energy = 213,659.7 */
    gp_gpu g = h100();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 175e9;
    in.tokens = 300e9;
    in.mfu = 0.5;
    in.gpus = 1024;
    in.price = 2.0;
    in.purchase = 30000.0;
    r = run_ok(&in);
    GP_ASSERT_REL(r.cost_rent_usd, 353749.7, 1e-6);
    GP_ASSERT_REL(r.energy_kwh, 148574.9, 1e-6);
    GP_ASSERT_REL(r.cost_energy_usd, 11886.0, 1e-5);
    GP_ASSERT_REL(r.cost_capex_usd, 201773.8, 1e-6);
    GP_ASSERT_REL(r.cost_own_usd, 213659.7, 1e-6);
    /* No price anywhere: rent is unknown (NaN), not zero. */
    in.price = 0;
    r = run_ok(&in);
    ck_assert(isnan(r.cost_rent_usd));
    /* --pue 1.5 --kwh-price 0.2: 700 x 1.5 x 6.3675e8 / 3.6e6 = 185,718.6 kWh
     * x 0.2 = 37,143.7 USD. */
    in.pue = 1.5;
    in.kwh_price = 0.2;
    r = run_ok(&in);
    GP_ASSERT_REL(r.cost_energy_usd, 37143.7, 1e-5);
}
END_TEST

/* Plausibility caps on the MFU, the profile and the cost inputs
 * (training.md section 7): each cap itself is allowed and gives finite
 * figures; beyond it, GP_ERANGE (GP_EINVAL for the MFU) names the option.
 * Before the caps, pue = 1e308 gave an infinite energy and years = 1e-300
 * a capex of 1e305 USD. */
START_TEST(plausibility_caps)
{
    gp_gpu g = h100();
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 175e9;
    in.tokens = 300e9;
    in.mfu = 0.5;
    in.gpus = 1024;
    in.purchase = 30000.0;
#define CAP_OK(field, v)                                                        \
    do {                                                                        \
        in.field = (v);                                                         \
        r = run_ok(&in);                                                        \
        ck_assert(isfinite(r.cost_own_usd) && isfinite(r.energy_kwh));           \
    } while (0)
#define CAP_BAD(field, v, code, opt)                                            \
    do {                                                                        \
        double keep_ = in.field;                                                \
        in.field = (v);                                                         \
        ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), (code));         \
        ck_assert_str_eq(e.where, (opt));                                       \
        in.field = keep_;                                                       \
    } while (0)
    /* At the caps, e.g. pue 10: 700 W x 10 x 6.3675e8 GPU-s / 3.6e6 =
     * 1,238,124 kWh (ten times the 1.2-PUE figure / 1.2). */
    CAP_OK(pue, 10.0);
    GP_ASSERT_REL(r.energy_kwh, 148574.9 / 1.2 * 10.0, 1e-6);
    CAP_BAD(pue, 10.5, GP_ERANGE, "--pue");
    CAP_BAD(pue, 1e308, GP_ERANGE, "--pue");
    CAP_BAD(pue, 0.5, GP_ERANGE, "--pue");
    in.pue = 0;
    /* years 0.01: 30,000 x 6.3675e8 / (0.01 x 31,557,600) = 6.0532e7 USD. */
    CAP_OK(years, 0.01);
    GP_ASSERT_REL(r.cost_capex_usd, 30000.0 * 6.36750e8 / (0.01 * 31557600.0), 1e-5);
    CAP_OK(years, 100.0);
    CAP_BAD(years, 1e-300, GP_ERANGE, "--years");
    CAP_BAD(years, 101.0, GP_ERANGE, "--years");
    in.years = 0;
    CAP_OK(price, 1e4);
    CAP_BAD(price, 1e308, GP_ERANGE, "--price");
    in.price = 0;
    CAP_OK(purchase, 1e8);
    CAP_BAD(purchase, 1e308, GP_ERANGE, "--purchase");
    in.purchase = 30000.0;
    CAP_OK(kwh_price, 100.0);
    CAP_BAD(kwh_price, 1e308, GP_ERANGE, "--kwh-price");
    in.kwh_price = 0;
    CAP_OK(mfu, 0.001);
    CAP_BAD(mfu, 1e-300, GP_EINVAL, "--mfu");
    in.mfu = 0;
    /* Profile: 1 us x 1e12 tokens passes the range checks but implies MFU
     * 6 x 175e9 x 1e12 / 1e-6 / 1024 / 989.4e12 = 1.04e12: refused as above
     * GP_TRAIN_PROFILE_MFU_MAX.  At the bound: 1.25 x 989.4e12 x 1024 /
     * (6 x 175e9) = 1,206,125.7 tokens per 1 s step pass, 1,210,000 fail. */
    in.step_time = 1e-6;
    in.tokens_per_step = 1e12;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--tokens-per-step");
    in.step_time = 1.0;
    in.tokens_per_step = 1206000;
    r = run_ok(&in);
    GP_ASSERT_REL(r.mfu, 6.0 * 175e9 * 1206000.0 / 1024.0 / 989.4e12, 1e-9);
    in.tokens_per_step = 1210000;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
    in.step_time = 1e-6;
    in.tokens_per_step = 1e12;
    CAP_BAD(step_time, 1e-300, GP_ERANGE, "--step-time");
    CAP_BAD(step_time, 1e308, GP_ERANGE, "--step-time");
    CAP_BAD(tokens_per_step, 1e308, GP_ERANGE, "--tokens-per-step");
    CAP_BAD(tokens_per_step, 0.5, GP_ERANGE, "--tokens-per-step");
    in.tokens_per_step = 0;
    in.batch = 1e13; /* x seq 2048 = 2.048e16 tokens */
    CAP_BAD(batch, 1e13, GP_ERANGE, "--batch");
#undef CAP_OK
#undef CAP_BAD
}
END_TEST

/* A given MFU is checked against the peak as a profile's implied one is
 * (GP_TRAIN_PROFILE_MFU_MAX, docs/models/training.md 2): peak_share =
 * max(HFU, PaLM-count MFU).  Llama 2 7B's shape, N 6.74e9, s 4096, 6ND
 * count: 6N = 40,440,000,000, the attention core forward A = 4 s q L = 4 x
 * 4096 x 4096 x 32 = 2,147,483,648 per token.
 *   --mfu 0.9, selective: HFU = 0.9 x (6N + A)/6N = 0.9 x 42,587,483,648 /
 *   40,440,000,000 = 0.947797; PaLM = 0.9 x (6N + 3A)/6N = 0.9 x
 *   46,882,450,944 / 40,440,000,000 = 1.043378: accepted, share 1.043378.
 *   full recompute: HFU = MFU x 8N/6N = 4/3 MFU (> PaLM's 1.159309 MFU):
 *   0.93 -> 1.24 passes, 0.94 -> 1.2533 is refused naming --mfu.
 *   --mfu 0.99, full, 100M adapters: model 4N + 6 N_a = 2.756e10, hardware
 *   + 2N + 2 N_a = 4.124e10: HFU 0.99 x 4.124/2.756 = 1.4814, refused.
 * A default MFU is not checked (share 0); a profile's share is its MFU. */
START_TEST(given_mfu_peak_share)
{
    gp_gpu g = h100();
    gp_train_shape sh = mk_shape(32, 4096, 32, 11008, 3, 32000);
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.shape = &sh;
    in.params = 6.74e9;
    in.seq = 4096;
    in.tokens = 1e12;
    in.mfu = 0.9;
    r = run_ok(&in);
    GP_ASSERT_REL(r.hfu, 0.9 * 42587483648.0 / 40440000000.0, 1e-12);
    GP_ASSERT_REL(r.mfu_palm, 0.9 * 46882450944.0 / 40440000000.0, 1e-12);
    GP_ASSERT_REL(r.peak_share, 1.043378, 1e-6);
    in.recompute = GP_RECOMPUTE_FULL;
    in.mfu = 0.93;
    r = run_ok(&in);
    GP_ASSERT_REL(r.peak_share, 0.93 * 4.0 / 3.0, 1e-12);
    in.mfu = 0.94;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--mfu");
    ck_assert_msg(strstr(e.msg, "implies HFU 1.25") != NULL, "%s", e.msg);
    in.mfu = 0.99;
    in.lora_params = 1e8;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--mfu");
    ck_assert_msg(strstr(e.msg, "implies HFU 1.48") != NULL, "%s", e.msg);
    in.lora_params = 0;
    in.mfu = 0;
    r = run_ok(&in);
    GP_ASSERT_REL(r.peak_share, 0.0, 0);
    /* Profile: 1e4 tokens in 1 s: 6 x 6.74e9 x 1e4 / 989.4e12 = 0.408733. */
    in.step_time = 1.0;
    in.tokens_per_step = 1e4;
    r = run_ok(&in);
    GP_ASSERT_REL(r.peak_share, 6.0 * 6.74e9 * 1e4 / 989.4e12, 1e-12);
}
END_TEST

/* ---- bad input ------------------------------------------------------------ */

START_TEST(bad_input_names_option)
{
    gp_gpu g = a100();
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 7e9;
    in.tokens = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tokens");
    in.tokens = 1e9;
    in.params = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--params");
    in.params = 7e9;
    in.mfu = 1.5;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--mfu");
    in.mfu = -0.2;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    in.mfu = 0.4;
    in.precision_set = 1;
    in.precision = GP_FP8; /* A100 has no FP8 */
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EUNSUP);
    ck_assert_str_eq(e.where, "--precision");
    ck_assert_ptr_nonnull(strstr(e.msg, "fp8"));
    /* int8 is an inference format, not a training precision. */
    in.precision = GP_INT8;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EUNSUP);
    ck_assert_str_eq(e.where, "--precision");
    in.precision = GP_BF16;
    in.gpus = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    in.gpus = 6;
    in.tp = 4;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    in.tp = 1;
    in.zero = 4;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--zero");
    in.zero = 0;
    in.step_time = 2.0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tokens-per-step");
    in.step_time = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    /* Unset precision falls back to what the GPU has: a part with only fp16
     * tensor and fp32 CUDA rates (V100-like) trains in fp16. */
    memset(&g.peak, 0, sizeof g.peak);
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 125e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 15.7e12;
    in.precision_set = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    ck_assert_int_eq(r.precision, GP_FP16);
    GP_ASSERT_REL(r.peak_flop_per_s, 125e12, 0);
}
END_TEST

START_TEST(profile_batch_and_exact)
{
    /* Megatron Table 1, GPT 1.7B on 32 A100: 512 sequences x 2048 tokens per
     * step.  Suppose a step takes 8 s: tokens/step = 512 x 2048 = 1,048,576;
     * tokens/s per GPU = 1,048,576 / 8 / 32 = 4,096.
     * Exact count per token (shape h 2304, L 24, V 51200, FFN 4h, s 2048):
     *   72 L h^2 (1 + s/6h + V/12Lh) = 72 x 24 x 5,308,416 x (1 + 0.148148 +
     *   0.077160) = 9,172,942,848 x 1.225309 = 11.2396e9 FLOP
     *   implied MFU = 11.2396e9 x 4096 / 312e12 = 0.14756
     * With --lora-params 1e6 the frozen base costs forward + activation
     * gradients: 2 x matmul + 3 x attention + 2 x logits + 6 x 1e6 per token
     * (matmul and logits are forward FLOPs already, 2 per weight):
     *   matmul 2 x 24 x 12 x 2304^2 = 3,057,647,616; attention 4 x 2048 x
     *   2304 x 24 = 452,984,832; logits 2 x 2304 x 51200 = 235,929,600
     *   -> 6,115,295,232 + 1,358,954,496 + 471,859,200 + 6e6 = 7,952,108,928
     * which is below the full-training count 11.2396e9 above, as it
     * must be (no weight gradients). */
    gp_gpu g = a100();
    gp_train_shape s;
    gp_train_in in;
    gp_train_result r;
    double h = 2304, l = 24, V = 51200, S = 2048;
    s = mk_shape(l, h, 24, 4 * h, 2, V);
    gp_train_in_init(&in);
    in.gpu = &g;
    in.params = 1.7e9;
    in.shape = &s;
    in.seq = S;
    in.tokens = 1e9;
    in.gpus = 32;
    in.count = GP_COUNT_EXACT;
    in.step_time = 8.0;
    in.batch = 512;
    r = run_ok(&in);
    GP_ASSERT_REL(r.tokens_per_step, 1048576.0, 1e-15);
    GP_ASSERT_REL(r.tokens_per_s_per_gpu, 4096.0, 1e-15);
    GP_ASSERT_REL(r.model_flop_per_token,
                  72.0 * l * h * h * (1.0 + S / (6.0 * h) + V / (12.0 * l * h)), 1e-12);
    GP_ASSERT_REL(r.mfu, 0.14756, 1e-4);
    /* wall = 1e9 / (4096 x 32) = 7,629.4 s */
    GP_ASSERT_REL(r.wall_s, 1e9 / (4096.0 * 32.0), 1e-12);
    in.step_time = 0;
    in.batch = 0;
    in.mfu = 0.3;
    in.lora_params = 1e6;
    r = run_ok(&in);
    GP_ASSERT_REL(r.model_flop_per_token, 7952108928.0, 1e-12);
    ck_assert(r.model_flop_per_token <
              72.0 * l * h * h * (1.0 + S / (6.0 * h) + V / (12.0 * l * h)));
}
END_TEST

/* Pipeline stages hold whole layers and the first and last an embedding
 * matrix each: memory is the heaviest stage's, not N/p.  Llama 2 7B (32
 * layers, V h = 32000 x 4096 = 131,072,000, untied) on pp 4: the layers'
 * parameters N - 2 V h = 6,738,415,616 - 262,144,000 = 6,476,271,616, 8
 * layers a stage = 1,619,067,904, + one embedding matrix = 1,750,139,904
 * parameters (N/4 would say 1,684,603,904): 3,500,279,808 bytes of bf16
 * weights.  BLOOM's 70 layers on 12 stages (ceil 6; tied V h = 250880 x
 * 14336 = 3,596,615,680): (176,247,271,424 - 3,596,615,680) / 70 x 6 +
 * 3,596,615,680 = 18,395,243,316 (N/12: 14,687,272,619). */
START_TEST(memory_heaviest_pipeline_stage)
{
    const gp_db *db = gp_test_db();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(db, "a100-sxm-80gb");
    in.model = gp_db_find_model(db, "llama-2-7b");
    in.tokens = 1e12;
    in.gpus = 4;
    in.pp = 4;
    r = run_ok(&in);
    GP_ASSERT_REL(r.weight_bytes, 2.0 * 1750139904.0, 1e-12);
    GP_ASSERT_REL(r.grad_bytes, 2.0 * 1750139904.0, 1e-12);
    GP_ASSERT_REL(r.optim_bytes, 12.0 * 1750139904.0, 1e-12);
    in.model = gp_db_find_model(db, "bloom-176b");
    in.gpus = 48;
    in.tp = 4;
    in.pp = 12;
    r = run_ok(&in);
    GP_ASSERT_REL(r.weight_bytes, 2.0 * 18395243316.0 / 4.0, 1e-9);
}
END_TEST

/* A layout gives each pipeline stage a layer and each tensor rank whole
 * heads, with or without the step model (docs/models/training.md 3.1).
 * Gemma 2 2B has 26 layers, 8 heads (4 KV heads), tied V h = 256000 x 2304
 * = 589,824,000 of its 2,614,341,888 parameters (hwdb note).  pp 26 is the
 * most stages it admits: one layer each, the heaviest stage holds
 * (2,614,341,888 - 589,824,000) / 26 = 77,866,072.6 + the embedding
 * 589,824,000 = 667,690,072.6 parameters, 1,335,380,145.2 B of bf16
 * weights.  pp 32 is refused (N/32 = 81.7M parameters would under-count
 * the stage 8-fold).  tp 16 does not divide 8 heads; tp 3 does not divide
 * them either.  A hand shape of 12 heads and 4 KV heads takes tp 6 on its
 * heads, but 4 and 6 do not divide one another (Megatron).  --params 7e9
 * infers L = round(cbrt(128 x 7e9 / 12) / 128) = round(4211.6 / 128) = 33
 * layers (section 3.4): pp 33 passes, pp 34 is refused; its heads (h/128)
 * are not whole, so tp 64 is not checked: weights N/t = 7e9 x 2 / 64 =
 * 218,750,000 B. */
START_TEST(memory_layout_refused)
{
    const gp_db *db = gp_test_db();
    gp_train_shape sh = mk_shape(4, 768, 12, 3072, 2, 1000);
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(db, "rtx-4060-ti-8gb");
    in.model = gp_db_find_model(db, "gemma-2-2b");
    in.tokens = 1e10;
    in.seq = 1024;
    in.recompute = GP_RECOMPUTE_FULL;
    in.gpus = in.pp = 26;
    r = run_ok(&in);
    GP_ASSERT_REL(r.weight_bytes, 2.0 * ((2614341888.0 - 589824000.0) / 26.0 + 589824000.0),
                  1e-12);
    in.gpus = in.pp = 32;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--pp");
    ck_assert_msg(strstr(e.msg, "26 layers are fewer than pp = 32 stages") != NULL, "%s", e.msg);
    in.pp = 1;
    in.gpus = in.tp = 16;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tp");
    ck_assert_msg(strstr(e.msg, "does not divide the 8 attention heads") != NULL, "%s", e.msg);
    in.gpus = in.tp = 3;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tp");
    /* The hand shape: 12 heads / tp 6 = 2 each, but 4 KV heads and 6. */
    sh.kv_heads = 4;
    in.shape = &sh;
    in.model = NULL;
    in.params = 1e8;
    in.gpus = in.tp = 6;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tp");
    ck_assert_msg(strstr(e.msg, "the 4 KV heads must divide one another") != NULL, "%s", e.msg);
    in.gpus = in.tp = 4; /* 12/4 heads, 4 KV heads: one each */
    (void)run_ok(&in);
    /* Inferred shape: the layers are checked, the heads are not. */
    in.shape = NULL;
    in.gpu = gp_db_find_gpu(db, "h100-sxm");
    in.params = 7e9;
    in.tp = 1;
    in.gpus = in.pp = 33;
    r = run_ok(&in);
    ck_assert_int_eq(r.shape_known, 0);
    GP_ASSERT_REL(r.shape.layers, 33.0, 0);
    in.gpus = in.pp = 34;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--pp");
    ck_assert_msg(strstr(e.msg, "33 layers (inferred") != NULL, "%s", e.msg);
    in.pp = 1;
    in.gpus = in.tp = 64;
    r = run_ok(&in);
    GP_ASSERT_REL(r.weight_bytes, 7e9 * 2.0 / 64.0, 1e-12);
}
END_TEST

START_TEST(memory_full_recompute_and_fp32)
{
    /* Llama 2 7B shape, s 2048, b 1, t 1, full recompute (sbh = 8,388,608),
     * unfused attention (the paper's baseline, which stores the scores):
     *   2 sbh x 32 layers = 536,870,912
     *   + the layer being re-run, un-recomputed: sbh (34 + 5 x 32 x 2048/4096)
     *     = 8,388,608 x 114 = 956,301,312
     *   + embedding mask 8,388,608 + output/loss 295,698,432
     *   = 1,797,259,264 B
     * No recompute: sbh x 114 x 32 = 30,601,641,984 + 8,388,608 +
     *   295,698,432 = 30,905,729,024 B.
     * FlashAttention (the default) never stores the s x s scores, so the
     * re-run layer keeps 34 sbh = 285,212,672 (full: 536,870,912 +
     * 285,212,672 + 8,388,608 + 295,698,432 = 1,126,170,624 B) and no
     * recompute keeps 34 sbh x 32 = 9,126,805,504 + 8,388,608 + 295,698,432
     * = 9,430,892,544 B -- what selective recompute keeps. */
    gp_gpu g = a100();
    gp_model m = llama2_7b();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = &g;
    in.model = &m;
    in.tokens = 1e12;
    in.seq = 2048;
    in.recompute = GP_RECOMPUTE_FULL;
    r = run_ok(&in);
    GP_ASSERT_REL(r.activation_bytes, 1126170624.0, 1e-12);
    in.recompute = GP_RECOMPUTE_NONE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.activation_bytes, 9430892544.0, 1e-12);
    in.recompute = GP_RECOMPUTE_SELECTIVE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.activation_bytes, 9430892544.0, 1e-12);
    in.attn_unfused = 1;
    in.recompute = GP_RECOMPUTE_FULL;
    r = run_ok(&in);
    GP_ASSERT_REL(r.activation_bytes, 1797259264.0, 1e-12);
    in.recompute = GP_RECOMPUTE_NONE;
    r = run_ok(&in);
    GP_ASSERT_REL(r.activation_bytes, 30905729024.0, 1e-12);
    /* TF32 training (fp32 storage): Adam 4 + 4 + 8 = 16 B/param, SGD 4 + 4
     * + 4 = 12; activations double; peak is the A100 TF32 156 TFLOP/s. */
    in.precision_set = 1;
    in.precision = GP_TF32;
    in.optimizer = GP_OPT_SGD;
    r = run_ok(&in);
    GP_ASSERT_REL(r.peak_flop_per_s, 156e12, 0);
    GP_ASSERT_REL(r.state_bytes, 6.74e9 * 12.0, 1e-12);
    GP_ASSERT_REL(r.activation_bytes, 2.0 * 30905729024.0, 1e-12);
}
END_TEST

START_TEST(names_parse)
{
    gp_train_recompute rc;
    gp_train_optimizer o;
    gp_err e;
    ck_assert_int_eq(gp_train_recompute_parse("FULL", &rc, &e), GP_OK);
    ck_assert_int_eq(rc, GP_RECOMPUTE_FULL);
    ck_assert_int_eq(gp_train_recompute_parse("none", &rc, &e), GP_OK);
    ck_assert_int_eq(rc, GP_RECOMPUTE_NONE);
    ck_assert_int_eq(gp_train_recompute_parse("selective", &rc, &e), GP_OK);
    ck_assert_int_eq(rc, GP_RECOMPUTE_SELECTIVE);
    ck_assert_int_eq(gp_train_recompute_parse(NULL, &rc, &e), GP_EINVAL);
    ck_assert_int_eq(gp_train_optimizer_parse("sgd", &o, &e), GP_OK);
    ck_assert_int_eq(o, GP_OPT_SGD);
    ck_assert_str_eq(gp_train_recompute_name(GP_RECOMPUTE_SELECTIVE), "selective");
    ck_assert_int_eq(gp_train_recompute_parse("some", &rc, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--recompute");
    ck_assert_int_eq(gp_train_optimizer_parse("adamw", &o, &e), GP_OK);
    ck_assert_int_eq(o, GP_OPT_ADAM);
    ck_assert_int_eq(gp_train_optimizer_parse("adam8bit", &o, &e), GP_OK);
    ck_assert_int_eq(o, GP_OPT_ADAM8BIT);
    ck_assert_str_eq(gp_train_optimizer_name(GP_OPT_SGD), "sgd");
    ck_assert_int_eq(gp_train_optimizer_parse("lion", &o, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--optimizer");
}
END_TEST

START_TEST(edge_cases_and_errors)
{
    gp_gpu g = a100();
    gp_model m;
    gp_train_shape sh;
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    double w, gr, o;
    /* NULL is a no-op / zero / error, never a crash. */
    gp_train_params_init(NULL);
    gp_train_in_init(NULL);
    GP_ASSERT_REL(gp_train_shape_params(NULL, 0), 0.0, 0);
    ck_assert_int_eq(gp_train_shape_from_model(NULL, &sh, &e), GP_EINVAL);
    memset(&m, 0, sizeof m);
    m.id = "shapeless";
    m.params.v = 1e9;
    ck_assert_int_eq(gp_train_shape_from_model(&m, &sh, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--model");
    ck_assert_int_eq(gp_train_estimate(NULL, NULL, &r, &e), GP_EINVAL);
    /* A tensor-parallel degree below 1 counts as 1: 2 sbh at s 1, b 1, h 10. */
    GP_ASSERT_REL(gp_train_activation_bytes_per_layer(1, 1, 10, 1, 0.5, 1, GP_RECOMPUTE_FULL),
                  20.0, 0);
    /* 8-bit Adam, fp32 storage: 4 + 4 + (0 + 2) B. */
    gp_train_state_bytes(GP_OPT_ADAM8BIT, 0, &w, &gr, &o);
    GP_ASSERT_REL(w + gr + o, 10.0, 0);
    ck_assert_str_eq(gp_train_recompute_name(GP_RECOMPUTE_NONE), "none");
    ck_assert_str_eq(gp_train_recompute_name(GP_RECOMPUTE_FULL), "full");
    ck_assert_str_eq(gp_train_recompute_name((gp_train_recompute)99), "unknown");
    ck_assert_str_eq(gp_train_optimizer_name(GP_OPT_ADAM), "adam");
    ck_assert_str_eq(gp_train_optimizer_name(GP_OPT_ADAM8BIT), "adam8bit");
    ck_assert_str_eq(gp_train_optimizer_name((gp_train_optimizer)99), "unknown");

    gp_train_in_init(&in);
    in.params = 7e9;
    in.tokens = 1e9;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpu");
    in.gpu = &g;
    in.model = &m;
    m.params.v = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--model");
    /* A model without a shape still plans (shape inferred from N). */
    m.params.v = 1e9;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    ck_assert_int_eq(r.shape_known, 0);
    in.model = NULL;
    in.tp = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tp");
    in.tp = 1;
    in.pp = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--pp");
    in.pp = 1;
    in.lora_params = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--lora-params");
    in.lora_params = 2e15;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--lora-params");
    in.lora_params = 0;
    /* Finite but absurd sizes: 1e300 params x 1e300 tokens would overflow
     * 6ND to inf; the caps (1e15 params, 1e18 tokens) refuse them. */
    {
        double keep_n = in.params, keep_d = in.tokens;
        in.params = 1e300;
        ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
        ck_assert_str_eq(e.where, "--params");
        in.params = 1e15; /* the cap itself is allowed */
        ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
        ck_assert(isfinite(r.gpu_days) && isfinite(r.total_bytes));
        in.params = keep_n;
        in.tokens = 1e300;
        ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_ERANGE);
        ck_assert_str_eq(e.where, "--tokens");
        in.tokens = keep_d;
    }
    in.micro_batch = 0.5;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--micro-batch");
    in.micro_batch = 1;
    in.seq = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--seq");
    in.seq = 0;
    in.price = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--price");
    in.price = 0;
    in.pue = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--pue");
    in.pue = 0;
    /* Non-finite inputs are refused like non-positive ones. */
    in.tokens = NAN;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--tokens");
    in.tokens = 1e9;
    in.params = INFINITY;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--params");
    in.params = 7e9;
    /* Nothing fits on a GPU without memory figures: fits 0, no counts. */
    g.mem_capacity.v = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    ck_assert_int_eq(r.fits, 0);
    ck_assert_int_eq(r.min_gpus, 0);
    ck_assert_int_eq(r.min_gpus_zero3, 0);
}
END_TEST

/* ---- against the built-in database ------------------------------------------ */

START_TEST(db_llama2_7b_a100_default)
{
    /* Llama 2 paper Table 2: Llama 2 7B, 2e12 tokens, 184,320 A100-80GB
     * GPU-hours.  At the database's A100 default MFU (or the 0.40 fallback)
     * the planner must land within 15 %: e.g. MFU 0.40 gives 180,021 h
     * (6 x 6.74e9 x 2e12 / (312e12 x 0.40) / 3600). */
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "a100-sxm-80gb");
    const gp_model *m = gp_db_find_model(db, "llama-2-7b");
    gp_train_in in;
    gp_train_result r;
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(m);
    gp_train_in_init(&in);
    in.gpu = g;
    in.model = m;
    in.tokens = 2e12;
    r = run_ok(&in);
    GP_ASSERT_REL(r.peak_flop_per_s, 312e12, 1e-3);
    GP_ASSERT_REL(r.gpu_hours, 184320.0, 0.15);
}
END_TEST

/* A run of a database GPU and model (mfu 0: the database default). */
static gp_train_result db_run(const char *gpu, const char *model, double tokens, long gpus,
                              double mfu)
{
    const gp_db *db = gp_test_db();
    gp_train_in in;
    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(db, gpu);
    in.model = gp_db_find_model(db, model);
    ck_assert_msg(in.gpu != NULL && in.model != NULL, "database lacks %s or %s", gpu, model);
    in.tokens = tokens;
    in.gpus = gpus;
    in.mfu = mfu;
    return run_ok(&in);
}

START_TEST(db_gpt3_h100)
{
    /* gpt-3-175b (174.6e9 params in the database, Brown et al. 2020) x 300e9
     * tokens = 3.1428e23 FLOP (paper Table D.1: 3.14e23); on h100-sxm at
     * MFU 0.5: 3.1428e23 / 4.947e14 / 86400 = 7,353 GPU-days. */
    gp_train_result r = db_run("h100-sxm", "gpt-3-175b", 300e9, 1, 0.5);
    GP_ASSERT_REL(r.model_flop, 3.14e23, 0.01);
    GP_ASSERT_REL(r.gpu_days, 7370.0, 0.01);
}
END_TEST

START_TEST(db_published_rows)
{
    /* The database's A100 default MFU (efficiency.mfu, 0.47 on the PaLM count
     * when written) against published A100-80GB GPU-hours, all within 10 %.
     * Time = (6N + 12 s q L) D / (312e12 x 0.47) (docs/models/training.md
     * 1.3), 312e12 x 0.47 x 3600 = 5.27904e17 FLOP per GPU-hour; s is the
     * model's context (2048 for LLaMA-1, 4096 for Llama 2):
     *   llama-7b    6N 40,430,493,696 + 3,221,225,472 = 43,651,719,168
     *               x 1e12 -> 82,689 h vs 82,432 (LLaMA Table 15): +0.3 %
     *   llama-2-7b  6N 40,430,493,696 + 6,442,450,944 = 46,872,944,640
     *               x 2e12 -> 177,581 h vs 184,320 (Llama 2 Table 2): -3.7 %
     *   llama-2-13b 78,095,185,920 + 10,066,329,600 = 88,161,515,520
     *               x 2e12 -> 334,006 h vs 368,640: -9.4 %
     *   llama-2-70b 413,859,889,152 + 32,212,254,720 = 446,072,143,872
     *               x 2e12 -> 1,689,974 h vs 1,720,320: -1.8 %
     *   llama-65b   391,713,964,032 + 16,106,127,360 = 407,820,091,392
     *               x 1.4e12 -> 1,081,538 h vs 1,022,362 (LLaMA Table 15): +5.8 % */
    static const struct {
        const char *id;
        double tokens, hours, want;
    } rows[] = {{"llama-7b", 1e12, 82432.0, 82689.0},
                {"llama-2-7b", 2e12, 184320.0, 177581.0},
                {"llama-2-13b", 2e12, 368640.0, 334006.0},
                {"llama-2-70b", 2e12, 1720320.0, 1689974.0},
                {"llama-65b", 1.4e12, 1022362.0, 1081538.0}};
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "a100-sxm-80gb");
    gp_train_in in;
    gp_train_result r;
    size_t i;
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->eff_mfu.v, 0.47, 1e-12);
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const gp_model *m = gp_db_find_model(db, rows[i].id);
        ck_assert_msg(m != NULL, "model %s", rows[i].id);
        gp_train_in_init(&in);
        in.gpu = g;
        in.model = m;
        in.tokens = rows[i].tokens;
        r = run_ok(&in);
        ck_assert_int_eq(r.mfu_origin, GP_MFU_DATABASE);
        GP_ASSERT_REL(r.gpu_hours, rows[i].want, 1e-5);
        GP_ASSERT_REL(r.gpu_hours, rows[i].hours, 0.10);
    }
    /* Llama 2 34B, the paper's outlier (its 1,038,336 h read 0.380 on the
     * PaLM count, below the seven rows' 0.426-0.548; not in the median):
     * 6N 202,463,821,824 + 12 x 4096 x 8192 x 48 = 19,327,352,832 =
     * 221,791,174,656 x 2e12 / 5.27904e17 = 840,271 h (-19.1 %). */
    gp_train_in_init(&in);
    in.gpu = g;
    in.model = gp_db_find_model(db, "llama-2-34b");
    ck_assert_ptr_nonnull(in.model);
    in.tokens = 2e12;
    r = run_ok(&in);
    GP_ASSERT_REL(r.gpu_hours, 840271.0, 1e-5);
    GP_ASSERT_REL(r.gpu_hours, 1038336.0, 0.20);
}
END_TEST

START_TEST(db_published_rows_h100)
{
    /* The H100-class default (0.40, Llama 3's 38-43 % BF16 MFU, PaLM count)
     * against the Llama 3.1 model card's 30.84M H100-80GB GPU-hours for
     * 405B on 15.6T tokens.  The default sequence is the pre-training
     * length, 8192 (train_seq; the context is 131,072):
     *   A = 4 x 8192 x 16384 x 126 = 67,645,734,912; 3A = 202,937,204,736
     *   6N = 6 x 405,853,388,800 = 2,435,120,332,800 -> 2,638,057,537,536
     *   x 15.6e12 / (989.4e12 x 0.40 x 3600) = 28,885,139 h (-6.3 %; the
     *   card's hours include restarts and the long-context stage). */
    gp_train_result r = db_run("h100-sxm", "llama-3.1-405b", 15.6e12, 16384, 0.0);
    GP_ASSERT_REL(r.seq, 8192.0, 0);
    GP_ASSERT_REL(r.gpu_hours, 28885139.0, 1e-6);
    GP_ASSERT_REL(r.gpu_hours, 30.84e6, 0.10);
}
END_TEST

START_TEST(db_memory_llama2_7b)
{
    /* llama-2-7b (6,738,415,616 params in the database) with Adam: 16 B x
     * 6.738e9 = 107.8 GB of states; on one a100-sxm-80gb (80 GiB): no fit.
     * ZeRO-3 over 8: 13.48 GB of states + 9.43 GB activations at seq 2048
     * (as memory_7b_adam_zero3) + reserve -> fits. */
    const gp_db *db = gp_test_db();
    gp_train_in in;
    gp_train_result r;
    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(db, "a100");
    in.model = gp_db_find_model(db, "llama-2-7b");
    ck_assert_ptr_nonnull(in.gpu);
    ck_assert_ptr_nonnull(in.model);
    in.tokens = 2e12;
    in.seq = 2048;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 16.0 * in.model->params.v, 1e-12);
    ck_assert_int_eq(r.fits, 0);
    in.gpus = 8;
    in.zero = 3;
    r = run_ok(&in);
    GP_ASSERT_REL(r.state_bytes, 2.0 * in.model->params.v, 1e-12);
    GP_ASSERT_REL(r.activation_bytes, 9430892544.0, 1e-9);
    ck_assert_int_eq(r.fits, 1);
}
END_TEST

START_TEST(db_peak_matches_accessor)
{
    /* The planner's inlined dense peak must equal gp_gpu_peak on the default
     * pipeline with fp32 accumulate, for every database GPU and training
     * precision it has. */
    static const gp_precision precs[] = {GP_FP32, GP_TF32, GP_FP16, GP_BF16, GP_FP8, GP_FP4};
    const gp_db *db = gp_test_db();
    size_t i, k;
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    for (i = 0; i < gp_db_count(db, GP_KIND_GPU); i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        for (k = 0; k < sizeof precs / sizeof precs[0]; k++) {
            double want = gp_gpu_peak(g, precs[k], gp_gpu_default_pipeline(g, precs[k]),
                                      GP_ACC_FP32, 0);
            gp_train_in_init(&in);
            in.gpu = g;
            in.params = 1e9;
            in.tokens = 1e9;
            in.precision_set = 1;
            in.precision = precs[k];
            if (want > 0.0) {
                ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
                GP_ASSERT_REL(r.peak_flop_per_s, want, 0);
                ck_assert_int_eq(r.pipeline, gp_gpu_default_pipeline(g, precs[k]));
            } else {
                ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EUNSUP);
            }
        }
    }
}
END_TEST

START_TEST(cli_gpt3_json)
{
    /* Same arithmetic as gpt3_on_h100: 3.15e23 FLOP, 7,369.8 GPU-days; on
     * 1024 GPUs 7.197 wall days. */
    const char *argv[] = {"train", "--gpu", "h100-sxm", "--gpus", "1024", "--params", "175B",
                          "--tokens", "300B", "--mfu", "0.5", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    GP_ASSERT_REL(gp_test_jnum(j, "total_flop"), 3.15e23, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_days"), 7370.0, 5e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "wall_days"), 7369.786 / 1024.0, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu"), 0.5, 1e-12);
    /* Selective recompute (default) adds the attention core: a little more. */
    ck_assert(gp_test_jnum(j, "hardware_flop") >= gp_test_jnum(j, "total_flop"));
    GP_ASSERT_REL(gp_test_jnum(j, "hardware_flop"), 3.15e23, 0.05);
    ck_assert_ptr_nonnull(json_object_get(j, "fits"));
    ck_assert_ptr_nonnull(json_object_get(j, "min_gpus"));
    ck_assert_ptr_nonnull(json_object_get(j, "weight_bytes"));
    json_decref(j);
}
END_TEST

/* The step model's "expected GEMM rate" assumption names the efficiency
 * field its rate comes from, as its source (table and JSON alike):
 *   H100 SXM fp8: 1978.9 x efficiency.compute_fp8 0.709 = 1403.0 TFLOP/s;
 *   H800 fp8 (no FP8 figure): 1978.9 x 0.80 x GP_EFF_NARROW_RATIO 0.8826
 *     = 1397.3 TFLOP/s, "efficiency.compute x 0.883";
 *   H100 SXM bf16: 989.4 x efficiency.compute 0.80 = 791.5 TFLOP/s;
 *   RTX 5090 fp8 (Blackwell, no FP8 figure): 419 x 1.0 x
 *     GP_EFF_NARROW_RATIO_BLACKWELL 0.98352 = 412.1 TFLOP/s, "x 0.983" (it
 *     once read "datasheet x efficiency", the field unnamed).
 * The source is a string that outlives the assumptions' builder (it once
 * pointed into its locals and printed whatever the stack held next). */
START_TEST(cli_gemm_rate_source_names_its_efficiency)
{
    static const struct {
        const char *gpu, *prec, *value, *src;
    } rows[] = {
        {"h100-sxm", "fp8", "1.403 PFLOP/s (peak x efficiency.compute_fp8)",
         "datasheet x efficiency.compute_fp8"},
        {"h800", "fp8", "1.397 PFLOP/s (peak x efficiency.compute x 0.883)",
         "datasheet x efficiency.compute x 0.883"},
        {"h100-sxm", "bf16", "791.5 TFLOP/s (peak x efficiency.compute)",
         "datasheet x efficiency.compute"},
        {"rtx-5090", "fp8", "412.1 TFLOP/s (peak x efficiency.compute x 0.983)",
         "datasheet x efficiency.compute x 0.983"},
    };
    size_t i, k;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *argv[] = {"train", "--gpu", rows[i].gpu, "--gpus", "8", "--model",
                              "llama-3.1-8b", "--tokens", "1T", "--mfu", "model", "--zero",
                              "3", "--seq", "8192", "--global-batch", "128", "--precision",
                              rows[i].prec, "--json", NULL};
        const char *text[] = {"train", "--gpu", rows[i].gpu, "--gpus", "8", "--model",
                              "llama-3.1-8b", "--tokens", "1T", "--mfu", "model", "--zero",
                              "3", "--seq", "8192", "--global-batch", "128", "--precision",
                              rows[i].prec, NULL};
        json_t *j = gp_test_cli_json(argv);
        const json_t *as = json_object_get(j, "assumptions"), *found = NULL;
        char *out = NULL, line[256];
        ck_assert(json_is_array(as));
        for (k = 0; k < json_array_size(as); k++) {
            const json_t *a = json_array_get(as, k);
            if (strcmp(json_string_value(json_object_get(a, "name")), "expected GEMM rate") == 0)
                found = a;
        }
        ck_assert_msg(found != NULL, "%s %s: no expected GEMM rate", rows[i].gpu, rows[i].prec);
        ck_assert_str_eq(json_string_value(json_object_get(found, "value")), rows[i].value);
        ck_assert_str_eq(json_string_value(json_object_get(found, "source")), rows[i].src);
        json_decref(j);
        ck_assert_int_eq(gp_test_cli(text, &out, NULL), 0);
        snprintf(line, sizeof line, "%s %s\n", rows[i].value, rows[i].src);
        ck_assert_msg(strstr(out, line) != NULL, "%s %s: no '%s' in the table", rows[i].gpu,
                      rows[i].prec, line);
        free(out);
    }
}
END_TEST

/* The scale-out assumption names the NICs priced: --nics-per-node 1000 on
 * nodes of 8 H100s prices 8 (one NIC a GPU, the note says so) and the row
 * said "1000 NICs per node". */
START_TEST(cli_nics_priced_in_assumptions)
{
    const char *argv[] = {"--json", "train", "--gpu", "h100", "--gpus", "16", "--model",
                          "llama-3.1-8b", "--tokens", "1T", "--mfu", "model", "--scale-out",
                          "ib-ndr", "--nics-per-node", "1000", NULL};
    json_t *j = gp_test_cli_json(argv);
    const json_t *as = json_object_get(j, "assumptions"), *found = NULL;
    size_t k;
    for (k = 0; k < json_array_size(as); k++) {
        const json_t *a = json_array_get(as, k);
        if (strcmp(json_string_value(json_object_get(a, "name")), "scale-out link") == 0)
            found = a;
    }
    ck_assert_ptr_nonnull(found);
    ck_assert_str_eq(json_string_value(json_object_get(found, "value")),
                     "ib-ndr, 8 NICs per node (--nics-per-node: one NIC a GPU at most)");
    json_decref(j);
}
END_TEST

/* A shape on the command line.  GPT-2 small's dimensions (12 layers, h
 * 768, 12 heads, V 50257, plain FFN 3072, tied embeddings), counted by
 * gp_model_count_params: per layer attention 4 h^2 = 2,359,296 + FFN 2 h f
 * = 4,718,592 + two norms 1,536 = 7,079,424, x 12 = 84,953,088; + V h =
 * 38,597,376 + the final norm 768 = 123,551,232 (no biases or position
 * table: the real GPT-2 is 124,439,808, `--model gpt2`).  6 N D at 10B
 * tokens = 7.4130739e18 FLOP.  With --model a field overrides the model's
 * shape and the count follows the shape; --params replaces the count. */
START_TEST(cli_shape_options)
{
    const char *shape[] = {"train", "--gpu", "a100", "--layers", "12", "--hidden", "768",
                           "--heads", "12", "--vocab", "50257", "--ffn", "3072", "--ffn-kind",
                           "plain", "--tied", "--tokens", "10B", "--json", NULL};
    const char *over[] = {"train", "--gpu", "a100", "--model", "llama-2-7b", "--layers", "16",
                          "--tokens", "10B", "--exact", "--json", NULL};
    const char *both[] = {"train", "--gpu", "a100", "--model", "llama-2-7b", "--layers", "16",
                          "--params", "3.5B", "--tokens", "10B", "--json", NULL};
    const char *bad[] = {"train", "--gpu", "a100", "--layers", "12", "--tokens", "1B", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(shape);
    GP_ASSERT_REL(gp_test_jnum(j, "params"), 123551232.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "flop_6nd"), 6.0 * 123551232.0 * 1e10, 1e-12);
    json_decref(j);
    /* A changed shape is counted again -- 16 of llama-2-7b's layers: 16 x
     * (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096 = 202,383,360) + 2 x 32000
     * x 4096 + 4096 = 3,500,281,856 -- and the model's 4096-token default
     * sequence stays; the exact count uses the 16 layers: per token 2 x (16
     * layers x (4 x 4096^2 + 3 x 4096 x 11008) = 16 x 202,375,168 =
     * 3,238,002,688) + 2 x 4096 x 32000 = 6,476,005,376 + 262,144,000 =
     * 6,738,149,376 matmul FLOP forward, + attention 4 x 4096 x 4096 x 16 =
     * 1,073,741,824: x 3 = 23,435,673,600 per token. */
    j = gp_test_cli_json(over);
    GP_ASSERT_REL(gp_test_jnum(j, "params"), 3500281856.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "seq"), 4096.0, 0);
    GP_ASSERT_REL(gp_test_jnum(j, "flop_exact") / 1e10, 3.0 * (6738149376.0 + 1073741824.0),
                  1e-9);
    json_decref(j);
    j = gp_test_cli_json(both);
    GP_ASSERT_REL(gp_test_jnum(j, "params"), 3.5e9, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "seq"), 4096.0, 0);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(bad, &out, &err), 2);
    ck_assert_msg(strstr(err, "needs '--hidden'") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* --global-batch in tokens divides by the sequence the run uses: Qwen3 8B
 * pre-trained on 4,096-token sequences (its context is 40,960), so
 * 4,194,304 tokens are 1,024 sequences (not 512 of the capped context's
 * 8,192). */
START_TEST(cli_global_batch_tokens_use_train_seq)
{
    const char *argv[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "qwen3-8b",
                          "--tokens", "1T", "--mfu", "model", "--global-batch", "4194304tok",
                          "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    GP_ASSERT_REL(gp_test_jnum(j, "seq"), 4096.0, 0);
    GP_ASSERT_REL(json_number_value(json_object_get(json_object_get(j, "step"), "global_batch")),
                  1024.0, 0);
    json_decref(j);
    {
        /* The help's example size works with the usual power-of-two
         * sequences: 16Mitok = 16 x 2^20 = 16,777,216 tokens = 4096
         * sequences of 4096 (decimal 16Mtok = 16e6 is 3906.25 of them and is
         * refused). */
        const char *ex[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "qwen3-8b",
                            "--tokens", "1T", "--mfu", "model", "--global-batch", "16Mitok",
                            "--json", NULL};
        const char *help[] = {"train", "--help", NULL};
        char *out = NULL;
        j = gp_test_cli_json(ex);
        GP_ASSERT_REL(
            json_number_value(json_object_get(json_object_get(j, "step"), "global_batch")),
            4096.0, 0);
        json_decref(j);
        ck_assert_int_eq(gp_test_cli(help, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "(16Mitok:"));
        free(out);
    }
}
END_TEST

/* QLoRA memory: Llama 3.1 8B's frozen layers, 8,030,261,248 - 2 x 128256 x
 * 4096 = 6,979,588,096 weights in NF4 (4.5 bits with the block scales,
 * hwdb/formats/nf4.yaml) = 3,926,018,304 B; the two embedding matrices stay
 * bf16 (bitsandbytes quantises Linear layers, transformers leaves lm_head
 * out): 1,050,673,152 x 2 = 2,101,346,304 B; + 42M bf16 adapters =
 * 84,000,000 B: 6,111,364,608 B of weights; the
 * adapters alone carry gradients (84,000,000 B) and Adam states (12 B
 * each: 504,000,000 B). */
/* --moe-overlap through the CLI: the JSON says so, and what it hides plus
 * what stays exposed is the plain run's all-to-all (the same micro-batches,
 * so the same m x A). */
START_TEST(cli_moe_overlap_json)
{
    const char *plain[] = {"train", "--gpu", "a100", "--gpus", "16", "--model", "mixtral-8x7b",
                           "--tokens", "1T", "--mfu", "model", "--tp", "2", "--ep", "8",
                           "--seq", "4096", "--zero", "1", "--scale-out", "ib-hdr", "--json",
                           NULL};
    const char *ovl[] = {"train", "--gpu", "a100", "--gpus", "16", "--model", "mixtral-8x7b",
                         "--tokens", "1T", "--mfu", "model", "--tp", "2", "--ep", "8",
                         "--seq", "4096", "--zero", "1", "--scale-out", "ib-hdr", "--json",
                         "--moe-overlap", NULL};
    json_t *a = gp_test_cli_json(plain), *b = gp_test_cli_json(ovl);
    const json_t *sa = json_object_get(a, "step"), *sb = json_object_get(b, "step");
    ck_assert_ptr_nonnull(sa);
    ck_assert_ptr_nonnull(sb);
    ck_assert(json_is_false(json_object_get(sa, "moe_overlap")));
    ck_assert(json_is_true(json_object_get(sb, "moe_overlap")));
    GP_ASSERT_REL(gp_test_jnum(sa, "alltoall_hidden_s"), 0.0, 0);
    ck_assert(gp_test_jnum(sb, "alltoall_hidden_s") > 0.0);
    GP_ASSERT_REL(gp_test_jnum(sb, "alltoall_s") + gp_test_jnum(sb, "alltoall_hidden_s"),
                  gp_test_jnum(sa, "alltoall_s"), 1e-9);
    ck_assert(gp_test_jnum(sb, "step_s") < gp_test_jnum(sa, "step_s"));
    json_decref(a);
    json_decref(b);
}
END_TEST

/* The table names the count it charges: adapter fine-tuning's model FLOPs
 * are (4 N + 6 N_a) D, not 6 N D (8.03e9 x 4 + 42e6 x 6 = 3.2372e10 a
 * token, x 1e8 tokens = 3.2372e18); the hardware count on 6 N D leaves the
 * attention out, so its HFU can sit below the PaLM MFU, and it says so. */
START_TEST(cli_count_labels)
{
    const char *lora[] = {"train", "--gpu", "rtx-4090", "--model", "llama-3.1-8b", "--tokens",
                          "100M", "--lora-params", "42M", "--base-format", "nf4", NULL};
    const char *prof[] = {"train", "--gpu", "h100", "--gpus", "64", "--model", "llama-3-8b",
                          "--tokens", "1T", "--step-time", "6s", "--tokens-per-step", "4M", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(lora, &out, &err), 0);
    ck_assert_msg(strstr(out, "(4 N + 6 N_a) D: frozen base (MFU basis)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "6 N D (MFU basis)") == NULL, "%s", out);
    free(out);
    free(err);
    {
        const char *lj[] = {"train", "--gpu", "rtx-4090", "--model", "llama-3.1-8b",
                            "--tokens", "100M", "--lora-params", "42M", "--base-format", "nf4",
                            "--json", NULL};
        json_t *o = gp_test_cli_json(lj);
        GP_ASSERT_REL(gp_test_jnum(o, "total_flop"), 3.2372e18, 1e-3);
        json_decref(o);
    }
    ck_assert_int_eq(gp_test_cli(prof, &out, &err), 0);
    ck_assert_msg(strstr(out, "6 N D, no attention + selective recompute (HFU basis)") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "below the PaLM MFU, which counts the attention") != NULL, "%s",
                  out);
    free(out);
    free(err);
}
END_TEST

START_TEST(cli_qlora_base_format)
{
    const char *argv[] = {"train", "--gpu", "rtx-4090", "--model", "llama-3.1-8b", "--tokens",
                          "100M", "--lora-params", "42M", "--base-format", "nf4", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 6111364608.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "grad_bytes"), 84000000.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "optimizer_bytes"), 504000000.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "base_bits"), 4.5, 0);
    json_decref(j);
}
END_TEST

/* Under fp32 training the embeddings and adapters a 16-bit frozen base keeps
 * beside it are 32-bit (4 B): Llama 3.1 8B, bf16 base, 42M adapters:
 * (8,030,261,248 - 1,050,673,152) x 2 + 1,050,673,152 x 4 + 42e6 x 4 =
 * 13,959,176,192 + 4,202,692,608 + 168,000,000 = 18,329,868,800 B; the
 * table must not call them 16-bit. */
START_TEST(cli_base_format_fp32_training_label)
{
    const char *argv[] = {"train", "--gpu", "h100", "--model", "llama-3.1-8b", "--tokens",
                          "1B", "--lora-params", "42M", "--base-format", "bf16",
                          "--precision", "fp32", NULL};
    const char *js[] = {"train", "--gpu", "h100", "--model", "llama-3.1-8b", "--tokens",
                        "1B", "--lora-params", "42M", "--base-format", "bf16",
                        "--precision", "fp32", "--json", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(js);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 18329868800.0, 1e-12);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert(strstr(out, "embeddings and adapters 32-bit") != NULL);
    free(out);
    free(err);
}
END_TEST

/* The warning for a predicted MFU above the highest published run (0.72 on
 * the PaLM count) prints a figure above 0.72: this layout predicts just
 * over it (JSON mfu_palm in (0.72, 0.7205)), which three significant digits
 * printed as "0.72 ... is above ... (0.72". */
START_TEST(cli_published_max_warning_prints_above)
{
    const char *argv[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                          "--tokens", "1T", "--cp", "2", "--lora-params", "10M", "--mfu",
                          "model", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    double palm = gp_test_jnum(j, "mfu_palm"), shown;
    const char *w = json_string_value(json_array_get(json_object_get(j, "warnings"), 0));
    const char *at;
    ck_assert(palm > GP_TRAIN_MFU_PUBLISHED_MAX && palm < 0.7205);
    ck_assert(w != NULL);
    at = strstr(w, "predicted MFU ");
    ck_assert_msg(at != NULL, "%s", w);
    shown = strtod(at + strlen("predicted MFU "), NULL);
    ck_assert_msg(shown > GP_TRAIN_MFU_PUBLISHED_MAX, "%s", w);
    GP_ASSERT_REL(shown, palm, 2e-4);
    json_decref(j);
}
END_TEST

/* Small costs keep their cents: 1B params x 1B tokens on one RTX 4090 at
 * MFU 0.5: 6e18 / (165.2e12 x 0.5) = 72,639.23 s; energy 450 W x 1.2 x
 * 72,639.23 s / 3.6e6 = 10.8959 kWh x USD 0.08 = USD 0.8717, which the
 * table printed as "USD 1". */
START_TEST(cli_small_cost_keeps_cents)
{
    const char *argv[] = {"train", "--gpu", "rtx-4090", "--params", "1B", "--tokens", "1B",
                          "--mfu", "0.5", NULL};
    const char *js[] = {"train", "--gpu", "rtx-4090", "--params", "1B", "--tokens", "1B",
                        "--mfu", "0.5", "--json", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(js);
    GP_ASSERT_REL(gp_test_jnum(j, "energy_kwh"), 450.0 * 1.2 * (6e18 / (165.2e12 * 0.5)) / 3.6e6,
                  1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "cost_energy_usd"), 0.871670702, 1e-6);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert(strstr(out, "USD 0.87 ") != NULL);
    free(out);
    free(err);
}
END_TEST

/* A run shorter than a day prints its wall-clock in hours or seconds, not
 * "0.00 days": 7B on 1B tokens, 8 H100 at MFU 0.5: 6 x 7e9 x 1e9 /
 * (989.4e12 x 0.5) / 8 = 10,612.49 s = 2.948 h; on 100k tokens 1.0612 s. */
START_TEST(cli_short_wall_clock)
{
    const char *a[] = {"train", "--gpu", "h100", "--gpus", "8", "--params", "7B", "--tokens",
                       "1B", "--mfu", "0.5", NULL};
    const char *b[] = {"train", "--gpu", "h100", "--gpus", "8", "--params", "7B", "--tokens",
                       "100k", "--mfu", "0.5", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(a, &out, &err), 0);
    ck_assert(strstr(out, "wall-clock                   2.95 h ") != NULL);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(b, &out, &err), 0);
    ck_assert(strstr(out, "wall-clock                   1.06 s ") != NULL);
    free(out);
    free(err);
}
END_TEST

/* Options that price nothing are said, as allreduce and scale say them:
 * 8 H100 fit in one node of 8, so --scale-out and --nics-per-node go
 * unused by the step model. */
START_TEST(cli_step_model_one_node_notes)
{
    const char *argv[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                          "--tokens", "1T", "--mfu", "model", "--scale-out", "ib-ndr",
                          "--nics-per-node", "4", NULL};
    const char *two[] = {"train", "--gpu", "h100", "--gpus", "16", "--model", "llama-2-7b",
                         "--tokens", "1T", "--mfu", "model", "--scale-out", "ib-ndr", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert_msg(strstr(err, "note: --scale-out and --nics-per-node ignored: the 8 GPUs are "
                              "one node") != NULL,
                  "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(two, &out, &err), 0);
    ck_assert_msg(strstr(err, "ignored") == NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

START_TEST(cli_profile_llama65b)
{
    /* 380 tok/s/GPU x 2048 GPUs: a 2 s step of 1,556,480 tokens; wall 20.82
     * days, implied MFU 0.4765 (see llama65b_profile_mode). */
    const char *argv[] = {"train", "--gpu", "a100-sxm-80gb", "--gpus", "2048", "--params",
                          "65.2B", "--tokens", "1.4T", "--step-time", "2s",
                          "--tokens-per-step", "1556480", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    GP_ASSERT_REL(gp_test_jnum(j, "wall_days"), 20.821, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu"), 0.47646, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "tokens_per_s_per_gpu"), 380.0, 1e-9);
    json_decref(j);
}
END_TEST

START_TEST(cli_memory_zero3)
{
    /* 7B, Adam: one GPU does not fit (112 GB of states); ZeRO-3 over 8 fits
     * with 14 GB of states per GPU. */
    const char *one[] = {"train", "--gpu", "a100", "--params", "7B", "--tokens", "1T",
                         "--json", NULL};
    const char *eight[] = {"train", "--gpu", "a100", "--gpus", "8", "--zero", "3", "--params",
                           "7B", "--tokens", "1T", "--json", NULL};
    json_t *j = gp_test_cli_json(one);
    ck_assert(json_is_false(json_object_get(j, "fits")));
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes") + gp_test_jnum(j, "grad_bytes") + gp_test_jnum(j, "optimizer_bytes"),
                  112e9, 1e-12);
    json_decref(j);
    j = gp_test_cli_json(eight);
    ck_assert(json_is_true(json_object_get(j, "fits")));
    GP_ASSERT_REL(gp_test_jnum(j, "state_bytes"), 14e9, 1e-12);
    json_decref(j);
}
END_TEST

/* train --mfu model takes --link-bw as the link inside a node, as
 * allreduce, scale and decode do: Llama 2 7B's 6,738,415,616 fp16
 * gradients on 8 GPUs at 25 GB/s, alpha 0: 1.75 x 13,476,831,232 /
 * 25e9 = 0.9433782 s of AllReduce a step.  Without --mfu model it is
 * refused, as the other step-model options are. */
START_TEST(cli_step_link_bw)
{
    const char *argv[] = {"train", "--gpu", "h100", "--model", "llama-2-7b", "--tokens", "1T",
                          "--gpus", "8", "--mfu", "model", "--link-bw", "25GB/s", "--json",
                          NULL};
    const char *bad[] = {"train", "--gpu", "h100", "--model", "llama-2-7b", "--tokens", "1T",
                         "--gpus", "8", "--link-bw", "25GB/s", NULL};
    json_t *j = gp_test_cli_json(argv);
    char *out = NULL, *err = NULL;
    GP_ASSERT_REL(json_number_value(json_object_get(json_object_get(j, "step"), "dp_comm_s")),
                  1.75 * 13476831232.0 / 25e9, 1e-9);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(bad, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'--link-bw', '--link-latency'"));
    free(out);
    free(err);
}
END_TEST

/* A layout that does not fit is warned in every mode (it was only in
 * --mfu model's): Llama 2 7B on A100s at ZeRO 0 holds 16 B a parameter
 * of states, 16 x 6,738,415,616 = 107.8 GB > 85.9 GB usable; ZeRO-3
 * shards them: on 2 GPUs 53.9 GB + activations and reserve fit. */
START_TEST(cli_no_fit_warns)
{
    const char *argv[] = {"train", "--gpu", "a100", "--model", "llama-2-7b", "--tokens", "2T",
                          "--gpus", "1024", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    const json_t *w = json_object_get(j, "warnings");
    ck_assert(json_is_false(json_object_get(j, "fits")));
    ck_assert(json_array_size(w) == 1);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 0)),
                                 "does not fit in GPU memory at this layout"));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 0)),
                                 "ZeRO-3 fits it from 2 GPUs"));
    json_decref(j);
}
END_TEST

/* The warning for a given MFU above the peak on one count (see
 * given_mfu_peak_share): the database's Llama 2 7B, N 6,738,415,616, s
 * 4096: MFU 0.9 x (6N + 3 x 2,147,483,648) / 6N = 0.9 x 46,872,944,640 /
 * 40,430,493,696 = 1.04341 on the PaLM count. */
START_TEST(cli_given_mfu_warns)
{
    const char *argv[] = {"train", "--gpu", "h100", "--model", "llama-2-7b", "--tokens", "1T",
                          "--mfu", "0.9", "--gpus", "8", "--zero", "3", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    const json_t *w = json_object_get(j, "warnings");
    GP_ASSERT_REL(gp_test_jnum(j, "mfu_palm"), 0.9 * 46872944640.0 / 40430493696.0, 1e-9);
    ck_assert(json_array_size(w) == 1);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 0)),
                                 "above the datasheet peak"));
    json_decref(j);
}
END_TEST

/* ZeRO-2/3 with pipeline parallelism is priced but warned: DeepSpeed's
 * PipelineEngine asserts ZeRO stage < 2, torchtitan runs FSDP with PP.
 * Llama 2 7B on 8 H100, pp 2: dp = 8 / 2 = 4; --global-batch 32 at
 * micro-batch 1 gives m = 32 / (4 x 1) = 8 micro-batches, so the step
 * model's ZeRO-3 is 8 x (2 AllGathers + 1 ReduceScatter) a step and its
 * ZeRO-2 is 8 - 1 = 7 ReduceScatters + 1 AllReduce.  Without the step model
 * (--mfu 0.4) the warning says only the memory is sharded.  ZeRO-1 with
 * pp 2, and ZeRO-3 with pp 1, warn nothing (the run fits in both). */
static const char *pp_zero_warning(json_t *j)
{
    const json_t *w = json_object_get(j, "warnings");
    size_t i;
    for (i = 0; i < json_array_size(w); i++) {
        const char *s = json_string_value(json_array_get(w, i));
        if (s != NULL && strstr(s, "DeepSpeed") != NULL)
            return s;
    }
    return NULL;
}

START_TEST(cli_zero_with_pp_warns)
{
    const char *z3[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                        "--tokens", "1T", "--mfu", "model", "--pp", "2", "--zero", "3",
                        "--global-batch", "32", "--json", NULL};
    const char *z2[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                        "--tokens", "1T", "--mfu", "model", "--pp", "2", "--zero", "2",
                        "--global-batch", "32", "--json", NULL};
    const char *z2one[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                           "--tokens", "1T", "--mfu", "model", "--pp", "2", "--zero", "2",
                           "--global-batch", "4", "--json", NULL};
    const char *z3fixed[] = {"train", "--gpu", "h100", "--gpus", "8", "--model",
                             "llama-2-7b", "--tokens", "1T", "--mfu", "0.4", "--pp", "2",
                             "--zero", "3", "--json", NULL};
    const char *z1[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                        "--tokens", "1T", "--mfu", "model", "--pp", "2", "--zero", "1",
                        "--global-batch", "32", "--json", NULL};
    const char *pp1[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                         "--tokens", "1T", "--mfu", "model", "--zero", "3", "--global-batch",
                         "32", "--json", NULL};
    const char *table[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-2-7b",
                           "--tokens", "1T", "--mfu", "model", "--pp", "2", "--zero", "3",
                           "--global-batch", "32", NULL};
    char *out = NULL, *err = NULL;
    const char *w;
    json_t *j = gp_test_cli_json(z3);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "step"), "micro_batches"), 8.0, 0);
    w = pp_zero_warning(j);
    ck_assert_msg(w != NULL, "no ZeRO/PP warning");
    ck_assert_msg(strstr(w, "--zero 3 with --pp 2") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "refuses ZeRO-2/3 with pipeline parallelism") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "torchtitan") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "8 x (2 AllGathers + 1 ReduceScatter) a step") != NULL, "%s", w);
    json_decref(j);

    j = gp_test_cli_json(z2);
    w = pp_zero_warning(j);
    ck_assert_msg(w != NULL, "no ZeRO/PP warning");
    ck_assert_msg(strstr(w, "--zero 2 with --pp 2") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "7 ReduceScatters + 1 AllReduce a step") != NULL, "%s", w);
    json_decref(j);

    /* --global-batch 4 = dp 4 x micro-batch 1: one micro-batch, so ZeRO-2's
     * step is one AllReduce (no ReduceScatter), as ZeRO-1's. */
    j = gp_test_cli_json(z2one);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "step"), "micro_batches"), 1.0, 0);
    w = pp_zero_warning(j);
    ck_assert_msg(w != NULL, "no ZeRO/PP warning");
    ck_assert_msg(strstr(w, "one micro-batch a step: 1 AllReduce") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "0 ReduceScatters") == NULL, "%s", w);
    json_decref(j);

    j = gp_test_cli_json(z3fixed);
    w = pp_zero_warning(j);
    ck_assert_msg(w != NULL, "no ZeRO/PP warning");
    ck_assert_msg(strstr(w, "--zero 3 with --pp 2") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "weights, gradients and optimizer states sharded") != NULL, "%s", w);
    ck_assert_msg(strstr(w, "inside --mfu") != NULL, "%s", w);
    json_decref(j);

    j = gp_test_cli_json(z1);
    ck_assert_ptr_null(pp_zero_warning(j));
    json_decref(j);
    j = gp_test_cli_json(pp1);
    ck_assert_ptr_null(pp_zero_warning(j));
    json_decref(j);

    /* The table run says it on stderr, as train's other warnings. */
    ck_assert_int_eq(gp_test_cli(table, &out, &err), 0);
    ck_assert_msg(strstr(err, "gpuplan train: warning: --zero 3 with --pp 2: DeepSpeed") != NULL,
                  "%s", err);
    free(out);
    free(err);
}
END_TEST

static void expect_usage(const char *const *argv, const char *needle)
{
    char *out = NULL, *err = NULL;
    int rc = gp_test_cli(argv, &out, &err);
    ck_assert_msg(rc == 2, "exit %d (want 2) for %s", rc, needle);
    ck_assert_msg(err != NULL && strstr(err, needle) != NULL, "stderr lacks '%s': %s", needle,
                  err ? err : "");
    free(out);
    free(err);
}

/* --ffn on a MoE model is the width of its dense layers' FFN.  Llama 4
 * Maverick has 24 dense layers of hidden 5120 with a gated FFN (3
 * matrices): --ffn 1000 instead of 16384 removes 24 x 5120 x 3 x (16384 -
 * 1000) = 5,671,157,760 parameters, all of them active (dense layers serve
 * every token).  Mixtral 8x7B has no dense layers: --ffn would change
 * nothing (its experts' width is expert_ffn_hidden), so it is refused. */
START_TEST(cli_ffn_on_moe)
{
    const char *wide[] = {"train", "--gpu", "h100", "--gpus", "8", "--model", "llama-4-maverick",
                          "--tokens", "1T", "--ffn", "16384", "--json", NULL};
    const char *narrow[] = {"train", "--gpu", "h100", "--gpus", "8", "--model",
                            "llama-4-maverick", "--tokens", "1T", "--ffn", "1000", "--json",
                            NULL};
    const char *mixtral[] = {"train", "--gpu", "h100", "--model", "mixtral-8x7b", "--tokens",
                             "1T", "--ffn", "1000", NULL};
    json_t *a = gp_test_cli_json(wide), *b = gp_test_cli_json(narrow);
    /* JSON numbers carry 15 significant digits (GP_CLI_NUM_DIGITS):
     * whole counts under 1e15 print exactly. */
    GP_ASSERT_REL(gp_test_jnum(a, "params") - gp_test_jnum(b, "params"), 5671157760.0, 1e-7);
    GP_ASSERT_REL(gp_test_jnum(a, "params_active") - gp_test_jnum(b, "params_active"),
                  5671157760.0, 1e-7);
    json_decref(a);
    json_decref(b);
    expect_usage(mixtral, "'--ffn' sets the width of the dense layers' FFN, and 'mixtral-8x7b' "
                          "has no dense layers");
}
END_TEST

START_TEST(cli_bad_input)
{
    const char *a[] = {"train", "--gpu", "a100", "--params", "7B", "--tokens", "0", NULL};
    const char *b[] = {"train", "--gpu", "a100", "--params", "0", "--tokens", "1T", NULL};
    const char *c[] = {"train", "--gpu", "a100", "--params", "7B", "--tokens", "1T", "--mfu",
                       "1.5", NULL};
    const char *d[] = {"train", "--gpu", "a100", "--params", "7B", "--tokens", "1T",
                       "--precision", "fp8", NULL};
    const char *f[] = {"train", "--gpu", "a100", "--gpus", "2.5", "--params", "7B", "--tokens",
                       "1T", NULL};
    const char *g[] = {"train", "--gpu", "a100", "--gpus", "0", "--params", "7B", "--tokens",
                       "1T", NULL};
    const char *h[] = {"train", "--gpu", "a100", "--params", "7B", NULL};
    const char *i[] = {"train", "--gpu", "a100", "--params", "7B", "--tokens", "1T", "--mfu",
                       "0", NULL};
    const char *k[] = {"train", "--gpu", "nosuchgpu", "--params", "7B", "--tokens", "1T", NULL};
    expect_usage(a, "--tokens");
    expect_usage(b, "--params");
    expect_usage(c, "--mfu");
    expect_usage(d, "--precision");
    expect_usage(f, "--gpus");
    expect_usage(g, "--gpus");
    expect_usage(h, "--tokens");
    expect_usage(i, "--mfu");
    expect_usage(k, "--gpu");
    {
        /* 1e300 x 1e300 x 6 overflows to inf: refused (cap 1e15 params,
         * 1e18 tokens) instead of printing "inf FLOP". */
        const char *l[] = {"train", "--gpu", "a100", "--params", "1e300", "--tokens", "1T",
                           NULL};
        const char *m[] = {"train", "--gpu", "a100", "--params", "7B", "--tokens", "1e300",
                           NULL};
        expect_usage(l, "--params");
        expect_usage(m, "--tokens");
    }
}
END_TEST

START_TEST(cli_help_and_table)
{
    const char *help[] = {"train", "--help", NULL};
    const char *tab[] = {"train", "--gpu", "h100", "--gpus", "64", "--model", "llama-2-7b",
                         "--tokens", "2T", NULL};
    char *out = NULL, *err = NULL;
    const char *prec;
    ck_assert_int_eq(gp_test_cli(help, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "--step-time"));
    /* --precision lists every training precision the planner takes (lib/
     * train.c: bf16, fp16, fp8, fp4, tf32, fp32) and bf16's fallback on a
     * GPU without it (V100: fp16, docs/hwdb.md). */
    prec = strstr(out, "  --precision");
    ck_assert_ptr_nonnull(prec);
    ck_assert_ptr_nonnull(strstr(prec + 1, "\n  --"));
    {
        char block[256];
        size_t n = (size_t)(strstr(prec + 1, "\n  --") - prec);
        ck_assert_uint_lt(n, sizeof block);
        memcpy(block, prec, n);
        block[n] = '\0';
        ck_assert_msg(strstr(block, "fp4") != NULL, "%s", block);
        ck_assert_msg(strstr(block, "fp16 on a GPU") != NULL, "%s", block);
    }
    /* --mfu's default is not printed as given: the database figure (H100
     * 0.40) is quoted on the PaLM count and restated for the run (llama-2-7b
     * on H100 prints 0.345), and the help says so. */
    prec = strstr(out, "  --mfu");
    ck_assert_ptr_nonnull(prec);
    ck_assert_ptr_nonnull(strstr(prec + 1, "\n  --"));
    {
        char block[512];
        size_t n = (size_t)(strstr(prec + 1, "\n  --") - prec);
        ck_assert_uint_lt(n, sizeof block);
        memcpy(block, prec, n);
        block[n] = '\0';
        ck_assert_msg(strstr(block, "PaLM count") != NULL, "%s", block);
        ck_assert_msg(strstr(block, "restated") != NULL, "%s", block);
    }
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(tab, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "MFU"));
    ck_assert_ptr_nonnull(strstr(out, "GPU-days"));
    free(out);
    free(err);
}
END_TEST

/* gp_train_in_init sets what train.h says it sets, the CLI's defaults
 * (--recompute selective, bf16, ZeRO 0, 6ND), and zero elsewhere. */
START_TEST(in_init_defaults_as_documented)
{
    gp_train_in in;
    memset(&in, 0x5a, sizeof in);
    gp_train_in_init(&in);
    ck_assert_int_eq(in.gpus, 1);
    ck_assert_int_eq(in.tp, 1);
    ck_assert_int_eq(in.pp, 1);
    GP_ASSERT_REL(in.micro_batch, 1.0, 0);
    ck_assert_int_eq(in.sequence_parallel, 1);
    ck_assert_int_eq(in.optimizer, GP_OPT_ADAM);
    ck_assert_int_eq(in.recompute, GP_RECOMPUTE_SELECTIVE);
    ck_assert_int_eq(in.count, GP_COUNT_6ND);
    ck_assert_int_eq(in.precision_set, 0);
    ck_assert_int_eq(in.precision, GP_BF16);
    ck_assert_int_eq(in.ep, 1);
    GP_ASSERT_REL(in.moe_imbalance, 1.0, 0);
    ck_assert_ptr_null(in.gpu);
    ck_assert_ptr_null(in.model);
    ck_assert_int_eq(in.zero, 0);
    GP_ASSERT_REL(in.tokens, 0.0, 0);
    GP_ASSERT_REL(in.mfu, 0.0, 0);
    ck_assert_int_eq(in.mfu_mode, 0);
    gp_train_in_init(NULL); /* a no-op */
}
END_TEST

/* Enumerations set by hand are GP_EINVAL naming the option: a recompute
 * mode of 9 used to plan with every activation kept, a bad optimizer or
 * count with Adam / 6ND, an mfu_mode other than 0 or GP_MFU_MODEL with the
 * default MFU, and a precision of 99 read "has no unknown rate". */
START_TEST(enum_out_of_range_is_einval)
{
    static const char *const where[] = {"--recompute", "--optimizer", "--exact", "--mfu",
                                        "--precision"};
    gp_gpu g = h100();
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    int k;
    for (k = 0; k < 5; k++) {
        gp_train_in_init(&in);
        in.gpu = &g;
        in.params = 7e9;
        in.tokens = 1e12;
        if (k == 0)
            in.recompute = (gp_train_recompute)9;
        else if (k == 1)
            in.optimizer = (gp_train_optimizer)9;
        else if (k == 2)
            in.count = (gp_train_count)9;
        else if (k == 3)
            in.mfu_mode = GP_MFU_PROFILE;
        else {
            in.precision_set = 1;
            in.precision = (gp_precision)99;
        }
        ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
        ck_assert_str_eq(e.where, where[k]);
    }
}
END_TEST

/* A NaN in a cost or profile input fell through every "< 0" and "> cap"
 * test and was taken for "not given": the database rent, the default PUE,
 * no profile.  Each is refused, naming its option. */
START_TEST(cost_and_profile_inputs_refuse_nan)
{
    static const char *const where[] = {"--price", "--purchase", "--years", "--pue",
                                        "--kwh-price", "--step-time", "--tokens-per-step",
                                        "--batch"};
    const gp_gpu *g = gp_db_find_gpu(gp_test_db(), "h100");
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    size_t i;
    for (i = 0; i < sizeof where / sizeof where[0]; i++) {
        gp_train_in_init(&in);
        in.gpu = g;
        in.params = 7e9;
        in.tokens = 1e12;
        switch (i) {
        case 0: in.price = NAN; break;
        case 1: in.purchase = NAN; break;
        case 2: in.years = NAN; break;
        case 3: in.pue = NAN; break;
        case 4: in.kwh_price = NAN; break;
        case 5: in.step_time = NAN; in.tokens_per_step = 1e6; break;
        case 6: in.step_time = 1.0; in.tokens_per_step = NAN; break;
        default: in.step_time = 1.0; in.batch = NAN; break;
        }
        gp_err_clear(&e);
        ck_assert_msg(gp_train_estimate(&in, NULL, &r, &e) == GP_EINVAL, "%s NaN accepted",
                      where[i]);
        ck_assert_str_eq(e.where, where[i]);
        ck_assert_ptr_nonnull(strstr(e.msg, "nan"));
    }
}
END_TEST

Suite *gp_test_suite_train(void)
{
    Suite *s = suite_create("train");
    TCase *model = tcase_create("model");
    TCase *db = tcase_create("db");
    TCase *cli = tcase_create("cli");
    tcase_add_test(model, gpt3_on_h100);
    tcase_add_test(db, cost_and_profile_inputs_refuse_nan);
    tcase_add_test(model, in_init_defaults_as_documented);
    tcase_add_test(model, enum_out_of_range_is_einval);
    tcase_add_test(model, llama65b_profile_mode);
    tcase_add_test(model, published_gpu_hours_at_default_mfu);
    tcase_add_test(model, recompute_megatron_8n_and_eq3);
    tcase_add_test(model, default_mfu_scales_with_recompute);
    tcase_add_test(model, default_mfu_other_precision);
    tcase_add_test(model, exact_count_llama2_shapes);
    tcase_add_test(model, moe_counts_active_params);
    tcase_add_test(model, lora_mode);
    tcase_add_test(model, train_seq_rule);
    tcase_add_test(model, memory_7b_adam_zero3);
    tcase_add_test(model, activation_formulas);
    tcase_add_test(model, cost_rent_and_own);
    tcase_add_test(model, plausibility_caps);
    tcase_add_test(model, given_mfu_peak_share);
    tcase_add_test(model, bad_input_names_option);
    tcase_add_test(model, profile_batch_and_exact);
    tcase_add_test(model, memory_full_recompute_and_fp32);
    tcase_add_test(model, memory_heaviest_pipeline_stage);
    tcase_add_test(model, memory_layout_refused);
    tcase_add_test(model, names_parse);
    tcase_add_test(model, edge_cases_and_errors);
    tcase_add_test(db, db_llama2_7b_a100_default);
    tcase_add_test(db, db_gpt3_h100);
    tcase_add_test(db, db_published_rows);
    tcase_add_test(db, db_published_rows_h100);
    tcase_add_test(db, db_peak_matches_accessor);
    tcase_add_test(db, db_memory_llama2_7b);
    tcase_add_test(cli, cli_gpt3_json);
    tcase_add_test(cli, cli_shape_options);
    tcase_add_test(cli, cli_qlora_base_format);
    tcase_add_test(cli, cli_count_labels);
    tcase_add_test(cli, cli_step_model_one_node_notes);
    tcase_add_test(cli, cli_short_wall_clock);
    tcase_add_test(cli, cli_small_cost_keeps_cents);
    tcase_add_test(cli, cli_published_max_warning_prints_above);
    tcase_add_test(cli, cli_base_format_fp32_training_label);
    tcase_add_test(cli, cli_moe_overlap_json);
    tcase_add_test(cli, cli_global_batch_tokens_use_train_seq);
    tcase_add_test(cli, cli_profile_llama65b);
    tcase_add_test(cli, cli_memory_zero3);
    tcase_add_test(cli, cli_bad_input);
    tcase_add_test(cli, cli_given_mfu_warns);
    tcase_add_test(cli, cli_no_fit_warns);
    tcase_add_test(cli, cli_step_link_bw);
    tcase_add_test(cli, cli_zero_with_pp_warns);
    tcase_add_test(cli, cli_ffn_on_moe);
    tcase_add_test(cli, cli_help_and_table);
    tcase_add_test(cli, cli_gemm_rate_source_names_its_efficiency);
    tcase_add_test(cli, cli_nics_priced_in_assumptions);
    suite_add_tcase(s, model);
    suite_add_tcase(s, db);
    suite_add_tcase(s, cli);
    return s;
}
