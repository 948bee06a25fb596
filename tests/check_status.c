/* Status codes, error contexts and the ledger. */
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
    suite_add_tcase(s, tc);
    return s;
}
