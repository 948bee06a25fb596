/* Planning question 3 through the public API: what does the gradient
 * AllReduce cost, and does adding GPUs help?  The article's 4-GPU PCIe case
 * with a hand-described link, then the database's links: 8x H100 on NVLink
 * in nccl-tests terms, and two nodes of 4 joined by one 100 Gb/s link.
 * Build: cc scale_plan.c $(pkg-config --cflags --libs gpuplan) */
#include <stdio.h>
#include <string.h>

#include "gpuplan.h"

static int report(const char *what, const gp_scale_row *rows, const gp_scale_result *res)
{
    char v[768];
    size_t i;
    printf("%s\n", what);
    for (i = 0; i < res->n_rows; i++)
        printf("  %2ld GPUs: step %.3f s, comm %.3f s (%.1f%%), %.2fx, efficiency %.0f%%\n",
               rows[i].gpus, rows[i].step_s, rows[i].comm_s, 100.0 * rows[i].comm_fraction,
               rows[i].speedup, 100.0 * rows[i].efficiency);
    printf("  verdict: %s\n", gp_scale_verdict(res, rows, v, sizeof v));
    return 0;
}

int main(void)
{
    gp_link pcie;
    gp_scale_req q;
    gp_scale_row rows[4];
    gp_scale_result res;
    gp_err e;
    gp_db *db = NULL;
    char buf[512];
    static const long counts[4] = {1, 2, 4, 8};
    const gp_link *nvl, *p4, *roce;
    const gp_model *llama;
    double grads;

    gp_err_clear(&e);
    /* The article's link: PCIe 4.0 x16, 31.5 GB/s per direction, 25 GB/s
     * achieved, 10 us per hop. */
    memset(&pcie, 0, sizeof pcie);
    pcie.id = "pcie4-x16 (article)";
    pcie.bw.v = 31.5e9;
    pcie.bw_achievable.v = 25e9;
    pcie.latency.v = 10e-6;
    pcie.p2p = 1;
    memset(&q, 0, sizeof q);
    q.scale_up = &pcie;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    q.mode = GP_SCALING_WEAK;
    if (gp_scale_eval(&q, NULL, counts, 3, rows, &res, &e) != GP_OK) {
        fprintf(stderr, "scale_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
        return 1;
    }
    report("article: 14 GB of gradients, 2 s step, PCIe 4.0 at 25 GB/s", rows, &res);

    if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK) {
        fprintf(stderr, "scale_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
        return 1;
    }
    nvl = gp_db_find_link(db, "nvlink4");
    p4 = gp_db_find_link(db, "pcie4-x16");
    roce = gp_db_find_link(db, "roce-100");
    llama = gp_db_find_model(db, "llama-2-7b");
    if (nvl == NULL || p4 == NULL || roce == NULL || llama == NULL) {
        printf("(the built-in database lacks nvlink4, pcie4-x16, roce-100 or llama-2-7b)\n");
        gp_db_free(db);
        return 0;
    }
    {
        gp_topo t;
        gp_comm_result r;
        memset(&t, 0, sizeof t);
        t.scale_up = nvl;
        t.gpus_per_node = 8;
        t.nodes = 1;
        if (gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8589934592.0, NULL, &r, &e) !=
            GP_OK) {
            fprintf(stderr, "scale_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
            gp_db_free(db);
            return 1;
        }
        printf("8 GiB ring AllReduce on 8 GPUs over %s: %.1f ms, algbw %.0f GB/s, busbw %.0f "
               "GB/s (ceiling %.0f GB/s)\n",
               nvl->id, 1e3 * r.expected.time_s, r.expected.algbw / 1e9, r.expected.busbw / 1e9,
               r.ceiling.busbw / 1e9);
    }
    if (gp_scale_grad_bytes(llama->params.v, GP_FP16, &grads, &e) != GP_OK) {
        gp_db_free(db);
        return 1;
    }
    q.scale_up = p4;
    q.scale_out = roce;
    q.gpus_per_node = 4;
    q.nics_per_node = 1;
    q.grad_bytes = grads;
    if (gp_scale_eval(&q, NULL, counts, 4, rows, &res, &e) != GP_OK) {
        fprintf(stderr, "scale_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
        gp_db_free(db);
        return 1;
    }
    report("llama-2-7b fp16, 2 s step, nodes of 4 on PCIe, one 100 Gb/s RoCE link", rows, &res);
    gp_db_free(db);
    return 0;
}
