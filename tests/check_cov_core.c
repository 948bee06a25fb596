/* Coverage of the small core modules' rare paths: enum names and parsers
 * (ledger.c, db_access.c), NULL and out-of-range arguments, error
 * formatting without a place (status.c) and the version string.  Expected
 * values are the documented contracts (the headers in include/gpuplan). */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

START_TEST(ledger_rules_and_names)
{
    gp_ledger l;
    memset(&l, 0, sizeof l);
    /* compute 1 s, memory 3 s, movement 2 s: max = 3 (memory, margin 3/2),
     * sum = 6, roof+movement = max(1,3) + 2 = 5. */
    l.t[GP_ACCT_COMPUTE] = 1.0;
    l.t[GP_ACCT_MEMORY] = 3.0;
    l.t[GP_ACCT_MOVEMENT] = 2.0;
    gp_ledger_close(&l, GP_OVERLAP_MAX);
    GP_ASSERT_REL(l.total, 3.0, 1e-12);
    ck_assert_int_eq(l.binding, GP_ACCT_MEMORY);
    GP_ASSERT_REL(l.margin, 1.5, 1e-12);
    /* The runner-up follows the old binding account out: compute (1 s)
     * binds first, memory (3 s) takes over, movement (2 s) beats compute. */
    ck_assert_int_eq(l.runner_up, GP_ACCT_MOVEMENT);
    gp_ledger_close(&l, GP_OVERLAP_SUM);
    GP_ASSERT_REL(l.total, 6.0, 1e-12);
    gp_ledger_close(&l, GP_OVERLAP_ROOF);
    GP_ASSERT_REL(l.total, 5.0, 1e-12);
    /* Only one non-zero account: margin 0 ("nothing else"). */
    memset(&l, 0, sizeof l);
    l.t[GP_ACCT_MOVEMENT] = 4.0;
    gp_ledger_close(&l, GP_OVERLAP_MAX);
    ck_assert_int_eq(l.binding, GP_ACCT_MOVEMENT);
    GP_ASSERT_REL(l.margin, 0.0, 0.0);
    gp_ledger_close(NULL, GP_OVERLAP_MAX); /* no-op */
    ck_assert_str_eq(gp_overlap_name(GP_OVERLAP_MAX), "max");
    ck_assert_str_eq(gp_overlap_name(GP_OVERLAP_SUM), "sum");
    ck_assert_str_eq(gp_overlap_name(GP_OVERLAP_ROOF), "roof+movement");
    ck_assert_str_eq(gp_overlap_name((gp_overlap)42), "unknown");
    ck_assert_str_eq(gp_account_name(GP_ACCT_COMPUTE), "compute");
    ck_assert_str_eq(gp_account_name(GP_ACCT_MEMORY), "memory");
    ck_assert_str_eq(gp_account_name(GP_ACCT_MOVEMENT), "movement");
    ck_assert_str_eq(gp_account_name((gp_account)42), "unknown");
}
END_TEST

START_TEST(precision_and_pipeline_spellings)
{
    static const struct {
        const char *s;
        gp_precision p;
    } ok[] = {{"FP16", GP_FP16}, {"e4m3", GP_FP8},   {"fp8-e5m2", GP_FP8}, {"half", GP_FP16},
              {"float", GP_FP32}, {"single", GP_FP32}, {"double", GP_FP64}, {"fp4", GP_FP4}};
    gp_precision p;
    gp_pipeline pipe;
    gp_err e;
    size_t i;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        ck_assert_int_eq(gp_precision_parse(ok[i].s, &p, &e), GP_OK);
        ck_assert_int_eq(p, ok[i].p);
    }
    gp_err_clear(&e);
    ck_assert_int_eq(gp_precision_parse("fp7", &p, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'fp7'"));
    ck_assert_int_eq(gp_precision_parse(NULL, &p, &e), GP_EINVAL);
    ck_assert_str_eq(gp_precision_name((gp_precision)99), "unknown");
    ck_assert_int_eq(gp_pipeline_parse("SIMT", &pipe, &e), GP_OK);
    ck_assert_int_eq(pipe, GP_PIPE_CUDA);
    ck_assert_int_eq(gp_pipeline_parse("vector", &pipe, &e), GP_OK);
    ck_assert_int_eq(pipe, GP_PIPE_CUDA);
    ck_assert_int_eq(gp_pipeline_parse("matrix", &pipe, &e), GP_OK);
    ck_assert_int_eq(pipe, GP_PIPE_TENSOR);
    ck_assert_int_eq(gp_pipeline_parse("warp", &pipe, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'warp'"));
    ck_assert_int_eq(gp_pipeline_parse(NULL, &pipe, &e), GP_EINVAL);
    ck_assert_str_eq(gp_pipeline_name((gp_pipeline)7), "unknown");
    ck_assert_str_eq(gp_link_kind_name((gp_link_kind)99), "unknown");
    ck_assert_str_eq(gp_kind_name((gp_kind)99), "unknown");
}
END_TEST

START_TEST(accessors_on_null_and_out_of_range)
{
    gp_gpu g;
    gp_link l;
    gp_model m;
    memset(&g, 0, sizeof g);
    ck_assert(gp_gpu_peak(NULL, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert(gp_gpu_peak(&g, (gp_precision)99, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert(gp_gpu_peak(&g, GP_FP16, (gp_pipeline)9, GP_ACC_FP32, 0) == 0.0);
    ck_assert_int_eq(gp_gpu_default_pipeline(NULL, GP_FP16), GP_PIPE_CUDA);
    ck_assert(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert(gp_gpu_expected_mem_bw(NULL) == 0.0);
    ck_assert(gp_link_expected_bw(NULL) == 0.0);
    ck_assert(gp_link_expected_latency(NULL) == 0.0);
    ck_assert(gp_gpu_usable_mem(NULL) == 0.0);
    ck_assert(gp_model_kv_elems_per_layer(NULL) == 0.0);
    /* A GPU without efficiencies: expected = datasheet (factor 1). */
    g.peak[GP_FP16][GP_PIPE_TENSOR].v = 100e12;
    g.mem_bw.v = 1e12;
    GP_ASSERT_REL(gp_gpu_expected_peak(&g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 100e12,
                  1e-12);
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(&g), 1e12, 1e-12);
    /* Usable memory falls back to the label. */
    g.mem_capacity.v = 24e9;
    GP_ASSERT_REL(gp_gpu_usable_mem(&g), 24e9, 1e-12);
    /* A link without an achievable figure: the datasheet one. */
    memset(&l, 0, sizeof l);
    l.bw.v = 32e9;
    l.latency.v = 2e-6;
    GP_ASSERT_REL(gp_link_expected_bw(&l), 32e9, 1e-12);
    GP_ASSERT_REL(gp_link_expected_latency(&l), 2e-6, 1e-12);
    /* KV elements per layer from heads only: 2 x 8 heads x (4096/8) = 8192;
     * with an explicit kv_dim it is taken as is. */
    memset(&m, 0, sizeof m);
    m.heads.v = 8;
    m.hidden.v = 4096;
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(&m), 8192.0, 1e-12);
    m.kv_dim.v = 1024;
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(&m), 1024.0, 1e-12);
    memset(&m, 0, sizeof m);
    ck_assert(gp_model_kv_elems_per_layer(&m) == 0.0);
}
END_TEST

START_TEST(error_formatting_and_version)
{
    gp_err e;
    char buf[256];
    char ver[32];
    gp_err_clear(&e);
    gp_err_clear(NULL);
    /* No message, no place: the status text. */
    e.code = GP_ENOMEM;
    ck_assert_str_eq(gp_err_format(&e, buf, sizeof buf), gp_strerror(GP_ENOMEM));
    ck_assert_str_eq(gp_strerror(12345), "unknown status code");
    /* Place with a line but no column; place only. */
    (void)GP_RAISE_AT(&e, GP_EPARSE, "f.yaml", 3, 0, "bad %s", "thing");
    ck_assert_str_eq(gp_err_format(&e, buf, sizeof buf), "f.yaml:3: bad thing");
    (void)GP_RAISE_AT(&e, GP_EIO, "f.yaml", 0, 0, "gone");
    ck_assert_str_eq(gp_err_format(&e, buf, sizeof buf), "f.yaml: gone");
    ck_assert_str_eq(gp_err_format(NULL, buf, sizeof buf), "");
    ck_assert_ptr_null(gp_err_format(&e, NULL, 0));
    ck_assert_int_eq(GP_RAISE(NULL, GP_EINVAL, "nobody listens"), GP_EINVAL);
    snprintf(ver, sizeof ver, "%d.%d.%d", GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH);
    ck_assert_str_eq(gp_version_string(), ver);
}
END_TEST

Suite *gp_test_suite_cov_core(void)
{
    Suite *s = suite_create("cov_core");
    TCase *tc = tcase_create("cov_core");
    tcase_add_test(tc, ledger_rules_and_names);
    tcase_add_test(tc, precision_and_pipeline_spellings);
    tcase_add_test(tc, accessors_on_null_and_out_of_range);
    tcase_add_test(tc, error_formatting_and_version);
    suite_add_tcase(s, tc);
    return s;
}
