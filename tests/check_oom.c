/* Out-of-memory paths: every allocation the library makes is made to fail,
 * one at a time, and the public call must then return GP_ENOMEM with a
 * message, leave *out NULL, not crash and not leak (docs/bad-input.md,
 * "Out of memory").
 *
 * Mechanism: the runner is linked with GNU ld's
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=free
 * (Makefile, OOM_WRAP), so every call to those functions from an object
 * linked into the runner -- the library objects of build/libgpuplan.a and
 * the tests -- goes to the __wrap_ functions below, which pass through to
 * the C library (__real_) unless a run is being recorded.  Allocations made
 * inside shared libraries (libyaml, GSL, jansson, libc's own) are not seen:
 * we test how OUR code handles a refused allocation.
 *
 * While recording, the wrappers count allocations, refuse the Nth, and keep
 * the set of live blocks allocated since recording started; free() removes
 * a block.  For N = 1, 2, ... each operation is run with the Nth allocation
 * refused until it makes fewer than N allocations (and must then succeed);
 * after each run (and the free of a successful result) no block allocated
 * during the run may be live.  That leak check needs no sanitizer; `make
 * sanitize` and `make valgrind` check the same runs again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define DATA "tests/data/calib/"
#define MIN_DIR "tests/data/hwdb-min"

/* ---- the wrappers ------------------------------------------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void __wrap_free(void *p);

/* Live blocks while recording: open addressing, linear probing, deletion
 * by backward shift.  1 << 18 slots (2 MiB) hold far more blocks than any
 * operation below keeps live at once. */
#define LIVE_SLOTS ((size_t)1 << 18)
static void *live[LIVE_SLOTS];
static size_t n_live;
static int recording;
static int overflow;      /* the table filled up: the leak check is void */
static unsigned long n_alloc; /* allocations asked for while recording */
static unsigned long fail_at; /* refuse this one (1-based); 0 = none */
static int refused;           /* an allocation was refused */

static size_t slot_of(const void *p)
{
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return (size_t)h & (LIVE_SLOTS - 1);
}

static void live_add(void *p)
{
    size_t i;
    if (p == NULL)
        return;
    if (n_live + 1 >= LIVE_SLOTS / 2) {
        overflow = 1;
        return;
    }
    for (i = slot_of(p); live[i] != NULL; i = (i + 1) & (LIVE_SLOTS - 1))
        if (live[i] == p)
            return;
    live[i] = p;
    n_live++;
}

static void live_del(const void *p)
{
    size_t i, j;
    if (p == NULL || n_live == 0)
        return;
    for (i = slot_of(p); live[i] != p; i = (i + 1) & (LIVE_SLOTS - 1))
        if (live[i] == NULL)
            return; /* not ours: allocated before recording or by libc */
    live[i] = NULL;
    n_live--;
    for (j = (i + 1) & (LIVE_SLOTS - 1); live[j] != NULL; j = (j + 1) & (LIVE_SLOTS - 1)) {
        size_t k = slot_of(live[j]);
        /* Move live[j] into the hole at i when its home k is not in (i, j]. */
        if ((i <= j) ? (k <= i || k > j) : (k <= i && k > j)) {
            live[i] = live[j];
            live[j] = NULL;
            i = j;
        }
    }
}

/* 1 when this allocation is to be refused. */
static int refuse(void)
{
    if (!recording)
        return 0;
    n_alloc++;
    if (fail_at != 0 && n_alloc == fail_at) {
        refused = 1;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n)
{
    void *p;
    if (refuse())
        return NULL;
    p = __real_malloc(n);
    if (recording)
        live_add(p);
    return p;
}

void *__wrap_calloc(size_t k, size_t n)
{
    void *p;
    if (refuse())
        return NULL;
    p = __real_calloc(k, n);
    if (recording)
        live_add(p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    void *q;
    if (refuse())
        return NULL; /* p stays valid, as after a real failure */
    q = __real_realloc(p, n);
    if (recording && q != NULL) {
        live_del(p);
        live_add(q);
    }
    return q;
}

char *__wrap_strdup(const char *s)
{
    char *p;
    if (refuse())
        return NULL;
    p = __real_strdup(s);
    if (recording)
        live_add(p);
    return p;
}

void __wrap_free(void *p)
{
    if (recording)
        live_del(p);
    __real_free(p);
}

static void record_start(unsigned long n)
{
    memset(live, 0, sizeof live);
    n_live = 0;
    overflow = 0;
    n_alloc = 0;
    fail_at = n;
    refused = 0;
    recording = 1;
}

/* Stop recording; returns the number of blocks still live. */
static size_t record_stop(void)
{
    recording = 0;
    fail_at = 0;
    return n_live;
}

/* ---- the driver ---------------------------------------------------------- */

/* One operation: run it (result in *res, status returned); release frees a
 * successful result. */
typedef struct oom_op {
    const char *what;
    int (*run)(void **res, gp_err *e);
    void (*release)(void *res);
    int none; /* must make no allocation at all */
} oom_op;

/* Most allocations any operation below is allowed to make: a guard against
 * a loop that never ends, not a budget. */
#define OOM_MAX_ALLOC 200000ul

/* Run op with the Nth allocation refused for N = 1, 2, ... until it
 * succeeds.  Returns the number of allocations of the successful run. */
static unsigned long sweep(const oom_op *op)
{
    unsigned long n;
    char buf[1024];

    for (n = 1; n <= OOM_MAX_ALLOC; n++) {
        void *res = NULL;
        gp_err e;
        int rc;
        size_t left;

        gp_err_clear(&e);
        record_start(n);
        rc = op->run(&res, &e);
        if (rc == GP_OK && res != NULL)
            op->release(res);
        left = record_stop();
        ck_assert_msg(!overflow, "%s: too many live blocks to track", op->what);
        if (!refused) {
            /* Fewer than n allocations: the run is the normal one. */
            ck_assert_msg(rc == GP_OK, "%s: fails without an injected failure: %s", op->what,
                          gp_err_format(&e, buf, sizeof buf));
            ck_assert_msg(left == 0, "%s: %zu block(s) leaked on success", op->what, left);
            return n - 1;
        }
        ck_assert_msg(rc == GP_ENOMEM,
                      "%s: allocation %lu refused: status %d (%s), want GP_ENOMEM: %s",
                      op->what, n, rc, gp_strerror(rc), gp_err_format(&e, buf, sizeof buf));
        ck_assert_msg(e.code == GP_ENOMEM && e.msg[0] != '\0',
                      "%s: allocation %lu refused: error context code %d, message '%s'",
                      op->what, n, (int)e.code, e.msg);
        ck_assert_msg(res == NULL, "%s: allocation %lu refused: *out is not NULL", op->what, n);
        ck_assert_msg(left == 0, "%s: allocation %lu refused: %zu block(s) leaked", op->what, n,
                      left);
    }
    ck_abort_msg("%s: still allocating after %lu allocations", op->what, OOM_MAX_ALLOC);
    return 0;
}

/* ---- operations ---------------------------------------------------------- */

static void release_db(void *res)
{
    gp_db_free(res);
}

static void release_calib(void *res)
{
    gp_calib_free(res);
}

static void release_text(void *res)
{
    free(res);
}

static int run_db_builtin(void **res, gp_err *e)
{
    gp_db *db = NULL;
    int rc = gp_db_open(&db, 0, NULL, 0, e);
    *res = db;
    return rc;
}

static int run_db_overlay(void **res, gp_err *e)
{
    const char *dirs[] = {MIN_DIR};
    gp_db *db = NULL;
    int rc = gp_db_open(&db, 1, dirs, 1, e);
    *res = db;
    return rc;
}

static int run_db_builtin_overlay(void **res, gp_err *e)
{
    const char *dirs[] = {MIN_DIR};
    gp_db *db = NULL;
    int rc = gp_db_open(&db, 0, dirs, 1, e);
    *res = db;
    return rc;
}

static int run_db_text(void **res, gp_err *e)
{
    static const char text[] =
        "id: nf4x\n"
        "name: NF4 test\n"
        "aliases: [nf4-test]\n"
        "kind: quant\n"
        "sources: {qlora: \"Dettmers et al. 2023, QLoRA\"}\n"
        "src: qlora\n"
        "bits: 4.127\n"
        "compute: bf16\n"
        "group: 64\n";
    gp_db *db = NULL;
    int rc = gp_db_open_text(&db, 0, GP_KIND_FORMAT, "nf4x.yaml", text, strlen(text), e);
    *res = db;
    return rc;
}

static int read_calib(const char *path, void **res, gp_err *e)
{
    gp_calib *c = NULL;
    int rc = gp_calib_read_file_any(path, GP_CALIB_FMT_AUTO, &c, e);
    *res = c;
    return rc;
}

static int run_calib_h100(void **res, gp_err *e)
{
    return read_calib(DATA "synthetic-h100.yaml", res, e);
}

static int run_calib_4090(void **res, gp_err *e)
{
    return read_calib(DATA "synthetic-rtx4090.yaml", res, e);
}

static int run_nccl_a100(void **res, gp_err *e)
{
    return read_calib(DATA "a100-nccl-tests-allreduce.txt", res, e);
}

static int run_nccl_a100_2node(void **res, gp_err *e)
{
    return read_calib(DATA "a100-2node-nccl-tests-allreduce.txt", res, e);
}

/* Repeated sizes (-N 2), a timestamp column: the rows of one size become one point. */
static int run_nccl_h100_cycles(void **res, gp_err *e)
{
    return read_calib(DATA "h100-nccl-tests-cycles-timestamps.txt", res, e);
}

static int run_rccl_mi300x(void **res, gp_err *e)
{
    return read_calib(DATA "mi300x-rccl-tests-allreduce.txt", res, e);
}

static int run_babelstream(void **res, gp_err *e)
{
    return read_calib(DATA "mi300x-babelstream.txt", res, e);
}

/* Operations on an already parsed file (loaded before recording starts). */
static gp_calib *fixture;
static gp_calib_summary fixture_sum;

static int run_overlay_gpu(void **res, gp_err *e)
{
    char *text = NULL;
    int rc = gp_calib_overlay_gpu(fixture, &fixture_sum, "h100-sxm", "synthetic-h100.yaml", &text, e);
    *res = text;
    return rc;
}

static int run_overlay_link(void **res, gp_err *e)
{
    char *text = NULL;
    int rc = gp_calib_overlay_link(fixture, &fixture_sum, "nvlink4", "synthetic-h100.yaml", &text, e);
    *res = text;
    return rc;
}

static int run_fit_series(void **res, gp_err *e)
{
    gp_calib_fit f;
    *res = NULL;
    return gp_calib_fit_series(fixture, GP_CALIB_TRANSFER, "h2d-pinned", 0.0, 0.0, &f, e);
}

static const oom_op ops_db[] = {
    {"gp_db_open (built-in)", run_db_builtin, release_db, 0},
    {"gp_db_open (overlay " MIN_DIR ", no built-in)", run_db_overlay, release_db, 0},
    {"gp_db_open (built-in + overlay " MIN_DIR ")", run_db_builtin_overlay, release_db, 0},
    {"gp_db_open_text (format over built-in)", run_db_text, release_db, 0},
};

static const oom_op ops_calib[] = {
    {"gp_calib_read_file_any (synthetic-h100.yaml)", run_calib_h100, release_calib, 0},
    {"gp_calib_read_file_any (synthetic-rtx4090.yaml)", run_calib_4090, release_calib, 0},
    {"gp_calib_read_file_any (a100 nccl-tests)", run_nccl_a100, release_calib, 0},
    {"gp_calib_read_file_any (a100 2-node nccl-tests)", run_nccl_a100_2node, release_calib, 0},
    {"gp_calib_read_file_any (mi300x rccl-tests)", run_rccl_mi300x, release_calib, 0},
    {"gp_calib_read_file_any (h100 nccl-tests -N 2 -S 1)", run_nccl_h100_cycles, release_calib, 0},
    {"gp_calib_read_file_any (mi300x BabelStream)", run_babelstream, release_calib, 0},
};

static const oom_op ops_written[] = {
    {"gp_calib_overlay_gpu (synthetic-h100.yaml)", run_overlay_gpu, release_text, 0},
    {"gp_calib_overlay_link (synthetic-h100.yaml)", run_overlay_link, release_text, 0},
    {"gp_calib_fit_series (synthetic-h100.yaml h2d-pinned)", run_fit_series, release_text, 1},
};

START_TEST(test_oom_db)
{
    unsigned long n = sweep(&ops_db[_i]);
    ck_assert_msg(n > 0, "%s: no allocation seen (is the runner linked with --wrap?)",
                  ops_db[_i].what);
}
END_TEST

START_TEST(test_oom_calib)
{
    unsigned long n = sweep(&ops_calib[_i]);
    ck_assert_msg(n > 0, "%s: no allocation seen (is the runner linked with --wrap?)",
                  ops_calib[_i].what);
}
END_TEST

START_TEST(test_oom_written)
{
    gp_err e;
    char buf[1024];
    unsigned long n;
    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_file(DATA "synthetic-h100.yaml", &fixture, &e) == GP_OK, "%s",
                  gp_err_format(&e, buf, sizeof buf));
    gp_calib_summarize(fixture, &fixture_sum);
    n = sweep(&ops_written[_i]);
    gp_calib_free(fixture);
    fixture = NULL;
    if (ops_written[_i].none)
        ck_assert_msg(n == 0, "%s: made %lu allocation(s), want none", ops_written[_i].what, n);
    else
        ck_assert_msg(n > 0, "%s: no allocation seen (is the runner linked with --wrap?)",
                      ops_written[_i].what);
}
END_TEST

/* A measurement file over the reader's first 64 KiB buffer, so that the
 * buffer grows (realloc) while reading: synthetic-h100.yaml after 80 KiB of
 * comment lines. */
static char big_path[4096];

static int run_calib_big(void **res, gp_err *e)
{
    return read_calib(big_path, res, e);
}

START_TEST(test_oom_calib_big)
{
    static const oom_op op = {"gp_calib_read_file_any (synthetic-h100.yaml after 80 KiB of comments)",
                              run_calib_big, release_calib, 0};
    static const char line[] = "# padding to push the file past the reader's first buffer\n";
    char dir[1024];
    char *text = gp_test_slurp(DATA "synthetic-h100.yaml"), *big;
    size_t len, i, pad = 80 * 1024 / (sizeof line - 1) * (sizeof line - 1);
    ck_assert_ptr_nonnull(text);
    len = strlen(text);
    big = malloc(pad + len + 1);
    ck_assert_ptr_nonnull(big);
    for (i = 0; i < pad; i += sizeof line - 1)
        memcpy(big + i, line, sizeof line - 1);
    memcpy(big + pad, text, len + 1);
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "big.yaml", big), 0);
    snprintf(big_path, sizeof big_path, "%s/big.yaml", dir);
    free(big);
    free(text);
    ck_assert_uint_gt(sweep(&op), 0);
    gp_test_rmtree(dir);
}
END_TEST

/* gp_calib_summarize returns nothing and "never fails on a parsed file":
 * so it must not allocate -- a fit that failed for want of memory would
 * silently change the summary (the overlay it writes).  Each file's summary
 * with every allocation refused in turn must equal the normal one. */
static const char *const summarize_files[] = {
    DATA "synthetic-h100.yaml",
    DATA "synthetic-rtx4090.yaml",
    DATA "a100-nccl-tests-allreduce.txt",
    DATA "mi300x-rccl-tests-allreduce.txt",
};

START_TEST(test_oom_summarize)
{
    gp_calib *c = NULL;
    gp_calib_summary want, got;
    gp_err e;
    char buf[1024];
    unsigned long n;

    gp_err_clear(&e);
    ck_assert_msg(gp_calib_read_file_any(summarize_files[_i], GP_CALIB_FMT_AUTO, &c, &e) == GP_OK,
                  "%s", gp_err_format(&e, buf, sizeof buf));
    gp_calib_summarize(c, &want);
    for (n = 1; n <= OOM_MAX_ALLOC; n++) {
        record_start(n);
        gp_calib_summarize(c, &got);
        ck_assert_msg(record_stop() == 0, "%s: summarize leaked", summarize_files[_i]);
        ck_assert_msg(memcmp(&got, &want, sizeof got) == 0,
                      "%s: summary differs when allocation %lu is refused", summarize_files[_i],
                      n);
        if (!refused)
            break;
    }
    ck_assert_msg(n_alloc == 0, "%s: gp_calib_summarize made %lu allocation(s)",
                  summarize_files[_i], n_alloc);
    gp_calib_free(c);
}
END_TEST

Suite *gp_test_suite_oom(void)
{
    Suite *s = suite_create("oom");
    TCase *tc = tcase_create("oom");
    tcase_add_loop_test(tc, test_oom_db, 0, (int)(sizeof ops_db / sizeof ops_db[0]));
    tcase_add_loop_test(tc, test_oom_calib, 0, (int)(sizeof ops_calib / sizeof ops_calib[0]));
    tcase_add_loop_test(tc, test_oom_written, 0,
                        (int)(sizeof ops_written / sizeof ops_written[0]));
    tcase_add_test(tc, test_oom_calib_big);
    tcase_add_loop_test(tc, test_oom_summarize, 0,
                        (int)(sizeof summarize_files / sizeof summarize_files[0]));
    tcase_set_timeout(tc, 600);
    suite_add_tcase(s, tc);
    return s;
}
