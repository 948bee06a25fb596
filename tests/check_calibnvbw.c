/* Calibration from NVIDIA nvbandwidth output (lib/calib_nvbw.c,
 * docs/calibration.md "nvbandwidth").
 *
 * The fixtures are REAL outputs (tests/data/calib/README.md):
 *   rtx4090-nvbandwidth.txt       nvbandwidth#15, 8 x RTX 4090, v0.2 (H2D/D2H CE)
 *   a100-nvbandwidth-h2d-sm.txt   nvbandwidth#42, 1 x A100-SXM4-40GB, v0.8 (H2D SM)
 *   h20-nvbandwidth-local-copy.txt nvbandwidth#48, 8 x H20-3e, v0.8 (device_local_copy)
 *   h100-nvbandwidth.txt          8 x H100 80GB HBM3, v0.10.0 (D2D read/write CE,
 *                                 D2H/H2D CE, a latency matrix; no Device lines)
 * Every expected value is worked out by hand from the cells quoted in the
 * comment.  A point's trials are its cells; each trial's time is 1 GB / rate,
 * so the median rate is 1 GB / the median time: with 8 cells the median time
 * is the mean of the 4th and 5th, i.e. the harmonic mean 2ab/(a+b) of the
 * 4th and 5th fastest rates a, b. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "testutil.h"

#define DATA "tests/data/calib/"
#define BAD "tests/data/bad/"

static gp_calib *nload(const char *path)
{
    gp_calib *c = NULL;
    gp_err e;
    char buf[1024];
    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_file_any(path, GP_CALIB_FMT_AUTO, &c, &e) == GP_OK, "%s",
                  gp_err_format(&e, buf, sizeof buf));
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->format, GP_CALIB_FMT_NVBANDWIDTH);
    return c;
}

static const gp_calib_point *by_label(const gp_calib *c, const char *label)
{
    size_t i;
    for (i = 0; i < c->n_pts; i++)
        if (strcmp(c->pts[i].label, label) == 0)
            return &c->pts[i];
    return NULL;
}

static int nparse(const char *text, gp_calib **out, gp_err *e)
{
    gp_err_clear(e);
    return gp_calib_read_any("t.txt", text, strlen(text), GP_CALIB_FMT_AUTO, out, e);
}

START_TEST(rtx4090_by_hand)
{
    /* H2D CE cells: 25.50 24.26 23.90 26.30 26.28 26.38 26.09 26.31 GB/s;
     * fastest first 26.38 26.31 26.30 26.28 | 26.09 ...: median =
     * 2 x 26.28 x 26.09 / (26.28 + 26.09) = 26.18465 GB/s; best 26.38.
     * D2H CE: 26.77 26.47 26.25 26.63 27.10 27.11 27.11 26.83; fastest
     * first 27.11 27.11 27.10 26.83 | 26.77: 2 x 26.83 x 26.77 / 53.60 =
     * 26.79997 GB/s.  pcie4-x16 is 31.5 GB/s per direction: 0.8313, 0.8508. */
    gp_calib *c = nload(DATA "rtx4090-nvbandwidth.txt");
    gp_calib_summary s;
    const gp_calib_point *p;
    const gp_gpu *g = NULL;
    gp_calib_eff eff[16];
    size_t n, i;
    int seen = 0;
    gp_err e;
    ck_assert_str_eq(c->tool, "nvbandwidth v0.2");
    ck_assert_str_eq(c->dev.name, "NVIDIA GeForce RTX 4090");
    ck_assert_str_eq(c->dev.nvml_driver, "545.29.06");
    ck_assert_int_eq(c->dev.driver_version, 12030);
    ck_assert_int_eq(c->dev.runtime_version, 12030);
    ck_assert_int_eq(c->dev.gpus, 8);
    ck_assert_int_eq(c->nodes, 1);
    ck_assert_uint_eq(c->n_pts, 2);
    p = by_label(c, "host_to_device_memcpy_ce");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->kind, GP_CALIB_TRANSFER);
    ck_assert_str_eq(p->series, "h2d-pinned");
    ck_assert_uint_eq(p->t.n, 8);
    ck_assert_int_eq(p->gpus, 8);
    ck_assert_uint_eq(p->line, 21);
    GP_ASSERT_REL(p->rate_median, 26.18465e9, 1e-5);
    GP_ASSERT_REL(p->rate_best, 26.38e9, 1e-9);
    GP_ASSERT_REL(p->work / p->t.max, 23.90e9, 1e-9);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.h2d_bw, 26.18465e9, 1e-5);
    GP_ASSERT_REL(s.d2h_bw, 26.79997e9, 1e-5);
    /* one buffer size per test: no latency is made up from it */
    ck_assert(s.h2d_lat == 0.0 && s.d2h_lat == 0.0 && s.peer_lat == 0.0);
    ck_assert(s.peer_bw == 0.0 && s.mem_bw == 0.0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_match_gpu(gp_test_db(), c->dev.name, &g, &e), GP_OK);
    ck_assert_str_eq(g->id, "rtx-4090");
    n = gp_calib_efficiencies(&s, g, gp_db_find_link(gp_test_db(), g->host_link),
                              gp_db_find_link(gp_test_db(), g->scale_up_link), eff, 16);
    for (i = 0; i < n && i < 16; i++) {
        if (strcmp(eff[i].what, "h2d pinned") == 0) {
            GP_ASSERT_REL(eff[i].eff, 26.18465 / 31.5, 1e-5);
            seen++;
        } else if (strcmp(eff[i].what, "d2h pinned") == 0) {
            GP_ASSERT_REL(eff[i].eff, 26.79997 / 31.5, 1e-5);
            seen++;
        }
    }
    ck_assert_int_eq(seen, 2);
    gp_calib_free(c);
}
END_TEST

START_TEST(h100_v010_by_hand)
{
    /* v0.10 prints no Device lines: no name, 8 GPUs from the host matrices.
     * H2D: 55.37 55.36 55.37 55.36 55.36 55.36 55.36 55.33 -> 4th and 5th
     * fastest are both 55.36; D2H: 55.26 55.25 55.25 55.20 | 55.20 -> 55.20.
     * D2D read CE: 56 off-diagonal cells, 28th and 29th fastest both 395.08
     * (34 of the 56 cells are 395.08) -> peer uni 395.08 GB/s, best 395.25;
     * write CE: 397.48 (shown only).  nvlink4 450 GB/s: 395.08/450 = 0.87796. */
    gp_calib *c = nload(DATA "h100-nvbandwidth.txt");
    gp_calib_summary s;
    const gp_calib_point *p;
    char *t = NULL;
    gp_err e;
    ck_assert_str_eq(c->dev.name, "");
    ck_assert_str_eq(c->tool, "nvbandwidth v0.10.0");
    ck_assert_int_eq(c->dev.gpus, 8);
    ck_assert_int_eq(c->dev.driver_version, 13020);
    ck_assert_uint_eq(c->n_warn, 1); /* the latency matrix, at its title's file:line */
    ck_assert_ptr_nonnull(strstr(c->warn[0], "h100-nvbandwidth.txt:9: 'device_to_device_latency_sm' "
                                             "is a latency matrix (ns); not imported"));
    ck_assert_uint_eq(c->n_pts, 4);
    p = by_label(c, "device_to_device_memcpy_read_ce");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->kind, GP_CALIB_PEER);
    ck_assert_str_eq(p->series, "uni");
    ck_assert_uint_eq(p->t.n, 56);
    GP_ASSERT_REL(p->rate_median, 395.08e9, 1e-9);
    GP_ASSERT_REL(p->rate_best, 395.25e9, 1e-9);
    p = by_label(c, "device_to_device_memcpy_write_ce");
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->series, "d2d-write-ce");
    GP_ASSERT_REL(p->rate_median, 397.48e9, 1e-9);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.h2d_bw, 55.36e9, 1e-9);
    GP_ASSERT_REL(s.d2h_bw, 55.20e9, 1e-9);
    GP_ASSERT_REL(s.peer_bw, 395.08e9, 1e-9);
    ck_assert(s.peer_lat == 0.0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "h100-nvbandwidth.txt", &t, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(t, "  bandwidth: 395.080GB/s"));
    ck_assert_ptr_null(strstr(t, "latency"));
    free(t);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "h100-sxm", "h100-nvbandwidth.txt", &t, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(t, "  h2d_bandwidth: 55.360GB/s"));
    ck_assert_ptr_nonnull(strstr(t, "  d2h_bandwidth: 55.200GB/s"));
    ck_assert_ptr_nonnull(strstr(t, "GPUs the log does not name"));
    ck_assert_ptr_null(strstr(t, "h2d_latency"));
    ck_assert_ptr_null(strstr(t, "memory_bandwidth"));
    free(t);
    gp_calib_free(c);
}
END_TEST

START_TEST(h20_local_copy_and_a100_sm)
{
    /* device_local_copy, 8 x H20-3e: 1116.30 1116.30 1115.72 1116.16 1116.16
     * 1116.88 1117.17 1116.30; fastest 1117.17 1116.88 1116.30 1116.30 |
     * 1116.30 -> 1116.30 GB/s copied = 2232.60 GB/s of DRAM traffic (read +
     * write), the memcpy-d2d convention.  A100 H2D SM: one cell, 25.13 GB/s,
     * kept as series "nvbandwidth" (shown, not overlaid). */
    gp_calib *c = nload(DATA "h20-nvbandwidth-local-copy.txt");
    gp_calib_summary s;
    const gp_calib_point *p;
    char *t = NULL;
    gp_err e;
    ck_assert_str_eq(c->dev.name, "NVIDIA H20-3e");
    ck_assert_str_eq(c->dev.pci_bus_id, "00000000:18:00");
    ck_assert_str_eq(c->host, "sglang-host-cuda");
    p = by_label(c, "device_local_copy");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->kind, GP_CALIB_MEMORY);
    ck_assert_str_eq(p->series, "memcpy-d2d");
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.memcpy_d2d_bw, 2232.60e9, 1e-9);
    ck_assert(s.mem_bw == 0.0);
    gp_calib_free(c);

    c = nload(DATA "a100-nvbandwidth-h2d-sm.txt");
    ck_assert_str_eq(c->dev.name, "NVIDIA A100-SXM4-40GB");
    ck_assert_uint_eq(c->n_pts, 1);
    ck_assert_str_eq(c->pts[0].series, "nvbandwidth");
    ck_assert_str_eq(c->pts[0].label, "host_to_device_memcpy_sm");
    GP_ASSERT_REL(c->pts[0].rate_median, 25.13e9, 1e-9);
    gp_calib_summarize(c, &s);
    ck_assert(s.h2d_bw == 0.0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "a100-sxm-40gb", NULL, &t, &e), GP_EINVAL);
    ck_assert_ptr_null(t);
    gp_calib_free(c);
}
END_TEST

START_TEST(detect_and_format)
{
    static const char *const files[] = {DATA "rtx4090-nvbandwidth.txt",
                                        DATA "a100-nvbandwidth-h2d-sm.txt",
                                        DATA "h20-nvbandwidth-local-copy.txt",
                                        DATA "h100-nvbandwidth.txt"};
    gp_calib_format f;
    gp_calib *c = NULL;
    gp_err e;
    size_t i;
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *t = gp_test_slurp(files[i]);
        ck_assert_ptr_nonnull(t);
        ck_assert_int_eq(gp_calib_detect(t, strlen(t)), GP_CALIB_FMT_NVBANDWIDTH);
        free(t);
    }
    /* the other formats are not taken for nvbandwidth */
    {
        char *t = gp_test_slurp(DATA "mi300x-babelstream.txt");
        ck_assert_int_eq(gp_calib_detect(t, strlen(t)), GP_CALIB_FMT_BABELSTREAM);
        free(t);
        t = gp_test_slurp(DATA "a100-nccl-tests-allreduce.txt");
        ck_assert_int_eq(gp_calib_detect(t, strlen(t)), GP_CALIB_FMT_NCCL_TESTS);
        free(t);
    }
    ck_assert_int_eq(gp_calib_detect("SUM host_to_device_memcpy_ce 25.17\n", 35),
                     GP_CALIB_FMT_NVBANDWIDTH);
    ck_assert_int_eq(gp_calib_detect("SUM of things 3\n", 16), GP_CALIB_FMT_PROBE);
    ck_assert_str_eq(gp_calib_format_name(GP_CALIB_FMT_NVBANDWIDTH), "nvbandwidth");
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_format_parse("nvbandwidth", &f, &e), GP_OK);
    ck_assert_int_eq(f, GP_CALIB_FMT_NVBANDWIDTH);
    /* forcing: nvbandwidth read as BabelStream and the reverse are refused */
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_file_any(DATA "rtx4090-nvbandwidth.txt",
                                            GP_CALIB_FMT_BABELSTREAM, &c, &e), GP_EPARSE);
    ck_assert_ptr_null(c);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_file_any(DATA "mi300x-babelstream.txt",
                                            GP_CALIB_FMT_NVBANDWIDTH, &c, &e), GP_EPARSE);
    ck_assert_int_eq(e.line, 1);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_file_any(DATA "h100-nvbandwidth.txt",
                                            GP_CALIB_FMT_NVBANDWIDTH, &c, &e), GP_OK);
    gp_calib_free(c);
}
END_TEST

#define HDR "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\n" \
            "CUDA Runtime Version: 12060\nCUDA Driver Version: 12060\n"     \
            "Driver Version: 560.35.05\n\nDevice 0: NVIDIA A100-SXM4-40GB (00000000:07:00)\n" \
            "Device 1: NVIDIA A100-SXM4-40GB (00000000:0f:00)\n\n"
#define H2D "Running host_to_device_memcpy_ce.\n" \
            "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n" \
            "           0         1\n 0     24.50     24.70\n\nSUM host_to_device_memcpy_ce 49.20\n\n"

START_TEST(inline_variants)
{
    /* Hand-made texts in nvbandwidth's layout (not recordings). */
    gp_calib *c = NULL;
    gp_err e;
    const gp_calib_point *p;
    /* two GPUs: median of 24.50 and 24.70 = 2 x 24.5 x 24.7 / 49.2 = 24.59959 */
    ck_assert_int_eq(nparse(HDR H2D, &c, &e), GP_OK);
    ck_assert_int_eq(c->dev.gpus, 2);
    GP_ASSERT_REL(c->pts[0].rate_median, 24.59959e9, 1e-5);
    gp_calib_free(c);
    /* a write test alone stands for the peer figure; N/A cells are skipped */
    ck_assert_int_eq(nparse(HDR "Running device_to_device_memcpy_write_ce.\n"
                                "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)\n"
                                "           0         1\n 0       N/A    250.00\n"
                                " 1    260.00       N/A\n\nSUM device_to_device_memcpy_write_ce 510.00\n",
                            &c, &e), GP_OK);
    ck_assert_str_eq(c->pts[0].series, "uni");
    ck_assert_uint_eq(c->pts[0].t.n, 2);
    /* median of 250 and 260 = 2 x 250 x 260 / 510 = 254.90196 */
    GP_ASSERT_REL(c->pts[0].rate_median, 254.90196e9, 1e-6);
    gp_calib_free(c);
    /* a bidirectional peer test prints three matrices, each with its SUM;
     * a waived test and a trailing NOTE are accepted */
    ck_assert_int_eq(nparse(HDR H2D "Running device_to_device_bidirectional_memcpy_read_ce.\n"
                                "memcpy CE GPU(row) <-> GPU(column) Read1 bandwidth (GB/s)\n"
                                "           0         1\n 0       N/A    240.00\n 1    240.00       N/A\n\n"
                                "SUM device_to_device_bidirectional_memcpy_read_ce_read1 480.00\n\n"
                                "memcpy CE GPU(row) <-> GPU(column) Read2 bandwidth (GB/s)\n"
                                "           0         1\n 0       N/A    230.00\n 1    230.00       N/A\n\n"
                                "SUM device_to_device_bidirectional_memcpy_read_ce_read2 460.00\n\n"
                                "Running device_to_device_memcpy_read_sm.\nWaived: no peer access\n\n"
                                "NOTE: The reported results may not reflect the full capabilities of the platform.\n",
                            &c, &e), GP_OK);
    ck_assert_uint_eq(c->n_pts, 3);
    p = by_label(c, "device_to_device_bidirectional_memcpy_read_ce_read2");
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->series, "nvbandwidth");
    GP_ASSERT_REL(p->rate_median, 230e9, 1e-9);
    ck_assert_uint_eq(c->n_warn, 1);
    ck_assert_msg(strncmp(c->warn[0], "t.txt:", 6) == 0 && strstr(c->warn[0], ": testcase "
                  "'device_to_device_memcpy_read_sm' was waived by nvbandwidth") != NULL, "%s",
                  c->warn[0]);
    gp_calib_free(c);
}
END_TEST

START_TEST(inline_refusals)
{
    static const struct {
        const char *text;
        int rc;
        unsigned line;
        const char *says;
    } cases[] = {
        {"Running host_to_device_memcpy_ce.\n", GP_EPARSE, 1, "no 'nvbandwidth Version:' line"},
        {HDR, GP_EPARSE, 0, "no testcase"},
        {HDR H2D H2D, GP_EUNSUP, 18, "appears twice"},
        {HDR "Running host_to_device_memcpy_ce.\n Invalid value when checking the pattern\n",
         GP_EPARSE, 12, "expected a matrix title"},
        {HDR "Running host_to_device_memcpy_ce.\nRunning device_to_host_memcpy_ce.\n", GP_EPARSE,
         12, "expected a matrix title"},
        {HDR "Running host_to_device_memcpy_ce.\n"
             "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
             "           0         1\n 0     24.50     24.70\n",
         GP_EPARSE, 14, "truncated log"},
        {HDR "Running host_to_device_memcpy_ce.\n"
             "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
             "           0         1\n 0     24.50     -1.00\n\nSUM host_to_device_memcpy_ce 23.50\n",
         GP_EPARSE, 14, "not a bandwidth"},
        {HDR "Running host_to_device_memcpy_ce.\n"
             "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
             "           0         1\n 0       N/A       N/A\n\nSUM host_to_device_memcpy_ce 0.00\n",
         GP_EPARSE, 0, "no bandwidth measured"},
        {HDR "Running host_to_device_memcpy_ce.\n"
             "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
             "           0         1\n 0     24.50     24.70\n\nSUM device_to_host_memcpy_ce 49.20\n",
         GP_EPARSE, 16, "a line out of place"},
        {"nvbandwidth Version: v0.8\nProcess 0 (node1): device 0: NVIDIA H100\n", GP_EUNSUP, 2,
         "multinode"},
        {"nvbandwidth Version: v0.8\nnvbandwidth Version: v0.9\n", GP_EUNSUP, 2,
         "two versions"},
        {"nvbandwidth Version: v0.8\nDevice 1: NVIDIA H100\n", GP_EPARSE, 2, "in order"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_calib *c = NULL;
        gp_err e;
        char buf[1024];
        int rc = gp_calib_read_nvbandwidth("t.txt", cases[i].text, strlen(cases[i].text), &c, &e);
        gp_err_format(&e, buf, sizeof buf);
        ck_assert_msg(rc == cases[i].rc, "case %zu: rc %d: %s", i, rc, buf);
        ck_assert_ptr_null(c);
        ck_assert_msg(strstr(buf, cases[i].says) != NULL, "case %zu: %s", i, buf);
        if (cases[i].line > 0)
            ck_assert_msg(e.line == cases[i].line, "case %zu: line %u: %s", i, e.line, buf);
    }
}
END_TEST

START_TEST(cli_show_json)
{
    const char *av[] = {"--json", "calib", "show", DATA "rtx4090-nvbandwidth.txt", NULL};
    json_t *o = gp_test_cli_json(av), *sum, *pts;
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(json_string_value(json_object_get(o, "format")), "nvbandwidth");
    ck_assert_str_eq(json_string_value(json_object_get(o, "gpu")), "rtx-4090");
    sum = json_object_get(o, "summary");
    GP_ASSERT_REL(json_real_value(json_object_get(sum, "h2d_bytes_per_s")), 26.18465e9, 1e-5);
    GP_ASSERT_REL(json_real_value(json_object_get(sum, "d2h_bytes_per_s")), 26.79997e9, 1e-5);
    /* nvbandwidth measures no device memory, L2 or GEMM: those figures are
     * undefined (null, as the README says of --json), not 0 B/s. */
    ck_assert(json_is_null(json_object_get(sum, "mem_bw_bytes_per_s")));
    ck_assert(json_is_null(json_object_get(sum, "lat_dram_s")));
    ck_assert(json_is_null(json_object_get(sum, "peer_bytes_per_s")));
    ck_assert(json_is_null(json_object_get(json_object_get(o, "device"), "memory_bytes")));
    pts = json_object_get(o, "points");
    ck_assert_uint_eq(json_array_size(pts), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(pts, 0), "label")),
                     "host_to_device_memcpy_ce");
    ck_assert_uint_eq(json_array_size(json_object_get(o, "efficiencies")), 2);
    json_decref(o);
    {
        const char *tv[] = {"calib", "show", DATA "h100-nvbandwidth.txt", "--as", "h100-sxm", NULL};
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(gp_test_cli(tv, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "device_to_device_memcpy_read_ce"));
        ck_assert_ptr_nonnull(strstr(out, "395.08 GB/s"));
        ck_assert_ptr_nonnull(strstr(out, "87.8%")); /* 395.08 / 450 */
        ck_assert_ptr_nonnull(strstr(err, "latency matrix"));
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(cli_import_then_hw_show)
{
    /* RTX 4090: only gpus/calib-rtx-4090.yaml (h2d 26.18, d2h 26.80 GB/s);
     * twice is idempotent; hw show prints the measured host figures.  H100
     * (--as, no names in a v0.10 log): GPU and nvlink4 overlays. */
    char dir[256], *out = NULL, *err = NULL, *before, *after;
    const char *imp[] = {"--db", dir, "calib", "import", DATA "rtx4090-nvbandwidth.txt", NULL};
    const char *h100[] = {"--db", dir, "calib", "import", DATA "h100-nvbandwidth.txt", "--as",
                          "h100-sxm", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_cli(imp, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "wrote"));
    ck_assert_ptr_null(strstr(out, "(link "));
    free(out);
    free(err);
    before = gp_test_dir_listing(dir);
    ck_assert_ptr_nonnull(strstr(before, "gpus/calib-rtx-4090.yaml"));
    ck_assert_ptr_null(strstr(before, "links/"));
    ck_assert_int_eq(gp_test_cli(imp, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "unchanged"));
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    free(out);
    free(err);
    {
        const char *av[] = {"--db", dir, "hw", "show", "rtx-4090", NULL};
        ck_assert_int_eq(gp_test_cli(av, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "host-to-device bandwidth     26.18 GB/s"));
        ck_assert_ptr_nonnull(strstr(out, "device-to-host bandwidth     26.80 GB/s"));
        ck_assert_ptr_nonnull(strstr(out, "nvbandwidth v0.2 on 8 x NVIDIA GeForce RTX 4090"));
        free(out);
        free(err);
    }
    ck_assert_int_eq(gp_test_cli(h100, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "(link 'nvlink4')"));
    free(out);
    free(err);
    {
        const char *av[] = {"--db", dir, "hw", "show", "nvlink4", NULL};
        ck_assert_int_eq(gp_test_cli(av, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "measured bandwidth           395.08 GB/s"));
        free(out);
        free(err);
    }
    /* refusals leave the directory byte-for-byte unchanged */
    {
        static const char *const bad[][2] = {
            {BAD "nvbandwidth-truncated.txt", "nvbandwidth-truncated.txt:30: truncated log"},
            {BAD "nvbandwidth-cut-midrow.txt", "nvbandwidth-cut-midrow.txt:30: row 0 has 4"},
            {BAD "nvbandwidth-bad-sum.txt", "nvbandwidth-bad-sum.txt:25:30: SUM"},
            {DATA "a100-nvbandwidth-h2d-sm.txt", "holds no figure an overlay can carry"},
        };
        size_t i;
        before = gp_test_dir_listing(dir);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const char *av[] = {"--db", dir, "calib", "import", bad[i][0], "--as", "rtx-4090", NULL};
            ck_assert_int_eq(gp_test_cli(av, &out, &err), 2);
            ck_assert_msg(strstr(err, bad[i][1]) != NULL, "%s: %s", bad[i][0], err);
            after = gp_test_dir_listing(dir);
            ck_assert_str_eq(before, after);
            free(after);
            free(out);
            free(err);
        }
        free(before);
    }
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_calibnvbw(void)
{
    Suite *s = suite_create("calibnvbw");
    TCase *tc = tcase_create("reader");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, rtx4090_by_hand);
    tcase_add_test(tc, h100_v010_by_hand);
    tcase_add_test(tc, h20_local_copy_and_a100_sm);
    tcase_add_test(tc, detect_and_format);
    tcase_add_test(tc, inline_variants);
    tcase_add_test(tc, inline_refusals);
    suite_add_tcase(s, tc);
    tcase_set_timeout(tcli, 60);
    tcase_add_test(tcli, cli_show_json);
    tcase_add_test(tcli, cli_import_then_hw_show);
    suite_add_tcase(s, tcli);
    return s;
}
