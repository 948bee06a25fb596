/* Mamba hybrids: Mamba-2 and Mamba-1 mixers in the parameter count,
 * Nemotron-H's blocks of one sublayer each, the config.json import of
 * nemotron_h, granitemoehybrid and jamba, and the shipped Nemotron-H 8B
 * entry in decode (docs/hwdb.md "linear.layers", docs/models/inference.md
 * §1.2).  Every expected number is derived by hand in the comment above its
 * assert. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "testutil.h"

/* Nemotron-H 8B (nvidia/Nemotron-H-8B-Base-8K's config.json,
 * tests/data/hf/nemotron-h-8b.json): 52 blocks, 24 Mamba-2, 4 attention,
 * 24 MLP; as gpuplan enters it, 28 mixer layers and 24 FFN blocks. */
static gp_param_shape nemotron_h_8b(void)
{
    gp_param_shape s;
    memset(&s, 0, sizeof s);
    s.layers = 28, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.head_dim = 128;
    s.ffn = 21504, s.vocab = 131072, s.gated = 0;
    s.linear_layers = 24, s.linear_kind = GP_MIXER_MAMBA2;
    s.ssm_heads = 128, s.ssm_inner = 128 * 64, s.ssm_groups = 8, s.ssm_state = 128;
    s.linear_conv = 4, s.ssm_conv_bias = 1;
    s.split_blocks = 1, s.ffn_blocks = 24;
    return s;
}

START_TEST(count_nemotron_h)
{
    /* Nemotron-H 8B.  Attention block: q 4096 x 4096 = 16,777,216 + k, v
     * 2 x 4096 x 8 x 128 = 8,388,608 + o 16,777,216 = 41,943,040 (no bias,
     * no q/k norm: NemotronHAttention).  Mamba-2 (NemotronHMamba2Mixer):
     * d_i = 128 x 64 = 8,192, conv channels c = 8,192 + 2 x 8 x 128 =
     * 10,240; in_proj 4096 x (8,192 + 10,240 + 128) = 4096 x 18,560 =
     * 76,021,760; conv1d 10,240 x 4 + 10,240 (bias) = 51,200; dt_bias,
     * A_log, D 3 x 128 = 384; gated norm 8,192; out_proj 8,192 x 4096 =
     * 33,554,432: 109,635,968.  State: 8,192 x 128 = 1,048,576 + (4 - 1) x
     * 10,240 = 30,720: 1,079,296.  MLP block: up and down 2 x 4096 x
     * 21504 = 176,160,768 + norm 4,096 = 176,164,864.  Each mixer block one
     * norm, 4,096.  Total 4 x (41,943,040 + 4,096) = 167,788,544 + 24 x
     * (109,635,968 + 4,096) = 2,631,361,536 + 24 x 176,164,864 =
     * 4,227,956,736 + 2 x 131072 x 4096 = 1,073,741,824 + 4,096 (final
     * norm) = 8,100,852,736: NVIDIA's "8B" within 1.3 %. */
    gp_param_shape s = nemotron_h_8b();
    gp_param_count n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.attn, 41943040.0, 0);
    GP_ASSERT_REL(n.linear_attn, 109635968.0, 0);
    GP_ASSERT_REL(n.linear_state, 1079296.0, 0);
    GP_ASSERT_REL(n.norms, 4096.0, 0);
    GP_ASSERT_REL(n.dense_ffn, 176160768.0, 0);
    GP_ASSERT_REL(n.ffn_block, 176164864.0, 0);
    GP_ASSERT_REL(n.dense_layer, 41947136.0, 0);
    GP_ASSERT_REL(n.total, 8100852736.0, 0);
    GP_ASSERT_REL(n.active, 8100852736.0, 0);
    GP_ASSERT_REL(n.total, 8e9, 0.013);
    /* Nemotron-H 56B (Megatron-Bridge's NemotronHModel56BProvider:
     * pattern of 118 blocks, 54 M, 10 *, 54 -; hidden 8192, FFN 32768, 64
     * heads, 8 query groups of 128; 256 Mamba heads of 64 (the provider's
     * mamba_head_dim), 8 groups, state 256, kernel 4; vocabulary 131072, as
     * the 8B's, untied).  d_i = 16,384, c = 16,384 + 2 x 8 x 256 = 20,480;
     * mixer 8192 x (16,384 + 20,480 + 256) = 304,087,040 + 20,480 x 5 =
     * 102,400 + 768 + 16,384 + 16,384 x 8192 = 134,217,728: 438,424,320;
     * attention 2 x 8192^2 + 2 x 8192 x 1024 = 150,994,944; MLP 2 x 8192 x
     * 32768 = 536,870,912.  Total 54 x 438,432,512 + 10 x 151,003,136 + 54
     * x 536,879,104 + 2 x 131072 x 8192 + 8192 = 23,675,355,648 +
     * 1,510,031,360 + 28,991,471,616 + 2,147,483,648 + 8,192 =
     * 56,324,350,464: NVIDIA's "56B" within 0.6 %.  State 16,384 x 256 +
     * 3 x 20,480 = 4,255,744. */
    s.layers = 64, s.hidden = 8192, s.heads = 64, s.kv_heads = 8, s.head_dim = 128;
    s.ffn = 32768, s.linear_layers = 54, s.ssm_heads = 256, s.ssm_inner = 256 * 64;
    s.ssm_state = 256, s.ffn_blocks = 54;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.linear_attn, 438424320.0, 0);
    GP_ASSERT_REL(n.attn, 150994944.0, 0);
    GP_ASSERT_REL(n.total, 56324350464.0, 0);
    GP_ASSERT_REL(n.total, 56e9, 0.006);
    GP_ASSERT_REL(n.linear_state, 4255744.0, 0);
}
END_TEST

START_TEST(count_granite_jamba)
{
    /* Granite-4.0-H-Small as its config.json's quoted fields give it
     * (hidden 4096, 40 layers, 36 mamba and 4 attention, 32 heads, 8 KV,
     * 72 experts of width 768, 10 per token, shared_intermediate_size
     * 1536, mamba_d_state 128, mamba_d_conv 4, mamba_expand 2, vocabulary
     * 100352, tied), with GraniteMoeHybridConfig's defaults for the rest
     * (128 Mamba heads, 1 group, conv bias).  Mamba-2 (BambaMixer): d_i =
     * 2 x 4096 = 8,192, c = 8,192 + 2 x 128 = 8,448; in_proj 4096 x
     * (8,192 + 8,448 + 128) = 68,681,728 + conv 8,448 x 5 = 42,240 + 384 +
     * 8,192 + 33,554,432 = 102,286,976.  Attention 41,943,040.  FFN part:
     * router 4096 x 72 = 294,912 + 72 x 3 x 4096 x 768 = 679,477,248 +
     * shared 3 x 4096 x 1536 = 18,874,368; norms 8,192: 698,654,720 a
     * layer.  Total 36 x 102,286,976 + 4 x 41,943,040 + 40 x 698,654,720 +
     * 100352 x 4096 (tied) + 4,096 = 3,682,331,136 + 167,772,160 +
     * 27,946,188,800 + 411,041,792 + 4,096 = 32,207,337,984 (IBM: "32B").
     * Active: 10 experts, 94,371,840: 40 x (294,912 + 94,371,840 +
     * 18,874,368 + 8,192) = 4,541,972,480 + 3,850,103,296 + 411,045,888 =
     * 8,803,121,664 (IBM: "9B").  State 8,192 x 128 + 3 x 8,448 =
     * 1,073,920. */
    gp_param_shape s;
    gp_param_count n;
    memset(&s, 0, sizeof s);
    s.layers = 40, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.ffn = 768;
    s.vocab = 100352, s.tied = 1, s.gated = 1;
    s.experts = 72, s.experts_active = 10, s.expert_ffn = 768;
    s.shared_experts = 1, s.shared_ffn = 1536;
    s.linear_layers = 36, s.linear_kind = GP_MIXER_MAMBA2, s.ssm_heads = 128;
    s.ssm_inner = 8192, s.ssm_groups = 1, s.ssm_state = 128, s.linear_conv = 4;
    s.ssm_conv_bias = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.linear_attn, 102286976.0, 0);
    GP_ASSERT_REL(n.total, 32207337984.0, 0);
    GP_ASSERT_REL(n.active, 8803121664.0, 0);
    GP_ASSERT_REL(n.linear_state, 1073920.0, 0);
    /* Jamba v0.1 (JambaConfig's defaults are its shape: hidden 4096, 32
     * layers, attention where i % 8 == 4 (4), experts where i % 2 == 1
     * (16 of 16 experts, 2 per token, width 14336), 32 heads, 8 KV;
     * Mamba-1 d_state 16, d_conv 4, expand 2, dt rank 256, conv bias;
     * vocabulary 65536, untied).  Mamba-1 (JambaMambaMixer): d_i = 8,192;
     * in_proj 4096 x 16,384 = 67,108,864 + conv 8,192 x 4 + 8,192 = 40,960
     * + x_proj 8,192 x (256 + 32) = 2,359,296 + dt_proj 256 x 8,192 +
     * 8,192 = 2,105,344 + A_log 8,192 x 16 = 131,072 + D 8,192 + out_proj
     * 33,554,432 + dt/B/C norms 256 + 32 = 288: 105,308,448.  FFN 3 x 4096
     * x 14336 = 176,160,768; MoE router 65,536 + 16 x 176,160,768.  Total
     * 28 x 105,308,448 + 4 x 41,943,040 + 16 x 176,160,768 + 16 x
     * 2,818,637,824 + 32 x 8,192 + 2 x 65536 x 4096 + 4,096 =
     * 2,948,636,544 + 167,772,160 + 2,818,572,288 + 45,098,205,184 +
     * 262,144 + 536,870,912 + 4,096 = 51,570,323,328 (AI21: "52B");
     * active with 2 experts, 16 x (65,536 + 352,321,536) = 5,638,193,152
     * for 45,098,205,184: 12,110,311,296 (AI21: "12B").  State d_i x 16 +
     * 3 x d_i = 155,648. */
    memset(&s, 0, sizeof s);
    s.layers = 32, s.hidden = 4096, s.heads = 32, s.kv_heads = 8, s.ffn = 14336;
    s.vocab = 65536, s.gated = 1, s.experts = 16, s.experts_active = 2, s.dense_layers = 16;
    s.linear_layers = 28, s.linear_kind = GP_MIXER_MAMBA1, s.ssm_inner = 8192;
    s.ssm_state = 16, s.ssm_dt_rank = 256, s.linear_conv = 4, s.ssm_conv_bias = 1;
    s.ssm_dt_norms = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.linear_attn, 105308448.0, 0);
    GP_ASSERT_REL(n.total, 51570323328.0, 0);
    GP_ASSERT_REL(n.active, 12110311296.0, 0);
    GP_ASSERT_REL(n.linear_state, 155648.0, 0);
    /* Projection biases: Mamba-2 + d_i + c + H + h = 8,192 + 8,448 + 128 +
     * 4096 = 20,864 per layer; Mamba-1 + 2 d_i + h = 20,480. */
    s.ssm_proj_bias = 1;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.linear_attn, 105308448.0 + 20480.0, 0);
}
END_TEST

START_TEST(count_refuses)
{
    static const struct {
        int what;
        const char *where;
    } bad[] = {{0, "split_blocks"}, {1, "ffn_blocks"}, {2, "ssm_inner"}, {3, "ssm_heads"},
               {4, "ssm_groups"},   {5, "linear_kind"}, {6, "ssm_inner"}, {7, "linear_state"},
               {8, "ssm_state"},    {9, "moe_blocks"},  {10, "expert_matrices"},
               {11, "moe_blocks"}};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_param_shape s = nemotron_h_8b();
        gp_param_count n;
        gp_err e;
        switch (bad[i].what) {
        case 0: s.experts = 8, s.experts_active = 2; break;    /* MoE blocks   */
        case 1: s.split_blocks = 0; break;                      /* blocks alone */
        case 2: s.ssm_groups = 0; break;                        /* a width gone */
        case 3: s.ssm_inner = 8200; break;                      /* 8200 / 128   */
        case 4: s.ssm_groups = 3; break;                        /* 128 / 3      */
        case 5: s.linear_kind = 7; break;
        case 6: s.linear_kind = GP_MIXER_MAMBA1; break;         /* no dt rank   */
        case 7: s.ssm_state = 2e5; break; /* 8192 x 2e5 > 1e9 elements */
        case 9: s.moe_blocks = 2; break;                        /* no experts   */
        case 10: s.expert_matrices = 4; break;                  /* 2, 3 or 0    */
        case 11: s.split_blocks = 0, s.ffn_blocks = 0, s.moe_blocks = 2, s.experts = 8,
                 s.experts_active = 2; break;                   /* blocks alone */
        default: s.ssm_state = 0.5; break;
        }
        gp_err_clear(&e);
        ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
        ck_assert_msg(strcmp(e.where, bad[i].where) == 0, "case %zu: where '%s' (%s)", i,
                      e.where, e.msg);
        ck_assert(n.total == 0.0);
    }
}
END_TEST

/* Plain (up, down) experts against gated ones: a 2-layer MoE of hidden
 * 64, 4 heads of 16 (MHA), vocab 100, 4 experts of width 32, 2 active,
 * the dense FFN gated.  Attention h H d + 2 h K d + H d h = 4,096 + 8,192
 * + 4,096 = 16,384; norms 2 x 64 = 128; router 64 x 4 = 256.
 *   plain  (expert_matrices 2): expert 2 x 64 x 32 = 4,096; MoE FFN 256 +
 *          4 x 4,096 = 16,640; layer 16,384 + 128 + 16,640 = 33,152; total
 *          2 x 33,152 + 2 x 6,400 (embedding, lm_head) + 64 = 79,168;
 *          active 2 x (16,384 + 128 + 256 + 2 x 4,096) + 12,800 + 64 =
 *          2 x 24,960 + 12,864 = 62,784.
 *   gated  (0, as the dense FFN): expert 3 x 64 x 32 = 6,144; layer 16,384
 *          + 128 + 256 + 24,576 = 41,344; total 82,688 + 12,864 = 95,552.
 * Nemotron 3's split blocks (moe_blocks): the same 2 layers as mixer
 * blocks (attention + one norm, 16,448) and 2 MoE blocks (16,640 + a norm
 * 64 = 16,704): 32,896 + 33,408 + 12,864 = 79,168 again (2 norms of 64
 * each way); active 32,896 + 2 x (8,448 + 64) + 12,864 = 62,784. */
START_TEST(count_plain_experts)
{
    gp_param_shape s;
    gp_param_count n;
    memset(&s, 0, sizeof s);
    s.layers = 2, s.hidden = 64, s.heads = 4, s.vocab = 100, s.gated = 1;
    s.experts = 4, s.experts_active = 2, s.expert_ffn = 32, s.expert_matrices = 2;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.expert, 4096.0, 0);
    GP_ASSERT_REL(n.moe_layer, 33152.0, 0);
    GP_ASSERT_REL(n.total, 79168.0, 0);
    GP_ASSERT_REL(n.active, 62784.0, 0);
    s.expert_matrices = 0;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.expert, 6144.0, 0);
    GP_ASSERT_REL(n.total, 95552.0, 0);
    s.expert_matrices = 2, s.split_blocks = 1, s.moe_blocks = 2;
    n = gp_test_count_params(&s);
    GP_ASSERT_REL(n.moe_block, 16704.0, 0);
    GP_ASSERT_REL(n.dense_layer, 16448.0, 0);
    GP_ASSERT_REL(n.total, 79168.0, 0);
    GP_ASSERT_REL(n.active, 62784.0, 0);
    /* train's matrices-only count of the same shape (dense FFN gated, k
     * 3): attention 2 x (2 x 64 x 64 + 2 x 64 x 64) = 32,768; experts
     * k_e x 64 x 32 x 4 x 2 layers; routers 2 x 64 x 4 = 512; embeddings
     * 2 x 6,400 = 12,800.  k_e 2: 32,768 + 32,768 + 512 + 12,800 =
     * 78,848 (active, 2 of 4: 16,384 -> 62,464); k_e 0 (the dense k, 3):
     * 49,152 -> 95,232. */
    {
        gp_train_shape t;
        memset(&t, 0, sizeof t);
        t.layers = 2, t.hidden = 64, t.heads = 4, t.kv_heads = 4, t.head_dim = 16;
        t.vocab = 100, t.ffn_hidden = 32, t.ffn_matrices = 3;
        t.experts = 4, t.experts_active = 2, t.expert_ffn_hidden = 32;
        t.expert_ffn_matrices = 2;
        GP_ASSERT_REL(gp_train_shape_params(&t, 0), 78848.0, 0);
        GP_ASSERT_REL(gp_train_shape_params(&t, 1), 62464.0, 0);
        t.expert_ffn_matrices = 0;
        GP_ASSERT_REL(gp_train_shape_params(&t, 0), 95232.0, 0);
    }
}
END_TEST

START_TEST(shipped_decode)
{
    /* hwdb/models/nemotron-h-8b.yaml on an H200 (4.8 TB/s), bf16, batch 1,
     * context 8192.  Weights: body 8,100,852,736 - 2 x 536,870,912 =
     * 7,027,110,912 x 2 B = 14,054,221,824 + lm_head 1,073,741,824 + one
     * embedding row 8,192 = 15,127,971,840 B.  KV per token: 4 attending
     * layers x 2 x 8 x 128 x 2 B = 16,384 B (28 priced as attention:
     * 114,688), x 8192 = 134,217,728 B.  State: 24 x 1,079,296 x 2 B =
     * 51,806,208 B a sequence, read and written 103,612,416 B.
     * Activations 28 x (10 x 4096 + 4 x 21504) x 2 = 7,110,656 B.  Step
     * 15,372,912,640 B; the ceiling without activations 15,365,801,984 B /
     * 4.8e12 = 3.2012 ms (312.4 tok/s).  FLOPs: matmuls 2 x (7,027,110,912
     * + 536,870,912) = 15,127,963,648 + attention 4 x 4 x 32 x 128 x 8192 =
     * 536,870,912 + recurrence 8 x 24 x 1,079,296 = 207,224,832:
     * 15,872,059,392. */
    const gp_db *db = gp_test_db();
    gp_infer_params p;
    gp_infer_result r;
    gp_model flat;
    const gp_model *m = gp_db_find_model(db, "nvidia/Nemotron-H-8B-Base-8K");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->id, "nemotron-h-8b");
    GP_ASSERT_REL(m->params.v, 8100852736.0, 0);
    GP_ASSERT_REL(gp_model_attn_layers(m), 4.0, 0);
    GP_ASSERT_REL(gp_model_state_elems(m), 24.0 * 1079296.0, 0);
    gp_infer_params_init(&p);
    p.gpu = gp_db_find_gpu(db, "h200");
    p.model = m;
    p.context = 8192;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.weight_bytes, 15127971840.0, 1e-15);
    GP_ASSERT_REL(r.kv_bytes_per_token, 16384.0, 0);
    GP_ASSERT_REL(r.kv_bytes, 134217728.0, 1e-15);
    GP_ASSERT_REL(r.state_bytes_per_seq, 51806208.0, 0);
    GP_ASSERT_REL(r.state_bytes, 103612416.0, 0);
    GP_ASSERT_REL(r.act_bytes, 7110656.0, 0);
    GP_ASSERT_REL(r.bytes_per_step, 15372912640.0, 1e-15);
    GP_ASSERT_REL(r.ceiling.step_s, 15365801984.0 / 4.8e12, 1e-14);
    GP_ASSERT_REL(r.attn_flop, 536870912.0, 1e-15);
    GP_ASSERT_REL(r.linear_flop, 207224832.0, 0);
    GP_ASSERT_REL(r.flop, 15872059392.0, 1e-15);
    /* At 131,072 (beyond the Base-8K's context, flagged): KV 131,072 x
     * 16,384 = 2,147,483,648 B against 28 x 4,096 x 131,072 =
     * 15,032,385,536 B priced as attention.  Memory fit: weights 2 x
     * 8,100,852,736 = 16,201,705,472 B; usable 150,754,820,096 - 1 GiB
     * runtime - weights = 133,479,372,800 B free; each sequence 2,147,483,648
     * + 51,806,208 = 2,199,289,856 B: floor(60.69) = 60 sequences (priced
     * as attention: floor(133,479,372,800 / 15,032,385,536 = 8.88) = 8). */
    p.context = 131072;
    r = gp_test_infer_eval(&p);
    ck_assert(r.context_exceeds);
    GP_ASSERT_REL(r.kv_bytes, 2147483648.0, 1e-15);
    GP_ASSERT_REL(r.max_batch, 60.0, 0);
    flat = *m;
    flat.linear_layers.v = 0;
    flat.linear_state.v = 0;
    p.model = &flat;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.kv_bytes, 15032385536.0, 1e-15);
    GP_ASSERT_REL(r.max_batch, 8.0, 0);
}
END_TEST

/* ---- config.json import -------------------------------------------------------------------- */

static double jget(const json_t *o, const char *a, const char *b)
{
    return gp_test_jnum(json_object_get(o, a), b);
}

/* Expect exit 2 and `msg` on stderr. */
static void refused(const char *dir, const char *file, const char *msg)
{
    json_t *o = NULL;
    char *err = NULL;
    int rc = gp_test_import_model(dir, file, "refused", &o, &err);
    ck_assert_msg(rc == 2, "%s: exit %d", file, rc);
    ck_assert_msg(err != NULL && strstr(err, msg) != NULL, "%s: %s", file, err ? err : "(null)");
    json_decref(o);
    free(err);
}

static const char *const NH = "tests/data/hf/nemotron-h-8b.json";

START_TEST(import_nemotron_h)
{
    char dir[256], *err = NULL, path[512], *yaml;
    json_t *o;
    const char *f;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* The 52-character pattern: 24 M, 4 *, 24 -: 28 layers, 24 of them
     * Mamba-2, 24 MLP blocks; the counts of count_nemotron_h. */
    ck_assert_int_eq(gp_test_import_model(dir, NH, "nh", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 8100852736.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "layers"), 28.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 21504.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 24.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "state"), 1079296.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "mixer_params"), 109635968.0, 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(o, "linear"), "kind")),
                     "mamba2");
    GP_ASSERT_REL(jget(o, "blocks", "blocks"), 52.0, 0);
    GP_ASSERT_REL(jget(o, "blocks", "ffn"), 24.0, 0);
    GP_ASSERT_REL(jget(o, "blocks", "ffn_block_params"), 176164864.0, 0);
    ck_assert(json_is_null(json_object_get(o, "moe")));
    /* One warning: the representation. */
    ck_assert_uint_eq(json_array_size(json_object_get(o, "warnings")), 1);
    ck_assert_ptr_nonnull(strstr(err, "Nemotron-H's 52 blocks (24 Mamba-2, 4 attention, 24 MLP) "
                                      "are entered as 28 layers, one per mixer block"));
    json_decref(o);
    free(err);
    /* The entry's note adds its figures up. */
    snprintf(path, sizeof path, "%s/models/nh.yaml", dir);
    yaml = gp_test_slurp(path);
    ck_assert_ptr_nonnull(yaml);
    ck_assert_msg(strstr(yaml, "total 4 x 41,947,136 + 24 x 109,640,064 + 24 x 176,164,864 + "
                               "embedding 536,870,912 + lm_head 536,870,912 + final norm 4,096 "
                               "= 8,100,852,736.") != NULL,
                  "%s", yaml);
    ck_assert_ptr_nonnull(strstr(yaml, "state d_i N + (K - 1) c = 1,079,296 elements"));
    /* What train reads: the 24 MLP blocks as ffn_layers of the 28, and one
     * Mamba-2 mixer's 109,635,968 parameters (the block less its norm). */
    ck_assert_ptr_nonnull(strstr(yaml, "\nffn_layers: 24\n"));
    ck_assert_ptr_nonnull(strstr(yaml, "  params: {value: 109635968, src: derived}\n"));
    free(yaml);
    /* The same blocks as a layers_block_type list, in transformers' newer
     * names (linear_attention, full_attention, mlp) and its older ones
     * (mamba, attention, mlp): the same entry. */
    {
        char lt[2048] = "{\"hybrid_override_pattern\": null, \"layers_block_type\": [", lt2[2048];
        const char *p = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-";
        size_t i;
        strcpy(lt2, lt);
        for (i = 0; p[i]; i++) {
            strcat(lt, p[i] == 'M' ? "\"linear_attention\"," : p[i] == '*' ? "\"full_attention\","
                                                                            : "\"mlp\",");
            strcat(lt2, p[i] == 'M' ? "\"mamba\"," : p[i] == '*' ? "\"attention\"," : "\"mlp\",");
        }
        lt[strlen(lt) - 1] = '\0';
        lt2[strlen(lt2) - 1] = '\0';
        strcat(lt, "]}");
        strcat(lt2, "]}");
        f = gp_test_json_edit(dir, "list", NH, lt);
        ck_assert_int_eq(gp_test_import_model(dir, f, "nh-list", &o, NULL), 0);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 8100852736.0, 0);
        GP_ASSERT_REL(jget(o, "linear", "layers"), 24.0, 0);
        json_decref(o);
        f = gp_test_json_edit(dir, "list2", NH, lt2);
        ck_assert_int_eq(gp_test_import_model(dir, f, "nh-list2", &o, NULL), 0);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 8100852736.0, 0);
        json_decref(o);
    }
    /* A config saved by transformers v5 carries NemotronHConfig's MoE
     * defaults without any MoE block: not read. */
    f = gp_test_json_edit(dir, "moedefaults", NH,
                  "{\"n_routed_experts\": 8, \"num_experts_per_tok\": 2, "
                  "\"moe_intermediate_size\": 7688}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "nh-moedef", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 8100852736.0, 0);
    ck_assert(json_is_null(json_object_get(o, "moe")));
    json_decref(o);
    /* Mamba widths absent: NemotronHConfig's defaults (128 heads of 64, 8
     * groups, state 128, kernel 4, conv bias) are the 8B's, warned. */
    f = gp_test_json_edit(dir, "defaults", NH,
                  "{\"mamba_num_heads\": null, \"mamba_head_dim\": null, \"n_groups\": null, "
                  "\"ssm_state_size\": null, \"conv_kernel\": null, \"use_conv_bias\": null}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "nh-def", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 8100852736.0, 0);
    ck_assert_msg(strstr(err, "no mamba_num_heads 128, mamba_head_dim 64, n_groups 8, "
                              "ssm_state_size 128, conv_kernel 4, use_conv_bias true: "
                              "transformers' NemotronHConfig defaults taken") != NULL,
                  "%s", err);
    json_decref(o);
    free(err);
    /* A pattern of another length than num_hidden_layers: the pattern's
     * count, warned; an fp32 SSM cache priced: the temporal state d_i N =
     * 8192 x 128 = 1,048,576 elements at 4 bytes + the convolution's 3 x
     * 10,240 = 30,720 at 2: linear.state_bytes 4,194,304 + 61,440 =
     * 4,255,744 a layer. */
    f = gp_test_json_edit(dir, "len", NH,
                  "{\"num_hidden_layers\": 50, \"mamba_ssm_cache_dtype\": \"float32\"}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "nh-len", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "layers"), 28.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "hybrid_override_pattern lists 52 blocks, "
                                      "num_hidden_layers 50: the list's count is used"));
    GP_ASSERT_REL(jget(o, "linear", "state_bytes"), 4255744.0, 0);
    json_decref(o);
    free(err);
    /* Without MLP blocks ("M*M*M*M*", 4 + 4): no FFN counted; 8 x 4,096
     * norms = 32,768 + 4 x 109,635,968 = 438,543,872 + 4 x 41,943,040 =
     * 167,772,160 + 1,073,741,824 + 4,096 = 1,680,094,720. */
    f = gp_test_json_edit(dir, "nomlp", NH, "{\"hybrid_override_pattern\": \"M*M*M*M*\"}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "nh-nomlp", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 1680094720.0, 0);
    GP_ASSERT_REL(jget(o, "blocks", "ffn"), 0.0, 0);
    json_decref(o);
    /* Refused. */
    refused(dir, gp_test_json_edit(dir, "moe", NH, "{\"hybrid_override_pattern\": \"MEEE*E-\"}"),
            "key 'hybrid_override_pattern': 4 MoE blocks but 2 mixer blocks (Mamba-2 or "
            "attention)");
    refused(dir, gp_test_json_edit(dir, "latent", NH, "{\"hybrid_override_pattern\": \"MEM*EM-\", "
                                              "\"moe_latent_size\": 1024}"),
            "key 'moe_latent_size': latent MoE");
    refused(dir, gp_test_json_edit(dir, "char", NH, "{\"hybrid_override_pattern\": \"M-M*X-\"}"),
            "key 'hybrid_override_pattern': 'X' (block 4) is not a Nemotron-H block kind");
    refused(dir, gp_test_json_edit(dir, "nokinds", NH, "{\"hybrid_override_pattern\": null}"),
            "model_type nemotron_h without 'hybrid_override_pattern' or 'layers_block_type'");
    refused(dir, gp_test_json_edit(dir, "notstr", NH, "{\"hybrid_override_pattern\": 52}"),
            "key 'hybrid_override_pattern': expected a string of block kinds");
    refused(dir, gp_test_json_edit(dir, "allm", NH, "{\"hybrid_override_pattern\": \"M-M-M-\"}"),
            "key 'hybrid_override_pattern': every one of the 3 mixer layers is Mamba");
    /* No mixer block at all (MLP blocks only, or an empty pattern): not
     * "every one of the 0 mixer layers is Mamba", which is not what the
     * pattern says. */
    refused(dir, gp_test_json_edit(dir, "mlponly", NH, "{\"hybrid_override_pattern\": \"----\"}"),
            "key 'hybrid_override_pattern': no mixer block (Mamba-2 or attention) among its 4 "
            "blocks: gpuplan prices models with at least one attention layer");
    refused(dir, gp_test_json_edit(dir, "empty", NH, "{\"hybrid_override_pattern\": \"\"}"),
            "key 'hybrid_override_pattern': no mixer block (Mamba-2 or attention) among its 0 "
            "blocks");
    refused(dir, gp_test_json_edit(dir, "item", NH,
                           "{\"hybrid_override_pattern\": null, \"layers_block_type\": "
                           "[\"mamba\", \"attention\", \"sliding\"]}"),
            "key 'layers_block_type': item 2 ('sliding') is not a Nemotron-H block kind");
    refused(dir, gp_test_json_edit(dir, "groups", NH, "{\"n_groups\": 3}"),
            "key 'n_groups': 3 groups do not divide the 128 Mamba-2 heads (mamba_num_heads)");
    /* Each width within the database's 1e9 but their product, the inner
     * width d_i = 128 x 1,000,000,000 = 1.28e11, above it: named by its
     * keys and values (not the count's bare "must be a whole number"). */
    refused(dir, gp_test_json_edit(dir, "wide", NH, "{\"mamba_head_dim\": 1000000000}"),
            "key 'mamba_head_dim': mamba_num_heads 128 x mamba_head_dim 1000000000 = 1.28e+11, "
            "the Mamba-2 inner width, is above the database's 1e9");
    gp_test_rmtree(dir);
}
END_TEST

/* Granite-4.0-H-Small's quoted config fields (count_granite_jamba), its
 * 36 Mamba and 4 attention layers as layer_types (which four attend does
 * not change a count). */
static const char *granite(const char *dir, const char *name, const char *edit)
{
    char text[4096] =
        "{\"model_type\": \"granitemoehybrid\", \"hidden_size\": 4096, \"num_hidden_layers\": 40, "
        "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"num_local_experts\": 72, "
        "\"num_experts_per_tok\": 10, \"shared_intermediate_size\": 1536, "
        "\"intermediate_size\": 768, \"mamba_d_state\": 128, \"mamba_d_conv\": 4, "
        "\"mamba_expand\": 2, \"tie_word_embeddings\": true, \"vocab_size\": 100352, "
        "\"max_position_embeddings\": 131072, \"hidden_act\": \"silu\", \"layer_types\": [";
    static char path[512];
    json_error_t jerr;
    json_t *c, *d, *v;
    const char *k;
    void *tmp;
    int i;
    for (i = 0; i < 40; i++)
        strcat(text, i % 10 == 9 ? "\"attention\"," : "\"mamba\",");
    text[strlen(text) - 1] = '\0';
    strcat(text, "]}");
    c = json_loads(text, 0, &jerr);
    d = json_loads(edit, 0, &jerr);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(d);
    json_object_foreach_safe(d, tmp, k, v)
    {
        if (json_is_null(v))
            json_object_del(c, k);
        else
            json_object_set(c, k, v);
    }
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    ck_assert_int_eq(json_dump_file(c, path, 0), 0);
    json_decref(c);
    json_decref(d);
    return path;
}

/* Nemotron-3-Nano-30B-A3B (tests/data/hf/nemotron-3-nano-30b-a3b.json,
 * nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16's config.json): 52 blocks,
 * 23 M, 6 *, 23 E; h 2688, vocab 131,072 untied.
 *   attention block: q 2688 x 4096 = 11,010,048, k and v 2 x 2688 x 256 =
 *     1,376,256, o 11,010,048: 23,396,352 + norm 2,688 = 23,399,040;
 *   Mamba-2 block (64 heads of 64: d_i 4096, 8 groups, state 128, c =
 *     4096 + 2 x 8 x 128 = 6144): in_proj 2688 x (4096 + 6144 + 64) =
 *     27,697,152, conv 6144 x 4 + bias 6144 = 30,720, 3 x 64 = 192, norm
 *     4,096, out_proj 4096 x 2688 = 11,010,048: 38,742,208 + 2,688 =
 *     38,744,896;
 *   MoE block: router 2688 x 128 + 128 (e_score_correction_bias) =
 *     344,192; 128 plain experts of 2 x 2688 x 1856 = 9,977,856 =
 *     1,277,165,568; shared 2 x 2688 x 3712 = 19,955,712; norm 2,688:
 *     1,297,468,160;
 *   total 6 x 23,399,040 = 140,394,240 + 23 x 38,744,896 = 891,132,608 +
 *     23 x 1,297,468,160 = 29,841,767,680 + 2 x 352,321,536 + 2,688 =
 *     31,577,940,288 (NVIDIA's 31.6B: -0.07 %);
 *   active: a MoE block 344,192 + 6 x 9,977,856 + 19,955,712 + 2,688 =
 *     80,169,728, x 23 = 1,843,903,744; 140,394,240 + 891,132,608 +
 *     1,843,903,744 + 704,643,072 + 2,688 = 3,580,076,352 (~3.6B), less
 *     the input embedding 3,227,754,816 (the 3.2B quoted without it).
 * Gated routed experts (k_f = 3) would add 23 x 128 x 2688 x 1856 =
 * 14,687,404,032: 46.27B, 46.5 % over.
 * The entry: 29 layers, 23 MoE (moe.dense_layers 6), moe.shared 3712 /
 * 1856 = 2, expert_ffn_kind plain.  Decode on an H200 at batch 1, bf16:
 * body read = 31,577,940,288 - 704,643,072 (both embeddings) -
 * 23 x (128 - 6) x 9,977,856 (the untouched experts, 27,997,863,936) =
 * 2,875,433,280 parameters, of which the 6 touched experts a layer,
 * 23 x 6 x 2 x 2688 x 1856 = 1,376,944,128 (2 matrices each), the rest
 * 1,498,489,152; weight bytes 2 x 2,875,433,280 + lm_head 704,643,072 +
 * the input embedding row 2 x 2688 = 6,455,515,008. */
START_TEST(import_nemotron_3)
{
    char dir[256], *err = NULL, *out = NULL, path[512], *yaml;
    json_t *o;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(
        gp_test_import_model(dir, "tests/data/hf/nemotron-3-nano-30b-a3b.json", "n3", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 31577940288.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 3580076352.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "layers"), 29.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "experts"), 128.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "dense_layers"), 6.0, 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(o, "moe"),
                                                       "expert_ffn_kind")),
                     "plain");
    GP_ASSERT_REL(jget(o, "blocks", "moe"), 23.0, 0);
    GP_ASSERT_REL(jget(o, "blocks", "moe_block_params"), 1297468160.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "state_bytes"), 2134016.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "(23 Mamba-2, 6 attention, 0 MLP, 23 MoE) are entered as "
                                      "29 layers"));
    json_decref(o);
    free(err);
    snprintf(path, sizeof path, "%s/models/n3.yaml", dir);
    yaml = gp_test_slurp(path);
    ck_assert_ptr_nonnull(yaml);
    ck_assert_ptr_nonnull(strstr(yaml, "  shared: 2\n  expert_ffn_hidden: 1856\n"
                                       "  dense_layers: 6\n  expert_ffn_kind: plain\n"));
    ck_assert_msg(strstr(yaml, "total 6 x 23,399,040 + 23 x 38,744,896 + 23 x 1,297,468,160 + "
                               "embedding 352,321,536 + lm_head 352,321,536 + final norm 2,688 "
                               "= 31,577,940,288.") != NULL,
                  "%s", yaml);
    free(yaml);
    {
        const char *argv[] = {"--db", dir, "--json", "decode", "--gpu", "h200", "--model", "n3",
                              "--batch", "1", "--context", "1024", NULL};
        ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
        o = json_loads(out, 0, NULL);
        ck_assert_ptr_nonnull(o);
        GP_ASSERT_REL(gp_test_jnum(o, "experts_touched"), 6.0, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(o, "moe_layers"), 23.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "body_params"), 2875433280.0, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(o, "body_dense_params"), 1498489152.0, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(o, "weight_bytes"), 6455515008.0, 1e-12);
        json_decref(o);
        free(out);
    }
    /* The shipped entry (hwdb/models/nemotron-3-nano-30b-a3b.yaml) holds
     * the import's figures, its note's arithmetic above: the same decode. */
    {
        const gp_model *m =
            gp_db_find_model(gp_test_db(), "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
        const char *argv[] = {"--json", "decode", "--gpu", "h200", "--model", "nemotron-3-nano",
                              "--batch", "1", "--context", "1024", NULL};
        ck_assert_ptr_nonnull(m);
        ck_assert_str_eq(m->id, "nemotron-3-nano-30b-a3b");
        GP_ASSERT_REL(m->params.v, 31577940288.0, 0);
        GP_ASSERT_REL(m->params_active.v, 3580076352.0, 0);
        GP_ASSERT_REL(m->linear_layers.v, 23.0, 0);
        GP_ASSERT_REL(m->linear_state.v, 542720.0, 0);
        GP_ASSERT_REL(m->linear_params.v, 38742208.0, 0);
        GP_ASSERT_REL(m->dense_layers.v, 6.0, 0);
        ck_assert_str_eq(m->expert_ffn_kind, "plain");
        o = gp_test_cli_json(argv);
        GP_ASSERT_REL(gp_test_jnum(o, "body_params"), 2875433280.0, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(o, "weight_bytes"), 6455515008.0, 1e-12);
        /* Its config's float32 SSM cache: 524,288 x 4 + 18,432 x 2 =
         * 2,134,016 B a layer (linear.state_bytes), x 23 = 49,082,368 B a
         * sequence (24,965,120 at 16 bits). */
        GP_ASSERT_REL(m->linear_state_bytes.v, 2134016.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "state_bytes_per_seq"), 49082368.0, 0);
        json_decref(o);
    }
    {
        /* An overlay that gives another state without its bytes drops the
         * entry's (they described the old state): 23 x 1,000,000 x 2 =
         * 46,000,000 B a sequence. */
        char odir[256], mdir[300], f[340];
        FILE *fp;
        const char *argv[] = {"--db", odir, "--json", "decode", "--gpu", "h200", "--model",
                              "nemotron-3-nano", NULL};
        ck_assert_int_eq(gp_test_tmpdir(odir, sizeof odir), 0);
        snprintf(mdir, sizeof mdir, "%s/models", odir);
        ck_assert_int_eq(mkdir(mdir, 0700), 0);
        snprintf(f, sizeof f, "%s/s.yaml", mdir);
        fp = fopen(f, "w");
        ck_assert_ptr_nonnull(fp);
        fputs("id: nemotron-3-nano-30b-a3b\nsrc: derived\nlinear:\n  state: 1000000\n", fp);
        ck_assert_int_eq(fclose(fp), 0);
        ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
        o = json_loads(out, 0, NULL);
        ck_assert_ptr_nonnull(o);
        GP_ASSERT_REL(gp_test_jnum(o, "state_bytes_per_seq"), 46000000.0, 0);
        json_decref(o);
        free(out);
        gp_test_rmtree(odir);
    }
    {
        /* Another state on the command line is priced at 16 bits: 23 x
         * 1000 x 2 = 46,000 B. */
        const char *argv[] = {"--json", "decode", "--gpu", "h200", "--model", "nemotron-3-nano",
                              "--linear-state", "1000", NULL};
        o = gp_test_cli_json(argv);
        GP_ASSERT_REL(gp_test_jnum(o, "state_bytes_per_seq"), 46000.0, 0);
        json_decref(o);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(import_granite)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* The totals of count_granite_jamba; moe.shared = 1536 / 768 = 2
     * experts of the routed width; the Mamba head and group counts taken
     * from GraniteMoeHybridConfig's defaults, warned. */
    ck_assert_int_eq(gp_test_import_model(dir, granite(dir, "small", "{}"), "gs", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 32207337984.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 8803121664.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "layers"), 40.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 36.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "state"), 1073920.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "experts"), 72.0, 0);
    ck_assert(json_is_null(json_object_get(o, "blocks")));
    ck_assert_msg(strstr(err, "no mamba_n_heads 128, mamba_n_groups 1, mamba_conv_bias true, "
                              "mamba_proj_bias false: transformers' GraniteMoeHybridConfig "
                              "defaults taken") != NULL,
                  "%s", err);
    json_decref(o);
    free(err);
    {
        char path[512], *yaml;
        snprintf(path, sizeof path, "%s/models/gs.yaml", dir);
        yaml = gp_test_slurp(path);
        ck_assert_ptr_nonnull(yaml);
        ck_assert_ptr_nonnull(strstr(yaml, "  shared: 2\n"));
        free(yaml);
    }
    /* Dense (num_local_experts 0, as Granite-4.0-H-Micro): the FFN is the
     * shared_mlp, 3 x 4096 x 1536 = 18,874,368 a layer, intermediate_size
     * unread.  Total 36 x 102,286,976 + 4 x 41,943,040 + 40 x (18,874,368
     * + 8,192) + 411,041,792 + 4,096 = 3,682,331,136 + 167,772,160 +
     * 755,302,400 + 411,045,888 = 5,016,451,584. */
    f = granite(dir, "dense", "{\"num_local_experts\": 0}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "gd", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 5016451584.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 1536.0, 0);
    ck_assert(json_is_null(json_object_get(o, "moe")));
    json_decref(o);
    /* shared_intermediate_size absent: GraniteMoeHybridConfig's default,
     * 1024 (its shared_mlp is built in every layer whatever the experts),
     * warned.  Dense: the FFN 3 x 4096 x 1024 = 12,582,912 a layer; total
     * 36 x 102,286,976 + 4 x 41,943,040 + 40 x (12,582,912 + 8,192) +
     * 411,041,792 + 4,096 = 3,682,331,136 + 167,772,160 + 503,644,160 +
     * 411,045,888 = 4,764,793,344 (it was refused: "dense layers need the
     * FFN width", naming no key).  With the 72 experts: the shared expert
     * 12,582,912 for 18,874,368, 40 x 6,291,456 = 251,658,240 less than
     * the 1536-wide one: 31,955,679,744, active 8,551,463,424 (it was
     * counted without a shared expert). */
    ck_assert_int_eq(gp_test_import_model(dir,
                            granite(dir, "dense-noshared",
                                    "{\"num_local_experts\": 0, \"shared_intermediate_size\": null}"),
                            "gdn", &o, &err),
                     0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 4764793344.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 1024.0, 0);
    ck_assert_msg(strstr(err, "no shared_intermediate_size 1024: transformers' "
                              "GraniteMoeHybridConfig defaults taken") != NULL,
                  "%s", err);
    json_decref(o);
    free(err);
    f = granite(dir, "noshared", "{\"shared_intermediate_size\": null}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "gns", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 31955679744.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 8551463424.0, 0);
    json_decref(o);
    /* Given as 0 without experts: no FFN at all, refused at the key. */
    refused(dir,
            granite(dir, "dense-shared0",
                    "{\"num_local_experts\": 0, \"shared_intermediate_size\": 0}"),
            "key 'shared_intermediate_size': 0 with no experts (num_local_experts 0) leaves the "
            "layers without an FFN");
    /* mamba_d_head given and consistent (64 x 128 = 8192): the same. */
    f = granite(dir, "dhead", "{\"mamba_d_head\": 64}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "gh", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 32207337984.0, 0);
    json_decref(o);
    refused(dir, granite(dir, "dhead2", "{\"mamba_d_head\": 48}"),
            "key 'mamba_d_head': 48 x mamba_n_heads 128 is not mamba_expand x hidden_size = 8192");
    refused(dir, granite(dir, "nheads", "{\"mamba_n_heads\": 96}"),
            "key 'mamba_n_heads': 96 does not divide mamba_expand x hidden_size = 8192");
    refused(dir, granite(dir, "kind", "{\"layer_types\": [\"mamba\", \"mlp\"]}"),
            "key 'layer_types': item 1 ('mlp') is not a layer kind of granitemoehybrid");
    refused(dir, granite(dir, "short", "{\"layer_types\": [\"mamba\", \"attention\"]}"),
            "key 'layer_types': 2 layer kinds for num_hidden_layers 40");
    /* No layer_types: every layer Mamba (GraniteMoeHybridConfig). */
    refused(dir, granite(dir, "none", "{\"layer_types\": null}"),
            "key 'layer_types': every one of the 40 mixer layers is Mamba");
    /* d_i = mamba_expand x hidden = 1,000,000 x 4096 = 4.096e9 > 1e9. */
    refused(dir, granite(dir, "wide", "{\"mamba_expand\": 1000000}"),
            "key 'mamba_expand': mamba_expand 1000000 x hidden_size 4096 = 4.096e+09, the "
            "Mamba-2 inner width, is above the database's 1e9");
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(import_jamba)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    /* Jamba v0.1's keys (JambaConfig's defaults spelled out, dt rank
     * "auto" = ceil(4096 / 16) = 256). */
    static const char jamba[] =
        "{\"model_type\": \"jamba\", \"hidden_size\": 4096, \"intermediate_size\": 14336, "
        "\"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8, "
        "\"attn_layer_offset\": 4, \"attn_layer_period\": 8, \"expert_layer_offset\": 1, "
        "\"expert_layer_period\": 2, \"mamba_d_conv\": 4, \"mamba_d_state\": 16, "
        "\"mamba_expand\": 2, \"mamba_dt_rank\": \"auto\", \"mamba_conv_bias\": true, "
        "\"mamba_proj_bias\": false, \"num_experts\": 16, \"num_experts_per_tok\": 2, "
        "\"vocab_size\": 65536, \"max_position_embeddings\": 262144, "
        "\"tie_word_embeddings\": false}";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* 32 layers, attention on i % 8 == 4: 4, 12, 20, 28; 28 Mamba-1;
     * experts on i % 2 == 1: 16 MoE, 16 dense (interleaved: warned). */
    f = gp_test_json_edit(dir, "jamba", NULL, jamba);
    ck_assert_int_eq(gp_test_import_model(dir, f, "jb", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 51570323328.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 12110311296.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 28.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "state"), 155648.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "mixer_params"), 105308448.0, 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(o, "linear"), "kind")),
                     "mamba1");
    GP_ASSERT_REL(jget(o, "moe", "dense_layers"), 16.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "15 of the 16 dense layers are not the leading ones"));
    json_decref(o);
    free(err);
    /* The periods absent: JambaConfig's (8, 4; 2, 1), the same counts. */
    f = gp_test_json_edit(dir, "jamba-def", f,
                  "{\"attn_layer_offset\": null, \"attn_layer_period\": null, "
                  "\"expert_layer_offset\": null, \"expert_layer_period\": null}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "jb-def", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 51570323328.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "no attn_layer_period 8, attn_layer_offset 4: "
                                      "transformers' JambaConfig defaults taken"));
    json_decref(o);
    free(err);
    /* One expert: JambaConfig's dense MLP everywhere, 16 x (2,818,637,824
     * - 176,160,768 = 2,642,477,056) = 42,279,632,896 less: 51,570,323,328
     * - 42,279,632,896 = 9,290,690,432. */
    f = gp_test_json_edit(dir, "jamba-dense", f, "{\"num_experts\": 1}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "jb-dense", &o, NULL), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 9290690432.0, 0);
    ck_assert(json_is_null(json_object_get(o, "moe")));
    json_decref(o);
    refused(dir, gp_test_json_edit(dir, "jamba-off", f, "{\"attn_layer_offset\": 8}"),
            "key 'attn_layer_offset': 8 is not below attn_layer_period 8");
    f = gp_test_json_edit(dir, "jamba-base", NULL, jamba);
    refused(dir, gp_test_json_edit(dir, "jamba-wide", f, "{\"mamba_expand\": 1000000}"),
            "key 'mamba_expand': mamba_expand 1000000 x hidden_size 4096 = 4.096e+09, the "
            "Mamba-1 inner width, is above the database's 1e9");
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(import_falcon_h1)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* Falcon-H1 runs attention and Mamba-2 side by side in every layer:
     * warned, every layer priced as attention alone. */
    f = gp_test_json_edit(dir, "fh1", NULL,
                  "{\"model_type\": \"falcon_h1\", \"hidden_size\": 2048, "
                  "\"num_hidden_layers\": 24, \"num_attention_heads\": 8, "
                  "\"num_key_value_heads\": 2, \"head_dim\": 128, \"intermediate_size\": 4608, "
                  "\"vocab_size\": 65537, \"mamba_d_ssm\": 3072, \"mamba_n_heads\": 48, "
                  "\"tie_word_embeddings\": false, \"hidden_act\": \"silu\"}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "fh1", &o, &err), 0);
    ck_assert(json_is_null(json_object_get(o, "linear")));
    ck_assert_msg(strstr(err, "falcon_h1 runs attention and a Mamba-2 mixer side by side in "
                              "every layer") != NULL,
                  "%s", err);
    json_decref(o);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_mamba(void)
{
    Suite *s = suite_create("mamba");
    TCase *tc = tcase_create("count");
    tcase_add_test(tc, count_nemotron_h);
    tcase_add_test(tc, count_granite_jamba);
    tcase_add_test(tc, count_refuses);
    tcase_add_test(tc, count_plain_experts);
    tcase_add_test(tc, shipped_decode);
    suite_add_tcase(s, tc);
    tc = tcase_create("import");
    tcase_add_test(tc, import_nemotron_h);
    tcase_add_test(tc, import_nemotron_3);
    tcase_add_test(tc, import_granite);
    tcase_add_test(tc, import_jamba);
    tcase_add_test(tc, import_falcon_h1);
    suite_add_tcase(s, tc);
    return s;
}
