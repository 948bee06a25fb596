/* Six more NVIDIA GPUs in the shipped database -- GeForce RTX 4070 Ti SUPER
 * (AD103), A800 80GB SXM4 (GA100 with NVLink cut to 400 GB/s) and its link
 * nvlink3-a800, L20 (AD102), RTX 2000 Ada Generation (AD107), GeForce RTX
 * 3070 Ti (GA104) and RTX 3080 12GB (GA102) -- plus an AllReduce on the A800
 * link and a decode run on the L20.
 *
 * Expected values are written out by hand from the figures cited in each
 * entry's own `sources:` map (spec tables, datasheet copies, nvidia-smi
 * printouts, published measurements) and from SMs x boost clock x the per-SM
 * dense rates per clock, converted to SI in the comments -- never copied from
 * the program's output.  Per-SM dense rates per clock:
 *   Ada GeForce (RTX 4090 column) and GA10x GeForce (RTX 3090 column): FP32
 *   256, TF32 256, FP16/BF16 Tensor 512 with FP32 accumulate and 1024 with
 *   FP16 accumulate, FP8 (Ada) 1024 / 2048, INT8 2048, INT4 4096;
 *   Ada workstation (full-rate FP32 accumulate): TF32 512, FP16/BF16 1024,
 *   FP8 2048, INT8 2048, INT4 4096. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

START_TEST(rtx_4070_ti_super_matches_sources)
{
    static const gp_test_card card = {"rtx-4070-ti-super",
                                      66, 2.61e9, 256 / 8 * 21e9, 16 * GIB,
                                      16376 * MIB, 285, 0, 799,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *ti = gp_db_find_gpu(gp_test_db(), "rtx-4070-ti");
    /* AD103-275 with 66 SMs (8,448 / 128), base 2340 / boost 2610 MHz.
     * 16 GB GDDR6X at 21 Gb/s on 256 bits: 32 x 21e9 = 672e9 B/s;
     * nvidia-smi 16376 MiB at 285 W; $799.  No L2 size was sourced: none.
     * 66 x 2.61e9 = 172.26e9 SM-cycles/s:
     *   FP32 x 256 = 44.099e12 -> 44.1e12 (the table's 44.1 TFLOPS)
     *   BF16 FP32 acc x 512 = 88.197e12 -> 88.2e12
     *   FP16 acc x 1024 = 176.39e12 -> 176.4e12 (= FP8 with FP32 acc)
     *   FP8 FP16 acc x 2048 = 352.79e12 -> 352.8e12; 2:4 sparse 705.6e12
     *   INT4 x 4096 = 705.58e12 -> 705.6e12
     * Same boost clock as the RTX 4070 Ti (60 SMs): peaks x 66/60 = 1.1,
     * bandwidth x 256/192 = 4/3 (672 vs 504 GB/s). */
    ck_assert(g->l2_size.v == 0.0);
    GP_ASSERT_REL(g->clock_base.v, 2.34e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 44.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 88.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 66 * 2.61e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 176.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 176.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 352.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP16, 1), 705.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 705.6e12, 1e-9);
    ck_assert_ptr_nonnull(ti);
    ck_assert_ptr_ne(g, ti);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0)
                      / gp_gpu_peak(ti, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  66.0 / 60.0, 1e-3);
    GP_ASSERT_REL(g->mem_bw.v / ti->mem_bw.v, 4.0 / 3.0, 1e-12);
    ck_assert_str_eq(g->compute_capability, "8.9");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    GP_ASSERT_REL(g->eff_mem.v, 0.96, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 1.0, 1e-12);
}
END_TEST

START_TEST(a800_matches_sources)
{
    static const gp_test_card card = {"a800-sxm-80gb",
                                      108, 1.41e9, 2039e9, 80 * GIB,
                                      81920 * MIB, 400, 40 * MIB, 0,
                                      "nvlink3-a800"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *a100 = gp_db_find_gpu(gp_test_db(), "a100-sxm-80gb");
    int p;
    /* The A100 80GB SXM4's die and datasheet peaks, NVLink cut to 400 GB/s:
     * BF16 312e12 dense (624e12 2:4 sparse), TF32 156e12, FP64 9.7e12 /
     * tensor 19.5e12, INT8 624e12, INT4 1248e12 (whitepaper), no FP8 on
     * Ampere; 80 GB HBM2e at 2,039 GB/s; 108 SMs, 1410 MHz; nvidia-smi
     * 'NVIDIA A800-SXM4-80GB' 81920 MiB at 400 W.  torch.mm BF16 on an A800
     * SXM4: 266.48 / 312 = 0.854 -> 0.85.  A100-class MFU 0.47. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 312e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 624e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 156e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 19.5e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1248e12, 1e-12);
    ck_assert(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    /* datacenter part: FP16 accumulate is no faster */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 312e12, 1e-12);
    /* same die and clocks as the A100 SXM 80GB entry */
    ck_assert_ptr_nonnull(a100);
    for (p = 0; p < GP_PREC__COUNT; p++) {
        GP_ASSERT_REL(g->peak[p][GP_PIPE_TENSOR].v + 1, a100->peak[p][GP_PIPE_TENSOR].v + 1,
                      1e-12);
        GP_ASSERT_REL(g->peak[p][GP_PIPE_CUDA].v + 1, a100->peak[p][GP_PIPE_CUDA].v + 1, 1e-12);
    }
    GP_ASSERT_REL(g->eff_mem.v, a100->eff_mem.v, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 0.85, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 266.48 / 312.0, 0.01);
    GP_ASSERT_REL(g->eff_mfu.v, 0.47, 1e-12);
    ck_assert_str_eq(g->compute_capability, "8.0");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    ck_assert_str_eq(a100->scale_up_link, "nvlink3");
}
END_TEST

START_TEST(nvlink3_a800_link)
{
    const gp_db *db = gp_test_db();
    const gp_link *l = gp_db_find_link(db, "nvlink3-a800");
    const gp_link *a100 = gp_db_find_link(db, "nvlink3");
    /* A800 NVLink: 400 GB/s both directions = 200e9 B/s per direction (8 x
     * 25 GB/s), two thirds of the A100's 12 x 25 = 300e9.  Achievable: the
     * A100 NCCL busbw ratio 230 / 300 (nccl-tests#149) on 200 GB/s = 153.33
     * -> 153.3e9.  Alpha 2 us; 8 GPUs on NVSwitch; no NVLS. */
    ck_assert_ptr_nonnull(l);
    ck_assert_ptr_nonnull(a100);
    ck_assert_ptr_eq(gp_db_find_link(db, "nvlink-a800"), l);
    GP_ASSERT_REL(l->bw.v, 8 * 25e9, 1e-12);
    GP_ASSERT_REL(l->bw.v, a100->bw.v * 2.0 / 3.0, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 153.3e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 200e9 * 230.0 / 300.0, 1e-3);
    GP_ASSERT_REL(l->bw_achievable.v / l->bw.v, a100->bw_achievable.v / a100->bw.v, 1e-3);
    GP_ASSERT_REL(l->latency.v, 2e-6, 1e-12);
    GP_ASSERT_REL(l->max_gpus.v, 8, 1e-12);
    ck_assert_int_eq(l->kind, GP_LINK_NVLINK);
    ck_assert_int_eq(l->scope, GP_SCOPE_SCALE_UP);
    ck_assert_int_eq(l->switched, 1);
    ck_assert_int_eq(l->p2p, 1);
    ck_assert(l->bw_nvls.v == 0.0);
    ck_assert_ptr_nonnull(strstr(l->bw_achievable.src, "issue #149"));
}
END_TEST

START_TEST(l20_matches_sources)
{
    static const gp_test_card card = {"l20",
                                      92, 2.52e9, 864e9, 48 * GIB,
                                      46068 * MIB, 350, 96 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *l40 = gp_db_find_gpu(gp_test_db(), "l40");
    /* AD102 with 92 SMs (11,776 / 128), boost 2520 MHz; 48 GB GDDR6 ECC,
     * 864 GB/s, L2 96 MB; nvidia-smi 46068 MiB (ECC on) at a 350 W cap.
     * Datasheet table (dense: TPP 1,912 = 119.5 x 16): BF16 | FP16 Tensor
     * 119.5e12, INT8 | FP8 239e12, TF32 = FP32 = 59.8e12, no INT4, no
     * FP16-accumulate row (the tensor row applies), 2:4 sparse 2 x 119.5 =
     * 239e12.  Per SM per clock: 119.5e12 / (92 x 2.52e9) = 515.4 ~ 512,
     * the halved FP32-accumulate rate of the L40 (181.05e12 / (142 x 2.49e9)
     * = 512.0); 92 x 2.52e9 x 512 = 118.70e12 is 0.7 % under the datasheet.
     * cuBLAS / torch.matmul FP16 with FP32 accumulate up to 114.40e12:
     * 114.40 / 119.5 = 0.957 -> 0.96. */
    GP_ASSERT_REL(g->clock_base.v, 1.44e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 119.5e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) * 16, 1912e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 119.5e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 239e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 239e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 239e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 59.8e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 59.8e12, 1e-12);
    ck_assert(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 92 * 2.52e9 * 512,
                  0.01);
    /* the L40's per-SM, per-clock BF16 rate, not the L40S's double one */
    ck_assert_ptr_nonnull(l40);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) / (92 * 2.52e9),
                  gp_gpu_peak(l40, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) / (142 * 2.49e9),
                  0.01);
    GP_ASSERT_REL(g->eff_compute.v, 0.96, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 114.40 / 119.5, 0.01);
    ck_assert(114.40e12 > 119.5e12 / 2); /* a halved 59.75 reading is excluded */
    GP_ASSERT_REL(g->eff_mem.v, 830.0 / 864.0, 0.01);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    ck_assert_str_eq(g->compute_capability, "8.9");
}
END_TEST

START_TEST(rtx_2000_ada_matches_sources)
{
    static const gp_test_card card = {"rtx-2000-ada",
                                      22, 2.13e9, 224e9, 16 * GIB,
                                      16380 * MIB, 70, 0, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* AD107 with 22 SMs (2,816 / 128), base 1620 / boost 2130 MHz; 16 GB
     * GDDR6 ECC on 128 bits, 224 GB/s, 70 W; 16380 MiB total (ECC off, presumably).
     * 22 x 2.13e9 = 46.86e9 SM-cycles/s, full-rate FP32 accumulate:
     *   FP32 x 256 = 11.996e12 -> the datasheet's 12.0e12
     *   TF32 x 512 = 23.992e12 -> 23.99e12
     *   BF16 x 1024 = 47.985e12 -> 47.98e12 (FP16 accumulate: the same)
     *   FP8 x 2048 = 95.969e12 -> 95.97e12; 2:4 sparse 191.94e12, the
     *   datasheet's 'Tensor Performance 191.9 TFLOPS'
     *   INT4 x 4096 = 191.94e12 -> 191.9e12
     * PCIe 4.0 x8 = PCIe 3.0 x16 per direction: host_link pcie3-x16. */
    GP_ASSERT_REL(g->clock_base.v, 1.62e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 12.0e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 23.99e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 47.98e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 22 * 2.13e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 47.98e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 95.97e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 191.9e12, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 191.9e12, 1e-9);
    ck_assert(g->l2_size.v == 0.0);
    ck_assert(g->price.v == 0.0);
    ck_assert_str_eq(g->host_link, "pcie3-x16");
    ck_assert_str_eq(g->compute_capability, "8.9");
    GP_ASSERT_REL(g->eff_compute.v, 0.76, 1e-12);
}
END_TEST

START_TEST(rtx_3070_ti_matches_sources)
{
    static const gp_test_card card = {"rtx-3070-ti",
                                      48, 1.77e9, 256 / 8 * 19e9, 8 * GIB,
                                      8192 * MIB, 290, 4 * MIB, 0,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *n = gp_db_find_gpu(gp_test_db(), "rtx-3070");
    /* GA104-400, all 48 SMs, base 1575 / boost 1770 MHz.  8 GB GDDR6X at
     * 19 Gb/s on 256 bits: 32 x 19e9 = 608e9 B/s; nvidia-smi 8192 MiB at
     * 290 W; L2 4 MB.  48 x 1.77e9 = 84.96e9 SM-cycles/s:
     *   FP32 x 256 = 21.750e12 -> 21.75e12 (TechPowerUp 21.75)
     *   BF16 FP32 acc x 512 = 43.50e12; FP16 acc x 1024 = 87.00e12
     *   INT8 x 2048 = 174.0e12; INT4 x 4096 = 348.0e12; no FP8 (Ampere).
     * Against the RTX 3070 (46 SMs x 1725 MHz = 79.35e9): x 84.96/79.35 =
     * 1.0707; bandwidth 608 / 448 = 1.357 (the review's +35.8 %). */
    GP_ASSERT_REL(g->clock_base.v, 1.575e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 21.75e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 43.5e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 48 * 1.77e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 87.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 174.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 348.0e12, 1e-9);
    ck_assert(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert_ptr_nonnull(n);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0)
                      / gp_gpu_peak(n, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  84.96 / 79.35, 1e-3);
    GP_ASSERT_REL(g->mem_bw.v / n->mem_bw.v, 608.0 / 448.0, 1e-12);
    ck_assert_str_eq(g->compute_capability, "8.6");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    GP_ASSERT_REL(g->eff_mem.v, 0.88, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 0.85, 1e-12);
}
END_TEST

START_TEST(rtx_3080_12gb_matches_sources)
{
    static const gp_test_card card = {"rtx-3080-12gb",
                                      70, 1.71e9, 384 / 8 * 19e9, 12 * GIB,
                                      12288 * MIB, 350, 0, 0,
                                      "pcie4-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *ten = gp_db_find_gpu(gp_test_db(), "rtx-3080");
    /* GA102-220 with 70 SMs (8,960 / 128), base 1260 / boost 1710 MHz.
     * 12 GB GDDR6X at 19 Gb/s on 384 bits: 48 x 19e9 = 912e9 B/s;
     * nvidia-smi 12288 MiB; 350 W.  No L2 (5 vs 6 MB conflict), no price.
     * 70 x 1.71e9 = 119.7e9 SM-cycles/s:
     *   FP32 x 256 = 30.643e12 -> 30.64e12 (TechPowerUp 30.64)
     *   BF16 FP32 acc x 512 = 61.286e12 -> 61.3e12
     *   FP16 acc x 1024 = 122.57e12 -> 122.6e12
     *   INT8 x 2048 = 245.15e12 -> 245.1e12; INT4 x 4096 = 490.29e12 -> 490.3e12
     * Same boost as the RTX 3080 10GB (68 SMs): peaks x 70/68 = 1.0294;
     * bandwidth 912 / 760 = 1.2 (384 vs 320 bits). */
    ck_assert(g->l2_size.v == 0.0);
    GP_ASSERT_REL(g->clock_base.v, 1.26e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 30.64e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 61.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 70 * 1.71e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 122.6e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 245.1e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 490.3e12, 1e-9);
    ck_assert_ptr_nonnull(ten);
    ck_assert_ptr_ne(g, ten);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0)
                      / gp_gpu_peak(ten, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  70.0 / 68.0, 1e-3);
    GP_ASSERT_REL(g->mem_bw.v / ten->mem_bw.v, 1.2, 1e-12);
    ck_assert_str_eq(g->compute_capability, "8.6");
}
END_TEST

START_TEST(names_resolve)
{
    /* ids, aliases and the names nvidia-smi / NVML print */
    static const gp_test_name pairs[] = {
        {"NVIDIA GeForce RTX 4070 Ti SUPER", "rtx-4070-ti-super"},
        {"RTX 4070 Ti Super", "rtx-4070-ti-super"},
        {"4070tisuper", "rtx-4070-ti-super"},
        {"4070-ti-super", "rtx-4070-ti-super"},
        {"NVIDIA GeForce RTX 4070 Ti", "rtx-4070-ti"},
        {"4070ti", "rtx-4070-ti"},
        {"NVIDIA A800-SXM4-80GB", "a800-sxm-80gb"},
        {"a800", "a800-sxm-80gb"},
        {"NVIDIA L20", "l20"},
        {"L20", "l20"},
        {"NVIDIA RTX 2000 Ada Generation", "rtx-2000-ada"},
        {"rtx2000-ada", "rtx-2000-ada"},
        {"NVIDIA GeForce RTX 3070 Ti", "rtx-3070-ti"},
        {"3070ti", "rtx-3070-ti"},
        {"NVIDIA GeForce RTX 3070", "rtx-3070"},
        {"RTX 3080 12GB", "rtx-3080-12gb"},
        {"3080-12gb", "rtx-3080-12gb"},
        /* NVML names the 12 GB card 'NVIDIA GeForce RTX 3080' too: that name
         * stays with the 10 GB entry (the id picks the 12 GB one) */
        {"NVIDIA GeForce RTX 3080", "rtx-3080"},
        {"NVIDIA A100-SXM4-80GB", "a100-sxm-80gb"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    /* a word too many or too few finds nothing, but a memory-size word that
     * is the card's own is no word too many */
    ck_assert_str_eq(gp_db_find_gpu(db, "RTX 4070 Ti SUPER 16GB")->id, "rtx-4070-ti-super");
    ck_assert_ptr_null(gp_db_find_gpu(db, "RTX 4070 Ti SUPER 12GB"));
    ck_assert_str_eq(gp_db_find_gpu(db, "NVIDIA L20 48GB")->id, "l20");
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA L20 PRO"));
}
END_TEST

START_TEST(fp32_accumulate_rates)
{
    /* GeForce: FP32-accumulate tensor = half the FP16-accumulate rate and TF32
     * = FP32; the workstation RTX 2000 Ada and the data-center A800 and L20
     * list no faster FP16-accumulate rate. */
    static const char *const geforce[] = {"rtx-4070-ti-super", "rtx-3070-ti", "rtx-3080-12gb"};
    static const char *const pro[] = {"rtx-2000-ada", "a800-sxm-80gb", "l20"};
    const gp_db *db = gp_test_db();
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
    for (i = 0; i < sizeof pro / sizeof pro[0]; i++) {
        const gp_gpu *g = gp_db_find_gpu(db, pro[i]);
        ck_assert_ptr_nonnull(g);
        GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0),
                      gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1e-12);
    }
}
END_TEST

START_TEST(cli_allreduce_on_a800_nvlink)
{
    /* Ring AllReduce of 8 GiB on 8 A800s: each GPU sends 2 x 7/8 x
     * 8,589,934,592 = 15,032,385,536 B.  Expected: / 153.3e9 = 98.0586 ms +
     * 14 hops x 2 us = 98.0866 ms; algbw 8,589,934,592 / 0.0980866 = 87.575
     * GB/s, busbw x 1.75 = 153.26 GB/s.  Ceiling: / 200e9 = 75.162 ms, busbw
     * 200 GB/s.  On A100 NVLink (230e9): 65.358 + 0.028 = 65.386 ms, so the
     * A800 takes 98.0866 / 65.386 = 1.500 x as long. */
    const char *a[] = {"--json", "allreduce", "--link", "nvlink3-a800", "--gpus", "8",
                       "--bytes", "8GiB", NULL};
    const char *b[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "8",
                       "--bytes", "8GiB", NULL};
    json_t *j = gp_test_cli_json(a), *k;
    double t800 = gp_test_jnum(j, "time_s");
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_gpu"), 15032385536.0, 1e-9);
    GP_ASSERT_REL(t800, 0.0980866, 1e-5);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 153.26e9, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_time_s"), 0.075162, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_busbw_bytes_per_s"), 200e9, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(j, "dominant")), "bandwidth");
    json_decref(j);
    k = gp_test_cli_json(b);
    GP_ASSERT_REL(t800 / gp_test_jnum(k, "time_s"), 1.500, 2e-3);
    json_decref(k);
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_on_l20)
{
    /* 3,817,531,648 B per token (gp_test_llama2_q4_0_ceiling in testutil.h):
     * ceiling = 864e9 / 3,817,531,648 = 226.32 tokens/s (within 1 %). */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("NVIDIA L20", "l20", 864e9), 226.32, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_more_c(void)
{
    Suite *s = suite_create("gpus_more_c");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx_4070_ti_super_matches_sources);
    tcase_add_test(tc, a800_matches_sources);
    tcase_add_test(tc, nvlink3_a800_link);
    tcase_add_test(tc, l20_matches_sources);
    tcase_add_test(tc, rtx_2000_ada_matches_sources);
    tcase_add_test(tc, rtx_3070_ti_matches_sources);
    tcase_add_test(tc, rtx_3080_12gb_matches_sources);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tc, fp32_accumulate_rates);
    tcase_add_test(tcli, cli_allreduce_on_a800_nvlink);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_on_l20);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
