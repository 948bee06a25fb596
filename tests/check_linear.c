/* Linear-attention (Gated DeltaNet, SSM) layers: no KV cache on them, a
 * constant recurrent state per sequence, what the decode planner, the
 * parameter count, the config.json import and the CLI make of them
 * (docs/models/inference.md §1.2, docs/hwdb.md "linear.layers").  Every
 * expected number is derived by hand in the comment above its assert. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* Qwen3-Next-80B-A3B's layout (HF config: 48 layers, every fourth of them
 * attends, 16 heads, 2 KV heads of 256; the 36 Gated DeltaNet layers each
 * hold 548,864 state elements), as a bare gp_model. */
static gp_model hybrid(void)
{
    gp_model m;
    memset(&m, 0, sizeof m);
    m.id = "hybrid";
    m.params.v = 79674391296.0;
    m.layers.v = 48;
    m.hidden.v = 2048;
    m.heads.v = 16;
    m.kv_heads.v = 2;
    m.head_dim.v = 256;
    m.ffn_hidden.v = 512;
    m.vocab.v = 151936;
    m.context.v = 262144;
    m.linear_layers.v = 36;
    m.linear_state.v = 548864;
    return m;
}

START_TEST(attending_layers_and_state)
{
    gp_model m = hybrid(), none = hybrid(), bad = hybrid();
    none.linear_layers.v = 0;
    none.linear_state.v = 0;
    /* 48 - 36 = 12 layers attend; 36 x 548,864 = 19,759,104 state
     * elements per sequence. */
    GP_ASSERT_REL(gp_model_attn_layers(&m), 12.0, 0);
    GP_ASSERT_REL(gp_model_state_elems(&m), 19759104.0, 0);
    GP_ASSERT_REL(gp_model_attn_layers(&none), 48.0, 0);
    ck_assert(gp_model_state_elems(&none) == 0.0);
    /* Not below the layers (the loader refuses it): read as none. */
    bad.linear_layers.v = 48;
    GP_ASSERT_REL(gp_model_attn_layers(&bad), 48.0, 0);
    ck_assert(gp_model_state_elems(&bad) == 0.0);
    /* KV per token: 12 x 2 x 2 x 256 x 2 B = 24,576 B (48 layers: 98,304);
     * the state: 19,759,104 x 2 B = 39,518,208 B. */
    GP_ASSERT_REL(gp_infer_kv_bytes_per_token(&m, 16.0), 24576.0, 0);
    GP_ASSERT_REL(gp_infer_kv_bytes_per_token(&none, 16.0), 98304.0, 0);
    GP_ASSERT_REL(gp_infer_state_bytes_per_seq(&m), 39518208.0, 0);
    /* No window: the attending layers cache the whole context. */
    GP_ASSERT_REL(gp_model_kv_positions(&m, 131072), 131072.0, 0);
    GP_ASSERT_REL(gp_model_kv_context(&m, 131072), 131072.0, 0);
    GP_ASSERT_REL(gp_model_attn_pairs(&m, 100), 5000.0, 0);
}
END_TEST

START_TEST(window_on_the_attending_layers)
{
    gp_model m = hybrid();
    /* A window of 4096 on 6 of the 12 attending layers, C = 8192: (6 x
     * 8192 + 6 x 4096) / 12 = 6144 (the 36 linear layers count for
     * nothing); the inverse (12 x 6144 - 6 x 4096) / 6 = 8192.  Pairs at
     * P = 8192: global 8192^2 / 2 = 33,554,432, local 4096^2 / 2 + 4096 x
     * 4096 = 25,165,824: (6 x 33,554,432 + 6 x 25,165,824) / 12 =
     * 29,360,128. */
    m.window.v = 4096;
    m.window_layers.v = 6;
    GP_ASSERT_REL(gp_model_kv_positions(&m, 8192), 6144.0, 0);
    GP_ASSERT_REL(gp_model_kv_context(&m, 6144), 8192.0, 0);
    GP_ASSERT_REL(gp_model_attn_pairs(&m, 8192), 29360128.0, 0);
    /* Every attending layer local: the cache stops at 4096 positions and
     * any context fits the positions from 4096 on. */
    m.window_layers.v = 12;
    GP_ASSERT_REL(gp_model_kv_positions(&m, 32768), 4096.0, 0);
    ck_assert(isinf(gp_model_kv_context(&m, 4096)));
}
END_TEST

/* Qwen3-Next's shape for gp_model_count_params. */
static gp_param_shape qwen3_next_shape(void)
{
    gp_param_shape s;
    memset(&s, 0, sizeof s);
    s.layers = 48, s.hidden = 2048, s.heads = 16, s.kv_heads = 2, s.head_dim = 256;
    s.ffn = 5120, s.vocab = 151936, s.gated = 1, s.qk_norm = 1, s.attn_gate = 1;
    s.experts = 512, s.experts_active = 10, s.expert_ffn = 512;
    s.shared_experts = 1, s.shared_ffn = 512, s.shared_gate = 1;
    s.linear_layers = 36, s.linear_key_heads = 16, s.linear_value_heads = 32;
    s.linear_key_dim = 128, s.linear_value_dim = 128, s.linear_conv = 4;
    return s;
}

START_TEST(count_qwen3_next)
{
    /* Gated attention: q and its gate 2048 x 2 x 16 x 256 = 16,777,216, k
     * and v 2 x 2048 x 512 = 2,097,152, o 4096 x 2048 = 8,388,608, q/k
     * norms 2 x 256: 27,263,488.  Gated DeltaNet (transformers'
     * Qwen3NextGatedDeltaNet): in_proj_qkvz 2048 x (2 x 16 x 128 + 2 x 32
     * x 128) = 25,165,824, in_proj_ba 2048 x 64 = 131,072, conv1d (2 x 16 x
     * 128 + 32 x 128) x 4 = 32,768, A_log and dt_bias 64, norm 128,
     * out_proj 4096 x 2048 = 8,388,608: 33,718,464.  MoE: router 2048 x
     * 512 = 1,048,576, experts 512 x 3,145,728 = 1,610,612,736, shared
     * 3,145,728 + 2048 (gate) = 3,147,776: 1,614,809,088; norms 4,096.
     * Total 12 x 27,263,488 = 327,161,856 + 36 x 33,718,464 =
     * 1,213,864,704 + 48 x 1,614,813,184 = 77,511,032,832 + 2 x 151936 x
     * 2048 = 622,329,856 + 2048 = 79,674,391,296: the card's 80B within
     * 0.41 %, its 79B non-embedding (79,052,061,440) within 0.07 %.
     * Active: 48 x (1,048,576 + 10 x 3,145,728 + 3,147,776 + 4,096 =
     * 35,657,728) = 1,711,570,944 + 1,541,026,560 + 622,329,856 + 2048 =
     * 3,874,929,408 (3,252,599,552 without the embeddings: the card's
     * 3B). */
    gp_param_shape s = qwen3_next_shape();
    gp_param_count n;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_OK);
    GP_ASSERT_REL(n.attn, 27263488.0, 0);
    GP_ASSERT_REL(n.linear_attn, 33718464.0, 0);
    GP_ASSERT_REL(n.moe_ffn, 1614809088.0, 0);
    GP_ASSERT_REL(n.total, 79674391296.0, 0);
    GP_ASSERT_REL(n.active, 3874929408.0, 0);
    GP_ASSERT_REL(n.total, 80e9, 0.005);
    GP_ASSERT_REL(n.total - n.embed - n.lm_head, 79e9, 0.001);
    /* Refusals: no layer left attending; widths missing. */
    s.linear_layers = 48;
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "linear_layers");
    s = qwen3_next_shape();
    s.linear_conv = 0;
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "linear_key_heads");
    s.linear_conv = 4.5;
    ck_assert_int_eq(gp_model_count_params(&s, &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "linear_conv");
}
END_TEST

START_TEST(shipped_entry)
{
    const gp_model *m = gp_db_find_model(gp_test_db(), "Qwen/Qwen3-Next-80B-A3B-Instruct");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->id, "qwen3-next-80b-a3b");
    GP_ASSERT_REL(m->linear_layers.v, 36.0, 0);
    GP_ASSERT_REL(m->linear_state.v, 548864.0, 0);
    /* One Gated DeltaNet mixer, the note's 33,718,464 (train's price for
     * its projections). */
    GP_ASSERT_REL(m->linear_params.v, 33718464.0, 0);
    ck_assert_int_eq(m->attention_gate, 1);
    ck_assert_ptr_nonnull(m->linear_layers.src);
    ck_assert_ptr_nonnull(m->linear_state.src);
    /* As the bare model above: 24,576 KV bytes per token, 39,518,208
     * state bytes per sequence. */
    GP_ASSERT_REL(gp_infer_kv_bytes_per_token(m, 16.0), 24576.0, 0);
    GP_ASSERT_REL(gp_infer_state_bytes_per_seq(m), 39518208.0, 0);
    GP_ASSERT_REL(m->params.v, 79674391296.0, 0);
    GP_ASSERT_REL(m->params_active.v, 3874929408.0, 0);
}
END_TEST

START_TEST(decode_step_at_128k)
{
    /* Qwen3-Next on an H200 (4.8 TB/s), bf16, batch 1, context 131,072.
     * Weights read: the body less the routed experts not used, 79,674,391,296
     * - 2 x 311,164,928 (embeddings) = 79,052,061,440 - 48 x 502 x
     * 3,145,728 = 75,799,461,888: 3,252,599,552 params x 2 B =
     * 6,505,199,104 B; lm_head 311,164,928 x 2 = 622,329,856 B + one
     * embedding row 2048 x 2 = 4,096 B: 7,127,533,056 B.  KV: 131,072 x
     * 24,576 = 3,221,225,472 B (every layer priced as attention:
     * 12,884,901,888).  State read and written back: 2 x 39,518,208 =
     * 79,036,416 B.  Activations 48 x (10 x 2048 + 4 x 512) x 2 =
     * 2,162,688 B.  Step: 10,429,957,632 B.  The ceiling leaves out the
     * activations: 10,427,794,944 B / 4.8e12 B/s = 2.17245728 ms (compute:
     * 33 GFLOP, 33 us, underneath). */
    const gp_db *db = gp_test_db();
    gp_infer_params p;
    gp_infer_result r;
    gp_infer_params_init(&p);
    p.gpu = gp_db_find_gpu(db, "h200");
    p.model = gp_db_find_model(db, "qwen3-next-80b-a3b");
    p.context = 131072;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.weight_bytes, 7127533056.0, 1e-15);
    GP_ASSERT_REL(r.kv_positions, 131072.0, 0);
    GP_ASSERT_REL(r.kv_bytes, 3221225472.0, 1e-15);
    GP_ASSERT_REL(r.linear_layers, 36.0, 0);
    GP_ASSERT_REL(r.state_bytes_per_seq, 39518208.0, 0);
    GP_ASSERT_REL(r.state_bytes, 79036416.0, 0);
    GP_ASSERT_REL(r.act_bytes, 2162688.0, 0);
    GP_ASSERT_REL(r.bytes_per_step, 10429957632.0, 1e-15);
    GP_ASSERT_REL(r.ceiling.ledger.t[GP_ACCT_MEMORY], 10427794944.0 / 4.8e12, 1e-14);
    GP_ASSERT_REL(r.ceiling.step_s, 10427794944.0 / 4.8e12, 1e-14);
    /* FLOPs: attention on the 12 attending layers, 4 x 12 x 16 x 256 x
     * 131,072 = 25,769,803,776; the recurrence 8 x 19,759,104 =
     * 158,072,832; matmuls 2 x (3,252,599,552 + 311,164,928) =
     * 7,127,528,960: 33,055,405,568. */
    GP_ASSERT_REL(r.attn_flop, 25769803776.0, 1e-15);
    GP_ASSERT_REL(r.linear_flop, 158072832.0, 0);
    GP_ASSERT_REL(r.flop, 33055405568.0, 1e-15);
    /* bf16 weights need 159 GB: no fit on one H200 (150.75 GB). */
    ck_assert(!r.fits_batch1);
}
END_TEST

START_TEST(memory_fit_at_256k)
{
    /* fp8 weights on one H200 at the model's whole context, 262,144.
     * Stored: body 79,052,061,440 x 1 B + both embeddings 2 x 311,164,928 x
     * 2 B = 80,296,721,152 B; usable 143,771 MiB = 150,754,820,096 B; less 1
     * GiB of runtime: free 69,384,357,120 B.  Each sequence: KV 262,144 x
     * 24,576 = 6,442,450,944 B + state 39,518,208 B = 6,481,969,152 B:
     * floor(10.70) = 10 sequences (priced as 48 attention layers, 25,769,803,776
     * B each: 2).  At batch 8 the largest context: (69,384,357,120 - 8 x
     * 39,518,208) / (8 x 24,576) = 351,299.09 -> 351,299. */
    const gp_db *db = gp_test_db();
    gp_infer_params p;
    gp_infer_result r;
    gp_model flat;
    gp_infer_params_init(&p);
    p.gpu = gp_db_find_gpu(db, "h200");
    p.model = gp_db_find_model(db, "qwen3-next-80b-a3b");
    p.weights = gp_db_find_format(db, "fp8");
    p.context = 262144;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.weight_store_bytes, 80296721152.0, 1e-15);
    GP_ASSERT_REL(r.mem_usable, 150754820096.0, 0);
    GP_ASSERT_REL(r.mem_need, 80296721152.0 + 6481969152.0 + 1073741824.0, 1e-15);
    ck_assert(r.fits);
    GP_ASSERT_REL(r.max_batch, 10.0, 0);
    ck_assert(!r.context_exceeds);
    p.batch = 8;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.max_context, 351299.0, 0);
    p.batch = 10;
    r = gp_test_infer_eval(&p);
    ck_assert(r.fits);
    p.batch = 11;
    r = gp_test_infer_eval(&p);
    ck_assert(!r.fits);
    /* The same model priced as 48 attention layers and no state. */
    flat = *p.model;
    flat.linear_layers.v = 0;
    flat.linear_state.v = 0;
    p.model = &flat;
    p.batch = 1;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.max_batch, 2.0, 0);
}
END_TEST

START_TEST(prefill_flops)
{
    /* A 4096-token prompt, batch 1: every token runs 3,252,599,552 body
     * params, the last one the output layer 311,164,928; attention 4 x 12 x
     * 16 x 256 x 4096^2 / 2 = 1,649,267,441,664; the recurrence 8 x
     * 19,759,104 x 4096 = 647,466,319,872.  2 x 3,252,599,552 x 4096 =
     * 26,645,295,529,984 + 622,329,856 + both: 28,942,651,621,376. */
    const gp_db *db = gp_test_db();
    gp_infer_params p;
    gp_infer_result r;
    gp_infer_params_init(&p);
    p.gpu = gp_db_find_gpu(db, "h200");
    p.model = gp_db_find_model(db, "qwen3-next-80b-a3b");
    p.prompt = 4096;
    p.context = 4096;
    r = gp_test_infer_eval(&p);
    GP_ASSERT_REL(r.prefill_flop, 28942651621376.0, 1e-12);
}
END_TEST

START_TEST(ridge_counts_the_state)
{
    /* A toy dense model on a toy GPU (1 TB/s and 100 TFLOP/s, datasheet =
     * ceiling): 1e9 params (no embeddings), 2 layers of which 1 linear
     * (state 1e6 elements: 2e6 B, read and written: 4e6 B per sequence per
     * step), 8 heads of 64, one KV head; context 1.  Ceiling ridge: W / bw
     * = 2e9 / 1e12 = 2 ms; per sequence FLOP 2e9 + 4 x 1 x 8 x 64 x 1 +
     * 8 x 1e6 = 2,008,002,048 -> 20.08002048 us, bytes 4e6 + KV 1 x 256 B
     * -> 4.000256 us: 2e-3 / (20.08002048e-6 - 4.000256e-6) = 124.3799... */
    gp_gpu g;
    gp_model m;
    gp_infer_params p;
    gp_infer_result r;
    double slope;
    memset(&g, 0, sizeof g);
    g.id = "toy";
    g.mem_bw.v = 1e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 100e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 1e12;
    g.mem_usable.v = 1e12;
    memset(&m, 0, sizeof m);
    m.id = "toy";
    m.params.v = 1e9;
    m.layers.v = 2;
    m.hidden.v = 512;
    m.heads.v = 8;
    m.kv_heads.v = 1;
    m.head_dim.v = 64;
    m.ffn_hidden.v = 2048;
    m.tied_embeddings = 1;
    m.linear_layers.v = 1;
    m.linear_state.v = 1e6;
    gp_infer_params_init(&p);
    p.gpu = &g;
    p.model = &m;
    p.context = 1;
    r = gp_test_infer_eval(&p);
    /* KV per token: 1 attending layer x 2 x 1 x 64 x 2 B = 256 B. */
    GP_ASSERT_REL(r.kv_bytes_per_token, 256.0, 0);
    slope = 2008002048.0 / 100e12 - (4e6 + 256.0) / 1e12;
    GP_ASSERT_REL(r.ceiling.ridge_batch, 2e-3 / slope, 1e-12);
}
END_TEST

static json_t *decode(const char *const *args, int *rc, char **err)
{
    const char *argv[32];
    char *out = NULL;
    size_t i = 0, j;
    json_t *o;
    argv[i++] = "decode";
    for (j = 0; args[j] != NULL && i < 30; j++)
        argv[i++] = args[j];
    argv[i++] = "--json";
    argv[i] = NULL;
    *rc = gp_test_cli(argv, &out, err);
    o = out != NULL ? json_loads(out, 0, NULL) : NULL;
    free(out);
    return o;
}

START_TEST(cli_decode)
{
    int rc;
    json_t *o;
    const char *a1[] = {"--gpu", "h200", "--model", "qwen3-next", "--weights", "fp8",
                        "--context", "131072", NULL};
    const char *a2[] = {"--gpu", "h200", "--model", "qwen3-next", "--weights", "fp8",
                        "--context", "131072", "--linear-layers", "0", NULL};
    const char *a3[] = {"--gpu", "h200", "--params", "8B", "--layers", "48", "--hidden",
                        "2048", "--heads", "16", "--kv-heads", "2", "--head-dim", "256",
                        "--context", "1000", "--linear-layers", "36", "--linear-state",
                        "548864", NULL};
    const char *t1[] = {"decode", "--gpu", "h200", "--model", "qwen3-next", "--weights", "fp8",
                        "--context", "131072", NULL};
    const char *t4[] = {"decode", "--gpu", "h200", "--model", "qwen3-next", "--weights", "fp8",
                        "--context", "131072", "--batch", "4", NULL};
    char *out = NULL;
    /* As decode_step_at_128k: KV 3,221,225,472 B, the state 79,036,416 B
     * per step and 39,518,208 B stored. */
    o = decode(a1, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 3221225472.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes_per_token"), 24576.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "state_bytes"), 79036416.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "state_bytes_per_seq"), 39518208.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "state_stored_bytes"), 39518208.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "linear_layers"), 36.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "attn_layers"), 12.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "linear_flop"), 158072832.0, 1e-12);
    json_decref(o);
    /* --linear-layers 0: every layer attends, 131,072 x 98,304 B =
     * 12,884,901,888 B, and no state. */
    o = decode(a2, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 12884901888.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "state_bytes"), 0.0, 0);
    json_decref(o);
    /* A --params model given the layout: 1000 x 24,576 B of KV. */
    o = decode(a3, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 24576000.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "state_bytes_per_seq"), 39518208.0, 1e-12);
    json_decref(o);
    /* The table shows the state in the bytes per step and the memory. */
    ck_assert_int_eq(gp_test_cli(t1, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "recurrent state "));
    ck_assert_ptr_nonnull(strstr(out, "recurrent state stored"));
    ck_assert_ptr_nonnull(strstr(out, "12 of 48 layers attend"));
    free(out);
    /* Stored at batch 4: 4 x 39,518,208 = 158,072,832 B (158.07 MB), the
     * states of four sequences, not one sequence's. */
    ck_assert_int_eq(gp_test_cli(t4, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "158.07 MB"));
    ck_assert_ptr_nonnull(strstr(out, "4 seq x 39.52 MB, whatever the context"));
    ck_assert_ptr_null(strstr(out, "per sequence, whatever the context"));
    free(out);
}
END_TEST

START_TEST(cli_refusals)
{
    static const struct {
        const char *args[20];
        const char *msg;
    } bad[] = {
        {{"--gpu", "h200", "--model", "qwen3-next", "--linear-layers", "48", NULL},
         "'--linear-layers' 48 leaves none of the model's 48 layers attending"},
        {{"--gpu", "h200", "--model", "qwen3-next", "--layers", "36", NULL},
         "'--layers' 36 is not above qwen3-next-80b-a3b's 36 linear-attention layers"},
        {{"--gpu", "a100", "--model", "llama-2-7b", "--linear-layers", "8", NULL},
         "'--linear-layers' needs '--linear-state E'"},
        {{"--gpu", "a100", "--model", "llama-2-7b", "--linear-state", "1000", NULL},
         "'--linear-state' needs '--linear-layers N'"},
        {{"--gpu", "h200", "--model", "qwen3-next", "--linear-layers", "0", "--linear-state",
          "1000", NULL},
         "'--linear-state' needs linear-attention layers"},
        {{"--gpu", "a100", "--params", "7B", "--linear-layers", "8", "--linear-state", "1000",
          NULL},
         "'--linear-layers' needs '--layers'"},
        {{"--gpu", "h200", "--model", "qwen3-next", "--window", "4096", NULL},
         "'--window' on every layer, but 36 of the 48 are linear attention"},
        {{"--gpu", "h200", "--model", "qwen3-next", "--window", "4096", "--window-layers", "13",
          NULL},
         "'--window-layers' 13 exceeds the 12 attending layers"},
        {{"--gpu", "h200", "--model", "qwen3-next", "--linear-state", "2000000000", NULL},
         "'--linear-state' must be <= 1e9"},
        /* The window is the model's, not the command line's: the message
         * names its field (Gemma 2 9B: 21 of 42 layers windowed; 30 linear
         * leave 42 - 30 = 12 attending; Mistral 7B: a window on all 32). */
        {{"--gpu", "h200", "--model", "gemma-2-9b", "--linear-layers", "30", "--linear-state",
          "1000", NULL},
         "gemma-2-9b's 21 windowed layers (window.layers) exceed the 12 attending layers "
         "'--linear-layers' 30 leaves of 42"},
        {{"--gpu", "h200", "--model", "mistral-7b", "--linear-layers", "16", "--linear-state",
          "1000", NULL},
         "mistral-7b's window (window.tokens 4096) is on every layer, but '--linear-layers' 16 "
         "makes 16 of the 32 linear attention"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        char *err = NULL;
        json_t *o = decode(bad[i].args, &rc, &err);
        ck_assert_msg(rc == 2, "case %zu: exit %d", i, rc);
        ck_assert_msg(err != NULL && strstr(err, bad[i].msg) != NULL, "case %zu: %s", i,
                      err ? err : "(null)");
        json_decref(o);
        free(err);
    }
}
END_TEST

/* ---- config.json import -------------------------------------------------------------------- */

/* The Qwen3-Next config.json the import tests start from. */
static const char *const QN = "tests/data/hf/qwen3-next-80b-a3b.json";

static double jget(const json_t *o, const char *a, const char *b)
{
    return gp_test_jnum(json_object_get(o, a), b);
}

START_TEST(import_qwen3_next)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* The config: full_attention_interval 4 -> 48 - floor(48 / 4) = 36
     * linear layers; state 32 x 128 x 128 + (2 x 16 x 128 + 32 x 128) x 3 =
     * 524,288 + 24,576 = 548,864; mixer 33,718,464 and the totals of
     * count_qwen3_next; no warning. */
    ck_assert_int_eq(gp_test_import_model(dir, QN, "qn", &o, &err), 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 79674391296.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 3874929408.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 36.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "state"), 548864.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "mixer_params"), 33718464.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "shared"), 1.0, 0);
    ck_assert_uint_eq(json_array_size(json_object_get(o, "warnings")), 0);
    json_decref(o);
    free(err);
    /* The entry's note adds its own figures up: the active count is 48 MoE
     * layers x 62,921,216 + 2 x 311,164,928 (embedding, lm_head) + 2,048
     * (final norm) + 36 x (33,718,464 - 27,263,488) = 3,874,929,408, and
     * says so with the linear-attention term. */
    {
        char path[512], *yaml;
        snprintf(path, sizeof path, "%s/models/qn.yaml", dir);
        yaml = gp_test_slurp(path);
        ck_assert_ptr_nonnull(yaml);
        ck_assert_msg(strstr(yaml, "Active: 62,921,216 per MoE layer (router, 10 experts, "
                                   "shared), the same linear-attention difference on 36 layers "
                                   "= 3,874,929,408") != NULL,
                      "%s", yaml);
        /* The mixer, for train (linear.params); no ffn_layers: every layer
         * holds its MoE FFN. */
        ck_assert_ptr_nonnull(strstr(yaml, "  params: {value: 33718464, src: derived}\n"));
        ck_assert_ptr_nonnull(strstr(yaml, "\nattention_gate: true\n"));
        ck_assert_ptr_null(strstr(yaml, "ffn_layers"));
        free(yaml);
    }
    /* The layout as newer configs list it: layer_types, 3 linear then 1
     * full, twelve times: the same 36. */
    {
        char lt[4096] = "{\"full_attention_interval\": null, \"layer_types\": [";
        int i;
        for (i = 0; i < 48; i++)
            strcat(lt, (i + 1) % 4 ? "\"linear_attention\"," : "\"full_attention\",");
        lt[strlen(lt) - 1] = '\0';
        strcat(lt, "]}");
        f = gp_test_json_edit(dir, "types", QN, lt);
        ck_assert_int_eq(gp_test_import_model(dir, f, "qn-types", &o, NULL), 0);
        GP_ASSERT_REL(jget(o, "linear", "layers"), 36.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 79674391296.0, 0);
        json_decref(o);
    }
    /* No interval: transformers' default 4, warned. */
    f = gp_test_json_edit(dir, "nointerval", QN, "{\"full_attention_interval\": null}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-noint", &o, &err), 0);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 36.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "Qwen3NextConfig default 4"));
    json_decref(o);
    free(err);
    /* Interval 8: 48 - 6 = 42 linear layers, 6 attend: the total moves by
     * 6 x (33,718,464 - 27,263,488) = 38,729,856. */
    f = gp_test_json_edit(dir, "interval8", QN, "{\"full_attention_interval\": 8}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-8", &o, NULL), 0);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 42.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 79674391296.0 + 38729856.0, 0);
    json_decref(o);
    /* A window on more layers than attend: sliding_window_pattern 2 makes
     * 48 - floor(48 / 2) = 24 layers local, but only 48 - 36 = 12 attend:
     * the window is counted on those 12, and said so. */
    f = gp_test_json_edit(dir, "window", QN,
                          "{\"sliding_window\": 4096, \"sliding_window_pattern\": 2}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-win", &o, &err), 0);
    GP_ASSERT_REL(jget(o, "window", "tokens"), 4096.0, 0);
    GP_ASSERT_REL(jget(o, "window", "layers"), 12.0, 0);
    ck_assert_msg(strstr(err, "24 sliding-window layers but only 12 of the 48 layers attend") !=
                      NULL,
                  "%s", err);
    json_decref(o);
    free(err);
    /* Layouts gpuplan does not model: warned, priced as attention. */
    f = gp_test_json_edit(dir, "nemotron", QN, "{\"hybrid_override_pattern\": \"M-M-M*-\"}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-nemo", &o, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "hybrid_override_pattern: a hybrid layout gpuplan does "
                                      "not model"));
    json_decref(o);
    free(err);
    {
        char lt[4096] = "{\"full_attention_interval\": null, \"layer_types\": [";
        int i;
        for (i = 0; i < 48; i++)
            strcat(lt, i % 2 ? "\"mamba\"," : "\"linear_attention\",");
        lt[strlen(lt) - 1] = '\0';
        strcat(lt, "]}");
        f = gp_test_json_edit(dir, "mamba", QN, lt);
        ck_assert_int_eq(gp_test_import_model(dir, f, "qn-mamba", &o, &err), 0);
        /* 24 linear_attention layers modelled, the 24 'mamba' ones warned. */
        GP_ASSERT_REL(jget(o, "linear", "layers"), 24.0, 0);
        ck_assert_ptr_nonnull(strstr(err, "24 layers of a kind gpuplan does not model "
                                          "('mamba')"));
        json_decref(o);
        free(err);
    }
    /* Another family's linear_attention layers without the Gated DeltaNet
     * keys: warned, every layer attends. */
    f = gp_test_json_edit(dir, "other", QN,
                          "{\"model_type\": \"other_hybrid\", \"linear_num_key_heads\": null, "
                          "\"linear_num_value_heads\": null}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-other", &o, &err), 0);
    ck_assert(json_is_null(json_object_get(o, "linear")));
    ck_assert_ptr_nonnull(strstr(err, "36 linear_attention layers without the Gated DeltaNet "
                                      "keys"));
    json_decref(o);
    free(err);
    /* Refused: every layer linear (an interval beyond the layers); a
     * width missing. */
    f = gp_test_json_edit(dir, "alllinear", QN, "{\"full_attention_interval\": 64}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-all", &o, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "every one of the 48 layers is linear attention"));
    json_decref(o);
    free(err);
    f = gp_test_json_edit(dir, "nowidth", QN, "{\"linear_num_value_heads\": null}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "qn-nowidth", &o, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "missing key 'linear_num_value_heads'"));
    json_decref(o);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_linear(void)
{
    Suite *s = suite_create("linear");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, attending_layers_and_state);
    tcase_add_test(tc, window_on_the_attending_layers);
    tcase_add_test(tc, count_qwen3_next);
    tcase_add_test(tc, shipped_entry);
    tcase_add_test(tc, decode_step_at_128k);
    tcase_add_test(tc, memory_fit_at_256k);
    tcase_add_test(tc, prefill_flops);
    tcase_add_test(tc, ridge_counts_the_state);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_add_test(tc, cli_decode);
    tcase_add_test(tc, cli_refusals);
    tcase_add_test(tc, import_qwen3_next);
    suite_add_tcase(s, tc);
    return s;
}
