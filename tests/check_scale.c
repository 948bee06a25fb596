/* Data-parallel scaling: the article's rows 7-8, overlap, strong vs weak
 * scaling, the two-node "8 cards no faster than 4" case, bad input, and the
 * `gpuplan scale` command.  Expected values derived by hand in comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "testutil.h"

START_TEST(article_rows_7_8_weak)
{
    /* 14 GB gradients, 4 GPUs on PCIe at 25 GB/s, 2 s compute, no overlap.
     * comm = 0.84 s + 6 * 10 us = 0.84006 s; step = 2.84006 s; share =
     * 0.84006/2.84006 = 0.295789 (29.6 %); weak scaling: throughput 4 * 2 /
     * 2.84006 = 2.816842x one GPU's (2.82x), efficiency 0.704211.
     * n = 1: no communication, step 2 s, speedup 1.
     * n = 2: 2*1/2*14/25 = 0.56 s + 20 us; step 2.56002; speedup 4/2.56002 =
     * 1.562488; marginal 0.562488 >= 0.5; n = 4 marginal (2.816842 -
     * 1.562488)/2 = 0.627177: 4 pays. */
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_row rows[3];
    gp_scale_result res;
    const long gpus[3] = {1, 2, 4};
    char v[512];
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    q.mode = GP_SCALING_WEAK;
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus, 3, rows, &res, NULL), GP_OK);
    GP_ASSERT_REL(rows[0].step_s, 2.0, 1e-12);
    GP_ASSERT_REL(rows[0].speedup, 1.0, 1e-12);
    ck_assert(rows[0].comm_s == 0.0);
    GP_ASSERT_REL(rows[1].speedup, 4.0 / 2.56002, 1e-9);
    GP_ASSERT_REL(rows[2].comm_s, 0.84006, 1e-9);
    GP_ASSERT_REL(rows[2].step_s, 2.84006, 1e-9);
    GP_ASSERT_REL(rows[2].comm_fraction, 0.296, 1e-3);
    GP_ASSERT_REL(rows[2].comm_fraction, 0.84006 / 2.84006, 1e-9);
    GP_ASSERT_REL(rows[2].speedup, 2.82, 2e-3);
    GP_ASSERT_REL(rows[2].speedup, 8.0 / 2.84006, 1e-9);
    GP_ASSERT_REL(rows[2].efficiency, 2.0 / 2.84006, 1e-9);
    GP_ASSERT_REL(rows[2].marginal, (8.0 / 2.84006 - 4.0 / 2.56002) / 2.0, 1e-9);
    ck_assert_int_eq(res.best_gpus, 4);
    ck_assert_int_eq(res.reason, GP_STOP_NONE);
    gp_scale_verdict(&res, rows, v, sizeof v);
    ck_assert_msg(strstr(v, "up to 4") != NULL, "verdict: %s", v);
}
END_TEST

/* A verdict never says a figure is below the threshold while printing the
 * two alike.  14 GB on nodes of 4 (pcie4-x16, 25 GB/s, 10 us), one roce-100
 * NIC (12.2 GB/s, 5.8 us), 2 s: 8 GPUs are the ring's 2 x 7/8 x 14e9 =
 * 24.5e9 B at 12.2e9 = 2.0081967 s (the phases' 0.84 + 1.147541 s raised
 * to it) + their 2 x 3 x 10 us + 2 x 5.8 us = 71.6 us: 2.0082683 s; step
 * 4.0082683 s, speedup 16/4.0082683 = 3.991749, efficiency 0.498969:
 * "49.9%", not "50% (below 50%)".  Marginal: 3 GPUs at 1.9992x add
 * 0.9992/2 = 0.4996 of one each: "0.500 (below 0.500)" is still alike at
 * three decimals, so four: "0.4996 of one (below 0.5000)". */
START_TEST(verdict_below_threshold_prints_apart)
{
    const char *argv[] = {"scale", "--gpu", "a100", "--link", "pcie4-x16", "--grad-bytes",
                          "14GB", "--step-compute-s", "2", "--gpus", "1,2,4,8",
                          "--gpus-per-node", "4", "--scale-out", "roce-100", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    const char *v = json_string_value(json_object_get(j, "verdict"));
    json_t *r8 = json_array_get(json_object_get(j, "rows"), 3);
    gp_scale_row rows[2];
    gp_scale_result res;
    char w[512];
    GP_ASSERT_REL(gp_test_jnum(r8, "efficiency"), 2.0 / 4.0082683, 1e-7);
    ck_assert_msg(v != NULL && strstr(v, "3.99x at 49.9% efficiency (below 50.0%)") != NULL,
                  "verdict: %s", v ? v : "(none)");
    json_decref(j);

    memset(rows, 0, sizeof rows);
    memset(&res, 0, sizeof res);
    rows[0].gpus = 1;
    rows[0].nodes = 1;
    rows[0].speedup = 1.0;
    rows[0].efficiency = 1.0;
    rows[1].gpus = 3;
    rows[1].nodes = 1;
    rows[1].speedup = 1.9992;
    rows[1].efficiency = 1.9992 / 3.0;
    res.n_rows = 2;
    res.best = 0;
    res.best_gpus = 1;
    res.stop = 1;
    res.reason = GP_STOP_MARGINAL;
    res.fastest = 0;
    res.fastest_gpus = 1;
    res.threshold = 0.5;
    gp_scale_verdict(&res, rows, w, sizeof w);
    ck_assert_msg(strstr(w, "adds 0.4996 of one (below 0.5000)") != NULL, "verdict: %s", w);
}
END_TEST

/* A NIC as --link with --gpus-per-node and --scale-out already given: the
 * note points at --link, not at the options the user gave. */
START_TEST(cli_nic_as_link_with_nodes_note)
{
    const char *argv[] = {"scale", "--gpu", "h100", "--link", "ib-ndr", "--params", "7B",
                          "--step-compute-s", "1", "--gpus", "1,8,16", "--gpus-per-node", "8",
                          "--scale-out", "ib-ndr", NULL};
    char *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, NULL, &err), 0);
    ck_assert_msg(strstr(err, "--link names the link inside a node") != NULL &&
                      strstr(err, "give --gpus-per-node G") == NULL,
                  "%s", err);
    free(err);
}
END_TEST

START_TEST(cli_zero_step_refused_before_warnings)
{
    /* A 7B replica does not fit an A100: the memory warning must not come
     * ahead of the refusal of a zero step. */
    const char *argv[] = {"scale", "--gpu", "a100", "--link", "nvlink3", "--params", "7B",
                          "--step-compute-s", "0", "--gpus", "1,2", NULL};
    char *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, NULL, &err), 2);
    ck_assert_msg(strstr(err, "--step-compute-s: compute time per step must be > 0 s") != NULL &&
                      strstr(err, "warning") == NULL,
                  "%s", err);
    free(err);
}
END_TEST

START_TEST(overlap_hides_behind_backward)
{
    /* Same 4-GPU job.  overlap 1: hidden = min(0.84006, 2/3 * 2) = 0.84006,
     * step 2 s, speedup 4.  overlap 0.5: hidden 0.42003, step 2.42003.
     * Strong scaling, overlap 1, 4 GPUs: compute 0.5 s, backward 1/3 s
     * hides at most 0.333333 s: step 0.5 + 0.84006 - 0.333333 = 1.006727. */
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row row;
    gp_scale_result res;
    const long four = 4;
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&p);
    p.overlap = 1.0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.step_s, 2.0, 1e-12);
    GP_ASSERT_REL(row.speedup, 4.0, 1e-12);
    p.overlap = 0.5;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.step_s, 2.42003, 1e-9);
    p.overlap = 1.0;
    q.mode = GP_SCALING_STRONG;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.compute_s, 0.5, 1e-12);
    GP_ASSERT_REL(row.step_s, 0.5 + 0.84006 - 1.0 / 3.0, 1e-9);
    GP_ASSERT_REL(row.speedup, 2.0 / (0.5 + 0.84006 - 1.0 / 3.0), 1e-9);
    {
        /* One count only: the verdict says so; one GPU costs nothing. */
        char v[256];
        const long one = 1;
        gp_scale_verdict(&res, &row, v, sizeof v);
        ck_assert_msg(strstr(v, "4 GPUs give") != NULL, "verdict: %s", v);
        ck_assert_int_eq(gp_scale_eval(&q, &p, &one, 1, &row, &res, NULL), GP_OK);
        ck_assert(row.comm_s == 0.0);
        gp_scale_verdict(&res, &row, v, sizeof v);
        ck_assert_msg(strstr(v, "costs nothing") != NULL, "verdict: %s", v);
    }
}
END_TEST

START_TEST(two_nodes_on_100g_do_not_help)
{
    /* 7B fp16 data parallel: 6.74e9 params x 2 B = 13.48e9 B of gradients;
     * 2 s step per GPU (weak scaling); nodes of 4 GPUs on PCIe (25 GB/s,
     * 10 us), one 100 Gb/s link between (11 GB/s, 20 us).
     * n = 4: comm 2*3/4*13.48/25 = 0.8088 + 60 us = 0.80886; speedup
     * 8/2.80886 = 2.848131, efficiency 0.712.
     * n = 8 (2 nodes): comm 2.1446455 s (check_comm hierarchical_two_nodes);
     * step 4.1446455; speedup 16/4.1446455 = 3.860403, efficiency 0.4826 <
     * 0.5: adding the second node does not pay; best 4.
     * Strong scaling (the 2 s is the whole global batch on one GPU):
     * n = 4: 0.5 + 0.80886 = 1.30886 -> 1.528047x; n = 8: 0.25 + 2.1446455
     * -> 0.835197x: slower than 4 GPUs (and than one).  (With 1,2 in the
     * list strong scaling stops even earlier: n = 2 gives 2/1.53922 =
     * 1.299360x, 0.299 of a GPU for the added card < 0.5.) */
    gp_link up = gp_test_link_pcie4(), out = gp_test_link_eth100();
    gp_scale_req q;
    gp_scale_row rows[4];
    gp_scale_result res;
    const long gpus[4] = {1, 2, 4, 8};
    double grads = 0.0;
    char v[512];
    ck_assert_int_eq(gp_scale_grad_bytes(6.74e9, GP_FP16, &grads, NULL), GP_OK);
    GP_ASSERT_REL(grads, 13.48e9, 1e-12);
    memset(&q, 0, sizeof q);
    q.scale_up = &up;
    q.scale_out = &out;
    q.gpus_per_node = 4;
    q.nics_per_node = 1;
    q.grad_bytes = grads;
    q.step_compute_s = 2.0;
    q.mode = GP_SCALING_WEAK;
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus, 4, rows, &res, NULL), GP_OK);
    GP_ASSERT_REL(rows[2].speedup, 8.0 / 2.80886, 1e-9);
    ck_assert_int_eq(rows[3].nodes, 2);
    GP_ASSERT_REL(rows[3].comm_s, 2.1446455, 1e-7);
    GP_ASSERT_REL(rows[3].speedup, 16.0 / 4.1446455, 1e-7);
    ck_assert_int_eq(res.best_gpus, 4);
    ck_assert_uint_eq(res.stop, 3);
    ck_assert_int_eq(res.reason, GP_STOP_EFFICIENCY);
    gp_scale_verdict(&res, rows, v, sizeof v);
    ck_assert_msg(strstr(v, "up to 4") && strstr(v, "8 GPUs across nodes would not"),
                  "verdict: %s", v);

    q.mode = GP_SCALING_STRONG;
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus, 4, rows, &res, NULL), GP_OK);
    GP_ASSERT_REL(rows[1].speedup, 2.0 / 1.53922, 1e-9);
    ck_assert_int_eq(res.best_gpus, 1);
    ck_assert_int_eq(res.reason, GP_STOP_MARGINAL);
    /* ...yet the fastest count is 4 (2/1.30886 = 1.528x beats 1.299x on 2
     * and 0.835x on 8), and the verdict says so. */
    ck_assert_int_eq(res.fastest_gpus, 4);
    gp_scale_verdict(&res, rows, v, sizeof v);
    ck_assert_msg(strstr(v, "the fastest is 4 GPUs at 1.53x") != NULL, "verdict: %s", v);
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus + 2, 2, rows, &res, NULL), GP_OK);
    GP_ASSERT_REL(rows[0].speedup, 2.0 / 1.30886, 1e-9);
    GP_ASSERT_REL(rows[1].speedup, 2.0 / 2.3946455, 1e-7);
    ck_assert_int_eq(res.best_gpus, 4);
    ck_assert_int_eq(res.reason, GP_STOP_FALLS);
    gp_scale_verdict(&res, rows, v, sizeof v);
    ck_assert_msg(strstr(v, "would not help") != NULL, "verdict: %s", v);
}
END_TEST

START_TEST(marginal_rule)
{
    /* Threshold 0.3 lets n = 8 pass the efficiency test (0.4826 >= 0.3) but
     * the 4 added cards give (3.860403 - 2.848131)/4 = 0.253068 of a GPU
     * each < 0.3: stop, reason marginal. */
    gp_link up = gp_test_link_pcie4(), out = gp_test_link_eth100();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row rows[2];
    gp_scale_result res;
    const long gpus[2] = {4, 8};
    memset(&q, 0, sizeof q);
    q.scale_up = &up;
    q.scale_out = &out;
    q.gpus_per_node = 4;
    q.grad_bytes = 13.48e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&p);
    p.threshold = 0.3;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 2, rows, &res, NULL), GP_OK);
    GP_ASSERT_REL(rows[1].marginal, (16.0 / 4.1446455 - 8.0 / 2.80886) / 4.0, 1e-7);
    ck_assert_int_eq(res.best_gpus, 4);
    ck_assert_int_eq(res.reason, GP_STOP_MARGINAL);
}
END_TEST

/* ZeRO-3 on 4 GPUs over PCIe 4.0 (25 GB/s achievable, 10 us), 7B fp16:
 * W = G = 14e9 B.  Ring AllGather of W: 3/4 x 14e9 / 25e9 + 3 x 10 us =
 * 0.42003 s, the ReduceScatter of G the same: 2 x 0.42003 + 0.42003 =
 * 1.26009 s a step, against the plain AllReduce's 3/2 x 14e9 / 25e9 + 6 x
 * 10 us = 0.84006 s.  T = 1 s, --overlap 1: the gathers prefetch under the
 * whole step, so min(1.26009, 1 x 1) = 1 s hides, 0.26009 s shows (step
 * 1.26009 s, speedup 4 / 1.26009 = 3.1744); plain data parallelism hides
 * min(0.84006, 2/3) = 0.666667, shows 0.173393.  No weights: refused. */
START_TEST(zero3_gathers_twice_and_scatters)
{
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row row;
    gp_scale_result res;
    gp_err e;
    const long four = 4;
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 1.0;
    gp_scale_params_default(&p);
    p.overlap = 1.0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 0.84006, 1e-12);
    GP_ASSERT_REL(row.exposed_s, 0.84006 - 2.0 / 3.0, 1e-9);
    q.zero3 = 1;
    q.weight_bytes = 14e9;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 1.26009, 1e-12);
    GP_ASSERT_REL(row.hidden_s, 1.0, 1e-12);
    GP_ASSERT_REL(row.exposed_s, 0.26009, 1e-9);
    GP_ASSERT_REL(row.speedup, 4.0 / 1.26009, 1e-9);
    /* Gathered layer by layer over 10 layers: one layer's first gather and
     * last scatter, (0.42003 + 0.42003) / 10 = 0.084006 s, cannot hide:
     * the rest, 1.176084 s, hides up to the 1 s of compute, so 0.26009 s
     * still shows (compute binds); with --overlap 0.5, 0.5 x 1.176084 =
     * 0.588042 s hides and 0.672048 s shows (0.630045 without layers). */
    q.layers = 10;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.exposed_s, 0.26009, 1e-9);
    p.overlap = 0.5;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.hidden_s, 0.588042, 1e-9);
    GP_ASSERT_REL(row.exposed_s, 0.672048, 1e-9);
    q.layers = 0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.exposed_s, 0.630045, 1e-9);
    q.layers = 2.5;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--model");
    q.layers = 0;
    p.overlap = 1.0;
    q.weight_bytes = 0.0;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--zero");
}
END_TEST

/* Micro-batches (gp_scale_req.micro_batches, M).  4 GPUs on PCIe 4.0
 * (B = 25e9 B/s achievable, alpha = 10 us; collectives.md ring rows):
 * W = G = 14e9 B, T = 1 s a step (weak), M = 4.
 *   ZeRO-3 re-gathers the weights for every micro-batch's forward and
 *   backward and reduce-scatters its gradients (as train, training.md §9.3):
 *   t_AG = 3/4 x 14e9 / 25e9 + 3 x 10e-6 = 0.42 + 0.00003 = 0.42003 s, t_RS
 *   the same; one micro-batch 2 x 0.42003 + 0.42003 = 1.26009 s; the step
 *   4 x 1.26009 = 5.04036 s.  --overlap 1: each micro-batch's traffic hides
 *   under its own compute, T/M = 0.25 s, so 4 x min(1.26009, 0.25) = 1 s
 *   hides (= min(f x comm, T)), 4.04036 s shows: step 5.04036 s, speedup 4 x
 *   1 / 5.04036 = 0.793594; --overlap 0.1 hides min(0.504036, 1) = 0.504036
 *   s, shows 4.536324 s.
 *   Plain data parallelism AllReduces once a step whatever M (DDP's no_sync
 *   accumulates): 2 x 3/4 x 14e9 / 25e9 + 6 x 10e-6 = 0.84006 s, and hides
 *   only under the last micro-batch's backward, 2/3 x T/M = 1/6 s: exposed
 *   0.84006 - 0.1666667 = 0.6733933 s, step 1.6733933 s (M = 1: 2/3 s hides,
 *   0.1733933 s shows, zero3_gathers_twice_and_scatters).
 *   M = 0 is the default, 1: ZeRO-3's 1.26009 s; M < 0 and M > 1e6 are
 *   refused naming --micro-batches. */
START_TEST(micro_batches_regather)
{
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row row;
    gp_scale_result res;
    gp_err e;
    const long four = 4;
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.weight_bytes = 14e9;
    q.zero3 = 1;
    q.step_compute_s = 1.0;
    gp_scale_params_default(&p);
    p.overlap = 1.0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 1.26009, 1e-12); /* M = 0: one micro-batch */
    q.micro_batches = 1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 1.26009, 1e-12);
    q.micro_batches = 4;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 5.04036, 1e-12);
    GP_ASSERT_REL(row.hidden_s, 1.0, 1e-12);
    GP_ASSERT_REL(row.exposed_s, 4.04036, 1e-12);
    GP_ASSERT_REL(row.step_s, 5.04036, 1e-12);
    GP_ASSERT_REL(row.speedup, 0.793594108, 1e-8);
    p.overlap = 0.1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.hidden_s, 0.504036, 1e-12);
    GP_ASSERT_REL(row.exposed_s, 4.536324, 1e-12);
    /* Plain data parallelism: one AllReduce, the last micro-batch's window. */
    p.overlap = 1.0;
    q.zero3 = 0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 0.84006, 1e-12);
    GP_ASSERT_REL(row.hidden_s, 1.0 / 6.0, 1e-12);
    GP_ASSERT_REL(row.exposed_s, 0.6733933333, 1e-9);
    GP_ASSERT_REL(row.step_s, 1.6733933333, 1e-9);
    q.micro_batches = 1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.exposed_s, 0.84006 - 2.0 / 3.0, 1e-9);
    /* Out of range: named. */
    gp_err_clear(&e);
    q.micro_batches = -1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--micro-batches");
    q.micro_batches = 1000001;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--micro-batches");
    q.micro_batches = 1000000;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, &e), GP_OK);
}
END_TEST

/* A bridge of 2 (50 GB/s achievable, 2 us) with the host's PCIe 4.0 (25
 * GB/s, 10 us) as wide_link: 2 GPUs AllReduce 14e9 B over the bridge,
 * 14e9/50e9 + 2 x 2 us = 0.280004 s; 8 over PCIe, 1.75 x 14e9/25e9 + 14 x
 * 10 us = 0.98014 s.  Without wide_link the 8 are refused, naming the link. */
START_TEST(wide_link_for_nodes_a_bridge_cannot_join)
{
    gp_link bridge = gp_test_link_pcie4(), pcie = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row rows[3];
    gp_scale_result res;
    gp_err e;
    const long gpus[3] = {1, 2, 8};
    bridge.id = "bridge";
    bridge.kind = GP_LINK_NVLINK;
    bridge.bw_achievable.v = 50e9;
    bridge.latency.v = 2e-6;
    bridge.max_gpus.v = 2.0;
    memset(&q, 0, sizeof q);
    q.scale_up = &bridge;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&p);
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 3, rows, &res, &e), GP_ERANGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "'bridge' joins at most 2 GPUs"));
    q.wide_link = &pcie;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 3, rows, &res, &e), GP_OK);
    ck_assert_ptr_null(rows[0].link);
    ck_assert_ptr_eq(rows[1].link, &bridge);
    ck_assert_ptr_eq(rows[2].link, &pcie);
    GP_ASSERT_REL(rows[1].comm_s, 0.280004, 1e-12);
    GP_ASSERT_REL(rows[2].comm_s, 0.98014, 1e-12);
}
END_TEST

/* Counts that do not fit (min_gpus) are never chosen.  1 and 8 GPUs on
 * PCIe 4.0 (25 GB/s, 10 us), 14e9 B, T = 2 s, threshold 0.9: 8 GPUs take
 * 1.75 x 14e9 / 25e9 + 14 x 10 us = 0.98014 s, step 2.98014 s, speedup
 * 16 / 2.98014 = 5.36887, efficiency 67.1 % < 90 %: alone, 1 GPU is best.
 * If only 8 fits, 8 is the one candidate: best and fastest, nothing stops,
 * and the verdict speaks of 8 alone.  If none fits (min 16), the choice runs
 * over both as if memory were no limit, and first says so (2 = n_rows). */
START_TEST(min_gpus_rules_out_counts_that_do_not_fit)
{
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row rows[2];
    gp_scale_result res;
    const long gpus[2] = {1, 8};
    char v[256];
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&p);
    p.threshold = 0.9;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 2, rows, &res, NULL), GP_OK);
    ck_assert_uint_eq(res.first, 0);
    ck_assert_int_eq(res.best_gpus, 1);
    GP_ASSERT_REL(rows[1].speedup, 16.0 / 2.98014, 1e-9);
    q.min_gpus = 8;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 2, rows, &res, NULL), GP_OK);
    ck_assert_uint_eq(res.first, 1);
    ck_assert_int_eq(res.best_gpus, 8);
    ck_assert_int_eq(res.fastest_gpus, 8);
    ck_assert_uint_eq(res.stop, 2);
    gp_scale_verdict(&res, rows, v, sizeof v);
    ck_assert_str_eq(v, "8 GPUs give 5.37x one GPU's throughput (67% efficiency, communication "
                        "33% of the step)");
    q.min_gpus = 16;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 2, rows, &res, NULL), GP_OK);
    ck_assert_uint_eq(res.first, 2);
    ck_assert_int_eq(res.best_gpus, 1);
}
END_TEST

START_TEST(ceiling_uses_datasheet)
{
    /* --ceiling: 4 GPUs at 31.5 GB/s, no latency: comm 21/31.5 = 0.666667 s. */
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row row;
    gp_scale_result res;
    const long four = 4;
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&p);
    p.ceiling = 1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, &four, 1, &row, &res, NULL), GP_OK);
    GP_ASSERT_REL(row.comm_s, 21.0 / 31.5, 1e-9);
}
END_TEST

/* NVLink 4 on NVSwitch as in check_comm.c: 450 GB/s datasheet, 370 GB/s
 * achievable ring (nccl-tests#212), NVLS 308.6 GB/s per direction (480 x
 * 9/14, docs/models/collectives.md), alpha 2 us. */
static gp_link nvlink4_nvls(void)
{
    gp_link l;
    memset(&l, 0, sizeof l);
    l.id = "nvlink4";
    l.kind = GP_LINK_NVLINK;
    l.bw.v = 450e9;
    l.bw_achievable.v = 370e9;
    l.bw_nvls.v = 308.6e9;
    l.latency.v = 2e-6;
    l.p2p = 1;
    l.switched = 1;
    return l;
}

START_TEST(nvls_rows)
{
    /* 14 GB of gradients, 1 s compute, --algo nvls on one node, 1,2,4,8 GPUs.
     * 2 GPUs: NCCL runs a ring (no NVLS below 3 GPUs): 2 x 1/2 x 14e9/370e9
     * + 2 x 2 us = 3.7841838e-2 s.  4 GPUs: NVLS, 5/4 x 14e9/308.6e9 + 23
     * us (NCCL's NVLS latency) = 5.6730712e-2 s.  8 GPUs: 9/8 x
     * 14e9/308.6e9 + 23 us = 5.1059941e-2 s.  Ceiling (no latency): 8 GPUs
     * 9/8 x 14e9/450e9 = 0.035 s; 2 GPUs
     * (ring) 14e9/450e9 = 3.1111111e-2 s.  Across 2 nodes of 8 on eth-100
     * (11 GB/s, 20 us, a NIC a GPU): NVLS-tree, NVLS inside (51.037 ms)
     * pipelined with a tree of the 1.75e9 B shards between the nodes,
     * 1.75e9 / 11e9 = 0.1590909 s; + 23 us + 2 x 20 us = 0.1591539 s
     * (the ring: 2 x 15/16 x 14e9 / min(370e9, 8 x 11e9) = 0.2983 s). */
    gp_link l = nvlink4_nvls(), eth = gp_test_link_eth100();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row rows[4];
    gp_scale_result res;
    const long gpus[4] = {1, 2, 4, 8}, sixteen[2] = {8, 16};
    gp_err e;
    gp_err_clear(&e);
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 1.0;
    q.mode = GP_SCALING_WEAK;
    gp_scale_params_default(&p);
    p.algo = GP_COLL_NVLS;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 4, rows, &res, &e), GP_OK);
    ck_assert(rows[0].comm_s == 0.0);
    GP_ASSERT_REL(rows[1].comm_s, 3.7841838e-2, 1e-7);
    GP_ASSERT_REL(rows[2].comm_s, 5.6730712e-2, 1e-7);
    GP_ASSERT_REL(rows[3].comm_s, 5.1059941e-2, 1e-7);
    p.ceiling = 1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, gpus, 4, rows, &res, &e), GP_OK);
    GP_ASSERT_REL(rows[3].comm_s, 0.035, 1e-9);
    GP_ASSERT_REL(rows[1].comm_s, 14.0 / 450.0, 1e-9);
    p.ceiling = 0;
    q.gpus_per_node = 8;
    q.scale_out = &eth;
    ck_assert_int_eq(gp_scale_eval(&q, &p, sixteen, 2, rows, &res, &e), GP_OK);
    GP_ASSERT_REL(rows[0].comm_s, 5.1059941e-2, 1e-7);
    GP_ASSERT_REL(rows[1].comm_s, 1.75e9 / 11e9 + 63e-6, 1e-9);
    /* Nodes of 2: NCCL sets no NVLS up (ncclNvlsInit gives up at 2 a node)
     * and runs its tree: 4 GPUs, 2 nodes of 2, the chain's ends send S =
     * 14e9 at 370e9 (37.84 ms), the 7e9 B shard between the nodes at 11e9
     * (a NIC a GPU) = 0.6363636 s binds; + 2 x 2 us + 2 x 20 us. */
    {
        const long four[1] = {4};
        q.gpus_per_node = 2;
        ck_assert_int_eq(gp_scale_eval(&q, &p, four, 1, rows, &res, &e), GP_OK);
        GP_ASSERT_REL(rows[0].comm_s, 7e9 / 11e9 + 44e-6, 1e-9);
    }
}
END_TEST

START_TEST(bad_input)
{
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_params p;
    gp_scale_row rows[3];
    gp_scale_result res;
    gp_err e;
    const long ok[2] = {1, 4}, down[2] = {4, 2}, zero[1] = {0}, six[1] = {6};
    gp_err_clear(&e);
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 2.0;
    gp_scale_params_default(&p);
    p.overlap = 1.5;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--overlap");
    p.overlap = -0.1;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_ERANGE);
    p.overlap = 0.0;
    p.threshold = 0.0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--threshold");
    p.threshold = 0.5;
    ck_assert_int_eq(gp_scale_eval(&q, &p, down, 2, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    ck_assert_int_eq(gp_scale_eval(&q, &p, zero, 1, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 0, rows, &res, &e), GP_EINVAL);
    q.gpus_per_node = 4;
    ck_assert_int_eq(gp_scale_eval(&q, &p, six, 1, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    q.gpus_per_node = 2;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--scale-out");
    q.gpus_per_node = 0;
    q.grad_bytes = -1.0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--grad-bytes");
    q.grad_bytes = 1e9;
    q.step_compute_s = 0.0;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--step-compute-s");
    ck_assert_int_eq(gp_scale_grad_bytes(0.0, GP_FP16, &q.grad_bytes, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--params");
    /* One AllReduce is priced up to 1e18 bytes: 5e17 fp16 parameters are
     * exactly 1e18 gradient bytes (fine), 5e17 fp32 ones 2e18 (refused under
     * the option the caller gave, not the collective's --bytes). */
    ck_assert_int_eq(gp_scale_grad_bytes(5e17, GP_FP16, &q.grad_bytes, &e), GP_OK);
    GP_ASSERT_REL(q.grad_bytes, 1e18, 1e-15);
    ck_assert_int_eq(gp_scale_grad_bytes(5e17, GP_FP32, &q.grad_bytes, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--params");
    ck_assert_ptr_nonnull(strstr(e.msg, "5e+17 parameters x 4 bytes = 2e+18 gradient bytes"));
    q.step_compute_s = 2.0;
    q.grad_bytes = 1e30;
    ck_assert_int_eq(gp_scale_eval(&q, &p, ok, 2, rows, &res, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--grad-bytes");
    ck_assert_ptr_nonnull(strstr(e.msg, "(got 1e+30)"));
}
END_TEST


static double jrow(const json_t *j, size_t i, const char *key)
{
    json_t *rows = json_object_get(j, "rows"), *v;
    ck_assert_msg(json_is_array(rows) && i < json_array_size(rows), "rows[%zu] missing", i);
    v = json_object_get(json_array_get(rows, i), key);
    ck_assert_msg(v != NULL && json_is_number(v), "rows[%zu].%s missing", i, key);
    return json_number_value(v);
}

static void expect_usage(const char *const *argv, const char *const *env, const char *opt)
{
    char *out = NULL, *err = NULL;
    int rc = gp_test_cli_env(argv, env, &out, &err);
    ck_assert_msg(rc == 2, "exit %d (want 2), stderr: %s", rc, err ? err : "");
    ck_assert_msg(err != NULL && strstr(err, opt) != NULL, "stderr does not name %s: %s", opt,
                  err ? err : "");
    free(out);
    free(err);
}

/* A step at the 1e9 s cap: 14 GB over 4 GPUs on PCIe costs 0.84006 s
 * (article rows), so step(4) = 1e9 + 0.84006 s and the weak-scaling
 * speedup is 4 x 1e9 / (1e9 + 0.84006) = 4 x (1 - 8.4006e-10): finite,
 * just under 4.  Beyond the cap (1e308 s, where n x T overflowed and
 * speedup and efficiency printed as inf): GP_ERANGE. */
START_TEST(step_cap)
{
    gp_link l = gp_test_link_pcie4();
    gp_scale_req q;
    gp_scale_row rows[2];
    gp_scale_result res;
    gp_err e;
    const long gpus[2] = {1, 4};
    gp_err_clear(&e);
    memset(&q, 0, sizeof q);
    q.scale_up = &l;
    q.grad_bytes = 14e9;
    q.step_compute_s = 1e9;
    q.mode = GP_SCALING_WEAK;
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus, 2, rows, &res, &e), GP_OK);
    GP_ASSERT_REL(rows[1].speedup, 4.0 * 1e9 / (1e9 + 0.84006), 1e-12);
    GP_ASSERT_REL(rows[1].efficiency, 1e9 / (1e9 + 0.84006), 1e-12);
    q.step_compute_s = 1e308;
    ck_assert_int_eq(gp_scale_eval(&q, NULL, gpus, 2, rows, &res, &e), GP_ERANGE);
    ck_assert_str_eq(e.where, "--step-compute-s");
}
END_TEST

START_TEST(cli_article_rows_7_8)
{
    /* pcie4-x16 (25 GB/s, 10 us), 14 GB, 2 s, 1,2,4 GPUs, weak: as in
     * article_rows_7_8_weak: 4 GPUs: share 0.84006/2.84006 = 0.295789,
     * speedup 2.816842, best 4. */
    const char *a[] = {"--json", "scale", "--gpu", "a100", "--link", "pcie4-x16",
                       "--grad-bytes", "14GB", "--step-compute-s", "2", "--gpus", "1,2,4", NULL};
    json_t *j = gp_test_cli_json(a);
    GP_ASSERT_REL(jrow(j, 2, "gpus"), 4, 0);
    GP_ASSERT_REL(jrow(j, 2, "comm_s"), 0.84006, 1e-9);
    GP_ASSERT_REL(jrow(j, 2, "comm_fraction"), 0.84006 / 2.84006, 1e-9);
    GP_ASSERT_REL(jrow(j, 2, "speedup"), 8.0 / 2.84006, 1e-9);
    GP_ASSERT_REL(jrow(j, 2, "efficiency"), 2.0 / 2.84006, 1e-9);
    GP_ASSERT_REL(jrow(j, 2, "step_s"), 2.84006, 1e-9);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "best_gpus")), 4);
    ck_assert(json_is_string(json_object_get(j, "verdict")));
    json_decref(j);
}
END_TEST

START_TEST(cli_two_nodes_100g)
{
    /* llama-2-7b: 6738415616 params x 2 B (fp16) = 13.476831232e9 B.  Nodes
     * of 4 on pcie4-x16 (25 GB/s, 10 us); one 100 Gb/s RoCE NIC per node
     * (12.2 GB/s achievable, 5.8 us); 2 s step, weak scaling.
     * n = 4: comm 1.5 x G/25e9 + 60 us.  n = 8: the phases (2 x (0.75 G/25e9
     * + 30 us) + (G/4)/(12.2e9/4) + 11.6 us) would move data faster than the
     * ring across both nodes allows, so their bandwidth term is the ring's,
     * 1.75 G through the node's one NIC: 1.75 G/12.2e9 + 71.6 us (the ring
     * itself pays 14 x 10 us).  With G = 13.476831e9: n = 4 comm 0.8086699
     * s, speedup 8/2.8086699 = 2.848324; n = 8 comm 1.9332236 s, speedup
     * 16/3.9332236 = 4.067910, efficiency 0.508 (above 0.5) but the 4 added
     * cards give (4.067910 - 2.848324)/4 = 0.305 of a GPU each: the second
     * node does not help.  best 4.
     * With eth-100 (5 GB/s achievable): 8 GPUs need 1.75 G/5e9 + 60 + 80 us
     * = 4.717 s of comm: 16/6.717 = 2.382x vs 2.848x on 4. */
    const char *a[] = {"--json", "scale", "--gpu", "a100", "--link", "pcie4-x16", "--model",
                       "llama-2-7b", "--step-compute-s", "2", "--gpus", "1,2,4,8",
                       "--gpus-per-node", "4", "--scale-out", "roce-100", NULL};
    const char *b[] = {"--json", "scale", "--gpu", "a100", "--link", "pcie4-x16", "--model",
                       "llama-2-7b", "--step-compute-s", "2s", "--gpus", "4,8",
                       "--gpus-per-node", "4", "--scale-out", "eth-100", NULL};
    const double g = 6738415616.0 * 2.0;
    const double c4 = 1.5 * g / 25e9 + 60e-6;
    const double c8 = 1.75 * g / 12.2e9 + 71.6e-6;
    json_t *j = gp_test_cli_json(a);
    const char *v;
    GP_ASSERT_REL(json_number_value(json_object_get(j, "grad_bytes")), g, 1e-9);
    GP_ASSERT_REL(jrow(j, 2, "comm_s"), c4, 1e-9);
    GP_ASSERT_REL(jrow(j, 3, "comm_s"), c8, 1e-9);
    GP_ASSERT_REL(jrow(j, 3, "speedup"), 16.0 / (2.0 + c8), 1e-9);
    GP_ASSERT_REL(jrow(j, 3, "speedup"), 4.067910, 1e-5);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "best_gpus")), 4);
    /* Weak scaling: 8 GPUs still have the highest throughput (4.07x). */
    ck_assert_int_eq(json_integer_value(json_object_get(j, "fastest_gpus")), 8);
    v = json_string_value(json_object_get(j, "verdict"));
    ck_assert_msg(v && strstr(v, "8 GPUs across nodes would not help"), "verdict: %s", v);
    json_decref(j);
    j = gp_test_cli_json(b);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "best_gpus")), 4);
    GP_ASSERT_REL(jrow(j, 1, "speedup"), 2.382, 2e-3);
    json_decref(j);
}
END_TEST

START_TEST(cli_plot)
{
    char dir[256], png[300], svg[300], bad[300];
    struct stat st;
    const char *a[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                       "--step-compute-s", "2", "--plot", png, NULL};
    const char *b[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                       "--step-compute-s", "2", "--plot", svg, NULL};
    const char *c[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                       "--step-compute-s", "2", "--plot", bad, NULL};
    const char *nopath[] = {"PATH=/nonexistent", NULL};
    char *out = NULL, *err = NULL;
    int rc;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    snprintf(png, sizeof png, "%s/s.png", dir);
    snprintf(svg, sizeof svg, "%s/s.svg", dir);
    snprintf(bad, sizeof bad, "%s/s.jpg", dir);
    expect_usage(c, NULL, "--plot");
    expect_usage(a, nopath, "gnuplot");
    ck_assert_int_ne(stat(png, &st), 0);
    rc = gp_test_cli(a, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err ? err : "");
    ck_assert_int_eq(stat(png, &st), 0);
    ck_assert(st.st_size > 1000);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(b, NULL, NULL), 0);
    ck_assert_int_eq(stat(svg, &st), 0);
    /* A directory where the chart goes is a bad output path: exit 2, as
     * roofline --plot (it exited 1). */
    snprintf(png, sizeof png, "%s/d.png", dir);
    ck_assert_int_eq(mkdir(png, 0755), 0);
    expect_usage(a, NULL, "--plot: cannot write");
    /* A missing directory: the message names the user's path (as roofline
     * --plot's does), not the temporary file made beside it. */
    {
        char says[400];
        snprintf(png, sizeof png, "%s/nodir/s.png", dir);
        snprintf(says, sizeof says, "--plot: cannot create a file beside '%s'", png);
        expect_usage(a, NULL, says);
    }
    gp_test_rmtree(dir);
}
END_TEST

/* Options scale does not use are said, as allreduce says them; --ceiling
 * shows the zero latency it prices with.  8 x nvlink4, 1 GB at the
 * 450 GB/s datasheet rate and no alpha: comm = 1.75 x 1e9 / 450e9 =
 * 3.888889 ms (with alpha it would add 14 x 2 us = 28 us). */
START_TEST(cli_notes_and_ceiling_alpha)
{
    const char *hb[] = {"scale", "--gpu", "h100", "--link", "nvlink4", "--params", "7B",
                        "--step-compute-s", "1", "--host-bw", "10GB/s", NULL};
    const char *nics[] = {"scale", "--gpu", "h100", "--link", "nvlink4", "--params", "7B",
                          "--step-compute-s", "1", "--nics-per-node", "4", NULL};
    const char *ct[] = {"scale", "--gpu", "h100", "--link", "nvlink4", "--grad-bytes", "1GB",
                        "--step-compute-s", "1", "--gpus", "8", "--ceiling", "--algo", "ring",
                        NULL};
    const char *cj[] = {"--json", "scale", "--gpu", "h100", "--link", "nvlink4", "--grad-bytes",
                        "1GB", "--step-compute-s", "1", "--gpus", "8", "--ceiling", "--algo",
                        "ring", NULL};
    char *out = NULL, *err = NULL;
    json_t *j;
    ck_assert_int_eq(gp_test_cli(hb, &out, &err), 0);
    ck_assert_msg(strstr(err, "gpuplan scale: note: --host-bw ignored: link 'nvlink4' has "
                              "peer-to-peer") != NULL, "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(nics, &out, &err), 0);
    ck_assert_msg(strstr(err, "gpuplan scale: note: --nics-per-node ignored: no scale-out") != NULL,
                  "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(ct, &out, &err), 0);
    ck_assert_msg(strstr(out, "450.0 GB/s per direction (datasheet), no latency (a bound)") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "alpha") == NULL, "%s", out);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(cj, &out, &err), 0);
    j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "link_latency_s"), 0.0, 0.0);
    GP_ASSERT_REL(jrow(j, 0, "comm_s"), 1.75 * 1e9 / 450e9, 1e-14); /* JSON: 15 digits */
    json_decref(j);
    free(out);
    free(err);
}
END_TEST

/* --tokens-per-gpu prices one GPU's step with the training step-time model
 * (bf16, one GPU: no communication).  A step of B sequences is B
 * micro-batches of the same cost + one optimizer pass, so twice the
 * 8192-token step less the 16384-token step leaves the optimizer alone:
 * Adam's 28 B per parameter over the expected bandwidth, 8,030,261,248 x
 * 28 / (3.35e12 x 0.92) = 0.0729550 s for Llama 3 8B on an H100 SXM. */
START_TEST(cli_tokens_per_gpu)
{
    const char *one[] = {"--json", "scale", "--gpu", "h100-sxm", "--model", "llama-3-8b",
                         "--tokens-per-gpu", "8192", "--gpus", "1,8", NULL};
    const char *two[] = {"--json", "scale", "--gpu", "h100-sxm", "--model", "llama-3-8b",
                         "--tokens-per-gpu", "16384", "--gpus", "1,8", NULL};
    const char *odd[] = {"scale", "--gpu", "h100-sxm", "--model", "llama-3-8b",
                         "--tokens-per-gpu", "1000", NULL};
    const char *both[] = {"scale", "--gpu", "h100-sxm", "--model", "llama-3-8b",
                          "--tokens-per-gpu", "8192", "--step-compute-s", "1", NULL};
    char *out = NULL, *err = NULL;
    json_t *a = gp_test_cli_json(one), *b = gp_test_cli_json(two);
    double s1 = gp_test_jnum(a, "step_compute_s"), s2 = gp_test_jnum(b, "step_compute_s");
    GP_ASSERT_REL(2.0 * s1 - s2, 8030261248.0 * 28.0 / (3.35e12 * 0.92), 1e-9);
    ck_assert(s2 > s1);
    ck_assert_str_eq(json_string_value(json_object_get(a, "step_compute_source")),
                     "step-time model on one GPU (docs/models/training.md 9)");
    json_decref(a);
    json_decref(b);
    ck_assert_int_eq(gp_test_cli(odd, &out, &err), 2);
    ck_assert_msg(strstr(err, "not a whole number of 8192-token sequences") != NULL, "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(both, &out, &err), 2);
    ck_assert_msg(strstr(err, "exclude each other") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* Strong scaling splits --tokens-per-gpu K (the global batch on one GPU)
 * over the n GPUs, and each must hold whole sequences, as weak scaling's
 * K must be (docs/bad-input.md row 279).  Llama 3.2 1B trains on 8192-token
 * sequences: K = 16384 is 2 of them, so 8 GPUs would get 1/4 of one each
 * (64: 1/32) -- refused naming the count and the options (it priced them
 * silently); K = 49152 is 6, and 4 GPUs would get 1.5 each: refused; K =
 * 65536 (8) splits over 1, 2, 4 and 8.  Weak scaling takes any count. */
START_TEST(cli_strong_whole_sequences)
{
    const char *less[] = {"scale", "--gpu", "h100", "--model", "llama-3.2-1b",
                          "--tokens-per-gpu", "16384", "--gpus", "1,8,16,64",
                          "--gpus-per-node", "8", "--scale-out", "ib-ndr", "--strong", NULL};
    const char *frac[] = {"scale", "--gpu", "h100", "--model", "llama-3.2-1b",
                          "--tokens-per-gpu", "49152", "--gpus", "1,2,4", "--strong", NULL};
    const char *ok[] = {"--json", "scale", "--gpu", "h100", "--model", "llama-3.2-1b",
                        "--tokens-per-gpu", "65536", "--gpus", "1,2,4,8", "--strong", NULL};
    const char *weak[] = {"--json", "scale", "--gpu", "h100", "--model", "llama-3.2-1b",
                          "--tokens-per-gpu", "16384", "--gpus", "1,8,16,64",
                          "--gpus-per-node", "8", "--scale-out", "ib-ndr", NULL};
    char *out = NULL, *err = NULL;
    json_t *j;
    ck_assert_int_eq(gp_test_cli(less, &out, &err), 2);
    ck_assert_msg(strstr(err, "option '--gpus': 8 GPUs under --strong share --tokens-per-gpu "
                              "16384 = 2 sequences of 8192 tokens: 0.25 of a sequence each, less "
                              "than one") != NULL,
                  "%s", err);
    ck_assert_msg(strstr(err, "warning") == NULL, "%s", err);
    ck_assert_msg(out == NULL || out[0] == '\0', "%s", out);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(frac, &out, &err), 2);
    ck_assert_msg(strstr(err, "4 GPUs under --strong share --tokens-per-gpu 49152 = 6 sequences "
                              "of 8192 tokens: 1.5 sequences each, not a whole number") != NULL,
                  "%s", err);
    free(out);
    free(err);
    j = gp_test_cli_json(ok);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "rows")), 4);
    json_decref(j);
    j = gp_test_cli_json(weak);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "rows")), 4);
    json_decref(j);
}
END_TEST

/* Validate first, then warn: Llama 2 7B does not fit one H100 (a memory
 * warning), and 16 GPUs in one nvlink4 node (it joins 8) are refused -- the
 * refusal alone, not the warning about rows it will not price.  With the
 * nodes split (--gpus-per-node 8 --scale-out ib-ndr) the plan is made and
 * the warning said, on stderr and in JSON warnings, which now also carries
 * the notes (--nics-per-node 100 above the node's 8 GPUs: priced as 8),
 * and nics_per_node is the count priced, nics_per_node_given the one given
 * (it said 100 NICs per node of 8 GPUs). */
START_TEST(cli_refusal_before_warnings)
{
    const char *bad[] = {"scale", "--gpu", "h100", "--model", "llama-2-7b", "--step-compute-s",
                         "1", "--gpus", "1,16", NULL};
    const char *good[] = {"scale", "--gpu", "h100", "--model", "llama-2-7b", "--step-compute-s",
                          "1", "--gpus", "1,16", "--gpus-per-node", "8", "--scale-out", "ib-ndr",
                          "--nics-per-node", "100", NULL};
    const char *js[] = {"--json", "scale", "--gpu", "h100", "--model", "llama-2-7b",
                        "--step-compute-s", "1", "--gpus", "1,16", "--gpus-per-node", "8",
                        "--scale-out", "ib-ndr", "--nics-per-node", "100", NULL};
    char *out = NULL, *err = NULL;
    json_t *j, *w;
    ck_assert_int_eq(gp_test_cli(bad, &out, &err), 2);
    ck_assert_msg(strstr(err, "joins at most 8") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "warning:") == NULL && strstr(err, "note:") == NULL, "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(good, &out, &err), 0);
    ck_assert_msg(strstr(err, "gpuplan scale: warning: data parallelism keeps the whole model") !=
                      NULL &&
                      strstr(err, "gpuplan scale: note: --nics-per-node 100 is more than") !=
                          NULL,
                  "%s", err);
    ck_assert_msg(strstr(out, "8 NICs per node of 8 GPUs (--nics-per-node: one NIC a GPU at "
                              "most)") != NULL, "%s", out);
    free(out);
    free(err);
    j = gp_test_cli_json(js);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node")), 8);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node_given")), 100);
    w = json_object_get(j, "warnings");
    ck_assert_uint_eq(json_array_size(w), 2);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 0)),
                                 "--nics-per-node 100 is more than the node's 8 GPUs"));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 1)),
                                 "data parallelism keeps the whole model"));
    json_decref(j);
}
END_TEST

/* One data-parallel replica on an H100 SXM (usable 81,559 MiB =
 * 85,520,809,984 B; reserve 1 GiB + 5 % = 1,073,741,824 + 4,276,040,499.2
 * = 5,349,782,323.2 B).  Llama 3 70B, 70,553,706,496 params x 16 B:
 * weights 2 N = 141,107,412,992, gradients the same, Adam 12 N =
 * 846,644,477,952, states 1,128,859,303,936; total with no activations
 * 1,134,209,086,259.2 B: does not fit; ZeRO-3 room 85,520,809,984 -
 * 5,349,782,323.2 = 80,171,027,660.8 B, 1,128,859,303,936 / that =
 * 14.08: 15 GPUs.  1e9 params with 10 GB of activations: 16e9 + 10e9 +
 * 5,349,782,323.2 = 31,349,782,323.2 B, fits (min 1).  90 GB of
 * activations leave no room at any sharding (0). */
START_TEST(replica_memory)
{
    const gp_gpu *h100 = gp_db_find_gpu(gp_test_db(), "h100-sxm");
    gp_scale_memory m;
    gp_err e;
    ck_assert_int_eq(gp_scale_replica_memory(h100, 70553706496.0, 141107412992.0, 0.0, &m, &e), GP_OK);
    GP_ASSERT_REL(m.weight_bytes, 141107412992.0, 1e-15);
    GP_ASSERT_REL(m.grad_bytes, 141107412992.0, 1e-15);
    GP_ASSERT_REL(m.optim_bytes, 846644477952.0, 1e-15);
    GP_ASSERT_REL(m.reserve_bytes, 5349782323.2, 1e-15);
    GP_ASSERT_REL(m.total_bytes, 1134209086259.2, 1e-15);
    GP_ASSERT_REL(m.usable_bytes, 85520809984.0, 1e-15);
    ck_assert_int_eq(m.fits, 0);
    ck_assert_int_eq(m.zero3_min_gpus, 15);
    ck_assert_int_eq(gp_scale_replica_memory(h100, 1e9, 2e9, 10e9, &m, &e), GP_OK);
    GP_ASSERT_REL(m.total_bytes, 31349782323.2, 1e-15);
    ck_assert_int_eq(m.fits, 1);
    ck_assert_int_eq(m.zero3_min_gpus, 1);
    ck_assert_int_eq(gp_scale_replica_memory(h100, 1e9, 2e9, 90e9, &m, &e), GP_OK);
    ck_assert_int_eq(m.fits, 0);
    ck_assert_int_eq(m.zero3_min_gpus, 0);
    ck_assert_int_eq(gp_scale_replica_memory(h100, 0.0, 0.0, 0.0, &m, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--params");
    ck_assert_int_eq(gp_scale_replica_memory(h100, INFINITY, 0.0, 0.0, &m, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--params");
    /* The check takes every count scale prices (gp_scale_grad_bytes: > 0,
     * finite), not only the database's [1e3, 1e15]: 500 params with 1000 B
     * of fp16 gradients hold 2 x 500 + 1000 + 12 x 500 = 8000 B of states,
     * + the 5,349,782,323.2 B reserve = 5,349,790,323.2 B: fits. */
    ck_assert_int_eq(gp_scale_replica_memory(h100, 500.0, 1000.0, 0.0, &m, &e), GP_OK);
    GP_ASSERT_REL(m.total_bytes, 5349790323.2, 1e-15);
    ck_assert_int_eq(m.fits, 1);
    ck_assert_int_eq(gp_scale_replica_memory(h100, 1e9, 2e9, NAN, &m, &e), GP_EINVAL);
    ck_assert_int_eq(gp_scale_replica_memory(NULL, 1e9, 2e9, 0.0, &m, &e), GP_EINVAL);
    ck_assert_int_eq(gp_scale_replica_memory(h100, 1e9, 2e9, 0.0, NULL, &e), GP_EINVAL);
}
END_TEST

/* The weights ZeRO-3 gathers are the weights one replica holds: one helper,
 * gp_scale_weight_bytes, gives both (gp_scale_replica_memory's weight_bytes
 * and the CLI's gp_scale_req.weight_bytes).  Mixed-precision Adam keeps
 * 16-bit weights, 2 B per parameter (Rajbhandari et al. 2020 §3.1): 7e9
 * parameters hold 14e9 B; Llama 3 70B, N = 70,553,706,496, holds
 * 141,107,412,992 B.  It caps nothing (8e17 parameters: 1.6e18 B; the
 * 1e18-byte cap is the AllGather's); a count not > 0 and finite is
 * refused naming --params, *out untouched. */
START_TEST(weight_bytes_one_source)
{
    const gp_gpu *h100 = gp_db_find_gpu(gp_test_db(), "h100-sxm");
    gp_scale_memory m;
    double w = -1.0;
    gp_err e;
    ck_assert_int_eq(gp_scale_weight_bytes(7e9, &w, &e), GP_OK);
    GP_ASSERT_REL(w, 14e9, 1e-15);
    ck_assert_int_eq(gp_scale_weight_bytes(70553706496.0, &w, &e), GP_OK);
    GP_ASSERT_REL(w, 141107412992.0, 1e-15);
    ck_assert_int_eq(gp_scale_replica_memory(h100, 70553706496.0, 141107412992.0, 0.0, &m, &e),
                     GP_OK);
    ck_assert(m.weight_bytes == w);
    ck_assert_int_eq(gp_scale_weight_bytes(8e17, &w, &e), GP_OK);
    GP_ASSERT_REL(w, 1.6e18, 1e-15);
    w = 7.0;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_scale_weight_bytes(0.0, &w, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--params");
    ck_assert_int_eq(gp_scale_weight_bytes(-1.0, &w, NULL), GP_EINVAL);
    ck_assert_int_eq(gp_scale_weight_bytes(NAN, &w, NULL), GP_EINVAL);
    ck_assert_int_eq(gp_scale_weight_bytes(INFINITY, &w, NULL), GP_EINVAL);
    ck_assert(w == 7.0);
}
END_TEST

/* The CLI says it: llama-3-70b on an H100 (replica_memory's figures) warns
 * on stderr and in JSON, activations unknown with --step-compute-s; a
 * model that fits (Gemma 3 1B, 999,885,952 params: 15,998,175,232 B of
 * states) keeps warnings empty.  With --tokens-per-gpu the activations are
 * the training model's for that one-GPU step, so `train` on one GPU with
 * the same batch gives the same total (a consistency check).  Gradients
 * are what the AllReduce moves: 7B at fp32 hold 28e9 B, so 14 x 7e9 + 28e9
 * + 5,349,782,323.2 = 131,349,782,323.2 B. */
START_TEST(cli_replica_memory)
{
    const char *fp32[] = {"--json", "scale", "--gpu", "h100-sxm", "--params", "7B",
                          "--grad-precision", "fp32", "--step-compute-s", "1", NULL};
    const char *big[] = {"--json", "scale", "--gpu", "h100-sxm", "--model", "llama-3-70b",
                         "--step-compute-s", "1", "--gpus", "1,8", NULL};
    const char *bigt[] = {"scale", "--gpu", "h100-sxm", "--model", "llama-3-70b",
                          "--step-compute-s", "1", "--gpus", "1,8", NULL};
    const char *small[] = {"--json", "scale", "--gpu", "h100-sxm", "--model", "gemma-3-1b",
                           "--tokens-per-gpu", "8192", "--seq", "4096", "--gpus", "1,8", NULL};
    const char *train[] = {"--json", "train", "--gpu", "h100-sxm", "--model", "gemma-3-1b",
                           "--tokens", "1T", "--seq", "4096", "--global-batch", "2", "--mfu", "model",
                           NULL};
    json_t *j = gp_test_cli_json(big), *mem, *w, *t;
    char *out = NULL, *err = NULL;
    mem = json_object_get(j, "memory");
    ck_assert_ptr_nonnull(mem);
    GP_ASSERT_REL(gp_test_jnum(mem, "total_bytes"), 1134209086259.2, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(mem, "optimizer_bytes"), 846644477952.0, 1e-9);
    ck_assert(json_is_null(json_object_get(mem, "activation_bytes")));
    ck_assert(json_is_false(json_object_get(mem, "fits")));
    ck_assert_int_eq(json_integer_value(json_object_get(mem, "min_gpus_zero3")), 15);
    /* No count listed runs: every row is marked and the verdict says so
     * before the communication answer. */
    ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(j, "rows"), 1),
                                            "fits")));
    ck_assert_msg(strstr(json_string_value(json_object_get(j, "verdict")),
                         "no count listed fits in memory (ZeRO-3 needs 15 GPUs: --zero 3); ") ==
                      json_string_value(json_object_get(j, "verdict")),
                  "%s", json_string_value(json_object_get(j, "verdict")));
    w = json_object_get(j, "warnings");
    ck_assert_uint_eq(json_array_size(w), 1);
    ck_assert_msg(strstr(json_string_value(json_array_get(w, 0)), "from 15 GPUs") != NULL, "%s",
                  json_string_value(json_array_get(w, 0)));
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(bigt, &out, &err), 0);
    ck_assert_msg(strstr(err, "gpuplan scale: warning: data parallelism keeps the whole model") !=
                      NULL,
                  "%s", err);
    ck_assert_msg(strstr(out, "does not fit") != NULL, "%s", out);
    free(out);
    free(err);
    j = gp_test_cli_json(small);
    t = gp_test_cli_json(train);
    mem = json_object_get(j, "memory");
    GP_ASSERT_REL(gp_test_jnum(mem, "weight_bytes") + gp_test_jnum(mem, "grad_bytes") +
                      gp_test_jnum(mem, "optimizer_bytes"),
                  15998175232.0, 1e-9);
    ck_assert(json_is_true(json_object_get(mem, "fits")));
    GP_ASSERT_REL(gp_test_jnum(mem, "total_bytes"), gp_test_jnum(t, "total_bytes"), 1e-12);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "warnings")), 0);
    json_decref(j);
    json_decref(t);
    j = gp_test_cli_json(fp32);
    mem = json_object_get(j, "memory");
    GP_ASSERT_REL(gp_test_jnum(mem, "grad_bytes"), 28e9, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(mem, "total_bytes"), 131349782323.2, 1e-9);
    json_decref(j);
    {
        /* A count above the database's 1e15 is still priced, as it is
         * with --link alone (the memory check only warns): 2e15 params,
         * fp16 gradients 4e15 B, states 14 x 2e15 + 4e15 = 3.2e16 B against
         * an H100's ZeRO-3 room of 80,171,027,660.8 B: 3.2e16 / that =
         * 399,146.7, so 399,147 GPUs.  One below 1e5 is a forgotten suffix
         * (500 for 500B), refused as train and decode refuse it. */
        const char *huge[] = {"--json", "scale", "--gpu", "h100-sxm", "--params", "2e15",
                              "--step-compute-s", "1", NULL};
        const char *tiny[] = {"scale", "--gpu", "h100-sxm", "--params", "500",
                              "--step-compute-s", "1", NULL};
        ck_assert_int_eq(gp_test_cli(tiny, &out, &err), 2);
        ck_assert_ptr_nonnull(strstr(err, "did you mean 500B"));
        free(out);
        free(err);
        j = gp_test_cli_json(huge);
        mem = json_object_get(j, "memory");
        ck_assert(json_is_false(json_object_get(mem, "fits")));
        ck_assert_int_eq(json_integer_value(json_object_get(mem, "min_gpus_zero3")), 399147);
        json_decref(j);
    }
}
END_TEST

/* --zero 3 through the CLI: Llama 3 70B (N = 70,553,706,496) on H100s,
 * nvlink4 inside a node (370e9, 2 us).  Weights gathered W = 2 N =
 * 141,107,412,992 B, gradients the same.  On one node of 8: AllGather
 * 7/8 x W / 370e9 + 7 x 2 us = 0.33369996 + 0.000014 = 0.33371396 s, the
 * ReduceScatter the same: comm 3 x 0.33371396 = 1.00114189 s; the first
 * layer's gather and the last scatter, one of the 80 layers' share each,
 * (0.33371396 + 0.33371396) / 80 = 0.00834285 s, cannot hide; --overlap 0.8
 * hides 0.8 x (1.00114189 - 0.00834285) = 0.79423923 s (under T = 5 s),
 * shows 0.20690266 s (0.20022838 without the layer term).  Memory:
 * states 16 N = 1,128,859,303,936 B sharded; room 80,171,027,660.8 B
 * (replica_memory): from 15 GPUs, so 8 does not fit and 16 does. */
START_TEST(cli_zero3)
{
    const char *a[] = {"--json", "scale", "--gpu", "h100-sxm", "--model", "llama-3-70b",
                       "--step-compute-s", "5", "--gpus", "8,16", "--gpus-per-node", "8",
                       "--scale-out", "ib-ndr", "--zero", "3", "--overlap", "0.8", NULL};
    const char *two[] = {"scale", "--gpu", "h100-sxm", "--params", "7B", "--step-compute-s", "1",
                         "--zero", "2", NULL};
    json_t *j = gp_test_cli_json(a), *w;
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(json_integer_value(json_object_get(j, "zero")), 3);
    GP_ASSERT_REL(gp_test_jnum(j, "weight_bytes"), 141107412992.0, 1e-15);
    /* The bytes gathered are the memory model's weights, from one helper. */
    ck_assert(gp_test_jnum(j, "weight_bytes") ==
              gp_test_jnum(json_object_get(j, "memory"), "weight_bytes"));
    GP_ASSERT_REL(jrow(j, 0, "comm_s"), 1.00114189, 1e-8);
    GP_ASSERT_REL(jrow(j, 0, "exposed_comm_s"), 0.20690266, 1e-7);
    GP_ASSERT_REL(gp_test_jnum(j, "zero3_layers"), 80.0, 0);
    ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(j, "rows"), 0),
                                            "fits")));
    ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(j, "rows"), 1),
                                           "fits")));
    w = json_object_get(j, "warnings");
    ck_assert_uint_eq(json_array_size(w), 1);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(w, 0)), "from 15 GPUs on"));
    /* The 8-GPU row cannot run, so it is neither best nor fastest: the
     * choice and the verdict start where ZeRO-3 fits. */
    ck_assert_int_eq(json_integer_value(json_object_get(j, "best_gpus")), 16);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "fastest_gpus")), 16);
    ck_assert_msg(strstr(json_string_value(json_object_get(j, "verdict")),
                         "from 15 GPUs, where ZeRO-3 fits: ") ==
                      json_string_value(json_object_get(j, "verdict")),
                  "%s", json_string_value(json_object_get(j, "verdict")));
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(two, &out, &err), 2);
    ck_assert_msg(strstr(err, "option '--zero': 2 is not 0 or 3") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* An empty gradient AllReduce costs what `allreduce --bytes 0` says it
 * costs, nothing: NCCL discards a collective of count 0 before it launches
 * anything (src/enqueue.cc, taskAppend), so 8 GPUs on nvlink4 step in
 * T = 1 s, efficiency 1, not 1 s + 14 hops x 2 us.  One byte is priced:
 * 14 x 2e-6 + 2 x 7/8 x 1 B / 370e9 B/s = 28e-6 + 4.7297e-12 s. */
START_TEST(cli_empty_gradients_cost_nothing)
{
    const char *zero[] = {"scale", "--link", "nvlink4", "--grad-bytes", "0", "--step-compute-s",
                          "1", "--gpus", "1,8", "--json", NULL};
    const char *one[] = {"scale", "--link", "nvlink4", "--grad-bytes", "1", "--step-compute-s",
                         "1", "--gpus", "1,8", "--json", NULL};
    json_t *j = gp_test_cli_json(zero);
    json_t *r8 = json_array_get(json_object_get(j, "rows"), 1);
    GP_ASSERT_REL(gp_test_jnum(r8, "gpus"), 8.0, 0);
    GP_ASSERT_REL(gp_test_jnum(r8, "comm_s"), 0.0, 0);
    GP_ASSERT_REL(gp_test_jnum(r8, "step_s"), 1.0, 0);
    GP_ASSERT_REL(gp_test_jnum(r8, "efficiency"), 1.0, 0);
    json_decref(j);
    j = gp_test_cli_json(one);
    r8 = json_array_get(json_object_get(j, "rows"), 1);
    GP_ASSERT_REL(gp_test_jnum(r8, "comm_s"), 28e-6 + 2.0 * 7.0 / 8.0 / 370e9, 1e-12);
    json_decref(j);
}
END_TEST

/* --zero 3 gathers W = 2 B x N (or, with --grad-bytes alone, W = G).  A W
 * the AllGather cannot price is the user's --params or --grad-bytes, so the
 * refusal names that option and its value, not '--zero' (which was right):
 * --params 8e17 --grad-precision fp8 moves G = 8e17 x 1 B = 8e17 B (priced
 * without --zero), but W = 8e17 x 2 B = 1.6e18 B > 1e18; --grad-bytes 0
 * alone gathers W = G = 0 B (plain data parallelism prices 0 B). */
START_TEST(cli_zero3_weight_source)
{
    const char *big[] = {"scale", "--link", "pcie4-x16", "--params", "8e17", "--grad-precision",
                         "fp8", "--step-compute-s", "1", "--gpus", "1,2", "--zero", "3", NULL};
    const char *zero[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "0",
                          "--step-compute-s", "1", "--gpus", "1,2", "--zero", "3", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(big, &out, &err), 2);
    ck_assert_msg(strstr(err, "option '--params': 8e+17 parameters x 2 bytes") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "'--zero'") == NULL && strstr(err, "--zero:") == NULL, "%s", err);
    free(out);
    free(err);
    out = err = NULL;
    ck_assert_int_eq(gp_test_cli(zero, &out, &err), 2);
    ck_assert_msg(strstr(err, "option '--grad-bytes': 0 B") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* --micro-batches through the CLI: micro_batches_regather's numbers with
 * --grad-bytes 14GB alone (W = G = 14e9 B) on pcie4-x16 (25 GB/s, 10 us):
 * 4 GPUs, T = 1 s, --overlap 1, M = 4: ZeRO-3 4 x 1.26009 = 5.04036 s of
 * traffic, 4.04036 s shown; plain data parallelism 0.84006 s, 0.6733933 s
 * shown.  The default is 1 (JSON micro_batches 1, ZeRO-3 1.26009 s).  With
 * --zero 0 and no --overlap, M changes nothing: a note says so. */
START_TEST(cli_micro_batches)
{
    const char *z3[] = {"--json", "scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "1", "--gpus", "1,4", "--zero", "3", "--overlap",
                        "1", "--micro-batches", "4", NULL};
    const char *z3d[] = {"--json", "scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                         "--step-compute-s", "1", "--gpus", "1,4", "--zero", "3", "--overlap",
                         "1", NULL};
    const char *dp[] = {"--json", "scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "1", "--gpus", "1,4", "--overlap", "1",
                        "--micro-batches", "4", NULL};
    const char *table[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                           "--step-compute-s", "1", "--gpus", "1,4", "--zero", "3",
                           "--micro-batches", "4", NULL};
    const char *idle[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                          "--step-compute-s", "1", "--gpus", "1,4", "--micro-batches", "4",
                          NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(z3);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "micro_batches")), 4);
    GP_ASSERT_REL(jrow(j, 0, "comm_s"), 0.0, 0);
    GP_ASSERT_REL(jrow(j, 1, "comm_s"), 5.04036, 1e-9);
    GP_ASSERT_REL(jrow(j, 1, "exposed_comm_s"), 4.04036, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(z3d);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "micro_batches")), 1);
    GP_ASSERT_REL(jrow(j, 1, "comm_s"), 1.26009, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(dp);
    GP_ASSERT_REL(jrow(j, 1, "comm_s"), 0.84006, 1e-9);
    GP_ASSERT_REL(jrow(j, 1, "exposed_comm_s"), 0.6733933333, 1e-8);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(table, &out, &err), 0);
    ck_assert_msg(strstr(out, "every micro-batch, 4 a step") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "micro-batches") != NULL, "%s", out);
    free(out);
    free(err);
    out = err = NULL;
    ck_assert_int_eq(gp_test_cli(idle, &out, &err), 0);
    ck_assert_msg(strstr(err, "note: --micro-batches 4 changes nothing here") != NULL, "%s",
                  err);
    free(out);
    free(err);
}
END_TEST

START_TEST(cli_nvls)
{
    /* --algo nvls on the shipped nvlink4 (NVLS 308.6 GB/s, ring 370 GB/s,
     * 2 us), llama-sized 7B params x fp16 = 14e9 B, 1 s compute: the 8-GPU
     * row is 9/8 x 14e9/308.6e9 + 23 us = 5.1059941e-2 s, the 2-GPU row the
     * ring's 3.7841838e-2 s (nvls_rows); the JSON names the algorithm and
     * the NVLS rate. */
    const char *a[] = {"--json", "scale", "--gpu", "h100", "--link", "nvlink4", "--params",
                       "7B", "--step-compute-s", "1", "--gpus", "1,2,4,8", "--algo", "nvls",
                       NULL};
    json_t *j = gp_test_cli_json(a);
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
    GP_ASSERT_REL(gp_test_jnum(j, "link_bytes_per_s"), 308.6e9, 1e-12);
    GP_ASSERT_REL(jrow(j, 1, "comm_s"), 3.7841838e-2, 1e-7);
    GP_ASSERT_REL(jrow(j, 3, "comm_s"), 5.1059941e-2, 1e-7);
    json_decref(j);
}
END_TEST

START_TEST(cli_gpu_bridge_gives_way)
{
    /* --gpu rtx-3090 without --link: its GA102 NVLink bridge (43 GB/s
     * achievable, 2 us) joins 2 GPUs, so the rows of 4 and 8 in one node
     * take its wide_link, pcie4-x16-host (no P2P on GeForce: staged through
     * host memory, 13 GB/s achievable, 15 us a hop; host cap 460.8 / 16 =
     * 28.8 GB/s at 8, above 13).  1B params x fp16 = 2e9 B, ring: 2 GPUs on
     * the bridge 2e9 / 43e9 + 2 x 2 us = 46.515628 ms; 8 GPUs 1.75 x 2e9 /
     * 13e9 + 14 x 15 us = 269.440769 ms (over pcie4-x16 with P2P it was
     * 140.14 ms).  Each row names its link. */
    const char *a[] = {"--json", "scale", "--gpu", "rtx-3090", "--params", "1B",
                       "--step-compute-s", "1", "--gpus", "1,2,4,8", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(a), *rows;
    rows = json_object_get(j, "rows");
    GP_ASSERT_REL(jrow(j, 1, "comm_s"), 2e9 / 43e9 + 4e-6, 1e-9);
    GP_ASSERT_REL(jrow(j, 3, "comm_s"), 269.4407692e-3, 1e-9);
    ck_assert(json_is_null(json_object_get(json_array_get(rows, 0), "link")));
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 1), "link")),
                     "nvlink-bridge-ga102");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 3), "link")),
                     "pcie4-x16-host");
    ck_assert_str_eq(json_string_value(json_object_get(j, "wide_link")), "pcie4-x16-host");
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(a + 1, &out, &err), 0);
    ck_assert_msg(strstr(err, "nodes of 8 are priced over its wide link pcie4-x16-host") !=
                          NULL &&
                      strstr(err, "counts of up to 2 a node keep nvlink-bridge-ga102") != NULL,
                  "%s", err);
    free(out);
    free(err);
}
END_TEST

START_TEST(cli_bad_input)
{
    const char *lx[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", "--gpus", "1,x", NULL};
    const char *l0[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", "--gpus", "0,2", NULL};
    const char *le[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", "--gpus", "1,,2", NULL};
    const char *ov[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", "--overlap", "1.5", NULL};
    const char *on[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", "--overlap", "-0.2", NULL};
    const char *gb[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "-1GB",
                        "--step-compute-s", "2", NULL};
    const char *lk[] = {"scale", "--link", "warp-drive", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", NULL};
    const char *so[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                        "--step-compute-s", "2", "--gpus", "4,8", "--gpus-per-node", "4", NULL};
    const char *two[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB", "--params", "7B",
                         "--step-compute-s", "2", NULL};
    const char *help[] = {"scale", "--help", NULL};
    char *out = NULL;
    expect_usage(lx, NULL, "--gpus");
    expect_usage(l0, NULL, "--gpus");
    expect_usage(le, NULL, "--gpus");
    expect_usage(ov, NULL, "--overlap");
    expect_usage(on, NULL, "--overlap");
    expect_usage(gb, NULL, "--grad-bytes");
    expect_usage(lk, NULL, "--link");
    expect_usage(so, NULL, "--scale-out");
    expect_usage(two, NULL, "--params");
    {
        /* scale has no --bytes: a gradient above the 1e18-byte message cap
         * is named by the option given, with its value. */
        const char *pb[] = {"scale", "--gpu", "h100", "--link", "nvlink4", "--params", "1e30",
                            "--step-compute-s", "1", NULL};
        const char *gbb[] = {"scale", "--gpu", "h100", "--link", "nvlink4", "--grad-bytes",
                             "1e30", "--step-compute-s", "1", NULL};
        expect_usage(pb, NULL, "--params: 1e+30 parameters x 2 bytes = 2e+30 gradient bytes");
        expect_usage(gbb, NULL, "--grad-bytes: gradient bytes must be <= 1e18");
    }
    {
        /* --micro-batches: a whole number in [1, 1e6]. */
        const char *m0[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                            "--step-compute-s", "1", "--micro-batches", "0", NULL};
        const char *mf[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                            "--step-compute-s", "1", "--micro-batches", "1.5", NULL};
        const char *mb[] = {"scale", "--link", "pcie4-x16", "--grad-bytes", "14GB",
                            "--step-compute-s", "1", "--micro-batches", "2M", NULL};
        expect_usage(m0, NULL, "--micro-batches: '0' is out of range");
        expect_usage(mf, NULL, "--micro-batches: '1.5' is not an integer");
        expect_usage(mb, NULL, "option '--micro-batches' must lie in [1, 1e6] (got '2M')");
    }
    ck_assert_int_eq(gp_test_cli(help, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage"));
    /* Every option of the usage line has a line of its own in the list. */
    ck_assert_ptr_nonnull(strstr(out, "\n  --strong"));
    ck_assert_ptr_nonnull(strstr(out, "\n  --weak"));
    ck_assert_ptr_nonnull(strstr(out, "\n  --host-bw RATE"));
    ck_assert_ptr_nonnull(strstr(out, "\n  --nics-per-node K"));
    ck_assert_ptr_nonnull(strstr(out, "\n  --micro-batches M"));
    free(out);
}
END_TEST

/* --csv rows carry the JSON rows' figures: hidden_comm_s,
 * marginal_efficiency and fits too.  Llama 2 7B on A100s over PCIe
 * (25 GB/s, 10 us), 2 GPUs: 13,476,831,232 B / 25e9 + 2 x 10 us =
 * 0.53909324928 s, none hidden (--overlap 0); a 7B replica needs 16 B a
 * parameter, 107.8 GB > 85.9 GB usable: fits false. */
START_TEST(cli_csv_rows)
{
    const char *argv[] = {"--csv", "scale", "--gpu", "a100", "--link", "pcie4-x16", "--model",
                          "llama-2-7b", "--step-compute-s", "2", "--gpus", "1,2", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "gpus,nodes,step_s,compute_s,comm_s,exposed_comm_s,"
                                      "comm_fraction,speedup,efficiency,link,hidden_comm_s,"
                                      "marginal_efficiency,fits,algo\n"));
    ck_assert_ptr_nonnull(strstr(out, "\n2,1,2.53909324928,2,0.53909324928,0.53909324928,"));
    ck_assert_ptr_nonnull(strstr(out, ",pcie4-x16,0,"));
    /* PCIe has no NVLS: the default is the ring (nothing runs on 1 GPU). */
    ck_assert_ptr_nonnull(strstr(out, ",false,none\n"));
    ck_assert_ptr_nonnull(strstr(out, ",false,ring\n"));
    free(out);
    free(err);
}
END_TEST

/* --algo auto (the default) prices each count's gradient AllReduce with
 * what NCCL runs there (collectives.md, "The default algorithm").  Llama 2
 * 7B's 6,738,415,616 fp16 gradients, G = 13,476,831,232 B, on H100s
 * (nvlink4: ring 370 GB/s, 2 us; NVLS 308.6 GB/s, 23 us), nodes of 8 over
 * efa-p5 (47 GB/s a GPU, 20 us):
 *   2 GPUs: the ring (no NVLS below 3), G / 370e9 + 2 x 2 us = 36.4279 ms;
 *   8 GPUs: NVLS, 1.125 G / 308.6e9 + 23 us = 49.1529 ms;
 *   32 GPUs (4 nodes): the ring across them, 1.9375 G / (8 x 47e9) + 62 x
 *   20 us = 70.6851 ms, against NVLS-tree's max(49.13 ms, 2 (G/8) / 47e9 =
 *   71.6853 ms) + 23 us + 4 x 20 us = 71.79 ms. */
START_TEST(cli_auto_rows_name_algo)
{
    const char *argv[] = {"--json", "scale", "--gpu", "h100", "--model", "llama-2-7b",
                          "--step-compute-s", "1", "--gpus", "1,2,8,32", "--gpus-per-node", "8",
                          "--scale-out", "efa-p5", NULL};
    const char *tbl[] = {"scale", "--gpu", "h100", "--model", "llama-2-7b", "--step-compute-s",
                         "1", "--gpus", "1,2,8,32", "--gpus-per-node", "8", "--scale-out",
                         "efa-p5", NULL};
    const double G = 13476831232.0;
    static const char *const algo[] = {"none", "ring", "nvls", "ring"};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(argv), *rows = json_object_get(j, "rows");
    size_t i;
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "auto");
    for (i = 0; i < 4; i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, i), "algo")),
                         algo[i]);
    GP_ASSERT_REL(jrow(j, 1, "comm_s"), G / 370e9 + 4e-6, 1e-9);
    GP_ASSERT_REL(jrow(j, 2, "comm_s"), 1.125 * G / 308.6e9 + 23e-6, 1e-9);
    GP_ASSERT_REL(jrow(j, 3, "comm_s"), 1.9375 * G / 376e9 + 62 * 20e-6, 1e-9);
    ck_assert(1.9375 * G / 376e9 + 62 * 20e-6 < 2.0 * (G / 8.0) / 47e9 + 23e-6 + 80e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "link_nvls_bytes_per_s"), 308.6e9, 1e-12);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(tbl, &out, &err), 0);
    ck_assert_msg(strstr(out, "308.6 GB/s per direction (NVLS, expected) for the nvls rows") !=
                      NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "      8     1 nvls ") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "AllReduced (--algo auto: what NCCL runs at each count, column "
                              "algo)") != NULL,
                  "%s", out);
    free(out);
    free(err);
    /* One algorithm for every row: the header names it. */
    {
        const char *nv[] = {"scale", "--gpu", "h100", "--params", "7B", "--step-compute-s", "2",
                            "--gpus", "4,8", NULL};
        ck_assert_int_eq(gp_test_cli(nv, &out, &err), 0);
        ck_assert_msg(strstr(out, "AllReduced (nvls, NCCL's default here)") != NULL, "%s", out);
        free(out);
        free(err);
    }
}
END_TEST

Suite *gp_test_suite_scale(void)
{
    Suite *s = suite_create("scale");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, article_rows_7_8_weak);
    tcase_add_test(tc, overlap_hides_behind_backward);
    tcase_add_test(tc, cli_nic_as_link_with_nodes_note);
    tcase_add_test(tc, cli_zero_step_refused_before_warnings);
    tcase_add_test(tc, cli_empty_gradients_cost_nothing);
    tcase_add_test(tc, verdict_below_threshold_prints_apart);
    tcase_add_test(tc, two_nodes_on_100g_do_not_help);
    tcase_add_test(tc, marginal_rule);
    tcase_add_test(tc, ceiling_uses_datasheet);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, step_cap);
    tcase_add_test(tc, nvls_rows);
    tcase_add_test(tc, replica_memory);
    tcase_add_test(tc, weight_bytes_one_source);
    tcase_add_test(tc, zero3_gathers_twice_and_scatters);
    tcase_add_test(tc, micro_batches_regather);
    tcase_add_test(tc, min_gpus_rules_out_counts_that_do_not_fit);
    tcase_add_test(tc, wide_link_for_nodes_a_bridge_cannot_join);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, cli_article_rows_7_8);
    tcase_add_test(tc, cli_two_nodes_100g);
    tcase_add_test(tc, cli_plot);
    tcase_add_test(tc, cli_notes_and_ceiling_alpha);
    tcase_add_test(tc, cli_bad_input);
    tcase_add_test(tc, cli_nvls);
    tcase_add_test(tc, cli_tokens_per_gpu);
    tcase_add_test(tc, cli_replica_memory);
    tcase_add_test(tc, cli_zero3);
    tcase_add_test(tc, cli_zero3_weight_source);
    tcase_add_test(tc, cli_micro_batches);
    tcase_add_test(tc, cli_gpu_bridge_gives_way);
    tcase_add_test(tc, cli_csv_rows);
    tcase_add_test(tc, cli_auto_rows_name_algo);
    tcase_add_test(tc, cli_strong_whole_sequences);
    tcase_add_test(tc, cli_refusal_before_warnings);
    suite_add_tcase(s, tc);
    return s;
}
