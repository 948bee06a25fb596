/* Roofline model, named kernels, the built-in database and the CLI.
 * Every expected number is derived by hand in the comment beside it, from
 * the article (shared/seed/digest.md rows 1, 2, 9) and the datasheets in
 * shared/reference/gpu_specs.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "testutil.h"

/* ---- hand-built GPUs (figures: shared/reference/gpu_specs.md) ------------ */

/* RTX 4090 (NVIDIA Ada whitepaper): FP32 82.6 TFLOPS; FP16/BF16 tensor
 * 165.2 TFLOPS with FP32 accumulate, 330.3 with FP16 accumulate; 2:4
 * sparsity x2; 1,008 GB/s GDDR6X.  Efficiencies are test figures. */
static gp_gpu rtx4090(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "rtx-4090";
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 82.6e12;
    g.peak[GP_FP32][GP_PIPE_CUDA].src = "nv_ada_wp";
    g.peak[GP_FP16][GP_PIPE_CUDA].v = 82.6e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 165.2e12;
    g.peak_fp16acc[GP_FP16].v = 330.3e12;
    g.peak_fp16acc[GP_FP16].src = "nv_ada_wp fp16acc";
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 165.2e12;
    g.sparsity.v = 2.0;
    g.mem_bw.v = 1008e9;
    g.mem_bw.src = "nv_ada_wp";
    g.eff_mem.v = 0.9;
    g.eff_mem.src = "test";
    g.eff_compute.v = 0.8;
    return g;
}

/* H100 SXM5 (NVIDIA H100 datasheet / whitepaper): BF16 tensor dense 989.4
 * TFLOPS, FP32 66.9, FP8 1978.9; sparsity x2; HBM3 3.35 TB/s. */
static gp_gpu h100(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "h100-sxm";
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 66.9e12;
    g.peak[GP_BF16][GP_PIPE_CUDA].v = 133.8e12;
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 989.4e12;
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 989.4e12;
    g.peak[GP_FP8][GP_PIPE_TENSOR].v = 1978.9e12;
    g.sparsity.v = 2.0;
    g.mem_bw.v = 3.35e12;
    g.eff_mem.v = 0.9;
    g.eff_compute.v = 0.8;
    return g;
}

/* A100 80GB SXM4 (NVIDIA A100 datasheet): BF16 tensor 312 TFLOPS, no FP8;
 * HBM2e 2,039 GB/s. */
static gp_gpu a100(void)
{
    gp_gpu g;
    memset(&g, 0, sizeof g);
    g.id = "a100-sxm-80gb";
    g.peak[GP_FP32][GP_PIPE_CUDA].v = 19.5e12;
    g.peak[GP_BF16][GP_PIPE_TENSOR].v = 312e12;
    g.sparsity.v = 2.0;
    g.mem_bw.v = 2039e9;
    return g;
}

/* PCIe 4.0 x16: 31.5 GB/s per direction raw, ~25 GB/s achieved (digest
 * row 12).  NVLink 4: 450 GB/s per direction (H100 datasheet 900 is both). */
static gp_link pcie4(void)
{
    gp_link l;
    memset(&l, 0, sizeof l);
    l.id = "pcie4-x16";
    l.bw.v = 31.5e9;
    l.bw_achievable.v = 25e9;
    return l;
}

static gp_link nvlink4(void)
{
    gp_link l;
    memset(&l, 0, sizeof l);
    l.id = "nvlink4";
    l.bw.v = 450e9;
    l.bw_achievable.v = 370e9;
    return l;
}

static gp_roofline eval_ok(const gp_gpu *g, const gp_roofline_params *p, double flop,
                           double bytes)
{
    gp_roofline r;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_msg(gp_roofline_eval(g, p, flop, bytes, &r, &e) == GP_OK, "eval: %s", e.msg);
    return r;
}

static gp_kernel_counts kernel_ok(const char *name, const gp_kernel_shape *s)
{
    const gp_kernel_desc *k = gp_kernel_find(name);
    gp_kernel_counts c;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_msg(k != NULL, "kernel %s", name);
    ck_assert_msg(gp_kernel_eval(k, s, &c, &e) == GP_OK, "%s: %s", name, e.msg);
    return c;
}

/* ---- digest rows 1, 2, 9 ----------------------------------------------- */

START_TEST(ridge_rtx4090_fp32)
{
    gp_gpu g = rtx4090();
    /* Row 1: 82.6e12 / 1008e9 = 81.944 FLOP/B. */
    GP_ASSERT_REL(gp_roofline_ridge(&g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 81.9444, 1e-4);
    /* No fp32 tensor rate on this hand-built part. */
    GP_ASSERT_REL(gp_roofline_ridge(&g, GP_FP32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 0.0, 0);
}
END_TEST

START_TEST(vector_add_rtx4090_fp32)
{
    gp_gpu g = rtx4090();
    gp_roofline_params p;
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_roofline r;
    gp_kernel_shape_init(&s);
    s.n = 1e6; /* fp32: e = 4 */
    c = kernel_ok("vector-add", &s);
    /* Row 2: 1 FLOP per element, 2 reads + 1 write of 4 B = 12 B. */
    GP_ASSERT_REL(c.flop, 1e6, 1e-12);
    GP_ASSERT_REL(c.bytes, 12e6, 1e-12);
    gp_roofline_params_init(&p);
    r = eval_ok(&g, &p, c.flop, c.bytes);
    GP_ASSERT_REL(r.intensity, 1.0 / 12.0, 1e-12);
    ck_assert_int_eq(r.pipeline, GP_PIPE_CUDA);
    ck_assert_int_eq(r.compute_bound, 0);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_DEVICE);
    /* 81.944 x 12 = 983.3 x below the ridge ("three orders of magnitude"). */
    GP_ASSERT_REL(r.below_ridge, 983.333, 1e-5);
    GP_ASSERT_REL(r.critical, 81.9444, 1e-5);
    /* attainable = 1008e9 / 12 = 84 GFLOP/s; time = 12e6 / 1008e9 = 11.905 us. */
    GP_ASSERT_REL(r.attainable, 84e9, 1e-12);
    GP_ASSERT_REL(r.time, 11.9048e-6, 1e-5);
    ck_assert_int_eq(r.ledger.binding, GP_ACCT_MEMORY);
    GP_ASSERT_REL(r.ledger.total, r.time, 1e-15);
    /* compute time 1e6 / 82.6e12 = 12.107 ns; margin 11.905e-6/12.107e-9 = 983.3. */
    GP_ASSERT_REL(r.ledger.t[GP_ACCT_COMPUTE], 12.1065e-9, 1e-4);
    GP_ASSERT_REL(r.ledger.margin, 983.333, 1e-5);
    /* Expected: 0.9 x 1008e9 = 907.2e9 B/s -> 12e6 / 907.2e9 = 13.228 us;
     * attainable 907.2e9 / 12 = 75.6e9. */
    GP_ASSERT_REL(r.time_expected, 13.2275e-6, 1e-4);
    GP_ASSERT_REL(r.attainable_expected, 75.6e9, 1e-12);
    ck_assert_str_eq(r.roofs[GP_ROOF_DEVICE].src, "nv_ada_wp");
    ck_assert_str_eq(r.roofs[GP_ROOF_DEVICE].src_expected, "test");
    ck_assert_str_eq(r.peak_src, "nv_ada_wp");
}
END_TEST

START_TEST(h100_bf16_tensor_ridge_and_sparsity)
{
    gp_gpu g = h100();
    gp_roofline_params p;
    gp_roofline r;
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    /* Default pipeline for bf16 on H100 is the Tensor Core one. */
    r = eval_ok(&g, &p, 1e12, 1e9);
    ck_assert_int_eq(r.pipeline, GP_PIPE_TENSOR);
    /* Row 9: 989.4e12 / 3.35e12 = 295.34 FLOP/B. */
    GP_ASSERT_REL(r.critical, 295.343, 1e-5);
    GP_ASSERT_REL(r.peak, 989.4e12, 1e-12);
    /* --sparse doubles the tensor peak: 1978.8e12, ridge 590.69. */
    p.sparse = 1;
    r = eval_ok(&g, &p, 1e12, 1e9);
    GP_ASSERT_REL(r.peak, 1978.8e12, 1e-12);
    GP_ASSERT_REL(r.critical, 590.687, 1e-5);
    /* Expected (0.8 efficiency) scales the same way: 0.8 x 1978.8e12. */
    GP_ASSERT_REL(r.peak_expected, 1583.04e12, 1e-9);
    /* CUDA-core bf16: 133.8e12 / 3.35e12 = 39.94. */
    p.sparse = 0;
    p.pipeline = GP_PIPE_CUDA;
    r = eval_ok(&g, &p, 1e12, 1e9);
    GP_ASSERT_REL(r.critical, 39.9403, 1e-5);
}
END_TEST

START_TEST(geforce_fp32_accumulate_half_rate)
{
    gp_gpu g = rtx4090();
    gp_roofline_params p;
    gp_roofline r32, r16;
    gp_roofline_params_init(&p);
    p.precision = GP_FP16;
    p.pipeline = GP_PIPE_TENSOR;
    r32 = eval_ok(&g, &p, 1e12, 1e9);
    p.accum = GP_ACC_FP16;
    r16 = eval_ok(&g, &p, 1e12, 1e9);
    /* 165.2 with fp32 accumulate vs 330.3 with fp16 accumulate. */
    GP_ASSERT_REL(r32.peak, 165.2e12, 1e-12);
    GP_ASSERT_REL(r16.peak, 330.3e12, 1e-12);
    GP_ASSERT_REL(r32.peak / r16.peak, 0.50015, 1e-4);
    ck_assert_str_eq(r16.peak_src, "nv_ada_wp fp16acc");
    /* Ridges: 165.2e12/1008e9 = 163.89; 330.3e12/1008e9 = 327.68. */
    GP_ASSERT_REL(r32.critical, 163.889, 1e-5);
    GP_ASSERT_REL(r16.critical, 327.679, 1e-5);
}
END_TEST

/* fp16 accumulate exists for fp16 (and fp8) Tensor Core MMA only.  bf16
 * with --accumulate fp16 used to be priced at the bf16 fp32-accumulate
 * rate (165.2 TFLOPS on the 4090) while labelled "fp16 accumulate"; fp32
 * on CUDA cores likewise.  Now refused, naming "accumulate". */
START_TEST(fp16_accumulate_only_for_fp16_tensor)
{
    gp_gpu g = rtx4090();
    gp_roofline_params p;
    gp_roofline r;
    gp_err e;
    gp_roofline_params_init(&p);
    p.accum = GP_ACC_FP16;
    p.precision = GP_BF16;
    p.pipeline = GP_PIPE_TENSOR;
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1e12, 1e9, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "accumulate");
    p.precision = GP_FP16;
    p.pipeline = GP_PIPE_CUDA;
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1e12, 1e9, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "accumulate");
    /* fp16 on tensor cores keeps its 330.3 TFLOPS fp16-accumulate row. */
    p.pipeline = GP_PIPE_TENSOR;
    r = eval_ok(&g, &p, 1e12, 1e9);
    GP_ASSERT_REL(r.peak, 330.3e12, 1e-12);
}
END_TEST

/* ---- GEMM and GEMV ------------------------------------------------------- */

START_TEST(gemm_4096_bf16_h100_compute_bound)
{
    gp_gpu g = h100();
    gp_roofline_params p;
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_roofline r;
    gp_kernel_shape_init(&s);
    s.m = s.n = s.k = 4096;
    s.elem_bytes = 2; /* bf16 */
    c = kernel_ok("gemm", &s);
    /* FLOP = 2 x 4096^3 = 137,438,953,472; bytes = 3 x 4096^2 x 2 =
     * 100,663,296; I = 2 x 4096 / 6 = 1365.33 > 295.34. */
    GP_ASSERT_REL(c.flop, 137438953472.0, 1e-12);
    GP_ASSERT_REL(c.bytes, 100663296.0, 1e-12);
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    r = eval_ok(&g, &p, c.flop, c.bytes);
    GP_ASSERT_REL(r.intensity, 1365.333, 1e-6);
    ck_assert_int_eq(r.compute_bound, 1);
    ck_assert_int_eq(r.ledger.binding, GP_ACCT_COMPUTE);
    /* time = 137.439e9 / 989.4e12 = 138.911 us; attainable = peak. */
    GP_ASSERT_REL(r.time, 138.911e-6, 1e-5);
    GP_ASSERT_REL(r.attainable, 989.4e12, 1e-12);
    /* below_ridge = 295.34 / 1365.33 = 0.21631 (< 1: above the ridge). */
    GP_ASSERT_REL(r.below_ridge, 0.216316, 1e-4);
    /* Expected: 0.8 x 989.4e12 = 791.52e12 -> 173.639 us. */
    GP_ASSERT_REL(r.time_expected, 173.639e-6, 1e-5);

    /* With C accumulated (beta != 0): + M N reads and 2 M N FLOP:
     * bytes = 4 x 4096^2 x 2 = 134,217,728; FLOP = 137,438,953,472 + 33,554,432. */
    s.beta = 1;
    c = kernel_ok("gemm", &s);
    GP_ASSERT_REL(c.bytes, 134217728.0, 1e-12);
    GP_ASSERT_REL(c.flop, 137472507904.0, 1e-12);
}
END_TEST

START_TEST(gemm_tiling_changes_bytes)
{
    gp_gpu g = h100();
    gp_roofline_params p;
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_roofline r;
    gp_kernel_shape_init(&s);
    s.m = s.n = s.k = 4096;
    s.elem_bytes = 2;
    /* 128 x 128 tiles: A re-read 4096/128 = 32 times, B 32 times, C once:
     * (32 + 32 + 1) x 4096^2 x 2 = 2,181,038,080 B; I = 137.44e9 / 2.181e9 =
     * 63.015 -- below H100's 295.3, so this tiling is memory-bound. */
    s.tile = 128;
    c = kernel_ok("gemm", &s);
    GP_ASSERT_REL(c.bytes, 2181038080.0, 1e-12);
    GP_ASSERT_REL(c.bytes_ideal, 100663296.0, 1e-12);
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    r = eval_ok(&g, &p, c.flop, c.bytes);
    GP_ASSERT_REL(r.intensity, 63.0154, 1e-5);
    ck_assert_int_eq(r.compute_bound, 0);
    /* A tile as large as the matrix is ideal reuse again. */
    s.tile = 4096;
    c = kernel_ok("gemm", &s);
    GP_ASSERT_REL(c.bytes, 100663296.0, 1e-12);
    /* Partial tiles: M = N = 100, K = 10, T = 64 -> ceil(100/64) = 2 passes:
     * (100x10x2 + 10x100x2 + 100x100) x 4 = (2000+2000+10000) x 4 = 56,000. */
    s.m = s.n = 100;
    s.k = 10;
    s.tile = 64;
    s.elem_bytes = 4;
    c = kernel_ok("gemm", &s);
    GP_ASSERT_REL(c.bytes, 56000.0, 1e-12);
}
END_TEST

START_TEST(gemv_1x4096x4096_memory_bound)
{
    gp_gpu g = h100();
    gp_roofline_params p;
    gp_kernel_shape s;
    gp_kernel_counts c, cv;
    gp_roofline r;
    /* As a GEMM with M = 1: FLOP = 2 x 4096^2 = 33,554,432; bytes =
     * (1x4096 + 4096x4096 + 1x4096) x 2 = 33,570,816; I = 0.99951 FLOP/B. */
    gp_kernel_shape_init(&s);
    s.m = 1;
    s.n = s.k = 4096;
    s.elem_bytes = 2;
    c = kernel_ok("gemm", &s);
    GP_ASSERT_REL(c.flop, 33554432.0, 1e-12);
    GP_ASSERT_REL(c.bytes, 33570816.0, 1e-12);
    /* The gemv kernel (A is 4096 x 4096) counts the same. */
    gp_kernel_shape_init(&s);
    s.m = s.n = 4096;
    s.elem_bytes = 2;
    cv = kernel_ok("gemv", &s);
    GP_ASSERT_REL(cv.flop, c.flop, 1e-12);
    GP_ASSERT_REL(cv.bytes, c.bytes, 1e-12);
    /* ... and so does gemv written in GEMM sizes, 1 x 4096 x 4096. */
    s.m = 1;
    s.k = 4096;
    cv = kernel_ok("gemv", &s);
    GP_ASSERT_REL(cv.bytes, c.bytes, 1e-12);
    {
        gp_err e;
        gp_kernel_counts bad;
        s.m = 2;
        ck_assert_int_eq(gp_kernel_eval(gp_kernel_find("gemv"), &s, &bad, &e), GP_EINVAL);
        s.m = 4096;
        s.k = 0;
    }
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    r = eval_ok(&g, &p, c.flop, c.bytes);
    GP_ASSERT_REL(r.intensity, 0.999512, 1e-5);
    ck_assert_int_eq(r.compute_bound, 0);
    /* 295.343 / 0.999512 = 295.487 x below the ridge; time = 33,570,816 /
     * 3.35e12 = 10.021 us; attainable = 0.999512 x 3.35e12 = 3.3484e12. */
    GP_ASSERT_REL(r.below_ridge, 295.487, 1e-5);
    GP_ASSERT_REL(r.time, 10.0211e-6, 1e-4);
    GP_ASSERT_REL(r.attainable, 3.34837e12, 1e-5);
}
END_TEST

/* ---- other kernels ------------------------------------------------------- */

START_TEST(axpy_layernorm_softmax)
{
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_kernel_shape_init(&s);
    /* axpy fp64, n = 1000: 2000 FLOP, 3 x 1000 x 8 = 24,000 B, I = 1/12. */
    s.n = 1000;
    s.elem_bytes = 8;
    c = kernel_ok("axpy", &s);
    GP_ASSERT_REL(c.flop, 2000.0, 1e-12);
    GP_ASSERT_REL(c.bytes, 24000.0, 1e-12);
    /* layernorm fp16, 1024 rows of 4096: 8 x 1024 x 4096 = 33,554,432 FLOP;
     * (2 x 1024 x 4096 + 2 x 4096) x 2 = 16,793,600 B. */
    s.m = 1024;
    s.n = 4096;
    s.elem_bytes = 2;
    c = kernel_ok("layernorm", &s);
    GP_ASSERT_REL(c.flop, 33554432.0, 1e-12);
    GP_ASSERT_REL(c.bytes, 16793600.0, 1e-12);
    /* softmax fp32, 1 row (m omitted) of 1000: 5000 FLOP; 2 x 1000 x 4 = 8000 B. */
    gp_kernel_shape_init(&s);
    s.n = 1000;
    c = kernel_ok("softmax", &s);
    GP_ASSERT_REL(c.flop, 5000.0, 1e-12);
    GP_ASSERT_REL(c.bytes, 8000.0, 1e-12);
}
END_TEST

START_TEST(attention_naive_vs_flash)
{
    gp_gpu g = h100();
    gp_roofline_params p;
    gp_kernel_shape s;
    gp_kernel_counts naive, flash;
    gp_roofline rn, rf;
    gp_kernel_shape_init(&s);
    /* One head, S = 4096, D = 128, bf16.
     * FLOP = 4 S^2 D + 5 S^2 = 8,589,934,592 + 83,886,080 = 8,673,820,672.
     * naive bytes = (4 S D + 4 S^2) x 2 = (2,097,152 + 67,108,864) x 2 = 138,412,032.
     * flash bytes = 4 S D x 2 = 4,194,304. */
    s.n = 4096;
    s.k = 128;
    s.elem_bytes = 2;
    naive = kernel_ok("attention", &s);
    flash = kernel_ok("flash-attention", &s);
    GP_ASSERT_REL(naive.flop, 8673820672.0, 1e-12);
    GP_ASSERT_REL(flash.flop, naive.flop, 1e-12);
    GP_ASSERT_REL(naive.bytes, 138412032.0, 1e-12);
    GP_ASSERT_REL(flash.bytes, 4194304.0, 1e-12);
    GP_ASSERT_REL(flash.bytes_unfused, naive.bytes, 1e-12);
    /* On H100 bf16: naive I = 62.67 (memory-bound), flash I = 2068 (compute). */
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    rn = eval_ok(&g, &p, naive.flop, naive.bytes);
    rf = eval_ok(&g, &p, flash.flop, flash.bytes);
    GP_ASSERT_REL(rn.intensity, 62.6666, 1e-5);
    GP_ASSERT_REL(rf.intensity, 2068.0, 1e-5);
    ck_assert_int_eq(rn.compute_bound, 0);
    ck_assert_int_eq(rf.compute_bound, 1);
    /* Query tiles of 128 rows: K and V re-read 4096/128 = 32 times:
     * (2 S D + 2 S D x 32) x 2 = 66 x 524,288 x 2 = 69,206,016 B. */
    s.tile = 128;
    flash = kernel_ok("flash-attention", &s);
    GP_ASSERT_REL(flash.bytes, 69206016.0, 1e-12);
    GP_ASSERT_REL(flash.bytes_ideal, 4194304.0, 1e-12);
    /* 32 heads: everything x 32. */
    s.tile = 0;
    s.m = 32;
    naive = kernel_ok("attention-naive", &s);
    GP_ASSERT_REL(naive.bytes, 32.0 * 138412032.0, 1e-12);
}
END_TEST

START_TEST(fused_chain_saves_round_trips)
{
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_kernel_shape_init(&s);
    /* 4 chained fp32 adds over 1e6 elements: FLOP 4e6; unfused 3 x 4 x 1e6 x 4
     * = 48e6 B; fused reads 5 inputs and writes 1: 6 x 1e6 x 4 = 24e6 B (2x). */
    s.n = 1e6;
    s.chain = 4;
    c = kernel_ok("fused", &s);
    GP_ASSERT_REL(c.flop, 4e6, 1e-12);
    GP_ASSERT_REL(c.bytes, 24e6, 1e-12);
    GP_ASSERT_REL(c.bytes_unfused, 48e6, 1e-12);
    /* A chain of one is a vector add. */
    s.chain = 1;
    c = kernel_ok("fused", &s);
    GP_ASSERT_REL(c.bytes, 12e6, 1e-12);
    GP_ASSERT_REL(c.bytes_unfused, 12e6, 1e-12);
}
END_TEST

START_TEST(kernel_sizes_whole)
{
    /* Sizes count elements (and tiles, kernels in a chain): 4.5 rows or a
     * chain of 2.5 kernels is a typo, refused rather than priced (a 4.5 x 4 x
     * 4 GEMM would be 2 x 4.5 x 16 = 144 FLOP). 1.5K = 1500 is whole. */
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_err e;
    gp_kernel_shape_init(&s);
    s.m = 4.5;
    s.n = s.k = 4;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_kernel_eval(gp_kernel_find("gemm"), &s, &c, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "m");
    s.m = 1.5e3;
    c = kernel_ok("gemm", &s);
    GP_ASSERT_REL(c.flop, 2.0 * 1500 * 4 * 4, 0);
    s.tile = 2.5;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_kernel_eval(gp_kernel_find("gemm"), &s, &c, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "tile");
    gp_kernel_shape_init(&s);
    s.n = 1e6;
    s.chain = 2.5;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_kernel_eval(gp_kernel_find("fused"), &s, &c, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "chain");
}
END_TEST

/* ---- hierarchical roofs ---------------------------------------------------- */

START_TEST(host_link_binds)
{
    gp_gpu g = rtx4090();
    gp_link l = pcie4();
    gp_roofline_params p;
    gp_roofline r;
    gp_roofline_params_init(&p);
    p.data = GP_ROOF_HOST;
    p.host_link = &l;
    /* fp32 vector add of 1e6 elements from host memory: 12e6 B over
     * 31.5e9 B/s = 380.95 us (vs 11.9 us from device memory); the ridge
     * against PCIe is 82.6e12 / 31.5e9 = 2622.2. */
    r = eval_ok(&g, &p, 1e6, 12e6);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_HOST);
    ck_assert_int_eq(r.ledger.binding, GP_ACCT_MOVEMENT);
    GP_ASSERT_REL(r.time, 380.952e-6, 1e-5);
    GP_ASSERT_REL(r.critical, 2622.22, 1e-5);
    GP_ASSERT_REL(r.ledger.t[GP_ACCT_MEMORY], 11.9048e-6, 1e-4);
    ck_assert_int_eq(r.roofs[GP_ROOF_DEVICE].on_path, 1);
    ck_assert_int_eq(r.roofs[GP_ROOF_PEER].on_path, 0);
    /* Expected: 25 GB/s achieved -> 480 us. */
    GP_ASSERT_REL(r.time_expected, 480e-6, 1e-12);
    ck_assert_int_eq(r.binding_roof_expected, GP_ROOF_HOST);
    /* Device data ignores the link even when given. */
    p.data = GP_ROOF_DEVICE;
    r = eval_ok(&g, &p, 1e6, 12e6);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_DEVICE);
    GP_ASSERT_REL(r.ledger.t[GP_ACCT_MOVEMENT], 0.0, 0);
}
END_TEST

START_TEST(host_link_calibrated)
{
    gp_gpu g = rtx4090();
    gp_link l = pcie4(), other = pcie4();
    gp_roofline_params p;
    gp_roofline r;
    g.host_link = "pcie4-x16";
    g.calibration = "calib test.yaml 2026-12-01";
    /* calib import: pinned host-to-device copies at 20 GB/s on this card. */
    g.meas_h2d_bw.v = 20e9;
    gp_roofline_params_init(&p);
    p.data = GP_ROOF_HOST;
    p.host_link = &l;
    /* 12e6 B from host memory: ceiling 12e6 / 31.5e9 = 380.95 us as before;
     * expected at the measured 20 GB/s, not the link's 25: 12e6 / 20e9 =
     * 600 us. */
    r = eval_ok(&g, &p, 1e6, 12e6);
    GP_ASSERT_REL(r.time, 12e6 / 31.5e9, 1e-12);
    GP_ASSERT_REL(r.roofs[GP_ROOF_HOST].bw_expected, 20e9, 0);
    GP_ASSERT_REL(r.time_expected, 600e-6, 1e-12);
    ck_assert_str_eq(r.roofs[GP_ROOF_HOST].src_expected, "calib test.yaml 2026-12-01");
    /* Another link (--link) is not the one measured: its own figure. */
    other.id = "pcie5-x16";
    other.bw.v = 63e9;
    other.bw_achievable.v = 53e9;
    p.host_link = &other;
    r = eval_ok(&g, &p, 1e6, 12e6);
    GP_ASSERT_REL(r.roofs[GP_ROOF_HOST].bw_expected, 53e9, 0);
}
END_TEST

START_TEST(peer_link_binds)
{
    gp_gpu g = h100();
    gp_link l = nvlink4();
    gp_roofline_params p;
    gp_roofline r;
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    p.data = GP_ROOF_PEER;
    p.peer_link = &l;
    /* 1 GB read from the peer over 450 GB/s: 2.222 ms; ridge 989.4e12/450e9 = 2198.7. */
    r = eval_ok(&g, &p, 1e9, 1e9);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_PEER);
    GP_ASSERT_REL(r.time, 2.22222e-3, 1e-5);
    GP_ASSERT_REL(r.critical, 2198.67, 1e-5);
    /* Expected: 370 GB/s -> 2.7027 ms. */
    GP_ASSERT_REL(r.time_expected, 2.7027e-3, 1e-4);
    {
        /* One peer of a point-to-point mesh is one of its links: MI300X
         * xGMI, 448 GB/s over 7 peers = 64 GB/s (48 achievable, rccl#1210):
         * 1 GB in 15.625 ms (20.833 ms expected). */
        const gp_link *x = gp_db_find_link(gp_test_db(), "xgmi-mi300x");
        ck_assert_ptr_nonnull(x);
        p.peer_link = x;
        r = eval_ok(&g, &p, 1e9, 1e9);
        ck_assert_int_eq(r.binding_roof, GP_ROOF_PEER);
        GP_ASSERT_REL(r.time, 15.625e-3, 1e-9);
        GP_ASSERT_REL(r.time_expected, 1e9 / 48e9, 1e-9);
    }
}
END_TEST

START_TEST(l2_roof)
{
    gp_gpu g = rtx4090();
    gp_roofline_params p;
    gp_roofline r;
    /* Test figure: L2 at 5 TB/s (not a datasheet claim). */
    g.l2_bw.v = 5e12;
    g.l2_bw.src = "test l2";
    gp_roofline_params_init(&p);
    /* Data from device memory: L2 (5 TB/s) and device (1008 GB/s) are both on
     * the path; the device binds. */
    r = eval_ok(&g, &p, 1e6, 12e6);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_DEVICE);
    ck_assert_int_eq(r.roofs[GP_ROOF_L2].on_path, 1);
    GP_ASSERT_REL(r.roofs[GP_ROOF_L2].time, 2.4e-6, 1e-12);
    /* Resident in L2: 12e6 / 5e12 = 2.4 us; ridge 82.6e12/5e12 = 16.52. */
    p.data = GP_ROOF_L2;
    r = eval_ok(&g, &p, 1e6, 12e6);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_L2);
    ck_assert_int_eq(r.roofs[GP_ROOF_DEVICE].on_path, 0);
    GP_ASSERT_REL(r.time, 2.4e-6, 1e-12);
    GP_ASSERT_REL(r.critical, 16.52, 1e-12);
    ck_assert_str_eq(r.roofs[GP_ROOF_L2].src, "test l2");
    /* No efficiency on the L2 figure (it is a measurement already): 2.4 us. */
    GP_ASSERT_REL(r.time_expected, 2.4e-6, 1e-12);
    ck_assert_str_eq(r.roofs[GP_ROOF_L2].src_expected, "test l2");
    /* A calibrated L2 figure wins. */
    g.meas_l2_bw.v = 4e12;
    r = eval_ok(&g, &p, 1e6, 12e6);
    GP_ASSERT_REL(r.time_expected, 3e-6, 1e-12);
}
END_TEST

START_TEST(calibration_wins_expected)
{
    gp_gpu g = h100();
    gp_roofline_params p;
    gp_roofline r;
    g.meas_mem_bw.v = 2.9e12;
    g.meas_peak[GP_BF16][GP_PIPE_TENSOR].v = 700e12;
    g.calibration = "calib.yaml 2026-01-01";
    gp_roofline_params_init(&p);
    p.precision = GP_BF16;
    /* 1e12 FLOP, 1e9 B: compute 1e12/700e12 = 1.4286 ms; memory 1e9/2.9e12
     * = 0.3448 ms -> expected 1.4286 ms. */
    r = eval_ok(&g, &p, 1e12, 1e9);
    GP_ASSERT_REL(r.bw_expected, 2.9e12, 1e-12);
    GP_ASSERT_REL(r.peak_expected, 700e12, 1e-12);
    GP_ASSERT_REL(r.time_expected, 1.42857e-3, 1e-5);
    ck_assert_str_eq(r.peak_expected_src, "calib.yaml 2026-01-01");
    ck_assert_str_eq(r.roofs[GP_ROOF_DEVICE].src_expected, "calib.yaml 2026-01-01");
}
END_TEST

/* ---- bad input ------------------------------------------------------------- */

START_TEST(bad_input_model)
{
    gp_gpu g = a100(), h = h100();
    gp_roofline_params p;
    gp_roofline r;
    gp_err e;
    gp_roofline_params_init(&p);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1e6, 0.0, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "bytes");
    ck_assert_int_eq(gp_roofline_eval(&g, &p, -1.0, 1.0, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "flop");
    ck_assert_int_eq(gp_roofline_eval(&g, &p, NAN, 1.0, &r, &e), GP_ERANGE);
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1.0, INFINITY, &r, &e), GP_ERANGE);
    /* Both finite, but 1e300 / 1e-300 = 1e600 overflows: refused rather
     * than printing an infinite intensity. */
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1e300, 1e-300, &r, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "bytes");
    /* fp8 on A100: the GPU lacks it. */
    p.precision = GP_FP8;
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1.0, 1.0, &r, &e), GP_EUNSUP);
    ck_assert_str_eq(e.where, "precision");
    ck_assert_ptr_nonnull(strstr(e.msg, "fp8"));
    ck_assert_ptr_nonnull(strstr(e.msg, "a100"));
    /* fp32 on Tensor Cores where only CUDA cores have it: the message says so. */
    p.precision = GP_FP32;
    p.pipeline = GP_PIPE_TENSOR;
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1.0, 1.0, &r, &e), GP_EUNSUP);
    ck_assert_ptr_nonnull(strstr(e.msg, "cuda"));
    /* Sparsity on CUDA cores. */
    p.pipeline = GP_PIPE_CUDA;
    p.sparse = 1;
    ck_assert_int_eq(gp_roofline_eval(&g, &p, 1.0, 1.0, &r, &e), GP_EUNSUP);
    ck_assert_str_eq(e.where, "sparse");
    /* Host data without a link; L2 data without an L2 bandwidth. */
    gp_roofline_params_init(&p);
    p.data = GP_ROOF_HOST;
    ck_assert_int_eq(gp_roofline_eval(&h, &p, 1.0, 1.0, &r, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "data");
    p.data = GP_ROOF_L2;
    ck_assert_int_eq(gp_roofline_eval(&h, &p, 1.0, 1.0, &r, &e), GP_EUNSUP);
    ck_assert_ptr_nonnull(strstr(e.msg, "L2"));
    p.data = (gp_roof_level)9;
    ck_assert_int_eq(gp_roofline_eval(&h, &p, 1.0, 1.0, &r, &e), GP_EINVAL);
    ck_assert_int_eq(gp_roofline_eval(NULL, &p, 1.0, 1.0, &r, &e), GP_EINVAL);
}
END_TEST

START_TEST(bad_input_kernels)
{
    const gp_kernel_desc *k;
    gp_kernel_shape s;
    gp_kernel_counts c;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_kernel_get("conv9d", &k, &e), GP_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(e.msg, "conv9d"));
    ck_assert_ptr_null(gp_kernel_find(NULL));
    ck_assert_ptr_null(gp_kernel_at(gp_kernel_count()));
    ck_assert_int_eq(gp_kernel_get("GEMM", &k, &e), GP_OK);
    gp_kernel_shape_init(&s);
    s.m = s.n = 64;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_EINVAL); /* k missing */
    ck_assert_str_eq(e.where, "k");
    s.k = -3;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "k");
    s.k = 64;
    s.tile = -1;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "tile");
    s.tile = 0;
    s.elem_bytes = 0;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_ERANGE);
    k = gp_kernel_find("vector-add");
    gp_kernel_shape_init(&s);
    s.n = 10;
    s.k = 10; /* vector-add takes no k */
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "k");
    s.k = 0;
    s.tile = 8;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_EINVAL);
    s.tile = 0;
    s.chain = 3;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "chain");
    s.chain = 0;
    s.n = 0;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "n");
    k = gp_kernel_find("fused");
    s.n = 10;
    s.chain = 0.5;
    ck_assert_int_eq(gp_kernel_eval(k, &s, &c, &e), GP_ERANGE);
    /* Names and the table. */
    ck_assert_str_eq(gp_roof_level_name(GP_ROOF_HOST), "host-link");
    ck_assert_str_eq(gp_roof_level_name(GP_ROOF__COUNT), "unknown");
    GP_ASSERT_REL(gp_roofline_elem_bytes(GP_INT4), 0.5, 0);
    GP_ASSERT_REL(gp_roofline_elem_bytes(GP_PREC__COUNT), 0.0, 0);
    ck_assert_uint_ge(gp_kernel_count(), 9);
    ck_assert_ptr_eq(gp_kernel_find("Flash-Attention"), gp_kernel_find("attention-fused"));
    ck_assert_ptr_eq(gp_kernel_find("vector_add"), gp_kernel_find("vector-add"));
    ck_assert_ptr_null(gp_kernel_find("vector-ad"));
    ck_assert_ptr_null(gp_kernel_find("vector-addd"));
}
END_TEST

START_TEST(roof_level_parse)
{
    gp_roof_level l;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_roof_level_parse("HBM", &l, &e), GP_OK);
    ck_assert_int_eq(l, GP_ROOF_DEVICE);
    ck_assert_int_eq(gp_roof_level_parse("peer", &l, &e), GP_OK);
    ck_assert_int_eq(l, GP_ROOF_PEER);
    ck_assert_int_eq(gp_roof_level_parse("disk", &l, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "data");
}
END_TEST


/* ---- the built-in database ------------------------------------------------- */

static const gp_gpu *db_gpu(const char *id)
{
    const gp_gpu *g = gp_db_find_gpu(gp_test_db(), id);
    ck_assert_msg(g != NULL, "GPU %s missing from the built-in database", id);
    return g;
}

START_TEST(db_article_ridges)
{
    const gp_gpu *g4090 = db_gpu("rtx-4090"), *h = db_gpu("h100-sxm"), *a = db_gpu("a100");
    gp_roofline_params p;
    gp_roofline r;
    gp_err e;
    /* Row 1: 82.6e12 / 1008e9 = 81.94 FLOP/B. */
    GP_ASSERT_REL(gp_roofline_ridge(g4090, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 81.944, 1e-3);
    /* Row 9: 989.4e12 / 3.35e12 = 295.3 (the datasheet's 989.5 gives 295.4). */
    GP_ASSERT_REL(gp_roofline_ridge(h, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 295.34, 1e-3);
    GP_ASSERT_REL(gp_roofline_ridge(h, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 590.69, 1e-3);
    /* GeForce: fp16 tensor with fp32 accumulate is half the fp16-accumulate
     * rate: 165.2 vs 330.3 TFLOPS. */
    GP_ASSERT_REL(gp_gpu_peak(g4090, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12, 1e-3);
    GP_ASSERT_REL(gp_gpu_peak(g4090, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 330.3e12, 1e-3);
    /* fp8 on A100: no rate. */
    gp_roofline_params_init(&p);
    p.precision = GP_FP8;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_roofline_eval(a, &p, 1e9, 1e9, &r, &e), GP_EUNSUP);
    ck_assert_ptr_nonnull(strstr(e.msg, "fp8"));
    /* Vector add from host memory on the 4090 binds on its PCIe 4.0 x16 link
     * (31.5 GB/s per direction raw): 12e6 B -> ~381 us. */
    gp_roofline_params_init(&p);
    p.data = GP_ROOF_HOST;
    p.host_link = gp_db_find_link(gp_test_db(), g4090->host_link);
    ck_assert_ptr_nonnull(p.host_link);
    r = eval_ok(g4090, &p, 1e6, 12e6);
    ck_assert_int_eq(r.binding_roof, GP_ROOF_HOST);
    ck_assert_int_eq(r.ledger.binding, GP_ACCT_MOVEMENT);
    GP_ASSERT_REL(r.time, 12e6 / p.host_link->bw.v, 1e-12);
    ck_assert(r.time > 300e-6 && r.time < 500e-6);
    /* Expected: host copies on a 4090 run at the plain PCIe 4.0 x16
     * achievable 25 GB/s (nvbandwidth CE 23.9-27.1 GB/s on an RTX 4090),
     * not the 13 GB/s of GPU-to-GPU traffic staged through host memory:
     * 12e6 / 25e9 = 480 us. */
    GP_ASSERT_REL(r.time_expected, 12e6 / 25e9, 1e-12);
    /* Expected figures never beat the ceilings. */
    ck_assert(r.time_expected >= r.time);
    ck_assert(r.attainable_expected <= r.attainable);
}
END_TEST

static const char *jstr(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_string(v), "key %s missing or not a string", key);
    return json_string_value(v);
}

START_TEST(cli_vector_add_4090)
{
    const char *argv[] = {"--json", "roofline", "--gpu", "4090", "--precision", "fp32",
                          "--kernel", "vector-add", "--n", "1000000", NULL};
    json_t *j = gp_test_cli_json(argv);
    /* 1/12 FLOP/B; ridge 81.94; 983x below; attainable 1008e9/12 = 84e9;
     * time 12e6 / 1008e9 = 11.9 us. */
    GP_ASSERT_REL(gp_test_jnum(j, "intensity"), 1.0 / 12.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "critical_intensity"), 81.944, 1e-3);
    GP_ASSERT_REL(gp_test_jnum(j, "below_ridge_factor"), 983.33, 1e-3);
    GP_ASSERT_REL(gp_test_jnum(j, "peak_flop_per_s"), 82.6e12, 1e-3);
    GP_ASSERT_REL(gp_test_jnum(j, "peak_bytes_per_s"), 1008e9, 1e-3);
    GP_ASSERT_REL(gp_test_jnum(j, "attainable_flop_per_s"), 84e9, 1e-3);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 11.905e-6, 1e-3);
    ck_assert_str_eq(jstr(j, "bound"), "memory");
    ck_assert_str_eq(jstr(j, "binding_roof"), "device");
    ck_assert(gp_test_jnum(j, "expected_time_s") >= gp_test_jnum(j, "time_s"));
    ck_assert(gp_test_jnum(j, "expected_attainable_flop_per_s") <= gp_test_jnum(j, "attainable_flop_per_s"));
    ck_assert_str_eq(jstr(json_object_get(j, "ledger"), "binding"), "memory");
    json_decref(j);
}
END_TEST

/* A measured vector add: 1e8 elements, 1.2e9 B, 1e8 FLOP on the RTX 4090 in
 * 1.5 ms.  Ceiling 1.2e9 / 1008e9 = 1.19048 ms: 79.4 % of the best speed;
 * achieved 1.2e9 / 1.5e-3 = 800 GB/s and 1e8 / 1.5e-3 = 66.7 GFLOP/s; the
 * memory roof 79.4 % busy (saturated, >= 70 %), but the expected 1.2e9 /
 * (1008e9 x 0.96) = 1.24008 ms x 1.15 = 1.426 ms < 1.5 ms: slower, and the
 * advice is to measure the achievable bandwidth. */
START_TEST(cli_measured_vector_add)
{
    const char *argv[] = {"--json", "roofline", "--gpu", "4090", "--precision", "fp32",
                          "--kernel", "vector-add", "--n", "100M", "--measured", "1.5ms", NULL};
    json_t *j = gp_test_cli_json(argv), *d;
    d = json_object_get(j, "diagnosis");
    ck_assert_ptr_nonnull(d);
    GP_ASSERT_REL(gp_test_jnum(d, "of_ceiling"), 1.2e9 / 1008e9 / 1.5e-3, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(d, "achieved_bytes_per_s"), 800e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(d, "achieved_flop_per_s"), 1e8 / 1.5e-3, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(d, "expected_s"), 1.2e9 / (1008e9 * 0.96), 1e-6);
    ck_assert(json_is_true(json_object_get(d, "saturated")));
    ck_assert_str_eq(jstr(d, "verdict"), "slower");
    ck_assert_ptr_nonnull(strstr(jstr(d, "advice"), "gpuplan calib"));
    json_decref(j);
}
END_TEST

START_TEST(cli_gemm_and_gemv_h100)
{
    const char *gemm[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                          "--kernel", "gemm", "--m", "4096", "--n", "4096", "--k", "4096", NULL};
    const char *gemv[] = {"--json", "roofline", "--gpu", "h100-sxm", "--precision", "bf16",
                          "--kernel", "gemm", "--m", "1", "--n", "4096", "--k", "4096", NULL};
    const char *sparse[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                            "--sparse", "--flop", "1e12", "--bytes", "1e9", NULL};
    json_t *j = gp_test_cli_json(gemm);
    /* I = 2 x 4096^3 / (3 x 4096^2 x 2) = 1365.3 > 295.3: compute-bound;
     * time = 137.44e9 / 989.4e12 = 138.9 us. */
    GP_ASSERT_REL(gp_test_jnum(j, "intensity"), 1365.333, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "critical_intensity"), 295.34, 1e-3);
    ck_assert_str_eq(jstr(j, "bound"), "compute");
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 138.91e-6, 1e-3);
    ck_assert_str_eq(jstr(j, "pipeline"), "tensor");
    json_decref(j);
    j = gp_test_cli_json(gemv);
    /* I = 33,554,432 / 33,570,816 = 0.9995 FLOP/B: memory-bound. */
    GP_ASSERT_REL(gp_test_jnum(j, "intensity"), 0.999512, 1e-5);
    ck_assert_str_eq(jstr(j, "bound"), "memory");
    json_decref(j);
    j = gp_test_cli_json(sparse);
    /* --sparse doubles the tensor peak: 2 x 989.4e12. */
    GP_ASSERT_REL(gp_test_jnum(j, "peak_flop_per_s"), 1978.8e12, 1e-3);
    json_decref(j);
}
END_TEST

START_TEST(cli_accumulate_and_host_data)
{
    const char *acc32[] = {"--json", "roofline", "--gpu", "rtx-4090", "--precision", "fp16",
                           "--pipeline", "tensor", "--flop", "1e12", "--bytes", "1GB", NULL};
    const char *acc16[] = {"--json", "roofline", "--gpu", "rtx-4090", "--precision", "fp16",
                           "--pipeline", "tensor", "--accumulate", "fp16", "--flop", "1e12",
                           "--bytes", "1GB", NULL};
    const char *host[] = {"--json", "roofline", "--gpu", "rtx-4090", "--precision", "fp32",
                          "--kernel", "vector-add", "--n", "1000000", "--data", "host", NULL};
    const char *q4[] = {"--json", "roofline", "--gpu", "rtx-4090", "--precision", "fp16",
                        "--kernel", "gemv", "--m", "4096", "--n", "4096", "--dtype", "q4_0",
                        NULL};
    json_t *j = gp_test_cli_json(acc32);
    GP_ASSERT_REL(gp_test_jnum(j, "peak_flop_per_s"), 165.2e12, 1e-3);
    json_decref(j);
    j = gp_test_cli_json(acc16);
    GP_ASSERT_REL(gp_test_jnum(j, "peak_flop_per_s"), 330.3e12, 1e-3);
    json_decref(j);
    const char *softmax[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                             "--kernel", "softmax", "--m", "4096", "--n", "4096", NULL};
    j = gp_test_cli_json(softmax);
    /* An elementwise/reduction kernel runs on CUDA cores: H100 bf16 133.8 TFLOPS. */
    ck_assert_str_eq(jstr(j, "pipeline"), "cuda");
    GP_ASSERT_REL(gp_test_jnum(j, "peak_flop_per_s"), 133.8e12, 1e-3);
    json_decref(j);
    j = gp_test_cli_json(host);
    ck_assert_str_eq(jstr(j, "binding_roof"), "host-link");
    ck_assert_str_eq(jstr(json_object_get(j, "ledger"), "binding"), "movement");
    json_decref(j);
    /* A quantised storage format as the element type: Q4_0 stores 32 weights
     * in 18 bytes (4.5 bits), so a 4096 x 4096 GEMV moves
     * (4096^2 + 2 x 4096) x 4.5 / 8 = 16,785,408 x 0.5625 = 9,441,792 B. */
    j = gp_test_cli_json(q4);
    GP_ASSERT_REL(gp_test_jnum(j, "total_bytes"), 9441792.0, 1e-9);
    /* ... and says which e it used: 4.5 / 8 = 0.5625 B per element. */
    GP_ASSERT_REL(gp_test_jnum(j, "element_bytes"), 0.5625, 0);
    json_decref(j);
}
END_TEST

START_TEST(cli_peer_and_link_override)
{
    const char *peer[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                          "--flop", "1e9", "--bytes", "1GB", "--data", "peer", NULL};
    const char *host[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                          "--flop", "1e9", "--bytes", "1GB", "--data", "host", "--link",
                          "pcie4-x16", NULL};
    json_t *j = gp_test_cli_json(peer);
    /* H100 SXM reads a peer over NVLink 4 at 450 GB/s per direction:
     * 1e9 B / 450e9 = 2.222 ms. */
    ck_assert_str_eq(jstr(j, "binding_roof"), "peer-link");
    GP_ASSERT_REL(gp_test_jnum(j, "peak_bytes_per_s"), 450e9, 1e-3);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 2.2222e-3, 1e-3);
    json_decref(j);
    /* --link overrides the GPU's own host link (PCIe 5.0) with PCIe 4.0:
     * 31.5 GB/s -> 31.7 ms. */
    j = gp_test_cli_json(host);
    ck_assert_str_eq(jstr(j, "binding_roof"), "host-link");
    GP_ASSERT_REL(gp_test_jnum(j, "peak_bytes_per_s"), 31.5e9, 1e-3);
    json_decref(j);
}
END_TEST

START_TEST(cli_table_and_help)
{
    const char *table[] = {"roofline", "--gpu", "4090", "--precision", "fp32", "--kernel",
                           "fused", "--n", "1000000", "--chain", "4", NULL};
    const char *help[] = {"roofline", "--help", NULL};
    char *out = NULL;
    ck_assert_int_eq(gp_test_cli(table, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "memory"));
    ck_assert_ptr_nonnull(strstr(out, "ledger"));
    ck_assert_ptr_nonnull(strstr(out, "fusion saves 2.00x"));
    ck_assert_ptr_nonnull(strstr(out, "datasheet:"));
    ck_assert_ptr_nonnull(strstr(out, "491.7x below the ridge"));
    free(out);
    ck_assert_int_eq(gp_test_cli(help, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: gpuplan roofline"));
    ck_assert_ptr_nonnull(strstr(out, "flash-attention"));
    free(out);
}
END_TEST

/* gemm --beta reads C and adds it: 1024^3 bf16, F = 2 x 1024^3 + 2 x 1024^2
 * = 2,149,580,800, Q = (3 + 1) x 1024^2 x 2 B = 8,388,608 B
 * (docs/models/roofline.md 4).  The formulas printed beside the numbers
 * must carry the --beta terms the numbers include. */
START_TEST(cli_gemm_beta_formula)
{
    const char *table[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--kernel",
                           "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--beta", NULL};
    const char *js[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                        "--kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024",
                        "--beta", NULL};
    char *out = NULL, *flop, *bytes;
    json_t *j = gp_test_cli_json(js);
    GP_ASSERT_REL(gp_test_jnum(j, "total_flop"), 2149580800.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "total_bytes"), 8388608.0, 1e-12);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(table, &out, NULL), 0);
    flop = strstr(out, "\n  FLOPs");
    bytes = strstr(out, "\n  bytes");
    ck_assert_ptr_nonnull(flop);
    ck_assert_ptr_nonnull(bytes);
    *bytes = '\0';
    ck_assert_msg(strstr(flop, "--beta: + 2*M*N") != NULL, "%s", flop);
    *strchr(bytes + 1, '\n') = '\0';
    ck_assert_msg(strstr(bytes + 1, "--beta: + M*N*e") != NULL, "%s", bytes + 1);
    free(out);
}
END_TEST

/* A huge ledger margin prints in 3 significant digits, not 25.  1e27
 * FLOP (--flop's largest) over 1 byte on the H100 (bf16 tensor 989.4
 * TFLOP/s, 3.35 TB/s): ceiling compute / memory = (1e27 / 989.4e12) /
 * (1 / 3.35e12) = 3.3859e24 -> "3.39e24x" (docs/units.md: no '+'); expected (80 % peak = 791.52
 * TFLOP/s, 92 % bandwidth = 3.082 TB/s): 1e27 x 3.082e12 / 791.52e12 =
 * 3.8938e24. */
START_TEST(cli_huge_margin)
{
    const char *argv[] = {"roofline", "--gpu", "h100-sxm", "--precision", "bf16", "--flop",
                          "1e27", "--bytes", "1", NULL};
    char *out = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
    ck_assert_msg(strstr(out, "compute binds by 3.39e24x over the next account") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "compute binds by 3.89e24x over the next account") != NULL,
                  "%s", out);
    free(out);
}
END_TEST

/* Exit 2 and a message on stderr that contains `needle`. */
static void cli_bad(const char *const *argv, const char *needle)
{
    char *err = NULL;
    int rc = gp_test_cli(argv, NULL, &err);
    ck_assert_msg(rc == 2, "exit %d for %s %s", rc, argv[1], argv[3]);
    ck_assert_msg(err != NULL && strstr(err, needle) != NULL, "stderr lacks '%s': %s", needle,
                  err ? err : "");
    free(err);
}

START_TEST(cli_bad_input)
{
    const char *gpu[] = {"roofline", "--gpu", "rtx-9999", "--precision", "fp32", "--flop",
                         "1", "--bytes", "1", NULL};
    const char *prec[] = {"roofline", "--gpu", "h100", "--precision", "fp7", "--flop", "1",
                          "--bytes", "1", NULL};
    const char *fp8[] = {"roofline", "--gpu", "a100", "--precision", "fp8", "--flop", "1",
                         "--bytes", "1", NULL};
    const char *kern[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--kernel",
                          "conv9d", "--n", "4", NULL};
    const char *zero_n[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--kernel",
                            "vector-add", "--n", "0", NULL};
    const char *neg_k[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--kernel",
                           "gemm", "--m", "4", "--n", "4", "--k", "-4", NULL};
    const char *no_k[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--kernel",
                          "gemm", "--m", "4", "--n", "4", NULL};
    const char *bytes0[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop",
                            "1e9", "--bytes", "0", NULL};
    const char *flop0[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop", "0",
                           "--bytes", "1e9", NULL};
    const char *both[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop", "1",
                          "--bytes", "1", "--kernel", "gemv", NULL};
    const char *ext[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop", "1",
                         "--bytes", "1", "--plot", "/tmp/x.jpg", NULL};
    const char *size[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop", "1",
                          "--bytes", "1", "--plot", "/tmp/x.png", "--plot-size", "640", NULL};
    const char *data[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop", "1",
                          "--bytes", "1", "--data", "tape", NULL};
    const char *dtype[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--kernel",
                           "gemv", "--m", "4096", "--n", "4096", "--dtype", "fp5", NULL};
    cli_bad(gpu, "--gpu");
    cli_bad(gpu, "rtx-9999");
    cli_bad(prec, "--precision");
    cli_bad(fp8, "fp8");
    cli_bad(fp8, "--precision");
    cli_bad(kern, "--kernel");
    cli_bad(kern, "conv9d");
    cli_bad(zero_n, "--n");
    cli_bad(neg_k, "--k");
    cli_bad(no_k, "--k");
    cli_bad(bytes0, "--bytes");
    cli_bad(flop0, "--flop");
    cli_bad(both, "--kernel");
    cli_bad(ext, "--plot");
    cli_bad(size, "--plot-size");
    cli_bad(data, "--data");
    cli_bad(dtype, "--dtype");
}
END_TEST

/* Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian). */
static int png_size(const char *path, unsigned *w, unsigned *h)
{
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    size_t n;
    if (f == NULL)
        return -1;
    n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n != sizeof b || memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0)
        return -1;
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    return 0;
}

START_TEST(cli_plot_png_and_svg)
{
    char dir[256], png[512], svg[512], *out = NULL, *err = NULL;
    struct stat st;
    unsigned w = 0, h = 0;
    int rc;
    json_t *j;
    json_error_t je;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(png, sizeof png, "%s/roof.png", dir);
    snprintf(svg, sizeof svg, "%s/roof.SVG", dir);
    {
        const char *argv[] = {"--json", "roofline", "--gpu", "h100", "--precision", "bf16",
                              "--kernel", "gemm", "--m", "4096", "--n", "4096", "--k", "4096",
                              "--plot", png, "--plot-size", "640x480", NULL};
        rc = gp_test_cli(argv, &out, &err);
    }
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err ? err : "");
    /* stdout is still one JSON object naming the chart. */
    j = json_loads(out, 0, &je);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(jstr(j, "plot"), png);
    json_decref(j);
    free(out);
    free(err);
    ck_assert_int_eq(stat(png, &st), 0);
    ck_assert(st.st_size > 0);
    ck_assert_int_eq(png_size(png, &w, &h), 0);
    ck_assert_uint_eq(w, 640);
    ck_assert_uint_eq(h, 480);
    {
        const char *argv[] = {"roofline", "--gpu", "4090", "--precision", "fp32", "--kernel",
                              "vector-add", "--n", "1e6", "--plot", svg, NULL};
        ck_assert_int_eq(gp_test_cli(argv, NULL, NULL), 0);
    }
    ck_assert_int_eq(stat(svg, &st), 0);
    ck_assert(st.st_size > 0);
    /* gnuplot missing from PATH: exit 2, message says so, no file left. */
    {
        const char *argv[] = {"roofline", "--gpu", "4090", "--precision", "fp32", "--flop", "1",
                              "--bytes", "1", "--plot", png, NULL};
        const char *env[] = {"PATH=/nonexistent-gp", NULL};
        unlink(png);
        rc = gp_test_cli_env(argv, env, NULL, &err);
        ck_assert_int_eq(rc, 2);
        ck_assert_ptr_nonnull(strstr(err, "gnuplot"));
        free(err);
        ck_assert_int_ne(stat(png, &st), 0);
    }
    /* Only the two charts are in the directory: no temporary files left. */
    {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_roofline(void)
{
    Suite *s = suite_create("roofline");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, ridge_rtx4090_fp32);
    tcase_add_test(tc, vector_add_rtx4090_fp32);
    tcase_add_test(tc, h100_bf16_tensor_ridge_and_sparsity);
    tcase_add_test(tc, geforce_fp32_accumulate_half_rate);
    tcase_add_test(tc, fp16_accumulate_only_for_fp16_tensor);
    tcase_add_test(tc, gemm_4096_bf16_h100_compute_bound);
    tcase_add_test(tc, gemm_tiling_changes_bytes);
    tcase_add_test(tc, gemv_1x4096x4096_memory_bound);
    tcase_add_test(tc, axpy_layernorm_softmax);
    tcase_add_test(tc, attention_naive_vs_flash);
    tcase_add_test(tc, fused_chain_saves_round_trips);
    tcase_add_test(tc, kernel_sizes_whole);
    tcase_add_test(tc, host_link_binds);
    tcase_add_test(tc, host_link_calibrated);
    tcase_add_test(tc, peer_link_binds);
    tcase_add_test(tc, l2_roof);
    tcase_add_test(tc, calibration_wins_expected);
    tcase_add_test(tc, bad_input_model);
    tcase_add_test(tc, bad_input_kernels);
    tcase_add_test(tc, roof_level_parse);
    suite_add_tcase(s, tc);
    tc = tcase_create("db");
    tcase_add_test(tc, db_article_ridges);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, cli_vector_add_4090);
    tcase_add_test(tc, cli_measured_vector_add);
    tcase_add_test(tc, cli_gemm_and_gemv_h100);
    tcase_add_test(tc, cli_accumulate_and_host_data);
    tcase_add_test(tc, cli_peer_and_link_override);
    tcase_add_test(tc, cli_table_and_help);
    tcase_add_test(tc, cli_gemm_beta_formula);
    tcase_add_test(tc, cli_huge_margin);
    tcase_add_test(tc, cli_bad_input);
    tcase_add_test(tc, cli_plot_png_and_svg);
    suite_add_tcase(s, tc);
    return s;
}
