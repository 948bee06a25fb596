/* Units: parse every quantity form, reject bad input with a quoted message,
 * format with readable prefixes, and round-trip.  Expected values are derived
 * by hand in the comments (decimal prefixes are powers of 1000, binary ones
 * powers of 1024, 1 byte = 8 bits). */
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

typedef struct good_case {
    const char *in;
    gp_qty kind;
    double want;
} good_case;

static const good_case good[] = {
    /* ---- sizes (bytes) ---- */
    {"14GB", GP_Q_BYTES, 14e9},                 /* 14 * 1000^3 */
    {"13GiB", GP_Q_BYTES, 13958643712.0},       /* 13 * 2^30 = 13 * 1073741824 */
    {"512MiB", GP_Q_BYTES, 536870912.0},        /* 512 * 2^20 = 2^29 */
    {"4096", GP_Q_BYTES, 4096.0},               /* bare number = bytes */
    {"4096B", GP_Q_BYTES, 4096.0},
    {"1kB", GP_Q_BYTES, 1000.0},                /* k = 1000 */
    {"1KB", GP_Q_BYTES, 1000.0},                /* K = 1000 too (not 1024) */
    {"2KiB", GP_Q_BYTES, 2048.0},               /* 2 * 1024 */
    {"80GiB", GP_Q_BYTES, 85899345920.0},       /* 80 * 2^30 (H100 HBM label) */
    {"50MiB", GP_Q_BYTES, 52428800.0},          /* 50 * 1048576 */
    {"1.5TB", GP_Q_BYTES, 1.5e12},
    {"1TiB", GP_Q_BYTES, 1099511627776.0},      /* 2^40 */
    {"2PB", GP_Q_BYTES, 2e15},
    {"1PiB", GP_Q_BYTES, 1125899906842624.0},   /* 2^50 */
    {"0", GP_Q_BYTES, 0.0},                     /* zero allowed */
    {"14 GB", GP_Q_BYTES, 14e9},                /* one space before the unit */
    {"  14GB\t", GP_Q_BYTES, 14e9},             /* outer whitespace trimmed */
    {"+3GB", GP_Q_BYTES, 3e9},                  /* explicit plus sign */
    {".5GB", GP_Q_BYTES, 5e8},
    {"5.GB", GP_Q_BYTES, 5e9},
    {"-0", GP_Q_BYTES, 0.0},                    /* negative zero is zero */
    /* ---- rates (bytes/s) ---- */
    {"25GB/s", GP_Q_RATE, 25e9},
    {"1TB/s", GP_Q_RATE, 1e12},
    {"3.35TB/s", GP_Q_RATE, 3.35e12},           /* H100 SXM HBM3 */
    {"400Gb/s", GP_Q_RATE, 50e9},               /* 400e9 bits / 8 */
    {"100Mb/s", GP_Q_RATE, 12.5e6},             /* 100e6 / 8 */
    {"1.5TiB/s", GP_Q_RATE, 1649267441664.0},   /* 1.5 * 2^40 */
    {"1GiB/s", GP_Q_RATE, 1073741824.0},
    {"8b/s", GP_Q_RATE, 1.0},                   /* 8 bits = 1 byte */
    {"12B/s", GP_Q_RATE, 12.0},
    /* The common spellings keep bits and bytes apart by the case of b, or
     * the word bit: 400Gbps = 400Gbit/s = 400Gb/s = 50e9 B/s; GBps = GB/s. */
    {"400Gbps", GP_Q_RATE, 50e9},               /* 400e9 bits / 8 */
    {"200Gbit/s", GP_Q_RATE, 25e9},             /* 200e9 / 8 */
    {"800Gbits/s", GP_Q_RATE, 100e9},           /* 800e9 / 8 */
    {"1.6Tbps", GP_Q_RATE, 200e9},              /* 1.6e12 / 8 */
    {"50GBps", GP_Q_RATE, 50e9},                /* bytes: capital B */
    {"64bps", GP_Q_RATE, 8.0},                  /* bare bps: 64 / 8 */
    {"1Gibit/s", GP_Q_RATE, 134217728.0},       /* 2^30 / 8 */
    {"5e9", GP_Q_RATE, 5e9},                    /* bare number = bytes/s */
    /* ---- FLOP/s ---- */
    {"989.4TFLOPS", GP_Q_FLOPS, 989.4e12},      /* H100 SXM bf16 dense */
    {"660TOPS", GP_Q_FLOPS, 660e12},
    {"1.2PFLOP/s", GP_Q_FLOPS, 1.2e15},
    {"5e12", GP_Q_FLOPS, 5e12},
    {"19.5TFLOP/s", GP_Q_FLOPS, 19.5e12},
    {"82.6TFLOPS", GP_Q_FLOPS, 82.6e12},        /* RTX 4090 fp32 */
    {"312 TFLOPS", GP_Q_FLOPS, 312e12},
    {"2TFlops", GP_Q_FLOPS, 2e12},              /* base in any case */
    {"100GOP/s", GP_Q_FLOPS, 100e9},
    {"1EFLOPS", GP_Q_FLOPS, 1e18},
    /* ---- FLOP counts ---- */
    {"3.15e23", GP_Q_FLOP, 3.15e23},            /* GPT-3 training compute */
    {"3.15e23FLOP", GP_Q_FLOP, 3.15e23},
    {"1.2PFLOP", GP_Q_FLOP, 1.2e15},
    {"2 GFLOP", GP_Q_FLOP, 2e9},
    {"1PF-day", GP_Q_FLOP, 8.64e19},            /* 1e15 * 86400 */
    {"3.64e3PF-days", GP_Q_FLOP, 3.14496e23},   /* 3640 * 8.64e19 */
    {"1PFLOP/s-day", GP_Q_FLOP, 8.64e19},
    /* ---- counts ---- */
    {"7B", GP_Q_COUNT, 7e9},                    /* B = billion for counts */
    {"300B", GP_Q_COUNT, 300e9},
    {"1.5T", GP_Q_COUNT, 1.5e12},
    {"175e9", GP_Q_COUNT, 175e9},
    {"4K", GP_Q_COUNT, 4000.0},
    {"32k", GP_Q_COUNT, 32000.0},               /* k and K are both 1000 */
    {"1M", GP_Q_COUNT, 1e6},
    {"4Ki", GP_Q_COUNT, 4096.0},                /* Ki = 1024 for counts too */
    {"128Ki", GP_Q_COUNT, 131072.0},            /* 128 * 1024 */
    {"6.74B", GP_Q_COUNT, 6.74e9},              /* Llama-2 7B exact params */
    {"8", GP_Q_COUNT, 8.0},
    /* ---- durations (s) ---- */
    {"2s", GP_Q_DURATION, 2.0},
    {"350ms", GP_Q_DURATION, 0.35},
    {"20us", GP_Q_DURATION, 20e-6},
    {"20\xc2\xb5s", GP_Q_DURATION, 20e-6},      /* micro sign */
    {"20\xce\xbcs", GP_Q_DURATION, 20e-6},      /* Greek mu */
    {"5ns", GP_Q_DURATION, 5e-9},
    {"391ns", GP_Q_DURATION, 391e-9},
    {"3min", GP_Q_DURATION, 180.0},             /* 3 * 60 */
    {"1.5h", GP_Q_DURATION, 5400.0},            /* 1.5 * 3600 */
    {"21d", GP_Q_DURATION, 1814400.0},          /* 21 * 86400 */
    {"0.25", GP_Q_DURATION, 0.25},              /* bare number = seconds */
    /* ---- fractions ---- */
    {"45%", GP_Q_FRACTION, 0.45},
    {"0.45", GP_Q_FRACTION, 0.45},
    {"100%", GP_Q_FRACTION, 1.0},
    {"0%", GP_Q_FRACTION, 0.0},
    {"1", GP_Q_FRACTION, 1.0},
    {"80 %", GP_Q_FRACTION, 0.8},
    {"12.5%", GP_Q_FRACTION, 0.125},
    /* ---- frequency, power, tokens/s, numbers ---- */
    {"1410MHz", GP_Q_FREQUENCY, 1.41e9},        /* A100 boost clock */
    {"1.98GHz", GP_Q_FREQUENCY, 1.98e9},
    {"100kHz", GP_Q_FREQUENCY, 1e5},
    {"60", GP_Q_FREQUENCY, 60.0},
    {"700W", GP_Q_POWER, 700.0},                /* H100 SXM TDP */
    {"1kW", GP_Q_POWER, 1000.0},
    {"1.5MW", GP_Q_POWER, 1.5e6},
    {"72tok/s", GP_Q_TOKEN_RATE, 72.0},
    {"1.5ktok/s", GP_Q_TOKEN_RATE, 1500.0},
    {"0.5", GP_Q_NUMBER, 0.5},
    {"1e3", GP_Q_NUMBER, 1000.0},
    {"2.385", GP_Q_NUMBER, 2.385},
};

START_TEST(parse_every_form)
{
    const good_case *c = &good[_i];
    gp_err e;
    double v = -1.0;
    int rc;
    gp_err_clear(&e);
    rc = gp_parse_qty(c->in, c->kind, "--x", &v, &e);
    ck_assert_msg(rc == GP_OK, "'%s' (kind %d): rc %d: %s", c->in, (int)c->kind, rc,
                  e.msg);
    GP_ASSERT_REL(v, c->want, 1e-15);
}
END_TEST

START_TEST(sub_multiples_are_correctly_rounded)
{
    /* ms/us/ns and % divide by an exact power of ten, so the result is the
     * double nearest the decimal value (350 * 1e-3 would not be). */
    double v;
    ck_assert_int_eq(gp_parse_duration("350ms", &v, NULL), GP_OK);
    ck_assert(v == 0.35);
    ck_assert_int_eq(gp_parse_duration("20us", &v, NULL), GP_OK);
    ck_assert(v == 20e-6);
    ck_assert_int_eq(gp_parse_fraction("45%", &v, NULL), GP_OK);
    ck_assert(v == 0.45);
    ck_assert_int_eq(gp_parse_count("7B", &v, NULL), GP_OK);
    ck_assert(v == 7e9);
}
END_TEST

START_TEST(wrappers_and_null_context)
{
    double v;
    ck_assert_int_eq(gp_parse_bytes("13GiB", &v, NULL), GP_OK);
    GP_ASSERT_REL(v, 13.0 * 1073741824.0, 0);
    ck_assert_int_eq(gp_parse_rate("400Gb/s", &v, NULL), GP_OK);
    GP_ASSERT_REL(v, 50e9, 0);
    ck_assert_int_eq(gp_parse_flops("660TOPS", &v, NULL), GP_OK);
    GP_ASSERT_REL(v, 660e12, 0);
    ck_assert_int_eq(gp_parse_count("300B", &v, NULL), GP_OK);
    GP_ASSERT_REL(v, 300e9, 0);
    ck_assert_int_eq(gp_parse_duration("21d", &v, NULL), GP_OK);
    GP_ASSERT_REL(v, 21.0 * 86400.0, 0);
    ck_assert_int_eq(gp_parse_fraction("45%", &v, NULL), GP_OK);
    GP_ASSERT_REL(v, 0.45, 0);
    /* Errors without a context still return the code; out untouched. */
    v = 2.385;
    ck_assert_int_eq(gp_parse_bytes("14XB", &v, NULL), GP_EINVAL);
    ck_assert_int_eq(gp_parse_fraction("150%", &v, NULL), GP_ERANGE);
    ck_assert(v == 2.385);
    /* NULL out is allowed (validation only). */
    ck_assert_int_eq(gp_parse_qty("14GB", GP_Q_BYTES, NULL, NULL, NULL), GP_OK);
}
END_TEST

/* ---- bad input ----------------------------------------------------------- */

typedef struct bad_case {
    const char *in;
    gp_qty kind;
    int status;
    const char *why; /* a phrase the message must contain */
} bad_case;

static const bad_case bad[] = {
    {"", GP_Q_BYTES, GP_EINVAL, "empty"},
    {"   ", GP_Q_COUNT, GP_EINVAL, "empty"},
    {"14XB", GP_Q_BYTES, GP_EINVAL, "unknown unit 'XB' (use B, kB"},
    {"14GB x", GP_Q_BYTES, GP_EINVAL, "unknown unit 'GB x'"},
    {"14GBx", GP_Q_BYTES, GP_EINVAL, "unknown unit 'GBx'"},
    {"1,000", GP_Q_COUNT, GP_EINVAL, "unexpected ',000'"},
    {"14G", GP_Q_BYTES, GP_EINVAL, "unknown unit 'G'"},      /* G of what? */
    {"8Gb", GP_Q_BYTES, GP_EINVAL, "bits"},                  /* sizes take B */
    {"14GB", GP_Q_RATE, GP_EINVAL, "write 'GB/s'"},          /* size as rate */
    {"1PFLOP", GP_Q_FLOPS, GP_EINVAL, "not a rate"},
    {"7b", GP_Q_COUNT, GP_EINVAL, "unknown unit 'b'"},
    {"5mW", GP_Q_POWER, GP_EINVAL, "unknown unit 'mW'"},
    {"3tflops", GP_Q_FLOPS, GP_EINVAL, "unknown unit"},     /* t is no prefix */
    {"1e3x", GP_Q_NUMBER, GP_EINVAL, "no unit allowed"},
    {"2s", GP_Q_NUMBER, GP_EINVAL, "no unit allowed"},
    {"nan", GP_Q_NUMBER, GP_EINVAL, "finite"},
    {"NaN", GP_Q_BYTES, GP_EINVAL, "finite"},
    {"inf", GP_Q_FLOPS, GP_EINVAL, "finite"},
    {"-Infinity", GP_Q_DURATION, GP_EINVAL, "finite"},
    {"0x10", GP_Q_BYTES, GP_EINVAL, "hexadecimal"},
    {"0X1p4", GP_Q_NUMBER, GP_EINVAL, "hexadecimal"},
    {"GB", GP_Q_BYTES, GP_EINVAL, "expected a number"},
    {".", GP_Q_NUMBER, GP_EINVAL, "expected a number"},
    {"e5", GP_Q_NUMBER, GP_EINVAL, "expected a number"},
    {"1e", GP_Q_NUMBER, GP_EINVAL, "unexpected 'e'"},
    {"1 2", GP_Q_NUMBER, GP_EINVAL, "unexpected '2'"},
    {"14 G B", GP_Q_BYTES, GP_EINVAL, "unknown unit 'G B'"},
    {"-5GB", GP_Q_BYTES, GP_ERANGE, "negative"},
    {"-1", GP_Q_DURATION, GP_ERANGE, "negative"},
    {"-0.1", GP_Q_FRACTION, GP_ERANGE, "negative"},
    {"1e400", GP_Q_NUMBER, GP_ERANGE, "overflows"},          /* strtod ERANGE */
    {"1e-400", GP_Q_NUMBER, GP_ERANGE, "too small"},         /* underflow */
    {"1e300EB", GP_Q_BYTES, GP_ERANGE, "overflows"},         /* 1e318 > DBL_MAX */
    {"1e308TB/s", GP_Q_RATE, GP_ERANGE, "overflows"},
    {"150%", GP_Q_FRACTION, GP_ERANGE, "[0, 1]"},
    {"45", GP_Q_FRACTION, GP_ERANGE, "did you mean '45%'"},
    {"1.0001", GP_Q_FRACTION, GP_ERANGE, "[0, 1]"},
    {"5 parsecs", GP_Q_DURATION, GP_EINVAL, "unknown unit 'parsecs'"},
    {"1Ki", GP_Q_FLOPS, GP_EINVAL, "unknown unit 'Ki'"},
    {"1KiFLOPS", GP_Q_FLOPS, GP_EINVAL, "unknown unit"},     /* no binary FLOPS */
    {"400gbps", GP_Q_RATE, GP_EINVAL, "unknown unit 'gbps'"}, /* prefix case */
    {"400GBits/s", GP_Q_RATE, GP_EINVAL, "unknown unit"},    /* bytes or bits? */
    {"400Gbit", GP_Q_RATE, GP_EINVAL, "unknown unit"},       /* a rate needs /s */
    {"8Gbit", GP_Q_BYTES, GP_EINVAL, "unknown unit"},        /* bits: rates only */
};

START_TEST(reject_bad_input)
{
    const bad_case *c = &bad[_i];
    gp_err e;
    char quoted[128], full[1024];
    double v = 2.385;
    int rc;
    gp_err_clear(&e);
    rc = gp_parse_qty(c->in, c->kind, "--opt-x", &v, &e);
    ck_assert_msg(rc == c->status, "'%s': rc %d, want %d (%s)", c->in, rc,
                  c->status, e.msg);
    ck_assert_int_eq((int)e.code, c->status);
    ck_assert(v == 2.385); /* out untouched on error */
    ck_assert_str_eq(e.where, "--opt-x");
    snprintf(quoted, sizeof quoted, "'%s'", c->in);
    ck_assert_msg(strstr(e.msg, quoted) != NULL, "message lacks %s: %s", quoted,
                  e.msg);
    ck_assert_msg(strstr(e.msg, c->why) != NULL, "message lacks '%s': %s", c->why,
                  e.msg);
    /* The formatted error names the option and quotes the input. */
    gp_err_format(&e, full, sizeof full);
    ck_assert_msg(strncmp(full, "--opt-x: ", 9) == 0, "%s", full);
    ck_assert_msg(strstr(full, quoted) != NULL, "%s", full);
}
END_TEST

START_TEST(reject_names_the_kind)
{
    gp_err e;
    gp_err_clear(&e);
    gp_parse_qty("14XB", GP_Q_BYTES, "--bytes", NULL, &e);
    ck_assert_str_eq(e.msg, "'14XB' is not a size: unknown unit 'XB' (use B, kB, "
                            "MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB)");
    gp_parse_qty("-5", GP_Q_DURATION, "--time", NULL, &e);
    ck_assert_str_eq(e.msg, "'-5' is out of range for a duration: negative values "
                            "are not allowed");
    /* NULL input and NULL what. */
    ck_assert_int_eq(gp_parse_qty(NULL, GP_Q_BYTES, NULL, NULL, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "");
    ck_assert_ptr_nonnull(strstr(e.msg, "missing value"));
    /* An invalid kind. */
    ck_assert_int_eq(gp_parse_qty("1", GP_Q__COUNT, "--k", NULL, &e), GP_EINVAL);
}
END_TEST

START_TEST(reject_quotes_control_bytes_and_long_input)
{
    gp_err e;
    char longin[300];
    gp_err_clear(&e);
    /* A newline in the input is shown as \x0a, not raw. */
    ck_assert_int_eq(gp_parse_qty("1\nGB", GP_Q_BYTES, "--b", NULL, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'1\\x0aGB'"));
    ck_assert_ptr_null(strchr(e.msg, '\n'));
    /* Control bytes in the unit are escaped in the reason too. */
    ck_assert_int_eq(gp_parse_qty("1GB\x01", GP_Q_BYTES, "--b", NULL, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown unit 'GB\\x01'"));
    ck_assert_ptr_null(strchr(e.msg, '\x01'));
    /* A long input is cut with "..." and the message still fits. */
    memset(longin, '7', sizeof longin - 1);
    longin[sizeof longin - 1] = '\0';
    longin[10] = 'x';
    ck_assert_int_eq(gp_parse_qty(longin, GP_Q_COUNT, "--n", NULL, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "...'"));
    ck_assert(strlen(e.msg) < sizeof e.msg);
}
END_TEST

/* ---- integers ------------------------------------------------------------ */

START_TEST(parse_int_good)
{
    long v;
    ck_assert_int_eq(gp_parse_int("8", 1, "--gpus", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 8);
    ck_assert_int_eq(gp_parse_int("1K", 1, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 1000);
    ck_assert_int_eq(gp_parse_int("4Ki", 1, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 4096);
    ck_assert_int_eq(gp_parse_int("32k", 1, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 32000);
    ck_assert_int_eq(gp_parse_int("7B", 1, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 7000000000L);
    ck_assert_int_eq(gp_parse_int(" 16 ", 1, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 16);
    ck_assert_int_eq(gp_parse_int("0", 0, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(gp_parse_int("-3", -5, "--n", &v, NULL), GP_OK);
    ck_assert_int_eq(v, -3);
    ck_assert_int_eq(gp_parse_int("9223372036854775807", 0, "--n", &v, NULL),
                     GP_OK);
    ck_assert(v == LONG_MAX);
    ck_assert_int_eq(gp_parse_int("-9223372036854775808", LONG_MIN, "--n", &v, NULL),
                     GP_OK);
    ck_assert(v == LONG_MIN);
}
END_TEST

typedef struct bad_int {
    const char *in;
    long min;
    int status;
    const char *why;
} bad_int;

static const bad_int bad_ints[] = {
    {"2.5", 1, GP_EINVAL, "whole number"},
    {"1.5K", 1, GP_EINVAL, "whole number"},
    {"1e3", 1, GP_EINVAL, "whole number"},
    {"", 1, GP_EINVAL, "empty"},
    {"x", 1, GP_EINVAL, "expected digits"},
    {"nan", 1, GP_EINVAL, "finite"},
    {"0x10", 1, GP_EINVAL, "hexadecimal"},
    {"8GPU", 1, GP_EINVAL, "unknown suffix 'GPU'"},
    {"0", 1, GP_ERANGE, "at least 1"},
    {"-1", 0, GP_ERANGE, "at least 0"},
    {"9223372036854775808", 0, GP_ERANGE, "does not fit"},   /* LONG_MAX + 1 */
    {"10000000000000000T", 0, GP_ERANGE, "does not fit"},    /* 1e28 */
    {"-9223372036854775809", LONG_MIN, GP_ERANGE, "does not fit"},
};

START_TEST(parse_int_bad)
{
    const bad_int *c = &bad_ints[_i];
    gp_err e;
    long v = 42;
    char quoted[64];
    int rc;
    gp_err_clear(&e);
    rc = gp_parse_int(c->in, c->min, "--gpus", &v, &e);
    ck_assert_msg(rc == c->status, "'%s': rc %d (%s)", c->in, rc, e.msg);
    ck_assert_int_eq(v, 42);
    ck_assert_str_eq(e.where, "--gpus");
    snprintf(quoted, sizeof quoted, "'%s'", c->in);
    ck_assert_msg(strstr(e.msg, quoted) != NULL, "%s", e.msg);
    ck_assert_msg(strstr(e.msg, c->why) != NULL, "%s", e.msg);
}
END_TEST

/* ---- formatting ---------------------------------------------------------- */

typedef struct fmt_case {
    double v;
    gp_qty kind;
    int digits, binary;
    const char *want;
} fmt_case;

static const fmt_case fmts[] = {
    {72.0, GP_Q_TOKEN_RATE, 1, 0, "72.0 tok/s"},
    {1500.0, GP_Q_TOKEN_RATE, 1, 0, "1.5 ktok/s"},
    {14e9, GP_Q_BYTES, 1, 0, "14.0 GB"},
    {0.84, GP_Q_DURATION, 2, 0, "0.84 s"},
    {989.4e12, GP_Q_FLOPS, 1, 0, "989.4 TFLOP/s"},
    {25e9, GP_Q_RATE, 1, 0, "25.0 GB/s"},
    {524288.0, GP_Q_BYTES, 1, 1, "512.0 KiB"},           /* 512 * 1024 */
    {13958643712.0, GP_Q_BYTES, 2, 1, "13.00 GiB"},      /* 13 * 2^30 */
    {13958643712.0, GP_Q_BYTES, 2, 0, "13.96 GB"},       /* 13.958.. e9 */
    {512.0, GP_Q_BYTES, 0, 0, "512 B"},
    {0.0, GP_Q_BYTES, 1, 0, "0.0 B"},
    {999.96e9, GP_Q_BYTES, 1, 0, "1.0 TB"},              /* rounds up a rung */
    {1023.99 * 1024.0, GP_Q_BYTES, 1, 1, "1.0 MiB"},     /* same, binary */
    {50e9, GP_Q_RATE, 2, 1, "50.00 GB/s"},               /* rates stay decimal */
    {6.74e9, GP_Q_COUNT, 2, 0, "6.74 B"},
    {7e9, GP_Q_COUNT, 1, 0, "7.0 B"},
    {4000.0, GP_Q_COUNT, 1, 0, "4.0 K"},
    {300.0, GP_Q_COUNT, 0, 0, "300"},
    {1.5e12, GP_Q_COUNT, 1, 0, "1.5 T"},
    {2.5e15, GP_Q_COUNT, 2, 0, "2.50e15"},               /* past T: scientific */
    {3.15e23, GP_Q_FLOP, 2, 0, "3.15e23 FLOP"},          /* past P: scientific */
    {1.2e15, GP_Q_FLOP, 1, 0, "1.2 PFLOP"},
    {2.0, GP_Q_DURATION, 1, 0, "2.0 s"},
    {0.35, GP_Q_DURATION, 2, 0, "0.35 s"},               /* >= 100 ms: seconds */
    {0.05, GP_Q_DURATION, 1, 0, "50.0 ms"},
    {20e-6, GP_Q_DURATION, 1, 0, "20.0 us"},
    {5e-9, GP_Q_DURATION, 1, 0, "5.0 ns"},
    {90.0, GP_Q_DURATION, 1, 0, "1.5 min"},              /* 90 / 60 */
    {5400.0, GP_Q_DURATION, 1, 0, "1.5 h"},              /* 5400 / 3600 */
    {1797120.0, GP_Q_DURATION, 1, 0, "20.8 d"},          /* 20.8 * 86400 */
    {0.0, GP_Q_DURATION, 3, 0, "0.000 s"},
    {0.45, GP_Q_FRACTION, 1, 0, "45.0%"},
    {1.41e9, GP_Q_FREQUENCY, 2, 0, "1.41 GHz"},
    {700.0, GP_Q_POWER, 0, 0, "700 W"},
    {1500.0, GP_Q_POWER, 1, 0, "1.5 kW"},
    {2.385, GP_Q_NUMBER, 3, 0, "2.385"},
    {1e20, GP_Q_NUMBER, 1, 0, "1.0e20"},
    {-2.5e9, GP_Q_BYTES, 1, 0, "-2.5 GB"},               /* differences */
    {1.0, GP_Q_BYTES, -3, 0, "1 B"},                     /* digits clamped */
    /* Past the last prefix: scientific in the base unit, not a 300-digit
     * number (decode --params 1e300 printed one).  2e299 B; 999.9 EB stays
     * 999.9 EB; 1e21 B = 1000 EB -> 1.0e21 B; 1e30 s / 86400 = 1.1574e25 d. */
    {2e299, GP_Q_BYTES, 2, 0, "2.00e299 B"},
    {999.9e18, GP_Q_BYTES, 1, 0, "999.9 EB"},
    {1e21, GP_Q_BYTES, 1, 0, "1.0e21 B"},
    {2e299, GP_Q_BYTES, 2, 1, "2.00e299 B"},
    {5e24, GP_Q_RATE, 1, 0, "5.0e24 B/s"},
    {1e30, GP_Q_DURATION, 2, 0, "1.16e25 d"},
    /* Days go scientific from 10^4 (27 years), as the wall-clock row does:
     * 9999.94 d prints as it is; 171239.988 d (a ledger beside 1.319e6 d)
     * and 9999.96 d, which would round to 10000.0, in scientific form. */
    {9999.94 * 86400.0, GP_Q_DURATION, 1, 0, "9999.9 d"},
    {9999.96 * 86400.0, GP_Q_DURATION, 1, 0, "1.0e4 d"},
    {171239.988 * 86400.0, GP_Q_DURATION, 3, 0, "1.712e5 d"},
    {5e300, GP_Q_TOKEN_RATE, 1, 0, "5.0e300 tok/s"},
};

START_TEST(format_readable)
{
    const fmt_case *c = &fmts[_i];
    char buf[64];
    ck_assert_str_eq(gp_format_qty(c->v, c->kind, c->digits, c->binary, buf,
                                   sizeof buf),
                     c->want);
}
END_TEST

START_TEST(format_non_finite_and_small_buffers)
{
    char buf[16], small[5];
    int k;
    for (k = 0; k < GP_Q__COUNT; k++) {
        ck_assert_str_eq(gp_format_qty(NAN, (gp_qty)k, 1, 0, buf, sizeof buf), "n/a");
        ck_assert_str_eq(gp_format_qty(INFINITY, (gp_qty)k, 1, 0, buf, sizeof buf),
                         "n/a");
        ck_assert_str_eq(gp_format_qty(-INFINITY, (gp_qty)k, 1, 0, buf, sizeof buf),
                         "n/a");
    }
    /* Truncated, terminated, and the byte after the buffer is untouched. */
    memset(buf, '#', sizeof buf);
    gp_format_qty(989.4e12, GP_Q_FLOPS, 1, 0, buf, 5);
    ck_assert_str_eq(buf, "989.");
    ck_assert_int_eq(buf[5], '#');
    gp_format_qty(1.7e308, GP_Q_NUMBER, 15, 0, small, sizeof small);
    ck_assert_int_eq(small[4], '\0');
    ck_assert_ptr_null(gp_format_qty(1.0, GP_Q_BYTES, 1, 0, NULL, 10));
    buf[0] = 'z';
    gp_format_qty(1.0, GP_Q_BYTES, 1, 0, buf, 0);
    ck_assert_int_eq(buf[0], 'z');
}
END_TEST

/* Values a hair under a rung must never print as a full step ("1000.0 GB",
 * "1024.0 KiB", "60.0 s", "100.0 ms", "1000.0 us"): either the lower rung
 * shows at most step - 10^-digits, or the next rung shows 1.0. */
START_TEST(format_never_prints_a_full_step)
{
    static const struct {
        double v;
        gp_qty kind;
        int binary;
        const char *bad;
    } c[] = {
        {999.95e9, GP_Q_BYTES, 0, "1000.0"},      {999.9499999e9, GP_Q_BYTES, 0, "1000.0"},
        {999.9500001e9, GP_Q_BYTES, 0, "1000.0"}, {1023.95 * 1024.0, GP_Q_BYTES, 1, "1024.0"},
        {59.95, GP_Q_DURATION, 0, "60.0 s"},      {59.96, GP_Q_DURATION, 0, "60.0 s"},
        {99.95e-3, GP_Q_DURATION, 0, "100.0 ms"}, {999.95e-6, GP_Q_DURATION, 0, "1000.0 us"},
        {999.96e12, GP_Q_FLOPS, 0, "1000.0"},     {999.96e12, GP_Q_COUNT, 0, "1000.0"},
    };
    char buf[64];
    size_t i;
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        gp_format_qty(c[i].v, c[i].kind, 1, c[i].binary, buf, sizeof buf);
        ck_assert_msg(strstr(buf, c[i].bad) == NULL, "%.10g -> '%s'", c[i].v, buf);
    }
    /* 59.96 s rounds to 60.0 s, so it moves up: 59.96 / 60 = 0.999 -> "1.0 min". */
    ck_assert_str_eq(gp_format_qty(59.96, GP_Q_DURATION, 1, 0, buf, sizeof buf),
                     "1.0 min");
}
END_TEST

/* Format with 6 decimals, parse back: equal within the printed precision. */
typedef struct trip_case {
    double v;
    gp_qty kind;
    int binary;
} trip_case;

static const trip_case trips[] = {
    {14e9, GP_Q_BYTES, 0},          {13958643712.0, GP_Q_BYTES, 1},
    {123.0, GP_Q_BYTES, 0},         {3.35e12, GP_Q_RATE, 0},
    {50e9, GP_Q_RATE, 0},           {989.4e12, GP_Q_FLOPS, 0},
    {1.2e18, GP_Q_FLOPS, 0},        {3.15e23, GP_Q_FLOP, 0},
    {1.2e15, GP_Q_FLOP, 0},         {6.74e9, GP_Q_COUNT, 0},
    {2.5e16, GP_Q_COUNT, 0},        {42.0, GP_Q_COUNT, 0},
    {0.35, GP_Q_DURATION, 0},       {20e-6, GP_Q_DURATION, 0},
    {391e-9, GP_Q_DURATION, 0},     {90.0, GP_Q_DURATION, 0},
    {5400.0, GP_Q_DURATION, 0},     {1814400.0, GP_Q_DURATION, 0},
    {0.45, GP_Q_FRACTION, 0},       {1.41e9, GP_Q_FREQUENCY, 0},
    {700.0, GP_Q_POWER, 0},         {72.0, GP_Q_TOKEN_RATE, 0},
    {2.385, GP_Q_NUMBER, 0},        {1e-7, GP_Q_NUMBER, 0},
    {0.0, GP_Q_DURATION, 0},        {0.0, GP_Q_BYTES, 1},
    {2e299, GP_Q_BYTES, 0},         {1e30, GP_Q_DURATION, 0},
};

/* Decimals that tell a figure from its threshold: 49.94 vs 50 prints
 * "50" and "50" at 0 decimals, "49.9" and "50.0" at 1; 0.72032 vs 0.72:
 * "0.720" twice at 3, "0.7203" and "0.7200" at 4; a figure equal to its
 * threshold never parts, so the search stops at 6; one that parts at
 * the starting count keeps it. */
START_TEST(format_apart_digits)
{
    ck_assert_int_eq(gp_format_apart_digits(49.94, 50.0, 0), 1);
    ck_assert_int_eq(gp_format_apart_digits(0.72032, 0.72, 3), 4);
    ck_assert_int_eq(gp_format_apart_digits(0.5, 0.5, 2), 6);
    ck_assert_int_eq(gp_format_apart_digits(0.31, 0.5, 2), 2);
    /* digits is clamped as gp_format_qty's is: a negative one came back
     * as given, and "%.*f" reads a negative precision as 6. */
    ck_assert_int_eq(gp_format_apart_digits(49.94, 50.0, -3), 1);
    ck_assert_int_eq(gp_format_apart_digits(3.0, 4.0, -3), 0);
    ck_assert_int_eq(gp_format_apart_digits(0.5, 0.5, 99), 15);
}
END_TEST

START_TEST(format_round_trips)
{
    const trip_case *c = &trips[_i];
    char buf[64];
    double back = -1.0;
    gp_err e;
    gp_err_clear(&e);
    gp_format_qty(c->v, c->kind, 6, c->binary, buf, sizeof buf);
    ck_assert_msg(gp_parse_qty(buf, c->kind, "rt", &back, &e) == GP_OK,
                  "'%s' did not parse back: %s", buf, e.msg);
    /* 6 decimals of a value >= 1 in its unit: relative error <= 5e-7. */
    GP_ASSERT_REL(back, c->v, 1e-6);
}
END_TEST

/* A host program that calls setlocale(LC_ALL, "") for a German or French
 * user gets a decimal comma in strtod and printf.  The quantities gpuplan
 * reads and writes are data, not prose: "3.35GB" must parse, "3,35GB" must
 * not, and gp_format_qty's output must parse back, whatever the locale (it
 * failed: every parse of a '.' was "malformed number" and the built-in
 * database did not load). */
START_TEST(parse_and_format_ignore_the_locale)
{
    double v = 0.0;
    long l = 0;
    char buf[64];
    gp_err e;
    if (!gp_test_comma_locale()) {
        fprintf(stderr, "units/locale: no decimal-comma locale on this machine; skipped\n");
        return;
    }
    gp_err_clear(&e);
    ck_assert_int_eq(gp_parse_bytes("3.35GB", &v, &e), GP_OK);
    GP_ASSERT_REL(v, 3.35e9, 0);
    ck_assert_int_eq(gp_parse_rate(" 1.5 TB/s ", &v, &e), GP_OK);
    GP_ASSERT_REL(v, 1.5e12, 0);
    ck_assert_int_eq(gp_parse_qty("2.5e-3", GP_Q_NUMBER, "x", &v, &e), GP_OK);
    GP_ASSERT_REL(v, 2.5e-3, 0);
    ck_assert_int_eq(gp_parse_qty(".5", GP_Q_FRACTION, "x", &v, &e), GP_OK);
    GP_ASSERT_REL(v, 0.5, 0);
    ck_assert_int_eq(gp_parse_count("6.74B", &v, &e), GP_OK);
    GP_ASSERT_REL(v, 6.74e9, 0);
    ck_assert_int_eq(gp_parse_qty("1e400", GP_Q_NUMBER, "x", &v, &e), GP_ERANGE);
    /* The locale's own form is not the grammar's. */
    ck_assert_int_eq(gp_parse_bytes("3,35GB", &v, &e), GP_EINVAL);
    ck_assert_int_eq(gp_parse_qty("2,5", GP_Q_NUMBER, "x", &v, &e), GP_EINVAL);
    ck_assert_int_eq(gp_parse_int("4Ki", 1, "--gpus", &l, &e), GP_OK);
    ck_assert_int_eq(l, 4096);

    ck_assert_str_eq(gp_format_qty(3.35e9, GP_Q_BYTES, 2, 0, buf, sizeof buf), "3.35 GB");
    ck_assert_str_eq(gp_format_qty(0.45, GP_Q_FRACTION, 1, 0, buf, sizeof buf), "45.0%");
    ck_assert_str_eq(gp_format_qty(3.15e23, GP_Q_FLOP, 2, 0, buf, sizeof buf), "3.15e23 FLOP");
    ck_assert_str_eq(gp_format_qty(0.84, GP_Q_DURATION, 2, 0, buf, sizeof buf), "0.84 s");
    ck_assert_str_eq(gp_format_qty(0.5, GP_Q_NUMBER, 3, 0, buf, sizeof buf), "0.500");
    ck_assert_int_eq(gp_parse_rate(gp_format_qty(25e9, GP_Q_RATE, 1, 0, buf, sizeof buf), &v, &e),
                     GP_OK);
    GP_ASSERT_REL(v, 25e9, 0);
    setlocale(LC_ALL, "C"); /* CK_FORK=no (make valgrind): the next test's */
}
END_TEST

/* The built-in database is YAML text parsed at run time: under a decimal
 * comma it failed ("builtin:formats/awq-int4-g128.yaml:11:7: ... '4.15625'
 * is not a number: malformed number"). */
START_TEST(database_loads_under_a_decimal_comma)
{
    gp_db *db = NULL;
    gp_err e;
    const gp_gpu *g;
    if (!gp_test_comma_locale()) {
        fprintf(stderr, "units/locale: no decimal-comma locale on this machine; skipped\n");
        return;
    }
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, NULL, 0, &e) == GP_OK, "%s", e.msg);
    g = gp_db_find_gpu(db, "h100");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->mem_bw.v, 3.35e12, 0);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 989.4e12, 0);
    gp_db_free(db);
    setlocale(LC_ALL, "C");
}
END_TEST

Suite *gp_test_suite_units(void)
{
    Suite *s = suite_create("units");
    TCase *tp = tcase_create("parse");
    TCase *tb = tcase_create("reject");
    TCase *ti = tcase_create("int");
    TCase *tf = tcase_create("format");
    TCase *tl = tcase_create("locale");
    tcase_add_loop_test(tp, parse_every_form, 0, (int)(sizeof good / sizeof good[0]));
    tcase_add_test(tp, sub_multiples_are_correctly_rounded);
    tcase_add_test(tp, wrappers_and_null_context);
    tcase_add_loop_test(tb, reject_bad_input, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tb, reject_names_the_kind);
    tcase_add_test(tb, reject_quotes_control_bytes_and_long_input);
    tcase_add_test(ti, parse_int_good);
    tcase_add_loop_test(ti, parse_int_bad, 0,
                        (int)(sizeof bad_ints / sizeof bad_ints[0]));
    tcase_add_loop_test(tf, format_readable, 0, (int)(sizeof fmts / sizeof fmts[0]));
    tcase_add_test(tf, format_non_finite_and_small_buffers);
    tcase_add_test(tf, format_never_prints_a_full_step);
    tcase_add_test(tf, format_apart_digits);
    tcase_add_test(tl, parse_and_format_ignore_the_locale);
    tcase_add_test(tl, database_loads_under_a_decimal_comma);
    tcase_add_loop_test(tf, format_round_trips, 0,
                        (int)(sizeof trips / sizeof trips[0]));
    suite_add_tcase(s, tp);
    suite_add_tcase(s, tb);
    suite_add_tcase(s, ti);
    suite_add_tcase(s, tf);
    tcase_set_timeout(tl, 60); /* localedef, once, where no such locale is installed */
    suite_add_tcase(s, tl);
    return s;
}
