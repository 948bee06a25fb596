/* Hugging Face config.json import of the architectures of 2025-26 the
 * importer learned after its first families: MiniMax-M2, OLMo 2 and 3,
 * Seed-OSS, ERNIE 4.5 MoE, Llama 4, DeepSeek-V3.2, Hunyuan (A13B), Qwen3.5
 * and Apertus.  Each
 * fixture in tests/data/hf names its source in its test; every count is
 * asserted against the hand arithmetic in the comment and, where the
 * publisher gives a figure, within 1 % of it (or the gap is said and
 * explained).  MODEL: docs/hwdb.md "Importing a Hugging Face config.json". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* `hw import-model FILE --as ID` into dir, asserting exit 0 and no
 * "not one gpuplan knows" warning; the JSON object (caller decrefs) and, when
 * err is not NULL, stderr (caller frees). */
static json_t *imp(const char *dir, const char *file, const char *as, char **err)
{
    json_t *o = NULL;
    char *e = NULL;
    int rc = gp_test_import_model(dir, file, as, &o, &e);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", file, rc, e ? e : "");
    ck_assert_ptr_nonnull(o);
    ck_assert_msg(e == NULL || strstr(e, "is not one gpuplan knows") == NULL, "%s: %s", file, e);
    if (err != NULL)
        *err = e;
    else
        free(e);
    return o;
}

/* o[obj][key] as a number (NaN when absent). */
static double jget(const json_t *o, const char *obj, const char *key)
{
    return gp_test_jnum(json_object_get(o, obj), key);
}

/* Refused with exit 2, stderr naming the file and holding `want`, and
 * nothing written into dir. */
static void refused(const char *dir, const char *file, const char *want)
{
    char *err = NULL, *before = gp_test_dir_listing(dir), *after;
    json_t *o = NULL;
    int rc = gp_test_import_model(dir, file, "refused", &o, &err);
    ck_assert_msg(rc == 2, "%s: exit %d (%s)", file, rc, err ? err : "");
    ck_assert_msg(err != NULL && strstr(err, file) != NULL && strstr(err, want) != NULL,
                  "'%s' lacks '%s'", err ? err : "", want);
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    json_decref(o);
    free(err);
    free(before);
    free(after);
}

/* MiniMax-M2 (tests/data/hf/minimax-m2.json: MiniMaxAI/MiniMax-M2's
 * config.json, https://huggingface.co/MiniMaxAI/MiniMax-M2/blob/main/config.json,
 * as copied verbatim in public code -- its attn_type_list of 62 ones as
 * another copy spells it).  The count is count_qk_norm_full's
 * (check_hfimport.c): per layer attention 44,040,192 + q/k norms over the
 * whole projections 6,144 + 1,024 = 44,047,360, router 3072 x 256 + 256
 * (use_routing_bias: e_score_correction_bias) = 786,688, 256 experts x
 * 14,155,776 = 3,623,878,656, norms 6,144: 3,668,718,848; x 62 +
 * 2 x 200064 x 3072 + 3072 = 228,689,764,864, the shipped entry's (model
 * card: 230B, -0.57 %).  Active 158,086,400 a layer x 62 + both embeddings
 * 1,229,193,216 + 3,072 = 11,030,553,088 (9,801,359,872 without them: the
 * card's 10B, -2.0 %).  mlp_intermediate_size 8192 belongs to no layer
 * (every layer MoE), shared_intermediate_size is 0. */
START_TEST(minimax_m2)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    static const char M2[] = "tests/data/hf/minimax-m2.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, M2, "m2", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 228689764864.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 11030553088.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 230e9, 0.01);
    GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 1536.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "experts"), 256.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "shared"), 0.0, 0);
    ck_assert(json_is_null(json_object_get(o, "window")));
    ck_assert(json_is_null(json_object_get(o, "linear")));
    ck_assert_int_eq((int)json_array_size(json_object_get(o, "warnings")), 0);
    json_decref(o);
    /* No routing bias: 62 x 256 = 15,872 fewer. */
    f = gp_test_json_edit(dir, "m2-nobias", M2, "{\"use_routing_bias\": false}");
    o = imp(dir, f, "m2nb", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 228689764864.0 - 15872.0, 0);
    json_decref(o);
    /* Lightning (linear) attention layers: not MiniMax-M2's; refused. */
    refused(dir,
            gp_test_json_edit(dir, "m2-light", M2,
                              "{\"attn_type_list\": [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, "
                              "0, 1]}"),
            "key 'attn_type_list': 14 of its 16 layers are lightning attention (0), which "
            "MiniMax-M2 does not have");
    refused(dir, gp_test_json_edit(dir, "m2-qkn", M2, "{\"qk_norm_type\": \"per_head\"}"),
            "key 'qk_norm_type': 'per_head' is not 'per_layer'");
    refused(dir, gp_test_json_edit(dir, "m2-list", M2, "{\"attn_type_list\": 1}"),
            "key 'attn_type_list': expected a list of 0 (lightning attention) and 1");
    refused(dir, gp_test_json_edit(dir, "m2-item", M2, "{\"attn_type_list\": [1, 2]}"),
            "key 'attn_type_list': item 1 is not 0 (lightning attention) or 1");
    /* A shared expert or a per-layer window it does not build: warned. */
    f = gp_test_json_edit(dir, "m2-shared", M2,
                          "{\"shared_intermediate_size\": 1024, \"attn_window_size\": 4096}");
    o = imp(dir, f, "m2s", &err);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 228689764864.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "shared_intermediate_size 1024: MiniMax-M2 builds no "
                                      "shared expert"));
    ck_assert_ptr_nonnull(strstr(err, "attn_window_size: a per-layer attention window is not "
                                      "read"));
    json_decref(o);
    free(err);
    /* MiniMax-01 / M1's hybrid (model_type minimax): its lightning layers
     * warned and priced as attention, not refused. */
    f = gp_test_json_edit(dir, "m1", M2,
                          "{\"model_type\": \"minimax\", \"attn_type_list\": [0, 0, 0, 0, 0, 0, "
                          "0, 1], \"num_hidden_layers\": 8}");
    ck_assert_int_eq(gp_test_import_model(dir, f, "m1", &o, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "attn_type_list: 7 of 8 layers are MiniMax lightning "
                                      "attention, a linear attention gpuplan does not model"));
    json_decref(o);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* OLMo 2 and 3: q/k RMSNorms over the whole projections (q_norm H d, k_norm
 * K d), norms after attention and FFN (two a layer, as before them).
 * tests/data/hf/olmo-2-7b.json: allenai/OLMo-2-1124-7B's keys as the shipped
 * entry quotes them.  Attention 4 x 4096^2 = 67,108,864 + q/k norms 4096 +
 * 4096 = 8,192; FFN 3 x 4096 x 11008 = 135,266,304; norms 8,192: 202,391,552
 * a layer; x 32 = 6,476,529,664 + 2 x 100352 x 4096 = 822,083,584 + 4,096 =
 * 7,298,617,344: the Hugging Face safetensors count of the checkpoint
 * exactly (the shipped entry's ckpt_count).
 * tests/data/hf/olmo-3-32b.json: allenai/Olmo-3-1125-32B's shape as
 * rasbt/LLMs-from-scratch ch05/13_olmo3/standalone-olmo3.ipynb transcribes
 * it (OLMO3_CONFIG_32B: hidden 5120, 64 layers, 40 heads, 8 KV heads of
 * 128, FFN 27648, vocabulary 100278, context 65536, window 4096 on three
 * of every four layers, RMSNorm eps 1e-6), untied as a public test of its
 * config.json checks.  Attention 5120 x 5120 (q) + 2 x 5120 x 1024 (k, v)
 * + 5120 x 5120 (o) = 62,914,560 + q/k norms 5120 + 1024 = 6,144; FFN 3 x
 * 5120 x 27648 = 424,673,280; norms 10,240: 487,604,224 a layer; x 64 =
 * 31,206,670,336 + 2 x 100278 x 5120 = 1,026,846,720 + 5,120 =
 * 32,233,522,176 (Ai2's 32B, +0.73 %). */
START_TEST(olmo)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    static const char O3[] = "tests/data/hf/olmo-3-32b.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, "tests/data/hf/olmo-2-7b.json", "o2", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 7298617344.0, 0);
    ck_assert(json_is_null(json_object_get(o, "window")));
    json_decref(o);
    o = imp(dir, O3, "o3", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 32233522176.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 32e9, 0.01);
    GP_ASSERT_REL(jget(o, "window", "tokens"), 4096.0, 0);
    GP_ASSERT_REL(jget(o, "window", "layers"), 48.0, 0);
    json_decref(o);
    /* Without layer_types, Olmo3Config's rule (layer i global when (i + 1)
     * % 4 == 0): the same 48; without sliding_window its 4096, warned. */
    f = gp_test_json_edit(dir, "o3-nolt", O3, "{\"layer_types\": null, \"sliding_window\": null}");
    o = imp(dir, f, "o3d", &err);
    GP_ASSERT_REL(jget(o, "window", "tokens"), 4096.0, 0);
    GP_ASSERT_REL(jget(o, "window", "layers"), 48.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "no sliding_window: transformers' Olmo3Config default 4096"));
    json_decref(o);
    free(err);
    /* Olmo 3 7B (the notebook's OLMO3_CONFIG_7B): OLMo 2 7B's shape with
     * the vocabulary 100278: 7,298,617,344 - 2 x 74 x 4096 = 7,298,011,136. */
    f = gp_test_json_edit(dir, "o3-7b", O3,
                          "{\"hidden_size\": 4096, \"intermediate_size\": 11008, "
                          "\"num_attention_heads\": 32, \"num_key_value_heads\": 32, "
                          "\"num_hidden_layers\": 32, \"layer_types\": null}");
    o = imp(dir, f, "o37", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 7298011136.0, 0);
    GP_ASSERT_REL(jget(o, "window", "layers"), 24.0, 0);
    json_decref(o);
    /* use_qk_norm false (a config that says so) drops them: 64 x 6,144. */
    f = gp_test_json_edit(dir, "o3-noqk", O3, "{\"use_qk_norm\": false}");
    o = imp(dir, f, "o3n", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 32233522176.0 - 64.0 * 6144.0, 0);
    json_decref(o);
    gp_test_rmtree(dir);
}
END_TEST

/* Seed-OSS-36B (tests/data/hf/seed-oss-36b.json: ByteDance-Seed's
 * Seed-OSS-36B config.json as public ports transcribe it, with
 * SeedOssConfig's bias keys, attention_bias true and attention_out_bias
 * false): q/k/v biases, none on o_proj.  Attention 5120 x 10240 (q) + 2 x
 * 5120 x 1024 (k, v) + 10240 x 5120 (o) = 115,343,360 + biases 10240 +
 * 2 x 1024 = 12,288; FFN 3 x 5120 x 27648 = 424,673,280; norms 10,240:
 * 540,039,168 a layer; x 64 = 34,562,506,752 + 2 x 155136 x 5120 =
 * 1,588,592,640 + 5,120 = 36,151,104,512 (ByteDance's 36B, +0.42 %).  The
 * importer without the family counted an o_proj bias too (64 x 5,120 =
 * 327,680 more). */
START_TEST(seed_oss)
{
    char dir[256];
    json_t *o;
    static const char S[] = "tests/data/hf/seed-oss-36b.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, S, "seed", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 36151104512.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 36e9, 0.01);
    GP_ASSERT_REL(gp_test_jnum(o, "head_dim"), 128.0, 0);
    json_decref(o);
    o = imp(dir, gp_test_json_edit(dir, "seed-ob", S, "{\"attention_out_bias\": true}"), "sob",
            NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 36151104512.0 + 327680.0, 0);
    json_decref(o);
    gp_test_rmtree(dir);
}
END_TEST

/* ERNIE-4.5-21B-A3B (tests/data/hf/ernie-4.5-21b-a3b.json:
 * baidu/ERNIE-4.5-21B-A3B-PT's config.json as public ports copy it).  Its
 * experts are moe_num_experts / moe_k / moe_num_shared_experts, on layers
 * moe_layer_start_index 1 to moe_layer_end_index 27 (Ernie4_5_MoeConfig;
 * the importer without the family took it for dense: 3,347,724,800).
 * Attention 2560 x 2560 (q) + 2 x 2560 x 512 (k, v) + 2560 x 2560 (o) =
 * 15,728,640; norms 5,120.  Layer 0: + FFN 3 x 2560 x 12288 = 94,371,840:
 * 110,105,600.  Layers 1-27: + router 2560 x 64 + 64 (moe_statics'
 * e_score_correction_bias) = 163,904 + 64 experts x 3 x 2560 x 1536 (=
 * 11,796,480) = 754,974,720 + the shared MLP of 2 x 1536, 23,592,960:
 * 794,465,344.  Total 110,105,600 + 27 x 794,465,344 = 21,450,564,288 +
 * 103424 x 2560 (tied) = 264,765,440 + 2,560 = 21,825,437,888.  Active:
 * 15,728,640 + 5,120 + 163,904 + 6 x 11,796,480 + 23,592,960 = 110,269,504
 * a MoE layer; x 27 + 110,105,600 + 264,765,440 + 2,560 = 3,352,150,208.
 * Baidu's card gives 21B total and 3B activated: rounded down (the count
 * is 3.9 % above 21B, 21.8B; no unrounded figure is published). */
START_TEST(ernie45)
{
    char dir[256], *err = NULL;
    json_t *o;
    const char *f;
    static const char E[] = "tests/data/hf/ernie-4.5-21b-a3b.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, E, "ernie", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 21825437888.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 3352150208.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 21.8e9, 0.01);
    GP_ASSERT_REL(jget(o, "moe", "experts"), 64.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "active"), 6.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "shared"), 2.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "dense_layers"), 1.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 12288.0, 0);
    json_decref(o);
    /* moe_layer_end_index null or -1: the last layer, the same. */
    o = imp(dir, gp_test_json_edit(dir, "e-end", E, "{\"moe_layer_end_index\": -1}"), "e1", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 21825437888.0, 0);
    json_decref(o);
    /* ERNIE-4.5-300B-A47B's start 3: 3 dense, 25 MoE layers here:
     * 3 x 110,105,600 + 25 x 794,465,344 + 264,768,000 = 20,456,718,400. */
    o = imp(dir, gp_test_json_edit(dir, "e-start", E, "{\"moe_layer_start_index\": 3}"), "e3",
            NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 20456718400.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "dense_layers"), 3.0, 0);
    json_decref(o);
    /* moe_layer_interval 2: MoE on the odd layers 1..27 (14), dense on the
     * even (14), not leading (warned): 14 x 794,465,344 + 14 x 110,105,600 +
     * 264,768,000 = 12,928,761,216. */
    f = gp_test_json_edit(dir, "e-int", E, "{\"moe_layer_interval\": 2}");
    o = imp(dir, f, "e2", &err);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 12928761216.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "dense_layers"), 14.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "13 of the 14 dense layers are not the leading ones"));
    json_decref(o);
    free(err);
    /* use_bias: every projection biased; the lm_head's bias warned. */
    o = imp(dir, gp_test_json_edit(dir, "e-bias", E, "{\"use_bias\": true}"), "eb", &err);
    ck_assert_ptr_nonnull(strstr(err, "use_bias: the lm_head bias"));
    ck_assert(gp_test_jnum(o, "params") > 21825437888.0);
    json_decref(o);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* Llama 4 (tests/data/hf/llama-4-scout.json: meta-llama/Llama-4-Scout-17B-16E's
 * config.json, text_config as a public vLLM test transcribes it, the
 * vision tower trimmed): the shipped entries' counts.  Scout: attention
 * 62,914,560 (the L2 q/k norm has no weights), router 5120 x 16 = 81,920,
 * 16 experts of 3 x 5120 x 8192 = 125,829,120 and one shared expert of the
 * same width, norms 10,240: 2,202,101,760 a layer; x 48 + 2 x 202048 x
 * 5120 + 5120 = 107,769,861,120 (card, with the vision tower: 109B);
 * active 314,664,960 a layer, 17,172,894,720 (card: 17B, +1.0 %).  Its 36
 * RoPE layers attend in 8,192-token chunks: written as a window on 36 of
 * 48 layers.  The importer without the family counted 101,730,075,648 (no
 * shared expert). */
START_TEST(llama4)
{
    char dir[256], *err = NULL;
    json_t *o;
    static const char S[] = "tests/data/hf/llama-4-scout.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, S, "scout", &err);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 107769861120.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 17172894720.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 17e9, 0.011);
    GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 8192.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "shared"), 1.0, 0);
    GP_ASSERT_REL(jget(o, "window", "tokens"), 8192.0, 0);
    GP_ASSERT_REL(jget(o, "window", "layers"), 36.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "Llama 4's chunked attention (8192-token chunks on 36 of 48 "
                                      "layers) is written as a sliding window"));
    json_decref(o);
    free(err);
    /* Maverick (the shipped entry's keys: 128 experts, MoE on every second
     * layer, 1M context): 24 dense layers of 62,914,560 + 3 x 5120 x 16384
     * + 10,240 = 314,583,040 and 24 MoE layers of 62,914,560 + 655,360 +
     * 129 x 125,829,120 + 10,240 = 16,295,536,640; + 2,068,976,640 =
     * 400,711,848,960 (card: 400B, +0.18 %); active 17,184,691,200. */
    {
        /* text_config edited in place: the fixture's, three keys changed. */
        json_error_t je;
        json_t *root = json_load_file(S, 0, &je), *tc;
        char path[512];
        ck_assert_ptr_nonnull(root);
        tc = json_object_get(root, "text_config");
        json_object_set_new(tc, "num_local_experts", json_integer(128));
        json_object_set_new(tc, "interleave_moe_layer_step", json_integer(2));
        json_object_set_new(tc, "max_position_embeddings", json_integer(1048576));
        snprintf(path, sizeof path, "%s/maverick.json", dir);
        ck_assert_int_eq(json_dump_file(root, path, 0), 0);
        o = imp(dir, path, "mav", NULL);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 400711848960.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 17184691200.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 400e9, 0.01);
        GP_ASSERT_REL(jget(o, "moe", "dense_layers"), 24.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "ffn_hidden"), 16384.0, 0);
        json_decref(o);
        /* The same layers as a moe_layers list (1, 3, .., 47, and one out
         * of range, dropped). */
        {
            json_t *ml = json_array();
            int i;
            for (i = 1; i < 48; i += 2)
                json_array_append_new(ml, json_integer(i));
            json_array_append_new(ml, json_integer(99));
            json_object_set_new(tc, "moe_layers", ml);
            json_object_set_new(tc, "interleave_moe_layer_step", json_integer(1));
        }
        ck_assert_int_eq(json_dump_file(root, path, 0), 0);
        o = imp(dir, path, "mav2", NULL);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 400711848960.0, 0);
        json_decref(o);
        /* Chunking off (attention_chunk_size null): no window. */
        json_object_set_new(tc, "attention_chunk_size", json_null());
        ck_assert_int_eq(json_dump_file(root, path, 0), 0);
        o = imp(dir, path, "mav3", NULL);
        ck_assert(json_is_null(json_object_get(o, "window")));
        json_decref(o);
        /* moe_layers not a list: refused at the key. */
        json_object_set_new(tc, "moe_layers", json_string("odd"));
        ck_assert_int_eq(json_dump_file(root, path, 0), 0);
        refused(dir, path, "key 'moe_layers': expected a list of layer numbers (got a string)");
        json_decref(root);
    }
    gp_test_rmtree(dir);
}
END_TEST

/* DeepSeek-V3.2 (tests/data/hf/deepseek-v3.2.json: deepseek-ai's
 * config.json as huggingface/transformers keeps it,
 * src/transformers/models/deepseek_v32/deepseek_files/config.json): the
 * count is count_lightning_indexer's, DeepSeek-V3's 671,026,419,200 + 61
 * indexers of 13,959,424 = 671,877,944,064 (the V3 paper's 671B, +0.13 %;
 * the V3.2 card's 685B adds the 14B multi-token-prediction module, not
 * counted).  Active: V3's 37,552,297,472 + 851,524,864 = 38,403,822,336.
 * DeepSeek Sparse Attention's top-k attention and the indexer's key cache
 * are not modelled: warned. */
START_TEST(deepseek_v32)
{
    char dir[256], *err = NULL;
    json_t *o;
    static const char D[] = "tests/data/hf/deepseek-v3.2.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, D, "dsv32", &err);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 671877944064.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 38403822336.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 671e9, 0.01);
    ck_assert_str_eq(json_string_value(json_object_get(o, "attention")), "mla");
    GP_ASSERT_REL(gp_test_jnum(o, "kv_dim"), 576.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "DeepSeek Sparse Attention: each query attends to "
                                      "index_topk 2048 positions"));
    json_decref(o);
    free(err);
    /* index_topk without the indexer's heads (another family's sparse
     * attention): warned, nothing counted for it. */
    o = imp(dir, gp_test_json_edit(dir, "dsv32-noheads", D, "{\"index_n_heads\": null}"), "dsnh",
            &err);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 671026419200.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "index_topk 2048 without index_n_heads"));
    json_decref(o);
    free(err);
    /* An indexer without its width: refused at the key. */
    refused(dir, gp_test_json_edit(dir, "dsv32-nodim", D, "{\"index_head_dim\": null}"),
            "missing key 'index_head_dim' (the lightning indexer's head width)");
    gp_test_rmtree(dir);
}
END_TEST

/* Hunyuan-A13B (tests/data/hf/hunyuan-a13b.json: tencent/Hunyuan-A13B-Instruct's
 * config.json as a public port's test fixture copies it, per-layer lists
 * and all; that copy leaves out max_position_embeddings, so the context is
 * 2048, warned, which no count reads).  moe_topk, moe_intermediate_size and
 * num_shared_expert are lists of one value a layer.  Attention 4096 x 4096
 * (q) + 2 x 4096 x 1024 (k, v) + 4096 x 4096 (o) = 41,943,040 + per-head
 * q/k norms 2 x 128 = 41,943,296; router 4096 x 64 = 262,144; 64 experts
 * of 3 x 4096 x 3072 = 37,748,736: 2,415,919,104; the shared MLP
 * (use_mixed_mlp_moe, 1 x 3072) 37,748,736; norms 8,192: 2,495,881,472 a
 * layer; x 32 = 79,868,207,104 + 128167 x 4096 (tied) = 524,972,032 +
 * 4,096 = 80,393,183,232 (Tencent: 80B, +0.49 %).  Active 41,943,296 +
 * 262,144 + 8 x 37,748,736 + 37,748,736 + 8,192 = 381,952,256; x 32 +
 * 524,976,128 = 12,747,448,320 (Tencent: 13B, -1.9 %).  The importer
 * without the family refused it (no num_experts_per_tok). */
START_TEST(hunyuan)
{
    char dir[256], *err = NULL;
    json_t *o;
    static const char H[] = "tests/data/hf/hunyuan-a13b.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, H, "hy", &err);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 80393183232.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 12747448320.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 80e9, 0.01);
    GP_ASSERT_REL(jget(o, "moe", "active"), 8.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "shared"), 1.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "expert_ffn_hidden"), 3072.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "head_dim"), 128.0, 0);
    ck_assert_ptr_nonnull(strstr(err, "context 2048 assumed"));
    json_decref(o);
    free(err);
    /* transformers' model_type hunyuan_v1_moe: the same rules. */
    o = imp(dir, gp_test_json_edit(dir, "hy-v1", H, "{\"model_type\": \"hunyuan_v1_moe\"}"),
            "hyv1", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 80393183232.0, 0);
    json_decref(o);
    /* Without use_mixed_mlp_moe no shared MLP: 32 x 37,748,736 =
     * 1,207,959,552 fewer, 79,185,223,680. */
    o = imp(dir, gp_test_json_edit(dir, "hy-nomix", H, "{\"use_mixed_mlp_moe\": false}"), "hynm",
            NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 79185223680.0, 0);
    json_decref(o);
    /* One expert (Hunyuan-7B's num_experts 1): the dense MLP of
     * intermediate_size 3072: 41,943,296 + 37,748,736 + 8,192 = 79,700,224
     * a layer; x 32 + 524,976,128 = 3,075,383,296. */
    o = imp(dir,
            gp_test_json_edit(dir, "hy-dense", H,
                              "{\"num_experts\": 1, \"use_mixed_mlp_moe\": false, "
                              "\"moe_topk\": [1]}"),
            "hyd", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 3075383296.0, 0);
    ck_assert(json_is_null(json_object_get(o, "moe")));
    json_decref(o);
    /* Cross-layer attention: warned, each layer counted with its own K/V. */
    o = imp(dir, gp_test_json_edit(dir, "hy-cla", H, "{\"use_cla\": true}"), "hyc", &err);
    ck_assert_ptr_nonnull(strstr(err, "use_cla: cross-layer attention"));
    json_decref(o);
    free(err);
    /* Per-layer values that differ: refused, naming the layer. */
    refused(dir, gp_test_json_edit(dir, "hy-topk", H, "{\"moe_topk\": [8, 8, 4]}"),
            "key 'moe_topk': layer 2 has 4, layer 0 8: per-layer values that differ are not "
            "modelled");
    refused(dir, gp_test_json_edit(dir, "hy-empty", H, "{\"moe_topk\": []}"),
            "key 'moe_topk': an empty list");
    refused(dir, gp_test_json_edit(dir, "hy-str", H, "{\"num_shared_expert\": [1, \"1\"]}"),
            "key 'num_shared_expert': item 1: expected a whole number, got a string");
    gp_test_rmtree(dir);
}
END_TEST

/* Qwen3.5 (Qwen3_5MoeForConditionalGeneration / Qwen3_5ForConditionalGeneration):
 * Qwen3-Next's decoder -- Gated DeltaNet on three of every four layers,
 * gated attention with per-head q/k norms on the fourth (Qwen3_5Attention is
 * Qwen3NextAttention), its in_proj split in four with the same widths -- in
 * a text_config.  tests/data/hf/qwen3.5-35b-a3b.json: Qwen/Qwen3.5-35B-A3B's
 * text_config as a public config inventory (snapshot ec2d4ec) and a
 * loader's copy of "the real 35B config.json" give it;
 * max_position_embeddings 262144 as a public copy of the Qwen3.5-27B
 * text_config gives it; the vision tower trimmed.
 * Per attending layer: q and gate 2048 x 2 x 16 x 256 = 16,777,216, k, v 2
 * x 2048 x 512 = 2,097,152, o 4096 x 2048 = 8,388,608, q/k norms 512:
 * 27,263,488; per linear layer the Gated DeltaNet 33,718,464 (as
 * Qwen3-Next's, check_linear.c); MoE router 2048 x 256 = 524,288 + 256
 * experts of 3 x 2048 x 512 = 3,145,728 (805,306,368) + shared 3,145,728 +
 * its gate 2,048: 808,978,432; norms 4,096.  Total 10 x 27,263,488 +
 * 30 x 33,718,464 + 40 x 808,982,528 + 2 x 248320 x 2048 + 2048 =
 * 272,634,880 + 1,011,553,920 + 32,359,301,120 + 1,017,118,720 + 2,048 =
 * 34,660,610,688 (Qwen: 35B, -0.97 %; its vision tower and MTP layer not
 * counted).  Active: 40 x (524,288 + 8 x 3,145,728 + 3,147,776 + 4,096 =
 * 28,841,984) + 1,284,188,800 + 1,017,120,768 = 3,454,988,928 (3B
 * activated).  The importer without the family took the attention
 * without its q/k norms (10 x 512 fewer) and warned of an unknown type. */
START_TEST(qwen3_5)
{
    char dir[256];
    json_t *o;
    static const char Q[] = "tests/data/hf/qwen3.5-35b-a3b.json";
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, Q, "q35", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 34660610688.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params_active"), 3454988928.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 35e9, 0.01);
    GP_ASSERT_REL(jget(o, "linear", "layers"), 30.0, 0);
    GP_ASSERT_REL(jget(o, "linear", "state"), 548864.0, 0);
    GP_ASSERT_REL(jget(o, "moe", "shared"), 1.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "context"), 262144.0, 0);
    /* Only the text_config note: no FFN-width guess for an all-MoE model. */
    ck_assert_int_eq((int)json_array_size(json_object_get(o, "warnings")), 1);
    json_decref(o);
    /* The gate does not hang on attn_output_gate: the class always builds
     * it. */
    o = imp(dir,
            gp_test_json_edit(dir, "q35-nogatekey", NULL,
                              "{\"model_type\": \"qwen3_5_moe_text\", \"hidden_size\": 2048, "
                              "\"num_hidden_layers\": 40, \"num_attention_heads\": 16, "
                              "\"num_key_value_heads\": 2, \"head_dim\": 256, "
                              "\"vocab_size\": 248320, \"max_position_embeddings\": 262144, "
                              "\"tie_word_embeddings\": false, \"num_experts\": 256, "
                              "\"num_experts_per_tok\": 8, \"moe_intermediate_size\": 512, "
                              "\"shared_expert_intermediate_size\": 512, "
                              "\"linear_num_key_heads\": 16, \"linear_num_value_heads\": 32, "
                              "\"linear_key_head_dim\": 128, \"linear_value_head_dim\": 128, "
                              "\"linear_conv_kernel_dim\": 4}"),
            "q35b", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 34660610688.0, 0);
    json_decref(o);
    /* Qwen3.5-27B, dense (qwen3_5_text; its keys as a public copy of the
     * config gives them): h 5120, 64 layers (48 Gated DeltaNet with 48
     * value heads), 24 heads, 4 KV heads of 256, FFN 17408.  Attention 5120
     * x 2 x 6144 + 2 x 5120 x 1024 + 6144 x 5120 + 512 = 104,858,112; Gated
     * DeltaNet 5120 x 16384 + 5120 x 96 + 10240 x 4 + 96 + 128 + 6144 x
     * 5120 = 115,876,064; FFN 3 x 5120 x 17408 = 267,386,880 + norms
     * 10,240.  16 x 104,858,112 + 48 x 115,876,064 + 64 x 267,397,120 +
     * 2 x 248320 x 5120 + 5120 = 26,895,998,464 (Qwen: 27B, -0.39 %). */
    {
        char lt[2048] = "{\"model_type\": \"qwen3_5_text\", \"vocab_size\": 248320, "
                        "\"hidden_size\": 5120, \"intermediate_size\": 17408, "
                        "\"num_hidden_layers\": 64, \"num_attention_heads\": 24, "
                        "\"num_key_value_heads\": 4, \"head_dim\": 256, "
                        "\"max_position_embeddings\": 262144, \"tie_word_embeddings\": false, "
                        "\"linear_conv_kernel_dim\": 4, \"linear_key_head_dim\": 128, "
                        "\"linear_value_head_dim\": 128, \"linear_num_key_heads\": 16, "
                        "\"linear_num_value_heads\": 48, \"layer_types\": [";
        int i;
        for (i = 0; i < 64; i++)
            strcat(lt, (i + 1) % 4 ? "\"linear_attention\"," : "\"full_attention\",");
        lt[strlen(lt) - 1] = '\0';
        strcat(lt, "]}");
        o = imp(dir, gp_test_json_edit(dir, "q27", NULL, lt), "q27", NULL);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 26895998464.0, 0);
        GP_ASSERT_REL(gp_test_jnum(o, "params"), 27e9, 0.01);
        GP_ASSERT_REL(jget(o, "linear", "layers"), 48.0, 0);
        GP_ASSERT_REL(jget(o, "linear", "mixer_params"), 115876064.0, 0);
        json_decref(o);
    }
    gp_test_rmtree(dir);
}
END_TEST

/* Apertus-8B (tests/data/hf/apertus-8b.json: swiss-ai/Apertus-8B's
 * config.json as a public Go port's TestParseConfigApertus8B copies it):
 * ApertusMLP is up and down around xIELU (plain, 2 h f), ApertusAttention
 * has per-head q/k RMSNorms, RMSNorms without biases
 * (huggingface/transformers models/apertus/modular_apertus.py).  Attention
 * 2 x 4096^2 + 2 x 4096 x 1024 = 41,943,040 + q/k norms 256; FFN 2 x 4096 x
 * 21504 = 176,160,768; norms 8,192: 218,112,256 a layer; x 32 =
 * 6,979,592,192 + 2 x 131072 x 4096 = 1,073,741,824 + 4,096 =
 * 8,053,338,112 (Swiss AI: 8B, +0.67 %).  xIELU's two learnable scalars a
 * layer (alpha_p, alpha_n: 64 in all) are not counted.  The importer
 * without the family missed the q/k norms (8,192) and warned of an
 * unknown type. */
START_TEST(apertus)
{
    char dir[256];
    json_t *o;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    o = imp(dir, "tests/data/hf/apertus-8b.json", "ap8", NULL);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 8053338112.0, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "params"), 8e9, 0.01);
    ck_assert_int_eq((int)json_array_size(json_object_get(o, "warnings")), 0);
    json_decref(o);
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_hfarch(void)
{
    Suite *s = suite_create("hfarch");
    TCase *tc = tcase_create("import");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, minimax_m2);
    tcase_add_test(tc, olmo);
    tcase_add_test(tc, seed_oss);
    tcase_add_test(tc, ernie45);
    tcase_add_test(tc, llama4);
    tcase_add_test(tc, deepseek_v32);
    tcase_add_test(tc, hunyuan);
    tcase_add_test(tc, qwen3_5);
    tcase_add_test(tc, apertus);
    suite_add_tcase(s, tc);
    return s;
}
