/* Training planner: FLOP counts, time at an MFU, profile extrapolation,
 * memory per GPU and cost.  Pure functions; derivations and sources in
 * docs/models/training.md. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/train.h"

#define SECONDS_PER_DAY 86400.0
#define SECONDS_PER_YEAR (365.25 * 86400.0)

void gp_train_params_init(gp_train_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    /* Published A100/H100 pre-training runs, 6ND convention: LLaMA-1 and
     * Llama 2 GPU-hour tables imply 0.38-0.48, Llama 3 405B reports 38-43 %
     * BF16 MFU, Megatron's 44-47 % HFU is ~0.35 MFU; the article says
     * clusters reach 40-60 %.  0.40 is the round lower-middle figure. */
    p->mfu_fallback = 0.40;
    p->mfu_fallback_src =
        "gpuplan fallback 0.40: published large runs reach 0.38-0.48 "
        "(Touvron et al. 2023 LLaMA/Llama 2 Table 2; Dubey et al. 2024 Llama 3 "
        "§3.3.2: 38-43 %)";
    p->reserve_bytes = 1073741824.0; /* 1 GiB */
    p->reserve_fraction = 0.05;
    p->reserve_src = "gpuplan runtime reserve: 1 GiB (CUDA context, cuBLAS and NCCL "
                     "workspaces) + 5 % of usable memory (caching-allocator "
                     "fragmentation)";
    p->causal_attention = 0;   /* PaLM, Megatron and MosaicML count all s^2 */
    p->default_seq = 2048.0;   /* GPT-3 and LLaMA-1 pre-training length      */
    p->max_default_seq = 8192.0;
    p->aspect_ratio = 128.0;   /* h/L of GPT-3 175B, LLaMA 7B and 13B         */
    p->head_dim = 128.0;
    p->vocab = 32000.0;        /* LLaMA / Llama 2 tokenizer                   */
    p->years = 3.0;
    p->years_src = "3-year depreciation (source article; common server life)";
    p->pue = 1.2;
    p->pue_src = "PUE 1.2: modern AI facility (Uptime Institute 2023 survey "
                 "average over all sites is 1.58)";
    p->kwh_price = 0.08;
    p->kwh_src = "USD 0.08/kWh: US industrial average 2023, 8.06 cents/kWh (EIA "
                 "Electric Power Annual 2023)";
}

void gp_train_in_init(gp_train_in *in)
{
    if (in == NULL)
        return;
    memset(in, 0, sizeof *in);
    in->gpus = 1;
    in->tp = 1;
    in->pp = 1;
    in->micro_batch = 1.0;
    in->sequence_parallel = 1;
    in->optimizer = GP_OPT_ADAM;
    in->recompute = GP_RECOMPUTE_SELECTIVE;
    in->count = GP_COUNT_6ND;
    in->precision = GP_BF16;
}

/* ---- shape ------------------------------------------------------------- */

static double shape_q_dim(const gp_train_shape *s)
{
    double hd = s->head_dim > 0.0 ? s->head_dim : s->hidden / s->heads;
    return s->heads * hd;
}

static double shape_kv_dim(const gp_train_shape *s)
{
    double hd = s->head_dim > 0.0 ? s->head_dim : s->hidden / s->heads;
    double kvh = s->kv_heads > 0.0 ? s->kv_heads : s->heads;
    return kvh * hd;
}

/* Matrix parameters of one layer's attention projections: Q, K, V, O. */
static double attn_proj_params(const gp_train_shape *s)
{
    double q, kv;
    if (s->attn_params > 0.0)
        return s->attn_params;
    q = shape_q_dim(s);
    kv = shape_kv_dim(s);
    return 2.0 * s->hidden * q + 2.0 * s->hidden * kv;
}

/* FFN parameters summed over the layers, split into the part per FFN matrix
 * (x k matrices gives the FFN weights) and the MoE routers; `active`
 * counts only the experts one token passes through. */
static void ffn_parts(const gp_train_shape *s, int active, double *per_matrix,
                      double *router)
{
    if (s->experts > 0.0) {
        double n_dense = s->dense_layers;
        double n_moe = s->layers - n_dense;
        double fe = s->expert_ffn_hidden > 0.0 ? s->expert_ffn_hidden : s->ffn_hidden;
        double n_exp = (active ? s->experts_active : s->experts) + s->shared_experts;
        *per_matrix = s->hidden * (n_dense * s->ffn_hidden + n_moe * n_exp * fe);
        *router = n_moe * s->hidden * s->experts;
    } else {
        *per_matrix = s->layers * s->hidden * s->ffn_hidden;
        *router = 0.0;
    }
}

static double ffn_params(const gp_train_shape *s, int active)
{
    double per, router;
    double k = s->ffn_matrices > 0.0 ? s->ffn_matrices : 2.0;
    ffn_parts(s, active, &per, &router);
    return k * per + router;
}

double gp_train_shape_params(const gp_train_shape *s, int active)
{
    if (s == NULL || s->layers <= 0.0 || s->hidden <= 0.0 || s->heads <= 0.0)
        return 0.0;
    return s->layers * attn_proj_params(s) + ffn_params(s, active) +
           s->vocab * s->hidden * (s->tied_embeddings ? 1.0 : 2.0);
}

int gp_train_shape_from_model(const gp_model *m, gp_train_shape *s, gp_err *e)
{
    double p2, p3;
    if (m == NULL || s == NULL)
        return GP_RAISE(e, GP_EINVAL, "no model given");
    memset(s, 0, sizeof *s);
    if (m->layers.v <= 0.0 || m->hidden.v <= 0.0 || m->heads.v <= 0.0 ||
        m->vocab.v <= 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--model", 0, 0,
                           "model '%s' lacks layers/hidden/heads/vocab",
                           m->id ? m->id : "?");
    s->layers = m->layers.v;
    s->hidden = m->hidden.v;
    s->heads = m->heads.v;
    s->kv_heads = m->kv_heads.v > 0.0 ? m->kv_heads.v : m->heads.v;
    s->head_dim = m->head_dim.v > 0.0 ? m->head_dim.v : m->hidden.v / m->heads.v;
    s->ffn_hidden = m->ffn_hidden.v > 0.0 ? m->ffn_hidden.v : 4.0 * m->hidden.v;
    s->vocab = m->vocab.v;
    s->tied_embeddings = m->tied_embeddings;
    s->experts = m->experts.v;
    s->experts_active = m->experts_active.v;
    s->shared_experts = m->shared_experts.v;
    s->expert_ffn_hidden = m->expert_ffn_hidden.v;
    s->dense_layers = m->dense_layers.v;
    /* Gated (SwiGLU, 3 matrices) or not (2): whichever reproduces the
     * model's parameter count more closely. */
    if (m->attention != NULL && strcasecmp(m->attention, "mla") == 0) {
        double rest;
        s->ffn_matrices = 3.0;
        rest = m->params.v - ffn_params(s, 0) -
               s->vocab * s->hidden * (s->tied_embeddings ? 1.0 : 2.0);
        if (rest > 0.0)
            s->attn_params = rest / s->layers;
        return GP_OK;
    }
    {
        double per, router, rest;
        ffn_parts(s, 0, &per, &router);
        rest = s->layers * attn_proj_params(s) + router +
               s->vocab * s->hidden * (s->tied_embeddings ? 1.0 : 2.0);
        p2 = rest + 2.0 * per;
        p3 = rest + 3.0 * per;
    }
    s->ffn_matrices =
        m->params.v > 0.0 && fabs(p2 - m->params.v) < fabs(p3 - m->params.v) ? 2.0 : 3.0;
    return GP_OK;
}

void gp_train_fwd_flop_per_token(const gp_train_shape *s, double seq, int causal,
                                 double *layers_matmul, double *attention,
                                 double *logits)
{
    double mm = 0.0, at = 0.0, lg = 0.0;
    if (s != NULL && s->layers > 0.0 && s->hidden > 0.0 && s->heads > 0.0) {
        /* Every matrix element used by a token costs one multiply-add. */
        mm = 2.0 * (s->layers * attn_proj_params(s) + ffn_params(s, 1));
        /* Q.K^T and P.V: 2 * seq * q_dim each, per layer. */
        at = 4.0 * seq * shape_q_dim(s) * s->layers * (causal ? 0.5 : 1.0);
        lg = 2.0 * s->hidden * s->vocab;
    }
    if (layers_matmul != NULL)
        *layers_matmul = mm;
    if (attention != NULL)
        *attention = at;
    if (logits != NULL)
        *logits = lg;
}

double gp_train_activation_bytes_per_layer(double seq, double micro_batch,
                                           double hidden, double heads, double t,
                                           int sp, gp_train_recompute rc)
{
    double sbh = seq * micro_batch * hidden;
    double score = 5.0 * heads * seq / hidden; /* softmax, dropout, mask     */
    if (t < 1.0)
        t = 1.0;
    switch (rc) {
    case GP_RECOMPUTE_FULL:
        return sp ? 2.0 * sbh / t : 2.0 * sbh;
    case GP_RECOMPUTE_SELECTIVE:
        return sp ? 34.0 * sbh / t : sbh * (10.0 + 24.0 / t);
    case GP_RECOMPUTE_NONE:
    default:
        return sp ? sbh * (34.0 + score) / t : sbh * (10.0 + 24.0 / t + score / t);
    }
}

void gp_train_state_bytes(gp_train_optimizer opt, int mixed, double *weight,
                          double *grad, double *optim)
{
    double w = mixed ? 2.0 : 4.0, g = mixed ? 2.0 : 4.0;
    double master = mixed ? 4.0 : 0.0, o;
    switch (opt) {
    case GP_OPT_ADAM8BIT:
        o = master + 2.0; /* m and v in 8 bits (block-wise quantised)       */
        break;
    case GP_OPT_SGD:
        o = master + 4.0; /* fp32 momentum                                   */
        break;
    case GP_OPT_ADAM:
    default:
        o = master + 8.0; /* fp32 m and v                                    */
        break;
    }
    if (weight != NULL)
        *weight = w;
    if (grad != NULL)
        *grad = g;
    if (optim != NULL)
        *optim = o;
}

/* ---- names ------------------------------------------------------------- */

const char *gp_train_recompute_name(gp_train_recompute r)
{
    switch (r) {
    case GP_RECOMPUTE_NONE:
        return "none";
    case GP_RECOMPUTE_SELECTIVE:
        return "selective";
    case GP_RECOMPUTE_FULL:
        return "full";
    default:
        return "unknown";
    }
}

int gp_train_recompute_parse(const char *s, gp_train_recompute *out, gp_err *e)
{
    if (s != NULL && strcasecmp(s, "none") == 0)
        *out = GP_RECOMPUTE_NONE;
    else if (s != NULL && strcasecmp(s, "selective") == 0)
        *out = GP_RECOMPUTE_SELECTIVE;
    else if (s != NULL && strcasecmp(s, "full") == 0)
        *out = GP_RECOMPUTE_FULL;
    else
        return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0,
                           "unknown recompute '%s' (known: none selective full)",
                           s ? s : "");
    return GP_OK;
}

const char *gp_train_optimizer_name(gp_train_optimizer o)
{
    switch (o) {
    case GP_OPT_ADAM:
        return "adam";
    case GP_OPT_ADAM8BIT:
        return "adam8bit";
    case GP_OPT_SGD:
        return "sgd";
    default:
        return "unknown";
    }
}

int gp_train_optimizer_parse(const char *s, gp_train_optimizer *out, gp_err *e)
{
    if (s != NULL && (strcasecmp(s, "adam") == 0 || strcasecmp(s, "adamw") == 0))
        *out = GP_OPT_ADAM;
    else if (s != NULL && (strcasecmp(s, "adam8bit") == 0 ||
                           strcasecmp(s, "adam-8bit") == 0 ||
                           strcasecmp(s, "adamw8bit") == 0))
        *out = GP_OPT_ADAM8BIT;
    else if (s != NULL && strcasecmp(s, "sgd") == 0)
        *out = GP_OPT_SGD;
    else
        return GP_RAISE_AT(e, GP_EINVAL, "--optimizer", 0, 0,
                           "unknown optimizer '%s' (known: adam adam8bit sgd)",
                           s ? s : "");
    return GP_OK;
}

/* ---- the estimate --------------------------------------------------------- */

/* Guess a shape from N: N = 12 L h^2 with h = r L (r = aspect ratio), so
 * h = cbrt(r N / 12); FFN 4h, MHA, head_dim from params.  Embeddings are
 * not subtracted (a 1-3 % larger h for 7B-175B models). */
static void infer_shape(double n, const gp_train_params *p, gp_train_shape *s)
{
    memset(s, 0, sizeof *s);
    s->hidden = cbrt(p->aspect_ratio * n / 12.0);
    s->layers = s->hidden / p->aspect_ratio;
    s->head_dim = p->head_dim;
    s->heads = s->hidden / p->head_dim;
    s->kv_heads = s->heads;
    s->ffn_hidden = 4.0 * s->hidden;
    s->ffn_matrices = 2.0;
    s->vocab = p->vocab;
    s->inferred = 1;
}

/* gp_gpu_peak(g, p, gp_gpu_default_pipeline(g, p), GP_ACC_FP32, 0), inlined
 * for speed (tests/check_train.c checks that they agree on every database
 * GPU): the dense tensor rate when the GPU has one, else the CUDA-core rate. */
static double dense_peak(const gp_gpu *g, gp_precision p, gp_pipeline *pipe)
{
    double v = g->peak[p][GP_PIPE_TENSOR].v;
    if (v > 0.0) {
        *pipe = GP_PIPE_TENSOR;
        return v;
    }
    *pipe = GP_PIPE_CUDA;
    v = g->peak[p][GP_PIPE_CUDA].v;
    return v > 0.0 ? v : 0.0;
}

static int is_mixed(gp_precision pr)
{
    return pr == GP_FP16 || pr == GP_BF16 || pr == GP_FP8 || pr == GP_FP4;
}

/* Least data-parallel degree d >= 1 with a + b/d <= room; 0 when none. */
static double min_dp(double a, double b, double room)
{
    double x, d;
    if (a > room)
        return 0.0;
    if (b <= 0.0)
        return 1.0;
    if (room - a <= 0.0)
        return 0.0;
    x = b / (room - a);
    if (!(x < 9.0e15))
        return 0.0;
    d = (double)(long long)x; /* ceil without libm; x > 0, so d >= 1 */
    if (d < x)
        d += 1.0;
    return d;
}

static long to_long(double v)
{
    return v > 0.0 && v < 9.0e15 ? (long)v : 0L;
}

int gp_train_estimate(const gp_train_in *in, const gp_train_params *pin,
                      gp_train_result *out, gp_err *e)
{
    gp_train_params pdef;
    const gp_train_params *p = pin;
    const gp_gpu *g;
    gp_train_result *r;
    double n, na, tokens, seq, mm, at, lg, hw_selective;
    double ntp, wb, gb, ob, nlayers_act, per_layer, act_units;
    double usable, room, a, b, adapter, u, d, inv_dp, gpus;
    int mixed, k;
    long shards;

    if (p == NULL) {
        gp_train_params_init(&pdef);
        p = &pdef;
    }
    if (in == NULL || out == NULL)
        return GP_RAISE(e, GP_EINVAL, "no training input given");
    g = in->gpu;
    if (g == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpu", 0, 0, "no GPU given");
    r = out;
    memset(r, 0, sizeof *r);

    /* --- inputs ---------------------------------------------------------- */
    tokens = in->tokens;
    if (!(tokens > 0.0) || !isfinite(tokens))
        return GP_RAISE_AT(e, GP_EINVAL, "--tokens", 0, 0,
                           "training tokens must be > 0 (got '%g')", tokens);
    if (in->model != NULL) {
        n = in->model->params.v;
        na = in->model->params_active.v > 0.0 ? in->model->params_active.v : n;
        if (!(n > 0.0))
            return GP_RAISE_AT(e, GP_EINVAL, "--model", 0, 0,
                               "model '%s' has no parameter count",
                               in->model->id ? in->model->id : "?");
    } else {
        n = in->params;
        na = n;
        if (!(n > 0.0) || !isfinite(n))
            return GP_RAISE_AT(e, GP_EINVAL, "--params", 0, 0,
                               "parameter count must be > 0 (got '%g')", n);
    }
    /* Plausibility caps (far beyond any run: the largest models have ~2e12
     * parameters and ~4e13 training tokens) keep every derived figure
     * finite and printable: 6 x 1e15 x 1e18 FLOP, 16 x 1e15 bytes. */
    if (n > 1e15 || na > 1e15)
        return GP_RAISE_AT(e, GP_ERANGE, in->model != NULL ? "--model" : "--params", 0, 0,
                           "parameter count must be <= 1e15 (got '%g')", n);
    if (tokens > 1e18)
        return GP_RAISE_AT(e, GP_ERANGE, "--tokens", 0, 0,
                           "training tokens must be <= 1e18 (got '%g')", tokens);
    if (in->lora_params > 1e15)
        return GP_RAISE_AT(e, GP_ERANGE, "--lora-params", 0, 0,
                           "adapter parameters must be <= 1e15 (got '%g')", in->lora_params);
    if (in->gpus < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "GPU count must be a positive integer (got '%ld')", in->gpus);
    if (in->tp < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--tp", 0, 0,
                           "tensor-parallel degree must be >= 1 (got '%ld')", in->tp);
    if (in->pp < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--pp", 0, 0,
                           "pipeline-parallel degree must be >= 1 (got '%ld')", in->pp);
    shards = in->tp * in->pp;
    if (in->gpus % shards != 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "GPU count '%ld' is not a multiple of tp x pp = %ld",
                           in->gpus, shards);
    if (in->zero < 0 || in->zero > 3)
        return GP_RAISE_AT(e, GP_EINVAL, "--zero", 0, 0,
                           "ZeRO stage must be 0, 1, 2 or 3 (got '%d')", in->zero);
    if (in->mfu != 0.0 && !(in->mfu > 0.0 && in->mfu <= 1.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--mfu", 0, 0,
                           "MFU must lie in (0, 1] (got '%g')", in->mfu);
    if (in->lora_params < 0.0 || !isfinite(in->lora_params))
        return GP_RAISE_AT(e, GP_EINVAL, "--lora-params", 0, 0,
                           "adapter parameters must be > 0 (got '%g')", in->lora_params);
    if (in->micro_batch < 1.0 || !isfinite(in->micro_batch))
        return GP_RAISE_AT(e, GP_EINVAL, "--micro-batch", 0, 0,
                           "micro-batch must be >= 1 (got '%g')", in->micro_batch);
    if (in->seq < 0.0 || !isfinite(in->seq))
        return GP_RAISE_AT(e, GP_EINVAL, "--seq", 0, 0,
                           "sequence length must be > 0 (got '%g')", in->seq);
    if ((in->step_time > 0.0) != (in->tokens_per_step > 0.0 || in->batch > 0.0) ||
        in->step_time < 0.0 || in->tokens_per_step < 0.0 || in->batch < 0.0)
        return GP_RAISE_AT(e, GP_EINVAL,
                           in->step_time > 0.0 ? "--tokens-per-step" : "--step-time", 0, 0,
                           "profile mode needs both a step time > 0 and tokens per "
                           "step (or --batch) "
                           "> 0 (got %g s, %g tokens)",
                           in->step_time, in->tokens_per_step);
    if (in->price < 0.0 || in->purchase < 0.0 || in->years < 0.0 || in->pue < 0.0 ||
        in->kwh_price < 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, in->price < 0.0 ? "--price" : in->years < 0.0 ? "--years"
                                         : in->pue < 0.0 ? "--pue" : in->kwh_price < 0.0
                                                                          ? "--kwh-price"
                                                                          : "--purchase",
                           0, 0, "cost inputs must be >= 0");
    r->dp = in->gpus / shards;
    r->params = n;
    r->params_active = na;

    /* --- precision and peak -------------------------------------------- */
    if (in->precision_set) {
        r->precision = in->precision;
    } else {
        static const gp_precision order[] = {GP_BF16, GP_FP16, GP_TF32, GP_FP32};
        r->precision = GP_FP32;
        for (k = 0; k < 4; k++) {
            if (dense_peak(g, order[k], &r->pipeline) > 0.0) {
                r->precision = order[k];
                break;
            }
        }
    }
    if (r->precision == GP_FP64 || r->precision == GP_INT8 || r->precision == GP_INT4)
        return GP_RAISE_AT(e, GP_EUNSUP, "--precision", 0, 0,
                           "'%s' is not a training precision (use bf16, fp16, fp8, fp4, "
                           "tf32 or fp32)",
                           gp_precision_name(r->precision));
    r->peak_flop_per_s = dense_peak(g, r->precision, &r->pipeline);
    r->peak_src = g->peak[r->precision][r->pipeline].src;
    if (!(r->peak_flop_per_s > 0.0))
        return GP_RAISE_AT(e, GP_EUNSUP, "--precision", 0, 0,
                           "GPU '%s' has no %s rate (choose another precision)",
                           g->id ? g->id : "?", gp_precision_name(r->precision));
    mixed = is_mixed(r->precision);

    /* --- shape and sequence ----------------------------------------------- */
    r->shape_known = 1;
    if (in->shape != NULL && in->shape->layers > 0.0) {
        r->shape = *in->shape;
    } else if (in->model != NULL && in->model->layers.v > 0.0 &&
               gp_train_shape_from_model(in->model, &r->shape, NULL) == GP_OK) {
        /* from the database */
    } else {
        infer_shape(na, p, &r->shape);
        r->shape_known = 0;
    }
    if (in->seq > 0.0)
        seq = in->seq;
    else if (in->model != NULL && in->model->context.v > 0.0)
        seq = in->model->context.v < p->max_default_seq ? in->model->context.v
                                                         : p->max_default_seq;
    else
        seq = p->default_seq;
    r->seq = seq;

    /* --- FLOPs (per token first, then x D) ---------------------------------- */
    gp_train_fwd_flop_per_token(&r->shape, seq, p->causal_attention, &mm, &at, &lg);
    {
        double f6, fx, extra = 0.0;
        if (in->lora_params > 0.0) {
            /* Frozen base: forward (2N) + activation gradients (2N), no
             * weight gradients.  mm and lg are already forward FLOPs (2 per
             * weight), so the frozen matmuls cost 2x forward; the attention
             * core has no weights, so its backward is the usual 2x forward
             * (3x in all).  The adapter trains normally (6). */
            f6 = 4.0 * na + 6.0 * in->lora_params;
            fx = 2.0 * mm + 3.0 * at + 2.0 * lg + 6.0 * in->lora_params;
        } else {
            f6 = 6.0 * na;
            fx = 3.0 * (mm + at + lg);
        }
        /* Recompute adds forward work: full re-runs each layer's forward (not
         * the logit layer; Narayanan et al. 2021 eq. 3), selective re-runs the
         * attention core only (Korthikanti et al. 2022 §5). */
        if (in->recompute == GP_RECOMPUTE_FULL)
            extra = in->count == GP_COUNT_EXACT ? mm + at : 2.0 * na;
        else if (in->recompute == GP_RECOMPUTE_SELECTIVE)
            extra = at;
        r->flop_6nd = f6 * tokens;
        r->flop_exact = fx * tokens;
        r->model_flop_per_token = in->count == GP_COUNT_EXACT ? fx : f6;
        r->hardware_flop_per_token = r->model_flop_per_token + extra;
        hw_selective = r->model_flop_per_token + at;
        r->model_flop = r->model_flop_per_token * tokens;
        r->hardware_flop = r->hardware_flop_per_token * tokens;
    }

    /* --- time -------------------------------------------------------------- */
    gpus = (double)in->gpus;
    if (in->step_time > 0.0) {
        double tps = in->tokens_per_step > 0.0 ? in->tokens_per_step : in->batch * seq;
        r->profiled = 1;
        r->tokens_per_step = tps;
        r->tokens_per_s = tps / in->step_time;
        r->tokens_per_s_per_gpu = r->tokens_per_s / gpus;
        r->mfu = r->model_flop_per_token * r->tokens_per_s_per_gpu / r->peak_flop_per_s;
        r->mfu_src = "implied by the measured step (profile)";
        r->mfu_origin = GP_MFU_PROFILE;
        r->mfu_reference = r->mfu;
    } else {
        if (in->mfu > 0.0) {
            r->mfu = in->mfu;
            r->mfu_src = "--mfu";
            r->mfu_origin = GP_MFU_GIVEN;
        } else if (g->eff_mfu.v > 0.0) {
            r->mfu = g->eff_mfu.v;
            r->mfu_src = g->eff_mfu.src ? g->eff_mfu.src : "database";
            r->mfu_origin = GP_MFU_DATABASE;
        } else {
            r->mfu = p->mfu_fallback;
            r->mfu_src = p->mfu_fallback_src;
            r->mfu_origin = GP_MFU_FALLBACK;
        }
        /* A default is quoted at selective recompute: keep the hardware rate
         * (HFU) and charge the chosen recompute's FLOPs against it. */
        r->mfu_reference = r->mfu;
        if (r->mfu_origin != GP_MFU_GIVEN)
            r->mfu *= hw_selective / r->hardware_flop_per_token;
        /* tokens/s per GPU = peak x MFU / model FLOP per token */
        r->tokens_per_s_per_gpu = r->peak_flop_per_s * r->mfu / r->model_flop_per_token;
        r->tokens_per_s = r->tokens_per_s_per_gpu * gpus;
    }
    /* wall = D / cluster tokens/s; GPU-seconds = wall x GPUs
     *      = model FLOPs / (peak x MFU). */
    r->wall_s = tokens / r->tokens_per_s;
    r->gpu_seconds = r->wall_s * gpus;
    r->hfu = r->mfu * r->hardware_flop_per_token / r->model_flop_per_token;
    r->gpu_hours = r->gpu_seconds * (1.0 / 3600.0);
    r->gpu_days = r->gpu_seconds * (1.0 / SECONDS_PER_DAY);
    r->wall_days = r->wall_s * (1.0 / SECONDS_PER_DAY);
    r->ceiling_gpu_days = r->gpu_seconds * r->mfu * (1.0 / SECONDS_PER_DAY);

    /* --- memory per GPU ---------------------------------------------------- */
    gp_train_state_bytes(in->optimizer, mixed, &wb, &gb, &ob);
    ntp = n / (double)shards;
    adapter = in->lora_params / (double)shards;
    if (in->lora_params > 0.0) {
        /* Frozen base in the training precision; only the adapter trains. */
        r->weight_bytes = ntp * wb + adapter * wb;
        r->grad_bytes = adapter * gb;
        r->optim_bytes = adapter * ob;
    } else {
        r->weight_bytes = ntp * wb;
        r->grad_bytes = ntp * gb;
        r->optim_bytes = ntp * ob;
    }
    /* ZeRO (Rajbhandari et al. 2020): stage 1 shards optimizer states, 2 also
     * gradients, 3 also weights, over the data-parallel degree. */
    a = r->weight_bytes + r->grad_bytes + r->optim_bytes;
    b = 0.0;
    inv_dp = 1.0 / (double)r->dp;
    if (in->zero >= 1) {
        b += r->optim_bytes;
        r->optim_bytes *= inv_dp;
    }
    if (in->zero >= 2) {
        b += r->grad_bytes;
        r->grad_bytes *= inv_dp;
    }
    if (in->zero >= 3) {
        b += r->weight_bytes;
        r->weight_bytes *= inv_dp;
    }
    a -= b; /* unsharded part */
    r->state_bytes = r->weight_bytes + r->grad_bytes + r->optim_bytes;

    /* Activations (Korthikanti et al. 2022): with 1F1B pipelining the first
     * stage holds pp micro-batches of L/pp layers = L layers' worth. */
    act_units = mixed ? 1.0 : 2.0; /* the paper's bytes assume 16-bit     */
    nlayers_act = r->shape.layers;
    per_layer = gp_train_activation_bytes_per_layer(
        seq, in->micro_batch, r->shape.hidden, r->shape.heads, (double)in->tp,
        in->sequence_parallel, in->recompute);
    r->activation_bytes = nlayers_act * per_layer;
    if (in->recompute == GP_RECOMPUTE_FULL) /* the layer being re-run      */
        r->activation_bytes += gp_train_activation_bytes_per_layer(
            seq, in->micro_batch, r->shape.hidden, r->shape.heads, (double)in->tp,
            in->sequence_parallel, GP_RECOMPUTE_NONE);
    {
        double sbh = seq * in->micro_batch * r->shape.hidden;
        double t = (double)in->tp;
        /* Embedding dropout mask (1 B) for the pp micro-batches in flight. */
        r->activation_bytes += sbh * (double)in->pp / (in->sequence_parallel ? t : 1.0);
        /* Last stage: output layer and fp32 cross-entropy, 4sbh/t (1 + V/h). */
        if (in->pp == 1)
            r->activation_bytes += 4.0 * sbh / t * (1.0 + r->shape.vocab / r->shape.hidden);
    }
    r->activation_bytes *= act_units;

    usable = gp_gpu_usable_mem(g);
    r->usable_bytes = usable;
    r->reserve_bytes = p->reserve_bytes + p->reserve_fraction * usable;
    r->total_bytes = r->state_bytes + r->activation_bytes + r->reserve_bytes;
    r->fits = usable > 0.0 && r->total_bytes <= usable;
    room = usable - r->reserve_bytes - r->activation_bytes;
    d = min_dp(a, b, room);
    r->min_gpus = to_long(d * (double)shards);
    d = min_dp(0.0, a + b, room);
    r->min_gpus_zero3 = to_long(d * (double)shards);

    /* --- cost and energy ----------------------------------------------------- */
    r->years = in->years > 0.0 ? in->years : p->years;
    r->pue = in->pue > 0.0 ? in->pue : p->pue;
    r->kwh_price = in->kwh_price > 0.0 ? in->kwh_price : p->kwh_price;
    u = (double)in->gpus;
    r->energy_kwh = u * g->tdp.v * r->pue * r->wall_s * (1.0 / 3.6e6);
    r->cost_energy_usd = r->energy_kwh * r->kwh_price;
    r->rent_per_gpu_hour = in->price > 0.0 ? in->price : g->rent.v > 0.0 ? g->rent.v : NAN;
    r->cost_rent_usd = r->rent_per_gpu_hour * r->gpu_hours;
    {
        double buy = in->purchase > 0.0 ? in->purchase : g->price.v > 0.0 ? g->price.v : NAN;
        r->cost_capex_usd = buy * u * r->wall_s / (r->years * SECONDS_PER_YEAR);
        r->cost_own_usd = r->cost_capex_usd + r->cost_energy_usd;
    }

    /* --- ledger: compute at the MFU; MFU folds in memory and comm stalls --- */
    r->ledger.t[GP_ACCT_COMPUTE] = r->wall_s;
    gp_ledger_close(&r->ledger, GP_OVERLAP_SUM);

    return GP_OK;
}
