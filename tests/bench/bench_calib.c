/* Calibration: alpha-beta fits per second (19-size sweep), measurement files
 * parsed + summarised per second (the 157-point synthetic H100 file), and the
 * `gpuplan calib show` command's wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gpuplan.h"

#define FILE_H100 "tests/data/calib/synthetic-h100.yaml"

void gp_bench_calib(const char *cli)
{
    double s[19], t[19], t0, dt, acc = 0.0;
    gp_calib_fit f;
    gp_calib_summary sum;
    gp_calib *c = NULL;
    long i, n;
    int k;

    for (k = 0; k < 19; k++) {
        s[k] = 4096.0 * (double)(1u << k);
        t[k] = 8e-6 + s[k] / 25e9;
    }
    n = 200000;
    t0 = gp_bench_now();
    for (i = 0; i < n; i++) {
        t[0] = 8e-6 + s[0] / 25e9 + (double)(i & 7) * 1e-12;
        if (gp_calib_fit_alpha_beta(s, t, 19, 1.0, &f, NULL) == GP_OK)
            acc += f.beta;
    }
    dt = gp_bench_now() - t0;
    gp_bench_rate("calib alpha-beta fit (19 sizes)", (double)n, dt);

    {
        FILE *fp = fopen(FILE_H100, "rb");
        char *buf;
        long len;
        if (fp == NULL) {
            printf("  calib: %s not found (run from the repository root)\n", FILE_H100);
            return;
        }
        fseek(fp, 0, SEEK_END);
        len = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        buf = malloc((size_t)len);
        if (buf == NULL || fread(buf, 1, (size_t)len, fp) != (size_t)len) {
            fclose(fp);
            free(buf);
            return;
        }
        fclose(fp);
        n = 200;
        t0 = gp_bench_now();
        for (i = 0; i < n; i++) {
            if (gp_calib_read_text(FILE_H100, buf, (size_t)len, &c, NULL) != GP_OK)
                break;
            gp_calib_summarize(c, &sum);
            acc += sum.mem_bw;
            gp_calib_free(c);
        }
        dt = gp_bench_now() - t0;
        gp_bench_rate("calib read + summarise (157-point file)", (double)i, dt);
        free(buf);
    }
    gp_bench_sink = acc;
    {
        const char *argv[] = {cli, "calib", "show", FILE_H100, NULL};
        gp_bench_process("gpuplan calib show (synthetic H100)", argv, 5);
    }
}
