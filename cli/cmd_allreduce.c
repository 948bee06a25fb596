/* gpuplan allreduce: price one collective (AllReduce, ReduceScatter,
 * AllGather) on a link hierarchy, in nccl-tests terms (time, algbw, busbw).
 * MODEL: docs/models/collectives.md. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Where a collective loses time when the link is not busy. */
#define COLL_IDLE                                                                            \
    "the link is underused: the algorithm and protocol NCCL chose, too few channels, the "  \
    "topology it found (NCCL_DEBUG=INFO), GPU-NIC affinity, a message too small for its "  \
    "latency"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuplan allreduce (--link ID | --gpu ID | --link-bw RATE) --gpus N --bytes S\n"
            "         [--algo auto|ring|tree|nvls]\n"
            "         [--op allreduce|reducescatter|allgather|alltoall]\n"
            "         [--nodes M | --gpus-per-node G] [--scale-out ID [--nics-per-node K]]\n"
            "         [--host-bw RATE] [--sweep]\n"
            "         [--measured-busbw RATE]\n\n"
            "Time, bytes each GPU sends, algbw = S/t and busbw = algbw x 2(n-1)/n (AllReduce)\n"
            "or (n-1)/n (ReduceScatter, AllGather, AllToAll), as nccl-tests prints them:\n"
            "expected (achievable link figures, calibrated when present) and ceiling (datasheet).\n\n"
            "  --link ID          scale-up link inside a node (nvlink4, pcie4-x16, pcie4-x16-host ...)\n"
            "  --gpu ID           instead of --link: the GPU's scale-up link, else its host link\n"
            "                     (a bridge joins pairs: more GPUs a node use its wide link,\n"
            "                     else the host link)\n"
            "  --gpus N           GPUs in total (N = M nodes x N/M per node); 1 costs nothing\n"
            "  --bytes S          message size as nccl-tests counts it (14GB, 8GiB, 1MiB)\n"
            "  --algo A           auto (default): what NCCL runs unless NCCL_ALGO is set -- NVLS\n"
            "                     (NVLS-tree over nodes) for an AllReduce of 2 MiB or more on\n"
            "                     nodes of 3+ GPUs whose NVSwitch reduces, when it is faster,\n"
            "                     else the ring; ring; tree (double binary tree, AllReduce only);\n"
            "                     nvls (NVLink SHARP: the NVSwitch reduces; AllReduce on a link\n"
            "                     with an NVLS figure, e.g. nvlink4: busbw = 2B(n-1)/(n+1) on a\n"
            "                     node; over nodes NVLS-tree, a tree of NICs between them)\n"
            "  --op OP            allreduce (default), reducescatter, allgather, alltoall\n"
            "  --nodes M          nodes (default 1): ring, the faster of a ring across all nodes\n"
            "                     and RS inside, the collective between nodes, AG; tree, NCCL's\n"
            "                     chain inside nodes pipelined with a tree between them; nvls,\n"
            "                     the same with NVLS inside (NVLS-tree)\n"
            "  --gpus-per-node G  instead of --nodes: G GPUs a node, N/G nodes (as scale and\n"
            "                     decode take it); with --nodes the two must agree\n"
            "  --scale-out ID     link between nodes (ib-ndr, roce-400, efa-p5, efa-p4d ...)\n"
            "  --nics-per-node K  NICs (ports) per node sharing the inter-node traffic (default:\n"
            "                     the scale-out link's own count (efa-p4d: 4 for 8 GPUs), else\n"
            "                     one per GPU when --link is NVLink or Infinity Fabric, else 1)\n"
            "  --link-bw RATE     without --link: a link of your own, RATE per direction per\n"
            "                     GPU (datasheet and expected alike; --gpu then only names the\n"
            "                     GPU); with --link ID: its expected rate (at most its datasheet)\n"
            "  --link-latency T   the link's alpha per hop (e.g. 5us; --link-bw alone: 0)\n"
            "  --host-bw RATE     host staging bandwidth (reads + writes) when the link has no\n"
            "                     peer-to-peer (default: 460.8 GB/s, one server socket's DRAM)\n"
            "  --sweep            also price sizes 8 B, 16 B, ... up to S (as all_reduce_perf -b 8 -f 2)\n"
            "                     (--csv always prints these sweep rows, one per size)\n"
            "  --measured-busbw R the busbw nccl-tests printed for S: held against the\n"
            "                     ceiling and the expected figure (diagnosis)\n");
}

/* Citation of the expected bandwidth figure of a link. */
static const char *exp_src(const gp_link *l)
{
    if (l->meas_bw.v > 0.0)
        return l->calibration ? l->calibration : (l->meas_bw.src ? l->meas_bw.src : "calibration");
    if (l->bw_achievable.v > 0.0 && l->bw_achievable.src)
        return l->bw_achievable.src;
    return l->bw.src ? l->bw.src : "datasheet";
}


/* Whether bytes v are a whole number of the binary unit (B, KiB, MiB ...)
 * gp_format_qty shows them in. */
static int whole_binary(double v)
{
    double u = 1.0;
    while (u * 1024.0 <= v)
        u *= 1024.0;
    return fmod(v, u) == 0.0;
}

/* busbw = algbw x the bus factor; with algbw undefined (1 GPU: S / 0 s)
 * so is busbw (NaN: null in JSON, an empty CSV field). */
static double busbw_of(const gp_comm_cost *c)
{
    return isfinite(c->algbw) ? c->busbw : NAN;
}

static const char *dominant(const gp_comm_cost *c)
{
    return c->bw_s >= c->lat_s ? "bandwidth" : "latency";
}

static json_t *jcost(const gp_comm_cost *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "time_s", gp_cli_jnum(c->time_s));
    json_object_set_new(o, "bandwidth_term_s", gp_cli_jnum(c->bw_s));
    json_object_set_new(o, "latency_term_s", gp_cli_jnum(c->lat_s));
    json_object_set_new(o, "dominant", json_string(dominant(c)));
    json_object_set_new(o, "intra_s", gp_cli_jnum(c->intra_s));
    json_object_set_new(o, "inter_s", gp_cli_jnum(c->inter_s));
    json_object_set_new(o, "algbw_bytes_per_s", gp_cli_jnum(c->algbw));
    json_object_set_new(o, "busbw_bytes_per_s", gp_cli_jnum(busbw_of(c)));
    json_object_set_new(o, "flat_ring", json_boolean(c->flat_ring));
    json_object_set_new(o, "pipelined", json_boolean(c->pipelined));
    json_object_set_new(o, "scale_up_bytes_per_s", gp_cli_jnum(c->up_bw));
    json_object_set_new(o, "scale_up_alpha_s", gp_cli_jnum(c->up_alpha));
    json_object_set_new(o, "nvls_latency_s", gp_cli_jnum(c->nvls_latency));
    json_object_set_new(o, "scale_out_bytes_per_s", gp_cli_jnum(c->out_bw));
    json_object_set_new(o, "scale_out_alpha_s", gp_cli_jnum(c->out_alpha));
    return o;
}

static json_t *jlink(const gp_link *l)
{
    json_t *o;
    if (l == NULL)
        return json_null();
    o = json_object();
    json_object_set_new(o, "id", json_string(l->id ? l->id : ""));
    json_object_set_new(o, "kind", json_string(gp_link_kind_name(l->kind)));
    json_object_set_new(o, "bandwidth_bytes_per_s", gp_cli_jnum(l->bw.v));
    json_object_set_new(o, "expected_bytes_per_s", gp_cli_jnum(gp_link_expected_bw(l)));
    json_object_set_new(o, "latency_s", gp_cli_jnum(l->latency.v));
    json_object_set_new(o, "expected_latency_s", gp_cli_jnum(gp_link_expected_latency(l)));
    json_object_set_new(o, "p2p", json_boolean(l->p2p));
    json_object_set_new(o, "bandwidth_source", json_string(l->bw.src ? l->bw.src : ""));
    json_object_set_new(o, "expected_source", json_string(exp_src(l)));
    /* 0 and "": the link has no in-network reduction. */
    json_object_set_new(o, "nvls_bytes_per_s", gp_cli_jnum(l->bw_nvls.v));
    json_object_set_new(o, "nvls_source", json_string(l->bw_nvls.src ? l->bw_nvls.src : ""));
    json_object_set_new(o, "latency_source", json_string(l->latency.src ? l->latency.src : ""));
    return o;
}

/* g: the GPUs on the link (its mesh share, gp_link_mesh_share). */
static void print_link(const char *what, const gp_link *l, gp_coll_algo algo, long g)
{
    char a[64], b[64], c[64];
    double share = gp_link_mesh_share(l, (double)g);
    gp_cli_row(what, l->id ? l->id : "?", l->name);
    printf("      datasheet %-12s per direction  [%s]\n",
           gp_format_qty(l->bw.v, GP_Q_RATE, 1, 0, a, sizeof a), l->bw.src ? l->bw.src : "?");
    printf("      expected  %-12s per direction  [%s]\n",
           gp_format_qty(gp_link_expected_bw(l), GP_Q_RATE, 1, 0, b, sizeof b), exp_src(l));
    if (algo == GP_COLL_NVLS && l->bw_nvls.v > 0.0)
        printf("      nvls      %-12s per direction  [%s]\n"
               "                (in-switch AllReduce rate, used here: each GPU moves S(1+1/n) "
               "each way)\n",
               gp_format_qty(l->bw_nvls.v, GP_Q_RATE, 1, 0, b, sizeof b),
               l->bw_nvls.src ? l->bw_nvls.src : "?");
    if (share < 1.0)
        printf("      mesh      %-12s per direction  (%ld GPUs reach %ld of each GPU's %g "
               "direct links: x %.3g)\n",
               gp_format_qty(gp_link_expected_bw(l) * share, GP_Q_RATE, 1, 0, b, sizeof b), g,
               g - 1, l->max_gpus.v - 1.0, share);
    printf("      alpha     %-12s per hop        [%s]\n",
           gp_format_qty(gp_link_expected_latency(l), GP_Q_DURATION, 1, 0, c, sizeof c),
           l->meas_latency.v > 0.0 ? (l->calibration ? l->calibration : "calibration")
                                   : (l->latency.src ? l->latency.src : "?"));
    if (!l->p2p)
        printf("      no peer-to-peer: GPU-to-GPU traffic is staged through host memory\n");
}

/* One node of a link with an NVLS figure, an AllReduce that is not empty. */
static int nvls_node(const gp_topo *t, gp_coll_op op, const gp_comm_result *r)
{
    return op == GP_COLL_ALLREDUCE && t->nodes == 1 && t->scale_up != NULL &&
           t->scale_up->bw_nvls.v > 0.0 && !r->trivial;
}

/* A ring AllReduce on one node where NCCL considers NVLS
 * (gp_comm_nvls_eligible: 3 GPUs and 2 MiB up on a link with an NVLS
 * figure) may not be what it runs by default: say what NVLS would reach
 * (one line on stdout, computed; the table only). */
static void nvls_hint(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                      const gp_comm_params *p, const gp_comm_result *r)
{
    gp_comm_result o;
    char b1[64], b2[64], b3[64];
    if (!nvls_node(t, op, r) || algo != GP_COLL_RING || !gp_comm_nvls_eligible(t, op, bytes))
        return;
    if (gp_comm_eval(t, op, GP_COLL_NVLS, bytes, p, &o, NULL) != GP_OK)
        return;
    /* The default takes NVLS only where it is the faster (gp_comm_eval). */
    printf("hint: on this NVSwitch NCCL's default AllReduce from about 2 MiB up is NVLink "
           "SHARP (NVLS): --algo %s gives busbw %s (algbw %s) against %s for this ring%s\n",
           o.expected.time_s < r->expected.time_s ? "auto or nvls" : "nvls",
           gp_format_qty(o.expected.busbw, GP_Q_RATE, 2, 0, b1, sizeof b1),
           gp_format_qty(o.expected.algbw, GP_Q_RATE, 2, 0, b2, sizeof b2),
           gp_format_qty(r->expected.busbw, GP_Q_RATE, 2, 0, b3, sizeof b3),
           o.expected.time_s >= r->expected.time_s
               ? " (slower than the ring at this size, so the default prices the ring)"
               : "");
}

/* The algorithm a result was priced with, as the tables name it. */
static const char *algo_label(const gp_comm_result *r)
{
    return gp_cli_algo_label(r->op, r->algo, r->nodes, r->trivial);
}

/* Why the AllReduce is priced with `algo` (--algo `asked`), for the
 * assumptions' algorithm row. */
static void algo_why(const gp_topo *t, gp_coll_algo asked, gp_coll_algo algo, double bytes,
                     char *out, size_t n)
{
    const gp_link *up = t->gpus_per_node > 1 ? t->scale_up : NULL;
    int has_nvls = up != NULL && up->bw_nvls.v > 0.0;
    if (asked != GP_COLL_AUTO)
        snprintf(out, n, "--algo %s, as given (default auto: the algorithm NCCL runs)",
                 gp_coll_algo_name(asked));
    else if (algo == GP_COLL_NVLS)
        snprintf(out, n, "--algo auto: NCCL's default here, %s, faster than the ring "
                         "(--algo ring prices the ring)",
                 t->nodes > 1 ? "NVLS-tree (NVLS inside the nodes, a tree between them)"
                              : "NVLink SHARP (the NVSwitch reduces)");
    else if (has_nvls && t->gpus_per_node < GP_COMM_NVLS_MIN_GPUS)
        snprintf(out, n, "--algo auto: NCCL's default here, the ring (NVLS needs %d or more "
                         "GPUs a node)", GP_COMM_NVLS_MIN_GPUS);
    else if (has_nvls && bytes < GP_COMM_NVLS_MIN_BYTES)
        snprintf(out, n, "--algo auto: NCCL's default at this size, the ring (NVLS from 2 MiB)");
    else if (has_nvls)
        snprintf(out, n, "--algo auto: the ring, faster than NVLS here");
    else
        snprintf(out, n, "--algo auto: NCCL's default, the ring (no NVLS on this link; --algo "
                         "tree for its tree)");
}

/* An NVLS AllReduce on 2 GPUs is priced as asked, but NCCL would run a
 * ring there: a note (stderr and JSON warnings). */
static void nvls_note(const gp_cli *cli, const gp_topo *t, gp_coll_op op, gp_coll_algo algo,
                      double bytes, const gp_comm_params *p, const gp_comm_result *r)
{
    gp_comm_result o;
    char b1[64];
    if (!nvls_node(t, op, r) || algo != GP_COLL_NVLS ||
        t->gpus_per_node >= GP_COMM_NVLS_MIN_GPUS)
        return;
    if (gp_comm_eval(t, op, GP_COLL_RING, bytes, p, &o, NULL) != GP_OK)
        return;
    gp_cli_note(cli, "note",
                "NCCL does not use NVLS on %ld GPUs (it needs %d or more) and runs a ring, "
                "which reaches busbw %s here",
                t->gpus_per_node, GP_COMM_NVLS_MIN_GPUS,
                gp_format_qty(o.expected.busbw, GP_Q_RATE, 2, 0, b1, sizeof b1));
}

/* A measured busbw faster than the ceiling of the algorithm priced may be
 * another algorithm's, one NCCL runs on this topology: NVLS (on one
 * NVSwitch node of 3 or more GPUs; NVLS-tree over such nodes), its tree,
 * its ring -- in that order, the first whose ceiling the measurement does
 * not beat (collectives.md "NVLink SHARP").  1 with *o priced for *alt, else
 * 0. */
static int other_algo(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                      const gp_comm_params *p, double measured_s, gp_coll_algo *alt,
                      gp_comm_result *o)
{
    static const gp_coll_algo order[] = {GP_COLL_NVLS, GP_COLL_TREE, GP_COLL_RING};
    size_t i;
    if (op != GP_COLL_ALLREDUCE)
        return 0; /* the ring is the only algorithm priced */
    for (i = 0; i < sizeof order / sizeof order[0]; i++) {
        gp_coll_algo a = order[i];
        if (a == algo)
            continue;
        if (a == GP_COLL_NVLS && (t->scale_up == NULL || !(t->scale_up->bw_nvls.v > 0.0) ||
                                  t->gpus_per_node < GP_COMM_NVLS_MIN_GPUS))
            continue; /* NCCL sets NVLS up only there */
        if (gp_comm_eval(t, op, a, bytes, p, o, NULL) != GP_OK || o->trivial)
            continue;
        if (measured_s >= o->ceiling.time_s) {
            *alt = a;
            return 1;
        }
    }
    return 0;
}

/* The verdict and advice for a measurement consistent with algorithm alt
 * (other_algo), not the one priced. */
static void other_verdict(gp_coll_algo algo, gp_coll_algo alt, int nodes, const gp_comm_result *r,
                          const gp_comm_result *o, char *adv, size_t n)
{
    char b1[32], b2[32], b3[32];
    const char *what =
        alt == GP_COLL_NVLS
            ? (nodes > 1 ? "NVLS-tree (NVLink SHARP: the NVSwitch reduces in-switch, a tree "
                           "between the nodes), NCCL's default AllReduce over NVSwitch nodes"
                         : "NVLink SHARP (NVLS: the NVSwitch reduces in-switch), NCCL's default "
                           "AllReduce on this NVSwitch from about 2 MiB up")
        : alt == GP_COLL_TREE ? "NCCL's tree (the chain inside nodes pipelined with a tree "
                                "between them)"
                              : "NCCL's ring";
    static const char *const whose[GP_COLL_ALGO__COUNT] = {"the ring's", "the tree's",
                                                           "NVLS's"};
    static const char *const runs[GP_COLL_ALGO__COUNT] = {"ring", "tree", "NVLS run"};
    snprintf(adv, n,
             "faster than %s datasheet ceiling (busbw %s), which no %s can beat, but within "
             "%s (busbw %s; expected %s): consistent with %s; rerun with --algo %s to "
             "diagnose it",
             whose[algo], gp_format_qty(r->ceiling.busbw, GP_Q_RATE, 2, 0, b1, sizeof b1),
             runs[algo], whose[alt],
             gp_format_qty(o->ceiling.busbw, GP_Q_RATE, 2, 0, b2, sizeof b2),
             gp_format_qty(o->expected.busbw, GP_Q_RATE, 2, 0, b3, sizeof b3), what,
             gp_coll_algo_name(alt));
}

static int parse_id(const char *what, const gp_db *db, const char *name,
                    const gp_link **out, gp_cli *cli)
{
    gp_err e;
    gp_err_clear(&e);
    if (gp_db_get_link(db, name, what, out, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    return 0;
}

static int run(gp_cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"link", required_argument, NULL, 'l'},
        {"gpu", required_argument, NULL, 'G'},
        {"gpus", required_argument, NULL, 'g'},
        {"bytes", required_argument, NULL, 'b'},
        {"algo", required_argument, NULL, 'a'},
        {"op", required_argument, NULL, 'o'},
        {"nodes", required_argument, NULL, 'n'},
        {"gpus-per-node", required_argument, NULL, 'P'},
        {"scale-out", required_argument, NULL, 's'},
        {"nics-per-node", required_argument, NULL, 'k'},
        {"host-bw", required_argument, NULL, 'H'},
        {"link-bw", required_argument, NULL, 'W'},
        {"link-latency", required_argument, NULL, 'L'},
        {"sweep", no_argument, NULL, 'w'},
        {"measured-busbw", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *link_id = NULL, *out_id = NULL, *gpu_id = NULL;
    char link_msg[320] = "";
    long gpus = 0, nodes = 1, nics = 0, per_node = 0, nics_priced = 0;
    int nics_given = 0, nodes_given = 0;
    double bytes = -1.0, mbus = 0.0;
    int sweep = 0, c, rc;
    gp_diagnosis diag;
    gp_coll_algo alt = GP_COLL_RING; /* has_alt: the algorithm a measurement fits */
    gp_comm_result alt_r;
    int has_alt = 0;
    char alt_adv[512] = "";
    gp_coll_op op = GP_COLL_ALLREDUCE;
    gp_coll_algo asked = GP_COLL_AUTO; /* --algo */
    gp_coll_algo algo;                 /* the algorithm priced (r.algo) */
    gp_comm_params params;
    gp_comm_result r;
    gp_topo t;
    gp_err e;
    const gp_db *db;
    const gp_link *up = NULL, *out = NULL;
    const gp_gpu *gpu = NULL; /* --gpu: whose link */
    gp_cli_link_opt lk;

    gp_cli_link_opt_init(&lk);
    gp_comm_params_default(&params);
    gp_err_clear(&e);
    /* Notes wait until every refusal is past (gp_cli_notes_flush below). */
    gp_cli_notes_defer(cli);
    while ((c = gp_cli_getopt(cli, argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'l': link_id = optarg; break;
        case 'G': gpu_id = optarg; break;
        case 'g':
            if (gp_cli_int(cli, "--gpus", optarg, 1, &gpus))
                return GP_EXIT_USAGE;
            break;
        case 'b':
            if (gp_cli_msg_bytes(cli, "--bytes", optarg, &bytes))
                return GP_EXIT_USAGE;
            break;
        case 'a':
            if (gp_coll_algo_parse(optarg, "--algo", &asked, &e) != GP_OK)
                return gp_cli_fail(cli, &e);
            break;
        case 'o':
            if (gp_coll_op_parse(optarg, "--op", &op, &e) != GP_OK)
                return gp_cli_fail(cli, &e);
            break;
        case 'n':
            if (gp_cli_int(cli, "--nodes", optarg, 1, &nodes))
                return GP_EXIT_USAGE;
            nodes_given = 1;
            break;
        case 'P':
            if (gp_cli_int(cli, "--gpus-per-node", optarg, 1, &per_node))
                return GP_EXIT_USAGE;
            break;
        case 's': out_id = optarg; break;
        case 'k':
            if (gp_cli_int(cli, "--nics-per-node", optarg, 1, &nics))
                return GP_EXIT_USAGE;
            nics_given = 1;
            break;
        case 'H':
            /* Not 0: that would silently mean the library default (460.8 GB/s). */
            if (gp_cli_rate(cli, "--host-bw", optarg, &params.host_bw))
                return GP_EXIT_USAGE;
            break;
        case 'W':
        case 'L':
            if (gp_cli_link_opt_parse(cli, &lk, c == 'L', optarg))
                return GP_EXIT_USAGE;
            break;
        case 'w': sweep = 1; break;
        case 'M':
            if (gp_cli_rate(cli, "--measured-busbw", optarg, &mbus))
                return GP_EXIT_USAGE;
            break;
        case 'h': usage(stdout); return GP_EXIT_OK;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':': return gp_cli_usage(cli, "option '%s' needs a value", argv[optind - 1]);
        default: return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gp_cli_usage(cli, "unexpected argument '%s'", argv[optind]);
    if (link_id == NULL && gpu_id == NULL && !gp_cli_link_opt_given(&lk))
        return gp_cli_required(cli, "--link",
                               "'--gpu': its scale-up link, or '--link-bw': a link of your own",
                               NULL);
    if (link_id != NULL && gpu_id != NULL)
        return gp_cli_usage(cli, "--link %s and --gpu %s both name the link: give one", link_id,
                            gpu_id);
    if (gpus < 1)
        return gp_cli_required(cli, "--gpus", NULL, NULL);
    if (bytes < 0.0)
        return gp_cli_required(cli, "--bytes", NULL, NULL);
    if (per_node >= gpus) { /* one node holds them all, as scale and decode take it */
        if (nodes_given && nodes != 1)
            return gp_cli_usage(cli, "--nodes %ld and --gpus-per-node %ld disagree: %ld GPUs in "
                                     "nodes of %ld are 1 node",
                                nodes, per_node, gpus, per_node);
        per_node = 0;
    }
    if (per_node > 0) {
        if (gpus % per_node != 0)
            return gp_cli_usage(cli, "--gpus %ld does not fill whole nodes of --gpus-per-node %ld",
                                gpus, per_node);
        if (nodes_given && nodes != gpus / per_node)
            return gp_cli_usage(cli, "--nodes %ld and --gpus-per-node %ld disagree: %ld GPUs in "
                                     "nodes of %ld are %ld nodes",
                                nodes, per_node, gpus, per_node, gpus / per_node);
        nodes = gpus / per_node;
    }
    if (gpus % nodes != 0)
        return gp_cli_usage(cli, "--gpus %ld does not split evenly over --nodes %ld", gpus, nodes);
    if (nodes > 1 && out_id == NULL && per_node > 0)
        return gp_cli_usage(cli, "--gpus-per-node %ld puts --gpus %ld on %ld nodes: that needs "
                                 "--scale-out ID (the link between nodes)",
                            per_node, gpus, nodes);
    if (nodes > 1 && out_id == NULL)
        return gp_cli_usage(cli, "--nodes %ld needs --scale-out ID (the link between nodes)",
                            nodes);
    if ((db = gp_cli_db(cli)) == NULL)
        return GP_EXIT_USAGE;
    if (gpu_id != NULL) {
        const gp_gpu *g;
        if (gp_db_get_gpu(db, gpu_id, "--gpu", &g, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        gpu = g;
    }
    if (gpu != NULL && !gp_cli_link_opt_given(&lk)) {
        const gp_gpu *g = gpu;
        if (gpus > 1 && gp_cli_unified_needs_link(g, out_id != NULL, (double)(gpus / nodes))) {
            char lead[48];
            snprintf(lead, sizeof lead, "'--gpus' %ld: ", gpus);
            return gp_cli_refuse_unified(cli, lead, g, "a collective over several machines",
                                         "--link' or '--link-bw");
        }
        link_id = gp_cli_gpu_link(db, g, (double)(gpus / nodes), (double)gpus, 0, "--link",
                                  link_msg, sizeof link_msg);
        if (link_id == NULL)
            return gp_cli_usage(cli, "--gpu %s names no link: give --link ID", gpu_id);
        if (link_msg[0] != '\0')
            gp_cli_note(cli, "note", "%s", link_msg);
    }
    if (link_id != NULL &&
        (rc = parse_id(gpu_id != NULL ? "--gpu" : "--link", db, link_id, &up, cli)) != 0)
        return rc;
    /* --link-bw without --link: a link of the user's own (the GPU's unused). */
    if ((rc = gp_cli_link_opt_apply(cli, &lk, up, &up)) != 0)
        return rc;
    if (out_id != NULL && (rc = gp_cli_scale_out(cli, db, out_id, &out)) != 0)
        return rc;

    gp_cli_note_link_scopes(cli, "--link", up, (double)(gpus / nodes), out, nodes > 1,
                            "--nodes M");
    /* Options that price nothing here are said, not silently dropped. */
    if (nodes == 1) {
        const char *un[] = {out_id != NULL ? "--scale-out" : NULL,
                            nics_given ? "--nics-per-node" : NULL};
        gp_cli_note_ignored(cli, un, 2, "one node (give --nodes M for a multi-node collective)");
    }
    gp_cli_note_host_bw(cli, up, params.host_bw);
    if (nodes > 1)
        gp_cli_note_nics(cli, nics, gpus / nodes);
    memset(&t, 0, sizeof t);
    t.scale_up = up;
    t.gpus_per_node = gpus / nodes;
    t.scale_out = nodes > 1 ? out : NULL;
    t.nodes = nodes;
    t.nics_per_node = nics; /* 0: the library's default */
    /* The count priced: the given or default K, at most one a GPU. */
    nics_priced = gp_topo_nics(&t);
    if (nodes > 1 && gpus == nodes) {
        /* Nodes of one GPU: the scale-up link carries nothing (--link,
         * which the command asks for, is not said). */
        const char *un[] = {gp_cli_link_opt_given(&lk) ? "--link-bw" : NULL,
                            lk.lat >= 0.0 ? "--link-latency" : NULL,
                            params.host_bw > 0.0 ? "--host-bw" : NULL};
        gp_cli_note_ignored(cli, un, sizeof un / sizeof un[0],
                            "nodes of one GPU talk only over --scale-out");
    }
    if (nodes > 1 && gpus > nodes && !nics_given && up->kind == GP_LINK_OTHER)
        gp_cli_note(cli, "note",
                    "a link of your own (--link-bw) is not NVLink: %ld NIC a node shared by its "
                    "%ld GPUs (--nics-per-node K to say how many)",
                    nics_priced, gpus / nodes);
    if (gp_comm_eval(&t, op, asked, bytes, &params, &r, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    algo = r.algo; /* --algo auto: the one NCCL runs here */
    gp_cli_link_opt_notes(cli, &lk, up, algo == GP_COLL_NVLS, 0);
    /* A measured busbw (nccl-tests) is a time: t = S x bus_factor / busbw. */
    memset(&diag, 0, sizeof diag);
    if (mbus > 0.0) {
        if (r.trivial || !(bytes > 0.0))
            return gp_cli_usage(cli, "--measured-busbw needs at least 2 GPUs and --bytes > 0");
        gp_ledger_diagnose(&r.ceiling.ledger, &r.expected.ledger, bytes * r.bus_factor / mbus,
                           &diag);
        /* Beyond this algorithm's ceiling, within another's NCCL runs here. */
        if (diag.verdict == GP_VERDICT_IMPOSSIBLE &&
            other_algo(&t, op, algo, bytes, &params, diag.measured_s, &alt, &alt_r)) {
            has_alt = 1;
            other_verdict(algo, alt, (int)nodes, &r, &alt_r, alt_adv, sizeof alt_adv);
        }
    }
    if (asked == GP_COLL_NVLS)
        nvls_note(cli, &t, op, algo, bytes, &params, &r);
    /* Nothing below refuses: the plan is made, its notes are said. */
    gp_cli_notes_flush(cli);

    if (cli->json) {
        json_t *o = json_object(), *exp = jcost(&r.expected), *ceil = jcost(&r.ceiling);
        json_object_set_new(o, "op", json_string(gp_coll_op_name(op)));
        json_object_set_new(o, "algo", json_string(gp_coll_algo_name(algo)));
        json_object_set_new(o, "algo_requested", json_string(gp_coll_algo_name(asked)));
        if (gpu != NULL)
            json_object_set_new(o, "gpu", json_string(gpu->id));
        json_object_set_new(o, "gpus", json_integer(r.gpus));
        /* The share of the scale-up link's per-GPU figure its GPUs reach (a
         * point-to-point mesh: (g - 1) / (max_gpus - 1); else 1). */
        json_object_set_new(o, "scale_up_mesh_share",
                            json_real(gp_link_mesh_share(up, (double)r.gpus_per_node)));
        json_object_set_new(o, "nodes", json_integer(r.nodes));
        json_object_set_new(o, "gpus_per_node", json_integer(r.gpus_per_node));
        if (t.scale_out != NULL) {
            /* The count priced (at most one a GPU); the given one beside it. */
            json_object_set_new(o, "nics_per_node", json_integer(nics_priced));
            if (nics_given)
                json_object_set_new(o, "nics_per_node_given", json_integer(nics));
        }
        json_object_set_new(o, "bytes", gp_cli_jnum(bytes));
        json_object_set_new(o, "bytes_per_gpu", gp_cli_jnum(r.bytes_per_gpu));
        json_object_set_new(o, "intra_bytes_per_gpu", gp_cli_jnum(r.bytes_per_gpu_intra));
        json_object_set_new(o, "inter_bytes_per_gpu", gp_cli_jnum(r.bytes_per_gpu_inter));
        json_object_set_new(o, "bus_factor", gp_cli_jnum(r.bus_factor));
        json_object_set_new(o, "time_s", gp_cli_jnum(r.expected.time_s));
        json_object_set_new(o, "algbw_bytes_per_s", gp_cli_jnum(r.expected.algbw));
        json_object_set_new(o, "busbw_bytes_per_s",
                            gp_cli_jnum(busbw_of(&r.expected)));
        json_object_set_new(o, "bandwidth_term_s", gp_cli_jnum(r.expected.bw_s));
        json_object_set_new(o, "latency_term_s", gp_cli_jnum(r.expected.lat_s));
        json_object_set_new(o, "dominant", json_string(r.trivial ? "none"
                                                                 : dominant(&r.expected)));
        json_object_set_new(o, "ceiling_time_s", gp_cli_jnum(r.ceiling.time_s));
        json_object_set_new(o, "ceiling_algbw_bytes_per_s", gp_cli_jnum(r.ceiling.algbw));
        json_object_set_new(o, "ceiling_busbw_bytes_per_s",
                            gp_cli_jnum(busbw_of(&r.ceiling)));
        json_object_set_new(o, "trivial", json_boolean(r.trivial));
        json_object_set_new(o, "hierarchical", json_boolean(r.hierarchical));
        if (r.hierarchical)
            json_object_set_new(o, "schedule",
                                json_string(r.expected.flat_ring ? "ring across all nodes"
                                            : r.expected.pipelined
                                                ? (algo == GP_COLL_NVLS ? "nvls-tree, pipelined"
                                                                        : "tree, pipelined")
                                                : "hierarchical phases"));
        json_object_set_new(o, "host_staged", json_boolean(r.host_staged));
        json_object_set_new(o, "host_bound", json_boolean(r.host_bound));
        if (r.host_staged) {
            json_object_set_new(o, "host_bw_bytes_per_s", gp_cli_jnum(gp_comm_host_bw(&params)));
        }
        if (r.trivial)
            json_object_set_new(o, "note",
                                json_string(r.gpus == 1 ? "1 GPU: nothing to communicate, zero cost"
                                                        : "0 bytes: an empty collective, which NCCL "
                                                          "discards before launching anything; "
                                                          "zero cost"));
        json_object_set_new(o, "expected", exp);
        json_object_set_new(o, "ceiling", ceil);
        json_object_set_new(o, "link", jlink(up));
        json_object_set_new(o, "scale_out", jlink(t.scale_out));
        {
            json_t *lx = gp_cli_jledger(&r.expected.ledger),
                   *lc = gp_cli_jledger(&r.ceiling.ledger);
            if (r.trivial) { /* every account 0: none binds */
                json_object_set_new(lx, "binding", json_string("none"));
                json_object_set_new(lc, "binding", json_string("none"));
            }
            json_object_set_new(o, "ledger", lx);
            json_object_set_new(o, "ceiling_ledger", lc);
        }
        if (sweep) {
            json_t *a = json_array();
            double s = 8.0;
            for (;;) {
                gp_comm_result rs;
                json_t *row;
                double sz = s < bytes ? s : bytes;
                if (gp_comm_eval(&t, op, asked, sz, &params, &rs, &e) != GP_OK) {
                    json_decref(a);
                    json_decref(o);
                    return gp_cli_fail(cli, &e);
                }
                row = json_object();
                json_object_set_new(row, "bytes", gp_cli_jnum(sz));
                json_object_set_new(row, "time_s", gp_cli_jnum(rs.expected.time_s));
                json_object_set_new(row, "algbw_bytes_per_s", gp_cli_jnum(rs.expected.algbw));
                json_object_set_new(row, "busbw_bytes_per_s", gp_cli_jnum(busbw_of(&rs.expected)));
                json_object_set_new(row, "ceiling_time_s", gp_cli_jnum(rs.ceiling.time_s));
                json_object_set_new(row, "ceiling_busbw_bytes_per_s",
                                    gp_cli_jnum(busbw_of(&rs.ceiling)));
                json_object_set_new(row, "dominant",
                                    json_string(rs.trivial ? "none" : dominant(&rs.expected)));
                json_object_set_new(row, "algo", json_string(algo_label(&rs)));
                json_array_append_new(a, row);
                if (sz >= bytes)
                    break;
                s *= 2.0;
            }
            json_object_set_new(o, "sweep", a);
        }
        if (mbus > 0.0) {
            json_t *dj = has_alt ? gp_cli_jdiag_as(&diag, "other_algorithm", alt_adv)
                                 : gp_cli_jdiag(&diag, COLL_IDLE);
            json_object_set_new(dj, "measured_busbw_bytes_per_s", gp_cli_jnum(mbus));
            if (has_alt) {
                json_t *a = json_object();
                json_object_set_new(a, "algo", json_string(gp_coll_algo_name(alt)));
                json_object_set_new(a, "ceiling_s", gp_cli_jnum(alt_r.ceiling.time_s));
                json_object_set_new(a, "ceiling_busbw_bytes_per_s",
                                    gp_cli_jnum(alt_r.ceiling.busbw));
                json_object_set_new(a, "expected_s", gp_cli_jnum(alt_r.expected.time_s));
                json_object_set_new(a, "expected_busbw_bytes_per_s",
                                    gp_cli_jnum(alt_r.expected.busbw));
                json_object_set_new(dj, "other_algorithm", a);
            }
            json_object_set_new(o, "diagnosis", dj);
        }
        /* The notes said on stderr, as decode and scale keep theirs. */
        json_object_set_new(o, "warnings", gp_cli_jwarnings(cli));
        return gp_cli_emit(o) ? GP_EXIT_FAIL : GP_EXIT_OK;
    }

    if (cli->csv || sweep) {
        double s = 8.0;
        char b1[64], b2[64], b3[64], b4[64], b5[64];
        if (cli->csv)
            printf("bytes,time_s,algbw_bytes_per_s,busbw_bytes_per_s,ceiling_time_s,"
                   "ceiling_busbw_bytes_per_s,dominant,algo\n");
        else
            printf("%s on %ld GPUs, nccl-tests style sweep (expected; ceiling time; %s):\n"
                   "  %12s %12s %14s %14s %12s  %-9s %s\n",
                   gp_coll_op_name(op), r.gpus,
                   asked == GP_COLL_AUTO ? "--algo auto: the algorithm NCCL runs at each size"
                                         : "--algo as given",
                   "size", "time", "algbw", "busbw", "ceiling", "dominant", "algo");
        for (;;) {
            gp_comm_result rs;
            double sz = s < bytes ? s : bytes;
            if (gp_comm_eval(&t, op, asked, sz, &params, &rs, &e) != GP_OK)
                return gp_cli_fail(cli, &e);
            if (cli->csv) /* non-finite (S / 0 s) empty, as JSON's null */
                printf(GP_CLI_G ",%s,%s,%s,%s,%s,%s,%s\n", sz,
                       gp_cli_csvnum(rs.expected.time_s, b1, sizeof b1),
                       gp_cli_csvnum(rs.expected.algbw, b2, sizeof b2),
                       gp_cli_csvnum(busbw_of(&rs.expected), b3, sizeof b3),
                       gp_cli_csvnum(rs.ceiling.time_s, b4, sizeof b4),
                       gp_cli_csvnum(busbw_of(&rs.ceiling), b5, sizeof b5),
                       rs.trivial ? "none" : dominant(&rs.expected), algo_label(&rs));
            else
                /* The doubling sizes are whole binary units; the last, S
                 * itself, need not be (100 MB is 95.37 MiB, not "95 MiB"). */
                printf("  %12s %12s %14s %14s %12s  %-9s %s\n",
                       gp_format_qty(sz, GP_Q_BYTES, whole_binary(sz) ? 0 : 2, 1, b1, sizeof b1),
                       gp_format_qty(rs.expected.time_s, GP_Q_DURATION, 2, 0, b2, sizeof b2),
                       gp_format_qty(rs.expected.algbw, GP_Q_RATE, 2, 0, b3, sizeof b3),
                       gp_format_qty(busbw_of(&rs.expected), GP_Q_RATE, 2, 0, b4, sizeof b4),
                       gp_format_qty(rs.ceiling.time_s, GP_Q_DURATION, 2, 0, b5, sizeof b5),
                       rs.trivial ? "none" : dominant(&rs.expected), algo_label(&rs));
            if (sz >= bytes)
                break;
            s *= 2.0;
        }
        if (cli->csv)
            return GP_EXIT_OK;
        printf("\n");
    }

    {
        char b[64], note[256];
        printf("%s %s of %s on %ld GPU%s (%ld node%s x %ld)\n",
               r.trivial ? gp_coll_algo_name(algo) : algo_label(&r), gp_coll_op_name(op),
               gp_format_qty(bytes, GP_Q_BYTES, 2, 0, b, sizeof b), r.gpus,
               r.gpus == 1 ? "" : "s", r.nodes, r.nodes == 1 ? "" : "s", r.gpus_per_node);
        if (r.trivial) {
            if (r.gpus == 1)
                printf("  1 GPU: nothing to communicate, so the collective costs nothing "
                       "(time 0 s, 0 bytes sent).\n");
            else
                printf("  0 bytes: an empty collective, which NCCL discards before it launches "
                       "anything (src/enqueue.cc, taskAppend), so it costs nothing (time 0 s).\n");
            return GP_EXIT_OK;
        }
        printf("assumptions:\n");
        if (gpu != NULL)
            gp_cli_row("GPU", gpu->id, up == &lk.own && up->kind == GP_LINK_OTHER
                                           ? "--gpu: named only (--link-bw: a link of your own)"
                                       : gpu->scale_up_link != NULL &&
                                               strcmp(gpu->scale_up_link, up->id) == 0
                                           ? "--gpu: its scale-up link"
                                       : gpu->wide_link != NULL &&
                                               strcmp(gpu->wide_link, up->id) == 0
                                           ? "--gpu: its wide link (beyond the scale-up link)"
                                           : "--gpu: its host link");
        if (op == GP_COLL_ALLREDUCE) {
            algo_why(&t, asked, algo, bytes, note, sizeof note);
            gp_cli_row("algorithm", algo_label(&r), note);
        }
        if (r.gpus_per_node > 1)
            print_link("scale-up link", up, algo, r.gpus_per_node);
        if (t.scale_out != NULL) {
            print_link("scale-out link", t.scale_out, algo, r.nodes);
            if (nics_given && nics != nics_priced)
                snprintf(note, sizeof note, "%ld NIC%s shared by %ld GPUs (--nics-per-node %ld: "
                                            "one NIC a GPU at most)",
                         nics_priced, nics_priced == 1 ? "" : "s", r.gpus_per_node, nics);
            else
                snprintf(note, sizeof note, "%ld NIC%s shared by %ld GPUs", nics_priced,
                         nics_priced == 1 ? "" : "s", r.gpus_per_node);
            gp_cli_row("NICs per node", "", note);
        }
        if (r.host_staged) {
            snprintf(note, sizeof note,
                     "staging through host memory: per-GPU rate min(link, host/(2 x %ld))%s",
                     r.gpus_per_node, r.host_bound ? " -> host memory binds" : "");
            gp_cli_qrow("host staging bandwidth", gp_comm_host_bw(&params), GP_Q_RATE, 1, note);
        }
        printf("result (expected: achievable link figures):\n");
        /* S > 0 here: an empty collective is trivial (returned above) */
        snprintf(note, sizeof note, "%.4g x S%s", r.bytes_per_gpu / bytes,
                     !r.hierarchical          ? ""
                     : op == GP_COLL_ALLTOALL ? " (to the node's peers, then off the node)"
                     : r.expected.flat_ring   ? " (one ring across all nodes: scale-up hops plus"
                                                " the node's share off it)"
                     : r.expected.pipelined && algo == GP_COLL_NVLS
                                              ? " (NVLS inside the node plus the share between "
                                                "nodes)"
                     : r.expected.pipelined   ? " (the chain inside the node plus the share "
                                                "between nodes)"
                                              : " (intra RS+AG plus inter share)");
        gp_cli_qrow("bytes sent per GPU", r.bytes_per_gpu, GP_Q_BYTES, 2, note);
        gp_cli_qrow("time", r.expected.time_s, GP_Q_DURATION, 3, NULL);
        gp_cli_qrow("algbw", r.expected.algbw, GP_Q_RATE, 2, "S / time");
        snprintf(note, sizeof note, "algbw x %.4g (compare with nccl-tests busbw)", r.bus_factor);
        gp_cli_qrow("busbw", r.expected.busbw, GP_Q_RATE, 2, note);
        if (r.hierarchical) {
            const char *sched = op == GP_COLL_ALLTOALL ? "concurrent"
                                : r.expected.flat_ring
                                    ? "ring across all nodes, links concurrent (faster "
                                      "than RS / inter-node / AG here)"
                                : r.expected.pipelined && algo == GP_COLL_NVLS
                                    ? "NVLS-tree: NVLS inside nodes, a tree between them, "
                                      "pipelined (the slower sets the pace)"
                                : r.expected.pipelined
                                    ? "tree: the chain inside nodes and the tree between "
                                      "them pipelined (the slower sets the pace)"
                                    : "hierarchical: RS, then between nodes, then AG";
            gp_cli_row("  schedule", "", sched);
            gp_cli_qrow("  inside nodes", r.expected.intra_s, GP_Q_DURATION, 3, NULL);
            gp_cli_qrow("  between nodes", r.expected.inter_s, GP_Q_DURATION, 3, NULL);
        }
        printf("ceiling (datasheet link rate, no latency: a bound):\n");
        gp_cli_qrow("time", r.ceiling.time_s, GP_Q_DURATION, 3, NULL);
        gp_cli_qrow("busbw", r.ceiling.busbw, GP_Q_RATE, 2, NULL);
        printf("movement account:\n");
        gp_cli_qrow("bandwidth term", r.expected.bw_s, GP_Q_DURATION, 3, "bytes / link rate");
        gp_cli_qrow("latency term", r.expected.lat_s, GP_Q_DURATION, 3,
                    !(r.expected.nvls_latency > 0.0) ? "hops x alpha"
                    : r.nodes > 1 ? "NVLS 23 us (NCCL's tuning.cc) + tree hops x alpha"
                                  : "NVLS: NCCL's 23 us whatever n (tuning.cc)");
        {
            double hi = fmax(r.expected.bw_s, r.expected.lat_s);
            double lo = fmin(r.expected.bw_s, r.expected.lat_s);
            char x[32];
            if (lo > 0)
                printf("  %s dominates (%sx the %s term)\n", dominant(&r.expected),
                       gp_cli_g(hi / lo, 3, x, sizeof x),
                       r.expected.bw_s >= r.expected.lat_s ? "latency" : "bandwidth");
            else
                printf("  %s is the only term\n", dominant(&r.expected));
        }
        gp_cli_print_ledger("ledger", &r.expected.ledger);
        if (asked == GP_COLL_RING)
            nvls_hint(&t, op, algo, bytes, &params, &r);
        if (mbus > 0.0) {
            char what[160], mb[32], tm[32];
            snprintf(what, sizeof what, "measured busbw %s = %s for S",
                     gp_format_qty(mbus, GP_Q_RATE, 2, 0, mb, sizeof mb),
                     gp_format_qty(diag.measured_s, GP_Q_DURATION, 3, 0, tm, sizeof tm));
            printf("\n");
            if (has_alt)
                gp_cli_print_diagnosis_as(what, &diag, "other_algorithm", alt_adv);
            else
                gp_cli_print_diagnosis(what, &diag, COLL_IDLE);
        }
    }
    return GP_EXIT_OK;
}

const gp_cli_command gp_cli_cmd_allreduce = {
    "allreduce",
    "price collectives on a link hierarchy: AllReduce, ReduceScatter, AllGather, AllToAll",
    run, 1};
