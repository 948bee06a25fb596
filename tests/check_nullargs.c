/* NULL arguments to every public function: the headers in include/gpuplan,
 * the exports lib/gpuplan.map lets out.  The rule (status.h): `gp_err *e`
 * may always be NULL; any other pointer a function needs is GP_EINVAL naming
 * the function and the parameter ("gp_db_open: NULL out"), never a crash;
 * where NULL means something else -- an optional input, a no-op, a 0 result
 * -- the header says so.  Each pointer parameter is NULL in turn, the others
 * valid, and the comment above each group quotes what its header promises,
 * out-pointers included (left NULL, zeroed or untouched on error).  Fork
 * mode turns a crash into a failed test that names the call. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define DATA "tests/data/calib/"

/* A non-NULL address for out-pointers that must come back NULL. */
static char sentinel[8];
#define SENTINEL(type) ((type)(void *)sentinel)

/* rc is GP_EINVAL, e holds it, and e->msg names the function and the
 * parameter (`needle`, e.g. "gp_db_open: NULL out"). */
static void want_einval(int rc, const gp_err *e, const char *needle, const char *call)
{
    ck_assert_msg(rc == GP_EINVAL, "%s returned %d, want GP_EINVAL", call, rc);
    ck_assert_msg(e->code == GP_EINVAL, "%s: e->code %d", call, (int)e->code);
    ck_assert_msg(strstr(e->msg, needle) != NULL, "%s: message '%s' lacks '%s'", call, e->msg,
                  needle);
}

/* CALL, written with `E` for its gp_err argument, is GP_EINVAL naming
 * `needle` -- and GP_EINVAL again, without a crash, when E is NULL. */
#define EINVAL_NAMED(needle, CALL)                                              \
    do {                                                                        \
        gp_err e_;                                                              \
        gp_err *E = &e_;                                                        \
        gp_err_clear(&e_);                                                      \
        want_einval((CALL), &e_, (needle), #CALL);                              \
        E = NULL;                                                               \
        ck_assert_msg((CALL) == GP_EINVAL, "%s with e NULL", #CALL);            \
    } while (0)

static gp_calib *read_calib(const char *path)
{
    gp_calib *c = NULL;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_file_any(path, GP_CALIB_FMT_AUTO, &c, &e) == GP_OK, "%s: %s",
                  path, e.msg);
    return c;
}

/* ---- db.h --------------------------------------------------------------- */

/* gp_db_open, gp_db_open_text, gp_db_open_with_text: "NULL out: GP_EINVAL";
 * overlay_dirs may be NULL when n_overlays is 0, a NULL list for
 * n_overlays > 0 or a NULL entry is GP_EINVAL; name may be NULL ("<text>");
 * a NULL text is the empty file when len is 0, GP_EINVAL otherwise; "on
 * failure *out is NULL".  gp_db_free: "NULL is a no-op". */
START_TEST(db_open_family)
{
    const char *dirs[1] = {NULL};
    gp_db *db;
    gp_err e;

    EINVAL_NAMED("gp_db_open: NULL out", gp_db_open(NULL, 0, NULL, 0, E));
    db = SENTINEL(gp_db *);
    EINVAL_NAMED("gp_db_open: NULL overlay_dirs", gp_db_open(&db, 1, NULL, 1, E));
    ck_assert_ptr_null(db);
    db = SENTINEL(gp_db *);
    EINVAL_NAMED("gp_db_open: NULL overlay_dirs[0]", gp_db_open(&db, 1, dirs, 1, E));
    ck_assert_ptr_null(db);
    /* No list with no overlays: just the built-in entries. */
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, NULL, 0, &e), GP_OK);
    ck_assert_uint_gt(gp_db_count(db, GP_KIND_GPU), 0);
    gp_db_free(db);

    EINVAL_NAMED("gp_db_open_text: NULL out",
                 gp_db_open_text(NULL, 1, GP_KIND_GPU, "x", "", 0, E));
    db = SENTINEL(gp_db *);
    EINVAL_NAMED("gp_db_open_text: NULL text",
                 gp_db_open_text(&db, 1, GP_KIND_GPU, "x", NULL, 4, E));
    ck_assert_ptr_null(db);
    /* NULL text of length 0: the empty file, refused as such. */
    db = SENTINEL(gp_db *);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open_text(&db, 1, GP_KIND_GPU, "x", NULL, 0, &e), GP_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "empty file"));
    ck_assert_ptr_null(db);
    /* NULL name: messages say "<text>". */
    db = SENTINEL(gp_db *);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open_text(&db, 1, GP_KIND_GPU, NULL, "a: 1", 4, &e), GP_ESCHEMA);
    ck_assert_str_eq(e.where, "<text>");
    ck_assert_ptr_null(db);

    EINVAL_NAMED("gp_db_open_with_text: NULL out",
                 gp_db_open_with_text(NULL, 1, NULL, 0, GP_KIND_GPU, "x", "", 0, E));
    db = SENTINEL(gp_db *);
    EINVAL_NAMED("gp_db_open_with_text: NULL overlay_dirs",
                 gp_db_open_with_text(&db, 1, NULL, 2, GP_KIND_GPU, "x", "", 0, E));
    ck_assert_ptr_null(db);
    db = SENTINEL(gp_db *);
    EINVAL_NAMED("gp_db_open_with_text: NULL overlay_dirs[0]",
                 gp_db_open_with_text(&db, 1, dirs, 1, GP_KIND_GPU, "x", "", 0, E));
    ck_assert_ptr_null(db);
    db = SENTINEL(gp_db *);
    EINVAL_NAMED("gp_db_open_with_text: NULL text",
                 gp_db_open_with_text(&db, 1, NULL, 0, GP_KIND_GPU, "x", NULL, 4, E));
    ck_assert_ptr_null(db);
    db = SENTINEL(gp_db *);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open_with_text(&db, 1, NULL, 0, GP_KIND_GPU, NULL, "a: 1", 4, &e),
                     GP_ESCHEMA);
    ck_assert_str_eq(e.where, "<text>");
    ck_assert_ptr_null(db);

    gp_db_free(NULL);
}
END_TEST

/* gp_db_count and gp_db_*_at: "0 / NULL for a NULL db".  gp_db_find_*:
 * "NULL when unknown, and for a NULL db or name".  gp_db_get_*: "NULL db,
 * name or out: GP_EINVAL", "On failure *out is NULL", `what` "may be
 * NULL". */
START_TEST(db_lookups)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g;
    const gp_link *l;
    const gp_model *m;
    const gp_format *f;
    gp_err e;

    ck_assert_uint_eq(gp_db_count(NULL, GP_KIND_GPU), 0);
    ck_assert_ptr_null(gp_db_gpu_at(NULL, 0));
    ck_assert_ptr_null(gp_db_link_at(NULL, 0));
    ck_assert_ptr_null(gp_db_model_at(NULL, 0));
    ck_assert_ptr_null(gp_db_format_at(NULL, 0));
    ck_assert_ptr_null(gp_db_find_gpu(NULL, "h100"));
    ck_assert_ptr_null(gp_db_find_gpu(db, NULL));
    ck_assert_ptr_null(gp_db_find_link(NULL, "nvlink4"));
    ck_assert_ptr_null(gp_db_find_link(db, NULL));
    ck_assert_ptr_null(gp_db_find_model(NULL, "llama-2-7b"));
    ck_assert_ptr_null(gp_db_find_model(db, NULL));
    ck_assert_ptr_null(gp_db_find_format(NULL, "q4_0"));
    ck_assert_ptr_null(gp_db_find_format(db, NULL));

    g = SENTINEL(const gp_gpu *);
    EINVAL_NAMED("gp_db_get_gpu: NULL db", gp_db_get_gpu(NULL, "h100", "--gpu", &g, E));
    ck_assert_ptr_null(g);
    g = SENTINEL(const gp_gpu *);
    EINVAL_NAMED("gp_db_get_gpu: NULL name", gp_db_get_gpu(db, NULL, "--gpu", &g, E));
    ck_assert_ptr_null(g);
    EINVAL_NAMED("gp_db_get_gpu: NULL out", gp_db_get_gpu(db, "h100", "--gpu", NULL, E));
    EINVAL_NAMED("gp_db_get_gpu: NULL out", gp_db_get_gpu(db, "no-such-gpu", "--gpu", NULL, E));

    l = SENTINEL(const gp_link *);
    EINVAL_NAMED("gp_db_get_link: NULL db", gp_db_get_link(NULL, "nvlink4", "--link", &l, E));
    ck_assert_ptr_null(l);
    l = SENTINEL(const gp_link *);
    EINVAL_NAMED("gp_db_get_link: NULL name", gp_db_get_link(db, NULL, "--link", &l, E));
    ck_assert_ptr_null(l);
    EINVAL_NAMED("gp_db_get_link: NULL out", gp_db_get_link(db, "nvlink4", "--link", NULL, E));

    m = SENTINEL(const gp_model *);
    EINVAL_NAMED("gp_db_get_model: NULL db",
                 gp_db_get_model(NULL, "llama-2-7b", "--model", &m, E));
    ck_assert_ptr_null(m);
    m = SENTINEL(const gp_model *);
    EINVAL_NAMED("gp_db_get_model: NULL name", gp_db_get_model(db, NULL, "--model", &m, E));
    ck_assert_ptr_null(m);
    EINVAL_NAMED("gp_db_get_model: NULL out",
                 gp_db_get_model(db, "llama-2-7b", "--model", NULL, E));

    f = SENTINEL(const gp_format *);
    EINVAL_NAMED("gp_db_get_format: NULL db", gp_db_get_format(NULL, "q4_0", "--kv", &f, E));
    ck_assert_ptr_null(f);
    f = SENTINEL(const gp_format *);
    EINVAL_NAMED("gp_db_get_format: NULL name", gp_db_get_format(db, NULL, "--kv", &f, E));
    ck_assert_ptr_null(f);
    EINVAL_NAMED("gp_db_get_format: NULL out", gp_db_get_format(db, "q4_0", "--kv", NULL, E));

    /* what NULL: found, or refused without a place. */
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_get_gpu(db, "h100", NULL, &g, &e), GP_OK);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(gp_db_get_gpu(db, "no-such-gpu", NULL, &g, &e), GP_ENOTFOUND);
    ck_assert_str_eq(e.where, "");
    ck_assert_ptr_null(g);
}
END_TEST

/* gp_db_suggest / gp_db_known: "0 ... for a NULL db or name (out then
 * "")", "NULL out: 0, nothing written". */
START_TEST(db_suggest_known)
{
    const gp_db *db = gp_test_db();
    char out[64];

    ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "h10", NULL, sizeof out), 0);
    strcpy(out, "stale");
    ck_assert_uint_eq(gp_db_suggest(NULL, GP_KIND_GPU, "h10", out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    strcpy(out, "stale");
    ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, NULL, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    ck_assert_uint_eq(gp_db_known(db, GP_KIND_GPU, NULL, sizeof out), 0);
    strcpy(out, "stale");
    ck_assert_uint_eq(gp_db_known(NULL, GP_KIND_GPU, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
}
END_TEST

/* gp_precision_parse / gp_pipeline_parse: "GP_OK or GP_EINVAL, *out
 * untouched on error; NULL s or out: GP_EINVAL". */
START_TEST(db_parsers)
{
    gp_precision p = GP_FP4;
    gp_pipeline pipe = GP_PIPE_TENSOR;

    EINVAL_NAMED("gp_precision_parse: NULL s", gp_precision_parse(NULL, &p, E));
    ck_assert_int_eq(p, GP_FP4);
    EINVAL_NAMED("gp_precision_parse: NULL out", gp_precision_parse("fp16", NULL, E));
    EINVAL_NAMED("gp_pipeline_parse: NULL s", gp_pipeline_parse(NULL, &pipe, E));
    ck_assert_int_eq(pipe, GP_PIPE_TENSOR);
    EINVAL_NAMED("gp_pipeline_parse: NULL out", gp_pipeline_parse("cuda", NULL, E));
}
END_TEST

/* The accessors: "0 ... for a NULL g", every one through
 * gp_model_kv_elems_per_layer 0 for a NULL gpu, link or model
 * (gp_gpu_default_pipeline: GP_PIPE_CUDA; gp_link_mesh_share: 1); "A NULL m
 * is a model without a window"; gp_model_guess_shape: "No-op when ...
 * layers or hidden is NULL"; gp_model_count_params: "NULL s or out:
 * GP_EINVAL (a non-NULL out still zeroed)". */
START_TEST(db_accessors)
{
    double l = 0.0, h = 0.0;
    gp_param_shape ps;
    gp_param_count pc;

    ck_assert(gp_gpu_peak(NULL, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert_int_eq(gp_gpu_default_pipeline(NULL, GP_FP16), GP_PIPE_CUDA);
    ck_assert(gp_gpu_expected_peak(NULL, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);
    ck_assert(gp_gpu_expected_mem_bw(NULL) == 0.0);
    ck_assert(gp_link_expected_bw(NULL) == 0.0);
    ck_assert(gp_link_expected_latency(NULL) == 0.0);
    ck_assert(gp_link_mesh_share(NULL, 4.0) == 1.0);
    ck_assert_int_eq(gp_gpu_unified(NULL), 0);
    ck_assert(gp_gpu_usable_mem(NULL) == 0.0);
    ck_assert(gp_model_kv_elems_per_layer(NULL) == 0.0);
    /* No window: C itself; P^2/2 pairs (100^2/2 = 5000). */
    GP_ASSERT_REL(gp_model_kv_positions(NULL, 100.0), 100.0, 0.0);
    GP_ASSERT_REL(gp_model_kv_context(NULL, 100.0), 100.0, 0.0);
    GP_ASSERT_REL(gp_model_attn_pairs(NULL, 100.0), 5000.0, 0.0);
    ck_assert(gp_model_attn_layers(NULL) == 0.0);
    ck_assert(gp_model_state_elems(NULL) == 0.0);

    gp_model_guess_shape(7e9, 0.0, NULL, &h);
    ck_assert(h == 0.0);
    gp_model_guess_shape(7e9, 0.0, &l, NULL);
    ck_assert(l == 0.0);

    memset(&pc, 0xff, sizeof pc);
    EINVAL_NAMED("gp_model_count_params: NULL s", gp_model_count_params(NULL, &pc, E));
    ck_assert(pc.total == 0.0 && pc.active == 0.0 && pc.attn == 0.0);
    memset(&ps, 0, sizeof ps);
    ps.layers = 2;
    ps.hidden = 64;
    ps.heads = 4;
    ps.vocab = 100;
    ps.ffn = 128;
    EINVAL_NAMED("gp_model_count_params: NULL out", gp_model_count_params(&ps, NULL, E));
}
END_TEST

/* ---- calib.h ------------------------------------------------------------ */

/* gp_calib_stats_compute: GP_EINVAL when "a pointer is NULL (x, work, out:
 * the message names it)", "*out untouched on error".
 * gp_calib_fit_alpha_beta: "NULL size, t or out: GP_EINVAL".
 * gp_calib_format_parse: "NULL s or out: GP_EINVAL", *out untouched.
 * gp_calib_detect: a NULL text is GP_CALIB_FMT_PROBE.  gp_calib_free:
 * "NULL is a no-op".  gp_calib_date_ok: "0 ... for a NULL s". */
START_TEST(calib_numbers)
{
    double x[4] = {1.0, 2.0, 3.0, 4.0}, w[4];
    double size[4] = {1e3, 1e4, 1e5, 1e6}, t[4] = {1e-5, 1.1e-5, 2e-5, 1.1e-4};
    gp_calib_stats st;
    gp_calib_fit fit;
    gp_calib_format f = GP_CALIB_FMT_NVBANDWIDTH;

    st.n = 99;
    EINVAL_NAMED("gp_calib_stats_compute: NULL x", gp_calib_stats_compute(NULL, 4, w, &st, E));
    EINVAL_NAMED("gp_calib_stats_compute: NULL work",
                 gp_calib_stats_compute(x, 4, NULL, &st, E));
    ck_assert_uint_eq(st.n, 99);
    EINVAL_NAMED("gp_calib_stats_compute: NULL out", gp_calib_stats_compute(x, 4, w, NULL, E));
    EINVAL_NAMED("gp_calib_fit_alpha_beta: NULL size",
                 gp_calib_fit_alpha_beta(NULL, t, 4, 1.0, &fit, E));
    EINVAL_NAMED("gp_calib_fit_alpha_beta: NULL t",
                 gp_calib_fit_alpha_beta(size, NULL, 4, 1.0, &fit, E));
    EINVAL_NAMED("gp_calib_fit_alpha_beta: NULL out",
                 gp_calib_fit_alpha_beta(size, t, 4, 1.0, NULL, E));
    EINVAL_NAMED("gp_calib_format_parse: NULL s", gp_calib_format_parse(NULL, &f, E));
    ck_assert_int_eq(f, GP_CALIB_FMT_NVBANDWIDTH);
    EINVAL_NAMED("gp_calib_format_parse: NULL out", gp_calib_format_parse("probe", NULL, E));
    ck_assert_int_eq(gp_calib_detect(NULL, 5), GP_CALIB_FMT_PROBE);
    ck_assert_int_eq(gp_calib_date_ok(NULL), 0);
    gp_calib_free(NULL);
}
END_TEST

/* The readers (gp_calib_read_text, _nccl_tests, _babelstream,
 * _nvbandwidth, _any): "name may be NULL ("<text>"); NULL text or out:
 * GP_EINVAL", "on failure it [*out] is NULL".  gp_calib_read_file and
 * _file_any: "NULL path or out: GP_EINVAL (*out NULL when out is not)". */
typedef int (*reader_fn)(const char *, const char *, size_t, gp_calib **, gp_err *);

static void check_reader(reader_fn read, const char *fn, const char *path)
{
    char needle[96];
    char *text = gp_test_slurp(path);
    size_t len;
    gp_calib *c;
    gp_err e;

    ck_assert_msg(text != NULL, "cannot read %s", path);
    len = strlen(text);
    snprintf(needle, sizeof needle, "%s: NULL text", fn);
    c = SENTINEL(gp_calib *);
    EINVAL_NAMED(needle, read("n", NULL, len, &c, E));
    ck_assert_ptr_null(c);
    snprintf(needle, sizeof needle, "%s: NULL out", fn);
    EINVAL_NAMED(needle, read("n", text, len, NULL, E));
    gp_err_clear(&e);
    ck_assert_msg(read(NULL, text, len, &c, &e) == GP_OK, "%s(NULL name): %s", fn, e.msg);
    ck_assert_str_eq(c->path, "<text>");
    gp_calib_free(c);
    free(text);
}

static int read_any_auto(const char *name, const char *text, size_t len, gp_calib **out,
                         gp_err *e)
{
    return gp_calib_read_any(name, text, len, GP_CALIB_FMT_AUTO, out, e);
}

START_TEST(calib_readers)
{
    gp_calib *c;

    check_reader(gp_calib_read_text, "gp_calib_read_text", DATA "synthetic-h100.yaml");
    check_reader(gp_calib_read_nccl_tests, "gp_calib_read_nccl_tests",
                 DATA "a100-nccl-tests-allreduce.txt");
    check_reader(gp_calib_read_babelstream, "gp_calib_read_babelstream",
                 DATA "mi300x-babelstream.txt");
    check_reader(gp_calib_read_nvbandwidth, "gp_calib_read_nvbandwidth",
                 DATA "h100-nvbandwidth.txt");
    check_reader(read_any_auto, "gp_calib_read_any", DATA "a100-nccl-tests-allreduce.txt");

    c = SENTINEL(gp_calib *);
    EINVAL_NAMED("gp_calib_read_file: NULL path", gp_calib_read_file(NULL, &c, E));
    ck_assert_ptr_null(c);
    EINVAL_NAMED("gp_calib_read_file: NULL out",
                 gp_calib_read_file(DATA "synthetic-h100.yaml", NULL, E));
    c = SENTINEL(gp_calib *);
    EINVAL_NAMED("gp_calib_read_file_any: NULL path",
                 gp_calib_read_file_any(NULL, GP_CALIB_FMT_AUTO, &c, E));
    ck_assert_ptr_null(c);
    EINVAL_NAMED("gp_calib_read_file_any: NULL out",
                 gp_calib_read_file_any(DATA "synthetic-h100.yaml", GP_CALIB_FMT_AUTO, NULL, E));
}
END_TEST

/* gp_calib_fit_series: "NULL c, series or out: GP_EINVAL".
 * gp_calib_summarize: "A NULL c gives the all-zero summary ...; a NULL out
 * is a no-op".  gp_calib_efficiencies: "out NULL: none written, as with cap
 * 0", "0 for a NULL s or g".  gp_calib_match_gpu: "On failure *out is
 * NULL.  NULL db, device_name or out: GP_EINVAL".  gp_calib_overlay_gpu /
 * _link: "On failure *text is NULL.  label may be NULL (the file's name,
 * c->path); NULL c, s, gpu_id [link_id] or text: GP_EINVAL". */
START_TEST(calib_summary_and_overlays)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *h100 = gp_db_find_gpu(db, "h100");
    gp_calib *c = read_calib(DATA "synthetic-h100.yaml");
    gp_calib_summary s, zero;
    gp_calib_fit fit;
    gp_calib_eff rows[4];
    const gp_gpu *g;
    char *text;
    gp_err e;

    EINVAL_NAMED("gp_calib_fit_series: NULL c",
                 gp_calib_fit_series(NULL, GP_CALIB_TRANSFER, "h2d-pinned", 0, 0, &fit, E));
    EINVAL_NAMED("gp_calib_fit_series: NULL series",
                 gp_calib_fit_series(c, GP_CALIB_TRANSFER, NULL, 0, 0, &fit, E));
    EINVAL_NAMED("gp_calib_fit_series: NULL out",
                 gp_calib_fit_series(c, GP_CALIB_TRANSFER, "h2d-pinned", 0, 0, NULL, E));

    memset(&zero, 0, sizeof zero);
    memset(&s, 0xff, sizeof s);
    gp_calib_summarize(NULL, &s);
    ck_assert(memcmp(&s, &zero, sizeof s) == 0);
    gp_calib_summarize(c, NULL);
    gp_calib_summarize(c, &s);
    ck_assert(s.mem_bw > 0.0);

    ck_assert_uint_eq(gp_calib_efficiencies(NULL, h100, NULL, NULL, rows, 4), 0);
    ck_assert_uint_eq(gp_calib_efficiencies(&s, NULL, NULL, NULL, rows, 4), 0);
    ck_assert_uint_gt(gp_calib_efficiencies(&s, h100, NULL, NULL, NULL, 4), 4);
    ck_assert_uint_eq(gp_calib_efficiencies(&s, h100, NULL, NULL, NULL, 4),
                      gp_calib_efficiencies(&s, h100, NULL, NULL, rows, 0));

    g = SENTINEL(const gp_gpu *);
    EINVAL_NAMED("gp_calib_match_gpu: NULL db", gp_calib_match_gpu(NULL, "NVIDIA H100", &g, E));
    ck_assert_ptr_null(g);
    g = SENTINEL(const gp_gpu *);
    EINVAL_NAMED("gp_calib_match_gpu: NULL device_name", gp_calib_match_gpu(db, NULL, &g, E));
    ck_assert_ptr_null(g);
    EINVAL_NAMED("gp_calib_match_gpu: NULL out", gp_calib_match_gpu(db, "NVIDIA H100", NULL, E));

    text = SENTINEL(char *);
    EINVAL_NAMED("gp_calib_overlay_gpu: NULL c",
                 gp_calib_overlay_gpu(NULL, &s, "h100-sxm", "l", &text, E));
    ck_assert_ptr_null(text);
    text = SENTINEL(char *);
    EINVAL_NAMED("gp_calib_overlay_gpu: NULL s",
                 gp_calib_overlay_gpu(c, NULL, "h100-sxm", "l", &text, E));
    ck_assert_ptr_null(text);
    text = SENTINEL(char *);
    EINVAL_NAMED("gp_calib_overlay_gpu: NULL gpu_id",
                 gp_calib_overlay_gpu(c, &s, NULL, "l", &text, E));
    ck_assert_ptr_null(text);
    EINVAL_NAMED("gp_calib_overlay_gpu: NULL text",
                 gp_calib_overlay_gpu(c, &s, "h100-sxm", "l", NULL, E));
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_gpu(c, &s, "h100-sxm", NULL, &text, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(text, c->path));
    free(text);

    text = SENTINEL(char *);
    EINVAL_NAMED("gp_calib_overlay_link: NULL c",
                 gp_calib_overlay_link(NULL, &s, "nvlink4", "l", &text, E));
    ck_assert_ptr_null(text);
    text = SENTINEL(char *);
    EINVAL_NAMED("gp_calib_overlay_link: NULL s",
                 gp_calib_overlay_link(c, NULL, "nvlink4", "l", &text, E));
    ck_assert_ptr_null(text);
    text = SENTINEL(char *);
    EINVAL_NAMED("gp_calib_overlay_link: NULL link_id",
                 gp_calib_overlay_link(c, &s, NULL, "l", &text, E));
    ck_assert_ptr_null(text);
    EINVAL_NAMED("gp_calib_overlay_link: NULL text",
                 gp_calib_overlay_link(c, &s, "nvlink4", "l", NULL, E));
    gp_err_clear(&e);
    ck_assert_int_eq(gp_calib_overlay_link(c, &s, "nvlink4", NULL, &text, &e), GP_OK);
    ck_assert_ptr_nonnull(strstr(text, c->path));
    free(text);
    gp_calib_free(c);
}
END_TEST

/* ---- comm.h ------------------------------------------------------------- */

/* gp_topo_default_nics: "a NULL link give[s] 1".  gp_topo_nics: "NULL t:
 * 0".  gp_comm_host_bw: the default "also for a NULL p".
 * gp_comm_params_default: "NULL is a no-op".
 * gp_comm_eval: "p may be NULL (defaults)", "NULL t or r: GP_EINVAL".
 * gp_coll_op_parse / gp_coll_algo_parse: "GP_EINVAL names `what` (may be
 * NULL) otherwise, *out untouched.  NULL s or out: GP_EINVAL". */
START_TEST(comm)
{
    gp_link l4 = gp_test_link_pcie4();
    gp_topo t;
    gp_comm_result r;
    gp_coll_op op = GP_COLL_ALLTOALL;
    gp_coll_algo algo = GP_COLL_NVLS;
    gp_err e;

    ck_assert_int_eq(gp_topo_default_nics(NULL, NULL, 8), 1);
    ck_assert_int_eq(gp_topo_nics(NULL), 0);
    GP_ASSERT_REL(gp_comm_host_bw(NULL), GP_COMM_HOST_BW_DEFAULT, 0.0);
    gp_comm_params_default(NULL);

    memset(&t, 0, sizeof t);
    t.scale_up = &l4;
    t.gpus_per_node = 2;
    t.nodes = 1;
    EINVAL_NAMED("gp_comm_eval: NULL t",
                 gp_comm_eval(NULL, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, E));
    EINVAL_NAMED("gp_comm_eval: NULL r",
                 gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, NULL, E));
    gp_err_clear(&e);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, &e),
                     GP_OK);

    EINVAL_NAMED("gp_coll_op_parse: NULL s", gp_coll_op_parse(NULL, "--op", &op, E));
    ck_assert_int_eq(op, GP_COLL_ALLTOALL);
    EINVAL_NAMED("gp_coll_op_parse: NULL out", gp_coll_op_parse("allreduce", "--op", NULL, E));
    EINVAL_NAMED("gp_coll_algo_parse: NULL s", gp_coll_algo_parse(NULL, "--algo", &algo, E));
    ck_assert_int_eq(algo, GP_COLL_NVLS);
    EINVAL_NAMED("gp_coll_algo_parse: NULL out", gp_coll_algo_parse("ring", "--algo", NULL, E));
    gp_err_clear(&e);
    ck_assert_int_eq(gp_coll_op_parse("bogus", NULL, &op, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "");
    ck_assert_int_eq(op, GP_COLL_ALLTOALL);
    ck_assert_int_eq(gp_coll_algo_parse("bogus", NULL, &algo, &e), GP_EINVAL);
    ck_assert_int_eq(algo, GP_COLL_NVLS);
}
END_TEST

/* ---- infer.h ------------------------------------------------------------ */

/* Engines: gp_engine_find "NULL when unknown or NULL"; gp_engine_get
 * "*out NULL on failure (NULL name or out: GP_EINVAL)", `what` "may be
 * NULL"; gp_engine_prefill_eff: 1 "also for a NULL e"; gp_engine_for_gpu:
 * NULL "is returned as given, as is e for a NULL g"; gp_engine_runs_on: 1
 * when either is unknown ("NULL"), *vendors set "when not NULL";
 * gp_engine_loads: "e or f NULL: 1"; gp_format_holds_kv: "NULL: 1";
 * gp_engine_holds_kv: 1 when "e, f or their ids are NULL", *types set
 * "when not NULL". */
START_TEST(infer_engines)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *h100 = gp_db_find_gpu(db, "h100"), *mi300x = gp_db_find_gpu(db, "mi300x");
    const gp_engine *def = gp_engine_default(), *vllm = gp_engine_find("vllm");
    const gp_engine *trt = gp_engine_find("tensorrt-llm"), *en;
    const char *vendors = NULL;
    gp_err e;

    ck_assert_ptr_nonnull(mi300x);
    ck_assert_ptr_nonnull(trt);
    ck_assert_ptr_null(gp_engine_find(NULL));
    en = SENTINEL(const gp_engine *);
    EINVAL_NAMED("gp_engine_get: NULL name", gp_engine_get(NULL, "--engine", &en, E));
    ck_assert_ptr_null(en);
    EINVAL_NAMED("gp_engine_get: NULL out", gp_engine_get("vllm", "--engine", NULL, E));
    en = SENTINEL(const gp_engine *);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_engine_get("no-such-engine", NULL, &en, &e), GP_ENOTFOUND);
    ck_assert_str_eq(e.where, "");
    ck_assert_ptr_null(en);

    GP_ASSERT_REL(gp_engine_prefill_eff(NULL, 0), 1.0, 0.0);
    ck_assert_ptr_null(gp_engine_for_gpu(NULL, h100));
    ck_assert_ptr_eq(gp_engine_for_gpu(def, NULL), def);
    ck_assert_int_eq(gp_engine_runs_on(NULL, h100, &vendors), 1);
    ck_assert_int_eq(gp_engine_runs_on(vllm, NULL, &vendors), 1);
    ck_assert_int_eq(gp_engine_runs_on(trt, mi300x, NULL), 0);
    ck_assert_int_eq(gp_engine_loads(NULL, gp_db_find_format(db, "q4_0")), 1);
    ck_assert_int_eq(gp_engine_loads(vllm, NULL), 1);
    ck_assert_int_eq(gp_format_holds_kv(NULL), 1);
    {
        const char *types = SENTINEL(const char *);
        ck_assert_int_eq(gp_engine_holds_kv(NULL, gp_db_find_format(db, "q8_0"), &types), 1);
        ck_assert_int_eq(gp_engine_holds_kv(vllm, NULL, &types), 1);
        ck_assert_ptr_eq(types, SENTINEL(const char *));
        ck_assert_int_eq(gp_engine_holds_kv(vllm, gp_db_find_format(db, "q8_0"), NULL), 0);
    }
}
END_TEST

/* gp_infer_params_init: "NULL is a no-op".  gp_infer_eval and
 * gp_infer_e2e_eval: "NULL p or r: GP_EINVAL".
 * gp_infer_kv_bytes_per_token: 0 "(or m is NULL)"; gp_infer_state_bytes_per_seq:
 * 0 "for a NULL m". */
START_TEST(infer_eval)
{
    const gp_db *db = gp_test_db();
    gp_infer_params p;
    gp_infer_result r;
    gp_infer_e2e e2e;

    gp_infer_params_init(NULL);
    gp_infer_params_init(&p);
    p.gpu = gp_db_find_gpu(db, "h100");
    p.model = gp_db_find_model(db, "llama-2-7b");
    p.prompt = 16;
    EINVAL_NAMED("gp_infer_eval: NULL p", gp_infer_eval(NULL, &r, E));
    EINVAL_NAMED("gp_infer_eval: NULL r", gp_infer_eval(&p, NULL, E));
    EINVAL_NAMED("gp_infer_e2e_eval: NULL p", gp_infer_e2e_eval(NULL, 4.0, &e2e, E));
    EINVAL_NAMED("gp_infer_e2e_eval: NULL r", gp_infer_e2e_eval(&p, 4.0, NULL, E));
    ck_assert(gp_infer_kv_bytes_per_token(NULL, 16.0) == 0.0);
    ck_assert(gp_infer_state_bytes_per_seq(NULL) == 0.0);
}
END_TEST

/* ---- ledger.h ----------------------------------------------------------- */

/* gp_ledger_close: "NULL is a no-op".  gp_ledger_diagnose: "-1 (d
 * untouched) when a pointer is NULL". */
START_TEST(ledger)
{
    gp_ledger l;
    gp_diagnosis d;

    memset(&l, 0, sizeof l);
    l.t[GP_ACCT_MEMORY] = 1.0;
    gp_ledger_close(&l, GP_OVERLAP_MAX);
    gp_ledger_close(NULL, GP_OVERLAP_MAX);
    d.measured_s = 42.0;
    ck_assert_int_eq(gp_ledger_diagnose(NULL, &l, 1.0, &d), -1);
    ck_assert_int_eq(gp_ledger_diagnose(&l, NULL, 1.0, &d), -1);
    ck_assert(d.measured_s == 42.0);
    ck_assert_int_eq(gp_ledger_diagnose(&l, &l, 1.0, NULL), -1);
}
END_TEST

/* ---- roofline.h --------------------------------------------------------- */

/* gp_roof_level_parse: "*out untouched.  NULL s or out: GP_EINVAL".
 * gp_roofline_params_init, gp_kernel_shape_init: "NULL is a no-op".
 * gp_roofline_eval: GP_EINVAL "for a NULL g, p or out".
 * gp_roofline_ridge: 0 when "g is NULL".  gp_kernel_find: "NULL when
 * unknown (or NULL)".  gp_kernel_get: "*out NULL on failure.  NULL name or
 * out: GP_EINVAL".  gp_kernel_eval: "NULL k, s or out: GP_EINVAL". */
START_TEST(roofline)
{
    const gp_gpu *g = gp_db_find_gpu(gp_test_db(), "h100");
    const gp_kernel_desc *k = gp_kernel_find("vector-add"), *kd;
    gp_roof_level lv = GP_ROOF_PEER;
    gp_roofline_params p;
    gp_roofline out;
    gp_kernel_shape ks;
    gp_kernel_counts kc;

    EINVAL_NAMED("gp_roof_level_parse: NULL s", gp_roof_level_parse(NULL, &lv, E));
    ck_assert_int_eq(lv, GP_ROOF_PEER);
    EINVAL_NAMED("gp_roof_level_parse: NULL out", gp_roof_level_parse("l2", NULL, E));

    gp_roofline_params_init(NULL);
    gp_roofline_params_init(&p);
    EINVAL_NAMED("gp_roofline_eval: NULL g", gp_roofline_eval(NULL, &p, 1e9, 1e9, &out, E));
    EINVAL_NAMED("gp_roofline_eval: NULL p", gp_roofline_eval(g, NULL, 1e9, 1e9, &out, E));
    EINVAL_NAMED("gp_roofline_eval: NULL out", gp_roofline_eval(g, &p, 1e9, 1e9, NULL, E));
    ck_assert(gp_roofline_ridge(NULL, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0.0);

    gp_kernel_shape_init(NULL);
    gp_kernel_shape_init(&ks);
    ks.n = 1000;
    ck_assert_ptr_null(gp_kernel_find(NULL));
    kd = SENTINEL(const gp_kernel_desc *);
    EINVAL_NAMED("gp_kernel_get: NULL name", gp_kernel_get(NULL, &kd, E));
    ck_assert_ptr_null(kd);
    EINVAL_NAMED("gp_kernel_get: NULL out", gp_kernel_get("gemm", NULL, E));
    EINVAL_NAMED("gp_kernel_eval: NULL k", gp_kernel_eval(NULL, &ks, &kc, E));
    EINVAL_NAMED("gp_kernel_eval: NULL s", gp_kernel_eval(k, NULL, &kc, E));
    EINVAL_NAMED("gp_kernel_eval: NULL out", gp_kernel_eval(k, &ks, NULL, E));
}
END_TEST

/* ---- scale.h ------------------------------------------------------------ */

/* gp_scale_params_default: "NULL is a no-op".  gp_scale_eval: "p may be
 * NULL (defaults)", "NULL q, rows or res, and NULL gpus with n > 0:
 * GP_EINVAL" (n 0 is the empty list, "--gpus").  gp_scale_grad_bytes,
 * gp_scale_weight_bytes: "*out untouched on error.  NULL out: GP_EINVAL".  gp_scale_verdict:
 * "Returns buf: "" for a NULL res or rows; a NULL buf (or n 0) writes
 * nothing".  gp_scale_replica_memory: "NULL g or out: GP_EINVAL". */
START_TEST(scale)
{
    gp_link l4 = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_row rows[2];
    gp_scale_result res;
    long gpus[2] = {1, 2};
    double bytes = 7.0;
    char buf[128];
    gp_err e;

    gp_scale_params_default(NULL);
    memset(&q, 0, sizeof q);
    q.scale_up = &l4;
    q.grad_bytes = 1e9;
    q.step_compute_s = 1.0;
    EINVAL_NAMED("gp_scale_eval: NULL q", gp_scale_eval(NULL, NULL, gpus, 2, rows, &res, E));
    EINVAL_NAMED("gp_scale_eval: NULL gpus", gp_scale_eval(&q, NULL, NULL, 2, rows, &res, E));
    EINVAL_NAMED("gp_scale_eval: NULL rows", gp_scale_eval(&q, NULL, gpus, 2, NULL, &res, E));
    EINVAL_NAMED("gp_scale_eval: NULL res", gp_scale_eval(&q, NULL, gpus, 2, rows, NULL, E));
    gp_err_clear(&e);
    ck_assert_int_eq(gp_scale_eval(&q, NULL, NULL, 0, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus, 2, rows, &res, &e), GP_OK);

    EINVAL_NAMED("gp_scale_grad_bytes: NULL out", gp_scale_grad_bytes(7e9, GP_BF16, NULL, E));
    EINVAL_NAMED("gp_scale_weight_bytes: NULL out", gp_scale_weight_bytes(7e9, NULL, E));
    ck_assert_int_eq(gp_scale_grad_bytes(0.0, GP_BF16, &bytes, NULL), GP_EINVAL);
    ck_assert(bytes == 7.0);

    strcpy(buf, "stale");
    ck_assert_ptr_eq(gp_scale_verdict(NULL, rows, buf, sizeof buf), buf);
    ck_assert_str_eq(buf, "");
    strcpy(buf, "stale");
    ck_assert_ptr_eq(gp_scale_verdict(&res, NULL, buf, sizeof buf), buf);
    ck_assert_str_eq(buf, "");
    ck_assert_ptr_null(gp_scale_verdict(&res, rows, NULL, sizeof buf));

    /* gp_scale_replica_memory: "NULL g or out: GP_EINVAL", out zeroed. */
    {
        const gp_gpu *g = gp_db_find_gpu(gp_test_db(), "h100-sxm");
        gp_scale_memory m;
        m.total_bytes = 1.0;
        EINVAL_NAMED("gp_scale_replica_memory: NULL g",
                     gp_scale_replica_memory(NULL, 7e9, 14e9, 0.0, &m, E));
        ck_assert(m.total_bytes == 0.0);
        EINVAL_NAMED("gp_scale_replica_memory: NULL out",
                     gp_scale_replica_memory(g, 7e9, 14e9, 0.0, NULL, E));
    }
}
END_TEST

/* ---- status.h ----------------------------------------------------------- */

/* gp_err_clear: "NULL is a no-op".  gp_err_format: "A NULL e writes ""; a
 * NULL buf (or n 0) writes nothing".  gp__raise: "Fill e (when non-NULL)",
 * "`where` may be NULL, and so may fmt (an empty message)". */
START_TEST(status)
{
    /* Through a pointer, so the format check does not see the NULL fmt. */
    int (*raise_fn)(gp_err *, gp_status, const char *, unsigned, unsigned, const char *,
                    ...) = gp__raise;
    const char *nofmt = NULL;
    char buf[32];
    gp_err e;

    gp_err_clear(NULL);
    strcpy(buf, "stale");
    ck_assert_ptr_eq(gp_err_format(NULL, buf, sizeof buf), buf);
    ck_assert_str_eq(buf, "");
    gp_err_clear(&e);
    ck_assert_ptr_null(gp_err_format(&e, NULL, 16));
    ck_assert_int_eq(raise_fn(NULL, GP_EIO, NULL, 0, 0, "x %d", 1), GP_EIO);
    strcpy(e.msg, "stale");
    ck_assert_int_eq(raise_fn(&e, GP_EIO, NULL, 0, 0, nofmt), GP_EIO);
    ck_assert_int_eq(e.code, GP_EIO);
    ck_assert_str_eq(e.msg, "");
    ck_assert_str_eq(e.where, "");
}
END_TEST

/* ---- train.h ------------------------------------------------------------ */

/* gp_train_params_init, gp_train_in_init: "NULL is a no-op".
 * gp_train_shape_from_model: "NULL m or s: GP_EINVAL (a non-NULL s is
 * zeroed on every error)".  gp_train_shape_params: "0 for a NULL s".
 * gp_train_fwd_flop_per_token: outs "each may be NULL", "0 each for a NULL
 * s".  gp_train_state_bytes: "Each out may be NULL".  gp_train_seq: "0 for
 * a NULL in", "p NULL: the defaults".  gp_train_estimate: "p may be NULL
 * (defaults); NULL in or out: GP_EINVAL".  gp_train_recompute_parse /
 * gp_train_optimizer_parse: "*out untouched.  NULL s or out: GP_EINVAL". */
START_TEST(train)
{
    const gp_db *db = gp_test_db();
    const gp_model *m = gp_db_find_model(db, "llama-2-7b");
    gp_train_params p;
    gp_train_shape s;
    gp_train_in in;
    gp_train_result r;
    gp_train_recompute rc = GP_RECOMPUTE_FULL;
    gp_train_optimizer opt = GP_OPT_SGD;
    double mm = 1.0, at = 1.0, lg = 1.0;
    gp_err e;

    gp_train_params_init(NULL);
    gp_train_in_init(NULL);
    gp_train_params_init(&p);

    memset(&s, 0xff, sizeof s);
    EINVAL_NAMED("gp_train_shape_from_model: NULL m", gp_train_shape_from_model(NULL, &s, E));
    ck_assert(s.layers == 0.0 && s.hidden == 0.0 && s.vocab == 0.0);
    EINVAL_NAMED("gp_train_shape_from_model: NULL s", gp_train_shape_from_model(m, NULL, E));
    ck_assert(gp_train_shape_params(NULL, 0) == 0.0);
    gp_train_fwd_flop_per_token(NULL, 2048.0, 1, &mm, &at, &lg);
    ck_assert(mm == 0.0 && at == 0.0 && lg == 0.0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_train_shape_from_model(m, &s, &e), GP_OK);
    gp_train_fwd_flop_per_token(&s, 2048.0, 1, NULL, NULL, NULL);
    gp_train_state_bytes(GP_OPT_ADAM, 1, NULL, NULL, NULL);

    gp_train_in_init(&in);
    in.gpu = gp_db_find_gpu(db, "h100");
    in.model = m;
    in.tokens = 1e9;
    ck_assert(gp_train_seq(NULL, &p) == 0.0);
    ck_assert(gp_train_seq(&in, NULL) > 0.0);
    EINVAL_NAMED("gp_train_estimate: NULL in", gp_train_estimate(NULL, &p, &r, E));
    EINVAL_NAMED("gp_train_estimate: NULL out", gp_train_estimate(&in, &p, NULL, E));
    ck_assert_int_eq(gp_train_estimate(&in, NULL, &r, &e), GP_OK);

    EINVAL_NAMED("gp_train_recompute_parse: NULL s", gp_train_recompute_parse(NULL, &rc, E));
    ck_assert_int_eq(rc, GP_RECOMPUTE_FULL);
    EINVAL_NAMED("gp_train_recompute_parse: NULL out",
                 gp_train_recompute_parse("none", NULL, E));
    EINVAL_NAMED("gp_train_optimizer_parse: NULL s", gp_train_optimizer_parse(NULL, &opt, E));
    ck_assert_int_eq(opt, GP_OPT_SGD);
    EINVAL_NAMED("gp_train_optimizer_parse: NULL out",
                 gp_train_optimizer_parse("adam", NULL, E));
}
END_TEST

/* ---- units.h ------------------------------------------------------------ */

/* gp_parse_qty: "e and out may be NULL (out NULL: validation only); a NULL
 * s is GP_EINVAL as an empty one is", `what` "may be NULL", "*out is left
 * untouched" on error; the wrappers and gp_parse_int the same.
 * gp_format_qty: "buf NULL or n 0 writes nothing". */
START_TEST(units)
{
    typedef int (*wrapper_fn)(const char *, double *, gp_err *);
    static const wrapper_fn wrappers[] = {gp_parse_bytes,    gp_parse_rate,
                                          gp_parse_flops,    gp_parse_count,
                                          gp_parse_duration, gp_parse_fraction};
    double v = 7.0;
    long n = 7;
    size_t i;
    gp_err e;

    gp_err_clear(&e);
    ck_assert_int_eq(gp_parse_qty(NULL, GP_Q_BYTES, "--bytes", &v, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--bytes");
    ck_assert(v == 7.0);
    ck_assert_int_eq(gp_parse_qty(NULL, GP_Q_BYTES, NULL, NULL, NULL), GP_EINVAL);
    ck_assert_int_eq(gp_parse_qty("14GB", GP_Q_BYTES, NULL, NULL, NULL), GP_OK);
    ck_assert_int_eq(gp_parse_qty("14XB", GP_Q_BYTES, NULL, &v, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "");
    ck_assert(v == 7.0);
    for (i = 0; i < sizeof wrappers / sizeof wrappers[0]; i++) {
        ck_assert_int_eq(wrappers[i](NULL, &v, NULL), GP_EINVAL);
        ck_assert(v == 7.0);
        ck_assert_int_eq(wrappers[i]("0.5", NULL, NULL), GP_OK);
    }
    ck_assert_int_eq(gp_parse_int(NULL, 0, "--gpus", &n, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    ck_assert_int_eq(n, 7);
    ck_assert_int_eq(gp_parse_int("8", 1, NULL, NULL, NULL), GP_OK);
    ck_assert_int_eq(gp_parse_int("x", 1, NULL, &n, &e), GP_EINVAL);
    ck_assert_int_eq(n, 7);
    ck_assert_ptr_null(gp_format_qty(1e9, GP_Q_BYTES, 1, 0, NULL, 16));
}
END_TEST

Suite *gp_test_suite_nullargs(void)
{
    Suite *s = suite_create("nullargs");
    TCase *tc = tcase_create("db");
    tcase_add_test(tc, db_open_family);
    tcase_add_test(tc, db_lookups);
    tcase_add_test(tc, db_suggest_known);
    tcase_add_test(tc, db_parsers);
    tcase_add_test(tc, db_accessors);
    suite_add_tcase(s, tc);
    tc = tcase_create("calib");
    tcase_add_test(tc, calib_numbers);
    tcase_add_test(tc, calib_readers);
    tcase_add_test(tc, calib_summary_and_overlays);
    suite_add_tcase(s, tc);
    tc = tcase_create("models");
    tcase_add_test(tc, comm);
    tcase_add_test(tc, infer_engines);
    tcase_add_test(tc, infer_eval);
    tcase_add_test(tc, ledger);
    tcase_add_test(tc, roofline);
    tcase_add_test(tc, scale);
    tcase_add_test(tc, status);
    tcase_add_test(tc, train);
    tcase_add_test(tc, units);
    suite_add_tcase(s, tc);
    return s;
}
