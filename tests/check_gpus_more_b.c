/* Twelve more NVIDIA GPUs in the shipped database: GeForce RTX 5080, 5070 Ti,
 * 5070, 5060 Ti 16GB (consumer Blackwell, sm_120), RTX 4080 SUPER, 4070 SUPER,
 * 4060 Ti 16GB, 4060 (Ada), the RTX PRO 6000 Blackwell Workstation Edition,
 * the L40, the GH200 (96 GB HBM3) and the H20; plus one decode run.
 *
 * Expected values are written out by hand from the figures cited in each
 * entry's own `sources:` map (spec tables, datasheet copies, nvidia-smi
 * printouts) and from SMs x boost clock x the per-SM dense rates per clock,
 * converted to SI in the comments -- never copied from the program's output.
 * Per-SM dense rates per clock:
 *   consumer Blackwell (RTX 5090 whitepaper column) and Ada GeForce (RTX 4090
 *   column): FP32 256, TF32 256, FP16/BF16 Tensor 512 with FP32 accumulate and
 *   1024 with FP16 accumulate, FP8 1024 / 2048, INT8 2048; Blackwell FP4 4096,
 *   Ada INT4 4096;
 *   RTX PRO 6000 Blackwell (workstation, full-rate FP32 accumulate): TF32 512,
 *   FP16/BF16 1024, FP8 2048, FP4 4096. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

START_TEST(rtx_5080_matches_sources)
{
    static const gp_test_card card = {"rtx-5080",
                                      84, 2.617e9, 256 / 8 * 30e9, 16 * GIB,
                                      16303 * MIB, 360, 64 * MIB, 999,
                                      "pcie5-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GB203, all 84 SMs; boost 2617 MHz = 2.617e9 Hz, base 2295 MHz.
     * 16 GB GDDR7 at 30 Gb/s on 256 bits: 256 / 8 x 30e9 = 960e9 B/s;
     * nvidia-smi 16303 MiB, 360 W; L2 64 MB; MSRP $999.
     * 84 x 2.617e9 = 219.828e9 SM-cycles/s:
     *   FP32 x 256 = 56.276e12 -> 56.3e12
     *   BF16 FP32 acc x 512 = 112.55e12 -> 112.6e12
     *   FP16 acc x 1024 = 225.10e12 -> 225.1e12
     *   FP8 FP32 acc x 1024 = 225.1e12; FP16 acc x 2048 = 450.21e12 -> 450.2e12
     *   FP4 x 4096 = 900.42e12 -> 900.4e12; 2:4 sparse 1800.8e12, NVIDIA's
     *   '1,801 AI TOPS'. */
    GP_ASSERT_REL(g->clock_base.v, 2.295e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 56.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 112.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  84 * 2.617e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 225.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 225.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 450.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 900.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1801e12, 1e-3);
    /* consumer Blackwell lists no INT4 tensor rate */
    ck_assert(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert_str_eq(g->compute_capability, "12.0");
    ck_assert_str_eq(g->host_link, "pcie5-x16");
    GP_ASSERT_REL(g->eff_mem.v, 0.96, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 1.0, 1e-12);
}
END_TEST

START_TEST(rtx_5070_ti_matches_sources)
{
    static const gp_test_card card = {"rtx-5070-ti",
                                      70, 2.452e9, 256 / 8 * 28e9, 16 * GIB,
                                      16303 * MIB, 300, 0, 749,
                                      "pcie5-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GB203 with 70 of 84 SMs, boost 2452 MHz.  16 GB GDDR7 at 28 Gb/s on
     * 256 bits: 32 x 28e9 = 896e9 B/s; nvidia-smi 16303 MiB at 300 W; $749.
     * No L2 size and no base clock were sourced: both left out.
     * 70 x 2.452e9 = 171.64e9:  FP32 x 256 = 43.94e12 -> 43.9e12;
     * BF16 x 512 = 87.88e12 -> 87.9e12; FP16 acc x 1024 = 175.76e12 ->
     * 175.8e12; FP4 x 4096 = 703.04e12 -> 703.0e12. */
    ck_assert(g->l2_size.v == 0.0);
    ck_assert(g->clock_base.v == 0.0);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 43.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 87.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  70 * 2.452e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 175.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 175.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 703.0e12, 1e-9);
    ck_assert_str_eq(g->compute_capability, "12.0");
}
END_TEST

START_TEST(rtx_5070_matches_sources)
{
    static const gp_test_card card = {"rtx-5070",
                                      48, 2.512e9, 192 / 8 * 28e9, 12 * GIB,
                                      12227 * MIB, 250, 48 * MIB, 549,
                                      "pcie5-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GB205, 48 SMs, base 2325 / boost 2512 MHz.  12 GB GDDR7 at 28 Gb/s on
     * 192 bits: 24 x 28e9 = 672e9 B/s; nvidia-smi 12227 MiB at 250 W; L2
     * 48 MB; $549.  48 x 2.512e9 = 120.576e9:  FP32 x 256 = 30.87e12 ->
     * 30.9e12 (TechPowerUp 30.87); BF16 x 512 = 61.73e12 -> 61.7e12; FP16
     * acc x 1024 = 123.47e12 -> 123.5e12; FP4 x 4096 = 493.88e12 ->
     * 493.9e12. */
    GP_ASSERT_REL(g->clock_base.v, 2.325e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 30.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 61.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  48 * 2.512e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 123.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 123.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 493.9e12, 1e-9);
}
END_TEST

START_TEST(rtx_5060_ti_16gb_matches_sources)
{
    static const gp_test_card card = {"rtx-5060-ti-16gb",
                                      36, 2.572e9, 128 / 8 * 28e9, 16 * GIB,
                                      16311 * MIB, 180, 32 * MIB, 429,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GB206, all 36 SMs, base 2407 / boost 2572 MHz.  16 GB GDDR7 at 28 Gb/s
     * on 128 bits: 16 x 28e9 = 448e9 B/s; nvidia-smi 16311 MiB at 180 W; L2
     * 32 MB; $429 (16 GB SKU).  36 x 2.572e9 = 92.592e9:  FP32 x 256 =
     * 23.70e12 -> 23.7e12; BF16 x 512 = 47.41e12 -> 47.4e12; FP16 acc x 1024
     * = 94.81e12 -> 94.8e12; FP8 FP16 acc x 2048 = 189.63e12 -> 189.6e12;
     * FP4 x 4096 = 379.26e12 -> 379.3e12, sparse 758.5e12 ('759 AI TOPS').
     * PCIe 5.0 x8 = PCIe 4.0 x16 per direction: host_link pcie4-x16.
     * Measured cuBLAS BF16 46.4 TFLOP/s (BLACKWALL): 46.4 / 47.4 = 0.979 ->
     * 0.98. */
    GP_ASSERT_REL(g->clock_base.v, 2.407e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 23.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 47.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  36 * 2.572e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 94.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 189.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 759e12, 1e-3);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    GP_ASSERT_REL(g->eff_compute.v, 0.98, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 46.4 / 47.4, 0.01);
}
END_TEST

START_TEST(rtx_4080_super_matches_sources)
{
    static const gp_test_card card = {"rtx-4080-super",
                                      80, 2.55e9, 256 / 8 * 23e9, 16 * GIB,
                                      16376 * MIB, 320, 64 * MIB, 999,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD103-400, all 80 SMs, base 2295 / boost 2550 MHz.  16 GB GDDR6X at
     * 23 Gb/s on 256 bits: 32 x 23e9 = 736e9 B/s; nvidia-smi 16376 MiB at
     * 320 W; L2 64 MB; $999.  80 x 2.55e9 = 204e9:  FP32 x 256 = 52.22e12 ->
     * 52.2e12; BF16 x 512 = 104.45e12 -> 104.4e12; FP16 acc x 1024 =
     * 208.9e12; FP8 FP16 acc x 2048 = 417.8e12, sparse 835.6e12 = '836 AI
     * TOPS'; INT4 x 4096 = 835.6e12. */
    GP_ASSERT_REL(g->clock_base.v, 2.295e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 52.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 104.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 80 * 2.55e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 208.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 208.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 836e12, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 835.6e12, 1e-9);
    ck_assert_str_eq(g->compute_capability, "8.9");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(rtx_4070_super_matches_sources)
{
    static const gp_test_card card = {"rtx-4070-super",
                                      56, 2.475e9, 192 / 8 * 21e9, 12 * GIB,
                                      12282 * MIB, 220, 48 * MIB, 599,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD104-350, 56 of 60 SMs, base 1980 / boost 2475 MHz.  12 GB GDDR6X at
     * 21 Gb/s on 192 bits: 24 x 21e9 = 504e9 B/s; nvidia-smi 12282 MiB at
     * 220 W; L2 48 MB (NVIDIA's corrected figure); $599.
     * 56 x 2.475e9 = 138.6e9:  FP32 x 256 = 35.48e12 -> 35.5e12; BF16 x 512
     * = 70.96e12 -> 71.0e12; FP16 acc x 1024 = 141.93e12 -> 141.9e12.
     * torch.mm BF16 measured 73.63-76.76 > 71.0: efficiency capped at 1. */
    GP_ASSERT_REL(g->clock_base.v, 1.98e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 35.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 71.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  56 * 2.475e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 141.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 141.9e12, 1e-9);
    ck_assert(73.63e12 > gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0));
    GP_ASSERT_REL(g->eff_compute.v, 1.0, 1e-12);
}
END_TEST

START_TEST(rtx_4060_ti_16gb_matches_sources)
{
    static const gp_test_card card = {"rtx-4060-ti-16gb",
                                      34, 2.535e9, 128 / 8 * 18e9, 16 * GIB,
                                      16380 * MIB, 165, 32 * MIB, 499,
                                      "pcie3-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD106, 34 SMs, base 2310 / boost 2535 MHz.  16 GB GDDR6 at 18 Gb/s on
     * 128 bits: 16 x 18e9 = 288e9 B/s; nvidia-smi 16380 MiB at 165 W; L2
     * 32 MB; $499.  34 x 2.535e9 = 86.19e9:  FP32 x 256 = 22.06e12 ->
     * 22.1e12; BF16 x 512 = 44.13e12 -> 44.1e12; FP16 acc x 1024 = 88.26e12
     * -> 88.3e12; FP8 FP16 acc, sparse: 86.19e9 x 2048 x 2 = 353.0e12 =
     * NVIDIA's 353.  PCIe 4.0 x8 = PCIe 3.0 x16 per direction: host_link
     * pcie3-x16, and peers staged through host memory at that line rate,
     * scale_up_link pcie3-x16-host (15.75 GB/s peak, not Gen4 x16's 31.5).
     * torch.mm BF16 42.65 / 44.1 = 0.967 -> 0.97. */
    GP_ASSERT_REL(g->clock_base.v, 2.31e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 22.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 44.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  34 * 2.535e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 88.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 353.0e12, 1e-9);
    ck_assert_str_eq(g->host_link, "pcie3-x16");
    GP_ASSERT_REL(g->eff_compute.v, 0.97, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 42.65 / 44.1, 0.01);
}
END_TEST

START_TEST(rtx_4060_matches_sources)
{
    static const gp_test_card card = {"rtx-4060",
                                      24, 2.46e9, 128 / 8 * 17e9, 8 * GIB,
                                      8188 * MIB, 115, 24 * MIB, 299,
                                      "pcie3-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD107, all 24 SMs, base 1830 / boost 2460 MHz.  8 GB GDDR6 at 17 Gb/s
     * on 128 bits: 16 x 17e9 = 272e9 B/s; nvidia-smi 8188 MiB at 115 W; L2
     * 24 MB; $299.  24 x 2.46e9 = 59.04e9:  FP32 x 256 = 15.11e12 ->
     * 15.1e12; BF16 x 512 = 30.23e12 -> 30.2e12; FP16 acc x 1024 = 60.46e12
     * -> 60.5e12; FP8 FP16 acc sparse 59.04e9 x 4096 = 241.8e12 = NVIDIA's
     * 242. */
    GP_ASSERT_REL(g->clock_base.v, 1.83e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 15.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 30.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 24 * 2.46e9 * 512,
                  2e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 60.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 241.8e12, 1e-9);
    ck_assert_str_eq(g->host_link, "pcie3-x16");
}
END_TEST

START_TEST(rtx_pro_6000_blackwell_matches_sources)
{
    static const gp_test_card card = {"rtx-pro-6000-blackwell",
                                      188, 2.617e9, 512 / 8 * 28e9, 96 * GIB,
                                      97887 * MIB, 600, 128 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GB202 with 188 of 192 SMs, boost 2617 MHz.  96 GB GDDR7 at 28 Gb/s on
     * 512 bits: 64 x 28e9 = 1792e9 B/s; nvidia-smi 97887 MiB at 600 W; L2
     * 128 MB.  188 x 2.617e9 = 491.996e9:  FP32 x 256 = 125.95e12 (NVIDIA
     * 'up to 125'); full-rate FP32 accumulate: BF16 x 1024 = 503.8e12, FP16
     * accumulate the same; FP8 x 2048 = 1007.6e12; FP4 x 4096 = 2015.2e12,
     * sparse 4030.4e12 = '4,000 AI TOPS'.  torch.mm BF16 417.98 (well above
     * the 251.9 a halved rate would allow): 417.98 / 503.8 = 0.8297 -> 0.83.
     * P2P over PCIe allowed: no scale-up link. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 125.95e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 503.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  188 * 2.617e9 * 1024, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 503.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1007.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 4030.4e12, 1e-9);
    ck_assert(417.98e12 > 188 * 2.617e9 * 512); /* above a halved rate */
    GP_ASSERT_REL(g->eff_compute.v, 417.98 / 503.8, 0.01);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(rtx_pro_6000_max_q_matches_sources)
{
    static const gp_test_card card = {"rtx-pro-6000-blackwell-max-q",
                                      188, 2.288e9, 512 / 8 * 28e9, 96 * GIB,
                                      97887 * MIB, 300, 128 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *ws = gp_db_find_gpu(gp_test_db(), "rtx-pro-6000-blackwell");
    /* The 300 W board: the same GB202 (188 SMs, 128 MB L2) and memory (512
     * bits x 28 Gb/s = 1792e9 B/s, 97887 MiB), boost 2288 MHz.  188 x
     * 2.288e9 = 430.144e9: FP32 x 256 = 110.117e12 (the database's 110.1),
     * BF16 x 1024 = 440.467e12, FP8 x 2048 = 880.935e12, FP4 x 4096 =
     * 1761.87e12, sparse 3523.7e12; FP64 110.12 / 64 = 1.72e12.  Every peak
     * is 2288 / 2617 = 0.87428 of the Workstation Edition's; the memory
     * bandwidth is the same. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 110.117e12, 1e-4);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 440.467e12, 1e-4);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 440.467e12, 1e-4);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 880.935e12, 1e-4);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 3523.7e12, 1e-4);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 1.72e12, 1e-3);
    ck_assert_ptr_nonnull(ws);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) /
                      gp_gpu_peak(ws, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  2288.0 / 2617, 1e-4);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(l40_matches_sources)
{
    static const gp_test_card card = {"l40",
                                      142, 2.49e9, 864e9, 48 * GIB,
                                      46068 * MIB, 300, 96 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD102, 18,176 CUDA cores / 128 = 142 SMs; 2490 MHz.  Datasheet: 48 GB
     * GDDR6 ECC, 864 GB/s = 864e9 B/s, 300 W; FP32 90.5 TFLOPS (142 x
     * 2.49e9 x 256 = 90.51e12); BF16 181.05 | 362.1* (142 x 2.49e9 x 512 =
     * 181.03e12: the halved FP32-accumulate rate, unlike the L40S's 362.05);
     * FP8 362 | 724*, INT8 362, INT4 724 | 1448*.  No FP16-accumulate row,
     * so the FP16-accumulate peak falls back to the tensor row.  nvidia-smi
     * (ECC on) 46068 MiB.  RRZE L40 triad 830 / 864 = 0.9606 -> 0.96. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 90.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 181.05e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  142 * 2.49e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 181.05e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 362.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 362e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1448e12, 1e-9);
    /* half the L40S's dense BF16 */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  gp_gpu_peak(gp_db_find_gpu(gp_test_db(), "l40s"), GP_BF16, GP_PIPE_TENSOR,
                              GP_ACC_FP32, 0) / 2,
                  1e-3);
    GP_ASSERT_REL(g->eff_mem.v, 830.0 / 864.0, 0.01);
    GP_ASSERT_REL(g->lat_dram.v, 251e-9, 1e-12);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(gh200_matches_sources)
{
    static const gp_test_card card = {"gh200",
                                      132, 1.98e9, 4.0e12, 96 * GIB,
                                      97871 * MIB, 900, 50 * MIB, 0,
                                      "nvlink4"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* The GH200's Hopper GPU (96 GB HBM3): 132 SMs at 1980 MHz, the H100 SXM5
     * whitepaper peaks: FP32 66.9e12, BF16 989.4e12 dense (1978.9e12 2:4
     * sparse), FP8 1978.9e12; 96 GB HBM3 at 4.0 TB/s = 4.0e12 B/s;
     * nvidia-smi 'NVIDIA GH200 480GB' 97871 MiB at a 900 W cap; L2 50 MB.
     * RRZE GH200 triad 3783 / 4000 = 0.946 -> 0.95; MAMF BF16 828.6 / 989.4
     * = 0.837 -> 0.84.  NVLink-C2C to Grace, 900 GB/s both ways = 450 per
     * direction: host_link nvlink4 (peak 450e9 B/s per direction). */
    const gp_link *c2c;
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 66.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 989.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1978.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1978.9e12, 1e-9);
    /* same die and clocks as the H100 SXM5 entry */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  gp_gpu_peak(gp_db_find_gpu(gp_test_db(), "h100-sxm"), GP_BF16, GP_PIPE_TENSOR,
                              GP_ACC_FP32, 0),
                  1e-12);
    GP_ASSERT_REL(g->eff_mem.v, 3783.0 / 4000.0, 0.01);
    GP_ASSERT_REL(g->eff_compute.v, 828.6 / 989.4, 0.01);
    /* MAMF FP8 1535.0 of 1979 = 0.7757 -> 0.776; 1978.9e12 x 0.776 =
     * 1535.6264e12 expected. */
    GP_ASSERT_REL(g->eff_compute_fp8.v, 1535.0 / 1979.0, 0.001);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1535.6264e12,
                  1e-9);
    GP_ASSERT_REL(g->eff_mfu.v, 0.40, 1e-12);
    ck_assert_str_eq(g->host_link, "nvlink-c2c");
    c2c = gp_db_find_link(gp_test_db(), g->host_link);
    ck_assert_ptr_nonnull(c2c);
    GP_ASSERT_REL(c2c->bw.v, 900e9 / 2, 1e-12);           /* 900 GB/s both ways */
    GP_ASSERT_REL(c2c->bw_achievable.v, 346e9, 1e-12);    /* nvbandwidth#23 H2D CE */
    GP_ASSERT_REL(g->lat_l2.v, 142e-9, 1e-12);
}
END_TEST

START_TEST(h20_matches_sources)
{
    static const gp_test_card card = {"h20",
                                      78, 0, 4.0e12, 96 * GIB,
                                      97871 * MIB, 500, 0, 0,
                                      "nvlink4"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* Export-limited GH100: 96 GB HBM3 at 4.0 TB/s, NVLink 900 GB/s both
     * ways; reported dense rates BF16 148e12, FP8 296e12, TF32 74e12, FP32
     * 44e12, FP64 1e12; 78 SMs (Geekbench listing); nvidia-smi 97871 MiB at
     * a 500 W cap.  No sparse rate published: none.  torch.mm BF16 141.86 /
     * 148 = 0.9585 -> 0.96; 148 is 14.96 % of the H100 SXM's 989.4. */
    ck_assert(g->clock_boost.v == 0.0);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 148e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 296e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 44e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 74e12, 1e-12);
    ck_assert(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1) == 0.0);
    GP_ASSERT_REL(g->eff_compute.v, 141.86 / 148.0, 0.01);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) / 989.4e12, 0.1496,
                  1e-3);
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(names_resolve)
{
    /* ids, aliases and the names nvidia-smi / NVML print */
    static const gp_test_name pairs[] = {
        {"NVIDIA GeForce RTX 5080", "rtx-5080"},
        {"5080", "rtx-5080"},
        {"NVIDIA GeForce RTX 5070 Ti", "rtx-5070-ti"},
        {"5070ti", "rtx-5070-ti"},
        {"NVIDIA GeForce RTX 5070", "rtx-5070"},
        {"rtx5070", "rtx-5070"},
        {"RTX 5060 Ti 16GB", "rtx-5060-ti-16gb"},
        {"5060ti-16gb", "rtx-5060-ti-16gb"},
        {"NVIDIA GeForce RTX 4080 SUPER", "rtx-4080-super"},
        {"4080super", "rtx-4080-super"},
        {"NVIDIA GeForce RTX 4070 SUPER", "rtx-4070-super"},
        {"RTX 4060 Ti 16GB", "rtx-4060-ti-16gb"},
        {"NVIDIA GeForce RTX 4060", "rtx-4060"},
        {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-blackwell"},
        {"rtx-pro-6000", "rtx-pro-6000-blackwell"},
        /* the 300 W board, as nvidia-smi and published tables name it */
        {"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
         "rtx-pro-6000-blackwell-max-q"},
        {"RTX PRO 6000 Blackwell Max-Q", "rtx-pro-6000-blackwell-max-q"},
        {"RTX PRO 6000 Blackwell (Max-Q)", "rtx-pro-6000-blackwell-max-q"},
        {"RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell"},
        {"NVIDIA L40", "l40"},
        {"NVIDIA GH200 480GB", "gh200"},
        {"GH200", "gh200"},
        {"NVIDIA H20", "h20"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    /* the L40 and the L40S stay apart, and so do the 5070 and the 5070 Ti */
    ck_assert_ptr_ne(gp_db_find_gpu(db, "NVIDIA L40"), gp_db_find_gpu(db, "NVIDIA L40S"));
    ck_assert_ptr_ne(gp_db_find_gpu(db, "rtx-5070"), gp_db_find_gpu(db, "rtx-5070-ti"));
}
END_TEST

START_TEST(geforce_fp32_accumulate_is_half_rate)
{
    /* GeForce: FP32-accumulate tensor = half the FP16-accumulate rate on every
     * consumer card added here; the workstation RTX PRO 6000 runs both at the
     * same rate. */
    static const char *const geforce[] = {"rtx-5080",       "rtx-5070-ti",     "rtx-5070",
                                          "rtx-5060-ti-16gb", "rtx-4080-super", "rtx-4070-super",
                                          "rtx-4060-ti-16gb", "rtx-4060"};
    const gp_db *db = gp_test_db();
    const gp_gpu *pro = gp_db_find_gpu(db, "rtx-pro-6000-blackwell");
    size_t i;
    for (i = 0; i < sizeof geforce / sizeof geforce[0]; i++) {
        const gp_gpu *g = gp_db_find_gpu(db, geforce[i]);
        ck_assert_ptr_nonnull(g);
        GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0),
                      2 * gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 2e-3);
        GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                      gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 1e-12);
        GP_ASSERT_REL(g->eff_mfu.v, 0.35, 1e-12);
    }
    ck_assert_ptr_nonnull(pro);
    GP_ASSERT_REL(gp_gpu_peak(pro, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0),
                  gp_gpu_peak(pro, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1e-12);
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_on_5080)
{
    /* 3,817,531,648 B per token (gp_test_llama2_q4_0_ceiling in testutil.h):
     * ceiling = 960e9 / 3,817,531,648 = 251.47 tokens/s (within 1 %). */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("5080", "rtx-5080", 960e9), 251.47, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_more_b(void)
{
    Suite *s = suite_create("gpus_more_b");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx_5080_matches_sources);
    tcase_add_test(tc, rtx_5070_ti_matches_sources);
    tcase_add_test(tc, rtx_5070_matches_sources);
    tcase_add_test(tc, rtx_5060_ti_16gb_matches_sources);
    tcase_add_test(tc, rtx_4080_super_matches_sources);
    tcase_add_test(tc, rtx_4070_super_matches_sources);
    tcase_add_test(tc, rtx_4060_ti_16gb_matches_sources);
    tcase_add_test(tc, rtx_4060_matches_sources);
    tcase_add_test(tc, rtx_pro_6000_blackwell_matches_sources);
    tcase_add_test(tc, rtx_pro_6000_max_q_matches_sources);
    tcase_add_test(tc, l40_matches_sources);
    tcase_add_test(tc, gh200_matches_sources);
    tcase_add_test(tc, h20_matches_sources);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tc, geforce_fp32_accumulate_is_half_rate);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_on_5080);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
