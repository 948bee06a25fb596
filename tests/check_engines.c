/* Engine profiles for server and quantised-kernel engines (vLLM / SGLang /
 * LMDeploy, TensorRT-LLM / NIM, ExLlamaV2) against the published batch-1
 * rows they were built or checked on (docs/models/inference.md §4, §8.1),
 * and the names people call them by.  Expected numbers are derived by hand
 * in the comments; measured values are quoted from their sources. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

START_TEST(aliases_resolve)
{
    static const char *const pairs[][2] = {
        {"exl2", "exllamav2"},   {"ExLlamaV2", "exllamav2"},  {"exllama2", "exllamav2"},
        {"exllamav1", "exllama"}, {"SGLang", "vllm"},          {"lmdeploy", "vllm"},
        {"TurboMind", "vllm"},    {"TGI", "vllm"},             {"NIM", "tensorrt-llm"},
        {"trt", "tensorrt-llm"},  {"transformers", "hf-transformers"}, {"default", "generic"},
        {"ollama", "llama.cpp"},  {"torch.compile", "gpt-fast"}, {"MLC-LLM", "mlc"},
        {"ggml", "llama.cpp"},    {"LM Studio", "llama.cpp"},  {"trtllm", "tensorrt-llm"},
        {"TensorRT", "tensorrt-llm"}, {"gpt-fast-compile", "gpt-fast"},
        {"text-generation-inference", "vllm"}, {"HuggingFace", "hf-transformers"},
        {"PyTorch", "hf-transformers"}, {"mlx-lm", "mlx"},    {"mlx_lm", "mlx"},
        {"LM Studio MLX", "mlx"},   {"mlx-engine", "mlx"},  {"MLX", "mlx"},
    };
    size_t i;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const gp_engine *en = gp_engine_find(pairs[i][0]);
        ck_assert_msg(en != NULL, "'%s' resolves to nothing", pairs[i][0]);
        ck_assert_str_eq(en->id, pairs[i][1]);
    }
    /* Every engine is found by its own id. */
    for (i = 0; i < gp_engine_count(); i++)
        ck_assert_ptr_eq(gp_engine_find(gp_engine_at(i)->id), gp_engine_at(i));
}
END_TEST

static json_t *decode(const char *const *args)
{
    const char *argv[32];
    size_t i = 0, j;
    argv[i++] = "--json";
    argv[i++] = "decode";
    for (j = 0; args[j] != NULL && i < 31; j++)
        argv[i++] = args[j];
    argv[i] = NULL;
    return gp_test_cli_json(argv);
}

/* A published batch-1 row: its name, the measured tokens/s per stream and
 * the decode arguments that price it. */
typedef struct prow {
    const char *name;
    double measured;
    const char *args[32];
} prow;

/* Each row below its ceiling and its expected figure within rtol. */
/* Each row's expected figure (JSON `key`) within rtol of its measurement,
 * and the measurement no better than the ceiling (`ceil_key`): below it for
 * a rate (time = 0), above it for a time (time = 1). */
static void check_rows_of(const prow *rows, size_t n, double rtol, const char *key,
                          const char *ceil_key, int time)
{
    size_t i;
    for (i = 0; i < n; i++) {
        json_t *j = decode(rows[i].args);
        double exp, ceil;
        ck_assert_msg(j != NULL, "%s: no JSON", rows[i].name);
        exp = gp_test_jnum(j, key);
        ceil = gp_test_jnum(j, ceil_key);
        ck_assert_msg(time ? rows[i].measured > ceil : rows[i].measured < ceil,
                      "%s: measured %.4g beyond the ceiling %.4g", rows[i].name,
                      rows[i].measured, ceil);
        ck_assert_msg(fabs(exp / rows[i].measured - 1.0) <= rtol,
                      "%s: expected %.4g vs measured %.4g", rows[i].name, exp,
                      rows[i].measured);
        json_decref(j);
    }
}

static void check_rows(const prow *rows, size_t n, double rtol)
{
    check_rows_of(rows, n, rtol, "expected_tokens_per_s", "ceiling_tokens_per_s", 0);
}

/* ExLlamaV2, RTX 4090, Llama 2 7B at EXL2 4.0 bpw, context 128 (turboderp/
 * exllamav2 README: 207 t/s).  By hand, from the database's figures:
 *   body: (6738415616 - 2 x 32000 x 4096) params x 4/8 = 3238135808 B;
 *   lm_head at fp16: 32000 x 4096 x 2 = 262144000 B, + one input row 8192 B;
 *   weights read 3500288000 B at 1008e9 x 0.96 x 0.92 (eff_quant) B/s;
 *   KV 128 x 524288 = 67108864 B and activations 32 x (10 x 4096 + 4 x
 *   11008) x 2 = 5439488 B at 1008e9 x 0.96 x 0.90 (eff_float);
 *   overhead 32 layers x 38 us x 2 / 2.52 GHz.
 * memory = 3.93175 ms + 0.08330 ms; + 0.96508 ms = 4.98013 ms: 200.80 t/s. */
START_TEST(exllamav2_worked_row)
{
    const char *a[] = {"--gpu", "rtx-4090", "--model", "llama-2-7b", "--weights", "4.0",
                       "--context", "128", "--engine", "exllamav2", NULL};
    json_t *j = decode(a);
    double bw = 1008e9 * 0.96;
    double step = 3500288000.0 / (bw * 0.92) + (67108864.0 + 5439488.0) / (bw * 0.90) +
                  32.0 * 38e-6 * 2.0 / 2.52;
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 3500288000.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 1.0 / step, 1e-6);
    /* and the measurement: within 3 %. */
    ck_assert(fabs(gp_test_jnum(j, "expected_tokens_per_s") / 207.0 - 1.0) < 0.03);
    json_decref(j);
}
END_TEST

/* gpt-fast, A100 SXM 80GB (2039 GB/s x 0.88 achievable, boost 1.41 GHz),
 * Llama 2 7B bf16, context 100 (gpt-fast README: 5-token prompt + ~200
 * generated, 104.9 t/s at 330 W).  By hand:
 *   weights: body (6738415616 - 2 x 32000 x 4096) x 2 = 12952543232 B +
 *     lm_head 32000 x 4096 x 2 = 262144000 B + one input row 8192 B =
 *     13214695424 B at 2039e9 x 0.88 x 0.88 (eff_float) = 8.36902 ms;
 *   KV 100 x 524288 = 52428800 B + activations 32 x (10 x 4096 + 4 x 11008)
 *     x 2 = 5439488 B at the same rate = 0.03665 ms;
 *   overhead 32 layers x 32 us x 2 / 1.41 = 1.45248 ms;
 *   step 9.85815 ms: 101.44 t/s (-3.3 %). */
START_TEST(gpt_fast_worked_row)
{
    const char *a[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "bf16",
                       "--context", "100", "--engine", "gpt-fast", NULL};
    json_t *j = decode(a);
    double bw = 2039e9 * 0.88 * 0.88;
    double step = 13214695424.0 / bw + (52428800.0 + 5439488.0) / bw + 32.0 * 32e-6 * 2.0 / 1.41;
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 13214695424.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 1.0 / step, 1e-6);
    GP_ASSERT_REL(1.0 / step, 101.44, 1e-3);
    json_decref(j);
}
END_TEST

/* The 15 rows the gpt-fast profile was fitted to (least squares in log,
 * docs/models/inference.md §4 and §8.1; pytorch-labs/gpt-fast README and its
 * mixtral-moe README, A100 80GB at 330 W, context ~100): the fit leaves each
 * within 9 % (rms 5.3 %); the profile it replaced (0.85 / 0.70 / 38 us) read
 * every dense row low, to -15 %. */
START_TEST(gpt_fast_fit_rows)
{
#define GF(m, w, g) {"--gpu", "a100-sxm-80gb", "--model", m, "--weights", w, "--gpus", g, \
                     "--context", "100", "--engine", "gpt-fast", NULL}
    static const prow rows[] = {
        {"7b bf16", 104.9, GF("llama-2-7b", "bf16", "1")},
        {"7b int8", 155.58, GF("llama-2-7b", "int8", "1")},
        {"7b int4-g32", 196.8, GF("llama-2-7b", "5", "1")},
        {"70b int8", 19.13, GF("llama-2-70b", "int8", "1")},
        {"70b int4-g32", 25.25, GF("llama-2-70b", "5", "1")},
        {"7b bf16 tp2", 168.84, GF("llama-2-7b", "bf16", "2")},
        {"7b bf16 tp4", 254.02, GF("llama-2-7b", "bf16", "4")},
        {"7b bf16 tp8", 328.43, GF("llama-2-7b", "bf16", "8")},
        {"70b bf16 tp2", 21.32, GF("llama-2-70b", "bf16", "2")},
        {"70b bf16 tp4", 38.01, GF("llama-2-70b", "bf16", "4")},
        {"70b bf16 tp8", 62.50, GF("llama-2-70b", "bf16", "8")},
        {"mixtral int8", 97.92, GF("mixtral-8x7b", "int8", "1")},
        {"mixtral bf16 tp2", 96.67, GF("mixtral-8x7b", "bf16", "2")},
        {"mixtral bf16 tp4", 155.35, GF("mixtral-8x7b", "bf16", "4")},
        {"mixtral bf16 tp8", 227.82, GF("mixtral-8x7b", "bf16", "8")},
    };
#undef GF
    check_rows(rows, sizeof rows / sizeof rows[0], 0.09);
}
END_TEST

/* MLC's q4f16_1 names its engine and quantises the lm_head too (mlc-llm
 * quantization.py: quantize_final_fc).  RTX 4090, Llama 2 7B, context 135
 * (llm-perf-bench: ~7-token prompt + 256 generated), by hand:
 *   body (6738415616 - 2 x 32000 x 4096) x 4.5/8 = 3642902784 B; lm_head
 *     32000 x 4096 x 4.5/8 = 73728000 B + one input row 4096 x 4.5/8 = 2304
 *     B: 3716633088 B at 1008e9 x 0.96 x 0.99 (eff_quant) = 3.879559 ms;
 *   KV 135 x 524288 = 70778880 B + activations 5439488 B at 1008e9 x 0.96 x
 *     0.90 = 0.087516 ms; overhead 32 x 32 us x 2 / 2.52 = 0.812698 ms;
 *   step 4.779773 ms: 209.21 t/s against 204.8 measured (+2.2 %).
 * The profile's least squares over llm-perf-bench's four q4f16_1 rows
 * (docs/models/inference.md §4) leaves each within 5 % (3090 Ti 13B -4.6 %). */
START_TEST(mlc_q4f16_1_rows)
{
    const char *a[] = {"--gpu", "rtx-4090", "--model", "llama-2-7b", "--weights", "q4f16_1",
                       "--context", "135", NULL};
    static const prow rows[] = {
        {"mlc 4090 llama-2-13b", 113.5,
         {"--gpu", "rtx-4090", "--model", "llama-2-13b", "--weights", "q4f16_1", "--context",
          "135", NULL}},
        {"mlc 3090 ti llama-2-7b", 186.7,
         {"--gpu", "rtx-3090-ti", "--model", "llama-2-7b", "--weights", "q4f16_1", "--context",
          "135", NULL}},
        {"mlc 3090 ti llama-2-13b", 107.4,
         {"--gpu", "rtx-3090-ti", "--model", "llama-2-13b", "--weights", "q4f16_1", "--context",
          "135", NULL}},
    };
    json_t *j = decode(a);
    double bw = 1008e9 * 0.96;
    double step = 3716633088.0 / (bw * 0.99) + (70778880.0 + 5439488.0) / (bw * 0.90) +
                  32.0 * 32e-6 * 2.0 / 2.52;
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "mlc");
    GP_ASSERT_REL(gp_test_jnum(j, "lm_head_bytes"), 73728000.0 + 2304.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 3716633088.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), step, 1e-6);
    ck_assert(fabs(gp_test_jnum(j, "expected_tokens_per_s") / 204.8 - 1.0) < 0.04);
    json_decref(j);
    check_rows(rows, sizeof rows / sizeof rows[0], 0.05);
}
END_TEST

/* The GGUF types llama-quantize offers, priced so a whole file matches the
 * sizes its QUANT_OPTIONS table publishes for Llama-3-8B (8,030,261,248
 * params; embedding and output matrix 128256 x 4096 = 525,336,576 each, the
 * output at Q6_K, 6.5625 bits):
 *   Q5_0, 5.5 bits a block (2-byte scale + 4 bytes of 5th bits + 16 of
 *     nibbles per 32): (7,504,924,672 x 5.5 + 525,336,576 x 6.5625) / 8 =
 *     5,590,575,872 B = 5.2066 GiB against 5.21 (-0.07 %);
 *   a mix (Q3_K_M, 3.74 GiB) stores its published size by construction:
 *     bits (3.74 x 2^30 x 8 - 3,447,521,280) / 7,504,924,672 = 3.8213;
 *   IQ2_XXS, 66 bytes per 256 = 2.0625 bits, keeps its output at Q5_K
 *     (priced at q5_k_s's bits);
 * and the MLC formats their word packing: q3f16_1 10 three-bit codes a
 * uint32, 40 to a group + an fp16 scale: (4 x 32 + 16) / 40 = 3.6 bits. */
START_TEST(gguf_and_mlc_formats)
{
    const gp_db *db = gp_test_db();
    const double gib = 1073741824.0, body = 8030261248.0 - 525336576.0;
    const char *q50[] = {"--gpu", "rtx-4090", "--model", "llama-3-8b", "--weights", "q5_0", NULL};
    const char *q3m[] = {"--gpu", "rtx-4090", "--model", "llama-3-8b", "--weights", "Q3_K",
                         NULL};
    json_t *j = decode(q50);
    GP_ASSERT_REL(gp_db_find_format(db, "q5_0")->bits.v, 22.0 * 8 / 32, 0);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes"), 5590575872.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes") / gib, 5.21, 1e-3);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp");
    json_decref(j);
    j = decode(q3m);
    GP_ASSERT_REL(gp_db_find_format(db, "q3_k_m")->bits.v,
                  (3.74 * gib * 8 - 525336576.0 * 6.5625) / body, 3e-4); /* yaml: 3 decimals */
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes") / gib, 3.74, 1e-4);
    json_decref(j);
    GP_ASSERT_REL(gp_db_find_format(db, "iq2_xxs")->bits.v, 66.0 * 8 / 256, 0);
    ck_assert_str_eq(gp_db_find_format(db, "iq2_xxs")->output_id, "q5_k_s");
    GP_ASSERT_REL(gp_db_find_format(db, "iq4_xs")->bits.v, 136.0 * 8 / 256, 0);
    /* Q5_K_S and Q3_K_S are (almost) pure: their other tensors come out at
     * the Q5_K and Q3_K block figures, 176 and 110 bytes per 256 weights. */
    GP_ASSERT_REL(gp_db_find_format(db, "q5_k_s")->bits.v, 176.0 * 8 / 256, 2e-3);
    GP_ASSERT_REL(gp_db_find_format(db, "q3_k_s")->bits.v, 110.0 * 8 / 256, 2e-3);
    GP_ASSERT_REL(gp_db_find_format(db, "q3f16_1")->bits.v, (4.0 * 32 + 16) / 40, 0);
    GP_ASSERT_REL(gp_db_find_format(db, "q4f32_1")->bits.v, (4.0 * 32 + 32) / 32, 0);
    ck_assert_str_eq(gp_db_find_format(db, "q4f16_1")->engine, "mlc");
}
END_TEST

/* Published batch-1 decode, per engine (docs/models/inference.md §8.1 for the
 * sources and the rows left out).  Each must land within 15 % of its
 * measurement and below the ceiling. */
START_TEST(published_rows)
{
    static const prow rows[] = {
        /* vLLM 0.21.0, H100-80GB-HBM3, Llama 3.1 8B fp16: TPOT p50 6.48 ms
         * (yobitelcomm InferenceBench, concurrency sweep, chatbot-short). */
        {"vllm h100 llama-3.1-8b", 1000.0 / 6.48,
         {"--gpu", "h100", "--model", "llama-3.1-8b", "--weights", "fp16", "--context", "600",
          "--engine", "vllm", NULL}},
        /* vLLM v0.11.0, one H100 SXM, Qwen3-8B BF16 (36 layers, 4096 wide, 32
         * heads, 8 KV, ffn 12288, vocab 151936): median TPOT 7.22 ms
         * (gpustack docs/performance-lab/qwen3-8b/h100-latency.md, BS=1). */
        {"vllm h100 qwen3-8b", 1000.0 / 7.22,
         {"--gpu", "h100", "--params", "8.19B", "--layers", "36", "--hidden", "4096", "--heads",
          "32", "--kv-heads", "8", "--head-dim", "128", "--ffn", "12288", "--vocab", "151936",
          "--weights", "bf16", "--context", "340", "--engine", "sglang", NULL}},
        /* LMDeploy TurboMind, A100-80G, Llama 2 13B FP16, 1 in / 128 out:
         * 57.49 tok/s (InternLM/lmdeploy docs/en/benchmark/a100_fp16.md). */
        {"lmdeploy a100 llama-2-13b", 57.49,
         {"--gpu", "a100", "--model", "llama-2-13b", "--weights", "fp16", "--context", "64",
          "--engine", "lmdeploy", NULL}},
        /* LMDeploy TurboMind, RTX 4090, Llama 2 13B AWQ 4-bit, 1 in / 512 out:
         * 115.8 tok/s (InternLM/lmdeploy docs/en/quantization/w4a16.md). */
        {"lmdeploy 4090 llama-2-13b awq", 115.8,
         {"--gpu", "4090", "--model", "llama-2-13b", "--weights", "awq-int4-g128", "--context",
          "256", "--engine", "lmdeploy", NULL}},
        /* TensorRT-LLM v0.5.0, A100 SXM 80GB, GPT-J 6B FP16 (28 layers, 4096
         * wide, 16 heads of 256, ffn 16384, vocab 50400), batch 1: 111 out
         * tok/s (TensorRT-LLM docs/source/blogs/H100vsA100.md). */
        {"trt a100 gpt-j fp16", 111.0,
         {"--gpu", "a100", "--params", "6.05B", "--layers", "28", "--hidden", "4096", "--heads",
          "16", "--kv-heads", "16", "--head-dim", "256", "--ffn", "16384", "--vocab", "50400",
          "--weights", "fp16", "--context", "192", "--engine", "tensorrt-llm", NULL}},
        /* NIM 1.8.0, 2 x H100 80G TP2, Llama 3.3 70B FP8 (the Llama 3.1 70B
         * shape), 5000 in / 500 out, concurrency 1: ITL 18.58 ms. */
        {"nim 2xh100 llama-3.3-70b fp8", 1000.0 / 18.58,
         {"--gpu", "h100", "--model", "llama-3.1-70b", "--weights", "fp8-e4m3", "--gpus", "2",
          "--context", "5250", "--engine", "nim", NULL}},
        /* ExLlamaV2 README, RTX 4090: Llama 2 70B EXL2 2.5 bpw 37 t/s; Llama 2
         * 13B GPTQ 111 t/s; CodeLlama 34B (48 layers, 8192 wide, 64 heads, 8
         * KV, ffn 22016) EXL2 4.0 bpw 50 t/s (not used in the fit). */
        {"exl2 4090 llama-2-70b 2.5bpw", 37.0,
         {"--gpu", "4090", "--model", "llama-2-70b", "--weights", "2.5", "--context", "128",
          "--engine", "exl2", NULL}},
        {"exl2 4090 llama-2-13b gptq", 111.0,
         {"--gpu", "4090", "--model", "llama-2-13b", "--weights", "gptq-int4-g128", "--context",
          "128", "--engine", "exllamav2", NULL}},
        {"exl2 4090 codellama-34b 4.0bpw", 50.0,
         {"--gpu", "4090", "--params", "33.74B", "--layers", "48", "--hidden", "8192", "--heads",
          "64", "--kv-heads", "8", "--head-dim", "128", "--ffn", "22016", "--vocab", "32000",
          "--weights", "4.0", "--context", "128", "--engine", "exllamav2", NULL}},
    };
    check_rows(rows, sizeof rows / sizeof rows[0], 0.15);
}
END_TEST

/* llama.cpp off CUDA (docs/models/inference.md §4, "llama.cpp off CUDA").
 * Worked by hand: the SYCL profile, Arc B580, Llama 2 7B Q4_0, context 64
 * (the engine implied by the GGUF format, run as its SYCL backend on an
 * Intel GPU):
 *   body (6738415616 - 2 x 32000 x 4096) x 4.5/8 = 3642902784 B; output
 *     matrix at Q6_K 32000 x 4096 x 6.5625/8 = 107520000 B + one input row
 *     4096 x 4.5/8 = 2304 B; KV 64 x 524288 = 33554432 B; activations 32 x
 *     (10 x 4096 + 4 x 11008) x 2 = 5439488 B: 3789419008 B at 456e9 x 0.96
 *     x 0.90 = 393.984e9 B/s = 9.61821 ms;
 *   compute: 13248241660 FLOP at 79.356 TFLOP/s (0.16695 ms) + dequant 8 x
 *     6476271616 = 51810172928 FLOP on the fp32 cores at 9.9212 TFLOP/s
 *     (5.22217 ms) = 5.38912 ms < memory;
 *   overhead 32 x 260 us x 2 / 2.85 GHz = 5.83860 ms;
 *   step 15.45681 ms: 64.696 t/s (PR #13885 measured 65.13, one of the two
 *   rows the profile was solved from). */
START_TEST(non_cuda_llama_cpp)
{
    const char *b580[] = {"--gpu", "intel-arc-b580", "--model", "llama-2-7b", "--weights",
                          "q4_0", "--context", "64", NULL};
    static const prow rows[] = {
        /* RX 7900 XTX, "llama 8B Q4_K_M" tg64 (context 0 .. 63):
         * 105.75 t/s (ggml-org/llama.cpp PR #26284, HIP, 2026). */
        {"rocm 7900xtx 8b q4_k_m", 105.75,
         {"--gpu", "rx-7900-xtx", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--context",
          "32", NULL}},
        /* MI210, Llama 2 7B Q4_0 tg128: 124.51 t/s (discussion #15021). */
        {"rocm mi210 llama-2-7b q4_0", 124.51,
         {"--gpu", "mi210", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          NULL}},
        /* Ryzen AI Max+ 395, a Llama 3.x 70B Q4_K_M tg128: 4.464 t/s HIP,
         * 5.057 Vulkan (lhl/strix-halo-testing llm-bench summaries). */
        {"hip strix 70b q4_k_m", 4.464,
         {"--gpu", "ryzen-ai-max-395", "--model", "llama-3.1-70b", "--weights", "q4_k_m",
          "--context", "64", "--engine", "ollama", NULL}},
        {"vulkan strix 70b q4_k_m", 5.057,
         {"--gpu", "ryzen-ai-max-395", "--model", "llama-3.1-70b", "--weights", "q4_k_m",
          "--context", "64", "--engine", "llama.cpp-vulkan", NULL}},
        /* RTX 4090, Vulkan, Llama 3.2 3B Q4_K_M: 334.67 t/s (geerlingguy/
         * ai-benchmarks README). */
        {"vulkan 4090 3b q4_k_m", 334.67,
         {"--gpu", "rtx-4090", "--model", "llama-3.2-3b", "--weights", "q4_k_m", "--context",
          "64", "--engine", "llama.cpp-vulkan", NULL}},
    };
    json_t *j = decode(b580);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp-sycl");
    ck_assert(json_is_true(json_object_get(j, "engine_backend")));
    ck_assert(json_is_true(json_object_get(j, "engine_implied")));
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 1.0 / 15.45681e-3, 1e-5);
    json_decref(j);
    check_rows(rows, sizeof rows / sizeof rows[0], 0.15);
    /* The CUDA profile stays on NVIDIA, and a named backend is kept. */
    ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp"), NULL),
                     gp_engine_find("llama.cpp"));
    ck_assert_str_eq(gp_engine_find("llama.cpp-hip")->id, "llama.cpp-rocm");
    {
        const gp_db *db = gp_test_db();
        const gp_engine *cu = gp_engine_find("llama.cpp"), *vk = gp_engine_find("vulkan ");
        ck_assert_ptr_null(vk);
        vk = gp_engine_find("llama.cpp-vulkan");
        ck_assert_ptr_eq(gp_engine_for_gpu(cu, gp_db_find_gpu(db, "rtx-4090")), cu);
        ck_assert_str_eq(gp_engine_for_gpu(cu, gp_db_find_gpu(db, "mi300x"))->id,
                         "llama.cpp-rocm");
        ck_assert_ptr_eq(gp_engine_for_gpu(vk, gp_db_find_gpu(db, "mi300x")), vk);
        ck_assert_str_eq(gp_engine_for_gpu(gp_engine_find("sglang"), gp_db_find_gpu(db, "mi300x"))
                             ->id,
                         "vllm-rocm");
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("vllm"), gp_db_find_gpu(db, "h100")),
                         gp_engine_find("vllm"));
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("tensorrt-llm"),
                                           gp_db_find_gpu(db, "mi300x")),
                         gp_engine_find("tensorrt-llm"));
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp-2023"),
                                           gp_db_find_gpu(db, "mi300x")),
                         gp_engine_find("llama.cpp-2023"));
    }
    {
        /* Vendors as a user's entry may spell them, none, and a caller's own
         * profile that happens to be called "llama.cpp" (kept as given). */
        gp_gpu g;
        gp_engine own = *gp_engine_find("llama.cpp");
        const gp_engine *cu = gp_engine_find("llama.cpp");
        memset(&g, 0, sizeof g);
        ck_assert_ptr_eq(gp_engine_for_gpu(cu, &g), cu);
        g.vendor = "amd";
        ck_assert_str_eq(gp_engine_for_gpu(cu, &g)->id, "llama.cpp-rocm");
        g.vendor = "Advanced Micro Devices, Inc.";
        ck_assert_str_eq(gp_engine_for_gpu(cu, &g)->id, "llama.cpp-rocm");
        g.vendor = "Intel Corporation";
        ck_assert_str_eq(gp_engine_for_gpu(cu, &g)->id, "llama.cpp-sycl");
        g.vendor = "AMDx Corp"; /* the vendor is a whole word */
        ck_assert_ptr_eq(gp_engine_for_gpu(cu, &g), cu);
        g.vendor = "Intelligent Widgets";
        ck_assert_ptr_eq(gp_engine_for_gpu(cu, &g), cu);
        g.vendor = "Intel Corporation";
        ck_assert_ptr_eq(gp_engine_for_gpu(&own, &g), &own);
        ck_assert_ptr_null(gp_engine_for_gpu(NULL, &g));
    }
    {
        /* Named on an AMD GPU: not implied, replaced, and the request kept;
         * on NVIDIA nothing is replaced. */
        const char *amd[] = {"--gpu", "mi300x", "--model", "llama-2-7b", "--weights", "q4_0",
                             "--engine", "llama.cpp", NULL};
        const char *nv[] = {"--gpu", "rtx-4090", "--model", "llama-2-7b", "--weights", "q4_0",
                            NULL};
        json_t *x = decode(amd), *y = decode(nv);
        ck_assert_str_eq(json_string_value(json_object_get(x, "engine")), "llama.cpp-rocm");
        ck_assert_str_eq(json_string_value(json_object_get(x, "engine_requested")), "llama.cpp");
        ck_assert(json_is_false(json_object_get(x, "engine_implied")));
        ck_assert(json_is_true(json_object_get(x, "engine_backend")));
        ck_assert_str_eq(json_string_value(json_object_get(y, "engine")), "llama.cpp");
        ck_assert(json_is_false(json_object_get(y, "engine_backend")));
        json_decref(x);
        json_decref(y);
    }
}
END_TEST

/* decode's JSON for argv holds one warning, which says both texts, and
 * prices its KV cache at kv_bytes. */
static void one_kv_warning(const char **argv, const char *says, const char *and_says,
                           double kv_bytes)
{
    json_t *j = gp_test_cli_json(argv);
    const char *w;
    ck_assert_ptr_nonnull(j);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "warnings")), 1);
    w = json_string_value(json_array_get(json_object_get(j, "warnings"), 0));
    ck_assert_msg(strstr(w, says) != NULL && strstr(w, and_says) != NULL, "%s", w);
    GP_ASSERT_REL(gp_test_jnum(j, "kv_bytes"), kv_bytes, 1e-12);
    json_decref(j);
}

/* llama.cpp on Apple silicon (docs/models/inference.md §4, "llama.cpp off
 * CUDA"): the Nov 2023 Metal profile, llama.cpp-metal-2023, fitted to
 * llama.cpp discussion #4167 (build 8e672ef), named on each row (the
 * default Metal profile is the current builds', apple_metal_current_rows).
 * Worked by hand: M2 Ultra (76-core GPU), Llama 2 7B Q4_0, context 64:
 *   bytes as the B580 row above: 3642902784 + 107520000 + 2304 + 33554432 +
 *     5439488 = 3789419008 B at 800e9 x 0.795 (efficiency.memory) x 1.0
 *     (eff_quant) = 636e9 B/s: 5.958206 ms;
 *   compute: (13248241660 + 8 x 6476271616) FLOP at 76 x 256 x 1.398e9 x
 *     0.67 = 18.2233 TFLOP/s: 3.5699 ms < memory;
 *   overhead 32 x 95 us x 2 / 1.398 GHz = 4.349070 ms;
 *   step 10.307276 ms: 97.019 t/s (#4167 measured 94.27 at tg128). */
START_TEST(apple_metal_rows)
{
    const char *m2u[] = {"--gpu", "M2 Ultra", "--model", "llama-2-7b", "--weights", "q4_0",
                         "--context", "64", "--engine", "llama.cpp-metal-2023", NULL};
    static const prow rows[] = {
        /* llama.cpp discussion #4167, LLaMA 7B v2, llama-bench tg128 (the
         * profile's fit rows; context 0 .. 127). */
        {"metal m1 8c q4_0", 14.15,
         {"--gpu", "apple-m1", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m1 max 32c f16", 23.03,
         {"--gpu", "apple-m1-max", "--model", "llama-2-7b", "--weights", "fp16", "--context",
          "64", "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m2 pro 19c f16", 13.06,
         {"--gpu", "m2-pro", "--model", "llama-2-7b", "--weights", "fp16", "--context", "64",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m3 max 40c q8_0", 42.75,
         {"--gpu", "m3-max", "--model", "llama-2-7b", "--weights", "q8_0", "--context", "64",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m3 ultra 80c q4_0", 92.14,
         {"--gpu", "m3-ultra", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m4 10c q4_0", 24.11,
         {"--gpu", "m4", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m4 pro 20c q4_0", 50.74,
         {"--gpu", "m4-pro", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m4 max 40c q4_0", 83.06,
         {"--gpu", "Apple M4 Max (40-core GPU)", "--model", "llama-2-7b", "--weights", "q4_0",
          "--context", "64", "--engine", "llama.cpp-metal-2023", NULL}},
        /* Not fitted: XiongjieDai/GPU-Benchmarks-on-LLM-Inference README,
         * llama.cpp (Metal) eval speed, Dec 2023 (1024 generated: context
         * ~512) and May 2024 (llama-bench tg512: context ~256). */
        {"metal m2 ultra 70b q4_0 (xd)", 14.37,
         {"--gpu", "M2 Ultra 76-Core GPU", "--model", "llama-2-70b", "--weights", "q4_0",
          "--context", "512", "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m2 ultra 70b f16 (xd)", 4.81,
         {"--gpu", "m2-ultra", "--model", "llama-2-70b", "--weights", "fp16", "--context", "512",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m3 max 7b q4_0 (xd)", 63.11,
         {"--gpu", "m3-max", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "512",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m3 max llama-3-70b q4_k_m (xd)", 7.53,
         {"--gpu", "m3-max", "--model", "llama-3-70b", "--weights", "q4_k_m", "--context", "256",
          "--engine", "llama.cpp-metal-2023", NULL}},
        {"metal m2 ultra llama-3-8b f16 (xd)", 36.25,
         {"--gpu", "m2-ultra", "--model", "llama-3-8b", "--weights", "fp16", "--context", "256",
          "--engine", "llama.cpp-metal-2023", NULL}},
        /* Not fitted, mixture of experts (the per-MoE-layer figure is the
         * CUDA profile's, assumed): gpt-oss MXFP4 tg128, llama.cpp
         * discussion #15396 (Aug 2025 builds, as transcribed in a public
         * research log), priced with the current builds' default profile:
         * +7 %, +7 %, -3 %, +7 %.  "M4 Max 36GB" is the 32-core part, the
         * only one sold with 36 GB. */
        {"metal m2 ultra gpt-oss-20b", 116.08,
         {"--gpu", "m2-ultra", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe", "--context",
          "64", NULL}},
        {"metal m1 max gpt-oss-20b", 75.15,
         {"--gpu", "m1-max", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe", "--context",
          "64", NULL}},
        {"metal m4 max 32c gpt-oss-20b", 92.36,
         {"--gpu", "m4-max-32c", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe", "--context",
          "64", NULL}},
        {"metal m2 ultra gpt-oss-120b", 79.68,
         {"--gpu", "m2-ultra", "--model", "gpt-oss-120b", "--weights", "mxfp4-moe", "--context",
          "64", NULL}},
    };
    json_t *j = decode(m2u);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "apple-m2-ultra");
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp-metal-2023");
    ck_assert(json_is_false(json_object_get(j, "engine_backend")));
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 10.307276e-3, 1e-5);
    json_decref(j);
    check_rows(rows, sizeof rows / sizeof rows[0], 0.15);
    {
        /* llama.cpp and the default profile run as the Metal build on an
         * Apple GPU; a named other engine is kept. */
        const gp_db *db = gp_test_db();
        const gp_gpu *g = gp_db_find_gpu(db, "apple-m1-max");
        ck_assert_ptr_nonnull(g);
        ck_assert_str_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp"), g)->id, "llama.cpp-metal");
        ck_assert_str_eq(gp_engine_for_gpu(gp_engine_find("ollama"), g)->id, "llama.cpp-metal");
        ck_assert_str_eq(gp_engine_for_gpu(gp_engine_default(), g)->id, "llama.cpp-metal");
        /* The Dec 2023 llama.cpp on an Apple GPU is the Nov 2023 Metal
         * build's fit; on AMD there is no 2023 ROCm profile: kept. */
        ck_assert_str_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp-2023"), g)->id,
                         "llama.cpp-metal-2023");
        ck_assert_str_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp-2023"),
                                           gp_db_find_gpu(db, "mi300x"))->id,
                         "llama.cpp-2023");
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("mlc"), g), gp_engine_find("mlc"));
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_default(), gp_db_find_gpu(db, "h100")),
                         gp_engine_default());
        ck_assert_str_eq(gp_engine_find("metal")->id, "llama.cpp-metal");
    }
    {
        /* Engines without a build for the vendor are priced as asked and
         * said so (gp_engine_runs_on); ones with one, or not listed, pass. */
        const gp_db *db = gp_test_db();
        const gp_gpu *apple = gp_db_find_gpu(db, "m2-ultra"), *amd = gp_db_find_gpu(db, "mi300x");
        const gp_gpu *nv = gp_db_find_gpu(db, "h100");
        const char *v = NULL;
        const char *a[] = {"--json", "decode", "--gpu", "m2-ultra", "--model", "llama-2-7b",
                           "--engine", "vllm", NULL};
        json_t *wj;
        ck_assert_int_eq(gp_engine_runs_on(gp_engine_find("vllm"), apple, &v), 0);
        ck_assert_str_eq(v, "NVIDIA and AMD");
        ck_assert_int_eq(gp_engine_runs_on(gp_engine_find("tensorrt-llm"), amd, &v), 0);
        ck_assert_str_eq(v, "NVIDIA");
        ck_assert_int_eq(gp_engine_runs_on(gp_engine_find("tensorrt-llm"), nv, NULL), 1);
        ck_assert_int_eq(gp_engine_runs_on(gp_engine_find("llama.cpp-metal"), nv, NULL), 0);
        ck_assert_int_eq(gp_engine_runs_on(gp_engine_find("llama.cpp-vulkan"), apple, NULL), 1);
        ck_assert_int_eq(gp_engine_runs_on(gp_engine_find("mlc"), apple, NULL), 1);
        ck_assert_int_eq(gp_engine_runs_on(NULL, apple, NULL), 1);
        /* llama.cpp reads GGUF: its quant types and 16/32-bit floats. */
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp-metal"),
                                         gp_db_find_format(db, "awq-int4-g128")), 0);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp"),
                                         gp_db_find_format(db, "fp8-e4m3")), 0);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp"),
                                         gp_db_find_format(db, "q4_0")), 1);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp-metal"),
                                         gp_db_find_format(db, "bf16")), 1);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("vllm"),
                                         gp_db_find_format(db, "awq-int4-g128")), 1);
        /* MLC's group quantisation is MLC's own: no GGUF type. */
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp"),
                                         gp_db_find_format(db, "q4f16_1")), 0);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp-metal"),
                                         gp_db_find_format(db, "iq4_xs")), 1);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("mlc"),
                                         gp_db_find_format(db, "q4f16_1")), 1);
        /* MLC compiles its own formats from Hugging Face weights (16/32-bit,
         * AWQ, FP8): a GGUF file is no input of it. */
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("mlc"),
                                         gp_db_find_format(db, "q4_k_m")), 0);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("mlc"),
                                         gp_db_find_format(db, "awq-int4-g128")), 1);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("mlc"),
                                         gp_db_find_format(db, "bf16")), 1);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("vllm"),
                                         gp_db_find_format(db, "q4_k_m")), 1);
        /* A KV cache in llama.cpp's cache types or a number format: yes; in a
         * weights file type (a K-quant mix, an i-quant, MLC's): no. */
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "q8_0")), 1);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "iq4_nl")), 1);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "fp8-e4m3")), 1);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "fp16")), 1);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "q4_k_m")), 0);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "iq2_xxs")), 0);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "q4f16_1")), 0);
        ck_assert_int_eq(gp_format_holds_kv(NULL), 1);
        {
            /* The engine asked for keeps its own cache types (engines.c's
             * kv_caches): llama.cpp's --cache-type-k takes q8_0 but no FP8;
             * vLLM's --kv-cache-dtype fp8_e4m3/fp8_e5m2 but no GGUF block;
             * TensorRT-LLM NVFP4; MLX its affine groups.  An engine whose
             * profile names none, or a NULL, passes. */
            const gp_format *fp8 = gp_db_find_format(db, "fp8-e4m3");
            const gp_format *q8 = gp_db_find_format(db, "q8_0");
            const char *kt = NULL;
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("llama.cpp"), fp8, &kt), 0);
            ck_assert_ptr_nonnull(kt);
            ck_assert_ptr_nonnull(strstr(kt, "q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"));
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("llama.cpp"), q8, NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("llama.cpp-rocm"), fp8, NULL), 0);
            /* Nov 2023 Metal builds kept f16 or f32 only (bf16 came in 2024). */
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("llama.cpp-metal-2023"),
                                                gp_db_find_format(db, "bf16"), NULL), 0);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("llama.cpp-metal-2023"),
                                                gp_db_find_format(db, "fp16"), NULL), 1);
            kt = NULL;
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("vllm"), q8, &kt), 0);
            ck_assert_ptr_nonnull(strstr(kt, "fp8-e4m3, fp8-e5m2"));
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("vllm"), fp8, NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("sglang"),
                                                gp_db_find_format(db, "fp8-e5m2"), NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("lmdeploy"),
                                                gp_db_find_format(db, "int4"), NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("vllm-rocm"),
                                                gp_db_find_format(db, "nvfp4"), NULL), 0);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("tensorrt-llm"),
                                                gp_db_find_format(db, "nvfp4"), NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("tensorrt-llm"), q8, NULL), 0);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("mlx"),
                                                gp_db_find_format(db, "mlx-4bit"), NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("mlx"), fp8, NULL), 0);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("generic"), q8, NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("exllamav2"), fp8, NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(NULL, fp8, NULL), 1);
            ck_assert_int_eq(gp_engine_holds_kv(gp_engine_find("vllm"), NULL, NULL), 1);
        }
        {
            /* On the CLI: a warning naming the engine, the format and what
             * it keeps, and the KV priced by the format's bits as given.
             * Llama 3 8B: 2 (K, V) x 32 layers x 8 KV heads x 128 = 65,536
             * elements per token; at context 128, batch 1: fp8 (8 bits)
             * 65,536 x 128 = 8,388,608 B; q8_0 (8.5 bits) 65,536 x 8.5/8
             * x 128 = 8,912,896 B. */
            const char *lf[] = {"--json", "decode", "--gpu", "a100", "--model", "llama-3-8b",
                                "--kv", "fp8", "--engine", "llama.cpp", NULL};
            const char *vq[] = {"--json", "decode", "--gpu", "a100", "--model", "llama-3-8b",
                                "--kv", "q8_0", "--engine", "vllm", NULL};
            const char *vf[] = {"--json", "decode", "--gpu", "a100", "--model", "llama-3-8b",
                                "--kv", "fp8", "--engine", "vllm", NULL};
            one_kv_warning(lf,
                           "engine 'llama.cpp' keeps its KV cache in f32, f16, bf16, q8_0, "
                           "q4_0, q4_1, iq4_nl, q5_0, q5_1",
                           "--kv fp8-e4m3 is none: priced by its 8 bits", 8388608.0);
            one_kv_warning(vq, "engine 'vllm' keeps its KV cache in",
                           "--kv q8_0 is none: priced by its 8.5 bits", 8912896.0);
            wj = gp_test_cli_json(vf);
            ck_assert_ptr_nonnull(wj);
            ck_assert_uint_eq(json_array_size(json_object_get(wj, "warnings")), 0);
            json_decref(wj);
            /* The Dec 2023 builds had no q5_0 cache (PR #6183, March 2024). */
            {
                const char *old[] = {"--json", "decode", "--gpu", "rtx-4090", "--model",
                                     "llama-2-7b", "--weights", "q4_0", "--kv", "q5_0",
                                     "--engine", "llama.cpp-2023", NULL};
                wj = gp_test_cli_json(old);
                ck_assert_ptr_nonnull(wj);
                ck_assert_uint_eq(json_array_size(json_object_get(wj, "warnings")), 1);
                json_decref(wj);
            }
        }
        wj = gp_test_cli_json(a);
        ck_assert_ptr_nonnull(wj);
        ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(
                                         json_object_get(wj, "warnings"), 0)),
                                     "has no build for Apple GPUs"));
        json_decref(wj);
        {
            /* llama.cpp loads GGUF: AWQ weights are said to be priced by
             * their bits; Q4_0 and F16 are not remarked on. */
            const char *awq[] = {"--json", "decode", "--gpu", "m3-max", "--model", "llama-2-7b",
                                 "--weights", "awq-int4-g128", NULL};
            const char *q4[] = {"--json", "decode", "--gpu", "m3-max", "--model", "llama-2-7b",
                                "--weights", "q4_0", NULL};
            wj = gp_test_cli_json(awq);
            ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(
                                             json_object_get(wj, "warnings"), 0)),
                                         "loads GGUF types, and 'awq-int4-g128' is none"));
            json_decref(wj);
            wj = gp_test_cli_json(q4);
            ck_assert_uint_eq(json_array_size(json_object_get(wj, "warnings")), 0);
            json_decref(wj);
        }
        {
            /* A bare number of bits is no file type but the user's average
             * (inference.md 8.2 prices Mixtral Q3_K_M as --weights 3.49 on
             * llama.cpp-2023): nothing to remark on, in JSON or on stderr. */
            const char *bits[] = {"--json", "decode", "--gpu", "rtx-4090", "--model",
                                  "mixtral-8x7b", "--weights", "3.49", "--embed-format", "3.49",
                                  "--engine", "llama.cpp-2023", NULL};
            const char *text[] = {"decode", "--gpu", "rtx-4090", "--model", "llama-2-7b",
                                  "--weights", "4.5", "--engine", "llama.cpp", NULL};
            char *err = NULL;
            wj = gp_test_cli_json(bits);
            ck_assert_ptr_nonnull(wj);
            ck_assert_uint_eq(json_array_size(json_object_get(wj, "warnings")), 0);
            json_decref(wj);
            ck_assert_int_eq(gp_test_cli(text, NULL, &err), 0);
            ck_assert_msg(err != NULL && strstr(err, "warning") == NULL, "stderr: %s", err);
            free(err);
        }
    }
}
END_TEST

/* The Metal prefill (§5.3): 16-bit at each Apple entry's efficiency.compute
 * (its own F16 pp512 rate), quantised weights at most 170 FLOP per clock per
 * GPU core, in both Metal profiles.  Worked by hand with the Nov 2023
 * profile (the row is #4167's, build 8e672ef): M1 Max (32-core GPU), Llama 2
 * 7B Q4_0, a 512-token prompt: the cap 170 x 32 x 1.296e9 = 7.0502 TFLOP/s
 * is under 32 x 256 x 1.296e9 x 0.74 = 7.8567, so 6.700683756e12 FLOP take
 * 0.95042 s (the weights stream once in 3.79e9 B / (400e9 x 0.794) = 11.9
 * ms, under it); those builds have no fused attention (inference.md 5.5):
 * the square's other half, 4 x 32 x 4096 x 512^2 / 2 = 68,719,476,736 FLOP
 * = 9.747 ms, and the scores, 8 x 32 x 32 x 512^2 = 2,147,483,648 B at
 * 400e9 x 0.794 = 6.762 ms; plus one step's fixed cost 32 x 95 us x 2 /
 * 1.296 GHz = 4.691 ms: 0.971619 s, 527.0 t/s (#4167 measured 530.06,
 * -0.6 %).  The current builds' profile (fused) keeps the cap and charges 32
 * x 70 us x 2 / 1.296 = 3.457 ms: 0.953876 s. */
START_TEST(apple_metal_prefill)
{
    const char *m1max[] = {"--gpu", "apple-m1-max", "--model", "llama-2-7b", "--weights",
                           "q4_0", "--prompt", "512", "--engine", "llama.cpp-metal-2023", NULL};
    const char *cur[] = {"--gpu", "apple-m1-max", "--model", "llama-2-7b", "--weights",
                         "q4_0", "--prompt", "512", NULL};
    json_t *j = decode(m1max), *x;
    ck_assert_ptr_nonnull(j);
    x = json_object_get(j, "expected");
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_eff"), 1.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_rate_flop_per_s"), 170.0 * 32 * 1.296e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"),
                  (6.700683756e12 + 68719476736.0) / (170.0 * 32 * 1.296e9) +
                      2147483648.0 / (400e9 * 0.794) + 32 * 95e-6 * 2.0 / 1.296,
                  1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 0.971619, 1e-5);
    ck_assert(fabs(512.0 / gp_test_jnum(j, "ttft_s") / 530.06 - 1.0) < 0.05);
    json_decref(j);
    j = decode(cur);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp-metal");
    x = json_object_get(j, "expected");
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_rate_flop_per_s"), 170.0 * 32 * 1.296e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"),
                  6.700683756e12 / (170.0 * 32 * 1.296e9) + 32 * 70e-6 * 2.0 / 1.296, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 0.953876, 1e-5);
    json_decref(j);
}
END_TEST

/* llama.cpp on Apple silicon, current builds (docs/models/inference.md §4):
 * llama.cpp-metal, what llama.cpp, Ollama, LM Studio and the default profile
 * run as on an Apple GPU, least squares over ten llama-bench tg rows of
 * 2025-26 builds on eight chips with the bandwidth fraction held at 1: 70 us
 * per layer at 2 GHz.  Worked by hand: M2 Ultra (76-core GPU),
 * Qwen2.5-Coder-7B (the qwen2.5-7b shape) at Q8_0 throughout (the file's
 * 7.54 GiB is 7.62e9 parameters x 8.5 bits: the output matrix at Q8_0 too),
 * tg32 from an empty cache (context 16), as llama.cpp's
 * benches/mac-m2-ultra/mac-m2-ultra.md ran it (build 7948, -fa 1):
 *   body (7615616512 - 2 x 152064 x 3584) = 6525621760 x 8.5/8 =
 *     6933473120 B; output matrix 152064 x 3584 = 544997376 x 8.5/8 =
 *     579059712 B and one input row 3584 x 8.5/8 = 3808 B; KV 16 x 28
 *     layers x 2 x 512 x 2 B = 917504 B; activations 28 x (10 x 3584 + 4 x
 *     18944) x 2 = 6250496 B: 7519704640 B;
 *   at 800e9 x 0.795 (efficiency.memory) x 1.0 (eff_quant) = 636e9 B/s:
 *     11.823435 ms;
 *   compute (14147660800 + 8 x 6525621760 dequant = 66.35e9 FLOP) at 76 x
 *     256 x 1.398e9 x 0.67 = 18.2237e12 FLOP/s: 3.641 ms, under it;
 *   fixed 28 x 70 us x 2 / 1.398 GHz = 2.804006 ms;
 *   step 14.627441 ms: 68.365 t/s (79.68 measured, -14.2 %).
 * The fit rows (contexts: tg128 64, tg32 16, tg256 at depth 4096 4224) sit
 * within -19.5 % (M5 Max) to +23 % (M1 Ultra, TinyLlama): one bandwidth
 * fraction held at the convention's 1 and one per-layer cost cannot hold
 * both the small models (about 100 us per layer) and the large ones (the
 * weights streaming above the copy-measured bandwidth), so the tolerance is
 * 25 %. */
START_TEST(apple_metal_current_rows)
{
    const char *qwen[] = {"--gpu", "m2-ultra", "--model", "qwen2.5-7b", "--weights", "q8_0",
                          "--context", "16", NULL};
    static const prow fit[] = {
        /* ggml-org/llama.cpp discussion #4167, build c1d0e7a (Aug 2026),
         * LLaMA 7B v2 Q4_0 tg128. */
        {"metal m5 pro q4_0 (c1d0e7a)", 66.33,
         {"--gpu", "m5-pro", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          NULL}},
        {"metal m5 max q4_0 (c1d0e7a)", 119.92,
         {"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "q4_0", "--context", "64",
          NULL}},
        /* llama.cpp benches/mac-m2-ultra (build 7948, -fa 1), tg32; the
         * gemma file is ggml-org's QAT Q4_0, its tied embedding at Q8_0
         * (2.35 GiB). */
        {"metal m2 ultra qwen2.5-coder-7b q8_0 (b7948)", 79.68,
         {"--gpu", "m2-ultra", "--model", "qwen2.5-7b", "--weights", "q8_0", "--context", "16",
          NULL}},
        {"metal m2 ultra gemma-3-4b q4_0 (b7948)", 134.28,
         {"--gpu", "m2-ultra", "--model", "gemma-3-4b", "--weights", "q4_0", "--embed-format",
          "q8_0", "--context", "16", NULL}},
        /* PR #26570 (Aug 2026), master, tg32. */
        {"metal m2 ultra qwen3-0.6b q8_0 (pr 26570)", 240.02,
         {"--gpu", "m2-ultra", "--model", "qwen3-0.6b", "--weights", "q8_0", "--context", "16",
          NULL}},
        /* geerlingguy/beowulf-ai-cluster #17 (build 7315, -fa 1): Llama 3.3
         * 70B has the Llama 3.1 70B shape. */
        {"metal m3 ultra llama-3.3-70b q4_k_m (b7315)", 14.41,
         {"--gpu", "m3-ultra", "--model", "llama-3.1-70b", "--weights", "q4_k_m", "--context",
          "64", NULL}},
        /* geerlingguy/ai-benchmarks #48 (build 7825): TinyLlama 1.1B from its
         * shape (apple_m5_decode_rows counts it). */
        {"metal m1 ultra tinyllama q4_k_m (b7825)", 242.56,
         {"--gpu", "m1-ultra", "--params", "1100048384", "--layers", "22", "--hidden", "2048",
          "--heads", "32", "--kv-heads", "4", "--head-dim", "64", "--ffn", "5632", "--vocab",
          "32000", "--weights", "q4_k_m", "--context", "64", NULL}},
        /* llama-bench tg256 at depth 4096 (contexts 4096 .. 4351), build
         * c1d0e7a, Aug 2026. */
        {"metal m4 pro qwen2.5-1.5b q4_k_m (c1d0e7a)", 151.91,
         {"--gpu", "m4-pro", "--model", "qwen2.5-1.5b", "--weights", "q4_k_m", "--context",
          "4224", NULL}},
        /* brand-o/normiebench #40 and #3 (Mar 2026), tg128. */
        {"metal m1 max llama-3.1-8b q4_k_m (normiebench)", 46.2,
         {"--gpu", "m1-max", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--context", "64",
          NULL}},
        {"metal m4 llama-3.1-8b q4_k_m (normiebench)", 20.87,
         {"--gpu", "m4", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--context", "64",
          NULL}},
    };
    static const prow check[] = {
        /* Not fitted: the same bench's tg32 at depth 4096 .. 32768 (-11 %
         * to 0 %) and its mixture-of-experts rows, 47 us per MoE layer (the
         * CUDA profile's): gpt-oss-20b, gpt-oss-120b, Qwen3-Coder-30B-A3B
         * Q8_0 (-5 %, 0 %, -3.5 %). */
        {"metal m2 ultra qwen2.5-coder-7b q8_0 @d4096", 74.70,
         {"--gpu", "m2-ultra", "--model", "qwen2.5-7b", "--weights", "q8_0", "--context",
          "4112", NULL}},
        {"metal m2 ultra qwen2.5-coder-7b q8_0 @d32768", 56.83,
         {"--gpu", "m2-ultra", "--model", "qwen2.5-7b", "--weights", "q8_0", "--context",
          "32784", NULL}},
        {"metal m2 ultra gpt-oss-20b (b7948)", 129.97,
         {"--gpu", "m2-ultra", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe", "--context",
          "16", NULL}},
        {"metal m2 ultra gpt-oss-120b (b7948)", 85.60,
         {"--gpu", "m2-ultra", "--model", "gpt-oss-120b", "--weights", "mxfp4-moe", "--context",
          "16", NULL}},
        {"metal m2 ultra qwen3-coder-30b-a3b q8_0 (b7948)", 78.97,
         {"--gpu", "m2-ultra", "--model", "qwen3-30b-a3b", "--weights", "q8_0", "--context",
          "16", NULL}},
    };
    const gp_engine *cur = gp_engine_find("llama.cpp-metal"), *old;
    const double bytes = 6933473120.0 + 579059712 + 3808 + 917504 + 6250496;
    json_t *j = decode(qwen);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp-metal");
    ck_assert(json_is_true(json_object_get(j, "engine_backend")));
    ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "memory");
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), 7519704640.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), bytes, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"),
                  bytes / (800e9 * 0.795) + 28 * 70e-6 * 2.0 / 1.398, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 14.627441e-3, 1e-6);
    json_decref(j);
    check_rows(fit, sizeof fit / sizeof fit[0], 0.25);
    check_rows(check, sizeof check / sizeof check[0], 0.12);
    /* The two Metal profiles: the current one is what llama.cpp runs as on
     * an Apple GPU; the Nov 2023 one is chosen by name, for Apple GPUs. */
    old = gp_engine_find("llama.cpp-metal-2023");
    ck_assert_ptr_nonnull(cur);
    ck_assert_ptr_nonnull(old);
    GP_ASSERT_REL(cur->eff_quant, 1.0, 1e-12);
    GP_ASSERT_REL(cur->layer_overhead, 70e-6, 1e-12);
    GP_ASSERT_REL(old->layer_overhead, 95e-6, 1e-12);
    GP_ASSERT_REL(cur->prefill_sm_flop, old->prefill_sm_flop, 1e-12);
    ck_assert_ptr_eq(gp_engine_find("Llama.cpp Metal 2023"), old);
    {
        const gp_db *db = gp_test_db();
        const gp_gpu *apple = gp_db_find_gpu(db, "m2-ultra"), *nv = gp_db_find_gpu(db, "h100");
        const char *v = NULL;
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp"), apple), cur);
        ck_assert_ptr_eq(gp_engine_for_gpu(old, apple), old);
        ck_assert_int_eq(gp_engine_runs_on(old, apple, NULL), 1);
        ck_assert_int_eq(gp_engine_runs_on(old, nv, &v), 0);
        ck_assert_str_eq(v, "Apple");
    }
}
END_TEST

/* MLX LM on Apple silicon (docs/models/inference.md §4, "MLX"): the mlx
 * profile, fitted to 18 decode rows of mlx-lm and LM Studio's MLX engine,
 * and MLX's own weight formats, which name it.  mlx-4bit: 4-bit codes and a
 * 16-bit scale and bias per 64 weights, 4 + 32/64 = 4.5 bits; 8-bit 8.5,
 * 6-bit 6.5, 3-bit 3.5; the lm_head quantised too.
 * Worked by hand: M4 Max (40-core), Qwen3-8B mlx-4bit, context 272
 * (itsmostafa/inference-speed-tests: a 16-token prompt, 512 generated):
 *   body 6,946,075,648 params x 4.5/8 = 3,907,167,552 B; lm_head 151,936 x
 *     4,096 x 4.5/8 = 350,060,544 B + one input row 4,096 x 4.5/8 = 2,304 B;
 *     KV 272 x 36 layers x 2,048 x 2 B = 40,108,032 B; activations 36 x
 *     (10 x 4,096 + 4 x 12,288) x 2 = 6,488,064 B: 4,303,826,496 B at
 *     546e9 x 0.821 (efficiency.memory) x 1.0 (eff_quant) = 448.266e9 B/s:
 *     9.601055 ms;
 *   compute (15.30e9 + 8 x 6.946e9 dequant FLOP) at 40 x 256 x 1.6e9 x
 *     0.74 = 12.12e12 FLOP/s: 5.845 ms, under it;
 *   fixed 36 x 23 us x 2 / 1.6 GHz = 1.035 ms;
 *   step 10.636055 ms: 94.02 t/s (95.88 measured, -1.9 %).
 * Prefill, M3 Max (40-core), Llama 3.3 70B (the 3.1 shape) mlx-4bit, a
 * 260-token prompt (ml-explore/mlx-examples #1029: 75.871 t/s):
 *   FLOP 2 x (70,553,706,496 - 2 x 128,256 x 8,192) x 260 + 2 x 1,050,673,152
 *     (the lm_head, last token) + 4 x 80 x 64 x 128 x 260^2 / 2 (causal
 *     attention) = 35,685,933,318,144 at the expected 14.131e12 (the
 *     entry's 40 x 256 x 1.38 GHz, rounded) x 0.72 = 10.17432e12 (prefill
 *     1, no per-core cap) = 3.507451 s, + 80 x 23 us x 2 / 1.38 = 2.667 ms:
 *     TTFT 3.510118 s, 74.07 t/s (-2.4 %).
 * The fit rows (4-, 6- and 8-bit, 4B to 72B, five chips) sit within -12.5 %
 * (M3 Max, 70B) to +12.9 % (M1 Pro, Qwen2.5-14B): 15 %. */
START_TEST(mlx_rows)
{
    const char *q8b[] = {"--gpu", "m4-max", "--model", "qwen3-8b", "--weights", "mlx-4bit",
                         "--context", "272", NULL};
    const char *pre[] = {"--gpu", "m3-max", "--model", "llama-3.1-70b", "--weights", "mlx-4bit",
                         "--prompt", "260", NULL};
    static const prow fit[] = {
        /* itsmostafa/inference-speed-tests mac-mini-m4-pro-64gb-20-core-gpu
         * (LM Studio 0.3.10, MLX engine 0.8.0; "Write a 500 word story":
         * about 30 prompt tokens and 700 generated, context ~384). */
        {"mlx m4 pro qwen2.5-7b 4bit", 53.63,
         {"--gpu", "m4-pro", "--model", "qwen2.5-7b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m4 pro qwen2.5-14b 4bit", 26.7,
         {"--gpu", "m4-pro", "--model", "qwen2.5-14b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m4 pro qwen2.5-32b 4bit", 12.14,
         {"--gpu", "m4-pro", "--model", "qwen2.5-32b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m4 pro qwen2.5-32b 8bit", 6.58,
         {"--gpu", "m4-pro", "--model", "qwen2.5-32b", "--weights", "mlx-8bit", "--context",
          "384", NULL}},
        {"mlx m4 pro qwen2.5-72b 4bit", 5.47,
         {"--gpu", "m4-pro", "--model", "qwen2.5-72b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        /* The same repo's README, LM Studio MLX, the same prompt. */
        {"mlx m4 max qwen2.5-7b 4bit", 101.87,
         {"--gpu", "m4-max", "--model", "qwen2.5-7b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m4 max qwen2.5-14b 4bit", 52.22,
         {"--gpu", "m4-max", "--model", "qwen2.5-14b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m4 max qwen2.5-32b 4bit", 24.46,
         {"--gpu", "m4-max", "--model", "qwen2.5-32b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m4 max qwen2.5-32b 8bit", 13.75,
         {"--gpu", "m4-max", "--model", "qwen2.5-32b", "--weights", "mlx-8bit", "--context",
          "384", NULL}},
        {"mlx m4 max qwen2.5-72b 4bit", 10.86,
         {"--gpu", "m4-max", "--model", "qwen2.5-72b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m1 pro 16c qwen2.5-7b 4bit", 38.99,
         {"--gpu", "m1-pro", "--model", "qwen2.5-7b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m1 pro 16c qwen2.5-14b 4bit", 18.88,
         {"--gpu", "m1-pro", "--model", "qwen2.5-14b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        {"mlx m1 pro 16c qwen2.5-32b 4bit", 9.10,
         {"--gpu", "m1-pro", "--model", "qwen2.5-32b", "--weights", "mlx-4bit", "--context",
          "384", NULL}},
        /* The same repo's mlx_lm runs (2026-03-30): 16-token prompt, 512
         * generated. */
        {"mlx m4 max qwen3-8b 4bit", 95.88,
         {"--gpu", "m4-max", "--model", "qwen3-8b", "--weights", "mlx-4bit", "--context", "272",
          NULL}},
        /* ml-explore/mlx-examples #1029 (mlx-lm 0.20.4, M3 Max 64 GB: the
         * 40-core part): 260 prompt tokens, 309 generated. */
        {"mlx m3 max llama-3.3-70b 4bit", 9.351,
         {"--gpu", "m3-max", "--model", "llama-3.1-70b", "--weights", "mlx-4bit", "--context",
          "415", NULL}},
        /* mlx-examples #1281 (M4 Max with 59 GB in use: the 40-core part):
         * 34 prompt tokens, 642 generated. */
        {"mlx m4 max qwen2.5-72b 6bit", 7.919,
         {"--gpu", "m4-max", "--model", "qwen2.5-72b", "--weights", "mlx-6bit", "--context",
          "355", NULL}},
        /* lmstudio-ai/mlx-engine PR #83 (M3 Pro 36 GB: the 18-core part). */
        {"mlx m3 pro qwen2.5-7b 4bit", 29.21,
         {"--gpu", "m3-pro", "--model", "qwen2.5-7b", "--weights", "mlx-4bit", "--context",
          "128", NULL}},
        /* ml-explore/mlx-lm PR #1569, mlx_lm.benchmark -p 2048 -g 128 (mlx-lm
         * 0.31.3; an 18 GB M3 Pro, either bin: the same bandwidth and clock). */
        {"mlx m3 pro qwen3-4b 4bit", 44.62,
         {"--gpu", "m3-pro", "--model", "qwen3-4b", "--weights", "mlx-4bit", "--context",
          "2112", NULL}},
    };
    static const prow check[] = {
        /* Not fitted: runanywhere.ai's MetalRT write-up (Mar 2026, M4 Max
         * 64 GB: the 40-core part; mlx-lm, best of 5, lengths not given):
         * +14 %, -4 %, -2 %. */
        {"mlx m4 max qwen3-0.6b 4bit (metalrt)", 552.0,
         {"--gpu", "m4-max", "--model", "qwen3-0.6b", "--weights", "mlx-4bit", "--context",
          "128", NULL}},
        {"mlx m4 max qwen3-4b 4bit (metalrt)", 170.0,
         {"--gpu", "m4-max", "--model", "qwen3-4b", "--weights", "mlx-4bit", "--context", "128",
          NULL}},
        {"mlx m4 max llama-3.2-3b 4bit (metalrt)", 210.0,
         {"--gpu", "m4-max", "--model", "llama-3.2-3b", "--weights", "mlx-4bit", "--context",
          "128", NULL}},
        /* eff_float held at 1: mlx-examples PR #1069, M2 Ultra, Llama 3 70B
         * bf16, 16 prompt tokens and 100 generated: -4 % as the 76-core
         * part, -1 % as the 60-core. */
        {"mlx m2 ultra llama-3-70b bf16", 4.7,
         {"--gpu", "m2-ultra", "--model", "llama-3-70b", "--weights", "bf16", "--context", "66",
          "--engine", "mlx", NULL}},
    };
    static const prow moe[] = {
        /* The 58 us per MoE layer's rows: itsmostafa/inference-speed-tests'
         * mlx_lm runs of gpt-oss "MXFP4-Q8" (73 prompt tokens, 512
         * generated), M4 Max and M5 Max 40-core: +0.8 %, +5.1 %, -4.4 %,
         * -0.9 %. */
        {"mlx m4 max gpt-oss-20b", 121.02,
         {"--gpu", "m4-max", "--model", "gpt-oss-20b", "--weights", "mlx-mxfp4-q8", "--context",
          "329", NULL}},
        {"mlx m4 max gpt-oss-120b", 81.34,
         {"--gpu", "m4-max", "--model", "gpt-oss-120b", "--weights", "mlx-mxfp4-q8",
          "--context", "329", NULL}},
        {"mlx m5 max gpt-oss-20b", 137.76,
         {"--gpu", "m5-max", "--model", "gpt-oss-20b", "--weights", "mlx-mxfp4-q8", "--context",
          "329", NULL}},
        {"mlx m5 max gpt-oss-120b", 92.95,
         {"--gpu", "m5-max", "--model", "gpt-oss-120b", "--weights", "mlx-mxfp4-q8",
          "--context", "329", NULL}},
    };
    const gp_db *db = gp_test_db();
    const gp_engine *mlx = gp_engine_find("mlx");
    const double bytes = 3907167552.0 + 350060544.0 + 2304 + 40108032 + 6488064;
    json_t *j = decode(q8b);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "mlx");
    ck_assert(json_is_true(json_object_get(j, "engine_implied")));
    ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "memory");
    ck_assert_uint_eq(json_array_size(json_object_get(j, "warnings")), 0);
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), 4303826496.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), bytes, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"),
                  bytes / (546e9 * 0.821) + 36 * 23e-6 * 2.0 / 1.6, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 10.636055e-3, 1e-6);
    json_decref(j);
    j = decode(pre);
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "prefill_flop"), 35685933318144.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_rate_flop_per_s"),
                  14.131e12 * 0.72, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"),
                  35685933318144.0 / (14.131e12 * 0.72) + 80 * 23e-6 * 2.0 / 1.38, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 3.510118, 1e-6);
    ck_assert(fabs(260.0 / gp_test_jnum(j, "ttft_s") / 75.871 - 1.0) < 0.05);
    json_decref(j);
    check_rows(fit, sizeof fit / sizeof fit[0], 0.15);
    check_rows(check, sizeof check / sizeof check[0], 0.15);
    check_rows(moe, sizeof moe / sizeof moe[0], 0.06);
    /* The profile and the formats. */
    ck_assert_ptr_nonnull(mlx);
    GP_ASSERT_REL(mlx->eff_quant, 1.0, 0);
    GP_ASSERT_REL(mlx->eff_float, 1.0, 0);
    GP_ASSERT_REL(mlx->layer_overhead, 23e-6, 1e-12);
    GP_ASSERT_REL(mlx->moe_layer_overhead, 58e-6, 1e-12);
    GP_ASSERT_REL(gp_engine_prefill_eff(mlx, 1), 1.0, 0);
    GP_ASSERT_REL(mlx->prefill_sm_flop, 0.0, 0);
    GP_ASSERT_REL(gp_db_find_format(db, "mlx-4bit")->bits.v, 4.0 + 32.0 / 64, 0);
    GP_ASSERT_REL(gp_db_find_format(db, "mlx-8bit")->bits.v, 8.0 + 32.0 / 64, 0);
    GP_ASSERT_REL(gp_db_find_format(db, "mlx-6bit")->bits.v, 6.0 + 32.0 / 64, 0);
    GP_ASSERT_REL(gp_db_find_format(db, "mlx-3bit")->bits.v, 3.0 + 32.0 / 64, 0);
    GP_ASSERT_REL(gp_db_find_format(db, "mlx-mxfp4-q8")->bits.v, 4.0 + 8.0 / 32, 0);
    ck_assert_str_eq(gp_db_find_format(db, "mlx-4bit")->output_id, "mlx-4bit");
    ck_assert_str_eq(gp_db_find_format(db, "mlx-mxfp4-q8")->engine, "mlx");
    {
        const gp_gpu *apple = gp_db_find_gpu(db, "m4-max"), *nv = gp_db_find_gpu(db, "h100");
        const char *v = NULL;
        /* Apple's own engine: on an Apple GPU as itself, elsewhere priced
         * with a warning (on NVIDIA: MLX's CUDA backend is not what the
         * profile measured); llama.cpp there is still llama.cpp-metal. */
        ck_assert_ptr_eq(gp_engine_for_gpu(mlx, apple), mlx);
        ck_assert_int_eq(gp_engine_runs_on(mlx, apple, NULL), 1);
        ck_assert_int_eq(gp_engine_runs_on(mlx, nv, &v), 0);
        ck_assert_str_eq(v, "Apple");
        ck_assert_ptr_eq(gp_engine_for_gpu(gp_engine_find("llama.cpp"), apple),
                         gp_engine_find("llama.cpp-metal"));
        /* MLX reads its own formats, floats and its microscaling modes; no
         * GGUF type and no MLC format; neither of those engines reads
         * MLX's.  mlx-lm quantizes its KV cache in the same groups. */
        ck_assert_int_eq(gp_engine_loads(mlx, gp_db_find_format(db, "mlx-4bit")), 1);
        ck_assert_int_eq(gp_engine_loads(mlx, gp_db_find_format(db, "bf16")), 1);
        ck_assert_int_eq(gp_engine_loads(mlx, gp_db_find_format(db, "mxfp4")), 1);
        ck_assert_int_eq(gp_engine_loads(mlx, gp_db_find_format(db, "q4_0")), 0);
        ck_assert_int_eq(gp_engine_loads(mlx, gp_db_find_format(db, "q4f16_1")), 0);
        ck_assert_int_eq(gp_engine_loads(mlx, gp_db_find_format(db, "awq-int4-g128")), 0);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("llama.cpp-metal"),
                                         gp_db_find_format(db, "mlx-4bit")), 0);
        ck_assert_int_eq(gp_engine_loads(gp_engine_find("mlc"),
                                         gp_db_find_format(db, "mlx-4bit")), 0);
        ck_assert_int_eq(gp_format_holds_kv(gp_db_find_format(db, "mlx-8bit")), 1);
    }
    {
        const char *nvrow[] = {"--json", "decode", "--gpu", "h100", "--model", "qwen3-8b",
                               "--weights", "mlx-4bit", NULL};
        const char *gguf[] = {"--json", "decode", "--gpu", "m4-max", "--model", "qwen3-8b",
                              "--weights", "q4_k_m", "--engine", "lmstudio-mlx", NULL};
        json_t *w = gp_test_cli_json(nvrow);
        ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(
                                         json_object_get(w, "warnings"), 0)),
                                     "engine 'mlx' is profiled on Apple GPUs (Metal); its "
                                     "CUDA backend is not"));
        json_decref(w);
        w = gp_test_cli_json(gguf);
        ck_assert_str_eq(json_string_value(json_object_get(w, "engine")), "mlx");
        ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(
                                         json_object_get(w, "warnings"), 0)),
                                     "and 'q4_k_m' is none"));
        json_decref(w);
    }
}
END_TEST

/* Prefill, hand-worked: llama.cpp (CUDA), A100 SXM 80GB, Llama 2 7B Q4_0,
 * a 512-token prompt (llama-bench pp512).
 *   FLOP: 2 x (6607343616 - 131072000) x 512 (the layers; the input
 *     embedding is a lookup) + 2 x 131072000 (the output layer, last token)
 *     + 4 x 32 x 32 x 128 x 512^2 / 2 (causal attention) =
 *     6700683755520;
 *   rate: the expected fp16 rate 312e12 x 0.87 = 271.44e12, capped by the
 *     MMQ kernels' 476 FLOP/clock/SM x 108 SMs x 1.41 GHz = 72.48528e12:
 *     92.4420 ms (the 3750425088 B of weights take 3.1569 ms underneath, at
 *     the engine's per-SM stream limit, 108 x 11.0e9 = 1.188e12 B/s);
 *   overhead 32 x 35 us x 2 / 1.41 = 1.58865 ms;
 *   TTFT 94.0306 ms = 5445.0 t/s (the scoreboard's A100 80GB: 4849.53).
 * --prefill-eff 0.5 replaces the engine's figures, cap included: 135.72e12,
 * 49.3714 + 1.5887 = 50.9600 ms.  An H800 (no clock in the database) is
 * capped at the 2 GHz reference: 476 x 132 x 2e9 = 125.664e12.  TensorRT-
 * LLM with NVFP4 weights on a B200 computes in fp4: the 8-bit fraction,
 * 0.743.  The same MMQ kernels run a decode batch above 8 (llama.cpp's
 * MMVQ_MAX_BATCH_SIZE): at batch 256 the step's matmuls run at the capped
 * 72.48528e12, their unpacking inside that rate; at batch 8 the GEMV
 * kernels run at the expected 271.44e12 and dequantise on the fp32 cores at
 * 19.5e12 x 0.87 = 16.965e12. */
START_TEST(prefill_worked_row)
{
    const char *a[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "q4_0",
                       "--engine", "llama.cpp", "--prompt", "512", NULL};
    json_t *j = decode(a);
    const json_t *x;
    ck_assert_ptr_nonnull(j);
    x = json_object_get(j, "expected");
    GP_ASSERT_REL(gp_test_jnum(j, "prefill_flop"), 6700683755520.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_rate_flop_per_s"), 72.48528e12, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"),
                  6700683755520.0 / 72.48528e12 + 32.0 * 35e-6 * 2.0 / 1.41, 1e-9);
    json_decref(j);
    {
        const char *half[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                              "q4_0", "--engine", "llama.cpp", "--prompt", "512", "--prefill-eff",
                              "0.5", NULL};
        const char *h800[] = {"--gpu", "h800", "--model", "llama-2-7b", "--weights", "q4_0",
                              "--prompt", "512", NULL};
        const char *fp4[] = {"--gpu", "b200", "--model", "llama-2-7b", "--weights", "nvfp4",
                             "--engine", "tensorrt-llm", "--prompt", "512", NULL};
        j = decode(half);
        GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"),
                      6700683755520.0 / (271.44e12 * 0.5) + 32.0 * 35e-6 * 2.0 / 1.41, 1e-9);
        json_decref(j);
        j = decode(h800);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_rate_flop_per_s"),
                      476.0 * 132.0 * 2e9, 1e-9);
        json_decref(j);
        j = decode(fp4);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_eff"), 0.743, 1e-12);
        json_decref(j);
        {
            /* The 8-bit fraction is the narrow tensor path's: int8 weights
             * on an A100 compute on its int8 tensor cores (0.743, the
             * generic profile's 8-bit figure); on a P40, which has no
             * tensor cores, int8 runs on the CUDA cores and takes the
             * 16-bit 0.845. */
            const char *a100[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b",
                                  "--weights", "int8", "--prompt", "512", NULL};
            const char *p40[] = {"--gpu", "p40", "--model", "llama-2-7b", "--weights", "int8",
                                 "--prompt", "512", NULL};
            j = decode(a100);
            GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_eff"), 0.743,
                          1e-12);
            json_decref(j);
            j = decode(p40);
            ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "expected"),
                                                               "prefill_pipeline")),
                             "cuda");
            GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_eff"), 0.845,
                          1e-12);
            json_decref(j);
        }
    }
    {
        const char *big[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                             "q4_0", "--engine", "llama.cpp", "--batch", "256", NULL};
        const char *eight[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                               "q4_0", "--engine", "llama.cpp", "--batch", "8", NULL};
        const json_t *led;
        j = decode(big);
        led = json_object_get(json_object_get(j, "expected"), "ledger");
        ck_assert_ptr_nonnull(led);
        GP_ASSERT_REL(gp_test_jnum(led, "compute_s"),
                      gp_test_jnum(j, "flop_per_step") / 72.48528e12, 1e-9);
        json_decref(j);
        j = decode(eight);
        led = json_object_get(json_object_get(j, "expected"), "ledger");
        GP_ASSERT_REL(gp_test_jnum(led, "compute_s"),
                      gp_test_jnum(j, "flop_per_step") / 271.44e12 +
                          gp_test_jnum(j, "dequant_flop") / 16.965e12,
                      1e-9);
        json_decref(j);
    }
    {
        /* On the A100 the GEMV batches (1-8) stream at the engine's per-SM
         * limit, 108 x 11.0e9 = 1.188e12 B/s (docs/models/inference.md
         * 4.1), against a compute account of 13,248,241,664 FLOP /
         * 271.44e12 = 48.807 us per sequence plus the dequantisation,
         * 51,810,172,928 / 16.965e12 = 3.053945 ms per step.  Weights
         * 6,476,271,616 x 4.5 / 8 + 131,072,000 x 6.5625 / 8 = 3,750,422,784
         * B / 1.188e12 = 3.156921 ms; each sequence adds its KV 64 x 524,288
         * = 33,554,432 B, activations 5,439,488 B and Q4_0 embedding row
         * 4096 x 4.5 / 8 = 2304 B: 38,996,224 B = 32.8251 us.  Batch 1:
         * memory 3.189747 ms > compute 3.102752 ms; the two cross at 6.44.
         * The MMQ batches from 9 on run the matmuls at 72.48528e12 with
         * the unpacking inside: each sequence adds 182.7715 us less its
         * 32.8251 us of reads = 149.9464 us, so they are memory-bound up to
         * 3.156921 ms / 149.9464 us = 21.05367, the ridge: every larger
         * batch is compute-bound.  Batch 21 is memory-bound, 22 not. */
        const char *b1[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                            "q4_0", "--context", "64", NULL};
        const char *b21[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                             "q4_0", "--context", "64", "--batch", "21", NULL};
        const char *b22[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                             "q4_0", "--context", "64", "--batch", "22", NULL};
        const char *b7[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights",
                            "q4_0", "--context", "64", "--batch", "7", NULL};
        j = decode(b1);
        ck_assert_str_eq(json_string_value(json_object_get(j, "bound")), "memory");
        GP_ASSERT_REL(gp_test_jnum(j, "ridge_batch"), 21.053671, 1e-6);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(json_object_get(j, "expected"), "ledger"),
                                   "memory_s"),
                      3789419008.0 / 1.188e12, 1e-9);
        json_decref(j);
        j = decode(b7);
        ck_assert_str_eq(json_string_value(json_object_get(j, "bound")), "compute");
        json_decref(j);
        j = decode(b21);
        ck_assert_str_eq(json_string_value(json_object_get(j, "bound")), "memory");
        json_decref(j);
        j = decode(b22);
        ck_assert_str_eq(json_string_value(json_object_get(j, "bound")), "compute");
        json_decref(j);
    }
}
END_TEST

/* Published prefill times, single request (docs/models/inference.md §5):
 * each within 20 % of the model's TTFT. */
START_TEST(prefill_published_rows)
{
    static const prow rows[] = {
        /* llama.cpp discussion #15013 CUDA scoreboard, Llama 2 7B Q4_0
         * pp512: A100 80GB 4849.53, H100 80GB 9918.34, RTX 4090 11992.70 t/s. */
        {"llama.cpp a100 pp512", 512.0 / 4849.53,
         {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "q4_0", "--prompt",
          "512", NULL}},
        {"llama.cpp h100 pp512", 512.0 / 9918.34,
         {"--gpu", "h100-sxm", "--model", "llama-2-7b", "--weights", "q4_0", "--prompt", "512",
          NULL}},
        {"llama.cpp 4090 pp512", 512.0 / 11992.70,
         {"--gpu", "rtx-4090", "--model", "llama-2-7b", "--weights", "q4_0", "--prompt", "512",
          NULL}},
        /* TensorRT-LLM docs/source/performance.md, v0.5, batch 1, 2048 input
         * tokens, first-token latency: A100 FP16 Llama 2 7B 133 ms, 70B TP4
         * 377; H100 FP8 70B TP4 109. */
        {"trt a100 7b fp16", 0.133,
         {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "fp16", "--engine",
          "tensorrt-llm", "--prompt", "2048", NULL}},
        {"trt a100 70b tp4 fp16", 0.377,
         {"--gpu", "a100-sxm-80gb", "--model", "llama-2-70b", "--weights", "fp16", "--gpus", "4",
          "--engine", "tensorrt-llm", "--prompt", "2048", NULL}},
        {"trt h100 70b tp4 fp8", 0.109,
         {"--gpu", "h100-sxm", "--model", "llama-2-70b", "--weights", "fp8-e4m3", "--gpus", "4",
          "--engine", "tensorrt-llm", "--prompt", "2048", NULL}},
        /* LMDeploy v0.1.0a1, A100-80G, batch 1, 2048 prompt tokens: Llama 2
         * 13B first-token latency 0.242 s (docs/en/benchmark/a100_fp16.md). */
        {"lmdeploy a100 13b", 0.242,
         {"--gpu", "a100-sxm-80gb", "--model", "llama-2-13b", "--weights", "fp16", "--engine",
          "lmdeploy", "--prompt", "2048", NULL}},
        /* NIM 1.8.0, H100, concurrency 1, 5000 prompt tokens: Llama 3.3 70B
         * FP8 TP2 TTFT 407 ms. */
        {"nim 2xh100 70b fp8 5000", 0.407,
         {"--gpu", "h100", "--model", "llama-3.1-70b", "--weights", "fp8-e4m3", "--gpus", "2",
          "--engine", "nim", "--prompt", "5000", NULL}},
    };
    check_rows_of(rows, sizeof rows / sizeof rows[0], 0.20, "ttft_s", "ceiling_ttft_s", 1);
}
END_TEST

/* The prefill's layer GEMMs each on its own roofline with wave
 * quantisation (docs/models/inference.md 5.4): TensorRT-LLM, Llama 2 7B
 * FP16 on an A100 SXM 80GB (108 SMs), a 128-token prompt.  By hand:
 *   rate 312e12 x 0.87 (efficiency.compute) x 0.865 (the engine's 16-bit
 *     prefill fraction) = 234.7956e12 FLOP/s; bandwidth 2.039e12 x 0.88 x
 *     0.82 (eff_float) = 1.4713424e12 B/s;
 *   a layer's body (6,738,415,616 - 2 x 32000 x 4096) / 32 = 202,383,488
 *     params, less the attention's 2 x 4096 x (4096 + 4096) = 67,108,864:
 *     135,274,624 / 4096 = 33,026.03 - f 11008 = N_in 22,018.03;
 *   GEMMs on M = 128 rows, 256 x 128 tiles (one row of tiles), tf = 2 M N K
 *     / (rate x tiles / (waves x 108)), tb = (2 N K + 2 M (N + K)) / bw:
 *     QKV N 12288 K 4096: 96 tiles, 1 wave (0.8889): tf 61.7367 us, tb
 *       (100,663,296 + 4,194,304) / bw = 71.2666 us -> 71.2666;
 *     O N 4096 K 4096: 32 tiles (0.2963): tf 4,294,967,296 / 69.5691e12 =
 *       61.7367 us, tb 24.2307 us -> 61.7367;
 *     FFN in N 22,018.03 K 4096: 173 tiles, 2 waves (0.8009): tf
 *       23,087,579,136 / 188.0541e12 = 122.7711 us, tb 127.1335 us ->
 *       127.1335;
 *     FFN out N 4096 K 11008: 32 tiles (0.2963): tf 11,542,724,608 /
 *       69.5691e12 = 165.9175 us, tb 63.9172 us -> 165.9175;
 *     a layer 426.0543 us, 32 layers 13.633739 ms (prefill_gemm_s);
 *   the rest: attention 4 x 32 x 4096 x 128^2/2 = 4,294,967,296 + logits 2
 *     x 131,072,000 = 262,144,000 FLOP at the rate, 19.4088 us, against the
 *     output matrix's 262,144,000 B, 178.1666 us -> 178.1666 us;
 *   overhead 32 x 25 us x 2 / 1.41 = 1.134752 ms.
 * TTFT 13.633739 + 0.178167 + 1.134752 = 14.946657 ms against the table's
 * 16 ms (-6.6 %); one roofline over the pass at the same rate gives
 * max(7.0806, 8.9814) + 1.1348 = 10.116 ms (-36.8 %).  An Apple GPU or
 * one without an SM count, a MoE model, or an engine without tiled kernels
 * (llama.cpp) keeps the one roofline. */
START_TEST(prefill_tiled_by_hand)
{
    const char *a[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "fp16",
                       "--engine", "tensorrt-llm", "--prompt", "128", NULL};
    const char *cpp[] = {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "fp16",
                         "--engine", "llama.cpp", "--prompt", "128", NULL};
    json_t *j = decode(a);
    const json_t *x = json_object_get(j, "expected");
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_rate_flop_per_s"), 234.7956e12, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_gemm_s"), 13.633739e-3, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 14.946657e-3, 1e-6);
    /* The ceiling keeps the one roofline: max(1.66248e12 FLOP / 312e12,
     * 13,214,695,424 B / 2.039e12) = 6.4810 ms. */
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "ceiling"), "prefill_gemm_s"), 0.0, 0);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_ttft_s"), 13214695424.0 / 2.039e12, 1e-9);
    json_decref(j);
    j = decode(cpp);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_gemm_s"), 0.0, 0);
    json_decref(j);
    {
        /* An Apple GPU keeps the one roofline too (its entries count
         * cores as SMs; no tiled-library row checks them). */
        const char *m1[] = {"--gpu", "apple-m1-max", "--model", "llama-3.1-8b", "--engine",
                            "hf-transformers", "--prompt", "512", NULL};
        /* A dense model's GEMM weights are its body's bytes: a format
         * whose dense part is q8_0 (mxfp4-moe: MXFP4 experts, q8_0 body)
         * prices them as q8_0 itself does. */
        const char *mx[] = {"--gpu", "h100", "--model", "llama-3.1-8b", "--engine", "vllm",
                            "--weights", "mxfp4-moe", "--prompt", "128", NULL};
        const char *q8[] = {"--gpu", "h100", "--model", "llama-3.1-8b", "--engine", "vllm",
                            "--weights", "q8_0", "--prompt", "128", NULL};
        double t8;
        j = decode(m1);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_gemm_s"), 0.0, 0);
        json_decref(j);
        j = decode(q8);
        ck_assert(gp_test_jnum(json_object_get(j, "expected"), "prefill_gemm_s") > 0.0);
        t8 = gp_test_jnum(j, "ttft_s");
        json_decref(j);
        j = decode(mx);
        GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), t8, 1e-12);
        json_decref(j);
    }
    {
        /* The profiles say which engines run tiled GEMMs. */
        const char *trt[] = {"--json", "hw", "show", "engine:tensorrt-llm", NULL};
        const char *lc[] = {"--json", "hw", "show", "engine:llama.cpp", NULL};
        j = gp_test_cli_json(trt);
        ck_assert(json_is_true(json_object_get(j, "prefill_tiled")));
        json_decref(j);
        j = gp_test_cli_json(lc);
        ck_assert(json_is_false(json_object_get(j, "prefill_tiled")));
        ck_assert(json_is_false(json_object_get(j, "prefill_unfused")));
        json_decref(j);
    }
    {
        /* The Dec 2023 builds had no fused attention (inference.md 5.5):
         * unfused by default, --attention flash overrides. */
        const char *old[] = {"--json", "hw", "show", "engine:llama.cpp-2023", NULL};
        const char *pp[] = {"--gpu", "rtx-3090", "--model", "llama-2-7b", "--weights", "q4_0",
                            "--engine", "llama.cpp-2023", "--prompt", "2048", NULL};
        const char *ppf[] = {"--gpu",    "rtx-3090", "--model",     "llama-2-7b",
                             "--weights", "q4_0",    "--engine",    "llama.cpp-2023",
                             "--prompt", "2048",     "--attention", "flash", NULL};
        j = gp_test_cli_json(old);
        ck_assert(json_is_true(json_object_get(j, "prefill_unfused")));
        json_decref(j);
        j = decode(pp);
        ck_assert(gp_test_jnum(json_object_get(j, "expected"), "prefill_score_s") > 0.0);
        json_decref(j);
        j = decode(ppf);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_score_s"), 0.0, 0);
        json_decref(j);
    }
}
END_TEST

/* TensorRT-LLM's first-token latencies at 128 input tokens (the same
 * performance.md v0.5 table whose 2048-token rows fit the prefill
 * fractions, 5.3; these were not fitted): near the ridge, where the per-GEMM
 * tiles decide.  A100 FP16 GPT-J 6B 12 ms, Llama 2 7B 16, 70B TP4 47,
 * Falcon 180B TP8 61 (the model: +28 %, -7 %, +1 %, +11 %; one roofline:
 * -26 %, -37 %, -36 %, -34 %); L40S FP8 GPT-J 12, Llama 2 7B 14 (+26 %,
 * +13 %); H100 FP8 7, 7, 26, 27 read -30 %, -27 %, -41 %, -18 % (its FP8
 * fraction is the median of H100 and L40S rows, which pull apart, 5.3).  The
 * A100 and L40S rows within 30 %. */
START_TEST(prefill_near_ridge_rows)
{
    static const prow rows[] = {
        {"trt a100 gpt-j 128", 0.012,
         {"--gpu", "a100-sxm-80gb", "--model", "gpt-j-6b", "--weights", "fp16", "--engine",
          "tensorrt-llm", "--prompt", "128", NULL}},
        {"trt a100 7b 128", 0.016,
         {"--gpu", "a100-sxm-80gb", "--model", "llama-2-7b", "--weights", "fp16", "--engine",
          "tensorrt-llm", "--prompt", "128", NULL}},
        {"trt a100 70b tp4 128", 0.047,
         {"--gpu", "a100-sxm-80gb", "--model", "llama-2-70b", "--weights", "fp16", "--gpus",
          "4", "--engine", "tensorrt-llm", "--prompt", "128", NULL}},
        {"trt a100 falcon tp8 128", 0.061,
         {"--gpu", "a100-sxm-80gb", "--model", "falcon-180b", "--weights", "fp16", "--gpus",
          "8", "--engine", "tensorrt-llm", "--prompt", "128", NULL}},
        {"trt l40s gpt-j fp8 128", 0.012,
         {"--gpu", "l40s", "--model", "gpt-j-6b", "--weights", "fp8-e4m3", "--engine",
          "tensorrt-llm", "--prompt", "128", NULL}},
        {"trt l40s 7b fp8 128", 0.014,
         {"--gpu", "l40s", "--model", "llama-2-7b", "--weights", "fp8-e4m3", "--engine",
          "tensorrt-llm", "--prompt", "128", NULL}},
    };
    check_rows_of(rows, sizeof rows / sizeof rows[0], 0.30, "ttft_s", "ceiling_ttft_s", 1);
}
END_TEST

/* llama.cpp's F16 prefill at the profile's per-SM rate on NVIDIA parts
 * (docs/models/inference.md 5.3).  XiongjieDai/GPU-Benchmarks-on-LLM-
 * Inference README, "Average prompt eval speed (tokens/s) by GPUs on LLaMA
 * 2", 7B_f16 (Dec 2023 builds, ./main on the README's prompt, taken as 300
 * tokens): 4080 5158.19, RTX 4000 Ada 2369.09, 3090 3075.37, 4090 7348.69,
 * RTX 5000 Ada 4936.59, A6000 3707.88, RTX 6000 Ada 5403.6, A100 80GB
 * 5105.77, H100 PCIe 7367 -- with the 2023 profile's 350 FLOP per clock per
 * SM (and its unfused attention): -6, +13, +16, +10, +29, +4, +64, -24, -31 %
 * (uncapped: +35 % to
 * +231 %); all within 70 %, the median within 15 %.  And the same README's
 * LLaMA 3 table (llama-bench pp512, May 2024) with the current profile
 * (476): 8B F16 3090 4444.65, 4090 9382.00: -5, +14 % (the 4080 row, -12 %,
 * fits its 16 GB only without gpuplan's 1 GiB runtime reserve). 
 * By hand, the 4090 under the 2023 profile: 350 x 128 x 2.52e9 =
 * 112.896e12 FLOP/s, below its expected 165.2e12 x 0.8. */
START_TEST(llama_cpp_f16_prefill_rows)
{
    static const struct {
        const char *gpu;
        double pp;
    } rows[] = {{"rtx-4080", 5158.19},      {"rtx-4000-ada", 2369.09}, {"rtx-3090", 3075.37},
                {"rtx-4090", 7348.69},      {"rtx-5000-ada", 4936.59}, {"rtx-a6000", 3707.88},
                {"rtx-6000-ada", 5403.6},   {"a100-sxm-80gb", 5105.77}, {"h100-pcie", 7367.0}};
    static const struct {
        const char *gpu;
        double pp;
    } may24[] = {{"rtx-3090", 4444.65}, {"rtx-4090", 9382.00}};
    double err[sizeof rows / sizeof rows[0]], t;
    size_t i, n = sizeof rows / sizeof rows[0], j, below = 0;
    json_t *o;
    for (i = 0; i < n; i++) {
        const char *a[] = {"--gpu", rows[i].gpu, "--model", "llama-2-7b", "--weights", "fp16",
                           "--engine", "llama.cpp-2023", "--prompt", "300", NULL};
        o = decode(a);
        if (strcmp(rows[i].gpu, "rtx-4090") == 0)
            GP_ASSERT_REL(gp_test_jnum(json_object_get(o, "expected"), "prefill_rate_flop_per_s"),
                          350.0 * 128 * 2.52e9, 1e-12);
        err[i] = 300.0 / gp_test_jnum(o, "ttft_s") / rows[i].pp - 1.0;
        ck_assert_msg(fabs(err[i]) <= 0.70, "%s: %+.1f %%", rows[i].gpu, 100.0 * err[i]);
        json_decref(o);
    }
    /* The median: as many rows below it as above. */
    for (i = 0; i < n; i++) {
        for (j = 0, below = 0; j < n; j++)
            below += err[j] < err[i];
        if (below == n / 2) {
            t = err[i];
            ck_assert_msg(fabs(t) <= 0.15, "median %+.1f %%", 100.0 * t);
            break;
        }
    }
    ck_assert_uint_lt(i, n);
    for (i = 0; i < sizeof may24 / sizeof may24[0]; i++) {
        const char *a[] = {"--gpu", may24[i].gpu, "--model", "llama-3-8b", "--weights", "fp16",
                           "--engine", "llama.cpp", "--prompt", "512", NULL};
        o = decode(a);
        t = 512.0 / gp_test_jnum(o, "ttft_s") / may24[i].pp - 1.0;
        ck_assert_msg(fabs(t) <= 0.20, "%s: %+.1f %%", may24[i].gpu, 100.0 * t);
        json_decref(o);
    }
}
END_TEST

/* Unfused attention (docs/models/inference.md 5.5): llama.cpp PR #6017, one
 * A100 80GB PCIe, Llama 7B F16, -fa 0 (March 2024): pp512 8,668.24 t/s,
 * pp1024 8,251.25, pp2048 7,592.36, pp4096 6,574.66, pp8192 5,112.25.  The
 * F16 prefill fraction read off pp512 (0.48); the longer prompts within 3 %
 * with the scores priced (fused: +6 % .. +57 %).  pp8192 by hand: 2 x
 * 6,476,271,616 x 8192 + 262,144,000 + the square's attention 4 x 32 x
 * 4096 x 8192^2 = 141,291,868,389,376 FLOP at 312e12 x 0.81 x 0.48 =
 * 121.3056e12 FLOP/s: 1.164760 s; scores 8 x 32 x 32 x 8192^2 =
 * 549,755,813,888 B at the profile's per-SM limit 108 x 11.2e9 = 1.2096e12
 * B/s: 0.454494 s; overhead 32 x 58 us x 2 / 1.41 = 2.633 ms: 1.621886 s. */
START_TEST(unfused_attention_rows)
{
    static const double rows[][2] = {
        {512, 8668.24}, {1024, 8251.25}, {2048, 7592.36}, {4096, 6574.66}, {8192, 5112.25}};
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char pr[32];
        const char *a[] = {"--gpu", "a100-pcie-80gb", "--model", "llama-2-7b", "--weights",
                           "fp16", "--engine", "llama.cpp-2023", "--prompt", pr, "--prefill-eff",
                           "0.48", "--attention", "unfused", NULL};
        json_t *j;
        double tps;
        snprintf(pr, sizeof pr, "%.0f", rows[i][0]);
        j = decode(a);
        tps = rows[i][0] / gp_test_jnum(j, "ttft_s");
        ck_assert_msg(fabs(tps / rows[i][1] - 1.0) <= 0.03, "pp%s: %.1f vs %.2f", pr, tps,
                      rows[i][1]);
        ck_assert_str_eq(json_string_value(json_object_get(j, "prefill_attention")), "unfused");
        if (rows[i][0] == 8192) {
            GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 1.621886, 1e-6);
            GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "prefill_score_s"),
                          549755813888.0 / 1.2096e12, 1e-9);
            /* The ceiling keeps fused attention: no score traffic. */
            GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "ceiling"), "prefill_score_s"), 0.0,
                          0);
        }
        json_decref(j);
    }
}
END_TEST

/* The rest of the llama.cpp CUDA scoreboard (ggml-org/llama.cpp discussion
 * #15013, "Performance of llama.cpp on NVIDIA CUDA": Llama 2 7B Q4_0,
 * llama-bench -ngl 99 -fa 0, tg128 and pp512, each row on its own build),
 * against the current builds' profile (docs/models/inference.md 4, "The
 * scoreboard's other rows").  Rows as transcribed in a public GPU
 * catalogue's benchmark seed file (read 2026-08-12, with device names,
 * commits and spreads) and, for the H100 80GB, A100 80GB and RTX PRO 6000
 * Blackwell, in two public research notes that agree (2026-09-30).
 * tg128 decodes from an empty prompt: mean context 64; pp512 is the TTFT
 * of a 512-token prompt, 512 / (t/s).
 *
 * Worked by hand, H100 80GB (HBM3: the SXM part, h100-sxm, 132 SMs, boost
 * 1.98 GHz), tg128 267.81 (build 5143fa8):
 *   bytes: body 3,642,902,784 + output matrix at Q6_K 107,520,000 + one
 *     input row 2304 + KV 64 x 524,288 = 33,554,432 + activations 5,439,488
 *     = 3,789,419,008 B;
 *   achievable 3.35e12 x 0.92 = 3.082e12 B/s x 0.90 = 2.7738e12, above the
 *     engine's per-SM stream limit 132 x 11.0e9 = 1.452e12 B/s: 2.609793 ms;
 *   compute 13,248,241,664 FLOP at the expected fp16 rate plus the
 *     dequantisation, 51,810,172,928 FLOP on the fp32 cores: 0.98479 ms,
 *     under the memory;
 *   overhead 32 x 35 us x 2 / 1.98 = 1.131313 ms;
 *   step 3.741106 ms: 267.30 t/s (-0.19 %).  Without the limit (the same
 *   0.90 of achievable, --decode-eff 0.9): 1.366116 + 1.131313 = 2.497429
 *   ms, 400.41 t/s, +49.5 %.
 * An RTX 4090 (128 x 11.0e9 = 1.408e12 B/s against its 0.8709e12) is not
 * limited.  The H100 row's pp512 (9918.34) names the SXM part: 476 FLOP per
 * clock x 132 SMs x 1.98 GHz prices it at 9310 t/s (TTFT +6.5 %); the PCIe
 * card's 114 SMs x 1.755 GHz at 7147 (+38.8 %).  The A100 80GB and the
 * V100 32 GB are named without their form factor: both forms are checked.
 *
 * Tolerances, from the spread of the rows: GeForce tg128 within 10 % (12
 * rows: -9.1 % .. +3.1 %); every other tg128 row within 20 % (workstation,
 * datacenter GDDR, HBM and the DGX Spark: -12.5 % .. +19.5 %); the rms of
 * the 27 GPUs (one form each: A100 SXM, V100 PCIe) within 8.5 % (8.2 %).
 * pp512 against the per-SM MMQ cap (5.3): every TTFT within 45 % (-40.9 %
 * .. +30.7 %; the cap runs at the spec boost clock, above what power-capped
 * workstation and datacenter cards sustain and below what GeForce cards
 * reach), the HBM parts with int8 tensor cores (H100, A100, A30) within
 * 15 % (+6.5 %, -10.9 %, -4.8 %). */
typedef struct sbrow {
    const char *gpu; /* database id                                       */
    double tg128;    /* t/s                                               */
    double pp512;    /* t/s                                               */
    double tg_rtol;  /* decode tolerance                                  */
    double pp_rtol;  /* prefill (TTFT) tolerance                          */
    int counted;     /* 1: in the rms (one form per GPU)                  */
} sbrow;

static const sbrow scoreboard[] = {
    /* GeForce */
    {"rtx-5090", 290.02, 14073.41, 0.10, 0.45, 1},         /* 8cf6b42, fit */
    {"rtx-4090", 186.21, 11992.70, 0.10, 0.45, 1},         /* 2241453, fit */
    {"rtx-5080", 181.99, 8297.36, 0.10, 0.45, 1},          /* 8a4280c */
    {"rtx-5070-ti", 176.85, 6952.38, 0.10, 0.45, 1},       /* 933414c */
    {"rtx-3090-ti", 171.19, 6567.49, 0.10, 0.45, 1},       /* 9c35706 */
    {"rtx-3090", 158.16, 5174.69, 0.10, 0.45, 1},          /* c76b420, fit */
    {"rtx-4080-super", 148.33, 8125.15, 0.10, 0.45, 1},    /* 81086cd */
    {"rtx-4080", 142.49, 8031.64, 0.10, 0.45, 1},          /* 20638e4, fit */
    {"rtx-4070-ti-super", 132.26, 6924.53, 0.10, 0.45, 1}, /* 9c35706 */
    {"rtx-5070", 127.54, 5184.75, 0.10, 0.45, 1},          /* no commit given */
    {"rtx-5060-ti-16gb", 90.94, 3737.25, 0.10, 0.45, 1},   /* 89d10295 */
    {"rtx-3060", 75.57, 2137.50, 0.10, 0.45, 1},           /* baa9255 */
    /* workstation */
    {"rtx-pro-6000-blackwell", 274.20, 14854.63, 0.20, 0.45, 1}, /* 79c1160 */
    {"rtx-pro-6000-blackwell-max-q", 260.42, 12742.48, 0.20, 0.45, 1}, /* d2462f8 */
    {"rtx-6000-ada", 176.07, 9229.23, 0.20, 0.45, 1},    /* b8e09f0, fit */
    {"rtx-a6000", 138.73, 4913.93, 0.20, 0.45, 1},       /* 4795c91, fit */
    {"rtx-a5000", 130.07, 4028.16, 0.20, 0.45, 1},       /* e5155e6 */
    {"quadro-rtx-6000", 102.77, 2751.18, 0.20, 0.45, 1}, /* b8e09f0 */
    {"quadro-rtx-8000", 102.68, 2709.95, 0.20, 0.45, 1}, /* b8e09f0 */
    /* datacenter, GDDR */
    {"l40", 152.01, 8870.49, 0.20, 0.45, 1}, /* ee09828 */
    {"a40", 124.11, 4609.01, 0.20, 0.45, 1}, /* 3470a5c */
    {"p40", 54.74, 1007.42, 0.20, 0.45, 1},  /* c76b420 */
    /* datacenter, HBM */
    {"h100-sxm", 267.81, 9918.34, 0.20, 0.15, 1},       /* 5143fa8 */
    {"a100-sxm-80gb", 190.88, 4849.53, 0.20, 0.15, 1},  /* 5143fa8 */
    {"a100-pcie-80gb", 190.88, 4849.53, 0.20, 0.15, 0}, /* the same row */
    {"v100-pcie-32gb", 129.08, 3042.64, 0.20, 0.45, 1}, /* 51f5a45 */
    {"v100-sxm2-32gb", 129.08, 3042.64, 0.20, 0.45, 0}, /* the same row */
    {"a30", 124.81, 2767.10, 0.20, 0.15, 1},            /* 583cb83 */
    /* LPDDR5X, unified */
    {"dgx-spark", 57.21, 3062.31, 0.20, 0.45, 1}, /* 5acd455 */
};

START_TEST(cuda_scoreboard_rows)
{
    const double bytes = 3789419008.0, ovh = 32.0 * 35e-6 * 2.0 / 1.98;
    const char *h100[] = {"--gpu", "h100-sxm", "--model", "llama-2-7b", "--weights", "q4_0",
                          "--context", "64", NULL};
    const char *h100_free[] = {"--gpu", "h100-sxm", "--model", "llama-2-7b", "--weights",
                               "q4_0", "--context", "64", "--decode-eff", "0.9", NULL};
    const char *g4090[] = {"--gpu", "rtx-4090", "--model", "llama-2-7b", "--weights", "q4_0",
                           "--context", "64", NULL};
    const char *a100_f16[] = {"--gpu", "a100-pcie-80gb", "--model", "llama-2-7b", "--weights",
                              "fp16", "--engine", "llama.cpp", "--context", "64", NULL};
    double ss = 0.0;
    int n = 0;
    size_t i;
    json_t *j = decode(h100);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp");
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), bytes, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "engine_sm_stream_bytes_per_s"), 132.0 * 11.0e9, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), bytes / 1.452e12 + ovh, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 3.741106e-3, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 267.81, 0.005);
    json_decref(j);
    j = decode(h100_free);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), bytes / (3.35e12 * 0.92 * 0.90) + ovh,
                  1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 400.41, 1e-4);
    json_decref(j);
    j = decode(g4090);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "eff_weights"), 0.90, 1e-12);
    json_decref(j);
    /* 16-bit weights, not a scoreboard row: llama.cpp PR #6017 (a March
     * 2024 build), A100 80GB PCIe, Llama 7B F16 tg128 74.77 t/s.  Bytes
     * 13,253,689,344 at the per-SM limit 108 x 11.0e9 = 1.188e12 B/s (under
     * 1935e9 x 0.88 x 0.90 = 1.5325e12): 11.156304 ms + 32 x 35 us x 2 /
     * 1.41 = 1.588652 ms -> 12.744957 ms, 78.462 t/s (+4.9 %; without the
     * limit 97.69, +31 %). */
    j = decode(a100_f16);
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), 13253689344.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"),
                  13253689344.0 / 1.188e12 + 32.0 * 35e-6 * 2.0 / 1.41, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 74.77, 0.05);
    json_decref(j);
    for (i = 0; i < sizeof scoreboard / sizeof scoreboard[0]; i++) {
        const sbrow *r = &scoreboard[i];
        const char *tg[] = {"--gpu", r->gpu, "--model", "llama-2-7b", "--weights", "q4_0",
                            "--context", "64", NULL};
        const char *pp[] = {"--gpu", r->gpu, "--model", "llama-2-7b", "--weights", "q4_0",
                            "--prompt", "512", NULL};
        double e, ttft;
        j = decode(tg);
        ck_assert_msg(j != NULL, "%s: no JSON", r->gpu);
        ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp");
        ck_assert_msg(r->tg128 < gp_test_jnum(j, "ceiling_tokens_per_s"),
                      "%s: tg128 %.2f above the ceiling", r->gpu, r->tg128);
        e = gp_test_jnum(j, "expected_tokens_per_s") / r->tg128 - 1.0;
        ck_assert_msg(fabs(e) <= r->tg_rtol, "%s: tg128 expected %.2f vs measured %.2f", r->gpu,
                      gp_test_jnum(j, "expected_tokens_per_s"), r->tg128);
        if (r->counted) {
            ss += e * e;
            n++;
        }
        json_decref(j);
        j = decode(pp);
        ck_assert_msg(j != NULL, "%s: no JSON", r->gpu);
        ttft = gp_test_jnum(j, "ttft_s");
        ck_assert_msg(512.0 / r->pp512 > gp_test_jnum(j, "ceiling_ttft_s"),
                      "%s: pp512 %.2f beyond the ceiling", r->gpu, r->pp512);
        ck_assert_msg(fabs(ttft / (512.0 / r->pp512) - 1.0) <= r->pp_rtol,
                      "%s: pp512 expected %.1f vs measured %.2f t/s", r->gpu, 512.0 / ttft,
                      r->pp512);
        json_decref(j);
    }
    ck_assert_int_eq(n, 27);
    ck_assert_msg(sqrt(ss / n) <= 0.085, "tg128 rms %.4f", sqrt(ss / n));
}
END_TEST

/* vLLM on ROCm: the request latencies of vLLM's benchmark_latency on 8 x
 * MI300X (ROCm/vllm docs/dev-docker/README.md, vLLM v0.10.0 / ROCm 6.4.1,
 * TP8, FP8 weights and KV cache, batch 1, 2048 output tokens): Llama 3.1
 * 70B 17.236 s (128-token prompt) and 17.500 s (2048), 405B 48.453 s and
 * 48.362 s.  `--engine vllm` on an AMD GPU runs as vllm-rocm; each request
 * within 10 %. */
START_TEST(vllm_rocm_rows)
{
    static const prow rows[] = {
        {"mi300x 70b 128/2048", 17.236,
         {"--gpu", "mi300x", "--model", "llama-3.1-70b", "--weights", "fp8", "--kv", "fp8-e4m3",
          "--gpus", "8", "--engine", "vllm", "--prompt", "128", "--output", "2048", NULL}},
        {"mi300x 70b 2048/2048", 17.500,
         {"--gpu", "mi300x", "--model", "llama-3.1-70b", "--weights", "fp8", "--kv", "fp8-e4m3",
          "--gpus", "8", "--engine", "vllm", "--prompt", "2048", "--output", "2048", NULL}},
        {"mi300x 405b 128/2048", 48.453,
         {"--gpu", "mi300x", "--model", "llama-3.1-405b", "--weights", "fp8", "--kv", "fp8-e4m3",
          "--gpus", "8", "--engine", "vllm", "--prompt", "128", "--output", "2048", NULL}},
        {"mi300x 405b 2048/2048", 48.362,
         {"--gpu", "mi300x", "--model", "llama-3.1-405b", "--weights", "fp8", "--kv", "fp8-e4m3",
          "--gpus", "8", "--engine", "vllm", "--prompt", "2048", "--output", "2048", NULL}},
    };
    json_t *j = decode(rows[0].args);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "vllm-rocm");
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine_requested")), "vllm");
    json_decref(j);
    check_rows_of(rows, sizeof rows / sizeof rows[0], 0.10, "e2e_latency_s",
                  "ceiling_e2e_latency_s", 1);
}
END_TEST

/* MoE decode: routed-expert layers pay the engine's moe_layer_overhead on
 * top of the dense per-layer cost (docs/models/inference.md §8.2).
 * Worked by hand: llama.cpp, RTX 4090, Qwen3-30B-A3B Q4_0, context 64.
 *   body touched: 30532122624 - 2 x 151936 x 2048 = 29909792768 body params,
 *     less 48 layers x (128 - 8) untouched experts x 3 x 2048 x 768 =
 *     27179089920: 2730702848 params x 4.5/8 = 1536020352 B;
 *   output matrix at Q6_K (a Q4_0 file keeps it there): 151936 x 2048 x
 *     6.5625/8 = 255252480 B, + one input row at Q4_0 2048 x 4.5/8 = 1152 B;
 *   KV 64 x 2 x 48 x 4 x 128 x 2 B = 6291456 B; activations 48 x (10 x 2048
 *     + 4 x 768) x 2 = 2260992 B;
 *   memory = 1799826432 B / (1008e9 x 0.96 x 0.90) = 2.06660 ms;
 *   overhead = 48 x (35 + 47) us x 2 / 2.52 = 3.12381 ms;
 *   step 5.19041 ms: 192.66 t/s (llama.cpp PR #16834 measured 161.55 on an
 *   Oct 2025 build: +19 %). */
START_TEST(moe_worked_row)
{
    const char *a[] = {"--gpu", "rtx-4090", "--model", "qwen3-30b-a3b", "--weights", "q4_0",
                       "--context", "64", NULL};
    const char *b[] = {"--gpu", "rtx-4090", "--model", "qwen3-30b-a3b", "--weights", "q4_0",
                       "--context", "64", "--moe-layer-overhead", "0us", NULL};
    json_t *j = decode(a);
    double step = 1799826432.0 / (1008e9 * 0.96 * 0.90) + 48.0 * 82e-6 * 2.0 / 2.52;
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp");
    GP_ASSERT_REL(gp_test_jnum(j, "body_bytes"), 1536020352.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 1536020352.0 + 255252480.0 + 1152.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "moe_layers"), 48.0, 0);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), 1.0 / step, 1e-6);
    json_decref(j);
    /* --moe-layer-overhead 0: the dense per-layer cost alone, 48 x 35 us x
     * 2 / 2.52 = 1.33333 ms: 1 / 3.39994 ms = 294.1 t/s, 82 % above the
     * measurement -- what the model said before MoE layers had a cost. */
    j = decode(b);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"),
                  1.0 / (1799826432.0 / (1008e9 * 0.96 * 0.90) + 48.0 * 35e-6 * 2.0 / 2.52),
                  1e-6);
    json_decref(j);
}
END_TEST

/* The GGUF MXFP4 MoE file type: routed experts at MXFP4 (4.25 bits), every
 * other tensor at Q8_0 (8.5 bits: 1.0625 B).  gpt-oss-20b (hwdb shape: 24
 * layers, 32 experts of 3 x 2880 x 2880 = 24,883,200 params, 201088 x 2880
 * = 579,133,440 per embedding, untied):
 *   body 20,914,757,184 - 2 x 579,133,440 = 19,756,490,304;
 *   experts 24 x 32 x 24,883,200 = 19,110,297,600 -> x 0.53125 =
 *     10,152,345,600 B; the rest 646,192,704 x 1.0625 = 686,579,748 B;
 *   both embeddings at Q8_0: 2 x 615,329,280 B;
 *   stored 12,069,583,908 B = 11.24 GiB (llama-bench prints 11.27 GiB).
 * Read per token (4 of 32 experts): 24 x 4 x 24,883,200 x 0.53125 =
 * 1,269,043,200 + 686,579,748 + output 615,329,280 + one input row 2880 x
 * 1.0625 = 3,060: 2,570,955,288 B. */
START_TEST(mxfp4_moe_format)
{
    const char *a[] = {"--gpu", "rtx-4090", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe",
                       "--context", "64", NULL};
    const char *b[] = {"--gpu", "rtx-4090", "--model", "llama-2-7b", "--weights", "mxfp4-moe",
                       "--context", "64", NULL};
    json_t *j = decode(a);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp");
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes"), 12069583908.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes") / 1073741824.0, 11.27, 0.005);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 2570955288.0, 1e-9);
    /* the split the table prints: 24 x 4 x 24,883,200 = 2,388,787,200 expert
     * params, 646,192,704 others */
    GP_ASSERT_REL(gp_test_jnum(j, "body_params"), 2388787200.0 + 646192704.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "body_dense_params"), 646192704.0, 1e-12);
    json_decref(j);
    /* A dense model in the same file type is all Q8_0: Llama 2 7B's body
     * 6,476,271,616 x 1.0625 = 6,881,038,592 B; output 131,072,000 x 1.0625
     * = 139,264,000 B + one input row 4096 x 1.0625 = 4,352 B. */
    j = decode(b);
    GP_ASSERT_REL(gp_test_jnum(j, "body_bytes"), 6881038592.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "lm_head_bytes"), 139264000.0 + 4352.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "body_dense_params"), 6476271616.0, 1e-12);
    json_decref(j);
}
END_TEST

/* The Hugging Face MXFP4 layout (mxfp4-moe-bf16): routed experts at MXFP4
 * (4.25 bits: 0.53125 B), every other tensor at BF16 (2 B).  gpt-oss-120b
 * (hwdb shape: 36 layers, 128 experts of 3 x 2880 x 2880 = 24,883,200
 * params, top-4, 201088 x 2880 = 579,133,440 per embedding, untied) on an
 * A100 SXM 80GB with the vllm profile, context 128, batch 1:
 *   body 116,829,156,672 - 2 x 579,133,440 = 115,670,889,792;
 *   experts 36 x 128 x 24,883,200 = 114,661,785,600 -> x 0.53125 =
 *     60,914,073,600 B; the rest 1,009,104,192 x 2 = 2,018,208,384 B;
 *   both embeddings at BF16: 2 x 1,158,266,880 = 2,316,533,760 B;
 *   stored 65,248,815,744 B = 60.77 GiB (the model card: 60.8 GiB).
 * Read per token (4 of 128 experts): 36 x 4 x 24,883,200 x 0.53125 =
 * 1,903,564,800 + 2,018,208,384 + lm_head 1,158,266,880 + one input row
 * 2880 x 2 = 5,760: 5,080,045,824 B; + KV 128 x 2 x 36 x 8 x 64 x 2 B =
 * 9,437,184 + activations 36 x (10 + 4) x 2880 x 2 B = 2,903,040:
 * 5,092,386,048 B a token (plain mxfp4 read the rest at 4.25 bits:
 * 3,610,264,266 B).  Expected: 5,092,386,048 / (1.79432e12 achievable x
 * 0.85) = 3.33888 ms + 36 x (25 + 57) us x 2 GHz / 1.41 GHz = 4.18723 ms
 * -> 7.52612 ms, 132.87 tok/s (plain mxfp4: 152.57). */
START_TEST(mxfp4_moe_bf16_format)
{
    const char *a[] = {"--gpu", "a100-sxm-80gb", "--model", "gpt-oss-120b", "--weights",
                       "mxfp4-moe-bf16", "--engine", "vllm", NULL};
    const char *hf[] = {"--gpu", "a100-sxm-80gb", "--model", "gpt-oss-120b", "--weights",
                        "mxfp4-hf", "--engine", "vllm", NULL};
    json_t *j = decode(a);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes"), 65248815744.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes") / 1073741824.0, 60.8, 0.001);
    GP_ASSERT_REL(gp_test_jnum(j, "body_bytes"), 1903564800.0 + 2018208384.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "lm_head_bytes"), 1158266880.0 + 5760.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 5080045824.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_token"), 5092386048.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "body_dense_params"), 1009104192.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"),
                  1.0 / (5092386048.0 / (1.79432e12 * 0.85) +
                         36.0 * (25e-6 + 57e-6) * 2.0 / 1.41),
                  1e-6);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "warnings")), 0);
    json_decref(j);
    j = decode(hf); /* the alias */
    ck_assert_str_eq(json_string_value(json_object_get(j, "weights_format")), "mxfp4-moe-bf16");
    json_decref(j);
    {
        /* Plain mxfp4 on a MoE model says where the layout is; the layout
         * itself, and mxfp4 on a dense model, say nothing.  llama.cpp
         * loads the layout (a GGUF at --outtype bf16): no warning. */
        const char *m4[] = {"decode", "--gpu", "a100-sxm-80gb", "--model", "gpt-oss-120b",
                            "--weights", "mxfp4", "--engine", "vllm", NULL};
        const char *mb[] = {"decode", "--gpu", "a100-sxm-80gb", "--model", "gpt-oss-120b",
                            "--weights", "mxfp4-moe-bf16", "--engine", "llama.cpp", NULL};
        const char *dn[] = {"decode", "--gpu", "a100-sxm-80gb", "--model", "llama-3-8b",
                            "--weights", "mxfp4", NULL};
        char *err = NULL;
        ck_assert_int_eq(gp_test_cli(m4, NULL, &err), 0);
        ck_assert_msg(err != NULL && strstr(err, "note: --weights mxfp4 reads the 1.009e+09 "
                                                 "params") != NULL &&
                          strstr(err, "--weights mxfp4-moe-bf16 prices that layout") != NULL,
                      "stderr: %s", err ? err : "");
        free(err);
        ck_assert_int_eq(gp_test_cli(mb, NULL, &err), 0);
        ck_assert_msg(err != NULL && strstr(err, "note") == NULL &&
                          strstr(err, "warning") == NULL,
                      "stderr: %s", err);
        free(err);
        ck_assert_int_eq(gp_test_cli(dn, NULL, &err), 0);
        ck_assert_msg(err != NULL && strstr(err, "mxfp4-moe-bf16") == NULL, "stderr: %s", err);
        free(err);
    }
    /* gpt-oss-20b in the layout: 24 x 32 x 24,883,200 x 0.53125 =
     * 10,152,345,600 + 646,192,704 x 2 + 2 x 1,158,266,880 = 13,761,264,768
     * B = 12.82 GiB; llama-bench's "gpt-oss 20B BF16" GGUF prints 12.83. */
    {
        const char *b[] = {"--gpu", "rtx-5070-ti", "--model", "gpt-oss-20b", "--weights",
                           "mxfp4-moe-bf16", "--engine", "llama.cpp", NULL};
        j = decode(b);
        GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes"), 13761264768.0, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(j, "weight_store_bytes") / 1073741824.0, 12.83, 0.002);
        json_decref(j);
    }
}
END_TEST

/* Published batch-1 MoE rows, each within 25 % (§8.2 for the sources). */
START_TEST(moe_published_rows)
{
    static const prow rows[] = {
        /* llama.cpp PR #16834 (am17an, Oct 2025), RTX 4090, llama-bench tg128:
         * qwen3moe 30B.A3B Q4_0 161.55, gpt-oss 20B MXFP4 MoE 186.10 t/s. */
        {"4090 qwen3moe q4_0", 161.55,
         {"--gpu", "4090", "--model", "qwen3-30b-a3b", "--weights", "q4_0", "--context", "64",
          NULL}},
        {"4090 gpt-oss-20b", 186.10,
         {"--gpu", "4090", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe", "--context", "64",
          NULL}},
        /* RTX 5090, llama.cpp build f92e406b (7100), llama-bench tg128 gpt-oss
         * 20B MXFP4 MoE 362.59 t/s (yunwei37's gpu_ext workload log,
         * 2026-02-16). */
        {"5090 gpt-oss-20b", 362.59,
         {"--gpu", "5090", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe", "--context", "64",
          NULL}},
        /* Not used for the profile figure: RTX PRO 6000 Blackwell, llama.cpp
         * build 233d773d0 (6413), tg128, qwen3moe 30B.A3B Q4_K_M 251.04 t/s
         * (the shisa-v2 authors' benchmark notes); RTX 5070 Ti, build
         * 463b6a9, gpt-oss 20B MXFP4 MoE 223.64 t/s (a 2026 user file). */
        {"pro6000 qwen3moe q4_k_m", 251.04,
         {"--gpu", "rtx-pro-6000-blackwell", "--model", "qwen3-30b-a3b", "--weights", "q4_k_m",
          "--context", "64", NULL}},
        {"5070ti gpt-oss-20b", 223.64,
         {"--gpu", "rtx-5070-ti", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe",
          "--context", "64", NULL}},
        /* The same file's "gpt-oss 20B BF16" row, 168.42 t/s: MXFP4 experts,
         * the rest BF16 (12.83 GiB), mxfp4-moe-bf16. */
        {"5070ti gpt-oss-20b bf16 rest", 168.42,
         {"--gpu", "rtx-5070-ti", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe-bf16",
          "--engine", "llama.cpp", "--context", "64", NULL}},
        /* DGX Spark (GB10, LPDDR5X 273 GB/s), llama.cpp build b6767, llama-bench
         * tg32 at depth 0 and 16384: 79.74 and 64.02 t/s (G. Gerganov's DGX
         * Spark benchmark page, jetsonhacks copy, Oct 2025). */
        {"spark gpt-oss-20b", 79.74,
         {"--gpu", "dgx-spark", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe",
          "--context", "16", NULL}},
        {"spark gpt-oss-20b d16384", 64.02,
         {"--gpu", "dgx-spark", "--model", "gpt-oss-20b", "--weights", "mxfp4-moe",
          "--context", "16400", NULL}},
        /* DGX Spark, Llama 3.1 8B, a 29-token prompt and 200 greedy tokens
         * (manavsehgal ai-field-notes, "TensorRT-LLM on the Spark"): NIM
         * (vLLM 0.10.1) FP8 22.1 tok/s, TensorRT-LLM NVFP4 38.8 tok/s. */
        {"spark llama-3.1-8b fp8 nim", 22.1,
         {"--gpu", "dgx-spark", "--model", "llama-3.1-8b", "--weights", "fp8", "--engine",
          "vllm", "--context", "129", NULL}},
        {"spark llama-3.1-8b nvfp4 trt", 38.8,
         {"--gpu", "dgx-spark", "--model", "llama-3.1-8b", "--weights", "nvfp4", "--engine",
          "tensorrt-llm", "--context", "129", NULL}},
        /* vLLM, A100 80GB, Qwen3-30B-A3B, concurrency 1, 128 in / 128 out:
         * TPOT 9.6 ms (tenstorrent/tt-inference-server issue #340). */
        {"a100 qwen3moe vllm", 1000.0 / 9.6,
         {"--gpu", "a100", "--model", "qwen3-30b-a3b", "--weights", "bf16", "--context", "192",
          "--engine", "vllm", NULL}},
        /* gpt-fast mixtral-moe README (A100 80GB at 330 W): Mixtral 8x7B bf16
         * on 2 / 8 GPUs 96.67 / 227.82 tok/s, int8 on 1 GPU 97.92. */
        {"a100x2 mixtral gpt-fast", 96.67,
         {"--gpu", "a100", "--model", "mixtral-8x7b", "--weights", "bf16", "--gpus", "2",
          "--context", "100", "--engine", "gpt-fast", NULL}},
        {"a100x8 mixtral gpt-fast", 227.82,
         {"--gpu", "a100", "--model", "mixtral-8x7b", "--weights", "bf16", "--gpus", "8",
          "--context", "100", "--engine", "gpt-fast", NULL}},
        /* llama.cpp-2023's MoE figure: Mixtral 8x7B Q3_K_M fully on an RTX
         * 4090, early-2024 build, tg128 83.16 t/s (TheBloke/Mixtral-8x7B-
         * v0.1-GGUF discussion #9); the file's 18.96 GiB over 46.70 B params
         * is 3.49 bits per weight, output matrix included. */
        {"4090 mixtral q3_k_m llama.cpp-2023", 83.16,
         {"--gpu", "4090", "--model", "mixtral-8x7b", "--weights", "3.49", "--embed-format",
          "3.49", "--context", "64", "--engine", "llama.cpp-2023", NULL}},
        {"a100 mixtral int8 gpt-fast", 97.92,
         {"--gpu", "a100", "--model", "mixtral-8x7b", "--weights", "int8", "--context", "100",
          "--engine", "gpt-fast", NULL}},
    };
    check_rows(rows, sizeof rows / sizeof rows[0], 0.25);
}
END_TEST

/* `hw list engines` and `hw show engine:ID`: the profiles as data, with the
 * figures of lib/engines.c (vllm: 0.85 / 0.85, 25 us, 57 us per MoE layer;
 * llama.cpp splits layers). */
START_TEST(cli_engine_listing)
{
    const char *l[] = {"--json", "hw", "list", "engines", NULL};
    const char *v[] = {"--json", "hw", "show", "engine:SGLang", NULL};
    const char *bad[] = {"hw", "show", "engine:warp-drive", NULL};
    json_t *j = gp_test_cli_json(l), *items;
    char *err = NULL;
    size_t i;
    items = json_object_get(j, "items");
    ck_assert_uint_eq(json_array_size(items), gp_engine_count());
    for (i = 0; i < json_array_size(items); i++) {
        json_t *it = json_array_get(items, i);
        ck_assert_str_eq(json_string_value(json_object_get(it, "id")), gp_engine_at(i)->id);
        ck_assert(strlen(json_string_value(json_object_get(it, "source"))) > 10);
    }
    json_decref(j);
    {
        /* The CSV listing writes booleans as hw show --csv does: true /
         * false (it wrote 1 / 0); generic runs tiled, fused GEMMs. */
        const char *c[] = {"--csv", "hw", "list", "engines", NULL};
        char *out = NULL;
        ck_assert_int_eq(gp_test_cli(c, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "\ngeneric,\"generic engine (default)\","));
        ck_assert_ptr_nonnull(strstr(out, ",0.743,0,true,false,"));
        free(out);
    }
    j = gp_test_cli_json(v);
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "vllm");
    GP_ASSERT_REL(gp_test_jnum(j, "eff_float"), 0.85, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "layer_overhead_s"), 25e-6, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "moe_layer_overhead_s"), 57e-6, 1e-12);
    ck_assert_str_eq(json_string_value(json_object_get(j, "split")), "tensor");
    /* hw show's JSON contract (DESIGN.md): `sources`, as for every entry. */
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "sources"), "profile")),
                     json_string_value(json_object_get(j, "source")));
    json_decref(j);
    /* The Metal profile's two prefill caps: 170 FLOP per clock per core on
     * the ALUs, 630 on the M5's matrix units (the log-mean of 545, 678 and
     * 680 from the three M5 pp512 rows, inference.md 5.3); the 2023 fit has
     * no tensor cap (0). */
    {
        const char *m[] = {"--json", "hw", "show", "engine:llama.cpp-metal", NULL};
        const char *m23[] = {"--json", "hw", "show", "engine:llama.cpp-metal-2023", NULL};
        j = gp_test_cli_json(m);
        GP_ASSERT_REL(gp_test_jnum(j, "prefill_flop_per_clock_per_sm"), 170.0, 0);
        GP_ASSERT_REL(gp_test_jnum(j, "prefill_tensor_flop_per_clock_per_sm"), 630.0, 0);
        json_decref(j);
        j = gp_test_cli_json(m23);
        GP_ASSERT_REL(gp_test_jnum(j, "prefill_tensor_flop_per_clock_per_sm"), 0.0, 0);
        json_decref(j);
    }
    ck_assert_int_eq(gp_test_cli(bad, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "unknown engine 'warp-drive'"));
    free(err);
}
END_TEST

/* `decode --help` names every profile the library has (a word of its own:
 * "llama.cpp" inside "llama.cpp-metal" does not count), says which builds
 * llama.cpp and the default profile run as on Apple silicon, and that the
 * weights' format can name the engine (a GGUF format: llama.cpp) and the
 * lm_head's format (q6_k for most GGUF formats) when --engine and
 * --embed-format are not given. */
static int names_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    const char *p;
    for (p = strstr(text, w); p != NULL; p = strstr(p + 1, w)) {
        char before = p == text ? ' ' : p[-1], after = p[n];
        if (strchr(" (,\n", before) != NULL && strchr(" ),\n", after) != NULL)
            return 1;
    }
    return 0;
}

START_TEST(cli_help_lists_every_engine)
{
    const char *h[] = {"decode", "--help", NULL};
    char *out = NULL;
    size_t i;
    ck_assert_int_eq(gp_test_cli(h, &out, NULL), 0);
    for (i = 0; i < gp_engine_count(); i++)
        ck_assert_msg(names_word(out, gp_engine_at(i)->id), "decode --help omits engine %s",
                      gp_engine_at(i)->id);
    ck_assert_ptr_nonnull(strstr(out, "Apple"));
    ck_assert_ptr_nonnull(strstr(out, "GGUF"));
    ck_assert_ptr_nonnull(strstr(out, "q6_k"));
    /* --gpus is not tensor parallelism for every engine (llama.cpp splits
     * layers): its line points to --split. */
    {
        char *g = strstr(out, "  --gpus N"), *end;
        ck_assert_ptr_nonnull(g);
        end = strstr(g + 1, "\n  --");
        ck_assert_ptr_nonnull(end);
        *end = '\0';
        ck_assert_msg(strstr(g, "--split") != NULL, "%s", g);
    }
    free(out);
}
END_TEST

/* The dequantisation row names the units it runs on: CUDA cores on an
 * NVIDIA GPU, the vector ALUs elsewhere (an M2 Ultra has no CUDA cores). */
static char *dequant_row(const char *gpu)
{
    const char *a[] = {"decode", "--gpu", gpu, "--model", "llama-3.1-8b", "--weights", "q4_k_m",
                       NULL};
    char *out = NULL, *row, *end;
    ck_assert_int_eq(gp_test_cli(a, &out, NULL), 0);
    row = strstr(out, "dequant FLOPs per step");
    ck_assert_ptr_nonnull(row);
    end = strchr(row, '\n');
    ck_assert_ptr_nonnull(end);
    *end = '\0';
    memmove(out, row, strlen(row) + 1);
    return out;
}

START_TEST(cli_dequant_row_names_the_units)
{
    char *nv = dequant_row("rtx-4090"), *apple = dequant_row("m2-ultra"),
         *amd = dequant_row("rx-7900-xtx");
    ck_assert_msg(strstr(nv, "CUDA cores (fp32 rate)") != NULL, "%s", nv);
    ck_assert_msg(strstr(apple, "CUDA") == NULL, "%s", apple);
    ck_assert_msg(strstr(apple, "vector ALUs (fp32 rate)") != NULL, "%s", apple);
    ck_assert_msg(strstr(amd, "CUDA") == NULL, "%s", amd);
    free(nv);
    free(apple);
    free(amd);
}
END_TEST

/* TensorRT-LLM's 4-bit weight-only decode (eff_quant4 0.86, fitted to
 * nvidia-holoscan/holohub#170's four rows, rms 1.4 %) and its FP8 path
 * (eff_quant 0.72) are distinct: the weights' bytes stream at 0.86 below 8
 * bits and 0.72 at 8; the held-out DGX Spark NVFP4 row (38.8 tok/s) reads
 * within 5 %. */
START_TEST(trtllm_w4a16_rows)
{
    static const struct {
        const char *gpu, *model, *weights, *ctx;
        double measured;
    } rows[] = {
        {"rtx-a6000", "llama-2-7b", "awq-int4-g128", "64", 137.56},
        {"rtx-a6000", "llama-2-13b", "awq-int4-g128", "64", 77.5},
        {"rtx-6000-ada", "llama-2-7b", "awq-int4-g128", "64", 186.583},
        {"rtx-6000-ada", "llama-2-13b", "awq-int4-g128", "64", 105.275},
        {"dgx-spark", "llama-3.1-8b", "nvfp4", "129", 38.8},
    };
    const char *fp8[] = {"--json", "decode", "--gpu", "h100", "--model", "llama-3.1-8b",
                         "--weights", "fp8", "--engine", "tensorrt-llm", NULL};
    size_t k;
    json_t *j;
    for (k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const char *argv[] = {"--json", "decode", "--gpu", rows[k].gpu, "--model", rows[k].model,
                              "--weights", rows[k].weights, "--engine", "tensorrt-llm",
                              "--context", rows[k].ctx, NULL};
        j = gp_test_cli_json(argv);
        GP_ASSERT_REL(json_number_value(json_object_get(json_object_get(j, "expected"),
                                                        "eff_weights")),
                      0.86, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(j, "expected_tokens_per_s"), rows[k].measured, 0.05);
        json_decref(j);
    }
    j = gp_test_cli_json(fp8);
    GP_ASSERT_REL(json_number_value(json_object_get(json_object_get(j, "expected"),
                                                    "eff_weights")),
                  0.72, 1e-12);
    json_decref(j);
}
END_TEST

/* A dearer format's extra unpacking (dequant_scale above 1) is spent once a
 * step, not per sequence: it depends on the weights alone, which MMVQ's
 * unrolled columns share (inference.md 2).  RTX 3090, Llama 3 8B IQ3_XXS
 * (scale 2.9), context 256, batch 2: 6,979,588,096 body params x 8 FLOP x
 * (2 sequences + 1.9) = 217,763,148,595.2 FLOP (x 2 x 2.9 = 5.8, 323.9e9,
 * had every sequence unpacked the grids).  Measured (llama.cpp PR #8215,
 * PR column, pp512 at ubatch 1 / 2 / 4 / 8): RTX 3090 143.46 / 242.70 /
 * 367.51 / 527.16, RTX 4090 235.58 / 403.91 / 731.84 / 1162.57 t/s; the
 * model gives 144.4 / 221.7 / 302.8 / 370.4 and 226.4 / 448.1 / 762.8 /
 * 962.2 (within 30 %, as Q4_0's batch-8 rows, -23 %; per sequence it read
 * -34 / -54 / -67 % on the 3090). */
START_TEST(dearer_format_unpacks_once_a_step)
{
    static const struct {
        const char *gpu, *batch;
        double measured;
    } rows[] = {
        {"rtx-3090", "1", 143.46}, {"rtx-3090", "2", 242.70}, {"rtx-3090", "4", 367.51},
        {"rtx-3090", "8", 527.16}, {"rtx-4090", "1", 235.58}, {"rtx-4090", "2", 403.91},
        {"rtx-4090", "4", 731.84}, {"rtx-4090", "8", 1162.57},
    };
    const char *a[] = {"--gpu", "rtx-3090", "--model", "llama-3-8b", "--weights", "iq3_xxs",
                       "--context", "256", "--batch", "2", "--engine", "llama.cpp", NULL};
    size_t i;
    json_t *j = decode(a);
    GP_ASSERT_REL(gp_test_jnum(j, "dequant_flop"), 6979588096.0 * 8.0 * 3.9, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "dequant_scale"), 2.9, 1e-12);
    json_decref(j);
    {
        /* The table's dequant row says which part grows with the batch. */
        const char *t[] = {"decode", "--gpu", "rtx-3090", "--model", "llama-3-8b", "--weights",
                           "iq3_xxs", "--context", "256", "--batch", "2", NULL};
        char *out = NULL;
        ck_assert_int_eq(gp_test_cli(t, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "2.9 x Q4_0's unpacking per weight, each sequence "
                                          "unpacks its own at Q4_0's cost (x batch), the rest once"));
        free(out);
    }
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double got;
        a[1] = rows[i].gpu;
        a[9] = rows[i].batch;
        j = decode(a);
        got = gp_test_jnum(j, "aggregate_expected_tokens_per_s");
        ck_assert_msg(fabs(got / rows[i].measured - 1.0) <= 0.30, "%s batch %s: %.1f vs %.2f",
                      rows[i].gpu, rows[i].batch, got, rows[i].measured);
        json_decref(j);
    }
}
END_TEST

/* llama.cpp's GEMVs (MMVQ, batches up to 8) call the quantised dot product
 * once per sequence (ggml-cuda/mmvq.cu: vec_dot_q_cuda inside the loop
 * over the batch's columns), so the unpacking is spent per sequence.  RTX
 * 3090, Llama 3 8B Q4_0, context 256, batch 4, by hand:
 *   body 8,030,261,248 - 2 x 128256 x 4096 = 6,979,588,096 params x 8 FLOP
 *     = 55,836,704,768 per sequence, x 4 = 223,346,819,072 FLOP, on the
 *     fp32 cores at 35.6e12 x 0.85 = 30.26e12: 7.380926 ms;
 *   matmuls 4 x (2 x 7,504,924,672 + 4 x 32 x 32 x 128 x 256) =
 *     60,576,268,288 FLOP at 71e12 x 0.85 = 60.35e12: 1.003749 ms;
 *   compute 8.384675 ms > memory (4,356,967,680 + 134,217,728 + 25,165,824
 *     B at 936e9 x 0.88 x 0.90: 6.092376 ms); + 32 x 35 us x 2 / 1.695 =
 *     1.321534 ms: step 9.706209 ms, 412.11 tok/s in all.
 * Measured (llama.cpp PR #15802, RTX 3090, llama 8B Q4_0, pp512 at
 * ubatch 4): 468.95 (-12 %); with the unpacking once a step the model gave
 * 539.5 (+15 %), and 1049 at batch 8 against 570.67 (now 442.2, -23 %).
 * An engine without per-sequence unpacking (vllm) keeps it once a step. */
START_TEST(llama_cpp_gemv_dequant_per_sequence)
{
    const char *a[] = {"--gpu", "rtx-3090", "--model", "llama-3-8b", "--weights", "q4_0",
                       "--context", "256", "--batch", "4", "--engine", "llama.cpp", NULL};
    const char *v1[] = {"--gpu", "rtx-3090", "--model", "llama-3-8b", "--weights", "q4_0",
                        "--context", "256", "--engine", "vllm", NULL};
    const char *v4[] = {"--gpu", "rtx-3090", "--model", "llama-3-8b", "--weights", "q4_0",
                        "--context", "256", "--batch", "4", "--engine", "vllm", NULL};
    const char *m1[] = {"--gpu", "rtx-4090", "--model", "qwen3-30b-a3b", "--weights", "q4_0",
                        "--context", "256", "--engine", "llama.cpp", NULL};
    const char *m4[] = {"--gpu", "rtx-4090", "--model", "qwen3-30b-a3b", "--weights", "q4_0",
                        "--context", "256", "--batch", "4", "--engine", "llama.cpp", NULL};
    json_t *j = decode(a), *ledger;
    double deq, vdeq, body1;
    GP_ASSERT_REL(gp_test_jnum(j, "dequant_flop"), 223346819072.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "flop_per_step"), 60576268288.0, 1e-12);
    ledger = json_object_get(json_object_get(j, "expected"), "ledger");
    GP_ASSERT_REL(gp_test_jnum(ledger, "compute_s"), 8.384675e-3, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(ledger, "memory_s"), 6.092376e-3, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "aggregate_expected_tokens_per_s"), 4.0 / 9.706209e-3, 1e-6);
    json_decref(j);
    j = decode(v1);
    vdeq = gp_test_jnum(j, "dequant_flop");
    json_decref(j);
    j = decode(v4);
    GP_ASSERT_REL(gp_test_jnum(j, "dequant_flop"), vdeq, 1e-12);
    json_decref(j);
    /* MoE: each sequence unpacks its own k experts -- 4 x the weights one
     * token runs through, not the experts the 4 touch together. */
    j = decode(m1);
    body1 = gp_test_jnum(j, "body_params");
    json_decref(j);
    j = decode(m4);
    deq = gp_test_jnum(j, "dequant_flop");
    GP_ASSERT_REL(deq, 4.0 * body1 * 8.0, 1e-12);
    ck_assert(gp_test_jnum(j, "body_params") > body1);
    json_decref(j);
    /* A format whose dense tensors stay bf16 unpacks its experts only:
     * gpt-oss-20b in mxfp4-moe-bf16 at batch 1, the routed params one token
     * reads (body less its dense part) x 8; on a dense model nothing is
     * unpacked, and the step is the bf16 one. */
    {
        const char *g1[] = {"--gpu", "rtx-4090", "--model", "gpt-oss-20b", "--weights",
                            "mxfp4-moe-bf16", "--context", "256", "--engine", "llama.cpp", NULL};
        /* The default engine: its eff_quant (0.80) differs from its
         * eff_float (0.85), so the step shows which format was priced. */
        const char *d8[] = {"--gpu", "a100", "--model", "llama-2-7b", "--weights",
                            "mxfp4-moe-bf16", "--batch", "8", NULL};
        const char *b8[] = {"--gpu", "a100", "--model", "llama-2-7b", "--weights", "bf16",
                            "--batch", "8", NULL};
        double bf;
        j = decode(g1);
        GP_ASSERT_REL(gp_test_jnum(j, "dequant_flop"),
                      8.0 * (gp_test_jnum(j, "body_params") -
                             gp_test_jnum(j, "body_dense_params")),
                      1e-12);
        ck_assert(gp_test_jnum(j, "body_dense_params") > 0.0);
        json_decref(j);
        j = decode(b8);
        bf = gp_test_jnum(j, "aggregate_expected_tokens_per_s");
        json_decref(j);
        j = decode(d8);
        ck_assert(gp_test_jnum(j, "dequant_flop") == 0.0);
        GP_ASSERT_REL(gp_test_jnum(j, "aggregate_expected_tokens_per_s"), bf, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "eff_weights"), 0.85, 1e-12);
        json_decref(j);
    }
    /* What the table says: the dequant row's per-sequence note, and the
     * note on a MoE format over a dense model. */
    {
        const char *t4[] = {"decode", "--gpu", "rtx-3090", "--model", "llama-3-8b", "--weights",
                            "q4_0", "--batch", "4", "--engine", "llama.cpp", NULL};
        const char *td[] = {"decode", "--gpu", "a100", "--model", "llama-2-7b", "--weights",
                            "mxfp4-moe-bf16", NULL};
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(gp_test_cli(t4, &out, &err), 0);
        ck_assert_msg(strstr(out, "each sequence unpacks its own (x batch)") != NULL, "%s", out);
        free(out);
        free(err);
        ck_assert_int_eq(gp_test_cli(td, &out, &err), 0);
        ck_assert_msg(strstr(err, "llama-2-7b has no routed experts, so all its weights are "
                                  "priced in the format's dense one, bf16 (16 bits)") != NULL,
                      "%s", err);
        free(out);
        free(err);
    }
    /* No MMQ rate (llama.cpp-rocm): past batch 8 the step unpacks once, so
     * the ridge is the once-a-step one -- batches 9 and 32 are memory-bound
     * and the ridge lies beyond them, where the GEMVs' per-sequence slope
     * alone would have put it near 4. */
    {
        const char *r9[] = {"--gpu", "rx-7900-xtx", "--model", "llama-2-7b", "--weights", "q4_0",
                            "--batch", "9", "--engine", "llama.cpp-rocm", NULL};
        const char *r32[] = {"--gpu", "rx-7900-xtx", "--model", "llama-2-7b", "--weights",
                             "q4_0", "--batch", "32", "--engine", "llama.cpp-rocm", NULL};
        j = decode(r9);
        ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "memory");
        ck_assert(gp_test_jnum(j, "ridge_batch") > 32.0);
        json_decref(j);
        j = decode(r32);
        ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "memory");
        json_decref(j);
        /* The ridge is where the step turns: memory-bound at the batch
         * below it, compute-bound at the one above. */
        {
            const char *rr[] = {"--gpu", "rx-7900-xtx", "--model", "llama-2-7b", "--weights",
                                "q4_0", "--engine", "llama.cpp-rocm", "--batch", NULL, NULL};
            char lo[32], hi[32];
            double ridge;
            j = decode(r9);
            ridge = gp_test_jnum(j, "ridge_batch");
            json_decref(j);
            snprintf(lo, sizeof lo, "%.0f", floor(ridge));
            snprintf(hi, sizeof hi, "%.0f", floor(ridge) + 1.0);
            rr[9] = lo;
            j = decode(rr);
            ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "memory");
            json_decref(j);
            rr[9] = hi;
            j = decode(rr);
            ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "compute");
            json_decref(j);
        }
    }
}
END_TEST


Suite *gp_test_suite_engines(void)
{
    Suite *s = suite_create("engines");
    TCase *tc = tcase_create("profiles");
    /* Its row tables run the CLI a hundred times (cuda_scoreboard_rows: tg
     * and pp for every scoreboard GPU), each loading the database: seconds
     * under the sanitizers, past Check's 4 s default. */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, aliases_resolve);
    tcase_add_test(tc, exllamav2_worked_row);
    tcase_add_test(tc, gpt_fast_worked_row);
    tcase_add_test(tc, gpt_fast_fit_rows);
    tcase_add_test(tc, mlc_q4f16_1_rows);
    tcase_add_test(tc, gguf_and_mlc_formats);
    tcase_add_test(tc, published_rows);
    tcase_add_test(tc, non_cuda_llama_cpp);
    tcase_add_test(tc, apple_metal_rows);
    tcase_add_test(tc, apple_metal_prefill);
    tcase_add_test(tc, apple_metal_current_rows);
    tcase_add_test(tc, mlx_rows);
    tcase_add_test(tc, prefill_worked_row);
    tcase_add_test(tc, prefill_published_rows);
    tcase_add_test(tc, prefill_tiled_by_hand);
    tcase_add_test(tc, prefill_near_ridge_rows);
    tcase_add_test(tc, unfused_attention_rows);
    tcase_add_test(tc, llama_cpp_f16_prefill_rows);
    tcase_add_test(tc, cuda_scoreboard_rows);
    tcase_add_test(tc, vllm_rocm_rows);
    tcase_add_test(tc, moe_worked_row);
    tcase_add_test(tc, moe_published_rows);
    tcase_add_test(tc, mxfp4_moe_format);
    tcase_add_test(tc, mxfp4_moe_bf16_format);
    tcase_add_test(tc, cli_engine_listing);
    tcase_add_test(tc, cli_help_lists_every_engine);
    tcase_add_test(tc, cli_dequant_row_names_the_units);
    tcase_add_test(tc, trtllm_w4a16_rows);
    tcase_add_test(tc, llama_cpp_gemv_dequant_per_sequence);
    tcase_add_test(tc, dearer_format_unpacks_once_a_step);
    suite_add_tcase(s, tc);
    return s;
}
