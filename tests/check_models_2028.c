/* The large open MoE models of 2025 that planners ask for next: GLM-4.5
 * (355B-A32B), Qwen3-Coder-480B-A35B and MiniMax-M2 (230B-A10B).
 *
 * As in check_models_2026.c, each entry's parameter count is rebuilt here
 * per layer by hand from the config.json shapes its sources quote; the
 * database figure must equal it to 1e-9 and lie within the stated tolerance
 * of the count the card gives (the active count against the card's figure
 * plus the two embedding matrices where the card leaves them out).  Then:
 * the FFN kind train infers (SwiGLU experts: 3 matrices), the KV cache of a
 * long context worked out by hand, and the names the Hugging Face repo ids
 * give.  Never values copied from the program's output. */
#include <jansson.h>
#include <string.h>

#include "testutil.h"

START_TEST(glm_4_5)
{
    /* 92 layers, h 5120, 96 heads x 128 (12,288), 8 KV heads, q/k/v
     * biases, per-head q/k norms (2 x 128); first 3 layers dense (FFN
     * 12,288), 89 MoE of 160 experts of 1536 + 1 shared, top-8, router
     * 5120 x 160 + 160 (bias); vocab 151,552, untied.
     *   attention 62,914,560 + 12,288 + 2 x (5,242,880 + 1,024) + 62,914,560
     *             + 256 = 136,329,472
     *   dense layer + 3 x 5120 x 12288 (188,743,680) + 10,240 = 325,083,392
     *   MoE layer + 819,360 + 161 x 23,592,960 + 10,240 = 3,935,625,632
     *   3 x 325,083,392 + 89 x 3,935,625,632 + 2 x 151552 x 5120 + 5120
     *   = 975,250,176 + 350,270,681,248 + 1,551,892,480 + 5,120
     *   = 352,797,829,024 (card 355B: -0.62 %, the MTP layer left out).
     * Active: MoE layer 136,329,472 + 819,360 + 9 x 23,592,960 + 10,240 =
     * 349,495,712; x 89 + 975,250,176 + 1,551,892,480 + 5,120 =
     * 33,632,266,144; the card's 32B leaves both embeddings out
     * (32,080,373,664, +0.25 %). */
    const double attn = 5120.0 * 12288 + 12288 + 2 * (5120.0 * 1024 + 1024) + 12288.0 * 5120 + 256;
    const double dense = attn + 3 * 5120.0 * 12288 + 2 * 5120.0;
    const double expert = 3 * 5120.0 * 1536;
    const double router = 5120.0 * 160 + 160;
    const double emb = 2 * 151552.0 * 5120;
    static gp_test_model w = {
        "glm-4.5", "zai-org/GLM-4.5", 0, 355e9, 0.01,
        92, 5120, 96, 8, 128, 12288, 151552, 131072, 0, 0, 0, 160, 8,
        0, 0};
    const gp_model *m;
    w.derived = 3 * dense + 89 * (attn + router + 161 * expert + 2 * 5120.0) + emb + 5120;
    w.active_derived = 3 * dense + 89 * (attn + router + 9 * expert + 2 * 5120.0) + emb + 5120;
    w.active_card = 32e9 + emb;
    m = gp_test_model_check(&w);
    GP_ASSERT_REL(attn, 136329472.0, 0);
    GP_ASSERT_REL(dense, 325083392.0, 0);
    GP_ASSERT_REL(w.derived, 352797829024.0, 0);
    GP_ASSERT_REL(w.active_derived, 33632266144.0, 0);
    GP_ASSERT_REL(w.active_derived - emb, 32080373664.0, 0);
    GP_ASSERT_REL(m->shared_experts.v, 1, 0);
    GP_ASSERT_REL(m->dense_layers.v, 3, 0);
    GP_ASSERT_REL(m->expert_ffn_hidden.v, 1536, 0);
    ck_assert_str_eq(m->attention, "gqa");
    /* the Air is still its own entry */
    ck_assert_str_eq(gp_db_find_model(gp_test_db(), "zai-org/GLM-4.5-Air")->id, "glm-4.5-air");
    ck_assert_str_eq(gp_db_find_model(gp_test_db(), "glm-4.5-base")->id, "glm-4.5");
}
END_TEST

START_TEST(qwen3_coder_480b)
{
    /* 62 layers all MoE, h 6144, 96 heads x 128, 8 KV heads, per-head q/k
     * norms, 160 experts of 2560, top-8, no shared expert, vocab 151,936,
     * untied.  attention 6144 x 12288 x 2 + 2 x 6144 x 1024 + 256 =
     * 163,578,112; router 983,040; experts 160 x 47,185,920 =
     * 7,549,747,200; norms 12,288: 7,714,320,640 a layer; x 62 +
     * 1,866,989,568 + 6,144 = 480,154,875,392 (card 480B: +0.03 %).
     * Active 163,578,112 + 983,040 + 8 x 47,185,920 + 12,288 = 542,060,800
     * a layer; x 62 + 1,866,989,568 + 6,144 = 35,474,765,312 (card 35B:
     * +1.4 %, counted as the Qwen3-235B-A22B entry counts it). */
    const double attn = 2 * 6144.0 * 12288 + 2 * 6144.0 * 1024 + 256;
    const double expert = 3 * 6144.0 * 2560;
    const double emb = 2 * 151936.0 * 6144;
    static gp_test_model w = {
        "qwen3-coder-480b-a35b", "Qwen/Qwen3-Coder-480B-A35B-Instruct", 0, 480e9, 0.02,
        62, 6144, 96, 8, 128, 2560, 151936, 262144, 0, 0, 0, 160, 8,
        0, 35e9};
    w.derived = 62 * (attn + 6144.0 * 160 + 160 * expert + 2 * 6144.0) + emb + 6144;
    w.active_derived = 62 * (attn + 6144.0 * 160 + 8 * expert + 2 * 6144.0) + emb + 6144;
    gp_test_model_check(&w);
    GP_ASSERT_REL(attn, 163578112.0, 0);
    GP_ASSERT_REL(w.derived, 480154875392.0, 0);
    GP_ASSERT_REL(w.active_derived, 35474765312.0, 0);
    ck_assert_str_eq(gp_db_find_model(gp_test_db(), "qwen3-coder-480b")->id,
                     "qwen3-coder-480b-a35b");
}
END_TEST

START_TEST(minimax_m2)
{
    /* 62 layers all MoE, h 3072, 48 heads x 128 (6,144), 8 KV heads, q/k
     * RMSNorms over the whole projections (6,144 + 1,024), 256 experts of
     * 1536, top-8, router 3072 x 256 + 256 (e_score_correction_bias), vocab
     * 200,064, untied.
     *   attention 3072 x 6144 x 2 + 2 x 3072 x 1024 + 7,168 = 44,047,360
     *   layer + 786,688 + 256 x 14,155,776 + 6,144 = 3,668,718,848
     *   x 62 + 2 x 200064 x 3072 + 3072 = 228,689,764,864 (card 230B:
     *   -0.57 %).  M2.5's FP8 checkpoint (the same shapes) counts
     *   228,703,644,928 on Hugging Face: this plus its 128 x 128 block
     *   scales, 62 x (256 x 3 x 12 x 24 + 2 x 48 x 24 + 2 x 8 x 24) =
     *   13,880,064, to the parameter.
     * Active 44,047,360 + 786,688 + 8 x 14,155,776 + 6,144 = 158,086,400 a
     * layer; x 62 + 1,229,193,216 + 3,072 = 11,030,553,088; the card's 10B
     * leaves both embeddings out (9,801,359,872: -2.0 % of one significant
     * digit, hence 2.5 % here). */
    const double attn = 2 * 3072.0 * 6144 + 2 * 3072.0 * 1024 + 6144 + 1024;
    const double expert = 3 * 3072.0 * 1536;
    const double router = 3072.0 * 256 + 256;
    const double emb = 2 * 200064.0 * 3072;
    const double scales = 62 * (256 * 3 * 12 * 24 + 2 * 48 * 24 + 2 * 8 * 24);
    static gp_test_model w = {
        "minimax-m2", "MiniMaxAI/MiniMax-M2", 0, 230e9, 0.025,
        62, 3072, 48, 8, 128, 1536, 200064, 196608, 0, 0, 0, 256, 8,
        0, 0};
    const gp_model *m;
    w.derived = 62 * (attn + router + 256 * expert + 2 * 3072.0) + emb + 3072;
    w.active_derived = 62 * (attn + router + 8 * expert + 2 * 3072.0) + emb + 3072;
    w.active_card = 10e9 + emb;
    m = gp_test_model_check(&w);
    GP_ASSERT_REL(attn, 44047360.0, 0);
    GP_ASSERT_REL(w.derived, 228689764864.0, 0);
    GP_ASSERT_REL(w.derived + scales, 228703644928.0, 0);
    GP_ASSERT_REL(w.active_derived, 11030553088.0, 0);
    ck_assert(m->window.v == 0.0);        /* full attention, no window */
    ck_assert(m->linear_layers.v == 0.0); /* no lightning (linear) attention */
}
END_TEST

START_TEST(ffn_kind_and_kv)
{
    /* SwiGLU experts throughout: train infers 3 matrices for each. */
    static const char *const three[] = {"glm-4.5", "qwen3-coder-480b-a35b", "minimax-m2"};
    size_t i;
    json_t *j;
    const char *argv[] = {"--json", "decode", "--gpu", "h200", "--model", "qwen3-coder-480b-a35b",
                          "--weights", "fp8-e4m3", "--context", "131072", "--gpus", "8", NULL};
    for (i = 0; i < sizeof three / sizeof three[0]; i++)
        ck_assert_msg(gp_test_ffn_matrices(three[i]) == 3.0, "%s: want a gated FFN (3 matrices)", three[i]);
    /* KV cache of one 131,072-token sequence at bf16: 2 (K, V) x 62 layers
     * x 8 KV heads x 128 x 2 bytes = 253,952 B a token; x 131,072 =
     * 33,285,996,544 B (31.0 GiB). */
    j = gp_test_cli_json(argv);
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "kv_bytes"), 2 * 62 * 8 * 128 * 2 * 131072.0, 0);
    GP_ASSERT_REL(gp_test_jnum(j, "kv_bytes"), 33285996544.0, 0);
    json_decref(j);
}
END_TEST

Suite *gp_test_suite_models_2028(void)
{
    Suite *s = suite_create("models_2028");
    TCase *tc = tcase_create("entries");
    tcase_add_test(tc, glm_4_5);
    tcase_add_test(tc, qwen3_coder_480b);
    tcase_add_test(tc, minimax_m2);
    tcase_add_test(tc, ffn_kind_and_kv);
    suite_add_tcase(s, tc);
    return s;
}
