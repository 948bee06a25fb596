/* gpuplan scale: does adding GPUs help a data-parallel job?  Step time,
 * communication share, speedup, efficiency per GPU count, the count past
 * which more cards stop paying, and an optional gnuplot chart.
 * MODEL: docs/models/scaling.md. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define MAX_COUNTS 64

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuplan scale --gpu ID --link ID|--link-bw RATE (--model ID | --params N [--grad-precision P]\n"
            "         | --grad-bytes S) (--step-compute-s T | --tokens-per-gpu K [--seq S])\n"
            "         [--gpus 1,2,4,8]\n"
            "         [--gpus-per-node G --scale-out ID [--nics-per-node K]] [--overlap F]\n"
            "         [--strong|--weak] [--threshold E] [--algo auto|ring|tree|nvls]\n"
            "         [--host-bw RATE] [--ceiling] [--zero 0|3] [--micro-batches M]\n"
            "         [--plot FILE.png|FILE.svg]\n\n"
            "Data-parallel scaling: step(n) = compute(n) + gradient AllReduce(n) not hidden behind\n"
            "the backward pass.  Weak scaling (default): fixed per-GPU batch, T is one GPU's step.\n"
            "Strong scaling: fixed global batch, T is the whole batch on one GPU, compute = T/n.\n"
            "With --gpu and a parameter count, one replica's memory is checked (mixed-precision\n"
            "Adam: 14 B/param + the gradients + reserve, + activations with --tokens-per-gpu);\n"
            "a replica that does not fit is a warning, with the GPU count ZeRO-3 would need.\n\n"
            "  --gpu ID            the GPU (its scale-up or host link is the default --link)\n"
            "  --link ID           link between GPUs inside a node\n"
            "  --link-bw RATE      without --link: a link of your own, RATE per direction per\n"
            "                      GPU (datasheet and expected alike); with --link ID: its\n"
            "                      expected rate (at most its datasheet)\n"
            "  --link-latency T    the link's alpha per hop (e.g. 5us; --link-bw alone: 0)\n"
            "  --model ID          gradient bytes = the model's parameters x gradient precision\n"
            "                      (ID, or a Hugging Face config.json: FILE.json)\n"
            "  --params N          parameter count (7B, 6.74e9)\n"
            "  --grad-precision P  gradient precision (default fp16: 2 bytes per parameter)\n"
            "  --grad-bytes S      gradient bytes per step (14GB)\n"
            "  --step-compute-s T  compute time of one step on one GPU (2, 2s, 350ms)\n"
            "  --tokens-per-gpu K  or: tokens in that step (a whole number of sequences);\n"
            "                      its time comes from the training step-time model on one\n"
            "                      GPU (needs --gpu and --model or --params; bf16)\n"
            "  --seq S             sequence length for --tokens-per-gpu (default: the\n"
            "                      model's pre-training sequence, as train)\n"
            "  --gpus LIST         GPU counts to evaluate (default 1,2,4,8)\n"
            "  --gpus-per-node G   GPUs per node (default: every count in one node)\n"
            "  --scale-out ID      link between nodes (ib-ndr, roce-400, efa-p5 ...)\n"
            "  --nics-per-node K   NICs (ports) per node sharing the inter-node traffic\n"
            "                      (default: one per GPU on NVLink/Infinity Fabric nodes, else 1)\n"
            "  --overlap F         fraction of the AllReduce that can overlap backward, in [0,1]\n"
            "                      (default 0); at most 2/3 of the compute step can hide it\n"
            "  --weak              fixed per-GPU batch: compute(n) = T (the default)\n"
            "  --strong            fixed global batch: compute(n) = T/n\n"
            "  --threshold E       efficiency below which more GPUs stop paying (default 0.5)\n");
    fprintf(f,
            "  --algo A            AllReduce algorithm: auto (default: each count what NCCL runs,\n"
            "                      NVLS or NVLS-tree on nodes of 3+ GPUs whose NVSwitch reduces,\n"
            "                      e.g. nvlink4, when faster, else the ring), ring, tree, or nvls\n"
            "  --host-bw RATE      host staging bandwidth (reads + writes) when the link has no\n"
            "                      peer-to-peer (default: 460.8 GB/s, one server socket's DRAM)\n"
            "  --ceiling           datasheet link rates, no latency (a bound) instead of achievable\n"
            "  --zero 3            ZeRO-3 / FSDP: the weights AllGathered twice and the gradients\n"
            "                      ReduceScattered each step (1.5x the AllReduce's bytes), hidden\n"
            "                      under the whole step with --overlap; memory: the model states\n"
            "                      sharded over the GPUs (default 0: plain data parallelism)\n"
            "  --micro-batches M   micro-batches per step on each GPU, in [1, 1e6] (default 1):\n"
            "                      --zero 3 gathers and scatters for every one (M x the traffic);\n"
            "                      plain data parallelism AllReduces once a step, under the last\n"
            "                      micro-batch's backward only\n"
            "  --plot FILE         speedup and efficiency vs GPUs with the ideal line (gnuplot)\n");
}

/* Per-direction rate behind the scale-up AllReduce: datasheet (--ceiling),
 * the link's NVLS figure for --algo nvls, else its expected figure (the
 * ring's; --algo auto's NVLS rows are said beside it). */
static double up_rate(const gp_link *up, const gp_scale_params *sp)
{
    if (sp->ceiling)
        return up->bw.v;
    if (sp->algo == GP_COLL_NVLS && up->bw_nvls.v > 0.0)
        return up->bw_nvls.v;
    return gp_link_expected_bw(up);
}

/* The algorithm a row's gradient collective is priced with: "none" on one
 * GPU, "nvls-tree" for NVLS over nodes. */
static const char *row_algo(const gp_scale_row *r)
{
    return gp_cli_algo_label(GP_COLL_ALLREDUCE, r->algo, r->nodes, r->gpus == 1);
}

/* Into buf: "ring, NCCL's default here" (or nvls, nvls-tree) when every
 * row of more than one GPU is priced with that algorithm, "none: one GPU"
 * when no row has more; NULL when they differ. */
static const char *one_algo(const gp_scale_row *rows, size_t n, char *buf, size_t size)
{
    const char *a = NULL;
    size_t i;
    for (i = 0; i < n; i++) {
        const char *b = row_algo(&rows[i]);
        if (rows[i].gpus == 1)
            continue;
        if (a != NULL && strcmp(a, b) != 0)
            return NULL;
        a = b;
    }
    snprintf(buf, size, "%s", a == NULL ? "none: one GPU" : a);
    if (a != NULL)
        snprintf(buf + strlen(buf), size - strlen(buf), ", NCCL's default here");
    return buf;
}

/* 1 when a row's gradient collective is priced with NVLS (NVLS-tree). */
static int any_nvls(const gp_scale_row *rows, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (rows[i].algo == GP_COLL_NVLS)
            return 1;
    return 0;
}

/* Parse "1,2,4,8" into out (sorted, duplicates dropped).  Returns the count,
 * or -1 after printing an error that names --gpus. */
static int parse_list(const gp_cli *cli, const char *arg, long *out)
{
    char buf[512], *tok, *save = NULL;
    int n = 0, i, j;
    gp_err e;
    if (strlen(arg) >= sizeof buf) {
        /* Not "bad list" and the whole argument back: say why. */
        gp_cli_usage(cli, "--gpus: list '%.40s...' is %zu characters, longer than %zu (at most "
                          "%d counts)", arg, strlen(arg), sizeof buf - 1, MAX_COUNTS);
        return -1;
    }
    if (arg[0] == '\0') {
        gp_cli_usage(cli, "--gpus: bad list '%s' (want counts such as 1,2,4,8)", arg);
        return -1;
    }
    strcpy(buf, arg);
    for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        long v;
        gp_err_clear(&e);
        if (n >= MAX_COUNTS) {
            gp_cli_usage(cli, "--gpus: at most %d counts, got '%s'", MAX_COUNTS, arg);
            return -1;
        }
        if (gp_parse_int(tok, 1, "--gpus", &v, &e) != GP_OK) {
            gp_cli_usage(cli, "--gpus: '%s' in '%s' is not a GPU count >= 1", tok, arg);
            return -1;
        }
        out[n++] = v;
    }
    if (n == 0 || arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,") != NULL) {
        gp_cli_usage(cli, "--gpus: bad list '%s' (want counts such as 1,2,4,8)", arg);
        return -1;
    }
    for (i = 1; i < n; i++) { /* insertion sort */
        long v = out[i];
        for (j = i; j > 0 && out[j - 1] > v; j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
    for (i = 1, j = 1; i < n; i++)
        if (out[i] != out[j - 1])
            out[j++] = out[i];
    return j;
}

/* Find an executable `name` on $PATH into path; 0 when found. */
static int find_exe(const char *name, char *path, size_t n)
{
    const char *p = getenv("PATH"), *q;
    if (p == NULL)
        return -1;
    while (*p) {
        size_t len;
        q = strchr(p, ':');
        len = q ? (size_t)(q - p) : strlen(p);
        if (len > 0 && len + strlen(name) + 2 <= n) {
            memcpy(path, p, len);
            path[len] = '/';
            strcpy(path + len + 1, name);
            if (access(path, X_OK) == 0)
                return 0;
        }
        if (q == NULL)
            break;
        p = q + 1;
    }
    return -1;
}

/* Draw speedup and efficiency vs GPUs with gnuplot into file (PNG or SVG by
 * extension), through a temp file renamed into place. */
static int plot(const gp_cli *cli, const char *file, const gp_scale_row *rows, size_t n,
                const char *title)
{
    char exe[4096], tmp[4200], cmd[4300];
    const char *ext = strrchr(file, '.');
    const char *term;
    FILE *gp;
    size_t i;
    int fd, st;

    if (ext != NULL && strcasecmp(ext, ".png") == 0)
        term = "pngcairo size 900,560";
    else if (ext != NULL && strcasecmp(ext, ".svg") == 0)
        term = "svg size 900,560";
    else
        return gp_cli_usage(cli, "--plot: '%s' must end in .png or .svg", file);
    if (strchr(file, '\'') != NULL || strchr(file, '\n') != NULL || strlen(file) > 4000)
        return gp_cli_usage(cli, "--plot: unsupported file name '%s'", file);
    if (find_exe("gnuplot", exe, sizeof exe) != 0) {
        fprintf(stderr, "gpuplan %s: --plot needs gnuplot, which is not on PATH "
                        "(Debian: apt-get install gnuplot-nox)\n", cli->cmd ? cli->cmd : "scale");
        return GP_EXIT_USAGE;
    }
    snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", file);
    if ((fd = mkstemp(tmp)) < 0) {
        fprintf(stderr, "gpuplan %s: --plot: cannot create a file beside '%s': %s\n",
                cli->cmd ? cli->cmd : "scale", file, strerror(errno));
        return GP_EXIT_USAGE;
    }
    {
        mode_t m = umask(0); /* mkstemp makes 0600; give the usual 0666 & ~umask */
        umask(m);
        (void)fchmod(fd, (mode_t)(0666 & ~m));
    }
    close(fd);
    snprintf(cmd, sizeof cmd, "'%s'", exe);
    if (strchr(exe, '\'') != NULL || (gp = popen(cmd, "w")) == NULL) {
        remove(tmp);
        fprintf(stderr, "gpuplan %s: --plot: cannot run gnuplot\n", cli->cmd ? cli->cmd : "scale");
        return GP_EXIT_FAIL;
    }
    fprintf(gp, "set terminal %s\nset output '%s'\n", term, tmp);
    fprintf(gp, "set title \"%s\" noenhanced\n", title);
    fprintf(gp, "set xlabel 'GPUs'\nset ylabel 'speedup (x one GPU)'\n"
                "set y2label 'efficiency'\nset ytics nomirror\nset y2tics\n"
                "set y2range [0:1.05]\nset yrange [0:*]\nset key below horizontal\nset grid\n"
                "set logscale x 2\n");
    fprintf(gp, "$d << EOD\n");
    for (i = 0; i < n; i++)
        fprintf(gp, "%ld " GP_CLI_G " " GP_CLI_G "\n", rows[i].gpus, rows[i].speedup,
                rows[i].efficiency);
    fprintf(gp, "EOD\n");
    fprintf(gp, "plot $d using 1:1 with lines dt 2 lc rgb 'gray' title 'ideal', "
                "$d using 1:2 with linespoints lw 2 title 'speedup', "
                "$d using 1:3 axes x1y2 with linespoints lw 2 title 'efficiency'\n");
    st = pclose(gp);
    if (st != 0) {
        remove(tmp);
        fprintf(stderr, "gpuplan %s: --plot: gnuplot failed (status %d)\n",
                cli->cmd ? cli->cmd : "scale", st);
        return GP_EXIT_FAIL;
    }
    if (rename(tmp, file) != 0) { /* a directory there: bad input, as roofline --plot */
        fprintf(stderr, "gpuplan %s: --plot: cannot write '%s': %s\n",
                cli->cmd ? cli->cmd : "scale", file, strerror(errno));
        remove(tmp);
        return GP_EXIT_USAGE;
    }
    return GP_EXIT_OK;
}

static const char *stop_name(gp_scale_stop s)
{
    switch (s) {
    case GP_STOP_FALLS: return "speedup_falls";
    case GP_STOP_EFFICIENCY: return "efficiency_below_threshold";
    case GP_STOP_MARGINAL: return "marginal_below_threshold";
    default: return "none";
    }
}

enum { O_LINK_BW = 256, O_LINK_LAT };

static int run(gp_cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"gpu", required_argument, NULL, 'G'},
        {"link", required_argument, NULL, 'l'},
        {"model", required_argument, NULL, 'm'},
        {"params", required_argument, NULL, 'p'},
        {"grad-precision", required_argument, NULL, 'P'},
        {"grad-bytes", required_argument, NULL, 'B'},
        {"step-compute-s", required_argument, NULL, 'T'},
        {"tokens-per-gpu", required_argument, NULL, 'K'},
        {"seq", required_argument, NULL, 'Q'},
        {"gpus", required_argument, NULL, 'g'},
        {"gpus-per-node", required_argument, NULL, 'n'},
        {"scale-out", required_argument, NULL, 's'},
        {"nics-per-node", required_argument, NULL, 'k'},
        {"overlap", required_argument, NULL, 'o'},
        {"strong", no_argument, NULL, 'S'},
        {"weak", no_argument, NULL, 'W'},
        {"threshold", required_argument, NULL, 'e'},
        {"algo", required_argument, NULL, 'a'},
        {"host-bw", required_argument, NULL, 'H'},
        {"link-bw", required_argument, NULL, O_LINK_BW},
        {"link-latency", required_argument, NULL, O_LINK_LAT},
        {"ceiling", no_argument, NULL, 'C'},
        {"zero", required_argument, NULL, 'z'},
        {"micro-batches", required_argument, NULL, 'M'},
        {"plot", required_argument, NULL, 'L'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int mrc, own;
    long node = 0; /* the largest node a row asks for */
    const char *gpu_id = NULL, *link_id = NULL, *model_id = NULL, *out_id = NULL,
               *plot_file = NULL, *prec_name = "fp16";
    long counts[MAX_COUNTS] = {1, 2, 4, 8};
    int n_counts = 4, c, sources = 0, modes = 0;
    double params_n = -1.0, grad_bytes = -1.0, step = -1.0, tok_gpu = -1.0, seq = 0.0;
    const char *step_src = "--step-compute-s";
    long per_node = 0, nics = 0, nics_priced = 0;
    /* One replica's memory: known with --gpu and a parameter count;
     * activations (act) only from --tokens-per-gpu's step, else -1. */
    gp_scale_memory mem;
    int mem_known = 0, nvls_rows = 0;
    double act = -1.0;
    char warn[512] = "";
    gp_scale_params sp;
    gp_scale_req q;
    gp_scale_row rows[MAX_COUNTS];
    gp_scale_result res;
    gp_precision prec = GP_FP16;
    gp_err e;
    const gp_db *db;
    const gp_gpu *gpu = NULL;
    const gp_link *up = NULL, *out = NULL;
    const char *wide_id = NULL; /* the host link of nodes wider than up joins */
    char wide_msg[320] = "";
    const gp_model *model = NULL;
    char verdict[768];
    gp_ledger led;
    size_t i;
    gp_cli_link_opt lk;

    gp_cli_link_opt_init(&lk);
    gp_scale_params_default(&sp);
    memset(&q, 0, sizeof q);
    q.mode = GP_SCALING_WEAK;
    gp_err_clear(&e);
    /* Validate first, then warn: the notes and warnings wait until every
     * refusal (the library's included) is past (gp_cli_notes_flush). */
    gp_cli_notes_defer(cli);
    while ((c = gp_cli_getopt(cli, argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'G': gpu_id = optarg; break;
        case 'l': link_id = optarg; break;
        case 'm': model_id = optarg; sources |= 1; break;
        case 'p':
            if (gp_cli_qty(cli, "--params", optarg, GP_Q_COUNT, &params_n))
                return GP_EXIT_USAGE;
            if (!(params_n > 0.0))
                return gp_cli_usage(cli, "'--params' must be positive (got '%s')", optarg);
            if (gp_cli_params_floor(cli, params_n))
                return GP_EXIT_USAGE;
            sources |= 2;
            break;
        case 'P':
            prec_name = optarg;
            if (gp_precision_parse(optarg, &prec, &e) != GP_OK) {
                snprintf(e.where, sizeof e.where, "--grad-precision");
                return gp_cli_fail(cli, &e);
            }
            break;
        case 'B':
            if (gp_cli_msg_bytes(cli, "--grad-bytes", optarg, &grad_bytes))
                return GP_EXIT_USAGE;
            sources |= 4;
            break;
        case 'T':
            if (gp_cli_qty(cli, "--step-compute-s", optarg, GP_Q_DURATION, &step))
                return GP_EXIT_USAGE;
            break;
        case 'K':
            if (gp_cli_qty(cli, "--tokens-per-gpu", optarg, GP_Q_COUNT, &tok_gpu))
                return GP_EXIT_USAGE;
            if (!(tok_gpu >= 1.0 && tok_gpu <= 1e12))
                return gp_cli_usage(cli, "option '--tokens-per-gpu' must lie in [1, 1e12] "
                                         "(got '%s')", optarg);
            break;
        case 'Q': {
            long lv;
            if (gp_cli_int(cli, "--seq", optarg, 1, &lv))
                return GP_EXIT_USAGE;
            seq = (double)lv;
            break;
        }
        case 'g':
            if ((n_counts = parse_list(cli, optarg, counts)) < 0)
                return GP_EXIT_USAGE;
            break;
        case 'n':
            if (gp_cli_int(cli, "--gpus-per-node", optarg, 1, &per_node))
                return GP_EXIT_USAGE;
            break;
        case 's': out_id = optarg; break;
        case 'k':
            if (gp_cli_int(cli, "--nics-per-node", optarg, 1, &nics))
                return GP_EXIT_USAGE;
            break;
        case 'o':
            if (gp_cli_qty(cli, "--overlap", optarg, GP_Q_FRACTION, &sp.overlap))
                return GP_EXIT_USAGE;
            break;
        case 'S': q.mode = GP_SCALING_STRONG; modes |= 1; break;
        case 'W': q.mode = GP_SCALING_WEAK; modes |= 2; break;
        case 'e':
            if (gp_cli_qty(cli, "--threshold", optarg, GP_Q_FRACTION, &sp.threshold))
                return GP_EXIT_USAGE;
            break;
        case 'a':
            if (gp_coll_algo_parse(optarg, "--algo", &sp.algo, &e) != GP_OK)
                return gp_cli_fail(cli, &e);
            break;
        case 'H':
            /* Not 0: that would silently mean the library default (460.8 GB/s). */
            if (gp_cli_rate(cli, "--host-bw", optarg, &sp.comm.host_bw))
                return GP_EXIT_USAGE;
            break;
        case O_LINK_BW:
        case O_LINK_LAT:
            if (gp_cli_link_opt_parse(cli, &lk, c == O_LINK_LAT, optarg))
                return GP_EXIT_USAGE;
            break;
        case 'C': sp.ceiling = 1; break;
        case 'z': {
            long zv;
            if (gp_cli_int(cli, "--zero", optarg, 0, &zv))
                return GP_EXIT_USAGE;
            if (zv != 0 && zv != 3)
                return gp_cli_usage(cli, "option '--zero': %ld is not 0 or 3 (ZeRO-1 and -2 move "
                                         "an AllReduce's bytes each step: --zero 0 prices them; "
                                         "their memory: gpuplan train --zero N)", zv);
            q.zero3 = zv == 3;
            break;
        }
        case 'M': {
            long mv;
            if (gp_cli_int(cli, "--micro-batches", optarg, 1, &mv))
                return GP_EXIT_USAGE;
            if (mv > GP_SCALE_MICRO_BATCHES_MAX)
                return gp_cli_usage(cli, "option '--micro-batches' must lie in [1, 1e6] (got "
                                         "'%s')", optarg);
            q.micro_batches = mv;
            break;
        }
        case 'L': plot_file = optarg; break;
        case 'h': usage(stdout); return GP_EXIT_OK;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':': return gp_cli_usage(cli, "option '%s' needs a value", argv[optind - 1]);
        default: return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gp_cli_usage(cli, "unexpected argument '%s'", argv[optind]);
    if (modes == 3)
        return gp_cli_usage(cli, "--strong and --weak exclude each other");
    if (sources != 1 && sources != 2 && sources != 4) /* one of the three, once or repeated */
        return gp_cli_usage(cli, "give exactly one of --model ID, --params N, --grad-bytes S");
    if (step < 0.0 && tok_gpu < 0.0)
        return gp_cli_required(cli, "--step-compute-s", "'--tokens-per-gpu'", NULL);
    if (step >= 0.0 && tok_gpu >= 0.0)
        return gp_cli_usage(cli, "--step-compute-s and --tokens-per-gpu exclude each other");
    /* Refused here, before the memory warnings a zero step would have
     * printed ahead of the library's refusal (the same words). */
    if (step == 0.0) {
        fprintf(stderr, "gpuplan scale: --step-compute-s: compute time per step must be > 0 s, "
                        "got 0\n");
        return GP_EXIT_USAGE;
    }
    if (tok_gpu >= 0.0 && (gpu_id == NULL || grad_bytes >= 0.0))
        return gp_cli_usage(cli, "--tokens-per-gpu needs --gpu and --model or --params (the "
                                 "step-time model prices their FLOPs)");
    if (seq > 0.0 && tok_gpu < 0.0)
        return gp_cli_usage(cli, "--seq needs --tokens-per-gpu");
    if (gpu_id == NULL && link_id == NULL && !gp_cli_link_opt_given(&lk))
        return gp_cli_required(cli, "--gpu", "'--link', or '--link-bw': a link of your own",
                               NULL);
    if (out_id != NULL && per_node == 0)
        return gp_cli_usage(cli, "--scale-out needs --gpus-per-node G");
    if ((mrc = gp_cli_model_file(cli, &model_id)) != GP_EXIT_OK)
        return mrc;
    if ((db = gp_cli_db(cli)) == NULL)
        return GP_EXIT_USAGE;
    if (gpu_id != NULL && gp_db_get_gpu(db, gpu_id, "--gpu", &gpu, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    /* --link-bw without --link: a link of the user's own (the GPU's unused). */
    own = link_id == NULL && gp_cli_link_opt_given(&lk);
    if (link_id == NULL && !own &&
        gp_cli_unified_needs_link(gpu, out_id != NULL, (double)per_node))
        return gp_cli_refuse_unified(cli, "--gpu ", gpu, "scaling over several machines",
                                     "--link' or '--link-bw");
    /* The largest node the counts ask for: all of a count's GPUs, or
     * --gpus-per-node of them. */
    for (i = 0; i < (size_t)n_counts; i++) {
        long g = per_node > 0 && per_node < counts[i] ? per_node : counts[i];
        node = g > node ? g : node;
    }
    if (link_id == NULL && !own) {
        /* The GPU's scale-up link; the rows whose nodes hold more GPUs than
         * it joins (a bridge's pair) take the GPU's wide_link, else its host
         * link (decode, allreduce): said for the largest node. */
        link_id = gpu->scale_up_link != NULL ? gpu->scale_up_link : gpu->host_link;
        wide_id = gp_cli_gpu_link(db, gpu, (double)node, (double)node, 1, "--link", wide_msg,
                                  sizeof wide_msg);
        if (wide_msg[0] == '\0')
            wide_id = NULL;
    }
    if (link_id == NULL && !own)
        return gp_cli_usage(cli, "--gpu %s names no link: give --link ID", gpu_id);
    if (!own && gp_db_get_link(db, link_id, "--link", &up, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if ((mrc = gp_cli_link_opt_apply(cli, &lk, up, &up)) != 0)
        return mrc;
    if (wide_id != NULL) {
        if (gp_db_get_link(db, wide_id, "--gpu", &q.wide_link, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        gp_cli_note(cli, "note", "%s; counts of up to %.0f a node keep %s", wide_msg,
                    up->max_gpus.v, up->id);
        if (lk.lat >= 0.0)
            gp_cli_note(cli, "note", "--link-latency is %s's; the wider rows' %s keeps its own",
                        up->id, q.wide_link->id);
    }
    if (out_id != NULL && gp_cli_scale_out(cli, db, out_id, &out) != 0)
        return GP_EXIT_USAGE;
    if (up->scope != GP_SCOPE_SCALE_UP && out != NULL)
        gp_cli_note(cli, "note", "--link %s is a scale-out link (between nodes): priced as the "
                                 "link among a node's GPUs; --link names the link inside a node "
                                 "(nvlink4, pcie4-x16, ...)", up->id ? up->id : "?");
    else if (up->scope != GP_SCOPE_SCALE_UP)
        gp_cli_note(cli, "note", "--link %s is a scale-out link (between nodes): priced as "
                                 "every GPU on it; for nodes of several GPUs give "
                                 "--gpus-per-node G --scale-out %s",
                    up->id ? up->id : "?", up->id ? up->id : "?");
    if (out != NULL && out->scope != GP_SCOPE_SCALE_OUT)
        gp_cli_note(cli, "warning", "--scale-out %s is a scale-up link (inside a node); it is "
                                    "priced here as the link between nodes",
                    out->id ? out->id : "?");
    /* Options that price nothing here are said, as allreduce says them. */
    if (out == NULL && nics > 0)
        gp_cli_note(cli, "note", "--nics-per-node ignored: no scale-out (give "
                                 "--gpus-per-node G --scale-out ID for nodes joined by a "
                                 "network)");
    else if (out != NULL)
        gp_cli_note_nics(cli, nics, per_node);
    if (out != NULL && per_node == 1) {
        const char *un[] = {gp_cli_link_opt_given(&lk) ? "--link-bw" : NULL,
                            lk.lat >= 0.0 ? "--link-latency" : NULL,
                            sp.comm.host_bw > 0.0 ? "--host-bw" : NULL};
        gp_cli_note_ignored(cli, un, sizeof un / sizeof un[0],
                            "nodes of one GPU talk only over --scale-out");
    }
    /* NCCL runs NVLS (NVLS-tree over nodes) only on nodes of 3 or more. */
    if (sp.algo == GP_COLL_NVLS && node < GP_COMM_NVLS_MIN_GPUS)
        gp_cli_note(cli, "note", "--algo nvls used by no row: NCCL runs NVLS only on nodes of "
                                 "3 or more GPUs; priced as the ring on one node, the tree over "
                                 "nodes");
    if (!q.zero3 && q.micro_batches > 1 && sp.overlap == 0.0)
        gp_cli_note(cli, "note", "--micro-batches %ld changes nothing here: plain data "
                                 "parallelism AllReduces once a step (DDP's no_sync accumulates "
                                 "the micro-batches) and --overlap 0 hides none of it",
                    q.micro_batches);
    gp_cli_note_host_bw(cli, up, sp.comm.host_bw);
    if (sp.comm.host_bw > 0.0 && !up->p2p && sp.ceiling)
        gp_cli_note(cli, "note", "--host-bw ignored by --ceiling: the ceiling has no host cap "
                                 "(each card's datasheet link rate bounds it; "
                                 "docs/models/collectives.md)");
    if (model_id != NULL) {
        if (gp_db_get_model(db, model_id, "--model", &model, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        params_n = model->params.v;
        /* ZeRO-3 goes layer by layer: one layer's first gather and last
         * scatter stay exposed (scaling.md). */
        q.layers = model->layers.v > 0.0 ? model->layers.v : 0.0;
    }
    if (grad_bytes < 0.0 && gp_scale_grad_bytes(params_n, prec, &grad_bytes, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    /* ZeRO-3 gathers the weights one replica holds -- the memory check's
     * weight_bytes, from the same helper (16-bit: 2 B x N) -- or, with
     * --grad-bytes alone, as many bytes as the gradients.  A count the
     * AllGather cannot price is that option's value, so the refusal names
     * it (not --zero). */
    if (params_n > 0.0 && gp_scale_weight_bytes(params_n, &q.weight_bytes, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (!(params_n > 0.0))
        q.weight_bytes = grad_bytes;
    if (q.zero3 && params_n > 0.0 && !(q.weight_bytes <= GP_COMM_BYTES_MAX))
        return gp_cli_usage(cli, "option '--params': %g parameters x %g bytes (16-bit weights) = "
                                 "%g bytes AllGathered by --zero 3, above the %g bytes one "
                                 "AllGather is priced for", params_n, q.weight_bytes / params_n,
                            q.weight_bytes, GP_COMM_BYTES_MAX);
    if (q.zero3 && !(params_n > 0.0) && !(grad_bytes > 0.0))
        return gp_cli_usage(cli, "option '--grad-bytes': 0 B: --zero 3 without --params or "
                                 "--model gathers as many weight bytes as the gradients, and "
                                 "0 B gathers none (give --params N, or --zero 0)");
    if (tok_gpu >= 0.0) {
        /* One GPU's step from the training step-time model: the batch of
         * tokens as whole sequences, bf16, no parallelism (so no
         * communication: scale adds that). */
        gp_train_in tin;
        gp_train_result tr;
        gp_train_in_init(&tin);
        tin.gpu = gpu;
        tin.model = model;
        tin.params = model != NULL ? 0.0 : params_n;
        tin.tokens = 1e12;
        tin.seq = seq;
        tin.mfu_mode = GP_MFU_MODEL;
        tin.seq = gp_train_seq(&tin, NULL);
        tin.global_batch = tok_gpu / tin.seq;
        if (tin.global_batch < 1.0 || tin.global_batch != floor(tin.global_batch))
            return gp_cli_usage(cli, "option '--tokens-per-gpu': %g tokens are not a whole "
                                     "number of %g-token sequences", tok_gpu, tin.seq);
        if (tin.global_batch > 1e9) /* the step model's cap on sequences a step */
            return gp_cli_usage(cli, "option '--tokens-per-gpu': %g tokens are %g sequences of "
                                     "%g tokens, above the step model's 1e9 a step",
                                tok_gpu, tin.global_batch, tin.seq);
        /* Strong scaling splits that global batch over n GPUs: each must
         * hold whole sequences, as weak scaling's K must be (Megatron-LM
         * refuses a global batch not divisible by micro-batch x data-parallel
         * size).  A share below one sequence, or a fraction of one, is no
         * layout a data-parallel run can take. */
        if (q.mode == GP_SCALING_STRONG)
            for (i = 0; i < (size_t)n_counts; i++) {
                double b = tin.global_batch, nc = (double)counts[i];
                if (fmod(b, nc) == 0.0)
                    continue;
                if (nc > b)
                    return gp_cli_usage(
                        cli, "option '--gpus': %ld GPUs under --strong share --tokens-per-gpu "
                             "%g = %g sequence%s of %g tokens: %.4g of a sequence each, less "
                             "than one (give counts that divide %g, or more tokens)",
                        counts[i], tok_gpu, b, b == 1.0 ? "" : "s", tin.seq, b / nc, b);
                return gp_cli_usage(
                    cli, "option '--gpus': %ld GPUs under --strong share --tokens-per-gpu %g = "
                         "%g sequences of %g tokens: %.4g sequences each, not a whole number "
                         "(give counts that divide %g, or more tokens)",
                    counts[i], tok_gpu, b, tin.seq, b / nc, b);
            }
        if (gp_train_estimate(&tin, NULL, &tr, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        step = tr.step.step_s;
        step_src = "step-time model on one GPU (docs/models/training.md 9)";
        act = tr.activation_bytes;
    }
    if (gpu != NULL && params_n > 0.0) {
        if (gp_scale_replica_memory(gpu, params_n, grad_bytes, act > 0.0 ? act : 0.0, &mem,
                                    &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        mem_known = 1;
    }
    /* ZeRO-3 shards the states: a count fits from zero3_min_gpus on. */
    if (mem_known && q.zero3) {
        long first = counts[0];
        if (mem.zero3_min_gpus == 0 || first < mem.zero3_min_gpus) {
            char b1[64];
            if (mem.zero3_min_gpus > 0)
                snprintf(warn, sizeof warn,
                         "ZeRO-3 shards the model states (%s) over the GPUs: one %s holds its "
                         "share from %ld GPUs on; the rows below price layouts that cannot run",
                         gp_format_qty(mem.weight_bytes + mem.grad_bytes + mem.optim_bytes,
                                       GP_Q_BYTES, 2, 0, b1, sizeof b1),
                         gpu->id, mem.zero3_min_gpus);
            else
                snprintf(warn, sizeof warn,
                         "ZeRO-3 cannot fit it at any count: the activations and reserve alone "
                         "exceed the %s; shard them with --tp/--pp (gpuplan train)",
                         gpu->id);
            gp_cli_note(cli, "warning", "%s", warn);
        }
    } else if (mem_known && !mem.fits) {
        char b1[64], b2[64], hint[160];
        if (mem.zero3_min_gpus > 0)
            snprintf(hint, sizeof hint, "ZeRO-3/FSDP fits it from %ld GPUs (--zero 3 prices "
                     "it), or use --tp/--pp (gpuplan train)", mem.zero3_min_gpus);
        else
            snprintf(hint, sizeof hint, "activations and reserve alone exceed the GPU: shard "
                     "them with --tp/--pp (gpuplan train)");
        snprintf(warn, sizeof warn,
                 "data parallelism keeps the whole model on every GPU, and one replica needs %s "
                 "(mixed-precision Adam: 14 B/param + the gradients + reserve%s) of the %s's %s: "
                 "these rows price a layout that cannot run; %s",
                 gp_format_qty(mem.total_bytes, GP_Q_BYTES, 2, 0, b1, sizeof b1),
                 act > 0.0 ? " + activations" : "", gpu->id,
                 gp_format_qty(mem.usable_bytes, GP_Q_BYTES, 2, 0, b2, sizeof b2), hint);
        gp_cli_note(cli, "warning", "%s", warn);
    }

    q.scale_up = up;
    q.scale_out = out;
    q.gpus_per_node = per_node;
    q.nics_per_node = nics; /* 0: the library's default */
    {
        /* The count priced for nodes of per_node GPUs: the given or default
         * K, at most one a GPU (1 when every count is one node). */
        gp_topo nt;
        memset(&nt, 0, sizeof nt);
        nt.scale_up = up;
        nt.gpus_per_node = per_node;
        nt.scale_out = out;
        nt.nodes = 2;
        nt.nics_per_node = nics;
        nics_priced = gp_topo_nics(&nt);
    }
    q.grad_bytes = grad_bytes; /* q.weight_bytes: set with the --params check above */
    q.step_compute_s = step;
    /* Counts that cannot run are never the best or the fastest: a replica
     * that does not fit rules out every count; ZeRO-3 fits from its
     * minimum on (none when even that is 0). */
    if (mem_known && q.zero3)
        q.min_gpus = mem.zero3_min_gpus > 0 ? mem.zero3_min_gpus : LONG_MAX;
    else if (mem_known && !mem.fits)
        q.min_gpus = LONG_MAX;
    if (gp_scale_eval(&q, &sp, counts, (size_t)n_counts, rows, &res, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    nvls_rows = any_nvls(rows, res.n_rows);
    gp_cli_link_opt_notes(cli, &lk, up, nvls_rows, sp.ceiling);
    if (res.first == 0) {
        gp_scale_verdict(&res, rows, verdict, sizeof verdict);
    } else {
        /* Said first: where the counts that can run begin, or that none can. */
        char v[512], need[96]; /* a verdict: under 300 characters; verdict holds 768 */
        gp_scale_verdict(&res, rows, v, sizeof v);
        if (res.first < res.n_rows)
            snprintf(verdict, sizeof verdict, "from %ld GPUs, where ZeRO-3 fits: %s",
                     mem.zero3_min_gpus, v);
        else {
            if (mem.zero3_min_gpus == 0)
                snprintf(need, sizeof need, "activations and reserve alone exceed the GPU");
            else
                snprintf(need, sizeof need, "ZeRO-3 needs %ld GPUs%s", mem.zero3_min_gpus,
                         q.zero3 ? "" : ": --zero 3");
            snprintf(verdict, sizeof verdict, "no count listed fits in memory (%s); were memory "
                     "no limit: %s", need, v);
        }
    }
    /* The best count's step as a ledger: compute, then the exposed AllReduce. */
    memset(&led, 0, sizeof led);
    led.t[GP_ACCT_COMPUTE] = rows[res.best].compute_s;
    led.t[GP_ACCT_MOVEMENT] = rows[res.best].exposed_s;
    gp_ledger_close(&led, GP_OVERLAP_SUM);

    if (plot_file != NULL) {
        char title[256];
        int rc;
        snprintf(title, sizeof title, "%s scaling on %s%s%s, %.3g GB of gradients",
                 q.mode == GP_SCALING_STRONG ? "strong" : "weak", up->id,
                 out ? " + " : "", out ? out->id : "", grad_bytes / 1e9);
        if ((rc = plot(cli, plot_file, rows, res.n_rows, title)) != GP_EXIT_OK)
            return rc;
    }
    /* Nothing below refuses: the plan is made, its notes are said. */
    gp_cli_notes_flush(cli);

    if (cli->json) {
        json_t *o = json_object(), *a = json_array();
        json_object_set_new(o, "gpu", gpu ? json_string(gpu->id) : json_null());
        json_object_set_new(o, "link", json_string(up->id));
        if (q.wide_link != NULL)
            json_object_set_new(o, "wide_link", json_string(q.wide_link->id));
        json_object_set_new(o, "scale_out", out ? json_string(out->id) : json_null());
        json_object_set_new(o, "gpus_per_node", json_integer(per_node));
        /* The count priced (at most one a GPU), the given one beside it. */
        json_object_set_new(o, "nics_per_node", json_integer(nics_priced));
        if (nics > 0)
            json_object_set_new(o, "nics_per_node_given", json_integer(nics));
        json_object_set_new(o, "model", model ? json_string(model->id) : json_null());
        json_object_set_new(o, "grad_bytes", gp_cli_jnum(grad_bytes));
        json_object_set_new(o, "step_compute_s", gp_cli_jnum(step));
        json_object_set_new(o, "step_compute_source", json_string(step_src));
        if (tok_gpu >= 0.0)
            json_object_set_new(o, "tokens_per_gpu", gp_cli_jnum(tok_gpu));
        if (mem_known) {
            json_t *m = json_object();
            json_object_set_new(m, "weight_bytes", gp_cli_jbytes(mem.weight_bytes));
            json_object_set_new(m, "grad_bytes", gp_cli_jbytes(mem.grad_bytes));
            json_object_set_new(m, "optimizer_bytes", gp_cli_jbytes(mem.optim_bytes));
            json_object_set_new(m, "activation_bytes",
                                act >= 0.0 ? gp_cli_jbytes(act) : json_null());
            json_object_set_new(m, "reserve_bytes", gp_cli_jbytes(mem.reserve_bytes));
            json_object_set_new(m, "total_bytes", gp_cli_jbytes(mem.total_bytes));
            json_object_set_new(m, "usable_bytes", gp_cli_jbytes(mem.usable_bytes));
            json_object_set_new(m, "fits", json_boolean(mem.fits));
            json_object_set_new(m, "min_gpus_zero3", mem.zero3_min_gpus > 0
                                                         ? json_integer(mem.zero3_min_gpus)
                                                         : json_null());
            json_object_set_new(o, "memory", m);
        } else {
            json_object_set_new(o, "memory", json_null());
        }
        /* Every note and warning said on stderr. */
        json_object_set_new(o, "warnings", gp_cli_jwarnings(cli));
        json_object_set_new(o, "zero", json_integer(q.zero3 ? 3 : 0));
        json_object_set_new(o, "micro_batches",
                            json_integer(q.micro_batches > 0 ? q.micro_batches : 1));
        if (q.zero3) {
            json_object_set_new(o, "weight_bytes", gp_cli_jnum(q.weight_bytes));
            /* the layers the first gather and last scatter are a share of
             * (0: unknown, no such term; scaling.md) */
            json_object_set_new(o, "zero3_layers", gp_cli_jnum(q.layers));
        }
        json_object_set_new(o, "mode", json_string(q.mode == GP_SCALING_STRONG ? "strong"
                                                                                : "weak"));
        json_object_set_new(o, "basis", json_string(sp.ceiling ? "ceiling" : "expected"));
        json_object_set_new(o, "algo", json_string(gp_coll_algo_name(sp.algo)));
        json_object_set_new(o, "overlap", gp_cli_jnum(sp.overlap));
        json_object_set_new(o, "backward_share", gp_cli_jnum(sp.backward_share));
        json_object_set_new(o, "threshold", gp_cli_jnum(sp.threshold));
        json_object_set_new(o, "link_bytes_per_s", gp_cli_jnum(up_rate(up, &sp)));
        /* The in-switch rate --algo auto's NVLS rows run at (0: none does). */
        json_object_set_new(o, "link_nvls_bytes_per_s",
                            gp_cli_jnum(nvls_rows && !sp.ceiling ? up->bw_nvls.v : 0.0));
        /* The ceiling has no latency term (collectives.md): 0 is what it uses. */
        json_object_set_new(o, "link_latency_s",
                            gp_cli_jnum(sp.ceiling ? 0.0 : gp_link_expected_latency(up)));
        for (i = 0; i < res.n_rows; i++) {
            json_t *r = json_object();
            json_object_set_new(r, "gpus", json_integer(rows[i].gpus));
            json_object_set_new(r, "nodes", json_integer(rows[i].nodes));
            json_object_set_new(r, "step_s", gp_cli_jnum(rows[i].step_s));
            json_object_set_new(r, "compute_s", gp_cli_jnum(rows[i].compute_s));
            json_object_set_new(r, "comm_s", gp_cli_jnum(rows[i].comm_s));
            json_object_set_new(r, "exposed_comm_s", gp_cli_jnum(rows[i].exposed_s));
            json_object_set_new(r, "hidden_comm_s", gp_cli_jnum(rows[i].hidden_s));
            json_object_set_new(r, "comm_fraction", gp_cli_jnum(rows[i].comm_fraction));
            json_object_set_new(r, "speedup", gp_cli_jnum(rows[i].speedup));
            json_object_set_new(r, "efficiency", gp_cli_jnum(rows[i].efficiency));
            json_object_set_new(r, "marginal_efficiency", gp_cli_jnum(rows[i].marginal));
            json_object_set_new(r, "link", rows[i].link != NULL && rows[i].link->id != NULL
                                               ? json_string(rows[i].link->id)
                                               : json_null());
            json_object_set_new(r, "algo", json_string(row_algo(&rows[i])));
            /* Memory at this count: the replica, or ZeRO-3's shard. */
            if (mem_known)
                json_object_set_new(r, "fits", json_boolean(rows[i].gpus >= q.min_gpus));
            json_array_append_new(a, r);
        }
        json_object_set_new(o, "rows", a);
        json_object_set_new(o, "best_gpus", json_integer(res.best_gpus));
        json_object_set_new(o, "fastest_gpus", json_integer(res.fastest_gpus));
        json_object_set_new(o, "stop_gpus", res.stop < res.n_rows
                                                ? json_integer(rows[res.stop].gpus)
                                                : json_null());
        json_object_set_new(o, "stop_reason", json_string(stop_name(res.reason)));
        json_object_set_new(o, "verdict", json_string(verdict));
        json_object_set_new(o, "ledger", gp_cli_jledger(&led));
        if (plot_file != NULL)
            json_object_set_new(o, "plot", json_string(plot_file));
        return gp_cli_emit(o) ? GP_EXIT_FAIL : GP_EXIT_OK;
    }
    if (cli->csv) {
        /* The JSON rows' figures (an empty field where JSON has null or
         * leaves the key out: fits when the memory is unknown). */
        printf("gpus,nodes,step_s,compute_s,comm_s,exposed_comm_s,comm_fraction,speedup,"
               "efficiency,link,hidden_comm_s,marginal_efficiency,fits,algo\n");
        for (i = 0; i < res.n_rows; i++) {
            char b1[64], b2[64];
            printf("%ld,%ld," GP_CLI_G "," GP_CLI_G "," GP_CLI_G "," GP_CLI_G "," GP_CLI_G
                   "," GP_CLI_G "," GP_CLI_G ",%s,%s,%s,%s,%s\n",
                   rows[i].gpus,
                   rows[i].nodes, rows[i].step_s, rows[i].compute_s, rows[i].comm_s,
                   rows[i].exposed_s, rows[i].comm_fraction, rows[i].speedup,
                   rows[i].efficiency,
                   rows[i].link != NULL && rows[i].link->id != NULL ? rows[i].link->id : "",
                   gp_cli_csvnum(rows[i].hidden_s, b1, sizeof b1),
                   gp_cli_csvnum(rows[i].marginal, b2, sizeof b2),
                   !mem_known ? "" : rows[i].gpus >= q.min_gpus ? "true" : "false",
                   row_algo(&rows[i]));
        }
        return GP_EXIT_OK;
    }
    {
        char b1[64], b2[64], b3[64], note[512];
        if (q.zero3 && q.micro_batches > 1)
            printf("%s scaling, ZeRO-3: %s of weights AllGathered twice and %s of gradients "
                   "ReduceScattered (%s) every micro-batch, %ld a step\n",
                   q.mode == GP_SCALING_STRONG ? "strong" : "weak",
                   gp_format_qty(q.weight_bytes, GP_Q_BYTES, 2, 0, b2, sizeof b2),
                   gp_format_qty(grad_bytes, GP_Q_BYTES, 2, 0, b1, sizeof b1),
                   gp_coll_algo_name(rows[res.n_rows - 1].algo), q.micro_batches);
        else if (q.zero3)
            printf("%s scaling, ZeRO-3: %s of weights AllGathered twice and %s of gradients "
                   "ReduceScattered (%s) every step\n",
                   q.mode == GP_SCALING_STRONG ? "strong" : "weak",
                   gp_format_qty(q.weight_bytes, GP_Q_BYTES, 2, 0, b2, sizeof b2),
                   gp_format_qty(grad_bytes, GP_Q_BYTES, 2, 0, b1, sizeof b1),
                   gp_coll_algo_name(rows[res.n_rows - 1].algo));
        else
            printf("%s scaling, data parallel: %s of gradients AllReduced (%s) every step%s\n",
                   q.mode == GP_SCALING_STRONG ? "strong" : "weak",
                   gp_format_qty(grad_bytes, GP_Q_BYTES, 2, 0, b1, sizeof b1),
                   sp.algo != GP_COLL_AUTO ? gp_coll_algo_name(sp.algo)
                   : one_algo(rows, res.n_rows, b2, sizeof b2) != NULL
                       ? b2
                       : "--algo auto: what NCCL runs at each count, column algo",
                   q.micro_batches > 1 ? ", after the last micro-batch" : "");
        printf("assumptions:\n");
        if (gpu != NULL)
            gp_cli_row("GPU", gpu->id, gpu->name);
        if (model != NULL) {
            snprintf(note, sizeof note, "%s params x %s gradients",
                     gp_format_qty(params_n, GP_Q_COUNT, 2, 0, b1, sizeof b1), prec_name);
            gp_cli_row("model", model->id, note);
        } else if (params_n > 0) {
            snprintf(note, sizeof note, "parameters x %s gradients", prec_name);
            gp_cli_qrow("params", params_n, GP_Q_COUNT, 2, note);
        }
        snprintf(note, sizeof note, "%s per direction%s, %s%s [%s]",
                 gp_format_qty(up_rate(up, &sp), GP_Q_RATE, 1, 0, b1, sizeof b1),
                 sp.ceiling ? " (datasheet)"
                 : sp.algo == GP_COLL_NVLS && up->bw_nvls.v > 0.0 ? " (NVLS, expected)"
                                                                  : " (expected)",
                 sp.ceiling ? "no latency (a bound)" : "alpha ",
                 sp.ceiling ? ""
                            : gp_format_qty(gp_link_expected_latency(up), GP_Q_DURATION, 1, 0,
                                            b2, sizeof b2),
                 sp.ceiling ? (up->bw.src ? up->bw.src : "?")
                 : sp.algo == GP_COLL_NVLS && up->bw_nvls.v > 0.0
                     ? (up->bw_nvls.src ? up->bw_nvls.src : "?")
                 : (up->meas_bw.v > 0 ? (up->calibration ? up->calibration : "calibration")
                                      : (up->bw_achievable.src ? up->bw_achievable.src : "?")));
        gp_cli_row("scale-up link", up->id, note);
        if (q.wide_link != NULL) {
            snprintf(note, sizeof note, "nodes of more than %.0f GPUs (%s joins %.0f): the host "
                                        "link, %s expected",
                     up->max_gpus.v, up->id, up->max_gpus.v,
                     gp_format_qty(gp_link_expected_bw(q.wide_link), GP_Q_RATE, 1, 0, b1,
                                   sizeof b1));
            gp_cli_row("wider nodes", q.wide_link->id, note);
        }
        if (sp.algo == GP_COLL_NVLS && up->bw_nvls.v > 0.0)
            gp_cli_row("", "", "nvls: each GPU moves S(1+1/n) each way; a 2-GPU row is the "
                               "ring NCCL runs there (no NVLS below 3 GPUs)");
        if (sp.algo == GP_COLL_AUTO && nvls_rows) {
            snprintf(note, sizeof note, "%s per direction (NVLS, expected) for the nvls rows: "
                                        "each GPU moves S(1+1/n) each way [%s]",
                     gp_format_qty(up->bw_nvls.v, GP_Q_RATE, 1, 0, b1, sizeof b1),
                     up->bw_nvls.src ? up->bw_nvls.src : "?");
            gp_cli_row("", "", note);
        }
        if (!up->p2p)
            gp_cli_row("", "", "no peer-to-peer: staged through host memory, which the GPUs of "
                               "a node share (docs/models/collectives.md)");
        if (gp_link_mesh_share(up, 2.0) < 1.0) {
            snprintf(note, sizeof note, "point-to-point mesh: g GPUs of a node reach g - 1 of "
                                        "each GPU's %g direct links, (g - 1)/%g of the figure",
                     up->max_gpus.v - 1.0, up->max_gpus.v - 1.0);
            gp_cli_row("", "", note);
        }
        if (out != NULL) {
            snprintf(note, sizeof note, "%s per direction, %ld NIC%s per node of %ld GPUs%s",
                     gp_format_qty(sp.ceiling ? out->bw.v : gp_link_expected_bw(out), GP_Q_RATE,
                                   1, 0, b1, sizeof b1),
                     nics_priced, nics_priced == 1 ? "" : "s", per_node,
                     nics > nics_priced ? " (--nics-per-node: one NIC a GPU at most)" : "");
            gp_cli_row("scale-out link", out->id, note);
        }
        snprintf(note, sizeof note, "%s; %s", q.mode == GP_SCALING_STRONG
                                                 ? "whole global batch on one GPU (÷ n)"
                                                 : "one GPU's batch (same on every GPU)",
                 step_src);
        gp_cli_qrow("compute per step", step, GP_Q_DURATION, 3, note);
        if (q.micro_batches > 1) {
            snprintf(note, sizeof note, "%s",
                     q.zero3 ? "per step on each GPU: ZeRO-3 gathers and scatters for each"
                             : "per step on each GPU: accumulated (no_sync), one AllReduce");
            gp_cli_qrow("micro-batches", (double)q.micro_batches, GP_Q_NUMBER, 0, note);
        }
        if (mem_known && q.zero3) {
            /* At the first count: the states' share, activations, reserve. */
            double st = mem.weight_bytes + mem.grad_bytes + mem.optim_bytes, n0 = (double)counts[0];
            char b4[48];
            if (mem.zero3_min_gpus > 0)
                snprintf(b4, sizeof b4, "fits from %ld GPUs", mem.zero3_min_gpus);
            else
                snprintf(b4, sizeof b4, "fits at no count");
            snprintf(note, sizeof note, "on %ld GPU%s, of %s usable (%s): 14 B/param + "
                     "gradients ÷ n, + reserve%s", counts[0], counts[0] == 1 ? "" : "s",
                     gp_format_qty(mem.usable_bytes, GP_Q_BYTES, 2, 0, b1, sizeof b1), b4,
                     act >= 0.0 ? " + activations of that step" : "; activations not counted");
            gp_cli_qrow("memory per GPU", st / n0 + mem.activation_bytes + mem.reserve_bytes,
                        GP_Q_BYTES, 3, note);
        } else if (mem_known) {
            snprintf(note, sizeof note, "one replica; %s in %s usable: 14 B/param "
                     "(mixed-precision Adam) + gradients + reserve%s",
                     mem.fits ? "fits" : "does not fit",
                     gp_format_qty(mem.usable_bytes, GP_Q_BYTES, 2, 0, b1, sizeof b1),
                     act >= 0.0 ? " + activations of that step" : "; activations not counted");
            gp_cli_qrow("memory per GPU", mem.total_bytes, GP_Q_BYTES, 3, note);
        }
        if (q.zero3)
            snprintf(note, sizeof note, "of the gathers and the scatter, at most all of compute "
                                        "(prefetched layer by layer)");
        else if (q.micro_batches > 1)
            snprintf(note, sizeof note, "of the AllReduce, at most %.0f%% of the last "
                                        "micro-batch's compute (its backward)",
                     100.0 * sp.backward_share);
        else
            snprintf(note, sizeof note, "of the AllReduce, at most %.0f%% of compute (backward)",
                     100.0 * sp.backward_share);
        gp_cli_qrow("overlap", sp.overlap, GP_Q_NUMBER, 2, note);
        printf("\n  %5s %5s %-9s %10s %10s %10s %8s %8s %8s\n", "GPUs", "nodes", "algo", "step",
               "comm", "exposed", "share", "speedup", "effic.");
        for (i = 0; i < res.n_rows; i++)
            printf("  %5ld %5ld %-9s %10s %10s %10s %7.1f%% %7.2fx %7.1f%%%s%s\n", rows[i].gpus,
                   rows[i].nodes, row_algo(&rows[i]),
                   gp_format_qty(rows[i].step_s, GP_Q_DURATION, 3, 0, b1, sizeof b1),
                   gp_format_qty(rows[i].comm_s, GP_Q_DURATION, 3, 0, b2, sizeof b2),
                   gp_format_qty(rows[i].exposed_s, GP_Q_DURATION, 3, 0, b3, sizeof b3),
                   100.0 * rows[i].comm_fraction, rows[i].speedup, 100.0 * rows[i].efficiency,
                   i == res.best && i == res.fastest ? "  <- best, fastest"
                   : i == res.best                    ? "  <- best value"
                   : i == res.fastest                 ? "  <- fastest"
                                                      : "",
                   rows[i].gpus < q.min_gpus ? "  (does not fit)" : "");
        printf("\n");
        snprintf(note, sizeof note, "step on %ld GPU%s (best)", rows[res.best].gpus,
                 rows[res.best].gpus == 1 ? "" : "s");
        gp_cli_print_ledger(note, &led);
        printf("\nverdict: %s\n", verdict);
        if (plot_file != NULL)
            printf("plot: %s\n", plot_file);
    }
    return GP_EXIT_OK;
}

const gp_cli_command gp_cli_cmd_scale = {
    "scale", "does adding GPUs help? step time, comm share, speedup, efficiency", run, 1};
