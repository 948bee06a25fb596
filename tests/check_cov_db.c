/* Coverage of the database loader's rarer refusals and accepted spellings
 * (lib/db.c, lib/db_yaml.c): citations, src lists, figure mappings, ranges,
 * measured blocks, ids, sources files.  Each text is one overlay file laid
 * over the built-in database; every refusal must name the field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct ccase {
    const char *what;
    gp_kind kind;
    const char *text;
    int status;        /* expected gp_db_open_text status          */
    const char *says;  /* substring of the formatted error         */
} ccase;

#define H "id: h100-sxm\n"

static const ccase cases[] = {
    {"empty citation", GP_KIND_GPU, H "sources: {k: ''}\nsm_count: {value: 132, src: k}\n",
     GP_ESCHEMA, "citation is empty"},
    {"citation field not a string", GP_KIND_GPU, H "sources: {k: {title: [a]}}\n", GP_ESCHEMA,
     "'title' must be a string, not a list"},
    {"citation mapping without title", GP_KIND_GPU, H "sources: {k: {url: 'http://x'}}\n",
     GP_ESCHEMA, "a citation mapping needs a 'title'"},
    {"entry sources not a mapping", GP_KIND_GPU, H "sources: [a, b]\n", GP_ESCHEMA,
     "expected a mapping of key -> citation"},
    {"empty src", GP_KIND_GPU, H "sm_count: {value: 132, src: ''}\n", GP_ESCHEMA,
     "'src' is empty"},
    {"src is a mapping", GP_KIND_GPU, H "sm_count: {value: 132, src: {a: b}}\n", GP_ESCHEMA,
     "'src' must be a source key or a non-empty list of keys, not a mapping"},
    {"src is an empty list", GP_KIND_GPU, H "sm_count: {value: 132, src: []}\n", GP_ESCHEMA,
     "non-empty list of keys"},
    {"src list holds a list", GP_KIND_GPU, H "sm_count: {value: 132, src: [[nv_h100_ds]]}\n",
     GP_ESCHEMA, "'src' list items must be source keys"},
    {"src list of 17", GP_KIND_GPU,
     H "sm_count: {value: 132, src: [nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, "
       "nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, "
       "nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds, nv_h100_ds]}\n",
     GP_ESCHEMA, "more than 16 sources"},
    {"src list with an unknown key", GP_KIND_GPU,
     H "sm_count: {value: 132, src: [nv_h100_ds, nope_src]}\n", GP_ESCHEMA,
     "unknown source 'nope_src'"},
    {"null figure", GP_KIND_GPU, H "sm_count: ~\n", GP_ESCHEMA, "has no value"},
    {"count below the plausible range", GP_KIND_GPU, H "sm_count: 0.5\n", GP_ESCHEMA,
     "implausibly small"},
    {"count above the plausible range", GP_KIND_GPU, H "sm_count: 1e9\n", GP_ESCHEMA,
     "implausibly large"},
    {"fractional count", GP_KIND_GPU, H "sm_count: 132.5\n", GP_ESCHEMA,
     "must be a whole number"},
    {"figure mapping with an unknown key", GP_KIND_GPU, H "sm_count: {value: 132, vlaue: 1}\n",
     GP_ESCHEMA, "unknown key 'vlaue' in a figure"},
    {"figure mapping without value", GP_KIND_GPU, H "sm_count: {src: nv_h100_ds}\n",
     GP_ESCHEMA, "figure has no 'value'"},
    {"group that is not a mapping", GP_KIND_GPU, H "memory: 80GB\n", GP_ESCHEMA,
     "expected a mapping, got a scalar"},
    {"measured block citing src", GP_KIND_GPU,
     H "measured: {src: nv_h100_ds, memory_bandwidth: 3TB/s}\n", GP_ESCHEMA,
     "a measured: block cites its 'source', not 'src'"},
    {"measured date not a scalar", GP_KIND_GPU,
     H "measured: {source: run.yaml, date: [2026], memory_bandwidth: 3TB/s}\n", GP_ESCHEMA,
     "measured.date"},
    {"key longer than any field path", GP_KIND_GPU,
     H "memory:\n  "
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
       ": 1\n",
     GP_ESCHEMA, "unknown key"},
    {"aliases not a list", GP_KIND_GPU, H "aliases: hopper\n", GP_ESCHEMA,
     "expected a list of names"},
    {"new entry without name", GP_KIND_GPU, "id: brand-new\nsrc: nv_h100_ds\nsm_count: 1\n",
     GP_ESCHEMA, "required field 'name' is missing"},
    {"invalid id", GP_KIND_GPU, "id: 'Bad Id!'\nname: x\n", GP_ESCHEMA,
     "must be 1-64 characters of [a-z0-9._-]"},
    {"note that is a list", GP_KIND_GPU, H "note: [a, b]\n", GP_ESCHEMA, "note"},
    {"name that is a mapping", GP_KIND_GPU, H "name: {a: b}\n", GP_ESCHEMA,
     "expected a string, got a mapping"},
    {"empty list of entries", GP_KIND_GPU, "[]\n", GP_EPARSE, "empty file"},
    {"unknown enum value", GP_KIND_LINK, "id: nvlink4\nkind: warp-drive\n", GP_ESCHEMA,
     "unknown value 'warp-drive'"},
    {"boolean that is not true/false", GP_KIND_MODEL, "id: llama-2-7b\ntied_embeddings: maybe\n",
     GP_ESCHEMA, "'maybe' is not true or false"},
    /* A CUDA compute capability is MAJOR.MINOR, major 1-99 without a
     * leading zero, one minor digit. */
    {"compute capability without a minor", GP_KIND_GPU, H "compute_capability: '9'\n",
     GP_ESCHEMA, "'9' is not a compute capability MAJOR.MINOR"},
    {"compute capability as sm_NN", GP_KIND_GPU, H "compute_capability: sm_90\n", GP_ESCHEMA,
     "'sm_90' is not a compute capability"},
    {"compute capability with a comma", GP_KIND_GPU, H "compute_capability: '9,0'\n",
     GP_ESCHEMA, "'9,0' is not"},
    {"compute capability with a leading zero", GP_KIND_GPU, H "compute_capability: '09.0'\n",
     GP_ESCHEMA, "'09.0' is not"},
    {"compute capability of two minor digits", GP_KIND_GPU, H "compute_capability: '9.10'\n",
     GP_ESCHEMA, "'9.10' is not"},
    {"compute capability of three major digits", GP_KIND_GPU,
     H "compute_capability: '100.0'\n", GP_ESCHEMA, "'100.0' is not"},
    /* Accepted spellings (status GP_OK, says unused). */
    {"compute capability 12.1 (two major digits)", GP_KIND_GPU, H "compute_capability: '12.1'\n",
     GP_OK, NULL},
    {"compute capability 8.6 unquoted", GP_KIND_GPU, H "compute_capability: 8.6\n", GP_OK, NULL},
    {"citation mapping, src list, USD figures, measured date", GP_KIND_GPU,
     H "sources: {k: {title: T, edition: E, section: S, url: 'http://u', date: 2026, "
       "status: seen}}\n"
       "sm_count: {value: 132, src: [k, nv_h100_ds], note: n}\n"
       "price: {value: $30000, src: k}\nrent: {value: 2.5 USD/h, src: k}\n"
       "measured: {source: run.yaml, date: 2026-12-01, memory_bandwidth: 3TB/s}\n",
     GP_OK, NULL},
};

START_TEST(loader_case)
{
    const ccase *c = &cases[_i];
    gp_db *db = NULL;
    gp_err e;
    char buf[1200];
    int rc;
    gp_err_clear(&e);
    rc = gp_db_open_text(&db, 0, c->kind, "cov.yaml", c->text, strlen(c->text), &e);
    gp_err_format(&e, buf, sizeof buf);
    ck_assert_msg(rc == c->status, "%s: status %d (%s), want %d", c->what, rc, buf, c->status);
    if (rc != GP_OK) {
        ck_assert_ptr_null(db);
        ck_assert_msg(strstr(buf, c->says) != NULL, "%s: '%s' lacks '%s'", c->what, buf, c->says);
        ck_assert_msg(strstr(buf, "cov.yaml:") != NULL, "%s: '%s' lacks the place", c->what, buf);
    } else if (strncmp(c->what, "compute capability ", 19) == 0) {
        /* The case names the value it sets: "compute capability 12.1 ...". */
        const gp_gpu *g = gp_db_find_gpu(db, "h100-sxm");
        ck_assert_ptr_nonnull(g);
        ck_assert_msg(strncmp(g->compute_capability, c->what + 19,
                              strlen(g->compute_capability)) == 0 &&
                          c->what[19 + strlen(g->compute_capability)] == ' ',
                      "%s: stored '%s'", c->what, g->compute_capability);
        gp_db_free(db);
    } else {
        const gp_gpu *g = gp_db_find_gpu(db, "h100-sxm");
        ck_assert_ptr_nonnull(g);
        GP_ASSERT_REL(g->sm_count.v, 132.0, 0.0);
        /* src list: the citations joined with "; ", the mapping as
         * "title, edition, section, url". */
        ck_assert_ptr_nonnull(strstr(g->sm_count.src, "T, E, S, http://u; "));
        GP_ASSERT_REL(g->price.v, 30000.0, 1e-12);
        GP_ASSERT_REL(g->rent.v, 2.5, 1e-12);
        GP_ASSERT_REL(g->meas_mem_bw.v, 3e12, 1e-12);
        ck_assert_str_eq(g->calibration, "run.yaml, 2026-12-01");
        gp_db_free(db);
    }
}
END_TEST

START_TEST(open_text_argument_errors)
{
    gp_db *db = NULL;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open_text(&db, 1, GP_KIND_GPU, "x", NULL, 5, &e), GP_EINVAL);
    ck_assert_ptr_null(db);
    ck_assert_int_eq(gp_db_open_text(&db, 1, (gp_kind)-1, "x", "", 0, &e), GP_EINVAL);
    /* NULL name and NULL empty text: an empty file named "<text>". */
    ck_assert_int_eq(gp_db_open_text(&db, 1, GP_KIND_GPU, NULL, NULL, 0, &e), GP_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.where, "<text>"));
    /* Lookups on NULL and past the end. */
    ck_assert_uint_eq(gp_db_count(NULL, GP_KIND_GPU), 0);
    ck_assert_ptr_null(gp_db_gpu_at(NULL, 0));
    ck_assert_ptr_null(gp_db_link_at(gp_test_db(), 100000));
    ck_assert_ptr_null(gp_db_find_gpu(gp_test_db(), "no-such-gpu"));
    gp_db_free(NULL);
}
END_TEST

START_TEST(sources_file_not_a_mapping)
{
    char dir[64], buf[1200];
    const char *dirs[1];
    gp_db *db = NULL;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "sources.yaml", "- a\n- b\n"), 0);
    dirs[0] = dir;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 1, dirs, 1, &e), GP_ESCHEMA);
    ck_assert_ptr_null(db);
    ck_assert_ptr_nonnull(
        strstr(gp_err_format(&e, buf, sizeof buf), "sources.yaml must be a mapping"));
    /* An empty overlay name is refused. */
    dirs[0] = "";
    ck_assert_int_ne(gp_db_open(&db, 1, dirs, 1, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(e.msg, "empty"));
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_cov_db(void)
{
    Suite *s = suite_create("cov_db");
    TCase *tc = tcase_create("cov_db");
    tcase_add_loop_test(tc, loader_case, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, open_text_argument_errors);
    tcase_add_test(tc, sources_file_not_a_mapping);
    suite_add_tcase(s, tc);
    return s;
}
