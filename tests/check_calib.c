/* Calibration: measurement-file reader, statistics, alpha-beta fits,
 * summaries, efficiencies, overlay text, `gpuplan calib` import/show/run,
 * and the probe's fat binary.
 *
 * The measurement files in tests/data/calib are SYNTHETIC (no GPU was
 * available): tests/data/calib/make_synthetic.py writes them from stated
 * formulas, and every expected value below is derived by hand from those
 * formulas in the comment above its assert.  Trial noise e_j = {-0.4, -0.2,
 * -0.1, 0, +0.1, +0.2, +0.5} % (median 0); sweeps carry a per-size bias
 * d_i = 0.003 sin(1.7 i) the fit must average out. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "testutil.h"

#define DATA "tests/data/calib/"
#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * 1024.0 * 1024.0)

static gp_calib *load_ok(const char *path)
{
    gp_calib *c = NULL;
    gp_err e;
    char buf[1024];
    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_file(path, &c, &e) == GP_OK, "%s",
                  gp_err_format(&e, buf, sizeof buf));
    ck_assert_ptr_nonnull(c);
    return c;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- statistics ---------------------------------------------------------------------- */

START_TEST(stats_by_hand)
{
    /* Sorted {1,2,3,4,5}: median 3; p95 at h = 4 * 0.95 = 3.8 between 4 and 5
     * -> 4.8; mean 3; sd = sqrt((4+1+0+1+4)/4) = sqrt(2.5) = 1.58114 -> cv
     * 0.527046.  The input is left unchanged. */
    double x[5] = {5, 1, 4, 2, 3}, w[5];
    gp_calib_stats s;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_stats_compute(x, 5, w, &s, &e), GP_OK);
    ck_assert_uint_eq(s.n, 5);
    GP_ASSERT_REL(s.min, 1.0, 0);
    GP_ASSERT_REL(s.max, 5.0, 0);
    GP_ASSERT_REL(s.median, 3.0, 1e-15);
    GP_ASSERT_REL(s.p95, 4.8, 1e-12);
    GP_ASSERT_REL(s.mean, 3.0, 1e-15);
    GP_ASSERT_REL(s.cv, 0.5270462766947299, 1e-12);
    GP_ASSERT_REL(x[0], 5.0, 0);
    /* One sample: cv 0, every order statistic the sample. */
    ck_assert_int_eq(gp_calib_stats_compute(x, 1, w, &s, &e), GP_OK);
    GP_ASSERT_REL(s.p95, 5.0, 0);
    GP_ASSERT_REL(s.cv, 0.0, 0);
    /* Bad input. */
    ck_assert_int_eq(gp_calib_stats_compute(x, 0, w, &s, &e), GP_EINVAL);
    x[2] = NAN;
    ck_assert_int_eq(gp_calib_stats_compute(x, 5, w, &s, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "sample 2"));
}
END_TEST

/* ---- fits ---------------------------------------------------------------------------- */

START_TEST(fit_exact_model)
{
    /* t = 8 us + S / 25 GB/s at S = 4 KiB * 2^i, i = 0..18 (to 1 GiB):
     * alpha 8e-6 s, beta 25e9 B/s exactly, zero scatter -> se 0, n_half =
     * alpha beta = 8e-6 * 25e9 = 200000 B. */
    double s[19], t[19];
    gp_calib_fit f;
    gp_err e;
    int i;
    for (i = 0; i < 19; i++) {
        s[i] = 4096.0 * (double)(1u << i);
        t[i] = 8e-6 + s[i] / 25e9;
    }
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s, t, 19, 1.0, &f, &e), GP_OK);
    ck_assert_uint_eq(f.n, 19);
    GP_ASSERT_REL(f.alpha, 8e-6, 1e-9);
    GP_ASSERT_REL(f.beta, 25e9, 1e-9);
    GP_ASSERT_REL(f.n_half, 200000.0, 1e-8);
    ck_assert(f.alpha_se < 1e-6 * f.alpha);
    ck_assert(f.beta_se < 1e-6 * f.beta);
    ck_assert(f.max_rel_resid < 1e-9);
    /* AllReduce on 8 ranks: t = 25 us + (2*7/8) S / 360 GB/s; c = 1.75 ->
     * beta = busbw 360e9, n_half = alpha beta / c = 25e-6 * 360e9 / 1.75 =
     * 5142857.14 B. */
    for (i = 0; i < 19; i++)
        t[i] = 25e-6 + 1.75 * s[i] / 360e9;
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s, t, 19, 1.75, &f, &e), GP_OK);
    GP_ASSERT_REL(f.alpha, 25e-6, 1e-9);
    GP_ASSERT_REL(f.beta, 360e9, 1e-9);
    GP_ASSERT_REL(f.n_half, 5142857.142857143, 1e-8);
}
END_TEST

START_TEST(fit_rejects_bad_input)
{
    double s[3] = {1, 2, 3}, t[3] = {3, 2, 1};
    double s2[3] = {1, 1, 1}, t2[3] = {1, 2, 3};
    double tn[3] = {1, -2, 3};
    gp_calib_fit f;
    gp_err e;
    gp_err_clear(&e);
    /* Times falling with size: slope 1/beta < 0 -> GP_ERANGE. */
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s, t, 3, 1.0, &f, &e), GP_ERANGE);
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s, t, 2, 1.0, &f, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s2, t2, 3, 1.0, &f, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "3 sizes"));
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s, tn, 3, 1.0, &f, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_fit_alpha_beta(s, t2, 3, 0.0, &f, &e), GP_EINVAL);
}
END_TEST

START_TEST(fit_recovers_synthetic_sweeps)
{
    /* make_synthetic.py: pinned h2d alpha 8 us, beta 25 GB/s; d2h 9 us,
     * 26 GB/s; pageable h2d 15 us, 12 GB/s; d2h 16 us, 11 GB/s; peer uni
     * 12 us, 370 GB/s; AllReduce on 8 GPUs 25 us, busbw 360 GB/s.  Medians
     * carry +-0.3 % per-size bias: recovery within 1 % is required. */
    static const struct {
        gp_calib_kind k;
        const char *series;
        double alpha, beta;
    } want[] = {
        {GP_CALIB_TRANSFER, "h2d-pinned", 8e-6, 25e9},
        {GP_CALIB_TRANSFER, "d2h-pinned", 9e-6, 26e9},
        {GP_CALIB_TRANSFER, "h2d-pageable", 15e-6, 12e9},
        {GP_CALIB_TRANSFER, "d2h-pageable", 16e-6, 11e9},
        {GP_CALIB_PEER, "uni", 12e-6, 370e9},
        {GP_CALIB_ALLREDUCE, "allreduce", 25e-6, 360e9},
    };
    gp_calib *c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_fit f;
    gp_err e;
    size_t i;
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        gp_err_clear(&e);
        ck_assert_msg(gp_calib_fit_series(c, want[i].k, want[i].series, 0, 0, &f, &e) == GP_OK,
                      "%s: %s", want[i].series, e.msg);
        GP_ASSERT_REL(f.alpha, want[i].alpha, 0.01);
        GP_ASSERT_REL(f.beta, want[i].beta, 0.01);
        /* n_half = alpha beta / c. */
        GP_ASSERT_REL(f.n_half, want[i].alpha * want[i].beta / f.c, 0.02);
        ck_assert(f.alpha_se > 0 && f.alpha_se < 0.01 * f.alpha);
        ck_assert(f.beta_se > 0 && f.beta_se < 0.01 * f.beta);
        ck_assert(f.max_rel_resid < 0.01);
    }
    /* c for AllReduce on 8 ranks = 2 * 7 / 8. */
    ck_assert_int_eq(gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce", 0, 0, &f, &e), GP_OK);
    GP_ASSERT_REL(f.c, 1.75, 1e-15);
    ck_assert_uint_eq(f.n, 14);
    /* A size window: pinned h2d sizes 4 KiB..1 MiB are 9 points. */
    ck_assert_int_eq(gp_calib_fit_series(c, GP_CALIB_TRANSFER, "h2d-pinned", 4096, MIB, &f, &e),
                     GP_OK);
    ck_assert_uint_eq(f.n, 9);
    GP_ASSERT_REL(f.alpha, 8e-6, 0.01);
    /* The copy kernel has one size: no fit. */
    ck_assert_int_eq(gp_calib_fit_series(c, GP_CALIB_MEMORY, "copy", 0, 0, &f, &e), GP_ENOTFOUND);
    gp_calib_free(c);
}
END_TEST

/* ---- reader ---------------------------------------------------------------------------- */

START_TEST(read_synthetic_file)
{
    gp_calib *c = load_ok(DATA "synthetic-h100.yaml");
    const gp_calib_point *p = &c->pts[0];
    double f = 2.0 * 8192.0 * 8192.0 * 8192.0; /* 1099511627776 FLOP */
    ck_assert_str_eq(c->dev.name, "NVIDIA H100 80GB HBM3");
    ck_assert_str_eq(c->dev.cc, "9.0");
    ck_assert_str_eq(c->date, "2026-12-01T04:00:00Z");
    ck_assert_str_eq(c->tool, "gpuplan-probe 0.1.0");
    ck_assert_int_eq(c->dev.sm_count, 132);
    ck_assert_int_eq(c->dev.gpus, 8);
    ck_assert_int_eq(c->dev.pcie_gen, 5);
    ck_assert_int_eq(c->dev.pcie_width, 16);
    ck_assert_int_eq(c->dev.driver_version, 13000);
    GP_ASSERT_REL(c->dev.l2_bytes, 52428800.0, 0);
    /* gemm 8 precisions x 2 shapes = 16; memory 6 kernels x 2 configs - 1 =
     * 11; latency 4 KiB..1 GiB by 2 = 19; transfer 4 x 19 = 76; peer 10 uni +
     * 10 bidir + 1 latency = 21; allreduce 8 B..1 GiB by 4 = 14: 157. */
    ck_assert_uint_eq(c->n_pts, 157);
    /* First point: bf16 square-8192 at 780 TFLOP/s; the median trial has
     * e = 0, the fastest e = -0.4 %. */
    ck_assert_int_eq(p->kind, GP_CALIB_GEMM);
    ck_assert_str_eq(p->series, "bf16-tensor-fp32acc");
    ck_assert_str_eq(p->label, "square-8192");
    ck_assert_int_eq(p->prec, GP_BF16);
    ck_assert_int_eq(p->pipe, GP_PIPE_TENSOR);
    ck_assert_int_eq(p->acc, GP_ACC_FP32);
    ck_assert(p->verified);
    GP_ASSERT_REL(p->work, f, 0);
    ck_assert_uint_eq(p->t.n, 7);
    GP_ASSERT_REL(p->t.median, f / 780e12, 1e-8);
    GP_ASSERT_REL(p->rate_median, 780e12, 1e-8);
    GP_ASSERT_REL(p->rate_best, 780e12 / 0.996, 1e-8);
    /* p95 of e: sorted {-.4,-.2,-.1,0,.1,.2,.5}%, h = 6 * .95 = 5.7 ->
     * 0.2 + 0.7 * 0.3 = 0.41 %. */
    GP_ASSERT_REL(p->t.p95, f / 780e12 * 1.0041, 1e-8);
    ck_assert_uint_eq(p->line, 28);
    gp_calib_free(c);
}
END_TEST

START_TEST(summary_by_hand)
{
    gp_calib *c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_summary s;
    double b = 2.0 * GIB;
    gp_calib_summarize(c, &s);
    /* Copy kernel: best configuration (scale 1.0 of 3.0 TB/s; the other
     * runs at 0.97x), median trial. */
    GP_ASSERT_REL(s.mem_bw, 3.0e12, 1e-8);
    GP_ASSERT_REL(s.mem_bw_best, 3.0e12 / 0.996, 1e-8);
    GP_ASSERT_REL(s.mem_read_bw, 3.1e12, 1e-8);
    GP_ASSERT_REL(s.mem_triad_bw, 3.05e12, 1e-8);
    GP_ASSERT_REL(s.memcpy_d2d_bw, 2.8e12, 1e-8);
    GP_ASSERT_REL(s.l2_bw, 9.0e12, 1e-8);
    /* GEMM: max over shapes (square 780 vs llm 700 TFLOP/s). */
    GP_ASSERT_REL(s.gemm[GP_BF16][GP_PIPE_TENSOR], 780e12, 1e-8);
    GP_ASSERT_REL(s.gemm[GP_FP16][GP_PIPE_TENSOR], 770e12, 1e-8);
    GP_ASSERT_REL(s.gemm_fp16acc, 790e12, 1e-8);
    GP_ASSERT_REL(s.gemm[GP_FP32][GP_PIPE_CUDA], 50e12, 1e-8);
    GP_ASSERT_REL(s.gemm[GP_FP64][GP_PIPE_TENSOR], 55e12, 1e-8);
    GP_ASSERT_REL(s.gemm[GP_INT8][GP_PIPE_TENSOR], 1300e12, 1e-8);
    GP_ASSERT_REL(s.gemm_best[GP_BF16][GP_PIPE_TENSOR], 780e12 / 0.996, 1e-8);
    /* Latency windows with L2 = 50 MiB: L1 <= 16 KiB (16 ns); L2 1 MiB ..
     * 12.5 MiB (140 ns); DRAM max(400 MiB, 64 MiB) .. 1 GiB = {512 MiB:
     * 350, 1 GiB: 380} -> median 365 ns.  Cycles = ns * 1.98. */
    GP_ASSERT_REL(s.lat_l1, 16e-9, 1e-8);
    GP_ASSERT_REL(s.lat_l2, 140e-9, 1e-8);
    GP_ASSERT_REL(s.lat_dram, 365e-9, 1e-8);
    GP_ASSERT_REL(s.lat_l1_cyc, 31.68, 1e-8);
    GP_ASSERT_REL(s.lat_dram_cyc, 722.7, 1e-8);
    /* Host links from the fits. */
    GP_ASSERT_REL(s.h2d_bw, 25e9, 0.01);
    GP_ASSERT_REL(s.d2h_bw, 26e9, 0.01);
    GP_ASSERT_REL(s.h2d_lat, 8e-6, 0.01);
    GP_ASSERT_REL(s.d2h_lat, 9e-6, 0.01);
    GP_ASSERT_REL(s.h2d_pageable_bw, 12e9, 0.01);
    GP_ASSERT_REL(s.d2h_pageable_bw, 11e9, 0.01);
    ck_assert_uint_eq(s.h2d_fit.n, 19);
    /* Peer: uni from the fit; bidir = median rate at the largest size,
     * 2 GiB / (12 us + 2 GiB / 740 GB/s) = 2147483648 / 0.002914005 =
     * 736.9 GB/s (bias at that size 0.12 %); latency 2.5 us. */
    GP_ASSERT_REL(s.peer_bw, 370e9, 0.01);
    GP_ASSERT_REL(s.peer_bidir_bw, b / (12e-6 + b / 740e9), 0.01);
    GP_ASSERT_REL(s.peer_lat, 2.5e-6, 1e-8);
    GP_ASSERT_REL(s.allreduce_busbw, 360e9, 0.01);
    GP_ASSERT_REL(s.allreduce_lat, 25e-6, 0.01);
    ck_assert_int_eq(s.allreduce_gpus, 8);
    gp_calib_free(c);

    /* A file with only memory and GEMM: nothing else invented. */
    c = load_ok(DATA "synthetic-rtx4090.yaml");
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 0.92e12, 1e-8);
    GP_ASSERT_REL(s.h2d_bw, 0.0, 0);
    GP_ASSERT_REL(s.lat_dram, 0.0, 0);
    GP_ASSERT_REL(s.peer_bw, 0.0, 0);
    ck_assert_int_eq(c->dev.pcie_width, 8);
    gp_calib_free(c);
}
END_TEST

static void expect_err(const char *path, int code, unsigned line, const char *needle)
{
    gp_calib *c = (gp_calib *)1;
    gp_err e;
    char buf[1024];
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_file(path, &c, &e), code);
    ck_assert_ptr_null(c);
    gp_err_format(&e, buf, sizeof buf);
    if (line > 0)
        ck_assert_msg(e.line == line, "%s: line %u, want %u", buf, e.line, line);
    ck_assert_msg(strstr(buf, needle) != NULL, "'%s' lacks '%s'", buf, needle);
    ck_assert_msg(strncmp(buf, path, strlen(path)) == 0, "'%s' does not start with the file", buf);
}

START_TEST(refuses_corrupt_and_truncated)
{
    /* corrupt.yaml: the first trial of line 28 is 'abc'. */
    expect_err(DATA "corrupt.yaml", GP_ESCHEMA, 28, "t_s: expected a number, got 'abc'");
    /* corrupt-syntax.yaml: a stray less-indented key at line 10. */
    expect_err(DATA "corrupt-syntax.yaml", GP_EPARSE, 10, "not valid YAML");
    /* truncated.yaml: cut at a line boundary (85 lines), no trailer. */
    expect_err(DATA "truncated.yaml", GP_EPARSE, 85, "truncated measurement file");
    /* truncated-midline.yaml: cut inside a flow mapping. */
    expect_err(DATA "truncated-midline.yaml", GP_EPARSE, 0, "not valid YAML");
    expect_err(DATA "no-such-file.yaml", GP_EIO, 0, "cannot open");
}
END_TEST

static int read_text(const char *text, gp_err *e)
{
    gp_calib *c = NULL;
    int rc;
    gp_err_clear(e);
    rc = gp_calib_read_text("t.yaml", text, strlen(text), &c, e);
    if (rc == GP_OK)
        ck_assert_ptr_nonnull(c);
    else
        ck_assert_ptr_null(c);
    gp_calib_free(c);
    return rc;
}

#define HEAD "format: gpuplan-calib/1\ndate: \"2026-12-01\"\ndevice: {name: \"NVIDIA H200\"}\n"

START_TEST(refuses_bad_content)
{
    gp_err e;
    ck_assert_int_eq(read_text(HEAD "complete: true\n", &e), GP_OK);
    ck_assert_int_eq(read_text("", &e), GP_EPARSE);
    ck_assert_int_eq(read_text("- 1\n- 2\n", &e), GP_ESCHEMA);
    ck_assert_int_eq(read_text("format: gpuplan-calib/9\ndate: x\ndevice: {name: a}\ncomplete: true\n", &e),
                     GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "unsupported format"));
    ck_assert_int_eq(read_text(HEAD "complete: false\n", &e), GP_EPARSE);
    ck_assert_int_eq(read_text(HEAD "complete: true\nmemory: []\n", &e), GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "last key"));
    ck_assert_int_eq(read_text(HEAD "colour: red\ncomplete: true\n", &e), GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown key 'colour'"));
    ck_assert_uint_eq(e.line, 4);
    ck_assert_int_eq(read_text("format: gpuplan-calib/1\ndate: x\ncomplete: true\n", &e), GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "device"));
    /* flop must be 2 m n k. */
    ck_assert_int_eq(read_text(HEAD "gemm:\n  - {precision: bf16, pipeline: tensor, m: 2, n: 2, "
                                    "k: 2, flop: 17, t_s: [1]}\ncomplete: true\n",
                               &e),
                     GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "2*m*n*k"));
    ck_assert_int_eq(read_text(HEAD "memory:\n  - {kernel: copy, bytes: 8, t_s: [1, -2]}\n"
                                    "complete: true\n",
                               &e),
                     GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "positive"));
    ck_assert_int_eq(read_text(HEAD "memory:\n  - {kernel: copy, bytes: 8, t_s: []}\n"
                                    "complete: true\n",
                               &e),
                     GP_ESCHEMA);
    ck_assert_int_eq(read_text(HEAD "memory:\n  - {kernel: mop, bytes: 8, t_s: [1]}\n"
                                    "complete: true\n",
                               &e),
                     GP_ESCHEMA);
    ck_assert_int_eq(read_text(HEAD "transfer:\n  - {direction: h2d, bytes: 8, t_s: [1]}\n"
                                    "complete: true\n",
                               &e),
                     GP_ESCHEMA);
    ck_assert_ptr_nonnull(strstr(e.msg, "memory"));
    ck_assert_int_eq(read_text(HEAD "latency:\n  - {working_set: 4096, ns: [1, 2], cycles: [3]}\n"
                                    "complete: true\n",
                               &e),
                     GP_ESCHEMA);
    ck_assert_int_eq(read_text(HEAD "complete: true\n---\nformat: x\n", &e), GP_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "more than one"));
}
END_TEST


START_TEST(reader_error_paths)
{
    /* Each refusal names the key (or says what is wrong) at the right place. */
    static const struct {
        const char *text;
        int code;
        const char *needle;
    } cases[] = {
        {"format: gpuplan-calib/1\ndate: x\ndevice: [1]\ncomplete: true\n", GP_ESCHEMA,
         "expected a mapping, got a list"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: a, sm_count: 1.5}\ncomplete: true\n",
         GP_ESCHEMA, "expected an integer"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: a, sm_count: 1e12}\ncomplete: true\n",
         GP_ESCHEMA, "too large"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: a, colour: red}\ncomplete: true\n",
         GP_ESCHEMA, "unknown key 'colour' in device"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {sm_count: 4}\ncomplete: true\n", GP_ESCHEMA,
         "device.name"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: a, pcie: {lanes: 4}}\ncomplete: true\n",
         GP_ESCHEMA, "unknown key 'lanes' in device.pcie"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: a, pcie: 5}\ncomplete: true\n", GP_ESCHEMA,
         "device.pcie"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: a, clock_sm_hz: fast}\ncomplete: true\n",
         GP_ESCHEMA, "expected a number, got 'fast'"},
        {"format: gpuplan-calib/1\ndate: x\ndevice: {name: [a]}\ncomplete: true\n", GP_ESCHEMA,
         "expected a scalar"},
        {HEAD "memory:\n  - {kernel: copy, bytes: 8, verified: maybe, t_s: [1]}\ncomplete: true\n",
         GP_ESCHEMA, "true or false"},
        {HEAD "gemm:\n  - {precision: fp3, pipeline: tensor, flop: 2, t_s: [1]}\ncomplete: true\n",
         GP_ESCHEMA, "precision"},
        {HEAD "gemm:\n  - {precision: bf16, pipeline: warp, flop: 2, t_s: [1]}\ncomplete: true\n",
         GP_ESCHEMA, "pipeline"},
        {HEAD "gemm:\n  - {precision: bf16, flop: 2, t_s: [1]}\ncomplete: true\n", GP_ESCHEMA,
         "pipeline: required"},
        {HEAD "gemm:\n  - {precision: bf16, pipeline: tensor, accum: fp8, flop: 2, t_s: [1]}\n"
              "complete: true\n",
         GP_ESCHEMA, "unknown value 'fp8'"},
        {HEAD "memory:\n  - {kernel: copy, bytes: 8, speed: 3, t_s: [1]}\ncomplete: true\n",
         GP_ESCHEMA, "unknown key 'speed' in memory"},
        {HEAD "memory:\n  - {bytes: 8, t_s: [1]}\ncomplete: true\n", GP_ESCHEMA, "kernel"},
        {HEAD "memory:\n  - {kernel: copy, bytes: 8}\ncomplete: true\n", GP_ESCHEMA, "t_s"},
        {HEAD "memory:\n  - {kernel: copy, t_s: [1]}\ncomplete: true\n", GP_ESCHEMA, "bytes"},
        {HEAD "memory:\n  - {kernel: copy, bytes: 8, t_s: 1}\ncomplete: true\n", GP_ESCHEMA,
         "expected a list"},
        {HEAD "memory: {kernel: copy}\ncomplete: true\n", GP_ESCHEMA, "expected a list"},
        {HEAD "peer:\n  - {bytes: 8, t_s: [1]}\ncomplete: true\n", GP_ESCHEMA, "mode"},
        {HEAD "allreduce:\n  - {gpus: 1, bytes: 8, t_s: [1]}\ncomplete: true\n", GP_ESCHEMA,
         "integer >= 2"},
        {HEAD "allreduce:\n  - {bytes: 8, t_s: [1]}\ncomplete: true\n", GP_ESCHEMA, "gpus"},
        {HEAD "latency:\n  - {working_set: 4096, cycles: [1]}\ncomplete: true\n", GP_ESCHEMA, "ns"},
        {"date: x\ndevice: {name: a}\ncomplete: true\n", GP_ESCHEMA, "format"},
        {"format: gpuplan-calib/1\ndevice: {name: a}\ncomplete: true\n", GP_ESCHEMA, "date"},
        {HEAD "complete: yes\n", GP_ESCHEMA, "true or false"},
    };
    gp_err e;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(read_text(cases[i].text, &e) == cases[i].code, "case %zu: got '%s'", i, e.msg);
        ck_assert_msg(strstr(e.msg, cases[i].needle) != NULL, "case %zu: '%s' lacks '%s'", i,
                      e.msg, cases[i].needle);
        ck_assert_str_eq(e.where, "t.yaml");
        ck_assert(e.line > 0);
    }
}
END_TEST

START_TEST(api_guards)
{
    gp_calib *c = NULL;
    gp_calib_fit f;
    gp_calib_summary s;
    gp_calib_eff r[4];
    const gp_gpu *g;
    char *text = NULL;
    double x[3] = {1, 2, 3};
    static const char nul[] = "format: gpuplan-calib/1\0";
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_text("n", "x", 1, NULL, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_read_text("n", NULL, 1, &c, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_read_text(NULL, "", 0, &c, &e), GP_EPARSE);
    ck_assert_str_eq(e.where, "<text>");
    ck_assert_int_eq(gp_calib_read_text("n", nul, sizeof nul - 1, &c, &e), GP_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "NUL"));
    /* "on failure it is NULL": a NULL path too, not a stale pointer left. */
    c = (gp_calib *)&s;
    ck_assert_int_eq(gp_calib_read_file(NULL, &c, &e), GP_EINVAL);
    ck_assert_ptr_null(c);
    c = (gp_calib *)&s;
    ck_assert_int_eq(gp_calib_read_file_any(NULL, GP_CALIB_FMT_AUTO, &c, &e), GP_EINVAL);
    ck_assert_ptr_null(c);
    ck_assert_int_eq(gp_calib_fit_alpha_beta(NULL, x, 3, 1.0, &f, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_fit_series(NULL, GP_CALIB_PEER, "uni", 0, 0, &f, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_match_gpu(NULL, "x", &g, &e), GP_EINVAL);
    gp_calib_summarize(NULL, &s);
    GP_ASSERT_REL(s.mem_bw, 0.0, 0);
    gp_calib_summarize(NULL, NULL);
    ck_assert_uint_eq(gp_calib_efficiencies(NULL, NULL, NULL, NULL, r, 4), 0);
    ck_assert_int_eq(gp_calib_overlay_gpu(NULL, &s, "x", "y", &text, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_overlay_link(NULL, &s, "x", "y", &text, &e), GP_EINVAL);
    ck_assert_str_eq(gp_calib_kind_name(GP_CALIB_ALLREDUCE), "allreduce");
    ck_assert_str_eq(gp_calib_kind_name(GP_CALIB__COUNT), "unknown");
    gp_calib_free(NULL);
    /* Exact alias match, case-insensitive. */
    ck_assert_int_eq(gp_calib_match_gpu(gp_test_db(), "RTX4090", &g, &e), GP_OK);
    ck_assert_str_eq(g->id, "rtx-4090");
    ck_assert_int_eq(gp_calib_match_gpu(gp_test_db(), "NVIDIA GeForce RTX 4090", &g, &e), GP_OK);
    ck_assert_str_eq(g->id, "rtx-4090");
}
END_TEST

START_TEST(overlay_units_and_fallbacks)
{
    /* Small figures pick smaller units; quotes and backslashes in the device
     * name are escaped; a sweep that is not alpha-beta shaped (flat 10 us up
     * to 100 kB, then 0.1 s at 1e8 B: t = 1e-5 + S/1e9 would give 110 us at
     * 1e5 B, 11 x the 10 us measured) falls back to the largest size's
     * median rate (1e8 B / 0.1 s = 1e9 B/s) and the smallest size's time.
     * Both largest sizes reach the bandwidth regime (1e8 B >= 64 MiB =
     * 67108864 B). */
    static const char text[] =
        "format: gpuplan-calib/1\ndate: \"2026-12-02T01:02:03Z\"\n"
        "device: {name: \"Odd \\\"GPU\\\" \\\\ 1\"}\n"
        "gemm:\n  - {precision: fp32, pipeline: cuda, m: 10, n: 10, k: 10, flop: 2000, t_s: [4e-9]}\n"
        "memory:\n  - {kernel: copy, bytes: 5000, t_s: [1e-3]}\n"
        "transfer:\n"
        "  - {direction: h2d, memory: pinned, bytes: 1000, t_s: [1e-5]}\n"
        "  - {direction: h2d, memory: pinned, bytes: 10000, t_s: [1e-5]}\n"
        "  - {direction: h2d, memory: pinned, bytes: 100000, t_s: [1e-5]}\n"
        "  - {direction: h2d, memory: pinned, bytes: 100000000, t_s: [0.1]}\n"
        "  - {direction: d2h, memory: pinned, bytes: 100000000, t_s: [400]}\n"
        "complete: true\n";
    gp_calib *c = NULL;
    gp_calib_summary s;
    char *o = NULL;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_text("odd.yaml", text, strlen(text), &c, &e), GP_OK);
    gp_calib_summarize(c, &s);
    /* h2d: fallback; d2h: one size, 1e8 B / 400 s = 250 kB/s. */
    GP_ASSERT_REL(s.h2d_bw, 1e9, 1e-12);
    GP_ASSERT_REL(s.h2d_lat, 1e-5, 1e-12);
    ck_assert_uint_eq(s.h2d_fit.n, 0);
    GP_ASSERT_REL(s.d2h_bw, 250000.0, 1e-12);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "odd", "odd.yaml", &o, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(o, "on Odd \\\"GPU\\\" \\\\ 1 (cc ?"));
    ck_assert_ptr_nonnull(strstr(o, "date: \"2026-12-02\""));
    ck_assert_ptr_nonnull(strstr(o, "memory_bandwidth: 5.000MB/s")); /* 5000 B / 1 ms */
    ck_assert_ptr_nonnull(strstr(o, "h2d_bandwidth: 1.000GB/s"));
    ck_assert_ptr_nonnull(strstr(o, "d2h_bandwidth: 250000B/s"));
    ck_assert_ptr_nonnull(strstr(o, "h2d_latency: 10.000us"));
    ck_assert_ptr_nonnull(strstr(o, "fp32: {cuda: 500.000GFLOPS}")); /* 2000 / 4 ns */
    free(o);
    gp_calib_free(c);
    /* A latency of milliseconds. */
    memset(&s, 0, sizeof s);
    c = load_ok(DATA "synthetic-rtx4090.yaml");
    s.h2d_lat = 2e-3;
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "rtx-4090", NULL, &o, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(o, "h2d_latency: 2.000ms"));
    free(o);
    /* Nothing to carry. */
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "rtx-4090", "x", &o, &e), GP_EINVAL);
    ck_assert_ptr_null(o);
    gp_calib_free(c);
}
END_TEST


static char *retag(const char *src, const char *id, const char *name)
{
    /* hwdb/gpus/l4.yaml with its first three lines (id, name, aliases) replaced. */
    char *text = gp_test_slurp(src), *p = text, *out;
    int line;
    ck_assert_ptr_nonnull(text);
    for (line = 0; line < 3; line++) {
        p = strchr(p, '\n');
        ck_assert_ptr_nonnull(p);
        p++;
    }
    out = malloc(strlen(p) + 256);
    ck_assert_ptr_nonnull(out);
    snprintf(out, strlen(p) + 256, "id: %s\nname: %s\n%s", id, name, p);
    free(text);
    return out;
}

START_TEST(match_ambiguous_and_large_file)
{
    /* Two entries whose ids both lie inside the device name's words with the
     * same number of words: refused, naming both and suggesting --as. */
    char dir[256], big[512], *a = retag("hwdb/gpus/l4.yaml", "zeta-zz9", "Zeta ZZ9");
    char *b = retag("hwdb/gpus/l4.yaml", "zz9-max", "ZZ9 Max"), *text, *huge;
    const char *dirs[1];
    gp_db *db = NULL;
    const gp_gpu *g;
    gp_calib *c = NULL;
    gp_err e;
    char buf[1024];
    size_t n, i;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/zeta-zz9.yaml", a), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/zz9-max.yaml", b), 0);
    dirs[0] = dir;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, dirs, 1, &e) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    ck_assert_int_eq(gp_calib_match_gpu(db, "Zeta ZZ9 Max", &g, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "zeta-zz9"));
    ck_assert_ptr_nonnull(strstr(e.msg, "zz9-max"));
    ck_assert_ptr_nonnull(strstr(e.msg, "--as"));
    ck_assert_int_eq(gp_calib_match_gpu(db, "Zeta ZZ9", &g, &e), GP_OK); /* exact name */
    ck_assert_str_eq(g->id, "zeta-zz9");
    gp_db_free(db);
    /* A file larger than the reader's first buffer (64 KiB): comments pad it. */
    text = gp_test_slurp(DATA "synthetic-h100.yaml");
    n = strlen(text);
    huge = malloc(n + 200001);
    ck_assert_ptr_nonnull(huge);
    for (i = 0; i < 200000; i += 100) {
        memset(huge + i, ' ', 100);
        huge[i] = '#';
        huge[i + 99] = '\n';
    }
    memcpy(huge + 200000, text, n + 1);
    ck_assert_int_eq(gp_test_write(dir, "big.yaml", huge), 0);
    snprintf(big, sizeof big, "%s/big.yaml", dir);
    ck_assert_int_eq(gp_calib_read_file(big, &c, &e), GP_OK);
    ck_assert_uint_eq(c->n_pts, 157);
    ck_assert_uint_eq(c->pts[0].line, 28 + 2000);
    gp_calib_free(c);
    free(text);
    free(huge);
    free(a);
    free(b);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(fit_sorts_sizes)
{
    /* Points listed largest first: the series is sorted by size before the
     * fit.  t = 1 us + S / 1 GB/s at S = 1e6, 1e4, 1e5 (in that order). */
    static const char text[] =
        HEAD "transfer:\n"
        "  - {direction: d2h, memory: pageable, bytes: 1000000, t_s: [1.001e-3]}\n"
        "  - {direction: d2h, memory: pageable, bytes: 10000, t_s: [1.1e-5]}\n"
        "  - {direction: d2h, memory: pageable, bytes: 100000, t_s: [1.01e-4]}\n"
        "complete: true\n";
    gp_calib *c = NULL;
    gp_calib_fit f;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_text("s.yaml", text, strlen(text), &c, &e), GP_OK);
    ck_assert_int_eq(gp_calib_fit_series(c, GP_CALIB_TRANSFER, "d2h-pageable", 0, 0, &f, &e), GP_OK);
    GP_ASSERT_REL(f.alpha, 1e-6, 1e-6);
    GP_ASSERT_REL(f.beta, 1e9, 1e-9);
    gp_calib_free(c);
}
END_TEST

/* A hand-built file (the struct is public) the reader would refuse: a
 * one-rank AllReduce has no size multiplier 2(n-1)/n > 0, a zero time no
 * weight; both are GP_EINVAL, not a NaN fit. */
START_TEST(fit_series_rejects_hand_built_points)
{
    gp_calib_point p[3];
    gp_calib c;
    gp_calib_fit f;
    gp_err e;
    size_t i;
    memset(&c, 0, sizeof c);
    memset(p, 0, sizeof p);
    for (i = 0; i < 3; i++) {
        p[i].kind = GP_CALIB_ALLREDUCE;
        snprintf(p[i].series, sizeof p[i].series, "allreduce");
        p[i].gpus = 1;
        p[i].work = 1e6 * (double)(i + 1);
        p[i].t.median = 1e-3 * (double)(i + 1);
    }
    c.pts = p;
    c.n_pts = 3;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_fit_series(&c, GP_CALIB_ALLREDUCE, "allreduce", 0, 0, &f, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "1 GPUs"));
    p[0].gpus = p[1].gpus = p[2].gpus = 8;
    p[1].t.median = 0.0;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_fit_series(&c, GP_CALIB_ALLREDUCE, "allreduce", 0, 0, &f, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "not positive"));
}
END_TEST

/* ---- overlay text and efficiencies ------------------------------------------------------ */

START_TEST(overlay_text_by_hand)
{
    gp_calib *c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_summary s;
    char *t1 = NULL, *t2 = NULL, *lt = NULL;
    gp_err e;
    gp_err_clear(&e);
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "h100-sxm", "synthetic-h100.yaml", &t1, &e), GP_OK);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "h100-sxm", "synthetic-h100.yaml", &t2, &e), GP_OK);
    ck_assert_str_eq(t1, t2); /* deterministic */
    ck_assert_ptr_nonnull(strstr(t1, "\nid: \"h100-sxm\"\nmeasured:\n"));
    ck_assert_ptr_nonnull(strstr(t1, "  date: \"2026-12-01\"\n"));
    ck_assert_ptr_nonnull(strstr(t1, "synthetic-h100.yaml\""));
    ck_assert_ptr_nonnull(strstr(t1, "  memory_bandwidth: 3000.000GB/s"));
    ck_assert_ptr_nonnull(strstr(t1, "  l2_bandwidth: 9000.000GB/s\n"));
    ck_assert_ptr_nonnull(strstr(t1, "  latency: {l1: 16.00ns, l2: 140.00ns, dram: 365.00ns}\n"));
    ck_assert_ptr_nonnull(strstr(t1, "    bf16: {tensor: 780.000TFLOPS}\n"));
    ck_assert_ptr_nonnull(strstr(t1, "    fp32: {cuda: 50.000TFLOPS}\n"));
    ck_assert_ptr_nonnull(strstr(t1, "    int8: {tensor: 1300.000TOPS}\n"));
    ck_assert_ptr_nonnull(strstr(t1, "  h2d_bandwidth: "));
    ck_assert_ptr_nonnull(strstr(t1, "  h2d_latency: "));
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "synthetic-h100.yaml", &lt, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(lt, "\nid: \"nvlink4\"\n"));
    ck_assert_ptr_nonnull(strstr(lt, "  latency: 2.500us\n"));
    /* The AllReduce sweep (t = 25 us + 1.75 S / 360e9, make_synthetic.py)
     * sets the link's bandwidth, not the 370e9 peer copy: busbw is what the
     * shipped link figures mean. */
    {
        const char *bw = strstr(lt, "  bandwidth: ");
        ck_assert_ptr_nonnull(bw);
        GP_ASSERT_REL(strtod(bw + 13, NULL), 360.0, 0.01);
        ck_assert_ptr_nonnull(strstr(bw, "GB/s   # AllReduce busbw"));
    }
    free(t1);
    free(t2);
    free(lt);
    gp_calib_free(c);

    /* No peer data: no link overlay. */
    c = load_ok(DATA "synthetic-rtx4090.yaml");
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "pcie4-x16", "x", &lt, &e), GP_ENOTFOUND);
    ck_assert_ptr_null(lt);
    gp_calib_free(c);
}
END_TEST

/* The overlay text t loaded as a database (*db, the caller frees it): its
 * h100-sxm entry. */
static const gp_gpu *open_h100_overlay(const char *t, gp_db **db)
{
    char buf[1024];
    const gp_gpu *g;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open_text(db, 0, GP_KIND_GPU, "calib-h100-sxm.yaml", t, strlen(t), &e) ==
                      GP_OK,
                  "%s", gp_err_format(&e, buf, sizeof buf));
    g = gp_db_find_gpu(*db, "h100-sxm");
    ck_assert_ptr_nonnull(g);
    return g;
}

START_TEST(overlay_loads_and_drives_expected)
{
    /* The generated text, applied over the built-in database, sets the
     * measured figures, and the expected figures follow them. */
    gp_calib *c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_summary s;
    char *t = NULL;
    gp_db *db = NULL;
    const gp_gpu *g;
    gp_err e;
    gp_err_clear(&e);
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "h100-sxm", "synthetic-h100.yaml", &t, &e), GP_OK);
    g = open_h100_overlay(t, &db);
    GP_ASSERT_REL(g->meas_mem_bw.v, 3.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(g), 3.0e12, 1e-9);
    GP_ASSERT_REL(g->meas_l2_bw.v, 9.0e12, 1e-9);
    GP_ASSERT_REL(g->meas_peak[GP_BF16][GP_PIPE_TENSOR].v, 780e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 780e12, 1e-9);
    GP_ASSERT_REL(g->meas_lat_dram.v, 365e-9, 1e-9);
    /* Rates are written with 3 decimals in GB/s: 1e-4 relative. */
    GP_ASSERT_REL(g->meas_h2d_bw.v, s.h2d_bw, 1e-4);
    GP_ASSERT_REL(g->meas_h2d_lat.v, s.h2d_lat, 1e-3);
    ck_assert_ptr_nonnull(g->calibration);
    ck_assert_ptr_nonnull(strstr(g->calibration, "2026-12-01"));
    /* Datasheet figures untouched. */
    GP_ASSERT_REL(g->mem_bw.v, gp_db_find_gpu(gp_test_db(), "h100-sxm")->mem_bw.v, 0);
    gp_db_free(db);
    free(t);
    gp_calib_free(c);
}
END_TEST

/* A host program under a decimal-comma locale (setlocale(LC_ALL, "") for a
 * German user): the readers' numbers and the overlay's figures are data in
 * the C form.  The overlay was written "3000,000GB/s", which no loader
 * reads, and the logs' "12.34" columns were cut at the '.'. */
START_TEST(overlay_and_logs_ignore_the_locale)
{
    gp_calib *c = NULL;
    gp_calib_summary s, s_c;
    char *t = NULL, *t_c = NULL, buf[1024];
    gp_db *db = NULL;
    const gp_gpu *g;
    gp_err e;
    gp_err_clear(&e);
    /* The C locale's answers first. */
    c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_summarize(c, &s_c);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s_c, "h100-sxm", "synthetic-h100.yaml", &t_c, &e),
                     GP_OK);
    gp_calib_free(c);
    if (!gp_test_comma_locale()) {
        fprintf(stderr, "calib/locale: no decimal-comma locale on this machine; skipped\n");
        free(t_c);
        return;
    }
    c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.h2d_bw, s_c.h2d_bw, 0);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "h100-sxm", "synthetic-h100.yaml", &t, &e), GP_OK);
    ck_assert_str_eq(t, t_c);
    g = open_h100_overlay(t, &db);
    GP_ASSERT_REL(g->meas_mem_bw.v, 3.0e12, 1e-9);
    gp_db_free(db);
    free(t);
    gp_calib_free(c);

    /* An nccl-tests log: its size, time and bandwidth columns. */
    setlocale(LC_ALL, "C");
    c = NULL;
    ck_assert_int_eq(gp_calib_read_file_any(DATA "a100-nccl-tests-allreduce.txt", GP_CALIB_FMT_AUTO,
                                            &c, &e),
                     GP_OK);
    gp_calib_summarize(c, &s_c);
    gp_calib_free(c);
    ck_assert(s_c.allreduce_busbw > 0);
    ck_assert(gp_test_comma_locale());
    c = NULL;
    ck_assert_msg(gp_calib_read_file_any(DATA "a100-nccl-tests-allreduce.txt", GP_CALIB_FMT_AUTO,
                                         &c, &e) == GP_OK,
                  "%s", gp_err_format(&e, buf, sizeof buf));
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, s_c.allreduce_busbw, 0);
    gp_calib_free(c);
    free(t_c);
    setlocale(LC_ALL, "C"); /* CK_FORK=no (make valgrind): the next test's */
}
END_TEST

static const gp_calib_eff *find_eff(const gp_calib_eff *r, size_t n, const char *what)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(r[i].what, what) == 0)
            return &r[i];
    return NULL;
}

START_TEST(efficiencies_vs_datasheet)
{
    gp_calib *c = load_ok(DATA "synthetic-h100.yaml");
    gp_calib_summary s;
    gp_calib_eff r[64];
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "h100-sxm");
    const gp_link *host = gp_db_find_link(db, g->host_link);
    const gp_link *nv = gp_db_find_link(db, g->scale_up_link);
    const gp_calib_eff *x;
    size_t n;
    gp_calib_summarize(c, &s);
    n = gp_calib_efficiencies(&s, g, host, nv, r, 64);
    ck_assert(n > 10 && n <= 64);
    /* memory copy 3.0 TB/s over the datasheet 3.35 TB/s = 0.8955. */
    x = find_eff(r, n, "memory copy");
    ck_assert_ptr_nonnull(x);
    GP_ASSERT_REL(x->eff, 3.0e12 / g->mem_bw.v, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 3.35e12, 1e-9);
    ck_assert_ptr_nonnull(x->src);
    /* bf16 GEMM 780 / 989.4 TFLOP/s = 0.78836. */
    x = find_eff(r, n, "bf16 tensor GEMM");
    ck_assert_ptr_nonnull(x);
    GP_ASSERT_REL(x->eff, 780e12 / 989.4e12, 1e-3);
    /* Peer uni vs NVLink4 per direction. */
    x = find_eff(r, n, "peer uni");
    ck_assert_ptr_nonnull(x);
    GP_ASSERT_REL(x->eff, s.peer_bw / nv->bw.v, 1e-12);
    /* cap smaller than the rows: the count still says how many exist. */
    ck_assert_uint_eq(gp_calib_efficiencies(&s, g, host, nv, r, 2), n);
    gp_calib_free(c);
}
END_TEST

START_TEST(match_device_names)
{
    static const char *const pairs[][2] = {
        {"NVIDIA H100 80GB HBM3", "h100-sxm"},    {"NVIDIA H200", "h200"},
        {"NVIDIA H100 PCIe", "h100-pcie"},        {"NVIDIA GeForce RTX 4090", "rtx-4090"},
        {"NVIDIA A100-SXM4-80GB", "a100-sxm-80gb"}, {"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb"},
        {"NVIDIA L40S", "l40s"},                  {"NVIDIA A10", "a10"},
    };
    const gp_db *db = gp_test_db();
    const gp_gpu *g;
    gp_err e;
    size_t i;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        gp_err_clear(&e);
        ck_assert_msg(gp_calib_match_gpu(db, pairs[i][0], &g, &e) == GP_OK, "%s: %s", pairs[i][0],
                      e.msg);
        ck_assert_str_eq(g->id, pairs[i][1]);
    }
    ck_assert_int_eq(gp_calib_match_gpu(db, "Tesla K80", &g, &e), GP_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(e.msg, "--as"));
}
END_TEST

/* ---- CLI -------------------------------------------------------------------------------- */

static int cli(const char *const *argv, char **out, char **err)
{
    return gp_test_cli(argv, out, err);
}

/* `--db A --db B calib import F` writes A, but B loads after A: a
 * calibration of the same GPU in B overrides every figure the import wrote,
 * so the import is not in effect.  Import says so (and still writes). */
START_TEST(cli_import_shadowed_by_later_overlay)
{
    char a[256], b[256], *out = NULL, *err = NULL;
    const char *into_b[] = {"--db", b, "calib", "import", DATA "synthetic-h100.yaml", NULL};
    const char *into_a[] = {"--db", a, "--db", b, "calib", "import", DATA "synthetic-h100.yaml",
                            NULL};
    const char *alone[] = {"--db", a, "calib", "import", DATA "synthetic-h100.yaml", NULL};
    char envb[300];
    const char *env[] = {envb, NULL};
    ck_assert_int_eq(gp_test_tmpdir(a, sizeof a), 0);
    ck_assert_int_eq(gp_test_tmpdir(b, sizeof b), 0);
    ck_assert_int_eq(cli(into_b, &out, &err), 0);
    ck_assert_ptr_null(strstr(err, "not in effect"));
    free(out);
    free(err);
    ck_assert_int_eq(cli(into_a, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "wrote"));
    ck_assert_ptr_nonnull(strstr(err, "/gpus/calib-h100-sxm.yaml is not in effect"));
    ck_assert_ptr_nonnull(strstr(err, b));
    ck_assert_ptr_nonnull(strstr(err, "/links/calib-h100-sxm.yaml is not in effect"));
    free(out);
    free(err);
    /* A written last ($GPUPLAN_DB=B loads before --db A): in effect, no note. */
    snprintf(envb, sizeof envb, "GPUPLAN_DB=%s", b);
    ck_assert_int_eq(gp_test_cli_env(alone, env, &out, &err), 0);
    ck_assert_ptr_null(strstr(err, "not in effect"));
    free(out);
    free(err);
    gp_test_rmtree(a);
    gp_test_rmtree(b);
}
END_TEST

START_TEST(cli_import_idempotent_and_used)
{
    char dir[256], g[512], l[512], *out = NULL, *err = NULL, *before, *after, buf[1024];
    const char *argv[] = {"--db", dir, "calib", "import", DATA "synthetic-h100.yaml", NULL};
    const char *dirs[1];
    gp_db *db = NULL;
    gp_err e;
    const gp_gpu *gpu;
    const gp_link *nv;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(g, sizeof g, "%s/gpus/calib-h100-sxm.yaml", dir);
    snprintf(l, sizeof l, "%s/links/calib-h100-sxm.yaml", dir);
    ck_assert_int_eq(cli(argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "wrote"));
    ck_assert(exists(g) && exists(l));
    before = gp_test_slurp(g);
    free(out);
    free(err);
    /* Second import: same bytes, nothing rewritten. */
    ck_assert_int_eq(cli(argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "unchanged"));
    after = gp_test_slurp(g);
    ck_assert_str_eq(before, after);
    /* The overlay directory drives the database. */
    dirs[0] = dir;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, dirs, 1, &e) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    gpu = gp_db_find_gpu(db, "h100-sxm");
    GP_ASSERT_REL(gpu->meas_mem_bw.v, 3.0e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(gpu), 3.0e12, 1e-9);
    GP_ASSERT_REL(gpu->meas_peak[GP_BF16][GP_PIPE_TENSOR].v, 780e12, 1e-9);
    nv = gp_db_find_link(db, "nvlink4");
    /* The AllReduce busbw (360e9 in make_synthetic.py), not the peer copy. */
    GP_ASSERT_REL(nv->meas_bw.v, 360e9, 0.01);
    GP_ASSERT_REL(gp_link_expected_bw(nv), nv->meas_bw.v, 0);
    GP_ASSERT_REL(gp_link_expected_latency(nv), 2.5e-6, 1e-9);
    gp_db_free(db);
    free(after);
    free(out);
    free(err);
    {
        /* A file of the same name that import did not write is not replaced. */
        const char *av[] = {"--db", dir, "calib", "import", DATA "synthetic-h100.yaml", NULL};
        char *mine;
        FILE *fp = fopen(g, "w");
        ck_assert_ptr_nonnull(fp);
        fputs("id: h100-sxm\nnote: hand-written\n", fp);
        fclose(fp);
        ck_assert_int_eq(cli(av, &out, &err), 2);
        ck_assert_ptr_nonnull(strstr(err, "did not write"));
        mine = gp_test_slurp(g);
        ck_assert_str_eq(mine, "id: h100-sxm\nnote: hand-written\n");
        free(mine);
        free(out);
        free(err);
        fp = fopen(g, "w");
        ck_assert_ptr_nonnull(fp);
        fputs(before, fp);
        fclose(fp);
    }
    {
        /* decode's expected matmul rate is the measured 780e12 (bf16 on the
         * tensor cores), and its source the calibration, not
         * efficiency.compute. */
        const char *av[] = {"--db", dir, "decode", "--gpu", "h100-sxm", "--model",
                            "llama-2-7b", "--weights", "bf16", NULL};
        char line[512];
        const char *row, *end;
        ck_assert_int_eq(cli(av, &out, &err), 0);
        row = strstr(out, "    expected                   780.0 TFLOP/s");
        ck_assert_msg(row != NULL, "%s", out);
        end = strchr(row, '\n');
        ck_assert_ptr_nonnull(end);
        snprintf(line, sizeof line, "%.*s", (int)(end - row), row);
        ck_assert_msg(strstr(line, "synthetic-h100.yaml") != NULL, "%s", line);
        ck_assert_msg(strstr(line, "efficiency") == NULL, "%s", line);
        free(out);
        free(err);
    }
    {
        /* hw show prints measured beside datasheet figures. */
        const char *av[] = {"--db", dir, "hw", "show", "h100-sxm", NULL};
        ck_assert_int_eq(cli(av, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "calib-h100-sxm.yaml"));
        free(out);
        free(err);
    }
    free(before);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_refused_import_leaves_dir_unchanged)
{
    char dir[256], *out = NULL, *err = NULL, *before, *after;
    const char *good[] = {"--db", dir, "calib", "import", DATA "synthetic-h100.yaml", NULL};
    const char *bad[] = {"--db", dir, "calib", "import", DATA "corrupt.yaml", NULL};
    const char *trunc[] = {"--db", dir, "calib", "import", DATA "truncated.yaml", "--as",
                           "h100-sxm", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* Into an empty directory: refused, nothing created. */
    ck_assert_int_eq(cli(bad, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, DATA "corrupt.yaml:28:"));
    before = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, "");
    free(before);
    free(out);
    free(err);
    /* Over an existing overlay: refused, bytes unchanged. */
    ck_assert_int_eq(cli(good, &out, &err), 0);
    free(out);
    free(err);
    before = gp_test_dir_listing(dir);
    ck_assert_int_eq(cli(bad, &out, &err), 2);
    free(out);
    free(err);
    ck_assert_int_eq(cli(trunc, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "truncated.yaml:85:"));
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* train's "expected GEMM rate" cites the calibration only for a GEMM it
 * measured.  synthetic-rtx4090.yaml measures bf16 on the tensor cores
 * (1,099,511,627,776 FLOP in a median 6.87194767 ms = 160.0 TFLOP/s) and no
 * fp8: an fp8 run's rate is the datasheet's 330.3 x efficiency.compute 1.0
 * x GP_EFF_NARROW_RATIO 0.8826 = 291.5 TFLOP/s, whose source is that
 * product, not the calibration file (it once named the file for both). */
START_TEST(cli_train_gemm_source_only_when_measured)
{
    static const struct {
        const char *prec, *value;
        int calibrated;
    } rows[] = {
        {"bf16", "160.0 TFLOP/s (calibrated)", 1},
        {"fp8", "291.5 TFLOP/s (peak x efficiency.compute x 0.883)", 0},
    };
    char dir[256], *out = NULL, *err = NULL;
    const char *imp[] = {"--db", dir, "calib", "import", DATA "synthetic-rtx4090.yaml", NULL};
    size_t i, k;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(cli(imp, &out, &err), 0);
    free(out);
    free(err);
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *av[] = {"--db", dir, "--json", "train", "--gpu", "rtx-4090", "--gpus", "1",
                            "--model", "llama-3.2-1b", "--tokens", "1B", "--mfu", "model",
                            "--seq", "2048", "--global-batch", "8", "--precision", rows[i].prec,
                            NULL};
        const json_t *as, *found = NULL;
        const char *src;
        json_t *j;
        ck_assert_int_eq(cli(av, &out, &err), 0);
        j = json_loads(out, 0, NULL);
        ck_assert_msg(j != NULL, "%s", out);
        as = json_object_get(j, "assumptions");
        for (k = 0; k < json_array_size(as); k++)
            if (strcmp(json_string_value(json_object_get(json_array_get(as, k), "name")),
                       "expected GEMM rate") == 0)
                found = json_array_get(as, k);
        ck_assert_msg(found != NULL, "%s: no expected GEMM rate", rows[i].prec);
        ck_assert_str_eq(json_string_value(json_object_get(found, "value")), rows[i].value);
        src = json_string_value(json_object_get(found, "source"));
        if (rows[i].calibrated)
            ck_assert_msg(strstr(src, "synthetic-rtx4090.yaml") != NULL, "%s", src);
        else
            ck_assert_str_eq(src, "datasheet x efficiency.compute x 0.883");
        json_decref(j);
        free(out);
        free(err);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_target_dir_env_and_xdg)
{
    char dir[256], env1[600], env2[300], p[512], *out = NULL, *err = NULL;
    const char *argv[] = {"calib", "import", DATA "synthetic-rtx4090.yaml", NULL};
    const char *envs[3];
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* $GPUPLAN_DB (first entry) when there is no --db. */
    snprintf(env1, sizeof env1, "GPUPLAN_DB=%s/a:%s", dir, dir);
    envs[0] = env1;
    envs[1] = NULL;
    ck_assert_int_eq(gp_test_cli_env(argv, envs, &out, &err), 0);
    snprintf(p, sizeof p, "%s/a/gpus/calib-rtx-4090.yaml", dir);
    ck_assert_msg(exists(p), "%s missing; stderr: %s", p, err);
    free(out);
    free(err);
    /* Else ${XDG_CONFIG_HOME}/gpuplan. */
    envs[0] = "GPUPLAN_DB=";
    snprintf(env2, sizeof env2, "XDG_CONFIG_HOME=%s/xdg", dir);
    envs[1] = env2;
    envs[2] = NULL;
    ck_assert_int_eq(gp_test_cli_env(argv, envs, &out, &err), 0);
    snprintf(p, sizeof p, "%s/xdg/gpuplan/gpus/calib-rtx-4090.yaml", dir);
    ck_assert_msg(exists(p), "%s missing; stderr: %s", p, err);
    ck_assert_ptr_nonnull(strstr(out, "as an overlay from now on"));
    free(out);
    free(err);
    /* ...and the default directory is read from then on, with no option. */
    {
        const char *show[] = {"--json", "hw", "show", "rtx-4090", NULL};
        json_error_t je;
        json_t *j;
        envs[0] = env2;
        envs[1] = NULL;
        ck_assert_int_eq(gp_test_cli_env(show, envs, &out, &err), 0);
        j = json_loads(out, 0, &je);
        ck_assert_ptr_nonnull(j);
        ck_assert_msg(json_object_get(j, "measured") != NULL, "no measured block: %s", out);
        json_decref(j);
        free(out);
        free(err);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_as_and_unknown_device)
{
    char dir[256], path[512], *out = NULL, *err = NULL, *text;
    const char *plain[] = {"--db", dir, "calib", "import", path, NULL};
    const char *as_l4[] = {"--db", dir, "calib", "import", path, "--as", "l4", NULL};
    const char *as_bad[] = {"--db", dir, "calib", "import", path, "--as", "nope-9000", NULL};
    char *p;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    text = gp_test_slurp(DATA "synthetic-rtx4090.yaml");
    p = strstr(text, "NVIDIA GeForce RTX 4090");
    ck_assert_ptr_nonnull(p);
    memcpy(p, "Mystery  Accelerator 1 ", 23); /* same length: 23 characters */
    ck_assert_int_eq(gp_test_write(dir, "m/mystery.yaml", text), 0);
    snprintf(path, sizeof path, "%s/m/mystery.yaml", dir);
    ck_assert_int_eq(cli(plain, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--as"));
    free(out);
    free(err);
    ck_assert_int_eq(cli(as_bad, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "nope-9000"));
    free(out);
    free(err);
    /* An RTX 4090's figures named as an L4 (300 GB/s, 121 TFLOP/s): said to
     * be far above the L4's datasheet (memory copy ~0.9 TB/s is ~300 % of 300
     * GB/s), and refused, nothing written: a measured DRAM rate cannot beat
     * the datasheet's (the expected figure would beat the ceiling). */
    ck_assert_int_eq(cli(as_l4, &out, &err), 2);
    snprintf(path, sizeof path, "%s/gpus/calib-l4.yaml", dir);
    ck_assert(!exists(path));
    ck_assert_msg(strstr(err, "above l4's datasheet") != NULL, "stderr: %s", err);
    ck_assert_ptr_nonnull(strstr(err, "check --as"));
    ck_assert_ptr_nonnull(strstr(err, "nothing written"));
    ck_assert_ptr_nonnull(strstr(err, "measured 9.2e+11 B/s is 207 % above the datasheet 3e+11"));
    free(out);
    free(err);
    /* The same figures on their own GPU: no such warning. */
    snprintf(path, sizeof path, "%s", DATA "synthetic-rtx4090.yaml");
    ck_assert_int_eq(cli(plain, &out, &err), 0);
    ck_assert_msg(strstr(err, "datasheet by more than") == NULL, "stderr: %s", err);
    free(out);
    free(err);
    free(text);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_show_json)
{
    const char *argv[] = {"--json", "calib", "show", DATA "synthetic-h100.yaml", NULL};
    char *out = NULL, *err = NULL;
    json_t *j, *fits, *f, *effs;
    json_error_t je;
    size_t i;
    int seen = 0;
    ck_assert_int_eq(cli(argv, &out, &err), 0);
    j = json_loads(out, 0, &je);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "h100-sxm");
    GP_ASSERT_REL(json_real_value(json_object_get(json_object_get(j, "summary"),
                                                  "mem_bw_bytes_per_s")),
                  3.0e12, 1e-9);
    fits = json_object_get(j, "fits");
    json_array_foreach(fits, i, f)
    {
        if (strcmp(json_string_value(json_object_get(f, "series")), "h2d-pinned") == 0) {
            GP_ASSERT_REL(json_real_value(json_object_get(f, "alpha_s")), 8e-6, 0.01);
            GP_ASSERT_REL(json_real_value(json_object_get(f, "beta_bytes_per_s")), 25e9, 0.01);
            GP_ASSERT_REL(json_real_value(json_object_get(f, "n_half_bytes")), 200000.0, 0.02);
            seen = 1;
        }
    }
    ck_assert(seen);
    effs = json_object_get(j, "efficiencies");
    ck_assert(json_array_size(effs) > 10);
    seen = 0;
    json_array_foreach(effs, i, f)
    {
        const char *w = json_string_value(json_object_get(f, "what"));
        if (strcmp(w, "memory copy") == 0) {
            /* 3.0 TB/s of the datasheet 3.35 TB/s. */
            GP_ASSERT_REL(json_real_value(json_object_get(f, "measured_bytes_per_s")), 3.0e12, 1e-8);
            GP_ASSERT_REL(json_real_value(json_object_get(f, "efficiency")), 3.0 / 3.35, 1e-8);
            seen++;
        } else if (strcmp(w, "bf16 tensor GEMM") == 0) {
            GP_ASSERT_REL(json_real_value(json_object_get(f, "measured_flop_per_s")), 780e12, 1e-8);
            seen++;
        }
    }
    ck_assert_int_eq(seen, 2);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "points")), 157);
    json_decref(j);
    free(out);
    free(err);
    {
        const char *tab[] = {"calib", "show", DATA "synthetic-h100.yaml", NULL};
        ck_assert_int_eq(cli(tab, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "efficiency vs datasheet (h100-sxm)"));
        ck_assert_ptr_nonnull(strstr(out, "89.6%")); /* 3.0 / 3.35 */
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(cli_usage_errors)
{
    static const char *const cases[][6] = {
        {"calib", NULL},
        {"calib", "frob", NULL},
        {"calib", "import", NULL},
        {"calib", "show", DATA "synthetic-h100.yaml", "--quick", NULL},
        {"calib", "import", "a.yaml", "b.yaml", NULL},
        {"calib", "import", "a.yaml", "--bogus", NULL},
        {"calib", "import", "a.yaml", "--as", NULL},
    };
    char *out = NULL, *err = NULL;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(cli(cases[i], &out, &err), 2);
        ck_assert_ptr_nonnull(strstr(err, "gpuplan calib"));
        free(out);
        free(err);
    }
    {
        const char *help[] = {"calib", "--help", NULL};
        ck_assert_int_eq(cli(help, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "usage: gpuplan"));
        /* -o's long form, which the option table takes, is listed too. */
        ck_assert_ptr_nonnull(strstr(out, "-o, --output FILE"));
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(cli_run_with_a_stand_in_probe)
{
    /* A stand-in for gpuplan-probe (no GPU here): writes the synthetic file
     * where -o says, so `calib run` must pass -o and import the result. */
    char dir[256], probe[512], fail[512], meas[512], g[512], *out = NULL, *err = NULL;
    const char *run[] = {"--db", dir, "calib", "run", "--probe", probe, "-o", meas, NULL};
    const char *runf[] = {"--db", dir, "calib", "run", "--probe", fail, "-o", meas, NULL};
    const char *none[] = {"--db", dir, "calib", "run", "--probe", "/nonexistent/gpuplan-probe", NULL};
    char *before, *after;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "bin/probe",
                                   "#!/bin/sh\n[ \"$1\" = -o ] || exit 9\n"
                                   "cp " DATA "synthetic-h100.yaml \"$2\"\n"),
                     0);
    ck_assert_int_eq(gp_test_write(dir, "bin/fail", "#!/bin/sh\necho 'no GPU' >&2\nexit 3\n"), 0);
    snprintf(probe, sizeof probe, "%s/bin/probe", dir);
    snprintf(fail, sizeof fail, "%s/bin/fail", dir);
    snprintf(meas, sizeof meas, "%s/meas.yaml", dir);
    snprintf(g, sizeof g, "%s/gpus/calib-h100-sxm.yaml", dir);
    ck_assert_int_eq(chmod(probe, 0755), 0);
    ck_assert_int_eq(chmod(fail, 0755), 0);
    ck_assert_int_eq(cli(run, &out, &err), 0);
    ck_assert(exists(meas) && exists(g));
    free(out);
    free(err);
    before = gp_test_dir_listing(dir);
    ck_assert_int_eq(cli(runf, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "nothing imported"));
    free(out);
    free(err);
    /* A --probe path that is not an executable is bad input: exit 2. */
    ck_assert_int_eq(cli(none, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--probe"));
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* Import synthetic-h100.yaml without its lines that hold any of PATS,
 * into a fresh --db directory DIR (DN bytes): asserts exit 0 and returns
 * stderr (the caller frees it and removes DIR). */
static char *import_synthetic_without(const char *const *pats, size_t n, char *dir, size_t dn)
{
    char file[512], *text, *line, *out = NULL, *err = NULL;
    const char *argv[] = {"--db", dir, "calib", "import", file, NULL};
    size_t k;
    text = gp_test_slurp(DATA "synthetic-h100.yaml");
    ck_assert_ptr_nonnull(text);
    for (k = 0; k < n; k++)
        while ((line = strstr(text, pats[k])) != NULL) {
            char *start = line, *end = strchr(line, '\n');
            while (start > text && start[-1] != '\n')
                start--;
            ck_assert_ptr_nonnull(end);
            memmove(start, end + 1, strlen(end + 1) + 1);
        }
    ck_assert_int_eq(gp_test_tmpdir(dir, dn), 0);
    ck_assert_int_eq(gp_test_write(dir, "m.yaml", text), 0);
    free(text);
    snprintf(file, sizeof file, "%s/m.yaml", dir);
    ck_assert_int_eq(cli(argv, &out, &err), 0);
    free(out);
    return err;
}

/* A probe file whose AllReduce sweep stops short of the bandwidth regime
 * (a time budget spent at 32 MiB: its 128 and 512 MiB rows dropped) keeps
 * its GPU figures: the import writes the GPU overlay, no link overlay, and
 * says why. */
START_TEST(cli_import_probe_short_allreduce)
{
    static const char *const rows[] = {"  - {gpus: 8, bytes: 134217728,",
                                       "  - {gpus: 8, bytes: 536870912,"};
    char dir[256], path[600], *err = import_synthetic_without(rows, 2, dir, sizeof dir);
    ck_assert_msg(strstr(err, "no link overlay") != NULL &&
                      strstr(err, "largest size is 33554432 B") != NULL,
                  "%s", err);
    snprintf(path, sizeof path, "%s/gpus/calib-h100-sxm.yaml", dir);
    ck_assert(exists(path));
    snprintf(path, sizeof path, "%s/links/calib-h100-sxm.yaml", dir);
    ck_assert(!exists(path));
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* The same for a pinned host-to-device sweep cut at 32 MiB in a file
 * that measured the GPU too: the GPU overlay keeps its other figures and
 * the h2d latency, not an h2d bandwidth, and a note says why. */
START_TEST(cli_import_probe_short_h2d)
{
    static const char *const rows[] = {
        "direction: h2d, memory: pinned, bytes: 67108864,",
        "direction: h2d, memory: pinned, bytes: 134217728,",
        "direction: h2d, memory: pinned, bytes: 268435456,",
        "direction: h2d, memory: pinned, bytes: 536870912,",
        "direction: h2d, memory: pinned, bytes: 1073741824,"};
    char dir[256], path[600], *g, *err = import_synthetic_without(rows, 5, dir, sizeof dir);
    ck_assert_msg(strstr(err, "no host-link bandwidth") != NULL &&
                      strstr(err, "largest size is 33554432 B") != NULL,
                  "%s", err);
    snprintf(path, sizeof path, "%s/gpus/calib-h100-sxm.yaml", dir);
    g = gp_test_slurp(path);
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_null(strstr(g, "h2d_bandwidth"));
    ck_assert_ptr_nonnull(strstr(g, "h2d_latency"));
    ck_assert_ptr_nonnull(strstr(g, "d2h_bandwidth"));
    free(g);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_run_checks_o_before_the_probe)
{
    /* -o is checked before the probe runs (~75 s on a GPU): a stand-in probe
     * that leaves a mark must not have run when -o is a directory, in a
     * directory that does not exist, or under a file.  (An unwritable
     * directory is refused the same way, "is not writable"; not tested here:
     * CI runs as root, whom access(W_OK) never refuses.) */
    char dir[256], probe[512], mark[512], body[1024], o[3][512], *out = NULL, *err = NULL;
    static const char *const says[3] = {"is a directory", "does not exist", "is not a directory"};
    int k;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(mark, sizeof mark, "%s/ran", dir);
    snprintf(body, sizeof body, "#!/bin/sh\ntouch '%s'\nexit 0\n", mark);
    ck_assert_int_eq(gp_test_write(dir, "bin/probe", body), 0);
    ck_assert_int_eq(gp_test_write(dir, "file", "x\n"), 0);
    snprintf(probe, sizeof probe, "%s/bin/probe", dir);
    ck_assert_int_eq(chmod(probe, 0755), 0);
    snprintf(o[0], sizeof o[0], "%s/bin", dir);
    snprintf(o[1], sizeof o[1], "%s/missing/x.yaml", dir);
    snprintf(o[2], sizeof o[2], "%s/file/x.yaml", dir);
    for (k = 0; k < 3; k++) {
        const char *argv[] = {"--db", dir, "calib", "run", "--probe", probe, "-o", o[k], NULL};
        ck_assert_int_eq(cli(argv, &out, &err), 2);
        ck_assert_msg(strstr(err, "option '-o'") != NULL && strstr(err, o[k]) != NULL &&
                          strstr(err, says[k]) != NULL,
                      "-o %s: %s", o[k], err);
        ck_assert_msg(!exists(mark), "-o %s: the probe ran", o[k]);
        free(out);
        free(err);
    }
    gp_test_rmtree(dir);
}
END_TEST

/* ---- the probe's build ------------------------------------------------------------------- */

static int have_nvcc(void)
{
    return system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc") == 0;
}

START_TEST(build_without_nvcc_is_not_an_error)
{
    char cmd[512], buf[512];
    FILE *p;
    size_t n;
    int st;
    snprintf(cmd, sizeof cmd, "NVCC=/nonexistent/nvcc sh calib/build.sh %s/nonvcc 2>&1",
             gp_test_build_dir());
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    st = pclose(p);
    ck_assert_int_eq(st, 0);
    ck_assert_ptr_nonnull(strstr(buf, "make calib: nvcc not found; CUDA probes not built"));
}
END_TEST

START_TEST(probe_fat_binary_holds_six_architectures)
{
    static const char *const archs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};
    char exe[512], cmd[2400], *buf;
    FILE *p;
    size_t n, i;
    snprintf(exe, sizeof exe, "%s/gpuplan-probe", gp_test_build_dir());
    if (!have_nvcc()) {
        fprintf(stderr, "check_calib: nvcc not found; fat-binary check skipped\n");
        return;
    }
    if (!exists(exe)) {
        fprintf(stderr, "check_calib: %s not built ('make calib'); fat-binary check skipped\n", exe);
        return;
    }
    /* cuobjdump when installed, else the bundled lister build.sh made. */
    snprintf(cmd, sizeof cmd,
             "if command -v cuobjdump >/dev/null 2>&1; then cuobjdump --list-elf '%s'; "
             "elif [ -x /usr/local/cuda/bin/cuobjdump ]; then /usr/local/cuda/bin/cuobjdump "
             "--list-elf '%s'; else '%s/calib/fatbin_list' --list-elf '%s'; fi 2>&1",
             exe, exe, gp_test_build_dir(), exe);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    buf = calloc(1, 1 << 20);
    n = fread(buf, 1, (1 << 20) - 1, p);
    buf[n] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    for (i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        char pat[32];
        snprintf(pat, sizeof pat, ".%s.cubin", archs[i]);
        ck_assert_msg(strstr(buf, pat) != NULL, "%s lacks %s:\n%s", exe, archs[i], buf);
    }
    free(buf);
    {
        /* --list and --help work without a GPU. */
        char *out = NULL;
        snprintf(cmd, sizeof cmd, "'%s' --list", exe);
        p = popen(cmd, "r");
        ck_assert_ptr_nonnull(p);
        out = calloc(1, 4096);
        n = fread(out, 1, 4095, p);
        out[n] = '\0';
        ck_assert_int_eq(pclose(p), 0);
        ck_assert_ptr_nonnull(strstr(out, "gemm"));
        ck_assert_ptr_nonnull(strstr(out, "allreduce"));
        free(out);
    }
}
END_TEST


START_TEST(dates_by_the_calendar)
{
    /* What --date and a measurement file's date: accept (gp_calib_date_ok):
     * 2024 is a leap year (divisible by 4, not by 100), 1900 is not
     * (divisible by 100, not by 400), 2000 is (by 400). */
    static const char *const good[] = {
        "2026-12-01", "2026-12-01T04:00:00Z", "2024-02-29", "2000-02-29T23:59:60Z",
        "2026-12-01T04:00", "2026-12-01T04:00:00.123456Z", "2026-12-01T04:00:00+05:30",
        "2026-12-01T04:00:00-08:00", "2026-01-31", "2026-04-30",
        "2026-12-01T04:00:00.1234567890123+05:30" /* 39 characters: the most gp_calib holds */};
    static const char *const bad[] = {
        "2026-13-45T99:00:00Z", "20261201", "2026-12-01T99:00:00Z", "2026-12-01T04:60:00Z",
        "2026-12-01T04:00:61Z", "2026-00-10", "2026-12-00", "2026-04-31", "2023-02-29",
        "1900-02-29", "2026-12-01x", "2026-12-01T", "2026-12-01T04:00:00ZZ",
        "2026-12-01T04:00:00+24:00", "2026-12-01T04:00:00.Z", "2026/12/01", "", "yesterday",
        "2026-1-01", "2026-12-01T04:00:00.12345678901234+05:30" /* 40: would be cut */};
    size_t i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++)
        ck_assert_msg(gp_calib_date_ok(good[i]), "'%s' refused", good[i]);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!gp_calib_date_ok(bad[i]), "'%s' accepted", bad[i]);
    ck_assert(!gp_calib_date_ok(NULL));
}
END_TEST

Suite *gp_test_suite_calib(void)
{
    Suite *s = suite_create("calib");
    TCase *tc = tcase_create("library");
    TCase *tcli = tcase_create("cli");
    TCase *tb = tcase_create("probe");
    tcase_add_test(tc, stats_by_hand);
    tcase_add_test(tc, fit_exact_model);
    tcase_add_test(tc, fit_rejects_bad_input);
    tcase_add_test(tc, fit_recovers_synthetic_sweeps);
    tcase_add_test(tc, read_synthetic_file);
    tcase_add_test(tc, summary_by_hand);
    tcase_add_test(tc, refuses_corrupt_and_truncated);
    tcase_add_test(tc, refuses_bad_content);
    tcase_add_test(tc, reader_error_paths);
    tcase_add_test(tc, api_guards);
    tcase_add_test(tc, overlay_units_and_fallbacks);
    tcase_add_test(tc, match_ambiguous_and_large_file);
    tcase_add_test(tc, fit_sorts_sizes);
    tcase_add_test(tc, fit_series_rejects_hand_built_points);
    tcase_add_test(tc, overlay_text_by_hand);
    tcase_add_test(tc, overlay_loads_and_drives_expected);
    tcase_add_test(tc, efficiencies_vs_datasheet);
    tcase_add_test(tc, match_device_names);
    tcase_add_test(tc, dates_by_the_calendar);
    suite_add_tcase(s, tc);
    tcase_add_test(tcli, cli_import_idempotent_and_used);
    tcase_add_test(tcli, cli_import_shadowed_by_later_overlay);
    tcase_add_test(tcli, cli_refused_import_leaves_dir_unchanged);
    tcase_add_test(tcli, cli_target_dir_env_and_xdg);
    tcase_add_test(tcli, cli_train_gemm_source_only_when_measured);
    tcase_add_test(tcli, cli_as_and_unknown_device);
    tcase_add_test(tcli, cli_show_json);
    tcase_add_test(tcli, cli_usage_errors);
    tcase_add_test(tcli, cli_run_with_a_stand_in_probe);
    tcase_add_test(tcli, cli_run_checks_o_before_the_probe);
    tcase_add_test(tcli, cli_import_probe_short_allreduce);
    tcase_add_test(tcli, cli_import_probe_short_h2d);
    tcase_add_test(tcli, overlay_and_logs_ignore_the_locale); /* 60 s: localedef, once */
    tcase_set_timeout(tcli, 60);
    suite_add_tcase(s, tcli);
    tcase_add_test(tb, build_without_nvcc_is_not_an_error);
    tcase_add_test(tb, probe_fat_binary_holds_six_architectures);
    tcase_set_timeout(tb, 60);
    suite_add_tcase(s, tb);
    return s;
}
