/* Collectives on a two-level link hierarchy with alpha-beta costs.
 * MODEL: docs/models/collectives.md (nccl-tests doc/PERFORMANCE.md
 * conventions for algbw and busbw). */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/comm.h"
#include "comm_int.h"

void gp_comm_params_default(gp_comm_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->host_bw = 0.0; /* GP_COMM_HOST_BW_DEFAULT */
}

double gp_comm_host_bw(const gp_comm_params *p)
{
    return p != NULL && p->host_bw > 0.0 ? p->host_bw : GP_COMM_HOST_BW_DEFAULT;
}

long gp_topo_default_nics(const gp_link *scale_up, const gp_link *scale_out, long gpus_per_node)
{
    /* A figure on the scale-out link (an instance's own NICs, efa-p4d) wins
     * over one on the scale-up link (nvlink2: DGX-2). */
    const gp_link *fig = scale_out != NULL && scale_out->nics_per_gpu.v > 0.0 ? scale_out : scale_up;
    if (gpus_per_node < 1)
        return 1;
    if (fig != NULL && fig->nics_per_gpu.v > 0.0) {
        double k = floor((double)gpus_per_node * fig->nics_per_gpu.v + 0.5);
        return k < 1.0 ? 1 : (long)k;
    }
    if (scale_up == NULL)
        return 1;
    if (scale_up->kind == GP_LINK_NVLINK || scale_up->kind == GP_LINK_INFINITY_FABRIC)
        return gpus_per_node;
    return 1;
}

long gp_topo_nics(const gp_topo *t)
{
    long k;
    if (t == NULL)
        return 0;
    if (t->gpus_per_node < 1)
        return 1;
    k = t->nics_per_node > 0 ? t->nics_per_node
                             : gp_topo_default_nics(t->scale_up, t->scale_out, t->gpus_per_node);
    return k < t->gpus_per_node ? k : t->gpus_per_node;
}

double gp_comm_bus_factor(gp_coll_op op, long n)
{
    double dn = (double)n;
    if (n < 2)
        return 0.0;
    if (op == GP_COLL_ALLREDUCE)
        return 2.0 * (dn - 1.0) / dn;
    return (dn - 1.0) / dn;
}

static const char *const op_names[GP_COLL_OP__COUNT] = {"allreduce", "reducescatter",
                                                         "allgather", "alltoall"};
static const char *const algo_names[GP_COLL_ALGO__COUNT] = {"ring", "tree", "nvls", "auto"};

const char *gp_coll_op_name(gp_coll_op op)
{
    return (unsigned)op < GP_COLL_OP__COUNT ? op_names[op] : "unknown";
}

const char *gp_coll_algo_name(gp_coll_algo a)
{
    return (unsigned)a < GP_COLL_ALGO__COUNT ? algo_names[a] : "unknown";
}

int gp_coll_op_parse(const char *s, const char *what, gp_coll_op *out, gp_err *e)
{
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_coll_op_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_coll_op_parse: NULL out");
    if (strcasecmp(s, "allreduce") == 0 || strcasecmp(s, "all-reduce") == 0 ||
        strcasecmp(s, "ar") == 0) {
        *out = GP_COLL_ALLREDUCE;
        return GP_OK;
    }
    if (strcasecmp(s, "reducescatter") == 0 || strcasecmp(s, "reduce-scatter") == 0 ||
        strcasecmp(s, "rs") == 0) {
        *out = GP_COLL_REDUCESCATTER;
        return GP_OK;
    }
    if (strcasecmp(s, "allgather") == 0 || strcasecmp(s, "all-gather") == 0 ||
        strcasecmp(s, "ag") == 0) {
        *out = GP_COLL_ALLGATHER;
        return GP_OK;
    }
    if (strcasecmp(s, "alltoall") == 0 || strcasecmp(s, "all-to-all") == 0 ||
        strcasecmp(s, "a2a") == 0) {
        *out = GP_COLL_ALLTOALL;
        return GP_OK;
    }
    return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0,
                       "unknown collective '%s' (known: allreduce reducescatter allgather "
                       "alltoall)",
                       s);
}

int gp_coll_algo_parse(const char *s, const char *what, gp_coll_algo *out,
                       gp_err *e)
{
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_coll_algo_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_coll_algo_parse: NULL out");
    if (strcasecmp(s, "ring") == 0) {
        *out = GP_COLL_RING;
        return GP_OK;
    }
    if (strcasecmp(s, "tree") == 0) {
        *out = GP_COLL_TREE;
        return GP_OK;
    }
    /* Not bare "sharp": InfiniBand SHARP (NCCL's CollNet) is another
     * algorithm. */
    if (strcasecmp(s, "nvls") == 0 || strcasecmp(s, "nvlink-sharp") == 0) {
        *out = GP_COLL_NVLS;
        return GP_OK;
    }
    if (strcasecmp(s, "auto") == 0) {
        *out = GP_COLL_AUTO;
        return GP_OK;
    }
    return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0,
                       "unknown algorithm '%s' (known: auto ring tree nvls)", s);
}

/* ceil(log2 n) for n >= 1. */
static double ceil_log2(long n)
{
    double d = 0.0;
    long v = 1;
    while (v < n) {
        v *= 2;
        d += 1.0;
    }
    return d;
}

/* One flat collective among n GPUs on one link: bytes the busiest GPU sends
 * (*sent), and the number of alpha hops on the critical path (*hops).
 * MODEL: docs/models/collectives.md "Flat collectives". */
static void flat(gp_coll_op op, gp_coll_algo algo, long n, double s, double *sent,
                 double *hops)
{
    double dn = (double)n;
    if (n < 2) {
        *sent = 0.0;
        *hops = 0.0;
        return;
    }
    if (op == GP_COLL_ALLREDUCE) {
        if (algo == GP_COLL_NVLS) {
            /* NVLink SHARP: GPU i owns chunk i (S/n).  multimem.ld_reduce:
             * the switch reads chunk i from all n GPUs and returns the sum,
             * so over all chunks each GPU sends S and receives S/n;
             * multimem.st: it sends S/n and the switch writes the result
             * to all n, so it receives S.  S(1+1/n) each way (sjeaugey,
             * nccl#1083).  Two switch phases, one alpha each, any n. */
            *sent = (1.0 + 1.0 / dn) * s;
            *hops = 2.0;
        } else if (algo == GP_COLL_TREE) {
            /* Double binary tree: S/2 per tree, S/2 each way on every tree
             * edge; the busiest GPU has 3 edges in one tree and 1 in the
             * other (n >= 4), so it sends (3 + 1) * S/2 = 2S.  n = 3: 2 + 1
             * edges; n = 2: 1 + 1.  Depth ceil(log2 n), up then down. */
            double deg = n >= 4 ? 4.0 : (n == 3 ? 3.0 : 2.0);
            *sent = deg * s / 2.0;
            *hops = 2.0 * ceil_log2(n);
        } else {
            *sent = 2.0 * (dn - 1.0) / dn * s;
            *hops = 2.0 * (dn - 1.0);
        }
    } else {
        /* ReduceScatter, AllGather (ring: n-1 steps of S/n) and AllToAll
         * (S/n to each of n-1 peers, one message each): the same sums. */
        *sent = (dn - 1.0) / dn * s;
        *hops = dn - 1.0;
    }
}

/* The per-GPU bytes/s and alpha of a link on one basis. */
static void link_figs(const gp_link *l, int ceiling, double *bw, double *alpha)
{
    if (l == NULL) {
        *bw = 0.0;
        *alpha = 0.0;
        return;
    }
    /* The ceiling is a bound: datasheet bandwidth and no per-hop latency.
     * The database's latency is a typical measurement (a P2P cudaMemcpy of a
     * few bytes, 1.8-2.6 us on NVLink), not a floor: NCCL's in-kernel LL
     * hops are shorter, so 2(n-1) x that figure would sit above real small
     * AllReduces.  Same rule as gp_infer_allreduce_s. */
    *bw = ceiling ? l->bw.v : gp_link_expected_bw(l);
    *alpha = ceiling ? 0.0 : gp_link_expected_latency(l);
    if (*alpha < 0.0 || !isfinite(*alpha))
        *alpha = 0.0;
}

static void price(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double s,
                  const gp_comm_params *p, int ceiling, int with_ledger, gp_comm_result *r,
                  gp_comm_cost *c)
{
    long g = t->gpus_per_node, m = t->nodes;
    long k = gp_topo_nics(t); /* at most g: one NIC a GPU */
    double bu, au, bo, ao, bnic, sent, hops, anv;
    int nvls_lat = algo == GP_COLL_NVLS && g > 1 && !ceiling;

    memset(c, 0, sizeof *c);
    link_figs(g > 1 ? t->scale_up : NULL, ceiling, &bu, &au);
    link_figs(m > 1 ? t->scale_out : NULL, ceiling, &bo, &ao);
    /* A point-to-point mesh (xGMI) gives g GPUs only the g - 1 direct links
     * among them (gp_link_mesh_share). */
    if (g > 1)
        bu *= gp_link_mesh_share(t->scale_up, (double)g);
    /* The alpha of a switch phase: flat() counts NVLS's two as two hops,
     * NCCL's tuned 23 us in all, not two of the link's P2P latency; any
     * other algorithm's hops take the link's. */
    anv = au;
    if (nvls_lat) {
        bu = t->scale_up->bw_nvls.v; /* the in-switch reduction's own rate */
        anv = GP_COMM_NVLS_LATENCY / 2.0;
    }
    if (g > 1 && t->scale_up->p2p == 0 && !ceiling && algo != GP_COLL_NVLS) {
        /* Staged through host memory: 2 g D bytes through it for D per GPU.
         * Expected H: given, else one server socket's DRAM bandwidth.  The
         * ceiling has no host cap: a staged byte leaves the sender on its
         * link's D2H direction and enters the receiver on H2D, so each card's
         * own datasheet link rate per direction is the bound (8 x RTX 5090
         * host-staged reach 28 GB/s busbw, nccl#1639, so no host-derived
         * figure may cap the ceiling below that). */
        double h = gp_comm_host_bw(p);
        double host = h / (2.0 * (double)g);
        if (host < bu) {
            bu = host;
            r->host_bound = 1;
        }
    }
    bnic = bo;
    if (m > 1 && k < g)
        bo *= (double)k / (double)g; /* g rings share K NICs */

    if (m == 1) {
        flat(op, algo, g, s, &sent, &hops);
        c->intra_s = sent / bu + hops * anv;
        c->bw_s = sent / bu;
        c->lat_s = hops * anv;
        r->bytes_per_gpu_intra = sent;
    } else if (g == 1) {
        flat(op, algo, m, s, &sent, &hops);
        c->inter_s = sent / bo + hops * ao;
        c->bw_s = sent / bo;
        c->lat_s = hops * ao;
        r->bytes_per_gpu_inter = sent;
    } else if (op == GP_COLL_ALLTOALL) {
        /* (g-1)/(m g) S to the node's g-1 peers on the scale-up link and
         * (m-1)/m S to the (m-1) g GPUs of the other nodes through the NIC
         * share, all issued at once: the two links carry their bytes
         * concurrently (the slower sets the bandwidth term), and every one
         * of the n-1 messages pays its link's alpha. */
        double s1, h1, s2, h2, b1, b2;
        flat(op, algo, g, s / (double)m, &s1, &h1);
        flat(op, algo, m, s, &s2, &h2);
        h2 *= (double)g; /* (m-1) g messages off the node */
        b1 = s1 / bu;
        b2 = s2 / bo;
        c->intra_s = b1 + h1 * au;
        c->inter_s = b2 + h2 * ao;
        c->bw_s = b1 > b2 ? b1 : b2;
        c->lat_s = h1 * au + h2 * ao;
        r->bytes_per_gpu_intra = s1;
        r->bytes_per_gpu_inter = s2;
    } else {
        /* Intra-node ring phases: RS then AG for AllReduce, one of them for
         * RS/AG.  Inter-node: the same op on S/g among m GPUs. */
        double phases = op == GP_COLL_ALLREDUCE ? 2.0 : 1.0;
        double s1, h1, s2, h2;
        if (algo == GP_COLL_NVLS) {
            /* NVLS-tree (NCCL's default AllReduce across NVSwitch nodes):
             * NVLS inside each node -- S(1+1/g) each way through the
             * switch, two switch phases -- and a tree of the S/g shards
             * between the nodes, pipelined as the tree's stages below. */
            flat(GP_COLL_ALLREDUCE, GP_COLL_NVLS, g, s, &s1, &h1);
            phases = 1.0;
            flat(op, GP_COLL_TREE, m, s / (double)g, &s2, &h2);
        } else {
            flat(GP_COLL_REDUCESCATTER, GP_COLL_RING, g, s, &s1, &h1);
            flat(op, algo, m, s / (double)g, &s2, &h2);
            /* NCCL's tree runs a chain inside each node: a GPU inside it
             * passes S up (reduce) and S down (broadcast), 2S in all, as
             * the one-node tree's busiest GPU; the chain's two ends (all
             * of it when g = 2) send S, the ring phases' 2(g-1)/g S. */
            if (algo == GP_COLL_TREE && op == GP_COLL_ALLREDUCE && g > 2)
                s1 = s;
        }
        c->intra_s = phases * (s1 / bu + h1 * anv);
        c->inter_s = s2 / bo + h2 * ao;
        c->bw_s = phases * s1 / bu + s2 / bo;
        c->lat_s = phases * h1 * anv + h2 * ao;
        if ((algo == GP_COLL_TREE || algo == GP_COLL_NVLS) && op == GP_COLL_ALLREDUCE) {
            /* NCCL's tree: chunks flow up the chain inside each node and
             * the tree between nodes, and back down, all at once -- a
             * pipeline, so the slower stage sets the bandwidth term
             * (nccl#1801: 3 x NVL8 GB200 over NDR, tree 485.7 GB/s busbw
             * against the ring's 393.7; the sum of the stages would give
             * 292). */
            double b1 = phases * s1 / bu, b2 = s2 / bo;
            c->bw_s = b1 > b2 ? b1 : b2;
            c->pipelined = 1;
        }
        if (!ceiling) {
            r->bytes_per_gpu_intra = phases * s1;
            r->bytes_per_gpu_inter = s2;
        }
        {
            /* NCCL's ring across all n ranks: each channel's ring enters
             * and leaves every node once, so a node sends the per-rank
             * volume V off the node, striped over its min(K, g) NICs, while
             * its other g - 1 edges carry V on the scale-up link: with the
             * channels' exits spread over the node's GPUs, each GPU sends
             * V (g-1)/g on the scale-up link and V/g to a NIC (over PCIe,
             * not the scale-up port) -- at the same time (pipelined); every
             * step waits for the slower hop.  So a ring over nodes with
             * fast NICs can beat the one-node ring's V / B_up (MI325X,
             * NCCL_ALGO=Ring: 319 GB/s busbw on one node, 350 on 2 to 8;
             * hisohara/ai-scripts rccl-smoketest).  NCCL
             * runs no RS / inter-node / AG schedule for AllReduce: the
             * phases above stand for its tree, which gains latency (log-deep
             * between nodes) but, in NCCL's own tuning, never bandwidth over
             * the ring -- so their bandwidth term is at least the ring's, and
             * the faster of the two is taken. */
            double kk = (double)(k < g ? k : g), node = kk * bnic, tu, tn, tb, tl;
            /* The 1/g that leaves through a NIC spares the scale-up port
             * only when every GPU has its own NIC (with fewer, the GPUs
             * without one send all of V on the link; PXN routes through
             * it too) and the NIC traffic takes another path: NVLink
             * (switch, mesh or bridge) or xGMI with peer-to-peer -- not
             * PCIe, whose x16 carries the NIC traffic too, and not host
             * staging. */
            double fu = (double)(g - 1) / (double)g;
            if (kk < (double)g || t->scale_up == NULL || t->scale_up->p2p == 0 ||
                r->host_bound ||
                (t->scale_up->kind != GP_LINK_NVLINK &&
                 t->scale_up->kind != GP_LINK_NVLINK_BRIDGE &&
                 t->scale_up->kind != GP_LINK_INFINITY_FABRIC))
                fu = 1.0;
            flat(op, GP_COLL_RING, g * m, s, &sent, &hops);
            tu = sent * fu / bu;
            tn = sent / node;
            tb = tu > tn ? tu : tn;
            tl = hops * (au > ao ? au : ao);
            if (algo == GP_COLL_RING && tb + tl <= (c->bw_s > tb ? c->bw_s : tb) + c->lat_s) {
                c->flat_ring = 1;
                c->intra_s = tu;
                c->inter_s = sent / node + hops * ao;
                c->bw_s = tb;
                c->lat_s = tl;
                if (!ceiling) {
                    r->bytes_per_gpu_intra = sent * (double)(g - 1) / (double)g;
                    r->bytes_per_gpu_inter = sent / (double)g;
                }
            } else if (c->bw_s < tb && !c->pipelined) {
                c->bw_s = tb;
                c->ring_floor = 1;
            }
        }
    }
    r->bytes_per_gpu = r->bytes_per_gpu_intra + r->bytes_per_gpu_inter;
    c->time_s = c->bw_s + c->lat_s;
    c->up_bw = g > 1 ? bu : 0.0;
    c->out_bw = m > 1 ? bo : 0.0;
    c->up_alpha = g > 1 ? au : 0.0;
    c->nvls_latency = nvls_lat ? GP_COMM_NVLS_LATENCY : 0.0;
    c->out_alpha = m > 1 ? ao : 0.0;
    c->algbw = c->time_s > 0.0 ? s / c->time_s : INFINITY;
    c->busbw = c->algbw * r->bus_factor;
    if (with_ledger) {
        c->ledger.t[GP_ACCT_MOVEMENT] = c->time_s;
        gp_ledger_close(&c->ledger, GP_OVERLAP_SUM);
    }
}

static int link_ok(const gp_link *l, const char *what, gp_err *e)
{
    if (l == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0, "%s is required for this topology", what);
    if (!(l->bw.v > 0.0) || !isfinite(l->bw.v) || !(gp_link_expected_bw(l) > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0, "link '%s' has no bandwidth figure",
                           l->id ? l->id : "?");
    return GP_OK;
}

/* Check the request; t and p are non-NULL. */
static int validate(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                    const gp_comm_params *p, gp_err *e)
{
    int rc;

    if ((unsigned)op >= GP_COLL_OP__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "--op", 0, 0, "unknown collective %d", (int)op);
    if ((unsigned)algo >= GP_COLL_ALGO__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "--algo", 0, 0, "unknown algorithm %d", (int)algo);
    if (!(bytes >= 0.0) || !isfinite(bytes))
        return GP_RAISE_AT(e, GP_EINVAL, "--bytes", 0, 0,
                           "message size must be a finite number of bytes >= 0, got %g", bytes);
    if (bytes > GP_COMM_BYTES_MAX) /* 1 EB: far beyond any buffer, as train's 1e18 tokens */
        return GP_RAISE_AT(e, GP_ERANGE, "--bytes", 0, 0,
                           "message size must be <= 1e18 bytes (got %g)", bytes);
    if (t->gpus_per_node < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "GPUs per node must be >= 1, got %ld", t->gpus_per_node);
    if (t->nodes < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--nodes", 0, 0, "nodes must be >= 1, got %ld",
                           t->nodes);
    if (t->nics_per_node < 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--nics-per-node", 0, 0,
                           "NICs per node must be >= 1 (0: the default), got %ld",
                           t->nics_per_node);
    /* Checked whatever the link: a NaN would otherwise pass unseen on a
     * peer-to-peer link and price a staged one as the default. */
    if (!(p->host_bw >= 0.0) || !isfinite(p->host_bw))
        return GP_RAISE_AT(e, GP_EINVAL, "--host-bw", 0, 0,
                           "host staging bandwidth must be > 0 (0: the default), got %g",
                           p->host_bw);
    if (algo == GP_COLL_TREE && op == GP_COLL_ALLTOALL)
        return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                           "tree is an AllReduce algorithm; alltoall is priced as direct "
                           "sends (--algo ring)");
    if (algo == GP_COLL_TREE && op != GP_COLL_ALLREDUCE)
        return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                           "tree is an AllReduce algorithm; %s runs as a ring",
                           gp_coll_op_name(op));
    if (algo == GP_COLL_NVLS && op == GP_COLL_ALLTOALL)
        return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                           "nvls is an AllReduce algorithm; alltoall is priced as direct "
                           "sends (--algo ring)");
    if (algo == GP_COLL_NVLS && op != GP_COLL_ALLREDUCE)
        return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                           "nvls is priced for AllReduce only; use --algo ring for %s (with "
                           "NVLS each GPU sends %s and receives %s, slower than the ring's "
                           "(n-1)/n S each way: nccl#1083)",
                           gp_coll_op_name(op), op == GP_COLL_REDUCESCATTER ? "S" : "S/n",
                           op == GP_COLL_REDUCESCATTER ? "S/n" : "S");
    /* NCCL sets NVLS (and NVLS-tree) up only for nodes of more than 2 GPUs
     * (ncclNvlsInit returns early at gpuCount <= 2); scale prices such rows
     * as the tree NCCL runs instead. */
    if (algo == GP_COLL_NVLS && t->nodes > 1 && t->gpus_per_node < GP_COMM_NVLS_MIN_GPUS)
        return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                           "nvls reduces in a node's NVSwitch and NCCL sets it up only for "
                           "nodes of 3 or more GPUs (%ld nodes of %ld): use --algo tree, what "
                           "it runs there", t->nodes, t->gpus_per_node);
    if (t->gpus_per_node > 1) {
        if ((rc = link_ok(t->scale_up, "--link", e)) != GP_OK)
            return rc;
        if (t->scale_up->max_gpus.v > 0.0 && (double)t->gpus_per_node > t->scale_up->max_gpus.v)
            return GP_RAISE_AT(e, GP_ERANGE, "--gpus", 0, 0,
                               "link '%s' joins at most %.0f GPUs, asked for %ld per node: "
                               "spread them over nodes with --gpus-per-node %.0f (or fewer) and "
                               "--scale-out ID, the link between the nodes (ib-ndr, efa-p5, ...)",
                               t->scale_up->id ? t->scale_up->id : "?",
                               t->scale_up->max_gpus.v, t->gpus_per_node,
                               t->scale_up->max_gpus.v);
        if (algo == GP_COLL_NVLS &&
            (!(t->scale_up->bw_nvls.v > 0.0) || !isfinite(t->scale_up->bw_nvls.v)))
            return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                               "link '%s' has no in-network reduction (NVLS) figure; nvls "
                               "needs GPUs on an NVSwitch that reduces (nvlink4: H100/H200): "
                               "use --algo ring or tree",
                               t->scale_up->id ? t->scale_up->id : "?");
        if (algo == GP_COLL_NVLS && t->scale_up->p2p == 0)
            return GP_RAISE_AT(e, GP_EUNSUP, "--algo", 0, 0,
                               "link '%s' has no peer-to-peer path; nvls needs the GPUs' memory "
                               "mapped through the NVSwitch: use --algo ring or tree",
                               t->scale_up->id ? t->scale_up->id : "?");
    }
    if (t->nodes > 1 && (rc = link_ok(t->scale_out, "--scale-out", e)) != GP_OK)
        return rc;
    if (t->gpus_per_node > 0 && t->nodes > 0 && t->gpus_per_node > (1L << 30) / t->nodes)
        return GP_RAISE_AT(e, GP_ERANGE, "--gpus", 0, 0,
                           "too many GPUs: %ld x %ld (at most %ld)", t->nodes,
                           t->gpus_per_node, 1L << 30);
    return GP_OK;
}

int gp_comm_nvls_eligible(const gp_topo *t, gp_coll_op op, double bytes)
{
    const gp_link *l = t != NULL ? t->scale_up : NULL;
    return l != NULL && op == GP_COLL_ALLREDUCE && t->gpus_per_node >= GP_COMM_NVLS_MIN_GPUS &&
           bytes >= GP_COMM_NVLS_MIN_BYTES && l->p2p != 0 && l->bw_nvls.v > 0.0 &&
           isfinite(l->bw_nvls.v);
}

/* GP_COLL_AUTO: the algorithm NCCL runs by default (gp_comm_eval); any
 * other algo is returned as is.  The request is validated. */
static gp_coll_algo resolve(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                            const gp_comm_params *p)
{
    gp_comm_result scratch;
    gp_comm_cost ring, nvls;
    if (algo != GP_COLL_AUTO)
        return algo;
    if (!gp_comm_nvls_eligible(t, op, bytes))
        return GP_COLL_RING;
    /* price() records bytes and the host cap in its result: a scratch one. */
    memset(&scratch, 0, sizeof scratch);
    price(t, op, GP_COLL_RING, bytes, p, 0, 0, &scratch, &ring);
    memset(&scratch, 0, sizeof scratch);
    price(t, op, GP_COLL_NVLS, bytes, p, 0, 0, &scratch, &nvls);
    return nvls.time_s < ring.time_s ? GP_COLL_NVLS : GP_COLL_RING;
}

int gp_comm_eval(const gp_topo *t, gp_coll_op op, gp_coll_algo algo,
                 double bytes, const gp_comm_params *p, gp_comm_result *r,
                 gp_err *e)
{
    gp_coll_algo asked = algo;
    gp_comm_params def;
    int rc;

    if (t == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_comm_eval: NULL t");
    if (r == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_comm_eval: NULL r");
    if (p == NULL) {
        gp_comm_params_default(&def);
        p = &def;
    }
    if ((rc = validate(t, op, algo, bytes, p, e)) != GP_OK)
        return rc;
    algo = resolve(t, op, algo, bytes, p);
    memset(r, 0, sizeof *r);
    r->op = op;
    r->algo = algo;
    r->algo_auto = asked == GP_COLL_AUTO;
    r->gpus_per_node = t->gpus_per_node;
    r->nodes = t->nodes;
    r->gpus = t->gpus_per_node * t->nodes;
    r->bytes = bytes;
    r->bus_factor = gp_comm_bus_factor(op, r->gpus);
    r->hierarchical = t->gpus_per_node > 1 && t->nodes > 1;
    r->host_staged = t->gpus_per_node > 1 && t->scale_up->p2p == 0;
    if (r->gpus == 1 || bytes == 0.0) { /* 0 B: NCCL discards it (taskAppend) */
        r->trivial = 1;
        r->expected.algbw = r->ceiling.algbw = INFINITY; /* S / 0 */
        r->expected.ledger.rule = GP_OVERLAP_SUM;
        r->ceiling.ledger.rule = GP_OVERLAP_SUM;
        gp_ledger_close(&r->expected.ledger, GP_OVERLAP_SUM);
        gp_ledger_close(&r->ceiling.ledger, GP_OVERLAP_SUM);
        return GP_OK;
    }
    price(t, op, algo, bytes, p, 0, 1, r, &r->expected);
    price(t, op, algo, bytes, p, 1, 1, r, &r->ceiling);
    return GP_OK;
}

int gp__comm_time(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                  const gp_comm_params *p, int ceiling, double *time_s, gp_coll_algo *used,
                  gp_err *e)
{
    gp_comm_result r;
    gp_comm_cost c;
    int rc;

    if ((rc = validate(t, op, algo, bytes, p, e)) != GP_OK)
        return rc;
    algo = resolve(t, op, algo, bytes, p);
    if (used != NULL)
        *used = algo;
    /* As gp_comm_eval: one GPU, or an empty collective (NCCL discards it
     * before launching anything: src/enqueue.cc, taskAppend), costs 0. */
    if (t->gpus_per_node * t->nodes == 1 || bytes == 0.0) {
        *time_s = 0.0;
        return GP_OK;
    }
    r.bus_factor = 0.0;
    r.host_bound = 0;
    r.bytes_per_gpu_intra = r.bytes_per_gpu_inter = 0.0;
    price(t, op, algo, bytes, p, ceiling, 0, &r, &c);
    *time_s = c.time_s;
    return GP_OK;
}
