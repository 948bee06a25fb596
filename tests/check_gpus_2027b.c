/* More GPUs people run models on -- NVIDIA GeForce RTX 2080, Quadro RTX
 * 6000 and 8000 (Turing), RTX A4500 (GA102), Intel Arc A770 16GB and B580,
 * AMD Radeon RX 7900 XT and RX 7800 XT (RDNA 3), RX 6900 XT and RX 6800 XT
 * (RDNA 2: vector units only) -- plus Q4_0 decode ceilings.
 *
 * Expected values are worked out by hand from the figures cited in each
 * entry's sources (spec-table and datasheet copies, launch coverage,
 * nvidia-smi printouts): units x clock x ops per clock, bus width x data
 * rate / 8.  Nothing here is copied from the program's output.  Per-SM
 * (per-CU, per-Xe-core) dense rates per clock used below:
 *   Turing SM: FP32 128; FP16 Tensor 1024 with FP16 accumulate, with FP32
 *     accumulate 512 on GeForce and 1024 on Quadro; INT8 2048, INT4 4096;
 *   professional GA102 SM: FP32 256, TF32 512, FP16/BF16 1024 (FP32 acc),
 *     INT8 2048, INT4 4096, sparse x 2;
 *   Xe-HPG Xe-core (16 XVE + 16 XMX): FP32 256, FP16 vector 512, XMX
 *     FP16/BF16 2048, INT8 4096, INT4 8192;
 *   Xe2-HPG Xe-core (8 XVE + 8 XMX): FP32 256, XMX FP16/BF16 2048, INT8
 *     4096, INT4 8192;
 *   RDNA 3 CU: FP32 with dual issue 256, packed FP16 and WMMA FP16/BF16 512;
 *   RDNA 2 CU: FP32 128, packed FP16 256, no matrix unit. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

static double peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe, int sparse)
{
    return gp_gpu_peak(g, p, pipe, GP_ACC_FP32, sparse);
}

/* FLOP (or OP) per clock per SM / CU / Xe-core of a dense peak */
static double per_unit_clock(const gp_gpu *g, gp_precision p, gp_pipeline pipe)
{
    return peak(g, p, pipe, 0) / g->sm_count.v / g->clock_boost.v;
}

START_TEST(rtx_2080_matches_sources)
{
    static const gp_test_card card = {"rtx-2080",
                                      46, 1.71e9, 256 / 8 * 14e9, 8 * GIB,
                                      7982 * MIB, 215, 4 * MIB, 699,
                                      "pcie3-x16-host"};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *s = gp_db_find_gpu(gp_test_db(), "rtx-2080-super");
    /* TU104 with 46 SMs at 1.71e9 Hz:
     *   FP16 Tensor, FP32 acc: 46 x 1.71e9 x 512 = 40.274e12 -> 40.27e12
     *   FP16 Tensor, FP16 acc: x 1024 = 80.548e12 -> 80.55e12
     *   INT8 x 2048 = 161.10e12; INT4 x 4096 = 322.19e12
     *   FP32 2944 x 2 x 1.71e9 = 10.068e12 -> 10.07e12; FP16 CUDA 2 x that
     * GDDR6 256 bit x 14 Gb/s / 8 = 448e9 B/s.
     * torch.mm FP16 39.03e12 of 40.27e12 = 0.969 -> 0.97. */
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 0), 46 * 1.71e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 0), 40.27e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 46 * 1.71e9 * 1024,
                  1e-3);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 46 * 1.71e9 * 2048, 1e-3);
    GP_ASSERT_REL(peak(g, GP_INT4, GP_PIPE_TENSOR, 0), 46 * 1.71e9 * 4096, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 2944 * 2 * 1.71e9, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA, 0), 2 * 10.07e12, 1e-12);
    ck_assert(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(g, GP_TF32, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(g->sparsity.v == 0.0);
    GP_ASSERT_REL(g->eff_compute.v, 39.03 / 40.27, 0.01);
    /* the same TU104 SM as the RTX 2080 SUPER, per SM and clock */
    ck_assert_ptr_nonnull(s);
    GP_ASSERT_REL(per_unit_clock(g, GP_FP16, GP_PIPE_TENSOR),
                  per_unit_clock(s, GP_FP16, GP_PIPE_TENSOR), 2e-3);
    GP_ASSERT_REL(per_unit_clock(g, GP_FP16, GP_PIPE_TENSOR), 512, 2e-3);
    ck_assert_str_eq(g->compute_capability, "7.5");
    /* No PCIe P2P on GeForce Turing: peers staged through host memory. */
    ck_assert_str_eq(g->host_link, "pcie3-x16");
    ck_assert_str_eq(g->scale_up_link, "pcie3-x16-host");
}
END_TEST

START_TEST(quadro_rtx_6000_and_8000_match_sources)
{
    static const gp_test_card c6 = {"quadro-rtx-6000",
                                    72, 1.77e9, 384 / 8 * 14e9, 24 * GIB,
                                    24220 * MIB, 260, 6 * MIB, 6300,
                                    NULL};
    static const gp_test_card c8 = {"quadro-rtx-8000",
                                    72, 1.77e9, 384 / 8 * 14e9, 48 * GIB,
                                    48601 * MIB, 260, 6 * MIB, 10000,
                                    NULL};
    const gp_gpu *a = gp_test_card_check(&c6);
    const gp_gpu *b = gp_test_card_check(&c8);
    const gp_gpu *titan = gp_db_find_gpu(gp_test_db(), "titan-rtx");
    /* Full TU102, 72 SMs at 1.77e9 Hz, FP32 accumulate at the full rate:
     *   FP16 Tensor 72 x 1.77e9 x 1024 = 130.50e12 (NVIDIA 130.5)
     *   INT8 x 2048 = 261.0e12; INT4 x 4096 = 522.0e12
     *   FP32 4608 x 2 x 1.77e9 = 16.312e12 -> 16.31e12 (NVIDIA 16.3)
     *   GDDR6 384 bit x 14 Gb/s / 8 = 672e9 B/s
     * The passive board's datasheet figure 119.4e12 = 72 x 1024 x 1.62e9. */
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 0), 72 * 1.77e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 0), 130.5e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_INT8, GP_PIPE_TENSOR, 0), 72 * 1.77e9 * 2048, 1e-3);
    GP_ASSERT_REL(peak(a, GP_INT4, GP_PIPE_TENSOR, 0), 522e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA, 0), 4608 * 2 * 1.77e9, 1e-3);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_CUDA, 0), 32.6e12, 1e-12);
    /* no separate FP16-accumulate rate: the FP32-accumulate one is it */
    ck_assert(a->peak_fp16acc[GP_FP16].v == 0.0);
    GP_ASSERT_REL(gp_gpu_peak(a, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 130.5e12, 1e-12);
    GP_ASSERT_REL(119.4e12 / (72 * 1024), 1.62e9, 1e-3);
    ck_assert(peak(a, GP_BF16, GP_PIPE_TENSOR, 0) == 0.0);
    /* the 8000 differs only in memory */
    for (int p = 0; p < GP_PREC__COUNT; p++)
        for (int q = 0; q < GP_PIPE__COUNT; q++)
            ck_assert(a->peak[p][q].v == b->peak[p][q].v);
    GP_ASSERT_REL(b->mem_capacity.v / a->mem_capacity.v, 2.0, 1e-12);
    GP_ASSERT_REL(b->mem_bw.v, a->mem_bw.v, 1e-12);
    /* the same full TU102 as the TITAN RTX */
    ck_assert_ptr_nonnull(titan);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 0), peak(titan, GP_FP16, GP_PIPE_TENSOR, 0),
                  1e-12);
    GP_ASSERT_REL(a->eff_compute.v, titan->eff_compute.v, 1e-12);
    GP_ASSERT_REL(a->eff_compute.v, 131.2 / 154.8, 0.01);
    ck_assert_str_eq(a->compute_capability, "7.5");
    ck_assert_str_eq(b->host_link, "pcie3-x16");
    ck_assert_ptr_null(b->scale_up_link);
}
END_TEST

START_TEST(rtx_a4500_matches_sources)
{
    static const gp_test_card card = {"rtx-a4500",
                                      56, 1.65e9, 320 / 8 * 16e9, 20 * GIB,
                                      20470 * MIB, 200, 0, 0,
                                      NULL};
    const gp_gpu *g = gp_test_card_check(&card);
    const gp_gpu *a5 = gp_db_find_gpu(gp_test_db(), "rtx-a5000");
    /* GA102 with 56 SMs at 1.65e9 Hz:
     *   FP16/BF16 x 1024 = 94.618e12 -> 94.62e12 (sparse 189.2e12)
     *   TF32 x 512 = 47.31e12; INT8 x 2048 = 189.2e12; INT4 x 4096 = 378.5e12
     *   FP32 7168 x 2 x 1.65e9 = 23.654e12 -> 23.65e12 (TechPowerUp 23.65)
     *   GDDR6 320 bit x 16 Gb/s / 8 = 640e9 B/s
     * Against the RTX A5000 (64 SMs at 1.695e9): 56 x 1.65 / (64 x 1.695)
     * = 0.8518. */
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0), 56 * 1.65e9 * 1024, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_TENSOR, 1), 189.2e12, 1e-3);
    GP_ASSERT_REL(peak(g, GP_TF32, GP_PIPE_TENSOR, 0), 56 * 1.65e9 * 512, 1e-3);
    GP_ASSERT_REL(peak(g, GP_INT8, GP_PIPE_TENSOR, 0), 189.2e12, 1e-12);
    GP_ASSERT_REL(peak(g, GP_INT4, GP_PIPE_TENSOR, 0), 56 * 1.65e9 * 4096, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP32, GP_PIPE_CUDA, 0), 7168 * 2 * 1.65e9, 1e-3);
    GP_ASSERT_REL(peak(g, GP_FP16, GP_PIPE_CUDA, 0), peak(g, GP_FP32, GP_PIPE_CUDA, 0), 1e-12);
    ck_assert(peak(g, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert_ptr_nonnull(a5);
    GP_ASSERT_REL(peak(g, GP_BF16, GP_PIPE_TENSOR, 0) / peak(a5, GP_BF16, GP_PIPE_TENSOR, 0),
                  56 * 1.65 / (64 * 1.695), 1e-3);
    GP_ASSERT_REL(g->eff_compute.v, a5->eff_compute.v, 1e-12);
    ck_assert_str_eq(g->compute_capability, "8.6");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(intel_arc_a770_and_b580_match_sources)
{
    static const gp_test_card ca = {"intel-arc-a770",
                                    32, 2.1e9, 256 / 8 * 17.5e9, 16 * GIB,
                                    15473 * MIB, 225, 16 * MIB, 0,
                                    NULL};
    static const gp_test_card cb = {"intel-arc-b580",
                                    20, 2.85e9, 192 / 8 * 19e9, 12 * GIB,
                                    0, 190, 18 * MIB, 249,
                                    NULL};
    const gp_gpu *a = gp_test_card_check(&ca);
    const gp_gpu *b = gp_test_card_check(&cb);
    /* A770, 32 Xe-cores at the 2.1e9 Hz graphics clock:
     *   XMX FP16/BF16 32 x 16 XMX x 128 x 2.1e9 = 137.63e12 -> 137.6e12
     *   INT8 x 256 = 275.25e12; INT4 x 512 = 550.5e12
     *   FP32 32 x 16 XVE x 16 x 2.1e9 = 17.203e12; FP16 vector twice that
     *   GDDR6 256 bit x 17.5 Gb/s / 8 = 560e9 B/s
     *   MAMF BF16 92.9e12 / 137.6e12 = 0.675 -> 0.68
     * B580, 20 Xe2-cores at the 2.85e9 Hz maximum boost:
     *   XMX FP16/BF16 160 XMX x 256 x 2.85e9 = 116.74e12 (Intel: 117)
     *   INT8 x 512 = 233.47e12 (Intel: 233); INT4 x 1024 = 466.94e12, and
     *   at the 2.67e9 graphics clock 160 x 1024 x 2.67e9 = 437.45e12
     *   (TechPowerUp's figure)
     *   FP32 160 x 32 x 2.85e9 = 14.59e12 (Intel 14.6)
     *   GDDR6 192 bit x 19 Gb/s / 8 = 456e9 B/s */
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_TENSOR, 0), 32 * 16 * 128 * 2.1e9, 1e-3);
    GP_ASSERT_REL(peak(a, GP_BF16, GP_PIPE_TENSOR, 0), 137.6e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_INT8, GP_PIPE_TENSOR, 0), 32 * 16 * 256 * 2.1e9, 1e-3);
    GP_ASSERT_REL(peak(a, GP_INT4, GP_PIPE_TENSOR, 0), 550.5e12, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA, 0), 32 * 16 * 16 * 2.1e9, 1e-3);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_CUDA, 0), 2 * 17.2e12, 1e-3);
    ck_assert(peak(a, GP_FP64, GP_PIPE_CUDA, 0) == 0.0);
    ck_assert(peak(a, GP_TF32, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(a, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(a->sparsity.v == 0.0);
    GP_ASSERT_REL(a->eff_compute.v, 92.9 / 137.6, 0.01);
    ck_assert_ptr_null(a->compute_capability);
    ck_assert_str_eq(a->vendor, "Intel");
    ck_assert_str_eq(a->host_link, "pcie4-x16");
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_TENSOR, 0), 160 * 256 * 2.85e9, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_TENSOR, 0), 117e12, 3e-3);
    GP_ASSERT_REL(peak(b, GP_INT8, GP_PIPE_TENSOR, 0), 233e12, 3e-3);
    GP_ASSERT_REL(peak(b, GP_INT4, GP_PIPE_TENSOR, 0) * 2.67 / 2.85, 437.45e12, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA, 0), 14.6e12, 3e-3);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_CUDA, 0), 2 * peak(b, GP_FP32, GP_PIPE_CUDA, 0),
                  1e-12);
    /* per Xe-core and clock Xe2 matches Xe-HPG's XMX rate (half the engines,
     * twice as wide) */
    GP_ASSERT_REL(per_unit_clock(b, GP_BF16, GP_PIPE_TENSOR),
                  per_unit_clock(a, GP_BF16, GP_PIPE_TENSOR), 2e-3);
    GP_ASSERT_REL(per_unit_clock(a, GP_BF16, GP_PIPE_TENSOR), 2048, 2e-3);
    GP_ASSERT_REL(b->eff_compute.v, a->eff_compute.v, 1e-12);
    /* PCIe 4.0 x8: 8 lanes x 16 GT/s, the PCIe 3.0 x16 line rate */
    ck_assert_str_eq(b->host_link, "pcie3-x16");
}
END_TEST

START_TEST(radeon_rdna3_match_sources)
{
    static const gp_test_card cxt = {"rx-7900-xt",
                                     84, 2.4e9, 320 / 8 * 20e9, 20 * GIB,
                                     0, 300, 0, 899,
                                     NULL};
    static const gp_test_card c78 = {"rx-7800-xt",
                                     60, 2.43e9, 256 / 8 * 19.5e9, 16 * GIB,
                                     0, 263, 0, 499,
                                     NULL};
    const gp_gpu *x = gp_test_card_check(&cxt);
    const gp_gpu *s = gp_test_card_check(&c78);
    const gp_gpu *xtx = gp_db_find_gpu(gp_test_db(), "rx-7900-xtx");
    /* RX 7900 XT, 84 CUs at 2.4e9 Hz:
     *   FP16/BF16 WMMA and packed FP16 84 x 512 x 2.4e9 = 103.22e12 -> 103.2e12
     *   FP32 dual issue 84 x 64 x 4 x 2.4e9 = 51.61e12 (AMD 52)
     *   GDDR6 320 bit x 20 Gb/s / 8 = 800e9 B/s
     *   torch.mm BF16 83.18e12 / 103.2e12 = 0.806 -> 0.81
     * RX 7800 XT, 60 CUs at 2.43e9 Hz:
     *   60 x 512 x 2.43e9 = 74.65e12; FP32 60 x 256 x 2.43e9 = 37.32e12
     *   GDDR6 256 bit x 19.5 Gb/s / 8 = 624e9 B/s */
    GP_ASSERT_REL(peak(x, GP_BF16, GP_PIPE_TENSOR, 0), 84 * 512 * 2.4e9, 1e-3);
    GP_ASSERT_REL(peak(x, GP_FP16, GP_PIPE_TENSOR, 0), 103.2e12, 1e-12);
    GP_ASSERT_REL(peak(x, GP_FP16, GP_PIPE_CUDA, 0), 103.2e12, 1e-12);
    GP_ASSERT_REL(peak(x, GP_FP32, GP_PIPE_CUDA, 0), 84 * 64 * 4 * 2.4e9, 1e-3);
    GP_ASSERT_REL(x->eff_compute.v, 83.18 / 103.2, 0.01);
    GP_ASSERT_REL(peak(s, GP_BF16, GP_PIPE_TENSOR, 0), 60 * 512 * 2.43e9, 1e-3);
    GP_ASSERT_REL(peak(s, GP_FP32, GP_PIPE_CUDA, 0), 37.32e12, 1e-12);
    GP_ASSERT_REL(peak(s, GP_FP16, GP_PIPE_CUDA, 0), 2 * 37.32e12, 1e-3);
    ck_assert(peak(x, GP_FP8, GP_PIPE_TENSOR, 0) == 0.0);
    ck_assert(peak(s, GP_INT8, GP_PIPE_TENSOR, 0) == 0.0);
    /* the same RDNA 3 CU as the RX 7900 XTX, per CU and clock */
    ck_assert_ptr_nonnull(xtx);
    GP_ASSERT_REL(per_unit_clock(x, GP_BF16, GP_PIPE_TENSOR),
                  per_unit_clock(xtx, GP_BF16, GP_PIPE_TENSOR), 2e-3);
    GP_ASSERT_REL(per_unit_clock(s, GP_BF16, GP_PIPE_TENSOR), 512, 2e-3);
    GP_ASSERT_REL(x->eff_compute.v, xtx->eff_compute.v, 1e-12);
    GP_ASSERT_REL(s->eff_compute.v, x->eff_compute.v, 1e-12);
    ck_assert_str_eq(x->host_link, "pcie4-x16");
    ck_assert_str_eq(s->host_link, "pcie4-x16");
}
END_TEST

START_TEST(radeon_rdna2_vector_only)
{
    static const gp_test_card c69 = {"rx-6900-xt",
                                     80, 2.25e9, 256 / 8 * 16e9, 16 * GIB,
                                     0, 300, 4 * MIB, 999,
                                     NULL};
    static const gp_test_card c68 = {"rx-6800-xt",
                                     72, 2.25e9, 256 / 8 * 16e9, 16 * GIB,
                                     0, 300, 4 * MIB, 649,
                                     NULL};
    const gp_gpu *a = gp_test_card_check(&c69);
    const gp_gpu *b = gp_test_card_check(&c68);
    /* RX 6900 XT, 80 CUs at 2.25e9 Hz: FP32 80 x 64 x 2 x 2.25e9 = 23.04e12
     * (HEXUS 23,040 GFLOPS), packed FP16 46.08e12.  RX 6800 XT, 72 CUs:
     * 20.736e12 -> 20.74e12 (HEXUS 20,736), FP16 41.47e12.  GDDR6 256 bit
     * x 16 Gb/s / 8 = 512e9 B/s.  No matrix unit: no tensor rate at any
     * precision, no BF16.  The RDNA 2 sibling RX 6600 XT (32 CUs at
     * 2.589e9: 32 x 128 x 2.589e9 = 10.605e12 FP32, 21.21e12 FP16) reaches
     * 16.11e12 in torch.mm FP16: 0.76. */
    GP_ASSERT_REL(peak(a, GP_FP32, GP_PIPE_CUDA, 0), 80 * 64 * 2 * 2.25e9, 1e-12);
    GP_ASSERT_REL(peak(a, GP_FP16, GP_PIPE_CUDA, 0), 46.08e12, 1e-12);
    GP_ASSERT_REL(peak(b, GP_FP32, GP_PIPE_CUDA, 0), 72 * 64 * 2 * 2.25e9, 1e-3);
    GP_ASSERT_REL(peak(b, GP_FP16, GP_PIPE_CUDA, 0), 2 * 20.74e12, 1e-3);
    for (int p = 0; p < GP_PREC__COUNT; p++) {
        ck_assert(a->peak[p][GP_PIPE_TENSOR].v == 0.0);
        ck_assert(b->peak[p][GP_PIPE_TENSOR].v == 0.0);
    }
    ck_assert(peak(a, GP_BF16, GP_PIPE_CUDA, 0) == 0.0);
    ck_assert(a->sparsity.v == 0.0);
    GP_ASSERT_REL(32 * 128 * 2.589e9, 10.605e12, 1e-3);
    GP_ASSERT_REL(a->eff_compute.v, 16.11 / (2 * 10.605), 0.01);
    GP_ASSERT_REL(b->eff_compute.v, a->eff_compute.v, 1e-12);
    GP_ASSERT_REL(per_unit_clock(a, GP_FP32, GP_PIPE_CUDA),
                  per_unit_clock(b, GP_FP32, GP_PIPE_CUDA), 1e-3);
    ck_assert_str_eq(a->architecture, "RDNA 2");
    ck_assert_str_eq(b->host_link, "pcie4-x16");
}
END_TEST

START_TEST(names_resolve)
{
    /* ids, aliases and the names people, nvidia-smi and rocm-smi write */
    static const gp_test_name pairs[] = {
        {"RTX 2080", "rtx-2080"},
        {"NVIDIA GeForce RTX 2080", "rtx-2080"},
        {"2080", "rtx-2080"},
        {"Quadro RTX 6000", "quadro-rtx-6000"},
        {"rtx-6000-turing", "quadro-rtx-6000"},
        {"Quadro RTX 8000", "quadro-rtx-8000"},
        {"rtx-8000", "quadro-rtx-8000"},
        {"NVIDIA RTX A4500", "rtx-a4500"},
        {"a4500", "rtx-a4500"},
        {"Intel Arc A770 16GB", "intel-arc-a770"},
        {"arc-a770", "intel-arc-a770"},
        {"Intel Arc B580", "intel-arc-b580"},
        {"b580", "intel-arc-b580"},
        {"AMD Radeon RX 7900 XT", "rx-7900-xt"},
        {"7900xt", "rx-7900-xt"},
        {"AMD Radeon RX 7800 XT", "rx-7800-xt"},
        {"AMD Radeon RX 6900 XT", "rx-6900-xt"},
        {"Radeon RX 6800 XT", "rx-6800-xt"},
        {"6800xt", "rx-6800-xt"},
    };
    static const gp_test_name device[] = {
        {"GeForce RTX 2080", "rtx-2080"},
        {"Quadro RTX 6000", "quadro-rtx-6000"},
        {"Quadro RTX 8000", "quadro-rtx-8000"},
        {"NVIDIA RTX A4500", "rtx-a4500"},
    };
    const gp_db *db = gp_test_db();
    gp_test_names_resolve(pairs, sizeof pairs / sizeof pairs[0], 0);
    gp_test_names_resolve(device, sizeof device / sizeof device[0], 1);
    /* a word too many or too few finds nothing: the XT is not the XTX, the
     * plain RTX 6000 name is not the Turing Quadro */
    ck_assert_ptr_eq(gp_db_find_gpu(db, "AMD Radeon RX 7900 XTX"),
                     gp_db_find_gpu(db, "rx-7900-xtx"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "AMD Radeon RX 7800"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "RTX 6000"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "Intel Arc A770 8GB"));
}
END_TEST

START_TEST(cli_decode_llama2_7b_q4_0_ceilings)
{
    /* 3,817,531,648 B per token (gp_test_llama2_q4_0_ceiling in testutil.h):
     *   RX 6900 XT 512e9 / 3,817,531,648 = 134.12 tokens/s (a GPU with
     *     vector units only still decodes: the bound is the memory)
     *   Arc A770 560e9 / 3,817,531,648 = 146.69 tokens/s
     *   RTX 2080 448e9 / 3,817,531,648 = 117.35 tokens/s (3.8 GB fit in 8)
     * within 1 %. */
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("AMD Radeon RX 6900 XT", "rx-6900-xt", 512e9),
                  134.12, 0.01);
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("arc-a770", "intel-arc-a770", 560e9), 146.69,
                  0.01);
    GP_ASSERT_REL(gp_test_llama2_q4_0_ceiling("RTX 2080", "rtx-2080", 448e9), 117.35, 0.01);
}
END_TEST

Suite *gp_test_suite_gpus_2027b(void)
{
    Suite *s = suite_create("gpus_2027b");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx_2080_matches_sources);
    tcase_add_test(tc, quadro_rtx_6000_and_8000_match_sources);
    tcase_add_test(tc, rtx_a4500_matches_sources);
    tcase_add_test(tc, intel_arc_a770_and_b580_match_sources);
    tcase_add_test(tc, radeon_rdna3_match_sources);
    tcase_add_test(tc, radeon_rdna2_vector_only);
    tcase_add_test(tc, names_resolve);
    tcase_add_test(tcli, cli_decode_llama2_7b_q4_0_ceilings);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
