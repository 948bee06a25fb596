/* Regression tests for crashes found by the libFuzzer harnesses
 * (tests/fuzz/, docs/fuzzing.md).  Each input is copied into a buffer of
 * exactly its length so that `make sanitize` catches an over-read again. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Load `len` bytes of text as one file of `kind` (no built-in database) from
 * an exact-size heap copy; returns the status and leaves *e set. */
static int load_exact(gp_kind kind, const char *text, size_t len, gp_err *e)
{
    gp_db *db = NULL;
    char *copy = malloc(len > 0 ? len : 1);
    int rc;
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, text, len);
    gp_err_clear(e);
    rc = gp_db_open_text(&db, 1, kind, "fuzz.yaml", copy, len, e);
    if (rc == GP_OK)
        gp_db_free(db);
    else
        ck_assert_ptr_null(db);
    free(copy);
    return rc;
}

/* fuzz_db crash 413f6fc8 (input "\r["): a YAML syntax error at the very end
 * of an unterminated text made line_key() (lib/db_yaml.c) read one byte past
 * the buffer while looking for the field name on the offending line. */
START_TEST(db_syntax_error_at_end_of_text)
{
    gp_err e;
    ck_assert_int_eq(load_exact(GP_KIND_LINK, "[", 1, &e), GP_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "malformed YAML"));
    ck_assert_int_eq(load_exact(GP_KIND_GPU, "id: [x", 6, &e), GP_EPARSE);
    ck_assert_int_eq(load_exact(GP_KIND_GPU, "id: {", 5, &e), GP_EPARSE);
}
END_TEST

/* fuzz_calib crash 94d8dc18: an nvbandwidth header line "CUDA Driver
 * Version (13020)" without its ':' made the version parser add 1 to the
 * NULL that strchr returned (lib/calib_nvbw.c, UBSan).  Now refused with
 * the line and what was expected. */
START_TEST(nvbandwidth_version_line_without_colon)
{
    static const char text[] = "nvbandwidth Version: v0.10.0\n"
                               "Built from Git version: v0.10.0\n"
                               "\n"
                               "CUDA Runtime Version: 13.2 (13020)\n"
                               "CUDA Driver Version (13020)\n";
    size_t len = sizeof text - 1;
    char *copy = malloc(len);
    gp_calib *c = NULL;
    gp_err e;
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, text, len);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_read_any("fuzz.txt", copy, len, GP_CALIB_FMT_AUTO, &c, &e),
                     GP_EPARSE);
    ck_assert_ptr_null(c);
    ck_assert_uint_eq(e.line, 5);
    ck_assert_ptr_nonnull(strstr(e.msg, "no ':'"));
    free(copy);
}
END_TEST

Suite *gp_test_suite_fuzzregress(void)
{
    Suite *s = suite_create("fuzzregress");
    TCase *tc = tcase_create("fuzzregress");
    tcase_add_test(tc, db_syntax_error_at_end_of_text);
    tcase_add_test(tc, nvbandwidth_version_line_without_colon);
    suite_add_tcase(s, tc);
    return s;
}
