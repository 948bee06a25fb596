/* Hugging Face config.json import: the library's parameter count
 * (gp_model_count_params) on hand-counted shapes and on every shipped entry
 * whose params are derived from a config.json, and the CLI (hw import-model,
 * --model FILE.json).  MODEL: docs/hwdb.md "Importing a Hugging Face
 * config.json". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- the count, by hand ----------------------------------------------------------------- */

START_TEST(count_llama31_8b)
{
    /* h 4096, 32 heads of 128, 8 KV heads, FFN 14336 gated, V 128256 untied.
     * Attention 4096 x 4096 (q) + 2 x 4096 x 1024 (k, v) + 4096 x 4096 (o)
     * = 16,777,216 + 8,388,608 + 16,777,216 = 41,943,040; FFN 3 x 4096 x
     * 14336 = 176,160,768; norms 2 x 4096 = 8,192; layer 218,112,000;
     * x 32 = 6,979,584,000 + 2 x 128256 x 4096 = 1,050,673,152 + 4,096
     * = 8,030,261,248. */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 32, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.ffn = 14336;
    s.vocab = 128256, s.gated = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 41943040.0, 0);
    GP_ASSERT_REL(n.dense_ffn, 176160768.0, 0);
    GP_ASSERT_REL(n.dense_layer, 218112000.0, 0);
    GP_ASSERT_REL(n.total, 8030261248.0, 0);
    GP_ASSERT_REL(n.active, 8030261248.0, 0);
}
END_TEST

START_TEST(count_gpt2)
{
    /* GPT-2 small: h 768, 12 layers, 12 heads, FFN 4h = 3072 plain (2 h f),
     * biases everywhere, LayerNorms with biases, learned positions 1024,
     * tied.  Layer: 4 x 768^2 = 2,359,296 + q/k/v/o biases 4 x 768 = 3,072;
     * FFN 2 x 768 x 3072 = 4,718,592 + biases 3072 + 768 = 3,840; norms
     * 2 x 2 x 768 = 3,072: 7,087,872; x 12 = 85,054,464 + wte 50257 x 768 =
     * 38,597,376 + wpe 1024 x 768 = 786,432 + ln_f 1,536 = 124,439,808 (the
     * figure Hugging Face's model card gives as 124M). */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 12, s.hidden = 768, s.heads = 12, s.ffn = 3072, s.vocab = 50257;
    s.tied = 1, s.norm_bias = 1, s.qkv_bias = s.o_bias = s.mlp_bias = 1, s.pos_embed = 1024;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.dense_layer, 7087872.0, 0);
    GP_ASSERT_REL(n.pos_embed, 786432.0, 0);
    GP_ASSERT_REL(n.final_norm, 1536.0, 0);
    GP_ASSERT_REL(n.total, 124439808.0, 0);
}
END_TEST

START_TEST(count_mixtral)
{
    /* Mixtral 8x7B: attention as Llama 3.1 8B (41,943,040); 8 experts of
     * 3 x 4096 x 14336 = 176,160,768; router 4096 x 8 = 32,768; norms 8,192:
     * layer 1,451,270,144; x 32 + 2 x 32000 x 4096 + 4096 = 46,702,792,704.
     * Active: 41,943,040 + 2 x 176,160,768 + 32,768 + 8,192 = 394,305,536;
     * x 32 + 262,148,096 = 12,879,925,248. */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 32, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.ffn = 14336;
    s.vocab = 32000, s.gated = 1, s.experts = 8, s.experts_active = 2;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.moe_layer, 1451270144.0, 0);
    GP_ASSERT_REL(n.total, 46702792704.0, 0);
    GP_ASSERT_REL(n.active, 12879925248.0, 0);
}
END_TEST

START_TEST(count_deepseek_v2_lite)
{
    /* MLA, queries uncompressed: 2048 x 16 x 192 = 6,291,456 (q) + 2048 x
     * 576 = 1,179,648 (kv_a) + 512 (norm) + 512 x 16 x 256 = 2,097,152
     * (kv_b) + 16 x 128 x 2048 = 4,194,304 (o) = 13,763,072.  Layer 0 dense:
     * + 3 x 2048 x 10944 = 67,239,936 + 4,096 = 81,007,104.  MoE layers: +
     * router 2048 x 64 = 131,072 + (64 + 2) x 3 x 2048 x 1408 = 66 x
     * 8,650,752 + 4,096 = 584,847,872; x 26 = 15,206,044,672.  Total +
     * 2 x 102400 x 2048 = 419,430,400 + 2048 = 15,706,484,224.  Active:
     * 13,763,072 + 131,072 + 8 x 8,650,752 + 4,096 = 83,104,256; x 26 =
     * 2,160,710,656 + 81,007,104 + 419,430,400 + 2,048 = 2,661,150,208. */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 27, s.hidden = 2048, s.heads = 16, s.ffn = 10944, s.vocab = 102400;
    s.gated = 1, s.experts = 64, s.experts_active = 6, s.expert_ffn = 1408;
    s.shared_experts = 2, s.dense_layers = 1;
    s.kv_lora_rank = 512, s.qk_nope_head_dim = 128, s.qk_rope_head_dim = 64, s.v_head_dim = 128;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 13763072.0, 0);
    GP_ASSERT_REL(n.dense_layer, 81007104.0, 0);
    GP_ASSERT_REL(n.moe_layer, 584847872.0, 0);
    GP_ASSERT_REL(n.total, 15706484224.0, 0);
    GP_ASSERT_REL(n.active, 2661150208.0, 0);
}
END_TEST

START_TEST(count_gpt_oss_20b)
{
    /* q 2880 x 4096 + k, v 2 x 2880 x 512 + o 4096 x 2880 = 26,542,080;
     * biases 4096 + 1024 + 2880 = 8,000; sinks 64: 26,550,144.  Expert
     * 3 x 2880 x 2880 + biases 2 x 2880 + 2880 = 24,891,840; router 2880 x
     * 32 + 32 = 92,192; norms 5,760: layer 26,550,144 + 32 x 24,891,840 +
     * 92,192 + 5,760 = 823,186,976; x 24 + 2 x 201088 x 2880 + 2880 =
     * 20,914,757,184.  Active (input embedding out): 26,550,144 + 4 x
     * 24,891,840 + 92,192 + 5,760 = 126,215,456; x 24 + 579,133,440 + 2,880
     * = 3,608,307,264. */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 24, s.hidden = 2880, s.heads = 64, s.kv_heads = 8, s.head_dim = 64;
    s.ffn = 2880, s.vocab = 201088, s.gated = 1, s.experts = 32, s.experts_active = 4;
    s.qkv_bias = s.o_bias = s.mlp_bias = s.router_bias = s.attn_sinks = 1;
    s.active_no_embed = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 26550144.0, 0);
    GP_ASSERT_REL(n.expert, 24891840.0, 0);
    GP_ASSERT_REL(n.router, 92192.0, 0);
    GP_ASSERT_REL(n.total, 20914757184.0, 0);
    GP_ASSERT_REL(n.active, 3608307264.0, 0);
}
END_TEST

START_TEST(count_gemma_qwen)
{
    /* Gemma 2 9B: 3584 x 4096 + 2 x 3584 x 2048 + 4096 x 3584 = 44,040,192
     * + 3 x 3584 x 14336 = 154,140,672 + 4 x 3584 = 198,195,200; x 42 +
     * 3584 + 256000 x 3584 (tied) = 9,241,705,984. */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 42, s.hidden = 3584, s.heads = 16, s.kv_heads = 8, s.head_dim = 256;
    s.ffn = 14336, s.vocab = 256000, s.tied = 1, s.gated = 1, s.sandwich_norm = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.total, 9241705984.0, 0);
    /* Qwen2.5 7B, q/k/v biases: 2 x 3584^2 + 2 x 3584 x 512 + 3584 + 2 x 512
     * = 29,364,736; + 3 x 3584 x 18944 + 2 x 3584 = 233,057,792; x 28 +
     * 2 x 152064 x 3584 + 3584 = 7,615,616,512. */
    memset(&s, 0, sizeof s);
    s.layers = 28, s.hidden = 3584, s.heads = 28, s.kv_heads = 4, s.ffn = 18944;
    s.vocab = 152064, s.gated = 1, s.qkv_bias = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 29364736.0, 0);
    GP_ASSERT_REL(n.total, 7615616512.0, 0);
    /* Qwen3 30B-A3B: attention 2048 x 4096 + 2 x 2048 x 512 + 4096 x 2048 +
     * 2 x 128 (q/k norms) = 18,874,624; router 262,144; 128 experts of
     * 4,718,592; norms 4,096: 623,120,640; x 48 + 2 x 151936 x 2048 + 2048 =
     * 30,532,122,624.  Active 18,874,624 + 262,144 + 8 x 4,718,592 + 4,096 =
     * 56,889,600; x 48 + 622,329,856 + 2,048 = 3,353,032,704. */
    memset(&s, 0, sizeof s);
    s.layers = 48, s.hidden = 2048, s.heads = 32, s.kv_heads = 4, s.head_dim = 128;
    s.ffn = 6144, s.expert_ffn = 768, s.vocab = 151936, s.gated = 1, s.qk_norm = 1;
    s.experts = 128, s.experts_active = 8;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 18874624.0, 0);
    GP_ASSERT_REL(n.total, 30532122624.0, 0);
    GP_ASSERT_REL(n.active, 3353032704.0, 0);
}
END_TEST

START_TEST(count_qk_norm_full)
{
    /* MiniMax-M2's q/k RMSNorms span the projections (GP_QK_NORM_FULL):
     * 48 x 128 + 8 x 128 = 7,168 a layer, where per-head norms
     * (GP_QK_NORM_HEAD) are 2 x 128 = 256.  Attention 3072 x 6144 (q) +
     * 2 x 3072 x 1024 (k, v) + 6144 x 3072 (o) = 44,040,192 + 7,168 =
     * 44,047,360; router 3072 x 256 + 256 = 786,688; experts 256 x 3 x 3072
     * x 1536 = 3,623,878,656; norms 6,144: 3,668,718,848 a layer; x 62 +
     * 2 x 200064 x 3072 + 3072 = 227,460,568,576 + 1,229,193,216 + 3,072 =
     * 228,689,764,864 (the shipped entry's; the card's 230B, -0.6 %).
     * Active 44,047,360 + 786,688 + 8 x 14,155,776 + 6,144 = 158,086,400;
     * x 62 + 1,229,193,216 (both embeddings) + 3,072 = 11,030,553,088. */
    gp_param_shape s = {0};
    gp_param_count n;
    s.layers = 62, s.hidden = 3072, s.heads = 48, s.kv_heads = 8, s.head_dim = 128;
    s.ffn = 1536, s.vocab = 200064, s.gated = 1, s.experts = 256, s.experts_active = 8;
    s.router_bias = 1, s.qk_norm = GP_QK_NORM_FULL;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 44047360.0, 0);
    GP_ASSERT_REL(n.moe_layer, 3668718848.0, 0);
    GP_ASSERT_REL(n.total, 228689764864.0, 0);
    GP_ASSERT_REL(n.active, 11030553088.0, 0);
    s.qk_norm = GP_QK_NORM_HEAD;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 44040192.0 + 256.0, 0);
}
END_TEST

START_TEST(count_lightning_indexer)
{
    /* DeepSeek-V3.2 = DeepSeek-V3's shape (671,026,419,200, as in
     * deepseek_v3_near_paper) + a lightning indexer on each of the 61
     * layers (DeepSeek's inference model.py, class Indexer): wq_b 1536 x
     * 64 x 128 = 12,582,912 + wk 7168 x 128 = 917,504 + k_norm (LayerNorm)
     * 2 x 128 = 256 + weights_proj 7168 x 64 = 458,752 = 13,959,424; x 61 =
     * 851,524,864: 671,877,944,064 (the V3 paper's 671B, +0.13 %). */
    gp_param_shape s = {0};
    gp_param_count n, v3;
    gp_err e;
    s.layers = 61, s.hidden = 7168, s.heads = 128, s.ffn = 18432, s.vocab = 129280;
    s.gated = 1, s.experts = 256, s.experts_active = 8, s.expert_ffn = 2048;
    s.shared_experts = 1, s.dense_layers = 3, s.router_bias = 1;
    s.kv_lora_rank = 512, s.q_lora_rank = 1536, s.qk_nope_head_dim = 128;
    s.qk_rope_head_dim = 64, s.v_head_dim = 128;
    v3 = gp_test_count_params(&s);
    GP_ASSERT_REL(v3.total, 671026419200.0, 0);
    s.index_heads = 64, s.index_head_dim = 128;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn - v3.attn, 13959424.0, 0);
    GP_ASSERT_REL(n.total, 671877944064.0, 0);
    GP_ASSERT_REL(n.active - v3.active, 61.0 * 13959424.0, 0);
    /* Refused: an indexer without its width, or without the query latent
     * its queries come from; a q/k norm kind that is none of the three. */
    s.index_head_dim = 0;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "index_heads");
    s.index_head_dim = 128, s.q_lora_rank = 0;
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "index_heads");
    ck_assert_ptr_nonnull(strstr(e.msg, "q_lora_rank"));
    s.q_lora_rank = 1536, s.qk_norm = 3;
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "qk_norm");
}
END_TEST

START_TEST(count_refuses)
{
    gp_param_shape good = {0}, s;
    gp_param_count n;
    gp_err e;
    struct {
        const char *field;
        double *where;
        double v;
    } bad[7];
    size_t i;
    good.layers = 2, good.hidden = 64, good.heads = 4, good.ffn = 256, good.vocab = 100;
    bad[0].field = "layers", bad[0].where = &s.layers, bad[0].v = 0;
    bad[1].field = "hidden", bad[1].where = &s.hidden, bad[1].v = 64.5;
    bad[2].field = "kv_heads", bad[2].where = &s.kv_heads, bad[2].v = 8;      /* > heads */
    bad[3].field = "head_dim", bad[3].where = &s.hidden, bad[3].v = 66;       /* 66 / 4 */
    bad[4].field = "vocab", bad[4].where = &s.vocab, bad[4].v = 2e9;
    bad[5].field = "dense_layers", bad[5].where = &s.dense_layers, bad[5].v = 3;
    bad[6].field = "experts_active", bad[6].where = &s.experts_active, bad[6].v = 9;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = good;
        if (i == 5 || i == 6)
            s.experts = 8, s.experts_active = 2;
        *bad[i].where = bad[i].v;
        gp_err_clear(&e);
        ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
        ck_assert_msg(strcmp(e.where, bad[i].field) == 0, "case %zu: where '%s', want '%s'", i,
                      e.where, bad[i].field);
        ck_assert(n.total == 0.0);
    }
}
END_TEST

/* ---- every shipped entry whose params come from a config.json --------------------------- */

/* What a gp_model does not hold: the family's FFN kind, biases and norms,
 * learned positions and MLA widths (kv_dim = kv_lora_rank + rope,
 * qk_head_dim = nope + rope).  Matched on the id's prefix.  OLMo 2's and
 * MiniMax-M2's q/k RMSNorms over the whole projection (H d + K d per layer,
 * not 2 d) are GP_QK_NORM_FULL; the one part gp_param_shape has no field
 * for, GPT-J's lm_head bias (V), is added after the count. */
typedef struct family {
    const char *prefix;
    int ungated, norm_bias, qkv_bias, o_bias, mlp_bias, qk_norm, sandwich, sinks, router_bias;
    int no_embed, embed_norm;
    int qk_norm_full, lm_head_bias;
    double norms, pos_extra; /* norms per layer (0: default); positions
                                 context + pos_extra rows (< 0: none) */
    double rope, q_lora;
    /* Qwen3-Next: the attention's output gate, the shared expert's gate,
     * and the Gated DeltaNet widths (n_k, n_v, d_k, d_v, kernel) of the
     * entry's linear.layers. */
    int attn_gate, shared_gate;
    double lin_nk, lin_nv, lin_dk, lin_dv, lin_conv;
    /* Nemotron-H: Mamba-2 widths (heads, head width, groups, state, kernel,
     * conv bias) of the entry's linear.layers, and its blocks of one
     * sublayer each with ffn_blocks MLP blocks. */
    double m2_heads, m2_dhead, m2_groups, m2_state, m2_conv, ffn_blocks;
    int m2_conv_bias;
    /* Nemotron 3: moe_blocks MoE blocks of plain experts (expert_k 2). */
    double moe_blocks, expert_k;
} family;

static const family families[] = {
    {.prefix = "nemotron-3-nano-", .ungated = 1, .router_bias = 1, .pos_extra = -1,
     .m2_heads = 64, .m2_dhead = 64, .m2_groups = 8, .m2_state = 128, .m2_conv = 4,
     .m2_conv_bias = 1, .moe_blocks = 23, .expert_k = 2},
    {.prefix = "nemotron-h-", .ungated = 1, .pos_extra = -1, .m2_heads = 128, .m2_dhead = 64,
     .m2_groups = 8, .m2_state = 128, .m2_conv = 4, .m2_conv_bias = 1, .ffn_blocks = 24},
    /* Before "qwen3-": the first match wins. */
    {.prefix = "qwen3-next-", .qk_norm = 1, .pos_extra = -1, .attn_gate = 1, .shared_gate = 1,
     .lin_nk = 16, .lin_nv = 32, .lin_dk = 128, .lin_dv = 128, .lin_conv = 4},
    {.prefix = "qwen2.5-", .qkv_bias = 1, .pos_extra = -1},
    {.prefix = "qwen3-", .qk_norm = 1, .pos_extra = -1},
    {.prefix = "gemma-2-", .sandwich = 1, .pos_extra = -1},
    {.prefix = "gemma-3-", .qk_norm = 1, .sandwich = 1, .pos_extra = -1},
    {.prefix = "gpt-oss-", .qkv_bias = 1, .o_bias = 1, .mlp_bias = 1, .sinks = 1,
     .router_bias = 1, .no_embed = 1, .pos_extra = -1},
    {.prefix = "deepseek-v2-lite", .rope = 64, .pos_extra = -1},
    /* V3's routers carry e_score_correction_bias, one per routed expert. */
    {.prefix = "deepseek-v3", .rope = 64, .q_lora = 1536, .router_bias = 1, .pos_extra = -1},
    {.prefix = "kimi-k2", .rope = 64, .q_lora = 1536, .router_bias = 1, .pos_extra = -1},
    /* GLM-4.5-Air has no q/k norms (use_qk_norm false); GLM-4.5 has
     * per-head ones.  "glm-4.5-air" before "glm-4.5": the first match wins. */
    {.prefix = "glm-4.5-air", .qkv_bias = 1, .router_bias = 1, .pos_extra = -1},
    {.prefix = "glm-4.5", .qkv_bias = 1, .qk_norm = 1, .router_bias = 1, .pos_extra = -1},
    /* MiniMax-M2: q/k RMSNorms over the whole projection (as OLMo 2), a
     * router bias (e_score_correction_bias) of E per layer. */
    {.prefix = "minimax-m2", .qk_norm_full = 1, .router_bias = 1, .pos_extra = -1},
    /* The classic runs: plain GeLU MLPs, LayerNorms with biases. */
    {.prefix = "bloom-", .ungated = 1, .norm_bias = 1, .qkv_bias = 1, .o_bias = 1,
     .mlp_bias = 1, .embed_norm = 1, .pos_extra = -1},
    {.prefix = "opt-", .ungated = 1, .norm_bias = 1, .qkv_bias = 1, .o_bias = 1, .mlp_bias = 1,
     .pos_extra = 2},
    {.prefix = "gpt-neox-", .ungated = 1, .norm_bias = 1, .qkv_bias = 1, .o_bias = 1,
     .mlp_bias = 1, .pos_extra = -1},
    {.prefix = "mpt-", .ungated = 1, .pos_extra = -1},
    {.prefix = "falcon-7b", .ungated = 1, .norm_bias = 1, .norms = 1, .pos_extra = -1},
    /* GPT-2: n_positions learned rows; GPT-J: unbiased attention, one
     * LayerNorm per parallel block, a biased lm_head; Pythia is GPT-NeoX. */
    {.prefix = "gpt2", .ungated = 1, .norm_bias = 1, .qkv_bias = 1, .o_bias = 1, .mlp_bias = 1,
     .pos_extra = 0},
    {.prefix = "gpt-j-", .ungated = 1, .norm_bias = 1, .mlp_bias = 1, .norms = 1,
     .lm_head_bias = 1, .pos_extra = -1},
    {.prefix = "pythia-", .ungated = 1, .norm_bias = 1, .qkv_bias = 1, .o_bias = 1,
     .mlp_bias = 1, .pos_extra = -1},
    {.prefix = "olmo-2-", .qk_norm_full = 1, .pos_extra = -1},
    {.prefix = "falcon-", .ungated = 1, .norm_bias = 1, .pos_extra = -1},
};

/* The family row of m (NULL: none). */
static const family *family_of(const gp_model *m)
{
    size_t i;
    for (i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strncmp(m->id, families[i].prefix, strlen(families[i].prefix)) == 0)
            return &families[i]; /* the first match: "falcon-7b" before "falcon-" */
    return NULL;
}

/* The parameters of m that gp_param_shape cannot express (see families). */
static double unexpressed(const gp_model *m)
{
    const family *f = family_of(m);
    double extra = 0.0;
    if (f != NULL && f->lm_head_bias)
        extra += m->vocab.v;
    return extra;
}

static gp_param_shape shape_of(const gp_model *m)
{
    gp_param_shape s = {0};
    size_t i;
    s.layers = m->layers.v, s.hidden = m->hidden.v, s.heads = m->heads.v;
    s.kv_heads = m->kv_heads.v, s.head_dim = m->head_dim.v, s.ffn = m->ffn_hidden.v;
    s.vocab = m->vocab.v, s.tied = m->tied_embeddings, s.gated = 1;
    s.experts = m->experts.v, s.experts_active = m->experts_active.v;
    s.expert_ffn = m->expert_ffn_hidden.v, s.shared_experts = m->shared_experts.v;
    s.dense_layers = m->dense_layers.v;
    for (i = 0; i < sizeof families / sizeof families[0]; i++) {
        const family *f = &families[i];
        if (strncmp(m->id, f->prefix, strlen(f->prefix)) != 0)
            continue;
        s.gated = !f->ungated, s.norm_bias = f->norm_bias, s.embed_norm = f->embed_norm;
        s.norms_per_layer = f->norms;
        s.pos_embed = f->pos_extra >= 0.0 ? m->context.v + f->pos_extra : 0.0;
        s.qkv_bias = f->qkv_bias, s.o_bias = f->o_bias, s.mlp_bias = f->mlp_bias;
        s.qk_norm = f->qk_norm_full ? GP_QK_NORM_FULL : f->qk_norm;
        s.sandwich_norm = f->sandwich, s.attn_sinks = f->sinks;
        s.router_bias = f->router_bias, s.active_no_embed = f->no_embed;
        s.attn_gate = f->attn_gate, s.shared_gate = f->shared_gate;
        if (f->lin_nk > 0.0) {
            s.linear_layers = m->linear_layers.v;
            s.linear_key_heads = f->lin_nk, s.linear_value_heads = f->lin_nv;
            s.linear_key_dim = f->lin_dk, s.linear_value_dim = f->lin_dv;
            s.linear_conv = f->lin_conv;
        }
        if (f->m2_heads > 0.0) {
            s.linear_layers = m->linear_layers.v;
            s.linear_kind = GP_MIXER_MAMBA2;
            s.ssm_heads = f->m2_heads, s.ssm_inner = f->m2_heads * f->m2_dhead;
            s.ssm_groups = f->m2_groups, s.ssm_state = f->m2_state;
            s.linear_conv = f->m2_conv, s.ssm_conv_bias = f->m2_conv_bias;
            s.split_blocks = 1, s.ffn_blocks = f->ffn_blocks;
            s.moe_blocks = f->moe_blocks, s.expert_matrices = f->expert_k;
        }
        if (f->rope > 0.0) {
            s.kv_lora_rank = m->kv_dim.v - f->rope;
            s.qk_rope_head_dim = f->rope;
            s.qk_nope_head_dim = m->qk_head_dim.v - f->rope;
            s.v_head_dim = m->head_dim.v;
            s.q_lora_rank = f->q_lora;
        }
        break; /* the first match: "falcon-7b" before "falcon-" */
    }
    return s;
}

START_TEST(shipped_entries)
{
    const gp_db *db = gp_test_db();
    size_t i, checked = 0;
    char bad[4096] = "";
    for (i = 0; i < gp_db_count(db, GP_KIND_MODEL); i++) {
        const gp_model *m = gp_db_model_at(db, i);
        gp_param_shape s;
        gp_param_count n;
        /* params computed from the config's shape: src `derived`
         * (hwdb/sources.yaml: "Arithmetic on other sourced figures"). */
        if (m->params.src == NULL || strstr(m->params.src, "Arithmetic on other sourced") == NULL)
            continue;
        s = shape_of(m);
        n = gp_test_count_params(&s);
        n.total += unexpressed(m);
        n.active += unexpressed(m);
        if (!gp_test_rel_ok(n.total, m->params.v, 1e-12) ||
            !gp_test_rel_ok(n.active, m->params_active.v, 1e-12)) {
            /* Collect every mismatch, so one run names them all. */
            size_t len = strlen(bad);
            if (len + 160 < sizeof bad)
                snprintf(bad + len, sizeof bad - len, " %s (%.0f / %.0f active vs %.0f / %.0f);",
                         m->id, n.total, n.active, m->params.v, m->params_active.v);
        }
        checked++;
    }
    ck_assert_msg(bad[0] == '\0', "counted vs entry:%s", bad);
    ck_assert_msg(checked >= 20, "only %zu derived entries", checked);
}
END_TEST

START_TEST(deepseek_v3_near_paper)
{
    /* DeepSeek-V3's entry quotes the paper's 671B / 37B (not derived).
     * The count from its config: attention with q_lora 1536: 7168 x 1536 +
     * 1536 + 1536 x 128 x 192 = 48,760,320; kv_a 7168 x 576 + 512 =
     * 4,129,280; kv_b 512 x 128 x 256 = 16,777,216; o 128 x 128 x 7168 =
     * 117,440,512: 187,107,328.  Dense layers (3): + 3 x 7168 x 18432 =
     * 396,361,728 + 14,336 norms = 583,483,392.  MoE layers (58): router
     * 7168 x 256 + 256 (e_score_correction_bias) = 1,835,264 + 257 x 3 x
     * 7168 x 2048 = 257 x 44,040,192 = 11,318,329,344 + norms 14,336 +
     * attention = 11,507,286,272.  Total 3 x 583,483,392 + 58 x
     * 11,507,286,272 + 2 x 129280 x 7168 + 7168 = 1,750,450,176 +
     * 667,422,603,776 + 1,853,358,080 + 7,168 = 671,026,419,200: the
     * paper's 671B to 0.004 %. */
    const gp_model *m = gp_db_find_model(gp_test_db(), "deepseek-v3");
    gp_param_shape s;
    gp_param_count n;
    ck_assert_ptr_nonnull(m);
    s = shape_of(m);
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.total, 671026419200.0, 0);
    GP_ASSERT_REL(n.total, m->params.v, 1e-4);
}
END_TEST

START_TEST(open_with_text)
{
    /* The text is one more layer after the overlays: a new model, then
     * errors named at the text's name:line:col; all or nothing. */
    static const char text[] = "id: tiny\nname: Tiny\nsources: {t: a test}\nsrc: t\nparams: 1e6\nlayers: 2\n"
                               "hidden: 64\nheads: 4\nffn_hidden: 256\nvocab: 1000\n"
                               "context: 512\n";
    static const char bad[] = "id: tiny2\nname: Tiny\nsrc: derived\nparams: 1e6\nlayers: -2\n";
    const char *dirs[] = {"tests/data/hwdb-min"};
    gp_db *db = (gp_db *)1;
    gp_err e;
    const gp_model *m;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open_with_text(&db, 0, NULL, 0, GP_KIND_MODEL, "mem", text,
                                       sizeof text - 1, &e) == GP_OK,
                  "%s", e.msg);
    m = gp_db_find_model(db, "tiny");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->params.v, 1e6, 0);
    ck_assert_ptr_nonnull(strstr(m->layers.origin, "mem:6:"));
    ck_assert_ptr_nonnull(gp_db_find_model(db, "llama-2-7b"));
    gp_db_free(db);
    /* Over an overlay directory, no built-in. */
    ck_assert_msg(gp_db_open_with_text(&db, 1, dirs, 1, GP_KIND_MODEL, "mem", text,
                                       sizeof text - 1, &e) == GP_OK,
                  "%s", e.msg);
    ck_assert_ptr_nonnull(gp_db_find_model(db, "tiny"));
    ck_assert_ptr_null(gp_db_find_model(db, "gpt-oss-20b"));
    gp_db_free(db);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open_with_text(&db, 0, NULL, 0, GP_KIND_MODEL, "mem", bad,
                                          sizeof bad - 1, &e), GP_ESCHEMA);
    ck_assert_ptr_null(db);
    ck_assert_str_eq(e.where, "mem");
    ck_assert_uint_eq(e.line, 5);
    ck_assert_int_eq(gp_db_open_with_text(&db, 0, NULL, 0, GP_KIND__COUNT, "mem", text, 1, &e),
                     GP_EINVAL);
    ck_assert_int_eq(gp_db_open_with_text(&db, 0, NULL, 0, GP_KIND_MODEL, "mem", NULL, 1, &e),
                     GP_EINVAL);
    ck_assert_int_eq(gp_db_open_with_text(&db, 0, NULL, 1, GP_KIND_MODEL, "mem", text, 1, &e),
                     GP_EINVAL);
    ck_assert_ptr_null(db);
}
END_TEST

/* ---- the CLI ------------------------------------------------------------------------------ */

static const char *const files[] = {"llama-3.1-8b", "qwen3-30b-a3b", "mixtral-8x7b",
                                    "gemma-2-9b",   "deepseek-v2-lite", "qwen2.5-7b",
                                    "gpt-oss-20b",  "gemma-3-12b",   "phi-3-mini",
                                    "bloom-176b",   "mpt-7b",        "glm-4.5-air",
                                    "qwen3-next-80b-a3b", "nemotron-h-8b",
                                    "nemotron-3-nano-30b-a3b", "minimax-m2", "olmo-2-7b",
                                    "llama-4-scout"};

static const char *const epoch0[] = {"SOURCE_DATE_EPOCH=0", NULL};

/* `gpuplan --db dir --json hw import-model FILE --as ID [extra]`: exit status,
 * stdout parsed into *o (NULL when not JSON). */
static int import(const char *dir, const char *file, const char *as, const char *extra,
                  const char *const *env, json_t **o, char **err)
{
    const char *argv[12];
    char *out = NULL;
    size_t k = 0;
    int rc;
    argv[k++] = "--db";
    argv[k++] = dir;
    argv[k++] = "--json";
    argv[k++] = "hw";
    argv[k++] = "import-model";
    argv[k++] = file;
    if (as != NULL) {
        argv[k++] = "--as";
        argv[k++] = as;
    }
    if (extra != NULL)
        argv[k++] = extra;
    argv[k] = NULL;
    rc = gp_test_cli_env(argv, env, &out, err);
    if (o != NULL)
        *o = out != NULL ? json_loads(out, 0, NULL) : NULL;
    free(out);
    return rc;
}

static json_t *show(const char *dir, const char *id)
{
    char what[96];
    const char *argv[] = {"--db", dir, "--json", "hw", "show", what, NULL};
    snprintf(what, sizeof what, "model:%s", id);
    return gp_test_cli_json(argv);
}

/* Keys the import does not set: names, citations, origins and figures a
 * config.json does not hold (train_seq). */
static int skip_key(const char *k)
{
    static const char *const skip[] = {"id", "name", "aliases", "family", "sources", "origins",
                                       "train_seq"};
    size_t i;
    for (i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(k, skip[i]) == 0)
            return 1;
    return 0;
}

START_TEST(cli_import_equals_shipped)
{
    char dir[256];
    size_t i;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[128], as[80];
        json_t *o = NULL, *a, *b, *v;
        const char *k;
        int rc;
        snprintf(path, sizeof path, "tests/data/hf/%s.json", files[i]);
        snprintf(as, sizeof as, "%s-imp", files[i]);
        rc = import(dir, path, as, NULL, epoch0, &o, NULL);
        ck_assert_msg(rc == 0, "%s: exit %d", path, rc);
        ck_assert_ptr_nonnull(o);
        ck_assert_str_eq(json_string_value(json_object_get(o, "status")), "wrote");
        json_decref(o);
        a = show(dir, as);
        b = show(dir, files[i]);
        /* Field by field, both ways. */
        json_object_foreach(b, k, v)
        {
            json_t *w = json_object_get(a, k);
            if (skip_key(k))
                continue;
            ck_assert_msg(w != NULL, "%s: no '%s' in the import", files[i], k);
            if (json_is_number(v))
                ck_assert_msg(gp_test_rel_ok(json_number_value(w), json_number_value(v), 1e-9),
                              "%s: %s = %.17g, shipped %.17g", files[i], k,
                              json_number_value(w), json_number_value(v));
            else
                ck_assert_msg(json_equal(w, v), "%s: '%s' differs", files[i], k);
        }
        json_object_foreach(a, k, v)
        {
            if (!skip_key(k))
                ck_assert_msg(json_object_get(b, k) != NULL, "%s: '%s' only in the import",
                              files[i], k);
        }
        json_decref(a);
        json_decref(b);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_import_file)
{
    /* The file loads with the normal loader, cites its source, and a second
     * import (another day) leaves the same bytes.  The derived id, gpt2, is
     * a shipped model's (hwdb/models/gpt2.yaml): --force writes the
     * overlay. */
    char dir[256], path[512], *t1, *t2;
    const char *dirs[1];
    const char *const later[] = {"SOURCE_DATE_EPOCH=86400000", NULL};
    json_t *o = NULL;
    gp_db *db = NULL;
    gp_err e;
    const gp_model *m;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(import(dir, "tests/data/hf/gpt2.json", NULL, "--force", epoch0, &o, NULL), 0);
    ck_assert_str_eq(json_string_value(json_object_get(o, "id")), "gpt2");
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 124439808.0, 0);
    ck_assert_int_eq((int)json_array_size(json_object_get(o, "warnings")), 2);
    json_decref(o);
    snprintf(path, sizeof path, "%s/models/gpt2.yaml", dir);
    t1 = gp_test_slurp(path);
    ck_assert_ptr_nonnull(t1);
    ck_assert_ptr_nonnull(strstr(t1, "src: hf_config"));
    ck_assert_ptr_nonnull(strstr(t1, "imported by gpuplan hw import-model on 1970-01-01"));
    ck_assert_ptr_nonnull(strstr(t1, "params: {value: 124439808, src: derived}"));
    dirs[0] = dir;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, dirs, 1, &e) == GP_OK, "%s", e.msg);
    m = gp_db_find_model(db, "gpt2");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->params.v, 124439808.0, 0);
    ck_assert_ptr_nonnull(strstr(m->params.src, "Arithmetic on other sourced"));
    ck_assert_ptr_nonnull(strstr(m->layers.src, "tests/data/hf/gpt2.json (model_type gpt2"));
    ck_assert(m->tied_embeddings == 1);
    gp_db_free(db);
    ck_assert_int_eq(import(dir, "tests/data/hf/gpt2.json", NULL, "--force", later, &o, NULL), 0);
    ck_assert_str_eq(json_string_value(json_object_get(o, "status")), "unchanged");
    json_decref(o);
    t2 = gp_test_slurp(path);
    ck_assert_ptr_nonnull(t2);
    ck_assert_str_eq(t1, t2);
    free(t1);
    free(t2);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_import_refuses)
{
    char dir[256], path[512], *err = NULL, *before, *after;
    json_t *o = NULL;
    int rc;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    before = gp_test_dir_listing(dir);
    /* A shipped id without --force: nothing written. */
    rc = import(dir, "tests/data/hf/llama-3.1-8b.json", NULL, NULL, epoch0, &o, &err);
    ck_assert_int_eq(rc, 2);
    ck_assert_ptr_nonnull(strstr(err, "names the shipped model 'llama-3.1-8b'"));
    free(err);
    json_decref(o);
    /* Malformed JSON: file:line:col, nothing written. */
    rc = import(dir, "tests/data/hf/bad-truncated.json", "x", NULL, epoch0, &o, &err);
    ck_assert_int_eq(rc, 2);
    ck_assert_ptr_nonnull(strstr(err, "tests/data/hf/bad-truncated.json:6:19: "));
    free(err);
    json_decref(o);
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(after);
    /* With --force the shipped id is written (an override). */
    rc = import(dir, "tests/data/hf/llama-3.1-8b.json", NULL, "--force", epoch0, &o, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(json_string_value(json_object_get(o, "id")), "llama-3.1-8b");
    json_decref(o);
    /* A file import-model did not write is not replaced. */
    ck_assert_int_eq(gp_test_write(dir, "models/mine.yaml", "id: mine\n"), 0);
    rc = import(dir, "tests/data/hf/gpt2.json", "mine", NULL, epoch0, &o, &err);
    ck_assert_int_eq(rc, 2);
    ck_assert_ptr_nonnull(strstr(err, "was not written by 'gpuplan hw import-model'"));
    free(err);
    json_decref(o);
    snprintf(path, sizeof path, "%s/models/mine.yaml", dir);
    after = gp_test_slurp(path);
    ck_assert_str_eq(after, "id: mine\n");
    free(after);
    free(before);
    gp_test_rmtree(dir);
}
END_TEST

/* --name: text for a YAML file and a terminal -- invalid UTF-8, a raw
 * newline or a control byte are refused naming the option, nothing
 * written; other scripts pass. */
START_TEST(cli_import_name_text)
{
    char dir[256], *out = NULL, *err = NULL, *before, *after;
    static const char *const bad[] = {"\xff\xfe", "a\nb", "x\x01", "\xed\xa0\x80",
                                      "\xc0\xaf"};
    size_t i;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    before = gp_test_dir_listing(dir);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *a[] = {"--db", dir, "hw", "import-model", "tests/data/hf/gpt2.json", "--as",
                           "t1", "--name", bad[i], NULL};
        ck_assert_int_eq(gp_test_cli(a, &out, &err), 2);
        ck_assert_ptr_nonnull(strstr(err, "'--name' must be UTF-8 text without control"));
        free(out);
        free(err);
    }
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(after);
    free(before);
    {
        const char *a[] = {"--db", dir, "hw", "import-model", "tests/data/hf/gpt2.json", "--as",
                           "t1", "--name", "GPT-2 \xc3\xbc \xe6\xa8\xa1\xe5\x9e\x8b", NULL};
        ck_assert_int_eq(gp_test_cli(a, &out, &err), 0);
        free(out);
        free(err);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_unknown_architecture)
{
    /* Imported with the guessed keys named; 8 layers x (4 x 1024^2 +
     * 3 x 1024 x 4096 + 2 x 1024) = 8 x 16,779,264 = 134,234,112 + 32000 x
     * 1024 (tied by the PretrainedConfig default) + 1024 = 167,003,136. */
    char dir[256];
    json_t *o = NULL, *w;
    size_t i, seen = 0;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(import(dir, "tests/data/hf/unknown-arch.json", NULL, NULL, epoch0, &o, NULL),
                     0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 167003136.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "context"), 2048.0, 0);
    w = json_object_get(o, "warnings");
    for (i = 0; i < json_array_size(w); i++) {
        const char *s = json_string_value(json_array_get(w, i));
        seen += strstr(s, "model_type 'frobnicator'") != NULL;
        seen += strstr(s, "max_position_embeddings") != NULL;
        seen += strstr(s, "tie_word_embeddings") != NULL;
        seen += strstr(s, "intermediate_size") != NULL;
    }
    ck_assert_int_eq((int)seen, 4);
    json_decref(o);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_model_file)
{
    /* decode --model FILE.json reads as --model ID, writing nothing. */
    const char *a[] = {"--json", "decode", "--gpu", "4090", "--model",
                       "tests/data/hf/llama-3.1-8b.json", "--weights", "q4_0", NULL};
    const char *b[] = {"--json", "decode", "--gpu", "4090", "--model", "llama-3.1-8b",
                       "--weights", "q4_0", NULL};
    const char *t[] = {"--json", "train", "--gpu", "h100", "--gpus", "8", "--model",
                       "tests/data/hf/mixtral-8x7b.json", "--tokens", "1T", NULL};
    const char *u[] = {"--json", "train", "--gpu", "h100", "--gpus", "8", "--model",
                       "mixtral-8x7b", "--tokens", "1T", NULL};
    json_t *x = gp_test_cli_json(a), *y = gp_test_cli_json(b);
    ck_assert_str_eq(json_string_value(json_object_get(x, "model")), "llama-3.1-8b.json");
    GP_ASSERT_REL(gp_test_jnum(x, "expected_tokens_per_s"), gp_test_jnum(y, "expected_tokens_per_s"),
                  1e-12);
    GP_ASSERT_REL(gp_test_jnum(x, "ceiling_tokens_per_s"), gp_test_jnum(y, "ceiling_tokens_per_s"),
                  1e-12);
    json_decref(x);
    json_decref(y);
    x = gp_test_cli_json(t);
    y = gp_test_cli_json(u);
    GP_ASSERT_REL(gp_test_jnum(x, "gpu_days"), gp_test_jnum(y, "gpu_days"), 1e-12);
    json_decref(x);
    json_decref(y);
}
END_TEST

/* Wrong JSON types on keys the import reads, and key/value heads that
 * do not divide the heads: refused (exit 2) naming the file and the key,
 * nothing written -- not read as absent and warned about, nor imported. */
typedef struct wrong_type {
    const char *base; /* a config.json in tests/data/hf, or NULL: `edit` is the file */
    const char *edit; /* JSON object: keys set (null: removed) */
    const char *want; /* stderr contains */
} wrong_type;

static const wrong_type wrong_types[] = {
    {"llama-3.1-8b", "{\"model_type\": 5}", "key 'model_type': expected a string (got a number)"},
    {"llama-3.1-8b", "{\"model_type\": [\"llama\"]}",
     "key 'model_type': expected a string (got a list)"},
    {"llama-3.1-8b", "{\"_name_or_path\": 7}",
     "key '_name_or_path': expected a string (got a number)"},
    {"llama-3.1-8b", "{\"hidden_act\": true}", "key 'hidden_act': expected a string (got true)"},
    {"gpt2", "{\"activation_function\": 1.5}",
     "key 'activation_function': expected a string (got a number)"},
    /* 32 query heads in groups of 32 / 5: no whole groups. */
    {"llama-3.1-8b", "{\"num_key_value_heads\": 5}",
     "key 'num_key_value_heads': 5 key/value heads do not divide the 32 attention heads "
     "(num_attention_heads)"},
    {"llama-3.1-8b", "{\"num_key_value_heads\": 64}",
     "key 'num_key_value_heads': 64 key/value heads exceed the 32 attention heads"},
    /* gpt-oss reads layer_types for its window, llama for linear layers. */
    {"gpt-oss-20b", "{\"layer_types\": [1, 1]}",
     "key 'layer_types': item 0: expected a string (got a number)"},
    {"gpt-oss-20b", "{\"layer_types\": \"sliding_attention\"}",
     "key 'layer_types': expected a list of strings (got a string)"},
    {"llama-3.1-8b", "{\"layer_types\": [\"full_attention\", {}]}",
     "key 'layer_types': item 1: expected a string (got an object)"},
    {"gpt-oss-20b", "{\"sliding_window\": true}",
     "key 'sliding_window': expected a window in tokens, null or false (got true)"},
    {"nemotron-h-8b", "{\"mamba_ssm_cache_dtype\": 32}",
     "key 'mamba_ssm_cache_dtype': expected a string (got a number)"},
    {"nemotron-h-8b", "{\"hybrid_override_pattern\": 5}",
     "key 'hybrid_override_pattern': expected a string of block kinds (M Mamba-2, * attention, "
     "- MLP, E MoE) (got a number)"},
    {"nemotron-h-8b", "{\"hybrid_override_pattern\": null, \"layers_block_type\": [\"mamba\", 2]}",
     "key 'layers_block_type': item 1: expected a string (got a number)"},
    {"nemotron-h-8b", "{\"hybrid_override_pattern\": null, \"layers_block_type\": \"mamba\"}",
     "key 'layers_block_type': expected a list of block kinds (got a string)"},
    /* A multimodal config: text_config holds the shape. */
    {NULL, "{\"model_type\": \"llava\", \"text_config\": \"llama\"}",
     "key 'text_config': expected an object (got a string)"},
    {NULL,
     "{\"model_type\": \"llava\", \"text_config\": {\"model_type\": 5, \"num_hidden_layers\": 2, "
     "\"hidden_size\": 512, \"num_attention_heads\": 8, \"vocab_size\": 1000}}",
     "key 'model_type': expected a string (got a number)"},
    {NULL,
     "{\"model_type\": false, \"text_config\": {\"num_hidden_layers\": 2, "
     "\"hidden_size\": 512, \"num_attention_heads\": 8, \"vocab_size\": 1000}}",
     "key 'model_type': expected a string (got false)"},
};

START_TEST(cli_import_wrong_types)
{
    const wrong_type *w = &wrong_types[_i];
    char src[256], dir[256], base[128], *err = NULL, *before, *after;
    const char *file;
    json_t *o = NULL;
    int rc;
    ck_assert_int_eq(gp_test_tmpdir(src, sizeof src), 0);
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    before = gp_test_dir_listing(dir);
    if (w->base != NULL)
        snprintf(base, sizeof base, "tests/data/hf/%s.json", w->base);
    file = gp_test_json_edit(src, "config", w->base != NULL ? base : NULL, w->edit);
    rc = gp_test_import_model(dir, file, "t1", &o, &err);
    ck_assert_msg(rc == 2, "%s %s: exit %d (%s)", w->base ? w->base : "", w->edit, rc,
                  err ? err : "");
    ck_assert_msg(strstr(err, file) != NULL && strstr(err, w->want) != NULL,
                  "%s: '%s' lacks '%s'", w->edit, err, w->want);
    json_decref(o);
    free(err);
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(after);
    free(before);
    gp_test_rmtree(src);
    gp_test_rmtree(dir);
}
END_TEST

/* The same keys with their own types still import: false for no window, a
 * divisor of the heads for the KV heads (32 heads in 4 groups of 8). */
START_TEST(cli_import_right_types)
{
    char src[256], dir[256];
    const char *file;
    json_t *o = NULL;
    ck_assert_int_eq(gp_test_tmpdir(src, sizeof src), 0);
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    file = gp_test_json_edit(src, "config", "tests/data/hf/llama-3.1-8b.json",
                             "{\"num_key_value_heads\": 4, \"sliding_window\": false, "
                             "\"_name_or_path\": \"me/kv4\"}");
    ck_assert_int_eq(gp_test_import_model(dir, file, "t1", &o, NULL), 0);
    ck_assert_ptr_nonnull(o);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_heads"), 4.0, 0);
    /* k and v 2 x 4096 x 512 = 4,194,304 a layer, half of the 8 KV heads':
     * 8,030,261,248 - 32 x 4,194,304 = 7,896,043,520. */
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 7896043520.0, 0);
    ck_assert(json_is_null(json_object_get(o, "window")));
    json_decref(o);
    gp_test_rmtree(src);
    gp_test_rmtree(dir);
}
END_TEST

/* use_qk_norm (GLM-4.5 true, GLM-4.5-Air false) adds the per-head q and k
 * RMSNorm weights, head_dim each: the Air's shape with it true has 46
 * layers x 2 x 128 = 11,776 more parameters (GLM-4.5's 92 layers: 23,552,
 * which the model type alone missed). */
START_TEST(cli_import_use_qk_norm)
{
    char src[256], dir[256];
    const char *file;
    json_t *o = NULL;
    double air;
    ck_assert_int_eq(gp_test_tmpdir(src, sizeof src), 0);
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_import_model(dir, "tests/data/hf/glm-4.5-air.json", "t0", &o, NULL),
                     0);
    air = gp_test_jnum(o, "params");
    json_decref(o);
    file = gp_test_json_edit(src, "config", "tests/data/hf/glm-4.5-air.json",
                             "{\"use_qk_norm\": true, \"_name_or_path\": \"me/qkn\"}");
    ck_assert_int_eq(gp_test_import_model(dir, file, "t1", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params") - air, 46.0 * 2.0 * 128.0, 0);
    json_decref(o);
    gp_test_rmtree(src);
    gp_test_rmtree(dir);
}
END_TEST

/* The man page as docs/mkman.sh writes it (`make man`, `make install`);
 * malloc'd, the caller frees. */
static char *man_page(void)
{
    char cmd[512], *out;
    FILE *p;
    size_t n;
    snprintf(cmd, sizeof cmd, "sh docs/mkman.sh '%s/gpuplan' 0 2>&1", gp_test_build_dir());
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    out = calloc(1, 1 << 20);
    ck_assert_ptr_nonnull(out);
    n = fread(out, 1, (1 << 20) - 1, p);
    out[n] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    return out;
}

/* The page is generated from the --help texts.  'gpuplan hw --help' points
 * to 'gpuplan hw import-model --help' for that subcommand's options; the
 * page must hold that text too (--as, --name, --force), or man gpuplan never
 * lists them. */
START_TEST(man_page_has_import_model_options)
{
    char *out = man_page();
    ck_assert_ptr_nonnull(strstr(out, ".SH COMMAND: hw\n"));
    ck_assert_msg(strstr(out, "--name NAME  the entry's name") != NULL,
                  "man page lacks hw import-model's options");
    ck_assert_ptr_nonnull(strstr(out, "--force      allow an id that names a shipped model"));
    free(out);
}
END_TEST

/* ENVIRONMENT states the overlay order the CLI loads (docs/hwdb.md: the
 * default directory, then $GPUPLAN_DB, then each --db; later ones win, so
 * --db overrides $GPUPLAN_DB) and names XDG_CONFIG_HOME and
 * SOURCE_DATE_EPOCH, which the CLI reads too. */
START_TEST(man_page_environment_order)
{
    char *out = man_page(), *env = strstr(out, ".SH ENVIRONMENT"), *end;
    ck_assert_ptr_nonnull(env);
    end = strstr(env + 1, "\n.SH ");
    ck_assert_ptr_nonnull(end);
    *end = '\0';
    ck_assert_msg(strstr(env, "after any") == NULL, "%s", env);
    ck_assert_msg(strstr(env, "before the") != NULL, "%s", env);
    ck_assert_ptr_nonnull(strstr(env, "XDG_CONFIG_HOME"));
    ck_assert_ptr_nonnull(strstr(env, "SOURCE_DATE_EPOCH"));
    free(out);
}
END_TEST

Suite *gp_test_suite_hfimport(void)
{
    Suite *s = suite_create("hfimport");
    TCase *tc = tcase_create("count");
    tcase_add_test(tc, count_llama31_8b);
    tcase_add_test(tc, count_gpt2);
    tcase_add_test(tc, count_mixtral);
    tcase_add_test(tc, count_deepseek_v2_lite);
    tcase_add_test(tc, count_gpt_oss_20b);
    tcase_add_test(tc, count_gemma_qwen);
    tcase_add_test(tc, count_qk_norm_full);
    tcase_add_test(tc, count_lightning_indexer);
    tcase_add_test(tc, count_refuses);
    tcase_add_test(tc, shipped_entries);
    tcase_add_test(tc, deepseek_v3_near_paper);
    tcase_add_test(tc, open_with_text);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cli_import_equals_shipped);
    tcase_add_test(tc, cli_import_file);
    tcase_add_test(tc, cli_import_refuses);
    tcase_add_test(tc, cli_unknown_architecture);
    tcase_add_test(tc, cli_model_file);
    tcase_add_test(tc, cli_import_name_text);
    tcase_add_loop_test(tc, cli_import_wrong_types, 0,
                        (int)(sizeof wrong_types / sizeof wrong_types[0]));
    tcase_add_test(tc, cli_import_right_types);
    tcase_add_test(tc, cli_import_use_qk_norm);
    tcase_add_test(tc, man_page_has_import_model_options);
    tcase_add_test(tc, man_page_environment_order);
    suite_add_tcase(s, tc);
    return s;
}
