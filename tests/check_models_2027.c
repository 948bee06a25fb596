/* More model shapes people plan with: the GPT-2 family (the nanoGPT / llm.c
 * runs), GPT-J-6B, Pythia 160M / 1.4B / 6.9B / 12B, OLMo 2 7B / 13B, Mistral
 * Large 2 (123B); Llama 3.3 70B and the DeepSeek-R1 distills as aliases of
 * the entries whose config shapes they share.
 *
 * As in check_models_2026.c, each entry's parameter count is rebuilt here
 * per layer by hand from the config.json shapes its sources quote; the
 * database figure must equal it to 1e-9 and lie within 1 % of the count the
 * card, release or checkpoint states.  Then: the FFN kind
 * gp_train_shape_from_model infers from the count (the classic GeLU MLPs: 2
 * matrices; OLMo 2's SwiGLU: 3), 6N per token for GPT-2 124M, KV-cache sizes
 * worked out by hand, and the aliases.  Never values copied from the
 * program's output. */
#include <jansson.h>
#include <string.h>

#include "testutil.h"

/* ---- GPT-2 (pre-LayerNorm, biases everywhere, GeLU MLP 4h, 1,024 learned
 * positions, vocab 50257, tied) ------------------------------------------- */

START_TEST(gpt2_family)
{
    /* Per layer: qkv h x 3h + 3h, proj h^2 + h, MLP 2 x h x 4h + 4h + h, two
     * LayerNorms 4h: 12 h^2 + 13 h.  + 50257 h (tied embedding) + 1024 h
     * (positions) + 2h (final LayerNorm).
     * 124M: h 768, 12 layers: 12 x 589,824 = 7,077,888 + 9,984 = 7,087,872;
     * x 12 = 85,054,464 + 38,597,376 + 786,432 + 1,536 = 124,439,808.  The
     * release calls it 124M (+0.35 %). */
    static const gp_test_model s = {
        "gpt2", "gpt-2-124m",
        12.0 * (12 * 768.0 * 768 + 13 * 768.0) + 50257.0 * 768 + 1024.0 * 768 + 2 * 768.0,
        124e6, 0.01,
        12, 768, 12, 12, 64, 3072, 50257, 1024, 1, 0, 0, 0, 0, 0, 0};
    /* 355M: h 1024, 24 layers, 16 heads: 12,582,912 + 13,312 = 12,596,224;
     * x 24 = 302,309,376 + 51,463,168 + 1,048,576 + 2,048 = 354,823,168
     * (-0.05 %). */
    static const gp_test_model m = {
        "gpt2-medium", "gpt-2-medium",
        24.0 * (12 * 1024.0 * 1024 + 13 * 1024.0) + 50257.0 * 1024 + 1024.0 * 1024 + 2 * 1024.0,
        355e6, 0.01,
        24, 1024, 16, 16, 64, 4096, 50257, 1024, 1, 0, 0, 0, 0, 0, 0};
    /* 774M: h 1280, 36 layers, 20 heads: 19,660,800 + 16,640 = 19,677,440;
     * x 36 = 708,387,840 + 64,328,960 + 1,310,720 + 2,560 = 774,030,080
     * (+0.004 %). */
    static const gp_test_model l = {
        "gpt2-large", "gpt-2-774m",
        36.0 * (12 * 1280.0 * 1280 + 13 * 1280.0) + 50257.0 * 1280 + 1024.0 * 1280 + 2 * 1280.0,
        774e6, 0.01,
        36, 1280, 20, 20, 64, 5120, 50257, 1024, 1, 0, 0, 0, 0, 0, 0};
    /* 1558M: h 1600, 48 layers, 25 heads of 64: 30,720,000 + 20,800 =
     * 30,740,800; x 48 = 1,475,558,400 + 80,411,200 + 1,638,400 + 3,200 =
     * 1,557,611,200 (release 1558M: -0.02 %; "1.5B" would be +3.8 %). */
    static const gp_test_model x = {
        "gpt2-xl", "gpt-2-1.5b",
        48.0 * (12 * 1600.0 * 1600 + 13 * 1600.0) + 50257.0 * 1600 + 1024.0 * 1600 + 2 * 1600.0,
        1558e6, 0.01,
        48, 1600, 25, 25, 64, 6400, 50257, 1024, 1, 0, 0, 0, 0, 0, 0};
    gp_test_model_check(&s);
    GP_ASSERT_REL(s.derived, 124439808.0, 0);
    gp_test_model_check(&m);
    GP_ASSERT_REL(m.derived, 354823168.0, 0);
    gp_test_model_check(&l);
    GP_ASSERT_REL(l.derived, 774030080.0, 0);
    gp_test_model_check(&x);
    GP_ASSERT_REL(x.derived, 1557611200.0, 0);
}
END_TEST

/* ---- GPT-J-6B ------------------------------------------------------------ */

START_TEST(gpt_j)
{
    /* 28 layers, h 4096, 16 heads of 256, MLP 16384 (GeLU), vocab 50400,
     * untied, one LayerNorm per parallel block, no attention biases, MLP
     * biases, lm_head bias.  Per layer 4 x 4096^2 = 67,108,864 + 2 x 4096 x
     * 16384 + 16384 + 4096 = 134,238,208 + 8,192 = 201,355,264; x 28 =
     * 5,637,947,392 + 2 x 50400 x 4096 = 412,876,800 + 50,400 + 8,192 =
     * 6,050,882,784.  Card: 6,053,381,344 (-0.04 %). */
    static const gp_test_model j = {
        "gpt-j-6b", "gptj-6b",
        28.0 * (4 * 4096.0 * 4096 + 2 * 4096.0 * 16384 + 16384 + 4096 + 2 * 4096.0) +
            2 * 50400.0 * 4096 + 50400 + 2 * 4096.0,
        6053381344.0, 0.01,
        28, 4096, 16, 16, 256, 16384, 50400, 2048, 0, 0, 0, 0, 0, 0, 0};
    gp_test_model_check(&j);
    GP_ASSERT_REL(j.derived, 6050882784.0, 0);
}
END_TEST

/* ---- Pythia (GPT-NeoX: 12 h^2 + 13 h per layer, untied, 2,048) ---------- */

START_TEST(pythia)
{
    /* 160M: h 768, 12 layers, 12 heads, vocab 50304: 7,087,872 x 12 =
     * 85,054,464 + 2 x 50304 x 768 = 77,266,944 + 1,536 = 162,322,944, the
     * card's total to the unit. */
    static const gp_test_model p160 = {
        "pythia-160m", "pythia-160m-deduped",
        12.0 * (12 * 768.0 * 768 + 13 * 768.0) + 2 * 50304.0 * 768 + 2 * 768.0,
        162322944.0, 1e-12,
        12, 768, 12, 12, 64, 3072, 50304, 2048, 0, 0, 0, 0, 0, 0, 0};
    /* 1.4B: h 2048, 24 layers, 16 heads, vocab 50304: 50,331,648 + 26,624 =
     * 50,358,272; x 24 = 1,208,598,528 + 206,045,184 + 4,096 =
     * 1,414,647,808 (card: the same). */
    static const gp_test_model p14 = {
        "pythia-1.4b", "pythia-1.4b-deduped",
        24.0 * (12 * 2048.0 * 2048 + 13 * 2048.0) + 2 * 50304.0 * 2048 + 2 * 2048.0,
        1414647808.0, 1e-12,
        24, 2048, 16, 16, 128, 8192, 50304, 2048, 0, 0, 0, 0, 0, 0, 0};
    /* 6.9B: h 4096, 32 layers, 32 heads, vocab 50432: 201,326,592 + 53,248 =
     * 201,379,840; x 32 = 6,444,154,880 + 413,138,944 + 8,192 =
     * 6,857,302,016 (card: the same). */
    static const gp_test_model p69 = {
        "pythia-6.9b", "pythia-6.9b-deduped",
        32.0 * (12 * 4096.0 * 4096 + 13 * 4096.0) + 2 * 50432.0 * 4096 + 2 * 4096.0,
        6857302016.0, 1e-12,
        32, 4096, 32, 32, 128, 16384, 50432, 2048, 0, 0, 0, 0, 0, 0, 0};
    /* 12B: h 5120, 36 layers, 40 heads, vocab 50688: 314,572,800 + 66,560 =
     * 314,639,360; x 36 = 11,327,016,960 + 519,045,120 + 10,240 =
     * 11,846,072,320 (card: the same; non-embedding 11,327,027,200 =
     * 11,327,016,960 + the final LayerNorm). */
    static const gp_test_model p12 = {
        "pythia-12b", "pythia-12b-deduped",
        36.0 * (12 * 5120.0 * 5120 + 13 * 5120.0) + 2 * 50688.0 * 5120 + 2 * 5120.0,
        11846072320.0, 1e-12,
        36, 5120, 40, 40, 128, 20480, 50688, 2048, 0, 0, 0, 0, 0, 0, 0};
    gp_test_model_check(&p160);
    gp_test_model_check(&p14);
    gp_test_model_check(&p69);
    gp_test_model_check(&p12);
    GP_ASSERT_REL(36.0 * (12 * 5120.0 * 5120 + 13 * 5120.0) + 2 * 5120.0, 11327027200.0, 0);
}
END_TEST

/* ---- OLMo 2 (no biases, SwiGLU, q/k RMSNorms over the whole projection,
 * two post-norms, vocab 100352, 4,096, untied) ---------------------------- */

START_TEST(olmo_2)
{
    /* 7B: h 4096, ffn 11008, 32 layers, 32 heads.  Per layer 4 x 4096^2 =
     * 67,108,864 + q/k norms 2 x 4096 + 3 x 4096 x 11008 = 135,266,304 +
     * norms 2 x 4096 = 202,391,552; x 32 = 6,476,529,664 + 2 x 100352 x 4096
     * = 822,083,584 + 4096 = 7,298,617,344 = the checkpoint's count. */
    static const gp_test_model o7 = {
        "olmo-2-7b", "olmo-2-1124-7b",
        32.0 * (4 * 4096.0 * 4096 + 2 * 4096.0 + 3 * 4096.0 * 11008 + 2 * 4096.0) +
            2 * 100352.0 * 4096 + 4096,
        7298617344.0, 0.01,
        32, 4096, 32, 32, 128, 11008, 100352, 4096, 0, 0, 0, 0, 0, 0, 0};
    /* 13B: h 5120, ffn 13824, 40 layers, 40 heads.  Per layer 4 x 5120^2 =
     * 104,857,600 + 10,240 + 3 x 5120 x 13824 = 212,336,640 + 10,240 =
     * 317,214,720; x 40 = 12,688,588,800 + 2 x 100352 x 5120 =
     * 1,027,604,480 + 5120 = 13,716,198,400 = the checkpoint's float32 bytes
     * 54,864,793,600 / 4. */
    static const gp_test_model o13 = {
        "olmo-2-13b", "olmo-2-1124-13b",
        40.0 * (4 * 5120.0 * 5120 + 2 * 5120.0 + 3 * 5120.0 * 13824 + 2 * 5120.0) +
            2 * 100352.0 * 5120 + 5120,
        54864793600.0 / 4, 0.01,
        40, 5120, 40, 40, 128, 13824, 100352, 4096, 0, 0, 0, 0, 0, 0, 0};
    gp_test_model_check(&o7);
    GP_ASSERT_REL(o7.derived, 7298617344.0, 0);
    gp_test_model_check(&o13);
    GP_ASSERT_REL(o13.derived, 13716198400.0, 0);
}
END_TEST

/* ---- Mistral Large 2 ------------------------------------------------------ */

START_TEST(mistral_large_2)
{
    /* 88 layers, h 12288, 96 heads of 128, 8 KV heads, ffn 28672, vocab
     * 32768, untied, no biases.  Per layer 2 x 12288^2 = 301,989,888 + 2 x
     * 12288 x 1024 = 25,165,824 + 3 x 12288 x 28672 = 1,056,964,608 +
     * 24,576 = 1,384,144,896; x 88 = 121,804,750,848 + 2 x 32768 x 12288 =
     * 805,306,368 + 12288 = 122,610,069,504.  Card: 123B (-0.3 %). */
    static const gp_test_model ml = {
        "mistral-large-2", "mistral-large-instruct-2407",
        88.0 * (2 * 12288.0 * 12288 + 2 * 12288.0 * 1024 + 3 * 12288.0 * 28672 +
                2 * 12288.0) +
            2 * 32768.0 * 12288 + 12288,
        123e9, 0.01,
        88, 12288, 96, 8, 128, 28672, 32768, 131072, 0, 0, 0, 0, 0, 0, 0};
    const gp_model *m = gp_test_model_check(&ml);
    GP_ASSERT_REL(ml.derived, 122610069504.0, 0);
    ck_assert_str_eq(m->attention, "gqa");
}
END_TEST

/* ---- Llama 4 (text models) --------------------------------------------- */

START_TEST(llama_4)
{
    /* Scout: 48 MoE layers, h 5120, 40 heads of 128, 8 KV heads, 16 experts
     * of 8192 (top 1) + 1 shared of 8192, vocab 202048, untied, weightless
     * q/k norm.  Per layer attention 5120 x 5120 x 2 + 2 x 5120 x 1024 =
     * 62,914,560; router 5120 x 16 = 81,920; experts 16 x 3 x 5120 x 8192 =
     * 2,013,265,920; shared 125,829,120; norms 10,240: 2,202,101,760; x 48
     * = 105,700,884,480 + 2 x 202048 x 5120 = 2,068,971,520 + 5120 =
     * 107,769,861,120.  The card's 109B counts the vision encoder too, so
     * the check is 1.2 %.  Active: 62,914,560 + 81,920 + 2 x 125,829,120 +
     * 10,240 = 314,664,960 x 48 + 2,068,976,640 = 17,172,894,720 (card
     * 17B, +1.0 %).  36 of 48 layers attend within 8,192-token chunks. */
    static const gp_test_model scout = {
        "llama-4-scout", "llama-4-scout-17b-16e-instruct",
        48.0 * (2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 5120.0 * 16 + 16 * 3 * 5120.0 * 8192 +
                3 * 5120.0 * 8192 + 2 * 5120.0) +
            2 * 202048.0 * 5120 + 5120,
        109e9, 0.012,
        48, 5120, 40, 8, 128, 8192, 202048, 10485760, 0, 8192, 36, 16, 1,
        48.0 * (2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 5120.0 * 16 + 2 * 3 * 5120.0 * 8192 +
                2 * 5120.0) +
            2 * 202048.0 * 5120 + 5120,
        17e9};
    /* Maverick: 24 dense layers (FFN 3 x 5120 x 16384 = 251,658,240) and
     * 24 MoE layers of 128 experts + 1 shared (router 655,360; experts 128
     * x 125,829,120 = 16,106,127,360): dense 314,583,040 x 24 =
     * 7,549,992,960; MoE 16,295,536,640 x 24 = 391,092,879,360; + 2,068,
     * 976,640 = 400,711,848,960 (card 400B, +0.2 %).  Active: 7,549,992,960
     * + 24 x 315,238,400 + 2,068,976,640 = 17,184,691,200 (card 17B, the
     * rounding +1.1 %: the check is 1.2 %). */
    static const gp_test_model mav = {
        "llama-4-maverick", "llama-4-maverick-17b-128e-instruct-fp8",
        24.0 * (2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 3 * 5120.0 * 16384 + 2 * 5120.0) +
            24.0 * (2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 5120.0 * 128 +
                    129 * 3 * 5120.0 * 8192 + 2 * 5120.0) +
            2 * 202048.0 * 5120 + 5120,
        400e9, 0.012,
        48, 5120, 40, 8, 128, 16384, 202048, 1048576, 0, 8192, 36, 128, 1,
        24.0 * (2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 3 * 5120.0 * 16384 + 2 * 5120.0) +
            24.0 * (2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 5120.0 * 128 +
                    2 * 3 * 5120.0 * 8192 + 2 * 5120.0) +
            2 * 202048.0 * 5120 + 5120,
        17e9};
    const gp_model *m = gp_test_model_check(&scout);
    GP_ASSERT_REL(scout.derived, 107769861120.0, 0);
    GP_ASSERT_REL(scout.active_derived, 17172894720.0, 0);
    GP_ASSERT_REL(m->shared_experts.v, 1.0, 0);
    GP_ASSERT_REL(m->expert_ffn_hidden.v, 8192.0, 0);
    m = gp_test_model_check(&mav);
    GP_ASSERT_REL(mav.derived, 400711848960.0, 0);
    GP_ASSERT_REL(mav.active_derived, 17184691200.0, 0);
    GP_ASSERT_REL(m->dense_layers.v, 24.0, 0);
}
END_TEST

/* ---- aliases --------------------------------------------------------------- */

START_TEST(aliases)
{
    /* Llama 3.3 70B and DeepSeek-R1-Distill-Llama-70B share Llama 3.1 70B's
     * config shapes (vocab 128256, context 131072); the 8B distill is Llama
     * 3.1 8B's; the Qwen distills have Qwen2.5's (vocab 152064, untied,
     * 131072). */
    static const gp_test_name names[] = {
        {"llama-3.3-70b", "llama-3.1-70b"},
        {"llama3.3-70b", "llama-3.1-70b"},
        {"llama-3.3-70b-instruct", "llama-3.1-70b"},
        {"deepseek-r1-distill-llama-70b", "llama-3.1-70b"},
        {"deepseek-r1-distill-llama-8b", "llama-3.1-8b"},
        {"deepseek-r1-distill-qwen-7b", "qwen2.5-7b"},
        {"deepseek-r1-distill-qwen-14b", "qwen2.5-14b"},
        {"deepseek-r1-distill-qwen-32b", "qwen2.5-32b"},
        {"gpt2-small", "gpt2"},
        {"nanogpt-124m", "gpt2"},
        {"gpt-2-xl", "gpt2-xl"},
        {"gpt-j", "gpt-j-6b"},
        {"olmo2-13b", "olmo-2-13b"},
        {"mistral-large-2411", "mistral-large-2"},
    };
    const gp_db *db = gp_test_db();
    const gp_model *m;
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        m = gp_db_find_model(db, names[i].name);
        ck_assert_msg(m != NULL, "%s: not found", names[i].name);
        ck_assert_msg(strcmp(m->id, names[i].id) == 0, "%s: found %s, want %s", names[i].name,
                      m->id, names[i].id);
    }
    /* The shapes behind the distill aliases, restated: 80 x 855,654,400 + 2
     * x 128256 x 8192 + 8192 = 70,553,706,496. */
    m = gp_db_find_model(db, "llama-3.3-70b");
    GP_ASSERT_REL(m->params.v,
                  80.0 * (2 * 8192.0 * 8192 + 2 * 8192.0 * 1024 + 3 * 8192.0 * 28672 +
                          2 * 8192.0) +
                      2 * 128256.0 * 8192 + 8192,
                  1e-12);
    GP_ASSERT_REL(m->vocab.v, 128256, 0);
    GP_ASSERT_REL(m->context.v, 131072, 0);
    m = gp_db_find_model(db, "deepseek-r1-distill-qwen-32b");
    GP_ASSERT_REL(m->params.v, 32763876352.0, 1e-12);
    GP_ASSERT_REL(m->vocab.v, 152064, 0);
}
END_TEST

/* ---- what train infers ------------------------------------------------------ */

START_TEST(ffn_kind)
{
    /* gp_train_shape_from_model keeps the matrix count whose shape-implied
     * total (L x 4 h^2 attention + k x L h f + V h, x 2 untied) lies closer
     * to params.  Worked for three:
     *   gpt2: 12 x 2,359,296 + 50257 x 768 = 66,908,928; k = 2 adds 2 x 12 x
     *   768 x 3072 = 56,623,104: 123,532,032 (params 124,439,808: -0.7 %,
     *   the positions and biases); k = 3: 151,843,584 (+22 %).  -> 2.
     *   GPT-J: 28 x 67,108,864 = 1,879,048,192 + 412,876,800; k = 2 adds
     *   3,758,096,384: 6,050,021,376 (params 6,050,882,784: -0.01 %); k = 3:
     *   7,929,069,568 (+31 %).  -> 2.
     *   OLMo 2 7B: 32 x 67,108,864 = 2,147,483,648 + 822,083,584; k = 2
     *   adds 2 x 32 x 4096 x 11008 = 2,885,681,152: 5,855,248,384 (-20 %);
     *   k = 3: 7,298,088,960 (-0.007 %, the norms).  -> 3. */
    static const char *const two[] = {"gpt2",        "gpt2-medium", "gpt2-large", "gpt2-xl",
                                       "gpt-j-6b",    "pythia-160m", "pythia-1.4b",
                                       "pythia-6.9b", "pythia-12b"};
    static const char *const three[] = {"olmo-2-7b", "olmo-2-13b", "mistral-large-2"};
    size_t i;
    GP_ASSERT_REL(12 * 4 * 768.0 * 768 + 50257.0 * 768, 66908928.0, 0);
    GP_ASSERT_REL(32 * 4 * 4096.0 * 4096 + 2 * 100352.0 * 4096 + 3 * 32 * 4096.0 * 11008,
                  7298088960.0, 0);
    for (i = 0; i < sizeof two / sizeof two[0]; i++)
        ck_assert_msg(gp_test_ffn_matrices(two[i]) == 2.0, "%s: want a non-gated FFN (2 matrices)",
                      two[i]);
    for (i = 0; i < sizeof three / sizeof three[0]; i++)
        ck_assert_msg(gp_test_ffn_matrices(three[i]) == 3.0, "%s: want a gated FFN (3 matrices)",
                      three[i]);
}
END_TEST

START_TEST(train_6n_gpt2)
{
    gp_train_in in;
    gp_train_result r;
    gp_err e;
    char buf[1024];
    const gp_db *db = gp_test_db();

    /* GPT-2 124M, the llm.c / nanoGPT run: 6N = 6 x 124,439,808 =
     * 746,638,848 FLOPs per token; 10e9 tokens (llm.c's FineWeb run) =
     * 7.46638848e18.  The default sequence is the 1,024 context. */
    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(db, "a100-sxm-80gb");
    ck_assert_ptr_nonnull(in.gpu);
    in.model = gp_db_find_model(db, "gpt2");
    in.tokens = 10e9;
    in.mfu = 0.4;
    gp_err_clear(&e);
    ck_assert_msg(gp_train_estimate(&in, NULL, &r, &e) == GP_OK, "%s",
                  gp_err_format(&e, buf, sizeof buf));
    GP_ASSERT_REL(r.model_flop_per_token, 746638848.0, 1e-12);
    GP_ASSERT_REL(r.flop_6nd, 7.46638848e18, 1e-12);
    GP_ASSERT_REL(r.seq, 1024, 0);
    GP_ASSERT_REL(r.shape.ffn_matrices, 2, 0);
}
END_TEST

/* `decode --gpu GPU --gpus N --model MODEL --context C --json`. */
static json_t *decode_json(const char *gpu, const char *gpus, const char *model,
                           const char *context)
{
    const char *argv[] = {"decode", "--gpu",     gpu,     "--gpus", gpus, "--model",
                          model,    "--context", context, "--json", NULL};
    return gp_test_cli_json(argv);
}

START_TEST(cli_kv_cache)
{
    json_t *o;
    /* fp16 KV per token per layer: 2 (K, V) x kv_heads x head_dim x 2 B.
     * GPT-2 124M at its 1,024 context: 2 x 12 x 64 x 2 = 3,072 B x 12 layers
     * = 36,864 B per token; x 1024 = 37,748,736 B (36 MiB). */
    o = decode_json("a100", "1", "gpt2", "1024");
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes_per_token"), 36864.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 37748736.0, 1e-12);
    json_decref(o);

    /* OLMo 2 7B (MHA, 32 KV heads) at 4,096: 2 x 32 x 128 x 2 = 16,384 B x
     * 32 layers = 524,288 B per token; x 4096 = 2,147,483,648 B (2 GiB). */
    o = decode_json("a100", "1", "olmo-2-7b", "4096");
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes_per_token"), 524288.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 2147483648.0, 1e-12);
    json_decref(o);

    /* Mistral Large 2 (8 KV heads) at 32,768 on 4 x H100 (the 245 GB of
     * fp16 weights do not fit one): 2 x 8 x 128 x 2 = 4,096 B x 88 layers =
     * 360,448 B per token; x 32768 = 11,811,160,064 B (11 GiB) in all. */
    o = decode_json("h100", "4", "mistral-large-2", "32768");
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes_per_token"), 360448.0, 1e-12);
    /* (a whole number under 1e15: printed exactly, GP_CLI_NUM_DIGITS) */
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 11811160064.0, 1e-15);
    json_decref(o);
}
END_TEST

Suite *gp_test_suite_models_2027(void)
{
    Suite *s = suite_create("models_2027");
    TCase *tc = tcase_create("shapes");
    tcase_add_test(tc, gpt2_family);
    tcase_add_test(tc, gpt_j);
    tcase_add_test(tc, pythia);
    tcase_add_test(tc, olmo_2);
    tcase_add_test(tc, mistral_large_2);
    tcase_add_test(tc, llama_4);
    tcase_add_test(tc, aliases);
    suite_add_tcase(s, tc);
    tc = tcase_create("train");
    tcase_add_test(tc, ffn_kind);
    tcase_add_test(tc, train_6n_gpt2);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_add_test(tc, cli_kv_cache);
    suite_add_tcase(s, tc);
    return s;
}
