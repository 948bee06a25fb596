/* Thirteen more NVIDIA cards in the shipped database: GeForce RTX 3090 Ti,
 * RTX 3060 (12 GB) and RTX 3060 Ti (Ampere); RTX A5000, RTX A4000 and A30
 * (workstation / datacenter Ampere); GeForce RTX 2080 Ti, RTX 2080 SUPER,
 * TITAN RTX and Tesla T4 (Turing); Tesla P40, Tesla P100 PCIe 16GB and
 * GeForce GTX 1080 Ti (Pascal); plus decode runs.
 *
 * Expected values are written out by hand from the spec sources cited in the
 * entries' own `sources:` maps (spec tables, reviews, TechPowerUp copies,
 * datasheet figures, nvidia-smi printouts) and from SMs x boost clock x the
 * per-SM dense rates of each architecture, converted to SI in the comments --
 * never copied from the program's output.  Per-SM rates per clock:
 *   GA10x    FP32 256; FP16/BF16 Tensor 512 with FP32 accumulate and 1024 with
 *            FP16 accumulate on GeForce, 1024 with either on professional
 *            parts; INT8 2048.
 *   GA100    FP32 128; FP16/BF16 Tensor 2048; TF32 1024; FP64 64 (Tensor 128).
 *   Turing   FP32 128; FP16 Tensor 1024 with FP16 accumulate, 512 with FP32
 *            accumulate on GeForce (full 1024 on TITAN RTX and T4); INT8 2048.
 *   Pascal   FP32 256 (GP102, 128 cores) / 128 (GP100, 64 cores); no Tensor
 *            Cores. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */
#define KIB 1024.0       /* 2^10 */

/* ---- Ampere GeForce --------------------------------------------------- */

START_TEST(rtx_3090_ti_matches_specs)
{
    static const gp_test_card card = {"rtx-3090-ti",
                                      84, 1.86e9, 384 * 21e9 / 8, 24 * GIB,
                                      0, 450, 6 * MIB, 1999,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA102-350, all 84 SMs, boost 1860 MHz = 1.86e9 Hz, base 1560 MHz.
     * 24 GB GDDR6X: 384 bit x 21 Gb/s / 8 = 1008e9 B/s; 24 x 2^30 B; 450 W;
     * L2 6 MB = 6 x 2^20 B; launch price $1,999 (no nvidia-smi total).
     * FP32 84 x 1.86e9 x 256 = 39.997e12 -> 40.0e12 (NVIDIA: 40 shader TFLOPS);
     * BF16 tensor FP32 acc 84 x 1.86e9 x 512 = 79.99e12 -> 80.0e12;
     * FP16 acc 84 x 1.86e9 x 1024 = 159.99e12 -> 160.0e12, sparse 320e12
     * (NVIDIA: 320 tensor TFLOPS). */
    GP_ASSERT_REL(g->clock_base.v, 1.56e9, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 1008e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 40.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 10752 * 2 * 1.86e9,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 80.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 84 * 1.86e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 160.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 320.0e12, 1e-9);
    ck_assert_str_eq(g->compute_capability, "8.6");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    ck_assert(g->mem_usable.v == 0);
    ck_assert(g->peak[GP_FP8][GP_PIPE_TENSOR].v == 0);
}
END_TEST

START_TEST(rtx_3060_matches_specs)
{
    static const gp_test_card card = {"rtx-3060",
                                      28, 1.777e9, 192 * 15e9 / 8, 12 * GIB,
                                      12288 * MIB, 170, 3 * MIB, 329,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA106-300, 28 SMs, boost 1777 MHz, base 1320 MHz.  12 GB GDDR6:
     * 192 bit x 15 Gb/s / 8 = 360e9 B/s; nvidia-smi 12288 MiB at 170 W;
     * L2 3 MB; MSRP $329.
     * FP32 3584 x 2 x 1.777e9 = 12.737e12 -> 12.74e12;
     * BF16 tensor FP32 acc 28 x 1.777e9 x 512 = 25.474e12 -> 25.47e12;
     * FP16 acc 28 x 1.777e9 x 1024 = 50.95e12 (NVIDIA's launch '101 tensor
     * TFLOPs' = 2 x 50.95 sparse). */
    GP_ASSERT_REL(g->clock_base.v, 1.32e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 12.74e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 3584 * 2 * 1.777e9,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 25.47e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 50.95e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 28 * 1.777e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 101.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 101.9e12, 1e-9);
    ck_assert_str_eq(g->compute_capability, "8.6");
    GP_ASSERT_REL(g->eff_mfu.v, 0.35, 1e-12);
}
END_TEST

START_TEST(rtx_3060_ti_matches_specs)
{
    static const gp_test_card card = {"rtx-3060-ti",
                                      38, 1.665e9, 256 * 14e9 / 8, 8 * GIB,
                                      0, 200, 4 * MIB, 399,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA104-200, 38 SMs, boost 1665 MHz, base 1410 MHz.  8 GB GDDR6:
     * 256 bit x 14 Gb/s / 8 = 448e9 B/s; 200 W; L2 4 MB; MSRP $399.
     * FP32 4864 x 2 x 1.665e9 = 16.197e12 -> 16.2e12 (HEXUS 16,197 GFLOPS);
     * BF16 tensor FP32 acc 38 x 1.665e9 x 512 = 32.39e12 -> 32.4e12;
     * FP16 acc 38 x 1.665e9 x 1024 = 64.79e12 -> 64.8e12. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 16.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 32.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 38 * 1.665e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 64.8e12, 1e-9);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

/* ---- Ampere workstation / datacenter ------------------------------------ */

START_TEST(rtx_a5000_matches_specs)
{
    static const gp_test_card card = {"rtx-a5000",
                                      64, 1.695e9, 384 * 16e9 / 8, 24 * GIB,
                                      24564 * MIB, 230, 6 * MIB, 2300, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA102-850, 64 SMs at 1695 MHz; 24 GB GDDR6 ECC: 384 x 16 / 8 = 768e9
     * B/s; nvidia-smi 24564 MiB (ECC off) at 230 W; L2 6 MB; HF MSRP $2.3k.
     * Professional GA102, full-rate FP32 accumulate:
     * BF16 tensor 64 x 1.695e9 x 1024 = 111.08e12 -> 111.1e12, sparse
     * 222.2e12 (datasheet 'Tensor Performance 222.2 TFLOPS');
     * FP32 8192 x 2 x 1.695e9 = 27.77e12; TF32 64 x 1.695e9 x 512 = 55.5e12. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 111.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 64 * 1.695e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 222.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 27.77e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 55.5e12, 1e-9);
    ck_assert(g->peak_fp16acc[GP_FP16].v == 0);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(rtx_a4000_matches_datasheet)
{
    static const gp_test_card card = {"rtx-a4000",
                                      48, 1.56e9, 448e9, 16 * GIB,
                                      16376 * MIB, 140, 4 * MIB, 0, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA104-875, all 48 SMs at 1560 MHz (base 735 MHz); datasheet: 16 GB
     * GDDR6 ECC, 256-bit, 448 GB/s = 448e9 B/s, 140 W, single-precision
     * 19.2 TFLOPS, Tensor 153.4 TFLOPS (2:4 sparse).  nvidia-smi 16376 MiB.
     * BF16 tensor 48 x 1.56e9 x 1024 = 76.68e12 -> 76.7e12 dense, x 2 =
     * 153.4e12 sparse; FP32 6144 x 2 x 1.56e9 = 19.17e12. */
    GP_ASSERT_REL(g->clock_base.v, 735e6, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 76.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 48 * 1.56e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 153.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 19.17e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 19.2e12, 2e-3);
    ck_assert(g->peak_fp16acc[GP_FP16].v == 0);
    ck_assert(g->price.v == 0);
}
END_TEST

START_TEST(a30_matches_specs)
{
    static const gp_test_card card = {"a30",
                                      56, 1.44e9, 933e9, 24 * GIB,
                                      24258 * MIB, 165, 24 * MIB, 0, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA100, 56 SMs at 1440 MHz (base 930 MHz); 24 GB HBM2, 933 GB/s;
     * nvidia-smi 24258 MiB (ECC on) at 165 W; L2 24 MB.
     * BF16 tensor 56 x 1.44e9 x 2048 = 165.15e12 -> 165.2e12 (datasheet
     * 165), sparse 330.4e12; TF32 56 x 1.44e9 x 1024 = 82.58e12 -> 82.6e12;
     * FP64 tensor 56 x 1.44e9 x 128 = 10.32e12; FP64 5.16e12; INT8
     * 56 x 1.44e9 x 4096 = 330.3e12. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 56 * 1.44e9 * 2048,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 330.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 82.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 10.32e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 5.16e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 330.3e12, 1e-9);
    ck_assert_str_eq(g->compute_capability, "8.0");
    GP_ASSERT_REL(g->eff_compute.v, 0.81, 1e-12);
}
END_TEST

/* ---- Turing ------------------------------------------------------------ */

START_TEST(rtx_2080_ti_matches_specs)
{
    static const gp_test_card card = {"rtx-2080-ti",
                                      68, 1.545e9, 352 * 14e9 / 8, 11 * GIB,
                                      11264 * MIB, 250, 5.5 * MIB, 999, "pcie3-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* TU102-300, 68 SMs at the reference boost 1545 MHz (base 1350 MHz);
     * 11 GB GDDR6: 352 x 14 / 8 = 616e9 B/s; nvidia-smi 11264 MiB at 250 W;
     * L2 5.5 MB = 5.5 x 2^20 B; reference price $999.
     * FP32 4352 x 2 x 1.545e9 = 13.448e12 -> 13.45e12;
     * FP16 tensor, FP16 acc 68 x 1.545e9 x 1024 = 107.58e12 -> 107.6e12;
     * FP32 acc (GeForce half rate) x 512 = 53.79e12 -> 53.8e12;
     * INT8 x 2048 = 215.2e12.  No BF16, TF32, FP8 and no sparsity. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 13.45e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 53.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 68 * 1.545e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 107.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 215.2e12, 1e-9);
    ck_assert(g->peak[GP_BF16][GP_PIPE_TENSOR].v == 0);
    ck_assert(g->peak[GP_TF32][GP_PIPE_TENSOR].v == 0);
    ck_assert(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 1) == 0);
    ck_assert_str_eq(g->compute_capability, "7.5");
    ck_assert_str_eq(g->host_link, "pcie3-x16");
    GP_ASSERT_REL(g->eff_compute.v, 0.97, 1e-12);
}
END_TEST

START_TEST(rtx_2080_super_matches_specs)
{
    static const gp_test_card card = {"rtx-2080-super",
                                      48, 1.815e9, 256 * 15.5e9 / 8, 8 * GIB,
                                      0, 250, 4 * MIB, 0, "pcie3-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* TU104-450, all 48 SMs, 1650 / 1815 MHz; 8 GB GDDR6: 256 x 15.5 / 8 =
     * 496e9 B/s; 250 W; L2 4 MB.
     * FP32 3072 x 2 x 1.815e9 = 11.151e12 -> 11.15e12 (HEXUS 11,151 GFLOPS);
     * FP16 acc 48 x 1.815e9 x 1024 = 89.21e12 -> 89.2e12; FP32 acc half:
     * 44.6e12. */
    GP_ASSERT_REL(g->clock_base.v, 1.65e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 11.15e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 89.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 48 * 1.815e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 44.6e12, 1e-9);
}
END_TEST

START_TEST(titan_rtx_matches_specs)
{
    static const gp_test_card card = {"titan-rtx",
                                      72, 1.77e9, 384 * 14e9 / 8, 24 * GIB,
                                      24220 * MIB, 280, 6 * MIB, 2499, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* TU102-400, all 72 SMs, 1350 / 1770 MHz; 24 GB GDDR6: 384 x 14 / 8 =
     * 672e9 B/s; nvidia-smi 24220 MiB at 280 W; L2 6 MB; $2,499.
     * FP16 tensor at the full rate with FP32 accumulate:
     * 72 x 1.77e9 x 1024 = 130.50e12 -> 130.5e12 (Tom's Hardware 130.5);
     * FP32 4608 x 2 x 1.77e9 = 16.31e12. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 130.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 72 * 1.77e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 130.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 16.31e12, 1e-9);
    ck_assert(g->peak_fp16acc[GP_FP16].v == 0);
}
END_TEST

START_TEST(t4_matches_specs)
{
    static const gp_test_card card = {"t4",
                                      40, 1.59e9, 256 * 10e9 / 8, 16 * GIB,
                                      15360 * MIB, 70, 4 * MIB, 0, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* TU104, 40 SMs, 585 / 1590 MHz; 16 GB GDDR6: 256 x 10 / 8 = 320e9 B/s;
     * nvidia-smi 15360 MiB (ECC on) at 70 W; L2 4 MB.
     * FP16 tensor, FP32 accumulate at the full rate: 40 x 1.59e9 x 1024 =
     * 65.13e12 -> 65.1e12 (datasheet 'Mixed Precision (FP16/FP32) 65');
     * INT8 x 2048 = 130.3e12 (datasheet 130); FP32 2560 x 2 x 1.59e9 =
     * 8.14e12.  Compute efficiency from torch.mm FP16 on a T4: 42.71 / 65.13
     * = 0.656 -> 0.66. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 65.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 65e12, 3e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 130.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 8.14e12, 1e-9);
    GP_ASSERT_REL(g->eff_compute.v, 0.66, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 42.71 / 65.13, 0.01);
    ck_assert_str_eq(g->host_link, "pcie3-x16");
}
END_TEST

/* ---- Pascal ------------------------------------------------------------ */

START_TEST(p40_matches_specs)
{
    static const gp_test_card card = {"p40",
                                      30, 1.531e9, 346e9, 24 * GIB,
                                      24451 * MIB, 250, 3 * MIB, 5699, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GP102, all 30 SMs, 1303 / 1531 MHz; 24 GB GDDR5, 346 GB/s (384 x 7.2 /
     * 8 = 345.6); nvidia-smi 24451 MiB at 250 W; L2 3 MB; launch $5,699.
     * FP32 3840 x 2 x 1.531e9 = 11.758e12 -> 11.76e12; INT8 (DP4A) 47 TOPS.
     * No Tensor Cores; FP16 (1/64 rate) left out, so fp16 has no peak and
     * decode and train fall back to FP32. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 11.76e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 3840 * 2 * 1.531e9,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_CUDA, GP_ACC_FP32, 0), 47e12, 1e-9);
    ck_assert(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0) == 0);
    ck_assert(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0);
    ck_assert_str_eq(g->compute_capability, "6.1");
    GP_ASSERT_REL(g->eff_compute.v, 0.86, 1e-12);
}
END_TEST

START_TEST(p100_pcie_matches_specs)
{
    static const gp_test_card card = {"p100-pcie-16gb",
                                      56, 1.303e9, 732e9, 16 * GIB,
                                      16280 * MIB, 250, 4 * MIB, 5699, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GP100, 56 SMs at NVIDIA's 1303 MHz; 16 GB HBM2, 732 GB/s; nvidia-smi
     * 16280 MiB (ECC on) at 250 W; L2 4 MB; $5,699.
     * FP32 3584 x 2 x 1.303e9 = 9.340e12 -> 9.34e12 (datasheet 9.3);
     * FP64 half: 4.67e12 (4.7); FP16 half2 double: 18.68e12 (18.7). */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 9.34e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 4.67e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 18.68e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 18.7e12, 2e-3);
    ck_assert(g->peak[GP_FP16][GP_PIPE_TENSOR].v == 0);
    ck_assert_str_eq(g->compute_capability, "6.0");
}
END_TEST

START_TEST(gtx_1080_ti_matches_specs)
{
    static const gp_test_card card = {"gtx-1080-ti",
                                      28, 1.582e9, 352 * 11e9 / 8, 11 * GIB,
                                      11264 * MIB, 250, 2816 * KIB, 700, NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GP102-350, 28 SMs, 1480 / 1582 MHz; 11 GB GDDR5X: 352 x 11 / 8 =
     * 484e9 B/s; nvidia-smi 11264 MiB; 250 W; L2 2,816 KB = 2816 x 2^10 B;
     * $700 (Tom's Hardware).  FP32 3584 x 2 x 1.582e9 = 11.340e12 -> 11.34e12;
     * FP64 1/32 = 0.354e12. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 11.34e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 0.354e12, 1e-9);
    ck_assert(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0) == 0);
    ck_assert_str_eq(g->compute_capability, "6.1");
}
END_TEST

/* ---- names ------------------------------------------------------------- */

START_TEST(names_resolve)
{
    static const gp_test_name want[] = {
        {"3090ti", "rtx-3090-ti"},     {"RTX 3090 Ti", "rtx-3090-ti"},
        {"3060", "rtx-3060"},          {"rtx-3060-12gb", "rtx-3060"},
        {"3060ti", "rtx-3060-ti"},     {"RTX 3060 Ti", "rtx-3060-ti"},
        {"a5000", "rtx-a5000"},        {"a4000", "rtx-a4000"},
        {"A30", "a30"},                {"2080ti", "rtx-2080-ti"},
        {"2080super", "rtx-2080-super"}, {"RTX 2080 SUPER", "rtx-2080-super"},
        {"titanrtx", "titan-rtx"},     {"T4", "t4"},
        {"tesla-t4", "t4"},            {"P40", "p40"},
        {"p100-pcie", "p100-pcie-16gb"}, {"1080ti", "gtx-1080-ti"},
        {"P100", "p100-pcie-16gb"},    {"Tesla P100", "p100-pcie-16gb"}};
    gp_test_names_resolve(want, sizeof want / sizeof want[0], 0);
    /* nvidia-smi device names (calib import); "Tesla" and "GeForce" are
     * packaging words, so "Tesla P100-PCIE-16GB" is {p100, pcie, 16gb}. */
    static const gp_test_name dev[] = {
        {"NVIDIA GeForce RTX 3090 Ti", "rtx-3090-ti"},
        {"NVIDIA GeForce RTX 3060", "rtx-3060"},
        {"NVIDIA GeForce RTX 3060 Ti", "rtx-3060-ti"},
        {"NVIDIA RTX A5000", "rtx-a5000"},
        {"NVIDIA RTX A4000", "rtx-a4000"},
        {"NVIDIA A30", "a30"},
        {"NVIDIA GeForce RTX 2080 Ti", "rtx-2080-ti"},
        {"NVIDIA GeForce RTX 2080 SUPER", "rtx-2080-super"},
        {"NVIDIA TITAN RTX", "titan-rtx"},
        {"Tesla T4", "t4"},
        {"Tesla P40", "p40"},
        {"Tesla P100-PCIE-16GB", "p100-pcie-16gb"},
        {"NVIDIA GeForce GTX 1080 Ti", "gtx-1080-ti"}};
    gp_test_names_resolve(dev, sizeof dev / sizeof dev[0], 1);
}
END_TEST

/* ---- decode through the CLI --------------------------------------------- */

/* Llama 2 7B, Q4_0 body (4.5 bits = 0.5625 B per weight), the output matrix
 * in Q6_K (0.8203125 B per weight), fp16 KV at context 64 (tg128 from an
 * empty prompt):
 *   body    32 x (4 x 4096^2 + 3 x 4096 x 11008) = 6,476,005,376 weights
 *           x 0.5625 B                            = 3,642,753,024 B
 *   lm_head 32000 x 4096 x 0.8203125 B            =   107,520,000 B
 *   KV      64 x 32 layers x 2 x 4096 x 2 B       =    33,554,432 B
 *   bytes per token                               = 3,783,827,456 B
 * (norms, one embedding row and activations add about 0.15 %). */
#define L2_7B_Q4_0_CTX64_BYTES 3783827456.0

static json_t *decode_json(const char *gpu, const char *engine)
{
    const char *argv[] = {"--json", "decode", "--gpu", gpu, "--model", "llama-2-7b",
                          "--weights", "q4_0", "--context", "64", "--engine", engine,
                          NULL};
    return gp_test_cli_json(argv);
}

START_TEST(cli_decode_ceilings)
{
    /* ceiling = datasheet bandwidth / bytes per token:
     *   RTX 3060   360e9 / 3,783,827,456 =  95.14 tokens/s
     *   Tesla T4   320e9 / 3,783,827,456 =  84.57
     *   Tesla P40  346e9 / 3,783,827,456 =  91.44
     *   RTX 2080 Ti 616e9 / 3,783,827,456 = 162.80 */
    static const struct { const char *gpu; double bw, ceil; } row[] = {
        {"rtx-3060", 360e9, 95.14}, {"t4", 320e9, 84.57},
        {"p40", 346e9, 91.44},      {"rtx-2080-ti", 616e9, 162.80}};
    for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
        json_t *j = decode_json(row[i].gpu, "llama.cpp");
        json_t *ceil = json_object_get(j, "ceiling");
        double c, x;
        ck_assert_ptr_nonnull(ceil);
        ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), row[i].gpu);
        GP_ASSERT_REL(gp_test_jnum(ceil, "mem_bw_bytes_per_s"), row[i].bw, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_token"), L2_7B_Q4_0_CTX64_BYTES, 0.01);
        c = gp_test_jnum(j, "ceiling_tokens_per_s");
        x = gp_test_jnum(j, "expected_tokens_per_s");
        GP_ASSERT_REL(c, row[i].bw / L2_7B_Q4_0_CTX64_BYTES, 0.01);
        GP_ASSERT_REL(c, row[i].ceil, 0.01);
        ck_assert_msg(x > 0 && x < c, "%s: expected %g, ceiling %g", row[i].gpu, x, c);
        json_decref(j);
    }
}
END_TEST

START_TEST(cli_decode_published_llamacpp_2024)
{
    /* llama-bench tg128, Llama 2 7B Q4_0 (3.56 GiB), all layers on the GPU,
     * from early-2024 llama.cpp builds (so the engine profile of those
     * builds, llama.cpp-2023).  These are not rows of the #15013 scoreboard.
     *  - RTX 3090 Ti: 127.43 +- 0.18 tokens/s, 'build: 32d9f7d9 (1786)',
     *    llama.cpp PR #4812 description (slaren, 2024-01-07, nkvo 0 row),
     *    https://github.com/ggml-org/llama.cpp/pull/4812
     *  - Tesla P40: 56.79 tokens/s ('t/s master' column), llama.cpp PR #4766
     *    (ggml-backend integration), JohannesGaessler's comparison table,
     *    https://github.com/ggml-org/llama.cpp/pull/4766
     * Ceilings: 1008e9 / 3.7838e9 = 266.4 and 346e9 / 3.7838e9 = 91.4, both
     * above the measurements; the expected figure must be within 25 %. */
    static const struct { const char *gpu; double measured; } row[] = {
        {"rtx-3090-ti", 127.43}, {"p40", 56.79}};
    for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
        json_t *j = decode_json(row[i].gpu, "llama.cpp-2023");
        double c = gp_test_jnum(j, "ceiling_tokens_per_s");
        double x = gp_test_jnum(j, "expected_tokens_per_s");
        double err = x / row[i].measured - 1.0;
        ck_assert_msg(row[i].measured < c, "%s: measured %.2f above ceiling %.2f", row[i].gpu,
                      row[i].measured, c);
        ck_assert_msg(fabs(err) <= 0.25, "%s: expected %.2f vs measured %.2f (%+.1f %%)",
                      row[i].gpu, x, row[i].measured, 100.0 * err);
        json_decref(j);
    }
}
END_TEST

Suite *gp_test_suite_gpus_more_a(void)
{
    Suite *s = suite_create("gpus_more_a");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx_3090_ti_matches_specs);
    tcase_add_test(tc, rtx_3060_matches_specs);
    tcase_add_test(tc, rtx_3060_ti_matches_specs);
    tcase_add_test(tc, rtx_a5000_matches_specs);
    tcase_add_test(tc, rtx_a4000_matches_datasheet);
    tcase_add_test(tc, a30_matches_specs);
    tcase_add_test(tc, rtx_2080_ti_matches_specs);
    tcase_add_test(tc, rtx_2080_super_matches_specs);
    tcase_add_test(tc, titan_rtx_matches_specs);
    tcase_add_test(tc, t4_matches_specs);
    tcase_add_test(tc, p40_matches_specs);
    tcase_add_test(tc, p100_pcie_matches_specs);
    tcase_add_test(tc, gtx_1080_ti_matches_specs);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tcli, cli_decode_ceilings);
    tcase_add_test(tcli, cli_decode_published_llamacpp_2024);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
