/* Accessors over hand-built database structs: peaks per pipeline, accumulate
 * mode and sparsity; expected figures from efficiencies and calibration. */
#include <string.h>

#include "testutil.h"

/* RTX 4090 figures from the Ada whitepaper (Appendix A, Table 2):
 * fp32 82.6 TFLOPS, fp16 tensor 165.2 (fp32 acc) / 330.3 (fp16 acc),
 * 1008 GB/s.  Efficiencies are made up for the arithmetic. */
static gp_gpu make_4090(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "rtx-4090";
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 82.6e12;
    g.peak[GP_FP16][GP_PIPE_CUDA].v = 82.6e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 165.2e12;
    g.peak_fp16acc[GP_FP16].v = 330.3e12;
    g.peak[GP_FP64][GP_PIPE_TENSOR].v = 1.0e12; /* synthetic: no sparse fp64 */
    g.sparsity.v = 2.0;
    g.mem_bw.v = 1008e9;
    g.eff_mem.v = 0.9;
    g.eff_compute.v = 0.8;
    g.mem_capacity.v = 24.0 * 1073741824.0;
    return g;
}

START_TEST(peaks_per_pipeline_accumulate_and_sparsity)
{
    gp_gpu g = make_4090();
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 82.6e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12, 1e-12);
    /* GeForce fp16 accumulate: the 330.3 TFLOPS row. */
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 330.3e12, 1e-12);
    /* 2:4 sparsity doubles the tensor rate: 2 x 165.2 = 330.4. */
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 330.4e12, 1e-12);
    /* No sparse CUDA-core math, no sparse fp64, nothing for absent rows. */
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 1), 0.0, 0);
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP64, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 0.0, 0);
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 0.0, 0);
    ck_assert_int_eq(gp_gpu_default_pipeline(&g, GP_FP16), GP_PIPE_TENSOR);
    ck_assert_int_eq(gp_gpu_default_pipeline(&g, GP_FP32), GP_PIPE_CUDA);
}
END_TEST

START_TEST(expected_figures_use_efficiency_then_calibration)
{
    gp_gpu g = make_4090();
    /* Default efficiency: 1008e9 x 0.9 = 907.2e9; 165.2e12 x 0.8 = 132.16e12. */
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(&g), 907.2e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 132.16e12, 1e-12);
    /* A calibration wins; other accumulate modes scale by the datasheet
     * ratio: 150e12 x 330.3/165.2 = 299.909...e12. */
    g.meas_mem_bw.v = 950e9;
    g.meas_peak[GP_FP16][GP_PIPE_TENSOR].v = 150e12;
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(&g), 950e9, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 150e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0),
                  150e12 * 330.3 / 165.2, 1e-12);
    /* Usable memory falls back to the label: 24 GiB. */
    GP_ASSERT_REL(gp_gpu_usable_mem(&g), 25769803776.0, 1e-12);
}
END_TEST

/* A measurement above the datasheet (GPU Boost past the rated clock, a
 * memory overclock) plans at the datasheet, which stays the ceiling:
 * 165.2e12 x 1.08 = 178.416e12 measured gives 165.2e12 expected (and the
 * fp16-accumulate mode 330.3e12, its datasheet), 1018e9 B/s of 1008e9
 * gives 1008e9; the ceilings keep their datasheet figures. */
/* Narrow tensor math reaches less of its peak than 16-bit (the RTX 4090's
 * 330.3 FP8 TFLOPS, fp32 accumulate, from the Ada whitepaper): without
 * efficiency.compute_fp8, 0.8 x (1402.6/1978.9)/(794.5/989.4) =
 * 0.8 x 0.7087776/0.8030119 = 0.8 x 0.8826489 = 0.7061191, so
 * 330.3e12 x 0.7061191 = 233.2312e12; the same for int8; with
 * compute_fp8 0.6, 198.18e12.  16-bit and CUDA-core math keep 0.8. */
START_TEST(narrow_formats_take_their_own_efficiency)
{
    gp_gpu g = make_4090();
    const char *src = "unset";
    g.peak[GP_FP8][GP_PIPE_TENSOR].v = 330.3e12;
    g.peak[GP_INT8][GP_PIPE_TENSOR].v = 660.6e12;
    g.eff_compute.src = "bf16 gemm";
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP8, GP_PIPE_TENSOR, &src), 0.7061191, 1e-6);
    ck_assert_ptr_nonnull(strstr(src, "0.883"));
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 233.2312e12,
                  1e-6);
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  2.0 * 233.2312e12, 1e-6);
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP16, GP_PIPE_TENSOR, &src), 0.8, 0);
    ck_assert_str_eq(src, "bf16 gemm");
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP8, GP_PIPE_CUDA, NULL), 0.8, 0);
    g.eff_compute_fp8.v = 0.6;
    g.eff_compute_fp8.src = "fp8 gemm";
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 198.18e12,
                  1e-12);
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP4, GP_PIPE_TENSOR, &src), 0.6, 0);
    ck_assert_str_eq(src, "fp8 gemm");
    /* No efficiency at all: the datasheet, no source. */
    g.eff_compute.v = 0.0;
    g.eff_compute_fp8.v = 0.0;
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP8, GP_PIPE_TENSOR, &src), 1.0, 0);
    ck_assert_ptr_null(src);
    GP_ASSERT_REL(gp_gpu_compute_eff(NULL, GP_FP8, GP_PIPE_TENSOR, NULL), 1.0, 0);
    /* A Blackwell part without its own FP8 figure takes Blackwell's ratio,
     * (3432.5/4500)/(1745.0/2250) = 0.7627778/0.7755556 = 0.9835244 (B200
     * MAMF): 0.8 x 0.9835244 = 0.7868195. */
    g.eff_compute.v = 0.8;
    g.architecture = "Blackwell";
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP8, GP_PIPE_TENSOR, &src), 0.7868195, 1e-6);
    ck_assert_ptr_nonnull(strstr(src, "0.983"));
    ck_assert_str_eq(gp_gpu_compute_eff_field(&g, GP_FP8, GP_PIPE_TENSOR),
                     "efficiency.compute x 0.983");
    g.architecture = "Blackwell Ultra";
    GP_ASSERT_REL(gp_gpu_compute_eff(&g, GP_FP4, GP_PIPE_TENSOR, NULL), 0.7868195, 1e-6);
    g.architecture = "Ada Lovelace";
    ck_assert_str_eq(gp_gpu_compute_eff_field(&g, GP_FP8, GP_PIPE_TENSOR),
                     "efficiency.compute x 0.883");
    ck_assert_str_eq(gp_gpu_compute_eff_field(&g, GP_BF16, GP_PIPE_TENSOR), "efficiency.compute");
}
END_TEST

START_TEST(measured_above_datasheet_plans_at_the_ceiling)
{
    gp_gpu g = make_4090();
    g.meas_peak[GP_FP16][GP_PIPE_TENSOR].v = 178.416e12;
    g.meas_mem_bw.v = 1018e9;
    GP_ASSERT_REL(gp_gpu_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12,
                  1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 330.3e12,
                  1e-12);
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(&g), 1008e9, 1e-12);
    ck_assert(gp_gpu_peak_capped(&g, GP_FP16, GP_PIPE_TENSOR));
    ck_assert(!gp_gpu_peak_capped(&g, GP_FP16, GP_PIPE_CUDA));
    ck_assert(gp_gpu_mem_bw_capped(&g));
    ck_assert(!gp_gpu_peak_capped(NULL, GP_FP16, GP_PIPE_TENSOR) && !gp_gpu_mem_bw_capped(NULL));
    /* The expected figure's source says which of the three it is: the
     * capped datasheet, the calibration, else the efficiency's source. */
    g.calibration = "probe.yaml, 2026-12-01";
    g.eff_compute.src = "bf16 gemm";
    ck_assert_ptr_nonnull(strstr(gp_gpu_expected_peak_src(&g, GP_FP16, GP_PIPE_TENSOR),
                                 "the datasheet peak"));
    ck_assert_str_eq(gp_gpu_expected_peak_src(&g, GP_FP16, GP_PIPE_CUDA), "bf16 gemm");
    ck_assert_ptr_null(gp_gpu_expected_peak_src(NULL, GP_FP16, GP_PIPE_TENSOR));
    /* Below the datasheet a measurement is the expected figure. */
    g.meas_peak[GP_FP16][GP_PIPE_TENSOR].v = 150e12;
    ck_assert(!gp_gpu_peak_capped(&g, GP_FP16, GP_PIPE_TENSOR));
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 150e12,
                  1e-12);
    ck_assert_str_eq(gp_gpu_expected_peak_src(&g, GP_FP16, GP_PIPE_TENSOR),
                     "probe.yaml, 2026-12-01");
}
END_TEST

START_TEST(names_parse_and_round_trip)
{
    gp_precision p;
    gp_pipeline pp;
    gp_err e;
    int i;
    gp_err_clear(&e);
    for (i = 0; i < GP_PREC__COUNT; i++) {
        ck_assert_int_eq(gp_precision_parse(gp_precision_name((gp_precision)i), &p, &e), GP_OK);
        ck_assert_int_eq(p, i);
    }
    ck_assert_int_eq(gp_precision_parse("BF16", &p, &e), GP_OK);
    ck_assert_int_eq(p, GP_BF16);
    ck_assert_int_eq(gp_precision_parse("fp7", &p, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'fp7'"));
    ck_assert_int_eq(gp_pipeline_parse("tensor", &pp, &e), GP_OK);
    ck_assert_int_eq(pp, GP_PIPE_TENSOR);
    ck_assert_int_eq(gp_pipeline_parse("warp", &pp, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'warp'"));
}
END_TEST

START_TEST(kv_elements_per_layer)
{
    gp_model m;
    memset(&m, 0, sizeof m);
    /* Llama-2-7B: 32 heads of 128, no GQA: 2 x 32 x 128 = 8192. */
    m.hidden.v = 4096;
    m.heads.v = 32;
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(&m), 8192.0, 0);
    /* Llama-3.1-8B: 8 KV heads of 128: 2048, a quarter. */
    m.kv_heads.v = 8;
    m.head_dim.v = 128;
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(&m), 2048.0, 0);
    /* MLA (DeepSeek-V3): kv_dim 576 overrides. */
    m.kv_dim.v = 576;
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(&m), 576.0, 0);
}
END_TEST

Suite *gp_test_suite_access(void)
{
    Suite *s = suite_create("access");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, peaks_per_pipeline_accumulate_and_sparsity);
    tcase_add_test(tc, expected_figures_use_efficiency_then_calibration);
    tcase_add_test(tc, narrow_formats_take_their_own_efficiency);
    tcase_add_test(tc, measured_above_datasheet_plans_at_the_ceiling);
    tcase_add_test(tc, names_parse_and_round_trip);
    tcase_add_test(tc, kv_elements_per_layer);
    suite_add_tcase(s, tc);
    return s;
}
