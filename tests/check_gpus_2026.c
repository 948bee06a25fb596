/* GPUs people plan with in 2025-26 -- DGX Spark (GB10), Jetson AGX Orin
 * 64GB, H200 NVL and its bridge nvlink-bridge-h200-nvl, B300 (HGX),
 * GeForce RTX 4060 Ti 8GB and RTX 5060 Ti 8GB, AMD Instinct MI325X -- and
 * the DGX Spark's CPU-GPU link nvlink-c2c-gb10, plus a decode ceiling on the
 * DGX Spark.
 *
 * Expected values are written out by hand from the figures cited in each
 * entry's sources (datasheet copies, deviceQuery and nvidia-smi printouts,
 * spec tables) and from bus width x data rate and SMs x clock x per-SM rate,
 * converted to SI in the comments -- never copied from the program's output.
 * Per-SM dense rates per clock used below:
 *   GA100-class tensor cores (Jetson Orin GA10B): INT8 4096, FP16/BF16 2048,
 *   TF32 1024, FP32 256;
 *   Ada / consumer-Blackwell GeForce: FP32 256, BF16 with FP32 accumulate
 *   512, FP4 4096 (Blackwell);
 *   Blackwell workstation ratio (GB10): FP4 : FP8 : BF16 : TF32 = 8 : 4 : 2 : 1;
 *   CDNA 3 (MI300X / MI325X): FP16/BF16 matrix 2048 FLOP per CU per clock. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

START_TEST(dgx_spark_matches_sources)
{
    static const gp_test_card card = {"dgx-spark",
                                      48, 2.418e9, 273e9, 128 * GIB,
                                      122570 * MIB, 140, 24 * MIB, 3999,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_link *c2c = gp_db_find_link(gp_test_db(), g->host_link);
    /* GB10 GPU: deviceQuery 48 SMs x 128 = 6,144 cores, 2418 MHz, CUDA
     * 122,570 MiB total, L2 25,165,824 B = 24 MiB; 140 W SoC TDP; $3,999.
     * LPDDR5x 256 bit x 8533 MT/s / 8 = 32 x 8.533e9 = 273.056e9 B/s, the
     * datasheet's 273 GB/s.
     * Datasheet: 1 PFLOP FP4 with 2:4 sparsity -> 500e12 dense; FP32 31e12.
     * Ratios 8 : 4 : 2 : 1 -> FP8 = INT8 250e12, BF16 = FP16 125e12, TF32
     * 62.5e12.  At the deviceQuery clock 48 x 2.418e9 x 1024 = 118.85e12
     * BF16, 125 / 118.85 = 1.052: the datasheet's basis is ~2.54 GHz.
     * Measured BF16 GEMM 97.3e12 > 62.5e12 (a GeForce-style halved rate is
     * excluded); 97.3 / 125 = 0.778 -> 0.78. */
    GP_ASSERT_REL(g->mem_bw.v, 256 / 8 * 8.533e9, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1e15 / 2, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1e15, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 250e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 250e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 125e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 62.5e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 31e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 48 * 2.418e9 * 1024,
                  0.06);
    ck_assert(97.3e12 > gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) / 2);
    /* no FP16-accumulate row: the FP32-accumulate rate applies */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 125e12, 1e-12);
    ck_assert(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0) == 0.0);
    /* FP16 on the CUDA cores at the FP32 rate (RTX Blackwell) */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 31e12, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 0.78, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 97.3 / 125.0, 0.01);
    GP_ASSERT_REL(g->eff_mfu.v, 0.35, 1e-12);
    ck_assert_str_eq(g->compute_capability, "12.1");
    ck_assert_ptr_null(g->scale_up_link);
    /* NVLink-C2C 600 GB/s both ways = 300e9 per direction; a host-device
     * copy reads and writes the one LPDDR5x pool: 273 / 2 = 136.5e9. */
    ck_assert_str_eq(g->host_link, "nvlink-c2c-gb10");
    ck_assert_ptr_nonnull(c2c);
    GP_ASSERT_REL(c2c->bw.v, 600e9 / 2, 1e-12);
    GP_ASSERT_REL(c2c->bw_achievable.v, 273e9 / 2, 1e-12);
    GP_ASSERT_REL(c2c->latency.v, 2e-6, 1e-12);
    ck_assert_int_eq(c2c->kind, GP_LINK_NVLINK);
    ck_assert_int_eq(c2c->switched, 0);
}
END_TEST

START_TEST(jetson_agx_orin_64gb_matches_sources)
{
    static const gp_test_card card = {"jetson-agx-orin-64gb",
                                      16, 1.3e9, 256 / 8 * 6.4e9, 64 * GIB,
                                      62841 * MIB, 60, 4 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* GA10B: 16 SMs x 128 = 2,048 cores, 1300 MHz (MAXN), L2 4 MiB; 64 GB
     * LPDDR5, 256 bit x 6400 MT/s / 8 = 32 x 6.4e9 = 204.8e9 B/s; CUDA
     * 62,841 MiB; 60 W.  16 x 1.3e9 = 20.8e9 SM-cycles/s:
     *   INT8 x 4096 = 85.197e12 -> 85.2e12; 2:4 sparse 170.4e12 (the
     *   technical brief's '170 sparse TOPS'; the module's 275 adds the
     *   DLAs' 105)
     *   FP16 / BF16 x 2048 = 42.598e12 -> 42.6e12; TF32 x 1024 = 21.3e12
     *   FP32 x 256 = 5.3248e12 -> 5.32e12 (the brief's 5.3) */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 85.2e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 16 * 1.3e9 * 4096,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 170e12, 0.01);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 1) + 105e12, 275e12,
                  0.01);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 16 * 1.3e9 * 2048,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 42.6e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 21.3e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 16 * 1.3e9 * 256,
                  1e-3);
    /* non-tensor FP16 at twice FP32: 2 x 5.3248e12 = 10.65e12 */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 2 * 16 * 1.3e9 * 256,
                  1e-3);
    ck_assert(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert_str_eq(g->compute_capability, "8.7");
    GP_ASSERT_REL(g->eff_compute.v, 0.87, 1e-12);
}
END_TEST

START_TEST(h200_nvl_matches_sources)
{
    static const gp_test_card card = {"h200-nvl",
                                      132, 1.785e9, 4.8e12, 141 * GIB,
                                      143771 * MIB, 600, 50 * MIB, 0,
                                      "nvlink-bridge-h200-nvl"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *h100nvl = gp_db_find_gpu(gp_test_db(), "h100-nvl");
    const gp_gpu *sxm = gp_db_find_gpu(gp_test_db(), "h200");
    int p;
    /* 132 SMs, 1785 MHz max SM clock; 141 GB HBM3e at 4.8 TB/s (the
     * product page; 4.2 in one datasheet edition); nvidia-smi 143,771 MiB
     * at a 600 W cap.  Datasheet sparse / 2: BF16 1,671 / 2 = 835.5e12
     * = 132 x 4096 x 1.545e9 = 835.38e12 (tensor clock 1545 MHz); FP8
     * 3,341 / 2 = 1,670.5e12; FP64 30e12 / tensor 60e12; FP32 60e12.  The
     * H100 NVL's rates; the SXM part's memory. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 835.5e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 132 * 4096 * 1.545e9,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1671e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 3341e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 60e12, 1e-12);
    /* Hopper FP16 on the CUDA cores: 2 x FP32 = 2 x 60e12 = 120e12 */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 2 * 60e12, 1e-12);
    ck_assert_ptr_nonnull(h100nvl);
    ck_assert_ptr_nonnull(sxm);
    for (p = 0; p < GP_PREC__COUNT; p++)
        GP_ASSERT_REL(g->peak[p][GP_PIPE_TENSOR].v + 1, h100nvl->peak[p][GP_PIPE_TENSOR].v + 1,
                      1e-12);
    GP_ASSERT_REL(g->mem_bw.v, sxm->mem_bw.v, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, sxm->mem_usable.v, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, h100nvl->eff_compute.v, 1e-12);
    GP_ASSERT_REL(g->eff_mem.v, sxm->eff_mem.v, 1e-12);
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(nvlink_bridge_h200_nvl_link)
{
    const gp_link *l = gp_db_find_link(gp_test_db(), "nvlink-bridge-h200-nvl");
    /* 900 GB/s per GPU both directions = 450e9 per direction; achievable
     * from NVLink 4's ring ratio 370/450: 450 x 370/450 = 370e9; 2 or 4
     * cards, no switch. */
    ck_assert_ptr_nonnull(l);
    ck_assert_ptr_eq(gp_db_find_link(gp_test_db(), "nvlink4-bridge-h200"), l);
    GP_ASSERT_REL(l->bw.v, 900e9 / 2, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 450e9 * 370.0 / 450.0, 1e-12);
    GP_ASSERT_REL(l->max_gpus.v, 4, 1e-12);
    GP_ASSERT_REL(l->latency.v, 2e-6, 1e-12);
    ck_assert_int_eq(l->kind, GP_LINK_NVLINK_BRIDGE);
    ck_assert_int_eq(l->switched, 0);
    ck_assert(l->bw_nvls.v == 0.0);
}
END_TEST

START_TEST(b300_matches_sources)
{
    static const gp_test_card card = {"b300",
                                      148, 2.032e9, 8e12, 288 * GIB,
                                      275040 * MIB, 1100, 0, 0,
                                      "nvlink5"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *b200 = gp_db_find_gpu(gp_test_db(), "b200");
    /* HGX B300 per GPU: BF16 2,250e12, FP8 4,500e12, TF32 1,125e12, FP32
     * 75e12 (as B200), FP4 14,000e12 dense (B200 9,000: x 1.556), FP64
     * 1.25e12 (B200 37e12: 1/29.6).  288 GB HBM3e at 8 TB/s; nvidia-smi
     * 275,040 MiB (268.6 GiB) at 1,100 W; 148 SMs at 2032 MHz.  FP4's
     * sparse:dense is 18:14, not 2, so no sparsity multiplier: sparse
     * rates are 0 (not modelled); no INT8 figure. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 14000e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 2250e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 4500e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1125e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1.25e12, 1e-12);
    ck_assert(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1) == 0.0);
    ck_assert(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert_ptr_nonnull(b200);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  gp_gpu_peak(b200, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0)
                      / gp_gpu_peak(b200, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  14.0 / 9.0, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v / b200->mem_bw.v, 8.0 / 7.7, 1e-12);
    ck_assert(g->sparsity.v == 0.0);
    ck_assert_str_eq(g->host_link, "pcie6-x16");
    ck_assert_str_eq(g->compute_capability, "10.3");
    GP_ASSERT_REL(g->eff_mfu.v, 0.40, 1e-12);
    /* MAMF (2026-07-31 table): BF16 1769.0 of 2250 = 0.786, FP8 3353.3 of
     * 4500 = 0.745; expected FP8 4500e12 x 0.745 = 3352.5e12. */
    GP_ASSERT_REL(g->eff_compute.v, 1769.0 / 2250.0, 0.001);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 3352.5e12,
                  1e-9);
}
END_TEST

START_TEST(geforce_8gb_matches_sources)
{
    static const gp_test_card c4060 = {"rtx-4060-ti-8gb",
                                       34, 2.535e9, 128 / 8 * 18e9, 8 * GIB,
                                       0, 160, 32 * MIB, 399,
                                       "pcie3-x16-host"};
    static const gp_test_card c5060 = {"rtx-5060-ti-8gb",
                                       36, 2.572e9, 128 / 8 * 28e9, 8 * GIB,
                                       0, 180, 32 * MIB, 379,
                                       "pcie4-x16-host"};
    const gp_gpu *a = gp_test_card_check(&c4060);
    const gp_gpu *b = gp_test_card_check(&c5060);
    const gp_gpu *a16 = gp_db_find_gpu(gp_test_db(), "rtx-4060-ti-16gb");
    const gp_gpu *b16 = gp_db_find_gpu(gp_test_db(), "rtx-5060-ti-16gb");
    int p;
    /* RTX 4060 Ti 8GB: AD106, 34 SMs, 2535 MHz; GDDR6 128 bit x 18 Gb/s /
     * 8 = 288e9 B/s; 160 W; $399.  34 x 2.535e9 x 512 = 44.13e12 BF16
     * with FP32 accumulate -> 44.1e12.
     * RTX 5060 Ti 8GB: GB206, 36 SMs, 2572 MHz; GDDR7 128 x 28 / 8 =
     * 448e9 B/s; 180 W; $379.  FP4 36 x 2.572e9 x 4096 = 379.26e12 ->
     * 379.3e12.  No nvidia-smi total of an 8 GB board: usable 0.  Peaks,
     * bandwidth and L2 equal to the 16 GB SKUs'. */
    GP_ASSERT_REL(gp_gpu_peak(a, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 34 * 2.535e9 * 512,
                  1e-3);
    GP_ASSERT_REL(gp_gpu_peak(b, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 379.3e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(b, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 36 * 2.572e9 * 4096,
                  1e-3);
    ck_assert(a->mem_usable.v == 0.0);
    ck_assert(b->mem_usable.v == 0.0);
    ck_assert_ptr_nonnull(a16);
    ck_assert_ptr_nonnull(b16);
    ck_assert_ptr_ne(a, a16);
    ck_assert_ptr_ne(b, b16);
    for (p = 0; p < GP_PREC__COUNT; p++) {
        GP_ASSERT_REL(a->peak[p][GP_PIPE_TENSOR].v + 1, a16->peak[p][GP_PIPE_TENSOR].v + 1, 1e-12);
        GP_ASSERT_REL(b->peak[p][GP_PIPE_TENSOR].v + 1, b16->peak[p][GP_PIPE_TENSOR].v + 1, 1e-12);
    }
    GP_ASSERT_REL(a->mem_bw.v, a16->mem_bw.v, 1e-12);
    GP_ASSERT_REL(b->mem_bw.v, b16->mem_bw.v, 1e-12);
    GP_ASSERT_REL(a->mem_capacity.v * 2, a16->mem_capacity.v, 1e-12);
    ck_assert_str_eq(a->host_link, "pcie3-x16");
    ck_assert_str_eq(b->host_link, "pcie4-x16");
}
END_TEST

START_TEST(mi325x_matches_sources)
{
    static const gp_test_card card = {"mi325x",
                                      304, 0, 6e12, 256 * GIB,
                                      0, 1000, 0, 0,
                                      "xgmi-mi300x"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *mi300x = gp_db_find_gpu(gp_test_db(), "mi300x");
    /* CDNA 3, 304 CUs: BF16 matrix 304 x 2048 x 2.1e9 = 1,307.4e12 (the
     * MI300X's clock and per-CU rate; no MI325X clock was sourced); FP8
     * 2,614.9e12, 2:4 sparse 5,229.8e12; TF32 653.7e12; FP32 163.4e12.
     * 256 GB HBM3e at 6 TB/s (MI300X: 192 GB at 5.3), 1,000 W. */
    ck_assert(g->clock_boost.v == 0.0);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1307.4e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 304 * 2048 * 2.1e9,
                  1e-4);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 5229.8e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 653.7e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 163.4e12, 1e-12);
    ck_assert_ptr_nonnull(mi300x);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  gp_gpu_peak(mi300x, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1e-12);
    GP_ASSERT_REL(g->mem_bw.v / mi300x->mem_bw.v, 6.0 / 5.3, 1e-12);
    /* MAMF (2026-07-31 table) BF16 784.9 of 1307.4 = 0.6003 -> 0.60, above
     * the MI300X's own 0.58; no FP8 figure: 0.60 x 0.8826 x 2614.9e12 =
     * 1384.8e12 expected. */
    GP_ASSERT_REL(g->eff_compute.v, 784.9 / 1307.4, 0.001);
    ck_assert(g->eff_compute.v > mi300x->eff_compute.v);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  2614.9e12 * 0.60 * 0.8826489, 1e-6);
    ck_assert_ptr_null(g->compute_capability);
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(names_resolve)
{
    /* ids, aliases and the names nvidia-smi / NVML print */
    static const gp_test_name pairs[] = {
        {"NVIDIA GB10", "dgx-spark"},
        {"gb10", "dgx-spark"},
        {"spark", "dgx-spark"},
        {"DGX Spark", "dgx-spark"},
        {"jetson-agx-orin-64gb", "jetson-agx-orin-64gb"},
        {"AGX Orin 64GB", "jetson-agx-orin-64gb"},
        {"NVIDIA H200 NVL", "h200-nvl"},
        {"h200nvl", "h200-nvl"},
        {"NVIDIA H200", "h200"},
        {"NVIDIA B300 SXM6 AC", "b300"},
        {"B300", "b300"},
        {"RTX 4060 Ti 8GB", "rtx-4060-ti-8gb"},
        {"4060ti-8gb", "rtx-4060-ti-8gb"},
        {"RTX 5060 Ti 8GB", "rtx-5060-ti-8gb"},
        {"5060-ti-8gb", "rtx-5060-ti-8gb"},
        {"AMD Instinct MI325X", "mi325x"},
        {"MI325X", "mi325x"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    /* the bare NVML names of the two memory sizes stay unresolved */
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA GeForce RTX 4060 Ti"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA GeForce RTX 5060 Ti"));
    /* a memory-size word names the card when the size is its own */
    ck_assert_str_eq(gp_db_find_gpu(db, "NVIDIA GB10 128GB")->id, "dgx-spark");
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA GB10 96GB"));
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_on_dgx_spark)
{
    /* 3,817,531,648 B per token (gp_test_llama2_q4_0_ceiling in testutil.h):
     * ceiling = 273e9 / 3,817,531,648 = 71.51 tokens/s (within 1 %). */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("NVIDIA GB10", "dgx-spark", 273e9), 71.51, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_2026(void)
{
    Suite *s = suite_create("gpus_2026");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, dgx_spark_matches_sources);
    tcase_add_test(tc, jetson_agx_orin_64gb_matches_sources);
    tcase_add_test(tc, h200_nvl_matches_sources);
    tcase_add_test(tc, nvlink_bridge_h200_nvl_link);
    tcase_add_test(tc, b300_matches_sources);
    tcase_add_test(tc, geforce_8gb_matches_sources);
    tcase_add_test(tc, mi325x_matches_sources);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_on_dgx_spark);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
