/* GPUs people ask about that were still missing -- NVIDIA Jetson AGX Thor
 * (T5000) and Jetson Orin Nano Super, AMD Ryzen AI Max+ 395 (Strix Halo,
 * Radeon 8060S), Instinct MI210 and MI100, Radeon PRO W7900, Radeon RX
 * 9070 XT, and the NVIDIA A2 and A16 (one of its four GPUs) -- plus a BF16
 * decode ceiling on Strix Halo.
 *
 * Expected values are worked out by hand from the figures cited in each
 * entry's sources (datasheet and spec-table copies, deviceQuery and ROCm
 * printouts): units x clock x ops per clock, bus width x data rate, the
 * vendor's sparse figure / 2.  Nothing here is copied from the program's
 * output.  Per-SM (per-CU) dense rates per clock used below:
 *   datacenter Blackwell SM (Thor): BF16 8192 (4 Tensor Cores x 2048),
 *     FP8 16384, FP4 32768; FP32 256 (128 cores x FMA);
 *   Orin GA10B SM: INT8 4096, FP16/BF16 2048, TF32 1024, FP32 256;
 *   datacenter GA107 SM (A2, A16): FP16/BF16 1024, TF32 512, INT8 2048,
 *     INT4 4096, FP32 256;
 *   RDNA 3 / 3.5 CU: FP16/BF16/INT8 WMMA 512, FP32 with dual issue 256;
 *   RDNA 4 CU: FP16/BF16 1024, FP8/INT8 2048, INT4 4096, sparse x 2;
 *   CDNA 2 CU: FP16/BF16/INT8 matrix 1024, FP64/FP32 matrix 256, vector 128;
 *   CDNA 1 CU: FP16/INT8 matrix 1024, BF16 512, FP32 matrix 256, vector
 *     FP32 128, FP64 64. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

static double peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe, int sparse)
{
    return gp_gpu_peak(g, p, pipe, GP_ACC_FP32, sparse);
}

START_TEST(jetson_agx_thor_matches_sources)
{
    static const gp_test_card card = {"jetson-agx-thor",
                                      20, 1.57e9, 273e9, 128 * GIB,
                                      125772 * MIB, 130, 32 * MIB, 3499,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *spark = gp_db_find_gpu(gp_test_db(), "dgx-spark");
    /* NVIDIA: 2070 FP4 TFLOPS with sparsity -> 1035e12 dense.  Implied tensor
     * clock 1035e12 / (20 SMs x 32768) = 1.579e9 Hz (the 1.57 GHz clock).
     *   FP8  1035 / 2 = 517.5e12;  BF16/FP16 1035 / 4 = 258.75e12
     *   TF32 258.75 / 2 = 129.375e12 -> 129.4e12
     *   FP32 20 x 128 x 2 x 1.57e9 = 8.038e12 -> 8.04e12
     * deviceQuery: 131,881,680,896 B = 125,772.2 MiB; L2 33,554,432 B;
     * LPDDR5X 256 bit x 8533 MT/s / 8 = 273.06e9 -> 273e9 B/s (within 3e-4).
     * The GB10 (DGX Spark) runs 500e12 FP4 dense on 48 SMs at its implied
     * 2.54e9 Hz: 500e12 / (48 x 2.54e9) = 4,101 ~ 4096 FP4 FLOP per SM and
     * clock, against Thor's 32768: 8 x (the RTX-Blackwell cut). */
    GP_ASSERT_REL(peak(g, GP_FP4, GP_PIPE_TENSOR, 1), 2070e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP4, GP_PIPE_TENSOR, 0), 20 * 32768 * 1.579e9, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP8, GP_PIPE_TENSOR, 0), 517.5e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 20 * 8192 * 1.579e9, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 0), 258.75e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_TF32, GP_PIPE_TENSOR, 0), 129.4e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 20 * 128 * 2 * 1.57e9, 1e-3);
    /* FP16 on the CUDA cores: the 1:1 floor (no Thor figure published) */
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA, 0), 8.04e12, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 256 / 8 * 8.533e9, 3e-4);
    GP_ASSERT_REL(g->mem_usable.v, 131881680896.0, 1e-5);
    /* nothing published for INT8 or FP64: left out */
    ck_assert(peak(g, GP_INT8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(g, GP_FP64, GP_PIPE_CUDA, 0) == 0.0);
    ck_assert_ptr_nonnull(spark);
    GP_ASSERT_REL((peak(g, GP_FP4, GP_PIPE_TENSOR, 0) / 20 / 1.579e9) /
                      (peak(spark, GP_FP4, GP_PIPE_TENSOR, 0) / 48 / 2.54e9),
                  8.0, 2e-3);
    GP_ASSERT_REL(g->mem_bw.v, spark->mem_bw.v, 1e-12);
    GP_ASSERT_REL(g->eff_compute.v, 97.3 / 125, 0.01);
    ck_assert_str_eq(g->compute_capability, "11.0");
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(jetson_orin_nano_super_matches_sources)
{
    static const gp_test_card card = {"jetson-orin-nano-super",
                                      8, 1.02e9, 128 / 8 * 6.4e9, 8 * GIB,
                                      0, 25, 0, 249,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *agx = gp_db_find_gpu(gp_test_db(), "jetson-agx-orin-64gb");
    /* 8 SMs x 1.02e9 Hz:
     *   INT8 x 4096 = 33.42e12 dense, 66.85e12 sparse (NVIDIA: 67 / 33)
     *   FP16/BF16 x 2048 = 16.71e12; TF32 x 1024 = 8.356e12 -> 8.36e12
     *   FP32 x 256 = 2.089e12; FP16 CUDA cores 2 x 2.089 = 4.18e12
     * LPDDR5 128 bit x 6400 MT/s / 8 = 102.4e9 B/s (datasheet 102).
     * The AGX Orin 64GB: 16 SMs at 1.3e9, so the Nano Super is
     * 8 x 1.02 / (16 x 1.3) = 0.3923 of it at every tensor precision. */
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 8 * 1.02e9 * 4096, 1e-3);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 1), 67e12, 0.005);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 8 * 1.02e9 * 2048, 1e-3);
    GP_ASSERT_REL(peak(g, GP_TF32, GP_PIPE_TENSOR, 0), 8.36e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 8 * 1.02e9 * 256, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA, 0), 4.18e12, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 102.4e9, 1e-12);
    ck_assert_ptr_nonnull(agx);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) / peak(agx, GP_BF16, GP_PIPE_TENSOR, 0),
                  8 * 1.02 / (16 * 1.3), 1e-3);
    GP_ASSERT_REL(g->eff_compute.v, agx->eff_compute.v, 1e-12);
    ck_assert_str_eq(g->compute_capability, "8.7");
}
END_TEST

START_TEST(strix_halo_matches_sources)
{
    static const gp_test_card card = {"ryzen-ai-max-395",
                                      40, 2.9e9, 256 / 8 * 8e9, 128 * GIB,
                                      0, 120, 8 * MIB, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    /* Radeon 8060S, 40 RDNA 3.5 CUs at 2.9e9 Hz:
     *   FP16/BF16 WMMA 40 x 2.9e9 x 512 = 59.392e12 -> 59.39e12; INT8 the same
     *   FP32 dual issue 40 x 64 x 2 x 2 x 2.9e9 = 29.696e12 -> 29.70e12
     *        (TechPowerUp's single-issue 14.85e12 is half)
     * LPDDR5X-8000 x 256 bit / 8 = 256e9 B/s.
     * Measured: rocm_bandwidth_test 212e9 -> 212 / 256 = 0.828 -> 0.83;
     * mamf-finder BF16 36.9e12 -> 36.9 / 59.4 = 0.621 -> 0.62. */
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 40 * 2.9e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 0), 59.39e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 59.39e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 40 * 64 * 2 * 2 * 2.9e9, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0) / 2, 14.85e12, 1e-3);
    ck_assert(peak(g, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(g->sparsity.v == 0.0);
    GP_ASSERT_REL(g->eff_mem.v, 212.0 / 256, 0.01);
    GP_ASSERT_REL(g->eff_compute.v, 36.9 / 59.4, 0.01);
    /* capacity is the whole shared pool; usable is AMD's Variable Graphics
     * Memory maximum, 96 GiB of the 128, so a fit leaves the OS its share */
    GP_ASSERT_REL(g->mem_usable.v, 96.0 * 1073741824.0, 0);
    ck_assert_ptr_null(g->compute_capability);
}
END_TEST

START_TEST(mi210_and_mi100_match_sources)
{
    static const gp_test_card c210 = {"mi210",
                                      104, 1.7e9, 4096 / 8 * 3.2e9, 64 * GIB,
                                      0, 300, 0, 0,
                                      NULL};
    static const gp_test_card c100 = {"mi100",
                                      120, 1.502e9, 4096 / 8 * 2.4e9, 32 * GIB,
                                      0, 300, 8 * MIB, 6400,
                                      NULL};
    const gp_gpu *a = gp_test_card_check(&c210);
    const gp_gpu *b = gp_test_card_check(&c100);
    const gp_gpu *mi250x = gp_db_find_gpu(gp_test_db(), "mi250x");
    /* MI210, 104 CUs x 1.7e9 (CDNA 2):
     *   FP16/BF16/INT8 matrix x 1024 = 181.04e12 (AMD 181)
     *   FP64/FP32 matrix x 256 = 45.26e12 (AMD 45.3)
     *   vector 104 x 64 x 2 x 1.7e9 = 22.63e12 (AMD 22.6)
     *   HBM2e 4096 bit x 3.2 Gb/s / 8 = 1,638.4e9 B/s, the MI250X GCD's
     * MI100, 120 CUs x 1.502e9 (CDNA 1):
     *   FP16/INT8 matrix x 1024 = 184.57e12 (AMD 184.6); BF16 x 512 =
     *   92.28e12 (AMD 92.3); FP32 matrix x 256 = 46.14e12 (AMD 46.1);
     *   FP32 vector 120 x 64 x 2 x 1.502e9 = 23.07e12 (AMD 23.1); FP64 half
     *   of it, 11.5e12; HBM2 4096 bit x 2.4 Gb/s / 8 = 1,228.8e9 B/s. */
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 0), 104 * 1.7e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(a, GP_BF16, GP_PIPE_TENSOR, 0), 181e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_INT8, GP_PIPE_TENSOR, 0), 181e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP64, GP_PIPE_TENSOR, 0), 104 * 1.7e9 * 256, 1e-3);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_TENSOR, 0), 45.3e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP64, GP_PIPE_CUDA, 0), 104 * 64 * 2 * 1.7e9, 2e-3);
    ck_assert(peak(a, GP_TF32, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(a, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(a->sparsity.v == 0.0);
    ck_assert_ptr_nonnull(mi250x);
    GP_ASSERT_REL(a->mem_bw.v, mi250x->mem_bw.v, 1e-12);
    GP_ASSERT_REL(peak(a, GP_BF16, GP_PIPE_TENSOR, 0) / peak(mi250x, GP_BF16, GP_PIPE_TENSOR, 0),
                  104.0 / 110, 2e-3);
    GP_ASSERT_REL(a->eff_compute.v, mi250x->eff_compute.v, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_TENSOR, 0), 120 * 1.502e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0), 120 * 1.502e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0) * 2, peak(b, GP_FP16, GP_PIPE_TENSOR, 0),
                  1e-12);
    GP_ASSERT_REL(peak(b, GP_INT8, GP_PIPE_TENSOR, 0), 184.6e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_TENSOR, 0), 120 * 1.502e9 * 256, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA, 0), 120 * 64 * 2 * 1.502e9, 2e-3);
    GP_ASSERT_REL(peak(b, GP_FP64, GP_PIPE_CUDA, 0), 11.5e12, 1e-12);
    ck_assert(peak(b, GP_FP64, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_str_eq(a->host_link, "pcie4-x16");
    ck_assert_str_eq(b->host_link, "pcie4-x16");
    ck_assert_ptr_null(a->compute_capability);
}
END_TEST

START_TEST(w7900_and_9070_xt_match_sources)
{
    static const gp_test_card cw = {"radeon-pro-w7900",
                                    96, 2.495e9, 384 / 8 * 18e9, 48 * GIB,
                                    49136 * MIB, 295, 0, 4000,
                                    NULL};
    static const gp_test_card cx = {"rx-9070-xt",
                                    64, 2.97e9, 256 / 8 * 20e9, 16 * GIB,
                                    0, 304, 8 * MIB, 599,
                                    NULL};
    const gp_gpu *w = gp_test_card_check(&cw);
    const gp_gpu *x = gp_test_card_check(&cx);
    const gp_gpu *xtx = gp_db_find_gpu(gp_test_db(), "rx-7900-xtx");
    /* W7900, Navi 31 with 96 CUs: AMD 122.6e12 FP16 = 96 x 512 x f, so
     * f = 122.6e12 / 49,152 = 2.4943e9 (the 2,495 MHz boost); FP32 dual
     * issue 96 x 64 x 4 x 2.495e9 = 61.32e12 -> 61.3e12; GDDR6 384 bit x
     * 18 Gb/s / 8 = 864e9 B/s; ROCm 49,136 MiB of 48 GiB = 0.9997.
     * RX 9070 XT, 64 RDNA 4 CUs at 2.97e9 Hz:
     *   FP16/BF16 x 1024 = 194.64e12 -> 194.6e12 (sparse 389.3e12)
     *   FP8/INT8 x 2048 = 389.28e12 -> 389.3e12 (sparse 778.6e12 = AMD 779)
     *   INT4 x 4096 = 778.6e12 (sparse 1,557.2e12 = AMD 1557)
     *   FP32 dual issue 64 x 64 x 4 x 2.97e9 = 48.66e12 (AMD 48.7)
     *   GDDR6 256 bit x 20 Gb/s / 8 = 640e9 B/s. */
    GP_ASSERT_REL(peak(w, GP_FP16, GP_PIPE_TENSOR, 0), 122.6e12, 1e-12);
    GP_ASSERT_REL(peak(w, GP_BF16, GP_PIPE_TENSOR, 0), 96 * 512 * 2.495e9, 1e-3);
    GP_ASSERT_REL(peak(w, GP_FP32, GP_PIPE_CUDA, 0), 96 * 64 * 4 * 2.495e9, 1e-3);
    ck_assert(peak(w, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_ptr_nonnull(xtx);
    GP_ASSERT_REL(peak(w, GP_BF16, GP_PIPE_TENSOR, 0) / peak(xtx, GP_BF16, GP_PIPE_TENSOR, 0),
                  2.495 / 2.5, 2e-3);
    GP_ASSERT_REL(w->mem_capacity.v / xtx->mem_capacity.v, 2.0, 1e-12);
    GP_ASSERT_REL(w->eff_compute.v, xtx->eff_compute.v, 1e-12);
    ck_assert_str_eq(w->host_link, "pcie4-x16");
    GP_ASSERT_REL(peak(x, GP_BF16, GP_PIPE_TENSOR, 0), 64 * 2.97e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(x, GP_FP16, GP_PIPE_TENSOR, 1), 389.3e12, 1e-3);
    GP_ASSERT_REL(peak(x, GP_FP8, GP_PIPE_TENSOR, 0), 64 * 2.97e9 * 2048, 1e-3);
    GP_ASSERT_REL(peak(x, GP_INT8, GP_PIPE_TENSOR, 1), 779e12, 1e-3);
    GP_ASSERT_REL(peak(x, GP_INT4, GP_PIPE_TENSOR, 1), 1557e12, 1e-3);
    GP_ASSERT_REL(peak(x, GP_FP32, GP_PIPE_CUDA, 0), 64 * 64 * 4 * 2.97e9, 1e-3);
    GP_ASSERT_REL(peak(x, GP_FP16, GP_PIPE_CUDA, 0), 2 * 48.66e12, 1e-12);
    /* RDNA 4 doubles RDNA 3's per-CU matrix rate */
    GP_ASSERT_REL((peak(x, GP_BF16, GP_PIPE_TENSOR, 0) / 64 / 2.97e9) /
                      (peak(xtx, GP_BF16, GP_PIPE_TENSOR, 0) / 96 / 2.5e9),
                  2.0, 2e-3);
    ck_assert(peak(x, GP_TF32, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_str_eq(x->host_link, "pcie5-x16");
}
END_TEST

START_TEST(a2_and_a16_match_sources)
{
    static const gp_test_card c2 = {"a2",
                                    10, 1.77e9, 128 / 8 * 12.5e9, 16 * GIB,
                                    0, 60, 2 * MIB, 0,
                                    NULL};
    static const gp_test_card c16 = {"a16",
                                     10, 1.695e9, 200e9, 16 * GIB,
                                     0, 250.0 / 4, 0, 0,
                                     NULL};
    const gp_gpu *a = gp_test_card_check(&c2);
    const gp_gpu *b = gp_test_card_check(&c16);
    /* A2, GA107 with 10 SMs at 1.77e9 Hz:
     *   FP16/BF16 x 1024 = 18.125e12 -> 18.12e12 (datasheet 18 | 36*)
     *   TF32 x 512 = 9.06e12; INT8 x 2048 = 36.25e12; INT4 x 4096 = 72.5e12
     *   FP32 10 x 128 x 2 x 1.77e9 = 4.531e12 -> 4.53e12
     *   GDDR6 128 bit x 12.5 Gb/s / 8 = 200e9 B/s
     * A16, one of four GA107 at 1.695e9 Hz: board 69.43e12 FP16 / 4 =
     *   17.36e12 = 10 x 1.695e9 x 1024 (17.357e12); INT8 138.86 / 4 =
     *   34.715e12; FP32 17.36 / 4 = 4.34e12; 4x 200 GB/s; 250 W / 4. */
    GP_ASSERT_REL(peak(a, GP_BF16, GP_PIPE_TENSOR, 0), 10 * 1.77e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 1), 36.25e12, 1e-3);
    GP_ASSERT_REL(peak(a, GP_TF32, GP_PIPE_TENSOR, 0), 10 * 1.77e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(a, GP_INT8, GP_PIPE_TENSOR, 0), 36.25e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_INT4, GP_PIPE_TENSOR, 1), 145e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA, 0), 10 * 128 * 2 * 1.77e9, 1e-3);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_CUDA, 0), peak(a, GP_FP32, GP_PIPE_CUDA, 0), 1e-12);
    ck_assert_str_eq(a->host_link, "pcie3-x16"); /* PCIe 4.0 x8 */
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0) * 4, 69.43e12, 1e-3);
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0), 10 * 1.695e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(b, GP_INT8, GP_PIPE_TENSOR, 0) * 4, 138.86e12, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA, 0), 10 * 128 * 2 * 1.695e9, 1e-3);
    GP_ASSERT_REL(b->mem_bw.v * 4, 4 * 200e9, 1e-12);
    /* same die, clocks 1.695 / 1.77 */
    GP_ASSERT_REL(peak(b, GP_BF16, GP_PIPE_TENSOR, 0) / peak(a, GP_BF16, GP_PIPE_TENSOR, 0),
                  1.695 / 1.77, 1e-3);
    GP_ASSERT_REL(a->eff_compute.v, 0.85, 1e-12);
    GP_ASSERT_REL(b->eff_compute.v, a->eff_compute.v, 1e-12);
    ck_assert_str_eq(a->compute_capability, "8.6");
    ck_assert_str_eq(b->compute_capability, "8.6");
    ck_assert_str_eq(b->host_link, "pcie4-x16");
    ck_assert_ptr_null(b->scale_up_link);
}
END_TEST

START_TEST(names_resolve)
{
    /* ids, aliases and the names people, nvidia-smi / CUDA and rocm-smi
     * write */
    static const gp_test_name pairs[] = {
        {"Jetson AGX Thor", "jetson-agx-thor"},
        {"NVIDIA Thor", "jetson-agx-thor"},
        {"T5000", "jetson-agx-thor"},
        {"Jetson Orin Nano Super", "jetson-orin-nano-super"},
        {"orin-nano-super", "jetson-orin-nano-super"},
        {"strix-halo", "ryzen-ai-max-395"},
        {"Radeon 8060S", "ryzen-ai-max-395"},
        {"AI Max+ 395", "ryzen-ai-max-395"},
        {"Ryzen AI Max+ 395", "ryzen-ai-max-395"},
        {"AMD Instinct MI210", "mi210"},
        {"MI100", "mi100"},
        {"AMD Radeon PRO W7900", "radeon-pro-w7900"},
        {"w7900", "radeon-pro-w7900"},
        {"AMD Radeon RX 9070 XT", "rx-9070-xt"},
        {"9070xt", "rx-9070-xt"},
        {"NVIDIA A2", "a2"},
        {"NVIDIA A16", "a16"},
    };
    static const gp_test_name device[] = {
        {"NVIDIA Thor", "jetson-agx-thor"},
        {"NVIDIA A2", "a2"},
        {"NVIDIA A16", "a16"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    gp_test_names_resolve(device, sizeof device / sizeof device[0], 1);
    /* a word too many finds nothing: the non-XT card is not this entry */
    ck_assert_ptr_null(gp_db_find_gpu(db, "AMD Radeon RX 9070"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "Jetson Orin Nano"));
}
END_TEST

START_TEST(cli_decode_llama31_8b_bf16_on_strix_halo)
{
    /* Batch-1 decode reads every weight once per token, except the
     * input-embedding row (a lookup), plus the KV cache at the default
     * context of 128:
     *   params 8,030,261,248 - embedding 128,256 x 4,096 = 525,336,576
     *     -> 7,504,924,672 x 2 B (bf16) = 15,009,849,344 B
     *   KV 2 x 32 layers x (8 kv heads x 128) x 2 B x 128 = 16,777,216 B
     *   total 15,026,626,560 B per token (activations, a few MB, are left
     *   out: well inside the 1 %)
     * ceiling = 256e9 / 15,026,626,560 = 17.036 tokens/s (within 1 %);
     * FLOPs 2 x 8.03e9 / 59.39e12 = 0.27 ms, far below 58.7 ms of bytes.
     * 16.1 GB of weights fit in the 128 GiB pool. */
    const char *argv[] = {"decode", "--gpu", "strix-halo", "--model", "llama-3.1-8b",
                          "--weights", "bf16", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    double ceil_tps = gp_test_jnum(j, "ceiling_tokens_per_s");
    double exp_tps = gp_test_jnum(j, "expected_tokens_per_s");
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "ryzen-ai-max-395");
    GP_ASSERT_REL(ceil_tps, 256e9 / 15026626560.0, 0.01);
    GP_ASSERT_REL(ceil_tps, 17.036, 0.01);
    ck_assert(exp_tps > 0 && exp_tps < ceil_tps);
    ck_assert(json_is_true(json_object_get(j, "fits")));
    json_decref(j);
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_ceilings)
{
    /* 3,817,531,648 B per token (gp_test_llama2_q4_0_ceiling in testutil.h):
     * Jetson AGX Thor 273e9 / 3,817,531,648 = 71.51 tokens/s;
     * RX 9070 XT 640e9 / 3,817,531,648 = 167.65 tokens/s (within 1 %). */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("NVIDIA Thor", "jetson-agx-thor", 273e9), 71.51,
                  0.01);
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("AMD Radeon RX 9070 XT", "rx-9070-xt", 640e9),
                  167.65, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_2027(void)
{
    Suite *s = suite_create("gpus_2027");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, jetson_agx_thor_matches_sources);
    tcase_add_test(tc, jetson_orin_nano_super_matches_sources);
    tcase_add_test(tc, strix_halo_matches_sources);
    tcase_add_test(tc, mi210_and_mi100_match_sources);
    tcase_add_test(tc, w7900_and_9070_xt_match_sources);
    tcase_add_test(tc, a2_and_a16_match_sources);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tcli, cli_decode_llama31_8b_bf16_on_strix_halo);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_ceilings);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
