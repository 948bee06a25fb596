/* Training planner: FLOP counts, time at an MFU, profile extrapolation,
 * memory per GPU and cost.  Pure functions; derivations and sources in
 * docs/models/training.md. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/comm.h"
#include "gpuplan/infer.h"
#include "gpuplan/train.h"
#include "gemm_int.h"

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
    p->aspect_ratio = GP_MODEL_ASPECT_RATIO; /* h/L of GPT-3 175B, LLaMA 7B, 13B */
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
    p->step_batch_tokens = 4.0e6;  /* LLaMA-1/Llama 2 pre-training batch    */
    p->step_ew_res_bytes = 22.0;
    p->step_ew_score_bytes = 9.0;
    p->step_ew_bwd = 2.0;
    p->step_xent_bytes = 16.0;
    p->step_flash_bwd = 2.5;
    p->step_flash_eff = 0.70;
    p->step_fp8_cast_bytes = 4.0;
    p->step_fp8_amax_bytes = 2.0;
    p->step_tile_m = GP_GEMM_TILE_M;
    p->step_tile_n = GP_GEMM_TILE_N;
    p->step_bucket_bytes = 26214400.0; /* PyTorch DDP bucket_cap_mb = 25    */
    p->step_moe_perm_bytes = 8.0;
    p->step_a2a_sms = 20.0; /* DeepSeek-V3 §3.2.2: 20 of the H800's 132 SMs */
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
    in->ep = 1;
    in->moe_imbalance = 1.0;
}

/* ---- shape ------------------------------------------------------------- */

static double shape_q_dim(const gp_train_shape *s)
{
    double hd = s->head_dim > 0.0 ? s->head_dim : s->hidden / s->heads;
    return s->heads * hd;
}

/* The attention core's width: Q.K^T runs over the query/key head width,
 * P.V over the value's, so its FLOPs are 2 s heads (d_qk + d_v) per token
 * and layer = 4 s x this (heads x (d_qk + d_v) / 2; heads x head_dim when
 * the widths agree). */
static double shape_core_dim(const gp_train_shape *s)
{
    double hd = s->head_dim > 0.0 ? s->head_dim : s->hidden / s->heads;
    double qk = s->qk_head_dim > 0.0 ? s->qk_head_dim : hd;
    return s->heads * (qk + hd) / 2.0;
}

static double shape_kv_dim(const gp_train_shape *s)
{
    double hd = s->head_dim > 0.0 ? s->head_dim : s->hidden / s->heads;
    double kvh = s->kv_heads > 0.0 ? s->kv_heads : s->heads;
    return kvh * hd;
}

/* The layer kinds of a shape as a gp_model carrying only its depth, window
 * and linear-attention layers, so that the attending layers, the window's
 * pairs and the recurrent state come from the one formula the decode
 * planner uses (gp_model_attn_layers, gp_model_attn_pairs,
 * gp_model_state_elems; docs/models/inference.md §1.1-1.2). */
static void shape_kinds(const gp_train_shape *s, gp_model *m)
{
    memset(m, 0, sizeof *m);
    m->layers.v = s->layers;
    m->window.v = s->window;
    m->window_layers.v = s->window_layers;
    m->linear_layers.v = s->linear_layers;
    m->linear_state.v = s->linear_state;
}

/* The layers that attend, L_a = L - L_lin (L without linear layers). */
static double shape_attn_layers(const gp_train_shape *s)
{
    gp_model m;
    shape_kinds(s, &m);
    return gp_model_attn_layers(&m);
}

/* Share of the layers that attend, L_a / L: exactly 1 without linear
 * layers. */
static double shape_attn_share(const gp_train_shape *s)
{
    if (!(s->layers > 0.0))
        return 1.0;
    return shape_attn_layers(s) / s->layers;
}

/* The attention an attending layer does at sequence `seq`, as a share of a
 * global layer's: the causal pairs averaged over the attending layers
 * (gp_model_attn_pairs: W^2/2 + (s - W) W on a local layer past its
 * window) over s^2/2.  Exactly 1 without a window or when s <= W. */
static double shape_window_share(const gp_train_shape *s, double seq)
{
    gp_model m;
    double full = 0.5 * seq * seq;
    if (!(s->window > 0.0) || !(full > 0.0))
        return 1.0;
    shape_kinds(s, &m);
    return gp_model_attn_pairs(&m, seq) / full;
}

/* Forward FLOPs per token of the linear-attention layers' recurrence,
 * GP_INFER_LINEAR_FLOP per state element (inference.md §1.2), all such
 * layers together; 0 without them. */
static double shape_recurrence_flop(const gp_train_shape *s)
{
    gp_model m;
    shape_kinds(s, &m);
    return GP_INFER_LINEAR_FLOP * gp_model_state_elems(&m);
}

/* Matrix parameters of one layer's attention projections: Q (with an
 * output gate twice as wide), K, V, O. */
static double attn_proj_params(const gp_train_shape *s)
{
    double q, kv;
    if (s->attn_params > 0.0)
        return s->attn_params;
    q = shape_q_dim(s);
    kv = shape_kv_dim(s);
    return (s->attn_gate ? 3.0 : 2.0) * s->hidden * q + 2.0 * s->hidden * kv;
}

/* Linear layers whose mixer's parameters are given (linear_params), as a
 * share of the layers: 0 without them. */
static double linear_priced_share(const gp_train_shape *s)
{
    if (!(s->linear_params > 0.0) || !(s->layers > 0.0))
        return 0.0;
    return (s->layers - shape_attn_layers(s)) / s->layers;
}

/* What a layer's token-mixer projections hold beyond the attention's
 * q/k/v/o, averaged over the layers: the linear layers' mixers
 * (linear_params each) in place of the attention on their share of the
 * layers; 0 without linear layers or without their parameters (priced as
 * the attention's, as before the field).  docs/models/training.md 1.2. */
static double mixer_extra_params(const gp_train_shape *s)
{
    double share = linear_priced_share(s);
    return share > 0.0 ? share * (s->linear_params - attn_proj_params(s)) : 0.0;
}

/* Parameters of the token mixers of all the layers (attention projections,
 * linear layers' mixers). */
static double mixers_params(const gp_train_shape *s)
{
    return s->layers * (attn_proj_params(s) + mixer_extra_params(s));
}

/* The experts' matrices k_e: expert_ffn_matrices, else the dense FFN's
 * (ffn_matrices, else 2), as before the field. */
static double expert_mats(const gp_train_shape *s)
{
    return s->expert_ffn_matrices > 0.0 ? s->expert_ffn_matrices
           : s->ffn_matrices > 0.0     ? s->ffn_matrices
                                       : 2.0;
}

/* The layers of a dense shape that hold its FFN: ffn_layers when given
 * and below the depth, else every layer. */
static double shape_ffn_layers(const gp_train_shape *s)
{
    return s->ffn_layers > 0.0 && s->ffn_layers < s->layers ? s->ffn_layers : s->layers;
}

/* FFN parameters summed over the layers, split into the dense FFNs' part
 * per FFN matrix (x k matrices gives their weights), the experts' part per
 * matrix (x k_e) and the MoE routers; `active` counts only the experts one
 * token passes through. */
static void ffn_parts(const gp_train_shape *s, int active, double *per_dense,
                      double *per_expert, double *router)
{
    if (s->experts > 0.0) {
        double n_dense = s->dense_layers;
        double n_moe = s->layers - n_dense;
        double fe = s->expert_ffn_hidden > 0.0 ? s->expert_ffn_hidden : s->ffn_hidden;
        double n_exp = (active ? s->experts_active : s->experts) + s->shared_experts;
        *per_dense = s->hidden * n_dense * s->ffn_hidden;
        *per_expert = s->hidden * n_moe * n_exp * fe;
        *router = n_moe * s->hidden * s->experts;
    } else {
        *per_dense = shape_ffn_layers(s) * s->hidden * s->ffn_hidden;
        *per_expert = 0.0;
        *router = 0.0;
    }
}

static double ffn_params(const gp_train_shape *s, int active)
{
    double pd, pe, router;
    double k = s->ffn_matrices > 0.0 ? s->ffn_matrices : 2.0;
    ffn_parts(s, active, &pd, &pe, &router);
    /* k (pd + pe) when the experts take the dense k: the sum as before. */
    if (s->expert_ffn_matrices > 0.0)
        return k * pd + expert_mats(s) * pe + router;
    return k * (pd + pe) + router;
}

/* Routed-expert matrix parameters of a shape (what expert parallelism
 * shards): k_e x h x f_e x experts x MoE layers; 0 for a dense shape. */
static double routed_expert_params(const gp_train_shape *s)
{
    double fe;
    if (s->experts <= 0.0)
        return 0.0;
    fe = s->expert_ffn_hidden > 0.0 ? s->expert_ffn_hidden : s->ffn_hidden;
    return expert_mats(s) * s->hidden * fe * s->experts * (s->layers - s->dense_layers);
}

double gp_train_shape_params(const gp_train_shape *s, int active)
{
    if (s == NULL || s->layers <= 0.0 || s->hidden <= 0.0 || s->heads <= 0.0)
        return 0.0;
    return mixers_params(s) + ffn_params(s, active) +
           s->vocab * s->hidden * (s->tied_embeddings ? 1.0 : 2.0);
}

int gp_train_shape_from_model(const gp_model *m, gp_train_shape *s, gp_err *e)
{
    double p2, p3;
    if (s != NULL)
        memset(s, 0, sizeof *s);
    if (m == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_shape_from_model: NULL m");
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_shape_from_model: NULL s");
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
    if (m->experts.v > 0.0 && m->expert_ffn_kind != NULL)
        s->expert_ffn_matrices = gp_model_expert_matrices(m);
    s->qk_head_dim = m->qk_head_dim.v;
    s->window = m->window.v;
    s->window_layers = m->window_layers.v;
    if (m->linear_layers.v > 0.0 && m->linear_layers.v < m->layers.v) {
        s->linear_layers = m->linear_layers.v;
        s->linear_state = m->linear_state.v;
        s->linear_params = m->linear_params.v;
    }
    if (!(m->experts.v > 0.0))
        s->ffn_layers = m->ffn_layers.v;
    s->attn_gate = m->attention_gate;
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
        double pd, pe, router, rest;
        ffn_parts(s, 0, &pd, &pe, &router);
        rest = mixers_params(s) + router +
               s->vocab * s->hidden * (s->tied_embeddings ? 1.0 : 2.0);
        /* Experts of a named kind hold k_e each whatever the dense k. */
        if (s->expert_ffn_matrices > 0.0) {
            rest += s->expert_ffn_matrices * pe;
            pe = 0.0;
        }
        p2 = rest + 2.0 * (pd + pe);
        p3 = rest + 3.0 * (pd + pe);
    }
    s->ffn_matrices =
        m->params.v > 0.0 && fabs(p2 - m->params.v) < fabs(p3 - m->params.v) ? 2.0 : 3.0;
    return GP_OK;
}

/* The forward FLOPs per token by part: *mm the layers' matmuls, *attn the
 * attention core on the attending layers (x 0.5 when causal; a local
 * layer's bounded by its window), *rec the linear layers' recurrence, *lg
 * the logit layer.  docs/models/training.md 1.2. */
static void fwd_parts(const gp_train_shape *s, double seq, int causal, double *mm, double *attn,
                      double *rec, double *lg)
{
    *mm = *attn = *rec = *lg = 0.0;
    if (s == NULL || !(s->layers > 0.0) || !(s->hidden > 0.0) || !(s->heads > 0.0))
        return;
    /* Every matrix element used by a token costs one multiply-add. */
    *mm = 2.0 * (mixers_params(s) + ffn_params(s, 1));
    /* Q.K^T and P.V: 2 * seq * heads * d_qk and d_v, per attending layer
     * (L_a = L - L_lin; the window share is 1 on global layers). */
    *attn = 4.0 * seq * shape_core_dim(s) * shape_attn_layers(s) *
            shape_window_share(s, seq) * (causal ? 0.5 : 1.0);
    *rec = shape_recurrence_flop(s);
    *lg = 2.0 * s->hidden * s->vocab;
}

void gp_train_fwd_flop_per_token(const gp_train_shape *s, double seq, int causal,
                                 double *layers_matmul, double *attention,
                                 double *logits)
{
    double mm, at, rec, lg;
    fwd_parts(s, seq, causal, &mm, &at, &rec, &lg);
    if (layers_matmul != NULL)
        *layers_matmul = mm;
    if (attention != NULL)
        *attention = at + rec;
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
    case GP_RECOMPUTE_BLOCK: /* the layers a block keeps whole */
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
    case GP_RECOMPUTE_BLOCK:
        return "block";
    default:
        return "unknown";
    }
}

int gp_train_recompute_parse_layers(const char *s, gp_train_recompute *out, long *layers,
                                    gp_err *e)
{
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_recompute_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_recompute_parse: NULL out");
    if (strncasecmp(s, "block:", 6) == 0) {
        /* Megatron-LM's --recompute-method block: N whole layers a chunk. */
        const char *d = s + 6;
        long n = 0;
        if (*d == '\0')
            return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0,
                               "'%s': block:N needs N, the layers of each model chunk to "
                               "recompute in full (a whole number >= 0)", s);
        for (; *d != '\0'; d++) {
            if (*d >= '0' && *d <= '9')
                n = n * 10 + (*d - '0');
            if (*d < '0' || *d > '9' || n > 1000000) /* checked per digit: no overflow */
                return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0,
                                   "'%s': N in block:N must be a whole number of layers in "
                                   "[0, 1000000]", s);
        }
        if (layers == NULL)
            return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0,
                               "'%s': block:N needs gp_train_recompute_parse_layers", s);
        *out = GP_RECOMPUTE_BLOCK;
        *layers = n;
        return GP_OK;
    }
    if (strcasecmp(s, "none") == 0)
        *out = GP_RECOMPUTE_NONE;
    else if (strcasecmp(s, "selective") == 0)
        *out = GP_RECOMPUTE_SELECTIVE;
    else if (strcasecmp(s, "full") == 0)
        *out = GP_RECOMPUTE_FULL;
    else
        return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0,
                           "unknown recompute '%s' (known: none selective full block:N)", s);
    if (layers != NULL)
        *layers = 0;
    return GP_OK;
}

int gp_train_recompute_parse(const char *s, gp_train_recompute *out, gp_err *e)
{
    return gp_train_recompute_parse_layers(s, out, NULL, e);
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
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_optimizer_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_optimizer_parse: NULL out");
    if (strcasecmp(s, "adam") == 0 || strcasecmp(s, "adamw") == 0)
        *out = GP_OPT_ADAM;
    else if (strcasecmp(s, "adam8bit") == 0 || strcasecmp(s, "adam-8bit") == 0 ||
             strcasecmp(s, "adamw8bit") == 0)
        *out = GP_OPT_ADAM8BIT;
    else if (strcasecmp(s, "sgd") == 0)
        *out = GP_OPT_SGD;
    else
        return GP_RAISE_AT(e, GP_EINVAL, "--optimizer", 0, 0,
                           "unknown optimizer '%s' (known: adam adam8bit sgd)", s);
    return GP_OK;
}

/* ---- the estimate --------------------------------------------------------- */

/* Guess a shape from N (gp_model_guess_shape: N = 12 L h^2, h/L about the
 * aspect ratio, whole layers); FFN 4h, MHA, head_dim from params.
 * Embeddings are not subtracted (a 1-3 % larger h for 7B-175B models). */
static void infer_shape(double n, const gp_train_params *p, gp_train_shape *s)
{
    memset(s, 0, sizeof *s);
    gp_model_guess_shape(n, p->aspect_ratio, &s->layers, &s->hidden);
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

/* The GPU's 16-bit training precision: bf16, else fp16 (V100, T4). */
static gp_precision precision16(const gp_gpu *g)
{
    gp_pipeline pp;
    return dense_peak(g, GP_BF16, &pp) > 0.0 ? GP_BF16 : GP_FP16;
}

static int is_mixed(gp_precision pr)
{
    return pr == GP_FP16 || pr == GP_BF16 || pr == GP_FP8 || pr == GP_FP4;
}

/* d rounded up to a multiple of m (m > 1); 0 stays 0. */
static double dp_multiple(double d, double m)
{
    double q;
    if (!(d > 0.0) || !(m > 1.0))
        return d;
    q = (double)(long long)(d / m);
    if (q * m < d)
        q += 1.0;
    return q * m;
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

/* The step model's node size before the run caps it: given; else a
 * switched scale-up link's whole domain (an NVSwitch joins max_gpus: DGX-2
 * 16, GB200 NVL72 72, HGX boards 8); else 8 (HGX/DGX), capped by the
 * link. */
static double step_node_gpus(const gp_train_in *in)
{
    double gn = in->gpus_per_node > 0 ? (double)in->gpus_per_node : 8.0;
    if (in->gpus_per_node == 0 && in->scale_up != NULL && in->scale_up->max_gpus.v > 0.0 &&
        (in->scale_up->switched || in->scale_up->max_gpus.v < gn))
        gn = in->scale_up->max_gpus.v;
    return gn;
}

/* The step model's layout checks on a GPU count, shared by step_model
 * (which raises them) and step_layout_ok (which asks them with e NULL):
 * gpus in whole nodes of gn (already capped at gpus), tensor ranks inside
 * a node, and tp x cp and tp x cp x pp dividing the node or divided by it. */
static int step_node_check(const gp_train_in *in, double gpus, double gn, double cp, gp_err *e)
{
    double t = (double)in->tp, tpp = t * cp * (double)in->pp;
    if (gpus > gn && fmod(gpus, gn) != 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                           "%.0f GPUs do not fill whole nodes of %g", gpus, gn);
    if (t > gn)
        return GP_RAISE_AT(e, GP_EINVAL, "--tp", 0, 0,
                           "tensor parallelism across nodes is not modelled (tp %ld > %g "
                           "GPUs per node)", in->tp, gn);
    /* Layout inside a node: tensor, context, pipeline, then data ranks;
     * tpp is the span of one data-parallel replica. */
    if (cp > 1.0 && ((t * cp < gn && fmod(gn, t * cp) != 0.0) ||
                     (t * cp > gn && fmod(t * cp, gn) != 0.0)))
        return GP_RAISE_AT(e, GP_EINVAL, "--cp", 0, 0,
                           "tp x cp = %g and %g GPUs per node must divide one another", t * cp,
                           gn);
    if ((tpp < gn && fmod(gn, tpp) != 0.0) || (tpp > gn && fmod(tpp, gn) != 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                           cp > 1.0 ? "tp x cp x pp = %g and %g GPUs per node must divide one "
                                      "another"
                                    : "tp x pp = %g and %g GPUs per node must divide one another",
                           tpp, gn);
    return GP_OK;
}

/* A given global batch of B sequences: whole micro-batches of b on each
 * of the d data-parallel ranks. */
static int step_batch_check(const gp_train_in *in, double d, gp_err *e)
{
    double B = in->global_batch, b = (double)in->micro_batch;
    if (B > 0.0 && (B != floor(B) || fmod(B, d * b) != 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--global-batch", 0, 0,
                           "global batch of %.15g sequences is not a multiple of dp x "
                           "micro-batch = %.15g x %.15g", B, d, b);
    return GP_OK;
}

/* A MoE run's d data-parallel ranks, *gdpm of them per node (pipeline
 * stages outermost), fill whole nodes, and the expert-parallel degree ep
 * and *gdpm divide one another. */
static int step_moe_check(const gp_train_in *in, long ep, double d, double gn, double *gdpm,
                          gp_err *e)
{
    double t = (double)in->tp, E = (double)ep;
    *gdpm = t < gn ? fmin(d, gn / t) : 1.0;
    if (d > *gdpm && fmod(d, *gdpm) != 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                           "the %g data-parallel ranks do not fill whole nodes of %g "
                           "(MoE layout: pipeline stages outermost)", d, *gdpm);
    if (fmod(E, *gdpm) != 0.0 && fmod(*gdpm, E) != 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--ep", 0, 0,
                           "expert-parallel degree '%ld' and the %g data-parallel ranks "
                           "per node must divide one another", ep, *gdpm);
    return GP_OK;
}

/* Whether the step model takes the layout of the run on d x tp x pp GPUs,
 * d the data- and context-parallel ranks: step_model's layout checks on
 * that count (the links it also asks for are not the count's). */
static int step_layout_ok(const gp_train_in *in, const gp_train_result *r, double d)
{
    double cp = (double)r->cp, gpus = d * (double)in->tp * (double)in->pp, dp = d / cp;
    double gn = fmin(step_node_gpus(in), gpus), gdpm;
    return step_node_check(in, gpus, gn, cp, NULL) == GP_OK &&
           step_batch_check(in, dp, NULL) == GP_OK &&
           (!(r->shape.experts > 0.0) || step_moe_check(in, r->ep, dp, gn, &gdpm, NULL) == GP_OK);
}

/* The least sharding group d' >= d, in multiples of m, whose layout the
 * step model takes (step_layout_ok), so that the least GPU count a run
 * under --mfu model reports is one it would price; d itself when none is
 * found within 2^20 candidates or below the GPU cap (0 stays 0).  A given
 * global batch bounds the search: past B / b data-parallel ranks no
 * candidate holds a whole micro-batch each, so the loop stops there
 * rather than trying all 2^20. */
static double step_min_dp(const gp_train_in *in, const gp_train_result *r, double d, double m)
{
    double c = d, cap = (double)(1L << 30) / ((double)in->tp * (double)in->pp);
    long i;
    if (!(d > 0.0))
        return d;
    if (!(m >= 1.0))
        m = 1.0;
    if (in->global_batch > 0.0 && in->micro_batch >= 1.0 &&
        in->global_batch / in->micro_batch * (double)r->cp < cap)
        cap = in->global_batch / in->micro_batch * (double)r->cp;
    for (i = 0; i < (1L << 20) && c <= cap; i++, c += m)
        if (step_layout_ok(in, r, c))
            return c;
    return d;
}

/* ---- step-time model (GP_MFU_MODEL) -------------------------------------- */

/* Inputs of the GEMM pricing: expected peak and memory bandwidth, element
 * bytes, SMs and tile. */
typedef struct gemm_hw {
    double peak, bw, e, sms, tm, tn;
} gemm_hw;

/* One GEMM (out m x n, inner k; `batch` of them) on its own roofline
 * (Williams et al. 2009), its best split-K included (gp__gemm_time,
 * gemm_int.h): unsplit, max(2mnk / (P x wave), e(mk + kn + mn) / B). */
static double gemm_one(const gemm_hw *h, double m, double n, double k, double batch)
{
    return gp__gemm_time(m, n, k, batch, h->peak, h->bw, h->e * (m * k + k * n) * batch, h->e,
                         h->sms, h->tm, h->tn, NULL);
}

/* Forward and backward (data and weight gradients) of Y[m x n] = X[m x k]
 * W[k x n]: the three products have the same FLOPs and operand bytes, their
 * outputs are m x n, m x k and k x n. */
static void gemm_fb(const gemm_hw *h, double m, double n, double k, double batch,
                    double *fwd, double *bwd)
{
    *fwd = gemm_one(h, m, n, k, batch);
    *bwd = gemm_one(h, m, k, n, batch) + gemm_one(h, k, n, m, batch);
}

/* As gemm_fb; a frozen weight (adapter fine-tuning) takes no weight
 * gradient: the backward is the data gradient alone. */
static void gemm_fbz(const gemm_hw *h, double m, double n, double k, int frozen, double *fwd,
                     double *bwd)
{
    *fwd = gemm_one(h, m, n, k, 1.0);
    *bwd = gemm_one(h, m, k, n, 1.0) + (frozen ? 0.0 : gemm_one(h, k, n, m, 1.0));
}

/* Expected time of one collective (0 for one GPU).  When fewer NICs than
 * rings share a node (nic_scale = 1 / NICs per ring > 1), each ring gets that
 * share of a NIC's bandwidth: the inter-node bandwidth term stretches by
 * nic_scale, its per-hop latency does not. */
static int coll_time(const gp_topo *t, gp_coll_op op, double bytes, double nic_scale,
                     double *out, gp_err *e)
{
    gp_comm_result cr;
    int rc;
    *out = 0.0;
    if (t->gpus_per_node * t->nodes < 2 || !(bytes > 0.0))
        return GP_OK;
    if ((rc = gp_comm_eval(t, op, GP_COLL_RING, bytes, NULL, &cr, e)) != GP_OK)
        return rc;
    *out = cr.expected.time_s;
    if (nic_scale > 1.0 && cr.expected.out_bw > 0.0)
        *out += cr.bytes_per_gpu_inter / cr.expected.out_bw * (nic_scale - 1.0);
    return GP_OK;
}

/* One dispatch (or combine) of S bytes of routed copies over the EP group
 * of tt, a token's copies going to k experts spread over m = tt->nodes
 * nodes.  Plain: an AllToAll of every copy (coll_time).  Deduplicated
 * (DeepEP, DeepSeek-V3): a token crosses the scale-out link once per other
 * node its experts are on -- of its k (m-1)/m remote copies on average
 * (m-1)(1 - (1 - 1/m)^k) distinct nodes, a share rho = m (1 - (1-1/m)^k) / k
 * of the inter-node bytes -- and every remote copy is forwarded on the
 * scale-up link inside its node (S (m-1)/m more there); the two links run
 * at once: max(intra / up, inter / out) + the AllToAll's latency terms. */
static int a2a_time(const gp_topo *tt, double S, double k, double X, double nic_scale,
                    int dedup, double node_limit, double *out, double *share, gp_err *e)
{
    gp_comm_result cr;
    double m = (double)tt->nodes, rho, bi, bo, miss = 1.0, i;
    int rc;
    *share = 1.0;
    if (!dedup || m < 2.0 || !(k >= 1.0))
        return coll_time(tt, GP_COLL_ALLTOALL, S, nic_scale, out, e);
    *out = 0.0;
    if (!(S > 0.0))
        return GP_OK;
    if ((rc = gp_comm_eval(tt, GP_COLL_ALLTOALL, GP_COLL_RING, S, NULL, &cr, e)) != GP_OK)
        return rc;
    /* A token's k distinct experts among X, X/m on each node: it misses a
     * given node with probability C(X - X/m, k) / C(X, k) (drawn without
     * replacement; (1 - 1/m)^k for many experts). */
    if (X >= k && X / m >= 1.0) {
        for (i = 0.0; i < k; i += 1.0)
            miss *= (X - X / m - i) / (X - i);
        if (miss < 0.0)
            miss = 0.0;
    } else {
        miss = pow(1.0 - 1.0 / m, k);
    }
    rho = m * (1.0 - miss) / k;
    /* Node-limited routing: at most M nodes, the other m - 1 of them in
     * proportion, M (m-1)/m remote ones per token at most. */
    if (node_limit >= 1.0 && node_limit < m && node_limit < rho * k)
        rho = node_limit / k;
    if (rho > 1.0)
        rho = 1.0;
    *share = rho;
    bi = cr.expected.up_bw > 0.0
             ? (cr.bytes_per_gpu_intra + S * (m - 1.0) / m) / cr.expected.up_bw
             : 0.0;
    bo = cr.expected.out_bw > 0.0 ? cr.bytes_per_gpu_inter * rho / cr.expected.out_bw *
                                        (nic_scale > 1.0 ? nic_scale : 1.0)
                                  : 0.0;
    *out = (bi > bo ? bi : bo) + cr.expected.lat_s;
    return GP_OK;
}

/* The node's NICs: given, else gp_topo_default_nics (one per GPU on an
 * NVLink / Infinity Fabric baseboard, else one). */
static double node_nics(const gp_train_in *in, double gn)
{
    return in->nics_per_node > 0 ? (double)in->nics_per_node
                                 : (double)gp_topo_default_nics(in->scale_up, in->scale_out, (long)gn);
}

/* One send of `bytes` between two GPUs, latency included: over the scale-up
 * link when `intra`, else over the scale-out link at the node's K NICs
 * shared by its gn GPUs (K/gn of a NIC each when K < gn). */
static int hop_time(const gp_train_in *in, double gn, int intra, double bytes, double *out,
                    gp_err *e)
{
    const gp_link *lk = intra ? in->scale_up : in->scale_out;
    double bw = gp_link_expected_bw(lk), kn = node_nics(in, gn);
    /* Between nodes: K NICs shared by gn GPUs; inside a node, one peer of
     * a point-to-point mesh is one of its direct links. */
    double share = !intra ? (kn < gn ? kn / gn : 1.0) : gp_link_mesh_share(lk, 2.0);
    if (!(bw > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, intra ? "--scale-up" : "--scale-out", 0, 0,
                           "link '%s' has no bandwidth", lk != NULL && lk->id ? lk->id : "?");
    *out = bytes / (bw * share) + gp_link_expected_latency(lk);
    return GP_OK;
}

/* The topology of a group with g ranks in each of `nodes` nodes of gn GPUs:
 * the node's K NICs (node_nics) serve its gn/g such groups, so a
 * group gets K g/gn NICs; below one NIC, *nic_scale = gn/(K g) stretches the
 * inter-node bandwidth term (coll_time). */
static void grp_topo(const gp_train_in *in, double gn, double g, double nodes, gp_topo *tt,
                     double *nic_scale)
{
    double nics = node_nics(in, gn) * g / gn;
    *nic_scale = nics < 1.0 ? 1.0 / nics : 1.0;
    memset(tt, 0, sizeof *tt);
    tt->scale_up = in->scale_up;
    tt->gpus_per_node = (long)g;
    tt->scale_out = in->scale_out;
    tt->nodes = (long)nodes;
    tt->nics_per_node = nics < 1.0 ? 1 : (long)nics;
}

/* The layout a shape admits (Megatron-LM's rules), shared by the memory
 * model (v = 1) and the step model (v virtual stages per GPU): the tensor-
 * parallel degree t divides the attention heads, t and the KV heads divide
 * one another (fewer KV heads than ranks: replicated), and each of the
 * p x v (virtual) stages holds at least one layer.  The message names --tp,
 * --pp or (v > 1) --interleave.  docs/models/training.md 3.1. */
static int check_layout(const gp_train_shape *sh, long tp, long pp, double v, gp_err *e)
{
    double t = (double)tp, stages = (double)pp * v;
    if (fmod(sh->heads, t) != 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--tp", 0, 0,
                           "tensor-parallel degree '%ld' does not divide the %g attention heads",
                           tp, sh->heads);
    if (sh->kv_heads > 0.0 && fmod(sh->kv_heads, t) != 0.0 && fmod(t, sh->kv_heads) != 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--tp", 0, 0,
                           "tensor-parallel degree '%ld' and the %g KV heads must divide one "
                           "another", tp, sh->kv_heads);
    if (sh->layers < stages)
        return GP_RAISE_AT(e, GP_EINVAL, v > 1.0 ? "--interleave" : "--pp", 0, 0,
                           v > 1.0 ? "%g layers are fewer than pp x interleave = %g stages"
                                   : "%g layers are fewer than pp = %g stages",
                           sh->layers, stages);
    return GP_OK;
}

/* Round to the nearest integer (no lround: values are small and > 0). */
static double round_pos(double v)
{
    return floor(v + 0.5);
}

/* Parameters held by the heaviest pipeline stage (before the tensor
 * split), *all of them and *expert the routed-expert part: with p stages
 * each holds ceil(L/p) layers at most, and the first and last stage add an
 * embedding matrix each (the input embedding; the output layer, or with
 * tied embeddings Megatron's copy of it), so the heaviest is
 * ceil(L/p) x (N - N_e - V h (2, or 1 tied)) / L + V h + its MoE layers'
 * experts N_e / L_moe x min(ceil(L/p), L_moe).  p = 1: N.  A shape whose
 * layers do not account for N (inferred) falls back to N / p
 * (gp_train_estimate refuses p > L: check_layout).
 * MODEL: docs/models/training.md 3.1. */
static void stage_params(const gp_train_result *r, double n, double p, double *all,
                         double *expert)
{
    const gp_train_shape *sh = &r->shape;
    double L = sh->layers, emb = sh->vocab * sh->hidden, ls, body, lm;
    *all = n / p;
    *expert = r->expert_params / p;
    if (!(p > 1.0) || !(L >= p) || !r->shape_known)
        return;
    body = n - r->expert_params - emb * (sh->tied_embeddings ? 1.0 : 2.0);
    if (!(body > 0.0))
        return;
    ls = ceil(L / p);
    lm = L - sh->dense_layers;
    *expert = lm > 0.0 && r->expert_params > 0.0 ? r->expert_params / lm * fmin(ls, lm) : 0.0;
    *all = ls * body / L + emb + *expert;
}

/* The embedding matrices the heaviest stage holds (stage_params): one
 * with pipeline stages, both (one tied) without; 0 when the shape does not
 * account for N.  QLoRA keeps them in 16 bits (bitsandbytes quantises the
 * Linear layers only, and transformers leaves lm_head out). */
static double stage_embed(const gp_train_result *r, double n, double p)
{
    const gp_train_shape *sh = &r->shape;
    double emb = sh->vocab * sh->hidden, mats = sh->tied_embeddings ? 1.0 : 2.0;
    if (!r->shape_known || !(n - r->expert_params - emb * mats > 0.0) || !(sh->layers >= p))
        return 0.0;
    return p > 1.0 ? emb : emb * mats;
}

/* Whether a QLoRA frozen base is stored narrower than `width` bytes a
 * parameter (--base-format below the training weights). */
/* Bytes per element that an 8- or 4-bit GEMM operand costs to make from its
 * 16-bit tensor: current scaling's amax pass reads the tensor
 * (step_fp8_amax_bytes; Transformer Engine's Float8CurrentScalingQuantizer
 * runs nvte_compute_amax before nvte_quantize), then the cast-transpose reads
 * it again and writes a row-wise and a transposed copy (step_fp8_cast_bytes
 * at 8 bits; at 4 bits each copy is half a byte, block scales not counted). */
static double cast_elem_bytes(const gp_train_params *p, gp_precision pr)
{
    return p->step_fp8_amax_bytes + p->step_fp8_cast_bytes - (pr == GP_FP4 ? 1.0 : 0.0);
}

static int packed_base(const gp_train_in *in, double width)
{
    return in->lora_params > 0.0 && in->base_bits > 0.0 && in->base_bits < 8.0 * width;
}

/* Bytes of `all` frozen parameters, `emb` of them the embedding matrices
 * (stage_embed): `width` bytes each, or a packed QLoRA base's bits for all
 * but the embeddings, which stay at `width`. */
static double frozen_bytes(const gp_train_in *in, double all, double emb, double width)
{
    return packed_base(in, width) ? (all - emb) * in->base_bits / 8.0 + emb * width
                                   : all * width;
}

/* The step-time model: fills r->step and the MFU/throughput fields of r.
 * MODEL: docs/models/training.md "Step-time model (--mfu model)". */
/* The data-parallel gradient traffic short of ZeRO-3 (training.md §9.3):
 * the last micro-batch's AllReduce t_ar and, under ZeRO-2, a ReduceScatter
 * t_rs after each of the m - 1 earlier ones (0 otherwise).  Each overlaps
 * its micro-batch's backward but for its last bucket, the share
 * bucket_bytes / bytes of it; with no_overlap none of it hides. */
static void dp_gradient_times(gp_train_step_result *st, double t_ar, double t_rs, double m,
                              double bytes, double bucket_bytes, int no_overlap)
{
    double share = bytes > 0.0 ? fmin(1.0, bucket_bytes / bytes) : 0.0;
    st->dp_comm_s = t_ar + (m - 1.0) * t_rs;
    st->dp_comm_exposed_s = no_overlap ? st->dp_comm_s
                                       : fmax(t_ar * share, t_ar - st->bwd_s) +
                                             (m - 1.0) * fmax(t_rs * share, t_rs - st->bwd_s);
}

/* Virtual pipeline stages per GPU: --interleave, 1 without. */
static double virtual_stages(const gp_train_in *in)
{
    return in->interleave > 1 ? (double)in->interleave : 1.0;
}

/* Layers of the largest model chunk: ceil(L / (p v)) -- the most block:N
 * can re-run. */
static double chunk_layers(const gp_train_in *in, double layers)
{
    return ceil(layers / ((double)(in->pp > 0 ? in->pp : 1) * virtual_stages(in)));
}

int gp_train_recomputes_all(const gp_train_in *in, double layers)
{
    if (in == NULL)
        return 0;
    if (in->recompute == GP_RECOMPUTE_FULL)
        return 1;
    return in->recompute == GP_RECOMPUTE_BLOCK && layers > 0.0 &&
           (double)in->recompute_layers >= chunk_layers(in, layers);
}

/* The share of `held` layers that run their forward twice: 1 under full
 * recompute; under block recompute (Megatron-LM's recompute_method
 * 'block') the first N of each of the `chunks` model chunks, min(N chunks,
 * held) / held; 0 otherwise.  The other layers of a block run recompute
 * nothing.  docs/models/training.md "Partial full recompute". */
static double recompute_share(const gp_train_in *in, double held, double chunks)
{
    if (in->recompute == GP_RECOMPUTE_FULL)
        return 1.0;
    if (in->recompute != GP_RECOMPUTE_BLOCK || !(held > 0.0))
        return 0.0;
    return fmin((double)in->recompute_layers * chunks, held) / held;
}

static int step_model(const gp_train_in *in, const gp_train_params *p, gp_train_result *r,
                      gp_err *e)
{
    gp_train_step_result *st = &r->step;
    const gp_gpu *g = in->gpu;
    gp_train_shape sh = r->shape;
    gemm_hw hw, hw16;
    gp_topo tt;
    double L, h, heads, q, kv, qkv, qo, mx, f, kk, V, s, b, t, pp, d, v, gn, T, tr, ls;
    double gpus = (double)in->gpus, m, B, unit, wb, gb, ob;
    double f_fwd, f_bwd, x, y, ew_fwd, ew_bwd, score, cast_f, cast_b;
    int low;
    double ar, a_fwd, a_bwd, a_flop_fwd, a_fwd_att, att_share, lg_fwd, lg_bwd, xent, p2p;
    double pst, tpp, g_dp, nodes_dp, nics, nic_scale, gdp, gdpm = 1.0;
    double cp = (double)r->cp, dg, ring_f, ring_b, adapter, sa, sx;
    int lora = in->lora_params > 0.0;
    /* fr: the share of the stage's layers fully recomputed (1 full, the
     * block's min(N v, ls) / ls, else 0; set once ls is known). */
    double fr = 0.0;
    int sel = in->recompute == GP_RECOMPUTE_SELECTIVE;
    int rc, moe = sh.experts > 0.0, zero2_rs;

    memset(st, 0, sizeof *st);
    if (in->step_time > 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--mfu", 0, 0,
                           "'--mfu model' predicts the step; it excludes profile mode "
                           "(--step-time)");
    if (in->lora_params > 0.0 && moe)
        return GP_RAISE_AT(e, GP_EUNSUP, "--lora-params", 0, 0,
                           "'--mfu model' does not price adapter fine-tuning of a "
                           "mixture-of-experts model");
    /* The all-to-all's options have nothing to price without one: a dense
     * model, or a MoE model without expert parallelism. */
    if ((in->moe_overlap || in->moe_dedup) && (!moe || in->ep <= 1))
        return GP_RAISE_AT(e, GP_EINVAL, in->moe_overlap ? "--moe-overlap" : "--moe-dispatch",
                           0, 0, "%s needs a mixture-of-experts model and --ep > 1 (got %s, ep "
                           "%ld)",
                           in->moe_overlap ? "the all-to-all overlap"
                                           : "the deduplicated dispatch ('dedup')",
                           moe ? "a MoE model" : "a dense model", in->ep);
    if (in->interleave < 0 || (in->interleave > 1 && in->pp == 1))
        return GP_RAISE_AT(e, GP_EINVAL, "--interleave", 0, 0,
                           "virtual stages per GPU must be >= 1 and need --pp > 1 (got '%ld')",
                           in->interleave);
    if (in->gpus_per_node < 0 || in->nics_per_node < 0)
        return GP_RAISE_AT(e, GP_EINVAL, in->gpus_per_node < 0 ? "--gpus-per-node"
                                                                : "--nics-per-node",
                           0, 0, "must be >= 1 (got '%ld')",
                           in->gpus_per_node < 0 ? in->gpus_per_node : in->nics_per_node);
    /* An inferred shape has fractional layers and heads: round them to
     * multiples of the layout (layers of pp x v, heads of tp). */
    if (sh.inferred) {
        double lu = (double)in->pp * virtual_stages(in);
        double hu = (double)in->tp;
        sh.layers = round_pos(sh.layers / lu) < 1.0 ? lu : round_pos(sh.layers / lu) * lu;
        sh.heads = round_pos(sh.heads / hu) < 1.0 ? hu : round_pos(sh.heads / hu) * hu;
        sh.kv_heads = sh.heads;
    }
    L = sh.layers;
    h = sh.hidden;
    heads = sh.heads;
    q = shape_q_dim(&sh);
    kv = shape_kv_dim(&sh);
    /* The mixer GEMMs' widths, Q/K/V-side qkv and the output projection's
     * inner qo: a hybrid's linear mixers (linear_params) scale both by mx,
     * the layers' average mixer parameters over the attention's, so that h
     * (qkv + qo) holds that average (training.md 9.1); 1 without them. */
    x = attn_proj_params(&sh);
    y = mixer_extra_params(&sh);
    mx = y != 0.0 && x > 0.0 ? 1.0 + y / x : 1.0;
    qkv = mx * ((sh.attn_gate ? 2.0 : 1.0) * q + 2.0 * kv); /* gate: Q is 2q wide */
    qo = mx * q;
    /* A dense shape whose FFNs sit on ffn_layers of the layers: the width
     * averaged over the layers (Nemotron-H 8B: 21504 x 24/28). */
    f = sh.experts > 0.0 ? sh.ffn_hidden : sh.ffn_hidden * shape_ffn_layers(&sh) / L;
    kk = sh.ffn_matrices > 0.0 ? sh.ffn_matrices : 2.0;
    V = sh.vocab;
    s = r->seq;
    b = in->micro_batch;
    t = (double)in->tp;
    pp = (double)in->pp;
    d = (double)r->dp;
    dg = d * cp; /* the gradient group: data- and context-parallel ranks  */
    v = virtual_stages(in);
    if ((rc = check_layout(&sh, in->tp, in->pp, v, e)) != GP_OK)
        return rc;
    gn = step_node_gpus(in);
    if (in->gpus_per_node > 0 && in->scale_up != NULL && in->scale_up->max_gpus.v > 0.0 &&
        gn > in->scale_up->max_gpus.v && gpus > in->scale_up->max_gpus.v)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                           "link '%s' joins at most %g GPUs, asked for %ld per node",
                           in->scale_up->id ? in->scale_up->id : "?",
                           in->scale_up->max_gpus.v, in->gpus_per_node);
    if (gn > gpus)
        gn = gpus;
    if ((rc = step_node_check(in, gpus, gn, cp, e)) != GP_OK)
        return rc;
    tpp = t * cp * pp;
    if (gn > 1.0 && in->scale_up == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, "--scale-up", 0, 0,
                           "%g GPUs per node need a scale-up link (the GPU has none in the "
                           "database: give --scale-up ID, e.g. pcie4-x16)", gn);
    if (gpus > gn && in->scale_out == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, "--scale-out", 0, 0,
                           "%ld GPUs span %g nodes: give a scale-out link (--scale-out ID, "
                           "e.g. ib-hdr, ib-ndr, roce-400)", in->gpus, gpus / gn);
    /* Global batch (sequences) and micro-batches per pipeline. */
    unit = d * b;
    if (in->global_batch < 0.0 || !isfinite(in->global_batch))
        return GP_RAISE_AT(e, GP_EINVAL, "--global-batch", 0, 0,
                           "global batch must be > 0 (got '%g')", in->global_batch);
    if (in->global_batch > 0.0) {
        if ((rc = step_batch_check(in, d, e)) != GP_OK)
            return rc;
        B = in->global_batch;
    } else {
        /* One sequence per micro-batch slot already above the cap: the
         * GPUs or the micro-batch set it, not a --global-batch never given. */
        if (unit > 1e9)
            return GP_RAISE_AT(e, GP_ERANGE, d >= b ? "--gpus" : "--micro-batch", 0, 0,
                               "one step of dp x micro-batch = %.0f x %.0f sequences is above "
                               "the 1e9-sequence global batch cap",
                               d, b);
        B = round_pos(p->step_batch_tokens / s / unit);
        B = (B < 1.0 ? 1.0 : B) * unit;
    }
    if (B > 1e9)
        return GP_RAISE_AT(e, GP_ERANGE, "--global-batch", 0, 0,
                           "global batch must be <= 1e9 sequences (got '%g')", B);
    m = B / unit;
    /* ZeRO-2 keeps only its shard of the gradients, so each micro-batch's
     * are reduce-scattered after its backward, not accumulated (DeepSpeed:
     * "gradient reduction is required after every backward because of
     * gradient partitioning", deepspeedai/DeepSpeed#2252): the data-parallel
     * terms below add m - 1 ReduceScatters to the last micro-batch's
     * AllReduce (= ReduceScatter + the weights' AllGather). */
    zero2_rs = in->zero == 2 && m > 1.0;
    st->global_batch = B;
    st->tokens_per_step = B * s;
    st->micro_batches = m;
    st->gpus_per_node = (long)gn;
    st->interleave = (long)v;
    /* Layers may split unevenly over the p v (virtual) stages (BLOOM: 70
     * on 12, Llama 3 405B: 126 on 16, DeepSeek-V3: 61 on 16): the slowest
     * GPU holds ceil(L / (p v)) layers per virtual stage, at most ceil(L/p)
     * in all (a balanced layout), and the step waits for it. */
    ls = ceil(L / (pp * v)) * v;
    if (ls > ceil(L / pp))
        ls = ceil(L / pp); /* a balanced layout keeps ceil(L/p) on each GPU */
    st->layers_per_stage = ls;
    fr = recompute_share(in, ls, v);
    st->ep = r->ep;
    st->moe_imbalance = 1.0;

    /* Hardware figures. */
    hw.peak = gp_gpu_expected_peak(g, r->precision, r->pipeline, GP_ACC_FP32, 0);
    hw.bw = gp_gpu_expected_mem_bw(g);
    if (!(hw.peak > 0.0))
        return GP_RAISE_AT(e, GP_EUNSUP, "--gpu", 0, 0, "GPU '%s' has no expected %s rate",
                           g->id ? g->id : "?", gp_precision_name(r->precision));
    if (!(hw.bw > 0.0))
        return GP_RAISE_AT(e, GP_EUNSUP, "--gpu", 0, 0,
                           "GPU '%s' has no memory bandwidth in the database",
                           g->id ? g->id : "?");
    hw.e = is_mixed(r->precision) ? 2.0 : 4.0;
    hw.sms = g->sm_count.v;
    hw.tm = p->step_tile_m;
    hw.tn = p->step_tile_n;
    /* The 16-bit figures for what 8- and 4-bit training leaves in BF16: the
     * attention core (Transformer Engine's recipes keep DotProductAttention
     * in BF16 unless fp8_dpa is asked for; its default is False) and the
     * logits GEMM (Megatron-core's output layer is its own
     * ColumnParallelLinear, not a Transformer Engine module, so fp8_autocast
     * leaves it in BF16). */
    hw16 = hw;
    low = r->precision == GP_FP8 || r->precision == GP_FP4 || r->precision == GP_INT8;
    if (low) {
        gp_precision p16 = precision16(g);
        st->fp8_cast_elem_bytes = cast_elem_bytes(p, r->precision);
        double pk = gp_gpu_expected_peak(g, p16, gp_gpu_default_pipeline(g, p16), GP_ACC_FP32, 0);
        if (pk > 0.0)
            hw16.peak = pk;
    }
    st->attn_peak_expected = hw16.peak;
    st->peak_expected = hw.peak;
    st->mem_bw_expected = hw.bw;
    T = b * s / cp; /* tokens per rank: context parallelism splits s      */
    tr = in->sequence_parallel ? t : 1.0;

    /* --- GEMMs per layer (per tensor rank), forward and backward -------- */
    f_fwd = f_bwd = 0.0;
    gemm_fbz(&hw, T, qkv / t, h, lora, &x, &y);            /* QKV        */
    f_fwd += x;
    f_bwd += y;
    gemm_fbz(&hw, T, h, qo / t, lora, &x, &y);              /* output proj */
    f_fwd += x;
    f_bwd += y;
    gemm_fbz(&hw, T, (kk - 1.0) * f / t, h, lora, &x, &y);  /* FFN in(+gate) */
    f_fwd += x;
    f_bwd += y;
    gemm_fbz(&hw, T, h, f / t, lora, &x, &y);               /* FFN out     */
    f_fwd += x;
    f_bwd += y;
    gemm_fbz(&hw16, T, V / t, h, lora, &lg_fwd, &lg_bwd);   /* logits, 16-bit */
    st->gemm_s = ls * (f_fwd * (1.0 + fr) + f_bwd) + lg_fwd + lg_bwd;
    st->gemm_flop = 2.0 * T * h * (qkv + qo + kk * f) / t * ls *
                        ((lora ? 2.0 : 3.0) + fr) +
                    (lora ? 4.0 : 6.0) * T * h * V / t;
    /* Adapter fine-tuning: the stage's share of the adapters trains in
     * full, 6 FLOP per adapter weight per token (8 when full recompute
     * re-runs their forward), at the expected rate (its rank-r GEMMs are
     * small; their memory traffic is not priced). */
    adapter = lora ? in->lora_params * ls / L / t : 0.0;
    st->gemm_s += (6.0 + 2.0 * fr) * T * adapter / hw.peak;
    st->gemm_flop += (6.0 + 2.0 * fr) * T * adapter;
    st->gemm_eff = st->gemm_flop / (st->gemm_s * hw.peak);

    /* --- token mixer per layer: attention on an attending layer, the
     * recurrence on a linear one; a_fwd and a_bwd are the average over the
     * layers, att_share of them attending (1 without linear layers) ------------- */
    a_flop_fwd = 4.0 * b * s * s * shape_core_dim(&sh) / t / cp;
    att_share = shape_attn_share(&sh);
    if (in->attn_unfused) {
        /* Q K^T (s x s, inner d_qk) and P V (s x d, inner s) per head; a
         * sliding window only masks the s x s scores. */
        double hd = q / heads, nb = b * heads / t, f1, b1, f2, b2;
        double hqk = sh.qk_head_dim > 0.0 ? sh.qk_head_dim : hd;
        gemm_fb(&hw16, s, s, hqk, nb, &f1, &b1);
        gemm_fb(&hw16, s, hd, s, nb, &f2, &b2);
        a_fwd = f1 + f2;
        a_bwd = b1 + b2 + (sel ? 1.0 : fr) * a_fwd;
        x = a_flop_fwd * (3.0 + (sel ? 1.0 : fr));
    } else {
        /* FlashAttention: causal blocks only (half the s^2; a local layer's
         * band within its window: the window share of shape_window_share),
         * backward recomputes the scores: step_flash_bwd x forward; the
         * fused kernel runs at step_flash_eff of the expected GEMM rate. */
        double wsh = shape_window_share(&sh, s);
        a_fwd = 0.5 * a_flop_fwd * wsh / (hw16.peak * p->step_flash_eff);
        a_bwd = a_fwd * (p->step_flash_bwd + fr);
        x = 0.5 * a_flop_fwd * wsh * (1.0 + p->step_flash_bwd + fr);
    }
    a_fwd_att = a_fwd;
    if (att_share < 1.0) {
        /* A linear layer's recurrence: GP_INFER_LINEAR_FLOP per state
         * element per token, the state sharded over the tensor ranks by
         * heads; a chunked kernel at the fused attention's rate, backward
         * 2 x forward (+ 1 re-run under full recompute). */
        double rf = shape_recurrence_flop(&sh) / (sh.layers - shape_attn_layers(&sh)) * T / t;
        double r_fwd = rf / (hw16.peak * p->step_flash_eff);
        a_fwd = att_share * a_fwd + (1.0 - att_share) * r_fwd;
        a_bwd = att_share * a_bwd + (1.0 - att_share) * r_fwd * (2.0 + fr);
        x = att_share * x + (1.0 - att_share) * rf * (3.0 + fr);
    }
    st->attn_flop = x * ls;
    st->attn_eff = in->attn_unfused ? 1.0 : p->step_flash_eff;
    st->attn_s = ls * (a_fwd + a_bwd);

    /* --- element-wise traffic per layer ---------------------------------- */
    ew_fwd = T * h * p->step_ew_res_bytes * (hw.e / 2.0) / tr + T * f * kk * hw.e / t;
    score = in->attn_unfused
                ? p->step_ew_score_bytes * (hw.e / 2.0) * b * heads / t * s * s * att_share
                : 0.0; /* on the attending layers only */
    ew_fwd += score;
    ew_bwd = p->step_ew_bwd * ew_fwd + (sel ? score : fr * ew_fwd);
    /* 8-bit GEMMs quantise their inputs (QKV and FFN-in: the norm's output,
     * T h / t_r; out-proj: T q / t; FFN-out: T f / t) and, backward, their
     * output gradients (QKV T (q + 2kv) / t, out-proj and FFN-out T h / t_r,
     * FFN-in T (k_f - 1) f / t); full recompute casts the inputs again. */
    cast_f = cast_b = 0.0;
    if (low) {
        cast_f = st->fp8_cast_elem_bytes * T * (2.0 * h / tr + (qo + f) / t);
        cast_b = st->fp8_cast_elem_bytes * T * ((qkv + (kk - 1.0) * f) / t + 2.0 * h / tr);
        ew_fwd += cast_f;
        ew_bwd += cast_b + fr * cast_f;
    }
    st->fp8_cast_bytes = ls * (cast_f * (1.0 + fr) + cast_b);
    /* A quantised frozen base (QLoRA): every pass that multiplies by a
     * weight first dequantises it (bitsandbytes: read the packed weight,
     * write it in 16 bits), forward, data gradient and a recomputed
     * forward alike: the stage's N_s/t weights x (bits/8 + 2) B a pass. */
    stage_params(r, r->params, pp, &sa, &sx);
    if (packed_base(in, hw.e)) {
        double dq = (sa - stage_embed(r, r->params, pp)) / t * (in->base_bits / 8.0 + 2.0);
        st->dequant_bytes = dq * (2.0 + fr);
        ew_fwd += dq / ls;
        ew_bwd += dq / ls * (1.0 + fr);
    }
    xent = T * V / t * p->step_xent_bytes;
    st->elementwise_bytes = ls * (ew_fwd + ew_bwd) + xent;
    st->elementwise_s = st->elementwise_bytes / hw.bw;

    /* --- tensor-parallel AllReduces (RS + AG with SP: same bytes) --------- */
    memset(&tt, 0, sizeof tt);
    tt.scale_up = in->scale_up;
    tt.gpus_per_node = in->tp;
    tt.nodes = 1;
    if ((rc = coll_time(&tt, GP_COLL_ALLREDUCE, T * h * hw.e, 1.0, &ar, e)) != GP_OK)
        return rc;
    st->tp_allreduce_s = ar;
    st->tp_comm_mb_s = ls * ar * (4.0 + 2.0 * fr);

    /* --- pipeline sends: v per direction per micro-batch ------------------ */
    p2p = 0.0;
    if (in->pp > 1 && (rc = hop_time(in, gn, tpp <= gn, T * h * hw.e / t, &p2p, e)) != GP_OK)
        return rc;
    st->pp_p2p_mb_s = 2.0 * v * p2p;

    /* --- context parallel: each rank's K and V chunk travels round the ring
     * of cp ranks (cp - 1 hops forward; backward K, V and their gradients),
     * overlapped with the attention it feeds (Megatron-core's ring
     * attention); the link is the scale-up one while t cp fits a node. --- */
    ring_f = ring_b = 0.0;
    if (cp > 1.0) {
        int intra = t * cp <= gn;
        double kvh = sh.kv_heads > 0.0 && sh.kv_heads < t ? sh.kv_heads : t;
        double chunk = b * (s / cp) * 2.0 * kv / kvh * hw.e, hf, hb;
        if ((rc = hop_time(in, gn, intra, chunk, &hf, e)) != GP_OK ||
            (rc = hop_time(in, gn, intra, 2.0 * chunk, &hb, e)) != GP_OK)
            return rc;
        st->cp_bytes = (cp - 1.0) * chunk;
        ring_f = (cp - 1.0) * hf;
        ring_b = (cp - 1.0) * hb;
    }
    st->cp_ring_fwd_s = ring_f;
    st->cp_ring_bwd_s = ring_b;
    ring_f = fmax(0.0, ring_f - a_fwd_att);                  /* exposed  */
    ring_b = fmax(0.0, ring_b - a_fwd_att * p->step_flash_bwd);
    st->cp_comm_mb_s = ls * (ring_f * (1.0 + fr) + ring_b);

    /* --- one micro-batch on the slowest (last) stage ---------------------- */
    st->fwd_s = ls * (f_fwd + a_fwd + 2.0 * ar + ring_f) + lg_fwd +
                (ls * ew_fwd + 0.5 * xent) / hw.bw + v * p2p;
    st->bwd_s = ls * (fr * (f_fwd + 2.0 * ar + ring_f) + f_bwd + a_bwd + 2.0 * ar +
                      ring_b) +
                lg_bwd + (ls * ew_bwd + 0.5 * xent) / hw.bw + v * p2p;
    st->micro_batch_s = st->fwd_s + st->bwd_s;

    /* --- mixture of experts: the dense figures above are replaced by a
     * stage of dense and MoE layers (docs/models/training.md "MoE and
     * expert parallelism").  Layout: Megatron-core's rank order tp, ep/dp,
     * pp (pipeline stages outermost), so the dp (and ep) ranks of a tensor
     * rank are adjacent. ------------------------------------------------- */
    if (moe) {
        double X = sh.experts, ka = sh.experts_active, ns = sh.shared_experts;
        double fe = sh.expert_ffn_hidden > 0.0 ? sh.expert_ffn_hidden : f;
        double ke = expert_mats(&sh); /* the experts' matrices (plain: 2) */
        double E = (double)r->ep, F = in->moe_imbalance > 0.0 ? in->moe_imbalance : 1.0;
        double lm, ld, me, el, nqkv, at_f, at_b, df_f, df_b, mf_f, mf_b, ex_f, ex_b;
        double lf_d, lb_d, lf_m, lb_m, fa, fd, fm, fx, res, ewd_f, ewd_b, ewm_f, ewm_b;
        double ar_x, tpm, a2a, S, g_ep, rec = 1.0 + fr, kf = 3.0 + fr;
        if (!(ka >= 1.0 && ka <= X))
            return GP_RAISE_AT(e, GP_EINVAL, "--model", 0, 0,
                               "MoE shape needs 1 <= active experts <= %g experts (got '%g')",
                               X, ka);
        if (fmod(gn, t) != 0.0)
            return GP_RAISE_AT(e, GP_EINVAL, "--tp", 0, 0,
                               "tensor-parallel degree '%ld' does not divide the %g GPUs per "
                               "node", in->tp, gn);
        /* The slowest stage holds MoE layers first (the dense ones lead). */
        lm = fmin(ls, L - sh.dense_layers);
        ld = ls - lm;
        st->moe_layers_per_stage = lm;
        st->dense_layers_per_stage = ld;
        st->ep = r->ep;
        st->moe_imbalance = F;
        /* Attention projections; MLA (attn_params given): the Q/K/V side is
         * attn_params - q h parameters, priced as one GEMM of that width. */
        nqkv = sh.attn_params > 0.0 ? mx * (sh.attn_params / h - q) : qkv;
        gemm_fb(&hw, T, nqkv / t, h, 1.0, &at_f, &at_b);
        gemm_fb(&hw, T, h, qo / t, 1.0, &x, &y);
        at_f += x;
        at_b += y;
        /* Dense FFN (the leading dense layers). */
        gemm_fb(&hw, T, (kk - 1.0) * f / t, h, 1.0, &df_f, &df_b);
        gemm_fb(&hw, T, h, f / t, 1.0, &x, &y);
        df_f += x;
        df_b += y;
        /* MoE FFN: router on the rank's T/t_r tokens, shared experts as a
         * dense FFN of width ns f_e, and the routed experts: the rank's X/E
         * experts see F T k rows in all (balanced: T k E/X each), as a
         * grouped GEMM of X/E problems. */
        gemm_fb(&hw, T / tr, X, h, 1.0, &mf_f, &mf_b);
        if (ns > 0.0) {
            gemm_fb(&hw, T, (ke - 1.0) * ns * fe / t, h, 1.0, &x, &y);
            mf_f += x;
            mf_b += y;
            gemm_fb(&hw, T, h, ns * fe / t, 1.0, &x, &y);
            mf_f += x;
            mf_b += y;
        }
        me = F * T * ka * E / X;
        el = X / E;
        gemm_fb(&hw, me, (ke - 1.0) * fe / t, h, el, &ex_f, &ex_b);
        gemm_fb(&hw, me, h, fe / t, el, &x, &y);
        ex_f += x;
        ex_b += y;
        mf_f += ex_f;
        mf_b += ex_b;
        st->expert_rows = me;
        lf_d = at_f + df_f;
        lb_d = at_b + df_b;
        lf_m = at_f + mf_f;
        lb_m = at_b + mf_b;
        st->gemm_s = ld * (lf_d * rec + lb_d) + lm * (lf_m * rec + lb_m) + lg_fwd + lg_bwd;
        st->expert_gemm_s = lm * (ex_f * rec + ex_b);
        fa = 2.0 * T * h * (nqkv + qo) / t;
        fd = 2.0 * T * h * kk * f / t;
        fx = 2.0 * me * el * h * ke * fe / t;
        fm = 2.0 * T / tr * h * X + 2.0 * T * h * ke * ns * fe / t + fx;
        st->gemm_flop = (ld * (fa + fd) + lm * (fa + fm)) * kf + 6.0 * T * h * V / t;
        st->expert_gemm_flop = lm * fx * kf;
        st->gemm_eff = st->gemm_flop / (st->gemm_s * hw.peak);
        /* Element-wise: the dense kernels; a MoE layer's activation runs on
         * the F T k routed rows and T ns shared rows of width f_e, and the
         * token permutation before the dispatch and after the combine moves
         * step_moe_perm_bytes per routed copy per hidden unit. */
        res = T * h * p->step_ew_res_bytes * (hw.e / 2.0) / tr;
        ewd_f = res + T * f * kk * hw.e / t + score;
        ewm_f = res + (F * T * ka + T * ns) * fe * ke * hw.e / t +
                p->step_moe_perm_bytes * (hw.e / 2.0) * T / tr * ka * h + score;
        ewd_b = p->step_ew_bwd * ewd_f + (sel ? score : fr * ewd_f);
        ewm_b = p->step_ew_bwd * ewm_f + (sel ? score : fr * ewm_f);
        if (low) {
            /* 8-bit casts as in the dense layer: attention's inputs and
             * gradients, then the FFN's -- the dense one, or the routed
             * experts' (each of the F T k copies) and the shared experts'
             * (one FFN of width n_s f_e on the T tokens); the router stays
             * 16-bit. */
            double c = st->fp8_cast_elem_bytes, rows = F * T * ka;
            double ca_f = c * T * (h / tr + qo / t), ca_b = c * T * (nqkv / t + h / tr);
            double cd_f = c * T * (h / tr + f / t), cd_b = c * T * ((kk - 1.0) * f / t + h / tr);
            double cm_f = c * rows * (h + fe / t), cm_b = c * rows * ((ke - 1.0) * fe / t + h);
            if (ns > 0.0) {
                cm_f += c * T * (h / tr + ns * fe / t);
                cm_b += c * T * ((ke - 1.0) * ns * fe / t + h / tr);
            }
            ewd_f += ca_f + cd_f;
            ewm_f += ca_f + cm_f;
            ewd_b += ca_b + cd_b + fr * (ca_f + cd_f);
            ewm_b += ca_b + cm_b + fr * (ca_f + cm_f);
            st->fp8_cast_bytes = ld * ((ca_f + cd_f) * (1.0 + fr) + ca_b + cd_b) +
                                 lm * ((ca_f + cm_f) * (1.0 + fr) + ca_b + cm_b);
        }
        st->elementwise_bytes = ld * (ewd_f + ewd_b) + lm * (ewm_f + ewm_b) + xent;
        st->elementwise_s = st->elementwise_bytes / hw.bw;
        /* Tensor parallel: a MoE layer gathers the F T k routed rows over the
         * tensor ranks before the experts and reduce-scatters them after
         * (one AllReduce's bytes), plus the attention's and the shared
         * experts' usual collectives. */
        memset(&tt, 0, sizeof tt);
        tt.scale_up = in->scale_up;
        tt.gpus_per_node = in->tp;
        tt.nodes = 1;
        if ((rc = coll_time(&tt, GP_COLL_ALLREDUCE, F * T * ka * h * hw.e, 1.0, &ar_x, e)) !=
            GP_OK)
            return rc;
        tpm = ar + (ns > 0.0 ? ar : 0.0) + ar_x;
        st->tp_comm_mb_s = ld * ar * (4.0 + 2.0 * fr) + lm * tpm * (2.0 + fr);
        /* Expert parallel: dispatch and combine, each an AllToAll of the
         * rank's F T/t_r tokens x k copies over the E ranks; forward 2,
         * backward 2, + 2 in a fully recomputed forward; not overlapped
         * unless moe_overlap (the step, below). */
        if ((rc = step_moe_check(in, r->ep, d, gn, &gdpm, e)) != GP_OK)
            return rc;
        g_ep = fmin(E, gdpm);
        grp_topo(in, gn, g_ep, E / g_ep, &tt, &nic_scale);
        S = F * T / tr * ka * h * hw.e;
        if ((rc = a2a_time(&tt, S, ka, X, nic_scale, in->moe_dedup,
                           (double)in->moe_node_limit, &a2a, &st->alltoall_node_share, e)) !=
            GP_OK)
            return rc;
        st->alltoall_bytes = S;
        st->alltoall_1_s = a2a;
        st->alltoall_mb_s = lm * a2a * (4.0 + 2.0 * fr);
        /* Pipeline sends: with the stages outermost a stage's neighbour is
         * t d ranks away, off the node unless the run fits in one. */
        p2p = 0.0;
        if (in->pp > 1 &&
            (rc = hop_time(in, gn, gpus <= gn, T * h * hw.e / t, &p2p, e)) != GP_OK)
            return rc;
        st->pp_p2p_mb_s = 2.0 * v * p2p;
        st->fwd_s = ld * (lf_d + a_fwd + 2.0 * ar) + lm * (lf_m + a_fwd + tpm + 2.0 * a2a) +
                    lg_fwd + (ld * ewd_f + lm * ewm_f + 0.5 * xent) / hw.bw + v * p2p;
        st->bwd_s = ld * (fr * (lf_d + 2.0 * ar) + lb_d + a_bwd + 2.0 * ar) +
                    lm * (fr * (lf_m + tpm + 2.0 * a2a) + lb_m + a_bwd + tpm + 2.0 * a2a) +
                    lg_bwd + (ld * ewd_b + lm * ewm_b + 0.5 * xent) / hw.bw + v * p2p;
        st->micro_batch_s = st->fwd_s + st->bwd_s;
    }

    /* --- optimizer: Adam reads and writes its states, reads the gradient,
     * writes the 16-bit weights: 2 x optim + grad + weight bytes/param. ---- */
    gp_train_state_bytes(in->optimizer, is_mixed(r->precision), &wb, &gb, &ob);
    /* Parameters of the slowest stage per tensor rank: a dense stage holds
     * its share ls / L of the layers (embeddings spread with them); a MoE
     * stage's non-expert part is the average (N - N_e) / (t p), its experts
     * priced below. */
    pst = moe ? r->params / tpp : sa / t;
    if (moe) {
        /* MoE: the routed experts' shard on the slowest stage is N_e /
         * L_moe x (its MoE layers) / (t E) -- uneven splits put more MoE
         * layers there than the average N_e/(t p E) --, its ZeRO group the
         * dp/E ranks holding the same experts; the rest as dense. */
        double E = (double)r->ep, Lm = sh.layers - sh.dense_layers;
        double pe = Lm > 0.0 ? r->expert_params / Lm * st->moe_layers_per_stage / (double)in->tp / E
                             : r->expert_params / tpp / E;
        double pd = pst - r->expert_params / tpp;
        double gedp, t_d[3], t_x[3], ex;
        st->optimizer_bytes = (pd / (in->zero >= 1 ? d : 1.0) + pe / (in->zero >= 1 ? d / E : 1.0)) *
                              (2.0 * ob + gb + wb);
        st->optimizer_s = st->optimizer_bytes / hw.bw;
        /* Data parallel (dense part: dp ranks, gdpm per node) and expert data
         * parallel (expert part: dp/E ranks, gdpm / min(E, gdpm) per node):
         * [0] AllReduce or ReduceScatter of gradients, [1] AllGather of
         * weights (ZeRO-3).  The two share the NICs: their times add. */
        gedp = gdpm / fmin(E, gdpm);
        /* [2]: ZeRO-2's ReduceScatter after each earlier micro-batch (below). */
        grp_topo(in, gn, gdpm, d / gdpm, &tt, &nic_scale);
        if ((rc = coll_time(&tt, in->zero >= 3 ? GP_COLL_REDUCESCATTER : GP_COLL_ALLREDUCE,
                            pd * gb, nic_scale, &t_d[0], e)) != GP_OK ||
            (rc = coll_time(&tt, GP_COLL_ALLGATHER, in->zero >= 3 ? pd * wb : 0.0, nic_scale,
                            &t_d[1], e)) != GP_OK ||
            (rc = coll_time(&tt, GP_COLL_REDUCESCATTER, zero2_rs ? pd * gb : 0.0, nic_scale,
                            &t_d[2], e)) != GP_OK)
            return rc;
        grp_topo(in, gn, gedp, d / E / gedp, &tt, &nic_scale);
        if ((rc = coll_time(&tt, in->zero >= 3 ? GP_COLL_REDUCESCATTER : GP_COLL_ALLREDUCE,
                            pe * gb, nic_scale, &t_x[0], e)) != GP_OK ||
            (rc = coll_time(&tt, GP_COLL_ALLGATHER, in->zero >= 3 ? pe * wb : 0.0, nic_scale,
                            &t_x[1], e)) != GP_OK ||
            (rc = coll_time(&tt, GP_COLL_REDUCESCATTER, zero2_rs ? pe * gb : 0.0, nic_scale,
                            &t_x[2], e)) != GP_OK)
            return rc;
        st->dp_expert_bytes = pe * gb;
        if (in->zero >= 3) {
            double t_ag = t_d[1] + t_x[1], t_rs = t_d[0] + t_x[0];
            st->dp_bytes = pd * wb;
            st->dp_expert_bytes = pe * wb;
            st->dp_comm_s = m * (2.0 * t_ag + t_rs);
            if (in->dp_no_overlap)
                ex = 2.0 * t_ag + t_rs;
            else
                ex = fmax(0.0, t_ag - st->fwd_s) + fmax(0.0, t_ag + t_rs - st->bwd_s) +
                     t_ag / ls;
            st->dp_comm_exposed_s = m * ex;
        } else {
            st->dp_bytes = pd * gb;
            dp_gradient_times(st, t_d[0] + t_x[0], t_d[2] + t_x[2], m, (pd + pe) * gb,
                              p->step_bucket_bytes, in->dp_no_overlap);
        }
    } else {
        /* Adapter fine-tuning: only the adapters have gradients and
         * optimizer states (the frozen base still gathers under ZeRO-3). */
        double trained = lora ? adapter : pst;
        st->optimizer_bytes = trained / (in->zero >= 1 ? dg : 1.0) * (2.0 * ob + gb + wb);
        st->optimizer_s = st->optimizer_bytes / hw.bw;

        /* --- data parallel: the gradient group is the dp x cp ranks holding
         * the same parameters; g_dp of them share a node ------------------ */
        g_dp = tpp <= gn ? gn / (t * pp) : t * cp <= gn ? cp : gn / t;
        if (g_dp > dg)
            g_dp = dg;
        nodes_dp = dg / g_dp;
        nics = node_nics(in, gn) * g_dp / gn;
        nic_scale = nics < 1.0 ? 1.0 / nics : 1.0;
        memset(&tt, 0, sizeof tt);
        tt.scale_up = in->scale_up;
        tt.gpus_per_node = (long)g_dp;
        tt.scale_out = in->scale_out;
        tt.nodes = (long)nodes_dp;
        tt.nics_per_node = nics < 1.0 ? 1 : (long)nics;
        gdp = trained * gb;
        if (in->zero >= 3) {
            /* ZeRO-3 gathers the stored weights: a QLoRA base packed */
            double emb = stage_embed(r, r->params, pp) / t;
            double w = frozen_bytes(in, pst, emb, wb), t_ag, t_rs, ex;
            if ((rc = coll_time(&tt, GP_COLL_ALLGATHER, w, nic_scale, &t_ag, e)) != GP_OK ||
                (rc = coll_time(&tt, GP_COLL_REDUCESCATTER, gdp, nic_scale, &t_rs, e)) != GP_OK)
                return rc;
            st->dp_bytes = w;
            st->dp_comm_s = m * (2.0 * t_ag + t_rs);
            if (in->dp_no_overlap)
                ex = 2.0 * t_ag + t_rs;
            else
                ex = fmax(0.0, t_ag - st->fwd_s) + fmax(0.0, t_ag + t_rs - st->bwd_s) + t_ag / ls;
            st->dp_comm_exposed_s = m * ex;
        } else {
            double t_ar, t_rs;
            if ((rc = coll_time(&tt, GP_COLL_ALLREDUCE, gdp, nic_scale, &t_ar, e)) != GP_OK ||
                (rc = coll_time(&tt, GP_COLL_REDUCESCATTER, zero2_rs ? gdp : 0.0, nic_scale,
                                &t_rs, e)) != GP_OK)
                return rc;
            st->dp_bytes = gdp;
            dp_gradient_times(st, t_ar, t_rs, m, gdp, p->step_bucket_bytes, in->dp_no_overlap);
        }
    }

    /* --- the step ------------------------------------------------------------ */
    st->compute_s = m * (st->gemm_s + st->attn_s);
    st->memory_s = m * st->elementwise_s + st->optimizer_s;
    st->tp_comm_s = m * st->tp_comm_mb_s;
    st->pp_comm_s = m * st->pp_p2p_mb_s;
    st->cp_comm_s = m * st->cp_comm_mb_s;
    st->bubble_fraction = (pp - 1.0) / (m * v);
    st->bubble_s = (pp - 1.0) / v * st->micro_batch_s;
    st->ledger.t[GP_ACCT_COMPUTE] = st->compute_s;
    st->ledger.t[GP_ACCT_MEMORY] = st->memory_s;
    st->alltoall_s = m * st->alltoall_mb_s;
    if (in->moe_overlap && st->alltoall_mb_s > 0.0) {
        /* Each micro-batch's AllToAlls (A) run under the adjacent one's
         * computation (C) on k of the S SMs: the computation loses A k/S,
         * or the AllToAlls outlast it by A - C.  The first forward and the
         * last backward have no neighbour: one A stays exposed. */
        double A = st->alltoall_mb_s, C = st->gemm_s + st->attn_s + st->elementwise_s;
        double ks = p->step_a2a_sms / (hw.sms > 0.0 ? hw.sms : 132.0);
        st->alltoall_s = (m - 1.0) * fmax(A * fmin(ks, 1.0), A - C) + A;
    }
    st->alltoall_hidden_s = fmax(0.0, m * st->alltoall_mb_s - st->alltoall_s);
    st->ledger.t[GP_ACCT_MOVEMENT] =
        st->tp_comm_s + st->pp_comm_s + st->cp_comm_s + st->dp_comm_exposed_s + st->bubble_s +
        st->alltoall_s;
    gp_ledger_close(&st->ledger, GP_OVERLAP_SUM);
    st->step_s = st->ledger.total;
    st->hardware_flop = m * (st->gemm_flop + st->attn_flop);
    st->mfu = r->model_flop_per_token * st->tokens_per_step /
              (gpus * r->peak_flop_per_s * st->step_s);
    st->hfu = r->hardware_flop_per_token * st->tokens_per_step /
              (gpus * r->peak_flop_per_s * st->step_s);
    return GP_OK;
}

/* The first stage's activations as a multiple of p micro-batches' worth:
 * interleaving's 1 + (p - 1)/(p v), at most m/p with m micro-batches per
 * step (known when the step model ran): a step of m micro-batches never
 * holds more than all of them. */
static double pipeline_inflight(const gp_train_in *in, const gp_train_result *r)
{
    double p = (double)in->pp, m = r->step.micro_batches, f = 1.0;

    if (in->pp <= 1)
        return 1.0;
    if (in->interleave > 1)
        f = 1.0 + (p - 1.0) / (p * (double)in->interleave);
    return m > 0.0 && m / p < f ? m / p : f;
}

double gp_train_seq(const gp_train_in *in, const gp_train_params *p)
{
    gp_train_params pdef;
    if (in == NULL)
        return 0.0;
    if (p == NULL) {
        gp_train_params_init(&pdef);
        p = &pdef;
    }
    if (in->seq > 0.0)
        return in->seq;
    if (in->model != NULL && in->model->train_seq.v > 0.0)
        return in->model->train_seq.v;
    if (in->model != NULL && in->model->context.v > 0.0)
        return in->model->context.v < p->max_default_seq ? in->model->context.v
                                                          : p->max_default_seq;
    return p->default_seq;
}

int gp_train_estimate(const gp_train_in *in, const gp_train_params *pin,
                      gp_train_result *out, gp_err *e)
{
    gp_train_params pdef;
    const gp_train_params *p = pin;
    const gp_gpu *g;
    gp_train_result *r;
    double n, na, tokens, seq, mm, at, att, rec, lg, ref_hfu_ratio, run_hw_ref;
    double ntp, wb, gb, ob, nlayers_act, per_layer, act_units, phi;
    gp_train_recompute kept;
    double st_all, st_exp, wbase;
    double usable, room, a, b, adapter, u, d, inv_dp, gpus, zall;
    int mixed, k;
    long shards;

    if (in == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_estimate: NULL in");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_train_estimate: NULL out");
    if (p == NULL) {
        gp_train_params_init(&pdef);
        p = &pdef;
    }
    g = in->gpu;
    if (g == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpu", 0, 0, "no GPU given");
    /* A fused attention kernel's rate a caller set by hand (the CLI's
     * --attention-eff takes [0.05, 1]): 0 would make the step infinite. */
    if (!(p->step_flash_eff > 0.0 && p->step_flash_eff <= 1.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--attention-eff", 0, 0,
                           "the fused attention rate must lie in (0, 1] of the GEMM rate "
                           "(got %g)", p->step_flash_eff);
    /* The amax pass of 8-bit casts (the CLI's --fp8-scaling sets 2 or 0). */
    if (!(p->step_fp8_amax_bytes >= 0.0 && p->step_fp8_amax_bytes <= 8.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--fp8-scaling", 0, 0,
                           "the amax pass reads 0 to 8 bytes an element (got %g)",
                           p->step_fp8_amax_bytes);
    /* Enumerations a caller set by hand (the CLI parses names). */
    if ((unsigned)in->recompute > (unsigned)GP_RECOMPUTE_BLOCK)
        return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0, "recompute mode %d out of range",
                           (int)in->recompute);
    if ((unsigned)in->optimizer > (unsigned)GP_OPT_SGD)
        return GP_RAISE_AT(e, GP_EINVAL, "--optimizer", 0, 0, "optimizer %d out of range",
                           (int)in->optimizer);
    if ((unsigned)in->count > (unsigned)GP_COUNT_EXACT)
        return GP_RAISE_AT(e, GP_EINVAL, "--exact", 0, 0, "FLOP count %d out of range",
                           (int)in->count);
    if (in->mfu_mode != 0 && in->mfu_mode != GP_MFU_MODEL)
        return GP_RAISE_AT(e, GP_EINVAL, "--mfu", 0, 0,
                           "mfu_mode %d out of range (0 or GP_MFU_MODEL)", in->mfu_mode);
    if (in->precision_set && (unsigned)in->precision >= (unsigned)GP_PREC__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "--precision", 0, 0, "precision %d out of range",
                           (int)in->precision);
    r = out;
    memset(r, 0, sizeof *r);
    r->mfu_precision_scale = 1.0;

    /* --- inputs ---------------------------------------------------------- */
    tokens = in->tokens;
    if (!(tokens > 0.0) || !isfinite(tokens))
        return GP_RAISE_AT(e, GP_EINVAL, "--tokens", 0, 0,
                           "training tokens must be > 0 (got '%g')", tokens);
    /* A run trains on whole tokens: 1e-300 printed 1.4e-309 GPU-days. */
    if (tokens < 1.0)
        return GP_RAISE_AT(e, GP_ERANGE, "--tokens", 0, 0,
                           "training tokens must lie in [1, 1e18] (got '%g')", tokens);
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
        /* A count this small is a forgotten suffix ("7" for 7B), not a model
         * anyone plans GPU-days for. */
        if (n < GP_TRAIN_PARAMS_MIN && n < 1000.0)
            return GP_RAISE_AT(e, GP_ERANGE, "--params", 0, 0,
                               "%g parameters is below %g: did you mean %gB (counts take K, M, "
                               "B, T)?",
                               n, GP_TRAIN_PARAMS_MIN, n);
        if (n < GP_TRAIN_PARAMS_MIN)
            return GP_RAISE_AT(e, GP_ERANGE, "--params", 0, 0,
                               "%g parameters is below %g (counts take K, M, B, T: 7B is 7e9)",
                               n, GP_TRAIN_PARAMS_MIN);
    }
    /* Plausibility caps (far beyond any run: the largest models have ~2e12
     * parameters and ~4e13 training tokens) keep every derived figure
     * finite and printable: 6 x 1e15 x 1e18 FLOP, 16 x 1e15 bytes. */
    if (n > GP_MODEL_PARAMS_MAX || na > GP_MODEL_PARAMS_MAX)
        return GP_RAISE_AT(e, GP_ERANGE, in->model != NULL ? "--model" : "--params", 0, 0,
                           "parameter count must be <= 1e15 (got '%g')", n);
    if (tokens > 1e18)
        return GP_RAISE_AT(e, GP_ERANGE, "--tokens", 0, 0,
                           "training tokens must be <= 1e18 (got '%g')", tokens);
    if (in->lora_params > GP_MODEL_PARAMS_MAX)
        return GP_RAISE_AT(e, GP_ERANGE, "--lora-params", 0, 0,
                           "adapter parameters must be <= 1e15 (got '%g')", in->lora_params);
    if (in->gpus < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "GPU count must be a positive integer (got '%ld')", in->gpus);
    /* The most GPUs the collectives price (comm.c): far beyond any cluster. */
    if (in->gpus > (1L << 30))
        return GP_RAISE_AT(e, GP_ERANGE, "--gpus", 0, 0,
                           "GPU count must be <= %ld (got '%ld')", 1L << 30, in->gpus);
    if (in->tp < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--tp", 0, 0,
                           "tensor-parallel degree must be >= 1 (got '%ld')", in->tp);
    if (in->pp < 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--pp", 0, 0,
                           "pipeline-parallel degree must be >= 1 (got '%ld')", in->pp);
    if (in->cp < 0 || in->cp > 4096)
        return GP_RAISE_AT(e, GP_EINVAL, "--cp", 0, 0,
                           "context-parallel degree must lie in [1, 4096] (got '%ld')", in->cp);
    if (in->tp > in->gpus || in->pp > in->gpus || in->cp > in->gpus)
        return GP_RAISE_AT(e, GP_EINVAL, in->tp > in->gpus ? "--tp" : in->pp > in->gpus ? "--pp"
                                                                                        : "--cp",
                           0, 0, "a parallel degree (tp %ld, pp %ld, cp %ld) exceeds the %ld GPUs",
                           in->tp, in->pp, in->cp > 1 ? in->cp : 1L, in->gpus);
    r->cp = in->cp > 1 ? in->cp : 1;
    shards = in->tp * in->pp;
    if (in->gpus % (shards * r->cp) != 0)
        return r->cp > 1 ? GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                                       "GPU count '%ld' is not a multiple of tp x pp x cp = %ld",
                                       in->gpus, shards * r->cp)
                         : GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                                       "GPU count '%ld' is not a multiple of tp x pp = %ld",
                                       in->gpus, shards);
    if (in->zero < 0 || in->zero > 3)
        return GP_RAISE_AT(e, GP_EINVAL, "--zero", 0, 0,
                           "ZeRO stage must be 0, 1, 2 or 3 (got '%d')", in->zero);
    if (in->mfu != 0.0 && !(in->mfu >= GP_TRAIN_MFU_MIN && in->mfu <= 1.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--mfu", 0, 0,
                           "MFU must lie in [%g, 1] (got '%g')", GP_TRAIN_MFU_MIN, in->mfu);
    if (in->lora_params < 0.0 || !isfinite(in->lora_params))
        return GP_RAISE_AT(e, GP_EINVAL, "--lora-params", 0, 0,
                           "adapter parameters must be > 0 (got '%g')", in->lora_params);
    if (in->base_bits != 0.0 && (!(in->base_bits >= 1.0 && in->base_bits <= 32.0) ||
                                 !(in->lora_params > 0.0)))
        return GP_RAISE_AT(e, GP_EINVAL, "--base-format", 0, 0,
                           in->lora_params > 0.0
                               ? "a frozen base needs 1 to 32 bits per weight (got '%g')"
                               : "a quantised base ('%g' bits) needs --lora-params (only a "
                                 "frozen base can stay quantised)",
                           in->base_bits);
    /* Adapters are a small fraction of the frozen base (LoRA: 0.01-1 %). */
    if (in->lora_params >= n)
        return GP_RAISE_AT(e, GP_ERANGE, "--lora-params", 0, 0,
                           "adapter parameters must be fewer than the base model's %g (got '%g')",
                           n, in->lora_params);
    if (in->micro_batch < 1.0 || !isfinite(in->micro_batch))
        return GP_RAISE_AT(e, GP_EINVAL, "--micro-batch", 0, 0,
                           "micro-batch must be >= 1 (got '%g')", in->micro_batch);
    if (in->seq < 0.0 || !isfinite(in->seq))
        return GP_RAISE_AT(e, GP_EINVAL, "--seq", 0, 0,
                           "sequence length must be > 0 (got '%g')", in->seq);
    /* A config.json's dimension cap (GP_MODEL_DIM_MAX), as decode's
     * --context: 9.2e18 printed MFU 0.000 and 5e16 days. */
    if (in->seq > GP_MODEL_DIM_MAX)
        return GP_RAISE_AT(e, GP_ERANGE, "--seq", 0, 0,
                           "sequence length must be <= 1e9 tokens (got '%.0f')", in->seq);
    /* As decode's --batch and the step model's global batch (1e9 sequences):
     * the step model names its own bound, a larger dp x micro-batch step. */
    if (in->micro_batch > 1e9 && in->mfu_mode != GP_MFU_MODEL)
        return GP_RAISE_AT(e, GP_ERANGE, "--micro-batch", 0, 0,
                           "micro-batch must be <= 1e9 sequences (got '%.0f')", in->micro_batch);
    /* !(x >= 0): a NaN too, which every "< 0" and "> cap" test let through
     * as "not given". */
    if (!(in->step_time >= 0.0) || !(in->tokens_per_step >= 0.0) || !(in->batch >= 0.0) ||
        (in->step_time > 0.0) != (in->tokens_per_step > 0.0 || in->batch > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL,
                           !(in->step_time >= 0.0)         ? "--step-time"
                           : !(in->tokens_per_step >= 0.0) ? "--tokens-per-step"
                           : !(in->batch >= 0.0)           ? "--batch"
                           : in->step_time > 0.0           ? "--tokens-per-step"
                                                           : "--step-time",
                           0, 0,
                           "profile mode needs both a step time > 0 and tokens per "
                           "step (or --batch) "
                           "> 0 (got %g s, %g tokens, %g sequences)",
                           in->step_time, in->tokens_per_step, in->batch);
    {
        /* The first negative (or NaN) cost input, named by its option. */
        static const char *const opt[] = {"--price", "--years", "--pue", "--kwh-price",
                                          "--purchase"};
        const double cost[] = {in->price, in->years, in->pue, in->kwh_price, in->purchase};
        size_t i;
        for (i = 0; i < sizeof cost / sizeof cost[0]; i++)
            if (!(cost[i] >= 0.0))
                return GP_RAISE_AT(e, GP_EINVAL, opt[i], 0, 0,
                                   "cost inputs must be >= 0 (got %g)", cost[i]);
    }
    /* Plausibility caps on the profile and the cost inputs, far beyond any
     * real figure, so that every derived time, MFU, energy and cost stays
     * finite and printable (docs/models/training.md section 7). */
    if (in->step_time > 0.0 && !(in->step_time >= 1e-6 && in->step_time <= 1e7))
        return GP_RAISE_AT(e, GP_ERANGE, "--step-time", 0, 0,
                           "step time must lie in [1 us, 1e7 s] (got '%g s')", in->step_time);
    if (in->tokens_per_step > 1e12)
        return GP_RAISE_AT(e, GP_ERANGE, "--tokens-per-step", 0, 0,
                           "tokens per step must be <= 1e12 (got '%g')", in->tokens_per_step);
    if (in->price > 1e4)
        return GP_RAISE_AT(e, GP_ERANGE, "--price", 0, 0,
                           "rent must be <= 1e4 USD per GPU-hour (got '%g')", in->price);
    if (in->purchase > 1e8)
        return GP_RAISE_AT(e, GP_ERANGE, "--purchase", 0, 0,
                           "purchase price must be <= 1e8 USD per GPU (got '%g')", in->purchase);
    if (in->years > 0.0 && !(in->years >= 0.01 && in->years <= 100.0))
        return GP_RAISE_AT(e, GP_ERANGE, "--years", 0, 0,
                           "amortisation period must lie in [0.01, 100] years (got '%g')",
                           in->years);
    if (in->pue > 0.0 && !(in->pue >= 1.0 && in->pue <= 10.0))
        return GP_RAISE_AT(e, GP_ERANGE, "--pue", 0, 0,
                           "PUE must lie in [1, 10] (got '%g')", in->pue);
    if (in->kwh_price > 100.0)
        return GP_RAISE_AT(e, GP_ERANGE, "--kwh-price", 0, 0,
                           "electricity price must be <= 100 USD per kWh (got '%g')",
                           in->kwh_price);
    r->dp = in->gpus / (shards * r->cp);
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
    /* A frozen base is held in the training weights' width or packed
     * narrower (QLoRA); a wider one (fp32 under 16-bit training) would be
     * priced at the training width while named at its own. */
    if (in->lora_params > 0.0 && in->base_bits > (mixed ? 16.0 : 32.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--base-format", 0, 0,
                           "a frozen base of %g bits is wider than the %g-bit %s training "
                           "weights: give a format no wider (bf16, int8, nf4), or "
                           "--precision fp32 for a 32-bit base",
                           in->base_bits, mixed ? 16.0 : 32.0, gp_precision_name(r->precision));

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
    /* A shape's layer kinds given by hand (a database model's were checked
     * by the loader): counts in [0, GP_MODEL_DIM_MAX], and linear layers
     * below the depth come with their state. */
    {
        const struct {
            const char *name;
            double v, top;
        } f[] = {{"window", r->shape.window, GP_MODEL_DIM_MAX},
                 {"window_layers", r->shape.window_layers, GP_MODEL_DIM_MAX},
                 {"linear_layers", r->shape.linear_layers, GP_MODEL_DIM_MAX},
                 {"linear_state", r->shape.linear_state, GP_MODEL_DIM_MAX},
                 {"ffn_layers", r->shape.ffn_layers, GP_MODEL_DIM_MAX},
                 {"linear_params", r->shape.linear_params, GP_MODEL_PARAMS_MAX}};
        for (k = 0; k < (int)(sizeof f / sizeof f[0]); k++)
            if (!(f[k].v >= 0.0 && f[k].v <= f[k].top))
                return GP_RAISE_AT(e, GP_EINVAL, "--model", 0, 0,
                                   "shape field '%s' must lie in [0, %g] (got '%g')", f[k].name,
                                   f[k].top, f[k].v);
        if (r->shape.linear_layers > 0.0 && r->shape.linear_layers < r->shape.layers &&
            !(r->shape.linear_state > 0.0))
            return GP_RAISE_AT(e, GP_EINVAL, "--model", 0, 0,
                               "%g linear-attention layers without their recurrent state "
                               "(shape field 'linear_state')",
                               r->shape.linear_layers);
    }
    /* Whole layers on each stage and whole heads on each tensor rank:
     * more stages than layers would leave stages empty (and N / p would
     * under-count the heaviest one).  An inferred shape's layers are whole
     * but its heads (h / 128) are not: only its layers are checked, and the
     * step model rounds its heads to a multiple of t. */
    if (r->shape_known) {
        if ((k = check_layout(&r->shape, in->tp, in->pp, 1.0, e)) != GP_OK)
            return k;
    } else if (r->shape.layers < (double)in->pp) {
        return GP_RAISE_AT(e, GP_EINVAL, "--pp", 0, 0,
                           "%g layers (inferred from %g parameters, no shape given) are fewer "
                           "than pp = %ld stages: give the shape (--model or --layers ...) "
                           "or fewer stages",
                           r->shape.layers, na, in->pp);
    }
    /* Block recompute: N layers of each model chunk (each virtual stage
     * when interleaved; Megatron-LM's recompute_num_layers), at most the
     * ceil(L / (p v)) layers the largest chunk holds. */
    if (in->recompute == GP_RECOMPUTE_BLOCK) {
        double vv = virtual_stages(in);
        double lc = chunk_layers(in, r->shape.layers);
        /* More virtual stages than layers is the layout's own error
         * (check_layout, --interleave), not N's: only N < 0 here then. */
        if (r->shape.layers < (double)in->pp * vv)
            lc = INFINITY;
        if (in->recompute_layers < 0 || (double)in->recompute_layers > lc)
            return GP_RAISE_AT(e, GP_EINVAL, "--recompute", 0, 0,
                               "'block:%ld': N, the layers of each model chunk to recompute, "
                               "must lie in [0, %g] (%g layers over pp %ld x %g virtual "
                               "stages)",
                               in->recompute_layers, lc, r->shape.layers, in->pp, vv);
    }
    seq = gp_train_seq(in, p);
    r->seq = seq;
    /* Context parallelism (Megatron-core): each rank takes two of 2 cp
     * chunks of every sequence (causal load balance), so 2 cp divides s;
     * the ring exchanges K and V of fused attention; MoE layouts are not
     * modelled with it. */
    if (r->cp > 1) {
        if (fmod(seq, 2.0 * (double)r->cp) != 0.0)
            return GP_RAISE_AT(e, GP_EINVAL, "--cp", 0, 0,
                               "context-parallel degree '%ld' needs a sequence that is a "
                               "multiple of 2 x cp = %ld (got '%g')",
                               in->cp, 2 * r->cp, seq);
        if (in->attn_unfused)
            return GP_RAISE_AT(e, GP_EINVAL, "--attention", 0, 0,
                               "context parallelism needs fused attention (--attention "
                               "flash), not 'unfused'");
        if (r->shape.experts > 0.0)
            return GP_RAISE_AT(e, GP_EUNSUP, "--cp", 0, 0,
                               "context parallelism with a mixture-of-experts model is not "
                               "modelled");
        /* A linear layer's recurrence runs through the sequence: split over
         * cp ranks, each waits for the state of the one before (or passes
         * it round a ring, LASP), which the K/V ring does not price. */
        if (shape_attn_share(&r->shape) < 1.0)
            return GP_RAISE_AT(e, GP_EUNSUP, "--cp", 0, 0,
                               "context parallelism with linear-attention layers (%g of the "
                               "%g) is not modelled",
                               r->shape.layers - shape_attn_layers(&r->shape), r->shape.layers);
    }

    /* --- expert parallelism (Megatron-core: the E expert-parallel ranks are
     * drawn from the data-parallel group, so E divides dp; each holds
     * experts/E of every MoE layer's routed experts) ------------------------ */
    if (in->ep < 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--ep", 0, 0,
                           "expert-parallel degree must be >= 1 (got '%ld')", in->ep);
    r->ep = in->ep > 1 ? in->ep : 1;
    if (r->ep > 1 && !(r->shape.experts > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--ep", 0, 0,
                           "expert parallelism '%ld' needs a mixture-of-experts model (this "
                           "one is dense)", in->ep);
    if (r->dp % r->ep != 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--ep", 0, 0,
                           "expert-parallel degree '%ld' does not divide the data-parallel "
                           "degree %ld (expert ranks are drawn from the data-parallel group)",
                           in->ep, r->dp);
    if (r->ep > 1 && fmod(r->shape.experts, (double)r->ep) != 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--ep", 0, 0,
                           "expert-parallel degree '%ld' does not divide the %g experts",
                           in->ep, r->shape.experts);
    /* The busiest rank's X/E experts see at most every token of the E ranks
     * once per expert, E T min(k, X/E) rows against T k balanced: F <= min(E,
     * X/k) (and at least its share, F >= 1). */
    if (in->moe_imbalance != 0.0) {
        double fmax = (double)r->ep;
        if (r->shape.experts_active > 0.0 && r->shape.experts / r->shape.experts_active < fmax)
            fmax = r->shape.experts / r->shape.experts_active;
        if (fmax < 1.0)
            fmax = 1.0;
        if (!(in->moe_imbalance >= 1.0 && in->moe_imbalance <= fmax))
            return GP_RAISE_AT(e, GP_EINVAL, "--moe-imbalance", 0, 0,
                               "load imbalance must lie in [1, min(ep, experts/active) = %g] "
                               "(the busiest expert rank gets at least its share and at most "
                               "every token once per expert; got '%g')",
                               fmax, in->moe_imbalance);
    }
    r->expert_params = routed_expert_params(&r->shape);
    if (r->expert_params > n)
        r->expert_params = n;

    /* --- FLOPs (per token first, then x D) ---------------------------------- */
    /* at: the token mixers' core, attention on the attending layers (att)
     * and the linear layers' recurrence (rec); training.md 1.2. */
    fwd_parts(&r->shape, seq, p->causal_attention, &mm, &att, &rec, &lg);
    at = att + rec;
    {
        double f6, fx, extra = 0.0, phi_m;
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
         * attention core only (Korthikanti et al. 2022 §5): not the linear
         * layers' recurrence, whose kernel keeps no s^2 scores to drop. */
        /* Block recompute re-runs the share phi_m = min(N p v, L) / L of the
         * layers (training.md "Partial full recompute"). */
        phi_m = recompute_share(in, r->shape.layers, (double)in->pp * virtual_stages(in));
        if (phi_m > 0.0) /* adapters' forward too */
            extra = phi_m * ((in->count == GP_COUNT_EXACT ? mm + at : 2.0 * na) +
                             2.0 * in->lora_params);
        else if (in->recompute == GP_RECOMPUTE_SELECTIVE)
            extra = att;
        r->flop_6nd = f6 * tokens;
        r->flop_exact = fx * tokens;
        r->model_flop_per_token = in->count == GP_COUNT_EXACT ? fx : f6;
        r->hardware_flop_per_token = r->model_flop_per_token + extra;
        r->model_flop = r->model_flop_per_token * tokens;
        r->hardware_flop = r->hardware_flop_per_token * tokens;
        /* A default MFU is quoted the way the published runs behind it count
         * (PaLM, Llama 3, MosaicML: 6N + 12 L s q per token, the whole s^2
         * attention; Chowdhery et al. 2022 App. B) for full training at
         * selective recompute.  What carries over to this run is the
         * hardware rate it implies, HFU_ref = MFU_ref x (M_ref + A)/M_ref
         * with M_ref = 6 N_a + 3 A and A the full attention core forward;
         * the run's own work on that count is W = f6 + 3 A + recompute extra
         * (selective: A; full: 2 N + A, + 2 N_a with adapters; block: phi_m x
         * full's; none: 0).
         * Per layer kind: A is the attention on the attending layers (afa,
         * local ones within their window) + the linear layers' recurrence
         * (rec), and selective recompute re-runs the attention alone.
         * docs/models/training.md 1.3. */
        {
            double afa = p->causal_attention ? 2.0 * att : att;
            double af = afa + rec;
            double mref = 6.0 * na + 3.0 * af, wext = 0.0;
            if (phi_m > 0.0)
                wext = phi_m * (2.0 * na + 2.0 * in->lora_params + af);
            else if (in->recompute == GP_RECOMPUTE_SELECTIVE)
                wext = afa;
            ref_hfu_ratio = (mref + afa) / mref;
            run_hw_ref = f6 + 3.0 * af + wext;
            r->palm_flop_per_token = f6 + 3.0 * af;
        }
    }

    /* --- time -------------------------------------------------------------- */
    gpus = (double)in->gpus;
    if (in->mfu_mode == GP_MFU_MODEL) {
        int src;
        if ((src = step_model(in, p, r, e)) != GP_OK)
            return src;
        r->step_model = 1;
        r->mfu = r->step.mfu;
        r->mfu_src = "step-time model (docs/models/training.md)";
        r->mfu_origin = GP_MFU_MODEL;
        r->mfu_reference = r->mfu;
        r->tokens_per_s = r->step.tokens_per_step / r->step.step_s;
        r->tokens_per_s_per_gpu = r->tokens_per_s / gpus;
    } else if (in->step_time > 0.0) {
        double tps = in->tokens_per_step > 0.0 ? in->tokens_per_step : in->batch * seq;
        if (!(tps >= 1.0 && tps <= 1e12))
            return GP_RAISE_AT(e, GP_ERANGE,
                               in->tokens_per_step > 0.0 ? "--tokens-per-step" : "--batch", 0, 0,
                               "tokens per step must lie in [1, 1e12] (got '%g')", tps);
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
        /* A default keeps the hardware rate it was quoted at (see the FLOP
         * block above) and is restated on this run's count and recompute:
         * mfu = MFU_ref x HFU_ref/MFU_ref x model FLOPs / W. */
        r->mfu_reference = r->mfu;
        if (r->mfu_origin != GP_MFU_GIVEN) {
            /* ...and quoted for the GPU's 16-bit training precision (bf16,
             * else fp16).  Another precision changes the GEMMs' peak: the
             * reference step spends gs = HFU_ref / efficiency.compute of its
             * time in GEMMs at the expected GEMM rate (at most all of it);
             * they run p_ref/p as long.  The rest is memory-bound traffic of
             * the activations, which stay 16-bit with FP8 GEMMs and double
             * with 32-bit training (tf32, fp32).  The GEMMs' ratio is the
             * expected rates' (an FP8 GEMM reaches less of its peak,
             * gp_gpu_compute_eff): FP8 on an H100 takes 1 - gs(1 -
             * 791.5/1402.6) of the bf16 time, not 1 - gs/2. */
            gp_pipeline pp;
            double pref = dense_peak(g, precision16(g), &pp), slow = 1.0;
            if (pref > 0.0 && pref != r->peak_flop_per_s) {
                /* gs divides by the database's efficiency, not a
                 * calibration: the default MFU was quoted on reference
                 * hardware at that efficiency; the speed ratio below is
                 * this GPU's (calibrated where measured). */
                double gs = r->mfu * ref_hfu_ratio / gp_gpu_compute_eff(g, precision16(g), pp, NULL);
                double xref = gp_gpu_expected_peak(g, precision16(g), pp, GP_ACC_FP32, 0);
                double xrun = gp_gpu_expected_peak(g, r->precision, r->pipeline, GP_ACC_FP32, 0);
                if (gs > 1.0)
                    gs = 1.0;
                slow = gs * xref / xrun + (1.0 - gs) * (mixed ? 1.0 : 2.0);
                r->mfu *= pref / (r->peak_flop_per_s * slow);
            }
            r->mfu_precision_scale = 1.0 / slow;
            r->mfu *= ref_hfu_ratio * r->model_flop_per_token / run_hw_ref;
        }
        /* tokens/s per GPU = peak x MFU / model FLOP per token */
        r->tokens_per_s_per_gpu = r->peak_flop_per_s * r->mfu / r->model_flop_per_token;
        r->tokens_per_s = r->tokens_per_s_per_gpu * gpus;
    }
    /* wall = D / cluster tokens/s; GPU-seconds = wall x GPUs
     *      = model FLOPs / (peak x MFU). */
    r->wall_s = tokens / r->tokens_per_s;
    r->gpu_seconds = r->wall_s * gpus;
    r->hfu = r->mfu * r->hardware_flop_per_token / r->model_flop_per_token;
    r->mfu_palm = r->mfu * r->palm_flop_per_token / r->model_flop_per_token;
    /* The share of the datasheet peak the run claims: a profile's implied
     * MFU; a given --mfu's HFU (the FLOPs the GPU executes, recompute
     * included) or its PaLM-count MFU (the attention 6N leaves out),
     * whichever is larger.  No run goes 25 % above the peak (GeForce cards
     * boost at most ~8 % above it: RTX 4090 MAMF 178.8 vs 165.2 TFLOP/s):
     * such a profile counts the tokens of one GPU, or a wrong time; such an
     * MFU was quoted on another count.  Above 1 the CLI warns. */
    r->peak_share = r->profiled                      ? r->mfu
                    : r->mfu_origin == GP_MFU_GIVEN ? fmax(r->hfu, r->mfu_palm)
                    : r->step_model                 ? r->hfu
                                                    : 0.0;
    /* The step model's HFU above 1 is a count that claims more FLOPs than
     * the step runs (the CLI says which): priced, never refused. */
    if (r->peak_share > GP_TRAIN_PROFILE_MFU_MAX && r->profiled)
        return GP_RAISE_AT(e, GP_ERANGE,
                           in->tokens_per_step > 0.0 ? "--tokens-per-step" : "--batch", 0, 0,
                           "%g tokens in %g s on %ld GPUs implies MFU %.3g, above %.2f x the "
                           "datasheet peak: count the tokens of all GPUs (one GPU's x %ld), "
                           "and the time of one optimizer step",
                           r->tokens_per_step, in->step_time, in->gpus, r->mfu,
                           GP_TRAIN_PROFILE_MFU_MAX, in->gpus);
    if (r->peak_share > GP_TRAIN_PROFILE_MFU_MAX && !r->step_model) {
        /* block names its N ("block:5 recompute"); the others their mode. */
        if (in->recompute == GP_RECOMPUTE_BLOCK)
            return GP_RAISE_AT(e, GP_ERANGE, "--mfu", 0, 0,
                               "MFU '%g' (%s count, block:%ld recompute) implies HFU %.3g and "
                               "MFU %.3g on the PaLM count (6N + 12 s q L), above %.2f x the "
                               "datasheet peak: give the MFU the run reaches on this count",
                               in->mfu, in->count == GP_COUNT_EXACT ? "exact" : "6ND",
                               in->recompute_layers, r->hfu, r->mfu_palm,
                               GP_TRAIN_PROFILE_MFU_MAX);
        return GP_RAISE_AT(e, GP_ERANGE, "--mfu", 0, 0,
                           "MFU '%g' (%s count, %s recompute) implies HFU %.3g and MFU %.3g on "
                           "the PaLM count (6N + 12 s q L), above %.2f x the datasheet peak: "
                           "give the MFU the run reaches on this count",
                           in->mfu, in->count == GP_COUNT_EXACT ? "exact" : "6ND",
                           gp_train_recompute_name(in->recompute), r->hfu, r->mfu_palm,
                           GP_TRAIN_PROFILE_MFU_MAX);
    }
    r->gpu_hours = r->gpu_seconds * (1.0 / 3600.0);
    r->gpu_days = r->gpu_seconds * (1.0 / SECONDS_PER_DAY);
    r->wall_days = r->wall_s * (1.0 / SECONDS_PER_DAY);
    r->ceiling_gpu_days = r->gpu_seconds * r->mfu * (1.0 / SECONDS_PER_DAY);

    /* --- memory per GPU ---------------------------------------------------- */
    gp_train_state_bytes(in->optimizer, mixed, &wb, &gb, &ob);
    stage_params(r, n, (double)in->pp, &st_all, &st_exp);
    ntp = st_all / (double)in->tp;
    adapter = in->lora_params / (double)shards;
    /* The frozen base: in the training precision, or quantised (QLoRA) but
     * for its embedding matrices, which stay 16-bit: wbase is the mean
     * bytes per parameter of the stage. */
    wbase = wb;
    if (packed_base(in, wb) && st_all > 0.0)
        wbase = frozen_bytes(in, st_all, stage_embed(r, n, (double)in->pp), wb) / st_all;
    if (in->lora_params > 0.0) {
        /* Only the adapter trains. */
        r->weight_bytes = ntp * wbase + adapter * wb;
        r->grad_bytes = adapter * gb;
        r->optim_bytes = adapter * ob;
    } else {
        r->weight_bytes = ntp * wb;
        r->grad_bytes = ntp * gb;
        r->optim_bytes = ntp * ob;
    }
    /* ZeRO (Rajbhandari et al. 2020): stage 1 shards optimizer states, 2 also
     * gradients, 3 also weights, over the data-parallel degree. */
    /* ZeRO shards over the data- and context-parallel ranks together
     * (Megatron's distributed optimizer uses the dp x cp group). */
    inv_dp = 1.0 / ((double)r->dp * (double)r->cp);
    if (r->ep > 1) {
        /* Expert parallelism: each GPU holds experts/E of the routed
         * experts, N_e/(t p E), and the rest, (N - N_e)/(t p).  ZeRO shards
         * the expert states over the dp/E ranks that hold the same experts:
         * N_e/(t p E) / (dp/E) = N_e/(t p dp), the same per-GPU share as a
         * dense parameter, so a ZeRO-sharded state is (whole shard)/dp. */
        double ne = st_exp / (double)in->tp;
        double rep = (ntp - ne) + ne / (double)r->ep; /* held per GPU     */
        double full[3], *fld[3];
        int st;
        full[0] = ntp * (in->lora_params > 0.0 ? 0.0 : ob) + adapter * ob;
        full[1] = ntp * (in->lora_params > 0.0 ? 0.0 : gb) + adapter * gb;
        full[2] = ntp * wbase + adapter * wb;
        r->optim_bytes = rep * (in->lora_params > 0.0 ? 0.0 : ob) + adapter * ob;
        r->grad_bytes = rep * (in->lora_params > 0.0 ? 0.0 : gb) + adapter * gb;
        r->weight_bytes = rep * wbase + adapter * wb;
        fld[0] = &r->optim_bytes;
        fld[1] = &r->grad_bytes;
        fld[2] = &r->weight_bytes;
        zall = full[0] + full[1] + full[2];
        a = b = 0.0;
        for (st = 0; st < 3; st++) {
            if (in->zero >= st + 1) {
                b += full[st];
                *fld[st] = full[st] * inv_dp;
            } else {
                a += *fld[st];
            }
        }
    } else {
        a = r->weight_bytes + r->grad_bytes + r->optim_bytes;
        b = 0.0;
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
        zall = a + b;
    }
    r->state_bytes = r->weight_bytes + r->grad_bytes + r->optim_bytes;

    /* Activations (Korthikanti et al. 2022): with 1F1B pipelining the first
     * stage holds pp micro-batches of L/pp layers = L layers' worth. */
    act_units = mixed ? 1.0 : 2.0; /* the paper's bytes assume 16-bit     */
    /* 1F1B: the first stage keeps p micro-batches of its ceil(L/p) layers. */
    nlayers_act = in->pp > 1 && r->shape.layers >= (double)in->pp
                      ? (double)in->pp * ceil(r->shape.layers / (double)in->pp)
                      : r->shape.layers;
    /* FlashAttention never stores the s x s scores: without recompute it
     * keeps what selective recompute keeps (34 sbh / t). */
    kept = in->recompute == GP_RECOMPUTE_NONE && !in->attn_unfused ? GP_RECOMPUTE_SELECTIVE
                                                                   : in->recompute;
    /* Block recompute keeps the layers it does not re-run whole: as none
     * (FlashAttention: what selective keeps); the share phi of the first
     * stage's layers it re-runs keeps the full figure (below). */
    if (kept == GP_RECOMPUTE_BLOCK)
        kept = in->attn_unfused ? GP_RECOMPUTE_NONE : GP_RECOMPUTE_SELECTIVE;
    phi = in->recompute == GP_RECOMPUTE_BLOCK
              ? recompute_share(in, in->pp > 1 ? nlayers_act / (double)in->pp : r->shape.layers,
                                virtual_stages(in))
              : in->recompute == GP_RECOMPUTE_FULL ? 1.0 : 0.0;
    per_layer = gp_train_activation_bytes_per_layer(
        seq / (double)r->cp, in->micro_batch, r->shape.hidden, r->shape.heads, (double)in->tp,
        in->sequence_parallel, kept);
    /* Unfused attention without recompute stores the s x s scores on the
     * attending layers; a linear layer has none (its recurrence keeps a
     * state, not scores): the average layer holds the share fa of them. */
    if (kept == GP_RECOMPUTE_NONE && shape_attn_share(&r->shape) < 1.0) {
        double fa = shape_attn_share(&r->shape);
        per_layer = fa * per_layer +
                    (1.0 - fa) * gp_train_activation_bytes_per_layer(
                                     seq / (double)r->cp, in->micro_batch, r->shape.hidden,
                                     r->shape.heads, (double)in->tp, in->sequence_parallel,
                                     GP_RECOMPUTE_SELECTIVE);
    }
    if (in->recompute == GP_RECOMPUTE_BLOCK)
        per_layer = phi * gp_train_activation_bytes_per_layer(
                              seq / (double)r->cp, in->micro_batch, r->shape.hidden,
                              r->shape.heads, (double)in->tp, in->sequence_parallel,
                              GP_RECOMPUTE_FULL) +
                    (1.0 - phi) * per_layer;
    {
        double sbh = seq / (double)r->cp * in->micro_batch * r->shape.hidden;
        double t = (double)in->tp;
        /* The layers, and the embedding dropout mask (1 B), for the pp
         * micro-batches in flight; times the first stage's in-flight
         * factor (Korthikanti et al. 2022 after eq. 5, as Megatron-LM's
         * theoretical memory): v interleaved chunks keep 1 + (p - 1)/(p v)
         * times as many, fewer micro-batches than stages keep only m. */
        r->activation_bytes =
            (nlayers_act * per_layer + sbh * (double)in->pp / (in->sequence_parallel ? t : 1.0)) *
            pipeline_inflight(in, r);
        /* The layer being re-run, under full recompute (a block of every
         * layer included).  A partial block re-runs its layers after the
         * backward has freed the kept layers' activations (at least what
         * a re-run layer holds), so its peak is the start of the backward. */
        if (phi >= 1.0)
            r->activation_bytes += gp_train_activation_bytes_per_layer(
                seq / (double)r->cp, in->micro_batch, r->shape.hidden, r->shape.heads, t,
                in->sequence_parallel,
                in->attn_unfused ? GP_RECOMPUTE_NONE : GP_RECOMPUTE_SELECTIVE);
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
    /* The sharding group dp x cp comes in multiples of cp, and dp in
     * multiples of ep (the expert ranks are drawn from it). */
    d = dp_multiple(min_dp(a, b, room), (double)(r->ep * r->cp));
    if (in->mfu_mode == GP_MFU_MODEL)
        d = step_min_dp(in, r, d, (double)(r->ep * r->cp));
    r->min_gpus = to_long(d * (double)shards);
    d = dp_multiple(min_dp(0.0, zall, room), (double)(r->ep * r->cp));
    if (in->mfu_mode == GP_MFU_MODEL)
        d = step_min_dp(in, r, d, (double)(r->ep * r->cp));
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

    /* --- ledger: compute at the MFU; MFU folds in memory and comm stalls.
     * Step model: the step's ledger x the number of steps (D / tokens per
     * step), so its total is the wall-clock. --- */
    if (r->step_model) {
        double steps = tokens / r->step.tokens_per_step;
        for (k = 0; k < GP_ACCT__COUNT; k++)
            r->ledger.t[k] = r->step.ledger.t[k] * steps;
    } else {
        r->ledger.t[GP_ACCT_COMPUTE] = r->wall_s;
    }
    gp_ledger_close(&r->ledger, GP_OVERLAP_SUM);

    return GP_OK;
}
