/* Calibration through the library: read a measurement file, fit the host
 * link's alpha-beta model, turn the file into a `measured:` overlay, apply it
 * over the built-in database and compare the expected figures before and
 * after.  Uses tests/data/calib/synthetic-h100.yaml (synthetic numbers with
 * known alpha and beta; docs/calibration.md).  Run from the repository root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan.h"

#define FILE_H100 "tests/data/calib/synthetic-h100.yaml"

int main(void)
{
    gp_calib *c = NULL;
    gp_calib_summary s;
    gp_calib_fit f;
    gp_db *base = NULL, *cal = NULL;
    const gp_gpu *g0, *g1;
    char *text = NULL, buf[1024];
    gp_err e;
    int rc = 1;

    gp_err_clear(&e);
    if (gp_calib_read_file(FILE_H100, &c, &e) != GP_OK ||
        gp_calib_fit_series(c, GP_CALIB_TRANSFER, "h2d-pinned", 0, 0, &f, &e) != GP_OK)
        goto out;
    gp_calib_summarize(c, &s);
    printf("device: %s (cc %s), %zu measured points\n", c->dev.name, c->dev.cc, c->n_pts);
    printf("h2d pinned fit: alpha %.2f us, beta %.2f GB/s, n_half %.0f kB (%zu sizes)\n",
           f.alpha * 1e6, f.beta / 1e9, f.n_half / 1e3, f.n);
    if (gp_db_open(&base, 0, NULL, 0, &e) != GP_OK ||
        gp_calib_match_gpu(base, c->dev.name, &g0, &e) != GP_OK ||
        gp_calib_overlay_gpu(c, &s, g0->id, "synthetic-h100.yaml", &text, &e) != GP_OK ||
        gp_db_open_text(&cal, 0, GP_KIND_GPU, "calib-h100-sxm.yaml", text, strlen(text), &e) !=
            GP_OK)
        goto out;
    g1 = gp_db_find_gpu(cal, g0->id);
    printf("database GPU: %s\n", g0->id);
    /* Datasheet figures (stable) against the calibrated expected figures. */
    printf("memory bandwidth: datasheet %.0f GB/s, expected with calibration %.0f GB/s (%.1f %%)\n",
           g1->mem_bw.v / 1e9, gp_gpu_expected_mem_bw(g1) / 1e9,
           100.0 * gp_gpu_expected_mem_bw(g1) / g1->mem_bw.v);
    printf("bf16 tensor GEMM: datasheet %.1f TFLOP/s, expected with calibration %.1f TFLOP/s\n",
           gp_gpu_peak(g1, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) / 1e12,
           gp_gpu_expected_peak(g1, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0) / 1e12);
    printf("calibration: %s\n", g1->calibration ? g1->calibration : "(none)");
    rc = 0;
out:
    if (rc != 0)
        fprintf(stderr, "calib_overlay example: %s\n", gp_err_format(&e, buf, sizeof buf));
    free(text);
    gp_db_free(cal);
    gp_db_free(base);
    gp_calib_free(c);
    return rc;
}
