/* Collectives: ring/tree AllReduce, ReduceScatter, AllGather, hierarchical
 * AllReduce, host staging, busbw against published nccl-tests figures, and
 * the `gpuplan allreduce` command.  Every expected value is derived by hand
 * in the comment above its assert. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

/* Hand-built links (figures from ../shared/reference; alphas assumed for the
 * arithmetic where the reference has none, and stated). */

/* PCIe 4.0 x16 with peer-to-peer off (GeForce): staged through host memory.
 * Achievable 13 GB/s per direction, a two-card measurement (3x RTX 4090,
 * p2pBandwidthLatencyTest P2P=Disabled: 25.6-26.2 GB/s bidirectional;
 * tinygrad open-gpu-kernel-modules#6); alpha 24.6 us (P2P disabled,
 * GPU-timed, nccl-tests#100). */
static gp_link pcie4_host(void)
{
    gp_link l = gp_test_link_pcie4();
    l.id = "pcie4-x16-host";
    l.bw_achievable.v = 13e9;
    l.latency.v = 24.6e-6;
    l.p2p = 0;
    return l;
}

/* NVLink 3 on NVSwitch (A100 SXM): 300 GB/s per direction (A100 datasheet);
 * achievable 0.78 x 300 = 234 GB/s (NCCL ring busbw efficiency 0.77-0.82,
 * calibration_methods.md sec. 4, from nccl-tests#149); alpha 2 us (assumed). */
static gp_link nvlink3(void)
{
    gp_link l;
    memset(&l, 0, sizeof l);
    l.id = "nvlink3";
    l.kind = GP_LINK_NVLINK;
    l.bw.v = 300e9;
    l.bw_achievable.v = 0.78 * 300e9;
    l.latency.v = 2e-6;
    l.p2p = 1;
    l.switched = 1;
    return l;
}

/* NVLink 4 on NVSwitch (H100 SXM): 450 GB/s per direction; achievable
 * 0.82 x 450 = 369 GB/s (same efficiency band, upper end); alpha 2 us.
 * NVLS (NVLink SHARP) per-direction rate: with NVLS each GPU moves S(1+1/n)
 * each way (docs/models/collectives.md), so busbw = 2B(n-1)/(n+1); the
 * published 8-GPU busbw of ~480 GB/s (sjeaugey, nccl-tests#212) gives
 * B = 480 x 9/14 = 308.571 GB/s, written 308.6 GB/s. */
static gp_link nvlink4(void)
{
    gp_link l = nvlink3();
    l.id = "nvlink4";
    l.bw.v = 450e9;
    l.bw_achievable.v = 0.82 * 450e9;
    l.bw_nvls.v = 308.6e9;
    return l;
}

static gp_topo one_node(const gp_link *l, long g)
{
    gp_topo t;
    memset(&t, 0, sizeof t);
    t.scale_up = l;
    t.gpus_per_node = g;
    t.nodes = 1;
    return t;
}

START_TEST(article_row7_ring_pcie)
{
    /* Article rows 7: 14 GB of gradients, 4 GPUs, ring AllReduce on PCIe 4.0
     * x16 at 25 GB/s.  Sent per GPU = 2 * 3/4 * 14 GB = 21 GB; bandwidth term
     * 21/25 = 0.84 s; latency term 2(n-1) alpha = 6 * 10 us = 60 us, so
     * t = 0.84006 s: the article's 0.84 s holds to 1e-4.  algbw = 14e9 /
     * 0.84006 = 16.6655 GB/s; busbw = 1.5 x algbw = 24.998 GB/s.  Ceiling:
     * 21/31.5 = 0.666667 s, no latency term (a bound). */
    gp_link l = gp_test_link_pcie4();
    gp_topo t = one_node(&l, 4);
    gp_comm_result r;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 14e9, NULL, &r, &e),
                     GP_OK);
    ck_assert_int_eq(r.trivial, 0);
    ck_assert_int_eq(r.gpus, 4);
    GP_ASSERT_REL(r.bytes_per_gpu, 21e9, 1e-12);
    GP_ASSERT_REL(r.expected.bw_s, 0.84, 1e-12);
    GP_ASSERT_REL(r.expected.lat_s, 60e-6, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 0.84, 1e-4);
    GP_ASSERT_REL(r.expected.time_s, 0.84006, 1e-9);
    GP_ASSERT_REL(r.bus_factor, 1.5, 1e-12);
    GP_ASSERT_REL(r.expected.algbw, 14e9 / 0.84006, 1e-9);
    GP_ASSERT_REL(r.expected.busbw, 1.5 * 14e9 / 0.84006, 1e-9);
    GP_ASSERT_REL(r.ceiling.time_s, 21.0 / 31.5, 1e-9);
    GP_ASSERT_REL(r.ceiling.lat_s, 0.0, 0);
    GP_ASSERT_REL(r.ceiling.busbw, 31.5e9, 1e-9);
    ck_assert(r.ceiling.busbw > r.expected.busbw);
    GP_ASSERT_REL(r.expected.ledger.t[GP_ACCT_MOVEMENT], r.expected.time_s, 1e-12);
    ck_assert_int_eq(r.expected.ledger.binding, GP_ACCT_MOVEMENT);
}
END_TEST

START_TEST(small_message_latency_dominated)
{
    /* 1 MiB = 1048576 B AllReduce on 8 GPUs.
     * NVLink 4 (369 GB/s, alpha 2 us): bandwidth term 2*7/8*1048576/369e9 =
     * 1835008/369e9 = 4.9729 us; latency term 14 * 2 us = 28 us: latency
     * dominates (85 % of 32.97 us).
     * PCIe 4.0 (25 GB/s, alpha 10 us): 1835008/25e9 = 73.40 us vs 14 * 10 us
     * = 140 us: latency still dominates.  At 8 GiB the same PCIe ring is
     * 15032385536/25e9 = 0.6013 s of bandwidth against 140 us. */
    gp_link l4 = nvlink4(), lp = gp_test_link_pcie4();
    gp_topo t = one_node(&l4, 8);
    gp_comm_result r;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1048576, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.bw_s, 1835008.0 / 369e9, 1e-12);
    GP_ASSERT_REL(r.expected.lat_s, 28e-6, 1e-12);
    ck_assert(r.expected.lat_s > r.expected.bw_s);
    t.scale_up = &lp;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1048576, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.bw_s, 73.40032e-6, 1e-9);
    GP_ASSERT_REL(r.expected.lat_s, 140e-6, 1e-12);
    ck_assert(r.expected.lat_s > r.expected.bw_s);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8589934592.0, NULL, &r,
                                  NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.bw_s, 15032385536.0 / 25e9, 1e-12);
    ck_assert(r.expected.bw_s > r.expected.lat_s);
}
END_TEST

START_TEST(tree_vs_ring)
{
    /* Double binary tree on 8 GPUs, NVLink 4 (369 GB/s, 2 us): the busiest
     * GPU sends 2S; depth ceil(log2 8) = 3, up and down: 6 alpha.
     * 1 MiB: 2*1048576/369e9 = 5.6833 us + 12 us = 17.683 us, below the ring's
     * 4.9729 + 28 = 32.973 us.  8 GiB: tree 2*8589934592/369e9 = 46.558 ms vs
     * ring 1.75*8589934592/369e9 = 40.738 ms: the ring wins for large S. */
    gp_link l = nvlink4();
    gp_topo t = one_node(&l, 8);
    gp_comm_result tr, rg;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, 1048576, NULL, &tr, NULL),
                     GP_OK);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1048576, NULL, &rg, NULL),
                     GP_OK);
    GP_ASSERT_REL(tr.bytes_per_gpu, 2.0 * 1048576, 1e-12);
    GP_ASSERT_REL(tr.expected.lat_s, 12e-6, 1e-12);
    GP_ASSERT_REL(tr.expected.time_s, 2.0 * 1048576 / 369e9 + 12e-6, 1e-12);
    ck_assert(tr.expected.time_s < rg.expected.time_s);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, 8589934592.0, NULL, &tr,
                                  NULL),
                     GP_OK);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8589934592.0, NULL, &rg,
                                  NULL),
                     GP_OK);
    GP_ASSERT_REL(tr.expected.bw_s, 2.0 * 8589934592.0 / 369e9, 1e-12);
    ck_assert(tr.expected.time_s > rg.expected.time_s);
    /* n = 2: each GPU has one edge per tree: sends 2 * S/2 = S, as the ring;
     * depth 1: 2 alpha. */
    t.gpus_per_node = 2;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, 1e9, NULL, &tr, NULL),
                     GP_OK);
    GP_ASSERT_REL(tr.bytes_per_gpu, 1e9, 1e-12);
    GP_ASSERT_REL(tr.expected.lat_s, 4e-6, 1e-12);
}
END_TEST

START_TEST(reducescatter_allgather)
{
    /* RS and AG of S = 8e9 on 4 GPUs, PCIe 25 GB/s, 10 us: each GPU sends
     * 3/4 * 8e9 = 6e9 B: 0.24 s + 3 alpha = 0.24003 s.  busbw = (n-1)/n *
     * algbw = 0.75 * 8e9/0.24003 = 24.997 GB/s. */
    gp_link l = gp_test_link_pcie4();
    gp_topo t = one_node(&l, 4);
    gp_comm_result r;
    int op;
    for (op = GP_COLL_REDUCESCATTER; op <= GP_COLL_ALLGATHER; op++) {
        ck_assert_int_eq(gp_comm_eval(&t, (gp_coll_op)op, GP_COLL_RING, 8e9, NULL, &r, NULL),
                         GP_OK);
        GP_ASSERT_REL(r.bytes_per_gpu, 6e9, 1e-12);
        GP_ASSERT_REL(r.expected.time_s, 0.24003, 1e-9);
        GP_ASSERT_REL(r.bus_factor, 0.75, 1e-12);
        GP_ASSERT_REL(r.expected.busbw, 0.75 * 8e9 / 0.24003, 1e-9);
    }
}
END_TEST

START_TEST(busbw_matches_nccl_tests_hand_links)
{
    /* 8 GiB AllReduce on 8 GPUs.  Ring: t = 1.75 S/B + 14 alpha; busbw =
     * 1.75 S/t = B / (1 + 14 alpha B / (1.75 S)).
     * A100/NVLink3, B = 234 GB/s: 14*2e-6*234e9/(1.75*8589934592) = 4.36e-4,
     * busbw = 233.90 GB/s; published 232.54 GB/s (nccl-tests#175,
     * all_reduce_perf -b 8 -e 4G -g 8 on 8x A100 SXM): within 10 %.
     * H100/NVLink4, B = 369 GB/s: busbw = 368.75 GB/s; published ring 370
     * GB/s (sjeaugey, nccl-tests#212): within 10 %. */
    gp_link l3 = nvlink3(), l4 = nvlink4();
    gp_topo t = one_node(&l3, 8);
    gp_comm_result r;
    const double s = 8589934592.0;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 234e9 / (1.0 + 14 * 2e-6 * 234e9 / (1.75 * s)), 1e-9);
    GP_ASSERT_REL(r.expected.busbw, 232.54e9, 0.10);
    t.scale_up = &l4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 370e9, 0.10);
    /* The ceiling is the line rate: no alpha term. */
    GP_ASSERT_REL(r.ceiling.busbw, 450e9, 1e-9);
}
END_TEST

START_TEST(host_staged_busbw_falls_with_cards)
{
    /* PCIe through host memory (p2p = 0).  Per-GPU rate min(B, H/(2n)).
     * Default H = 460.8e9 (one EPYC 9004 socket: 12 x 38.4 GB/s DDR5-4800).
     * RTX 4090-style pcie4-host, B = 13 GB/s: H/(2n) = 115.2 / 57.6 / 28.8
     * GB/s for n = 2 / 4 / 8, all above 13: link-bound, 13 GB/s each.
     * Gen5 pair rate B = 35 GB/s (nccl#1639, 4 x RTX 5090): n = 4: min(35,
     * 57.6) = 35; n = 8: min(35, 28.8) = 28.8 GB/s, host-bound (nccl#1639
     * measured 28 at 8).  A desktop host, --host-bw 89.6GB/s (2 x DDR5-5600):
     * n = 4: min(13, 11.2) = 11.2; n = 8: 5.6 GB/s.  Ceiling: no host cap,
     * each card's datasheet 31.5 GB/s per direction at every n.
     * 1 GiB AllReduce, n = 4 on the desktop: 1.5 * 1073741824/11.2e9 =
     * 0.1438047 s + 6 * 24.6 us = 0.1439523 s; busbw = 1.5 * 2^30 /
     * 0.1439523 = 11.18852 GB/s. */
    gp_link l = pcie4_host(), g5 = pcie4_host();
    gp_topo t = one_node(&l, 2);
    gp_comm_result r2, r4, r8;
    gp_comm_params p;
    const double s = 1073741824.0;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r2, NULL), GP_OK);
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r4, NULL), GP_OK);
    t.gpus_per_node = 8;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r8, NULL), GP_OK);
    ck_assert_int_eq(r2.host_staged, 1);
    ck_assert_int_eq(r8.host_bound, 0);
    GP_ASSERT_REL(r2.expected.up_bw, 13e9, 1e-12);
    GP_ASSERT_REL(r4.expected.up_bw, 13e9, 1e-12);
    GP_ASSERT_REL(r8.expected.up_bw, 13e9, 1e-12);
    GP_ASSERT_REL(r2.ceiling.up_bw, 31.5e9, 1e-12);
    GP_ASSERT_REL(r8.ceiling.up_bw, 31.5e9, 1e-12);
    /* Gen5 pair rate 35 GB/s: host memory binds at 8 cards. */
    g5.bw.v = 63e9;
    g5.bw_achievable.v = 35e9;
    t.scale_up = &g5;
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r4, NULL), GP_OK);
    t.gpus_per_node = 8;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r8, NULL), GP_OK);
    GP_ASSERT_REL(r4.expected.up_bw, 35e9, 1e-12);
    ck_assert_int_eq(r4.host_bound, 0);
    GP_ASSERT_REL(r8.expected.up_bw, 28.8e9, 1e-12);
    ck_assert_int_eq(r8.host_bound, 1);
    GP_ASSERT_REL(r8.ceiling.up_bw, 63e9, 1e-12);
    /* A desktop host (--host-bw 89.6GB/s): busbw falls as cards share it. */
    t.scale_up = &l;
    gp_comm_params_default(&p);
    p.host_bw = 89.6e9;
    GP_ASSERT_REL(gp_comm_host_bw(&p), 89.6e9, 0);
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, &p, &r4, NULL), GP_OK);
    t.gpus_per_node = 8;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, &p, &r8, NULL), GP_OK);
    GP_ASSERT_REL(r4.expected.up_bw, 11.2e9, 1e-12);
    GP_ASSERT_REL(r8.expected.up_bw, 5.6e9, 1e-12);
    GP_ASSERT_REL(r4.expected.time_s, 1.5 * s / 11.2e9 + 6 * 24.6e-6, 1e-9);
    GP_ASSERT_REL(r4.expected.busbw, 11.18852e9, 1e-5);
    ck_assert(r4.expected.busbw > r8.expected.busbw);
    GP_ASSERT_REL(r8.ceiling.up_bw, 31.5e9, 1e-12);
    p.host_bw = -1.0;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, &p, &r8, NULL),
                     GP_EINVAL);
    /* The same cards with peer-to-peer keep ~25 GB/s at n = 8. */
    {
        gp_link q = gp_test_link_pcie4();
        t.scale_up = &q;
        ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r8, NULL),
                         GP_OK);
        GP_ASSERT_REL(r8.expected.busbw, 25e9, 0.01);
        ck_assert_int_eq(r8.host_staged, 0);
    }
}
END_TEST

START_TEST(hierarchical_two_nodes)
{
    /* 2 nodes x 4 GPUs, PCIe 25 GB/s / 10 us inside, one 100 Gb/s NIC per
     * node (11 GB/s achievable, 20 us) between.  S = 13.48e9 (7B-class
     * 6.74e9 params x 2 B).
     * Hierarchical phases: intra RS: 3/4 S = 10.11e9 B -> 0.4044 s + 3 x 10
     * us; AG the same.  Inter AllReduce of S/4 = 3.37e9 among 2 GPUs: sends
     * 2 x (1/2) x 3.37e9 = 3.37e9 B; the 4 rings share one NIC: 11e9/4 =
     * 2.75e9 B/s -> 1.2254545 s + 2 x 20 us.  Bandwidth 0.8088 + 1.2254545
     * = 2.0342545 s, latency 60 + 40 us.
     * Ring across all 8: V = 2 x 7/8 x S = 23.59e9 B per rank, and each node
     * sends V off the node through its min(1, 4) NIC: rate min(25e9, 11e9)
     * = 11e9 -> 2.1445455 s, latency 14 hops x max(10, 20) us = 280 us.
     * The phases' bandwidth term is raised to the ring's (NCCL's tree never
     * beats the ring's bandwidth): 2.1445455 + 100e-6 = 2.1446455 s, below
     * the ring's 2.1448255 s, so the phases win on latency alone. */
    gp_link up = gp_test_link_pcie4(), out = gp_test_link_eth100();
    gp_topo t;
    gp_comm_result r;
    memset(&t, 0, sizeof t);
    t.scale_up = &up;
    t.gpus_per_node = 4;
    t.scale_out = &out;
    t.nodes = 2;
    t.nics_per_node = 1;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 13.48e9, NULL, &r, NULL),
                     GP_OK);
    ck_assert_int_eq(r.hierarchical, 1);
    ck_assert_int_eq(r.gpus, 8);
    ck_assert_int_eq(r.expected.flat_ring, 0);
    ck_assert_int_eq(r.expected.ring_floor, 1);
    GP_ASSERT_REL(r.bytes_per_gpu, 2 * 10.11e9 + 3.37e9, 1e-12);
    GP_ASSERT_REL(r.bytes_per_gpu_inter, 3.37e9, 1e-12);
    GP_ASSERT_REL(r.expected.out_bw, 2.75e9, 1e-12);
    GP_ASSERT_REL(r.expected.intra_s, 0.8088 + 60e-6, 1e-9);
    GP_ASSERT_REL(r.expected.inter_s, 3.37e9 / 2.75e9 + 40e-6, 1e-9);
    GP_ASSERT_REL(r.expected.bw_s, 23.59e9 / 11e9, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 2.1446455, 1e-7);
    /* busbw factor over all 8 GPUs: 2*7/8. */
    GP_ASSERT_REL(r.bus_factor, 1.75, 1e-12);
    /* Four NICs per node: the node's 4 NICs carry V at 4 x 11e9: 23.59e9 /
     * 44e9 = 0.5361364 s, while each GPU's PCIe x16 carries all of its V --
     * the 3/4 to its ring neighbour and the 1/4 to a NIC share the same
     * port -- 23.59e9 / 25e9 = 0.9436 s; the slower + 280 us = 0.94388 s.
     * The phases take 0.8088 + 3.37e9 / 11e9 = 1.1151636 s + 100 us: the
     * ring wins.  Inter (concurrent with intra): 23.59e9 / 44e9 + 14 x 20
     * us. */
    t.nics_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 13.48e9, NULL, &r, NULL),
                     GP_OK);
    ck_assert_int_eq(r.expected.flat_ring, 1);
    GP_ASSERT_REL(r.expected.time_s, 0.94388, 1e-9);
    GP_ASSERT_REL(r.expected.intra_s, 23.59e9 / 25e9, 1e-12);
    GP_ASSERT_REL(r.expected.inter_s, 23.59e9 / 44e9 + 280e-6, 1e-9);
    GP_ASSERT_REL(r.bytes_per_gpu_intra, 23.59e9 * 3 / 4, 1e-12);
    GP_ASSERT_REL(r.bytes_per_gpu_inter, 23.59e9 / 4, 1e-12);
    /* The tree is NCCL's: the chain inside each node and the tree between
     * nodes run chunk by chunk at once, so the slower stage sets the
     * bandwidth term, with no ring floor: intra, a GPU inside the chain of 4
     * passes S up and S down, 2 x 13.48e9 / 25e9 = 1.0784 s; inter the
     * 3.37e9 B shard among 2 nodes at 11e9 = 0.3063636 s; max 1.0784 +
     * latency 2 x 3 x 10 us + 2 x 20 us = 1.0785 s (the ring: 0.94388 s). */
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, 13.48e9, NULL, &r, NULL),
                     GP_OK);
    ck_assert_int_eq(r.expected.flat_ring, 0);
    ck_assert_int_eq(r.expected.ring_floor, 0);
    ck_assert_int_eq(r.expected.pipelined, 1);
    GP_ASSERT_REL(r.expected.time_s, 1.0784 + 100e-6, 1e-9);
    /* One GPU per node: a flat ring over the network, 2 alpha_out. */
    t.gpus_per_node = 1;
    t.nics_per_node = 1;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 11e9, NULL, &r, NULL),
                     GP_OK);
    ck_assert_int_eq(r.hierarchical, 0);
    GP_ASSERT_REL(r.expected.time_s, 1.0 + 40e-6, 1e-9);
}
END_TEST

START_TEST(one_gpu_zero_cost)
{
    /* n = 1: nothing moves; zero time, zero bytes, busbw factor 0. */
    gp_link l = gp_test_link_pcie4();
    gp_topo t = one_node(&l, 1);
    gp_comm_result r;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 14e9, NULL, &r, NULL),
                     GP_OK);
    ck_assert_int_eq(r.trivial, 1);
    ck_assert(r.expected.time_s == 0.0);
    ck_assert(r.ceiling.time_s == 0.0);
    ck_assert(r.bytes_per_gpu == 0.0);
    ck_assert(r.expected.busbw == 0.0);
    /* A single GPU needs no link at all. */
    t.scale_up = NULL;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 14e9, NULL, &r, NULL),
                     GP_OK);
}
END_TEST

START_TEST(bad_input_names_option)
{
    gp_link l = gp_test_link_pcie4(), bridge = nvlink3();
    gp_topo t = one_node(&l, 0);
    gp_comm_result r;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, &e),
                     GP_EINVAL);
    ck_assert_str_eq(e.where, "--gpus");
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, -1.0, NULL, &r, &e),
                     GP_EINVAL);
    ck_assert_str_eq(e.where, "--bytes");
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, NAN, NULL, &r, &e),
                     GP_EINVAL);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLGATHER, GP_COLL_TREE, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    /* A NaN or negative host rate is refused on any link (on this
     * peer-to-peer one it priced as the default, unseen); so is a negative
     * NIC count (0 is the default). */
    {
        gp_comm_params cp;
        gp_comm_params_default(&cp);
        cp.host_bw = NAN;
        ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, &cp, &r, &e),
                         GP_EINVAL);
        ck_assert_str_eq(e.where, "--host-bw");
        cp.host_bw = -1.0;
        ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, &cp, &r, &e),
                         GP_EINVAL);
        ck_assert_str_eq(e.where, "--host-bw");
        t.nics_per_node = -3;
        ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, &e),
                         GP_EINVAL);
        ck_assert_str_eq(e.where, "--nics-per-node");
        t.nics_per_node = 0;
    }
    t.nodes = 2;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, &e),
                     GP_EINVAL);
    ck_assert_str_eq(e.where, "--scale-out");
    t.nodes = 1;
    t.scale_up = NULL;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, &e),
                     GP_EINVAL);
    ck_assert_str_eq(e.where, "--link");
    /* An NVLink bridge joins two cards. */
    bridge.kind = GP_LINK_NVLINK_BRIDGE;
    bridge.max_gpus.v = 2;
    t.scale_up = &bridge;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 1e9, NULL, &r, &e),
                     GP_ERANGE);
    ck_assert_str_eq(e.where, "--gpus");
}
END_TEST

/* AllToAll (nccl-tests alltoall_perf convention: S is each rank's send
 * buffer, S/n to every rank; busbw = algbw x (n-1)/n).  Each GPU sends
 * (n-1)/n S to the others, all at once on a switched link, one message
 * per peer: t = (n-1)/n S/B + (n-1) alpha.
 * 8 GPUs on the toy nvlink4 (369 GB/s, 2 us), S = 1 GiB: 7/8 x
 * 1,073,741,824 = 939,524,096 B / 369e9 = 2.546136e-3 s + 14 us =
 * 2.560136e-3 s; busbw = S/t x 7/8.
 * 2 nodes x 8 on a 47 GB/s, 2 us scale-out with a NIC per GPU: each GPU
 * sends (g-1)/(m g) S = 7/16 S to its node's 7 peers over NVLink and
 * (m-1)/m S = S/2 to the 8 GPUs of the other node over its NIC, at the same
 * time: bandwidth max(469,762,048 / 369e9 = 1.273068e-3, 536,870,912 /
 * 47e9 = 1.142279e-2) = 1.142279e-2 s; latency 7 x 2 us + 8 x 2 us = 30 us;
 * t = 1.145279e-2 s; busbw = S/t x 15/16.  The parts: intra 1.287068e-3
 * s, inter 1.142279e-2 + 16 us = 1.143879e-2 s.  With 2 NICs for the 8
 * GPUs each gets 1/4 of one: 536,870,912 / 11.75e9 + 16 us = 4.570714e-2
 * s. */
START_TEST(alltoall_flat_and_two_level)
{
    gp_link up = nvlink4(), ib;
    gp_topo t = one_node(&up, 8);
    gp_comm_result r;
    gp_err e;
    double S = 1073741824.0, t1, t2;
    memset(&ib, 0, sizeof ib);
    ib.id = "ib";
    ib.kind = GP_LINK_INFINIBAND;
    ib.scope = GP_SCOPE_SCALE_OUT;
    ib.bw.v = 50e9;
    ib.bw_achievable.v = 47e9;
    ib.latency.v = 2e-6;
    ib.p2p = 1;
    ib.switched = 1;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLTOALL, GP_COLL_RING, S, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.bus_factor, 0.875, 1e-12);
    GP_ASSERT_REL(r.bytes_per_gpu, 939524096.0, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 2.560136e-3, 1e-6);
    GP_ASSERT_REL(r.expected.busbw, S / 2.560136e-3 * 0.875, 1e-6);
    GP_ASSERT_REL(r.ceiling.time_s, 939524096.0 / 450e9, 1e-12);
    t.scale_out = &ib;
    t.nodes = 2;
    t.nics_per_node = 8;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLTOALL, GP_COLL_RING, S, NULL, &r, &e), GP_OK);
    ck_assert_int_eq(r.hierarchical, 1);
    GP_ASSERT_REL(r.bytes_per_gpu_intra, 469762048.0, 1e-12);
    GP_ASSERT_REL(r.bytes_per_gpu_inter, 536870912.0, 1e-12);
    t1 = 469762048.0 / 369e9 + 14e-6;
    t2 = 536870912.0 / 47e9 + 16e-6;
    GP_ASSERT_REL(r.expected.intra_s, t1, 1e-12);
    GP_ASSERT_REL(r.expected.inter_s, t2, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 1.145279e-2, 1e-6);
    /* The ceiling: the slower link's bandwidth term at datasheet rates, no
     * latency: max(469,762,048 / 450e9, 536,870,912 / 50e9) = 1.073742e-2. */
    GP_ASSERT_REL(r.ceiling.time_s, 536870912.0 / 50e9, 1e-12);
    GP_ASSERT_REL(r.expected.busbw, S / r.expected.time_s * 15.0 / 16.0, 1e-12);
    t.nics_per_node = 2;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLTOALL, GP_COLL_RING, S, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.expected.inter_s, 4.570714e-2, 1e-6);
    /* Tree and NVLS are AllReduce algorithms. */
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLTOALL, GP_COLL_TREE, S, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    t.nodes = 1;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLTOALL, GP_COLL_NVLS, S, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(gp_coll_op_name(GP_COLL_ALLTOALL), "alltoall");
    {
        gp_coll_op op;
        ck_assert_int_eq(gp_coll_op_parse("All-To-All", "--op", &op, &e), GP_OK);
        ck_assert_int_eq(op, GP_COLL_ALLTOALL);
        ck_assert_int_eq(gp_coll_op_parse("a2a", "--op", &op, &e), GP_OK);
        ck_assert_int_eq(op, GP_COLL_ALLTOALL);
    }
}
END_TEST

START_TEST(names_and_parsers)
{
    gp_coll_op op;
    gp_coll_algo a;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_coll_op_parse("Reduce-Scatter", "--op", &op, &e), GP_OK);
    ck_assert_int_eq(op, GP_COLL_REDUCESCATTER);
    ck_assert_str_eq(gp_coll_op_name(GP_COLL_ALLGATHER), "allgather");
    ck_assert_int_eq(gp_coll_op_parse("bcast", "--op", &op, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--op");
    ck_assert_int_eq(gp_coll_algo_parse("TREE", "--algo", &a, &e), GP_OK);
    ck_assert_int_eq(a, GP_COLL_TREE);
    ck_assert_int_eq(gp_coll_algo_parse("nvls", "--algo", &a, &e), GP_OK);
    ck_assert_int_eq(a, GP_COLL_NVLS);
    ck_assert_int_eq(gp_coll_algo_parse("NVLink-SHARP", "--algo", &a, &e), GP_OK);
    ck_assert_int_eq(a, GP_COLL_NVLS);
    /* Bare "sharp" is ambiguous (InfiniBand SHARP is NCCL's CollNet). */
    ck_assert_int_eq(gp_coll_algo_parse("sharp", "--algo", &a, &e), GP_EINVAL);
    ck_assert_int_eq(gp_coll_algo_parse("star", "--algo", &a, &e), GP_EINVAL);
    ck_assert_str_eq(e.where, "--algo");
    ck_assert_ptr_nonnull(strstr(e.msg, "ring tree nvls"));
    ck_assert_str_eq(gp_coll_algo_name(GP_COLL_NVLS), "nvls");
    ck_assert_str_eq(gp_coll_algo_name(GP_COLL_RING), "ring");
    GP_ASSERT_REL(gp_comm_bus_factor(GP_COLL_ALLREDUCE, 8), 1.75, 1e-12);
    GP_ASSERT_REL(gp_comm_bus_factor(GP_COLL_ALLGATHER, 8), 0.875, 1e-12);
    ck_assert(gp_comm_bus_factor(GP_COLL_ALLREDUCE, 1) == 0.0);
}
END_TEST


/* ---- NVLink SHARP (NVLS) AllReduce ------------------------------------------
 * Traffic: GPU i owns chunk i (S/n).  multimem.ld_reduce: the switch reads
 * chunk i from every GPU and returns the sum, so over all chunks each GPU
 * sends S and receives S/n; multimem.st: it sends S/n and the switch writes
 * the sum into all n GPUs, so it receives S.  Each direction carries
 * S(1+1/n) (sjeaugey, nccl#1083: NVLS ReduceScatter sends S, receives S/n;
 * AllGather the reverse).  t = S(1+1/n)/B + 2 alpha; algbw = B n/(n+1);
 * busbw = algbw x 2(n-1)/n = 2B(n-1)/(n+1). */

START_TEST(nvls_h100_against_published)
{
    /* 8 x H100, B = 308.6 GB/s, NVLS latency 23 us (NCCL's tuning.cc).
     * S = 1 GiB = 1073741824: sent per GPU 9/8 S = 1207959552 B; bandwidth
     * term 1207959552 / 308.6e9 = 3.914321e-3 s; latency 23 us; t =
     * 3.937321e-3 s; algbw = 1073741824 / t = 272.709 GB/s; busbw = 1.75 x
     * algbw = 477.240 GB/s.  Published (nccl-tests#212, sjeaugey):
     * busbw ~480, algbw ~275 GB/s; both within 1 %.  The algbw is no
     * independent check of S(1+1/n): nccl-tests defines busbw = 1.75 x
     * algbw at n = 8 for every algorithm, so 480 x 8/14 = 480/1.75 = 274.3
     * follows from the busbw alone.  The GPU-count check that does test the
     * traffic model is db_nvls_against_published (nccl#1455).
     * S = 8 GiB: t = 8 x 3.914321e-3 + 23e-6 = 3.1337570e-2 s; algbw
     * 274.110; busbw 479.692 GB/s.
     * Ceiling (datasheet 450 GB/s, no latency): algbw = 450 x 8/9 = 400
     * GB/s, busbw = 2 x 450 x 7/9 = 700 GB/s; t(1 GiB) = 1207959552/450e9
     * = 2.684355e-3 s. */
    gp_link l = nvlink4();
    gp_topo t = one_node(&l, 8);
    gp_comm_result r;
    gp_err e;
    const double gib = 1073741824.0;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, gib, NULL, &r, &e), GP_OK);
    ck_assert_int_eq(r.algo, GP_COLL_NVLS);
    GP_ASSERT_REL(r.bytes_per_gpu, 1207959552.0, 1e-12);
    GP_ASSERT_REL(r.bus_factor, 1.75, 1e-12);
    GP_ASSERT_REL(r.expected.bw_s, 3.914321296e-3, 1e-9);
    GP_ASSERT_REL(r.expected.lat_s, 23e-6, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 3.937321296e-3, 1e-9);
    GP_ASSERT_REL(r.expected.algbw, 272.7087132e9, 1e-8);
    GP_ASSERT_REL(r.expected.busbw, 477.2402481e9, 1e-8);
    GP_ASSERT_REL(r.expected.busbw, 480e9, 0.01);
    GP_ASSERT_REL(r.expected.algbw, 275e9, 0.01);
    GP_ASSERT_REL(r.expected.up_bw, 308.6e9, 1e-12);
    GP_ASSERT_REL(r.ceiling.time_s, 2.68435456e-3, 1e-9);
    GP_ASSERT_REL(r.ceiling.algbw, 400e9, 1e-9);
    GP_ASSERT_REL(r.ceiling.busbw, 700e9, 1e-9);
    ck_assert(r.ceiling.busbw > 480e9); /* no published run beats it */
    GP_ASSERT_REL(r.expected.ledger.t[GP_ACCT_MOVEMENT], r.expected.time_s, 1e-12);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 8.0 * gib, NULL, &r, &e),
                     GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 3.133757037e-2, 1e-9);
    GP_ASSERT_REL(r.expected.busbw, 479.6921191e9, 1e-8);
    GP_ASSERT_REL(r.expected.busbw, 480e9, 0.01);
    GP_ASSERT_REL(r.ceiling.busbw, 700e9, 1e-9);
    /* The ring on the same link and size stays at ~369 GB/s busbw: NVLS is a
     * different algorithm, not a faster link. */
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8.0 * gib, NULL, &r, &e),
                     GP_OK);
    ck_assert(r.expected.busbw < 370e9);
}
END_TEST

START_TEST(nvls_two_and_four_gpus_by_hand)
{
    /* n = 2, S = 1 GiB: each GPU moves 1.5 S = 1610612736 B each way;
     * 1610612736 / 308.6e9 = 5.219095e-3 s + 23 us = 5.242095e-3 s; algbw =
     * 204.8307 GB/s; busbw = algbw x 2(1)/2 = algbw.  Asymptote B x 2/3 =
     * 205.73 GB/s: on 2 GPUs NVLS is slower than the ring (S/B, busbw 369),
     * which is why NCCL enables it only above 2 GPUs.  Ceiling 2 x 450 x 1/3
     * = 300 GB/s busbw.
     * n = 4, S = 8 GiB: 1.25 S = 10737418240 B; / 308.6e9 = 3.4793967e-2 s
     * + 23 us = 3.4816967e-2 s; algbw = 8589934592 / t = 246.7169 GB/s;
     * busbw = 1.5 x algbw = 370.0754 GB/s (nccl#1455 measured ~370 at 4 GPUs with
     * NCCL_ALGO=NVLS).  Ceiling 2 x 450 x 3/5 = 540 GB/s. */
    gp_link l = nvlink4();
    gp_topo t = one_node(&l, 2);
    gp_comm_result r;
    const double gib = 1073741824.0;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, gib, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.bytes_per_gpu, 1610612736.0, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 5.242095062e-3, 1e-9);
    GP_ASSERT_REL(r.expected.algbw, 204.8306662e9, 1e-8);
    GP_ASSERT_REL(r.expected.busbw, r.expected.algbw, 1e-12);
    GP_ASSERT_REL(r.ceiling.busbw, 300e9, 1e-9);
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 8.0 * gib, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.bytes_per_gpu, 10737418240.0, 1e-12);
    GP_ASSERT_REL(r.expected.time_s, 3.481696708e-2, 1e-9);
    GP_ASSERT_REL(r.expected.algbw, 246.7169117e9, 1e-8);
    GP_ASSERT_REL(r.expected.busbw, 370.0753675e9, 1e-8);
    GP_ASSERT_REL(r.ceiling.busbw, 540e9, 1e-9);
}
END_TEST

START_TEST(nvls_small_message_latency)
{
    /* 8 B on 8 GPUs: bandwidth term 9/8 x 8 / 308.6e9 = 2.9164e-11 s;
     * latency NCCL's 23 us for NVLS (tuning.cc), whatever n: t = 23.000029
     * us, latency-dominated.  Ring: 2(n-1) = 14 hops x 2 us = 28 us; tree 2
     * x log2 8 = 6 hops = 12 us, faster than NVLS (NCCL runs small
     * AllReduces as a ring or tree, not NVLS: nccl#1259).  Ceiling: 9/8 x 8
     * / 450e9 = 2e-11 s (no latency). */
    gp_link l = nvlink4();
    gp_topo t = one_node(&l, 8);
    gp_comm_result r, ring, tree;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 8.0, NULL, &r, NULL), GP_OK);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8.0, NULL, &ring, NULL),
                     GP_OK);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, 8.0, NULL, &tree, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.lat_s, 23e-6, 1e-12);
    GP_ASSERT_REL(r.expected.bw_s, 2.916396630e-11, 1e-9);
    GP_ASSERT_REL(r.expected.time_s, 23.00002916e-6, 1e-9);
    ck_assert(r.expected.lat_s > r.expected.bw_s);
    GP_ASSERT_REL(ring.expected.lat_s, 28e-6, 1e-12);
    GP_ASSERT_REL(tree.expected.lat_s, 12e-6, 1e-12);
    ck_assert(r.expected.time_s > tree.expected.time_s);
    ck_assert(r.expected.time_s < ring.expected.time_s);
    GP_ASSERT_REL(r.ceiling.time_s, 2e-11, 1e-9);
    /* The latency term does not grow with n: 4 GPUs, same 23 us. */
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 8.0, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.lat_s, 23e-6, 1e-12);
}
END_TEST

START_TEST(nvls_unsupported)
{
    /* Refused with GP_EUNSUP naming --algo: a link without an NVLS figure
     * (PCIe), ReduceScatter and AllGather (NVLS moves S one way: slower than
     * the ring's (n-1)/n S), nodes of one GPU (no switch to reduce in), a
     * figure that is not a number, a link without peer-to-peer.  One GPU
     * costs nothing whatever the link. */
    gp_link pc = gp_test_link_pcie4(), nv = nvlink4(), eth = gp_test_link_eth100();
    gp_topo t = one_node(&pc, 4);
    gp_comm_result r;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    ck_assert_msg(strstr(e.msg, "link 'pcie4-x16' has no in-network reduction (NVLS) figure"),
                  "%s", e.msg);
    t.scale_up = &nv;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_REDUCESCATTER, GP_COLL_NVLS, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    ck_assert_ptr_nonnull(strstr(e.msg, "AllReduce only"));
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLGATHER, GP_COLL_NVLS, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    /* Nodes of one GPU have no NVSwitch to reduce in; NCCL sets NVLS up only
     * for nodes of 3 or more. */
    t.nodes = 2;
    t.gpus_per_node = 1;
    t.scale_out = &eth;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    ck_assert_ptr_nonnull(strstr(e.msg, "nodes of 3 or more GPUs (2 nodes of 1)"));
    t.gpus_per_node = 4;
    t.nodes = 1;
    t.scale_out = NULL;
    nv.bw_nvls.v = NAN;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    nv.bw_nvls.v = 308.6e9;
    nv.p2p = 0;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 1e9, NULL, &r, &e),
                     GP_EUNSUP);
    ck_assert_str_eq(e.where, "--algo");
    ck_assert_ptr_nonnull(strstr(e.msg, "no peer-to-peer"));
    t.scale_up = NULL;
    t.gpus_per_node = 1;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 1e9, NULL, &r, &e), GP_OK);
    ck_assert(r.trivial && r.expected.time_s == 0.0);
}
END_TEST

/* Expect exit 2 and a message naming `opt` on stderr. */
static void expect_usage(const char *const *argv, const char *opt)
{
    char *out = NULL, *err = NULL;
    int rc = gp_test_cli(argv, &out, &err);
    ck_assert_msg(rc == 2, "exit %d (want 2), stderr: %s", rc, err ? err : "");
    ck_assert_msg(err != NULL && strstr(err, opt) != NULL, "stderr does not name %s: %s", opt,
                  err ? err : "");
    free(out);
    free(err);
}

START_TEST(db_busbw_within_10pct_of_nccl_tests)
{
    /* 8 GiB ring AllReduce on 8 GPUs with the database's achievable NVLink
     * figures: busbw = B / (1 + 14 alpha B / (1.75 S)) ~ B, against the
     * published nccl-tests figures: 8x A100 SXM 232.54 GB/s (nccl-tests#175),
     * 8x H100 SXM ring 370 GB/s (sjeaugey, nccl-tests#212).  Within 10 %. */
    const gp_db *db = gp_test_db();
    const gp_link *l3 = gp_db_find_link(db, "nvlink3"), *l4 = gp_db_find_link(db, "nvlink4");
    gp_topo t;
    gp_comm_result r;
    const double s = 8589934592.0;
    ck_assert_ptr_nonnull(l3);
    ck_assert_ptr_nonnull(l4);
    t = one_node(l3, 8);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 232.54e9, 0.10);
    t.scale_up = l4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 370e9, 0.10);
    /* The same through the CLI. */
    {
        const char *a[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "8",
                           "--bytes", "8GiB", NULL};
        const char *b[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                           "--bytes", "8GiB", "--algo", "ring", NULL};
        /* NCCL's default on the H100 NVSwitch (ar-h100sxm-8gpu-nvls):
         * ~480 GB/s busbw, what --algo auto prices (NVLS from 2 MiB); the
         * A100's NVSwitch does not reduce, so its default is the ring. */
        const char *c[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                           "--bytes", "8GiB", NULL};
        json_t *j = gp_test_cli_json(a);
        GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 232.54e9, 0.10);
        ck_assert(gp_test_jnum(j, "ceiling_busbw_bytes_per_s") > gp_test_jnum(j, "busbw_bytes_per_s"));
        ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "ring");
        json_decref(j);
        j = gp_test_cli_json(b);
        GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 370e9, 0.10);
        json_decref(j);
        j = gp_test_cli_json(c);
        GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 480e9, 0.10);
        ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
        json_decref(j);
    }
}
END_TEST

/* --link-bw: the digest's row 7 with no link named (a link of your own, alpha
 * 0 unless --link-latency): 4 GPUs, 14 GB of FP16 gradients, 25 GB/s per
 * direction: 2 x 3/4 x 14e9 = 21e9 B each / 25e9 = 0.84 s, expected and
 * ceiling alike.  With --link pcie4-x16 it replaces the expected 25 GB/s:
 * 8 GPUs, 1 GiB at 20 GB/s: 2 x 7/8 x 1073741824 / 20e9 = 93.952 ms + 14
 * hops x 10 us = 94.0924 ms; the ceiling keeps the datasheet 31.5 GB/s:
 * 1879048192 / 31.5e9 = 59.652 ms.  scale --link-bw prices its rows on the
 * same link: 2 GPUs, Llama 2 7B's 6,738,415,616 fp16 gradients,
 * 13,476,831,232 B / 25e9 = 0.539073249 s; decode --gpus 2 names it "custom". */
START_TEST(cli_link_bw)
{
    const char *own[] = {"--json", "allreduce", "--gpus", "4", "--bytes", "14GB", "--link-bw",
                         "25GB/s", NULL};
    const char *lat[] = {"--json", "allreduce", "--gpus", "4", "--bytes", "14GB", "--link-bw",
                         "25GB/s", "--link-latency", "1ms", NULL};
    const char *named[] = {"--json", "allreduce", "--link", "pcie4-x16", "--gpus", "8",
                           "--bytes", "1GiB", "--link-bw", "20GB/s", NULL};
    const char *above[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "8", "--bytes", "1GiB",
                           "--link-bw", "40GB/s", NULL};
    const char *sc[] = {"--json", "scale", "--model", "llama-2-7b", "--link-bw", "25GB/s",
                        "--step-compute-s", "2", "--gpus", "1,2", NULL};
    const char *dec[] = {"--json", "decode", "--gpu", "rtx-3090", "--model", "llama-2-13b",
                         "--gpus", "2", "--link-bw", "25GB/s", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(own), *rows;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 0.84, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_time_s"), 0.84, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 25e9, 1e-12);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"), "id")),
                     "custom");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"), "kind")),
                     "other");
    json_decref(j);
    /* 2(n - 1) = 6 hops of 1 ms on top. */
    j = gp_test_cli_json(lat);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 0.846, 1e-12);
    json_decref(j);
    j = gp_test_cli_json(named);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 94.0924096e-3, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_time_s"), 59.652323e-3, 1e-6);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"),
                                                       "expected_source")),
                     "--link-bw (given)");
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(above, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "above pcie4-x16's datasheet 31.500 GB/s"));
    free(out);
    free(err);
    j = gp_test_cli_json(sc);
    rows = json_object_get(j, "rows");
    GP_ASSERT_REL(json_real_value(json_object_get(json_array_get(rows, 1), "comm_s")),
                  0.53907324928, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(dec);
    ck_assert_str_eq(json_string_value(json_object_get(j, "link")), "custom");
    json_decref(j);
}
END_TEST

/* --nics-per-node above the node's GPUs prices as one NIC a GPU (8 here),
 * and every output reports the count priced, the given one beside it: the
 * table's "8 NICs shared by 8 GPUs (--nics-per-node 1000: ...)", JSON
 * nics_per_node 8 and nics_per_node_given 1000 (they said 1000 while the
 * note said "priced as 8").  No --nics-per-node: the default (one a GPU on
 * NVLink), no _given key. */
START_TEST(cli_nics_priced_reported)
{
    const char *js[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                        "2", "--scale-out", "ib-ndr", "--bytes", "1GiB", "--nics-per-node",
                        "1000", NULL};
    const char *tab[] = {"allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes", "2",
                         "--scale-out", "ib-ndr", "--bytes", "1GiB", "--nics-per-node", "1000",
                         NULL};
    const char *def[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                         "2", "--scale-out", "ib-ndr", "--bytes", "1GiB", NULL};
    const char *p4d[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "16", "--nodes",
                         "2", "--scale-out", "efa-p4d", "--bytes", "1GiB", "--nics-per-node", "2",
                         NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(js), *d;
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node")), 8);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node_given")), 1000);
    d = gp_test_cli_json(def);
    ck_assert_int_eq(json_integer_value(json_object_get(d, "nics_per_node")), 8);
    ck_assert_ptr_null(json_object_get(d, "nics_per_node_given"));
    ck_assert(gp_test_jnum(j, "time_s") == gp_test_jnum(d, "time_s"));
    json_decref(j);
    json_decref(d);
    /* Fewer than the GPUs: priced as given, reported as given. */
    j = gp_test_cli_json(p4d);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node_given")), 2);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(tab, &out, &err), 0);
    ck_assert_msg(strstr(out, "8 NICs shared by 8 GPUs (--nics-per-node 1000: one NIC a GPU at "
                              "most)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "1000 NICs") == NULL, "%s", out);
    ck_assert_msg(strstr(err, "priced as 8") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* allreduce's JSON carries its notes in `warnings`, as decode and scale
 * do, the same messages stderr says (without "gpuplan allreduce: note: "):
 * none -> []; NVLS on 2 GPUs (NCCL runs a ring there); --scale-out on one
 * node, ignored; --nics-per-node above the GPUs.  And a refused command
 * prints its error alone: 24 GPUs on one nvlink4 node (it joins 8) with
 * --scale-out and --nics-per-node given printed the "ignored" note first. */
START_TEST(cli_allreduce_warnings)
{
    const char *none[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                          "1GiB", NULL};
    const char *nv2[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "2", "--bytes",
                         "1GiB", "--algo", "nvls", NULL};
    const char *ign[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                         "1GiB", "--scale-out", "ib-ndr", "--nics-per-node", "1000", NULL};
    const char *bad[] = {"allreduce", "--link", "nvlink4", "--gpus", "24", "--bytes", "1GiB",
                         "--scale-out", "ib-ndr", "--nics-per-node", "4", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(none), *w;
    w = json_object_get(j, "warnings");
    ck_assert(json_is_array(w));
    ck_assert_uint_eq(json_array_size(w), 0);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(nv2, &out, &err), 0);
    j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    w = json_object_get(j, "warnings");
    ck_assert_uint_eq(json_array_size(w), 1);
    ck_assert_msg(strstr(json_string_value(json_array_get(w, 0)),
                         "NCCL does not use NVLS on 2 GPUs") ==
                      json_string_value(json_array_get(w, 0)),
                  "%s", json_string_value(json_array_get(w, 0)));
    /* Said on stderr too, under --json (it was not, nor in the JSON). */
    ck_assert_msg(strstr(err, "gpuplan allreduce: note: NCCL does not use NVLS on 2 GPUs") != NULL,
                  "%s", err);
    json_decref(j);
    free(out);
    free(err);
    j = gp_test_cli_json(ign);
    w = json_object_get(j, "warnings");
    ck_assert_uint_eq(json_array_size(w), 1);
    ck_assert_msg(strstr(json_string_value(json_array_get(w, 0)),
                         "--scale-out and --nics-per-node ignored: one node") != NULL,
                  "%s", json_string_value(json_array_get(w, 0)));
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(bad, &out, &err), 2);
    ck_assert_msg(strstr(err, "joins at most 8 GPUs") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "note:") == NULL && strstr(err, "warning:") == NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* A measured busbw past the ring's datasheet ceiling but within NVLS's is
 * NCCL's default NVLS, not an impossible run.  8 x H100 (nvlink4: 450 GB/s
 * datasheet, NVLS 308.6 GB/s expected), 8 GiB: the ring's ceiling busbw is
 * 450 GB/s; NVLS's 2 x 450 x 7/9 = 700 GB/s, expected 2 x 308.6 x 7/9 less
 * the 23 us: 479.69 GB/s.  Measured 480 GB/s (nccl-tests#212) -> verdict
 * other_algorithm, nvls, advising --algo nvls (it said "impossible: faster
 * than the datasheet ceiling").  800 GB/s beats NVLS's 700 too:
 * impossible.  480 on nvlink3 (no NVLS figure) or 2 GPUs (NCCL sets no
 * NVLS up there): impossible.  480 with --algo nvls: as_expected.  Two
 * nodes (2 x 8 over ib-ndr, 8 GiB): the ring's ceiling 400 GB/s, NVLS-tree's
 * 750 GB/s; nccl#1221's 430 GB/s with NVLS reads other_algorithm. */
START_TEST(cli_measured_past_ring_is_nvls)
{
    const char *m480[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                          "8GiB", "--measured-busbw", "480GB/s", "--algo", "ring", NULL};
    const char *t480[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "8GiB",
                          "--measured-busbw", "480GB/s", "--algo", "ring", NULL};
    const char *m800[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                          "8GiB", "--measured-busbw", "800GB/s", "--algo", "ring", NULL};
    /* The default (--algo auto) prices the NVLS NCCL runs here: 480 is
     * what it expects (479.69 GB/s, cli_nvls). */
    const char *dflt[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                          "8GiB", "--measured-busbw", "480GB/s", NULL};
    const char *nv3[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "8", "--bytes",
                         "8GiB", "--measured-busbw", "480GB/s", NULL};
    const char *two[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "2", "--bytes",
                         "8GiB", "--measured-busbw", "480GB/s", NULL};
    const char *asnv[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                          "8GiB", "--measured-busbw", "480GB/s", "--algo", "nvls", NULL};
    const char *n2[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                        "2", "--scale-out", "ib-ndr", "--bytes", "8GiB", "--measured-busbw",
                        "430GB/s", "--algo", "ring", NULL};
    double S = 8589934592.0;
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(m480), *d, *a;
    d = json_object_get(j, "diagnosis");
    ck_assert_str_eq(json_string_value(json_object_get(d, "verdict")), "other_algorithm");
    ck_assert_msg(strstr(json_string_value(json_object_get(d, "advice")),
                         "consistent with NVLink SHARP") != NULL &&
                      strstr(json_string_value(json_object_get(d, "advice")),
                             "rerun with --algo nvls") != NULL,
                  "%s", json_string_value(json_object_get(d, "advice")));
    /* The ring's own figures stay: 480 is 480/450 of its ceiling. */
    GP_ASSERT_REL(gp_test_jnum(d, "of_ceiling"), 480.0 / 450.0, 1e-9);
    a = json_object_get(d, "other_algorithm");
    ck_assert_str_eq(json_string_value(json_object_get(a, "algo")), "nvls");
    GP_ASSERT_REL(gp_test_jnum(a, "ceiling_busbw_bytes_per_s"), 700e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(a, "ceiling_s"), 9.0 / 8.0 * S / 450e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(a, "expected_s"), 9.0 / 8.0 * S / 308.6e9 + 23e-6, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(a, "expected_busbw_bytes_per_s"), 479.69e9, 1e-4);
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(t480, &out, &err), 0);
    ck_assert_msg(strstr(out, "verdict: other_algorithm: faster than the ring's datasheet "
                              "ceiling") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "impossible") == NULL, "%s", out);
    free(out);
    free(err);
    j = gp_test_cli_json(m800);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "diagnosis"),
                                                       "verdict")), "impossible");
    ck_assert_ptr_null(json_object_get(json_object_get(j, "diagnosis"), "other_algorithm"));
    json_decref(j);
    j = gp_test_cli_json(nv3);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "diagnosis"),
                                                       "verdict")), "impossible");
    json_decref(j);
    j = gp_test_cli_json(two);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "diagnosis"),
                                                       "verdict")), "impossible");
    json_decref(j);
    j = gp_test_cli_json(asnv);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "diagnosis"),
                                                       "verdict")), "as_expected");
    json_decref(j);
    j = gp_test_cli_json(dflt);
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo_requested")), "auto");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "diagnosis"),
                                                       "verdict")), "as_expected");
    json_decref(j);
    j = gp_test_cli_json(n2);
    d = json_object_get(j, "diagnosis");
    ck_assert_str_eq(json_string_value(json_object_get(d, "verdict")), "other_algorithm");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(d, "other_algorithm"),
                                                       "algo")), "nvls");
    ck_assert_msg(strstr(json_string_value(json_object_get(d, "advice")), "NVLS-tree") != NULL,
                  "%s", json_string_value(json_object_get(d, "advice")));
    json_decref(j);
}
END_TEST

/* A bare `efa` named efa-p5 (400 Gb/s a GPU, p5) whatever the node: on 8
 * A100s it priced 8 NICs at 47 GB/s where a p4d has 4 x 100 Gb/s
 * (efa-p4d).  It is no alias any more: --scale-out efa is refused, listing
 * both with the names they go by; so is a name that only begins several
 * links' (ib); eth begins one only and keeps its "did you mean". */
START_TEST(cli_efa_family_refused)
{
    const char *efa[] = {"allreduce", "--link", "nvlink3", "--gpus", "16", "--nodes", "2",
                         "--scale-out", "efa", "--bytes", "1GiB", NULL};
    const char *sc[] = {"scale", "--gpu", "a100", "--model", "llama-2-7b", "--step-compute-s",
                        "1", "--gpus", "8,16", "--gpus-per-node", "8", "--scale-out", "efa",
                        NULL};
    const char *ib[] = {"allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes", "2",
                        "--scale-out", "ib", "--bytes", "1GiB", NULL};
    const char *eth[] = {"allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes", "2",
                         "--scale-out", "eth", "--bytes", "1GiB", NULL};
    char *out = NULL, *err = NULL;
    const gp_db *db = gp_test_db();
    ck_assert_ptr_null(gp_db_find_link(db, "efa"));
    ck_assert_ptr_null(gp_db_find_link(db, "aws-efa"));
    ck_assert_ptr_eq(gp_db_find_link(db, "efa-p6"), gp_db_find_link(db, "efa-p5"));
    ck_assert_int_eq(gp_test_cli(efa, &out, &err), 2);
    ck_assert_msg(strstr(err, "--scale-out: 'efa' names no one link but begins the names of 2 "
                              "links between nodes") != NULL &&
                      strstr(err, "efa-p4d (AWS EFA on p4d") != NULL &&
                      strstr(err, "efa-p5 (AWS EFA on p5") != NULL &&
                      strstr(err, "efa-p6") != NULL,
                  "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(sc, &out, &err), 2);
    ck_assert_msg(strstr(err, "gpuplan scale: --scale-out: 'efa' names no one link") != NULL, "%s",
                  err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(ib, &out, &err), 2);
    ck_assert_msg(strstr(err, "'ib' names no one link") != NULL &&
                      strstr(err, "ib-hdr") != NULL && strstr(err, "ib-xdr") != NULL,
                  "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(eth, &out, &err), 2);
    ck_assert_msg(strstr(err, "did you mean eth-100?") != NULL, "%s", err);
    free(out);
    free(err);
}
END_TEST

/* --nics-per-node above the node's GPUs is priced as one NIC a GPU (the
 * ring's NIC rate is min(K, g) B_nic, collectives.md) and said:
 * 16 NICs for 8 GPUs cost what 8 do. */
START_TEST(cli_nics_above_gpus_noted)
{
    const char *k16[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                         "2", "--scale-out", "ib-ndr", "--bytes", "1GB", "--nics-per-node", "16",
                         NULL};
    const char *k8[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                        "2", "--scale-out", "ib-ndr", "--bytes", "1GB", "--nics-per-node", "8",
                        NULL};
    char *out = NULL, *err = NULL;
    json_t *a, *b;
    ck_assert_int_eq(gp_test_cli(k16, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "--nics-per-node 16 is more than the node's 8 GPUs: "
                                      "priced as 8"));
    a = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(a);
    b = gp_test_cli_json(k8);
    ck_assert(gp_test_jnum(a, "time_s") == gp_test_jnum(b, "time_s"));
    json_decref(a);
    json_decref(b);
    free(out);
    free(err);
}
END_TEST

/* NCCL's tree over nodes (NVIDIA/nccl#1801, GB200 in NVL8 and NVL4
 * domains joined by NDR, NCCL_ALGO=Tree, 16 GiB): 3 x 8 GPUs reach 485.7
 * GB/s busbw (the ring 393.7), 3 x 4 reach 234.4 (ring 196.7) -- above
 * the ring's network bound, so the tree's stages are pipelined, not summed.
 * By hand, 3 x 8 on nvlink5-nvl72 (680 GB/s, 2 us) and ib-ndr (47 GB/s,
 * 2 us, one NIC a GPU): intra, a GPU inside the chain passes S up and S
 * down, 2 x 17179869184 / 680e9 = 50.529 ms;
 * inter the 2147483648 B shard in a tree of 3 (1.5 x the shard sent) at
 * 47e9 = 68.5367 ms; max + 14 x 2 us + 2 x 2 x 2 us = 0.0685727122 s;
 * busbw 17179869184 / t x 46/24 = 480.19 GB/s (-1.1 %).  Ceiling (900,
 * 50 GB/s): max(33.40, 64.42 ms): 511.1 GB/s, above the measurement. */
START_TEST(cli_tree_pipelines_over_nodes)
{
    const char *t24[] = {"--json", "allreduce", "--link", "nvlink5-nvl72", "--gpus", "24",
                         "--nodes", "3", "--scale-out", "ib-ndr", "--bytes", "16GiB", "--algo",
                         "tree", NULL};
    const char *t12[] = {"--json", "allreduce", "--link", "nvlink5-nvl72", "--gpus", "12",
                         "--nodes", "3", "--scale-out", "ib-ndr", "--bytes", "16GiB", "--algo",
                         "tree", NULL};
    json_t *j = gp_test_cli_json(t24);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 1.5 * 2147483648.0 / 47e9 + 36e-6, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 485.7e9, 0.03);
    ck_assert(gp_test_jnum(j, "ceiling_busbw_bytes_per_s") > 485.7e9);
    ck_assert(json_is_true(json_object_get(json_object_get(j, "expected"), "pipelined")));
    json_decref(j);
    j = gp_test_cli_json(t12);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 234.4e9, 0.03);
    ck_assert(gp_test_jnum(j, "ceiling_busbw_bytes_per_s") > 234.4e9);
    json_decref(j);
}
END_TEST

/* NVLS-tree (NCCL's default AllReduce across NVSwitch nodes): NVLS inside
 * each node pipelined with a tree between nodes.  2 x 8 H100 (nvlink4: NVLS
 * 308.6 GB/s, NVLS latency 23 us) over ib-ndr (47 GB/s, 2 us, a NIC a
 * GPU), 8 GiB: intra 9/8 x 8589934592 / 308.6e9 = 31.3146 ms; the
 * 1073741824 B shard in a tree of 2 at 47e9 = 22.846 ms; max + 23 us + 2 x
 * 2 us = 31.3416 ms, busbw 8589934592 / t x 30/16 = 513.9 GB/s (nccl#1221
 * measured 430 on 8 x 400G RoCE, +20 %).  4 nodes: the tree of 4 sends 2 x
 * the shard, 2 x 1073741824 / 47e9 = 45.69 ms > 31.31: busbw 364.2 GB/s
 * (nccl#1221: 320 on RoCE; the ring 374.9). */
START_TEST(cli_nvls_tree_over_nodes)
{
    const char *n2[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                        "2", "--scale-out", "ib-ndr", "--bytes", "8GiB", "--algo", "nvls", NULL};
    const char *n4[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "32", "--nodes",
                        "4", "--scale-out", "ib-ndr", "--bytes", "8GiB", "--algo", "nvls", NULL};
    json_t *j = gp_test_cli_json(n2);
    double t = 1.125 * 8589934592.0 / 308.6e9 + 23e-6 + 4e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 8589934592.0 / t * 30.0 / 16.0, 1e-6);
    ck_assert_str_eq(json_string_value(json_object_get(j, "schedule")), "nvls-tree, pipelined");
    json_decref(j);
    j = gp_test_cli_json(n4);
    t = 2.0 * 1073741824.0 / 47e9 + 23e-6 + 4 * 2e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-6);
    json_decref(j);
    /* --gpus-per-node 8 (scale's and decode's option) is --nodes 4 here. */
    {
        const char *g4[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "32",
                            "--gpus-per-node", "8", "--scale-out", "ib-ndr", "--bytes", "8GiB",
                            "--algo", "nvls", NULL};
        const char *g8[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                            "--gpus-per-node", "16", "--bytes", "8GiB", NULL};
        j = gp_test_cli_json(g4);
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-6);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "nodes")), 4);
        json_decref(j);
        /* A node larger than --gpus holds them all: one node, as scale and
         * decode take it. */
        j = gp_test_cli_json(g8);
        ck_assert_int_eq(json_integer_value(json_object_get(j, "nodes")), 1);
        json_decref(j);
    }
}
END_TEST

/* The ring over nodes spares a GPU's scale-up port the 1/g it sends to a
 * NIC only with a NIC a GPU on NVLink or xGMI (collectives.md, "Two and
 * more nodes"); 2 nodes of 8, 8 GiB, V = 2 x 15/16 x 8589934592 =
 * 16,106,127,360 B, 30 hops x max(2, 2) us = 60 us:
 *  - nvlink3 (230 GB/s) with 4 ib-xdr NICs (94 GB/s each): the 4 GPUs
 *    without a NIC send all of V on NVLink: V / 230e9 = 70.0266 ms (the
 *    NICs, V / 376e9 = 42.84 ms, are faster): t = 70.0866 ms;
 *  - MI300X xGMI (336 GB/s to its 7 peers) with a NIC a GPU: 7/8 V /
 *    336e9 = 41.9430 ms against V / (8 x 94e9) = 21.42 ms: t = 42.0030 ms;
 *  - the same on PCIe 5 (pcie5-x16, its 8 NICs share the x16): V / B_up. */
START_TEST(ring_over_nodes_port_share)
{
    const char *a4[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "16",
                        "--gpus-per-node", "8", "--nics-per-node", "4", "--scale-out", "ib-xdr",
                        "--bytes", "8GiB", NULL};
    const char *mi[] = {"--json", "allreduce", "--gpu", "mi300x", "--gpus", "16",
                        "--gpus-per-node", "8", "--scale-out", "ib-xdr", "--bytes", "8GiB", NULL};
    const char *pc[] = {"--json", "allreduce", "--link", "pcie5-x16", "--gpus", "16",
                        "--gpus-per-node", "8", "--nics-per-node", "8", "--scale-out", "ib-xdr",
                        "--bytes", "8GiB", NULL};
    const double V = 16106127360.0;
    json_t *j = gp_test_cli_json(a4), *x;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), V / 230e9 + 60e-6, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(mi);
    x = json_object_get(j, "expected");
    ck_assert(json_is_true(json_object_get(x, "flat_ring")));
    GP_ASSERT_REL(gp_test_jnum(x, "intra_s"), 7.0 / 8.0 * V / 336e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 7.0 / 8.0 * V / 336e9 + 60e-6, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(pc);
    x = json_object_get(j, "expected");
    GP_ASSERT_REL(gp_test_jnum(x, "bandwidth_term_s"), V / gp_test_jnum(x, "scale_up_bytes_per_s"),
                  1e-9);
    json_decref(j);
}
END_TEST

/* AWS EFA, held out: the links' achievable figures are derived from the NDR
 * rule (0.94 x line rate), their latency from aws-ofi-nccl's tuner (20 us);
 * no row below was used to set them.  p5.48xlarge (8 x H100, 4 x 100 Gb/s
 * EFA a GPU = efa-p5, one link a GPU), 8 GiB AllReduce, measured
 * (crazyguitar/aws-gpu-communication-benchmark, data/nccl_all_reduce.csv):
 *   4 nodes: 357.0 GB/s busbw.  Ring over 32 ranks: V = 2 x 31/32 x S =
 *     16,642,998,272 B through 8 x 47 GB/s = 44.263293 ms (NVLink's 7/8 V
 *     at 369.7 GB/s is less), + 62 hops x 20 us = 45.503293 ms; busbw =
 *     V / t = 365.75 GB/s (+2.5 %).
 *   2 nodes: 477.7 GB/s (NCCL's NVLS tree at this size).  --algo nvls:
 *     9/8 x S / 308.6 GB/s = 31.3145 ms inside the node binds (the 1 GiB
 *     shard between 2 nodes takes 1073741824 / 47e9 = 22.85 ms), + 23 us +
 *     2 x 20 us = 31.3776 ms; busbw S / t x 30/16 = 513.3 GB/s (+7.5 %).
 * p4d (8 x A100, efa-p4d: 4 x 100 Gb/s a node, taken from the link without
 * --nics-per-node), 2 nodes, 1 GiB: ring V = 2 x 15/16 x S = 2,013,265,920
 * B through 4 x 11.75 GB/s = 42.835445 ms binds; the phases win on latency
 * (14 x 2 us inside + 2 x 20 us between) = 42.903445 ms, busbw 46.93 GB/s;
 * NVIDIA/nccl#527 measured 57.17 (NCCL 2.9.9: -18 %; 3 and 4 nodes 31.77
 * and 29.61 against 46.9, +48 % and +58 %, old software). */
START_TEST(cli_efa_held_out)
{
    const char *p5n4[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "32", "--nodes",
                          "4", "--scale-out", "efa-p5", "--bytes", "8GiB", NULL};
    const char *p5n2[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes",
                          "2", "--scale-out", "efa-p5", "--bytes", "8GiB", "--algo", "nvls", NULL};
    const char *p4d[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "16", "--nodes",
                         "2", "--scale-out", "efa-p4d", "--bytes", "1GiB", NULL};
    double S = 8589934592.0, V = 2.0 * 31.0 / 32.0 * S, t;
    json_t *j = gp_test_cli_json(p5n4);
    t = V / 376e9 + 62 * 20e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 365.75e9, 1e-4);
    json_decref(j);
    j = gp_test_cli_json(p5n2);
    t = 1.125 * S / 308.6e9 + 23e-6 + 2 * 20e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 513.3e9, 1e-4);
    json_decref(j);
    j = gp_test_cli_json(p4d);
    S = 1073741824.0;
    t = 2.0 * 15.0 / 16.0 * S / 47e9 + 14 * 2e-6 + 2 * 20e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-6);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node")), 4);
    json_decref(j);
}
END_TEST

/* GCP A3 Mega / A3 High / A4 (hwdb/links/gcp-a3-*.yaml, roce-400), worked
 * by hand.  --gpu h100: NVLink 4 inside (370 GB/s, 2 us; NVLS 308.6 GB/s,
 * 23 us).  S = 8 GiB = 8589934592 B, 2 nodes x 8 GPUs.
 * A3 Mega (23.6 GB/s, 47.5 us a NIC, nics_per_gpu 1 -> 8 NICs a node):
 *   default (ring over 16 ranks vs the hierarchical phases; the phases win
 *   on latency): intra ReduceScatter + AllGather 2 x 7/8 x S / 370e9 =
 *   40.628069 ms; the 1 GiB shard of each GPU, AllReduced between 2 nodes,
 *   sends 2 x 1/2 x S/8 = 1073741824 B through its own NIC at 23.6e9 =
 *   45.497535 ms; bandwidth term 86.125604 ms (the flat ring's V =
 *   2 x 15/16 x S = 16106127360 B through 8 x 23.6e9 would be 85.307878 ms
 *   + 30 x 47.5 us, 86.733 ms, slower); latency 14 x 2 us + 2 x 47.5 us =
 *   123 us; t = 86.248604 ms, busbw S / t x 30/16 = 186.74 GB/s.
 *   --algo nvls (NVLS inside, tree of the S/8 shards between nodes, NCCL's
 *   default on H100 nodes): max(9/8 x S / 308.6e9 = 31.314570 ms,
 *   1073741824 / 23.6e9 = 45.497535 ms) + 23 us + 2 x 47.5 us = 45.615535
 *   ms, busbw 353.08 GB/s -- held out: nccl-tests on 2 A3 Mega nodes,
 *   NCCL's default, 338.82 GB/s (+4.2 %; NVIDIA's TCPXO guide: ~340).
 *   16 B AllReduce: 14 x 2 us + 2 x 47.5 us = 123 us, the measured time the
 *   entry's alpha was derived from (not a check).
 *   AllGather (the run behind 23.6 GB/s): 7/8 x S / 370e9 = 20.314035 ms
 *   intra, 1/2 x S/8 = 536870912 B / 23.6e9 = 22.748768 ms inter, together
 *   43.062802 ms + 7 x 2 + 47.5 us = 43.124302 ms, busbw S / t x 15/16 =
 *   186.74 GB/s (measured 188.54, -1.0 %).
 * A3 High (22.4 GB/s, 53 us, nics_per_gpu 0.5 -> 4 NICs for 8 GPUs): the
 *   phases' 40.628069 ms inside + each 1 GiB shard through half a NIC
 *   (11.2e9) 95.869806 ms = 136.5 ms are raised to the ring's bandwidth term
 *   (ring_floor), V = 16106127360 B through the node's 4 NICs at 22.4e9 =
 *   179.755886 ms; latency of the phases 14 x 2 us + 2 x 53 us = 134 us
 *   (the ring's 30 x 53 us is more); t = 179.889886 ms against 179.880 ms in
 *   Google's sample (the run that set both figures: not a check).
 * A4 (--gpu b200, NVLS 533.6 GB/s; --scale-out gcp-a4 = roce-400, 47 GB/s,
 *   5.8 us): --algo nvls max(9/8 x S / 533.6e9 = 18.110338 ms, 1073741824 /
 *   47e9 = 22.845571 ms) + 23 us + 2 x 5.8 us = 22.880171 ms, busbw 703.93
 *   GB/s -- held out: dstack, 2 x 8 B200, 683.52 GB/s (+3.0 %). */
START_TEST(cli_gcp_a3_worked)
{
    const char *mega[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
                          "--scale-out", "gcp-a3-mega", "--bytes", "8GiB", "--algo", "ring",
                          NULL};
    /* NCCL's default, which the held-out 338.82 GB/s ran: NVLS-tree. */
    const char *dflt[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
                          "--scale-out", "gcp-a3-mega", "--bytes", "8GiB", NULL};
    const char *nvls[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
                          "--scale-out", "gcp-a3-mega", "--bytes", "8GiB", "--algo", "nvls", NULL};
    const char *tiny[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
                          "--scale-out", "tcpxo", "--bytes", "16", NULL};
    const char *ag[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
                        "--scale-out", "gcp-a3-mega", "--bytes", "8GiB", "--op", "allgather", NULL};
    const char *high[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
                          "--scale-out", "gcp-a3-high", "--bytes", "8GiB", "--algo", "ring",
                          NULL};
    const char *a4[] = {"--json", "allreduce", "--gpu", "b200", "--gpus", "16", "--nodes", "2",
                        "--scale-out", "gcp-a4", "--bytes", "8GiB", "--algo", "nvls", NULL};
    const double S = 8589934592.0, shard = S / 8.0;
    double bw, t;
    json_t *j = gp_test_cli_json(mega), *x;
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node")), 8);
    x = json_object_get(j, "expected");
    bw = 2.0 * 7.0 / 8.0 * S / 370e9 + shard / 23.6e9;
    GP_ASSERT_REL(bw, 86.125604e-3, 1e-7);
    GP_ASSERT_REL(gp_test_jnum(x, "bandwidth_term_s"), bw, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(x, "latency_term_s"), 14 * 2e-6 + 2 * 47.5e-6, 1e-9);
    t = bw + 123e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), S / t * 30.0 / 16.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 186.74e9, 1e-4);
    json_decref(j);
    j = gp_test_cli_json(nvls);
    t = shard / 23.6e9 + 23e-6 + 2 * 47.5e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 353.08e9, 1e-4);
    /* held out: 338.82 GB/s measured, within 5 % */
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 338.82e9, 0.05);
    json_decref(j);
    /* The default prices the same NVLS-tree: its time is less than the
     * ring's (above), so --algo auto takes it. */
    j = gp_test_cli_json(dflt);
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
    ck_assert_str_eq(json_string_value(json_object_get(j, "schedule")), "nvls-tree, pipelined");
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), shard / 23.6e9 + 23e-6 + 2 * 47.5e-6, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(tiny); /* the 16 bytes themselves add 0.16 ns */
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 123e-6, 1e-5);
    json_decref(j);
    j = gp_test_cli_json(ag);
    t = 7.0 / 8.0 * S / 370e9 + 0.5 * shard / 23.6e9 + 7 * 2e-6 + 47.5e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 188.54e9, 0.02);
    json_decref(j);
    j = gp_test_cli_json(high);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nics_per_node")), 4);
    t = 2.0 * 15.0 / 16.0 * S / (4 * 22.4e9) + 14 * 2e-6 + 2 * 53e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 179.880e-3, 1e-3);
    json_decref(j);
    j = gp_test_cli_json(a4);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "scale_out"), "id")),
                     "roce-400");
    t = shard / 47e9 + 23e-6 + 2 * 5.8e-6;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), t, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 683.52e9, 0.05);
    json_decref(j);
}
END_TEST

/* GeForce Turing has no PCIe P2P (nvidia-smi topo -p2p 'NS'): --gpu
 * rtx-2080-ti takes its scale-up link pcie3-x16-host (15.75 GB/s datasheet,
 * 3.05 achievable = half the 6.10 GB/s bidirectional P2P=Disabled copy of
 * a 2080 Ti pair, 15 us a hop), not the host link pcie3-x16 with P2P (12
 * GB/s).  By hand, 2 cards, 1 GiB ring AllReduce: each sends
 * 2 x 1/2 x 1073741824 B = 1073741824 B / 3.05e9 = 352.046500 ms + 2 hops x
 * 15 us = 352.076500 ms, busbw 1073741824 / 0.3520765 = 3.0497 GB/s
 * (measured on that pair, autodl_2080ti: 4.00 GB/s, 268,588 us; expected
 * 31 % long, where the P2P pcie3-x16 priced 12.00 GB/s, 3x too fast).
 * Host cap 460.8e9 / (2 x 2) = 115.2 GB/s > 3.05: link-bound.  Ceiling: no
 * latency, no host cap, 1073741824 / 15.75e9 = 68.174084 ms.  8 cards: the
 * host cap 460.8 / 16 = 28.8 GB/s still above 3.05, so 2 x 7/8 x 1073741824
 * / 3.05e9 = 616.081374 ms + 14 x 15 us = 616.291374 ms.  AllGather on the
 * pair: 1/2 x 1073741824 / 3.05e9 = 176.023250 ms + 15 us = 176.038250 ms,
 * busbw 1073741824 / t x 1/2 = 3.0497 GB/s (measured 3.84). */
START_TEST(cli_gpu_turing_geforce_staged)
{
    const char *p2[] = {"--json", "allreduce", "--gpu", "rtx-2080-ti", "--gpus", "2", "--bytes",
                        "1GiB", NULL};
    const char *p8[] = {"--json", "allreduce", "--gpu", "rtx-2080-ti", "--gpus", "8", "--bytes",
                        "1GiB", NULL};
    const char *ag[] = {"--json", "allreduce", "--gpu", "rtx-2080-ti", "--gpus", "2", "--bytes",
                        "1GiB", "--op", "allgather", NULL};
    json_t *j = gp_test_cli_json(p2);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"), "id")),
                     "pcie3-x16-host");
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 352.0764997e-3, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 1073741824.0 / 352.0764997e-3, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 3.0497e9, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_time_s"), 68.1740841e-3, 1e-8);
    json_decref(j);
    j = gp_test_cli_json(p8);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 616.2913744e-3, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(ag);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 176.0382498e-3, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 3.0497e9, 1e-4);
    json_decref(j);
}
END_TEST

/* --gpu ID instead of --link: the GPU's scale-up link, unless it joins
 * fewer GPUs than asked (a GA102 NVLink bridge joins a pair), then its
 * wide_link (GeForce RTX 3090: no PCIe P2P, so pcie4-x16-host as the RTX
 * 4090), else its host link, said on stderr.  By hand, 8 RTX 3090s staged
 * through host memory (13 GB/s achievable, 15 us a hop; host cap 460.8e9 /
 * (2 x 8) = 28.8 GB/s, above 13), 1 GiB ring AllReduce: 2 x 7/8 x
 * 1073741824 B / 13e9 B/s = 144.542169 ms + 2 x 7 x 15 us = 144.752169 ms
 * (was 75.301928 ms over pcie4-x16 with P2P, 25 GB/s).  8 H100s take
 * NVLink 4 + NVSwitch: the figure --link nvlink4 gives, within 10 % of the
 * published 370 GB/s busbw (nccl-tests#212). */
START_TEST(cli_gpu_names_link)
{
    const char *h[] = {"--json", "allreduce", "--gpu", "h100", "--gpus", "8", "--bytes", "8GiB",
                       "--algo", "ring", NULL};
    const char *hl[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                        "8GiB", "--algo", "ring", NULL};
    const char *g[] = {"--json", "allreduce", "--gpu", "rtx-3090", "--gpus", "8", "--bytes",
                       "1GiB", NULL};
    const char *g2[] = {"--json", "allreduce", "--gpu", "rtx-3090", "--gpus", "2", "--bytes",
                        "1GiB", NULL};
    const char *both[] = {"allreduce", "--gpu", "h100", "--link", "nvlink4", "--gpus", "8",
                          "--bytes", "1GiB", NULL};
    const char *mac[] = {"allreduce", "--gpu", "apple-m2-ultra", "--gpus", "2", "--bytes",
                         "1GiB", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(h), *k = gp_test_cli_json(hl);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"), "id")),
                     "nvlink4");
    ck_assert(gp_test_jnum(j, "time_s") == gp_test_jnum(k, "time_s"));
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 370e9, 0.10);
    json_decref(j);
    json_decref(k);
    j = gp_test_cli_json(g);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"), "id")),
                     "pcie4-x16-host");
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 144.752169e-3, 1e-7);
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "rtx-3090");
    json_decref(j);
    j = gp_test_cli_json(g2);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "link"), "id")),
                     "nvlink-bridge-ga102");
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(g + 1, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "nvlink-bridge-ga102 joins at most 2 GPUs"));
    ck_assert_ptr_nonnull(strstr(err, "nodes of 8 are priced over its wide link pcie4-x16-host"));
    ck_assert_ptr_nonnull(strstr(err, "--nodes 4 --scale-out ID"));
    free(out);
    free(err);
    {
        /* Two nodes of 8: the hint splits all 16 into nodes of 2. */
        const char *n2[] = {"allreduce", "--gpu", "rtx-3090", "--gpus", "16", "--nodes", "2",
                            "--scale-out", "ib-ndr", "--bytes", "1GiB", NULL};
        ck_assert_int_eq(gp_test_cli(n2, &out, &err), 0);
        ck_assert_msg(strstr(err, "nodes of 8 are priced over its wide link pcie4-x16-host") !=
                              NULL &&
                          strstr(err, "--nodes 8 --scale-out ID") != NULL,
                      "%s", err);
        free(out);
        free(err);
    }
    {
        /* hw show says which GPUs are one a machine (unified_memory). */
        const char *sp[] = {"--json", "hw", "show", "dgx-spark", NULL};
        const char *hh[] = {"--json", "hw", "show", "h100", NULL};
        json_t *o = gp_test_cli_json(sp);
        ck_assert(json_is_true(json_object_get(o, "unified_memory")));
        json_decref(o);
        o = gp_test_cli_json(hh);
        ck_assert(json_is_false(json_object_get(o, "unified_memory")));
        ck_assert(json_is_null(json_object_get(o, "wide_link")));
        json_decref(o);
    }
    {
        /* hw show names the wide link; an overlay may give it by alias
         * (pcie5-host), stored as the link's id. */
        const char *s3[] = {"--json", "hw", "show", "rtx-3090", NULL};
        char dir[64], db[96];
        const char *ov[] = {"--db", db, "--json", "hw", "show", "rtx-3090", NULL};
        json_t *o = gp_test_cli_json(s3);
        ck_assert_str_eq(json_string_value(json_object_get(o, "wide_link")), "pcie4-x16-host");
        ck_assert_str_eq(json_string_value(json_object_get(o, "scale_up_link")),
                         "nvlink-bridge-ga102");
        json_decref(o);
        ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
        snprintf(db, sizeof db, "%s", dir);
        ck_assert_int_eq(gp_test_write(dir, "gpus/w.yaml", "id: rtx-3090\nwide_link: pcie5-host\n"),
                         0);
        o = gp_test_cli_json(ov);
        ck_assert_str_eq(json_string_value(json_object_get(o, "wide_link")), "pcie5-x16-host");
        json_decref(o);
        gp_test_rmtree(dir);
    }
    expect_usage(both, "--gpu h100 both name the link");
    expect_usage(mac, "one GPU per machine");
    {
        /* Two DGX Sparks, one GPU a machine, joined by 200 GbE RoCE: a
         * collective over the scale-out link alone, priced.  By hand, 1 GiB
         * ring over 2 nodes: each sends 2 x 1/2 x S = 1073741824 B at 23.5
         * GB/s achievable = 45.6911 ms, + 2 hops x 5.8 us = 45.7027 ms. */
        const char *sp[] = {"--json", "allreduce", "--gpu", "dgx-spark", "--gpus", "2",
                            "--nodes", "2", "--scale-out", "roce-200", "--bytes", "1GiB", NULL};
        const char *dc[] = {"decode", "--gpu", "dgx-spark", "--model", "llama-2-7b", "--gpus",
                            "2", "--gpus-per-node", "1", "--scale-out", "roce-200", NULL};
        json_t *o = gp_test_cli_json(sp);
        GP_ASSERT_REL(gp_test_jnum(o, "time_s"), 1073741824.0 / 23.5e9 + 11.6e-6, 1e-9);
        json_decref(o);
        ck_assert_int_eq(gp_test_cli(dc, &out, &err), 0);
        free(out);
        free(err);
    }
}
END_TEST

/* A point-to-point mesh (MI300X xGMI: each GPU one 64 GB/s link to each of
 * its 7 peers, 48 GB/s achievable per link, rccl#1210) gives n GPUs only
 * the n - 1 links among them (docs/models/collectives.md).  By hand, 1 GiB
 * AllReduce, ring: each GPU sends 2 (n - 1)/n S and pays 2 (n - 1) hops of
 * 2 us:
 *   2 GPUs: S = 1073741824 B over 336e9 x 1/7 = 48e9 B/s: 22.369621 ms
 *     + 4 us = 22.373621 ms; busbw = S / t = 47.9915 GB/s;
 *   4 GPUs: 1.5 S = 1610612736 B over 336e9 x 3/7 = 144e9: 11.184811 ms
 *     + 12 us = 11.196811 ms;
 *   8 GPUs: 1.75 S over the whole 336e9: 5.592405 ms + 28 us.
 * The ceiling likewise: 2 GPUs at 64e9, no latency: 16.777216 ms.  A
 * switched link (nvlink4) keeps its whole per-GPU figure at 2 GPUs. */
START_TEST(xgmi_mesh_share)
{
    const gp_link *x = gp_db_find_link(gp_test_db(), "xgmi-mi300x");
    const gp_link *nv = gp_db_find_link(gp_test_db(), "nvlink4");
    const double S = 1073741824.0;
    gp_topo t;
    gp_comm_result r;
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(nv);
    GP_ASSERT_REL(gp_link_mesh_share(x, 2.0), 1.0 / 7.0, 1e-15);
    GP_ASSERT_REL(gp_link_mesh_share(x, 8.0), 1.0, 1e-15);
    GP_ASSERT_REL(gp_link_mesh_share(nv, 2.0), 1.0, 1e-15);
    GP_ASSERT_REL(gp_link_mesh_share(gp_db_find_link(gp_test_db(), "pcie5-x16"), 2.0), 1.0, 1e-15);
    t = one_node(x, 2);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, S, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 22.373621e-3, 1e-6);
    GP_ASSERT_REL(r.expected.busbw, 47.9915e9, 1e-5);
    GP_ASSERT_REL(r.ceiling.time_s, 16.777216e-3, 1e-6);
    t = one_node(x, 4);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, S, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 11.196811e-3, 1e-6);
    t = one_node(x, 8);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, S, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 1.75 * S / 336e9 + 28e-6, 1e-9);
    t = one_node(nv, 2);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, S, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.ceiling.time_s, S / 450e9, 1e-9);
    {
        /* The CLI says it: 4 GPUs reach 3 of the 7 links, 336 x 3/7 = 144. */
        const char *a[] = {"--json", "allreduce", "--link", "xgmi", "--gpus", "4", "--bytes",
                           "1GiB", NULL};
        const char *b[] = {"allreduce", "--link", "xgmi", "--gpus", "4", "--bytes", "1GiB", NULL};
        char *out = NULL;
        json_t *j = gp_test_cli_json(a);
        GP_ASSERT_REL(gp_test_jnum(j, "scale_up_mesh_share"), 3.0 / 7.0, 1e-9);
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 11.196811e-3, 1e-6);
        json_decref(j);
        ck_assert_int_eq(gp_test_cli(b, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "4 GPUs reach 3 of each GPU's 7 direct links"));
        ck_assert_ptr_nonnull(strstr(out, "144.0 GB/s"));
        free(out);
    }
}
END_TEST

/* Two H100 PCIe on the NVLink bridge (nccl#1161): the link's achievable
 * rate is the measured 116 GB/s.  Ring AllReduce on n = 2, S = 4 GiB:
 * 2(n-1)/n S = S = 4294967296 B each way / 116e9 = 3.7025580e-2 s + 2(n-1)
 * x 2 us = 3.7029580e-2 s; algbw = busbw = S / t = 115.98747 GB/s against
 * the measured 116.26 (-0.2 %). */
START_TEST(db_bridge_h100_against_published)
{
    const gp_link *l = gp_db_find_link(gp_test_db(), "nvlink-bridge-h100");
    gp_topo t;
    gp_comm_result r;
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw_achievable.v, 116e9, 1e-12);
    t = one_node(l, 2);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 4294967296.0, NULL, &r,
                                  NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 4294967296.0 / 116e9 + 4e-6, 1e-9);
    GP_ASSERT_REL(r.expected.busbw, 115.98747e9, 1e-6);
    ck_assert(fabs(r.expected.busbw / 116.26e9 - 1.0) < 0.01);
}
END_TEST

START_TEST(db_ring_b200_against_published)
{
    /* nvlink5 ring: achievable 695 GB/s (8 x B300 with NVLS off, nccl#2140),
     * alpha 2 us.  8 GPUs, 8 GiB: 2 x 7/8 x 8589934592 / 695e9 + 14 x 2 us
     * = 2.1657332e-2 s; algbw 396.629 GB/s; busbw 1.75 x that = 694.10 GB/s.
     * Not an input: 4 x GB200 with NCCL_ALGO=Ring, 679.61 GB/s at 8 GB
     * (Azure AI-benchmarking-guide, ND GB200 v6): 4 GPUs, 8 GB (8e9 B):
     * 1.5 x 8e9 / 695e9 + 6 x 2 us = 1.7278187e-2 s, busbw 1.5 x 8e9 / t =
     * 694.52 GB/s, +2.2 %.  NCCL's own ring bound for B200 (18 x 40.1 =
     * 721.8 GB/s, nccl#1807) is above both. */
    const gp_db *db = gp_test_db();
    const gp_link *l5 = gp_db_find_link(db, "nvlink5");
    gp_topo t;
    gp_comm_result r;
    ck_assert_ptr_nonnull(l5);
    GP_ASSERT_REL(l5->bw_achievable.v, 695e9, 1e-12);
    ck_assert_ptr_nonnull(strstr(l5->bw_achievable.src, "nccl issue #2140"));
    t = one_node(l5, 8);
    ck_assert_int_eq(
        gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8589934592.0, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 2.1657332e-2, 1e-7);
    GP_ASSERT_REL(r.expected.busbw, 694.10e9, 1e-5);
    GP_ASSERT_REL(r.expected.busbw, 695e9, 0.01);
    ck_assert(r.expected.busbw < 721.8e9);
    GP_ASSERT_REL(r.ceiling.busbw, 900e9, 1e-9);
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8e9, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 694.52e9, 1e-5);
    GP_ASSERT_REL(r.expected.busbw, 679.61e9, 0.03);
}
END_TEST

/* No ceiling below a real run.  nccl#1639: 8 x RTX 5090 on PCIe Gen5
 * without peer-to-peer (staged through host memory) reach 28 GB/s AllReduce
 * busbw (35 GB/s with 4).  Ceiling per card: datasheet 63 GB/s per direction,
 * no host cap, no latency term: busbw = 63 GB/s at any n > 28 and > 35.
 * Also the NVLink rows: ceiling busbw 300 > 232.54 (A100), 450 > 370
 * (H100).  And a small message: 8-byte ring AllReduce on 8 x A100, the
 * ceiling time is 1.75 x 8 / 300e9 = 4.67e-11 s: no real run beats it
 * (charging the database's 2 us per hop would give 28 us, above NCCL's
 * small-message times). */
START_TEST(db_ceiling_never_below_published_busbw)
{
    const gp_db *db = gp_test_db();
    const gp_link *h5 = gp_db_find_link(db, "pcie5-x16-host");
    const gp_link *l3 = gp_db_find_link(db, "nvlink3"), *l4 = gp_db_find_link(db, "nvlink4");
    gp_topo t;
    gp_comm_result r;
    const double s = 4294967296.0;
    ck_assert_ptr_nonnull(h5);
    ck_assert_int_eq(h5->p2p, 0);
    t = one_node(h5, 8);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.ceiling.busbw, 63e9, 1e-9);
    ck_assert(r.ceiling.busbw > 28e9);
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.ceiling.busbw, 63e9, 1e-9);
    ck_assert(r.ceiling.busbw > 35e9);
    /* Expected, 4 GiB: 4 cards link-bound at 35 GB/s, 8 host-bound at
     * 460.8/16 = 28.8 GB/s, against measured 35 and 28: within 5 %. */
    GP_ASSERT_REL(r.expected.busbw, 35e9, 0.05);
    t.gpus_per_node = 8;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 28e9, 0.05);
    t = one_node(l3, 8);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    ck_assert(r.ceiling.busbw > 232.54e9);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, 8.0, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.ceiling.time_s, 1.75 * 8.0 / 300e9, 1e-9);
    ck_assert(r.expected.time_s > r.ceiling.time_s);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    t.scale_up = l4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, s, NULL, &r, NULL), GP_OK);
    ck_assert(r.ceiling.busbw > 370e9);
}
END_TEST

START_TEST(cli_article_row7)
{
    /* pcie4-x16 in the database: 31.5 GB/s datasheet, 25 GB/s achievable,
     * alpha 10 us.  4 GPUs, 14 GB: 21 GB per GPU, 0.84 s + 60 us; ceiling
     * 21/31.5 s + 60 us = 0.666727 s; busbw 1.5 x 14e9/0.84006 = 24.998
     * GB/s; the bandwidth term dominates. */
    const char *a[] = {"--json", "allreduce", "--link", "pcie4-x16", "--gpus", "4",
                       "--bytes", "14GB", NULL};
    json_t *j = gp_test_cli_json(a), *led;
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_gpu"), 21e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 0.84, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "algbw_bytes_per_s"), 14e9 / 0.84, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 25e9, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_time_s"), 21.0 / 31.5, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_busbw_bytes_per_s"), 31.5e9, 1e-3);
    ck_assert_str_eq(json_string_value(json_object_get(j, "dominant")), "bandwidth");
    led = json_object_get(j, "ledger");
    ck_assert_ptr_nonnull(led);
    GP_ASSERT_REL(gp_test_jnum(led, "movement_s"), gp_test_jnum(j, "time_s"), 1e-9);
    json_decref(j);
}
END_TEST

START_TEST(cli_small_message_and_one_gpu)
{
    /* 1 MiB on 8x NVLink 4 (370 GB/s, 2 us): 1835008/370e9 = 4.96 us of
     * bandwidth vs 14 x 2 us = 28 us of latency: "latency".  One GPU: zero. */
    const char *a[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                       "--bytes", "1MiB", NULL};
    const char *b[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "1",
                       "--bytes", "1GB", NULL};
    const char *c[] = {"allreduce", "--link", "nvlink4", "--gpus", "1", "--bytes", "1GB", NULL};
    char *out = NULL;
    json_t *j = gp_test_cli_json(a);
    ck_assert_str_eq(json_string_value(json_object_get(j, "dominant")), "latency");
    GP_ASSERT_REL(gp_test_jnum(j, "latency_term_s"), 28e-6, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "bandwidth_term_s"), 1835008.0 / 370e9, 1e-9);
    json_decref(j);
    j = gp_test_cli_json(b);
    ck_assert(gp_test_jnum(j, "time_s") == 0.0);
    ck_assert(gp_test_jnum(j, "bytes_per_gpu") == 0.0);
    ck_assert(json_is_true(json_object_get(j, "trivial")));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(j, "note")), "zero cost"));
    /* algbw = S / 0 s is undefined, and so is busbw; no account binds. */
    ck_assert(json_is_null(json_object_get(j, "algbw_bytes_per_s")));
    ck_assert(json_is_null(json_object_get(j, "busbw_bytes_per_s")));
    ck_assert(json_is_null(json_object_get(j, "ceiling_busbw_bytes_per_s")));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "ledger"), "binding")),
                     "none");
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(c, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "costs nothing"));
    free(out);
}
END_TEST

START_TEST(cli_multi_node_published)
{
    /* 8 x A100 per node (nvlink3: 230 GB/s, 2 us) with 4 HDR NICs per node
     * (ib-hdr: 23.5 GB/s, 2 us).
     * Two nodes, S = 4 GiB (nccl-tests#175 / nccl#1048: 86 GB/s busbw
     * between two such nodes, the bound put at 96-100 GB/s):
     *   ring: V = 2 x 15/16 x S = 8,053,063,680 B at min(230e9, 4 x 23.5e9 =
     *   94e9) = 0.08567089 s + 30 x 2 us; phases 2 x 7/8 x S / 230e9 +
     *   (S/8) / (23.5e9 x 4/8) = 0.0326774 + 0.0456911 s, raised to the
     *   ring's 0.08567089, + 32 us of latency = 0.08570289 s (the phases win
     *   on latency): busbw V / t = 93.965 GB/s, +9 % on the measured 86.
     * Three nodes, S = 128 MiB (nccl-tests#119: 96 GB/s peak busbw at 128M,
     * "theoretical 100 GB/s"): ring V = 2 x 23/24 x S = 257,250,645 B / 94e9
     *   = 2.736709e-3 s + 46 x 2 us = 2.828709e-3 s; phases 1.021190e-3 +
     *   4/3 x (S/8) / 11.75e9 = 1.903797e-3, + 36 us = 2.960987e-3: the ring
     *   wins, busbw 257,250,645 / 2.828709e-3 = 90.94 GB/s (-5 %). */
    const char *a[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "16", "--nodes", "2",
                       "--scale-out", "ib-hdr", "--nics-per-node", "4", "--bytes", "4GiB", NULL};
    const char *b[] = {"--json", "allreduce", "--link", "nvlink3", "--gpus", "24", "--nodes", "3",
                       "--scale-out", "ib-hdr", "--nics-per-node", "4", "--bytes", "128MiB",
                       NULL};
    json_t *j = gp_test_cli_json(a);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 0.08570289, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 93.965e9, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 86e9, 0.10);
    ck_assert_str_eq(json_string_value(json_object_get(j, "schedule")), "hierarchical phases");
    json_decref(j);
    j = gp_test_cli_json(b);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 2.828709e-3, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 90.94e9, 1e-4);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 96e9, 0.10);
    ck_assert_str_eq(json_string_value(json_object_get(j, "schedule")), "ring across all nodes");
    ck_assert(json_is_true(json_object_get(json_object_get(j, "expected"), "flat_ring")));
    json_decref(j);
}
END_TEST

START_TEST(cli_two_nodes_and_sweep)
{
    /* 8 GPUs = 2 nodes x 4 on pcie4-x16, one roce-100 NIC per node (12.2
     * GB/s achievable, 5.8 us).  S = 13.48 GB: intra 2 x (0.75 x 13.48/25 +
     * 3 x 10 us) = 0.80886 s; inter 3.37e9 / (12.2e9/4) + 2 x 5.8 us =
     * 1.1049297 s: phases 1.9137897 s, but their bandwidth term (1.9136697 s)
     * is raised to the ring's: V = 1.75 x 13.48e9 = 23.59e9 B through the
     * node's one NIC, 23.59e9 / 12.2e9 = 1.9336066 s; + 71.6 us of phase
     * latency = 1.9336782 s, under the ring's 1.9336066 + 14 x 10 us. */
    const char *a[] = {"--json", "allreduce", "--link", "pcie4-x16", "--gpus", "8", "--nodes",
                       "2", "--scale-out", "roce-100", "--bytes", "13.48GB", "--sweep", NULL};
    json_t *j = gp_test_cli_json(a), *sw;
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 23.59e9 / 12.2e9 + 71.6e-6, 1e-6);
    ck_assert_str_eq(json_string_value(json_object_get(j, "schedule")), "hierarchical phases");
    ck_assert(json_is_true(json_object_get(j, "hierarchical")));
    sw = json_object_get(j, "sweep");
    ck_assert(json_is_array(sw) && json_array_size(sw) > 10);
    GP_ASSERT_REL(gp_test_jnum(json_array_get(sw, 0), "bytes"), 8.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(json_array_get(sw, json_array_size(sw) - 1), "bytes"), 13.48e9, 1e-9);
    json_decref(j);
}
END_TEST

/* The text sweep's size column: the doubling sizes are whole binary units
 * (64 MiB); the last row is S itself, 1e8 B = 1e8 / 1048576 = 95.367 MiB,
 * printed "95.37 MiB" (it read "95 MiB", a size the run did not price);
 * 1000 B stays "1000 B". */
START_TEST(cli_sweep_last_size_not_rounded)
{
    const char *a[] = {"allreduce", "--gpu", "h100", "--gpus", "8", "--bytes", "100MB",
                       "--sweep", NULL};
    const char *b[] = {"allreduce", "--gpu", "h100", "--gpus", "8", "--bytes", "1000",
                       "--sweep", NULL};
    char *out = NULL;
    ck_assert_int_eq(gp_test_cli(a, &out, NULL), 0);
    ck_assert_msg(strstr(out, "     64 MiB ") != NULL, "%.400s", out);
    ck_assert_msg(strstr(out, "  95.37 MiB ") != NULL, "%.400s", out);
    ck_assert_ptr_null(strstr(out, " 95 MiB "));
    free(out);
    ck_assert_int_eq(gp_test_cli(b, &out, NULL), 0);
    ck_assert_msg(strstr(out, "  1000 B ") != NULL, "%.400s", out);
    free(out);
}
END_TEST

/* Links in the other role: priced as asked (a flat ring of 8 single-GPU
 * nodes on NDR is legitimate: 1.75 x 1 GiB / 47e9 + 14 x 2 us = 40.008 ms),
 * with a note on stderr naming the option and the alternative; an NVLink
 * between nodes is warned about.  Exit 0 both. */
START_TEST(cli_link_scope_notes)
{
    const char *a[] = {"--json", "allreduce", "--link", "ib-ndr", "--gpus", "8", "--bytes",
                       "1GiB", NULL};
    const char *b[] = {"allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes", "2",
                       "--scale-out", "nvlink4", "--bytes", "1GiB", NULL};
    const char *c[] = {"allreduce", "--link", "nvlink4", "--gpus", "16", "--nodes", "2",
                       "--scale-out", "ib-ndr", "--bytes", "1GiB", NULL};
    char *out = NULL, *err = NULL;
    json_t *j;
    ck_assert_int_eq(gp_test_cli(a, &out, &err), 0);
    ck_assert_msg(strstr(err, "--link ib-ndr") && strstr(err, "--scale-out ib-ndr"), "%s", err);
    j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 1.75 * 1073741824.0 / 47e9 + 14 * 2e-6, 1e-9);
    json_decref(j);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(b, NULL, &err), 0);
    ck_assert_msg(strstr(err, "warning: --scale-out nvlink4") != NULL, "%s", err);
    free(err);
    ck_assert_int_eq(gp_test_cli(c, NULL, &err), 0);
    ck_assert_msg(err == NULL || err[0] == '\0', "unexpected stderr: %s", err);
    free(err);
    /* Options that price nothing are said: a scale-out link and NICs on one
     * node, host staging bandwidth on a peer-to-peer link. */
    {
        const char *d[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "1GiB",
                           "--scale-out", "ib-ndr", "--nics-per-node", "4", NULL};
        const char *f[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "1GiB",
                           "--host-bw", "100GB/s", NULL};
        ck_assert_int_eq(gp_test_cli(d, NULL, &err), 0);
        ck_assert_msg(strstr(err, "--scale-out and --nics-per-node ignored: one node") != NULL,
                      "%s", err);
        free(err);
        ck_assert_int_eq(gp_test_cli(f, NULL, &err), 0);
        ck_assert_msg(strstr(err, "--host-bw ignored: link 'nvlink4' has peer-to-peer") != NULL,
                      "%s", err);
        free(err);
    }
    /* A NIC as --link with --nodes and --scale-out already given: the note
     * must point at --link (the link inside a node), not ask again for the
     * options the user gave. */
    {
        const char *g[] = {"allreduce", "--link", "ib-ndr", "--gpus", "16", "--nodes", "2",
                           "--scale-out", "ib-ndr", "--bytes", "1GiB", NULL};
        ck_assert_int_eq(gp_test_cli(g, NULL, &err), 0);
        ck_assert_msg(strstr(err, "--link names the link inside a node") != NULL &&
                          strstr(err, "give --nodes M") == NULL,
                      "%s", err);
        free(err);
    }
}
END_TEST

/* nccl-tests printed 250 GB/s busbw for a 4 GiB AllReduce on 8 x H100
 * (nvlink4): t = 1.75 x 4,294,967,296 / 250e9 = 30.0648 ms.  The ceiling
 * 1.75 S / 450e9 = 16.7027 ms is 250/450 = 55.6 % of it, the link 55.6 %
 * busy (not saturated); expected 1.75 S / 370e9 + 14 x 2 us = 20.3420 ms,
 * and 30.06 > 1.15 x 20.34: slower, with the collective's own advice. */
START_TEST(cli_measured_busbw)
{
    const char *a[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                       "4GiB", "--measured-busbw", "250GB/s", "--algo", "ring", NULL};
    const char *one[] = {"allreduce", "--link", "nvlink4", "--gpus", "1", "--bytes", "4GiB",
                         "--measured-busbw", "250GB/s", NULL};
    char *out = NULL, *err = NULL;
    json_t *j, *d;
    ck_assert_int_eq(gp_test_cli(a, &out, &err), 0);
    j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    d = json_object_get(j, "diagnosis");
    ck_assert_ptr_nonnull(d);
    GP_ASSERT_REL(gp_test_jnum(d, "measured_s"), 1.75 * 4294967296.0 / 250e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(d, "of_ceiling"), 250.0 / 450.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(d, "expected_s"), 1.75 * 4294967296.0 / 370e9 + 14 * 2e-6, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(d, "utilisation"), "movement"), 250.0 / 450.0,
                  1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(d, "verdict")), "slower");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(d, "advice")), "NCCL_DEBUG"));
    json_decref(j);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(one, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--measured-busbw needs at least 2 GPUs"));
    free(err);
}
END_TEST

/* S = 0 on 8 x nvlink4: an empty collective.  NCCL discards it before it
 * launches anything (NVIDIA/nccl src/enqueue.cc, taskAppend: "Empty
 * collectives can be discarded", count == 0 returns ncclSuccess), so
 * nothing is priced -- no 14 hops x 2 us of latency: time 0 s, expected
 * and ceiling alike, and algbw/busbw 0 / 0 are not numbers.  The three
 * outputs say that alike -- the table's note, JSON null and "trivial",
 * CSV empty fields (never "inf" or "nan") -- and the bus factor stays
 * 2(n-1)/n = 1.75 in JSON. */
START_TEST(cli_zero_bytes_outputs_agree)
{
    const char *tab[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "0", NULL};
    const char *swp[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "0",
                         "--sweep", NULL};
    const char *csv[] = {"--csv", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                         "0", NULL};
    const char *js[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                        "0", NULL};
    char *out = NULL, *err = NULL;
    json_t *j;
    ck_assert_int_eq(gp_test_cli(tab, &out, &err), 0);
    ck_assert_msg(strstr(out, "0 bytes: an empty collective") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "time 0 s") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "28.000 us"));
    ck_assert_ptr_null(strstr(out, "hint: "));
    free(out);
    free(err);
    /* The sweep table's one row says it too: algbw and busbw n/a (it
     * printed busbw 0.00 B/s beside algbw n/a). */
    ck_assert_int_eq(gp_test_cli(swp, &out, &err), 0);
    ck_assert_msg(strstr(out, "0 B       0.00 s            n/a            n/a       0.00 s  none      none") !=
                      NULL,
                  "%s", out);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(csv, &out, &err), 0);
    ck_assert_msg(strstr(out, "inf") == NULL && strstr(out, ",nan") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "\n0,0,,,0,,none,none\n") != NULL, "%s", out);
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(js, &out, &err), 0);
    j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    ck_assert(json_is_null(json_object_get(j, "ceiling_busbw_bytes_per_s")));
    ck_assert(json_is_null(json_object_get(j, "busbw_bytes_per_s")));
    ck_assert(json_is_true(json_object_get(j, "trivial")));
    GP_ASSERT_REL(gp_test_jnum(j, "bus_factor"), 1.75, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 0.0, 0);
    json_decref(j);
    free(out);
    free(err);
}
END_TEST

/* The NVLS hint only where NCCL runs NVLS: 8 x nvlink4, from 2 MiB up
 * (docs/models/collectives.md, Latency); at 8 B and 1 MiB NCCL runs the
 * ring with its LL protocol, so no hint. */
START_TEST(cli_nvls_hint_from_2mib)
{
    static const struct {
        const char *bytes;
        int hint;
    } cases[] = {{"8", 0}, {"1MiB", 0}, {"2097151", 0}, {"2MiB", 1}, {"8GiB", 1}};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *a[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                           cases[i].bytes, "--algo", "ring", NULL};
        char *out = NULL;
        ck_assert_int_eq(gp_test_cli(a, &out, NULL), 0);
        ck_assert_msg((strstr(out, "hint: ") != NULL) == cases[i].hint, "%s: %s",
                      cases[i].bytes, out);
        free(out);
    }
}
END_TEST

START_TEST(db_nvls_against_published)
{
    /* The shipped nvlink4 entry: nvls 308.6 GB/s; NVLS latency NCCL's
     * 23 us (GP_COMM_NVLS_LATENCY, not the link's 2 us).
     * 8 GPUs, 8 GiB: busbw 479.69 GB/s vs ~480 published (nccl-tests#212,
     * H100).  Same link for H200: 8 x H200 default AllReduce peaked at 475
     * GB/s busbw at 4 GiB (nccl-tests#272): model 4 GiB t = 9/8 x
     * 4294967296/308.6e9 + 23 us = 1.5680285e-2 s, busbw 1.75 x
     * 4294967296/t = 479.34 GB/s, +0.9 %.
     * Other GPU counts from the same figure (nccl#1455, 8 x H100,
     * NCCL_ALGO=NVLS, 2-4 GiB; measured algbw): 4 GiB, algbw = S / (S(1+1/n)
     * /308.6e9 + 23 us): n=5 256.81 (258 measured), n=6 264.14 (265), n=7
     * 269.64 (270), n=8 273.91 (273); n=4 busbw 1.5 x 246.55 = 369.83 (~370).
     * Within 1 % each: the n/(n+1) shape, not a refit per count. */
    const gp_db *db = gp_test_db();
    const gp_link *l4 = gp_db_find_link(db, "nvlink4");
    const gp_gpu *h200 = gp_db_find_gpu(db, "h200");
    const double s4 = 4294967296.0;
    const double algbw[4] = {258e9, 265e9, 270e9, 273e9};
    gp_topo t;
    gp_comm_result r;
    long n;
    ck_assert_ptr_nonnull(l4);
    ck_assert_ptr_nonnull(h200);
    ck_assert_str_eq(h200->scale_up_link, "nvlink4");
    GP_ASSERT_REL(l4->bw_nvls.v, 308.6e9, 1e-12);
    ck_assert_ptr_nonnull(strstr(l4->bw_nvls.src, "nccl-tests issue #212"));
    ck_assert_ptr_nonnull(strstr(l4->bw_nvls.origin, "builtin:links/nvlink4.yaml"));
    t = one_node(l4, 8);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, 2.0 * s4, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 480e9, 0.01);
    GP_ASSERT_REL(r.ceiling.busbw, 700e9, 1e-9);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, s4, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 475e9, 0.015);
    for (n = 5; n <= 8; n++) {
        t.gpus_per_node = n;
        ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, s4, NULL, &r, NULL),
                         GP_OK);
        GP_ASSERT_REL(r.expected.algbw, algbw[n - 5], 0.01);
    }
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, s4, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 370e9, 0.01);
    /* No NVLS figure for NVLink 3 (A100: no in-switch reduction) or any
     * PCIe/NIC link. */
    ck_assert(gp_db_find_link(db, "nvlink3")->bw_nvls.v == 0.0);
    ck_assert(gp_db_find_link(db, "pcie4-x16")->bw_nvls.v == 0.0);
}
END_TEST

START_TEST(db_nvls_b200_against_published)
{
    /* The shipped nvlink5 entry: nvls 533.6 GB/s (830 x 9/14 = 533.571,
     * nccl#1807: 8 x B200 busbw "830+"), alpha 2 us, datasheet 900 GB/s.
     * 8 GPUs, 8 GiB: 9/8 x 8589934592 = 9663676416 B each way;
     * t = 9663676416 / 533.6e9 + 23 us (NVLS) = 1.8133338e-2 s; algbw =
     * 8589934592 / t = 473.710 GB/s; busbw = 1.75 x algbw = 828.99 GB/s
     * against 830+ published.  Ceiling 2 x 900 x 7/9 = 1400 GB/s.
     * Check that is not an input (nccl#2140, 8 x B300 on the same NVLink 5
     * switch, NVLS confirmed by switching it off and on, 4-8 GiB): busbw
     * 845, algbw 483; model at 4 GiB t = 9/8 x 4294967296 / 533.6e9 + 23
     * us = 9.0781691e-3 s, algbw 473.11, busbw 827.94: -2.0 % on both (a
     * B300, whose NVLS rate nccl#1807's B200 figure only approaches).
     * 4 GPUs, 8 GiB: t = 1.25 x 8589934592 / 533.6e9 + 23 us =
     * 2.0145752e-2 s, algbw 426.39, busbw 1.5 x 426.39 = 639.59 GB/s. */
    const gp_db *db = gp_test_db();
    const gp_link *l5 = gp_db_find_link(db, "nvlink5");
    const gp_gpu *b200 = gp_db_find_gpu(db, "b200");
    const double s8 = 8589934592.0, s4 = 4294967296.0;
    gp_topo t;
    gp_comm_result r;
    ck_assert_ptr_nonnull(l5);
    ck_assert_ptr_nonnull(b200);
    ck_assert_str_eq(b200->scale_up_link, "nvlink5");
    GP_ASSERT_REL(l5->bw_nvls.v, 533.6e9, 1e-12);
    ck_assert_ptr_nonnull(strstr(l5->bw_nvls.src, "nccl issue #1807"));
    ck_assert_ptr_nonnull(strstr(l5->bw_nvls.origin, "builtin:links/nvlink5.yaml"));
    t = one_node(l5, 8);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, s8, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.time_s, 1.8133338e-2, 1e-7);
    GP_ASSERT_REL(r.expected.algbw, 473.710e9, 1e-5);
    GP_ASSERT_REL(r.expected.busbw, 828.99e9, 1e-5);
    GP_ASSERT_REL(r.expected.busbw, 830e9, 0.01);
    GP_ASSERT_REL(r.ceiling.busbw, 1400e9, 1e-9);
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, s4, NULL, &r, NULL), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 827.94e9, 1e-5);
    GP_ASSERT_REL(r.expected.busbw, 845e9, 0.025);
    GP_ASSERT_REL(r.expected.algbw, 483e9, 0.025);
    t.gpus_per_node = 4;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_NVLS, s8, NULL, &r, NULL),
                     GP_OK);
    GP_ASSERT_REL(r.expected.algbw, 426.39e9, 1e-4);
    GP_ASSERT_REL(r.expected.busbw, 639.59e9, 1e-4);
    /* The same through the CLI (8 GPUs, 8 GiB, hand values above); the ring
     * table on nvlink5 now carries the NVLS hint with that busbw. */
    {
        const char *a[] = {"--json", "allreduce", "--link", "nvlink5", "--gpus", "8",
                           "--bytes", "8GiB", "--algo", "nvls", NULL};
        const char *ring[] = {"allreduce", "--link", "nvlink5", "--gpus", "8", "--bytes",
                              "8GiB", "--algo", "ring", NULL};
        char *out = NULL;
        json_t *j = gp_test_cli_json(a);
        ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
        GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_gpu"), 9663676416.0, 1e-12);
        GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 828.99e9, 1e-5);
        GP_ASSERT_REL(gp_test_jnum(j, "algbw_bytes_per_s"), 473.710e9, 1e-5);
        GP_ASSERT_REL(gp_test_jnum(j, "ceiling_busbw_bytes_per_s"), 1400e9, 1e-9);
        GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "link"), "nvls_bytes_per_s"), 533.6e9,
                      1e-12);
        json_decref(j);
        ck_assert_int_eq(gp_test_cli(ring, &out, NULL), 0);
        ck_assert_msg(strstr(out, "--algo auto or nvls gives busbw 828.99 GB/s"), "%s", out);
        free(out);
    }
}
END_TEST

START_TEST(cli_nvls)
{
    /* --algo nvls on the shipped nvlink4, 8 GPUs, 8 GiB (hand values in
     * nvls_h100_against_published): busbw 479.692 GB/s, algbw 274.110,
     * sent per GPU 9/8 x 8 GiB = 9663676416 B, ceiling busbw 700 GB/s; the
     * JSON says algo "nvls" and carries the link's NVLS figure. */
    const char *a[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                       "8GiB", "--algo", "nvls", NULL};
    const char *ring[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "8GiB",
                          "--algo", "ring", NULL};
    const char *ring_json[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                               "--bytes", "8GiB", "--algo", "ring", NULL};
    const char *two[] = {"allreduce", "--link", "nvlink4", "--gpus", "2", "--bytes", "8GiB",
                         "--algo", "nvls", NULL};
    const char *two_ring[] = {"allreduce", "--link", "nvlink4", "--gpus", "2", "--bytes", "8GiB",
                              "--algo", "ring", NULL};
    const char *pcie[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "4", "--bytes", "1GB",
                          NULL};
    const char *tbl[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "8GiB",
                         "--algo", "nvls", NULL};
    char *out = NULL, *err = NULL;
    json_t *j = gp_test_cli_json(a), *link;
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
    GP_ASSERT_REL(gp_test_jnum(j, "bytes_per_gpu"), 9663676416.0, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 479.6921191e9, 1e-8);
    GP_ASSERT_REL(gp_test_jnum(j, "algbw_bytes_per_s"), 274.1097823e9, 1e-8);
    GP_ASSERT_REL(gp_test_jnum(j, "ceiling_busbw_bytes_per_s"), 700e9, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "latency_term_s"), 23e-6, 1e-9);
    /* The NVLS phases' latency is NCCL's, reported beside the link's own
     * alpha (2 us), which NVLS does not use; the ceiling charges none. */
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "nvls_latency_s"), 23e-6, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "expected"), "scale_up_alpha_s"), 2e-6, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(json_object_get(j, "ceiling"), "nvls_latency_s"), 0.0, 1e-12);
    link = json_object_get(j, "link");
    GP_ASSERT_REL(gp_test_jnum(link, "nvls_bytes_per_s"), 308.6e9, 1e-12);
    json_decref(j);
    /* Ring JSON: same keys as before, algo "ring", no hint key. */
    j = gp_test_cli_json(ring_json);
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "ring");
    ck_assert_ptr_null(json_object_get(j, "hint"));
    json_decref(j);
    /* Ring table on nvlink4 x 8: one hint line with the NVLS busbw it would
     * reach, computed (479.69 GB/s, above). */
    ck_assert_int_eq(gp_test_cli(ring, &out, NULL), 0);
    ck_assert_msg(strstr(out, "hint: ") && strstr(out, "NVLS") &&
                      strstr(out, "--algo auto or nvls gives busbw 479.69 GB/s"),
                  "%s", out);
    free(out);
    /* The NVLS table names the figure it used. */
    ck_assert_int_eq(gp_test_cli(tbl, &out, NULL), 0);
    ck_assert_msg(strstr(out, "nvls      308.6 GB/s") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "hint: "));
    free(out);
    /* 2 GPUs: no hint on the ring (NCCL runs the ring there); --algo nvls is
     * priced as asked with a note that NCCL would not use NVLS. */
    ck_assert_int_eq(gp_test_cli(two_ring, &out, NULL), 0);
    ck_assert_ptr_null(strstr(out, "hint: "));
    free(out);
    ck_assert_int_eq(gp_test_cli(two, &out, &err), 0);
    ck_assert_msg(strstr(err, "NCCL does not use NVLS on 2 GPUs"), "%s", err);
    free(out);
    free(err);
    /* --link-latency does not reach the NVLS phases: a note says so, and
     * the latency term stays NCCL's 23 us. */
    {
        const char *lat[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8",
                             "--bytes", "8", "--algo", "nvls", "--link-latency", "50us", NULL};
        ck_assert_int_eq(gp_test_cli(lat, &out, &err), 0);
        ck_assert_msg(strstr(err, "--link-latency prices nvlink4's hops; NVLS's switch phases "
                                  "(priced here) take NCCL's 23 us") != NULL,
                      "%s", err);
        j = json_loads(out, 0, NULL);
        ck_assert_ptr_nonnull(j);
        GP_ASSERT_REL(gp_test_jnum(j, "latency_term_s"), 23e-6, 1e-9);
        json_decref(j);
        free(out);
        free(err);
    }
    /* No figure, no hint. */
    ck_assert_int_eq(gp_test_cli(pcie, &out, NULL), 0);
    ck_assert_ptr_null(strstr(out, "hint: "));
    free(out);
}
END_TEST

/* --algo auto (the default) prices what NCCL runs without NCCL_ALGO: NVLS
 * for an AllReduce of 2 MiB or more on nodes of 3+ GPUs whose NVSwitch
 * reduces, when faster than the ring; else the ring.  By hand, 8 x nvlink4
 * (ring 370 GB/s, 2 us a hop; NVLS 308.6 GB/s, 23 us):
 *   1 MiB: the ring, 1.75 x 1048576 / 370e9 + 14 x 2 us = 32.959 us;
 *   2 MiB: NVLS, 1.125 x 2097152 / 308.6e9 + 23 us = 30.645 us (the ring's
 *          37.918 us is slower).
 * The ring on 2 GPUs (no NVLS below 3: S / 370e9 + 2 x 2 us), on nvlink3
 * (no NVLS figure: 1.75 S / 230e9 + 28 us) and for a ReduceScatter (0.875 S
 * / 370e9 + 7 x 2 us).  efa-p5, 8 GiB (S = 8589934592, shard S/8 = 1073741824):
 *   2 nodes: NVLS-tree, max(1.125 S / 308.6e9 = 31.315 ms, shard / 47e9 =
 *            22.846 ms) + 23 us + 2 x 20 us = 31.378 ms, against the
 *            ring's 1.875 S / (8 x 47e9) + 30 x 20 us = 43.436 ms;
 *   4 nodes: the ring, 1.9375 S / 376e9 + 62 x 20 us = 45.503 ms, against
 *            NVLS-tree's tree of 4 (2 x shard / 47e9 = 45.691 ms) + 23 us +
 *            4 x 20 us = 45.794 ms -- as the p5 runs measured: 477.7 GB/s
 *            busbw on 2 nodes (NVLS-tree 513.3), 357.0 on 4 (ring 365.8). */
START_TEST(cli_auto_is_nccls_default)
{
    static const struct {
        const char *link, *gpus, *bytes, *op, *algo;
        double t;
    } c[] = {
        {"nvlink4", "8", "1MiB", "allreduce", "ring", 1.75 * 1048576.0 / 370e9 + 28e-6},
        {"nvlink4", "8", "2MiB", "allreduce", "nvls", 1.125 * 2097152.0 / 308.6e9 + 23e-6},
        {"nvlink4", "2", "8GiB", "allreduce", "ring", 8589934592.0 / 370e9 + 4e-6},
        {"nvlink3", "8", "8GiB", "allreduce", "ring", 1.75 * 8589934592.0 / 230e9 + 28e-6},
        {"nvlink4", "8", "8GiB", "reducescatter", "ring", 0.875 * 8589934592.0 / 370e9 + 14e-6},
        /* H800: NVLS at 215 x 9/14 = 138.2 GB/s (nccl#1374, 215 GB/s busbw
         * measured with NCCL's default): 2 x 138.2 x 7/9 = 214.98 less the
         * 23 us, 214.91. */
        {"nvlink4-h800", "8", "8GiB", "allreduce", "nvls", 1.125 * 8589934592.0 / 138.2e9 + 23e-6},
    };
    const double S = 8589934592.0, shard = S / 8.0;
    const char *p2[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "16",
                        "--gpus-per-node", "8", "--scale-out", "efa-p5", "--bytes", "8GiB", NULL};
    const char *p4[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "32",
                        "--gpus-per-node", "8", "--scale-out", "efa-p5", "--bytes", "8GiB", NULL};
    const char *sw[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes",
                        "2MiB", "--sweep", NULL};
    size_t i;
    json_t *j, *rows;
    GP_ASSERT_REL(1.75 * 1048576.0 / 370e9 + 28e-6, 32.959e-6, 1e-4);
    GP_ASSERT_REL(1.125 * 2097152.0 / 308.6e9 + 23e-6, 30.645e-6, 1e-4);
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        const char *a[] = {"--json", "allreduce", "--link", c[i].link, "--gpus", c[i].gpus,
                           "--bytes", c[i].bytes, "--op", c[i].op, NULL};
        j = gp_test_cli_json(a);
        ck_assert_msg(strcmp(json_string_value(json_object_get(j, "algo")), c[i].algo) == 0,
                      "case %zu: %s", i, json_string_value(json_object_get(j, "algo")));
        ck_assert_str_eq(json_string_value(json_object_get(j, "algo_requested")), "auto");
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), c[i].t, 1e-9);
        json_decref(j);
    }
    j = gp_test_cli_json(p2);
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 1.125 * S / 308.6e9 + 23e-6 + 2 * 20e-6, 1e-9);
    ck_assert(shard / 47e9 < 1.125 * S / 308.6e9);
    ck_assert(1.125 * S / 308.6e9 + 63e-6 < 1.875 * S / 376e9 + 30 * 20e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 477.7e9, 0.08); /* measured */
    json_decref(j);
    j = gp_test_cli_json(p4);
    ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "ring");
    GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 1.9375 * S / 376e9 + 62 * 20e-6, 1e-9);
    ck_assert(1.9375 * S / 376e9 + 62 * 20e-6 < 2.0 * shard / 47e9 + 23e-6 + 4 * 20e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 357.0e9, 0.03); /* measured */
    json_decref(j);
    /* 8 nodes: NVLS-tree again -- its tree of 8 sends 2 x the shard,
     * 45.691 ms, + 23 us + 6 x 20 us = 45.834 ms, where the ring's 126 hops
     * of 20 us add 2.52 ms to 1.96875 S / 376e9 = 44.976 ms: busbw 369.0
     * against 355.4 measured (+3.8 %). */
    {
        const char *p8[] = {"--json", "allreduce", "--link", "nvlink4", "--gpus", "64",
                            "--gpus-per-node", "8", "--scale-out", "efa-p5", "--bytes", "8GiB",
                            NULL};
        j = gp_test_cli_json(p8);
        ck_assert_str_eq(json_string_value(json_object_get(j, "algo")), "nvls");
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 2.0 * shard / 47e9 + 23e-6 + 6 * 20e-6, 1e-9);
        ck_assert(2.0 * shard / 47e9 + 143e-6 < 1.96875 * S / 376e9 + 126 * 20e-6);
        GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 355.4e9, 0.05); /* measured */
        json_decref(j);
    }
    /* 3 GPUs: NVLS (busbw 2 x 308.6 x 2/4 = 308.6 less the 23 us) is slower
     * than the ring (370 less 8 us of hops), so the default prices the ring
     * and the ring table's hint names --algo nvls alone. */
    {
        const char *three[] = {"allreduce", "--link", "nvlink4", "--gpus", "3", "--bytes",
                               "8GiB", "--algo", "ring", NULL};
        char *out = NULL;
        ck_assert_int_eq(gp_test_cli(three, &out, NULL), 0);
        ck_assert_msg(strstr(out, "--algo nvls gives busbw 308.41 GB/s") != NULL &&
                          strstr(out, "so the default prices the ring") != NULL &&
                          strstr(out, "auto or nvls") == NULL,
                      "%s", out);
        free(out);
    }
    /* The sweep names each size's algorithm: the ring up to 1 MiB, NVLS at
     * 2 MiB. */
    j = gp_test_cli_json(sw);
    rows = json_object_get(j, "sweep");
    ck_assert_int_eq((int)json_array_size(rows), 19); /* 8 B .. 2 MiB */
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 17), "algo")),
                     "ring");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 18), "algo")),
                     "nvls");
    json_decref(j);
}
END_TEST

START_TEST(cli_nvls_overlay)
{
    /* An overlay changes the figure like any link figure: nvls 300 GB/s on
     * nvlink4.  8 GPUs, 8 GiB: t = 9/8 x 8589934592 / 300e9 + 23 us
     * (NVLS) = 3.2235255e-2 s; busbw = 1.75 x 8589934592 / t = 466.33
     * GB/s.  A new NVSwitch link may carry its own figure (a hypothetical
     * 'nvs-test' at 200 GB/s line rate, 160 GB/s NVLS, 1 us, which NVLS
     * does not use): 4 GPUs, 1 GB: t = 1.25 x 1e9/160e9 + 23 us =
     * 7.8355e-3 s. */
    char dir[256];
    char *out = NULL, *err = NULL;
    json_t *j;
    int rc;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "links/nvls.yaml",
                                   "id: nvlink4\n"
                                   "nvls: {value: 300GB/s, src: nccl_tests_212}\n"),
                     0);
    ck_assert_int_eq(gp_test_write(dir, "links/new.yaml",
                                   "id: nvs-test\nname: test NVSwitch\nkind: nvlink\n"
                                   "scope: scale-up\nsrc: nccl_tests_212\nbandwidth: 200GB/s\n"
                                   "achievable: 170GB/s\nnvls: 160GB/s\nlatency: 1us\n"
                                   "switched: true\n"),
                     0);
    {
        const char *a[] = {"--json", "--db", dir, "allreduce", "--link", "nvlink4", "--gpus",
                           "8", "--bytes", "8GiB", "--algo", "nvls", NULL};
        const char *b[] = {"--json", "--db", dir, "allreduce", "--link", "nvs-test", "--gpus",
                           "4", "--bytes", "1GB", "--algo", "nvls", NULL};
        const char *c[] = {"--json", "--db", dir, "hw", "show", "nvlink4", NULL};
        j = gp_test_cli_json(a);
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 1.125 * 8589934592.0 / 300e9 + 23e-6, 1e-9);
        GP_ASSERT_REL(gp_test_jnum(j, "busbw_bytes_per_s"), 466.3337e9, 1e-5);
        json_decref(j);
        j = gp_test_cli_json(b);
        GP_ASSERT_REL(gp_test_jnum(j, "time_s"), 1.25e9 / 160e9 + 23e-6, 1e-9);
        json_decref(j);
        rc = gp_test_cli(c, &out, &err);
        ck_assert_int_eq(rc, 0);
        j = json_loads(out, 0, NULL);
        ck_assert_ptr_nonnull(j);
        GP_ASSERT_REL(gp_test_jnum(j, "nvls_bytes_per_s"), 300e9, 1e-12);
        ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(
                                         json_object_get(j, "origins"), "nvls_bytes_per_s")),
                                     dir));
        json_decref(j);
        free(out);
        free(err);
    }
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(cli_bad_input)
{
    const char *g0[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "0", "--bytes", "1GB", NULL};
    const char *neg[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "4", "--bytes", "-5GB",
                         NULL};
    const char *unk[] = {"allreduce", "--link", "warp-drive", "--gpus", "4", "--bytes", "1GB",
                         NULL};
    const char *tree[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "4", "--bytes", "1GB",
                          "--algo", "tree", "--op", "allgather", NULL};
    const char *algo[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "4", "--bytes", "1GB",
                          "--algo", "nvls", NULL};
    const char *nodes[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "8", "--nodes", "2",
                           "--bytes", "1GB", NULL};
    const char *nvls_rs[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "1GB",
                             "--algo", "nvls", "--op", "reducescatter", NULL};
    const char *nvls_ag[] = {"allreduce", "--link", "nvlink4", "--gpus", "8", "--bytes", "1GB",
                             "--algo", "nvls", "--op", "allgather", NULL};
    const char *nvls_nodes[] = {"allreduce", "--link", "nvlink4", "--gpus", "2", "--nodes", "2",
                                "--scale-out", "ib-ndr", "--bytes", "1GB", "--algo", "nvls",
                                NULL};
    const char *nvls_a100[] = {"allreduce", "--link", "nvlink3", "--gpus", "8", "--bytes", "1GB",
                               "--algo", "nvls", NULL};
    const char *gx[] = {"allreduce", "--link", "pcie4-x16", "--gpus", "x", "--bytes", "1GB", NULL};
    const char *help[] = {"allreduce", "--help", NULL};
    char *out = NULL;
    expect_usage(g0, "--gpus");
    expect_usage(gx, "--gpus");
    expect_usage(neg, "--bytes");
    expect_usage(unk, "--link");
    expect_usage(tree, "--algo");
    expect_usage(algo, "--algo");
    expect_usage(algo, "link 'pcie4-x16' has no in-network reduction (NVLS) figure");
    expect_usage(nvls_rs, "--algo");
    expect_usage(nvls_rs, "AllReduce only");
    expect_usage(nvls_ag, "--algo");
    expect_usage(nvls_nodes, "--algo");
    expect_usage(nvls_nodes, "nodes of 3 or more GPUs");
    expect_usage(nvls_a100, "link 'nvlink3' has no in-network reduction (NVLS) figure");
    expect_usage(nodes, "--scale-out");
    ck_assert_int_eq(gp_test_cli(help, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage"));
    /* --csv prints the sweep even without --sweep: the help says so. */
    ck_assert_ptr_nonnull(strstr(out, "--csv always prints these sweep rows"));
    /* --op alltoall's busbw factor is (n-1)/n (8 GPUs: 0.875), as the
     * help's list of factors says. */
    ck_assert_ptr_nonnull(strstr(out, "(ReduceScatter, AllGather, AllToAll)"));
    free(out);
    {
        /* gpuplan --help's one-line summaries name what the commands do:
         * allreduce also prices AllToAll, hw also lists engines and imports
         * models. */
        const char *top[] = {"--help", NULL};
        ck_assert_int_eq(gp_test_cli(top, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "AllToAll"));
        ck_assert_ptr_nonnull(strstr(out, "formats and engines; import a model"));
        free(out);
    }
}
END_TEST

START_TEST(default_nics_one_per_gpu_on_baseboards)
{
    /* gp_topo_default_nics: one NIC per GPU on an NVLink / Infinity Fabric
     * baseboard (DGX/HGX, MI300 platforms), one per node otherwise. */
    const gp_db *db = gp_test_db();
    const gp_link *nv4 = gp_db_find_link(db, "nvlink4"), *ndr = gp_db_find_link(db, "ib-ndr");
    gp_topo t;
    gp_comm_result r;
    gp_err e;
    double S = 8589934592.0, tb;
    ck_assert_ptr_nonnull(nv4);
    ck_assert_ptr_nonnull(ndr);
    ck_assert_int_eq(gp_topo_default_nics(nv4, NULL, 8), 8);
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "xgmi-mi300x"), NULL, 8), 8);
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "pcie4-x16"), NULL, 8), 1);
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "pcie5-x16-host"), NULL, 4), 1);
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "nvlink-bridge-h100"), NULL, 2), 1);
    ck_assert_int_eq(gp_topo_default_nics(NULL, NULL, 8), 1);
    ck_assert_int_eq(gp_topo_default_nics(nv4, NULL, 0), 1);
    /* nvlink2 carries its own figure: a DGX-2 has 8 EDR NICs for 16 V100s,
     * 0.5 per GPU -> 8 for 16, 4 for 8 (DGX-1). */
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "nvlink2"), NULL, 16), 8);
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "nvlink2"), NULL, 8), 4);
    /* A scale-out link's figure wins: efa-p4d, a p4d.24xlarge's 4 EFA NICs
     * for 8 A100s (0.5) -> 4, even over nvlink2's own (16 x 0.5 = 8 either
     * way); efa-p5 carries none -> the NVLink default, one a GPU. */
    ck_assert_int_eq(gp_topo_default_nics(gp_db_find_link(db, "nvlink3"),
                                          gp_db_find_link(db, "efa-p4d"), 8), 4);
    ck_assert_int_eq(gp_topo_default_nics(nv4, gp_db_find_link(db, "efa-p5"), 8), 8);
    ck_assert_int_eq(gp_topo_default_nics(NULL, gp_db_find_link(db, "efa-p4d"), 8), 4);
    /* gp_topo_nics, the count priced: the given K or the default, at most
     * one a GPU (1000 on 8 -> 8; 2 -> 2; none on efa-p4d -> 4). */
    {
        gp_topo tn;
        memset(&tn, 0, sizeof tn);
        tn.scale_up = nv4;
        tn.gpus_per_node = 8;
        tn.scale_out = gp_db_find_link(db, "ib-ndr");
        tn.nodes = 2;
        tn.nics_per_node = 1000;
        ck_assert_int_eq(gp_topo_nics(&tn), 8);
        tn.nics_per_node = 2;
        ck_assert_int_eq(gp_topo_nics(&tn), 2);
        tn.nics_per_node = 0;
        ck_assert_int_eq(gp_topo_nics(&tn), 8);
        tn.scale_out = gp_db_find_link(db, "efa-p4d");
        ck_assert_int_eq(gp_topo_nics(&tn), 4);
        tn.gpus_per_node = 0;
        ck_assert_int_eq(gp_topo_nics(&tn), 1);
    }
    /* Two DGX H100 nodes, 8 GiB AllReduce, no NIC count given (0).  Flat
     * ring over 16 GPUs: sent 2 x 15/16 x S = 16,106,127,360 bytes; each
     * node sends all of it off-node over its 8 NICs at 8 x 47 = 376 GB/s:
     * 42.8354 ms, while each GPU's NVLink carries 7/8 of it at 370 GB/s:
     * 14,092,861,440 / 370e9 = 38.0888 ms.  The NICs bind: 42.8354 ms + 30
     * hops x 2 us = 42.8954 ms.  (The hierarchical schedule: 2 x 7/8 S /
     * 370e9 + S/8 / 47e9 = 63.47 ms, slower.)  busbw = 1.875 S / t = 375.5
     * GB/s; with one NIC shared by the 8 GPUs (the former default) the
     * node's 47 GB/s would bind: 47.0 GB/s. */
    memset(&t, 0, sizeof t);
    t.scale_up = nv4;
    t.gpus_per_node = 8;
    t.scale_out = ndr;
    t.nodes = 2;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, S, NULL, &r, &e), GP_OK);
    tb = 16106127360.0 / 376e9;
    GP_ASSERT_REL(r.expected.time_s, tb + 30 * 2e-6, 1e-9);
    GP_ASSERT_REL(r.expected.busbw, 375.5e9, 1e-4);
    GP_ASSERT_REL(r.expected.busbw, 16106127360.0 / (tb + 60e-6), 1e-9);
    t.nics_per_node = 1;
    ck_assert_int_eq(gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, S, NULL, &r, &e), GP_OK);
    GP_ASSERT_REL(r.expected.busbw, 47e9, 2e-3);
}
END_TEST

Suite *gp_test_suite_comm(void)
{
    Suite *s = suite_create("comm");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, article_row7_ring_pcie);
    tcase_add_test(tc, small_message_latency_dominated);
    tcase_add_test(tc, tree_vs_ring);
    tcase_add_test(tc, reducescatter_allgather);
    tcase_add_test(tc, busbw_matches_nccl_tests_hand_links);
    tcase_add_test(tc, host_staged_busbw_falls_with_cards);
    tcase_add_test(tc, hierarchical_two_nodes);
    tcase_add_test(tc, one_gpu_zero_cost);
    tcase_add_test(tc, bad_input_names_option);
    tcase_add_test(tc, names_and_parsers);
    tcase_add_test(tc, alltoall_flat_and_two_level);
    tcase_add_test(tc, nvls_h100_against_published);
    tcase_add_test(tc, nvls_two_and_four_gpus_by_hand);
    tcase_add_test(tc, nvls_small_message_latency);
    tcase_add_test(tc, nvls_unsupported);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, db_busbw_within_10pct_of_nccl_tests);
    tcase_add_test(tc, default_nics_one_per_gpu_on_baseboards);
    tcase_add_test(tc, db_ceiling_never_below_published_busbw);
    tcase_add_test(tc, db_ring_b200_against_published);
    tcase_add_test(tc, db_bridge_h100_against_published);
    tcase_add_test(tc, xgmi_mesh_share);
    tcase_add_test(tc, cli_article_row7);
    tcase_add_test(tc, cli_small_message_and_one_gpu);
    tcase_add_test(tc, cli_two_nodes_and_sweep);
    tcase_add_test(tc, cli_sweep_last_size_not_rounded);
    tcase_add_test(tc, cli_multi_node_published);
    tcase_add_test(tc, cli_bad_input);
    tcase_add_test(tc, cli_link_scope_notes);
    tcase_add_test(tc, cli_measured_busbw);
    tcase_add_test(tc, cli_zero_bytes_outputs_agree);
    tcase_add_test(tc, cli_nvls_hint_from_2mib);
    tcase_add_test(tc, db_nvls_against_published);
    tcase_add_test(tc, db_nvls_b200_against_published);
    tcase_add_test(tc, cli_nvls);
    tcase_add_test(tc, cli_auto_is_nccls_default);
    tcase_add_test(tc, cli_nvls_overlay);
    tcase_add_test(tc, cli_gpu_names_link);
    tcase_add_test(tc, cli_gpu_turing_geforce_staged);
    tcase_add_test(tc, cli_link_bw);
    tcase_add_test(tc, cli_tree_pipelines_over_nodes);
    tcase_add_test(tc, cli_nvls_tree_over_nodes);
    tcase_add_test(tc, ring_over_nodes_port_share);
    tcase_add_test(tc, cli_efa_held_out);
    tcase_add_test(tc, cli_gcp_a3_worked);
    tcase_add_test(tc, cli_nics_above_gpus_noted);
    tcase_add_test(tc, cli_nics_priced_reported);
    tcase_add_test(tc, cli_allreduce_warnings);
    tcase_add_test(tc, cli_measured_past_ring_is_nvls);
    tcase_add_test(tc, cli_efa_family_refused);
    suite_add_tcase(s, tc);
    return s;
}
