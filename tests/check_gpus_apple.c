/* Apple's M5 generation -- M5 (10-core GPU), M5 Pro (20- and 16-core GPU),
 * M5 Max (40- and 32-core GPU) -- against their sources, and the llama.cpp
 * Metal rows published for them.
 *
 * Expected values are worked out by hand from the figures in each entry's
 * sources (hwdb/gpus/apple-m5*.yaml, hwdb/sources.yaml); nothing here is
 * copied from the program's output.
 *   Cores: M5 10 (Apple newsroom 2025-10-15), M5 Pro up to 20 and a 16-core
 *     bin, M5 Max up to 40 and a 32-core bin (Apple newsroom 2026-03-03;
 *     MacBook Pro tech specs, support.apple.com/126318).
 *   Bandwidth: 153 / 307 / 307 / 614 / 460 GB/s (the same); LPDDR5X-9600
 *     on a 128 / 256 / 256 / 512 / 384-bit bus: 153.6 / 307.2 / 307.2 /
 *     614.4 / 460.8 GB/s, Apple rounding down.
 *   Memory at most: 32 / 64 / 64 / 128 / 36 GB.  Usable (apple_ws): 2/3 up
 *     to 36 GB, 3/4 above: 32 GiB x 2/3 = 21845.33 MiB -> 21845 MiB;
 *     64 GiB x 3/4 = 49152 MiB; 128 GiB x 3/4 = 98304 MiB; 36 GiB x 2/3 =
 *     24576 MiB.
 *   GPU clock (clock_m5): 1578 MHz, measured with powermetrics on an M5
 *     under load, assumed for the Pro and Max GPU die.
 *   Peaks: 128 FP32 ALUs per core, an FMA each, FP16 at the FP32 rate
 *     (metal_bench): cores x 256 x 1.578e9 = 4.03968 (M5), 8.07936 (20c),
 *     6.463488 (16c), 16.15872 (40c), 12.926976 (32c) TFLOP/s.  Tensor
 *     fp16, the Neural Accelerators: 1024 FLOP per core per clock, 4x the
 *     ALUs, inferred from the A19 microbenchmark (tzakharko_na) and Apple's
 *     "over 4x" (apple_m5): cores x 1024 x 1.578e9 = 16.15872 (M5),
 *     32.31744 (20c), 25.853952 (16c), 64.63488 (40c), 51.707904 (32c)
 *     TFLOP/s; no bf16, int8 or fp8 rate.
 *   efficiency.memory: M5 122 GB/s measured / 153 = 0.797 (mstinker_m5);
 *     the others 0.821 (apple_bw_median).  efficiency.compute 0.74 (the M4
 *     family's F16 pp512 fraction, assumed: apple_compute_sib).
 *   Power (apple_power_sib): 65 W (M4 Mac mini), 100 W (M2 Pro Mac mini),
 *     145 W (M2 Max Mac Studio). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */
#define CLK 1.578e9

static double peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe)
{
    return gp_gpu_peak(g, p, pipe, GP_ACC_FP32, 0);
}

/* What every M5-generation entry shares: FP16 at the FP32 rate on the
 * ALUs, a tensor fp16 rate 4x that (and no other tensor rate), unified
 * memory behind a nominal host link, no price. */
static void apple_m5_common(const gp_gpu *g, double cores, double eff_mem)
{
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA), cores * 256 * CLK, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA), cores * 256 * CLK, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR), cores * 1024 * CLK, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR), 4 * peak(g, GP_FP16, GP_PIPE_CUDA), 1e-12);
    ck_assert(peak(g, GP_FP32, GP_PIPE_TENSOR) == 0.0);
    ck_assert(peak(g, GP_BF16, GP_PIPE_TENSOR) == 0.0);
    ck_assert(peak(g, GP_INT8, GP_PIPE_TENSOR) == 0.0);
    ck_assert(peak(g, GP_FP8, GP_PIPE_TENSOR) == 0.0);
    ck_assert(g->price.v == 0.0);
    ck_assert(g->rent.v == 0.0);
    GP_ASSERT_REL(g->eff_mem.v, eff_mem, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 0.74, 1e-12);
    GP_ASSERT_REL(g->eff_mfu.v, 0.35, 1e-12);
    ck_assert_str_eq(g->vendor, "Apple");
    ck_assert_str_eq(g->architecture, "Apple G17 (Apple10 GPU family)");
    ck_assert_str_eq(g->memory_type, "LPDDR5X-9600 (unified with the CPU)");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_int_eq(gp_gpu_unified(g), 1);
}

START_TEST(apple_m5_matches_sources)
{
    static const gp_test_card card = {"apple-m5", 10, CLK, 153e9, 32 * GIB, 21845 * MIB, 65,
                                      0, 0, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* 10 x 256 x 1.578e9 = 4.03968e12; the usable figure is 2/3 of 32 GiB
     * rounded down to whole MiB; the measured copy 122 of Apple's 153. */
    apple_m5_common(g, 10, 0.797);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA), 4.03968e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR), 16.15872e12, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, 32 * GIB * 2 / 3, 2e-5);
    GP_ASSERT_REL(g->eff_mem.v, 122.0 / 153.0, 1e-3);
    /* 153.6 GB/s is LPDDR5X-9600 x 128 bit; Apple says 153. */
    GP_ASSERT_REL(g->mem_bw.v, 128 / 8 * 9.6e9, 0.004);
}
END_TEST

START_TEST(apple_m5_pro_matches_sources)
{
    static const gp_test_card c20 = {"apple-m5-pro", 20, CLK, 307e9, 64 * GIB, 49152 * MIB,
                                     100, 0, 0, NULL};
    static const gp_test_card c16 = {"apple-m5-pro-16c", 16, CLK, 307e9, 64 * GIB, 49152 * MIB,
                                     100, 0, 0, NULL};
    const gp_gpu *a = gp_test_card_check(&c20), *b = gp_test_card_check(&c16);
    /* 20 x 256 x 1.578e9 = 8.07936e12, 16 x ... = 6.463488e12; 3/4 of
     * 64 GiB = 49152 MiB exactly; one 256-bit LPDDR5X-9600 bus for both
     * bins: 307.2 GB/s, Apple's 307. */
    apple_m5_common(a, 20, 0.821);
    apple_m5_common(b, 16, 0.821);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA), 8.07936e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA), 6.463488e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR), 32.31744e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_TENSOR), 25.853952e12, 1e-12);
    GP_ASSERT_REL(a->mem_usable.v, 64 * GIB * 3 / 4, 1e-12);
    GP_ASSERT_REL(a->mem_bw.v, 256 / 8 * 9.6e9, 0.001);
    ck_assert(b->mem_bw.v == a->mem_bw.v);
}
END_TEST

START_TEST(apple_m5_max_matches_sources)
{
    static const gp_test_card c40 = {"apple-m5-max", 40, CLK, 614e9, 128 * GIB, 98304 * MIB,
                                     145, 0, 0, NULL};
    static const gp_test_card c32 = {"apple-m5-max-32c", 32, CLK, 460e9, 36 * GIB, 24576 * MIB,
                                     145, 0, 0, NULL};
    const gp_gpu *a = gp_test_card_check(&c40), *b = gp_test_card_check(&c32);
    /* 40 x 256 x 1.578e9 = 16.15872e12, 32 x ... = 12.926976e12; 3/4 of
     * 128 GiB = 98304 MiB; 2/3 of 36 GiB = 24576 MiB (36 GB is the only size
     * the 32-core bin is sold with, so it is under the 2/3 rule); 512 and
     * 384 bits of LPDDR5X-9600: 614.4 and 460.8 GB/s, Apple's 614 and 460. */
    apple_m5_common(a, 40, 0.821);
    apple_m5_common(b, 32, 0.821);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA), 16.15872e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA), 12.926976e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR), 64.63488e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_TENSOR), 51.707904e12, 1e-12);
    GP_ASSERT_REL(a->mem_usable.v, 128 * GIB * 3 / 4, 1e-12);
    GP_ASSERT_REL(b->mem_usable.v, 36 * GIB * 2 / 3, 1e-12);
    GP_ASSERT_REL(a->mem_bw.v, 512 / 8 * 9.6e9, 0.001);
    GP_ASSERT_REL(b->mem_bw.v, 384 / 8 * 9.6e9, 0.002);
    /* twice the M5 Pro's cores and bus */
    GP_ASSERT_REL(a->mem_bw.v, 2 * gp_db_find_gpu(gp_test_db(), "m5-pro")->mem_bw.v, 1e-12);
}
END_TEST

START_TEST(apple_m5_names_resolve)
{
    /* ids, aliases, the names Apple and the benchmark tables write */
    static const gp_test_name pairs[] = {
        {"Apple M5", "apple-m5"},
        {"M5", "apple-m5"},
        {"m5-10c", "apple-m5"},
        {"Apple M5 (10-core GPU)", "apple-m5"},
        {"Apple M5 Pro", "apple-m5-pro"},
        {"m5-pro", "apple-m5-pro"},
        {"Apple M5 Pro (20-core GPU)", "apple-m5-pro"},
        {"Apple M5 Pro (16-core GPU)", "apple-m5-pro-16c"},
        {"m5-pro-16c", "apple-m5-pro-16c"},
        {"Apple M5 Max", "apple-m5-max"},
        {"m5-max", "apple-m5-max"},
        {"M5 Max 40-core", "apple-m5-max"},
        {"Apple M5 Max (40-core GPU) 128GB", "apple-m5-max"},
        {"Apple M5 Max (32-core GPU)", "apple-m5-max-32c"},
        {"m5-max-32c", "apple-m5-max-32c"},
        {"M5 Max (32-core GPU, 36GB)", "apple-m5-max-32c"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    /* a figure the entry does not have finds nothing: the 40-core part has
     * 128 GB at most here, the 32-core part is not the 40-core one */
    ck_assert_ptr_null(gp_db_find_gpu(db, "Apple M5 Max 48GB"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "M5 Ultra"));
    ck_assert_ptr_ne(gp_db_find_gpu(db, "m5"), gp_db_find_gpu(db, "m4"));
}
END_TEST

static json_t *decode(const char *const *args)
{
    const char *argv[40];
    size_t i = 0, j;
    argv[i++] = "--json";
    argv[i++] = "decode";
    for (j = 0; args[j] != NULL && i < 39; j++)
        argv[i++] = args[j];
    argv[i] = NULL;
    return gp_test_cli_json(argv);
}

/* llama.cpp PR #16634 (mweinbach, 2025-10-25): an M5 (10-core GPU) on the
 * PR's Metal 4 tensor-API branch, llama-bench tg128 (contexts 0 .. 127:
 * priced at 64).  Worked by hand, Mistral 7B v0.1 Q4_0, the engine the GGUF
 * format implies, run as llama.cpp-metal on an Apple GPU:
 *   body (7241732096 - 2 x 32000 x 4096) x 4.5/8 = 6979588096 x 0.5625 =
 *     3926018304 B; output matrix at Q6_K 32000 x 4096 x 6.5625/8 =
 *     107520000 B; one input row 4096 x 4.5/8 = 2304 B; KV (8 KV heads x
 *     128, fp16, 32 layers) 64 x 32 x 2 x 1024 x 2 = 8388608 B; activations
 *     32 x (10 x 4096 + 4 x 14336) x 2 = 6291456 B: 4048220672 B;
 *   at 153e9 x 0.797 (efficiency.memory) x 1.0 (the profile's eff_quant) =
 *     121.941e9 B/s: 33.198192 ms;
 *   compute (2 x 7110660096 + attention 33554432 + 8 x 6979588096 dequant,
 *     about 70.1e9 FLOP) at 4.03968e12 x 0.74 = 2.9894e12: 23.45 ms, under
 *     the memory time;
 *   fixed 32 layers x 70 us x 2 GHz / 1.578 GHz = 2.839037 ms (the
 *     current builds' llama.cpp-metal);
 *   step 36.037229 ms: 27.749 t/s against 26.59 measured (+4.4 %; the Nov
 *     2023 profile's 95 us gives 37.051170 ms, 26.990 t/s, +1.5 %).
 * The same run's two small models, priced from their shapes (no hwdb
 * entry; the params are the configs' counts, summed by hand):
 *   phi-2 (32 layers, hidden 2560, 32 heads of 80, MHA, FFN 10240, vocab
 *     51200, untied, biases): per layer 4 x 2560^2 + 4 x 2560 (attention) +
 *     2 x 2560 x 10240 + 10240 + 2560 (MLP) + 2 x 2560 (norm) = 78671360;
 *     x 32 + 2 x 51200 x 2560 + 51200 (lm_head bias) + 5120 = 2779683840
 *     ("2.78 B"); tg128 64.11 t/s measured;
 *   TinyLlama 1.1B (22 layers, hidden 2048, 32 heads of 64, 4 KV heads,
 *     FFN 5632, vocab 32000): per layer 2 x 2048^2 + 2 x 2048 x 256 + 3 x
 *     2048 x 5632 + 2 x 2048 = 44044288; x 22 + 2 x 32000 x 2048 + 2048 =
 *     1100048384 ("1.10 B"); tg128 149.69 t/s measured.
 * Each within 15 % (phi-2 +0.4 %, TinyLlama -3 %: the per-layer cost is most
 * of a 1B model's step). */
START_TEST(apple_m5_decode_rows)
{
    const char *mistral[] = {"--gpu", "apple-m5", "--model", "mistral-7b", "--weights", "q4_0",
                             "--context", "64", NULL};
    const char *phi2[] = {"--gpu", "m5", "--params", "2779683840", "--layers", "32",
                          "--hidden", "2560", "--heads", "32", "--kv-heads", "32",
                          "--head-dim", "80", "--ffn", "10240", "--vocab", "51200",
                          "--weights", "q4_0", "--context", "64", NULL};
    const char *tinyllama[] = {"--gpu", "Apple M5", "--params", "1100048384", "--layers", "22",
                               "--hidden", "2048", "--heads", "32", "--kv-heads", "4",
                               "--head-dim", "64", "--ffn", "5632", "--vocab", "32000",
                               "--weights", "q4_0", "--context", "64", NULL};
    const double bytes = 3926018304.0 + 107520000 + 2304 + 8388608 + 6291456;
    const double step = bytes / (153e9 * 0.797) + 32 * 70e-6 * 2.0 / 1.578;
    json_t *j = decode(mistral);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "engine")), "llama.cpp-metal");
    ck_assert_str_eq(json_string_value(json_object_get(j, "binding")), "memory");
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_step"), 4048220672.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 36.037229e-3, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), step, 1e-9);
    ck_assert(fabs(gp_test_jnum(j, "expected_tokens_per_s") / 26.59 - 1.0) < 0.15);
    ck_assert(fabs(gp_test_jnum(j, "expected_tokens_per_s") / 26.59 - 1.0) < 0.05);
    ck_assert(json_is_true(json_object_get(j, "fits")));
    json_decref(j);
    j = decode(phi2);
    ck_assert_ptr_nonnull(j);
    ck_assert(fabs(gp_test_jnum(j, "expected_tokens_per_s") / 64.11 - 1.0) < 0.15);
    json_decref(j);
    j = decode(tinyllama);
    ck_assert_ptr_nonnull(j);
    ck_assert(fabs(gp_test_jnum(j, "expected_tokens_per_s") / 149.69 - 1.0) < 0.15);
    json_decref(j);
}
END_TEST

/* llama.cpp discussion #4167's M5-generation rows (build c1d0e7a,
 * 2026-08-25), LLaMA 7B v2 Q4_0 tg128: M5 Pro 66.33, M5 Max 119.92 t/s, two
 * of the ten rows the current builds' llama.cpp-metal profile was fitted to
 * (docs/models/inference.md §4).  Worked by hand, context 64, 3789419008 B
 * per step (tests/check_engines.c, apple_metal_rows), fixed 32 x 70 us x 2 /
 * 1.578 = 2.839037 ms:
 *   M5 Pro: at 307e9 x 0.821 = 252.047e9 B/s 15.034573 ms + 2.839037 ms =
 *     17.873610 ms: 55.948 t/s (-15.7 % against 66.33);
 *   M5 Max: at 614e9 x 0.821 = 504.094e9 B/s 7.517286 ms + 2.839037 ms =
 *     10.356323 ms: 96.559 t/s (-19.5 % against 119.92);
 *   the 32-core M5 Max, no row: 460e9 x 0.821, 10.033943 + 2.839037 =
 *     12.872980 ms (77.68 t/s); the 16-core M5 Pro decodes as the 20-core
 *     (the same bus; its compute, 13.6 ms, stays under the memory time).
 * Still under: the pair alone solves to 0.916 of Apple's bandwidth
 * (15.0761 - 8.3389 ms = 3789419008 B / (614e9 x e)) and 1.6017 ms / 32 =
 * 50.05 us per layer at 1.578 GHz, 39.5 us at the profile's 2 GHz, a
 * bandwidth fraction above the convention's 1 of the copy-measured figure
 * (0.916 / 0.821 = 1.12), where the fit holds it at 1 and puts the rest in
 * the per-layer cost (the Nov 2023 profile, 95 us, read them -20 % and
 * -27 %).
 * Decode at batch 1 runs llama.cpp's GEMV kernels on the ALUs: the
 * tensor rate leaves these steps, the ALU compute account and the
 * pipeline ("cuda") as they were. */
START_TEST(apple_m5_pro_max_rows)
{
    const char *pro[] = {"--gpu", "m5-pro", "--model", "llama-2-7b", "--weights", "q4_0",
                         "--context", "64", NULL};
    const char *pro16[] = {"--gpu", "m5-pro-16c", "--model", "llama-2-7b", "--weights", "q4_0",
                           "--context", "64", NULL};
    const char *max[] = {"--gpu", "Apple M5 Max", "--model", "llama-2-7b", "--weights", "q4_0",
                         "--context", "64", NULL};
    const char *max32[] = {"--gpu", "m5-max-32c", "--model", "llama-2-7b", "--weights", "q4_0",
                           "--context", "64", NULL};
    const double fixed = 32 * 70e-6 * 2.0 / 1.578, b = 3789419008.0;
    json_t *j = decode(pro), *x;
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), b / (307e9 * 0.821) + fixed, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 17.873610e-3, 1e-6);
    ck_assert(gp_test_jnum(j, "expected_tokens_per_s") < 66.33);
    json_decref(j);
    j = decode(pro16);
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 17.873610e-3, 1e-6);
    json_decref(j);
    j = decode(max);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "apple-m5-max");
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), b / (614e9 * 0.821) + fixed, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 10.356323e-3, 1e-6);
    ck_assert(gp_test_jnum(j, "expected_tokens_per_s") < 119.92);
    json_decref(j);
    j = decode(max32);
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 12.872980e-3, 1e-6);
    json_decref(j);
    j = decode(max);
    ck_assert_str_eq(json_string_value(json_object_get(j, "pipeline")), "cuda");
    x = json_object_get(j, "expected");
    /* compute account at the ALU rate, 16.15872e12 x 0.74 = 11.9574528e12 */
    GP_ASSERT_REL(gp_test_jnum(x, "peak_flop_per_s"), 40 * 256 * CLK * 0.74, 1e-12);
    json_decref(j);
}
END_TEST

/* Q4_0 pp512 through the Metal 4 tensor kernels, which reach the Neural
 * Accelerators: llama.cpp-metal prefills on the entries' tensor rate
 * (cores x 1024 x 1.578e9 x 0.74: 47.8298112e12 on the M5 Max), capped at
 * 630 FLOP per clock per core (lib/engines.c: the geometric mean of these
 * three rows' 545, 678 and 680).  Worked by hand, FLOP from gpuplan's
 * prefill count (Llama 2 7B 6.700683756e12, check_engines.c
 * prefill_worked_row; Mistral 7B 7.21607983104e12), fixed 32 x 70 us x 2 /
 * 1.578 = 2.839037 ms:
 *   M5 Max: 630 x 40 x 1.578e9 = 39.7656e12 FLOP/s; 0.168505 s + fixed =
 *     0.171344 s, 2988.1 t/s against 3219.99 (llamacpp_4167_m5): time +7.8 %;
 *   M5 Pro: 630 x 20 x 1.578e9 = 19.8828e12; 0.337009 + fixed = 0.339848 s,
 *     1506.6 t/s against 1620.64: time +7.6 %;
 *   M5, Mistral 7B: 630 x 10 x 1.578e9 = 9.9414e12; 0.725862 + fixed =
 *     0.728701 s, 702.6 t/s against 608.05 (llamacpp_16634, the PR's first
 *     tensor kernels): time -13.5 %.
 * Each within 15 % of the measured time.  The Nov 2023 profile
 * (llama.cpp-metal-2023; no tensor kernels) stays on the ALUs at 170 FLOP
 * per clock per core: 170 x 40 x 1.578e9 = 10.7304e12, 0.624458 s; its
 * builds have no fused attention (inference.md 5.5): the other half of the
 * 512 x 512 square, 68,719,476,736 FLOP = 6.404186 ms, and the scores, 8 x
 * 32 x 32 x 512^2 = 2,147,483,648 B at 614e9 x 0.821 = 504.094e9 B/s =
 * 4.260086 ms; + 32 x 95 us x 2 / 1.578 = 3.852978 ms = 0.638975 s (801.3
 * t/s); its decode at
 * batch 1, context 64, as before the tensor rate: 3789419008 B / (614e9 x
 * 0.821) = 7.517286 ms + 3.852978 ms = 11.370265 ms, 87.949 t/s. */
START_TEST(apple_m5_tensor_prefill_rows)
{
    static const struct {
        const char *gpu, *model;
        double cores, flop, pp512;
    } rows[] = {
        {"m5", "mistral-7b", 10, 7216079831040.0, 608.05},
        {"m5-pro", "llama-2-7b", 20, 6700683755520.0, 1620.64},
        {"m5-max", "llama-2-7b", 40, 6700683755520.0, 3219.99},
    };
    const double fixed = 32 * 70e-6 * 2.0 / 1.578;
    const char *old[] = {"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "q4_0",
                         "--prompt", "512", "--engine", "llama.cpp-metal-2023", NULL};
    size_t i;
    json_t *j, *x;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *a[] = {"--gpu", rows[i].gpu, "--model", rows[i].model, "--weights", "q4_0",
                           "--prompt", "512", NULL};
        double t;
        j = decode(a);
        ck_assert_ptr_nonnull(j);
        x = json_object_get(j, "expected");
        GP_ASSERT_REL(gp_test_jnum(j, "prefill_flop"), rows[i].flop, 1e-12);
        ck_assert_str_eq(json_string_value(json_object_get(x, "prefill_pipeline")), "tensor");
        GP_ASSERT_REL(gp_test_jnum(x, "prefill_peak_flop_per_s"),
                      rows[i].cores * 1024 * CLK * 0.74, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(x, "prefill_rate_flop_per_s"), 630.0 * rows[i].cores * CLK,
                      1e-12);
        t = gp_test_jnum(j, "ttft_s");
        GP_ASSERT_REL(t, rows[i].flop / (630.0 * rows[i].cores * CLK) + fixed, 1e-9);
        ck_assert(fabs(t / (512.0 / rows[i].pp512) - 1.0) < 0.15);
        json_decref(j);
    }
    j = decode((const char *[]){"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "q4_0",
                                "--prompt", "512", NULL});
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 0.171344, 1e-5);
    GP_ASSERT_REL(512.0 / gp_test_jnum(j, "ttft_s"), 2988.1, 1e-4);
    json_decref(j);
    j = decode(old);
    ck_assert_ptr_nonnull(j);
    x = json_object_get(j, "expected");
    ck_assert_str_eq(json_string_value(json_object_get(x, "prefill_pipeline")), "cuda");
    GP_ASSERT_REL(gp_test_jnum(x, "prefill_rate_flop_per_s"), 170.0 * 40 * CLK, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "ttft_s"), 0.638975, 1e-5);
    json_decref(j);
    j = decode((const char *[]){"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "q4_0",
                                "--context", "64", "--engine", "llama.cpp-metal-2023", NULL});
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"),
                  3789419008.0 / (614e9 * 0.821) + 32 * 95e-6 * 2.0 / 1.578, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 11.370265e-3, 1e-6);
    json_decref(j);
}
END_TEST

/* 16-bit weights on an M5 with llama.cpp-metal: decode batches past the
 * GEMVs (batch > 8) run the matrix-matrix kernels on the tensor rate, as
 * the prefill does (inference.md 5.3), not on the ALUs.  Llama 2 7B fp16,
 * M5 Max, context 64, batch 64: 847,887,466,496 FLOP / (40 x 1024 x
 * 1.578 GHz x 0.74 = 47.830 TFLOP/s) = 17.727 ms of compute (on the ALUs,
 * 11.957 TFLOP/s, it was 70.909 ms and bound the step); 15,710,822,400 B /
 * (614 GB/s x 0.821) = 31.166 ms of memory binds, + 32 x 70 us x 2 / 1.578
 * = 2.839 ms: 34.005 ms (was 73.748).  Batch 8 stays on the ALUs:
 * 8 x 2 x 6,607,343,616 + attention = 105,985,933,312 FLOP / 11.957e12 =
 * 8.864 ms.  The same holds for q4_0 under --prefill-eff (no MMQ cap): the
 * batch-16 step's matmuls on the tensor rate, not the ALUs. */
START_TEST(apple_m5_fp16_batched_decode_tensor)
{
    json_t *j, *l;
    j = decode((const char *[]){"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "fp16",
                                "--context", "64", "--batch", "64", NULL});
    ck_assert_ptr_nonnull(j);
    l = json_object_get(json_object_get(j, "expected"), "ledger");
    GP_ASSERT_REL(gp_test_jnum(j, "flop_per_step"), 847887466496.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(l, "compute_s"), 847887466496.0 / (40 * 1024 * CLK * 0.74), 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"),
                  15710822400.0 / (614e9 * 0.821) + 32 * 70e-6 * 2.0 / 1.578, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_step_s"), 34.0055e-3, 1e-5);
    json_decref(j);
    j = decode((const char *[]){"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "fp16",
                                "--context", "64", "--batch", "8", NULL});
    ck_assert_ptr_nonnull(j);
    l = json_object_get(json_object_get(j, "expected"), "ledger");
    GP_ASSERT_REL(gp_test_jnum(l, "compute_s"),
                  gp_test_jnum(j, "flop_per_step") / (40 * 256 * CLK * 0.74), 1e-9);
    json_decref(j);
    j = decode((const char *[]){"--gpu", "m5-max", "--model", "llama-2-7b", "--weights", "q4_0",
                                "--context", "64", "--batch", "16", "--prefill-eff", "0.5",
                                NULL});
    ck_assert_ptr_nonnull(j);
    l = json_object_get(json_object_get(j, "expected"), "ledger");
    GP_ASSERT_REL(gp_test_jnum(l, "compute_s"),
                  gp_test_jnum(j, "flop_per_step") / (40 * 1024 * CLK * 0.74) +
                      gp_test_jnum(j, "dequant_flop") / (40 * 256 * CLK * 0.74),
                  1e-9);
    json_decref(j);
}
END_TEST

Suite *gp_test_suite_gpus_apple(void)
{
    Suite *s = suite_create("gpus_apple");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, apple_m5_matches_sources);
    tcase_add_test(tc, apple_m5_pro_matches_sources);
    tcase_add_test(tc, apple_m5_max_matches_sources);
    tcase_add_test(tc, apple_m5_names_resolve);
    tcase_add_test(tcli, apple_m5_decode_rows);
    tcase_add_test(tcli, apple_m5_pro_max_rows);
    tcase_add_test(tcli, apple_m5_tensor_prefill_rows);
    tcase_add_test(tcli, apple_m5_fp16_batched_decode_tensor);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
