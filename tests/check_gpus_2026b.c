/* GPUs people plan with, second pass -- AWS A10G, GB200 (one GPU of the
 * NVL72 rack) and its link nvlink5-nvl72, AMD Instinct MI355X and its link
 * xgmi-mi355x, MI250X (one GCD), Radeon RX 7900 XTX, GeForce RTX 3050 8GB,
 * RTX 2060, RTX 2070, TITAN V, RTX 5060 and RTX A2000 12GB -- plus decode
 * ceilings on the A10G and the RX 7900 XTX.
 *
 * Expected values are written out by hand from the figures cited in each
 * entry's sources (datasheet copies, spec tables, nvidia-smi and torch
 * printouts) and from bus width x data rate and SMs x clock x per-SM rate,
 * converted to SI in the comments -- never copied from the program's output.
 * Per-SM (per-CU) dense rates per clock used below:
 *   GA102 / GA10x FP32 256; A10 (datacenter) FP16/BF16 Tensor 1024; A10G
 *   half of it, 512 (INT8 1024); GA10x GeForce BF16 with FP32 accumulate
 *   512, FP16 accumulate 1024, INT8 2048; professional GA10x 1024;
 *   Turing GeForce FP32 128, FP16 Tensor FP32 acc 512 / FP16 acc 1024;
 *   consumer Blackwell FP32 256, BF16 512, FP4 4096;
 *   CDNA 4 FP16/BF16 4096, FP8 8192, FP4 16384 per CU; CDNA 2 FP16 1024
 *   per CU; RDNA 3 FP16 (WMMA / dual-issue packed) 512 per CU. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

static double peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe, int sparse)
{
    return gp_gpu_peak(g, p, pipe, GP_ACC_FP32, sparse);
}

START_TEST(a10g_matches_sources)
{
    static const gp_test_card card = {"a10g",
                                      80, 1.71e9, 384 / 8 * 12.5e9, 24 * GIB,
                                      23028 * MIB, 300, 6 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *a10 = gp_db_find_gpu(gp_test_db(), "a10");
    /* torch: 80 SMs, L2 6 MB; measured 1710 MHz; nvidia-smi 23,028 MiB at a
     * 300 W cap; GDDR6 384 bit x 12.5 Gb/s / 8 = 600e9 B/s.
     *   FP32  80 x 128 x 2 x 1.71e9 = 35.021e12 -> 35.0e12
     *   BF16  80 x 1.71e9 x 512  = 70.042e12 -> 70.0e12 (sparse 140.0e12)
     *   INT8  80 x 1.71e9 x 1024 = 140.08e12 -> 140.1e12
     * The A10: 72 x 1.695e9 x 1024 = 124.97e12 -> 125e12, so the A10G's
     * per-SM tensor rate is half: 70.0 / 80 vs 125 / 72 per SM = 0.504 at
     * the clock ratio 1.71 / 1.695.  Measured BF16 58e12: 58 / 70.0 = 0.829
     * -> 0.83; at the A10's per-SM rate it would be 58 / 140.1 = 0.41. */
    GP_ASSERT_REL(g->mem_bw.v, 600e9, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 80 * 128 * 2 * 1.71e9, 1e-3);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 70.0e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 80 * 1.71e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 1), 140.0e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 80 * 1.71e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(g, GP_TF32, GP_PIPE_TENSOR, 0), 80 * 1.71e9 * 256, 1e-3);
    /* GA102: FP16 on the CUDA cores at the FP32 rate */
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA, 0), 35.0e12, 1e-12);
    ck_assert(peak(g, GP_FP64, GP_PIPE_CUDA, 0) == 0.0);
    ck_assert_ptr_nonnull(a10);
    GP_ASSERT_REL(peak(a10, GP_BF16, GP_PIPE_TENSOR, 0) / 72 / 1.695e9, 1024, 0.01);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) / 80 / 1.71e9, 512, 1e-3);
    GP_ASSERT_REL(g->mem_bw.v, a10->mem_bw.v, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, a10->mem_usable.v, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 58.0 / 70.0, 0.01);
    ck_assert_str_eq(g->compute_capability, "8.6");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
    ck_assert_ptr_null(g->scale_up_link);
}
END_TEST

START_TEST(gb200_matches_nvl72_datasheet)
{
    static const gp_test_card card = {"gb200",
                                      152, 0, 576e12 / 72, 186 * GIB,
                                      189471 * MIB, 1200, 126 * MIB, 0,
                                      "nvlink5-nvl72"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *b200 = gp_db_find_gpu(gp_test_db(), "b200");
    /* NVL72 rack totals / 72 GPUs, then / 2 for 2:4 sparsity:
     *   FP4 1,440e15 / 72 = 20e15 sparse -> 10e15 dense
     *   FP8   720e15 / 72 = 10e15 sparse ->  5e15 dense
     * per-GPU column: BF16 5e15 -> 2.5e15; TF32 2.5e15 -> 1.25e15; INT8
     * 10e15 -> 5e15; FP32 80e12; FP64 40e12.  576e12 / 72 = 8e12 B/s.
     * nvidia-smi 189,471 MiB (= 185.03 GiB) at 1,200 W; 152 SMs.  Tensor
     * clock implied: 2.5e15 / (152 x 8192) = 2.008e9 Hz. */
    ck_assert(g->clock_boost.v == 0.0);
    GP_ASSERT_REL(peak(g, GP_FP4, GP_PIPE_TENSOR, 0), 1440e15 / 72 / 2, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP4, GP_PIPE_TENSOR, 1), 20e15, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP8, GP_PIPE_TENSOR, 0), 720e15 / 72 / 2, 1e-12);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 2.5e15, 1e-12);
    GP_ASSERT_REL(peak(g, GP_TF32, GP_PIPE_TENSOR, 0), 1.25e15, 1e-12);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 5e15, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP64, GP_PIPE_TENSOR, 0), 40e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 80e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) / (152 * 8192.0), 2.008e9, 1e-3);
    GP_ASSERT_REL(g->mem_usable.v / GIB, 185.03, 1e-4);
    /* the HGX B200: BF16 2.25e15, 7.7e12 B/s, 180 GiB */
    ck_assert_ptr_nonnull(b200);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) / peak(b200, GP_BF16, GP_PIPE_TENSOR, 0),
                  2.5 / 2.25, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v / b200->mem_bw.v, 8.0 / 7.7, 1e-12);
    GP_ASSERT_REL(g->eff_mem.v, b200->eff_mem.v, 1e-12);
    /* MAMF (2026-07-31 table): GB200 BF16 1822.0 of 2500 = 0.729 and FP8
     * 3615.6 of 5000 = 0.723 (expected 1822.5e12 and 3615e12); the B200
     * 1745.0 of 2250 = 0.776 and 3432.5 of 4500 = 0.763. */
    GP_ASSERT_REL(g->eff_compute.v, 1822.0 / 2500.0, 0.001);
    GP_ASSERT_REL(g->eff_compute_fp8.v, 3615.6 / 5000.0, 0.001);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1822.5e12,
                  1e-9);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 3615e12, 1e-9);
    GP_ASSERT_REL(b200->eff_compute.v, 1745.0 / 2250.0, 0.001);
    GP_ASSERT_REL(b200->eff_compute_fp8.v, 3432.5 / 4500.0, 0.001);
    ck_assert_str_eq(g->compute_capability, "10.0");
    ck_assert_str_eq(g->host_link, "nvlink-c2c"); /* Grace over NVLink-C2C, 900 GB/s */
}
END_TEST

START_TEST(nvlink5_nvl72_link)
{
    const gp_link *l = gp_db_find_link(gp_test_db(), "nvlink5-nvl72");
    const gp_link *hgx = gp_db_find_link(gp_test_db(), "nvlink5");
    /* 18 links x 50e9 = 900e9 B/s per direction, 72 GPUs, switched.
     * Ring: 4 x GB200, NCCL_ALGO=Ring, busbw 679.61e9 -> 680e9.
     * NVLS: 72-rank run, busbw 834.57e9; B = busbw (n+1) / (2(n-1)) at
     * n = 72: 834.57e9 x 73 / 142 = 429.04e9 -> 429.0e9. */
    ck_assert_ptr_nonnull(l);
    ck_assert_ptr_eq(gp_db_find_link(gp_test_db(), "nvl72"), l);
    GP_ASSERT_REL(l->bw.v, 18 * 50e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 680e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 679.61e9, 1e-3);
    GP_ASSERT_REL(l->bw_nvls.v, 834.57e9 * 73 / 142, 1e-3);
    /* busbw the NVLS figure gives back: 2 B (n-1)/(n+1) = 834.6e9 */
    GP_ASSERT_REL(2 * l->bw_nvls.v * 71 / 73, 834.57e9, 1e-3);
    GP_ASSERT_REL(l->max_gpus.v, 72, 1e-12);
    GP_ASSERT_REL(l->latency.v, 2e-6, 1e-12);
    ck_assert_int_eq(l->kind, GP_LINK_NVLINK);
    ck_assert_int_eq(l->switched, 1);
    ck_assert_int_eq(l->p2p, 1);
    ck_assert_ptr_nonnull(hgx);
    GP_ASSERT_REL(hgx->max_gpus.v, 8, 1e-12);
    GP_ASSERT_REL(hgx->bw.v, l->bw.v, 1e-12);
}
END_TEST

START_TEST(mi355x_matches_sources)
{
    static const gp_test_card card = {"mi355x",
                                      256, 2.4e9, 8e12, 288 * GIB,
                                      0, 1400, 32 * MIB, 0,
                                      "xgmi-mi355x"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *mi300x = gp_db_find_gpu(gp_test_db(), "mi300x");
    const gp_link *l = gp_db_find_link(gp_test_db(), "xgmi-mi355x");
    /* CDNA 4: 8 XCDs x 32 CUs = 256 CUs at 2.4e9 Hz:
     *   FP16/BF16 256 x 2.4e9 x 4096  = 2,516.58e12 -> 2,516.6e12 (AMD 2.5 PF)
     *   FP8       256 x 2.4e9 x 8192  = 5,033.16e12 -> 5,033.2e12 (AMD 5 PF)
     *   FP4       256 x 2.4e9 x 16384 = 10,066.3e12 (AMD 10.1 PF)
     *   FP32 vector 157.3e12; FP64 78.6e12.
     * MI300X: 304 x 2.1e9 x 2048 = 1,307.4e12, so 2,516.6 / 1,307.4 =
     * 1.925.  No sparsity multiplier (none published for FP4). */
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 256 * 2.4e9 * 4096, 1e-4);
    GP_ASSERT_REL(peak(g, GP_FP8, GP_PIPE_TENSOR, 0), 256 * 2.4e9 * 8192, 1e-4);
    GP_ASSERT_REL(peak(g, GP_FP4, GP_PIPE_TENSOR, 0), 256 * 2.4e9 * 16384, 1e-4);
    GP_ASSERT_REL(peak(g, GP_FP4, GP_PIPE_TENSOR, 0), 10.1e15, 0.01);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 5.0e15, 0.01);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 256 * 2.4e9 * 256, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP64, GP_PIPE_CUDA, 0), 78.6e12, 1e-12);
    ck_assert(peak(g, GP_BF16, GP_PIPE_TENSOR, 1) == 0.0);
    ck_assert(peak(g, GP_TF32, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_ptr_nonnull(mi300x);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) / peak(mi300x, GP_BF16, GP_PIPE_TENSOR, 0),
                  1.925, 1e-3);
    /* MAMF BF16 1565.0 TFLOPS of this part's 2,516.6 (the table's 2300 is
     * the MI350X's): 0.6219 -> 0.622, expected 1565.3e12. */
    GP_ASSERT_REL(g->eff_compute.v, 1565.0 / 2516.6, 0.001);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  0.622 * peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 1e-12);
    ck_assert_ptr_null(g->compute_capability);
    ck_assert_str_eq(g->host_link, "pcie5-x16");
    /* xGMI: ~153.6e9 B/s per link both ways = 76.8e9 per direction, 7
     * peers: 537.6e9; achievable at rccl#1210's 48/64 = 0.75: 403.2e9. */
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 7 * 153.6e9 / 2, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 7 * 153.6e9 / 2 * 48 / 64, 1e-12);
    GP_ASSERT_REL(l->max_gpus.v, 8, 1e-12);
    ck_assert_int_eq(l->kind, GP_LINK_INFINITY_FABRIC);
    ck_assert_int_eq(l->switched, 0);
    ck_assert(l->bw_nvls.v == 0.0);
}
END_TEST

START_TEST(mi250x_counts_one_gcd)
{
    static const gp_test_card card = {"mi250x",
                                      110, 1.7e9, 4096 / 8 * 3.2e9, 64 * GIB,
                                      0, 250, 8 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* Package: 220 CUs, BF16 383e12, FP32 vector 47.9e12, 128 GB at
     * 8192 bit x 3.2 Gb/s / 8 = 3,276.8e9 B/s, 500 W.  One GCD is half:
     * BF16 110 x 1.7e9 x 1024 = 191.49e12 -> 191.5e12; FP32 23.95e12;
     * 4096 x 3.2 / 8 = 1,638.4e9 B/s; 64 GiB; 250 W. */
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 383e12 / 2, 1e-12);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 110 * 1.7e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 0), 191.5e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 191.5e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 47.9e12 / 2, 1e-12);
    GP_ASSERT_REL(2 * g->mem_bw.v, 8192 / 8 * 3.2e9, 1e-12);
    GP_ASSERT_REL(2 * g->mem_capacity.v, 128 * GIB, 1e-12);
    ck_assert(peak(g, GP_TF32, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(g, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(g->sparsity.v == 0.0);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(rx_7900_xtx_matches_sources)
{
    static const gp_test_card card = {"rx-7900-xtx",
                                      96, 2.5e9, 384 / 8 * 20e9, 24 * GIB,
                                      0, 355, 6 * MIB, 999,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* 96 CUs at 2.5e9 Hz; GDDR6 384 bit x 20 Gb/s / 8 = 960e9 B/s.
     *   FP16 WMMA / dual-issue packed: 96 x 2.5e9 x 512 = 122.88e12 -> 122.9e12
     *   FP32 with dual issue: 96 x 64 x 2 x 2 x 2.5e9 = 61.44e12 -> 61.4e12
     *        without:                                   30.72e12
     * torch.mm FP32 26.84e12 < 30.72e12 (single-issue bound); BF16
     * 99.37e12 / 122.9e12 = 0.809 -> 0.81. */
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 0), 96 * 2.5e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 122.9e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA, 0), 122.9e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 96 * 64 * 2 * 2 * 2.5e9, 1e-3);
    ck_assert(26.84e12 < peak(g, GP_FP32, GP_PIPE_CUDA, 0) / 2);
    GP_ASSERT_REL(g->eff_compute.v, 99.37 / 122.9, 0.01);
    ck_assert(peak(g, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_ptr_null(g->compute_capability);
}
END_TEST

START_TEST(geforce_ampere_blackwell_match_sources)
{
    static const gp_test_card c3050 = {"rtx-3050-8gb",
                                       20, 1.777e9, 128 / 8 * 14e9, 8 * GIB,
                                       0, 130, 0, 0,
                                       "pcie3-x16-host"};
    static const gp_test_card c5060 = {"rtx-5060",
                                       30, 2.497e9, 128 / 8 * 28e9, 8 * GIB,
                                       8151 * MIB, 145, 0, 299,
                                       "pcie4-x16-host"};
    const gp_gpu *a = gp_test_card_check(&c3050);
    const gp_gpu *b = gp_test_card_check(&c5060);
    const gp_gpu *b16 = gp_db_find_gpu(gp_test_db(), "rtx-5060-ti-16gb");
    /* RTX 3050 8GB: 20 SMs x 1.777e9: FP32 x 256 = 9.098e12 -> 9.10e12;
     * BF16 (FP32 acc) x 512 = 18.196e12 -> 18.2e12; FP16 acc x 1024 =
     * 36.39e12 -> 36.4e12; 224e9 B/s; PCIe 4.0 x8 = PCIe 3.0 x16.
     * RTX 5060: 30 SMs x 2.497e9: FP32 19.18e12; BF16 38.35e12; FP4 x 4096
     * = 306.8e12 dense, 613.6e12 sparse ('614 AI TOPS'); 448e9 B/s;
     * 30 / 36 SMs of the 5060 Ti at 2.497 / 2.572 GHz: 0.809 of its peaks. */
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA, 0), 20 * 256 * 1.777e9, 1e-3);
    GP_ASSERT_REL(peak(a, GP_BF16, GP_PIPE_TENSOR, 0), 20 * 1.777e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(a, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 36.4e12, 1e-12);
    ck_assert_str_eq(a->host_link, "pcie3-x16");
    GP_ASSERT_REL(peak(b, GP_FP4, GP_PIPE_TENSOR, 0), 30 * 2.497e9 * 4096, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP4, GP_PIPE_TENSOR, 1), 614e12, 0.001);
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0), 38.35e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(b, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 76.70e12, 1e-12);
    ck_assert_ptr_nonnull(b16);
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0) / peak(b16, GP_BF16, GP_PIPE_TENSOR, 0),
                  30 * 2.497 / (36 * 2.572), 1e-3);
    GP_ASSERT_REL(b->mem_bw.v, b16->mem_bw.v, 1e-12);
    ck_assert_str_eq(b->host_link, "pcie4-x16");
    ck_assert_str_eq(b->compute_capability, "12.0");
}
END_TEST

START_TEST(turing_and_volta_match_sources)
{
    static const gp_test_card c2060 = {"rtx-2060",
                                       30, 1.68e9, 192 / 8 * 14e9, 6 * GIB,
                                       0, 160, 3 * MIB, 0,
                                       "pcie3-x16-host"};
    static const gp_test_card c2070 = {"rtx-2070",
                                       36, 1.62e9, 256 / 8 * 14e9, 8 * GIB,
                                       0, 175, 4 * MIB, 499,
                                       "pcie3-x16-host"};
    static const gp_test_card ctv = {"titan-v",
                                     80, 1.455e9, 3072 / 8 * 1.7e9, 12 * GIB,
                                     12288 * MIB, 250, 4.5 * MIB, 0,
                                     NULL};
    const gp_gpu *a = gp_test_card_check(&c2060);
    const gp_gpu *b = gp_test_card_check(&c2070);
    const gp_gpu *t = gp_test_card_check(&ctv);
    /* RTX 2060: 30 SMs x 1.68e9: FP16 Tensor FP32 acc x 512 = 25.80e12,
     * FP16 acc x 1024 = 51.61e12 -> 51.6e12; FP32 1920 x 2 x 1.68e9 =
     * 6.451e12; 336e9 B/s.
     * RTX 2070: 36 x 1.62e9 x 512 = 29.860e12 -> 29.86e12; x 1024 =
     * 59.72e12; FP32 2304 x 2 x 1.62e9 = 7.465e12; 448e9 B/s.
     * TITAN V: NVIDIA's 110e12 Tensor, 13.8e12 FP32, 6.9e12 FP64; HBM2
     * 3072 bit x 1.7 Gb/s / 8 = 652.8e9 B/s; implied clock 110e12 / (80 x
     * 1024) = 1.343e9 Hz, below the 1.455e9 boost (119.2e12 there). */
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 0), 30 * 1.68e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(a, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 51.6e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA, 0), 1920 * 2 * 1.68e9, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_TENSOR, 0), 36 * 1.62e9 * 512, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(b, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 59.72e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA, 0), 2304 * 2 * 1.62e9, 1e-3);
    ck_assert(peak(a, GP_BF16, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(b, GP_BF16, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_str_eq(b->host_link, "pcie3-x16");
    GP_ASSERT_REL(peak(t, GP_FP16, GP_PIPE_TENSOR, 0), 110e12, 1e-12);
    GP_ASSERT_REL(peak(t, GP_FP16, GP_PIPE_TENSOR, 0) / (80 * 1024.0), 1.343e9, 1e-3);
    GP_ASSERT_REL(peak(t, GP_FP16, GP_PIPE_CUDA, 0), 2 * 13.8e12, 1e-12);
    GP_ASSERT_REL(peak(t, GP_FP64, GP_PIPE_CUDA, 0), 6.9e12, 1e-12);
    /* Volta: no FP16-accumulate speed-up, no BF16 */
    GP_ASSERT_REL(gp_gpu_peak(t, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 110e12, 1e-12);
    ck_assert(peak(t, GP_BF16, GP_PIPE_TENSOR, 0) == 0.0);
    GP_ASSERT_REL(t->eff_mfu.v, 0.20, 1e-12);
    ck_assert_str_eq(t->compute_capability, "7.0");
}
END_TEST

START_TEST(rtx_a2000_12gb_matches_sources)
{
    static const gp_test_card card = {"rtx-a2000-12gb",
                                      26, 1.2e9, 192 / 8 * 12e9, 12 * GIB,
                                      0, 70, 3 * MIB, 449,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* 26 SMs x 1.2e9 Hz, professional GA10x (FP32 accumulate at full
     * rate): BF16 x 1024 = 31.95e12 -> 31.9e12, sparse 63.9e12; TF32 x 512
     * = 15.97e12 -> 16.0e12; FP32 3328 x 2 x 1.2e9 = 7.987e12 -> 7.99e12
     * (NVIDIA 8.0); 288e9 B/s; 70 W. */
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 26 * 1.2e9 * 1024, 2e-3);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 1), 63.8e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_TF32, GP_PIPE_TENSOR, 0), 26 * 1.2e9 * 512, 2e-3);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 8.0e12, 2e-3);
    /* no FP16-accumulate row: the FP32-accumulate rate applies */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 31.9e12, 1e-12);
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(names_resolve)
{
    /* ids, aliases and the names nvidia-smi / rocm-smi print */
    static const gp_test_name pairs[] = {
        {"NVIDIA A10G", "a10g"},
        {"a10g", "a10g"},
        {"NVIDIA A10", "a10"},
        {"NVIDIA GB200", "gb200"},
        {"GB200 NVL72", "gb200"},
        {"AMD Instinct MI355X", "mi355x"},
        {"MI355X", "mi355x"},
        {"AMD Instinct MI250X", "mi250x"},
        {"AMD Radeon RX 7900 XTX", "rx-7900-xtx"},
        {"7900xtx", "rx-7900-xtx"},
        {"RTX 3050 8GB", "rtx-3050-8gb"},
        {"NVIDIA GeForce RTX 2060", "rtx-2060"},
        {"NVIDIA GeForce RTX 2070", "rtx-2070"},
        {"NVIDIA TITAN V", "titan-v"},
        {"NVIDIA GeForce RTX 5060", "rtx-5060"},
        {"NVIDIA RTX A2000 12GB", "rtx-a2000-12gb"},
    };
    static const gp_test_name device[] = {
        {"NVIDIA A10G", "a10g"},
        {"NVIDIA GB200", "gb200"},
        {"NVIDIA GeForce RTX 5060", "rtx-5060"},
        {"NVIDIA TITAN V", "titan-v"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    gp_test_names_resolve(device, sizeof device / sizeof device[0], 1);
    /* the bare NVML name of the 3050 is shared by its 6 GB and 8 GB boards */
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA GeForce RTX 3050"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA RTX A2000"));
    ck_assert_ptr_ne(gp_db_find_gpu(db, "NVIDIA GeForce RTX 5060"),
                     gp_db_find_gpu(db, "rtx-5060-ti-8gb"));
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_ceilings)
{
    /* 3,817,531,648 B per token (gp_test_llama2_q4_0_ceiling in testutil.h):
     * A10G  600e9 / 3,817,531,648 = 157.17 tokens/s;
     * RX 7900 XTX 960e9 / 3,817,531,648 = 251.47 tokens/s (within 1 %). */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("NVIDIA A10G", "a10g", 600e9), 157.17, 0.01);
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("AMD Radeon RX 7900 XTX", "rx-7900-xtx", 960e9),
                  251.47, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_2026b(void)
{
    Suite *s = suite_create("gpus_2026b");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, a10g_matches_sources);
    tcase_add_test(tc, gb200_matches_nvl72_datasheet);
    tcase_add_test(tc, nvlink5_nvl72_link);
    tcase_add_test(tc, mi355x_matches_sources);
    tcase_add_test(tc, mi250x_counts_one_gcd);
    tcase_add_test(tc, rx_7900_xtx_matches_sources);
    tcase_add_test(tc, geforce_ampere_blackwell_match_sources);
    tcase_add_test(tc, turing_and_volta_match_sources);
    tcase_add_test(tc, rtx_a2000_12gb_matches_sources);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_ceilings);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
