/* gpuplan decode: tokens/s ceiling and expectation for a model on a GPU, with
 * its bytes per step, KV cache, prefill, ridge batch and memory fit.
 * MODEL: docs/models/inference.md. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Where a slow decode loses time when no roof is busy (the article's triage:
 * movement first, then kernels). */
#define DECODE_IDLE                                                                          \
    "the time goes outside the ledger: host synchronisation each token, extra copies (e.g. " \
    "device-to-device), kernel-launch gaps (no CUDA graphs), sampling on the host; profile " \
    "the timeline (nsys) before the kernels (ncu)"

/* Said when the model has no layers or heads to size its KV cache: then
 * the fit is the weights' alone and the largest batch and context are not
 * known (inference.md 6). */
#define KV_UNKNOWN                                                                           \
    "KV cache not counted: unknown without the shape (give --model, or --layers, --hidden "  \
    "and --heads; --kv-heads for GQA): the memory fit covers the weights only, and the "     \
    "largest batch and context are unknown"
#define KV_UNKNOWN_ROW "needs the shape: --model, or --layers, --hidden and --heads"
#define MLA_NOTE                                                                                   \
    "MLA models run more kernels per layer than the engine profiles' fixed costs assume: "        \
    "measured DeepSeek decode has run 1.5 to 4.2 times slower than expected (docs/models/inference.md "    \
    "8.2); calibrate --layer-overhead and --moe-layer-overhead from one run"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuplan decode --gpu ID (--model ID | --params N [shape]) [options]\n\n"
            "Decode tokens/s (ceiling and expected), bytes per step, KV cache, prefill and\n"
            "memory fit.  Step = max(FLOPs / peak, bytes / bandwidth) + layers x per-layer\n"
            "overhead + tensor-parallel AllReduces (docs/models/inference.md).\n\n"
            "  --gpu ID             GPU from the database (e.g. rtx-4090, h100)\n"
            "  --model ID           model from the database (e.g. llama-2-7b), or a Hugging\n"
            "                       Face config.json (FILE.json: converted for this run)\n"
            "  --params N           parameter count instead of a model (7B, 70e9)\n"
            "    --layers L --hidden H --heads A --kv-heads K --head-dim D --vocab V\n"
            "    --ffn F --max-context C      shape (also override a --model's; its\n"
            "                         parameter count stays: give --params to change it)\n"
            "    --window W --window-layers N sliding-window attention: N layers (the\n"
            "                         model's, else all) cache W positions; --window 0: none\n"
            "    --linear-layers N --linear-state E  N layers are linear attention (Gated\n"
            "                         DeltaNet, SSM): no KV cache, a state of E elements per\n"
            "                         sequence each, at 16 bits; --linear-layers 0: none\n"
            "  --weights FMT        storage format of the weights (fp16, q4_0, int8, ...;\n"
            "                       or a number of bits: 4.5)          [fp16]\n"
            "  --kv FMT             KV-cache format (fp16, fp8-e4m3, int8, int4, ...) [fp16]\n"
            "  --embed-format FMT   embeddings and lm_head [the weights format's output\n"
            "                       matrix when it names one (q6_k for most GGUF formats),\n"
            "                       else fp16]\n"
            "  --context C          tokens in each sequence's KV cache   [128, or --prompt]\n"
            "  --batch B            sequences decoded together           [1]\n"
            "  --gpus N             GPUs sharing the model (tensor parallel or a layer\n"
            "                       split: --split)                      [1]\n"
            "  --link ID            link between them (in a node) [the GPU's scale-up link\n"
            "                       when it joins a node's GPUs, else its host link]; priced\n"
            "                       by the collectives model (ring or tree AllReduce, host\n"
            "                       staging without P2P)\n"
            "  --link-bw RATE       without --link: a link of your own, RATE per direction\n"
            "                       per GPU; with --link ID: its expected rate (at most its\n"
            "                       datasheet)\n"
            "  --link-latency T     the link's alpha per hop (e.g. 5us; --link-bw alone: 0)\n"
            "  --gpus-per-node G    GPUs per node when --gpus spans nodes (needs --scale-out)\n"
            "  --scale-out ID       link between the nodes (ib-ndr, roce-400, efa-p5 ...): the\n"
            "                       AllReduces run on two levels, hand-offs cross it\n"
            "  --split MODE         tensor | layer: how --gpus shares the model [engine's:\n"
            "                       layer for llama.cpp, exllama(v2), hf-transformers]\n"
            "  --prompt P           prompt tokens: prefill time to first token\n"
            "  --output N           generated tokens per request: end-to-end latency and\n"
            "                       throughput of prefill + N decode steps at contexts\n"
            "                       P .. P+N-1 (P: --prompt, else --context, else 128)\n");
    /* Two strings: C11 promises 4095 characters in one literal. */
    fprintf(f,
            "  --engine E           decode profile: generic llama.cpp gpt-fast mlc exllama\n"
            "                       exllamav2 vllm (sglang, lmdeploy) tensorrt-llm (nim)\n"
            "                       hf-transformers llama.cpp-2023 (Dec 2023 llama.cpp\n"
            "                       builds) llama.cpp-rocm llama.cpp-vulkan llama.cpp-sycl\n"
            "                       llama.cpp-metal llama.cpp-metal-2023 (Nov 2023 Metal\n"
            "                       builds) vllm-rocm mlx (mlx-lm, lmstudio-mlx; Apple)\n"
            "                       (llama.cpp on an AMD / Intel / Apple GPU runs as its\n"
            "                       ROCm / SYCL / Metal profile, generic on Apple as\n"
            "                       llama.cpp-metal, vllm on AMD as vllm-rocm)\n"
            "                       [the engine the weights format names (llama.cpp for GGUF\n"
            "                       formats, mlc for MLC's, mlx for mlx-4bit ...), else\n"
            "                       generic]\n"
            "  --decode-eff F       achieved fraction of achievable bandwidth (overrides)\n"
            "  --prefill-eff F      fraction of the expected matmul rate the prefill\n"
            "                       reaches (overrides the engine's)\n"
            "  --attention A        flash (fused) or unfused: the prefill's attention\n"
            "                       materialises every head's P x P scores (llama.cpp\n"
            "                       -fa 0, PyTorch attn_implementation=eager)\n"
            "                       [the engine's: unfused for the Dec 2023 profiles]\n"
            "  --layer-overhead T   fixed time per layer per step, e.g. 20us (overrides)\n"
            "  --moe-layer-overhead T  extra fixed time per MoE layer (router, top-k,\n"
            "                       expert GEMVs), e.g. 60us (overrides the engine's)\n"
            "  --runtime-overhead S memory reserved per GPU by the runtime [1GiB]\n"
            "  --strict             refuse (exit 2) instead of warning: context beyond the\n"
            "                       model's maximum, a batch (or the model) that does not fit\n"
            "  --price P            rent, USD per GPU-hour, for the cost per 1M tokens\n"
            "                       [the GPU's database rent, when it has one]\n"
            "  --measured R         tokens/s per stream a real run reached: held against\n"
            "                       the ceiling and the expected figure (diagnosis)\n"
            "  --help               this text\n\n"
            "Exit 2 on bad input.  A model that does not fit even at batch 1 is answered\n"
            "(JSON fits false) with a warning, exit 0; --strict makes it exit 2.\n");
}

enum {
    O_GPU = 256, O_MODEL, O_PARAMS, O_LAYERS, O_HIDDEN, O_HEADS, O_KVHEADS, O_HEADDIM,
    O_VOCAB, O_FFN, O_MAXCTX, O_WEIGHTS, O_KV, O_EMBED, O_CONTEXT, O_BATCH, O_GPUS,
    O_LINK, O_GPN, O_SCALEOUT, O_SPLIT, O_PROMPT, O_ENGINE, O_DEFF, O_PEFF, O_LOVH, O_ROVH, O_STRICT, O_MEASURED, O_PRICE,
    O_WINDOW, O_WLAYERS, O_LLAYERS, O_LSTATE, O_MOVH, O_OUTPUT, O_ATTN, O_LINK_BW, O_LINK_LAT,
    O_HELP
};

static const struct option longopts[] = {
    {"gpu", required_argument, NULL, O_GPU},
    {"model", required_argument, NULL, O_MODEL},
    {"params", required_argument, NULL, O_PARAMS},
    {"layers", required_argument, NULL, O_LAYERS},
    {"hidden", required_argument, NULL, O_HIDDEN},
    {"heads", required_argument, NULL, O_HEADS},
    {"kv-heads", required_argument, NULL, O_KVHEADS},
    {"head-dim", required_argument, NULL, O_HEADDIM},
    {"vocab", required_argument, NULL, O_VOCAB},
    {"ffn", required_argument, NULL, O_FFN},
    {"max-context", required_argument, NULL, O_MAXCTX},
    {"window", required_argument, NULL, O_WINDOW},
    {"window-layers", required_argument, NULL, O_WLAYERS},
    {"linear-layers", required_argument, NULL, O_LLAYERS},
    {"linear-state", required_argument, NULL, O_LSTATE},
    {"weights", required_argument, NULL, O_WEIGHTS},
    {"kv", required_argument, NULL, O_KV},
    {"embed-format", required_argument, NULL, O_EMBED},
    {"context", required_argument, NULL, O_CONTEXT},
    {"batch", required_argument, NULL, O_BATCH},
    {"gpus", required_argument, NULL, O_GPUS},
    {"link", required_argument, NULL, O_LINK},
    {"link-bw", required_argument, NULL, O_LINK_BW},
    {"link-latency", required_argument, NULL, O_LINK_LAT},
    {"gpus-per-node", required_argument, NULL, O_GPN},
    {"scale-out", required_argument, NULL, O_SCALEOUT},
    {"split", required_argument, NULL, O_SPLIT},
    {"prompt", required_argument, NULL, O_PROMPT},
    {"output", required_argument, NULL, O_OUTPUT},
    {"engine", required_argument, NULL, O_ENGINE},
    {"decode-eff", required_argument, NULL, O_DEFF},
    {"prefill-eff", required_argument, NULL, O_PEFF},
    {"attention", required_argument, NULL, O_ATTN},
    {"layer-overhead", required_argument, NULL, O_LOVH},
    {"moe-layer-overhead", required_argument, NULL, O_MOVH},
    {"runtime-overhead", required_argument, NULL, O_ROVH},
    {"strict", no_argument, NULL, O_STRICT},
    {"measured", required_argument, NULL, O_MEASURED},
    {"price", required_argument, NULL, O_PRICE},
    {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

/* A format from the database, or a bare bit count ("4.5", "4bit", "4.5b")
 * turned into an ad-hoc format in *tmp. */
static int get_format(gp_cli *cli, const gp_db *db, const char *opt, const char *arg,
                      gp_format *tmp, const gp_format **out)
{
    gp_err e;
    double bits = 0.0;
    int is_bits = 0;
    const gp_format *f = gp_db_find_format(db, arg);
    if (f != NULL) {
        *out = f;
        return 0;
    }
    /* The number before an optional "bit", "bits" or "b", read as the units
     * grammar reads a plain number (decimal only: strtod alone took "0x10"
     * as 16 bits and " 5" as 5; docs/units.md). */
    {
        char num[64];
        size_t l = strlen(arg);
        static const char *const sfx[] = {"bits", "bit", "b"};
        size_t k;
        for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
            size_t sl = strlen(sfx[k]);
            if (l > sl && strcmp(arg + l - sl, sfx[k]) == 0) {
                l -= sl;
                break;
            }
        }
        if (l < sizeof num) {
            memcpy(num, arg, l);
            num[l] = '\0';
            /* A negative count is a bit count too, refused below as such. */
            const char *digits = num[0] == '-' ? num + 1 : num;
            if (((digits[0] >= '0' && digits[0] <= '9') || digits[0] == '.') &&
                gp_parse_qty(digits, GP_Q_NUMBER, opt, &bits, NULL) == GP_OK) {
                is_bits = 1;
                if (num[0] == '-')
                    bits = -bits;
            }
        }
    }
    if (is_bits) {
        /* 1 bit (binary weights; BitNet b1.58 stores ~1.6) to 64 (fp64). */
        if (!(bits >= 1.0 && bits <= 64.0))
            return gp_cli_usage(cli, "option '%s': '%s' is outside [1, 64] bits per element", opt,
                                arg);
        memset(tmp, 0, sizeof *tmp);
        tmp->id = arg;
        tmp->name = arg;
        tmp->kind = bits >= 16.0 ? GP_FMT_FLOAT : GP_FMT_QUANT;
        tmp->bits.v = bits;
        tmp->bits.src = "command line";
        tmp->compute = bits > 16.0 ? GP_FP32 : GP_FP16;
        *out = tmp;
        return 0;
    }
    gp_err_clear(&e);
    gp_db_get_format(db, arg, opt, out, &e);
    return gp_cli_fail(cli, &e);
}

static const char *fmt_name(const gp_format *f)
{
    return f != NULL ? f->id : "fp16";
}

static double fmt_bits(const gp_format *f)
{
    return f != NULL && f->bits.v > 0.0 ? f->bits.v : 16.0;
}

static const char *src_or(const char *s, const char *dflt)
{
    return s != NULL && s[0] != '\0' ? s : dflt;
}

/* Whose figure the achievable bandwidth is: a calibration's, or the
 * datasheet's where the calibration measured above it (capped:
 * gp_gpu_expected_mem_bw), else the database efficiency's. */
static const char *achievable_src(const gp_gpu *gpu)
{
    if (gp_gpu_mem_bw_capped(gpu))
        return GP_MEM_BW_CAPPED_SRC;
    if (gpu->meas_mem_bw.v > 0)
        return src_or(gpu->meas_mem_bw.src, "calibration");
    return src_or(gpu->eff_mem.src, "hwdb efficiency.memory");
}

static void qrow(const char *label, double v, gp_qty kind, int digits, const char *note)
{
    gp_cli_qrow(label, v, kind, digits, note);
}

/* "compute" or "memory": the larger of the two roofline accounts. */
static const char *roof_bound(const gp_infer_side *s)
{
    return s->ledger.t[GP_ACCT_COMPUTE] > s->ledger.t[GP_ACCT_MEMORY] ? "compute" : "memory";
}

/* Decimals for a tokens/s figure: one below 1000 tok/s (132.7), three
 * above (1.675 ktok/s, not 1.7): four figures either way; below 0.95 three
 * significant figures (0.0401 tok/s, not 0.0). */
static int tok_digits(double v)
{
    if (v > 0.0 && v < 0.95) {
        int d = 2 - (int)floor(log10(v));
        return d > 12 ? 12 : d;
    }
    return v >= 999.95 ? 3 : 1;
}

/* What the larger part of the movement account is: "communication" (the
 * link's AllReduces or layer hand-offs, comm_s) or "overhead" (the fixed
 * per-layer and MoE-layer costs, overhead_s); "none" when it is empty. */
static const char *movement_largest(const gp_infer_side *s)
{
    if (!(s->comm_s > 0.0) && !(s->overhead_s > 0.0))
        return "none";
    return s->comm_s > s->overhead_s ? "communication" : "overhead";
}

static void print_side(const char *title, const gp_infer_side *s, double batch,
                       const char *what, int split_layers)
{
    char note[160], a[32], b[32];
    gp_cli_print_ledger(title, &s->ledger);
    printf("  movement = %s\n", what);
    if (s->ledger.binding == GP_ACCT_MOVEMENT) {
        /* Name the part of the movement account that makes it the largest:
         * the link's traffic is no fixed cost (inference.md 3). */
        const char *comm = split_layers ? "layer hand-offs" : "AllReduces";
        gp_format_qty(s->comm_s, GP_Q_DURATION, 1, 0, a, sizeof a);
        gp_format_qty(s->overhead_s, GP_Q_DURATION, 1, 0, b, sizeof b);
        if (strcmp(movement_largest(s), "communication") == 0 && !(s->overhead_s > 0.0))
            printf("  %s-bound under the roofline, but movement takes the largest share: %s of"
                   " %s over the link\n", roof_bound(s), a, comm);
        else if (strcmp(movement_largest(s), "communication") == 0)
            printf("  %s-bound under the roofline, but movement takes the largest share, most of"
                   " it communication: %s of %s over the link, %s of fixed per-layer overhead\n",
                   roof_bound(s), a, comm, b);
        else if (s->comm_s > 0.0)
            printf("  %s-bound under the roofline, but movement takes the largest share, most of"
                   " it fixed per-layer overhead: %s, against %s of %s over the link\n",
                   roof_bound(s), b, a, comm);
        else
            printf("  %s-bound under the roofline, but movement takes the largest share: %s of"
                   " fixed per-layer overhead\n", roof_bound(s), b);
    } else
        printf("  %s-bound\n", roof_bound(s));
    qrow("tokens/s per stream", s->tokens_per_s, GP_Q_TOKEN_RATE, tok_digits(s->tokens_per_s),
         NULL);
    snprintf(note, sizeof note, "batch %.0f", batch);
    qrow("tokens/s aggregate", s->aggregate_tokens_per_s, GP_Q_TOKEN_RATE,
         tok_digits(s->aggregate_tokens_per_s), note);
    if (s->usd_per_mtok > 0) {
        char v[32];
        gp_cli_row("cost per 1M tokens", gp_cli_usd(s->usd_per_mtok, v, sizeof v),
                   "price x GPUs / (aggregate tok/s x 3600) x 1e6");
    }
}

/* The end-to-end block (inference.md 5.2). */
static void print_e2e(const gp_infer_e2e *x, double output)
{
    char note[200];
    int sd;
    if (output >= 2.0)
        printf("\nend to end: %.0f-token prompt + %.0f output tokens, batch %.0f (the prefill "
               "gives the first; decode contexts %.0f .. %.0f)\n", x->prompt, output, x->batch,
               x->prompt + 1.0, x->final_context - 1.0);
    else
        printf("\nend to end: %.0f-token prompt + 1 output token, batch %.0f (the prefill "
               "alone)\n", x->prompt, x->batch);
    for (sd = 0; sd < 2; sd++) {
        const gp_infer_e2e_side *s = sd ? &x->ceiling : &x->expected;
        const char *lbl = sd ? "ceiling" : "expected";
        char l[48];
        snprintf(l, sizeof l, "%s latency", lbl);
        qrow(l, s->latency_s, GP_Q_DURATION, 3, "TTFT(P, B) + sum of step(P + j), j = 1 .. N-1");
        qrow("  time to first token", s->ttft_s, GP_Q_DURATION, 3, NULL);
        if (output >= 2.0) {
            snprintf(note, sizeof note, "%.0f step%s, %s; first %.4g ms, last %.4g ms",
                     output - 1.0, output > 2.0 ? "s" : "",
                     x->summed ? "each step evaluated" : "closed form (piecewise affine, exact)",
                     s->first_step_s * 1e3, s->last_step_s * 1e3);
            qrow("  decode", s->decode_s, GP_Q_DURATION, 3, note);
            qrow("  mean step", s->mean_step_s, GP_Q_DURATION, 3, "decode / (N - 1)");
        }
        if (!isnan(s->crossover_context)) {
            snprintf(note, sizeof note, "%.0f", s->crossover_context);
            gp_cli_row("  roof changes at context", note,
                       "compute and memory time cross within the request");
        }
        qrow("  output tokens/s", s->output_tokens_per_s, GP_Q_TOKEN_RATE,
             tok_digits(s->output_tokens_per_s), "B x N / latency");
        qrow("  total tokens/s", s->total_tokens_per_s, GP_Q_TOKEN_RATE,
             tok_digits(s->total_tokens_per_s), "B x (P + N) / latency");
    }
}

static json_t *jside(const gp_infer_side *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "tokens_per_s", gp_cli_jnum(s->tokens_per_s));
    json_object_set_new(o, "aggregate_tokens_per_s", gp_cli_jnum(s->aggregate_tokens_per_s));
    json_object_set_new(o, "step_s", gp_cli_jnum(s->step_s));
    json_object_set_new(o, "mem_bw_bytes_per_s", gp_cli_jnum(s->mem_bw));
    json_object_set_new(o, "peak_flop_per_s", gp_cli_jnum(s->peak));
    json_object_set_new(o, "peak_precision", json_string(gp_precision_name(s->peak_precision)));
    json_object_set_new(o, "peak_accumulate",
                        json_string(s->peak_accum == GP_ACC_FP16 ? "fp16" : "fp32"));
    json_object_set_new(o, "cuda_peak_flop_per_s", gp_cli_jnum(s->cuda_peak));
    json_object_set_new(o, "eff_weights", gp_cli_jnum(s->eff_weights));
    json_object_set_new(o, "eff_other", gp_cli_jnum(s->eff_other));
    json_object_set_new(o, "layer_overhead_s", gp_cli_jnum(s->layer_overhead_s));
    json_object_set_new(o, "moe_layer_overhead_s", gp_cli_jnum(s->moe_overhead_s));
    json_object_set_new(o, "overhead_s", gp_cli_jnum(s->overhead_s));
    json_object_set_new(o, "comm_s", gp_cli_jnum(s->comm_s));
    json_object_set_new(o, "movement_largest", json_string(movement_largest(s)));
    json_object_set_new(o, "ttft_s", gp_cli_jnum(s->ttft_s));
    json_object_set_new(o, "prefill_eff", gp_cli_jnum(s->prefill_eff));
    json_object_set_new(o, "prefill_peak_flop_per_s", gp_cli_jnum(s->prefill_peak));
    json_object_set_new(o, "prefill_pipeline",
                        json_string(gp_pipeline_name(s->prefill_pipeline)));
    json_object_set_new(o, "prefill_rate_flop_per_s", gp_cli_jnum(s->prefill_rate));
    json_object_set_new(o, "prefill_gemm_s", gp_cli_jnum(s->prefill_gemm_s));
    json_object_set_new(o, "prefill_score_s", gp_cli_jnum(s->prefill_score_s));
    json_object_set_new(o, "ridge_batch", gp_cli_jnum(s->ridge_batch));
    if (s->usd_per_mtok > 0)
        json_object_set_new(o, "usd_per_mtok", gp_cli_jnum(s->usd_per_mtok));
    json_object_set_new(o, "ledger", gp_cli_jledger(&s->ledger));
    return o;
}

static int run(gp_cli *cli, int argc, char **argv)
{
    const char *gpu_id = NULL, *model_id = NULL, *wname = NULL, *kvname = NULL;
    const char *ename = NULL, *engine_name = NULL, *link_id = NULL, *out_id = NULL;
    double params = 0, d, layers = 0, hidden = 0, heads = 0, kvh = 0, hd = 0, vocab = 0;
    double ffn = 0, maxctx = 0, window = -1, wlayers = 0, llayers = -1, lstate = 0;
    long lv;
    int c, strict = 0, have_context = 0, have_prompt = 0, rc, status = GP_EXIT_OK;
    const gp_db *db;
    const gp_gpu *gpu;
    gp_model model;
    gp_format wtmp, ktmp, etmp;
    gp_infer_params p;
    gp_infer_result r;
    gp_err e;
    char buf[64], buf2[64], note[256], uneven_msg[160], stbuf[64];
    int uneven, mla, nodes, own;
    double ridge_whole; /* first whole batch compute binds at (Inf: never) */
    gp_cli_link_opt lk;
    double node; /* GPUs per node (all of them in one node) */
    double measured = 0.0, output = 0.0;
    gp_diagnosis diag;
    gp_infer_e2e e2e;
    char e2e_msg[256], engine_msg[256], kv_msg[384], link_msg[320], out_msg[160];
    char ctx_msg[384];
    const char *warn[8];
    size_t nwarn = 0, wi;
    const char *runs_on = NULL, *kv_types = NULL;

    gp_infer_params_init(&p);
    gp_cli_link_opt_init(&lk);
    link_msg[0] = '\0';
    out_msg[0] = '\0';
    while ((c = gp_cli_getopt(cli, argc, argv, ":h", longopts)) != -1) {
        switch (c) {
        case O_GPU: gpu_id = optarg; break;
        case O_MODEL: model_id = optarg; break;
        case O_PARAMS:
            if (gp_cli_qty(cli, "--params", optarg, GP_Q_COUNT, &params))
                return GP_EXIT_USAGE;
            if (!(params > 0))
                return gp_cli_usage(cli, "'--params' must be positive (got '%s')", optarg);
            if (gp_cli_params_floor(cli, params))
                return GP_EXIT_USAGE;
            break;
#define INTOPT(code, name, var, min)                                            \
    case code:                                                                  \
        if (gp_cli_int(cli, name, optarg, min, &lv))                            \
            return GP_EXIT_USAGE;                                               \
        var = (double)lv;                                                       \
        break;
        INTOPT(O_LAYERS, "--layers", layers, 1)
        INTOPT(O_HIDDEN, "--hidden", hidden, 1)
        INTOPT(O_HEADS, "--heads", heads, 1)
        INTOPT(O_KVHEADS, "--kv-heads", kvh, 1)
        INTOPT(O_HEADDIM, "--head-dim", hd, 1)
        INTOPT(O_VOCAB, "--vocab", vocab, 1)
        INTOPT(O_FFN, "--ffn", ffn, 1)
        INTOPT(O_MAXCTX, "--max-context", maxctx, 1)
        INTOPT(O_WINDOW, "--window", window, 0)
        INTOPT(O_WLAYERS, "--window-layers", wlayers, 1)
        INTOPT(O_LLAYERS, "--linear-layers", llayers, 0)
        INTOPT(O_LSTATE, "--linear-state", lstate, 1)
        case O_BATCH:
            if (gp_cli_int(cli, "--batch", optarg, 1, &lv))
                return GP_EXIT_USAGE;
            if ((double)lv > GP_INFER_MAX_BATCH)
                return gp_cli_usage(cli, "'--batch' must be at most %.0f sequences (got '%s')",
                                    GP_INFER_MAX_BATCH, optarg);
            p.batch = (double)lv;
            break;
        INTOPT(O_GPUS, "--gpus", p.gpus, 1)
        case O_PROMPT:
            if (gp_cli_int(cli, "--prompt", optarg, 0, &lv))
                return GP_EXIT_USAGE;
            if ((double)lv > GP_INFER_MAX_CONTEXT)
                return gp_cli_usage(cli, "'--prompt' must be at most %.0f tokens (got '%s')",
                                    GP_INFER_MAX_CONTEXT, optarg);
            p.prompt = (double)lv;
            have_prompt = 1;
            break;
#undef INTOPT
        case O_CONTEXT:
            if (gp_cli_int(cli, "--context", optarg, 0, &lv))
                return GP_EXIT_USAGE;
            if ((double)lv > GP_INFER_MAX_CONTEXT)
                return gp_cli_usage(cli, "'--context' must be at most %.0f tokens (got '%s')",
                                    GP_INFER_MAX_CONTEXT, optarg);
            p.context = (double)lv;
            have_context = 1;
            break;
        case O_OUTPUT:
            if (gp_cli_int(cli, "--output", optarg, 1, &lv))
                return GP_EXIT_USAGE;
            if ((double)lv > GP_INFER_MAX_OUTPUT)
                return gp_cli_usage(cli, "'--output' must be at most %.0f tokens per request "
                                         "(got '%s')", GP_INFER_MAX_OUTPUT, optarg);
            output = (double)lv;
            break;
        case O_WEIGHTS: wname = optarg; break;
        case O_KV: kvname = optarg; break;
        case O_EMBED: ename = optarg; break;
        case O_LINK: link_id = optarg; break;
        case O_LINK_BW:
        case O_LINK_LAT:
            if (gp_cli_link_opt_parse(cli, &lk, c == O_LINK_LAT, optarg))
                return GP_EXIT_USAGE;
            break;
        case O_GPN:
            if (gp_cli_int(cli, "--gpus-per-node", optarg, 1, &lv))
                return GP_EXIT_USAGE;
            p.gpus_per_node = (double)lv;
            break;
        case O_SCALEOUT: out_id = optarg; break;
        case O_SPLIT:
            if (strcmp(optarg, "tensor") == 0 || strcmp(optarg, "tp") == 0)
                p.split = GP_SPLIT_TENSOR;
            else if (strcmp(optarg, "layer") == 0 || strcmp(optarg, "pipeline") == 0)
                p.split = GP_SPLIT_LAYER;
            else
                return gp_cli_usage(cli, "'--split' must be 'tensor' or 'layer' (got '%s')",
                                    optarg);
            break;
        case O_ENGINE: engine_name = optarg; break;
        case O_DEFF:
            if (gp_cli_qty(cli, "--decode-eff", optarg, GP_Q_FRACTION, &d))
                return GP_EXIT_USAGE;
            if (!(d > 0))
                return gp_cli_usage(cli, "'--decode-eff' must be above 0 (got '%s')", optarg);
            /* Engines reach 50-95 %; 1e-300 printed a 300-digit ledger margin. */
            if (d < 0.01)
                return gp_cli_usage(cli, "'--decode-eff' must lie in [0.01, 1] (got '%s')",
                                    optarg);
            p.decode_eff = d;
            break;
        case O_ATTN:
            if (gp_cli_attention(cli, optarg, &p.attn_unfused))
                return GP_EXIT_USAGE;
            break;
        case O_PEFF:
            if (gp_cli_fraction(cli, "--prefill-eff", optarg, 0.01, &d))
                return GP_EXIT_USAGE;
            p.prefill_eff = d;
            break;
        case O_LOVH:
        case O_MOVH: {
            const char *nm = c == O_LOVH ? "--layer-overhead" : "--moe-layer-overhead";
            if (gp_cli_qty(cli, nm, optarg, GP_Q_DURATION, &d))
                return GP_EXIT_USAGE;
            /* Engines spend 5-400 us; 1e308 made the step infinite. */
            if (d > 1.0)
                return gp_cli_usage(cli, "'%s' must be at most 1 s (got '%s')", nm, optarg);
            if (c == O_LOVH)
                p.layer_overhead = d;
            else
                p.moe_layer_overhead = d;
            break;
        }
        case O_ROVH:
            if (gp_cli_qty(cli, "--runtime-overhead", optarg, GP_Q_BYTES, &d))
                return GP_EXIT_USAGE;
            /* The database's cap on a GPU's memory (1 PB): 1e308 B printed the
             * refusal's "needs n/a ... short by n/a" (the sum overflowed). */
            if (d > 1e15)
                return gp_cli_usage(cli, "'--runtime-overhead' must be at most 1 PB, the "
                                         "largest GPU memory the database takes (got '%s')",
                                    optarg);
            p.runtime_overhead = d;
            break;
        case O_STRICT: strict = 1; break;
        case O_PRICE:
            if (gp_cli_qty(cli, "--price", optarg, GP_Q_NUMBER, &d))
                return GP_EXIT_USAGE;
            if (!(d > 0.0) || d > 1e4)
                return gp_cli_usage(cli, "'--price' must be USD per GPU-hour in (0, 1e4] "
                                         "(got '%s')", optarg);
            p.price = d;
            break;
        case O_MEASURED:
            if (gp_cli_qty(cli, "--measured", optarg, GP_Q_NUMBER, &measured))
                return GP_EXIT_USAGE;
            /* From one token in 1e6 s (11.6 days) up: a step time stays a time. */
            if (!(measured >= 1e-6) || measured > 1e9)
                return gp_cli_usage(cli, "'--measured' must be tokens/s per stream in [1e-6, "
                                         "1e9] (got '%s')", optarg);
            break;
        case 'h':
        case O_HELP: usage(stdout); return GP_EXIT_OK;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':':
            return gp_cli_usage(cli, "option '%s' needs a value", argv[optind - 1]);
        default:
            return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gp_cli_usage(cli, "unexpected argument '%s'", argv[optind]);
    if (gpu_id == NULL)
        return gp_cli_required(cli, "--gpu", NULL, NULL);
    if ((model_id == NULL) == (params <= 0))
        return gp_cli_usage(cli, "give exactly one of '--model' and '--params'");
    if ((rc = gp_cli_model_file(cli, &model_id)) != GP_EXIT_OK)
        return rc;
    if ((db = gp_cli_db(cli)) == NULL)
        return GP_EXIT_USAGE;
    gp_err_clear(&e);
    if (gp_db_get_gpu(db, gpu_id, "--gpu", &gpu, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    memset(&model, 0, sizeof model);
    if (model_id != NULL) {
        const gp_model *m;
        if (gp_db_get_model(db, model_id, "--model", &m, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        model = *m;
    } else {
        model.id = "custom";
        model.name = "custom model";
        model.params.v = params;
        model.params.src = "--params";
    }
    {
        /* Shape options: whole numbers in [1, 1e9] as in a config.json
         * (GP_MODEL_DIM_MAX), KV heads dividing the heads, and a head size
         * that hidden / heads gives whole or --head-dim gives. */
        static const char *const dn[] = {"--layers",      "--hidden",        "--heads",
                                         "--kv-heads",    "--head-dim",      "--vocab",
                                         "--ffn",         "--linear-layers", "--linear-state",
                                         "--max-context", "--window",        "--window-layers"};
        const double dv[] = {layers, hidden, heads,   kvh,    hd,     vocab,
                             ffn,    llayers, lstate, maxctx, window, wlayers};
        size_t k;
        for (k = 0; k < sizeof dv / sizeof dv[0]; k++)
            if (dv[k] > GP_MODEL_DIM_MAX)
                return gp_cli_usage(cli, "'%s' must be <= 1e9 (got %.0f)", dn[k], dv[k]);
    }
#define SETF(var, field)                                                        \
    if (var > 0) {                                                              \
        model.field.v = var;                                                    \
        model.field.src = "command line";                                       \
    }
    SETF(layers, layers)
    SETF(hidden, hidden)
    SETF(heads, heads)
    SETF(kvh, kv_heads)
    SETF(hd, head_dim)
    SETF(vocab, vocab)
    SETF(ffn, ffn_hidden)
    SETF(maxctx, context)
    SETF(window, window)
    SETF(wlayers, window_layers)
    SETF(llayers, linear_layers)
    SETF(lstate, linear_state)
#undef SETF
    /* A state of other elements: the entry's bytes for its own no longer
     * apply (priced at GP_INFER_STATE_BITS). */
    if (lstate > 0 || llayers == 0)
        model.linear_state_bytes.v = 0;
    /* The model's KV heads stay while they divide new --heads (as train). */
    if (heads > 0 && kvh <= 0 && model.kv_heads.v > 0 &&
        (model.kv_heads.v > heads || fmod(heads, model.kv_heads.v) != 0.0)) {
        model.kv_heads.v = heads;
        model.kv_heads.src = "command line (--heads)";
    }
    if ((kvh > 0 || heads > 0) && model.heads.v > 0 && model.kv_heads.v > 0 &&
        (model.kv_heads.v > model.heads.v || fmod(model.heads.v, model.kv_heads.v) != 0.0))
        return gp_cli_usage(cli, "'--kv-heads' %g must divide the %g attention heads",
                            model.kv_heads.v, model.heads.v);
    if ((hidden > 0 || heads > 0) && hd <= 0 && !(model.head_dim.v > 0) && model.hidden.v > 0 &&
        model.heads.v > 0 && fmod(model.hidden.v, model.heads.v) != 0.0)
        return gp_cli_usage(cli, "'--hidden' %g is not a multiple of '--heads' %g: give "
                                 "'--head-dim'", model.hidden.v, model.heads.v);
    /* The count holds the embedding matrices (vocab x hidden, one tied, two
     * untied): at or below them no parameter is left for the layers, and
     * the lm_head was priced at 0 B with every parameter as the body. */
    {
        double ne = model.tied_embeddings ? 1.0 : 2.0;
        double emb = gp_model_embed_params(&model);
        if (emb > 0.0 && model.params.v > 0 && emb >= model.params.v) {
            if (params > 0)
                return gp_cli_usage(cli, "'--params' %.4g is no more than the embedding "
                                         "matrices alone (vocab %.0f x hidden %.0f x %.0f = "
                                         "%.4g parameters)",
                                    model.params.v, model.vocab.v, model.hidden.v, ne, emb);
            return gp_cli_usage(cli, "'%s' makes the embedding matrices (vocab %.0f x hidden "
                                     "%.0f x %.0f = %.4g parameters) no fewer than %s's %.4g "
                                     "parameters: give '--params' too",
                                vocab > 0 ? "--vocab" : "--hidden", model.vocab.v,
                                model.hidden.v, ne, emb, model.id, model.params.v);
        }
    }
    if (window == 0) {
        model.window.v = 0;
        model.window.src = "command line";
        model.window_layers.v = 0;
        if (wlayers > 0)
            return gp_cli_usage(cli, "'--window-layers' needs a window ('--window 0' has none)");
    }
    if (wlayers > 0 && !(model.window.v > 0))
        return gp_cli_usage(cli, "'--window-layers' needs '--window W' (%s has no sliding "
                                 "window)", model.id);
    if (model.layers.v > 0 && model.window_layers.v > model.layers.v) {
        if (wlayers > 0)
            return gp_cli_usage(cli, "'--window-layers' %.0f exceeds the model's %.0f layers",
                                model.window_layers.v, model.layers.v);
        return gp_cli_usage(cli, "'--layers' %.0f is fewer than %s's %.0f windowed layers "
                                 "(window.layers); give '--window-layers' too",
                            model.layers.v, model.id, model.window_layers.v);
    }
    if (model.window.v > 0 && !(model.layers.v > 0))
        return gp_cli_usage(cli, "'--window' needs '--layers': a window applies per layer, and "
                                 "a --params model's depth would be a guess");
    /* Linear-attention layers, as the loader checks them (inference.md
     * §1.2): a count and a state together, at least one layer attending,
     * any window on the attending layers. */
    if (llayers == 0) {
        model.linear_layers.v = 0;
        model.linear_layers.src = "command line";
        model.linear_state.v = 0;
        if (lstate > 0)
            return gp_cli_usage(cli, "'--linear-state' needs linear-attention layers "
                                     "('--linear-layers 0' has none)");
    }
    if (model.linear_layers.v > 0 && !(model.linear_state.v > 0))
        return gp_cli_usage(cli, "'--linear-layers' needs '--linear-state E' (the recurrent-state "
                                 "elements per sequence per layer; %s has none)", model.id);
    if (lstate > 0 && !(model.linear_layers.v > 0))
        return gp_cli_usage(cli, "'--linear-state' needs '--linear-layers N' (%s has no "
                                 "linear-attention layers)", model.id);
    if (model.linear_layers.v > 0 && !(model.layers.v > 0))
        return gp_cli_usage(cli, "'--linear-layers' needs '--layers': a --params model's depth "
                                 "would be a guess");
    if (model.linear_layers.v > 0 && model.linear_layers.v >= model.layers.v) {
        if (llayers > 0)
            return gp_cli_usage(cli, "'--linear-layers' %.0f leaves none of the model's %.0f "
                                     "layers attending (at most %.0f)",
                                model.linear_layers.v, model.layers.v, model.layers.v - 1);
        return gp_cli_usage(cli, "'--layers' %.0f is not above %s's %.0f linear-attention layers "
                                 "(linear.layers); give '--linear-layers' too",
                            model.layers.v, model.id, model.linear_layers.v);
    }
    if (model.linear_layers.v > 0 && model.window.v > 0) {
        /* Name what was given: a --window / --window-layers typed here, else
         * the model's own window.tokens / window.layers, against the
         * linear-attention layers (as the --layers check above does). */
        double att = model.layers.v - model.linear_layers.v;
        if (!(model.window_layers.v > 0)) {
            if (window > 0 || !(llayers > 0))
                return gp_cli_usage(cli, "'--window' on every layer, but %.0f of the %.0f are "
                                         "linear attention: give '--window-layers' (at most %.0f)",
                                    model.linear_layers.v, model.layers.v, att);
            return gp_cli_usage(cli, "%s's window (window.tokens %.0f) is on every layer, but "
                                     "'--linear-layers' %.0f makes %.0f of the %.0f linear "
                                     "attention: give '--window-layers' (at most %.0f) or "
                                     "'--window 0'",
                                model.id, model.window.v, model.linear_layers.v,
                                model.linear_layers.v, model.layers.v, att);
        }
        if (model.window_layers.v > att) {
            if (wlayers > 0)
                return gp_cli_usage(cli, "'--window-layers' %.0f exceeds the %.0f attending "
                                         "layers (%.0f of %.0f are linear attention)",
                                    model.window_layers.v, att, model.linear_layers.v,
                                    model.layers.v);
            return gp_cli_usage(cli, "%s's %.0f windowed layers (window.layers) exceed the %.0f "
                                     "attending layers %s%.0f leaves of %.0f: give "
                                     "'--window-layers' (at most %.0f) or '--window 0'",
                                model.id, model.window_layers.v, att,
                                llayers > 0 ? "'--linear-layers' " : "linear.layers ",
                                model.linear_layers.v, model.layers.v, att);
        }
    }
    if (wname && (rc = get_format(cli, db, "--weights", wname, &wtmp, &p.weights)) != 0)
        return rc;
    if (kvname && (rc = get_format(cli, db, "--kv", kvname, &ktmp, &p.kv)) != 0)
        return rc;
    if (ename && (rc = get_format(cli, db, "--embed-format", ename, &etmp, &p.embed)) != 0)
        return rc;
    if (engine_name && gp_engine_get(engine_name, "--engine", &p.engine, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (!have_context && p.prompt > 0)
        p.context = p.prompt;
    /* --link-bw without --link: a link of the user's own (the GPU's unused). */
    own = link_id == NULL && gp_cli_link_opt_given(&lk);
    if (p.gpus > 1 && link_id == NULL && !own &&
        gp_cli_unified_needs_link(gpu, out_id != NULL, p.gpus_per_node)) {
        char lead[48];
        snprintf(lead, sizeof lead, "'--gpus' %g: ", p.gpus);
        return gp_cli_refuse_unified(cli, lead, gpu, "a run over several machines",
                                     "--link' or '--link-bw");
    }
    if (out_id != NULL && p.gpus_per_node == 0)
        return gp_cli_usage(cli, "--scale-out needs --gpus-per-node G");
    if (out_id != NULL && gp_cli_scale_out(cli, db, out_id, &p.scale_out) != 0)
        return GP_EXIT_USAGE;
    /* GPUs per node: all of them, unless --gpus-per-node spreads them over
     * nodes (joined by --scale-out: the library refuses nodes without). */
    node = p.gpus_per_node > 0 && p.gpus_per_node < p.gpus ? p.gpus_per_node : p.gpus;
    nodes = node < p.gpus;
    if (p.scale_out != NULL && p.scale_out->scope != GP_SCOPE_SCALE_OUT && nodes)
        snprintf(out_msg, sizeof out_msg,
                 "--scale-out %s is a scale-up link (inside a node); it is priced here as the "
                 "link between nodes", p.scale_out->id);
    /* Options that price nothing here are said, as train and allreduce say
     * them: GPUs that fit in one node use no scale-out link. */
    if (out_id != NULL && !nodes)
        gp_cli_note(cli, "note", "--scale-out ignored: the %.0f GPU%s one node", p.gpus,
                    p.gpus == 1 ? " is" : "s are");
    if ((p.gpus > 1 || link_id != NULL) && !own) {
        const char *lid = link_id;
        /* The scale-up link joins a node's GPUs; a bridge only pairs. */
        if (lid == NULL)
            lid = gp_cli_gpu_link(db, gpu, node, p.gpus, 1, "--link", link_msg,
                                  sizeof link_msg);
        if (lid == NULL)
            return gp_cli_usage(cli, "GPU '%s' names no link; give '--link'", gpu->id);
        if (gp_db_get_link(db, lid, "--link", &p.link, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
    }
    /* --link-latency alone on one GPU names no link: said below, not priced. */
    if ((p.link != NULL || gp_cli_link_opt_given(&lk)) &&
        (rc = gp_cli_link_opt_apply(cli, &lk, p.link, &p.link)) != 0)
        return rc;
    p.gpu = gpu;
    p.model = &model;
    if (gp_infer_eval(&p, &r, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    /* A NIC named as the link inside a node is said (the other mix-up,
     * --scale-out on a scale-up link, is a warning above). */
    if (link_id != NULL)
        gp_cli_note_link_scopes(cli, "--link", p.link, node, NULL, nodes,
                                "--gpus-per-node G");
    /* More options that price nothing here, said rather than dropped: the
     * split and the link of one GPU, an MoE cost on a dense model, the
     * prefill's options without a prefill (no --prompt, no --output). */
    {
        const int one = p.gpus == 1, lone = p.gpus > 1 && p.gpus_per_node == 1;
        const char *up[] = {
            one && p.split != GP_SPLIT_DEFAULT ? "--split" : NULL,
            one && p.gpus_per_node > 0 ? "--gpus-per-node" : NULL,
            (one || lone) && link_id != NULL ? "--link" : NULL,
            (one || lone) && gp_cli_link_opt_given(&lk) ? "--link-bw" : NULL,
            (one || lone) && lk.lat >= 0.0 ? "--link-latency" : NULL};
        const char *pre[] = {p.prefill_eff > 0.0 ? "--prefill-eff" : NULL,
                             p.attn_unfused >= 0 ? "--attention" : NULL};
        gp_cli_note_ignored(cli, up, sizeof up / sizeof up[0],
                            one ? "one GPU (give --gpus N to share the model)"
                                : "nodes of one GPU talk only over --scale-out");
        if (p.moe_layer_overhead >= 0.0 && !(r.moe_layers > 0.0))
            gp_cli_note(cli, "note",
                        "--moe-layer-overhead ignored: %s has no mixture-of-experts layers",
                        model.id != NULL ? model.id : "the model");
        if (p.prompt == 0.0 && output == 0.0)
            gp_cli_note_ignored(cli, pre, sizeof pre / sizeof pre[0],
                                "no prefill is priced (give --prompt P or --output N)");
        /* Without the shape no KV cache is counted, so the options that
         * shape it price nothing (--params 7B --window 4096). */
        if (r.kv_bytes_per_token <= 0) {
            const char *kvo[] = {heads > 0 ? "--heads" : NULL, kvh > 0 ? "--kv-heads" : NULL,
                                 hd > 0 ? "--head-dim" : NULL, window > 0 ? "--window" : NULL,
                                 wlayers > 0 ? "--window-layers" : NULL,
                                 kvname != NULL ? "--kv" : NULL};
            gp_cli_note_ignored(cli, kvo, sizeof kvo / sizeof kvo[0],
                                "no KV cache is counted without the shape (give --layers, "
                                "--hidden and --heads, or --model)");
        }
        /* Plain MXFP4 on a MoE model reads the attention and router at
         * 4.25 bits too; the MXFP4 checkpoints published for such models
         * (gpt-oss: quantization_config's modules_to_not_convert) keep them
         * in bf16, a layout of its own (hwdb/formats/mxfp4-moe-bf16.yaml). */
        if (p.weights != &wtmp && p.weights != NULL && p.weights->id != NULL &&
            strcmp(p.weights->id, "mxfp4") == 0 && r.moe_layers > 0.0 &&
            gp_db_find_format(db, "mxfp4-moe-bf16") != NULL)
            gp_cli_note(cli, "note",
                        "--weights mxfp4 reads the %.4g params a step outside the routed "
                        "experts (attention, router, norms, biases) at 4.25 bits too; a Hugging "
                        "Face MXFP4 checkpoint keeps them in bf16 (gpt-oss's: "
                        "modules_to_not_convert): --weights mxfp4-moe-bf16 prices that layout "
                        "(mxfp4-moe: llama.cpp's GGUF, the rest in q8_0)",
                        r.body_dense_params);
        /* A format for MoE checkpoints (its dense tensors in a format of
         * their own) on a model without routed experts: every weight is in
         * the dense format; the headline bits are the experts'. */
        if (p.weights != NULL && p.weights->dense != NULL && !(r.moe_layers > 0.0))
            gp_cli_note(cli, "note",
                        "--weights %s sets the routed experts' format (%g bits); %s has no "
                        "routed experts, so all its weights are priced in the format's dense "
                        "one, %s (%g bits)",
                        p.weights->id != NULL ? p.weights->id : "?", p.weights->bits.v,
                        model.id != NULL ? model.id : "the model",
                        p.weights->dense->id != NULL ? p.weights->dense->id : "?",
                        p.weights->dense->bits.v);
    }

    /* A whole request: prefill of P tokens (the first output token), then
     * N - 1 steps at contexts P + 1 .. P + N - 1 (P: --prompt, else the
     * context: --context or its default). */
    e2e_msg[0] = '\0';
    if (output > 0) {
        gp_infer_params q = p;
        q.prompt = have_prompt ? p.prompt : p.context;
        /* The prefill's logits give the first output token: no prompt, no
         * prefill, and that token would cost nothing. */
        if (q.prompt < 1.0)
            return gp_cli_usage(cli, "'--output' needs a prompt of at least 1 token (got '%s "
                                     "0'): its prefill gives the first output token",
                                have_prompt ? "--prompt" : "--context");
        if (gp_infer_e2e_eval(&q, output, &e2e, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        if (e2e.context_exceeds)
            snprintf(e2e_msg, sizeof e2e_msg,
                     "%s %.0f + --output %.0f = %.0f tokens exceeds %s's maximum context of %.0f "
                     "tokens", have_prompt ? "--prompt" : have_context ? "--context" : "prompt",
                     e2e.prompt, output, e2e.final_context, model.id, model.context.v);
    }

    /* The ridge as a batch one can run: the first whole batch at which
     * compute time reaches memory time (inference.md 5). */
    ridge_whole = isfinite(r.expected.ridge_batch) ? ceil(r.expected.ridge_batch) : INFINITY;

    /* A measured run: one step per token of each stream. */
    memset(&diag, 0, sizeof diag);
    if (measured > 0.0)
        gp_ledger_diagnose(&r.ceiling.ledger, &r.expected.ledger, 1.0 / measured, &diag);

    /* MLA runs more kernels per layer than the profiles' fixed costs know. */
    mla = model.attention != NULL && strcmp(model.attention, "mla") == 0;

    /* Tensor parallelism splits whole heads: engines (vLLM, TensorRT-LLM,
     * SGLang) refuse a size that does not divide the attention heads. */
    uneven = !r.split_layers && p.gpus > 1 && model.heads.v >= 1 &&
             fmod(model.heads.v, p.gpus) != 0.0;
    if (uneven)
        snprintf(uneven_msg, sizeof uneven_msg,
                 "%.0f attention heads do not split evenly over %.0f tensor-parallel GPUs; vLLM, "
                 "TensorRT-LLM and SGLang refuse such a size", model.heads.v, p.gpus);

    /* An engine with no build for this GPU's vendor (TensorRT-LLM on AMD,
     * vLLM on Apple silicon) is priced as asked, and said so. */
    engine_msg[0] = '\0';
    /* MLX has a CUDA backend, but the profile is its Metal one. */
    if (!gp_engine_runs_on(r.engine, gpu, &runs_on) && strcmp(r.engine->id, "mlx") == 0 &&
        strstr(gpu->vendor, "NVIDIA") != NULL)
        snprintf(engine_msg, sizeof engine_msg,
                 "engine 'mlx' is profiled on Apple GPUs (Metal); its CUDA backend is not: "
                 "priced with the Metal profile as given");
    else if (!gp_engine_runs_on(r.engine, gpu, &runs_on))
        snprintf(engine_msg, sizeof engine_msg,
                 "engine '%s' has no build for %s GPUs (it runs on %s): priced with its "
                 "profile as given", r.engine->id, gpu->vendor, runs_on);
    /* llama.cpp loads GGUF files, not AWQ, GPTQ, NF4, FP8 or NVFP4 weights;
     * MLC its own formats, not GGUF files; MLX its own (affine groups and
     * microscaling modes) and floats.  A bare number of bits (wtmp) is no
     * file type but the user's average over one (a K-quant mix, EXL2):
     * nothing to remark on. */
    else if (p.weights != &wtmp && !gp_engine_loads(r.engine, p.weights))
        snprintf(engine_msg, sizeof engine_msg,
                 "engine '%s' loads %s, and '%s' is none: priced by its %.3g bits per weight",
                 r.engine->id,
                 strcmp(r.engine->id, "mlc") == 0 ? "its own formats (q4f16_1, ...) compiled from "
                                                    "Hugging Face weights"
                 : strcmp(r.engine->id, "mlx") == 0
                     ? "MLX's formats (mlx-4bit, ..., mxfp4, mxfp8, nvfp4) and 16/32-bit floats"
                     : "GGUF types",
                 fmt_name(p.weights), fmt_bits(p.weights));

    /* A weights file type no engine's cache uses (a K-quant mix), or one
     * the engine in use does not keep (fp8 on llama.cpp, q8_0 on vLLM), is
     * priced as given and said, as a weights format it does not load is.
     * A bare number of bits (ktmp) is the user's own: nothing to say. */
    kv_msg[0] = '\0';
    if (!gp_format_holds_kv(p.kv))
        snprintf(kv_msg, sizeof kv_msg,
                 "--kv %s is a weights file type no engine's KV cache uses (llama.cpp's: f32, "
                 "f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1): priced by its %.3g bits",
                 fmt_name(p.kv), fmt_bits(p.kv));
    else if (p.kv != &ktmp && !gp_engine_holds_kv(r.engine, p.kv, &kv_types))
        snprintf(kv_msg, sizeof kv_msg,
                 "engine '%s' keeps its KV cache in %s, and --kv %s is none: priced by its "
                 "%.3g bits", r.engine->id, kv_types, fmt_name(p.kv), fmt_bits(p.kv));

    /* A --context below --prompt: the step is priced at fewer cached
     * positions than the prefill leaves a sequence (equal under a sliding
     * window both reach: nothing to say).  The documented use, a prefill
     * and a decode step timed apart as llama-bench's pp and tg tests are
     * (inference.md 6), stays; a step that follows this prompt is not it. */
    ctx_msg[0] = '\0';
    if (have_prompt && have_context && p.context < p.prompt &&
        gp_model_kv_positions(&model, p.context) < gp_model_kv_positions(&model, p.prompt)) {
        if (output > 0)
            snprintf(ctx_msg, sizeof ctx_msg,
                     "--context %.0f is below --prompt %.0f: the decode step is priced at %.0f "
                     "cached tokens, not the %.0f or more a sequence holds after this prompt; "
                     "the end-to-end figures' steps run at contexts %.0f on",
                     p.context, p.prompt, p.context, p.prompt, p.prompt + 1.0);
        else
            snprintf(ctx_msg, sizeof ctx_msg,
                     "--context %.0f is below --prompt %.0f: the decode step is priced at %.0f "
                     "cached tokens, not the %.0f or more a sequence holds after this prompt's "
                     "prefill (the two are priced apart, as llama-bench's pp and tg tests); give "
                     "--context %.0f or more for the steps after it, or --output N for the "
                     "whole request",
                     p.context, p.prompt, p.context, p.prompt, p.prompt);
    }

    /* The plain warnings: on stderr, or in JSON's warnings with --json. */
    if (!r.kv_counted)
        warn[nwarn++] = KV_UNKNOWN;
    if (uneven)
        warn[nwarn++] = uneven_msg;
    if (link_msg[0] != '\0')
        warn[nwarn++] = link_msg;
    if (out_msg[0] != '\0')
        warn[nwarn++] = out_msg;
    if (engine_msg[0] != '\0')
        warn[nwarn++] = engine_msg;
    if (kv_msg[0] != '\0')
        warn[nwarn++] = kv_msg;
    if (ctx_msg[0] != '\0')
        warn[nwarn++] = ctx_msg;

    /* Warnings and refusals (stderr). */
    for (wi = 0; wi < nwarn && !cli->json; wi++)
        fprintf(stderr, "gpuplan decode: warning: %s\n", warn[wi]);
    if (r.context_exceeds) {
        /* Name the option the user gave: the context defaults to --prompt. */
        int by_prompt = p.prompt > model.context.v && (!have_context || p.prompt > p.context);
        fprintf(stderr, "gpuplan decode: %s: %s %.0f%s exceeds %s's maximum context of %.0f"
                " tokens\n", strict ? "error" : "warning", by_prompt ? "--prompt" : "--context",
                by_prompt ? p.prompt : p.context,
                by_prompt && !have_context ? " (also the context)" : "", model.id,
                model.context.v);
        if (strict)
            return GP_EXIT_USAGE;
    }
    if (e2e_msg[0] != '\0') {
        fprintf(stderr, "gpuplan decode: %s: %s\n", strict ? "error" : "warning", e2e_msg);
        if (strict)
            return GP_EXIT_USAGE;
    }
    if (output > 0 && r.fits && !e2e.fits) {
        fprintf(stderr, "gpuplan decode: %s: batch %.0f does not fit at the request's end (%.0f "
                "tokens cached, --output %.0f): it needs %s of %s usable\n",
                strict ? "error" : "warning", p.batch, e2e.final_context, output,
                gp_format_qty(e2e.mem_need, GP_Q_BYTES, 2, 0, buf, sizeof buf),
                gp_format_qty(r.mem_usable, GP_Q_BYTES, 2, 0, buf2, sizeof buf2));
        if (strict)
            status = GP_EXIT_USAGE;
    } else if (p.prompt > 0 && r.fits && !r.prefill_fits) {
        /* A --context below --prompt: the step fits, the prefill that
         * precedes it holds the whole prompt (inference.md §6) -- fewer
         * positions under a sliding window. */
        double pos = gp_model_kv_positions(&model, p.prompt);
        char held[96];
        if (pos < p.prompt)
            snprintf(held, sizeof held, ": %.0f positions a sequence, its sliding window", pos);
        else
            held[0] = '\0';
        fprintf(stderr, "gpuplan decode: %s: batch %.0f does not fit during the prefill "
                "(--prompt %.0f cached%s, beyond --context %.0f): it needs %s of %s usable\n",
                strict ? "error" : "warning", p.batch, p.prompt, held, p.context,
                gp_format_qty(r.prefill_mem_need, GP_Q_BYTES, 2, 0, buf, sizeof buf),
                gp_format_qty(r.mem_usable, GP_Q_BYTES, 2, 0, buf2, sizeof buf2));
        if (strict)
            status = GP_EXIT_USAGE;
    }
    if (!r.fits_batch1) {
        fprintf(stderr,
                "gpuplan decode: %s: %s does not fit on %.0f x %s even at batch 1: it needs %s "
                "(weights %s + KV %s%s%s + runtime %s) but %s is usable: short by %s\n",
                strict ? "error" : "warning", model.id, p.gpus, gpu->id,
                gp_format_qty(r.short_bytes + r.mem_usable, GP_Q_BYTES, 2, 0, buf, sizeof buf),
                gp_format_qty(r.weight_store_bytes, GP_Q_BYTES, 2, 0, buf2, sizeof buf2),
                r.kv_counted ? gp_format_qty(r.kv_positions * r.kv_bytes_per_token *
                                                 r.kv_replicas, GP_Q_BYTES, 2, 0, note, 64)
                             : "not counted",
                r.state_bytes_per_seq > 0 ? " + state " : "",
                r.state_bytes_per_seq > 0 ? gp_format_qty(r.state_bytes_per_seq, GP_Q_BYTES, 2,
                                                          0, stbuf, sizeof stbuf)
                                          : "",
                gp_format_qty(r.runtime_overhead * p.gpus, GP_Q_BYTES, 2, 0, note + 64, 64),
                gp_format_qty(r.mem_usable, GP_Q_BYTES, 2, 0, note + 128, 64),
                gp_format_qty(r.short_bytes, GP_Q_BYTES, 2, 0, note + 192, 64));
        if (strict)
            status = GP_EXIT_USAGE;
    } else if (!r.fits) {
        fprintf(stderr, "gpuplan decode: %s: batch %.0f at context %.0f does not fit; the largest"
                " batch that fits is %.0f, the largest context at this batch %.0f\n",
                strict ? "error" : "warning", p.batch, p.context, r.max_batch, r.max_context);
        if (strict)
            status = GP_EXIT_USAGE;
    }

    if (cli->json) {
        json_t *o = json_object(), *a = json_object(), *w = json_array();
        json_object_set_new(o, "gpu", json_string(gpu->id));
        json_object_set_new(o, "model", json_string(model.id));
        json_object_set_new(o, "weights_format", json_string(fmt_name(p.weights)));
        json_object_set_new(o, "weights_bits", gp_cli_jnum(fmt_bits(p.weights)));
        json_object_set_new(o, "kv_format", json_string(fmt_name(p.kv)));
        json_object_set_new(o, "embed_format", json_string(fmt_name(r.embed_format)));
        json_object_set_new(o, "engine", json_string(r.engine->id));
        json_object_set_new(o, "engine_implied", json_boolean(r.engine_implied));
        json_object_set_new(o, "engine_backend", json_boolean(r.engine_backend));
        json_object_set_new(o, "engine_requested", json_string(r.engine_requested->id));
        json_object_set_new(o, "engine_sm_stream_bytes_per_s",
                            gp_cli_jnum(r.expected.sm_stream_bw)); /* 0: no limit */
        json_object_set_new(o, "context", gp_cli_jcount(p.context));
        json_object_set_new(o, "batch", gp_cli_jcount(p.batch));
        json_object_set_new(o, "gpus", gp_cli_jcount(p.gpus));
        json_object_set_new(o, "prompt", gp_cli_jcount(p.prompt));
        json_object_set_new(o, "split", json_string(r.split_layers ? "layer" : "tensor"));
        json_object_set_new(o, "weight_bytes", gp_cli_jnum(r.weight_bytes));
        json_object_set_new(o, "weight_store_bytes", gp_cli_jbytes(r.weight_store_bytes));
        json_object_set_new(o, "body_bytes", gp_cli_jnum(r.body_bytes));
        json_object_set_new(o, "body_params", gp_cli_jnum(r.body_params));
        json_object_set_new(o, "body_dense_params", gp_cli_jnum(r.body_dense_params));
        json_object_set_new(o, "lm_head_bytes", gp_cli_jnum(r.lm_head_bytes));
        json_object_set_new(o, "kv_bytes", gp_cli_jnum(r.kv_bytes));
        json_object_set_new(o, "kv_bytes_per_token", gp_cli_jnum(r.kv_bytes_per_token));
        json_object_set_new(o, "kv_replicas", gp_cli_jnum(r.kv_replicas));
        json_object_set_new(o, "kv_positions", gp_cli_jcount(r.kv_positions));
        json_object_set_new(o, "attn_layers", gp_cli_jcount(r.layers - r.linear_layers));
        json_object_set_new(o, "linear_layers", gp_cli_jcount(r.linear_layers));
        json_object_set_new(o, "state_bytes", gp_cli_jnum(r.state_bytes));
        json_object_set_new(o, "state_bytes_per_seq", gp_cli_jnum(r.state_bytes_per_seq));
        json_object_set_new(o, "state_stored_bytes", gp_cli_jbytes(p.batch * r.state_bytes_per_seq));
        json_object_set_new(o, "act_bytes", gp_cli_jnum(r.act_bytes));
        json_object_set_new(o, "layers", gp_cli_jcount(r.layers));
        json_object_set_new(o, "hidden", gp_cli_jcount(r.hidden));
        json_object_set_new(o, "shape_inferred", json_boolean(r.shape_inferred));
        json_object_set_new(o, "bytes_per_step", gp_cli_jnum(r.bytes_per_step));
        json_object_set_new(o, "bytes_per_token", gp_cli_jnum(r.bytes_per_token));
        json_object_set_new(o, "flop_per_step", gp_cli_jnum(r.flop));
        json_object_set_new(o, "attn_flop", gp_cli_jnum(r.attn_flop));
        json_object_set_new(o, "linear_flop", gp_cli_jnum(r.linear_flop));
        json_object_set_new(o, "dequant_flop", gp_cli_jnum(r.dequant_flop));
        json_object_set_new(o, "dequant_scale", gp_cli_jnum(r.dequant_scale));
        json_object_set_new(o, "active_params", gp_cli_jnum(r.active_params));
        json_object_set_new(o, "flop_params", gp_cli_jnum(r.flop_params));
        json_object_set_new(o, "experts_touched", gp_cli_jnum(r.experts_touched));
        json_object_set_new(o, "moe_layers", gp_cli_jcount(r.moe_layers));
        json_object_set_new(o, "precision", json_string(gp_precision_name(r.precision)));
        json_object_set_new(o, "pipeline", json_string(gp_pipeline_name(r.pipeline)));
        json_object_set_new(o, "ceiling_tokens_per_s", gp_cli_jnum(r.ceiling.tokens_per_s));
        json_object_set_new(o, "expected_tokens_per_s", gp_cli_jnum(r.expected.tokens_per_s));
        json_object_set_new(o, "aggregate_ceiling_tokens_per_s",
                            gp_cli_jnum(r.ceiling.aggregate_tokens_per_s));
        json_object_set_new(o, "aggregate_expected_tokens_per_s",
                            gp_cli_jnum(r.expected.aggregate_tokens_per_s));
        /* Cost keys only when a price is known (no price: no keys). */
        if (r.expected.usd_per_mtok > 0) {
            json_object_set_new(o, "expected_usd_per_mtok", gp_cli_jnum(r.expected.usd_per_mtok));
            json_object_set_new(o, "ceiling_usd_per_mtok", gp_cli_jnum(r.ceiling.usd_per_mtok));
            json_object_set_new(o, "price_src",
                                json_string(p.price > 0 ? "--price"
                                                        : src_or(gpu->rent.src, "hwdb rent")));
        }
        json_object_set_new(o, "ceiling_step_s", gp_cli_jnum(r.ceiling.step_s));
        json_object_set_new(o, "expected_step_s", gp_cli_jnum(r.expected.step_s));
        /* bound: the roofline sense (which roof the step's streaming part
         * sits under); binding: the largest ledger account, which may be
         * movement (fixed per-layer costs, AllReduces). */
        json_object_set_new(o, "bound", json_string(roof_bound(&r.expected)));
        json_object_set_new(o, "ceiling_bound", json_string(roof_bound(&r.ceiling)));
        json_object_set_new(o, "binding",
                            json_string(gp_account_name(r.expected.ledger.binding)));
        json_object_set_new(o, "movement_largest", json_string(movement_largest(&r.expected)));
        json_object_set_new(o, "ttft_s", gp_cli_jnum(r.expected.ttft_s));
        json_object_set_new(o, "ceiling_ttft_s", gp_cli_jnum(r.ceiling.ttft_s));
        json_object_set_new(o, "prefill_flop", gp_cli_jnum(r.prefill_flop));
        json_object_set_new(o, "prefill_attention",
                            json_string(r.attn_unfused ? "unfused" : "flash"));
        if (r.prefill_expert_rows > 0) {
            json_object_set_new(o, "prefill_experts_touched",
                                gp_cli_jnum(r.prefill_experts_touched));
            json_object_set_new(o, "prefill_expert_rows", gp_cli_jnum(r.prefill_expert_rows));
        }
        if (output > 0) {
            /* End to end (inference.md 5.2); the ceiling's keys carry the
             * ceiling_ prefix, as ttft_s / ceiling_ttft_s. */
            static const char *const pre[2] = {"", "ceiling_"};
            int sd;
            json_object_set_new(o, "output", gp_cli_jcount(output));
            json_object_set_new(o, "e2e_prompt", gp_cli_jcount(e2e.prompt));
            json_object_set_new(o, "e2e_final_context", gp_cli_jcount(e2e.final_context));
            json_object_set_new(o, "e2e_method",
                                json_string(e2e.summed ? "summed" : "closed_form"));
            for (sd = 0; sd < 2; sd++) {
                const gp_infer_e2e_side *es = sd ? &e2e.ceiling : &e2e.expected;
                char k[64];
#define E2EKEY(name, v)                                                         \
    snprintf(k, sizeof k, "%s" name, pre[sd]);                                  \
    json_object_set_new(o, k, gp_cli_jnum(v));
                E2EKEY("e2e_latency_s", es->latency_s)
                E2EKEY("e2e_ttft_s", es->ttft_s)
                E2EKEY("e2e_decode_s", es->decode_s)
                E2EKEY("e2e_output_tokens_per_s", es->output_tokens_per_s)
                E2EKEY("e2e_total_tokens_per_s", es->total_tokens_per_s)
                E2EKEY("mean_step_s", es->mean_step_s)
                E2EKEY("e2e_first_step_s", es->first_step_s)
                E2EKEY("e2e_last_step_s", es->last_step_s)
                E2EKEY("e2e_crossover_context", es->crossover_context)
#undef E2EKEY
            }
            json_object_set_new(o, "e2e_context_exceeds_model",
                                json_boolean(e2e.context_exceeds));
            json_object_set_new(o, "e2e_fits", json_boolean(e2e.fits));
        }
        json_object_set_new(o, "ridge_batch", gp_cli_jnum(r.expected.ridge_batch));
        json_object_set_new(o, "ceiling_ridge_batch", gp_cli_jnum(r.ceiling.ridge_batch));
        /* The first whole batch at which compute binds, and whether it fits
         * (null: never compute-bound, or the fit unknown without the KV). */
        json_object_set_new(o, "compute_bound_batch", gp_cli_jcount(ridge_whole));
        json_object_set_new(o, "compute_bound_batch_fits",
                            isinf(ridge_whole) || !r.kv_counted
                                ? json_null()
                                : json_boolean(ridge_whole <= r.max_batch));
        json_object_set_new(o, "fits", json_boolean(r.fits));
        /* What `fits` covers: without the shape no KV cache is counted
         * (then max_batch and max_context are null for want of it). */
        json_object_set_new(o, "kv_counted", json_boolean(r.kv_counted));
        json_object_set_new(o, "fits_scope",
                            json_string(r.kv_counted ? "weights_and_kv" : "weights_only"));
        json_object_set_new(o, "fits_batch1", json_boolean(r.fits_batch1));
        json_object_set_new(o, "prefill_fits", json_boolean(r.prefill_fits));
        json_object_set_new(o, "memory_need_bytes", gp_cli_jbytes(r.mem_need));
        json_object_set_new(o, "memory_usable_bytes", gp_cli_jbytes(r.mem_usable));
        json_object_set_new(o, "runtime_overhead_bytes", gp_cli_jbytes(r.runtime_overhead));
        json_object_set_new(o, "short_bytes", gp_cli_jbytes(r.short_bytes > 0 ? r.short_bytes : 0));
        json_object_set_new(o, "max_batch", gp_cli_jcount(r.max_batch));
        json_object_set_new(o, "max_context", gp_cli_jcount(r.max_context));
        json_object_set_new(o, "kv_dominates", json_boolean(r.kv_dominates));
        json_object_set_new(o, "context_exceeds_model", json_boolean(r.context_exceeds));
        json_object_set_new(o, "comm_bytes", gp_cli_jnum(r.comm_bytes));
        json_object_set_new(o, "comm_algo", json_string(p.gpus > 1 && !r.split_layers
                                                             ? gp_coll_algo_name(r.comm_algo)
                                                             : "none"));
        json_object_set_new(o, "link", p.link ? json_string(p.link->id) : json_null());
        json_object_set_new(o, "scale_out", nodes ? json_string(p.scale_out->id) : json_null());
        json_object_set_new(o, "gpus_per_node", json_integer((json_int_t)node));
        json_object_set_new(o, "ledger", gp_cli_jledger(&r.expected.ledger));
        json_object_set_new(o, "ceiling", jside(&r.ceiling));
        json_object_set_new(o, "expected", jside(&r.expected));
        json_object_set_new(a, "mem_bw_src", json_string(src_or(gpu->mem_bw.src, "hwdb")));
        json_object_set_new(a, "achievable_bw_src",
                            json_string(achievable_src(gpu)));
        json_object_set_new(a, "decode_eff_src", json_string(r.eff_src));
        json_object_set_new(a, "layer_overhead_src", json_string(r.overhead_src));
        json_object_set_new(a, "runtime_overhead_src",
                            json_string(p.runtime_overhead >= 0 ? "--runtime-overhead"
                                                                : "gpuplan default 1 GiB"));
        json_object_set_new(o, "assumptions", a);
        if (r.context_exceeds)
            json_array_append_new(w, json_string("context exceeds the model's maximum"));
        if (!r.fits_batch1)
            json_array_append_new(w, json_string("does not fit even at batch 1"));
        else if (!r.fits)
            json_array_append_new(w, json_string("batch does not fit at this context"));
        if (r.kv_dominates)
            json_array_append_new(w, json_string("KV cache dominates the weights: more KV "
                                                 "cache than weights read per step"));
        for (wi = 0; wi < nwarn; wi++)
            json_array_append_new(w, json_string(warn[wi]));
        if (mla)
            json_array_append_new(w, json_string(MLA_NOTE));
        if (e2e_msg[0] != '\0')
            json_array_append_new(w, json_string(e2e_msg));
        if (output > 0 && r.fits && !e2e.fits)
            json_array_append_new(w, json_string("batch does not fit at the request's end "
                                                 "(prompt + output tokens cached)"));
        else if (p.prompt > 0 && r.fits && !r.prefill_fits)
            json_array_append_new(w, json_string("batch does not fit during the prefill "
                                                 "(prompt tokens cached)"));
        json_object_set_new(o, "warnings", w);
        if (measured > 0.0) {
            json_t *dj = gp_cli_jdiag(&diag, DECODE_IDLE);
            json_object_set_new(dj, "measured_tokens_per_s", gp_cli_jnum(measured));
            json_object_set_new(o, "diagnosis", dj);
        }
        if (gp_cli_emit(o) != 0)
            return GP_EXIT_FAIL;
        return status;
    }

    /* Table. */
    printf("decode: %s on %.0f x %s, weights %s (%.4g bits), KV %s (%.4g bits), context %.0f,"
           " batch %.0f, engine %s\n", model.id, p.gpus, gpu->id, fmt_name(p.weights),
           fmt_bits(p.weights), fmt_name(p.kv), fmt_bits(p.kv), p.context, p.batch,
           r.engine->id);
    printf("bytes per decode step (all GPUs):\n");
    if (p.weights != NULL && p.weights->dense != NULL)
        snprintf(note, sizeof note, "%.4g expert params x %.4g bits + %.4g others x %.4g (%s)",
                 r.body_params - r.body_dense_params, fmt_bits(p.weights), r.body_dense_params,
                 fmt_bits(p.weights->dense), p.weights->dense->id);
    else
        snprintf(note, sizeof note, "%.4g params touched x %.4g bits", r.body_params,
                 fmt_bits(p.weights));
    qrow("weights: body", r.body_bytes, GP_Q_BYTES, 2, note);
    snprintf(note, sizeof note, "lm_head%s at %s (%s)",
             model.tied_embeddings ? " (tied: read once)" : " + embedding rows",
             fmt_name(r.embed_format),
             p.embed == NULL && r.embed_format != NULL ? "the weights format's output matrix"
                                                       : "--embed-format");
    qrow("weights: lm_head", r.lm_head_bytes, GP_Q_BYTES, 2, note);
    if (r.kv_positions < p.context)
        snprintf(buf2, sizeof buf2, "%.0f positions (window %.0f)", r.kv_positions,
                 model.window.v);
    else
        snprintf(buf2, sizeof buf2, "%.0f tokens", p.context);
    snprintf(note, sizeof note, "%.0f seq x %s x %s/token (%s, %.4g bits)", p.batch, buf2,
             gp_format_qty(r.kv_bytes_per_token, GP_Q_BYTES, 1, 1, buf, sizeof buf),
             fmt_name(p.kv), fmt_bits(p.kv));
    if (r.kv_replicas > 1) {
        size_t n = strlen(note);
        snprintf(note + n, sizeof note - n, " x %.4g copies (each GPU holds whole KV heads)",
                 r.kv_replicas);
    }
    if (r.linear_layers > 0) {
        size_t n = strlen(note);
        snprintf(note + n, sizeof note - n, "; %.0f of %.0f layers attend", r.layers -
                 r.linear_layers, r.layers);
    }
    if (r.kv_counted)
        qrow("KV cache", r.kv_bytes, GP_Q_BYTES, 2, note);
    else
        gp_cli_row("KV cache", "not counted", KV_UNKNOWN_ROW);
    if (r.linear_layers > 0) {
        snprintf(note, sizeof note, "%.0f seq x %s read + written: %.0f linear-attention layers' "
                 "state at %s, any context", p.batch,
                 gp_format_qty(r.state_bytes_per_seq, GP_Q_BYTES, 2, 0, buf, sizeof buf),
                 r.linear_layers,
                 model.linear_state_bytes.v > 0 ? "the entry's linear.state_bytes" : "16 bits");
        qrow("recurrent state", r.state_bytes, GP_Q_BYTES, 2, note);
    }
    qrow("activations", r.act_bytes, GP_Q_BYTES, 2, "~(10 hidden + 4 ffn) x 2 B per layer");
    if (r.shape_inferred) {
        snprintf(buf, sizeof buf, "%.0f x %.0f", r.layers, r.hidden);
        gp_cli_row("shape: layers x hidden", buf,
                   "guessed from N = 12 L h^2 (docs/models/training.md 3.4) for the per-layer"
                   " costs; give --model or --layers/--hidden");
    }
    qrow("total per step", r.bytes_per_step, GP_Q_BYTES, 2, NULL);
    qrow("per generated token", r.bytes_per_token, GP_Q_BYTES, 2, NULL);
    snprintf(note, sizeof note, "2 x %.4g matmul params (layers + output; the input "
             "embedding is a lookup) x batch + attention%s", r.flop_params,
             r.linear_flop > 0 ? " + linear recurrence" : "");
    qrow("FLOPs per step", r.flop, GP_Q_FLOP, 2, note);
    if (r.dequant_flop > 0) {
        const int per_seq = r.engine != NULL && r.engine->dequant_per_seq &&
                            p.batch <= GP_INFER_MMVQ_MAX_BATCH;
        char sc[64] = "";
        if (r.dequant_scale != 1.0)
            snprintf(sc, sizeof sc, ", %.3g x Q4_0's unpacking per weight", r.dequant_scale);
        snprintf(note, sizeof note, "%s%s%s",
                 gpu->vendor != NULL && strcmp(gpu->vendor, "NVIDIA") == 0
                     ? "CUDA cores (fp32 rate)"
                     : "vector ALUs (fp32 rate)",
                 sc,
                 !per_seq ? ""
                 : r.dequant_scale > 1.0
                     ? ", each sequence unpacks its own at Q4_0's cost (x batch), the rest once"
                     : ", each sequence unpacks its own (x batch)");
        qrow("dequant FLOPs per step", r.dequant_flop, GP_Q_FLOP, 2, note);
    }
    if (r.experts_touched > 0) {
        snprintf(buf, sizeof buf, "%.2f", r.experts_touched);
        gp_cli_row("MoE experts touched/layer", buf, "E x (1 - (1 - k/E)^batch)");
    }
    if (mla)
        printf("  note: %s\n", MLA_NOTE);
    if (r.kv_dominates) {
        /* Like with like: both are bytes read per step.  A MoE model reads
         * the experts its batch touches, fewer than it holds. */
        char held[96] = "";
        if (r.moe_layers > 0.0 && r.weight_store_bytes > r.weight_bytes) {
            char hb[32];
            snprintf(held, sizeof held, ": the experts this batch touches, of %s held",
                     gp_format_qty(r.weight_store_bytes, GP_Q_BYTES, 2, 0, hb, sizeof hb));
        }
        printf("  note: the KV cache read each step (%s) now dominates the weights read each"
               " step (%s%s): context and batch, not model size, set the speed; a narrower --kv"
               " cuts it\n",
               gp_format_qty(r.kv_bytes, GP_Q_BYTES, 2, 0, buf, sizeof buf),
               gp_format_qty(r.weight_bytes, GP_Q_BYTES, 2, 0, buf2, sizeof buf2), held);
    }
    printf("\n");
    print_side("ceiling: datasheet bandwidth and peak, zero overhead", &r.ceiling, p.batch,
               p.gpus <= 1 ? "0: a ceiling has no per-layer overhead and one GPU no link"
               : r.split_layers
                   ? "layer hand-offs at datasheet link bandwidth, zero latency (added)"
                   : "AllReduces at datasheet link bandwidth, zero latency (added)",
               r.split_layers);
    if (r.kv_replicas > 1 && r.kv_bytes > 0)
        printf("  the ceiling reads one copy of the KV cache (data-parallel attention needs no "
               "more); the expected figure reads the %.4g copies\n",
               r.kv_replicas);
    printf("\n");
    print_side("expected: achievable bandwidth x engine efficiency + overhead", &r.expected,
               p.batch,
               p.gpus <= 1      ? "per-layer fixed costs, added to the step (not overlapped)"
               : r.split_layers ? "per-layer fixed costs + layer hand-offs, added to the step"
                                : "per-layer fixed costs + AllReduces, added to the step",
               r.split_layers);
    printf("\n");
    if (p.prompt > 0) {
        snprintf(note, sizeof note, "%.0f-token prompt x %.0f: %s", p.prompt, p.batch,
                 gp_format_qty(r.prefill_flop, GP_Q_FLOP, 2, 0, buf, sizeof buf));
        if (r.expected.prefill_rate < r.expected.prefill_peak) {
            size_t l = strlen(note);
            int capped =
                r.expected.prefill_rate < r.expected.prefill_peak * r.expected.prefill_eff;
            snprintf(note + l, sizeof note - l, ", matmuls at %.2f of the expected rate (%s)",
                     r.expected.prefill_rate / r.expected.prefill_peak,
                     capped                ? "the engine's per-SM prefill rate"
                     : p.prefill_eff > 0.0 ? "--prefill-eff"
                                           : "engine");
        }
        qrow("time to first token", r.expected.ttft_s, GP_Q_DURATION, 3, note);
        if (r.expected.prefill_gemm_s > 0.0)
            qrow("  layer GEMMs", r.expected.prefill_gemm_s, GP_Q_DURATION, 3,
                 "each on its roofline, wave-quantised over the SMs (inference.md 5.4)");
        if (r.expected.prefill_score_s > 0.0)
            qrow("  unfused scores", r.expected.prefill_score_s, GP_Q_DURATION, 3,
                 "8 B a score through memory, the whole P x P square (inference.md 5.5)");
        qrow("  ceiling", r.ceiling.ttft_s, GP_Q_DURATION, 3, NULL);
    }
    if (r.prefill_expert_rows > 0) {
        snprintf(buf, sizeof buf, "%.1f", r.prefill_expert_rows);
        snprintf(note, sizeof note, "batch x prompt x k / %.2f experts touched; expected: each "
                 "expert GEMM on its roofline", r.prefill_experts_touched);
        gp_cli_row("prefill rows per expert", buf, note);
    }

    /* A whole batch (the ridge, rounded up), and said when no batch that
     * large fits at this context. */
    if (isinf(ridge_whole))
        snprintf(buf, sizeof buf, "never");
    else if (r.kv_counted && ridge_whole > r.max_batch && r.max_batch <= 0.0)
        snprintf(buf, sizeof buf, "%.0f (no batch fits)", ridge_whole);
    else if (r.kv_counted && ridge_whole > r.max_batch)
        snprintf(buf, sizeof buf, "%.0f (beyond the %.0f that fit)", ridge_whole, r.max_batch);
    else
        snprintf(buf, sizeof buf, "%.0f", ridge_whole);
    snprintf(note, sizeof note, "ridge %.1f: FLOPs/peak = bytes/bandwidth (expected figures)",
             r.expected.ridge_batch);
    gp_cli_row("compute-bound from batch", buf,
               isinf(ridge_whole) ? "ridge: FLOPs/peak = bytes/bandwidth (expected figures)"
                                  : note);
    if (output > 0)
        print_e2e(&e2e, output);
    printf("\nmemory (%.0f GPU%s):\n", p.gpus, p.gpus > 1 ? "s" : "");
    qrow("weights stored", r.weight_store_bytes, GP_Q_BYTES, 2, NULL);
    if (r.kv_counted)
        qrow("KV cache stored", p.batch * r.kv_positions * r.kv_bytes_per_token * r.kv_replicas,
             GP_Q_BYTES, 2,
             r.kv_replicas > 1 ? "with the copies tensor parallelism keeps (above)" : NULL);
    else
        gp_cli_row("KV cache stored", "not counted", KV_UNKNOWN_ROW);
    if (r.linear_layers > 0) {
        snprintf(note, sizeof note, "%.0f seq x %s, whatever the context", p.batch,
                 gp_format_qty(r.state_bytes_per_seq, GP_Q_BYTES, 2, 0, buf, sizeof buf));
        qrow("recurrent state stored", p.batch * r.state_bytes_per_seq, GP_Q_BYTES, 2, note);
    }
    qrow("runtime overhead", r.runtime_overhead * p.gpus, GP_Q_BYTES, 2,
         p.runtime_overhead >= 0 ? "--runtime-overhead" : "1 GiB per GPU (gpuplan default)");
    qrow("need", r.mem_need, GP_Q_BYTES, 2, NULL);
    qrow("usable", r.mem_usable, GP_Q_BYTES, 2, src_or(gpu->mem_usable.src, gpu->mem_capacity.src));
    /* Without the KV cache the fit is the weights': a "no" stands, a "yes"
     * is only theirs (inference.md 6). */
    gp_cli_row("fits", !r.fits ? "no" : r.kv_counted ? "yes" : "weights only",
               !r.fits_batch1 ? "not even at batch 1"
               : !r.kv_counted ? "the KV cache is not counted without the shape"
                               : NULL);
    if (p.prompt > 0 && !r.prefill_fits) {
        snprintf(note, sizeof note, "needs %s with the %.0f-token prompt cached",
                 gp_format_qty(r.prefill_mem_need, GP_Q_BYTES, 2, 0, buf, sizeof buf), p.prompt);
        gp_cli_row("prefill fits", "no", note);
    }
    /* Labels fit gp_cli_row's 28-character column. */
    snprintf(buf, sizeof buf, "%.0f", r.max_batch);
    gp_cli_row("max batch at this context",
               !r.kv_counted ? "unknown (no shape)" : isinf(r.max_batch) ? "unbounded" : buf,
               NULL);
    snprintf(buf, sizeof buf, "%.0f", r.max_context);
    snprintf(note, sizeof note, "beyond the model's %.0f-token context", model.context.v);
    gp_cli_row("max context at this batch",
               !r.kv_counted ? "unknown (no shape)" : isinf(r.max_context) ? "unbounded" : buf,
               r.kv_counted && model.context.v > 0 && r.max_context > model.context.v ? note
                                                                                     : NULL);
    printf("\nassumptions:\n");
    qrow("memory bandwidth", gpu->mem_bw.v, GP_Q_RATE, 3, src_or(gpu->mem_bw.src, "hwdb"));
    if (p.price > 0 || gpu->rent.v > 0) {
        char usd[32];
        snprintf(buf, sizeof buf, "%s/GPU-h",
                 gp_cli_usd(p.price > 0 ? p.price : gpu->rent.v, usd, sizeof usd));
        gp_cli_row("rent", buf, p.price > 0 ? "--price" : src_or(gpu->rent.src, "hwdb rent"));
    }
    qrow("achievable bandwidth", gp_gpu_expected_mem_bw(gpu), GP_Q_RATE, 3, achievable_src(gpu));
    snprintf(note, sizeof note, "%s %s%s%s", gp_precision_name(r.ceiling.peak_precision),
             gp_pipeline_name(gp_gpu_default_pipeline(gpu, r.ceiling.peak_precision)),
             r.ceiling.peak_accum == GP_ACC_FP16 ? ", fp16 accumulate" : "",
             r.ceiling.peak_precision != r.precision
                 ? " (the format's mma path, the ceiling's rate)"
                 : "");
    qrow("matmul peak", r.ceiling.peak, GP_Q_FLOPS, gp_cli_sig_digits(r.ceiling.peak, 4), note);
    {
        /* The expected figure's own precision (the format's compute), not
         * the ceiling's mma path: Q4_0's expected rate is fp16 x
         * efficiency.compute, though its ceiling runs on int8. */
        gp_precision pp = r.expected.peak_precision;
        qrow("  expected", r.expected.peak, GP_Q_FLOPS, gp_cli_sig_digits(r.expected.peak, 4),
             src_or(gp_gpu_expected_peak_src(gpu, pp, gp_gpu_default_pipeline(gpu, pp)),
                    "hwdb efficiency.compute"));
    }
    snprintf(buf, sizeof buf, "%.2f weights, %.2f KV", r.expected.eff_weights,
             r.expected.eff_other);
    gp_cli_row("decode efficiency", buf,
               r.engine != NULL && r.eff_src == r.engine->src ? "engine profile (below)"
                                                              : r.eff_src);
    if (r.expected.sm_limited) {
        snprintf(note, sizeof note, "%.0f SMs x %.1f GB/s: the engine's kernels, not the memory, "
                 "limit the stream (Little's law)", gpu->sm_count.v, r.engine->sm_bw / 1e9);
        qrow("per-SM stream limit", r.expected.sm_stream_bw, GP_Q_RATE, 3, note);
    }
    snprintf(note, sizeof note, "x %.0f layers; %s", r.layers,
             r.engine != NULL && r.overhead_src == r.engine->src
                 ? "engine profile at 2 GHz, scaled by 2 GHz / boost clock"
                 : r.overhead_src);
    qrow("per-layer overhead", r.expected.layer_overhead_s, GP_Q_DURATION, 1, note);
    if (r.moe_layers > 0) {
        snprintf(note, sizeof note, "x %.0f MoE layers, on top: router, top-k, expert GEMVs; %s",
                 r.moe_layers,
                 p.moe_layer_overhead >= 0 ? "--moe-layer-overhead"
                                           : "engine profile at 2 GHz, scaled by 2 GHz / boost");
        qrow("MoE layer overhead", r.expected.moe_overhead_s, GP_Q_DURATION, 1, note);
    }
    if (p.link != NULL && p.gpus > 1) {
        /* Over nodes: "nvlink4 x 8 + ib-ndr" */
        char via[128];
        if (nodes && node == 1)
            snprintf(via, sizeof via, "%s between %.0f nodes of one GPU", p.scale_out->id,
                     p.gpus);
        else if (nodes)
            snprintf(via, sizeof via, "%s in nodes of %.0f + %s between %.0f nodes", p.link->id,
                     node, p.scale_out->id, p.gpus / node);
        else
            snprintf(via, sizeof via, "%s", p.link->id);
        if (!r.split_layers) {
            snprintf(note, sizeof note,
                     "%s: 2 x %.0f %s AllReduces of %s (collectives model%s); %s", via, r.layers,
                     gp_coll_algo_name(r.comm_algo),
                     gp_format_qty(r.comm_bytes, GP_Q_BYTES, 1, 0, buf, sizeof buf),
                     p.link->p2p ? "" : ", staged through host memory",
                     src_or(nodes && node == 1 ? p.scale_out->latency.src
                                                          : p.link->latency.src,
                            "hwdb"));
            qrow("tensor-parallel comm", r.expected.comm_s, GP_Q_DURATION, 1, note);
        } else {
            snprintf(note, sizeof note, "layer split: %.0f hand-off%s of %s over %s, GPUs take "
                     "turns", p.gpus - 1, p.gpus > 2 ? "s" : "",
                     gp_format_qty(r.comm_bytes, GP_Q_BYTES, 1, 0, buf, sizeof buf), via);
            qrow("layer-split comm", r.expected.comm_s, GP_Q_DURATION, 1, note);
        }
    }
    if (r.engine != NULL && r.engine_backend && r.engine_requested == gp_engine_default())
        printf("  engine %s (what the default profile runs as on %s GPUs, where its CUDA-graph "
               "servers do not run; --engine to choose another): %s\n",
               r.engine->id, gpu->vendor ? gpu->vendor : "these", r.engine->src);
    else if (r.engine != NULL && r.engine_backend)
        printf("  engine %s (the %s profile's build for %s GPUs%s%s): %s\n", r.engine->id,
               r.engine_requested->id, gpu->vendor ? gpu->vendor : "these",
               r.engine_implied ? ", implied by the weights" : "",
               strcmp(r.engine_requested->id, "llama.cpp") == 0 &&
                       strcmp(r.engine->id, "llama.cpp-metal") != 0
                   ? "; --engine llama.cpp-vulkan for Vulkan"
                   : "",
               r.engine->src);
    else if (r.engine != NULL && r.engine_implied)
        printf("  engine %s (implied by the %s weights; --engine to choose another): %s\n",
               r.engine->id, fmt_name(p.weights), r.engine->src);
    else if (r.engine != NULL)
        printf("  engine %s: %s\n", r.engine->id, r.engine->src);
    if (measured > 0.0) {
        snprintf(note, sizeof note, "measured %.4g tok/s per stream = %s per step", measured,
                 gp_format_qty(1.0 / measured, GP_Q_DURATION, 3, 0, buf, sizeof buf));
        printf("\n");
        gp_cli_print_diagnosis(note, &diag, DECODE_IDLE);
    }
    return status;
}

const gp_cli_command gp_cli_cmd_decode = {
    "decode", "decode tokens/s, KV cache, prefill and memory fit for a model", run, 0};
