/* Sliding-window attention: positions cached per layer, its inverse, the
 * causal pairs of a prompt, and what the decode planner and the CLI make of
 * them (docs/models/inference.md §1.1).  Every expected number is derived by
 * hand in the comment above its assert. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* Mistral 7B v0.1 (HF config: 32 layers, hidden 4096, 32 heads, 8 KV heads,
 * head_dim 128, ffn 14336, vocab 32000, 32768 positions, sliding_window 4096
 * on every layer), 7.2417e9 params. */
static gp_model mistral(void)
{
    gp_model m;
    memset(&m, 0, sizeof m);
    m.id = "mistral-like";
    m.params.v = 7241732096.0;
    m.layers.v = 32;
    m.hidden.v = 4096;
    m.heads.v = 32;
    m.kv_heads.v = 8;
    m.head_dim.v = 128;
    m.ffn_hidden.v = 14336;
    m.vocab.v = 32000;
    m.context.v = 32768;
    m.window.v = 4096;
    return m;
}

/* Gemma 2 9B's layout: 42 layers alternating local (window 4096) and global,
 * 21 of each. */
static gp_model gemma2_like(void)
{
    gp_model m = mistral();
    m.id = "gemma2-like";
    m.layers.v = 42;
    m.window_layers.v = 21;
    m.context.v = 8192;
    return m;
}

START_TEST(positions_per_layer)
{
    gp_model m = mistral(), g = gemma2_like(), none = mistral(), g3 = mistral();
    none.window.v = 0;
    /* Every layer local: min(C, W). 32768 -> 4096; 1000 -> 1000. */
    GP_ASSERT_REL(gp_model_kv_positions(&m, 32768), 4096.0, 1e-15);
    GP_ASSERT_REL(gp_model_kv_positions(&m, 1000), 1000.0, 1e-15);
    /* No window: the context. */
    GP_ASSERT_REL(gp_model_kv_positions(&none, 32768), 32768.0, 1e-15);
    /* Half local: (21 x 8192 + 21 x 4096) / 42 = 6144; at or below the
     * window every layer holds the context. */
    GP_ASSERT_REL(gp_model_kv_positions(&g, 8192), 6144.0, 1e-15);
    GP_ASSERT_REL(gp_model_kv_positions(&g, 4096), 4096.0, 1e-15);
    GP_ASSERT_REL(gp_model_kv_positions(&g, 2000), 2000.0, 1e-15);
    /* Gemma 3 27B's layout: 62 layers, every sixth global (10), 52 local
     * with a 1024 window; at 131072: (10 x 131072 + 52 x 1024) / 62 =
     * 1363968 / 62 = 21999.48. */
    g3.layers.v = 62;
    g3.window.v = 1024;
    g3.window_layers.v = 52;
    GP_ASSERT_REL(gp_model_kv_positions(&g3, 131072), 1363968.0 / 62.0, 1e-15);
    ck_assert(gp_model_kv_positions(&g3, 0) == 0.0);
    ck_assert(gp_model_kv_positions(NULL, 100) == 100.0);
}
END_TEST

START_TEST(context_from_positions)
{
    gp_model m = mistral(), g = gemma2_like();
    /* The inverse: (42 x 6144 - 21 x 4096) / 21 = 172032 / 21 = 8192. */
    GP_ASSERT_REL(gp_model_kv_context(&g, 6144), 8192.0, 1e-15);
    GP_ASSERT_REL(gp_model_kv_context(&g, 3000), 3000.0, 1e-15);
    /* All local: any number of positions at or above the window holds an
     * unbounded context; below it, the context is the positions. */
    ck_assert(isinf(gp_model_kv_context(&m, 4096)));
    GP_ASSERT_REL(gp_model_kv_context(&m, 3000), 3000.0, 1e-15);
    /* Round trip at a few contexts. */
    GP_ASSERT_REL(gp_model_kv_context(&g, gp_model_kv_positions(&g, 100000)), 100000.0, 1e-12);
}
END_TEST

START_TEST(prompt_pairs)
{
    gp_model m = mistral(), g = gemma2_like();
    /* Full causal: P^2 / 2 = 4096^2 / 2 = 8388608 within the window. */
    GP_ASSERT_REL(gp_model_attn_pairs(&m, 4096), 8388608.0, 1e-15);
    /* P = 8192, W = 4096, all local: W^2/2 + (P - W) W = 8388608 + 16777216
     * = 25165824 (full would be 33554432). */
    GP_ASSERT_REL(gp_model_attn_pairs(&m, 8192), 25165824.0, 1e-15);
    /* Half local: (33554432 + 25165824) / 2 = 29360128. */
    GP_ASSERT_REL(gp_model_attn_pairs(&g, 8192), 29360128.0, 1e-15);
}
END_TEST

static gp_gpu a100(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "a100-like";
    g.mem_bw.v = 2039e9;
    g.eff_mem.v = 0.88;
    g.clock_boost.v = 1410e6;
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 19.5e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 312e12;
    g.mem_capacity.v = 80.0 * 1073741824.0;
    g.mem_usable.v = 81920.0 * 1048576.0;
    return g;
}

START_TEST(decode_caps_the_cache)
{
    gp_model m = mistral(), g2 = gemma2_like();
    gp_gpu g = a100();
    gp_infer_params p;
    gp_infer_result r;
    gp_err e;
    double kv_tok, free1, pf;
    gp_infer_params_init(&p);
    p.gpu = &g;
    p.model = &m;
    p.context = 32768;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    /* KV per token: 2 x 32 layers x 8 heads x 128 x 2 B = 131072 B; the
     * window caps the cache at 4096 positions: 536870912 B (not 4 GiB). */
    GP_ASSERT_REL(r.kv_bytes_per_token, 131072.0, 1e-15);
    GP_ASSERT_REL(r.kv_positions, 4096.0, 1e-15);
    GP_ASSERT_REL(r.kv_bytes, 536870912.0, 1e-12);
    /* Attention reads 4096 positions: 4 x 32 x 32 x 128 x 4096 = 2147483648. */
    GP_ASSERT_REL(r.attn_flop, 2147483648.0, 1e-12);
    /* Every layer local: no context runs out of memory. */
    ck_assert(isinf(r.max_context));
    /* Prefill of 8192 tokens: each runs the layers, 2 x (7241732096 - 2 x
     * 32000 x 4096 = 6979588096) x 8192 = 1.14353e14; the last one the
     * output layer, 2 x 131072000; attention 4 x 32 x 32 x 128 x 25165824
     * pairs = 1.31941e13: 1.27548e14 FLOP. */
    p.prompt = 8192;
    p.context = 8192;
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    pf = 2.0 * 6979588096.0 * 8192.0 + 2.0 * 131072000.0 +
         4.0 * 32.0 * 32.0 * 128.0 * 25165824.0;
    GP_ASSERT_REL(r.prefill_flop, pf, 1e-12);

    /* Half local at batch 16: the largest context is the inverse of the
     * free memory.  Weights 7241732096 x 2 B (embeddings untied, at fp16
     * like the body); runtime 1 GiB; usable 80 GiB.  KV per token for 42
     * layers: 2 x 42 x 8 x 128 x 2 = 172032 B. */
    p.model = &g2;
    p.prompt = 0;
    p.context = 8192;
    p.batch = 16;
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    kv_tok = 172032.0;
    GP_ASSERT_REL(r.kv_bytes, 16.0 * 6144.0 * kv_tok, 1e-12);
    free1 = 81920.0 * 1048576.0 - 7241732096.0 * 2.0 - 1073741824.0;
    /* positions = free1 / (16 x 172032) = 24.23e3; context = (42 pos - 21 x
     * 4096) / 21 = 2 pos - 4096. */
    ck_assert(fabs(r.max_context - floor(2.0 * free1 / (16.0 * kv_tok) - 4096.0)) <= 1.0);
    /* and that context fits while one more position per layer would not. */
    p.context = r.max_context;
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    ck_assert(r.fits);
    /* Two more tokens of context are one more position per layer on
     * average (half the layers are local): 16 x 172032 B more, which the
     * floor left no room for. */
    p.context += 2.0;
    ck_assert_int_eq(gp_infer_eval(&p, &r, &e), GP_OK);
    ck_assert(!r.fits);
}
END_TEST

static json_t *decode(const char *const *args, int *rc)
{
    const char *argv[24];
    char *out = NULL;
    size_t i = 0, j;
    json_t *o;
    argv[i++] = "decode";
    for (j = 0; args[j] != NULL && i < 22; j++)
        argv[i++] = args[j];
    argv[i++] = "--json";
    argv[i] = NULL;
    *rc = gp_test_cli(argv, &out, NULL);
    o = out != NULL ? json_loads(out, 0, NULL) : NULL;
    free(out);
    return o;
}

START_TEST(cli_window)
{
    int rc;
    json_t *o;
    const char *a1[] = {"--gpu", "a100", "--model", "mistral-7b", "--context", "32768", NULL};
    const char *a2[] = {"--gpu", "a100", "--model", "mistral-7b", "--context", "32768",
                        "--window", "0", NULL};
    const char *a3[] = {"--gpu", "a100", "--model", "mistral-7b", "--context", "32768",
                        "--window-layers", "16", NULL};
    const char *a4[] = {"--gpu", "a100", "--params", "7B", "--layers", "32", "--kv-heads", "8",
                        "--heads", "32", "--hidden", "4096", "--context", "32768", "--window",
                        "8192", NULL};
    const char *bad[][12] = {
        {"decode", "--gpu", "a100", "--model", "mistral-7b", "--window-layers", "40", NULL},
        {"decode", "--gpu", "a100", "--model", "mistral-7b", "--window", "0", "--window-layers",
         "4", NULL},
        {"decode", "--gpu", "a100", "--model", "llama-2-7b", "--window-layers", "4", NULL},
        {"decode", "--gpu", "a100", "--model", "mistral-7b", "--window", "-5", NULL},
        /* a --params model's window needs its depth */
        {"decode", "--gpu", "a100", "--params", "7B", "--window", "4096", NULL},
        /* fewer layers than the model's windowed ones: names --layers */
        {"decode", "--gpu", "a100", "--model", "gemma-2-9b", "--layers", "20", NULL},
    };
    size_t i;
    /* The database's Mistral 7B: 131072 B per token (above) x 4096. */
    o = decode(a1, &rc);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_positions"), 4096.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 536870912.0, 1e-12);
    json_decref(o);
    /* --window 0: an engine that ignores the window caches 32768 x 131072. */
    o = decode(a2, &rc);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 4294967296.0, 1e-12);
    json_decref(o);
    /* Half the layers local: (16 x 32768 + 16 x 4096) / 32 = 18432
     * positions x 131072 = 2415919104 B. */
    o = decode(a3, &rc);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_positions"), 18432.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 2415919104.0, 1e-12);
    json_decref(o);
    /* A --params model given a window: 8192 x 131072 = 1073741824 B. */
    o = decode(a4, &rc);
    ck_assert_int_eq(rc, 0);
    GP_ASSERT_REL(gp_test_jnum(o, "kv_bytes"), 1073741824.0, 1e-12);
    json_decref(o);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *err = NULL;
        rc = gp_test_cli(bad[i], NULL, &err);
        ck_assert_msg(rc == 2, "case %zu: exit %d", i, rc);
        ck_assert_msg(err != NULL && strstr(err, "--window") != NULL, "case %zu: %s", i,
                      err ? err : "(null)");
        free(err);
    }
}
END_TEST

Suite *gp_test_suite_window(void)
{
    Suite *s = suite_create("window");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, positions_per_layer);
    tcase_add_test(tc, context_from_positions);
    tcase_add_test(tc, prompt_pairs);
    tcase_add_test(tc, decode_caps_the_cache);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_add_test(tc, cli_window);
    suite_add_tcase(s, tc);
    return s;
}
