/* Parameter count of a decoder-only transformer from its shape (db.h,
 * gp_model_count_params).  Pure arithmetic on doubles (every count below
 * 2^53 is exact).  MODEL: docs/hwdb.md "Importing a Hugging Face
 * config.json"; the per-family details (biases, q/k norms, Gemma's four
 * norms, gpt-oss sinks) follow the shipped entries' notes. */
#include <math.h>
#include <string.h>

#include "gpuplan/db.h"


/* v must be whole and in [lo, GP_MODEL_DIM_MAX]. */
static int check_dim(double v, double lo, const char *field, gp_err *e)
{
    if (!(v >= lo) || !(v <= GP_MODEL_DIM_MAX) || floor(v) != v)
        return GP_RAISE_AT(e, GP_EINVAL, field, 0, 0,
                           "must be a whole number in [%.0f, 1e9] (got %.17g)", lo, v);
    return GP_OK;
}

/* One FFN of inner width w with k matrices (3: gate, up, down; 2: up,
 * down). */
static double ffn_k(const gp_param_shape *s, double k, double w)
{
    double h = s->hidden;
    double n = k * h * w;
    if (s->mlp_bias)
        n += (k - 1.0) * w + h;
    return n;
}

/* The dense FFN of inner width w. */
static double ffn_params(const gp_param_shape *s, double w)
{
    return ffn_k(s, s->gated ? 3.0 : 2.0, w);
}

/* One expert (routed or shared) of inner width w: expert_matrices, else
 * as the dense FFN. */
static double expert_params(const gp_param_shape *s, double w)
{
    return s->expert_matrices > 0.0 ? ffn_k(s, s->expert_matrices, w) : ffn_params(s, w);
}

static double attn_params(const gp_param_shape *s, double kv, double d)
{
    double h = s->hidden, H = s->heads, n;
    if (s->kv_lora_rank > 0.0) {
        double qk = s->qk_nope_head_dim + s->qk_rope_head_dim, c = s->kv_lora_rank;
        double qr = s->q_lora_rank;
        n = qr > 0.0 ? h * qr + qr + qr * H * qk : h * H * qk;      /* queries      */
        n += h * (c + s->qk_rope_head_dim) + c;                    /* kv_a + norm  */
        n += c * H * (s->qk_nope_head_dim + s->v_head_dim);        /* kv_b         */
        n += H * s->v_head_dim * h;                                /* o            */
        if (s->qkv_bias)
            n += H * qk + (c + s->qk_rope_head_dim);
        if (s->o_bias)
            n += h;
        /* DeepSeek-V3.2's lightning indexer (its reference inference
         * model.py, class Indexer): wq_b from the query latent, wk, the key's
         * LayerNorm (weight and bias), weights_proj. */
        if (s->index_heads > 0.0)
            n += qr * s->index_heads * s->index_head_dim + h * s->index_head_dim +
                 2.0 * s->index_head_dim + h * s->index_heads;
    } else {
        /* An output gate (Qwen3-Next) doubles q_proj's width. */
        n = (s->attn_gate ? 2.0 : 1.0) * h * H * d + 2.0 * h * kv * d + H * d * h;
        if (s->qkv_bias)
            n += H * d + 2.0 * kv * d;
        if (s->o_bias)
            n += h;
        if (s->qk_norm == GP_QK_NORM_FULL)
            n += (H + kv) * d; /* OLMo 2's q_norm over H d, k_norm over K d */
        else if (s->qk_norm)
            n += 2.0 * d;
    }
    if (s->attn_sinks)
        n += H;
    return n;
}

/* One Gated DeltaNet mixer (transformers' Qwen3NextGatedDeltaNet):
 * in_proj_qkvz, in_proj_ba, the depthwise conv1d over q, k and v (no bias),
 * A_log and dt_bias, the gated RMSNorm over d_v, out_proj. */
static double linear_params(const gp_param_shape *s)
{
    double h = s->hidden, nk = s->linear_key_heads, nv = s->linear_value_heads;
    double dk = s->linear_key_dim, dv = s->linear_value_dim;
    return h * (2.0 * nk * dk + 2.0 * nv * dv) + h * 2.0 * nv +
           (2.0 * nk * dk + nv * dv) * s->linear_conv + 2.0 * nv + dv + nv * dv * h;
}

/* Its recurrent state per sequence: n_v d_k d_v + (2 n_k d_k + n_v d_v)(K - 1)
 * (vLLM's MambaStateShapeCalculator.gated_delta_net_state_shape). */
static double linear_state(const gp_param_shape *s)
{
    double nk = s->linear_key_heads, nv = s->linear_value_heads;
    double dk = s->linear_key_dim, dv = s->linear_value_dim;
    return nv * dk * dv + (2.0 * nk * dk + nv * dv) * (s->linear_conv - 1.0);
}

/* One Mamba-2 mixer (transformers' Mamba2Mixer, NemotronHMamba2Mixer,
 * BambaMixer): in_proj h -> [gate d_i | x, B, C: c | dt: H], the depthwise
 * conv1d over the c = d_i + 2 G N channels of x, B and C, dt_bias, A_log
 * and D per head, the gated RMSNorm over d_i, out_proj d_i -> h. */
static double mamba2_params(const gp_param_shape *s)
{
    double h = s->hidden, di = s->ssm_inner, H = s->ssm_heads, K = s->linear_conv;
    double c = di + 2.0 * s->ssm_groups * s->ssm_state;
    double n = h * (di + c + H) + c * K + 3.0 * H + di + di * h;
    if (s->ssm_proj_bias)
        n += di + c + H + h;
    if (s->ssm_conv_bias)
        n += c;
    return n;
}

/* One Mamba-1 mixer (transformers' JambaMambaMixer, MambaMixer): in_proj
 * h -> 2 d_i (x and gate), the depthwise conv1d over d_i, x_proj d_i ->
 * R + 2 N (dt, B, C), dt_proj R -> d_i with its bias, A_log d_i x N, D,
 * out_proj d_i -> h; Jamba's RMSNorms on dt, B and C. */
static double mamba1_params(const gp_param_shape *s)
{
    double h = s->hidden, di = s->ssm_inner, N = s->ssm_state, R = s->ssm_dt_rank;
    double n = 2.0 * h * di + di * s->linear_conv + di * (R + 2.0 * N) + R * di + di +
               di * N + di + di * h;
    if (s->ssm_proj_bias)
        n += 2.0 * di + h;
    if (s->ssm_conv_bias)
        n += di;
    if (s->ssm_dt_norms)
        n += R + 2.0 * N;
    return n;
}

/* Their states per sequence (vLLM's mamba2_state_shape / mamba1_state_shape
 * at one GPU): the SSM state d_i N (Mamba-2: H heads x d_i / H x N) and the
 * convolution's last K - 1 inputs over its channels. */
static double mamba2_state(const gp_param_shape *s)
{
    double di = s->ssm_inner;
    return di * s->ssm_state + (s->linear_conv - 1.0) * (di + 2.0 * s->ssm_groups * s->ssm_state);
}

static double mamba1_state(const gp_param_shape *s)
{
    return s->ssm_inner * s->ssm_state + (s->linear_conv - 1.0) * s->ssm_inner;
}

/* The linear layers' widths for their kind; GP_OK or GP_EINVAL. */
static int check_linear(const gp_param_shape *s, gp_err *e)
{
    int rc;
    if (!(s->linear_layers > 0.0))
        return GP_OK;
    switch (s->linear_kind) {
    case GP_MIXER_GDN:
        if (!(s->linear_key_heads > 0.0) || !(s->linear_value_heads > 0.0) ||
            !(s->linear_key_dim > 0.0) || !(s->linear_value_dim > 0.0) || !(s->linear_conv > 0.0))
            return GP_RAISE_AT(e, GP_EINVAL, "linear_key_heads", 0, 0,
                               "%.0f linear-attention layers need linear_key_heads, "
                               "linear_value_heads, linear_key_dim, linear_value_dim and "
                               "linear_conv",
                               s->linear_layers);
        return GP_OK;
    case GP_MIXER_MAMBA2:
        if (!(s->ssm_inner > 0.0) || !(s->ssm_heads > 0.0) || !(s->ssm_groups > 0.0) ||
            !(s->ssm_state > 0.0) || !(s->linear_conv > 0.0))
            return GP_RAISE_AT(e, GP_EINVAL, "ssm_inner", 0, 0,
                               "%.0f Mamba-2 layers need ssm_inner, ssm_heads, ssm_groups, "
                               "ssm_state and linear_conv",
                               s->linear_layers);
        if ((rc = check_dim(s->ssm_inner / s->ssm_heads, 1, "ssm_heads", e)) != GP_OK)
            return rc;
        if (fmod(s->ssm_heads, s->ssm_groups) != 0.0)
            return GP_RAISE_AT(e, GP_EINVAL, "ssm_groups", 0, 0,
                               "%.0f groups do not divide the %.0f Mamba-2 heads", s->ssm_groups,
                               s->ssm_heads);
        return GP_OK;
    case GP_MIXER_MAMBA1:
        if (!(s->ssm_inner > 0.0) || !(s->ssm_state > 0.0) || !(s->ssm_dt_rank > 0.0) ||
            !(s->linear_conv > 0.0))
            return GP_RAISE_AT(e, GP_EINVAL, "ssm_inner", 0, 0,
                               "%.0f Mamba-1 layers need ssm_inner, ssm_state, ssm_dt_rank and "
                               "linear_conv",
                               s->linear_layers);
        return GP_OK;
    default:
        return GP_RAISE_AT(e, GP_EINVAL, "linear_kind", 0, 0,
                           "%d is not a mixer kind (GP_MIXER_GDN, GP_MIXER_MAMBA2 or "
                           "GP_MIXER_MAMBA1)",
                           s->linear_kind);
    }
}

int gp_model_count_params(const gp_param_shape *s, gp_param_count *out, gp_err *e)
{
    double kv, d, fe, fs, moe_layers, h;
    int rc;
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_model_count_params: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_model_count_params: NULL out");
    if ((rc = check_dim(s->layers, 1, "layers", e)) != GP_OK ||
        (rc = check_dim(s->hidden, 1, "hidden", e)) != GP_OK ||
        (rc = check_dim(s->heads, 1, "heads", e)) != GP_OK ||
        (rc = check_dim(s->vocab, 1, "vocab", e)) != GP_OK ||
        (rc = check_dim(s->kv_heads, 0, "kv_heads", e)) != GP_OK ||
        (rc = check_dim(s->head_dim, 0, "head_dim", e)) != GP_OK ||
        (rc = check_dim(s->ffn, 0, "ffn", e)) != GP_OK ||
        (rc = check_dim(s->pos_embed, 0, "pos_embed", e)) != GP_OK ||
        (rc = check_dim(s->norms_per_layer, 0, "norms_per_layer", e)) != GP_OK ||
        (rc = check_dim(s->experts, 0, "experts", e)) != GP_OK ||
        (rc = check_dim(s->experts_active, 0, "experts_active", e)) != GP_OK ||
        (rc = check_dim(s->expert_ffn, 0, "expert_ffn", e)) != GP_OK ||
        (rc = check_dim(s->shared_experts, 0, "shared_experts", e)) != GP_OK ||
        (rc = check_dim(s->shared_ffn, 0, "shared_ffn", e)) != GP_OK ||
        (rc = check_dim(s->dense_layers, 0, "dense_layers", e)) != GP_OK ||
        (rc = check_dim(s->kv_lora_rank, 0, "kv_lora_rank", e)) != GP_OK ||
        (rc = check_dim(s->q_lora_rank, 0, "q_lora_rank", e)) != GP_OK ||
        (rc = check_dim(s->qk_nope_head_dim, 0, "qk_nope_head_dim", e)) != GP_OK ||
        (rc = check_dim(s->qk_rope_head_dim, 0, "qk_rope_head_dim", e)) != GP_OK ||
        (rc = check_dim(s->v_head_dim, 0, "v_head_dim", e)) != GP_OK ||
        (rc = check_dim(s->linear_layers, 0, "linear_layers", e)) != GP_OK ||
        (rc = check_dim(s->linear_key_heads, 0, "linear_key_heads", e)) != GP_OK ||
        (rc = check_dim(s->linear_value_heads, 0, "linear_value_heads", e)) != GP_OK ||
        (rc = check_dim(s->linear_key_dim, 0, "linear_key_dim", e)) != GP_OK ||
        (rc = check_dim(s->linear_value_dim, 0, "linear_value_dim", e)) != GP_OK ||
        (rc = check_dim(s->linear_conv, 0, "linear_conv", e)) != GP_OK ||
        (rc = check_dim(s->ssm_inner, 0, "ssm_inner", e)) != GP_OK ||
        (rc = check_dim(s->ssm_heads, 0, "ssm_heads", e)) != GP_OK ||
        (rc = check_dim(s->ssm_groups, 0, "ssm_groups", e)) != GP_OK ||
        (rc = check_dim(s->ssm_state, 0, "ssm_state", e)) != GP_OK ||
        (rc = check_dim(s->ssm_dt_rank, 0, "ssm_dt_rank", e)) != GP_OK ||
        (rc = check_dim(s->ffn_blocks, 0, "ffn_blocks", e)) != GP_OK ||
        (rc = check_dim(s->moe_blocks, 0, "moe_blocks", e)) != GP_OK)
        return rc;
    if (s->qk_norm < GP_QK_NORM_NONE || s->qk_norm > GP_QK_NORM_FULL)
        return GP_RAISE_AT(e, GP_EINVAL, "qk_norm", 0, 0,
                           "must be GP_QK_NORM_NONE, GP_QK_NORM_HEAD or GP_QK_NORM_FULL (got %d)",
                           s->qk_norm);
    if ((rc = check_dim(s->index_heads, 0, "index_heads", e)) != GP_OK ||
        (rc = check_dim(s->index_head_dim, 0, "index_head_dim", e)) != GP_OK)
        return rc;
    if (s->index_heads > 0.0 &&
        (!(s->index_head_dim > 0.0) || !(s->kv_lora_rank > 0.0) || !(s->q_lora_rank > 0.0)))
        return GP_RAISE_AT(e, GP_EINVAL, "index_heads", 0, 0,
                           "a lightning indexer of %.0f heads needs index_head_dim and latent "
                           "attention with q_lora_rank (its queries come from the query latent)",
                           s->index_heads);
    if (s->expert_matrices != 0.0 && s->expert_matrices != 2.0 && s->expert_matrices != 3.0)
        return GP_RAISE_AT(e, GP_EINVAL, "expert_matrices", 0, 0,
                           "must be 2 (up, down), 3 (gate, up, down) or 0 (as the dense FFN) "
                           "(got %.17g)",
                           s->expert_matrices);
    if (s->linear_layers >= s->layers)
        return GP_RAISE_AT(e, GP_EINVAL, "linear_layers", 0, 0,
                           "%.0f linear-attention layers leave none of the %.0f layers "
                           "attending",
                           s->linear_layers, s->layers);
    if ((rc = check_linear(s, e)) != GP_OK)
        return rc;
    if (s->split_blocks && s->experts > 0.0 && !(s->moe_blocks > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "split_blocks", 0, 0,
                           "blocks of one sublayer (split_blocks) hold %.0f experts only in "
                           "MoE blocks, and moe_blocks is 0",
                           s->experts);
    if (s->moe_blocks > 0.0 && !(s->split_blocks && s->experts > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "moe_blocks", 0, 0,
                           "%.0f MoE blocks without %s", s->moe_blocks,
                           s->split_blocks ? "experts" : "split_blocks");
    if (!s->split_blocks && s->ffn_blocks > 0.0)
        return GP_RAISE_AT(e, GP_EINVAL, "ffn_blocks", 0, 0,
                           "%.0f FFN blocks without split_blocks", s->ffn_blocks);
    h = s->hidden;
    kv = s->kv_heads > 0.0 ? s->kv_heads : s->heads;
    if (kv > s->heads)
        return GP_RAISE_AT(e, GP_EINVAL, "kv_heads", 0, 0,
                           "%.0f key/value heads exceed the %.0f heads", kv, s->heads);
    d = s->head_dim;
    if (!(d > 0.0)) {
        if (fmod(h, s->heads) != 0.0)
            return GP_RAISE_AT(e, GP_EINVAL, "head_dim", 0, 0,
                               "not given, and hidden %.0f is not a multiple of the %.0f heads",
                               h, s->heads);
        d = h / s->heads;
    }
    if (s->kv_lora_rank > 0.0 &&
        (!(s->qk_nope_head_dim > 0.0) || !(s->qk_rope_head_dim > 0.0) || !(s->v_head_dim > 0.0)))
        return GP_RAISE_AT(e, GP_EINVAL, "qk_nope_head_dim", 0, 0,
                           "latent attention (kv_lora_rank %.0f) needs qk_nope_head_dim, "
                           "qk_rope_head_dim and v_head_dim",
                           s->kv_lora_rank);
    if (s->experts_active > s->experts)
        return GP_RAISE_AT(e, GP_EINVAL, "experts_active", 0, 0,
                           "%.0f active experts exceed the %.0f experts", s->experts_active,
                           s->experts);
    if (s->experts > 0.0 && !(s->experts_active > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "experts_active", 0, 0,
                           "a mixture of %.0f experts needs the experts used per token",
                           s->experts);
    if (s->dense_layers > s->layers)
        return GP_RAISE_AT(e, GP_EINVAL, "dense_layers", 0, 0,
                           "%.0f dense layers exceed the %.0f layers", s->dense_layers, s->layers);
    /* With split_blocks the experts sit in MoE blocks, not in layers. */
    moe_layers = s->experts > 0.0 && !s->split_blocks ? s->layers - s->dense_layers : 0.0;
    if ((s->split_blocks ? s->ffn_blocks > 0.0 : moe_layers < s->layers) && !(s->ffn > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "ffn", 0, 0, "dense layers need the FFN width");
    fe = s->expert_ffn > 0.0 ? s->expert_ffn : s->ffn;
    fs = s->shared_ffn > 0.0 ? s->shared_ffn : fe;
    if ((moe_layers > 0.0 || s->moe_blocks > 0.0) && !(fe > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "expert_ffn", 0, 0, "MoE layers need the expert width");

    out->attn = attn_params(s, kv, d);
    if (s->linear_layers > 0.0) {
        if (s->linear_kind == GP_MIXER_MAMBA2) {
            out->linear_attn = mamba2_params(s);
            out->linear_state = mamba2_state(s);
        } else if (s->linear_kind == GP_MIXER_MAMBA1) {
            out->linear_attn = mamba1_params(s);
            out->linear_state = mamba1_state(s);
        } else {
            out->linear_attn = linear_params(s);
            out->linear_state = linear_state(s);
        }
    }
    out->norms = (s->split_blocks ? 1.0
                  : s->norms_per_layer > 0.0 ? s->norms_per_layer
                  : s->sandwich_norm ? 4.0 : 2.0) *
                 h * (s->norm_bias ? 2.0 : 1.0);
    if (s->split_blocks) {
        /* Mixer blocks hold no FFN; each FFN block an FFN and a norm. */
        out->dense_ffn = s->ffn_blocks > 0.0 ? ffn_params(s, s->ffn) : 0.0;
        out->ffn_block = s->ffn_blocks > 0.0 ? out->dense_ffn + out->norms : 0.0;
    } else {
        out->dense_ffn = moe_layers < s->layers ? ffn_params(s, s->ffn) : 0.0;
    }
    if (moe_layers > 0.0 || s->moe_blocks > 0.0) {
        out->expert = expert_params(s, fe);
        out->router = h * s->experts + (s->router_bias ? s->experts : 0.0);
        out->shared = s->shared_experts * expert_params(s, fs) +
                      (s->shared_gate && s->shared_experts > 0.0 ? h : 0.0);
        out->moe_ffn = out->router + s->experts * out->expert + out->shared;
        out->moe_ffn_active = out->router + s->experts_active * out->expert + out->shared;
        if (s->moe_blocks > 0.0)
            out->moe_block = out->moe_ffn + out->norms; /* a norm and the MoE FFN */
        else
            out->moe_layer = out->attn + out->norms + out->moe_ffn;
    }
    if (s->split_blocks)
        out->dense_layer = out->attn + out->norms; /* a mixer block */
    else if (moe_layers < s->layers)
        out->dense_layer = out->attn + out->norms + out->dense_ffn;
    out->embed = s->vocab * h;
    out->lm_head = s->tied ? 0.0 : s->vocab * h;
    out->pos_embed = s->pos_embed * h;
    out->final_norm = h * (s->norm_bias ? 2.0 : 1.0);
    out->embed_norm = s->embed_norm ? out->final_norm : 0.0;
    out->total = (s->layers - moe_layers) * out->dense_layer + moe_layers * out->moe_layer +
                 out->embed + out->lm_head + out->pos_embed + out->final_norm + out->embed_norm;
    out->active = (s->layers - moe_layers) * out->dense_layer +
                  moe_layers * (out->attn + out->norms + out->moe_ffn_active) + out->final_norm +
                  out->embed_norm;
    if (s->active_no_embed)
        out->active += s->vocab * h; /* the unembedding only, tied or not */
    else
        out->active += out->embed + out->lm_head + out->pos_embed;
    /* Linear-attention layers run their mixer in place of the attention. */
    out->total += s->linear_layers * (out->linear_attn - out->attn);
    out->active += s->linear_layers * (out->linear_attn - out->attn);
    /* And FFN blocks stand apart (split_blocks, dense only). */
    out->total += s->ffn_blocks * out->ffn_block;
    out->active += s->ffn_blocks * out->ffn_block;
    /* And MoE blocks (split_blocks): all experts stored, k of them run. */
    out->total += s->moe_blocks * out->moe_block;
    out->active += s->moe_blocks * (out->moe_ffn_active + out->norms);
    if (!(out->linear_state <= GP_MODEL_DIM_MAX)) {
        double st = out->linear_state;
        memset(out, 0, sizeof *out);
        return GP_RAISE_AT(e, GP_EINVAL, "linear_state", 0, 0,
                           "the recurrent state, %.6g elements per layer, is above the "
                           "database's 1e9",
                           st);
    }
    return GP_OK;
}
