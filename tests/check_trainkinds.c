/* The training planner per layer kind (docs/models/training.md 1.2): the
 * s^2 attention term on the attending layers only, a sliding-window layer's
 * within its window, a linear-attention layer's recurrence instead -- in
 * the exact count, the PaLM-count MFU restatement, the step-time model and
 * the stored scores.  Every expected number is derived by hand in the
 * comment above its assert. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* A round-number GPU (as tests/check_trainstep.c's): dense bf16 200
 * TFLOP/s x efficiency 0.5 = 1e14 FLOP/s expected, 2 TB/s x 0.5 = 1e12 B/s
 * expected, no SM count (no wave quantisation). */
static gp_gpu toy_gpu(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "toy";
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 200e12;
    g.eff_compute.v = 0.5;
    g.mem_bw.v = 2e12;
    g.eff_mem.v = 0.5;
    g.mem_capacity.v = 85899345920.0;
    g.tdp.v = 500.0;
    return g;
}

/* A 4-layer hybrid: h 1024, 8 heads of 128 (MHA), GELU FFN 4096 (2
 * matrices), V 8192; 3 of the 4 layers linear attention with a state of 8
 * heads x 128 x 128 = 131,072 elements (the convolution left out), 1 layer
 * attending. */
static gp_train_shape hybrid4(void)
{
    gp_train_shape s;
    memset(&s, 0, sizeof s);
    s.layers = 4;
    s.hidden = 1024;
    s.heads = 8;
    s.kv_heads = 8;
    s.head_dim = 128;
    s.ffn_hidden = 4096;
    s.ffn_matrices = 2;
    s.vocab = 8192;
    s.linear_layers = 3;
    s.linear_state = 131072;
    return s;
}

/* The hybrid on the toy GPU, N = 1e8 given, s 1024, the caller's count. */
static void hybrid_in(gp_train_in *in, const gp_gpu *g, const gp_train_shape *sh)
{
    gp_train_in_init(in);
    in->gpu = g;
    in->shape = sh;
    in->params = 1e8;
    in->tokens = 1e9;
    in->seq = 1024;
}

START_TEST(hybrid_exact_count_by_hand)
{
    gp_gpu g = toy_gpu();
    gp_train_shape sh = hybrid4(), plain = hybrid4();
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    double mm, at, lg;

    /* Forward per token at s = 1024:
     *   matmuls 2 x (4 layers x (2 h q + 2 h kv = 4 x 1024^2 = 4,194,304) +
     *     FFN 4 x 2 x 1024 x 4096 = 33,554,432) = 2 x 50,331,648 =
     *     100,663,296 (the linear layers' projections priced as the
     *     attention's: the shape has no other);
     *   attention 4 s q x L_a = 4 x 1024 x 1024 x 1 = 4,194,304;
     *   recurrence 8 x L_lin x state = 8 x 3 x 131,072 = 3,145,728;
     *   the mixers' core 4,194,304 + 3,145,728 = 7,340,032;
     *   logits 2 h V = 2 x 1024 x 8192 = 16,777,216. */
    gp_train_fwd_flop_per_token(&sh, 1024, 0, &mm, &at, &lg);
    GP_ASSERT_REL(mm, 100663296.0, 0);
    GP_ASSERT_REL(at, 7340032.0, 0);
    GP_ASSERT_REL(lg, 16777216.0, 0);
    /* Causal: the attention halves, the recurrence does not: 2,097,152 +
     * 3,145,728 = 5,242,880. */
    gp_train_fwd_flop_per_token(&sh, 1024, 1, NULL, &at, NULL);
    GP_ASSERT_REL(at, 5242880.0, 0);
    /* The recurrence does not grow with s: at s = 2048 the attention
     * doubles to 8,388,608, + 3,145,728 = 11,534,336. */
    gp_train_fwd_flop_per_token(&sh, 2048, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 11534336.0, 0);
    /* Zeroed layer kinds: every layer attends, 4 x 1024 x 1024 x 4 =
     * 16,777,216, as before the fields existed. */
    plain.linear_layers = 0;
    plain.linear_state = 0;
    gp_train_fwd_flop_per_token(&plain, 1024, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 16777216.0, 0);
    /* linear_layers not below layers: read as none (gp_model_attn_layers). */
    plain = hybrid4();
    plain.linear_layers = 4;
    gp_train_fwd_flop_per_token(&plain, 1024, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 16777216.0, 0);

    /* The exact count: 3 x (100,663,296 + 7,340,032 + 16,777,216 =
     * 124,780,544) = 374,341,632 a token; selective recompute re-runs the
     * attention alone, + 4,194,304 = 378,535,936; full recompute the
     * layers' forward, + 100,663,296 + 7,340,032 = 482,344,960. */
    hybrid_in(&in, &g, &sh);
    in.count = GP_COUNT_EXACT;
    in.mfu = 0.5;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.model_flop_per_token, 374341632.0, 0);
    GP_ASSERT_REL(r.flop_exact, 374341632.0 * 1e9, 1e-15);
    GP_ASSERT_REL(r.hardware_flop_per_token, 378535936.0, 0);
    in.recompute = GP_RECOMPUTE_FULL;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.hardware_flop_per_token, 482344960.0, 0);
    GP_ASSERT_REL(r.shape.linear_layers, 3.0, 0);
}
END_TEST

/* The exact count of shipped model m on `gpus` of shipped GPU `gpu`, 1e12
 * tokens at sequence length seq. */
static gp_train_result exact_run(const gp_model *m, const char *gpu, long gpus, double seq)
{
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(gp_test_db(), gpu);
    ck_assert_ptr_nonnull(in.gpu);
    in.model = m;
    in.tokens = 1e12;
    in.gpus = gpus;
    in.seq = seq;
    in.count = GP_COUNT_EXACT;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    return r;
}

/* A hybrid's linear mixers priced at their own parameters (linear_params)
 * and FFNs on only some layers (ffn_layers), in the exact count, the shape's
 * parameter count and the step model's GEMMs (training.md 1.2). */
START_TEST(mixer_params_and_ffn_layers_by_hand)
{
    gp_gpu g = toy_gpu();
    gp_train_shape sh = hybrid4();
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    double mm;

    /* hybrid4's attention projections 2 h q + 2 h kv = 4 x 1024^2 =
     * 4,194,304 a layer; its 3 linear layers' mixers given 1.5 x that,
     * 6,291,456 each.  Forward matmuls per token: 2 x (1 x 4,194,304 + 3 x
     * 6,291,456 = 18,874,368 + FFN 4 x 2 x 1024 x 4096 = 33,554,432) = 2 x
     * 56,623,104 = 113,246,208 (100,663,296 without linear_params). */
    sh.linear_params = 6291456;
    gp_train_fwd_flop_per_token(&sh, 1024, 0, &mm, NULL, NULL);
    GP_ASSERT_REL(mm, 113246208.0, 0);
    /* Parameters: 56,623,104 + embeddings 2 x 8192 x 1024 = 16,777,216:
     * 73,400,320; active the same (dense). */
    GP_ASSERT_REL(gp_train_shape_params(&sh, 0), 73400320.0, 0);
    /* The exact count: 3 x (113,246,208 + the mixers' core 7,340,032 +
     * logits 16,777,216 = 137,363,456) = 412,090,368 a token. */
    hybrid_in(&in, &g, &sh);
    in.count = GP_COUNT_EXACT;
    in.mfu = 0.5;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.model_flop_per_token, 412090368.0, 0);
    /* The step model (b 1, s 1024: T = 1024 tokens, t 1, no recompute):
     * the mixer GEMMs scaled by m = 1 + 3/4 x (6,291,456 - 4,194,304) /
     * 4,194,304 = 1.375: Q/K/V 1.375 x 3072 = 4224, output projection
     * 1.375 x 1024 = 1408; a layer's GEMM widths 4224 + 1408 + k_f f 8192
     * = 13,824; gemm FLOP per
     * micro-batch 2 T h x 13,824 x 4 layers x 3 (fwd + bwd) = 2,097,152 x
     * 13,824 x 12 = 347,892,350,976 + logits 6 T h V = 6 x 1,048,576 x
     * 8192 = 51,539,607,552: 399,431,958,528 (= 3 T x the forward
     * matmuls 113,246,208 + the logits). */
    in.count = GP_COUNT_EXACT;
    in.recompute = GP_RECOMPUTE_NONE;
    in.mfu = 0;
    in.mfu_mode = GP_MFU_MODEL;
    in.global_batch = 8;
    in.tokens = 8192.0 * 100.0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.step.gemm_flop, 399431958528.0, 1e-15);

    /* FFNs on 2 of the 4 layers of the all-attending shape: forward
     * matmuls 2 x (4 x 4,194,304 + 2 x 2 x 1024 x 4096 = 16,777,216 +
     * 16,777,216) = 67,108,864; parameters 33,554,432 + 16,777,216 =
     * 50,331,648; the step model's FFN width averaged over the layers,
     * 4096 x 2/4 = 2048: widths 3072 + 1024 + 2 x 2048 = 8192, gemm FLOP
     * 2,097,152 x 8192 x 12 = 206,158,430,208 + 51,539,607,552 =
     * 257,698,037,760. */
    sh = hybrid4();
    sh.linear_layers = 0;
    sh.linear_state = 0;
    sh.ffn_layers = 2;
    gp_train_fwd_flop_per_token(&sh, 1024, 0, &mm, NULL, NULL);
    GP_ASSERT_REL(mm, 67108864.0, 0);
    GP_ASSERT_REL(gp_train_shape_params(&sh, 1), 50331648.0, 0);
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.step.gemm_flop, 257698037760.0, 1e-15);
    /* Not below the depth: every layer (as 0). */
    sh.ffn_layers = 4;
    gp_train_fwd_flop_per_token(&sh, 1024, 0, &mm, NULL, NULL);
    GP_ASSERT_REL(mm, 67108864.0 + 2.0 * 16777216.0, 0);
    /* Out of range: refused naming the field. */
    sh.ffn_layers = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'ffn_layers'"));
    sh.ffn_layers = 0;
    sh.linear_params = NAN;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'linear_params'"));
}
END_TEST

/* The shipped Nemotron-H 8B (hwdb/models/nemotron-h-8b.yaml): 28 mixer
 * layers, 4 attending, 24 Mamba-2 mixers of 109,635,968 (linear.params),
 * 24 MLP blocks of 2 x 4096 x 21504 (ffn_layers). */
START_TEST(nemotron_h_exact_by_hand)
{
    const gp_model *m = gp_db_find_model(gp_test_db(), "nemotron-h-8b");
    gp_train_shape sh;
    gp_train_result r;
    gp_err e;
    double mm, at, lg;

    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(gp_train_shape_from_model(m, &sh, &e), GP_OK);
    GP_ASSERT_REL(sh.ffn_layers, 24.0, 0);
    GP_ASSERT_REL(sh.linear_params, 109635968.0, 0);
    /* Plain FFN (up, down): 2 matrices reproduce 8.10e9, 3 give 10.2e9. */
    GP_ASSERT_REL(sh.ffn_matrices, 2.0, 0);
    /* Matrices: attention 4 x (4096 x 4096 x 2 + 2 x 4096 x 1024 =
     * 41,943,040) = 167,772,160 + Mamba-2 24 x 109,635,968 =
     * 2,631,263,232 + MLP 24 x 176,160,768 = 4,227,858,432 + embeddings
     * 2 x 131072 x 4096 = 1,073,741,824: 8,100,635,648 (the entry's
     * 8,100,852,736 less its 53 norms of 4096). */
    GP_ASSERT_REL(gp_train_shape_params(&sh, 0), 8100635648.0, 0);
    /* Forward per token at s 4096: matmuls 2 x (167,772,160 +
     * 2,631,263,232 + 4,227,858,432) = 14,053,787,648; attention 4 x 4096
     * x 4096 x 4 layers = 268,435,456 + recurrence 8 x 24 x 1,079,296 =
     * 207,224,832: 475,660,288; logits 2 x 4096 x 131072 = 1,073,741,824.
     * --exact: 3 x 15,603,189,760 = 46,809,569,280 (51,037,427,712 with
     * 28 FFNs; 41,289,646,080 with the mixers as q/k/v/o and 28 FFNs). */
    gp_train_fwd_flop_per_token(&sh, 4096, 0, &mm, &at, &lg);
    GP_ASSERT_REL(mm, 14053787648.0, 0);
    GP_ASSERT_REL(at, 475660288.0, 0);
    GP_ASSERT_REL(lg, 1073741824.0, 0);
    r = exact_run(m, "h200", 64, 4096);
    GP_ASSERT_REL(r.model_flop_per_token, 46809569280.0, 0);
}
END_TEST

START_TEST(hybrid_restated_default_mfu)
{
    gp_gpu g = toy_gpu();
    gp_train_shape sh = hybrid4();
    gp_train_in in;
    gp_train_result r;
    gp_err e;

    /* The fallback 0.40 on the PaLM count, restated for this run (6ND,
     * selective; training.md 1.3) with A = attention 4,194,304 +
     * recurrence 3,145,728 = 7,340,032 (all s^2, non-causal):
     *   M_ref = 6N + 3A = 6e8 + 22,020,096 = 622,020,096;
     *   HFU_ref / MFU_ref = (M_ref + 4,194,304) / M_ref (selective re-runs
     *   the attention, not the recurrence) = 626,214,400 / 622,020,096;
     *   W = 6N + 3A + 4,194,304 = 626,214,400;
     *   MFU = 0.40 x 626,214,400 / 622,020,096 x 6e8 / 626,214,400 =
     *   2.4e8 / 622,020,096 = 0.3858396;
     *   tokens/s per GPU = 200e12 x MFU / 6e8 = 8e13 / 622,020,096 =
     *   128,613.21 (every layer priced as attention, A = 16,777,216:
     *   8e13 / 650,331,648 = 123,014.16).
     * The PaLM-count MFU, MFU x (6N + 3A) / 6N, is the quoted 0.40. */
    hybrid_in(&in, &g, &sh);
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    ck_assert_int_eq(r.mfu_origin, GP_MFU_FALLBACK);
    GP_ASSERT_REL(r.mfu, 0.38583962406, 1e-10);
    GP_ASSERT_REL(r.tokens_per_s_per_gpu, 128613.208, 1e-8);
    GP_ASSERT_REL(r.palm_flop_per_token, 622020096.0, 0);
    GP_ASSERT_REL(r.mfu_palm, 0.40, 1e-12);
    sh.linear_layers = 0;
    sh.linear_state = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.tokens_per_s_per_gpu, 123014.158, 1e-8);
}
END_TEST

START_TEST(qwen3_next_exact_by_hand)
{
    const gp_model *m = gp_db_find_model(gp_test_db(), "qwen3-next-80b-a3b");
    gp_train_shape sh;
    gp_train_result r;
    gp_err e;
    double mm, at, lg;

    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(gp_train_shape_from_model(m, &sh, &e), GP_OK);
    /* 36 of the 48 layers Gated DeltaNet, 548,864 state elements each;
     * no window; SwiGLU experts (3 matrices reproduce 79.67e9). */
    GP_ASSERT_REL(sh.linear_layers, 36.0, 0);
    GP_ASSERT_REL(sh.linear_state, 548864.0, 0);
    ck_assert(sh.window == 0.0);
    GP_ASSERT_REL(sh.ffn_matrices, 3.0, 0);
    /* Forward per token at s = 4096:
     *   attention 4 s heads d x L_a = 4 x 4096 x (16 x 256 = 4096) x 12 =
     *     805,306,368 (48 layers: 3,221,225,472);
     *   recurrence 8 x 36 x 548,864 = 158,072,832 (as decode's, inference.md
     *     §1.2); core 963,379,200;
     *   matmuls 2 x (12 attending layers x (3 x 2048 x 4096, q and its
     *     output gate (attention_gate) and o, + 2 x 2048 x 512 =
     *     27,262,976) = 327,155,712 + 36 Gated DeltaNet mixers of
     *     linear.params 33,718,464 (the entry's note) = 1,213,864,704 +
     *     experts 3 x 2048 x 48 x (10 + 1) x 512 = 1,660,944,384 + routers
     *     48 x 2048 x 512 = 50,331,648) = 2 x 3,252,296,448 =
     *     6,504,592,896;
     *   logits 2 x 2048 x 151,936 = 622,329,856. */
    GP_ASSERT_REL(sh.linear_params, 33718464.0, 0);
    ck_assert_int_eq(sh.attn_gate, 1);
    gp_train_fwd_flop_per_token(&sh, 4096, 0, &mm, &at, &lg);
    GP_ASSERT_REL(at, 963379200.0, 0);
    GP_ASSERT_REL(mm, 6504592896.0, 0);
    GP_ASSERT_REL(lg, 622329856.0, 0);
    /* --exact: 3 x (6,504,592,896 + 963,379,200 + 622,329,856 =
     * 8,090,301,952) = 24,270,905,856 a token (without the gate
     * 23,666,926,080; with every mixer as the ungated q/k/v/o, before
     * linear.params: 20,460,601,344); selective recompute adds the
     * attention alone, 805,306,368: 25,076,212,224.  6ND is 6 x
     * 3,874,929,408 = 23,249,576,448 either way. */
    r = exact_run(m, "h200", 64, 4096);
    GP_ASSERT_REL(r.model_flop_per_token, 24270905856.0, 0);
    GP_ASSERT_REL(r.hardware_flop_per_token, 25076212224.0, 0);
    GP_ASSERT_REL(r.flop_6nd, 23249576448.0 * 1e12, 1e-15);
}
END_TEST

START_TEST(sliding_window_exact_by_hand)
{
    const gp_model *mi = gp_db_find_model(gp_test_db(), "mistral-7b");
    const gp_model *ge = gp_db_find_model(gp_test_db(), "gemma-2-9b");
    gp_train_shape sh;
    gp_train_result r;
    gp_err e;
    double at;

    ck_assert_ptr_nonnull(mi);
    ck_assert_ptr_nonnull(ge);
    /* Mistral 7B v0.1: W 4096 on all 32 layers, 32 heads of 128.  At s =
     * 32,768 a layer has 4096^2/2 + (32,768 - 4096) x 4096 = 8,388,608 +
     * 117,440,512 = 125,829,120 causal pairs against 32,768^2/2 =
     * 536,870,912 (a share of 15/64 = 0.234375), so the attention is 4 x
     * 32,768 x 4096 x 32 x 15/64 = 17,179,869,184 x 0.234375 =
     * 4,026,531,840 (causal: 2,013,265,920). */
    ck_assert_int_eq(gp_train_shape_from_model(mi, &sh, &e), GP_OK);
    GP_ASSERT_REL(sh.window, 4096.0, 0);
    gp_train_fwd_flop_per_token(&sh, 32768, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 4026531840.0, 0);
    gp_train_fwd_flop_per_token(&sh, 32768, 1, NULL, &at, NULL);
    GP_ASSERT_REL(at, 2013265920.0, 0);
    /* Within the window (s = 4096) nothing changes: 4 x 4096 x 4096 x 32 =
     * 2,147,483,648. */
    gp_train_fwd_flop_per_token(&sh, 4096, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 2147483648.0, 0);
    /* --exact at 32,768: matmuls 2 x (32 x (2 x 4096^2 + 2 x 4096 x 1024 =
     * 41,943,040) + 3 x 32 x 4096 x 14,336 = 5,637,144,576) = 2 x
     * 6,979,321,856 = 13,958,643,712; logits 2 x 4096 x 32,000 =
     * 262,144,000; 3 x (13,958,643,712 + 4,026,531,840 + 262,144,000 =
     * 18,247,319,552) = 54,741,958,656 a token (every position: 3 x
     * (13,958,643,712 + 17,179,869,184 + 262,144,000) = 94,201,970,688). */
    r = exact_run(mi, "h100-sxm", 8, 32768);
    GP_ASSERT_REL(r.model_flop_per_token, 54741958656.0, 0);
    /* Gemma 2 9B: W 4096 on 21 of 42 layers, 16 heads of 256 (q = 4096),
     * at its context s = 8192: a local layer 4096^2/2 + 4096 x 4096 =
     * 25,165,824 pairs, a global one 33,554,432: the average share (21 x
     * 0.75 + 21 x 1) / 42 = 0.875, attention 4 x 8192 x 4096 x 42 x 0.875
     * = 4,932,501,504 (all global: 5,637,144,576). */
    ck_assert_int_eq(gp_train_shape_from_model(ge, &sh, &e), GP_OK);
    gp_train_fwd_flop_per_token(&sh, 8192, 0, NULL, &at, NULL);
    GP_ASSERT_REL(at, 4932501504.0, 0);
}
END_TEST

/* The step-time model on the hybrid, one GPU, b 1, s 1024 (T = 1024
 * tokens), no recompute, FlashAttention at 0.70 x 1e14 = 7e13 FLOP/s.
 * Per micro-batch and layer:
 *   the attending layer: forward 0.5 x 4 b s^2 q = 2,147,483,648 FLOP ->
 *     3.0678e-5 s, backward 2.5 x -> 7.6696e-5 s: 1.073742e-4 s and
 *     2,147,483,648 x 3.5 = 7,516,192,768 FLOP;
 *   a linear layer: forward 8 x 131,072 x 1024 = 1,073,741,824 FLOP ->
 *     1.53392e-5 s, backward 2 x: 4.60175e-5 s and 3,221,225,472 FLOP;
 * the 4 layers: 1.073742e-4 + 3 x 4.60175e-5 = 2.454267e-4 s and
 * 7,516,192,768 + 9,663,676,416 = 17,179,869,184 FLOP (all attending: 4 x
 * 1.073742e-4 = 4.294967e-4 s, 30,064,771,072 FLOP). */
START_TEST(hybrid_step_model_by_hand)
{
    gp_gpu g = toy_gpu();
    gp_train_shape sh = hybrid4();
    gp_train_in in;
    gp_train_result r;
    gp_err e;

    hybrid_in(&in, &g, &sh);
    in.count = GP_COUNT_EXACT;
    in.recompute = GP_RECOMPUTE_NONE;
    in.mfu_mode = GP_MFU_MODEL;
    in.global_batch = 8;
    in.tokens = 8192.0 * 100.0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.step.micro_batches, 8.0, 0);
    GP_ASSERT_REL(r.step.attn_s, 2.454267026e-4, 1e-9);
    GP_ASSERT_REL(r.step.attn_flop, 17179869184.0, 1e-15);
    sh.linear_layers = 0;
    sh.linear_state = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.step.attn_s, 4.294967296e-4, 1e-9);
    GP_ASSERT_REL(r.step.attn_flop, 30064771072.0, 1e-15);
    /* A window of 256 on every layer of the all-attending shape: 256^2/2 +
     * (1024 - 256) x 256 = 229,376 pairs of 524,288, a share of 0.4375:
     * 4.294967e-4 x 0.4375 = 1.879048e-4 s. */
    sh.window = 256;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.step.attn_s, 1.879048192e-4, 1e-9);
    GP_ASSERT_REL(r.step.attn_flop, 30064771072.0 * 0.4375, 1e-15);
}
END_TEST

/* Unfused attention without recompute stores the s x s scores on the
 * attending layer only.  Korthikanti et al. per layer at b 1, s 1024, h
 * 1024, t 1 (sbh = 1,048,576): with the scores sbh (34 + 5 a s / h) =
 * 1,048,576 x (34 + 5 x 8) = 77,594,624 B; without them 34 sbh =
 * 35,651,584 B.  The four layers: 77,594,624 + 3 x 35,651,584 =
 * 184,549,376 B (the average layer 46,137,344 x 4), + the embedding's
 * dropout mask sbh = 1,048,576 + the output layer 4 sbh (1 + V/h = 9) =
 * 37,748,736: 223,346,688 B (all four attending: 4 x 77,594,624 + ... =
 * 349,175,808 B). */
START_TEST(hybrid_unfused_scores_on_the_attending_layers)
{
    gp_gpu g = toy_gpu();
    gp_train_shape sh = hybrid4();
    gp_train_in in;
    gp_train_result r;
    gp_err e;

    hybrid_in(&in, &g, &sh);
    in.recompute = GP_RECOMPUTE_NONE;
    in.attn_unfused = 1;
    in.mfu_mode = GP_MFU_MODEL;
    in.global_batch = 8;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.activation_bytes, 223346688.0, 1e-15);
    sh.linear_layers = 0;
    sh.linear_state = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.activation_bytes, 349175808.0, 1e-15);
    /* FlashAttention keeps no scores: 4 x 35,651,584 + 1,048,576 +
     * 37,748,736 = 181,403,648 B, with or without linear layers. */
    in.attn_unfused = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.activation_bytes, 181403648.0, 1e-15);
    sh = hybrid4();
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.activation_bytes, 181403648.0, 1e-15);
}
END_TEST

START_TEST(layer_kinds_refused)
{
    gp_gpu g = toy_gpu();
    gp_link up;
    gp_train_shape sh = hybrid4();
    gp_train_in in;
    gp_train_result r;
    gp_err e;

    memset(&up, 0, sizeof up);
    up.id = "toy-up";
    up.kind = GP_LINK_NVLINK;
    up.scope = GP_SCOPE_SCALE_UP;
    up.bw.v = 100e9;
    up.bw_achievable.v = 100e9;
    up.max_gpus.v = 8;
    up.p2p = 1;
    up.switched = 1;
    /* Context parallelism splits a linear layer's recurrence: not
     * modelled. */
    hybrid_in(&in, &g, &sh);
    in.gpus = 2;
    in.cp = 2;
    in.scale_up = &up;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EUNSUP);
    ck_assert_str_eq(e.where, "--cp");
    ck_assert_ptr_nonnull(strstr(e.msg, "linear-attention layers (3 of the 4)"));
    /* The same without linear layers is priced. */
    sh.linear_layers = 0;
    sh.linear_state = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);
    /* Hand-set kinds: negative or non-finite, linear layers without their
     * state. */
    hybrid_in(&in, &g, &sh);
    sh = hybrid4();
    sh.window = -1;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--model");
    ck_assert_ptr_nonnull(strstr(e.msg, "'window'"));
    sh = hybrid4();
    sh.linear_state = NAN;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'linear_state'"));
    sh = hybrid4();
    sh.linear_state = 0;
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "3 linear-attention layers without"));
}
END_TEST

START_TEST(cli_layer_kinds)
{
    const char *q[] = {"--json", "train", "--gpu", "h200", "--model", "qwen3-next-80b-a3b",
                       "--tokens", "1e12", "--gpus", "64", "--exact", "--seq", "4096", NULL};
    const char *w[] = {"--json", "train", "--gpu", "h100-sxm", "--model", "mistral-7b",
                       "--tokens", "1e12", "--gpus", "8", "--exact", "--seq", "32768", NULL};
    const char *d[] = {"--json", "train", "--gpu", "h100-sxm", "--model", "llama-2-7b",
                       "--tokens", "1e12", "--gpus", "8", NULL};
    const char *t[] = {"train", "--gpu", "h100-sxm", "--model", "gemma-2-9b", "--tokens", "1e12",
                       "--gpus", "16", "--seq", "4096", NULL};
    json_t *j, *sh;
    char *out = NULL;

    /* qwen3_next_exact_by_hand's 24,270,905,856 FLOP a token; the shape
     * says 12 attending layers of 48, mixers of 33,718,464. */
    j = gp_test_cli_json(q);
    GP_ASSERT_REL(gp_test_jnum(j, "model_flop_per_token"), 24270905856.0, 0);
    sh = json_object_get(j, "shape");
    GP_ASSERT_REL(gp_test_jnum(sh, "attn_layers"), 12.0, 0);
    GP_ASSERT_REL(gp_test_jnum(sh, "linear_layers"), 36.0, 0);
    GP_ASSERT_REL(gp_test_jnum(sh, "linear_state"), 548864.0, 0);
    GP_ASSERT_REL(gp_test_jnum(sh, "linear_params"), 33718464.0, 0);
    ck_assert_ptr_null(json_object_get(sh, "ffn_layers"));
    ck_assert(json_is_true(json_object_get(sh, "attention_gate")));
    ck_assert_ptr_null(json_object_get(sh, "window"));
    json_decref(j);
    /* Mistral: 54,741,958,656 a token; its window on all 32 layers. */
    j = gp_test_cli_json(w);
    GP_ASSERT_REL(gp_test_jnum(j, "model_flop_per_token"), 54741958656.0, 0);
    sh = json_object_get(j, "shape");
    GP_ASSERT_REL(gp_test_jnum(sh, "window"), 4096.0, 0);
    GP_ASSERT_REL(gp_test_jnum(sh, "window_layers"), 32.0, 0);
    ck_assert_ptr_null(json_object_get(sh, "attn_layers"));
    json_decref(j);
    /* A model with neither: no layer-kind keys. */
    j = gp_test_cli_json(d);
    sh = json_object_get(j, "shape");
    ck_assert_ptr_null(json_object_get(sh, "attn_layers"));
    ck_assert_ptr_null(json_object_get(sh, "window"));
    json_decref(j);
    /* The table says a window the sequence stays within changes nothing. */
    ck_assert_int_eq(gp_test_cli(t, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "4096 tokens on 21 of 42 attending layers (seq within it"));
    free(out);
    /* The PaLM-count row names what it counts: on a hybrid, the attending
     * layers' attention and the recurrence, not 12 s q L over all layers. */
    {
        const char *qt[] = {"train", "--gpu", "h200", "--model", "qwen3-next-80b-a3b",
                            "--tokens", "1e12", "--gpus", "64", "--seq", "32768", NULL};
        ck_assert_int_eq(gp_test_cli(qt, &out, NULL), 0);
        ck_assert_msg(strstr(out, "6N + the attending layers' attention (within windows) + the "
                                  "recurrence per token") != NULL,
                      "%s", out);
        ck_assert_ptr_null(strstr(out, "12 s q L"));
        free(out);
    }
}
END_TEST

/* Shape options on a hybrid: its FFN may change (recounted with its
 * mixers and FFN layers), its depth and attention widths may not. */
START_TEST(cli_hybrid_shape_options)
{
    const char *hid[] = {"train", "--gpu", "h200", "--model", "nemotron-h-8b", "--tokens",
                         "1e12", "--gpus", "64", "--hidden", "4096", NULL};
    const char *lay[] = {"train", "--gpu", "h200", "--model", "qwen3-next-80b-a3b", "--tokens",
                         "1e12", "--gpus", "64", "--layers", "24", NULL};
    const char *ffn[] = {"--json", "train", "--gpu", "h200", "--model", "nemotron-h-8b",
                         "--tokens", "1e12", "--gpus", "64", "--ffn", "21504", NULL};
    char *err = NULL;
    json_t *j;

    ck_assert_int_eq(gp_test_cli(hid, NULL, &err), 2);
    ck_assert_msg(strstr(err, "'--hidden' on 'nemotron-h-8b': 24 of its 28 layers are linear "
                              "attention") != NULL,
                  "%s", err);
    free(err);
    ck_assert_int_eq(gp_test_cli(lay, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'--layers' on 'qwen3-next-80b-a3b': 36 of its 48"));
    free(err);
    /* The model's own FFN width recounts to the entry's params: the 24
     * linear layers take linear.params in place of an attention, and the 4
     * layers without an FFN lose it and one of their two norms: 4
     * attention x 41,943,040 + 24 x 109,635,968 + 24 MLPs x 176,160,768 +
     * 52 norms x 4096 + embeddings 1,073,741,824 + final norm 4096 =
     * 8,100,852,736 (the entry's). */
    j = gp_test_cli_json(ffn);
    GP_ASSERT_REL(gp_test_jnum(j, "params"), 8100852736.0, 0);
    json_decref(j);
    /* --ffn 16384: 24 MLPs of 2 x 4096 x 5120 fewer, 24 x 41,943,040 =
     * 1,006,632,960: 7,094,219,776. */
    {
        const char *f2[] = {"--json", "train", "--gpu", "h200", "--model", "nemotron-h-8b",
                            "--tokens", "1e12", "--gpus", "64", "--ffn", "16384", NULL};
        j = gp_test_cli_json(f2);
        GP_ASSERT_REL(gp_test_jnum(j, "params"), 7094219776.0, 0);
        json_decref(j);
    }
}
END_TEST

Suite *gp_test_suite_trainkinds(void)
{
    Suite *s = suite_create("trainkinds");
    TCase *tc = tcase_create("count");
    tcase_add_test(tc, hybrid_exact_count_by_hand);
    tcase_add_test(tc, hybrid_restated_default_mfu);
    tcase_add_test(tc, qwen3_next_exact_by_hand);
    tcase_add_test(tc, mixer_params_and_ffn_layers_by_hand);
    tcase_add_test(tc, nemotron_h_exact_by_hand);
    tcase_add_test(tc, sliding_window_exact_by_hand);
    suite_add_tcase(s, tc);
    tc = tcase_create("step");
    tcase_add_test(tc, hybrid_step_model_by_hand);
    tcase_add_test(tc, hybrid_unfused_scores_on_the_attending_layers);
    tcase_add_test(tc, layer_kinds_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_add_test(tc, cli_layer_kinds);
    tcase_add_test(tc, cli_hybrid_shape_options);
    suite_add_tcase(s, tc);
    return s;
}
