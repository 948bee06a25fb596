/* Unit parsing and formatting throughput through the public API. */
#include "bench.h"

#include "gpuplan/units.h"

void gp_bench_units(const char *cli)
{
    static const struct {
        const char *s;
        gp_qty kind;
    } in[] = {
        {"14GB", GP_Q_BYTES},          {"13GiB", GP_Q_BYTES},
        {"400Gb/s", GP_Q_RATE},        {"3.35TB/s", GP_Q_RATE},
        {"989.4TFLOPS", GP_Q_FLOPS},   {"3.15e23", GP_Q_FLOP},
        {"7B", GP_Q_COUNT},            {"350ms", GP_Q_DURATION},
        {"45%", GP_Q_FRACTION},        {"1410MHz", GP_Q_FREQUENCY},
        {"700W", GP_Q_POWER},          {"0.5", GP_Q_NUMBER},
    };
    const int n_in = (int)(sizeof in / sizeof in[0]);
    const long rounds = 200000;
    long r;
    int i;
    double t0, t1, acc = 0.0, v;
    char buf[64];
    gp_err e;
    (void)cli;

    t0 = gp_bench_now();
    for (r = 0; r < rounds; r++)
        for (i = 0; i < n_in; i++)
            if (gp_parse_qty(in[i].s, in[i].kind, "--x", &v, &e) == GP_OK)
                acc += v;
    t1 = gp_bench_now();
    gp_bench_rate("gp_parse_qty (12 mixed forms)", (double)rounds * n_in, t1 - t0);

    t0 = gp_bench_now();
    for (r = 0; r < rounds / 4; r++) {
        if (gp_parse_qty("14XB", GP_Q_BYTES, "--bytes", &v, &e) != GP_OK)
            acc += (double)e.msg[0];
    }
    t1 = gp_bench_now();
    gp_bench_rate("gp_parse_qty rejecting '14XB'", (double)(rounds / 4), t1 - t0);

    t0 = gp_bench_now();
    for (r = 0; r < rounds * 10; r++) {
        long k;
        if (gp_parse_int("4Ki", 1, "--n", &k, &e) == GP_OK)
            acc += (double)k;
    }
    t1 = gp_bench_now();
    gp_bench_rate("gp_parse_int ('4Ki')", (double)(rounds * 10), t1 - t0);

    t0 = gp_bench_now();
    for (r = 0; r < rounds * 2; r++) {
        gp_format_qty(989.4e12 + (double)r, GP_Q_FLOPS, 1, 0, buf, sizeof buf);
        acc += (double)buf[0];
    }
    t1 = gp_bench_now();
    gp_bench_rate("gp_format_qty (FLOP/s)", (double)(rounds * 2), t1 - t0);
    gp_bench_sink = acc;
}
