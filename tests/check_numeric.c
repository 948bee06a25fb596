/* Numeric robustness: extreme but valid inputs through the CLI with --json
 * (1 GPU, 100,000 GPUs, 1e15 tokens, 1-token and 10M-token contexts, 1-byte
 * and petabyte messages, 1e27 FLOPs).  Every run must exit 0 -- or 2 with a
 * message where the input leaves the model's domain -- and print one JSON
 * object in which
 *   - no number is NaN or infinite (jansson refuses them; gp_cli_jnum turns
 *     them into null), and null appears only under the keys whose docs say
 *     null means "never" / "unknown" (the model docs);
 *   - no time, rate, byte or FLOP figure (keys ending _s, _days, _hours,
 *     _bytes, _flop, _per_s) is negative;
 *   - the case's headline figures are finite and > 0. */
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* Keys that may be null by contract: decode never turns compute-bound
 * (inference.md), no GPU count fits / no price known (training.md), a
 * 1-GPU collective takes no time so algbw is undefined (collectives.md),
 * the first row has no previous one (scaling.md), and absent optional ids. */
static const char *const null_ok[] = {
    "ridge_batch", "ceiling_ridge_batch", "min_gpus", "min_gpus_zero3", "cost_own_usd",
    "cost_capex_usd", "cost_rent_usd", "cost_energy_usd", "energy_kwh", "rent_usd_per_gpu_hour",
    "price_usd", "marginal_efficiency", "algbw_bytes_per_s", "ceiling_algbw_bytes_per_s",
    "busbw_bytes_per_s", "ceiling_busbw_bytes_per_s", "scale_out", "model", "kernel", "plot",
    "gpu", "source", "calibration", "link", "stop_gpus" /* no count stops paying */,
    "memory" /* scale without --gpu or a parameter count */,
    "activation_bytes" /* scale without --tokens-per-gpu */,
    "compute_bound_batch", "compute_bound_batch_fits" /* decode: never compute-bound, as
                                                         ridge_batch */};

typedef struct ncase {
    const char *argv[24];
    int may_refuse;          /* exit 2 with a message is acceptable */
    const char *positive[4]; /* top-level keys that must be finite and > 0 */
} ncase;

static const ncase cases[] = {
    {{"train", "--gpu", "h100-sxm", "--gpus", "1", "--model", "llama-2-7b", "--tokens", "2T"},
     0, {"gpu_days", "wall_s", "tokens_per_s"}},
    {{"train", "--gpu", "h100-sxm", "--gpus", "100000", "--model", "llama-3.1-405b", "--tokens",
      "1e15", "--zero", "3"},
     0, {"gpu_days", "wall_s", "total_flop"}},
    {{"train", "--gpu", "h100-sxm", "--gpus", "100000", "--params", "1B", "--tokens", "1"},
     0, {"wall_s", "total_flop"}},
    /* the smallest model train accepts (GP_TRAIN_PARAMS_MIN) and one token */
    {{"train", "--gpu", "rtx-4090", "--gpus", "1", "--params", "100K", "--tokens", "1"},
     0, {"wall_s"}},
    {{"train", "--gpu", "h100-sxm", "--gpus", "100000", "--model", "gpt-3-175b", "--tokens",
      "300B", "--step-time", "1ms", "--tokens-per-step", "1"},
     0, {"wall_s", "tokens_per_s"}},
    {{"decode", "--gpu", "rtx-4090", "--model", "llama-2-7b", "--context", "1"},
     0, {"ceiling_tokens_per_s", "expected_tokens_per_s"}},
    {{"decode", "--gpu", "b200", "--model", "llama-3.1-8b", "--context", "10M", "--gpus", "8"},
     0, {"ceiling_tokens_per_s", "expected_tokens_per_s", "kv_bytes"}},
    {{"decode", "--gpu", "h100-sxm", "--model", "llama-3.1-8b", "--context", "10M"},
     1, {NULL}},
    {{"decode", "--gpu", "h100-sxm", "--model", "llama-2-7b", "--batch", "100000"},
     1, {NULL}},
    {{"decode", "--gpu", "h100-sxm", "--model", "llama-2-7b", "--gpus", "100000"},
     1, {NULL}},
    {{"decode", "--gpu", "h100-sxm", "--params", "1e5", "--layers", "1", "--hidden", "1",
      "--heads", "1", "--vocab", "1"},
     0, {"ceiling_tokens_per_s"}},
    {{"decode", "--gpu", "b200", "--model", "deepseek-v3", "--gpus", "8", "--context", "1",
      "--prompt", "1"},
     1, {NULL}},
    {{"allreduce", "--link", "nvlink4", "--gpus", "1", "--bytes", "1GB"}, 0, {NULL}},
    {{"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "1B"}, 0, {"time_s"}},
    {{"allreduce", "--link", "nvlink4", "--gpus", "100000", "--bytes", "1PB", "--nodes", "12500",
      "--scale-out", "ib-ndr"},
     0, {"time_s"}},
    {{"allreduce", "--link", "nvlink4", "--gpus", "100000", "--bytes", "1B"}, 1, {NULL}},
    {{"allreduce", "--link", "pcie4-x16", "--gpus", "2", "--bytes", "0"}, 1, {NULL}},
    {{"scale", "--gpu", "h100-sxm", "--link", "nvlink4", "--model", "llama-3.1-405b",
      "--step-compute-s", "1ms", "--gpus", "1,8,100000", "--gpus-per-node", "8", "--scale-out",
      "ib-ndr"},
     0, {"grad_bytes"}},
    {{"scale", "--gpu", "h100-sxm", "--link", "nvlink4", "--grad-bytes", "1B",
      "--step-compute-s", "1000d", "--gpus", "1,2,8"},
     0, {"grad_bytes"}},
    {{"scale", "--gpu", "h100-sxm", "--link", "nvlink4", "--grad-bytes", "1PB",
      "--step-compute-s", "1ns", "--gpus", "1,8", "--strong"},
     0, {"grad_bytes"}},
    {{"roofline", "--gpu", "h100-sxm", "--precision", "bf16", "--flop", "1e27", "--bytes", "1"},
     0, {"time_s", "intensity"}},
    {{"roofline", "--gpu", "h100-sxm", "--precision", "bf16", "--flop", "1", "--bytes", "1e21"},
     0, {"time_s", "intensity"}},
    {{"roofline", "--gpu", "h100-sxm", "--precision", "bf16", "--kernel", "gemm", "--m",
      "1000000", "--n", "1000000", "--k", "1000000"},
     0, {"time_s", "total_flop"}},
    {{"roofline", "--gpu", "h100-sxm", "--precision", "fp32", "--kernel", "vector-add", "--n",
      "1"},
     0, {"time_s", "total_bytes"}},
    {{"roofline", "--gpu", "h100-sxm", "--precision", "fp16", "--kernel", "attention", "--n",
      "10M", "--k", "128"},
     0, {"time_s", "total_flop"}},
};

static int ends_with(const char *s, const char *sfx)
{
    size_t a = strlen(s), b = strlen(sfx);
    return a >= b && strcmp(s + a - b, sfx) == 0;
}

static int null_allowed(const char *key)
{
    size_t i;
    for (i = 0; i < sizeof null_ok / sizeof null_ok[0]; i++)
        if (strcmp(key, null_ok[i]) == 0)
            return 1;
    return 0;
}

/* Walk v (reached through `key` at `path`); report the first offence. */
static void walk(const json_t *v, const char *key, const char *path, char *why, size_t n)
{
    char sub[512];
    if (why[0] != '\0')
        return;
    if (json_is_null(v)) {
        if (!null_allowed(key))
            snprintf(why, n, "%s is null (a NaN or Inf reached the output?)", path);
    } else if (json_is_number(v)) {
        double x = json_number_value(v);
        if (!isfinite(x))
            snprintf(why, n, "%s is not finite", path);
        else if (x < 0 && (ends_with(key, "_s") || ends_with(key, "_days") ||
                           ends_with(key, "_hours") || ends_with(key, "_bytes") ||
                           ends_with(key, "_flop") || ends_with(key, "_per_s")))
            snprintf(why, n, "%s = %g is negative", path, x);
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)(size_t)v, k, x)
        {
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            walk(x, k, sub, why, n);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            walk(x, key, sub, why, n);
        }
    }
}

START_TEST(extreme_input_gives_finite_output)
{
    const ncase *c = &cases[_i];
    const char *argv[26];
    char *out = NULL, *err = NULL, why[600] = "", cmd[400] = "";
    json_t *j;
    json_error_t je;
    size_t i;
    int st;
    argv[0] = "--json";
    for (i = 0; c->argv[i] != NULL; i++) {
        argv[i + 1] = c->argv[i];
        strncat(cmd, c->argv[i], sizeof cmd - strlen(cmd) - 2);
        strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
    }
    argv[i + 1] = NULL;
    st = gp_test_cli(argv, &out, &err);
    if (st == 2) {
        ck_assert_msg(c->may_refuse, "%s: refused (exit 2): %s", cmd, err);
        ck_assert_msg(strstr(err, "gpuplan ") != NULL, "%s: exit 2 without a message", cmd);
    } else {
        ck_assert_msg(st == 0, "%s: exit %d; stderr: %s", cmd, st, err);
    }
    if (st == 0 || out[0] != '\0') {
        j = json_loads(out, 0, &je);
        ck_assert_msg(j != NULL, "%s: stdout is not JSON (%s): %.300s", cmd, je.text, out);
        walk(j, "", "", why, sizeof why);
        ck_assert_msg(why[0] == '\0', "%s: %s", cmd, why);
        for (i = 0; i < 4 && c->positive[i] != NULL; i++) {
            json_t *x = json_object_get(j, c->positive[i]);
            ck_assert_msg(json_is_number(x) && json_number_value(x) > 0 &&
                              isfinite(json_number_value(x)),
                          "%s: %s is not a finite positive number", cmd, c->positive[i]);
        }
        json_decref(j);
    }
    free(out);
    free(err);
}
END_TEST

Suite *gp_test_suite_numeric(void)
{
    Suite *s = suite_create("numeric");
    TCase *tc = tcase_create("numeric");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, extreme_input_gives_finite_output, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    return s;
}
