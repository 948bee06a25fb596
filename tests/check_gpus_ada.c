/* Four more Ada Lovelace cards in the shipped database: GeForce RTX 4070 Ti
 * and RTX 4070 (AD104, GDDR6X) and the workstation RTX 4000 Ada (AD104) and
 * RTX 5000 Ada (AD102), plus a decode run on the 4070 Ti.
 *
 * Expected values are written out by hand from the spec sources cited in
 * the entries' own `sources:` maps (Club386 / TheFPSReview tables, PC Gamer
 * launch report, NVIDIA datasheet figures, TechPowerUp copies, nvidia-smi
 * printouts) and from SMs x boost clock x the Ada per-SM rates, converted to
 * SI in the comments -- never copied from the program's output. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

START_TEST(rtx_4070_ti_matches_specs)
{
    static const gp_test_card card = {"rtx-4070-ti",
                                      60, 2.61e9, 192 * 21e9 / 8, 12 * GIB,
                                      12282 * MIB, 285, 48 * MIB, 799,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD104-400: 60 SMs, boost 2610 MHz = 2.61e9 Hz, base 2310 MHz.
     * 12 GB GDDR6X, 192 bit x 21 Gb/s / 8 = 504 GB/s = 504e9 B/s; 12 x 2^30 B;
     * nvidia-smi 12282 MiB = 12282 x 2^20 B; 285 W; L2 48 MB = 48 x 2^20 B;
     * launch MSRP $799.
     * Peaks: FP32 60 x 2.61e9 x 256 = 40.09e12 -> 40.1e12 FLOP/s;
     * BF16 tensor, FP32 acc: 60 x 2.61e9 x 512 = 80.18e12 -> 80.2e12;
     * FP16 tensor, FP16 acc (GeForce: twice): 60 x 2.61e9 x 1024 = 160.36e12
     * -> 160.4e12. */
    GP_ASSERT_REL(g->clock_base.v, 2.31e9, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 504e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 40.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 80.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  60 * 2.61e9 * 512, 0.001);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 160.4e12, 1e-9);
    /* 2:4 sparsity doubles: 160.4e12 BF16 sparse */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 160.4e12, 1e-9);
    ck_assert_str_eq(g->compute_capability, "8.9");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    GP_ASSERT_REL(g->eff_mfu.v, 0.35, 1e-12);
}
END_TEST

START_TEST(rtx_4070_matches_specs)
{
    static const gp_test_card card = {"rtx-4070",
                                      46, 2.475e9, 504e9, 12 * GIB,
                                      12282 * MIB, 200, 36 * MIB, 599,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD104-250: 46 SMs, boost 2475 MHz = 2.475e9 Hz, base 1920 MHz.
     * Same memory as the Ti: 192 bit x 21 Gb/s / 8 = 504e9 B/s, 12 x 2^30 B,
     * nvidia-smi 12282 MiB; 200 W; L2 36 MB = 36 x 2^20 B; MSRP $599.
     * FP32 46 x 2.475e9 x 256 = 29.15e12 -> 29.1e12;
     * BF16 tensor FP32 acc 46 x 2.475e9 x 512 = 58.29e12 -> 58.3e12;
     * FP16 acc 46 x 2.475e9 x 1024 = 116.58e12 -> 116.6e12. */
    GP_ASSERT_REL(g->clock_base.v, 1.92e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 29.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 58.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  46 * 2.475e9 * 512, 0.001);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 116.6e12, 1e-9);
}
END_TEST

START_TEST(rtx_4000_ada_matches_specs)
{
    static const gp_test_card card = {"rtx-4000-ada",
                                      48, 2.175e9, 160 * 18e9 / 8, 20 * GIB,
                                      20475 * MIB, 130, 0, 1250,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD104, 48 SMs (6,144 CUDA cores / 128), boost 2175 MHz = 2.175e9 Hz.
     * Datasheet / launch report: 20 GB GDDR6 ECC = 20 x 2^30 B; 160 bit x
     * 18 Gb/s / 8 = 360 GB/s = 360e9 B/s; 130 W; FP32 26.7 TFLOPS = 26.7e12
     * (48 x 2.175e9 x 256 = 26.73e12); $1,250. nvidia-smi (ECC off) 20475 MiB.
     * Workstation: FP32 accumulate at the full rate, BF16 tensor =
     * 48 x 2.175e9 x 1024 = 106.91e12 -> 106.9e12; TF32 x 512 = 53.45e12 ->
     * 53.5e12. Peers use the host link (P2P allowed): no scale-up link. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 26.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 106.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  48 * 2.175e9 * 1024, 0.001);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 53.5e12, 1e-9);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(rtx_5000_ada_matches_specs)
{
    static const gp_test_card card = {"rtx-5000-ada",
                                      100, 2.55e9, 576e9, 32 * GIB,
                                      32760 * MIB, 250, 0, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD102, 100 SMs (12,800 CUDA cores / 128), boost 2550 MHz = 2.55e9 Hz.
     * Datasheet: 32 GB GDDR6 ECC = 32 x 2^30 B; 576 GB/s = 576e9 B/s; 250 W;
     * FP32 65.3 TFLOPS (100 x 2.55e9 x 256 = 65.28e12); Tensor 1,044.4 TFLOPS
     * = FP8 with sparsity, so FP8 dense = 522.2e12 and BF16 dense (full-rate
     * FP32 accumulate) = 100 x 2.55e9 x 1024 = 261.12e12 -> 261.1e12.
     * nvidia-smi (ECC off) 32760 MiB. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 65.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 261.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1044.4e12 / 2, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1044.4e12, 1e-9);
    ck_assert_ptr_null(g->scale_up_link);
}
END_TEST

START_TEST(ada_aliases_resolve)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *ti = gp_db_find_gpu(db, "rtx-4070-ti");
    const gp_gpu *n = gp_db_find_gpu(db, "rtx-4070");
    const gp_gpu *w4 = gp_db_find_gpu(db, "rtx-4000-ada");
    const gp_gpu *w5 = gp_db_find_gpu(db, "rtx-5000-ada");
    ck_assert_ptr_nonnull(ti);
    ck_assert_ptr_nonnull(n);
    ck_assert_ptr_nonnull(w4);
    ck_assert_ptr_nonnull(w5);
    ck_assert_ptr_ne(ti, n);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "4070ti"), ti);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "RTX4070TI"), ti);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "4070"), n);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "rtx4070"), n);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "rtx4000-ada"), w4);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "rtx-4000-ada-generation"), w4);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "rtx5000-ada"), w5);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "rtx-5000-ada-generation"), w5);
    /* nvidia-smi / NVML names find them by their words */
    ck_assert_ptr_eq(gp_db_find_gpu(db, "NVIDIA GeForce RTX 4070 Ti"), ti);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "NVIDIA GeForce RTX 4070"), n);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "NVIDIA RTX 4000 Ada Generation"), w4);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "NVIDIA RTX 5000 Ada Generation"), w5);
    ck_assert_ptr_null(gp_db_find_gpu(db, "RTX 4050"));
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_on_4070ti)
{
    /* Llama 2 7B in Q4_0 (4.5 bits) at batch 1, default context 128.
     * Params 6,738,415,616; embedding and lm_head 32,000 x 4,096 =
     * 131,072,000 each, so the body is 6,476,271,616 x 4.5 / 8 =
     * 3,642,902,784 B; the GGUF lm_head is Q6_K (6.5625 bits): 131,072,000 x
     * 6.5625 / 8 = 107,520,000 B; the KV cache at 128 tokens, fp16:
     * 2 x 32 layers x 4,096 x 2 B x 128 = 67,108,864 B. Sum 3,817,531,648 B
     * per token. Ceiling = 504e9 / 3,817,531,648 = 132.02 tokens/s (within
     * 1 %: the input-embedding row and rounding are left out). */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("4070ti", "rtx-4070-ti", 504e9), 132.02, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_ada(void)
{
    Suite *s = suite_create("gpus_ada");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx_4070_ti_matches_specs);
    tcase_add_test(tc, rtx_4070_matches_specs);
    tcase_add_test(tc, rtx_4000_ada_matches_specs);
    tcase_add_test(tc, rtx_5000_ada_matches_specs);
    tcase_add_test(tc, ada_aliases_resolve);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_on_4070ti);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
