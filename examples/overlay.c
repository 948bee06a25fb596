/* A user overlay through the public API: one gpus/ file holding a
 * calibration that names the built-in H100 SXM by its alias and a new GPU,
 * loaded over the built-in database with gp_db_open_text (gp_db_open does
 * the same for each file of a --db DIR; a new entry must be complete).
 * Overlay figures win field by field and remember where they came from; the
 * measured bandwidth becomes the "expected" figure the models use.  Schema:
 * docs/hwdb.md. */
#include <stdio.h>
#include <string.h>

#include "gpuplan.h"

static const char calib[] =
    "- id: h100\n"                                 /* alias of h100-sxm */
    "  measured:\n"
    "    source: \"my STREAM copy run, node a17\"\n"
    "    date: 2026-12-01\n"
    "    memory_bandwidth: 2.9TB/s\n"
    "    compute:\n"
    "      bf16: {tensor: 700TFLOPS}\n"
    "- id: acme-x1\n"                              /* a new GPU: complete */
    "  name: Acme X1 96GB\n"
    "  vendor: Acme\n"
    "  architecture: Foo\n"
    "  sources: {acme: \"Acme X1 datasheet, rev. 2\"}\n"
    "  src: acme\n"
    "  sm_count: 100\n"
    "  compute: {bf16: {tensor: 800TFLOPS}, fp32: {cuda: 50TFLOPS}}\n"
    "  memory: {capacity: 96GiB, bandwidth: 4TB/s}\n"
    "  host_link: pcie5-x16\n"
    "  power: 800W\n"
    "  efficiency: {memory: 0.9, compute: 0.75}\n";

static const char bad[] = "id: h100\n"
                          "memory:\n"
                          "  bandwith: 3TB/s\n"; /* a typo must not pass */

int main(void)
{
    gp_db *db;
    gp_err e;
    char buf[1024], a[64], b[64];
    const gp_gpu *g;

    gp_err_clear(&e);
    if (gp_db_open_text(&db, 0, GP_KIND_GPU, "my-gpus.yaml", calib, strlen(calib), &e) !=
        GP_OK) {
        fprintf(stderr, "%s\n", gp_err_format(&e, buf, sizeof buf));
        return 1;
    }
    if (gp_db_get_gpu(db, "h100", "--gpu", &g, &e) != GP_OK) {
        fprintf(stderr, "%s\n", gp_err_format(&e, buf, sizeof buf));
        gp_db_free(db);
        return 1;
    }
    printf("%s (%s)\n", g->id, g->name);
    printf("  datasheet memory bandwidth  %s  from %s\n",
           gp_format_qty(g->mem_bw.v, GP_Q_RATE, 2, 0, a, sizeof a),
           strncmp(g->mem_bw.origin, "builtin:", 8) == 0 ? "the built-in database" : "an overlay");
    printf("  measured memory bandwidth   %s  from %s\n",
           gp_format_qty(g->meas_mem_bw.v, GP_Q_RATE, 2, 0, a, sizeof a), g->meas_mem_bw.origin);
    printf("  expected (used by models)   %s  (%.0f%% of datasheet)\n",
           gp_format_qty(gp_gpu_expected_mem_bw(g), GP_Q_RATE, 2, 0, a, sizeof a),
           100.0 * gp_gpu_expected_mem_bw(g) / g->mem_bw.v);
    printf("  bf16 tensor: datasheet %s, expected %s\n",
           gp_format_qty(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), GP_Q_FLOPS, 1,
                         0, a, sizeof a),
           gp_format_qty(gp_gpu_expected_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                         GP_Q_FLOPS, 1, 0, b, sizeof b));
    printf("  calibration: %s\n", g->calibration);
    if (gp_db_get_gpu(db, "acme-x1", "--gpu", &g, &e) != GP_OK) {
        fprintf(stderr, "%s\n", gp_err_format(&e, buf, sizeof buf));
        gp_db_free(db);
        return 1;
    }
    printf("%s (%s), new: bf16 tensor %s, memory %s, from %s\n", g->id, g->name,
           gp_format_qty(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), GP_Q_FLOPS, 1,
                         0, a, sizeof a),
           gp_format_qty(g->mem_bw.v, GP_Q_RATE, 1, 0, b, sizeof b), g->mem_bw.origin);
    gp_db_free(db);

    /* Loading validates: the error names the file, line:col and the field. */
    if (gp_db_open_text(&db, 0, GP_KIND_GPU, "typo.yaml", bad, strlen(bad), &e) != GP_OK)
        printf("refused: %s\n", gp_err_format(&e, buf, sizeof buf));
    else
        gp_db_free(db);
    return 0;
}
