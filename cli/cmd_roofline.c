/* gpuplan roofline: which roof binds a kernel on a GPU, how far below the
 * ridge it sits, its attainable rate and time floor; optionally a chart.
 * MODEL: docs/models/roofline.md. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "roofplot.h"

/* Where a kernel loses time when it reaches neither roof. */
#define ROOF_IDLE                                                                          \
    "the kernel reaches neither roof: uncoalesced or strided access, too little work in "  \
    "flight (occupancy, bytes in flight per SM), launch overhead for a short kernel; "     \
    "profile it (ncu: DRAM and SM throughput)"

static void usage(FILE *f)
{
    size_t i;
    fprintf(f,
            "usage: gpuplan roofline --gpu ID --precision P [--pipeline cuda|tensor]\n"
            "         [--accumulate fp32|fp16] [--sparse]\n"
            "         (--flop X --bytes Y | --kernel NAME [--n N | --m M --n N --k K]\n"
            "          [--dtype D] [--tile T] [--chain K] [--beta])\n"
            "         [--data device|l2|host|peer] [--link ID]\n"
            "         [--plot FILE.png|FILE.svg] [--plot-size WxH]\n\n"
            "Roofline of one kernel on one GPU: intensity = FLOP/bytes, ridge = peak/bandwidth,\n"
            "attainable = min(peak, intensity x bandwidth), time floor = max(FLOP/peak,\n"
            "bytes/bandwidth); ceiling (datasheet) and expected (calibrated or default\n"
            "efficiency) figures.\n\n"
            "  --gpu ID          GPU id or alias (gpuplan hw list gpus)\n"
            "  --precision P     fp64 fp32 tf32 fp16 bf16 fp8 int8 int4 fp4\n"
            "  --pipeline P      cuda (CUDA cores) or tensor (Tensor Cores); default: the\n"
            "                    kernel's (elementwise: cuda; gemm, attention: tensor), else\n"
            "                    tensor when the GPU has a tensor rate for P, else cuda\n"
            "  --accumulate A    tensor accumulate: fp32 (default; PyTorch/cuBLAS) or fp16\n"
            "                    (GeForce runs fp16 accumulate at twice the rate)\n"
            "  --sparse          2:4 structured sparsity (Tensor Cores)\n"
            "  --flop X --bytes Y  the kernel's FLOPs and bytes moved (e.g. 1e9, 12MB)\n"
            "  --kernel NAME     a named kernel (below) with its sizes:\n"
            "  --m M --n N --k K sizes (element counts)\n"
            "  --dtype D         element type: a precision (default P) or a storage format\n"
            "                    (q4_0, int4, ...: bits per element from the database)\n"
            "  --tile T          gemm: T x T output tiles; flash-attention: query tile rows\n"
            "  --chain K         fused: number of chained elementwise kernels (default 1)\n"
            "  --beta            gemm: C is read and accumulated (beta != 0)\n"
            "  --data L          where the operands live: device (default), l2, host (over\n"
            "                    the GPU's host link), peer (over its scale-up link)\n"
            "  --link ID         the link for --data host|peer (default: the GPU's)\n"
            "  --plot FILE       write a log-log roofline chart (.png or .svg; needs gnuplot)\n"
            "  --plot-size WxH   chart size in pixels (default 800x600)\n"
            "  --measured T      the kernel's measured time (e.g. 1.2ms; 1 ns to 1e7 s):\n"
            "                    achieved FLOP/s and bytes/s against the roofs (diagnosis)\n\n"
            "kernels:\n");
    for (i = 0; i < gp_kernel_count(); i++) {
        const gp_kernel_desc *k = gp_kernel_at(i);
        fprintf(f, "  %-16s %s\n  %-16s   sizes: %s; FLOP = %s; bytes = %s\n", k->name,
                k->summary, "", k->sizes, k->flop_formula, k->bytes_formula);
    }
}

/* A library error whose `where` is a field name: print it as the option. */
static int fail_opt(const gp_cli *cli, gp_err *e)
{
    static const struct {
        const char *field, *opt;
    } map[] = {{"flop", "--flop"},   {"bytes", "--bytes"},     {"m", "--m"},
               {"n", "--n"},         {"k", "--k"},             {"tile", "--tile"},
               {"chain", "--chain"}, {"elem_bytes", "--dtype"}, {"beta", "--beta"},
               {"precision", "--precision"}, {"sparse", "--sparse"}, {"data", "--data"},
               {"pipeline", "--pipeline"}, {"kernel", "--kernel"},
               {"accumulate", "--accumulate"}};
    size_t i;
    for (i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (strcmp(e->where, map[i].field) == 0) {
            snprintf(e->where, sizeof e->where, "%s", map[i].opt);
            break;
        }
    }
    return gp_cli_fail(cli, e);
}

static const char *src_or(const char *s)
{
    return s != NULL ? s : "no source recorded";
}

static json_t *jroof(const gp_roofline *r, int i)
{
    const gp_roof *f = &r->roofs[i];
    json_t *o = json_object();
    json_object_set_new(o, "level", json_string(gp_roof_level_name((gp_roof_level)i)));
    json_object_set_new(o, "on_path", json_boolean(f->on_path));
    json_object_set_new(o, "bytes_per_s", gp_cli_jnum(f->bw));
    json_object_set_new(o, "expected_bytes_per_s", gp_cli_jnum(f->bw_expected));
    json_object_set_new(o, "critical_intensity", gp_cli_jnum(f->ridge));
    json_object_set_new(o, "time_s", gp_cli_jnum(f->time));
    json_object_set_new(o, "expected_time_s", gp_cli_jnum(f->time_expected));
    json_object_set_new(o, "source", f->src ? json_string(f->src) : json_null());
    json_object_set_new(o, "expected_source",
                        f->src_expected ? json_string(f->src_expected) : json_null());
    return o;
}

static int emit_json(const gp_gpu *g, const gp_roofline *r, const gp_kernel_desc *k,
                     const gp_kernel_counts *kc, double elem, const char *plot, json_t *diag)
{
    json_t *o = json_object(), *roofs = json_array(), *src = json_object();
    int i;
    json_object_set_new(o, "gpu", json_string(g->id));
    json_object_set_new(o, "precision", json_string(gp_precision_name(r->precision)));
    json_object_set_new(o, "pipeline", json_string(gp_pipeline_name(r->pipeline)));
    json_object_set_new(o, "accumulate", json_string(r->accum == GP_ACC_FP16 ? "fp16" : "fp32"));
    json_object_set_new(o, "sparse", json_boolean(r->sparse));
    json_object_set_new(o, "kernel", k != NULL ? json_string(k->name) : json_null());
    json_object_set_new(o, "total_flop", gp_cli_jnum(r->flop));
    json_object_set_new(o, "total_bytes", gp_cli_jnum(r->bytes));
    if (k != NULL) {
        json_object_set_new(o, "element_bytes", gp_cli_jnum(elem));
        json_object_set_new(o, "ideal_bytes", gp_cli_jnum(kc->bytes_ideal));
        json_object_set_new(o, "unfused_bytes", gp_cli_jnum(kc->bytes_unfused));
        json_object_set_new(o, "fusion_saving", gp_cli_jnum(kc->bytes_unfused / kc->bytes));
    }
    json_object_set_new(o, "intensity", gp_cli_jnum(r->intensity));
    json_object_set_new(o, "peak_flop_per_s", gp_cli_jnum(r->peak));
    json_object_set_new(o, "peak_bytes_per_s", gp_cli_jnum(r->bw));
    json_object_set_new(o, "critical_intensity", gp_cli_jnum(r->critical));
    json_object_set_new(o, "bound", json_string(r->compute_bound ? "compute" : "memory"));
    json_object_set_new(o, "binding_roof", json_string(gp_roof_level_name(r->binding_roof)));
    json_object_set_new(o, "attainable_flop_per_s", gp_cli_jnum(r->attainable));
    json_object_set_new(o, "time_s", gp_cli_jnum(r->time));
    json_object_set_new(o, "below_ridge_factor", gp_cli_jnum(r->below_ridge));
    json_object_set_new(o, "expected_peak_flop_per_s", gp_cli_jnum(r->peak_expected));
    json_object_set_new(o, "expected_peak_bytes_per_s", gp_cli_jnum(r->bw_expected));
    json_object_set_new(o, "expected_critical_intensity", gp_cli_jnum(r->critical_expected));
    json_object_set_new(o, "expected_bound",
                        json_string(r->compute_bound_expected ? "compute" : "memory"));
    json_object_set_new(o, "expected_binding_roof",
                        json_string(gp_roof_level_name(r->binding_roof_expected)));
    json_object_set_new(o, "expected_attainable_flop_per_s",
                        gp_cli_jnum(r->attainable_expected));
    json_object_set_new(o, "expected_time_s", gp_cli_jnum(r->time_expected));
    for (i = 0; i < GP_ROOF__COUNT; i++)
        if (r->roofs[i].known)
            json_array_append_new(roofs, jroof(r, i));
    json_object_set_new(o, "roofs", roofs);
    json_object_set_new(o, "ledger", gp_cli_jledger(&r->ledger));
    json_object_set_new(o, "expected_ledger", gp_cli_jledger(&r->ledger_expected));
    json_object_set_new(src, "peak", r->peak_src ? json_string(r->peak_src) : json_null());
    json_object_set_new(src, "expected_peak",
                        r->peak_expected_src ? json_string(r->peak_expected_src) : json_null());
    json_object_set_new(o, "sources", src);
    json_object_set_new(o, "plot", plot != NULL ? json_string(plot) : json_null());
    if (diag != NULL)
        json_object_set_new(o, "diagnosis", diag);
    return gp_cli_emit(o) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
}

static void print_table(const gp_gpu *g, const gp_roofline *r, const gp_kernel_desc *k,
                        const gp_kernel_counts *kc, double elem, const char *plot)
{
    char buf[96], note[256], num[32];
    int i;
    printf("roofline: %s on %s (%s), %s on %s cores%s%s\n", k != NULL ? k->name : "kernel",
           g->name != NULL ? g->name : g->id, g->id, gp_precision_name(r->precision),
           gp_pipeline_name(r->pipeline), r->sparse ? ", 2:4 sparse" : "",
           r->accum == GP_ACC_FP16 ? ", fp16 accumulate" : "");
    if (k != NULL) {
        snprintf(note, sizeof note, "%s", k->flop_formula);
        gp_cli_qrow("FLOPs", r->flop, GP_Q_FLOP, 3, note);
        snprintf(note, sizeof note, "%s; e = %.4g B", k->bytes_formula, elem);
        gp_cli_qrow("bytes", r->bytes, GP_Q_BYTES, 3, note);
        if (kc->bytes_ideal < r->bytes) {
            snprintf(note, sizeof note, "tiling moves %.2fx the ideal",
                     r->bytes / kc->bytes_ideal);
            gp_cli_qrow("bytes with ideal reuse", kc->bytes_ideal, GP_Q_BYTES, 3, note);
        }
        if (kc->bytes_unfused > r->bytes) {
            snprintf(note, sizeof note, "fusion saves %.2fx the bytes",
                     kc->bytes_unfused / r->bytes);
            gp_cli_qrow("bytes unfused / naive", kc->bytes_unfused, GP_Q_BYTES, 3, note);
        }
    } else {
        gp_cli_qrow("FLOPs", r->flop, GP_Q_FLOP, 3, "--flop");
        gp_cli_qrow("bytes", r->bytes, GP_Q_BYTES, 3, "--bytes");
    }
    /* Intensities and ridges: 4 significant digits (gp_cli_num). */
    snprintf(buf, sizeof buf, "%s FLOP/B", gp_cli_num(r->intensity, 4, num, sizeof num));
    gp_cli_row("intensity", buf, "FLOP / bytes");
    snprintf(note, sizeof note, "datasheet: %s", src_or(r->peak_src));
    gp_cli_qrow("peak", r->peak, GP_Q_FLOPS, 3, note);
    snprintf(note, sizeof note, "%s roof%s: %s", gp_roof_level_name(r->binding_roof),
             r->binding_roof == GP_ROOF_HOST || r->binding_roof == GP_ROOF_PEER
                 ? " (per direction)" : "",
             src_or(r->roofs[r->binding_roof].src));
    gp_cli_qrow("bandwidth (binding roof)", r->bw, GP_Q_RATE, 3, note);
    snprintf(buf, sizeof buf, "%s FLOP/B", gp_cli_num(r->critical, 4, num, sizeof num));
    gp_cli_row("ridge (critical intensity)", buf, "peak / bandwidth");
    if (r->compute_bound)
        snprintf(note, sizeof note, "intensity %.3gx the ridge", 1.0 / r->below_ridge);
    else
        snprintf(note, sizeof note, "%.4gx below the ridge; move fewer bytes", r->below_ridge);
    gp_cli_row("bound", r->compute_bound ? "compute" : "memory", note);
    gp_cli_qrow("attainable", r->attainable, GP_Q_FLOPS, 2, "min(peak, intensity x bandwidth)");
    gp_cli_qrow("time floor", r->time, GP_Q_DURATION, 3, "max(FLOP/peak, bytes/bandwidth)");
    printf("expected (achievable figures):\n");
    snprintf(note, sizeof note, "%.0f%% of peak: %s", 100.0 * r->peak_expected / r->peak,
             src_or(r->peak_expected_src));
    gp_cli_qrow("peak", r->peak_expected, GP_Q_FLOPS, 3, note);
    snprintf(note, sizeof note, "%s roof%s, %.0f%% of its ceiling: %s",
             gp_roof_level_name(r->binding_roof_expected),
             r->binding_roof_expected == GP_ROOF_HOST || r->binding_roof_expected == GP_ROOF_PEER
                 ? " (per direction)" : "",
             100.0 * r->bw_expected / r->roofs[r->binding_roof_expected].bw,
             src_or(r->roofs[r->binding_roof_expected].src_expected));
    gp_cli_qrow("bandwidth", r->bw_expected, GP_Q_RATE, 3, note);
    snprintf(buf, sizeof buf, "%s FLOP/B",
             gp_cli_num(r->critical_expected, 4, num, sizeof num));
    gp_cli_row("ridge", buf, r->compute_bound_expected ? "compute-bound" : "memory-bound");
    gp_cli_qrow("attainable", r->attainable_expected, GP_Q_FLOPS, 2, NULL);
    gp_cli_qrow("time", r->time_expected, GP_Q_DURATION, 3, NULL);
    printf("roofs (bytes cross every level on the path; the least bandwidth binds):\n");
    for (i = 0; i < GP_ROOF__COUNT; i++) {
        const gp_roof *f = &r->roofs[i];
        char bw[32], bwe[32];
        if (!f->known)
            continue;
        /* A link's rate is one direction's (the bytes come in over it). */
        snprintf(note, sizeof note, "%sexpected %s, ridge %s FLOP/B%s%s; %s",
                 i == GP_ROOF_HOST || i == GP_ROOF_PEER ? "per direction, " : "",
                 gp_format_qty(f->bw_expected, GP_Q_RATE, 3, 0, bwe, sizeof bwe),
                 gp_cli_num(f->ridge, 4, num, sizeof num),
                 f->on_path ? "" : ", not on the path",
                 (gp_roof_level)i == r->binding_roof ? ", binds" : "", src_or(f->src));
        gp_cli_row(gp_roof_level_name((gp_roof_level)i),
                   gp_format_qty(f->bw, GP_Q_RATE, 3, 0, bw, sizeof bw), note);
    }
    gp_cli_print_ledger("ledger, ceiling", &r->ledger);
    gp_cli_print_ledger("ledger, expected", &r->ledger_expected);
    printf("assumptions:\n"
           "  - peaks are dense unless --sparse; tensor fp16/bf16/fp8 rates use fp32 accumulate\n"
           "    unless --accumulate fp16\n"
           "  - every byte crosses each level on its path once; compute and memory overlap\n"
           "    fully (the slowest account sets the time)\n"
           "  - expected = calibration overlay when present, else datasheet x the GPU's\n"
           "    default efficiency (hwdb efficiency.memory / efficiency.compute; fp8, int8,\n"
           "    fp4, int4 tensor math efficiency.compute_fp8, else efficiency.compute x 0.883,\n"
           "    on Blackwell x 0.983)\n");
    if (plot != NULL)
        printf("chart written to %s\n", plot);
}

static int run(gp_cli *cli, int argc, char **argv)
{
    enum {
        O_GPU = 256, O_PREC, O_PIPE, O_ACC, O_SPARSE, O_FLOP, O_BYTES, O_KERNEL, O_M, O_N,
        O_K, O_DTYPE, O_TILE, O_CHAIN, O_BETA, O_DATA, O_LINK, O_PLOT, O_PLOT_SIZE, O_MEAS,
        O_HELP
    };
    static const struct option opts[] = {
        {"gpu", required_argument, NULL, O_GPU},
        {"precision", required_argument, NULL, O_PREC},
        {"pipeline", required_argument, NULL, O_PIPE},
        {"accumulate", required_argument, NULL, O_ACC},
        {"sparse", no_argument, NULL, O_SPARSE},
        {"flop", required_argument, NULL, O_FLOP},
        {"bytes", required_argument, NULL, O_BYTES},
        {"kernel", required_argument, NULL, O_KERNEL},
        {"m", required_argument, NULL, O_M},
        {"n", required_argument, NULL, O_N},
        {"k", required_argument, NULL, O_K},
        {"dtype", required_argument, NULL, O_DTYPE},
        {"tile", required_argument, NULL, O_TILE},
        {"chain", required_argument, NULL, O_CHAIN},
        {"beta", no_argument, NULL, O_BETA},
        {"data", required_argument, NULL, O_DATA},
        {"link", required_argument, NULL, O_LINK},
        {"plot", required_argument, NULL, O_PLOT},
        {"plot-size", required_argument, NULL, O_PLOT_SIZE},
        {"measured", required_argument, NULL, O_MEAS},
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0}};
    const char *gpu_id = NULL, *prec_s = NULL, *pipe_s = NULL, *acc_s = NULL,
               *kernel_s = NULL, *dtype_s = NULL, *data_s = NULL, *link_s = NULL,
               *plot_s = NULL, *plot_size = NULL;
    double flop = NAN, bytes = NAN, measured = 0.0;
    gp_kernel_shape shape;
    gp_kernel_counts kc;
    const gp_kernel_desc *kernel = NULL;
    gp_roofline_params p;
    gp_roofline r;
    gp_cli_plot plot;
    const gp_db *db;
    const gp_gpu *g;
    const gp_link *host = NULL, *peer = NULL;
    gp_err e;
    int c, rc;

    gp_roofline_params_init(&p);
    gp_kernel_shape_init(&shape);
    memset(&kc, 0, sizeof kc);
    gp_err_clear(&e);
    while ((c = gp_cli_getopt(cli, argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case O_GPU: gpu_id = optarg; break;
        case O_PREC: prec_s = optarg; break;
        case O_PIPE: pipe_s = optarg; break;
        case O_ACC: acc_s = optarg; break;
        case O_SPARSE: p.sparse = 1; break;
        case O_FLOP:
            if ((rc = gp_cli_qty(cli, "--flop", optarg, GP_Q_FLOP, &flop)) != 0)
                return rc;
            /* One kernel, or at most a whole run (the largest trained
             * models used ~5e25 FLOP); below 1 nothing is computed. */
            if (!(flop >= 1.0 && flop <= 1e27))
                return gp_cli_usage(cli, "'--flop' must be a FLOP count in [1, 1e27] (got '%s')",
                                    optarg);
            break;
        case O_BYTES:
            if ((rc = gp_cli_qty(cli, "--bytes", optarg, GP_Q_BYTES, &bytes)) != 0)
                return rc;
            /* A whole byte at least; at most a zettabyte (1e21 B). */
            if (!(bytes >= 1.0 && bytes <= 1e21))
                return gp_cli_usage(cli, "'--bytes' must be a byte count in [1 B, 1e21 B] (got "
                                         "'%s')", optarg);
            break;
        case O_KERNEL: kernel_s = optarg; break;
        case O_M:
            if ((rc = gp_cli_qty(cli, "--m", optarg, GP_Q_COUNT, &shape.m)) != 0)
                return rc;
            if (shape.m <= 0)
                return gp_cli_usage(cli, "--m must be > 0, got '%s'", optarg);
            break;
        case O_N:
            if ((rc = gp_cli_qty(cli, "--n", optarg, GP_Q_COUNT, &shape.n)) != 0)
                return rc;
            if (shape.n <= 0)
                return gp_cli_usage(cli, "--n must be > 0, got '%s'", optarg);
            break;
        case O_K:
            if ((rc = gp_cli_qty(cli, "--k", optarg, GP_Q_COUNT, &shape.k)) != 0)
                return rc;
            if (shape.k <= 0)
                return gp_cli_usage(cli, "--k must be > 0, got '%s'", optarg);
            break;
        case O_DTYPE: dtype_s = optarg; break;
        case O_TILE:
            if ((rc = gp_cli_qty(cli, "--tile", optarg, GP_Q_COUNT, &shape.tile)) != 0)
                return rc;
            if (shape.tile <= 0)
                return gp_cli_usage(cli, "--tile must be > 0, got '%s'", optarg);
            break;
        case O_CHAIN:
            if ((rc = gp_cli_qty(cli, "--chain", optarg, GP_Q_COUNT, &shape.chain)) != 0)
                return rc;
            if (shape.chain < 1)
                return gp_cli_usage(cli, "--chain must be >= 1, got '%s'", optarg);
            break;
        case O_BETA: shape.beta = 1; break;
        case O_DATA: data_s = optarg; break;
        case O_LINK: link_s = optarg; break;
        case O_PLOT: plot_s = optarg; break;
        case O_PLOT_SIZE: plot_size = optarg; break;
        case O_MEAS:
            if (gp_cli_qty(cli, "--measured", optarg, GP_Q_DURATION, &measured))
                return GP_EXIT_USAGE;
            /* About one clock cycle (1 ns) up to 116 days, as decode's 1e9
             * tokens/s cap: shorter, the achieved rates and the shares of
             * the ceiling print 60 digits. */
            if (!(measured >= 1e-9) || measured > 1e7)
                return gp_cli_usage(cli, "'--measured' must be a time in [1 ns, 1e7 s] (got '%s')",
                                    optarg);
            break;
        case 'h':
        case O_HELP: usage(stdout); return GP_EXIT_OK;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':': /* a known option without its value (":" leads the optstring) */
            if (optopt >= O_GPU && optopt <= O_HELP)
                return gp_cli_usage(cli, "option '--%s' needs a value",
                                    opts[optopt - O_GPU].name);
            return gp_cli_usage(cli, "option '%s' needs a value", argv[optind - 1]);
        default: /* '?': an option roofline does not have, long or short */
            return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gp_cli_usage(cli, "unexpected argument '%s'", argv[optind]);
    if (gpu_id == NULL)
        return gp_cli_required(cli, "--gpu", NULL, NULL);
    if (prec_s == NULL)
        return gp_cli_required(cli, "--precision", NULL, "(fp64 fp32 tf32 fp16 bf16 fp8 ...)");
    if (gp_precision_parse(prec_s, &p.precision, &e) != GP_OK) {
        snprintf(e.where, sizeof e.where, "--precision");
        return gp_cli_fail(cli, &e);
    }
    if (pipe_s != NULL && gp_pipeline_parse(pipe_s, &p.pipeline, &e) != GP_OK) {
        snprintf(e.where, sizeof e.where, "--pipeline");
        return gp_cli_fail(cli, &e);
    }
    if (acc_s != NULL) {
        if (strcmp(acc_s, "fp32") == 0)
            p.accum = GP_ACC_FP32;
        else if (strcmp(acc_s, "fp16") == 0)
            p.accum = GP_ACC_FP16;
        else
            return gp_cli_usage(cli, "--accumulate: unknown mode '%s' (fp32 or fp16)", acc_s);
    }
    if (data_s != NULL && gp_roof_level_parse(data_s, &p.data, &e) != GP_OK)
        return fail_opt(cli, &e);
    if (kernel_s != NULL && (!isnan(flop) || !isnan(bytes)))
        return gp_cli_usage(cli, "give either --kernel NAME or --flop X --bytes Y, not both");
    if (kernel_s == NULL) {
        if (isnan(flop) || isnan(bytes))
            return gp_cli_usage(cli, "give --flop X and --bytes Y, or --kernel NAME");
        if (shape.m > 0 || shape.n > 0 || shape.k > 0 || shape.tile > 0 || shape.chain > 0 ||
            shape.beta || dtype_s != NULL)
            return gp_cli_usage(cli, "sizes (--m --n --k --tile --chain --beta --dtype) "
                                     "need --kernel NAME");
        if (!(flop > 0))
            return gp_cli_usage(cli, "--flop must be > 0, got '%g'", flop);
        if (!(bytes > 0))
            return gp_cli_usage(cli, "--bytes must be > 0, got '%g'", bytes);
    } else {
        gp_precision dt = p.precision;
        if (gp_kernel_get(kernel_s, &kernel, &e) != GP_OK)
            return fail_opt(cli, &e);
        shape.elem_bytes = gp_roofline_elem_bytes(dt);
        if (dtype_s != NULL) {
            /* A precision name, else a storage format from the database
             * (q4_0: 4.5 bits per element, scales included). */
            if (gp_precision_parse(dtype_s, &dt, NULL) == GP_OK) {
                shape.elem_bytes = gp_roofline_elem_bytes(dt);
            } else {
                const gp_format *fmt;
                if ((db = gp_cli_db(cli)) == NULL)
                    return GP_EXIT_USAGE;
                if ((fmt = gp_db_find_format(db, dtype_s)) == NULL || !(fmt->bits.v > 0.0))
                    return gp_cli_usage(cli,
                                        "--dtype: unknown element type '%s' (a precision: fp64 "
                                        "fp32 tf32 fp16 bf16 fp8 int8 int4 fp4, or a format: "
                                        "gpuplan hw list formats)",
                                        dtype_s);
                shape.elem_bytes = fmt->bits.v / 8.0;
            }
        }
        if (gp_kernel_eval(kernel, &shape, &kc, &e) != GP_OK)
            return fail_opt(cli, &e);
        flop = kc.flop;
        bytes = kc.bytes;
    }
    if (plot_size != NULL && plot_s == NULL)
        return gp_cli_usage(cli, "--plot-size needs --plot FILE");
    if (plot_s != NULL && (rc = gp_cli_plot_prepare(cli, plot_s, plot_size, &plot)) != 0)
        return rc;

    if ((db = gp_cli_db(cli)) == NULL)
        return GP_EXIT_USAGE;
    if (gp_db_get_gpu(db, gpu_id, "--gpu", &g, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    /* Links: the GPU's host link and scale-up link (PCIe peer-to-peer when it
     * has none); --link overrides the one the data crosses. */
    if (g->host_link != NULL)
        host = gp_db_find_link(db, g->host_link);
    peer = g->scale_up_link != NULL ? gp_db_find_link(db, g->scale_up_link) : host;
    if (link_s != NULL) {
        const gp_link *l;
        if (p.data != GP_ROOF_HOST && p.data != GP_ROOF_PEER)
            return gp_cli_usage(cli, "--link needs --data host or --data peer");
        if (gp_db_get_link(db, link_s, "--link", &l, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        if (p.data == GP_ROOF_HOST)
            host = l;
        else
            peer = l;
    }
    if ((p.data == GP_ROOF_HOST || p.data == GP_ROOF_PEER) && link_s == NULL &&
        gp_gpu_unified(g))
        return gp_cli_usage(cli, "--data %s: %s shares one memory with the CPU (its host link "
                                 "is nominal or joins the CPU)%s",
                            p.data == GP_ROOF_HOST ? "host" : "peer", g->id,
                            p.data == GP_ROOF_HOST
                                ? ": host data is device memory, --data device"
                                : " and has no peer GPU; give '--link' for another machine's");
    p.host_link = host;
    p.peer_link = peer;
    /* A named kernel without --pipeline runs where its arithmetic does
     * (elementwise on CUDA cores, matrix products on Tensor Cores) when the
     * GPU has that rate. */
    if (kernel != NULL && pipe_s == NULL &&
        gp_gpu_peak(g, p.precision, kernel->pipeline, p.accum, 0) > 0.0)
        p.pipeline = kernel->pipeline;
    if (gp_roofline_eval(g, &p, flop, bytes, &r, &e) != GP_OK)
        return fail_opt(cli, &e);

    if (plot_s != NULL &&
        (rc = gp_cli_plot_write(cli, &plot, g, &r, kernel != NULL ? kernel->name : "kernel")) != 0)
        return rc;
    if (measured > 0.0) {
        gp_diagnosis d;
        gp_ledger_diagnose(&r.ledger, &r.ledger_expected, measured, &d);
        if (cli->json) {
            json_t *dj = gp_cli_jdiag(&d, ROOF_IDLE);
            json_object_set_new(dj, "achieved_flop_per_s", gp_cli_jnum(flop / measured));
            json_object_set_new(dj, "achieved_bytes_per_s", gp_cli_jnum(bytes / measured));
            return emit_json(g, &r, kernel, &kc, shape.elem_bytes, plot_s, dj);
        }
        print_table(g, &r, kernel, &kc, shape.elem_bytes, plot_s);
        {
            char note[160], a[32], b[32], t[32];
            snprintf(note, sizeof note, "measured %s: %s achieved, %s",
                     gp_format_qty(measured, GP_Q_DURATION, 3, 0, t, sizeof t),
                     gp_format_qty(flop / measured, GP_Q_FLOPS, 2, 0, a, sizeof a),
                     gp_format_qty(bytes / measured, GP_Q_RATE, 2, 0, b, sizeof b));
            printf("\n");
            gp_cli_print_diagnosis(note, &d, ROOF_IDLE);
        }
        return GP_EXIT_OK;
    }
    if (cli->json)
        return emit_json(g, &r, kernel, &kc, shape.elem_bytes, plot_s, NULL);
    print_table(g, &r, kernel, &kc, shape.elem_bytes, plot_s);
    return GP_EXIT_OK;
}

const gp_cli_command gp_cli_cmd_roofline = {
    "roofline", "which roof binds a kernel, how far below the ridge, and a chart",
    run, 0};
