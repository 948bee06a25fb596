/* Collectives on a link hierarchy: ring and tree AllReduce, NVLink SHARP
 * (in-switch) AllReduce, ReduceScatter, AllGather and the hierarchical
 * (two-level) AllReduce, with alpha-beta (Hockney) costs in the nccl-tests
 * conventions.  MODEL: docs/models/collectives.md. */
#ifndef GP_COMM_H
#define GP_COMM_H

#include "gpuplan/db.h"
#include "gpuplan/ledger.h"
#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_coll_op {
    GP_COLL_ALLREDUCE,
    GP_COLL_REDUCESCATTER,
    GP_COLL_ALLGATHER,
    GP_COLL_ALLTOALL, /* S = each rank's send buffer, S/n to every rank */
    GP_COLL_OP__COUNT
} gp_coll_op;

typedef enum gp_coll_algo {
    GP_COLL_RING, /* ring: n-1 steps per phase                           */
    GP_COLL_TREE, /* NCCL double binary tree (AllReduce only)            */
    GP_COLL_NVLS, /* NVLink SHARP: the NVSwitch reduces (AllReduce, one
                     node, a link with an nvls figure)                     */
    GP_COLL_AUTO, /* what NCCL runs when NCCL_ALGO is not set: NVLS (NVLS-
                     tree over nodes) where gp_comm_nvls_eligible and it
                     is faster than the ring, else the ring; the result
                     names the algorithm priced (gp_comm_eval)            */
    GP_COLL_ALGO__COUNT
} gp_coll_algo;

/* A two-level topology: `nodes` nodes of `gpus_per_node` GPUs.  Inside a node
 * the GPUs share `scale_up` (NVLink/NVSwitch, an NVLink bridge pair, PCIe
 * through a switch, or PCIe through the host when scale_up->p2p == 0);
 * nodes are joined by `scale_out` (InfiniBand, RoCE, Ethernet) with
 * `nics_per_node` NICs (ports) per node.  Pointers are borrowed (usually
 * database entries).  scale_up may be NULL only when gpus_per_node == 1;
 * scale_out may be NULL only when nodes == 1. */
typedef struct gp_topo {
    const gp_link *scale_up;
    long gpus_per_node;  /* g >= 1                                       */
    const gp_link *scale_out;
    long nodes;          /* m >= 1                                       */
    long nics_per_node;  /* K >= 1; 0: gp_topo_default_nics(up, out, g) */
} gp_topo;

/* NICs per node when none is given: one per GPU (g) when the scale-up link
 * is a GPU baseboard fabric -- NVLink (kind GP_LINK_NVLINK: NVSwitch) or AMD
 * Infinity Fabric (GP_LINK_INFINITY_FABRIC) -- because such nodes pair every
 * GPU with its own compute NIC: DGX/HGX A100 one ConnectX-6 HDR port per GPU,
 * DGX/HGX H100, H200 and B200 one ConnectX-7 NDR port per GPU (MLPerf system
 * descriptions), MI300-series platforms one 400G NIC per GPU (AMD Instinct
 * MI300 Series Cluster Reference Architecture Guide, 63916); else 1 (PCIe
 * servers and NVLink-bridged pairs, which usually carry one).  A link's own
 * nics_per_gpu figure wins: round(g x it), at least 1 -- the scale-out link's
 * (efa-p4d: a p4d.24xlarge's 4 EFA NICs for 8 A100s, 0.5) before the
 * scale-up link's (nvlink2: DGX-2, 8 EDR NICs for 16 V100s).  scale_out may
 * be NULL.  g < 1 and NULL links give 1.  docs/models/collectives.md "Two and more nodes". */
long gp_topo_default_nics(const gp_link *scale_up, const gp_link *scale_out, long gpus_per_node);

/* The NICs a node's inter-node traffic is priced through: K =
 * t->nics_per_node when > 0, else gp_topo_default_nics(t->scale_up,
 * t->scale_out, g), at most g = t->gpus_per_node -- each GPU's traffic
 * between nodes leaves through one NIC, so K > g prices as g (a GPU with
 * several NICs is named as one scale-out link of their sum, as efa-p5).
 * This is the count gp_comm_eval uses, and the one to report beside a
 * given --nics-per-node.  g < 1 gives 1.  NULL t: 0.
 * docs/models/collectives.md "Two and more nodes". */
long gp_topo_nics(const gp_topo *t);

/* The largest message gp_comm_eval prices (GP_ERANGE above): 1e18 bytes,
 * far beyond any buffer; it keeps every derived time finite. */
#define GP_COMM_BYTES_MAX 1e18

/* Figures the database does not carry. */
typedef struct gp_comm_params {
    /* Host staging, for a scale-up link without peer-to-peer (p2p == 0, e.g.
     * GeForce cards): every byte is written into host memory by the sender
     * and read back by the receiver, so g GPUs moving D bytes each put 2*g*D
     * bytes through the host, of staging bandwidth H (reads + writes
     * together), and each GPU gets min(B, H / (2g)).
     * host_bw = H in bytes/s; 0 (default) means GP_COMM_HOST_BW_DEFAULT, the
     * DRAM bandwidth of one server socket.  The link's own figure B is the
     * per-card staged rate while the host is not yet the bottleneck.  The
     * ceiling has no host cap: each card's datasheet link rate per
     * direction. */
    double host_bw;
} gp_comm_params;

/* Default host staging bandwidth H, bytes/s: one AMD EPYC 9004 socket, 12
 * channels of DDR5-4800 at 38.4 GB/s each = 460.8 GB/s (AMD EPYC 9004
 * series product brief).  8 x RTX 5090 staged through such a host reach 28
 * GB/s busbw (nccl#1639), and 460.8/16 = 28.8.  A desktop with two channels
 * of DDR5-5600 has 89.6 GB/s: pass it as host_bw (--host-bw). */
#define GP_COMM_HOST_BW_DEFAULT 460.8e9

/* Expected latency of one NVLS AllReduce inside a node, seconds, whatever
 * its size: NCCL's own tuning model charges NVLS (and the NVLS part of
 * NVLS-tree) hwLat[NVLink][NVLS][Simple] = 23 us (NVIDIA/nccl
 * src/graph/tuning.cc at b6475625; baseLat 0), against the ring's 2(n-1)
 * hops.  NVLS runs the Simple protocol only.  The ceiling charges none. */
#define GP_COMM_NVLS_LATENCY 23e-6

/* The fewest GPUs a node needs for NCCL to set NVLS (and NVLS-tree) up:
 * ncclNvlsInit returns early at gpuCount <= 2 (src/transport/nvls.cc;
 * vllm#9699 observes the same).  On fewer NCCL runs a ring on one node,
 * its tree over nodes. */
#define GP_COMM_NVLS_MIN_GPUS 3

/* The smallest AllReduce NCCL runs as NVLS by default, bytes: 2 MiB.  It
 * runs small ones as a ring or tree (LL protocols, a few us) and switches
 * to NVLS from about 2 MiB (H200: calibration_methods.md section 3;
 * nccl#1259: NVLS is not faster below that). */
#define GP_COMM_NVLS_MIN_BYTES 2097152.0

/* H for p: p->host_bw when > 0, else GP_COMM_HOST_BW_DEFAULT (also for a
 * NULL p). */
double gp_comm_host_bw(const gp_comm_params *p);

/* Fill p with the documented defaults above.  NULL is a no-op. */
void gp_comm_params_default(gp_comm_params *p);

/* One collective priced on one set of figures (expected or ceiling). */
typedef struct gp_comm_cost {
    double time_s;       /* total: bw_s + lat_s                              */
    double bw_s;         /* bandwidth (beta) terms, seconds                  */
    double lat_s;        /* latency (alpha) terms, seconds                   */
    double intra_s;      /* part spent on the scale-up link (both phases)    */
    double inter_s;      /* part spent on the scale-out link (AllToAll: the
                            two overlap, time_s <= intra_s + inter_s)        */
    double algbw;        /* S / time_s, bytes/s (Inf when time is 0)         */
    double busbw;        /* algbw x bus_factor, bytes/s                      */
    double up_bw;        /* per-GPU bytes/s used on the scale-up link, after
                            host staging (0 when unused)                     */
    double out_bw;       /* per-GPU bytes/s on the scale-out link, after NIC
                            sharing (0 when unused)                          */
    double up_alpha;     /* seconds per hop used, scale-up (the link's; NVLS
                            phases take nvls_latency instead)               */
    double nvls_latency; /* seconds charged for the NVLS switch phases
                            (GP_COMM_NVLS_LATENCY, expected, --algo nvls);
                            0 otherwise                                      */
    double out_alpha;    /* seconds per hop used, scale-out                  */
    int flat_ring;       /* 1: on m > 1 nodes, NCCL's ring across all n
                            ranks (links concurrent) beat the hierarchical
                            phases; intra_s and inter_s then overlap         */
    int ring_floor;      /* 1: the hierarchical phases were faster on paper
                            than the ring's bandwidth allows; their
                            bandwidth term was raised to the ring's          */
    int pipelined;       /* 1: --algo tree AllReduce on m > 1 nodes: NCCL's
                            chain inside nodes and tree between them run
                            chunk by chunk at once, so the bandwidth term is
                            the slower of the two, not their sum            */
    gp_ledger ledger;    /* movement = time_s; compute and memory 0          */
} gp_comm_cost;

typedef struct gp_comm_result {
    gp_coll_op op;
    gp_coll_algo algo;     /* the algorithm priced (never GP_COLL_AUTO)      */
    int algo_auto;         /* 1: GP_COLL_AUTO chose it                       */
    long gpus;             /* n = nodes x gpus_per_node                      */
    long gpus_per_node, nodes;
    double bytes;          /* S: the nccl-tests "size" (AllReduce/RS input,
                              AllGather output), bytes                       */
    double bus_factor;     /* 2(n-1)/n for AllReduce, (n-1)/n for RS/AG      */
    double bytes_per_gpu;  /* bytes each GPU sends, all levels               */
    double bytes_per_gpu_intra; /* of which on the scale-up link             */
    double bytes_per_gpu_inter; /* of which on the scale-out link            */
    int trivial;           /* 1: n == 1 or bytes == 0, nothing to move (all
                              costs 0: NCCL discards an empty collective)    */
    int hierarchical;      /* 1: RS -> inter-node collective -> AG           */
    int host_staged;       /* 1: scale-up traffic goes through host memory   */
    int host_bound;        /* 1: host memory, not the link, limits it        */
    gp_comm_cost expected; /* achievable figures (calibrated when present)   */
    gp_comm_cost ceiling;  /* datasheet bandwidth, zero latency (a bound)    */
} gp_comm_result;

/* Price collective `op` of S = `bytes` bytes over topology t with `algo`.
 *
 * MODEL (alpha-beta, nccl-tests conventions; docs/models/collectives.md):
 *   ring AllReduce      t = 2(n-1)/n * S/B + 2(n-1) * a
 *   tree AllReduce      t = 2 * S/B + 2 * ceil(log2 n) * a   (double binary
 *                       tree: every GPU sends 2S in total, pipelined up the
 *                       reduce tree and down the broadcast tree)
 *   NVLS AllReduce      t = (1 + 1/n) * S/B_nvls + 2 * a     (each GPU owns
 *                       S/n: multimem.ld_reduce through the switch sends S
 *                       and receives S/n, multimem.st sends S/n and the
 *                       switch writes S back: S(1+1/n) each way; two switch
 *                       phases, one alpha each, whatever n.  sjeaugey,
 *                       nccl#1083 and nccl-tests#212: algbw = B n/(n+1),
 *                       busbw = 2B(n-1)/(n+1).)  B_nvls is the link's nvls
 *                       figure (expected) or its datasheet bw (ceiling).
 *   ReduceScatter,
 *   AllGather (ring)    t = (n-1)/n * S/B + (n-1) * a
 *   AllToAll            t = (n-1)/n * S/B + (n-1) * a   (every GPU sends S/n
 *                       to each of the n-1 others at once on the switched
 *                       link, one message each; "ring" is the only algo)
 *   hierarchical (m > 1 nodes of g > 1 GPUs): intra-node ReduceScatter of S,
 *   inter-node collective of S/g per GPU among the m GPUs of equal local
 *   rank (g such rings share the node's K NICs: per-GPU rate
 *   B_out * min(1, K/g)), intra-node AllGather.  RS/AG use one half each.
 *   Ring (the default) on m > 1 nodes of g > 1 GPUs is also priced as NCCL's
 *   ring across all n ranks: every channel enters and leaves each node
 *   once, so the node's NICs carry the per-rank volume V (2(n-1)/n S for
 *   AllReduce) while each GPU's scale-up link carries f V, concurrently: t =
 *   max(f V / B_up, V / (min(K, g) B_nic)) + hops * max(a_up, a_out), f =
 *   (g-1)/g on NVLink or xGMI with peer-to-peer and a NIC a GPU (the 1/g to
 *   the NIC takes PCIe), else 1.  NCCL runs no
 *   RS / inter-node / AG schedule for the ring: with --algo ring the phases
 *   stand in only for latency (their bandwidth term is raised to the
 *   ring's, cost.ring_floor = 1) and the faster of the two is taken
 *   (cost.flat_ring = 1 when the ring wins).  --algo tree AllReduce is
 *   NCCL's tree: the chain inside each node and the tree between nodes are
 *   pipelined chunk by chunk, so its bandwidth term is max(2 (g-1)/g S /
 *   B_up, inter-node tree of S/g / B_out') (cost.pipelined = 1), with no
 *   ring floor: it sends less through the NICs than the ring (nccl#1801).
 *   AllToAll on m nodes: (g-1)/(m g) S to the node's peers on the scale-up
 *   link and (m-1)/m S to the other nodes through the NIC share, at the
 *   same time: t = max((g-1)/(m g) S/B_up, (m-1)/m S/B_out') + (g-1) a_up +
 *   (m-1) g a_out (one message per peer).  intra_s and inter_s then
 *   overlap (their sum exceeds time_s).
 *   Host-staged scale-up (p2p == 0): per-GPU rate min(B, H / (2g)), H =
 *   gp_comm_host_bw(params) (expected only; the ceiling is the datasheet B,
 *   no host cap).
 * algbw = S/t, busbw = algbw * bus_factor.  `expected` uses
 * gp_link_expected_bw / gp_link_expected_latency, `ceiling` the datasheet
 * bw and zero latency (the database latency is a typical measurement, not
 * a bound).  n == 1, or bytes == 0 (NCCL discards an empty collective
 * before it launches anything: src/enqueue.cc, taskAppend, "Empty
 * collectives can be discarded"), returns GP_OK with trivial = 1 and zero
 * costs.
 * GP_COLL_AUTO prices NCCL's default choice: an AllReduce that
 * gp_comm_nvls_eligible allows is priced both ways and the faster expected
 * time wins (NVLS, or NVLS-tree over nodes, against the ring); anything else
 * is the ring.  NCCL's own tuning never prefers its tree for bandwidth
 * (algbw = busBw x 0.5 against the ring's n / 2(n-1): src/graph/tuning.cc),
 * and the ring's hierarchical phases already stand in for its latency.
 * r->algo is the algorithm priced, r->algo_auto 1.
 * p may be NULL (defaults).  Returns GP_OK, or GP_EINVAL (bytes < 0 or not
 * finite, gpus or nodes < 1, nics_per_node < 0, p->host_bw < 0 or not
 * finite, a needed link NULL or without bandwidth),
 * GP_ERANGE (more GPUs than the scale-up link joins), GP_EUNSUP (tree or
 * nvls for ReduceScatter/AllGather; nvls on more than one node, or on a
 * scale-up link without an nvls figure) with e naming the option ("--gpus",
 * "--bytes", "--link", "--scale-out", "--algo", "--nics-per-node",
 * "--host-bw").  NULL t or r: GP_EINVAL.
 * Pure; no allocation. */
int gp_comm_eval(const gp_topo *t, gp_coll_op op, gp_coll_algo algo,
                 double bytes, const gp_comm_params *p, gp_comm_result *r,
                 gp_err *e);

/* 1 when NCCL would consider NVLS for this collective by default: an
 * AllReduce of at least GP_COMM_NVLS_MIN_BYTES on nodes of at least
 * GP_COMM_NVLS_MIN_GPUS GPUs whose scale-up link has peer-to-peer and an
 * nvls figure (an NVSwitch that reduces).  NULL t: 0. */
int gp_comm_nvls_eligible(const gp_topo *t, gp_coll_op op, double bytes);

/* The nccl-tests bus-bandwidth factor: 2(n-1)/n for AllReduce, (n-1)/n for
 * ReduceScatter, AllGather and AllToAll; 0 when n < 2. */
double gp_comm_bus_factor(gp_coll_op op, long n);

/* Names: "allreduce" "reducescatter" "allgather" "alltoall"; "ring" "tree"
 * "nvls" "auto".  Parsers accept those (and "all-reduce", "reduce-scatter",
 * "all-gather", "all-to-all", "rs", "ag", "a2a"; "nvlink-sharp" for nvls)
 * case-insensitively;
 * GP_EINVAL names `what` (may be NULL) otherwise, *out untouched.  NULL s or
 * out: GP_EINVAL. */
const char *gp_coll_op_name(gp_coll_op op);
const char *gp_coll_algo_name(gp_coll_algo a);
int gp_coll_op_parse(const char *s, const char *what, gp_coll_op *out, gp_err *e);
int gp_coll_algo_parse(const char *s, const char *what, gp_coll_algo *out,
                       gp_err *e);

#ifdef __cplusplus
}
#endif
#endif /* GP_COMM_H */
