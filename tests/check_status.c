/* Status codes, error contexts and the ledger. */
#include <math.h>
#include <string.h>

#include "testutil.h"

START_TEST(strerror_covers_every_code)
{
    int c;
    for (c = 0; c < GP__LAST; c++) {
        ck_assert_ptr_nonnull(gp_strerror(c));
        ck_assert_str_ne(gp_strerror(c), "unknown status code");
    }
    ck_assert_str_eq(gp_strerror(GP__LAST), "unknown status code");
    ck_assert_str_eq(gp_strerror(GP_OK), "success");
}
END_TEST

START_TEST(raise_fills_context_and_formats_place)
{
    gp_err e;
    char buf[256];
    gp_err_clear(&e);
    ck_assert_int_eq(GP_RAISE_AT(&e, GP_ESCHEMA, "hwdb/gpus/x.yaml", 3, 7,
                                 "field '%s' must be positive", "sm_count"),
                     GP_ESCHEMA);
    ck_assert_str_eq(gp_err_format(&e, buf, sizeof buf),
                     "hwdb/gpus/x.yaml:3:7: field 'sm_count' must be positive");
    GP_RAISE_AT(&e, GP_EINVAL, "--gpus", 0, 0, "bad '%s'", "x");
    ck_assert_str_eq(gp_err_format(&e, buf, sizeof buf), "--gpus: bad 'x'");
    GP_RAISE(&e, GP_EINVAL, "plain");
    ck_assert_str_eq(gp_err_format(&e, buf, sizeof buf), "plain");
    /* NULL context: still returns the code. */
    ck_assert_int_eq(GP_RAISE(NULL, GP_ERANGE, "x"), GP_ERANGE);
}
END_TEST

/* The article's row 10: Llama-class 13B fp16 on an A100 80GB at one
 * stream, measured 25 tok/s = 40 ms per token.  Ceiling ledger: memory
 * 26e9 B / 2039e9 = 12.751 ms, compute 2 x 13e9 / 312e12 = 0.0833 ms,
 * no movement (roof rule: 12.751 ms).  A made-up expected ledger: memory
 * 17.05 ms, compute 0.104 ms, movement 2.0 ms -> 19.05 ms.
 * At 40 ms: of the ceiling 12.751/40 = 0.3188, of the expected 19.05/40 =
 * 0.47625, gap 20.95 ms; memory is the busiest roof at 31.9 % (not
 * saturated): slower than expected.  At 20 ms: within 15 % of 19.05 ms
 * (21.91): as expected.  At 12 ms: faster than the ceiling: impossible;
 * exactly at the ceiling is possible (and faster than expected). */
START_TEST(ledger_diagnosis)
{
    gp_ledger c, x;
    gp_diagnosis d;
    memset(&c, 0, sizeof c);
    memset(&x, 0, sizeof x);
    c.t[GP_ACCT_COMPUTE] = 2.0 * 13e9 / 312e12;
    c.t[GP_ACCT_MEMORY] = 26e9 / 2039e9;
    gp_ledger_close(&c, GP_OVERLAP_ROOF);
    x.t[GP_ACCT_COMPUTE] = 0.104e-3;
    x.t[GP_ACCT_MEMORY] = 17.05e-3;
    x.t[GP_ACCT_MOVEMENT] = 2.0e-3;
    gp_ledger_close(&x, GP_OVERLAP_ROOF);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, 0.040, &d), 0);
    GP_ASSERT_REL(d.of_ceiling, 26e9 / 2039e9 / 0.040, 1e-12);
    GP_ASSERT_REL(d.of_ceiling, 0.31878, 1e-4);
    GP_ASSERT_REL(d.of_expected, 0.47625, 1e-12);
    GP_ASSERT_REL(d.gap_s, 20.95e-3, 1e-9);
    ck_assert_int_eq(d.busiest, GP_ACCT_MEMORY);
    GP_ASSERT_REL(d.util[GP_ACCT_COMPUTE], 2.0 * 13e9 / 312e12 / 0.040, 1e-12);
    GP_ASSERT_REL(d.util[GP_ACCT_MOVEMENT], 0.0, 0);
    ck_assert_int_eq(d.saturated, 0);
    ck_assert_int_eq(d.verdict, GP_VERDICT_SLOWER);
    ck_assert_str_eq(gp_verdict_name(d.verdict), "slower");
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, 0.020, &d), 0);
    ck_assert_int_eq(d.verdict, GP_VERDICT_AS_EXPECTED);
    GP_ASSERT_REL(d.util[GP_ACCT_MEMORY], 0.63755, 1e-4);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, 0.0175, &d), 0);
    ck_assert_int_eq(d.saturated, 1); /* 12.751 / 17.5 = 0.729 */
    ck_assert_int_eq(d.verdict, GP_VERDICT_AS_EXPECTED); /* 17.5 x 1.15 = 20.1 > 19.05 */
    /* 16 ms: above the 12.751 ms ceiling, but 16 x 1.15 = 18.4 < 19.05:
     * faster than the expected figure by more than 15 %. */
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, 0.016, &d), 0);
    ck_assert_int_eq(d.verdict, GP_VERDICT_FASTER);
    ck_assert_str_eq(gp_verdict_name(d.verdict), "faster");
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, 0.012, &d), 0);
    ck_assert_int_eq(d.verdict, GP_VERDICT_IMPOSSIBLE);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, c.total, &d), 0);
    ck_assert_int_eq(d.verdict, GP_VERDICT_FASTER);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, 0.0, &d), -1);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, -1.0, &d), -1);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, NAN, &d), -1);
    ck_assert_int_eq(gp_ledger_diagnose(&c, &x, INFINITY, &d), -1);
    ck_assert_int_eq(gp_ledger_diagnose(NULL, &x, 1.0, &d), -1);
}
END_TEST

START_TEST(ledger_max_and_sum)
{
    gp_ledger l;
    memset(&l, 0, sizeof l);
    /* compute 2 s, memory 0.5 s, movement 0.84 s: overlapped total is the
     * max (2 s, compute binds by 2/0.84 = 2.381x); serial total 3.34 s. */
    l.t[GP_ACCT_COMPUTE] = 2.0;
    l.t[GP_ACCT_MEMORY] = 0.5;
    l.t[GP_ACCT_MOVEMENT] = 0.84;
    gp_ledger_close(&l, GP_OVERLAP_MAX);
    GP_ASSERT_REL(l.total, 2.0, 1e-12);
    ck_assert_int_eq(l.binding, GP_ACCT_COMPUTE);
    GP_ASSERT_REL(l.margin, 2.0 / 0.84, 1e-12);
    ck_assert_int_eq(l.runner_up, GP_ACCT_MOVEMENT); /* 0.84 s, the margin's other side */
    gp_ledger_close(&l, GP_OVERLAP_SUM);
    GP_ASSERT_REL(l.total, 3.34, 1e-12);
    /* Roof rule (decode): max(2, 0.5) + 0.84 = 2.84 s. */
    gp_ledger_close(&l, GP_OVERLAP_ROOF);
    GP_ASSERT_REL(l.total, 2.84, 1e-12);
    ck_assert_str_eq(gp_overlap_name(GP_OVERLAP_ROOF), "roof+movement");
    /* Only one account charged: margin 0 means "nothing else". */
    memset(&l, 0, sizeof l);
    l.t[GP_ACCT_MEMORY] = 1e-3;
    gp_ledger_close(&l, GP_OVERLAP_MAX);
    ck_assert_int_eq(l.binding, GP_ACCT_MEMORY);
    GP_ASSERT_REL(l.margin, 0.0, 0);
    ck_assert_str_eq(gp_account_name(GP_ACCT_MOVEMENT), "movement");
}
END_TEST

Suite *gp_test_suite_status(void)
{
    Suite *s = suite_create("status");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, strerror_covers_every_code);
    tcase_add_test(tc, raise_fills_context_and_formats_place);
    tcase_add_test(tc, ledger_max_and_sum);
    tcase_add_test(tc, ledger_diagnosis);
    suite_add_tcase(s, tc);
    return s;
}
