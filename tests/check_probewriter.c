/* The probe's measurement-file writer (calib/writer.c) against the library's
 * reader (lib/calib.c), without a GPU: fake measurements go through the same
 * C code gpuplan-probe links, and the text must read back with every figure
 * intact.  A schema change on one side that the other does not follow fails
 * here.  Every expected value is derived by hand in the comment above it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

/* The writer is host-only C11; compile it into this test exactly as the
 * probe's build (calib/build.sh) compiles it. */
#include "../calib/writer.c"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

/* A fake H200 (figures as `nvidia-smi` and cudaGetDeviceProperties report
 * them on one: 132 SMs, 60 MiB L2, 143771 MiB, PCIe gen 5 x16). */
static gpw_device fake_h200(void)
{
    gpw_device v;
    memset(&v, 0, sizeof v);
    v.name = "NVIDIA H200";
    v.pci_bus_id = "0000:18:00.0";
    v.nvml_driver = "580.159.04";
    v.cuda_toolkit = "13000";
    v.pcie_source = "nvml";
    v.cc_major = 9;
    v.sm_count = 132;
    v.gpus = 1;
    v.memory_bus_bits = 6144;
    v.ecc = 1;
    v.driver_version = 13000;
    v.runtime_version = 13000;
    v.cublaslt_version = 130000;
    v.clock_sm_hz = 1.98e9;
    v.clock_mem_hz = 3.2e9;
    v.memory_bytes = 143771.0 * MIB;
    v.l2_bytes = 60.0 * MIB;
    v.pcie_gen = v.pcie_max_gen = 5;
    v.pcie_width = v.pcie_max_width = 16;
    return v;
}

static gp_calib *read_back(const char *text)
{
    gp_calib *c = NULL;
    gp_err e;
    char buf[1024];
    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_text("probe.yaml", text, strlen(text), &c, &e) == GP_OK,
                  "%s\n---\n%s", gp_err_format(&e, buf, sizeof buf), text);
    return c;
}

static const gp_calib_point *find(const gp_calib *c, gp_calib_kind kind, const char *series,
                                  double work)
{
    size_t i;
    for (i = 0; i < c->n_pts; i++)
        if (c->pts[i].kind == kind && strcmp(c->pts[i].series, series) == 0 &&
            c->pts[i].work == work)
            return &c->pts[i];
    ck_abort_msg("no %s point %s with work %.17g", gp_calib_kind_name(kind), series, work);
    return NULL;
}

/* Buffer sizes the writer cuts strings to must match the reader's structs. */
START_TEST(limits_match_the_reader)
{
    gp_calib c;
    gp_calib_point p;
    ck_assert_uint_eq(GPW_MAX_NAME + 1, sizeof c.dev.name);
    ck_assert_uint_eq(GPW_MAX_CC + 1, sizeof c.dev.cc);
    ck_assert_uint_eq(GPW_MAX_BUS + 1, sizeof c.dev.pci_bus_id);
    ck_assert_uint_eq(GPW_MAX_NVML + 1, sizeof c.dev.nvml_driver);
    ck_assert_uint_eq(GPW_MAX_TOOL + 1, sizeof c.tool);
    ck_assert_uint_eq(GPW_MAX_DATE + 1, sizeof c.date);
    ck_assert_uint_eq(GPW_MAX_HOST + 1, sizeof c.host);
    ck_assert_uint_eq(GPW_MAX_LABEL + 1, sizeof p.label);
    ck_assert_str_eq(GPW_FORMAT, GP_CALIB_FORMAT);
}
END_TEST

/* The probe's statistics agree with the library's (GSL) on the same data.
 * Sorted {1, 2, 3, 4}: median at h = 1.5 -> 2.5; p95 at h = 3 * 0.95 = 2.85
 * -> 3 + 0.85 = 3.85; mean 2.5; sd = sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3) =
 * sqrt(5/3) = 1.2909944 -> cv 0.51639778. */
START_TEST(stats_match_the_library)
{
    double x[4] = {3, 1, 2, 4}, w[4];
    gpw_stats s;
    gp_calib_stats g;
    gp_err e;
    ck_assert_int_eq(gpw_stats_of(x, 4, &s), 0);
    GP_ASSERT_REL(s.median, 2.5, 1e-15);
    GP_ASSERT_REL(s.p95, 3.85, 1e-14);
    GP_ASSERT_REL(s.mean, 2.5, 1e-15);
    GP_ASSERT_REL(s.cv, 0.5163977794943222, 1e-12);
    GP_ASSERT_REL(s.min, 1.0, 0);
    GP_ASSERT_REL(s.max, 4.0, 0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_stats_compute(x, 4, w, &g, &e), GP_OK);
    GP_ASSERT_REL(s.median, g.median, 1e-15);
    GP_ASSERT_REL(s.p95, g.p95, 1e-15);
    GP_ASSERT_REL(s.cv, g.cv, 1e-12);
    /* One sample: cv 0.  Bad input refused. */
    ck_assert_int_eq(gpw_stats_of(x, 1, &s), 0);
    GP_ASSERT_REL(s.cv, 0.0, 0);
    GP_ASSERT_REL(s.p95, 3.0, 0);
    ck_assert_int_eq(gpw_stats_of(x, 0, &s), -1);
    ck_assert_int_eq(gpw_stats_of(NULL, 4, &s), -1);
    x[1] = NAN;
    ck_assert_int_eq(gpw_stats_of(x, 4, &s), -1);
}
END_TEST

/* A full file as the probe writes it on a one-GPU H200, read back. */
START_TEST(full_file_round_trip)
{
    /* bf16 square-8192: FLOP = 2 * 8192^3 = 1099511627776; trials sorted
     * 1.38 .. 1.42 ms, median 1.40 ms -> 1099511627776 / 1.4e-3 =
     * 7.853654484e14 FLOP/s; best 1099511627776 / 1.38e-3 = 7.967475564e14.
     * 16384^3 fp64: FLOP = 2 * 16384^3 = 8796093022208 (needs 13 digits:
     * written exactly, the reader's 2mnk check passes). */
    const double gemm_t[7] = {1.40e-3, 1.41e-3, 1.39e-3, 1.40e-3, 1.42e-3, 1.38e-3, 1.40e-3};
    const double fp64_t[7] = {0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15};
    /* copy over two 1 GiB arrays: bytes = 2 GiB = 2147483648; median 0.5 ms
     * -> 4.294967296e12 B/s. */
    const double copy_t[7] = {5.0e-4, 5.1e-4, 4.9e-4, 5.0e-4, 5.0e-4, 5.2e-4, 5.0e-4};
    /* Latency: 8 KiB 30 ns (L1 window <= 16 KiB), 4 MiB 250 ns (L2 window 1
     * MiB .. L2/4 = 15 MiB), 1 GiB 700 ns (DRAM window max(8 L2 = 480 MiB,
     * 64 MiB) .. 1 GiB); cycles = ns * 1.98. */
    const double l1_ns[7] = {30, 30, 30, 30, 30, 30, 30}, l1_cy[7] = {59.4, 59.4, 59.4, 59.4, 59.4, 59.4, 59.4};
    const double l2_ns[7] = {250, 250, 250, 250, 250, 250, 250}, l2_cy[7] = {495, 495, 495, 495, 495, 495, 495};
    const double dr_ns[7] = {700, 700, 700, 700, 700, 700, 700}, dr_cy[7] = {1386, 1386, 1386, 1386, 1386, 1386, 1386};
    /* Pinned H2D following t = 5 us + S / 50 GB/s exactly at 1 MiB, 16 MiB,
     * 256 MiB, 1 GiB: the fit returns alpha 5e-6 s and beta 5e10 B/s, zero
     * residual, so the summary takes them. */
    const double sizes[4] = {MIB, 16 * MIB, 256 * MIB, GIB};
    gpw_doc *d = gpw_new();
    gpw_device dev = fake_h200();
    gp_calib *c;
    gp_calib_summary s;
    const gp_calib_point *p;
    char *text;
    size_t i;
    ck_assert_ptr_nonnull(d);
    gpw_set_header(d, "gpuplan-probe 0.2.0", "2026-12-01T10:00:00Z", "gpu-host", 0, 7, "");
    gpw_set_device(d, &dev);
    ck_assert_int_eq(gpw_gemm(d, "bf16", "tensor", "fp32", "square-8192", 8192, 8192, 8192, 4,
                              gemm_t, 7), 0);
    ck_assert_int_eq(gpw_gemm(d, "fp64", "tensor", "fp32", "square-16384", 16384, 16384, 16384,
                              1, fp64_t, 7), 0);
    ck_assert_int_eq(gpw_gemm(d, "fp16", "tensor", "fp16", "llm-qkv", 4096, 12288, 4096, 20,
                              gemm_t, 7), 0);
    ck_assert_int_eq(gpw_memory(d, "copy", 2 * GIB, 2 * GIB, "1056x256", 41, copy_t, 7), 0);
    ck_assert_int_eq(gpw_memory(d, "memcpy-d2d", 2 * GIB, 2 * GIB, "copy engine", 40, copy_t, 7), 0);
    ck_assert_int_eq(gpw_latency(d, 8192, 128, 200000, l1_ns, l1_cy, 7), 0);
    ck_assert_int_eq(gpw_latency(d, 4 * MIB, 128, 200000, l2_ns, l2_cy, 7), 0);
    ck_assert_int_eq(gpw_latency(d, GIB, 128, 50000, dr_ns, dr_cy, 7), 0);
    for (i = 0; i < 4; i++) {
        double t[7];
        size_t j;
        for (j = 0; j < 7; j++)
            t[j] = 5e-6 + sizes[i] / 5e10;
        ck_assert_int_eq(gpw_transfer(d, "h2d", "pinned", sizes[i], 3, t, 7), 0);
        ck_assert_int_eq(gpw_transfer(d, "d2h", "pageable", sizes[i], 3, t, 7), 0);
    }
    ck_assert_uint_eq(gpw_count(d, GPW_GEMM), 3);
    ck_assert_uint_eq(gpw_count(d, GPW_TRANSFER), 8);
    gpw_skip(d, "peer: needs >= 2 GPUs; 1 visible");
    gpw_warning(d, "PCIe link runs at gen 4 x16 below its maximum gen 5 x16");
    text = gpw_render(d, NULL, 0);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "flop: 8796093022208,"));
    ck_assert_ptr_nonnull(strstr(text, "finished: true"));
    c = read_back(text);

    ck_assert_str_eq(c->dev.name, "NVIDIA H200");
    ck_assert_str_eq(c->dev.cc, "9.0");
    ck_assert_str_eq(c->dev.nvml_driver, "580.159.04");
    ck_assert_str_eq(c->tool, "gpuplan-probe 0.2.0");
    ck_assert_str_eq(c->host, "gpu-host");
    ck_assert_int_eq(c->dev.sm_count, 132);
    ck_assert_int_eq(c->dev.pcie_gen, 5);
    ck_assert_int_eq(c->dev.pcie_max_width, 16);
    /* 143771 MiB = 150754820096 B; 60 MiB = 62914560 B, both exact. */
    GP_ASSERT_REL(c->dev.memory_bytes, 150754820096.0, 0);
    GP_ASSERT_REL(c->dev.l2_bytes, 62914560.0, 0);
    GP_ASSERT_REL(c->dev.clock_sm_hz, 1.98e9, 0);
    ck_assert_uint_eq(c->n_pts, 3 + 2 + 3 + 8);

    p = find(c, GP_CALIB_GEMM, "bf16-tensor-fp32acc", 1099511627776.0);
    ck_assert_str_eq(p->label, "square-8192");
    ck_assert(p->verified);
    ck_assert_uint_eq(p->t.n, 7);
    GP_ASSERT_REL(p->rate_median, 7.853654484e14, 1e-9);
    GP_ASSERT_REL(p->rate_best, 7.967475564e14, 1e-9);
    p = find(c, GP_CALIB_GEMM, "fp64-tensor-fp32acc", 8796093022208.0);
    ck_assert_int_eq(p->m, 16384);
    p = find(c, GP_CALIB_GEMM, "fp16-tensor-fp16acc", 2.0 * 4096 * 12288 * 4096);
    ck_assert_int_eq(p->acc, GP_ACC_FP16);
    p = find(c, GP_CALIB_MEMORY, "copy", 2147483648.0);
    GP_ASSERT_REL(p->rate_median, 4.294967296e12, 1e-12);

    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 4.294967296e12, 1e-12);
    GP_ASSERT_REL(s.memcpy_d2d_bw, 4.294967296e12, 1e-12);
    GP_ASSERT_REL(s.gemm[GP_BF16][GP_PIPE_TENSOR], 7.853654484e14, 1e-9);
    GP_ASSERT_REL(s.gemm_fp16acc, 2.0 * 4096 * 12288 * 4096 / 1.4e-3, 1e-9);
    GP_ASSERT_REL(s.lat_l1, 30e-9, 1e-12);
    GP_ASSERT_REL(s.lat_l2, 250e-9, 1e-12);
    GP_ASSERT_REL(s.lat_dram, 700e-9, 1e-12);
    GP_ASSERT_REL(s.lat_dram_cyc, 1386.0, 1e-12);
    GP_ASSERT_REL(s.h2d_bw, 5e10, 1e-6);
    GP_ASSERT_REL(s.h2d_lat, 5e-6, 1e-6);
    GP_ASSERT_REL(s.d2h_pageable_bw, 5e10, 1e-6);
    gp_calib_free(c);
    free(text);
    gpw_free(d);
}
END_TEST

/* Bad points are dropped with a reason instead of making the file unreadable;
 * odd strings are escaped and cut to the reader's limits; probes that did not
 * finish are listed; an empty document is still a valid file. */
START_TEST(bad_points_and_strings)
{
    const double good[3] = {1e-3, 1e-3, 1e-3};
    const double zero[3] = {1e-3, 0.0, 1e-3};
    const double inf[2] = {1e-3, INFINITY};
    const char *pending[2] = {"latency", "transfer"};
    char longname[300], *text;
    gpw_doc *d = gpw_new();
    gpw_device dev = fake_h200();
    gp_calib *c;
    memset(longname, 'A', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    longname[3] = '"';
    longname[4] = '\\';
    longname[5] = '\n';
    longname[6] = (char)0xc3;
    dev.name = longname;
    dev.ecc = -1;
    dev.memory_bus_bits = 0;
    dev.nvml_driver = NULL;
    dev.pcie_source = NULL;
    gpw_set_header(d, "gpuplan-probe", "2026-12-01T10:00:00Z", "host \"x\"", 1, 7, "gemm,memory");
    gpw_set_device(d, &dev);
    ck_assert_int_eq(gpw_transfer(d, "h2d", "pinned", 4096, 1, zero, 3), -1);
    ck_assert_int_eq(gpw_memory(d, "copy", 1e9, 1e9, "x", 1, inf, 2), -1);
    ck_assert_int_eq(gpw_gemm(d, "fp4", "tensor", "fp32", "x", 16, 16, 16, 1, good, 3), -1);
    ck_assert_int_eq(gpw_gemm(d, "bf16", "tensor", "fp32", "x", 0, 16, 16, 1, good, 3), -1);
    ck_assert_int_eq(gpw_gemm(d, "bf16", "tensor", "fp32", "x", 16, 16, 16, 1, NULL, 0), -1);
    ck_assert_int_eq(gpw_peer(d, "sideways", 0, 1, 1, 4096, 1, NULL, good, 3), -1);
    ck_assert_int_eq(gpw_allreduce(d, 1, 4096, "float32", 1, 0, good, 3), -1);
    ck_assert_int_eq(gpw_transfer(d, "h2d", "pinned", 4096, 1, good, 3), 0);
    /* Multi-GPU sections (what a lent 8-GPU machine would add): 1 GiB on 8
     * ranks in 5 ms -> algbw 2^30 / 5e-3 = 2.147483648e11 B/s. */
    ck_assert_int_eq(gpw_peer(d, "uni", 0, 1, 1, GIB, 2, NULL, good, 3), 0);
    ck_assert_int_eq(gpw_peer(d, "latency", 0, 1, 1, 4, 1, "pointer chase", good, 3), 0);
    {
        const double ar[3] = {5e-3, 5e-3, 5e-3};
        ck_assert_int_eq(gpw_allreduce(d, 8, GIB, "float32", 1, 22703, ar, 3), 0);
    }
    text = gpw_render(d, pending, 2);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "trial 1 is 0 (not a positive time)"));
    ck_assert_ptr_nonnull(strstr(text, "precision 'fp4' is not one the reader knows"));
    ck_assert_ptr_nonnull(strstr(text, "latency: did not finish"));
    ck_assert_ptr_nonnull(strstr(text, "finished: false"));
    c = read_back(text);
    /* Cut to 127 bytes before escaping; the newline dropped, 0xc3 -> '?'. */
    ck_assert_uint_eq(strlen(c->dev.name), 126);
    ck_assert(strncmp(c->dev.name, "AAA\"\\?AAA", 9) == 0);
    ck_assert_str_eq(c->host, "host \"x\"");
    ck_assert_str_eq(c->dev.nvml_driver, "");
    ck_assert_uint_eq(c->n_pts, 4);
    GP_ASSERT_REL(find(c, GP_CALIB_ALLREDUCE, "allreduce", GIB)->rate_median, 2.147483648e11, 1e-12);
    ck_assert_int_eq(find(c, GP_CALIB_ALLREDUCE, "allreduce", GIB)->gpus, 8);
    gp_calib_free(c);
    free(text);
    gpw_free(d);

    /* Nothing measured at all (no GPU work finished): still a valid file. */
    d = gpw_new();
    text = gpw_render(d, pending, 1);
    c = read_back(text);
    ck_assert_uint_eq(c->n_pts, 0);
    ck_assert_str_eq(c->dev.name, "unknown GPU");
    gp_calib_free(c);
    free(text);
    gpw_free(d);
    gpw_free(NULL);
}
END_TEST

/* The atomic write, then the CLI: `calib show` and `calib import` accept the
 * writer's file and map "NVIDIA H200" to the database's h200. */
START_TEST(written_file_imports)
{
    const double t[7] = {5e-4, 5e-4, 5e-4, 5e-4, 5e-4, 5e-4, 5e-4};
    char dir[256], path[512], overlay[600], err[300], *text, *out = NULL, *errs = NULL;
    gpw_doc *d = gpw_new();
    gpw_device dev = fake_h200();
    gp_calib *c = NULL;
    gp_err e;
    struct stat st;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/h200.yaml", dir);
    gpw_set_header(d, "gpuplan-probe 0.2.0", "2026-12-01T10:00:00Z", "gpu-host", 1, 7, "memory");
    gpw_set_device(d, &dev);
    ck_assert_int_eq(gpw_memory(d, "copy", 2 * GIB, 2 * GIB, "1056x256", 41, t, 7), 0);
    text = gpw_render(d, NULL, 0);
    ck_assert_int_eq(gpw_write_atomic(path, text, err, sizeof err), 0);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq((int)(st.st_mode & 0777), 0644);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_file(path, &c, &e), GP_OK);
    gp_calib_free(c);
    /* A directory that does not exist: an error message, no crash. */
    ck_assert_int_eq(gpw_write_atomic("/nonexistent-dir/x.yaml", text, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "cannot create"));
    {
        const char *show[] = {"calib", "show", path, NULL};
        ck_assert_int_eq(gp_test_cli(show, &out, &errs), 0);
        ck_assert_ptr_nonnull(strstr(out, "h200"));
        ck_assert_ptr_nonnull(strstr(out, "memory copy"));
        free(out);
        free(errs);
    }
    {
        const char *imp[] = {"--db", dir, "calib", "import", path, NULL};
        ck_assert_int_eq(gp_test_cli(imp, &out, &errs), 0);
        snprintf(overlay, sizeof overlay, "%s/gpus/calib-h200.yaml", dir);
        ck_assert_int_eq(stat(overlay, &st), 0);
        free(out);
        free(errs);
    }
    free(text);
    gpw_free(d);
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_probewriter(void)
{
    Suite *s = suite_create("probewriter");
    TCase *tc = tcase_create("writer");
    tcase_add_test(tc, limits_match_the_reader);
    tcase_add_test(tc, stats_match_the_library);
    tcase_add_test(tc, full_file_round_trip);
    tcase_add_test(tc, bad_points_and_strings);
    tcase_add_test(tc, written_file_imports);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
