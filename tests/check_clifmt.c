/* The CLI's number formatting (docs/units.md, "Numbers in table output",
 * "Money", "Numbers in --json and --csv") and its command-line front door:
 * the shared helpers of cli/common.c, then the tables, JSON and messages
 * that go through them. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "../cli/cli.h"

/* The table row "  LABEL<pad> VALUE", LABEL padded to 28 as gp_cli_row
 * prints it: strstr of it in out, else a failure naming the row. */
static void assert_row(const char *out, const char *label, const char *value)
{
    char want[160];
    snprintf(want, sizeof want, "\n  %-28s %s", label, value);
    ck_assert_msg(out != NULL && strstr(out, want) != NULL, "no row '%s' in:\n%s", want + 1,
                  out != NULL ? out : "(null)");
}

/* No C exponent ("e+NN", "e-0N") anywhere in the text. */
static void assert_no_c_exponent(const char *out)
{
    const char *p;
    for (p = out; (p = strchr(p, 'e')) != NULL; p++)
        if (p > out && p[-1] >= '0' && p[-1] <= '9' &&
            (p[1] == '+' || (p[1] == '-' && p[2] == '0')))
            ck_abort_msg("C exponent at '%.24s' in:\n%s", p - 4 > out ? p - 4 : out, out);
}

/* ---- helpers --------------------------------------------------------------------------- */

START_TEST(exp_fix_drops_plus_and_zeros)
{
    static const char *const cases[][2] = {
        {"3.15e+23", "3.15e23"},
        {"ridge 1.57e+04 FLOP/B", "ridge 1.57e4 FLOP/B"},
        {"2.5e-05 s", "2.5e-5 s"},
        {"1e+00", "1e0"},
        {"5.e+20", "5.e20"},
        {"1e+100x and 2e-300", "1e100x and 2e-300"},
        /* Not a number's exponent: left alone. */
        {"rccl-tests develop:ae3e635", "rccl-tests develop:ae3e635"},
        {"see e+5, size-e-05", "see e+5, size-e-05"},
        {"1e5 and 3.15e23", "1e5 and 3.15e23"},
        {"", ""},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char b[64];
        snprintf(b, sizeof b, "%s", cases[i][0]);
        ck_assert_str_eq(gp_cli_exp_fix(b), cases[i][1]);
    }
    ck_assert_ptr_null(gp_cli_exp_fix(NULL));
}
END_TEST

START_TEST(num_keeps_significant_digits)
{
    char b[32];
    /* %.4g printed "9.7e+04" beside "1.569e+06": two digits, then four. */
    ck_assert_str_eq(gp_cli_num(97000.0, 4, b, sizeof b), "9.700e4");
    ck_assert_str_eq(gp_cli_num(1569000.0, 4, b, sizeof b), "1.569e6");
    ck_assert_str_eq(gp_cli_num(214000.0, 4, b, sizeof b), "2.140e5");
    ck_assert_str_eq(gp_cli_num(9.0e30, 4, b, sizeof b), "9.000e30");
    /* Fixed below 10^4: trailing zeros kept, never a bare point. */
    ck_assert_str_eq(gp_cli_num(1234.0, 4, b, sizeof b), "1234");
    ck_assert_str_eq(gp_cli_num(9999.4, 4, b, sizeof b), "9999");
    ck_assert_str_eq(gp_cli_num(9999.6, 4, b, sizeof b), "1.000e4"); /* rounds up a rung */
    ck_assert_str_eq(gp_cli_num(295.34, 4, b, sizeof b), "295.3");
    ck_assert_str_eq(gp_cli_num(0.5, 4, b, sizeof b), "0.5000");
    ck_assert_str_eq(gp_cli_num(5.0, 1, b, sizeof b), "5");
    ck_assert_str_eq(gp_cli_num(5e20, 1, b, sizeof b), "5e20");
    ck_assert_str_eq(gp_cli_num(2.5e-5, 2, b, sizeof b), "2.5e-5");
    ck_assert_str_eq(gp_cli_num(-15704.76, 4, b, sizeof b), "-1.570e4");
    ck_assert_str_eq(gp_cli_num(NAN, 4, b, sizeof b), "n/a");
    /* gp_cli_g: %g (trailing zeros dropped) in the same form. */
    ck_assert_str_eq(gp_cli_g(1.5e12, 4, b, sizeof b), "1.5e12");
    ck_assert_str_eq(gp_cli_g(3.3859e24, 3, b, sizeof b), "3.39e24");
    ck_assert_str_eq(gp_cli_g(8.22, 3, b, sizeof b), "8.22");
    ck_assert_str_eq(gp_cli_g(INFINITY, 3, b, sizeof b), "n/a");
}
END_TEST

START_TEST(usd_one_rule)
{
    char b[32];
    /* decode printed "USD 8" (%.4g of 8.0003) beside "USD 17.01" and
     * "USD 4.524"; cents below 100, at least 2 significant digits. */
    ck_assert_str_eq(gp_cli_usd(8.0003, b, sizeof b), "USD 8.00");
    ck_assert_str_eq(gp_cli_usd(17.0149, b, sizeof b), "USD 17.01");
    ck_assert_str_eq(gp_cli_usd(4.524, b, sizeof b), "USD 4.52");
    ck_assert_str_eq(gp_cli_usd(0.8717, b, sizeof b), "USD 0.87");
    ck_assert_str_eq(gp_cli_usd(0.0512, b, sizeof b), "USD 0.051");
    ck_assert_str_eq(gp_cli_usd(0.08, b, sizeof b), "USD 0.080");
    ck_assert_str_eq(gp_cli_usd(0.0, b, sizeof b), "USD 0.00");
    ck_assert_str_eq(gp_cli_usd(99.996, b, sizeof b), "USD 100");
    /* Whole dollars to a million, then 4 digits on the count ladder. */
    ck_assert_str_eq(gp_cli_usd(237719.83, b, sizeof b), "USD 237720");
    ck_assert_str_eq(gp_cli_usd(999999.4, b, sizeof b), "USD 999999");
    ck_assert_str_eq(gp_cli_usd(999999.6, b, sizeof b), "USD 1.000 M");
    ck_assert_str_eq(gp_cli_usd(13371740.45, b, sizeof b), "USD 13.37 M");
    ck_assert_str_eq(gp_cli_usd(1.145e14, b, sizeof b), "USD 114.5 T");
    ck_assert_str_eq(gp_cli_usd(1.145e15, b, sizeof b), "USD 1.145e15");
    ck_assert_str_eq(gp_cli_usd(NAN, b, sizeof b), "n/a");
}
END_TEST

START_TEST(jbytes_rounds_up)
{
    json_t *j = gp_cli_jbytes(5349782323.2);
    ck_assert(json_is_real(j));
    ck_assert(json_real_value(j) == 5349782324.0);
    json_decref(j);
    j = gp_cli_jbytes(141107412992.0); /* whole: as it is */
    ck_assert(json_real_value(j) == 141107412992.0);
    json_decref(j);
    j = gp_cli_jbytes(NAN);
    ck_assert(json_is_null(j));
    json_decref(j);
}
END_TEST

/* ---- tables ---------------------------------------------------------------------------- */

/* 70B x 15T on 8 H100 at MFU 0.5: 6 x 70e9 x 15e12 = 6.3e24 FLOP (%.4g
 * printed "6.3e+24"); / (989.4e12 x 0.5) = 1.273499e10 GPU-s = 3,537,497.5
 * GPU-hours = 147,395.7 GPU-days; / 8 = 18,424.5 days of wall-clock, which
 * the table printed as "18424 days" beside "1.474e+05".  Rent 3.78 x
 * 3,537,497.5 = USD 13,371,740; energy 8 x 700 W x PUE 1.2 x 18,424.47 d x
 * 86,400 s / 3.6e6 = 2,971,498 kWh x USD 0.08 = USD 237,720. */
START_TEST(train_table_numbers)
{
    const char *argv[] = {"train", "--gpu", "h100", "--params", "70B", "--tokens", "15T",
                          "--gpus", "8", "--mfu", "0.5", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert_msg(strstr(out, "gpuplan train: 7e10 params x 1.5e13 tokens on 8 x") != NULL, "%s",
                  out);
    assert_row(out, "model FLOPs", "6.300e24 FLOP ");
    assert_row(out, "GPU-days", "1.474e5            3.537e6 GPU-hours");
    assert_row(out, "wall-clock", "1.842e4 days       on 8 GPUs");
    assert_row(out, "ceiling GPU-days (MFU 1)", "7.370e4 "); /* 147,395.7 x 0.5 */
    assert_row(out, "rent", "USD 13.37 M ");
    assert_row(out, "energy", "USD 237720         2.971e6 kWh");
    assert_row(out, "electricity", "USD 0.080/kWh ");
    assert_row(out, "rent", "USD 3.78 per GPU-hour ");
    /* The ledger's days: scientific from 10^4, as the wall-clock row. */
    assert_row(out, "compute", "1.842e4 d ");
    assert_no_c_exponent(out);
    assert_no_c_exponent(err); /* the warnings say it the same way */
    free(out);
    free(err);
}
END_TEST

/* Past the FLOP ladder's last prefix the mantissa keeps 4 significant
 * digits whatever power of ten it stands at: 6 x 73e9 x 2e12 = 8.76e23
 * FLOP is "8.760e23", not the "8.8e23" that counting digits on the
 * ladder's 876.0 gave. */
START_TEST(train_flop_mantissa_digits)
{
    const char *argv[] = {"train", "--gpu", "h100", "--params", "73B", "--tokens", "2T",
                          "--gpus", "8", "--mfu", "0.5", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    assert_row(out, "model FLOPs", "8.760e23 FLOP ");
    free(out);
    free(err);
}
END_TEST

/* The reviewer's run: 1.5T x 1e18 tokens on 102,400 H100s, step model.  The
 * wall-clock printed "12328384 days" beside "GPU-days 1.262e+12"; the
 * ledger "171239.988 d" beside "1.319e6 d".  The figures are the JSON's
 * (the step model's arithmetic is pinned by check_trainstep): wall_days
 * x 102,400 = gpu_days. */
START_TEST(train_large_durations_scientific)
{
    const char *argv[] = {"train", "--gpu", "h100", "--params", "1.5T", "--tokens", "1e18",
                          "--gpus", "102400", "--mfu", "model", "--scale-out", "ib-ndr",
                          "--tp", "8", "--pp", "32", NULL};
    const char *js[] = {"--json", "train", "--gpu", "h100", "--params", "1.5T", "--tokens",
                        "1e18", "--gpus", "102400", "--mfu", "model", "--scale-out", "ib-ndr",
                        "--tp", "8", "--pp", "32", NULL};
    char *out = NULL, *err = NULL, want[64];
    json_t *j = gp_test_cli_json(js);
    double wall = gp_test_jnum(j, "wall_days");
    GP_ASSERT_REL(wall * 102400.0, gp_test_jnum(j, "gpu_days"), 1e-12);
    ck_assert(wall > 1.2325e7 && wall < 1.2335e7);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    assert_row(out, "wall-clock", "1.233e7 days ");
    assert_row(out, "GPU-days", "1.262e12 ");
    snprintf(want, sizeof want, "%s d", "1.712e5"); /* memory: 171,239.988 d */
    assert_row(out, "memory", want);
    assert_no_c_exponent(out);
    free(out);
    free(err);
}
END_TEST

/* Roofline on an H100 (bf16 989.4 TFLOP/s): the host link's ridge is
 * 989.4e12 / 63e9 = 15,704.76 FLOP/B, printed "1.57e+04" (three digits:
 * %.4g drops the zero); the device's 989.4e12 / 3.35e12 = 295.34. */
START_TEST(roofline_ridges)
{
    const char *argv[] = {"roofline", "--gpu", "h100", "--precision", "bf16", "--flop", "1e12",
                          "--bytes", "1e9", NULL};
    char *out = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
    ck_assert_msg(strstr(out, "ridge 1.570e4 FLOP/B, not on the path") != NULL, "%s", out);
    assert_row(out, "ridge (critical intensity)", "295.3 FLOP/B ");
    assert_row(out, "intensity", "1000 FLOP/B "); /* 1e12 / 1e9 */
    assert_no_c_exponent(out);
    free(out);
}
END_TEST

/* decode's cost per 1M tokens: USD 3.78 x GPUs / (aggregate tok/s x 3600)
 * x 1e6.  mixtral-8x7b on 2 H100s: the ceiling's 262.5155 tok/s gives
 * 7.56 / (262.5155 x 3600) x 1e6 = USD 7.9995, which %.4g printed "USD 8"
 * beside the expected figure's "USD 17.01" (123.4249 tok/s); the rent
 * "USD 3.78/GPU-h". */
START_TEST(decode_cost_cents)
{
    const char *argv[] = {"decode", "--gpu", "h100", "--model", "mixtral-8x7b", "--gpus", "2",
                          NULL};
    const char *js[] = {"--json", "decode", "--gpu", "h100", "--model", "mixtral-8x7b", "--gpus",
                        "2", NULL};
    char *out = NULL, *p;
    json_t *j = gp_test_cli_json(js);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_usd_per_mtok"),
                  3.78 * 2.0 / (gp_test_jnum(j, "aggregate_ceiling_tokens_per_s") * 3600.0) * 1e6,
                  1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_usd_per_mtok"), 7.9995, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_usd_per_mtok"), 17.0144, 1e-4);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
    ck_assert_msg(strstr(out, "cost per 1M tokens           USD 8.00 ") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "cost per 1M tokens           USD 17.01 ") != NULL, "%s", out);
    assert_row(out, "rent", "USD 3.78/GPU-h ");
    /* No cost row with fewer than two decimals. */
    for (p = out; (p = strstr(p, "cost per 1M tokens")) != NULL; p++) {
        const char *v = strstr(p, "USD ");
        const char *dot = v != NULL ? strchr(v, '.') : NULL;
        ck_assert_msg(dot != NULL && dot[1] >= '0' && dot[1] <= '9' && dot[2] >= '0' &&
                          dot[2] <= '9',
                      "%.60s", p);
    }
    assert_no_c_exponent(out);
    free(out);
}
END_TEST

/* ---- JSON byte counts ------------------------------------------------------------------ */

/* The reserve is 1 GiB + 5 % of an H100's 85,520,809,984 usable bytes =
 * 1,073,741,824 + 4,276,040,499.2 = 5,349,782,323.2 B: 5,349,782,324
 * whole.  scale's replica of llama-2-7b: weights = gradients =
 * 6,738,415,616 x 2 = 13,476,831,232, Adam's 12 B a parameter
 * 80,860,987,392, with the reserve 113,164,432,179.2 -> 113,164,432,180. */
START_TEST(json_memory_bytes_whole)
{
    const char *sc[] = {"--json", "scale", "--gpu", "h100", "--link", "nvlink4", "--model",
                        "llama-2-7b", "--step-compute-s", "1", NULL};
    const char *tr[] = {"--json", "train", "--gpu", "h100", "--params", "7B", "--tokens", "1T",
                        "--gpus", "64", "--zero", "3", NULL};
    json_t *j = gp_test_cli_json(sc);
    const json_t *m = json_object_get(j, "memory");
    double act;
    ck_assert_ptr_nonnull(m);
    ck_assert(gp_test_jnum(m, "reserve_bytes") == 5349782324.0);
    ck_assert(gp_test_jnum(m, "total_bytes") == 113164432180.0);
    ck_assert(gp_test_jnum(m, "weight_bytes") == 13476831232.0);
    ck_assert(gp_test_jnum(m, "optimizer_bytes") == 80860987392.0);
    json_decref(j);
    j = gp_test_cli_json(tr);
    ck_assert(gp_test_jnum(j, "reserve_bytes") == 5349782324.0);
    act = gp_test_jnum(j, "activation_bytes");
    ck_assert_msg(act == floor(act), "activation_bytes %.17g", act);
    ck_assert(gp_test_jnum(j, "total_bytes") == floor(gp_test_jnum(j, "total_bytes")));
    /* 7e9 x 16 B / 64 GPUs (ZeRO-3) = 1.75e9: whole already. */
    ck_assert(gp_test_jnum(j, "state_bytes") == 1.75e9);
    json_decref(j);
}
END_TEST

/* ---- calib show ------------------------------------------------------------------------ */

START_TEST(calib_show_sections)
{
    const char *bs[] = {"calib", "show", "tests/data/calib/a100-babelstream-cuda.txt", NULL};
    const char *nv[] = {"calib", "show", "tests/data/calib/h100-nvbandwidth.txt", NULL};
    const char *nc[] = {"calib", "show", "tests/data/calib/a100-nccl-tests-allreduce.txt", NULL};
    const char *rc[] = {"calib", "show", "tests/data/calib/mi300x-rccl-tests-allreduce.txt", NULL};
    char *out = NULL;
    /* BabelStream and nvbandwidth: one size a test, no fits: no section. */
    ck_assert_int_eq(gp_test_cli(bs, &out, NULL), 0);
    ck_assert_msg(strstr(out, "alpha-beta fits") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "(BabelStream 5.0 (CUDA, double), no date)") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(gp_test_cli(nv, &out, NULL), 0);
    ck_assert_msg(strstr(out, "alpha-beta fits") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "(nvbandwidth v0.10.0, no date)") != NULL, "%s", out);
    /* No GPU matched: no efficiency section either. */
    ck_assert_msg(strstr(out, "efficiency vs datasheet") == NULL, "%s", out);
    free(out);
    /* nccl-tests, written by nccl-tests: said once. */
    ck_assert_int_eq(gp_test_cli(nc, &out, NULL), 0);
    ck_assert_msg(strstr(out, "(nccl-tests, no date)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "alpha-beta fits") != NULL, "%s", out);
    free(out);
    /* rccl-tests read as the nccl-tests format: both said. */
    ck_assert_int_eq(gp_test_cli(rc, &out, NULL), 0);
    ck_assert_msg(strstr(out, "(nccl-tests, rccl-tests develop:ae3e635, no date)") != NULL, "%s",
                  out);
    free(out);
}
END_TEST

/* ---- rates in the spellings vendors print ---------------------------------------------- */

/* A ring AllReduce of 1 GB on 8 GPUs over a link of the user's own at
 * 400 Gb/s = 50e9 B/s a direction, alpha 0: 2 x 7/8 x 1e9 / 50e9 =
 * 0.035 s, algbw 1e9 / 0.035 = 28.571e9 B/s, whichever spelling. */
START_TEST(link_bw_spellings)
{
    static const char *const rates[] = {"400Gb/s", "400Gbps", "400Gbit/s", "50GBps", "50GB/s"};
    size_t i;
    for (i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        const char *argv[] = {"--json", "allreduce", "--link-bw", rates[i], "--gpus", "8",
                              "--bytes", "1GB", NULL};
        json_t *j = gp_test_cli_json(argv);
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 0.035, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(j, "algbw_bytes_per_s"), 1e9 / 0.035, 1e-12);
        json_decref(j);
    }
}
END_TEST

/* ---- the front door -------------------------------------------------------------------- */

START_TEST(version_and_help)
{
    const char *ver[] = {"--version", NULL};
    const char *ver_x[] = {"--version", "extra", NULL};
    const char *help[] = {"help", NULL};
    const char *help_d[] = {"help", "decode", NULL};
    const char *help_d2[] = {"--help", "decode", NULL};
    const char *d_help[] = {"decode", "--help", NULL};
    const char *help_x[] = {"help", "nosuch", NULL};
    const char *help_xx[] = {"help", "decode", "train", NULL};
    const char *ghelp[] = {"--help", NULL};
    char *out = NULL, *err = NULL, *want = NULL;
    ck_assert_int_eq(gp_test_cli(ver, &out, NULL), 0);
    ck_assert(strncmp(out, "gpuplan ", 8) == 0);
    free(out);
    ck_assert_int_eq(gp_test_cli(ver_x, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "'--version' takes no argument (got 'extra'); try 'gpuplan "
                              "--help'") != NULL,
                  "%s", err);
    free(out);
    free(err);
    /* help COMMAND is COMMAND --help, to the byte. */
    ck_assert_int_eq(gp_test_cli(d_help, &want, NULL), 0);
    ck_assert_int_eq(gp_test_cli(help_d, &out, NULL), 0);
    ck_assert_str_eq(out, want);
    free(out);
    ck_assert_int_eq(gp_test_cli(help_d2, &out, NULL), 0);
    ck_assert_str_eq(out, want);
    free(out);
    free(want);
    ck_assert_int_eq(gp_test_cli(ghelp, &want, NULL), 0);
    ck_assert_int_eq(gp_test_cli(help, &out, NULL), 0);
    ck_assert_str_eq(out, want);
    ck_assert(strstr(out, "(or 'gpuplan help COMMAND')") != NULL);
    free(out);
    free(want);
    ck_assert_int_eq(gp_test_cli(help_x, &out, &err), 2);
    ck_assert_msg(strstr(err, "help: unknown command 'nosuch' (commands:") != NULL, "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(help_xx, &out, &err), 2);
    ck_assert_msg(strstr(err, "'help' takes one command") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* Every command says a missing option in one wording. */
START_TEST(required_one_wording)
{
    static const struct {
        const char *argv[12];
        const char *says;
    } cases[] = {
        {{"decode", "--model", "llama-2-7b", NULL}, "gpuplan decode: option '--gpu' is required; "
                                                    "try 'gpuplan decode --help'"},
        {{"roofline", "--precision", "bf16", "--flop", "1", "--bytes", "1", NULL},
         "gpuplan roofline: option '--gpu' is required;"},
        {{"roofline", "--gpu", "h100", "--flop", "1", "--bytes", "1", NULL},
         "option '--precision' is required (fp64 fp32"},
        {{"train", "--model", "llama-2-7b", "--tokens", "1T", NULL},
         "gpuplan train: option '--gpu' is required;"},
        {{"train", "--gpu", "h100", "--model", "llama-2-7b", NULL},
         "gpuplan train: option '--tokens' is required;"},
        {{"allreduce", "--link", "nvlink4", "--bytes", "1GB", NULL},
         "gpuplan allreduce: option '--gpus' is required;"},
        {{"allreduce", "--link", "nvlink4", "--gpus", "4", NULL},
         "gpuplan allreduce: option '--bytes' is required;"},
        {{"allreduce", "--gpus", "4", "--bytes", "1GB", NULL},
         "option '--link' (or '--gpu': its scale-up link, or '--link-bw': a link of your own) "
         "is required"},
        {{"scale", "--gpu", "h100", "--link", "nvlink4", "--params", "7B", NULL},
         "option '--step-compute-s' (or '--tokens-per-gpu') is required"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err = NULL;
        ck_assert_int_eq(gp_test_cli(cases[i].argv, NULL, &err), 2);
        ck_assert_msg(strstr(err, cases[i].says) != NULL, "want '%s', got: %s", cases[i].says,
                      err);
        free(err);
    }
}
END_TEST

Suite *gp_test_suite_clifmt(void)
{
    Suite *s = suite_create("clifmt");
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, exp_fix_drops_plus_and_zeros);
    tcase_add_test(tc, num_keeps_significant_digits);
    tcase_add_test(tc, usd_one_rule);
    tcase_add_test(tc, jbytes_rounds_up);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, train_table_numbers);
    tcase_add_test(tc, train_flop_mantissa_digits);
    tcase_add_test(tc, train_large_durations_scientific);
    tcase_add_test(tc, roofline_ridges);
    tcase_add_test(tc, decode_cost_cents);
    tcase_add_test(tc, json_memory_bytes_whole);
    tcase_add_test(tc, calib_show_sections);
    tcase_add_test(tc, link_bw_spellings);
    tcase_add_test(tc, version_and_help);
    tcase_add_test(tc, required_one_wording);
    suite_add_tcase(s, tc);
    return s;
}
