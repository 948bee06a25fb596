/* gpuplan train: FLOPs, GPU-days, wall-clock, memory per GPU and cost of a
 * training run (docs/models/training.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gpuplan train --gpu ID --tokens D (--model ID | --params N) [options]\n"
        "\n"
        "How many GPU-days, how long on N GPUs, how much memory per GPU and what\n"
        "it costs.  Time = model FLOPs / (dense peak x MFU).\n"
        "\n"
        "  --gpu ID              GPU (database id or alias: h100, a100, 4090)\n"
        "  --gpus N              GPUs in the run (default 1)\n"
        "  --model ID            model shape from the database, or a Hugging Face\n"
        "                        config.json (FILE.json: converted for this run)\n"
        "  --params N            parameter count instead of a model (7B, 175e9)\n"
        "    --layers L --hidden H --heads A --kv-heads K --head-dim D --vocab V\n"
        "    --ffn F --ffn-kind gated|plain --tied\n"
        "                        a shape (its parameters are counted; with --model it\n"
        "                        overrides the model's fields, and --params replaces\n"
        "                        the count; gated is the default FFN, swiglu and gelu\n"
        "                        are accepted as gated and plain; --ffn on a MoE\n"
        "                        model is its dense layers' width, not the experts')\n"
        "  --tokens D            training tokens (300B, 2T)\n"
        "  --mfu U               model FLOPs utilisation in (0,1], used as given; or\n"
        "                        'model': predict it from a step-time model (see\n"
        "                        below).  Default: the GPU's database figure, else\n"
        "                        0.40, quoted on the PaLM count at selective recompute\n"
        "                        and restated for the run's count, sequence and\n"
        "                        recompute (llama-2-7b on h100: 0.40 -> 0.345)\n"
        "  --precision P         bf16 (default; fp16 on a GPU without bf16, else tf32,\n"
        "                        fp32), fp16, fp8, fp4, tf32, fp32\n"
        "  --exact               count FLOPs per layer (attention, logits) instead of 6ND\n"
        "  --causal              count half the s^2 attention FLOPs (with --exact)\n"
        "  --recompute R         none | selective (default) | full | block:N (full\n"
        "                        recompute of N layers of each pipeline stage's model\n"
        "                        chunk, the rest kept whole: Megatron-LM\n"
        "                        --recompute-method block --recompute-num-layers N)\n"
        "  --zero Z              ZeRO stage 0 (default), 1, 2 or 3 over data parallel\n"
        "                        (2 or 3 with --pp > 1 is priced with a warning:\n"
        "                        DeepSpeed refuses it)\n"
        "  --tp T, --pp P        tensor / pipeline parallel degrees (default 1)\n"
        "  --cp C                context-parallel degree (default 1): each GPU holds\n"
        "                        s/C of every sequence, attention passes K and V round\n"
        "                        a ring (dense models, flash attention; 2C divides s)\n"
        "  --ep E                expert-parallel degree for a mixture-of-experts model\n"
        "                        (default 1): each GPU holds experts/E of the routed\n"
        "                        experts; the E ranks come from the data-parallel group\n"
        "                        (Megatron-core), so E divides dp and the expert count\n"
        "  --no-sequence-parallel  keep activations replicated across tensor ranks\n"
        "  --optimizer O         adam (default, 16 B/param) | adam8bit | sgd\n"
        "  --lora-params N       adapter fine-tuning of a frozen base (N adapter params)\n"
        "  --base-format FMT     the frozen base's storage (QLoRA: nf4; default the\n"
        "                        training precision)\n"
        "  --seq S               sequence length (default: the model's pre-training\n"
        "                        sequence, else its context up to 8192, else 2048)\n"
        "  --micro-batch B       sequences per GPU per micro-step (default 1)\n");
    fprintf(f,
        "step-time model (--mfu model; needs a shape: --model, or --params inferred):\n"
        "  --global-batch B      sequences per optimizer step, all GPUs, or tokens with a\n"
        "                        'tok' suffix and a whole number of sequences (16Mitok:\n"
        "                        4096 x 4096); a multiple of dp x micro-batch\n"
        "                        (default: 4M tokens rounded to such a multiple)\n"
        "  --scale-up ID         link inside a node (default: the GPU's scale-up link,\n"
        "                        else its host link)\n"
        "  --link-bw RATE        without --scale-up: a link of your own inside a node,\n"
        "                        RATE per direction per GPU; with it: its expected rate\n"
        "  --link-latency T      that link's alpha per hop (--link-bw alone: 0)\n"
        "  --scale-out ID        link between nodes (ib-ndr, roce-400, efa-p5); needed\n"
        "                        when the GPUs span nodes\n"
        "  --gpus-per-node G     GPUs per node (default: a switched scale-up link's whole\n"
        "                        domain -- DGX-2 16, GB200 NVL72 72 --, else 8, capped\n"
        "                        by the link)\n"
        "  --nics-per-node K     scale-out ports per node (default: one per GPU when the\n"
        "                        scale-up link is NVLink or Infinity Fabric, else 1)\n"
        "  --interleave V        virtual pipeline stages per GPU (default 1)\n"
        "  --attention A         flash (default) | unfused (s x s scores in memory)\n"
        "  --attention-eff F     the fused attention kernel's rate / the expected GEMM\n"
        "                        rate, in [0.05, 1] (default 0.70; cuDNN 0.66, FA3 0.72,\n"
        "                        FlashAttention-2 on Hopper 0.41: training.md 9.1)\n"
        "  --fp8-scaling S       8- and 4-bit training's scaling: current (default; an\n"
        "                        amax pass reads each tensor before its cast, as\n"
        "                        Transformer Engine's current scaling and torchao's\n"
        "                        dynamic scaling do) | delayed (the scale from earlier\n"
        "                        steps' amax history: no extra pass)\n"
        "  --no-dp-overlap       gradient AllReduce after the backward pass, not during\n"
        "  --moe-imbalance F     MoE: tokens on the busiest expert rank / its balanced\n"
        "                        share, in [1, min(ep, experts/active)] (default 1;\n"
        "                        scales its expert GEMMs\n"
        "                        and all-to-all bytes)\n"
        "  --moe-dispatch D      MoE: alltoall (default: every routed copy crosses to\n"
        "                        its expert's GPU) | dedup (a token crosses to each\n"
        "                        other node once and is forwarded there: DeepEP,\n"
        "                        DeepSeek-V3)\n"
        "  --moe-node-limit M    with dedup: a token's experts on at most M nodes\n"
        "                        (DeepSeek-V3's node-limited routing: 4)\n"
        "  --moe-overlap         MoE: each micro-batch's all-to-all runs under the\n"
        "                        adjacent one's computation, its kernels on 20 SMs\n"
        "                        (DeepEP's default; Megatron-core combined 1F1B,\n"
        "                        --overlap-moe-expert-parallel-comm; DualPipe)\n"
        "profile mode (extrapolate a measured run):\n"
        "  --step-time S         measured seconds per optimizer step (2s, 350ms)\n"
        "  --tokens-per-step T   tokens per step over all GPUs\n"
        "  --batch B             or: sequences per step over all GPUs (x --seq)\n"
        "cost:\n"
        "  --price P             rent, USD per GPU-hour (default: database)\n"
        "  --purchase P          purchase price, USD per GPU (default: database)\n"
        "  --years Y             amortisation period (default 3)\n"
        "  --pue P               data-centre PUE (default 1.2)\n"
        "  --kwh-price C         USD per kWh (default 0.08)\n"
        "\n"
        "example: gpuplan train --gpu h100 --gpus 1024 --params 175B --tokens 300B --mfu 0.5\n");
}

enum {
    O_GPU = 256, O_GPUS, O_MODEL, O_PARAMS, O_TOKENS, O_MFU, O_PREC, O_EXACT, O_CAUSAL,
    O_RECOMP, O_ZERO, O_TP, O_PP, O_NOSP, O_OPT, O_LORA, O_SEQ, O_MB, O_STEP, O_TPS,
    O_BATCH, O_PRICE, O_PURCHASE, O_YEARS, O_PUE, O_KWH, O_GB, O_SUP, O_SOUT, O_GPN,
    O_NICS, O_INTERLEAVE, O_ATTN, O_NODPOV, O_EP, O_IMB, O_CP, O_LAYERS, O_HIDDEN, O_HEADS,
    O_KVHEADS, O_HEADDIM, O_VOCAB, O_FFN, O_FFNKIND, O_TIED, O_DISPATCH, O_NODELIM, O_MOEOVL, O_BASEFMT,
    O_LINK_BW, O_LINK_LAT, O_AEFF, O_FP8S, O_HELP
};

static const struct option opts[] = {
    {"gpu", required_argument, NULL, O_GPU},
    {"gpus", required_argument, NULL, O_GPUS},
    {"model", required_argument, NULL, O_MODEL},
    {"params", required_argument, NULL, O_PARAMS},
    {"tokens", required_argument, NULL, O_TOKENS},
    {"mfu", required_argument, NULL, O_MFU},
    {"precision", required_argument, NULL, O_PREC},
    {"exact", no_argument, NULL, O_EXACT},
    {"causal", no_argument, NULL, O_CAUSAL},
    {"recompute", required_argument, NULL, O_RECOMP},
    {"zero", required_argument, NULL, O_ZERO},
    {"tp", required_argument, NULL, O_TP},
    {"pp", required_argument, NULL, O_PP},
    {"no-sequence-parallel", no_argument, NULL, O_NOSP},
    {"optimizer", required_argument, NULL, O_OPT},
    {"lora-params", required_argument, NULL, O_LORA},
    {"seq", required_argument, NULL, O_SEQ},
    {"micro-batch", required_argument, NULL, O_MB},
    {"step-time", required_argument, NULL, O_STEP},
    {"tokens-per-step", required_argument, NULL, O_TPS},
    {"batch", required_argument, NULL, O_BATCH},
    {"price", required_argument, NULL, O_PRICE},
    {"purchase", required_argument, NULL, O_PURCHASE},
    {"years", required_argument, NULL, O_YEARS},
    {"pue", required_argument, NULL, O_PUE},
    {"kwh-price", required_argument, NULL, O_KWH},
    {"global-batch", required_argument, NULL, O_GB},
    {"scale-up", required_argument, NULL, O_SUP},
    {"link-bw", required_argument, NULL, O_LINK_BW},
    {"link-latency", required_argument, NULL, O_LINK_LAT},
    {"scale-out", required_argument, NULL, O_SOUT},
    {"gpus-per-node", required_argument, NULL, O_GPN},
    {"nics-per-node", required_argument, NULL, O_NICS},
    {"interleave", required_argument, NULL, O_INTERLEAVE},
    {"attention", required_argument, NULL, O_ATTN},
    {"attention-eff", required_argument, NULL, O_AEFF},
    {"fp8-scaling", required_argument, NULL, O_FP8S},
    {"no-dp-overlap", no_argument, NULL, O_NODPOV},
    {"ep", required_argument, NULL, O_EP},
    {"cp", required_argument, NULL, O_CP},
    {"layers", required_argument, NULL, O_LAYERS},
    {"hidden", required_argument, NULL, O_HIDDEN},
    {"heads", required_argument, NULL, O_HEADS},
    {"kv-heads", required_argument, NULL, O_KVHEADS},
    {"head-dim", required_argument, NULL, O_HEADDIM},
    {"vocab", required_argument, NULL, O_VOCAB},
    {"ffn", required_argument, NULL, O_FFN},
    {"ffn-kind", required_argument, NULL, O_FFNKIND},
    {"tied", no_argument, NULL, O_TIED},
    {"moe-dispatch", required_argument, NULL, O_DISPATCH},
    {"moe-node-limit", required_argument, NULL, O_NODELIM},
    {"moe-overlap", no_argument, NULL, O_MOEOVL},
    {"base-format", required_argument, NULL, O_BASEFMT},
    {"moe-imbalance", required_argument, NULL, O_IMB},
    {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0}};

/* A shape from --layers .. --ffn (dims[], in option order), --ffn-kind and
 * --tied over the model's (when one is given): what a shape-only run needs
 * (layers, hidden, heads, vocab, ffn) must be there, head_dim must follow
 * from hidden / heads or be given, kv-heads must divide heads. */
static int shape_from_options(const gp_cli *cli, const gp_model *m, const double dims[7],
                              int ffn_kind, int tied, gp_train_shape *s)
{
    static const char *const need[] = {"--layers", "--hidden", "--heads", NULL,
                                       NULL,       "--vocab",  "--ffn"};
    gp_err e;
    size_t k;
    memset(s, 0, sizeof *s);
    if (m != NULL && gp_train_shape_from_model(m, s, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (m != NULL && s->attn_params > 0.0)
        return gp_cli_usage(cli, "'%s' uses latent attention (MLA): its shape cannot be "
                                 "overridden from the command line", m->id ? m->id : "--model");
    /* A hybrid's linear mixers have widths of their own (linear.params,
     * linear.state follow from them), which the depth and attention
     * options cannot change consistently; its vocabulary and FFN can. */
    if (m != NULL && s->linear_layers > 0.0)
        for (k = 0; k < 5; k++)
            if (dims[k] > 0.0) {
                static const char *const opt[] = {"--layers", "--hidden", "--heads",
                                                  "--kv-heads", "--head-dim"};
                return gp_cli_usage(cli, "'%s' on '%s': %g of its %g layers are linear "
                                         "attention, whose mixer widths and state the command "
                                         "line cannot change with it; give '--params N', or "
                                         "the model's config.json with other widths ('--model "
                                         "FILE.json')",
                                    opt[k], m->id ? m->id : "--model", s->linear_layers,
                                    s->layers);
            }
    /* --ffn is the dense FFN width (ffn_hidden): on a MoE model that of its
     * leading dense layers (and of its experts when it gives no expert
     * width).  On one without dense layers it would change nothing. */
    if (m != NULL && dims[6] > 0.0 && s->experts > 0.0 && !(s->dense_layers > 0.0) &&
        s->expert_ffn_hidden > 0.0)
        return gp_cli_usage(cli, "'--ffn' sets the width of the dense layers' FFN, and '%s' has "
                                 "no dense layers (a mixture of %g experts of width %g, which "
                                 "the command line cannot change): give '--params N', or the "
                                 "model's config.json with another moe_intermediate_size "
                                 "('--model FILE.json')",
                            m->id ? m->id : "--model", s->experts, s->expert_ffn_hidden);
    if (m == NULL)
        for (k = 0; k < 7; k++)
            if (need[k] != NULL && !(dims[k] > 0.0))
                return gp_cli_usage(cli, "a shape without '--model' needs '%s' (give "
                                         "--layers, --hidden, --heads, --vocab and --ffn)",
                                    need[k]);
    if (dims[0] > 0.0)
        s->layers = dims[0];
    if (dims[1] > 0.0)
        s->hidden = dims[1];
    if (dims[2] > 0.0)
        s->heads = dims[2];
    if (dims[3] > 0.0)
        s->kv_heads = dims[3];
    else if (m == NULL || (dims[2] > 0.0 && fmod(s->heads, s->kv_heads) != 0.0))
        s->kv_heads = s->heads; /* the model's KV heads stay while they divide */
    if (dims[4] > 0.0) {
        s->head_dim = dims[4];
    } else if (m == NULL || dims[1] > 0.0 || dims[2] > 0.0) {
        if (fmod(s->hidden, s->heads) != 0.0)
            return gp_cli_usage(cli, "'--hidden' %g is not a multiple of '--heads' %g: give "
                                     "'--head-dim'", s->hidden, s->heads);
        s->head_dim = s->hidden / s->heads;
    }
    if (dims[5] > 0.0)
        s->vocab = dims[5];
    if (dims[6] > 0.0)
        s->ffn_hidden = dims[6];
    if (ffn_kind != 0)
        s->ffn_matrices = (double)ffn_kind;
    else if (m == NULL)
        s->ffn_matrices = 3.0;
    if (tied)
        s->tied_embeddings = 1;
    if (s->kv_heads > s->heads || fmod(s->heads, s->kv_heads) != 0.0)
        return gp_cli_usage(cli, "'--kv-heads' %g must divide the %g attention heads",
                            s->kv_heads, s->heads);
    return 0;
}

/* 1 when a dense shape holds its FFN on fewer than all its layers
 * (ffn_layers, as the library prices it: training.md 1.2). */
static int ffn_layers_given(const gp_train_shape *s)
{
    return s->ffn_layers > 0.0 && s->ffn_layers < s->layers && !(s->experts > 0.0);
}

/* The parameter count of a shape given on the command line
 * (gp_model_count_params: projections, norms, FFN, experts, embeddings):
 * params[0] all of them, params[1] those a token uses. */
static int count_shape(const gp_cli *cli, const gp_train_shape *s, double params[2])
{
    gp_param_shape ps;
    gp_param_count pc;
    gp_err e;
    memset(&ps, 0, sizeof ps);
    ps.layers = s->layers;
    ps.hidden = s->hidden;
    ps.heads = s->heads;
    ps.vocab = s->vocab;
    ps.kv_heads = s->kv_heads;
    ps.head_dim = s->head_dim;
    ps.ffn = s->ffn_hidden;
    ps.tied = s->tied_embeddings;
    ps.gated = s->ffn_matrices >= 3.0;
    ps.experts = s->experts;
    ps.experts_active = s->experts_active;
    ps.expert_ffn = s->expert_ffn_hidden;
    ps.expert_matrices = s->expert_ffn_matrices;
    ps.shared_experts = s->shared_experts;
    ps.dense_layers = s->dense_layers;
    ps.attn_gate = s->attn_gate;
    if (gp_model_count_params(&ps, &pc, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    /* What gp_model_count_params does not see: a hybrid's linear mixers
     * (linear_params each, in place of an attention) and FFNs on only
     * ffn_layers of the layers (training.md 1.2). */
    if (s->linear_params > 0.0 && s->linear_layers > 0.0 && s->linear_layers < s->layers) {
        pc.total += s->linear_layers * (s->linear_params - pc.attn);
        pc.active += s->linear_layers * (s->linear_params - pc.attn);
    }
    if (ffn_layers_given(s)) {
        /* each without its FFN's norm, one of a layer's two */
        double less = (s->layers - s->ffn_layers) * (pc.dense_ffn + 0.5 * pc.norms);
        pc.total -= less;
        pc.active -= less;
    }
    if (!(pc.total <= GP_MODEL_PARAMS_MAX) || !(pc.total >= GP_TRAIN_PARAMS_MIN))
        return gp_cli_usage(cli, "the shape has %.0f parameters, outside [%g, 1e15]", pc.total,
                            GP_TRAIN_PARAMS_MIN);
    params[0] = pc.total;
    params[1] = pc.active;
    return 0;
}

/* A quantity that must be > 0 (0 would silently mean "default"). */
static int pos_qty(const gp_cli *cli, const char *opt, const char *arg, gp_qty kind,
                   double *out)
{
    int rc = gp_cli_qty(cli, opt, arg, kind, out);
    if (rc != 0)
        return rc;
    if (!(*out > 0.0))
        return gp_cli_usage(cli, "option '%s' must be > 0 (got '%s')", opt, arg);
    return 0;
}

static const char *nz(const char *s, const char *dflt)
{
    return s != NULL && s[0] != '\0' ? s : dflt;
}

/* The recompute mode as the option spells it: "block:N" for a block. */
static const char *rc_label(const gp_train_in *in)
{
    static char buf[16]; /* "block:" and at most 7 digits (N <= 1e6) */
    if (in->recompute != GP_RECOMPUTE_BLOCK)
        return gp_train_recompute_name(in->recompute);
    snprintf(buf, sizeof buf, "block:%ld", in->recompute_layers);
    return buf;
}

static json_t *jassume(json_t *arr, const char *name, const char *value, const char *src)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "value", json_string(value));
    json_object_set_new(o, "source", json_string(nz(src, "not given")));
    json_array_append_new(arr, o);
    return arr;
}

/* The attending layers *la of a shape (all but its linear-attention ones)
 * and, with a window, the local ones among them *lw (window_layers, all
 * when 0 or not below *la), as gp_model_attn_layers and the window's
 * pairs count them (training.md 1.2). */
static void layer_kinds(const gp_train_shape *s, double *la, double *lw)
{
    *la = s->linear_layers > 0.0 && s->linear_layers < s->layers ? s->layers - s->linear_layers
                                                                 : s->layers;
    *lw = !(s->window > 0.0)                                   ? 0.0
          : s->window_layers > 0.0 && s->window_layers < *la ? s->window_layers
                                                               : *la;
}

/* "datasheet x FIELD" for an efficiency field gp_gpu_compute_eff_field
 * names, in static storage: an assumption's source is printed after
 * build_assumptions returns, so it may not point into its locals (one
 * call a run). */
static const char *datasheet_x(const char *field)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "datasheet x %s", field);
    return buf;
}

/* Assumptions shared by the table and JSON: name, value text, source. */
typedef struct assumption {
    const char *name;
    char value[96];
    const char *src;
} assumption;

static size_t build_assumptions(const gp_train_in *in, const gp_train_result *r,
                                const gp_train_params *p, const char *seq_src,
                                assumption *a, size_t max)
{
    size_t n = 0;
    char buf[64];
    const gp_gpu *g = in->gpu;
    double wb, gb, ob;
#define ADD(nm, src_, ...)                                                      \
    do {                                                                        \
        if (n < max) {                                                          \
            a[n].name = (nm);                                                   \
            snprintf(a[n].value, sizeof a[n].value, __VA_ARGS__);               \
            a[n].src = (src_);                                                  \
            n++;                                                                \
        }                                                                       \
    } while (0)
    ADD("dense peak", nz(r->peak_src, "database"), "%s (%s %s, fp32 accumulate)",
        gp_cli_fmt_sig(r->peak_flop_per_s, GP_Q_FLOPS, 4, buf, sizeof buf),
        gp_precision_name(r->precision), gp_pipeline_name(r->pipeline));
    if (r->mfu_origin != GP_MFU_PROFILE && r->mfu_origin != GP_MFU_GIVEN &&
        r->mfu != r->mfu_reference)
        ADD("MFU", r->mfu_src,
            "%.3f (default %.3f: PaLM count, selective; restated: %s recompute, %s count)",
            r->mfu, r->mfu_reference, rc_label(in),
            in->count == GP_COUNT_EXACT ? "exact" : "6ND");
    else
        ADD("MFU", r->mfu_src, "%.3f%s", r->mfu,
            r->mfu_origin == GP_MFU_PROFILE ? " (implied)"
            : r->mfu_origin == GP_MFU_GIVEN ? " (given)"
            : r->mfu_origin == GP_MFU_MODEL ? " (predicted per step)"
                                            : " (default; --mfu overrides)");
    if (r->mfu_precision_scale != 1.0)
        ADD("MFU precision", "docs/models/training.md 2",
            "default for 16-bit; %s moves only the GEMM share: step x %.3f",
            gp_precision_name(r->precision), 1.0 / r->mfu_precision_scale);
    if (r->step_model) {
        const char *ef = gp_gpu_compute_eff_field(g, r->precision, r->pipeline);
        /* The calibration is the source only when it measured this GEMM
         * (or above its datasheet): a calibration of bf16 alone leaves an
         * fp8 run at datasheet x efficiency, as decode's row says. */
        int calibrated = gp_gpu_peak_capped(g, r->precision, r->pipeline) ||
                         g->meas_peak[r->precision][r->pipeline].v > 0.0;
        char eb[64];
        snprintf(eb, sizeof eb, "peak x %s", ef);
        ADD("expected GEMM rate",
            calibrated ? nz(g->calibration, "calibration (measured GEMM)") : datasheet_x(ef),
            "%s (%s)", gp_cli_fmt_sig(r->step.peak_expected, GP_Q_FLOPS, 4, buf, sizeof buf),
            gp_gpu_peak_capped(g, r->precision, r->pipeline)
                ? "the datasheet peak: calibrated above it, capped"
            : g->meas_peak[r->precision][r->pipeline].v > 0 ? "calibrated"
                                                            : eb);
        if (r->step.attn_peak_expected != r->step.peak_expected)
            ADD("expected attention rate", "Transformer Engine: fp8_dpa=False by default",
                "%s (the 16-bit rate: the attention core stays in BF16)",
                gp_cli_fmt_sig(r->step.attn_peak_expected, GP_Q_FLOPS, 4, buf, sizeof buf));
        ADD("expected memory bandwidth", nz(g->calibration, "datasheet x efficiency.memory"),
            "%s", gp_cli_fmt_sig(r->step.mem_bw_expected, GP_Q_RATE, 4, buf, sizeof buf));
        ADD("scale-up link", in->scale_up ? nz(in->scale_up->bw_achievable.src, "database")
                                          : "none (one GPU per node)",
            "%s, %ld GPU%s per node", in->scale_up ? in->scale_up->id : "none",
            r->step.gpus_per_node, r->step.gpus_per_node == 1 ? "" : "s");
        {
            /* The count priced: given or default, at most one NIC a GPU. */
            gp_topo nt;
            long k;
            memset(&nt, 0, sizeof nt);
            nt.scale_up = in->scale_up;
            nt.gpus_per_node = r->step.gpus_per_node;
            nt.scale_out = in->scale_out;
            nt.nodes = 2;
            nt.nics_per_node = in->nics_per_node;
            k = gp_topo_nics(&nt);
            ADD("scale-out link",
                in->scale_out ? nz(in->scale_out->bw_achievable.src, "database")
                              : "none (one node)",
                "%s, %ld NICs per node%s", in->scale_out ? in->scale_out->id : "none", k,
                in->nics_per_node > k ? " (--nics-per-node: one NIC a GPU at most)" : "");
        }
        ADD("global batch", in->global_batch > 0 ? "--global-batch"
                                                 : "default: 4M tokens (LLaMA-1/Llama 2)",
            "%.0f sequences", r->step.global_batch);
        if (in->attn_unfused)
            ADD("attention", "--attention unfused (Megatron 2021)", "%s", "unfused");
        else {
            gp_train_params d;
            gp_train_params_init(&d);
            ADD("attention",
                p->step_flash_eff != d.step_flash_eff
                    ? "--attention-eff; Dao 2023 (bwd 2.5x fwd)"
                    : "Dao 2023 (bwd 2.5x fwd); Shah et al. 2024 (rate)",
                "flash, causal half, %.2f x the GEMM rate", p->step_flash_eff);
        }
        ADD("element-wise traffic", "Korthikanti et al. 2022 tensors, docs/models/training.md",
            "%.0f B/(token x h) fwd, bwd %.0fx", p->step_ew_res_bytes, p->step_ew_bwd);
        if (r->step.fp8_cast_bytes > 0.0)
            ADD("8-bit casts",
                p->step_fp8_amax_bytes > 0.0
                    ? "current scaling: amax pass + Transformer Engine cast-transpose"
                    : "delayed scaling (--fp8-scaling): Transformer Engine cast-transpose",
                "%.3g B per GEMM input / output-gradient element", r->step.fp8_cast_elem_bytes);
        ADD("gradient sync", in->dp_no_overlap ? "--no-dp-overlap" : "PyTorch DDP 25 MiB buckets",
            "%s", in->dp_no_overlap ? "after the backward" : "overlapped; last bucket exposed");
        if (r->shape.experts > 0) {
            ADD("expert parallelism", "Megatron-core MoE: ep ranks from the dp group, "
                "pipeline outermost",
                "ep %ld, %.0f of %.0f experts per GPU, top-%.0f", r->ep,
                r->shape.experts / (double)r->ep, r->shape.experts, r->shape.experts_active);
            ADD("MoE load imbalance", in->moe_imbalance > 1.0 ? "--moe-imbalance"
                                                              : "default: balanced routing",
                "%.2f x the balanced share", r->step.moe_imbalance);
            ADD("expert all-to-all",
                in->moe_overlap ? "--moe-overlap: under the adjacent micro-batch's "
                                  "computation, 20 SMs (DeepSeek-V3 sec. 3.2.2)"
                                : "not overlapped (DeepSeek-V3 DualPipe overlaps it)",
                "%s per dispatch, 2 fwd + 2 bwd", "T k h e / t_r");
        }
    }
    ADD("FLOP count", in->count == GP_COUNT_EXACT
                          ? "Narayanan et al. 2021 sec. 5.1; Chowdhery et al. 2022 App. B"
                          : "Kaplan et al. 2020 (C = 6ND); Hoffmann et al. 2022",
        "%s%s", in->count == GP_COUNT_EXACT ? "exact per layer" : "6 N D",
        in->lora_params > 0 ? " (LoRA: frozen base 4 N D + 6 N_adapter D)" : "");
    ADD("recompute", "Korthikanti et al. 2022", "%s", rc_label(in));
    ADD("sequence length", seq_src, "%.0f", r->seq);
    ADD("shape", in->shape != NULL ? "command line (--layers, --hidden, ...)"
                 : r->shape_known  ? "database model"
                                   : "inferred: h/L = 128, head 128, FFN 4h",
        "L %.4g, h %.0f, heads %.4g, FFN %.0f x %.0f", r->shape.layers, r->shape.hidden,
        r->shape.heads, r->shape.ffn_hidden, r->shape.ffn_matrices);
    /* Layer kinds (training.md 1.2): said only when the shape has them. */
    if (r->shape.linear_layers > 0.0 && r->shape.linear_layers < r->shape.layers)
        ADD("linear-attention layers",
            r->shape.linear_params > 0.0
                ? "model linear.layers, linear.state, linear.params (the mixer's parameters); "
                  "docs/models/training.md 1.2"
                : "model linear.layers, linear.state; mixers priced as the attention's q/k/v/o "
                  "(no linear.params); docs/models/training.md 1.2",
            "%.0f of %.0f: no s^2 term; recurrence 8 FLOP per state element (%.0f) per token, "
            "x3 fwd+bwd",
            r->shape.linear_layers, r->shape.layers, r->shape.linear_state);
    if (ffn_layers_given(&r->shape))
        ADD("FFN layers", "model ffn_layers; docs/models/training.md 1.2", "%.0f of %.0f layers",
            r->shape.ffn_layers, r->shape.layers);
    if (r->shape.attn_gate)
        ADD("attention output gate", "model attention_gate; docs/models/training.md 1.2",
            "q projection h x 2q (%.0f x %.0f): h q more a layer", r->shape.hidden,
            2.0 * r->shape.heads * r->shape.head_dim);
    if (r->shape.window > 0.0) {
        double la, lw;
        layer_kinds(&r->shape, &la, &lw);
        ADD("sliding window", "model window.tokens, window.layers; docs/models/training.md 1.2",
            "%.0f tokens on %.0f of %.0f attending layers%s", r->shape.window, lw, la,
            r->seq > r->shape.window ? "" : " (seq within it: no effect)");
    }
    gp_train_state_bytes(in->optimizer, r->precision == GP_FP32 || r->precision == GP_TF32 ||
                                                r->precision == GP_FP64
                                            ? 0
                                            : 1,
                         &wb, &gb, &ob);
    ADD("optimizer", "Rajbhandari et al. 2020 sec. 3.1; Dettmers et al. 2022 (8-bit)",
        "%s: %.0f + %.0f + %.0f B/param", gp_train_optimizer_name(in->optimizer), wb, gb, ob);
    ADD("runtime reserve", p->reserve_src, "%s",
        gp_format_qty(r->reserve_bytes, GP_Q_BYTES, 1, 0, buf, sizeof buf));
    ADD("usable memory", nz(g->mem_usable.v > 0 ? g->mem_usable.src : g->mem_capacity.src,
                            "database"),
        "%s", gp_format_qty(r->usable_bytes, GP_Q_BYTES, 1, 0, buf, sizeof buf));
    ADD("power", nz(g->tdp.src, "database"), "%.0f W TDP x PUE %.2f", g->tdp.v, r->pue);
    ADD("PUE", in->pue > 0 ? "--pue" : p->pue_src, "%.2f", r->pue);
    ADD("electricity", in->kwh_price > 0 ? "--kwh-price" : p->kwh_src, "%s/kWh",
        gp_cli_usd(r->kwh_price, buf, sizeof buf));
    ADD("amortisation", in->years > 0 ? "--years" : p->years_src, "%.1f years", r->years);
    if (isfinite(r->rent_per_gpu_hour))
        ADD("rent", in->price > 0 ? "--price" : nz(g->rent.src, "database"),
            "%s per GPU-hour", gp_cli_usd(r->rent_per_gpu_hour, buf, sizeof buf));
    else
        ADD("rent", "give --price", "unknown");
    if (in->purchase > 0 || g->price.v > 0)
        ADD("purchase", in->purchase > 0 ? "--purchase" : nz(g->price.src, "database"),
            "%s per GPU",
            gp_cli_usd(in->purchase > 0 ? in->purchase : g->price.v, buf, sizeof buf));
    else
        ADD("purchase", "give --purchase", "unknown");
#undef ADD
    return n;
}

/* Whole days from 100, scientific from 10^4 (27 years) as GPU-days beside
 * it: "1.233e7 days", never "12328384 days". */
static void fmt_days(double d, char *buf, size_t n)
{
    char t[32];
    if (!isfinite(d))
        snprintf(buf, n, "n/a");
    else if (d >= 9999.5)
        snprintf(buf, n, "%s days", gp_cli_num(d, 4, t, sizeof t));
    else if (d >= 100)
        snprintf(buf, n, "%.0f days", d);
    else if (d >= 1.0)
        snprintf(buf, n, "%.2f days", d);
    else /* a fine-tuning run: "2.95 h", not "0.12 days" (or "0.00 days") */
        gp_format_qty(d * 86400.0, GP_Q_DURATION, 2, 0, buf, n);
}

/* Money: gp_cli_usd (a fine-tuning run's cents, not "USD 1" for 0.87). */
static void fmt_usd(double v, char *buf, size_t n)
{
    gp_cli_usd(v, buf, n);
}

/* The step-time model's ledger for one optimizer step, per GPU. */
static void print_step(const gp_train_in *in, const gp_train_result *r)
{
    const gp_train_step_result *st = &r->step;
    char v[96], note[256];
    printf("step-time model (one optimizer step, per GPU; docs/models/training.md):\n");
    snprintf(v, sizeof v, "%.0f seq (%.4g tokens)", st->global_batch, st->tokens_per_step);
    snprintf(note, sizeof note, "%.0f micro-batches of %.0f per pipeline, dp %ld",
             st->micro_batches, in->micro_batch, r->dp);
    gp_cli_row("global batch", v, note);
    snprintf(note, sizeof note, "%s, %.1f %% of the expected peak (size and waves)",
             gp_precision_name(r->precision), 100.0 * st->gemm_eff);
    gp_cli_qrow("GEMMs (layers + logits)", st->gemm_s * st->micro_batches, GP_Q_DURATION, 3,
                note);
    if (r->shape.experts > 0) {
        snprintf(note, sizeof note, "of the GEMMs: %.0f experts/GPU x %.0f rows (ep %ld, "
                 "imbalance %.2f)", r->shape.experts / (double)st->ep, st->expert_rows, st->ep,
                 st->moe_imbalance);
        gp_cli_qrow("  routed-expert GEMMs", st->expert_gemm_s * st->micro_batches,
                    GP_Q_DURATION, 3, note);
    }
    if (in->attn_unfused)
        snprintf(note, sizeof note, "unfused: batched GEMMs on their roofline");
    else
        snprintf(note, sizeof note, "FlashAttention: causal half at %.0f %% of the %sexpected "
                 "GEMM rate", 100.0 * st->attn_eff,
                 st->attn_peak_expected != st->peak_expected ? "16-bit " : "");
    gp_cli_qrow("attention core", st->attn_s * st->micro_batches, GP_Q_DURATION, 3, note);
    gp_cli_qrow("element-wise", st->elementwise_s * st->micro_batches, GP_Q_DURATION, 3,
                st->dequant_bytes > 0.0
                    ? "norms, activation, dropout, residual, cross-entropy, base dequantisation"
                : st->fp8_cast_bytes > 0.0
                    ? "norms, activation, dropout, residual, cross-entropy, 8-bit casts"
                    : "norms, activation, dropout, residual, softmax, cross-entropy");
    gp_cli_qrow("optimizer step", st->optimizer_s, GP_Q_DURATION, 3,
                "Adam: 2 x states + gradient + weights per parameter shard");
    gp_cli_qrow("tensor-parallel comm", st->tp_comm_s, GP_Q_DURATION, 3,
                in->tp > 1 ? (in->scale_up && in->scale_up->id ? in->scale_up->id : "scale-up")
                           : "tp 1: none");
    gp_cli_qrow("pipeline sends", st->pp_comm_s, GP_Q_DURATION, 3, NULL);
    if (r->cp > 1) {
        /* The ring's times are one layer's, one micro-batch's; the row is
         * the step's exposed total (training.md 9.9). */
        snprintf(note, sizeof note, "ring of %ld: %.4g B of K, V per layer; %.3g + %.3g ms fwd + "
                 "bwd a layer and micro-batch, exposed beyond its attention", r->cp,
                 st->cp_bytes, 1e3 * st->cp_ring_fwd_s, 1e3 * st->cp_ring_bwd_s);
        gp_cli_qrow("context-parallel comm", st->cp_comm_s, GP_Q_DURATION, 3, note);
    }
    snprintf(note, sizeof note, "(p-1)/(m v) = %.3f of the pipeline time", st->bubble_fraction);
    gp_cli_qrow("pipeline bubble", st->bubble_s, GP_Q_DURATION, 3, note);
    if (in->zero == 2 && st->micro_batches > 1.0)
        /* ZeRO-2 keeps a shard of the gradients: each earlier micro-batch
         * adds a ReduceScatter (training.md 9.3). */
        snprintf(note, sizeof note, "exposed of %.4g s (gradient AllReduce + %.0f "
                 "ReduceScatter%s: ZeRO-2 reduces each micro-batch)", st->dp_comm_s,
                 st->micro_batches - 1.0, st->micro_batches > 2.0 ? "s" : "");
    else
        snprintf(note, sizeof note, "exposed of %.4g s %s", st->dp_comm_s,
                 in->zero >= 3 ? "(ZeRO-3 gathers + reduce-scatter)" : "(gradient AllReduce)");
    gp_cli_qrow("data-parallel comm", st->dp_comm_exposed_s, GP_Q_DURATION, 3, note);
    if (r->shape.experts > 0) {
        char ovl[48];
        if (in->moe_overlap)
            snprintf(ovl, sizeof ovl, "exposed of %.4g s (overlapped)",
                     st->alltoall_s + st->alltoall_hidden_s);
        else
            snprintf(ovl, sizeof ovl, "not overlapped");
        if (in->moe_dedup && st->alltoall_node_share < 1.0)
            snprintf(note, sizeof note, "dispatch + combine, %.4g B each per GPU over ep %ld, "
                     "each token once per node (%.0f %% of the inter-node copies); %s",
                     st->alltoall_bytes, st->ep, 100.0 * st->alltoall_node_share, ovl);
        else
            snprintf(note, sizeof note, "dispatch + combine, %.4g B each per GPU over ep %ld; %s",
                     st->alltoall_bytes, st->ep, ovl);
        gp_cli_qrow("expert all-to-all", st->alltoall_s, GP_Q_DURATION, 3, note);
    }
    gp_cli_qrow("step time", st->step_s, GP_Q_DURATION, 3, "compute + memory + movement");
    snprintf(v, sizeof v, "%.3f", st->mfu);
    snprintf(note, sizeof note, "HFU %.3f; %.1f tok/s per GPU", st->hfu,
             r->tokens_per_s_per_gpu);
    gp_cli_row("predicted MFU", v, note);
    gp_cli_print_ledger(r->shape.experts > 0
                            ? "step ledger (one optimizer step; movement = tp + pp + exposed dp + "
                              "bubble + all-to-all)"
                        : r->cp > 1 ? "step ledger (one optimizer step; movement = tp + pp + cp + "
                                      "exposed dp + bubble)"
                                    : "step ledger (one optimizer step; movement = tp + pp + "
                                      "exposed dp + bubble)",
                        &st->ledger);
}

static void print_table(const gp_train_in *in, const gp_train_result *r,
                        const assumption *a, size_t na)
{
    char v[96], note[160], buf[64];
    size_t i;
    printf("gpuplan train: %s params x %s tokens on %ld x %s\n",
           gp_cli_g(r->params, 4, buf, sizeof buf), gp_cli_g(in->tokens, 4, v, sizeof v),
           in->gpus, nz(in->gpu->name, in->gpu->id));
    printf("compute:\n");
    /* FLOP counts, days and hours: 4 significant digits (gp_cli_num). */
    gp_cli_fmt_sig(r->model_flop, GP_Q_FLOP, 4, v, sizeof v);
    gp_cli_row("model FLOPs", v,
               in->lora_params > 0.0
                   ? (in->count == GP_COUNT_EXACT ? "exact count, frozen base (MFU basis)"
                                                  : "(4 N + 6 N_a) D: frozen base (MFU basis)")
                   : (in->count == GP_COUNT_EXACT ? "exact count (MFU basis)"
                                                  : "6 N D (MFU basis)"));
    if (in->count != GP_COUNT_EXACT) {
        gp_cli_fmt_sig(r->flop_exact, GP_Q_FLOP, 4, v, sizeof v);
        gp_cli_row("exact count (for reference)", v,
                   r->shape_known ? "24h^2-type per-layer count" : "on an inferred shape");
    }
    gp_cli_fmt_sig(r->hardware_flop, GP_Q_FLOP, 4, v, sizeof v);
    snprintf(note, sizeof note, "%s + %s recompute (HFU basis)",
             in->count == GP_COUNT_EXACT ? "exact count"
             : in->lora_params > 0.0     ? "(4 N + 6 N_a) D, no attention"
                                         : "6 N D, no attention",
             rc_label(in));
    gp_cli_row("hardware FLOPs", v, note);
    gp_cli_qrow("dense peak per GPU", r->peak_flop_per_s, GP_Q_FLOPS,
                gp_cli_sig_digits(r->peak_flop_per_s, 4),
                gp_precision_name(r->precision));
    if (r->mfu != r->mfu_reference)
        snprintf(v, sizeof v, "%.3f (%.3f quoted: PaLM count, selective)", r->mfu,
                 r->mfu_reference);
    else
        snprintf(v, sizeof v, r->mfu < 1e3 ? "%.3f" : "%.4g", r->mfu);
    gp_cli_row("MFU", v,
               r->mfu_origin == GP_MFU_PROFILE ? "implied by the measured step" : r->mfu_src);
    snprintf(v, sizeof v, r->hfu < 1e3 ? "%.3f" : "%.4g", r->hfu);
    gp_cli_row("HFU", v,
               in->count != GP_COUNT_EXACT && r->mfu_palm > r->hfu
                   ? "MFU x hardware / model FLOPs (below the PaLM MFU, which counts the "
                     "attention: --exact counts it in both)"
                   : "MFU x hardware / model FLOPs");
    if (fabs(r->mfu_palm - r->mfu) > 5e-4 * r->mfu) {
        snprintf(v, sizeof v, r->mfu_palm < 1e3 ? "%.3f" : "%.4g", r->mfu_palm);
        gp_cli_row("MFU, PaLM count", v,
                   r->shape.linear_layers > 0.0 || r->shape.window > 0.0
                       ? "6N + the attending layers' attention (within windows) + the "
                         "recurrence per token, as published MFUs count"
                       : "6N + 12 s q L per token, as published MFUs count");
    }
    snprintf(v, sizeof v, r->tokens_per_s_per_gpu >= 0.1 && r->tokens_per_s_per_gpu < 1e7 ? "%.1f tok/s" : "%.4g tok/s",
             r->tokens_per_s_per_gpu);
    gp_cli_row("tokens/s per GPU", v, NULL);
    gp_cli_num(r->gpu_days, 4, v, sizeof v);
    snprintf(note, sizeof note, "%s GPU-hours", gp_cli_num(r->gpu_hours, 4, buf, sizeof buf));
    gp_cli_row("GPU-days", v, note);
    fmt_days(r->wall_days, v, sizeof v);
    snprintf(note, sizeof note, "on %ld GPU%s", in->gpus, in->gpus == 1 ? "" : "s");
    gp_cli_row("wall-clock", v, note);
    gp_cli_num(r->ceiling_gpu_days, 4, v, sizeof v);
    gp_cli_row("ceiling GPU-days (MFU 1)", v, "datasheet bound");

    if (r->step_model)
        print_step(in, r);
    if (r->ep > 1)
        printf("memory per GPU (tp %ld, pp %ld, dp %ld, ep %ld, ZeRO %d):\n", in->tp, in->pp,
               r->dp, r->ep, in->zero);
    else if (r->cp > 1)
        printf("memory per GPU (tp %ld, cp %ld, pp %ld, dp %ld, ZeRO %d):\n", in->tp, r->cp,
               in->pp, r->dp, in->zero);
    else
        printf("memory per GPU (tp %ld, pp %ld, dp %ld, ZeRO %d):\n", in->tp, in->pp, r->dp,
               in->zero);
    if (in->lora_params > 0.0 && in->base_bits > 0.0)
        snprintf(note, sizeof note, "frozen layers at %g bits (--base-format; embeddings and "
                 "adapters %d-bit)", in->base_bits,
                 r->precision == GP_FP32 || r->precision == GP_TF32 ? 32 : 16);
    else if (in->lora_params > 0.0)
        snprintf(note, sizeof note, "frozen base + adapters");
    else
        note[0] = '\0';
    gp_cli_qrow("weights", r->weight_bytes, GP_Q_BYTES, 1, note[0] ? note : NULL);
    gp_cli_qrow("gradients", r->grad_bytes, GP_Q_BYTES, 1, NULL);
    gp_cli_qrow("optimizer states", r->optim_bytes, GP_Q_BYTES, 1,
                gp_train_optimizer_name(in->optimizer));
    if (r->cp > 1)
        snprintf(note, sizeof note, "micro-batch %.0f x seq %.0f / cp %ld, %s recompute",
                 in->micro_batch, r->seq, r->cp, rc_label(in));
    else
        snprintf(note, sizeof note, "micro-batch %.0f x seq %.0f, %s recompute", in->micro_batch,
                 r->seq, rc_label(in));
    gp_cli_qrow("activations", r->activation_bytes, GP_Q_BYTES, 1, note);
    gp_cli_qrow("runtime reserve", r->reserve_bytes, GP_Q_BYTES, 1, NULL);
    gp_cli_qrow("total", r->total_bytes, GP_Q_BYTES, 1, NULL);
    gp_cli_qrow("usable", r->usable_bytes, GP_Q_BYTES, 1, NULL);
    gp_cli_row("fits", r->fits ? "yes" : "no", NULL);
    if (r->min_gpus > 0)
        snprintf(v, sizeof v, "%ld", r->min_gpus);
    else
        snprintf(v, sizeof v, "none");
    gp_cli_row("least GPUs that fit", v, r->cp > 1 ? "same ZeRO stage, tp, pp, cp"
                                                   : "same ZeRO stage, tp, pp");
    if (r->min_gpus_zero3 > 0)
        snprintf(v, sizeof v, "%ld", r->min_gpus_zero3);
    else
        snprintf(v, sizeof v, "none");
    gp_cli_row("least GPUs with ZeRO-3", v, NULL);
    if (r->min_gpus_zero3 == 0)
        printf("  hint: activations and reserve alone exceed usable memory; raise --tp, lower\n"
               "        %s--seq%s\n",
               in->micro_batch > 1.0 ? "--micro-batch or " : "",
               !gp_train_recomputes_all(in, r->shape.layers) ? ", or use --recompute full" : "");

    printf("cost:\n");
    fmt_usd(r->cost_rent_usd, v, sizeof v);
    gp_cli_row("rent", v, "GPU-hours x price");
    fmt_usd(r->cost_own_usd, v, sizeof v);
    fmt_usd(r->cost_capex_usd, buf, sizeof buf);
    snprintf(note, sizeof note, "purchase share %s + energy", buf);
    gp_cli_row("own", v, note);
    fmt_usd(r->cost_energy_usd, v, sizeof v);
    snprintf(note, sizeof note, "%s kWh", gp_cli_num(r->energy_kwh, 4, buf, sizeof buf));
    gp_cli_row("energy", v, note);

    gp_cli_print_ledger(r->step_model
                            ? "ledger (wall-clock = step ledger x steps)"
                            : "ledger (wall-clock; memory and communication stalls are inside MFU)",
                        &r->ledger);
    printf("assumptions:\n");
    for (i = 0; i < na; i++)
        gp_cli_row(a[i].name, a[i].value, a[i].src);
}

/* What a reader should not miss, as one line each: printed on stderr and
 * kept in the JSON `warnings` array. */
#define TRAIN_WARN_MAX 6
/* Why a count can claim more FLOPs than the step model's step runs (its
 * HFU above 1): the exact count's whole s x s attention on a causal model,
 * or 6N's input embedding, which runs no matmul (training.md 9.7). */
static const char *overcount_why(const gp_train_in *in, const gp_train_params *p)
{
    if (in->count == GP_COUNT_EXACT && !p->causal_attention)
        return "the exact count holds the whole s x s attention, a causal model runs half "
               "(--causal counts that)";
    if (in->count != GP_COUNT_EXACT)
        return "6N counts every parameter, the input embedding's too, which runs no matmul "
               "(--exact counts the matmuls)";
    return "the count holds FLOPs the step does not run";
}

static size_t train_warnings(const gp_train_in *in, const gp_train_params *p,
                             const gp_train_result *r, char w[][256])
{
    size_t n = 0, wi;
    /* ZeRO-2/3 with pipeline parallelism: priced, but DeepSpeed's
     * PipelineEngine asserts ZeRO stage < 2 ("ZeRO-2 and ZeRO-3 are
     * incompatible with pipeline parallelism"), and torchtitan, which runs
     * FSDP with PP, by default keeps a stage's weights gathered through the
     * micro-batches instead.  Say what the price assumes (training.md §9.3,
     * §9.7). */
    if (in->zero >= 2 && in->pp > 1) {
        int k = snprintf(w[n], 256,
                         "--zero %d with --pp %ld: DeepSpeed refuses ZeRO-2/3 with pipeline "
                         "parallelism (torchtitan runs FSDP with it); priced as ",
                         in->zero, in->pp);
        size_t at = k > 0 && k < 256 ? (size_t)k : 0;
        if (!r->step_model)
            snprintf(w[n] + at, 256 - at,
                     "each stage's %s sharded over the data-parallel GPUs (memory); their "
                     "traffic is inside --mfu",
                     in->zero >= 3 ? "weights, gradients and optimizer states"
                                   : "gradients and optimizer states");
        else if (in->zero >= 3)
            snprintf(w[n] + at, 256 - at,
                     "each stage's weights re-gathered every micro-batch: %.0f x (2 AllGathers "
                     "+ 1 ReduceScatter) a step",
                     r->step.micro_batches);
        else if (r->step.micro_batches > 1.0)
            snprintf(w[n] + at, 256 - at,
                     "each stage's gradients reduce-scattered every micro-batch: %.0f "
                     "ReduceScatter%s + 1 AllReduce a step",
                     r->step.micro_batches - 1.0, r->step.micro_batches == 2.0 ? "" : "s");
        else
            snprintf(w[n] + at, 256 - at,
                     "one micro-batch a step: 1 AllReduce of the gradients, as ZeRO-1");
        n++;
    }
    if (r->peak_share > 1.0 && r->profiled)
        snprintf(w[n++], 256,
                 "implied MFU %.3g is above 1: does --tokens-per-step count the tokens of all "
                 "GPUs?",
                 r->mfu);
    else if (r->peak_share > 1.0 && r->step_model)
        snprintf(w[n++], 256,
                 "predicted HFU %.3g is above 1: the count claims %.4g FLOP a token where the "
                 "step runs %.4g; %s",
                 r->hfu, r->hardware_flop_per_token,
                 r->step.hardware_flop * (double)in->gpus / r->step.tokens_per_step,
                 overcount_why(in, p));
    else if (r->peak_share > 1.0)
        snprintf(w[n++], 256,
                 "--mfu %.3g implies HFU %.3g and MFU %.3g on the PaLM count, above the "
                 "datasheet peak: is --mfu quoted on another count?",
                 in->mfu, r->hfu, r->mfu_palm);
    if (r->step_model && r->mfu_palm > GP_TRAIN_MFU_PUBLISHED_MAX) {
        /* Enough decimals to print it above the threshold: 0.7203, not 0.72. */
        int d = gp_format_apart_digits(r->mfu_palm, GP_TRAIN_MFU_PUBLISHED_MAX, 3);
        snprintf(w[n++], 256,
                 "predicted MFU %.*f (PaLM count) is above every published run gpuplan knows "
                 "(%.2f, FlashAttention-2 on A100, Dao 2023): read it as an upper bound",
                 d, r->mfu_palm, GP_TRAIN_MFU_PUBLISHED_MAX);
    }
    if (!r->fits) {
        char need[32], have[32], hint[96];
        if (r->min_gpus_zero3 > 0 && in->zero < 3)
            snprintf(hint, sizeof hint, "ZeRO-3 fits it from %ld GPUs (--zero 3)",
                     r->min_gpus_zero3);
        else if (r->min_gpus > 0)
            snprintf(hint, sizeof hint, "it fits from %ld GPUs", r->min_gpus);
        else /* activations and reserve alone overflow (the table's hint) */
            snprintf(hint, sizeof hint, "shard it (--tp, --pp)%s%s",
                     in->micro_batch > 1.0 ? ", lower --micro-batch" : "",
                     !gp_train_recomputes_all(in, r->shape.layers) ? " or use --recompute full" : " or lower --seq");
        snprintf(w[n++], 256,
                 "the run does not fit in GPU memory at this layout: %s a GPU of %s usable "
                 "(tp %ld, pp %ld, ZeRO %d); %s",
                 gp_format_qty(r->total_bytes, GP_Q_BYTES, 1, 0, need, sizeof need),
                 gp_format_qty(r->usable_bytes, GP_Q_BYTES, 1, 0, have, sizeof have), in->tp,
                 in->pp, in->zero, hint);
    }
    /* A pipeline starved of micro-batches idles more than it works
     * (Narayanan et al. 2021 §2.2: bubble (p - 1)/(m v) of the ideal
     * time): say so, and how many sequences keep it under a quarter, m >=
     * 4 (p - 1)/v micro-batches of the step's d x b sequences each. */
    if (r->step_model && in->pp > 1 && r->step.bubble_fraction > 0.5) {
        double v = r->step.interleave > 0 ? (double)r->step.interleave : 1.0;
        double m_need = ceil(4.0 * (double)(in->pp - 1) / v);
        snprintf(w[n++], 256,
                 "the pipeline bubble is %.3g x the pipeline's work ((p-1)/(m v), %.0f "
                 "micro-batches for %ld stages): --global-batch %.0f or more brings it to "
                 "0.25",
                 r->step.bubble_fraction, r->step.micro_batches, in->pp,
                 m_need * r->step.global_batch / r->step.micro_batches);
    }
    if (r->seq > 0.0 && in->tokens / (double)in->gpus < r->seq)
        snprintf(w[n++], 256,
                 "%.3g tokens over %ld GPUs is less than one %.0f-token sequence per GPU",
                 in->tokens, in->gpus, r->seq);
    for (wi = 0; wi < n; wi++) /* "%g" exponents as the table prints them: 1.5e13 */
        gp_cli_exp_fix(w[wi]);
    return n;
}

static int emit_json(const gp_train_in *in, const gp_train_result *r,
                     const assumption *a, size_t na, char (*w)[256], size_t nw)
{
    json_t *o = json_object(), *arr = json_array();
    size_t i;
#define NUM(k, v) json_object_set_new(o, k, gp_cli_jnum(v))
    json_object_set_new(o, "gpu", json_string(in->gpu->id));
    if (in->model != NULL)
        json_object_set_new(o, "model", json_string(in->model->id));
    json_object_set_new(o, "gpus", json_integer(in->gpus));
    NUM("params", r->params);
    NUM("params_active", r->params_active);
    NUM("tokens", in->tokens);
    json_object_set_new(o, "precision", json_string(gp_precision_name(r->precision)));
    json_object_set_new(o, "pipeline", json_string(gp_pipeline_name(r->pipeline)));
    json_object_set_new(o, "count", json_string(in->count == GP_COUNT_EXACT ? "exact" : "6nd"));
    NUM("total_flop", r->model_flop);
    NUM("model_flop", r->model_flop);
    NUM("hardware_flop", r->hardware_flop);
    NUM("flop_6nd", r->flop_6nd);
    NUM("flop_exact", r->flop_exact);
    NUM("model_flop_per_token", r->model_flop_per_token);
    NUM("hardware_flop_per_token", r->hardware_flop_per_token);
    NUM("peak_flop_per_s", r->peak_flop_per_s);
    NUM("mfu", r->mfu);
    NUM("mfu_reference", r->mfu_reference);
    NUM("mfu_precision_scale", r->mfu_precision_scale);
    json_object_set_new(o, "mfu_source", json_string(nz(r->mfu_src, "")));
    NUM("hfu", r->hfu);
    NUM("mfu_palm", r->mfu_palm);
    NUM("gpu_seconds", r->gpu_seconds);
    NUM("gpu_s", r->gpu_seconds);
    NUM("gpu_hours", r->gpu_hours);
    NUM("gpu_days", r->gpu_days);
    NUM("wall_s", r->wall_s);
    NUM("wall_days", r->wall_days);
    NUM("ceiling_gpu_days", r->ceiling_gpu_days);
    NUM("tokens_per_s_per_gpu", r->tokens_per_s_per_gpu);
    NUM("tokens_per_s", r->tokens_per_s);
    json_object_set_new(o, "profiled", json_boolean(r->profiled));
    if (r->profiled)
        NUM("tokens_per_step", r->tokens_per_step);
    NUM("seq", r->seq);
    NUM("micro_batch", in->micro_batch);
    NUM("lora_params", in->lora_params);
    NUM("base_bits", in->base_bits);
    json_object_set_new(o, "recompute", json_string(gp_train_recompute_name(in->recompute)));
    if (in->recompute == GP_RECOMPUTE_BLOCK) /* layers of each model chunk */
        json_object_set_new(o, "recompute_layers", json_integer(in->recompute_layers));
    json_object_set_new(o, "optimizer", json_string(gp_train_optimizer_name(in->optimizer)));
    json_object_set_new(o, "zero", json_integer(in->zero));
    json_object_set_new(o, "tp", json_integer(in->tp));
    json_object_set_new(o, "pp", json_integer(in->pp));
    json_object_set_new(o, "dp", json_integer(r->dp));
    json_object_set_new(o, "ep", json_integer(r->ep));
    json_object_set_new(o, "cp", json_integer(r->cp));
    if (r->shape.experts > 0)
        NUM("expert_params", r->expert_params);
    json_object_set_new(o, "shape_inferred", json_boolean(!r->shape_known));
    {
        json_t *sh = json_object();
        json_object_set_new(sh, "layers", json_real(r->shape.layers));
        json_object_set_new(sh, "hidden", json_real(r->shape.hidden));
        json_object_set_new(sh, "heads", json_real(r->shape.heads));
        json_object_set_new(sh, "kv_heads", json_real(r->shape.kv_heads));
        json_object_set_new(sh, "head_dim", json_real(r->shape.head_dim));
        json_object_set_new(sh, "ffn_hidden", json_real(r->shape.ffn_hidden));
        json_object_set_new(sh, "ffn_matrices", json_real(r->shape.ffn_matrices));
        json_object_set_new(sh, "vocab", json_real(r->shape.vocab));
        json_object_set_new(sh, "tied_embeddings", json_boolean(r->shape.tied_embeddings));
        /* Layer kinds, only when the shape has them (training.md 1.2). */
        double la, lw;
        layer_kinds(&r->shape, &la, &lw);
        if (la < r->shape.layers) {
            json_object_set_new(sh, "attn_layers", json_real(la));
            json_object_set_new(sh, "linear_layers", json_real(r->shape.linear_layers));
            json_object_set_new(sh, "linear_state", json_real(r->shape.linear_state));
            if (r->shape.linear_params > 0.0)
                json_object_set_new(sh, "linear_params", json_real(r->shape.linear_params));
        }
        if (ffn_layers_given(&r->shape))
            json_object_set_new(sh, "ffn_layers", json_real(r->shape.ffn_layers));
        if (r->shape.attn_gate)
            json_object_set_new(sh, "attention_gate", json_true());
        if (lw > 0.0) {
            json_object_set_new(sh, "window", json_real(r->shape.window));
            json_object_set_new(sh, "window_layers", json_real(lw));
        }
        json_object_set_new(sh, "source", json_string(in->shape != NULL ? "command line"
                                                      : r->shape_known ? "database model"
                                                                       : "inferred"));
        json_object_set_new(o, "shape", sh);
    }
    /* Memory sizes: whole bytes, rounded up (gp_cli_jbytes). */
#define BYTES(k, v) json_object_set_new(o, k, gp_cli_jbytes(v))
    BYTES("weight_bytes", r->weight_bytes);
    BYTES("grad_bytes", r->grad_bytes);
    BYTES("optimizer_bytes", r->optim_bytes);
    BYTES("state_bytes", r->state_bytes);
    BYTES("model_state_bytes", r->state_bytes);
    BYTES("activation_bytes", r->activation_bytes);
    BYTES("reserve_bytes", r->reserve_bytes);
    BYTES("total_bytes", r->total_bytes);
    BYTES("usable_bytes", r->usable_bytes);
#undef BYTES
    json_object_set_new(o, "fits", json_boolean(r->fits));
    json_object_set_new(o, "min_gpus", r->min_gpus > 0 ? json_integer(r->min_gpus) : json_null());
    json_object_set_new(o, "min_gpus_zero3",
                        r->min_gpus_zero3 > 0 ? json_integer(r->min_gpus_zero3) : json_null());
    NUM("rent_usd_per_gpu_hour", r->rent_per_gpu_hour);
    NUM("cost_rent_usd", r->cost_rent_usd);
    NUM("cost_own_usd", r->cost_own_usd);
    NUM("cost_capex_usd", r->cost_capex_usd);
    NUM("cost_energy_usd", r->cost_energy_usd);
    NUM("energy_kwh", r->energy_kwh);
    NUM("years", r->years);
    NUM("pue", r->pue);
    NUM("kwh_price_usd", r->kwh_price);
    json_object_set_new(o, "mfu_mode", json_string(r->step_model ? "model" : "fixed"));
    if (r->step_model) {
        const gp_train_step_result *st = &r->step;
        json_t *so = json_object();
#define SNUM(k, v) json_object_set_new(so, k, gp_cli_jnum(v))
        SNUM("global_batch", st->global_batch);
        SNUM("tokens_per_step", st->tokens_per_step);
        SNUM("micro_batches", st->micro_batches);
        json_object_set_new(so, "gpus_per_node", json_integer(st->gpus_per_node));
        json_object_set_new(so, "interleave", json_integer(st->interleave));
        json_object_set_new(so, "attention",
                            json_string(in->attn_unfused ? "unfused" : "flash"));
        json_object_set_new(so, "dp_overlap", json_boolean(!in->dp_no_overlap));
        SNUM("step_s", st->step_s);
        SNUM("mfu", st->mfu);
        SNUM("hfu", st->hfu);
        SNUM("compute_s", st->compute_s);
        SNUM("memory_s", st->memory_s);
        SNUM("movement_s", st->ledger.t[GP_ACCT_MOVEMENT]);
        SNUM("gemm_s", st->gemm_s * st->micro_batches);
        SNUM("gemm_efficiency", st->gemm_eff);
        SNUM("attention_s", st->attn_s * st->micro_batches);
        SNUM("elementwise_s", st->elementwise_s * st->micro_batches);
        SNUM("elementwise_bytes", st->elementwise_bytes * st->micro_batches);
        SNUM("fp8_cast_bytes", st->fp8_cast_bytes * st->micro_batches);
        SNUM("fp8_cast_bytes_per_element", st->fp8_cast_elem_bytes);
        SNUM("dequant_bytes", st->dequant_bytes * st->micro_batches);
        SNUM("optimizer_s", st->optimizer_s);
        SNUM("optimizer_bytes", st->optimizer_bytes);
        SNUM("tp_comm_s", st->tp_comm_s);
        SNUM("cp_comm_s", st->cp_comm_s);
        SNUM("cp_bytes", st->cp_bytes);
        SNUM("cp_ring_fwd_s", st->cp_ring_fwd_s);
        SNUM("cp_ring_bwd_s", st->cp_ring_bwd_s);
        SNUM("tp_allreduce_s", st->tp_allreduce_s);
        SNUM("pp_comm_s", st->pp_comm_s);
        SNUM("bubble_s", st->bubble_s);
        SNUM("bubble_fraction", st->bubble_fraction);
        SNUM("dp_bytes", st->dp_bytes);
        SNUM("dp_comm_s", st->dp_comm_s);
        SNUM("dp_comm_exposed_s", st->dp_comm_exposed_s);
        SNUM("micro_batch_s", st->micro_batch_s);
        json_object_set_new(so, "ep", json_integer(st->ep));
        SNUM("expert_gemm_s", st->expert_gemm_s * st->micro_batches);
        SNUM("alltoall_s", st->alltoall_s);
        if (r->shape.experts > 0) {
            SNUM("moe_imbalance", st->moe_imbalance);
            SNUM("moe_layers_per_stage", st->moe_layers_per_stage);
            SNUM("dense_layers_per_stage", st->dense_layers_per_stage);
            SNUM("layers_per_stage", st->layers_per_stage);
            SNUM("expert_rows", st->expert_rows);
            SNUM("expert_gemm_flop", st->expert_gemm_flop * st->micro_batches);
            SNUM("alltoall_bytes", st->alltoall_bytes);
            SNUM("alltoall_one_s", st->alltoall_1_s);
            SNUM("alltoall_node_share", st->alltoall_node_share);
            json_object_set_new(so, "moe_dispatch", json_string(in->moe_dedup ? "dedup"
                                                                               : "alltoall"));
            json_object_set_new(so, "moe_node_limit", json_integer(in->moe_node_limit));
            json_object_set_new(so, "moe_overlap", json_boolean(in->moe_overlap));
            SNUM("alltoall_hidden_s", st->alltoall_hidden_s);
            SNUM("dp_expert_bytes", st->dp_expert_bytes);
        }
        SNUM("hardware_flop_executed", st->hardware_flop);
        SNUM("peak_expected_flop_per_s", st->peak_expected);
        SNUM("attention_peak_expected_flop_per_s", st->attn_peak_expected);
        SNUM("attention_efficiency", st->attn_eff);
        SNUM("mem_bw_expected_bytes_per_s", st->mem_bw_expected);
#undef SNUM
        json_object_set_new(so, "ledger", gp_cli_jledger(&st->ledger));
        json_object_set_new(o, "step", so);
        NUM("step_s", st->step_s);
        NUM("bubble_s", st->bubble_s);
        NUM("tp_comm_s", st->tp_comm_s);
        NUM("dp_comm_exposed_s", st->dp_comm_exposed_s);
        NUM("global_batch", st->global_batch);
        NUM("alltoall_s", st->alltoall_s);
    }
#undef NUM
    json_object_set_new(o, "ledger", gp_cli_jledger(&r->ledger));
    for (i = 0; i < na; i++)
        jassume(arr, a[i].name, a[i].value, a[i].src);
    json_object_set_new(o, "assumptions", arr);
    {
        json_t *wa = json_array();
        for (i = 0; i < nw; i++)
            json_array_append_new(wa, json_string(w[i]));
        json_object_set_new(o, "warnings", wa);
    }
    return gp_cli_emit(o) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
}

static int run(gp_cli *cli, int argc, char **argv)
{
    gp_train_in in;
    gp_train_params p;
    gp_train_result r;
    gp_err e;
    const gp_db *db;
    const char *gpu_id = NULL, *model_id = NULL, *seq_src, *sup_id = NULL, *sout_id = NULL;
    const char *base_fmt = NULL;
    double gb_tokens = 0.0;
    int step_opts = 0, imb_set = 0, aeff_set = 0, fp8s_set = 0, shape_given;
    int c, have_params = 0, have_tokens = 0, rc, ffn_kind = 0, tied = 0;
    long lv;
    double dv, dims[7] = {0, 0, 0, 0, 0, 0, 0}; /* --layers .. --ffn          */
    gp_train_shape shape;
    gp_model mcopy;
    assumption as[40];
    size_t nas, nw, k;
    char w[TRAIN_WARN_MAX][256];
    gp_cli_link_opt lk;

    gp_train_in_init(&in);
    gp_train_params_init(&p);
    gp_cli_link_opt_init(&lk);
    gp_err_clear(&e);
    while ((c = gp_cli_getopt(cli, argc, argv, ":h", opts)) != -1) {
        rc = 0;
        switch (c) {
        case O_GPU:
            gpu_id = optarg;
            break;
        case O_GPUS:
            rc = gp_cli_int(cli, "--gpus", optarg, 1, &in.gpus);
            break;
        case O_MODEL:
            model_id = optarg;
            break;
        case O_PARAMS:
            rc = pos_qty(cli, "--params", optarg, GP_Q_COUNT, &in.params);
            have_params = 1;
            break;
        case O_TOKENS:
            rc = pos_qty(cli, "--tokens", optarg, GP_Q_COUNT, &in.tokens);
            have_tokens = 1;
            break;
        case O_MFU:
            if (strcmp(optarg, "model") == 0) {
                in.mfu_mode = GP_MFU_MODEL;
                in.mfu = 0.0;
                break;
            }
            in.mfu_mode = 0;
            rc = pos_qty(cli, "--mfu", optarg, GP_Q_FRACTION, &in.mfu);
            if (rc == 0 && (in.mfu > 1.0 || in.mfu < GP_TRAIN_MFU_MIN))
                rc = gp_cli_usage(cli, "option '--mfu' must lie in [%g, 1] (got '%s')",
                                  GP_TRAIN_MFU_MIN, optarg);
            break;
        case O_PREC:
            /* The training precisions only: the library's list also names
             * fp64, int8 and int4, which the planner refuses. */
            if (gp_precision_parse(optarg, &in.precision, &e) != GP_OK)
                rc = gp_cli_usage(cli,
                                  "option '--precision': unknown precision '%.64s' (use bf16, "
                                  "fp16, fp8, fp4, tf32 or fp32)",
                                  optarg);
            in.precision_set = 1;
            break;
        case O_EXACT:
            in.count = GP_COUNT_EXACT;
            break;
        case O_CAUSAL:
            p.causal_attention = 1;
            break;
        case O_RECOMP:
            if (gp_train_recompute_parse_layers(optarg, &in.recompute, &in.recompute_layers, &e) !=
                GP_OK)
                rc = gp_cli_fail(cli, &e);
            break;
        case O_ZERO:
            rc = gp_cli_int(cli, "--zero", optarg, 0, &lv);
            if (rc == 0 && lv > 3)
                rc = gp_cli_usage(cli, "option '--zero' must be 0, 1, 2 or 3 (got '%s')", optarg);
            in.zero = (int)(lv > 3 ? 3 : lv);
            break;
        case O_TP:
            rc = gp_cli_int(cli, "--tp", optarg, 1, &in.tp);
            break;
        case O_PP:
            rc = gp_cli_int(cli, "--pp", optarg, 1, &in.pp);
            break;
        case O_NOSP:
            in.sequence_parallel = 0;
            break;
        case O_OPT:
            if (gp_train_optimizer_parse(optarg, &in.optimizer, &e) != GP_OK)
                rc = gp_cli_fail(cli, &e);
            break;
        case O_LORA:
            rc = pos_qty(cli, "--lora-params", optarg, GP_Q_COUNT, &in.lora_params);
            if (rc == 0 && in.lora_params != floor(in.lora_params))
                rc = gp_cli_usage(cli, "option '--lora-params': a parameter count is whole "
                                       "(got '%s')", optarg);
            break;
        case O_BASEFMT:
            base_fmt = optarg;
            break;
        case O_SEQ:
            rc = gp_cli_int(cli, "--seq", optarg, 1, &lv);
            in.seq = (double)lv;
            break;
        case O_MB:
            rc = gp_cli_int(cli, "--micro-batch", optarg, 1, &lv);
            in.micro_batch = (double)lv;
            break;
        case O_STEP:
            rc = pos_qty(cli, "--step-time", optarg, GP_Q_DURATION, &in.step_time);
            break;
        case O_TPS:
            rc = pos_qty(cli, "--tokens-per-step", optarg, GP_Q_COUNT, &in.tokens_per_step);
            break;
        case O_BATCH:
            rc = gp_cli_int(cli, "--batch", optarg, 1, &lv);
            in.batch = (double)lv;
            break;
        case O_PRICE:
            rc = pos_qty(cli, "--price", optarg, GP_Q_NUMBER, &in.price);
            break;
        case O_PURCHASE:
            rc = pos_qty(cli, "--purchase", optarg, GP_Q_NUMBER, &in.purchase);
            break;
        case O_YEARS:
            rc = pos_qty(cli, "--years", optarg, GP_Q_NUMBER, &in.years);
            break;
        case O_PUE:
            rc = pos_qty(cli, "--pue", optarg, GP_Q_NUMBER, &in.pue);
            if (rc == 0 && in.pue < 1.0)
                rc = gp_cli_usage(cli, "option '--pue' must be >= 1 (got '%s')", optarg);
            break;
        case O_KWH:
            rc = pos_qty(cli, "--kwh-price", optarg, GP_Q_NUMBER, &in.kwh_price);
            break;
        case O_GB: {
            size_t len = strlen(optarg);
            char buf[64];
            if (len > 3 && len < sizeof buf && strcmp(optarg + len - 3, "tok") == 0) {
                memcpy(buf, optarg, len - 3);
                buf[len - 3] = '\0';
                rc = pos_qty(cli, "--global-batch", buf, GP_Q_COUNT, &gb_tokens);
            } else {
                rc = gp_cli_int(cli, "--global-batch", optarg, 1, &lv);
                in.global_batch = (double)lv;
            }
            break;
        }
        case O_SUP:
            sup_id = optarg;
            break;
        case O_LINK_BW:
        case O_LINK_LAT:
            rc = gp_cli_link_opt_parse(cli, &lk, c == O_LINK_LAT, optarg);
            break;
        case O_SOUT:
            sout_id = optarg;
            break;
        case O_GPN:
            rc = gp_cli_int(cli, "--gpus-per-node", optarg, 1, &in.gpus_per_node);
            break;
        case O_NICS:
            rc = gp_cli_int(cli, "--nics-per-node", optarg, 1, &in.nics_per_node);
            break;
        case O_INTERLEAVE:
            rc = gp_cli_int(cli, "--interleave", optarg, 1, &in.interleave);
            break;
        case O_ATTN:
            rc = gp_cli_attention(cli, optarg, &in.attn_unfused);
            break;
        case O_AEFF: {
            double f;
            if (gp_cli_fraction(cli, "--attention-eff", optarg, 0.05, &f))
                return GP_EXIT_USAGE;
            p.step_flash_eff = f;
            aeff_set = 1;
            break;
        }
        case O_FP8S:
            if (strcmp(optarg, "current") == 0)
                p.step_fp8_amax_bytes = 2.0;
            else if (strcmp(optarg, "delayed") == 0)
                p.step_fp8_amax_bytes = 0.0;
            else
                return gp_cli_usage(cli, "option '--fp8-scaling' takes current or delayed "
                                         "(got '%s')", optarg);
            fp8s_set = 1;
            break;
        case O_NODPOV:
            in.dp_no_overlap = 1;
            break;
        case O_EP:
            rc = gp_cli_int(cli, "--ep", optarg, 1, &in.ep);
            break;
        case O_CP:
            rc = gp_cli_int(cli, "--cp", optarg, 1, &in.cp);
            break;
        case O_LAYERS:
        case O_HIDDEN:
        case O_HEADS:
        case O_KVHEADS:
        case O_HEADDIM:
        case O_VOCAB:
        case O_FFN: {
            static const char *const names[] = {"--layers",   "--hidden", "--heads", "--kv-heads",
                                                "--head-dim", "--vocab",  "--ffn"};
            size_t at = (size_t)(c - O_LAYERS);
            rc = gp_cli_int(cli, names[at], optarg, 1, &lv);
            if (rc == 0 && (double)lv > GP_MODEL_DIM_MAX)
                rc = gp_cli_usage(cli, "option '%s' must be <= 1e9 (got '%s')", names[at],
                                  optarg);
            dims[at] = (double)lv;
            break;
        }
        case O_FFNKIND:
            if (strcmp(optarg, "gated") == 0 || strcmp(optarg, "swiglu") == 0)
                ffn_kind = 3;
            else if (strcmp(optarg, "plain") == 0 || strcmp(optarg, "gelu") == 0)
                ffn_kind = 2;
            else
                rc = gp_cli_usage(cli, "'--ffn-kind' must be 'gated' (swiglu) or 'plain' "
                                       "(gelu) (got '%s')", optarg);
            break;
        case O_TIED:
            tied = 1;
            break;
        case O_DISPATCH:
            if (strcmp(optarg, "dedup") == 0 || strcmp(optarg, "deepep") == 0)
                in.moe_dedup = 1;
            else if (strcmp(optarg, "alltoall") == 0)
                in.moe_dedup = 0;
            else
                rc = gp_cli_usage(cli, "'--moe-dispatch' must be 'alltoall' or 'dedup' (got "
                                       "'%s')", optarg);
            imb_set = 1;
            break;
        case O_NODELIM:
            rc = gp_cli_int(cli, "--moe-node-limit", optarg, 1, &in.moe_node_limit);
            imb_set = 1;
            break;
        case O_MOEOVL:
            in.moe_overlap = 1;
            imb_set = 1;
            break;
        case O_IMB:
            rc = gp_cli_qty(cli, "--moe-imbalance", optarg, GP_Q_NUMBER, &in.moe_imbalance);
            if (rc == 0 && !(in.moe_imbalance >= 1.0))
                rc = gp_cli_usage(cli, "option '--moe-imbalance' must be >= 1 (got '%s')",
                                  optarg);
            imb_set = 1;
            break;
        case 'h':
        case O_HELP:
            usage(stdout);
            return GP_EXIT_OK;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':':
            return gp_cli_usage(cli, "option '%s' needs a value", argv[optind - 1]);
        default:
            return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
        }
        if (rc != 0)
            return rc;
    }
    if (optind < argc)
        return gp_cli_usage(cli, "unexpected argument '%s'", argv[optind]);
    if (gpu_id == NULL)
        return gp_cli_required(cli, "--gpu", NULL, NULL);
    if (!have_tokens)
        return gp_cli_required(cli, "--tokens", NULL, NULL);
    for (k = 0; k < 7 && !(dims[k] > 0.0); k++)
        ;
    shape_given = k < 7 || ffn_kind != 0 || tied;
    if (model_id != NULL && have_params && !shape_given)
        return gp_cli_usage(cli, "give '--model' or '--params', not both");
    if (model_id == NULL && !have_params && !shape_given)
        return gp_cli_usage(cli, "give '--model ID', '--params N' or a shape ('--layers', "
                                 "'--hidden', '--heads', '--vocab', '--ffn')");
    if (in.tokens_per_step > 0 && in.batch > 0)
        return gp_cli_usage(cli, "give '--tokens-per-step' or '--batch', not both");
    if ((in.tokens_per_step > 0 || in.batch > 0) && in.step_time <= 0)
        return gp_cli_required(cli, "--step-time", NULL,
                               "with '--tokens-per-step' or '--batch' (profile mode)");
    if (in.step_time > 0 && in.tokens_per_step <= 0 && in.batch <= 0)
        return gp_cli_required(cli, "--tokens-per-step", "'--batch'", "with '--step-time'");
    step_opts = in.global_batch > 0 || gb_tokens > 0 || sup_id != NULL || sout_id != NULL ||
                in.gpus_per_node > 0 || in.nics_per_node > 0 || in.interleave > 0 ||
                in.attn_unfused || in.dp_no_overlap || gp_cli_link_opt_given(&lk) || lk.lat >= 0.0;
    if (step_opts && in.mfu_mode != GP_MFU_MODEL)
        return gp_cli_usage(cli, "options '--global-batch', '--scale-up', '--link-bw', "
                                 "'--link-latency', '--scale-out', '--gpus-per-node', "
                                 "'--nics-per-node', '--interleave', '--attention' and "
                                 "'--no-dp-overlap' need '--mfu model'");
    if (aeff_set && in.mfu_mode != GP_MFU_MODEL)
        return gp_cli_usage(cli, "option '--attention-eff' needs '--mfu model' (a given or "
                                 "default MFU already holds the attention's rate)");
    if (fp8s_set && in.mfu_mode != GP_MFU_MODEL)
        return gp_cli_usage(cli, "option '--fp8-scaling' needs '--mfu model' (a given or "
                                 "default MFU already holds the casts' cost)");
    if (fp8s_set && !(in.precision_set && (in.precision == GP_FP8 || in.precision == GP_FP4)))
        return gp_cli_usage(cli, "option '--fp8-scaling' needs '--precision fp8' or 'fp4' "
                                 "(16-bit training casts nothing)");
    if (aeff_set && in.attn_unfused)
        return gp_cli_usage(cli, "option '--attention-eff' is the fused kernel's rate; "
                                 "'--attention unfused' prices its GEMMs on their roofline");
    if (in.moe_node_limit > 0 && !in.moe_dedup)
        return gp_cli_usage(cli, "option '--moe-node-limit' needs '--moe-dispatch dedup'");
    if (imb_set && in.mfu_mode != GP_MFU_MODEL)
        return gp_cli_usage(cli, "options '--moe-imbalance', '--moe-dispatch', "
                                 "'--moe-node-limit' and '--moe-overlap' need '--mfu model'");
    if (in.step_time > 0 && in.mfu_mode == GP_MFU_MODEL)
        return gp_cli_usage(cli, "option '--mfu model' and '--step-time' exclude each other "
                                 "(the profile implies the MFU)");
    if (in.step_time > 0 && in.mfu > 0)
        return gp_cli_usage(cli, "'--mfu' and '--step-time' exclude each other (the "
                                 "profile implies the MFU)");

    if ((rc = gp_cli_model_file(cli, &model_id)) != GP_EXIT_OK)
        return rc;
    db = gp_cli_db(cli);
    if (db == NULL)
        return GP_EXIT_USAGE;
    if (gp_db_get_gpu(db, gpu_id, "--gpu", &in.gpu, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (model_id != NULL && gp_db_get_model(db, model_id, "--model", &in.model, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (base_fmt != NULL) {
        const gp_format *bf;
        if (gp_db_get_format(db, base_fmt, "--base-format", &bf, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
        in.base_bits = bf->bits.v;
    }
    if (shape_given) {
        double cnt[2] = {0.0, 0.0};
        if ((rc = shape_from_options(cli, in.model, dims, ffn_kind, tied, &shape)) != 0)
            return rc;
        in.shape = &shape;
        /* The count: --params, else the shape's own (a --model's count no
         * longer describes a changed shape); the model's other fields (its
         * training sequence, context) stay. */
        if (!have_params || in.mfu_mode == GP_MFU_MODEL) {
            if ((rc = count_shape(cli, &shape, cnt)) != 0)
                return rc;
            /* The step model times the shape: a count of another size
             * would put its MFU on another model's FLOPs. */
            if (have_params && fabs(in.params / cnt[0] - 1.0) > 0.10)
                return gp_cli_usage(cli, "'--params' %g is not the shape's own count %.0f "
                                         "(%+.0f %%), which '--mfu model' times: leave "
                                         "'--params' out, or give the shape of that model",
                                    in.params, cnt[0], 100.0 * (in.params / cnt[0] - 1.0));
            if (!have_params)
                in.params = cnt[0];
        }
        if (in.model != NULL) {
            mcopy = *in.model;
            mcopy.params.v = in.params;
            mcopy.params.src = have_params ? "--params" : "counted from the command-line shape";
            /* --params with a shape the step model checked (cnt known):
             * its active share stays the shape's (a MoE's experts). */
            mcopy.params_active.v = !have_params ? cnt[1]
                                    : cnt[0] > 0.0 ? cnt[1] * in.params / cnt[0]
                                                   : 0.0;
            mcopy.params_active.src = mcopy.params.src;
            in.model = &mcopy;
        }
    }
    if (in.mfu_mode == GP_MFU_MODEL && in.gpus > 1 && sup_id == NULL &&
        !gp_cli_link_opt_given(&lk) &&
        gp_cli_unified_needs_link(in.gpu, sout_id != NULL, (double)in.gpus_per_node)) {
        char lead[48];
        snprintf(lead, sizeof lead, "'--gpus' %ld: ", in.gpus);
        return gp_cli_refuse_unified(cli, lead, in.gpu, "the step model of several",
                                     "--scale-up");
    }
    if (in.mfu_mode == GP_MFU_MODEL) {
        const char *up = sup_id;
        /* --link-bw without --scale-up: a link of the user's own. */
        if (up == NULL && !gp_cli_link_opt_given(&lk)) {
            /* The GPU's own link for a node of --gpus-per-node, else of the
             * default 8 (or fewer GPUs): a bridge that joins fewer gives way
             * to the host link, as decode, allreduce and scale take it (an
             * NVSwitch domain too small stays refused: bad-input row 203). */
            char link_msg[320];
            double node = fmin(in.gpus_per_node > 0 ? (double)in.gpus_per_node : 8.0,
                               (double)in.gpus);
            up = gp_cli_gpu_link(db, in.gpu, node, (double)in.gpus, 1, "--scale-up", link_msg,
                                 sizeof link_msg);
            if (link_msg[0] != '\0')
                gp_cli_note(cli, "note", "%s", link_msg);
        }
        if (up != NULL &&
            gp_db_get_link(db, up, sup_id != NULL ? "--scale-up" : "--gpu", &in.scale_up, &e) !=
                GP_OK)
            return gp_cli_fail(cli, &e);
        if ((in.scale_up != NULL || gp_cli_link_opt_given(&lk)) &&
            (rc = gp_cli_link_opt_apply(cli, &lk, in.scale_up, &in.scale_up)) != 0)
            return rc;
        if (sout_id != NULL && (rc = gp_cli_scale_out(cli, db, sout_id, &in.scale_out)) != 0)
            return rc;
        if (gb_tokens > 0) {
            /* tokens -> sequences: the sequence length is resolved as the
             * model does (given, model context capped, or the default). */
            double sq = gp_train_seq(&in, &p);
            in.global_batch = gb_tokens / sq;
            if (in.global_batch != floor(in.global_batch)) {
                double lo = floor(in.global_batch);
                if (lo < 1.0)
                    return gp_cli_usage(cli, "option '--global-batch': %g tokens is not a "
                                             "whole number of %g-token sequences (nearest: "
                                             "--global-batch 1)", gb_tokens, sq);
                return gp_cli_usage(cli, "option '--global-batch': %g tokens is not a whole "
                                         "number of %g-token sequences (nearest: "
                                         "--global-batch %.0f or %.0f)", gb_tokens, sq, lo,
                                    lo + 1.0);
            }
        }
    }
    if (gp_train_estimate(&in, &p, &r, &e) != GP_OK)
        return gp_cli_fail(cli, &e);

    dv = in.model != NULL ? in.model->context.v : 0.0;
    seq_src = in.seq > 0 ? "--seq"
              : in.model != NULL && in.model->train_seq.v > 0.0
                  ? (in.model->train_seq.src != NULL ? in.model->train_seq.src
                                                     : "model pre-training sequence")
              : dv > 0 ? (dv <= p.max_default_seq ? "model context"
                                                    : "model context capped at 8192")
                         : "default 2048 (GPT-3 / LLaMA-1 pre-training length)";
    nas = build_assumptions(&in, &r, &p, seq_src, as, sizeof as / sizeof as[0]);
    /* The two links' scopes mixed up (a NIC inside a node, NVLink between
     * nodes) are priced as asked and said, as allreduce says them. */
    if (r.step_model)
        gp_cli_note_link_scopes(cli, "--scale-up", sup_id != NULL ? in.scale_up : NULL,
                                fmin((double)r.step.gpus_per_node, (double)in.gpus),
                                in.scale_out, in.gpus > r.step.gpus_per_node,
                                "--gpus-per-node G");
    /* Options that price nothing here are said, as allreduce and scale say
     * them: the step model's GPUs all in one node use no scale-out. */
    if (r.step_model && in.gpus <= r.step.gpus_per_node) {
        const char *un[] = {in.scale_out != NULL ? "--scale-out" : NULL,
                            in.nics_per_node > 0 ? "--nics-per-node" : NULL};
        char why[48];
        snprintf(why, sizeof why, "the %ld GPU%s one node", in.gpus,
                 in.gpus == 1 ? " is" : "s are");
        gp_cli_note_ignored(cli, un, 2, why);
    } else if (r.step_model)
        gp_cli_note_nics(cli, in.nics_per_node, r.step.gpus_per_node);
    nw = train_warnings(&in, &p, &r, w);
    for (k = 0; k < nw; k++)
        fprintf(stderr, "gpuplan train: warning: %s\n", w[k]);
    if (cli->json)
        return emit_json(&in, &r, as, nas, w, nw);
    print_table(&in, &r, as, nas);
    return GP_EXIT_OK;
}

const gp_cli_command gp_cli_cmd_train = {
    "train", "training run: FLOPs, GPU-days, wall-clock, memory per GPU, cost", run, 0};
