/* Calibration from the standard tools' output: nccl-tests / rccl-tests
 * all_reduce_perf and BabelStream (lib/calib_import.c, docs/calibration.md
 * "Importing nccl-tests, rccl-tests and BabelStream output").
 *
 * The fixtures are REAL recordings (tests/data/calib/README.md):
 *   mi300x-rccl-tests-allreduce.txt  AMD MI300X acceptance guide, 8 x MI300X
 *   mi300x-babelstream.txt           same guide, BabelStream 5.0 on 2 devices
 *   a100-nccl-tests-allreduce.txt    OCI tutorial, 8 x A100-SXM4-40GB, one node
 *   a100-2node-nccl-tests-allreduce.txt  same, 16 ranks on two nodes
 * Every expected value below is worked out by hand from the rows quoted in
 * its comment (the rows are in the fixture files), never read back from the
 * program.  Ring AllReduce on n ranks: t = alpha + 2(n-1)/n S / beta, so
 * beta (the bus bandwidth) from two rows is 2(n-1)/n (S2 - S1) / (t2 - t1);
 * a size's time is the median of its two trials (out-of-place, in-place) =
 * their mean. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "testutil.h"

#define DATA "tests/data/calib/"
#define BAD "tests/data/bad/"
#define MIB (1024.0 * 1024.0)

static gp_calib *load(const char *path)
{
    gp_calib *c = NULL;
    gp_err e;
    char buf[1024];
    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_file_any(path, GP_CALIB_FMT_AUTO, &c, &e) == GP_OK, "%s",
                  gp_err_format(&e, buf, sizeof buf));
    ck_assert_ptr_nonnull(c);
    return c;
}

/* Parse inline text as `fmt`; returns the status, *out the file or NULL. */
static int parse(const char *text, gp_calib_format fmt, gp_calib **out, gp_err *e)
{
    gp_err_clear(e);
    return gp_calib_read_any("t.txt", text, strlen(text), fmt, out, e);
}

static const gp_calib_point *point_at(const gp_calib *c, gp_calib_kind k, const char *series,
                                      double work)
{
    size_t i;
    for (i = 0; i < c->n_pts; i++)
        if (c->pts[i].kind == k && strcmp(c->pts[i].series, series) == 0 &&
            fabs(c->pts[i].work - work) <= 1e-9 * work)
            return &c->pts[i];
    return NULL;
}

/* The number after `key` in overlay text ("bandwidth: 315.918GB/s" -> 315.918e9). */
static double overlay_rate(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    double v = 0.0;
    char unit[8] = "";
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(sscanf(p + strlen(key), " %lf%7[A-Za-z/]", &v, unit), 2);
    ck_assert_str_eq(unit, "GB/s");
    return v * 1e9;
}

/* ---- the MI300X rccl-tests sweep ------------------------------------------------------------- */

START_TEST(mi300x_rccl_rows_and_identity)
{
    /* 31 sizes 8 B .. 8 GiB, 8 ranks on host SMC-SC-DC19-06, no '# Group'
     * field (older rccl-tests), single-spaced columns.  The 8 GiB row:
     * 47488 us out-of-place, 47594 us in-place -> median 47541 us; busbw =
     * 1.75 x 8589934592 / 0.047541 = 316.198 GB/s (the log's 316.55 and
     * 315.84 bracket it).  The 8 B row: (34.13 + 39.55) / 2 = 36.84 us. */
    gp_calib *c = load(DATA "mi300x-rccl-tests-allreduce.txt");
    const gp_calib_point *p;
    ck_assert_int_eq(c->format, GP_CALIB_FMT_NCCL_TESTS);
    ck_assert_uint_eq(c->n_pts, 31);
    ck_assert_str_eq(c->dev.name, "AMD Instinct MI300X");
    ck_assert_str_eq(c->host, "SMC-SC-DC19-06");
    ck_assert_str_eq(c->tool, "rccl-tests develop:ae3e635");
    ck_assert_str_eq(c->date, "");
    ck_assert_int_eq(c->nodes, 1);
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_str_eq(c->algo, "");
    ck_assert_uint_eq(c->n_warn, 0);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 8589934592.0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->gpus, 8);
    ck_assert_uint_eq(p->t.n, 2);
    GP_ASSERT_REL(p->t.min, 47488e-6, 1e-12);
    GP_ASSERT_REL(p->t.max, 47594e-6, 1e-12);
    GP_ASSERT_REL(p->t.median, 47541e-6, 1e-12);
    GP_ASSERT_REL(1.75 * p->work / p->t.median, 316.198e9, 1e-5);
    ck_assert_int_eq(p->verified, 1);
    ck_assert_uint_eq(p->line, 46);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 8.0);
    ck_assert_ptr_nonnull(p);
    GP_ASSERT_REL(p->t.median, 36.84e-6, 1e-12);
    gp_calib_free(c);
}
END_TEST

START_TEST(mi300x_rccl_version_banner)
{
    /* Current rccl-tests (RCCL's NCCL_DEBUG=VERSION banner) print 'RCCL
     * version :', 'HIP version  :', 'ROCm version :', 'Hostname     :' and
     * 'Librccl path :' between the rank lines and the column header; the
     * reader refused the 'HIP version' line ("not a line of nccl-tests
     * output"), i.e. every such log.  The fixture keeps the 9 rows of
     * 64 MiB .. 16 GiB.  Two rows by hand, c = 2 x 7 / 8 = 1.75:
     *   1 GiB:  (5970.6 + 5974.5) / 2 = 5972.55 us
     *   16 GiB: (94254 + 94328) / 2  = 94291 us
     *   beta = 1.75 x (17179869184 - 1073741824) / (0.094291 - 0.00597255)
     *        = 1.75 x 16106127360 / 0.08831845 = 319.14 GB/s
     * The weighted fit over the 9 sizes (weights 1/t^2), done separately in
     * python3 from the same rows: beta 318.062 GB/s, alpha 65.20 us, max
     * residual 0.37 % (so the all-size fit is used); 318.062 / 448 = 0.70996
     * of xgmi-mi300x's datasheet. */
    gp_calib *c = load(DATA "mi300x-rccl-tests-banner.txt");
    gp_calib_summary s;
    ck_assert_int_eq(c->format, GP_CALIB_FMT_NCCL_TESTS);
    ck_assert_str_eq(c->tool, "rccl-tests develop:448c4c7 (RCCL 2.22.3-develop:f5b15f2)");
    ck_assert_str_eq(c->dev.name, "AMD Instinct MI300X");
    ck_assert_str_eq(c->host, "host");
    ck_assert_int_eq(c->nodes, 1);
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_uint_eq(c->n_pts, 9);
    ck_assert_uint_eq(c->n_warn, 0);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 318.062e9, 1e-5);
    GP_ASSERT_REL(s.allreduce_busbw, 319.14e9, 0.005);
    GP_ASSERT_REL(s.allreduce_lat, 65.20e-6, 1e-3);
    ck_assert(s.allreduce_fit_min_bytes == 0.0);
    gp_calib_free(c);
}
END_TEST

START_TEST(mi300x_rccl_fit_and_efficiency)
{
    /* By hand, from two rows of the bandwidth regime (c = 2 x 7/8 = 1.75):
     *   1 GiB: (6003.9 + 6003.6)/2 = 6003.75 us;  8 GiB: 47541 us
     *   beta = 1.75 x (8589934592 - 1073741824) / (0.047541 - 0.00600375)
     *        = 1.75 x 7516192768 / 0.04153725 = 316.66 GB/s
     *   alpha = 0.00600375 - 1.75 x 1073741824 / 316.66e9 = 69.9 us
     * (4 GiB and 8 GiB give 317.46 GB/s).  The weighted fit over the eight
     * sizes >= 64 MiB must agree within 1 % and fit them within 1 %; the fit
     * over all 31 sizes does not hold (LL/LL128 protocols below a few MiB),
     * so the summary uses the window.  Latency = the 8 B median, 36.84 us.
     * Efficiency vs xgmi-mi300x's datasheet 448 GB/s (7 x 64):
     * 316.66 / 448 = 0.707. */
    gp_calib *c = load(DATA "mi300x-rccl-tests-allreduce.txt");
    gp_calib_summary s;
    gp_calib_fit all;
    gp_calib_eff eff[16];
    const gp_db *db = gp_test_db();
    const gp_gpu *g;
    size_t n, i;
    int found = 0;
    gp_err e;
    gp_calib_summarize(c, &s);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce", 0, 0, &all, &e),
                     GP_OK);
    ck_assert(all.max_rel_resid > 0.10);
    ck_assert_uint_eq(s.allreduce_fit.n, 8);
    GP_ASSERT_REL(s.allreduce_fit_min_bytes, 64.0 * MIB, 0);
    GP_ASSERT_REL(s.allreduce_fit.c, 1.75, 1e-15);
    GP_ASSERT_REL(s.allreduce_busbw, 316.66e9, 0.01);
    GP_ASSERT_REL(s.allreduce_busbw, s.allreduce_fit.beta, 0);
    GP_ASSERT_REL(s.allreduce_fit.alpha, 69.9e-6, 0.25);
    ck_assert(s.allreduce_fit.max_rel_resid < 0.01);
    GP_ASSERT_REL(s.allreduce_lat, 36.84e-6, 1e-12);
    ck_assert_int_eq(s.allreduce_gpus, 8);
    ck_assert_int_eq(s.allreduce_nodes, 1);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_match_gpu(db, c->dev.name, &g, &e), GP_OK);
    ck_assert_str_eq(g->id, "mi300x");
    n = gp_calib_efficiencies(&s, g, NULL, gp_db_find_link(db, g->scale_up_link), eff, 16);
    for (i = 0; i < n && i < 16; i++)
        if (strcmp(eff[i].what, "allreduce busbw") == 0) {
            GP_ASSERT_REL(eff[i].datasheet, 448e9, 1e-12);
            GP_ASSERT_REL(eff[i].eff, 0.707, 0.015);
            found = 1;
        }
    ck_assert(found);
    gp_calib_free(c);
}
END_TEST

START_TEST(mi300x_rccl_link_overlay_text)
{
    /* The link overlay carries the busbw (316.66 GB/s by hand, 1 %), cites
     * the file and the tool, and has no date line (the log has none); with
     * a date it has one.  No GPU overlay: the log holds no GPU figure. */
    gp_calib *c = load(DATA "mi300x-rccl-tests-allreduce.txt");
    gp_calib_summary s;
    char *text = NULL;
    gp_err e;
    gp_calib_summarize(c, &s);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "xgmi-mi300x", "mi300x-rccl-tests-allreduce.txt",
                                           &text, &e),
                     GP_OK);
    ck_assert_ptr_nonnull(strstr(text, "id: \"xgmi-mi300x\"\n"));
    ck_assert_ptr_nonnull(strstr(text, "rccl-tests develop:ae3e635 all_reduce_perf on 8 x AMD "
                                       "Instinct MI300X (1 node, host SMC-SC-DC19-06), "
                                       "mi300x-rccl-tests-allreduce.txt"));
    ck_assert_ptr_null(strstr(text, "date:"));
    ck_assert_ptr_nonnull(strstr(text, "fit beta over S >= 64 MiB"));
    GP_ASSERT_REL(overlay_rate(text, "bandwidth:"), 316.66e9, 0.01);
    free(text);
    snprintf(c->date, sizeof c->date, "2024-09-01");
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "xgmi-mi300x", "x.txt", &text, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(text, "  date: \"2024-09-01\"\n"));
    free(text);
    text = NULL;
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "mi300x", "x.txt", &text, &e), GP_EINVAL);
    ck_assert_ptr_null(text);
    gp_calib_free(c);
}
END_TEST

/* ---- BabelStream on MI300X ------------------------------------------------------------------- */

START_TEST(mi300x_babelstream_by_hand)
{
    /* Array size 2147.5 MB = 2.1475e9 bytes (MB = 1e6 in BabelStream);
     * Copy counts 2 arrays: 4.295e9 bytes per pass.  Two devices' tables:
     * Copy 4255995.148 and 4269126.275 MB/s -> best passes
     *   t1 = 4.295e9 / 4.255995148e12 = 1.009165e-3 s (the table: 0.00101)
     *   t2 = 4.295e9 / 4.269126275e12 = 1.006061e-3 s (0.00101)
     * median of two = mean = 1.007613e-3 s -> 4.295e9 / 1.007613e-3 =
     * 4262.55 GB/s; best = 4269.126 GB/s (the faster device, as printed).
     * vs mi300x's 5.3 TB/s: 4262.55 / 5300 = 0.804.
     * Triad 3 arrays = 6.4425e9 bytes; 3948061.647 and 3947212.603 MB/s ->
     * 3947.64 GB/s, 0.745 of 5.3 TB/s. */
    gp_calib *c = load(DATA "mi300x-babelstream.txt");
    const gp_calib_point *p;
    gp_calib_summary s;
    gp_calib_eff eff[16];
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "mi300x");
    size_t n, i;
    int seen = 0;
    ck_assert_int_eq(c->format, GP_CALIB_FMT_BABELSTREAM);
    ck_assert_str_eq(c->dev.name, "AMD Instinct MI300X");
    ck_assert_str_eq(c->tool, "BabelStream 5.0 (HIP, double)");
    ck_assert_int_eq(c->dev.gpus, 2);
    ck_assert_int_eq(c->dev.driver_version, 60241133);
    ck_assert_uint_eq(c->n_pts, 5);
    p = point_at(c, GP_CALIB_MEMORY, "copy", 4.295e9);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->t.n, 2);
    GP_ASSERT_REL(p->t.max, 1.009165e-3, 1e-6);
    GP_ASSERT_REL(p->t.min, 1.006061e-3, 1e-6);
    GP_ASSERT_REL(p->rate_best, 4269.126275e9, 1e-12);
    GP_ASSERT_REL(p->rate_median, 4262.55e9, 1e-5);
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "triad", 6.4425e9));
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "mul", 4.295e9));
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "add", 6.4425e9));
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "dot", 4.295e9));
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 4262.55e9, 1e-5);
    GP_ASSERT_REL(s.mem_bw_best, 4269.126275e9, 1e-12);
    GP_ASSERT_REL(s.mem_triad_bw, 3947.64e9, 1e-5);
    ck_assert_ptr_nonnull(g);
    n = gp_calib_efficiencies(&s, g, NULL, NULL, eff, 16);
    for (i = 0; i < n && i < 16; i++) {
        if (strcmp(eff[i].what, "memory copy") == 0) {
            GP_ASSERT_REL(eff[i].eff, 0.8043, 1e-3);
            seen |= 1;
        } else if (strcmp(eff[i].what, "memory triad") == 0) {
            GP_ASSERT_REL(eff[i].eff, 0.7448, 1e-3);
            seen |= 2;
        }
    }
    ck_assert_int_eq(seen, 3);
    gp_calib_free(c);
}
END_TEST

START_TEST(mi300x_babelstream_gpu_overlay)
{
    /* The GPU overlay holds the memory figure only (4262.55 GB/s by hand),
     * and BabelStream output has no link figure. */
    gp_calib *c = load(DATA "mi300x-babelstream.txt");
    gp_calib_summary s;
    char *text = NULL;
    gp_err e;
    gp_calib_summarize(c, &s);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "mi300x", "mi300x-babelstream.txt", &text, &e),
                     GP_OK);
    GP_ASSERT_REL(overlay_rate(text, "memory_bandwidth:"), 4262.55e9, 1e-5);
    ck_assert_ptr_nonnull(strstr(text, "BabelStream 5.0 (HIP, double) on AMD Instinct MI300X "
                                       "(2 devices, driver 60241133), mi300x-babelstream.txt"));
    ck_assert_ptr_null(strstr(text, "compute:"));
    ck_assert_ptr_null(strstr(text, "date:"));
    free(text);
    text = NULL;
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "xgmi-mi300x", "x", &text, &e), GP_ENOTFOUND);
    gp_calib_free(c);
}
END_TEST

START_TEST(a100_babelstream_cuda_by_hand)
{
    /* BabelStream 5.0's CUDA back end prints 'Reduction kernel config: 432
     * groups of (fixed) size 1024' after its device lines (the HIP, SYCL and
     * OpenCL back ends print the same kind of line); the reader refused it
     * as "not a line of BabelStream output", i.e. every 5.0 CUDA run.
     * Array size 268.4 MB = 268.4e6 bytes; Copy counts 2 arrays:
     *   536.8e6 bytes at 1709360.800 MB/s -> 536.8e6 / 1.7093608e12
     *   = 314.03 us (the table: Min 0.00031), one device, one trial:
     *   memory_bandwidth = 1709.3608 GB/s exactly;
     * Triad 3 arrays = 805.2e6 bytes at 1724827.354 MB/s -> 1724.827354 GB/s.
     * vs a100-sxm-80gb's 2039 GB/s: 1709.3608 / 2039 = 0.83833. */
    gp_calib *c = load(DATA "a100-babelstream-cuda.txt");
    gp_calib_summary s;
    gp_calib_eff eff[16];
    const gp_gpu *g = gp_db_find_gpu(gp_test_db(), "a100-sxm-80gb");
    const gp_calib_point *p;
    size_t n, i;
    int seen = 0;
    ck_assert_int_eq(c->format, GP_CALIB_FMT_BABELSTREAM);
    ck_assert_str_eq(c->dev.name, "NVIDIA A100-SXM4-80GB");
    ck_assert_str_eq(c->tool, "BabelStream 5.0 (CUDA, double)");
    ck_assert_int_eq(c->dev.driver_version, 12030);
    ck_assert_int_eq(c->dev.gpus, 1);
    ck_assert_uint_eq(c->n_pts, 5);
    p = point_at(c, GP_CALIB_MEMORY, "copy", 536.8e6);
    ck_assert_ptr_nonnull(p);
    GP_ASSERT_REL(p->t.min, 536.8e6 / 1.7093608e12, 1e-12);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 1709.3608e9, 1e-12);
    GP_ASSERT_REL(s.mem_triad_bw, 1724.827354e9, 1e-12);
    ck_assert_ptr_nonnull(g);
    n = gp_calib_efficiencies(&s, g, NULL, NULL, eff, 16);
    for (i = 0; i < n && i < 16; i++)
        if (strcmp(eff[i].what, "memory copy") == 0) {
            GP_ASSERT_REL(eff[i].eff, 0.83833, 1e-4);
            seen = 1;
        }
    ck_assert_int_eq(seen, 1);
    gp_calib_free(c);
    {
        /* calib show prints the rates to four figures, the measured copy
         * beside the datasheet's 2039 GB/s (it printed "1.7 TB/s / 2.0
         * TB/s" beside 83.8 %). */
        const char *a[] = {"calib", "show", DATA "a100-babelstream-cuda.txt", NULL};
        char *out = NULL;
        ck_assert_int_eq(gp_test_cli(a, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "1.709 TB/s / 2.039 TB/s"));
        ck_assert_ptr_nonnull(strstr(out, "1.725 TB/s"));
        free(out);
    }
}
END_TEST

/* ---- NVIDIA A100 (nccl-tests) ------------------------------------------------------------------ */

START_TEST(a100_single_node)
{
    /* 28 sizes 64 B .. 8 GiB on 8 x A100-SXM4-40GB, one host.  By hand:
     *   1 GiB: (8166.8 + 8165.2)/2 = 8166.0 us;  8 GiB: (63929 + 63911)/2 = 63920 us
     *   beta = 1.75 x 7516192768 / (0.063920 - 0.008166) = 235.92 GB/s
     * The fit over >= 64 MiB also weighs the 64-128 MiB rows (~199 GB/s
     * busbw) and lands lower; within 2.5 % of the two-row value, and within
     * 1.5 % of the shipped nvlink3 'achievable' 230 GB/s (nccl-tests#149),
     * an independent measurement of the same system type.  vs the 300 GB/s
     * datasheet: ~0.77. */
    gp_calib *c = load(DATA "a100-nccl-tests-allreduce.txt");
    gp_calib_summary s;
    const gp_gpu *g;
    gp_err e;
    ck_assert_str_eq(c->dev.name, "NVIDIA A100-SXM4-40GB");
    ck_assert_str_eq(c->tool, "nccl-tests");
    ck_assert_str_eq(c->dev.pci_bus_id, "0x0f");
    ck_assert_int_eq(c->nodes, 1);
    ck_assert_uint_eq(c->n_pts, 28);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 235.92e9, 0.025);
    GP_ASSERT_REL(s.allreduce_busbw, 230e9, 0.015);
    GP_ASSERT_REL(s.allreduce_busbw / 300e9, 0.77, 0.02);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_match_gpu(gp_test_db(), c->dev.name, &g, &e), GP_OK);
    ck_assert_str_eq(g->id, "a100-sxm-40gb");
    ck_assert_str_eq(g->scale_up_link, "nvlink3");
    gp_calib_free(c);
}
END_TEST

START_TEST(a100_two_nodes_refused_as_link)
{
    /* 16 ranks, 8 on each of two hosts: nodes 2, 8 per node.  Its busbw
     * (~85 GB/s) is the network's, not NVLink's: the link overlay refuses,
     * and the efficiency table leaves the AllReduce row out. */
    gp_calib *c = load(DATA "a100-2node-nccl-tests-allreduce.txt");
    gp_calib_summary s;
    gp_calib_eff eff[16];
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "a100-sxm-40gb");
    char *text = NULL;
    gp_err e;
    size_t n, i;
    ck_assert_int_eq(c->nodes, 2);
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_str_eq(c->host, "inst-edjui-gpu4");
    ck_assert_str_eq(c->host2, "inst-vdgkk-gpu4");
    ck_assert_int_eq(c->pts[0].gpus, 16);
    gp_calib_summarize(c, &s);
    ck_assert(s.allreduce_busbw > 0.0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink3", "x", &text, &e), GP_EUNSUP);
    ck_assert_ptr_null(text);
    ck_assert_ptr_nonnull(strstr(e.msg, "ran on 2 nodes"));
    ck_assert_ptr_nonnull(strstr(e.msg, "'inst-edjui-gpu4', 'inst-vdgkk-gpu4'"));
    n = gp_calib_efficiencies(&s, g, NULL, gp_db_find_link(db, "nvlink3"), eff, 16);
    for (i = 0; i < n && i < 16; i++)
        ck_assert_str_ne(eff[i].what, "allreduce busbw");
    gp_calib_free(c);
}
END_TEST

/* ---- detection and formats --------------------------------------------------------------------- */

START_TEST(detect_by_content)
{
    static const struct {
        const char *file;
        gp_calib_format want;
    } cases[] = {
        {DATA "mi300x-rccl-tests-allreduce.txt", GP_CALIB_FMT_NCCL_TESTS},
        {DATA "a100-nccl-tests-allreduce.txt", GP_CALIB_FMT_NCCL_TESTS},
        {DATA "mi300x-babelstream.txt", GP_CALIB_FMT_BABELSTREAM},
        {DATA "synthetic-h100.yaml", GP_CALIB_FMT_PROBE},
        {DATA "corrupt-syntax.yaml", GP_CALIB_FMT_PROBE},
        {BAD "nccl-truncated.txt", GP_CALIB_FMT_NCCL_TESTS},
        {DATA "h100-nccl-tests-per-iteration.txt", GP_CALIB_FMT_NCCL_TESTS},
        {DATA "mi300x-rccl-tests-inplace-cycles.txt", GP_CALIB_FMT_NCCL_TESTS},
        /* the tools' results files: sent to the nccl-tests reader, which names them */
        {BAD "nccl-json-output.json", GP_CALIB_FMT_NCCL_TESTS},
        {BAD "rccl-csv-output.csv", GP_CALIB_FMT_NCCL_TESTS},
    };
    size_t i;
    gp_calib_format f;
    gp_err e;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = gp_test_slurp(cases[i].file);
        ck_assert_ptr_nonnull(t);
        ck_assert_msg(gp_calib_detect(t, strlen(t)) == cases[i].want, "%s", cases[i].file);
        free(t);
    }
    ck_assert_int_eq(gp_calib_detect("", 0), GP_CALIB_FMT_PROBE);
    ck_assert_int_eq(gp_calib_detect(NULL, 0), GP_CALIB_FMT_PROBE);
    /* A header cut before the column line is still nccl-tests (and refused as such). */
    ck_assert_int_eq(gp_calib_detect("# Collective test starting: all_reduce_perf\n", 44),
                     GP_CALIB_FMT_NCCL_TESTS);
    ck_assert_int_eq(gp_calib_detect("BabelStream\nVersion: 5.0\n", 25), GP_CALIB_FMT_BABELSTREAM);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_format_parse("rccl-tests", &f, &e), GP_OK);
    ck_assert_int_eq(f, GP_CALIB_FMT_NCCL_TESTS);
    ck_assert_int_eq(gp_calib_format_parse("babelstream", &f, &e), GP_OK);
    ck_assert_int_eq(f, GP_CALIB_FMT_BABELSTREAM);
    ck_assert_int_eq(gp_calib_format_parse("csv", &f, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown format 'csv'"));
    ck_assert_str_eq(gp_calib_format_name(GP_CALIB_FMT_PROBE), "probe");
    ck_assert_str_eq(gp_calib_format_name((gp_calib_format)99), "unknown");
}
END_TEST

START_TEST(format_override)
{
    /* --format forces a reader: the MI300X log read as BabelStream or as a
     * probe file is refused by that reader; the probe file read as probe is
     * the same as auto. */
    gp_calib *c = NULL;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_file_any(DATA "mi300x-rccl-tests-allreduce.txt",
                                            GP_CALIB_FMT_BABELSTREAM, &c, &e),
                     GP_EPARSE);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(e.msg, "not a line of BabelStream output"));
    ck_assert_int_eq(gp_calib_read_file_any(DATA "mi300x-rccl-tests-allreduce.txt",
                                            GP_CALIB_FMT_PROBE, &c, &e),
                     GP_EPARSE);
    ck_assert_int_eq(gp_calib_read_file_any(DATA "synthetic-h100.yaml", GP_CALIB_FMT_PROBE, &c, &e),
                     GP_OK);
    ck_assert_int_eq(c->format, GP_CALIB_FMT_PROBE);
    ck_assert_int_eq(c->nodes, 1);
    gp_calib_free(c);
    c = NULL;
    ck_assert_int_eq(gp_calib_read_any("x", "x", 1, (gp_calib_format)42, &c, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_read_nccl_tests("x", "", 0, &c, &e), GP_EPARSE);
    ck_assert_int_eq(gp_calib_read_nccl_tests("x", NULL, 1, &c, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_read_nccl_tests("x", "a", 1, NULL, &e), GP_EINVAL);
    ck_assert_int_eq(gp_calib_read_babelstream("x", "", 0, &c, &e), GP_EPARSE);
    ck_assert_int_eq(gp_calib_read_babelstream("x", "a\0b", 3, &c, &e), GP_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "NUL"));
}
END_TEST

/* ---- nccl-tests variants and refusals (inline logs) ------------------------------------------------ */

/* Four ranks on one host; rows from a ring with alpha 20 us and busbw 150
 * GB/s: t = 20 + 1.5 S / 150e3 us (S in bytes, 2(n-1)/n = 1.5).
 *   1 MiB: 20 + 10.49 = 30.49 us, algbw 1048576/30490 = 34.39 GB/s, busbw 51.59
 *   16 MiB: 20 + 167.77 = 187.77 us, algbw 89.35, busbw 134.03
 *   256 MiB: 20 + 2684.35 = 2704.35 us, algbw 99.26, busbw 148.89 */
#define HDR4                                                                                 \
    "# nThread 1 nGpus 4 minBytes 1048576 maxBytes 268435456 step: 16(factor) warmup iters: 5 " \
    "iters: 20 agg iters: 1 validation: 1 graph: 0\n"                                        \
    "#\n# Using devices\n"                                                                   \
    "#  Rank  0 Group  0 Pid   11 on box device  0 [0x0f] NVIDIA H100 80GB HBM3\n"          \
    "#  Rank  1 Group  0 Pid   11 on box device  1 [0x15] NVIDIA H100 80GB HBM3\n"          \
    "#  Rank  2 Group  0 Pid   11 on box device  2 [0x51] NVIDIA H100 80GB HBM3\n"          \
    "#  Rank  3 Group  0 Pid   11 on box device  3 [0x54] NVIDIA H100 80GB HBM3\n#\n"
#define COLS                                                                                 \
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     " \
    "time   algbw   busbw #wrong\n"                                                          \
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            " \
    "(us)  (GB/s)  (GB/s)\n"
#define ROW1 "     1048576        262144     float     sum      -1    30.49   34.39   51.59      0    30.49   34.39   51.59      0\n"
#define ROW2 "    16777216       4194304     float     sum      -1   187.77   89.35  134.03      0   187.77   89.35  134.03      0\n"
#define ROW3 "   268435456      67108864     float     sum      -1  2704.35   99.26  148.89      0  2704.35   99.26  148.89      0\n"
#define FOOT "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 111.5\n#\n"

START_TEST(nccl_inline_good_and_variants)
{
    /* The ring above: the all-size fit holds (three exact points) and
     * recovers alpha 20 us, beta 150 GB/s within the 2-decimal rounding. */
    static const char *const good = HDR4 COLS ROW1 ROW2 ROW3 FOOT;
    gp_calib *c = NULL;
    gp_calib_summary s;
    gp_err e;
    char buf[8192];
    ck_assert_int_eq(parse(good, GP_CALIB_FMT_AUTO, &c, &e), GP_OK);
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_int_eq(c->pts[0].gpus, 4);
    ck_assert_str_eq(c->dev.name, "NVIDIA H100 80GB HBM3");
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 150e9, 0.002);
    GP_ASSERT_REL(s.allreduce_lat, 20e-6, 0.01);
    GP_ASSERT_REL(s.allreduce_fit_min_bytes, 0, 0);
    gp_calib_free(c);
    /* Open MPI --tag-output and srun --label prefixes, CRLF line ends, NCCL
     * debug lines: the same sweep. */
    {
        const char *src = good;
        char *d = buf;
        int k = 0;
        while (*src) {
            const char *nl = strchr(src, '\n');
            size_t n = (size_t)(nl - src);
            d += sprintf(d, "%s%.*s\r\n", k % 2 ? "[1,0]<stdout>:" : "0: ", (int)n, src);
            if (k == 2)
                d += sprintf(d, "box:11:11 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n");
            src = nl + 1;
            k++;
        }
    }
    ck_assert_int_eq(parse(buf, GP_CALIB_FMT_AUTO, &c, &e), GP_OK);
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_str_eq(c->algo, "Ring");
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 150e9, 0.002);
    {
        char *t = NULL;
        ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "x", &t, &e), GP_OK);
        free(t);
    }
    gp_calib_free(c);
    /* Older nccl-tests: no Group, no root column, 'error' instead of
     * '#wrong' (a max error, kept), and a preamble. */
    ck_assert_int_eq(
        parse("$ ./build/all_reduce_perf -b 1M -e 256M -f 16 -g 4\n"
              "# nThread 1 nGpus 4 minBytes 1048576 maxBytes 268435456 step: 16(factor)\n"
              "#   Rank  0 Pid   11 on box device  0 [0x0f] Tesla V100-SXM2-32GB\n"
              "#   Rank  1 Pid   11 on box device  1 [0x15] Tesla V100-SXM2-32GB\n"
              "#   Rank  2 Pid   11 on box device  2 [0x51] Tesla V100-SXM2-32GB\n"
              "#   Rank  3 Pid   11 on box device  3 [0x54] Tesla V100-SXM2-32GB\n"
              "#       size    count   type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
              "     1048576   262144  float     sum    30.49   34.39   51.59  0e+00    30.49   34.39   51.59  0e+00\n"
              "    16777216  4194304  float     sum   187.77   89.35  134.03  0e+00   187.77   89.35  134.03  0e+00\n"
              "   268435456 67108864  float     sum  2704.35   99.26  148.89  1e-07  2704.35   99.26  148.89  0e+00\n" FOOT,
              GP_CALIB_FMT_NCCL_TESTS, &c, &e),
        GP_OK);
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_str_eq(c->dev.name, "Tesla V100-SXM2-32GB");
    ck_assert_int_eq(c->pts[0].verified, 0);
    gp_calib_free(c);
    /* A row with #wrong != 0 is dropped with a warning naming its line. */
    ck_assert_int_eq(parse(HDR4 COLS ROW1
                           "    16777216       4194304     float     sum      -1   187.77   89.35  134.03      3    187.77   89.35  134.03      0\n" ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_uint_eq(c->n_pts, 2);
    ck_assert_uint_eq(c->n_warn, 1);
    ck_assert_ptr_nonnull(strstr(c->warn[0], "t.txt:12: size 16777216 dropped: #wrong = 3"));
    gp_calib_free(c);
    /* nccl-tests prints #wrong with %g (util.cu: "%6g"), so a size with a
     * million wrong elements reads "1.04858e+06": that row too is dropped
     * with its warning (the log was refused: "#wrong '1.04858e+06' is not a
     * count"). */
    ck_assert_int_eq(parse(HDR4 COLS ROW1 ROW2
                           "   268435456      67108864     float     sum      -1  2704.35   99.26  148.89 1.04858e+06  2704.35   99.26  148.89      0\n" FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_uint_eq(c->n_pts, 2);
    ck_assert_uint_eq(c->n_warn, 1);
    ck_assert_ptr_nonnull(strstr(c->warn[0], "t.txt:13: size 268435456 dropped: #wrong = 1048580"));
    gp_calib_free(c);
    /* A newer log naming its test, on 2 ranks (ratio 1 is then AllReduce). */
    ck_assert_int_eq(
        parse("# Collective test starting: all_reduce_perf\n"
              "# nThread 1 nGpus 2 minBytes 1048576 maxBytes 16777216 step: 16(factor)\n"
              "#  Rank  0 Group  0 Pid   11 on box device  0 [0x0f] NVIDIA H100 80GB HBM3\n"
              "#  Rank  1 Group  0 Pid   11 on box device  1 [0x15] NVIDIA H100 80GB HBM3\n" COLS
              "     1048576        262144     float     sum      -1    30.49   34.39   34.39      0    30.49   34.39   34.39      0\n"
              "    16777216       4194304     float     sum      -1   187.77   89.35   89.35      0   187.77   89.35   89.35      0\n" FOOT
              "# Collective test concluded: all_reduce_perf\n",
              GP_CALIB_FMT_AUTO, &c, &e),
        GP_OK);
    ck_assert_int_eq(c->pts[0].gpus, 2);
    gp_calib_free(c);
}
END_TEST

START_TEST(nccl_version_lines_name_the_tool)
{
    /* nccl-tests >= 2.15 starts with '# nccl-tests version 2.18.3
     * nccl-headers=23004 nccl-library=23004'; the tool was that whole line
     * cut at 48 bytes ("nccl-tests nccl-tests version 2.18.3 nccl-headers
     * =23004 nc"), and so was every overlay's source and every expected
     * link figure's citation.  NCCL_VERSION_CODE 23004 = 2 x 10000 + 30 x 100
     * + 4: NCCL 2.30.4.  A log with NCCL's own 'NCCL version 2.21.5+cuda12.4'
     * line and no tests version names that library. */
    gp_calib *c = NULL;
    gp_calib_summary s;
    gp_err e;
    char *t = NULL;
    ck_assert_int_eq(parse("# nccl-tests version 2.18.3 nccl-headers=23004 nccl-library=23004\n"
                           "# Collective test starting: all_reduce_perf\n" HDR4 COLS ROW1 ROW2
                               ROW3 FOOT "# Collective test concluded: all_reduce_perf\n",
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_str_eq(c->tool, "nccl-tests 2.18.3 (NCCL 2.30.4)");
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "t.txt", &t, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(t, "source: \"nccl-tests 2.18.3 (NCCL 2.30.4) all_reduce_perf on 4 "
                                    "x NVIDIA H100 80GB HBM3 (1 node, host box), t.txt\""));
    free(t);
    gp_calib_free(c);
    ck_assert_int_eq(parse("NCCL version 2.21.5+cuda12.4\n" HDR4 COLS ROW1 ROW2 ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_str_eq(c->tool, "nccl-tests (NCCL 2.21.5+cuda12.4)");
    gp_calib_free(c);
    /* RCCL's banner under NCCL_DEBUG=INFO: its first line is a debug line,
     * the rest are not. */
    ck_assert_int_eq(parse("rccl-tests: Version HEAD:40b1b17\n" HDR4
                           "node [0] NCCL INFO RCCL version : 2.27.7-HEAD:29e1567\n"
                           "HIP version  : 7.2.53211-97f5574fe2\nROCm version : 7.2.4.0-93\n"
                           "Hostname     : (redacted)\nLibrccl path : /usr/local/lib/librccl.so.1\n"
                           COLS ROW1 ROW2 ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_str_eq(c->tool, "rccl-tests HEAD:40b1b17");
    ck_assert_uint_eq(c->n_pts, 3);
    gp_calib_free(c);
    /* A launcher's "Hostname: node1" before an NCCL log is no ROCm banner:
     * the log stays nccl-tests' (it was named rccl-tests). */
    ck_assert_int_eq(parse("Hostname: node1\n# nccl-tests version 2.18.3 nccl-headers=23004 "
                           "nccl-library=23004\n" HDR4 COLS ROW1 ROW2 ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_str_eq(c->tool, "nccl-tests 2.18.3 (NCCL 2.30.4)");
    gp_calib_free(c);
}
END_TEST

typedef struct refusal {
    const char *what;
    const char *text;
    int code;
    const char *says;
} refusal;

START_TEST(nccl_inline_refusals)
{
    static const refusal cases[] = {
        {"reduce_scatter named", "# Collective test starting: reduce_scatter_perf\n" HDR4 COLS ROW1 FOOT,
         GP_EUNSUP, "t.txt:1:29: a 'reduce_scatter' sweep: gpuplan imports AllReduce"},
        {"SendRecv ratio 1 on 4 ranks", HDR4 COLS
         "    16777216       4194304     float     sum      -1   187.77   89.35   89.35      0   187.77   89.35   89.35      0\n" FOOT,
         GP_EUNSUP, "busbw/algbw = 1.000 = 1, a Broadcast, Reduce or SendRecv sweep"},
        {"AllGather: redop none", HDR4 COLS
         "    16777216       4194304     float    none      -1   187.77   89.35   67.01      0   187.77   89.35   67.01      0\n" FOOT,
         GP_EUNSUP, "redop 'none'"},
        {"Reduce: root 0", HDR4 COLS
         "    16777216       4194304     float     sum       0   187.77   89.35   89.35      0   187.77   89.35   89.35      0\n" FOOT,
         GP_EUNSUP, "root 0: a rooted collective"},
        {"two sweeps", HDR4 COLS ROW1 FOOT HDR4 COLS ROW1 FOOT, GP_EUNSUP,
         "t.txt:15: a second sweep starts here"},
        {"2 ranks, test not named", "#  Rank  0 Group  0 Pid 1 on box device 0 [0x0f] NVIDIA H100 80GB HBM3\n"
         "#  Rank  1 Group  0 Pid 1 on box device 1 [0x15] NVIDIA H100 80GB HBM3\n" COLS
         "    16777216       4194304     float     sum      -1   187.77   89.35   89.35      0   187.77   89.35   89.35      0\n" FOOT,
         GP_EUNSUP, "on 2 ranks AllReduce and SendRecv print the same busbw/algbw"},
        {"mixed GPUs", "#  Rank  0 Group  0 Pid 1 on box device 0 [0x0f] NVIDIA H100 80GB HBM3\n"
         "#  Rank  1 Group  0 Pid 1 on box device 1 [0x15] NVIDIA A100-SXM4-80GB\n" COLS ROW1 FOOT,
         GP_EUNSUP, "rank 1 is a 'NVIDIA A100-SXM4-80GB', rank 0 a 'NVIDIA H100 80GB HBM3'"},
        {"algbw not size/time", HDR4 COLS
         "    16777216       4194304     float     sum      -1   187.77   98.35  147.53      0   187.77   89.35  134.03      0\n" FOOT,
         GP_EPARSE, "out-of-place algbw 98.35 GB/s is not size/time = 89.35 GB/s"},
        {"garbage among rows", HDR4 COLS ROW1 "Segmentation fault (core dumped)\n" ROW2 FOOT,
         GP_EPARSE, "t.txt:12:1: not a line of nccl-tests output: 'Segmentation fault"},
        {"negative time", HDR4 COLS
         "    16777216       4194304     float     sum      -1   -187.77   89.35  134.03      0   187.77   89.35  134.03      0\n" FOOT,
         GP_EPARSE, "out-of-place time '-187.77' is not a positive number"},
        {"inf busbw", HDR4 COLS
         "    16777216       4194304     float     sum      -1   187.77   89.35  inf      0   187.77   89.35  134.03      0\n" FOOT,
         GP_EPARSE, "out-of-place busbw 'inf' is not a rate"},
        {"every row wrong", HDR4 COLS
         "    16777216       4194304     float     sum      -1   187.77   89.35  134.03      1   187.77   89.35  134.03      1\n" FOOT,
         GP_EPARSE, "every row was dropped"},
        {"no column header", HDR4 ROW1 FOOT, GP_EPARSE, "a data row before the column header"},
        {"header only", HDR4, GP_EPARSE, "no column header"},
        {"no rows", HDR4 COLS FOOT, GP_EPARSE, "no data rows"},
        {"unsupported layout", HDR4 "#  size count  time algbw busbw #wrong\n" ROW1 FOOT, GP_EUNSUP,
         "unsupported column layout"},
        {"two types (-d all)", HDR4 COLS ROW1
         "    16777216       8388608      half     sum      -1   187.77   89.35  134.03      0   187.77   89.35  134.03      0\n" FOOT,
         GP_EUNSUP, "rows of more than one type/redop"},
        {"1 rank", "#  Rank  0 Group  0 Pid 1 on box device 0 [0x0f] NVIDIA H100 80GB HBM3\n" COLS
         "    16777216       4194304     float     sum      -1   187.77   89.35    0.00      0   187.77   89.35    0.00      0\n" FOOT,
         GP_EUNSUP, "over 1 rank moves nothing"},
        {"rank listed twice", HDR4 "#  Rank  3 Group  0 Pid   11 on box device  3 [0x54] NVIDIA H100 80GB HBM3\n" COLS ROW1 FOOT,
         GP_EPARSE, "rank 3 is listed twice"},
        {"rank line without host", "#  Rank  0 Group 0 Pid 1\n" COLS ROW1 FOOT, GP_EPARSE,
         "expected '... on HOST device D [BUS] NAME'"},
        /* Layouts of other options (nccl-tests util.cu writeResultHeader). */
        {"cputime columns (-C 1)", HDR4
         "#       size         count      type   redop    root  cputime   algbw   busbw  #wrong  cputime   algbw   busbw  #wrong\n" ROW1 FOOT,
         GP_EUNSUP, "t.txt:9: the time columns are 'cputime' (all_reduce_perf -C 1"},
        {"per-iteration columns after one half only", HDR4
         "#  size count type redop root time algbw busbw #wrong i_min i_max i_p99 i_cv% time algbw busbw #wrong\n" ROW1 FOOT,
         GP_EUNSUP, "unsupported column layout: '(end of line)' where 'i_min' belongs"},
        {"a column gpuplan does not read", HDR4
         "#  size count type redop root time algbw busbw #wrong #bitdiff time algbw busbw #wrong #bitdiff\n" ROW1 FOOT,
         GP_EUNSUP, "unsupported column layout: '#bitdiff' where 'time' belongs"},
        {"a timestamp that is none (-S 1)", HDR4
         "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong timestamp\n"
         "     1048576        262144     float     sum      -1    30.49   34.39   51.59      0    30.49   34.39   51.59      0  2025-6-2 14:03:11\n" FOOT,
         GP_EPARSE, "timestamp '2025-6-2 14:03:11' is not 'YYYY-MM-DD HH:MM:SS' (-S 1)"},
        {"fields the header does not name (rccl-tests -A 1)", HDR4 COLS
         "     1048576        262144     float     sum      -1    30.49   34.39   51.59      0    30.49   34.39   51.59      0    RING    SIMPLE          56\n" FOOT,
         GP_EPARSE, "row has 16 columns, expected 13 (size count type redop root, then time algbw busbw #wrong, twice); fields the column header does not name"},
        {"nccl-tests JSON results (-J)", "{\"version\":2,\"start_time\":\"2025-06-02 14:10:02\"}",
         GP_EUNSUP, "t.txt:1: nccl-tests' JSON results file (all_reduce_perf -J FILE.json)"},
        {"rccl-tests JSON results (-Z json)", "\n[\n{\"numCycle\":0, \"name\":\"AllReduce\"}\n]\n",
         GP_EUNSUP, "t.txt:2: rccl-tests' JSON results file (-Z json)"},
        {"older rccl-tests CSV results (-Z csv)",
         "collective, gpus, size, type, redop, inplace, time, algbw, busbw, #wrong\n", GP_EUNSUP,
         "rccl-tests' CSV results file (-Z csv)"},
        {"the -T timeout, glued to a row", HDR4 COLS ROW1
         "    16777216       4194304     float     sum      -1box: Test timeout (5s) common.cu:372\n",
         GP_EPARSE, "t.txt:12:58: all_reduce_perf stopped here on its -T 5 timeout ('Test timeout (5s) common.cu:372')"},
        {"a failure before the table", HDR4 "box: Test CUDA failure common.cu:88 'out of memory'\n",
         GP_EPARSE, "t.txt:9:6: all_reduce_perf failed here ('Test CUDA failure common.cu:88"},
        {"NVLS busbw (n-1)/(n+1)", HDR4 COLS
         "    16777216       4194304     float     sum      -1   187.77   89.35   53.61      0   187.77   89.35   53.61      0\n" FOOT,
         GP_EUNSUP, "busbw/algbw = 0.600 = (n-1)/(n+1) on 4 ranks: nccl-tests' NVLS bus bandwidth"},
        {"a rank of group 1 (NCCL_TESTS_SPLIT_MASK)",
         "#  Rank  0 Group  0 Pid 1 on box device 0 [0x0f] NVIDIA H100 80GB HBM3\n"
         "#  Rank  1 Group  1 Pid 2 on box device 1 [0x15] NVIDIA H100 80GB HBM3\n" COLS ROW1 FOOT,
         GP_EUNSUP, "t.txt:2:19: rank 1 is in group 1: NCCL_TESTS_SPLIT_MASK"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_calib *c = (gp_calib *)1;
        gp_err e;
        char buf[1024];
        int rc = parse(cases[i].text, GP_CALIB_FMT_NCCL_TESTS, &c, &e);
        gp_err_format(&e, buf, sizeof buf);
        ck_assert_msg(rc == cases[i].code, "%s: rc %d (%s)", cases[i].what, rc, buf);
        ck_assert_msg(strstr(buf, cases[i].says) != NULL, "%s: '%s' lacks '%s'", cases[i].what, buf,
                      cases[i].says);
        ck_assert_ptr_null(c);
    }
}
END_TEST

START_TEST(nccl_algo_and_unknown_nodes)
{
    /* NCCL_ALGO=NVLS on the command line: parsed, warned, and the link
     * overlay refuses it (not the ring figure).  A log without '# Rank'
     * lines: 4 ranks inferred from busbw/algbw = 1.5 = 2(n-1)/n, nodes
     * unknown, so no link figure either. */
    gp_calib *c = NULL;
    gp_calib_summary s;
    char *t = NULL;
    gp_err e;
    ck_assert_int_eq(parse("$ NCCL_ALGO=NVLS ./build/all_reduce_perf -b 1M -e 256M -f 16 -g 4\n" HDR4
                           COLS ROW1 ROW2 ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_str_eq(c->algo, "NVLS");
    ck_assert_uint_eq(c->n_warn, 1);
    ck_assert_ptr_nonnull(strstr(c->warn[0], "NCCL_ALGO=NVLS"));
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "x", &t, &e), GP_EUNSUP);
    ck_assert_ptr_nonnull(strstr(e.msg, "ran NCCL_ALGO=NVLS, not the ring"));
    gp_calib_free(c);
    /* NCCL_ALGO=^NVLS (everything but NVLS) leaves NCCL the ring and the
     * tree; on one node the tree is a chain moving 2S a GPU each way (the
     * ring 2(n-1)/n S), so the large sizes ran the ring and the figure is a
     * link's -- said in a warning.  Excluding the ring too is
     * refused, as a list that does not exclude NVLS is. */
    ck_assert_int_eq(parse("$ NCCL_ALGO=^NVLS ./build/all_reduce_perf -b 1M -e 256M -f 16 -g 4\n"
                           HDR4 COLS ROW1 ROW2 ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_str_eq(c->algo, "^NVLS");
    ck_assert_uint_eq(c->n_warn, 1);
    ck_assert_ptr_nonnull(strstr(c->warn[0], "chose between the ring and the tree"));
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "x", &t, &e), GP_OK);
    free(t);
    t = NULL;
    gp_calib_free(c);
    ck_assert_int_eq(parse("$ NCCL_ALGO=^NVLS,Ring ./build/all_reduce_perf -b 1M -e 256M -f 16 -g 4\n"
                           HDR4 COLS ROW1 ROW2 ROW3 FOOT,
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "x", &t, &e), GP_EUNSUP);
    gp_calib_free(c);
    ck_assert_int_eq(parse(COLS ROW1 ROW2 ROW3 FOOT, GP_CALIB_FMT_NCCL_TESTS, &c, &e), GP_OK);
    ck_assert_int_eq(c->pts[0].gpus, 4);
    ck_assert_int_eq(c->nodes, 0);
    ck_assert_str_eq(c->dev.name, "");
    ck_assert_ptr_nonnull(strstr(c->warn[0], "4 ranks inferred from busbw/algbw"));
    gp_calib_summarize(c, &s);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", "x", &t, &e), GP_EUNSUP);
    ck_assert_ptr_nonnull(strstr(e.msg, "does not show the sweep ran on one node"));
    gp_calib_free(c);
}
END_TEST

START_TEST(nccl_bad_fixtures)
{
    /* The files docs/bad-input.md runs through the CLI, through the library. */
    static const struct {
        const char *file;
        int code;
        const char *says;
    } cases[] = {
        {BAD "nccl-truncated.txt", GP_EPARSE, "nccl-truncated.txt:44: truncated log"},
        {BAD "nccl-cut-midrow.txt", GP_EPARSE, "nccl-cut-midrow.txt:46: row has 7 columns, expected 13"},
        {BAD "nccl-wrong-columns.txt", GP_EPARSE, "nccl-wrong-columns.txt:43: row has 12 columns"},
        {BAD "nccl-nan-time.txt", GP_EPARSE, "nccl-nan-time.txt:37:31: out-of-place time 'nan'"},
        {BAD "nccl-reduce-scatter.txt", GP_EUNSUP, "but size/ranks (a ReduceScatter or AllGather"},
        /* made by tests/data/calib/make_nccl_layouts.py (bad-input rows 522-529) */
        {BAD "nccl-cputime.txt", GP_EUNSUP, "nccl-cputime.txt:17: the time columns are 'cputime'"},
        {BAD "nccl-timeout.txt", GP_EPARSE, "nccl-timeout.txt:23:66: all_reduce_perf stopped here on its -T 5 timeout"},
        {BAD "nccl-test-failure.txt", GP_EPARSE, "nccl-test-failure.txt:15:14: all_reduce_perf failed here ('Test NCCL failure common.cu:241"},
        {BAD "nccl-json-output.json", GP_EUNSUP, "nccl-json-output.json:1: nccl-tests' JSON results file"},
        {BAD "rccl-csv-output.csv", GP_EUNSUP, "rccl-csv-output.csv:1: rccl-tests' CSV results file"},
        {BAD "nccl-nvls-busbw.txt", GP_EUNSUP, "nccl-nvls-busbw.txt:17: busbw/algbw = 0.778 = (n-1)/(n+1) on 8 ranks"},
        {BAD "nccl-split-groups.txt", GP_EUNSUP, "nccl-split-groups.txt:8:19: rank 1 is in group 1"},
        {BAD "nccl-no-mpi-mpirun.txt", GP_EPARSE, "nccl-no-mpi-mpirun.txt:13:4: rank 0 is listed twice (two sweeps in one file? or several all_reduce_perf processes that each ran alone"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_calib *c = NULL;
        gp_err e;
        char buf[1024];
        gp_err_clear(&e);
        ck_assert_int_eq(gp_calib_read_file_any(cases[i].file, GP_CALIB_FMT_AUTO, &c, &e),
                         cases[i].code);
        gp_err_format(&e, buf, sizeof buf);
        ck_assert_msg(strstr(buf, cases[i].says) != NULL, "'%s' lacks '%s'", buf, cases[i].says);
        ck_assert_ptr_null(c);
    }
}
END_TEST

/* ---- layouts of other all_reduce_perf options ------------------------------------------------ */

/* The fixtures below are not recordings: tests/data/calib/make_nccl_layouts.py
 * rebuilt each one from the printf format strings of nccl-tests' util.cu and
 * common.cu (NVIDIA/nccl-tests 0fdb00a, 2.19.1) or rccl-tests' common.cu
 * (ROCm/rccl-tests c0eac93), with times from a ring model; the values below
 * are worked out from the printed rows, quoted here. */

START_TEST(nccl_layout_cycles_timestamps)
{
    /* all_reduce_perf -b 1M -e 256M -f 16 -t 2 -g 4 -N 2 -S 1 -J ar.json: two
     * threads of four GPUs in one process (8 ranks, one Pid), the sweep printed
     * twice (-N 2) under one header, a 'timestamp' column (two fields a row),
     * and the '# Writing JSON output to ar.json' line of -J.  Each size is one
     * point of four trials (two cycles x out-of-place, in-place):
     *   1 MiB:   35.10 35.24 | 35.03 35.45    -> sorted 35.03 35.10 35.24 35.45,
     *            median (35.10 + 35.24) / 2 = 35.17 us
     *   16 MiB:  111.56 112.00 | 111.33 112.67 -> median (111.56 + 112.00) / 2 = 111.78
     *   256 MiB: 1334.89 1340.23 | 1332.22 1348.24 -> median (1334.89 + 1340.23) / 2
     *            = 1337.56 us
     * beta from the two larger sizes: 1.75 x (268435456 - 16777216) /
     * (1337.56 - 111.78) us = 440401920 / 1225.78e-6 = 359.283 GB/s; alpha =
     * 111.78 - 1.75 x 16777216 / 359283 = 30.06 us (the fit over the three
     * sizes lands within 0.01 % of both). */
    gp_calib *c = load(DATA "h100-nccl-tests-cycles-timestamps.txt");
    const gp_calib_point *p;
    gp_calib_summary s;
    ck_assert_str_eq(c->tool, "nccl-tests 2.19.1 (NCCL 2.27.7)");
    ck_assert_str_eq(c->dev.name, "NVIDIA H100 80GB HBM3");
    ck_assert_str_eq(c->dev.pci_bus_id, "0000:18:00");
    ck_assert_str_eq(c->host, "dgx-h100-07");
    ck_assert_int_eq(c->nodes, 1);
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_uint_eq(c->n_warn, 0);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", MIB);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->gpus, 8);
    ck_assert_uint_eq(p->t.n, 4);
    GP_ASSERT_REL(p->t.min, 35.03e-6, 1e-12);
    GP_ASSERT_REL(p->t.max, 35.45e-6, 1e-12);
    GP_ASSERT_REL(p->t.median, 35.17e-6, 1e-12);
    ck_assert_uint_eq(p->line, 19);
    ck_assert_int_eq(p->verified, 1);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 16 * MIB);
    ck_assert_ptr_nonnull(p);
    GP_ASSERT_REL(p->t.median, 111.78e-6, 1e-12);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 256 * MIB);
    ck_assert_ptr_nonnull(p);
    GP_ASSERT_REL(p->t.median, 1337.56e-6, 1e-12);
    ck_assert_uint_eq(p->line, 21);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 359.283e9, 1e-4);
    GP_ASSERT_REL(s.allreduce_lat, 30.06e-6, 1e-3);
    gp_calib_free(c);
}
END_TEST

START_TEST(nccl_layout_per_iteration)
{
    /* all_reduce_perf -b 64M -e 1G -f 4 -g 8 -I 1: 'i_min i_max i_p99 i_cv%'
     * after each half (util.cu writePerIterReport), read as numbers and not
     * used; the trials are the table's times, out-of-place and in-place:
     *   64 MiB: (356.22 + 357.29) / 2 = 356.755 us
     *   256 MiB: (1334.89 + 1338.90) / 2 = 1336.895 us
     *   1 GiB: (5249.58 + 5265.33) / 2 = 5257.455 us
     * beta = 1.75 x (1073741824 - 268435456) / (5257.455 - 1336.895) us
     *      = 1409286144 / 3920.56e-6 = 359.460 GB/s. */
    gp_calib *c = load(DATA "h100-nccl-tests-per-iteration.txt");
    const gp_calib_point *p;
    gp_calib_summary s;
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_uint_eq(c->n_warn, 0);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 1024 * MIB);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->t.n, 2);
    GP_ASSERT_REL(p->t.min, 5249.58e-6, 1e-12);
    GP_ASSERT_REL(p->t.median, 5257.455e-6, 1e-12);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 64 * MIB);
    ck_assert_ptr_nonnull(p);
    GP_ASSERT_REL(p->t.median, 356.755e-6, 1e-12);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 359.460e9, 1e-4);
    gp_calib_free(c);
}
END_TEST

START_TEST(rccl_layout_inplace_cycles)
{
    /* rccl-tests all_reduce_perf -b 64M -e 1G -f 4 -g 8 -O 0 -s 2: in-place
     * only (one 'time algbw busbw #wrong' block, 9 fields a row) and the
     * sweep twice, '# Testing 2 cycle.' between.  A size's trials are its
     * two rows:
     *   64 MiB: (418.8 + 421.4) / 2 = 420.1 us
     *   256 MiB: (1555.4 + 1564.7) / 2 = 1560.05 us
     *   1 GiB: (6101.4 + 6138.1) / 2 = 6119.75 us
     * beta = 1.75 x 805306368 / (6119.75 - 1560.05) us = 1409286144 /
     * 4559.70e-6 = 309.074 GB/s, the link overlay's figure (8 GPUs: the whole
     * xGMI mesh). */
    gp_calib *c = load(DATA "mi300x-rccl-tests-inplace-cycles.txt");
    const gp_calib_point *p;
    gp_calib_summary s;
    gp_err e;
    char *t = NULL;
    ck_assert_str_eq(c->tool, "rccl-tests develop:7ba3a9e");
    ck_assert_str_eq(c->dev.name, "AMD Instinct MI300X");
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_uint_eq(c->n_warn, 0);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 1024 * MIB);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->t.n, 2);
    GP_ASSERT_REL(p->t.min, 6101.4e-6, 1e-12);
    GP_ASSERT_REL(p->t.max, 6138.1e-6, 1e-12);
    GP_ASSERT_REL(p->t.median, 6119.75e-6, 1e-12);
    ck_assert_uint_eq(p->line, 19);
    p = point_at(c, GP_CALIB_ALLREDUCE, "allreduce", 256 * MIB);
    ck_assert_ptr_nonnull(p);
    GP_ASSERT_REL(p->t.median, 1560.05e-6, 1e-12);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 309.074e9, 1e-4);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "xgmi-mi300x", "x", &t, &e), GP_OK);
    GP_ASSERT_REL(overlay_rate(t, "bandwidth:"), 309.074e9, 1e-4);
    free(t);
    gp_calib_free(c);
}
END_TEST

/* HDR4 with other '# nThread' values, and its rank lines alone. */
#define NTHREAD4(agg, graph)                                                                 \
    "# nThread 1 nGpus 4 minBytes 1048576 maxBytes 268435456 step: 16(factor) warmup iters: 5 " \
    "iters: 20 agg iters: " agg " validation: 1 graph: " graph "\n"
#define RANKS4                                                                               \
    "#\n# Using devices\n"                                                                   \
    "#  Rank  0 Group  0 Pid   11 on box device  0 [0x0f] NVIDIA H100 80GB HBM3\n"          \
    "#  Rank  1 Group  0 Pid   11 on box device  1 [0x15] NVIDIA H100 80GB HBM3\n"          \
    "#  Rank  2 Group  0 Pid   11 on box device  2 [0x51] NVIDIA H100 80GB HBM3\n"          \
    "#  Rank  3 Group  0 Pid   11 on box device  3 [0x54] NVIDIA H100 80GB HBM3\n#\n"

START_TEST(nccl_layout_inline_variants)
{
    gp_calib *c = NULL;
    gp_calib_summary s;
    gp_err e;
    /* -G 10 (CUDA graph launches) and -m 4 (aggregated operations): the same
     * table, each time one operation's share; both warned (the small sizes'
     * times are not a plain call's), the figure unchanged. */
    ck_assert_int_eq(parse(NTHREAD4("4", "10") RANKS4 COLS ROW1 ROW2 ROW3 FOOT, GP_CALIB_FMT_AUTO,
                           &c, &e),
                     GP_OK);
    ck_assert_uint_eq(c->n_pts, 3);
    ck_assert_uint_eq(c->n_warn, 2);
    ck_assert_ptr_nonnull(strstr(c->warn[0], "CUDA graph launches (all_reduce_perf -G 10)"));
    ck_assert_ptr_nonnull(strstr(c->warn[1], "4 operations grouped in each launch (all_reduce_perf -m 4)"));
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.allreduce_busbw, 150e9, 0.002);
    gp_calib_free(c);
    /* rccl-tests on gfx942 prints 'On gfx942 architecture, using FNUZ FP8
     * types' without a newline: the '# nThread' line is glued to it. */
    {
        static const char *const glued =
            "On gfx942 architecture, using FNUZ FP8 types" NTHREAD4("1", "10") RANKS4 COLS ROW1
                ROW2 ROW3 FOOT;
        ck_assert_int_eq(gp_calib_detect(glued, strlen(glued)), GP_CALIB_FMT_NCCL_TESTS);
        ck_assert_int_eq(parse(glued, GP_CALIB_FMT_AUTO, &c, &e), GP_OK);
        ck_assert_uint_eq(c->n_pts, 3);
        ck_assert_uint_eq(c->n_warn, 1); /* the graph: 10 of the glued line was read */
        gp_calib_free(c);
    }
    /* util.cu getFloatStr prints a time of 10^7 us or more with 2 significant
     * digits: 64 GiB at 5 GB/s is 13744 ms, printed "1.4e+07"; size/time from
     * the printed time is 68719476736 / 1.4e10 = 4.909 GB/s against the
     * printed 5.00 (1.8 %), within the time's own rounding (0.05e7 / 1.4e7 =
     * 3.6 %). */
    ck_assert_int_eq(
        parse(HDR4 COLS ROW1 ROW2
              " 68719476736   17179869184     float     sum      -1  1.4e+07    5.00    7.50       0  1.4e+07    5.00    7.50       0\n" FOOT,
              GP_CALIB_FMT_AUTO, &c, &e),
        GP_OK);
    ck_assert_uint_eq(c->n_pts, 3);
    GP_ASSERT_REL(c->pts[2].t.median, 14.0, 1e-12);
    gp_calib_free(c);
}
END_TEST

/* ---- BabelStream variants and refusals -------------------------------------------------------- */

#define BS_HEAD                                                                              \
    "BabelStream\nVersion: 5.0\nImplementation: CUDA\nRunning kernels 100 times\n"           \
    "Precision: double\nArray size: 268.4 MB (=0.3 GB)\nTotal size: 805.3 MB (=0.8 GB)\n"    \
    "Using CUDA device NVIDIA H100 80GB HBM3\nDriver: 12020\nMemory: DEFAULT\n"
/* Copy 2 x 268.4e6 = 536.8e6 bytes at 3000000.000 MB/s -> 178.93 us. */
#define BS_TABLE                                                                             \
    "Function    MBytes/sec  Min (sec)   Max         Average     \n"                          \
    "Copy        3000000.000 0.00018     0.00019     0.00018     \n"                          \
    "Triad       3100000.000 0.00026     0.00027     0.00026     \n"

START_TEST(babelstream_variants_and_refusals)
{
    static const refusal cases[] = {
        {"validation failed", BS_HEAD BS_TABLE "Validation failed on a[]. Average error 1.2\n",
         GP_EPARSE, "t.txt:14:1: BabelStream reports wrong results"},
        {"second table cut", BS_HEAD BS_TABLE "Function    MBytes/sec  Min (sec)   Max         Average\n"
         "Copy        3000000.000 0.00018     0.00019     0.00018\n",
         GP_EPARSE, "the table at line 14 lacks Triad, the one at line 11 has it: truncated?"},
        {"row cut", BS_HEAD "Function    MBytes/sec  Min (sec)   Max         Average\nCopy        3000000.000\n",
         GP_EPARSE, "t.txt:12: Copy row has 2 columns, expected 5"},
        {"min disagrees", BS_HEAD "Function    MBytes/sec  Min (sec)   Max         Average\n"
         "Copy        3000000.000 0.00036     0.00039     0.00038\n",
         GP_EPARSE, "Copy: 3000000.000 MB/s for 536800000 bytes is a 0.000179 s pass, but Min (sec) says 0.00036"},
        {"triad only", "BabelStream\nVersion: 5.0\nImplementation: CUDA\nRunning triad 100 times\n",
         GP_EUNSUP, "t.txt:4:1: BabelStream --triad-only output"},
        {"csv", "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime\n",
         GP_EUNSUP, "--csv output is not supported"},
        {"no device", "BabelStream\nArray size: 268.4 MB (=0.3 GB)\n" BS_TABLE, GP_EPARSE,
         "no 'Using CUDA|HIP|... device NAME' line"},
        {"no array size", "BabelStream\nUsing CUDA device X\n" BS_TABLE, GP_EPARSE,
         "no 'Array size:' line before the table"},
        {"two devices differ", BS_HEAD "Using CUDA device NVIDIA A100-SXM4-80GB\n" BS_TABLE, GP_EUNSUP,
         "device 'NVIDIA A100-SXM4-80GB' after 'NVIDIA H100 80GB HBM3'"},
        {"row outside a table", BS_HEAD "Copy        3000000.000 0.00018     0.00019     0.00018\n",
         GP_EPARSE, "a function row outside a 'Function ...' table"},
        {"unknown line", BS_HEAD BS_TABLE ". . .\n", GP_EPARSE,
         "t.txt:14:1: not a line of BabelStream output: '. . .'"},
        {"no table", BS_HEAD, GP_EPARSE, "no 'Function MBytes/sec Min (sec) Max Average' table"},
        {"bad precision", "BabelStream\nPrecision: **double**\n", GP_EPARSE,
         "precision '**double**' is not double or float"},
        {"Using without device", "BabelStream\nUsing OpenMP\n", GP_EUNSUP, "names no device"},
        {"max below min", BS_HEAD "Function    MBytes/sec  Min (sec)   Max         Average\n"
         "Copy        3000000.000 0.00018     0.00010     0.00018\n",
         GP_EPARSE, "are not min <= average <= max seconds"},
    };
    size_t i;
    gp_calib *c = NULL;
    gp_err e;
    gp_calib_summary s;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[1024];
        int rc;
        c = (gp_calib *)1;
        rc = parse(cases[i].text, GP_CALIB_FMT_BABELSTREAM, &c, &e);
        gp_err_format(&e, buf, sizeof buf);
        ck_assert_msg(rc == cases[i].code, "%s: rc %d (%s)", cases[i].what, rc, buf);
        ck_assert_msg(strstr(buf, cases[i].says) != NULL, "%s: '%s' lacks '%s'", cases[i].what, buf,
                      cases[i].says);
        ck_assert_ptr_null(c);
    }
    /* One device, padded columns (as BabelStream prints them): Copy 536.8e6
     * bytes at 3e12 B/s -> 3.000 TB/s exactly; Triad 3 x 268.4e6 = 805.2e6. */
    ck_assert_int_eq(parse(BS_HEAD BS_TABLE, GP_CALIB_FMT_AUTO, &c, &e), GP_OK);
    ck_assert_int_eq(c->dev.gpus, 1);
    ck_assert_int_eq(c->dev.driver_version, 12020);
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 3.0e12, 1e-12);
    GP_ASSERT_REL(s.mem_triad_bw, 3.1e12, 1e-12);
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "triad", 805.2e6));
    gp_calib_free(c);
    /* A failed sum check (BabelStream src/main.cpp check_solution: "Validation
     * failed on sum. Error E" and "Sum was S but should be G", a relative
     * 1e-8 that float sums miss) leaves Dot out with a warning; the arrays
     * validated, so Copy and Triad stay.  Dot 2 x 268.4e6 = 536.8e6 bytes at
     * 2800000.000 MB/s -> 191.71 us. */
    ck_assert_int_eq(parse(BS_HEAD BS_TABLE
                           "Dot         2800000.000 0.00019     0.00020     0.00019     \n"
                           "Validation failed on sum. Error 2.3e-06\n"
                           "Sum was 1234.5 but should be 1234.6\n",
                           GP_CALIB_FMT_BABELSTREAM, &c, &e),
                     GP_OK);
    ck_assert_ptr_null(point_at(c, GP_CALIB_MEMORY, "dot", 536.8e6));
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "copy", 536.8e6));
    ck_assert_uint_eq(c->n_warn, 1);
    ck_assert_ptr_nonnull(strstr(c->warn[0], "t.txt:15: 'Validation failed on sum"));
    ck_assert_ptr_nonnull(strstr(c->warn[0], "Dot is left out"));
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 3.0e12, 1e-12);
    gp_calib_free(c);
    /* --mibibytes: MiB = 2^20.  Array 256.0 MiB = 268435456 bytes; Copy
     * 2 x 268435456 = 536870912 bytes at 2861022.949 MiB/s =
     * 2861022.949 x 1048576 = 3.0e12 B/s -> 178.96 us. */
    ck_assert_int_eq(parse("BabelStream\nPrecision: float\nArray size: 256.0 MiB (=0.2 GiB)\n"
                           "Using HIP device AMD Instinct MI300X\n"
                           "Function    MiBytes/sec Min (sec)   Max         Average\n"
                           "Copy        2861022.949 0.00018     0.00019     0.00018\n",
                           GP_CALIB_FMT_AUTO, &c, &e),
                     GP_OK);
    ck_assert_ptr_nonnull(point_at(c, GP_CALIB_MEMORY, "copy", 536870912.0));
    gp_calib_summarize(c, &s);
    GP_ASSERT_REL(s.mem_bw, 3.0e12, 1e-9);
    gp_calib_free(c);
}
END_TEST

/* ---- CLI ------------------------------------------------------------------------------------- */

START_TEST(cli_show_each_file)
{
    static const struct {
        const char *file;
        const char *says[3];
    } cases[] = {
        {DATA "mi300x-rccl-tests-allreduce.txt",
         {"(nccl-tests, rccl-tests develop:ae3e635, no date)", "allreduce, S >= 64 MiB",
          "8 ranks on 1 node (SMC-SC-DC19-06)"}},
        {DATA "mi300x-babelstream.txt",
         {"(BabelStream 5.0 (HIP, double), no date)", "memory dot",
          "2 devices (one table each), driver 60241133"}},
        {DATA "a100-nccl-tests-allreduce.txt",
         {"database GPU                 a100-sxm-40gb", "efficiency vs datasheet (a100-sxm-40gb)", NULL}},
        {DATA "a100-2node-nccl-tests-allreduce.txt",
         {"16 ranks on 2 nodes (inst-edjui-gpu4, inst-vdgkk-gpu4)",
          "note: 2 nodes: the busbw is bounded by the network", NULL}},
    };
    size_t i, k;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[] = {"calib", "show", cases[i].file, NULL};
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
        for (k = 0; k < 3; k++)
            if (cases[i].says[k] != NULL)
                ck_assert_msg(strstr(out, cases[i].says[k]) != NULL, "%s: no '%s' in\n%s",
                              cases[i].file, cases[i].says[k], out);
        free(out);
        free(err);
    }
    {
        /* JSON: format, nodes, the windowed fit; busbw 316.66 GB/s by hand (1 %). */
        const char *argv[] = {"--json", "calib", "show", DATA "mi300x-rccl-tests-allreduce.txt", NULL};
        json_t *o = gp_test_cli_json(argv), *sum, *fits;
        size_t j;
        int windowed = 0;
        ck_assert_ptr_nonnull(o);
        ck_assert_str_eq(json_string_value(json_object_get(o, "format")), "nccl-tests");
        ck_assert_int_eq(json_integer_value(json_object_get(o, "nodes")), 1);
        ck_assert_str_eq(json_string_value(json_object_get(o, "gpu")), "mi300x");
        sum = json_object_get(o, "summary");
        GP_ASSERT_REL(gp_test_jnum(sum, "allreduce_busbw_bytes_per_s"), 316.66e9, 0.01);
        fits = json_object_get(o, "fits");
        for (j = 0; j < json_array_size(fits); j++)
            if (json_object_get(json_array_get(fits, j), "min_bytes") != NULL) {
                GP_ASSERT_REL(gp_test_jnum(json_array_get(fits, j), "min_bytes"), 64.0 * MIB, 0);
                windowed = 1;
            }
        ck_assert(windowed);
        json_decref(o);
    }
}
END_TEST

START_TEST(cli_import_then_hw_show)
{
    /* rccl-tests: only links/calib-mi300x.yaml (no GPU figures); BabelStream:
     * only gpus/calib-mi300x.yaml; twice is idempotent; hw show prints
     * measured beside datasheet: 4.26 TB/s vs 5.30 TB/s (80 %), and the
     * link's expected bandwidth becomes the measured busbw. */
    char dir[256], g[512], l[512], *out = NULL, *err = NULL, *before, *after;
    const char *rccl[] = {"--db", dir, "calib", "import", DATA "mi300x-rccl-tests-allreduce.txt", NULL};
    const char *bs[] = {"--db", dir, "calib", "import", DATA "mi300x-babelstream.txt", "--date",
                        "2024-09-01", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(g, sizeof g, "%s/gpus/calib-mi300x.yaml", dir);
    snprintf(l, sizeof l, "%s/links/calib-mi300x.yaml", dir);
    ck_assert_int_eq(gp_test_cli(rccl, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "no GPU overlay: an nccl-tests log holds no GPU figures"));
    ck_assert_ptr_nonnull(strstr(out, "(link 'xgmi-mi300x')"));
    free(out);
    free(err);
    {
        struct stat st;
        ck_assert_int_ne(stat(g, &st), 0);
        ck_assert_int_eq(stat(l, &st), 0);
    }
    before = gp_test_dir_listing(dir);
    ck_assert_int_eq(gp_test_cli(rccl, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "unchanged"));
    after = gp_test_dir_listing(dir);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(bs, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "wrote"));
    free(out);
    free(err);
    {
        char *t = gp_test_slurp(g);
        ck_assert_ptr_nonnull(t);
        ck_assert_ptr_nonnull(strstr(t, "  date: \"2024-09-01\"\n"));
        ck_assert_ptr_null(strstr(t, "compute:"));
        free(t);
    }
    {
        const char *av[] = {"--db", dir, "hw", "show", "mi300x", NULL};
        ck_assert_int_eq(gp_test_cli(av, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "datasheet 5.30 TB/s (80%)"));
        ck_assert_ptr_nonnull(strstr(out, "memory bandwidth             4.26 TB/s          measured"));
        free(out);
        free(err);
    }
    {
        const char *av[] = {"--json", "--db", dir, "hw", "show", "xgmi-mi300x", NULL};
        json_t *o = gp_test_cli_json(av);
        char *txt;
        ck_assert_ptr_nonnull(o);
        txt = json_dumps(o, 0);
        ck_assert_ptr_nonnull(strstr(txt, "mi300x-rccl-tests-allreduce.txt"));
        free(txt);
        json_decref(o);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_import_other_layouts)
{
    /* The -N 2 -S 1 -t 2 -g 4 sweep (nccl_layout_cycles_timestamps) imports
     * as any: links/calib-h100-sxm.yaml for nvlink4, its bandwidth the fit's
     * 359.28 GB/s; the -C 1 log is refused (exit 2) and writes nothing. */
    char dir[256], l[512], *out = NULL, *err = NULL;
    const char *ok[] = {"--db", dir, "calib", "import",
                        DATA "h100-nccl-tests-cycles-timestamps.txt", NULL};
    const char *no[] = {"--db", dir, "calib", "import", BAD "nccl-cputime.txt", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(l, sizeof l, "%s/links/calib-h100-sxm.yaml", dir);
    ck_assert_int_eq(gp_test_cli(ok, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "(link 'nvlink4')"));
    free(out);
    free(err);
    {
        char *t = gp_test_slurp(l);
        ck_assert_ptr_nonnull(t);
        ck_assert_ptr_nonnull(strstr(t, "source: \"nccl-tests 2.19.1 (NCCL 2.27.7) all_reduce_perf on 8 x "
                                        "NVIDIA H100 80GB HBM3 (1 node, host dgx-h100-07)"));
        GP_ASSERT_REL(overlay_rate(t, "bandwidth:"), 359.283e9, 1e-4);
        free(t);
    }
    gp_test_rmtree(dir);
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    {
        char *before = gp_test_dir_listing(dir), *after;
        ck_assert_int_eq(gp_test_cli(no, &out, &err), 2);
        ck_assert_ptr_nonnull(strstr(err, "rerun without -C (or with -C 0)"));
        after = gp_test_dir_listing(dir);
        ck_assert_str_eq(before, after);
        free(before);
        free(after);
    }
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_refusals_leave_dir_unchanged)
{
    /* A multi-node sweep, a truncated log and a cut BabelStream table are
     * refused with exit 2 and file:line, and the overlay directory (holding
     * an earlier good import) is byte-for-byte unchanged. */
    static const struct {
        const char *file;
        const char *says;
    } cases[] = {
        {DATA "a100-2node-nccl-tests-allreduce.txt", "the AllReduce sweep ran on 2 nodes"},
        {BAD "nccl-truncated.txt", "nccl-truncated.txt:44: truncated log"},
        {BAD "nccl-cut-midrow.txt", "nccl-cut-midrow.txt:46: row has 7 columns"},
        {BAD "nccl-reduce-scatter.txt", "not an AllReduce sweep"},
        /* No size in the bandwidth regime; 1e-300 s; a figure under 1 % of
         * the datasheet (0.01 GB/s h2d; 2^31 B / 2 s = 1.074 GB/s copy, 0.07 %
         * of the A100's 1.555 TB/s); a date the calendar lacks. */
        {BAD "nccl-latency-only.txt", "nccl-latency-only.txt:22: the AllReduce sweep's largest "
                                      "size is 4096 B"},
        {BAD "calib-h2d-latency-only.yaml", "calib-h2d-latency-only.yaml:11: the h2d pinned "
                                            "sweep's largest size is 4096 B"},
        {BAD "nvbandwidth-slow-h2d.txt", "nvbandwidth-slow-h2d.txt:11: host-to-device bandwidth "
                                         "10.000 MB/s"},
        {BAD "calib-slow-copy.yaml", "calib-slow-copy.yaml:9: memory bandwidth 1.074 GB/s is "
                                     "0.069 % of a100-sxm-40gb's datasheet"},
        {BAD "calib-tiny-time.yaml", "calib-tiny-time.yaml:7:116: t_s: trial '1e-300' s"},
        {BAD "calib-bad-date.yaml", "calib-bad-date.yaml:4:7: date: '2026-13-45T99:00:00Z' is "
                                    "not a date"},
    };
    char dir[256], *out = NULL, *err = NULL, *before, *after;
    const char *good[] = {"--db", dir, "calib", "import", DATA "a100-nccl-tests-allreduce.txt", NULL};
    size_t i;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_cli(good, &out, &err), 0);
    free(out);
    free(err);
    before = gp_test_dir_listing(dir);
    ck_assert_ptr_nonnull(strstr(before, "links/calib-a100-sxm-40gb.yaml"));
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[] = {"--db", dir, "calib", "import", cases[i].file, "--as", "a100-sxm-40gb", NULL};
        ck_assert_int_eq(gp_test_cli(argv, &out, &err), 2);
        ck_assert_msg(strstr(err, cases[i].says) != NULL, "%s: %s", cases[i].file, err);
        after = gp_test_dir_listing(dir);
        ck_assert_str_eq(before, after);
        free(after);
        free(out);
        free(err);
    }
    free(before);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_refused_import_creates_no_directory)
{
    /* The target directory was created before the figures were checked, so
     * a refused import left an empty --db DIR (with its missing parents), or
     * an empty ${XDG_CONFIG_HOME}/gpuplan that gpuplan then read as an
     * overlay.  A refusal now leaves no directory behind; a good import
     * still creates the whole path. */
    char dir[256], db[400], xdg[400], env[420], p[512], *out = NULL, *err = NULL;
    struct stat st;
    const char *bad[] = {"--db", db, "calib", "import", BAD "nccl-nvls-h100.txt", NULL};
    const char *bad2[] = {"--db", db, "calib", "import", DATA "a100-2node-nccl-tests-allreduce.txt",
                          NULL};
    const char *badx[] = {"calib", "import", BAD "rccl-mi300x-2gpu.txt", NULL};
    const char *good[] = {"--db", db, "calib", "import", DATA "mi300x-rccl-tests-banner.txt", NULL};
    const char *envs[] = {env, "GPUPLAN_DB=", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(db, sizeof db, "%s/new/db", dir);
    ck_assert_int_eq(gp_test_cli(bad, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "exceeds the datasheet 450.0 GB/s"));
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(bad2, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "the AllReduce sweep ran on 2 nodes"));
    free(out);
    free(err);
    snprintf(p, sizeof p, "%s/new", dir);
    ck_assert_msg(stat(p, &st) != 0, "%s was left behind", p);
    /* However deep the new path (more missing levels than the 8 it noted,
     * shortest first, the whole chain stayed). */
    snprintf(db, sizeof db, "%s/new/1/2/3/4/5/6/7/8/9/db", dir);
    ck_assert_int_eq(gp_test_cli(bad, &out, &err), 2);
    free(out);
    free(err);
    ck_assert_msg(stat(p, &st) != 0, "%s was left behind", p);
    snprintf(db, sizeof db, "%s/new/db", dir);
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    snprintf(env, sizeof env, "XDG_CONFIG_HOME=%s", xdg);
    ck_assert_int_eq(gp_test_cli_env(badx, envs, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "is a point-to-point mesh of 8 GPUs"));
    free(out);
    free(err);
    ck_assert_msg(stat(xdg, &st) != 0, "%s was left behind", xdg);
    ck_assert_int_eq(gp_test_cli(good, &out, &err), 0);
    free(out);
    free(err);
    snprintf(p, sizeof p, "%s/links/calib-mi300x.yaml", db);
    ck_assert_int_eq(stat(p, &st), 0);
    gp_test_rmtree(dir);
}
END_TEST

/* `text` with every "NVIDIA H100 80GB HBM3" written "NVIDIA H200" (malloc'd). */
static char *as_h200(const char *text)
{
    static const char from[] = "NVIDIA H100 80GB HBM3";
    char *out = malloc(strlen(text) + 1), *d = out;
    const char *p = text, *q;
    ck_assert_ptr_nonnull(out);
    while ((q = strstr(p, from)) != NULL) {
        memcpy(d, p, (size_t)(q - p));
        d += q - p;
        d += sprintf(d, "NVIDIA H200");
        p = q + strlen(from);
    }
    strcpy(d, p);
    return out;
}

START_TEST(cli_link_overlay_of_another_gpu_is_replaced)
{
    /* H100 and H200 share link nvlink4, but each import wrote
     * links/calib-<GPU>.yaml: after an H200 sweep and then an H100 sweep the
     * directory held two figures for nvlink4, the one that sorts last
     * (calib-h200.yaml) won, and the H100 import said "wrote" for a figure
     * not in effect.  The later import now replaces the other file, in
     * either order, and says so; importing again changes nothing. */
    char dir[256], db[300], *out = NULL, *err = NULL, *h200 = as_h200(HDR4 COLS ROW1 ROW2 ROW3 FOOT),
         *listing, *t;
    const char *imp100[] = {"--db", db, "calib", "import", NULL, NULL};
    const char *imp200[] = {"--db", db, "calib", "import", NULL, NULL};
    const char *show[] = {"--db", db, "hw", "show", "nvlink4", NULL};
    char f100[400], f200[400];
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "h100.txt", HDR4 COLS ROW1 ROW2 ROW3 FOOT), 0);
    ck_assert_int_eq(gp_test_write(dir, "h200.txt", h200), 0);
    snprintf(f100, sizeof f100, "%s/h100.txt", dir);
    snprintf(f200, sizeof f200, "%s/h200.txt", dir);
    snprintf(db, sizeof db, "%s/db", dir);
    imp100[4] = f100;
    imp200[4] = f200;
    ck_assert_int_eq(gp_test_cli(imp200, &out, &err), 0);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(imp100, &out, &err), 0);
    ck_assert_msg(strstr(out, "/links/calib-h200.yaml (an earlier import's figure for link "
                              "'nvlink4', replaced)") != NULL, "%s", out);
    free(out);
    free(err);
    listing = gp_test_dir_listing(db);
    ck_assert_ptr_nonnull(strstr(listing, "links/calib-h100-sxm.yaml"));
    ck_assert_ptr_null(strstr(listing, "calib-h200.yaml"));
    free(listing);
    ck_assert_int_eq(gp_test_cli(show, &out, &err), 0);
    ck_assert_msg(strstr(out, "/links/calib-h100-sxm.yaml:") != NULL, "%s", out);
    free(out);
    free(err);
    /* Again: nothing changes. */
    ck_assert_int_eq(gp_test_cli(imp100, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "unchanged"));
    ck_assert_ptr_null(strstr(out, "removed"));
    free(out);
    free(err);
    /* The other order. */
    ck_assert_int_eq(gp_test_cli(imp200, &out, &err), 0);
    free(out);
    free(err);
    listing = gp_test_dir_listing(db);
    ck_assert_ptr_nonnull(strstr(listing, "links/calib-h200.yaml"));
    ck_assert_ptr_null(strstr(listing, "calib-h100-sxm.yaml"));
    free(listing);
    snprintf(f100, sizeof f100, "%s/links/calib-h200.yaml", db);
    t = gp_test_slurp(f100);
    ck_assert_ptr_nonnull(strstr(t, "on 4 x NVIDIA H200 (1 node"));
    free(t);
    free(h200);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_options)
{
    static const struct {
        const char *argv[8];
        int status;
        const char *says;
    } cases[] = {
        {{"calib", "show", DATA "mi300x-babelstream.txt", "--format", "csv", NULL}, 2,
         "option '--format': unknown format 'csv'"},
        {{"calib", "show", DATA "mi300x-babelstream.txt", "--date", "yesterday", NULL}, 2,
         "option '--date': 'yesterday' is not a date"},
        {{"calib", "show", DATA "mi300x-babelstream.txt", "--date", "2024-13-01", NULL}, 2,
         "'2024-13-01' is not a date"},
        {{"calib", "show", DATA "synthetic-h100.yaml", "--date", "2024-01-01", NULL}, 2,
         "records its own date '2026-12-01T04:00:00Z'"},
        {{"calib", "show", DATA "mi300x-babelstream.txt", "--format", "nccl-tests", NULL}, 2,
         "mi300x-babelstream.txt:34: no column header"},
        {{"calib", "run", "--format", "probe", NULL}, 2, "belong to 'calib import' and 'calib show'"},
        {{"calib", "show", DATA "mi300x-rccl-tests-allreduce.txt", "--format", "rccl-tests", "--date",
          "2024-09-01T10:00:00Z", NULL}, 0, "(nccl-tests, rccl-tests develop:ae3e635, 2024-09-01T10:00:00Z)"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL, *err = NULL;
        int rc = gp_test_cli(cases[i].argv, &out, &err);
        ck_assert_msg(rc == cases[i].status, "case %zu: status %d, stderr %s", i, rc, err);
        ck_assert_msg(strstr(cases[i].status ? err : out, cases[i].says) != NULL,
                      "case %zu: no '%s' in %s", i, cases[i].says, cases[i].status ? err : out);
        free(out);
        free(err);
    }
}
END_TEST

/* A second import for the same GPU replaces its calibration file, and says
 * which kinds of figure it drops: the probe file holds memory, GEMM, L2 and
 * latency figures; the nvbandwidth log only host copies and peers. */
START_TEST(cli_import_says_what_it_drops)
{
    char dir[256], *out = NULL, *err = NULL;
    const char *a1[] = {"--db", dir, "calib", "import", DATA "synthetic-h100.yaml", NULL};
    const char *a2[] = {"--db", dir, "calib", "import", DATA "h100-nvbandwidth.txt", "--as",
                        "h100", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_cli(a1, &out, &err), 0);
    ck_assert_ptr_null(strstr(err, "dropped"));
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(a2, &out, &err), 0);
    ck_assert_msg(strstr(err, "replaces the calibration of 'h100-sxm'") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "memory bandwidth, GEMM rates, L2 bandwidth, latencies") != NULL,
                  "%s", err);
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* An AllReduce busbw above the link's datasheet rate is no ring figure: the
 * hand-made NVLS sweep (t = 20 us + 1.75 S / 484 GB/s on 8 x H100, no
 * NCCL_ALGO stated) fits beta = 484 GB/s > nvlink4's 450 GB/s, so importing
 * it would make the expected AllReduce beat the ceiling.  Refused with exit 2
 * and nothing written; --as rtx-4090 (pcie4-x16-host, 31.5 GB/s, no NVLS)
 * is refused as a file from another GPU.  A hand-written overlay with the
 * same figure is refused by the loader at its own line. */
START_TEST(cli_nvls_sweep_is_refused)
{
    char dir[256], *out = NULL, *err = NULL, *listing;
    const char *a1[] = {"--db", dir, "calib", "import", BAD "nccl-nvls-h100.txt", NULL};
    const char *a2[] = {"--db", dir, "calib", "import", BAD "nccl-nvls-h100.txt", "--as",
                        "rtx-4090", NULL};
    const char *a3[] = {"--db", dir, "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                        "8GiB", NULL};
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_cli(a1, &out, &err), 2);
    ck_assert_msg(strstr(err, "AllReduce busbw 484.0 GB/s exceeds the datasheet 450.0 GB/s per "
                              "direction of link 'nvlink4'") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "NCCL_ALGO=Ring") != NULL, "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(a2, &out, &err), 2);
    ck_assert_msg(strstr(err, "exceeds the datasheet 31.5 GB/s per direction of link "
                              "'pcie4-x16-host'") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "check --as") != NULL, "%s", err);
    free(out);
    free(err);
    listing = gp_test_dir_listing(dir);
    ck_assert_msg(strstr(listing, "calib-") == NULL, "%s", listing);
    free(listing);
    /* The same figure written by hand: "measured:" on line 2, its
     * "bandwidth:" key on line 4 at column 3. */
    ck_assert_int_eq(gp_test_write(dir, "links/calib-h100-sxm.yaml",
                                   "id: nvlink4\nmeasured:\n  source: by hand\n"
                                   "  bandwidth: 484GB/s\n"), 0);
    ck_assert_int_eq(gp_test_cli(a3, &out, &err), 2);
    ck_assert_msg(strstr(err, "links/calib-h100-sxm.yaml:4:3: link 'nvlink4', field "
                              "'measured.bandwidth': measured bandwidth exceeds the peak") != NULL,
                  "%s", err);
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST


/* ---- the bandwidth regime ------------------------------------------------------------------- */

START_TEST(latency_sweeps_measure_no_bandwidth)
{
    /* nccl-latency-only.txt: the A100 sweep's rows of 64 B .. 4096 B (ranks
     * 0..7 on one host).  Each row's time is ~32 us whatever its size: the
     * medians (mean of out-of-place and in-place) are 31.915, 32.08, 31.885,
     * 31.965, 32.10, 32.005, 32.165 us, so the sweep holds a latency and no
     * bandwidth (the old summary fitted beta = 36.9 GB/s +-49 % from them). */
    gp_calib *c = load(BAD "nccl-latency-only.txt");
    gp_calib_summary s;
    gp_calib_summarize(c, &s);
    ck_assert_uint_eq(c->n_pts, 7);
    ck_assert(s.allreduce_busbw == 0.0);
    ck_assert_int_eq(s.allreduce_gpus, 8);
    /* The fit holds (the times are flat): its alpha, between the smallest
     * and largest median. */
    ck_assert_uint_eq(s.allreduce_fit.n, 7);
    ck_assert(s.allreduce_lat >= 31.885e-6 && s.allreduce_lat <= 32.165e-6);
    gp_calib_free(c);

    /* Host copies: 8 us + S / 25 GB/s exactly, at 1 MiB, 16 MiB and 64 MiB
     * (t = 8e-6 + 1048576 / 25e9 = 49.94304 us; 8e-6 + 16777216 / 25e9 =
     * 679.08864 us; 8e-6 + 67108864 / 25e9 = 2692.35456 us): the largest
     * size reaches the regime (64 MiB = 67108864 B), beta = 25 GB/s, alpha
     * 8 us.  One byte less at the top (67108863 B: 8e-6 + 2.68435452e-3 s)
     * and it does not: no bandwidth, alpha still 8 us. */
    {
        static const char *const top[2] = {"67108864, t_s: [2.69235456e-03]",
                                           "67108863, t_s: [2.69235452e-03]"};
        int k;
        for (k = 0; k < 2; k++) {
            char text[1024];
            gp_err e;
            snprintf(text, sizeof text,
                     "format: gpuplan-calib/1\ndate: \"2026-12-01\"\ndevice: {name: \"NVIDIA H200\"}\n"
                     "transfer:\n"
                     "  - {direction: d2h, memory: pinned, bytes: 1048576, t_s: [4.994304e-05]}\n"
                     "  - {direction: d2h, memory: pinned, bytes: 16777216, t_s: [6.7908864e-04]}\n"
                     "  - {direction: d2h, memory: pinned, bytes: %s}\n"
                     "complete: true\n",
                     top[k]);
            gp_err_clear(&e);
            c = NULL;
            ck_assert_int_eq(gp_calib_read_text("t.yaml", text, strlen(text), &c, &e), GP_OK);
            gp_calib_summarize(c, &s);
            ck_assert_uint_eq(s.d2h_fit.n, 3);
            GP_ASSERT_REL(s.d2h_lat, 8e-6, 1e-6);
            if (k == 0)
                GP_ASSERT_REL(s.d2h_bw, 25e9, 1e-6);
            else
                ck_assert(s.d2h_bw == 0.0);
            gp_calib_free(c);
        }
    }
}
END_TEST

START_TEST(cli_show_latency_sweep)
{
    /* `calib show` says the busbw is not measured (and why) instead of a
     * figure, keeps the latency, and its JSON has null for busbw and beta. */
    const char *argv[] = {"calib", "show", BAD "nccl-latency-only.txt", NULL};
    const char *jargv[] = {"--json", "calib", "show", BAD "nccl-latency-only.txt", NULL};
    char *out = NULL, *err = NULL;
    json_t *o, *f;
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "allreduce busbw              not measured       largest "
                                      "size 4096 B (line 22) < 64 MiB: a latency sweep"));
    ck_assert_ptr_nonnull(strstr(out, "allreduce latency"));
    ck_assert_ptr_nonnull(strstr(out, "beta n/a"));
    ck_assert_ptr_null(strstr(out, "GB/s")); /* no bandwidth figure at all */
    free(out);
    free(err);
    o = gp_test_cli_json(jargv);
    ck_assert_ptr_nonnull(o);
    ck_assert(json_is_null(json_object_get(json_object_get(o, "summary"),
                                           "allreduce_busbw_bytes_per_s")));
    ck_assert_uint_eq(json_array_size(json_object_get(o, "fits")), 1);
    f = json_array_get(json_object_get(o, "fits"), 0);
    ck_assert(json_is_null(json_object_get(f, "beta_bytes_per_s")));
    GP_ASSERT_REL(gp_test_jnum(f, "max_bytes"), 4096.0, 0);
    /* An nccl-tests log gives no SM count, driver or PCIe link: null, not 0. */
    ck_assert(json_is_null(json_object_get(json_object_get(o, "device"), "sm_count")));
    ck_assert(json_is_null(json_object_get(json_object_get(o, "device"), "pcie_gen")));
    ck_assert(json_is_null(json_object_get(json_object_get(o, "device"), "compute_capability")));
    json_decref(o);
}
END_TEST

Suite *gp_test_suite_calibimport(void);

Suite *gp_test_suite_calibimport(void)
{
    Suite *s = suite_create("calibimport");
    TCase *tc = tcase_create("parse");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, mi300x_rccl_rows_and_identity);
    tcase_add_test(tc, mi300x_rccl_version_banner);
    tcase_add_test(tc, mi300x_rccl_fit_and_efficiency);
    tcase_add_test(tc, mi300x_rccl_link_overlay_text);
    tcase_add_test(tc, mi300x_babelstream_by_hand);
    tcase_add_test(tc, mi300x_babelstream_gpu_overlay);
    tcase_add_test(tc, a100_babelstream_cuda_by_hand);
    tcase_add_test(tc, a100_single_node);
    tcase_add_test(tc, a100_two_nodes_refused_as_link);
    tcase_add_test(tc, detect_by_content);
    tcase_add_test(tc, format_override);
    tcase_add_test(tc, nccl_inline_good_and_variants);
    tcase_add_test(tc, nccl_version_lines_name_the_tool);
    tcase_add_test(tc, nccl_inline_refusals);
    tcase_add_test(tc, nccl_algo_and_unknown_nodes);
    tcase_add_test(tc, nccl_bad_fixtures);
    tcase_add_test(tc, nccl_layout_cycles_timestamps);
    tcase_add_test(tc, nccl_layout_per_iteration);
    tcase_add_test(tc, rccl_layout_inplace_cycles);
    tcase_add_test(tc, nccl_layout_inline_variants);
    tcase_add_test(tc, babelstream_variants_and_refusals);
    tcase_add_test(tc, latency_sweeps_measure_no_bandwidth);
    suite_add_tcase(s, tc);
    tcase_set_timeout(tcli, 60);
    tcase_add_test(tcli, cli_show_each_file);
    tcase_add_test(tcli, cli_import_then_hw_show);
    tcase_add_test(tcli, cli_refusals_leave_dir_unchanged);
    tcase_add_test(tcli, cli_refused_import_creates_no_directory);
    tcase_add_test(tcli, cli_link_overlay_of_another_gpu_is_replaced);
    tcase_add_test(tcli, cli_options);
    tcase_add_test(tcli, cli_import_says_what_it_drops);
    tcase_add_test(tcli, cli_nvls_sweep_is_refused);
    tcase_add_test(tcli, cli_show_latency_sweep);
    tcase_add_test(tcli, cli_import_other_layouts);
    suite_add_tcase(s, tcli);
    return s;
}
