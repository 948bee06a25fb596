/* GeForce RTX 3070, RTX 3080 10GB, RTX 3080 Ti and NVIDIA A40 in the
 * shipped database, and one decode run on the RTX 3080.
 *
 * Expected values are written out by hand from the figures cited in each
 * entry's file (hwdb/gpus/rtx-3070.yaml, rtx-3080.yaml, rtx-3080-ti.yaml,
 * a40.yaml: GA102 whitepaper per-SM rates, A40 datasheet, spec tables,
 * nvidia-smi printouts), converted to SI in the comments -- never copied
 * from the program's output.  GA10x per-SM dense rates per clock: FP32 256,
 * FP16/BF16 Tensor 512 with FP32 accumulate and 1024 with FP16 accumulate on
 * GeForce; 1024 with either accumulate on the A40. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

START_TEST(rtx_3070_matches_sources)
{
    static const gp_test_card card = {"rtx-3070",
                                      46, 1.725e9, 256 / 8 * 14e9, 8 * GIB,
                                      8192 * MIB, 220, 4 * MIB, 499,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* 46 SMs at 1725 MHz = 1.725e9 Hz.  BF16 Tensor, FP32 accumulate:
     * 46 x 1.725e9 x 512 = 40.627e12 -> 40.6e12 FLOP/s; FP16 accumulate
     * 46 x 1.725e9 x 1024 = 81.254e12 -> 81.3e12; 2:4 sparse 2 x 40.6e12.
     * FP32 5,888 cores x 2 x 1.725e9 = 20.31e12 -> 20.3e12.  8 GB GDDR6 =
     * 8 x 2^30 B on 256 bits at 14 Gb/s: 256 / 8 x 14e9 = 448e9 B/s.
     * nvidia-smi 8192 MiB = 8192 x 2^20 B; 220 W; L2 4 MB = 4 x 2^20 B. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 40.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 46 * 1.725e9 * 512,
                  2e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 81.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 81.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 5888 * 2 * 1.725e9,
                  2e-3);
    ck_assert_str_eq(g->compute_capability, "8.6");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    ck_assert(g->peak[GP_FP8][GP_PIPE_TENSOR].v == 0);
    GP_ASSERT_REL(g->eff_mfu.v, 0.35, 1e-12);
}
END_TEST

START_TEST(rtx_3080_matches_sources)
{
    static const gp_test_card card = {"rtx-3080",
                                      68, 1.71e9, 320 / 8 * 19e9, 10 * GIB,
                                      10240 * MIB, 320, 5 * MIB, 699,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* 68 SMs at 1710 MHz = 1.71e9 Hz.  BF16 Tensor, FP32 accumulate:
     * 68 x 1.71e9 x 512 = 59.535e12 -> 59.5e12; FP16 accumulate
     * 68 x 1.71e9 x 1024 = 119.07e12 -> 119.1e12 (the launch's "238 tensor
     * TFLOPS" is 2 x 119 sparse).  10 GB GDDR6X = 10 x 2^30 B on 320 bits at
     * 19 Gb/s: 320 / 8 x 19e9 = 760e9 B/s.  nvidia-smi 10240 MiB; 320 W;
     * L2 5 MB = 5 x 2^20 B; launch price $699. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 59.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 68 * 1.71e9 * 512,
                  2e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 119.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 238e12, 1e-3);
}
END_TEST

START_TEST(rtx_3080_ti_matches_sources)
{
    static const gp_test_card card = {"rtx-3080-ti",
                                      80, 1.665e9, 384 / 8 * 19e9, 12 * GIB,
                                      12288 * MIB, 350, 6 * MIB, 0,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* 80 SMs at 1665 MHz = 1.665e9 Hz.  BF16 Tensor, FP32 accumulate:
     * 80 x 1.665e9 x 512 = 68.198e12 -> 68.2e12; FP16 accumulate
     * 80 x 1.665e9 x 1024 = 136.40e12 -> 136.4e12.  FP32 10,240 cores x 2 x
     * 1.665e9 = 34.10e12.  12 GB GDDR6X = 12 x 2^30 B on 384 bits at 19 Gb/s:
     * 384 / 8 x 19e9 = 912e9 B/s.  nvidia-smi 12288 MiB at 350 W; L2 6 MB. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 68.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 80 * 1.665e9 * 512,
                  2e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 136.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 10240 * 2 * 1.665e9,
                  2e-3);
}
END_TEST

START_TEST(a40_matches_datasheet)
{
    static const gp_test_card card = {"a40",
                                      84, 1.74e9, 384 / 8 * 14.5e9, 48 * GIB,
                                      46068 * MIB, 300, 6 * MIB, 0,
                                      "nvlink-bridge-ga102"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* A40 datasheet: BF16 Tensor with FP32 accumulate 149.7 | 299.4*
     * TFLOPS = 149.7e12 dense, 299.4e12 sparse; the full rate, so FP16
     * accumulate is no faster (84 x 1.74e9 x 1024 = 149.67e12).  TF32
     * 74.8e12, FP32 37.4e12, INT8 299.3e12 OP/s.  48 GB GDDR6 = 48 x 2^30 B on
     * 384 bits at 14.5 Gb/s: 384 / 8 x 14.5e9 = 696e9 B/s; 300 W.  nvidia-smi
     * 46068 MiB (ECC on).  NVLink bridge pair; L2 6 MB. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 149.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 84 * 1.74e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 299.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 149.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 149.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 74.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 37.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 299.3e12, 1e-9);
    ck_assert(g->peak_fp16acc[GP_FP16].v == 0);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(names_resolve)
{
    static const gp_test_name want[] = {
        {"3070", "rtx-3070"},        {"rtx3070", "rtx-3070"},
        {"3080", "rtx-3080"},        {"rtx3080", "rtx-3080"},
        {"rtx-3080-10gb", "rtx-3080"}, {"3080ti", "rtx-3080-ti"},
        {"rtx3080ti", "rtx-3080-ti"}, {"RTX 3080 Ti", "rtx-3080-ti"},
        {"A40", "a40"},              {"nvidia-a40", "a40"}};
    gp_test_names_resolve(want, sizeof want / sizeof want[0], 0);
    /* nvidia-smi device names (calib import) */
    static const gp_test_name dev[] = {
        {"NVIDIA GeForce RTX 3070", "rtx-3070"},
        {"NVIDIA GeForce RTX 3080", "rtx-3080"},
        {"NVIDIA GeForce RTX 3080 Ti", "rtx-3080-ti"},
        {"NVIDIA A40", "a40"}};
    gp_test_names_resolve(dev, sizeof dev / sizeof dev[0], 1);
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_on_3080)
{
    /* Llama 2 7B, Q4_0 body (4.5 bits = 0.5625 B per weight), the output
     * matrix in Q6_K (6.5625 bits = 0.8203125 B), fp16 KV at the default
     * context of 128 tokens, on the RTX 3080 (760e9 B/s):
     *   body  32 layers x (4 x 4096^2 + 3 x 4096 x 11008) = 6,476,005,376
     *         weights x 0.5625 B                           = 3,642,753,024 B
     *   lm_head 32000 x 4096 x 0.8203125 B                 =   107,520,000 B
     *   KV    128 tokens x 32 layers x 2 x 4096 x 2 B      =    67,108,864 B
     *   bytes per token                                    = 3,817,381,888 B
     *   ceiling = 760e9 / 3,817,381,888 = 199.09 tokens/s.
     * (Norm weights and activations add about 0.15 %.) */
    const char *argv[] = {"decode", "--gpu", "3080", "--model", "llama-2-7b", "--weights", "q4_0",
                          "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    json_t *ceil = json_object_get(j, "ceiling");
    double c, x;
    ck_assert_ptr_nonnull(ceil);
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "rtx-3080");
    GP_ASSERT_REL(gp_test_jnum(j, "context"), 128.0, 0);
    GP_ASSERT_REL(gp_test_jnum(ceil, "mem_bw_bytes_per_s"), 760e9, 1e-12);
    c = gp_test_jnum(j, "ceiling_tokens_per_s");
    x = gp_test_jnum(j, "expected_tokens_per_s");
    GP_ASSERT_REL(c, 760e9 / 3817381888.0, 0.01);
    GP_ASSERT_REL(c, 199.09, 0.01);
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_token"), 3817381888.0, 0.01);
    ck_assert_msg(x > 0 && x < c, "expected %g, ceiling %g", x, c);
    json_decref(j);
}
END_TEST

Suite *gp_test_suite_gpus_ampere(void)
{
    Suite *s = suite_create("gpus_ampere");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx_3070_matches_sources);
    tcase_add_test(tc, rtx_3080_matches_sources);
    tcase_add_test(tc, rtx_3080_ti_matches_sources);
    tcase_add_test(tc, a40_matches_datasheet);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_on_3080);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
