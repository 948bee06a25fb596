/* Private to the tests: relative-tolerance asserts and a CLI runner. */
#ifndef GP_TESTUTIL_H
#define GP_TESTUTIL_H

#include <check.h>
#include <jansson.h>
#include <math.h>

#include "gpuplan.h"

/* |got - want| <= rtol * |want| (absolute rtol when want == 0); NaN and Inf
 * match only themselves.  Prints both values on failure. */
int gp_test_rel_ok(double got, double want, double rtol);
#define GP_ASSERT_REL(got, want, rtol)                                          \
    do {                                                                        \
        double gp__g = (got), gp__w = (want);                                   \
        ck_assert_msg(gp_test_rel_ok(gp__g, gp__w, (rtol)),                     \
                      "%s = %.10g, want %.10g (rtol %g)", #got, gp__g, gp__w,   \
                      (double)(rtol));                                          \
    } while (0)

/* The shared built-in database, loaded once per test process (fork mode:
 * once per test).  Never NULL: a load failure fails the test. */
const gp_db *gp_test_db(void);

/* A GPU's board figures as its datasheet and nvidia-smi give them (SI, a 0
 * or NULL is not checked): gp_test_card() finds `id` in the built-in
 * database, asserts every given figure (relative 1e-12) and returns it. */
typedef struct gp_test_card {
    const char *id;
    double sm_count, boost_hz, mem_bw, capacity_bytes, usable_bytes, tdp_w, l2_bytes, price_usd;
    const char *scale_up_link;
} gp_test_card;
const gp_gpu *gp_test_card_check(const gp_test_card *c);

/* What a model entry of the built-in database must hold (the check_models_*
 * suites).  derived: the shape-derived parameter count, worked out by hand;
 * card: the count its model card or report states, within card_rtol (which
 * also bounds params_active against active_card).  window / window_layers /
 * experts 0: none; active_derived 0: dense (params_active = params).
 * gp_test_model_check() finds `id` (and `alias`, when given, to the same
 * entry), asserts every field and that the figures carry sources, and
 * returns the entry. */
typedef struct gp_test_model {
    const char *id, *alias;
    double derived;
    double card;
    double card_rtol;
    double layers, hidden, heads, kv_heads, head_dim, ffn, vocab, context;
    int tied;
    double window, window_layers;
    double experts, experts_active;
    double active_derived, active_card;
} gp_test_model;
/* The FFN matrices train infers for a database model (2: plain, 3: gated). */
double gp_test_ffn_matrices(const char *id);
const gp_model *gp_test_model_check(const gp_test_model *w);

/* A name a user or a tool writes, and the GPU id it must find. */
typedef struct gp_test_name {
    const char *name, *id;
} gp_test_name;

/* Every name of want[0..n) finds its id in the built-in database: through
 * gp_db_find_gpu (ids, aliases, words), or with `device` through
 * gp_calib_match_gpu (the names nvidia-smi / NVML print). */
void gp_test_names_resolve(const gp_test_name *want, size_t n, int device);

/* `gpuplan decode --gpu GPU --model llama-2-7b --weights q4_0 --json` at
 * the default context 128: asserts the GPU resolves to `id`, the ceiling is
 * mem_bw / 3,817,531,648 B per token within 1 % (body 6,476,271,616 x 4.5 / 8
 * = 3,642,902,784 B; lm_head at Q6_K 131,072,000 x 6.5625 / 8 = 107,520,000
 * B; KV 2 x 32 layers x 4,096 x 2 B x 128 = 67,108,864 B; the input-embedding
 * row is left out), the expected figure lies in (0, ceiling) and it fits.
 * Returns the ceiling in tokens/s. */
double gp_test_llama2_q4_0_ceiling(const char *gpu, const char *id, double mem_bw);

/* Run build/gpuplan with argv (NULL-terminated, without the program name).
 * Captures stdout/stderr into malloc'd strings (caller frees; may pass NULL
 * to discard).  Returns the exit status, or -1 if it did not exit normally. */
int gp_test_cli(const char *const *argv, char **out, char **err);

/* Same, with environment overrides "NAME=VALUE" (NULL-terminated; may be NULL). */
int gp_test_cli_env(const char *const *argv, const char *const *env, char **out,
                    char **err);
/* Same, for program `prog` of the build directory ("gen/gen_builtin"). */
int gp_test_run_env(const char *prog, const char *const *argv, const char *const *env,
                    char **out, char **err);

/* Run ARGS (ARGS[0] the program's path; NULL-terminated) in a child whose
 * stdout and stderr are OFD and EFD, isolated from the user's overlays,
 * with ENV's "NAME=VALUE" (may be NULL): its exit status, or -1. */
int gp_test_exec(const char **args, const char *const *env, int ofd, int efd);

/* Run `gpuplan ARGS` (argv as for gp_test_cli, usually with "--json"),
 * assert exit 0 and parse stdout as JSON; the caller json_decref()s. */
json_t *gp_test_cli_json(const char *const *argv);

/* The number under `key` in object o; fails the test when the key is missing
 * or not a number. */
double gp_test_jnum(const json_t *o, const char *key);

/* gp_model_count_params / gp_infer_eval, asserting GP_OK (the message names
 * the library's error). */
gp_param_count gp_test_count_params(const gp_param_shape *s);
gp_infer_result gp_test_infer_eval(const gp_infer_params *p);

/* The JSON file `base` (an empty object when NULL) with `edit`, a JSON object,
 * applied (its keys set; a key whose value is null removed), written to
 * dir/name.json.  Returns the path (a static buffer, overwritten by the
 * next call). */
const char *gp_test_json_edit(const char *dir, const char *name, const char *base,
                              const char *edit);

/* `gpuplan --db dir --json hw import-model FILE --as ID`: the exit status,
 * *o the parsed stdout (NULL when it is no JSON; caller json_decref()s) and
 * *err stderr as gp_test_cli gives it (err may be NULL). */
int gp_test_import_model(const char *dir, const char *file, const char *as, json_t **o,
                         char **err);

/* Hand-built links shared by the comm and scale suites.
 * PCIe 4.0 x16, peer-to-peer: 31.5 GB/s per direction (PCI-SIG), 25 GB/s
 * achieved one way (article row 12; nvbandwidth#15: 23.9-26.4 GB/s), alpha
 * 10 us (assumed).
 * 100 Gb/s Ethernet between nodes: 12.5 GB/s per direction, 11 GB/s
 * achievable (assumed 88 %), alpha 20 us (assumed). */
gp_link gp_test_link_pcie4(void);
gp_link gp_test_link_eth100(void);

/* Path of the build directory ($GP_BUILD, default "build"). */
const char *gp_test_build_dir(void);

/* Switch this process (a forked test) to a locale whose decimal point is a
 * comma, as a host program's setlocale(LC_ALL, "") does for a German user:
 * an installed de_DE / fr_FR locale, else one localedef builds once into
 * BUILD/locale (LOCPATH).  Returns 1 when printf now writes "1,5"; 0 when no
 * such locale can be had on this machine (the caller skips, saying so). */
int gp_test_comma_locale(void);

/* Create a fresh temporary directory (mkdtemp) and return its path in buf;
 * remove it with gp_test_rmtree.  Return 0 on success. */
int gp_test_tmpdir(char *buf, size_t n);
void gp_test_rmtree(const char *path);
/* Write text to dir/rel (creating parent dirs); returns 0 on success. */
int gp_test_write(const char *dir, const char *rel, const char *text);
/* The whole file at path, NUL-terminated and malloc'd (caller frees); NULL
 * when it cannot be opened. */
char *gp_test_slurp(const char *path);
/* "cksum size ./path" of every file below dir, sorted, one per line
 * (malloc'd, caller frees): equal listings mean an unchanged tree. */
char *gp_test_dir_listing(const char *dir);

#define GP_SUITE(name) Suite *gp_test_suite_##name(void);
#include "suites.h"
#undef GP_SUITE

#endif /* GP_TESTUTIL_H */
