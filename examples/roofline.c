/* Roofline through the public API: the article's worked numbers (digest rows
 * 1, 2, 9) from the built-in database, and what tiling and fusion change.
 * MODEL: docs/models/roofline.md. */
#include <stdio.h>

#include "gpuplan.h"

static int show(const gp_gpu *g, gp_precision prec, const char *kernel,
                const gp_kernel_shape *s)
{
    const gp_kernel_desc *k;
    gp_kernel_counts c;
    gp_roofline_params p;
    gp_roofline r;
    gp_err e;
    int rc;
    gp_err_clear(&e);
    if ((rc = gp_kernel_get(kernel, &k, &e)) != GP_OK ||
        (rc = gp_kernel_eval(k, s, &c, &e)) != GP_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return rc;
    }
    gp_roofline_params_init(&p);
    p.precision = prec;
    p.pipeline = k->pipeline;
    if (gp_gpu_peak(g, prec, k->pipeline, GP_ACC_FP32, 0) <= 0.0)
        p.pipeline = GP_PIPE__COUNT; /* the GPU's default for prec */
    if ((rc = gp_roofline_eval(g, &p, c.flop, c.bytes, &r, &e)) != GP_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return rc;
    }
    printf("%-16s %-9s %-5s %-6s I = %9.4g FLOP/B  ridge %6.1f  %s-bound (%.3gx %s the ridge)\n",
           kernel, g->id, gp_precision_name(prec), gp_pipeline_name(r.pipeline), r.intensity,
           r.critical, r.compute_bound ? "compute" : "memory",
           r.compute_bound ? 1.0 / r.below_ridge : r.below_ridge,
           r.compute_bound ? "above" : "below");
    return GP_OK;
}

int main(void)
{
    gp_db *db = NULL;
    gp_err e;
    const gp_gpu *g4090, *h100;
    gp_kernel_shape s;
    int rc = 0;

    gp_err_clear(&e);
    if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK) {
        fprintf(stderr, "database: %s\n", e.msg);
        return 1;
    }
    g4090 = gp_db_find_gpu(db, "rtx-4090");
    h100 = gp_db_find_gpu(db, "h100-sxm");
    if (g4090 == NULL || h100 == NULL) {
        gp_db_free(db);
        return 1;
    }
    printf("ridge rtx-4090 fp32 cuda:   %.1f FLOP/B\n",
           gp_roofline_ridge(g4090, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0));
    printf("ridge h100-sxm bf16 tensor: %.1f FLOP/B (2:4 sparse: %.1f)\n",
           gp_roofline_ridge(h100, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
           gp_roofline_ridge(h100, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1));

    gp_kernel_shape_init(&s);
    s.n = 1e8;
    rc |= show(g4090, GP_FP32, "vector-add", &s);
    s.chain = 4;
    rc |= show(g4090, GP_FP32, "fused", &s);

    gp_kernel_shape_init(&s);
    s.m = s.n = s.k = 4096;
    s.elem_bytes = 2;
    rc |= show(h100, GP_BF16, "gemm", &s);
    s.tile = 128;
    rc |= show(h100, GP_BF16, "gemm", &s);
    s.tile = 0;
    s.m = 1;
    rc |= show(h100, GP_BF16, "gemm", &s);

    gp_kernel_shape_init(&s);
    s.n = 4096;
    s.k = 128;
    s.elem_bytes = 2;
    rc |= show(h100, GP_BF16, "attention", &s);
    rc |= show(h100, GP_BF16, "flash-attention", &s);
    gp_db_free(db);
    return rc != 0;
}
